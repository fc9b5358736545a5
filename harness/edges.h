// Edge values for integer domains, shared by every family: where serializers break.
//
//   * 7-bit group boundaries 2^(7k): LEB128, Fory and Cassandra vint change length there;
//   * byte boundaries 2^(8k) (unsigned) and 2^(8k-1) (signed two's complement): fixed-width
//     and minimal big-endian encodings (CQL varint, BSON int32/int64) change there;
//   * the zigzag images of the 7-bit boundaries (±2^(7k-1)), ±2^62 (Fory's 9-byte form);
//   * decimal boundaries 10^k ± 1: a decimal formatter's digit count changes there;
//   * 0, ±1, ±2 and the extremes (INT64_MIN, whose magnitude has no int64, and INT64_MAX).
//
// EdgeBiased turns a table into a RapidCheck generator that leans on it: an edge, an edge
// ± 1..3, a uniform value in the domain's range, a small value, and any value.
#pragma once

#include <algorithm>
#include <cstdint>
#include <limits>
#include <type_traits>
#include <utility>
#include <vector>

#include <rapidcheck.h>

#include "harness/uniform.h"

namespace serdiff::harness {

// `v` sorted, each value once: the form of every edge table.
template <typename T>
std::vector<T> SortedUnique(std::vector<T> v) {
  std::sort(v.begin(), v.end());
  v.erase(std::unique(v.begin(), v.end()), v.end());
  return v;
}

// Unsigned 64-bit edges (see the file comment). Sorted, unique.
std::vector<uint64_t> EdgeUint64();
// Signed 64-bit edges (see the file comment). Sorted, unique.
std::vector<int64_t> EdgeInt64();

// An edge-biased generator of T: an edge (often), an edge nudged by -3..3 (wrapping at T's
// extremes), a uniform value in [lo, hi] (the domain's valid range; defaults: T's whole
// range), a small value (|v| <= 1000), and any T now and then. Edges and nudges are kept even
// outside [lo, hi]: just past the valid range is where a serializer must reject.
// Precondition: edges not empty, lo <= hi.
template <typename T>
rc::Gen<T> EdgeBiased(std::vector<T> edges, T lo = std::numeric_limits<T>::min(),
                      T hi = std::numeric_limits<T>::max()) {
  static_assert(std::is_integral_v<T> && sizeof(T) >= 2, "a 16- to 64-bit integer type");
  const T small_lo = std::is_signed_v<T> ? static_cast<T>(-1000) : T{0};
  // Uniform over [lo, hi]: an offset in [0, hi - lo] (rc::gen::inRange excludes its upper
  // end, so the full 64-bit range misses only its last value, which the edges hold).
  const uint64_t span = static_cast<uint64_t>(hi) - static_cast<uint64_t>(lo);
  const uint64_t end = span == ~uint64_t{0} ? span : span + 1;
  return rc::gen::weightedOneOf<T>({
      {4, rc::gen::elementOf(edges)},
      {2, rc::gen::map(rc::gen::pair(rc::gen::elementOf(edges), UniformIn<int>(-3, 4)),
                       [](const std::pair<T, int>& p) {  // modular: wraps at the extremes
                         return static_cast<T>(static_cast<uint64_t>(p.first) +
                                               static_cast<uint64_t>(int64_t{p.second}));
                       })},
      {3, rc::gen::map(
              UniformIn<uint64_t>(0, end),
              [lo](uint64_t off) { return static_cast<T>(static_cast<uint64_t>(lo) + off); })},
      {2, UniformIn<T>(small_lo, static_cast<T>(1001))},
      {1, rc::gen::arbitrary<T>()},
  });
}

}  // namespace serdiff::harness
