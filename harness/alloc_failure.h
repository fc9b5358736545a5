// serdiff allocation-failure injection, implemented by the allocation tracker
// (alloc_tracker.cc): in builds where it replaces the global operator new (dev, bench), a
// scope in which the k-th allocation fails.
#pragma once

#include <cstdint>

namespace serdiff::harness {

// Allocation-failure injection (builds where the tracker replaces operator new: dev, bench;
// not ASan/libFuzzer builds, where Supported() is false and the scope does nothing).
//
//   for (int64_t k = 1;; ++k) {
//     AllocationFailureScope fail(k);    // the k-th allocation in this scope fails
//     try { Decode(bytes); } catch (const std::bad_alloc&) {}
//     if (!fail.Triggered()) break;      // fewer than k allocations: the run succeeded
//   }
//
// Inside the scope, on this thread, the k-th call (1-based) to any replaced operator new
// fails: the throwing forms throw std::bad_alloc (unless a new_handler is installed: it is
// called and the retry succeeds), the nothrow forms return nullptr. Only that one
// allocation fails; later ones succeed again. Scopes do not nest: a new scope replaces the
// countdown of an enclosing one until it is destroyed, which restores it.
//
// FailWhere::kInsidePeakHeapScopes counts (and fails) only allocations made while a
// PeakHeapScope is alive on the thread: the harness opens one around each implementation's
// measured run (harness/run_impls.h), so the failure lands in the code under test, not in
// the harness's report formatting.
enum class FailWhere { kAnywhere, kInsidePeakHeapScopes };

class AllocationFailureScope {
 public:
  // k >= 1: which allocation fails, counted from the scope's construction.
  explicit AllocationFailureScope(int64_t k, FailWhere where = FailWhere::kAnywhere);
  ~AllocationFailureScope();
  AllocationFailureScope(const AllocationFailureScope&) = delete;
  AllocationFailureScope& operator=(const AllocationFailureScope&) = delete;

  // True once the k-th allocation happened (and failed).
  bool Triggered() const;
  // Allocations counted on this thread since construction (the failed one included).
  int64_t Allocations() const;
  // False in builds where operator new is not replaced (ASan, libFuzzer).
  static bool Supported();

 private:
  int64_t saved_countdown_;
  bool saved_triggered_;
  bool saved_inside_only_;
  int64_t start_allocs_;
};

}  // namespace serdiff::harness
