// serdiff harness: the definition vocabulary, what a target's author writes. A differential
// target (TargetDef) compares one OPTIMIZED implementation with the others on inputs of one
// DOMAIN. Each other implementation has a Role: another tier of the optimized code (a
// small-input path, a typed fast path), a REFERENCE (a slow transcription of the spec, in
// reference/) or an ORACLE (a real implementation such as protobuf or libbson, or a worker or a
// module from outside the build). Every implementation maps an input to an Output
// (harness/result.h). How the target is judged: harness/verdict.h; how it is run:
// harness/typed_target.h; how a family registers it: harness/registry.h.
#pragma once

#include <chrono>
#include <concepts>
#include <cstdint>
#include <functional>
#include <optional>
#include <string>
#include <string_view>
#include <type_traits>
#include <utility>
#include <vector>

#include <rapidcheck.h>

#include "absl/status/status.h"
#include "absl/status/statusor.h"
#include "absl/strings/str_cat.h"
#include "harness/fuzz_input.h"
#include "harness/interchange.h"
#include "harness/length_lies.h"
#include "harness/result.h"

namespace serdiff::harness {

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
// declared_in: the source file that wrote the exemption (__builtin_FILE() of the brace
// initialization, filled in by the compiler); `serdiff list --emit divergences-md` names it.
struct OffsetExemption {
  std::string impl;
  std::string reason;
  const char* declared_in = __builtin_FILE();
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

// Where an implementation runs (docs/workers.md).
enum class ImplKind { kCompiled, kModule, kWorker };
std::string_view ImplKindName(ImplKind k);  // "compiled", "module", "worker"

// An outside implementation's output with the peak heap of its call, bytes; -1: not known (no
// heap bound applies to that run).
struct MeasuredOutput {
  Output output;
  int64_t peak_bytes = -1;
};

// One input at the edge of a compiled implementation's decline (harness::Declined): the nearest
// input it must answer (declined = false) or the first one it declines (declined = true). A
// decline widened by one value declines an input of the first kind, which then takes no part in
// the comparison: the test InProcessDeclines.EveryImplementationHoldsItsDeclineEdges fails. The
// in-process form of a worker manifest's decline_edges (docs/workers.md).
template <typename T>
struct DeclineEdge {
  std::string text;  // the input and why it is the edge ("ObjectId of 12 bytes, its size")
  T input;
  bool declined = false;
};

// `calls` timings of `batch` calls in a row of call() (batch >= 1), each in nanoseconds per call:
// the steady clock read once before and once after each batch, its own cost spread over the
// batch; each call's result destroyed inside the timing (Target::TimeCalls, `serdiff review`).
template <typename Call>
std::vector<double> TimeBatches(Call&& call, int calls, int batch) {
  batch = batch < 1 ? 1 : batch;
  std::vector<double> ns;
  ns.reserve(static_cast<size_t>(calls > 0 ? calls : 0));
  for (int i = 0; i < calls; ++i) {
    const auto start = std::chrono::steady_clock::now();
    for (int b = 0; b < batch; ++b) {
      auto out = call();
      asm volatile("" : : "r"(&out) : "memory");  // the result is made and kept until here
    }
    const auto end = std::chrono::steady_clock::now();
    ns.push_back(static_cast<double>(
                     std::chrono::duration_cast<std::chrono::nanoseconds>(end - start).count()) /
                 batch);
  }
  return ns;
}

template <typename T>
struct Impl {
  Impl() = default;
  // {"name", run} is a reference; {"name", Role::kOracle, run} states the role. `run` returns an
  // Output or something that converts to one; a std::string (the library's own result) is also
  // timed as it is (timed_run).
  template <typename F>
  requires std::is_invocable_r_v<Output, F&, const T&> Impl(std::string n, F f)
      : name(std::move(n)), run(f) {  // NOLINT: implicit on purpose
    timed_run = OwnTiming(std::move(f));
  }
  template <typename F>
  requires std::is_invocable_r_v<Output, F&, const T&> Impl(std::string n, Role r, F f)
      : name(std::move(n)), role(r), run(f) {  // NOLINT: implicit on purpose
    timed_run = OwnTiming(std::move(f));
  }

