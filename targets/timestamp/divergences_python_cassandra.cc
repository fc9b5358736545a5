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

// An edge of the serialize divergences: civil time `c`, the integer drivers' floor ms as the
// optimized answer and that plus `above` as the driver's.
harness::DivergenceEdge<ts::CivilDateTime> SerializeEdge(std::string text, ts::CivilDateTime c,
                                                         int64_t above) {
  const int64_t floor_ms = *ts::DriverIntegerFloorMillis(c);
  return {std::move(text), c, Be64(floor_ms), Be64(floor_ms + above)};
}

// An edge of the deserialize divergence: `ms`, the exact civil time as the optimized answer and
// `later_us` µs later (within the same second) as the driver's.
harness::DivergenceEdge<int64_t> DeserializeEdge(std::string text, int64_t ms,
                                                 int32_t later_us = 1) {
  const ts::CivilDateTime exact = *ts::DriverIntegerFromMillis(ms);
  ts::CivilDateTime later = exact;
  later.microsecond += later_us;
  return {std::move(text), ms, Canon(exact), Canon(later)};
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
  // Held at their edges: the other sign, and a time with no sub-millisecond part (where the
  // float path must agree with the floor).
  out[0].edges = [] {
    return std::vector{SerializeEdge("1970-01-01T00:00:00.000500, floor 0 ms: not before 1970",
                                     {1970, 1, 1, 0, 0, 0, 500}, 1),
                       SerializeEdge("1969-12-31T23:59:59.999000, no sub-ms part",
                                     {1969, 12, 31, 23, 59, 59, 999000}, 1)};
  };
  out[1].edges = [] {
    return std::vector{SerializeEdge("1969-12-31T23:59:59.999500, floor -1 ms: before 1970",
                                     {1969, 12, 31, 23, 59, 59, 999500}, 1),
                       SerializeEdge("9999-12-31T23:59:59.999000, no sub-ms part",
                                     {9999, 12, 31, 23, 59, 59, 999000}, 1),
                       SerializeEdge("9999-12-31T23:59:59.999999, two above the floor",
                                     {9999, 12, 31, 23, 59, 59, 999999}, 2)};
  };
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
  // Held at its edges: the last ms on each side below 2^33 s, one µs off; and past it, one µs
  // beyond the bound (half an ulp rounded up, plus one): at 2^33 s the ulp is 2^-19 s (bound
  // 2 µs), at the last ms of 9999 and at year 1 2^-15 s and 2^-17 s (bounds 17 and 5 µs).
  out[0].edges = [] {
    return std::vector{
        DeserializeEdge("8589934591999 ms, the last below 2^33 s", kTwo33SecondsMillis - 1),
        DeserializeEdge("-8589934591999 ms, the last above -2^33 s", -kTwo33SecondsMillis + 1),
        DeserializeEdge("8589934592000 ms, 2^33 s, 3 us off (bound 2)", kTwo33SecondsMillis, 3),
        DeserializeEdge("-8589934592000 ms, -2^33 s, 3 us off (bound 2)", -kTwo33SecondsMillis, 3),
        DeserializeEdge("253402300799999 ms, the last of 9999, 18 us off (bound 17)",
                        253402300799999, 18),
        DeserializeEdge("-62135596800000 ms, year 1, 6 us off (bound 5)", -62135596800000, 6)};
  };
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
  // Held at its edges: the last ms on each side below 2^33 s, and two ms off past it.
  out[0].edges = [] {
    return std::vector<harness::DivergenceEdge<int64_t>>{
        {"8589934591999 ms, the last below 2^33 s, one ms lost", kTwo33SecondsMillis - 1,
         Be64(kTwo33SecondsMillis - 1), Be64(kTwo33SecondsMillis - 2)},
        {"-8589934591999 ms, the last above -2^33 s, one ms lost", -kTwo33SecondsMillis + 1,
         Be64(-kTwo33SecondsMillis + 1), Be64(-kTwo33SecondsMillis + 2)},
        {"10425520380477 ms, past 2^33 s, two ms lost", 10425520380477, Be64(10425520380477),
         Be64(10425520380475)}};
  };
  return out;
}

}  // namespace serdiff::targets::timestamp
