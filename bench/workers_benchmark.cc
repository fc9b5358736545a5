// The cost of implementations from outside (docs/workers.md, docs/benchmarks.md "Workers and
// modules"):
//   * BM_PipeFloor: one frame through a pipe to /bin/cat and back (no JSON, no dispatch): the
//     floor of any worker round trip (a blocking read(2));
//   * BM_PipeFloorClientRead: the same, read back with WorkerClient's own frame reader and its
//     spin (worker_frames.h), so that the floor and BM_Worker wait for an answer the same way
//     (counters "spun" and "slept": the waits that ended each way);
//   * BM_PipeEchoPython: the same frame through a Python loop that reads it and writes it back
//     (no JSON, no dispatch): the floor of a Python worker's round trip;
//   * BM_Worker/<worker>/<input>: WorkerClient::Call on the shipped workers (a worker whose
//     runtime or package is missing is skipped with the reason);
//   * BM_Int64Compiled / BM_Int64Module: bson_format_int64's optimized formatter as the target's
//     compiled-in implementation and the same function as a module (bench/workers/
//     int64_module.cc), each through its Impl's run, as the verdict calls them.
#include <fcntl.h>
#include <signal.h>
#include <sys/wait.h>
#include <unistd.h>

#include <chrono>
#include <cstdlib>
#include <memory>
#include <random>
#include <string>
#include <vector>

#include <benchmark/benchmark.h>

#include "absl/strings/str_cat.h"
#include "harness/alloc_tracker.h"
#include "harness/external.h"
#include "harness/target.h"
#include "harness/worker_frames.h"
#include "targets/families.h"

