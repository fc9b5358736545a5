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
//
// The targets, their canonical output (Dump) and their registration are in this file; the
// mutation a spec describes is built in domain_build.cc, the domains are in domain.cc.
#include <cstdint>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "absl/strings/str_cat.h"
#include "harness/hex.h"
#include "reference/mutation/decoder_ref.h"
#include "reference/mutation/spec_writer.h"
#include "serdiff/mutation/mutation.h"
#include "targets/families.h"
#include "targets/mutation/domain.h"
#include "targets/mutation/internal.h"

namespace serdiff::targets::mutation {

using namespace serdiff::mutation;  // NOLINT: the model's types
using harness::Output;

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

void DumpRange(std::string* o, const DecodedMutation& d, size_t begin, size_t end) {
  o->append("[");
  for (size_t i = begin; i < end; ++i) {
    const ByteRange r = d.components[i];
    absl::StrAppend(
        o, r.is_null() ? "null" : absl::StrCat("'", harness::CompactHex(d.Bytes(r)), "'"), ",");
  }
  o->append("]");
}
void DumpCell(std::string* o, const DecodedMutation& d, const DecodedCell& c) {
  absl::StrAppend(o, "   cell k=", static_cast<int>(c.kind), " ts=", c.timestamp,
                  " ldt=", c.local_deletion_time, " ttl=", c.ttl,
                  " path=", harness::CompactHex(d.Bytes(c.path)),
                  " value=", harness::CompactHex(d.Bytes(c.value)), "\n");
}
// The same text as DumpRow gives for the row's tree (ToMutation), written from the records.
void DumpDecodedRow(std::string* o, const DecodedMutation& d, size_t i) {
  const DecodedUnfiltered& r = d.unfiltereds[i];
  o->append(" row ck=");
  DumpRange(o, d, r.first_component, d.ComponentsEnd(i));
  absl::StrAppend(o, " live=(", r.liveness_timestamp, ",", r.liveness_ttl, ",", r.liveness_ldt,
                  ") del=");
  DumpDeletion(o, r.deletion());
  absl::StrAppend(o, r.shadowable ? " shadowable" : "", "\n");
  size_t cell = r.first_cell;
  const size_t cells_end = d.CellsEnd(i);
  size_t cx = r.first_complex;
  const size_t cx_end = d.ComplexesEnd(i);
  while (cell < cells_end || cx < cx_end) {
    const bool complex =
        cx < cx_end && (cell == cells_end || d.complexes[cx].column <= d.cells[cell].column);
    const uint32_t column = complex ? d.complexes[cx].column : d.cells[cell].column;
    absl::StrAppend(o, "  col ", column, " cdel=");
    DumpDeletion(o, complex
                        ? DeletionTime{d.complexes[cx].deletion_at, d.complexes[cx].deletion_ldt}
                        : DeletionTime{});
    o->append("\n");
    if (complex) {
      ++cx;
      for (; cell < cells_end && d.cells[cell].column == column; ++cell)
        DumpCell(o, d, d.cells[cell]);
    } else {
      DumpCell(o, d, d.cells[cell++]);
    }
  }
}

void DumpColumns(std::string* o, const DecodedMutation& d, const DecodedUpdate& u, bool statics) {
  const uint32_t n = statics ? u.static_column_count : u.regular_column_count;
  for (uint32_t k = 0; k < n; ++k) {
    const Column& c = d.HeaderColumn(u, statics, k);
    absl::StrAppend(o, c.name, "/", c.fixed_width, c.complex ? "c" : "", ",");
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

std::string Dump(const DecodedMutation& d) {
  std::string o =
      absl::StrCat("mutation v", static_cast<int>(d.version), " oor=", d.allow_out_of_range, "\n");
  for (const DecodedUpdate& u : d.updates) {
    const TableDef& t = d.Table(u);
    absl::StrAppend(
        &o, "update table=",
        harness::CompactHex(std::string_view(reinterpret_cast<const char*>(t.id.data()), 16)),
        " epoch=", u.epoch, " key=", harness::CompactHex(d.Bytes(u.key)), " stats=(",
        u.stats.min_timestamp, ",", u.stats.min_local_deletion_time, ",", u.stats.min_ttl,
        ") est=", u.row_estimate, " pdel=");
    DumpDeletion(&o, u.partition_deletion);
    o.append(" widths=");
    for (int32_t w : t.clustering_widths) absl::StrAppend(&o, w, ",");
    o.append(" statics=");
    DumpColumns(&o, d, u, true);
    o.append(" regulars=");
    DumpColumns(&o, d, u, false);
    o.append("\n");
    size_t i = u.first_unfiltered;
    if (u.has_static) {
      o.append(" static");
      DumpDecodedRow(&o, d, i++);
    }
    for (; i < u.unfiltered_end; ++i) {
      const DecodedUnfiltered& un = d.unfiltereds[i];
      if (!un.is_marker) {
        DumpDecodedRow(&o, d, i);
        continue;
      }
      absl::StrAppend(&o, " marker kind=", static_cast<int>(un.kind), " bound=");
      DumpRange(&o, d, un.first_component, d.ComponentsEnd(i));
      o.append(" del=");
      DumpDeletion(&o, un.deletion());
      o.append(" start=");
      DumpDeletion(&o, un.start_deletion());
      o.append("\n");
    }
  }
  return o;
}

namespace {

Output DecodeWith(bool reference, Version version, const Schema& schema, std::string_view bytes) {
  absl::StatusOr<DecodedMutation> m =
      reference ? ref::mutation::RefDeserialize(bytes, version, schema)
                : Deserialize(absl::Span<const uint8_t>(
                                  reinterpret_cast<const uint8_t*>(bytes.data()), bytes.size()),
                              version, schema);
  if (!m.ok()) return m.status();
  return Dump(*m);
}

absl::Status CheckRoundTrip(const Mutation& m, const std::string& out) {
  const Schema schema = SchemaOf(m);
  absl::StatusOr<DecodedMutation> back = Deserialize(
      absl::Span<const uint8_t>(reinterpret_cast<const uint8_t*>(out.data()), out.size()),
      m.version, schema);
  if (!back.ok()) return back.status();
  if (!(back->ToMutation() == m)) return absl::InternalError("Deserialize(Serialize(m)) != m");
  absl::StatusOr<DecodedMutation> ref_back = ref::mutation::RefDeserialize(out, m.version, schema);
  if (!ref_back.ok()) return ref_back.status();
  if (!(ref_back->ToMutation() == m))
    return absl::InternalError("RefDeserialize(Serialize(m)) != m");
  return absl::OkStatus();
}

absl::Status CheckSize(const Mutation& m, const std::string& out) {
  absl::StatusOr<size_t> n = SerializedSize(m);
  if (!n.ok()) return n.status();
  if (*n != out.size())
    return absl::InternalError(absl::StrCat("SerializedSize ", *n, " != written ", out.size()));
  return absl::OkStatus();
}

// Decoded mutations are flat (serdiff/mutation/decoded.h): one input byte may become one 56-byte
// row record (an empty row is its flags byte alone) or one 40-byte cell, in deques that never
// copy what they hold: kDecodeHeapPerInputByte (64, serdiff/mutation/mutation.h) per input
// byte, measured by MutationHeap.DecodersStayWithinTheirPerInputByteBound; the dump is text,
// 4 x its size.
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

void RegisterTargets(harness::Registry& registry) {
  registry.AddWireEdges(WireEdges());
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
                         {28, 393728, 25,
                          "capped for speed: the edit (op 1 B, pos 4 B, arg 4 B), the spec (17 B), "
                          "2 filler bytes: budget 128 B, the edited encoding <= 4 KiB + 8 (an "
                          "append): 64 x (4 KiB + 8) + 4 x <= 16 KiB of Dump text (12310 B seen "
                          "unedited) + 64 KiB"});
  registry.SetFuzzLimits(
      "mutation_decode",
      {64, 134080, 25,
       "capped for speed: the spec (17 B), then filler (budget) and bytes to decode sharing <= 47 "
       "B: 64 x 47 + 4 x <= 16 KiB of Dump text + 64 KiB"});
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

SERDIFF_REGISTER_FAMILY("mutation", RegisterTargets);

}  // namespace serdiff::targets::mutation
