// Reference mutation decoder (see decoder_ref.h). Style on purpose unlike the optimized one:
// a cursor that records the first error and turns every later read into a no-op, and a vint
// reader written from the VIntCoding description (count the leading one bits of the first
// byte, then read that many more bytes big endian).
#include "reference/mutation/decoder_ref.h"

#include <cstdint>
#include <string>
#include <vector>

#include "absl/status/status.h"
#include "serdiff/common/error_offset.h"
#include "serdiff/mutation/decoded.h"
#include "serdiff/mutation/model.h"

namespace serdiff::ref::mutation {
namespace {

using namespace serdiff::mutation;  // NOLINT: the model's plain types

class Cursor {
 public:
  // `marks`: where to record the offset of every flags byte, clustering header and column
  // subset bitmap read (RefFlagOffsets); nullptr: none are recorded.
  explicit Cursor(std::string_view b, std::vector<uint32_t>* marks = nullptr)
      : b_(b), marks_(marks) {}
  // Records the cursor's offset as a flags, header or bitmap field's (see the constructor).
  void Mark() {
    if (marks_ != nullptr && !failed()) marks_->push_back(static_cast<uint32_t>(i_));
  }
  // Records every byte from `from` to the cursor after a vint read: the bits a header or a
  // bitmap constrains lie in any of its bytes (the value's low bits are in the last one).
  void MarkRead(size_t from) {
    if (marks_ == nullptr || failed()) return;
    for (size_t k = from; k < i_; ++k) marks_->push_back(static_cast<uint32_t>(k));
  }
  bool failed() const { return !status_.ok(); }
  const absl::Status& status() const { return status_; }
  size_t at() const { return i_; }
  size_t left() const { return b_.size() - i_; }

  void Invalid(size_t at, const char* why) {
    if (!failed()) status_ = InvalidAt(static_cast<int64_t>(at), why);
  }
  void Short(size_t at, const char* why) {
    if (!failed()) status_ = OutOfRangeAt(static_cast<int64_t>(at), why);
  }

  uint8_t U8(const char* what) {
    if (failed()) return 0;
    Mark();  // every one-byte field of the format is a flags or kind byte
    if (left() == 0) {
      Short(i_, what);
      return 0;
    }
    return static_cast<uint8_t>(b_[i_++]);
  }

  uint64_t UVInt(const char* what) {
    if (failed()) return 0;
    const size_t start = i_;
    if (left() == 0) {
      Short(start, what);
      return 0;
    }
    const uint8_t first = static_cast<uint8_t>(b_[i_]);
    int extra = 0;
    while (extra < 8 && (first & (0x80 >> extra)) != 0) ++extra;
    if (left() < static_cast<size_t>(extra) + 1) {
      Short(start, what);
      return 0;
    }
    uint64_t v = extra == 8 ? 0 : (first & (0xffu >> extra));
    for (int k = 1; k <= extra; ++k) v = (v << 8) | static_cast<uint8_t>(b_[i_ + k]);
    i_ += static_cast<size_t>(extra) + 1;
    return v;
  }

  // readUnsignedVInt32: the long must equal (long)(int) of itself.
  int32_t UVInt32(const char* what) {
    const size_t start = i_;
    const uint64_t v = UVInt(what);
    if (failed()) return 0;
    const uint64_t high = v >> 31;
    if (high != 0 && high != 0x1ffffffffull) {
      Invalid(start, what);
      return 0;
    }
    return static_cast<int32_t>(static_cast<uint32_t>(v));
  }

  // A count of elements of at least `min_each` bytes each.
  uint64_t Count(size_t min_each, const char* what) {
    const size_t start = i_;
    const int32_t n = UVInt32(what);
    if (failed()) return 0;
    if (n < 0) {
      Invalid(start, what);
      return 0;
    }
    if (static_cast<uint64_t>(n) * min_each > left()) {
      Short(start, what);
      return 0;
    }
    return static_cast<uint64_t>(n);
  }

  std::string Take(size_t n, size_t err_at, const char* what) {
    if (failed()) return {};
    if (left() < n) {
      Short(err_at, what);
      return {};
    }
    std::string s(b_.substr(i_, n));
    i_ += n;
    return s;
  }

