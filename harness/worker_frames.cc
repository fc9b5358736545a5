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
#include <fstream>
#include <limits>
#include <optional>
#include <vector>

#include "absl/status/statusor.h"
#include "absl/strings/ascii.h"
#include "absl/strings/numbers.h"
#include "absl/strings/str_cat.h"
#include "absl/strings/str_split.h"

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

// A short pause between two looks at the pipe while spinning (x86 PAUSE, Arm YIELD): it tells
// the CPU that this is a wait loop, which eases the other hyperthread of the core.
inline void CpuRelax() {
#if defined(__x86_64__) || defined(__i386__)
  __builtin_ia32_pause();
#elif defined(__aarch64__)
  asm volatile("yield");
#endif
}

// Keeps what a wait of `waited` says about the next one (SpinWait).
void RecordWait(SpinWait* spin, Clock::duration waited, bool slept) {
  if (slept) {
    ++spin->slept;
  } else {
    ++spin->spun;
  }
  if (waited <= spin->limit) {
    spin->long_waits = 0;
    spin->waits_off = 0;
  } else if (spin->long_waits < SpinWait::kGiveUpAfter) {
    ++spin->long_waits;
  }
}

// One read of at most n bytes into out (fd non-blocking): tried first, and only when the pipe is
// empty (EAGAIN) a wait for it, then read again. With `spin` (non-null), the wait spins first
// when spin->TakeTurn() says so: it looks at the pipe (poll with no timeout, which does not take
// the pipe's lock as a read does) until it holds bytes, the spin limit has passed or the deadline
// has; then it sleeps in poll. A wait that ends with bytes is recorded in *spin (RecordWait); a
// read that found bytes at once is not a wait. Returns the bytes read (> 0). Errors:
// DeadlineExceeded, Unavailable ("end of stream", or the errno text).
absl::StatusOr<size_t> ReadOnce(int fd, char* out, size_t n, Clock::time_point deadline,
                                SpinWait* spin) {
  bool waiting = false, spinning = false, slept = false;
  Clock::time_point since;
  for (;;) {
    const ssize_t got = read(fd, out, n);
    if (got > 0) {
      if (waiting && spin != nullptr) RecordWait(spin, Clock::now() - since, slept);
      return static_cast<size_t>(got);
    }
    if (got == 0) return absl::UnavailableError("end of stream");
    if (errno == EINTR) continue;
    if (errno != EAGAIN) return absl::UnavailableError(std::strerror(errno));
    if (!waiting) {
      waiting = true;
      since = Clock::now();
      spinning = spin != nullptr && spin->TakeTurn();
    }
    while (spinning) {
      const Clock::time_point now = Clock::now();
      if (now - since >= spin->limit || now >= deadline) {
        spinning = false;
        break;
      }
      pollfd p{fd, POLLIN, 0};
      if (poll(&p, 1, 0) != 0) break;  // bytes, the end of the stream, or an error: read
      for (int k = 0; k < 8; ++k) CpuRelax();
    }
    if (spinning) continue;
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
absl::Status ReadAll(int fd, char* out, size_t n, Clock::time_point deadline) {
  size_t done = 0;
  while (done < n) {
    absl::StatusOr<size_t> got = ReadOnce(fd, out + done, n - done, deadline, nullptr);
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

std::optional<double> CpusOfQuota(absl::string_view cpu_max) {
  std::vector<absl::string_view> f =
      absl::StrSplit(absl::StripAsciiWhitespace(cpu_max), ' ', absl::SkipEmpty());
  int64_t quota = 0, period = 0;
  if (f.size() != 2 || f[0] == "max" || !absl::SimpleAtoi(f[0], &quota) ||
      !absl::SimpleAtoi(f[1], &period) || quota <= 0 || period <= 0) {
    return std::nullopt;
  }
  return static_cast<double>(quota) / static_cast<double>(period);
}

namespace {

// The first line of a file, or "" when it cannot be read.
std::string FirstLine(const std::string& path) {
  std::ifstream f(path);
  std::string line;
  if (f) std::getline(f, line);
  return line;
}

// The fewer of two CPU counts, either of which may be unknown (no quota).
std::optional<double> Fewer(std::optional<double> a, std::optional<double> b) {
  if (!a) return b;
  if (!b) return a;
  return std::min(*a, *b);
}

// The fewest CPUs of `quota_of(dir)` over `root` + `path` and each directory above it up to
// `root` (a cgroup and its ancestors).
template <typename QuotaOf>
std::optional<double> FewestUpTo(const std::string& root, std::string path, QuotaOf quota_of) {
  std::optional<double> fewest;
  for (;;) {
    fewest = Fewer(fewest, quota_of(root + (path == "/" ? "" : path)));
    if (path == "/") return fewest;
    const size_t slash = path.rfind('/');
    path = slash == 0 ? "/" : path.substr(0, slash);
  }
}

}  // namespace

std::optional<double> CgroupCpuQuota() {
  std::ifstream self("/proc/self/cgroup");
  std::string line;
  std::optional<double> fewest;
  while (std::getline(self, line)) {
    // "ID:CONTROLLERS:PATH": cgroup v2 is "0::PATH"; v1 names its controllers, "cpu" among them.
    const std::vector<std::string> f = absl::StrSplit(line, absl::MaxSplits(':', 2));
    if (f.size() != 3 || f[2].empty() || f[2][0] != '/') continue;
    if (f[0] == "0" && f[1].empty()) {
      fewest = Fewer(fewest, FewestUpTo("/sys/fs/cgroup", f[2], [](const std::string& dir) {
                       return CpusOfQuota(FirstLine(dir + "/cpu.max"));
                     }));
      continue;
    }
    const std::vector<absl::string_view> controllers = absl::StrSplit(f[1], ',');
    if (std::find(controllers.begin(), controllers.end(), "cpu") == controllers.end()) continue;
    for (const char* mount : {"/sys/fs/cgroup/cpu", "/sys/fs/cgroup/cpu,cpuacct"}) {
      fewest = Fewer(fewest, FewestUpTo(mount, f[2], [](const std::string& dir) {
                       // cgroup v1: a quota of -1 is none (CpusOfQuota takes positive numbers).
                       return CpusOfQuota(absl::StrCat(FirstLine(dir + "/cpu.cfs_quota_us"), " ",
                                                       FirstLine(dir + "/cpu.cfs_period_us")));
                     }));
    }
  }
  return fewest;
}

std::chrono::microseconds DefaultSpinLimit() {
  if (const char* e = std::getenv("SERDIFF_WORKER_SPIN_US"); e != nullptr && *e != '\0') {
    int64_t v = 0;
    if (absl::SimpleAtoi(e, &v) && v >= 0 && v <= 100000) return std::chrono::microseconds(v);
  }
  // A mask of more CPUs than cpu_set_t holds (over 1,024) fails with EINVAL: many CPUs.
  cpu_set_t cpus;
  CPU_ZERO(&cpus);
  const bool one_cpu = sched_getaffinity(0, sizeof cpus, &cpus) == 0 && CPU_COUNT(&cpus) < 2;
  const std::optional<double> quota = CgroupCpuQuota();
  if (one_cpu || (quota && *quota < 2)) return std::chrono::microseconds(0);
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
  // The spin is for the wait before the frame's first bytes (the worker's call); the rest of a
  // frame that did not come in one piece is waited for in poll.
  while (ahead->size() < 4) {
    if (absl::Status s = ReadSome(fd, deadline, ahead, spin); !s.ok()) return s;
    spin = nullptr;
  }
  const auto* len = reinterpret_cast<const unsigned char*>(ahead->data());
  const uint32_t n = (uint32_t{len[0]} << 24) | (uint32_t{len[1]} << 16) | (uint32_t{len[2]} << 8) |
                     uint32_t{len[3]};
  if (n > kMaxFrame) {
    // Four printable bytes are most likely text the worker wrote to its stdout (a print, a
    // banner): say so, with the text.
    const bool text =
        std::all_of(len, len + 4, [](unsigned char c) { return c >= 0x20 && c < 0x7f; });
    return absl::OutOfRangeError(
        absl::StrCat("a frame of ", n, " bytes (limit ", kMaxFrame, ")",
                     text ? absl::StrCat("; its length bytes read as text: \"",
                                         absl::string_view(ahead->data(), 4),
                                         "\": does the worker write text to its stdout?")
                          : ""));
  }
  const size_t have = std::min<size_t>(ahead->size() - 4, n);
  body->assign(ahead->data() + 4, have);
  ahead->erase(0, 4 + have);
  while (body->size() < n) {
    const size_t done = body->size();
    const size_t piece = std::min<size_t>(n - done, kFramePiece);
    body->resize(done + piece);
    if (absl::Status s = ReadAll(fd, body->data() + done, piece, deadline); !s.ok()) return s;
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
  // A negative peak is the parser's to refuse (a protocol error), as every other broken answer.
  if (seen_peak && read_peak < 0) return false;
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
