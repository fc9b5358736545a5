// CQL family: what the accepted divergences of the peers python_cassandra
// (divergences_python_cassandra.cc) and node_cassandra (divergences_node_cassandra.cc) share
// (declared in targets/cql/internal.h): serdiff's own bytes of a native value, the raw forms the
// drivers write unchecked, the comparison of a model's answer with the peer's, what an input
// shows; and PeerDivergences, every peer's list (divergences.h).
//
// Each divergence is one known difference. Its predicate holds when the input shows that
// difference AND the peer's answer is exactly what a model of the driver answers. The model
// writes every native value with serdiff's own bytes (opt::Serialize of that value), except
// the few the driver is known to write otherwise, and the collections, tuples and UDTs by the
// driver's rules as its source reads (cassandra/cqltypes.py of 3.25; lib/encoder.js of
// 4.10.0). So a divergence never covers an answer that differs anywhere else: a peer that also
// wrote one other byte, or rejected for another reason, still fails the case. Where an input
// shows several known differences at once, the model applies them all and the first matching
// divergence below names the case.
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <functional>
#include <optional>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "absl/strings/match.h"
#include "absl/strings/str_cat.h"
#include "serdiff/cql/codec.h"
#include "serdiff/varint/varint.h"
#include "targets/cql/divergences.h"
#include "targets/cql/internal.h"

