// Domains of the timestamp family: the civil datetime, day (CQL date) and time-of-day (CQL
// time) domains, their generators, corpus forms (one two-way visitor each), printers and their
// parsers (declared, with the edge-bias rules, in targets/timestamp/domain.h). The output
// forms (texts and bytes) are in domain_outputs.cc, the integer and double seconds domains in
// domain_scalar.cc.
#include "targets/timestamp/domain.h"

#include <algorithm>
#include <cstdint>
#include <initializer_list>
#include <limits>
#include <string>
#include <string_view>
#include <tuple>
#include <utility>
#include <vector>

#include "absl/strings/str_format.h"
#include "harness/domains.h"
#include "harness/edges.h"
#include "harness/text_parse.h"
#include "harness/two_way.h"
#include "harness/uniform.h"

namespace serdiff::targets::timestamp {

namespace {

bool In(int32_t v, const int32_t (&r)[2]) { return v >= r[0] && v <= r[1]; }

bool CivilIsCompact(const ts::CivilDateTime& c) {
  using R = CivilRanges;
  return In(c.year, R::kYear) && In(c.month, R::kMonth) && In(c.day, R::kDay) &&
         In(c.hour, R::kHour) && In(c.minute, R::kMinute) && In(c.second, R::kSecond) &&
         In(c.microsecond, R::kMicro);
}

}  // namespace

// Corpus form: a flag, then the seven fields, each either in its compact range (flag false)
// or as any int32 (flag true: some field is outside its compact range).
template <typename IO>
void VisitCivil(IO& io, ts::CivilDateTime& c) {
  using R = CivilRanges;
  bool wide = IO::kReading ? false : !CivilIsCompact(c);
  io.Bool(wide);
  const std::pair<int32_t*, const int32_t*> fields[] = {
      {&c.year, R::kYear},        {&c.month, R::kMonth},   {&c.day, R::kDay},
      {&c.hour, R::kHour},        {&c.minute, R::kMinute}, {&c.second, R::kSecond},
      {&c.microsecond, R::kMicro}};
  for (const auto& [field, range] : fields) {
    if (wide) {
      io.Int(*field);
    } else {
      io.Int(*field, range[0], range[1]);
    }
  }
}

std::vector<int64_t> InRangeEdgeMicros() {
  std::vector<int64_t> v;
  for (int64_t us : EdgeMicros()) {
    if (us >= RefMinMillis() * 1000 && us <= RefMaxMillis() * 1000 + 999) v.push_back(us);
  }
  return v;
}

ts::CivilDateTime CivilOfMicros(int64_t us) {
  return (*oab::FromUnixMicros(us));  // reference conversion, never the optimized
}

rc::Gen<int32_t> EdgeBiasedMicrosecond() {
  return rc::gen::weightedOneOf<int32_t>({
      {3, rc::gen::map(
              rc::gen::pair(harness::UniformIn<int32_t>(0, 1000),
                            rc::gen::elementOf(std::vector<int32_t>{-1, 0, 1, 499, 500, 501, 999})),
              [](const std::pair<int32_t, int32_t>& p) {
                return std::clamp(p.first * 1000 + p.second, 0, 999999);
              })},
      {1, rc::gen::elementOf(std::vector<int32_t>{0, 1, 499, 500, 501, 999, 1000, 999000, 999499,
                                                  999500, 999501, 999999})},
      {2, harness::UniformIn<int32_t>(0, 1000000)},
  });
}

rc::Gen<ts::CivilDateTime> ValidCivilGen() {
  return rc::gen::map(
      rc::gen::tuple(harness::UniformIn<int32_t>(1, 10000), harness::UniformIn<int32_t>(1, 13),
                     harness::UniformIn<int32_t>(1, 32), harness::UniformIn<int32_t>(0, 24),
                     harness::UniformIn<int32_t>(0, 60), harness::UniformIn<int32_t>(0, 60),
                     EdgeBiasedMicrosecond()),
      [](const std::tuple<int32_t, int32_t, int32_t, int32_t, int32_t, int32_t, int32_t>& t) {
        ts::CivilDateTime c{std::get<0>(t), std::get<1>(t), std::get<2>(t), std::get<3>(t),
                            std::get<4>(t), std::get<5>(t), std::get<6>(t)};
        c.day = std::min(c.day, rts::DaysInMonth(c.year, c.month));
        return c;
      });
}

rc::Gen<ts::CivilDateTime> LeapDayCivilGen() {
  const std::vector<int32_t> years = {1,    4,    100,  400,  1600, 1700, 1800, 1900, 1969,
                                      1970, 2000, 2004, 2038, 2100, 2400, 9996, 9999};
  const std::vector<std::pair<int32_t, int32_t>> dates = {{2, 28},  {2, 29}, {3, 1},
                                                          {12, 31}, {1, 1},  {2, 30}};
  const std::vector<std::tuple<int32_t, int32_t, int32_t, int32_t>> times = {
      {0, 0, 0, 0},         {0, 0, 0, 1},         {0, 0, 0, 500},       {0, 0, 0, 999},
      {23, 59, 59, 999999}, {23, 59, 59, 999500}, {23, 59, 59, 999000}, {23, 59, 59, 1},
      {12, 0, 0, 500},      {12, 0, 0, 1500},
  };
  return rc::gen::map(rc::gen::tuple(rc::gen::elementOf(years), rc::gen::elementOf(dates),
                                     rc::gen::elementOf(times)),
                      [](const std::tuple<int32_t, std::pair<int32_t, int32_t>,
                                          std::tuple<int32_t, int32_t, int32_t, int32_t>>& t) {
                        const auto& [y, md, hms] = t;
                        return ts::CivilDateTime{y,
                                                 md.first,
                                                 md.second,
                                                 std::get<0>(hms),
                                                 std::get<1>(hms),
                                                 std::get<2>(hms),
                                                 std::get<3>(hms)};
                      });
}

rc::Gen<ts::CivilDateTime> InvalidCivilGen() {
  constexpr int32_t kMin = std::numeric_limits<int32_t>::min();
  constexpr int32_t kMax = std::numeric_limits<int32_t>::max();
  return rc::gen::map(
      rc::gen::tuple(ValidCivilGen(), harness::UniformIn<int>(0, 7),
                     rc::gen::elementOf(std::vector<int32_t>{-1, 0, 13, 24, 29, 30, 32, 60, 61,
                                                             10000, 1000000, kMin, kMax})),
      [](const std::tuple<ts::CivilDateTime, int, int32_t>& t) {
        ts::CivilDateTime c = std::get<0>(t);
        const int32_t bad = std::get<2>(t);
        switch (std::get<1>(t)) {
          case 0:
            c.year = bad;
            break;
          case 1:
            c.month = bad;
            break;
          case 2:
            c.day = bad;
            break;
          case 3:
            c.hour = bad;
            break;
          case 4:
            c.minute = bad;
            break;
          case 5:
            c.second = bad;
            break;
          default:
            c.microsecond = bad;
            break;
        }
        return c;
      });
}

rc::Gen<ts::CivilDateTime> CivilGen() {
  const std::vector<int64_t> edges = InRangeEdgeMicros();
  const int64_t lo = RefMinMillis() * 1000;
  const int64_t hi = RefMaxMillis() * 1000 + 999;
  return rc::gen::weightedOneOf<ts::CivilDateTime>({
      {5, rc::gen::map(rc::gen::elementOf(edges), CivilOfMicros)},
      {3, ValidCivilGen()},
      {2, rc::gen::map(harness::UniformIn<int64_t>(lo, hi + 1), CivilOfMicros)},
      {2, LeapDayCivilGen()},
      {2, InvalidCivilGen()},
  });
}

std::string ShowCivil(const ts::CivilDateTime& c) {
  return absl::StrFormat("%s {year %d, month %d, day %d, %d:%d:%d, µs %d}", CivilText(c), c.year,
                         c.month, c.day, c.hour, c.minute, c.second, c.microsecond);
}

namespace {

// The fields of DayText / CivilText / TimeText, in order, each a decimal int32 (a field out
// of its range prints with its sign: month -1 is "1970--1-01", year -1 is "-0001"), separated
// by the given punctuation.
absl::Status ParseFields(harness::TextCursor& c, std::initializer_list<int32_t*> fields,
                         std::initializer_list<std::string_view> separators) {
  auto sep = separators.begin();
  for (int32_t* f : fields) {
    if (f != *fields.begin()) {
      if (absl::Status s = c.Expect(*sep++); !s.ok()) return s;
    }
    if (absl::Status s = c.Int(*f); !s.ok()) return s;
  }
  return absl::OkStatus();
}

}  // namespace

absl::StatusOr<ts::CivilDateTime> ParseCivil(std::string_view text) {
  return harness::ParseAll<ts::CivilDateTime>(
      text, [](harness::TextCursor& c, ts::CivilDateTime& v) -> absl::Status {
        const size_t start = c.pos();
        absl::Status s = ParseFields(
            c, {&v.year, &v.month, &v.day, &v.hour, &v.minute, &v.second, &v.microsecond},
            {"-", "-", "T", ":", ":", "."});
        if (s.ok()) s = harness::ReadAsPrinted(c, start, CivilText(v));
        if (!s.ok()) return s;
        return harness::AtEndOrShownAs(c, ShowCivil(v));
      });
}

harness::Domain<ts::CivilDateTime> CivilDomain() {
  return harness::TwoWayDomain<ts::CivilDateTime>(
      "CivilDateTime", CivilGen(), [](auto& io, ts::CivilDateTime& v) { VisitCivil(io, v); },
      ShowCivil, ParseCivil);
}

// Corpus form: a flag, then year, month, day in their compact ranges or as any int32.
template <typename IO>
void VisitDay(IO& io, ts::CivilDay& d) {
  using R = DayRanges;
  bool wide = IO::kReading
                  ? false
                  : !(In(d.year, R::kYear) && In(d.month, R::kMonth) && In(d.day, R::kDay));
  io.Bool(wide);
  const std::pair<int32_t*, const int32_t*> fields[] = {
      {&d.year, R::kYear}, {&d.month, R::kMonth}, {&d.day, R::kDay}};
  for (const auto& [field, range] : fields) {
    if (wide) {
      io.Int(*field);
    } else {
      io.Int(*field, range[0], range[1]);
    }
  }
}

rc::Gen<ts::CivilDay> DayGen() {
  auto of_days = [](int64_t days) { return (oab::CivilFromDays(days)); };
  std::vector<int64_t> edges;
  for (int64_t days : EdgeDays()) {
    if (days >= -(int64_t{1} << 31) - 2 && days <= (int64_t{1} << 31) + 1) edges.push_back(days);
  }
  const std::vector<int32_t> leap_years = {-400, -100, -4, -1, 0, 1, 1900, 2000, 2100, 2400};
  const std::vector<std::pair<int32_t, int32_t>> md = {{2, 28}, {2, 29}, {3, 1}, {2, 30}};
  constexpr int32_t kMin = std::numeric_limits<int32_t>::min();
  constexpr int32_t kMax = std::numeric_limits<int32_t>::max();
  return rc::gen::weightedOneOf<ts::CivilDay>({
      {5, rc::gen::map(rc::gen::elementOf(edges), of_days)},
      {3,
       rc::gen::map(harness::UniformIn<int64_t>(-(int64_t{1} << 31), int64_t{1} << 31), of_days)},
      {2, rc::gen::map(rc::gen::pair(rc::gen::elementOf(leap_years), rc::gen::elementOf(md)),
                       [](const std::pair<int32_t, std::pair<int32_t, int32_t>>& p) {
                         return ts::CivilDay{p.first, p.second.first, p.second.second};
                       })},
      {2,
       rc::gen::map(
           rc::gen::tuple(rc::gen::elementOf(std::vector<int32_t>{
                              -5877641, -5877642, 5881580, 5881581, 1, 9999, kMin, kMax}),
                          harness::UniformIn<int32_t>(-1, 14), harness::UniformIn<int32_t>(-1, 33)),
           [](const std::tuple<int32_t, int32_t, int32_t>& t) {
             return ts::CivilDay{std::get<0>(t), std::get<1>(t), std::get<2>(t)};
           })},
  });
}

std::string ShowDay(const ts::CivilDay& v) {
  return absl::StrFormat("%s {year %d, month %d, day %d}", DayText(v), v.year, v.month, v.day);
}

absl::StatusOr<ts::CivilDay> ParseDay(std::string_view text) {
  return harness::ParseAll<ts::CivilDay>(
      text, [](harness::TextCursor& c, ts::CivilDay& v) -> absl::Status {
        const size_t start = c.pos();
        absl::Status s = ParseFields(c, {&v.year, &v.month, &v.day}, {"-", "-"});
        if (s.ok()) s = harness::ReadAsPrinted(c, start, DayText(v));
        if (!s.ok()) return s;
        return harness::AtEndOrShownAs(c, ShowDay(v));
      });
}

harness::Domain<ts::CivilDay> DayDomain() {
  return harness::TwoWayDomain<ts::CivilDay>(
      "CivilDay", DayGen(), [](auto& io, ts::CivilDay& v) { VisitDay(io, v); }, ShowDay, ParseDay);
}

// Corpus form: a flag, then hour, minute, second, nanosecond in their compact ranges or as
// any int32.
template <typename IO>
void VisitTime(IO& io, ts::TimeOfDay& t) {
  using R = TimeRanges;
  bool wide = IO::kReading ? false
                           : !(In(t.hour, R::kHour) && In(t.minute, R::kMinute) &&
                               In(t.second, R::kSecond) && In(t.nanosecond, R::kNano));
  io.Bool(wide);
  const std::pair<int32_t*, const int32_t*> fields[] = {{&t.hour, R::kHour},
                                                        {&t.minute, R::kMinute},
                                                        {&t.second, R::kSecond},
                                                        {&t.nanosecond, R::kNano}};
  for (const auto& [field, range] : fields) {
    if (wide) {
      io.Int(*field);
    } else {
      io.Int(*field, range[0], range[1]);
    }
  }
}

rc::Gen<ts::TimeOfDay> TimeGen() {
  std::vector<int64_t> edges;
  for (int64_t ns : EdgeCqlTimeNanos()) {
    if (ns >= 0 && ns < 86400LL * 1000000000LL) edges.push_back(ns);
  }
  auto of_ns = [](int64_t ns) { return (*rts::TimeOfDayFromCqlTime(ns)); };
  constexpr int32_t kMin = std::numeric_limits<int32_t>::min();
  constexpr int32_t kMax = std::numeric_limits<int32_t>::max();
  return rc::gen::weightedOneOf<ts::TimeOfDay>({
      {4, rc::gen::map(rc::gen::elementOf(edges), of_ns)},
      {3, rc::gen::map(harness::UniformIn<int64_t>(0, 86400LL * 1000000000LL), of_ns)},
      {2,
       rc::gen::map(rc::gen::tuple(
                        rc::gen::map(harness::UniformIn<int64_t>(0, 86400LL * 1000000000LL), of_ns),
                        harness::UniformIn<int>(0, 4),
                        rc::gen::elementOf(std::vector<int32_t>{-1, 24, 60, 61, 1000000000,
                                                                999999999, kMin, kMax})),
                    [](const std::tuple<ts::TimeOfDay, int, int32_t>& t) {
                      ts::TimeOfDay v = std::get<0>(t);
                      switch (std::get<1>(t)) {
                        case 0:
                          v.hour = std::get<2>(t);
                          break;
                        case 1:
                          v.minute = std::get<2>(t);
                          break;
                        case 2:
                          v.second = std::get<2>(t);
                          break;
                        default:
                          v.nanosecond = std::get<2>(t);
                          break;
                      }
                      return v;
                    })},
  });
}

std::string ShowTime(const ts::TimeOfDay& t) {
  return absl::StrFormat("%s {%d h, %d min, %d s, %d ns}", TimeText(t), t.hour, t.minute, t.second,
                         t.nanosecond);
}

absl::StatusOr<ts::TimeOfDay> ParseTime(std::string_view text) {
  return harness::ParseAll<ts::TimeOfDay>(
      text, [](harness::TextCursor& c, ts::TimeOfDay& v) -> absl::Status {
        const size_t start = c.pos();
        absl::Status s =
            ParseFields(c, {&v.hour, &v.minute, &v.second, &v.nanosecond}, {":", ":", "."});
        if (s.ok()) s = harness::ReadAsPrinted(c, start, TimeText(v));
        if (!s.ok()) return s;
        return harness::AtEndOrShownAs(c, ShowTime(v));
      });
}

harness::Domain<ts::TimeOfDay> TimeOfDayDomain() {
  return harness::TwoWayDomain<ts::TimeOfDay>(
      "TimeOfDay", TimeGen(), [](auto& io, ts::TimeOfDay& v) { VisitTime(io, v); }, ShowTime,
      ParseTime);
}

}  // namespace serdiff::targets::timestamp
