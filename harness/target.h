// serdiff harness: a differential target, defined once, used five ways (property test,
// libFuzzer target, corpus replay, `serdiff check` / `serdiff repro`, benchmark inputs).
//
// A target compares one OPTIMIZED implementation with one or more others on inputs of one
// DOMAIN. Each other implementation has a Role: another tier of the optimized code (a
// small-input path, a typed fast path), a REFERENCE (a slow transcription of the spec, in
// reference/) or an ORACLE (a real implementation such as protobuf or libbson). Every
// implementation maps an input to absl::StatusOr<std::string>: canonical output bytes, or
// an error. One that cannot handle an input returns Declined(...) and is skipped; any other
// error, an ordinary absl::UnimplementedError included, is a rejection.
//
// The verdict for one input (JudgeCase in target.cc); the first failure found is reported:
//   1. every implementation runs twice; a different second result (bytes, status code,
//      message or payloads such as the error offset) is "nondeterministic:<impl>"; the
//      optimized side declining is "optimized-declined:<impl>". In a fuzz binary the others
//      run twice on a sample of the inputs (SetRerunOneIn below); the optimized side always;
//   2. error class first: optimized and each reference must both accept or both reject
//      ("error-class-mismatch:<ref>"); messages are never compared;
//   3. then, when both accepted, the output bytes ("bytes-mismatch:<ref>");
//   4. then, when both rejected, the error offsets (serdiff/common/error_offset.h) under the
//      target's OffsetPolicy: a different offset is "error-offset-mismatch:<ref>"; under
//      kRequired a rejection without an offset is "error-offset-missing:<impl>" unless the
//      target exempts that implementation (OffsetExemption, shown by `serdiff list`);
//   5. then the target's extra checks on the optimized output ("check-failed:<check>");
//   6. then the optimized run's peak heap against the target's bound
//      ("heap-bound:<optimized>"), on every outcome: accepted or rejected.
// Every class names the implementation (or, for check-failed, the check) it is about.
// A mismatch in 2-4 covered by an accepted divergence (naming that very reference, with a
// predicate and a reason) is recorded as accepted, not failed. A failing report ends with one
// stable line
//   serdiff: <target>: <class>
// which is what fuzzing services deduplicate on.
//
// Judge, then render: the verdict is data (CaseResult: class, failing implementation, first
// differing byte offset, peaks). The report text and the input's corpus bytes are produced
// only for a failing case or when a caller asks for them (Render::kAlways: `serdiff repro`,
// `serdiff seed`), so a passing case under a fuzzer calls no printer and no corpus encoder.
#pragma once

#include <concepts>
#include <cstdint>
#include <functional>
#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <type_traits>
#include <utility>
#include <vector>

#include <rapidcheck.h>

#include "absl/container/inlined_vector.h"
#include "absl/status/status.h"
#include "absl/status/statusor.h"
#include "absl/strings/str_cat.h"
#include "absl/strings/string_view.h"
#include "absl/types/span.h"
#include "harness/alloc_tracker.h"
#include "harness/external.h"
#include "harness/fuzz_input.h"
#include "harness/length_lies.h"
#include "harness/text_parse.h"
#include "harness/wire_edges.h"

