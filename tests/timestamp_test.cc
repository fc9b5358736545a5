// Exact values for the timestamp family (facts in docs/timestamp.md: CQL and BSON
// forms, where implementations disagree, the flaky round trip), the calendar checked exhaustively
// over years 1..9999, range errors, and the driver models against golden vectors printed by the
// real python drivers (oracles/python_cassandra/timestamp_vectors.txt, from
// oracles/python_cassandra/timestamp_golden.py).
#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <bit>
#include <cmath>
#include <cstdint>
#include <fstream>
#include <limits>
#include <sstream>
#include <string>

#include "absl/time/civil_time.h"
#include "absl/time/time.h"
#include "harness/report.h"
#include "oracles/abseil/time.h"
#include "reference/timestamp/timestamp_ref.h"
#include "serdiff/timestamp/timestamp.h"
#include "targets/timestamp/edges.h"

namespace serdiff::timestamp {
namespace {

namespace rts = ::serdiff::ref::timestamp;
namespace oab = ::serdiff::oracle::abseil;
using ::testing::HasSubstr;
// The edge tables are test inputs, kept beside the targets (not in the library's header).
using ::serdiff::targets::ts_edges::AnchorMillis;
using ::serdiff::targets::ts_edges::EdgeCqlTimeNanos;
using ::serdiff::targets::ts_edges::EdgeDays;
using ::serdiff::targets::ts_edges::EdgeMicros;
using ::serdiff::targets::ts_edges::EdgeMillis;

constexpr int64_t kInt64Min = std::numeric_limits<int64_t>::min();
constexpr int64_t kInt64Max = std::numeric_limits<int64_t>::max();

std::string Be64(int64_t v) {
  std::string s(8, '\0');
  for (int i = 0; i < 8; ++i) s[i] = static_cast<char>(static_cast<uint64_t>(v) >> (56 - 8 * i));
  return harness::Hex(s);
}
std::string Be32(uint32_t v) {
  std::string s(4, '\0');
  for (int i = 0; i < 4; ++i) s[i] = static_cast<char>(v >> (24 - 8 * i));
  return harness::Hex(s);
}

CivilDateTime C(int y, int mo, int d, int h = 0, int mi = 0, int s = 0, int us = 0) {
  return CivilDateTime{y, mo, d, h, mi, s, us};
}

int64_t Ms(const CivilDateTime& c, Rounding r = Rounding::kFloor) {
  absl::StatusOr<int64_t> v = ToUnixMillis(c, r);
  EXPECT_TRUE(v.ok()) << v.status();
  return v.ok() ? *v : 0;
}

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
