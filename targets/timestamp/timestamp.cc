// Timestamp family targets: optimized serdiff::timestamp vs Abseil's time library and the slow
// counting reference (serdiff::ref::timestamp), plus the two python-driver behaviours compared
// on purpose. Names (one fuzz binary each, named in fuzz/limits.tsv):
//
//   timestamp_civil_to_millis_<mode>        CivilDateTime -> int64 ms          (floor: + Abseil)
//   timestamp_millis_to_civil               int64 ms -> CivilDateTime          (Abseil, slow)
//   timestamp_civil_to_micros               CivilDateTime -> int64 µs          (Abseil, slow)
//   timestamp_micros_to_civil               int64 µs -> CivilDateTime          (Abseil, slow)
//   timestamp_micros_to_millis_<mode>       int64 µs -> int64 ms               (floor: + Abseil)
//   timestamp_civil_to_seconds              CivilDateTime -> double seconds    (strtod)
//   timestamp_seconds_to_micros_<mode>      double seconds -> int64 µs         (exact decimal)
//   timestamp_days_to_cql_date              int64 days -> CQL date raw uint32
//   timestamp_civil_to_cql_date             CivilDay -> raw                    (Abseil, slow)
//   timestamp_cql_date_to_civil             raw -> CivilDay                    (Abseil, slow)
//   timestamp_millis_to_cql_date_<mode>     int64 ms -> raw                    (floor: + Abseil)
//   timestamp_time_of_day_to_cql_time       TimeOfDay -> int64 ns
//   timestamp_cql_time_to_time_of_day       int64 ns -> TimeOfDay
//   timestamp_civil_to_cql_time             CivilDateTime -> ns of its time of day
//   timestamp_cql_time_to_micros_of_day_<mode>  int64 ns -> int64 µs since midnight
//   timestamp_driver_serialize              integer floor vs python-driver 3.25 float+trunc
//   timestamp_driver_deserialize            exact ms -> civil vs 3.25 ms / 1000.0
//   timestamp_driver_roundtrip              ms -> civil -> ms, both driver pairs
//   timestamp_millis_roundtrip              ms -> civil -> ms is the identity in range
//   timestamp_micros_roundtrip              µs -> civil -> µs is the identity in range
//   timestamp_civil_roundtrip               civil -> ms -> civil floors to the ms (identity
//                                           for whole-ms values)
//   timestamp_cql_date_roundtrip            raw -> CivilDay -> raw, every uint32
//   timestamp_cql_time_roundtrip            ns -> TimeOfDay -> ns
//   timestamp_seconds_roundtrip             civil -> double -> civil (half-even), |s| < 2^33
// <mode> is floor, truncate or half_even. Outputs: integers as big-endian bytes (the CQL wire
// form: 8 bytes for ms/µs/ns, 4 for a CQL date), civil values as their fields packed
// (CivilBytes; reports show them as ISO text), doubles as their 8 IEEE bytes
// big-endian. Every valid output fits std::string's inline buffer, so judging a passing input
// allocates no output.
//
// The targets are defined in this file (civil <-> ms / µs, double seconds),
// timestamp_cql_date_time.cc, timestamp_drivers.cc and timestamp_round_trips.cc; what they share is
// in internal.h.
#include <cstdint>
#include <string>

#include "absl/status/status.h"
#include "absl/status/statusor.h"
#include "absl/strings/str_cat.h"
#include "absl/time/time.h"
#include "harness/result.h"
#include "harness/target.h"
#include "oracles/abseil/time.h"
#include "reference/timestamp/timestamp_ref.h"
#include "serdiff/timestamp/timestamp.h"
#include "targets/families.h"
#include "targets/timestamp/domain.h"
#include "targets/timestamp/internal.h"

