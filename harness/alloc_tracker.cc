#include "harness/alloc_tracker.h"
#include "harness/alloc_failure.h"

#include <cstdlib>
#include <new>

#if defined(__has_feature)
#if __has_feature(address_sanitizer)
#define SERDIFF_ASAN 1
#endif
#endif
#if defined(__SANITIZE_ADDRESS__)
#define SERDIFF_ASAN 1
#endif

namespace serdiff::harness {
namespace {

// Plain-old-data thread locals: safe to touch from operator new during thread start/exit.
thread_local int64_t t_live = 0;
thread_local int64_t t_peak = 0;
// Allocation-failure injection: allocations attempted so far, and a countdown (0 = off) to
// the one that fails.
thread_local int64_t t_allocs = 0;
thread_local int64_t t_fail_countdown = 0;
thread_local bool t_fail_triggered = false;
thread_local bool t_fail_inside_only = false;  // count only inside PeakHeapScopes
thread_local int t_peak_scopes = 0;            // PeakHeapScopes alive on this thread

// True when this allocation must fail (called once per allocation attempt).
[[maybe_unused]] inline bool InjectFailure() {
  if (t_fail_inside_only && t_peak_scopes == 0) return false;
  ++t_allocs;
  if (t_fail_countdown > 0 && --t_fail_countdown == 0) {
    t_fail_triggered = true;
    return true;
  }
  return false;
}

inline void NoteAlloc(size_t n) {
  t_live += static_cast<int64_t>(n);
  if (t_live > t_peak) t_peak = t_live;
}
inline void NoteFree(size_t n) { t_live -= static_cast<int64_t>(n); }

}  // namespace

int64_t ThreadLiveHeapBytes() { return t_live; }

PeakHeapScope::PeakHeapScope() : start_live_(t_live), saved_peak_(t_peak) {
  t_peak = t_live;
  ++t_peak_scopes;
}

PeakHeapScope::~PeakHeapScope() {
  if (saved_peak_ > t_peak) t_peak = saved_peak_;
  --t_peak_scopes;
}

int64_t PeakHeapScope::PeakBytes() const {
  const int64_t p = t_peak - start_live_;
  return p > 0 ? p : 0;
}

int64_t PeakHeapScope::LiveDeltaBytes() const { return t_live - start_live_; }

AllocationFailureScope::AllocationFailureScope(int64_t k, FailWhere where)
    : saved_countdown_(t_fail_countdown),
      saved_triggered_(t_fail_triggered),
      saved_inside_only_(t_fail_inside_only),
      start_allocs_(t_allocs) {
  t_fail_countdown = k > 0 ? k : 0;
  t_fail_triggered = false;
  t_fail_inside_only = where == FailWhere::kInsidePeakHeapScopes;
}

AllocationFailureScope::~AllocationFailureScope() {
  t_fail_countdown = saved_countdown_;
  t_fail_triggered = saved_triggered_;
  t_fail_inside_only = saved_inside_only_;
}

bool AllocationFailureScope::Triggered() const { return t_fail_triggered; }

int64_t AllocationFailureScope::Allocations() const { return t_allocs - start_allocs_; }

}  // namespace serdiff::harness

#ifdef SERDIFF_ASAN
// ---------------------------------------------------------------- sanitizer hooks
#include <sanitizer/allocator_interface.h>

namespace serdiff::harness {
namespace {
void MallocHook(const volatile void*, size_t size) { NoteAlloc(size); }
void FreeHook(const volatile void* ptr) {
  if (ptr != nullptr) NoteFree(__sanitizer_get_allocated_size(const_cast<const void*>(ptr)));
}
const bool g_hooks_installed = [] {
  return __sanitizer_install_malloc_and_free_hooks(&MallocHook, &FreeHook) != 0;
}();
}  // namespace
bool AllocationTrackingActive() { return g_hooks_installed; }
bool AllocationFailureScope::Supported() { return false; }
}  // namespace serdiff::harness

