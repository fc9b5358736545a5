// serdiff harness: the frame layer of the worker protocol (docs/workers.md, "Frames"), under
// WorkerClient (harness/external.h): a frame is a 4-byte big-endian length and that many bytes
// of UTF-8 JSON, at most kMaxFrame. Also the common answer read without a JSON document.
#pragma once

#include <chrono>
#include <cstdint>
#include <optional>
#include <string>

#include "absl/status/status.h"
#include "absl/strings/string_view.h"

namespace serdiff::harness::worker_frames {

using Clock = std::chrono::steady_clock;

// The largest frame either side may send, bytes (256 MiB); a length of exactly this is taken.
inline constexpr uint32_t kMaxFrame = 256u << 20;

// Writes all of `data` to `fd` (non-blocking) before `deadline`. Errors: DeadlineExceeded
// "deadline" when the pipe stays full, Unavailable with the errno text (EPIPE: the reader is
// gone). With `only_if_room`, a pipe found full before the first byte is written is
// ResourceExhausted "pipe full", with nothing written; once a byte is written the rest is
// written as without it.
absl::Status WriteAll(int fd, absl::string_view data, Clock::time_point deadline,
                      bool only_if_room = false);

// Starts a frame in *out (cleared, its capacity kept): 4 bytes for the length, filled in by
// EndFrame once the body is appended. Precondition for EndFrame: StartFrame(out) came first and
// the body is at most kMaxFrame bytes.
void StartFrame(std::string* out);
void EndFrame(std::string* out);

// How ReadFrame waits for the first bytes of a frame when the pipe is empty (the rest of a frame
// that comes in pieces is always waited for in poll). With a `limit`, it first looks at the pipe
// (poll with no timeout, and a PAUSE) again and again, without sleeping, for up to `limit`; then
// it sleeps in poll. A worker on
// another CPU often answers within tens of microseconds, and a process that sleeps pays for its
// wake-up (docs/workers.md, "Waiting for an answer": on a 2-vCPU VM, spinning up to 100 µs took
// cql_typed_encode with the python driver as a peer from a median of 5,576 exec/s to 6,786).
// A wait that outlasts `limit` kGiveUpAfter times in a row turns the spinning off (a slow
// worker, or one that shares this process's CPU). While it is off, one wait in kProbeEvery
// spins anyway, and any wait (spun or slept) that ends within `limit` turns it on again. A spin
// never outlasts the read's deadline. `limit`: 0 (never spin) up to 100,000 µs is what
// DefaultSpinLimit gives; any value under about 290 years is safe. Not thread-safe: one per
// reader. ReadFrame updates the counts.
struct SpinWait {
  static constexpr int kGiveUpAfter = 8;
  static constexpr int kProbeEvery = 16;
  std::chrono::microseconds limit{0};  // 0: never spin
  int long_waits = 0;     // waits in a row that outlasted `limit` (at most kGiveUpAfter)
  int64_t waits_off = 0;  // waits since the spinning was last on (counts to the next probe)
  // Waits for a frame's first bytes that ended while spinning, and that slept in poll (a frame
  // already in the pipe, or read ahead, is no wait; one that ended in an error is not counted).
  int64_t spun = 0;
  int64_t slept = 0;

  // Whether spinning is on: the next wait spins, unless it is off and that wait is no probe.
  bool Spinning() const { return limit.count() > 0 && long_waits < kGiveUpAfter; }
  // Whether the wait that starts now spins: while spinning is on, and while it is off, every
  // kProbeEvery-th wait (counted in waits_off). Called once per wait, by ReadFrame.
  bool TakeTurn() {
    if (limit.count() <= 0) return false;
    if (Spinning()) return true;
    return ++waits_off % kProbeEvery == 0;
  }
};

// The CPUs the cgroup quotas allow this process: the fewest of CpusOfQuota over the quota of
// its cgroup (/proc/self/cgroup) and of each cgroup above it, cgroup v2 (cpu.max under
// /sys/fs/cgroup) or v1 (cpu.cfs_quota_us and cpu.cfs_period_us under /sys/fs/cgroup/cpu or
// /sys/fs/cgroup/cpu,cpuacct); nullopt when none sets a quota or none can be read.
std::optional<double> CgroupCpuQuota();

// The CPUs a cgroup v2 `cpu.max` text allows ("QUOTA PERIOD", both in µs, quota / period):
// "150000 100000" is 1.5. nullopt for "max PERIOD" (no quota) and for any other text (a
// quota or period that is not a positive integer, a missing or extra field; leading and trailing
// white space is ignored).
std::optional<double> CpusOfQuota(absl::string_view cpu_max);

// The spin limit of a worker client: SERDIFF_WORKER_SPIN_US when it is set to an integer from 0
// to 100000 (µs; 0 turns spinning off; as absl::SimpleAtoi reads it, so "+5" and surrounding
// white space are taken), else 100 µs, except 0 where the calling thread may run on one CPU only
// (sched_getaffinity; a mask too large for cpu_set_t counts as many CPUs) or a cgroup quota
// (CgroupCpuQuota) allows fewer than two:
// there spinning would only take CPU time the worker needs. Reads files; call it once per client.
std::chrono::microseconds DefaultSpinLimit();

// Reads one frame's body into *body from `fd` (non-blocking: a read that finds the pipe empty
// waits for it: for the frame's first bytes, spinning first as *spin says when `spin` is given
// (and recording the wait in it); then, and for the rest, with poll, so that the deadline holds)
// before `deadline`. *ahead holds bytes read from `fd` and not yet used (a read takes what the pipe
// holds, up to 64 KiB, so a frame written in one piece costs one poll and one read); it is consumed
// first and keeps what is read past the frame, for the next call. Errors: DeadlineExceeded,
// Unavailable ("end of stream", or the errno text), OutOfRange for a length over kMaxFrame (nothing
// more of the body read, nothing allocated for it). A body not yet in *ahead is read in pieces of
// at most 1 MiB, the buffer grown as they arrive: a length field is a claim, and a worker that
// claims 256 MiB and sends 10 bytes costs 1 MiB.
absl::Status ReadFrame(int fd, Clock::time_point deadline, std::string* ahead, std::string* body,
                       SpinWait* spin = nullptr);

// The common answer to a call that is not timed, read without a JSON document:
//   {"id":I,"ok":true,"hex":"H","peak":P}
// with its four keys in any order ("peak" may be missing), each once, and nothing else: no
// white space, I and P JSON integers of at most 18 digits (P not negative: a negative peak is a
// broken answer, left to the parser), H an even number of hex digits (either case, no escapes).
// What every shipped worker library writes for an accepted call (Python's and Node's in this order,
// Go's with sorted keys). True when `body` is exactly that: *id, *peak (-1 when missing) and *bytes
// (H decoded) are set. False for any other text, left to the JSON parser, which then gives the same
// reading or the protocol error: an answer this reads is one the parser reads the same way.
bool ReadPlainAnswer(absl::string_view body, int64_t* id, int64_t* peak, std::string* bytes);

}  // namespace serdiff::harness::worker_frames
