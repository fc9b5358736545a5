// `serdiff review` (tools/review.h; the rules: harness/review.h; the guide: docs/review.md).
#include "tools/review.h"

#include <algorithm>
#include <cstdint>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <iostream>
#include <map>
#include <memory>
#include <string>
#include <system_error>
#include <utility>
#include <vector>

#include "absl/strings/match.h"
#include "absl/strings/str_cat.h"
#include "absl/strings/str_format.h"
#include "absl/strings/str_join.h"
#include "absl/strings/str_split.h"
#include "harness/corpus.h"
#include "harness/external.h"
#include "harness/hex.h"
#include "harness/shrink.h"
#include "targets/families.h"
#include "tools/cli.h"
#include "tools/review_internal.h"

namespace serdiff::tools {
namespace {

using harness::Difference;
using harness::MeasuredOutput;
using review_internal::Cap;
using review_internal::Finding;
using review_internal::GrowthRow;
using review_internal::ReproLine;
using review_internal::SideText;
using review_internal::TargetRow;

// One side of the review: the implementation's name in its own registry, built with only that
// side's worker or module attached (so that two versions of one library, both named after it,
// never meet in one registry).
struct Side {
  std::string label;  // "before" / "after"
  std::string spec;   // as given
  std::string impl;   // the implementation's name
  std::vector<std::string> env;
  harness::RunConfig config;
  std::unique_ptr<harness::Registry> registry;
  const harness::Registry* selftest = nullptr;
  // A worker or module (a manifest, a module file or a shipped worker's name): only its own
  // implementation counts, never a compiled one that happens to share its name (the timestamp
  // family's reference is called "slow", and a worker named "optimized" attaches nowhere).
  bool external = false;

  // True when target t has this side's implementation, of the side's kind.
  bool Has(const Target& t) const { return HasImplementation(t, impl, external); }

