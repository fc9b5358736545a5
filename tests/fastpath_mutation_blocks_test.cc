// Generators aimed at the block encodings of the mutation family (src/serdiff/mutation):
//   * the column subset of a row (Columns.Serializer.serializeSubset): one uvint bitmap of the
//     missing columns below 64 header columns, a missing count then the present or the missing
//     indexes from 64 on;
//   * the clustering of a row or a range-tombstone bound (ClusteringPrefix.Serializer): one
//     header uvint per block of 32 components, bit 2i+1 null and bit 2i empty.
// For column counts {1..10, 31..33, 62..66, 70} a row missing exactly one column at every
// position, and one having exactly one; for clustering sizes {1..5, 31, 32, 33, 40} a null and
// an empty component at every position (among values, and among components of the other
// kind). Every optimized writer (exact-size, small, growable buffer) must equal the
// spec-transcription writer (reference/mutation/spec_writer.h) and the bytes assembled here
// from docs/mutation.md's layout table, byte for byte; both decoders give the mutation back.
#include <cstdint>
#include <string>
#include <vector>

#include "absl/strings/str_cat.h"
#include "gtest/gtest.h"
#include "harness/hex.h"
#include "reference/mutation/decoder_ref.h"
#include "reference/mutation/spec_writer.h"
#include "serdiff/mutation/mutation.h"
#include "targets/mutation/domain.h"

