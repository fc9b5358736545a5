// BSON family: the accepted divergences of js_bson (oracles/js_bson: npm bson 7.3.4, a worker,
// docs/workers.md), in bson_encode and bson_decode. docs/peers.md ("## BSON") lists each;
// divergences.h says how the predicates work; divergences.cc holds what this file shares with
// pymongo's (divergences_pymongo.cc).
#include <algorithm>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

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
