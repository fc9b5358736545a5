// Optimized mutation serializer: validation and the entry points (Serialize, SerializeSmall, the
// growable-buffer writer); the size-only walk and the writer are in mutation_walks.cc.
//
// The size walk (Size*) and the writer (Write*) are two separate walks on purpose: the exact-
// size path depends on them agreeing, and written == computed is checked after every write.
// Both name every field they produce (the names appear in mismatch errors); the names are
// static strings, recorded only when a Trace is attached (diagnostics after a mismatch).
//
// What the walks share with this file (the trace, the Counter, the Sink): mutation_internal.h.
#include "serdiff/mutation/mutation.h"

#include <cstring>
#include <limits>
#include <string>
#include <utility>
#include <vector>

#include "absl/strings/str_cat.h"
#include "serdiff/mutation/mutation_internal.h"

namespace serdiff::mutation {
namespace {

using namespace mutation_internal;  // NOLINT(google-build-using-namespace): the walks' types

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

// Validation's one error: InvalidArgument "mutation: <where>: <what>".
absl::Status Bad(const Loc& where, absl::string_view what) {
  return absl::InvalidArgumentError(absl::StrCat("mutation: ", where.Str(), ": ", what));
}

// model.h's two kinds of type: -1 variable (a uvint length), or a fixed width > 0.
absl::Status CheckWidth(int32_t w, const Loc& where) {
  if (w == -1 || w > 0) return absl::OkStatus();
  return Bad(where, absl::StrCat("width ", w, " is neither -1 (variable) nor > 0"));
}

// A fixed-width value is exactly that wide or empty (flag 0x04 in a cell, the empty bit of a
// clustering component). A variable value's length is a uvint32 (docs/mutation.md), which holds at
// most 2^31 - 1.
absl::Status CheckValue(int32_t width, const std::string& v, const Loc& where) {
  if (width > 0 && !v.empty() && v.size() != static_cast<size_t>(width))
    return Bad(where,
               absl::StrCat("value of ", v.size(), " bytes for a fixed-width ", width, " type"));
  if (v.size() > static_cast<size_t>(std::numeric_limits<int32_t>::max()))
    return Bad(where, "value longer than 2^31 - 1 bytes");
  return absl::OkStatus();
}

// A failing component is checked a second time with its index in the location, so that the error
// names it; the success path builds no location.
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

// Each rule refuses a row that the bytes could not carry back, so that Deserialize(Serialize(m)) ==
// m holds for every valid m (mutation.h), or that the unchecked walks could not handle.
absl::Status CheckRow(const PartitionUpdate& u, const Row& r, bool is_static, const Loc& where) {
  const std::vector<Column>& cols = is_static ? u.static_columns : u.regular_columns;
  // The static row writes no clustering; every other row one component per clustering column.
  const size_t want = is_static ? 0 : u.clustering_widths.size();
  if (r.clustering.size() != want)
    return Bad(where, absl::StrCat(r.clustering.size(), " clustering components, want ", want));
  absl::Status s = CheckPrefix(u.clustering_widths, r.clustering, where);
  if (!s.ok()) return s;
  const Liveness& l = r.liveness;
  // An empty liveness writes neither TTL nor expiration time, a non-expiring one no expiration
  // time: such a value would be lost.
  if (l.timestamp == kNoTimestamp &&
      (l.ttl != kNoTtl || l.local_expiration_time != kNoDeletionTime))
    return Bad(where, "empty liveness with a TTL or an expiration time");
  if (l.ttl == kNoTtl && l.local_expiration_time != kNoDeletionTime)
    return Bad(where, "non-expiring liveness with an expiration time");
  // The shadowable bit qualifies a row deletion; without one the decoder rejects it
  // (docs/mutation.md, "Decoder rules").
  if (r.shadowable && r.deletion.IsLive()) return Bad(where, "shadowable without a deletion");
  int64_t prev = -1;
  for (const ColumnData& cd : r.columns) {
    Loc cw = where;
    cw.column = cd.column;
    // The subset encoding lists columns by position, in order, and the walks index the header's
    // columns with these indexes unchecked.
    if (cd.column >= cols.size() || static_cast<int64_t>(cd.column) <= prev)
      return Bad(cw, absl::StrCat("index not increasing or not below the header's ", cols.size(),
                                  " columns"));
    prev = cd.column;
    const Column& col = cols[cd.column];
    // A simple column writes one cell, no count and no complex deletion; a cell count is a uvint32.
    if (!col.complex && (cd.cells.size() != 1 || !cd.complex_deletion.IsLive()))
      return Bad(cw, "a simple column needs exactly one cell and no complex deletion");
    if (cd.cells.size() > static_cast<size_t>(std::numeric_limits<int32_t>::max()))
      return Bad(cw, "too many cells");
    for (const Cell& c : cd.cells) {
      if (!col.complex && !c.path.empty()) return Bad(cw, "a simple cell has a path");
      // A live cell writes neither TTL nor deletion time, a tombstone no TTL; an expiring cell with
      // TTL 0 would carry the TTL flag with TTL 0, which the decoder rejects. A kind outside the
      // enum has no flag.
      if (c.kind == CellKind::kLive &&
          (c.ttl != kNoTtl || c.local_deletion_time != kNoDeletionTime))
        return Bad(cw, "a live cell has a TTL or a deletion time");
      if (c.kind == CellKind::kTombstone && c.ttl != kNoTtl)
        return Bad(cw, "a tombstone has a TTL");
      if (c.kind == CellKind::kExpiring && c.ttl == kNoTtl)
        return Bad(cw, "an expiring cell has TTL 0");
      // Cassandra refuses a negative TTL when it is asked for one, and 5.0 when it reads one.
      if (c.kind == CellKind::kExpiring && c.ttl < 0)
        return Bad(cw, "an expiring cell has a negative TTL");
      if (c.kind > CellKind::kExpiring) return Bad(cw, "unknown cell kind");
      s = CheckValue(col.fixed_width, c.value, cw);
      if (!s.ok()) return s;
    }
  }
  return absl::OkStatus();
}

}  // namespace

// The rules listed with Validate in mutation.h, front to back; the first broken one is the error.
absl::Status Validate(const Mutation& m) {
  const Loc top;
  if (m.version > Version::kV51) return Bad(top, "unknown version");
  if (m.updates.empty()) return Bad(top, "no partition updates");
  // 4.0 and 5.0 bytes have no place for the 5.1-only fields, so they must be zero there.
  if (!HasEpoch(m.version) && m.allow_out_of_range)
    return Bad(top, "allow_out_of_range needs version 5.1");
  for (size_t p = 0; p < m.updates.size(); ++p) {
    const PartitionUpdate& u = m.updates[p];
    Loc pw;
    pw.partition = static_cast<int64_t>(p);
    if (!HasEpoch(m.version) && u.epoch != 0) return Bad(pw, "epoch needs version 5.1");
    // The key length is a uvint32; the decoder rejects a negative row estimate.
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
    // An empty update is written as its flags byte alone, so everything else must be the defaults
    // that the decoder gives back.
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
    MarkerPairing pairing;
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
      // The decoder rejects bound sizes above the clustering count.
      if (un.marker.bound.size() > u.clustering_widths.size())
        return Bad(w, "bound longer than the clustering");
      if (un.marker.bound.empty() && !CanBeEmptyBound(un.marker.kind))
        return Bad(w, "an empty bound that is not the inclusive start or end");
      absl::Status s = CheckPrefix(u.clustering_widths, un.marker.bound, w);
      if (!s.ok()) return s;
      if (!pairing.Step(un.marker.kind, un.marker.deletion, un.marker.start_deletion))
        return Bad(w,
                   "a marker that does not pair (a close with no open range or another "
                   "deletion time, or an open inside an open range)");
    }
    if (!pairing.Done()) return Bad(pw, "a range tombstone is still open at the partition's end");
  }
  return absl::OkStatus();
}

