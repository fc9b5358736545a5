// `serdiff review`: its rules (harness/review.h) on hand-made pairs of runs, its speed statistics
// on synthetic samples with a known answer, and the command on planted pairs (the self-test
// targets, the example worker and its variants) and pairs that must pass.
#include "harness/review.h"

#include <sys/wait.h>
#include <unistd.h>

#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <random>
#include <sstream>
#include <string>
#include <vector>

#include "absl/status/status.h"
#include "absl/strings/match.h"
#include "absl/strings/str_cat.h"
#include "gtest/gtest.h"
#include "harness/domains.h"
#include "harness/external.h"
#include "harness/result.h"
#include "harness/typed_target.h"
#include "serdiff/common/error_offset.h"
#include "tests/run_cli.h"

namespace serdiff::harness {
namespace {

using serdiff::testing_support::RunCli;
using serdiff::testing_support::RunShell;

MeasuredOutput Accepts(std::string bytes, int64_t peak = 0) { return {std::move(bytes), peak}; }
MeasuredOutput RejectsAt(int64_t offset, int64_t peak = 0) {
  return {InvalidAt(offset, "bad"), peak};
}
MeasuredOutput RejectsWithoutOffset(int64_t peak = 0) {
  return {absl::InvalidArgumentError("bad"), peak};
}

TEST(ReviewRules, IdenticalSidesAgree) {
  const Difference d = CompareSides(Accepts("abc", 100), Accepts("abc", 100), {});
  EXPECT_TRUE(d.compared);
  EXPECT_EQ(d.cls, "");
  EXPECT_TRUE(d.heap_compared);
}

TEST(ReviewRules, OutcomeChangedEitherWay) {
  const Difference a = CompareSides(Accepts("abc"), RejectsAt(0), {});
  EXPECT_EQ(a.cls, "class-changed");
  EXPECT_EQ(a.details, "before accepted (3 bytes), after rejected (INVALID_ARGUMENT)");
  const Difference b = CompareSides(RejectsAt(0), Accepts("abc"), {});
  EXPECT_EQ(b.cls, "class-changed");
  EXPECT_EQ(b.details, "before rejected (INVALID_ARGUMENT), after accepted (3 bytes)");
}

TEST(ReviewRules, BytesChangedAtTheFirstDifferingByte) {
  EXPECT_EQ(*CompareSides(Accepts("abcd"), Accepts("abXd"), {}).first_difference, 2);
  EXPECT_EQ(CompareSides(Accepts("abcd"), Accepts("abXd"), {}).cls, "bytes-changed");
  // One output a prefix of the other: the first byte the shorter lacks.
  EXPECT_EQ(*CompareSides(Accepts("ab"), Accepts("abc"), {}).first_difference, 2);
  EXPECT_EQ(*CompareSides(Accepts("abc"), Accepts("ab"), {}).first_difference, 2);
  EXPECT_EQ(*CompareSides(Accepts(""), Accepts("a"), {}).first_difference, 0);
}

TEST(ReviewRules, OffsetsComparedWhereBothSidesGiveOne) {
  EXPECT_EQ(CompareSides(RejectsAt(3), RejectsAt(3), {}).cls, "");
  const Difference d = CompareSides(RejectsAt(3), RejectsAt(4), {});
  EXPECT_EQ(d.cls, "offset-changed");
  EXPECT_EQ(d.details, "before rejects at input byte 3, after at 4");
  EXPECT_EQ(CompareSides(RejectsAt(3), RejectsWithoutOffset(), {}).cls, "");
  EXPECT_EQ(CompareSides(RejectsWithoutOffset(), RejectsAt(3), {}).cls, "");
  // Either way: an offset that moves earlier is a change too.
  const Difference earlier = CompareSides(RejectsAt(4), RejectsAt(3), {});
  EXPECT_EQ(earlier.cls, "offset-changed");
  EXPECT_EQ(earlier.details, "before rejects at input byte 4, after at 3");
}

TEST(ReviewRules, ADeclineIsNotCompared) {
  const Difference d = CompareSides(Accepts("a"), {Declined("no such type"), -1}, {});
  EXPECT_FALSE(d.compared);
  EXPECT_EQ(d.declined_by, "after");
  EXPECT_EQ(d.cls, "");
  const Difference e = CompareSides({Declined("old version"), -1}, RejectsAt(0), {});
  EXPECT_FALSE(e.compared);
  EXPECT_EQ(e.declined_by, "before");
}

TEST(ReviewRules, AWorkerFailureNamesItsSide) {
  const MeasuredOutput crashed{WorkerFailure("worker-crashed", "exit 9"), -1};
  EXPECT_EQ(CompareSides(Accepts("a"), crashed, {}).cls, "worker-crashed:after");
  EXPECT_EQ(CompareSides(crashed, Accepts("a"), {}).cls, "worker-crashed:before");
  // A worker failure comes before a decline of the other side.
  EXPECT_EQ(CompareSides({Declined("x"), -1}, crashed, {}).cls, "worker-crashed:after");
}

TEST(ReviewRules, HeapAllowanceIsExactToTheByte) {
  const HeapTolerance t{10, 256};
  EXPECT_EQ(HeapAllowance(1000, t), 1356);
  EXPECT_EQ(HeapAllowance(1009, t), 1009 + 100 + 256);  // 10 % rounded down
  EXPECT_EQ(HeapAllowance(0, t), 256);
  EXPECT_EQ(HeapAllowance(1000, {0, 0}), 1000);
  // At the allowance: passes; one byte over: heap-grew; one under: passes.
  EXPECT_EQ(CompareSides(Accepts("x", 1000), Accepts("x", 1356), t).cls, "");
  EXPECT_EQ(CompareSides(Accepts("x", 1000), Accepts("x", 1355), t).cls, "");
  const Difference d = CompareSides(Accepts("x", 1000), Accepts("x", 1357), t);
  EXPECT_EQ(d.cls, "heap-grew");
  EXPECT_EQ(d.details, "after peaks at 1357 B, before at 1000 B; allowed 1356 B (+10 % + 256 B)");
  // No tolerance, no slack: equal passes, one more byte fails.
  EXPECT_EQ(CompareSides(Accepts("x", 500), Accepts("x", 500), {0, 0}).cls, "");
  EXPECT_EQ(CompareSides(Accepts("x", 500), Accepts("x", 501), {0, 0}).cls, "heap-grew");
}

TEST(ReviewRules, HeapIsJudgedOnTheAfterSideOnly) {
  // The before side being hungrier is an improvement, never a regression (sides not swapped).
  EXPECT_EQ(CompareSides(Accepts("x", 1 << 20), Accepts("x", 0), {0, 0}).cls, "");
  // The allowance grows with the before side's peak, not the after side's.
  EXPECT_EQ(CompareSides(Accepts("x", 100), Accepts("x", 10000), {50, 0}).cls, "heap-grew");
  // A before side that allocates nothing (a compiled target with a small output) is compared
  // too: the allowance is then the slack alone.
  const Difference from_zero = CompareSides(Accepts("x", 0), Accepts("x", 257), {10, 256});
  EXPECT_TRUE(from_zero.heap_compared);
  EXPECT_EQ(from_zero.cls, "heap-grew");
  EXPECT_EQ(from_zero.details,
            "after peaks at 257 B, before at 0 B; allowed 256 B (+10 % + 256 B)");
  EXPECT_EQ(CompareSides(Accepts("x", 0), Accepts("x", 256), {10, 256}).cls, "");
}

TEST(ReviewRules, HeapOnRejectionsToo) {
  EXPECT_EQ(CompareSides(RejectsAt(1, 10), RejectsAt(1, 1 << 20), {}).cls, "heap-grew");
}

TEST(ReviewRules, UnknownPeaksAreNotCompared) {
  const Difference d = CompareSides(Accepts("x", -1), Accepts("x", 1 << 30), {0, 0});
  EXPECT_EQ(d.cls, "");
  EXPECT_FALSE(d.heap_compared);
  EXPECT_FALSE(CompareSides(Accepts("x", 5), Accepts("x", -1), {0, 0}).heap_compared);
}

TEST(ReviewRules, BytesBeforeHeap) {
  // A change of bytes is reported as such even when the heap grew too.
  EXPECT_EQ(CompareSides(Accepts("a", 0), Accepts("b", 1 << 20), {0, 0}).cls, "bytes-changed");
}

// ---- speed
// ---------------------------------------------------------------------------------------

std::vector<double> Noisy(double centre, double spread, int n, uint64_t seed) {
  std::mt19937_64 rng(seed);
  std::uniform_real_distribution<double> u(-spread, spread);
  std::vector<double> v;
  for (int i = 0; i < n; ++i) v.push_back(centre + u(rng));
  return v;
}

TEST(ReviewSpeed, AShiftIsFound) {
  const SpeedEstimate e = EstimateSpeed(Noisy(200, 10, 30, 1), Noisy(100, 5, 30, 2));
  EXPECT_EQ(e.verdict, "faster");
  EXPECT_NEAR(e.ratio, 2.0, 0.15);
  EXPECT_LE(e.low, e.ratio);
  EXPECT_GE(e.high, e.ratio);
  EXPECT_GT(e.low, 1.7);
  EXPECT_LT(e.high, 2.3);
  EXPECT_EQ(e.rounds, 30);
  const SpeedEstimate s = EstimateSpeed(Noisy(100, 5, 30, 3), Noisy(150, 5, 30, 4));
  EXPECT_EQ(s.verdict, "slower");
  EXPECT_LT(s.high, 1.0);
}

TEST(ReviewSpeed, IdenticalDistributionsGiveNoDifference) {
  const SpeedEstimate e = EstimateSpeed(Noisy(100, 20, 40, 5), Noisy(100, 20, 40, 6));
  EXPECT_EQ(e.verdict, "no difference at this precision");
  EXPECT_LT(e.low, 1.0);
  EXPECT_GT(e.high, 1.0);
}

TEST(ReviewSpeed, TheIntervalReflectsBothSidesNoise) {
  // The before side is exact, the after side noisy: an interval drawn from the before side alone
  // would have no width.
  const std::vector<double> exact(40, 100.0);
  const SpeedEstimate e = EstimateSpeed(exact, Noisy(100, 40, 40, 7));
  EXPECT_LT(e.low, 0.95);
  EXPECT_GT(e.high, 1.05);
  const SpeedEstimate f = EstimateSpeed(Noisy(100, 40, 40, 8), exact);
  EXPECT_LT(f.low, 0.95);
  EXPECT_GT(f.high, 1.05);
}

// Exact medians (no resample: the interval is the ratio): an even count takes the mean of the
// two middle samples, an odd one the middle one, in whatever order the samples come.
TEST(ReviewSpeed, TheRatioIsOfExactMedians) {
  EXPECT_EQ(EstimateSpeed({4, 1, 3, 2}, {1, 1, 1, 1}, 0).ratio, 2.5);
  EXPECT_EQ(EstimateSpeed({5, 1, 3}, {2, 2, 2}, 0).ratio, 1.5);
  EXPECT_EQ(EstimateSpeed({3, 3, 3, 3}, {2, 1, 4, 8}, 0).ratio, 1.0);
}

TEST(ReviewSpeed, TheSameSamplesGiveTheSameInterval) {
  const auto b = Noisy(120, 30, 25, 9), a = Noisy(100, 30, 25, 10);
  const SpeedEstimate x = EstimateSpeed(b, a), y = EstimateSpeed(b, a);
  EXPECT_EQ(x.low, y.low);
  EXPECT_EQ(x.high, y.high);
}

// The batch: the fewest calls with which the faster side's timing lasts the sample, the same for
// both sides, within 1..kMaxTimedBatch.
TEST(ReviewSpeed, TheBatchMakesTheFasterSidesTimingLastTheSample) {
  EXPECT_EQ(TimedBatch(100, 50, 20), 400);     // 20,000 ns / 50 ns
  EXPECT_EQ(TimedBatch(50, 100, 20), 400);     // either side may be the faster
  EXPECT_EQ(TimedBatch(30, 1000, 20), 667);    // 666.7 rounded up: at least the sample
  EXPECT_EQ(TimedBatch(20000, 30000, 20), 1);  // one call already lasts the sample
  EXPECT_EQ(TimedBatch(19999, 30000, 20), 2);
  EXPECT_EQ(TimedBatch(5e6, 6e6, 20), 1);
  EXPECT_EQ(TimedBatch(100, 50, 0), 1);  // --sample-us 0: one call a timing
  EXPECT_EQ(TimedBatch(0, 50, 20), kMaxTimedBatch);
  EXPECT_EQ(TimedBatch(0.02, 50, 20), kMaxTimedBatch);  // 1e6 calls: the cap, not 1e6 + 1
  EXPECT_EQ(TimedBatch(0.0201, 50, 20), 995025);
  EXPECT_EQ(TimedBatch(-1, 50, 20), 1);
  EXPECT_EQ(TimedBatch(std::nan(""), 50, 20), 1);
  EXPECT_EQ(TimedBatch(50, std::nan(""), 20), 1);
  EXPECT_EQ(TimedBatch(50, -1, 20), 1);
}

// A compiled implementation whose callable returns a std::string (the library's own result) is
// timed as it is (Impl::timed_run): its conversion to an Output and the std::function serdiff
// holds it in are serdiff's interchange, not the call, and in a call of a few ns they were half of
// the time (docs/benchmarks.md). One returning an Output, or any other type (whose conversion may
// be where its work is done), is timed through `run`.
TEST(ReviewSpeed, ACompiledCallIsTimedWithoutSerdiffsDispatch) {
  int direct = 0, through_run = 0, wrapped = 0;
  TargetDef<int64_t> def;
  def.name = "timed";
  def.domain = IntegerDomain<int64_t>("int64", rc::gen::arbitrary<int64_t>());
  def.optimized = {"optimized", [&](const int64_t& v) {
                     direct += v == 7 ? 1 : 1000;
                     return std::string("x");
                   }};
  ASSERT_TRUE(def.optimized.timed_run);
  // Counts the calls that go through serdiff's dispatch (the pairing with timed_run is broken
  // here on purpose, to see which of the two is timed).
  def.optimized.run = [&](const int64_t&) -> Output {
    ++through_run;
    return std::string("x");
  };
  def.others.push_back({"reference", [&](const int64_t& v) -> Output {
                          wrapped += v == 7 ? 1 : 1000;
                          return std::string("x");
                        }});
  def.others.push_back({"proxy", [](const int64_t&) -> const char* { return "x"; }});
  EXPECT_FALSE(def.others[0].timed_run);
  EXPECT_FALSE(def.others[1].timed_run);  // its conversion makes the string: not left out
  TypedTarget<int64_t> t(std::move(def));
  const std::string seven = t.Encode(7);
  EXPECT_EQ(t.TimeCalls(seven, "optimized", 3, 4).size(), 3u);
  EXPECT_EQ(direct, 12);
  EXPECT_EQ(through_run, 0);
  EXPECT_EQ(t.TimeCalls(seven, "optimized", 2, 0).size(), 2u);  // batch 0 is one call
  EXPECT_EQ(direct, 14);
  EXPECT_EQ(t.TimeCalls(seven, "reference", 2, 5).size(), 2u);
  EXPECT_EQ(wrapped, 10);
  EXPECT_EQ(t.TimeCalls(seven, "proxy", 1, 3).size(), 1u);
}

// ---- the command
// ---------------------------------------------------------------------------------

std::string TempDir(const std::string& name) {
  return testing_support::TempDir("review_test", name);
}

// The line after "  reproduce: " for the finding of this class.
std::string ReproduceLineOf(const std::string& out, const std::string& target,
                            const std::string& cls) {
  std::istringstream in(out);
  std::string line, last_repro;
  while (std::getline(in, line)) {
    if (absl::StartsWith(line, "  reproduce: ")) last_repro = line.substr(13);
    if (line == absl::StrCat("serdiff review: ", target, ": ", cls)) return last_repro;
  }
  return "";
}

TEST(ReviewCommand, APairThatMustPass) {
  const auto [rc, out] =
      RunCli("review --before optimized --after reference --filter varint_ --cases 40");
  EXPECT_EQ(rc, 0) << out;
  EXPECT_TRUE(absl::StrContains(out, "serdiff review: no regression")) << out;
  // The same implementation on both sides passes, heap included.
  const auto [rc2, out2] = RunCli(
      "review --selftest --before reference --after reference --filter selftest_ --cases 60");
  EXPECT_EQ(rc2, 0) << out2;
}

TEST(ReviewCommand, PlantedDifferencesFoundShrunkAndReproducible) {
  const std::string dir = TempDir("planted");
  const auto [rc, out] = RunCli(absl::StrCat(
      "review --selftest --before reference --after optimized --filter selftest_two_bugs "
      "--cases 200 --out ",
      dir));
  EXPECT_EQ(rc, 1) << out;
  // -1000..-1 rejected by the after side: shrunk to -1; below -1000 its bytes: to -1025.
  EXPECT_TRUE(absl::StrContains(out, "->  -1 (")) << out;
  EXPECT_TRUE(absl::StrContains(out, "->  -1025 (")) << out;
  EXPECT_TRUE(absl::StrContains(out, "serdiff review: selftest_two_bugs: class-changed")) << out;
  EXPECT_TRUE(absl::StrContains(out, "serdiff review: selftest_two_bugs: bytes-changed")) << out;
  const std::string repro = ReproduceLineOf(out, "selftest_two_bugs", "class-changed");
  ASSERT_FALSE(repro.empty()) << out;
  // As printed, from another directory.
  FILE* f = popen(absl::StrCat("cd / && ", repro, " 2>&1").c_str(), "r");
  ASSERT_NE(f, nullptr);
  std::string again;
  char buf[4096];
  while (size_t n = fread(buf, 1, sizeof buf, f)) again.append(buf, n);
  const int status = pclose(f);
  EXPECT_EQ(WEXITSTATUS(status), 1) << again;
  EXPECT_TRUE(absl::StrContains(again, "input:  -1\n")) << again;
  EXPECT_TRUE(absl::StrContains(again, "serdiff review: selftest_two_bugs: class-changed"))
      << again;
  std::filesystem::remove_all(dir);
}

TEST(ReviewCommand, OffsetAndHeapRegressions) {
  const std::string dir = TempDir("offset_heap");
  const auto [rc, out] = RunCli(absl::StrCat(
      "review --selftest --before reference --after optimized --filter selftest_offset_differs "
      "--cases 50 --out ",
      dir));
  EXPECT_EQ(rc, 1) << out;
  EXPECT_TRUE(absl::StrContains(out, "offset-changed: before rejects at input byte 0, after at 1"))
      << out;
  const auto [rc2, out2] = RunCli(absl::StrCat(
      "review --selftest --before reference --after optimized --filter selftest_heap_on_reject "
      "--cases 50 --out ",
      dir));
  EXPECT_EQ(rc2, 1) << out2;
  EXPECT_TRUE(absl::StrContains(out2, "heap-grew: after peaks at 1048576 B")) << out2;
  // Its printed repro, as printed from another directory, finds the same on the same side.
  const std::string repro = ReproduceLineOf(out2, "selftest_heap_on_reject", "heap-grew");
  ASSERT_FALSE(repro.empty()) << out2;
  const auto [rc_again, again] = RunShell(absl::StrCat("cd / && ", repro));
  EXPECT_EQ(rc_again, 1) << again;
  EXPECT_TRUE(absl::StrContains(again, "serdiff review: selftest_heap_on_reject: heap-grew"))
      << again;
  EXPECT_TRUE(absl::StrContains(again, "review: after peaks at 1048576 B, before at ")) << again;
  // A tolerance that covers it passes.
  const auto [rc3, out3] = RunCli(absl::StrCat(
      "review --selftest --before reference --after optimized --filter selftest_heap_on_reject "
      "--cases 50 --heap-slack 1048576 --out ",
      dir));
  EXPECT_EQ(rc3, 0) << out3;
  std::filesystem::remove_all(dir);
}

// The corpus's regression inputs are reviewed like its seeds: a corpus holding one input, -5,
// under regressions/ (where every input that once failed is kept) finds the class change and
// shrinks it to -1.
TEST(ReviewCommand, ARegressionInputIsReviewed) {
  const std::string corpus = TempDir("regression_corpus");
  const std::string out_dir = TempDir("regression_out");
  const auto [rc_seed, seeded] =
      RunCli(absl::StrCat("--selftest seed selftest_two_bugs --value -5 --corpus ", corpus));
  ASSERT_EQ(rc_seed, 0) << seeded;
  const std::filesystem::path family = std::filesystem::path(corpus) / "selftest_two_bugs";
  std::filesystem::create_directories(family / "regressions");
  int moved = 0;
  for (const auto& e : std::filesystem::directory_iterator(family)) {
    if (!e.is_regular_file()) continue;
    std::filesystem::rename(e.path(), family / "regressions" / e.path().filename());
    ++moved;
  }
  ASSERT_EQ(moved, 1);
  const auto [rc, out] = RunCli(absl::StrCat(
      "--selftest review --before reference --after optimized --filter selftest_two_bugs "
      "--cases 0 --corpus ",
      corpus, " --out ", out_dir));
  EXPECT_EQ(rc, 1) << out;
  EXPECT_TRUE(absl::StrContains(out,
                                "selftest_two_bugs                      1        1        0"
                                "         1"))
      << out;
  EXPECT_TRUE(absl::StrContains(out, "shrunk: -5  ->  -1 (")) << out;
  EXPECT_TRUE(absl::StrContains(out, "serdiff review: selftest_two_bugs: class-changed")) << out;
  std::filesystem::remove_all(corpus);
  std::filesystem::remove_all(out_dir);
}

TEST(ReviewCommand, UsageErrors) {
  EXPECT_EQ(RunCli("review --before no_such_impl --after reference").first, 2);
  const auto [rc, out] =
      RunCli("review --before optimized --before-env A=1 --after reference --filter varint_zigzag");
  EXPECT_EQ(rc, 2) << out;
  EXPECT_TRUE(absl::StrContains(out, "--before-env applies to a worker")) << out;
  EXPECT_EQ(RunCli("review --before optimized --after reference --input /nonexistent").first, 2);
  EXPECT_EQ(RunCli("review --before optimized").first, 2);
}

// A worker reviewed against itself passes: its heap noise (the manifest's "heap_noise", measured
// that way) and the confirmation of each finding keep a moving figure from being a regression.
TEST(ReviewCommand, AShippedWorkerAgainstItselfPasses) {
  for (const char* w : {"python_cassandra", "pymongo"}) {
    const auto [rc, out] = RunCli(
        absl::StrCat("review --before ", w, " --after ", w, " --cases 60 --out ", TempDir("self")));
    EXPECT_EQ(rc, 0) << w << "\n" << out;
    EXPECT_TRUE(absl::StrContains(out, "serdiff review: no regression")) << out;
  }
  absl::StatusOr<WorkerManifest> m =
      ReadWorkerManifest(std::string(SERDIFF_CORPUS_DIR) + "/../oracles/js_bson/worker.json");
  ASSERT_TRUE(m.ok()) << m.status();
  EXPECT_EQ(m->heap_noise_percent, 10);
  EXPECT_EQ(m->heap_noise_bytes, 262144);
  const auto [rc, out] = RunCli(
      "review --before pymongo --after pymongo --filter bson_decode "
      "--cases 0");
  EXPECT_TRUE(absl::StrContains(out,
                                "heap allowance before + 10 % + 8448 B (of which 0 % + 8192 B "
                                "the runtime's heap noise, as its manifest states)"))
      << out;
}

// Writes a Python worker `name` for bson_format_int64 into `dir` and returns its manifest's path.
// Its int64.to_decimal counts its calls in calls[0], runs `held_lines` (Python, indented four
// spaces, setting `held`: bytes held during the call, so that tracemalloc's peak sees them) and
// answers the value's digits.
std::string WriteHeapWorker(const std::string& dir, const std::string& name,
                            const std::string& held_lines, const std::string& prelude = "") {
  std::ofstream(dir + "/" + name + "_worker.py")
      << "import os, sys\n"
      << "sys.path.insert(0, '" << SERDIFF_CORPUS_DIR << "/../workers/python')\n"
      << "import serdiff_worker as sw\n"
      << "calls = [0]\n"
      << prelude << "def to_decimal(inp):\n"
      << "    calls[0] += 1\n"
      << held_lines << "    return ('hex', str(int(inp['value'])).encode() + held[:0])\n"
      << "sw.serve(name='" << name << "', ops={'int64.to_decimal': to_decimal})\n";
  std::ofstream(dir + "/worker.json")
      << R"({"name": ")" << name << R"(", "command": ["/usr/bin/python3", ")" << name
      << R"(_worker.py"], "targets": ["bson_format_int64"], "default": false})";
  return dir + "/worker.json";
}

