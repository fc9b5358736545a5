// The rules of a review (harness/review.h).
#include "harness/review.h"

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <random>
#include <string>
#include <vector>

#include "absl/strings/str_cat.h"
#include "serdiff/common/error_offset.h"

namespace serdiff::harness {

int64_t HeapAllowance(int64_t before_peak, const HeapTolerance& tolerance) {
  return before_peak + before_peak * tolerance.percent / 100 + tolerance.slack_bytes;
}

namespace {

std::string OutcomeText(const Output& out) {
  return out.ok() ? absl::StrCat("accepted (", out->size(), " bytes)")
                  : absl::StrCat("rejected (", absl::StatusCodeToString(out.status().code()), ")");
}

}  // namespace

Difference CompareSides(const MeasuredOutput& before, const MeasuredOutput& after,
                        const HeapTolerance& tolerance) {
  Difference d;
  // Rule 0: a side that failed as a worker.
  for (const auto& [side, run] : {std::pair{"before", &before}, std::pair{"after", &after}}) {
    if (run->output.ok()) continue;
    const std::string cls = WorkerFailureClass(run->output.status());
    if (!cls.empty()) {
      d.cls = absl::StrCat(cls, ":", side);
      d.details = std::string(run->output.status().message());
      return d;
    }
  }
  // Rule 1: a decline is not compared.
  for (const auto& [side, run] : {std::pair{"before", &before}, std::pair{"after", &after}}) {
    if (!run->output.ok() && IsDeclined(run->output.status())) {
      d.compared = false;
      d.declined_by = side;
      d.details = std::string(run->output.status().message());
      return d;
    }
  }
  // Rule 2: the outcome.
  if (before.output.ok() != after.output.ok()) {
    d.cls = "class-changed";
    d.details =
        absl::StrCat("before ", OutcomeText(before.output), ", after ", OutcomeText(after.output));
    return d;
  }
  if (before.output.ok()) {
    // Rule 3: the bytes.
    const std::string& b = *before.output;
    const std::string& a = *after.output;
    if (b != a) {
      const auto mismatch = std::mismatch(b.begin(), b.end(), a.begin(), a.end());
      d.cls = "bytes-changed";
      d.first_difference = static_cast<int64_t>(mismatch.first - b.begin());
      d.details = absl::StrCat("first difference at output byte ", *d.first_difference, " (before ",
                               b.size(), " bytes, after ", a.size(), ")");
      return d;
    }
  } else {
    // Rule 4: the error offsets, where both give one.
    const std::optional<int64_t> ob = ErrorOffset(before.output.status());
    const std::optional<int64_t> oa = ErrorOffset(after.output.status());
    if (ob && oa && *ob != *oa) {
      d.cls = "offset-changed";
      d.details = absl::StrCat("before rejects at input byte ", *ob, ", after at ", *oa);
      return d;
    }
  }
  // Rule 5: the peak heap.
  if (before.peak_bytes >= 0 && after.peak_bytes >= 0) {
    d.heap_compared = true;
    const int64_t allowed = HeapAllowance(before.peak_bytes, tolerance);
    if (after.peak_bytes > allowed) {
      d.cls = "heap-grew";
      d.details = absl::StrCat("after peaks at ", after.peak_bytes, " B, before at ",
                               before.peak_bytes, " B; allowed ", allowed, " B (+",
                               tolerance.percent, " % + ", tolerance.slack_bytes, " B)");
    }
  }
  return d;
}

namespace {

double Median(std::vector<double> v) {
  const size_t n = v.size();
  std::nth_element(v.begin(), v.begin() + n / 2, v.end());
  const double hi = v[n / 2];
  if (n % 2 == 1) return hi;
  return (*std::max_element(v.begin(), v.begin() + n / 2) + hi) / 2;
}

}  // namespace

SpeedEstimate EstimateSpeed(const std::vector<double>& before_ns,
                            const std::vector<double>& after_ns, int resamples) {
  SpeedEstimate e;
  const size_t n = std::min(before_ns.size(), after_ns.size());
  e.rounds = static_cast<int64_t>(n);
  if (n == 0) {
    e.verdict = "no difference at this precision";
    return e;
  }
  e.ratio = Median(before_ns) / Median(after_ns);
  std::mt19937_64 rng(0x5e7d1ffULL);
  std::uniform_int_distribution<size_t> pick(0, n - 1);
  std::vector<double> ratios;
  ratios.reserve(static_cast<size_t>(std::max(resamples, 1)));
  std::vector<double> b(n), a(n);
  for (int r = 0; r < resamples; ++r) {
    for (size_t i = 0; i < n; ++i) {
      const size_t k = pick(rng);  // one round: both sides' samples of it
      b[i] = before_ns[k];
      a[i] = after_ns[k];
    }
    ratios.push_back(Median(b) / Median(a));
  }
  if (ratios.empty()) ratios.push_back(e.ratio);
  std::sort(ratios.begin(), ratios.end());
  const auto at = [&](double q) {
    const size_t i = static_cast<size_t>(q * static_cast<double>(ratios.size() - 1) + 0.5);
    return ratios[std::min(i, ratios.size() - 1)];
  };
  e.low = at(0.025);
  e.high = at(0.975);
  if (e.low > 1.0) {
    e.verdict = "faster";
  } else if (e.high < 1.0) {
    e.verdict = "slower";
  } else {
    e.verdict = "no difference at this precision";
  }
  return e;
}

int TimedBatch(double before_call_ns, double after_call_ns, int sample_us) {
  if (sample_us <= 0 || !(before_call_ns >= 0) || !(after_call_ns >= 0)) return 1;  // NaN too
  const double fastest = std::min(before_call_ns, after_call_ns);
  const double want = static_cast<double>(sample_us) * 1000.0;
  if (fastest * kMaxTimedBatch <= want) return kMaxTimedBatch;
  return std::max(1, static_cast<int>(std::ceil(want / fastest)));
}

}  // namespace serdiff::harness
