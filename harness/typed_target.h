// serdiff harness: a target as the registry, the CLI, the test driver and the fuzzers see it
// (Target: its description as data, and what needs the input type as virtual functions), and the
// typed runner behind it (TypedTarget: runs every implementation on an input, judges with
// harness/verdict.h, renders with harness/report.h, and holds the RapidCheck property bodies).
// One TargetDef (harness/definition.h), used five ways: property test, libFuzzer target, corpus
// replay, `serdiff check` / `serdiff repro`, benchmark inputs.
#pragma once

#include <chrono>
#include <cstdint>
#include <functional>
#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include <rapidcheck.h>

#include "absl/container/inlined_vector.h"
#include "absl/status/status.h"
#include "absl/status/statusor.h"
#include "absl/strings/escaping.h"
#include "absl/strings/str_cat.h"
#include "absl/types/span.h"
#include "harness/alloc_tracker.h"
#include "harness/definition.h"
#include "harness/external.h"
#include "harness/fuzz_input.h"
#include "harness/length_lies.h"
#include "harness/report.h"
#include "harness/run_config.h"
#include "harness/run_impls.h"
#include "harness/text_parse.h"
#include "harness/verdict.h"

namespace serdiff::harness {

// What a target is, as data: everything the CLI, the reports and the tests read about a target
// without running it, copied once from its TargetDef when it is registered.
struct ImplInfo {
  std::string name;
  Role role = Role::kReference;
  std::string origin;  // "src/serdiff/varint", "reference/varint", "oracles/protobuf: ..."
  ImplKind kind = ImplKind::kCompiled;
  // A compiled implementation's decline edges (Impl::decline_edges), made when asked: each
  // input's text and whether it is declined.
  std::function<std::vector<std::pair<std::string, bool>>()> decline_edge_texts = {};
};
// An accepted divergence or an offset exemption, as data: the implementation it concerns, why,
// and the source file that declares it (the path the compiler was given; DeclaredInText
// shortens it).
struct Acceptance {
  std::string impl;
  std::string reason;
  std::string declared_in;
  // Divergences only: the text of each input at its edge (Divergence::edges), made when asked,
  // or why it has none (Divergence::no_edge).
  std::function<std::vector<std::string>()> edge_texts = {};
  std::string no_edge = {};
};
// `declared_in` from its last "/targets/" on ("targets/bson/divergences_pymongo.cc"), else from
// its last "/oracles/" on; a path with neither (a user's own project) as it is.
std::string DeclaredInText(std::string_view declared_in);
struct TargetInfo {
  std::string name;
  std::string family;
  std::string description;
  std::string domain_name;
  std::vector<ImplInfo> impls;  // [0] is the optimized implementation (Role::kOptimized)
  std::string heap_bound_text;
  std::vector<Acceptance> accepted_divergences;  // TargetDef::divergences
  OffsetPolicy offset_policy = OffsetPolicy::kCompareWhenPresent;
  std::string offsets_reason;  // why offsets are not applicable (kNotApplicable), else empty
  // Each implementation that reports no error offsets (TargetDef::offset_exemptions).
  std::vector<Acceptance> offset_exemptions;
  // Each known peak-heap departure of a subject (TargetDef::heap_divergences).
  std::vector<Acceptance> heap_divergences;
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
  const std::vector<Acceptance>& accepted_divergences() const { return info_.accepted_divergences; }
  OffsetPolicy offset_policy() const { return info_.offset_policy; }
  const std::string& offsets_reason() const { return info_.offsets_reason; }
  const std::vector<Acceptance>& offset_exemptions() const { return info_.offset_exemptions; }
  const std::vector<Acceptance>& heap_divergences() const { return info_.heap_divergences; }

