// Mutation family targets (docs/mutation.md):
//
//   mutation_serialize         optimized exact-size Serialize vs SerializeSmall, the growable
//                              buffer ("reference") and the spec-transcription writer ("spec"),
//                              byte for byte; checks size-prediction and round-trip (both
//                              decoders); heap bound output + 1 KiB
//   mutation_serialize_small   SerializeSmall (threshold 256 B, scratch grown at registration)
//                              vs the same three; heap bound output + 1 KiB
//   mutation_decode            Deserialize vs the reference decoder on arbitrary bytes, against
//                              the schema of a generated mutation
//   mutation_decode_mutated    the same on valid encodings with one byte, length or flag changed
#include <algorithm>
#include <cstring>
#include <limits>
#include <random>
#include <string>
#include <type_traits>
#include <vector>

#include "absl/strings/str_cat.h"
#include "harness/domains.h"
#include "harness/hex.h"
#include "harness/two_way.h"
#include "reference/mutation/decoder_ref.h"
#include "reference/mutation/spec_writer.h"
#include "serdiff/mutation/mutation.h"
#include "targets/families.h"
#include "targets/mutation/domain.h"

namespace serdiff::targets::mutation {

using namespace serdiff::mutation;  // NOLINT: the model's types
using harness::Output;

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

Marker PickMarker(Rng& r, const PartitionUpdate& u, size_t scale) {
  Marker mk;
  mk.kind = static_cast<BoundKind>(r.Pick<uint8_t>({0, 1, 2, 5, 6, 7}));
  const size_t size = r.Below(u.clustering_widths.size() + 1);
  for (size_t i = 0; i < size; ++i)
    mk.bound.push_back(PickComponent(r, u.clustering_widths[i], scale));
  mk.deletion = PickDeletion(r);
  if (IsBoundary(mk.kind)) mk.start_deletion = PickDeletion(r);
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
    for (size_t i = 0; i < rows && built < budget; ++i) {
      Unfiltered un;
      if (r.Chance(10)) {
        un.is_marker = true;
        un.marker = PickMarker(r, u, scale);
      } else {
        un.row = PickRow(r, u, false, scale, cheap_wide);
        ++row_count;
      }
      built += ApproxBytes(un);
      u.unfiltereds.push_back(std::move(un));
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

namespace {

void DumpComponents(std::string* o, const std::vector<Component>& cs) {
  o->append("[");
  for (const Component& c : cs)
    absl::StrAppend(o, c ? absl::StrCat("'", harness::CompactHex(*c), "'") : "null", ",");
  o->append("]");
}
void DumpDeletion(std::string* o, const DeletionTime& d) {
  absl::StrAppend(o, "(", d.marked_for_delete_at, ",", d.local_deletion_time, ")");
}
void DumpRow(std::string* o, const Row& r) {
  o->append(" row ck=");
  DumpComponents(o, r.clustering);
  absl::StrAppend(o, " live=(", r.liveness.timestamp, ",", r.liveness.ttl, ",",
                  r.liveness.local_expiration_time, ") del=");
  DumpDeletion(o, r.deletion);
  absl::StrAppend(o, r.shadowable ? " shadowable" : "", "\n");
  for (const ColumnData& cd : r.columns) {
    absl::StrAppend(o, "  col ", cd.column, " cdel=");
    DumpDeletion(o, cd.complex_deletion);
    o->append("\n");
    for (const Cell& c : cd.cells)
      absl::StrAppend(o, "   cell k=", static_cast<int>(c.kind), " ts=", c.timestamp,
                      " ldt=", c.local_deletion_time, " ttl=", c.ttl,
                      " path=", harness::CompactHex(c.path),
                      " value=", harness::CompactHex(c.value), "\n");
  }
}

}  // namespace

std::string Dump(const Mutation& m) {
  std::string o =
      absl::StrCat("mutation v", static_cast<int>(m.version), " oor=", m.allow_out_of_range, "\n");
  for (const PartitionUpdate& u : m.updates) {
    absl::StrAppend(
        &o, "update table=",
        harness::CompactHex(std::string_view(reinterpret_cast<const char*>(u.table_id.data()), 16)),
        " epoch=", u.epoch, " key=", harness::CompactHex(u.key), " stats=(", u.stats.min_timestamp,
        ",", u.stats.min_local_deletion_time, ",", u.stats.min_ttl, ") est=", u.row_estimate,
        " pdel=");
    DumpDeletion(&o, u.partition_deletion);
    o.append(" widths=");
    for (int32_t w : u.clustering_widths) absl::StrAppend(&o, w, ",");
    o.append(" statics=");
    for (const Column& c : u.static_columns)
      absl::StrAppend(&o, c.name, "/", c.fixed_width, c.complex ? "c" : "", ",");
    o.append(" regulars=");
    for (const Column& c : u.regular_columns)
      absl::StrAppend(&o, c.name, "/", c.fixed_width, c.complex ? "c" : "", ",");
    o.append("\n");
    if (u.static_row) {
      o.append(" static");
      DumpRow(&o, *u.static_row);
    }
    for (const Unfiltered& un : u.unfiltereds) {
      if (!un.is_marker) {
        DumpRow(&o, un.row);
        continue;
      }
      absl::StrAppend(&o, " marker kind=", static_cast<int>(un.marker.kind), " bound=");
      DumpComponents(&o, un.marker.bound);
      o.append(" del=");
      DumpDeletion(&o, un.marker.deletion);
      o.append(" start=");
      DumpDeletion(&o, un.marker.start_deletion);
      o.append("\n");
    }
  }
  return o;
}

rc::Gen<MutationSpec> GenSpec() {
  return rc::gen::apply(
      [](uint64_t seed, uint8_t version, uint8_t updates, uint8_t rows, uint8_t cols, uint8_t clust,
         uint16_t value_bytes, uint32_t budget) {
        return MutationSpec{seed, version, updates, rows, cols, clust, value_bytes, budget};
      },
      rc::gen::arbitrary<uint64_t>(), rc::gen::inRange<uint8_t>(0, 3),
      rc::gen::weightedOneOf<uint8_t>(
          {{4, rc::gen::inRange<uint8_t>(1, 3)}, {1, rc::gen::inRange<uint8_t>(1, 9)}}),
      rc::gen::weightedOneOf<uint8_t>(
          {{6, rc::gen::inRange<uint8_t>(0, 8)}, {1, rc::gen::inRange<uint8_t>(0, 201)}}),
      rc::gen::weightedOneOf<uint8_t>({{4, rc::gen::inRange<uint8_t>(1, 8)},
                                       {2, rc::gen::inRange<uint8_t>(60, 71)},
                                       {1, rc::gen::inRange<uint8_t>(1, 71)}}),
      rc::gen::weightedOneOf<uint8_t>(
          {{6, rc::gen::inRange<uint8_t>(0, 4)}, {1, rc::gen::inRange<uint8_t>(30, 41)}}),
      rc::gen::weightedOneOf<uint16_t>(
          {{6, rc::gen::inRange<uint16_t>(0, 64)}, {1, rc::gen::inRange<uint16_t>(0, 4097)}}),
      // Mostly the full budget (the large mutations stay in the properties), sometimes one
      // as small as a fuzz input's.
      rc::gen::weightedOneOf<uint32_t>(
          {{6, rc::gen::just(static_cast<uint32_t>(kMaxBuiltBytes))},
           {1, rc::gen::map(rc::gen::inRange<uint32_t>(0, 129), [](uint32_t units) {
              return static_cast<uint32_t>(units * kBudgetBytesPerInputByte);
            })}}));
}

namespace {

// The corpus form of a spec, both ways (harness/two_way.h). The seven fields are integers
// (FDP reads them from the end of the input), then the budget as a count of filler bytes
// (an integer, then that many bytes at the front, which carry nothing): reading, the count is
// cut to the bytes left, so an input's length bounds its budget, kBudgetBytesPerInputByte
// bytes of mutation per byte of input. The writer writes every filler byte the budget needs.
template <typename IO>
void VisitSpec(IO& io, MutationSpec& s) {
  io.Int(s.seed);
  io.Int(s.version, uint8_t{0}, uint8_t{2});
  io.Int(s.updates, uint8_t{1}, uint8_t{8});
  io.Int(s.max_rows, uint8_t{0}, uint8_t{200});
  io.Int(s.columns, uint8_t{1}, uint8_t{70});
  io.Int(s.clustering, uint8_t{0}, uint8_t{40});
  io.Int(s.value_bytes, uint16_t{0}, uint16_t{4096});
  // Writing: the budget is a multiple of kBudgetBytesPerInputByte (MutationSpec); another
  // one would be rounded up.
  uint16_t units = static_cast<uint16_t>(std::min<size_t>(
      (s.budget + kBudgetBytesPerInputByte - 1) / kBudgetBytesPerInputByte, kMaxBudgetUnits));
  io.Int(units, uint16_t{0}, static_cast<uint16_t>(kMaxBudgetUnits));
  if constexpr (IO::kReading) {
    units = static_cast<uint16_t>(std::min<size_t>(units, io.remaining_bytes()));
    s.budget = static_cast<uint32_t>(units * kBudgetBytesPerInputByte);
  }
  io.Pad(units);
}
// The budget is part of the value (it caps what BuildMutation draws), so it is printed, but
// only when below the full kMaxBuiltBytes, the budget of every spec before it existed.
std::string ShowSpec(const MutationSpec& s) {
  return absl::StrCat("spec{seed=", s.seed, " version=", s.version, " updates=", s.updates,
                      " max_rows=", s.max_rows, " columns=", s.columns,
                      " clustering=", s.clustering, " value_bytes=", s.value_bytes,
                      s.budget < kMaxBuiltBytes ? absl::StrCat(" budget=", s.budget) : "", "}");
}

MutationInput MakeInput(const MutationSpec& s) {
  MutationInput in{s, BuildMutation(s), {}};
  in.schema = SchemaOf(in.m);
  return in;
}
DecodeInput Derive(DecodeInput in) {
  const Mutation m = BuildMutation(in.spec);
  in.version = m.version;
  in.schema = SchemaOf(m);
  return in;
}

}  // namespace

harness::Domain<MutationInput> SpecDomain() {
  return harness::TwoWayDomain<MutationInput>(
      "mutation spec (seed, version, updates, rows, columns, clustering, value size)",
      rc::gen::map(GenSpec(), MakeInput),
      [](auto& io, MutationInput& in) {
        VisitSpec(io, in.spec);
        if constexpr (std::decay_t<decltype(io)>::kReading) in = MakeInput(in.spec);
      },
      [](const MutationInput& in) { return ShowSpec(in.spec); },
      [](std::string_view text) -> absl::StatusOr<MutationInput> {
        absl::StatusOr<MutationSpec> s = ParseSpec(text);
        if (!s.ok()) return s.status();
        return MakeInput(*s);
      });
}

harness::Domain<DecodeInput> DecodeDomain() {
  return harness::TwoWayDomain<DecodeInput>(
      "(schema spec, bytes)",
      rc::gen::apply(
          [](MutationSpec s, std::string bytes) {
            DecodeInput in;
            in.spec = s;
            in.bytes = std::move(bytes);
            return Derive(std::move(in));
          },
          GenSpec(), rc::gen::arbitrary<std::string>()),
      [](auto& io, DecodeInput& in) {
        VisitSpec(io, in.spec);
        io.Rest(in.bytes);
        if constexpr (std::decay_t<decltype(io)>::kReading) in = Derive(std::move(in));
      },
      [](const DecodeInput& in) {
        return absl::StrCat(ShowSpec(in.spec),
                            " bytes=", harness::CompactHex(in.bytes.substr(0, 256)),
                            in.bytes.size() > 256 ? "..." : "");
      },
      [](std::string_view text) -> absl::StatusOr<DecodeInput> {
        absl::StatusOr<DecodeInput> in = ParseDecodeText(text);
        if (!in.ok()) return in.status();
        return Derive(*std::move(in));
      });
}

// The edits' aim (harness/mutated.h, kAimedPos): every flags, kind, clustering header and
// column subset bitmap offset of the encoding, as the reference decoder reads them.
harness::Domain<MutatedInput> MutatedDomain() {
  return harness::MutatedOf<MutationInput>(
      SpecDomain(),
      [](const MutationInput& in) {
        absl::StatusOr<std::string> bytes = Serialize(in.m);
        return bytes.ok() ? *std::move(bytes) : std::string();
      },
      [](const MutationInput& in, std::string_view bytes) {
        return ref::mutation::RefFlagOffsets(bytes, in.m.version, in.schema);
      });
}

namespace {

Output DecodeWith(bool reference, Version version, const Schema& schema, std::string_view bytes) {
  absl::StatusOr<Mutation> m =
      reference ? ref::mutation::RefDeserialize(bytes, version, schema)
                : Deserialize(absl::Span<const uint8_t>(
                                  reinterpret_cast<const uint8_t*>(bytes.data()), bytes.size()),
                              version, schema);
  if (!m.ok()) return m.status();
  return Dump(*m);
}

absl::Status CheckRoundTrip(const Mutation& m, const std::string& out) {
  const Schema schema = SchemaOf(m);
  absl::StatusOr<Mutation> back = Deserialize(
      absl::Span<const uint8_t>(reinterpret_cast<const uint8_t*>(out.data()), out.size()),
      m.version, schema);
  if (!back.ok()) return back.status();
  if (!(*back == m)) return absl::InternalError("Deserialize(Serialize(m)) != m");
  absl::StatusOr<Mutation> ref_back = ref::mutation::RefDeserialize(out, m.version, schema);
  if (!ref_back.ok()) return ref_back.status();
  if (!(*ref_back == m)) return absl::InternalError("RefDeserialize(Serialize(m)) != m");
  return absl::OkStatus();
}

absl::Status CheckSize(const Mutation& m, const std::string& out) {
  absl::StatusOr<size_t> n = SerializedSize(m);
  if (!n.ok()) return n.status();
  if (*n != out.size())
    return absl::InternalError(absl::StrCat("SerializedSize ", *n, " != written ", out.size()));
  return absl::OkStatus();
}

// Decoded models: one input byte may become one Unfiltered (an empty row is its flags byte
// alone), 160 bytes, three times over while its vector grows (the old array and the doubled
// one at once): kDecodeHeapPerInputByte (domain.h) per input byte, measured by
// MutationHeap.DecodersStayWithinTheirPerInputByteBound; the dump is text, 4 x its size.
int64_t DecodeBound(size_t input, size_t output) {
  return kDecodeHeapPerInputByte * static_cast<int64_t>(input) +
         static_cast<int64_t>(4 * output + 64 * 1024);
}

harness::TargetDef<MutationInput> SerializeTarget(bool small) {
  harness::TargetDef<MutationInput> def;
  def.name = small ? "mutation_serialize_small" : "mutation_serialize";
  def.description =
      small ? "SerializeSmall (per-thread scratch, then copy) vs exact-size, growable and spec "
              "writers, byte for byte"
            : "exact-size Serialize vs SerializeSmall, the growable buffer and the spec "
              "transcription, byte for byte; size prediction and round trip";
  def.domain = SpecDomain();
  auto exact = [](const MutationInput& in) -> Output { return Serialize(in.m); };
  auto small_path = [](const MutationInput& in) -> Output {
    return SerializeSmall(in.m, kSmallTargetThreshold);
  };
  auto growable = [](const MutationInput& in) -> Output {
    return SerializeViaGrowableBuffer(in.m);
  };
  auto spec = [](const MutationInput& in) -> Output { return ref::mutation::SpecSerialize(in.m); };
  if (small) {
    def.optimized = {"small", small_path};
    def.others = {
        {"reference", growable}, {"exact", harness::Role::kOptimizedTier, exact}, {"spec", spec}};
  } else {
    def.optimized = {"optimized", exact};
    def.others = {{"reference", growable},
                  {"small", harness::Role::kOptimizedTier, small_path},
                  {"spec", spec}};
  }
  def.checks.push_back({"size-prediction", [](const MutationInput& in, const std::string& out) {
                          return CheckSize(in.m, out);
                        }});
  def.checks.push_back({"round-trip", [](const MutationInput& in, const std::string& out) {
                          return CheckRoundTrip(in.m, out);
                        }});
  // The model is built when the input is decoded or generated, outside the measured run.
  def.heap_bound = harness::HeapBound<MutationInput>::Linear(1, 1024);
  return def;
}

// What both decoders of a decode target are given.
struct DecodeCall {
  Version version;
  const Schema& schema;
  std::string_view bytes;
};

// mutation_decode and mutation_decode_mutated: the same comparison on two domains; `call(in)`
// says what to decode.
template <typename In, typename Call>
harness::TargetDef<In> DecodeTarget(std::string name, std::string description,
                                    harness::Domain<In> domain, Call call) {
  harness::TargetDef<In> def;
  def.name = std::move(name);
  def.description = std::move(description);
  def.domain = std::move(domain);
  def.optimized = {"optimized", [call](const In& in) {
                     const DecodeCall c = call(in);
                     return DecodeWith(false, c.version, c.schema, c.bytes);
                   }};
  def.others = {{"reference", [call](const In& in) {
                   const DecodeCall c = call(in);
                   return DecodeWith(true, c.version, c.schema, c.bytes);
                 }}};
  def.heap_bound = harness::HeapBound<In>::Custom(
      absl::StrCat(kDecodeHeapPerInputByte, " x input + 4 x output + 64 KiB"),
      [call](const In& in, const harness::Output& out) {
        return DecodeBound(call(in).bytes.size(), out.ok() ? out->size() : 0);
      });
  // Both decoders report where the first invalid field starts (docs/architecture.md).
  def.offsets = harness::OffsetPolicy::kRequired;
  def.show_output = [](const std::string& out) { return out; };
  return def;
}

}  // namespace
}  // namespace serdiff::targets::mutation

namespace serdiff::targets {

void RegisterMutationTargets(harness::Registry& registry) {
  registry.AddWireEdges(serdiff::targets::mutation::WireEdges());
  // Fuzz limits (docs/fuzzing.md, "Limits"; fuzz/limits.tsv is generated from these):
  // max_len, the heap bound at the largest input, the per-input timeout, the derivation.
  registry.SetFuzzLimits(
      "mutation_serialize*",
      {19, 5120, 25,
       "capped for speed: 2 filler bytes, a build budget of 128 B (64 B per filler byte; 1 update, "
       "<= 70 columns, <= 40 clustering columns, values <= 8 B): output <= 4 KiB (2778 B seen; "
       "test MutationSpecBudget.FuzzCapBuildsSmallMutations) + 1 KiB; full-budget (256 KiB) specs "
       "stay in the properties and serdiff check"});
  registry.SetFuzzLimits("mutation_decode_mutated",
                         {28, 2232320, 25,
                          "capped for speed: the edit (op 1 B, pos 4 B, arg 4 B), the spec (17 B), "
                          "2 filler bytes: budget 128 B, the edited encoding <= 4 KiB + 8 (an "
                          "append): 512 x (4 KiB + 8) + 4 x <= 16 KiB of Dump text (12310 B seen "
                          "unedited) + 64 KiB"});
  registry.SetFuzzLimits(
      "mutation_decode",
      {64, 155136, 25,
       "capped for speed: the spec (17 B), then filler (budget) and bytes to decode sharing <= 47 "
       "B: 512 x 47 + 4 x <= 16 KiB of Dump text + 64 KiB"});
  using namespace serdiff::targets::mutation;  // NOLINT
  // The custom mutator lies about 4- and 2-byte little-endian lengths and counts (the fuzz
  // inputs' own form: FuzzedDataProvider integers at the back).
  registry.SetDefaultLengthFields({{4, false}, {2, false}});
  serdiff::mutation::ReserveSmallScratch(kSmallTargetThreshold);
  registry.Add(SerializeTarget(false));
  registry.Add(SerializeTarget(true));
  registry.Add(DecodeTarget<DecodeInput>(
      "mutation_decode",
      "Deserialize vs the reference decoder on arbitrary bytes (schema of a generated mutation)",
      DecodeDomain(), [](const DecodeInput& in) {
        return DecodeCall{in.version, in.schema, in.bytes};
      }));
  registry.Add(DecodeTarget<MutatedInput>(
      "mutation_decode_mutated",
      "Deserialize vs the reference decoder on valid encodings with one edit (a byte, a bit, "
      "a length, a truncation)",
      MutatedDomain(), [](const MutatedInput& in) {
        return DecodeCall{in.base.m.version, in.base.schema, in.bytes};
      }));
}

SERDIFF_REGISTER_FAMILY("mutation", RegisterMutationTargets);

}  // namespace serdiff::targets
