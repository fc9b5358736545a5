// Optimized mutation serializer: validation, the size-only walk and the writer.
//
// The size walk (Size*) and the writer (Write*) are two separate walks on purpose: the exact-
// size path depends on them agreeing, and written == computed is checked after every write.
// Both name every field they produce (the names appear in mismatch errors); the names are
// static strings, recorded only when a Trace is attached (diagnostics after a mismatch).
#include "serdiff/mutation/mutation.h"

#include <cstring>
#include <limits>
#include <string>
#include <utility>
#include <vector>

#include "absl/strings/str_cat.h"
#include "serdiff/varint/varint.h"

namespace serdiff::mutation {
namespace {

using varint::Format;

// ---- deltas -------------------------------------------------------------------------------

// Cassandra's writeUnsignedVInt32((int) delta): the 64-bit delta is cast to int32, and the
// int32 is sign-extended to 64 bits for the unsigned vint.
inline uint64_t U32Delta(int64_t delta) {
  return static_cast<uint64_t>(static_cast<int64_t>(static_cast<int32_t>(delta)));
}
inline uint64_t TsDelta(int64_t ts, int64_t base) {
  return static_cast<uint64_t>(ts) - static_cast<uint64_t>(base);
}
inline size_t VSize(uint64_t v) { return varint::EncodedSize(Format::kVInt, v); }
// Size of a uvint32 delta (must match U32Delta exactly).
inline size_t SizeU32Delta(int64_t delta) { return VSize(U32Delta(delta)); }

inline int64_t LdtDelta(uint32_t ldt, uint32_t base) {
  return static_cast<int64_t>(ldt) - static_cast<int64_t>(base);
}
inline int64_t TtlDelta(int32_t ttl, int32_t base) {
  return static_cast<int64_t>(ttl) - static_cast<int64_t>(base);
}

// ---- field traces (diagnostics only) --------------------------------------------------------

using Trace = std::vector<std::pair<const char*, size_t>>;

// Size-only walk accumulator.
struct Counter {
  size_t total = 0;
  Trace* trace = nullptr;
  void Add(size_t n, const char* field) {
    total += n;
    if (trace != nullptr) trace->emplace_back(field, n);
  }
};

// Output sink: appends to `out`, never past `cap` total bytes. The first write that would
// cross `cap` is refused and remembered (overflow_field), and every later write is ignored.
class Sink {
 public:
  Sink(std::string* out, size_t cap, Trace* trace) : out_(out), cap_(cap), trace_(trace) {}

  bool ok() const { return overflow_field_ == nullptr; }
  const char* overflow_field() const { return overflow_field_; }
  size_t overflow_offset() const { return overflow_offset_; }

  void Byte(uint8_t b, const char* field) {
    if (!Room(1, field)) return;
    out_->push_back(static_cast<char>(b));
  }
  void VInt(uint64_t v, const char* field) {
    uint8_t buf[varint::kMaxVIntBytes];
    const uint8_t* end = varint::WriteToArray(Format::kVInt, v, buf);
    const size_t n = static_cast<size_t>(end - buf);
    if (!Room(n, field)) return;
    out_->append(reinterpret_cast<const char*>(buf), n);
  }
  void Raw(const void* p, size_t n, const char* field) {
    if (!Room(n, field)) return;
    out_->append(static_cast<const char*>(p), n);
  }
  void Be16(uint16_t v, const char* field) {
    const uint8_t b[2] = {static_cast<uint8_t>(v >> 8), static_cast<uint8_t>(v)};
    Raw(b, 2, field);
  }

 private:
  bool Room(size_t n, const char* field) {
    if (overflow_field_ != nullptr) return false;
    if (n > cap_ - out_->size()) {
      overflow_field_ = field;
      overflow_offset_ = out_->size();
      return false;
    }
    if (trace_ != nullptr) trace_->emplace_back(field, n);
    return true;
  }

