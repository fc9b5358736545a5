// serdiff::ref::timestamp — reference conversions, the differential twins of
// serdiff::timestamp (src/serdiff/timestamp/timestamp.h): the same function names, the same
// semantics and error classes, on the same value types (serdiff/timestamp/civil.h, plain data),
// written for obviousness, not speed: days are counted 400-year cycle by cycle (146097 days,
// checked by counting in the unit tests), then year by year and month by month; rounding is
// done by comparing the two neighbouring multiples; double <-> decimal goes through the C
// library's correctly rounded strtod and its exact "%.1100f" expansion. Abseil's calendar, a
// second implementation no one here wrote, is an oracle: oracles/abseil/time.h.
//
// Specs: docs/timestamp.md (see the optimized header). This library includes nothing from src/
// but the value model.
#pragma once

#include <cstdint>

#include "absl/status/statusor.h"
#include "serdiff/timestamp/civil.h"

namespace serdiff::ref::timestamp {

using serdiff::timestamp::CivilDateTime;
using serdiff::timestamp::CivilDay;
using serdiff::timestamp::Rounding;
using serdiff::timestamp::TimeOfDay;

bool IsLeapYear(int64_t year);
int DaysInMonth(int64_t year, int month);
absl::StatusOr<int64_t> DaysFromCivil(const CivilDay& d);
CivilDay CivilFromDays(int64_t days);  // |days| <= 2^39
// n / d rounded by r (d >= 1), by comparing the neighbouring multiples of d.
int64_t DivideRounded(int64_t n, int64_t d, Rounding r);

absl::StatusOr<int64_t> ToUnixMicros(const CivilDateTime& c);
absl::StatusOr<int64_t> ToUnixMillis(const CivilDateTime& c, Rounding r);
absl::StatusOr<CivilDateTime> FromUnixMicros(int64_t us);
absl::StatusOr<CivilDateTime> FromUnixMillis(int64_t ms);
int64_t MicrosToMillis(int64_t us, Rounding r);

// Decimal text "s.ffffff" of us / 10^6, read back with strtod (correctly rounded).
double UnixSecondsFromMicros(int64_t us);
absl::StatusOr<double> ToUnixSeconds(const CivilDateTime& c);
// The double's exact decimal expansion ("%.1100f"), cut after 6 fraction digits and rounded
// by r in decimal.
absl::StatusOr<int64_t> UnixMicrosFromSeconds(double s, Rounding r);

absl::StatusOr<uint32_t> CqlDateFromDays(int64_t days);
int64_t DaysFromCqlDate(uint32_t raw);
absl::StatusOr<uint32_t> CqlDateFromCivil(const CivilDay& d);
CivilDay CivilFromCqlDate(uint32_t raw);
absl::StatusOr<uint32_t> CqlDateFromUnixMillis(int64_t ms, Rounding r);

absl::StatusOr<int64_t> CqlTimeFromTimeOfDay(const TimeOfDay& t);
absl::StatusOr<TimeOfDay> TimeOfDayFromCqlTime(int64_t ns);
absl::StatusOr<int64_t> CqlTimeFromCivil(const CivilDateTime& c);
absl::StatusOr<int64_t> MicrosOfDayFromCqlTime(int64_t ns, Rounding r);

}  // namespace serdiff::ref::timestamp
