// `serdiff review`'s results as data and their reports (tools/review.cc runs the review,
// tools/review_report.cc writes the terminal summary, the Markdown, the JSON and the plots).
#pragma once

#include <cstdint>
#include <map>
#include <ostream>
#include <string>
#include <vector>

#include "harness/review.h"
#include "harness/shrink.h"
#include "tools/review.h"

namespace serdiff::tools::review_internal {

// A side as the reports name it: its implementation's name and the spec it was given as.
struct SideText {
  std::string impl;
  std::string spec;
};

struct Finding {
  bool from_ladder = false;  // found on a ladder step: the first (smallest) step is kept as is
  std::string target;
  std::string cls;
  std::string input;  // the first input found with this class
  std::string details;
  harness::ShrinkResult shrunk;
  bool shrunk_ok = false;
  std::string shrink_note;  // why a shrunk form was not kept, when one was found
  std::string written;      // the shrunk input's file
  std::string before_text, after_text;
  // Re-judged kConfirmRuns times before it counts: how many gave the same class. Below
  // kConfirmNeeded the finding is unconfirmed (a measurement that moves from run to run, such as
  // a V8 heap figure that depends on what the worker ran before): reported, not a regression.
  int confirmed_runs = 0;
  bool confirmed() const;
};
inline constexpr int kConfirmRuns = 3;
inline constexpr int kConfirmNeeded = 2;
inline bool Finding::confirmed() const { return confirmed_runs >= kConfirmNeeded; }

// One step of a target's size ladder, both sides.
struct GrowthRow {
  uint32_t count = 0;
  int null_percent = 0;
  int64_t output_bytes = -1;  // the before side's output; -1 when it rejected or declined
  int64_t before_peak = -1, after_peak = -1;
  double before_ns = -1, after_ns = -1;  // median ns per call (--time-rounds), -1: not timed
  std::string cls;                       // the step's class, "" when the sides agree
  bool compared = true;
};

struct TargetRow {
  std::vector<GrowthRow> growth;
  std::string target;
  int64_t inputs = 0, compared = 0, declined = 0, differing = 0, heap_compared = 0;
  // Each side's reason for the first input it declined ("" when it declined none).
  std::string first_decline_before, first_decline_after;
  std::map<std::string, int64_t> classes;  // class -> inputs
  int64_t before_spec_failures = 0, after_spec_failures = 0;
  std::string before_spec_first, after_spec_first;  // first class against the spec
  // Peak heap: the largest of each side, and the largest after/before ratio of one input.
  int64_t before_peak_max = -1, after_peak_max = -1;
  double worst_heap_ratio = 0;
  int64_t worst_heap_excess = 0;  // the largest after peak - before peak of one input (bytes)
  std::string worst_heap_input_value;
  bool timed = false;
  harness::SpeedEstimate speed;
  int speed_batch = 1;  // calls per timing (TimedBatch)
  std::string timed_value;
  std::string speed_note;
  bool over_max_slowdown = false;  // slower than --max-slowdown allows: fails the review
};

// The speed's timings (docs/review.md, "Speed"). Warm-up runs double from 1 call up to
// kMaxWarmupRun calls a request, and stop at kMaxWarmupCalls calls of each side in all.
inline constexpr int kMaxWarmupRun = 100000;
inline constexpr int64_t kMaxWarmupCalls = 1000000;
// A warm-up run stops doubling once a side's run took this long (ns): a request of a worker
// stays far below its deadline (10 s by default).
inline constexpr double kMaxWarmupRunNs = 5e8;

// An environment value as the worker needs it: the worker runs in its manifest's folder, so each
// ':'-separated part holding a '/' that names an existing file or folder relative to where serdiff
// was started
// (PYTHONPATH=../driver-old, SERDIFF_NODE_PACKAGES=oracles/node_review) is made absolute; other
// parts are kept as given.
std::string AbsolutePaths(const std::string& value);
// A long printed value cut for the summary (the file holds the whole input).
std::string Cap(const std::string& text, size_t n = 240);
// The command that judges one input of a review, as the reviewer ran it (the running binary's
// absolute path, every option that changes a verdict, --target, --input with the file's absolute
// path).
std::string ReproLine(const ReviewOptions& o, const std::string& target, const std::string& file);
// The terminal summary: one row per target, its speed and size ladder, then each finding.
void PrintSummary(std::ostream& out, const ReviewOptions& o, const std::vector<TargetRow>& rows,
                  const std::vector<Finding>& findings);
// True when no target compared a single input and some input was declined (a side declined
// every one): the review judged nothing, which is no pass (exit 2, "passed": false). A review
// with no input at all (--cases 0 over an empty corpus) is not this.
inline bool NothingCompared(const std::vector<TargetRow>& rows) {
  bool declined = false;
  for (const TargetRow& r : rows) {
    if (r.compared > 0) return false;
    declined |= r.declined > 0;
  }
  return declined;
}
// The Markdown report (for a pull request): the summary table, the growth tables, the findings.
void WriteMarkdown(std::ostream& md, const ReviewOptions& o, const SideText& before,
                   const SideText& after, const std::vector<TargetRow>& rows,
                   const std::vector<Finding>& findings, bool failed);
// The JSON report, "schema_version": 1 (docs/review.md lists its fields).
void WriteJson(std::ostream& js, const ReviewOptions& o, const SideText& before,
               const SideText& after, const std::vector<TargetRow>& rows,
               const std::vector<Finding>& findings, bool failed);
// --plots (docs/review.md): a .dat, a gnuplot script and, with gnuplot installed, a PNG per target
// with a size ladder; one line per target saying what was written.
std::vector<std::string> WritePlots(const std::string& dir, const SideText& before,
                                    const SideText& after, const std::vector<TargetRow>& rows);

}  // namespace serdiff::tools::review_internal