namespace serdiff::harness {

// Output of one implementation on one input: canonical bytes or an error.
using Output = absl::StatusOr<std::string>;

// The status a reference returns for an input it does not support. Declined results take no
// part in the comparison. The decline is an explicit marker (a payload under kDeclinedUrl on
// an Unimplemented status whose message is "declined: <reason>"), so an ordinary
// absl::UnimplementedError from a reference is a rejection like any other error.
inline constexpr std::string_view kDeclinedUrl = "serdiff.dev/declined";
absl::Status Declined(std::string_view reason);
// True exactly for statuses made by Declined() (those carrying the kDeclinedUrl payload).
bool IsDeclined(const absl::Status& status);

// How a target compares the byte offsets its implementations attach to errors
// (serdiff/common/error_offset.h). Offsets are compared only when both sides rejected.
enum class OffsetPolicy {
  // Compare when both sides report an offset; a missing offset is not a failure. The default,
  // for families not yet made to follow the convention.
  kCompareWhenPresent,
  // Every rejection must carry an offset ("error-offset-missing:<impl>"), except from the
  // implementations in TargetDef::offset_exemptions; offsets are compared.
  kRequired,
  // The input is not a byte string (a value such as a civil time), so errors have no byte
  // offset; nothing is compared. TargetDef::offsets_reason says why.
  kNotApplicable,
};
std::string_view OffsetPolicyName(OffsetPolicy p);  // "compare-when-present", ...

// An implementation that reports no error offsets (an oracle such as protobuf), and why.
struct OffsetExemption {
  std::string impl;
  std::string reason;
};

// The input type of a target, in its forms: generated, corpus bytes, printed text.
template <typename T>
struct Domain {
  std::string type_name;                                   // "vector<int64>", shown in reports
  std::optional<rc::Gen<T>> gen;                           // edge-biased RapidCheck generator
  std::function<T(FuzzedDataProvider&)> decode;            // raw fuzz/corpus bytes -> input
  std::function<void(const T&, FuzzInputWriter&)> encode;  // input -> bytes that decode reads back
  std::function<std::string(const T&)> show;               // input -> text for people
  // Optional: the text `show` prints -> the input (harness/text_parse.h), so that a person can
  // write a corpus file from a readable value (`serdiff seed <target> --value '<text>'`).
  // parse(show(v)) == v for every v whose printed form leaves nothing out (the
  // <target>.DomainParseInvertsShow property); a parser may accept shorter forms too. Errors:
  // InvalidArgument "at character N: ..." (N the byte offset in the text); a printed form that
  // left part of the value out fails with ElidedAt. Unset: the domain has no parser.
  std::function<absl::StatusOr<T>(std::string_view text)> parse;
};

// What an implementation is, beside the optimized one it is compared with. The "reference
// peak" shown next to the optimized peak is the first kReference implementation's.
enum class Role {
  kOptimized,      // TargetDef::optimized (set by the harness)
  kOptimizedTier,  // another path of the optimized code: a small-input path, a typed fast path
  kReference,      // a slow, obviously correct transcription of the spec (reference/)
  kOracle,         // a real implementation from elsewhere: protobuf, libbson, Abseil, a driver
};
std::string_view RoleName(Role r);  // "optimized", "optimized-tier", "reference", "oracle"

// What one run of an implementation did with an input.
enum class Outcome { kAccepted, kRejected, kDeclined };
Outcome OutcomeOf(const Output& out);

// When a case's report text and corpus bytes are produced.
enum class Render {
  kOnFailure,  // only when the case fails (fuzzing, properties, corpus replay, `check`)
  kAlways,     // also when it passes (`serdiff repro`, `serdiff seed`, tests of the report)
};

// Where an implementation runs (docs/workers.md).
enum class ImplKind { kCompiled, kModule, kWorker };
std::string_view ImplKindName(ImplKind k);  // "compiled", "module", "worker"

// A worker's implementation reports the peak its process measured for the call it just made;
// TypedTarget::RunImpl takes it instead of the tracker's (which sees only serdiff's side of the
// pipe). -1: the worker did not say (no heap bound applies to that run).
void ReportExternalPeak(int64_t bytes);
// The peak reported since the last call of TakeExternalPeak, or nullopt; clears it.
std::optional<int64_t> TakeExternalPeak();

template <typename T>
struct Impl {
  Impl() = default;
  // {"name", run} is a reference; {"name", Role::kOracle, run} states the role.
  template <typename F>
  requires std::is_invocable_r_v<Output, F&, const T&> Impl(std::string n, F f)
      : name(std::move(n)), run(std::move(f)) {}  // NOLINT: implicit on purpose
  template <typename F>
  requires std::is_invocable_r_v<Output, F&, const T&> Impl(std::string n, Role r, F f)
      : name(std::move(n)), role(r), run(std::move(f)) {}  // NOLINT: implicit on purpose

  // {"name", Role::kOracle, origin, run}: an implementation from elsewhere says where it comes
  // from (its oracles/<name>/ header's kOrigin).
  template <typename F>
  requires std::is_invocable_r_v<Output, F&, const T&> Impl(std::string n, Role r,
                                                            std::string_view from, F f)
      : name(std::move(n)), role(r), origin(from), run(std::move(f)) {}

  std::string name;  // "optimized", "reference", "protobuf", ...
  Role role = Role::kReference;
  // Where the implementation comes from, shown by `serdiff list`; empty: from its role and the
  // family (src/serdiff/<family>/ for the optimized side and its tiers, reference/<family>/).
  std::string origin;
  std::function<Output(const T&)> run;
  // Where it runs (docs/workers.md): kCompiled in this binary, kModule a loaded shared library,
  // kWorker another process (its peak is what the worker reports, ReportExternalPeak).
  ImplKind kind = ImplKind::kCompiled;
  // Added to the target's heap bound when this implementation is the subject: permille of the
  // output's size plus bytes, with the reason (a worker runtime's own overhead).
  int64_t slack_per_output_permille = 0;
  int64_t slack_bytes = 0;
  std::string slack_reason;
};

// A difference between the optimized side and reference `impl` that is known and accepted.
template <typename T>
struct Divergence {
  std::string impl;    // which reference it concerns
  std::string reason;  // why it is accepted (shown in reports and `serdiff list`)
  std::function<bool(const T& input, const Output& optimized, const Output& other)> applies;
};

// A check on the optimized output beyond equality (round trip, size prediction, ...).
template <typename T>
struct ExtraCheck {
  std::string name;  // "round-trip", "size-prediction"
  std::function<absl::Status(const T& input, const std::string& optimized_output)> check;
};

// Bound (bytes) on the optimized run's peak heap, from the input and the optimized output,
// applied on every outcome. Built from a callable of either form:
//   int64_t(const T& input, const Output& optimized)       sees rejections as such;
//   int64_t(const T& input, const std::string& output)     older form: on a rejected input it
//                                                          is called with an empty output.
template <typename T>
class HeapBoundFn {
 public:
  HeapBoundFn() = default;
  template <typename F>
  requires std::is_invocable_r_v<int64_t, F&, const T&, const Output&> HeapBoundFn(F f)
      : fn_(std::move(f)) {}  // NOLINT: implicit on purpose
  template <typename F>
  requires(!std::is_invocable_r_v<int64_t, F&, const T&, const Output&> &&
           std::is_invocable_r_v<int64_t, F&, const T&, const std::string&>)
      HeapBoundFn(F f)  // NOLINT: implicit on purpose
      : fn_([f = std::move(f)](const T& v, const Output& out) -> int64_t {
          static const std::string kEmpty;
          return f(v, out.ok() ? *out : kEmpty);
        }) {}
  explicit operator bool() const { return static_cast<bool>(fn_); }
  int64_t operator()(const T& v, const Output& out) const { return fn_(v, out); }