#else
// ------------------------------------------------- replaced global operator new/delete
// Every block is laid out as [header | user bytes]; the header (kHeader bytes, at least
// the block's alignment) stores the requested size so delete can subtract it exactly.
namespace serdiff::harness {
bool AllocationTrackingActive() { return true; }
bool AllocationFailureScope::Supported() { return true; }
}  // namespace serdiff::harness

namespace {
constexpr size_t kHeader = alignof(std::max_align_t);

void* TrackedAlloc(size_t n, size_t align) {
  if (serdiff::harness::InjectFailure()) return nullptr;
  const size_t header = align > kHeader ? align : kHeader;
  if (n > SIZE_MAX - header) return nullptr;
  void* base = align > kHeader ? std::aligned_alloc(align, (n + header + align - 1) / align * align)
                               : std::malloc(n + header);
  if (base == nullptr) return nullptr;
  char* user = static_cast<char*>(base) + header;
  reinterpret_cast<size_t*>(user)[-1] = n;
  serdiff::harness::NoteAlloc(n);
  return user;
}

void TrackedFree(void* p, size_t align) {
  if (p == nullptr) return;
  const size_t header = align > kHeader ? align : kHeader;
  char* user = static_cast<char*>(p);
  serdiff::harness::NoteFree(reinterpret_cast<size_t*>(user)[-1]);
  std::free(user - header);
}

void* AllocOrThrow(size_t n, size_t align) {
  for (;;) {
    if (void* p = TrackedAlloc(n, align)) return p;
    std::new_handler h = std::get_new_handler();
    if (h == nullptr) throw std::bad_alloc();
    h();
  }
}
constexpr size_t kDefault = 0;
}  // namespace

void* operator new(size_t n) { return AllocOrThrow(n, kDefault); }
void* operator new[](size_t n) { return AllocOrThrow(n, kDefault); }
void* operator new(size_t n, const std::nothrow_t&) noexcept { return TrackedAlloc(n, kDefault); }
void* operator new[](size_t n, const std::nothrow_t&) noexcept { return TrackedAlloc(n, kDefault); }
void* operator new(size_t n, std::align_val_t a) { return AllocOrThrow(n, static_cast<size_t>(a)); }
void* operator new[](size_t n, std::align_val_t a) {
  return AllocOrThrow(n, static_cast<size_t>(a));
}
void* operator new(size_t n, std::align_val_t a, const std::nothrow_t&) noexcept {
  return TrackedAlloc(n, static_cast<size_t>(a));
}
void* operator new[](size_t n, std::align_val_t a, const std::nothrow_t&) noexcept {
  return TrackedAlloc(n, static_cast<size_t>(a));
}
void operator delete(void* p) noexcept { TrackedFree(p, kDefault); }
void operator delete[](void* p) noexcept { TrackedFree(p, kDefault); }
void operator delete(void* p, size_t) noexcept { TrackedFree(p, kDefault); }
void operator delete[](void* p, size_t) noexcept { TrackedFree(p, kDefault); }
void operator delete(void* p, const std::nothrow_t&) noexcept { TrackedFree(p, kDefault); }
void operator delete[](void* p, const std::nothrow_t&) noexcept { TrackedFree(p, kDefault); }
void operator delete(void* p, std::align_val_t a) noexcept {
  TrackedFree(p, static_cast<size_t>(a));
}
void operator delete[](void* p, std::align_val_t a) noexcept {
  TrackedFree(p, static_cast<size_t>(a));
}
void operator delete(void* p, size_t, std::align_val_t a) noexcept {
  TrackedFree(p, static_cast<size_t>(a));
}
void operator delete[](void* p, size_t, std::align_val_t a) noexcept {
  TrackedFree(p, static_cast<size_t>(a));
}
void operator delete(void* p, std::align_val_t a, const std::nothrow_t&) noexcept {
  TrackedFree(p, static_cast<size_t>(a));
}
void operator delete[](void* p, std::align_val_t a, const std::nothrow_t&) noexcept {
  TrackedFree(p, static_cast<size_t>(a));
}
#endif