// A heap figure that moves between runs is reported unconfirmed and does not fail the review: a
// worker that, with JITTER=1, holds 1 MiB during every fourth call (so at most one of the three
// back-to-back confirming re-runs sees it).
TEST(ReviewCommand, AMovingHeapFigureIsUnconfirmed) {
  if (std::system("test -x /usr/bin/python3") != 0) GTEST_SKIP() << "no /usr/bin/python3";
  const std::string dir = TempDir("jitter");
  const std::string m = WriteHeapWorker(
      dir, "jitter",
      "    held = bytes(1 << 20) if os.environ.get('JITTER') and calls[0] % 4 == 0 else b''\n");
  const auto [rc, out] = RunCli(absl::StrCat("review --before ", m, " --after ", m,
                                             " --after-env JITTER=1 --cases 30", " --out ", dir));
  EXPECT_EQ(rc, 0) << out;
  EXPECT_TRUE(absl::StrContains(out, "bson_format_int64: heap-grew: after peaks at ")) << out;
  EXPECT_TRUE(absl::StrContains(out, "unconfirmed: the same class on ")) << out;
  EXPECT_FALSE(absl::StrContains(out, "serdiff review: bson_format_int64: heap-grew")) << out;
  EXPECT_TRUE(absl::StrContains(out, "serdiff review: no regression (0 confirmed differences"))
      << out;
  std::filesystem::remove_all(dir);
}

