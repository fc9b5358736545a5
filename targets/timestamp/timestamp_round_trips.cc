// Timestamp family targets of the round trips (registered in timestamp.cc, which lists every
// target): timestamp_millis_roundtrip, timestamp_micros_roundtrip, timestamp_civil_roundtrip,
// timestamp_cql_date_roundtrip, timestamp_cql_time_roundtrip and timestamp_seconds_roundtrip,
// each the optimized conversions there and back against the input itself ("identity").
#include <cstdint>

#include "absl/status/status.h"
#include "absl/status/statusor.h"
#include "harness/target.h"
#include "reference/timestamp/timestamp_ref.h"
#include "serdiff/timestamp/timestamp.h"
#include "targets/timestamp/domain.h"
#include "targets/timestamp/internal.h"

namespace serdiff::targets::timestamp {

// ---- round trips ----------------------------------------------------------------------------

harness::TargetDef<int64_t> MillisRoundTrip() {
  auto def = Base<int64_t>(
      "timestamp_millis_roundtrip",
      "ms -> CivilDateTime -> ms (floor) is the identity for every ms of year 1..9999 and an "
      "OutOfRange error outside; output 8 bytes BE",
      MillisDomain(), ShowMillisOutput);
  def.optimized = {"optimized", [](const int64_t& ms) -> Output {
                     absl::StatusOr<ts::CivilDateTime> c = ts::FromUnixMillis(ms);
                     if (!c.ok()) return c.status();
                     return AsBe64(ts::ToUnixMillis(*c));
                   }};
  def.others.push_back({"identity", harness::Role::kReference,
                        "targets/timestamp: the input itself, if in range",
                        [](const int64_t& ms) -> Output { return AsBe64(IdentityInRange(ms)); }});
  return def;
}

harness::TargetDef<int64_t> MicrosRoundTrip() {
  auto def = Base<int64_t>(
      "timestamp_micros_roundtrip",
      "µs -> CivilDateTime -> µs is the identity for every µs of year 1..9999; output 8 bytes BE",
      MicrosDomain(), ShowInt64Output);
  def.optimized = {"optimized", [](const int64_t& us) -> Output {
                     absl::StatusOr<ts::CivilDateTime> c = ts::FromUnixMicros(us);
                     if (!c.ok()) return c.status();
                     return AsBe64(ts::ToUnixMicros(*c));
                   }};
  def.others.push_back({"identity", [](const int64_t& us) -> Output {
                          if (us < RefMinMillis() * 1000 || us > RefMaxMillis() * 1000 + 999) {
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
      CivilDomain(), ShowCivilOutput);
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
      RawDateDomain(), ShowRawOutput);
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
      CqlTimeDomain(), ShowInt64Output);
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
      CivilDomain(), ShowCivilOutput);
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
  // The identity's edges: 2^33 s less one µs on either side of the epoch is answered, 2^33 s
  // itself declined.
  def.others.back().decline_edges = [] {
    const int64_t limit = (int64_t{1} << 33) * 1000000;
    const auto at = [](int64_t us) { return *ts::FromUnixMicros(us); };
    return std::vector<harness::DeclineEdge<ts::CivilDateTime>>{
        {"2^33 s - 1 µs after the epoch (2242-03-16T12:56:31.999999)", at(limit - 1), false},
        {"2^33 s after the epoch", at(limit), true},
        {"2^33 s - 1 µs before the epoch (1697-10-17T11:03:28.000001)", at(-limit + 1), false},
        {"2^33 s before the epoch", at(-limit), true},
    };
  };
  return def;
}

}  // namespace serdiff::targets::timestamp