 private:
  std::function<int64_t(const T&, const Output&)> fn_;
};

// The English text of a byte count as bounds print it: "64", "4 KiB", "2 MiB".
std::string BoundBytesText(int64_t bytes);

// A target's bound on the optimized run's peak heap, as a value that computes and describes
// itself, so that its number and its text (`serdiff list`, the `check` table) cannot drift:
//   HeapBound<T>::Linear(1, 4096)          "output + 4 KiB"
//   HeapBound<T>::Linear(4, 64 * 1024)     "4 x output + 64 KiB"
//   HeapBound<T>::Fixed(1024)              "1 KiB"
//   HeapBound<T>::Custom("input + 16 x count + 4 KiB", fn)   anything else, with its text
// "output" is the optimized output's size in bytes, 0 when it rejected the input; the bound
// applies on every outcome and is inclusive (a peak equal to it passes).
template <typename T>
class HeapBound {
 public:
  HeapBound() = default;  // no bound

  static HeapBound Linear(int64_t per_output_byte, int64_t constant) {
    HeapBound b;
    b.text_ = absl::StrCat(per_output_byte == 1 ? "" : absl::StrCat(per_output_byte, " x "),
                           "output", constant ? " + " + BoundBytesText(constant) : "");
    b.fn_ = [per_output_byte, constant](const T&, const Output& out) -> int64_t {
      return per_output_byte * static_cast<int64_t>(out.ok() ? out->size() : 0) + constant;
    };
    return b;
  }
  static HeapBound Fixed(int64_t bytes) {
    HeapBound b;
    b.text_ = BoundBytesText(bytes);
    b.fn_ = [bytes](const T&, const Output&) -> int64_t { return bytes; };
    return b;
  }
  static HeapBound Custom(std::string text, HeapBoundFn<T> fn) {
    HeapBound b;
    b.text_ = std::move(text);
    b.fn_ = std::move(fn);
    return b;
  }

  explicit operator bool() const { return static_cast<bool>(fn_); }
  int64_t operator()(const T& v, const Output& out) const { return fn_(v, out); }
  const std::string& text() const { return text_; }  // empty when there is no bound

