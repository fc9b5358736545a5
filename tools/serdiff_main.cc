// serdiff — command-line front end of the harness.
//
//   serdiff list                      every target: family, domain, implementations, heap bound,
//                                     accepted divergences
//   serdiff check [--cases N] ...     replay each target's corpus, then N generated cases;
//                                     table of target, cases, failures, peak heap vs bound,
//                                     seconds; --json for a machine-readable report; exit 1
//                                     on any failure, printing a repro command per failure
//   serdiff repro <target> <file>     the full differential report for one corpus/crash input;
//                                     exit 1 when it fails; a failing report ends with
//                                     copy-paste commands for ctest, the raw fuzz binary and
//                                     OSS-Fuzz's reproduce helper
//     --shrink                        first shrink the input to the smallest value that fails
//                                     with the same `serdiff:` line (harness/shrink.h), print
//                                     before and after, write it as <out>/<target>/<sha1>
//     --emit-regression               keep the (shrunk) input as
//                                     corpus/<target>/regressions/<sha1>; prints the ctest
//                                     command that replays it
// Exit status: 0 pass, 1 a differential failure, 2 a usage or I/O error.
//   serdiff seed <target> --count N   writes N generated inputs into corpus/<target>/
//   serdiff seed <target> --value '<text>' [--value ...]
//                                     writes the input each text names, in the form `serdiff
//                                     show` prints it (or a shorter form the domain's parser
//                                     accepts: docs/architecture.md), into corpus/<target>/
//                                     (SHA-1 named); prints each path and, for an input that
//                                     fails, its class. A text that cannot be read exits 2
//                                     with the parser's error ("at character N: ...") and
//                                     writes nothing; so does a domain without a parser.
//   serdiff show <target> [file...]  the value each file decodes to (default: its whole corpus);
//                                     --tsv for tests/data/corpus-printed/<target>.tsv
//   serdiff dict <family>             the family's libFuzzer dictionary, generated from its
//                                     format tables (checked in as fuzz/<family>.dict)
#include <unistd.h>

#include <algorithm>
#include <cstdlib>

#include <chrono>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <iostream>
#include <string>
#include <system_error>
#include <vector>

#include "CLI/CLI.hpp"
#include "absl/strings/escaping.h"
#include "absl/strings/match.h"
#include "absl/strings/str_cat.h"
#include "absl/strings/str_format.h"
#include "absl/strings/str_join.h"
#include "harness/corpus.h"
#include "harness/report.h"
#include "harness/shrink.h"
#include "harness/target.h"
#include "targets/families.h"
#include "tools/dicts.h"

