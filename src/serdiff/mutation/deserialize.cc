// Optimized mutation deserializer. Rules and error offsets: mutation.h and docs/mutation.md
// ("Decoder rules"); the reference decoder (reference/mutation/decoder_ref.cc) transcribes the
// same rules independently and must report the same error class at the same offset.
#include <algorithm>
#include <bit>
#include <cstdint>
#include <limits>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "absl/base/attributes.h"
#include "absl/strings/str_cat.h"
#include "serdiff/common/error_offset.h"
#include "serdiff/mutation/mutation.h"

namespace serdiff::mutation {
namespace {

#define SERDIFF_TRY(expr)      \
  do {                         \
    absl::Status _st = (expr); \
    if (!_st.ok()) return _st; \
  } while (0)

class Reader {
 public:
  explicit Reader(absl::Span<const uint8_t> in) : in_(in) {}

  size_t pos() const { return pos_; }
  size_t remaining() const { return in_.size() - pos_; }

  ABSL_ATTRIBUTE_ALWAYS_INLINE absl::Status Byte(uint8_t* out, const char* what) {
    if (remaining() < 1) return OutOfRangeAt(pos_, absl::StrCat(what, ": input ends"));
    *out = in_[pos_++];
    return absl::OkStatus();
  }
  // An unsigned vint (VIntCoding): the first byte's leading ones count the bytes that follow;
  // the rest of the first byte, then those bytes big-endian, are the value. Read here, inline,
  // rather than through varint::Read (its format dispatch and StatusOr cost a fifth of the
  // decoding time on a full-budget mutation).
  ABSL_ATTRIBUTE_ALWAYS_INLINE absl::Status VInt(uint64_t* out, const char* what) {
    if (pos_ < in_.size()) {
      const uint8_t first = in_[pos_];
      if (first < 0x80) {  // one byte: the common case
        *out = first;
        ++pos_;
        return absl::OkStatus();
      }
      const size_t extra = static_cast<size_t>(std::countl_one(first));  // 1..8
      if (in_.size() - pos_ > extra) {
        uint64_t v = extra == 8 ? 0 : (first & (0xffu >> extra));
        for (size_t k = 1; k <= extra; ++k) v = (v << 8) | in_[pos_ + k];
        pos_ += extra + 1;
        *out = v;
        return absl::OkStatus();
      }
    }
    return OutOfRangeAt(pos_, absl::StrCat(what, ": input ends inside a vint"));
  }
  // A uvint32: Cassandra's readUnsignedVInt32 accepts only a sign-extended int32.
  ABSL_ATTRIBUTE_ALWAYS_INLINE absl::Status VInt32(int32_t* out, const char* what) {
    const size_t start = pos_;
    uint64_t v = 0;
    SERDIFF_TRY(VInt(&v, what));
    const int64_t s = static_cast<int64_t>(v);
    if (s < std::numeric_limits<int32_t>::min() || s > std::numeric_limits<int32_t>::max())
      return InvalidAt(start, absl::StrCat(what, ": ", v, " is not a sign-extended int32"));
    *out = static_cast<int32_t>(s);
    return absl::OkStatus();
  }
  // A non-negative uvint32 length or count, each element at least `min_bytes` long, all of
  // which must fit in what remains after it.
  ABSL_ATTRIBUTE_ALWAYS_INLINE absl::Status Count(uint64_t* out, size_t min_bytes,
                                                  const char* what) {
    const size_t start = pos_;
    int32_t v = 0;
    SERDIFF_TRY(VInt32(&v, what));
    if (v < 0) return InvalidAt(start, absl::StrCat(what, ": negative ", v));
    if (static_cast<uint64_t>(v) > remaining() / min_bytes)
      return OutOfRangeAt(
          start, absl::StrCat(what, " ", v, " exceeds the ", remaining(), " bytes that remain"));
    *out = static_cast<uint64_t>(v);
    return absl::OkStatus();
  }
  // The next `n` bytes as a range of the input (DecodedMutation::bytes is its copy).
  absl::Status Range(size_t n, ByteRange* out, size_t err_at, const char* what) {
    if (remaining() < n) return OutOfRangeAt(err_at, absl::StrCat(what, ": input ends"));
    *out = {static_cast<uint32_t>(pos_), static_cast<uint32_t>(n)};
    pos_ += n;
    return absl::OkStatus();
  }
  // Length-prefixed bytes (writeWithVIntLength).
  absl::Status LenBytes(ByteRange* out, const char* what) {
    const size_t start = pos_;
    uint64_t n = 0;
    SERDIFF_TRY(Count(&n, 1, what));
    return Range(n, out, start, what);
  }
  absl::Status Value(int32_t width, ByteRange* out, const char* what) {
    if (width < 0) return LenBytes(out, what);
    return Range(static_cast<size_t>(width), out, pos_, what);
  }
  std::string_view View(ByteRange r) const {
    return std::string_view(reinterpret_cast<const char*>(in_.data()) + r.offset, r.size);
  }

