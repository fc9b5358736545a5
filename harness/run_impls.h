// serdiff harness: how the verdict runs a case's implementations (TypedTarget::Judge,
// harness/typed_target.h): each once or twice (rule 1's rerun, harness/verdict.h), a compiled one
// under the allocation tracker, an outside one by its own measurement, and a worker's calls
// overlapping the in-process runs.
#pragma once

#include <cstddef>
#include <cstdint>
#include <utility>

#include "absl/container/inlined_vector.h"
#include "absl/status/statusor.h"
#include "absl/types/span.h"
#include "harness/alloc_tracker.h"
#include "harness/definition.h"
#include "harness/run_config.h"
#include "harness/verdict.h"

namespace serdiff::harness {

// The run of an implementation before it ran: its name, role, kind and whether it reruns.
template <typename T>
ImplRun Unrun(const Impl<T>& impl, Role role, bool rerun) {
  ImplRun run;
  run.name = impl.name;
  run.role = role;
  run.kind = impl.kind;
  run.rerun = rerun;
  return run;
}
// Its first run, with the peak: a compiled implementation's under the allocation tracker, an
// outside one's as its measured_run returns it.
template <typename T>
void RunFirst(const Impl<T>& impl, const T& v, ImplRun* run) {
  if (impl.measured_run) {
    MeasuredOutput m = impl.measured_run(v);
    run->first = std::move(m.output);
    run->peak_heap_bytes = m.peak_bytes;
  } else {
    PeakHeapScope scope;
    run->first = impl.run(v);
    run->peak_heap_bytes = scope.PeakBytes();
  }
}
// Its second run (rule 1), marked for InSecondRun.
template <typename T>
void RunSecond(const Impl<T>& impl, const T& v, ImplRun* run) {
  SecondRunScope second;
  run->second = impl.measured_run ? impl.measured_run(v).output : impl.run(v);
}

// Runs one implementation, twice when `rerun`.
template <typename T>
ImplRun RunImpl(const Impl<T>& impl, Role role, const T& v, bool rerun) {
  ImplRun run = Unrun(impl, role, rerun);
  RunFirst(impl, v, &run);
  if (rerun) RunSecond(impl, v, &run);
  return run;
}

// One implementation of a case, in the order of the runs judged.
template <typename T>
struct PlannedRun {
  const Impl<T>* impl;
  Role role;
  bool rerun;
  bool peak = true;  // a worker's first run measures its peak (RunConfig::peer_peaks)
};
// Runs the plan into *runs (one ImplRun each, in the plan's order). Without a worker among
// them each implementation runs in turn (RunImpl). With one, the workers answer while the
// in-process implementations run: each worker's first request is sent before any in-process
// run. A worker that reruns (rule 1) has its first answer read after the in-process first runs
// and its second request sent then, read after the in-process second runs; one that does not
// (a peer on an input a fuzz binary's sample does not rerun) has its answer read after every
// in-process run. The first request asks for the worker's peak when the plan says so (the
// subject's always); the second never does. A run's result does not depend on this order (every
// in-process run has its own heap scope; a worker's is its own process's figure), and a worker
// that overlaps the in-process runs costs a fuzz binary about the longer of the two rather than
// their sum on a machine with a core to spare (docs/fuzzing.md, "Fuzzing with a worker: the
// call overlapped, and what each process spends").
template <typename T>
void RunAll(absl::Span<const PlannedRun<T>> plan, const T& v,
            absl::InlinedVector<ImplRun, 4>* runs) {
  bool any_sent = false;
  for (const PlannedRun<T>& p : plan) any_sent |= static_cast<bool>(p.impl->send_run);
  if (!any_sent) {
    for (const PlannedRun<T>& p : plan) runs->push_back(RunImpl(*p.impl, p.role, v, p.rerun));
    return;
  }
  absl::InlinedVector<absl::StatusOr<int64_t>, 4> sent;
  for (const PlannedRun<T>& p : plan) {
    runs->push_back(Unrun(*p.impl, p.role, p.rerun));
    sent.push_back(p.impl->send_run ? p.impl->send_run(v, p.peak) : absl::StatusOr<int64_t>(0));
  }
  for (size_t i = 0; i < plan.size(); ++i) {
    if (!plan[i].impl->send_run) RunFirst(*plan[i].impl, v, &(*runs)[i]);
  }
  // A worker that reruns: its first answer now, and its second request sent to overlap the
  // in-process second runs. One that does not: its answer read after them.
  auto receive_first = [&](size_t i) {
    MeasuredOutput m = plan[i].impl->receive_run(v, sent[i]);
    (*runs)[i].first = std::move(m.output);
    (*runs)[i].peak_heap_bytes = m.peak_bytes;
  };
  for (size_t i = 0; i < plan.size(); ++i) {
    const Impl<T>& impl = *plan[i].impl;
    if (!impl.send_run || !plan[i].rerun) continue;
    receive_first(i);
    sent[i] = impl.send_run(v, false);  // only the first run's peak is kept
  }
  for (size_t i = 0; i < plan.size(); ++i) {
    if (!plan[i].impl->send_run && plan[i].rerun) RunSecond(*plan[i].impl, v, &(*runs)[i]);
  }
  for (size_t i = 0; i < plan.size(); ++i) {
    const Impl<T>& impl = *plan[i].impl;
    if (!impl.send_run) continue;
    if (!plan[i].rerun) {
      receive_first(i);
      continue;
    }
    SecondRunScope second;
    (*runs)[i].second = impl.receive_run(v, sent[i]).output;
  }
}

}  // namespace serdiff::harness
