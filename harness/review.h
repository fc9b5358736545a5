// serdiff harness: the rules of a review (`serdiff review`, docs/review.md): one serializer
// before a change and after it, run on the same input, judged against each other. No accepted
// divergence applies between the two sides: they are the same library, so any difference is the
// change's.
//
// The rules (CompareSides), in order; the first that fails is the input's class:
//   0. a side that crashed, hung or broke the worker protocol: "<worker class>:before" or
//      ":after" (e.g. "worker-crashed:after"), before is looked at first;
//   1. a side that declined the input: not compared (Difference::compared false, no class);
//   2. outcome: both accept or both reject, else "class-changed" (accepted -> rejected or the
//      reverse; messages are never compared);
//   3. both accepted: the output bytes, else "bytes-changed" with the first differing offset;
//   4. both rejected: the error offsets (src/serdiff/common/error_offset.h) where both sides give
//      one, else "offset-changed"; a side without an offset is not compared on it;
//   5. the peak heap, where both sides report one (a worker may not: -1): the after side's peak
//      must be at most HeapAllowance(before's peak), else "heap-grew".
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "harness/definition.h"
#include "harness/result.h"

namespace serdiff::harness {

// What a review allows the after side's peak heap to exceed the before side's by, per input:
// allowance = before + before * percent / 100 (rounded down) + slack_bytes. Both >= 0.
struct HeapTolerance {
  int64_t percent = 10;       // `serdiff review --heap-tolerance` (percent of the before peak)
  int64_t slack_bytes = 256;  // `serdiff review --heap-slack` (bytes)
};

// The largest peak (bytes) the after side may have on an input where the before side peaked at
// `before_peak` bytes. Precondition: before_peak >= 0, tolerance fields >= 0.
int64_t HeapAllowance(int64_t before_peak, const HeapTolerance& tolerance);

// How one review input came out (the rules above).
struct Difference {
  bool compared = true;     // false: a side declined it (rule 1)
  std::string declined_by;  // "before" / "after" when not compared
  std::string cls;          // "" when the sides agree (or were not compared), else the class
  std::optional<int64_t> first_difference;  // bytes-changed: the first differing output byte
  std::string details;                      // one line on the difference; "" when none
  bool heap_compared = false;               // rule 5 applied (both peaks known)
};

// Judges one input: `before` and `after` are the two sides' first runs with their peaks
// (MeasuredOutput::peak_bytes, -1 when the side does not report one).
Difference CompareSides(const MeasuredOutput& before, const MeasuredOutput& after,
                        const HeapTolerance& tolerance);

// ---- speed -------------------------------------------------------------------------------------

// The ratio of two sides' call times (before / after: above 1 the after side is faster), from
// interleaved rounds of timings (nanoseconds per call, one sample per round and side).
struct SpeedEstimate {
  double ratio = 1.0;  // median(before) / median(after)
  double low = 1.0;    // the ratio's confidence interval (95 %, bootstrap percentiles)
  double high = 1.0;
  std::string verdict;  // "faster", "slower", "no difference at this precision"
  int64_t rounds = 0;   // samples per side used
};

// The estimate from paired samples (before[i], after[i] timed in the same round i, both > 0;
// equal sizes >= 1). The interval comes from `resamples` bootstrap resamples of the rounds
// (a fixed seed: the same samples always give the same interval), each resample drawing rounds
// with replacement and taking the median of each side; the verdict is "faster" when the
// interval lies wholly above 1, "slower" wholly below, else no difference at this precision.
SpeedEstimate EstimateSpeed(const std::vector<double>& before_ns,
                            const std::vector<double>& after_ns, int resamples = 2000);

// The most calls one timing may hold (the worker libraries' limit on a request's "batch").
inline constexpr int kMaxTimedBatch = 1000000;

// Calls per timing (Target::TimeCalls' batch) for two sides whose median call took
// before_call_ns and after_call_ns: the fewest with which a timing of the faster side lasts at
// least sample_us microseconds, so that the clock's own cost (some 20 ns in C++, 100 ns in Node)
// is a small share of it; in 1..kMaxTimedBatch. 1 when sample_us <= 0 or a time is negative or
// NaN. Both sides are timed with the same batch, so that they are measured alike.
int TimedBatch(double before_call_ns, double after_call_ns, int sample_us);

}  // namespace serdiff::harness