 private:
  absl::Span<const uint8_t> in_;
  size_t pos_ = 0;
};

ABSL_ATTRIBUTE_ALWAYS_INLINE inline absl::Status ReadTs(Reader& r, int64_t base, int64_t* out,
                                                        const char* what) {
  uint64_t d = 0;
  SERDIFF_TRY(r.VInt(&d, what));
  *out = static_cast<int64_t>(static_cast<uint64_t>(base) + d);
  return absl::OkStatus();
}
ABSL_ATTRIBUTE_ALWAYS_INLINE inline absl::Status ReadLdt(Reader& r, uint32_t base, uint32_t* out,
                                                         const char* what) {
  int32_t d = 0;
  SERDIFF_TRY(r.VInt32(&d, what));
  *out = base + static_cast<uint32_t>(d);
  return absl::OkStatus();
}
ABSL_ATTRIBUTE_ALWAYS_INLINE inline absl::Status ReadTtl(Reader& r, int32_t base, int32_t* out,
                                                         const char* what) {
  int32_t d = 0;
  SERDIFF_TRY(r.VInt32(&d, what));
  *out = static_cast<int32_t>(static_cast<uint32_t>(base) + static_cast<uint32_t>(d));
  return absl::OkStatus();
}
ABSL_ATTRIBUTE_ALWAYS_INLINE inline absl::Status ReadDeletion(Reader& r, const EncodingStats& st,
                                                              int64_t* at, uint32_t* ldt) {
  SERDIFF_TRY(ReadTs(r, st.min_timestamp, at, "deletion timestamp"));
  return ReadLdt(r, st.min_local_deletion_time, ldt, "deletion time");
}

// Appends `n` clustering components (a row's clustering or a marker's bound) to d->components.
absl::Status ReadPrefix(Reader& r, const std::vector<int32_t>& widths, size_t n,
                        DecodedMutation* d) {
  for (size_t off = 0; off < n; off += 32) {
    const size_t lim = std::min(n, off + 32);
    const size_t header_at = r.pos();
    uint64_t header = 0;
    SERDIFF_TRY(r.VInt(&header, "clustering header"));
    const size_t k = lim - off;
    if (k < 32 && (header >> (2 * k)) != 0)
      return InvalidAt(header_at, "clustering header: bits past the block's components");
    for (size_t i = 0; i < k; ++i) {
      if (((header >> (2 * i)) & 3) == 3)
        return InvalidAt(header_at, "clustering header: a component both null and empty");
    }
    for (size_t i = 0; i < k; ++i) {
      const uint64_t bits = (header >> (2 * i)) & 3;
      ByteRange v;
      if (bits == 2) {
        v.size = ByteRange::kNullSize;
      } else if (bits == 0) {
        SERDIFF_TRY(r.Value(widths[off + i], &v, "clustering value"));
      }
      d->components.push_back(v);
    }
  }
  return absl::OkStatus();
}

absl::Status ReadCell(Reader& r, const EncodingStats& st, const Column& col, const Liveness& l,
                      DecodedCell* c) {
  const size_t at = r.pos();
  uint8_t f = 0;
  SERDIFF_TRY(r.Byte(&f, "cell flags"));
  if ((f & ~0x1f) != 0) return InvalidAt(at, "cell flags: unknown bits");
  if ((f & 0x03) == 0x03) return InvalidAt(at, "cell flags: both tombstone and expiring");
  if ((f & 0x10) != 0 && ((f & 0x02) == 0 || l.ttl == kNoTtl))
    return InvalidAt(at, "cell flags: row TTL without an expiring cell and row");
  // Cassandra 5.0's Cell.Serializer.deserialize: "Invalid TTL" for a negative TTL, the row's too.
  if ((f & 0x10) != 0 && l.ttl < 0) return InvalidAt(at, "cell flags: the row's TTL is negative");
  if ((f & 0x08) != 0 && l.timestamp == kNoTimestamp)
    return InvalidAt(at, "cell flags: row timestamp without a row timestamp");
  c->kind = (f & 0x01) ? CellKind::kTombstone : (f & 0x02) ? CellKind::kExpiring : CellKind::kLive;
  if ((f & 0x08) != 0) {
    c->timestamp = l.timestamp;
  } else {
    SERDIFF_TRY(ReadTs(r, st.min_timestamp, &c->timestamp, "cell timestamp"));
  }
  c->local_deletion_time = kNoDeletionTime;
  c->ttl = kNoTtl;
  if ((f & 0x10) != 0) {
    c->local_deletion_time = l.local_expiration_time;
    c->ttl = l.ttl;
  } else {
    if ((f & 0x03) != 0) {
      SERDIFF_TRY(ReadLdt(r, st.min_local_deletion_time, &c->local_deletion_time,
                          "cell local deletion time"));
    }
    if ((f & 0x02) != 0) {
      const size_t ttl_at = r.pos();
      SERDIFF_TRY(ReadTtl(r, st.min_ttl, &c->ttl, "cell ttl"));
      if (c->ttl == kNoTtl) return InvalidAt(ttl_at, "cell ttl: an expiring cell with TTL 0");
      if (c->ttl < 0) return InvalidAt(ttl_at, "cell ttl: negative");
    }
  }
  c->path = {};
  if (col.complex) SERDIFF_TRY(r.LenBytes(&c->path, "cell path"));
  c->value = {};
  if ((f & 0x04) == 0) {
    const size_t value_at = r.pos();
    SERDIFF_TRY(r.Value(col.fixed_width, &c->value, "cell value"));
    if (c->value.size == 0) return InvalidAt(value_at, "cell value: empty without the empty flag");
  }
  return absl::OkStatus();
}

// Reads the body of `row` (its record already appended to d->unfiltereds), appending its
// clustering, cells and complex columns.
absl::Status ReadRowBody(Reader& r, DecodedMutation* d, const DecodedUpdate& u, uint8_t flags,
                         bool is_static, DecodedUnfiltered& row) {
  const TableDef& table = d->Table(u);
  const uint32_t n32 = is_static ? u.static_column_count : u.regular_column_count;
  const EncodingStats& st = u.stats;
  if (!is_static && !table.clustering_widths.empty())
    SERDIFF_TRY(ReadPrefix(r, table.clustering_widths, table.clustering_widths.size(), d));
  if ((flags & 0x04) != 0) {
    const size_t ts_at = r.pos();
    SERDIFF_TRY(ReadTs(r, st.min_timestamp, &row.liveness_timestamp, "row timestamp"));
    // The flag says the row has a liveness timestamp; one that lands on kNoTimestamp is the empty
    // liveness, which the writer writes without the flag (and which can carry no TTL).
    if (row.liveness_timestamp == kNoTimestamp) {
      return InvalidAt(ts_at, "row timestamp: the empty timestamp with the timestamp flag");
    }
  }
  if ((flags & 0x08) != 0) {
    const size_t ttl_at = r.pos();
    SERDIFF_TRY(ReadTtl(r, st.min_ttl, &row.liveness_ttl, "row ttl"));
    if (row.liveness_ttl == kNoTtl) return InvalidAt(ttl_at, "row ttl: TTL 0 with the TTL flag");
    SERDIFF_TRY(
        ReadLdt(r, st.min_local_deletion_time, &row.liveness_ldt, "row local expiration time"));
  }
  if ((flags & 0x10) != 0) {
    const size_t del_at = r.pos();
    SERDIFF_TRY(ReadDeletion(r, st, &row.deletion_at, &row.deletion_ldt));
    if (row.deletion().IsLive()) return InvalidAt(del_at, "row deletion: live with the flag");
  }
  const size_t n = n32;
  const Liveness liveness = row.liveness();
  // Reads the data of present column `ci`: one cell (simple), or a complex column's deletion
  // (flag 0x40), its cell count and its cells.
  auto read_column = [&](uint32_t ci) -> absl::Status {
    const Column& col = d->HeaderColumn(u, is_static, ci);
    if (!col.complex) {
      DecodedCell cell;
      cell.column = ci;
      SERDIFF_TRY(ReadCell(r, st, col, liveness, &cell));
      d->cells.push_back(cell);
      return absl::OkStatus();
    }
    DecodedComplex cx;
    cx.column = ci;
    if ((flags & 0x40) != 0) SERDIFF_TRY(ReadDeletion(r, st, &cx.deletion_at, &cx.deletion_ldt));
    d->complexes.push_back(cx);
    uint64_t count = 0;
    SERDIFF_TRY(r.Count(&count, 2, "complex cell count"));
    for (uint64_t i = 0; i < count; ++i) {
      DecodedCell cell;
      cell.column = ci;
      SERDIFF_TRY(ReadCell(r, st, col, liveness, &cell));
      d->cells.push_back(cell);
    }
    return absl::OkStatus();
  };
  if ((flags & 0x20) != 0) {  // every column present
    for (size_t i = 0; i < n; ++i) SERDIFF_TRY(read_column(static_cast<uint32_t>(i)));
    return absl::OkStatus();
  }
  if (n < 64) {  // a bitmap of the missing columns
    const size_t at = r.pos();
    uint64_t missing = 0;
    SERDIFF_TRY(r.VInt(&missing, "column subset bitmap"));
    if ((missing >> n) != 0) return InvalidAt(at, "column subset bitmap: bits past the columns");
    if (missing == 0) return InvalidAt(at, "column subset bitmap: every column present");
    for (size_t i = 0; i < n; ++i)
      if (((missing >> i) & 1) == 0) SERDIFF_TRY(read_column(static_cast<uint32_t>(i)));
    return absl::OkStatus();
  }
  // 64 columns or more: a missing count, then the present or the missing indexes, whichever
  // are fewer, all before the first cell.
  const size_t at = r.pos();
  int32_t missing = 0;
  SERDIFF_TRY(r.VInt32(&missing, "column subset missing count"));
  if (missing <= 0 || static_cast<size_t>(missing) > n)
    return InvalidAt(at, "column subset missing count: not in 1..columns");
  const size_t have = n - static_cast<size_t>(missing);
  const bool list_present = have < n / 2;
  const size_t listed = list_present ? have : static_cast<size_t>(missing);
  if (listed > r.remaining())
    return OutOfRangeAt(at, "column subset: more indexes than bytes remain");
  std::vector<uint32_t> idx;
  int64_t prev = -1;
  for (size_t i = 0; i < listed; ++i) {
    const size_t iat = r.pos();
    int32_t v = 0;
    SERDIFF_TRY(r.VInt32(&v, "column subset index"));
    if (v <= prev || static_cast<size_t>(v) >= n)
      return InvalidAt(iat, "column subset index: out of range or not increasing");
    prev = v;
    idx.push_back(static_cast<uint32_t>(v));
  }
  if (list_present) {
    for (uint32_t ci : idx) SERDIFF_TRY(read_column(ci));
    return absl::OkStatus();
  }
  size_t j = 0;
  for (size_t i = 0; i < n; ++i) {
    if (j < idx.size() && idx[j] == i) {
      ++j;
    } else {
      SERDIFF_TRY(read_column(static_cast<uint32_t>(i)));
    }
  }
  return absl::OkStatus();
}

// Appends a row record and reads the row's flags (and extended flags) and its body.
absl::Status ReadRow(Reader& r, DecodedMutation* d, const DecodedUpdate& u, uint8_t flags,
                     size_t flags_at, bool is_static) {
  uint8_t ext = 0;
  if ((flags & 0x80) != 0) {
    const size_t ext_at = r.pos();
    SERDIFF_TRY(r.Byte(&ext, "row extended flags"));
    if ((ext & ~0x03) != 0 || ext == 0) return InvalidAt(ext_at, "row extended flags: bad bits");
  }
  if (((ext & 0x01) != 0) != is_static)
    return InvalidAt(flags_at, is_static ? "static row without the static flag"
                                         : "static flag on a non-static row");
  const bool shadowable = (ext & 0x02) != 0;
  if (shadowable && (flags & 0x10) == 0)
    return InvalidAt(flags_at, "row flags: shadowable without a deletion");
  if ((flags & 0x08) != 0 && (flags & 0x04) == 0)
    return InvalidAt(flags_at, "row flags: TTL without a timestamp");
  DecodedUnfiltered& row = d->unfiltereds.emplace_back();
  row.first_component = static_cast<uint32_t>(d->components.size());
  row.first_cell = static_cast<uint32_t>(d->cells.size());
  row.first_complex = static_cast<uint32_t>(d->complexes.size());
  row.shadowable = shadowable;
  return ReadRowBody(r, d, u, flags, is_static, row);
}

absl::Status ReadMarker(Reader& r, DecodedMutation* d, const DecodedUpdate& u, size_t flags_at,
                        uint8_t flags) {
  if (flags != 0x02) return InvalidAt(flags_at, "marker flags: bits besides 0x02");
  const size_t kind_at = r.pos();
  uint8_t kind = 0;
  SERDIFF_TRY(r.Byte(&kind, "marker kind"));
  if (!IsValidBoundKind(kind)) return InvalidAt(kind_at, "marker kind: not a bound or boundary");
  DecodedUnfiltered mk;
  mk.is_marker = true;
  mk.kind = static_cast<BoundKind>(kind);
  mk.first_component = static_cast<uint32_t>(d->components.size());
  mk.first_cell = static_cast<uint32_t>(d->cells.size());
  mk.first_complex = static_cast<uint32_t>(d->complexes.size());
  const size_t size_at = r.pos();
  uint8_t hi = 0, lo = 0;
  if (r.remaining() < 2) return OutOfRangeAt(size_at, "marker bound size: input ends");
  SERDIFF_TRY(r.Byte(&hi, "marker bound size"));
  SERDIFF_TRY(r.Byte(&lo, "marker bound size"));
  const size_t size = (size_t{hi} << 8) | lo;
  const std::vector<int32_t>& widths = d->Table(u).clustering_widths;
  if (size > widths.size())
    return InvalidAt(size_at, "marker bound size: more components than clustering columns");
  if (size == 0 && !CanBeEmptyBound(mk.kind))
    return InvalidAt(size_at, "marker bound size: 0 for a kind other than inclusive start or end");
  SERDIFF_TRY(ReadPrefix(r, widths, size, d));
  SERDIFF_TRY(ReadDeletion(r, u.stats, &mk.deletion_at, &mk.deletion_ldt));
  if (IsBoundary(mk.kind))
    SERDIFF_TRY(ReadDeletion(r, u.stats, &mk.start_deletion_at, &mk.start_deletion_ldt));
  d->unfiltereds.push_back(mk);
  return absl::OkStatus();
}

// Appends the header's columns (indexes into `table`) to d->header_columns; returns how many.
absl::Status ReadColumns(Reader& r, const std::vector<Column>& table, DecodedMutation* d,
                         uint32_t* count) {
  uint64_t n = 0;
  SERDIFF_TRY(r.Count(&n, 1, "column count"));
  for (uint64_t i = 0; i < n; ++i) {
    const size_t at = r.pos();
    ByteRange name;
    SERDIFF_TRY(r.LenBytes(&name, "column name"));
    const std::string_view want = r.View(name);
    size_t found = table.size();
    for (size_t k = 0; k < table.size(); ++k)
      if (table[k].name == want) found = k;
    if (found == table.size()) return InvalidAt(at, "column name: not in the table");
    d->header_columns.push_back(static_cast<uint32_t>(found));
  }
  *count = static_cast<uint32_t>(n);
  return absl::OkStatus();
}

absl::Status ReadUpdate(Reader& r, DecodedMutation* d) {
  DecodedUpdate& u = d->updates.emplace_back();
  u.first_header_column = static_cast<uint32_t>(d->header_columns.size());
  u.first_unfiltered = static_cast<uint32_t>(d->unfiltereds.size());
  u.unfiltered_end = u.first_unfiltered;
  const size_t id_at = r.pos();
  ByteRange id;
  SERDIFF_TRY(r.Range(16, &id, id_at, "table id"));
  const std::string_view id_bytes = r.View(id);
  TableId table_id{};
  std::copy(id_bytes.begin(), id_bytes.end(), table_id.begin());
  const TableDef* table = FindTable(d->schema, table_id);
  if (table == nullptr) return InvalidAt(id_at, "table id: not in the schema");
  u.table = static_cast<uint32_t>(table - d->schema.data());
  if (HasEpoch(d->version)) SERDIFF_TRY(r.VInt(&u.epoch, "epoch"));
  SERDIFF_TRY(r.LenBytes(&u.key, "partition key"));
  const size_t flags_at = r.pos();
  uint8_t flags = 0;
  SERDIFF_TRY(r.Byte(&flags, "partition flags"));
  if (flags == 0x01) return absl::OkStatus();  // empty
  if ((flags & ~0x1c) != 0 || (flags & 0x10) == 0)
    return InvalidAt(flags_at, "partition flags: unknown bits, or no row estimate");
  uint64_t delta = 0;
  SERDIFF_TRY(r.VInt(&delta, "stats min timestamp"));
  u.stats.min_timestamp = static_cast<int64_t>(static_cast<uint64_t>(kTimestampEpoch) + delta);
  int32_t d32 = 0;
  SERDIFF_TRY(r.VInt32(&d32, "stats min local deletion time"));
  u.stats.min_local_deletion_time =
      static_cast<uint32_t>(kDeletionTimeEpoch) + static_cast<uint32_t>(d32);
  SERDIFF_TRY(r.VInt32(&u.stats.min_ttl, "stats min ttl"));
  u.has_static = (flags & 0x08) != 0;
  if (u.has_static) SERDIFF_TRY(ReadColumns(r, table->static_columns, d, &u.static_column_count));
  SERDIFF_TRY(ReadColumns(r, table->regular_columns, d, &u.regular_column_count));
  if ((flags & 0x04) != 0) {
    const size_t del_at = r.pos();
    SERDIFF_TRY(ReadDeletion(r, u.stats, &u.partition_deletion.marked_for_delete_at,
                             &u.partition_deletion.local_deletion_time));
    if (u.partition_deletion.IsLive())
      return InvalidAt(del_at, "partition deletion: live with the flag");
  }
  if (u.has_static) {
    const size_t at = r.pos();
    uint8_t rf = 0;
    SERDIFF_TRY(r.Byte(&rf, "static row flags"));
    if ((rf & 0x03) != 0) return InvalidAt(at, "static row flags: marker or end of partition");
    SERDIFF_TRY(ReadRow(r, d, u, rf, at, true));
  }
  const size_t est_at = r.pos();
  SERDIFF_TRY(r.VInt32(&u.row_estimate, "row estimate"));
  if (u.row_estimate < 0) return InvalidAt(est_at, "row estimate: negative");
  MarkerPairing pairing;
  for (;;) {
    const size_t at = r.pos();
    uint8_t rf = 0;
    SERDIFF_TRY(r.Byte(&rf, "unfiltered flags"));
    if (rf == 0x01) {
      if (!pairing.Done()) return InvalidAt(at, "end of partition: a range tombstone is open");
      break;
    }
    if ((rf & 0x01) != 0) return InvalidAt(at, "unfiltered flags: end of partition with others");
    if ((rf & 0x02) != 0) {
      SERDIFF_TRY(ReadMarker(r, d, u, at, rf));
      const DecodedUnfiltered& mk = d->unfiltereds.back();
      if (!pairing.Step(mk.kind, mk.deletion(), mk.start_deletion()))
        return InvalidAt(at, "marker: does not pair with the open range tombstone");
    } else {
      SERDIFF_TRY(ReadRow(r, d, u, rf, at, false));
    }
  }
  u.unfiltered_end = static_cast<uint32_t>(d->unfiltereds.size());
  if (u.unfiltered_end == u.first_unfiltered && u.partition_deletion.IsLive())
    return InvalidAt(flags_at, "partition flags: non-empty form of an empty update");
  return absl::OkStatus();
}

// Widths are -1 (variable) or > 0 (a width of 0 would make a component or value cost no input
// byte), and no two static or two regular columns of a table share a name (the header names
// columns).
absl::Status CheckSchema(const Schema& schema) {
  auto bad = [](size_t t, const std::string& what) {
    return InvalidAt(0, absl::StrCat("schema: table ", t, ": ", what));
  };
  for (size_t t = 0; t < schema.size(); ++t) {
    const TableDef& table = schema[t];
    for (size_t k = 0; k < table.clustering_widths.size(); ++k) {
      const int32_t w = table.clustering_widths[k];
      if (w != -1 && w <= 0)
        return bad(t, absl::StrCat("clustering column ", k, " has width ", w, ", not -1 or > 0"));
    }
    for (const std::vector<Column>* cols : {&table.static_columns, &table.regular_columns}) {
      for (size_t k = 0; k < cols->size(); ++k) {
        const Column& c = (*cols)[k];
        if (c.fixed_width != -1 && c.fixed_width <= 0)
          return bad(t, absl::StrCat("column '", c.name, "' has width ", c.fixed_width,
                                     ", not -1 or > 0"));
        for (size_t j = 0; j < k; ++j)
          if ((*cols)[j].name == c.name)
            return bad(t, absl::StrCat("two columns named '", c.name, "'"));
      }
    }
  }
  return absl::OkStatus();
}

}  // namespace

absl::StatusOr<DecodedMutation> Deserialize(absl::Span<const uint8_t> bytes, Version version,
                                            const Schema& schema) {
  SERDIFF_TRY(CheckSchema(schema));
  if (bytes.size() >= ByteRange::kNullSize)
    return InvalidAt(0, "mutation: 4 GiB or more of input (offsets are 32-bit)");
  Reader r(bytes);
  DecodedMutation m;
  m.version = version;
  m.schema = schema;
  m.bytes.assign(reinterpret_cast<const char*>(bytes.data()), bytes.size());
  if (HasEpoch(version)) {
    uint8_t f = 0;
    SERDIFF_TRY(r.Byte(&f, "mutation flags"));
    if ((f & ~0x01) != 0) return InvalidAt(0, "mutation flags: unknown bits");
    m.allow_out_of_range = f == 0x01;
  }
  const size_t count_at = r.pos();
  uint64_t count = 0;
  SERDIFF_TRY(r.Count(&count, HasEpoch(version) ? 19 : 18, "partition update count"));
  if (count == 0) return InvalidAt(count_at, "partition update count: zero");
  for (uint64_t i = 0; i < count; ++i) SERDIFF_TRY(ReadUpdate(r, &m));
  if (r.remaining() != 0) return InvalidAt(r.pos(), "trailing bytes after the last update");
  return m;
}

}  // namespace serdiff::mutation
