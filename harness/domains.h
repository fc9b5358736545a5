// Reusable, family-agnostic domains: integers and vectors of integers, each a two-way domain
// (harness/two_way.h: one visitor reads and writes the corpus form) with its generator and
// printer.
#pragma once

#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <limits>
#include <string>
#include <type_traits>
#include <vector>

#include <rapidcheck.h>

#include "absl/strings/str_cat.h"
#include "harness/report.h"
#include "harness/target.h"
#include "harness/two_way.h"

namespace serdiff::harness {

// Lengths for batch domains: 0 and 1 often, small lengths mostly, and now and then any
// length up to `max` (so a property run sees 0, 1 and large batches).
inline rc::Gen<size_t> BatchLength(size_t max) {
  return rc::gen::weightedOneOf<size_t>({
      {2, rc::gen::just(size_t{0})},
      {2, rc::gen::just(size_t{1})},
      {10, rc::gen::inRange<size_t>(0, 65)},
      {1, rc::gen::inRange<size_t>(0, max + 1)},
      {1, rc::gen::just(size_t{max})},
  });
}

// A single integer; corpus form: FDP ConsumeIntegral<T>.
template <typename T>
Domain<T> IntegerDomain(std::string type_name, rc::Gen<T> gen) {
  return TwoWayDomain<T>(
      std::move(type_name), std::move(gen), [](auto& io, T& v) { io.Int(v); },
      [](const T& v) { return absl::StrCat(v); });
}

// Shows at most `max_items` elements of a vector: "[3 values: 1, 2, 3]".
template <typename T>
std::string ShowVector(const std::vector<T>& v, size_t max_items = 16) {
  std::string out =
      absl::StrCat("[", v.size(), v.size() == 1 ? " value" : " values", v.empty() ? "" : ": ");
  for (size_t i = 0; i < v.size() && i < max_items; ++i) absl::StrAppend(&out, i ? ", " : "", v[i]);
  if (v.size() > max_items) absl::StrAppend(&out, ", ...");
  out += "]";
  return out;
}

// A vector of integers of length 0..max_len; corpus form: length as
// ConsumeIntegralInRange<uint32_t>(0, max_len), then each element as ConsumeIntegral<T>
// (missing bytes read as 0, as FDP does).
template <typename T>
Domain<std::vector<T>> VectorDomain(std::string type_name, rc::Gen<T> elem, size_t max_len) {
  const uint32_t max32 = static_cast<uint32_t>(max_len);
  return TwoWayDomain<std::vector<T>>(
      std::move(type_name),
      rc::gen::mapcat(BatchLength(max_len),
                      [elem](size_t n) { return rc::gen::container<std::vector<T>>(n, elem); }),
      [max32](auto& io, std::vector<T>& v) {
        uint32_t n = static_cast<uint32_t>(v.size());
        io.Int(n, uint32_t{0}, max32);
        // Reading: no more elements than the bytes left can hold whole, so that an input's
        // length bounds the batch (a fuzz target caps its inputs with max_len). Every file
        // the writer makes holds all its elements, so this never changes one.
        if constexpr (std::decay_t<decltype(io)>::kReading) {
          n = static_cast<uint32_t>(std::min<size_t>(n, io.remaining_bytes() / sizeof(T)));
        }
        v.resize(n);
        for (T& x : v) io.Int(x);
      },
      [](const std::vector<T>& v) { return ShowVector(v); });
}

// Little-endian fixed-width encodings, for canonical outputs of integer results.
inline void AppendLe64(std::string* out, uint64_t v) {
  for (int i = 0; i < 8; ++i) out->push_back(static_cast<char>(v >> (8 * i)));
}
inline uint64_t ReadLe64(const char* p) {
  uint64_t v = 0;
  for (int i = 7; i >= 0; --i) v = (v << 8) | static_cast<unsigned char>(p[i]);
  return v;
}

}  // namespace serdiff::harness
