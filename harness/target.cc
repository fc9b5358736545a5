#include "harness/target.h"

#include "absl/strings/match.h"
#include "absl/strings/str_cat.h"
#include "absl/strings/str_format.h"
#include "harness/report.h"

namespace serdiff::harness {
namespace {

constexpr absl::string_view kDeclinedPrefix = "declined: ";

bool SameOutput(const Output& a, const Output& b) {
  if (a.ok() != b.ok()) return false;
  if (a.ok()) return *a == *b;
  return a.status().code() == b.status().code() && a.status().message() == b.status().message();
}

std::string DescribeOutput(const Output& out,
                           const std::function<std::string(const std::string&)>& show) {
  if (!out.ok()) {
    return IsDeclined(out.status()) ? std::string(out.status().message())
                                    : absl::StrCat("error: ", out.status().ToString());
  }
  std::string s = absl::StrCat(out->size(), " bytes: ", Hex(*out));
  if (show) absl::StrAppend(&s, "\n      = ", show(*out));
  return s;
}

}  // namespace

absl::Status Declined(std::string_view reason) {
  return absl::UnimplementedError(
      absl::StrCat(kDeclinedPrefix, absl::string_view(reason.data(), reason.size())));
}

bool IsDeclined(const absl::Status& status) {
  return status.code() == absl::StatusCode::kUnimplemented &&
         absl::StartsWith(status.message(), kDeclinedPrefix);
}

CaseResult JudgeCase(const JudgeInput& in) {
  CaseResult result;
  const std::vector<ImplRun>& runs = *in.runs;
  const ImplRun& opt = runs[0];
  result.optimized_peak_bytes = opt.peak_heap_bytes;
  // The reference peak shown beside the optimized one: the implementation named "reference",
  // else the first other implementation.
  for (size_t i = 1; i < runs.size(); ++i) {
    if (i == 1 || runs[i].name == "reference")
      result.reference_peak_bytes = runs[i].peak_heap_bytes;
    if (runs[i].name == "reference") break;
  }
  result.heap_bound_bytes = in.heap_bound;

  std::string details;  // explanation of the first failure
  auto fail = [&](std::string cls, std::string why) {
    if (result.passed) {
      result.passed = false;
      result.failure_class = std::move(cls);
      details = std::move(why);
    }
  };

  for (const ImplRun& run : runs) {
    if (!SameOutput(run.first, run.second)) {
      fail(absl::StrCat("nondeterministic:", run.name),
           absl::StrCat(run.name, " gave a different result when run again on the same input:\n",
                        "  first:  ", DescribeOutput(run.first, nullptr), "\n",
                        "  second: ", DescribeOutput(run.second, nullptr)));
    }
  }
  if (!opt.first.ok() && IsDeclined(opt.first.status())) {
    fail("optimized-declined", "the optimized implementation must not decline an input");
  }

  for (size_t i = 1; i < runs.size(); ++i) {
    const ImplRun& ref = runs[i];
    if (!ref.first.ok() && IsDeclined(ref.first.status())) continue;
    const bool class_differs = opt.first.ok() != ref.first.ok();
    const bool bytes_differ = !class_differs && opt.first.ok() && *opt.first != *ref.first;
    if (!class_differs && !bytes_differ) continue;
    if (!ref.divergence.empty()) {
      result.accepted.push_back(absl::StrCat(ref.name, ": ", ref.divergence));
      continue;
    }
    if (class_differs) {
      fail(absl::StrCat("error-class-mismatch:", ref.name),
           absl::StrCat(opt.name, (opt.first.ok() ? " accepted" : " rejected"), " the input but ",
                        ref.name, (ref.first.ok() ? " accepted" : " rejected"), " it"));
    } else {
      const std::string& a = *opt.first;
      const std::string& b = *ref.first;
      const size_t off = *FirstDifference(a, b);
      fail(absl::StrCat("bytes-mismatch:", ref.name),
           absl::StrFormat("first differing byte at offset %d (%s has %d bytes, %s has %d)\n"
                           "  %-10s %s\n  %-10s %s",
                           off, opt.name, a.size(), ref.name, b.size(), opt.name, HexWindow(a, off),
                           ref.name, HexWindow(b, off)));
    }
  }

  for (const auto& [name, status] : in.checks) {
    if (!status.ok()) {
      fail(absl::StrCat("check-failed:", name), absl::StrCat(name, ": ", status.ToString()));
    }
  }

  if (in.heap_bound >= 0 && opt.peak_heap_bytes > in.heap_bound) {
    fail("heap-bound", absl::StrFormat("%s peaked at %d heap bytes; the bound is %d bytes",
                                       opt.name, opt.peak_heap_bytes, in.heap_bound));
  }

  std::string& r = result.report;
  absl::StrAppend(&r, "target: ", in.target, "\n", "input:  ", in.input_text, "\n");
  for (const ImplRun& run : runs) {
    absl::StrAppendFormat(&r, "  %-10s %s\n", run.name, DescribeOutput(run.first, in.show_output));
  }
  absl::StrAppendFormat(&r, "peak heap: %s %d bytes", opt.name, opt.peak_heap_bytes);
  if (in.heap_bound >= 0) absl::StrAppendFormat(&r, " (bound %d)", in.heap_bound);
  for (size_t i = 1; i < runs.size(); ++i) {
    absl::StrAppendFormat(&r, ", %s %d bytes", runs[i].name, runs[i].peak_heap_bytes);
  }
  r.push_back('\n');
  for (const auto& [name, status] : in.checks) {
    absl::StrAppend(&r, "check ", name, ": ", status.ok() ? "ok" : status.ToString(), "\n");
  }
  for (const std::string& a : result.accepted)
    absl::StrAppend(&r, "accepted divergence: ", a, "\n");
  if (result.passed) {
    absl::StrAppend(&r, "verdict: pass\n");
  } else {
    absl::StrAppend(&r, "verdict: FAIL\n", details, "\n", "serdiff: ", in.target, ": ",
                    result.failure_class, "\n");
  }
  return result;
}

const Target* Registry::Find(std::string_view name) const {
  for (const auto& t : targets_) {
    if (t->name() == name) return t.get();
  }
  return nullptr;
}

}  // namespace serdiff::harness
