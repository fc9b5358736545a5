// CQL family: what serdiff accepts from python_cassandra, the DataStax python driver 3.25
// (oracles/python_cassandra/worker.py), in the encode targets it joins (docs/peers.md, "## CQL"),
// and the model of the driver its predicates check the answers against. Declared in
// targets/cql/divergences.h; how the predicates work: divergences.cc.
#include <cstdint>
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
namespace {

// python driver 3.25, cqltypes <type>.serialize (protocol v3..v5; the worker declines v1/v2):
//   list, set, map  [int] count, then each element as [int] length + bytes, where a None
//                   element, key or value is to_binary(None) = b'': length 0, an empty value
//                   (3.25; a driver that writes it as null, length -1, as upstream has proposed,
//                   is the same model with `null_element_as_empty` false);
//   tuple           zip(value, subtypes): the components given, None as length -1;
//   udt             every field; a value with fewer is declined by the worker;
//   time            any int64 (no range check); timeuuid: any 16 bytes; duration: any signs;
//   other natives   serdiff's bytes.
class PythonModel {
 public:
  PythonModel(int version, bool null_element_as_empty)
      : version_(version), null_element_as_empty_(null_element_as_empty) {}

  Answer Encode(const Type& t, const Value& v) const {
    if (version_ < 3 || v.is_null()) return Answer::Unmodelled();
    if (v.shape() != serdiff::cql::ShapeOfKind(t.kind)) return Answer::Unmodelled();
    switch (t.kind) {
      case Kind::kList:
      case Kind::kSet:
      case Kind::kMap: {
        const std::vector<Value>& items = v.items();
        const bool map = t.kind == Kind::kMap;
        std::string out;
        Put32(static_cast<uint32_t>(map ? items.size() / 2 : items.size()), &out);
        for (size_t i = 0; i < items.size(); ++i) {
          const Type& et = map ? t.params[i % 2] : t.params[0];
          if (items[i].is_null()) {
            Put32(null_element_as_empty_ ? 0 : 0xFFFFFFFFu, &out);
            continue;
          }
          Answer a = Encode(et, items[i]);
          if (a.is != Answer::Is::kBytes) return a;
          Put32(static_cast<uint32_t>(a.bytes.size()), &out);
          out += a.bytes;
        }
        return Answer::Bytes(std::move(out));
      }
      case Kind::kTuple:
      case Kind::kUdt: {
        const std::vector<Value>& items = v.items();
        if (items.size() > t.params.size()) return Answer::Unmodelled();
        if (t.kind == Kind::kUdt && items.size() < t.params.size()) return Answer::Unmodelled();
        std::string out;
        for (size_t i = 0; i < items.size(); ++i) {
          if (items[i].is_null()) {
            Put32(0xFFFFFFFFu, &out);
            continue;
          }
          Answer a = Encode(t.params[i], items[i]);
          if (a.is != Answer::Is::kBytes) return a;
          Put32(static_cast<uint32_t>(a.bytes.size()), &out);
          out += a.bytes;
        }
        return Answer::Bytes(std::move(out));
      }
      case Kind::kTime:
        // TimeType.serialize checks the upper end only: a negative time is written.
        if (v.as_int() >= kMaxTimeNanos + 1) {
          return Answer::Rejected("value must be less than number of nanoseconds in a day");
        }
        return Answer::Bytes(RawInt64(v.as_int()));
      case Kind::kTimeuuid:
        return Answer::Bytes(RawUuid(v.uuid()));
      case Kind::kDuration:
        return Answer::Bytes(RawDuration(v.duration()));
      default: {
        std::optional<std::string> b = SerdiffNative(t.kind, v, version_);
        return b ? Answer::Bytes(*std::move(b)) : Answer::Unmodelled();
      }
    }
  }

 private:
  int version_;
  bool null_element_as_empty_;
};

}  // namespace

Output PythonCassandraModel(const EncodeInput& in) {
  return AnswerOutput(PythonModel(in.version, true).Encode(in.type, in.value), in);
}

