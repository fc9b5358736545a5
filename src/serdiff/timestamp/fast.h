// serdiff::timestamp::fast — the unchecked inline core under the validating conversions of
// serdiff/timestamp/timestamp.h, for hot paths that have already range-checked their input.
//
// Calendar: proleptic Gregorian, UTC, no leap seconds, year 1..9999 only (the CivilDateTime
// range; CQL dates of any int32 day count use the wide path in timestamp.cc).
//
// Algorithms: C. Neri and L. Schneider, "Euclidean affine functions and their application to
// calendar algorithms", Software: Practice and Experience 53(4), 2023, sections 5 and 6: the
// day count is taken relative to 0000-03-01 (a "computational" year that starts in March, so
// the leap day is the last day of the year), split into century, year of century and day of
// year by Euclidean affine functions, i.e. a multiply and a shift each, in 32-bit arithmetic.
// No loops, no tables, no branch on the input (the March/January fold compiles to a
// conditional move). Every function but IsValidSse2 is constexpr; the tests
// (TimestampFastCore.* in tests/timestamp_test.cc) check every day of the range at run time.
//
// Preconditions are the caller's: apart from the IsValid predicates, nothing here validates.
// Outside its precondition a function returns an unspecified value (never undefined
// behaviour: all arithmetic is unsigned). Allocates nothing.
#pragma once

#include <cstdint>
#include <type_traits>

#if defined(__SSE2__)
#include <emmintrin.h>
#endif

#include "serdiff/timestamp/civil.h"

