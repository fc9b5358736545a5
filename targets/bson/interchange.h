// BSON family: how the targets' inputs cross to workers and modules (docs/workers.md, "The
// interchange"; harness/external.h): canonical Extended JSON of a Document and the "input" of
// each op. Defined in targets/bson/interchange.cc.
#pragma once

#include <cstdint>
#include <optional>
#include <string>

#include "absl/status/statusor.h"
#include "absl/strings/string_view.h"
#include "serdiff/bson/document.h"

namespace serdiff::targets::bson {

// doc in MongoDB Extended JSON v2, canonical mode (mongodb/specifications,
// source/extended-json/extended-json.md), compact: {"a":{"$numberInt":"1"},"b":[true,null]}.
// Keys in the document's order; wrappers $numberInt, $numberLong, $numberDouble, $binary (base64
// with padding, subType two lower-case hex digits), $oid, $date {$numberLong}, $timestamp,
// $regularExpression (options sorted as the encoders write them), $dbPointer, $code, $scope,
// $symbol, $undefined, $minKey, $maxKey; arrays as JSON arrays (the encoders write the keys "0",
// "1", ... whatever the model holds). A datetime given as civil time is its ms as the reference
// encoder converts it (floor).
// Errors: FailedPrecondition when the text would not denote exactly the bytes the encoders write:
// a key twice in one document, a key beginning with '$' (EJSON reads those as type wrappers or
// DBRefs), a key or string (string, code, symbol, regex, DBPointer namespace) that is not UTF-8
// or holds NUL, a NaN other than 0x7ff8000000000000 (EJSON's "NaN" keeps neither sign nor
// payload), a decimal128 (left to the bytes form); InvalidArgument for a document the encoders
// reject (a NUL in a key or regex, an int32 out of range, a bool not 0 or 1, an ObjectId or
// DBPointer id not 12 bytes, an ill-formed packed array, nesting past 100 levels, a civil time
// out of range).
absl::StatusOr<std::string> CanonicalExtendedJson(const serdiff::bson::Document& doc);
// A double's $numberDouble text: "Infinity", "-Infinity", "NaN" (for 0x7ff8000000000000 only;
// nullopt for any other NaN), "0.0", "-0.0", else the shortest digits that read back as d, laid
// out as Python's repr(float): "1.5", "1.0", "100.0", "0.0001", "1e-05", "1e+16",
// "1.2345678901234568e+18".
std::optional<std::string> ExtendedJsonDouble(double d);

// The "input" of each op (docs/workers.md, "The interchange"):
//   bson.encode        {"document":<CanonicalExtendedJson>}, or {"bson":"<hex>"} of the
//                      reference encoder's bytes where the EJSON would not be exact; Declined
//                      when the reference encoder rejects the document
//   int64.to_decimal   {"value":"-9223372036854775808"}; uint64.to_decimal {"value":"..."}
//   bson.array_keys    {"count":11}
//   bson.decode        {"bson":"<hex>"}
absl::StatusOr<std::string> EncodeInputJson(const serdiff::bson::Document& doc);
std::string DecimalInputJson(int64_t v);
std::string DecimalInputJson(uint64_t v);
std::string ArrayKeysInputJson(uint32_t count);
std::string BytesInputJson(absl::string_view bytes);

}  // namespace serdiff::targets::bson
