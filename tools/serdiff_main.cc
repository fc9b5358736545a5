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
//     --upstream <worker>             instead of the report: the worker writes a program in its
//                                     language calling its library directly on the input, with
//                                     serdiff's reference answer as the expectation, saved under
//                                     --upstream-dir (default serdiff-upstream); prints its run
//                                     command (tools/upstream.cc)
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
//   serdiff review --before X --after Y
//                                     one serializer after a change against the same before it:
//                                     bytes, outcome class, error offsets, peak heap per input
//                                     and (--time-rounds) speed; each difference shrunk and
//                                     printed with the command that reproduces it
//                                     (tools/review.h, docs/review.md)
//   serdiff dict <family>             the family's libFuzzer dictionary, generated from its
//                                     format tables (checked in as fuzz/<family>.dict)
#include <algorithm>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <iostream>
#include <limits>
#include <string>
#include <system_error>
#include <vector>

#include "CLI/CLI.hpp"
#include "absl/strings/escaping.h"
#include "absl/strings/match.h"
#include "absl/strings/numbers.h"
#include "absl/strings/str_cat.h"
#include "absl/strings/str_format.h"
#include "absl/strings/str_join.h"
#include "harness/corpus.h"
#include "harness/hex.h"
#include "harness/shrink.h"
#include "targets/families.h"
#include "tools/cli.h"
#include "tools/dicts.h"
#include "tools/review.h"

namespace {

// A whole number from 0 to `max` (CLI::NonNegativeNumber reads doubles and names its range as
// 0 to 1.8e308 when it refuses one).
CLI::Validator WholeNumber(int64_t max) {
  return CLI::Validator(
      [max](std::string& s) -> std::string {
        int64_t v = 0;
        if (!absl::SimpleAtoi(s, &v) || v < 0 || v > max) {
          return absl::StrCat("must be a whole number from 0 to ", max, ", not '", s, "'");
        }
        return {};
      },
      absl::StrCat("0..", max));
}
// A seed: a whole number from 0 to 2^64 - 1 (CLI11 alone read "-1" as 2^64 - 1, and a number
// past 2^64 as 2^64 - 1, in silence).
const CLI::Validator kSeed(
    [](std::string& s) -> std::string {
      uint64_t v = 0;
      if (s.empty() || s[0] == '-' || s[0] == '+' || !absl::SimpleAtoi(s, &v)) {
        return absl::StrCat("must be a whole number from 0 to 18446744073709551615, not '", s, "'");
      }
      return {};
    },
    "0..18446744073709551615");

using serdiff::tools::CaseResult;
using serdiff::tools::DefaultCorpusDir;
using serdiff::tools::FindTarget;
using serdiff::tools::ReproArgs;
using serdiff::tools::Selected;
using serdiff::tools::Session;
using serdiff::tools::Target;

int Repro(const Session& session, const std::string& name, const std::string& file, bool shrink,
          bool emit_regression, bool commands, const std::string& corpus_dir,
          const std::string& out_dir) {
  const Target* t = FindTarget(session, name);
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
    auto s = serdiff::harness::Shrink(*t, session.config, input);
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
  const CaseResult r = t->RunBytes(input, session.config, serdiff::harness::Render::kAlways);
  std::cout << r.report;
  if (!r.passed || commands) {
    std::cout << serdiff::harness::ReproCommands(
        name, path, t->family() == "selftest", serdiff::tools::CliReproTools(name), session.config);
  }
  if (!r.passed) return 1;
  return r.subject_declined ? 2 : 0;  // not judged: no pass
}

// `seed --value`: every text is parsed first (Target::BytesOfText), so that one unreadable
// value writes nothing; then each input is written and judged.
int SeedValues(const Session& session, const Target& t, const std::vector<std::string>& values,
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
    const CaseResult r = t.RunBytes(bytes, session.config);
    std::cout << *path << (r.passed ? "" : "  (FAILS: " + r.failure_class + ")") << "\n";
  }
  return 0;
}

