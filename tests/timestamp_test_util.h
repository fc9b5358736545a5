// Shared by the timestamp family's unit tests, tests/timestamp_test.cc (exact values, calendar,
// edge lists, driver golden vectors) and tests/timestamp_conversions_test.cc (wire forms, range
// errors, rounding): the int64 limits, big-endian hex of a wire value, a civil time in one call
// and its Unix milliseconds.
#pragma once

#include <gtest/gtest.h>

#include <cstdint>
#include <limits>
#include <string>

#include "absl/status/statusor.h"
#include "harness/hex.h"
#include "serdiff/timestamp/timestamp.h"

namespace serdiff::timestamp::test_util {

inline constexpr int64_t kInt64Min = std::numeric_limits<int64_t>::min();
inline constexpr int64_t kInt64Max = std::numeric_limits<int64_t>::max();

inline std::string Be64(int64_t v) {
  std::string s(8, '\0');
  for (int i = 0; i < 8; ++i) s[i] = static_cast<char>(static_cast<uint64_t>(v) >> (56 - 8 * i));
  return harness::Hex(s);
}
inline std::string Be32(uint32_t v) {
  std::string s(4, '\0');
  for (int i = 0; i < 4; ++i) s[i] = static_cast<char>(v >> (24 - 8 * i));
  return harness::Hex(s);
}

inline CivilDateTime C(int y, int mo, int d, int h = 0, int mi = 0, int s = 0, int us = 0) {
  return CivilDateTime{y, mo, d, h, mi, s, us};
}

inline int64_t Ms(const CivilDateTime& c, Rounding r = Rounding::kFloor) {
  absl::StatusOr<int64_t> v = ToUnixMillis(c, r);
  EXPECT_TRUE(v.ok()) << v.status();
  return v.ok() ? *v : 0;
}

}  // namespace serdiff::timestamp::test_util