 private:
  HeapBoundFn<T> fn_;
  std::string text_;
};

// The libFuzzer limits of a target's fuzz binary: its `<target>.options` (docs/fuzzing.md,
// "Limits"). fuzz/limits.tsv, which CMake reads at configure time to write the .options files,
// is generated from these (`serdiff list --emit limits-tsv`; the test
// fuzz.LimitsTsvMatchesRegistry fails when it differs).
struct FuzzLimits {
  // The longest input libFuzzer makes (-max_len), bytes. 0: not set (the family's rule or
  // kDefaultFuzzLimits applies).
  size_t max_len = 0;
  // The target's heap bound evaluated at its largest input, bytes, as its author derived it;
  // the .options' malloc_limit_mb is max(1, ceil(8 x bound_bytes / MiB)).
  int64_t bound_bytes = 0;
  int timeout_seconds = 25;  // per input (-timeout): a longer run is a finding; OSS-Fuzz's is 25
  std::string derivation;    // how max_len and the bound were derived, for docs/fuzzing.md
  friend bool operator==(const FuzzLimits&, const FuzzLimits&) = default;
  // malloc_limit_mb as the .options file states it.
  int64_t malloc_limit_mb() const {
    const int64_t mb = (8 * bound_bytes + (1 << 20) - 1) / (1 << 20);
    return mb < 1 ? 1 : mb;
  }
};
// A target whose family states no limits for it: 64 KiB inputs, the default 1088 KiB bound.
FuzzLimits DefaultFuzzLimits();

template <typename T>
struct TargetDef {
  std::string name;         // also the fuzz binary's name and the corpus folder; starts "<family>_"
  std::string description;  // one sentence: what is compared with what
  Domain<T> domain;
  Impl<T> optimized;
  std::vector<Impl<T>> references;  // at least one
  std::vector<ExtraCheck<T>> checks;
  std::vector<Divergence<T>> divergences;
  // Bound (bytes) on the optimized run's peak heap, accepted or rejected, with its text.
  HeapBound<T> heap_bound;
  // Error offsets: how they are compared, why not (kNotApplicable), and which
  // implementations report none (under kRequired).
  OffsetPolicy offsets = OffsetPolicy::kCompareWhenPresent;
  std::string offsets_reason;
  std::vector<OffsetExemption> offset_exemptions;
  // Shows an output for people (default: hex). Called on successful outputs only.
  std::function<std::string(const std::string& output)> show_output;
  // The widths and byte orders of the length and count fields in the target's fuzz inputs,
  // about which the libFuzzer custom mutator lies (fuzz/custom_mutator.cc); empty: the
  // family's default (Registry::SetDefaultLengthFields), and with none, libFuzzer's own
  // mutations only.
  std::vector<LengthField> length_fields;
  // The fuzz binary's limits; max_len 0: the first of the family's rules
  // (Registry::SetFuzzLimits) whose glob matches the name, else DefaultFuzzLimits().
  FuzzLimits fuzz_limits;
  // How an input crosses to a worker or a module (harness/external.h); op empty: no outside
  // implementation can join this target.
  Interchange<T> interchange;
};

// One implementation's run, as judged.
struct ImplRun {
  absl::string_view name;  // the Impl's name in the TargetDef (lives as long as the target)
  Role role = Role::kReference;
  Output first;
  Output second;                // the repeated run (non-determinism check), when `rerun`
  bool rerun = true;            // false: ran once (SetRerunOneIn); rule 1 skips it
  int64_t peak_heap_bytes = 0;  // peak of the first run
  bool offset_exempt = false;   // reports no error offsets (TargetDef::offset_exemptions)
  ImplKind kind = ImplKind::kCompiled;
};

// How often the determinism check (rule 1) runs the implementations other than the optimized
// one a second time, for inputs judged from bytes (Target::RunBytes): on the inputs whose
// RerunHash is divisible by `one_in`. 1, the default, is every input: properties, corpus
// replay, `serdiff check` and `serdiff repro` never change it. Fuzz binaries set
// kFuzzRerunOneIn in LLVMFuzzerInitialize (fuzz/fuzz_main.cc; the environment variable
// SERDIFF_RERUN_ONE_IN overrides it, 1 restoring every input), because under ASan each extra
// run's allocations cost as much as the run itself (docs/fuzzing.md, "Throughput"). The choice
// is a function of the input's bytes alone, so a crash input replays with the same runs.
// Precondition: one_in >= 1 (0 is taken as 1). Not thread-safe: set it before judging.
inline constexpr uint32_t kFuzzRerunOneIn = 8;
void SetRerunOneIn(uint32_t one_in);
uint32_t RerunOneIn();
// FNV-1a (64-bit) of the bytes: the same on every machine and run (no per-process seed).
uint64_t RerunHash(std::string_view data);
// True when the input with these bytes reruns every implementation under the current setting.
bool RerunsAll(std::string_view data);
// Reads SERDIFF_RERUN_ONE_IN (a positive integer) if set, else kFuzzRerunOneIn, and sets it;
// called by the fuzz binaries' LLVMFuzzerInitialize. An unreadable value is reported on stderr
// and ignored (the default applies).
void ConfigureFuzzRerun();

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
  // Name of runs[0]: "optimized" unless a subject is set (SetSubject).
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
  absl::Span<const ImplRun> runs;  // [0] is the optimized implementation
  // The reason of the accepted divergence that covers runs[i] on this input, or nullopt.
  // Called only where runs[i] differs from the optimized run (so predicates cost nothing on
  // agreeing cases); unset: no divergences.
  std::function<std::optional<std::string>(size_t i)> divergence;
  std::vector<std::pair<std::string, absl::Status>> checks;
  int64_t heap_bound = -1;
  OffsetPolicy offsets = OffsetPolicy::kCompareWhenPresent;
  // Printers, called by RenderReport only.
  std::function<std::string()> show_input;
  std::function<std::string(const std::string&)> show_output;
};
// The verdict as data: no report text, no printer called (CaseResult::rendered is false).
CaseResult JudgeCase(const JudgeInput& in);
// Writes result->report from the verdict, the runs and the printers; sets rendered.
void RenderReport(const JudgeInput& in, CaseResult* result);

// What a target is, as data: everything the CLI, the reports and the tests read about a target
// without running it, copied once from its TargetDef when it is registered.
struct ImplInfo {
  std::string name;
  Role role = Role::kReference;
  std::string origin;  // "src/serdiff/varint", "reference/varint", "oracles/protobuf: ..."
  ImplKind kind = ImplKind::kCompiled;
};
struct TargetInfo {
  std::string name;
  std::string family;
  std::string description;
  std::string domain_name;
  std::vector<ImplInfo> impls;  // [0] is the optimized implementation (Role::kOptimized)
  std::string heap_bound_text;
  std::vector<std::pair<std::string, std::string>> accepted_divergences;  // (impl, reason)
  OffsetPolicy offset_policy = OffsetPolicy::kCompareWhenPresent;
  std::string offsets_reason;  // why offsets are not applicable (kNotApplicable), else empty
  // (implementation, reason) for each implementation that reports no error offsets.
  std::vector<std::pair<std::string, std::string>> offset_exemptions;
  std::vector<LengthField> length_fields;  // TargetDef::length_fields
  FuzzLimits fuzz_limits;                  // TargetDef::fuzz_limits, resolved (never unset)
  std::string interchange_op;              // TargetDef::interchange.op; empty: none
};

// Type-erased target, as the registry, the CLI, the test driver and the fuzzers see it: its
// description as data (TargetInfo), and what needs the input type as virtual functions.
class Target {
 public:
  explicit Target(TargetInfo info) : info_(std::move(info)) {}
  virtual ~Target() = default;
  const TargetInfo& info() const { return info_; }
  const std::string& name() const { return info_.name; }
  const std::string& family() const { return info_.family; }
  const std::string& description() const { return info_.description; }
  const std::string& domain_name() const { return info_.domain_name; }
  std::vector<std::string> impl_names() const;
  // The role of each implementation, in impl_names() order ([0] is Role::kOptimized).
  std::vector<Role> impl_roles() const;
  const std::string& heap_bound_text() const { return info_.heap_bound_text; }
  const std::vector<std::pair<std::string, std::string>>& accepted_divergences() const {
    return info_.accepted_divergences;
  }
  OffsetPolicy offset_policy() const { return info_.offset_policy; }
  const std::string& offsets_reason() const { return info_.offsets_reason; }
  const std::vector<std::pair<std::string, std::string>>& offset_exemptions() const {
    return info_.offset_exemptions;
  }

