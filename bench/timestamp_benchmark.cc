// Timestamp family: ns per conversion, side by side in one binary:
//   Optimized      serdiff::timestamp's validating StatusOr API (inline over fast.h);
//   OptimizedTry   the validating form without a status (TryFromUnixMillis, TryToUnixMillis);
//   Unchecked      serdiff::timestamp::fast, the core without validation (what a caller that
//                  validated once pays per value);
//   WideCalendar   the same conversion through the wide any-int32-year calendar (Hinnant,
//                  64-bit; the target's "wide_calendar" tier), for the algorithm alone;
//   StdChrono      libstdc++'s <chrono> calendar: floor<days>, year_month_day, hh_mm_ss (no
//                  validation; the fastest straightforward standard C++; compare Unchecked);
//   StdChronoValidated  the same with the checks Optimized makes (compare Optimized);
//   AbseilReference  serdiff::oracle::abseil behind the same StatusOr API;
//   AbseilBare     absl::FromUnixMillis + absl::ToCivilSecond (and the reverse) with no
//                  validation and no StatusOr: the fastest Abseil can be asked;
//   Slow           the counting reference (on a tenth of the inputs).
// 1,000,000 inputs (2^20 > 2^16: no branch predictor learns them), uniform over year 1..9999
// (ms, and civil values with a random microsecond), the same inputs for every implementation,
// read once per iteration in order. Every row sums its outputs so nothing is optimized away.
//
//   cmake --preset bench && cmake --build --preset bench --target timestamp_benchmark
//   taskset -c 1 build/bench/bench/timestamp_benchmark --benchmark_min_time=0.5
//     --benchmark_repetitions=5 --benchmark_enable_random_interleaving=true
//     --benchmark_report_aggregates_only=true          (one command line)
// Results: docs/benchmarks.md.
#include <benchmark/benchmark.h>

#include <chrono>
#include <cstdint>
#include <random>
#include <vector>

#include "absl/time/civil_time.h"
#include "absl/time/time.h"
#include "oracles/abseil/time.h"
#include "reference/timestamp/timestamp_ref.h"
#include "serdiff/timestamp/fast.h"
#include "serdiff/timestamp/timestamp.h"

