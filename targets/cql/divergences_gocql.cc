// CQL family: what serdiff accepts from gocql, the Go CQL driver 1.3.2 (Debian 12's
// golang-github-gocql-gocql-dev, oracles/gocql/main.go: gocql.Marshal), in the encode targets it
// joins (docs/peers.md, "## CQL"), and the model of the driver its predicates check the answers
// against. Declared in targets/cql/divergences.h; how the predicates work: divergences.cc.
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "absl/strings/str_cat.h"
#include "serdiff/cql/codec.h"
#include "targets/cql/divergences.h"
#include "targets/cql/internal.h"

namespace serdiff::targets::cql {
namespace {

// What gocql.Marshal fails with. A null tuple reaches marshalTuple, which calls
// reflect.ValueOf(nil).Type(): a panic the worker reports as a rejection with its text.
constexpr std::string_view kGoNilTuple = "reflect: call of reflect.Value.Type on zero Value";
constexpr std::string_view kGoNilUdt = "cannot marshal <nil> into";
constexpr std::string_view kGoTupleArity = "wrong number of elements";
constexpr std::string_view kGoTooLarge = "collection too large";
// The worker refuses a top-level value that gocql writes as null (an inet of a bad length).
constexpr std::string_view kGoWroteNull = "wrote null";

bool V4Mapped(std::string_view b) {
  if (b.size() != 16) return false;
  for (size_t i = 0; i < 10; ++i) {
    if (b[i] != 0) return false;
  }
  return static_cast<uint8_t>(b[10]) == 0xFF && static_cast<uint8_t>(b[11]) == 0xFF;
}

// The kinds whose Go form cannot be a Go map key (the worker declines such a key).
bool UnhashableKey(Kind k) {
  switch (k) {
    case Kind::kBlob:
    case Kind::kInet:
    case Kind::kList:
    case Kind::kSet:
    case Kind::kMap:
    case Kind::kTuple:
    case Kind::kUdt:
      return true;
    default:
      return false;
  }
}

// A float or double NaN: as a Go map key it can be stored but never looked up again (NaN != NaN),
// and marshalMap's MapIndex then panics, so the worker declines such a key.
bool NanKey(const Type& t, const Value& v) {
  if (v.is_null() || v.shape() != serdiff::cql::ShapeOfKind(t.kind)) return false;
  if (t.kind == Kind::kFloat) return v.as_float() != v.as_float();
  if (t.kind == Kind::kDouble) return v.as_double() != v.as_double();
  return false;
}

// True where oracles/gocql/main.go declines the input before gocql sees it: a map of two or more
// entries, a non-null map key of an unhashable kind or a NaN key, a UDT value with fewer fields
// than its type, a date whose wire day number is outside 0..2^32-1 (the interchange's date).
bool Declined(const Type& t, const Value& v) {
  if (v.is_null() || v.shape() != serdiff::cql::ShapeOfKind(t.kind)) return false;
  switch (t.kind) {
    case Kind::kDate:
      return v.as_int() < -kDateEpoch || v.as_int() >= kDateEpoch;
    case Kind::kList:
    case Kind::kSet:
      for (const Value& e : v.items()) {
        if (Declined(t.params[0], e)) return true;
      }
      return false;
    case Kind::kMap: {
      const std::vector<Value>& kv = v.items();
      if (kv.size() > 2) return true;
      for (size_t i = 0; i < kv.size(); ++i) {
        if (i % 2 == 0 && !kv[i].is_null() && UnhashableKey(t.params[0].kind)) return true;
        if (i % 2 == 0 && NanKey(t.params[0], kv[i])) return true;
        if (Declined(t.params[i % 2], kv[i])) return true;
      }
      return false;
    }
    case Kind::kTuple:
    case Kind::kUdt: {
      const std::vector<Value>& items = v.items();
      if (t.kind == Kind::kUdt && items.size() < t.params.size()) return true;
      for (size_t i = 0; i < items.size() && i < t.params.size(); ++i) {
        if (Declined(t.params[i], items[i])) return true;
      }
      return false;
    }
    default:
      return false;
  }
}

// gocql 1.3.2, Marshal (marshal.go) for `v` as `t`:
//   list, set  marshalList: the count, then each element's length and bytes; an element gocql
//              writes as nil (a null, an inet of a bad length) has length -1 from v3, 0 in v1/v2;
//   map        marshalMap: the same for the key and the value (one entry: the worker declines
//              more);
//   counts and lengths of every list, set and map are [short] in v1/v2 at every depth
//              (writeCollectionSize with the collection's own protocol version), [int] from v3;
//   tuple      marshalTuple: exactly as many components as the type has, else "wrong number of
//              elements"; a null component -1, a component written as nil length 0;
//   udt        marshalUDT: every field of the type, null or nil as -1 (appendBytes);
//   a null tuple where Marshal meets it (an element, key, value or UDT field) panics, a null UDT
//              there fails "cannot marshal <nil> into";
//   inet       net.IP.To4, else To16: ::ffff:a.b.c.d is written as its 4 bytes, a length other
//              than 4 or 16 as nil;
//   ascii      the string's bytes, unchecked; time: any int64; timeuuid: any 16 bytes; duration:
//              any signs;
//   other natives serdiff's bytes.
class GocqlModel {
 public:
  explicit GocqlModel(int version) : short_lengths_(version < 3), version_(version) {}

