// serdiff shrinker: reduces a failing input (a libFuzzer crash file, a corpus file) to a
// small value that fails the same way, for `serdiff repro --shrink`.
//
// How it works (greedy, over the target's two-way domain). The input bytes are decoded into
// the target's value and judged; the candidate's canonical form is the value re-encoded
// (CaseResult::corpus_bytes), so every step is a step between VALUES, not between raw
// bytes. From the current canonical bytes it tries, in order: removing chunks (halves,
// quarters, ... single bytes; fewer elements, shorter strings), then per byte 0x00, 0xff,
// 0x80, 0x7f, half the byte and the byte -1/+1 (smaller numbers in FuzzedDataProvider's
// offset form). A candidate is kept when it fails with the same failure class (the same
// `serdiff: <target>: <class>` line), is compared by every implementation that compared the
// original (none of them declines it: a shrunk input that moved out of an implementation's
// reach would compare one implementation fewer, and could end on another bug), and is
// smaller: shorter canonical bytes first, then a
// shorter shown value ("-1" beats "-9223372036854775807"), then the shown value's text in
// byte order. It restarts after each kept candidate and stops at a fixed point or after
// `max_runs` judged candidates. Where a candidate's canonical form means another value than its
// bytes do (a domain whose field can run out at the input's end, BSON's ObjectId read short), the
// bytes themselves are kept instead, so that what is written fails as the candidate did.
#pragma once

#include <cstdint>
#include <functional>
#include <string>
#include <string_view>
#include <vector>

#include "absl/status/statusor.h"
#include "harness/run_config.h"
#include "harness/typed_target.h"

namespace serdiff::harness {

struct ShrinkResult {
  std::string failure_class;  // the class kept throughout, e.g. "bytes-mismatch:reference"
  std::string before_bytes;   // the input file as given
  std::string before_value;   // its decoded value, as shown in reports
  std::string after_bytes;    // canonical corpus form of the smallest failing value
  std::string after_value;    // that value, as shown
  std::string after_report;   // the full report of the smallest failing value
  int64_t runs = 0;           // candidates judged
  int64_t steps = 0;          // candidates kept
  // Smaller candidates that failed the same way but were refused because an implementation
  // that compared the original declined them, and the names of those implementations
  // (sorted, each once); the report says so, since the kept input may then not be the
  // smallest of its class.
  int64_t refused_declined = 0;
  std::vector<std::string> declined_by;
};

// Shrinks `input` (corpus-form bytes) for `target`, judged under `config`. Errors:
// InvalidArgument when the input does not fail (nothing to shrink). Never returns a value that
// passes or fails differently.
absl::StatusOr<ShrinkResult> Shrink(const Target& target, const RunConfig& config,
                                    std::string_view input, int64_t max_runs = 20000);

// The same greedy search under another judge (`serdiff review`): `class_of(canonical bytes)` is
// the candidate's class ("" when it passes or is not compared). A candidate is kept when its
// class is the original's and it is smaller (canonical bytes, then shown value, as above).
// before_value/after_value are the target's ShowBytes; after_report stays empty. Errors:
// InvalidArgument when `class_of` of the input's canonical form is "".
absl::StatusOr<ShrinkResult> ShrinkWhile(
    const Target& target, std::string_view input,
    const std::function<std::string(const std::string& canonical)>& class_of,
    int64_t max_runs = 2000);
// The shown value of a report (its "input:" line), "" when absent.
std::string ReportInputText(const std::string& report);

// What the commands ReproCommands prints can run: the absolute paths of the binaries and the
// build tree that the running program's own build made. An empty field: that build has none,
// and no command needs it.
struct ReproTools {
  std::string serdiff;               // the serdiff CLI (<tree>/tools/serdiff)
  std::string fuzz_binary;           // the target's libFuzzer binary, or the replay binary (below)
  bool fuzz_binary_replays = false;  // fuzz_binary is serdiff_fuzz_replay: target name first
  std::string ctest_tree;            // a build tree whose ctest has the corpus replay tests
  bool oss_fuzz = false;             // an OSS-Fuzz build: OSS-Fuzz's infra/helper.py reproduces it
  // A source tree (with CMakePresets.json) to build the CLI in, when `serdiff` is empty.
  std::string source_dir;
};

// The running executable's absolute path (/proc/self/exe); "" when it cannot be read.
std::string SelfPath();

// Finds the tools of the build that `self` (an absolute executable path) belongs to: `self`
// in <tree>/tools/ (the CLI) or <tree>/fuzz/ (a fuzz binary), or anywhere (an OSS-Fuzz $OUT, a
// project's own build) when it is named `target`, `<prefix>_target` or `<prefix>-target`. Looks for
// <tree>/tools/serdiff, <tree>/fuzz/<target> (else <tree>/fuzz/serdiff_fuzz_replay, else `self`
// when named `target`) and <tree>/tests/CTestTestfile.cmake; only files that exist are named.
// oss_fuzz and source_dir are left to the caller.
ReproTools FindReproTools(const std::string& target, const std::string& self);

// Copy-paste commands that reproduce a failing input `file` of `target`, one per line, each
// followed by a comment naming the consumer, under a "reproduce:" line; ends with a newline.
// Every command runs from any directory: binaries, build trees and `file` are absolute
// (`file` made so against the current directory), and only tools that exist are named:
//   <serdiff> repro T F                      the report (needs tools.serdiff)
//   <serdiff> repro --shrink --emit-regression T F
//                                            smallest value, kept as a regression
//   cmake --build <tree> && ctest --test-dir <tree> --no-tests=error -R '^(...)$'
//                                            the corpus replay tests, once kept (ctest_tree)
//   <fuzz binary> [T] F                      the fuzz entry point (fuzz_binary)
//   python infra/helper.py reproduce serdiff T F    OSS-Fuzz's helper (oss_fuzz)
// With no CLI but a source_dir, the two repro lines build it there first (cmake --preset dev).
// `selftest`: a self-test target: only the two repro lines, with --selftest and without
// --emit-regression (self-test targets have no corpus, ctest or fuzz binary).
// The environment part comes from `config`: SERDIFF_DEFAULT_WORKERS, SERDIFF_SUBJECT,
// SERDIFF_WORKERS and SERDIFF_MODULES before each command when the run has a subject, workers
// or modules; SERDIFF_DEFAULT_WORKERS alone when a printed program would otherwise choose other
// than the run did whether the default workers join (the CLI joins them by default; the ctest
// registry and the fuzz binaries do not).
std::string ReproCommands(const std::string& target, const std::string& file, bool selftest,
                          const ReproTools& tools, const RunConfig& config);

// `path` as a shell word: unchanged when it holds only [A-Za-z0-9_./+=:@%,-], else in single
// quotes (a single quote inside written as '\'').
std::string ShellWord(const std::string& path);

}  // namespace serdiff::harness