  const Target* Find(const std::string& name) const {
    if (const Target* t = registry->Find(name)) return t;
    return selftest != nullptr ? selftest->Find(name) : nullptr;
  }
  SideText text() const { return {impl, spec}; }
};

std::string Absolute(const std::string& f) {
  std::error_code ec;
  const std::filesystem::path p = std::filesystem::absolute(f, ec);
  return ec ? f : p.lexically_normal().string();
}

// Resolves a side's spec into its run configuration. Errors: a manifest or module that cannot be
// read, an env entry without '='.
absl::Status Resolve(Side& side, bool selftest) {
  harness::RunConfig& c = side.config;
  c.external.default_workers = false;
  const std::string& s = side.spec;
  if (absl::EndsWith(s, ".json")) {
    absl::StatusOr<harness::WorkerManifest> m = harness::ReadWorkerManifest(Absolute(s));
    if (!m.ok()) return m.status();
    side.impl = m->name;
    side.external = true;
    c.external.worker_files.push_back(Absolute(s));
  } else if (absl::StrContains(s, ".so")) {
    absl::StatusOr<const serdiff_module*> m = harness::LoadModule(Absolute(s));
    if (!m.ok()) return m.status();
    side.impl = (*m)->name;
    side.external = true;
    c.external.module_files.push_back(Absolute(s));
  } else {
    side.impl = s;  // a shipped worker (AttachExternal finds the subject's manifest) or compiled
  }
  for (const std::string& e : side.env) {
    const size_t eq = e.find('=');
    if (eq == std::string::npos || eq == 0) {
      return absl::InvalidArgumentError(
          absl::StrCat("--", side.label, "-env takes NAME=value, not '", e, "'"));
    }
    c.external.worker_env.emplace_back(e.substr(0, eq),
                                       review_internal::AbsolutePaths(e.substr(eq + 1)));
  }
  c.subject = side.impl;
  side.registry = targets::BuildTargets(c);
  if (selftest) side.selftest = &targets::SelfTestTargets();
  side.external |= AttachedOutside(*side.registry, side.impl);
  // A side's worker or module that could not be attached is no side at all (serdiff_main.cc).
  if (!side.registry->attach_problems().empty()) {
    return absl::InvalidArgumentError(absl::StrCat(
        "not attached: ", absl::StrJoin(side.registry->attach_problems(), "; not attached: ")));
  }
  // A side's worker that cannot even start is no side either: its first input would be one
  // failure that no rerun confirms (the worker declined by then), and the review would pass.
  if (const std::vector<std::string> p = side.registry->StartNamedWorkers(); !p.empty()) {
    return absl::InvalidArgumentError(
        absl::StrCat("not attached: ", absl::StrJoin(p, "; not attached: ")));
  }
  // A name that is neither a file nor any target's implementation (a typo, a manifest path
  // without its .json) would otherwise surface as "no target has both ...".
  if (!absl::EndsWith(s, ".json") && !absl::StrContains(s, ".so")) {
    bool known = false;
    for (const harness::Registry* r :
         {static_cast<const harness::Registry*>(side.registry.get()), side.selftest}) {
      if (r == nullptr) continue;
      for (const auto& t : r->targets()) known = known || side.Has(*t);
    }
    if (!known) {
      return absl::InvalidArgumentError(absl::StrCat(
          "--", side.label, " ", s,
          " is not a worker manifest (.json), a module (.so) or an implementation of any target "
          "(serdiff list names them)"));
    }
  }
  if (!side.env.empty() && side.registry->workers().empty()) {
    return absl::InvalidArgumentError(absl::StrCat(
        "--", side.label, "-env applies to a worker, and ", s, " is not one (see serdiff list)"));
  }
  return absl::OkStatus();
}

using review_internal::kMaxWarmupCalls;
using review_internal::kMaxWarmupRun;
using review_internal::kMaxWarmupRunNs;

double Median(std::vector<double> v) {
  std::sort(v.begin(), v.end());
  return v[v.size() / 2];
}

// Warms both sides up on `input`: each side in turn runs 1, 2, 4, ... calls until it has spent
// o.warmup_ms in its calls (or made kMaxWarmupCalls), and then makes no more (a side 300 times
// slower than the other spends its own budget, not 300 times it). False when a side is not
// timed. *b_call, *a_call: each side's median call in its last run (ns).
bool WarmUp(const Target& tb, const Target& ta, const std::string& before_impl,
            const std::string& after_impl, const std::string& input, const ReviewOptions& o,
            double* b_call, double* a_call) {
  const double budget_ns = static_cast<double>(std::max(o.warmup_ms, 0)) * 1e6;
  struct Warm {
    const Target* t;
    const std::string* impl;
    int run = 1;
    double spent = 0;
    int64_t made = 0;
    std::vector<double> last;
    bool done = false;
  };
  Warm sides[2] = {{&tb, &before_impl, 1, 0, 0, {}, false}, {&ta, &after_impl, 1, 0, 0, {}, false}};
  while (!sides[0].done || !sides[1].done) {
    for (Warm& w : sides) {
      if (w.done) continue;
      w.last = w.t->TimeCalls(input, *w.impl, w.run);
      if (w.last.empty()) return false;
      double run_ns = 0;
      for (double x : w.last) run_ns += x;
      w.spent += run_ns;
      w.made += w.run;
      w.done = w.spent >= budget_ns || w.made >= kMaxWarmupCalls;
      // A run grows while it is short, so that one request stays well within a worker's deadline.
      if (run_ns < kMaxWarmupRunNs) w.run = std::min(w.run * 2, kMaxWarmupRun);
    }
  }
  *b_call = Median(sides[0].last);
  *a_call = Median(sides[1].last);
  return true;
}

// Interleaved timing rounds of both sides on one input (docs/review.md, "Speed"). The rounds are
// shared out over o.forks fresh processes of each worker side (Target::FreshProcess; a side in
// serdiff's process has none, and when neither side has one there is a single fork): a JIT's
// type feedback and an allocator's state differ from one process to the next and move a
// figure by 10 % or more, which the median over the forks' rounds rides out. In each fork
// first a warm-up (WarmUp: a JIT compiler's optimized code, warm caches and a grown heap are
// then in place on both sides alike); after the first fork's, the batch (TimedBatch: from the
// faster side's median call, the same for both sides and all forks, so that each timing lasts
// about o.sample_us and the clock's own cost is spread over the batch). Then per round
// `time_calls` timings of each side (the order alternating between rounds, so that a drift
// favours neither), and the round's median per side, in ns per call. Empty when a side is not
// timed here. *batch: the batch used.
void TimeRounds(const Target& tb, const Target& ta, const std::string& before_impl,
                const std::string& after_impl, const std::string& input, const ReviewOptions& o,
                std::vector<double>* bs, std::vector<double>* as, int* batch) {
  int forks = std::max(1, std::min(o.forks, o.time_rounds));
  int round = 0;
  for (int fork = 0; fork < forks; ++fork) {
    const bool b_fresh = tb.FreshProcess(before_impl);
    const bool a_fresh = ta.FreshProcess(after_impl);
    if (fork == 0 && !b_fresh && !a_fresh) forks = 1;
    double b_call = 0, a_call = 0;
    if (!WarmUp(tb, ta, before_impl, after_impl, input, o, &b_call, &a_call)) {
      bs->clear();
      as->clear();
      return;
    }
    if (fork == 0) *batch = harness::TimedBatch(b_call, a_call, o.sample_us);
    for (const int end = o.time_rounds * (fork + 1) / forks; round < end; ++round) {
      std::vector<double> b_ns, a_ns;
      if (round % 2 == 0) {
        b_ns = tb.TimeCalls(input, before_impl, o.time_calls, *batch);
        a_ns = ta.TimeCalls(input, after_impl, o.time_calls, *batch);
      } else {
        a_ns = ta.TimeCalls(input, after_impl, o.time_calls, *batch);
        b_ns = tb.TimeCalls(input, before_impl, o.time_calls, *batch);
      }
      if (b_ns.empty() || a_ns.empty()) {
        bs->clear();
        as->clear();
        return;
      }
      bs->push_back(Median(std::move(b_ns)));
      as->push_back(Median(std::move(a_ns)));
    }
  }
}

// An input to time once every input has been judged: rows[row]'s ladder step `growth`, or with
// growth -1 the row's speed input.
struct Timing {
  size_t row;
  int growth;
  const Target* tb;
  const Target* ta;
  std::string input;
};

bool SameBytes(const MeasuredOutput& b, const MeasuredOutput& a) {
  return b.output.ok() && a.output.ok() && *b.output == *a.output;
}

std::string Describe(const harness::Output& out) { return harness::DescribeOutput(out, nullptr); }

std::string PeakText(int64_t b) { return b < 0 ? "not reported" : absl::StrCat(b, " B"); }

// " (of which N % + M B the workers' measured noise)" when the manifests widened the allowance.
std::string NoiseNote(const ReviewOptions& o, const harness::HeapTolerance& heap) {
  if (heap.percent == o.heap.percent && heap.slack_bytes == o.heap.slack_bytes) return "";
  return absl::StrCat(" (of which ", heap.percent - o.heap.percent, " % + ",
                      heap.slack_bytes - o.heap.slack_bytes,
                      " B the runtime's heap noise, as its manifest states)");
}

// `--input`: one file, both sides in full.
int ReviewOneInput(const ReviewOptions& o, const Side& before, const Side& after,
                   const harness::HeapTolerance& heap) {
  const Target* tb = before.Find(o.target);
  const Target* ta = after.Find(o.target);
  if (tb == nullptr || ta == nullptr || !before.Has(*tb) || !after.Has(*ta)) {
    std::cerr << "serdiff review: target " << o.target << " has not both " << before.impl << " and "
              << after.impl << " (see serdiff list)\n";
    return 2;
  }
  absl::StatusOr<std::string> bytes = harness::ReadFileBytes(o.input);
  if (!bytes.ok()) {
    std::cerr << "serdiff review: " << bytes.status() << "\n";
    return 2;
  }
  const MeasuredOutput b = tb->RunOne(*bytes, before.impl);
  const MeasuredOutput a = ta->RunOne(*bytes, after.impl);
  const Difference d = harness::CompareSides(b, a, heap);
  std::cout << "target: " << o.target << "\nfile:   " << o.input << " (" << bytes->size()
            << " bytes)\ninput:  " << tb->ShowBytes(*bytes) << "\nbefore: " << before.impl << " ("
            << before.spec << "): " << Describe(b.output) << "\n        peak heap "
            << PeakText(b.peak_bytes) << "\nafter:  " << after.impl << " (" << after.spec
            << "): " << Describe(a.output) << "\n        peak heap " << PeakText(a.peak_bytes);
  if (d.heap_compared) {
    std::cout << " (allowed " << harness::HeapAllowance(b.peak_bytes, heap) << " B)";
  }
  std::cout << "\n";
  if (!d.compared) {
    std::cout << "not compared: the " << d.declined_by << " side declined the input\n";
    return 0;
  }
  if (d.cls.empty()) {
    std::cout << "review: the sides agree\n";
    return 0;
  }
  if (d.first_difference) {
    std::cout << "first differing output byte: " << *d.first_difference << "\n";
  }
  std::cout << "review: " << d.details << "\nserdiff review: " << o.target << ": " << d.cls << "\n";
  return 1;
}

}  // namespace

int Review(const ReviewOptions& o) {
  Side before{"before", o.before, "", o.before_env, {}, nullptr, nullptr};
  Side after{"after", o.after, "", o.after_env, {}, nullptr, nullptr};
  for (Side* s : {&before, &after}) {
    if (absl::Status st = Resolve(*s, o.selftest); !st.ok()) {
      std::cerr << "serdiff review: " << st.message() << "\n";
      return 2;
    }
  }
  // The heap allowance: the options', widened by the larger runtime noise the two sides' worker
  // manifests state ("heap_noise", measured by reviewing the worker against itself).
  harness::HeapTolerance heap = o.heap;
  int64_t noise_percent = 0, noise_bytes = 0;
  for (const Side* s : {&before, &after}) {
    for (const auto& w : s->registry->workers()) {
      if (w->manifest().name != s->impl) continue;
      noise_percent = std::max(noise_percent, w->manifest().heap_noise_percent);
      noise_bytes = std::max(noise_bytes, w->manifest().heap_noise_bytes);
    }
  }
  heap.percent += noise_percent;
  heap.slack_bytes += noise_bytes;
  if (!o.input.empty()) {
    if (o.target.empty()) {
      std::cerr << "serdiff review: --input needs --target\n";
      return 2;
    }
    if (!o.filter.empty()) {
      std::cerr
          << "serdiff review: --input reviews one input of --target; --filter takes no part\n";
      return 2;
    }
    return ReviewOneInput(o, before, after, heap);
  }
  if (!o.target.empty()) {  // without --input it would be ignored: a whole review instead
    std::cerr << "serdiff review: --target names the target of --input; use --filter to review "
                 "some targets\n";
    return 2;
  }
  if (o.max_slowdown >= 0 && o.time_rounds <= 0) {  // a gate that would never measure
    std::cerr << "serdiff review: --max-slowdown needs --time-rounds N (N > 0): without timing "
                 "there is no speed to hold to it\n";
    return 2;
  }
  // The targets both sides have.
  std::vector<std::pair<const Target*, const Target*>> pairs;
  auto consider = [&](const harness::Registry& r) {
    for (const auto& t : r.targets()) {
      if (!o.filter.empty() && !absl::StrContains(t->name(), o.filter)) continue;
      const Target* tb = before.Find(t->name());
      const Target* ta = after.Find(t->name());
      if (tb == nullptr || ta == nullptr) continue;
      if (before.Has(*tb) && after.Has(*ta)) pairs.emplace_back(tb, ta);
    }
  };
  consider(*before.registry);
  if (before.selftest != nullptr) consider(*before.selftest);
  if (pairs.empty()) {
    std::cerr << "serdiff review: no target" << (o.filter.empty() ? "" : " matching " + o.filter)
              << " has both " << before.impl << " (" << before.spec << ") and " << after.impl
              << " (" << after.spec << ") (see serdiff list)\n";
    return 2;
  }
  // With --json -, stdout carries the JSON report alone; the summary goes to stderr.
  std::ostream& human = o.json_path == "-" ? std::cerr : std::cout;
  human << "serdiff review: before " << before.impl << " (" << before.spec << "), after "
        << after.impl << " (" << after.spec << "); " << pairs.size()
        << " targets; the shipped corpus, then " << o.cases << " generated inputs (seed " << o.seed
        << "); heap allowance before + " << heap.percent << " % + " << heap.slack_bytes << " B"
        << NoiseNote(o, heap) << "\n";
  std::vector<TargetRow> rows;
  std::vector<Timing> timings;
  std::vector<Finding> findings;
  bool failed = false;
  for (const auto& pair : pairs) {
    // Named copies: clang 14 lets no lambda capture a structured binding.
    const Target* const tb = pair.first;
    const Target* const ta = pair.second;
    TargetRow row;
    row.target = tb->name();
    std::vector<std::string> inputs;
    absl::StatusOr<std::vector<std::string>> listed =
        harness::ListCorpusFiles(o.corpus_dir + "/" + tb->name());
    if (!listed.ok()) {
      std::cerr << "serdiff review: " << listed.status() << "\n";
      return 2;
    }
    for (const std::string& f : *listed) {
      absl::StatusOr<std::string> b = harness::ReadFileBytes(f);
      if (!b.ok()) {
        std::cerr << "serdiff review: " << b.status() << "\n";
        return 2;
      }
      inputs.push_back(*std::move(b));
    }
    for (int i = 0; i < o.cases; ++i) {
      inputs.push_back(tb->GeneratedBytes(o.seed + static_cast<uint64_t>(i), (i * 7) % 101));
    }
    std::map<std::string, size_t> first_of_class;  // class -> index in findings
    std::string timed_input;
    size_t timed_size = 0;
    // Judges one input; returns the two runs (for the growth table).
    auto judge = [&](const std::string& in, bool from_ladder, MeasuredOutput* b_out,
                     MeasuredOutput* a_out) -> Difference {
      ++row.inputs;
      MeasuredOutput b = tb->RunOne(in, before.impl);
      MeasuredOutput a = ta->RunOne(in, after.impl);
      const Difference d = harness::CompareSides(b, a, heap);
      // Each side against serdiff's own implementations, as `serdiff check` judges it.
      for (auto [side, t, count, first] :
           {std::tuple{&before, tb, &row.before_spec_failures, &row.before_spec_first},
            std::tuple{&after, ta, &row.after_spec_failures, &row.after_spec_first}}) {
        const CaseResult r = t->RunBytes(in, side->config);
        if (!r.passed) {
          if ((*count)++ == 0) *first = r.failure_class;
        }
      }
      if (!d.compared) {
        ++row.declined;
        for (auto [side, reason] :
             {std::pair{&b, &row.first_decline_before}, std::pair{&a, &row.first_decline_after}}) {
          if (reason->empty() && !side->output.ok() && harness::IsDeclined(side->output.status())) {
            *reason = std::string(side->output.status().message());
          }
        }
      } else {
        ++row.compared;
        if (d.heap_compared) {
          ++row.heap_compared;
          row.before_peak_max = std::max(row.before_peak_max, b.peak_bytes);
          row.after_peak_max = std::max(row.after_peak_max, a.peak_bytes);
          row.worst_heap_excess = std::max(row.worst_heap_excess, a.peak_bytes - b.peak_bytes);
          // Against the before peak or 256 B, whichever is larger: below 256 B a ratio says more
          // about a runtime's fixed costs than about the change.
          const double ratio = static_cast<double>(a.peak_bytes) /
                               static_cast<double>(std::max<int64_t>(b.peak_bytes, 256));
          if (ratio > row.worst_heap_ratio) {
            row.worst_heap_ratio = ratio;
            row.worst_heap_input_value = tb->ShowBytes(in);
          }
        }
        // Timed: the largest input both sides accept with the same bytes (a heap difference
        // does not stop a speed measurement).
        if (!from_ladder && SameBytes(b, a) && b.output->size() >= timed_size) {
          timed_size = b.output->size();
          timed_input = in;
        }
        if (!d.cls.empty()) {
          ++row.differing;
          ++row.classes[d.cls];
          if (first_of_class.count(d.cls) == 0) {
            first_of_class[d.cls] = findings.size();
            Finding f;
            f.from_ladder = from_ladder;
            f.target = row.target;
            f.cls = d.cls;
            f.input = in;
            f.details = d.details;
            findings.push_back(std::move(f));
          }
        }
      }
      if (b_out != nullptr) *b_out = std::move(b);
      if (a_out != nullptr) *a_out = std::move(a);
      return d;
    };
    for (const std::string& in : inputs) judge(in, false, nullptr, nullptr);
    // The size ladder (collection and batch targets): growth measured at each step.
    for (const Target::LadderStep& step : tb->LadderInputs()) {
      GrowthRow g;
      g.count = step.count;
      g.null_percent = step.null_percent;
      MeasuredOutput b, a;
      const Difference d = judge(step.bytes, true, &b, &a);
      g.compared = d.compared;
      g.cls = d.cls;
      g.output_bytes = b.output.ok() ? static_cast<int64_t>(b.output->size()) : -1;
      g.before_peak = b.peak_bytes;
      g.after_peak = a.peak_bytes;
      if (o.time_rounds > 0 && SameBytes(b, a)) {
        timings.push_back({rows.size(), static_cast<int>(row.growth.size()), tb, ta, step.bytes});
      }
      row.growth.push_back(g);
    }
    // Speed: interleaved rounds on the largest input both sides accept alike.
    if (o.time_rounds > 0) {
      if (timed_input.empty()) {
        row.speed_note = "not timed: no input both sides accept with the same bytes";
      } else {
        timings.push_back({rows.size(), -1, tb, ta, timed_input});
      }
    }
    rows.push_back(std::move(row));
  }
  // Shrink each finding to a local minimum: no smaller neighbour still differs the same way.
  for (Finding& f : findings) {
    const Target* tb = before.Find(f.target);
    const Target* ta = after.Find(f.target);
    auto class_of = [&](const std::string& c) {
      return harness::CompareSides(tb->RunOne(c, before.impl), ta->RunOne(c, after.impl), heap).cls;
    };
    // Confirmed first: the same class on at least kConfirmNeeded of kConfirmRuns re-runs.
    for (int i = 0; i < review_internal::kConfirmRuns; ++i) {
      if (class_of(f.input) == f.cls) ++f.confirmed_runs;
    }
    if (f.confirmed()) failed = true;
    absl::StatusOr<harness::ShrinkResult> s =
        !f.confirmed() ? absl::StatusOr<harness::ShrinkResult>(
                             absl::FailedPreconditionError("unconfirmed: not shrunk"))
        : f.from_ladder ? absl::StatusOr<harness::ShrinkResult>(absl::FailedPreconditionError(
                              "a ladder step: the smallest step of its class is kept"))
                        : harness::ShrinkWhile(*tb, f.input, class_of, o.shrink_runs);
    std::string kept = f.input;
    // The search keeps a candidate on one judgement; the smallest it kept is confirmed as the
    // input was, or the input as found is kept: a figure that moves between runs (V8's heap)
    // can match once by chance, and the written file and its reproduce line must show the class.
    // A search that kept nothing ends on the input itself, confirmed above already.
    int shrunk_confirmed = f.confirmed_runs;
    if (s.ok() && s->after_bytes != f.input) {
      shrunk_confirmed = 0;
      for (int i = 0; i < review_internal::kConfirmRuns; ++i) {
        if (class_of(s->after_bytes) == f.cls) ++shrunk_confirmed;
      }
    }
    if (s.ok() && shrunk_confirmed >= review_internal::kConfirmNeeded) {
      f.shrunk = *std::move(s);
      f.shrunk_ok = true;
      kept = f.shrunk.after_bytes;
    } else {
      if (s.ok()) {
        f.shrink_note =
            absl::StrCat("its shrunk form, ", Cap(s->after_value), ", gave the same class on ",
                         shrunk_confirmed, " of ", review_internal::kConfirmRuns,
                         " re-runs: not confirmed, the input as found is kept");
      }
      f.shrunk.before_value = tb->ShowBytes(f.input);
    }
    const MeasuredOutput b = tb->RunOne(kept, before.impl);
    const MeasuredOutput a = ta->RunOne(kept, after.impl);
    const Difference d = harness::CompareSides(b, a, heap);
    if (!d.details.empty() && d.cls == f.cls) f.details = d.details;
    f.before_text = absl::StrCat(Cap(Describe(b.output)), "; peak ", PeakText(b.peak_bytes));
    f.after_text = absl::StrCat(Cap(Describe(a.output)), "; peak ", PeakText(a.peak_bytes));
    absl::StatusOr<std::string> w = harness::WriteCorpusFile(o.out_dir + "/" + f.target, kept);
    if (w.ok()) f.written = *w;
  }
  // The timings last: each renews the worker processes (TimeRounds), which no judged input above
  // is to meet.
  for (const Timing& t : timings) {
    TargetRow& row = rows[t.row];
    std::vector<double> bs, as;
    int batch = 1;
    TimeRounds(*t.tb, *t.ta, before.impl, after.impl, t.input, o, &bs, &as, &batch);
    if (t.growth >= 0) {
      if (!bs.empty()) {
        row.growth[static_cast<size_t>(t.growth)].before_ns = Median(bs);
        row.growth[static_cast<size_t>(t.growth)].after_ns = Median(as);
      }
      continue;
    }
    if (bs.empty()) {
      row.speed_note =
          "not timed: a side does not time its calls (a worker not built on serdiff's worker "
          "libraries, docs/workers.md)";
      continue;
    }
    row.timed = true;
    row.speed_batch = batch;
    row.speed = harness::EstimateSpeed(bs, as);
    row.timed_value = t.tb->ShowBytes(t.input);
    if (o.max_slowdown >= 0 && row.speed.high < 1.0 / (1.0 + o.max_slowdown / 100.0)) {
      failed = true;
      row.over_max_slowdown = true;
      row.speed_note = absl::StrCat("slower by more than ", o.max_slowdown, " %");
    }
  }
  review_internal::PrintSummary(human, o, rows, findings);
  // A report to a file (or, with stdout_dash, "-": stdout); false when the file could not be
  // written.
  auto write = [](const std::string& path, const auto& writer, bool stdout_dash = false) {
    if (stdout_dash && path == "-") {
      writer(std::cout);
      return true;
    }
    std::ofstream f(path);
    writer(f);
    if (!f) std::cerr << "serdiff review: cannot write " << path << "\n";
    return static_cast<bool>(f);
  };
  if (!o.markdown_path.empty() && !write(o.markdown_path, [&](std::ostream& out) {
        review_internal::WriteMarkdown(out, o, before.text(), after.text(), rows, findings, failed);
      })) {
    return 2;
  }
  if (!o.json_path.empty() && !write(
                                  o.json_path,
                                  [&](std::ostream& out) {
                                    review_internal::WriteJson(out, o, before.text(), after.text(),
                                                               rows, findings, failed);
                                  },
                                  true)) {
    return 2;
  }
  if (!o.plots_dir.empty()) {
    for (const std::string& line :
         review_internal::WritePlots(o.plots_dir, before.text(), after.text(), rows)) {
      human << "plot: " << line << "\n";
    }
  }
  const auto confirmed = std::count_if(findings.begin(), findings.end(),
                                       [](const Finding& f) { return f.confirmed(); });
  // A side that declines every input (a misspelt variant, a worker whose library is missing)
  // reviews nothing; that is no pass.
  const bool nothing = !failed && review_internal::NothingCompared(rows);
  human << "\nserdiff review: "
        << (failed    ? "REGRESSION"
            : nothing ? "NOTHING COMPARED, every input declined"
                      : "no regression")
        << " (" << confirmed << " confirmed difference" << (confirmed == 1 ? "" : "s")
        << ", one per target and class, over " << rows.size() << " targets";
  if (confirmed != static_cast<int64_t>(findings.size())) {
    human << "; " << findings.size() - confirmed << " unconfirmed";
  }
  const auto too_slow = std::count_if(rows.begin(), rows.end(),
                                      [](const TargetRow& r) { return r.over_max_slowdown; });
  if (too_slow > 0) {
    human << "; " << too_slow << " target" << (too_slow == 1 ? "" : "s")
          << " slower than --max-slowdown " << o.max_slowdown << " allows";
  }
  human << ")\n";
  if (nothing) return 2;
  return failed ? 1 : 0;
}

}  // namespace serdiff::tools