namespace serdiff::mutation {
namespace {

using harness::CompactHex;
using harness::Unhex;

const TableId kTable = {0x00, 0x11, 0x22, 0x33, 0x44, 0x55, 0x66, 0x77,
                        0x88, 0x99, 0xaa, 0xbb, 0xcc, 0xdd, 0xee, 0xff};

// Cassandra's unsigned vint (VIntCoding.writeUnsignedVInt), written here once more: e extra
// bytes (0..8) announced by e leading one bits of the first byte; 7(e+1) value bits for e < 8,
// 64 for e == 8.
std::string UVInt(uint64_t v) {
  int extra = 0;
  while (extra < 8 && v >= (uint64_t{1} << (7 * (extra + 1)))) ++extra;
  std::string s(static_cast<size_t>(extra) + 1, '\0');
  for (int k = extra; k >= 1; --k) {
    s[static_cast<size_t>(k)] = static_cast<char>(v & 0xff);
    v >>= 8;
  }
  const unsigned lead =
      extra == 8 ? 0xffu : ((0xff00u >> extra) & 0xffu) | static_cast<unsigned>(v);
  s[0] = static_cast<char>(lead);
  return s;
}

TEST(FastpathMutationBlocks, UVIntHelperMatchesHandDerivedBytes) {
  EXPECT_EQ(CompactHex(UVInt(0)), "00");
  EXPECT_EQ(CompactHex(UVInt(127)), "7f");
  EXPECT_EQ(CompactHex(UVInt(128)), "8080");
  EXPECT_EQ(CompactHex(UVInt(uint64_t{1} << 55)), "fe80000000000000");
  EXPECT_EQ(CompactHex(UVInt(uint64_t{1} << 62)), "ff4000000000000000");
  EXPECT_EQ(CompactHex(UVInt(0x5555555555555555ull)), "ff5555555555555555");
}

// Every writer must give exactly `want`; both decoders give `m` back.
void ExpectAll(const Mutation& m, const std::string& want, const std::string& where) {
  absl::StatusOr<std::string> exact = Serialize(m);
  ASSERT_TRUE(exact.ok()) << where << ": " << exact.status();
  ASSERT_EQ(CompactHex(*exact), CompactHex(want)) << where << " exact-size";
  absl::StatusOr<std::string> small = SerializeSmall(m);
  ASSERT_TRUE(small.ok()) << where << ": " << small.status();
  EXPECT_EQ(CompactHex(*small), CompactHex(want)) << where << " small";
  absl::StatusOr<std::string> growable = SerializeViaGrowableBuffer(m);
  ASSERT_TRUE(growable.ok()) << where << ": " << growable.status();
  EXPECT_EQ(CompactHex(*growable), CompactHex(want)) << where << " growable";
  absl::StatusOr<std::string> spec = ref::mutation::SpecSerialize(m);
  ASSERT_TRUE(spec.ok()) << where << ": " << spec.status();
  EXPECT_EQ(CompactHex(*spec), CompactHex(want)) << where << " spec";
  EXPECT_EQ(*SerializedSize(m), want.size()) << where;
  const Schema schema = SchemaOf(m);
  absl::StatusOr<DecodedMutation> back = Deserialize(
      absl::Span<const uint8_t>(reinterpret_cast<const uint8_t*>(want.data()), want.size()),
      m.version, schema);
  ASSERT_TRUE(back.ok()) << where << ": " << back.status();
  EXPECT_TRUE(back->ToMutation() == m) << where << "\n"
                                       << targets::mutation::Dump(*back) << "\nvs\n"
                                       << targets::mutation::Dump(m);
  absl::StatusOr<DecodedMutation> ref_back = ref::mutation::RefDeserialize(want, m.version, schema);
  ASSERT_TRUE(ref_back.ok()) << where << ": " << ref_back.status();
  EXPECT_EQ(targets::mutation::Dump(*back), targets::mutation::Dump(m));
  EXPECT_EQ(targets::mutation::Dump(*ref_back), targets::mutation::Dump(m));
  EXPECT_TRUE(ref_back->ToMutation() == m) << where;
}

// Bytes of a 4.0 mutation with one update of table kTable, key "k", default stats, no static
// columns, `columns` regular columns named c0, c1, ... (or "v"), row estimate `rows`, then
// `body` (the unfiltereds) and the end-of-partition byte.
std::string UpdateBytes(const std::vector<Column>& columns, int rows, const std::string& body) {
  std::string s = Unhex("01 00112233445566778899aabbccddeeff 01 6b 10 00 00 00");
  s += UVInt(columns.size());
  for (const Column& c : columns) s += UVInt(c.name.size()) + c.name;
  s += UVInt(static_cast<uint64_t>(rows));
  return s + body + "\x01";
}

// ---- column subsets -------------------------------------------------------------------------

const std::vector<size_t> kColumnCounts = {1,  2,  3,  4,  5,  6,  7,  8,  9, 10,
                                           31, 32, 33, 62, 63, 64, 65, 66, 70};

// One row, no clustering, no liveness, the given present columns (each one live cell with an
// empty value and timestamp = the stats' minimum: cell bytes 04 00).
Mutation SubsetRow(size_t ncols, const std::vector<uint32_t>& present) {
  Mutation m;
  PartitionUpdate u;
  u.table_id = kTable;
  u.key = "k";
  for (size_t i = 0; i < ncols; ++i) {
    u.regular_columns.push_back(Column{"c" + std::to_string(i), i % 2 == 0 ? 4 : -1, false});
  }
  Unfiltered un;
  for (uint32_t p : present) {
    ColumnData cd;
    cd.column = p;
    Cell c;
    c.timestamp = kTimestampEpoch;
    cd.cells = {c};
    un.row.columns.push_back(cd);
  }
  u.unfiltereds = {un};
  u.row_estimate = 1;
  m.updates = {u};
  return m;
}

// The row as docs/mutation.md lays it out: flags (0x20 when every column is present), the
// subset, the cells, for a row of SubsetRow.
std::string SubsetRowBytes(size_t ncols, const std::vector<uint32_t>& present) {
  std::vector<bool> has(ncols, false);
  for (uint32_t p : present) has[p] = true;
  std::string s;
  if (present.size() == ncols) {
    s += "\x20";
  } else {
    s += std::string(1, '\0');
    if (ncols < 64) {
      uint64_t missing = 0;
      for (size_t i = 0; i < ncols; ++i) {
        if (!has[i]) missing |= uint64_t{1} << i;
      }
      s += UVInt(missing);
    } else {
      s += UVInt(ncols - present.size());
      const bool list_present = present.size() < ncols / 2;
      for (size_t i = 0; i < ncols; ++i) {
        if (has[i] == list_present) s += UVInt(i);
      }
    }
  }
  for (size_t k = 0; k < present.size(); ++k) s += Unhex("04 00");
  return s;
}

void CheckSubset(size_t ncols, const std::vector<uint32_t>& present, const std::string& where) {
  const Mutation m = SubsetRow(ncols, present);
  ExpectAll(m, UpdateBytes(m.updates[0].regular_columns, 1, SubsetRowBytes(ncols, present)), where);
}

// The reference decoder's flag offsets (the mutated domain's aim, harness/mutated.h): for a
// row of 3 columns with c1 missing, UpdateBytes' layout puts the partition flags at 19 (after
// the count, the 16-byte table id and the key "k"), the row flags at 34 (after the stats, the
// column count and three 3-byte names, the row estimate), the subset bitmap at 35, the two
// cells' flags at 36 and 38 and the end-of-partition flags at 40. An edit after an error
// stops the list there.
TEST(FastpathMutationBlocks, ReferenceFlagOffsetsOfASubsetRow) {
  const Mutation m = SubsetRow(3, {0, 2});
  const std::string bytes = UpdateBytes(m.updates[0].regular_columns, 1, SubsetRowBytes(3, {0, 2}));
  ASSERT_EQ(CompactHex(bytes.substr(34)),
            "0002040004000"
            "1");
  const Schema schema = SchemaOf(m);
  EXPECT_EQ(ref::mutation::RefFlagOffsets(bytes, m.version, schema),
            (std::vector<uint32_t>{19, 34, 35, 36, 38, 40}));
  std::string bad = bytes;
  bad[35] = '\x0a';  // bit 3: past the 3 columns, rejected at 35
  EXPECT_EQ(ref::mutation::RefFlagOffsets(bad, m.version, schema),
            (std::vector<uint32_t>{19, 34, 35}));
}

// Hand-derived rows: the highest bitmap bit below 64, and both large-subset lists at 64.
TEST(FastpathMutationBlocks, SubsetRowsDerivedByHand) {
  std::vector<uint32_t> all_but_last;
  for (uint32_t i = 0; i < 62; ++i) all_but_last.push_back(i);
  std::string cells;
  for (int k = 0; k < 62; ++k) cells += "0400";
  // 63 columns, column 62 missing: bitmap 2^62, a 9-byte uvint.
  EXPECT_EQ(CompactHex(SubsetRowBytes(63, all_but_last)), "00ff4000000000000000" + cells);
  CheckSubset(63, all_but_last, "63 columns, 62 missing");
  // 64 columns, column 63 missing: missing count 1, then the missing index 63 (3f).
  all_but_last.push_back(62);
  cells += "0400";
  EXPECT_EQ(CompactHex(SubsetRowBytes(64, all_but_last)), "00013f" + cells);
  CheckSubset(64, all_but_last, "64 columns, 63 missing");
  // 64 columns, only column 63 present: missing count 63 (3f), then the present index 63.
  EXPECT_EQ(CompactHex(SubsetRowBytes(64, {63})), "003f3f0400");
  CheckSubset(64, {63}, "64 columns, only 63");
  // 8 columns, only column 7 present: bitmap 7f.
  EXPECT_EQ(CompactHex(SubsetRowBytes(8, {7})), "007f0400");
  CheckSubset(8, {7}, "8 columns, only 7");
}

TEST(FastpathMutationBlocks, RowMissingOrHavingOneColumnAtEveryPosition) {
  for (size_t n : kColumnCounts) {
    for (uint32_t p = 0; p < n; ++p) {
      std::vector<uint32_t> all_but;
      for (uint32_t i = 0; i < n; ++i) {
        if (i != p) all_but.push_back(i);
      }
      CheckSubset(n, all_but, absl::StrCat(n, " columns, ", p, " missing"));
      CheckSubset(n, {p}, absl::StrCat(n, " columns, only ", p));
    }
  }
}

// The large subset's other boundary: the present list is written while fewer than half
// (integer division) of the columns are present, the missing list from half on.
TEST(FastpathMutationBlocks, LargeSubsetAroundHalfPresent) {
  for (size_t n : {size_t{64}, size_t{65}, size_t{66}, size_t{70}}) {
    for (size_t c = n / 2 - 1; c <= n / 2 + 1; ++c) {
      std::vector<uint32_t> first, last;
      for (uint32_t i = 0; i < c; ++i) {
        first.push_back(i);
        last.push_back(static_cast<uint32_t>(n - c + i));
      }
      CheckSubset(n, first, absl::StrCat(n, " columns, first ", c, " present"));
      CheckSubset(n, last, absl::StrCat(n, " columns, last ", c, " present"));
    }
  }
  // 64 columns, 0..31 present (exactly half): missing count 32 (20), then the missing 32..63.
  std::vector<uint32_t> half;
  std::string want = "0020";
  for (uint32_t i = 0; i < 32; ++i) half.push_back(i);
  for (int i = 32; i < 64; ++i) want += absl::StrCat(absl::Hex(i, absl::kZeroPad2));
  for (int i = 0; i < 32; ++i) want += "0400";
  EXPECT_EQ(CompactHex(SubsetRowBytes(64, half)), want);
}

// ---- clustering blocks ----------------------------------------------------------------------

const std::vector<size_t> kClusteringSizes = {1, 2, 3, 4, 5, 31, 32, 33, 40};

// Widths alternate fixed 1 and variable, so a value is written as 76 or as 01 76.
std::vector<int32_t> Widths(size_t k) {
  std::vector<int32_t> w;
  for (size_t i = 0; i < k; ++i) w.push_back(i % 2 == 0 ? 1 : -1);
  return w;
}

// The clustering bytes of `comps` from docs/mutation.md: per block of 32 a header uvint (bit
// 2i+1 null, 2i empty), then the values that are neither.
std::string ClusteringBytes(const std::vector<int32_t>& widths,
                            const std::vector<Component>& comps) {
  std::string s;
  for (size_t block = 0; block < comps.size(); block += 32) {
    uint64_t header = 0;
    std::string values;
    for (size_t i = block; i < comps.size() && i < block + 32; ++i) {
      if (!comps[i].has_value()) {
        header |= uint64_t{1} << (2 * (i - block) + 1);
      } else if (comps[i]->empty()) {
        header |= uint64_t{1} << (2 * (i - block));
      } else {
        if (widths[i] < 0) values += UVInt(comps[i]->size());
        values += *comps[i];
      }
    }
    s += UVInt(header) + values;
  }
  return s;
}

// A row with clustering `comps` (no columns: subset bitmap 01), then an inclusive-start marker
// whose bound is the same components (flags 02, kind 01, [short] size, clustering, deletion
// deltas 01 02), closed at the partition's top (02, kind 06, size 0, the same deletion).
void CheckClustering(const std::vector<Component>& comps, const std::string& where) {
  Mutation m;
  PartitionUpdate u;
  u.table_id = kTable;
  u.key = "k";
  u.clustering_widths = Widths(comps.size());
  u.regular_columns = {Column{"v", -1, false}};
  Unfiltered row;
  row.row.clustering = comps;
  Unfiltered marker;
  marker.is_marker = true;
  marker.marker.kind = BoundKind::kInclStart;
  marker.marker.bound = comps;
  marker.marker.deletion =
      DeletionTime{kTimestampEpoch + 1, static_cast<uint32_t>(kDeletionTimeEpoch) + 2};
  Unfiltered top;
  top.is_marker = true;
  top.marker.kind = BoundKind::kInclEnd;
  top.marker.deletion = marker.marker.deletion;
  u.unfiltereds = {row, marker, top};
  u.row_estimate = 1;
  m.updates = {u};
  const std::string cl = ClusteringBytes(u.clustering_widths, comps);
  const std::string body = std::string(1, '\0') + cl + "\x01" + "\x02\x01" +
                           std::string(1, static_cast<char>(comps.size() >> 8)) +
                           std::string(1, static_cast<char>(comps.size() & 0xff)) + cl +
                           "\x01\x02" + std::string("\x02\x06\x00\x00\x01\x02", 6);
  ExpectAll(m, UpdateBytes(u.regular_columns, 1, body), where);
}

TEST(FastpathMutationBlocks, ClusteringDerivedByHand) {
  // 33 components, all "v" except a null at 31 (block 1, bit 63) and an empty at 32 (block 2,
  // bit 0): header 2^63 as 9 bytes, 31 values, then header 01 and nothing.
  std::vector<Component> c(33, std::string("v"));
  c[31] = std::nullopt;
  c[32] = std::string();
  std::string want = "ff8000000000000000";
  for (size_t i = 0; i < 31; ++i) want += i % 2 == 0 ? "76" : "0176";
  want += "01";
  EXPECT_EQ(CompactHex(ClusteringBytes(Widths(33), c)), want);
  CheckClustering(c, "33: null at 31, empty at 32");
}

TEST(FastpathMutationBlocks, NullAndEmptyComponentAtEveryPosition) {
  for (size_t k : kClusteringSizes) {
    for (size_t i = 0; i < k; ++i) {
      std::vector<Component> c(k, std::string("v"));
      c[i] = std::nullopt;
      CheckClustering(c, absl::StrCat(k, " components, null at ", i));
      c[i] = std::string();
      CheckClustering(c, absl::StrCat(k, " components, empty at ", i));
      std::vector<Component> empties(k, std::string());
      empties[i] = std::nullopt;
      CheckClustering(empties, absl::StrCat(k, " empty components, null at ", i));
      std::vector<Component> nulls(k, std::nullopt);
      nulls[i] = std::string();
      CheckClustering(nulls, absl::StrCat(k, " null components, empty at ", i));
    }
  }
}

}  // namespace
}  // namespace serdiff::mutation
