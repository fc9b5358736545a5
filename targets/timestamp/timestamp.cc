// Timestamp family targets: optimized serdiff::timestamp vs Abseil's time library and the slow
// counting reference (serdiff::ref::timestamp), plus the two python-driver behaviours compared
// on purpose. Names (targets/timestamp/timestamp.targets lists them, one fuzz binary each):
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
// (ts_domains::CivilBytes; reports show them as ISO text), doubles as their 8 IEEE bytes
// big-endian. Every valid output fits std::string's inline buffer, so judging a passing input
// allocates no output.
#include <algorithm>
#include <bit>
#include <cmath>
#include <cstdint>
#include <limits>
#include <string>
#include <utility>
#include <vector>

#include "absl/strings/escaping.h"
#include "absl/strings/str_cat.h"
#include "absl/strings/str_format.h"
#include "absl/time/civil_time.h"
#include "absl/time/time.h"
#include "harness/domains.h"
#include "harness/target.h"
#include "oracles/abseil/time.h"
#include "reference/timestamp/timestamp_ref.h"
#include "serdiff/timestamp/timestamp.h"
#include "targets/families.h"
#include "targets/timestamp/domains.h"

namespace serdiff::targets {
namespace {

namespace ts = ::serdiff::timestamp;
namespace rts = ::serdiff::ref::timestamp;
namespace oab = ::serdiff::oracle::abseil;
using harness::Output;
using ts_domains::Seconds;

// The python_driver_3_25 implementation: not the driver itself, but serdiff's op-by-op model
// of its float arithmetic, checked against the driver's own outputs by the golden vectors.
constexpr char kPythonDriverModel[] =
    "src/serdiff/timestamp: serdiff's model of python-driver 3.25's float arithmetic "
    "(DriverFloat*, checked by oracles/python_cassandra/timestamp_vectors.txt)";

constexpr int64_t kTwo33SecondsMillis = (int64_t{1} << 33) * 1000;

// ---- canonical outputs ------------------------------------------------------------------

std::string Be64(int64_t v) {
  std::string s(8, '\0');
  for (int i = 0; i < 8; ++i) s[i] = static_cast<char>(static_cast<uint64_t>(v) >> (56 - 8 * i));
  return s;
}
int64_t ReadBe64(const std::string& s) {
  uint64_t v = 0;
  for (int i = 0; i < 8 && i < static_cast<int>(s.size()); ++i) {
    v = (v << 8) | static_cast<unsigned char>(s[i]);
  }
  return static_cast<int64_t>(v);
}
std::string Be32(uint32_t v) {
  std::string s(4, '\0');
  for (int i = 0; i < 4; ++i) s[i] = static_cast<char>(v >> (24 - 8 * i));
  return s;
}
uint32_t ReadBe32(const std::string& s) {
  uint32_t v = 0;
  for (int i = 0; i < 4 && i < static_cast<int>(s.size()); ++i) {
    v = (v << 8) | static_cast<unsigned char>(s[i]);
  }
  return v;
}
std::string DoubleBytes(double d) { return Be64(std::bit_cast<int64_t>(d)); }

// Texts for reports (ShowMillisOutput, ShowRawOutput).
std::string Text(const ts::CivilDateTime& c) { return ts_domains::CivilText(c); }
std::string Text(const ts::CivilDay& d) { return ts_domains::DayText(d); }

// Canonical output bytes of civil values (ts_domains::CivilBytes: compact, no allocation for a
// valid value), shown as text by ShowCivilOutput and friends.
std::string Canon(const ts::CivilDateTime& c) { return ts_domains::CivilBytes(c); }
std::string Canon(const ts::CivilDay& d) { return ts_domains::DayBytes(d); }
std::string Canon(const ts::TimeOfDay& t) { return ts_domains::TimeBytes(t); }

template <typename T, typename F>
Output Wrap(const absl::StatusOr<T>& v, F encode) {
  if (!v.ok()) return v.status();
  return encode(*v);
}
template <typename T>
Output AsCanon(const absl::StatusOr<T>& v) {
  return Wrap(v, [](const T& x) { return Canon(x); });
}
Output AsBe64(const absl::StatusOr<int64_t>& v) { return Wrap(v, Be64); }
Output AsBe32(const absl::StatusOr<uint32_t>& v) { return Wrap(v, Be32); }

std::string ShowInt64Output(const std::string& out) { return absl::StrCat(ReadBe64(out)); }
std::string ShowMillisOutput(const std::string& out) {
  const int64_t ms = ReadBe64(out);
  absl::StatusOr<ts::CivilDateTime> c = oab::FromUnixMillis(ms);
  return absl::StrCat(ms, " ms", c.ok() ? absl::StrCat(" = ", Text(*c)) : "");
}
std::string ShowRawOutput(const std::string& out) {
  const uint32_t raw = ReadBe32(out);
  return absl::StrCat("raw ", raw, " = day ", static_cast<int64_t>(raw) - (int64_t{1} << 31), " = ",
                      Text(oab::CivilFromCqlDate(raw)));
}
std::string ShowDoubleOutput(const std::string& out) {
  return absl::StrFormat("%.17g", std::bit_cast<double>(ReadBe64(out)));
}
// The civil outputs as text ("1969-12-31T23:59:59.999999"); bytes of no civil form as hex.
template <typename V>
std::string ShowCanon(const absl::StatusOr<V>& v, const std::string& out,
                      std::string (*text)(const V&)) {
  return v.ok() ? text(*v) : absl::StrCat("0x", absl::BytesToHexString(out));
}
std::string ShowCivilOutput(const std::string& out) {
  return ShowCanon(ts_domains::CivilOfBytes(out), out, ts_domains::CivilText);
}
std::string ShowDayOutput(const std::string& out) {
  return ShowCanon(ts_domains::DayOfBytes(out), out, ts_domains::DayText);
}
std::string ShowTimeOutput(const std::string& out) {
  return ShowCanon(ts_domains::TimeOfBytes(out), out, ts_domains::TimeText);
}

std::string ModeName(ts::Rounding r) { return std::string(ts::RoundingName(r)); }

// Small, constant heap: the output string, or on errors a status message (at most a few
// hundred bytes); nothing proportional to anything.
constexpr int64_t kHeapBound = 1024;

template <typename T>
harness::TargetDef<T> Base(std::string name, std::string description, harness::Domain<T> domain,
                           std::function<std::string(const std::string&)> show_output) {
  harness::TargetDef<T> def;
  def.name = std::move(name);
  def.description = std::move(description);
  def.domain = std::move(domain);
  def.heap_bound = harness::HeapBound<T>::Fixed(kHeapBound);
  def.offsets = harness::OffsetPolicy::kNotApplicable;
  def.offsets_reason =
      "the input is a value (civil fields, a count, a double), not bytes: errors name the field";
  def.show_output = std::move(show_output);
  return def;
}

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

harness::TargetDef<ts::CivilDateTime> CivilToMillis(ts::Rounding r) {
  auto def = Base<ts::CivilDateTime>(
      absl::StrCat("timestamp_civil_to_millis_", ModeName(r)),
      absl::StrCat("CivilDateTime -> int64 ms rounded ", ModeName(r), ": optimized vs slow",
                   r == ts::Rounding::kFloor ? " vs Abseil absl::ToUnixMillis" : "",
                   "; output 8 bytes BE"),
      ts_domains::CivilDomain(), ShowMillisOutput);
  def.optimized = {"optimized", [r](const ts::CivilDateTime& c) -> Output {
                     return AsBe64(ts::ToUnixMillis(c, r));
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
                           ts_domains::MillisDomain(), ShowCivilOutput);
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
      ts_domains::CivilDomain(), ShowInt64Output);
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
                           ts_domains::MicrosDomain(), ShowCivilOutput);
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
      ts_domains::MicrosDomain(), ShowInt64Output);
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
      ts_domains::CivilDomain(), ShowDoubleOutput);
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
      ts_domains::SecondsDomain(), ShowInt64Output);
  def.optimized = {"optimized", [r](const Seconds& s) -> Output {
                     return AsBe64(ts::UnixMicrosFromSeconds(s.value, r));
                   }};
  def.others.push_back({"slow", [r](const Seconds& s) -> Output {
                              return AsBe64(rts::UnixMicrosFromSeconds(s.value, r));
                            }});
  return def;
}

