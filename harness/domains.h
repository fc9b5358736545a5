// Reusable, family-agnostic domains: integers, vectors of integers, byte strings.
// Each comes with its generator, FDP decoder, mirror encoder and printer (see target.h).
#pragma once

#include <cstddef>
#include <cstdint>
#include <limits>
#include <string>
#include <vector>

#include <rapidcheck.h>

#include "absl/strings/str_cat.h"
#include "harness/report.h"
#include "harness/target.h"

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
  Domain<T> d;
  d.type_name = std::move(type_name);
  d.gen = std::move(gen);
  d.decode = [](FuzzedDataProvider& p) { return p.template ConsumeIntegral<T>(); };
  d.encode = [](const T& v, FuzzInputWriter& w) { w.WriteIntegral<T>(v); };
  d.show = [](const T& v) { return absl::StrCat(v); };
  return d;
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
  Domain<std::vector<T>> d;
  d.type_name = std::move(type_name);
  d.gen = rc::gen::mapcat(BatchLength(max_len),
                          [elem](size_t n) { return rc::gen::container<std::vector<T>>(n, elem); });
  const uint32_t max32 = static_cast<uint32_t>(max_len);
  d.decode = [max32](FuzzedDataProvider& p) {
    const uint32_t n = p.ConsumeIntegralInRange<uint32_t>(0, max32);
    std::vector<T> v;
    v.reserve(std::min<size_t>(n, p.remaining_bytes() / sizeof(T) + 1));
    for (uint32_t i = 0; i < n; ++i) v.push_back(p.ConsumeIntegral<T>());
    return v;
  };
  d.encode = [max32](const std::vector<T>& v, FuzzInputWriter& w) {
    w.WriteIntegralInRange<uint32_t>(static_cast<uint32_t>(v.size()), 0, max32);
    for (const T& x : v) w.WriteIntegral<T>(x);
  };
  d.show = [](const std::vector<T>& v) { return ShowVector(v); };
  return d;
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
