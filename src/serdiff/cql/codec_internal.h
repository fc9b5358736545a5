// serdiff::cql internal: what the parts of the optimized Value-tree codec share (codec.cc
// the wire primitives, codec_size.cc the validating size pass, codec_write.cc the write pass,
// codec_decode.cc the decoder). Not part of the public API (that is codec.h).
#pragma once

#include <cstddef>
#include <cstdint>
#include <cstring>
#include <limits>
#include <string>
#include <type_traits>

#include "absl/status/status.h"
#include "absl/status/statusor.h"
#include "serdiff/common/utf8.h"
#include "serdiff/cql/codec.h"
#include "serdiff/cql/value.h"
#include "serdiff/cql/wire_bytes.h"

namespace serdiff::cql::codec_internal {

// time: nanoseconds of the day, 0 .. 86399999999999 (CQL native protocol v4 spec, 6.16).
inline constexpr int64_t kMaxTimeNanos = 86'399'999'999'999;
// date: days since the epoch biased by 2^31, so that the epoch is 2^31 on the wire (v4, 6.5).
inline constexpr int64_t kDateEpoch = int64_t{1} << 31;
// The largest [int] length ([bytes], [value]) and the largest [short] length and count
// (collections in protocol v1/v2).
using wire::kMaxIntLength;
using wire::kMaxShortLength;

using wire::Load16;
using wire::Load32;
using wire::Load64;
using wire::Store16;
using wire::Store32;
using wire::Store64;

// ---- UTF-8 and ASCII (codec.cc) -------------------------------------------------------------

// RFC 3629 (strict_utf8 and the encoder's check): serdiff/common/utf8.h, offset of the first
// ill-formed sequence's lead byte, or n.
using serdiff::AsciiPrefixLength;
using serdiff::FirstInvalidUtf8;

// Index of the first byte of the first sequence that Cassandra's UTF8Serializer.UTF8Validator
// rejects (the sequence's lead byte, also when the input ends inside the sequence), or n.
size_t FirstInvalidCassandraUtf8(const uint8_t* p, size_t n);

// Index of the first byte above 0x7F, or n.
size_t FirstNonAscii(const uint8_t* p, size_t n);

inline const uint8_t* U8(const std::string& s) {
  return reinterpret_cast<const uint8_t*>(s.data());
}

// ---- varint (codec.cc) ------------------------------------------------------------------------

// Bytes of the minimal two's complement form of b (zero: 1).
size_t VarintSize(const BigInt& b);
// Writes the VarintSize(b) bytes of b's minimal two's complement form at p; returns the end.
uint8_t* WriteVarint(const BigInt& b, uint8_t* p);
// Decodes a two's complement varint of n >= 1 bytes.
BigInt ReadVarint(const uint8_t* p, size_t n);

// True when the varint bytes carry a redundant leading sign byte.
inline bool VarintIsPadded(const uint8_t* p, size_t n) {
  return n >= 2 && ((p[0] == 0x00 && p[1] < 0x80) || (p[0] == 0xFF && p[1] >= 0x80));
}

// ---- fixed-width kinds -----------------------------------------------------------------------
// Per kind K: the payload loaded from a Value of K's shape (LoadFixed), whether it is valid
// (FixedPayloadOk: an integer within the kind's range, a timeuuid of version 1) and its bytes
// (StoreFixed). Loops over many elements load each payload into a local before they store
// anything, since a store through uint8_t* may alias the Value and would force a reload.

template <Kind K>
auto LoadFixed(const Value& v) {
  constexpr Value::Shape kShape = ShapeOfKind(K);
  if constexpr (kShape == Value::Shape::kBool) {
    return v.as_bool();
  } else if constexpr (kShape == Value::Shape::kInt) {
    return v.as_int();
  } else if constexpr (kShape == Value::Shape::kFloat) {
    return v.as_float();
  } else if constexpr (kShape == Value::Shape::kDouble) {
    return v.as_double();
  } else {
    static_assert(kShape == Value::Shape::kUuid);
    return v.uuid();
  }
}

template <Kind K, typename T>
constexpr bool FixedPayloadOk(const T& x) {
  if constexpr (K == Kind::kTinyint) {
    return x >= -128 && x <= 127;
  } else if constexpr (K == Kind::kSmallint) {
    return x >= -32768 && x <= 32767;
  } else if constexpr (K == Kind::kInt || K == Kind::kDate) {
    // int: -2^31..2^31-1; date (days): the same range.
    return x >= std::numeric_limits<int32_t>::min() && x <= std::numeric_limits<int32_t>::max();
  } else if constexpr (K == Kind::kTime) {
    return x >= 0 && x <= kMaxTimeNanos;
  } else if constexpr (K == Kind::kTimeuuid) {
    return (x[6] >> 4) == 1;
  } else {
    return true;
  }
}

// Writes the payload at p (FixedWidth(K) bytes); returns the end.
template <Kind K, typename T>
inline uint8_t* StoreFixed(const T& x, uint8_t* p) {
  if constexpr (K == Kind::kBoolean) {
    *p = x ? 1 : 0;
  } else if constexpr (K == Kind::kTinyint) {
    *p = static_cast<uint8_t>(x);
  } else if constexpr (K == Kind::kSmallint) {
    Store16(p, static_cast<uint16_t>(x));
  } else if constexpr (K == Kind::kInt) {
    Store32(p, static_cast<uint32_t>(x));
  } else if constexpr (K == Kind::kDate) {
    Store32(p, static_cast<uint32_t>(x + kDateEpoch));
  } else if constexpr (K == Kind::kFloat) {
    uint32_t bits;
    std::memcpy(&bits, &x, 4);
    Store32(p, bits);
  } else if constexpr (K == Kind::kDouble) {
    uint64_t bits;
    std::memcpy(&bits, &x, 8);
    Store64(p, bits);
  } else if constexpr (K == Kind::kUuid || K == Kind::kTimeuuid) {
    std::memcpy(p, x.data(), 16);
  } else {  // bigint, counter, timestamp, time
    Store64(p, static_cast<uint64_t>(x));
  }
  return p + FixedWidth(K);
}

// Calls f(std::integral_constant<Kind, k>{}) for a fixed-width kind k, so that loops over
// fixed-width elements are compiled once per kind with the per-element kind checks folded.
template <typename F>
auto DispatchFixed(Kind k, F&& f) {
  switch (k) {
    case Kind::kBoolean:
      return f(std::integral_constant<Kind, Kind::kBoolean>{});
    case Kind::kTinyint:
      return f(std::integral_constant<Kind, Kind::kTinyint>{});
    case Kind::kSmallint:
      return f(std::integral_constant<Kind, Kind::kSmallint>{});
    case Kind::kInt:
      return f(std::integral_constant<Kind, Kind::kInt>{});
    case Kind::kDate:
      return f(std::integral_constant<Kind, Kind::kDate>{});
    case Kind::kFloat:
      return f(std::integral_constant<Kind, Kind::kFloat>{});
    case Kind::kBigint:
      return f(std::integral_constant<Kind, Kind::kBigint>{});
    case Kind::kCounter:
      return f(std::integral_constant<Kind, Kind::kCounter>{});
    case Kind::kTimestamp:
      return f(std::integral_constant<Kind, Kind::kTimestamp>{});
    case Kind::kTime:
      return f(std::integral_constant<Kind, Kind::kTime>{});
    case Kind::kDouble:
      return f(std::integral_constant<Kind, Kind::kDouble>{});
    case Kind::kUuid:
      return f(std::integral_constant<Kind, Kind::kUuid>{});
    default:
      return f(std::integral_constant<Kind, Kind::kTimeuuid>{});
  }
}

// True when a value of fixed-width kind `k`, already of the right shape, is valid. The
// fixed-width fast paths of the size and write passes use it; anything else goes through the
// generic path, which also builds the error message.
inline bool FixedValueOk(Kind k, const Value& v) {
  return DispatchFixed(k, [&](auto kind) {
    return FixedPayloadOk<decltype(kind)::value>(LoadFixed<decltype(kind)::value>(v));
  });
}

// The payload of a fixed-width kind (shape and range already checked).
inline uint8_t* WriteFixed(Kind k, const Value& v, uint8_t* p) {
  return DispatchFixed(k, [&](auto kind) {
    return StoreFixed<decltype(kind)::value>(LoadFixed<decltype(kind)::value>(v), p);
  });
}

// InvalidArgument unless kMinProtocolVersion <= version <= kMaxProtocolVersion.
absl::Status CheckVersion(int version);

// ---- size pass (codec_size.cc) ------------------------------------------------------------

// Validates v against t for `version` and returns its payload size in bytes: the work of
// SerializedSize, which the write pass relies on (it writes without checking).
absl::StatusOr<size_t> PayloadSize(const Type& t, const Value& v, int version);

// Bytes of one collection element as the size pass counts them: its [bytes] length prefix (2
// bytes when short_prefix, else 4) plus its payload (none for null). Precondition: the element
// passed the size pass (otherwise 0). Lets code outside codec_size.cc size a single element,
// e.g. mutants/cql/element_fragments.patch.
size_t ElementSize(const Type& t, const Value& e, bool short_prefix);

}  // namespace serdiff::cql::codec_internal
