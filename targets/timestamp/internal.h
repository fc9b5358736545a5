// Timestamp family, private to targets/timestamp/: what the target files share (the canonical
// output forms, their report texts and the base of every definition), and the target builders
// each file defines for the registration in timestamp.cc (in its order):
//   timestamp.cc                civil <-> ms / µs, double seconds, and the registration
//   timestamp_cql_date_time.cc  CQL date and CQL time
//   timestamp_drivers.cc        the two python-driver behaviours, compared on purpose (their
//                               accepted divergences: divergences_python_cassandra.cc)
//   timestamp_round_trips.cc    the round trips
// Other families use targets/timestamp/domain.h instead.
#pragma once

#include <bit>
#include <cstdint>
#include <functional>
#include <string>
#include <utility>

#include "absl/status/status.h"
#include "absl/status/statusor.h"
#include "absl/strings/escaping.h"
#include "absl/strings/str_cat.h"
#include "absl/strings/str_format.h"
#include "harness/target.h"
#include "oracles/abseil/time.h"
#include "reference/timestamp/timestamp_ref.h"
#include "serdiff/timestamp/timestamp.h"
#include "targets/timestamp/domain.h"

namespace serdiff::targets::timestamp {

namespace ts = ::serdiff::timestamp;
namespace rts = ::serdiff::ref::timestamp;
namespace oab = ::serdiff::oracle::abseil;
using harness::Output;

// ---- canonical outputs ------------------------------------------------------------------

inline std::string Be64(int64_t v) {
  std::string s(8, '\0');
  for (int i = 0; i < 8; ++i) s[i] = static_cast<char>(static_cast<uint64_t>(v) >> (56 - 8 * i));
  return s;
}
inline int64_t ReadBe64(const std::string& s) {
  uint64_t v = 0;
  for (int i = 0; i < 8 && i < static_cast<int>(s.size()); ++i) {
    v = (v << 8) | static_cast<unsigned char>(s[i]);
  }
  return static_cast<int64_t>(v);
}
inline std::string Be32(uint32_t v) {
  std::string s(4, '\0');
  for (int i = 0; i < 4; ++i) s[i] = static_cast<char>(v >> (24 - 8 * i));
  return s;
}
inline uint32_t ReadBe32(const std::string& s) {
  uint32_t v = 0;
  for (int i = 0; i < 4 && i < static_cast<int>(s.size()); ++i) {
    v = (v << 8) | static_cast<unsigned char>(s[i]);
  }
  return v;
}
inline std::string DoubleBytes(double d) { return Be64(std::bit_cast<int64_t>(d)); }

// Texts for reports (ShowMillisOutput, ShowRawOutput).
inline std::string Text(const ts::CivilDateTime& c) { return CivilText(c); }
inline std::string Text(const ts::CivilDay& d) { return DayText(d); }

// Canonical output bytes of civil values (CivilBytes: compact, no allocation for a
// valid value), shown as text by ShowCivilOutput and friends.
inline std::string Canon(const ts::CivilDateTime& c) { return CivilBytes(c); }
inline std::string Canon(const ts::CivilDay& d) { return DayBytes(d); }
inline std::string Canon(const ts::TimeOfDay& t) { return TimeBytes(t); }

template <typename T, typename F>
Output Wrap(const absl::StatusOr<T>& v, F encode) {
  if (!v.ok()) return v.status();
  return encode(*v);
}
template <typename T>
Output AsCanon(const absl::StatusOr<T>& v) {
  return Wrap(v, [](const T& x) { return Canon(x); });
}
inline Output AsBe64(const absl::StatusOr<int64_t>& v) { return Wrap(v, Be64); }
inline Output AsBe32(const absl::StatusOr<uint32_t>& v) { return Wrap(v, Be32); }

inline std::string ShowInt64Output(const std::string& out) { return absl::StrCat(ReadBe64(out)); }
inline std::string ShowMillisOutput(const std::string& out) {
  const int64_t ms = ReadBe64(out);
  absl::StatusOr<ts::CivilDateTime> c = oab::FromUnixMillis(ms);
  return absl::StrCat(ms, " ms", c.ok() ? absl::StrCat(" = ", Text(*c)) : "");
}
inline std::string ShowRawOutput(const std::string& out) {
  const uint32_t raw = ReadBe32(out);
  return absl::StrCat("raw ", raw, " = day ", static_cast<int64_t>(raw) - (int64_t{1} << 31), " = ",
                      Text(oab::CivilFromCqlDate(raw)));
}
inline std::string ShowDoubleOutput(const std::string& out) {
  return absl::StrFormat("%.17g", std::bit_cast<double>(ReadBe64(out)));
}
// The civil outputs as text ("1969-12-31T23:59:59.999999"); bytes of no civil form as hex.
template <typename V>
std::string ShowCanon(const absl::StatusOr<V>& v, const std::string& out,
                      std::string (*text)(const V&)) {
  return v.ok() ? text(*v) : absl::StrCat("0x", absl::BytesToHexString(out));
}
inline std::string ShowCivilOutput(const std::string& out) {
  return ShowCanon(CivilOfBytes(out), out, CivilText);
}
inline std::string ShowDayOutput(const std::string& out) {
  return ShowCanon(DayOfBytes(out), out, DayText);
}
inline std::string ShowTimeOutput(const std::string& out) {
  return ShowCanon(TimeOfBytes(out), out, TimeText);
}

inline std::string ModeName(ts::Rounding r) { return std::string(ts::RoundingName(r)); }

// Small, constant heap: the output string, or on errors a status message (at most a few
// hundred bytes); nothing proportional to anything.
inline constexpr int64_t kHeapBound = 1024;

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

// The input itself while it is a ms of year 1..9999 (the reference's range), else OutOfRange.
inline absl::StatusOr<int64_t> IdentityInRange(int64_t ms) {
  if (ms < RefMinMillis() || ms > RefMaxMillis()) {
    return absl::OutOfRangeError("outside year 1..9999");
  }
  return ms;
}

// ---- the target builders ---------------------------------------------------------------------

// timestamp.cc
harness::TargetDef<ts::CivilDateTime> CivilToMillis(ts::Rounding r);
harness::TargetDef<int64_t> MillisToCivil();
harness::TargetDef<ts::CivilDateTime> CivilToMicros();
harness::TargetDef<int64_t> MicrosToCivil();
harness::TargetDef<int64_t> MicrosToMillis(ts::Rounding r);
harness::TargetDef<ts::CivilDateTime> CivilToSeconds();
harness::TargetDef<Seconds> SecondsToMicros(ts::Rounding r);
// timestamp_cql_date_time.cc
harness::TargetDef<int64_t> DaysToCqlDate();
harness::TargetDef<ts::CivilDay> CivilToCqlDate();
harness::TargetDef<uint32_t> CqlDateToCivil();
harness::TargetDef<int64_t> MillisToCqlDate(ts::Rounding r);
harness::TargetDef<ts::TimeOfDay> TimeOfDayToCqlTime();
harness::TargetDef<int64_t> CqlTimeToTimeOfDay();
harness::TargetDef<ts::CivilDateTime> CivilToCqlTime();
harness::TargetDef<int64_t> CqlTimeToMicrosOfDay(ts::Rounding r);
// timestamp_drivers.cc
harness::TargetDef<ts::CivilDateTime> DriverSerialize();
harness::TargetDef<int64_t> DriverDeserialize();
harness::TargetDef<int64_t> DriverRoundTrip();
// timestamp_round_trips.cc
harness::TargetDef<int64_t> MillisRoundTrip();
harness::TargetDef<int64_t> MicrosRoundTrip();
harness::TargetDef<ts::CivilDateTime> CivilRoundTrip();
harness::TargetDef<uint32_t> CqlDateRoundTrip();
harness::TargetDef<int64_t> CqlTimeRoundTrip();
harness::TargetDef<ts::CivilDateTime> SecondsRoundTrip();

}  // namespace serdiff::targets::timestamp