// Two of three is enough: a worker that, with TWO_IN_THREE=1, holds 1 MiB on two calls of every
// three gives the class on exactly two of the three back-to-back confirming re-runs, which is a
// confirmed regression (kConfirmNeeded), where the jitter worker above, at most one, is not.
TEST(ReviewCommand, TwoOfThreeConfirmingRunsAreAConfirmation) {
  if (std::system("test -x /usr/bin/python3") != 0) GTEST_SKIP() << "no /usr/bin/python3";
  const std::string dir = TempDir("two_in_three");
  const std::string m = WriteHeapWorker(
      dir, "two_in_three",
      "    held = bytes(1 << 20) if os.environ.get('TWO_IN_THREE') and calls[0] % 3 else b''\n");
  const auto [rc, out] = RunCli(absl::StrCat("review --before ", m, " --after ", m,
                                             " --after-env TWO_IN_THREE=1 --cases 10 --out ", dir));
  EXPECT_EQ(rc, 1) << out;
  EXPECT_TRUE(absl::StrContains(out, "serdiff review: bson_format_int64: heap-grew")) << out;
  EXPECT_FALSE(absl::StrContains(out, "unconfirmed: the same class on ")) << out;
  std::filesystem::remove_all(dir);
}

// A finding whose smallest form matches only now and then is kept as found: the after side's
// worker grows by 1 MiB on every call for values of 1,000 or more in magnitude, and on one call
// in three below, so the search keeps a small value on a lucky call; its confirmation (3 re-runs)
// fails, and the input as found, which grows every time, is written and printed.
TEST(ReviewCommand, AShrunkFormThatDoesNotConfirmIsNotKept) {
  if (std::system("test -x /usr/bin/python3") != 0) GTEST_SKIP() << "no /usr/bin/python3";
  const std::string dir = TempDir("moving");
  const std::string m = WriteHeapWorker(
      dir, "moving",
      "    v = int(inp['value'])\n"
      "    grow = os.environ.get('MOVING') and (abs(v) >= 1000 or calls[0] % 3 == 0)\n"
      "    held = bytes(1 << 20) if grow else b''\n");
  const auto [rc, out] = RunCli(absl::StrCat("review --before ", m, " --after ", m,
                                             " --after-env MOVING=1 --cases 30 --out ", dir));
  EXPECT_EQ(rc, 1) << out;
  EXPECT_TRUE(absl::StrContains(out, "serdiff review: bson_format_int64: heap-grew")) << out;
  EXPECT_TRUE(absl::StrContains(out, " re-runs: not confirmed, the input as found is kept")) << out;
  EXPECT_FALSE(absl::StrContains(out, "  shrunk: ")) << out;
  // The written input shows the class when its printed line is run.
  const std::string repro = ReproduceLineOf(out, "bson_format_int64", "heap-grew");
  ASSERT_FALSE(repro.empty()) << out;
  const auto [rc_again, again] = RunShell(absl::StrCat("cd / && ", repro));
  EXPECT_EQ(rc_again, 1) << again;
  EXPECT_TRUE(absl::StrContains(again, "serdiff review: bson_format_int64: heap-grew")) << again;
  std::filesystem::remove_all(dir);
}

