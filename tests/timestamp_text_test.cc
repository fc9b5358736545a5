// The timestamp targets' text outputs (targets/timestamp/domain.h DayText, CivilText,
// TimeText) are built digit by digit for speed; they must stay exactly the printf forms the
// corpus records and the reports were written with: "%s%04d-%02d-%02d" (sign apart),
// "T%02d:%02d:%02d.%06d" and "%02d:%02d:%02d.%09d", invalid and extreme fields included.
// The outputs the harness compares are the packed field bytes (CivilBytes, DayBytes,
// TimeBytes): exact bytes, both forms, and that no two field sets share bytes.
#include <gtest/gtest.h>

#include <cstdint>
#include <limits>
#include <set>
#include <string>
#include <vector>

#include "absl/strings/str_format.h"
#include "targets/timestamp/domain.h"

namespace serdiff::targets::timestamp {
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

TEST(TimestampTextTest, OutputBytesOfValidValuesAreCompact) {
  using std::string_literals::operator""s;
  // 1969-12-31T23:59:59.999999: year 0x000007b1, 12, 31, 23, 59, 59, µs 0x0f423f.
  EXPECT_EQ(CivilBytes({1969, 12, 31, 23, 59, 59, 999999}),
            "\x00\x00\x07\xb1\x0c\x1f\x17\x3b\x3b\x0f\x42\x3f"s);
  EXPECT_EQ(DayBytes({2000, 2, 29}), "\x00\x00\x07\xd0\x02\x1d"s);
  // 23:59:59.999999999: ns 0x3b9ac9ff.
  EXPECT_EQ(TimeBytes({23, 59, 59, 999999999}), "\x17\x3b\x3b\x3b\x9a\xc9\xff"s);
}

TEST(TimestampTextTest, OutputBytesOfOutOfRangeFieldsTakeFourBytesEach) {
  using std::string_literals::operator""s;
  // Month 257 must not pack as month 1, nor µs 2^24 as 0, nor a negative day as 255.
  EXPECT_EQ(CivilBytes({1, 257, 1, 0, 0, 0, 0}),
            "\0\0\0\x01\0\0\x01\x01\0\0\0\x01\0\0\0\0\0\0\0\0\0\0\0\0\0\0\0\0"s);
  EXPECT_EQ(CivilBytes({1, 1, 1, 0, 0, 0, 1 << 24}).size(), 28u);
  EXPECT_EQ(DayBytes({1, 1, -1}), "\0\0\0\x01\0\0\0\x01\xff\xff\xff\xff"s);
  EXPECT_EQ(TimeBytes({-1, 0, 0, 0}).size(), 16u);
  EXPECT_EQ(TimeBytes({0, 0, 0, -1}).size(), 7u);  // a four-byte field holds any int32
  EXPECT_NE(CivilBytes({1, 257, 1, 0, 0, 0, 0}), CivilBytes({1, 1, 1, 0, 0, 0, 0}));
}

TEST(TimestampTextTest, OutputBytesReadBackToTheirFields) {
  std::set<std::string> seen;
  int n = 0;
  for (int32_t f : Fields()) {
    for (int32_t g : Fields()) {
      const ts::CivilDateTime c{f, g, Neg(f), g, f, 59, g};
      absl::StatusOr<ts::CivilDateTime> back = CivilOfBytes(CivilBytes(c));
      ASSERT_TRUE(back.ok()) << back.status();
      EXPECT_EQ(*back, c) << f << " " << g;
      seen.insert(CivilBytes(c));
      ++n;
      const ts::CivilDay d{f, g, Neg(g)};
      ASSERT_TRUE(DayOfBytes(DayBytes(d)).ok());
      EXPECT_EQ(*DayOfBytes(DayBytes(d)), d) << f << " " << g;
      const ts::TimeOfDay t{g, f, 0, Neg(f)};
      ASSERT_TRUE(TimeOfBytes(TimeBytes(t)).ok());
      EXPECT_EQ(*TimeOfBytes(TimeBytes(t)), t) << f << " " << g;
    }
  }
  EXPECT_EQ(seen.size(), static_cast<size_t>(n));  // distinct fields, distinct bytes
  EXPECT_EQ(CivilOfBytes("abc").status().code(), absl::StatusCode::kInvalidArgument);
  EXPECT_EQ(MicrosOfCivilBytes(CivilBytes({1970, 1, 1, 0, 0, 1, 5})).value(), 1000005);
}

}  // namespace
}  // namespace serdiff::targets::timestamp
