// Reusable, family-agnostic domains: integers and vectors of integers, each a two-way domain
// (harness/two_way.h: one visitor reads and writes the corpus form) with its generator,
// printer and parser of the printed text (harness/text_parse.h).
#pragma once

#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <limits>
#include <string>
#include <string_view>
#include <type_traits>
#include <vector>

#include <rapidcheck.h>

#include "absl/strings/str_cat.h"
#include "harness/definition.h"
#include "harness/hex.h"
#include "harness/text_parse.h"
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

// The decimal text of an integer of type T (TextCursor::Int), nothing else.
template <typename T>
absl::StatusOr<T> ParseInteger(std::string_view text) {
  return ParseAll<T>(text, [](TextCursor& c, T& v) { return c.Int(v); });
}

// A single integer; corpus form: FDP ConsumeIntegral<T>; printed and parsed in decimal
// ("-42"). A domain that prints the integer otherwise must set its own parser too.
template <typename T>
Domain<T> IntegerDomain(std::string type_name, rc::Gen<T> gen) {
  return TwoWayDomain<T>(
      std::move(type_name), std::move(gen), [](auto& io, T& v) { io.Int(v); },
      [](const T& v) { return absl::StrCat(v); }, ParseInteger<T>);
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

// Reads ShowVector's text back: "[0 values]", "[1 value: 7]", "[3 values: 1, -2, 3]". Errors
// (at the character where they are): another shape; a count that is not the number of
// elements; more than `max_len` elements (the most the domain's corpus form holds); a list
// shown with ", ..." (ElidedAt: the printer left elements out).
template <typename T>
absl::StatusOr<std::vector<T>> ParseVector(std::string_view text, size_t max_len) {
  return ParseAll<std::vector<T>>(
      text, [max_len](TextCursor& c, std::vector<T>& v) -> absl::Status {
        if (absl::Status s = c.Expect("["); !s.ok()) return s;
        const size_t count_at = c.pos();
        size_t n = 0;
        if (absl::Status s = c.Int(n); !s.ok()) return s;
        if (n > max_len) {
          return ParseErrorAt(
              count_at, absl::StrCat(n, " values, more than the domain holds (", max_len, ")"));
        }
        if (absl::Status s = c.Expect(n == 1 ? " value" : " values"); !s.ok()) return s;
        if (n > 0) {
          if (absl::Status s = c.Expect(": "); !s.ok()) return s;
          for (size_t i = 0; i < n; ++i) {
            if (i > 0) {
              if (absl::Status s = c.Expect(", "); !s.ok()) return s;
              if (c.rest().substr(0, 3) == "...") {
                return ElidedAt(c.pos(), absl::StrCat("the list shows ", i, " of its ", n,
                                                      " values (\"...\"): the rest cannot be "
                                                      "read back"));
              }
            }
            T x{};
            if (absl::Status s = c.Int(x); !s.ok()) return s;
            v.push_back(x);
          }
        }
        return c.Expect("]");
      });
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
      [](const std::vector<T>& v) { return ShowVector(v); },
      [max_len](std::string_view text) { return ParseVector<T>(text, max_len); });
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
