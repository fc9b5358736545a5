// A plain timing loop outside `serdiff review`, for docs/benchmarks.md ("serdiff review's timing
// against plain loops"): the call the review times on varint_leb128_zigzag_encode's size ladder
// (serdiff::varint::EncodeZigZagBatch, LEB128, into a new string: the optimized side; and the
// reference's serdiff::ref::varint::EncodeZigZagBatch), on the same values (the first `count`
// outputs of std::mt19937_64(42), as TargetDef::ladder draws them), timed as a plain loop is: a
// warm-up of 0.2 s of calls of each side, then timings of as many calls in a row as last 20 us
// (the same count for both sides, from the faster one), 15 rounds of 20 timings, the median
// timing of each round, the median round, per call; the two sides' rounds interleaved. Nothing
// of serdiff's harness is around it.
// Each call is timed in three forms, so that what serdiff's in-process interface adds to a call
// of a few ns is measured, not guessed:
//   library   the library function itself, its std::string destroyed;
//   output    the implementation as a target declares it when it returns serdiff's Output, a
//             lambda returning absl::StatusOr<std::string>, called inline (the review times a
//             callable that returns the library's std::string, as varint's do, as "library");
//   function  that lambda held in a std::function<Output(const std::vector<int64_t>&)>, as any
//             registry of implementations holds it (serdiff's Impl::run is one).
// Prints "count form reference-ns optimized-ns speedup" lines (speedup: reference / optimized, the
// figure `serdiff review --before reference --after optimized` reports).
#include <algorithm>
#include <chrono>
#include <cmath>
#include <cstdint>
#include <cstdio>
#include <functional>
#include <random>
#include <string>
#include <vector>

#include "absl/status/statusor.h"
#include "reference/varint/varint_ref.h"
#include "serdiff/varint/varint.h"

namespace {

using Output = absl::StatusOr<std::string>;
using Batch = std::vector<int64_t>;

// Nanoseconds of `batch` calls in a row of `call` (returning a std::string or an Output).
template <typename Call>
double TimeBatch(const Batch& v, const Call& call, int batch) {
  const auto start = std::chrono::steady_clock::now();
  for (int b = 0; b < batch; ++b) {
    auto out = call(v);
    asm volatile("" : : "r"(&out) : "memory");
  }
  const auto end = std::chrono::steady_clock::now();
  return static_cast<double>(
      std::chrono::duration_cast<std::chrono::nanoseconds>(end - start).count());
}

// The median of 20 timings of `batch` calls, per call.
template <typename Call>
double MedianOfCalls(const Batch& v, const Call& encode, int batch) {
  std::vector<double> calls;
  for (int c = 0; c < 20; ++c) calls.push_back(TimeBatch(v, encode, batch) / batch);
  std::sort(calls.begin(), calls.end());
  return calls[calls.size() / 2];
}

// Warms `encode` up for 0.2 s; returns its last call's time (ns).
template <typename Call>
double WarmUp(const Batch& v, const Call& encode) {
  double spent = 0, last = 0;
  while (spent < 2e8) {
    last = TimeBatch(v, encode, 1);
    spent += last;
  }
  return last;
}

double Median(std::vector<double> v) {
  std::sort(v.begin(), v.end());
  return v[v.size() / 2];
}

// 15 rounds, the reference first in even rounds and the optimized side first in odd ones.
template <typename Ref, typename Opt>
void Rounds(const Batch& v, const Ref& ref, const Opt& opt, double* ref_ns, double* opt_ns) {
  const double fastest = std::min(WarmUp(v, ref), WarmUp(v, opt));
  const int batch = std::max(1, static_cast<int>(std::ceil(20000 / std::max(fastest, 1.0))));
  std::vector<double> r, o;
  for (int round = 0; round < 15; ++round) {
    if (round % 2 == 0) {
      r.push_back(MedianOfCalls(v, ref, batch));
      o.push_back(MedianOfCalls(v, opt, batch));
    } else {
      o.push_back(MedianOfCalls(v, opt, batch));
      r.push_back(MedianOfCalls(v, ref, batch));
    }
  }
  *ref_ns = Median(r);
  *opt_ns = Median(o);
}

template <typename Ref, typename Opt>
void Print(uint32_t count, const char* form, const Batch& v, const Ref& ref, const Opt& opt) {
  double ref_ns = 0, opt_ns = 0;
  Rounds(v, ref, opt, &ref_ns, &opt_ns);
  std::printf("%u %s %.1f %.1f %.3f\n", count, form, ref_ns, opt_ns,
              opt_ns > 0 ? ref_ns / opt_ns : 0.0);
}

}  // namespace

int main() {
  constexpr auto kLeb128 = serdiff::varint::Format::kLeb128;
  const auto ref = [](const Batch& x) {
    return serdiff::ref::varint::EncodeZigZagBatch(kLeb128, x);
  };
  const auto opt = [](const Batch& x) { return serdiff::varint::EncodeZigZagBatch(kLeb128, x); };
  const auto ref_out = [](const Batch& x) -> Output {
    return serdiff::ref::varint::EncodeZigZagBatch(kLeb128, x);
  };
  const auto opt_out = [](const Batch& x) -> Output {
    return serdiff::varint::EncodeZigZagBatch(kLeb128, x);
  };
  const std::function<Output(const Batch&)> ref_fn = ref_out, opt_fn = opt_out;
  for (uint32_t count : {0u, 1u, 10u, 100u, 1000u, 10000u}) {
    std::mt19937_64 rng(42);
    Batch v(count);
    for (int64_t& x : v) x = static_cast<int64_t>(rng());
    Print(count, "library", v, ref, opt);
    Print(count, "output", v, ref_out, opt_out);
    Print(count, "function", v, ref_fn, opt_fn);
  }
  return 0;
}