  // The answer at the top: Unmodelled where the worker or the interchange declines.
  Answer Top(const Type& t, const Value& v) const {
    if (v.is_null() || Declined(t, v)) return Answer::Unmodelled();
    Answer a = Encode(t, v);
    if (a.is == Answer::Is::kNull) return Answer::Rejected(kGoWroteNull);
    return a;
  }

 private:
  Answer Encode(const Type& t, const Value& v) const {
    if (v.is_null()) {
      if (t.kind == Kind::kTuple) return Answer::Rejected(kGoNilTuple);
      if (t.kind == Kind::kUdt) return Answer::Rejected(kGoNilUdt);
      return Answer::Null();
    }
    if (v.shape() != serdiff::cql::ShapeOfKind(t.kind)) return Answer::Unmodelled();
    switch (t.kind) {
      case Kind::kList:
      case Kind::kSet:
      case Kind::kMap: {
        const std::vector<Value>& items = v.items();
        const bool map = t.kind == Kind::kMap;
        std::string out;
        if (!Length(map ? items.size() / 2 : items.size(), &out)) {
          return Answer::Rejected(kGoTooLarge);
        }
        for (size_t i = 0; i < items.size(); ++i) {
          Answer a = Encode(map ? t.params[i % 2] : t.params[0], items[i]);
          if (a.is == Answer::Is::kNull) {
            if (short_lengths_) {
              Put16(0, &out);
            } else {
              Put32(0xFFFFFFFFu, &out);
            }
            continue;
          }
          if (a.is != Answer::Is::kBytes) return a;
          if (!Length(a.bytes.size(), &out)) return Answer::Rejected(kGoTooLarge);
          out += a.bytes;
        }
        return Answer::Bytes(std::move(out));
      }
      case Kind::kTuple:
      case Kind::kUdt: {
        const std::vector<Value>& items = v.items();
        if (items.size() > t.params.size()) return Answer::Unmodelled();
        const bool udt = t.kind == Kind::kUdt;
        if (!udt && items.size() != t.params.size()) return Answer::Rejected(kGoTupleArity);
        std::string out;
        for (size_t i = 0; i < items.size(); ++i) {
          if (!udt && items[i].is_null()) {
            Put32(0xFFFFFFFFu, &out);
            continue;
          }
          Answer a = Encode(t.params[i], items[i]);
          if (a.is == Answer::Is::kNull) {
            Put32(udt ? 0xFFFFFFFFu : 0, &out);
            continue;
          }
          if (a.is != Answer::Is::kBytes) return a;
          Put32(static_cast<uint32_t>(a.bytes.size()), &out);
          out += a.bytes;
        }
        return Answer::Bytes(std::move(out));
      }
      case Kind::kInet: {
        const std::string& b = v.bytes();
        if (V4Mapped(b)) return Answer::Bytes(b.substr(12));
        if (b.size() != 4 && b.size() != 16) return Answer::Null();
        return Answer::Bytes(b);
      }
      case Kind::kAscii:
        return Answer::Bytes(v.bytes());
      case Kind::kTime:
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

  // writeCollectionSize: false above 65535 in v1/v2.
  bool Length(size_t n, std::string* out) const {
    if (short_lengths_) {
      if (n > 0xFFFF) return false;
      Put16(static_cast<uint32_t>(n), out);
    } else {
      Put32(static_cast<uint32_t>(n), out);
    }
    return true;
  }

  bool short_lengths_;
  int version_;
};

bool GocqlAnswers(const EncodeInput& in, const Output& other) {
  return Matches(GocqlModel(in.version).Top(in.type, in.value), in, other);
}

bool InetBadLengthNested(const Type& t, const Value& v, Where w) {
  return w != Where::kTop && Holds(v, Kind::kInet, t) && v.bytes().size() != 4 &&
         v.bytes().size() != 16;
}
bool InetV4Mapped(const Type& t, const Value& v, Where) {
  return Holds(v, Kind::kInet, t) && V4Mapped(v.bytes());
}
bool InMarshalledPlace(Where w) {
  return w == Where::kElement || w == Where::kMapKey || w == Where::kMapValue || w == Where::kField;
}
bool NullTupleMarshalled(const Type& t, const Value& v, Where w) {
  return v.is_null() && t.kind == Kind::kTuple && InMarshalledPlace(w);
}
bool NullUdtMarshalled(const Type& t, const Value& v, Where w) {
  return v.is_null() && t.kind == Kind::kUdt && InMarshalledPlace(w);
}
// A null list/set element, map key or value of a kind Marshal writes as nil (not a tuple, which
// panics, nor a UDT, which fails).
bool NullValueElement(const Type& t, const Value& v, Where w) {
  return NullElement(t, v, w) && t.kind != Kind::kTuple && t.kind != Kind::kUdt;
}
bool TupleShort(const Type& t, const Value& v, Where) {
  return Holds(v, Kind::kTuple, t) && v.items().size() < t.params.size();
}

Value Inet(std::string_view bytes) { return Value::Inet(std::string(bytes)); }

using Applies = bool (*)(const EncodeInput&, const Output&);

}  // namespace

Output GocqlModelAnswer(const EncodeInput& in) {
  return AnswerOutput(GocqlModel(in.version).Top(in.type, in.value), in);
}

namespace {
// An edge: `in`, with serdiff's answer and the driver model's.
harness::DivergenceEdge<EncodeInput> Edge(std::string text, EncodeInput in) {
  return ModelEdge(std::move(text), std::move(in), &GocqlModelAnswer);
}
}  // namespace

std::vector<PeerDivergence> GocqlDivergences() {
  std::vector<PeerDivergence> d;
  auto add = [&d](const char* impl, std::string reason, Applies applies) {
    d.push_back({impl, std::move(reason), applies});
  };
  constexpr const char* kGo = "gocql";
  constexpr const char* kGoModel =
      " Accepted when the input holds one and the peer's answer is exactly the driver model's "
      "(targets/cql/divergences_gocql.cc: serdiff's bytes for every native value, marshal.go's "
      "rules for collections, tuples and UDTs, the driver's other known departures applied).";

  // gocql (golang-github-gocql-gocql-dev 1.3.2).
  add(kGo,
      absl::StrCat("inet-bad-length-as-null (a driver bug): marshalInet returns nil for a "
                   "net.IP of neither 4 nor 16 bytes (To4 and To16 both fail), so inside a "
                   "collection or UDT the address is written null (ffffffff; in a v1/v2 collection "
                   "length 0000, as null-element-as-empty-v2 writes a null) and as a tuple "
                   "component as an empty value (00000000), where serdiff rejects the inet: v4 "
                   "list<inet> [010203] -> 00000001 ffffffff.",
                   kGoModel),
      [](const EncodeInput& in, const Output& other) {
        return Shows(in, InetBadLengthNested) && GocqlAnswers(in, other);
      });
  add(kGo,
      absl::StrCat("inet-v4-mapped-as-4 (on purpose): marshalInet writes net.IP.To4() when it "
                   "exists, so a 16-byte IPv4-mapped address ::ffff:a.b.c.d goes out as its 4 "
                   "bytes, serdiff writes the 16 it was given: v4 inet "
                   "00000000000000000000ffff01020304 -> 01020304.",
                   kGoModel),
      [](const EncodeInput& in, const Output& other) {
        return Shows(in, InetV4Mapped) && GocqlAnswers(in, other);
      });
  add(kGo,
      absl::StrCat("ascii-unchecked (a driver bug): marshalVarchar writes an ascii string's "
                   "bytes as they are (UTF-8), where serdiff rejects a byte above 127 (Cassandra "
                   "refuses it too): v4 ascii 'é' -> c3a9.",
                   kGoModel),
      [](const EncodeInput& in, const Output& other) {
        return Shows(in, AsciiAbove127) && GocqlAnswers(in, other);
      });
  add(kGo,
      absl::StrCat("time-range-unchecked: marshalTime writes any int64, serdiff rejects a time "
                   "outside 0..86399999999999 ns: v4 time -1 -> ffffffffffffffff.",
                   kGoModel),
      [](const EncodeInput& in, const Output& other) {
        return Shows(in, TimeOutOfRange) && GocqlAnswers(in, other);
      });
  add(kGo,
      absl::StrCat("duration-sign-unchecked: marshalDuration writes months, days and nanoseconds "
                   "of mixed signs, serdiff rejects them (v5 spec 6.8): v4 duration(1, -2, 3) -> "
                   "020306.",
                   kGoModel),
      [](const EncodeInput& in, const Output& other) {
        return Shows(in, MixedDuration) && GocqlAnswers(in, other);
      });
  add(kGo,
      absl::StrCat("timeuuid-version-unchecked: marshalUUID writes any UUID as a timeuuid, "
                   "serdiff rejects one whose version nibble is not 1: v4 timeuuid "
                   "00000000-0000-4000-8000-000000000000 -> 00000000000040008000000000000000.",
                   kGoModel),
      [](const EncodeInput& in, const Output& other) {
        return Shows(in, TimeuuidNotV1) && GocqlAnswers(in, other);
      });
  add(kGo,
      absl::StrCat("short-lengths-nested (a driver bug): in v1/v2 the driver writes [short] "
                   "counts and lengths in collections at every depth, Cassandra and serdiff "
                   "[int] below the top (inside a collection, tuple or UDT): v2 list<list<int>> "
                   "[[1]] -> 0001 0008 0001 0004 00000001, serdiff 0001 000c 00000001 00000004 "
                   "00000001.",
                   kGoModel),
      [](const EncodeInput& in, const Output& other) {
        return in.version < 3 && Shows(in, NestedCollection) && GocqlAnswers(in, other);
      });
  add(kGo,
      absl::StrCat("null-tuple-panic (a driver bug): a null tuple as a list/set element, map key "
                   "or value, or UDT field reaches marshalTuple, which calls "
                   "reflect.ValueOf(nil).Type() and panics (\"reflect: call of "
                   "reflect.Value.Type on zero Value\"), where serdiff writes it null: v4 "
                   "list<tuple<int>> [null] -> panic, serdiff 00000001 ffffffff.",
                   kGoModel),
      [](const EncodeInput& in, const Output& other) {
        return Shows(in, NullTupleMarshalled) && GocqlAnswers(in, other);
      });
  add(kGo,
      absl::StrCat("null-udt-refused (a driver bug): a null UDT as a list/set element, map key or "
                   "value, or UDT field fails in marshalUDT (\"cannot marshal <nil> into\"), "
                   "where serdiff writes it null: v4 list<udt<u, f0 int>> [null] -> rejected, "
                   "serdiff 00000001 ffffffff.",
                   kGoModel),
      [](const EncodeInput& in, const Output& other) {
        return Shows(in, NullUdtMarshalled) && GocqlAnswers(in, other);
      });
  add(kGo,
      absl::StrCat("null-element-as-empty-v2 (a driver bug): in v1/v2, which have no null "
                   "element, marshalList and marshalMap write a null element, key or value as "
                   "length 0000 (an empty value), where serdiff rejects it: v2 list<int> "
                   "[1, null] -> 0002 0004 00000001 0000.",
                   kGoModel),
      [](const EncodeInput& in, const Output& other) {
        return in.version < 3 && Shows(in, NullValueElement) && GocqlAnswers(in, other);
      });
  add(kGo,
      absl::StrCat("tuple-arity-required (on purpose): marshalTuple refuses a value with fewer "
                   "components than its type (\"wrong number of elements\"), serdiff writes the "
                   "components given, as Cassandra's tuple type reads a tuple that ends early (v4 "
                   "spec 6.20 says nothing of a short tuple; section 7 allows one for a UDT): v4 "
                   "tuple<int, int> [1] -> rejected, serdiff 0000000400000001.",
                   kGoModel),
      [](const EncodeInput& in, const Output& other) {
        return Shows(in, TupleShort) && GocqlAnswers(in, other);
      });

  // Each held at its edge: the nearest inputs where the driver writes what the spec says.
  SetEdges(d, "inet-bad-length-as-null", [] {
    return std::vector{
        Edge("a 4-byte address in a list",
             EdgeInput("list<inet>", Value::List({Inet(std::string_view("\x01\x02\x03\x04", 4))}))),
        Edge("a 16-byte address (not IPv4-mapped) in a tuple",
             EdgeInput("tuple<inet>", Value::Tuple({Inet(std::string(15, '\0') + "\x01")})))};
  });
  SetEdges(d, "inet-v4-mapped-as-4", [] {
    return std::vector{
        Edge("::fffe:102:304, one bit short of IPv4-mapped",
             EdgeInput("inet", Inet(std::string(10, '\0') + "\xff\xfe\x01\x02\x03\x04"))),
        Edge("::ff:ff01:203:4 (the ffff one byte early)",
             EdgeInput("inet", Inet(std::string(9, '\0') + "\xff\xff\x01\x02\x03\x04" +
                                    std::string(1, '\0'))))};
  });
  SetEdges(d, "ascii-unchecked", [] {
    return std::vector{Edge("ascii 7f, the last ASCII character",
                            EdgeInput("ascii", Value::Ascii(std::string("\x7f"))))};
  });
  SetEdges(d, "time-range-unchecked", [] { return TimeRangeEdges(&GocqlModelAnswer); });
  SetEdges(d, "duration-sign-unchecked", [] { return DurationSignEdges(&GocqlModelAnswer); });
  SetEdges(d, "timeuuid-version-unchecked", [] { return TimeuuidVersionEdges(&GocqlModelAnswer); });
  SetEdges(d, "null-element-as-empty-v2", [] {
    return std::vector{
        Edge("v3 (the first version with a null element) list<int> [1, null]",
             EdgeInput("list<int>", Value::List({Value::Int(1), Value::Null()}), 3)),
        Edge("v2 list<int> [1, 0]: no null",
             EdgeInput("list<int>", Value::List({Value::Int(1), Value::Int(0)}), 2)),
        Edge("v2 list<tuple<int>> [null]: a null Marshal does not write as nil (it panics)",
             EdgeInput("list<tuple<int>>", Value::List({Value::Null()}), 2))};
  });
  SetEdges(d, "short-lengths-nested", [] { return ShortLengthsNestedEdges(&GocqlModelAnswer); });
  SetEdges(d, "null-tuple-panic", [] {
    return std::vector{
        Edge("a null tuple as a tuple component (marshalTuple writes it -1 itself)",
             EdgeInput("tuple<tuple<int>, int>", Value::Tuple({Value::Null(), Value::Int(1)}))),
        Edge("a list of one non-null tuple",
             EdgeInput("list<tuple<int>>", Value::List({Value::Tuple({Value::Int(1)})})))};
  });
  SetEdges(d, "null-udt-refused", [] {
    return std::vector{
        Edge("a null UDT as a tuple component",
             EdgeInput("tuple<udt<u, f0 int>>", Value::Tuple({Value::Null()}))),
        Edge("a list of one non-null UDT",
             EdgeInput("list<udt<u, f0 int>>", Value::List({Value::Udt({Value::Int(1)})})))};
  });
  SetEdges(d, "tuple-arity-required", [] {
    return std::vector{
        Edge("a tuple value with every component of its type",
             EdgeInput("tuple<int, int>", Value::Tuple({Value::Int(1), Value::Int(2)})))};
  });
  return d;
}

}  // namespace serdiff::targets::cql
