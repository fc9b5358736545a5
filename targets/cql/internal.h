// CQL family, private to targets/cql/: the limits of generated and fuzz-decoded inputs,
// the edge-value tables (domain_edges.cc), the two-way corpus-file visitor (domain_visitor.cc), the
// generator building blocks (domain_gen.cc) and the codec runners (cql.cc) that the other
// target files share. Tests, properties and benchmarks use targets/cql/domain.h instead.
//
// Files of the family:
//   domain_edges.cc    edge values per kind (integers, floats, text, UUIDs, varints, ...)
//   domain_visitor.cc  the corpus-file form: one visitor, run as reader (fuzz bytes -> input)
//                      and as writer (input -> fuzz bytes), so the two directions cannot drift
//   domain_gen.cc      RapidCheck generators and the large-collection builder
//   domain.cc   the harness domains of the tree-codec targets and their printers
//   parse.cc    the parsers of the printed inputs (domain.h)
//   cql_typed.cc  the typed fast path targets (cql_typed_encode, cql_typed_decode)
//   wire_edges.cc  the wire-edge table (harness/wire_edges.h)
//   cql.cc          the codec runners, checks and the registration of every cql_* target
//   divergences.cc  what the divergence files share (below); each peer's divergences and
//                   driver model: divergences_python_cassandra.cc, divergences_node_cassandra.cc
#pragma once

#include <algorithm>
#include <cstdint>
#include <functional>
#include <initializer_list>
#include <optional>
#include <string>
#include <string_view>
#include <type_traits>
#include <utility>
#include <vector>

#include <rapidcheck.h>

#include "harness/fuzz_input.h"
#include "harness/target.h"
#include "harness/two_way.h"
#include "harness/uniform.h"
#include "serdiff/cql/codec.h"
#include "targets/cql/divergences.h"
#include "targets/cql/domain.h"