  // Decodes corpus or fuzz bytes with FuzzedDataProvider and judges the input; the report
  // and corpus bytes only on failure unless render is kAlways.
  virtual CaseResult RunBytes(std::string_view data, Render render = Render::kOnFailure) const = 0;
  // The value corpus or fuzz bytes decode to, as the domain prints it (Domain::show). The
  // printed value is what a corpus file means: tests/data/corpus-printed/ records it for every
  // shipped corpus file, so a change of the corpus byte form cannot change a file's meaning
  // unnoticed.
  virtual std::string ShowBytes(std::string_view data) const = 0;
  // Generates one input (RapidCheck, given seed and size 0..100) and judges it.
  virtual CaseResult RunGenerated(uint64_t seed, int size,
                                  Render render = Render::kOnFailure) const = 0;

  // True when the domain can read its printed values back (Domain::parse is set).
  virtual bool has_parser() const = 0;
  // The corpus bytes of the input written as `text`, the form ShowBytes prints (or a shorter
  // form the domain's parser accepts): parse, then the domain's encoder. So
  // ShowBytes(*BytesOfText(ShowBytes(b))) == ShowBytes(b). Errors: Unimplemented when the
  // domain has no parser; the parser's InvalidArgument ("at character N: ..."); InvalidArgument
  // when the corpus form cannot hold the value (it would read back as another value, e.g. a
  // count beyond the range the form encodes).
  virtual absl::StatusOr<std::string> BytesOfText(std::string_view text) const = 0;

  // Property bodies, to be called inside rc::check. The differential property records the
  // corpus form of the last failing input (after shrinking: the minimal one).
  virtual void RcDifferentialProperty() const = 0;
  // decode(encode(v)) == v for generated v.
  virtual void RcDomainRoundTripProperty() const = 0;
  // parse(show(v)) == v for generated v, where show(v) leaves nothing of v out (a parse that
  // fails with ElidedAt is skipped). Precondition: has_parser().
  virtual void RcParseInvertsShowProperty() const = 0;
  const std::string& last_counterexample() const { return last_counterexample_; }

  // Joins a worker (docs/workers.md) or one operation of a module to this target as an oracle.
  // Errors: FailedPrecondition when the target has no interchange, or the module op's form does
  // not fit it; AlreadyExists when an implementation has that name.
  virtual absl::Status AttachWorker(std::shared_ptr<WorkerClient> client) = 0;
  virtual absl::Status AttachModule(const serdiff_module* module, const serdiff_op* op) = 0;
  // True when an implementation of this target has that name.
  bool HasImpl(std::string_view name) const {
    for (const ImplInfo& i : info_.impls) {
      if (i.name == name) return true;
    }
    return false;
  }

 protected:
  mutable std::string last_counterexample_;
  TargetInfo& mutable_info() { return info_; }

 private:
  TargetInfo info_;
};

// The origin an implementation of `family` with `role` has when its Impl names none.
std::string DefaultOrigin(Role role, std::string_view family);

template <typename T>
class TypedTarget final : public Target {
 public:
  // `family`: the family that registered the target (Registry::Add passes it).
  explicit TypedTarget(TargetDef<T> def, std::string family = "test")
      : Target(InfoOf(def, family)), def_(std::move(def)) {}

  const TargetDef<T>& def() const { return def_; }

  std::string Encode(const T& v) const {
    FuzzInputWriter w;
    def_.domain.encode(v, w);
    return w.Finish();
  }

  // Judges one input. On a passing input under a fuzzer this is the whole per-input cost
  // beside the implementations' own runs, so for up to four implementations it allocates
  // nothing of its own but the extra checks' results (TargetDef::checks, when a target has
  // any): runs are inline, names are views, the divergence callback captures one pointer
  // (fits std::function's inline buffer).
  // rerun_all false: the implementations other than the optimized one run once (rule 1 skips
  // them; SetRerunOneIn).
  CaseResult Check(const T& v, Render render = Render::kOnFailure, bool rerun_all = true) const {
    absl::InlinedVector<ImplRun, 4> runs;
    // The subject (SetSubject) goes first, and the optimized implementation joins the others;
    // without one (or when this target lacks it) the optimized implementation is runs[0].
    const Impl<T>* subject = SubjectImpl();
    if (subject == nullptr) {
      runs.push_back(RunImpl(def_.optimized, Role::kOptimized, v, true));
    } else {
      runs.push_back(RunImpl(*subject, subject->role, v, true));
      runs.push_back(RunImpl(def_.optimized, Role::kOptimized, v, rerun_all));
    }
    for (const auto& r : def_.references) {
      if (&r != subject) runs.push_back(RunImpl(r, r.role, v, rerun_all));
    }
    for (ImplRun& run : runs) {
      for (const auto& e : def_.offset_exemptions) {
        if (e.impl == run.name) run.offset_exempt = true;
      }
    }
    const Output& opt = runs[0].first;
    JudgeInput in;
    in.target = def_.name;
    in.runs = absl::MakeConstSpan(runs);
    struct DivergenceContext {
      const TargetDef<T>* def;
      const T* v;
      absl::Span<const ImplRun> runs;
    } ctx{&def_, &v, in.runs};
    if (!def_.divergences.empty()) {
      in.divergence = [c = &ctx](size_t i) -> std::optional<std::string> {
        for (const auto& d : c->def->divergences) {
          if (d.impl == c->runs[i].name && d.applies(*c->v, c->runs[0].first, c->runs[i].first)) {
            return d.reason;
          }
        }
        return std::nullopt;
      };
    }
    if (opt.ok()) {
      for (const auto& c : def_.checks) in.checks.emplace_back(c.name, c.check(v, *opt));
    }
    if (def_.heap_bound) {
      in.heap_bound = def_.heap_bound(v, opt);
      if (subject != nullptr && (subject->slack_bytes || subject->slack_per_output_permille)) {
        in.heap_bound +=
            subject->slack_bytes + subject->slack_per_output_permille *
                                       static_cast<int64_t>(opt.ok() ? opt->size() : 0) / 1000;
      }
    }
    in.offsets = def_.offsets;
    CaseResult result = JudgeCase(in);
    for (const ImplRun& run : runs) {
      if (run.kind == ImplKind::kCompiled) continue;
      result.external.push_back(
          {std::string(run.name), run.peak_heap_bytes, OutcomeOf(run.first), &run == &runs[0]});
    }
    if (!result.passed || render == Render::kAlways) {
      in.show_input = [this, &v] { return def_.domain.show(v); };
      in.show_output = def_.show_output;
      RenderReport(in, &result);
      result.corpus_bytes = Encode(v);
    }
    return result;
  }

