// Abseil's civil-time library as a timestamp oracle (oracles/abseil/README.md).
#include "oracles/abseil/time.h"

#include <string>

#include "absl/status/status.h"
#include "absl/strings/str_cat.h"
#include "absl/time/civil_time.h"
#include "absl/time/time.h"

namespace serdiff::oracle::abseil {
namespace {

absl::Status Invalid(const char* what, int64_t value) {
  return absl::InvalidArgumentError(absl::StrCat("invalid ", what, ": ", value));
}

// Valid iff Abseil's normalizing constructor returns the same fields.
absl::Status Validate(const CivilDateTime& c) {
  const absl::CivilSecond cs(c.year, c.month, c.day, c.hour, c.minute, c.second);
  if (cs.year() != c.year || cs.month() != c.month || cs.day() != c.day || cs.hour() != c.hour ||
      cs.minute() != c.minute || cs.second() != c.second) {
    return absl::InvalidArgumentError("absl::CivilSecond normalized the fields: invalid");
  }
  if (c.year < 1 || c.year > 9999) return Invalid("year", c.year);
  if (c.microsecond < 0 || c.microsecond > 999999) return Invalid("microsecond", c.microsecond);
  return absl::OkStatus();
}

absl::Time Instant(const CivilDateTime& c) {
  const absl::CivilSecond cs(c.year, c.month, c.day, c.hour, c.minute, c.second);
  return absl::FromCivil(cs, absl::UTCTimeZone()) + absl::Microseconds(c.microsecond);
}

absl::StatusOr<CivilDateTime> CivilOf(absl::Time t) {
  const absl::TimeZone utc = absl::UTCTimeZone();
  const absl::CivilSecond cs = absl::ToCivilSecond(t, utc);
  if (cs.year() < 1 || cs.year() > 9999) {
    return absl::OutOfRangeError(absl::StrCat("year ", cs.year(), " is outside 1..9999"));
  }
  const int64_t us = absl::ToInt64Microseconds(t - absl::FromCivil(cs, utc));
  return CivilDateTime{
      static_cast<int32_t>(cs.year()), cs.month(), cs.day(), cs.hour(), cs.minute(), cs.second(),
      static_cast<int32_t>(us)};
}

// CQL date raw value (days + 2^31, v4 spec 6.5) of a day count from Abseil's CivilDay
// difference; OutOfRange outside the int32 day range. Its own constant, not the optimized
// side's: an oracle shares nothing with what it checks but the value types.
absl::StatusOr<uint32_t> RawFromDays(int64_t days) {
  constexpr int64_t kBias = int64_t{1} << 31;
  if (days < -kBias || days >= kBias) {
    return absl::OutOfRangeError(absl::StrCat("day count ", days, " outside the CQL date range"));
  }
  return static_cast<uint32_t>(days + kBias);
}

}  // namespace

absl::StatusOr<int64_t> ToUnixMillisFloor(const CivilDateTime& c) {
  if (auto s = Validate(c); !s.ok()) return s;
  return absl::ToUnixMillis(Instant(c));  // rounds toward negative infinity
}

absl::StatusOr<int64_t> ToUnixMicros(const CivilDateTime& c) {
  if (auto s = Validate(c); !s.ok()) return s;
  return absl::ToUnixMicros(Instant(c));
}

absl::StatusOr<CivilDateTime> FromUnixMillis(int64_t ms) {
  return CivilOf(absl::FromUnixMillis(ms));
}

absl::StatusOr<CivilDateTime> FromUnixMicros(int64_t us) {
  return CivilOf(absl::FromUnixMicros(us));
}

absl::StatusOr<int64_t> DaysFromCivil(const CivilDay& d) {
  const absl::CivilDay cd(d.year, d.month, d.day);
  if (cd.year() != d.year || cd.month() != d.month || cd.day() != d.day) {
    return absl::InvalidArgumentError("absl::CivilDay normalized the fields: invalid date");
  }
  return cd - absl::CivilDay(1970, 1, 1);
}

CivilDay CivilFromDays(int64_t days) {
  const absl::CivilDay cd = absl::CivilDay(1970, 1, 1) + days;
  return CivilDay{static_cast<int32_t>(cd.year()), cd.month(), cd.day()};
}

absl::StatusOr<uint32_t> CqlDateFromCivil(const CivilDay& d) {
  absl::StatusOr<int64_t> days = DaysFromCivil(d);
  if (!days.ok()) return days.status();
  return RawFromDays(*days);
}

CivilDay CivilFromCqlDate(uint32_t raw) {
  return CivilFromDays(static_cast<int64_t>(raw) - 2147483648LL);
}

absl::StatusOr<uint32_t> CqlDateFromUnixMillisFloor(int64_t ms) {
  const absl::CivilDay day = absl::ToCivilDay(absl::FromUnixMillis(ms), absl::UTCTimeZone());
  return RawFromDays(day - absl::CivilDay(1970, 1, 1));
}

std::string FormatDecimal(int64_t v) { return absl::StrCat(v); }
std::string FormatDecimal(uint64_t v) { return absl::StrCat(v); }

}  // namespace serdiff::oracle::abseil