namespace serdiff::targets::cql {

namespace opt = serdiff::cql;
using harness::Output;
using opt::Decimal;
using opt::Duration;
using opt::Uuid;
using Shape = Value::Shape;

// Calls f(std::type_identity<T>{}) with the typed path's element type of kind k.
template <typename F>
inline auto WithElementType(Kind k, F&& f) {
  switch (k) {
    case Kind::kBoolean:
      return f(std::type_identity<bool>{});
    case Kind::kTinyint:
      return f(std::type_identity<int8_t>{});
    case Kind::kSmallint:
      return f(std::type_identity<int16_t>{});
    case Kind::kInt:
    case Kind::kDate:
      return f(std::type_identity<int32_t>{});
    case Kind::kFloat:
      return f(std::type_identity<float>{});
    case Kind::kDouble:
      return f(std::type_identity<double>{});
    case Kind::kUuid:
    case Kind::kTimeuuid:
      return f(std::type_identity<serdiff::cql::Uuid>{});
    default:
      return f(std::type_identity<int64_t>{});
  }
}

// The family's wire-edge table (wire_edges.cc; harness/wire_edges.h), registered with its
// targets.
harness::WireEdgeTable WireEdges();

// Limits of the generated and fuzz-decoded inputs (the writer's preconditions).
inline constexpr int kNodeBudget = 1024;     // values per input (every item counts)
inline constexpr uint32_t kMaxItems = 24;    // elements per collection
inline constexpr size_t kMaxString = 300;    // bytes per text/ascii/blob
inline constexpr size_t kMaxMagnitude = 40;  // varint magnitude bytes
inline constexpr uint8_t kMaxFields = 6;     // tuple components / UDT fields
inline constexpr int kMaxTypeDepth = 5;
inline constexpr uint32_t kGenericMaxItems = 8;
inline constexpr int64_t kMaxTimeNanos = 86'399'999'999'999;
inline constexpr int64_t kDateEpoch = int64_t{1} << 31;

// ---- edge values (domain_edges.cc)
// -----------------------------------------------------------------

// Edge values of an integer kind (tinyint .. time), including a few just outside its range.
const std::vector<int64_t>& IntEdges(Kind k);
// Valid range of an integer kind in the value model.
std::pair<int64_t, int64_t> IntRange(Kind k);
// True for the kinds whose value model is a plain int64 (tinyint .. bigint, counter,
// timestamp, date, time).
bool IsIntKind(Kind k);
// Bit patterns of float / double edge values (zeros, ones, infinities, NaNs, denormals, ...).
const std::vector<uint32_t>& FloatEdges();
const std::vector<uint64_t>& DoubleEdges();
// UTF-8 of a code point (any value up to 0x1FFFFF, surrogates included).
std::string Cp(uint32_t cp);
// Valid boundary code points and invalid sequences, each at most kMaxString bytes.
const std::vector<std::string>& TextEdges();
const std::vector<Duration>& DurationEdges();
const std::vector<Uuid>& UuidEdges();
// 4- and 16-byte addresses, and lengths an inet cannot have (3, 5, 17).
const std::vector<std::string>& InetEdges();
// EdgeVarints(), computed once.
const std::vector<BigInt>& VarintEdgeTable();
// SplitMix64: the deterministic stream the builders (large, typed) draw from a seed.
uint64_t SplitMix(uint64_t* state);

// ---- corpus-file form (domain_visitor.cc)
// --------------------------------------------------------

// The two directions of the shared two-way visitor (harness/two_way.h).
using FdpIn = harness::FuzzReader;
using FdpOut = harness::FuzzWriter;

// Gives a UDT type the name "u" and the field names "f0", "f1", ...: the corpus form and the
// generators carry no names, and ValidateType wants one unique, non-empty name per field.
void NameFields(Type* t);
// The node budget: every value visited or generated costs one, and collections never take
// more elements than remain (so that an input stays within kNodeBudget values).
void Decrement(int& budget);
uint32_t ListLimit(int budget);
uint32_t MapLimit(int budget);

// The visitors, instantiated for FdpIn and FdpOut (domain_visitor.cc). With FdpIn they fill the
// argument from the fuzz bytes; with FdpOut they write the bytes that FdpIn reads back as the
// same value (the argument is left unchanged).
template <typename IO>
void VisitType(IO& io, Type& t, int depth, int max_depth);
template <typename IO>
void VisitEncodeInput(IO& io, EncodeInput& in, int max_depth);
template <typename IO>
void VisitOptions(IO& io, DecodeOptions& o);

extern template void VisitType<FdpIn>(FdpIn&, Type&, int, int);
extern template void VisitType<FdpOut>(FdpOut&, Type&, int, int);
extern template void VisitEncodeInput<FdpIn>(FdpIn&, EncodeInput&, int);
extern template void VisitEncodeInput<FdpOut>(FdpOut&, EncodeInput&, int);
extern template void VisitOptions<FdpIn>(FdpIn&, DecodeOptions&);
extern template void VisitOptions<FdpOut>(FdpOut&, DecodeOptions&);

// ---- generators (domain_gen.cc)
// --------------------------------------------------------------------

// A uniform draw in [lo, hi), independent of the generation size (harness/uniform.h).
template <typename T>
T Roll(T lo, T hi) {
  return *harness::UniformIn<T>(lo, hi);
}

template <typename T>
T Pick(const std::vector<T>& v) {
  return v[Roll<size_t>(0, v.size())];
}

// A null percentage: 0, 33, 90 and 100 often, anything in 0..100 otherwise.
rc::Gen<int> Percent();
// A type (composite with a probability falling with the depth); called inside a generator.
Type GenTypeNow(int depth, int max_depth);
// A value for `t`: nulls at null_pct % below the top, now and then empty, unset or of the
// wrong shape; `top` uses the top-level mix. Called inside a generator.
Value GenValueNow(const Type& t, int null_pct, int& budget, bool top);
// A protocol version, v4 most often.
int GenVersion();
// Decode options: the defaults half of the time, otherwise each strict flag at 1/2.
DecodeOptions GenOptionsNow();

// ---- printers (domain.cc) ----------------------------------------------------------------

// " max_depth=N" and the names of the strict flags that are on.
std::string ShowOptions(const DecodeOptions& o);

// ---- running the codecs (cql.cc) --------------------------------------------------------------

// The optimized / reference encoder on `in` (Serialize or SerializeValue by in.framed).
Output OptEncode(const EncodeInput& in);
Output RefEncode(const EncodeInput& in);

// The value tree's block loops (serdiff/cql/value_tiers.h), forced, so that every list or set
// of int or date in protocol v3+, as a payload or a [value], is written by each loop this
// machine has and compared with the others: `optimized` runs Serialize's kAuto (avx512 where the
// CPU has it, else portable); "value_tree_portable" runs the portable loop where kAuto is avx512,
// and "value_tree_avx512_emulated" the avx512 kernel over SIMDe where the CPU lacks AVX-512. Either
// declines every other input (the tier changes nothing there) and, on a machine where the
// other runs instead, every input.
inline constexpr opt::TypedTier kForcedValueTreeTiers[] = {opt::TypedTier::kPortable,
                                                           opt::TypedTier::kAvx512Emulated};
bool ValueTreeTierRuns(opt::TypedTier tier);
Output OptEncodeValueTreeTier(const EncodeInput& in, opt::TypedTier tier);
// The edges of OptEncodeValueTreeTier's declines (harness::DeclineEdge).
std::vector<harness::DeclineEdge<EncodeInput>> ValueTreeTierDeclineEdges(opt::TypedTier tier);

// ---- the typed fast path targets (cql_typed.cc) ---------------------------------------------

harness::TargetDef<TypedInput> TypedEncodeTarget();        // cql_typed_encode
harness::TargetDef<TypedDecodeInput> TypedDecodeTarget();  // cql_typed_decode

// ---- what the peer divergence files share (divergences.cc) -----------------------------------

// What a model says a driver answers.
struct Answer {
  enum class Is {
    kBytes,       // accepted: `bytes` is the payload
    kNull,        // the driver's encoder returned null (no payload; a null component)
    kRejected,    // the driver throws; its message contains `error`
    kUnmodelled,  // outside what the model knows (the worker declines it, or serdiff rejects
                  // a native value the driver may take): no divergence applies
  };
  Is is = Is::kUnmodelled;
  std::string bytes;
  std::string_view error;

