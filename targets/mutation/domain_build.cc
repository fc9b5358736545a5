// Mutation family: BuildMutation, the mutation a MutationSpec describes (declared, with what it
// draws, in targets/mutation/domain.h), built from a PRNG seeded with the spec's seed: the edge
// values, the pickers of each part and the budget; and SingleValueMutation (the benchmark's
// shape). The domains built on it are in domain.cc, the targets in mutation.cc.
#include <algorithm>
#include <cstdint>
#include <initializer_list>
#include <limits>
#include <optional>
#include <random>
#include <string>
#include <utility>
#include <vector>

#include "absl/strings/str_cat.h"
#include "serdiff/mutation/mutation.h"
#include "targets/mutation/domain.h"

namespace serdiff::targets::mutation {

using namespace serdiff::mutation;  // NOLINT: the model's types

namespace {

class Rng {
 public:
  explicit Rng(uint64_t seed) : g_(seed) {}
  uint64_t U64() { return g_(); }
  // Uniform in [0, n).
  uint64_t Below(uint64_t n) { return n == 0 ? 0 : g_() % n; }
  bool Chance(int percent) { return static_cast<int>(Below(100)) < percent; }
  template <typename T>
  T Pick(std::initializer_list<T> v) {
    return *(v.begin() + Below(v.size()));
  }
  std::string Bytes(size_t n) {
    std::string s(n, '\0');
    for (char& c : s) c = static_cast<char>(g_());
    return s;
  }