// ---- CQL date -------------------------------------------------------------------------------

harness::TargetDef<int64_t> DaysToCqlDate() {
  auto def = Base<int64_t>(
      "timestamp_days_to_cql_date",
      "int64 day count -> CQL date raw = days + 2^31 (OutOfRange outside int32, never wrapped): "
      "optimized vs slow; output 4 bytes BE",
      ts_domains::DaysDomain(), ShowRawOutput);
  def.optimized = {"optimized",
                   [](const int64_t& d) -> Output { return AsBe32(ts::CqlDateFromDays(d)); }};
  def.others.push_back(
      {"slow", [](const int64_t& d) -> Output { return AsBe32(rts::CqlDateFromDays(d)); }});
  def.checks.push_back({"inverse", [](const int64_t& d, const std::string& out) {
                          const int64_t back = ts::DaysFromCqlDate(ReadBe32(out));
                          if (back == d) return absl::OkStatus();
                          return absl::InternalError(absl::StrCat("DaysFromCqlDate gave ", back));
                        }});
  return def;
}

harness::TargetDef<ts::CivilDay> CivilToCqlDate() {
  auto def = Base<ts::CivilDay>(
      "timestamp_civil_to_cql_date",
      "CivilDay -> CQL date raw: optimized vs Abseil (CivilDay difference) vs slow (counting); "
      "output 4 bytes BE",
      ts_domains::DayDomain(), ShowRawOutput);
  def.optimized = {"optimized",
                   [](const ts::CivilDay& d) -> Output { return AsBe32(ts::CqlDateFromCivil(d)); }};
  def.others.push_back(
      {"abseil", harness::Role::kOracle, oracle::abseil::kOrigin,
       [](const ts::CivilDay& d) -> Output { return AsBe32(oab::CqlDateFromCivil(d)); }});
  def.others.push_back(
      {"slow", [](const ts::CivilDay& d) -> Output { return AsBe32(rts::CqlDateFromCivil(d)); }});
  return def;
}

