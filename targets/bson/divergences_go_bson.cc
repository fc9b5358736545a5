// BSON family: the accepted divergences of go_bson (oracles/go_bson: mongo-go-driver's bson
// package 1.8.4 from Debian 12, a Go worker, docs/workers.md), in bson_encode and bson_decode.
// docs/peers.md ("## BSON") lists each; divergences.h says how the predicates work.
#include <algorithm>
#include <cstdint>
#include <cstring>
#include <optional>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "absl/strings/match.h"
#include "harness/target.h"
#include "serdiff/bson/codec.h"
#include "serdiff/bson/document.h"
#include "targets/bson/divergences.h"
#include "targets/bson/domain.h"
#include "targets/bson/interchange.h"
#include "targets/bson/internal.h"

namespace serdiff::targets::bson {

// bson.Unmarshal checks the UTF-8 of nothing: keys, strings, code, symbols, DBPointer
// namespaces and both cstrings of a regex are taken as bytes.
const Unchecked kGoBsonUnchecked{true, true, true, true, true};
const Unchecked kGoBsonUncheckedCode{true, true, true, true, true, true};
const Unchecked kGoBsonUncheckedOldBinary{true, true, true, true, true, true, true};

namespace {

// One code point at s[i] as Go's utf8.DecodeRuneInString reads it: {code point, bytes}, or
// {U+FFFD, 1} for a byte that does not start a well-formed sequence (RFC 3629: no overlong
// form, no surrogate, nothing above U+10FFFF).
std::pair<uint32_t, size_t> GoRune(std::string_view s, size_t i) {
  const auto b0 = static_cast<uint8_t>(s[i]);
  if (b0 < 0x80) return {b0, 1};
  size_t n = 0;
  uint32_t cp = 0;
  uint8_t lo = 0x80, hi = 0xBF;  // the second byte's range
  if (b0 >= 0xC2 && b0 <= 0xDF) {
    n = 2, cp = b0 & 0x1Fu;
  } else if (b0 >= 0xE0 && b0 <= 0xEF) {
    n = 3, cp = b0 & 0x0Fu;
    if (b0 == 0xE0) lo = 0xA0;
    if (b0 == 0xED) hi = 0x9F;
  } else if (b0 >= 0xF0 && b0 <= 0xF4) {
    n = 4, cp = b0 & 0x07u;
    if (b0 == 0xF0) lo = 0x90;
    if (b0 == 0xF4) hi = 0x8F;
  } else {
    return {0xFFFD, 1};
  }
  if (s.size() - i < n) return {0xFFFD, 1};
  for (size_t k = 1; k < n; ++k) {
    const auto b = static_cast<uint8_t>(s[i + k]);
    if (b < (k == 1 ? lo : 0x80) || b > (k == 1 ? hi : 0xBF)) return {0xFFFD, 1};
    cp = (cp << 6) | (b & 0x3Fu);
  }
  return {cp, n};
}

void AppendUtf8(uint32_t cp, std::string* out) {
  if (cp < 0x80) {
    out->push_back(static_cast<char>(cp));
  } else if (cp < 0x800) {
    out->push_back(static_cast<char>(0xC0 | (cp >> 6)));
    out->push_back(static_cast<char>(0x80 | (cp & 0x3F)));
  } else if (cp < 0x10000) {
    out->push_back(static_cast<char>(0xE0 | (cp >> 12)));
    out->push_back(static_cast<char>(0x80 | ((cp >> 6) & 0x3F)));
    out->push_back(static_cast<char>(0x80 | (cp & 0x3F)));
  } else {
    out->push_back(static_cast<char>(0xF0 | (cp >> 18)));
    out->push_back(static_cast<char>(0x80 | ((cp >> 12) & 0x3F)));
    out->push_back(static_cast<char>(0x80 | ((cp >> 6) & 0x3F)));
    out->push_back(static_cast<char>(0x80 | (cp & 0x3F)));
  }
}

// What bsonrw's WriteRegex writes for `options`: sortStringAlphebeticAscending converts them to
// runes ([]rune(s): a byte of ill-formed UTF-8 becomes U+FFFD), sorts the runes, converts back.
std::string GoSortedOptions(std::string_view options) {
  std::vector<uint32_t> runes;
  for (size_t i = 0; i < options.size();) {
    const auto [cp, n] = GoRune(options, i);
    runes.push_back(cp);
    i += n;
  }
  std::sort(runes.begin(), runes.end());
  std::string out;
  for (uint32_t cp : runes) AppendUtf8(cp, &out);
  return out;
}

bool HasNonAsciiRegexOption(const Document& doc) {
  return AnyValue(doc.elements, [](const Value& v) {
    return v.type == Type::kRegex && std::any_of(v.s2.get().begin(), v.s2.get().end(), [](char c) {
             return static_cast<uint8_t>(c) >= 0x80;
           });
  });
}

// Every regex's options, in document order (packed arrays hold none).
void CollectOptions(const std::vector<Element>& els, std::vector<std::string>* out) {
  for (const Element& e : els) {
    if (e.value.type == Type::kRegex) out->push_back(e.value.s2.get());
    if (!sb::IsPacked(e.value)) CollectOptions(e.value.children, out);
  }
}

// Replaces every regex's options, in document order, by Go's sorting of `originals`; false when
// the counts differ.
bool PutGoOptions(std::vector<Element>* els, const std::vector<std::string>& originals,
                  size_t* next) {
  for (Element& e : *els) {
    if (e.value.type == Type::kRegex) {
      if (*next >= originals.size()) return false;
      e.value.s2 = GoSortedOptions(originals[(*next)++]);
    }
    if (!PutGoOptions(&e.value.children, originals, next)) return false;
  }
  return true;
}

constexpr uint64_t kCanonicalNan = 0x7FF8000000000000;  // what the BSON corpus writes for NaN
constexpr uint64_t kGoNan = 0x7FF8000000000001;         // Go's math.NaN()

uint64_t BitsOf(double d) {
  uint64_t b;
  std::memcpy(&b, &d, 8);
  return b;
}

// Replaces every double of bits `from` by `to`; how many it replaced.
int SwapDoubleBits(std::vector<Element>* els, uint64_t from, uint64_t to) {
  int n = 0;
  for (Element& e : *els) {
    if (e.value.type == Type::kDouble && BitsOf(e.value.d) == from) {
      std::memcpy(&e.value.d, &to, 8);
      ++n;
    }
    n += SwapDoubleBits(&e.value.children, from, to);
  }
  return n;
}

// The document go_bson writes for `doc`, as a model: serdiff's bytes (`opt`) read back, each
// regex's options sorted as Go sorts them and, where the input went as Extended JSON (not as
// {"bson": hex}), each NaN as Go's math.NaN(). `nans`: how many NaNs it changed.
std::optional<Document> GoEncodeModel(const Document& doc, const std::string& opt, int* nans) {
  sb::DecodeOptions lenient;  // the keys and patterns are the caller's bytes, UTF-8 or not
  lenient.check_utf8 = false;
  lenient.max_depth = kWalkDepth;
  absl::StatusOr<Document> model = sb::Decode(opt, lenient);
  if (!model.ok()) return std::nullopt;
  std::vector<std::string> originals;
  CollectOptions(doc.elements, &originals);
  size_t next = 0;
  if (!PutGoOptions(&model->elements, originals, &next) || next != originals.size()) {
    return std::nullopt;
  }
  *nans = 0;
  const absl::StatusOr<std::string> sent = EncodeInputJson(doc);
  if (sent.ok() && absl::StartsWith(*sent, "{\"document\"")) {
    *nans = SwapDoubleBits(&model->elements, kCanonicalNan, kGoNan);
  }
  return *std::move(model);
}

// go_bson's answer is the model's, read back; `need` says which departure must be there.
enum class Need { kNonAsciiOption, kNan };
bool GoWroteTheModel(const Document& doc, const Output& opt, const Output& other, Need need) {
  if (!opt.ok() || !other.ok() || *opt == *other) return false;
  if (need == Need::kNonAsciiOption && !HasNonAsciiRegexOption(doc)) return false;
  int nans = 0;
  const std::optional<Document> model = GoEncodeModel(doc, *opt, &nans);
  if (!model || (need == Need::kNan && nans == 0)) return false;
  sb::DecodeOptions lenient;
  lenient.check_utf8 = false;
  lenient.max_depth = kWalkDepth;
  const absl::StatusOr<Document> theirs = sb::Decode(*other, lenient);
  return theirs.ok() && *theirs == *model;
}

}  // namespace

std::vector<harness::Divergence<Document>> GoBsonEncodeDivergences() {
  std::vector<harness::Divergence<Document>> out;
  // go_bson: bson.UnmarshalExtJSON (or bson.Unmarshal, for bytes) into a bson.D, then
  // bson.Marshal.
  out.push_back(
      {"go_bson",
       "bug: bson.Marshal sorts regex options as Go runes (bsonrw's WriteRegex, "
       "sortStringAlphebeticAscending: []rune(options)), so each byte of ill-formed UTF-8 "
       "becomes U+FFFD (3 bytes) and a multi-byte option sorts by code point; BSON 1.1 and "
       "serdiff sort the option bytes and change none, {\"r\": regex /a/ with options ff 0f}: "
       "serdiff 0d000000 0b 7200 6100 0fff00 00, go_bson 0f000000 0b 7200 6100 0fefbfbd00 00 "
       "(covered: every other byte as serdiff writes it, or as the next divergence has it)",
       [](const Document& doc, const Output& opt, const Output& other) {
         return GoWroteTheModel(doc, opt, other, Need::kNonAsciiOption);
       }});
  out.push_back(
      {"go_bson",
       "bug: bson.UnmarshalExtJSON reads {\"$numberDouble\": \"NaN\"} as Go's math.NaN(), "
       "bits 7ff8000000000001, and bson.Marshal writes those; the BSON corpus (double.json) "
       "has NaN as 7ff8000000000000, which serdiff writes, {\"x\": double nan} sent as "
       "Extended JSON: serdiff 10000000 01 7800 000000000000f87f 00, go_bson ... "
       "010000000000f87f 00 (covered: every other byte as serdiff writes it, regex options as "
       "the divergence above has them; a document sent as {\"bson\": hex} keeps its bits)",
       [](const Document& doc, const Output& opt, const Output& other) {
         return GoWroteTheModel(doc, opt, other, Need::kNan);
       }});
  // Held at its edge: options of ASCII bytes alone (0x7f the last), which Go sorts as serdiff
  // does; any other answer there is a difference to report.
  out[0].edges = [] {
    const Document ascii = DocumentOf(R"({"r": regex /a/imx})");
    const Document other = DocumentOf(R"({"r": regex /a/xmi})");
    return std::vector<harness::DivergenceEdge<Document>>{
        {"regex options imx, ASCII", ascii, *sb::Encode(ascii), *sb::Encode(other) + "x"}};
  };
  // A NaN that goes as {"bson": hex} (the \xff key is not UTF-8, so Extended JSON cannot
  // carry the document): bson.Unmarshal keeps its bits, and so must go_bson's answer.
  out[1].edges = [] {
    Document hexed;
    double nan;
    std::memcpy(&nan, &kCanonicalNan, 8);
    hexed.elements.push_back({"\xff", sb::Double(nan)});
    const Document one = DocumentOf(R"({"x": double 0x1.8p+0})");
    std::string go_bits = *sb::Encode(hexed);
    go_bits[go_bits.size() - 9] = '\x01';  // the NaN's low byte, as math.NaN() has it
    return std::vector<harness::DivergenceEdge<Document>>{
        {"a NaN sent as {\"bson\": hex}", hexed, *sb::Encode(hexed), go_bits},
        {"1.5 (0x1.8p+0), not a NaN", one, *sb::Encode(one),
         *sb::Encode(DocumentOf(R"({"x": double 0x1.4p+1})"))}};
  };
  return out;
}

std::vector<harness::Divergence<std::string>> GoBsonDecodeDivergences() {
  std::vector<harness::Divergence<std::string>> out;
  out.push_back(
      {"go_bson",
       "on purpose: bson.Unmarshal (1.8.4) checks no UTF-8: keys, string values, code, "
       "symbols, DBPointer namespaces and regex cstrings are taken as bytes, {\"a\": \"\\xe9\"}: "
       "0e000000 02 6100 02000000 e900 00, serdiff rejects at offset 11, go_bson accepts "
       "(covered: the input validates once those bytes are blanked)",
       [](const std::string& in, const Output& opt, const Output& other) {
         return PeerSkipsTheCheck(in, opt, other, kGoBsonUnchecked, sb::kDefaultMaxDepth);
       }});
  out.push_back(
      {"go_bson",
       "bug: bsonrw's ReadCodeWithScope takes the code string's last byte as its NUL without "
       "looking at it (readString, for strings, code and symbols, checks it): a code_w_scope "
       "whose code ends in another byte is accepted and that byte dropped, {\"c\": "
       "code_w_scope \"x\\x04\" {}} (a fuzz run as the subject, 2026-12-05): 17000000 0f 6300 "
       "0f000000 02000000 7804 0500000000 00, serdiff rejects at offset 16, go_bson accepts "
       "(covered: the input validates once each code_w_scope's last code byte is NUL and the "
       "unchecked UTF-8 blanked as above)",
       [](const std::string& in, const Output& opt, const Output& other) {
         return PeerSkipsTheCheck(in, opt, other, kGoBsonUncheckedCode, sb::kDefaultMaxDepth);
       }});
  out.push_back(
      {"go_bson",
       "on purpose (serdiff's): serdiff rejects nesting deeper than 100 levels (the limit the "
       "spec recommends), bson.Unmarshal has none, e.g. {\"d\": {\"d\": ...}} 101 levels deep: "
       "serdiff rejects, go_bson accepts (covered: the input validates with no depth limit, its "
       "unchecked UTF-8 blanked, code_w_scope terminators set and old binaries framed by their "
       "outer length as below)",
       [](const std::string& in, const Output& opt, const Output& other) {
         return PeerSkipsTheCheck(in, opt, other, kGoBsonUncheckedOldBinary, kWalkDepth);
       }});
  out[0].edges = [] {
    // A string e9 whose length runs one byte past its element: a layout error, not UTF-8.
    const std::string runs_past = BytesOfHex("0e00000002610003000000e90000");
    const std::string valid = BytesOfHex("090000000861000100");
    return std::vector<harness::DivergenceEdge<std::string>>{
        {"a string e9 whose length runs past its element", runs_past, sb::Validate(runs_past),
         runs_past},
        {"{\"a\": true}, valid", valid, Rejection("planted"), valid}};
  };
  out[1].edges = [] {
    // A string, a JavaScript code and a symbol whose last byte is not NUL (readString checks
    // it, so go_bson rejects them), and the code_w_scope of the finding with its NUL.
    const std::string string = BytesOfHex("0e00000002610002000000780400");
    const std::string code = BytesOfHex("0e0000000d610002000000780400");
    const std::string symbol = BytesOfHex("0e0000000e610002000000780400");
    const std::string valid = BytesOfHex("170000000f63000f000000020000007800050000000000");
    return std::vector<harness::DivergenceEdge<std::string>>{
        {"a string 78 04 without its NUL", string, sb::Validate(string), string},
        {"JavaScript code 78 04 without its NUL", code, sb::Validate(code), code},
        {"a symbol 78 04 without its NUL", symbol, sb::Validate(symbol), symbol},
        {"the code_w_scope \"x\" with its NUL, valid", valid, Rejection("planted"), valid}};
  };
  out.push_back(
      {"go_bson",
       "bug: an old binary (subtype 2) is read by its inner length only when the outer one is "
       "above 4, and never checked against it: bson.Raw's Validate frames every binary by its "
       "outer length, bsonrw's ReadBinary then reads `length > 4 ? inner : outer` bytes, so an "
       "old binary whose inner length is not the outer one minus 4 is accepted; BSON 1.1 wants "
       "the inner int32 equal to it, as serdiff, libbson, pymongo, js-bson and java_bson "
       "check, {\"b\": old binary, outer length 0} (a bug-class review, 2026-12-07): "
       "0d000000 05 6200 00000000 02 00, serdiff rejects at offset 12, go_bson accepts "
       "(covered: the input validates once each old binary is framed by its outer length, its "
       "UTF-8 and code_w_scope terminators as above)",
       [](const std::string& in, const Output& opt, const Output& other) {
         return PeerSkipsTheCheck(in, opt, other, kGoBsonUncheckedOldBinary, sb::kDefaultMaxDepth);
       }});
  out[2].edges = DepthEdges;
  out[3].edges = [] {
    // An old binary with its inner length right (valid), a generic binary whose outer length
    // runs past its document (no framing takes it), and the finding's old binary beside a bool 2
    // (go_bson rejects that byte too).
    const std::string valid = BytesOfHex("1100000005620004000000020000000000");
    const std::string runs_past = BytesOfHex("0d000000056200050000000000");
    const std::string with_bool2 = BytesOfHex("1100000005620000000000020863000200");
    return std::vector<harness::DivergenceEdge<std::string>>{
        {"an old binary with inner length 0 = 4 - 4, valid", valid, Rejection("planted"), valid},
        {"a generic binary whose length runs past its document", runs_past, sb::Validate(runs_past),
         runs_past},
        {"the finding's old binary beside a bool 2", with_bool2, sb::Validate(with_bool2),
         with_bool2}};
  };
  return out;
}

harness::OffsetExemption GoBsonDecodeOffsetExemption() {
  return {"go_bson",
          "bson.Unmarshal's errors carry a message only (\"invalid document length\", \"EOF\"), "
          "no position"};
}

}  // namespace serdiff::targets::bson
