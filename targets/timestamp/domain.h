// Domains of the timestamp family (targets/timestamp/timestamp.cc; reusable by other families whose
// values hold timestamps, dates or times, e.g. CQL). Each: an edge-biased RapidCheck generator,
// a FuzzedDataProvider decoder and its mirror encoder, a printer and a parser of the printed
// text.
//
// Edge bias: every millisecond boundary k*1000 µs at offsets -1, 0, +1, 499, 500,
// 501, 999 µs around the anchor instants of AnchorMillis() (first/last
// instants of years 1, 1970, 2038, 9999; leap days 2000-02-29, 1900-02-28, 2100-02-28 and the
// days around them; ±2^43 ms; ±2^33 s; the flaky cases of docs/timestamp.md), negative
// (pre-1970) instants, int64 extremes, and invalid fields (month 13, 1900-02-29, hour 24,
// second 60, µs 1000000, year 0 and 10000).
#pragma once

#include <algorithm>
#include <bit>
#include <cmath>
#include <cstdint>
#include <cstdio>
#include <iterator>
#include <limits>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include <rapidcheck.h>

#include "absl/status/statusor.h"
#include "absl/strings/str_cat.h"
#include "absl/strings/str_format.h"
#include "harness/domains.h"
#include "harness/edges.h"
#include "harness/fuzz_input.h"
#include "harness/target.h"
#include "oracles/abseil/time.h"
#include "reference/timestamp/timestamp_ref.h"
#include "serdiff/timestamp/timestamp.h"