  std::string* out_;
  size_t cap_;
  Trace* trace_;
  const char* overflow_field_ = nullptr;
  size_t overflow_offset_ = 0;
};

bool HasComplexDeletion(const Row& r, const std::vector<Column>& cols) {
  for (const ColumnData& cd : r.columns)
    if (cols[cd.column].complex && !cd.complex_deletion.IsLive()) return true;
  return false;
}
bool UseRowTimestamp(const Cell& c, const Liveness& l) {
  return l.timestamp != kNoTimestamp && c.timestamp == l.timestamp;
}
bool UseRowTtl(const Cell& c, const Liveness& l) {
  return c.kind == CellKind::kExpiring && l.ttl != kNoTtl && c.ttl == l.ttl &&
         c.local_deletion_time == l.local_expiration_time;
}

// ---- size walk ------------------------------------------------------------------------------

void SizeValue(Counter& c, int32_t width, const std::string& v, const char* len_field,
               const char* field) {
  if (width < 0) c.Add(VSize(v.size()), len_field);
  c.Add(v.size(), field);
}

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

void SizeDeletion(Counter& c, const EncodingStats& st, const DeletionTime& d, const char* ts_field,
                  const char* ldt_field) {
  c.Add(VSize(TsDelta(d.marked_for_delete_at, st.min_timestamp)), ts_field);
  c.Add(SizeU32Delta(LdtDelta(d.local_deletion_time, st.min_local_deletion_time)), ldt_field);
}

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

void SizeColumns(Counter& c, const std::vector<Column>& cols) {
  c.Add(VSize(cols.size()), "header.column_count");
  for (const Column& col : cols) {
    c.Add(VSize(col.name.size()), "header.column_name_length");
    c.Add(col.name.size(), "header.column_name");
  }
}

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

void SizeMutation(Counter& c, const Mutation& m) {
  if (HasEpoch(m.version)) c.Add(1, "mutation.flags");
  c.Add(VSize(m.updates.size()), "mutation.count");
  for (const PartitionUpdate& u : m.updates) SizeUpdate(c, m.version, u);
}

// ---- writer ---------------------------------------------------------------------------------

void WriteValue(Sink& s, int32_t width, const std::string& v, const char* len_field,
                const char* field) {
  if (width < 0) s.VInt(v.size(), len_field);
  s.Raw(v.data(), v.size(), field);
}

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
  if (!cell.value.empty())
    WriteValue(s, col.fixed_width, cell.value, "cell.value_length", "cell.value");
}

void WriteRow(Sink& s, const PartitionUpdate& u, const Row& r, bool is_static) {
  const std::vector<Column>& cols = is_static ? u.static_columns : u.regular_columns;
  const EncodingStats& st = u.stats;
  const bool complex_deletion = HasComplexDeletion(r, cols);
  const size_t n = cols.size();
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
  if ((flags & 0x20) == 0) {
    if (n < 64) {
      // One bit per header column, set for each column the row does NOT have.
      uint64_t present = 0;
      for (const ColumnData& cd : r.columns) present |= uint64_t{1} << cd.column;
      s.VInt(((uint64_t{1} << n) - 1) & ~present, "row.column_subset.bitmap");
    } else {
      s.VInt(n - r.columns.size(), "row.column_subset.missing_count");
      if (r.columns.size() < n / 2) {
        for (const ColumnData& cd : r.columns) s.VInt(cd.column, "row.column_subset.index");
      } else {
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
      WriteCell(s, st, col, r.liveness, cd.cells[0]);
      continue;
    }
    if (complex_deletion)
      WriteDeletion(s, st, cd.complex_deletion, "complex.deletion.timestamp",
                    "complex.deletion.local_deletion_time");
    s.VInt(cd.cells.size(), "complex.cell_count");
    for (const Cell& cell : cd.cells) WriteCell(s, st, col, r.liveness, cell);
  }
}

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

void WriteMutation(Sink& s, const Mutation& m) {
  if (HasEpoch(m.version)) s.Byte(m.allow_out_of_range ? 0x01 : 0x00, "mutation.flags");
  s.VInt(m.updates.size(), "mutation.count");
  for (const PartitionUpdate& u : m.updates) WriteUpdate(s, m.version, u);
}

// ---- validation -----------------------------------------------------------------------------

// Where a validation error is; formatted only when there is an error (no allocation on the
// success path).
struct Loc {
  int64_t partition = -1;   // -1: the mutation itself
  int64_t unfiltered = -2;  // -2: none, -1: the static row
  int64_t column = -1;
  int64_t component = -1;
  const std::string* column_name = nullptr;
  std::string Str() const {
    if (partition < 0) return "mutation";
    std::string out = absl::StrCat("partition ", partition);
    if (unfiltered == -1) absl::StrAppend(&out, " static row");
    if (unfiltered >= 0) absl::StrAppend(&out, " unfiltered ", unfiltered);
    if (column >= 0) absl::StrAppend(&out, " column ", column);
    if (component >= 0) absl::StrAppend(&out, " component ", component);
    if (column_name != nullptr) absl::StrAppend(&out, " column ", *column_name);
    return out;
  }
};

absl::Status Bad(const Loc& where, absl::string_view what) {
  return absl::InvalidArgumentError(absl::StrCat("mutation: ", where.Str(), ": ", what));
}

absl::Status CheckWidth(int32_t w, const Loc& where) {
  if (w == -1 || w > 0) return absl::OkStatus();
  return Bad(where, absl::StrCat("width ", w, " is neither -1 (variable) nor > 0"));
}

absl::Status CheckValue(int32_t width, const std::string& v, const Loc& where) {
  if (width > 0 && !v.empty() && v.size() != static_cast<size_t>(width))
    return Bad(where,
               absl::StrCat("value of ", v.size(), " bytes for a fixed-width ", width, " type"));
  if (v.size() > static_cast<size_t>(std::numeric_limits<int32_t>::max()))
    return Bad(where, "value longer than 2^31 - 1 bytes");
  return absl::OkStatus();
}

absl::Status CheckPrefix(const std::vector<int32_t>& widths, const std::vector<Component>& comps,
                         const Loc& where) {
  for (size_t i = 0; i < comps.size(); ++i) {
    if (comps[i].has_value() && !CheckValue(widths[i], *comps[i], where).ok()) {
      Loc at = where;
      at.component = static_cast<int64_t>(i);
      return CheckValue(widths[i], *comps[i], at);
    }
  }
  return absl::OkStatus();
}

absl::Status CheckRow(const PartitionUpdate& u, const Row& r, bool is_static, const Loc& where) {
  const std::vector<Column>& cols = is_static ? u.static_columns : u.regular_columns;
  const size_t want = is_static ? 0 : u.clustering_widths.size();
  if (r.clustering.size() != want)
    return Bad(where, absl::StrCat(r.clustering.size(), " clustering components, want ", want));
  absl::Status s = CheckPrefix(u.clustering_widths, r.clustering, where);
  if (!s.ok()) return s;
  const Liveness& l = r.liveness;
  if (l.timestamp == kNoTimestamp &&
      (l.ttl != kNoTtl || l.local_expiration_time != kNoDeletionTime))
    return Bad(where, "empty liveness with a TTL or an expiration time");
  if (l.ttl == kNoTtl && l.local_expiration_time != kNoDeletionTime)
    return Bad(where, "non-expiring liveness with an expiration time");
  if (r.shadowable && r.deletion.IsLive()) return Bad(where, "shadowable without a deletion");
  int64_t prev = -1;
  for (const ColumnData& cd : r.columns) {
    Loc cw = where;
    cw.column = cd.column;
    if (cd.column >= cols.size() || static_cast<int64_t>(cd.column) <= prev)
      return Bad(cw, absl::StrCat("index not increasing or not below the header's ", cols.size(),
                                  " columns"));
    prev = cd.column;
    const Column& col = cols[cd.column];
    if (!col.complex && (cd.cells.size() != 1 || !cd.complex_deletion.IsLive()))
      return Bad(cw, "a simple column needs exactly one cell and no complex deletion");
    if (cd.cells.size() > static_cast<size_t>(std::numeric_limits<int32_t>::max()))
      return Bad(cw, "too many cells");
    for (const Cell& c : cd.cells) {
      if (!col.complex && !c.path.empty()) return Bad(cw, "a simple cell has a path");
      if (c.kind == CellKind::kLive &&
          (c.ttl != kNoTtl || c.local_deletion_time != kNoDeletionTime))
        return Bad(cw, "a live cell has a TTL or a deletion time");
      if (c.kind == CellKind::kTombstone && c.ttl != kNoTtl)
        return Bad(cw, "a tombstone has a TTL");
      if (c.kind == CellKind::kExpiring && c.ttl == kNoTtl)
        return Bad(cw, "an expiring cell has TTL 0");
      if (c.kind > CellKind::kExpiring) return Bad(cw, "unknown cell kind");
      s = CheckValue(col.fixed_width, c.value, cw);
      if (!s.ok()) return s;
    }
  }
  return absl::OkStatus();
}

}  // namespace

absl::Status Validate(const Mutation& m) {
  const Loc top;
  if (m.version > Version::kV51) return Bad(top, "unknown version");
  if (m.updates.empty()) return Bad(top, "no partition updates");
  if (!HasEpoch(m.version) && m.allow_out_of_range)
    return Bad(top, "allow_out_of_range needs version 5.1");
  for (size_t p = 0; p < m.updates.size(); ++p) {
    const PartitionUpdate& u = m.updates[p];
    Loc pw;
    pw.partition = static_cast<int64_t>(p);
    if (!HasEpoch(m.version) && u.epoch != 0) return Bad(pw, "epoch needs version 5.1");
    if (u.key.size() > static_cast<size_t>(std::numeric_limits<int32_t>::max()))
      return Bad(pw, "key too long");
    if (u.row_estimate < 0) return Bad(pw, "negative row estimate");
    for (int32_t w : u.clustering_widths) {
      absl::Status s = CheckWidth(w, pw);
      if (!s.ok()) return s;
    }
    for (const auto* cols : {&u.static_columns, &u.regular_columns}) {
      for (const Column& c : *cols) {
        if (!CheckWidth(c.fixed_width, pw).ok()) {
          Loc at = pw;
          at.column_name = &c.name;
          return CheckWidth(c.fixed_width, at);
        }
      }
    }
    if (u.IsEmpty()) {
      if (!(u.stats == EncodingStats{}) || !u.static_columns.empty() ||
          !u.regular_columns.empty() || u.row_estimate != 0)
        return Bad(pw, "an empty update must have default stats, no columns, row estimate 0");
      continue;
    }
    if (!u.static_row.has_value() && !u.static_columns.empty())
      return Bad(pw, "static columns without a static row are not written");
    if (u.static_row.has_value()) {
      Loc at = pw;
      at.unfiltered = -1;
      absl::Status s = CheckRow(u, *u.static_row, true, at);
      if (!s.ok()) return s;
    }
    for (size_t i = 0; i < u.unfiltereds.size(); ++i) {
      const Unfiltered& un = u.unfiltereds[i];
      Loc w = pw;
      w.unfiltered = static_cast<int64_t>(i);
      if (!un.is_marker) {
        absl::Status s = CheckRow(u, un.row, false, w);
        if (!s.ok()) return s;
        continue;
      }
      if (!IsValidBoundKind(static_cast<uint8_t>(un.marker.kind))) return Bad(w, "bad bound kind");
      if (un.marker.bound.size() > u.clustering_widths.size())
        return Bad(w, "bound longer than the clustering");
      absl::Status s = CheckPrefix(u.clustering_widths, un.marker.bound, w);
      if (!s.ok()) return s;
    }
  }
  return absl::OkStatus();
}

absl::StatusOr<size_t> SerializedSize(const Mutation& m) {
  absl::Status s = Validate(m);
  if (!s.ok()) return s;
  Counter c;
  SizeMutation(c, m);
  return c.total;
}

namespace {

// Names the first field whose written length differs from the size walk's prediction.
absl::Status Mismatch(const Mutation& m, size_t computed, size_t written) {
  Trace predicted, actual;
  Counter c{0, &predicted};
  SizeMutation(c, m);
  std::string tmp;
  Sink s(&tmp, std::numeric_limits<size_t>::max(), &actual);
  WriteMutation(s, m);
  size_t offset = 0;
  for (size_t i = 0; i < predicted.size() || i < actual.size(); ++i) {
    const bool have_p = i < predicted.size(), have_a = i < actual.size();
    if (have_p && have_a && std::strcmp(predicted[i].first, actual[i].first) == 0 &&
        predicted[i].second == actual[i].second) {
      offset += actual[i].second;
      continue;
    }
    return absl::InternalError(absl::StrCat(
        "mutation serializer: field ", have_a ? actual[i].first : predicted[i].first, " at offset ",
        offset, ": predicted ", have_p ? predicted[i].second : 0, " bytes (",
        have_p ? predicted[i].first : "none", "), wrote ", have_a ? actual[i].second : 0,
        " bytes; computed size ", computed, ", written ", written));
  }
  return absl::InternalError(absl::StrCat("mutation serializer: computed size ", computed,
                                          " but wrote ", written, " bytes"));
}

// The small path's scratch buffer: one per thread.
thread_local std::string small_scratch;

absl::StatusOr<std::string> SerializeValidated(const Mutation& m) {
  Counter c;
  SizeMutation(c, m);
  const size_t size = c.total;
  std::string out;
  out.reserve(size);
  Sink s(&out, size, nullptr);
  WriteMutation(s, m);
  if (!s.ok()) {
    return absl::InternalError(absl::StrCat("mutation serializer: field ", s.overflow_field(),
                                            " at offset ", s.overflow_offset(),
                                            " would write past the computed size ", size));
  }
  if (out.size() != size) return Mismatch(m, size, out.size());
  return out;
}

}  // namespace

absl::StatusOr<std::string> Serialize(const Mutation& m) {
  absl::Status st = Validate(m);
  if (!st.ok()) return st;
  return SerializeValidated(m);
}

absl::StatusOr<std::string> SerializeSmall(const Mutation& m, size_t threshold) {
  absl::Status st = Validate(m);
  if (!st.ok()) return st;
  small_scratch.clear();
  Sink s(&small_scratch, threshold, nullptr);
  WriteMutation(s, m);
  if (!s.ok()) return SerializeValidated(m);  // too big for the small path
  return std::string(small_scratch);
}

void ReserveSmallScratch(size_t bytes) { small_scratch.reserve(bytes); }

absl::StatusOr<std::string> SerializeViaGrowableBuffer(const Mutation& m) {
  absl::Status st = Validate(m);
  if (!st.ok()) return st;
  std::string buffer;
  Sink s(&buffer, std::numeric_limits<size_t>::max(), nullptr);
  WriteMutation(s, m);
  return std::string(buffer);
}

}  // namespace serdiff::mutation
