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
//
// Names: decode/<implementation>/shape:<n> (bytes_per_second = input bytes per second)
//   shapes      shape:0, rows: the mutation of a full-budget spec (cells of every kind, markers,
//               complex columns); shape:1, 65,536 one-byte empty rows (the decoders' worst
//               input for heap, docs/mutation.md "Decoder heap")
//   optimized   serdiff::mutation::Deserialize (the flat DecodedMutation)
//   reference   serdiff::ref::mutation::RefDeserialize (the same form, written separately)
//   tree        Deserialize, then ToMutation() (the model.h tree a caller may want)
// The same source builds against a tree whose decoders returned the tree (before 2026-12-06):
// there `tree` is skipped and `optimized` is the tree decoder, for an A/B of the two forms.
#include <benchmark/benchmark.h>

#include <string>
#include <string_view>

#include "reference/mutation/decoder_ref.h"
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

// ---- decoding ----

serdiff::mutation::Mutation DecodeShape(int64_t shape) {
  using namespace serdiff::mutation;  // NOLINT: the model's types
  if (shape == 0) {
    return serdiff::targets::mutation::BuildMutation(
        serdiff::targets::mutation::MutationSpec{7, 0, 8, 200, 12, 2, 64});
  }
  Mutation m;
  PartitionUpdate u;
  u.table_id[0] = 1;
  u.key = "k";
  u.row_estimate = 65536;
  u.unfiltereds.resize(65536);
  m.updates = {u};
  return m;
}

template <typename F>
void RunDecode(benchmark::State& state, F&& decode) {
  const Mutation m = DecodeShape(state.range(0));
  const std::string bytes = *serdiff::mutation::Serialize(m);
  const serdiff::mutation::Schema schema = serdiff::mutation::SchemaOf(m);
  for (auto _ : state) {
    auto d = decode(bytes, schema, m.version);
    if (!d.ok()) state.SkipWithError("decode failed");
    benchmark::DoNotOptimize(d);
  }
  state.SetBytesProcessed(static_cast<int64_t>(state.iterations() * bytes.size()));
  state.SetItemsProcessed(static_cast<int64_t>(state.iterations()));
}

auto Optimized(const std::string& bytes, const serdiff::mutation::Schema& schema,
               serdiff::mutation::Version v) {
  return serdiff::mutation::Deserialize(
      absl::Span<const uint8_t>(reinterpret_cast<const uint8_t*>(bytes.data()), bytes.size()), v,
      schema);
}

void BM_DecodeOptimized(benchmark::State& state) { RunDecode(state, Optimized); }
void BM_DecodeReference(benchmark::State& state) {
  RunDecode(state, [](const std::string& bytes, const serdiff::mutation::Schema& schema,
                      serdiff::mutation::Version v) {
    return serdiff::ref::mutation::RefDeserialize(bytes, v, schema);
  });
}
// The tree of a decode result: ToMutation() where the decoder returns the flat form; the result
// itself where it already is the tree (a decoder from before 2026-12-06).
template <typename D>
absl::StatusOr<Mutation> AsTree(D d) {
  if constexpr (requires { d->ToMutation(); }) {
    if (!d.ok()) return d.status();
    return d->ToMutation();
  } else {
    return d;
  }
}

void BM_DecodeTree(benchmark::State& state) {
  RunDecode(state,
            [](const std::string& bytes, const serdiff::mutation::Schema& schema,
               serdiff::mutation::Version v) { return AsTree(Optimized(bytes, schema, v)); });
}

void Shapes(benchmark::internal::Benchmark* b) {
  b->ArgName("shape");
  b->Arg(0)->Arg(1);
}
BENCHMARK(BM_DecodeOptimized)->Name("decode/optimized")->Apply(Shapes);
BENCHMARK(BM_DecodeReference)->Name("decode/reference")->Apply(Shapes);
BENCHMARK(BM_DecodeTree)->Name("decode/tree")->Apply(Shapes);

}  // namespace

BENCHMARK_MAIN();
