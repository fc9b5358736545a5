// serdiff::mutation — what the decoders return: a decoded mutation held flat, sized from what
// the input can really hold.
//
// The tree of model.h (Mutation > PartitionUpdate > Unfiltered > ColumnData > Cell) is the
// writer's input, built by a caller. Decoded from hostile bytes it is too expensive: one input
// byte can be a whole row (a 160-byte Unfiltered), one more a cell (48 + 88 bytes), each in a
// std::vector that holds its old and its new array while it doubles, so a tree decoder peaks
// at up to 480 bytes of heap per input byte. DecodedMutation holds the same facts in a few
// flat arrays instead:
//   * byte strings (keys, clustering values, cell paths and values) are ranges of `bytes`, a
//     copy of the input (1 byte per input byte);
//   * rows, static rows and range-tombstone markers are 56-byte records, cells 40-byte records
//     that carry their column, complex columns 16-byte records, clustering components 8 bytes;
//   * the arrays are std::deque (the updates' too: nothing is reserved from a count): they grow
//     one block (512 bytes in libstdc++) at a time and never copy what they hold, so the peak
//     is what is stored plus one block per array and the deques' maps of blocks.
// The cheapest row is 1 input byte (flags 0x20 with no columns, Cassandra never writes it but
// both decoders read it), the cheapest cell 1 (an empty value that reuses the row's
// timestamp): every decoder stays within 64 bytes of heap per input byte plus a constant
// (measured per shape in docs/mutation.md, "Decoder heap").
//
// Records hold where their parts begin; a part ends where the next record's begins (or at
// the array's end): the cells of unfiltereds[i] are cells[unfiltereds[i].first_cell,
// CellsEnd(i)). The accessors below do that arithmetic; ToMutation() builds the tree
// (Deserialize(Serialize(m))->ToMutation() == m for every valid m), at the tree's cost.
#pragma once

#include <cstdint>
#include <deque>
#include <string>
#include <string_view>
#include <vector>

#include "serdiff/mutation/model.h"

namespace serdiff::mutation {

// The bytes [offset, offset + size) of DecodedMutation::bytes. size == kNullSize marks a null
// clustering component (no bytes).
struct ByteRange {
  static constexpr uint32_t kNullSize = 0xffffffffu;
  uint32_t offset = 0;
  uint32_t size = 0;
  bool is_null() const { return size == kNullSize; }
  friend bool operator==(const ByteRange&, const ByteRange&) = default;
};

// One cell (Cell's fields; `column` is ColumnData::column: an index into the update's static
// or regular header columns, whichever its row uses). 40 bytes.
struct DecodedCell {
  int64_t timestamp = 0;
  uint32_t local_deletion_time = kNoDeletionTime;
  int32_t ttl = kNoTtl;
  ByteRange path;
  ByteRange value;
  uint32_t column = 0;
  CellKind kind = CellKind::kLive;
};

// A complex column present in a row: its index and its complex deletion. Its cells are the
// row's cells with the same `column` (there may be none). Simple columns have no such record.
// 16 bytes.
struct DecodedComplex {
  int64_t deletion_at = kNoTimestamp;       // DeletionTime::marked_for_delete_at
  uint32_t deletion_ldt = kNoDeletionTime;  // DeletionTime::local_deletion_time
  uint32_t column = 0;
};

// A row (static or clustered) or a range-tombstone marker. Row fields: liveness_*, deletion_*,
// shadowable, and its clustering (components), cells and complex columns; marker fields: kind,
// its bound (components), deletion_* and, for boundaries, start_deletion_*. The fields of the
// other kind keep their defaults. 56 bytes.
struct DecodedUnfiltered {
  int64_t liveness_timestamp = kNoTimestamp;
  int64_t deletion_at = kNoTimestamp;
  int64_t start_deletion_at = kNoTimestamp;
  uint32_t deletion_ldt = kNoDeletionTime;
  uint32_t start_deletion_ldt = kNoDeletionTime;
  int32_t liveness_ttl = kNoTtl;
  uint32_t liveness_ldt = kNoDeletionTime;
  uint32_t first_component = 0;  // index into components
  uint32_t first_cell = 0;       // index into cells
  uint32_t first_complex = 0;    // index into complexes
  bool is_marker = false;
  BoundKind kind = BoundKind::kInclStart;  // markers only
  bool shadowable = false;                 // rows only

