// A worker's call in two halves (WorkerClient::Send and Receive, harness/external.h) and the
// verdict's use of them (RunAll, harness/run_impls.h): requests sent ahead or behind another are
// answered each by its own id, whatever the order of the Receives and whatever fails in between;
// and the worker has the requests while the in-process implementations run: both of a rerun
// before their first runs (the second behind the first), or, for a request too large to go
// behind, the first before their first runs and the second before their second runs, as a peer
// and as the subject. And a worker's starts: declined after two failures in a row. The worker is
// tests/workers/misbehaving_worker.py (value 13 crashes it; value 47 marks each request it
// receives in the file SERDIFF_TEST_MARK names).
#include <sys/wait.h>

#include <chrono>
#include <cstdint>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <limits>
#include <memory>
#include <string>
#include <thread>
#include <utility>
#include <vector>

#include <gtest/gtest.h>

#include "absl/strings/str_cat.h"
#include "harness/domains.h"
#include "harness/external.h"
#include "harness/result.h"
#include "harness/run_config.h"
#include "harness/target.h"

namespace serdiff::harness {
namespace {

const std::string kManifest =
    std::string(SERDIFF_CORPUS_DIR) + "/../tests/workers/misbehaving.json";
constexpr absl::string_view kOp = "int64.to_decimal";

WorkerManifest Manifest() {
  absl::StatusOr<WorkerManifest> m = ReadWorkerManifest(kManifest);
  EXPECT_TRUE(m.ok()) << m.status();
  return *m;
}

std::string Input(int64_t v) { return absl::StrCat("{\"value\":\"", v, "\"}"); }

// Requests sent ahead: a second Send reads the first's answer and keeps it, and each Receive
// gets the answer (bytes and peak: value x 10) of its own id, in either order, once.
TEST(WorkerOverlap, RequestsSentAheadAreAnsweredEachByItsOwnId) {
  WorkerClient c(Manifest());
  const absl::StatusOr<int64_t> a = c.Send(kOp, Input(41));
  const absl::StatusOr<int64_t> b = c.Send(kOp, Input(42));
  ASSERT_TRUE(a.ok()) << a.status();
  ASSERT_TRUE(b.ok()) << b.status();
  EXPECT_NE(*a, *b);
  int64_t peak = 0;
  absl::StatusOr<ExternalAnswer> rb = c.Receive(*b, &peak);
  ASSERT_TRUE(rb.ok()) << rb.status();
  EXPECT_EQ(rb->bytes, "42");
  EXPECT_EQ(peak, 420);
  absl::StatusOr<ExternalAnswer> ra = c.Receive(*a, &peak);
  ASSERT_TRUE(ra.ok()) << ra.status();
  EXPECT_EQ(ra->bytes, "41");
  EXPECT_EQ(peak, 410);
  // Received already: a bug of the caller, never a verdict on the worker.
  const absl::StatusOr<ExternalAnswer> again = c.Receive(*a, &peak);
  EXPECT_EQ(again.status().code(), absl::StatusCode::kInternal) << again.status();
  EXPECT_EQ(WorkerFailureClass(again.status()), "");
  EXPECT_EQ(peak, -1);
  EXPECT_EQ(c.calls(), 2);
  EXPECT_EQ(c.starts(), 1);
}

// A request `behind` another is written without reading the answer before it, when both fit a
// quarter of the pipe and no other waits; otherwise nothing is sent (0). The answers are each
// their own id's, in either order of the Receives.
TEST(WorkerOverlap, ARequestBehindAnotherIsWrittenOnlyWhenItCannotBlock) {
  WorkerClient c(Manifest());
  const absl::StatusOr<int64_t> a = c.Send(kOp, Input(41));
  const absl::StatusOr<int64_t> b = c.Send(kOp, Input(42), 0, 1, true, /*behind=*/true);
  const absl::StatusOr<int64_t> third = c.Send(kOp, Input(43), 0, 1, true, /*behind=*/true);
  const std::string large =
      absl::StrCat("{\"value\":\"44\",\"pad\":\"", std::string(300000, 'x'), "\"}");
  ASSERT_TRUE(a.ok() && b.ok() && third.ok());
  EXPECT_GT(*b, *a);
  EXPECT_EQ(*third, 0);  // two in flight already
  EXPECT_EQ(c.calls(), 2);
  int64_t peak = 0;
  absl::StatusOr<ExternalAnswer> rb = c.Receive(*b, &peak);
  ASSERT_TRUE(rb.ok()) << rb.status();
  EXPECT_EQ(rb->bytes, "42");
  EXPECT_EQ(peak, 420);
  // One in flight (a's answer was read and kept): a large request cannot go behind it.
  const absl::StatusOr<int64_t> c1 = c.Send(kOp, Input(45));
  ASSERT_TRUE(c1.ok());
  const absl::StatusOr<int64_t> big = c.Send(kOp, large, 0, 1, true, /*behind=*/true);
  ASSERT_TRUE(big.ok());
  EXPECT_EQ(*big, 0);
  EXPECT_EQ(c.calls(), 3);
  // Sent not behind, it waits for the answer before it and is answered.
  const absl::StatusOr<int64_t> big2 = c.Send(kOp, large);
  ASSERT_TRUE(big2.ok());
  absl::StatusOr<ExternalAnswer> rbig = c.Receive(*big2, &peak);
  ASSERT_TRUE(rbig.ok()) << rbig.status();
  EXPECT_EQ(rbig->bytes, "44");
  absl::StatusOr<ExternalAnswer> ra = c.Receive(*a, &peak);
  ASSERT_TRUE(ra.ok()) << ra.status();
  EXPECT_EQ(ra->bytes, "41");
  EXPECT_EQ(peak, 410);
  absl::StatusOr<ExternalAnswer> rc1 = c.Receive(*c1, &peak);
  ASSERT_TRUE(rc1.ok()) << rc1.status();
  EXPECT_EQ(rc1->bytes, "45");
  EXPECT_EQ(c.starts(), 1);
}

// A request behind one whose worker fails was in the same process: it is worker-crashed too
// (the worker, asleep on 14, is killed at its deadline while the request behind waits), and the
// next request goes to a new process.
TEST(WorkerOverlap, ARequestBehindAFailureIsCrashedToo) {
  WorkerManifest m = Manifest();
  m.timeout_ms = 300;
  WorkerClient c(std::move(m));
  const absl::StatusOr<int64_t> late = c.Send(kOp, Input(14));
  const absl::StatusOr<int64_t> behind = c.Send(kOp, Input(43), 0, 1, true, /*behind=*/true);
  ASSERT_TRUE(late.ok() && behind.ok());
  ASSERT_GT(*behind, 0);
  int64_t peak = 0;
  // Received first, the request behind reads the timeout on its way and keeps it for its own.
  const absl::StatusOr<ExternalAnswer> lost = c.Receive(*behind, &peak);
  EXPECT_EQ(WorkerFailureClass(lost.status()), "worker-crashed") << lost.status();
  EXPECT_NE(lost.status().message().find("stopped before its answer was read"), std::string::npos)
      << lost.status();
  const absl::StatusOr<ExternalAnswer> timed_out = c.Receive(*late, &peak);
  EXPECT_EQ(WorkerFailureClass(timed_out.status()), "worker-timeout") << timed_out.status();
  const absl::StatusOr<int64_t> next = c.Send(kOp, Input(46));
  ASSERT_TRUE(next.ok());
  absl::StatusOr<ExternalAnswer> answered = c.Receive(*next, &peak);
  ASSERT_TRUE(answered.ok()) << answered.status();
  EXPECT_EQ(answered->bytes, "46");
  EXPECT_EQ(c.starts(), 2);
}

// A worker that ends right after an answer (50): a request sent behind that answer either went
// into the pipe before the end (then it is worker-crashed) or found the pipe closed (then it was
// not sent: 0). Either way the answer already written is not lost, and a later request goes to
// a new process.
TEST(WorkerOverlap, AnAnswerBeforeTheWorkerEndedIsNotLost) {
  for (int round = 0; round < 2; ++round) {
    WorkerClient c(Manifest());
    const absl::StatusOr<int64_t> last = c.Send(kOp, Input(50));
    ASSERT_TRUE(last.ok());
    // The second round waits for the worker to end first (its only child process, left
    // unreaped: WNOWAIT), so that the write behind finds the pipe closed (EPIPE); the first
    // most likely writes behind a live worker.
    if (round == 1) {
      siginfo_t info{};
      waitid(P_ALL, 0, &info, WEXITED | WNOWAIT);
    }
    const absl::StatusOr<int64_t> behind = c.Send(kOp, Input(43), 0, 1, true, /*behind=*/true);
    ASSERT_TRUE(behind.ok()) << behind.status();
    int64_t peak = 0;
    absl::StatusOr<ExternalAnswer> answered = c.Receive(*last, &peak);
    ASSERT_TRUE(answered.ok()) << answered.status();
    EXPECT_EQ(answered->bytes, "50");
    EXPECT_EQ(peak, 500);
    if (*behind > 0) {
      const absl::StatusOr<ExternalAnswer> lost = c.Receive(*behind, &peak);
      EXPECT_EQ(WorkerFailureClass(lost.status()), "worker-crashed") << lost.status();
      EXPECT_EQ(c.calls(), 2);
    } else {
      EXPECT_EQ(c.calls(), 1);  // not sent, not counted
    }
    absl::StatusOr<int64_t> next = c.Send(kOp, Input(44));
    if (!next.ok()) {
      // Not yet known to have ended (the request behind was not sent): this write finds its pipe
      // closed, a failure of its own, and the request after it starts a new process.
      EXPECT_EQ(WorkerFailureClass(next.status()), "worker-crashed") << next.status();
      next = c.Send(kOp, Input(44));
    }
    ASSERT_TRUE(next.ok()) << next.status();
    answered = c.Receive(*next, &peak);
    ASSERT_TRUE(answered.ok()) << answered.status();
    EXPECT_EQ(answered->bytes, "44");
    EXPECT_EQ(c.starts(), 2);
  }
}

// A crash while a request waits is that request's verdict alone: the request sent after it
// goes to a new process and is answered. A Restart between the halves is a crash of the request
// in flight, and the next request is answered by a fresh process.
TEST(WorkerOverlap, AFailureBetweenTheHalvesIsTheWaitingRequestsAlone) {
  WorkerClient c(Manifest());
  const absl::StatusOr<int64_t> crash = c.Send(kOp, Input(13));
  const absl::StatusOr<int64_t> after = c.Send(kOp, Input(43));
  ASSERT_TRUE(crash.ok()) << crash.status();
  ASSERT_TRUE(after.ok()) << after.status();
  int64_t peak = 0;
  const absl::StatusOr<ExternalAnswer> crashed = c.Receive(*crash, &peak);
  EXPECT_EQ(WorkerFailureClass(crashed.status()), "worker-crashed") << crashed.status();
  EXPECT_EQ(peak, -1);
  absl::StatusOr<ExternalAnswer> answered = c.Receive(*after, &peak);
  ASSERT_TRUE(answered.ok()) << answered.status();
  EXPECT_EQ(answered->bytes, "43");
  EXPECT_EQ(peak, 430);
  EXPECT_EQ(c.starts(), 2);

  const absl::StatusOr<int64_t> lost = c.Send(kOp, Input(44));
  ASSERT_TRUE(lost.ok()) << lost.status();
  c.Restart();
  const absl::StatusOr<ExternalAnswer> stopped = c.Receive(*lost, &peak);
  EXPECT_EQ(WorkerFailureClass(stopped.status()), "worker-crashed") << stopped.status();
  EXPECT_NE(stopped.status().message().find("stopped before its answer was read"),
            std::string::npos)
      << stopped.status();
  const absl::StatusOr<int64_t> next = c.Send(kOp, Input(45));
  ASSERT_TRUE(next.ok()) << next.status();
  EXPECT_GT(*next, *lost);  // ids go on across processes: a kept answer keeps its own
  answered = c.Receive(*next, &peak);
  ASSERT_TRUE(answered.ok()) << answered.status();
  EXPECT_EQ(answered->bytes, "45");
  EXPECT_EQ(c.starts(), 3);
}

// The lines of the mark file: one per request of value 47 the worker has received, "peak" or
// "no peak" (the request's "peak": false).
std::vector<std::string> Marks(const std::string& path) {
  std::ifstream f(path);
  std::vector<std::string> lines;
  for (std::string line; std::getline(f, line);) lines.push_back(line);
  return lines;
}
int MarkedRequests(const std::string& path) { return static_cast<int>(Marks(path).size()); }
using Lines = std::vector<std::string>;

// A target whose optimized side, on 47, waits (up to 10 s) until the worker has received as many
// requests as it should have by then, and answers "47" only then: a verdict that ran the
// in-process implementations before sending the worker its requests would see "47 alone" from
// it, a bytes-mismatch. Any other value is answered at once. Both requests of a rerun are in the
// worker before the first in-process run (the second written behind the first), unless the
// request is padded with `pad` bytes, over a quarter of the pipe: the second is then sent after
// the in-process first runs, and there is one request by the first run, two by the second.
TargetDef<int64_t> WaitingTarget(std::string mark, size_t pad = 0) {
  TargetDef<int64_t> def;
  def.name = "test_worker_overlap";
  def.description = "int64 to decimal, the optimized side waiting for the worker's request";
  def.domain = IntegerDomain<int64_t>("int64", rc::gen::arbitrary<int64_t>());
  def.optimized = {"optimized", [mark, pad](const int64_t& v) -> Output {
                     if (v != 47) return absl::StrCat(v);
                     const int want = InSecondRun() || pad == 0 ? 2 : 1;
                     const auto end = std::chrono::steady_clock::now() + std::chrono::seconds(10);
                     while (MarkedRequests(mark) < want) {
                       if (std::chrono::steady_clock::now() > end) return std::string("47 alone");
                       std::this_thread::sleep_for(std::chrono::milliseconds(2));
                     }
                     if (pad > 0 && !InSecondRun()) {
                       // Too large to go behind: the second request must not come before the
                       // first answer is read (after this run).
                       std::this_thread::sleep_for(std::chrono::milliseconds(100));
                       if (MarkedRequests(mark) > 1) return std::string("47 early");
                     }
                     return std::string("47");
                   }};
  def.others.push_back({"reference", [](const int64_t& v) -> Output { return absl::StrCat(v); }});
  def.interchange.op = std::string(kOp);
  def.interchange.input_json = [pad](const int64_t& v) -> absl::StatusOr<std::string> {
    if (pad == 0) return Input(v);
    return absl::StrCat("{\"value\":\"", v, "\",\"pad\":\"", std::string(pad, 'x'), "\"}");
  };
  return def;
}

class WorkerOverlapJudge : public ::testing::Test {
 protected:
  void SetUp() override {
    mark_ = (std::filesystem::temp_directory_path() /
             absl::StrCat("serdiff_overlap_", getpid(), "_",
                          ::testing::UnitTest::GetInstance()->current_test_info()->name()))
                .string();
    std::filesystem::remove(mark_);
    // The worker inherits serdiff's environment when it starts, at its first call.
    setenv("SERDIFF_TEST_MARK", mark_.c_str(), 1);
  }
  void TearDown() override {
    unsetenv("SERDIFF_TEST_MARK");
    std::filesystem::remove(mark_);
  }
  std::string mark_;
};

TEST_F(WorkerOverlapJudge, APeersRequestsArriveBeforeEachInProcessRun) {
  auto client = std::make_shared<WorkerClient>(Manifest());
  TypedTarget<int64_t> target(WaitingTarget(mark_), "test");
  ASSERT_TRUE(target.AttachWorker(client).ok());
  const CaseResult r = target.Judge(47, {}, Render::kAlways);
  EXPECT_TRUE(r.passed) << r.report;
  // The first run and the rerun; only the first one's peak is kept, so only it is asked for.
  EXPECT_EQ(Marks(mark_), (Lines{"peak", "no peak"}));
  ASSERT_EQ(r.external.size(), 1u);
  EXPECT_EQ(r.external[0].peak_bytes, 470);  // the first answer's peak, kept with its run
  // And the worker's answers are still judged: a wrong one is its bytes-mismatch, and a second
  // answer unlike the first is nondeterministic.
  EXPECT_EQ(target.Judge(18, {}).failure_class, "bytes-mismatch:misbehaving");
  EXPECT_EQ(target.Judge(48, {}).failure_class, "nondeterministic:misbehaving");
}

// With a worker in the plan, the in-process implementations still run twice, and a second run
// unlike the first is their nondeterminism (the worker's own is judged above).
TEST_F(WorkerOverlapJudge, InProcessSecondRunsAreJudgedBesideAWorker) {
  for (const std::string which : {"optimized", "reference"}) {
    TargetDef<int64_t> def = WaitingTarget(mark_);
    auto flips = [](const int64_t& v) -> Output {
      return InSecondRun() ? std::string("flipped") : absl::StrCat(v);
    };
    if (which == "optimized") def.optimized = {"optimized", flips};
    if (which == "reference") def.others[0] = {"reference", flips};
    auto client = std::make_shared<WorkerClient>(Manifest());
    TypedTarget<int64_t> target(std::move(def), "test");
    ASSERT_TRUE(target.AttachWorker(client).ok());
    EXPECT_EQ(target.Judge(5, {}).failure_class, "nondeterministic:" + which);
  }
}

// An input the fuzz binary's sample does not rerun (RunConfig::rerun_one_in) sends a peer one
// request; the subject runs twice whatever the sample says.
TEST_F(WorkerOverlapJudge, OnlyARerunSendsASecondRequest) {
  TargetDef<int64_t> def = WaitingTarget(mark_);
  def.optimized = {"optimized", [](const int64_t& v) -> Output { return absl::StrCat(v); }};
  auto client = std::make_shared<WorkerClient>(Manifest());
  TypedTarget<int64_t> target(std::move(def), "test");
  ASSERT_TRUE(target.AttachWorker(client).ok());
  EXPECT_TRUE(target.Judge(47, {}, Render::kOnFailure, /*rerun_all=*/false).passed);
  EXPECT_EQ(Marks(mark_), (Lines{"peak"}));
  RunConfig subject;
  subject.subject = "misbehaving";
  EXPECT_TRUE(target.Judge(47, subject, Render::kOnFailure, /*rerun_all=*/false).passed);
  EXPECT_EQ(Marks(mark_), (Lines{"peak", "peak", "no peak"}));
}

// A fuzz binary's configuration (RunConfig::peer_peaks false, fuzz/fuzz_main.cc) asks a peer
// for no peak at all, and the peer's peak is then unknown; the subject's is still asked for and
// bounded.
TEST_F(WorkerOverlapJudge, APeersPeakIsAskedForOnlyWhereItIsShown) {
  TargetDef<int64_t> def = WaitingTarget(mark_);
  def.optimized = {"optimized", [](const int64_t& v) -> Output { return absl::StrCat(v); }};
  def.heap_bound = HeapBound<int64_t>::Fixed(469);
  auto client = std::make_shared<WorkerClient>(Manifest());
  TypedTarget<int64_t> target(std::move(def), "test");
  ASSERT_TRUE(target.AttachWorker(client).ok());
  RunConfig fuzzing;
  fuzzing.peer_peaks = false;
  const CaseResult peer = target.Judge(47, fuzzing, Render::kAlways);
  EXPECT_TRUE(peer.passed) << peer.report;
  ASSERT_EQ(peer.external.size(), 1u);
  EXPECT_EQ(peer.external[0].peak_bytes, -1);
  EXPECT_EQ(Marks(mark_), (Lines{"no peak", "no peak"}));
  fuzzing.subject = "misbehaving";
  const CaseResult subject = target.Judge(47, fuzzing, Render::kAlways);
  EXPECT_EQ(subject.failure_class, "heap-bound:misbehaving") << subject.report;  // 470 > 469
  EXPECT_EQ(Marks(mark_), (Lines{"no peak", "no peak", "peak", "no peak"}));
}

TEST_F(WorkerOverlapJudge, TheSubjectsRequestsArriveBeforeEachInProcessRun) {
  auto client = std::make_shared<WorkerClient>(Manifest());
  TypedTarget<int64_t> target(WaitingTarget(mark_), "test");
  ASSERT_TRUE(target.AttachWorker(client).ok());
  RunConfig subject;
  subject.subject = "misbehaving";
  const CaseResult r = target.Judge(47, subject, Render::kAlways);
  EXPECT_TRUE(r.passed) << r.report;
  EXPECT_EQ(r.subject, "misbehaving");
  EXPECT_EQ(r.optimized_peak_bytes, 470);
  EXPECT_EQ(Marks(mark_), (Lines{"peak", "no peak"}));
  EXPECT_EQ(target.Judge(18, subject).failure_class, "bytes-mismatch:optimized");
  EXPECT_EQ(target.Judge(48, subject).failure_class, "nondeterministic:misbehaving");
}

// A request too large to go behind another (over a quarter of the pipe: 64 KiB, or 1 MiB with
// 64 KiB pages): the rerun's second request is sent after the in-process first runs, and still
// before the second runs.
TEST_F(WorkerOverlapJudge, ALargeRerunsSecondRequestWaitsForTheFirstAnswer) {
  auto client = std::make_shared<WorkerClient>(Manifest());
  TypedTarget<int64_t> target(WaitingTarget(mark_, 300000), "test");
  ASSERT_TRUE(target.AttachWorker(client).ok());
  const CaseResult r = target.Judge(47, {}, Render::kAlways);
  EXPECT_TRUE(r.passed) << r.report;
  EXPECT_EQ(Marks(mark_), (Lines{"peak", "no peak"}));
  std::filesystem::remove(mark_);  // the optimized side counts this case's marks only
  RunConfig subject;
  subject.subject = "misbehaving";
  const CaseResult s = target.Judge(47, subject, Render::kAlways);
  EXPECT_TRUE(s.passed) << s.report;
  EXPECT_EQ(s.optimized_peak_bytes, 470);
  EXPECT_EQ(Marks(mark_), (Lines{"peak", "no peak"}));
  EXPECT_EQ(target.Judge(48, subject).failure_class, "nondeterministic:misbehaving");
  EXPECT_EQ(client->starts(), 1);
}

// The deadline of an answer (the manifest's timeout, here 400 ms) is counted from the Receive:
// a worker is not late because the in-process runs took 600 ms each, whether it answered at once
// (47) or 0.7 s after the request (49: after the deadline counted from the request, within the
// one counted from the Receive). And the rerun's request, written behind the first, has twice
// the timeout: a worker taking 0.9 s a call (51) answers it 1.8 s after both were sent, 0.6 s
// after the in-process runs end, as late as it would have been (0.3 s per Receive) had the
// second request been sent after the first answer.
TEST_F(WorkerOverlapJudge, TimeInTheInProcessRunsIsNotTheWorkers) {
  TargetDef<int64_t> def = WaitingTarget(mark_);
  def.others.push_back({"slow", [](const int64_t& v) -> Output {
                          std::this_thread::sleep_for(std::chrono::milliseconds(600));
                          return absl::StrCat(v);
                        }});
  WorkerManifest m = Manifest();
  m.timeout_ms = 400;
  auto client = std::make_shared<WorkerClient>(std::move(m));
  TypedTarget<int64_t> target(std::move(def), "test");
  ASSERT_TRUE(target.AttachWorker(client).ok());
  const CaseResult r = target.Judge(47, {}, Render::kAlways);
  EXPECT_TRUE(r.passed) << r.report;
  const CaseResult late = target.Judge(49, {}, Render::kAlways);
  EXPECT_TRUE(late.passed) << late.report;
  const CaseResult slower = target.Judge(51, {}, Render::kAlways);
  EXPECT_TRUE(slower.passed) << slower.report;
  EXPECT_EQ(client->starts(), 1);
  // And a worker that does not answer within the deadline of its Receive is still late.
  EXPECT_EQ(target.Judge(14, {}).failure_class, "worker-timeout:misbehaving");
}

// A worker that fails to start twice in a row is declined for the rest of the process; two
// failed starts with a good one between them are not in a row. The worker
// (tests/workers/misbehaving_worker.py) ends before its hello while the file
// SERDIFF_TEST_NO_START names exists.
TEST(WorkerStarts, TwoFailedStartsInARowDecline) {
  const std::string gate =
      (std::filesystem::temp_directory_path() / absl::StrCat("serdiff_no_start_", getpid()))
          .string();
  setenv("SERDIFF_TEST_NO_START", gate.c_str(), 1);
  struct Cleanup {  // also when an assertion ends the test early: later tests start workers
    std::string gate;
    ~Cleanup() {
      unsetenv("SERDIFF_TEST_NO_START");
      std::filesystem::remove(gate);
    }
  } cleanup{gate};
  WorkerClient c(Manifest());
  int64_t peak = 0;
  auto call = [&](int64_t v) { return c.Call(kOp, Input(v), &peak); };
  auto fail_starts = [&](bool fail) {
    if (fail) {
      std::ofstream(gate) << "x";
    } else {
      std::filesystem::remove(gate);
    }
  };
  fail_starts(true);
  EXPECT_EQ(WorkerFailureClass(call(41).status()), "worker-crashed");
  fail_starts(false);
  absl::StatusOr<ExternalAnswer> a = call(42);
  ASSERT_TRUE(a.ok()) << a.status();
  EXPECT_EQ(a->bytes, "42");
  c.Restart();
  fail_starts(true);
  EXPECT_EQ(WorkerFailureClass(call(43).status()), "worker-crashed");
  fail_starts(false);
  a = call(44);
  ASSERT_TRUE(a.ok()) << a.status();  // the second failure, but not in a row
  EXPECT_EQ(a->bytes, "44");
  EXPECT_FALSE(c.declined_reason().has_value());
  c.Restart();
  fail_starts(true);
  EXPECT_EQ(WorkerFailureClass(call(45).status()), "worker-crashed");
  EXPECT_EQ(WorkerFailureClass(call(46).status()), "worker-crashed");
  fail_starts(false);
  const absl::Status declined = call(47).status();
  EXPECT_TRUE(IsDeclined(declined)) << declined;
  ASSERT_TRUE(c.declined_reason().has_value());
  EXPECT_NE(c.declined_reason()->find("failed to start twice"), std::string::npos);
  EXPECT_EQ(c.starts(), 6);
}

// SERDIFF_WORKER_TIMEOUT_MS as large as an int64 is a deadline far away, not one that
// overflowed into the past: the worker starts and answers.
TEST(WorkerStarts, AHugeTimeoutOverrideIsADeadlineFarAway) {
  setenv("SERDIFF_WORKER_TIMEOUT_MS", "9223372036854775807", 1);
  WorkerClient c(Manifest());
  int64_t peak = 0;
  const absl::StatusOr<ExternalAnswer> a = c.Call(kOp, Input(42), &peak);
  unsetenv("SERDIFF_WORKER_TIMEOUT_MS");
  ASSERT_TRUE(a.ok()) << a.status();
  EXPECT_EQ(a->bytes, "42");
  EXPECT_EQ(peak, 420);
  // And in the manifest: the largest int there is.
  WorkerManifest m = Manifest();
  m.timeout_ms = std::numeric_limits<int>::max();
  WorkerClient from_manifest(std::move(m));
  const absl::StatusOr<ExternalAnswer> b = from_manifest.Call(kOp, Input(43), &peak);
  ASSERT_TRUE(b.ok()) << b.status();
  EXPECT_EQ(b->bytes, "43");
}

}  // namespace
}  // namespace serdiff::harness
