// serdiff::mutation — the plain value model of a Cassandra mutation (messaging form).
//
// Header-only, standard library only: it is the one header from src/ that the reference
// spec-transcription writer (reference/mutation/spec_writer.cc) may include
// (MutationModel.SpecWriterIncludesOnlyTheValueModelFromSrc in tests/mutation_test.cc reads its
// includes). Behaviour here: field defaults, equality, the schema lookup, and the bound-kind rules
// the writers' Validate and the optimized decoder share (CanBeEmptyBound, MarkerPairing); the
// reference decoder and the spec writer transcribe those rules on their own.
//
// Wire format and the Cassandra class behind every field: docs/mutation.md.
//
// Time fields follow Cassandra's types:
//   * timestamps are microseconds, int64 (Java long); kNoTimestamp = Long.MIN_VALUE;
//   * local deletion / expiration times are seconds since 1970, held as uint32 (Cassandra 5.0
//     keeps a Java int and reads it as unsigned, which reaches 2106); kNoDeletionTime is
//     Integer.MAX_VALUE, the "live" marker;
//   * TTLs are seconds, int32 (Java int); kNoTtl = 0.
#pragma once

#include <array>
#include <cstdint>
#include <optional>
#include <string>
#include <vector>

namespace serdiff::mutation {

// Encoding epoch of EncodingStats (2015-09-22T00:00:00Z): timestamps in microseconds, local
// deletion times in seconds. Deltas are written relative to these.
inline constexpr int64_t kTimestampEpoch = 1442880000000000;
inline constexpr int64_t kDeletionTimeEpoch = 1442880000;
inline constexpr int64_t kNoTimestamp = INT64_MIN;
inline constexpr uint32_t kNoDeletionTime = 0x7fffffffu;
inline constexpr int32_t kNoTtl = 0;

// Messaging versions with distinct mutation layouts. 4.0 and 5.0 write the same bytes; 5.1
// adds a leading mutation flags byte and an epoch after each table id.
enum class Version : uint8_t { kV40 = 0, kV50 = 1, kV51 = 2 };
inline bool HasEpoch(Version v) { return v == Version::kV51; }

using TableId = std::array<uint8_t, 16>;  // the UUID's 16 bytes, most significant first

// A column of the serialization header: its name and the two facts of its type that the
// format needs. fixed_width > 0: values are written raw and must be exactly that long (or
// empty); fixed_width == -1: values carry a uvint length. Complex columns (non-frozen
// collections, UDTs) hold cells with paths.
struct Column {
  std::string name;
  int32_t fixed_width = -1;
  bool complex = false;
  friend bool operator==(const Column&, const Column&) = default;
};

// What the decoder needs to know about a table: id, clustering column widths (same rule as
// Column::fixed_width) and its columns. Deserialize resolves header column names here.
struct TableDef {
  TableId id{};
  std::vector<int32_t> clustering_widths;
  std::vector<Column> static_columns;
  std::vector<Column> regular_columns;
  friend bool operator==(const TableDef&, const TableDef&) = default;
};
using Schema = std::vector<TableDef>;

// Cassandra's DeletionTime: live when (kNoTimestamp, kNoDeletionTime).
struct DeletionTime {
  int64_t marked_for_delete_at = kNoTimestamp;
  uint32_t local_deletion_time = kNoDeletionTime;
  bool IsLive() const {
    return marked_for_delete_at == kNoTimestamp && local_deletion_time == kNoDeletionTime;
  }
  friend bool operator==(const DeletionTime&, const DeletionTime&) = default;
};

// EncodingStats: the bases of every delta in one partition update.
struct EncodingStats {
  int64_t min_timestamp = kTimestampEpoch;
  uint32_t min_local_deletion_time = static_cast<uint32_t>(kDeletionTimeEpoch);
  int32_t min_ttl = 0;
  friend bool operator==(const EncodingStats&, const EncodingStats&) = default;
};

enum class CellKind : uint8_t { kLive = 0, kTombstone = 1, kExpiring = 2 };

// One cell. Live cells: local_deletion_time == kNoDeletionTime and ttl == 0. Tombstones: ttl
// == 0, local_deletion_time = when deleted. Expiring: ttl != 0, local_deletion_time = when it
// expires. path: complex columns only (the collection key / element id); value: empty means
// "no value" (flag 0x04).
struct Cell {
  CellKind kind = CellKind::kLive;
  int64_t timestamp = 0;
  uint32_t local_deletion_time = kNoDeletionTime;
  int32_t ttl = kNoTtl;
  std::string path;
  std::string value;
  friend bool operator==(const Cell&, const Cell&) = default;
};

// The data of one column in one row. `column` indexes the header's static or regular columns.
// A simple column has exactly one cell; a complex column has 0..n cells and a deletion.
struct ColumnData {
  uint32_t column = 0;
  DeletionTime complex_deletion;  // complex columns only
  std::vector<Cell> cells;
  friend bool operator==(const ColumnData&, const ColumnData&) = default;
};

// Primary-key liveness of a row: empty when timestamp == kNoTimestamp; expiring when ttl != 0.
struct Liveness {
  int64_t timestamp = kNoTimestamp;
  int32_t ttl = kNoTtl;
  uint32_t local_expiration_time = kNoDeletionTime;
  friend bool operator==(const Liveness&, const Liveness&) = default;
};

// A clustering component: nullopt = null, "" = empty, else the value bytes.
using Component = std::optional<std::string>;

struct Row {
  std::vector<Component> clustering;  // one per clustering column; none for the static row
  Liveness liveness;
  DeletionTime deletion;
  bool shadowable = false;          // only with a non-live deletion
  std::vector<ColumnData> columns;  // strictly increasing column indexes
  friend bool operator==(const Row&, const Row&) = default;
};

// ClusteringPrefix.Kind ordinals of bounds and boundaries.
enum class BoundKind : uint8_t {
  kExclEnd = 0,
  kInclStart = 1,
  kExclEndInclStartBoundary = 2,
  kInclEndExclStartBoundary = 5,
  kInclEnd = 6,
  kExclStart = 7,
};
// A bound of no components exists only as the partition's bottom (inclusive start) or top
// (inclusive end): Cassandra reads size 0 as BOTTOM or TOP (4.0: by isStart(), turning an
// exclusive bound into an inclusive one and a boundary into a bound whose second deletion time
// is misread; 5.0: an AssertionError for a boundary), so no other kind can be written empty.
inline bool CanBeEmptyBound(BoundKind k) {
  return k == BoundKind::kInclStart || k == BoundKind::kInclEnd;
}
inline bool IsStartBound(BoundKind k) {
  return k == BoundKind::kInclStart || k == BoundKind::kExclStart;
}
inline bool IsBoundary(BoundKind k) {
  return k == BoundKind::kExclEndInclStartBoundary || k == BoundKind::kInclEndExclStartBoundary;
}
inline bool IsValidBoundKind(uint8_t k) {
  return k == 0 || k == 1 || k == 2 || k == 5 || k == 6 || k == 7;
}

// A range-tombstone marker: a bound (a prefix of the clustering, at most as many components
// as clustering columns) with one deletion time, or a boundary with the deletion that ends
// (`deletion`) and the one that starts (`start_deletion`).
struct Marker {
  BoundKind kind = BoundKind::kInclStart;
  std::vector<Component> bound;
  DeletionTime deletion;
  DeletionTime start_deletion;  // boundaries only
  friend bool operator==(const Marker&, const Marker&) = default;
};

// Range-tombstone markers pair up within a partition, in order: a start bound (1, 7) opens a
// range when none is open; an end bound (0, 6) closes the open one, with its deletion time; a
// boundary (2, 5) closes it the same way and opens the next with its start deletion; and nothing
// is open at the partition's end. Step is false at a marker that breaks the rule, Done when a
// range is left open. Cassandra's reader (MutableDeletionInfo.Builder.add) enforces part of it:
// a close before any open is a NullPointerException, a close whose deletion time is not the open
// one's an AssertionError; an open inside an open range, a second close and a range left open it
// does not check. Those three are serdiff's own rule, the shape Cassandra's writers always give
// (each range tombstone written as its open and its close), so that a decoded mutation is one the
// writers write.
class MarkerPairing {
 public:
  bool Step(BoundKind kind, const DeletionTime& deletion, const DeletionTime& start_deletion) {
    if (IsStartBound(kind)) {
      if (open_) return false;
      open_ = deletion;
      return true;
    }
    if (!open_ || !(*open_ == deletion)) return false;
    open_ = IsBoundary(kind) ? std::optional<DeletionTime>(start_deletion) : std::nullopt;
    return true;
  }
  bool Done() const { return !open_.has_value(); }

