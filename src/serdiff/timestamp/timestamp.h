// serdiff::timestamp — civil UTC datetimes and the integer and floating forms of an instant.
//
// Specs: docs/timestamp.md (millisecond-boundary semantics, python driver vs alternatives;
// CQL timestamp, date, time; BSON UTC datetime, type 0x09 = int64 ms since the epoch), which
// also explains the choices.
//
// Calendar: proleptic Gregorian, UTC, no leap seconds (a minute always has 60 seconds),
// astronomical year numbering (year 0 = 1 BC, year -1 = 2 BC) where years before 1 occur.
//
// Ranges:
//   * CivilDateTime: year 1..9999 (Python's datetime range, what the drivers produce),
//     microsecond precision. As milliseconds: kMinUnixMillis..kMaxUnixMillis
//     (0001-01-01T00:00:00 = -62135596800000, 9999-12-31T23:59:59.999 = 253402300799999).
//   * CivilDay (CQL date): any date whose day count from 1970-01-01 fits int32, i.e. every
//     raw uint32: raw 0 = -5877641-06-23, raw 2^31 = 1970-01-01, raw 2^32-1 = 5881580-07-11.
//   * CQL time: int64 ns since midnight, 0..86399999999999.
//
// Rounding: every conversion that loses precision takes a Rounding, default kFloor (toward
// negative infinity), which is what BSON (pymongo) and integer-based drivers (scylladb
// python-driver HEAD) do: 1969-12-31T23:59:59.999500 -> -1 ms under floor, 0 under truncate.
//
// Errors (absl::Status, never undefined behaviour, never a wrapped value):
//   * InvalidArgument: a field out of its range (month 13, day 30 of February, hour 24,
//     minute 60, second 60, microsecond 1000000, a negative field, year 0 or 10000 in a
//     CivilDateTime), a NaN or infinite double.
//   * OutOfRange: a valid input whose result does not fit the result type (ms beyond year
//     9999 when converting to civil, a day count outside the CQL date range, a CQL time
//     outside 0..86399999999999, a double whose microseconds do not fit int64, a CQL time
//     that rounds up to 24:00:00).
// Messages name the field and the allowed range. The conversions allocate nothing except the
// absl::Status message on the error path (Format* returns a new string).
#pragma once

#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

#include "absl/status/status.h"
#include "absl/status/statusor.h"
#include "serdiff/timestamp/civil.h"
#include "serdiff/timestamp/fast.h"