  // Like Take, but where the bytes lie (DecodedMutation::bytes is the input's copy).
  ByteRange TakeRange(size_t n, size_t err_at, const char* what) {
    if (failed()) return {};
    if (left() < n) {
      Short(err_at, what);
      return {};
    }
    const ByteRange r{static_cast<uint32_t>(i_), static_cast<uint32_t>(n)};
    i_ += n;
    return r;
  }

  ByteRange Sized(const char* what) {
    const size_t start = i_;
    const uint64_t n = Count(1, what);
    return TakeRange(static_cast<size_t>(n), start, what);
  }

  ByteRange TypedValue(int32_t width, const char* what) {
    if (width > 0) return TakeRange(static_cast<size_t>(width), i_, what);
    return Sized(what);
  }

  std::string_view Text(ByteRange r) const { return b_.substr(r.offset, r.size); }

 private:
  std::string_view b_;
  size_t i_ = 0;
  absl::Status status_;
  std::vector<uint32_t>* marks_ = nullptr;
};

int64_t AddTs(int64_t base, uint64_t d) {
  return static_cast<int64_t>(static_cast<uint64_t>(base) + d);
}

DeletionTime ReadDeletion(Cursor& c, const EncodingStats& st) {
  DeletionTime d;
  d.marked_for_delete_at = AddTs(st.min_timestamp, c.UVInt("deletion timestamp"));
  d.local_deletion_time =
      st.min_local_deletion_time + static_cast<uint32_t>(c.UVInt32("deletion time"));
  return d;
}

// Appends `size` clustering components to out.components.
void ReadPrefix(Cursor& c, const std::vector<int32_t>& widths, size_t size, DecodedMutation& out) {
  size_t done = 0;
  while (done < size && !c.failed()) {
    const size_t in_block = size - done < 32 ? size - done : 32;
    const size_t header_at = c.at();
    const uint64_t header = c.UVInt("clustering header");
    c.MarkRead(header_at);
    if (c.failed()) break;
    if (in_block < 32 && (header >> (2 * in_block)) != 0) {
      c.Invalid(header_at, "clustering header bits past the block");
      break;
    }
    for (size_t j = 0; j < in_block; ++j) {
      const bool is_null = ((header >> (2 * j + 1)) & 1) != 0;
      const bool is_empty = ((header >> (2 * j)) & 1) != 0;
      if (is_null && is_empty) c.Invalid(header_at, "clustering component null and empty");
    }
    for (size_t j = 0; j < in_block && !c.failed(); ++j) {
      const bool is_null = ((header >> (2 * j + 1)) & 1) != 0;
      const bool is_empty = ((header >> (2 * j)) & 1) != 0;
      if (is_null) {
        out.components.push_back(ByteRange{0, ByteRange::kNullSize});
      } else if (is_empty) {
        out.components.push_back(ByteRange{});
      } else {
        out.components.push_back(c.TypedValue(widths[done + j], "clustering value"));
      }
    }
    done += in_block;
  }
}

DecodedCell ReadCell(Cursor& c, const EncodingStats& st, const Column& col, uint32_t index,
                     const Liveness& row) {
  DecodedCell cell;
  cell.column = index;
  const size_t at = c.at();
  const unsigned f = c.U8("cell flags");
  if (c.failed()) return cell;
  const bool deleted = f & 0x01, expiring = f & 0x02, no_value = f & 0x04, row_ts = f & 0x08,
             row_ttl = f & 0x10;
  if (f > 0x1f) c.Invalid(at, "cell flags");
  if (deleted && expiring) c.Invalid(at, "cell flags: tombstone and expiring");
  if (row_ttl && (!expiring || row.ttl == kNoTtl)) c.Invalid(at, "cell flags: row ttl");
  if (row_ttl && row.ttl < 0) c.Invalid(at, "cell flags: negative row ttl");  // Cassandra 5.0
  if (row_ts && row.timestamp == kNoTimestamp) c.Invalid(at, "cell flags: row timestamp");
  cell.kind = deleted ? CellKind::kTombstone : expiring ? CellKind::kExpiring : CellKind::kLive;
  cell.timestamp = row_ts ? row.timestamp : AddTs(st.min_timestamp, c.UVInt("cell timestamp"));
  if (row_ttl) {
    cell.local_deletion_time = row.local_expiration_time;
    cell.ttl = row.ttl;
  } else {
    if (deleted || expiring)
      cell.local_deletion_time =
          st.min_local_deletion_time + static_cast<uint32_t>(c.UVInt32("cell local deletion time"));
    if (expiring) {
      const size_t ttl_at = c.at();
      cell.ttl = static_cast<int32_t>(static_cast<uint32_t>(st.min_ttl) +
                                      static_cast<uint32_t>(c.UVInt32("cell ttl")));
      if (!c.failed() && cell.ttl == kNoTtl) c.Invalid(ttl_at, "cell ttl 0");
      if (!c.failed() && cell.ttl < 0) c.Invalid(ttl_at, "negative cell ttl");
    }
  }
  if (col.complex) cell.path = c.Sized("cell path");
  if (!no_value) {
    const size_t value_at = c.at();
    cell.value = c.TypedValue(col.fixed_width, "cell value");
    if (!c.failed() && cell.value.size == 0) c.Invalid(value_at, "cell value empty");
  }
  return cell;
}

std::vector<uint32_t> ReadPresentColumns(Cursor& c, unsigned flags, size_t n) {
  std::vector<uint32_t> present;
  if (flags & 0x20) {
    for (size_t i = 0; i < n; ++i) present.push_back(static_cast<uint32_t>(i));
    return present;
  }
  const size_t at = c.at();
  if (n < 64) {
    const uint64_t missing = c.UVInt("column subset bitmap");
    c.MarkRead(at);
    if (c.failed()) return present;
    if (n < 64 && (missing >> n) != 0) c.Invalid(at, "subset bitmap past the columns");
    if (missing == 0) c.Invalid(at, "subset bitmap empty");
    for (size_t i = 0; i < n; ++i)
      if (((missing >> i) & 1) == 0) present.push_back(static_cast<uint32_t>(i));
    return present;
  }
  const int32_t missing = c.UVInt32("column subset missing count");
  if (c.failed()) return present;
  if (missing < 1 || static_cast<size_t>(missing) > n) {
    c.Invalid(at, "subset missing count");
    return present;
  }
  const size_t have = n - static_cast<size_t>(missing);
  const bool lists_present = have < n / 2;
  const size_t listed = lists_present ? have : static_cast<size_t>(missing);
  if (listed > c.left()) {
    c.Short(at, "subset indexes");
    return present;
  }
  std::vector<bool> mark(n, false);
  int64_t last = -1;
  for (size_t k = 0; k < listed && !c.failed(); ++k) {
    const size_t iat = c.at();
    const int32_t idx = c.UVInt32("subset index");
    if (c.failed()) break;
    if (idx <= last || static_cast<size_t>(idx) >= n) {
      c.Invalid(iat, "subset index");
      break;
    }
    last = idx;
    mark[static_cast<size_t>(idx)] = true;
  }
  for (size_t i = 0; i < n; ++i)
    if (mark[i] == lists_present) present.push_back(static_cast<uint32_t>(i));
  return present;
}

// Appends a row record, then its clustering, cells and complex columns.
void ReadRow(Cursor& c, DecodedMutation& out, const DecodedUpdate& u, unsigned flags,
             size_t flags_at, bool is_static) {
  unsigned ext = 0;
  if (flags & 0x80) {
    const size_t ext_at = c.at();
    ext = c.U8("row extended flags");
    if (!c.failed() && (ext == 0 || ext > 0x03)) c.Invalid(ext_at, "row extended flags");
  }
  if (c.failed()) return;
  if (((ext & 0x01) != 0) != is_static) c.Invalid(flags_at, "static flag");
  if ((ext & 0x02) && !(flags & 0x10)) c.Invalid(flags_at, "shadowable without deletion");
  if ((flags & 0x08) && !(flags & 0x04)) c.Invalid(flags_at, "ttl without timestamp");
  out.unfiltereds.push_back(DecodedUnfiltered{});
  DecodedUnfiltered& row = out.unfiltereds.back();
  row.first_component = static_cast<uint32_t>(out.components.size());
  row.first_cell = static_cast<uint32_t>(out.cells.size());
  row.first_complex = static_cast<uint32_t>(out.complexes.size());
  row.shadowable = (ext & 0x02) != 0;
  const EncodingStats& st = u.stats;
  const TableDef& table = out.schema[u.table];
  if (!is_static) ReadPrefix(c, table.clustering_widths, table.clustering_widths.size(), out);
  Liveness live;
  if (flags & 0x04) {
    const size_t ts_at = c.at();
    live.timestamp = AddTs(st.min_timestamp, c.UVInt("row timestamp"));
    // The empty liveness is written without the flag.
    if (!c.failed() && live.timestamp == kNoTimestamp) c.Invalid(ts_at, "row timestamp empty");
  }
  if (flags & 0x08) {
    const size_t ttl_at = c.at();
    live.ttl = static_cast<int32_t>(static_cast<uint32_t>(st.min_ttl) +
                                    static_cast<uint32_t>(c.UVInt32("row ttl")));
    if (!c.failed() && live.ttl == kNoTtl) c.Invalid(ttl_at, "row ttl 0");
    live.local_expiration_time =
        st.min_local_deletion_time + static_cast<uint32_t>(c.UVInt32("row expiration"));
  }
  row.liveness_timestamp = live.timestamp;
  row.liveness_ttl = live.ttl;
  row.liveness_ldt = live.local_expiration_time;
  if (flags & 0x10) {
    const size_t del_at = c.at();
    const DeletionTime del = ReadDeletion(c, st);
    if (!c.failed() && del.IsLive()) c.Invalid(del_at, "row deletion live");
    row.deletion_at = del.marked_for_delete_at;
    row.deletion_ldt = del.local_deletion_time;
  }
  if (c.failed()) return;
  const uint32_t n = is_static ? u.static_column_count : u.regular_column_count;
  const uint32_t first = u.first_header_column + (is_static ? 0 : u.static_column_count);
  const std::vector<Column>& columns = is_static ? table.static_columns : table.regular_columns;
  const std::vector<uint32_t> present = ReadPresentColumns(c, flags, n);
  for (uint32_t idx : present) {
    if (c.failed()) break;
    const Column& col = columns[out.header_columns[first + idx]];
    if (!col.complex) {
      out.cells.push_back(ReadCell(c, st, col, idx, live));
    } else {
      DecodedComplex cx;
      cx.column = idx;
      if (flags & 0x40) {
        const DeletionTime del = ReadDeletion(c, st);
        cx.deletion_at = del.marked_for_delete_at;
        cx.deletion_ldt = del.local_deletion_time;
      }
      out.complexes.push_back(cx);
      const uint64_t k_cells = c.Count(2, "complex cell count");
      for (uint64_t k = 0; k < k_cells && !c.failed(); ++k)
        out.cells.push_back(ReadCell(c, st, col, idx, live));
    }
  }
}

void ReadMarker(Cursor& c, DecodedMutation& out, const DecodedUpdate& u, unsigned flags,
                size_t flags_at) {
  if (flags != 0x02) {
    c.Invalid(flags_at, "marker flags");
    return;
  }
  const size_t kind_at = c.at();
  const uint8_t kind = c.U8("marker kind");
  if (c.failed()) return;
  if (!IsValidBoundKind(kind)) {
    c.Invalid(kind_at, "marker kind");
    return;
  }
  DecodedUnfiltered mk;
  mk.is_marker = true;
  mk.kind = static_cast<BoundKind>(kind);
  mk.first_component = static_cast<uint32_t>(out.components.size());
  mk.first_cell = static_cast<uint32_t>(out.cells.size());
  mk.first_complex = static_cast<uint32_t>(out.complexes.size());
  const size_t size_at = c.at();
  const std::string size_bytes = c.Take(2, size_at, "marker bound size");
  if (c.failed()) return;
  const size_t size = (static_cast<size_t>(static_cast<uint8_t>(size_bytes[0])) << 8) |
                      static_cast<uint8_t>(size_bytes[1]);
  const std::vector<int32_t>& widths = out.schema[u.table].clustering_widths;
  if (size > widths.size()) {
    c.Invalid(size_at, "marker bound size");
    return;
  }
  // Empty only as the bottom or top (Cassandra's ClusteringBoundOrBoundary deserializeValues).
  if (size == 0 && mk.kind != BoundKind::kInclStart && mk.kind != BoundKind::kInclEnd) {
    c.Invalid(size_at, "marker bound size 0");
    return;
  }
  ReadPrefix(c, widths, size, out);
  const DeletionTime del = ReadDeletion(c, u.stats);
  mk.deletion_at = del.marked_for_delete_at;
  mk.deletion_ldt = del.local_deletion_time;
  if (IsBoundary(mk.kind)) {
    const DeletionTime start = ReadDeletion(c, u.stats);
    mk.start_deletion_at = start.marked_for_delete_at;
    mk.start_deletion_ldt = start.local_deletion_time;
  }
  out.unfiltereds.push_back(mk);
}

// Appends the header's columns, as indexes into `table`, to out.header_columns; returns how
// many there are.
uint32_t ReadColumns(Cursor& c, const std::vector<Column>& table, DecodedMutation& out) {
  const uint64_t n = c.Count(1, "column count");
  for (uint64_t k = 0; k < n && !c.failed(); ++k) {
    const size_t at = c.at();
    const ByteRange name = c.Sized("column name");
    if (c.failed()) break;
    bool found = false;
    for (size_t t = 0; t < table.size(); ++t) {
      if (table[t].name == c.Text(name)) {
        out.header_columns.push_back(static_cast<uint32_t>(t));
        found = true;
        break;
      }
    }
    if (!found) c.Invalid(at, "unknown column");
  }
  return static_cast<uint32_t>(n);
}

void ReadUpdate(Cursor& c, Version v, DecodedMutation& out) {
  out.updates.push_back(DecodedUpdate{});
  DecodedUpdate& u = out.updates.back();
  u.first_header_column = static_cast<uint32_t>(out.header_columns.size());
  u.first_unfiltered = static_cast<uint32_t>(out.unfiltereds.size());
  u.unfiltered_end = u.first_unfiltered;
  const size_t id_at = c.at();
  const std::string id = c.Take(16, id_at, "table id");
  if (c.failed()) return;
  TableId table_id{};
  for (size_t k = 0; k < 16; ++k) table_id[k] = static_cast<uint8_t>(id[k]);
  const TableDef* table = nullptr;
  for (size_t t = 0; t < out.schema.size(); ++t) {
    if (out.schema[t].id == table_id) {
      table = &out.schema[t];
      u.table = static_cast<uint32_t>(t);
      break;
    }
  }
  if (table == nullptr) {
    c.Invalid(id_at, "unknown table");
    return;
  }
  if (v == Version::kV51) u.epoch = c.UVInt("epoch");
  u.key = c.Sized("partition key");
  const size_t flags_at = c.at();
  const unsigned flags = c.U8("partition flags");
  if (c.failed() || flags == 0x01) return;
  if ((flags & 0xe3) != 0 || !(flags & 0x10)) {
    c.Invalid(flags_at, "partition flags");
    return;
  }
  u.stats.min_timestamp = AddTs(kTimestampEpoch, c.UVInt("stats timestamp"));
  u.stats.min_local_deletion_time = static_cast<uint32_t>(kDeletionTimeEpoch) +
                                    static_cast<uint32_t>(c.UVInt32("stats deletion time"));
  u.stats.min_ttl = c.UVInt32("stats ttl");
  if (c.failed()) return;
  u.has_static = (flags & 0x08) != 0;
  if (u.has_static) u.static_column_count = ReadColumns(c, table->static_columns, out);
  if (c.failed()) return;
  u.regular_column_count = ReadColumns(c, table->regular_columns, out);
  if (c.failed()) return;
  if (flags & 0x04) {
    const size_t del_at = c.at();
    u.partition_deletion = ReadDeletion(c, u.stats);
    if (!c.failed() && u.partition_deletion.IsLive()) c.Invalid(del_at, "partition deletion live");
  }
  if (c.failed()) return;
  if (u.has_static) {
    const size_t at = c.at();
    const unsigned rf = c.U8("static row flags");
    if (c.failed()) return;
    if (rf & 0x03) {
      c.Invalid(at, "static row flags");
      return;
    }
    ReadRow(c, out, u, rf, at, true);
  }
  const size_t est_at = c.at();
  u.row_estimate = c.UVInt32("row estimate");
  if (!c.failed() && u.row_estimate < 0) c.Invalid(est_at, "row estimate");
  // The open range tombstone, if any (MutableDeletionInfo.Builder.add pairs the markers).
  bool open = false;
  DeletionTime open_deletion;
  while (!c.failed()) {
    const size_t at = c.at();
    const unsigned rf = c.U8("unfiltered flags");
    if (c.failed()) break;
    if (rf == 0x01) {
      if (open) c.Invalid(at, "partition ends with an open range tombstone");
      break;
    }
    if (rf & 0x01) {
      c.Invalid(at, "end of partition with other flags");
      break;
    }
    if (rf & 0x02) {
      ReadMarker(c, out, u, rf, at);
      if (c.failed()) break;
      const DecodedUnfiltered& mk = out.unfiltereds.back();
      const bool starts = mk.kind == BoundKind::kInclStart || mk.kind == BoundKind::kExclStart;
      if (starts == open || (!starts && !(mk.deletion() == open_deletion))) {
        c.Invalid(at, "unpaired range tombstone marker");
        break;
      }
      const bool boundary = mk.kind == BoundKind::kExclEndInclStartBoundary ||
                            mk.kind == BoundKind::kInclEndExclStartBoundary;
      open = starts || boundary;
      if (open) open_deletion = starts ? mk.deletion() : mk.start_deletion();
    } else {
      ReadRow(c, out, u, rf, at, false);
    }
  }
  u.unfiltered_end = static_cast<uint32_t>(out.unfiltereds.size());
  if (!c.failed() && u.unfiltered_end == u.first_unfiltered && u.partition_deletion.IsLive())
    c.Invalid(flags_at, "non-empty form of an empty update");
}

}  // namespace

namespace {
// A width other than -1 or a positive number, or two static (or two regular) columns with one
// name: the schema cannot be decoded against.
bool SchemaUsable(const Schema& schema) {
  auto width_ok = [](int32_t w) { return w == -1 || w > 0; };
  for (const TableDef& t : schema) {
    for (int32_t w : t.clustering_widths)
      if (!width_ok(w)) return false;
    for (const std::vector<Column>* cols : {&t.static_columns, &t.regular_columns}) {
      for (size_t i = 0; i < cols->size(); ++i) {
        if (!width_ok((*cols)[i].fixed_width)) return false;
        for (size_t j = i + 1; j < cols->size(); ++j)
          if ((*cols)[i].name == (*cols)[j].name) return false;
      }
    }
  }
  return true;
}

absl::StatusOr<DecodedMutation> Decode(std::string_view bytes, Version version,
                                       const Schema& schema, std::vector<uint32_t>* marks) {
  if (!SchemaUsable(schema)) return InvalidAt(0, "unusable schema");
  if (bytes.size() >= ByteRange::kNullSize)
    return InvalidAt(0, "mutation of 2^32 - 1 bytes or more");
  Cursor c(bytes, marks);
  DecodedMutation m;
  m.version = version;
  m.schema = schema;
  m.bytes = std::string(bytes);
  if (version == Version::kV51) {
    const unsigned f = c.U8("mutation flags");
    if (!c.failed() && f > 1) c.Invalid(0, "mutation flags");
    m.allow_out_of_range = f == 1;
  }
  const size_t count_at = c.at();
  const uint64_t n = c.Count(version == Version::kV51 ? 19 : 18, "partition update count");
  if (!c.failed() && n == 0) c.Invalid(count_at, "no partition updates");
  for (uint64_t k = 0; k < n && !c.failed(); ++k) ReadUpdate(c, version, m);
  if (!c.failed() && c.left() != 0) c.Invalid(c.at(), "trailing bytes");
  if (c.failed()) return c.status();
  return m;
}
}  // namespace

absl::StatusOr<DecodedMutation> RefDeserialize(std::string_view bytes, Version version,
                                               const Schema& schema) {
  return Decode(bytes, version, schema, nullptr);
}

std::vector<uint32_t> RefFlagOffsets(std::string_view bytes, Version version,
                                     const Schema& schema) {
  std::vector<uint32_t> marks;
  (void)Decode(bytes, version, schema, &marks);
  return marks;
}

}  // namespace serdiff::ref::mutation
