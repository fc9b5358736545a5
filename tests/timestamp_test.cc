// Exact values for the timestamp family (docs/timestamp.md, "Exact-value tests"), the calendar
// checked exhaustively over years 1..9999, the edge lists, and the driver models against golden
// vectors printed by the real python drivers (oracles/python_cassandra/timestamp_vectors.txt,
// from oracles/python_cassandra/timestamp_golden.py). The CQL and BSON forms, where
// implementations disagree, the flaky round trip, range errors and rounding:
// tests/timestamp_conversions_test.cc.
#include <gtest/gtest.h>

#include <bit>
#include <cstdint>
#include <fstream>
#include <limits>
#include <sstream>
#include <string>

#include "absl/time/civil_time.h"
#include "absl/time/time.h"
#include "reference/timestamp/timestamp_ref.h"
#include "serdiff/timestamp/timestamp.h"
#include "targets/timestamp/domain.h"
#include "tests/timestamp_test_util.h"

namespace serdiff::timestamp {
namespace {

namespace rts = ::serdiff::ref::timestamp;
// The edge tables are test inputs, kept beside the targets (not in the library's header).
using ::serdiff::targets::timestamp::AnchorMillis;
using ::serdiff::targets::timestamp::EdgeCqlTimeNanos;
using ::serdiff::targets::timestamp::EdgeDays;
using ::serdiff::targets::timestamp::EdgeMicros;
using ::serdiff::targets::timestamp::EdgeMillis;

// Shared with tests/timestamp_conversions_test.cc (tests/timestamp_test_util.h).
using test_util::Be32;
using test_util::Be64;
using test_util::C;
using test_util::kInt64Max;
using test_util::kInt64Min;
using test_util::Ms;

// ---- exact values (docs/timestamp.md, "Exact-value tests") ----------------------------------

TEST(TimestampExact, SubMillisecondBeforeEpochFloorsToMinusOne) {
  EXPECT_EQ(Ms(C(1969, 12, 31, 23, 59, 59, 999500)), -1);
  EXPECT_EQ(Ms(C(1969, 12, 31, 23, 59, 59, 999500), Rounding::kTruncate), 0);
  EXPECT_EQ(Ms(C(1969, 12, 31, 23, 59, 59, 999500), Rounding::kHalfEven), 0);
}

TEST(TimestampExact, OneMicrosecondPastASecondBeforeEpoch) {
  EXPECT_EQ(Ms(C(1969, 12, 31, 23, 59, 59, 1)), -1000);
  EXPECT_EQ(Ms(C(1969, 12, 31, 23, 59, 59, 1), Rounding::kTruncate), -999);
  EXPECT_EQ(Ms(C(1969, 12, 31, 23, 59, 59, 1), Rounding::kHalfEven), -1000);
}

TEST(TimestampExact, LastMicrosecondOfYear9999FloorsToLastMillisecond) {
  EXPECT_EQ(Ms(C(9999, 12, 31, 23, 59, 59, 999999)), 253402300799999);
  EXPECT_EQ(Be64(253402300799999), "00 00 e6 77 d2 1f db ff");
}

TEST(TimestampExact, Year2300PlusOneMillisecondBothWays) {
  EXPECT_EQ(Ms(C(2300, 1, 1, 0, 0, 0, 1000)), 10413792000001);
  EXPECT_EQ(*FromUnixMillis(10413792000001), C(2300, 1, 1, 0, 0, 0, 1000));
}

TEST(TimestampExact, FirstInstantOfYear1BothWays) {
  EXPECT_EQ(Ms(C(1, 1, 1)), -62135596800000);
  EXPECT_EQ(*FromUnixMillis(-62135596800000), C(1, 1, 1));
  EXPECT_EQ(kMinUnixMillis, -62135596800000);
}

// TryFromUnixMillis (the status-free form): true with the same value exactly where the StatusOr
// form is OK, false (and *out untouched) exactly where it is OutOfRange: at each end of the
// range, one past it, the int64 extremes, and every edge millisecond of the target.
TEST(TimestampExact, TryFromUnixMillisAnswersWhereTheStatusOrFormDoes) {
  const CivilDateTime untouched = C(1234, 5, 6, 7, 8, 9, 10000);
  CivilDateTime c = untouched;
  ASSERT_TRUE(TryFromUnixMillis(-62135596800000, &c));
  EXPECT_EQ(c, C(1, 1, 1));
  ASSERT_TRUE(TryFromUnixMillis(253402300799999, &c));
  EXPECT_EQ(c, C(9999, 12, 31, 23, 59, 59, 999000));
  ASSERT_TRUE(TryFromUnixMillis(-1, &c));
  EXPECT_EQ(c, C(1969, 12, 31, 23, 59, 59, 999000));
  for (int64_t out_of_range : {int64_t{-62135596800001}, int64_t{253402300800000}, kInt64Min,
                               kInt64Max, kInt64Min + 62135596800000}) {
    c = untouched;
    EXPECT_FALSE(TryFromUnixMillis(out_of_range, &c)) << out_of_range;
    EXPECT_EQ(c, untouched) << out_of_range;
    EXPECT_EQ(FromUnixMillis(out_of_range).status().code(), absl::StatusCode::kOutOfRange);
  }
  for (int64_t ms : EdgeMillis()) {
    const absl::StatusOr<CivilDateTime> want = FromUnixMillis(ms);
    c = untouched;
    ASSERT_EQ(TryFromUnixMillis(ms, &c), want.ok()) << ms;
    EXPECT_EQ(c, want.ok() ? *want : untouched) << ms;
  }
}

// TryToUnixMillis (the status-free form of ToUnixMillis, floor): the same values at both ends of
// the range and across the epoch; the fields one past their limits are in
// TimestampFastCore.ValidityOfEachFieldAtAndPastItsLimits.
TEST(TimestampExact, TryToUnixMillisGivesTheFloorValues) {
  int64_t ms = 0;
  ASSERT_TRUE(TryToUnixMillis(C(1, 1, 1), &ms));
  EXPECT_EQ(ms, -62135596800000);
  ASSERT_TRUE(TryToUnixMillis(C(9999, 12, 31, 23, 59, 59, 999999), &ms));
  EXPECT_EQ(ms, 253402300799999);
  ASSERT_TRUE(TryToUnixMillis(C(1969, 12, 31, 23, 59, 59, 999500), &ms));
  EXPECT_EQ(ms, -1);
  ASSERT_TRUE(TryToUnixMillis(C(2300, 1, 1, 0, 0, 0, 1000), &ms));
  EXPECT_EQ(ms, 10413792000001);
  ms = 7;
  EXPECT_FALSE(TryToUnixMillis(C(2023, 2, 29), &ms));
  EXPECT_EQ(ms, 7);
}

TEST(TimestampExact, CqlDateOfDecember31st1969) {
  EXPECT_EQ(Be32(*CqlDateFromCivil(CivilDay{1969, 12, 31})), "7f ff ff ff");
}

TEST(TimestampExact, DayCountMinusOneIsRaw2147483647NeverWrapped) {
  EXPECT_EQ(*CqlDateFromDays(-1), 2147483647u);
  EXPECT_NE(*CqlDateFromDays(-1), 2147483648u);
  EXPECT_EQ(DaysFromCqlDate(2147483647u), -1);
  EXPECT_EQ(*CqlDateFromDays(0), 2147483648u);
  // One past either end is an error, not a wrapped raw value.
  EXPECT_EQ(CqlDateFromDays(int64_t{1} << 31).status().code(), absl::StatusCode::kOutOfRange);
  EXPECT_EQ(CqlDateFromDays(-(int64_t{1} << 31) - 1).status().code(),
            absl::StatusCode::kOutOfRange);
  EXPECT_EQ(*CqlDateFromDays(-(int64_t{1} << 31)), 0u);
  EXPECT_EQ(*CqlDateFromDays((int64_t{1} << 31) - 1), 0xffffffffu);
  EXPECT_EQ(CqlDateFromDays(kInt64Min).status().code(), absl::StatusCode::kOutOfRange);
  EXPECT_EQ(CqlDateFromDays(kInt64Max).status().code(), absl::StatusCode::kOutOfRange);
}

TEST(TimestampExact, CqlTimeOfLastMicrosecondOfTheDay) {
  absl::StatusOr<int64_t> ns = CqlTimeFromTimeOfDay(TimeOfDay{23, 59, 59, 999999000});
  ASSERT_TRUE(ns.ok());
  EXPECT_EQ(Be64(*ns), "00 00 4e 94 91 4e fc 18");
  EXPECT_EQ(Be64(*CqlTimeFromCivil(C(2024, 1, 1, 23, 59, 59, 999999))), "00 00 4e 94 91 4e fc 18");
}

// ---- calendar ---------------------------------------------------------------------------------

TEST(TimestampCalendar, LeapYearRule) {
  EXPECT_TRUE(IsLeapYear(2000));
  EXPECT_TRUE(IsLeapYear(2400));
  EXPECT_TRUE(IsLeapYear(2024));
  EXPECT_TRUE(IsLeapYear(0));
  EXPECT_TRUE(IsLeapYear(-4));
  EXPECT_FALSE(IsLeapYear(1900));
  EXPECT_FALSE(IsLeapYear(2100));
  EXPECT_FALSE(IsLeapYear(1700));
  EXPECT_FALSE(IsLeapYear(-100));
  EXPECT_FALSE(IsLeapYear(2023));
  EXPECT_EQ(DaysInMonth(1900, 2), 28);
  EXPECT_EQ(DaysInMonth(2000, 2), 29);
}

TEST(TimestampCalendar, FourHundredYearsHave146097Days) {
  // Counted year by year, not by the cycle shortcut the slow reference itself uses.
  int64_t days = 0;
  for (int y = 2000; y < 2400; ++y) days += rts::IsLeapYear(y) ? 366 : 365;
  EXPECT_EQ(days, 146097);
  EXPECT_EQ(*DaysFromCivil(CivilDay{2400, 3, 1}) - *DaysFromCivil(CivilDay{2000, 3, 1}), 146097);
}

// Calls check(days, date) for every day of years 1..9999 in order, walking the calendar one day
// at a time with the slow reference's month lengths (days counted from 1970-01-01); expects the
// walk to end on kMaxCivilDays.
template <typename Check>
void WalkEveryDayOfYears1To9999(Check check) {
  int64_t days = kMinCivilDays;
  CivilDay walk{1, 1, 1};
  while (true) {
    check(days, walk);
    if (walk == CivilDay{9999, 12, 31}) break;
    ++days;
    if (++walk.day > rts::DaysInMonth(walk.year, walk.month)) {
      walk.day = 1;
      if (++walk.month > 12) {
        walk.month = 1;
        ++walk.year;
      }
    }
  }
  EXPECT_EQ(days, kMaxCivilDays);
}

// Every day of years 1..9999, walked one day at a time: the optimized day number and its
// inverse agree with the walk (kills any leap-year or month-length bug, e.g. at centuries).
TEST(TimestampCalendar, EveryDayOfYears1To9999) {
  int mismatches = 0;
  WalkEveryDayOfYears1To9999([&](int64_t days, const CivilDay& walk) {
    absl::StatusOr<int64_t> n = DaysFromCivil(walk);
    absl::StatusOr<CivilDay> back = CivilFromDays(days);
    if (!n.ok() || *n != days || !back.ok() || !(*back == walk)) {
      if (++mismatches <= 5) {
        ADD_FAILURE() << FormatCivil(walk) << " is day " << days << "; optimized "
                      << (n.ok() ? std::to_string(*n) : n.status().ToString()) << " / "
                      << (back.ok() ? FormatCivil(*back) : back.status().ToString());
      }
    }
  });
  EXPECT_EQ(mismatches, 0);
}

// The inline Neri-Schneider core (serdiff/timestamp/fast.h) that the ms and µs conversions
// run: the same day-by-day walk, its leap rule for every year, and its validity predicate on
// days 28..32 of every month of every year (the only days where the month's length matters),
// each against the slow reference's calendar.
TEST(TimestampFastCore, EveryDayOfYears1To9999) {
  int mismatches = 0;
  WalkEveryDayOfYears1To9999([&](int64_t days, const CivilDay& walk) {
    const int32_t n =
        fast::DaysFromCivil(static_cast<uint32_t>(walk.year), static_cast<uint32_t>(walk.month),
                            static_cast<uint32_t>(walk.day));
    const CivilDay back = fast::CivilFromDays(static_cast<int32_t>(days));
    const CivilDateTime midnight = fast::FromUnixMillis(days * kMillisPerDay);
    const CivilDateTime expected{walk.year, walk.month, walk.day, 0, 0, 0, 0};
    if (n != days || !(back == walk) || !(midnight == expected)) {
      if (++mismatches <= 5) {
        ADD_FAILURE() << FormatCivil(walk) << " is day " << days << "; fast " << n << " / "
                      << FormatCivil(back) << " / " << FormatCivil(midnight);
      }
    }
  });
  EXPECT_EQ(mismatches, 0);
}

TEST(TimestampFastCore, LeapRuleAndMonthLengthsOfEveryYear) {
  int mismatches = 0;
  for (int32_t y = 1; y <= 9999; ++y) {
    if (fast::IsLeapYear(static_cast<uint32_t>(y)) != rts::IsLeapYear(y)) {
      if (++mismatches <= 5) ADD_FAILURE() << "leap rule differs at year " << y;
    }
    for (int32_t m = 1; m <= 12; ++m) {
      for (int32_t d = 27; d <= 32; ++d) {
        const bool want = d <= rts::DaysInMonth(y, m);
        const CivilDateTime c{y, m, d, 23, 59, 59, 999'999};
        if (fast::IsValid(c) != want || fast::IsValidScalar(c) != want ||
            Validate(c).ok() != want) {
          if (++mismatches <= 5) ADD_FAILURE() << y << "-" << m << "-" << d << " valid? " << want;
        }
      }
    }
  }
  EXPECT_EQ(mismatches, 0);
}

// Each field at both ends of its range and one past each end, alone (the base is mid-range in
// every field), then the day against the length of each month: fast::IsValid (its SSE2 form at
// run time on x86-64), fast::IsValidScalar and Validate agree with the hand-written table.
TEST(TimestampFastCore, ValidityOfEachFieldAtAndPastItsLimits) {
  const CivilDateTime base{2000, 6, 15, 12, 30, 30, 500'000};
  struct Field {
    int32_t CivilDateTime::*field;
    int32_t min;
    int32_t max;
  };
  const Field fields[] = {
      {&CivilDateTime::year, 1, 9999},
      {&CivilDateTime::month, 1, 12},
      {&CivilDateTime::day, 1, 30},
      {&CivilDateTime::hour, 0, 23},
      {&CivilDateTime::minute, 0, 59},
      {&CivilDateTime::second, 0, 59},
      {&CivilDateTime::microsecond, 0, 999'999},
  };
  auto expect = [](const CivilDateTime& c, bool valid) {
    EXPECT_EQ(fast::IsValid(c), valid) << FormatCivil(c);
    EXPECT_EQ(fast::IsValidScalar(c), valid) << FormatCivil(c);
    EXPECT_EQ(Validate(c).ok(), valid) << FormatCivil(c);
    // The status-free form answers as the StatusOr form does, and leaves *out alone on false.
    int64_t ms = 12345;
    EXPECT_EQ(TryToUnixMillis(c, &ms), valid) << FormatCivil(c);
    const absl::StatusOr<int64_t> want = ToUnixMillis(c);
    EXPECT_EQ(want.ok(), valid) << FormatCivil(c);
    EXPECT_EQ(ms, want.ok() ? *want : 12345) << FormatCivil(c);
  };
  expect(base, true);
  for (const Field& f : fields) {
    for (int32_t v : {f.min - 1, f.min, f.max, f.max + 1, std::numeric_limits<int32_t>::min(),
                      std::numeric_limits<int32_t>::max()}) {
      CivilDateTime c = base;
      c.*f.field = v;
      expect(c, v >= f.min && v <= f.max);
    }
  }
  const int32_t month_days[] = {31, 28, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31};
  for (int32_t year : {1900, 2000, 2023, 2024}) {
    for (int32_t m = 1; m <= 12; ++m) {
      const int32_t last = month_days[m - 1] + (m == 2 && rts::IsLeapYear(year) ? 1 : 0);
      expect(CivilDateTime{year, m, last, 0, 0, 0, 0}, true);
      expect(CivilDateTime{year, m, last + 1, 0, 0, 0, 0}, false);
    }
  }
}

// Hand-derived values. The core is constexpr (kEpochDay is evaluated at compile time); the
// values are checked at run time, so that a broken core fails this test rather than the build.
TEST(TimestampFastCore, ExactValues) {
  constexpr CivilDay kEpochDay = fast::CivilFromDays(0);
  EXPECT_EQ(kEpochDay, (CivilDay{1970, 1, 1}));
  EXPECT_EQ(fast::DaysFromCivil(1970, 1, 1), 0);
  EXPECT_EQ(fast::DaysFromCivil(1, 1, 1), -719'162);
  EXPECT_EQ(fast::DaysFromCivil(9999, 12, 31), 2'932'896);
  EXPECT_EQ(fast::DaysFromCivil(2000, 3, 1), 11'017);
  EXPECT_EQ(fast::CivilFromDays(-1), (CivilDay{1969, 12, 31}));
  EXPECT_EQ(fast::CivilFromDays(11'016), (CivilDay{2000, 2, 29}));
  EXPECT_EQ(fast::CivilFromDays(10'957), (CivilDay{2000, 1, 1}));
  // -1 ms is 1969-12-31T23:59:59.999 (floor division into the previous day).
  EXPECT_EQ(fast::FromUnixMillis(-1), (CivilDateTime{1969, 12, 31, 23, 59, 59, 999'000}));
  EXPECT_EQ(fast::FromUnixMillis(-86'400'001), (CivilDateTime{1969, 12, 30, 23, 59, 59, 999'000}));
  EXPECT_EQ(fast::FromUnixMillis(kMinUnixMillis), (CivilDateTime{1, 1, 1, 0, 0, 0, 0}));
  EXPECT_EQ(fast::FromUnixMillis(kMaxUnixMillis),
            (CivilDateTime{9999, 12, 31, 23, 59, 59, 999'000}));
  EXPECT_EQ(fast::FromUnixMicros(kMaxUnixMicros),
            (CivilDateTime{9999, 12, 31, 23, 59, 59, 999'999}));
  // 10413792000001 ms = 2300-01-01T00:00:00.001 (timestamp.h's example).
  EXPECT_EQ(fast::FromUnixMillis(10'413'792'000'001), (CivilDateTime{2300, 1, 1, 0, 0, 0, 1000}));
  EXPECT_EQ(fast::ToUnixMillisFloor(CivilDateTime{1969, 12, 31, 23, 59, 59, 999'500}), -1);
  EXPECT_EQ(fast::ToUnixMillisFloor(CivilDateTime{1969, 12, 31, 23, 59, 59, 1}), -1000);
  EXPECT_EQ(fast::ToUnixMillisFloor(CivilDateTime{9999, 12, 31, 23, 59, 59, 999'999}),
            kMaxUnixMillis);
  EXPECT_EQ(fast::ToUnixMicros(CivilDateTime{1, 1, 1, 0, 0, 0, 0}), kMinUnixMicros);
}

TEST(TimestampCalendar, CivilFromDaysRange) {
  EXPECT_EQ(*CivilFromDays(0), (CivilDay{1970, 1, 1}));
  EXPECT_EQ(*CivilFromDays(11017), (CivilDay{2000, 3, 1}));
  EXPECT_EQ(*CivilFromDays(-719162), (CivilDay{1, 1, 1}));
  EXPECT_EQ(*CivilFromDays(-719163), (CivilDay{0, 12, 31}));
  EXPECT_TRUE(CivilFromDays(int64_t{1} << 39).ok());
  EXPECT_TRUE(CivilFromDays(-(int64_t{1} << 39)).ok());
  EXPECT_EQ(CivilFromDays((int64_t{1} << 39) + 1).status().code(), absl::StatusCode::kOutOfRange);
  EXPECT_EQ(CivilFromDays(kInt64Min).status().code(), absl::StatusCode::kOutOfRange);
  const int64_t big = int64_t{1} << 39;
  EXPECT_EQ(*DaysFromCivil(*CivilFromDays(big)), big);
  EXPECT_EQ(*DaysFromCivil(*CivilFromDays(-big)), -big);
  // Extreme int32 years convert without overflow and agree with Abseil.
  for (int32_t y : {std::numeric_limits<int32_t>::min(), std::numeric_limits<int32_t>::max()}) {
    for (int m : {1, 2, 3, 12}) {
      const CivilDay d{y, m, 1};
      const int64_t expected = absl::CivilDay(y, m, 1) - absl::CivilDay(1970, 1, 1);
      EXPECT_EQ(*DaysFromCivil(d), expected) << y << "-" << m;
    }
  }
}

// ---- edge lists -------------------------------------------------------------------------------

int64_t AbslMs(int y, int m, int d) {
  return absl::ToUnixMillis(
      absl::FromCivil(absl::CivilSecond(y, m, d, 0, 0, 0), absl::UTCTimeZone()));
}

TEST(TimestampEdges, AnchorsHoldFirstAndLastInstantsOfTheNamedYears) {
  const std::vector<int64_t> anchors = AnchorMillis();
  auto has = [&](int64_t v) {
    return std::find(anchors.begin(), anchors.end(), v) != anchors.end();
  };
  for (int y : {1, 1970, 2038, 9999}) {
    EXPECT_TRUE(has(AbslMs(y, 1, 1))) << "first ms of " << y;
    if (y < 9999) {
      EXPECT_TRUE(has(AbslMs(y + 1, 1, 1) - 1)) << "last ms of " << y;
    }
  }
  EXPECT_TRUE(has(kMaxUnixMillis));
  for (auto [y, m, d] : {std::tuple{2000, 2, 29},
                         {1900, 2, 28},
                         {2100, 2, 28},
                         {1900, 3, 1},
                         {2100, 3, 1},
                         {2000, 3, 1},
                         {2000, 2, 28}}) {
    EXPECT_TRUE(has(AbslMs(y, m, d))) << y << "-" << m << "-" << d;
  }
  EXPECT_TRUE(has(int64_t{1} << 43));
  EXPECT_TRUE(has(-(int64_t{1} << 43)));
  for (int64_t a : anchors) {
    EXPECT_GE(a, kMinUnixMillis);
    EXPECT_LE(a, kMaxUnixMillis);
  }
  EXPECT_TRUE(std::is_sorted(anchors.begin(), anchors.end()));
}

TEST(TimestampEdges, EdgeMicrosHaveEveryOffsetAroundEveryAnchor) {
  const std::vector<int64_t> us = EdgeMicros();
  auto has = [&](int64_t v) { return std::binary_search(us.begin(), us.end(), v); };
  for (int64_t a : AnchorMillis()) {
    for (int64_t off : {-1, 0, 1, 499, 500, 501, 999}) EXPECT_TRUE(has(a * 1000 + off));
  }
  EXPECT_TRUE(has(kInt64Min));
  EXPECT_TRUE(has(kInt64Max));
  const std::vector<int64_t> ms = EdgeMillis();
  EXPECT_TRUE(std::binary_search(ms.begin(), ms.end(), kInt64Min));
  EXPECT_TRUE(std::binary_search(ms.begin(), ms.end(), kMaxUnixMillis + 1));
  EXPECT_TRUE(std::binary_search(ms.begin(), ms.end(), (int64_t{1} << 43) + 1));
  const std::vector<int64_t> days = EdgeDays();
  EXPECT_TRUE(std::binary_search(days.begin(), days.end(), int64_t{1} << 31));
  EXPECT_TRUE(std::binary_search(days.begin(), days.end(), -1));
  const std::vector<int64_t> ns = EdgeCqlTimeNanos();
  EXPECT_TRUE(std::binary_search(ns.begin(), ns.end(), kMaxCqlTimeNanos));
  EXPECT_TRUE(std::binary_search(ns.begin(), ns.end(), 86400000000000));
  EXPECT_TRUE(std::binary_search(ns.begin(), ns.end(), -1));
}

// ---- the driver models against the real drivers ------------------------------------------------

TEST(TimestampGolden, DriverModelsMatchThePythonDrivers) {
  const std::string path =
      std::string(SERDIFF_CORPUS_DIR) + "/../oracles/python_cassandra/timestamp_vectors.txt";
  std::ifstream in(path);
  ASSERT_TRUE(in.good()) << path;
  std::string line;
  int serialize_lines = 0;
  int deserialize_lines = 0;
  int disagreements = 0;  // 3.25 vs BSON, as expected from docs/timestamp.md
  while (std::getline(in, line)) {
    std::istringstream s(line);
    std::string kind;
    s >> kind;
    if (kind == "S") {
      CivilDateTime c;
      int64_t ms_325 = 0;
      int64_t ms_bson = 0;
      s >> c.year >> c.month >> c.day >> c.hour >> c.minute >> c.second >> c.microsecond >>
          ms_325 >> ms_bson;
      ASSERT_FALSE(s.fail()) << line;
      EXPECT_EQ(*DriverFloatTruncateMillis(c), ms_325) << line;
      EXPECT_EQ(*DriverIntegerFloorMillis(c), ms_bson) << line;
      EXPECT_EQ(*ToUnixMillis(c), ms_bson) << line;
      disagreements += ms_325 != ms_bson;
      ++serialize_lines;
    } else if (kind == "D") {
      int64_t ms = 0;
      std::string rest;
      s >> ms;
      std::getline(s, rest);
      absl::StatusOr<CivilDateTime> c = DriverFloatSecondsFromMillis(ms);
      if (rest == " overflow") {
        EXPECT_EQ(c.status().code(), absl::StatusCode::kOutOfRange) << line;
      } else {
        ASSERT_TRUE(c.ok()) << line << " " << c.status();
        std::istringstream r(rest);
        CivilDateTime expected;
        r >> expected.year >> expected.month >> expected.day >> expected.hour >> expected.minute >>
            expected.second >> expected.microsecond;
        EXPECT_EQ(FormatCivil(*c), FormatCivil(expected)) << line;
      }
      ++deserialize_lines;
    }
  }
  EXPECT_GT(serialize_lines, 2000);
  EXPECT_GT(deserialize_lines, 2000);
  EXPECT_GT(disagreements, 100);
}

}  // namespace
}  // namespace serdiff::timestamp
