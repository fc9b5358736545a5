// serdiff::ref::cql — reference implementation of the CQL value codec: slow, obvious, and
// written straight from the spec, as the oracle for the optimized serdiff::cql codec.
//
// Spec: apache/cassandra doc/native_protocol_v4.spec sections 3, 6 and 7;
// native_protocol_v5.spec sections 3 ([vint]) and 6.8 (duration); native_protocol_v3.spec
// section 10 (v1/v2 [short] collections). Same functions, framings, rules and errors as
// serdiff/cql/codec.h (read that file comment for the full list); only the value model
// (serdiff/cql/value.h: plain structs) is shared.
//
// How it differs from the optimized codec, on purpose:
//   * encoding builds every item's bytes as its own string and concatenates them
//     (count + item + item + ...), so its peak heap is a multiple of the output;
//   * integers are written and read one byte at a time with shifts;
//   * a varint is written as 00 + magnitude, negated when negative (invert, add one), and
//     then stripped of redundant sign bytes; minimality is checked on decode by re-encoding
//     the value and comparing lengths;
//   * UTF-8 is checked by decoding every code point;
//   * the Cassandra vint of a duration is transcribed from native_protocol_v5.spec section 3
//     (leading one bits = extra bytes), not taken from serdiff::varint;
//   * collection decoding reserves nothing: it reads elements until the count is reached or
//     the bytes run out.
#pragma once

#include <cstddef>
#include <cstdint>
#include <string>
#include <string_view>

#include "absl/status/statusor.h"
#include "absl/types/span.h"
#include "serdiff/cql/value.h"

namespace serdiff::ref::cql {

using serdiff::cql::DecodeOptions;
using serdiff::cql::Type;
using serdiff::cql::Value;

// Payload bytes (no length prefix) of `v` as `t` in protocol `version` (1..5).
// Example: list<int> [1, 2] (v2) -> 00 02 00 04 00 00 00 01 00 04 00 00 00 02.
absl::StatusOr<std::string> Serialize(const Type& t, const Value& v, int version);
// Serialize(t, v, version)->size().
absl::StatusOr<size_t> SerializedSize(const Type& t, const Value& v, int version);
// Serialize, then copy into `out`; ResourceExhausted when it does not fit.
absl::StatusOr<size_t> SerializeTo(const Type& t, const Value& v, int version,
                                   absl::Span<uint8_t> out);
// [value] framing: null FF FF FF FF, unset FF FF FF FE (v4+), else [int] length + payload.
absl::StatusOr<std::string> SerializeValue(const Type& t, const Value& v, int version);
absl::StatusOr<size_t> SerializedValueSize(const Type& t, const Value& v, int version);

// Reads a whole payload / a whole [value]; errors as serdiff::cql::Deserialize.
// Example: udt<u, a int, b int> from 00 00 00 04 00 00 00 01 -> {a: 1, b: null}.
absl::StatusOr<Value> Deserialize(const Type& t, std::string_view payload, int version,
                                  const DecodeOptions& options = {});
absl::StatusOr<Value> DeserializeValue(const Type& t, std::string_view framed, int version,
                                       const DecodeOptions& options = {});

}  // namespace serdiff::ref::cql