harness::TargetDef<uint32_t> CqlDateToCivil() {
  auto def = Base<uint32_t>(
      "timestamp_cql_date_to_civil",
      "CQL date raw -> CivilDay (every uint32 is a date): optimized vs Abseil vs slow; output day "
      "bytes, shown as ISO text",
      ts_domains::RawDateDomain(), ShowDayOutput);
  def.optimized = {"optimized",
                   [](const uint32_t& raw) -> Output { return Canon(ts::CivilFromCqlDate(raw)); }};
  def.others.push_back(
      {"abseil", harness::Role::kOracle, oracle::abseil::kOrigin,
       [](const uint32_t& raw) -> Output { return Canon(oab::CivilFromCqlDate(raw)); }});
  def.others.push_back(
      {"slow", [](const uint32_t& raw) -> Output { return Canon(rts::CivilFromCqlDate(raw)); }});
  return def;
}

harness::TargetDef<int64_t> MillisToCqlDate(ts::Rounding r) {
  auto def = Base<int64_t>(
      absl::StrCat("timestamp_millis_to_cql_date_", ModeName(r)),
      absl::StrCat("int64 ms -> CQL date raw of the day rounded ", ModeName(r),
                   ": optimized vs slow", r == ts::Rounding::kFloor ? " vs Abseil ToCivilDay" : "",
                   "; output 4 bytes BE"),
      ts_domains::MillisDomain(), ShowRawOutput);
  def.optimized = {"optimized", [r](const int64_t& ms) -> Output {
                     return AsBe32(ts::CqlDateFromUnixMillis(ms, r));
                   }};
  if (r == ts::Rounding::kFloor) {
    def.others.push_back(
        {"abseil", harness::Role::kOracle, oracle::abseil::kOrigin,
         [](const int64_t& ms) -> Output { return AsBe32(oab::CqlDateFromUnixMillisFloor(ms)); }});
  }
  def.others.push_back({"slow", [r](const int64_t& ms) -> Output {
                              return AsBe32(rts::CqlDateFromUnixMillis(ms, r));
                            }});
  return def;
}

// ---- CQL time -------------------------------------------------------------------------------

harness::TargetDef<ts::TimeOfDay> TimeOfDayToCqlTime() {
  auto def = Base<ts::TimeOfDay>(
      "timestamp_time_of_day_to_cql_time",
      "TimeOfDay -> CQL time ns since midnight (InvalidArgument for 24:00 etc.): optimized vs "
      "slow; output 8 bytes BE",
      ts_domains::TimeOfDayDomain(), ShowInt64Output);
  def.optimized = {"optimized", [](const ts::TimeOfDay& t) -> Output {
                     return AsBe64(ts::CqlTimeFromTimeOfDay(t));
                   }};
  def.others.push_back({"slow", [](const ts::TimeOfDay& t) -> Output {
                              return AsBe64(rts::CqlTimeFromTimeOfDay(t));
                            }});
  return def;
}

