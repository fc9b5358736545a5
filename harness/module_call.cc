// Calling one operation of a module (harness/serdiff_module.h) and collecting what it answers.
// Compiled as C++23 (c++2b) where the compiler allows (harness/CMakeLists.txt): the module's
// bytes are then written straight into the output string, with no zero fill and no second copy
// (std::string::resize_and_overwrite). A scalar call is about as cheap as the bookkeeping around
// it, so every step here counts (docs/benchmarks.md, "Workers and modules"); a version-2 module
// that writes a short output into the room given up front makes no call back at all.
#include <cstring>
#include <new>
#include <stdexcept>
#include <string>
#include <utility>

#include "absl/status/status.h"
#include "absl/status/statusor.h"
#include "absl/strings/str_cat.h"
#include "harness/alloc_tracker.h"
#include "harness/external.h"
#include "harness/result.h"
#include "serdiff/common/error_offset.h"

namespace serdiff::harness {
namespace {

// The room handed to the module up front (harness/serdiff_module.h, ABI 2): on serdiff's
// stack, not initialized. 256 bytes take any number and most small documents without a call
// back into serdiff.
constexpr size_t kRoomSize = 256;
static_assert(kRoomSize >= SERDIFF_OUT_ROOM_MIN);

struct OutCtx {
  std::string bytes;
  int64_t offset = -1;
  std::string message;
  const serdiff_out* out = nullptr;  // the call's serdiff_out, for room_used
  // serdiff's room, not out->room, which the module must not move but could.
  const unsigned char* room = nullptr;
  bool appended = false;         // the module called append (bytes then holds the output)
  size_t room_committed = 0;     // room_used at the first append
  const char* broken = nullptr;  // set when the module broke the ABI inside append
};

// Space for n more bytes at the end of the output. The bytes before them are kept; the new ones
// are left for the module to write (not zero-filled where resize_and_overwrite exists).
// The first append commits the room's bytes (room_used as it is then) to the front of the
// output, in the same allocation as the appended ones, so the output's buffer stays the call's
// only one, as a compiled-in implementation's string is.
// NULL (the ABI's "out of memory") when the total would pass what a string can hold (at + n
// must not wrap: space smaller than asked for would be written past), the allocation fails, or
// room_used is already past the room (the call is then a module-protocol failure).
unsigned char* OutAppend(void* ctx, size_t n) {
  auto* c = static_cast<OutCtx*>(ctx);
  size_t front = 0;
  if (!c->appended) {
    front = c->out->room_used;
    if (front > kRoomSize) {
      // Recorded for Finish, which reports it whatever the module then does: `appended` keeps
      // the call off the hot path even if the module lowers its claim and returns OK.
      c->broken = "room_used was past the room at the first append";
      c->appended = true;
      return nullptr;
    }
  }
  const size_t at = c->bytes.size() + front;
  if (n > c->bytes.max_size() - at) return nullptr;
  try {
#if defined(__cpp_lib_string_resize_and_overwrite)
    // The callback's size argument can exceed the request (libstdc++ passes its capacity):
    // the new length is given explicitly. The room's bytes are copied in inside it.
    c->bytes.resize_and_overwrite(at + n, [at, n, front, c](char* p, size_t) {
      if (front > 0) std::memcpy(p, c->room, front);
      return at + n;
    });
#else
    c->bytes.resize(at + n);
    if (front > 0) std::memcpy(c->bytes.data(), c->room, front);
#endif
  } catch (const std::bad_alloc&) {
    return nullptr;
  } catch (const std::length_error&) {
    return nullptr;
  }
  if (!c->appended) {
    c->appended = true;
    c->room_committed = front;
  }
  return reinterpret_cast<unsigned char*>(c->bytes.data() + at);
}

void OutError(void* ctx, int64_t offset, const char* message) {
  auto* c = static_cast<OutCtx*>(ctx);
  c->offset = offset;
  c->message = message ? message : "";
}

// Every outcome but a whole output in the room, out of line (it keeps the hot path's frame
// small): the one mapping of a module's return code to accepted, declined, or rejected (with the
// error offset it reported, serdiff/common/error_offset.h), after the ABI's own rules on the
// room, whose breach is a module-protocol failure (harness/result.h, WorkerFailure) whatever the
// module returned, so that it is always a verdict and never an agreeing rejection.
[[gnu::noinline]] absl::StatusOr<std::string> Finish(int rc, OutCtx& ctx, size_t used) {
  if (ctx.broken != nullptr) return WorkerFailure("module-protocol", ctx.broken);
  if (used > kRoomSize) {
    return WorkerFailure("module-protocol",
                         absl::StrCat("room_used is ", used, ", past the room of ", kRoomSize,
                                      " bytes (harness/serdiff_module.h)"));
  }
  if (rc == SERDIFF_OK) {
    // The room's bytes were committed by the first append; none may be claimed after it.
    if (!ctx.appended) return std::string(reinterpret_cast<const char*>(ctx.room), used);
    if (used != ctx.room_committed) {
      return WorkerFailure("module-protocol",
                           absl::StrCat("room_used changed from ", ctx.room_committed, " to ", used,
                                        " after the first append (harness/serdiff_module.h)"));
    }
    return std::move(ctx.bytes);
  }
  if (rc == SERDIFF_DECLINED) return Declined(ctx.message);
  absl::Status st = absl::InvalidArgumentError(ctx.message);
  if (ctx.offset >= 0) st = WithErrorOffset(std::move(st), ctx.offset);
  return st;
}

// The call itself, inlined into both entry points below (one function call fewer on the
// verdict's path).
[[gnu::always_inline]] inline absl::StatusOr<std::string> Call(const serdiff_op& op, int64_t scalar,
                                                               absl::string_view json,
                                                               const Int32List* list) {
  OutCtx ctx;
  unsigned char room[kRoomSize];
  serdiff_out out{&ctx, OutAppend, OutError, room, kRoomSize, 0};
  ctx.out = &out;
  ctx.room = room;
  int rc = SERDIFF_REJECTED;
  // The scalar forms are the first cases: a module's int64 formatter costs about as much as the
  // call itself.
  switch (op.form) {
    case SERDIFF_FORM_INT64:
      rc = op.int64(scalar, &out);
      break;
    case SERDIFF_FORM_UINT64:
      rc = op.uint64(static_cast<uint64_t>(scalar), &out);
      break;
    case SERDIFF_FORM_INT32_LIST: {
      serdiff_int32_list l{list->values.data(), list->nulls.empty() ? nullptr : list->nulls.data(),
                           list->values.size(), list->protocol_version};
      rc = op.int32_list(&l, &out);
      break;
    }
    default:
      rc = op.json(json.data(), json.size(), &out);
      break;
  }
  // The usual case of a version-2 module: the whole output in the room, one string made of it,
  // constructed in the caller's StatusOr (none is default-built or moved on the way).
  const size_t used = out.room_used;
  if (rc == SERDIFF_OK && !ctx.appended && used <= kRoomSize) {
    return std::string(reinterpret_cast<const char*>(room), used);
  }
  return Finish(rc, ctx, used);
}

}  // namespace

absl::StatusOr<std::string> CallModuleOp(const serdiff_op& op, int64_t scalar,
                                         absl::string_view json, const Int32List* list) {
  return Call(op, scalar, json, list);
}

MeasuredOutput MeasuredModuleCall(const serdiff_op& op, int64_t scalar, absl::string_view json,
                                  const Int32List* list) {
  PeakHeapScope scope;
  MeasuredOutput r{Call(op, scalar, json, list)};
  r.peak_bytes = scope.PeakBytes();
  return r;
}

}  // namespace serdiff::harness