 private:
  std::optional<DeletionTime> open_;
};

// A row or a range-tombstone marker, in clustering order.
struct Unfiltered {
  bool is_marker = false;
  Row row;
  Marker marker;
  friend bool operator==(const Unfiltered&, const Unfiltered&) = default;
};

// One partition update. `static_columns` / `regular_columns` / `clustering_widths` are the
// serialization header (and must match the table's definition for decoding).
// An update with no unfiltereds, no static row and a live partition deletion is "empty" and is
// written as its flags byte alone; its stats, columns and row_estimate must then be defaults.
struct PartitionUpdate {
  TableId table_id{};
  uint64_t epoch = 0;  // written in 5.1 only; must be 0 otherwise
  std::string key;
  EncodingStats stats;
  std::vector<int32_t> clustering_widths;
  std::vector<Column> static_columns;
  std::vector<Column> regular_columns;
  DeletionTime partition_deletion;
  std::optional<Row> static_row;
  int32_t row_estimate = 0;  // >= 0
  std::vector<Unfiltered> unfiltereds;
  bool IsEmpty() const {
    return unfiltereds.empty() && !static_row.has_value() && partition_deletion.IsLive();
  }
  friend bool operator==(const PartitionUpdate&, const PartitionUpdate&) = default;
};

// A mutation: 1..n partition updates; allow_out_of_range is 5.1's mutation flag 0x01.
struct Mutation {
  Version version = Version::kV40;
  bool allow_out_of_range = false;  // 5.1 only
  std::vector<PartitionUpdate> updates;
  friend bool operator==(const Mutation&, const Mutation&) = default;
};

// The schema a decoder needs for `m`: one TableDef per distinct table id (first one wins).
inline Schema SchemaOf(const Mutation& m) {
  Schema s;
  for (const PartitionUpdate& u : m.updates) {
    bool seen = false;
    for (const TableDef& t : s) seen = seen || t.id == u.table_id;
    if (!seen) s.push_back({u.table_id, u.clustering_widths, u.static_columns, u.regular_columns});
  }
  return s;
}

// The table with id `id`, or nullptr.
inline const TableDef* FindTable(const Schema& s, const TableId& id) {
  for (const TableDef& t : s)
    if (t.id == id) return &t;
  return nullptr;
}

}  // namespace serdiff::mutation