// The example worker (examples/own_worker) against its own variants, chosen through the after
// side's environment: the same manifest on both sides.
const std::string kExampleWorker =
    std::string(SERDIFF_CORPUS_DIR) + "/../examples/own_worker/worker.json";

// `--json -` leaves stdout to the JSON report alone (the tables go to stderr), so that a JSON
// reader can take it, for check and for review (a new user's trial found both mixed).
TEST(JsonToStdout, TheReportIsAllOfStdout) {
  for (const char* args :
       {" --no-workers check --cases 3 --filter varint_zigzag64 --json -",
        " review --before optimized --after reference --filter varint_zigzag64 --cases 3 "
        "--time-rounds 0 --json -"}) {
    const auto [rc, out] = RunShell(absl::StrCat("(", SERDIFF_CLI, args, " 2>/dev/null)"));
    EXPECT_EQ(rc, 0) << args << "\n" << out;
    ASSERT_FALSE(out.empty()) << args;
    EXPECT_EQ(out.front(), '{') << args << "\n" << out;
    EXPECT_TRUE(absl::EndsWith(out, "}\n") || absl::EndsWith(out, "}")) << args << "\n" << out;
    EXPECT_FALSE(absl::StrContains(out, "targets, 0 failures")) << out;
    EXPECT_FALSE(absl::StrContains(out, "serdiff review:")) << out;
  }
}