  // {"name", Role::kOracle, origin, run}: an implementation from elsewhere says where it comes
  // from (its oracles/<name>/ header's kOrigin).
  template <typename F>
  requires std::is_invocable_r_v<Output, F&, const T&> Impl(std::string n, Role r,
                                                            std::string_view from, F f)
      : name(std::move(n)), role(r), origin(from), run(f) {
    timed_run = OwnTiming(std::move(f));
  }

  std::string name;  // "optimized", "reference", "protobuf", ...
  Role role = Role::kReference;
  // Where the implementation comes from, shown by `serdiff list`; empty: from its role and the
  // family (src/serdiff/<family>/ for the optimized side and its tiers, reference/<family>/).
  std::string origin;
  // A compiled implementation: its peak heap is what the allocation tracker sees around the call.
  // Set by the constructors, with timed_run; whoever replaces `run` later replaces or clears
  // timed_run too, or the review times the callable `run` had before.
  std::function<Output(const T&)> run;
  // A compiled implementation that declines some inputs: the inputs at each decline's edge
  // (DeclineEdge), made when asked (the test, `serdiff list`). Empty: it declines nothing, or
  // only by the shape of the input (no value has an edge).
  std::function<std::vector<DeclineEdge<T>>()> decline_edges = {};
  // Where it runs (docs/workers.md): kCompiled in this binary (`run`), kModule a loaded shared
  // library or kWorker another process (`measured_run`, harness/external.h).
  ImplKind kind = ImplKind::kCompiled;
  // An outside implementation measures its own call and returns the peak with the output (a
  // worker's process reports it; a module's is the tracker's around the module call alone,
  // without serdiff's conversion of the input). Set instead of `run` when kind is not kCompiled.
  std::function<MeasuredOutput(const T&)> measured_run;
  // A worker's call in two halves (WorkerClient::Send and Receive), so that the verdict can run
  // the in-process implementations while the worker answers (TypedTarget::Judge): send_run
  // writes the request and returns its id, or the call's outcome when nothing was sent (a
  // decline, a failure to start or to write, an input the interchange cannot carry);
  // receive_run(v, sent) gives what measured_run(v) would have, without a peak (-1) when
  // send_run's `peak` was false (RunConfig::peer_peaks). send_run with `behind` sends the
  // value of this implementation's send_run just before again (a rerun; precondition), written
  // behind that request only when that cannot block (WorkerClient::Send), and otherwise, or when
  // the worker has ended, sends nothing and returns 0. Both set or neither;
  // measured_run stays set for every other caller.
  std::function<absl::StatusOr<int64_t>(const T&, bool peak, bool behind)> send_run = {};
  std::function<MeasuredOutput(const T&, const absl::StatusOr<int64_t>&)> receive_run = {};
  // The implementation's own timing (`serdiff review`): `calls` timings of `batch` calls each
  // (batch >= 1) of the implementation alone on the value, each given in nanoseconds per call.
  // An outside implementation: a worker times them in its process; a module's are timed around
  // the module calls, the input converted once before; empty when not timed (a worker that does
  // not time, an input it does not accept). A compiled one whose callable returns a std::string
  // (the library's own result, as an encoder gives it) rather than an Output: that callable
  // timed directly (the constructors set it, TimeBatches), its string destroyed unconverted,
  // because the move into an absl::StatusOr and std::function's indirect call are serdiff's
  // interchange, not the call (5-6 ns a call in the review, half of a call of 8 ns;
  // docs/benchmarks.md). Only a std::string: a result of another type may do its work when it
  // is converted. Empty for any other callable: it is timed through `run`.
  std::function<std::vector<double>(const T&, int calls, int batch)> timed_run = {};
  // An implementation in a process of its own (a worker): ends that process, so that the next
  // call starts a fresh one (`serdiff review` times each input in a fresh process). Empty for
  // in-process implementations.
  std::function<void()> fresh_process = {};
  // Added to the target's heap bound when this implementation is the subject: permille of the
  // output's size plus bytes, with the reason (a worker runtime's own overhead).
  int64_t slack_per_output_permille = 0;
  int64_t slack_bytes = 0;
  // And permille of the input's size in its corpus form (the bytes the fuzz binary reads), for
  // a decoding library that builds from what it has read before it rejects.
  int64_t slack_per_input_permille = 0;
  std::string slack_reason;

