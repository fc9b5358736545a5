// CQL values family targets: the optimized serdiff::cql codec vs the reference
// serdiff::ref::cql, over every native type and list/set/map/tuple/UDT nested to any depth.
//
//   cql_encode_scalar   every native type (edge values, null/unset/empty, wrong shapes), as a
//                       payload or a [value], protocol v1..v5: optimized vs reference bytes
//   cql_encode_nested   collections, tuples and UDTs nested up to 5 levels, null-heavy (0..100%),
//                       empty, UDTs with omitted trailing fields: optimized vs reference bytes
//   cql_encode_large    the memory contract: lists/sets/maps/UDTs of up to 500,000 elements and
//                       large text fields; optimized peak heap <= output + 64 KiB
//   cql_decode          a type plus arbitrary bytes: optimized vs reference decoder (both reject,
//                       or both accept the same value; output = the value's canonical text)
//   cql_decode_mutated  a valid encoding with one mutation (truncate, flip, insert, overwrite a
//                       length/count, append, drop): optimized vs reference decoder
//   cql_round_trip      decode(encode(v)) with the optimized pair vs the reference pair, checked
//                       to recover v (ExpectedDecode)
//   cql_size            SerializedSize / SerializedValueSize vs the reference's output length,
//                       checked against the optimized writer's output length
//
// Encode targets carry two more checks: size-prediction (SerializedSize == bytes written) and
// round-trip (the optimized decoder reads the output back as ExpectedDecode(v)), plus a second
// optimized implementation, "optimized_buffer": SerializeTo into an exactly sized caller
#include <algorithm>
#include <cstdint>
#include <string>
#include <utility>

#include "absl/strings/str_cat.h"
#include "harness/hex.h"
#include "reference/cql/codec_ref.h"
#include "serdiff/cql/codec.h"
#include "serdiff/cql/literal.h"
#include "targets/cql/divergences.h"
#include "targets/cql/domain.h"
#include "targets/cql/interchange.h"
#include "targets/cql/internal.h"
#include "targets/families.h"