// `check --subject` takes the same rule as review's sides: a worker named "slow" is the subject
// of the one target it joins, not of the 25 timestamp targets whose compiled reference is also
// called "slow" (which were judged as if they were the worker, 126 heap-bound failures).
TEST(SubjectByName, AWorkerSubjectIsNeverACompiledNamesake) {
  if (std::system("test -x /usr/bin/python3") != 0) GTEST_SKIP() << "no /usr/bin/python3";
  const std::string dir = TempDir("subject_slow");
  const std::string m = WriteHeapWorker(dir, "slow", "    held = b''\n");
  const auto [rc, out] = RunCli(absl::StrCat(
      "--no-workers --worker ", m, " --subject slow check --cases 2 --failures-dir ", dir));
  EXPECT_TRUE(absl::StrContains(out, "\n1 targets, ")) << out;
  EXPECT_FALSE(absl::StrContains(out, "timestamp_")) << out;
  // Without the worker, "slow" is the compiled reference, and the timestamp targets have it.
  const auto [rc2, out2] = RunCli(
      "--no-workers --subject slow check --cases 2 --filter "
      "timestamp_millis_to_civil");
  EXPECT_EQ(rc2, 0) << out2;
  EXPECT_TRUE(absl::StrContains(out2, "\n1 targets, 0 failures")) << out2;
  std::filesystem::remove_all(dir);
}

