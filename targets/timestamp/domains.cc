// Domains of the timestamp family: generators, corpus forms, printers and their parsers
// (declared, with the edge-bias rules, in targets/timestamp/domains.h).
#include "targets/timestamp/domains.h"

#include <algorithm>
#include <array>
#include <bit>
#include <cmath>
#include <cstdint>
#include <cstdio>
#include <functional>
#include <initializer_list>
#include <limits>
#include <string>
#include <string_view>
#include <tuple>
#include <utility>
#include <vector>

#include "absl/strings/numbers.h"
#include "absl/strings/str_cat.h"
#include "absl/strings/str_format.h"
#include "harness/domains.h"
#include "harness/edges.h"
#include "harness/text_parse.h"
#include "harness/two_way.h"
#include "targets/timestamp/edges.h"

namespace serdiff::targets::ts_domains {

namespace {

// These texts are the canonical outputs of most timestamp targets: each judged input formats
// six to eight of them (every implementation runs twice), so they are built in a stack buffer
// and copied into the string once. The digits are exactly printf's "%0<width>d" (a minus sign
// counts toward the width; wider values are not cut), so invalid fields print as before.
// TimestampTextTest.* compares them with absl::StrFormat.
char* PutPadded(char* p, int64_t v, int width) {
  const bool negative = v < 0;
  uint64_t mag = negative ? uint64_t{0} - static_cast<uint64_t>(v) : static_cast<uint64_t>(v);
  char digits[20];
  int n = 0;
  do {
    digits[n++] = static_cast<char>('0' + mag % 10);
    mag /= 10;
  } while (mag != 0);
  if (negative) *p++ = '-';
  for (int pad = width - n - (negative ? 1 : 0); pad > 0; --pad) *p++ = '0';
  while (n > 0) *p++ = digits[--n];
  return p;
}

char* PutDay(char* p, const ts::CivilDay& d) {
  // The year's sign is written apart from its digits ("-0044"), unlike the other fields.
  if (d.year < 0) *p++ = '-';
  p = PutPadded(p, d.year < 0 ? -int64_t{d.year} : int64_t{d.year}, 4);
  *p++ = '-';
  p = PutPadded(p, d.month, 2);
  *p++ = '-';
  return PutPadded(p, d.day, 2);
}

// hh:mm:ss.<fraction of `frac_width` digits>
char* PutTime(char* p, int h, int m, int s, int frac, int frac_width) {
  p = PutPadded(p, h, 2);
  *p++ = ':';
  p = PutPadded(p, m, 2);
  *p++ = ':';
  p = PutPadded(p, s, 2);
  *p++ = '.';
  return PutPadded(p, frac, frac_width);
}

}  // namespace

std::string DayText(const ts::CivilDay& d) {
  char buf[64];
  return std::string(buf, PutDay(buf, d));
}

std::string CivilText(const ts::CivilDateTime& c) {
  char buf[128];
  char* p = PutDay(buf, {c.year, c.month, c.day});
  *p++ = 'T';
  return std::string(buf, PutTime(p, c.hour, c.minute, c.second, c.microsecond, 6));
}

std::string TimeText(const ts::TimeOfDay& t) {
  char buf[96];
  return std::string(buf, PutTime(buf, t.hour, t.minute, t.second, t.nanosecond, 9));
}

namespace {

// Packs int32 fields, field i taking compact[i] bytes (big-endian) when every field fits its
// compact width, else four bytes each (see CivilBytes in the header).
template <size_t N>
std::string PackFields(const std::array<int32_t, N>& f, const std::array<int, N>& compact) {
  bool fits = true;
  for (size_t i = 0; i < N; ++i) {
    if (compact[i] < 4 && (f[i] < 0 || f[i] >= (int32_t{1} << (8 * compact[i])))) fits = false;
  }
  char buf[4 * N];
  size_t n = 0;
  for (size_t i = 0; i < N; ++i) {
    const uint32_t u = static_cast<uint32_t>(f[i]);
    for (int b = (fits ? compact[i] : 4) - 1; b >= 0; --b) {
      buf[n++] = static_cast<char>(u >> (8 * b));
    }
  }
  return std::string(buf, n);
}

template <size_t N>
absl::StatusOr<std::array<int32_t, N>> UnpackFields(std::string_view bytes,
                                                    const std::array<int, N>& compact,
                                                    absl::string_view kind) {
  size_t compact_len = 0;
  for (int w : compact) compact_len += static_cast<size_t>(w);
  const bool fits = bytes.size() == compact_len;
  if (!fits && bytes.size() != 4 * N) {
    return absl::InvalidArgumentError(absl::StrCat(kind, " output bytes are ", compact_len, " or ",
                                                   4 * N, " long, not ", bytes.size()));
  }
  std::array<int32_t, N> f{};
  size_t at = 0;
  for (size_t i = 0; i < N; ++i) {
    uint32_t u = 0;
    for (int b = 0; b < (fits ? compact[i] : 4); ++b) {
      u = (u << 8) | static_cast<unsigned char>(bytes[at++]);
    }
    f[i] = static_cast<int32_t>(u);
  }
  return f;
}

constexpr std::array<int, 7> kCivilWidths = {4, 1, 1, 1, 1, 1, 3};
constexpr std::array<int, 3> kDayWidths = {4, 1, 1};
constexpr std::array<int, 4> kTimeWidths = {1, 1, 1, 4};

}  // namespace

std::string CivilBytes(const ts::CivilDateTime& c) {
  return PackFields<7>({c.year, c.month, c.day, c.hour, c.minute, c.second, c.microsecond},
                       kCivilWidths);
}

std::string DayBytes(const ts::CivilDay& d) {
  return PackFields<3>({d.year, d.month, d.day}, kDayWidths);
}

std::string TimeBytes(const ts::TimeOfDay& t) {
  return PackFields<4>({t.hour, t.minute, t.second, t.nanosecond}, kTimeWidths);
}

absl::StatusOr<ts::CivilDateTime> CivilOfBytes(std::string_view bytes) {
  absl::StatusOr<std::array<int32_t, 7>> f = UnpackFields(bytes, kCivilWidths, "datetime");
  if (!f.ok()) return f.status();
  const auto& v = *f;
  return ts::CivilDateTime{v[0], v[1], v[2], v[3], v[4], v[5], v[6]};
}

absl::StatusOr<ts::CivilDay> DayOfBytes(std::string_view bytes) {
  absl::StatusOr<std::array<int32_t, 3>> f = UnpackFields(bytes, kDayWidths, "day");
  if (!f.ok()) return f.status();
  return ts::CivilDay{(*f)[0], (*f)[1], (*f)[2]};
}

absl::StatusOr<ts::TimeOfDay> TimeOfBytes(std::string_view bytes) {
  absl::StatusOr<std::array<int32_t, 4>> f = UnpackFields(bytes, kTimeWidths, "time of day");
  if (!f.ok()) return f.status();
  return ts::TimeOfDay{(*f)[0], (*f)[1], (*f)[2], (*f)[3]};
}

absl::StatusOr<int64_t> MicrosOfCivilBytes(std::string_view bytes) {
  absl::StatusOr<ts::CivilDateTime> c = CivilOfBytes(bytes);
  if (!c.ok()) return c.status();
  return rts::ToUnixMicros(*c);
}

int64_t RefMinMillis() {
  static const int64_t v = *rts::ToUnixMicros({1, 1, 1, 0, 0, 0, 0}) / 1000;
  return v;
}

int64_t RefMaxMillis() {
  static const int64_t v = *rts::ToUnixMicros({9999, 12, 31, 23, 59, 59, 999999}) / 1000;
  return v;
}

std::string ShowMillis(const int64_t& ms) {
  absl::StatusOr<rts::CivilDateTime> c = oab::FromUnixMillis(ms);
  return absl::StrCat(ms, " ms", c.ok() ? absl::StrCat(" (", CivilText(*c), ")") : "");
}

std::string ShowMicros(const int64_t& us) {
  absl::StatusOr<rts::CivilDateTime> c = oab::FromUnixMicros(us);
  return absl::StrCat(us, " µs", c.ok() ? absl::StrCat(" (", CivilText(*c), ")") : "");
}

namespace {

// "<n><unit>..." as the integer domains print it: the integer, then optionally `unit`; either
// the text ends there (a short form) or it is exactly what `show` prints for the integer.
template <typename T>
absl::StatusOr<T> ParseIntThenShown(std::string_view text, std::string_view unit,
                                    const std::function<std::string(const T&)>& show) {
  return harness::ParseAll<T>(text, [&](harness::TextCursor& c, T& v) -> absl::Status {
    if (absl::Status s = c.Int(v); !s.ok()) return s;
    c.Consume(unit);
    return harness::AtEndOrShownAs(c, show(v));
  });
}

// Sets d.parse to ParseIntThenShown with the domain's own printer.
template <typename T>
void SetIntParser(harness::Domain<T>& d, std::string_view unit) {
  d.parse = [unit = std::string(unit), show = d.show](std::string_view text) {
    return ParseIntThenShown<T>(text, unit, show);
  };
}

}  // namespace

harness::Domain<int64_t> MillisDomain() {
  auto d = harness::IntegerDomain<int64_t>(
      "int64 ms",
      harness::EdgeBiased<int64_t>(ts_edges::EdgeMillis(), RefMinMillis(), RefMaxMillis()));
  d.show = ShowMillis;
  SetIntParser(d, " ms");
  return d;
}

harness::Domain<int64_t> MicrosDomain() {
  auto d = harness::IntegerDomain<int64_t>(
      "int64 µs", harness::EdgeBiased<int64_t>(ts_edges::EdgeMicros(), RefMinMillis() * 1000,
                                               RefMaxMillis() * 1000 + 999));
  d.show = ShowMicros;
  SetIntParser(d, " µs");
  return d;
}

harness::Domain<int64_t> DaysDomain() {
  auto d = harness::IntegerDomain<int64_t>(
      "int64 days", harness::EdgeBiased<int64_t>(ts_edges::EdgeDays(), -(int64_t{1} << 31),
                                                 (int64_t{1} << 31) - 1));
  d.show = [](const int64_t& v) { return absl::StrCat(v, " days"); };
  SetIntParser(d, " days");
  return d;
}

harness::Domain<int64_t> CqlTimeDomain() {
  auto d = harness::IntegerDomain<int64_t>(
      "int64 ns",
      harness::EdgeBiased<int64_t>(ts_edges::EdgeCqlTimeNanos(), 0, 86400LL * 1000000000LL - 1));
  d.show = [](const int64_t& v) { return absl::StrCat(v, " ns"); };
  SetIntParser(d, " ns");
  return d;
}

std::vector<uint32_t> EdgeRawDates() {
  std::vector<uint32_t> v = {0,          1,          2,          0x7ffffffe, 0x7fffffff,
                             0x80000000, 0x80000001, 0xfffffffe, 0xffffffff};
  for (int64_t days : ts_edges::EdgeDays()) {
    if (days >= -(int64_t{1} << 31) && days < (int64_t{1} << 31)) {
      v.push_back(static_cast<uint32_t>(days + (int64_t{1} << 31)));
    }
  }
  return v;
}

harness::Domain<uint32_t> RawDateDomain() {
  auto d = harness::IntegerDomain<uint32_t>("uint32 CQL date",
                                            rc::gen::weightedOneOf<uint32_t>({
                                                {5, rc::gen::elementOf(EdgeRawDates())},
                                                {4, rc::gen::arbitrary<uint32_t>()},
                                            }));
  d.show = [](const uint32_t& raw) {
    return absl::StrFormat("raw %u (0x%08x, day %d)", raw, raw,
                           static_cast<int64_t>(raw) - (int64_t{1} << 31));
  };
  d.parse = [show = d.show](std::string_view text) {
    return harness::ParseAll<uint32_t>(text, [&](harness::TextCursor& c, uint32_t& raw) {
      c.Consume("raw ");
      if (absl::Status s = c.Int(raw); !s.ok()) return s;
      return harness::AtEndOrShownAs(c, show(raw));
    });
  };
  return d;
}

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
  for (int64_t us : ts_edges::EdgeMicros()) {
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
              rc::gen::pair(rc::gen::inRange<int32_t>(0, 1000),
                            rc::gen::elementOf(std::vector<int32_t>{-1, 0, 1, 499, 500, 501, 999})),
              [](const std::pair<int32_t, int32_t>& p) {
                return std::clamp(p.first * 1000 + p.second, 0, 999999);
              })},
      {1, rc::gen::elementOf(std::vector<int32_t>{0, 1, 499, 500, 501, 999, 1000, 999000, 999499,
                                                  999500, 999501, 999999})},
      {2, rc::gen::inRange<int32_t>(0, 1000000)},
  });
}

