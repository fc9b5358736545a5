// The corpus forms of the spec targets (cql_encode_large, cql_typed_encode) bound the work of
// an input by its length (docs/fuzzing.md, "Limits"): whatever the bytes, a spec read from
// them is clamped to 8 units (cql_encode_large: LargeWork) or 8 elements (cql_typed_encode)
// per byte left after its 17 bytes of fields, and the writer pads so that a written spec reads
// back unchanged. fuzz/limits.tsv caps them at 32 and 26 bytes on these grounds.
#include <gtest/gtest.h>
#include <rapidcheck/gtest.h>

#include <algorithm>
#include <cstdint>
#include <string>

#include <FuzzedDataProvider.h>

#include "harness/fuzz_input.h"
#include "targets/cql/domain.h"

namespace serdiff::targets::cql {
namespace {

constexpr size_t kSpecBytes = 17;  // the fields of either spec, written in full

template <typename T>
T DecodeBytes(const harness::Domain<T>& d, const std::string& bytes) {
  FuzzedDataProvider p(reinterpret_cast<const uint8_t*>(bytes.data()), bytes.size());
  return d.decode(p);
}

template <typename T>
std::string EncodeValue(const harness::Domain<T>& d, const T& v) {
  harness::FuzzInputWriter w;
  d.encode(v, w);
  return w.Finish();
}

RC_GTEST_PROP(CqlFuzzBounds, ClampedLargeSpecStaysWithinEightUnitsAPaddingByte, ()) {
  LargeSpec s = *GenLargeSpec();
  const size_t pad = *rc::gen::inRange<size_t>(0, 70'000);
  ClampLargeSpec(&s, pad);
  RC_ASSERT(LargeWork(s) <= kLargeUnitsPerByte * pad + 1);
}

RC_GTEST_PROP(CqlFuzzBounds, LargeInputsOfAtMost32BytesBuildAtMost121Units, (std::string bytes)) {
  bytes.resize(std::min<size_t>(bytes.size(), 32));
  const LargeInput in = DecodeBytes(LargeDomain(), bytes);
  RC_ASSERT(LargeWork(in.spec) <= 121u);
}

RC_GTEST_PROP(CqlFuzzBounds, TypedInputsOfAtMost26BytesHoldAtMost72Elements, (std::string bytes)) {
  bytes.resize(std::min<size_t>(bytes.size(), 26));
  const TypedInput in = DecodeBytes(TypedDomain(), bytes);
  RC_ASSERT(in.spec.count <= 72u);
}

// Exact figures: the padding of the full-size seeds, and the clamp of an unpadded spec.
TEST(CqlFuzzBounds, PaddingAndClampExactValues) {
  LargeSpec list;  // list<int> of 500,000: one unit per element, 8 units a byte
  list.shape = 0;
  list.count = 500'000;
  EXPECT_EQ(LargeWork(list), 500'000u);
  EXPECT_EQ(LargePadBytes(list), 62'500u);
  EXPECT_EQ(EncodeValue(LargeDomain(), LargeInput{list, {}}).size(), kSpecBytes + 62'500);

  LargeSpec udt;  // the big UDT: 3 x max(text_len, count) bytes of text and blob, 8 a unit
  udt.shape = 6;
  udt.count = 500'000;
  udt.text_len = 200'000;
  EXPECT_EQ(LargeWork(udt), 187'500u);
  EXPECT_EQ(LargePadBytes(udt), 23'438u);

  LargeSpec over = list;  // 10 padding bytes: 80 units, at most 80 / 16 = 5 elements
  ClampLargeSpec(&over, 10);
  EXPECT_EQ(over.count, 5u);

  LargeSpec text;  // set<text> of 4 x 1000 bytes, 10 padding bytes: 80 x 8 / (6 x 4) = 26
  text.shape = 2;
  text.count = 4;
  text.text_len = 1000;
  ClampLargeSpec(&text, 10);
  EXPECT_EQ(text.count, 4u);
  EXPECT_EQ(text.text_len, 26u);
  EXPECT_LE(LargeWork(text), 81u);

  // A typed spec of 65536 elements written, then read without its padding: 0 elements.
  TypedSpec typed;
  typed.count = 65'536;
  const std::string bytes = EncodeValue(TypedDomain(), TypedInput{typed, nullptr});
  EXPECT_EQ(bytes.size(), kSpecBytes + 8'192);
  EXPECT_EQ(DecodeBytes(TypedDomain(), bytes).spec.count, 65'536u);
  EXPECT_EQ(DecodeBytes(TypedDomain(), bytes.substr(8'192)).spec.count, 0u);
  EXPECT_EQ(DecodeBytes(TypedDomain(), bytes.substr(8'192 - 15)).spec.count, 120u);
}

}  // namespace
}  // namespace serdiff::targets::cql