// A heap allowance narrowed on the command line is part of the printed reproduce line: a worker
// that, with MORE=1, holds 100 bytes more in each call is within the default slack (256 B) and
// beyond --heap-slack 0, and the printed line finds the same again only if it carries the slack.
TEST(ReviewCommand, TheReproduceLineKeepsANarrowedHeapAllowance) {
  if (std::system("test -x /usr/bin/python3") != 0) GTEST_SKIP() << "no /usr/bin/python3";
  const std::string dir = TempDir("narrow");
  const std::string m = WriteHeapWorker(dir, "narrow", "    held = bytes(100) if MORE else b''\n",
                                        "MORE = bool(os.environ.get('MORE'))\n");
  const std::string sides =
      absl::StrCat("review --before ", m, " --after ", m,
                   " --after-env MORE=1 --cases 5 --time-rounds 0 --out ", dir);
  const auto [rc, out] = RunCli(sides);
  EXPECT_EQ(rc, 0) << out;
  const auto [rc2, out2] = RunCli(sides + " --heap-slack 0");
  EXPECT_EQ(rc2, 1) << out2;
  const std::string repro = ReproduceLineOf(out2, "bson_format_int64", "heap-grew");
  ASSERT_FALSE(repro.empty()) << out2;
  EXPECT_TRUE(absl::StrContains(repro, "=1 --heap-slack 0 --target ")) << repro;
  const auto [rc_again, again] = RunShell(absl::StrCat("cd / && ", repro));
  EXPECT_EQ(rc_again, 1) << again;
  EXPECT_TRUE(absl::StrContains(again, "serdiff review: bson_format_int64: heap-grew")) << again;
  std::filesystem::remove_all(dir);
}

