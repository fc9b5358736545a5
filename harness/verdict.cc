// The verdict (harness/verdict.h). JudgeCase only compares: outputs, error classes, error
// offsets, peaks; texts are built for a failure alone, so that the run of a passing input under a
// fuzzer costs the implementations' runs and little more.
#include "harness/verdict.h"

#include "absl/strings/str_cat.h"
#include "absl/strings/str_format.h"
#include "harness/hex.h"
#include "serdiff/common/error_offset.h"

namespace serdiff::harness {
namespace {

// Equal bytes, or equal statuses: code, message and payloads (the error offset among them).
// The payloads take part so that a second run reporting another error offset is "nondeterministic"
// (offsets are compared, so they must be stable too).
bool SameOutput(const Output& a, const Output& b) {
  if (a.ok() != b.ok()) return false;
  if (a.ok()) return *a == *b;
  return a.status() == b.status();
}

// An error that is not a decline. Offsets are compared only between rejections: declined results
// take no part in the comparison (harness/result.h).
bool Rejected(const Output& out) { return !out.ok() && !IsDeclined(out.status()); }

// For the details of error-offset-mismatch.
std::string ShowOffset(const std::optional<int64_t>& offset) {
  return offset.has_value() ? absl::StrCat("offset ", *offset) : "no offset";
}

}  // namespace

// The rules run in the order of the file comment of verdict.h; the first failure found is the
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
  // verdict.h's file comment.
  auto fail = [&](absl::string_view cls, absl::string_view impl, auto why) {
    if (!result.passed) return;
    result.passed = false;
    result.failure_class = absl::StrCat(cls, ":", impl);
    result.failing_impl = std::string(impl);
    result.details = why();
  };
  // A mismatch between the subject and runs[i] that accepted divergences cover is recorded, not
  // failed (verdict.h): each side agrees with the optimized run or departs from it as one of its
  // own divergences describes. Asked only once a difference is found, so that the predicates cost
  // nothing on agreeing cases.
  // `offsets`: the difference is one of error offsets (rule 4), else of class or bytes (rules 2
  // and 3); agreement with the optimized run is judged on that alone, and an implementation
  // exempt from offsets agrees on offsets by having none.
  const size_t optimized = in.optimized_index;
  auto agrees = [&](size_t k, bool offsets) {
    const Output& a = runs[k].first;
    const Output& o = runs[optimized].first;
    if (!offsets) return a.ok() == o.ok() && (!a.ok() || *a == *o);
    if (a.ok() || o.ok()) return false;
    const std::optional<int64_t> ka = ErrorOffset(a.status());
    return ka == ErrorOffset(o.status()) || (!ka && runs[k].offset_exempt);
  };
  std::optional<std::optional<std::string>> subject_reason;  // in.divergence(0), once asked
  auto covered = [&](size_t i, bool offsets) {
    if (!in.divergence) return false;
    std::vector<std::string> lines;
    auto agrees_or_accepted = [&](size_t k) {
      if (k == optimized || agrees(k, offsets)) return true;
      // The subject's predicates are asked once per case, not once per implementation it
      // differs from (a peer model's transcription can be costly).
      if (k == 0 && !subject_reason) subject_reason = in.divergence(0);
      std::optional<std::string> reason = k == 0 ? *subject_reason : in.divergence(k);
      if (!reason) return false;
      lines.push_back(absl::StrCat(runs[k].name, ": ", *reason));
      return true;
    };
    if (!agrees_or_accepted(0) || !agrees_or_accepted(i) || lines.empty()) return false;
    for (std::string& line : lines) result.accepted.push_back(std::move(line));
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
  // (harness/run_impls.h), except the others on inputs a fuzz binary's sample left out
  // (RunConfig::rerun_one_in: run.rerun false); SameOutput compares payloads too, so a second run
  // with another error offset is caught here.
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
  // The optimized side must accept or reject every input; only the others may decline (verdict.h,
  // rule 1).
  // With a subject, the optimized implementation is a peer (runs[in.optimized_index]) and is held
  // to the same: its decline is reported, also on an input the subject declines.
  if (in.optimized_index != 0 && in.optimized_index < runs.size() &&
      OutcomeOf(runs[in.optimized_index].first) == Outcome::kDeclined) {
    const absl::string_view name = runs[in.optimized_index].name;
    fail("optimized-declined", name, [&] {
      return absl::StrCat("the optimized implementation (", name, ") must not decline an input");
    });
  }
  // A subject other than the optimized implementation may decline (an input its language or
  // API cannot take): the case is then not judged.
  if (OutcomeOf(opt.first) == Outcome::kDeclined && opt.role != Role::kOptimized) {
    if (result.passed) {
      result.subject_declined = true;
      result.subject_decline_reason = std::string(opt.first.status().message());
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
    if (covered(i, false)) continue;
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
      if (covered(i, true)) continue;
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
  // (TypedTarget::Judge).
  for (const auto& check : in.checks) {  // (no structured binding: lambdas capture it)
    if (!check.second.ok()) {
      fail("check-failed", check.first,
           [&] { return absl::StrCat(check.first, ": ", check.second.ToString()); });
    }
  }

  // Rule 6, whether the optimized side accepted or rejected: "heap-bound:<optimized>". Not
  // through `fail`, whose lambda-built details are not needed here.
  if (in.heap_bound >= 0 && in.heap_allowance > 0 && result.passed &&
      opt.peak_heap_bytes > in.heap_bound - in.heap_allowance &&
      opt.peak_heap_bytes <= in.heap_bound) {
    result.accepted.push_back(in.heap_allowance_reason);
  }
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

}  // namespace serdiff::harness
