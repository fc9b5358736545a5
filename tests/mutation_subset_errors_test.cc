// The mutation decoders' refusals of a row's column subset past 64 columns (a missing count, then
// the present or the missing indexes, Columns.Serializer.serializeSubset) and of a complex
// column's cell count, each at the edge of its rule: the optimized decoder (Deserialize) and the
// spec transcription (RefDeserialize) refuse with the same class at the same offset, and the
// nearest good bytes decode.
#include <cstdint>
#include <string>
#include <vector>

#include "absl/status/statusor.h"
#include "gtest/gtest.h"
#include "harness/hex.h"
#include "reference/mutation/decoder_ref.h"
#include "serdiff/common/error_offset.h"
#include "serdiff/mutation/mutation.h"
#include "tests/mutation_test_util.h"

namespace serdiff::mutation {
namespace {

using test_util::SubsetMutation;
using test_util::SubsetRowAt;

struct Decoded {
  absl::Status opt;
  absl::Status ref;
};

Decoded DecodeBoth(const std::string& bytes, const Mutation& shape) {
  const Schema schema = SchemaOf(shape);
  const absl::StatusOr<DecodedMutation> opt = Deserialize(
      absl::Span<const uint8_t>(reinterpret_cast<const uint8_t*>(bytes.data()), bytes.size()),
      shape.version, schema);
  const absl::StatusOr<DecodedMutation> ref =
      ref::mutation::RefDeserialize(bytes, shape.version, schema);
  return {opt.status(), ref.status()};
}

// Both decoders refuse `bytes` with `code` at `offset`, the optimized one with `message`.
void ExpectRefused(const std::string& bytes, const Mutation& shape, absl::StatusCode code,
                   int64_t offset, const std::string& message) {
  const Decoded d = DecodeBoth(bytes, shape);
  EXPECT_EQ(d.opt.code(), code) << d.opt << "\n" << harness::CompactHex(bytes);
  EXPECT_EQ(d.ref.code(), code) << d.ref << "\n" << harness::CompactHex(bytes);
  EXPECT_EQ(ErrorOffset(d.opt), offset) << d.opt;
  EXPECT_EQ(ErrorOffset(d.ref), offset) << d.ref;
  EXPECT_EQ(d.opt.message(), absl::StrCat("offset ", offset, ": ", message)) << d.opt;
}

// 70 columns, columns 3 and 65 present: row flags 00, missing count 68 (0x44), the present
// indexes 03 41, two empty cells, the end of the partition.
TEST(MutationSubsetErrors, TheMissingCountAndTheIndexListAtTheirEdges) {
  const Mutation m = SubsetMutation(70, {3, 65});
  const std::string good = *Serialize(m);
  const size_t row = SubsetRowAt(m);
  ASSERT_EQ(harness::CompactHex(good.substr(row)),
            "00440341040004000"
            "1");
  const size_t count = row + 1, first = row + 2, second = row + 3;
  ASSERT_TRUE(DecodeBoth(good, m).opt.ok());
  ASSERT_TRUE(DecodeBoth(good, m).ref.ok());
  using C = absl::StatusCode;
  const std::string count_rule = "column subset missing count: not in 1..columns";
  std::string b = good;
  b[count] = 0;  // no column missing: the writer sets the row flag 0x20 instead
  ExpectRefused(b, m, C::kInvalidArgument, static_cast<int64_t>(count), count_rule);
  b[count] = 71;  // one more than the columns
  ExpectRefused(b, m, C::kInvalidArgument, static_cast<int64_t>(count), count_rule);
  b = good;
  b[second] = b[first];  // a repeated index: column 3 twice
  ExpectRefused(b, m, C::kInvalidArgument, static_cast<int64_t>(second),
                "column subset index: out of range or not increasing");
  b = good;
  b[first] = 0x41;  // decreasing: 65, then 65
  ExpectRefused(b, m, C::kInvalidArgument, static_cast<int64_t>(second),
                "column subset index: out of range or not increasing");
  b = good;
  b[second] = 70;  // one past the last column
  ExpectRefused(b, m, C::kInvalidArgument, static_cast<int64_t>(second),
                "column subset index: out of range or not increasing");
  // 36 of 70 present: the 34 missing indexes are listed (one byte each). Cut after the count
  // with one byte fewer than the indexes, the count is at fault; with exactly as many, the
  // indexes are read and the first cell is what is missing.
  std::vector<uint32_t> present;
  for (uint32_t i = 0; i < 36; ++i) present.push_back(i);
  const Mutation most = SubsetMutation(70, present);
  const std::string listed = *Serialize(most);
  const size_t most_count = SubsetRowAt(most) + 1;
  ASSERT_EQ(static_cast<uint8_t>(listed[most_count]), 34);
  ASSERT_TRUE(DecodeBoth(listed, most).opt.ok());
  ExpectRefused(listed.substr(0, most_count + 1 + 33), most, C::kOutOfRange,
                static_cast<int64_t>(most_count), "column subset: more indexes than bytes remain");
  const std::string indexes_only = listed.substr(0, most_count + 1 + 34);
  const Decoded d = DecodeBoth(indexes_only, most);
  EXPECT_EQ(d.opt.code(), C::kOutOfRange) << d.opt;
  EXPECT_EQ(ErrorOffset(d.opt), static_cast<int64_t>(indexes_only.size())) << d.opt;
  EXPECT_EQ(ErrorOffset(d.ref), static_cast<int64_t>(indexes_only.size())) << d.ref;
}

// A complex column's cell count is checked against two bytes a cell at least (a flags byte and a
// path length): a count of half the bytes that remain, plus one, is refused at the count.
TEST(MutationSubsetErrors, AComplexCellCountNeedsTwoBytesACell) {
  Mutation m = SubsetMutation(1, {0});
  m.updates[0].regular_columns[0].complex = true;
  ColumnData& cd = m.updates[0].unfiltereds[0].row.columns[0];
  cd.cells[0].path = "p";
  const std::string good = *Serialize(m);
  ASSERT_TRUE(DecodeBoth(good, m).opt.ok()) << DecodeBoth(good, m).opt;
  ASSERT_TRUE(DecodeBoth(good, m).ref.ok()) << DecodeBoth(good, m).ref;
  // Row flags 20 (every column), the count 01, the cell (flags 04: empty value; timestamp
  // delta 00; path 01 70), the end of the partition 01.
  const size_t count = SubsetRowAt(m) + 1;
  ASSERT_EQ(harness::CompactHex(good.substr(count - 1)),
            "2001040001700"
            "1");
  std::string b = good;
  b[count] = 3;  // 3 cells need 6 bytes at least; 5 remain
  ExpectRefused(b, m, absl::StatusCode::kOutOfRange, static_cast<int64_t>(count),
                "complex cell count 3 exceeds the 5 bytes that remain");
  b[count] = 2;  // 4 bytes at least: read, and the second cell is cut short at the end marker
  const Decoded d = DecodeBoth(b, m);
  EXPECT_FALSE(d.opt.ok());
  EXPECT_EQ(ErrorOffset(d.opt), ErrorOffset(d.ref)) << d.opt << "\n" << d.ref;
  EXPECT_GT(ErrorOffset(d.opt).value_or(0), static_cast<int64_t>(count)) << d.opt;
}

}  // namespace
}  // namespace serdiff::mutation
