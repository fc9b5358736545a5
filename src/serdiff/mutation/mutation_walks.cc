// Optimized mutation serializer, its two walks: the size-only walk (Size*) and the writer (Write*),
// which produce the same fields in the same order under the same names (the Counter, the Sink and
// the trace are in mutation_internal.h; validation and the entry points that run the walks and
// check written == computed are in mutation.cc).
#include <algorithm>
#include <string>
#include <vector>

#include "serdiff/mutation/mutation_internal.h"
#include "serdiff/varint/varint.h"

namespace serdiff::mutation::mutation_internal {
namespace {

// ---- deltas -------------------------------------------------------------------------------

// Cassandra's writeUnsignedVInt32((int) delta): the 64-bit delta is cast to int32, and the
// int32 is sign-extended to 64 bits for the unsigned vint.
// The sign extension is not confirmed by observed bytes, and a third-party port zero-extends
// (docs/mutation.md, "Where I was unsure", point 1). With it, a delta in [2^31, 2^32) becomes a
// negative int and takes 9 bytes.
inline uint64_t U32Delta(int64_t delta) {
  return static_cast<uint64_t>(static_cast<int64_t>(static_cast<int32_t>(delta)));
}
// uvint(ts - base), wrapping modulo 2^64 (docs/mutation.md: "64-bit wrap"). The subtraction is done
// on uint64_t, where wrapping is defined, so that an extreme value such as a LIVE deletion's
// Long.MIN_VALUE wraps instead of overflowing.
inline uint64_t TsDelta(int64_t ts, int64_t base) {
  return static_cast<uint64_t>(ts) - static_cast<uint64_t>(base);
}
inline size_t VSize(uint64_t v) { return varint::EncodedSize(Format::kVInt, v); }
// Size of a uvint32 delta (must match U32Delta exactly).
inline size_t SizeU32Delta(int64_t delta) { return VSize(U32Delta(delta)); }

inline int64_t LdtDelta(uint32_t ldt, uint32_t base) {
  return static_cast<int64_t>(ldt) - static_cast<int64_t>(base);
}
// LdtDelta and TtlDelta: the difference of two 32-bit fields, exact in int64; U32Delta then keeps
// its low 32 bits, so deltas wrap mod 2^32 (docs/mutation.md, "Where I was unsure", point 3).
inline int64_t TtlDelta(int32_t ttl, int32_t base) {
  return static_cast<int64_t>(ttl) - static_cast<int64_t>(base);
}

// Row flag 0x40. Once it is set, every complex column of the row writes a deletion, LIVE for a
// column without one (docs/mutation.md, row table and "Where I was unsure", point 4).
bool HasComplexDeletion(const Row& r, const std::vector<Column>& cols) {
  for (const ColumnData& cd : r.columns)
    if (cols[cd.column].complex && !cd.complex_deletion.IsLive()) return true;
  return false;
}
// Cell flag 0x08: the row liveness is not empty and the cell's timestamp equals the row's; the cell
// then omits its timestamp. The size walk and the writer both ask this and UseRowTtl, so that they
// agree on which fields a cell omits.
bool UseRowTimestamp(const Cell& c, const Liveness& l) {
  return l.timestamp != kNoTimestamp && c.timestamp == l.timestamp;
}
// Cell flag 0x10: an expiring cell in an expiring row, with the row's TTL and expiration time; the
// cell then omits both.
bool UseRowTtl(const Cell& c, const Liveness& l) {
  return c.kind == CellKind::kExpiring && l.ttl != kNoTtl && c.ttl == l.ttl &&
         c.local_deletion_time == l.local_expiration_time;
}

// ---- size walk ------------------------------------------------------------------------------

// Each Size* function predicts the bytes of the Write* function of the same name below, field by
// field. The exact path relies on the two agreeing; SerializeValidated checks that they did.

// AbstractType.writeValue: a fixed-width value raw, a variable one after its length. The length is
// sized (and written) as a plain uvint; Validate keeps values below 2^31 bytes, where the uvint and
// uvint32 forms are the same bytes.
void SizeValue(Counter& c, int32_t width, const std::string& v, const char* len_field,
               const char* field) {
  if (width < 0) c.Add(VSize(v.size()), len_field);
  c.Add(v.size(), field);
}

// ClusteringPrefix.Serializer (serializeValuesWithoutSize, makeHeader): blocks of 32 components,
// each a header uvint (component i of the block: bit 2i+1 null, bit 2i empty) followed by the
// values of the components that are neither.
void SizeClustering(Counter& c, const std::vector<int32_t>& widths,
                    const std::vector<Component>& comps) {
  for (size_t off = 0; off < comps.size(); off += 32) {
    const size_t lim = std::min(comps.size(), off + 32);
    uint64_t header = 0;
    for (size_t i = off; i < lim; ++i) {
      if (!comps[i].has_value()) {
        header |= uint64_t{1} << ((i - off) * 2 + 1);
      } else if (comps[i]->empty()) {
        header |= uint64_t{1} << ((i - off) * 2);
      }
    }
    c.Add(VSize(header), "clustering.header");
    for (size_t i = off; i < lim; ++i) {
      if (comps[i].has_value() && !comps[i]->empty())
        SizeValue(c, widths[i], *comps[i], "clustering.value_length", "clustering.value");
    }
  }
}

// SerializationHeader.writeDeletionTime: the timestamp delta as a uvint, then the local deletion
// time delta as a uvint32.
void SizeDeletion(Counter& c, const EncodingStats& st, const DeletionTime& d, const char* ts_field,
                  const char* ldt_field) {
  c.Add(VSize(TsDelta(d.marked_for_delete_at, st.min_timestamp)), ts_field);
  c.Add(SizeU32Delta(LdtDelta(d.local_deletion_time, st.min_local_deletion_time)), ldt_field);
}

// Cell.Serializer.serialize: flags; the timestamp unless 0x08; the local deletion time (tombstone
// or expiring) BEFORE the TTL (expiring), both unless 0x10; the path (complex columns); the value
// unless it is empty (flag 0x04). A row's liveness writes TTL and time the other way round
// (docs/mutation.md, "Order trap").
void SizeCell(Counter& c, const EncodingStats& st, const Column& col, const Liveness& l,
              const Cell& cell) {
  c.Add(1, "cell.flags");
  const bool row_ttl = UseRowTtl(cell, l);
  if (!UseRowTimestamp(cell, l))
    c.Add(VSize(TsDelta(cell.timestamp, st.min_timestamp)), "cell.timestamp");
  if (cell.kind != CellKind::kLive && !row_ttl)
    c.Add(SizeU32Delta(LdtDelta(cell.local_deletion_time, st.min_local_deletion_time)),
          "cell.local_deletion_time");
  if (cell.kind == CellKind::kExpiring && !row_ttl)
    c.Add(SizeU32Delta(TtlDelta(cell.ttl, st.min_ttl)), "cell.ttl");
  if (col.complex) {
    c.Add(VSize(cell.path.size()), "cell.path_length");
    c.Add(cell.path.size(), "cell.path");
  }
  if (!cell.value.empty())
    SizeValue(c, col.fixed_width, cell.value, "cell.value_length", "cell.value");
}

// UnfilteredSerializer.serialize(Row) and serializeRowBody. The writer sets row flag 0x80 and
// writes the extended flags byte when the extended flags are not 0, that is for the static row
// (0x01) or a shadowable deletion (0x02): the condition tested here.
void SizeRow(Counter& c, const PartitionUpdate& u, const Row& r, bool is_static) {
  const std::vector<Column>& cols = is_static ? u.static_columns : u.regular_columns;
  const EncodingStats& st = u.stats;
  c.Add(1, "row.flags");
  if (is_static || r.shadowable) c.Add(1, "row.extended_flags");
  if (!is_static) SizeClustering(c, u.clustering_widths, r.clustering);
  if (r.liveness.timestamp != kNoTimestamp)
    c.Add(VSize(TsDelta(r.liveness.timestamp, st.min_timestamp)), "row.timestamp");
  if (r.liveness.ttl != kNoTtl) {
    c.Add(SizeU32Delta(TtlDelta(r.liveness.ttl, st.min_ttl)), "row.ttl");
    c.Add(SizeU32Delta(LdtDelta(r.liveness.local_expiration_time, st.min_local_deletion_time)),
          "row.local_expiration_time");
  }
  if (!r.deletion.IsLive())
    SizeDeletion(c, st, r.deletion, "row.deletion.timestamp", "row.deletion.local_deletion_time");
  const size_t n = cols.size();
  // Columns.Serializer.serializeSubset, when the row lacks some header columns (flag 0x20 clear):
  // below 64 header columns a bitmap of the missing ones; from 64 on the missing count, then the
  // present indexes when fewer than n / 2 (integer division) are present, else the missing ones.
  // The missing ones are the gaps between the present indexes, which strictly increase (Validate).
  if (r.columns.size() != n) {
    if (n < 64) {
      uint64_t present = 0;
      for (const ColumnData& cd : r.columns) present |= uint64_t{1} << cd.column;
      c.Add(VSize(((uint64_t{1} << n) - 1) & ~present), "row.column_subset.bitmap");
    } else {
      const size_t missing = n - r.columns.size();
      c.Add(VSize(missing), "row.column_subset.missing_count");
      if (r.columns.size() < n / 2) {
        for (const ColumnData& cd : r.columns) c.Add(VSize(cd.column), "row.column_subset.index");
      } else {
        uint64_t prev = 0;
        for (const ColumnData& cd : r.columns) {
          for (uint64_t i = prev; i < cd.column; ++i) c.Add(VSize(i), "row.column_subset.index");
          prev = cd.column + 1;
        }
        for (uint64_t i = prev; i < n; ++i) c.Add(VSize(i), "row.column_subset.index");
      }
    }
  }
  const bool complex_deletion = HasComplexDeletion(r, cols);
  for (const ColumnData& cd : r.columns) {
    const Column& col = cols[cd.column];
    if (!col.complex) {
      // A simple column has exactly one cell (Validate), written without a count.
      SizeCell(c, st, col, r.liveness, cd.cells[0]);
      continue;
    }
    if (complex_deletion)
      SizeDeletion(c, st, cd.complex_deletion, "complex.deletion.timestamp",
                   "complex.deletion.local_deletion_time");
    c.Add(VSize(cd.cells.size()), "complex.cell_count");
    for (const Cell& cell : cd.cells) SizeCell(c, st, col, r.liveness, cell);
  }
}

// UnfilteredSerializer.serialize(RangeTombstoneMarker): flags, the bound kind, the bound size in 2
// bytes, the prefix in the clustering block form, then a deletion; a boundary adds the deletion it
// starts after the one it ends.
void SizeMarker(Counter& c, const PartitionUpdate& u, const Marker& mk) {
  c.Add(1, "marker.flags");
  c.Add(1, "marker.kind");
  c.Add(2, "marker.bound_size");
  SizeClustering(c, u.clustering_widths, mk.bound);
  SizeDeletion(c, u.stats, mk.deletion, "marker.deletion.timestamp",
               "marker.deletion.local_deletion_time");
  if (IsBoundary(mk.kind))
    SizeDeletion(c, u.stats, mk.start_deletion, "marker.start_deletion.timestamp",
                 "marker.start_deletion.local_deletion_time");
}

// Columns.Serializer.serialize: the count, then each name after its length.
void SizeColumns(Counter& c, const std::vector<Column>& cols) {
  c.Add(VSize(cols.size()), "header.column_count");
  for (const Column& col : cols) {
    c.Add(VSize(col.name.size()), "header.column_name_length");
    c.Add(col.name.size(), "header.column_name");
  }
}

// The fields of docs/mutation.md's layout table, rows 3 to 16, in that order. An empty update is
// its flags byte (0x01) and nothing after it. The EncodingStats are written relative to their
// epochs (EncodingStats.Serializer.serialize). Static columns are in the header only with a static
// row (partition flag 0x08); Validate refuses static columns without one.
void SizeUpdate(Counter& c, Version v, const PartitionUpdate& u) {
  c.Add(16, "partition.table_id");
  if (HasEpoch(v)) c.Add(VSize(u.epoch), "partition.epoch");
  c.Add(VSize(u.key.size()), "partition.key_length");
  c.Add(u.key.size(), "partition.key");
  c.Add(1, "partition.flags");
  if (u.IsEmpty()) return;
  c.Add(VSize(TsDelta(u.stats.min_timestamp, kTimestampEpoch)), "stats.min_timestamp");
  c.Add(SizeU32Delta(static_cast<int64_t>(u.stats.min_local_deletion_time) - kDeletionTimeEpoch),
        "stats.min_local_deletion_time");
  c.Add(SizeU32Delta(u.stats.min_ttl), "stats.min_ttl");
  if (u.static_row.has_value()) SizeColumns(c, u.static_columns);
  SizeColumns(c, u.regular_columns);
  if (!u.partition_deletion.IsLive())
    SizeDeletion(c, u.stats, u.partition_deletion, "partition.deletion.timestamp",
                 "partition.deletion.local_deletion_time");
  if (u.static_row.has_value()) SizeRow(c, u, *u.static_row, true);
  c.Add(VSize(static_cast<uint64_t>(u.row_estimate)), "partition.row_estimate");
  for (const Unfiltered& un : u.unfiltereds) {
    if (un.is_marker) {
      SizeMarker(c, u, un.marker);
    } else {
      SizeRow(c, u, un.row, false);
    }
  }
  c.Add(1, "partition.end");
}

}  // namespace

// Mutation.MutationSerializer.serialize: in 5.1 only, the mutation flags byte first.
void SizeMutation(Counter& c, const Mutation& m) {
  if (HasEpoch(m.version)) c.Add(1, "mutation.flags");
  c.Add(VSize(m.updates.size()), "mutation.count");
  for (const PartitionUpdate& u : m.updates) SizeUpdate(c, m.version, u);
}

namespace {

// ---- writer ---------------------------------------------------------------------------------

// The writer: each Write* function writes, under the names its Size* twin uses, the fields that
// twin predicts. Nothing here checks the mutation: Validate has run before any of them.

void WriteValue(Sink& s, int32_t width, const std::string& v, const char* len_field,
                const char* field) {
  if (width < 0) s.VInt(v.size(), len_field);
  s.Raw(v.data(), v.size(), field);
}

// The same blocks and header as SizeClustering. A null or empty component writes no value: the
// header alone says which it is.
void WriteClustering(Sink& s, const std::vector<int32_t>& widths,
                     const std::vector<Component>& comps) {
  for (size_t off = 0; off < comps.size(); off += 32) {
    const size_t lim = std::min(comps.size(), off + 32);
    uint64_t header = 0;
    for (size_t i = off; i < lim; ++i) {
      if (!comps[i].has_value()) {
        header |= uint64_t{1} << ((i - off) * 2 + 1);
      } else if (comps[i]->empty()) {
        header |= uint64_t{1} << ((i - off) * 2);
      }
    }
    s.VInt(header, "clustering.header");
    for (size_t i = off; i < lim; ++i) {
      if (comps[i].has_value() && !comps[i]->empty())
        WriteValue(s, widths[i], *comps[i], "clustering.value_length", "clustering.value");
    }
  }
}

void WriteDeletion(Sink& s, const EncodingStats& st, const DeletionTime& d, const char* ts_field,
                   const char* ldt_field) {
  s.VInt(TsDelta(d.marked_for_delete_at, st.min_timestamp), ts_field);
  s.VInt(U32Delta(LdtDelta(d.local_deletion_time, st.min_local_deletion_time)), ldt_field);
}

void WriteCell(Sink& s, const EncodingStats& st, const Column& col, const Liveness& l,
               const Cell& cell) {
  const bool row_ts = UseRowTimestamp(cell, l);
  const bool row_ttl = UseRowTtl(cell, l);
  // Cell flags (docs/mutation.md, cell table): 0x01 tombstone, 0x02 expiring (never both), 0x04
  // empty value, 0x08 use row timestamp, 0x10 use row TTL.
  uint8_t flags = 0;
  if (cell.kind == CellKind::kTombstone) flags |= 0x01;
  if (cell.kind == CellKind::kExpiring) flags |= 0x02;
  if (cell.value.empty()) flags |= 0x04;
  if (row_ts) flags |= 0x08;
  if (row_ttl) flags |= 0x10;
  s.Byte(flags, "cell.flags");
  if (!row_ts) s.VInt(TsDelta(cell.timestamp, st.min_timestamp), "cell.timestamp");
  // A cell writes its local deletion time BEFORE its TTL (a row's liveness: the other way).
  if (cell.kind != CellKind::kLive && !row_ttl)
    s.VInt(U32Delta(LdtDelta(cell.local_deletion_time, st.min_local_deletion_time)),
           "cell.local_deletion_time");
  if (cell.kind == CellKind::kExpiring && !row_ttl)
    s.VInt(U32Delta(TtlDelta(cell.ttl, st.min_ttl)), "cell.ttl");
  if (col.complex) {
    s.VInt(cell.path.size(), "cell.path_length");
    s.Raw(cell.path.data(), cell.path.size(), "cell.path");
  }
  // An empty value is flag 0x04 alone: neither a length nor bytes.
  if (!cell.value.empty())
    WriteValue(s, col.fixed_width, cell.value, "cell.value_length", "cell.value");
}

void WriteRow(Sink& s, const PartitionUpdate& u, const Row& r, bool is_static) {
  const std::vector<Column>& cols = is_static ? u.static_columns : u.regular_columns;
  const EncodingStats& st = u.stats;
  const bool complex_deletion = HasComplexDeletion(r, cols);
  const size_t n = cols.size();
  // Extended flags: 0x01 static, 0x02 shadowable deletion. Row flags: 0x04 timestamp, 0x08 TTL,
  // 0x10 deletion, 0x20 all the header's columns (no subset follows), 0x40 complex deletion, and
  // 0x80, set only when the extended flags are not 0, announces their byte.
  uint8_t ext = 0;
  if (is_static) ext |= 0x01;
  if (r.shadowable) ext |= 0x02;
  uint8_t flags = 0;
  if (r.liveness.timestamp != kNoTimestamp) flags |= 0x04;
  if (r.liveness.ttl != kNoTtl) flags |= 0x08;
  if (!r.deletion.IsLive()) flags |= 0x10;
  if (r.columns.size() == n) flags |= 0x20;
  if (complex_deletion) flags |= 0x40;
  if (ext != 0) flags |= 0x80;
  s.Byte(flags, "row.flags");
  if (ext != 0) s.Byte(ext, "row.extended_flags");
  if (!is_static) WriteClustering(s, u.clustering_widths, r.clustering);
  if ((flags & 0x04) != 0) s.VInt(TsDelta(r.liveness.timestamp, st.min_timestamp), "row.timestamp");
  // Row liveness: TTL first, then the local expiration time.
  if ((flags & 0x08) != 0) {
    s.VInt(U32Delta(TtlDelta(r.liveness.ttl, st.min_ttl)), "row.ttl");
    s.VInt(U32Delta(LdtDelta(r.liveness.local_expiration_time, st.min_local_deletion_time)),
           "row.local_expiration_time");
  }
  if ((flags & 0x10) != 0)
    WriteDeletion(s, st, r.deletion, "row.deletion.timestamp", "row.deletion.local_deletion_time");
  // The subset rule of SizeRow (Columns.Serializer.serializeSubset, serializeLargeSubset).
  if ((flags & 0x20) == 0) {
    if (n < 64) {
      // One bit per header column, set for each column the row does NOT have.
      uint64_t present = 0;
      for (const ColumnData& cd : r.columns) present |= uint64_t{1} << cd.column;
      s.VInt(((uint64_t{1} << n) - 1) & ~present, "row.column_subset.bitmap");
    } else {
      s.VInt(n - r.columns.size(), "row.column_subset.missing_count");
      if (r.columns.size() < n / 2) {
        // Fewer than half present: the present indexes.
        for (const ColumnData& cd : r.columns) s.VInt(cd.column, "row.column_subset.index");
      } else {
        // Otherwise the missing indexes: the gaps between the present ones.
        uint64_t prev = 0;
        for (const ColumnData& cd : r.columns) {
          for (uint64_t i = prev; i < cd.column; ++i) s.VInt(i, "row.column_subset.index");
          prev = cd.column + 1;
        }
        for (uint64_t i = prev; i < n; ++i) s.VInt(i, "row.column_subset.index");
      }
    }
  }
  for (const ColumnData& cd : r.columns) {
    const Column& col = cols[cd.column];
    if (!col.complex) {
      // A simple column: its one cell, without a count.
      WriteCell(s, st, col, r.liveness, cd.cells[0]);
      continue;
    }
    // A complex column (UnfilteredSerializer.writeComplexColumn): its deletion when row flag 0x40
    // is set (LIVE for a column without one), the cell count, then the cells.
    if (complex_deletion)
      WriteDeletion(s, st, cd.complex_deletion, "complex.deletion.timestamp",
                    "complex.deletion.local_deletion_time");
    s.VInt(cd.cells.size(), "complex.cell_count");
    for (const Cell& cell : cd.cells) WriteCell(s, st, col, r.liveness, cell);
  }
}

// UnfilteredSerializer.serialize(RangeTombstoneMarker): flags 0x02, the bound kind (its
// ClusteringPrefix.Kind ordinal), then the bound size and the prefix
// (ClusteringBoundOrBoundary.Serializer.serialize) and the deletion time or times.
void WriteMarker(Sink& s, const PartitionUpdate& u, const Marker& mk) {
  s.Byte(0x02, "marker.flags");
  s.Byte(static_cast<uint8_t>(mk.kind), "marker.kind");
  s.Be16(static_cast<uint16_t>(mk.bound.size()), "marker.bound_size");
  WriteClustering(s, u.clustering_widths, mk.bound);
  // A boundary writes the deletion it ends, then the one it starts.
  WriteDeletion(s, u.stats, mk.deletion, "marker.deletion.timestamp",
                "marker.deletion.local_deletion_time");
  if (IsBoundary(mk.kind))
    WriteDeletion(s, u.stats, mk.start_deletion, "marker.start_deletion.timestamp",
                  "marker.start_deletion.local_deletion_time");
}

void WriteColumns(Sink& s, const std::vector<Column>& cols) {
  s.VInt(cols.size(), "header.column_count");
  for (const Column& col : cols) {
    s.VInt(col.name.size(), "header.column_name_length");
    s.Raw(col.name.data(), col.name.size(), "header.column_name");
  }
}

// The layout of SizeUpdate. Partition flags: 0x01 empty, 0x04 deletion, 0x08 static row, 0x10 row
// estimate; 0x02 (reversed) is never written.
void WriteUpdate(Sink& s, Version v, const PartitionUpdate& u) {
  s.Raw(u.table_id.data(), 16, "partition.table_id");
  if (HasEpoch(v)) s.VInt(u.epoch, "partition.epoch");
  s.VInt(u.key.size(), "partition.key_length");
  s.Raw(u.key.data(), u.key.size(), "partition.key");
  if (u.IsEmpty()) {
    s.Byte(0x01, "partition.flags");
    return;
  }
  uint8_t flags = 0x10;  // a partition update always passes its row estimate
  if (!u.partition_deletion.IsLive()) flags |= 0x04;
  if (u.static_row.has_value()) flags |= 0x08;
  s.Byte(flags, "partition.flags");
  s.VInt(TsDelta(u.stats.min_timestamp, kTimestampEpoch), "stats.min_timestamp");
  s.VInt(U32Delta(static_cast<int64_t>(u.stats.min_local_deletion_time) - kDeletionTimeEpoch),
         "stats.min_local_deletion_time");
  s.VInt(U32Delta(u.stats.min_ttl), "stats.min_ttl");
  if (u.static_row.has_value()) WriteColumns(s, u.static_columns);
  WriteColumns(s, u.regular_columns);
  if (!u.partition_deletion.IsLive())
    WriteDeletion(s, u.stats, u.partition_deletion, "partition.deletion.timestamp",
                  "partition.deletion.local_deletion_time");
  if (u.static_row.has_value()) WriteRow(s, u, *u.static_row, true);
  s.VInt(static_cast<uint64_t>(u.row_estimate), "partition.row_estimate");
  for (const Unfiltered& un : u.unfiltereds) {
    if (un.is_marker) {
      WriteMarker(s, u, un.marker);
    } else {
      WriteRow(s, u, un.row, false);
    }
  }
  s.Byte(0x01, "partition.end");
}

}  // namespace

// In 5.1 the mutation flags byte (0x01 allow out of range) comes first.
void WriteMutation(Sink& s, const Mutation& m) {
  if (HasEpoch(m.version)) s.Byte(m.allow_out_of_range ? 0x01 : 0x00, "mutation.flags");
  s.VInt(m.updates.size(), "mutation.count");
  for (const PartitionUpdate& u : m.updates) WriteUpdate(s, m.version, u);
}

}  // namespace serdiff::mutation::mutation_internal