namespace serdiff::timestamp::fast {

// Days from 0000-03-01 (computational day 0) to 1970-01-01.
inline constexpr uint32_t kEpochComputationalDay = 719'468;

// Gregorian leap year, for 1 <= year <= 9999 (any non-negative year works): divisible by 4,
// except centuries, except every 400th. A century year is divisible by 4 exactly when it is
// divisible by 400 / 25 = 16, so the test is one divisibility check by 25 and one mask.
constexpr bool IsLeapYear(uint32_t year) { return (year & (year % 25 == 0 ? 15u : 3u)) == 0; }

// Days in month (28..31) for 1 <= month <= 12. Bit 0 of month ^ (month >> 3) is 1 exactly for
// the 31-day months (January, March, May, July, August, October, December); 30 | that bit is
// 30 for February too, which then loses 2 days, or 1 in a leap year. No branch on the month (a
// validity check over random dates would mispredict one in twelve).
constexpr uint32_t DaysInMonth(uint32_t year, uint32_t month) {
  const uint32_t not_february = 30u | ((month ^ (month >> 3)) & 1u);
  const uint32_t february_shortfall = 2u - static_cast<uint32_t>(IsLeapYear(year));
  return not_february - static_cast<uint32_t>(month == 2) * february_shortfall;
}

// True exactly when every field of c is in range: year 1..9999, month 1..12,
// day 1..DaysInMonth, hour 0..23, minute 0..59, second 0..59, microsecond 0..999999.
// The same predicate as serdiff::timestamp::Validate(c).ok(), without building a Status.
// Branch-free: for a field f with range 0..L, f | (L - f) in 32-bit unsigned arithmetic has
// bit 31 clear exactly when 0 <= f <= L (a negative f has bit 31 set; an f above L makes
// L - f wrap to at least 2^31). One OR of all fields' terms, one test of bit 31. The month's
// length is computed for every input; for an invalid month it is some value, and the month's
// own term already fails.
constexpr bool IsValidScalar(const CivilDateTime& c) {
  const uint32_t y = static_cast<uint32_t>(c.year) - 1u;     // 0..9998
  const uint32_t m = static_cast<uint32_t>(c.month) - 1u;    // 0..11
  const uint32_t d = static_cast<uint32_t>(c.day) - 1u;      // 0..DaysInMonth - 1
  const uint32_t h = static_cast<uint32_t>(c.hour);          // 0..23
  const uint32_t mi = static_cast<uint32_t>(c.minute);       // 0..59
  const uint32_t s = static_cast<uint32_t>(c.second);        // 0..59
  const uint32_t us = static_cast<uint32_t>(c.microsecond);  // 0..999999
  const uint32_t last_day = DaysInMonth(y + 1u, m + 1u) - 1u;
  const uint32_t terms = y | (9998u - y) | m | (11u - m) | d | (last_day - d) | h | (23u - h) | mi |
                         (59u - mi) | s | (59u - s) | us | (999'999u - us);
  return (terms >> 31) == 0;
}

// IsValidScalar at compile time; at run time on x86-64 (SSE2, always present there) the seven
// range checks as two 4-lane signed compares of the struct's fields (year..hour and
// hour..microsecond: two overlapping 16-byte loads inside the 28-byte struct) and one
// movemask, plus the day against its month's length.
#if defined(__SSE2__)
inline bool IsValidSse2(const CivilDateTime& c) {
  static_assert(sizeof(CivilDateTime) == 28, "seven int32 fields, no padding");
  const char* bytes = reinterpret_cast<const char*>(&c);
  const __m128i low = _mm_loadu_si128(reinterpret_cast<const __m128i*>(bytes));        // y m d h
  const __m128i high = _mm_loadu_si128(reinterpret_cast<const __m128i*>(bytes + 12));  // h mi s us
  // Lane i is in range when min_i - 1 < field < max_i + 1 (all limits fit int32).
  const __m128i low_ok = _mm_and_si128(_mm_cmpgt_epi32(low, _mm_setr_epi32(0, 0, 0, -1)),
                                       _mm_cmplt_epi32(low, _mm_setr_epi32(10'000, 13, 32, 24)));
  const __m128i high_ok =
      _mm_and_si128(_mm_cmpgt_epi32(high, _mm_set1_epi32(-1)),
                    _mm_cmplt_epi32(high, _mm_setr_epi32(24, 60, 60, 1'000'000)));
  const int lanes = _mm_movemask_ps(_mm_castsi128_ps(_mm_and_si128(low_ok, high_ok)));
  const bool day_fits = static_cast<uint32_t>(c.day) <=
                        DaysInMonth(static_cast<uint32_t>(c.year), static_cast<uint32_t>(c.month));
  return (lanes == 0xf) & day_fits;
}
#endif

constexpr bool IsValid(const CivilDateTime& c) {
#if defined(__SSE2__)
  if (!std::is_constant_evaluated()) return IsValidSse2(c);
#endif
  return IsValidScalar(c);
}

// Days since 1970-01-01 of y-m-d. Precondition: 1 <= y <= 9999, 1 <= m <= 12,
// 1 <= d <= DaysInMonth(y, m). 1970-01-01 -> 0, 0001-01-01 -> -719162,
// 9999-12-31 -> 2932896. (Neri-Schneider, section 6.)
constexpr int32_t DaysFromCivil(uint32_t y, uint32_t m, uint32_t d) {
  const uint32_t j = m <= 2 ? 1u : 0u;  // January and February belong to the previous
  const uint32_t year = y - j;          // computational year, which starts on March 1st
  const uint32_t month = m + 12u * j;   // 3..14
  const uint32_t century = year / 100u;
  const uint32_t year_days = 1461u * year / 4u - century + century / 4u;
  const uint32_t month_days = (979u * month - 2919u) / 32u;  // days from March 1st to month 1st
  const uint32_t n = year_days + month_days + d - 1u;        // days since 0000-03-01
  return static_cast<int32_t>(n - kEpochComputationalDay);
}

// Inverse of DaysFromCivil. Precondition: kMinCivilDays <= days <= kMaxCivilDays
// (0001-01-01..9999-12-31). (Neri-Schneider, section 5.)
constexpr CivilDay CivilFromDays(int32_t days) {
  const uint32_t n = static_cast<uint32_t>(days) + kEpochComputationalDay;  // >= 306
  const uint32_t n1 = 4u * n + 3u;
  const uint32_t century = n1 / 146'097u;
  const uint32_t day_of_century = n1 % 146'097u / 4u;
  // Year of century and day of year from one 32x32->64 product: 2939745 / 2^32 ~ 1 / 1461.
  const uint64_t p = uint64_t{2'939'745} * (4u * day_of_century + 3u);
  const uint32_t year_of_century = static_cast<uint32_t>(p >> 32);
  const uint32_t day_of_year = static_cast<uint32_t>(p) / 2'939'745u / 4u;  // 0..365
  // Month (3..14) and day from one product: 2141 / 2^16 ~ 5 / 153 (the length of a 5-month
  // March-July cycle is 153 days).
  const uint32_t md = 2141u * day_of_year + 197'913u;
  const uint32_t month = md >> 16;
  const uint32_t day = (md & 0xffffu) / 2141u;
  const uint32_t j = day_of_year >= 306u ? 1u : 0u;  // January or February of the next year
  return CivilDay{static_cast<int32_t>(100u * century + year_of_century + j),
                  static_cast<int32_t>(month - 12u * j), static_cast<int32_t>(day + 1u)};
}

// CivilDateTime of a count of 1/kPerSecond seconds since 0001-01-01T00:00:00 (t >= 0 and
// t < (kMaxCivilDays - kMinCivilDays + 1) days). kPerSecond is 1000 (ms) or 1000000 (µs).
// For ms the time of day (< 86400000) is split in 32-bit arithmetic.
template <uint64_t kPerSecond>
constexpr CivilDateTime CivilFromCountSinceYear1(uint64_t t) {
  constexpr uint64_t kPerDay = kPerSecond * 86'400u;
  using OfDay = std::conditional_t<(kPerDay <= UINT32_MAX), uint32_t, uint64_t>;
  const uint64_t days = t / kPerDay;
  const OfDay of_day = static_cast<OfDay>(t - days * kPerDay);
  const uint32_t second_of_day = static_cast<uint32_t>(of_day / kPerSecond);  // < 86400
  const CivilDay ymd =
      CivilFromDays(static_cast<int32_t>(days) + static_cast<int32_t>(kMinCivilDays));
  const uint32_t hour = second_of_day / 3600u;
  const uint32_t second_of_hour = second_of_day - 3600u * hour;
  const uint32_t minute = second_of_hour / 60u;
  CivilDateTime c;
  c.year = ymd.year;
  c.month = ymd.month;
  c.day = ymd.day;
  c.hour = static_cast<int32_t>(hour);
  c.minute = static_cast<int32_t>(minute);
  c.second = static_cast<int32_t>(second_of_hour - 60u * minute);
  c.microsecond =
      static_cast<int32_t>(static_cast<uint32_t>(of_day - OfDay{second_of_day} * kPerSecond) *
                           static_cast<uint32_t>(1'000'000u / kPerSecond));
  return c;
}

// ms since the epoch -> CivilDateTime. Exact. Precondition: kMinUnixMillis <= ms <=
// kMaxUnixMillis. 0 -> 1970-01-01T00:00:00.000000; -1 -> 1969-12-31T23:59:59.999000.
constexpr CivilDateTime FromUnixMillis(int64_t ms) {
  return CivilFromCountSinceYear1<1000>(static_cast<uint64_t>(ms) -
                                        static_cast<uint64_t>(kMinUnixMillis));
}

// µs since the epoch -> CivilDateTime. Exact. Precondition: kMinUnixMicros <= us <=
// kMaxUnixMicros.
constexpr CivilDateTime FromUnixMicros(int64_t us) {
  return CivilFromCountSinceYear1<1'000'000>(static_cast<uint64_t>(us) -
                                             static_cast<uint64_t>(kMinUnixMicros));
}

// Seconds since the epoch of c, ignoring c.microsecond. Precondition: IsValid(c).
// |result| < 2^38.
constexpr int64_t UnixSeconds(const CivilDateTime& c) {
  const int64_t days = DaysFromCivil(static_cast<uint32_t>(c.year), static_cast<uint32_t>(c.month),
                                     static_cast<uint32_t>(c.day));
  return days * 86'400 + (int64_t{c.hour} * 3600 + c.minute * 60 + c.second);
}

// µs since the epoch of c. Exact. Precondition: IsValid(c).
constexpr int64_t ToUnixMicros(const CivilDateTime& c) {
  return UnixSeconds(c) * 1'000'000 + c.microsecond;
}

// ms since the epoch of c, rounded toward negative infinity (µs -> ms). Precondition:
// IsValid(c). Since 0 <= microsecond < 10^6, floor((s * 10^6 + us) / 1000) is
// s * 1000 + us / 1000 for every sign of s: 1969-12-31T23:59:59.999500 -> -1.
constexpr int64_t ToUnixMillisFloor(const CivilDateTime& c) {
  const int64_t days = DaysFromCivil(static_cast<uint32_t>(c.year), static_cast<uint32_t>(c.month),
                                     static_cast<uint32_t>(c.day));
  // The time of day in ms (< 86400000) in 32 bits, independent of the day count's chain.
  const uint32_t ms_of_day =
      static_cast<uint32_t>(c.hour) * 3'600'000u + static_cast<uint32_t>(c.minute) * 60'000u +
      static_cast<uint32_t>(c.second) * 1000u + static_cast<uint32_t>(c.microsecond) / 1000u;
  return days * kMillisPerDay + ms_of_day;
}

}  // namespace serdiff::timestamp::fast
