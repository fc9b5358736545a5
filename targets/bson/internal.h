// BSON family, private to targets/bson/: the wire-edge table (wire_edges.cc), and what the
// divergence files of pymongo (divergences_pymongo.cc) and js_bson (divergences_js_bson.cc)
// share, defined in divergences.cc: walking a decoded document, a peer's error text, the
// cstrings a peer's decoder leaves unchecked for UTF-8 (blanked by BlankUncheckedUtf8,
// divergences.h). Tests use targets/bson/domain.h, interchange.h and divergences.h instead.
#pragma once

#include <cstdint>
#include <functional>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "absl/strings/string_view.h"
#include "harness/target.h"
#include "harness/wire_edges.h"
#include "serdiff/bson/document.h"

namespace serdiff::targets::bson {

namespace sb = serdiff::bson;
using harness::Output;
using sb::Document;
using sb::Element;
using sb::Type;
using sb::Value;

// Every length, minimum and reserved-bit field of docs/bson.md's decoder rules, on a valid
// document each, with the error offsets of the edited inputs; the decoders are
// serdiff::bson::Validate and serdiff::ref::bson::Validate with default options (wire_edges.cc).
harness::WireEdgeTable WireEdges();

// The deepest nesting the decode divergences cover (as the libbson ones, divergences_libbson.cc):
// past pymongo's (Python's recursion limit, 1,000), shallow enough for the stack of the walk below.
// js-bson reads deeper documents too: a document that nests deeper before any other error is not
// sent to an outside decoder (bson.cc, the bson.decode interchange); one with an earlier error the
// peer does not check, and nesting past this depth after it, is still a reported difference.
inline constexpr int kWalkDepth = 1000;

// pymongo's bson.regex.Regex holds the options as re flag bits and writes them back in this
// order: every other byte is dropped, and so is a repeat.
inline constexpr std::string_view kRegexFlags = "ilmsux";

// ---- walking a decoded document --------------------------------------------------------------

// True when `pred` holds for some value at any depth (documents, arrays, code_w_scope scopes).
bool AnyValue(const std::vector<Element>& els, const std::function<bool(const Value&)>& pred);
bool HasType(const Document& doc, Type t);
bool HasBinarySubtype(const Document& doc, uint8_t subtype);
// A binary of subtype 0x04 (UUID), or with old_too 0x03 (UUID, old), whose payload is not 16
// bytes.
bool HasUuidNot16Bytes(const Document& doc, bool old_too);
// The document serdiff decoded from an input it accepted (nullopt if it cannot).
std::optional<Document> Decoded(std::string_view in);

// ---- the edges of the divergences (divergences.cc) -------------------------------------------

// The document serdiff::bson::Show prints as `text` (ParseDocument); aborts when it does not
// parse (an edge is written by hand).
Document DocumentOf(std::string_view text);
// Bytes from hex (an edge's input).
std::string BytesOfHex(std::string_view hex);
// {"d": {"d": ... {}}}, `levels` documents deep, as a Document and as its bytes.
Document NestedDocument(int levels);
std::string NestedBytes(int levels);
// The edges of the peers' depth divergences: 100 levels (the limit itself, which a serdiff that
// refused it would get wrong) and kWalkDepth + 1 levels (past the walk), with the peer accepting.
std::vector<harness::DivergenceEdge<std::string>> DepthEdges();
// A rejection whose message is `message` (an answer a divergence reads the text of).
Output Rejection(std::string message);

// ---- a peer's answer -------------------------------------------------------------------------

// serdiff accepted, the peer rejected (not declined) with `text` in its message.
bool PeerRejectedSaying(const Output& opt, const Output& other, absl::string_view text);

// ---- the raw bytes a peer's decoder does not check for UTF-8 -------------------------------

// Which cstrings of a document a decoder reads without checking their UTF-8.
struct Unchecked {
  bool document_keys = false;   // keys of documents and of code_w_scope scopes
  bool array_keys = false;      // keys of arrays
  bool regex_patterns = false;  // the first cstring of a regex
  bool regex_options = false;   // the second
  // the bytes of strings, JavaScript code (also a code_w_scope's), symbols and DBPointer
  // namespaces
  bool string_values = false;
  // the NUL that ends a code_w_scope's code string (a peer that drops the string's last byte
  // unseen): set to NUL before the input is validated
  bool code_terminator = false;
  // the inner length of an old binary (subtype 2), which a peer that frames every binary by its
  // outer length alone never reads: the subtype byte set to 00 (generic) before the input is
  // validated
  bool old_binary_inner_length = false;
};

// What each peer's decoder leaves unchecked (defined in its file; BlankUncheckedUtf8 picks one).
extern const Unchecked kPymongoUnchecked;
extern const Unchecked kJsBsonUnchecked;
extern const Unchecked kGoBsonUnchecked;
// go_bson's UTF-8 and its code_w_scope terminator.
extern const Unchecked kGoBsonUncheckedCode;
// ... and an old binary's inner length.
extern const Unchecked kGoBsonUncheckedOldBinary;
extern const Unchecked kJavaBsonUnchecked;

// serdiff rejected, the peer (pymongo, else js_bson) accepted, and serdiff's Validate accepts
// the input once the bytes the peer does not check are blanked (BlankUncheckedUtf8), with
// nesting up to `max_depth`.
bool PeerSkipsTheCheck(std::string_view in, const Output& opt, const Output& other, bool pymongo,
                       int max_depth);
// The same for any peer's set of unchecked cstrings and strings.
bool PeerSkipsTheCheck(std::string_view in, const Output& opt, const Output& other,
                       const Unchecked& unchecked, int max_depth);

}  // namespace serdiff::targets::bson