  Liveness liveness() const { return {liveness_timestamp, liveness_ttl, liveness_ldt}; }
  DeletionTime deletion() const { return {deletion_at, deletion_ldt}; }
  DeletionTime start_deletion() const { return {start_deletion_at, start_deletion_ldt}; }
};

// One partition update. Its header columns are header_columns[first_header_column, +
// static_column_count) then the regulars (each an index into its TableDef's static or regular
// columns); its static row, when has_static, is unfiltereds[first_unfiltered], then come its
// rows and markers up to unfiltered_end. An empty update (written as its flags byte alone) has
// the defaults below and no records.
struct DecodedUpdate {
  uint32_t table = 0;  // index into DecodedMutation::schema
  uint64_t epoch = 0;
  ByteRange key;
  EncodingStats stats;
  DeletionTime partition_deletion;
  int32_t row_estimate = 0;
  bool has_static = false;
  uint32_t first_header_column = 0;
  uint32_t static_column_count = 0;
  uint32_t regular_column_count = 0;
  uint32_t first_unfiltered = 0;
  uint32_t unfiltered_end = 0;
};

// What Deserialize and RefDeserialize return. The accessors below only read; each one's index
// must be in range (i < unfiltereds.size(), a column below the update's count), as the
// decoders' records guarantee for the indexes they hold.
struct DecodedMutation {
  Version version = Version::kV40;
  bool allow_out_of_range = false;
  std::string bytes;  // the input, copied; every ByteRange points here
  Schema schema;      // the decoder's schema, copied (a constant: it does not grow with input)
  std::deque<DecodedUpdate> updates;
  std::deque<uint32_t> header_columns;
  std::deque<DecodedUnfiltered> unfiltereds;
  std::deque<ByteRange> components;
  std::deque<DecodedCell> cells;
  std::deque<DecodedComplex> complexes;

  // The bytes of `r` (a view into `bytes`, valid while this object lives); empty for a null
  // component.
  std::string_view Bytes(ByteRange r) const {
    return r.is_null() ? std::string_view() : std::string_view(bytes).substr(r.offset, r.size);
  }
  // components[i] as model.h's Component: nullopt (null), "" (empty) or its bytes (a copy).
  Component ComponentAt(size_t i) const {
    const ByteRange r = components[i];
    if (r.is_null()) return std::nullopt;
    return std::string(Bytes(r));
  }
  // Where the components, cells and complex columns of unfiltereds[i] end (one past the last;
  // they begin at its first_component, first_cell, first_complex).
  size_t ComponentsEnd(size_t i) const {
    return i + 1 < unfiltereds.size() ? unfiltereds[i + 1].first_component : components.size();
  }
  size_t CellsEnd(size_t i) const {
    return i + 1 < unfiltereds.size() ? unfiltereds[i + 1].first_cell : cells.size();
  }
  size_t ComplexesEnd(size_t i) const {
    return i + 1 < unfiltereds.size() ? unfiltereds[i + 1].first_complex : complexes.size();
  }
  // The schema's table an update belongs to (its clustering widths and columns).
  const TableDef& Table(const DecodedUpdate& u) const { return schema[u.table]; }
  // The header column `column` (0-based, below static_column_count or regular_column_count)
  // of an update's static (is_static) or regular columns, as the schema defines it.
  const Column& HeaderColumn(const DecodedUpdate& u, bool is_static, uint32_t column) const {
    const TableDef& t = Table(u);
    return is_static ? t.static_columns[header_columns[u.first_header_column + column]]
                     : t.regular_columns[header_columns[u.first_header_column +
                                                        u.static_column_count + column]];
  }

  // The tree this decodes to (model.h), for comparing with a built mutation. Costs what the
  // tree costs (up to about 480 bytes per input byte), unlike the decoding itself.
  Mutation ToMutation() const;
};

}  // namespace serdiff::mutation