// --max-slowdown P fails the review only when the after side is slower beyond 1 / (1 + P/100):
// a worker that, with SLOW=1, sleeps 300 us in each call (against a few us without) is a
// confirmed slowdown under 50 %, passes under a bound far beyond its measured ratio, and passes
// when the slow side is the before side; without the option a slowdown fails nothing. The worker
// is named "slow" on purpose: so is the timestamp family's compiled reference, which a review of
// the worker must not take for it (one target reviewed, not 26).
TEST(ReviewCommand, MaxSlowdownFailsOnlyASlowerAfterSide) {
  if (std::system("test -x /usr/bin/python3") != 0) GTEST_SKIP() << "no /usr/bin/python3";
  const std::string dir = TempDir("slow");
  // The environment read once (os.environ.get of an unset name raises and catches a KeyError,
  // which would be heap in every call of one side only).
  const std::string m = WriteHeapWorker(dir, "slow",
                                        "    if SLOW:\n"
                                        "        time.sleep(0.0003)\n"
                                        "    held = b''\n",
                                        "import time\nSLOW = bool(os.environ.get('SLOW'))\n");
  const std::string common =
      absl::StrCat(" --cases 3 --time-rounds 3 --time-calls 3 --warmup-ms 5 --out ", dir, " ");
  const std::string json = dir + "/r.json";
  const auto [rc, out] =
      RunCli(absl::StrCat("review --before ", m, " --after ", m, " --after-env SLOW=1", common,
                          "--max-slowdown 50 --json ", json));
  EXPECT_EQ(rc, 1) << out;
  EXPECT_TRUE(absl::StrContains(out, "; 1 target slower than --max-slowdown 50 allows)")) << out;
  std::stringstream js;
  js << std::ifstream(json).rdbuf();
  EXPECT_TRUE(absl::StrContains(js.str(), "\"verdict\":\"slower\",\"over_max_slowdown\":true"))
      << js.str();
  EXPECT_TRUE(absl::StrContains(js.str(), "\"passed\":false")) << js.str();
  EXPECT_TRUE(absl::StrContains(out, "(" + m + "); 1 targets;")) << out;
  EXPECT_TRUE(absl::StrContains(out, "): slower; slower by more than 50 %")) << out;
  EXPECT_FALSE(absl::StrContains(out, "serdiff review: no regression")) << out;
  // The bound is 1 / (1 + P/100): a 100,000-fold slowdown allowed is not reached.
  const auto [rc2, out2] =
      RunCli(absl::StrCat("review --before ", m, " --after ", m, " --after-env SLOW=1", common,
                          "--max-slowdown 10000000"));
  EXPECT_EQ(rc2, 0) << out2;
  EXPECT_TRUE(absl::StrContains(out2, "): slower\n")) << out2;
  // Faster is never a failure, even with no slowdown allowed.
  const auto [rc3, out3] = RunCli(absl::StrCat(
      "review --before ", m, " --before-env SLOW=1 --after ", m, common, "--max-slowdown 0"));
  EXPECT_EQ(rc3, 0) << out3;
  EXPECT_TRUE(absl::StrContains(out3, "): faster\n")) << out3;
  // Without the option a slowdown is reported and fails nothing.
  const auto [rc4, out4] =
      RunCli(absl::StrCat("review --before ", m, " --after ", m, " --after-env SLOW=1", common));
  EXPECT_EQ(rc4, 0) << out4;
  EXPECT_TRUE(absl::StrContains(out4, "): slower\n")) << out4;
  EXPECT_TRUE(absl::StrContains(out4, "serdiff review: no regression")) << out4;
  std::filesystem::remove_all(dir);
}

