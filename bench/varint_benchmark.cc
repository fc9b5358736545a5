// varint family benchmark: optimized (serdiff::varint) vs reference (serdiff::ref::varint)
// vs protobuf, 1,000,000 int64 values per iteration, three distributions, encode and
// decode, zigzag then each format. Every benchmark reports `per_value` (CPU time per value,
// e.g. "2.14ns") and items_per_second; the Time column in ms per iteration equals ns per value.
//
//   cmake --preset bench -B build/bench && cmake --build build/bench --target varint_benchmark
//   build/bench/bench/varint_benchmark --benchmark_repetitions=5
//       --benchmark_report_aggregates_only=true     (one command line; docs/benchmarks.md)
//
// Names: <format>_zigzag_<encode|decode>/<distribution>/<implementation>.
//   distributions: small = uniform 0..127, uniform = uniform over all int64,
//                  pm1000 = uniform -1000..1000 (fixed seeds: every run sees the same values).
//   implementations: optimized = EncodeZigZagBatch / DecodeZigZagBatch into a preallocated
//                    buffer; optimized_string = the exact-size std::string overload;
//                    reference = the same calls in serdiff::ref::varint;
//                    protobuf = CodedOutputStream::WriteVarint64ToArray(ZigZagEncode64(v)) per
//                    value / CodedInputStream::ReadVarint64 + ZigZagDecode64 per value;
//                    protobuf_parse = google::protobuf::internal::ReadVarint64 (the unchecked
//                    pointer parser of generated code; the buffer has 16 bytes of slop).
#include <benchmark/benchmark.h>

#include <cstdint>
#include <functional>
#include <random>
#include <string>
#include <vector>

#include "google/protobuf/io/coded_stream.h"
#include "google/protobuf/parse_context.h"
#include "google/protobuf/wire_format_lite.h"
#include "reference/varint/varint_ref.h"
#include "serdiff/varint/varint.h"

