// Timestamp family: what serdiff accepts from python-driver 3.25's timestamp arithmetic, in
// the driver targets (timestamp_drivers.cc): from python_driver_3_25, serdiff's op-by-op model
// of the driver's float arithmetic, and from python_cassandra, the live driver (a worker,
// oracles/python_cassandra), which shows exactly what the model does. Declared in
// targets/timestamp/divergences.h; docs/timestamp.md explains each, with the flaky inputs.
#include <cmath>
#include <cstdint>
#include <cstdlib>
#include <limits>
#include <string>
#include <vector>

#include "absl/status/statusor.h"
#include "harness/target.h"
#include "serdiff/timestamp/timestamp.h"
#include "targets/timestamp/divergences.h"
#include "targets/timestamp/domain.h"
#include "targets/timestamp/internal.h"

namespace serdiff::targets::timestamp {
namespace {

constexpr int64_t kTwo33SecondsMillis = (int64_t{1} << 33) * 1000;

// Accepted only in the shape explained by the reason: the float path is one ms above floor,
// and the input has a sub-millisecond part (whole-ms inputs must agree exactly).
bool OneAboveFloor(const ts::CivilDateTime& c, const Output& floor_out, const Output& other) {
  return floor_out.ok() && other.ok() && c.microsecond % 1000 != 0 &&
         ReadBe64(*other) == ReadBe64(*floor_out) + 1;
}

// Half an ulp of the double nearest ms / 1000, in µs, rounded up, plus the final µs rounding.
int64_t FloatSecondsErrorBoundMicros(int64_t ms) {
  const double s = std::fabs(static_cast<double>(ms) / 1000.0);
  const double ulp = std::nextafter(s, std::numeric_limits<double>::infinity()) - s;
  return static_cast<int64_t>(std::ceil(ulp / 2 * 1e6)) + 1;
}

}  // namespace

std::vector<harness::Divergence<ts::CivilDateTime>> PythonDriverSerializeDivergences(
    const char* driver) {
  std::vector<harness::Divergence<ts::CivilDateTime>> out;
  out.push_back(
      {driver,
       "before 1970, driver 3.25's int() truncates toward zero where integer drivers floor: a "
       "sub-ms part gives floor + 1 (1969-12-31T23:59:59.999500 -> 0, not -1; "
       "docs/timestamp.md)",
       [](const ts::CivilDateTime& c, const Output& opt, const Output& other) {
         return OneAboveFloor(c, opt, other) && ReadBe64(*opt) < 0;
       }});
  out.push_back(
      {driver,
       "driver 3.25 adds seconds*1e3 and microsecond/1e3 in a double; when the ulp of the sum "
       "is coarse (up to 1/32 ms near 9999) it rounds up to the next whole ms before int() "
       "(9999-12-31T23:59:59.999999 -> 253402300800000, one past the last valid ms; "
       "docs/timestamp.md)",
       [](const ts::CivilDateTime& c, const Output& opt, const Output& other) {
         return OneAboveFloor(c, opt, other) && ReadBe64(*opt) >= 0;
       }});
  return out;
}

std::vector<harness::Divergence<int64_t>> PythonDriverDeserializeDivergences() {
  std::vector<harness::Divergence<int64_t>> out;
  out.push_back(
      {"python_driver_3_25",
       "driver 3.25 divides ms by 1000.0 in a double; once |seconds| >= 2^33 (after 2242-03-16, "
       "before 1697-10-17) half an ulp exceeds 0.5 µs and the µs it rounds to can miss the exact "
       "value by up to half an ulp (10425520380477 -> .476999; docs/timestamp.md)",
       [](const int64_t& ms, const Output& opt, const Output& other) {
         if (!opt.ok() || !other.ok()) return false;
         if (ms > -kTwo33SecondsMillis && ms < kTwo33SecondsMillis) return false;
         absl::StatusOr<int64_t> a = MicrosOfCivilBytes(*opt);
         absl::StatusOr<int64_t> b = MicrosOfCivilBytes(*other);
         if (!a.ok() || !b.ok()) return false;
         return std::abs(*a - *b) <= FloatSecondsErrorBoundMicros(ms);
       }});
  return out;
}

std::vector<harness::Divergence<int64_t>> PythonDriverRoundTripDivergences() {
  std::vector<harness::Divergence<int64_t>> out;
  out.push_back(
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
  return out;
}

}  // namespace serdiff::targets::timestamp
