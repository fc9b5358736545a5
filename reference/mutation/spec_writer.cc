// Spec-transcription writer: one byte string per field, concatenated. See spec_writer.h.
// Only the value model is included from src/ (tests/mutation_model_test.cc enforces it).
#include "reference/mutation/spec_writer.h"

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "absl/status/status.h"
#include "absl/strings/str_cat.h"
#include "serdiff/mutation/model.h"

namespace serdiff::ref::mutation {
namespace {

using namespace serdiff::mutation;  // NOLINT: the model's plain types

using Bytes = std::string;

// VIntCoding.writeUnsignedVInt: E extra bytes, E = number of leading 1 bits of the first
// byte; the value's bits follow big endian. E is the smallest count whose 7 + 7E bits (64 for
// E = 8) hold the value.
Bytes UVInt(uint64_t v) {
  int extra = 0;
  while (extra < 8 && (v >> (7 + 7 * extra)) != 0) ++extra;
  Bytes out(static_cast<size_t>(extra + 1), '\0');
  for (int i = extra; i >= 1; --i) {
    out[static_cast<size_t>(i)] = static_cast<char>(v & 0xff);
    v >>= 8;
  }
  const unsigned ones = extra == 8 ? 0xffu : (0xff00u >> extra) & 0xffu;
  out[0] = static_cast<char>(ones | static_cast<unsigned>(v));
  return out;
}

// writeUnsignedVInt32(int i) == writeUnsignedVInt((long) i): Java's int-to-long widening
// copies the sign bit into the upper 32 bits.
Bytes UVInt32(int64_t delta_as_long) {
  const uint32_t low = static_cast<uint32_t>(static_cast<uint64_t>(delta_as_long));
  uint64_t widened = low;
  if ((low & 0x80000000u) != 0) widened |= 0xffffffff00000000ull;
  return UVInt(widened);
}

Bytes U8(unsigned v) { return Bytes(1, static_cast<char>(v & 0xff)); }
Bytes U16(unsigned v) { return U8(v >> 8) + U8(v); }

Bytes WithLength(const std::string& b) { return UVInt(b.size()) + b; }

Bytes TypedValue(int32_t width, const std::string& v) { return width > 0 ? v : WithLength(v); }

uint64_t MinusBase(int64_t v, int64_t base) {
  return static_cast<uint64_t>(v) - static_cast<uint64_t>(base);
}

Bytes Timestamp(int64_t ts, const EncodingStats& st) {
  return UVInt(MinusBase(ts, st.min_timestamp));
}
Bytes LocalDeletionTime(uint32_t t, const EncodingStats& st) {
  return UVInt32(int64_t{t} - int64_t{st.min_local_deletion_time});
}
Bytes Ttl(int32_t ttl, const EncodingStats& st) {
  return UVInt32(int64_t{ttl} - int64_t{st.min_ttl});
}
Bytes Deletion(const DeletionTime& d, const EncodingStats& st) {
  return Timestamp(d.marked_for_delete_at, st) + LocalDeletionTime(d.local_deletion_time, st);
}

// ClusteringPrefix.Serializer.serializeValuesWithoutSize: blocks of 32; per block a header of
// 2 bits per component (odd bit: null, even bit: empty), then the values that are neither.
Bytes Prefix(const std::vector<Component>& comps, const std::vector<int32_t>& widths) {
  Bytes out;
  for (size_t block = 0; block * 32 < comps.size(); ++block) {
    uint64_t header = 0;
    Bytes values;
    for (size_t j = 0; j < 32 && block * 32 + j < comps.size(); ++j) {
      const Component& c = comps[block * 32 + j];
      if (!c) {
        header += uint64_t{2} << (2 * j);
      } else if (c->empty()) {
        header += uint64_t{1} << (2 * j);
      } else {
        values += TypedValue(widths[block * 32 + j], *c);
      }
    }
    out += UVInt(header) + values;
  }
  return out;
}

Bytes CellBytes(const Cell& cell, const Column& col, const Liveness& row, const EncodingStats& st) {
  const bool deleted = cell.kind == CellKind::kTombstone;
  const bool expiring = cell.kind == CellKind::kExpiring;
  const bool row_has_liveness = row.timestamp != kNoTimestamp;
  const bool use_row_timestamp = row_has_liveness && cell.timestamp == row.timestamp;
  const bool use_row_ttl = expiring && row.ttl != kNoTtl && cell.ttl == row.ttl &&
                           cell.local_deletion_time == row.local_expiration_time;
  unsigned flags = (deleted ? 0x01 : 0) | (expiring ? 0x02 : 0) | (cell.value.empty() ? 0x04 : 0) |
                   (use_row_timestamp ? 0x08 : 0) | (use_row_ttl ? 0x10 : 0);
  Bytes ts = use_row_timestamp ? "" : Timestamp(cell.timestamp, st);
  Bytes ldt = ((deleted || expiring) && !use_row_ttl)
                  ? LocalDeletionTime(cell.local_deletion_time, st)
                  : "";
  Bytes ttl = (expiring && !use_row_ttl) ? Ttl(cell.ttl, st) : "";
  Bytes path = col.complex ? WithLength(cell.path) : "";
  Bytes value = cell.value.empty() ? "" : TypedValue(col.fixed_width, cell.value);
  return U8(flags) + ts + ldt + ttl + path + value;
}

Bytes SubsetBytes(const std::vector<ColumnData>& data, size_t superset) {
  std::vector<bool> has(superset, false);
  for (const ColumnData& cd : data) has[cd.column] = true;
  if (superset < 64) {
    uint64_t missing_bits = 0;
    for (size_t i = 0; i < superset; ++i)
      if (!has[i]) missing_bits |= uint64_t{1} << i;
    return UVInt(missing_bits);
  }
  const size_t present = data.size();
  Bytes out = UVInt32(static_cast<int64_t>(superset - present));
  for (size_t i = 0; i < superset; ++i) {
    // fewer than half present: list the present ones; else list the missing ones
    const bool listed = present < superset / 2 ? has[i] : !has[i];
    if (listed) out += UVInt32(static_cast<int64_t>(i));
  }
  return out;
}

Bytes RowBytes(const Row& row, bool is_static, const PartitionUpdate& u) {
  const std::vector<Column>& header = is_static ? u.static_columns : u.regular_columns;
  const EncodingStats& st = u.stats;
  bool complex_deletion = false;
  for (const ColumnData& cd : row.columns)
    if (header[cd.column].complex && !cd.complex_deletion.IsLive()) complex_deletion = true;
  const unsigned ext = (is_static ? 0x01 : 0) | (row.shadowable ? 0x02 : 0);
  const bool has_ts = row.liveness.timestamp != kNoTimestamp;
  const bool has_ttl = row.liveness.ttl != kNoTtl;
  const bool has_deletion = !row.deletion.IsLive();
  const bool all_columns = row.columns.size() == header.size();
  const unsigned flags = (has_ts ? 0x04 : 0) | (has_ttl ? 0x08 : 0) | (has_deletion ? 0x10 : 0) |
                         (all_columns ? 0x20 : 0) | (complex_deletion ? 0x40 : 0) |
                         (ext != 0 ? 0x80 : 0);
  Bytes out = U8(flags);
  if (ext != 0) out += U8(ext);
  if (!is_static) out += Prefix(row.clustering, u.clustering_widths);
  if (has_ts) out += Timestamp(row.liveness.timestamp, st);
  if (has_ttl)
    out += Ttl(row.liveness.ttl, st) + LocalDeletionTime(row.liveness.local_expiration_time, st);
  if (has_deletion) out += Deletion(row.deletion, st);
  if (!all_columns) out += SubsetBytes(row.columns, header.size());
  for (const ColumnData& cd : row.columns) {
    const Column& col = header[cd.column];
    if (!col.complex) {
      out += CellBytes(cd.cells.front(), col, row.liveness, st);
      continue;
    }
    Bytes cells;
    for (const Cell& c : cd.cells) cells += CellBytes(c, col, row.liveness, st);
    out += (complex_deletion ? Deletion(cd.complex_deletion, st) : "") +
           UVInt32(static_cast<int64_t>(cd.cells.size())) + cells;
  }
  return out;
}

Bytes MarkerBytes(const Marker& mk, const PartitionUpdate& u) {
  const unsigned kind = static_cast<unsigned>(mk.kind);
  const bool boundary = kind == 2 || kind == 5;
  Bytes out = U8(0x02) + U8(kind) + U16(static_cast<unsigned>(mk.bound.size())) +
              Prefix(mk.bound, u.clustering_widths) + Deletion(mk.deletion, u.stats);
  if (boundary) out += Deletion(mk.start_deletion, u.stats);
  return out;
}

Bytes ColumnsBytes(const std::vector<Column>& cols) {
  Bytes out = UVInt(cols.size());
  for (const Column& c : cols) out += WithLength(c.name);
  return out;
}

Bytes UpdateBytes(const PartitionUpdate& u, Version v) {
  Bytes id(u.table_id.begin(), u.table_id.end());
  Bytes epoch = v == Version::kV51 ? UVInt(u.epoch) : "";
  Bytes key = WithLength(u.key);
  const bool deleted = !u.partition_deletion.IsLive();
  const bool has_static = u.static_row.has_value();
  if (u.unfiltereds.empty() && !has_static && !deleted) return id + epoch + key + U8(0x01);
  Bytes flags = U8((deleted ? 0x04 : 0) | (has_static ? 0x08 : 0) | 0x10);
  Bytes stats = UVInt(MinusBase(u.stats.min_timestamp, kTimestampEpoch)) +
                UVInt32(int64_t{u.stats.min_local_deletion_time} - kDeletionTimeEpoch) +
                UVInt32(u.stats.min_ttl);
  Bytes columns =
      (has_static ? ColumnsBytes(u.static_columns) : "") + ColumnsBytes(u.regular_columns);
  Bytes deletion = deleted ? Deletion(u.partition_deletion, u.stats) : "";
  Bytes static_row = has_static ? RowBytes(*u.static_row, true, u) : "";
  Bytes estimate = UVInt32(u.row_estimate);
  Bytes body;
  for (const Unfiltered& un : u.unfiltereds)
    body += un.is_marker ? MarkerBytes(un.marker, u) : RowBytes(un.row, false, u);
  return id + epoch + key + flags + stats + columns + deletion + static_row + estimate + body +
         U8(0x01);
}

// ---- the format's preconditions, transcribed independently of serdiff::mutation::Validate ----

bool ValueFits(int32_t width, const std::string& v) {
  return width <= 0 || v.empty() || v.size() == static_cast<size_t>(width);
}
bool WidthOk(int32_t w) { return w == -1 || w > 0; }

bool PrefixOk(const std::vector<Component>& comps, const std::vector<int32_t>& widths) {
  for (size_t i = 0; i < comps.size(); ++i)
    if (comps[i] && !ValueFits(widths[i], *comps[i])) return false;
  return true;
}

bool RowOk(const Row& row, bool is_static, const PartitionUpdate& u) {
  const std::vector<Column>& header = is_static ? u.static_columns : u.regular_columns;
  if (row.clustering.size() != (is_static ? 0 : u.clustering_widths.size())) return false;
  if (!PrefixOk(row.clustering, u.clustering_widths)) return false;
  const Liveness& l = row.liveness;
  if (l.timestamp == kNoTimestamp && l.ttl != kNoTtl) return false;
  if (l.ttl == kNoTtl && l.local_expiration_time != kNoDeletionTime) return false;
  if (row.shadowable && row.deletion.IsLive()) return false;
  for (size_t i = 0; i < row.columns.size(); ++i) {
    const ColumnData& cd = row.columns[i];
    if (cd.column >= header.size()) return false;
    if (i > 0 && cd.column <= row.columns[i - 1].column) return false;
    const Column& col = header[cd.column];
    if (!col.complex && (cd.cells.size() != 1 || !cd.complex_deletion.IsLive())) return false;
    for (const Cell& c : cd.cells) {
      if (!col.complex && !c.path.empty()) return false;
      switch (c.kind) {
        case CellKind::kLive:
          if (c.ttl != kNoTtl || c.local_deletion_time != kNoDeletionTime) return false;
          break;
        case CellKind::kTombstone:
          if (c.ttl != kNoTtl) return false;
          break;
        case CellKind::kExpiring:
          if (c.ttl <= 0) return false;  // 0 is no TTL; a negative one Cassandra refuses
          break;
        default:
          return false;
      }
      if (!ValueFits(col.fixed_width, c.value)) return false;
    }
  }
  return true;
}

bool UpdateOk(const PartitionUpdate& u, Version v) {
  if (v != Version::kV51 && u.epoch != 0) return false;
  if (u.row_estimate < 0) return false;
  for (int32_t w : u.clustering_widths)
    if (!WidthOk(w)) return false;
  for (const Column& c : u.static_columns)
    if (!WidthOk(c.fixed_width)) return false;
  for (const Column& c : u.regular_columns)
    if (!WidthOk(c.fixed_width)) return false;
  const bool empty = u.unfiltereds.empty() && !u.static_row && u.partition_deletion.IsLive();
  if (empty)
    return u.stats == EncodingStats{} && u.static_columns.empty() && u.regular_columns.empty() &&
           u.row_estimate == 0;
  if (!u.static_row && !u.static_columns.empty()) return false;
  if (u.static_row && !RowOk(*u.static_row, true, u)) return false;
  std::optional<DeletionTime> open;  // the open range tombstone's deletion
  for (const Unfiltered& un : u.unfiltereds) {
    if (!un.is_marker) {
      if (!RowOk(un.row, false, u)) return false;
      continue;
    }
    const BoundKind k = un.marker.kind;
    if (k == BoundKind::kInclStart || k == BoundKind::kExclStart) {
      if (open) return false;
      open = un.marker.deletion;
    } else {
      if (!open || !(*open == un.marker.deletion)) return false;
      open.reset();
      if (k == BoundKind::kExclEndInclStartBoundary || k == BoundKind::kInclEndExclStartBoundary)
        open = un.marker.start_deletion;
    }
    if (!IsValidBoundKind(static_cast<uint8_t>(un.marker.kind))) return false;
    if (un.marker.bound.size() > u.clustering_widths.size()) return false;
    // Empty only as the partition's bottom or top (ClusteringBoundOrBoundary's serializer).
    if (un.marker.bound.empty() && un.marker.kind != BoundKind::kInclStart &&
        un.marker.kind != BoundKind::kInclEnd)
      return false;
    if (!PrefixOk(un.marker.bound, u.clustering_widths)) return false;
  }
  return !open;
}

}  // namespace

absl::StatusOr<std::string> SpecSerialize(const Mutation& m) {
  if (m.version > Version::kV51 || m.updates.empty() ||
      (m.version != Version::kV51 && m.allow_out_of_range))
    return absl::InvalidArgumentError("spec writer: mutation not representable");
  for (size_t i = 0; i < m.updates.size(); ++i)
    if (!UpdateOk(m.updates[i], m.version))
      return absl::InvalidArgumentError(
          absl::StrCat("spec writer: partition ", i, " not representable"));
  Bytes flags = m.version == Version::kV51 ? U8(m.allow_out_of_range ? 1 : 0) : "";
  Bytes count = UVInt32(static_cast<int64_t>(m.updates.size()));
  Bytes updates;
  for (const PartitionUpdate& u : m.updates) updates += UpdateBytes(u, m.version);
  return flags + count + updates;
}

}  // namespace serdiff::ref::mutation
