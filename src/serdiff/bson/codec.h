// serdiff::bson codec: the optimized encoder and the validating decoder of BSON 1.1
// documents (docs/bson.md has the layout and every rule in the project's own words; the
// source is the BSON specification, bsonspec.org / mongodb/specifications "bson").
//
// Encoder: one size pass (EncodedSize) and one write pass into a single buffer of exactly that
// size; embedded lengths are written back once their document is complete; array keys come
// from ArrayKeyCounter (int_format.h), never from a per-element formatting. UTC datetimes given
// as a civil time are converted by serdiff::timestamp::ToUnixMillis (floor), never by a copy
// of that conversion. Peak heap: the output string, nothing else.
//
// Decoder: Validate checks a byte string without allocating (except an error's message);
// Decode also builds the Document. Both follow the same rules, in input order, and report
// the first violation with serdiff::InvalidAt (src/serdiff/common/error_offset.h): the offset
// is where the first invalid field starts; a length is invalid as soon as the bytes that
// remain (inside the enclosing document, before its terminating NUL) cannot hold it. Nothing
// is reserved in proportion to a length.
#pragma once

#include <cstdint>
#include <string>
#include <string_view>

#include "absl/status/status.h"
#include "absl/status/statusor.h"
#include "serdiff/bson/document.h"

namespace serdiff::bson {

// Nesting limit (levels, the top-level document being level 1; see Depth in document.h).
inline constexpr int kDefaultMaxDepth = 100;
// Smallest document: int32 length 5 + terminating NUL.
inline constexpr int32_t kMinDocumentSize = 5;

// ---- encoder ----------------------------------------------------------------------------

// Size in bytes of Encode(doc), or the error Encode would return:
//   InvalidArgument: a document key containing NUL (array element keys are ignored); a regex
//     pattern or options containing NUL; an ObjectId or DBPointer id not 12 bytes, a decimal128
//     not 16 bytes; an int32 value outside int32; a bool other than 0 or 1; a civil datetime
//     that serdiff::timestamp rejects; nesting deeper than kDefaultMaxDepth levels.
//   OutOfRange: a string, binary or document whose length does not fit int32.
// Keys and strings are not checked for UTF-8 (the caller's duty; Validate checks them).
absl::StatusOr<uint64_t> EncodedSize(const Document& doc);

// The BSON bytes of doc (errors: as EncodedSize). Allocates the output once, exactly sized.
// Canonical forms the spec prescribes are written whatever the value holds: a regex's options
// in alphabetical (byte) order (BSON 1.1, element 0x0B: {r: /a/xi} is stored with "ix").
absl::StatusOr<std::string> Encode(const Document& doc);

// The int64 milliseconds the encoder writes for a UTC datetime value (civil: floor of the
// microseconds, by serdiff::timestamp::ToUnixMillis; else v.i). Errors: as the timestamp
// family's (InvalidArgument for invalid fields). Precondition: v.type == kDateTime.
absl::StatusOr<int64_t> DateTimeMillisOf(const Value& v);

// ---- decoder / validator --------------------------------------------------------------

struct DecodeOptions {
  // Keys, string values (string, code, symbol, code-with-scope code, DBPointer namespace) and
  // regex pattern/options must be well-formed UTF-8 (RFC 3629: no overlong forms, no
  // surrogates, nothing above U+10FFFF). On by default, as the spec requires.
  bool check_utf8 = true;
  // Array keys must be "0", "1", ... in order. Off by default (as libbson).
  bool check_array_keys = false;
  // Deepest nesting accepted (levels; the top-level document is level 1).
  int max_depth = kDefaultMaxDepth;
  // With check_utf8: also check values (on by default). Off, only keys are checked, which is
  // what libbson 1.23's bson_validate(BSON_VALIDATE_UTF8) does (used by the target's
  // accepted-divergence predicate).
  bool check_utf8_values = true;
  // libbson 1.23 emulation, for the target's accepted-divergence predicate only (off by
  // default, never on in real use). What libbson's bson_validate (bson_iter_next plus
  // bson_iter_visit_all) does and the spec does not: a code_w_scope has only its lengths
  // checked (not its code string's NUL); its scope is validated only when it ends with 0x00,
  // and then the document holding the code_w_scope is accepted without looking further; a
  // value with ill-formed UTF-8 (string, code, symbol, regex pattern, DBPointer namespace)
  // likewise ends its document's validation with success; an embedded document or array
  // whose length is below 5 or whose last byte is not 0x00 is stepped over unchecked. In each
  // case the parent documents go on being checked. A regex's options are not checked for UTF-8
  // at all (libbson looks at its pattern only).
  bool libbson_quirks = false;
};

// OK when `bytes` is exactly one valid BSON document. Every error is InvalidArgument with its
// offset (ErrorOffset) and names it in the message; the rules, checked front to back:
//   * total length: 4 bytes present, >= 5, equal to bytes.size()                 (offset 0)
//   * an embedded document / array: 4 length bytes fit, length >= 5 and fits the
//     bytes that remain before the parent's terminator          (offset of its length)
//   * deeper than max_depth                                     (offset of its length)
//   * type byte: a BSON 1.1 type; 0x00 only as the document's last byte  (type offset)
//   * key: NUL-terminated before the document's terminator (key offset), UTF-8 (offset of the
//     first ill-formed sequence), with check_array_keys the expected index (key offset)
//   * fixed-size payloads (double 8, ObjectId 12, bool 1, datetime 8, int32 4, timestamp 8,
//     int64 8, decimal128 16) fit                                        (payload offset)
//   * bool is 0 or 1                                                     (payload offset)
//   * string-like: 4 length bytes fit, length >= 1 and fits (length offset); content UTF-8
//     (first bad sequence); last byte NUL (offset of that byte)
//   * binary: length >= 0 and length + subtype fit (length offset); subtype 0x02: payload
//     length >= 4 and inner length == payload length - 4             (inner length offset)
//   * regex: two cstrings, each NUL-terminated (cstring offset), UTF-8
//   * code with scope: total length fits and >= 14 (length offset); the code string inside the
//     total; the scope document's length fits and ends exactly at the total (scope offset)
//   * the last byte of each document is NUL                      (offset of that last byte)
absl::Status Validate(std::string_view bytes, const DecodeOptions& options = {});

// True when Validate(bytes, options) fails first at a document nested deeper than
// options.max_depth (no other error before it in the walk). For the depth guards of the peers
// whose walks recurse without a limit (the libbson oracle, the bson.decode interchange).
bool NestsTooDeepFirst(std::string_view bytes, const DecodeOptions& options);

// Validate, then the document (array element keys kept as found, datetimes as ms). The same
// errors, at the same offsets, as Validate; one pass that builds as it checks.
//
// Heap: at most kDecodeHeapPerInputByte bytes per input byte + 4 KiB, accepted or rejected.
// Each document's element vector is sized once, from a count of its elements taken by stepping
// over their length fields (never more than half the document's bytes), and an Element is 128
// bytes (x86-64, libstdc++), so 2-byte elements (a null with an empty key) peak at 64 bytes per
// input byte; longer keys and strings allocate their own bytes at most. Asserted by the target
// bson_decode on every input and by BsonDecode.ModelHeapPerInputByteOnTheCheapestElements.
absl::StatusOr<Document> Decode(std::string_view bytes, const DecodeOptions& options = {});

// Decode's heap budget per input byte (the issue-36 goal for every decoder).
inline constexpr int64_t kDecodeHeapPerInputByte = 64;

}  // namespace serdiff::bson
