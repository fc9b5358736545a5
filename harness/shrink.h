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
// `max_runs` judged candidates.
#pragma once

#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

#include "absl/status/statusor.h"
#include "harness/target.h"

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

// Shrinks `input` (corpus-form bytes) for `target`. Errors: InvalidArgument when the input
// does not fail (nothing to shrink). Never returns a value that passes or fails differently.
absl::StatusOr<ShrinkResult> Shrink(const Target& target, std::string_view input,
                                    int64_t max_runs = 20000);

// The shown value of a report (its "input:" line), "" when absent.
std::string ReportInputText(const std::string& report);

// Copy-paste commands that reproduce a failing input `file` of `target` for each consumer:
// the ctest filter (once the file is kept in corpus/<target>/regressions/), `serdiff repro`,
// the raw libFuzzer binary and OSS-Fuzz's reproduce helper. One command per line, each
// followed by a comment naming the consumer; ends with a newline. `selftest`: the target
// is a self-test one (repro needs --selftest; it has no ctest or fuzz binary).
std::string ReproCommands(const std::string& target, const std::string& file,
                          bool selftest = false);

}  // namespace serdiff::harness