harness::TargetDef<int64_t> CqlTimeToTimeOfDay() {
  auto def = Base<int64_t>(
      "timestamp_cql_time_to_time_of_day",
      "CQL time ns -> TimeOfDay (OutOfRange outside 0..86399999999999, negatives included): "
      "optimized vs slow; output time bytes, shown as text",
      ts_domains::CqlTimeDomain(), ShowTimeOutput);
  def.optimized = {"optimized", [](const int64_t& ns) -> Output {
                     return AsCanon(ts::TimeOfDayFromCqlTime(ns));
                   }};
  def.others.push_back(
      {"slow", [](const int64_t& ns) -> Output { return AsCanon(ts::TimeOfDayFromCqlTime(ns)); }});
  return def;
}

harness::TargetDef<ts::CivilDateTime> CivilToCqlTime() {
  auto def = Base<ts::CivilDateTime>(
      "timestamp_civil_to_cql_time",
      "CivilDateTime -> CQL time of its time of day (µs * 1000): optimized vs slow; output 8 "
      "bytes BE",
      ts_domains::CivilDomain(), ShowInt64Output);
  def.optimized = {"optimized", [](const ts::CivilDateTime& c) -> Output {
                     return AsBe64(ts::CqlTimeFromCivil(c));
                   }};
  def.others.push_back({"slow", [](const ts::CivilDateTime& c) -> Output {
                              return AsBe64(rts::CqlTimeFromCivil(c));
                            }});
  return def;
}

harness::TargetDef<int64_t> CqlTimeToMicrosOfDay(ts::Rounding r) {
  auto def = Base<int64_t>(
      absl::StrCat("timestamp_cql_time_to_micros_of_day_", ModeName(r)),
      absl::StrCat("CQL time ns -> µs since midnight rounded ", ModeName(r),
                   " (OutOfRange when it rounds to 24:00:00): optimized vs slow; output 8 bytes "
                   "BE"),
      ts_domains::CqlTimeDomain(), ShowInt64Output);
  def.optimized = {"optimized", [r](const int64_t& ns) -> Output {
                     return AsBe64(ts::MicrosOfDayFromCqlTime(ns, r));
                   }};
  def.others.push_back({"slow", [r](const int64_t& ns) -> Output {
                              return AsBe64(rts::MicrosOfDayFromCqlTime(ns, r));
                            }});
  return def;
}

// ---- the two driver behaviours, compared on purpose -----------------------------------------

// Accepted only in the shape explained by the reason: the float path is one ms above floor,
// and the input has a sub-millisecond part (whole-ms inputs must agree exactly).
bool OneAboveFloor(const ts::CivilDateTime& c, const Output& floor_out, const Output& other) {
  return floor_out.ok() && other.ok() && c.microsecond % 1000 != 0 &&
         ReadBe64(*other) == ReadBe64(*floor_out) + 1;
}