namespace {

namespace opt = ::serdiff::varint;
namespace ref = ::serdiff::ref::varint;
using google::protobuf::internal::WireFormatLite;
using opt::Format;

constexpr size_t kValues = 1'000'000;

enum class Dist { kSmall, kUniform, kPm1000 };

const char* DistName(Dist d) {
  switch (d) {
    case Dist::kSmall:
      return "small";
    case Dist::kUniform:
      return "uniform";
    case Dist::kPm1000:
      return "pm1000";
  }
  return "?";
}

const std::vector<int64_t>& Values(Dist d) {
  static const auto* const all = [] {
    auto* v = new std::vector<std::vector<int64_t>>(3);
    std::mt19937_64 rng(20240917);
    std::uniform_int_distribution<int64_t> small(0, 127);
    std::uniform_int_distribution<int64_t> uniform(INT64_MIN, INT64_MAX);
    std::uniform_int_distribution<int64_t> pm1000(-1000, 1000);
    for (size_t i = 0; i < kValues; ++i) {
      (*v)[0].push_back(small(rng));
      (*v)[1].push_back(uniform(rng));
      (*v)[2].push_back(pm1000(rng));
    }
    return v;
  }();
  return (*all)[static_cast<int>(d)];
}

// The zigzag encoding of Values(d) in format f, plus 16 zero bytes of slop (not part of the
// decoded span except for protobuf_parse, which needs readable bytes past the end).
const std::vector<uint8_t>& Encoded(Format f, Dist d) {
  static std::vector<uint8_t> cache[3][3];
  std::vector<uint8_t>& e = cache[static_cast<int>(f)][static_cast<int>(d)];
  if (e.empty()) {
    const std::string s = ref::EncodeZigZagBatch(f, Values(d));
    e.assign(s.begin(), s.end());
    e.resize(e.size() + 16, 0);
  }
  return e;
}

void SetCounters(benchmark::State& state) {
  state.SetItemsProcessed(static_cast<int64_t>(state.iterations() * kValues));
  // Inverted iteration-invariant rate: CPU seconds per value, printed as e.g. "2.14ns".
  state.counters["per_value"] = benchmark::Counter(
      static_cast<double>(kValues),
      benchmark::Counter::kIsIterationInvariantRate | benchmark::Counter::kInvert);
}

// ---- encode -----------------------------------------------------------------------------------

void EncodeOptimized(benchmark::State& state, Format f, Dist d,
                     opt::BatchTier tier = opt::BatchTier::kAuto) {
  const std::vector<int64_t>& values = Values(d);
  std::vector<uint8_t> out(kValues * opt::kMaxLeb128Bytes);
  for (auto _ : state) {
    absl::StatusOr<size_t> n = opt::EncodeZigZagBatch(f, values, absl::MakeSpan(out), tier);
    benchmark::DoNotOptimize(n);
    benchmark::ClobberMemory();
  }
  SetCounters(state);
}

void EncodeOptimizedString(benchmark::State& state, Format f, Dist d) {
  const std::vector<int64_t>& values = Values(d);
  for (auto _ : state) {
    std::string s = opt::EncodeZigZagBatch(f, values);
    benchmark::DoNotOptimize(s.data());
    benchmark::ClobberMemory();
  }
  SetCounters(state);
}

void EncodeReference(benchmark::State& state, Format f, Dist d) {
  const std::vector<int64_t>& values = Values(d);
  std::vector<uint8_t> out(kValues * opt::kMaxLeb128Bytes);
  for (auto _ : state) {
    absl::StatusOr<size_t> n = ref::EncodeZigZagBatch(f, values, absl::MakeSpan(out));
    benchmark::DoNotOptimize(n);
    benchmark::ClobberMemory();
  }
  SetCounters(state);
}

void EncodeProtobuf(benchmark::State& state, Dist d) {
  using google::protobuf::io::CodedOutputStream;
  const std::vector<int64_t>& values = Values(d);
  std::vector<uint8_t> out(kValues * opt::kMaxLeb128Bytes);
  for (auto _ : state) {
    uint8_t* p = out.data();
    for (const int64_t v : values) {
      p = CodedOutputStream::WriteVarint64ToArray(WireFormatLite::ZigZagEncode64(v), p);
    }
    benchmark::DoNotOptimize(p);
    benchmark::ClobberMemory();
  }
  SetCounters(state);
}

// ---- decode -----------------------------------------------------------------------------------

absl::Span<const uint8_t> Payload(Format f, Dist d) {
  const std::vector<uint8_t>& e = Encoded(f, d);
  return absl::MakeConstSpan(e.data(), e.size() - 16);
}

void DecodeOptimized(benchmark::State& state, Format f, Dist d,
                     opt::BatchTier tier = opt::BatchTier::kAuto) {
  const absl::Span<const uint8_t> in = Payload(f, d);
  std::vector<int64_t> out(kValues);
  for (auto _ : state) {
    absl::StatusOr<size_t> n = opt::DecodeZigZagBatch(f, in, absl::MakeSpan(out), tier);
    if (!n.ok() || *n != in.size()) state.SkipWithError("decode failed");
    benchmark::DoNotOptimize(out.data());
    benchmark::ClobberMemory();
  }
  if (out != Values(d)) state.SkipWithError("decoded values differ");
  SetCounters(state);
}

void DecodeReference(benchmark::State& state, Format f, Dist d) {
  const absl::Span<const uint8_t> in = Payload(f, d);
  std::vector<int64_t> out(kValues);
  for (auto _ : state) {
    absl::StatusOr<size_t> n = ref::DecodeZigZagBatch(f, in, absl::MakeSpan(out));
    if (!n.ok() || *n != in.size()) state.SkipWithError("decode failed");
    benchmark::DoNotOptimize(out.data());
    benchmark::ClobberMemory();
  }
  if (out != Values(d)) state.SkipWithError("decoded values differ");
  SetCounters(state);
}

void DecodeProtobuf(benchmark::State& state, Dist d) {
  using google::protobuf::io::CodedInputStream;
  const absl::Span<const uint8_t> in = Payload(Format::kLeb128, d);
  std::vector<int64_t> out(kValues);
  for (auto _ : state) {
    CodedInputStream cis(in.data(), static_cast<int>(in.size()));
    for (int64_t& slot : out) {
      uint64_t u;
      if (!cis.ReadVarint64(&u)) {
        state.SkipWithError("decode failed");
        break;
      }
      slot = WireFormatLite::ZigZagDecode64(u);
    }
    benchmark::DoNotOptimize(out.data());
    benchmark::ClobberMemory();
  }
  if (out != Values(d)) state.SkipWithError("decoded values differ");
  SetCounters(state);
}

void DecodeProtobufParse(benchmark::State& state, Dist d) {
  const std::vector<uint8_t>& e = Encoded(Format::kLeb128, d);  // with 16 bytes of slop
  std::vector<int64_t> out(kValues);
  for (auto _ : state) {
    const char* p = reinterpret_cast<const char*>(e.data());
    for (int64_t& slot : out) {
      slot = WireFormatLite::ZigZagDecode64(google::protobuf::internal::ReadVarint64(&p));
    }
    if (p == nullptr) state.SkipWithError("decode failed");
    benchmark::DoNotOptimize(out.data());
    benchmark::ClobberMemory();
  }
  if (out != Values(d)) state.SkipWithError("decoded values differ");
  SetCounters(state);
}

// ---- registration -------------------------------------------------------------------------------

void Register(const std::string& name, std::function<void(benchmark::State&)> fn) {
  benchmark::RegisterBenchmark(name.c_str(), std::move(fn))->Unit(benchmark::kMillisecond);
}

// Every tier this machine runs, each forced (the "optimized" rows run kAuto, whichever it is).
const std::vector<opt::BatchTier> kTiers = [] {
  std::vector<opt::BatchTier> tiers;
  for (const opt::BatchTier t : {opt::BatchTier::kPortable, opt::BatchTier::kSse2,
                                 opt::BatchTier::kBmi2, opt::BatchTier::kAvx512}) {
    if (opt::BatchTierSupported(t)) tiers.push_back(t);
  }
  return tiers;
}();

const int registered = [] {
  for (const Format f : {Format::kLeb128, Format::kFory, Format::kVInt}) {
    const std::string fmt(opt::FormatName(f));
    for (const Dist d : {Dist::kSmall, Dist::kUniform, Dist::kPm1000}) {
      const std::string enc = fmt + "_zigzag_encode/" + DistName(d) + "/";
      Register(enc + "optimized", [f, d](benchmark::State& s) { EncodeOptimized(s, f, d); });
      for (const opt::BatchTier t : kTiers) {
        Register(enc + "tier_" + std::string(opt::BatchTierName(t)),
                 [f, d, t](benchmark::State& s) { EncodeOptimized(s, f, d, t); });
      }
      Register(enc + "optimized_string",
               [f, d](benchmark::State& s) { EncodeOptimizedString(s, f, d); });
      Register(enc + "reference", [f, d](benchmark::State& s) { EncodeReference(s, f, d); });
      if (f == Format::kLeb128) {
        Register(enc + "protobuf", [d](benchmark::State& s) { EncodeProtobuf(s, d); });
      }
      const std::string dec = fmt + "_zigzag_decode/" + DistName(d) + "/";
      Register(dec + "optimized", [f, d](benchmark::State& s) { DecodeOptimized(s, f, d); });
      for (const opt::BatchTier t : kTiers) {
        Register(dec + "tier_" + std::string(opt::BatchTierName(t)),
                 [f, d, t](benchmark::State& s) { DecodeOptimized(s, f, d, t); });
      }
      Register(dec + "reference", [f, d](benchmark::State& s) { DecodeReference(s, f, d); });
      if (f == Format::kLeb128) {
        Register(dec + "protobuf", [d](benchmark::State& s) { DecodeProtobuf(s, d); });
        Register(dec + "protobuf_parse", [d](benchmark::State& s) { DecodeProtobufParse(s, d); });
      }
    }
  }
  return 0;
}();

}  // namespace

// The context block of every run names the tier the unforced ("optimized") rows dispatched to.
int main(int argc, char** argv) {
  benchmark::AddCustomContext("varint_auto_tier",
                              std::string(opt::BatchTierName(opt::AutoBatchTier())));
  benchmark::Initialize(&argc, argv);
  if (benchmark::ReportUnrecognizedArguments(argc, argv)) return 1;
  benchmark::RunSpecifiedBenchmarks();
  benchmark::Shutdown();
  return 0;
}
