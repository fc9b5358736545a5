// `serdiff check`: every target's corpus replayed, then generated cases; the table, the outside
// implementations' table, the JSON report (tools/cli.h).
#include <unistd.h>

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <iostream>
#include <string>
#include <system_error>
#include <vector>

#include "absl/strings/escaping.h"
#include "absl/strings/match.h"
#include "absl/strings/str_cat.h"
#include "absl/strings/str_format.h"
#include "absl/strings/str_join.h"
#include "absl/strings/strip.h"
#include "harness/corpus.h"
#include "harness/hex.h"
#include "harness/shrink.h"
#include "targets/families.h"
#include "tools/cli.h"

namespace serdiff::tools {
namespace {

struct Failure {
  std::string target;
  std::string failure_class;
  std::string path;
  bool selftest = false;   // the repro command then needs --selftest
  std::string unreadable = {};  // set: a corpus entry that could not be read, and why (no repro)
};

struct Row {
  std::string target;
  int corpus = 0;
  int generated = 0;
  int failures = 0;
  int64_t peak = 0;       // largest optimized peak seen
  int64_t bound = -1;     // the bound of that case
  int64_t ref_peak = -1;  // first reference's peak in the same case as `peak`
  int64_t rej_peak = -1;  // largest optimized peak among rejected inputs (-1: none rejected)
  int64_t rej_bound = -1;
  int subject_declined = 0;    // cases the subject declined (not judged)
  std::string decline_reason;  // the first of them
  double seconds = 0;
};

// One outside implementation (module or worker) on one target, in `check`'s second table.
struct ExternalRow {
  std::string impl;
  std::string target;
  bool subject = false;
  int64_t calls = 0;
  int64_t declined = 0;
  int64_t rejected = 0;
  int64_t peak = -1;  // largest reported peak (-1: none reported)
};

// `serdiff check --json`'s schema (docs/fuzzing.md, "serdiff check --json"): raised when a field
// changes meaning or goes away; new fields may appear without it.
constexpr int kCheckJsonSchemaVersion = 1;

}  // namespace

int Check(const Session& session, const CheckOptions& o) {
  const int cases = o.cases;
  const uint64_t seed = o.seed;
  const std::string& corpus_dir = o.corpus_dir;
  const std::string& json_path = o.json_path;
  const std::string& failures_dir = o.failures_dir;
  std::vector<Row> rows;
  std::vector<ExternalRow> external;
  std::vector<Failure> failures;
  std::error_code ec;
  if (!std::filesystem::is_directory(corpus_dir, ec)) {
    std::cerr << "serdiff: corpus root " << corpus_dir << " is not a directory\n";
    return 2;
  }
  const std::vector<const Target*> targets = Selected(session, o.filter);
  if (targets.empty()) {
    std::cerr << "serdiff: no target matches --filter " << o.filter << " (see serdiff list)\n";
    return 2;
  }
  // Progress on stderr, only when it is a terminal: targets done, cases per second, and an
  // estimate of the time left from the pace so far.
  const bool progress = isatty(STDERR_FILENO) == 1;
  const auto check_start = std::chrono::steady_clock::now();
  int64_t cases_done = 0;
  size_t targets_done = 0;
  auto show_progress = [&](const std::string& current) {
    if (!progress) return;
    const double s =
        std::chrono::duration<double>(std::chrono::steady_clock::now() - check_start).count();
    const double rate = s > 0 ? static_cast<double>(cases_done) / s : 0;
    const double left = targets_done > 0 ? s / static_cast<double>(targets_done) *
                                               static_cast<double>(targets.size() - targets_done)
                                         : 0;
    std::fprintf(stderr, "\r\033[K[%zu/%zu targets] %.0f cases/s, ~%.0f s left  %s", targets_done,
                 targets.size(), rate, left, current.c_str());
    std::fflush(stderr);
  };
  for (const Target* t : targets) {
    Row row;
    row.target = t->name();
    show_progress(t->name());
    const auto start = std::chrono::steady_clock::now();
    const size_t external_begin = external.size();
    auto note = [&](const CaseResult& r) {
      if (r.subject_declined && row.subject_declined++ == 0) {
        row.decline_reason = r.subject_decline_reason;
      }
      for (const CaseResult::ExternalRun& e : r.external) {
        ExternalRow* er = nullptr;
        for (size_t k = external_begin; k < external.size(); ++k) {
          if (external[k].impl == e.name) er = &external[k];
        }
        if (er == nullptr) {
          external.push_back({e.name, t->name(), e.is_subject});
          er = &external.back();
        }
        ++er->calls;
        if (e.outcome == serdiff::harness::Outcome::kDeclined) ++er->declined;
        if (e.outcome == serdiff::harness::Outcome::kRejected) ++er->rejected;
        er->peak = std::max(er->peak, e.peak_bytes);
      }
      if (r.optimized_peak_bytes >= row.peak) {
        row.peak = r.optimized_peak_bytes;
        row.bound = r.heap_bound_bytes;
        row.ref_peak = r.reference_peak_bytes;
      }
      if (r.optimized_rejected && r.optimized_peak_bytes >= row.rej_peak) {
        row.rej_peak = r.optimized_peak_bytes;
        row.rej_bound = r.heap_bound_bytes;
      }
      if (!r.passed) {
        auto path = serdiff::harness::WriteCorpusFile(absl::StrCat(failures_dir, "/", t->name()),
                                                      r.corpus_bytes);
        if (!path.ok()) {
          std::cerr << "serdiff: could not save the failing input: " << path.status() << "\n";
        }
        // An input met twice (a generator repeats small values) is one failure, reported once.
        if (path.ok() && std::any_of(failures.begin(), failures.end(), [&](const Failure& f) {
              return f.target == t->name() && f.path == *path;
            })) {
          return;
        }
        ++row.failures;
        failures.push_back({t->name(), r.failure_class, path.ok() ? *path : "(not saved)",
                            t->family() == "selftest"});
        if (progress) std::cerr << "\r\033[K";
        std::cerr << r.report
                  << serdiff::harness::ReproCommands(t->name(), failures.back().path,
                                                     failures.back().selftest,
                                                     CliReproTools(t->name()), session.config)
                  << "\n";
      }
    };
    // A corpus entry that cannot be read is a failure of its own class, listed with its reason
    // (in the summary and the JSON report), with no repro line: there is no input to give it.
    auto unreadable = [&](const std::string& path, const absl::Status& why) {
      std::cerr << why << "\n";
      ++row.failures;
      failures.push_back({t->name(), "unreadable-input", path, t->family() == "selftest",
                          std::string(why.message())});
    };
    absl::StatusOr<std::vector<std::string>> listed =
        serdiff::harness::ListCorpusFiles(corpus_dir + "/" + t->name());
    if (!listed.ok()) {  // a folder it cannot read: every input below it is unreplayed
      unreadable(corpus_dir + "/" + t->name(), listed.status());
      listed = std::vector<std::string>();
    }
    for (const std::string& f : *listed) {
      auto bytes = serdiff::harness::ReadFileBytes(f);
      if (!bytes.ok()) {
        unreadable(f, bytes.status());
        continue;
      }
      CaseResult r = t->RunBytes(*bytes, session.config);
      if (!r.passed) r.corpus_bytes = *bytes;  // keep the file as it was
      note(r);
      ++row.corpus;
      ++cases_done;
    }
    for (int i = 0; i < cases; ++i) {
      // RapidCheck sizes sweep 0..100 so small and large inputs both appear.
      note(t->RunGenerated(seed + static_cast<uint64_t>(i) * 0x9E3779B97F4A7C15ull, i % 101,
                           session.config));
      ++row.generated;
      if (++cases_done % 256 == 0) show_progress(t->name());
    }
    row.seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
    rows.push_back(row);
    ++targets_done;
  }
  if (progress) std::fprintf(stderr, "\r\033[K");

  // With --json -, stdout carries the JSON report alone; the table goes to stderr.
  std::ostream& human = json_path == "-" ? std::cerr : std::cout;
  size_t w = 6;
  for (const Row& r : rows) w = std::max(w, r.target.size());
  human << absl::StrFormat("%-*s %7s %9s %8s %12s %12s %12s %12s %12s %8s\n", w, "target", "corpus",
                           "generated", "failures", "peak heap", "bound", "ref peak", "reject peak",
                           "reject bound", "seconds");
  int total_failures = 0;
  for (const Row& r : rows) {
    total_failures += r.failures;
    human << absl::StrFormat("%-*s %7d %9d %8d %12s %12s %12s %12s %12s %8.2f\n", w, r.target,
                             r.corpus, r.generated, r.failures, Bytes(r.peak), Bytes(r.bound),
                             Bytes(r.ref_peak), Bytes(r.rej_peak), Bytes(r.rej_bound), r.seconds);
  }
  if (!external.empty()) {
    // The outside implementations: each one's calls (inputs it was given), declines, rejections
    // and its largest peak (reported by the worker, or the tracker's for a module), beside the
    // peaks of the table above.
    size_t wi = 14;
    for (const ExternalRow& e : external) wi = std::max(wi, e.impl.size());
    human << absl::StrFormat("\n%-*s %-*s %-7s %-6s %7s %8s %8s %12s\n", wi, "implementation", w,
                             "target", "role", "kind", "calls", "declined", "rejected",
                             "peak heap");
    for (const ExternalRow& e : external) {
      const serdiff::harness::Target* t = FindTarget(session, e.target);
      std::string kind = "?";
      for (const auto& i : t->info().impls) {
        if (i.name == e.impl) kind = std::string(serdiff::harness::ImplKindName(i.kind));
      }
      human << absl::StrFormat("%-*s %-*s %-7s %-6s %7d %8d %8d %12s\n", wi, e.impl, w, e.target,
                               e.subject ? "subject" : "peer", kind, e.calls, e.declined,
                               e.rejected, Bytes(e.peak));
    }
    for (const auto& wc : session.targets->workers()) {
      if (wc->calls() == 0) continue;
      human << "  " << wc->manifest().name
            << (wc->library().empty() ? "" : " (" + wc->library() + ")") << ": " << wc->calls()
            << " calls, " << wc->starts() << (wc->starts() == 1 ? " start" : " starts")
            << (wc->peak_text().empty() ? "" : "; peak: " + wc->peak_text()) << "\n";
      // A worker that cannot run declines every call: say why, here and not only in a repro.
      if (wc->declined_reason()) {
        human << "  " << wc->manifest().name << " declined every call: " << *wc->declined_reason()
              << "\n";
      }
    }
    human << "\n";
  }
  int subject_declined = 0, cases_run = 0;
  for (const Row& r : rows) {
    subject_declined += r.subject_declined;
    cases_run += r.corpus + r.generated;
  }
  if (subject_declined > 0) {
    human << absl::StrFormat("%s declined %d cases (not judged)\n", session.config.subject,
                             subject_declined);
    // A target whose every input the subject declined was not judged at all: say so, with why.
    for (const Row& r : rows) {
      if (r.subject_declined == r.corpus + r.generated) {
        absl::string_view why = r.decline_reason;
        absl::ConsumePrefix(&why, "declined: ");
        human << "  " << session.config.subject << " declined every input of " << r.target << ": "
              << why << "\n";
      }
    }
  }
  human << absl::StrFormat("%d targets, %d failures\n", rows.size(), total_failures);
  // A subject that declined every input of every target was judged on nothing: no pass (exit 2),
  // as serdiff review's "NOTHING COMPARED".
  const bool nothing_judged =
      !session.config.subject.empty() && cases_run > 0 && subject_declined == cases_run;
  if (nothing_judged && total_failures == 0) {
    human << "serdiff: NOTHING JUDGED: " << session.config.subject << " declined every input\n";
  }
  for (const Failure& f : failures) {
    if (!f.unreadable.empty()) {
      human << "FAIL " << f.target << ": " << f.failure_class << "\n  " << f.unreadable << "\n";
      continue;
    }
    std::error_code abs_ec;
    const std::filesystem::path abs = std::filesystem::absolute(f.path, abs_ec);
    human << "FAIL " << f.target << ": " << f.failure_class << "\n  "
          << serdiff::harness::ShellWord(serdiff::harness::SelfPath())
          << (f.selftest ? " --selftest" : "") << session.repro_args << " repro " << f.target << " "
          << serdiff::harness::ShellWord(abs_ec ? f.path : abs.lexically_normal().string()) << "\n";
  }

  if (!json_path.empty()) {
    std::string j = absl::StrFormat(
        "{\"schema_version\": %d, \"seed\": %d, \"cases\": %d, \"failures\": %d, "
        "\"nothing_judged\": %s, \"targets\": [",
        kCheckJsonSchemaVersion, seed, cases, total_failures, nothing_judged ? "true" : "false");
    for (size_t i = 0; i < rows.size(); ++i) {
      const Row& r = rows[i];
      absl::StrAppendFormat(&j,
                            "%s\n  {\"target\": %s, \"corpus\": %d, \"generated\": %d, "
                            "\"failures\": %d, \"peak_heap_bytes\": %d, \"heap_bound_bytes\": %d, "
                            "\"reference_peak_heap_bytes\": %d, \"rejected_peak_heap_bytes\": %d, "
                            "\"rejected_heap_bound_bytes\": %d, \"seconds\": %.3f}",
                            i ? "," : "", JsonText(r.target), r.corpus, r.generated, r.failures,
                            r.peak, r.bound, r.ref_peak, r.rej_peak, r.rej_bound, r.seconds);
    }
    j += "\n], \"failing_inputs\": [";
    for (size_t i = 0; i < failures.size(); ++i) {
      absl::StrAppendFormat(
          &j, "%s\n  {\"target\": %s, \"class\": %s, \"path\": %s%s}", i ? "," : "",
          JsonText(failures[i].target), JsonText(failures[i].failure_class),
          JsonText(failures[i].path),
          failures[i].unreadable.empty()
              ? ""
              : absl::StrCat(", \"unreadable\": ", JsonText(failures[i].unreadable)));
    }
    j += "\n]}\n";
    if (json_path == "-") {
      std::cout << j;
    } else {
      std::ofstream out(json_path, std::ios::trunc);
      out << j;
      out.flush();
      if (!out) {
        std::cerr << "serdiff: cannot write the JSON report to " << json_path << "\n";
        return 2;
      }
    }
  }
  if (total_failures > 0) return 1;
  return nothing_judged ? 2 : 0;
}

}  // namespace serdiff::tools
