// The frame layer of the worker protocol (harness/worker_frames.h): frames read whole, split or
// several in one read; an empty pipe spun on within the limit, then slept on; the length limit
// held at its value; and the common answer read without a JSON document exactly when, and
// exactly as, the JSON parser (nlohmann, serdiff's reading of every other answer) reads it.
#include <fcntl.h>
#include <sched.h>
#include <sys/wait.h>
#include <unistd.h>

#include <algorithm>
#include <atomic>
#include <chrono>
#include <cstdint>
#include <cstdlib>
#include <optional>
#include <string>
#include <thread>
#include <utility>
#include <vector>

#include <gtest/gtest.h>
#include <rapidcheck.h>
#include <rapidcheck/gtest.h>
#include <nlohmann/json.hpp>

#include "harness/worker_frames.h"

namespace serdiff::harness::worker_frames {
namespace {

std::string Frame(const std::string& body) {
  std::string f;
  StartFrame(&f);
  f += body;
  EndFrame(&f);
  return f;
}

struct Pipe {
  Pipe() {
    EXPECT_EQ(pipe(fds), 0);
    fcntl(fds[0], F_SETFL, fcntl(fds[0], F_GETFL) | O_NONBLOCK);
    fcntl(fds[1], F_SETFL, fcntl(fds[1], F_GETFL) | O_NONBLOCK);
  }
  ~Pipe() {
    close(fds[0]);
    if (fds[1] >= 0) close(fds[1]);
  }
  void Write(const std::string& bytes) {
    ASSERT_TRUE(WriteAll(fds[1], bytes, Clock::now() + std::chrono::seconds(5)).ok());
  }
  absl::Status Read(std::string* ahead, std::string* body) {
    return ReadFrame(fds[0], Clock::now() + std::chrono::seconds(5), ahead, body);
  }
  int fds[2] = {-1, -1};
};

TEST(WorkerFrames, AFrameIsItsBigEndianLengthAndItsBody) {
  EXPECT_EQ(Frame("{}"), std::string("\0\0\0\x02{}", 6));
  EXPECT_EQ(Frame(std::string(258, 'x')).substr(0, 4), std::string("\0\0\x01\x02", 4));
}

// Two frames in one write: the first read takes both, and the second is answered from what was
// read ahead. A frame written in pieces is put together.
TEST(WorkerFrames, FramesAreReadWholeAheadOrInPieces) {
  Pipe p;
  p.Write(Frame("{\"a\":1}") + Frame("{\"b\":2}"));
  std::string ahead, body;
  ASSERT_TRUE(p.Read(&ahead, &body).ok());
  EXPECT_EQ(body, "{\"a\":1}");
  EXPECT_EQ(ahead, Frame("{\"b\":2}"));
  ASSERT_TRUE(p.Read(&ahead, &body).ok());
  EXPECT_EQ(body, "{\"b\":2}");
  EXPECT_EQ(ahead, "");
  const std::string f = Frame("{\"c\":3}");
  p.Write(f.substr(0, 2));
  p.Write(f.substr(2, 5));
  p.Write(f.substr(7));
  ASSERT_TRUE(p.Read(&ahead, &body).ok());
  EXPECT_EQ(body, "{\"c\":3}");
  // A body larger than one read (64 KiB) and than one piece (1 MiB).
  const std::string big(3 << 20, 'z');
  std::string got_big;
  {
    Pipe q;
    std::string frame = Frame(big);
    // The writer side is non-blocking: write as the reader takes, from a child process.
    const pid_t pid = fork();
    if (pid == 0) {
      close(q.fds[0]);
      fcntl(q.fds[1], F_SETFL, fcntl(q.fds[1], F_GETFL) & ~O_NONBLOCK);
      const bool ok =
          write(q.fds[1], frame.data(), frame.size()) == static_cast<ssize_t>(frame.size());
      _exit(ok ? 0 : 1);
    }
    close(q.fds[1]);
    q.fds[1] = -1;
    std::string ahead2;
    ASSERT_TRUE(q.Read(&ahead2, &got_big).ok());
    int status = 0;
    waitpid(pid, &status, 0);
  }
  EXPECT_EQ(got_big.size(), big.size());
  EXPECT_EQ(got_big, big);
}

// A pipe that stays empty is waited on until the deadline, and no longer.
TEST(WorkerFrames, AnEmptyPipeIsWaitedOnUntilTheDeadline) {
  Pipe p;
  std::string ahead, body;
  const auto t0 = Clock::now();
  const absl::Status s =
      ReadFrame(p.fds[0], Clock::now() + std::chrono::milliseconds(50), &ahead, &body);
  EXPECT_EQ(s.code(), absl::StatusCode::kDeadlineExceeded) << s;
  EXPECT_GE(Clock::now() - t0, std::chrono::milliseconds(40));
  // Then a frame that arrives is read.
  p.Write(Frame("{}"));
  ASSERT_TRUE(p.Read(&ahead, &body).ok());
  EXPECT_EQ(body, "{}");
}

// The pipe's free bytes now (F_GETPIPE_SZ minus what is queued), by filling it with
// non-blocking writes of one byte at a time after the big ones; the pipe is left full.
size_t FillPipe(int fd) {
  const std::string chunk(4096, 'f');
  size_t wrote = 0;
  while (true) {
    const ssize_t n = write(fd, chunk.data(), chunk.size());
    if (n <= 0) break;
    wrote += static_cast<size_t>(n);
  }
  while (write(fd, "f", 1) == 1) ++wrote;
  return wrote;
}

// With only_if_room, a full pipe gives ResourceExhausted "pipe full" at once and nothing is
// written (a request written behind another must not wait for a worker that may itself be
// blocked writing an answer nobody reads yet); without it the same write waits until the
// deadline.
TEST(WorkerFrames, AFullPipeRefusesAWriteOnlyIfRoomAtOnce) {
  Pipe p;
  const size_t held = FillPipe(p.fds[1]);
  ASSERT_GT(held, 0u);
  const auto t0 = Clock::now();
  absl::Status s = WriteAll(p.fds[1], "abc", Clock::now() + std::chrono::seconds(5),
                            /*only_if_room=*/true);
  EXPECT_EQ(s.code(), absl::StatusCode::kResourceExhausted) << s;
  EXPECT_EQ(s.message(), "pipe full");
  EXPECT_LT(Clock::now() - t0, std::chrono::seconds(2));
  s = WriteAll(p.fds[1], "abc", Clock::now() + std::chrono::milliseconds(50));
  EXPECT_EQ(s.code(), absl::StatusCode::kDeadlineExceeded) << s;
  // Nothing of either write is in the pipe: exactly the fill, then EAGAIN.
  std::string drained(held + 16, '\0');
  size_t got = 0;
  while (true) {
    const ssize_t n = read(p.fds[0], drained.data() + got, drained.size() - got);
    if (n <= 0) break;
    got += static_cast<size_t>(n);
  }
  EXPECT_EQ(got, held);
  EXPECT_EQ(drained.find_first_not_of('f'), held);
}

// Once a byte of the frame is written, only_if_room no longer applies: the rest is waited for,
// as without it, so that no frame is left half written (the worker would read the next request's
// bytes as this one's).
TEST(WorkerFrames, AWriteOnlyIfRoomThatStartedIsFinished) {
  Pipe p;
  const size_t held = FillPipe(p.fds[1]);
  // Free one page (4,096 bytes): a write of more than PIPE_BUF then goes in part, and EAGAIN.
  std::string page(4096, '\0');
  ASSERT_EQ(read(p.fds[0], page.data(), page.size()), 4096);
  const std::string frame(10000, 'w');
  std::string rest;  // what the reader drains after a delay, once the write has begun
  std::atomic<bool> returned{false};
  std::thread reader([&] {
    std::this_thread::sleep_for(std::chrono::milliseconds(100));
    std::string buf(1 << 16, '\0');
    const auto until = Clock::now() + std::chrono::seconds(5);
    while (rest.size() < held - 4096 + frame.size() && Clock::now() < until) {
      const bool done = returned.load();  // before the read: a pipe empty after it stays so
      const ssize_t n = read(p.fds[0], buf.data(), buf.size());
      if (n > 0) rest.append(buf.data(), static_cast<size_t>(n));
      if (n <= 0 && done) break;
      if (n <= 0) std::this_thread::sleep_for(std::chrono::milliseconds(1));
    }
  });
  const absl::Status s = WriteAll(p.fds[1], frame, Clock::now() + std::chrono::seconds(5),
                                  /*only_if_room=*/true);
  returned.store(true);
  reader.join();
  EXPECT_TRUE(s.ok()) << s;
  ASSERT_EQ(rest.size(), held - 4096 + frame.size());
  EXPECT_EQ(rest.substr(held - 4096), frame);
}
// Text on the worker's stdout (a print before its hello) reads as an impossible length; the
// refusal shows the four bytes as text and says where they likely came from.
TEST(WorkerFrames, AnOverLimitLengthOfPrintableBytesIsShownAsText) {
  Pipe p;
  p.Write("starting up\n");
  std::string ahead, body;
  const absl::Status s = p.Read(&ahead, &body);
  EXPECT_EQ(s.code(), absl::StatusCode::kOutOfRange) << s;
  EXPECT_EQ(s.message(),
            "a frame of 1937006962 bytes (limit 268435456); its length bytes read as text: "
            "\"star\": does the worker write text to its stdout?");
}

// The limit is 256 MiB: one byte over is refused on the length alone; exactly the limit is taken
// (here cut short by the end of the stream: Unavailable, not OutOfRange).
TEST(WorkerFrames, TheLengthLimitIsHeldAtItsValue) {
  {
    Pipe p;
    p.Write(std::string("\x10\0\0\x01{\"id\":1}", 12));
    std::string ahead, body;
    const absl::Status s = p.Read(&ahead, &body);
    EXPECT_EQ(s.code(), absl::StatusCode::kOutOfRange) << s;
    EXPECT_EQ(s.message(), "a frame of 268435457 bytes (limit 268435456)");
  }
  {
    Pipe p;
    p.Write(std::string("\x10\0\0\0{\"id\":1}", 12));
    close(p.fds[1]);
    p.fds[1] = -1;
    std::string ahead, body;
    const absl::Status s = p.Read(&ahead, &body);
    EXPECT_EQ(s.code(), absl::StatusCode::kUnavailable) << s;
    EXPECT_EQ(s.message(), "end of stream");
    EXPECT_LE(body.capacity(), (size_t{1} << 20) + 64);  // the claim, not the bytes, was refused
  }
}

// Bytes written to `fd` after `delay`, from another thread (the pipe's write end is
// non-blocking; a small frame never fills it). The delays below are long (100-150 ms) so that
// a test thread that starts its read late on a loaded machine still finds the pipe empty.
std::thread WriteLater(int fd, std::chrono::milliseconds delay, std::string bytes) {
  return std::thread([fd, delay, bytes = std::move(bytes)] {
    std::this_thread::sleep_for(delay);
    EXPECT_TRUE(WriteAll(fd, bytes, Clock::now() + std::chrono::seconds(5)).ok());
  });
}

absl::Status ReadWith(Pipe& p, std::string* ahead, std::string* body, SpinWait* spin) {
  return ReadFrame(p.fds[0], Clock::now() + std::chrono::seconds(5), ahead, body, spin);
}

// A read that finds the pipe empty looks at it again without sleeping while its SpinWait
// allows; an answer that comes within the limit is read by the spinning, without a sleep in
// poll. Without a limit it sleeps. One frame is one wait, however many pieces it comes in. A
// spin never outlasts the deadline.
TEST(WorkerFrames, AnEmptyPipeIsSpunOnWithinTheLimitThenSlept) {
  using std::chrono::milliseconds;
  Pipe p;
  std::string ahead, body;
  SpinWait spin;
  spin.limit = std::chrono::seconds(10);
  std::thread w = WriteLater(p.fds[1], milliseconds(100), Frame("{\"a\":1}"));
  ASSERT_TRUE(ReadWith(p, &ahead, &body, &spin).ok());
  w.join();
  EXPECT_EQ(body, "{\"a\":1}");
  EXPECT_EQ(spin.spun, 1);
  EXPECT_EQ(spin.slept, 0);
  EXPECT_EQ(spin.long_waits, 0);
  // A frame already in the pipe is no wait at all.
  p.Write(Frame("{}"));
  ASSERT_TRUE(ReadWith(p, &ahead, &body, &spin).ok());
  EXPECT_EQ(spin.spun + spin.slept, 1);
  // A frame in three pieces, 100 ms apart: one wait, spun; the rest is waited for in poll.
  const std::string f = Frame("{\"pieces\":3}");
  w = std::thread([&] {
    for (const std::string& piece : {f.substr(0, 2), f.substr(2, 5), f.substr(7)}) {
      std::this_thread::sleep_for(milliseconds(100));
      EXPECT_TRUE(WriteAll(p.fds[1], piece, Clock::now() + std::chrono::seconds(5)).ok());
    }
  });
  ASSERT_TRUE(ReadWith(p, &ahead, &body, &spin).ok());
  w.join();
  EXPECT_EQ(body, "{\"pieces\":3}");
  EXPECT_EQ(spin.spun, 2);
  EXPECT_EQ(spin.slept, 0);

  SpinWait never;  // limit 0
  EXPECT_FALSE(never.Spinning());
  w = WriteLater(p.fds[1], milliseconds(100), Frame("{\"b\":2}"));
  ASSERT_TRUE(ReadWith(p, &ahead, &body, &never).ok());
  w.join();
  EXPECT_EQ(body, "{\"b\":2}");
  EXPECT_EQ(never.spun, 0);
  EXPECT_EQ(never.slept, 1);

  // The deadline, 50 ms away, ends a spin allowed 10 s; the wait is not counted.
  const auto t0 = Clock::now();
  const absl::Status s = ReadFrame(p.fds[0], t0 + milliseconds(50), &ahead, &body, &spin);
  EXPECT_EQ(s.code(), absl::StatusCode::kDeadlineExceeded) << s;
  EXPECT_GE(Clock::now() - t0, milliseconds(40));
  EXPECT_LT(Clock::now() - t0, std::chrono::seconds(5));
  EXPECT_EQ(spin.spun + spin.slept, 2);
}

// Waits that outlast the limit kGiveUpAfter times in a row turn the spinning off; while it is
// off, every kProbeEvery-th wait spins anyway; a wait that ends within the limit, spun or slept,
// turns it on again.
TEST(WorkerFrames, ASpinThatKeepsRunningOutIsGivenUpUntilAShortWait) {
  using std::chrono::milliseconds;
  Pipe p;
  std::string ahead, body;
  SpinWait spin;
  spin.limit = milliseconds(1);
  for (int k = 1; k <= SpinWait::kGiveUpAfter; ++k) {
    EXPECT_TRUE(spin.Spinning()) << k;
    std::thread w = WriteLater(p.fds[1], milliseconds(150), Frame("{}"));
    ASSERT_TRUE(ReadWith(p, &ahead, &body, &spin).ok());
    w.join();
    EXPECT_EQ(spin.long_waits, k);
  }
  EXPECT_FALSE(spin.Spinning());
  EXPECT_EQ(spin.spun, 0);
  EXPECT_EQ(spin.slept, SpinWait::kGiveUpAfter);
  // Off: the probes.
  {
    SpinWait off = spin;
    for (int k = 1; k <= 2 * SpinWait::kProbeEvery; ++k) {
      EXPECT_EQ(off.TakeTurn(), k % SpinWait::kProbeEvery == 0) << k;
    }
    EXPECT_FALSE(off.Spinning());
    SpinWait none;  // limit 0: never a turn
    none.long_waits = SpinWait::kGiveUpAfter;
    for (int k = 1; k <= SpinWait::kProbeEvery; ++k) EXPECT_FALSE(none.TakeTurn()) << k;
  }
  // A wait within a limit (now 10 s) that sleeps turns the spinning back on.
  spin.limit = std::chrono::seconds(10);
  EXPECT_FALSE(spin.Spinning());
  std::thread w = WriteLater(p.fds[1], milliseconds(100), Frame("{}"));
  ASSERT_TRUE(ReadWith(p, &ahead, &body, &spin).ok());
  w.join();
  EXPECT_EQ(spin.slept, SpinWait::kGiveUpAfter + 1);
  EXPECT_EQ(spin.long_waits, 0);
  EXPECT_EQ(spin.waits_off, 0);
  EXPECT_TRUE(spin.Spinning());
}

// cgroup v2's cpu.max: "QUOTA PERIOD" or "max PERIOD".
TEST(WorkerFrames, ACgroupQuotaIsReadAsCpus) {
  EXPECT_EQ(CpusOfQuota("max 100000"), std::nullopt);
  EXPECT_EQ(CpusOfQuota("100000 100000"), 1.0);
  EXPECT_EQ(CpusOfQuota("150000 100000\n"), 1.5);
  EXPECT_EQ(CpusOfQuota("200000 100000"), 2.0);
  EXPECT_EQ(CpusOfQuota("50000 100000"), 0.5);
  for (const char* bad : {"", "100000", "100000 100000 1", "0 100000", "100000 0", "-5 100000",
                          "1.5 100000", "max"}) {
    EXPECT_EQ(CpusOfQuota(bad), std::nullopt) << bad;
  }
}

// SERDIFF_WORKER_SPIN_US when it is an integer from 0 to 100000; else 100 µs, or 0 on one CPU
// or under a quota of fewer than two.
TEST(WorkerFrames, TheSpinLimitComesFromTheEnvironmentOrTheCpus) {
  using std::chrono::microseconds;
  struct RestoreEnv {
    std::optional<std::string> saved;
    RestoreEnv() {
      if (const char* e = std::getenv("SERDIFF_WORKER_SPIN_US")) saved = e;
    }
    ~RestoreEnv() {
      if (saved) {
        setenv("SERDIFF_WORKER_SPIN_US", saved->c_str(), 1);
      } else {
        unsetenv("SERDIFF_WORKER_SPIN_US");
      }
    }
  } restore;
  cpu_set_t cpus;
  CPU_ZERO(&cpus);
  ASSERT_EQ(sched_getaffinity(0, sizeof cpus, &cpus), 0);
  const std::optional<double> quota = CgroupCpuQuota();
  const bool few = CPU_COUNT(&cpus) < 2 || (quota && *quota < 2);
  const microseconds by_cpus(few ? 0 : 100);
  setenv("SERDIFF_WORKER_SPIN_US", "250", 1);
  EXPECT_EQ(DefaultSpinLimit(), microseconds(250));
  setenv("SERDIFF_WORKER_SPIN_US", "0", 1);
  EXPECT_EQ(DefaultSpinLimit(), microseconds(0));
  setenv("SERDIFF_WORKER_SPIN_US", "100000", 1);
  EXPECT_EQ(DefaultSpinLimit(), microseconds(100000));
  for (const char* bad : {"100001", "-1", "12x", ""}) {
    setenv("SERDIFF_WORKER_SPIN_US", bad, 1);
    EXPECT_EQ(DefaultSpinLimit(), by_cpus) << bad;
  }
  unsetenv("SERDIFF_WORKER_SPIN_US");
  EXPECT_EQ(DefaultSpinLimit(), by_cpus);
  // On one CPU: no spinning (a child process, so that this one keeps its CPUs). Exit status 2:
  // the sandbox does not let the child narrow its CPUs, and nothing is shown.
  const pid_t pid = fork();
  if (pid == 0) {
    cpu_set_t one;
    CPU_ZERO(&one);
    int first = 0;
    while (!CPU_ISSET(first, &cpus)) ++first;
    CPU_SET(first, &one);
    if (sched_setaffinity(0, sizeof one, &one) != 0) _exit(2);
    _exit(DefaultSpinLimit() == microseconds(0) ? 0 : 1);
  }
  int status = -1;
  ASSERT_EQ(waitpid(pid, &status, 0), pid);
  ASSERT_TRUE(WIFEXITED(status)) << status;
  if (WEXITSTATUS(status) == 2) GTEST_SKIP() << "sched_setaffinity to one CPU refused here";
  EXPECT_EQ(WEXITSTATUS(status), 0);
}

struct Plain {
  bool read = false;
  int64_t id = 0;
  int64_t peak = 0;
  std::string bytes;
};
Plain Read(const std::string& body) {
  Plain p;
  p.read = ReadPlainAnswer(body, &p.id, &p.peak, &p.bytes);
  return p;
}

TEST(WorkerFrames, ThePlainAnswerInEveryShippedWorkersOrder) {
  for (const char* body : {
           R"({"id":7,"ok":true,"hex":"2d3132","peak":122})",  // Python, Node
           R"({"hex":"2d3132","id":7,"ok":true,"peak":122})",  // Go (sorted keys)
           R"({"peak":122,"hex":"2D3132","ok":true,"id":7})",  // any order, upper-case hex
       }) {
    const Plain p = Read(body);
    EXPECT_TRUE(p.read) << body;
    EXPECT_EQ(p.id, 7) << body;
    EXPECT_EQ(p.peak, 122) << body;
    EXPECT_EQ(p.bytes, "-12") << body;
  }
  Plain p = Read(R"({"id":9007199254740991,"ok":true,"hex":""})");
  EXPECT_TRUE(p.read);
  EXPECT_EQ(p.id, 9007199254740991);
  EXPECT_EQ(p.peak, -1);  // no "peak": unknown
  EXPECT_EQ(p.bytes, "");
  p = Read(R"({"id":0,"ok":true,"hex":"00ff","peak":0})");
  EXPECT_TRUE(p.read);
  EXPECT_EQ(p.peak, 0);
  EXPECT_EQ(p.bytes, std::string("\0\xff", 2));
}

// Everything else is left to the JSON parser, which reads it or names the broken rule.
TEST(WorkerFrames, AnythingElseIsLeftToTheJsonParser) {
  for (const char* body : {
           R"({"id":7, "ok":true,"hex":"2d"})",                 // white space
           R"({ "id":7,"ok":true,"hex":"2d"})",                 // white space
           R"({"id":7,"ok":true,"hex":"2d"} )",                 // white space after
           R"({"id":7,"ok":true,"hex":"2d","id":7})",           // a key twice
           R"({"id":7,"ok":true,"hex":"2d","ns":[1]})",         // another key
           R"({"id":7,"ok":false,"hex":"2d"})",                 // not accepted
           R"({"id":7,"ok":1,"hex":"2d"})",                     // "ok" not a boolean
           R"({"id":7.0,"ok":true,"hex":"2d"})",                // not an integer
           R"({"id":1e1,"ok":true,"hex":"2d"})",                // not an integer
           R"({"id":07,"ok":true,"hex":"2d"})",                 // a leading zero: not JSON
           R"({"id":-,"ok":true,"hex":"2d"})",                  // no digits
           R"({"id":"7","ok":true,"hex":"2d"})",                // the id as a string
           R"({"id":1234567890123456789,"ok":true,"hex":""})",  // 19 digits
           R"({"id":7,"ok":true,"hex":"2d3"})",                 // odd length
           R"({"id":7,"ok":true,"hex":"2g"})",                  // not hex
           R"({"id":7,"ok":true,"hex":"g2"})",                  // not hex, the high digit
           R"({"id":7,"ok":true,"hex":"2d","peak":-5})",        // a negative peak
           R"({"id":7,"ok":true,"hex":"2d","peak":-1})",        // -1, which reads as "unknown"
           R"({"id":7,"ok":true,"hex":"\u0032d"})",             // an escape
           R"({"id":7,"ok":true,"hex":"2d)",                    // unterminated
           R"({"id":7,"ok":true,"hex":2})",                     // hex not a string
           R"({"id":7,"ok":true})",                             // no hex
           R"({"ok":true,"hex":"2d"})",                         // no id
           R"({"id":7,"hex":"2d"})",                            // no ok
           R"({"id":7,"ok":true,"hex":"2d","peak":1.5})",       // peak not an integer
           R"({"id":7,"ok":true,"hex":"2d",})",                 // a trailing comma
           R"({"id":7,"ok":true,"hex":"2d"}})",                 // after the object
           R"([7,true,"2d"])",
           "",
           "{}",
           "{",
           "}",
       }) {
    EXPECT_FALSE(Read(body).read) << body;
  }
}

// The reading is the JSON parser's: on answers made by breaking the plain form in every way a
// generator can (a character replaced, inserted or dropped; keys reordered; numbers of every
// size), whatever ReadPlainAnswer reads, nlohmann reads as one object of those keys and values.
RC_GTEST_PROP(WorkerFrames, APlainReadingIsTheJsonParsers, ()) {
  const int64_t id = *rc::gen::inRange<int64_t>(0, int64_t{1} << 53);
  const std::string bytes = *rc::gen::container<std::string>(rc::gen::arbitrary<char>());
  static const char kHex[] = "0123456789abcdef";
  std::string hex;
  for (unsigned char c : bytes) {
    hex += kHex[c >> 4];
    hex += kHex[c & 15];
  }
  const int64_t peak = *rc::gen::arbitrary<int64_t>();
  std::vector<std::string> fields = {"\"id\":" + std::to_string(id), "\"ok\":true",
                                     "\"hex\":\"" + hex + "\""};
  if (*rc::gen::arbitrary<bool>()) fields.push_back("\"peak\":" + std::to_string(peak));
  // The keys in any order (a permutation), or now and then one key twice and another missing.
  std::vector<size_t> order(fields.size());
  for (size_t i = 0; i < order.size(); ++i) order[i] = i;
  const std::vector<int> rank =
      *rc::gen::container<std::vector<int>>(fields.size(), rc::gen::arbitrary<int>());
  std::sort(order.begin(), order.end(), [&](size_t a, size_t b) { return rank[a] < rank[b]; });
  if (*rc::gen::inRange(0, 8) == 0) order[0] = order[1];
  std::string body = "{";
  for (size_t i = 0; i < fields.size(); ++i) {
    if (i) body += ',';
    body += fields[order[i]];
  }
  body += '}';
  const int edits = *rc::gen::inRange(0, 3);
  for (int e = 0; e < edits && !body.empty(); ++e) {
    const size_t at = *rc::gen::inRange<size_t>(0, body.size());
    const char c = *rc::gen::elementOf(std::string("{}[]\":,.-+e0123456789afAFx \\"));
    switch (*rc::gen::inRange(0, 3)) {
      case 0:
        body[at] = c;
        break;
      case 1:
        body.insert(at, 1, c);
        break;
      default:
        body.erase(at, 1);
        break;
    }
  }
  const Plain p = Read(body);
  RC_CLASSIFY(p.read, "read plain");
  RC_CLASSIFY(!p.read, "left to the parser");
  if (!p.read) return;
  const nlohmann::json j = nlohmann::json::parse(body, nullptr, false);
  RC_ASSERT(j.is_object());
  RC_ASSERT(j.contains("id") && j["id"].is_number_integer());
  RC_ASSERT(j["id"].get<int64_t>() == p.id);
  RC_ASSERT(j.contains("ok") && j["ok"].is_boolean() && j["ok"].get<bool>());
  RC_ASSERT(j.contains("hex") && j["hex"].is_string());
  std::string decoded;
  const std::string jh = j["hex"].get<std::string>();
  RC_ASSERT(jh.size() % 2 == 0);
  for (size_t i = 0; i < jh.size(); i += 2) {
    decoded += static_cast<char>(std::stoi(jh.substr(i, 2), nullptr, 16));
  }
  RC_ASSERT(decoded == p.bytes);
  if (j.contains("peak")) {
    RC_ASSERT(j["peak"].is_number_integer());
    RC_ASSERT(j["peak"].get<int64_t>() == p.peak);
  } else {
    RC_ASSERT(p.peak == -1);
  }
  RC_ASSERT(j.size() == (j.contains("peak") ? 4u : 3u));
}

}  // namespace
}  // namespace serdiff::harness::worker_frames
