// serdiff::timestamp value model: the rounding rules, the civil value types and the range
// constants, plain data with no functions, shared by the optimized conversions
// (serdiff/timestamp/timestamp.h, which documents them), the reference (reference/timestamp/),
// the Abseil oracle (oracles/abseil/) and the targets, so that no layer needs converters.
// Calendar: proleptic Gregorian, UTC, no leap seconds (docs/timestamp.md).
#pragma once

#include <cstdint>

namespace serdiff::timestamp {

// ---- rounding -----------------------------------------------------------------------------

enum class Rounding : uint8_t {
  kFloor = 0,     // toward negative infinity (default): -0.5 -> -1, 0.5 -> 0
  kTruncate = 1,  // toward zero (C integer division, python int(float)): -0.5 -> 0, 0.5 -> 0
  kHalfEven = 2,  // to nearest, ties to the even neighbour (python round()): -0.5 -> 0,
                  // 0.5 -> 0, 1.5 -> 2, -1.5 -> -2
};
inline constexpr Rounding kAllRoundings[] = {Rounding::kFloor, Rounding::kTruncate,
                                             Rounding::kHalfEven};

// ---- value types --------------------------------------------------------------------------

// A calendar date. Fields are plain ints so that invalid dates (month 13) can be expressed and
// rejected; the conversions validate.
struct CivilDay {
  int32_t year = 1970;
  int32_t month = 1;  // 1..12
  int32_t day = 1;    // 1..DaysInMonth(year, month)
  friend bool operator==(const CivilDay&, const CivilDay&) = default;
};

// A UTC datetime with microsecond precision, year 1..9999.
struct CivilDateTime {
  int32_t year = 1970;      // 1..9999
  int32_t month = 1;        // 1..12
  int32_t day = 1;          // 1..DaysInMonth(year, month)
  int32_t hour = 0;         // 0..23
  int32_t minute = 0;       // 0..59
  int32_t second = 0;       // 0..59 (no leap seconds)
  int32_t microsecond = 0;  // 0..999999
  friend bool operator==(const CivilDateTime&, const CivilDateTime&) = default;
};

// A time of day with nanosecond precision (the CQL `time` type).
struct TimeOfDay {
  int32_t hour = 0;        // 0..23
  int32_t minute = 0;      // 0..59
  int32_t second = 0;      // 0..59
  int32_t nanosecond = 0;  // 0..999999999
  friend bool operator==(const TimeOfDay&, const TimeOfDay&) = default;
};

// ---- constants ----------------------------------------------------------------------------

inline constexpr int32_t kMinYear = 1;
inline constexpr int32_t kMaxYear = 9999;
inline constexpr int64_t kMillisPerDay = 86'400'000;
inline constexpr int64_t kMicrosPerDay = 86'400'000'000;
inline constexpr int64_t kNanosPerDay = 86'400'000'000'000;
// 0001-01-01T00:00:00 and 9999-12-31T23:59:59.999(999).
inline constexpr int64_t kMinUnixMillis = -62'135'596'800'000;
inline constexpr int64_t kMaxUnixMillis = 253'402'300'799'999;
inline constexpr int64_t kMinUnixMicros = kMinUnixMillis * 1000;
inline constexpr int64_t kMaxUnixMicros = kMaxUnixMillis * 1000 + 999;
// Day numbers (days since 1970-01-01) of 0001-01-01 and 9999-12-31.
inline constexpr int64_t kMinCivilDays = -719'162;
inline constexpr int64_t kMaxCivilDays = 2'932'896;
// CQL date: raw = days + 2^31, raw is uint32, so days is -2^31..2^31-1.
inline constexpr int64_t kCqlDateEpochRaw = int64_t{1} << 31;
inline constexpr int64_t kMinCqlDateDays = -(int64_t{1} << 31);
inline constexpr int64_t kMaxCqlDateDays = (int64_t{1} << 31) - 1;
// CQL time: 0..86399999999999 ns.
inline constexpr int64_t kMaxCqlTimeNanos = kNanosPerDay - 1;

}  // namespace serdiff::timestamp
