// CQL family: what serdiff accepts from node_cassandra, the DataStax Node.js driver 4.10.0
// (npm cassandra-driver, oracles/node_cassandra/worker.js), in the encode targets it joins
// (docs/peers.md, "## CQL"), and the model of the driver its predicates check the answers
// against. Declared in targets/cql/divergences.h; how the predicates work: divergences.cc.
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

// Node's Buffer.from(text, "ascii"), which is latin1: the low byte of every UTF-16 code unit
// (a code point above U+FFFF is two units, a surrogate pair). nullopt for text that is not
// UTF-8 (the interchange declines it).
std::optional<std::string> NodeAsciiBytes(std::string_view s) {
  std::string out;
  size_t i = 0;
  while (i < s.size()) {
    const auto c = static_cast<uint8_t>(s[i]);
    uint32_t cp;
    size_t len;
    if (c < 0x80) {
      cp = c;
      len = 1;
    } else if (c >= 0xC2 && c <= 0xDF) {
      cp = c & 0x1Fu;
      len = 2;
    } else if (c >= 0xE0 && c <= 0xEF) {
      cp = c & 0x0Fu;
      len = 3;
    } else if (c >= 0xF0 && c <= 0xF4) {
      cp = c & 0x07u;
      len = 4;
    } else {
      return std::nullopt;
    }
    if (i + len > s.size()) return std::nullopt;
    for (size_t k = 1; k < len; ++k) {
      const auto cc = static_cast<uint8_t>(s[i + k]);
      if ((cc & 0xC0) != 0x80) return std::nullopt;
      cp = (cp << 6) | (cc & 0x3Fu);
    }
    if (cp > 0x10FFFF || (cp >= 0xD800 && cp <= 0xDFFF)) return std::nullopt;
    if (cp < 0x10000) {
      out.push_back(static_cast<char>(cp & 0xFF));
    } else {
      const uint32_t u = cp - 0x10000;
      out.push_back(static_cast<char>((0xD800 + (u >> 10)) & 0xFF));
      out.push_back(static_cast<char>((0xDC00 + (u & 0x3FF)) & 0xFF));
    }
    i += len;
  }
  return out;
}

// ---- the drivers' composite rules -------------------------------------------------------------

constexpr std::string_view kNodeNullInList = "A collection can't contain null or unset values";
constexpr std::string_view kNodeNullMapKey = "A map can't contain null or unset keys";
constexpr std::string_view kNodeNullMapValue = "A map can't contain null or unset values";
// What V8 says when Buffer.concat meets the null that encodeList returned for an empty list.
constexpr std::string_view kNodeNullBuffer = "Cannot read properties of null (reading 'length')";
// Buffer#writeUInt16BE of a length or count above 65535 (v1/v2).
constexpr std::string_view kNodeOutOfRange = "is out of range";

// cassandra-driver 4.10.0, Encoder#encode (lib/encoder.js) for `v` as `t`:
//   list, set  encodeList: [] -> null; a null element throws; each element's length (0 for a
//              null buffer, i.e. an inner empty list or set) then its bytes, a null buffer
//              included, so that Buffer.concat throws after the loop;
//   map        encodeMap: a null key or value throws; a null key buffer is pushed (concat
//              throws after the loop), a null value buffer is written as length 0;
//   tuple      encodeTuple: min(type, value) components, a null one as length -1;
//   udt        encodeUdt: every field of the type, a missing or null one as length -1;
//   counts and lengths of every list, set and map are [short] (2 bytes) in v1/v2 at every
//   depth, [int] from v3; tuple and UDT components are [int] always;
//   ascii      latin1 bytes (NodeAsciiBytes); timeuuid: any 16 bytes; duration: any signs;
//   other natives serdiff's bytes.
class NodeModel {
 public:
  explicit NodeModel(int version) : short_lengths_(version < 3), version_(version) {}