namespace {

using serdiff::harness::CaseResult;
using serdiff::harness::Registry;
using serdiff::harness::Target;

const Target* FindTarget(const std::string& name, bool selftest) {
  if (const Target* t = serdiff::targets::AllTargets().Find(name)) return t;
  if (selftest) return serdiff::targets::SelfTestTargets().Find(name);
  return nullptr;
}

std::vector<const Target*> Selected(const std::string& filter, bool selftest) {
  std::vector<const Target*> out;
  auto add = [&](const Registry& r) {
    for (const auto& t : r.targets()) {
      if (!filter.empty() && !absl::StrContains(t->name(), filter)) continue;
      // With a subject, only the targets that have it.
      const std::string& subject = serdiff::harness::Subject();
      if (!subject.empty() && !t->HasImpl(subject)) continue;
      out.push_back(t.get());
    }
  };
  add(serdiff::targets::AllTargets());
  if (selftest) add(serdiff::targets::SelfTestTargets());
  return out;
}

// The shipped corpus: for an installed binary (<prefix>/bin/serdiff), <prefix>/share/serdiff/
// corpus when it exists; else the source tree's corpus/ (compiled in).
std::string DefaultCorpusDir() {
  std::error_code ec;
  const std::filesystem::path exe = std::filesystem::read_symlink("/proc/self/exe", ec);
  if (!ec && exe.parent_path().filename() == "bin") {
    const std::filesystem::path installed =
        exe.parent_path().parent_path() / "share" / "serdiff" / "corpus";
    if (std::filesystem::is_directory(installed, ec)) return installed.string();
  }
  return SERDIFF_CORPUS_DIR;
}

// The options a repro command needs to see the same implementations (--subject, --worker,
// --module, --no-workers), as shell words; set once in main.
std::string g_repro_args;
std::string ReproArgs(const std::string& subject, const std::vector<std::string>& workers,
                      const std::vector<std::string>& modules, bool no_workers) {
  std::string a;
  auto abs = [](const std::string& f) {
    std::error_code ec;
    const std::filesystem::path p = std::filesystem::absolute(f, ec);
    return serdiff::harness::ShellWord(ec ? f : p.lexically_normal().string());
  };
  if (no_workers) a += " --no-workers";
  for (const std::string& w : workers) a += " --worker " + abs(w);
  for (const std::string& m : modules) a += " --module " + abs(m);
  if (!subject.empty()) a += " --subject " + serdiff::harness::ShellWord(subject);
  return a;
}

std::string JsonEscape(std::string_view s) {
  std::string out;
  for (char c : s) {
    switch (c) {
      case '"':
        out += "\\\"";
        break;
      case '\\':
        out += "\\\\";
        break;
      case '\n':
        out += "\\n";
        break;
      case '\t':
        out += "\\t";
        break;
      default:
        if (static_cast<unsigned char>(c) < 0x20) {
          absl::StrAppendFormat(&out, "\\u%04x", static_cast<unsigned char>(c));
        } else {
          out.push_back(c);
        }
    }
  }
  return out;
}

std::string Bytes(int64_t n) {
  if (n < 0) return "-";
  if (n < 10 * 1024) return absl::StrCat(n, " B");
  if (n < 10 * 1024 * 1024) return absl::StrFormat("%.1f KiB", n / 1024.0);
  return absl::StrFormat("%.2f MiB", n / (1024.0 * 1024.0));
}

int List(bool selftest) {
  const std::vector<const Target*> targets = Selected("", selftest);
  for (const std::string& p : serdiff::targets::AttachProblems()) {
    std::cout << "not attached: " << p << "\n";
  }
  for (const Target* t : targets) {
    std::cout << t->name() << "\n  family:   " << t->family()
              << "\n  domain:   " << t->domain_name() << "\n  compares: ";
    const auto impls = t->impl_names();
    const auto roles = t->impl_roles();
    for (size_t i = 0; i < impls.size(); ++i) {
      std::cout << (i ? " vs " : "") << impls[i];
      if (i > 0) std::cout << " (" << serdiff::harness::RoleName(roles[i]) << ")";
    }
    std::cout << "\n  " << t->description() << "\n";
    for (const auto& impl : t->info().impls) {
      std::cout << "  implementation " << impl.name << " (" << serdiff::harness::RoleName(impl.role)
                << ", " << serdiff::harness::ImplKindName(impl.kind)
                << (impl.name == serdiff::harness::Subject() ? ", subject" : "")
                << "): " << impl.origin << "\n";
    }
    if (!t->info().length_fields.empty()) {
      std::cout << "  length fields (custom mutator):";
      for (const auto& f : t->info().length_fields) {
        std::cout << " " << f.width << "-byte " << (f.big_endian ? "big" : "little") << "-endian";
      }
      std::cout << "\n";
    }
    if (!t->heap_bound_text().empty())
      std::cout << "  peak heap bound: " << t->heap_bound_text() << "\n";
    const serdiff::harness::FuzzLimits& fl = t->info().fuzz_limits;
    std::cout << "  fuzz limits: max_len " << fl.max_len << " B, bound at max_len "
              << fl.bound_bytes << " B (malloc_limit_mb " << fl.malloc_limit_mb() << "), timeout "
              << fl.timeout_seconds << " s: " << fl.derivation << "\n";
    std::cout << "  error offsets: " << serdiff::harness::OffsetPolicyName(t->offset_policy())
              << (t->offsets_reason().empty() ? "" : " (" + t->offsets_reason() + ")") << "\n";
    for (const auto& [impl, reason] : t->offset_exemptions()) {
      std::cout << "  reports no error offsets (" << impl << "): " << reason << "\n";
    }
    for (const auto& [impl, reason] : t->accepted_divergences()) {
      std::cout << "  accepted divergence (" << impl << "): " << reason << "\n";
    }
  }
  return 0;
}

// fuzz/limits.tsv as the registry states it (TargetDef::fuzz_limits).
int EmitLimitsTsv() {
  std::cout
      << "# Per-target libFuzzer limits. GENERATED by `serdiff list --emit limits-tsv` from each\n"
         "# target's TargetDef::fuzz_limits (its family's Registry::SetFuzzLimits rules, in\n"
         "# targets/<family>/): change those and regenerate; the test\n"
         "# fuzz.LimitsMatchTheRegistry fails when this file or a built .options differs.\n"
         "# fuzz/CMakeLists.txt reads it at configure time and writes each fuzz target's\n"
         "# <target>.options: max_len, malloc_limit_mb = max(1, ceil(8 x bound / MiB)),\n"
         "# rss_limit_mb = 2048 and timeout (docs/fuzzing.md, \"Limits\"; the table there is\n"
         "# scripts/limits-table's output, checked by docs.LimitsTableMatchesLimitsTsv).\n"
         "# Columns (tab-separated): target (the final * row is for a target the file does\n"
         "# not name yet: a new family before this file is regenerated), max_len (bytes), the\n"
         "# heap bound at the largest input (bytes), the per-input timeout (seconds), how\n"
         "# the bound was derived.\n";
  auto row = [](const std::string& name, const serdiff::harness::FuzzLimits& l) {
    std::cout << name << "\t" << l.max_len << "\t" << l.bound_bytes << "\t" << l.timeout_seconds
              << "\t" << l.derivation << "\n";
  };
  for (const Target* t : Selected("", false)) row(t->name(), t->info().fuzz_limits);
  row("*", serdiff::harness::DefaultFuzzLimits());
  return 0;
}

// docs/architecture.md's table of error-offset policies, with the targets of each.
// Every family's wire-edge table (harness/wire_edges.h), each between the marker lines its
// docs page holds: <!-- wire-edges:<family>:begin --> ... <!-- wire-edges:<family>:end -->.
int EmitWireEdges() {
  for (const auto& t : serdiff::targets::AllTargets().wire_edges()) {
    std::cout << "<!-- wire-edges:" << t.family << ":begin -->\n"
              << serdiff::harness::WireEdgesMarkdown(t) << "<!-- wire-edges:" << t.family
              << ":end -->\n";
  }
  return 0;
}

int EmitOffsetsTable() {
  using serdiff::harness::OffsetPolicy;
  const std::pair<OffsetPolicy, const char*> kRows[] = {
      {OffsetPolicy::kRequired,
       "every rejection must carry an offset (`error-offset-missing:<impl>`), except from "
       "implementations listed in `offset_exemptions` with a reason; offsets compared"},
      {OffsetPolicy::kCompareWhenPresent,
       "compared when both report one; a missing offset passes. The default, until a family's "
       "decoders follow the convention"},
      {OffsetPolicy::kNotApplicable,
       "the input is not a byte string, so there is no offset; `offsets_reason` says why"}};
  std::cout << "| `OffsetPolicy` | meaning | targets today |\n| --- | --- | --- |\n";
  for (const auto& [policy, meaning] : kRows) {
    std::string names;
    for (const Target* t : Selected("", false)) {
      if (t->offset_policy() != policy) continue;
      absl::StrAppend(&names, names.empty() ? "" : ", ", "`", t->name(), "`");
      std::string exempt;
      for (const auto& [impl, reason] : t->offset_exemptions()) {
        absl::StrAppend(&exempt, exempt.empty() ? "" : ", ", impl);
      }
      if (!exempt.empty()) absl::StrAppend(&names, " (", exempt, " exempt)");
    }
    std::cout << "| `"
              << (policy == OffsetPolicy::kRequired             ? "kRequired"
                  : policy == OffsetPolicy::kCompareWhenPresent ? "kCompareWhenPresent"
                                                                : "kNotApplicable")
              << "` | " << meaning << " | " << (names.empty() ? "none" : names) << " |\n";
  }
  return 0;
}

// Every target's <target>.options as the registry states it, each after a line
// "== <target>.options".
int EmitOptions() {
  for (const Target* t : Selected("", false)) {
    const serdiff::harness::FuzzLimits& l = t->info().fuzz_limits;
    std::cout << "== " << t->name() << ".options\n[libfuzzer]\nmax_len = " << l.max_len
              << "\nmalloc_limit_mb = " << l.malloc_limit_mb()
              << "\nrss_limit_mb = 2048\ntimeout = " << l.timeout_seconds << "\n";
  }
  return 0;
}

struct Failure {
  std::string target;
  std::string failure_class;
  std::string path;
  bool selftest = false;  // the repro command then needs --selftest
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
  int subject_declined = 0;  // cases the subject declined (not judged)
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

int Check(int cases, uint64_t seed, const std::string& corpus_dir, const std::string& json_path,
          const std::string& filter, const std::string& failures_dir, bool selftest) {
  std::vector<Row> rows;
  std::vector<ExternalRow> external;
  std::vector<Failure> failures;
  std::error_code ec;
  if (!std::filesystem::is_directory(corpus_dir, ec)) {
    std::cerr << "serdiff: corpus root " << corpus_dir << " is not a directory\n";
    return 2;
  }
  const std::vector<const Target*> targets = Selected(filter, selftest);
  if (targets.empty()) {
    std::cerr << "serdiff: no target matches --filter " << filter << " (see serdiff list)\n";
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
      if (r.subject_declined) ++row.subject_declined;
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
        ++row.failures;
        auto path = serdiff::harness::WriteCorpusFile(absl::StrCat(failures_dir, "/", t->name()),
                                                      r.corpus_bytes);
        if (!path.ok()) {
          std::cerr << "serdiff: could not save the failing input: " << path.status() << "\n";
        }
        failures.push_back({t->name(), r.failure_class, path.ok() ? *path : "(not saved)",
                            t->family() == "selftest"});
        if (progress) std::cerr << "\r\033[K";
        std::cerr << r.report
                  << serdiff::harness::ReproCommands(
                         t->name(), failures.back().path, failures.back().selftest,
                         serdiff::harness::FindReproTools(t->name(), serdiff::harness::SelfPath()))
                  << "\n";
      }
    };
    for (const std::string& f : serdiff::harness::ListCorpusFiles(corpus_dir + "/" + t->name())) {
      auto bytes = serdiff::harness::ReadFileBytes(f);
      if (!bytes.ok()) {
        std::cerr << bytes.status() << "\n";
        ++row.failures;
        continue;
      }
      CaseResult r = t->RunBytes(*bytes);
      if (!r.passed) r.corpus_bytes = *bytes;  // keep the file as it was
      note(r);
      ++row.corpus;
      ++cases_done;
    }
    for (int i = 0; i < cases; ++i) {
      // RapidCheck sizes sweep 0..100 so small and large inputs both appear.
      note(t->RunGenerated(seed + static_cast<uint64_t>(i) * 0x9E3779B97F4A7C15ull, i % 101));
      ++row.generated;
      if (++cases_done % 256 == 0) show_progress(t->name());
    }
    row.seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
    rows.push_back(row);
    ++targets_done;
  }
  if (progress) std::fprintf(stderr, "\r\033[K");