  // Decodes corpus or fuzz bytes with FuzzedDataProvider and judges the input under `config`
  // (its subject, its re-run sample: harness/run_config.h); the report and corpus bytes only on
  // failure unless render is kAlways.
  virtual CaseResult RunBytes(std::string_view data, const RunConfig& config,
                              Render render = Render::kOnFailure) const = 0;
  // The value corpus or fuzz bytes decode to, as the domain prints it (Domain::show). The
  // printed value is what a corpus file means: tests/data/corpus-printed/ records it for every
  // shipped corpus file, so a change of the corpus byte form cannot change a file's meaning
  // unnoticed.
  virtual std::string ShowBytes(std::string_view data) const = 0;
  // Generates one input (RapidCheck, given seed and size 0..100) and judges it under `config`
  // (every implementation runs twice, whatever config.rerun_one_in says).
  virtual CaseResult RunGenerated(uint64_t seed, int size, const RunConfig& config,
                                  Render render = Render::kOnFailure) const = 0;

  // One implementation alone on the value corpus or fuzz bytes decode to (`serdiff review`): its
  // first run's output and peak heap (the allocation tracker's around a compiled call; a module's
  // or a worker's own, -1 when a worker does not say). Errors (as the output): NotFound when the
  // target has no implementation named `impl`.
  virtual MeasuredOutput RunOne(std::string_view data, std::string_view impl) const = 0;
  // `calls` timings of one implementation alone on that value (`serdiff review`'s speed; the
  // value is decoded once, before), each of `batch` calls in a row (batch >= 1; the clock is read
  // once before and once after them, its own cost spread over the batch) and given in
  // nanoseconds per call: a compiled one timed with the steady clock (TimeBatches; a callable
  // returning a std::string called as it is, its string never converted to an Output:
  // Impl::timed_run), a module or worker by its Impl::timed_run. Empty when the target has no
  // such implementation or it was not timed (a worker that does not time, a rejection).
  virtual std::vector<double> TimeCalls(std::string_view data, std::string_view impl, int calls,
                                        int batch = 1) const = 0;
  // Ends the process of implementation `impl` when it runs in one (a worker), so that its next
  // call starts a fresh process, and returns true; false (nothing done) for an in-process
  // implementation or an unknown name.
  virtual bool FreshProcess(std::string_view impl) const = 0;
  // `serdiff repro --upstream` (docs/workers.md, "Upstream reproducers"): the request
  // (UpstreamRequestJson, harness/interchange.h) from which a worker writes a program calling
  // its library directly on the value `data` decodes to, with what the target's reference
  // implementation (the first compiled one of Role::kReference: the spec's transcription) gives
  // as the expected answer. Errors: FailedPrecondition when the target takes no outside
  // implementation or has no compiled reference; the interchange's own error (Declined: the
  // value has no form the workers take) or the expected-answer conversion's.
  virtual absl::StatusOr<std::string> UpstreamRequest(std::string_view data) const = 0;
  // The heap bound `impl`'s peak is held to, in bytes, as the subject on the value `data`
  // decodes to, when it answered `impl_output` (RunOne's output): the target's bound for that
  // value and output, plus the slack impl's manifest states, without any HeapDivergence's
  // allowance (the known excess a bug report is about), as a check judges it. -1 when the target
  // has no heap bound or no implementation `impl`.
  virtual int64_t SubjectHeapBound(std::string_view data, std::string_view impl,
                                   const Output& impl_output) const = 0;
  // The size ladder of a collection or batch target (TargetDef::ladder), for `serdiff review`:
  // counts 0, 1, 10, 100, 1,000, 10,000, 100,000, 500,000 up to the ladder's max_count (and
  // the max_count itself), each at null densities 0 %, 50 % and 100 % when the domain has nulls;
  // a step whose corpus bytes would read back as another value is left out. Empty: no ladder.
  struct LadderStep {
    uint32_t count = 0;
    int null_percent = 0;
    std::string bytes;
  };
  virtual std::vector<LadderStep> LadderInputs() const = 0;
  // The corpus bytes of the input RunGenerated(seed, size, ...) judges (size 0..100).
  virtual std::string GeneratedBytes(uint64_t seed, int size) const = 0;
  // The canonical corpus form of the value `data` decodes to (the value re-encoded): two byte
  // strings with the same canonical form are the same input.
  virtual std::string CanonicalBytes(std::string_view data) const = 0;
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
  virtual void RcDifferentialProperty(const RunConfig& config) const = 0;
  // decode(encode(v)) == v for generated v.
  virtual void RcDomainRoundTripProperty() const = 0;
  // Every accepted divergence held at its edge (Divergence::edges): one line for each edge its
  // predicate covers and for each divergence with neither edges nor a reason why; empty when
  // every predicate stops where it should.
  virtual std::vector<std::string> DivergenceEdgeProblems() const = 0;
  // Every decline edge of every compiled implementation run (Impl::decline_edges): one line per
  // edge where the implementation declined an input it must answer, or answered one it must
  // decline. *edges counts the edges run.
  virtual std::vector<std::string> DeclineEdgeProblems(size_t* edges) const = 0;
  // parse(show(v)) == v for generated v, where show(v) leaves nothing of v out (a parse that
  // fails with ElidedAt is skipped). Precondition: has_parser().
  virtual void RcParseInvertsShowProperty() const = 0;
  const std::string& last_counterexample() const { return last_counterexample_; }

