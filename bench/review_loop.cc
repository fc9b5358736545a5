// A plain timing loop outside `serdiff review`, for docs/benchmarks.md ("serdiff review's timing
// against plain loops"): the call the review times on varint_leb128_zigzag_encode's size ladder
// (serdiff::varint::EncodeZigZagBatch, LEB128, into a new string), on the same values (the first
// `count` outputs of std::mt19937_64(42), as TargetDef::ladder draws them), measured the same way
// (15 rounds of 20 calls, the median call of each round, the median round) but with nothing of
// serdiff's harness around it. Prints "count ns" lines.
#include <algorithm>
#include <chrono>
#include <cstdint>
#include <cstdio>
#include <random>
#include <string>
#include <vector>

#include "serdiff/varint/varint.h"

namespace {

double MedianCall(const std::vector<int64_t>& v) {
  std::vector<double> rounds;
  for (int r = 0; r < 15; ++r) {
    std::vector<double> calls;
    for (int c = 0; c < 20; ++c) {
      const auto start = std::chrono::steady_clock::now();
      std::string out = serdiff::varint::EncodeZigZagBatch(serdiff::varint::Format::kLeb128, v);
      const auto end = std::chrono::steady_clock::now();
      asm volatile("" : : "r"(out.data()) : "memory");
      calls.push_back(static_cast<double>(
          std::chrono::duration_cast<std::chrono::nanoseconds>(end - start).count()));
    }
    std::sort(calls.begin(), calls.end());
    rounds.push_back(calls[calls.size() / 2]);
  }
  std::sort(rounds.begin(), rounds.end());
  return rounds[rounds.size() / 2];
}

}  // namespace

int main() {
  for (uint32_t count : {0u, 1u, 10u, 100u, 1000u, 10000u}) {
    std::mt19937_64 rng(42);
    std::vector<int64_t> v(count);
    for (int64_t& x : v) x = static_cast<int64_t>(rng());
    std::printf("%u %.0f\n", count, MedianCall(v));
  }
  return 0;
}
