// Domains of the timestamp family, the scalar ones (declared in targets/timestamp/domain.h):
// ms, µs and days since the epoch, CQL time (ns of the day) and raw CQL dates, each integer
// edge-biased over its table of the edge tables (below, domain.h), and double seconds; their
// printers and parsers, and the reference's range of year 1..9999 in ms. The civil datetime, day
// and time-of-day domains are in domain.cc, the output forms in domain_outputs.cc.
#include <bit>
#include <cmath>
#include <cstdint>
#include <functional>
#include <limits>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "absl/strings/numbers.h"
#include "absl/strings/str_cat.h"
#include "absl/strings/str_format.h"
#include "harness/domains.h"
#include "harness/edges.h"
#include "harness/text_parse.h"
#include "harness/two_way.h"
#include "harness/uniform.h"
#include "targets/timestamp/domain.h"

namespace serdiff::targets::timestamp {

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
      "int64 ms", harness::EdgeBiased<int64_t>(EdgeMillis(), RefMinMillis(), RefMaxMillis()));
  d.show = ShowMillis;
  SetIntParser(d, " ms");
  return d;
}

harness::Domain<int64_t> MicrosDomain() {
  auto d = harness::IntegerDomain<int64_t>(
      "int64 µs", harness::EdgeBiased<int64_t>(EdgeMicros(), RefMinMillis() * 1000,
                                               RefMaxMillis() * 1000 + 999));
  d.show = ShowMicros;
  SetIntParser(d, " µs");
  return d;
}

harness::Domain<int64_t> DaysDomain() {
  auto d = harness::IntegerDomain<int64_t>(
      "int64 days",
      harness::EdgeBiased<int64_t>(EdgeDays(), -(int64_t{1} << 31), (int64_t{1} << 31) - 1));
  d.show = [](const int64_t& v) { return absl::StrCat(v, " days"); };
  SetIntParser(d, " days");
  return d;
}

harness::Domain<int64_t> CqlTimeDomain() {
  auto d = harness::IntegerDomain<int64_t>(
      "int64 ns", harness::EdgeBiased<int64_t>(EdgeCqlTimeNanos(), 0, 86400LL * 1000000000LL - 1));
  d.show = [](const int64_t& v) { return absl::StrCat(v, " ns"); };
  SetIntParser(d, " ns");
  return d;
}

std::vector<uint32_t> EdgeRawDates() {
  std::vector<uint32_t> v = {0,          1,          2,          0x7ffffffe, 0x7fffffff,
                             0x80000000, 0x80000001, 0xfffffffe, 0xffffffff};
  for (int64_t days : EdgeDays()) {
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
  for (int64_t us : EdgeMicros()) {
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
      {2, rc::gen::map(rc::gen::pair(harness::UniformIn<int64_t>(-70000000000, 260000000000),
                                     harness::UniformIn<int>(-127, 128)),
                       [](const std::pair<int64_t, int>& p) {
                         return Seconds{static_cast<double>(p.first) + p.second / 128.0};
                       })},
      {3, rc::gen::map(harness::UniformIn<int64_t>(lo, hi + 1),
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

}  // namespace serdiff::targets::timestamp
