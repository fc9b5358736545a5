// serdiff::timestamp — optimized conversions. Two integer-only calendar algorithms:
//   * year 1..9999 (every CivilDateTime, ms and µs instants): the inline Neri-Schneider core
//     of serdiff/timestamp/fast.h, 32-bit;
//   * any int32 year (CivilDay, CQL dates): H. Hinnant's days_from_civil / civil_from_days
//     (March-based years, 400-year eras) below, in 64 bits, with the input shifted to a
//     non-negative range so that every division is an unsigned division by a constant.
// The target timestamp_millis_to_civil and its neighbours compare the two against each
// other (tier "wide_calendar") and against the references. No loops over years.
// Floating point appears only in functions whose contract is floating point
// (UnixSecondsFromMicros, DriverFloatTruncateMillis, DriverFloatSecondsFromMillis).
#include "serdiff/timestamp/timestamp.h"

#include <algorithm>
#include <bit>
#include <cmath>
#include <cstdlib>
#include <limits>

#include "absl/numeric/int128.h"
#include "absl/strings/str_cat.h"
#include "absl/strings/str_format.h"

namespace serdiff::timestamp {
namespace {

constexpr int64_t kInt64Max = std::numeric_limits<int64_t>::max();

// Days from 0000-03-01 to 1970-01-01.
constexpr int64_t kDaysFrom0000_03_01ToEpoch = 719'468;
// Era shift for DaysFromCivilUnchecked: years + 400 * kYearEraShift is positive for every
// int32 year (400 * 5'400'000 = 2.16e9 > 2^31).
constexpr int64_t kYearEraShift = 5'400'000;
// Era shift for CivilFromDaysUnchecked: days + 146097 * kDayEraShift is positive for
// |days| <= 2^39 (2^39 / 146097 = 3.76e6).
constexpr int64_t kDayEraShift = 4'000'000;
constexpr int64_t kMaxCivilFromDaysInput = int64_t{1} << 39;

// Day of the March-based year at which month m (1..12) starts, for d = 1.
constexpr uint32_t MarchMonth(uint32_t m) { return m > 2 ? m - 3 : m + 9; }

// Days since 1970-01-01 of y-m-d. Preconditions: 1 <= m <= 12, 1 <= d <= 31, y fits int32.
inline int64_t DaysFromCivilUnchecked(int64_t y, uint32_t m, uint32_t d) {
  y -= (m <= 2);
  const uint64_t yy = static_cast<uint64_t>(y + 400 * kYearEraShift);  // > 0
  const uint64_t era = yy / 400;
  const uint64_t yoe = yy - era * 400;                                   // [0, 399]
  const uint64_t doy = (153 * uint64_t{MarchMonth(m)} + 2) / 5 + d - 1;  // [0, 365]
  const uint64_t doe = yoe * 365 + yoe / 4 - yoe / 100 + doy;            // [0, 146096]
  return static_cast<int64_t>(era * 146097 + doe) -
         (kYearEraShift * 146097 + kDaysFrom0000_03_01ToEpoch);
}

// Inverse, for z = days since 0000-03-01 shifted by `era_shift` eras (z >= 0).
struct YMD {
  int64_t year;
  uint32_t month;
  uint32_t day;
};
inline YMD CivilFromShiftedDays(uint64_t z, int64_t era_shift) {
  const uint64_t era = z / 146097;
  const uint64_t doe = z - era * 146097;                                       // [0, 146096]
  const uint64_t yoe = (doe - doe / 1460 + doe / 36524 - doe / 146096) / 365;  // [0, 399]
  const uint64_t doy = doe - (365 * yoe + yoe / 4 - yoe / 100);                // [0, 365]
  const uint64_t mp = (5 * doy + 2) / 153;                                     // [0, 11]
  const uint32_t day = static_cast<uint32_t>(doy - (153 * mp + 2) / 5 + 1);    // [1, 31]
  const uint32_t month = static_cast<uint32_t>(mp < 10 ? mp + 3 : mp - 9);     // [1, 12]
  const int64_t year = static_cast<int64_t>(yoe + era * 400) - era_shift * 400 + (month <= 2);
  return {year, month, day};
}

inline YMD CivilFromDaysUnchecked(int64_t days) {  // |days| <= 2^39
  const uint64_t z =
      static_cast<uint64_t>(days + kDaysFrom0000_03_01ToEpoch + kDayEraShift * 146097);
  return CivilFromShiftedDays(z, kDayEraShift);
}

constexpr uint8_t kDaysInMonth[13] = {0, 31, 28, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31};

inline bool IsLeap(int64_t y) { return (y % 4 == 0) && (y % 100 != 0 || y % 400 == 0); }

inline uint32_t DaysIn(int64_t y, uint32_t m) {
  return kDaysInMonth[m] + (m == 2 && IsLeap(y) ? 1 : 0);
}

// Fast validity checks; the messages are built by the slow Validate functions below.
inline bool DateFieldsValid(int64_t year, int32_t month, int32_t day) {
  if (static_cast<uint32_t>(month) - 1u >= 12u) return false;
  return day >= 1 && static_cast<uint32_t>(day) <= DaysIn(year, static_cast<uint32_t>(month));
}

absl::Status FieldError(const char* what, int64_t value, const char* range) {
  return absl::InvalidArgumentError(
      absl::StrCat(what, " ", value, " is out of range (allowed: ", range, ")"));
}

absl::Status ValidateDateFields(int64_t year, int32_t month, int32_t day) {
  if (month < 1 || month > 12) return FieldError("month", month, "1..12");
  const uint32_t dim = DaysIn(year, static_cast<uint32_t>(month));
  if (day < 1 || static_cast<uint32_t>(day) > dim) {
    return absl::InvalidArgumentError(absl::StrCat("day ", day, " is out of range for ", year, "-",
                                                   month, " (allowed: 1..", dim, ")"));
  }
  return absl::OkStatus();
}

// |v| of an int64 as uint64 (INT64_MIN -> 2^63).
inline uint64_t Magnitude(int64_t v) {
  return v < 0 ? 0 - static_cast<uint64_t>(v) : static_cast<uint64_t>(v);
}

const char* RoundingCName(Rounding r) { return RoundingName(r).data(); }  // NUL-terminated

// Applies rounding to a non-negative quotient q of a value whose sign is `negative`, with
// `inexact` = remainder != 0, and `cmp` = sign of (remainder - divisor / 2) (-1, 0, +1).
// Returns the magnitude of the rounded result (the caller applies the sign).
inline absl::uint128 RoundMagnitude(absl::uint128 q, bool negative, bool inexact, int cmp,
                                    Rounding r) {
  switch (r) {
    case Rounding::kFloor:
      return (negative && inexact) ? q + 1 : q;
    case Rounding::kTruncate:
      return q;
    case Rounding::kHalfEven:
      if (cmp > 0 || (cmp == 0 && (q & 1) != 0)) return q + 1;
      return q;
  }
  return q;
}

}  // namespace

// ---- rounding -----------------------------------------------------------------------------

std::string_view RoundingName(Rounding r) {
  switch (r) {
    case Rounding::kFloor:
      return "floor";
    case Rounding::kTruncate:
      return "truncate";
    case Rounding::kHalfEven:
      return "half_even";
  }
  return "unknown";
}

int64_t DivideRounded(int64_t n, int64_t d, Rounding r) {
  // C++ division truncates toward zero; q * d + rem == n with |rem| < d and rem's sign = n's.
  const int64_t q = n / d;
  const int64_t rem = n % d;
  switch (r) {
    case Rounding::kTruncate:
      return q;
    case Rounding::kFloor:
      return q - (rem < 0 ? 1 : 0);
    case Rounding::kHalfEven: {
      const uint64_t twice = 2 * Magnitude(rem);  // < 2^64 since |rem| < 2^63
      const uint64_t ud = static_cast<uint64_t>(d);
      if (twice > ud || (twice == ud && (q & 1) != 0)) return rem < 0 ? q - 1 : q + 1;
      return q;
    }
  }
  return q;
}

// ---- calendar -----------------------------------------------------------------------------

bool IsLeapYear(int64_t year) { return IsLeap(year); }

int DaysInMonth(int64_t year, int month) {
  return static_cast<int>(DaysIn(year, static_cast<uint32_t>(month)));
}

absl::Status Validate(const CivilDay& d) { return ValidateDateFields(d.year, d.month, d.day); }

absl::Status Validate(const CivilDateTime& c) {
  if (c.year < kMinYear || c.year > kMaxYear) return FieldError("year", c.year, "1..9999");
  if (auto s = ValidateDateFields(c.year, c.month, c.day); !s.ok()) return s;
  if (c.hour < 0 || c.hour > 23) return FieldError("hour", c.hour, "0..23");
  if (c.minute < 0 || c.minute > 59) return FieldError("minute", c.minute, "0..59");
  if (c.second < 0 || c.second > 59) {
    return FieldError("second", c.second, "0..59; leap seconds are not represented");
  }
  if (c.microsecond < 0 || c.microsecond > 999'999) {
    return FieldError("microsecond", c.microsecond, "0..999999");
  }
  return absl::OkStatus();
}

absl::Status Validate(const TimeOfDay& t) {
  if (t.hour < 0 || t.hour > 23) return FieldError("hour", t.hour, "0..23");
  if (t.minute < 0 || t.minute > 59) return FieldError("minute", t.minute, "0..59");
  if (t.second < 0 || t.second > 59) return FieldError("second", t.second, "0..59");
  if (t.nanosecond < 0 || t.nanosecond > 999'999'999) {
    return FieldError("nanosecond", t.nanosecond, "0..999999999");
  }
  return absl::OkStatus();
}

absl::StatusOr<int64_t> DaysFromCivil(const CivilDay& d) {
  if (!DateFieldsValid(d.year, d.month, d.day)) return Validate(d);
  return DaysFromCivilUnchecked(d.year, static_cast<uint32_t>(d.month),
                                static_cast<uint32_t>(d.day));
}

absl::StatusOr<CivilDay> CivilFromDays(int64_t days) {
  if (days < -kMaxCivilFromDaysInput || days > kMaxCivilFromDaysInput) {
    return absl::OutOfRangeError(
        absl::StrCat("day count ", days, " is out of range (allowed: |days| <= 2^39)"));
  }
  const YMD ymd = CivilFromDaysUnchecked(days);
  return CivilDay{static_cast<int32_t>(ymd.year), static_cast<int32_t>(ymd.month),
                  static_cast<int32_t>(ymd.day)};
}

// ---- instants -----------------------------------------------------------------------------

namespace internal {

absl::Status MillisOutOfRange(int64_t ms) {
  return absl::OutOfRangeError(absl::StrCat(
      "ms ", ms, " is outside year 1..9999 (allowed: ", kMinUnixMillis, "..", kMaxUnixMillis, ")"));
}

absl::Status MicrosOutOfRange(int64_t us) {
  return absl::OutOfRangeError(absl::StrCat(
      "µs ", us, " is outside year 1..9999 (allowed: ", kMinUnixMicros, "..", kMaxUnixMicros, ")"));
}

}  // namespace internal

int64_t MicrosToMillis(int64_t us, Rounding r) { return DivideRounded(us, 1000, r); }

// ---- double seconds -----------------------------------------------------------------------

double UnixSecondsFromMicros(int64_t us) {
  constexpr int64_t kExact = int64_t{1} << 53;
  // Both operands exact and IEEE division correctly rounded: the nearest double.
  if (us >= -kExact && us <= kExact) return static_cast<double>(us) / 1e6;
  // Exact path: Q = floor(|us| * 2^k / 10^6) with 2^52 <= Q < 2^53, rounded half-even on the
  // remainder, then scaled by 2^-k (exact). |us| < 2^64 and 10^6 < 2^20, so the product fits
  // 2^73 < 2^128.
  const uint64_t a = Magnitude(us);
  const int bits = 64 - std::countl_zero(a);  // 54..64
  int k = 72 - bits;
  const absl::uint128 d = 1'000'000;
  absl::uint128 num = absl::uint128(a) << k;
  absl::uint128 q = num / d;
  if (q >= (absl::uint128(1) << 53)) {
    --k;
    num = absl::uint128(a) << k;
    q = num / d;
  } else if (q < (absl::uint128(1) << 52)) {
    ++k;
    num = absl::uint128(a) << k;
    q = num / d;
  }
  const absl::uint128 rem = num - q * d;
  const absl::uint128 twice = rem * 2;
  if (twice > d || (twice == d && (q & 1) != 0)) q += 1;
  const double mag = std::ldexp(static_cast<double>(absl::Uint128Low64(q)), -k);
  return us < 0 ? -mag : mag;
}

absl::StatusOr<double> ToUnixSeconds(const CivilDateTime& c) {
  if (!fast::IsValid(c)) return Validate(c);
  return UnixSecondsFromMicros(fast::ToUnixMicros(c));
}

absl::StatusOr<int64_t> UnixMicrosFromSeconds(double s, Rounding r) {
  if (std::isnan(s)) return absl::InvalidArgumentError("seconds is NaN");
  if (std::isinf(s)) {
    return absl::InvalidArgumentError(absl::StrCat("seconds is ", s < 0 ? "-" : "+", "infinity"));
  }
  // s = m * 2^e exactly, m < 2^53.
  const uint64_t bits = std::bit_cast<uint64_t>(s);
  const bool negative = (bits >> 63) != 0;
  const int biased = static_cast<int>((bits >> 52) & 0x7ff);
  const uint64_t frac = bits & ((uint64_t{1} << 52) - 1);
  const uint64_t m = biased == 0 ? frac : (frac | (uint64_t{1} << 52));
  const int e = biased == 0 ? -1074 : biased - 1075;
  // s * 10^6 = P * 2^e with P = m * 10^6 < 2^73.
  const absl::uint128 p = absl::uint128(m) * 1'000'000;
  absl::uint128 mag;
  if (m == 0) {
    mag = 0;
  } else if (e >= 0) {
    // Exact integer. p >= 10^6 > 2^19, so e > 54 is far beyond 2^63; p << 54 < 2^127.
    mag = e > 54 ? absl::uint128(1) << 100 : p << e;
  } else {
    const int sh = -e;
    absl::uint128 q;
    bool inexact;
    int cmp;
    if (sh >= 75) {  // p < 2^73 < half of 2^sh
      q = 0;
      inexact = true;
      cmp = -1;
    } else {
      q = p >> sh;
      const absl::uint128 rem = p - (q << sh);
      const absl::uint128 half = absl::uint128(1) << (sh - 1);
      inexact = rem != 0;
      cmp = rem > half ? 1 : (rem == half ? 0 : -1);
    }
    mag = RoundMagnitude(q, negative, inexact, cmp, r);
  }
  const absl::uint128 limit = negative ? (absl::uint128(1) << 63) : absl::uint128(kInt64Max);
  if (mag > limit) {
    return absl::OutOfRangeError(absl::StrFormat(
        "%.17g seconds is out of range: its microseconds (rounded: %s) do not fit int64", s,
        RoundingCName(r)));
  }
  const uint64_t lo = absl::Uint128Low64(mag);
  return negative ? static_cast<int64_t>(0 - lo) : static_cast<int64_t>(lo);
}

absl::StatusOr<CivilDateTime> FromUnixSeconds(double s, Rounding r) {
  absl::StatusOr<int64_t> us = UnixMicrosFromSeconds(s, r);
  if (!us.ok()) return us.status();
  return FromUnixMicros(*us);
}

// ---- CQL date -----------------------------------------------------------------------------

absl::StatusOr<uint32_t> CqlDateFromDays(int64_t days) {
  if (days < kMinCqlDateDays || days > kMaxCqlDateDays) {
    return absl::OutOfRangeError(absl::StrCat(
        "day count ", days, " is outside the CQL date range (allowed: ", kMinCqlDateDays, "..",
        kMaxCqlDateDays, ")"));
  }
  return static_cast<uint32_t>(days + kCqlDateEpochRaw);  // int64: 0..2^32-1
}

int64_t DaysFromCqlDate(uint32_t raw) { return static_cast<int64_t>(raw) - kCqlDateEpochRaw; }

absl::StatusOr<uint32_t> CqlDateFromCivil(const CivilDay& d) {
  absl::StatusOr<int64_t> days = DaysFromCivil(d);
  if (!days.ok()) return days.status();
  return CqlDateFromDays(*days);
}

CivilDay CivilFromCqlDate(uint32_t raw) {
  const YMD ymd = CivilFromDaysUnchecked(DaysFromCqlDate(raw));
  return CivilDay{static_cast<int32_t>(ymd.year), static_cast<int32_t>(ymd.month),
                  static_cast<int32_t>(ymd.day)};
}

absl::StatusOr<uint32_t> CqlDateFromUnixMillis(int64_t ms, Rounding r) {
  return CqlDateFromDays(DivideRounded(ms, kMillisPerDay, r));
}

// ---- CQL time -----------------------------------------------------------------------------

absl::StatusOr<int64_t> CqlTimeFromTimeOfDay(const TimeOfDay& t) {
  if (static_cast<uint32_t>(t.hour) >= 24u || static_cast<uint32_t>(t.minute) >= 60u ||
      static_cast<uint32_t>(t.second) >= 60u ||
      static_cast<uint32_t>(t.nanosecond) >= 1'000'000'000u) {
    return Validate(t);
  }
  return (int64_t{t.hour} * 3600 + t.minute * 60 + t.second) * 1'000'000'000 + t.nanosecond;
}

absl::StatusOr<TimeOfDay> TimeOfDayFromCqlTime(int64_t ns) {
  if (ns < 0 || ns > kMaxCqlTimeNanos) {
    return absl::OutOfRangeError(
        absl::StrCat("CQL time ", ns, " ns is out of range (allowed: 0..", kMaxCqlTimeNanos, ")"));
  }
  const uint64_t u = static_cast<uint64_t>(ns);
  const uint64_t sod = u / 1'000'000'000;
  TimeOfDay t;
  t.hour = static_cast<int32_t>(sod / 3600);
  t.minute = static_cast<int32_t>(sod / 60 % 60);
  t.second = static_cast<int32_t>(sod % 60);
  t.nanosecond = static_cast<int32_t>(u - sod * 1'000'000'000);
  return t;
}

absl::StatusOr<int64_t> CqlTimeFromCivil(const CivilDateTime& c) {
  if (!fast::IsValid(c)) return Validate(c);
  return ((int64_t{c.hour} * 3600 + c.minute * 60 + c.second) * 1'000'000 + c.microsecond) * 1000;
}

absl::StatusOr<int64_t> MicrosOfDayFromCqlTime(int64_t ns, Rounding r) {
  if (ns < 0 || ns > kMaxCqlTimeNanos) {
    return absl::OutOfRangeError(
        absl::StrCat("CQL time ", ns, " ns is out of range (allowed: 0..", kMaxCqlTimeNanos, ")"));
  }
  const int64_t us = DivideRounded(ns, 1000, r);
  if (us >= kMicrosPerDay) {
    return absl::OutOfRangeError(
        absl::StrCat("CQL time ", ns, " ns rounds (", RoundingCName(r), ") to 24:00:00"));
  }
  return us;
}

// ---- drivers ------------------------------------------------------------------------------

absl::StatusOr<int64_t> DriverIntegerFloorMillis(const CivilDateTime& c) {
  // seconds * 1000 + microsecond // 1000, all in integers (python // is floor; microsecond
  // is non-negative, so it is also plain division).
  if (!fast::IsValid(c)) return Validate(c);
  return fast::UnixSeconds(c) * 1000 + c.microsecond / 1000;
}

absl::StatusOr<int64_t> DriverFloatTruncateMillis(const CivilDateTime& c) {
  if (!fast::IsValid(c)) return Validate(c);
  // timestamp_seconds = calendar.timegm(v.utctimetuple())  (an exact Python int)
  // timestamp = timestamp_seconds * 1e3 + v.microsecond / 1e3  (each op one double rounding)
  // int64_pack(int(timestamp))  (int() truncates toward zero)
  const double seconds = static_cast<double>(fast::UnixSeconds(c));  // |s| < 2^38: exact
  const double scaled = seconds * 1e3;
  const double fraction = static_cast<double>(c.microsecond) / 1e3;
  const double timestamp = scaled + fraction;
  return static_cast<int64_t>(timestamp);  // |timestamp| < 2^48: no overflow
}

absl::StatusOr<CivilDateTime> DriverIntegerFromMillis(int64_t ms) { return FromUnixMillis(ms); }

absl::StatusOr<CivilDateTime> DriverFloatSecondsFromMillis(int64_t ms) {
  // DateType.deserialize: timestamp = ms / 1000.0 (int -> double, then one division).
  const double s = static_cast<double>(ms) / 1000.0;
  // datetime.timedelta(seconds=s), CPython delta_new/accum: split off the integral part
  // exactly, scale the fraction by 1e6 in double, split again, and round the leftover to the
  // nearest µs with ties to even on the running total.
  double int_part = 0;
  const double frac = std::modf(s, &int_part);
  // Any |int_part| beyond the datetime range overflows in Python; reject before converting.
  if (!(int_part >= -62'135'596'801.0 && int_part <= 253'402'300'800.0)) {
    return absl::OutOfRangeError(
        absl::StrCat("ms ", ms, " is outside year 1..9999 (python: OverflowError)"));
  }
  int64_t total_us = static_cast<int64_t>(int_part) * 1'000'000;
  double us_int = 0;
  const double leftover = std::modf(frac * 1e6, &us_int);
  total_us += static_cast<int64_t>(us_int);
  double whole = std::round(leftover);
  if (std::fabs(whole - leftover) == 0.5) {
    const int odd = static_cast<int>(total_us & 1);
    whole = 2.0 * std::round((leftover + odd) * 0.5) - odd;
  }
  total_us += static_cast<int64_t>(whole);
  if (total_us < kMinUnixMicros || total_us > kMaxUnixMicros) {
    return absl::OutOfRangeError(
        absl::StrCat("ms ", ms, " is outside year 1..9999 (python: OverflowError)"));
  }
  return fast::FromUnixMicros(total_us);
}

// ---- formatting ---------------------------------------------------------------------------

namespace {
std::string FormatYmd(int64_t year, int64_t month, int64_t day) {
  return absl::StrFormat("%s%04d-%02d-%02d", year < 0 ? "-" : "", year < 0 ? -year : year, month,
                         day);
}
}  // namespace

std::string FormatCivil(const CivilDateTime& c) {
  return absl::StrCat(
      FormatYmd(c.year, c.month, c.day),
      absl::StrFormat("T%02d:%02d:%02d.%06d", c.hour, c.minute, c.second, c.microsecond));
}

std::string FormatCivil(const CivilDay& d) { return FormatYmd(d.year, d.month, d.day); }

std::string FormatTimeOfDay(const TimeOfDay& t) {
  return absl::StrFormat("%02d:%02d:%02d.%09d", t.hour, t.minute, t.second, t.nanosecond);
}

}  // namespace serdiff::timestamp
