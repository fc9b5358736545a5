// A plain timing loop outside `serdiff review`, for docs/benchmarks.md ("serdiff review's timing
// against plain loops"): the call the review times on varint_leb128_zigzag_encode's size ladder
// (serdiff::varint::EncodeZigZagBatch, LEB128, into a new string: the optimized side; and the
// reference's serdiff::ref::varint::EncodeZigZagBatch), on the same values (the first `count`
// outputs of std::mt19937_64(42), as TargetDef::ladder draws them), measured the same way (15
// rounds of 20 calls, the median call of each round, the median round; the two sides' rounds
// interleaved, as the review interleaves them) but with nothing of serdiff's harness around it.
// Prints "count reference-ns optimized-ns speedup" lines (speedup: reference / optimized, the
// figure `serdiff review --before reference --after optimized` reports).
#include <algorithm>
#include <chrono>
#include <cstdint>
#include <cstdio>
#include <random>
#include <string>
#include <vector>

#include "reference/varint/varint_ref.h"
#include "serdiff/varint/varint.h"

namespace {

// The median of 20 timed calls of `encode` on v, in nanoseconds.
template <typename Encode>
double MedianOfCalls(const std::vector<int64_t>& v, Encode encode) {
  std::vector<double> calls;
  for (int c = 0; c < 20; ++c) {
    const auto start = std::chrono::steady_clock::now();
    std::string out = encode(serdiff::varint::Format::kLeb128, v);
    const auto end = std::chrono::steady_clock::now();
    asm volatile("" : : "r"(out.data()) : "memory");
    calls.push_back(static_cast<double>(
        std::chrono::duration_cast<std::chrono::nanoseconds>(end - start).count()));
  }
  std::sort(calls.begin(), calls.end());
  return calls[calls.size() / 2];
}

double Median(std::vector<double> v) {
  std::sort(v.begin(), v.end());
  return v[v.size() / 2];
}

// 15 rounds, the reference first in even rounds and the optimized side first in odd ones.
void Rounds(const std::vector<int64_t>& v, double* ref_ns, double* opt_ns) {
  auto ref = [](serdiff::varint::Format f, const std::vector<int64_t>& x) {
    return serdiff::ref::varint::EncodeZigZagBatch(f, x);
  };
  auto opt = [](serdiff::varint::Format f, const std::vector<int64_t>& x) {
    return serdiff::varint::EncodeZigZagBatch(f, x);
  };
  std::vector<double> r, o;
  for (int round = 0; round < 15; ++round) {
    if (round % 2 == 0) {
      r.push_back(MedianOfCalls(v, ref));
      o.push_back(MedianOfCalls(v, opt));
    } else {
      o.push_back(MedianOfCalls(v, opt));
      r.push_back(MedianOfCalls(v, ref));
    }
  }
  *ref_ns = Median(r);
  *opt_ns = Median(o);
}

}  // namespace

int main() {
  for (uint32_t count : {0u, 1u, 10u, 100u, 1000u, 10000u}) {
    std::mt19937_64 rng(42);
    std::vector<int64_t> v(count);
    for (int64_t& x : v) x = static_cast<int64_t>(rng());
    double ref_ns = 0, opt_ns = 0;
    Rounds(v, &ref_ns, &opt_ns);
    std::printf("%u %.0f %.0f %.3f\n", count, ref_ns, opt_ns, opt_ns > 0 ? ref_ns / opt_ns : 0.0);
  }
  return 0;
}