harness::TargetDef<ts::CivilDateTime> DriverSerialize() {
  auto def = Base<ts::CivilDateTime>(
      "timestamp_driver_serialize",
      "datetime -> CQL timestamp ms as drivers do it: integer floor (scylladb python-driver "
      "HEAD, BSON) vs Abseil floor vs python-driver 3.25 float seconds then truncate; output 8 "
      "bytes BE",
      ts_domains::CivilDomain(), ShowMillisOutput);
  def.optimized = {"optimized", [](const ts::CivilDateTime& c) -> Output {
                     return AsBe64(ts::DriverIntegerFloorMillis(c));
                   }};
  def.others.push_back(
      {"abseil", harness::Role::kOracle, oracle::abseil::kOrigin,
       [](const ts::CivilDateTime& c) -> Output { return AsBe64(oab::ToUnixMillisFloor(c)); }});
  def.others.push_back({"python_driver_3_25", harness::Role::kOracle, kPythonDriverModel,
                            [](const ts::CivilDateTime& c) -> Output {
                              return AsBe64(ts::DriverFloatTruncateMillis(c));
                            }});
  // The same two divergences for the model of driver 3.25 above and for the live driver
  // (the python_cassandra worker, oracles/python_cassandra/worker.json, which takes the civil
  // fields through the interchange below): the live driver shows exactly what the model does.
  for (const char* driver : {"python_driver_3_25", "python_cassandra"}) {
    def.divergences.push_back(
        {driver,
         "before 1970, driver 3.25's int() truncates toward zero where integer drivers floor: a "
         "sub-ms part gives floor + 1 (1969-12-31T23:59:59.999500 -> 0, not -1; "
         "docs/timestamp.md)",
         [](const ts::CivilDateTime& c, const Output& opt, const Output& other) {
           return OneAboveFloor(c, opt, other) && ReadBe64(*opt) < 0;
         }});
    def.divergences.push_back(
        {driver,
         "driver 3.25 adds seconds*1e3 and microsecond/1e3 in a double; when the ulp of the sum "
         "is coarse (up to 1/32 ms near 9999) it rounds up to the next whole ms before int() "
         "(9999-12-31T23:59:59.999999 -> 253402300800000, one past the last valid ms; "
         "docs/timestamp.md)",
         [](const ts::CivilDateTime& c, const Output& opt, const Output& other) {
           return OneAboveFloor(c, opt, other) && ReadBe64(*opt) >= 0;
         }});
  }
  // docs/workers.md, op "timestamp.civil_to_cql": the civil fields, nanoseconds of the second;
  // the answer is the 8-byte big-endian ms, the target's own output form.
  def.interchange.op = "timestamp.civil_to_cql";
  def.interchange.input_json = [](const ts::CivilDateTime& c) -> absl::StatusOr<std::string> {
    return absl::StrCat("{\"year\":", c.year, ",\"month\":", c.month, ",\"day\":", c.day,
                        ",\"hour\":", c.hour, ",\"minute\":", c.minute, ",\"second\":", c.second,
                        ",\"nanos\":", int64_t{c.microsecond} * 1000, "}");
  };
  return def;
}

// Half an ulp of the double nearest ms / 1000, in µs, rounded up, plus the final µs rounding.
int64_t FloatSecondsErrorBoundMicros(int64_t ms) {
  const double s = std::fabs(static_cast<double>(ms) / 1000.0);
  const double ulp = std::nextafter(s, std::numeric_limits<double>::infinity()) - s;
  return static_cast<int64_t>(std::ceil(ulp / 2 * 1e6)) + 1;
}

harness::TargetDef<int64_t> DriverDeserialize() {
  auto def = Base<int64_t>(
      "timestamp_driver_deserialize",
      "CQL timestamp ms -> datetime as drivers do it: exact integer (scylladb HEAD, "
      "timedelta(milliseconds=ms)) vs Abseil vs python-driver 3.25 timedelta(seconds=ms/1000.0); "
      "output civil bytes, shown as ISO text",
      ts_domains::MillisDomain(), ShowCivilOutput);
  def.optimized = {"optimized", [](const int64_t& ms) -> Output {
                     return AsCanon(ts::DriverIntegerFromMillis(ms));
                   }};
  def.others.push_back(
      {"abseil", harness::Role::kOracle, oracle::abseil::kOrigin,
       [](const int64_t& ms) -> Output { return AsCanon(oab::FromUnixMillis(ms)); }});
  def.others.push_back(
      {"python_driver_3_25", harness::Role::kOracle, kPythonDriverModel,
       [](const int64_t& ms) -> Output { return AsCanon(ts::DriverFloatSecondsFromMillis(ms)); }});
  def.divergences.push_back(
      {"python_driver_3_25",
       "driver 3.25 divides ms by 1000.0 in a double; once |seconds| >= 2^33 (after 2242-03-16, "
       "before 1697-10-17) half an ulp exceeds 0.5 µs and the µs it rounds to can miss the exact "
       "value by up to half an ulp (10425520380477 -> .476999; docs/timestamp.md)",
       [](const int64_t& ms, const Output& opt, const Output& other) {
         if (!opt.ok() || !other.ok()) return false;
         if (ms > -kTwo33SecondsMillis && ms < kTwo33SecondsMillis) return false;
         absl::StatusOr<int64_t> a = ts_domains::MicrosOfCivilBytes(*opt);
         absl::StatusOr<int64_t> b = ts_domains::MicrosOfCivilBytes(*other);
         if (!a.ok() || !b.ok()) return false;
         return std::abs(*a - *b) <= FloatSecondsErrorBoundMicros(ms);
       }});
  return def;
}

