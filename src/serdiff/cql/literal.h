// serdiff::cql — a text form of values: printing and parsing, directed by the type.
//
// Used as the canonical output of the decode targets (two decoded values are equal exactly
// when their texts are equal), in reports, and as the value column of the golden vectors
// (oracles/python_cassandra/cql_vectors.tsv). It looks like CQL literals, with these rules:
//
//   null, unset, empty            the three special values, for any type
//   true / false                  boolean
//   -42                           tinyint smallint int bigint counter varint (any size),
//                                 timestamp (ms), time (ns), date (days since 1970-01-01)
//   1.5  -0  inf  nan(0x7fc00000) float / double: the shortest text that reads back to the
//                                 same bits (std::to_chars); NaN with its bit pattern
//   'it\'s \xff'                  text / ascii: single quotes; printable ASCII and valid
//                                 UTF-8 as is; ' and \ escaped; other bytes as \xNN
//   0x00ff                        blob (lower-case hex)
//   '127.0.0.1'  '0:0:0:0:0:0:0:1' inet (4 or 16 bytes; IPv6 as 8 groups, never "::")
//   00112233-4455-6677-8899-aabbccddeeff   uuid / timeuuid
//   1.23  0.00  -5  1E+3  123E-50 decimal: exactly (unscaled, scale). For 0 <= scale <= 40 the
//                                 plain form with `scale` fraction digits; otherwise
//                                 <unscaled>E<-scale> with the exponent's sign always shown
//   duration(1, 2, 3)             months, days, nanoseconds
//   [1, null]   {1, 2}   {1: 'a'}   (1, 'x')   {street: 'x', zip: null}
//                                 list, set, map, tuple, UDT (the first k fields, by name)
//
// A value whose shape does not fit the type prints as <shape:...> (for reports only; not
// parseable).
#pragma once

#include <string>
#include <string_view>

#include "absl/status/status.h"
#include "serdiff/cql/value.h"

namespace serdiff::cql {

// The text of `v` read as `t`. Deterministic; injective for values that fit `t`.
// Example: FormatValue(list<text>, ['hello', null]) == "['hello', null]".
std::string FormatValue(const Type& t, const Value& v);

// Inverse of FormatValue for values that fit `t`: ParseValue(t, FormatValue(t, v)) == v.
// Spaces between tokens are free. InvalidArgument with the character offset on a syntax
// error; values are not range-checked against the type (that is the encoder's job).
absl::Status ParseValue(const Type& t, std::string_view text, Value* out);

}  // namespace serdiff::cql
