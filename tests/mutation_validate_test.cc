// Every rule of mutation::Validate (mutation.h), one at a time: a valid mutation with exactly
// one rule broken is refused by every optimized writer (Validate, SerializedSize, Serialize,
// SerializeSmall, SerializeViaGrowableBuffer) with the exact message, and by the reference
// writer (ref::mutation::SpecSerialize); the same mutation on the valid side of the rule's edge
// is written, to the reference's bytes, by every writer. The fuzz targets' builder makes valid
// mutations only, so these tests are what reaches the rules (docs/mutation.md, "Validation").
#include <functional>
#include <string>
#include <vector>

#include "gtest/gtest.h"
#include "reference/mutation/spec_writer.h"
#include "serdiff/mutation/mutation.h"
#include "targets/mutation/domain.h"

namespace serdiff::mutation {
namespace {

const TableId kTable = {1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15, 16};
const std::string kFour("\x00\x00\x00\x2a", 4);

// A 5.1 mutation that reaches every rule: two clustering columns (fixed 4, variable), a static
// column and its row, a simple fixed-width column, a complex column of two cells, an expiring
// and a tombstone cell, a row deletion, a range-tombstone marker.
Mutation Rich(Version v = Version::kV51) {
  Mutation m;
  m.version = v;
  PartitionUpdate u;
  u.table_id = kTable;
  u.key = "k";
  u.stats.min_timestamp = 1000;
  u.clustering_widths = {4, -1};
  u.static_columns = {Column{"s", -1, false}};
  u.regular_columns = {Column{"v", 4, false}, Column{"m", -1, true}, Column{"t", 8, false}};
  u.row_estimate = 2;
  Row st;
  ColumnData sc;
  sc.cells = {Cell{CellKind::kLive, 1000, kNoDeletionTime, kNoTtl, "", "static"}};
  st.columns = {sc};
  u.static_row = st;
  Unfiltered row;
  row.row.clustering = {kFour, std::string("x")};
  row.row.liveness = Liveness{1000, 60, 1700000000};
  row.row.deletion = DeletionTime{900, 1600000000};
  row.row.shadowable = true;
  ColumnData v0;
  v0.column = 0;
  v0.cells = {Cell{CellKind::kExpiring, 1000, 1700000000, 60, "", kFour}};
  ColumnData v1;
  v1.column = 1;
  v1.complex_deletion = DeletionTime{800, 1500000000};
  v1.cells = {Cell{CellKind::kLive, 1000, kNoDeletionTime, kNoTtl, "a", "1"},
              Cell{CellKind::kTombstone, 1001, 1600000000, kNoTtl, "b", ""}};
  row.row.columns = {v0, v1};
  Unfiltered marker;
  marker.is_marker = true;
  marker.marker.kind = BoundKind::kInclStart;
  marker.marker.bound = {std::string("\x00\x00\x00\x07", 4)};
  marker.marker.deletion = DeletionTime{700, 1400000000};
  Unfiltered top;  // the range closes at the partition's top
  top.is_marker = true;
  top.marker.kind = BoundKind::kInclEnd;
  top.marker.deletion = marker.marker.deletion;
  u.unfiltereds = {row, marker, top};
  m.updates = {u};
  if (HasEpoch(v)) {
    m.updates[0].epoch = 3;
    m.allow_out_of_range = true;
  }
  return m;
}

PartitionUpdate& U(Mutation& m) { return m.updates[0]; }
Row& R(Mutation& m) { return m.updates[0].unfiltereds[0].row; }
Cell& C(Mutation& m, size_t column, size_t cell = 0) { return R(m).columns[column].cells[cell]; }

// Every writer refuses `m` with exactly `message`; the reference refuses it too.
void ExpectRefused(const Mutation& m, const std::string& message) {
  const absl::Status v = Validate(m);
  EXPECT_EQ(v.code(), absl::StatusCode::kInvalidArgument) << message;
  EXPECT_EQ(v.message(), message);
  EXPECT_EQ(SerializedSize(m).status(), v);
  EXPECT_EQ(Serialize(m).status(), v);
  EXPECT_EQ(SerializeSmall(m).status(), v);
  EXPECT_EQ(SerializeViaGrowableBuffer(m).status(), v);
  EXPECT_EQ(ref::mutation::SpecSerialize(m).status().code(), absl::StatusCode::kInvalidArgument)
      << "the reference writes what the optimized writers refuse: " << message;
}

// Every writer writes `m`, the reference's bytes.
void ExpectWritten(const Mutation& m, const std::string& what) {
  const absl::StatusOr<std::string> want = ref::mutation::SpecSerialize(m);
  ASSERT_TRUE(want.ok()) << what << ": " << want.status();
  EXPECT_TRUE(Validate(m).ok()) << what << ": " << Validate(m);
  const absl::StatusOr<size_t> size = SerializedSize(m);
  ASSERT_TRUE(size.ok()) << what;
  EXPECT_EQ(*size, want->size()) << what;
  for (const auto& got : {Serialize(m), SerializeSmall(m), SerializeViaGrowableBuffer(m)}) {
    ASSERT_TRUE(got.ok()) << what << ": " << got.status();
    EXPECT_EQ(*got, *want) << what;
  }
}

TEST(MutationValidateRules, TheRichExampleIsWrittenInEveryVersion) {
  ExpectWritten(Rich(Version::kV40), "4.0");
  ExpectWritten(Rich(Version::kV50), "5.0");
  ExpectWritten(Rich(Version::kV51), "5.1");
}

struct Rule {
  const char* what;
  std::function<void(Mutation&)> refused;  // breaks the rule
  std::function<void(Mutation&)> held;     // the nearest change that keeps it
  std::string message;
  Version version = Version::kV51;
};

std::vector<Rule> Rules() {
  const std::string p0 = "mutation: partition 0";
  const std::string row = p0 + " unfiltered 0";
  const std::string kUnpaired =
      " unfiltered 1: a marker that does not pair (a close with no open range or another "
      "deletion time, or an open inside an open range)";
  return {
      {"unknown version", [](Mutation& m) { m.version = static_cast<Version>(3); },
       [](Mutation& m) { m.version = Version::kV51; }, "mutation: mutation: unknown version"},
      {"no updates", [](Mutation& m) { m.updates.clear(); },
       [](Mutation& m) { m.updates.push_back(m.updates[0]); },
       "mutation: mutation: no partition updates"},
      {"allow_out_of_range in 5.0",
       [](Mutation& m) {
         m.version = Version::kV50;
         U(m).epoch = 0;
       },
       [](Mutation& m) {
         m.version = Version::kV50;
         U(m).epoch = 0;
         m.allow_out_of_range = false;
       },
       "mutation: mutation: allow_out_of_range needs version 5.1"},
      {"epoch in 4.0",
       [](Mutation& m) {
         m.version = Version::kV40;
         m.allow_out_of_range = false;
       },
       [](Mutation& m) {
         m.version = Version::kV40;
         m.allow_out_of_range = false;
         U(m).epoch = 0;
       },
       p0 + ": epoch needs version 5.1"},
      {"negative row estimate", [](Mutation& m) { U(m).row_estimate = -1; },
       [](Mutation& m) { U(m).row_estimate = 0; }, p0 + ": negative row estimate"},
      {"clustering width 0", [](Mutation& m) { U(m).clustering_widths[1] = 0; },
       [](Mutation& m) {
         U(m).clustering_widths[1] = 1;
         U(m).unfiltereds[0].row.clustering[1] = "y";
       },
       p0 + ": width 0 is neither -1 (variable) nor > 0"},
      {"clustering width -2", [](Mutation& m) { U(m).clustering_widths[1] = -2; }, nullptr,
       p0 + ": width -2 is neither -1 (variable) nor > 0"},
      {"regular column width 0",
       [](Mutation& m) {
         U(m).regular_columns[2].fixed_width = 0;
         R(m).columns.push_back(ColumnData{2, {}, {Cell{}}});
       },
       [](Mutation& m) {
         U(m).regular_columns[2].fixed_width = 1;
         R(m).columns.push_back(
             ColumnData{2, {}, {Cell{CellKind::kLive, 5, kNoDeletionTime, kNoTtl, "", "z"}}});
       },
       p0 + " column t: width 0 is neither -1 (variable) nor > 0"},
      {"static column width 0", [](Mutation& m) { U(m).static_columns[0].fixed_width = 0; },
       [](Mutation& m) {
         U(m).static_columns[0].fixed_width = 6;  // "static" is 6 bytes
       },
       p0 + " column s: width 0 is neither -1 (variable) nor > 0"},
      {"an empty update with stats",
       [](Mutation& m) {
         PartitionUpdate e;
         e.table_id = kTable;
         e.key = "e";
         e.stats.min_ttl = 1;
         m.updates = {e};
       },
       [](Mutation& m) {
         PartitionUpdate e;
         e.table_id = kTable;
         e.key = "e";
         m.updates = {e};
       },
       p0 + ": an empty update must have default stats, no columns, row estimate 0"},
      {"an empty update with a column",
       [](Mutation& m) {
         PartitionUpdate e;
         e.key = "e";
         e.regular_columns = {Column{"v", 4, false}};
         m.updates = {e};
       },
       nullptr, p0 + ": an empty update must have default stats, no columns, row estimate 0"},
      {"an empty update with a static column",
       [](Mutation& m) {
         PartitionUpdate e;
         e.key = "e";
         e.static_columns = {Column{"s", 4, false}};
         m.updates = {e};
       },
       nullptr, p0 + ": an empty update must have default stats, no columns, row estimate 0"},
      {"an empty update with a row estimate",
       [](Mutation& m) {
         PartitionUpdate e;
         e.key = "e";
         e.row_estimate = 1;
         m.updates = {e};
       },
       nullptr, p0 + ": an empty update must have default stats, no columns, row estimate 0"},
      {"static columns without a static row", [](Mutation& m) { U(m).static_row.reset(); },
       [](Mutation& m) {
         U(m).static_row.reset();
         U(m).static_columns.clear();
       },
       p0 + ": static columns without a static row are not written"},
      {"a static row with clustering",
       [](Mutation& m) {
         U(m).static_row->clustering = {kFour, std::string("x")};
       },
       nullptr, p0 + " static row: 2 clustering components, want 0"},
      {"a row with one clustering component too few",
       [](Mutation& m) { R(m).clustering.pop_back(); },
       [](Mutation& m) { R(m).clustering[1] = std::nullopt; },
       row + ": 1 clustering components, want 2"},
      {"a clustering component of the wrong width",
       [](Mutation& m) { R(m).clustering[0] = std::string("abc"); },
       [](Mutation& m) { R(m).clustering[0] = std::string(); },
       row + " component 0: value of 3 bytes for a fixed-width 4 type"},
      {"an empty liveness with a TTL", [](Mutation& m) { R(m).liveness.timestamp = kNoTimestamp; },
       [](Mutation& m) { R(m).liveness = Liveness{}; },
       row + ": empty liveness with a TTL or an expiration time"},
      {"an empty liveness with an expiration time",
       [](Mutation& m) {
         R(m).liveness = Liveness{kNoTimestamp, kNoTtl, 5};
       },
       nullptr, row + ": empty liveness with a TTL or an expiration time"},
      {"a non-expiring liveness with an expiration time",
       [](Mutation& m) { R(m).liveness.ttl = kNoTtl; },
       [](Mutation& m) {
         R(m).liveness.ttl = kNoTtl;
         R(m).liveness.local_expiration_time = kNoDeletionTime;
       },
       row + ": non-expiring liveness with an expiration time"},
      {"shadowable without a deletion", [](Mutation& m) { R(m).deletion = DeletionTime{}; },
       [](Mutation& m) {
         R(m).deletion = DeletionTime{};
         R(m).shadowable = false;
       },
       row + ": shadowable without a deletion"},
      {"a column index past the header", [](Mutation& m) { R(m).columns[1].column = 3; },
       [](Mutation& m) {
         R(m).columns[1].column = 2;
         R(m).columns[1].complex_deletion = DeletionTime{};
         R(m).columns[1].cells = {
             Cell{CellKind::kLive, 5, kNoDeletionTime, kNoTtl, "", std::string(8, 'z')}};
       },
       row + " column 3: index not increasing or not below the header's 3 columns"},
      {"a column index repeated", [](Mutation& m) { R(m).columns[1] = R(m).columns[0]; }, nullptr,
       row + " column 0: index not increasing or not below the header's 3 columns"},
      {"column indexes decreasing",
       [](Mutation& m) { std::swap(R(m).columns[0], R(m).columns[1]); }, nullptr,
       row + " column 0: index not increasing or not below the header's 3 columns"},
      {"a simple column with two cells",
       [](Mutation& m) { R(m).columns[0].cells.push_back(C(m, 0)); },
       [](Mutation& m) { R(m).columns[1].cells.push_back(C(m, 1)); },
       row + " column 0: a simple column needs exactly one cell and no complex deletion"},
      {"a simple column with no cell", [](Mutation& m) { R(m).columns[0].cells.clear(); },
       [](Mutation& m) { R(m).columns[1].cells.clear(); },
       row + " column 0: a simple column needs exactly one cell and no complex deletion"},
      {"a simple column with a complex deletion",
       [](Mutation& m) {
         R(m).columns[0].complex_deletion = DeletionTime{1, 2};
       },
       nullptr, row + " column 0: a simple column needs exactly one cell and no complex deletion"},
      {"a simple cell with a path", [](Mutation& m) { C(m, 0).path = "p"; }, nullptr,
       row + " column 0: a simple cell has a path"},
      {"a live cell with a TTL", [](Mutation& m) { C(m, 1).ttl = 5; },
       [](Mutation& m) {
         C(m, 1).ttl = 5;
         C(m, 1).kind = CellKind::kExpiring;
         C(m, 1).local_deletion_time = 1700000000;
       },
       row + " column 1: a live cell has a TTL or a deletion time"},
      {"a live cell with a deletion time", [](Mutation& m) { C(m, 1).local_deletion_time = 7; },
       [](Mutation& m) {
         C(m, 1).local_deletion_time = 7;
         C(m, 1).kind = CellKind::kTombstone;
       },
       row + " column 1: a live cell has a TTL or a deletion time"},
      {"a tombstone with a TTL", [](Mutation& m) { C(m, 1, 1).ttl = 5; },
       [](Mutation& m) { C(m, 1, 1).ttl = kNoTtl; }, row + " column 1: a tombstone has a TTL"},
      {"a tombstone with a negative TTL", [](Mutation& m) { C(m, 1, 1).ttl = -1; }, nullptr,
       row + " column 1: a tombstone has a TTL"},
      {"an expiring cell with TTL 0", [](Mutation& m) { C(m, 0).ttl = kNoTtl; },
       [](Mutation& m) { C(m, 0).ttl = 1; }, row + " column 0: an expiring cell has TTL 0"},
      {"an expiring cell with a negative TTL", [](Mutation& m) { C(m, 0).ttl = -1; },
       [](Mutation& m) { C(m, 0).ttl = 1; },
       row + " column 0: an expiring cell has a negative TTL"},
      {"a cell of an unknown kind", [](Mutation& m) { C(m, 1).kind = static_cast<CellKind>(3); },
       nullptr, row + " column 1: unknown cell kind"},
      {"a fixed-width cell value of the wrong width", [](Mutation& m) { C(m, 0).value = "abc"; },
       [](Mutation& m) { C(m, 0).value.clear(); },
       row + " column 0: value of 3 bytes for a fixed-width 4 type"},
      {"a bound kind outside the format",
       [](Mutation& m) { U(m).unfiltereds[1].marker.kind = static_cast<BoundKind>(3); },
       [](Mutation& m) { U(m).unfiltereds[1].marker.kind = BoundKind::kExclStart; },
       p0 + " unfiltered 1: bad bound kind"},
      {"a bound longer than the clustering",
       [](Mutation& m) {
         U(m).unfiltereds[1].marker.bound = {kFour, std::string("a"), std::string("b")};
       },
       [](Mutation& m) {
         U(m).unfiltereds[1].marker.bound = {kFour, std::string("a")};
       },
       p0 + " unfiltered 1: bound longer than the clustering"},
      {"a bound component of the wrong width",
       [](Mutation& m) { U(m).unfiltereds[1].marker.bound = {std::string("abcde")}; },
       [](Mutation& m) { U(m).unfiltereds[1].marker.bound = {std::nullopt}; },
       p0 + " unfiltered 1 component 0: value of 5 bytes for a fixed-width 4 type"},
      // Markers pair up (MarkerPairing): unfiltered 1 opens at (700, 1400000000), 2 closes it.
      {"a close with no open range",
       [](Mutation& m) { U(m).unfiltereds[1].marker.kind = BoundKind::kExclEnd; },
       [](Mutation& m) { U(m).unfiltereds[1].marker.kind = BoundKind::kExclStart; },
       p0 + kUnpaired},
      {"a close with another deletion time",
       [](Mutation& m) { U(m).unfiltereds[2].marker.deletion.marked_for_delete_at = 701; },
       [](Mutation& m) {
         U(m).unfiltereds[1].marker.deletion.marked_for_delete_at = 701;
         U(m).unfiltereds[2].marker.deletion.marked_for_delete_at = 701;
       },
       p0 + " unfiltered 2: a marker that does not pair (a close with no open range or another "
            "deletion time, or an open inside an open range)"},
      {"a range left open at the partition's end",
       [](Mutation& m) {
         U(m).unfiltereds[2].marker.kind = BoundKind::kInclEndExclStartBoundary;
         U(m).unfiltereds[2].marker.bound = {kFour};
       },
       [](Mutation& m) {
         U(m).unfiltereds[2].marker.kind = BoundKind::kInclEndExclStartBoundary;
         U(m).unfiltereds[2].marker.bound = {kFour};
         Unfiltered top;
         top.is_marker = true;
         top.marker.kind = BoundKind::kInclEnd;
         U(m).unfiltereds.push_back(top);
       },
       p0 + ": a range tombstone is still open at the partition's end"},
  };
}

TEST(MutationValidateRules, EachBrokenRuleIsRefusedByEveryWriterAndTheReference) {
  for (const Rule& r : Rules()) {
    SCOPED_TRACE(r.what);
    Mutation m = Rich(r.version);
    r.refused(m);
    ExpectRefused(m, r.message);
  }
}

TEST(MutationValidateRules, TheValidSideOfEachRuleIsWrittenByEveryWriter) {
  for (const Rule& r : Rules()) {
    if (r.held == nullptr) continue;
    SCOPED_TRACE(r.what);
    Mutation m = Rich(r.version);
    r.held(m);
    ExpectWritten(m, r.what);
  }
}

// The first broken rule is the error, front to back, whatever else the builder made: each rule
// broken in mutations the fuzz targets' builder makes (every row, column and cell it holds is
// valid) is refused by every writer and by the reference.
TEST(MutationValidateRules, BrokenRulesInBuiltMutationsAreRefusedEverywhere) {
  using targets::mutation::BuildMutation;
  using targets::mutation::MutationSpec;
  int refused = 0;
  for (uint64_t seed = 0; seed < 300; ++seed) {
    Mutation m = BuildMutation(MutationSpec{seed, static_cast<uint8_t>(seed % 3), 2, 6, 5, 3, 64});
    PartitionUpdate& u = m.updates[0];
    for (Unfiltered& un : u.unfiltereds) {
      if (un.is_marker || un.row.columns.empty()) continue;
      Mutation bad = m;
      const size_t i = static_cast<size_t>(&un - u.unfiltereds.data());
      Row& r = bad.updates[0].unfiltereds[i].row;
      switch (seed % 4) {
        case 0:  // a column repeated
          r.columns.push_back(r.columns.back());
          break;
        case 1:  // a cell that is live and has a TTL
          r.columns.back().cells.push_back(
              Cell{CellKind::kLive, 1, kNoDeletionTime, 9, "", std::string()});
          break;
        case 2:  // shadowable, no deletion
          r.deletion = DeletionTime{};
          r.shadowable = true;
          break;
        case 3:  // one clustering component too many
          r.clustering.push_back(std::nullopt);
          break;
      }
      const absl::Status v = Validate(bad);
      EXPECT_EQ(v.code(), absl::StatusCode::kInvalidArgument) << "seed " << seed;
      EXPECT_EQ(Serialize(bad).status(), v);
      EXPECT_EQ(SerializeSmall(bad).status(), v);
      EXPECT_FALSE(ref::mutation::SpecSerialize(bad).ok()) << "seed " << seed;
      ++refused;
      break;
    }
  }
  EXPECT_GT(refused, 150);
}

}  // namespace
}  // namespace serdiff::mutation