  static Answer Bytes(std::string b) { return {Is::kBytes, std::move(b), {}}; }
  static Answer Null() { return {Is::kNull, {}, {}}; }
  static Answer Rejected(std::string_view e) { return {Is::kRejected, {}, e}; }
  static Answer Unmodelled() { return {}; }
};

// Appends n as 4 / 2 bytes big-endian.
void Put32(uint32_t n, std::string* out);
void Put16(uint32_t n, std::string* out);
// serdiff's payload of a native value, or nullopt where serdiff rejects it.
std::optional<std::string> SerdiffNative(Kind k, const Value& v, int version);
// 8 bytes big-endian of any int64: a time as the drivers write it, with no range check.
std::string RawInt64(int64_t x);
// The 16 bytes of any UUID: a timeuuid as the drivers write it, with no version check.
std::string RawUuid(const Uuid& u);
// Three zigzag vints (v5 spec 6.8) of any signs: a duration as the drivers write it.
std::string RawDuration(const Duration& d);
// Neither all >= 0 nor all <= 0.
bool MixedSigns(const Duration& d);
// True when `other` is the model's answer (a [value] input: the payload behind its [int]
// length, as targets/cql/interchange.cc frames a peer's answer).
bool Matches(const Answer& a, const EncodeInput& in, const Output& other);

// Where a value sits in its parent.
// kComponent: a tuple component; kField: a UDT field.
enum class Where { kTop, kElement, kMapKey, kMapValue, kComponent, kField };
using ValuePredicate = bool (*)(const Type& t, const Value& v, Where w);
// True when pred(type, value, where) holds for the input's value or any value inside it (as far
// as the shapes are their types').
bool Shows(const EncodeInput& in, ValuePredicate pred);
// ---- the edges of the peer divergences (divergences.cc) ----
// An encode input of `type` (serdiff's type text; a malformed one is a programming error and
// aborts) holding `value`, unframed.
EncodeInput EdgeInput(std::string_view type, Value value, int version = 4);
// A model's answer as the target's output for `in` (the payload, behind its [int] length when
// framed; a rejection with the driver's message; Declined outside the model).
Output AnswerOutput(const Answer& a, const EncodeInput& in);
// Sets the edges of the divergence of `d` whose reason starts with `name`; aborts if none does.
void SetEdges(std::vector<PeerDivergence>& d, std::string_view name,
              std::function<std::vector<harness::DivergenceEdge<EncodeInput>>()> edges);
// A timeuuid with version nibble `version` (the rest zero but the variant).
Uuid UuidOfVersion(int version);
// A driver model's answer as the target's output (PythonCassandraModel, NodeCassandraModel,
// GocqlModelAnswer).
using DriverModel = Output (*)(const EncodeInput&);
// An edge: `in`, with serdiff's answer and `model`'s.
harness::DivergenceEdge<EncodeInput> ModelEdge(std::string text, EncodeInput in, DriverModel model);
// The edges the drivers' shared departures have, with `model`'s answers there:
//   time-range-unchecked: time 0 and 86399999999999 ns, the first and last valid;
//   duration-sign-unchecked: duration(1, 0, 3) and duration(-1, 0, -3);
//   timeuuid-version-unchecked: a version 1 timeuuid;
//   short-lengths-nested: v3 list<list<int>> [[1]] and v2 list<int> [1].
std::vector<harness::DivergenceEdge<EncodeInput>> TimeRangeEdges(DriverModel model);
std::vector<harness::DivergenceEdge<EncodeInput>> DurationSignEdges(DriverModel model);
std::vector<harness::DivergenceEdge<EncodeInput>> TimeuuidVersionEdges(DriverModel model);
std::vector<harness::DivergenceEdge<EncodeInput>> ShortLengthsNestedEdges(DriverModel model);

// t is kind k and v has that kind's shape.
bool Holds(const Value& v, Kind k, const Type& t);
// What both drivers are known to write otherwise.
bool NullElement(const Type&, const Value& v, Where w);
bool TimeOutOfRange(const Type& t, const Value& v, Where);
bool MixedDuration(const Type& t, const Value& v, Where);
bool TimeuuidNotV1(const Type& t, const Value& v, Where);
// A collection (list, set, map) inside another value (collection, tuple or UDT).
bool NestedCollection(const Type& t, const Value& v, Where w);
// An ascii value holding a byte above 127.
bool AsciiAbove127(const Type& t, const Value& v, Where);

}  // namespace serdiff::targets::cql
