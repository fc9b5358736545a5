// Timestamp family: ns per conversion, optimized (serdiff::timestamp, integer-only
// days-from-civil / civil-from-days) vs the Abseil reference (serdiff::ref::timestamp::Abseil*,
// absl::FromCivil / absl::ToUnixMillis / absl::ToCivilSecond behind the same StatusOr API) vs
// bare Abseil calls (no validation, no StatusOr: the fastest Abseil can be asked) vs the slow
// counting reference. 1,000,000 inputs uniform over year 1..9999 (ms, and civil values with a
// random microsecond), the same inputs for every implementation.
//
//   cmake --preset bench && cmake --build --preset bench
//   build/bench/bench/timestamp_benchmark --benchmark_min_time=0.5
// Results: docs/benchmarks.md.
#include <benchmark/benchmark.h>

#include <cstdint>
#include <random>
#include <vector>

#include "absl/time/civil_time.h"
#include "absl/time/time.h"
#include "oracles/abseil/time.h"
#include "reference/timestamp/timestamp_ref.h"
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
    const ts::CivilDateTime c = *ts::FromUnixMillis(ms[i]);
    return int64_t{c.year} + c.month + c.day + c.hour + c.minute + c.second + c.microsecond;
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
    const absl::Time t = absl::FromUnixMillis(ms[i]);
    const absl::CivilSecond cs = absl::ToCivilSecond(t, utc);
    const int64_t sub = absl::ToInt64Microseconds(t - absl::FromCivil(cs, utc));
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
BENCHMARK(BM_MillisToCivil_AbseilReference);
BENCHMARK(BM_MillisToCivil_AbseilBare);
BENCHMARK(BM_MillisToCivil_Slow);
BENCHMARK(BM_CivilToMillis_Optimized);
BENCHMARK(BM_CivilToMillis_AbseilReference);
BENCHMARK(BM_CivilToMillis_AbseilBare);
BENCHMARK(BM_CivilToMillis_Slow);
BENCHMARK(BM_CqlDateToCivil_Optimized);
BENCHMARK(BM_CqlDateToCivil_AbseilReference);

}  // namespace

BENCHMARK_MAIN();
