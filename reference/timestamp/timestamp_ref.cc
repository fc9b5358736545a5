#include "reference/timestamp/timestamp_ref.h"

#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <string>

#include "absl/status/status.h"
#include "absl/strings/str_cat.h"

namespace serdiff::ref::timestamp {
namespace {

__extension__ typedef __int128 Int128;  // exact intermediate arithmetic, reference only

absl::Status Invalid(const char* what, int64_t value) {
  return absl::InvalidArgumentError(absl::StrCat("invalid ", what, ": ", value));
}

// ---- slow validation ------------------------------------------------------------------------

absl::Status ValidateDate(int64_t year, int month, int day) {
  if (month < 1 || month > 12) return Invalid("month", month);
  if (day < 1 || day > DaysInMonth(year, month)) return Invalid("day", day);
  return absl::OkStatus();
}

absl::Status Validate(const CivilDateTime& c) {
  if (c.year < 1 || c.year > 9999) return Invalid("year", c.year);
  if (auto s = ValidateDate(c.year, c.month, c.day); !s.ok()) return s;
  if (c.hour < 0 || c.hour > 23) return Invalid("hour", c.hour);
  if (c.minute < 0 || c.minute > 59) return Invalid("minute", c.minute);
  if (c.second < 0 || c.second > 59) return Invalid("second", c.second);
  if (c.microsecond < 0 || c.microsecond > 999999) return Invalid("microsecond", c.microsecond);
  return absl::OkStatus();
}

int64_t DaysInYear(int64_t year) { return IsLeapYear(year) ? 366 : 365; }

// A Gregorian 400-year cycle: 97 leap years, so 400 * 365 + 97 days (also counted in a test).
constexpr int64_t kDaysPer400Years = 146097;

int64_t MicrosOfValid(const CivilDateTime& c) {
  const int64_t days = *DaysFromCivil(CivilDay{c.year, c.month, c.day});
  const int64_t seconds = ((days * 24 + c.hour) * 60 + c.minute) * 60 + c.second;
  return seconds * 1000000 + c.microsecond;
}

int64_t MinMicros() {
  static const int64_t v = MicrosOfValid(CivilDateTime{1, 1, 1, 0, 0, 0, 0});
  return v;
}
int64_t MaxMicros() {
  static const int64_t v = MicrosOfValid(CivilDateTime{9999, 12, 31, 23, 59, 59, 999999});
  return v;
}

absl::StatusOr<uint32_t> RawFromDays(int64_t days) {
  if (days < -2147483648LL || days > 2147483647LL) {
    return absl::OutOfRangeError(absl::StrCat("day count ", days, " outside the CQL date range"));
  }
  // 2^31 + days, written so that no step leaves 0..2^32-1.
  return days >= 0 ? 2147483648u + static_cast<uint32_t>(days)
                   : 2147483648u - static_cast<uint32_t>(-days);
}

}  // namespace

// ---- slow -----------------------------------------------------------------------------------

bool IsLeapYear(int64_t year) {
  if (year % 400 == 0) return true;
  if (year % 100 == 0) return false;
  return year % 4 == 0;
}

int DaysInMonth(int64_t year, int month) {
  switch (month) {
    case 1:
    case 3:
    case 5:
    case 7:
    case 8:
    case 10:
    case 12:
      return 31;
    case 4:
    case 6:
    case 9:
    case 11:
      return 30;
    case 2:
      return IsLeapYear(year) ? 29 : 28;
    default:
      return 0;
  }
}

absl::StatusOr<int64_t> DaysFromCivil(const CivilDay& d) {
  if (auto s = ValidateDate(d.year, d.month, d.day); !s.ok()) return s;
  // Count from 1970-01-01: whole 400-year cycles, then year by year, then month by month.
  int64_t days = 0;
  int64_t y = 1970;
  const int64_t cycles = (d.year - y) / 400;  // toward zero; the year loops do the rest
  days += cycles * kDaysPer400Years;
  y += cycles * 400;
  while (y < d.year) days += DaysInYear(y++);
  while (y > d.year) days -= DaysInYear(--y);
  for (int m = 1; m < d.month; ++m) days += DaysInMonth(d.year, m);
  return days + (d.day - 1);
}

CivilDay CivilFromDays(int64_t days) {
  int64_t y = 1970;
  int64_t rem = days;  // days after y-01-01
  y += 400 * (rem / kDaysPer400Years);
  rem %= kDaysPer400Years;
  while (rem < 0) rem += DaysInYear(--y);
  while (rem >= DaysInYear(y)) rem -= DaysInYear(y++);
  int m = 1;
  while (rem >= DaysInMonth(y, m)) rem -= DaysInMonth(y, m++);
  return CivilDay{static_cast<int32_t>(y), m, static_cast<int32_t>(rem + 1)};
}

int64_t DivideRounded(int64_t n, int64_t d, Rounding r) {
  const Int128 big_n = n;
  const Int128 big_d = d;
  Int128 lo = big_n / big_d;  // the largest multiple of d not above n is lo * d
  if (lo * big_d > big_n) lo -= 1;
  const Int128 hi = lo * big_d == big_n ? lo : lo + 1;  // the smallest not below n
  Int128 out = lo;
  switch (r) {
    case Rounding::kFloor:
      out = lo;
      break;
    case Rounding::kTruncate:
      out = big_n >= 0 ? lo : hi;
      break;
    case Rounding::kHalfEven: {
      const Int128 below = big_n - lo * big_d;
      const Int128 above = hi * big_d - big_n;
      if (below < above) {
        out = lo;
      } else if (above < below) {
        out = hi;
      } else {
        out = (lo % 2 == 0) ? lo : hi;
      }
      break;
    }
  }
  return static_cast<int64_t>(out);
}

absl::StatusOr<int64_t> ToUnixMicros(const CivilDateTime& c) {
  if (auto s = Validate(c); !s.ok()) return s;
  return MicrosOfValid(c);
}

absl::StatusOr<int64_t> ToUnixMillis(const CivilDateTime& c, Rounding r) {
  absl::StatusOr<int64_t> us = ToUnixMicros(c);
  if (!us.ok()) return us.status();
  return DivideRounded(*us, 1000, r);
}

absl::StatusOr<CivilDateTime> FromUnixMicros(int64_t us) {
  if (us < MinMicros() || us > MaxMicros()) {
    return absl::OutOfRangeError(absl::StrCat("µs ", us, " outside year 1..9999"));
  }
  constexpr int64_t kMicrosPerDay = 86400LL * 1000000;
  const int64_t days = DivideRounded(us, kMicrosPerDay, Rounding::kFloor);
  int64_t rem = us - days * kMicrosPerDay;  // 0 <= rem < one day
  const CivilDay d = CivilFromDays(days);
  CivilDateTime c{d.year, d.month, d.day, 0, 0, 0, 0};
  c.hour = static_cast<int32_t>(rem / 3600000000LL);
  rem -= c.hour * 3600000000LL;
  c.minute = static_cast<int32_t>(rem / 60000000LL);
  rem -= c.minute * 60000000LL;
  c.second = static_cast<int32_t>(rem / 1000000LL);
  rem -= c.second * 1000000LL;
  c.microsecond = static_cast<int32_t>(rem);
  return c;
}

absl::StatusOr<CivilDateTime> FromUnixMillis(int64_t ms) {
  if (ms < MinMicros() / 1000 || ms > MaxMicros() / 1000) {
    return absl::OutOfRangeError(absl::StrCat("ms ", ms, " outside year 1..9999"));
  }
  return FromUnixMicros(ms * 1000);
}

int64_t MicrosToMillis(int64_t us, Rounding r) { return DivideRounded(us, 1000, r); }

double UnixSecondsFromMicros(int64_t us) {
  const unsigned long long mag =
      us < 0 ? 0ULL - static_cast<unsigned long long>(us) : static_cast<unsigned long long>(us);
  char buf[64];
  std::snprintf(buf, sizeof buf, "%s%llu.%06llu", us < 0 ? "-" : "", mag / 1000000, mag % 1000000);
  return std::strtod(buf, nullptr);  // glibc strtod is correctly rounded (nearest, ties even)
}

absl::StatusOr<double> ToUnixSeconds(const CivilDateTime& c) {
  absl::StatusOr<int64_t> us = ToUnixMicros(c);
  if (!us.ok()) return us.status();
  return UnixSecondsFromMicros(*us);
}

absl::StatusOr<int64_t> UnixMicrosFromSeconds(double s, Rounding r) {
  if (std::isnan(s)) return absl::InvalidArgumentError("NaN");
  if (std::isinf(s)) return absl::InvalidArgumentError("infinity");
  const bool negative = std::signbit(s);
  // Exact decimal expansion: a double has at most 1074 fraction digits.
  static thread_local char buf[1600];
  std::snprintf(buf, sizeof buf, "%.1100f", std::fabs(s));
  const std::string text = buf;
  const size_t dot = text.find('.');
  const std::string int_digits = text.substr(0, dot);
  const std::string frac = text.substr(dot + 1);
  std::string digits = int_digits + frac.substr(0, 6);  // |s| * 10^6, truncated
  const std::string rest = frac.substr(6);
  const bool rest_nonzero = rest.find_first_not_of('0') != std::string::npos;
  // rest compared with one half: "5000..."
  int vs_half = -1;
  if (rest[0] > '5') {
    vs_half = 1;
  } else if (rest[0] == '5') {
    vs_half = rest.find_first_not_of('0', 1) != std::string::npos ? 1 : 0;
  }
  bool add_one = false;
  switch (r) {
    case Rounding::kFloor:
      add_one = negative && rest_nonzero;
      break;
    case Rounding::kTruncate:
      add_one = false;
      break;
    case Rounding::kHalfEven:
      add_one = vs_half > 0 || (vs_half == 0 && (digits.back() - '0') % 2 == 1);
      break;
  }
  if (add_one) {  // decimal increment
    size_t i = digits.size();
    while (i > 0 && digits[i - 1] == '9') digits[--i] = '0';
    if (i == 0) {
      digits.insert(digits.begin(), '1');
    } else {
      ++digits[i - 1];
    }
  }
  const size_t first = digits.find_first_not_of('0');
  digits = first == std::string::npos ? "0" : digits.substr(first);
  const std::string limit = negative ? "9223372036854775808" : "9223372036854775807";
  if (digits.size() > limit.size() || (digits.size() == limit.size() && digits > limit)) {
    return absl::OutOfRangeError("microseconds do not fit int64");
  }
  const unsigned long long mag = std::strtoull(digits.c_str(), nullptr, 10);
  return negative ? static_cast<int64_t>(0ULL - mag) : static_cast<int64_t>(mag);
}

absl::StatusOr<uint32_t> CqlDateFromDays(int64_t days) { return RawFromDays(days); }

int64_t DaysFromCqlDate(uint32_t raw) { return static_cast<int64_t>(raw) - 2147483648LL; }

absl::StatusOr<uint32_t> CqlDateFromCivil(const CivilDay& d) {
  absl::StatusOr<int64_t> days = DaysFromCivil(d);
  if (!days.ok()) return days.status();
  return RawFromDays(*days);
}

CivilDay CivilFromCqlDate(uint32_t raw) { return CivilFromDays(DaysFromCqlDate(raw)); }

absl::StatusOr<uint32_t> CqlDateFromUnixMillis(int64_t ms, Rounding r) {
  return RawFromDays(DivideRounded(ms, 86400000, r));
}

absl::StatusOr<int64_t> CqlTimeFromTimeOfDay(const TimeOfDay& t) {
  if (t.hour < 0 || t.hour > 23) return Invalid("hour", t.hour);
  if (t.minute < 0 || t.minute > 59) return Invalid("minute", t.minute);
  if (t.second < 0 || t.second > 59) return Invalid("second", t.second);
  if (t.nanosecond < 0 || t.nanosecond > 999999999) return Invalid("nanosecond", t.nanosecond);
  return ((int64_t{t.hour} * 60 + t.minute) * 60 + t.second) * 1000000000LL + t.nanosecond;
}

absl::StatusOr<TimeOfDay> TimeOfDayFromCqlTime(int64_t ns) {
  if (ns < 0 || ns >= 86400LL * 1000000000LL) {
    return absl::OutOfRangeError(absl::StrCat("CQL time ", ns, " outside 0..86399999999999"));
  }
  TimeOfDay t;
  int64_t rem = ns;
  while (rem >= 3600LL * 1000000000LL) rem -= 3600LL * 1000000000LL, ++t.hour;
  while (rem >= 60LL * 1000000000LL) rem -= 60LL * 1000000000LL, ++t.minute;
  while (rem >= 1000000000LL) rem -= 1000000000LL, ++t.second;
  t.nanosecond = static_cast<int32_t>(rem);
  return t;
}

absl::StatusOr<int64_t> CqlTimeFromCivil(const CivilDateTime& c) {
  if (auto s = Validate(c); !s.ok()) return s;
  return CqlTimeFromTimeOfDay(TimeOfDay{c.hour, c.minute, c.second, c.microsecond * 1000});
}

absl::StatusOr<int64_t> MicrosOfDayFromCqlTime(int64_t ns, Rounding r) {
  if (ns < 0 || ns >= 86400LL * 1000000000LL) {
    return absl::OutOfRangeError(absl::StrCat("CQL time ", ns, " outside 0..86399999999999"));
  }
  const int64_t us = DivideRounded(ns, 1000, r);
  if (us == 86400LL * 1000000LL) return absl::OutOfRangeError("rounds to 24:00:00");
  return us;
}

}  // namespace serdiff::ref::timestamp