absl::StatusOr<int64_t> IdentityInRange(int64_t ms) {
  if (ms < ts_domains::RefMinMillis() || ms > ts_domains::RefMaxMillis()) {
    return absl::OutOfRangeError("outside year 1..9999");
  }
  return ms;
}

harness::TargetDef<int64_t> DriverRoundTrip() {
  auto def = Base<int64_t>(
      "timestamp_driver_roundtrip",
      "ms -> datetime -> ms through a driver pair: integer pair (scylladb HEAD) vs identity vs "
      "python-driver 3.25 pair (the flaky round trip of docs/timestamp.md); output 8 bytes BE",
      ts_domains::MillisDomain(), ShowMillisOutput);
  def.optimized = {"optimized", [](const int64_t& ms) -> Output {
                     absl::StatusOr<ts::CivilDateTime> c = ts::DriverIntegerFromMillis(ms);
                     if (!c.ok()) return c.status();
                     return AsBe64(ts::DriverIntegerFloorMillis(*c));
                   }};
  def.others.push_back(
      {"identity", harness::Role::kReference, "targets/timestamp: the input itself, if in range",
       [](const int64_t& ms) -> Output { return AsBe64(IdentityInRange(ms)); }});
  def.others.push_back({"python_driver_3_25", harness::Role::kOracle, kPythonDriverModel,
                            [](const int64_t& ms) -> Output {
                              absl::StatusOr<ts::CivilDateTime> c =
                                  ts::DriverFloatSecondsFromMillis(ms);
                              if (!c.ok()) return c.status();
                              return AsBe64(ts::DriverFloatTruncateMillis(*c));
                            }});
  def.divergences.push_back(
      {"python_driver_3_25",
       "driver 3.25 deserializes through ms / 1000.0 and serializes with a truncating int(): "
       "once |seconds| >= 2^33 the µs can land on .xxx999 (or .xxx001 before 1970) and the "
       "round trip loses one ms (10425520380477 -> 10425520380476, -11654632814640 -> "
       "-11654632814639; docs/timestamp.md)",
       [](const int64_t& ms, const Output& opt, const Output& other) {
         if (!opt.ok() || !other.ok()) return false;
         if (ms > -kTwo33SecondsMillis && ms < kTwo33SecondsMillis) return false;
         return std::abs(ReadBe64(*opt) - ReadBe64(*other)) == 1;
       }});
  return def;
}

// ---- round trips ----------------------------------------------------------------------------

harness::TargetDef<int64_t> MillisRoundTrip() {
  auto def = Base<int64_t>(
      "timestamp_millis_roundtrip",
      "ms -> CivilDateTime -> ms (floor) is the identity for every ms of year 1..9999 and an "
      "OutOfRange error outside; output 8 bytes BE",
      ts_domains::MillisDomain(), ShowMillisOutput);
  def.optimized = {"optimized", [](const int64_t& ms) -> Output {
                     absl::StatusOr<ts::CivilDateTime> c = ts::FromUnixMillis(ms);
                     if (!c.ok()) return c.status();
                     return AsBe64(ts::ToUnixMillis(*c));
                   }};
  def.others.push_back(
      {"identity", harness::Role::kReference, "targets/timestamp: the input itself, if in range",
       [](const int64_t& ms) -> Output { return AsBe64(IdentityInRange(ms)); }});
  return def;
}

harness::TargetDef<int64_t> MicrosRoundTrip() {
  auto def = Base<int64_t>(
      "timestamp_micros_roundtrip",
      "µs -> CivilDateTime -> µs is the identity for every µs of year 1..9999; output 8 bytes BE",
      ts_domains::MicrosDomain(), ShowInt64Output);
  def.optimized = {"optimized", [](const int64_t& us) -> Output {
                     absl::StatusOr<ts::CivilDateTime> c = ts::FromUnixMicros(us);
                     if (!c.ok()) return c.status();
                     return AsBe64(ts::ToUnixMicros(*c));
                   }};
  def.others.push_back({"identity", [](const int64_t& us) -> Output {
                              if (us < ts_domains::RefMinMillis() * 1000 ||
                                  us > ts_domains::RefMaxMillis() * 1000 + 999) {
                                return absl::OutOfRangeError("outside year 1..9999");
                              }
                              return Be64(us);
                            }});
  return def;
}

