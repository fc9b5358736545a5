// Shared by the mutation family's unit tests, tests/mutation_bytes_test.cc (exact bytes of every
// writer) and tests/mutation_test.cc (decoder errors, the allocation contract, the fuzz spec's
// budget, the decoders' heap): the table id and docs/mutation.md's worked example.
#pragma once

#include <string>

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

}  // namespace serdiff::mutation::test_util
