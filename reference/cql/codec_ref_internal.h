// serdiff::ref::cql internal: what the reference encoder (codec_ref.cc) and decoder
// (codec_ref_decode.cc) share, defined in codec_ref_common.cc: the limits, the type and
// protocol-version checks, and the byte helpers (big-endian integers, the UTF-8 rules, varint
// two's complement bytes, the unsigned vint, ZigZag). Not part of the reference's API (that is
// codec_ref.h). Each function's full description is at its definition.
#pragma once

#include <cstddef>
#include <cstdint>
#include <string>

#include "absl/status/status.h"
#include "serdiff/cql/value.h"

namespace serdiff::ref::cql::codec_ref_internal {

using serdiff::cql::BigInt;
using serdiff::cql::Decimal;
using serdiff::cql::Duration;
using serdiff::cql::Kind;
using serdiff::cql::Type;
using serdiff::cql::Uuid;
using serdiff::cql::Value;
using Shape = serdiff::cql::Value::Shape;

inline constexpr int kMaxNesting = 64;  // same limit as serdiff::cql::kMaxNestingDepth
inline constexpr int64_t kLastTimeNanos = 86399999999999;  // v4 spec 6.16
inline constexpr int64_t kInt32Min = -2147483648LL;
inline constexpr int64_t kInt32Max = 2147483647LL;

// ---- the type ------------------------------------------------------------------------------

// t is a known, well-formed type nested at most max_depth deep; `level` = how many composite
// types enclose t.
absl::Status CheckType(const Type& t, int level, int max_depth);
// version is a native protocol version, 1..5.
absl::Status CheckVersion(int version);

// ---- byte helpers --------------------------------------------------------------------------

// `width` bytes of x, most significant first.
std::string BigEndian(uint64_t x, int width);
// Index of the lead byte of the first ill-formed RFC 3629 sequence, or s.size().
size_t FirstBadUtf8(const std::string& s);
bool IsUtf8(const std::string& s);
// Index of the lead byte of the first sequence Cassandra's text rule rejects, or s.size().
size_t FirstBadCassandraText(const std::string& s);
// Minimal two's complement bytes of a varint, and back (bytes.size() >= 1).
std::string VarintBytes(const BigInt& b);
BigInt VarintValue(const std::string& bytes);
// Cassandra unsigned vint bytes of v.
std::string UnsignedVint(uint64_t v);
uint64_t ZigZag(int64_t n);
int64_t UnZigZag(uint64_t z);
// The value shape that a value of kind k has.
Shape ShapeFor(Kind k);

}  // namespace serdiff::ref::cql::codec_ref_internal