  // Joins a worker (docs/workers.md) or one operation of a module to this target as an oracle
  // (the implementation WorkerImpl or ModuleImpl of harness/external.h builds).
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

  // Judges one input under `config`. On a passing input under a fuzzer this is the whole
  // per-input cost beside the implementations' own runs, so for up to four implementations it
  // allocates nothing of its own but the output checks' results (TargetDef::checks, when a
  // target has any): runs are inline, names are views, the divergence callback captures one
  // pointer (fits std::function's inline buffer).
  // rerun_all false: the implementations other than the subject run once (rule 1 skips them;
  // RunConfig::rerun_one_in).
  CaseResult Judge(const T& v, const RunConfig& config, Render render = Render::kOnFailure,
                   bool rerun_all = true) const {
    absl::InlinedVector<ImplRun, 4> runs;
    // The subject (RunConfig::subject) goes first, and the optimized implementation joins the
    // others; without one (or when this target lacks it) the optimized implementation is runs[0].
    const Impl<T>* subject = SubjectImpl(config.subject);
    absl::InlinedVector<PlannedRun<T>, 4> plan;
    if (subject == nullptr) {
      plan.push_back({&def_.optimized, Role::kOptimized, true});
    } else {
      plan.push_back({subject, subject->role, true});
      plan.push_back({&def_.optimized, Role::kOptimized, rerun_all});
    }
    for (const auto& r : def_.others) {
      if (&r != subject) plan.push_back({&r, r.role, rerun_all, config.peer_peaks});
    }
    RunAll<T>(plan, v, &runs);
    for (ImplRun& run : runs) {
      for (const auto& e : def_.offset_exemptions) {
        if (e.impl == run.name) run.offset_exempt = true;
      }
    }
    const Output& opt = runs[0].first;
    JudgeInput in;
    in.target = def_.name;
    in.runs = absl::MakeConstSpan(runs);
    in.optimized_index = subject == nullptr ? 0 : 1;
    // A divergence's predicate sees the optimized run's output as "optimized", whatever the
    // subject (JudgeCase combines the subject's and the other's, verdict.h).
    struct DivergenceContext {
      const TargetDef<T>* def;
      const T* v;
      absl::Span<const ImplRun> runs;
      const Output* optimized;
    } ctx{&def_, &v, in.runs, &runs[in.optimized_index].first};
    if (!def_.divergences.empty()) {
      in.divergence = [c = &ctx](size_t i) -> std::optional<std::string> {
        for (const auto& d : c->def->divergences) {
          if (d.impl == c->runs[i].name && d.applies(*c->v, *c->optimized, c->runs[i].first)) {
            return d.reason;
          }
        }
        return std::nullopt;
      };
    }
    // The checks hold the spec's bytes: a subject's output is checked when it is the optimized
    // one's or equal to it (verdict.h, rule 5).
    if (opt.ok() && (subject == nullptr || runs[1].first == opt)) {
      for (const auto& c : def_.checks) in.checks.emplace_back(c.name, c.check(v, *opt));
    }
    if (def_.heap_bound) in.heap_bound = BoundOf(v, opt, subject);
    if (def_.heap_bound && subject != nullptr) {
      for (const auto& h : def_.heap_divergences) {
        if (h.impl != subject->name) continue;
        const int64_t extra = h.allowance(v, runs[0].first);
        if (extra <= 0) continue;
        in.heap_bound += extra;
        in.heap_allowance += extra;
        in.heap_allowance_reason = absl::StrCat(h.impl, ": peak heap: ", h.reason);
        break;
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

  CaseResult RunBytes(std::string_view data, const RunConfig& config,
                      Render render = Render::kOnFailure) const override {
    FuzzedDataProvider fdp(reinterpret_cast<const uint8_t*>(data.data()), data.size());
    const T v = def_.domain.decode(fdp);
    return Judge(v, config, render, RerunsAll(data, config));
  }

  std::string ShowBytes(std::string_view data) const override {
    FuzzedDataProvider fdp(reinterpret_cast<const uint8_t*>(data.data()), data.size());
    return def_.domain.show(def_.domain.decode(fdp));
  }

  CaseResult RunGenerated(uint64_t seed, int size, const RunConfig& config,
                          Render render = Render::kOnFailure) const override {
    const T v = (*def_.domain.gen)(rc::Random(seed), size).value();
    return Judge(v, config, render);
  }

  void RcDifferentialProperty(const RunConfig& config) const override {
    const T v = *(*def_.domain.gen);
    CaseResult r = Judge(v, config);
    if (!r.passed) {
      last_counterexample_ = r.corpus_bytes;
      RC_FAIL(r.report);
    }
  }

  int64_t SubjectHeapBound(std::string_view data, std::string_view impl,
                           const Output& impl_output) const override {
    const Impl<T>* found = FindImpl(impl);
    if (found == nullptr || !def_.heap_bound) return -1;
    return BoundOf(DecodeBytes(data), impl_output, found == &def_.optimized ? nullptr : found);
  }
  MeasuredOutput RunOne(std::string_view data, std::string_view impl) const override {
    const Impl<T>* found = FindImpl(impl);
    if (found == nullptr) {
      return {absl::NotFoundError(absl::StrCat(def_.name, " has no implementation ",
                                               absl::string_view(impl.data(), impl.size()))),
              -1};
    }
    const T v = DecodeBytes(data);
    ImplRun run = RunImpl(*found, found->role, v, false);
    return {std::move(run.first), run.peak_heap_bytes};
  }
  absl::StatusOr<std::string> UpstreamRequest(std::string_view data) const override {
    const Interchange<T>& ic = def_.interchange;
    if (ic.op.empty() || !ic.input_json) {
      return absl::FailedPreconditionError(
          absl::StrCat(def_.name, " takes no outside implementation: no upstream reproducer"));
    }
    const Impl<T>* ref = nullptr;
    for (const auto& r : def_.others) {
      if (r.role == Role::kReference && r.run) {
        ref = &r;
        break;
      }
    }
    if (ref == nullptr) {
      return absl::FailedPreconditionError(
          absl::StrCat(def_.name, " has no compiled reference to give the expected answer"));
    }
    const T v = DecodeBytes(data);
    absl::StatusOr<std::string> input = ic.input_json(v);
    if (!input.ok()) return input.status();
    const Output want = ref->run(v);
    std::string answer = "{}";
    if (want.ok()) {
      if (ic.expected_answer) {
        absl::StatusOr<std::string> a = ic.expected_answer(v, *want);
        if (!a.ok()) return a.status();
        answer = *std::move(a);
      } else if (!ic.output) {
        answer = absl::StrCat("{\"hex\":\"", absl::BytesToHexString(*want), "\"}");
      }
    }
    return UpstreamRequestJson(def_.name, ic.op, *input, def_.domain.show(v), want, answer);
  }
  std::vector<double> TimeCalls(std::string_view data, std::string_view impl, int calls,
                                int batch) const override {
    const Impl<T>* found = FindImpl(impl);
    if (found == nullptr) return {};
    batch = std::max(batch, 1);
    const T v = DecodeBytes(data);
    // An outside implementation's timing, or a compiled callable's own (Impl::timed_run).
    if (found->timed_run) return found->timed_run(v, calls, batch);
    if (!found->run) return {};
    return TimeBatches([&] { return found->run(v); }, calls, batch);
  }
  bool FreshProcess(std::string_view impl) const override {
    const Impl<T>* found = FindImpl(impl);
    if (found == nullptr || !found->fresh_process) return false;
    found->fresh_process();
    return true;
  }
  std::vector<LadderStep> LadderInputs() const override {
    std::vector<LadderStep> out;
    if (!def_.ladder) return out;
    std::vector<uint32_t> counts;
    for (uint32_t c : {0u, 1u, 10u, 100u, 1000u, 10000u, 100000u, 500000u}) {
      if (c < def_.ladder.max_count) counts.push_back(c);
    }
    counts.push_back(def_.ladder.max_count);
    for (uint32_t c : counts) {
      for (int nulls : {0, 50, 100}) {
        if (nulls > 0 && (!def_.ladder.nulls || c == 0)) continue;
        const T v = def_.ladder.make(c, nulls);
        std::string bytes = Encode(v);
        if (!(DecodeBytes(bytes) == v)) continue;
        out.push_back({c, nulls, std::move(bytes)});
      }
    }
    return out;
  }
  std::string GeneratedBytes(uint64_t seed, int size) const override {
    return Encode((*def_.domain.gen)(rc::Random(seed), size).value());
  }
  std::string CanonicalBytes(std::string_view data) const override {
    return Encode(DecodeBytes(data));
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

  std::vector<std::string> DeclineEdgeProblems(size_t* edges) const override {
    std::vector<std::string> out;
    for (const Impl<T>& impl : def_.others) {
      if (!impl.decline_edges || !impl.run) continue;
      const std::vector<DeclineEdge<T>> list = impl.decline_edges();
      if (list.empty()) out.push_back(absl::StrCat(impl.name, ": decline_edges() gave none"));
      for (const DeclineEdge<T>& e : list) {
        ++*edges;
        const Output o = impl.run(e.input);
        const bool declined = !o.ok() && IsDeclined(o.status());
        if (declined != e.declined) {
          out.push_back(absl::StrCat(impl.name, ": ", e.text, ": ",
                                     declined ? "declined" : "answered", " (",
                                     o.ok() ? std::string("accepted") : o.status().ToString(),
                                     "), must ", e.declined ? "decline" : "answer"));
        }
      }
    }
    return out;
  }

  std::vector<std::string> DivergenceEdgeProblems() const override {
    std::vector<std::string> out;
    for (const Divergence<T>& d : def_.divergences) {
      const std::string where = DeclaredInText(d.declared_in);
      if (!d.edges) {
        if (d.no_edge.empty()) {
          out.push_back(absl::StrCat(d.impl, " (", where,
                                     "): no edges and no reason why: ", d.reason.substr(0, 80)));
        }
        continue;
      }
      const std::vector<DivergenceEdge<T>> edges = d.edges();
      if (edges.empty()) out.push_back(absl::StrCat(d.impl, " (", where, "): edges() gave none"));
      for (const DivergenceEdge<T>& e : edges) {
        if (d.applies(e.input, e.optimized, e.other)) {
          out.push_back(absl::StrCat(d.impl, " (", where, "): covers its edge ", e.text, ": ",
                                     d.reason.substr(0, 80)));
        }
      }
    }
    return out;
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
    for (const auto& r : d.others) {
      info.impls.push_back(
          {r.name, r.role, r.origin.empty() ? DefaultOrigin(r.role, family) : r.origin});
      if (r.decline_edges) {
        info.impls.back().decline_edge_texts = [edges = r.decline_edges] {
          std::vector<std::pair<std::string, bool>> texts;
          for (const DeclineEdge<T>& e : edges()) texts.emplace_back(e.text, e.declined);
          return texts;
        };
      }
    }
    info.heap_bound_text = d.heap_bound.text();
    for (const auto& dv : d.divergences) {
      Acceptance a{dv.impl, dv.reason, dv.declared_in, nullptr, dv.no_edge};
      if (dv.edges) {
        a.edge_texts = [edges = dv.edges] {
          std::vector<std::string> texts;
          for (const DivergenceEdge<T>& e : edges()) texts.push_back(e.text);
          return texts;
        };
      }
      info.accepted_divergences.push_back(std::move(a));
    }
    info.offset_policy = d.offsets;
    info.offsets_reason = d.offsets_reason;
    for (const auto& e : d.offset_exemptions) {
      info.offset_exemptions.push_back({e.impl, e.reason, e.declared_in, nullptr, ""});
    }
    for (const auto& h : d.heap_divergences) {
      info.heap_divergences.push_back({h.impl, h.reason, h.declared_in, nullptr, ""});
    }
    info.length_fields = d.length_fields;
    info.fuzz_limits = d.fuzz_limits;
    info.interchange_op = d.interchange.op;
    return info;
  }

  T DecodeBytes(std::string_view data) const {
    FuzzedDataProvider fdp(reinterpret_cast<const uint8_t*>(data.data()), data.size());
    return def_.domain.decode(fdp);
  }
  // The heap bound of a case (TargetDef::heap_bound for the value and runs[0]'s output: the
  // subject's), plus the slack of `subject`'s manifest when it is one (nullptr: the optimized).
  int64_t BoundOf(const T& v, const Output& opt, const Impl<T>* subject) const {
    int64_t bound = def_.heap_bound(v, opt);
    if (subject != nullptr && (subject->slack_bytes || subject->slack_per_output_permille ||
                               subject->slack_per_input_permille)) {
      bound += subject->slack_bytes + subject->slack_per_output_permille *
                                          static_cast<int64_t>(opt.ok() ? opt->size() : 0) / 1000;
      if (subject->slack_per_input_permille != 0) {
        bound += subject->slack_per_input_permille * static_cast<int64_t>(Encode(v).size()) / 1000;
      }
    }
    return bound;
  }
  // The implementation of that name (the optimized one included); nullptr: none.
  const Impl<T>* FindImpl(std::string_view name) const {
    if (name == def_.optimized.name) return &def_.optimized;
    for (const auto& r : def_.others) {
      if (r.name == name) return &r;
    }
    return nullptr;
  }
  // The implementation named `subject`, other than the optimized one; nullptr: none.
  const Impl<T>* SubjectImpl(const std::string& subject) const {
    if (subject.empty() || subject == def_.optimized.name) return nullptr;
    for (const auto& r : def_.others) {
      if (r.name == subject) return &r;
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
    // def_ never moves (the target is on the heap), so the interchange outlives the Impl.
    return Add(WorkerImpl<T>(std::move(client), &def_.interchange, def_.name));
  }

  absl::Status AttachModule(const serdiff_module* module, const serdiff_op* op) override {
    const Interchange<T>& ic = def_.interchange;
    if (ic.op.empty() || ic.op != op->op) {
      return absl::FailedPreconditionError(absl::StrCat(def_.name, " has no op ", op->op));
    }
    if (!ModuleFormFits(*op, ic)) {
      return absl::FailedPreconditionError(
          absl::StrCat(def_.name, " has no form ", op->form, " for ", op->op));
    }
    if (HasImpl(module->name)) {
      return absl::AlreadyExistsError(absl::StrCat(def_.name, " already has ", module->name));
    }
    return Add(ModuleImpl<T>(module, op, &ic));
  }

 private:
  absl::Status Add(Impl<T> impl) {
    mutable_info().impls.push_back({impl.name, impl.role, impl.origin, impl.kind});
    def_.others.push_back(std::move(impl));
    return absl::OkStatus();
  }

  TargetDef<T> def_;
};

}  // namespace serdiff::harness
