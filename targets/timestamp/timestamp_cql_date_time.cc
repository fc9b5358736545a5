// Timestamp family targets of the CQL date and CQL time types (registered in timestamp.cc,
// which lists every target): timestamp_days_to_cql_date, timestamp_civil_to_cql_date,
// timestamp_cql_date_to_civil, timestamp_millis_to_cql_date_<mode>,
// timestamp_time_of_day_to_cql_time, timestamp_cql_time_to_time_of_day,
// timestamp_civil_to_cql_time and timestamp_cql_time_to_micros_of_day_<mode>.
#include <cstdint>
#include <string>

#include "absl/status/status.h"
#include "absl/strings/str_cat.h"
#include "harness/target.h"
#include "oracles/abseil/time.h"
#include "reference/timestamp/timestamp_ref.h"
#include "serdiff/timestamp/timestamp.h"
#include "targets/timestamp/domain.h"
#include "targets/timestamp/internal.h"

namespace serdiff::targets::timestamp {

// ---- CQL date -------------------------------------------------------------------------------

harness::TargetDef<int64_t> DaysToCqlDate() {
  auto def = Base<int64_t>(
      "timestamp_days_to_cql_date",
      "int64 day count -> CQL date raw = days + 2^31 (OutOfRange outside int32, never wrapped): "
      "optimized vs slow; output 4 bytes BE",
      DaysDomain(), ShowRawOutput);
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
      DayDomain(), ShowRawOutput);
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
      RawDateDomain(), ShowDayOutput);
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
      MillisDomain(), ShowRawOutput);
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
      TimeOfDayDomain(), ShowInt64Output);
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
      CqlTimeDomain(), ShowTimeOutput);
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
      CivilDomain(), ShowInt64Output);
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
      CqlTimeDomain(), ShowInt64Output);
  def.optimized = {"optimized", [r](const int64_t& ns) -> Output {
                     return AsBe64(ts::MicrosOfDayFromCqlTime(ns, r));
                   }};
  def.others.push_back({"slow", [r](const int64_t& ns) -> Output {
                          return AsBe64(rts::MicrosOfDayFromCqlTime(ns, r));
                        }});
  return def;
}

}  // namespace serdiff::targets::timestamp
