// The generators reach what the product says they aim at (README, docs/architecture.md): every
// edit of a mutated encoding, nulls inside CQL collections, BSON's int64 extremes and the
// damaged BSON documents of each kind, varint batches cut inside a value. Each is sampled with
// fixed seeds and a share is required well below what the generator gives (about a third), so
// that a generator that stops producing a case fails here while a change of weights does not.
#include <algorithm>
#include <cstdint>
#include <cstdio>
#include <cstring>
#include <functional>
#include <limits>
#include <map>
#include <set>
#include <string>
#include <vector>

#include <gtest/gtest.h>
#include <rapidcheck.h>

#include "absl/strings/match.h"
#include "harness/hex.h"
#include "harness/mutated.h"
#include "harness/target.h"
#include "serdiff/bson/codec.h"
#include "serdiff/bson/document.h"
#include "serdiff/cql/value.h"
#include "targets/bson/domain.h"
#include "targets/cql/domain.h"
#include "targets/families.h"

namespace serdiff {
namespace {

template <typename T>
T Sample(const rc::Gen<T>& g, uint64_t seed) {
  return g(rc::Random(seed), static_cast<int>(seed % 101)).value();
}

TEST(Generators, MutatedEditsReachEveryOpAimedPositionsAndTheLengthLies) {
  const rc::Gen<harness::Edit> g = harness::GenEdit();
  std::map<int, int> ops;
  std::set<uint32_t> args;
  int aimed = 0;
  constexpr int kSamples = 4000;
  for (uint64_t seed = 0; seed < kSamples; ++seed) {
    const harness::Edit e = Sample(g, seed);
    ++ops[e.op];
    aimed += (e.pos & harness::kAimedPos) != 0;
    args.insert(e.arg);
  }
  for (int op = 0; op < harness::kEditOps; ++op) {
    EXPECT_GE(ops[op], kSamples / harness::kEditOps / 3) << "edit op " << op;
  }
  EXPECT_EQ(ops.size(), static_cast<size_t>(harness::kEditOps));
  EXPECT_GE(aimed, kSamples / 6);  // half are aimed
  for (uint32_t lie :
       {0u, 1u, 0xFFFFu, 0x7FFFFFFFu, 0x80000000u, 1000000000u, 0xFFFFFFFEu, 0xFFFFFFFFu}) {
    EXPECT_TRUE(args.count(lie)) << "length lie " << lie;
  }
}

// Walks every CQL value below `v`: each collection's items.
void WalkCollections(const cql::Value& v, const std::function<void(const cql::Value&)>& f) {
  if (v.shape() != cql::Value::Shape::kItems && v.shape() != cql::Value::Shape::kPairs) return;
  f(v);
  for (const cql::Value& item : v.items()) WalkCollections(item, f);
}

TEST(Generators, CqlCollectionsHoldNullsAndSomeAreAllNull) {
  const rc::Gen<targets::cql::EncodeInput> g = targets::cql::GenEncodeInput(true);
  int64_t items = 0, nulls = 0, all_null = 0;
  for (uint64_t seed = 0; seed < 1500; ++seed) {
    WalkCollections(Sample(g, seed).value, [&](const cql::Value& c) {
      int64_t n = 0;
      for (const cql::Value& item : c.items()) n += item.is_null();
      items += static_cast<int64_t>(c.items().size());
      nulls += n;
      all_null += c.items().size() >= 2 && n == static_cast<int64_t>(c.items().size());
    });
  }
  ASSERT_GT(items, 1000);
  EXPECT_GE(nulls * 100, items * 12) << nulls << " nulls of " << items << " items";
  EXPECT_GE(all_null, 5);
}

// Every int64 a BSON document holds (int64, datetime, timestamp values), packed arrays too.
void WalkInt64s(const bson::Value& v, std::set<int64_t>* seen) {
  if (v.type == bson::Type::kInt64 || v.type == bson::Type::kTimestamp ||
      (v.type == bson::Type::kDateTime && !v.civil.has_value())) {
    seen->insert(v.i);
  }
  if (bson::IsPacked(v)) return WalkInt64s(bson::Unpack(v), seen);
  for (const bson::Element& e : v.children) WalkInt64s(e.value, seen);
}

TEST(Generators, BsonDocumentsReachTheInt64AndInt32Extremes) {
  const rc::Gen<bson::Document> g = targets::bson::GenDocument();
  std::set<int64_t> seen;
  for (uint64_t seed = 0; seed < 3000; ++seed) {
    for (const bson::Element& e : Sample(g, seed).elements) WalkInt64s(e.value, &seen);
  }
  constexpr int64_t kMin32 = std::numeric_limits<int32_t>::min();
  constexpr int64_t kMax32 = std::numeric_limits<int32_t>::max();
  for (int64_t x :
       {std::numeric_limits<int64_t>::min(), std::numeric_limits<int64_t>::max(),
        std::numeric_limits<int64_t>::min() + 1, kMin32 - 1, kMax32 + 1, int64_t{-1}, int64_t{0}}) {
    EXPECT_TRUE(seen.count(x)) << x;
  }
}

// The decoder's inputs: well-formed documents, and each kind of damage: cut short (the length
// says more than there is), one byte more, the top-level length 2^31 - 1, raw bytes.
TEST(Generators, BsonDecoderInputsHoldEachKindOfDamage) {
  const rc::Gen<std::string> g = targets::bson::GenDecoderInput();
  int cut = 0, longer = 0, huge = 0, well_formed = 0;
  constexpr int kSamples = 2400;
  for (uint64_t seed = 0; seed < kSamples; ++seed) {
    const std::string b = Sample(g, seed);
    if (b.size() < 4) {
      ++cut;
      continue;
    }
    int32_t len = 0;
    std::memcpy(&len, b.data(), 4);
    if (len == 0x7FFFFFFF) ++huge;
    if (len > static_cast<int64_t>(b.size()) + 5) ++cut;
    if (len + 1 == static_cast<int64_t>(b.size())) ++longer;
    if (len == static_cast<int64_t>(b.size()) && bson::Validate(b).ok()) ++well_formed;
  }
  EXPECT_GE(cut, kSamples / 12 / 3);  // one kind in 12, and a share of the others
  EXPECT_GE(longer, kSamples / 12 / 4);
  EXPECT_GE(huge, kSamples / 12 / 3);
  EXPECT_GE(well_formed, kSamples * 3 / 12 / 3);
}

// The varint decode targets' damaged batches: some cut inside a value (the reference says the
// input ends after 1 or more of its bytes), some asking for a value past the end (after 0).
TEST(Generators, VarintBatchesAreCutInsideAValueAndPastTheEnd) {
  for (const char* name : {"varint_leb128_decode", "varint_fory_decode", "varint_vint_decode"}) {
    const harness::Target* t = targets::AllTargets().Find(name);
    ASSERT_NE(t, nullptr) << name;
    int inside = 0, past = 0, cut_early = 0;
    constexpr int kSamples = 2000;
    for (uint64_t seed = 0; seed < kSamples; ++seed) {
      const std::string bytes = t->GeneratedBytes(seed, static_cast<int>(seed % 101));
      const harness::MeasuredOutput r = t->RunOne(bytes, "reference");
      if (r.output.ok()) continue;
      const std::string m(r.output.status().message());
      // LEB128 only (each value ends at a byte below 0x80): a batch of more values than an
      // arbitrary input's count (at most 40) that ends with two or more of them missing was cut
      // short, as no other damage does (a replaced byte loses one value at most, a count made
      // larger one).
      uint32_t n = 0, size = 0;
      size_t at = 0;
      const std::string shown = t->ShowBytes(bytes);
      if (name == std::string("varint_leb128_decode") &&
          std::sscanf(shown.c_str(), "count %u, %u bytes", &n, &size) == 2 && n > 41 &&
          std::sscanf(m.c_str(), "LEB128 varint at byte offset %zu: truncated", &at) == 1) {
        std::string hex = shown.substr(shown.find(": ") + 2);
        hex = hex.substr(0, hex.find(" ..."));  // a dump shows 256 bytes at most
        const std::string batch = harness::Unhex(hex);
        const auto ends =
            std::count_if(batch.begin(), batch.begin() + std::min(at, batch.size()),
                          [](char c) { return (static_cast<uint8_t>(c) & 0x80) == 0; });
        if (at <= batch.size() && ends + 1 < n) ++cut_early;
      }
      if (absl::StrContains(m, "truncated, the input ends after 0 of")) {
        ++past;
      } else if (absl::StrContains(m, "truncated, the input ends after")) {
        ++inside;
      }
    }
    EXPECT_GE(inside, kSamples / 100) << name;
    EXPECT_GE(past, kSamples / 100) << name;
    if (name == std::string("varint_leb128_decode")) {
      EXPECT_GE(cut_early, kSamples / 100);
    }
  }
}

}  // namespace
}  // namespace serdiff
