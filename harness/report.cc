// A case's report (harness/report.h).
#include "harness/report.h"

#include "absl/strings/str_cat.h"
#include "absl/strings/str_format.h"

namespace serdiff::harness {

// Text for people, built only for a failing case or on request (Render::kAlways). A failing report
// ends with the stable line "serdiff: <target>: <class>", which fuzzing services deduplicate on
// (harness/verdict.h).
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
  if (result->passed && result->subject_declined) {
    absl::StrAppend(&r, "verdict: not judged (", opt.name, " declined the input)\n");
  } else if (result->passed) {
    absl::StrAppend(&r, "verdict: pass\n");
  } else {
    absl::StrAppend(&r, "verdict: FAIL\n", result->details, "\n", "serdiff: ", in.target, ": ",
                    result->failure_class, "\n");
  }
  result->rendered = true;
}

}  // namespace serdiff::harness
