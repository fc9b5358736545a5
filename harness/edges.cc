// The edge tables of harness/edges.h. Each boundary b contributes its neighbours b - 1, b,
// b + 1 (and for the 7-bit groups b - 2 too: a length-changing encoder is off by one on either
// side); the tables are sorted and unique so that tests and generators see each value once.
#include "harness/edges.h"

namespace serdiff::harness {

std::vector<uint64_t> EdgeUint64() {
  constexpr uint64_t kMax = std::numeric_limits<uint64_t>::max();
  std::vector<uint64_t> v = {0, 1, 2, 63, 64, kMax - 1, kMax};
  for (int k = 1; k <= 9; ++k) {  // 7-bit groups: 2^7 .. 2^63
    const uint64_t b = uint64_t{1} << (7 * k);
    v.insert(v.end(), {b - 2, b - 1, b, b + 1});
  }
  for (int k = 1; k <= 7; ++k) {  // bytes: 2^8 .. 2^56
    const uint64_t b = uint64_t{1} << (8 * k);
    v.insert(v.end(), {b - 1, b, b + 1});
  }
  const uint64_t top = uint64_t{1} << 63;
  v.insert(v.end(), {top - 1, top, top + 1});
  uint64_t p = 1;  // decimal digit counts: 10^1 .. 10^19 (no multiplication past the last)
  for (int k = 1; k <= 19; ++k) {
    p *= 10;
    v.insert(v.end(), {p - 1, p, p + 1});
  }
  return SortedUnique(std::move(v));
}

std::vector<int64_t> EdgeInt64() {
  constexpr int64_t kMin = std::numeric_limits<int64_t>::min();
  constexpr int64_t kMax = std::numeric_limits<int64_t>::max();
  std::vector<int64_t> v = {0, 1, -1, 2, -2, kMin, kMin + 1, kMax, kMax - 1};
  auto around = [&v](int64_t b) { v.insert(v.end(), {b - 1, b, b + 1, -b - 1, -b, -b + 1}); };
  for (int k = 1; k <= 9; ++k) {
    around(int64_t{1} << (7 * k - 1));          // zigzag images of the 7-bit groups
    if (k <= 8) around(int64_t{1} << (7 * k));  // the raw 7-bit groups (2^63 is past max)
  }
  for (int k = 1; k <= 7; ++k) around(int64_t{1} << (8 * k - 1));  // signed byte widths
  around(int64_t{1} << 62);                                        // Fory's 9-byte form
  v.push_back(-(int64_t{1} << 52) - 1);                            // past a double's integers
  int64_t p = 1;  // decimal digit counts: 10^1 .. 10^18 (no multiplication past the last)
  for (int k = 1; k <= 18; ++k) {
    p *= 10;
    around(p);
  }
  return SortedUnique(std::move(v));
}

}  // namespace serdiff::harness
