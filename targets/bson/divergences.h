// BSON family: what serdiff accepts from each implementation it did not write, declared once:
// libbson (oracles/libbson, in process), pymongo (oracles/pymongo: pymongo's bson 3.11 with its C
// extension) and js_bson (oracles/js_bson: npm bson 7.3.4), the last two workers
// (docs/workers.md). Each peer's definitions are in its own file, divergences_<peer>.cc;
// divergences.cc holds what the peer files share (internal.h). docs/peers.md ("## BSON") gives
// each with its example and its kind (on purpose or a bug), and its generated table lists every
// one with its file (`serdiff list --emit divergences-md`). What a peer cannot take at all, its
// worker declines instead.
//
// Every predicate recomputes what the peer answers from the input and holds only when the
// peer's answer is exactly that. tests/bson_test.cc and tests/interchange_test.cc
// ("InterchangePeers") show each on its example and on a nearby input it does not cover.
#pragma once

#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "harness/target.h"
#include "serdiff/bson/document.h"

namespace serdiff::targets::bson {

// ---- libbson 1.23 (divergences_libbson.cc) ----------------------------------------------------
// Where the BSON spec and libbson disagree, the spec decides serdiff's behaviour.
//   LibbsonEncodeDivergences     bson_encode, bson_encode_packed: nesting past 100 levels, regex
//                                options libbson drops
//   LibbsonDecodeDivergences     bson_decode: the checks bson_validate skips, nesting past 100
//   LibbsonDecodeOffsetExemption bson_decode: bson_validate's offsets follow its own rules
std::vector<harness::Divergence<serdiff::bson::Document>> LibbsonEncodeDivergences();
std::vector<harness::Divergence<std::string>> LibbsonDecodeDivergences();
harness::OffsetExemption LibbsonDecodeOffsetExemption();
// bson_encode, bson_encode_packed: the edges of what libbson's API cannot take (the oracle's
// declines, oracles/libbson/libbson.h): each size or byte at the last value it takes and the
// first it cannot, a string with and without a NUL.
std::vector<harness::DeclineEdge<serdiff::bson::Document>> LibbsonEncodeDeclineEdges();

// ---- pymongo (divergences_pymongo.cc) ---------------------------------------------------------
//   PymongoEncodeDivergences     bson_encode: undefined, DBPointer, symbol, a top-level "_id",
//                                regex options, the SystemError of subtype 0xFF
//   PymongoDecodeDivergences     bson_decode: UTF-8 it does not check, nesting past 100, UUIDs of
//                                other than 16 bytes, subtype 0xFF, a value run past its
//                                document's end (PymongoDecodeModel)
//   PymongoDecodeOffsetExemption bson_decode: it reports no error position
std::vector<harness::Divergence<serdiff::bson::Document>> PymongoEncodeDivergences();
std::vector<harness::Divergence<std::string>> PymongoDecodeDivergences();
harness::OffsetExemption PymongoDecodeOffsetExemption();
// The bytes pymongo's bson.encode writes for doc as the bson.encode interchange sends it: a
// top-level "_id" first, undefined as null, a DBPointer as {"$ref": ns, "$id": id}, a symbol
// as a string, regex options cut to the letters of "ilmsux" (once each, in that order).
// nullopt: a document with a key twice (the worker declines it) or one the encoders reject.
std::optional<std::string> PymongoEncodeModel(const serdiff::bson::Document& doc);
// `bson` with every byte >= 0x80 turned into 'a' in the cstrings a peer's decoder leaves
// unchecked (pymongo: array keys and regex options; js_bson (pymongo false): document and array
// keys and regex patterns), the layout followed as BSON 1.1 lays it out; nullopt where the
// layout cannot be followed (a length that does not fit, an unknown type, nesting past 1,000).
std::optional<std::string> BlankUncheckedUtf8(std::string_view bson, bool pymongo);

// What pymongo 3.11's C decoder (bson/_cbsonmodule.c: _cbson_bson_to_dict and the functions it
// calls) does with `in`, as PymongoDecodeModel in divergences_pymongo.cc transcribes it check for
// check: kAccepts, kRejects, or kUnknown where the model does not follow (a byte it would read
// lies past the input, a "$ref" key, nesting past kWalkDepth). *overran: some document's last
// value ran past the end of its element list, the bounds bug PymongoDecodeDivergences covers.
// tests/peer_models_test.cc holds an input for every check the model transcribes.
enum class PymongoDecodeVerdict { kAccepts, kRejects, kUnknown };
PymongoDecodeVerdict PymongoDecode(std::string_view in, bool* overran);

// ---- js_bson (divergences_js_bson.cc) ---------------------------------------------------------
//   JsBsonEncodeDivergences      bson_encode: regex options outside "ilmsux", a UUID of other than
//                                16 bytes
//   JsBsonDecodeDivergences      bson_decode: UTF-8 it does not check, nesting past 100, regex
//                                options
//   JsBsonDecodeOffsetExemption  bson_decode: it reports no error position
std::vector<harness::Divergence<serdiff::bson::Document>> JsBsonEncodeDivergences();
std::vector<harness::Divergence<std::string>> JsBsonDecodeDivergences();
harness::OffsetExemption JsBsonDecodeOffsetExemption();

// ---- go_bson (divergences_go_bson.cc) ---------------------------------------------------------
//   GoBsonEncodeDivergences      bson_encode: regex options sorted as Go runes (U+FFFD for
//                                ill-formed UTF-8)
//   GoBsonDecodeDivergences      bson_decode: UTF-8 it does not check (none), a code_w_scope
//                                code string not ending in NUL, nesting past 100
//   GoBsonDecodeOffsetExemption  bson_decode: it reports no error position
std::vector<harness::Divergence<serdiff::bson::Document>> GoBsonEncodeDivergences();
std::vector<harness::Divergence<std::string>> GoBsonDecodeDivergences();
harness::OffsetExemption GoBsonDecodeOffsetExemption();

// ---- java_bson (divergences_java_bson.cc) -----------------------------------------------------
//   JavaBsonDecodeDivergences      bson_decode: UTF-8 it does not check, nesting past 100
//   JavaBsonDecodeOffsetExemption  bson_decode: it reports no error position
//   JavaBsonDecodeHeapDivergences  bson_decode: a declared length allocated before it is checked
std::vector<harness::Divergence<std::string>> JavaBsonDecodeDivergences();
std::vector<harness::HeapDivergence<std::string>> JavaBsonDecodeHeapDivergences();
harness::OffsetExemption JavaBsonDecodeOffsetExemption();

}  // namespace serdiff::targets::bson