namespace {

using serdiff::harness::ExternalAnswer;
using serdiff::harness::WorkerClient;
namespace worker_frames = serdiff::harness::worker_frames;

// How PipeRoundTrip reads the frame back: a blocking read(2) (the bare floor), or as
// WorkerClient reads an answer (worker_frames::ReadFrame on a non-blocking pipe, spinning first
// for up to DefaultSpinLimit, then sleeping in poll), so that a floor can wait as BM_Worker does.
enum class ReadBack { kBlocking, kAsTheClient };

// A frame of 4 + n bytes through a child's stdin and back from its stdout. `argv`: the child's
// program path, then its argv (argv[0] first).
void PipeRoundTrip(benchmark::State& state, const std::vector<const char*>& argv,
                   ReadBack how = ReadBack::kBlocking) {
  int to[2], from[2];
  if (pipe(to) != 0 || pipe(from) != 0) {
    state.SkipWithError("pipe");
    return;
  }
  const pid_t pid = fork();
  if (pid == 0) {
    dup2(to[0], 0);
    dup2(from[1], 1);
    close(to[1]);
    close(from[0]);
    std::vector<char*> args;  // argv[0] is the program's path, the rest its argv
    for (size_t i = 1; i < argv.size(); ++i) args.push_back(const_cast<char*>(argv[i]));
    args.push_back(nullptr);
    execv(argv[0], args.data());
    _exit(127);
  }
  close(to[0]);
  close(from[1]);
  std::string frame(4 + static_cast<size_t>(state.range(0)), 'x');
  const uint32_t n = static_cast<uint32_t>(state.range(0));  // the length, big-endian
  frame[0] = static_cast<char>(n >> 24);
  frame[1] = static_cast<char>(n >> 16);
  frame[2] = static_cast<char>(n >> 8);
  frame[3] = static_cast<char>(n);
  std::string back(frame.size(), '\0');
  worker_frames::SpinWait spin;
  std::string ahead, body;
  if (how == ReadBack::kAsTheClient) {
    fcntl(from[0], F_SETFL, fcntl(from[0], F_GETFL) | O_NONBLOCK);
    spin.limit = worker_frames::DefaultSpinLimit();
  }
  for (auto _ : state) {
    if (write(to[1], frame.data(), frame.size()) != static_cast<ssize_t>(frame.size())) {
      state.SkipWithError("the write to the child failed");
      break;
    }
    if (how == ReadBack::kAsTheClient) {
      const absl::Status s = worker_frames::ReadFrame(
          from[0], worker_frames::Clock::now() + std::chrono::seconds(10), &ahead, &body, &spin);
      if (!s.ok() || body.size() != n) {
        state.SkipWithError("the child closed its pipe or sent another frame");
        break;
      }
      continue;
    }
    size_t got = 0;
    while (got < back.size()) {
      const ssize_t r = read(from[0], back.data() + got, back.size() - got);
      if (r <= 0) {
        state.SkipWithError("the child closed its pipe");
        break;
      }
      got += static_cast<size_t>(r);
    }
  }
  if (how == ReadBack::kAsTheClient) {
    state.counters["spun"] = static_cast<double>(spin.spun);
    state.counters["slept"] = static_cast<double>(spin.slept);
  }
  close(to[1]);
  close(from[0]);
  waitpid(pid, nullptr, 0);
}

// The floor of any worker round trip: /bin/cat, no framing, no JSON, no dispatch.
void BM_PipeFloor(benchmark::State& state) { PipeRoundTrip(state, {"/bin/cat", "cat"}); }
BENCHMARK(BM_PipeFloor)->Arg(40)->Arg(120);

// The same, read back as the client reads (spinning where DefaultSpinLimit allows: with the
// process pinned to one CPU it never spins, and the row differs from BM_PipeFloor by the poll).
void BM_PipeFloorClientRead(benchmark::State& state) {
  PipeRoundTrip(state, {"/bin/cat", "cat"}, ReadBack::kAsTheClient);
}
BENCHMARK(BM_PipeFloorClientRead)->Arg(40)->Arg(120);

// The least a Python worker does per call: read one frame (its length, then its body) from
// stdin's buffered stream and write it back with a flush, as workers/python/serdiff_worker.py
// reads and writes its frames, with no JSON, no dispatch and no tracemalloc. Its time over
// BM_PipeFloor is the interpreter's own share of a round trip.
constexpr char kPythonEcho[] =
    "import sys\n"
    "i, o = sys.stdin.buffer, sys.stdout.buffer\n"
    "while True:\n"
    "    h = i.read(4)\n"
    "    if len(h) < 4: break\n"
    "    o.write(h + i.read(int.from_bytes(h, 'big')))\n"
    "    o.flush()\n";
void BM_PipeEchoPython(benchmark::State& state) {
  if (access("/usr/bin/python3", X_OK) != 0) {
    state.SkipWithError("no /usr/bin/python3");
    return;
  }
  PipeRoundTrip(state, {"/usr/bin/python3", "python3", "-c", kPythonEcho});
}
BENCHMARK(BM_PipeEchoPython)->Arg(40)->Arg(120);

std::string OraclesManifest(const std::string& name) {
  return absl::StrCat(serdiff::harness::OraclesDir(), "/", name, "/worker.json");
}

std::string IntList(int n) {
  std::string v = "[";
  std::mt19937 rng(1);
  for (int i = 0; i < n; ++i) absl::StrAppend(&v, i ? "," : "", static_cast<int32_t>(rng()));
  return absl::StrCat("{\"type\":\"list<int>\",\"value\":", v, "],\"version\":4}");
}

void BM_Worker(benchmark::State& state, const std::string& worker, const std::string& op,
               const std::string& input) {
  absl::StatusOr<serdiff::harness::WorkerManifest> m =
      serdiff::harness::ReadWorkerManifest(OraclesManifest(worker));
  if (!m.ok()) {
    state.SkipWithError(std::string(m.status().message()).c_str());
    return;
  }
  WorkerClient client(*m);
  int64_t peak = 0;
  absl::StatusOr<ExternalAnswer> first = client.Call(op, input, &peak);  // starts it
  if (!first.ok()) {
    state.SkipWithError(std::string(first.status().message()).c_str());
    return;
  }
  for (auto _ : state) {
    absl::StatusOr<ExternalAnswer> a = client.Call(op, input, &peak);
    benchmark::DoNotOptimize(a);
  }
  state.counters["peak_bytes"] = static_cast<double>(peak);
  state.counters["output_bytes"] = static_cast<double>(first->bytes.size());
}

const std::string kInt64 = "{\"value\":\"-9223372036854775808\"}";
BENCHMARK_CAPTURE(BM_Worker, python_cassandra / int64, "python_cassandra", "int64.to_decimal",
                  kInt64);
BENCHMARK_CAPTURE(BM_Worker, python_cassandra / list_int_10, "python_cassandra", "cql.serialize",
                  IntList(10));
BENCHMARK_CAPTURE(BM_Worker, python_cassandra / list_int_500000, "python_cassandra",
                  "cql.serialize", IntList(500000))
    ->Unit(benchmark::kMillisecond)
    ->Iterations(5);
BENCHMARK_CAPTURE(BM_Worker, node_cassandra / int64, "node_cassandra", "int64.to_decimal", kInt64);
BENCHMARK_CAPTURE(BM_Worker, node_cassandra / list_int_10, "node_cassandra", "cql.serialize",
                  IntList(10));
BENCHMARK_CAPTURE(BM_Worker, node_cassandra / list_int_500000, "node_cassandra", "cql.serialize",
                  IntList(500000))
    ->Unit(benchmark::kMillisecond)
    ->Iterations(5);
BENCHMARK_CAPTURE(BM_Worker, pymongo / doc_1_key, "pymongo", "bson.encode",
                  std::string("{\"document\":{\"a\":{\"$numberLong\":\"-1\"}}}"));
BENCHMARK_CAPTURE(BM_Worker, js_bson / doc_1_key, "js_bson", "bson.encode",
                  std::string("{\"document\":{\"a\":{\"$numberLong\":\"-1\"}}}"));
BENCHMARK_CAPTURE(BM_Worker, fury / encode_10, "fury", "varint.fory_encode",
                  std::string("{\"values\":[\"1\",\"-1\",\"300\",\"-300\",\"9223372036854775807\","
                              "\"-9223372036854775808\",\"0\",\"127\",\"128\",\"65536\"],"
                              "\"zigzag\":true}"));

// 2^16 random int64 values, the same for both.
const std::vector<int64_t>& Values() {
  static const std::vector<int64_t>* v = [] {
    auto* out = new std::vector<int64_t>(1 << 16);
    std::mt19937_64 rng(7);
    for (int64_t& x : *out) x = static_cast<int64_t>(rng()) >> (rng() % 64);
    return out;
  }();
  return *v;
}

const serdiff::harness::TypedTarget<int64_t>& FormatTarget() {
  return dynamic_cast<const serdiff::harness::TypedTarget<int64_t>&>(
      *serdiff::targets::AllTargets().Find("bson_format_int64"));
}

void BM_Int64Compiled(benchmark::State& state) {
  const auto& run = FormatTarget().def().optimized.run;
  const std::vector<int64_t>& v = Values();
  size_t i = 0;
  for (auto _ : state) {
    auto out = run(v[i++ & 0xffff]);
    benchmark::DoNotOptimize(out);
  }
}
BENCHMARK(BM_Int64Compiled);

// The compiled-in side as the verdict runs it (harness/run_impls.h, RunImpl): under a
// PeakHeapScope, the peak read after the call. A module's measured_run does the same around its
// call, so this row against BM_Int64Module is the cost of the module boundary alone.
void BM_Int64CompiledMeasured(benchmark::State& state) {
  const auto& run = FormatTarget().def().optimized.run;
  const std::vector<int64_t>& v = Values();
  size_t i = 0;
  for (auto _ : state) {
    serdiff::harness::PeakHeapScope scope;
    serdiff::harness::MeasuredOutput out{run(v[i++ & 0xffff])};
    out.peak_bytes = scope.PeakBytes();
    benchmark::DoNotOptimize(out);
  }
}
BENCHMARK(BM_Int64CompiledMeasured);

void BM_Int64Module(benchmark::State& state) {
  const auto& refs = FormatTarget().def().others;
  const serdiff::harness::Impl<int64_t>* module = nullptr;
  for (const auto& r : refs) {
    if (r.name == "bench_int64") module = &r;
  }
  if (module == nullptr) {
    state.SkipWithError("bench_int64 module not attached");
    return;
  }
  const std::vector<int64_t>& v = Values();
  size_t i = 0;
  for (auto _ : state) {
    auto out = module->measured_run(v[i++ & 0xffff]);  // output and the call's peak
    benchmark::DoNotOptimize(out);
  }
}
BENCHMARK(BM_Int64Module);

}  // namespace

int main(int argc, char** argv) {
  // The module joins bson_format_int64 when the registry is built; no default workers.
  setenv("SERDIFF_MODULES", SERDIFF_BENCH_INT64_MODULE, 1);
  setenv("SERDIFF_DEFAULT_WORKERS", "0", 1);
  // A pipe child that died makes the next write fail (EPIPE, the row then stops) instead of
  // killing the benchmark.
  signal(SIGPIPE, SIG_IGN);
  benchmark::Initialize(&argc, argv);
  benchmark::RunSpecifiedBenchmarks();
  return 0;
}