namespace serdiff::targets::cql {

namespace ref = serdiff::ref::cql;

Output OptEncode(const EncodeInput& in) {
  if (in.framed) return opt::SerializeValue(in.type, in.value, in.version);
  return opt::Serialize(in.type, in.value, in.version);
}
Output RefEncode(const EncodeInput& in) {
  if (in.framed) return ref::SerializeValue(in.type, in.value, in.version);
  return ref::Serialize(in.type, in.value, in.version);
}

bool ValueTreeTierRuns(opt::TypedTier tier) {
  const bool native = opt::ValueTreeTierSupported(opt::TypedTier::kAvx512);
  if (tier == opt::TypedTier::kPortable) return native;
  if (tier == opt::TypedTier::kAvx512Emulated) {
    return !native && opt::ValueTreeTierSupported(opt::TypedTier::kAvx512Emulated);
  }
  return false;
}

Output OptEncodeValueTreeTier(const EncodeInput& in, opt::TypedTier tier) {
  // Built once: copying an absl::Status shares its payload, so declining allocates nothing.
  static const absl::Status* const kNoTier = new absl::Status(
      harness::Declined("the value tree's block loops cover v3+ lists and sets of int and date"));
  static const absl::Status* const kNotHere = new absl::Status(
      harness::Declined("on this machine the tier is optimized's own or cannot run"));
  const Type& t = in.type;
  if (in.version < 3 || (t.kind != Kind::kList && t.kind != Kind::kSet) || t.params.size() != 1 ||
      (t.params[0].kind != Kind::kInt && t.params[0].kind != Kind::kDate)) {
    return *kNoTier;
  }
  if (!ValueTreeTierRuns(tier)) return *kNotHere;
  if (in.framed) return opt::SerializeValue(in.type, in.value, in.version, tier);
  return opt::Serialize(in.type, in.value, in.version, tier);
}

std::vector<harness::DeclineEdge<EncodeInput>> ValueTreeTierDeclineEdges(opt::TypedTier tier) {
  const bool here = ValueTreeTierRuns(tier);
  const auto input = [](Type type, int version, bool framed) {
    std::vector<Value> items(9, Value::Int(-7));
    items[4] = Value::Null();
    return EncodeInput{std::move(type), Value::Items(std::move(items)), version, framed};
  };
  const auto list = [](Kind k) { return Type::List(Type::Native(k)); };
  return {
      {"list<int> in v3, the first version with [int] element lengths",
       input(list(Kind::kInt), 3, false), !here},
      {"list<int> in v2", input(list(Kind::kInt), 2, false), true},
      {"list<int> framed as a [value]", input(list(Kind::kInt), 4, true), !here},
      {"set<date> in v5", input(Type::Set(Type::Native(Kind::kDate)), 5, false), !here},
      {"list<float> in v4 (the type id before int's)", input(list(Kind::kFloat), 4, false), true},
      {"list<timestamp> in v4 (the type id after int's)", input(list(Kind::kTimestamp), 4, false),
       true},
      {"list<time> in v4 (the type id after date's)", input(list(Kind::kTime), 4, false), true},
      {"list<smallint>, list<bigint> in v4 (the other int-valued kinds)",
       input(list(Kind::kBigint), 4, false), true},
  };
}

namespace {

// SerializeTo into an exactly sized span inside a larger buffer whose tail must stay intact.
Output OptEncodeIntoBuffer(const EncodeInput& in) {
  if (in.framed) return harness::Declined("framed inputs have no caller-buffer API");
  absl::StatusOr<size_t> size = opt::SerializedSize(in.type, in.value, in.version);
  if (!size.ok()) return size.status();
  constexpr size_t kGuard = 16;
  std::string buf(*size + kGuard, '\xA5');
  absl::StatusOr<size_t> n = opt::SerializeTo(
      in.type, in.value, in.version, absl::MakeSpan(reinterpret_cast<uint8_t*>(buf.data()), *size));
  if (!n.ok()) return n.status();
  for (size_t i = *size; i < buf.size(); ++i) {
    if (buf[i] != '\xA5') return absl::InternalError("SerializeTo wrote past the end of its span");
  }
  buf.resize(*n);
  return buf;
}

absl::StatusOr<Value> OptDecode(const Type& t, std::string_view bytes, int version, bool framed,
                                const DecodeOptions& o) {
  return framed ? opt::DeserializeValue(t, bytes, version, o)
                : opt::Deserialize(t, bytes, version, o);
}
absl::StatusOr<Value> RefDecode(const Type& t, std::string_view bytes, int version, bool framed,
                                const DecodeOptions& o) {
  return framed ? ref::DeserializeValue(t, bytes, version, o)
                : ref::Deserialize(t, bytes, version, o);
}

Output AsText(const Type& t, const absl::StatusOr<Value>& v) {
  if (!v.ok()) return v.status();
  return opt::FormatValue(t, *v);
}

absl::Status CheckRoundTrip(const EncodeInput& in, const std::string& bytes) {
  absl::StatusOr<Value> back = OptDecode(in.type, bytes, in.version, in.framed, DecodeOptions{});
  if (!back.ok())
    return absl::InternalError(absl::StrCat("decoder rejected: ", back.status().ToString()));
  const Value want = ExpectedDecode(in.type, in.value);
  if (!(*back == want)) {
    return absl::InternalError(absl::StrCat("decoded ", opt::FormatValue(in.type, *back),
                                            ", expected ", opt::FormatValue(in.type, want)));
  }
  return absl::OkStatus();
}

absl::Status CheckSize(const EncodeInput& in, const std::string& bytes) {
  absl::StatusOr<size_t> n = in.framed ? opt::SerializedValueSize(in.type, in.value, in.version)
                                       : opt::SerializedSize(in.type, in.value, in.version);
  if (!n.ok()) return n.status();
  if (*n != bytes.size()) {
    return absl::InternalError(absl::StrCat("predicted ", *n, " bytes, wrote ", bytes.size()));
  }
  return absl::OkStatus();
}

constexpr int64_t kEncodeSlack = 64 * 1024;

// The decode targets run the decoder and print the value: the decoder's bound plus the text
// (which grows by doubling: up to 3 x its final size while it is being reallocated).
int64_t DecodeHeapBound(size_t input_bytes, int version, size_t output_bytes) {
  return DecodePeakBound(input_bytes, version) + 3 * static_cast<int64_t>(output_bytes) +
         kEncodeSlack;
}

}  // namespace

int64_t DecodePeakBound(size_t input_bytes, int version) {
  // The smallest length prefix an item can have: [short] for the top-level collection in v1/v2.
  const int64_t prefix = version < 3 ? 2 : 4;
  const int64_t factor = static_cast<int64_t>(sizeof(Value)) / prefix + 2;
  return factor * static_cast<int64_t>(input_bytes) + 4096;
}

namespace {

// What both decoders of a decode target are given.
struct DecodeCall {
  const Type& type;
  std::string_view bytes;
  int version;
  bool framed;
  const DecodeOptions& options;
};

// cql_decode and cql_decode_mutated: the same comparison on two domains. `call(in)` says
// what to decode.
template <typename In, typename Call>
void AddDecodeTarget(harness::Registry& registry, std::string name, std::string description,
                     harness::Domain<In> domain, Call call) {
  harness::TargetDef<In> def;
  def.name = std::move(name);
  def.description = std::move(description);
  def.domain = std::move(domain);
  def.optimized = {"optimized", [call](const In& in) {
                     const DecodeCall c = call(in);
                     return AsText(c.type,
                                   OptDecode(c.type, c.bytes, c.version, c.framed, c.options));
                   }};
  def.others.push_back({"reference", [call](const In& in) {
                          const DecodeCall c = call(in);
                          return AsText(c.type,
                                        RefDecode(c.type, c.bytes, c.version, c.framed, c.options));
                        }});
  def.heap_bound = harness::HeapBound<In>::Custom(
      "DecodePeakBound(input) + 3 x output + 64 KiB",
      [call](const In& in, const harness::Output& out) {
        const DecodeCall c = call(in);
        return DecodeHeapBound(c.bytes.size(), c.version, out.ok() ? out->size() : 0);
      });
  // Both decoders report where the first invalid field starts (docs/architecture.md,
  // "Error offsets"); a missing or different offset fails the case.
  def.offsets = harness::OffsetPolicy::kRequired;
  def.show_output = [](const std::string& out) { return out; };
  registry.Add(std::move(def));
}

}  // namespace

// ---- registration -------------------------------------------------------------------------------

void RegisterTargets(harness::Registry& registry) {
  registry.AddWireEdges(WireEdges());
  // Fuzz limits (docs/fuzzing.md, "Limits"; fuzz/limits.tsv is generated from these):
  // max_len, the heap bound at the largest input, the per-input timeout, the derivation.
  registry.SetFuzzLimits(
      "cql_encode_large",
      {32, 67584, 25,
       "capped for speed: a 17-byte spec + <= 15 padding bytes; the spec's work is clamped to 8 "
       "units a padding byte (LargeWork <= 121 units: one Value, or 8 text bytes, each), so output "
       "<= 12 B x 121 + 64 < 2 KiB; bound output + 64 KiB; the 500000-element, 16 MiB cases stay "
       "in the properties and serdiff check"});
  registry.SetFuzzLimits(
      "cql_typed_encode",
      {26, 2948, 25,
       "capped for speed: a 17-byte spec + <= 9 padding bytes; count clamped to 8 a padding byte "
       "(<= 72 elements), so output <= 72 x 40 B (map<uuid, uuid>) + 4 = 2884 B; bound output + "
       "64; counts up to 70000 stay in the properties and serdiff check"});
  registry.SetFuzzLimits("cql_*", {8192, 1114112, 25,
                                   "DecodePeakBound <= 64 x input (512 KiB; 26 x in v1/v2) + 3 x "
                                   "output (<= 384 KiB) + 64 KiB, rounded up to 1088 KiB"});
  // The custom mutator lies about [int] and [short] lengths and counts, big-endian (v4 spec 3).
  registry.SetDefaultLengthFields({{4, true}, {2, true}});
  auto encode_target = [](std::string name, bool nested, std::string what) {
    harness::TargetDef<EncodeInput> def;
    def.name = std::move(name);
    def.description = std::move(what);
    def.domain = EncodeDomain(nested);
    def.optimized = {"optimized", OptEncode};
    def.others.push_back({"reference", RefEncode});
    def.others.push_back({"optimized_buffer", harness::Role::kOptimizedTier, OptEncodeIntoBuffer});
    // The value tree's other block loops, where lists are drawn (the scalar target has none).
    for (const opt::TypedTier tier : kForcedValueTreeTiers) {
      if (!nested) break;
      def.others.push_back(
          {"value_tree_" + std::string(opt::TypedTierName(tier)), harness::Role::kOptimizedTier,
           [tier](const EncodeInput& in) { return OptEncodeValueTreeTier(in, tier); }});
      def.others.back().decline_edges = [tier] { return ValueTreeTierDeclineEdges(tier); };
    }
    def.checks.push_back({"size-prediction", CheckSize});
    def.checks.push_back({"round-trip", CheckRoundTrip});
    def.heap_bound = harness::HeapBound<EncodeInput>::Linear(1, kEncodeSlack);
    def.interchange = CqlSerializeInterchange<EncodeInput>(
        [](const EncodeInput& in) -> const EncodeInput& { return in; });
    // The peers that join (oracles/*/worker.json): their known differences (docs/peers.md).
    AddPeerDivergences(def, [](const EncodeInput& in) -> const EncodeInput& { return in; },
                       {"python_cassandra", "node_cassandra", "gocql"});
    return def;
  };
  registry.Add(encode_target(
      "cql_encode_scalar", false,
      "every native CQL type (edge values, null/unset/empty, wrong shapes) as payload or "
      "[value], v1..v5: optimized serdiff::cql::Serialize vs the reference's bytes"));
  registry.Add(encode_target(
      "cql_encode_nested", true,
      "list/set/map/tuple/UDT nested up to 5 levels, 0..100% nulls, omitted UDT fields, v1..v5: "
      "optimized serdiff::cql::Serialize vs the reference's bytes"));

  {
    harness::TargetDef<LargeInput> def;
    def.name = "cql_encode_large";
    def.description =
        "collections of up to 500,000 elements and large text fields: optimized vs reference "
        "bytes, optimized peak heap <= output + 64 KiB (no per-element fragments)";
    def.domain = LargeDomain();
    // `serdiff review`'s size ladder: list<int> (shape 0), v4, its nulls spread by the seed.
    def.ladder = {[](uint32_t count, int null_percent) {
                    LargeSpec spec;
                    spec.shape = 0;
                    spec.count = count;
                    spec.null_pct = static_cast<uint8_t>(null_percent);
                    spec.seed = 42;
                    spec.version = 4;
                    return LargeInput{spec, BuildLarge(spec)};
                  },
                  kLargeMaxCount, true};
    def.optimized = {"optimized", [](const LargeInput& in) { return OptEncode(in.input); }};
    def.others.push_back({"reference", [](const LargeInput& in) { return RefEncode(in.input); }});
    def.checks.push_back({"size-prediction", [](const LargeInput& in, const std::string& out) {
                            return CheckSize(in.input, out);
                          }});
    def.heap_bound = harness::HeapBound<LargeInput>::Linear(1, kEncodeSlack);
    def.interchange = CqlSerializeInterchange<LargeInput>(
        [](const LargeInput& in) -> const EncodeInput& { return in.input; });
    AddPeerDivergences(def, [](const LargeInput& in) -> const EncodeInput& { return in.input; },
                       {"python_cassandra"});
    def.show_output = [](const std::string& out) {
      return absl::StrCat(out.size(), " bytes, starting ", harness::Hex(out.substr(0, 32)));
    };
    registry.Add(std::move(def));
  }

  AddDecodeTarget<DecodeInput>(
      registry, "cql_decode",
      "a CQL type plus arbitrary bytes (payload or [value], v1..v5, options): optimized vs "
      "reference decoder; output = canonical text of the decoded value",
      DecodeDomain(), [](const DecodeInput& in) {
        return DecodeCall{in.type, in.bytes, in.version, in.framed, in.options};
      });
  AddDecodeTarget<MutatedInput>(
      registry, "cql_decode_mutated",
      "a valid encoding with one edit (truncate, flip, insert, overwrite a byte, a bit, a "
      "length or count, append, drop): optimized vs reference decoder; output = canonical text",
      MutatedDomain(), [](const MutatedInput& in) {
        const DecodeSetup& s = in.base;
        return DecodeCall{s.base.type, in.bytes, s.base.version, s.base.framed, s.options};
      });

  {
    harness::TargetDef<EncodeInput> def;
    def.name = "cql_round_trip";
    def.description =
        "decode(encode(v)) with the optimized codec vs with the reference codec (canonical "
        "text), checked to give back v (zero length as empty; a short tuple or UDT keeps only its "
        "items)";
    def.domain = EncodeDomain(true);
    def.optimized = {
        "optimized", [](const EncodeInput& in) -> Output {
          Output enc = OptEncode(in);
          if (!enc.ok()) return enc.status();
          return AsText(in.type, OptDecode(in.type, *enc, in.version, in.framed, DecodeOptions{}));
        }};
    def.others.push_back(
        {"reference", [](const EncodeInput& in) -> Output {
           Output enc = RefEncode(in);
           if (!enc.ok()) return enc.status();
           return AsText(in.type, RefDecode(in.type, *enc, in.version, in.framed, DecodeOptions{}));
         }});
    def.checks.push_back(
        {"recovers-input", [](const EncodeInput& in, const std::string& out) {
           const std::string want = opt::FormatValue(in.type, ExpectedDecode(in.type, in.value));
           if (out == want) return absl::OkStatus();
           return absl::InternalError(absl::StrCat("round trip gave ", out, ", expected ", want));
         }});
    def.heap_bound = harness::HeapBound<EncodeInput>::Custom(
        "encoded + DecodePeakBound(encoded) + 3 x output + 64 KiB",
        [](const EncodeInput& in, const harness::Output& out) {
          absl::StatusOr<size_t> n = in.framed
                                         ? opt::SerializedValueSize(in.type, in.value, in.version)
                                         : opt::SerializedSize(in.type, in.value, in.version);
          const size_t encoded = n.ok() ? *n : 0;
          return static_cast<int64_t>(encoded) +
                 DecodeHeapBound(encoded, in.version, out.ok() ? out->size() : 0);
        });
    def.show_output = [](const std::string& out) { return out; };
    registry.Add(std::move(def));
  }

  {
    harness::TargetDef<EncodeInput> def;
    def.name = "cql_size";
    def.description =
        "size prediction: SerializedSize / SerializedValueSize vs the length of the reference's "
        "output, checked against the optimized writer (predicted == written)";
    def.domain = EncodeDomain(true);
    def.optimized = {"optimized", [](const EncodeInput& in) -> Output {
                       absl::StatusOr<size_t> n =
                           in.framed ? opt::SerializedValueSize(in.type, in.value, in.version)
                                     : opt::SerializedSize(in.type, in.value, in.version);
                       if (!n.ok()) return n.status();
                       return absl::StrCat(*n);
                     }};
    def.others.push_back({"reference", [](const EncodeInput& in) -> Output {
                            Output enc = RefEncode(in);
                            if (!enc.ok()) return enc.status();
                            return absl::StrCat(enc->size());
                          }});
    def.checks.push_back(
        {"predicted-equals-written", [](const EncodeInput& in, const std::string& out) {
           Output enc = OptEncode(in);
           if (!enc.ok()) return enc.status();
           if (absl::StrCat(enc->size()) == out) return absl::OkStatus();
           return absl::InternalError(
               absl::StrCat("predicted ", out, " bytes, the writer wrote ", enc->size()));
         }});
    def.heap_bound = harness::HeapBound<EncodeInput>::Fixed(4096);
    def.show_output = [](const std::string& out) { return absl::StrCat(out, " bytes"); };
    registry.Add(std::move(def));
  }

  registry.Add(TypedEncodeTarget());
  registry.Add(TypedDecodeTarget());
}

SERDIFF_REGISTER_FAMILY("cql", RegisterTargets);

}  // namespace serdiff::targets::cql
