// The timestamp targets' text outputs (targets/timestamp_domains.h DayText, CivilText,
// TimeText) are built digit by digit for speed; they must stay exactly the printf forms the
// corpus records and the reports were written with: "%s%04d-%02d-%02d" (sign apart),
// "T%02d:%02d:%02d.%06d" and "%02d:%02d:%02d.%09d", invalid and extreme fields included.
#include <gtest/gtest.h>

#include <cstdint>
#include <limits>
#include <vector>

#include "absl/strings/str_format.h"
#include "targets/timestamp_domains.h"

namespace serdiff::targets::ts_domains {
namespace {

const std::vector<int32_t>& Fields() {
  static const std::vector<int32_t> v = {0,
                                         1,
                                         9,
                                         10,
                                         59,
                                         99,
                                         100,
                                         999,
                                         1000,
                                         9999,
                                         10000,
                                         999999,
                                         1000000,
                                         -1,
                                         -9,
                                         -10,
                                         -99,
                                         -100,
                                         -1000,
                                         -5877641,
                                         5881580,
                                         123456789,
                                         1000000000,
                                         -1000000,
                                         std::numeric_limits<int32_t>::max(),
                                         std::numeric_limits<int32_t>::min()};
  return v;
}

// -f without overflow (INT32_MIN has no negation in int32_t; its neighbour stands in).
int32_t Neg(int32_t f) {
  return f == std::numeric_limits<int32_t>::min() ? std::numeric_limits<int32_t>::max() : -f;
}

std::string PrintfDay(int32_t y, int32_t m, int32_t d) {
  return absl::StrFormat("%s%04d-%02d-%02d", y < 0 ? "-" : "", y < 0 ? -int64_t{y} : int64_t{y}, m,
                         d);
}

TEST(TimestampTextTest, DayTextIsPrintfForm) {
  EXPECT_EQ(DayText({1970, 1, 1}), "1970-01-01");
  EXPECT_EQ(DayText({-44, 3, 15}), "-0044-03-15");
  for (int32_t y : Fields()) {
    for (int32_t f : Fields()) {
      EXPECT_EQ(DayText({y, f, Neg(f)}), PrintfDay(y, f, Neg(f))) << y << " " << f;
    }
  }
}

TEST(TimestampTextTest, CivilTextIsPrintfForm) {
  EXPECT_EQ(CivilText({1969, 12, 31, 23, 59, 59, 999999}), "1969-12-31T23:59:59.999999");
  EXPECT_EQ(CivilText({1, 1, 1, 0, 0, 0, 0}), "0001-01-01T00:00:00.000000");
  for (int32_t y : Fields()) {
    for (int32_t f : Fields()) {
      EXPECT_EQ(CivilText({y, f, f, Neg(f), f, Neg(f), f}),
                PrintfDay(y, f, f) + absl::StrFormat("T%02d:%02d:%02d.%06d", Neg(f), f, Neg(f), f))
          << y << " " << f;
    }
  }
}

TEST(TimestampTextTest, TimeTextIsPrintfForm) {
  EXPECT_EQ(TimeText({0, 0, 0, 1}), "00:00:00.000000001");
  for (int32_t f : Fields()) {
    for (int32_t g : Fields()) {
      EXPECT_EQ(TimeText({f, g, Neg(f), g}),
                absl::StrFormat("%02d:%02d:%02d.%09d", f, g, Neg(f), g))
          << f << " " << g;
    }
  }
}

}  // namespace
}  // namespace serdiff::targets::ts_domains
