// CQL family: the inputs of the cql_* targets, their generators (RapidCheck) and corpus-file
// forms (FuzzedDataProvider), and helpers shared with tests/cql_test.cc, props/cql_test.cc and
// bench/cql_benchmark.cc. Definitions live in targets/cql/ (which file holds what: see
// targets/cql/internal.h).
#pragma once

#include <cstdint>
#include <memory>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include <rapidcheck.h>

#include "absl/status/statusor.h"
#include "harness/mutated.h"
#include "harness/target.h"
#include "harness/text_parse.h"
#include "serdiff/cql/value.h"

namespace serdiff::targets::cql {

using serdiff::cql::BigInt;
using serdiff::cql::DecodeOptions;
using serdiff::cql::Kind;
using serdiff::cql::Type;
using serdiff::cql::Value;

// A value to encode: as a payload (framed = false) or as a [value] (framed = true).
struct EncodeInput {
  Type type;
  Value value;
  int version = 4;
  bool framed = false;
  friend bool operator==(const EncodeInput&, const EncodeInput&) = default;
};

// Bytes to decode as `type`.
struct DecodeInput {
  Type type;
  int version = 4;
  bool framed = false;
  DecodeOptions options;
  std::string bytes;
  friend bool operator==(const DecodeInput&, const DecodeInput&) = default;
};

// What cql_decode_mutated decodes with: the value whose reference encoding is edited
// (harness::MutatedOf, harness/mutated.h) and the decoder's options. Printed as
// "v4 payload list<int> = [1]\n  options max_depth=32 strict_utf8".
struct DecodeSetup {
  EncodeInput base;
  DecodeOptions options;
  friend bool operator==(const DecodeSetup&, const DecodeSetup&) = default;
};
// A valid encoding (the reference encoder's output for `base.base`; "" when it rejects the
// value) with one harness::Edit applied: `bytes`.
using MutatedInput = harness::Mutated<DecodeSetup>;

// A large collection for the memory contract, built deterministically from a small spec.
struct LargeSpec {
  uint8_t shape = 0;      // see LargeShapeName
  uint32_t count = 0;     // elements (0..500,000)
  uint8_t null_pct = 0;   // share of null elements, 0..100
  uint32_t text_len = 0;  // bytes per text/blob element (capped so the value stays <= ~16 MiB)
  uint64_t seed = 0;
  uint8_t version = 4;  // 3..5
  friend bool operator==(const LargeSpec&, const LargeSpec&) = default;
};
inline constexpr uint8_t kLargeShapes = 9;
inline constexpr uint32_t kLargeMaxCount = 500'000;
inline constexpr uint32_t kLargeMaxTextLen = 200'000;
std::string LargeShapeName(uint8_t shape);
EncodeInput BuildLarge(const LargeSpec& spec);

// The work of building and encoding BuildLarge(spec), in units: one per Value it builds
// (elements, map entries' keys and values, UDT fields, inner-list items; counted at the
// shape's largest) plus one per kLargeTextBytesPerUnit bytes of text and blob it builds.
inline constexpr uint64_t kLargeTextBytesPerUnit = 8;
uint64_t LargeWork(const LargeSpec& spec);

// The corpus form bounds the work by the input's length, so that a fuzz target's max_len
// bounds it (docs/fuzzing.md, "Limits"): reading a spec, a spec whose LargeWork exceeds
// kLargeUnitsPerByte x the bytes left after its fields is clamped (count, then text_len) to at
// most that many units + 1; the writer pads the input with LargePadBytes(spec) zero bytes, so
// that a written spec is read back unchanged.
inline constexpr uint64_t kLargeUnitsPerByte = 8;
void ClampLargeSpec(LargeSpec* spec, size_t pad_bytes);
size_t LargePadBytes(const LargeSpec& spec);
struct LargeInput {
  LargeSpec spec;
  EncodeInput input;  // BuildLarge(spec)
  friend bool operator==(const LargeInput& a, const LargeInput& b) { return a.spec == b.spec; }
};

// ---- typed fast path (serdiff/cql/typed.h) ----------------------------------------------------

// The 13 element kinds of the typed path, in the order TypedSpec indexes them.
inline constexpr Kind kTypedKinds[] = {
    Kind::kBoolean, Kind::kTinyint, Kind::kSmallint,  Kind::kInt,  Kind::kDate,
    Kind::kBigint,  Kind::kCounter, Kind::kTimestamp, Kind::kTime, Kind::kFloat,
    Kind::kDouble,  Kind::kUuid,    Kind::kTimeuuid};
inline constexpr uint8_t kTypedKindCount = 13;
inline constexpr uint32_t kTypedMaxCount = 70'000;
// The corpus form bounds the work by the input's length, as for LargeSpec: reading a spec, its
// count is clamped to kTypedCountPerByte x the bytes left after its fields; the writer pads
// the input with ceil(count / kTypedCountPerByte) zero bytes (docs/fuzzing.md, "Limits").
inline constexpr uint32_t kTypedCountPerByte = 8;

// A typed column, or a map's two, built deterministically from a small spec.
struct TypedSpec {
  uint8_t container = 0;  // 0 list, 1 set, 2 map
  uint8_t key = 3;        // index into kTypedKinds (the element kind of a list/set)
  uint8_t value = 3;      // maps only
  uint32_t count = 0;     // 0..kTypedMaxCount
  uint8_t null_pct = 0;   // 0..100 (100: every element null)
  bool bad = false;       // one element invalid for its kind (time -1 / timeuuid version 4)
  uint64_t seed = 0;
  uint8_t version = 4;  // 1..5
  friend bool operator==(const TypedSpec&, const TypedSpec&) = default;
};

// One column's storage, one vector per element type (only the kind's own is used).
struct AnyColumn {
  Kind kind = Kind::kInt;
  size_t n = 0;
  std::shared_ptr<bool[]> b;
  std::vector<int8_t> i8;
  std::vector<int16_t> i16;
  std::vector<int32_t> i32;
  std::vector<int64_t> i64;
  std::vector<float> f32;
  std::vector<double> f64;
  std::vector<serdiff::cql::Uuid> uuid;
  std::vector<uint8_t> nulls;  // empty when no element is null
};

struct TypedBuilt {
  AnyColumn keys;    // list/set elements, or map keys
  AnyColumn values;  // map values
  EncodeInput tree;  // the same collection as a Value tree
};

struct TypedInput {
  TypedSpec spec;
  std::shared_ptr<const TypedBuilt> built;  // BuildTyped(spec)
  friend bool operator==(const TypedInput& a, const TypedInput& b) { return a.spec == b.spec; }
};
TypedInput BuildTyped(const TypedSpec& spec);
std::string ShowTypedSpec(const TypedSpec& spec);
// The typed encoder's output for `in` (dispatching on the element types).
absl::StatusOr<std::string> TypedEncode(const TypedInput& in);

// Bytes to decode with the typed path as list/set/map of fixed-width kinds.
struct TypedDecodeInput {
  uint8_t container = 0;
  uint8_t key = 3;
  uint8_t value = 3;
  int version = 4;
  DecodeOptions options;
  std::string bytes;
  friend bool operator==(const TypedDecodeInput&, const TypedDecodeInput&) = default;
};
Type TypedType(uint8_t container, uint8_t key, uint8_t value);

// The two sides of cql_typed_decode: the typed decoder's and the Value-tree decoder's
// canonical dump of the decoded elements, or the error (the Value-tree side is Declined
// where it reads an Empty payload or element, which has no typed form).
absl::StatusOr<std::string> TypedDecodeOutput(const TypedDecodeInput& in);
absl::StatusOr<std::string> TreeDecodeOutput(const TypedDecodeInput& in);

harness::Domain<TypedInput> TypedDomain();
harness::Domain<TypedDecodeInput> TypedDecodeDomain();

// What decoding the encoding of a valid `v` gives back: zero-length payloads read as Empty
// (a UDT value with no items, an empty text); everything else is unchanged (a UDT or tuple with
// fewer items than its type keeps exactly those items).
Value ExpectedDecode(const Type& t, const Value& v);

// `v` (a decoded value of type `t`) as Cassandra and the drivers read it: every tuple or UDT
// value that stops before its type's last item gets Null for each missing trailing item, at every
// depth (v4 spec section 7; the decoders keep only the items present). For comparisons with a
// driver's decoded values.
Value ReadAsCassandra(const Type& t, const Value& v);

// Bound (bytes) on the optimized decoder's peak heap for `input_bytes` of input in protocol
// `version`, whatever the type and whether it accepts or rejects. Every item costs one Value
// (sizeof(Value) = 48 bytes) plus a copy of its own bytes and needs at least its length prefix:
// 4 bytes from v3 on, so 14 x input + 4 KiB; in v1/v2 the top-level collection's elements have
// 2-byte [short] prefixes (native_protocol_v3.spec section 10), so an empty element is 2 input
// bytes and the bound is 26 x input + 4 KiB. Each vector is reserved for exactly the items its
// loop starts. A tuple or UDT item keeps only the fields present (a missing trailing field costs
// nothing), so the bound does not grow with the widest tuple/UDT of the type. Nothing depends on
// a count or length field. (The reference decoder grows its vectors by doubling: up to 3 x 48 / 4
// = 36 bytes per input byte while one reallocates, 72 in v1/v2; not within this bound.)
int64_t DecodePeakBound(size_t input_bytes, int version);

// "v4 payload list<int> = [1, 2]".
std::string ShowEncodeInput(const EncodeInput& in);

// Generators. Nested: types up to 5 levels deep, collections with 0..100% nulls (a ratio
// drawn per value), empty collections, UDTs with omitted trailing fields, tuples with nulls,
// now and then null / unset / empty / a value of the wrong shape anywhere; scalar: native
// types only. Scalars lean on edge values (harness::EdgeInt64, EdgeVarints, timestamp edges, ...).
rc::Gen<Type> GenType(int max_depth);
rc::Gen<EncodeInput> GenEncodeInput(bool nested);
rc::Gen<LargeSpec> GenLargeSpec();

// Edge values (bigint edges: harness::EdgeInt64, shared by every family).
// 0, ±1, ±2^k ± 1 for k = 0..300, and for every varint byte length L = 1..40 both ends of
// its range for both signs: 2^(8L-1) - 1, -2^(8L-1), 2^(8(L-1)-1), -2^(8(L-1)-1) - 1.
std::vector<BigInt> EdgeVarints();

// The registered domains (for tests that want to write corpus files).
harness::Domain<EncodeInput> EncodeDomain(bool nested);
harness::Domain<DecodeInput> DecodeDomain();
// The value and options of cql_decode_mutated (nested types), and that target's domain:
// harness::MutatedOf(DecodeSetupDomain(), the reference encoder).
harness::Domain<DecodeSetup> DecodeSetupDomain();
harness::Domain<MutatedInput> MutatedDomain();
harness::Domain<LargeInput> LargeDomain();

// ---- parsers of the printed inputs (parse.cc) ---------------------------------------------
// Domain::parse (harness/text_parse.h) of the nine
// cql_* targets. Each reads back exactly what the domain's printer writes (targets/cql/
// domain.cc, targets/cql/cql_typed.cc); the wiring (WithShownCheck) then requires that the
// value read prints as the very text given, so a text is accepted only in its printed form.
//
// Errors: InvalidArgument "at character N: ..." (N the byte offset in the whole text; errors
// of serdiff::cql::ParseType / ParseValue on a part of the text are moved to the offset of
// that part). A hex dump cut short by the printer ("... (N bytes)") fails with ElidedAt where
// the bytes are part of the input (cql_decode, cql_typed_decode); cql_decode_mutated derives
// its bytes from the other fields, so its dump is checked, not read.
//
// What the printed forms leave out:
//   - cql_typed_encode / cql_typed_decode: a list or set does not print the map-value kind
//     index (`value`), which the input carries but never uses for a list/set. The parser gives
//     it the default 3; the generators draw 3 for lists and sets, so parse(show(v)) == v holds.
//     A corpus file with another `value` for a list prints alike and parses to value 3 (its
//     bytes differ, its behaviour does not).
//   - Everything else is printed in full (types, options, values with every bit; wrong-shape
//     values print as <shape:...> and are read back too).
// "v4 payload list<int> = [1, null]" (ShowEncodeInput). `max_depth`: the deepest type the
// domain holds (0 for cql_encode_scalar: native types only); a deeper type fails at the type.
absl::StatusOr<EncodeInput> ParseEncodeInput(std::string_view text, int max_depth);
// "v4 payload varint max_depth=32 require_minimal_varint bytes(2)=80 00".
absl::StatusOr<DecodeInput> ParseDecodeInput(std::string_view text);
// The encode input, then "\n  options max_depth=32 strict_utf8" (ReadOptions' flags).
absl::StatusOr<DecodeSetup> ParseDecodeSetup(std::string_view text);
// "list<int> count=500000 nulls=0% text_len=0 seed=42 v4".
absl::StatusOr<LargeInput> ParseLargeInput(std::string_view text);
// "v4 list<int> count=1000 nulls=1% bad seed=7" (" bad" only when set).
absl::StatusOr<TypedInput> ParseTypedInput(std::string_view text);
// "v1 list<time> max_depth=60 strict_utf8 bytes(N)=...".
absl::StatusOr<TypedDecodeInput> ParseTypedDecodeInput(std::string_view text);

// A CQL value as FormatValue prints it for `t` (also wrong-shape parts, <shape:body>), read
// from the cursor; the cursor stops after the value. Spacing is the printer's.
absl::Status ParseValueText(harness::TextCursor& c, const Type& t, Value* out);

// d.parse = parse, then MatchesShown(text, d.show(value)): the text must be the value's
// printed form (the error is at the first character where it is not).
template <typename T, typename Fn>
void WithShownCheck(harness::Domain<T>& d, Fn parse) {
  d.parse = [show = d.show, parse = std::move(parse)](std::string_view text) -> absl::StatusOr<T> {
    absl::StatusOr<T> v = parse(text);
    if (!v.ok()) return v;
    if (absl::Status s = harness::MatchesShown(text, show(*v)); !s.ok()) return s;
    return v;
  };
}

}  // namespace serdiff::targets::cql