TEST(ReviewCommand, WorkerVariantsThroughTheEnvironment) {
  if (std::system("test -x /usr/bin/python3") != 0) GTEST_SKIP() << "no /usr/bin/python3";
  const std::string dir = TempDir("worker");
  const std::string json = dir + "/r.json";
  // The batch variant writes a null element as an empty value: a bytes change.
  const auto [rc, out] = RunCli(absl::StrCat(
      "review --before ", kExampleWorker, " --after ", kExampleWorker,
      " --after-env MY_WORKER_VARIANT=batch --filter cql_typed_encode --cases 60 --out ", dir,
      " --json ", json));
  EXPECT_EQ(rc, 1) << out;
  EXPECT_TRUE(absl::StrContains(out, "serdiff review: cql_typed_encode: bytes-changed")) << out;
  std::ifstream js(json);
  std::stringstream text;
  text << js.rdbuf();
  EXPECT_TRUE(absl::StrContains(text.str(), "\"schema_version\":1")) << text.str();
  EXPECT_TRUE(absl::StrContains(text.str(), "\"class\":\"bytes-changed\"")) << text.str();
  // The fragments variant: the same bytes, a heap regression, found on the size ladder too.
  const auto [rc2, out2] = RunCli(absl::StrCat(
      "review --before ", kExampleWorker, " --after ", kExampleWorker,
      " --after-env MY_WORKER_VARIANT=fragments --filter cql_typed_encode --cases 60 --out ", dir));
  EXPECT_EQ(rc2, 1) << out2;
  EXPECT_TRUE(absl::StrContains(out2, "serdiff review: cql_typed_encode: heap-grew")) << out2;
  EXPECT_FALSE(absl::StrContains(out2, "bytes-changed")) << out2;
  EXPECT_TRUE(absl::StrContains(out2, "70000    0%")) << out2;
  // Unchanged on both sides: no regression, and the worker times its calls.
  const auto [rc3, out3] =
      RunCli(absl::StrCat("review --before ", kExampleWorker, " --after ", kExampleWorker,
                          " --filter cql_typed_encode --cases 30 "
                          "--time-rounds 3 --time-calls 5 --warmup-ms 5 --out ",
                          dir));
  EXPECT_EQ(rc3, 0) << out3;
  EXPECT_TRUE(absl::StrContains(out3, "speed: speedup ")) << out3;
  EXPECT_TRUE(absl::StrContains(out3, "3 rounds of 5 timings of ")) << out3;
  // A misspelt variant declines every input: nothing was compared, which is no pass (exit 2),
  // and the summary says why.
  const auto [rc4, out4] = RunCli(
      absl::StrCat("review --before ", kExampleWorker, " --after ", kExampleWorker,
                   " --after-env MY_WORKER_VARIANT=fragmnets --filter cql_typed_encode --cases 5 "
                   "--time-rounds 0 --out ",
                   dir));
  EXPECT_EQ(rc4, 2) << out4;
  EXPECT_TRUE(absl::StrContains(out4, "after, first: declined: MY_WORKER_VARIANT=fragmnets"))
      << out4;
  EXPECT_TRUE(absl::StrContains(out4, "serdiff review: NOTHING COMPARED")) << out4;
  std::filesystem::remove_all(dir);
}

}  // namespace
}  // namespace serdiff::harness