  size_t w = 6;
  for (const Row& r : rows) w = std::max(w, r.target.size());
  std::cout << absl::StrFormat("%-*s %7s %9s %8s %12s %12s %12s %12s %12s %8s\n", w, "target",
                               "corpus", "generated", "failures", "peak heap", "bound", "ref peak",
                               "reject peak", "reject bound", "seconds");
  int total_failures = 0;
  for (const Row& r : rows) {
    total_failures += r.failures;
    std::cout << absl::StrFormat("%-*s %7d %9d %8d %12s %12s %12s %12s %12s %8.2f\n", w, r.target,
                                 r.corpus, r.generated, r.failures, Bytes(r.peak), Bytes(r.bound),
                                 Bytes(r.ref_peak), Bytes(r.rej_peak), Bytes(r.rej_bound),
                                 r.seconds);
  }
  if (!external.empty()) {
    // The outside implementations: each one's calls (inputs it was given), declines, rejections
    // and its largest peak (reported by the worker, or the tracker's for a module), beside the
    // peaks of the table above.
    size_t wi = 14;
    for (const ExternalRow& e : external) wi = std::max(wi, e.impl.size());
    std::cout << absl::StrFormat("\n%-*s %-*s %-7s %-6s %7s %8s %8s %12s\n", wi, "implementation",
                                 w, "target", "role", "kind", "calls", "declined", "rejected",
                                 "peak heap");
    for (const ExternalRow& e : external) {
      const serdiff::harness::Target* t = FindTarget(e.target, selftest);
      std::string kind = "?";
      for (const auto& i : t->info().impls) {
        if (i.name == e.impl) kind = std::string(serdiff::harness::ImplKindName(i.kind));
      }
      std::cout << absl::StrFormat("%-*s %-*s %-7s %-6s %7d %8d %8d %12s\n", wi, e.impl, w,
                                   e.target, e.subject ? "subject" : "peer", kind, e.calls,
                                   e.declined, e.rejected, Bytes(e.peak));
    }
    for (const auto& wc : serdiff::targets::AllTargets().workers()) {
      if (wc->calls() == 0) continue;
      std::cout << "  " << wc->manifest().name << ": " << wc->calls() << " calls, " << wc->starts()
                << (wc->starts() == 1 ? " start" : " starts")
                << (wc->peak_text().empty() ? "" : "; peak: " + wc->peak_text()) << "\n";
    }
    std::cout << "\n";
  }
  int subject_declined = 0;
  for (const Row& r : rows) subject_declined += r.subject_declined;
  if (subject_declined > 0) {
    std::cout << absl::StrFormat("%s declined %d cases (not judged)\n", serdiff::harness::Subject(),
                                 subject_declined);
  }
  std::cout << absl::StrFormat("%d targets, %d failures\n", rows.size(), total_failures);
  for (const Failure& f : failures) {
    std::error_code abs_ec;
    const std::filesystem::path abs = std::filesystem::absolute(f.path, abs_ec);
    std::cout << "FAIL " << f.target << ": " << f.failure_class << "\n  "
              << serdiff::harness::ShellWord(serdiff::harness::SelfPath())
              << (f.selftest ? " --selftest" : "") << g_repro_args << " repro " << f.target << " "
              << serdiff::harness::ShellWord(abs_ec ? f.path : abs.lexically_normal().string())
              << "\n";
  }