// Validate first: the size walk indexes columns and cells unchecked, relying on Validate's rules.
absl::StatusOr<size_t> SerializedSize(const Mutation& m) {
  absl::Status s = Validate(m);
  if (!s.ok()) return s;
  Counter c;
  SizeMutation(c, m);
  return c.total;
}

namespace {

// Names the first field whose written length differs from the size walk's prediction.
// Called only after a short write (an overrun is stopped by the Sink). It runs both walks again
// with traces, so that the normal path records nothing; the first entry that differs in name or
// length is the field named.
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

// The small path's scratch buffer: one per thread, so that concurrent SerializeSmall calls never
// share it (test MutationConcurrency.SmallPathThreadsAgreeWithExactPath, also run under tsan).
thread_local std::string small_scratch;

// The exact path, for a mutation Validate accepted: the size walk, one reservation of exactly
// that size, then the writer capped at it. An overrun is stopped at the field that would cross
// the end and named; a short write is traced by Mismatch. Either is an Internal error (a bug in
// one walk), never a short or overlong result.
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
  // Short: the size walk predicted more than the writer wrote.
  if (out.size() != size) return Mismatch(m, size, out.size());
  return out;
}

}  // namespace

// Validate once, then the exact path (which SerializeSmall's fallback shares).
absl::StatusOr<std::string> Serialize(const Mutation& m) {
  absl::Status st = Validate(m);
  if (!st.ok()) return st;
  return SerializeValidated(m);
}

// No size walk: write into this thread's scratch, capped at `threshold`. clear() keeps the capacity
// that earlier calls grew (mutation.h: grown once, kept for the thread's lifetime). An output that
// would cross the cap stops the write, whose partial bytes are dropped, and the exact path runs
// without validating again. The copy is the result's only allocation.
absl::StatusOr<std::string> SerializeSmall(const Mutation& m, size_t threshold) {
  absl::Status st = Validate(m);
  if (!st.ok()) return st;
  small_scratch.clear();
  Sink s(&small_scratch, threshold, nullptr);
  WriteMutation(s, m);
  if (!s.ok()) return SerializeValidated(m);  // too big for the small path
  return std::string(small_scratch);
}

// Grows the calling thread's scratch only; the mutation targets call it at registration.
void ReserveSmallScratch(size_t bytes) { small_scratch.reserve(bytes); }

// The way it was done before (docs/mutation.md, "The four writers", #3), kept as the `reference`
// implementation of the mutation_serialize targets and as the benchmark's "reference": a doubling
// buffer, then a copy of exactly the written size (about 3 x the output at the peak).
absl::StatusOr<std::string> SerializeViaGrowableBuffer(const Mutation& m) {
  absl::Status st = Validate(m);
  if (!st.ok()) return st;
  std::string buffer;
  Sink s(&buffer, std::numeric_limits<size_t>::max(), nullptr);
  WriteMutation(s, m);
  return std::string(buffer);
}

}  // namespace serdiff::mutation