namespace {

// The driver's known behaviours are not assumed to come together: the answer is the model's
// with a null collection element written as 3.25 writes it (empty) or as the spec and a later
// driver write it (null), the same way throughout the input. So a driver that no longer has one
// behaviour still has the others accepted (a mixed-sign duration next to a null element), and
// an answer that matches neither is not. none-element-as-empty itself takes the empty form only
// (its reason names it).
bool PythonAnswers(const EncodeInput& in, const Output& other, bool either_null_form = true) {
  if (Matches(PythonModel(in.version, true).Encode(in.type, in.value), in, other)) return true;
  return either_null_form && Shows(in, NullElement) &&
         Matches(PythonModel(in.version, false).Encode(in.type, in.value), in, other);
}

// An edge: `in`, with serdiff's answer and the driver model's.
harness::DivergenceEdge<EncodeInput> Edge(std::string text, EncodeInput in) {
  return ModelEdge(std::move(text), std::move(in), &PythonCassandraModel);
}

using Applies = bool (*)(const EncodeInput&, const Output&);

}  // namespace

std::vector<PeerDivergence> PythonCassandraDivergences() {
  std::vector<PeerDivergence> d;
  auto add = [&d](const char* impl, std::string reason, Applies applies) {
    d.push_back({impl, std::move(reason), applies});
  };
  constexpr const char* kPy = "python_cassandra";
  constexpr const char* kPyModel =
      " Accepted when the input holds one and the peer's bytes are exactly the driver model's "
      "(targets/cql/divergences_python_cassandra.cc: serdiff's bytes for every native value, "
      "cqltypes' rules for collections, the driver's other known departures applied).";

  // python_cassandra (python3-cassandra 3.25.0).
  add(kPy,
      absl::StrCat("none-element-as-empty: the driver writes a null list/set element or map "
                   "key/value as an empty value (to_binary(None) = b'', length 00000000), "
                   "serdiff as null (length ffffffff): v4 list<int> [1, null, 3] -> "
                   "00000003 0000000400000001 00000000 0000000400000003, serdiff's has "
                   "ffffffff for the null.",
                   kPyModel),
      [](const EncodeInput& in, const Output& other) {
        return Shows(in, NullElement) && PythonAnswers(in, other, /*either_null_form=*/false);
      });
  add(kPy,
      absl::StrCat("time-range-unchecked: TimeType writes a negative int64 as 8 bytes (it refuses "
                   "86400000000000 and more), serdiff rejects a time outside 0..86399999999999 "
                   "ns: v4 time -1 -> ffffffffffffffff.",
                   kPyModel),
      [](const EncodeInput& in, const Output& other) {
        return Shows(in, TimeOutOfRange) && PythonAnswers(in, other);
      });
  add(kPy,
      absl::StrCat("duration-sign-unchecked: DurationType writes months, days and nanoseconds of "
                   "mixed signs, serdiff rejects them (v5 spec 6.8): v4 duration(1, -2, 3) -> "
                   "020306.",
                   kPyModel),
      [](const EncodeInput& in, const Output& other) {
        return Shows(in, MixedDuration) && PythonAnswers(in, other);
      });
  add(kPy,
      absl::StrCat("timeuuid-version-unchecked: TimeUUIDType writes any UUID, serdiff rejects a "
                   "timeuuid whose version nibble is not 1: v4 timeuuid "
                   "00000000-0000-4000-8000-000000000000 -> 00000000000040008000000000000000.",
                   kPyModel),
      [](const EncodeInput& in, const Output& other) {
        return Shows(in, TimeuuidNotV1) && PythonAnswers(in, other);
      });

  // Each held at its edge: the nearest inputs where the driver writes what the spec says.
  SetEdges(d, "none-element-as-empty", [] {
    return std::vector{
        Edge("a null tuple component (the driver writes it as null, ffffffff)",
             EdgeInput("tuple<int, int>", Value::Tuple({Value::Int(1), Value::Null()}))),
        Edge("a list with no null element",
             EdgeInput("list<int>", Value::List({Value::Int(1), Value::Int(0)})))};
  });
  SetEdges(d, "time-range-unchecked", [] { return TimeRangeEdges(&PythonCassandraModel); });
  SetEdges(d, "duration-sign-unchecked", [] {
    auto e = DurationSignEdges(&PythonCassandraModel);
    e.push_back(Edge("duration(0, 0, 0)", EdgeInput("duration", Value::FromDuration({0, 0, 0}))));
    return e;
  });
  SetEdges(d, "timeuuid-version-unchecked",
           [] { return TimeuuidVersionEdges(&PythonCassandraModel); });
  return d;
}

}  // namespace serdiff::targets::cql