namespace serdiff::targets::timestamp {

namespace ts = ::serdiff::timestamp;
namespace rts = ::serdiff::ref::timestamp;
namespace oab = ::serdiff::oracle::abseil;

// A double compared by its bits, so that NaN equals itself in decode(encode(v)) == v.
struct Seconds {
  double value = 0;
  friend bool operator==(const Seconds& a, const Seconds& b) {
    return std::bit_cast<uint64_t>(a.value) == std::bit_cast<uint64_t>(b.value);
  }
};

// ---- text forms (canonical outputs and printers) --------------------------------------------

// "YYYY-MM-DD", "YYYY-MM-DDThh:mm:ss.uuuuuu", "hh:mm:ss.nnnnnnnnn" (fields as stored, so that
// invalid values print too).
std::string DayText(const ts::CivilDay& d);
std::string CivilText(const ts::CivilDateTime& c);
std::string TimeText(const ts::TimeOfDay& t);

// The printers of the civil, day, time and seconds domains (what `serdiff show` prints, the
// record of tests/data/corpus-printed/), and their parsers (Domain::parse). Each parser reads
// the printed text, or its first part alone (the ISO-like text: "1969-12-31T23:59:59.999500",
// "2000-02-29", "23:59:59.999999999"; a number of seconds, "1e-06" or "1e-06 s"); a longer text
// must be exactly what the value prints as (the fields in braces, the seconds' bits, which are
// the value: every NaN payload and -0). Errors: InvalidArgument "at character N: ...".
std::string ShowCivil(const ts::CivilDateTime& c);
std::string ShowDay(const ts::CivilDay& d);
std::string ShowTime(const ts::TimeOfDay& t);
absl::StatusOr<ts::CivilDateTime> ParseCivil(std::string_view text);
absl::StatusOr<ts::CivilDay> ParseDay(std::string_view text);
absl::StatusOr<ts::TimeOfDay> ParseTime(std::string_view text);

// ---- output bytes (the canonical outputs of the civil, day and time targets) ---------------
//
// What the harness compares byte for byte; reports show them as the texts above. A field takes
// one byte when it is 0..255, the year four (int32 big-endian) and the fraction three (µs,
// below 2^24) or four (ns), so every valid value takes 12 (datetime), 6 (day) or 7 (time of
// day) bytes and fits std::string's inline buffer: a passing case under a fuzzer allocates no
// output. A value with a field outside those ranges (only a broken implementation makes one)
// takes every field as int32 big-endian (28, 12, 16 bytes). The two lengths of a kind differ,
// so equal bytes mean equal fields.
std::string CivilBytes(const ts::CivilDateTime& c);
std::string DayBytes(const ts::CivilDay& d);
std::string TimeBytes(const ts::TimeOfDay& t);
// The inverses; InvalidArgument when `bytes` has neither length of its kind.
absl::StatusOr<ts::CivilDateTime> CivilOfBytes(std::string_view bytes);
absl::StatusOr<ts::CivilDay> DayOfBytes(std::string_view bytes);
absl::StatusOr<ts::TimeOfDay> TimeOfBytes(std::string_view bytes);

// µs since the epoch of a CivilBytes output (reference arithmetic); InvalidArgument when the
// bytes are not a CivilBytes form, the reference's errors for an invalid datetime.
absl::StatusOr<int64_t> MicrosOfCivilBytes(std::string_view bytes);

// Range of year 1..9999 in ms, from the reference (never from the code under test).
int64_t RefMinMillis();
int64_t RefMaxMillis();

// ---- integer generators ---------------------------------------------------------------------

// (The edge-biased generator is the shared one, harness::EdgeBiased: edges, edges nudged by
// -3..3, uniform in the valid range, small values, any int64.)

// "<ms> ms" / "<us> us" with the reference's civil text of the instant.
std::string ShowMillis(const int64_t& ms);
std::string ShowMicros(const int64_t& us);

// Integer domains: ms and µs since the epoch, days since the epoch, CQL time (ns of the day),
// each generated by harness::EdgeBiased over its table of the edge tables (at the end of this header). Their
// parsers read the printed text ("-1 ms (1969-12-31T23:59:59.999000)", "5 days"), or the
// integer with or without its unit ("-1", "-1 ms").

harness::Domain<int64_t> MillisDomain();
harness::Domain<int64_t> MicrosDomain();
harness::Domain<int64_t> DaysDomain();
harness::Domain<int64_t> CqlTimeDomain();

// Raw CQL date values (unsigned days, epoch at 2^31) at the ends of the representable range,
// and their domain (printed "raw 2147483648 (0x80000000, day 0)"; parsed from that, from
// "raw 2147483648" or from "2147483648").
std::vector<uint32_t> EdgeRawDates();
harness::Domain<uint32_t> RawDateDomain();

// ---- civil datetime -------------------------------------------------------------------------

// Field ranges of the compact corpus form; a value outside any of them uses the wide form
// (every field a full int32).
struct CivilRanges {
  static constexpr int32_t kYear[2] = {-1, 10001};
  static constexpr int32_t kMonth[2] = {-1, 14};
  static constexpr int32_t kDay[2] = {-1, 33};
  static constexpr int32_t kHour[2] = {-1, 25};
  static constexpr int32_t kMinute[2] = {-1, 61};
  static constexpr int32_t kSecond[2] = {-1, 61};
  static constexpr int32_t kMicro[2] = {-1, 1000001};
};

// The corpus form of a civil datetime: a flag (compact or wide), then each field in its
// CivilRanges range (compact) or as a full int32 (wide); one two-way visitor (VisitCivil in
// domain.cc, harness/two_way.h) reads and writes it.

// The edge instants (µs) within years 1..9999, and the civil datetime of an instant.
std::vector<int64_t> InRangeEdgeMicros();
ts::CivilDateTime CivilOfMicros(int64_t us);

// Sub-second parts at and around millisecond boundaries.
rc::Gen<int32_t> EdgeBiasedMicrosecond();

// A valid civil datetime: fields drawn in their ranges (the day clamped to the month's length),
// the microsecond from EdgeBiasedMicrosecond.
rc::Gen<ts::CivilDateTime> ValidCivilGen();

// Feb 28 / Feb 29 / Mar 1 (and year ends) of century and leap years, at midnight, just before
// the next midnight and at sub-ms ties. 1900-02-29 and 2100-02-29 are invalid on purpose.
rc::Gen<ts::CivilDateTime> LeapDayCivilGen();

// A valid value with one field replaced by an invalid (or extreme) one.
rc::Gen<ts::CivilDateTime> InvalidCivilGen();

// The mix of the three generators above, and the domain built on it.
rc::Gen<ts::CivilDateTime> CivilGen();
harness::Domain<ts::CivilDateTime> CivilDomain();

// ---- civil day (CQL date) -------------------------------------------------------------------

struct DayRanges {
  static constexpr int32_t kYear[2] = {-5877642, 5881581};
  static constexpr int32_t kMonth[2] = {-1, 14};
  static constexpr int32_t kDay[2] = {-1, 33};
};

// The corpus form of a civil day (a flag, then the fields in their DayRanges ranges or as full
// int32s; VisitDay), the generator (edge days, any day of the CQL date range, Feb 28 .. Mar 1 of
// leap and century years, invalid fields) and the domain.
rc::Gen<ts::CivilDay> DayGen();
harness::Domain<ts::CivilDay> DayDomain();

// ---- time of day ----------------------------------------------------------------------------

struct TimeRanges {
  static constexpr int32_t kHour[2] = {-1, 25};
  static constexpr int32_t kMinute[2] = {-1, 61};
  static constexpr int32_t kSecond[2] = {-1, 61};
  static constexpr int32_t kNano[2] = {-1, 1000000001};
};

// The corpus form of a time of day (a flag, then the fields in their TimeRanges ranges or as
// full int32s; VisitTime), the generator and the domain.
rc::Gen<ts::TimeOfDay> TimeGen();
harness::Domain<ts::TimeOfDay> TimeOfDayDomain();

// ---- double seconds -------------------------------------------------------------------------

// Doubles at which the rounding modes matter: exact ties (k + j/128 s), the neighbours of
// edge instants, the int64-µs limits, NaN, infinities, zeros, subnormals, huge values.
std::vector<double> EdgeSeconds();
// Doubles of seconds since the epoch: EdgeSeconds, exact ties k + j/128 s, instants of years
// 1..9999, any bit pattern. Corpus form: the double's 64 bits.
harness::Domain<Seconds> SecondsDomain();
// "%.17g s (bits 0x%016x)", and its parser (see ShowCivil above).
std::string ShowSeconds(const Seconds& s);
absl::StatusOr<Seconds> ParseSeconds(std::string_view text);

// ---- edge values (the generators' tables; also bson and cql take their time edges here) ----
// Edge values of the timestamp family: the instants, day counts and times of day where
// conversions most often go wrong. They feed the timestamp domains' generators
// (targets/timestamp/domain.h), the CQL and BSON generators of timestamps, dates and times,
// and the tests that sweep every edge (props/timestamp_edges_test.cc). They are test inputs,
// not part of the optimized library's interface, so they live here, beside the targets.
// Header-only: a family's fuzz binary links only its own target library, and the CQL and BSON
// targets use these tables too.
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

}  // namespace serdiff::targets::timestamp