  CaseResult RunBytes(std::string_view data, Render render = Render::kOnFailure) const override {
    FuzzedDataProvider fdp(reinterpret_cast<const uint8_t*>(data.data()), data.size());
    const T v = def_.domain.decode(fdp);
    return Check(v, render, RerunsAll(data));
  }

  std::string ShowBytes(std::string_view data) const override {
    FuzzedDataProvider fdp(reinterpret_cast<const uint8_t*>(data.data()), data.size());
    return def_.domain.show(def_.domain.decode(fdp));
  }

  CaseResult RunGenerated(uint64_t seed, int size,
                          Render render = Render::kOnFailure) const override {
    const T v = (*def_.domain.gen)(rc::Random(seed), size).value();
    return Check(v, render);
  }

  void RcDifferentialProperty() const override {
    const T v = *(*def_.domain.gen);
    CaseResult r = Check(v);
    if (!r.passed) {
      last_counterexample_ = r.corpus_bytes;
      RC_FAIL(r.report);
    }
  }

  bool has_parser() const override { return static_cast<bool>(def_.domain.parse); }

  absl::StatusOr<std::string> BytesOfText(std::string_view text) const override {
    if (!def_.domain.parse) {
      return absl::UnimplementedError(absl::StrCat("the domain of ", def_.name, " (",
                                                   def_.domain.type_name,
                                                   ") has no parser for printed values"));
    }
    absl::StatusOr<T> v = def_.domain.parse(text);
    if (!v.ok()) return v.status();
    std::string bytes = Encode(*v);
    // An encoder's precondition (a value within the range its form holds) is not checked by
    // the encoder: read the bytes back and refuse a value they do not hold.
    FuzzedDataProvider fdp(reinterpret_cast<const uint8_t*>(bytes.data()), bytes.size());
    const T back = def_.domain.decode(fdp);
    if (!(back == *v)) {
      return absl::InvalidArgumentError(
          absl::StrCat("the corpus form of ", def_.domain.type_name, " cannot hold ",
                       def_.domain.show(*v), ": its bytes read back as ", def_.domain.show(back)));
    }
    return bytes;
  }

  void RcParseInvertsShowProperty() const override {
    const T v = *(*def_.domain.gen);
    const std::string shown = def_.domain.show(v);
    absl::StatusOr<T> back = def_.domain.parse(shown);
    if (!back.ok() && IsElided(back.status())) return;  // the text left part of v out
    if (!back.ok())
      RC_FAIL("domain parse(show(v)) failed\n  show(v): " + shown +
              "\n  error:   " + std::string(back.status().message()));
    if (!(*back == v)) {
      RC_FAIL("domain parse(show(v)) != v\n  show(v):        " + shown +
              "\n  show(parse(..)): " + def_.domain.show(*back));
    }
  }

  void RcDomainRoundTripProperty() const override {
    const T v = *(*def_.domain.gen);
    const std::string bytes = Encode(v);
    FuzzedDataProvider fdp(reinterpret_cast<const uint8_t*>(bytes.data()), bytes.size());
    const T back = def_.domain.decode(fdp);
    if (!(back == v)) {
      RC_FAIL("domain decode(encode(v)) != v\n  v:    " + def_.domain.show(v) +
              "\n  back: " + def_.domain.show(back));
    }
  }

 private:
  static TargetInfo InfoOf(const TargetDef<T>& d, const std::string& family) {
    TargetInfo info;
    info.name = d.name;
    info.family = family;
    info.description = d.description;
    info.domain_name = d.domain.type_name;
    info.impls.push_back({d.optimized.name, Role::kOptimized,
                          d.optimized.origin.empty() ? DefaultOrigin(Role::kOptimized, family)
                                                     : d.optimized.origin});
    for (const auto& r : d.references) {
      info.impls.push_back(
          {r.name, r.role, r.origin.empty() ? DefaultOrigin(r.role, family) : r.origin});
    }
    info.heap_bound_text = d.heap_bound.text();
    for (const auto& dv : d.divergences) info.accepted_divergences.emplace_back(dv.impl, dv.reason);
    info.offset_policy = d.offsets;
    info.offsets_reason = d.offsets_reason;
    for (const auto& e : d.offset_exemptions) info.offset_exemptions.emplace_back(e.impl, e.reason);
    info.length_fields = d.length_fields;
    info.fuzz_limits = d.fuzz_limits;
    info.interchange_op = d.interchange.op;
    return info;
  }