 private:
  // timed_run for a compiled callable returning a std::string; empty for any other.
  template <typename F>
  static std::function<std::vector<double>(const T&, int, int)> OwnTiming(F f) {
    using Result = std::decay_t<std::invoke_result_t<F&, const T&>>;
    if constexpr (!std::is_same_v<Result, std::string>) {
      return {};
    } else {
      return [f = std::move(f)](const T& v, int calls, int batch) mutable {
        return TimeBatches([&] { return f(v); }, calls, batch);
      };
    }
  }
};

// One input at the edge of an accepted divergence, on the spec side: the nearest input where the
// peer behaves as the spec says, with the two answers the divergence's pattern describes there
// (the optimized side's and the peer's: what they would be if the departure reached one value
// further). The divergence's predicate must not cover it: one widened by one value does, and the
// test DivergenceEdges.NoPredicateCoversItsEdge fails.
template <typename T>
struct DivergenceEdge {
  std::string text;  // the input and why it is the edge ("time 86399999999999 ns, the last valid")
  T input;
  Output optimized;
  Output other;
};

// A difference between the optimized side and implementation `impl` that is known and
// accepted. Written `{impl, reason, applies}`; declared_in is then the source file of that brace
// initialization (__builtin_FILE(), filled in by the compiler), so that every divergence of a
// peer can be listed with the file that holds it (`serdiff list --emit divergences-md`, the
// generated table of docs/peers.md).
template <typename T>
struct Divergence {
  std::string impl;    // which implementation it concerns
  std::string reason;  // why it is accepted (shown in reports and `serdiff list`)
  std::function<bool(const T& input, const Output& optimized, const Output& other)> applies;
  // The inputs at its edge (DivergenceEdge), made when asked (the test, `serdiff list`). A
  // divergence without them says why in no_edge.
  std::function<std::vector<DivergenceEdge<T>>()> edges = {};
  std::string no_edge = {};
  const char* declared_in = __builtin_FILE();
};

// A peak heap of implementation `impl` above the target's bound that is known and accepted
// when `impl` is the subject: `allowance` gives the bytes added to the bound on this input, from
// the input and the subject's own answer (0: none), e.g. the declared length a library
// allocates before it finds the bytes are not there, which it names in its error. A report
// whose verdict needed them says "accepted divergence: <impl>: peak heap: <reason>".
template <typename T>
struct HeapDivergence {
  std::string impl;
  std::string reason;
  std::function<int64_t(const T& input, const Output& subject)> allowance;
  const char* declared_in = __builtin_FILE();
};

// A property of the optimized output beyond equality with the others (round trip, size
// prediction, ...); its failure is the verdict "check-failed:<name>" (harness/verdict.h, rule 5).
template <typename T>
struct OutputCheck {
  std::string name;  // "round-trip", "size-prediction"
  std::function<absl::Status(const T& input, const std::string& optimized_output)> check;
};

// Bound (bytes) on the optimized run's peak heap, from the input and the optimized output,
// applied on every outcome: a rejected input is seen as such (its Output is the error).
template <typename T>
using HeapBoundFn = std::function<int64_t(const T& input, const Output& optimized)>;

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

// A collection or batch target's inputs by size, for `serdiff review`'s size ladder (growth
// measured, not guessed): make(count, null_percent) is the input with `count` elements, that
// share of them null (0..100; only when `nulls`, else 0 is passed). Counts go up to `max_count`.
template <typename T>
struct Ladder {
  std::function<T(uint32_t count, int null_percent)> make;
  uint32_t max_count = 0;
  bool nulls = false;
  explicit operator bool() const { return static_cast<bool>(make); }
};

template <typename T>
struct TargetDef {
  std::string name;         // also the fuzz binary's name and the corpus folder; starts "<family>_"
  std::string description;  // one sentence: what is compared with what
  Domain<T> domain;
  Impl<T> optimized;
  // Every implementation compared with the optimized one, at least one: its other tiers, the
  // references, the oracles; the workers and modules a run attaches are appended here.
  std::vector<Impl<T>> others;
  std::vector<OutputCheck<T>> checks;
  std::vector<Divergence<T>> divergences;
  // Known peak-heap departures of outside implementations, applied when one is the subject.
  std::vector<HeapDivergence<T>> heap_divergences;
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
  // Collection and batch targets: inputs by element count (`serdiff review`); unset: none.
  Ladder<T> ladder = {};
};

}  // namespace serdiff::harness
