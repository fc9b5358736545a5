// Timestamp family targets of the two python-driver behaviours, compared on purpose (registered
// in timestamp.cc, which lists every target): timestamp_driver_serialize,
// timestamp_driver_deserialize and timestamp_driver_roundtrip, the integer arithmetic of
// scylladb's python-driver HEAD against serdiff's model of python-driver 3.25's float
// arithmetic (and, for serialize, the live driver: the python_cassandra worker), with the
// divergences that model is known and accepted to show (docs/timestamp.md).
#include <cmath>
#include <cstdint>
#include <cstdlib>
#include <limits>
#include <string>

#include "absl/status/statusor.h"
#include "absl/strings/str_cat.h"
#include "harness/target.h"
#include "oracles/abseil/time.h"
#include "serdiff/timestamp/timestamp.h"
#include "targets/timestamp/divergences.h"
#include "targets/timestamp/domain.h"
#include "targets/timestamp/internal.h"

namespace serdiff::targets::timestamp {
namespace {

// The python_driver_3_25 implementation: not the driver itself, but serdiff's op-by-op model
// of its float arithmetic, checked against the driver's own outputs by the golden vectors.
constexpr char kPythonDriverModel[] =
    "src/serdiff/timestamp: serdiff's model of python-driver 3.25's float arithmetic "
    "(DriverFloat*, checked by oracles/python_cassandra/timestamp_vectors.txt)";

}  // namespace

harness::TargetDef<ts::CivilDateTime> DriverSerialize() {
  auto def = Base<ts::CivilDateTime>(
      "timestamp_driver_serialize",
      "datetime -> CQL timestamp ms as drivers do it: integer floor (scylladb python-driver "
      "HEAD, BSON) vs Abseil floor vs python-driver 3.25 float seconds then truncate; output 8 "
      "bytes BE",
      CivilDomain(), ShowMillisOutput);
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
  // What serdiff accepts from the model of driver 3.25 above and from the live driver (the
  // python_cassandra worker, oracles/python_cassandra/worker.json, which takes the civil fields
  // through the interchange below): the same two divergences (divergences_python_cassandra.cc).
  for (const char* driver : {"python_driver_3_25", "python_cassandra"}) {
    for (auto& d : PythonDriverSerializeDivergences(driver))
      def.divergences.push_back(std::move(d));
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

harness::TargetDef<int64_t> DriverDeserialize() {
  auto def = Base<int64_t>(
      "timestamp_driver_deserialize",
      "CQL timestamp ms -> datetime as drivers do it: exact integer (scylladb HEAD, "
      "timedelta(milliseconds=ms)) vs Abseil vs python-driver 3.25 timedelta(seconds=ms/1000.0); "
      "output civil bytes, shown as ISO text",
      MillisDomain(), ShowCivilOutput);
  def.optimized = {"optimized", [](const int64_t& ms) -> Output {
                     return AsCanon(ts::DriverIntegerFromMillis(ms));
                   }};
  def.others.push_back(
      {"abseil", harness::Role::kOracle, oracle::abseil::kOrigin,
       [](const int64_t& ms) -> Output { return AsCanon(oab::FromUnixMillis(ms)); }});
  def.others.push_back(
      {"python_driver_3_25", harness::Role::kOracle, kPythonDriverModel,
       [](const int64_t& ms) -> Output { return AsCanon(ts::DriverFloatSecondsFromMillis(ms)); }});
  def.divergences = PythonDriverDeserializeDivergences();
  return def;
}

harness::TargetDef<int64_t> DriverRoundTrip() {
  auto def = Base<int64_t>(
      "timestamp_driver_roundtrip",
      "ms -> datetime -> ms through a driver pair: integer pair (scylladb HEAD) vs identity vs "
      "python-driver 3.25 pair (the flaky round trip of docs/timestamp.md); output 8 bytes BE",
      MillisDomain(), ShowMillisOutput);
  def.optimized = {"optimized", [](const int64_t& ms) -> Output {
                     absl::StatusOr<ts::CivilDateTime> c = ts::DriverIntegerFromMillis(ms);
                     if (!c.ok()) return c.status();
                     return AsBe64(ts::DriverIntegerFloorMillis(*c));
                   }};
  def.others.push_back({"identity", harness::Role::kReference,
                        "targets/timestamp: the input itself, if in range",
                        [](const int64_t& ms) -> Output { return AsBe64(IdentityInRange(ms)); }});
  def.others.push_back({"python_driver_3_25", harness::Role::kOracle, kPythonDriverModel,
                        [](const int64_t& ms) -> Output {
                          absl::StatusOr<ts::CivilDateTime> c =
                              ts::DriverFloatSecondsFromMillis(ms);
                          if (!c.ok()) return c.status();
                          return AsBe64(ts::DriverFloatTruncateMillis(*c));
                        }});
  def.divergences = PythonDriverRoundTripDivergences();
  return def;
}

}  // namespace serdiff::targets::timestamp