namespace serdiff::targets::timestamp {
namespace {

// ---- civil <-> ms / µs --------------------------------------------------------------------

// Tier "wide_calendar": the instant conversions recomposed from the wide (any int32 year,
// Hinnant, 64-bit) calendar functions ts::DaysFromCivil / ts::CivilFromDays, validated by
// ts::Validate. The optimized side runs the 32-bit Neri-Schneider core of
// serdiff/timestamp/fast.h, so every input compares the two calendar algorithms of the
// optimized code with each other as well as with Abseil and the counting reference.
absl::StatusOr<int64_t> WideToUnixMicros(const ts::CivilDateTime& c) {
  if (absl::Status s = ts::Validate(c); !s.ok()) return s;
  absl::StatusOr<int64_t> days = ts::DaysFromCivil(ts::CivilDay{c.year, c.month, c.day});
  if (!days.ok()) return days.status();
  return ((*days * 86400 + c.hour * 3600 + c.minute * 60 + c.second) * 1'000'000) + c.microsecond;
}
absl::StatusOr<int64_t> WideToUnixMillis(const ts::CivilDateTime& c, ts::Rounding r) {
  absl::StatusOr<int64_t> us = WideToUnixMicros(c);
  if (!us.ok()) return us.status();
  return ts::DivideRounded(*us, 1000, r);
}
// v counts 1/per_second s; [min, max] is year 1..9999 in that unit.
absl::StatusOr<ts::CivilDateTime> WideFromCount(int64_t v, int64_t per_second, int64_t min,
                                                int64_t max) {
  if (v < min || v > max) {
    return absl::OutOfRangeError(absl::StrCat(v, " is outside year 1..9999"));
  }
  const int64_t per_day = per_second * 86400;
  const int64_t days = ts::DivideRounded(v, per_day, ts::Rounding::kFloor);
  const int64_t of_day = v - days * per_day;
  absl::StatusOr<ts::CivilDay> d = ts::CivilFromDays(days);
  if (!d.ok()) return d.status();
  const int64_t sod = of_day / per_second;
  return ts::CivilDateTime{
      d->year,
      d->month,
      d->day,
      static_cast<int32_t>(sod / 3600),
      static_cast<int32_t>(sod / 60 % 60),
      static_cast<int32_t>(sod % 60),
      static_cast<int32_t>((of_day - sod * per_second) * (1'000'000 / per_second))};
}

}  // namespace

harness::TargetDef<ts::CivilDateTime> CivilToMillis(ts::Rounding r) {
  auto def = Base<ts::CivilDateTime>(
      absl::StrCat("timestamp_civil_to_millis_", ModeName(r)),
      absl::StrCat("CivilDateTime -> int64 ms rounded ", ModeName(r), ": optimized vs slow",
                   r == ts::Rounding::kFloor ? " vs Abseil absl::ToUnixMillis" : "",
                   "; output 8 bytes BE"),
      CivilDomain(), ShowMillisOutput);
  // Under floor the status-free form (ts::TryToUnixMillis) runs too, on every input. Its answer
  // must be the StatusOr form's; where it is not, the optimized side declines, which the verdict
  // always fails ("optimized-declined"), whatever the references say. The StatusOr answer is
  // returned otherwise, so a bug in either form is seen. As an implementation of its own the
  // check cost a third more CPU time per fuzz input (docs/fuzzing.md, "The status-free timestamp
  // forms in their fuzz targets").
  def.optimized = {"optimized", [r](const ts::CivilDateTime& c) -> Output {
                     absl::StatusOr<int64_t> ms = ts::ToUnixMillis(c, r);
                     if (r == ts::Rounding::kFloor) {
                       int64_t t = 0;
                       const bool ok = ts::TryToUnixMillis(c, &t);
                       if (ok != ms.ok() || (ok && t != *ms)) {
                         return harness::Declined(absl::StrCat(
                             "TryToUnixMillis answers ", ok ? absl::StrCat(t) : "false",
                             " where ToUnixMillis answers ",
                             ms.ok() ? absl::StrCat(*ms) : ms.status().ToString()));
                       }
                     }
                     return AsBe64(ms);
                   }};
  def.others.push_back(
      {"wide_calendar", harness::Role::kOptimizedTier,
       [r](const ts::CivilDateTime& c) -> Output { return AsBe64(WideToUnixMillis(c, r)); }});
  if (r == ts::Rounding::kFloor) {
    def.others.push_back(
        {"abseil", harness::Role::kOracle, oracle::abseil::kOrigin,
         [](const ts::CivilDateTime& c) -> Output { return AsBe64(oab::ToUnixMillisFloor(c)); }});
  }
  def.others.push_back({"slow", [r](const ts::CivilDateTime& c) -> Output {
                          return AsBe64(rts::ToUnixMillis(c, r));
                        }});
  return def;
}

harness::TargetDef<int64_t> MillisToCivil() {
  auto def = Base<int64_t>("timestamp_millis_to_civil",
                           "int64 ms -> CivilDateTime (exact; OutOfRange beyond year 1..9999): "
                           "optimized vs Abseil vs slow; output civil bytes, shown as ISO text",
                           MillisDomain(), ShowCivilOutput);
  // (TryFromUnixMillis needs no check here: FromUnixMillis is TryFromUnixMillis with a status.)
  def.optimized = {"optimized",
                   [](const int64_t& ms) -> Output { return AsCanon(ts::FromUnixMillis(ms)); }};
  def.others.push_back(
      {"wide_calendar", harness::Role::kOptimizedTier, [](const int64_t& ms) -> Output {
         return AsCanon(WideFromCount(ms, 1000, ts::kMinUnixMillis, ts::kMaxUnixMillis));
       }});
  def.others.push_back(
      {"abseil", harness::Role::kOracle, oracle::abseil::kOrigin,
       [](const int64_t& ms) -> Output { return AsCanon(oab::FromUnixMillis(ms)); }});
  def.others.push_back(
      {"slow", [](const int64_t& ms) -> Output { return AsCanon(rts::FromUnixMillis(ms)); }});
  return def;
}

harness::TargetDef<ts::CivilDateTime> CivilToMicros() {
  auto def = Base<ts::CivilDateTime>(
      "timestamp_civil_to_micros",
      "CivilDateTime -> int64 µs (exact): optimized vs Abseil vs slow; output 8 bytes BE",
      CivilDomain(), ShowInt64Output);
  def.optimized = {"optimized", [](const ts::CivilDateTime& c) -> Output {
                     return AsBe64(ts::ToUnixMicros(c));
                   }};
  def.others.push_back(
      {"wide_calendar", harness::Role::kOptimizedTier,
       [](const ts::CivilDateTime& c) -> Output { return AsBe64(WideToUnixMicros(c)); }});
  def.others.push_back(
      {"abseil", harness::Role::kOracle, oracle::abseil::kOrigin,
       [](const ts::CivilDateTime& c) -> Output { return AsBe64(oab::ToUnixMicros(c)); }});
  def.others.push_back(
      {"slow", [](const ts::CivilDateTime& c) -> Output { return AsBe64(rts::ToUnixMicros(c)); }});
  return def;
}

harness::TargetDef<int64_t> MicrosToCivil() {
  auto def = Base<int64_t>("timestamp_micros_to_civil",
                           "int64 µs -> CivilDateTime (exact; OutOfRange beyond year 1..9999): "
                           "optimized vs Abseil vs slow; output civil bytes, shown as ISO text",
                           MicrosDomain(), ShowCivilOutput);
  def.optimized = {"optimized",
                   [](const int64_t& us) -> Output { return AsCanon(ts::FromUnixMicros(us)); }};
  def.others.push_back(
      {"wide_calendar", harness::Role::kOptimizedTier, [](const int64_t& us) -> Output {
         return AsCanon(WideFromCount(us, 1'000'000, ts::kMinUnixMicros, ts::kMaxUnixMicros));
       }});
  def.others.push_back(
      {"abseil", harness::Role::kOracle, oracle::abseil::kOrigin,
       [](const int64_t& us) -> Output { return AsCanon(oab::FromUnixMicros(us)); }});
  def.others.push_back(
      {"slow", [](const int64_t& us) -> Output { return AsCanon(rts::FromUnixMicros(us)); }});
  return def;
}

harness::TargetDef<int64_t> MicrosToMillis(ts::Rounding r) {
  auto def = Base<int64_t>(
      absl::StrCat("timestamp_micros_to_millis_", ModeName(r)),
      absl::StrCat("int64 µs -> int64 ms rounded ", ModeName(r), " (any int64): optimized vs slow",
                   r == ts::Rounding::kFloor ? " vs Abseil ToUnixMillis(FromUnixMicros)" : "",
                   "; output 8 bytes BE"),
      MicrosDomain(), ShowInt64Output);
  def.optimized = {"optimized",
                   [r](const int64_t& us) -> Output { return Be64(ts::MicrosToMillis(us, r)); }};
  if (r == ts::Rounding::kFloor) {
    def.others.push_back({"abseil", harness::Role::kOracle, oracle::abseil::kOrigin,
                          [](const int64_t& us) -> Output {
                            return Be64(absl::ToUnixMillis(absl::FromUnixMicros(us)));
                          }});
  }
  def.others.push_back(
      {"slow", [r](const int64_t& us) -> Output { return Be64(rts::MicrosToMillis(us, r)); }});
  return def;
}

// ---- double seconds -------------------------------------------------------------------------

harness::TargetDef<ts::CivilDateTime> CivilToSeconds() {
  auto def = Base<ts::CivilDateTime>(
      "timestamp_civil_to_seconds",
      "CivilDateTime -> double seconds, the double nearest to µs / 10^6: optimized (integer "
      "rounding above 2^53 µs) vs slow (decimal text through strtod); output IEEE bytes BE",
      CivilDomain(), ShowDoubleOutput);
  def.optimized = {"optimized", [](const ts::CivilDateTime& c) -> Output {
                     return Wrap(ts::ToUnixSeconds(c), DoubleBytes);
                   }};
  def.others.push_back({"slow", [](const ts::CivilDateTime& c) -> Output {
                          return Wrap(rts::ToUnixSeconds(c), DoubleBytes);
                        }});
  return def;
}

harness::TargetDef<Seconds> SecondsToMicros(ts::Rounding r) {
  auto def = Base<Seconds>(
      absl::StrCat("timestamp_seconds_to_micros_", ModeName(r)),
      absl::StrCat("double seconds -> int64 µs, the exact value rounded ", ModeName(r),
                   " (NaN/inf InvalidArgument, beyond int64 OutOfRange): optimized (bit "
                   "decomposition) vs slow (exact %.1100f decimal); output 8 bytes BE"),
      SecondsDomain(), ShowInt64Output);
  def.optimized = {"optimized", [r](const Seconds& s) -> Output {
                     return AsBe64(ts::UnixMicrosFromSeconds(s.value, r));
                   }};
  def.others.push_back({"slow", [r](const Seconds& s) -> Output {
                          return AsBe64(rts::UnixMicrosFromSeconds(s.value, r));
                        }});
  return def;
}

void RegisterTargets(harness::Registry& registry) {
  // Fuzz limits (docs/fuzzing.md, "Limits"; fuzz/limits.tsv is generated from these):
  // max_len, the heap bound at the largest input, the per-input timeout, the derivation.
  registry.SetFuzzLimits(
      "timestamp_*", {64, 1024, 25, "fixed bound 1 KiB (scalar inputs, largest seed 29 bytes)"});
  for (ts::Rounding r : ts::kAllRoundings) registry.Add(CivilToMillis(r));
  registry.Add(MillisToCivil());
  registry.Add(CivilToMicros());
  registry.Add(MicrosToCivil());
  for (ts::Rounding r : ts::kAllRoundings) registry.Add(MicrosToMillis(r));
  registry.Add(CivilToSeconds());
  for (ts::Rounding r : ts::kAllRoundings) registry.Add(SecondsToMicros(r));
  registry.Add(DaysToCqlDate());
  registry.Add(CivilToCqlDate());
  registry.Add(CqlDateToCivil());
  for (ts::Rounding r : ts::kAllRoundings) registry.Add(MillisToCqlDate(r));
  registry.Add(TimeOfDayToCqlTime());
  registry.Add(CqlTimeToTimeOfDay());
  registry.Add(CivilToCqlTime());
  for (ts::Rounding r : ts::kAllRoundings) registry.Add(CqlTimeToMicrosOfDay(r));
  registry.Add(DriverSerialize());
  registry.Add(DriverDeserialize());
  registry.Add(DriverRoundTrip());
  registry.Add(MillisRoundTrip());
  registry.Add(MicrosRoundTrip());
  registry.Add(CivilRoundTrip());
  registry.Add(CqlDateRoundTrip());
  registry.Add(CqlTimeRoundTrip());
  registry.Add(SecondsRoundTrip());
}

SERDIFF_REGISTER_FAMILY("timestamp", RegisterTargets);

}  // namespace serdiff::targets::timestamp
