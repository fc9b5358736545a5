// serdiff::cql internal: big-endian loads and stores of the CQL wire's fixed-width fields
// (native_protocol_v4.spec section 3: [short] is 2 bytes, [int] 4, [long] 8, all big-endian).
// Shared by the Value-tree codec (codec*.cc) and the typed path (typed.cc); not part of the
// public API. Callers guarantee that p points at n readable or writable bytes.
#pragma once

#include <cstddef>
#include <cstdint>
#include <cstring>
#include <limits>

namespace serdiff::cql::wire {

// The largest value of an [int] length or count ([bytes], [value], a v3+ collection count: a
// signed 32-bit int, 2^31 - 1) and of a [short] one (v1/v2 collections: 0xFFFF).
inline constexpr size_t kMaxIntLength = static_cast<size_t>(std::numeric_limits<int32_t>::max());
inline constexpr size_t kMaxShortLength = 0xFFFF;

inline void Store16(uint8_t* p, uint16_t v) {
  v = __builtin_bswap16(v);
  std::memcpy(p, &v, 2);
}
inline void Store32(uint8_t* p, uint32_t v) {
  v = __builtin_bswap32(v);
  std::memcpy(p, &v, 4);
}
inline void Store64(uint8_t* p, uint64_t v) {
  v = __builtin_bswap64(v);
  std::memcpy(p, &v, 8);
}
inline uint16_t Load16(const uint8_t* p) {
  uint16_t v;
  std::memcpy(&v, p, 2);
  return __builtin_bswap16(v);
}
inline uint32_t Load32(const uint8_t* p) {
  uint32_t v;
  std::memcpy(&v, p, 4);
  return __builtin_bswap32(v);
}
inline uint64_t Load64(const uint8_t* p) {
  uint64_t v;
  std::memcpy(&v, p, 8);
  return __builtin_bswap64(v);
}

}  // namespace serdiff::cql::wire
