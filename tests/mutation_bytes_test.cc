// Exact-byte tests for the mutation family: every writer (exact-size, small-mutation,
// growable buffer, spec transcription) against hand-derived bytes (docs/mutation.md's worked
// example and per-field table), and the decoders (optimized and reference) against exact values.
// Decoder errors, heap and the fuzz spec: tests/mutation_test.cc.
#include <cstdint>
#include <string>
#include <vector>

#include "gtest/gtest.h"
#include "harness/hex.h"
#include "reference/mutation/decoder_ref.h"
#include "reference/mutation/spec_writer.h"
#include "serdiff/common/error_offset.h"
#include "serdiff/mutation/mutation.h"
#include "targets/mutation/domain.h"
#include "tests/mutation_test_util.h"

namespace serdiff::mutation {
namespace {

using harness::CompactHex;
using harness::Unhex;

// Shared with tests/mutation_test.cc (tests/mutation_test_util.h).
using test_util::kTable;
using test_util::SubsetMutation;
using test_util::WorkedExample;

constexpr char kTableHex[] = "00112233445566778899aabbccddeeff";

// Every writer must give `hex` (spaces ignored); the size walk predicts its length; both
// decoders give `m` back.
void ExpectBytes(const Mutation& m, const std::string& hex) {
  const std::string want = Unhex(hex);
  absl::StatusOr<std::string> exact = Serialize(m);
  ASSERT_TRUE(exact.ok()) << exact.status();
  EXPECT_EQ(CompactHex(*exact), CompactHex(want)) << "exact-size";
  absl::StatusOr<std::string> small = SerializeSmall(m);
  ASSERT_TRUE(small.ok()) << small.status();
  EXPECT_EQ(CompactHex(*small), CompactHex(want)) << "small";
  absl::StatusOr<std::string> tiny = SerializeSmall(m, 8);  // falls back to the exact path
  ASSERT_TRUE(tiny.ok()) << tiny.status();
  EXPECT_EQ(CompactHex(*tiny), CompactHex(want)) << "small (fallback)";
  absl::StatusOr<std::string> growable = SerializeViaGrowableBuffer(m);
  ASSERT_TRUE(growable.ok()) << growable.status();
  EXPECT_EQ(CompactHex(*growable), CompactHex(want)) << "growable";
  absl::StatusOr<std::string> spec = ref::mutation::SpecSerialize(m);
  ASSERT_TRUE(spec.ok()) << spec.status();
  EXPECT_EQ(CompactHex(*spec), CompactHex(want)) << "spec";
  absl::StatusOr<size_t> size = SerializedSize(m);
  ASSERT_TRUE(size.ok());
  EXPECT_EQ(*size, want.size());
  const Schema schema = SchemaOf(m);
  absl::StatusOr<DecodedMutation> back = Deserialize(
      absl::Span<const uint8_t>(reinterpret_cast<const uint8_t*>(want.data()), want.size()),
      m.version, schema);
  ASSERT_TRUE(back.ok()) << back.status();
  EXPECT_TRUE(back->ToMutation() == m) << targets::mutation::Dump(*back) << "\nvs\n"
                                       << targets::mutation::Dump(m);
  absl::StatusOr<DecodedMutation> ref_back = ref::mutation::RefDeserialize(want, m.version, schema);
  ASSERT_TRUE(ref_back.ok()) << ref_back.status();
  EXPECT_EQ(targets::mutation::Dump(*back), targets::mutation::Dump(m));
  EXPECT_EQ(targets::mutation::Dump(*ref_back), targets::mutation::Dump(m));
  EXPECT_TRUE(ref_back->ToMutation() == m);
}

TEST(MutationBytes, WorkedExample44Bytes) {
  ExpectBytes(WorkedExample(), std::string("01") + kTableHex +
                                   "04 00000001 10 fce9d96a43c000 00 00 01 01 76 01"
                                   " 24 00 08 0000002a 01");
  EXPECT_EQ(*SerializedSize(WorkedExample()), 44u);
}

TEST(MutationBytes, WorkedExample51Form46Bytes) {
  ExpectBytes(WorkedExample(Version::kV51),
              std::string("00 01") + kTableHex +
                  "05 04 00000001 10 fce9d96a43c000 00 00 01 01 76 01 24 00 08 0000002a 01");
  EXPECT_EQ(*SerializedSize(WorkedExample(Version::kV51)), 46u);
  Mutation m = WorkedExample(Version::kV50);  // 5.0 writes the 4.0 bytes
  EXPECT_EQ(CompactHex(*Serialize(m)), CompactHex(*Serialize(WorkedExample())));
}

TEST(MutationBytes, UpdateWithoutLivenessUsesCellTimestamp) {
  Mutation m = WorkedExample();
  m.updates[0].unfiltereds[0].row.liveness = Liveness{};
  ExpectBytes(m, std::string("01") + kTableHex +
                     "04 00000001 10 fce9d96a43c000 00 00 01 01 76 01 20 00 00 0000002a 01");
}

// A row whose local-expiration-time delta is -1: the int32 -1 is sign-extended, nine ff bytes.
TEST(MutationBytes, RowLocalDeletionDeltaMinusOneIsNineFf) {
  Mutation m;
  PartitionUpdate u;
  u.table_id = kTable;
  u.key = "k";
  u.stats.min_local_deletion_time = 1700000000;
  u.regular_columns = {Column{"v", -1, false}};
  u.row_estimate = 1;
  Unfiltered un;
  un.row.liveness = Liveness{kTimestampEpoch + 1, 100, 1699999999};
  ColumnData cd;
  Cell c;
  c.timestamp = kTimestampEpoch + 1;
  c.value = "x";
  cd.cells = {c};
  un.row.columns = {cd};
  u.unfiltereds = {un};
  m.updates = {u};
  ExpectBytes(m, std::string("01") + kTableHex +
                     "01 6b 10 00 ef535700 00 01 01 76 01"
                     " 2c 01 64 ffffffffffffffffff 08 01 78 01");
}

// EncodingStats.minTimestamp below the encoding epoch: a negative delta, 9 bytes.
TEST(MutationBytes, MinTimestampBelowEpochIsNineBytes) {
  Mutation m = WorkedExample();
  m.updates[0].stats.min_timestamp = 5;
  // stats delta 5 - 2^... is negative: ff + 8 bytes; the row timestamp delta
  // 1700000000000000 - 5 takes 8 bytes.
  ExpectBytes(m, std::string("01") + kTableHex +
                     "04 00000001 10 fffffadfb552258005 00 00 01 01 76 01"
                     " 24 fe060a24181e3ffb 08 0000002a 01");
  EXPECT_EQ(*SerializedSize(m), 53u);
}

// A local-deletion-time delta at or above 2^31 arrives as a long; cast to int32 it is
// negative, so it is written (and must be sized) as 9 bytes, not 5.
TEST(MutationBytes, DeletionDeltaAbove2To31IsSizedAsNineBytes) {
  Mutation m;
  PartitionUpdate u;
  u.table_id = kTable;
  u.key = "k";
  u.regular_columns = {Column{"v", -1, false}};
  u.row_estimate = 1;
  Unfiltered un;
  un.row.deletion = DeletionTime{
      kTimestampEpoch, static_cast<uint32_t>(kDeletionTimeEpoch) + 2852087294u};  // 0xfffffffe
  un.row.liveness.timestamp = kTimestampEpoch;
  u.unfiltereds = {un};
  m.updates = {u};
  // row: flags 14 (timestamp | deletion), subset bitmap 01 (column 0 missing), ts 00,
  // deletion ts 00, deletion ldt 9 bytes.
  ExpectBytes(m, std::string("01") + kTableHex +
                     "01 6b 10 00 00 00 01 01 76 01 14 00 00 ffffffffffa9ff65fe 01 01");
}

// Both decoders refuse `hex`, read against m's schema, with InvalidArgument at `offset`.
void ExpectRefused(const Mutation& m, const std::string& hex, int64_t offset) {
  const std::string bytes = Unhex(hex);
  const Schema schema = SchemaOf(m);
  absl::StatusOr<DecodedMutation> opt = Deserialize(
      absl::Span<const uint8_t>(reinterpret_cast<const uint8_t*>(bytes.data()), bytes.size()),
      m.version, schema);
  absl::StatusOr<DecodedMutation> ref = ref::mutation::RefDeserialize(bytes, m.version, schema);
  ASSERT_FALSE(opt.ok()) << hex;
  ASSERT_FALSE(ref.ok()) << hex;
  EXPECT_EQ(opt.status().code(), absl::StatusCode::kInvalidArgument) << opt.status();
  EXPECT_EQ(ref.status().code(), absl::StatusCode::kInvalidArgument) << ref.status();
  EXPECT_EQ(ErrorOffset(opt.status()), offset) << opt.status();
  EXPECT_EQ(ErrorOffset(ref.status()), offset) << ref.status();
}

// One expiring cell of TTL 7 (ldt epoch + 5, value "x") in a row of table column "v".
Mutation ExpiringCellExample() {
  Mutation m;
  PartitionUpdate u;
  u.table_id = kTable;
  u.key = "k";
  u.regular_columns = {Column{"v", -1, false}};
  u.row_estimate = 1;
  Unfiltered un;
  ColumnData cd;
  Cell c;
  c.kind = CellKind::kExpiring;
  c.timestamp = kTimestampEpoch;
  c.local_deletion_time = static_cast<uint32_t>(kDeletionTimeEpoch) + 5;
  c.ttl = 7;
  c.value = "x";
  cd.cells = {c};
  un.row.columns = {cd};
  u.unfiltereds = {un};
  m.updates = {u};
  return m;
}

// A row with liveness TTL 9: a tombstone cell and an expiring cell that takes the row's
// timestamp and TTL (flags 1a).
Mutation RowTtlExample() {
  Mutation m;
  PartitionUpdate u;
  u.table_id = kTable;
  u.key = "";
  u.regular_columns = {Column{"a", -1, false}, Column{"b", 8, false}};
  u.row_estimate = 1;
  Unfiltered un;
  un.row.liveness = Liveness{kTimestampEpoch + 2, 9, static_cast<uint32_t>(kDeletionTimeEpoch) + 3};
  ColumnData a, b;
  a.column = 0;
  Cell tomb;
  tomb.kind = CellKind::kTombstone;
  tomb.timestamp = kTimestampEpoch + 1;
  tomb.local_deletion_time = static_cast<uint32_t>(kDeletionTimeEpoch) + 4;
  a.cells = {tomb};
  b.column = 1;
  Cell exp;
  exp.kind = CellKind::kExpiring;
  exp.timestamp = kTimestampEpoch + 2;
  exp.ttl = 9;
  exp.local_deletion_time = static_cast<uint32_t>(kDeletionTimeEpoch) + 3;
  exp.value = std::string("\x01\x02\x03\x04\x05\x06\x07\x08", 8);
  b.cells = {exp};
  un.row.columns = {a, b};
  u.unfiltereds = {un};
  m.updates = {u};
  return m;
}

TEST(MutationBytes, ExpiringCellWritesDeletionTimeBeforeTtl) {
  // row flags 20; cell flags 02 (expiring), ts 00, ldt 05, ttl 07, value 01 78
  ExpectBytes(ExpiringCellExample(), std::string("01") + kTableHex +
                                         "01 6b 10 00 00 00 01 01 76 01 20 02 00 05 07 01 78 01");
}

TEST(MutationBytes, TombstoneAndRowTtlCells) {
  // row flags 2c; ts 02; ttl 09 then ldt 03 (row order); cell a: 05 (tombstone, no value) ts 01
  // ldt 04; cell b: 1a (expiring | row ts | row ttl) then 8 raw bytes.
  ExpectBytes(RowTtlExample(),
              std::string("01") + kTableHex +
                  "00 10 00 00 00 02 01 61 01 62 01 2c 02 09 03 05 01 04 1a 0102030405060708 01");
}

// A negative TTL is refused where Cassandra 5.0's Cell.Serializer.deserialize throws "Invalid
// TTL": a cell's own (at its TTL, a uvint32 of 9 bytes for -1) and a row's that a cell takes
// with the use-row-TTL flag (at the cell's flags). Validate refuses to write the first; the
// second cannot be written (a cell's TTL is positive, so it never equals a negative row TTL).
TEST(MutationBytes, ANegativeCellTtlIsRefused) {
  const Mutation m = ExpiringCellExample();
  const std::string head =
      std::string("01") + kTableHex + "01 6b 10 00 00 00 01 01 76 01 20 02 00 05";
  ExpectBytes(m, head + " 07 01 78 01");
  ExpectRefused(m, head + " ffffffffffffffffff 01 78 01", 31);  // TTL -1
  ExpectRefused(m, head + " ffffffffff80000000 01 78 01", 31);  // TTL -2^31
  Mutation neg = m;
  neg.updates[0].unfiltereds[0].row.columns[0].cells[0].ttl = -7;
  EXPECT_EQ(Validate(neg).code(), absl::StatusCode::kInvalidArgument);
  EXPECT_FALSE(ref::mutation::SpecSerialize(neg).ok());

  // Row liveness TTL 9 taken by cell b (flags 1a); as -5 (ff x8 fb) the cell's flags are refused.
  const Mutation r = RowTtlExample();
  const std::string before =
      std::string("01") + kTableHex + "00 10 00 00 00 02 01 61 01 62 01 2c 02";
  const std::string after = "03 05 01 04 1a 0102030405060708 01";
  ExpectBytes(r, before + " 09 " + after);
  ExpectRefused(r, before + " fffffffffffffffffb " + after, 43);
}

PartitionUpdate ClusteredUpdate(std::vector<int32_t> widths) {
  PartitionUpdate u;
  u.table_id = kTable;
  u.key = "k";
  u.clustering_widths = std::move(widths);
  u.regular_columns = {Column{"v", -1, false}};
  return u;
}

TEST(MutationBytes, ClusteringNullAndEmptyBits) {
  Mutation m;
  PartitionUpdate u = ClusteredUpdate({4, -1});
  Unfiltered r1, r2;
  r1.row.clustering = {std::nullopt, std::string()};  // null: bit 1; empty: bit 2 -> 06
  r2.row.clustering = {std::string("abcd"), std::string("xy")};
  u.unfiltereds = {r1, r2};
  u.row_estimate = 2;
  m.updates = {u};
  ExpectBytes(m, std::string("01") + kTableHex +
                     "01 6b 10 00 00 00 01 01 76 02 00 06 01 00 00 61626364 02 7879 01 01");
}

TEST(MutationBytes, ClusteringBlocksOf32) {
  Mutation m;
  PartitionUpdate u = ClusteredUpdate(std::vector<int32_t>(33, -1));
  Unfiltered r;
  r.row.clustering.assign(33, std::string());
  u.unfiltereds = {r};
  u.row_estimate = 1;
  m.updates = {u};
  ExpectBytes(m, std::string("01") + kTableHex +
                     "01 6b 10 00 00 00 01 01 76 01 00 ff5555555555555555 01 01 01");
}

TEST(MutationBytes, RangeTombstoneBoundAndBoundary) {
  Mutation m;
  PartitionUpdate u = ClusteredUpdate({4});
  Unfiltered b1, b2;
  b1.is_marker = true;
  b1.marker.kind = BoundKind::kInclStart;
  b1.marker.bound = {std::string("\0\0\0\1", 4)};
  b1.marker.deletion =
      DeletionTime{kTimestampEpoch + 1, static_cast<uint32_t>(kDeletionTimeEpoch) + 2};
  b2.is_marker = true;
  b2.marker.kind = BoundKind::kExclEndInclStartBoundary;
  b2.marker.bound = {std::string("\0\0\0\2", 4)};  // a boundary is never empty (Validate)
  b2.marker.deletion =
      DeletionTime{kTimestampEpoch + 1, static_cast<uint32_t>(kDeletionTimeEpoch) + 2};
  b2.marker.start_deletion =
      DeletionTime{kTimestampEpoch + 3, static_cast<uint32_t>(kDeletionTimeEpoch) + 4};
  Unfiltered b3;  // the boundary's range closes at the partition's top
  b3.is_marker = true;
  b3.marker.kind = BoundKind::kInclEnd;
  b3.marker.deletion = b2.marker.start_deletion;
  u.unfiltereds = {b1, b2, b3};
  m.updates = {u};
  ExpectBytes(m, std::string("01") + kTableHex +
                     "01 6b 10 00 00 00 01 01 76 00 02 01 0001 00 00000001 01 02"
                     " 02 02 0001 00 00000002 01 02 03 04 02 06 0000 03 04 01");
  // An empty bound is only the bottom or the top: the boundary and the exclusive kinds are
  // refused (Cassandra reads size 0 as BOTTOM or TOP); the inclusive start and end are written.
  // Each variant pairs (b1 opens, the empty marker closes or reopens, the last closes), so the
  // empty bound is the only rule it breaks.
  for (BoundKind k : {BoundKind::kExclEndInclStartBoundary, BoundKind::kInclEndExclStartBoundary,
                      BoundKind::kExclEnd, BoundKind::kExclStart}) {
    Mutation e = m;
    std::vector<Unfiltered>& un = e.updates[0].unfiltereds;
    un[1].marker.kind = k;
    un[1].marker.bound = {};
    if (k == BoundKind::kExclEnd) un.pop_back();  // b2 closes b1: nothing left to close
    if (k == BoundKind::kExclStart) {             // b2 opens, b3 closes it
      un.erase(un.begin());
      un[0].marker.start_deletion = DeletionTime{};
      un[1].marker.deletion = un[0].marker.deletion;
    }
    Mutation paired = e;  // the same markers with a bound: written
    paired.updates[0].unfiltereds[k == BoundKind::kExclStart ? 0 : 1].marker.bound = {
        std::string("\0\0\0\2", 4)};
    EXPECT_TRUE(Validate(paired).ok()) << static_cast<int>(k) << " " << Validate(paired);
    EXPECT_TRUE(ref::mutation::SpecSerialize(paired).ok()) << static_cast<int>(k);
    EXPECT_EQ(Validate(e).code(), absl::StatusCode::kInvalidArgument) << static_cast<int>(k);
    EXPECT_FALSE(ref::mutation::SpecSerialize(e).ok()) << static_cast<int>(k);
  }
  Mutation top = m;
  top.updates[0].unfiltereds[1].marker.kind = BoundKind::kInclEnd;
  top.updates[0].unfiltereds[1].marker.bound = {};
  top.updates[0].unfiltereds[1].marker.start_deletion = DeletionTime{};
  top.updates[0].unfiltereds.pop_back();  // b1's range closes at the top
  ExpectBytes(top, std::string("01") + kTableHex +
                       "01 6b 10 00 00 00 01 01 76 00 02 01 0001 00 00000001 01 02"
                       " 02 06 0000 01 02 01");
  // Read: any other kind of size 0 is refused at its size (offset 40), before its deletions.
  const std::string first = std::string("01") + kTableHex +
                            "01 6b 10 00 00 00 01 01 76 00 02 01 0001 00 00000001 01 02 02";
  for (const char* kind : {"00", "07"}) ExpectRefused(top, first + kind + " 0000 01 02 01", 40);
  for (const char* kind : {"02", "05"}) {
    ExpectRefused(top, first + kind + " 0000 01 02 03 04 01", 40);
  }
  // Markers pair up (Cassandra's MutableDeletionInfo.Builder.add), refused at the marker (or the
  // end of the partition) that breaks the pairing: a lone close (27); a range never closed (the
  // end at 38); a close with another deletion time, an open inside an open range (38).
  const std::string rows = std::string("01") + kTableHex + "01 6b 10 00 00 00 01 01 76 00";
  const std::string open = " 02 01 0001 00 00000001 01 02";
  ExpectRefused(top, rows + " 02 06 0000 01 02 01", 27);
  ExpectRefused(top, rows + open + " 01", 38);
  ExpectRefused(top, rows + open + " 02 06 0000 01 03 01", 38);
  ExpectRefused(top, rows + open + " 02 07 0001 00 00000002 01 02 02 06 0000 01 02 01", 38);
  ExpectRefused(top, rows + open + " 02 05 0001 00 00000002 01 02 03 04 01", 51);  // left open
}

// The row's bytes after the header: flags, subset, cells (each 04 00: empty value, ts 00).
std::string RowTail(const Mutation& m) {
  return CompactHex(Serialize(m)->substr(test_util::SubsetRowAt(m)));
}

TEST(MutationBytes, ColumnSubsetBitmapMarksMissingColumns) {
  const Mutation m = SubsetMutation(3, {1});
  ExpectBytes(m, std::string("01") + kTableHex +
                     "01 6b 10 00 00 00 03 02 6330 02 6331 02 6332 01 00 05 0400 01");
}

TEST(MutationBytes, ColumnSubsetLargeListsPresentWhenFewerThanHalf) {
  const Mutation m = SubsetMutation(70, {3, 65});
  // missing count 68 (44), then the present indexes 03 41
  EXPECT_EQ(RowTail(m),
            "00"
            "44"
            "03"
            "41"
            "0400"
            "0400"
            "01");
  ExpectBytes(m, CompactHex(*Serialize(m)));
}

TEST(MutationBytes, ColumnSubsetLargeListsMissingOtherwise) {
  std::vector<uint32_t> present;
  for (uint32_t i = 0; i < 70; ++i)
    if (i != 10 && i != 69) present.push_back(i);
  const Mutation m = SubsetMutation(70, present);
  std::string cells;
  for (size_t i = 0; i < present.size(); ++i) cells += "0400";
  EXPECT_EQ(RowTail(m),
            "00"
            "02"
            "0a"
            "45" +
                cells + "01");
  ExpectBytes(m, CompactHex(*Serialize(m)));
  // exactly half present (35 of 70) is not "fewer than half": the missing ones are listed
  std::vector<uint32_t> half;
  for (uint32_t i = 0; i < 35; ++i) half.push_back(i * 2);
  const Mutation h = SubsetMutation(70, half);
  std::string tail = RowTail(h);
  EXPECT_EQ(tail.substr(0, 8),
            "00"
            "23"
            "01"
            "03");
}

TEST(MutationBytes, StaticRowPartitionDeletionAndComplexColumn) {
  Mutation m;
  PartitionUpdate u = ClusteredUpdate({});
  u.static_columns = {Column{"s", -1, false}};
  u.regular_columns = {Column{"m", -1, true}};
  u.partition_deletion =
      DeletionTime{kTimestampEpoch + 7, static_cast<uint32_t>(kDeletionTimeEpoch) + 8};
  Row st;
  ColumnData scd;
  Cell sc;
  sc.timestamp = kTimestampEpoch;
  sc.value = "z";
  scd.cells = {sc};
  st.columns = {scd};
  u.static_row = st;
  Unfiltered un;
  ColumnData cd;
  cd.complex_deletion =
      DeletionTime{kTimestampEpoch + 1, static_cast<uint32_t>(kDeletionTimeEpoch) + 1};
  Cell c1;
  c1.timestamp = kTimestampEpoch;
  c1.path = "p";
  c1.value = "q";
  cd.cells = {c1};
  un.row.columns = {cd};
  u.unfiltereds = {un};
  u.row_estimate = 1;
  m.updates = {u};
  // flags 1c; static columns 01 01 73; regular 01 01 6d; partition deletion 07 08;
  // static row: flags a0 (all columns | extension), ext 01, cell 00 00 01 7a; row estimate 01;
  // row: flags 60 (all columns | complex deletion), deletion 01 01, cell count 01, cell 00 00
  // path 01 70 value 01 71; end 01.
  ExpectBytes(m, std::string("01") + kTableHex +
                     "01 6b 1c 00 00 00 01 01 73 01 01 6d 07 08 a0 01 00 00 01 7a 01"
                     " 60 01 01 01 00 00 01 70 01 71 01");
}

TEST(MutationBytes, EmptyUpdateIsFlagsOnly) {
  Mutation m;
  PartitionUpdate u;
  u.table_id = kTable;
  u.key = "k";
  m.updates = {u, u};
  m.updates[1].table_id[0] = 0x01;
  ExpectBytes(m, std::string("02") + kTableHex + "01 6b 01" + "01" +
                     std::string(kTableHex).substr(2) + "01 6b 01");
}

TEST(MutationValidate, RejectsWhatTheFormatCannotCarry) {
  Mutation m = WorkedExample();
  m.updates[0].unfiltereds[0].row.columns[0].cells[0].value = "abc";  // fixed width 4
  EXPECT_EQ(Serialize(m).status().code(), absl::StatusCode::kInvalidArgument);
  EXPECT_EQ(SerializeSmall(m).status().code(), absl::StatusCode::kInvalidArgument);
  EXPECT_EQ(ref::mutation::SpecSerialize(m).status().code(), absl::StatusCode::kInvalidArgument);
  Mutation none;
  EXPECT_FALSE(Serialize(none).ok());
  Mutation epoch = WorkedExample();
  epoch.updates[0].epoch = 3;  // 4.0 has no epoch
  EXPECT_FALSE(Serialize(epoch).ok());
  EXPECT_FALSE(ref::mutation::SpecSerialize(epoch).ok());
}

}  // namespace
}  // namespace serdiff::mutation
