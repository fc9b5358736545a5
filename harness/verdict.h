// serdiff harness: the verdict on one input, as data.
//
// The rules (JudgeCase in verdict.cc); the first failure found is reported:
//   0. an outside implementation that crashed, hung or broke the protocol (harness/external.h) is
//      "worker-crashed:<impl>", "worker-timeout:<impl>" or "worker-protocol:<impl>" (a module
//      that broke its ABI's rules on the output's room: "module-protocol:<impl>");
//   1. every implementation runs twice; a different second result (bytes, status code,
//      message or payloads such as the error offset) is "nondeterministic:<impl>"; the
//      optimized side declining is "optimized-declined:<impl>". In a fuzz binary the others
//      run twice on a sample of the inputs (RunConfig::rerun_one_in); the subject always;
//   2. error class first: the subject and each other implementation must both accept or both
//      reject ("error-class-mismatch:<impl>"); messages are never compared;
//   3. then, when both accepted, the output bytes ("bytes-mismatch:<impl>");
//   4. then, when both rejected, the error offsets (serdiff/common/error_offset.h) under the
//      target's OffsetPolicy: a different offset is "error-offset-mismatch:<impl>"; under
//      kRequired a rejection without an offset is "error-offset-missing:<impl>" unless the
//      target exempts that implementation (OffsetExemption, shown by `serdiff list`);
//   5. then the target's output checks on the subject's output ("check-failed:<check>"), when
//      it is the optimized implementation's or equal to it: a subject whose output departs from
//      the optimized one as accepted is not held to checks written for the spec's bytes;
//   6. then the subject's peak heap against the target's bound ("heap-bound:<subject>"), on
//      every outcome: accepted or rejected.
// Every class names the implementation (or, for check-failed, the check) it is about.
// A mismatch in 2-4 between the subject and implementation X is recorded as accepted, not failed,
// when each of the two either agrees with the optimized implementation on what differs (class and
// bytes under rules 2-3; the offset under rule 4, where an implementation exempt from offsets
// agrees by having none) or departs from it as one of its own accepted divergences describes (a
// divergence names the implementation it is about, with a predicate and a reason). So a peer's
// known behaviour is accepted whatever its role: beside the optimized subject (the usual case: X
// departs, as accepted), as the subject itself (`--subject pymongo`: the subject departs from the
// optimized side, or from another peer that agrees with the optimized side), or both departing at
// once. Two implementations that depart in the same way do not differ at all. A failing report
// (harness/report.h) ends with one stable line
//   serdiff: <target>: <class>
// which is what fuzzing services deduplicate on.
//
// Judge, then render: the verdict is data (CaseResult: class, failing implementation, first
// differing byte offset, peaks). The report text and the input's corpus bytes are produced
// only for a failing case or when a caller asks for them (Render::kAlways: `serdiff repro`,
// `serdiff seed`), so a passing case under a fuzzer calls no printer and no corpus encoder.
#pragma once

#include <cstdint>
#include <functional>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "absl/status/status.h"
#include "absl/strings/string_view.h"
#include "absl/types/span.h"
#include "harness/definition.h"
#include "harness/result.h"

namespace serdiff::harness {

// When a case's report text and corpus bytes are produced.
enum class Render {
  kOnFailure,  // only when the case fails (fuzzing, properties, corpus replay, `check`)
  kAlways,     // also when it passes (`serdiff repro`, `serdiff seed`, tests of the report)
};

// One implementation's run, as judged.
struct ImplRun {
  absl::string_view name;  // the Impl's name in the TargetDef (lives as long as the target)
  Role role = Role::kReference;
  Output first;
  Output second;                // the repeated run (non-determinism check), when `rerun`
  bool rerun = true;            // false: ran once (RunConfig::rerun_one_in); rule 1 skips it
  int64_t peak_heap_bytes = 0;  // peak of the first run
  bool offset_exempt = false;   // reports no error offsets (TargetDef::offset_exemptions)
  ImplKind kind = ImplKind::kCompiled;
};

// The verdict on one input (data), plus, when rendered, its report and corpus bytes.
struct CaseResult {
  bool passed = true;
  std::string failure_class;  // "bytes-mismatch:reference", ... ; empty when passed
  std::string failing_impl;   // the implementation the class names; empty when passed
  // bytes-mismatch only: offset of the first differing output byte.
  std::optional<int64_t> first_difference;
  std::string details;  // one paragraph on the failure; empty when passed
  int64_t optimized_peak_bytes = 0;
  bool optimized_rejected = false;    // the optimized side returned an error
  int64_t reference_peak_bytes = -1;  // first Role::kReference implementation's peak; -1: none
  int64_t heap_bound_bytes = -1;      // -1 when the target has no bound
  std::vector<std::string> accepted;  // "<impl>: <reason>" for each accepted divergence hit
  // Failing cases only (empty when passed): the implementations that declined the input, in
  // registration order. The shrinker keeps only candidates that every implementation the
  // original was compared with still compares (harness/shrink.h).
  std::vector<std::string> declined;
  // The subject (runs[0]) was not the optimized implementation and declined the input: the
  // case was not judged (it passes, and `serdiff check` counts it as declined).
  bool subject_declined = false;
  std::string subject_decline_reason;  // the subject's message, when it declined
  // Name of runs[0]: "optimized" unless the run has a subject (RunConfig::subject).
  std::string subject;
  // Every module and worker run of the case: name, peak (-1 unknown), outcome. Empty for
  // targets without outside implementations.
  struct ExternalRun {
    std::string name;
    int64_t peak_bytes = -1;
    Outcome outcome = Outcome::kAccepted;
    bool is_subject = false;
  };
  std::vector<ExternalRun> external;
  // Rendered only for a failing case or under Render::kAlways (else empty, rendered false).
  bool rendered = false;
  std::string report;        // the full report, ending in "serdiff: <target>: <class>" on failure
  std::string corpus_bytes;  // the input in corpus-file form
};

// Non-template core of the verdict; see the file comment for the order of the rules.
struct JudgeInput {
  absl::string_view target;        // the target's name
  absl::Span<const ImplRun> runs;  // [0] is the subject: the optimized implementation or not
  // Where the optimized implementation's run is: 0 without a subject, else 1 (TypedTarget::Judge).
  size_t optimized_index = 0;
  // The reason of the accepted divergence of runs[i]'s own implementation (Divergence::impl ==
  // runs[i].name) that covers how runs[i] departs from the optimized run on this input, or
  // nullopt. Called only where two runs differ (so predicates cost nothing on agreeing cases);
  // unset: no divergences. How a difference between the subject and runs[i] is covered: see
  // the file comment.
  std::function<std::optional<std::string>(size_t i)> divergence;
  std::vector<std::pair<std::string, absl::Status>> checks;
  int64_t heap_bound = -1;
  // Bytes of heap_bound that a HeapDivergence of the subject added on this input, and its
  // "<impl>: <reason>" (shown as an accepted divergence when the peak needed them).
  int64_t heap_allowance = 0;
  std::string heap_allowance_reason;
  OffsetPolicy offsets = OffsetPolicy::kCompareWhenPresent;
  // Printers, called by RenderReport only.
  std::function<std::string()> show_input;
  std::function<std::string(const std::string&)> show_output;
};
// The verdict as data: no report text, no printer called (CaseResult::rendered is false).
CaseResult JudgeCase(const JudgeInput& in);

}  // namespace serdiff::harness