  static ImplRun RunImpl(const Impl<T>& impl, Role role, const T& v, bool rerun) {
    ImplRun run;
    run.name = impl.name;
    run.role = role;
    run.kind = impl.kind;
    {
      PeakHeapScope scope;
      run.first = impl.run(v);
      run.peak_heap_bytes = scope.PeakBytes();
    }
    // A worker's peak is its own process's (the tracker saw only the pipe's buffers); a
    // module's, that of its call without serdiff's copy of the input in the op's form.
    if (impl.kind == ImplKind::kWorker) run.peak_heap_bytes = TakeExternalPeak().value_or(-1);
    if (impl.kind == ImplKind::kModule) {
      run.peak_heap_bytes = TakeExternalPeak().value_or(run.peak_heap_bytes);
    }
    run.rerun = rerun;
    if (rerun) {
      run.second = impl.run(v);
      if (impl.kind != ImplKind::kCompiled) TakeExternalPeak();
    }
    return run;
  }

  // The implementation named by Subject(), other than the optimized one; nullptr: none.
  const Impl<T>* SubjectImpl() const {
    const std::string& s = Subject();
    if (s.empty() || s == def_.optimized.name) return nullptr;
    for (const auto& r : def_.references) {
      if (r.name == s) return &r;
    }
    return nullptr;
  }

 public:
  absl::Status AttachWorker(std::shared_ptr<WorkerClient> client) override {
    const WorkerManifest& m = client->manifest();
    if (def_.interchange.op.empty()) {
      return absl::FailedPreconditionError(
          absl::StrCat(def_.name, " has no interchange: no worker can join it"));
    }
    if (HasImpl(m.name)) {
      return absl::AlreadyExistsError(absl::StrCat(def_.name, " already has ", m.name));
    }
    Impl<T> impl;
    impl.name = m.name;
    impl.role = Role::kOracle;
    impl.kind = ImplKind::kWorker;
    impl.origin = absl::StrCat("worker ", m.path, ": ", m.origin);
    impl.slack_per_output_permille = m.slack_per_output_permille;
    impl.slack_bytes = m.slack_bytes;
    impl.slack_reason = m.slack_reason;
    const Interchange<T>* ic = &def_.interchange;  // def_ never moves: the target is on the heap
    impl.run = [ic, client](const T& v) -> Output {
      absl::StatusOr<std::string> in = ic->input_json(v);
      if (!in.ok()) return in.status();
      int64_t peak = -1;
      absl::StatusOr<ExternalAnswer> ans = client->Call(ic->op, *in, &peak);
      ReportExternalPeak(peak);
      if (!ans.ok()) return ans.status();
      if (ic->output) return ic->output(v, *ans);
      return std::move(ans->bytes);
    };
    def_.references.push_back(std::move(impl));
    mutable_info().impls.push_back(
        {m.name, Role::kOracle, def_.references.back().origin, ImplKind::kWorker});
    return absl::OkStatus();
  }

  absl::Status AttachModule(const serdiff_module* module, const serdiff_op* op) override {
    const Interchange<T>* ic = &def_.interchange;
    if (ic->op.empty() || ic->op != op->op) {
      return absl::FailedPreconditionError(absl::StrCat(def_.name, " has no op ", op->op));
    }
    const bool fits =
        (op->form == SERDIFF_FORM_JSON && ic->input_json) ||
        ((op->form == SERDIFF_FORM_INT64 || op->form == SERDIFF_FORM_UINT64) && ic->as_int64) ||
        (op->form == SERDIFF_FORM_INT32_LIST && ic->as_int32_list);
    if (!fits) {
      return absl::FailedPreconditionError(
          absl::StrCat(def_.name, " has no form ", op->form, " for ", op->op));
    }
    if (HasImpl(module->name)) {
      return absl::AlreadyExistsError(absl::StrCat(def_.name, " already has ", module->name));
    }
    Impl<T> impl;
    impl.name = module->name;
    impl.role = Role::kOracle;
    impl.kind = ImplKind::kModule;
    impl.origin = absl::StrCat("module ", module->origin ? module->origin : "");
    // The module's peak is that of its call alone (ReportExternalPeak): serdiff's own copy of
    // the input in the op's form is not the module's.
    impl.run = [ic, op](const T& v) -> Output {
      auto call = [&](int64_t scalar, absl::string_view json, const Int32List* list) {
        PeakHeapScope scope;
        absl::StatusOr<std::string> out = CallModuleOp(*op, scalar, json, list);
        ReportExternalPeak(scope.PeakBytes());
        return out;
      };
      switch (op->form) {
        case SERDIFF_FORM_INT64:
        case SERDIFF_FORM_UINT64:
          // No copy of the input here: RunImpl's own scope measures the call.
          return CallModuleOp(*op, ic->as_int64(v), {}, nullptr);
        case SERDIFF_FORM_INT32_LIST: {
          absl::StatusOr<Int32List> l = ic->as_int32_list(v);
          if (!l.ok()) return l.status();
          return call(0, {}, &*l);
        }
        default:
          break;
      }
      absl::StatusOr<std::string> in = ic->input_json(v);
      if (!in.ok()) return in.status();
      absl::StatusOr<std::string> out = call(0, *in, nullptr);
      if (!out.ok() || !ic->output) return out;
      ExternalAnswer a;
      a.bytes = std::move(*out);
      return ic->output(v, a);
    };
    def_.references.push_back(std::move(impl));
    mutable_info().impls.push_back(
        {module->name, Role::kOracle, def_.references.back().origin, ImplKind::kModule});
    return absl::OkStatus();
  }