rc::Gen<ts::CivilDateTime> ValidCivilGen() {
  return rc::gen::map(
      rc::gen::tuple(rc::gen::inRange<int32_t>(1, 10000), rc::gen::inRange<int32_t>(1, 13),
                     rc::gen::inRange<int32_t>(1, 32), rc::gen::inRange<int32_t>(0, 24),
                     rc::gen::inRange<int32_t>(0, 60), rc::gen::inRange<int32_t>(0, 60),
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
      rc::gen::tuple(ValidCivilGen(), rc::gen::inRange<int>(0, 7),
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
      {2, rc::gen::map(rc::gen::inRange<int64_t>(lo, hi + 1), CivilOfMicros)},
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
  for (int64_t days : ts_edges::EdgeDays()) {
    if (days >= -(int64_t{1} << 31) - 2 && days <= (int64_t{1} << 31) + 1) edges.push_back(days);
  }
  const std::vector<int32_t> leap_years = {-400, -100, -4, -1, 0, 1, 1900, 2000, 2100, 2400};
  const std::vector<std::pair<int32_t, int32_t>> md = {{2, 28}, {2, 29}, {3, 1}, {2, 30}};
  constexpr int32_t kMin = std::numeric_limits<int32_t>::min();
  constexpr int32_t kMax = std::numeric_limits<int32_t>::max();
  return rc::gen::weightedOneOf<ts::CivilDay>({
      {5, rc::gen::map(rc::gen::elementOf(edges), of_days)},
      {3, rc::gen::map(rc::gen::inRange<int64_t>(-(int64_t{1} << 31), int64_t{1} << 31), of_days)},
      {2, rc::gen::map(rc::gen::pair(rc::gen::elementOf(leap_years), rc::gen::elementOf(md)),
                       [](const std::pair<int32_t, std::pair<int32_t, int32_t>>& p) {
                         return ts::CivilDay{p.first, p.second.first, p.second.second};
                       })},
      {2, rc::gen::map(
              rc::gen::tuple(rc::gen::elementOf(std::vector<int32_t>{-5877641, -5877642, 5881580,
                                                                     5881581, 1, 9999, kMin, kMax}),
                             rc::gen::inRange<int32_t>(-1, 14), rc::gen::inRange<int32_t>(-1, 33)),
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
  for (int64_t ns : ts_edges::EdgeCqlTimeNanos()) {
    if (ns >= 0 && ns < 86400LL * 1000000000LL) edges.push_back(ns);
  }
  auto of_ns = [](int64_t ns) { return (*rts::TimeOfDayFromCqlTime(ns)); };
  constexpr int32_t kMin = std::numeric_limits<int32_t>::min();
  constexpr int32_t kMax = std::numeric_limits<int32_t>::max();
  return rc::gen::weightedOneOf<ts::TimeOfDay>({
      {4, rc::gen::map(rc::gen::elementOf(edges), of_ns)},
      {3, rc::gen::map(rc::gen::inRange<int64_t>(0, 86400LL * 1000000000LL), of_ns)},
      {2,
       rc::gen::map(
           rc::gen::tuple(rc::gen::map(rc::gen::inRange<int64_t>(0, 86400LL * 1000000000LL), of_ns),
                          rc::gen::inRange<int>(0, 4),
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

std::vector<double> EdgeSeconds() {
  constexpr double kInf = std::numeric_limits<double>::infinity();
  std::vector<double> v = {0.0,
                           -0.0,
                           std::numeric_limits<double>::quiet_NaN(),
                           -std::numeric_limits<double>::quiet_NaN(),
                           kInf,
                           -kInf,
                           std::numeric_limits<double>::denorm_min(),
                           -std::numeric_limits<double>::denorm_min(),
                           std::numeric_limits<double>::min(),
                           std::numeric_limits<double>::max(),
                           -std::numeric_limits<double>::max(),
                           1e-6,
                           -1e-6,
                           5e-7,
                           -5e-7,
                           1.0 / 128,
                           -1.0 / 128,
                           3.0 / 128,
                           -3.0 / 128,
                           1e9 + 1.0 / 128,
                           -1e9 - 3.0 / 128,
                           9007199254.740992,
                           9223372036854.775807,
                           -9223372036854.775808,
                           1e300,
                           -1e300};
  // The doubles nearest the int64-µs limits and their neighbours.
  for (double limit : {9223372036854.775807, -9223372036854.775808}) {
    double x = limit;
    for (int i = 0; i < 3; ++i) {
      v.push_back(x);
      x = std::nextafter(x, 0.0);
    }
    x = limit;
    for (int i = 0; i < 3; ++i) {
      x = std::nextafter(x, limit * 2);
      v.push_back(x);
    }
  }
  for (int64_t us : ts_edges::EdgeMicros()) {
    const double s = static_cast<double>(us) / 1e6;
    v.push_back(s);
    v.push_back(std::nextafter(s, kInf));
    v.push_back(std::nextafter(s, -kInf));
  }
  return v;
}

harness::Domain<Seconds> SecondsDomain() {
  harness::Domain<Seconds> d;
  d.type_name = "double seconds";
  auto wrap = [](double x) { return Seconds{x}; };
  const int64_t lo = RefMinMillis() * 1000;
  const int64_t hi = RefMaxMillis() * 1000 + 999;
  d.gen = rc::gen::weightedOneOf<Seconds>({
      {5, rc::gen::map(rc::gen::elementOf(EdgeSeconds()), wrap)},
      // k + j/128 s: exact ties at half a µs for odd j.
      {2, rc::gen::map(rc::gen::pair(rc::gen::inRange<int64_t>(-70000000000, 260000000000),
                                     rc::gen::inRange<int>(-127, 128)),
                       [](const std::pair<int64_t, int>& p) {
                         return Seconds{static_cast<double>(p.first) + p.second / 128.0};
                       })},
      {3, rc::gen::map(rc::gen::inRange<int64_t>(lo, hi + 1),
                       [](int64_t us) { return Seconds{static_cast<double>(us) / 1e6}; })},
      {2, rc::gen::map(rc::gen::arbitrary<uint64_t>(),
                       [](uint64_t bits) { return Seconds{std::bit_cast<double>(bits)}; })},
  });
  // Corpus form: the double's bits as one uint64 (every NaN payload and -0 survive).
  const auto two_way = harness::TwoWayDomain<Seconds>(
      "", rc::gen::just(Seconds{0}),
      [](auto& io, Seconds& v) {
        uint64_t bits = std::bit_cast<uint64_t>(v.value);
        io.Int(bits);
        v.value = std::bit_cast<double>(bits);
      },
      nullptr);
  d.decode = two_way.decode;
  d.encode = two_way.encode;
  d.show = ShowSeconds;
  d.parse = ParseSeconds;
  return d;
}

std::string ShowSeconds(const Seconds& s) {
  return absl::StrFormat("%.17g s (bits 0x%016x)", s.value, std::bit_cast<uint64_t>(s.value));
}

absl::StatusOr<Seconds> ParseSeconds(std::string_view text) {
  return harness::ParseAll<Seconds>(text, [text](harness::TextCursor& c, Seconds& v) {
    const size_t start = c.pos();
    const std::string_view number = c.Until(" ");
    if (!absl::SimpleAtod(absl::string_view(number.data(), number.size()), &v.value)) {
      return harness::ParseErrorAt(
          start, absl::StrCat("expected a number of seconds, found \"", std::string(number), "\""));
    }
    if (c.AtEnd()) return absl::OkStatus();
    if (absl::Status s = c.Expect(" s"); !s.ok()) return s;
    if (c.AtEnd()) return absl::OkStatus();
    // The bits are the value (every NaN payload, -0); the number before them must print the
    // same.
    uint64_t bits = 0;
    if (absl::Status s = c.Expect(" (bits 0x"); !s.ok()) return s;
    if (absl::Status s = c.HexInt(bits); !s.ok()) return s;
    if (absl::Status s = c.Expect(")"); !s.ok()) return s;
    v.value = std::bit_cast<double>(bits);
    return harness::MatchesShown(text, ShowSeconds(v));
  });
}

}  // namespace serdiff::targets::ts_domains