harness::TargetDef<ts::CivilDateTime> CivilRoundTrip() {
  auto def = Base<ts::CivilDateTime>(
      "timestamp_civil_roundtrip",
      "CivilDateTime -> ms (floor) -> CivilDateTime gives the value floored to its millisecond "
      "(the identity for whole-ms values); output civil bytes, shown as ISO text",
      ts_domains::CivilDomain(), ShowCivilOutput);
  def.optimized = {"optimized", [](const ts::CivilDateTime& c) -> Output {
                     absl::StatusOr<int64_t> ms = ts::ToUnixMillis(c);
                     if (!ms.ok()) return ms.status();
                     return AsCanon(ts::FromUnixMillis(*ms));
                   }};
  def.others.push_back({"identity", [](const ts::CivilDateTime& c) -> Output {
                              ts::CivilDateTime r = (c);
                              if (absl::StatusOr<int64_t> us = rts::ToUnixMicros(r); !us.ok()) {
                                return us.status();
                              }
                              r.microsecond -= r.microsecond % 1000;
                              return Canon(r);
                            }});
  return def;
}

harness::TargetDef<uint32_t> CqlDateRoundTrip() {
  auto def = Base<uint32_t>(
      "timestamp_cql_date_roundtrip",
      "CQL date raw -> CivilDay -> raw is the identity for every uint32; output 4 bytes BE",
      ts_domains::RawDateDomain(), ShowRawOutput);
  def.optimized = {"optimized", [](const uint32_t& raw) -> Output {
                     return AsBe32(ts::CqlDateFromCivil(ts::CivilFromCqlDate(raw)));
                   }};
  def.others.push_back({"identity", [](const uint32_t& raw) -> Output { return Be32(raw); }});
  return def;
}

harness::TargetDef<int64_t> CqlTimeRoundTrip() {
  auto def = Base<int64_t>(
      "timestamp_cql_time_roundtrip",
      "CQL time ns -> TimeOfDay -> ns is the identity on 0..86399999999999; output 8 bytes BE",
      ts_domains::CqlTimeDomain(), ShowInt64Output);
  def.optimized = {"optimized", [](const int64_t& ns) -> Output {
                     absl::StatusOr<ts::TimeOfDay> t = ts::TimeOfDayFromCqlTime(ns);
                     if (!t.ok()) return t.status();
                     return AsBe64(ts::CqlTimeFromTimeOfDay(*t));
                   }};
  def.others.push_back({"identity", [](const int64_t& ns) -> Output {
                              if (ns < 0 || ns >= 86400LL * 1000000000LL) {
                                return absl::OutOfRangeError("outside 0..86399999999999");
                              }
                              return Be64(ns);
                            }});
  return def;
}

harness::TargetDef<ts::CivilDateTime> SecondsRoundTrip() {
  auto def = Base<ts::CivilDateTime>(
      "timestamp_seconds_roundtrip",
      "CivilDateTime -> double seconds -> CivilDateTime (half-even) is the identity while "
      "|seconds| < 2^33 (half an ulp < 0.5 µs); output civil bytes, shown as ISO text",
      ts_domains::CivilDomain(), ShowCivilOutput);
  def.optimized = {"optimized", [](const ts::CivilDateTime& c) -> Output {
                     absl::StatusOr<double> s = ts::ToUnixSeconds(c);
                     if (!s.ok()) return s.status();
                     return AsCanon(ts::FromUnixSeconds(*s, ts::Rounding::kHalfEven));
                   }};
  def.others.push_back({"identity", [](const ts::CivilDateTime& c) -> Output {
                              absl::StatusOr<int64_t> us = rts::ToUnixMicros(c);
                              if (!us.ok()) return us.status();
                              const int64_t limit = (int64_t{1} << 33) * 1000000;
                              if (*us <= -limit || *us >= limit) {
                                return harness::Declined(
                                    "|seconds| >= 2^33: a double's half-ulp exceeds 0.5 µs, the "
                                    "round trip is not the identity there (docs/timestamp.md)");
                              }
                              return Canon(c);
                            }});
  return def;
}

}  // namespace

void RegisterTimestampTargets(harness::Registry& registry) {
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

SERDIFF_REGISTER_FAMILY("timestamp", RegisterTimestampTargets);

}  // namespace serdiff::targets
