// The timestamp family's wire forms and conversions, exact values from docs/timestamp.md (CQL
// and BSON forms, where implementations disagree, the flaky round trip), range errors,
// rounding and the double conversions. Exact values, the calendar, the edge lists and the
// driver golden vectors: tests/timestamp_test.cc.
#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <cmath>
#include <cstdint>
#include <limits>
#include <string>

#include "absl/strings/str_format.h"
#include "absl/time/civil_time.h"
#include "absl/time/time.h"
#include "oracles/abseil/time.h"
#include "reference/timestamp/timestamp_ref.h"
#include "serdiff/timestamp/timestamp.h"
#include "tests/timestamp_test_util.h"

namespace serdiff::timestamp {
namespace {

namespace rts = ::serdiff::ref::timestamp;
namespace oab = ::serdiff::oracle::abseil;
using ::testing::HasSubstr;

// Shared with tests/timestamp_test.cc (tests/timestamp_test_util.h).
using test_util::Be32;
using test_util::Be64;
using test_util::C;
using test_util::kInt64Max;
using test_util::kInt64Min;
using test_util::Ms;

// ---- docs/timestamp.md: where plausible implementations disagree ------------------------------

struct Row63 {
  CivilDateTime input;
  int64_t float_trunc_325;  // python-driver 3.25
  int64_t integer_floor;    // scylladb HEAD, BSON
  int64_t exact_trunc;
  int64_t round_half_even;
};

TEST(TimestampWireFormats63, EveryRowInEveryColumn) {
  const Row63 rows[] = {
      {C(1969, 12, 31, 23, 59, 59, 999500), 0, -1, 0, 0},
      {C(1969, 12, 31, 23, 59, 59, 1), -999, -1000, -999, -1000},
      {C(1969, 12, 31, 23, 59, 59, 999999), 0, -1, 0, 0},
      {C(1900, 1, 1, 0, 0, 0, 500), -2208988799999, -2208988800000, -2208988799999, -2208988800000},
      {C(1970, 1, 1, 0, 0, 0, 999), 0, 0, 0, 1},
      {C(2001, 2, 3, 4, 5, 6, 789999), 981173106789, 981173106789, 981173106789, 981173106790},
      {C(9999, 12, 31, 23, 59, 59, 999999), 253402300800000, 253402300799999, 253402300799999,
       253402300800000},
  };
  for (const Row63& r : rows) {
    SCOPED_TRACE(FormatCivil(r.input));
    EXPECT_EQ(*DriverFloatTruncateMillis(r.input), r.float_trunc_325);
    EXPECT_EQ(*DriverIntegerFloorMillis(r.input), r.integer_floor);
    EXPECT_EQ(Ms(r.input, Rounding::kFloor), r.integer_floor);
    EXPECT_EQ(Ms(r.input, Rounding::kTruncate), r.exact_trunc);
    EXPECT_EQ(Ms(r.input, Rounding::kHalfEven), r.round_half_even);
    EXPECT_EQ(*oab::ToUnixMillisFloor({r.input.year, r.input.month, r.input.day, r.input.hour,
                                       r.input.minute, r.input.second, r.input.microsecond}),
              r.integer_floor);
  }
  // The bytes quoted in the table.
  EXPECT_EQ(Be64(0), "00 00 00 00 00 00 00 00");
  EXPECT_EQ(Be64(-1), "ff ff ff ff ff ff ff ff");
  EXPECT_EQ(Be64(-999), "ff ff ff ff ff ff fc 19");
  EXPECT_EQ(Be64(-1000), "ff ff ff ff ff ff fc 18");
  EXPECT_EQ(Be64(253402300800000), "00 00 e6 77 d2 1f dc 00");
  EXPECT_EQ(Be64(253402300799999), "00 00 e6 77 d2 1f db ff");
}

TEST(TimestampWireFormats63, FloatResultForYear9999CannotBeReadBack) {
  const int64_t ms = *DriverFloatTruncateMillis(C(9999, 12, 31, 23, 59, 59, 999999));
  EXPECT_EQ(FromUnixMillis(ms).status().code(), absl::StatusCode::kOutOfRange);
  EXPECT_EQ(DriverFloatSecondsFromMillis(ms).status().code(), absl::StatusCode::kOutOfRange);
}

// ---- docs/timestamp.md: the flaky round trip --------------------------------------------------

// Every field zero-padded to its width, years to four digits (BSON datetimes of years 1..999 are
// printed so by show and repro, and parsed back from that text), a sign before a negative year.
TEST(TimestampText, FormatCivilPadsEveryField) {
  EXPECT_EQ(FormatCivil(C(1, 1, 1)), "0001-01-01T00:00:00.000000");
  EXPECT_EQ(FormatCivil(C(999, 12, 31, 23, 59, 59, 999999)), "0999-12-31T23:59:59.999999");
  EXPECT_EQ(FormatCivil(C(42, 3, 4, 5, 6, 7, 8)), "0042-03-04T05:06:07.000008");
  EXPECT_EQ(FormatCivil(C(9999, 12, 31)), "9999-12-31T00:00:00.000000");
  EXPECT_EQ(FormatCivil(CivilDay{7, 2, 9}), "0007-02-09");
  EXPECT_EQ(FormatCivil(CivilDay{-44, 3, 15}), "-0044-03-15");
  EXPECT_EQ(FormatCivil(CivilDay{12345, 1, 1}), "12345-01-01");
  EXPECT_EQ(FormatTimeOfDay(TimeOfDay{1, 2, 3, 4}), "01:02:03.000000004");
}

TEST(TimestampWireFormats64, Driver325RoundTripLosesAMillisecondPast2To33Seconds) {
  {
    const CivilDateTime c = *DriverFloatSecondsFromMillis(10425520380477);
    EXPECT_EQ(FormatCivil(c), "2300-05-16T17:53:00.476999");
    EXPECT_EQ(*DriverFloatTruncateMillis(c), 10425520380476);
    EXPECT_EQ(Be64(10425520380477), "00 00 09 7b 61 70 5a 3d");
    // The exact path recovers the value.
    const CivilDateTime exact = *DriverIntegerFromMillis(10425520380477);
    EXPECT_EQ(FormatCivil(exact), "2300-05-16T17:53:00.477000");
    EXPECT_EQ(*DriverIntegerFloorMillis(exact), 10425520380477);
  }
  {
    const CivilDateTime c = *DriverFloatSecondsFromMillis(-11654632814640);
    EXPECT_EQ(FormatCivil(c), "1600-09-05T09:59:45.360001");
    EXPECT_EQ(*DriverFloatTruncateMillis(c), -11654632814639);
    EXPECT_EQ(Be64(-11654632814640), "ff ff f5 66 71 c0 47 d0");
    // Flooring the float result would have recovered it; truncation does not.
    EXPECT_EQ(*DriverIntegerFloorMillis(c), -11654632814640);
  }
}

// ---- docs/cql.md (CQL timestamp, date, time) and 5.2 (BSON datetime) -------------------

TEST(TimestampWireFormats16, CqlTimestampExamples) {
  EXPECT_EQ(Be64(Ms(C(1970, 1, 1))), "00 00 00 00 00 00 00 00");
  EXPECT_EQ(Ms(C(2021, 1, 1)), 1609459200000);
  EXPECT_EQ(Be64(Ms(C(2021, 1, 1))), "00 00 01 76 bb 3e 70 00");
  EXPECT_EQ(Be64(Ms(C(1969, 12, 31, 23, 59, 59, 999000))), "ff ff ff ff ff ff ff ff");
  EXPECT_EQ(Be64(Ms(C(2001, 2, 3, 4, 5, 6, 789000))), "00 00 00 e4 72 79 78 65");
}

TEST(TimestampWireFormats16, CqlDateExamples) {
  EXPECT_EQ(Be32(*CqlDateFromCivil(CivilDay{1970, 1, 1})), "80 00 00 00");
  EXPECT_EQ(Be32(*CqlDateFromCivil(CivilDay{1969, 12, 31})), "7f ff ff ff");
  EXPECT_EQ(Be32(*CqlDateFromCivil(CivilDay{2000, 1, 1})), "80 00 2a cd");
  EXPECT_EQ(Be32(*CqlDateFromCivil(CivilDay{1, 1, 1})), "7f f5 06 c6");
  EXPECT_EQ(Be32(*CqlDateFromCivil(CivilDay{9999, 12, 31})), "80 2c c0 a0");
  // Spec anchors: raw 0 = -5877641-06-23, 2^31 = 1970-01-01, the last raw = 5881580-07-11.
  EXPECT_EQ(CivilFromCqlDate(0), (CivilDay{-5877641, 6, 23}));
  EXPECT_EQ(CivilFromCqlDate(0x80000000u), (CivilDay{1970, 1, 1}));
  EXPECT_EQ(CivilFromCqlDate(0xffffffffu), (CivilDay{5881580, 7, 11}));
  EXPECT_EQ(*CqlDateFromCivil(CivilDay{-5877641, 6, 23}), 0u);
  EXPECT_EQ(*CqlDateFromCivil(CivilDay{5881580, 7, 11}), 0xffffffffu);
  EXPECT_EQ(CqlDateFromCivil(CivilDay{-5877641, 6, 22}).status().code(),
            absl::StatusCode::kOutOfRange);
  EXPECT_EQ(CqlDateFromCivil(CivilDay{5881580, 7, 12}).status().code(),
            absl::StatusCode::kOutOfRange);
  // Abseil agrees on both anchors.
  EXPECT_EQ(oab::CivilFromCqlDate(0), (rts::CivilDay{-5877641, 6, 23}));
  EXPECT_EQ(oab::CivilFromCqlDate(0xffffffffu), (rts::CivilDay{5881580, 7, 11}));
}

TEST(TimestampWireFormats16, CqlDateFromInstantUsesTheRoundingMode) {
  EXPECT_EQ(*CqlDateFromUnixMillis(-1), 0x7fffffffu);  // floor: the UTC date 1969-12-31
  EXPECT_EQ(*CqlDateFromUnixMillis(-1, Rounding::kTruncate), 0x80000000u);
  EXPECT_EQ(*CqlDateFromUnixMillis(-1, Rounding::kHalfEven), 0x80000000u);
  EXPECT_EQ(*CqlDateFromUnixMillis(-kMillisPerDay / 2, Rounding::kHalfEven), 0x80000000u);
  EXPECT_EQ(*CqlDateFromUnixMillis(kMillisPerDay / 2, Rounding::kHalfEven), 0x80000000u);
  EXPECT_EQ(*CqlDateFromUnixMillis(kMillisPerDay * 3 / 2, Rounding::kHalfEven), 0x80000002u);
  EXPECT_EQ(CqlDateFromUnixMillis(kInt64Max).status().code(), absl::StatusCode::kOutOfRange);
  EXPECT_EQ(CqlDateFromUnixMillis(kInt64Min).status().code(), absl::StatusCode::kOutOfRange);
}

TEST(TimestampWireFormats16, CqlTimeExamples) {
  EXPECT_EQ(Be64(*CqlTimeFromTimeOfDay(TimeOfDay{0, 0, 0, 0})), "00 00 00 00 00 00 00 00");
  EXPECT_EQ(Be64(*CqlTimeFromTimeOfDay(TimeOfDay{12, 34, 56, 789000000})),
            "00 00 29 32 7b 04 8f 40");
  EXPECT_EQ(Be64(*CqlTimeFromTimeOfDay(TimeOfDay{23, 59, 59, 999999999})),
            "00 00 4e 94 91 4e ff ff");
  EXPECT_EQ(*CqlTimeFromTimeOfDay(TimeOfDay{23, 59, 59, 999999999}), kMaxCqlTimeNanos);
  EXPECT_EQ(*TimeOfDayFromCqlTime(kMaxCqlTimeNanos), (TimeOfDay{23, 59, 59, 999999999}));
  EXPECT_EQ(TimeOfDayFromCqlTime(86400000000000).status().code(), absl::StatusCode::kOutOfRange);
  EXPECT_EQ(TimeOfDayFromCqlTime(-1).status().code(), absl::StatusCode::kOutOfRange);
  EXPECT_THAT(TimeOfDayFromCqlTime(-1).status().message(), HasSubstr("0..86399999999999"));
  EXPECT_EQ(*MicrosOfDayFromCqlTime(86399999999500), 86399999999);
  EXPECT_EQ(MicrosOfDayFromCqlTime(86399999999500, Rounding::kHalfEven).status().code(),
            absl::StatusCode::kOutOfRange);
  EXPECT_EQ(*MicrosOfDayFromCqlTime(86399999998500, Rounding::kHalfEven), 86399999998);
  EXPECT_EQ(*MicrosOfDayFromCqlTime(1500, Rounding::kHalfEven), 2);
}

TEST(TimestampWireFormats52, BsonDatetimeFloors) {
  EXPECT_EQ(*DriverIntegerFloorMillis(C(1970, 1, 1, 0, 0, 0, 1000)), 1);
  EXPECT_EQ(*DriverIntegerFloorMillis(C(1969, 12, 31, 23, 59, 59, 999500)), -1);
}

// ---- range errors -----------------------------------------------------------------------------

TEST(TimestampErrors, InvalidFieldsAreInvalidArgumentNamingTheField) {
  struct Case {
    CivilDateTime c;
    const char* field;
  };
  const Case cases[] = {
      {C(2024, 13, 1), "month"},
      {C(2024, 0, 1), "month"},
      {C(1900, 2, 29), "day"},
      {C(2100, 2, 29), "day"},
      {C(2023, 4, 31), "day"},
      {C(2024, 1, 1, 24), "hour"},
      {C(2024, 1, 1, 0, 60), "minute"},
      {C(2024, 1, 1, 0, 0, 60), "second"},
      {C(2024, 1, 1, 0, 0, 0, 1000000), "microsecond"},
      {C(2024, 1, 1, 0, 0, 0, -1), "microsecond"},
      {C(0, 1, 1), "year"},
      {C(10000, 1, 1), "year"},
      {C(std::numeric_limits<int32_t>::min(), 1, 1), "year"},
      {C(2024, std::numeric_limits<int32_t>::min(), 1), "month"},
  };
  for (const Case& k : cases) {
    SCOPED_TRACE(FormatCivil(k.c));
    for (Rounding r : kAllRoundings) {
      absl::StatusOr<int64_t> ms = ToUnixMillis(k.c, r);
      ASSERT_FALSE(ms.ok());
      EXPECT_EQ(ms.status().code(), absl::StatusCode::kInvalidArgument);
      EXPECT_THAT(ms.status().message(), HasSubstr(k.field));
    }
    EXPECT_EQ(ToUnixMicros(k.c).status().code(), absl::StatusCode::kInvalidArgument);
    EXPECT_EQ(ToUnixSeconds(k.c).status().code(), absl::StatusCode::kInvalidArgument);
    EXPECT_EQ(CqlTimeFromCivil(k.c).status().code(), absl::StatusCode::kInvalidArgument);
    EXPECT_EQ(DriverFloatTruncateMillis(k.c).status().code(), absl::StatusCode::kInvalidArgument);
  }
  EXPECT_TRUE(ToUnixMillis(C(2000, 2, 29)).ok());
  EXPECT_TRUE(ToUnixMillis(C(2400, 2, 29)).ok());
}

TEST(TimestampErrors, TimeOfDayOf86400SecondsIsRejected) {
  EXPECT_EQ(CqlTimeFromTimeOfDay(TimeOfDay{24, 0, 0, 0}).status().code(),
            absl::StatusCode::kInvalidArgument);
  EXPECT_THAT(CqlTimeFromTimeOfDay(TimeOfDay{24, 0, 0, 0}).status().message(), HasSubstr("hour"));
  EXPECT_EQ(CqlTimeFromTimeOfDay(TimeOfDay{0, 0, 0, 1000000000}).status().code(),
            absl::StatusCode::kInvalidArgument);
  EXPECT_EQ(CqlTimeFromTimeOfDay(TimeOfDay{0, 0, 0, -1}).status().code(),
            absl::StatusCode::kInvalidArgument);
}

TEST(TimestampErrors, MillisBeyondYear9999AreOutOfRange) {
  for (int64_t ms : {kMaxUnixMillis + 1, kMinUnixMillis - 1, kInt64Max, kInt64Min}) {
    absl::StatusOr<CivilDateTime> c = FromUnixMillis(ms);
    ASSERT_FALSE(c.ok()) << ms;
    EXPECT_EQ(c.status().code(), absl::StatusCode::kOutOfRange);
    EXPECT_THAT(c.status().message(), HasSubstr("year 1..9999"));
  }
  for (int64_t us : {kMaxUnixMicros + 1, kMinUnixMicros - 1, kInt64Max, kInt64Min}) {
    EXPECT_EQ(FromUnixMicros(us).status().code(), absl::StatusCode::kOutOfRange) << us;
  }
  EXPECT_EQ(*FromUnixMillis(kMaxUnixMillis), C(9999, 12, 31, 23, 59, 59, 999000));
  EXPECT_EQ(*FromUnixMicros(kMaxUnixMicros), C(9999, 12, 31, 23, 59, 59, 999999));
  EXPECT_EQ(*FromUnixMicros(kMinUnixMicros), C(1, 1, 1));
}

// Seconds below a microsecond take the three roundings each its own way, including the doubles
// whose exponent leaves 73 or 74 bits below the point (4.8e-7 .. 9.5e-7 s: above half a
// microsecond from 5e-7 on) and the subnormals. Exact values from Python's fractions (3.11):
// floor, int() and round() of Fraction(s) * 10**6. 1/128 s and 3/128 s are exact ties.
TEST(TimestampDouble, SecondsBelowAMicrosecondRoundEachWay) {
  struct Row {
    double s;
    int64_t floor, truncate, half_even;
  };
  const Row rows[] = {
      {4.8e-7, 0, 0, 0},
      {-4.8e-7, -1, 0, 0},
      {5e-7, 0, 0, 0},
      {-5e-7, -1, 0, 0},
      {7e-7, 0, 0, 1},
      {-7e-7, -1, 0, -1},
      {9.5e-7, 0, 0, 1},
      {-9.5e-7, -1, 0, -1},
      {9.6e-7, 0, 0, 1},
      {-9.6e-7, -1, 0, -1},
      {1.4e-6, 1, 1, 1},
      {-1.4e-6, -2, -1, -1},
      {1.6e-6, 1, 1, 2},
      {-1.6e-6, -2, -1, -2},
      {2.4e-7, 0, 0, 0},
      {-2.4e-7, -1, 0, 0},
      {5e-324, 0, 0, 0},
      {-5e-324, -1, 0, 0},
      {1e-300, 0, 0, 0},
      {-1e-300, -1, 0, 0},
      {2.5e-6, 2, 2, 3},
      {-2.5e-6, -3, -2, -3},
      {1.0000005, 1000000, 1000000, 1000001},
      {-1.0000005, -1000001, -1000000, -1000001},
      {1.0 / 128, 7812, 7812, 7812},
      {-1.0 / 128, -7813, -7812, -7812},
      {3.0 / 128, 23437, 23437, 23438},
      {-3.0 / 128, -23438, -23437, -23438},
  };
  for (const Row& r : rows) {
    SCOPED_TRACE(absl::StrFormat("%.17g", r.s));
    EXPECT_EQ(*UnixMicrosFromSeconds(r.s, Rounding::kFloor), r.floor);
    EXPECT_EQ(*UnixMicrosFromSeconds(r.s, Rounding::kTruncate), r.truncate);
    EXPECT_EQ(*UnixMicrosFromSeconds(r.s, Rounding::kHalfEven), r.half_even);
    EXPECT_EQ(*rts::UnixMicrosFromSeconds(r.s, Rounding::kFloor), r.floor);
    EXPECT_EQ(*rts::UnixMicrosFromSeconds(r.s, Rounding::kTruncate), r.truncate);
    EXPECT_EQ(*rts::UnixMicrosFromSeconds(r.s, Rounding::kHalfEven), r.half_even);
  }
}

TEST(TimestampErrors, NanAndOutOfInt64DoublesAreErrors) {
  const double nan = std::numeric_limits<double>::quiet_NaN();
  const double inf = std::numeric_limits<double>::infinity();
  for (Rounding r : kAllRoundings) {
    EXPECT_EQ(UnixMicrosFromSeconds(nan, r).status().code(), absl::StatusCode::kInvalidArgument);
    EXPECT_THAT(UnixMicrosFromSeconds(nan, r).status().message(), HasSubstr("NaN"));
    EXPECT_EQ(UnixMicrosFromSeconds(inf, r).status().code(), absl::StatusCode::kInvalidArgument);
    EXPECT_EQ(UnixMicrosFromSeconds(-inf, r).status().code(), absl::StatusCode::kInvalidArgument);
    EXPECT_EQ(UnixMicrosFromSeconds(1e300, r).status().code(), absl::StatusCode::kOutOfRange);
    EXPECT_EQ(UnixMicrosFromSeconds(-1e300, r).status().code(), absl::StatusCode::kOutOfRange);
    EXPECT_EQ(UnixMicrosFromSeconds(9.3e12, r).status().code(), absl::StatusCode::kOutOfRange);
    EXPECT_EQ(FromUnixSeconds(nan, r).status().code(), absl::StatusCode::kInvalidArgument);
    EXPECT_EQ(FromUnixSeconds(3e11, r).status().code(), absl::StatusCode::kOutOfRange);
  }
  // The double nearest -2^63 µs is -9223372036854.775390625 s: it fits (floor ...391); the next
  // double away from zero, -9223372036854.7763671875 s, does not.
  const double near_min = -9223372036854.775808;
  EXPECT_EQ(*UnixMicrosFromSeconds(near_min), -9223372036854775391);
  EXPECT_EQ(*UnixMicrosFromSeconds(near_min, Rounding::kHalfEven), -9223372036854775391);
  EXPECT_EQ(*UnixMicrosFromSeconds(near_min, Rounding::kTruncate), -9223372036854775390);
  EXPECT_EQ(UnixMicrosFromSeconds(std::nextafter(near_min, -inf)).status().code(),
            absl::StatusCode::kOutOfRange);
  const double near_max = 9223372036854.775807;  // 9223372036854.775390625 s
  EXPECT_EQ(*UnixMicrosFromSeconds(near_max), 9223372036854775390);
  EXPECT_EQ(UnixMicrosFromSeconds(std::nextafter(near_max, inf)).status().code(),
            absl::StatusCode::kOutOfRange);
}

// ---- rounding ---------------------------------------------------------------------------------

TEST(TimestampRounding, DivideRoundedTable) {
  struct Row {
    int64_t n, d, floor, trunc, half_even;
  };
  const Row rows[] = {
      {5, 10, 0, 0, 0},
      {15, 10, 1, 1, 2},
      {25, 10, 2, 2, 2},
      {-5, 10, -1, 0, 0},
      {-15, 10, -2, -1, -2},
      {-25, 10, -3, -2, -2},
      {-1, 1000, -1, 0, 0},
      {-499, 1000, -1, 0, 0},
      {-500, 1000, -1, 0, 0},
      {-501, 1000, -1, 0, -1},
      {499, 1000, 0, 0, 0},
      {500, 1000, 0, 0, 0},
      {501, 1000, 0, 0, 1},
      {1500, 1000, 1, 1, 2},
      {-1500, 1000, -2, -1, -2},
      {0, 7, 0, 0, 0},
      {kInt64Min, 1000, -9223372036854776, -9223372036854775, -9223372036854776},
      {kInt64Max, 1000, 9223372036854775, 9223372036854775, 9223372036854776},
      {kInt64Min, 1, kInt64Min, kInt64Min, kInt64Min},
      {kInt64Max, 1, kInt64Max, kInt64Max, kInt64Max},
      {kInt64Min, kInt64Max, -2, -1, -1},
  };
  for (const Row& r : rows) {
    SCOPED_TRACE(testing::Message() << r.n << " / " << r.d);
    EXPECT_EQ(DivideRounded(r.n, r.d, Rounding::kFloor), r.floor);
    EXPECT_EQ(DivideRounded(r.n, r.d, Rounding::kTruncate), r.trunc);
    EXPECT_EQ(DivideRounded(r.n, r.d, Rounding::kHalfEven), r.half_even);
    EXPECT_EQ(rts::DivideRounded(r.n, r.d, rts::Rounding::kFloor), r.floor);
    EXPECT_EQ(rts::DivideRounded(r.n, r.d, rts::Rounding::kTruncate), r.trunc);
    EXPECT_EQ(rts::DivideRounded(r.n, r.d, rts::Rounding::kHalfEven), r.half_even);
  }
  EXPECT_EQ(RoundingName(Rounding::kFloor), "floor");
  EXPECT_EQ(RoundingName(Rounding::kTruncate), "truncate");
  EXPECT_EQ(RoundingName(Rounding::kHalfEven), "half_even");
}

TEST(TimestampRounding, HalfEvenTiesGoToTheEvenMillisecond) {
  EXPECT_EQ(Ms(C(1970, 1, 1, 0, 0, 0, 500), Rounding::kHalfEven), 0);
  EXPECT_EQ(Ms(C(1970, 1, 1, 0, 0, 0, 1500), Rounding::kHalfEven), 2);
  EXPECT_EQ(Ms(C(1970, 1, 1, 0, 0, 0, 2500), Rounding::kHalfEven), 2);
  EXPECT_EQ(Ms(C(1969, 12, 31, 23, 59, 59, 998500), Rounding::kHalfEven), -2);
  EXPECT_EQ(Ms(C(1969, 12, 31, 23, 59, 59, 997500), Rounding::kHalfEven), -2);
  EXPECT_EQ(Ms(C(9999, 12, 31, 23, 59, 59, 999500), Rounding::kHalfEven), kMaxUnixMillis + 1);
  EXPECT_EQ(MicrosToMillis(500, Rounding::kHalfEven), 0);
  EXPECT_EQ(MicrosToMillis(-500, Rounding::kHalfEven), 0);
  EXPECT_EQ(MicrosToMillis(-1500, Rounding::kHalfEven), -2);
  EXPECT_EQ(MicrosToMillis(-1), -1);
  EXPECT_EQ(MicrosToMillis(-1, Rounding::kTruncate), 0);
}

TEST(TimestampDouble, SecondsFromMicrosIsTheNearestDouble) {
  EXPECT_EQ(UnixSecondsFromMicros(1), 1e-6);
  EXPECT_EQ(UnixSecondsFromMicros(-1), -1e-6);
  EXPECT_EQ(UnixSecondsFromMicros(0), 0.0);
  EXPECT_EQ(UnixSecondsFromMicros(kMaxUnixMicros), 253402300800.0);
  EXPECT_EQ(*ToUnixSeconds(C(2001, 2, 3, 4, 5, 6, 789000)), 981173106.789);
  for (int64_t us : {kInt64Min, kInt64Max, kMaxUnixMicros, kMinUnixMicros, (int64_t{1} << 53) + 1,
                     -(int64_t{1} << 53) - 1, int64_t{123456789012345678}}) {
    EXPECT_EQ(UnixSecondsFromMicros(us), rts::UnixSecondsFromMicros(us)) << us;
  }
}

TEST(TimestampDouble, MicrosFromSecondsRoundsTheExactValue) {
  // The double 1e-06 is 0.99999999999999995474811182588626 µs.
  EXPECT_EQ(*UnixMicrosFromSeconds(1e-6, Rounding::kFloor), 0);
  EXPECT_EQ(*UnixMicrosFromSeconds(1e-6, Rounding::kTruncate), 0);
  EXPECT_EQ(*UnixMicrosFromSeconds(1e-6, Rounding::kHalfEven), 1);
  EXPECT_EQ(*UnixMicrosFromSeconds(-1e-6, Rounding::kFloor), -1);
  EXPECT_EQ(*UnixMicrosFromSeconds(-1e-6, Rounding::kTruncate), 0);
  // 1/128 s = 7812.5 µs exactly: a tie.
  EXPECT_EQ(*UnixMicrosFromSeconds(1.0 / 128, Rounding::kFloor), 7812);
  EXPECT_EQ(*UnixMicrosFromSeconds(1.0 / 128, Rounding::kHalfEven), 7812);
  EXPECT_EQ(*UnixMicrosFromSeconds(3.0 / 128, Rounding::kHalfEven), 23438);  // 23437.5
  EXPECT_EQ(*UnixMicrosFromSeconds(-1.0 / 128, Rounding::kFloor), -7813);
  EXPECT_EQ(*UnixMicrosFromSeconds(-1.0 / 128, Rounding::kTruncate), -7812);
  EXPECT_EQ(*UnixMicrosFromSeconds(-1.0 / 128, Rounding::kHalfEven), -7812);
  EXPECT_EQ(*UnixMicrosFromSeconds(-0.0), 0);
  EXPECT_EQ(*UnixMicrosFromSeconds(std::numeric_limits<double>::denorm_min()), 0);
  EXPECT_EQ(*UnixMicrosFromSeconds(-std::numeric_limits<double>::denorm_min()), -1);
  EXPECT_EQ(*UnixMicrosFromSeconds(981173106.789, Rounding::kHalfEven), 981173106789000);
  EXPECT_EQ(*FromUnixSeconds(-0.5), C(1969, 12, 31, 23, 59, 59, 500000));
}

}  // namespace
}  // namespace serdiff::timestamp