int Seed(const Session& session, const std::string& name, int count,
         const std::vector<std::string>& values, uint64_t seed, const std::string& corpus_dir) {
  const Target* t = FindTarget(session, name);
  if (t == nullptr) {
    std::cerr << "serdiff: no target named " << name << "\n";
    return 2;
  }
  if (!values.empty()) return SeedValues(session, *t, values, corpus_dir);
  for (int i = 0; i < count; ++i) {
    const CaseResult r = t->RunGenerated(seed + static_cast<uint64_t>(i), (i * 7) % 101,
                                         session.config, serdiff::harness::Render::kAlways);
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
int Show(const Session& session, const std::string& name, std::vector<std::string> files, bool tsv,
         const std::string& corpus_dir) {
  const Target* t = FindTarget(session, name);
  if (t == nullptr) {
    std::cerr << "serdiff: no target named " << name << "\n";
    return 2;
  }
  const std::string root = corpus_dir + "/" + name + "/";
  if (files.empty()) {
    absl::StatusOr<std::vector<std::string>> listed =
        serdiff::harness::ListCorpusFiles(corpus_dir + "/" + name);
    if (!listed.ok()) {
      std::cerr << "serdiff: " << listed.status() << "\n";
      return 2;
    }
    files = *std::move(listed);
  }
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
          "(fuzz/limits.tsv: the fuzz binaries' names and limits), offsets-md (the error-offset "
          "policy table of docs/architecture.md), wire-edges-md (each family's wire-edge "
          "table, for docs/<family>.md), divergences-md (what serdiff accepts from each "
          "implementation, by implementation, for docs/peers.md)")
      ->check(CLI::IsMember({"limits-tsv", "offsets-md", "wire-edges-md", "divergences-md"}));

  auto* check =
      app.add_subcommand("check", "replay corpora and run generated cases for every target");
  int cases = 200;
  uint64_t seed = 1;
  std::string corpus_dir = DefaultCorpusDir(), json_path, filter, failures_dir = "serdiff-failures";
  check->add_option("--cases", cases, "generated cases per target")
      ->check(WholeNumber(std::numeric_limits<int>::max()))
      ->capture_default_str();
  check->add_option("--seed", seed, "seed of the first generated case")
      ->check(kSeed)
      ->capture_default_str();
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
  std::string upstream_worker, upstream_dir = "serdiff-upstream";
  repro->add_option("--upstream", upstream_worker,
                    "instead of the report: have this worker write a program calling its library "
                    "directly on the input, expecting serdiff's reference answer");
  repro->add_option("--upstream-dir", upstream_dir, "where --upstream writes the program")
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
  seedcmd->add_option("--seed", seed, "first seed")->check(kSeed)->capture_default_str();
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

  auto* reviewcmd = app.add_subcommand(
      "review",
      "judge a serializer after a change against the same serializer before it (bytes, class, "
      "error offsets, peak heap, speed; docs/review.md)");
  serdiff::tools::ReviewOptions ro;
  ro.corpus_dir = corpus_dir;
  const std::string side_help =
      ": a worker manifest (*.json), a module (*.so) or an implementation's name (a shipped "
      "worker such as pymongo, or a compiled one such as optimized)";
  reviewcmd->add_option("--before", ro.before, "the serializer before the change" + side_help)
      ->required();
  reviewcmd->add_option("--after", ro.after, "the serializer after the change" + side_help)
      ->required();
  reviewcmd
      ->add_option("--before-env", ro.before_env,
                   "NAME=value in the before side's worker environment (repeatable), e.g. "
                   "PYTHONPATH=/src/driver-old")
      ->allow_extra_args(false);
  reviewcmd
      ->add_option("--after-env", ro.after_env,
                   "NAME=value in the after side's worker environment (repeatable)")
      ->allow_extra_args(false);
  reviewcmd->add_option("--filter", ro.filter, "only targets whose name contains this");
  reviewcmd->add_option("--cases", ro.cases, "generated inputs per target, after the corpus")
      ->check(WholeNumber(std::numeric_limits<int>::max()))
      ->capture_default_str();
  reviewcmd->add_option("--seed", ro.seed, "seed of the first generated input")
      ->check(kSeed)
      ->capture_default_str();
  reviewcmd->add_option("--corpus", ro.corpus_dir, "corpus root (corpus/<target>/...)")
      ->capture_default_str();
  reviewcmd
      ->add_option("--heap-tolerance", ro.heap.percent,
                   "percent of the before side's peak the after side may add, per input")
      ->check(WholeNumber(std::numeric_limits<int>::max()))
      ->capture_default_str();
  reviewcmd
      ->add_option("--heap-slack", ro.heap.slack_bytes,
                   "bytes the after side may add on top of the tolerance, per input")
      ->check(WholeNumber(std::numeric_limits<int64_t>::max()))
      ->capture_default_str();
  reviewcmd
      ->add_option("--time-rounds", ro.time_rounds,
                   "measure speed in this many interleaved rounds per target (0: not measured)")
      ->check(WholeNumber(std::numeric_limits<int>::max()))
      ->capture_default_str();
  reviewcmd->add_option("--time-calls", ro.time_calls, "timings per round and side")
      ->check(CLI::Range(1, 100000))
      ->capture_default_str();
  reviewcmd
      ->add_option("--warmup-ms", ro.warmup_ms,
                   "before an input's rounds, each side runs untimed until its calls have taken "
                   "this long (a JIT's optimized code, warm caches; 0: a single call)")
      ->check(CLI::Range(0, 60000))
      ->capture_default_str();
  reviewcmd
      ->add_option("--forks", ro.forks,
                   "share each timed input's rounds out over this many fresh processes of each "
                   "worker side (a JIT's and an allocator's state differ between processes)")
      ->check(CLI::Range(1, 100))
      ->capture_default_str();
  reviewcmd
      ->add_option("--sample-us", ro.sample_us,
                   "each timing holds as many calls as last this long, so that the clock's own "
                   "cost is spread over them (0: one call a timing)")
      ->check(CLI::Range(0, 100000))
      ->capture_default_str();
  reviewcmd->add_option("--max-slowdown", ro.max_slowdown,
                        "fail when the after side is slower by more than this percent with 95 % "
                        "confidence (default: a slowdown is reported, never fails)");
  reviewcmd->add_option("--markdown", ro.markdown_path,
                        "also write the report as Markdown (for a pull request) to this path");
  reviewcmd->add_option("--json", ro.json_path, "also write a JSON report ('-' = stdout)");
  reviewcmd->add_option("--plots", ro.plots_dir,
                        "write a PNG per target with a size ladder into this folder: peak heap "
                        "and time against the element count, log-log, both sides (gnuplot)");
  reviewcmd->add_option("--out", ro.out_dir, "where shrunk inputs are written (<out>/<target>/)")
      ->capture_default_str();
  reviewcmd->add_option("--target", ro.target, "with --input: the target to judge it on");
  reviewcmd->add_option("--input", ro.input,
                        "judge this one corpus-form file only, and print both sides in full");

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
  // The run configuration (harness/run_config.h): the environment's, then the flags. The
  // shipped workers join by default unless --no-workers (or SERDIFF_DEFAULT_WORKERS=0).
  Session session;
  session.config = serdiff::harness::RunConfigFromEnvironment(!no_workers);
  if (no_workers) session.config.external.default_workers = false;
  auto absolute = [](const std::vector<std::string>& files, std::vector<std::string>* out) {
    for (const std::string& f : files) {
      std::error_code abs_ec;
      const std::filesystem::path abs = std::filesystem::absolute(f, abs_ec);
      out->push_back(abs_ec ? f : abs.string());
    }
  };
  absolute(worker_files, &session.config.external.worker_files);
  absolute(module_files, &session.config.external.module_files);
  if (!subject.empty()) session.config.subject = subject;
  session.targets = serdiff::targets::BuildTargets(session.config);
  if (selftest) session.selftest_targets = &serdiff::targets::SelfTestTargets();
  session.repro_args = ReproArgs(subject, worker_files, module_files, no_workers);
  // A worker or module that could not be attached (a manifest or a module that does not load, a
  // target name no family has, an op no target takes) would leave the run judging without it and
  // passing: an I/O error for the commands that judge (review checks its own sides); list shows
  // what was attached and what not.
  if ((*check || *repro) && !session.targets->attach_problems().empty()) {
    for (const std::string& p : session.targets->attach_problems()) {
      std::cerr << "serdiff: not attached: " << p << "\n";
    }
    return 2;
  }
  // A named worker that cannot even start (a wrong script path, an import error, text before its
  // hello) would be one worker-crashed finding and then declined on every input: a problem of
  // the run, told as one, before any input.
  if (*check || *repro) {
    const std::vector<std::string> not_started = session.targets->StartNamedWorkers();
    for (const std::string& p : not_started) std::cerr << "serdiff: not attached: " << p << "\n";
    if (!not_started.empty()) return 2;
  }
  if (!session.config.subject.empty() && Selected(session, filter).empty()) {
    std::cerr << "serdiff: no target" << (filter.empty() ? "" : " matching --filter " + filter)
              << " has an implementation named " << subject << " (see serdiff list)\n";
    return 2;
  }
  if (*list) {
    if (emit == "limits-tsv") return EmitLimitsTsv(session);
    if (emit == "offsets-md") return EmitOffsetsTable(session);
    if (emit == "wire-edges-md") return EmitWireEdges(session);
    if (emit == "divergences-md") return EmitDivergencesTable(session);
    return List(session);
  }
  if (*check) {
    return Check(session, {cases, seed, corpus_dir, json_path, filter, failures_dir});
  }
  if (*repro) {
    if (repro->count("--upstream") > 0) {
      if (upstream_worker.empty() || shrink || emit_regression || commands) {
        std::cerr << "serdiff: --upstream takes a worker's name, and no --shrink, "
                     "--emit-regression or --commands (shrink first, then ask for the program)\n";
        return 2;
      }
      return serdiff::tools::Upstream(session, target_name, file, upstream_worker, upstream_dir);
    }
    return Repro(session, target_name, file, shrink, emit_regression, commands, corpus_dir,
                 shrink_dir);
  }
  if (*reviewcmd) {
    ro.selftest = selftest;
    return serdiff::tools::Review(ro);
  }
  if (*seedcmd) return Seed(session, seed_target, count, seed_values, seed, corpus_dir);
  if (*showcmd) return Show(session, show_target, show_files, show_tsv, corpus_dir);
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