namespace serdiff::timestamp {

// "floor", "truncate", "half_even".
std::string_view RoundingName(Rounding r);

// n / d rounded by r, for d >= 1. Never overflows: every int64 n is allowed
// (DivideRounded(INT64_MIN, 1000, kFloor) == -9223372036854776). Precondition: d >= 1.
int64_t DivideRounded(int64_t n, int64_t d, Rounding r);

// ---- calendar arithmetic (integer only, O(1), no loops) -----------------------------------

// Gregorian: divisible by 4, except centuries, except every 400th year. 2000 yes, 1900 no.
bool IsLeapYear(int64_t year);
// 28..31. Precondition: 1 <= month <= 12.
int DaysInMonth(int64_t year, int month);

// OK, or InvalidArgument naming the field and its range. A CivilDay may have any int32 year;
// CivilDateTime requires year 1..9999; TimeOfDay requires 00:00:00 <= t < 24:00:00.
absl::Status Validate(const CivilDay& d);
absl::Status Validate(const CivilDateTime& c);
absl::Status Validate(const TimeOfDay& t);

// Days since 1970-01-01 of a valid date (2000-03-01 -> 11017, 0001-01-01 -> -719162).
// Exact for every int32 year. Errors: InvalidArgument for an invalid date.
absl::StatusOr<int64_t> DaysFromCivil(const CivilDay& d);
// Inverse of DaysFromCivil; the result is always a valid date.
// Errors: OutOfRange when |days| > 2^39 (years beyond about ±1.5e9, near the int32 limit).
absl::StatusOr<CivilDay> CivilFromDays(int64_t days);

// ---- instants: int64 milliseconds / microseconds since 1970-01-01T00:00:00Z ---------------
//
// These four are defined inline over serdiff/timestamp/fast.h (Neri-Schneider, 32-bit), so a
// hot loop pays a range check and the arithmetic, not a call; only the error path is out of
// line. fast.h holds the same conversions without the checks, for callers that validated.

namespace internal {
// The OutOfRange statuses of FromUnixMillis / FromUnixMicros (out of line: cold path).
absl::Status MillisOutOfRange(int64_t ms);
absl::Status MicrosOutOfRange(int64_t us);
}  // namespace internal

// CivilDateTime -> ms since the epoch (CQL timestamp, BSON 0x09). Lossy (µs -> ms), rounded
// by r; default floor (BSON, integer drivers). Every valid civil value converts; the result
// may be kMaxUnixMillis + 1 under kHalfEven (9999-12-31T23:59:59.999500 -> 253402300800000).
// Examples: 1969-12-31T23:59:59.999500 -> floor -1, truncate 0, half-even 0;
//   1969-12-31T23:59:59.000001 -> floor -1000, truncate -999;
//   9999-12-31T23:59:59.999999 -> floor 253402300799999 (`00 00 e6 77 d2 1f db ff`).
// Errors: InvalidArgument for an invalid civil value.
inline absl::StatusOr<int64_t> ToUnixMillis(const CivilDateTime& c, Rounding r = Rounding::kFloor) {
  if (!fast::IsValid(c)) [[unlikely]]
    return Validate(c);
  if (r == Rounding::kFloor) [[likely]]
    return fast::ToUnixMillisFloor(c);
  return DivideRounded(fast::ToUnixMicros(c), 1000, r);
}
// CivilDateTime -> ms since the epoch, rounded toward negative infinity, for hot loops: the same
// validity check as ToUnixMillis (fast::IsValid, one predictable branch over all seven fields)
// and no status. true and *out set exactly where ToUnixMillis(c, Rounding::kFloor) is OK (with
// the same value); false, *out unchanged, exactly where it returns InvalidArgument (call it for
// the status text). The StatusOr form took 0.15-0.62 ns more than this one, of 3.7-4.3 ns, on the
// Zen 5 EPYC (docs/benchmarks.md, "Issue 35's table on one machine").
// Precondition: out != nullptr.
inline bool TryToUnixMillis(const CivilDateTime& c, int64_t* out) {
  if (!fast::IsValid(c)) [[unlikely]]
    return false;
  *out = fast::ToUnixMillisFloor(c);
  return true;
}
// ms -> CivilDateTime for hot loops, validating with one unsigned comparison of the count since
// year 1 (the value the conversion starts from) and no status: true and *out set exactly where
// FromUnixMillis(ms) below is OK (with the same value); false, *out unchanged, exactly where it
// returns OutOfRange (call it for the status text). About 1.3 ns less than the StatusOr form on
// the AMD machine (docs/benchmarks.md, "Issue 35, later the same day"): the StatusOr's
// construction, ok check and destruction. Precondition: out != nullptr.
inline bool TryFromUnixMillis(int64_t ms, CivilDateTime* out) {
  const uint64_t since_year1 = static_cast<uint64_t>(ms) - static_cast<uint64_t>(kMinUnixMillis);
  if (since_year1 > static_cast<uint64_t>(kMaxUnixMillis - kMinUnixMillis)) [[unlikely]] {
    return false;
  }
  *out = fast::CivilFromCountSinceYear1<1000>(since_year1);
  return true;
}

// ms -> CivilDateTime. Exact (no rounding). 2300-01-01T00:00:00.001 <- 10413792000001.
// Errors: OutOfRange when ms is outside kMinUnixMillis..kMaxUnixMillis (year 1..9999).
inline absl::StatusOr<CivilDateTime> FromUnixMillis(int64_t ms) {
  CivilDateTime c;
  if (!TryFromUnixMillis(ms, &c)) [[unlikely]] {
    return internal::MillisOutOfRange(ms);
  }
  return c;
}

// CivilDateTime -> µs since the epoch. Exact. Errors: InvalidArgument for an invalid value.
inline absl::StatusOr<int64_t> ToUnixMicros(const CivilDateTime& c) {
  if (!fast::IsValid(c)) [[unlikely]]
    return Validate(c);
  return fast::ToUnixMicros(c);
}
// µs -> CivilDateTime. Exact. Errors: OutOfRange outside kMinUnixMicros..kMaxUnixMicros.
inline absl::StatusOr<CivilDateTime> FromUnixMicros(int64_t us) {
  const uint64_t since_year1 = static_cast<uint64_t>(us) - static_cast<uint64_t>(kMinUnixMicros);
  if (since_year1 > static_cast<uint64_t>(kMaxUnixMicros - kMinUnixMicros)) [[unlikely]] {
    return internal::MicrosOutOfRange(us);
  }
  return fast::CivilFromCountSinceYear1<1'000'000>(since_year1);
}

// µs -> ms for any int64 (cell timestamps are µs, CQL timestamps ms). Lossy, rounded by r,
// default floor: -1 µs -> floor -1 ms, truncate 0. Never fails.
int64_t MicrosToMillis(int64_t us, Rounding r = Rounding::kFloor);

// ---- double seconds since the epoch -------------------------------------------------------

// µs -> seconds as the double NEAREST to us / 10^6 (ties to even), i.e. exactly what Python's
// `timedelta(microseconds=us).total_seconds()` gives. Defined for every int64; this function's
// contract is floating point. 1 µs -> 1e-06; 253402300799999999 µs -> 253402300800.0.
double UnixSecondsFromMicros(int64_t us);
// CivilDateTime -> UnixSecondsFromMicros(ToUnixMicros(c)). Errors: InvalidArgument.
absl::StatusOr<double> ToUnixSeconds(const CivilDateTime& c);
// Double seconds -> int64 µs: the exact value s * 10^6 of the double, rounded by r (no
// intermediate floating-point rounding). The double 1e-06 is 0.99999999999999995 µs: floor 0,
// half-even 1; -0.0 -> 0; 1/128 s = 7812.5 µs -> floor 7812, half-even 7812; -7812.5 µs -> floor
// -7813. Errors: InvalidArgument for NaN or +-infinity; OutOfRange when the rounded result does not
// fit int64 (|s| >= about 9.22e12).
absl::StatusOr<int64_t> UnixMicrosFromSeconds(double s, Rounding r = Rounding::kFloor);
// Double seconds -> CivilDateTime: FromUnixMicros(UnixMicrosFromSeconds(s, r)).
// Errors: as UnixMicrosFromSeconds, plus OutOfRange outside year 1..9999.
absl::StatusOr<CivilDateTime> FromUnixSeconds(double s, Rounding r = Rounding::kFloor);

// ---- CQL date (v4+): uint32 days with 1970-01-01 at 2^31 ----------------------------------

// days since 1970-01-01 -> raw = days + 2^31 (computed in int64). -1 -> 2147483647 (`7f ff ff
// ff`), 0 -> 2^31, 10957 (2000-01-01) -> `80 00 2a cd`.
// Errors: OutOfRange when days is outside -2^31..2^31-1 (never a wrapped value).
absl::StatusOr<uint32_t> CqlDateFromDays(int64_t days);
// raw -> days = raw - 2^31 (int64): 0 -> -2147483648, 2^32-1 -> 2147483647. Never fails.
int64_t DaysFromCqlDate(uint32_t raw);
// CivilDay -> raw. 1969-12-31 -> 0x7fffffff, 0001-01-01 -> 0x7ff506c6, 9999-12-31 -> 0x802cc0a0.
// Errors: InvalidArgument for an invalid date; OutOfRange outside
// -5877641-06-23..5881580-07-11.
absl::StatusOr<uint32_t> CqlDateFromCivil(const CivilDay& d);
// raw -> CivilDay. Every raw is a valid date: 0 -> -5877641-06-23. Never fails.
CivilDay CivilFromCqlDate(uint32_t raw);
// ms since the epoch -> the raw CQL date of that instant's day. Lossy (ms -> days), rounded by
// r: floor (default) gives the UTC calendar date (-1 ms -> 1969-12-31 = 0x7fffffff),
// truncate rounds toward 1970-01-01, half-even to the nearest midnight.
// Errors: OutOfRange when the day count is outside the CQL date range (|ms| >~ 1.855e17).
absl::StatusOr<uint32_t> CqlDateFromUnixMillis(int64_t ms, Rounding r = Rounding::kFloor);

// ---- CQL time (v4+): int64 ns since midnight, 0..86399999999999 ---------------------------

// TimeOfDay -> ns. Exact. 23:59:59.999999000 -> 86399999999000 (`00 00 4e 94 91 4e fc 18`).
// Errors: InvalidArgument for an invalid time of day.
absl::StatusOr<int64_t> CqlTimeFromTimeOfDay(const TimeOfDay& t);
// ns -> TimeOfDay. Exact. Errors: OutOfRange outside 0..86399999999999 (negative included).
absl::StatusOr<TimeOfDay> TimeOfDayFromCqlTime(int64_t ns);
// The time-of-day part of a CivilDateTime as CQL time (µs * 1000). Exact.
// Errors: InvalidArgument for an invalid civil value.
absl::StatusOr<int64_t> CqlTimeFromCivil(const CivilDateTime& c);
// ns -> µs since midnight (the precision of CivilDateTime). Lossy, rounded by r (floor and
// truncate agree: CQL time is never negative). 86399999999500 -> floor 86399999999,
// half-even OutOfRange (it rounds up to 24:00:00).
// Errors: OutOfRange for ns outside 0..86399999999999 or a result of 86400000000.
absl::StatusOr<int64_t> MicrosOfDayFromCqlTime(int64_t ns, Rounding r = Rounding::kFloor);

// ---- the two driver behaviours people actually meet (docs/timestamp.md) -----------

// "integer floor": scylladb python-driver HEAD and BSON (pymongo `_datetime_to_millis`):
// seconds * 1000 + microsecond // 1000 in integers. Same as ToUnixMillis(c, kFloor).
absl::StatusOr<int64_t> DriverIntegerFloorMillis(const CivilDateTime& c);
// "float seconds then truncate": datastax python-driver 3.25 DateType.serialize:
//   int(float(calendar.timegm(...)) * 1e3 + float(microsecond) / 1e3)
// i.e. a double sum truncated toward zero. Floating point by contract (it models a float
// path): 1969-12-31T23:59:59.999500 -> 0; 9999-12-31T23:59:59.999999 -> 253402300800000
// (one ms past the last valid instant). Errors: InvalidArgument for an invalid civil value.
absl::StatusOr<int64_t> DriverFloatTruncateMillis(const CivilDateTime& c);
// "integer" read side (scylladb HEAD: epoch + timedelta(milliseconds=ms)): FromUnixMillis.
absl::StatusOr<CivilDateTime> DriverIntegerFromMillis(int64_t ms);
// python-driver 3.25 DateType.deserialize: epoch + timedelta(seconds=ms / 1000.0), which
// rounds the double to the nearest µs (ties to even). 10425520380477 -> 2300-05-16
// 17:53:00.476999 (not .477000). Errors: OutOfRange outside year 1..9999 (OverflowError).
absl::StatusOr<CivilDateTime> DriverFloatSecondsFromMillis(int64_t ms);

// ---- formatting ---------------------------------------------------------------------------

// "2000-02-29T12:34:56.789000" (always 6 fraction digits; years with 4+ digits, sign when
// negative). For reports and tests; allocates the string.
std::string FormatCivil(const CivilDateTime& c);
std::string FormatCivil(const CivilDay& d);
std::string FormatTimeOfDay(const TimeOfDay& t);

}  // namespace serdiff::timestamp