  Answer Encode(const Type& t, const Value& v) const {
    if (v.is_null()) return Answer::Null();
    if (v.shape() != serdiff::cql::ShapeOfKind(t.kind)) return Answer::Unmodelled();
    switch (t.kind) {
      case Kind::kList:
      case Kind::kSet:
        return List(t.params[0], v.items());
      case Kind::kMap:
        return Map(t.params[0], t.params[1], v.items());
      case Kind::kTuple:
      case Kind::kUdt:
        return Components(t, v.items());
      case Kind::kAscii: {
        std::optional<std::string> b = NodeAsciiBytes(v.bytes());
        return b ? Answer::Bytes(*std::move(b)) : Answer::Unmodelled();
      }
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
  // getLengthBuffer: false where writeUInt16BE throws (v1/v2, n > 65535).
  bool Length(size_t n, std::string* out) const {
    if (short_lengths_) {
      if (n > 0xFFFF) return false;
      Put16(static_cast<uint32_t>(n), out);
    } else {
      Put32(static_cast<uint32_t>(n), out);
    }
    return true;
  }

  Answer List(const Type& et, const std::vector<Value>& items) const {
    if (items.empty()) return Answer::Null();
    std::string out;
    if (!Length(items.size(), &out)) return Answer::Rejected(kNodeOutOfRange);
    bool null_buffer = false;
    for (const Value& e : items) {
      if (e.is_null()) return Answer::Rejected(kNodeNullInList);
      Answer a = Encode(et, e);
      if (a.is == Answer::Is::kNull) {
        null_buffer = true;
        Length(0, &out);
        continue;
      }
      if (a.is != Answer::Is::kBytes) return a;
      if (!Length(a.bytes.size(), &out)) return Answer::Rejected(kNodeOutOfRange);
      out += a.bytes;
    }
    if (null_buffer) return Answer::Rejected(kNodeNullBuffer);
    return Answer::Bytes(std::move(out));
  }

  Answer Map(const Type& kt, const Type& vt, const std::vector<Value>& kv) const {
    std::string body;
    bool null_buffer = false;
    for (size_t i = 0; i + 1 < kv.size(); i += 2) {
      if (kv[i].is_null()) return Answer::Rejected(kNodeNullMapKey);
      if (kv[i + 1].is_null()) return Answer::Rejected(kNodeNullMapValue);
      Answer k = Encode(kt, kv[i]);
      if (k.is == Answer::Is::kNull) {
        null_buffer = true;
        Length(0, &body);
      } else if (k.is != Answer::Is::kBytes) {
        return k;
      } else {
        if (!Length(k.bytes.size(), &body)) return Answer::Rejected(kNodeOutOfRange);
        body += k.bytes;
      }
      Answer x = Encode(vt, kv[i + 1]);
      if (x.is == Answer::Is::kNull) {
        Length(0, &body);  // the null value buffer is not pushed: an empty value
      } else if (x.is != Answer::Is::kBytes) {
        return x;
      } else {
        if (!Length(x.bytes.size(), &body)) return Answer::Rejected(kNodeOutOfRange);
        body += x.bytes;
      }
    }
    std::string out;
    if (!Length(kv.size() / 2, &out)) return Answer::Rejected(kNodeOutOfRange);
    if (null_buffer) return Answer::Rejected(kNodeNullBuffer);
    return Answer::Bytes(out + body);
  }

  Answer Components(const Type& t, const std::vector<Value>& items) const {
    const bool udt = t.kind == Kind::kUdt;
    if (items.size() > t.params.size()) return Answer::Unmodelled();  // the interchange declines
    const size_t n = udt ? t.params.size() : items.size();
    std::string out;
    for (size_t i = 0; i < n; ++i) {
      Answer a = i < items.size() ? Encode(t.params[i], items[i]) : Answer::Null();
      if (a.is == Answer::Is::kNull) {
        Put32(0xFFFFFFFFu, &out);
        continue;
      }
      if (a.is != Answer::Is::kBytes) return a;
      Put32(static_cast<uint32_t>(a.bytes.size()), &out);
      out += a.bytes;
    }
    return Answer::Bytes(std::move(out));
  }

  bool short_lengths_;
  int version_;
};

bool NodeAnswers(const EncodeInput& in, const Output& other) {
  return Matches(NodeModel(in.version).Encode(in.type, in.value), in, other);
}

// An edge: `in`, with serdiff's answer and the driver model's.
harness::DivergenceEdge<EncodeInput> Edge(std::string text, EncodeInput in) {
  return ModelEdge(std::move(text), std::move(in), &NodeCassandraModel);
}

bool UdtFieldsOmitted(const Type& t, const Value& v, Where) {
  return Holds(v, Kind::kUdt, t) && v.items().size() < t.params.size();
}
bool EmptyListOrSet(const Type& t, const Value& v) {
  return (Holds(v, Kind::kList, t) || Holds(v, Kind::kSet, t)) && v.items().empty();
}
bool EmptyListInComponentOrMapValue(const Type& t, const Value& v, Where w) {
  return EmptyListOrSet(t, v) &&
         (w == Where::kComponent || w == Where::kField || w == Where::kMapValue);
}
bool EmptyListInListOrMapKey(const Type& t, const Value& v, Where w) {
  return EmptyListOrSet(t, v) && (w == Where::kElement || w == Where::kMapKey);
}
using Applies = bool (*)(const EncodeInput&, const Output&);

}  // namespace

Output NodeCassandraModel(const EncodeInput& in) {
  return AnswerOutput(NodeModel(in.version).Encode(in.type, in.value), in);
}

std::vector<PeerDivergence> NodeCassandraDivergences() {
  std::vector<PeerDivergence> d;
  auto add = [&d](const char* impl, std::string reason, Applies applies) {
    d.push_back({impl, std::move(reason), applies});
  };
  constexpr const char* kNode = "node_cassandra";
  constexpr const char* kNodeModel =
      " Accepted when the input holds one and the peer's answer is exactly the driver model's "
      "(targets/cql/divergences_node_cassandra.cc: serdiff's bytes for every native value, "
      "encoder.js' rules for collections, tuples and UDTs, the driver's other known departures "
      "applied).";

  // node_cassandra (npm cassandra-driver 4.10.0).
  add(kNode,
      absl::StrCat("null-element-refused: encodeList / encodeMap throw \"A collection can't "
                   "contain null or unset values\" (\"A map can't contain null or unset "
                   "keys\" / \"values\") where serdiff writes length ffffffff: v4 list<int> "
                   "[1, null] -> rejected, serdiff 00000002 0000000400000001 ffffffff.",
                   kNodeModel),
      [](const EncodeInput& in, const Output& other) {
        return Shows(in, NullElement) && NodeAnswers(in, other);
      });
  add(kNode,
      absl::StrCat("empty-list-in-list-crash (a driver bug): an empty list or set as a list/set "
                   "element or map key: encodeList returns null for it and Buffer.concat then "
                   "throws \"Cannot read properties of null (reading 'length')\": v4 "
                   "list<list<int>> [[]] -> rejected, serdiff 00000001 00000004 00000000.",
                   kNodeModel),
      [](const EncodeInput& in, const Output& other) {
        return Shows(in, EmptyListInListOrMapKey) && NodeAnswers(in, other);
      });
  add(kNode,
      absl::StrCat("empty-list-as-null: encodeList returns null for an empty list or set, so a "
                   "tuple component or UDT field holding one is written null (ffffffff) and a "
                   "map value holding one as an empty value (00000000): v4 tuple<list<int>> "
                   "[[]] -> ffffffff, serdiff 00000004 00000000; v4 map<int, list<int>> "
                   "{1: []} -> 00000001 0000000400000001 00000000, serdiff ... 00000004 "
                   "00000000.",
                   kNodeModel),
      [](const EncodeInput& in, const Output& other) {
        return Shows(in, EmptyListInComponentOrMapValue) && NodeAnswers(in, other);
      });
  add(kNode,
      absl::StrCat("udt-fields-padded: encodeUdt writes every field of the type, an omitted "
                   "trailing field as null, where serdiff writes only the fields the value has "
                   "(v4 spec 6.19): v4 udt<addr, street text, zip int> ['Main St'] -> "
                   "000000074d61696e205374 ffffffff, serdiff 000000074d61696e205374.",
                   kNodeModel),
      [](const EncodeInput& in, const Output& other) {
        return Shows(in, UdtFieldsOmitted) && NodeAnswers(in, other);
      });
  add(kNode,
      absl::StrCat("short-lengths-nested (a driver bug): in v1/v2 the driver writes [short] "
                   "counts and lengths in collections at every depth, Cassandra and serdiff "
                   "[int] below the top (inside a collection, tuple or UDT): v2 list<list<int>> "
                   "[[1]] -> 0001 0008 0001 0004 00000001, serdiff 0001 000c 00000001 00000004 "
                   "00000001.",
                   kNodeModel),
      [](const EncodeInput& in, const Output& other) {
        return in.version < 3 && Shows(in, NestedCollection) && NodeAnswers(in, other);
      });
  add(kNode,
      absl::StrCat("ascii-as-latin1 (a driver bug): encodeAsciiString is Buffer.from(text, "
                   "\"ascii\"), the low byte of each UTF-16 unit, where serdiff rejects a "
                   "character above 127: v4 ascii 'é' -> e9; 'é€' -> e9ac.",
                   kNodeModel),
      [](const EncodeInput& in, const Output& other) {
        return Shows(in, AsciiAbove127) && NodeAnswers(in, other);
      });
  add(kNode,
      absl::StrCat("duration-sign-unchecked: types.Duration writes months, days and nanoseconds "
                   "of mixed signs, serdiff rejects them (v5 spec 6.8): v4 duration(1, -2, 3) "
                   "-> 020306.",
                   kNodeModel),
      [](const EncodeInput& in, const Output& other) {
        return Shows(in, MixedDuration) && NodeAnswers(in, other);
      });
  add(kNode,
      absl::StrCat("timeuuid-version-unchecked: TimeUuid.fromString and the encoder take any "
                   "UUID, serdiff rejects a timeuuid whose version nibble is not 1: v4 timeuuid "
                   "00000000-0000-4000-8000-000000000000 -> 00000000000040008000000000000000.",
                   kNodeModel),
      [](const EncodeInput& in, const Output& other) {
        return Shows(in, TimeuuidNotV1) && NodeAnswers(in, other);
      });

  // Each held at its edge: the nearest inputs where the driver writes what the spec says.
  SetEdges(d, "null-element-refused", [] {
    return std::vector{
        Edge("a null tuple component (the driver writes it as null, ffffffff)",
             EdgeInput("tuple<int, int>", Value::Tuple({Value::Int(1), Value::Null()}))),
        Edge("a null UDT field",
             EdgeInput("udt<u, f0 int, f1 int>", Value::Udt({Value::Null(), Value::Int(1)})))};
  });
  SetEdges(d, "empty-list-in-list-crash", [] {
    return std::vector{
        Edge("a list of one non-empty list",
             EdgeInput("list<list<int>>", Value::List({Value::List({Value::Int(1)})}))),
        Edge("a map whose key is a non-empty list",
             EdgeInput("map<frozen<list<int>>, int>",
                       Value::Map({{Value::List({Value::Int(1)}), Value::Int(2)}})))};
  });
  SetEdges(d, "empty-list-as-null", [] {
    return std::vector{
        Edge("a tuple component that is a non-empty list",
             EdgeInput("tuple<list<int>>", Value::Tuple({Value::List({Value::Int(1)})}))),
        Edge("a map value that is a non-empty list",
             EdgeInput("map<int, frozen<list<int>>>",
                       Value::Map({{Value::Int(1), Value::List({Value::Int(2)})}})))};
  });
  SetEdges(d, "udt-fields-padded", [] {
    return std::vector{Edge("a UDT value with every field of its type",
                            EdgeInput("udt<addr, street text, zip int>",
                                      Value::Udt({Value::Text("Main St"), Value::Int(1)})))};
  });
  SetEdges(d, "short-lengths-nested", [] { return ShortLengthsNestedEdges(&NodeCassandraModel); });
  SetEdges(d, "ascii-as-latin1", [] {
    return std::vector{Edge("ascii 7f, the last ASCII character",
                            EdgeInput("ascii", Value::Ascii(std::string("\x7f"))))};
  });
  SetEdges(d, "duration-sign-unchecked", [] { return DurationSignEdges(&NodeCassandraModel); });
  SetEdges(d, "timeuuid-version-unchecked",
           [] { return TimeuuidVersionEdges(&NodeCassandraModel); });
  return d;
}

}  // namespace serdiff::targets::cql
