// Edge values of the timestamp family: the instants, day counts and times of day where
// conversions most often go wrong. They feed the timestamp domains' generators
// (targets/timestamp/domains.h), the CQL and BSON generators of timestamps, dates and times,
// and the tests that sweep every edge (props/timestamp_edges_test.cc). They are test inputs,
// not part of the optimized library's interface, so they live here, beside the targets.
// Header-only: a family's fuzz binary links only its own target library, and the CQL and BSON
// targets use these tables too.
#pragma once

#include <algorithm>
#include <cstdint>
#include <iterator>
#include <limits>
#include <utility>
#include <vector>

#include "harness/edges.h"
#include "serdiff/timestamp/timestamp.h"

namespace serdiff::targets::ts_edges {

namespace ts = ::serdiff::timestamp;

namespace detail {
inline constexpr int64_t kInt64Min = std::numeric_limits<int64_t>::min();
inline constexpr int64_t kInt64Max = std::numeric_limits<int64_t>::max();
}  // namespace detail

// Anchor instants in ms: first and last ms of years 1, 1970, 2038, 9999; the epoch; 2^31 s;
// the days around 2000-02-29, 1900-02-28 and 2100-02-28; ±2^43 ms; ±2^33 s; the 1600-09-05 and
// 2300-05-16 instants that a float-seconds driver reads back one µs off (docs/timestamp.md).
// Sorted, unique, all within kMinUnixMillis..kMaxUnixMillis.
inline std::vector<int64_t> AnchorMillis() {
  std::vector<int64_t> v = {
      ts::kMinUnixMillis,          // 0001-01-01T00:00:00
      -62'104'060'800'000 - 1,     // 0001-12-31T23:59:59.999
      -62'104'060'800'000,         // 0002-01-01
      -11'670'912'000'000,         // 1600-03-01
      -11'654'632'814'640,         // 1600-09-05T09:59:45.360 (6.4 flaky case)
      -8'515'238'400'000,          // 1700-03-01
      -5'359'564'800'000,          // 1800-03-01
      -2'203'977'600'000,          // 1900-02-28
      -2'203'891'200'000,          // 1900-03-01
      -2'208'988'800'000,          // 1900-01-01
      -(int64_t{1} << 33) * 1000,  // -2^33 s (1697-10-17)
      -(int64_t{1} << 43),         // -2^43 ms
      -1,                          // 1969-12-31T23:59:59.999
      0,                           // 1970-01-01
      31'536'000'000 - 1,          // 1970-12-31T23:59:59.999
      951'696'000'000,             // 2000-02-28
      951'782'400'000,             // 2000-02-29
      951'868'800'000,             // 2000-03-01
      2'145'916'800'000,           // 2038-01-01
      2'147'483'648'000,           // 2038-01-19T03:14:08 = 2^31 s
      2'177'452'800'000 - 1,       // 2038-12-31T23:59:59.999
      4'107'456'000'000,           // 2100-02-28
      4'107'542'400'000,           // 2100-03-01
      7'263'216'000'000,           // 2200-03-01
      (int64_t{1} << 33) * 1000,   // 2^33 s (2242-03-16)
      int64_t{1} << 43,            // 2^43 ms
      10'413'792'000'000,          // 2300-01-01
      10'425'520'380'477,          // 2300-05-16T17:53:00.477 (6.4 flaky case)
      13'574'563'200'000,          // 2400-02-29
      13'574'649'600'000,          // 2400-03-01
      253'370'764'800'000,         // 9999-01-01
      ts::kMaxUnixMillis,          // 9999-12-31T23:59:59.999
  };
  return harness::SortedUnique(std::move(v));
}

// AnchorMillis() ± 0, 1, 2 ms, plus values just outside the civil range, ±2^53, the int64
// limits divided by 1000, and INT64_MIN, INT64_MIN + 1, INT64_MAX - 1, INT64_MAX. Sorted, unique.
inline std::vector<int64_t> EdgeMillis() {
  std::vector<int64_t> v;
  for (int64_t a : AnchorMillis()) {
    for (int64_t d = -2; d <= 2; ++d) v.push_back(a + d);
  }
  const int64_t extra[] = {detail::kInt64Min,        detail::kInt64Min + 1,   detail::kInt64Max - 1,
                           detail::kInt64Max,        -(int64_t{1} << 53),     int64_t{1} << 53,
                           detail::kInt64Min / 1000, detail::kInt64Max / 1000};
  v.insert(v.end(), std::begin(extra), std::end(extra));
  return harness::SortedUnique(std::move(v));
}

// Every k*1000 µs for k in AnchorMillis() ± 1 at offsets -1, 0, +1, 499, 500, 501, 999 µs,
// plus kMinUnixMicros - 1, kMaxUnixMicros + 1 and the int64 extremes. Sorted, unique.
inline std::vector<int64_t> EdgeMicros() {
  std::vector<int64_t> v;
  for (int64_t a : AnchorMillis()) {
    for (int64_t k = a - 1; k <= a + 1; ++k) {
      for (int64_t off : {-1, 0, 1, 499, 500, 501, 999}) v.push_back(k * 1000 + off);
    }
  }
  const int64_t extra[] = {ts::kMinUnixMicros - 1, ts::kMaxUnixMicros + 1, detail::kInt64Min,
                           detail::kInt64Min + 1,  detail::kInt64Max - 1,  detail::kInt64Max};
  v.insert(v.end(), std::begin(extra), std::end(extra));
  return harness::SortedUnique(std::move(v));
}

// Day counts: CQL date limits (±2^31 and one past), 0, ±1, the civil range limits, the days
// around each anchor (leap days among them). Sorted, unique.
inline std::vector<int64_t> EdgeDays() {
  std::vector<int64_t> v = {ts::kMinCqlDateDays - 1,
                            ts::kMinCqlDateDays,
                            ts::kMinCqlDateDays + 1,
                            ts::kMaxCqlDateDays - 1,
                            ts::kMaxCqlDateDays,
                            ts::kMaxCqlDateDays + 1,
                            ts::kMinCivilDays - 1,
                            ts::kMinCivilDays,
                            ts::kMaxCivilDays,
                            ts::kMaxCivilDays + 1,
                            -1,
                            0,
                            1,
                            10'957};
  for (int64_t a : AnchorMillis()) {
    const int64_t day = ts::DivideRounded(a, ts::kMillisPerDay, ts::Rounding::kFloor);
    for (int64_t d = -1; d <= 1; ++d) v.push_back(day + d);
  }
  return harness::SortedUnique(std::move(v));
}

// CQL time edges: 0, 1, each hour/minute/second boundary ±1, 86399999999000 (23:59:59.999999),
// 86399999999499/500/501, kMaxCqlTimeNanos, 86400000000000 (one past), -1, int64 extremes.
// Sorted, unique.
inline std::vector<int64_t> EdgeCqlTimeNanos() {
  std::vector<int64_t> v = {detail::kInt64Min,
                            -1,
                            0,
                            1,
                            999,
                            1000,
                            1001,
                            499,
                            500,
                            501,
                            86'399'999'999'000,
                            86'399'999'999'499,
                            86'399'999'999'500,
                            86'399'999'999'501,
                            ts::kMaxCqlTimeNanos,
                            ts::kNanosPerDay,
                            ts::kNanosPerDay + 1,
                            detail::kInt64Max};
  for (int64_t unit :
       {int64_t{1'000'000'000}, int64_t{60'000'000'000}, int64_t{3'600'000'000'000}}) {
    for (int64_t k : {1, 2, 12, 23}) {
      const int64_t b = unit * k;
      if (b >= ts::kNanosPerDay) continue;
      for (int64_t d : {-1, 0, 1}) v.push_back(b + d);
    }
  }
  return harness::SortedUnique(std::move(v));
}

}  // namespace serdiff::targets::ts_edges