 private:
  std::mt19937_64 g_;
};

constexpr int64_t kI64Min = std::numeric_limits<int64_t>::min();
constexpr int64_t kI64Max = std::numeric_limits<int64_t>::max();
constexpr int32_t kI32Min = std::numeric_limits<int32_t>::min();
constexpr int32_t kI32Max = std::numeric_limits<int32_t>::max();

int64_t EdgeTimestamp(Rng& r) {
  switch (r.Below(4)) {
    case 0:
      return r.Pick<int64_t>({0, 1, -1, 5, kI64Min + 1, kI64Max, kI64Max - 1, kTimestampEpoch,
                              kTimestampEpoch - 1, kTimestampEpoch + 1, kI32Max, kI32Min,
                              int64_t{1} << 31, -(int64_t{1} << 31) - 1});
    case 1:
      return 1700000000000000 + static_cast<int64_t>(r.Below(1000));
    case 2:
      return static_cast<int64_t>(r.U64());
    default:
      return kTimestampEpoch + static_cast<int64_t>(r.Below(1u << 20)) - (1 << 19);
  }
}

uint32_t EdgeLdt(Rng& r) {
  switch (r.Below(3)) {
    case 0:
      return r.Pick<uint32_t>({0u, 1u, 0x7ffffffeu, 0x80000000u, 0x80000001u, 0xfffffffeu,
                               0xffffffffu, static_cast<uint32_t>(kDeletionTimeEpoch),
                               static_cast<uint32_t>(kDeletionTimeEpoch - 1), 1700000000u,
                               static_cast<uint32_t>(kDeletionTimeEpoch) + 2852087294u});
    case 1:
      return 1700000000u + static_cast<uint32_t>(r.Below(100000));
    default:
      return static_cast<uint32_t>(r.U64());
  }
}

int32_t EdgeTtl(Rng& r) {  // never 0
  const int32_t t = r.Chance(50) ? r.Pick<int32_t>({1, -1, kI32Max, kI32Min, 630720000, 86400, 3600,
                                                    kI32Max - 1, kI32Min + 1})
                                 : static_cast<int32_t>(r.U64());
  return t == 0 ? 7 : t;
}

int32_t PickWidth(Rng& r) { return r.Chance(60) ? -1 : r.Pick<int32_t>({1, 4, 8, 16}); }

std::string PickValue(Rng& r, int32_t width, size_t scale) {
  if (r.Chance(10)) return std::string();
  if (width > 0) return r.Bytes(static_cast<size_t>(width));
  // Mostly short values; now and then one up to the spec's scale (keeps 8 x 200 x 70 cheap).
  const size_t n = r.Chance(97) ? r.Below(9) + 1 : r.Below(scale + 1) + 1;
  return r.Bytes(n);
}

Component PickComponent(Rng& r, int32_t width, size_t scale) {
  const uint64_t k = r.Below(10);
  if (k == 0) return std::nullopt;
  if (k == 1) return std::string();
  std::string v = PickValue(r, width, scale);
  if (v.empty()) v = width > 0 ? std::string(static_cast<size_t>(width), 'x') : "x";
  return v;
}

DeletionTime PickDeletion(Rng& r) {
  DeletionTime d;
  d.marked_for_delete_at = EdgeTimestamp(r);
  d.local_deletion_time = EdgeLdt(r);
  if (d.IsLive()) d.local_deletion_time = 1;
  return d;
}

Liveness PickLiveness(Rng& r) {
  Liveness l;
  const uint64_t k = r.Below(4);
  if (k == 0) return l;  // empty
  l.timestamp = EdgeTimestamp(r);
  if (l.timestamp == kNoTimestamp) l.timestamp = 0;
  if (k == 3) {
    l.ttl = EdgeTtl(r);
    l.local_expiration_time = EdgeLdt(r);
  }
  return l;
}

Cell PickCell(Rng& r, const Column& col, const Liveness& row, size_t scale) {
  Cell c;
  c.kind = static_cast<CellKind>(r.Below(3));
  c.timestamp = (row.timestamp != kNoTimestamp && r.Chance(50)) ? row.timestamp : EdgeTimestamp(r);
  if (c.kind == CellKind::kTombstone) c.local_deletion_time = EdgeLdt(r);
  if (c.kind == CellKind::kExpiring) {
    if (row.ttl != kNoTtl && r.Chance(50)) {
      c.ttl = row.ttl;
      c.local_deletion_time = row.local_expiration_time;
    } else {
      c.ttl = EdgeTtl(r);
      c.local_deletion_time = EdgeLdt(r);
    }
    // A cell's TTL is positive (Validate; Cassandra refuses a negative one). Its magnitude keeps
    // the edge and the draws of every other spec as they were.
    if (c.ttl < 0) c.ttl = c.ttl == kI32Min ? kI32Max : -c.ttl;
  }
  if (col.complex) c.path = r.Bytes(r.Below(6));
  c.value = c.kind == CellKind::kTombstone && r.Chance(70) ? std::string()
                                                           : PickValue(r, col.fixed_width, scale);
  return c;
}

// `sparse`: mostly one column in ten (a wide table built from a small budget, BuildMutation).
std::vector<uint32_t> PickSubset(Rng& r, size_t n, bool sparse) {
  std::vector<uint32_t> out;
  const uint64_t mode = sparse && r.Chance(75) ? 1 : r.Below(5);
  for (uint32_t i = 0; i < n; ++i) {
    bool take = true;
    if (mode == 1) take = r.Chance(10);
    if (mode == 2) take = r.Chance(50);
    if (mode == 3) take = r.Chance(90);
    if (take) out.push_back(i);
  }
  return out;
}

Row PickRow(Rng& r, const PartitionUpdate& u, bool is_static, size_t scale, bool sparse = false) {
  Row row;
  const std::vector<Column>& cols = is_static ? u.static_columns : u.regular_columns;
  if (!is_static)
    for (int32_t w : u.clustering_widths) row.clustering.push_back(PickComponent(r, w, scale));
  row.liveness = PickLiveness(r);
  if (r.Chance(20)) {
    row.deletion = PickDeletion(r);
    row.shadowable = r.Chance(30);
  }
  for (uint32_t idx : PickSubset(r, cols.size(), sparse)) {
    ColumnData cd;
    cd.column = idx;
    const Column& col = cols[idx];
    if (col.complex) {
      if (r.Chance(30)) cd.complex_deletion = PickDeletion(r);
      const uint64_t n = r.Below(4);
      for (uint64_t k = 0; k < n; ++k) cd.cells.push_back(PickCell(r, col, row.liveness, scale));
    } else {
      cd.cells.push_back(PickCell(r, col, row.liveness, scale));
    }
    row.columns.push_back(std::move(cd));
  }
  return row;
}

// The next marker of a partition whose open range tombstone is *open (none: nullopt); updates
// *open. Markers pair up (MarkerPairing, model.h): with nothing open a start bound (1, 7), else an
// end bound (0, 6) or a boundary (2, 5) that closes with the open deletion time. An empty bound
// is the partition's bottom or top only (CanBeEmptyBound): the inclusive start or end.
Marker PickMarker(Rng& r, const PartitionUpdate& u, size_t scale,
                  std::optional<DeletionTime>* open) {
  Marker mk;
  mk.kind = static_cast<BoundKind>(open->has_value() ? r.Pick<uint8_t>({0, 2, 5, 6})
                                                     : r.Pick<uint8_t>({1, 7}));
  const size_t size = r.Below(u.clustering_widths.size() + 1);
  for (size_t i = 0; i < size; ++i)
    mk.bound.push_back(PickComponent(r, u.clustering_widths[i], scale));
  if (mk.bound.empty() && !CanBeEmptyBound(mk.kind))
    mk.kind = IsStartBound(mk.kind) ? BoundKind::kInclStart : BoundKind::kInclEnd;
  mk.deletion = open->has_value() ? **open : PickDeletion(r);
  if (IsBoundary(mk.kind)) mk.start_deletion = PickDeletion(r);
  *open = IsStartBound(mk.kind) ? std::optional<DeletionTime>(mk.deletion)
          : IsBoundary(mk.kind) ? std::optional<DeletionTime>(mk.start_deletion)
                                : std::nullopt;
  return mk;
}

// Roughly the bytes an unfiltered adds to the serialized form (values, paths, clustering
// components, plus a fixed allowance per cell and per unfiltered for flags and varints).
size_t ApproxBytes(const std::vector<Component>& cs) {
  size_t n = 0;
  for (const Component& c : cs) n += 4 + (c ? c->size() : 0);
  return n;
}
size_t ApproxBytes(const Unfiltered& un) {
  if (un.is_marker) return 32 + ApproxBytes(un.marker.bound);
  size_t n = 32 + ApproxBytes(un.row.clustering);
  for (const ColumnData& cd : un.row.columns) {
    for (const Cell& c : cd.cells) n += 24 + c.path.size() + c.value.size();
  }
  return n;
}

}  // namespace

Mutation BuildMutation(const MutationSpec& spec) {
  Rng r(spec.seed);
  Mutation m;
  m.version = static_cast<Version>(spec.version % 3);
  if (HasEpoch(m.version)) m.allow_out_of_range = r.Chance(50);
  // The budget also caps the parts drawn before any row (tables, columns, clustering) and
  // the value scale. Each cap is inert at kMaxBuiltBytes (it then exceeds the spec's range:
  // 65 updates, 2049 columns, 2048 clustering columns, a 16 KiB scale), so a full-budget spec
  // builds what it did before the budget existed.
  const size_t budget = std::min<size_t>(spec.budget, kMaxBuiltBytes);
  const size_t updates =
      std::clamp<size_t>(spec.updates, 1, std::min<size_t>(8, 1 + budget / 4096));
  // The wide shapes, where this format's bugs live (the 63-column subset bitmap, the
  // large-subset lists past 64 columns, a clustering prefix past its first 32-component header
  // block), have a cheap encoding: the top of each field's range (columns 63..70, clustering
  // 30..40) is built as asked whatever the budget, so a fuzz input of 19 bytes reaches them;
  // their values stay small (the scale is budget / 16) and their rows few (the budget stops
  // them). Below the top, the width costs budget as before, which keeps most fuzz inputs
  // small and fast.
  const size_t ncols =
      spec.columns >= kWideColumns
          ? std::min<size_t>(spec.columns, 70)
          : std::clamp<size_t>(spec.columns, 1, std::min<size_t>(70, 1 + budget / 128));
  // A table wider than its budget pays for: its rows are mostly sparse (PickSubset).
  const bool cheap_wide = ncols > 1 + budget / 128;
  const size_t nclust = spec.clustering >= kWideClustering
                            ? std::min<size_t>(spec.clustering, 40)
                            : std::min<size_t>({spec.clustering, 40, budget / 128});
  const size_t max_rows = std::min<size_t>(spec.max_rows, 200);
  const size_t scale = std::min<size_t>({spec.value_bytes, 4096, budget / 16});
  size_t built = 0;  // ApproxBytes of the unfiltereds so far, across updates
  for (size_t p = 0; p < updates; ++p) {
    PartitionUpdate u;
    for (size_t k = 0; k < 16; ++k) u.table_id[k] = static_cast<uint8_t>(k * 0x11);
    u.table_id[0] = static_cast<uint8_t>(p);
    if (HasEpoch(m.version))
      u.epoch =
          r.Pick<uint64_t>({0, 5, 63, 64, 127, 128, 8191, 8192, uint64_t{1} << 56, ~uint64_t{0}});
    u.key = r.Bytes(r.Below(12));
    for (size_t i = 0; i < nclust; ++i) u.clustering_widths.push_back(PickWidth(r));
    if (r.Chance(10)) {  // an empty update: nothing but the key
      m.updates.push_back(std::move(u));
      continue;
    }
    u.stats.min_timestamp = EdgeTimestamp(r);
    u.stats.min_local_deletion_time = EdgeLdt(r);
    u.stats.min_ttl = r.Chance(60) ? 0 : EdgeTtl(r);
    for (size_t i = 0; i < ncols; ++i) {
      Column c{absl::StrCat("c", i), PickWidth(r), r.Chance(20)};
      u.regular_columns.push_back(std::move(c));
    }
    if (r.Chance(20)) u.partition_deletion = PickDeletion(r);
    if (r.Chance(25)) {
      const size_t ns = 1 + r.Below(3);
      for (size_t i = 0; i < ns; ++i)
        u.static_columns.push_back(Column{absl::StrCat("s", i), PickWidth(r), r.Chance(30)});
      u.static_row = PickRow(r, u, true, scale);
    }
    const size_t rows = max_rows == 0 ? 0 : r.Below(max_rows + 1);
    int32_t row_count = 0;
    std::optional<DeletionTime> open;  // the open range tombstone
    for (size_t i = 0; i < rows && built < budget; ++i) {
      Unfiltered un;
      if (r.Chance(10)) {
        un.is_marker = true;
        un.marker = PickMarker(r, u, scale, &open);
      } else {
        un.row = PickRow(r, u, false, scale, cheap_wide);
        ++row_count;
      }
      built += ApproxBytes(un);
      u.unfiltereds.push_back(std::move(un));
    }
    if (open) {  // closed at the partition's top
      Unfiltered top;
      top.is_marker = true;
      top.marker.kind = BoundKind::kInclEnd;
      top.marker.deletion = *open;
      u.unfiltereds.push_back(std::move(top));
    }
    u.row_estimate = row_count;
    if (u.IsEmpty()) {  // nothing was drawn: keep it valid as an empty update
      u.stats = EncodingStats{};
      u.regular_columns.clear();
      u.row_estimate = 0;
    }
    m.updates.push_back(std::move(u));
  }
  return m;
}

Mutation SingleValueMutation(size_t bytes) {
  Mutation m;
  PartitionUpdate u;
  for (size_t k = 0; k < 16; ++k) u.table_id[k] = static_cast<uint8_t>(k * 0x11);
  u.key = std::string("\0\0\0\1", 4);
  u.stats.min_timestamp = 1700000000000000;
  u.regular_columns.push_back(Column{"v", -1, false});
  u.row_estimate = 1;
  Unfiltered un;
  un.row.liveness.timestamp = 1700000000000000;
  ColumnData cd;
  Cell c;
  c.timestamp = 1700000000000000;
  c.value = std::string(bytes, 'v');
  cd.cells.push_back(std::move(c));
  un.row.columns.push_back(std::move(cd));
  u.unfiltereds.push_back(std::move(un));
  m.updates.push_back(std::move(u));
  return m;
}

}  // namespace serdiff::targets::mutation
