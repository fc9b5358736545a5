// CQL family: the corpus-file form of the cql_* inputs. One visitor per input part, written
// once and run in both directions: with FdpIn it reads a value from fuzz bytes (fuzzing and
// corpus replay), with FdpOut it writes the bytes that FdpIn reads back as the same value
// (seed corpus files, shrunk counterexamples). Writing the two directions as one function is
// what keeps them from drifting apart: a field added to the reader is added to the writer.
//
// Every choice is an integer in a stated range, so any byte string decodes to some input
// within the limits of internal.h (FuzzedDataProvider clamps), and the writer picks the branch
// that reproduces the value (for instance the raw branch rather than an edge index: it can express
// every value).
#include <algorithm>
#include <cstdint>
#include <string>
#include <utility>
#include <vector>

#include "absl/strings/str_cat.h"
#include "targets/cql/internal.h"

namespace serdiff::targets::cql {

namespace {

uint8_t KindIndex(Kind k) {
  for (uint8_t i = 0; i < 20; ++i) {
    if (serdiff::cql::kNativeKinds[i] == k) return i;
  }
  for (uint8_t i = 0; i < 5; ++i) {
    if (serdiff::cql::kCompositeKinds[i] == k) return static_cast<uint8_t>(20 + i);
  }
  return 0;
}
Kind KindAt(uint8_t i) {
  return i < 20 ? serdiff::cql::kNativeKinds[i] : serdiff::cql::kCompositeKinds[i - 20];
}

}  // namespace

void NameFields(Type* t) {
  if (t->kind != Kind::kUdt) return;
  t->udt_name = "u";
  t->field_names.clear();
  for (size_t i = 0; i < t->params.size(); ++i) t->field_names.push_back(absl::StrCat("f", i));
}

template <typename IO>
void VisitType(IO& io, Type& t, int depth, int max_depth) {
  uint8_t idx = 0;
  if constexpr (!IO::kReading) idx = KindIndex(t.kind);
  io.Int(idx, uint8_t{0}, static_cast<uint8_t>(depth < max_depth ? 24 : 19));
  if constexpr (IO::kReading) t = Type::Native(KindAt(idx));
  switch (t.kind) {
    case Kind::kList:
    case Kind::kSet:
    case Kind::kMap:
      if constexpr (IO::kReading) t.params.resize(t.kind == Kind::kMap ? 2 : 1);
      for (Type& p : t.params) VisitType(io, p, depth + 1, max_depth);
      return;
    case Kind::kTuple:
    case Kind::kUdt: {
      uint8_t n = static_cast<uint8_t>(t.params.size());
      io.Int(n, uint8_t{1}, kMaxFields);
      if constexpr (IO::kReading) {
        t.params.resize(n);
        NameFields(&t);
      }
      for (Type& p : t.params) VisitType(io, p, depth + 1, max_depth);
      return;
    }
    default:
      return;
  }
}

namespace {

template <typename IO>
void VisitBigInt(IO& io, BigInt& b) {
  bool neg = b.negative();
  std::string mag(b.magnitude());
  io.Bool(neg);
  io.Str(mag, kMaxMagnitude);
  if constexpr (IO::kReading) b = BigInt::FromMagnitude(neg, mag);
}

// Reads an edge index (reader only; the writer always takes the raw branch). The value of
// `sub` is 0 for raw, 1 for an edge.
template <typename IO>
bool UseEdge(IO& io, size_t table_size, uint16_t* index) {
  uint8_t sub = 0;
  io.Int(sub, uint8_t{0}, uint8_t{1});
  if (sub == 0) return false;
  uint16_t i = 0;
  io.Int(i, uint16_t{0}, static_cast<uint16_t>(table_size - 1));
  *index = i;
  return true;
}

}  // namespace

void Decrement(int& budget) { budget = budget > 0 ? budget - 1 : 0; }
uint32_t ListLimit(int budget) {
  return std::min<uint32_t>(kMaxItems, static_cast<uint32_t>(budget));
}
uint32_t MapLimit(int budget) {
  return std::min<uint32_t>(kMaxItems, static_cast<uint32_t>(budget / 2));
}

namespace {

// Generic values (of any shape, for any type): the wrong-shape inputs of the encoders.
template <typename IO>
void VisitGeneric(IO& io, Value& v, int& budget, bool nested_ok) {
  uint8_t g = static_cast<uint8_t>(v.shape());
  io.Int(g, uint8_t{0}, static_cast<uint8_t>(nested_ok ? 13 : 11));
  const Shape s = static_cast<Shape>(g);
  switch (s) {
    case Shape::kNull:
      if constexpr (IO::kReading) v = Value::Null();
      return;
    case Shape::kUnset:
      if constexpr (IO::kReading) v = Value::Unset();
      return;
    case Shape::kEmpty:
      if constexpr (IO::kReading) v = Value::Empty();
      return;
    case Shape::kBool: {
      bool b = IO::kReading ? false : v.as_bool();
      io.Bool(b);
      if constexpr (IO::kReading) v = Value::Bool(b);
      return;
    }
    case Shape::kInt: {
      int64_t x = IO::kReading ? 0 : v.as_int();
      io.Int(x, std::numeric_limits<int64_t>::min(), std::numeric_limits<int64_t>::max());
      if constexpr (IO::kReading) v = Value::Int(x);
      return;
    }
    case Shape::kFloat: {
      uint32_t bits = IO::kReading ? 0 : std::bit_cast<uint32_t>(v.as_float());
      io.Int(bits, uint32_t{0}, ~uint32_t{0});
      if constexpr (IO::kReading) v = Value::Float(std::bit_cast<float>(bits));
      return;
    }
    case Shape::kDouble: {
      uint64_t bits = IO::kReading ? 0 : std::bit_cast<uint64_t>(v.as_double());
      io.Int(bits, uint64_t{0}, ~uint64_t{0});
      if constexpr (IO::kReading) v = Value::Double(std::bit_cast<double>(bits));
      return;
    }
    case Shape::kBytes: {
      std::string b = IO::kReading ? std::string() : v.bytes();
      io.Str(b, kMaxString);
      if constexpr (IO::kReading) v = Value::Bytes(std::move(b));
      return;
    }
    case Shape::kUuid: {
      std::string b;
      if constexpr (!IO::kReading) b.assign(v.uuid().begin(), v.uuid().end());
      io.Fixed(b, 16);
      if constexpr (IO::kReading) {
        Uuid u{};
        std::memcpy(u.data(), b.data(), std::min<size_t>(16, b.size()));
        v = Value::FromUuid(u);
      }
      return;
    }
    case Shape::kVarint: {
      BigInt b = IO::kReading ? BigInt() : v.varint();
      VisitBigInt(io, b);
      if constexpr (IO::kReading) v = Value::Varint(std::move(b));
      return;
    }
    case Shape::kDecimal: {
      Decimal d = IO::kReading ? Decimal() : v.decimal();
      io.Int(d.scale, std::numeric_limits<int32_t>::min(), std::numeric_limits<int32_t>::max());
      VisitBigInt(io, d.unscaled);
      if constexpr (IO::kReading) v = Value::FromDecimal(std::move(d));
      return;
    }
    case Shape::kDuration: {
      Duration d = IO::kReading ? Duration() : v.duration();
      io.Int(d.months, std::numeric_limits<int32_t>::min(), std::numeric_limits<int32_t>::max());
      io.Int(d.days, std::numeric_limits<int32_t>::min(), std::numeric_limits<int32_t>::max());
      io.Int(d.nanos, std::numeric_limits<int64_t>::min(), std::numeric_limits<int64_t>::max());
      if constexpr (IO::kReading) v = Value::FromDuration(d);
      return;
    }
    case Shape::kItems:
    case Shape::kPairs: {
      const bool pairs = s == Shape::kPairs;
      const uint32_t limit =
          std::min<uint32_t>(kGenericMaxItems, static_cast<uint32_t>(pairs ? budget / 2 : budget));
      uint32_t n = IO::kReading ? 0 : static_cast<uint32_t>(v.items().size() / (pairs ? 2 : 1));
      io.Int(n, uint32_t{0}, limit);
      std::vector<Value> items;
      if constexpr (IO::kReading) {
        items.resize(n * (pairs ? 2 : 1));
      } else {
        items = v.items();
      }
      for (Value& item : items) {
        Decrement(budget);
        VisitGeneric(io, item, budget, false);
      }
      if constexpr (IO::kReading)
        v = pairs ? Value::Pairs(std::move(items)) : Value::Items(std::move(items));
      return;
    }
  }
}

// True when the present branch of VisitValue can express `v` for `t` (budget: after this
// node's decrement).
bool IsPresentForm(const Type& t, const Value& v, int budget) {
  if (IsIntKind(t.kind)) {
    if (v.shape() != Shape::kInt) return false;
    const auto [lo, hi] = IntRange(t.kind);
    return v.as_int() >= lo && v.as_int() <= hi;
  }
  switch (t.kind) {
    case Kind::kBoolean:
      return v.shape() == Shape::kBool;
    case Kind::kFloat:
      return v.shape() == Shape::kFloat;
    case Kind::kDouble:
      return v.shape() == Shape::kDouble;
    case Kind::kText:
    case Kind::kAscii:
    case Kind::kBlob:
      return v.shape() == Shape::kBytes && v.bytes().size() <= kMaxString;
    case Kind::kInet:
      return v.shape() == Shape::kBytes && (v.bytes().size() == 4 || v.bytes().size() == 16);
    case Kind::kUuid:
      return v.shape() == Shape::kUuid;
    case Kind::kTimeuuid:
      return v.shape() == Shape::kUuid && (v.uuid()[6] >> 4) == 1;
    case Kind::kVarint:
      return v.shape() == Shape::kVarint && v.varint().magnitude().size() <= kMaxMagnitude;
    case Kind::kDecimal:
      return v.shape() == Shape::kDecimal &&
             v.decimal().unscaled.magnitude().size() <= kMaxMagnitude;
    case Kind::kDuration:
      return v.shape() == Shape::kDuration;
    case Kind::kList:
    case Kind::kSet:
      return v.shape() == Shape::kItems && v.items().size() <= ListLimit(budget);
    case Kind::kMap:
      return v.shape() == Shape::kPairs && v.items().size() % 2 == 0 &&
             v.items().size() / 2 <= MapLimit(budget);
    case Kind::kTuple:
      return v.shape() == Shape::kItems && v.items().size() == t.params.size();
    case Kind::kUdt:
      return v.shape() == Shape::kItems && v.items().size() <= t.params.size();
    default:
      return false;
  }
}

// Presence selector: 0 a value of the type's own shape, 1 null, 2 empty, 3 unset, 4 generic.
template <typename IO>
void VisitValue(IO& io, const Type& t, Value& v, int& budget) {
  Decrement(budget);
  uint8_t sel = 0;
  if constexpr (!IO::kReading) {
    sel = v.is_null()                   ? 1
          : v.is_empty()                ? 2
          : v.is_unset()                ? 3
          : IsPresentForm(t, v, budget) ? 0
                                        : 4;
  }
  io.Int(sel, uint8_t{0}, uint8_t{4});
  switch (sel) {
    case 1:
      if constexpr (IO::kReading) v = Value::Null();
      return;
    case 2:
      if constexpr (IO::kReading) v = Value::Empty();
      return;
    case 3:
      if constexpr (IO::kReading) v = Value::Unset();
      return;
    case 4:
      VisitGeneric(io, v, budget, true);
      return;
    default:
      break;
  }
  uint16_t edge = 0;
  if (IsIntKind(t.kind)) {
    const auto [lo, hi] = IntRange(t.kind);
    if (UseEdge(io, IntEdges(t.kind).size(), &edge)) {
      if constexpr (IO::kReading) v = Value::Int(IntEdges(t.kind)[edge]);
      return;
    }
    int64_t x = IO::kReading ? 0 : v.as_int();
    io.Int(x, lo, hi);
    if constexpr (IO::kReading) v = Value::Int(x);
    return;
  }
  switch (t.kind) {
    case Kind::kBoolean: {
      bool b = IO::kReading ? false : v.as_bool();
      io.Bool(b);
      if constexpr (IO::kReading) v = Value::Bool(b);
      return;
    }
    case Kind::kFloat: {
      if (UseEdge(io, FloatEdges().size(), &edge)) {
        if constexpr (IO::kReading) v = Value::Float(std::bit_cast<float>(FloatEdges()[edge]));
        return;
      }
      uint32_t bits = IO::kReading ? 0 : std::bit_cast<uint32_t>(v.as_float());
      io.Int(bits, uint32_t{0}, ~uint32_t{0});
      if constexpr (IO::kReading) v = Value::Float(std::bit_cast<float>(bits));
      return;
    }
    case Kind::kDouble: {
      if (UseEdge(io, DoubleEdges().size(), &edge)) {
        if constexpr (IO::kReading) v = Value::Double(std::bit_cast<double>(DoubleEdges()[edge]));
        return;
      }
      uint64_t bits = IO::kReading ? 0 : std::bit_cast<uint64_t>(v.as_double());
      io.Int(bits, uint64_t{0}, ~uint64_t{0});
      if constexpr (IO::kReading) v = Value::Double(std::bit_cast<double>(bits));
      return;
    }
    case Kind::kText:
    case Kind::kAscii:
    case Kind::kBlob: {
      if (UseEdge(io, TextEdges().size(), &edge)) {
        if constexpr (IO::kReading) v = Value::Bytes(TextEdges()[edge]);
        return;
      }
      std::string s = IO::kReading ? std::string() : v.bytes();
      io.Str(s, kMaxString);
      if constexpr (IO::kReading) v = Value::Bytes(std::move(s));
      return;
    }
    case Kind::kInet: {
      bool v6 = IO::kReading ? false : v.bytes().size() == 16;
      io.Bool(v6);
      std::string s = IO::kReading ? std::string() : v.bytes();
      io.Fixed(s, v6 ? 16 : 4);
      if constexpr (IO::kReading) v = Value::Inet(std::move(s));
      return;
    }
    case Kind::kUuid:
    case Kind::kTimeuuid: {
      std::string b;
      if constexpr (!IO::kReading) b.assign(v.uuid().begin(), v.uuid().end());
      io.Fixed(b, 16);
      if constexpr (IO::kReading) {
        Uuid u{};
        std::memcpy(u.data(), b.data(), std::min<size_t>(16, b.size()));
        if (t.kind == Kind::kTimeuuid) u[6] = static_cast<uint8_t>((u[6] & 0x0F) | 0x10);
        v = Value::FromUuid(u);
      }
      return;
    }
    case Kind::kVarint: {
      if (UseEdge(io, VarintEdgeTable().size(), &edge)) {
        if constexpr (IO::kReading) v = Value::Varint(VarintEdgeTable()[edge]);
        return;
      }
      BigInt b = IO::kReading ? BigInt() : v.varint();
      VisitBigInt(io, b);
      if constexpr (IO::kReading) v = Value::Varint(std::move(b));
      return;
    }
    case Kind::kDecimal: {
      Decimal d = IO::kReading ? Decimal() : v.decimal();
      io.Int(d.scale, std::numeric_limits<int32_t>::min(), std::numeric_limits<int32_t>::max());
      if (UseEdge(io, VarintEdgeTable().size(), &edge)) {
        if constexpr (IO::kReading) {
          d.unscaled = VarintEdgeTable()[edge];
          v = Value::FromDecimal(std::move(d));
        }
        return;
      }
      VisitBigInt(io, d.unscaled);
      if constexpr (IO::kReading) v = Value::FromDecimal(std::move(d));
      return;
    }
    case Kind::kDuration: {
      if (UseEdge(io, DurationEdges().size(), &edge)) {
        if constexpr (IO::kReading) v = Value::FromDuration(DurationEdges()[edge]);
        return;
      }
      Duration d = IO::kReading ? Duration() : v.duration();
      io.Int(d.months, std::numeric_limits<int32_t>::min(), std::numeric_limits<int32_t>::max());
      io.Int(d.days, std::numeric_limits<int32_t>::min(), std::numeric_limits<int32_t>::max());
      io.Int(d.nanos, std::numeric_limits<int64_t>::min(), std::numeric_limits<int64_t>::max());
      if constexpr (IO::kReading) v = Value::FromDuration(d);
      return;
    }
    case Kind::kList:
    case Kind::kSet:
    case Kind::kMap:
    case Kind::kTuple:
    case Kind::kUdt: {
      const bool map = t.kind == Kind::kMap;
      std::vector<Value> items;
      if constexpr (!IO::kReading) items = v.items();
      if (t.kind == Kind::kList || t.kind == Kind::kSet || map) {
        uint32_t n = static_cast<uint32_t>(items.size() / (map ? 2 : 1));
        io.Int(n, uint32_t{0}, map ? MapLimit(budget) : ListLimit(budget));
        if constexpr (IO::kReading) items.resize(n * (map ? 2 : 1));
        for (size_t i = 0; i < items.size(); ++i) {
          VisitValue(io, map ? t.params[i % 2] : t.params[0], items[i], budget);
        }
        if constexpr (IO::kReading)
          v = map ? Value::Pairs(std::move(items)) : Value::Items(std::move(items));
        return;
      }
      if (t.kind == Kind::kUdt) {
        uint8_t k = static_cast<uint8_t>(items.size());
        io.Int(k, uint8_t{0}, static_cast<uint8_t>(t.params.size()));
        if constexpr (IO::kReading) items.resize(k);
      } else if constexpr (IO::kReading) {
        items.resize(t.params.size());
      }
      for (size_t i = 0; i < items.size(); ++i) VisitValue(io, t.params[i], items[i], budget);
      if constexpr (IO::kReading) v = Value::Items(std::move(items));
      return;
    }
    default:
      return;
  }
}
}  // namespace

template <typename IO>
void VisitEncodeInput(IO& io, EncodeInput& in, int max_depth) {
  io.Int(in.version, 1, 5);
  io.Bool(in.framed);
  VisitType(io, in.type, 0, max_depth);
  int budget = kNodeBudget;
  VisitValue(io, in.type, in.value, budget);
}

template <typename IO>
void VisitOptions(IO& io, DecodeOptions& o) {
  // One byte of flags (bit 0 alone was the former boolean, so older corpus files keep their
  // meaning for require_minimal_varint).
  uint8_t flags =
      static_cast<uint8_t>((o.require_minimal_varint ? 1 : 0) | (o.reject_short_tuples ? 2 : 0) |
                           (o.reject_negative_lengths ? 4 : 0) | (o.require_time_in_day ? 8 : 0) |
                           (o.reject_duration_trailing_bytes ? 16 : 0) | (o.strict_utf8 ? 32 : 0) |
                           (o.reject_empty_where_cassandra_does ? 64 : 0));
  io.Int(flags, uint8_t{0}, uint8_t{255});
  o.require_minimal_varint = (flags & 1) != 0;
  o.reject_short_tuples = (flags & 2) != 0;
  o.reject_negative_lengths = (flags & 4) != 0;
  o.require_time_in_day = (flags & 8) != 0;
  o.reject_duration_trailing_bytes = (flags & 16) != 0;
  o.strict_utf8 = (flags & 32) != 0;
  o.reject_empty_where_cassandra_does = (flags & 64) != 0;
  io.Int(o.max_depth, 0, serdiff::cql::kMaxNestingDepth);
}
template void VisitType<FdpIn>(FdpIn&, Type&, int, int);
template void VisitType<FdpOut>(FdpOut&, Type&, int, int);
template void VisitEncodeInput<FdpIn>(FdpIn&, EncodeInput&, int);
template void VisitEncodeInput<FdpOut>(FdpOut&, EncodeInput&, int);
template void VisitOptions<FdpIn>(FdpIn&, DecodeOptions&);
template void VisitOptions<FdpOut>(FdpOut&, DecodeOptions&);

}  // namespace serdiff::targets::cql