 private:
  TargetDef<T> def_;
};

// All registered targets, in registration order.
class Registry {
 public:
  // Adds a target of the family being registered (BuildRegistry sets it).
  template <typename T>
  void Add(TargetDef<T> def) {
    if (def.length_fields.empty()) def.length_fields = default_length_fields_;
    if (def.fuzz_limits.max_len == 0) def.fuzz_limits = FuzzLimitsFor(def.name);
    targets_.push_back(std::make_unique<TypedTarget<T>>(std::move(def), family_));
  }
  // The length/count field layout of the family being registered, given to each target it
  // adds that names none (TargetDef::length_fields). Reset for every family.
  void SetDefaultLengthFields(std::vector<LengthField> fields) {
    default_length_fields_ = std::move(fields);
  }
  // A rule of the family being registered: the targets it adds afterwards whose name matches
  // `glob` (`*` matches any run of characters) and that set no TargetDef::fuzz_limits get
  // `limits`; the first matching rule wins. Reset for every family.
  void SetFuzzLimits(std::string glob, FuzzLimits limits) {
    fuzz_limit_rules_.emplace_back(std::move(glob), std::move(limits));
  }
  // The wire-edge table of the family being registered (harness/wire_edges.h: its checked
  // length, minimum and reserved-bit fields); its `family` is set here.
  void AddWireEdges(WireEdgeTable table) {
    table.family = family_;
    wire_edges_.push_back(std::move(table));
  }
  const std::vector<std::unique_ptr<Target>>& targets() const { return targets_; }
  // Every family's wire-edge tables, in registration order.
  const std::vector<WireEdgeTable>& wire_edges() const { return wire_edges_; }
  // nullptr when no target has that name.
  const Target* Find(std::string_view name) const;
  Target* FindMutable(std::string_view name) {
    return const_cast<Target*>(static_cast<const Registry*>(this)->Find(name));
  }
  // The workers and modules attached (AttachExternal), for the reports' tables.
  const std::vector<std::shared_ptr<WorkerClient>>& workers() const { return workers_; }
  const std::vector<const serdiff_module*>& modules() const { return modules_; }

 private:
  friend std::unique_ptr<Registry> BuildRegistry(bool selftest);
  std::string family_ = "unregistered";
  FuzzLimits FuzzLimitsFor(std::string_view name) const;
  std::vector<LengthField> default_length_fields_;
  std::vector<std::pair<std::string, FuzzLimits>> fuzz_limit_rules_;
  std::vector<std::unique_ptr<Target>> targets_;
  std::vector<WireEdgeTable> wire_edges_;
  std::vector<std::shared_ptr<WorkerClient>> workers_;
  std::vector<const serdiff_module*> modules_;
  friend std::vector<std::string> AttachExternal(Registry& registry, const ExternalConfig& config);
};

// Joins the workers and modules of `config` to the targets they name (docs/workers.md): every
// default manifest under OraclesDir() when config.default_workers (and, when a subject is set,
// the manifest of that name in any case), each of config.worker_files and config.module_files.
// Returns one line per problem (a manifest that cannot be read, a target it names that does not
// exist or has no interchange, a module that does not load); what could be attached is.
std::vector<std::string> AttachExternal(Registry& registry, const ExternalConfig& config);

// ---- Families register themselves ------------------------------------------------------------
//
// A family's target file ends with
//   SERDIFF_REGISTER_FAMILY("cql", RegisterCqlTargets);
// which records the family name and its registration function when the program starts
// (static initialization). Nothing else names the family: no list in CMake, no #ifdef, no
// declaration in a shared header. The targets library is linked whole (WHOLE_ARCHIVE in
// targets/CMakeLists.txt), so the linker keeps these otherwise unreferenced objects.

using RegisterFamilyFn = void (*)(Registry& registry);

// Records family `name` (lower case, the prefix of each of its target names) with its
// registration function. Returns true (its value initializes a static). A name recorded twice
// is a programming error: BuildRegistry aborts on it.
bool RecordFamily(const char* name, RegisterFamilyFn fn);

// Names of the recorded families, sorted.
std::vector<std::string> RecordedFamilies();

// A registry of every recorded family, in family-name order: the families other than
// "selftest" (selftest false), or "selftest" alone (selftest true; targets whose optimized
// side is deliberately wrong). Aborts with a message when a family is recorded twice or a
// target's name does not start with "<family>_".
std::unique_ptr<Registry> BuildRegistry(bool selftest);

#define SERDIFF_REGISTER_FAMILY(name, fn)                         \
  [[maybe_unused]] static const bool serdiff_family_registered_ = \
      ::serdiff::harness::RecordFamily(name, fn)

}  // namespace serdiff::harness
