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
// run, and a worker that reruns (rule 1) has its second request written right behind it, so
// that it runs both calls while serdiff runs its own. When the second request cannot go behind
// the first without a risk of blocking (WorkerClient::Send: a request over a quarter of the
// pipe), it is sent after the in-process first runs, once the first answer is read, and
// overlaps the in-process second runs instead. Every answer is read after the in-process runs
// it overlaps. The first request asks for the worker's peak when the plan says so (the
// subject's always); the second never does. A run's result does not depend on this order
// (every in-process run has its own heap scope; a worker's is its own process's figure), and a
// worker that overlaps the in-process runs costs a fuzz binary about the longer of the two
// rather than their sum on a machine with a core to spare (docs/fuzzing.md, "Fuzzing with a
// worker: the call overlapped, and what each process spends").
template <typename T>
void RunAll(absl::Span<const PlannedRun<T>> plan, const T& v,
            absl::InlinedVector<ImplRun, 4>* runs) {
  bool any_sent = false;
  for (const PlannedRun<T>& p : plan) any_sent |= static_cast<bool>(p.impl->send_run);
  if (!any_sent) {
    for (const PlannedRun<T>& p : plan) runs->push_back(RunImpl(*p.impl, p.role, v, p.rerun));
    return;
  }
  // Per implementation: the first request's id (or outcome), and the second's: 0 while unsent.
  absl::InlinedVector<absl::StatusOr<int64_t>, 4> sent, second;
  for (const PlannedRun<T>& p : plan) {
    runs->push_back(Unrun(*p.impl, p.role, p.rerun));
    sent.push_back(p.impl->send_run ? p.impl->send_run(v, p.peak, false)
                                    : absl::StatusOr<int64_t>(0));
    // Only the first run's peak is kept.
    const bool behind = p.impl->send_run && p.rerun && sent.back().ok();
    second.push_back(behind ? p.impl->send_run(v, false, true) : absl::StatusOr<int64_t>(0));
  }
  for (size_t i = 0; i < plan.size(); ++i) {
    if (!plan[i].impl->send_run) RunFirst(*plan[i].impl, v, &(*runs)[i]);
  }
  absl::InlinedVector<bool, 4> received(plan.size(), false);
  auto receive_first = [&](size_t i) {
    received[i] = true;
    MeasuredOutput m = plan[i].impl->receive_run(v, sent[i]);
    (*runs)[i].first = std::move(m.output);
    (*runs)[i].peak_heap_bytes = m.peak_bytes;
  };
  auto unsent = [&](size_t i) { return second[i].ok() && *second[i] == 0; };
  // A rerun whose second request could not go behind the first: the first answer now, and the
  // second request sent to overlap the in-process second runs.
  for (size_t i = 0; i < plan.size(); ++i) {
    const Impl<T>& impl = *plan[i].impl;
    if (!impl.send_run || !plan[i].rerun || !unsent(i)) continue;
    receive_first(i);
    second[i] = impl.send_run(v, false, false);
  }
  for (size_t i = 0; i < plan.size(); ++i) {
    if (!plan[i].impl->send_run && plan[i].rerun) RunSecond(*plan[i].impl, v, &(*runs)[i]);
  }
  for (size_t i = 0; i < plan.size(); ++i) {
    const Impl<T>& impl = *plan[i].impl;
    if (!impl.send_run) continue;
    if (!received[i]) receive_first(i);
    if (!plan[i].rerun) continue;
    SecondRunScope second_run;
    (*runs)[i].second = impl.receive_run(v, second[i]).output;
  }
}

}  // namespace serdiff::harness
