// serdiff allocation tracker: live and peak heap bytes per thread, inside a scope.
//
// How bytes are counted
//   * Plain and UBSan builds: this library replaces the global operator new/delete (all
//     sized, aligned and nothrow forms). Each block carries a small header holding its
//     requested size, so the count is the exact number of bytes asked for, independent of
//     the allocator's rounding. malloc/calloc/realloc called directly are NOT counted in
//     these builds (the codecs under test allocate through operator new).
//   * ASan builds (and libFuzzer, which runs under ASan here): the replacement would fight
//     the sanitizer, so the tracker installs __sanitizer_install_malloc_and_free_hooks and
//     counts __sanitizer_get_allocated_size, which is the requested size. These builds also
//     count the malloc family.
//   Both ways count requested bytes, so the same code gives the same numbers in every build.
//
// Counters are thread-local: a scope sees only its own thread's allocations. Frees of
// blocks allocated before the scope lower the live count and may make the scope's live
// delta negative; the peak is never below 0.
#pragma once

#include <cstddef>
#include <cstdint>

namespace serdiff::harness {

// Bytes currently allocated (requested sizes) by this thread and not yet freed, counted
// since the thread started. Signed: a thread may free blocks another thread allocated.
int64_t ThreadLiveHeapBytes();

// True when the tracker is wired into this build's allocator (always true in supported
// builds; false only if the sanitizer hooks could not be installed).
bool AllocationTrackingActive();

// Measures the peak heap of the current thread between construction and Peak().
//
//   PeakHeapScope scope;
//   auto v = std::make_unique<char[]>(1 << 20);  // peak >= 1 MiB
//   v.reset();
//   scope.PeakBytes();   // 1048576 (+ nothing else allocated)
//
// PeakBytes() = max over the scope's lifetime of (live bytes - live bytes at construction),
// in bytes, never negative. Scopes nest: an inner scope does not disturb the outer peak.
// Not copyable; must be destroyed on the thread that created it, in LIFO order.
class PeakHeapScope {
 public:
  PeakHeapScope();
  ~PeakHeapScope();
  PeakHeapScope(const PeakHeapScope&) = delete;
  PeakHeapScope& operator=(const PeakHeapScope&) = delete;

  // Peak bytes above the starting live count so far (bytes, >= 0).
  int64_t PeakBytes() const;
  // Live bytes now minus live bytes at construction (bytes, may be negative).
  int64_t LiveDeltaBytes() const;

 private:
  int64_t start_live_;
  int64_t saved_peak_;
};

}  // namespace serdiff::harness
