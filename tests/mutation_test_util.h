// Shared by the mutation family's unit tests, tests/mutation_bytes_test.cc (exact bytes of every
// writer) and tests/mutation_test.cc (decoder errors, the allocation contract, the fuzz spec's
// budget, the decoders' heap): the table id and docs/mutation.md's worked example.
#pragma once

#include <string>
#include <vector>

#include "serdiff/mutation/mutation.h"

namespace serdiff::mutation::test_util {

inline const TableId kTable = {0x00, 0x11, 0x22, 0x33, 0x44, 0x55, 0x66, 0x77,
                               0x88, 0x99, 0xaa, 0xbb, 0xcc, 0xdd, 0xee, 0xff};

// Table (pk int PRIMARY KEY, v int), INSERT pk=1, v=42 USING TIMESTAMP 1700000000000000.
inline Mutation WorkedExample(Version v = Version::kV40) {
  Mutation m;
  m.version = v;
  PartitionUpdate u;
  u.table_id = kTable;
  if (HasEpoch(v)) u.epoch = 5;
  u.key = std::string("\x00\x00\x00\x01", 4);
  u.stats.min_timestamp = 1700000000000000;
  u.regular_columns = {Column{"v", 4, false}};
  u.row_estimate = 1;
  Unfiltered un;
  un.row.liveness.timestamp = 1700000000000000;
  ColumnData cd;
  Cell c;
  c.timestamp = 1700000000000000;
  c.value = std::string("\x00\x00\x00\x2a", 4);
  cd.cells = {c};
  un.row.columns = {cd};
  u.unfiltereds = {un};
  m.updates = {u};
  return m;
}

// One update of table kTable, key "k", with `ncols` regular int columns named c0, c1, ... and one
// row holding an empty live cell (timestamp epoch) in each column of `present`: its column
// subset is written as a bitmap below 64 columns, as a missing count and an index list from 64.
inline Mutation SubsetMutation(size_t ncols, const std::vector<uint32_t>& present) {
  Mutation m;
  PartitionUpdate u;
  u.table_id = kTable;
  u.key = "k";
  for (size_t i = 0; i < ncols; ++i) u.regular_columns.push_back(Column{"c", 1, false});
  for (size_t i = 0; i < ncols; ++i) u.regular_columns[i].name = "c" + std::to_string(i);
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

// Where the row of a SubsetMutation starts in its serialized bytes (its flags byte): after the
// update count, table id, key, partition flags, stats, the column count and names and the row
// estimate (every count and length a one-byte vint, as below 64 columns of short names).
inline size_t SubsetRowAt(const Mutation& m) {
  size_t at = 1 + 16 + 2 + 1 + 3 + 1;
  for (const Column& c : m.updates[0].regular_columns) at += 1 + c.name.size();
  return at + 1;
}

}  // namespace serdiff::mutation::test_util
