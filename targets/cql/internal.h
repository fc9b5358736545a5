// CQL family, private to targets/cql/: the limits of generated and fuzz-decoded inputs,
// the edge-value tables (edges.cc), the two-way corpus-file visitor (visitor.cc), the
// generator building blocks (gen.cc) and the codec runners (cql.cc) that the other
// target files share. Tests, properties and benchmarks use targets/cql/domain.h instead.
//
// Files of the family:
//   edges.cc    edge values per kind (integers, floats, text, UUIDs, varints, ...)
//   visitor.cc  the corpus-file form: one visitor, run as reader (fuzz bytes -> input) and
//                   as writer (input -> fuzz bytes), so the two directions cannot drift apart
//   gen.cc      RapidCheck generators and the large-collection builder
//   domains.cc  the harness domains of the tree-codec targets and their printers
//   typed.cc    the typed fast path targets (cql_typed_encode, cql_typed_decode)
//   wire_edges.cc  the wire-edge table (harness/wire_edges.h)
//   cql.cc          the codec runners, checks and the registration of every cql_* target
//   peer_divergences.cc  the accepted divergences of the CQL peers (python_cassandra,
//                        node_cassandra) and the driver models their predicates check
#pragma once

#include <algorithm>
#include <cstdint>
#include <initializer_list>
#include <string>
#include <string_view>
#include <type_traits>
#include <utility>
#include <vector>

#include <rapidcheck.h>

#include "harness/fuzz_input.h"
#include "harness/target.h"
#include "harness/two_way.h"
#include "serdiff/cql/codec.h"
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

// ---- edge values (edges.cc) -----------------------------------------------------------------

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

// ---- corpus-file form (visitor.cc) --------------------------------------------------------

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

// The visitors, instantiated for FdpIn and FdpOut (visitor.cc). With FdpIn they fill the
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

// ---- generators (gen.cc) --------------------------------------------------------------------

// A uniform draw in [lo, hi), independent of the generation size (rc::gen::inRange scales its
// range with the size; choices between kinds of inputs must not).
template <typename T>
T Roll(T lo, T hi) {
  return *rc::gen::resize(rc::kNominalSize, rc::gen::inRange<T>(lo, hi));
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

// ---- printers (domains.cc) ----------------------------------------------------------------

// " max_depth=N" and the names of the strict flags that are on.
std::string ShowOptions(const DecodeOptions& o);

// ---- running the codecs (cql.cc) --------------------------------------------------------------

// The optimized / reference encoder on `in` (Serialize or SerializeValue by in.framed).
Output OptEncode(const EncodeInput& in);
Output RefEncode(const EncodeInput& in);

// ---- registration of the typed targets (typed.cc) -----------------------------------------

void RegisterTypedTargets(harness::Registry& registry);

// ---- interchange.cc: the "cql.serialize" interchange (docs/workers.md) -----------------------
// The CQL JSON value of `v` as type `t`, or Declined when the JSON form cannot hold it exactly.
absl::StatusOr<std::string> CqlValueJson(const Type& t, const Value& v);
// {"type": ..., "value": ..., "version": ...} for an encode input.
absl::StatusOr<std::string> CqlSerializeRequest(const EncodeInput& in);
// An outside payload as the target's output: a framed input's answer gets its [bytes] length.
absl::StatusOr<std::string> CqlSerializeOutput(const EncodeInput& in,
                                               const harness::ExternalAnswer& answer);
// The list<int> module form (SERDIFF_FORM_INT32_LIST); Declined for any other input.
absl::StatusOr<harness::Int32List> CqlInt32List(const EncodeInput& in);
// The interchange of a target whose input holds an EncodeInput (`get` finds it).
template <typename T, typename Get>
harness::Interchange<T> CqlSerializeInterchange(Get get) {
  harness::Interchange<T> ic;
  ic.op = "cql.serialize";
  ic.input_json = [get](const T& v) { return CqlSerializeRequest(get(v)); };
  ic.output = [get](const T& v, const harness::ExternalAnswer& a) {
    return CqlSerializeOutput(get(v), a);
  };
  ic.as_int32_list = [get](const T& v) { return CqlInt32List(get(v)); };
  return ic;
}

// ---- peer_divergences.cc: what the outside CQL implementations are known to do otherwise ----
// (docs/peers.md, "## CQL"). One known difference of python_cassandra or node_cassandra: the
// predicate sees the encode input and the peer's answer (framed as the target's output).
struct PeerDivergence {
  std::string impl;
  std::string reason;
  bool (*applies)(const EncodeInput& in, const Output& other);
};
const std::vector<PeerDivergence>& PeerDivergences();
// Adds to `def` the divergences of the peers named in `impls` (the workers whose manifests
// name the target); `get` finds the EncodeInput in the target's input.
template <typename T, typename Get>
void AddPeerDivergences(harness::TargetDef<T>& def, Get get,
                        std::initializer_list<std::string_view> impls) {
  for (const PeerDivergence& d : PeerDivergences()) {
    if (std::find(impls.begin(), impls.end(), d.impl) == impls.end()) continue;
    def.divergences.push_back(
        {d.impl, d.reason, [get, f = d.applies](const T& v, const Output&, const Output& other) {
           return f(get(v), other);
         }});
  }
}

}  // namespace serdiff::targets::cql
