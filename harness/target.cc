// The verdict (JudgeCase) and the report (RenderReport) of harness/target.h. JudgeCase only
// compares: outputs, error classes, error offsets, peaks; texts are built for a failure
// alone, so that the run of a passing input under a fuzzer costs the implementations' runs
// and little more. RenderReport writes what a person reads; it runs for failures and when a
// caller asks for the report (repro, seed).
#include "harness/target.h"

#include <algorithm>
#include <cstdio>
#include <cstdlib>

#include <fnmatch.h>

#include <filesystem>
#include "absl/strings/cord.h"
#include "absl/strings/match.h"
#include "absl/strings/numbers.h"
#include "absl/strings/str_cat.h"
#include "absl/strings/str_format.h"
#include "harness/report.h"
#include "serdiff/common/error_offset.h"

namespace serdiff::harness {
namespace {

// The start of a decline's message, for people. IsDeclined looks only at the payload, so an error
// whose message happens to start this way is still a rejection.
constexpr absl::string_view kDeclinedPrefix = "declined: ";

// Equal bytes, or equal statuses: code, message and payloads (the error offset among them).
// The payloads take part so that a second run reporting another error offset is "nondeterministic"
// (offsets are compared, so they must be stable too).
bool SameOutput(const Output& a, const Output& b) {
  if (a.ok() != b.ok()) return false;
  if (a.ok()) return *a == *b;
  return a.status() == b.status();
}

// An error that is not a decline. Offsets are compared only between rejections: declined results
// take no part in the comparison (target.h).
bool Rejected(const Output& out) { return !out.ok() && !IsDeclined(out.status()); }

// For the details of error-offset-mismatch.
std::string ShowOffset(const std::optional<int64_t>& offset) {
  return offset.has_value() ? absl::StrCat("offset ", *offset) : "no offset";
}

// One implementation's result as a person reads it: a decline by its message, an error with its
// offset, code and message, bytes in hex (and through `show` when the target has a printer). Called
// only to explain a failure or to render a report.
std::string DescribeOutput(const Output& out,
                           const std::function<std::string(const std::string&)>& show) {
  if (!out.ok()) {
    if (IsDeclined(out.status())) return std::string(out.status().message());
    const std::optional<int64_t> offset = ErrorOffset(out.status());
    return absl::StrCat("error", offset ? absl::StrCat(" at offset ", *offset) : "", ": ",
                        absl::StatusCodeToString(out.status().code()), ": ",
                        out.status().message());
  }
  std::string s = absl::StrCat(out->size(), " bytes: ", Hex(*out));
  if (show) absl::StrAppend(&s, "\n      = ", show(*out));
  return s;
}

}  // namespace

// An Unimplemented status carrying the kDeclinedUrl payload. The payload, not the code, is what
// makes it a decline (target.h), so a reference's ordinary Unimplemented error stays a rejection.
absl::Status Declined(std::string_view reason) {
  absl::Status s = absl::UnimplementedError(
      absl::StrCat(kDeclinedPrefix, absl::string_view(reason.data(), reason.size())));
  s.SetPayload(absl::string_view(kDeclinedUrl.data(), kDeclinedUrl.size()), absl::Cord("1"));
  return s;
}

namespace {
uint32_t g_rerun_one_in = 1;
}  // namespace

void SetRerunOneIn(uint32_t one_in) { g_rerun_one_in = one_in == 0 ? 1 : one_in; }
uint32_t RerunOneIn() { return g_rerun_one_in; }

uint64_t RerunHash(std::string_view data) {
  uint64_t h = 0xcbf29ce484222325ULL;  // FNV-1a offset basis and prime
  for (const char c : data) {
    h ^= static_cast<unsigned char>(c);
    h *= 0x100000001b3ULL;
  }
  return h;
}

bool RerunsAll(std::string_view data) {
  return g_rerun_one_in <= 1 || RerunHash(data) % g_rerun_one_in == 0;
}

void ConfigureFuzzRerun() {
  uint32_t one_in = kFuzzRerunOneIn;
  if (const char* env = std::getenv("SERDIFF_RERUN_ONE_IN"); env != nullptr) {
    uint32_t v = 0;
    if (absl::SimpleAtoi(env, &v) && v >= 1) {
      one_in = v;
    } else {
      std::fprintf(stderr, "serdiff: SERDIFF_RERUN_ONE_IN=%s is not a positive integer; using %u\n",
                   env, static_cast<unsigned>(kFuzzRerunOneIn));
    }
  }
  SetRerunOneIn(one_in);
}

// The payload alone decides (an OK status carries none).
bool IsDeclined(const absl::Status& status) {
  return !status.ok() &&
         status.GetPayload(absl::string_view(kDeclinedUrl.data(), kDeclinedUrl.size())).has_value();
}

// The names `serdiff list` shows. The switch has no default label, so -Wswitch (part of -Wall, an
// error in the dev preset) flags an enumerator added without a name; the return after it covers a
// value outside the enum. RoleName has the same form.
std::string_view OffsetPolicyName(OffsetPolicy p) {
  switch (p) {
    case OffsetPolicy::kCompareWhenPresent:
      return "compare-when-present";
    case OffsetPolicy::kRequired:
      return "required";
    case OffsetPolicy::kNotApplicable:
      return "not-applicable";
  }
  return "unknown";
}

std::string_view ImplKindName(ImplKind k) {
  switch (k) {
    case ImplKind::kCompiled:
      return "compiled";
    case ImplKind::kModule:
      return "module";
    case ImplKind::kWorker:
      return "worker";
  }
  return "unknown";
}

namespace {
thread_local std::optional<int64_t> t_external_peak;
}  // namespace

void ReportExternalPeak(int64_t bytes) { t_external_peak = bytes; }
std::optional<int64_t> TakeExternalPeak() {
  std::optional<int64_t> p = t_external_peak;
  t_external_peak.reset();
  return p;
}

std::string_view RoleName(Role r) {
  switch (r) {
    case Role::kOptimized:
      return "optimized";
    case Role::kOptimizedTier:
      return "optimized-tier";
    case Role::kReference:
      return "reference";
    case Role::kOracle:
      return "oracle";
  }
  return "unknown";
}

// A unit only for an exact multiple, so that the text never rounds: a bound's number and its text
// cannot disagree (HeapBound in target.h).
std::string BoundBytesText(int64_t bytes) {
  constexpr int64_t kKiB = 1024;
  if (bytes > 0 && bytes % (kKiB * kKiB) == 0) return absl::StrCat(bytes / (kKiB * kKiB), " MiB");
  if (bytes > 0 && bytes % kKiB == 0) return absl::StrCat(bytes / kKiB, " KiB");
  return absl::StrCat(bytes);
}

// The optimized side and its tiers live in src/serdiff/<family>/, references in
// reference/<family>/. An oracle must name its own origin (test
// ImplOrigins.EveryImplementationSaysWhereItComesFrom), so the fallback says that it did not.
std::string DefaultOrigin(Role role, std::string_view family) {
  switch (role) {
    case Role::kOptimized:
    case Role::kOptimizedTier:
      return "src/serdiff/" + std::string(family);
    case Role::kReference:
      return "reference/" + std::string(family);
    case Role::kOracle:
      break;
  }
  return "an oracle that names no origin";
}

// Both in TargetInfo::impls order: [0] is the optimized implementation.
std::vector<std::string> Target::impl_names() const {
  std::vector<std::string> names;
  for (const ImplInfo& i : info_.impls) names.push_back(i.name);
  return names;
}

std::vector<Role> Target::impl_roles() const {
  std::vector<Role> roles;
  for (const ImplInfo& i : info_.impls) roles.push_back(i.role);
  return roles;
}

// A decline is neither an acceptance nor a rejection: the verdict leaves it out.
Outcome OutcomeOf(const Output& out) {
  if (out.ok()) return Outcome::kAccepted;
  return IsDeclined(out.status()) ? Outcome::kDeclined : Outcome::kRejected;
}

// The rules run in the order of the file comment of target.h; the first failure found is the
// verdict, later ones are not looked for in detail. Everything here is comparison of data:
// texts are built only to explain a failure (once per failing case).
CaseResult JudgeCase(const JudgeInput& in) {
  CaseResult result;
  const absl::Span<const ImplRun> runs = in.runs;
  const ImplRun& opt = runs[0];
  result.optimized_peak_bytes = opt.peak_heap_bytes;
  result.optimized_rejected = !opt.first.ok();
  // The reference peak shown beside the optimized one is the first kReference implementation's,
  // found by role, never by name or position: a target may list an oracle or a tier before its
  // reference (docs/architecture.md, "Roles").
  for (size_t i = 1; i < runs.size(); ++i) {
    if (runs[i].role == Role::kReference) {
      result.reference_peak_bytes = runs[i].peak_heap_bytes;
      break;
    }
  }
  result.heap_bound_bytes = in.heap_bound;

  // `why` is called only for the first failure: its text costs nothing on passing cases.
  // Later failures are ignored, so the class is that of the first rule broken, in the order of
  // target.h's file comment.
  auto fail = [&](absl::string_view cls, absl::string_view impl, auto why) {
    if (!result.passed) return;
    result.passed = false;
    result.failure_class = absl::StrCat(cls, ":", impl);
    result.failing_impl = std::string(impl);
    result.details = why();
  };
  // A mismatch with runs[i] that an accepted divergence covers is recorded, not failed.
  // Asked only once a difference is found, so that the predicates cost nothing on agreeing cases.
  auto covered = [&](size_t i) {
    if (!in.divergence) return false;
    std::optional<std::string> reason = in.divergence(i);
    if (!reason) return false;
    result.accepted.push_back(absl::StrCat(runs[i].name, ": ", *reason));
    return true;
  };

  result.subject = std::string(opt.name);
  // Rule 0. A worker that crashed, hung or broke the protocol (harness/external.h) is reported
  // before anything its missing answer would make look different.
  for (const ImplRun& run : runs) {
    for (const Output* out : {&run.first, &run.second}) {
      if (out == &run.second && !run.rerun) continue;
      if (out->ok()) continue;
      const std::string cls = WorkerFailureClass(out->status());
      if (cls.empty()) continue;
      fail(cls, run.name, [&] { return std::string(out->status().message()); });
    }
  }
  // Rule 1. Every implementation, the optimized one included, ran twice on the same input
  // (TypedTarget::RunImpl), except the others on inputs a fuzz binary's sample left out
  // (SetRerunOneIn: run.rerun false); SameOutput compares payloads too, so a second run with
  // another error offset is caught here.
  for (const ImplRun& run : runs) {
    if (run.rerun && !SameOutput(run.first, run.second)) {
      fail("nondeterministic", run.name, [&] {
        return absl::StrCat(run.name,
                            " gave a different result when run again on the same input:\n",
                            "  first:  ", DescribeOutput(run.first, nullptr), "\n",
                            "  second: ", DescribeOutput(run.second, nullptr));
      });
    }
  }
  // The optimized side must accept or reject every input; only the others may decline (target.h,
  // rule 1).
  // A subject other than the optimized implementation may decline (an input its language or
  // API cannot take): the case is then not judged.
  if (OutcomeOf(opt.first) == Outcome::kDeclined && opt.role != Role::kOptimized) {
    if (result.passed) {
      result.subject_declined = true;
      return result;
    }
  } else if (OutcomeOf(opt.first) == Outcome::kDeclined) {
    fail("optimized-declined", opt.name, [&] {
      return absl::StrCat("the optimized implementation (", opt.name,
                          ") must not decline an input");
    });
  }

  // Rules 2 and 3, for each other implementation. A decline takes no part. The error class is
  // compared first (messages never are), the bytes only when both accepted.
  for (size_t i = 1; i < runs.size(); ++i) {
    const ImplRun& ref = runs[i];
    if (OutcomeOf(ref.first) == Outcome::kDeclined) continue;
    const bool class_differs = opt.first.ok() != ref.first.ok();
    const bool bytes_differ = !class_differs && opt.first.ok() && *opt.first != *ref.first;
    if (!class_differs && !bytes_differ) continue;
    if (covered(i)) continue;
    if (class_differs) {
      fail("error-class-mismatch", ref.name, [&] {
        return absl::StrCat(opt.name, (opt.first.ok() ? " accepted" : " rejected"),
                            " the input but ", ref.name,
                            (ref.first.ok() ? " accepted" : " rejected"), " it");
      });
    } else {
      const std::string& a = *opt.first;
      const std::string& b = *ref.first;
      // The bytes differ, so FirstDifference has a value. The offset is kept as data for the first
      // failure only, like the class.
      const size_t off = *FirstDifference(a, b);
      if (result.passed) result.first_difference = static_cast<int64_t>(off);
      fail("bytes-mismatch", ref.name, [&] {
        return absl::StrFormat(
            "first differing byte at offset %d (%s has %d bytes, %s has %d)\n"
            "  %-10s %s\n  %-10s %s",
            off, opt.name, a.size(), ref.name, b.size(), opt.name, HexWindow(a, off), ref.name,
            HexWindow(b, off));
      });
    }
  }

  // Error offsets, where both sides rejected (after every class and bytes comparison).
  // Rule 4. Under kNotApplicable the input is no byte string, so there is nothing to compare. Under
  // kRequired the optimized side's own missing offset is a failure too; an exempt implementation
  // (an oracle that reports none, TargetDef::offset_exemptions) may omit it.
  if (in.offsets != OffsetPolicy::kNotApplicable && Rejected(opt.first)) {
    const std::optional<int64_t> opt_offset = ErrorOffset(opt.first.status());
    const bool required = in.offsets == OffsetPolicy::kRequired;
    if (required && !opt.offset_exempt && !opt_offset) {
      fail("error-offset-missing", opt.name, [&] {
        return absl::StrCat(opt.name, " rejected the input without an error offset: ",
                            opt.first.status().ToString());
      });
    }
    for (size_t i = 1; i < runs.size(); ++i) {
      const ImplRun& ref = runs[i];
      if (!Rejected(ref.first)) continue;
      // Offsets differ only when both sides carry one: under kCompareWhenPresent a missing one
      // passes, and under kRequired it is reported as missing instead.
      const std::optional<int64_t> ref_offset = ErrorOffset(ref.first.status());
      const bool missing = required && !ref.offset_exempt && !ref_offset;
      const bool differs = opt_offset && ref_offset && *opt_offset != *ref_offset;
      if (!missing && !differs) continue;
      if (covered(i)) continue;
      if (missing) {
        fail("error-offset-missing", ref.name, [&] {
          return absl::StrCat(ref.name, " rejected the input without an error offset: ",
                              ref.first.status().ToString());
        });
      } else {
        fail("error-offset-mismatch", ref.name, [&] {
          return absl::StrCat("both rejected the input, ", opt.name, " at ", ShowOffset(opt_offset),
                              ", ", ref.name, " at ", ShowOffset(ref_offset));
        });
      }
    }
  }

  // Rule 5: the target's extra checks, which ran on the optimized output when it accepted
  // (TypedTarget::Check).
  for (const auto& check : in.checks) {  // (no structured binding: lambdas capture it)
    if (!check.second.ok()) {
      fail("check-failed", check.first,
           [&] { return absl::StrCat(check.first, ": ", check.second.ToString()); });
    }
  }

  // Rule 6, whether the optimized side accepted or rejected: "heap-bound:<optimized>". Not
  // through `fail`, whose lambda-built details are not needed here.
  if (in.heap_bound >= 0 && opt.peak_heap_bytes > in.heap_bound && result.passed) {
    result.passed = false;
    result.failure_class = absl::StrCat("heap-bound:", opt.name);
    result.failing_impl = std::string(opt.name);
    result.details = absl::StrFormat(
        "%s peaked at %d heap bytes (%s the input); the bound is %d bytes", opt.name,
        opt.peak_heap_bytes, opt.first.ok() ? "accepting" : "rejecting", in.heap_bound);
  }
  if (!result.passed) {
    for (const ImplRun& run : runs) {
      if (OutcomeOf(run.first) == Outcome::kDeclined) result.declined.emplace_back(run.name);
    }
  }
  return result;
}

// Text for people, built only for a failing case or on request (Render::kAlways). A failing report
// ends with the stable line "serdiff: <target>: <class>", which fuzzing services deduplicate on
// (target.h).
void RenderReport(const JudgeInput& in, CaseResult* result) {
  const absl::Span<const ImplRun> runs = in.runs;
  const ImplRun& opt = runs[0];
  std::string& r = result->report;
  r.clear();
  if (opt.role != Role::kOptimized) absl::StrAppend(&r, "subject: ", opt.name, "\n");
  absl::StrAppend(&r, "target: ", in.target, "\n",
                  "input:  ", in.show_input ? in.show_input() : std::string("(no printer)"), "\n");
  for (const ImplRun& run : runs) {
    absl::StrAppendFormat(&r, "  %-10s %s\n", run.name, DescribeOutput(run.first, in.show_output));
  }
  auto peak_text = [](const ImplRun& run) {
    if (run.peak_heap_bytes < 0) return std::string("unknown");
    return absl::StrCat(run.peak_heap_bytes, " bytes",
                        run.kind == ImplKind::kWorker ? " (reported by the worker)" : "");
  };
  absl::StrAppendFormat(&r, "peak heap: %s %s", opt.name, peak_text(opt));
  if (in.heap_bound >= 0) absl::StrAppendFormat(&r, " (bound %d)", in.heap_bound);
  for (size_t i = 1; i < runs.size(); ++i) {
    absl::StrAppendFormat(&r, ", %s %s", runs[i].name, peak_text(runs[i]));
  }
  r.push_back('\n');
  for (const auto& [name, status] : in.checks) {
    absl::StrAppend(&r, "check ", name, ": ", status.ok() ? "ok" : status.ToString(), "\n");
  }
  for (const std::string& a : result->accepted) {
    absl::StrAppend(&r, "accepted divergence: ", a, "\n");
  }
  if (result->passed) {
    absl::StrAppend(&r, "verdict: pass\n");
  } else {
    absl::StrAppend(&r, "verdict: FAIL\n", result->details, "\n", "serdiff: ", in.target, ": ",
                    result->failure_class, "\n");
  }
  result->rendered = true;
}

// 64 KiB inputs, a 1088 KiB heap bound and 25 s per input (OSS-Fuzz's timeout), for a family that
// states no limits of its own.
FuzzLimits DefaultFuzzLimits() {
  return FuzzLimits{65536, 1114112, 25,
                    "default for a new family: 1088 KiB until its author states a bound"};
}

// The family's rules in the order they were set: the first match wins (Registry::SetFuzzLimits).
FuzzLimits Registry::FuzzLimitsFor(std::string_view name) const {
  const std::string n(name);
  for (const auto& [glob, limits] : fuzz_limit_rules_) {
    // Target names hold no '/', '[' or '\\': only '*' is special.
    if (fnmatch(glob.c_str(), n.c_str(), 0) == 0) return limits;
  }
  return DefaultFuzzLimits();
}

// The first target with that name, in registration order; nullptr when there is none.
const Target* Registry::Find(std::string_view name) const {
  for (const auto& t : targets_) {
    if (t->name() == name) return t.get();
  }
  return nullptr;
}

namespace {

// What SERDIFF_REGISTER_FAMILY records: a family's name and its registration function, which
// BuildRegistry runs later.
struct RecordedFamily {
  std::string name;
  RegisterFamilyFn fn;
};

// Function-local static: RecordFamily runs during static initialization of other files, in
// an order the language leaves open, so the list must exist before its first use.
std::vector<RecordedFamily>& Families() {
  // Never destroyed, so no static destructor runs on it at exit.
  static auto* families = new std::vector<RecordedFamily>;
  return *families;
}

}  // namespace

// Runs during static initialization: it only records. BuildRegistry registers, later and in a fixed
// order.
bool RecordFamily(const char* name, RegisterFamilyFn fn) {
  Families().push_back({name, fn});
  return true;
}

// Sorted, for the reason BuildRegistry sorts: static initialization order differs between links.
std::vector<std::string> RecordedFamilies() {
  std::vector<std::string> out;
  for (const RecordedFamily& f : Families()) out.push_back(f.name);
  std::sort(out.begin(), out.end());
  return out;
}

std::unique_ptr<Registry> BuildRegistry(bool selftest) {
  std::vector<RecordedFamily> families = Families();
  // Static initialization order differs between links: sort, so that every binary lists the
  // targets in the same order.
  std::sort(families.begin(), families.end(),
            [](const RecordedFamily& a, const RecordedFamily& b) { return a.name < b.name; });
  auto registry = std::make_unique<Registry>();
  for (size_t i = 0; i < families.size(); ++i) {
    const RecordedFamily& f = families[i];
    // Sorted, so a family recorded twice sits next to itself.
    if (i > 0 && families[i - 1].name == f.name) {
      std::fprintf(stderr, "serdiff: family %s is registered twice\n", f.name.c_str());
      std::abort();
    }
    // The selftest family's optimized sides are deliberately wrong (target.h): its targets are
    // built only on request, never with the others.
    if ((f.name == "selftest") != selftest) continue;
    const size_t before = registry->targets_.size();
    // What Registry::Add reads while this family registers: its name and its defaults, reset for
    // each family (target.h).
    registry->family_ = f.name;
    registry->default_length_fields_.clear();
    registry->fuzz_limit_rules_.clear();
    f.fn(*registry);
    // Every target a family adds is named "<family>_...", as target.h requires.
    for (size_t k = before; k < registry->targets_.size(); ++k) {
      const std::string& n = registry->targets_[k]->name();
      if (!absl::StartsWith(n, absl::StrCat(f.name, "_"))) {
        std::fprintf(stderr, "serdiff: target %s of family %s must be named %s_...\n", n.c_str(),
                     f.name.c_str(), f.name.c_str());
        std::abort();
      }
    }
  }
  // Back to the initial value: an Add after BuildRegistry belongs to no family.
  registry->family_ = "unregistered";
  return registry;
}

// Manifests first (those named, then the defaults in name order), then modules. Problems are
// collected, not fatal: a process still judges with what could be attached.
std::vector<std::string> AttachExternal(Registry& registry, const ExternalConfig& config) {
  std::vector<std::string> problems;
  // The manifests named (--worker, SERDIFF_WORKERS) first: a default one of the same name
  // is then not attached again.
  std::vector<std::string> files = config.worker_files;
  const std::string& subject = Subject();
  if (config.default_workers || !subject.empty()) {
    std::error_code ec;
    std::vector<std::string> found;
    for (const auto& dir : std::filesystem::directory_iterator(OraclesDir(), ec)) {
      for (const auto& f : std::filesystem::directory_iterator(dir.path(), ec)) {
        const std::string name = f.path().filename().string();
        if (absl::StartsWith(name, "worker") && absl::EndsWith(name, ".json")) {
          found.push_back(f.path().string());
        }
      }
    }
    std::sort(found.begin(), found.end());
    for (const std::string& f : found) {
      absl::StatusOr<WorkerManifest> m = ReadWorkerManifest(f);
      if (!m.ok()) {
        problems.push_back(std::string(m.status().message()));
        continue;
      }
      if (config.default_workers ? m->is_default : m->name == subject) files.push_back(f);
    }
  }
  for (const std::string& f : files) {
    absl::StatusOr<WorkerManifest> m = ReadWorkerManifest(f);
    if (!m.ok()) {
      problems.push_back(std::string(m.status().message()));
      continue;
    }
    bool duplicate = false;
    for (const auto& w : registry.workers_) duplicate |= w->manifest().name == m->name;
    if (duplicate) continue;  // named twice (a default and --worker): attached once
    auto client = std::make_shared<WorkerClient>(*m);
    for (const std::string& t : m->targets) {
      Target* target = registry.FindMutable(t);
      if (target == nullptr) {
        // A target of a family this binary was not built with (SERDIFF_ONLY_FAMILIES) is no
        // problem; a name no family here could have is (a typo in the manifest).
        const std::vector<std::string> families = RecordedFamilies();
        const bool absent_family =
            std::none_of(families.begin(), families.end(),
                         [&](const std::string& fam) { return absl::StartsWith(t, fam + "_"); });
        if (!absent_family) problems.push_back(absl::StrCat(f, ": no target ", t));
        continue;
      }
      if (absl::Status s = target->AttachWorker(client); !s.ok()) {
        problems.push_back(absl::StrCat(f, ": ", s.message()));
      }
    }
    registry.workers_.push_back(std::move(client));
  }
  for (const std::string& f : config.module_files) {
    absl::StatusOr<const serdiff_module*> m = LoadModule(f);
    if (!m.ok()) {
      problems.push_back(std::string(m.status().message()));
      continue;
    }
    int joined = 0;
    for (size_t i = 0; i < (*m)->op_count; ++i) {
      const serdiff_op* op = &(*m)->ops[i];
      for (const auto& t : registry.targets_) {
        if (t->info().interchange_op != op->op || !OpJoinsTarget(*op, t->name())) continue;
        if (t->AttachModule(*m, op).ok()) ++joined;
      }
    }
    if (joined == 0) problems.push_back(absl::StrCat(f, ": joins no target"));
    registry.modules_.push_back(*m);
  }
  return problems;
}

}  // namespace serdiff::harness