namespace {

namespace ts = ::serdiff::timestamp;
namespace rts = ::serdiff::ref::timestamp;
namespace oab = ::serdiff::oracle::abseil;

constexpr size_t kN = 1'000'000;

const std::vector<int64_t>& Millis() {
  static const std::vector<int64_t> v = [] {
    std::mt19937_64 rng(42);
    std::uniform_int_distribution<int64_t> dist(ts::kMinUnixMillis, ts::kMaxUnixMillis);
    std::vector<int64_t> out(kN);
    for (auto& x : out) x = dist(rng);
    return out;
  }();
  return v;
}

const std::vector<ts::CivilDateTime>& Civils() {
  static const std::vector<ts::CivilDateTime> v = [] {
    std::mt19937_64 rng(7);
    std::uniform_int_distribution<int64_t> dist(ts::kMinUnixMicros, ts::kMaxUnixMicros);
    std::vector<ts::CivilDateTime> out(kN);
    for (auto& c : out) c = *ts::FromUnixMicros(dist(rng));
    return out;
  }();
  return v;
}

const std::vector<rts::CivilDateTime>& RefCivils() {
  static const std::vector<rts::CivilDateTime> v = [] {
    std::vector<rts::CivilDateTime> out;
    out.reserve(kN);
    for (const auto& c : Civils()) {
      out.push_back({c.year, c.month, c.day, c.hour, c.minute, c.second, c.microsecond});
    }
    return out;
  }();
  return v;
}

template <typename Fn>
void Run(benchmark::State& state, size_t n, Fn fn) {
  for (auto _ : state) {
    int64_t acc = 0;
    for (size_t i = 0; i < n; ++i) acc += fn(i);
    benchmark::DoNotOptimize(acc);
  }
  state.SetItemsProcessed(static_cast<int64_t>(state.iterations() * n));
  state.counters["ns_per_conversion"] =
      benchmark::Counter(static_cast<double>(state.iterations() * n),
                         benchmark::Counter::kIsRate | benchmark::Counter::kInvert);
}

// ---- ms -> civil ----------------------------------------------------------------------------

void BM_MillisToCivil_Optimized(benchmark::State& state) {
  const auto& ms = Millis();
  Run(state, kN, [&](size_t i) {
    const absl::StatusOr<ts::CivilDateTime> r = ts::FromUnixMillis(ms[i]);
    const ts::CivilDateTime& c = *r;
    return int64_t{c.year} + c.month + c.day + c.hour + c.minute + c.second + c.microsecond;
  });
}
// The validating form without a status (ts::TryFromUnixMillis): like for like with
// StdChronoValidated, which checks the same range and returns -1.
void BM_MillisToCivil_OptimizedTry(benchmark::State& state) {
  const auto& ms = Millis();
  Run(state, kN, [&](size_t i) -> int64_t {
    ts::CivilDateTime c;
    if (!ts::TryFromUnixMillis(ms[i], &c)) [[unlikely]]
      return -1;
    return int64_t{c.year} + c.month + c.day + c.hour + c.minute + c.second + c.microsecond;
  });
}
void BM_MillisToCivil_Unchecked(benchmark::State& state) {
  const auto& ms = Millis();
  Run(state, kN, [&](size_t i) {
    const ts::CivilDateTime c = ts::fast::FromUnixMillis(ms[i]);
    return int64_t{c.year} + c.month + c.day + c.hour + c.minute + c.second + c.microsecond;
  });
}
void BM_MillisToCivil_WideCalendar(benchmark::State& state) {
  const auto& ms = Millis();
  Run(state, kN, [&](size_t i) {
    const int64_t days = ts::DivideRounded(ms[i], ts::kMillisPerDay, ts::Rounding::kFloor);
    const int64_t of_day = ms[i] - days * ts::kMillisPerDay;
    const ts::CivilDay d = *ts::CivilFromDays(days);
    const int64_t sod = of_day / 1000;
    return int64_t{d.year} + d.month + d.day + sod / 3600 + sod / 60 % 60 + sod % 60 +
           (of_day - sod * 1000) * 1000;
  });
}
namespace chr = std::chrono;

// libstdc++'s calendar, ms -> fields, summed like the other rows. Inline in the loop.
inline int64_t ChronoFieldSum(int64_t ms) {
  const chr::sys_time<chr::milliseconds> tp{chr::milliseconds{ms}};
  const chr::sys_days day = chr::floor<chr::days>(tp);
  const chr::year_month_day ymd{day};
  const chr::hh_mm_ss<chr::milliseconds> hms{tp - day};
  return int64_t{static_cast<int>(ymd.year())} + static_cast<unsigned>(ymd.month()) +
         static_cast<unsigned>(ymd.day()) + hms.hours().count() + hms.minutes().count() +
         hms.seconds().count() + hms.subseconds().count() * 1000;
}

void BM_MillisToCivil_StdChrono(benchmark::State& state) {
  const auto& ms = Millis();
  Run(state, kN, [&](size_t i) { return ChronoFieldSum(ms[i]); });
}
// The same with the range check the validating API makes (year 1..9999), for a like-for-like
// comparison with Optimized.
void BM_MillisToCivil_StdChronoValidated(benchmark::State& state) {
  const auto& ms = Millis();
  Run(state, kN, [&](size_t i) -> int64_t {
    if (ms[i] < ts::kMinUnixMillis || ms[i] > ts::kMaxUnixMillis) return -1;
    return ChronoFieldSum(ms[i]);
  });
}
void BM_MillisToCivil_AbseilReference(benchmark::State& state) {
  const auto& ms = Millis();
  Run(state, kN, [&](size_t i) {
    const rts::CivilDateTime c = *oab::FromUnixMillis(ms[i]);
    return int64_t{c.year} + c.month + c.day + c.hour + c.minute + c.second + c.microsecond;
  });
}
void BM_MillisToCivil_AbseilBare(benchmark::State& state) {
  const auto& ms = Millis();
  const absl::TimeZone utc = absl::UTCTimeZone();
  Run(state, kN, [&](size_t i) {
    // The sub-second part from the integer itself (floor modulo), not by a second FromCivil.
    const absl::CivilSecond cs = absl::ToCivilSecond(absl::FromUnixMillis(ms[i]), utc);
    const int64_t sub = (ms[i] % 1000 + 1000) % 1000 * 1000;
    return cs.year() + cs.month() + cs.day() + cs.hour() + cs.minute() + cs.second() + sub;
  });
}
void BM_MillisToCivil_Slow(benchmark::State& state) {
  const auto& ms = Millis();
  Run(state, kN / 10, [&](size_t i) {
    const rts::CivilDateTime c = *rts::FromUnixMillis(ms[i]);
    return int64_t{c.year} + c.month + c.day + c.hour + c.minute + c.second + c.microsecond;
  });
}

// ---- civil -> ms (floor) --------------------------------------------------------------------

void BM_CivilToMillis_Optimized(benchmark::State& state) {
  const auto& c = Civils();
  Run(state, kN, [&](size_t i) { return *ts::ToUnixMillis(c[i]); });
}
// The validating form without a status (ts::TryToUnixMillis): like for like with
// StdChronoValidated, which checks the same fields and returns -1.
void BM_CivilToMillis_OptimizedTry(benchmark::State& state) {
  const auto& c = Civils();
  Run(state, kN, [&](size_t i) -> int64_t {
    int64_t ms;
    if (!ts::TryToUnixMillis(c[i], &ms)) [[unlikely]]
      return -1;
    return ms;
  });
}
void BM_CivilToMillis_Unchecked(benchmark::State& state) {
  const auto& c = Civils();
  Run(state, kN, [&](size_t i) { return ts::fast::ToUnixMillisFloor(c[i]); });
}
void BM_CivilToMillis_WideCalendar(benchmark::State& state) {
  const auto& c = Civils();
  Run(state, kN, [&](size_t i) {
    const ts::CivilDateTime& v = c[i];
    const int64_t days = *ts::DaysFromCivil(ts::CivilDay{v.year, v.month, v.day});
    return (days * 86400 + v.hour * 3600 + v.minute * 60 + v.second) * 1000 + v.microsecond / 1000;
  });
}
// libstdc++'s calendar, fields -> ms (floor), from a year_month_day.
inline int64_t ChronoMillis(const chr::year_month_day& ymd, const ts::CivilDateTime& v) {
  const auto t = chr::sys_days{ymd} + chr::hours{v.hour} + chr::minutes{v.minute} +
                 chr::seconds{v.second} + chr::microseconds{v.microsecond};
  return chr::floor<chr::milliseconds>(t).time_since_epoch().count();
}

void BM_CivilToMillis_StdChrono(benchmark::State& state) {
  const auto& c = Civils();
  Run(state, kN, [&](size_t i) {
    const ts::CivilDateTime& v = c[i];
    return ChronoMillis(
        chr::year{v.year} / static_cast<unsigned>(v.month) / static_cast<unsigned>(v.day), v);
  });
}
// With the checks Optimized makes: year_month_day::ok() for the date, the year range, and the
// time fields.
void BM_CivilToMillis_StdChronoValidated(benchmark::State& state) {
  const auto& c = Civils();
  Run(state, kN, [&](size_t i) -> int64_t {
    const ts::CivilDateTime& v = c[i];
    const chr::year_month_day ymd{chr::year{v.year}, chr::month{static_cast<unsigned>(v.month)},
                                  chr::day{static_cast<unsigned>(v.day)}};
    if (!ymd.ok() || v.year < 1 || v.year > 9999 || v.hour < 0 || v.hour > 23 || v.minute < 0 ||
        v.minute > 59 || v.second < 0 || v.second > 59 || v.microsecond < 0 ||
        v.microsecond > 999'999) {
      return -1;
    }
    return ChronoMillis(ymd, v);
  });
}
void BM_CivilToMillis_AbseilReference(benchmark::State& state) {
  const auto& c = RefCivils();
  Run(state, kN, [&](size_t i) { return *oab::ToUnixMillisFloor(c[i]); });
}
void BM_CivilToMillis_AbseilBare(benchmark::State& state) {
  const auto& c = Civils();
  const absl::TimeZone utc = absl::UTCTimeZone();
  Run(state, kN, [&](size_t i) {
    const ts::CivilDateTime& v = c[i];
    const absl::CivilSecond cs(v.year, v.month, v.day, v.hour, v.minute, v.second);
    return absl::ToUnixMillis(absl::FromCivil(cs, utc) + absl::Microseconds(v.microsecond));
  });
}
void BM_CivilToMillis_Slow(benchmark::State& state) {
  const auto& c = RefCivils();
  Run(state, kN / 10, [&](size_t i) { return *rts::ToUnixMillis(c[i], rts::Rounding::kFloor); });
}

// ---- CQL date raw -> civil (wide year range) ------------------------------------------------

void BM_CqlDateToCivil_Optimized(benchmark::State& state) {
  const auto& ms = Millis();
  Run(state, kN, [&](size_t i) {
    const ts::CivilDay d = ts::CivilFromCqlDate(static_cast<uint32_t>(ms[i]));
    return int64_t{d.year} + d.month + d.day;
  });
}
void BM_CqlDateToCivil_AbseilReference(benchmark::State& state) {
  const auto& ms = Millis();
  Run(state, kN, [&](size_t i) {
    const rts::CivilDay d = oab::CivilFromCqlDate(static_cast<uint32_t>(ms[i]));
    return int64_t{d.year} + d.month + d.day;
  });
}

BENCHMARK(BM_MillisToCivil_Optimized);
BENCHMARK(BM_MillisToCivil_OptimizedTry);
BENCHMARK(BM_MillisToCivil_Unchecked);
BENCHMARK(BM_MillisToCivil_WideCalendar);
BENCHMARK(BM_MillisToCivil_StdChrono);
BENCHMARK(BM_MillisToCivil_StdChronoValidated);
BENCHMARK(BM_MillisToCivil_AbseilReference);
BENCHMARK(BM_MillisToCivil_AbseilBare);
BENCHMARK(BM_MillisToCivil_Slow);
BENCHMARK(BM_CivilToMillis_Optimized);
BENCHMARK(BM_CivilToMillis_OptimizedTry);
BENCHMARK(BM_CivilToMillis_Unchecked);
BENCHMARK(BM_CivilToMillis_WideCalendar);
BENCHMARK(BM_CivilToMillis_StdChrono);
BENCHMARK(BM_CivilToMillis_StdChronoValidated);
BENCHMARK(BM_CivilToMillis_AbseilReference);
BENCHMARK(BM_CivilToMillis_AbseilBare);
BENCHMARK(BM_CivilToMillis_Slow);
BENCHMARK(BM_CqlDateToCivil_Optimized);
BENCHMARK(BM_CqlDateToCivil_AbseilReference);

}  // namespace

BENCHMARK_MAIN();
