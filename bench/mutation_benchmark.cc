// Mutation benchmark: the original measurement's shape (CASSANDRA-21535): one mutation holding
// one value of 128 B, 16 KiB, 256 KiB or 768 KiB, serialized from scratch.
//
//   cmake --preset bench && cmake --build --preset bench --target mutation_benchmark
//   build/bench/bench/mutation_benchmark --benchmark_repetitions=5
//       --benchmark_report_aggregates_only=true
//
// Names: serialize/<value size>/<implementation>
//   optimized   serdiff::mutation::Serialize: size walk, one exact allocation, direct write
//   small       serdiff::mutation::SerializeSmall with a threshold above every case (always
//               the scratch path: write into the per-thread buffer, then copy out)
//   reference   serdiff::mutation::SerializeViaGrowableBuffer: fresh growable buffer, then a
//               copy of exactly the written size (the way it was done before)
//   spec        serdiff::ref::mutation::SpecSerialize (one string per field; for scale only)
//   memcpy      a std::string copy of the output bytes (allocation + memcpy): the ceiling
// Counters: bytes_per_second = output bytes per second; items_per_second = ops/s.
#include <benchmark/benchmark.h>

#include <string>

#include "reference/mutation/spec_writer.h"
#include "serdiff/mutation/mutation.h"
#include "targets/mutation/domain.h"

namespace {

using serdiff::mutation::Mutation;

constexpr size_t kSizes[] = {128, 16 * 1024, 256 * 1024, 768 * 1024};

template <typename F>
void Run(benchmark::State& state, F&& serialize) {
  const Mutation m =
      serdiff::targets::mutation::SingleValueMutation(static_cast<size_t>(state.range(0)));
  const size_t out_size = *serdiff::mutation::SerializedSize(m);
  for (auto _ : state) {
    auto out = serialize(m);
    benchmark::DoNotOptimize(out);
  }
  state.SetBytesProcessed(static_cast<int64_t>(state.iterations() * out_size));
  state.SetItemsProcessed(static_cast<int64_t>(state.iterations()));
}

void BM_Optimized(benchmark::State& state) {
  Run(state, [](const Mutation& m) { return serdiff::mutation::Serialize(m); });
}
void BM_Small(benchmark::State& state) {
  Run(state, [](const Mutation& m) { return serdiff::mutation::SerializeSmall(m, 1 << 30); });
}
void BM_Reference(benchmark::State& state) {
  Run(state, [](const Mutation& m) { return serdiff::mutation::SerializeViaGrowableBuffer(m); });
}
void BM_Spec(benchmark::State& state) {
  Run(state, [](const Mutation& m) { return serdiff::ref::mutation::SpecSerialize(m); });
}
void BM_Memcpy(benchmark::State& state) {
  const Mutation m =
      serdiff::targets::mutation::SingleValueMutation(static_cast<size_t>(state.range(0)));
  const std::string bytes = *serdiff::mutation::Serialize(m);
  for (auto _ : state) {
    std::string copy(bytes);
    benchmark::DoNotOptimize(copy);
  }
  state.SetBytesProcessed(static_cast<int64_t>(state.iterations() * bytes.size()));
  state.SetItemsProcessed(static_cast<int64_t>(state.iterations()));
}

void Sizes(benchmark::internal::Benchmark* b) {
  for (size_t s : kSizes) b->Arg(static_cast<int64_t>(s));
}

BENCHMARK(BM_Optimized)->Name("serialize/optimized")->Apply(Sizes);
BENCHMARK(BM_Small)->Name("serialize/small")->Apply(Sizes);
BENCHMARK(BM_Reference)->Name("serialize/reference")->Apply(Sizes);
BENCHMARK(BM_Spec)->Name("serialize/spec")->Apply(Sizes);
BENCHMARK(BM_Memcpy)->Name("serialize/memcpy")->Apply(Sizes);

// Threshold sweep for the small path: mutations of 64 B .. 64 KiB values through the optimized
// and small paths (chooses kDefaultSmallThreshold).
void ThresholdSizes(benchmark::internal::Benchmark* b) {
  for (int64_t s : {64, 512, 2048, 4096, 8192, 16384, 65536}) b->Arg(s);
}
BENCHMARK(BM_Optimized)->Name("threshold/optimized")->Apply(ThresholdSizes);
BENCHMARK(BM_Small)->Name("threshold/small")->Apply(ThresholdSizes);

}  // namespace

BENCHMARK_MAIN();
