// Every edge value of the timestamp domains through every timestamp target, deterministically
// (the properties sample the same edges at random; this sweep takes all of them, every run):
// every ms boundary at offsets -1, 0, +1, 499, 500, 501, 999 µs around the anchors, the first
// and last instants of years 1, 1970, 2038, 9999, the leap-day neighbourhoods, the int64
// extremes, the CQL date and time limits, the doubles where rounding modes differ.
#include <gtest/gtest.h>

#include <bit>
#include <cstdint>
#include <map>
#include <string>
#include <vector>

#include "absl/strings/match.h"
#include "harness/fuzz_input.h"
#include "harness/target.h"
#include "oracles/abseil/time.h"
#include "serdiff/timestamp/timestamp.h"
#include "targets/families.h"
#include "targets/timestamp/domain.h"

namespace serdiff::targets {
namespace {

namespace ts = ::serdiff::timestamp;
namespace d = ::serdiff::targets::timestamp;
namespace rts = ::serdiff::ref::timestamp;
namespace oab = ::serdiff::oracle::abseil;

template <typename T, typename Encode>
std::vector<std::string> Inputs(const std::vector<T>& values, Encode encode) {
  std::vector<std::string> out;
  for (const T& v : values) {
    harness::FuzzInputWriter w;
    encode(v, w);
    out.push_back(w.Finish());
  }
  return out;
}

std::vector<std::string> Int64Inputs(const std::vector<int64_t>& values) {
  return Inputs(values,
                [](int64_t v, harness::FuzzInputWriter& w) { w.WriteIntegral<int64_t>(v); });
}

std::vector<ts::CivilDateTime> EdgeCivils() {
  std::vector<ts::CivilDateTime> v;
  for (int64_t us : d::InRangeEdgeMicros()) v.push_back(d::CivilOfMicros(us));
  for (int32_t y : {1, 4, 100, 400, 1600, 1700, 1800, 1900, 1969, 1970, 2000, 2004, 2038, 2100,
                    2400, 9996, 9999}) {
    for (auto [m, day] : {std::pair{2, 28}, {2, 29}, {3, 1}, {12, 31}, {1, 1}, {2, 30}}) {
      for (int32_t us : {0, 1, 499, 500, 501, 999, 1500, 999000, 999500, 999999}) {
        v.push_back({y, m, day, 0, 0, 0, us});
        v.push_back({y, m, day, 23, 59, 59, us});
      }
    }
  }
  const ts::CivilDateTime invalid[] = {
      {2024, 13, 1, 0, 0, 0, 0},
      {2024, 0, 1, 0, 0, 0, 0},
      {2024, 1, 0, 0, 0, 0, 0},
      {2024, 1, 32, 0, 0, 0, 0},
      {2024, 1, 1, 24, 0, 0, 0},
      {2024, 1, 1, 0, 60, 0, 0},
      {2024, 1, 1, 0, 0, 60, 0},
      {2024, 1, 1, 0, 0, 0, 1000000},
      {2024, 1, 1, 0, 0, 0, -1},
      {0, 12, 31, 23, 59, 59, 999999},
      {10000, 1, 1, 0, 0, 0, 0},
      {-1, 1, 1, 0, 0, 0, 0},
      {INT32_MIN, INT32_MIN, INT32_MIN, INT32_MIN, INT32_MIN, INT32_MIN, INT32_MIN},
      {INT32_MAX, INT32_MAX, INT32_MAX, INT32_MAX, INT32_MAX, INT32_MAX, INT32_MAX},
  };
  v.insert(v.end(), std::begin(invalid), std::end(invalid));
  return v;
}

std::vector<ts::CivilDay> EdgeDays() {
  std::vector<ts::CivilDay> v;
  for (int64_t days : ::serdiff::targets::timestamp::EdgeDays()) {
    if (days >= -(int64_t{1} << 31) && days < (int64_t{1} << 31)) {
      v.push_back(oab::CivilFromDays(days));
    }
  }
  for (int32_t y : {-5877641, -5877642, 5881580, 5881581, -400, -100, -4, 0, 1, 1900, 2000, 2100,
                    9999, INT32_MIN, INT32_MAX}) {
    for (auto [m, day] : {std::pair{2, 28},
                          {2, 29},
                          {3, 1},
                          {6, 22},
                          {6, 23},
                          {7, 11},
                          {7, 12},
                          {13, 1},
                          {0, 1},
                          {1, 0},
                          {1, 32}}) {
      v.push_back({y, m, day});
    }
  }
  return v;
}

std::vector<ts::TimeOfDay> EdgeTimes() {
  std::vector<ts::TimeOfDay> v;
  for (int64_t ns : ::serdiff::targets::timestamp::EdgeCqlTimeNanos()) {
    if (ns >= 0 && ns <= ts::kMaxCqlTimeNanos) v.push_back(*rts::TimeOfDayFromCqlTime(ns));
  }
  const ts::TimeOfDay invalid[] = {{24, 0, 0, 0},         {0, 60, 0, 0},       {0, 0, 60, 0},
                                   {0, 0, 0, 1000000000}, {-1, 0, 0, 0},       {0, 0, 0, -1},
                                   {INT32_MIN, 0, 0, 0},  {0, 0, 0, INT32_MAX}};
  v.insert(v.end(), std::begin(invalid), std::end(invalid));
  return v;
}

// The sweep inputs for a target, chosen by its domain.
std::vector<std::string> SweepFor(const harness::Target& t) {
  const std::string& dom = t.domain_name();
  if (dom == "int64 ms") return Int64Inputs(::serdiff::targets::timestamp::EdgeMillis());
  if (dom == "int64 µs") return Int64Inputs(::serdiff::targets::timestamp::EdgeMicros());
  if (dom == "int64 days") return Int64Inputs(::serdiff::targets::timestamp::EdgeDays());
  if (dom == "int64 ns") return Int64Inputs(::serdiff::targets::timestamp::EdgeCqlTimeNanos());
  if (dom == "uint32 CQL date") {
    return Inputs(d::EdgeRawDates(),
                  [](uint32_t v, harness::FuzzInputWriter& w) { w.WriteIntegral<uint32_t>(v); });
  }
  if (dom == "CivilDateTime") return Inputs(EdgeCivils(), d::CivilDomain().encode);
  if (dom == "CivilDay") return Inputs(EdgeDays(), d::DayDomain().encode);
  if (dom == "TimeOfDay") return Inputs(EdgeTimes(), d::TimeOfDayDomain().encode);
  if (dom == "double seconds") {
    return Inputs(d::EdgeSeconds(), [](double v, harness::FuzzInputWriter& w) {
      w.WriteIntegral<uint64_t>(std::bit_cast<uint64_t>(v));
    });
  }
  return {};
}

TEST(TimestampEdgeSweep, EveryEdgeValuePassesEveryTimestampTarget) {
  int targets = 0;
  for (const auto& t : AllTargets().targets()) {
    if (t->family() != "timestamp") continue;
    ++targets;
    const std::vector<std::string> inputs = SweepFor(*t);
    EXPECT_GT(inputs.size(), 20u) << t->name() << ": no sweep for domain " << t->domain_name();
    int failures = 0;
    for (const std::string& in : inputs) {
      const harness::CaseResult r = t->RunBytes(in, serdiff::targets::AllTargets().config());
      if (!r.passed && ++failures <= 3) ADD_FAILURE() << r.report;
    }
    EXPECT_EQ(failures, 0) << t->name() << ": " << failures << " of " << inputs.size();
  }
  EXPECT_EQ(targets, 34);
}

// The accepted divergences of the driver targets are not vacuous: over the edge values each
// one is hit, and only those cases differ (every other case agrees exactly, or the sweep above
// fails).
TEST(TimestampEdgeSweep, EveryDriverDivergenceIsHitByTheEdgeValues) {
  for (const char* name : {"timestamp_driver_serialize", "timestamp_driver_deserialize",
                           "timestamp_driver_roundtrip"}) {
    const harness::Target* t = AllTargets().Find(name);
    ASSERT_NE(t, nullptr) << name;
    std::map<std::string, int> hits;
    // Only the implementations this process has: a worker's divergences (python_cassandra) are
    // hit where the worker is attached (serdiff check), not here.
    for (const auto& d : t->accepted_divergences()) {
      if (t->HasImpl(d.impl)) hits[d.impl + ": " + d.reason] = 0;
    }
    ASSERT_FALSE(hits.empty()) << name;
    for (const std::string& in : SweepFor(*t)) {
      const harness::CaseResult r = t->RunBytes(in, serdiff::targets::AllTargets().config());
      EXPECT_TRUE(r.passed) << r.report;
      for (const std::string& a : r.accepted) ++hits[a];
    }
    for (const auto& [reason, n] : hits) EXPECT_GT(n, 0) << name << " never hit: " << reason;
  }
}

}  // namespace
}  // namespace serdiff::targets
