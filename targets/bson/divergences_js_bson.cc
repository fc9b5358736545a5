// BSON family: the accepted divergences of js_bson (oracles/js_bson: npm bson 7.3.4, a worker,
// docs/workers.md), in bson_encode and bson_decode. docs/peers.md ("## BSON") lists each;
// divergences.h says how the predicates work; divergences.cc holds what this file shares with
// pymongo's (divergences_pymongo.cc).
#include <algorithm>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "absl/strings/numbers.h"
#include "absl/strings/str_cat.h"
#include "harness/target.h"
#include "serdiff/bson/codec.h"
#include "serdiff/bson/document.h"
#include "targets/bson/divergences.h"
#include "targets/bson/domain.h"
#include "targets/bson/internal.h"

namespace serdiff::targets::bson {

namespace {

// A regex with an option byte outside "ilmsux".
bool HasRegexOptionOutsideIlmsux(const Document& doc) {
  return AnyValue(doc.elements, [](const Value& v) {
    return v.type == Type::kRegex && std::any_of(v.s2.get().begin(), v.s2.get().end(), [](char c) {
             return kRegexFlags.find(c) == std::string_view::npos;
           });
  });
}

// How far js-bson 6's BSON.calculateObjectSize is from the bytes BSON.serialize writes for
// `doc`: 12 bytes more for each Int32 and each symbol (it has no branch for the Int32 wrapper
// and a stale one for BSONSymbol, so it counts either as a sub-document holding its `value`),
// 9 fewer for each code_w_scope whose scope is empty (it counts plain code). js-bson #901
// (NODE-7631) and #911 (NODE-7661); js-bson 7 counts all three right, so for it the answer
// never differs. Measured with bson 6.10.4 (oracles/node_review): {"a": int32 2} 24 for 12
// written, {"a": symbol "sym"} 28 for 16, {"a": code_w_scope "x" {}} 14 for 23.
int64_t JsBson6SizeMiscount(const Document& doc) {
  int64_t delta = 0;
  AnyValue(doc.elements, [&delta](const Value& v) {
    if (v.type == Type::kInt32 || v.type == Type::kSymbol) delta += 12;
    if (v.type == Type::kCodeWithScope && v.children.empty()) delta -= 9;
    if (IsPacked(v) && PackedType(v) == Type::kInt32) {
      delta += 12 * static_cast<int64_t>(PackedSize(v));
    }
    return false;  // visit every value
  });
  return delta;
}

// The two sizes of the worker's rejection "calculateObjectSize N != written M"
// (oracles/js_bson/worker.js, serializeChecked: the worker's own words, not js-bson's).
std::optional<std::pair<int64_t, int64_t>> SizesOfMismatch(const Output& other) {
  if (other.ok()) return std::nullopt;
  const absl::string_view m = other.status().message();
  constexpr absl::string_view kHead = "calculateObjectSize ";
  constexpr absl::string_view kMid = " != written ";
  const size_t at = m.find(kHead);
  if (at == absl::string_view::npos) return std::nullopt;
  const absl::string_view rest = m.substr(at + kHead.size());
  const size_t mid = rest.find(kMid);
  if (mid == absl::string_view::npos) return std::nullopt;
  int64_t counted = 0;
  int64_t written = 0;
  if (!absl::SimpleAtoi(rest.substr(0, mid), &counted) ||
      !absl::SimpleAtoi(rest.substr(mid + kMid.size()), &written)) {
    return std::nullopt;
  }
  return std::make_pair(counted, written);
}

}  // namespace

// Keys of documents and arrays and regex patterns (BSON.deserialize's {utf8: true} covers
// string values only).
const Unchecked kJsBsonUnchecked{true, true, true, false};

std::vector<harness::Divergence<Document>> JsBsonEncodeDivergences() {
  std::vector<harness::Divergence<Document>> out;
  // js_bson: EJSON.parse (or BSON.deserialize, for bytes) then BSON.serialize.
  out.push_back(
      {"js_bson",
       "on purpose: js-bson's BSONRegExp refuses an option outside i, l, m, s, u, x (\"The "
       "regular expression option [q] is not supported\"); BSON 1.1 and serdiff take any "
       "option byte, sorted, {\"r\": regex /abc/q}: serdiff 0e000000 0b 7200 61626300 7100 00, "
       "js-bson rejects it",
       [](const Document& doc, const Output& opt, const Output& other) {
         return HasRegexOptionOutsideIlmsux(doc) &&
                PeerRejectedSaying(opt, other, "The regular expression option [");
       }});
  out.push_back(
      {"js_bson",
       "on purpose: EJSON.parse reads a $binary of subtype 04 as a UUID, which must be 16 "
       "bytes (\"Argument passed in UUID constructor must be a UUID, a 16 byte Buffer or ...\"); "
       "BSON 1.1 sets no length (and BSON.deserialize takes it), {\"a\": binary subtype 4 "
       "010203}: serdiff 10000000 05 6100 03000000 04 010203 00, js-bson rejects",
       [](const Document& doc, const Output& opt, const Output& other) {
         return HasUuidNot16Bytes(doc, false) &&
                PeerRejectedSaying(opt, other, "Argument passed in UUID constructor");
       }});
  out.push_back(
      {"js_bson",
       "bug (js-bson 6, fixed in 7: js-bson #901, NODE-7631; #911, NODE-7661): "
       "BSON.calculateObjectSize counts an Int32 or a symbol as 12 bytes more than "
       "BSON.serialize writes (the wrapper walked as a sub-document holding its value) and a "
       "code_w_scope with an empty scope as 9 fewer, {\"a\": int32 2}: serialize writes "
       "0c000000 10 6100 02000000 00, calculateObjectSize says 24, so the worker rejects "
       "(covered: the written size is serdiff's and the miscount is exactly 12 per Int32 and "
       "symbol less 9 per empty-scope code_w_scope, not 0; js-bson 7 never differs)",
       [](const Document& doc, const Output& opt, const Output& other) {
         if (!opt.ok() || !PeerRejectedSaying(opt, other, "calculateObjectSize ")) return false;
         const std::optional<std::pair<int64_t, int64_t>> sizes = SizesOfMismatch(other);
         if (!sizes || sizes->second != static_cast<int64_t>(opt->size())) return false;
         const int64_t miscount = JsBson6SizeMiscount(doc);
         return miscount != 0 && sizes->first - sizes->second == miscount;
       }});
  // Held at their edges: what js-bson takes (every option of ilmsux; a UUID of 16 bytes; a
  // subtype 3 of other than 16 bytes, which EJSON.parse does not make a UUID).
  out[0].edges = [] {
    const Document doc = DocumentOf(R"({"r": regex /abc/ilmsux})");
    return std::vector<harness::DivergenceEdge<Document>>{
        {"regex options ilmsux", doc, *sb::Encode(doc),
         Rejection("The regular expression option [q] is not supported")}};
  };
  out[1].edges = [] {
    const Document uuid = DocumentOf(R"({"a": binary subtype 4 00112233445566778899aabbccddeeff})");
    const Document old = DocumentOf(R"({"a": binary subtype 3 010203})");
    const Output no = Rejection("Argument passed in UUID constructor must be a UUID");
    return std::vector<harness::DivergenceEdge<Document>>{
        {"a UUID of 16 bytes", uuid, *sb::Encode(uuid), no},
        {"a binary of subtype 3 and 3 bytes", old, *sb::Encode(old), no}};
  };
  // The miscount one off, the written size not serdiff's, and documents whose miscount is 0 (a
  // double; 3 Int32s beside 4 empty-scope code_w_scopes, 36 - 36).
  out[2].edges = [] {
    const Document one = DocumentOf(R"({"a": int32 2})");
    const Document dbl = DocumentOf(R"({"a": double 0x1p+0})");
    const Document even = DocumentOf(
        R"({"a": int32 1, "b": int32 2, "c": int32 3, "d": code_w_scope "x" {}, )"
        R"("e": code_w_scope "x" {}, "f": code_w_scope "x" {}, "g": code_w_scope "x" {}})");
    const auto said = [](size_t counted, size_t written) {
      return Rejection(absl::StrCat("calculateObjectSize ", counted, " != written ", written));
    };
    const size_t n_one = sb::Encode(one)->size();
    const size_t n_even = sb::Encode(even)->size();
    return std::vector<harness::DivergenceEdge<Document>>{
        {"{\"a\": int32 2} counted 11 bytes over, not 12", one, *sb::Encode(one),
         said(n_one + 11, n_one)},
        {"{\"a\": int32 2} counted 12 over a written size one byte longer than serdiff's", one,
         *sb::Encode(one), said(n_one + 13, n_one + 1)},
        {"{\"a\": double 1}, no miscount", dbl, *sb::Encode(dbl),
         said(sb::Encode(dbl)->size() + 12, sb::Encode(dbl)->size())},
        {"3 Int32s and 4 empty-scope code_w_scopes, miscounts that cancel", even, *sb::Encode(even),
         said(n_even + 12, n_even)}};
  };
  return out;
}

std::vector<harness::Divergence<std::string>> JsBsonDecodeDivergences() {
  std::vector<harness::Divergence<std::string>> out;
  out.push_back(
      {"js_bson",
       "on purpose: BSON.deserialize's validation {utf8: true} covers string values only; keys "
       "(of documents and arrays) and regex patterns are read as UTF-8 with U+FFFD for what is "
       "ill-formed, {\"\\xe9\": null}: 08000000 0a e900 00, serdiff rejects at offset 5, "
       "js-bson accepts (covered: the input validates once those bytes are blanked)",
       [](const std::string& in, const Output& opt, const Output& other) {
         return PeerSkipsTheCheck(in, opt, other, /*pymongo=*/false, sb::kDefaultMaxDepth);
       }});
  out.push_back(
      {"js_bson",
       "on purpose (serdiff's): serdiff rejects nesting deeper than 100 levels (the limit the "
       "spec recommends), js-bson has none, e.g. {\"d\": {\"d\": ...}} 101 levels deep: serdiff "
       "rejects, js-bson accepts (covered: the input validates with no depth limit, keys and "
       "regex patterns blanked as above)",
       [](const std::string& in, const Output& opt, const Output& other) {
         return PeerSkipsTheCheck(in, opt, other, /*pymongo=*/false, kWalkDepth);
       }});
  out.push_back(
      {"js_bson",
       "on purpose: BSON.deserialize builds a BSONRegExp, which refuses an option outside i, "
       "l, m, s, u, x (\"The regular expression option [a] is not supported\"); BSON 1.1 and "
       "serdiff take any UTF-8 option, 0c000000 0b 7200 6100 6100 00: serdiff accepts, "
       "js-bson rejects",
       [](const std::string& in, const Output& opt, const Output& other) {
         if (!PeerRejectedSaying(opt, other, "The regular expression option [")) return false;
         const std::optional<Document> doc = Decoded(in);
         return doc.has_value() && HasRegexOptionOutsideIlmsux(*doc);
       }});
  out[0].edges = [] {
    const std::string str = BytesOfHex("0e00000002610002000000ff0000");  // a string value ff
    const std::string opts = BytesOfHex("0c0000000b61006100ff0000");     // a regex option byte ff
    const std::string valid = BytesOfHex("090000000861000100");
    return std::vector<harness::DivergenceEdge<std::string>>{
        {"a string value ff, which js-bson checks", str, sb::Validate(str), str},
        {"a regex option byte ff, which js-bson reads as an option", opts, sb::Validate(opts),
         opts},
        {"{\"a\": true}, valid", valid, Rejection("planted"), valid}};
  };
  out[1].edges = DepthEdges;
  out[2].edges = [] {
    const std::string legal = BytesOfHex("110000000b61006100696c6d7375780000");
    return std::vector<harness::DivergenceEdge<std::string>>{
        {"regex options ilmsux", legal, legal,
         Rejection("The regular expression option [i] is not supported")}};
  };
  return out;
}

harness::OffsetExemption JsBsonDecodeOffsetExemption() {
  return {"js_bson", "BSON.deserialize throws a BSONError with a message only, no position"};
}

}  // namespace serdiff::targets::bson