  if (!json_path.empty()) {
    std::string j = absl::StrFormat(
        "{\"schema_version\": %d, \"seed\": %d, \"cases\": %d, \"failures\": %d, "
        "\"targets\": [",
        kCheckJsonSchemaVersion, seed, cases, total_failures);
    for (size_t i = 0; i < rows.size(); ++i) {
      const Row& r = rows[i];
      absl::StrAppendFormat(&j,
                            "%s\n  {\"target\": \"%s\", \"corpus\": %d, \"generated\": %d, "
                            "\"failures\": %d, \"peak_heap_bytes\": %d, \"heap_bound_bytes\": %d, "
                            "\"reference_peak_heap_bytes\": %d, \"rejected_peak_heap_bytes\": %d, "
                            "\"rejected_heap_bound_bytes\": %d, \"seconds\": %.3f}",
                            i ? "," : "", JsonEscape(r.target), r.corpus, r.generated, r.failures,
                            r.peak, r.bound, r.ref_peak, r.rej_peak, r.rej_bound, r.seconds);
    }
    j += "\n], \"failing_inputs\": [";
    for (size_t i = 0; i < failures.size(); ++i) {
      absl::StrAppendFormat(&j, "%s\n  {\"target\": \"%s\", \"class\": \"%s\", \"path\": \"%s\"}",
                            i ? "," : "", JsonEscape(failures[i].target),
                            JsonEscape(failures[i].failure_class), JsonEscape(failures[i].path));
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
  return total_failures == 0 ? 0 : 1;
}

int Repro(const std::string& name, const std::string& file, bool selftest, bool shrink,
          bool emit_regression, bool commands, const std::string& corpus_dir,
          const std::string& out_dir) {
  const Target* t = FindTarget(name, selftest);
  if (t == nullptr) {
    std::cerr << "serdiff: no target named " << name
              << " (see serdiff list; self-test targets need --selftest)\n";
    return 2;
  }
  auto bytes = serdiff::harness::ReadFileBytes(file);
  if (!bytes.ok()) {
    std::cerr << "serdiff: " << bytes.status() << "\n";
    return 2;
  }
  std::string input = *bytes;
  std::string path = file;
  if (shrink) {
    auto s = serdiff::harness::Shrink(*t, input);
    if (!s.ok()) {
      std::cerr << "serdiff: " << s.status().message() << "\n";
      return 2;
    }
    auto written =
        serdiff::harness::WriteCorpusFile(absl::StrCat(out_dir, "/", name), s->after_bytes);
    if (!written.ok()) {
      std::cerr << "serdiff: " << written.status() << "\n";
      return 2;
    }
    std::cout << "shrink: serdiff: " << name << ": " << s->failure_class << " (" << s->runs
              << " candidates judged, " << s->steps << " kept)\n"
              << "  before: " << s->before_value << "\n          "
              << serdiff::harness::Hex(s->before_bytes, 64) << " (" << s->before_bytes.size()
              << " bytes)\n"
              << "  after:  " << s->after_value << "\n          "
              << serdiff::harness::Hex(s->after_bytes, 64) << " (" << s->after_bytes.size()
              << " bytes)\n"
              << "  written: " << *written << "\n";
    if (s->refused_declined > 0) {
      std::cout << "  kept the comparison: " << s->refused_declined
                << " smaller candidates failed the same way but were declined by "
                << absl::StrJoin(s->declined_by, ", ")
                << ", which compared the original; the input above is the smallest that every "
                   "implementation of the original still compares\n";
    }
    input = s->after_bytes;
    path = *written;
  }
  if (emit_regression) {
    auto kept = serdiff::harness::WriteCorpusFile(
        absl::StrCat(corpus_dir, "/", name, "/regressions"), input);
    if (!kept.ok()) {
      std::cerr << "serdiff: " << kept.status() << "\n";
      return 2;
    }
    path = *kept;
    std::cout << "regression: " << *kept << "\n";
  }
  std::cout << "file:   " << path << " (" << input.size() << " bytes)\n";
  const CaseResult r = t->RunBytes(input, serdiff::harness::Render::kAlways);
  std::cout << r.report;
  if (!r.passed || commands) {
    std::cout << serdiff::harness::ReproCommands(
        name, path, t->family() == "selftest",
        serdiff::harness::FindReproTools(name, serdiff::harness::SelfPath()));
  }
  return r.passed ? 0 : 1;
}

// `seed --value`: every text is parsed first (Target::BytesOfText), so that one unreadable
// value writes nothing; then each input is written and judged.
int SeedValues(const Target& t, const std::vector<std::string>& values,
               const std::string& corpus_dir) {
  std::vector<std::string> inputs;
  for (const std::string& text : values) {
    auto bytes = t.BytesOfText(text);
    if (!bytes.ok()) {
      std::cerr << "serdiff: " << t.name() << ": cannot read the value '" << text
                << "': " << bytes.status().message() << "\n";
      return 2;
    }
    inputs.push_back(*std::move(bytes));
  }
  for (const std::string& bytes : inputs) {
    auto path = serdiff::harness::WriteCorpusFile(corpus_dir + "/" + t.name(), bytes);
    if (!path.ok()) {
      std::cerr << path.status() << "\n";
      return 2;
    }
    const CaseResult r = t.RunBytes(bytes);
    std::cout << *path << (r.passed ? "" : "  (FAILS: " + r.failure_class + ")") << "\n";
  }
  return 0;
}

int Seed(const std::string& name, int count, const std::vector<std::string>& values, uint64_t seed,
         const std::string& corpus_dir, bool selftest) {
  const Target* t = FindTarget(name, selftest);
  if (t == nullptr) {
    std::cerr << "serdiff: no target named " << name << "\n";
    return 2;
  }
  if (!values.empty()) return SeedValues(*t, values, corpus_dir);
  for (int i = 0; i < count; ++i) {
    const CaseResult r = t->RunGenerated(seed + static_cast<uint64_t>(i), (i * 7) % 101,
                                         serdiff::harness::Render::kAlways);
    auto path = serdiff::harness::WriteCorpusFile(corpus_dir + "/" + name, r.corpus_bytes);
    if (!path.ok()) {
      std::cerr << path.status() << "\n";
      return 2;
    }
    std::cout << *path << (r.passed ? "" : "  (FAILS: " + r.failure_class + ")") << "\n";
  }
  return 0;
}

// Prints the value each file decodes to. With `tsv`: one line per file, the file's path
// relative to corpus/<target>/ (or as given), a tab, then the printed value with C escapes
// (the form of tests/data/corpus-printed/<target>.tsv; scripts/corpus-printed writes it).
int Show(const std::string& name, std::vector<std::string> files, bool tsv,
         const std::string& corpus_dir, bool selftest) {
  const Target* t = FindTarget(name, selftest);
  if (t == nullptr) {
    std::cerr << "serdiff: no target named " << name << "\n";
    return 2;
  }
  const std::string root = corpus_dir + "/" + name + "/";
  if (files.empty()) files = serdiff::harness::ListCorpusFiles(corpus_dir + "/" + name);
  for (const std::string& f : files) {
    auto bytes = serdiff::harness::ReadFileBytes(f);
    if (!bytes.ok()) {
      std::cerr << "serdiff: " << bytes.status() << "\n";
      return 2;
    }
    const std::string shown = t->ShowBytes(*bytes);
    if (tsv) {
      std::cout << (absl::StartsWith(f, root) ? f.substr(root.size()) : f) << "\t"
                << absl::CEscape(shown) << "\n";
    } else {
      std::cout << f << ": " << shown << "\n";
    }
  }
  return 0;
}

}  // namespace

int main(int argc, char** argv) {
  CLI::App app{"serdiff: differential testing of binary serializers (optimized vs reference)"};
  app.require_subcommand(1);
  // The global options (--selftest, --subject, --worker, --module, --no-workers) may also come
  // after the subcommand: `serdiff repro --subject x ...`.
  app.fallthrough();
  bool selftest = false;
  app.add_flag("--selftest", selftest,
               "also include the test-only targets whose optimized side is deliberately wrong");

  // Implementations from outside (docs/workers.md): global, so that every subcommand sees them.
  std::string subject;
  std::vector<std::string> worker_files, module_files;
  bool no_workers = false;
  app.add_option("--subject", subject,
                 "the implementation placed first in every verdict, whose peak heap is bounded "
                 "(default: optimized); check runs only the targets that have it");
  app.add_option("--worker", worker_files,
                 "also join the worker of this manifest (oracles/<name>/worker*.json form)")
      ->allow_extra_args(false);
  app.add_option("--module", module_files,
                 "also join this module (a shared library with harness/serdiff_module.h's ABI)")
      ->allow_extra_args(false);
  app.add_flag("--no-workers", no_workers,
               "do not join the shipped workers (oracles/*/worker.json) by default");

  auto* list = app.add_subcommand("list", "list every target");
  std::string emit;
  list->add_option(
          "--emit", emit,
          "instead of the list, print a file generated from the registry: limits-tsv "
          "(fuzz/limits.tsv), options (every <target>.options), offsets-md (the error-offset "
          "policy table of docs/architecture.md), wire-edges-md (each family's wire-edge "
          "table, for docs/<family>.md)")
      ->check(CLI::IsMember({"limits-tsv", "options", "offsets-md", "wire-edges-md"}));

  auto* check =
      app.add_subcommand("check", "replay corpora and run generated cases for every target");
  int cases = 200;
  uint64_t seed = 1;
  std::string corpus_dir = DefaultCorpusDir(), json_path, filter, failures_dir = "serdiff-failures";
  check->add_option("--cases", cases, "generated cases per target")
      ->check(CLI::NonNegativeNumber)
      ->capture_default_str();
  check->add_option("--seed", seed, "seed of the first generated case")->capture_default_str();
  check->add_option("--corpus", corpus_dir, "corpus root (corpus/<target>/...)")
      ->capture_default_str();
  check->add_option("--json", json_path, "also write a JSON report to this path ('-' = stdout)");
  check->add_option("--filter", filter, "only targets whose name contains this");
  check->add_option("--failures-dir", failures_dir, "where failing inputs are written")
      ->capture_default_str();

  auto* repro = app.add_subcommand("repro", "full differential report for one input file");
  std::string target_name, file;
  repro->add_option("target", target_name, "target name")->required();
  repro->add_option("file", file, "corpus, crash or counterexample file")->required();
  bool shrink = false, emit_regression = false;
  std::string shrink_dir = "serdiff-failures";
  repro->add_flag("--shrink", shrink,
                  "shrink to the smallest value failing with the same serdiff: line first");
  repro->add_flag("--emit-regression", emit_regression,
                  "keep the (shrunk) input as corpus/<target>/regressions/<sha1>");
  bool commands = false;
  repro->add_flag("--commands", commands,
                  "print the reproduce commands even when the input passes (to share them)");
  repro->add_option("--shrink-dir", shrink_dir, "where --shrink writes <target>/<sha1>")
      ->capture_default_str();
  repro->add_option("--corpus", corpus_dir, "corpus root for --emit-regression")
      ->capture_default_str();

  auto* seedcmd = app.add_subcommand("seed", "write generated inputs into corpus/<target>/");
  std::string seed_target;
  int count = 20;
  seedcmd->add_option("target", seed_target, "target name")->required();
  std::vector<std::string> seed_values;
  auto* count_opt = seedcmd->add_option("--count", count, "how many generated inputs")
                        ->check(CLI::PositiveNumber)
                        ->capture_default_str();
  seedcmd
      ->add_option("--value", seed_values,
                   "an input written as `serdiff show` prints it (repeatable); instead of "
                   "generated inputs")
      // One text per --value, taken as is: CLI11 would otherwise split a "[...]" text (a
      // printed vector) at its commas.
      ->allow_extra_args(false)
      ->excludes(count_opt);
  seedcmd->add_option("--seed", seed, "first seed")->capture_default_str();
  seedcmd->add_option("--corpus", corpus_dir, "corpus root")->capture_default_str();

  auto* showcmd =
      app.add_subcommand("show", "print the value each input file decodes to (its meaning)");
  std::string show_target;
  std::vector<std::string> show_files;
  bool show_tsv = false;
  showcmd->add_option("target", show_target, "target name")->required();
  showcmd->add_option("files", show_files, "input files (default: every file of its corpus)");
  showcmd->add_flag("--tsv", show_tsv, "one line per file: path<TAB>C-escaped value");
  showcmd->add_option("--corpus", corpus_dir, "corpus root")->capture_default_str();

  auto* dictcmd = app.add_subcommand("dict", "print a family's generated libFuzzer dictionary");
  std::string dict_family;
  dictcmd
      ->add_option("family", dict_family,
                   "a family with a dictionary: " +
                       absl::StrJoin(serdiff::tools::DictionaryFamilies(), ", "))
      ->required();

  try {
    app.parse(argc, argv);
  } catch (const CLI::ParseError& e) {
    // --help exits 0; every usage error exits 2, like an unreadable input.
    return app.exit(e) == 0 ? 0 : 2;
  }
  // Before the registry is first built (AllTargets reads these once).
  serdiff::targets::SetDefaultWorkers(!no_workers);
  if (no_workers) setenv("SERDIFF_DEFAULT_WORKERS", "0", 1);  // and for the commands it prints
  auto join_env = [](const char* var, const std::vector<std::string>& files) {
    if (files.empty()) return;
    std::string v = std::getenv(var) ? std::getenv(var) : "";
    for (const std::string& f : files) {
      std::error_code abs_ec;
      const std::filesystem::path abs = std::filesystem::absolute(f, abs_ec);
      v += (v.empty() ? "" : ":") + (abs_ec ? f : abs.string());
    }
    setenv(var, v.c_str(), 1);
  };
  join_env("SERDIFF_WORKERS", worker_files);
  join_env("SERDIFF_MODULES", module_files);
  if (!subject.empty()) serdiff::harness::SetSubject(subject);
  g_repro_args = ReproArgs(subject, worker_files, module_files, no_workers);
  if (!subject.empty() && Selected(filter, selftest).empty()) {
    std::cerr << "serdiff: no target has an implementation named " << subject
              << " (see serdiff list)\n";
    return 2;
  }
  if (*list) {
    if (emit == "limits-tsv") return EmitLimitsTsv();
    if (emit == "options") return EmitOptions();
    if (emit == "offsets-md") return EmitOffsetsTable();
    if (emit == "wire-edges-md") return EmitWireEdges();
    return List(selftest);
  }
  if (*check) return Check(cases, seed, corpus_dir, json_path, filter, failures_dir, selftest);
  if (*repro)
    return Repro(target_name, file, selftest, shrink, emit_regression, commands, corpus_dir,
                 shrink_dir);
  if (*seedcmd) return Seed(seed_target, count, seed_values, seed, corpus_dir, selftest);
  if (*showcmd) return Show(show_target, show_files, show_tsv, corpus_dir, selftest);
  if (*dictcmd) {
    const std::string d = serdiff::tools::FamilyDictionary(dict_family);
    if (d.empty()) {
      std::cerr << "serdiff: no dictionary for family " << dict_family << "\n";
      return 2;
    }
    std::cout << d;
    return 0;
  }
  return 2;
}
