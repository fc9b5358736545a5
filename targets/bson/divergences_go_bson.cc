// BSON family: the accepted divergences of go_bson (oracles/go_bson: mongo-go-driver's bson
// package 1.8.4 from Debian 12, a Go worker, docs/workers.md), in bson_encode and bson_decode.
// docs/peers.md ("## BSON") lists each; divergences.h says how the predicates work.
#include <algorithm>
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "harness/target.h"
#include "serdiff/bson/codec.h"
#include "serdiff/bson/document.h"
#include "targets/bson/divergences.h"
#include "targets/bson/domain.h"
#include "targets/bson/internal.h"

namespace serdiff::targets::bson {

// bson.Unmarshal checks the UTF-8 of nothing: keys, strings, code, symbols, DBPointer
// namespaces and both cstrings of a regex are taken as bytes.
const Unchecked kGoBsonUnchecked{true, true, true, true, true};

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
    return v.type == Type::kRegex && std::any_of(v.s2.begin(), v.s2.end(), [](char c) {
             return static_cast<uint8_t>(c) >= 0x80;
           });
  });
}

// Every regex's options, in document order (packed arrays hold none).
void CollectOptions(const std::vector<Element>& els, std::vector<std::string>* out) {
  for (const Element& e : els) {
    if (e.value.type == Type::kRegex) out->push_back(e.value.s2);
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

// go_bson's bytes are serdiff's, read back, with each regex's options as Go sorts them.
bool GoSortsOptionsAsRunes(const Document& doc, const Output& opt, const Output& other) {
  if (!opt.ok() || !other.ok() || *opt == *other || !HasNonAsciiRegexOption(doc)) return false;
  sb::DecodeOptions lenient;  // the keys and patterns are the caller's bytes, UTF-8 or not
  lenient.check_utf8 = false;
  lenient.max_depth = kWalkDepth;
  absl::StatusOr<Document> mine = sb::Decode(*opt, lenient);
  absl::StatusOr<Document> theirs = sb::Decode(*other, lenient);
  if (!mine.ok() || !theirs.ok()) return false;
  std::vector<std::string> originals;
  CollectOptions(doc.elements, &originals);
  size_t next = 0;
  if (!PutGoOptions(&mine->elements, originals, &next) || next != originals.size()) return false;
  return *mine == *theirs;
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
       "serdiff 0f000000 0b 7200 6100 0fff00 00, go_bson 11000000 0b 7200 6100 0fefbfbd00 00 "
       "(covered: every other byte as serdiff writes it)",
       GoSortsOptionsAsRunes});
  // Held at its edge: options of ASCII bytes alone (0x7f the last), which Go sorts as serdiff
  // does; any other answer there is a difference to report.
  out[0].edges = [] {
    const Document ascii = DocumentOf(R"({"r": regex /a/imx})");
    const Document other = DocumentOf(R"({"r": regex /a/xmi})");
    return std::vector<harness::DivergenceEdge<Document>>{
        {"regex options imx, ASCII", ascii, *sb::Encode(ascii), *sb::Encode(other) + "x"}};
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
       "on purpose (serdiff's): serdiff rejects nesting deeper than 100 levels (the limit the "
       "spec recommends), bson.Unmarshal has none, e.g. {\"d\": {\"d\": ...}} 101 levels deep: "
       "serdiff rejects, go_bson accepts (covered: the input validates with no depth limit, its "
       "unchecked UTF-8 blanked as above)",
       [](const std::string& in, const Output& opt, const Output& other) {
         return PeerSkipsTheCheck(in, opt, other, kGoBsonUnchecked, kWalkDepth);
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
  out[1].edges = DepthEdges;
  return out;
}

harness::OffsetExemption GoBsonDecodeOffsetExemption() {
  return {"go_bson",
          "bson.Unmarshal's errors carry a message only (\"invalid document length\", \"EOF\"), "
          "no position"};
}

}  // namespace serdiff::targets::bson
