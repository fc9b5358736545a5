// The frame layer of the worker protocol (harness/worker_frames.h).
#include "harness/worker_frames.h"

#include <poll.h>
#include <sched.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <cstdint>
#include <cstdlib>
#include <cstring>
#include <limits>

#include "absl/status/statusor.h"
#include "absl/strings/numbers.h"
#include "absl/strings/str_cat.h"

namespace serdiff::harness::worker_frames {
namespace {

// The most a read takes from the pipe at once (a Linux pipe holds 64 KiB by default).
constexpr size_t kReadChunk = size_t{64} << 10;
// The body is read in pieces of at most this many bytes beyond what was read ahead.
constexpr size_t kFramePiece = size_t{1} << 20;

// A poll timeout of `left` ms (> 0), at most INT_MAX (poll waits again until the deadline).
int PollMs(int64_t left) {
  return static_cast<int>(std::min<int64_t>(left, std::numeric_limits<int>::max()));
}

// Waits for `fd` to be readable before `deadline`. Errors: DeadlineExceeded.
absl::Status WaitReadable(int fd, Clock::time_point deadline) {
  for (;;) {
    const auto left =
        std::chrono::duration_cast<std::chrono::milliseconds>(deadline - Clock::now()).count();
    if (left <= 0) return absl::DeadlineExceededError("deadline");
    pollfd p{fd, POLLIN, 0};
    const int r = poll(&p, 1, PollMs(left));
    if (r < 0 && errno == EINTR) continue;
    if (r == 0) return absl::DeadlineExceededError("deadline");
    return absl::OkStatus();
  }
}

// Lets a spinning read give the other hyperthread and the bus a moment between tries.
inline void CpuRelax() {
#if defined(__x86_64__) || defined(__i386__)
  __builtin_ia32_pause();
#elif defined(__aarch64__)
  asm volatile("yield");
#endif
}

// Keeps what a wait of `waited` says about the next one (SpinWait).
void RecordWait(SpinWait* spin, Clock::duration waited, bool slept) {
  if (spin == nullptr) return;
  if (slept) {
    ++spin->slept;
  } else {
    ++spin->spun;
  }
  if (waited <= spin->limit) {
    spin->long_waits = 0;
  } else if (spin->long_waits < SpinWait::kGiveUpAfter) {
    ++spin->long_waits;
  }
}

// One read of at most n bytes into out (fd non-blocking): tried first, and only when the pipe is
// empty (EAGAIN) a wait for it, then read again. The wait spins (tries the read again) while
// `spin` says so, within its limit and the deadline, then sleeps in poll. Returns the bytes read
// (> 0). Errors: DeadlineExceeded, Unavailable ("end of stream", or the errno text).
absl::StatusOr<size_t> ReadOnce(int fd, char* out, size_t n, Clock::time_point deadline,
                                SpinWait* spin) {
  bool waiting = false, slept = false;
  Clock::time_point since;
  for (;;) {
    const ssize_t got = read(fd, out, n);
    if (got > 0) {
      if (waiting) RecordWait(spin, Clock::now() - since, slept);
      return static_cast<size_t>(got);
    }
    if (got == 0) return absl::UnavailableError("end of stream");
    if (errno == EINTR) continue;
    if (errno != EAGAIN) return absl::UnavailableError(std::strerror(errno));
    const Clock::time_point now = Clock::now();
    if (!waiting) {
      waiting = true;
      since = now;
    }
    if (!slept && spin != nullptr && spin->Spinning() && now - since < spin->limit &&
        now < deadline) {
      for (int k = 0; k < 8; ++k) CpuRelax();
      continue;
    }
    slept = true;
    if (absl::Status s = WaitReadable(fd, deadline); !s.ok()) return s;
  }
}

// Reads what the pipe holds (at least one byte, at most kReadChunk), appended to *ahead.
absl::Status ReadSome(int fd, Clock::time_point deadline, std::string* ahead, SpinWait* spin) {
  char chunk[kReadChunk];
  absl::StatusOr<size_t> got = ReadOnce(fd, chunk, sizeof chunk, deadline, spin);
  if (!got.ok()) return got.status();
  ahead->append(chunk, *got);
  return absl::OkStatus();
}

// Reads exactly n bytes into out before `deadline`. Errors: as ReadOnce.
absl::Status ReadAll(int fd, char* out, size_t n, Clock::time_point deadline, SpinWait* spin) {
  size_t done = 0;
  while (done < n) {
    absl::StatusOr<size_t> got = ReadOnce(fd, out + done, n - done, deadline, spin);
    if (!got.ok()) return got.status();
    done += *got;
  }
  return absl::OkStatus();
}

// A JSON integer (-?(0|[1-9][0-9]*), at most 18 digits) at text[*i], read past. False for
// anything else. (Raw characters rather than string_view::operator[], whose checks a fuzz
// build keeps out of line: this runs on every worker answer.)
bool ReadInteger(absl::string_view text, size_t* i, int64_t* out) {
  const char* t = text.data();
  const size_t size = text.size();
  size_t p = *i;
  const bool negative = p < size && t[p] == '-';
  if (negative) ++p;
  const size_t first = p;
  int64_t v = 0;
  while (p < size && t[p] >= '0' && t[p] <= '9') {
    v = v * 10 + (t[p] - '0');
    ++p;
    if (p - first > 18) return false;
  }
  if (p == first || (t[first] == '0' && p - first > 1)) return false;
  *out = negative ? -v : v;
  *i = p;
  return true;
}

// n bytes equal, compared here rather than by memcmp: under libFuzzer every memcmp in the process
// is reported to its comparison table, and the answer's keys say nothing about the input.
bool Same(const char* a, const char* b, size_t n) {
  for (size_t k = 0; k < n; ++k) {
    if (a[k] != b[k]) return false;
  }
  return true;
}

int HexDigit(char c) {
  if (c >= '0' && c <= '9') return c - '0';
  if (c >= 'a' && c <= 'f') return c - 'a' + 10;
  if (c >= 'A' && c <= 'F') return c - 'A' + 10;
  return -1;
}

}  // namespace

absl::Status WriteAll(int fd, absl::string_view data, Clock::time_point deadline,
                      bool only_if_room) {
  size_t done = 0;
  while (done < data.size()) {
    const ssize_t n = write(fd, data.data() + done, data.size() - done);
    if (n > 0) {
      done += static_cast<size_t>(n);
      continue;
    }
    if (n < 0 && errno == EINTR) continue;
    if (n < 0 && errno == EAGAIN) {
      if (only_if_room && done == 0) return absl::ResourceExhaustedError("pipe full");
      const auto left =
          std::chrono::duration_cast<std::chrono::milliseconds>(deadline - Clock::now()).count();
      if (left <= 0) return absl::DeadlineExceededError("deadline");
      pollfd p{fd, POLLOUT, 0};
      poll(&p, 1, PollMs(left));
      continue;
    }
    return absl::UnavailableError(std::strerror(errno));
  }
  return absl::OkStatus();
}

std::chrono::microseconds DefaultSpinLimit() {
  if (const char* e = std::getenv("SERDIFF_WORKER_SPIN_US"); e != nullptr && *e != '\0') {
    int64_t v = 0;
    if (absl::SimpleAtoi(e, &v) && v >= 0 && v <= 100000) return std::chrono::microseconds(v);
  }
  cpu_set_t cpus;
  CPU_ZERO(&cpus);
  if (sched_getaffinity(0, sizeof cpus, &cpus) != 0 || CPU_COUNT(&cpus) < 2) {
    return std::chrono::microseconds(0);
  }
  return std::chrono::microseconds(100);
}

void StartFrame(std::string* out) { out->assign(4, '\0'); }

void EndFrame(std::string* out) {
  const uint32_t n = static_cast<uint32_t>(out->size() - 4);
  (*out)[0] = static_cast<char>(n >> 24);
  (*out)[1] = static_cast<char>(n >> 16);
  (*out)[2] = static_cast<char>(n >> 8);
  (*out)[3] = static_cast<char>(n);
}

absl::Status ReadFrame(int fd, Clock::time_point deadline, std::string* ahead, std::string* body,
                       SpinWait* spin) {
  while (ahead->size() < 4) {
    if (absl::Status s = ReadSome(fd, deadline, ahead, spin); !s.ok()) return s;
  }
  const auto* len = reinterpret_cast<const unsigned char*>(ahead->data());
  const uint32_t n = (uint32_t{len[0]} << 24) | (uint32_t{len[1]} << 16) | (uint32_t{len[2]} << 8) |
                     uint32_t{len[3]};
  if (n > kMaxFrame) {
    return absl::OutOfRangeError(absl::StrCat("a frame of ", n, " bytes (limit ", kMaxFrame, ")"));
  }
  const size_t have = std::min<size_t>(ahead->size() - 4, n);
  body->assign(ahead->data() + 4, have);
  ahead->erase(0, 4 + have);
  while (body->size() < n) {
    const size_t done = body->size();
    const size_t piece = std::min<size_t>(n - done, kFramePiece);
    body->resize(done + piece);
    if (absl::Status s = ReadAll(fd, body->data() + done, piece, deadline, spin); !s.ok()) return s;
  }
  return absl::OkStatus();
}

bool ReadPlainAnswer(absl::string_view body, int64_t* id, int64_t* peak, std::string* bytes) {
  const char* t = body.data();
  const size_t size = body.size();
  if (size < 2 || t[0] != '{' || t[size - 1] != '}') return false;
  bool seen_id = false, seen_ok = false, seen_hex = false, seen_peak = false;
  size_t hex_at = 0, hex_size = 0;
  int64_t read_id = 0, read_peak = -1;
  size_t i = 1;
  for (;;) {
    // "k": at i, read past.
    auto key = [&](absl::string_view k) {
      const size_t end = i + k.size() + 3;
      if (end > size || t[i] != '"' || !Same(t + i + 1, k.data(), k.size()) || t[end - 2] != '"' ||
          t[end - 1] != ':') {
        return false;
      }
      i = end;
      return true;
    };
    if (!seen_id && key("id")) {
      if (!ReadInteger(body, &i, &read_id)) return false;
      seen_id = true;
    } else if (!seen_ok && key("ok")) {
      if (i + 4 > size || !Same(t + i, "true", 4)) return false;
      i += 4;
      seen_ok = true;
    } else if (!seen_hex && key("hex")) {
      if (i >= size || t[i] != '"') return false;
      hex_at = i + 1;
      size_t end = hex_at;
      while (end < size && t[end] != '"') ++end;
      if (end == size) return false;
      hex_size = end - hex_at;
      i = hex_at + hex_size + 1;
      seen_hex = true;
    } else if (!seen_peak && key("peak")) {
      if (!ReadInteger(body, &i, &read_peak)) return false;
      seen_peak = true;
    } else {
      return false;
    }
    if (i >= size) return false;
    if (t[i] == '}') break;
    if (t[i] != ',') return false;
    ++i;
  }
  if (i != size - 1 || !seen_id || !seen_ok || !seen_hex || hex_size % 2 != 0) return false;
  bytes->resize(hex_size / 2);
  char* out = bytes->data();
  const char* hex = t + hex_at;
  for (size_t k = 0; k < hex_size / 2; ++k) {
    const int hi = HexDigit(hex[2 * k]);
    const int lo = HexDigit(hex[2 * k + 1]);
    if (hi < 0 || lo < 0) return false;
    out[k] = static_cast<char>(hi << 4 | lo);
  }
  *id = read_id;
  *peak = read_peak;
  return true;
}

}  // namespace serdiff::harness::worker_frames
