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
#include "targets/timestamp/domains.h"
#include "targets/timestamp/internal.h"

namespace serdiff::targets::ts_targets {
namespace {

// The python_driver_3_25 implementation: not the driver itself, but serdiff's op-by-op model
// of its float arithmetic, checked against the driver's own outputs by the golden vectors.
constexpr char kPythonDriverModel[] =
    "src/serdiff/timestamp: serdiff's model of python-driver 3.25's float arithmetic "
    "(DriverFloat*, checked by oracles/python_cassandra/timestamp_vectors.txt)";

constexpr int64_t kTwo33SecondsMillis = (int64_t{1} << 33) * 1000;

// Accepted only in the shape explained by the reason: the float path is one ms above floor,
// and the input has a sub-millisecond part (whole-ms inputs must agree exactly).
bool OneAboveFloor(const ts::CivilDateTime& c, const Output& floor_out, const Output& other) {
  return floor_out.ok() && other.ok() && c.microsecond % 1000 != 0 &&
         ReadBe64(*other) == ReadBe64(*floor_out) + 1;
}

}  // namespace

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

namespace {

// Half an ulp of the double nearest ms / 1000, in µs, rounded up, plus the final µs rounding.
int64_t FloatSecondsErrorBoundMicros(int64_t ms) {
  const double s = std::fabs(static_cast<double>(ms) / 1000.0);
  const double ulp = std::nextafter(s, std::numeric_limits<double>::infinity()) - s;
  return static_cast<int64_t>(std::ceil(ulp / 2 * 1e6)) + 1;
}

}  // namespace

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

}  // namespace serdiff::targets::ts_targets
