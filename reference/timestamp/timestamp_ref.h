// serdiff::ref::timestamp — reference conversions, the differential twins of
// serdiff::timestamp (src/serdiff/timestamp/timestamp.h): same semantics, same error classes,
// written for obviousness, not speed. Two independent families:
//
//   Abseil*  — Abseil's time library (absl::CivilSecond / absl::CivilDay, absl::FromCivil,
//              absl::ToUnixMillis, absl::ToUnixMicros, absl::FromUnixMillis, absl::ToCivilSecond)
//              for the floor rules and the exact conversions: a calendar implementation no one
//              here wrote. absl::ToUnixMillis rounds toward negative infinity (floor).
//              Field validation: a civil value is valid iff Abseil's normalizing constructor
//              gives back the same fields.
//   Slow*    — counting implementations for everything, including truncate and half-even:
//              days are counted 400-year cycle by cycle (146097 days, checked by counting in
//              the unit tests), then year by year and month by month; rounding is done by
//              comparing the two neighbouring multiples; double <-> decimal goes through the C
//              library's correctly rounded strtod and its exact "%.1100f" expansion.
//
// Specs: docs/timestamp.md (see the optimized header).
// This library includes nothing from src/: its types are its own.
#pragma once

#include <cstdint>

#include "absl/status/statusor.h"

namespace serdiff::ref::timestamp {

enum class Rounding : uint8_t { kFloor = 0, kTruncate = 1, kHalfEven = 2 };

struct CivilDay {
  int32_t year = 1970;
  int32_t month = 1;
  int32_t day = 1;
  friend bool operator==(const CivilDay&, const CivilDay&) = default;
};
struct CivilDateTime {
  int32_t year = 1970;
  int32_t month = 1;
  int32_t day = 1;
  int32_t hour = 0;
  int32_t minute = 0;
  int32_t second = 0;
  int32_t microsecond = 0;
  friend bool operator==(const CivilDateTime&, const CivilDateTime&) = default;
};
struct TimeOfDay {
  int32_t hour = 0;
  int32_t minute = 0;
  int32_t second = 0;
  int32_t nanosecond = 0;
  friend bool operator==(const TimeOfDay&, const TimeOfDay&) = default;
};

// ---- Abseil ---------------------------------------------------------------------------------
// InvalidArgument for invalid fields; OutOfRange as in the optimized header.
absl::StatusOr<int64_t> AbseilToUnixMillisFloor(const CivilDateTime& c);
absl::StatusOr<int64_t> AbseilToUnixMicros(const CivilDateTime& c);
absl::StatusOr<CivilDateTime> AbseilFromUnixMillis(int64_t ms);
absl::StatusOr<CivilDateTime> AbseilFromUnixMicros(int64_t us);
// Days since 1970-01-01 (absl::CivilDay difference); CQL date raw = days + 2^31.
absl::StatusOr<int64_t> AbseilDaysFromCivil(const CivilDay& d);
CivilDay AbseilCivilFromDays(int64_t days);  // |days| <= 2^39
absl::StatusOr<uint32_t> AbseilCqlDateFromCivil(const CivilDay& d);
CivilDay AbseilCivilFromCqlDate(uint32_t raw);
// ms -> raw CQL date under floor: the UTC date of the instant (absl::ToCivilDay).
absl::StatusOr<uint32_t> AbseilCqlDateFromUnixMillisFloor(int64_t ms);

// ---- slow, counting -------------------------------------------------------------------------
bool SlowIsLeapYear(int64_t year);
int SlowDaysInMonth(int64_t year, int month);
absl::StatusOr<int64_t> SlowDaysFromCivil(const CivilDay& d);
CivilDay SlowCivilFromDays(int64_t days);  // |days| <= 2^39
// n / d rounded by r (d >= 1), by comparing the neighbouring multiples of d.
int64_t SlowDivideRounded(int64_t n, int64_t d, Rounding r);

absl::StatusOr<int64_t> SlowToUnixMicros(const CivilDateTime& c);
absl::StatusOr<int64_t> SlowToUnixMillis(const CivilDateTime& c, Rounding r);
absl::StatusOr<CivilDateTime> SlowFromUnixMicros(int64_t us);
absl::StatusOr<CivilDateTime> SlowFromUnixMillis(int64_t ms);
int64_t SlowMicrosToMillis(int64_t us, Rounding r);

// Decimal text "s.ffffff" of us / 10^6, read back with strtod (correctly rounded).
double SlowUnixSecondsFromMicros(int64_t us);
absl::StatusOr<double> SlowToUnixSeconds(const CivilDateTime& c);
// The double's exact decimal expansion ("%.1100f"), cut after 6 fraction digits and rounded
// by r in decimal.
absl::StatusOr<int64_t> SlowUnixMicrosFromSeconds(double s, Rounding r);

absl::StatusOr<uint32_t> SlowCqlDateFromDays(int64_t days);
int64_t SlowDaysFromCqlDate(uint32_t raw);
absl::StatusOr<uint32_t> SlowCqlDateFromCivil(const CivilDay& d);
CivilDay SlowCivilFromCqlDate(uint32_t raw);
absl::StatusOr<uint32_t> SlowCqlDateFromUnixMillis(int64_t ms, Rounding r);

absl::StatusOr<int64_t> SlowCqlTimeFromTimeOfDay(const TimeOfDay& t);
absl::StatusOr<TimeOfDay> SlowTimeOfDayFromCqlTime(int64_t ns);
absl::StatusOr<int64_t> SlowCqlTimeFromCivil(const CivilDateTime& c);
absl::StatusOr<int64_t> SlowMicrosOfDayFromCqlTime(int64_t ns, Rounding r);

}  // namespace serdiff::ref::timestamp