namespace serdiff::targets::cql {

void Put32(uint32_t n, std::string* out) {
  const char b[4] = {static_cast<char>(n >> 24), static_cast<char>(n >> 16),
                     static_cast<char>(n >> 8), static_cast<char>(n)};
  out->append(b, 4);
}
void Put16(uint32_t n, std::string* out) {
  const char b[2] = {static_cast<char>(n >> 8), static_cast<char>(n)};
  out->append(b, 2);
}

// ---- native values --------------------------------------------------------------------------

// serdiff's payload of a native value, or nullopt where serdiff rejects it.
std::optional<std::string> SerdiffNative(Kind k, const Value& v, int version) {
  absl::StatusOr<std::string> s = opt::Serialize(Type::Native(k), v, version);
  if (!s.ok()) return std::nullopt;
  return *std::move(s);
}

// 8 bytes big-endian of any int64: a time as the drivers write it, with no range check.
std::string RawInt64(int64_t x) {
  std::string out;
  Put32(static_cast<uint32_t>(static_cast<uint64_t>(x) >> 32), &out);
  Put32(static_cast<uint32_t>(x), &out);
  return out;
}

// The 16 bytes of any UUID: a timeuuid as the drivers write it, with no version check.
std::string RawUuid(const Uuid& u) {
  return std::string(reinterpret_cast<const char*>(u.data()), 16);
}

// Three zigzag vints (v5 spec 6.8) of any signs: a duration as the drivers write it.
std::string RawDuration(const Duration& d) {
  uint8_t buf[3 * varint::kMaxVIntBytes];
  uint8_t* p = buf;
  p = varint::WriteToArray(varint::Format::kVInt, varint::EncodeZigZag64(d.months), p);
  p = varint::WriteToArray(varint::Format::kVInt, varint::EncodeZigZag64(d.days), p);
  p = varint::WriteToArray(varint::Format::kVInt, varint::EncodeZigZag64(d.nanos), p);
  return std::string(reinterpret_cast<const char*>(buf), static_cast<size_t>(p - buf));
}

bool MixedSigns(const Duration& d) {
  const bool all_ge = d.months >= 0 && d.days >= 0 && d.nanos >= 0;
  const bool all_le = d.months <= 0 && d.days <= 0 && d.nanos <= 0;
  return !all_ge && !all_le;
}

// True when `other` is the model's answer (a [value] input: the payload behind its [int]
// length, as targets/cql/interchange.cc frames a peer's answer).
bool Matches(const Answer& a, const EncodeInput& in, const Output& other) {
  switch (a.is) {
    case Answer::Is::kBytes: {
      if (!other.ok()) return false;
      if (!in.framed) return *other == a.bytes;
      std::string framed;
      Put32(static_cast<uint32_t>(a.bytes.size()), &framed);
      return *other == framed + a.bytes;
    }
    case Answer::Is::kRejected:
      return !other.ok() && !harness::IsDeclined(other.status()) &&
             absl::StrContains(other.status().message(),
                               absl::string_view(a.error.data(), a.error.size()));
    default:
      return false;
  }
}

// ---- what an input shows ------------------------------------------------------------------------

namespace {

// True when pred(type, value, where) holds for `v` or for any value inside it (as far as the
// shapes are their types').
bool AnyValue(const Type& t, const Value& v, Where w, ValuePredicate pred) {
  if (pred(t, v, w)) return true;
  if (v.shape() != serdiff::cql::ShapeOfKind(t.kind)) return false;
  switch (t.kind) {
    case Kind::kList:
    case Kind::kSet:
      for (const Value& e : v.items()) {
        if (AnyValue(t.params[0], e, Where::kElement, pred)) return true;
      }
      return false;
    case Kind::kMap: {
      const std::vector<Value>& kv = v.items();
      for (size_t i = 0; i < kv.size(); ++i) {
        if (AnyValue(t.params[i % 2], kv[i], i % 2 == 0 ? Where::kMapKey : Where::kMapValue,
                     pred)) {
          return true;
        }
      }
      return false;
    }
    case Kind::kTuple:
    case Kind::kUdt: {
      const std::vector<Value>& items = v.items();
      for (size_t i = 0; i < items.size() && i < t.params.size(); ++i) {
        const Where here = t.kind == Kind::kUdt ? Where::kField : Where::kComponent;
        if (AnyValue(t.params[i], items[i], here, pred)) return true;
      }
      return false;
    }
    default:
      return false;
  }
}

}  // namespace

bool Shows(const EncodeInput& in, ValuePredicate pred) {
  return AnyValue(in.type, in.value, Where::kTop, pred);
}

bool Holds(const Value& v, Kind k, const Type& t) {
  return t.kind == k && v.shape() == serdiff::cql::ShapeOfKind(k);
}

bool NullElement(const Type&, const Value& v, Where w) {
  return v.is_null() && (w == Where::kElement || w == Where::kMapKey || w == Where::kMapValue);
}
bool TimeOutOfRange(const Type& t, const Value& v, Where) {
  return Holds(v, Kind::kTime, t) && (v.as_int() < 0 || v.as_int() > kMaxTimeNanos);
}
bool MixedDuration(const Type& t, const Value& v, Where) {
  return Holds(v, Kind::kDuration, t) && MixedSigns(v.duration());
}
bool TimeuuidNotV1(const Type& t, const Value& v, Where) {
  return Holds(v, Kind::kTimeuuid, t) && (v.uuid()[6] >> 4) != 1;
}
bool NestedCollection(const Type& t, const Value& v, Where w) {
  return w != Where::kTop && serdiff::cql::IsCollection(t.kind) &&
         v.shape() == serdiff::cql::ShapeOfKind(t.kind);
}
bool AsciiAbove127(const Type& t, const Value& v, Where) {
  if (!Holds(v, Kind::kAscii, t)) return false;
  for (const char c : v.bytes()) {
    if (static_cast<uint8_t>(c) > 127) return true;
  }
  return false;
}

EncodeInput EdgeInput(std::string_view type, Value value, int version) {
  EncodeInput in;
  if (!serdiff::cql::ParseType(type, &in.type).ok()) {
    std::fprintf(stderr, "targets/cql: an edge's type %.*s does not parse\n",
                 static_cast<int>(type.size()), type.data());
    std::abort();
  }
  in.value = std::move(value);
  in.version = version;
  return in;
}

Output AnswerOutput(const Answer& a, const EncodeInput& in) {
  switch (a.is) {
    case Answer::Is::kBytes: {
      if (!in.framed) return a.bytes;
      std::string framed;
      Put32(static_cast<uint32_t>(a.bytes.size()), &framed);
      return framed + a.bytes;
    }
    case Answer::Is::kRejected:
      return absl::InvalidArgumentError(std::string(a.error));
    default:
      return harness::Declined("outside the driver model");
  }
}

void SetEdges(std::vector<PeerDivergence>& d, std::string_view name,
              std::function<std::vector<harness::DivergenceEdge<EncodeInput>>()> edges) {
  for (PeerDivergence& p : d) {
    if (absl::StartsWith(p.reason, absl::string_view(name.data(), name.size()))) {
      p.edges = std::move(edges);
      return;
    }
  }
  std::fprintf(stderr, "targets/cql: no divergence named %.*s\n", static_cast<int>(name.size()),
               name.data());
  std::abort();
}

Uuid UuidOfVersion(int version) {
  Uuid u{};
  u[6] = static_cast<uint8_t>(version << 4);
  u[8] = 0x80;
  return u;
}

harness::DivergenceEdge<EncodeInput> ModelEdge(std::string text, EncodeInput in,
                                               DriverModel model) {
  Output answer = model(in);
  Output serdiff = OptEncode(in);
  return {std::move(text), std::move(in), std::move(serdiff), std::move(answer)};
}

std::vector<harness::DivergenceEdge<EncodeInput>> TimeRangeEdges(DriverModel model) {
  return {ModelEdge("time 0 ns, the first valid", EdgeInput("time", Value::Int(0)), model),
          ModelEdge("time 86399999999999 ns, the last valid",
                    EdgeInput("time", Value::Int(kMaxTimeNanos)), model)};
}

std::vector<harness::DivergenceEdge<EncodeInput>> DurationSignEdges(DriverModel model) {
  return {ModelEdge("duration(1, 0, 3): all >= 0",
                    EdgeInput("duration", Value::FromDuration({1, 0, 3})), model),
          ModelEdge("duration(-1, 0, -3): all <= 0",
                    EdgeInput("duration", Value::FromDuration({-1, 0, -3})), model)};
}

std::vector<harness::DivergenceEdge<EncodeInput>> TimeuuidVersionEdges(DriverModel model) {
  return {ModelEdge("a version 1 timeuuid",
                    EdgeInput("timeuuid", Value::FromUuid(UuidOfVersion(1))), model)};
}

std::vector<harness::DivergenceEdge<EncodeInput>> ShortLengthsNestedEdges(DriverModel model) {
  return {ModelEdge("v3 (the first [int] version) list<list<int>> [[1]]",
                    EdgeInput("list<list<int>>", Value::List({Value::List({Value::Int(1)})}), 3),
                    model),
          ModelEdge("v2 list<int> [1]: a collection at the top, not nested",
                    EdgeInput("list<int>", Value::List({Value::Int(1)}), 2), model)};
}

const std::vector<PeerDivergence>& PeerDivergences() {
  static const std::vector<PeerDivergence>* const kAll = [] {
    auto* all = new std::vector<PeerDivergence>(PythonCassandraDivergences());
    for (PeerDivergence& d : NodeCassandraDivergences()) all->push_back(std::move(d));
    for (PeerDivergence& d : GocqlDivergences()) all->push_back(std::move(d));
    return all;
  }();
  return *kAll;
}

}  // namespace serdiff::targets::cql
