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
// buffer followed by guard bytes that must stay untouched.
#include <algorithm>
#include <bit>
#include <cmath>
#include <cstring>
#include <limits>
#include <memory>
#include <string>
#include <type_traits>
#include <utility>
#include <vector>

#include "absl/strings/escaping.h"
#include "absl/strings/numbers.h"
#include "absl/strings/str_cat.h"
#include "reference/cql/codec_ref.h"
#include "serdiff/cql/codec.h"
#include "serdiff/cql/literal.h"
#include "serdiff/cql/typed.h"
#include "serdiff/timestamp/timestamp.h"
#include "targets/cql_domain.h"
#include "targets/families.h"

namespace serdiff::targets {
namespace cql {

namespace opt = serdiff::cql;
namespace ref = serdiff::ref::cql;
using harness::Output;
using opt::Decimal;
using opt::Duration;
using opt::Uuid;
using Shape = Value::Shape;

namespace {

// Limits of the generated and fuzz-decoded inputs (the writer's preconditions).
constexpr int kNodeBudget = 1024;     // values per input (every item counts)
constexpr uint32_t kMaxItems = 24;    // elements per collection
constexpr size_t kMaxString = 300;    // bytes per text/ascii/blob
constexpr size_t kMaxMagnitude = 40;  // varint magnitude bytes
constexpr uint8_t kMaxFields = 6;     // tuple components / UDT fields
constexpr int kMaxTypeDepth = 5;
constexpr uint32_t kGenericMaxItems = 8;
constexpr int64_t kMaxTimeNanos = 86'399'999'999'999;
constexpr int64_t kDateEpoch = int64_t{1} << 31;

// ---- edge values -----------------------------------------------------------------------------

template <typename T>
std::vector<T> SortedUnique(std::vector<T> v) {
  std::sort(v.begin(), v.end());
  v.erase(std::unique(v.begin(), v.end()), v.end());
  return v;
}

std::vector<int64_t> EdgeMillisList() { return serdiff::timestamp::EdgeMillis(); }
std::vector<int64_t> EdgeDaysList() { return serdiff::timestamp::EdgeDays(); }
std::vector<int64_t> EdgeTimeList() { return serdiff::timestamp::EdgeCqlTimeNanos(); }

// Edge values of an integer kind, including a few just outside its range.
const std::vector<int64_t>& IntEdges(Kind k) {
  static const auto* tables = [] {
    auto* m = new std::vector<std::vector<int64_t>>(5);
    auto around = [](std::vector<int64_t>* v, int64_t lo, int64_t hi) {
      v->insert(v->end(), {lo - 1, lo, lo + 1, -1, 0, 1, hi - 1, hi, hi + 1});
    };
    around(&(*m)[0], -128, 127);
    around(&(*m)[1], -32768, 32767);
    around(&(*m)[2], std::numeric_limits<int32_t>::min(), std::numeric_limits<int32_t>::max());
    for (int b = 1; b < 31; b += 3) {
      (*m)[2].insert((*m)[2].end(), {int64_t{1} << b, -(int64_t{1} << b)});
    }
    (*m)[3] = EdgeInt64();
    (*m)[4] = EdgeMillisList();
    for (auto& v : *m) v = SortedUnique(std::move(v));
    return m;
  }();
  static const auto* days = new std::vector<int64_t>(SortedUnique(EdgeDaysList()));
  static const auto* times = new std::vector<int64_t>(SortedUnique(EdgeTimeList()));
  switch (k) {
    case Kind::kTinyint:
      return (*tables)[0];
    case Kind::kSmallint:
      return (*tables)[1];
    case Kind::kInt:
      return (*tables)[2];
    case Kind::kTimestamp:
      return (*tables)[4];
    case Kind::kDate:
      return *days;
    case Kind::kTime:
      return *times;
    default:
      return (*tables)[3];
  }
}

// Valid range of an integer kind in the value model.
std::pair<int64_t, int64_t> IntRange(Kind k) {
  switch (k) {
    case Kind::kTinyint:
      return {-128, 127};
    case Kind::kSmallint:
      return {-32768, 32767};
    case Kind::kInt:
      return {std::numeric_limits<int32_t>::min(), std::numeric_limits<int32_t>::max()};
    case Kind::kDate:
      return {-kDateEpoch, kDateEpoch - 1};
    case Kind::kTime:
      return {0, kMaxTimeNanos};
    default:
      return {std::numeric_limits<int64_t>::min(), std::numeric_limits<int64_t>::max()};
  }
}

bool IsIntKind(Kind k) {
  switch (k) {
    case Kind::kTinyint:
    case Kind::kSmallint:
    case Kind::kInt:
    case Kind::kBigint:
    case Kind::kCounter:
    case Kind::kTimestamp:
    case Kind::kDate:
    case Kind::kTime:
      return true;
    default:
      return false;
  }
}

const std::vector<uint32_t>& FloatEdges() {
  static const auto* v = new std::vector<uint32_t>{
      0x00000000, 0x80000000, 0x3F800000, 0xBF800000, 0x3FC00000, 0x7F800000,
      0xFF800000, 0x7FC00000, 0xFFC00000, 0x7F800001, 0x7FBFFFFF, 0x00000001,
      0x807FFFFF, 0x00800000, 0x7F7FFFFF, 0xFF7FFFFF, 0x3DCCCCCD};
  return *v;
}
const std::vector<uint64_t>& DoubleEdges() {
  static const auto* v = new std::vector<uint64_t>{
      0x0000000000000000, 0x8000000000000000, 0x3FF0000000000000, 0x3FB999999999999A,
      0x7FF0000000000000, 0xFFF0000000000000, 0x7FF8000000000000, 0xFFF8000000000000,
      0x7FF0000000000001, 0x7FF4000000000000, 0x0000000000000001, 0x000FFFFFFFFFFFFF,
      0x0010000000000000, 0x7FEFFFFFFFFFFFFF, 0xC3E0000000000000, 0x43E0000000000000};
  return *v;
}

std::string Cp(uint32_t cp) {  // UTF-8 of a code point (any value up to 0x1FFFFF)
  std::string s;
  if (cp < 0x80) {
    s.push_back(static_cast<char>(cp));
  } else if (cp < 0x800) {
    s.push_back(static_cast<char>(0xC0 | (cp >> 6)));
    s.push_back(static_cast<char>(0x80 | (cp & 0x3F)));
  } else if (cp < 0x10000) {
    s.push_back(static_cast<char>(0xE0 | (cp >> 12)));
    s.push_back(static_cast<char>(0x80 | ((cp >> 6) & 0x3F)));
    s.push_back(static_cast<char>(0x80 | (cp & 0x3F)));
  } else {
    s.push_back(static_cast<char>(0xF0 | (cp >> 18)));
    s.push_back(static_cast<char>(0x80 | ((cp >> 12) & 0x3F)));
    s.push_back(static_cast<char>(0x80 | ((cp >> 6) & 0x3F)));
    s.push_back(static_cast<char>(0x80 | (cp & 0x3F)));
  }
  return s;
}

// Text edges: valid boundary code points, and invalid sequences (overlong, surrogate, beyond
// U+10FFFF, truncated, stray continuation bytes).
const std::vector<std::string>& TextEdges() {
  static const auto* v = [] {
    auto* e = new std::vector<std::string>{
        "a", "hello", "\xC3\xA9\xE2\x82\xAC", "it's \\ \"q\"", std::string(1, '\0'), "\x7F",
        Cp(0x80), Cp(0x7FF), Cp(0x800), Cp(0xD7FF), Cp(0xE000), Cp(0xFFFF), Cp(0x10000),
        Cp(0x10FFFF), "x" + Cp(0x1F600) + "y",
        // invalid:
        "\xC0\x80", "\xC1\xBF", "\xE0\x80\x80", "\xED\xA0\x80", "\xED\xBF\xBF", "\xF0\x80\x80\x80",
        "\xF4\x90\x80\x80", "\xF5\x80\x80\x80", "\xFF", "\x80", "abc\xE2\x82", "\xE2\x82\xACz\xC3",
        std::string(kMaxString, 'z')};
    return e;
  }();
  return *v;
}

const std::vector<Duration>& DurationEdges() {
  static const auto* v = new std::vector<Duration>{
      {0, 0, 0},
      {1, 2, 3},
      {-1, -1, -1},
      {12, 0, 0},
      {0, 0, 3'600'000'000'000},
      {std::numeric_limits<int32_t>::max(), std::numeric_limits<int32_t>::max(),
       std::numeric_limits<int64_t>::max()},
      {std::numeric_limits<int32_t>::min(), std::numeric_limits<int32_t>::min(),
       std::numeric_limits<int64_t>::min()},
      {0, 0, 63},
      {0, 0, -64},
      {0, 0, 64},
      {0, -65, 0},
      {1, -1, 0},  // mixed signs: invalid
      {0, 1, -1},  // mixed signs: invalid
      {-1, 0, 1},  // mixed signs: invalid
  };
  return *v;
}

const std::vector<Uuid>& UuidEdges() {
  static const auto* v = [] {
    auto* e = new std::vector<Uuid>;
    Uuid z{};
    e->push_back(z);
    Uuid f;
    f.fill(0xFF);
    e->push_back(f);
    Uuid seq;
    for (int i = 0; i < 16; ++i) seq[i] = static_cast<uint8_t>(i * 0x11);
    e->push_back(seq);  // 00112233-4455-6677-8899-aabbccddeeff
    Uuid v1 = seq;
    v1[6] = 0x11;  // version 1
    e->push_back(v1);
    Uuid v4 = seq;
    v4[6] = 0x41;  // version 4
    e->push_back(v4);
    return e;
  }();
  return *v;
}

const std::vector<std::string>& InetEdges() {
  static const auto* v = new std::vector<std::string>{std::string("\x7F\x00\x00\x01", 4),
                                                      std::string(4, '\0'),
                                                      std::string(4, '\xFF'),
                                                      std::string(15, '\0') + "\x01",
                                                      std::string(16, '\xFF'),
                                                      std::string(3, '\x01'),
                                                      std::string(5, '\x01'),
                                                      std::string(17, '\x01')};
  return *v;
}

const std::vector<BigInt>& VarintEdgeTable() {
  static const auto* v = new std::vector<BigInt>(EdgeVarints());
  return *v;
}

uint64_t SplitMix(uint64_t* state) {
  uint64_t z = (*state += 0x9E3779B97F4A7C15ull);
  z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ull;
  z = (z ^ (z >> 27)) * 0x94D049BB133111EBull;
  return z ^ (z >> 31);
}

// ---- corpus-file form: one visitor, two directions -------------------------------------------

// Reads from FuzzedDataProvider.
struct FdpIn {
  static constexpr bool kReading = true;
  FuzzedDataProvider& p;
  template <typename T>
  void Int(T& v, T lo, T hi) {
    v = p.ConsumeIntegralInRange<T>(lo, hi);
  }
  void Bool(bool& b) { b = p.ConsumeBool(); }
  void Str(std::string& s, size_t max) { s = p.ConsumeRandomLengthString(max); }
  void Fixed(std::string& s, size_t n) { s = p.ConsumeBytesAsString(n); }
};

// Writes the bytes FdpIn reads back. Preconditions: values within the ranges passed.
struct FdpOut {
  static constexpr bool kReading = false;
  harness::FuzzInputWriter& w;
  template <typename T>
  void Int(T& v, T lo, T hi) {
    w.WriteIntegralInRange<T>(v, lo, hi);
  }
  void Bool(bool& b) { w.WriteBool(b); }
  void Str(std::string& s, size_t max) { w.WriteRandomLengthString(s, max); }
  void Fixed(std::string& s, size_t /*n*/) { w.WriteBytes(s); }
};

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

void Decrement(int& budget) { budget = budget > 0 ? budget - 1 : 0; }
uint32_t ListLimit(int budget) {
  return std::min<uint32_t>(kMaxItems, static_cast<uint32_t>(budget));
}
uint32_t MapLimit(int budget) {
  return std::min<uint32_t>(kMaxItems, static_cast<uint32_t>(budget / 2));
}

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
                           (o.reject_duration_trailing_bytes ? 16 : 0) | (o.strict_utf8 ? 32 : 0));
  io.Int(flags, uint8_t{0}, uint8_t{255});
  o.require_minimal_varint = (flags & 1) != 0;
  o.reject_short_tuples = (flags & 2) != 0;
  o.reject_negative_lengths = (flags & 4) != 0;
  o.require_time_in_day = (flags & 8) != 0;
  o.reject_duration_trailing_bytes = (flags & 16) != 0;
  o.strict_utf8 = (flags & 32) != 0;
  io.Int(o.max_depth, 0, serdiff::cql::kMaxNestingDepth);
}

// ---- generators ---------------------------------------------------------------------------------

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

rc::Gen<int> Percent() {
  return rc::gen::weightedOneOf<int>({{3, rc::gen::just(0)},
                                      {2, rc::gen::just(33)},
                                      {1, rc::gen::just(100)},
                                      {1, rc::gen::just(90)},
                                      {3, rc::gen::inRange(0, 101)}});
}

Type GenTypeNow(int depth, int max_depth) {
  const bool composite = depth < max_depth && Roll(0, 100) < 55 - 8 * depth;
  if (!composite)
    return Type::Native(Pick(std::vector<Kind>(std::begin(serdiff::cql::kNativeKinds),
                                               std::end(serdiff::cql::kNativeKinds))));
  Type t;
  t.kind = Pick(std::vector<Kind>(std::begin(serdiff::cql::kCompositeKinds),
                                  std::end(serdiff::cql::kCompositeKinds)));
  size_t n = 1;
  if (t.kind == Kind::kMap) n = 2;
  if (t.kind == Kind::kTuple || t.kind == Kind::kUdt) n = Roll<size_t>(1, kMaxFields + 1);
  for (size_t i = 0; i < n; ++i) t.params.push_back(GenTypeNow(depth + 1, max_depth));
  NameFields(&t);
  return t;
}

std::string GenText(Kind k) {
  const int mode = Roll(0, 10);
  std::string s;
  if (mode < 3) {
    s = Pick(TextEdges());
  } else if (mode < 6) {
    const size_t n = *rc::gen::inRange<size_t>(0, 40);
    for (size_t i = 0; i < n; ++i) {
      const int cls = Roll(0, 10);
      uint32_t cp;
      if (k == Kind::kAscii || cls < 5) {
        cp = Roll<uint32_t>(0, 0x80);
      } else if (cls < 7) {
        cp = Roll<uint32_t>(0x80, 0x800);
      } else if (cls < 9) {
        cp = Roll<uint32_t>(0x800, 0x10000);
        if (cp >= 0xD800 && cp <= 0xDFFF) cp = 0xE000;
      } else {
        cp = Roll<uint32_t>(0x10000, 0x110000);
      }
      s += Cp(cp);
    }
  } else if (mode < 8) {
    s = *rc::gen::container<std::string>(rc::gen::inRange<char>('a', 'z' + 1));
  } else {
    s = *rc::gen::arbitrary<std::string>();
  }
  if (s.size() > kMaxString) s.resize(kMaxString);
  return s;
}

BigInt GenBigInt() {
  if (Roll(0, 3) < 2) return Pick(VarintEdgeTable());
  const bool neg = *rc::gen::arbitrary<bool>();
  std::string mag = *rc::gen::container<std::string>(rc::gen::arbitrary<char>());
  if (mag.size() > kMaxMagnitude) mag.resize(kMaxMagnitude);
  return BigInt::FromMagnitude(neg, mag);
}

Value GenGenericNow(int& budget, bool nested_ok) {
  const Shape s = static_cast<Shape>(Roll(0, nested_ok ? 14 : 12));
  switch (s) {
    case Shape::kNull:
      return Value::Null();
    case Shape::kUnset:
      return Value::Unset();
    case Shape::kEmpty:
      return Value::Empty();
    case Shape::kBool:
      return Value::Bool(*rc::gen::arbitrary<bool>());
    case Shape::kInt:
      return Value::Int(Pick(EdgeInt64()));
    case Shape::kFloat:
      return Value::Float(std::bit_cast<float>(Pick(FloatEdges())));
    case Shape::kDouble:
      return Value::Double(std::bit_cast<double>(Pick(DoubleEdges())));
    case Shape::kBytes:
      return Value::Bytes(GenText(Kind::kBlob));
    case Shape::kUuid:
      return Value::FromUuid(Pick(UuidEdges()));
    case Shape::kVarint:
      return Value::Varint(GenBigInt());
    case Shape::kDecimal:
      return Value::FromDecimal(Decimal{*rc::gen::arbitrary<int32_t>(), GenBigInt()});
    case Shape::kDuration:
      return Value::FromDuration(Pick(DurationEdges()));
    case Shape::kItems:
    case Shape::kPairs: {
      const bool pairs = s == Shape::kPairs;
      const uint32_t limit =
          std::min<uint32_t>(kGenericMaxItems, static_cast<uint32_t>(pairs ? budget / 2 : budget));
      const uint32_t n = *rc::gen::inRange<uint32_t>(0, limit + 1);
      std::vector<Value> items;
      for (uint32_t i = 0; i < n * (pairs ? 2 : 1); ++i) {
        Decrement(budget);
        items.push_back(GenGenericNow(budget, false));
      }
      return pairs ? Value::Pairs(std::move(items)) : Value::Items(std::move(items));
    }
  }
  return Value::Null();
}

Value GenValueNow(const Type& t, int null_pct, int& budget, bool top);

Value GenPresentNow(const Type& t, int null_pct, int& budget) {
  if (IsIntKind(t.kind)) {
    if (Roll(0, 2) == 0) return Value::Int(Pick(IntEdges(t.kind)));
    const auto [lo, hi] = IntRange(t.kind);
    return Value::Int(Roll<int64_t>(lo, hi == std::numeric_limits<int64_t>::max() ? hi : hi + 1));
  }
  switch (t.kind) {
    case Kind::kBoolean:
      return Value::Bool(*rc::gen::arbitrary<bool>());
    case Kind::kFloat:
      return Value::Float(Roll(0, 2) == 0 ? std::bit_cast<float>(Pick(FloatEdges()))
                                          : *rc::gen::arbitrary<float>());
    case Kind::kDouble:
      return Value::Double(Roll(0, 2) == 0 ? std::bit_cast<double>(Pick(DoubleEdges()))
                                           : *rc::gen::arbitrary<double>());
    case Kind::kText:
    case Kind::kAscii:
    case Kind::kBlob:
      return Value::Bytes(GenText(t.kind));
    case Kind::kInet:
      return Value::Inet(Pick(InetEdges()));
    case Kind::kUuid:
    case Kind::kTimeuuid: {
      Uuid u = Pick(UuidEdges());
      if (Roll(0, 2) == 0) {
        for (auto& b : u) b = *rc::gen::arbitrary<uint8_t>();
      }
      if (t.kind == Kind::kTimeuuid && Roll(0, 10) != 0) {
        u[6] = static_cast<uint8_t>((u[6] & 0x0F) | 0x10);
      }
      return Value::FromUuid(u);
    }
    case Kind::kVarint:
      return Value::Varint(GenBigInt());
    case Kind::kDecimal: {
      const int32_t scale = *rc::gen::weightedOneOf<int32_t>(
          {{3, rc::gen::inRange<int32_t>(-3, 10)},
           {1, rc::gen::elementOf(std::vector<int32_t>{std::numeric_limits<int32_t>::min(),
                                                       std::numeric_limits<int32_t>::max(), -1, 40,
                                                       41})},
           {1, rc::gen::arbitrary<int32_t>()}});
      return Value::FromDecimal(Decimal{scale, GenBigInt()});
    }
    case Kind::kDuration: {
      if (Roll(0, 2) == 0) return Value::FromDuration(Pick(DurationEdges()));
      const int sign = *rc::gen::elementOf(std::vector<int>{1, -1});
      Duration d;
      d.months = sign * *rc::gen::inRange<int32_t>(0, 1000);
      d.days = sign * *rc::gen::inRange<int32_t>(0, 40);
      d.nanos = sign * *rc::gen::inRange<int64_t>(0, int64_t{1} << 50);
      return Value::FromDuration(d);
    }
    case Kind::kList:
    case Kind::kSet:
    case Kind::kMap: {
      const bool map = t.kind == Kind::kMap;
      const uint32_t limit = map ? MapLimit(budget) : ListLimit(budget);
      const uint32_t n = *rc::gen::weightedOneOf<uint32_t>(
          {{1, rc::gen::just(uint32_t{0})}, {4, rc::gen::inRange<uint32_t>(0, limit + 1)}});
      std::vector<Value> items;
      for (uint32_t i = 0; i < std::min(n, limit) * (map ? 2 : 1); ++i) {
        items.push_back(GenValueNow(map ? t.params[i % 2] : t.params[0], null_pct, budget, false));
      }
      return map ? Value::Pairs(std::move(items)) : Value::Items(std::move(items));
    }
    case Kind::kTuple:
    case Kind::kUdt: {
      size_t n = t.params.size();
      // Omitted trailing UDT fields. (Short tuple values are legal too, but the corpus-file
      // form has no item count for tuples; exact tests and mutated bytes cover them.)
      if (t.kind == Kind::kUdt && Roll(0, 3) == 0) {
        n = Roll<size_t>(0, n + 1);
      }
      std::vector<Value> items;
      for (size_t i = 0; i < n; ++i)
        items.push_back(GenValueNow(t.params[i], null_pct, budget, false));
      return Value::Items(std::move(items));
    }
    default:
      return Value::Null();
  }
}

Value GenValueNow(const Type& t, int null_pct, int& budget, bool top) {
  Decrement(budget);
  const int r = Roll(0, 1000);
  if (top) {
    if (r < 40) return Value::Null();
    if (r < 70) return Value::Unset();
    if (r < 110) return Value::Empty();
    if (r < 140) return GenGenericNow(budget, true);
  } else {
    if (Roll(0, 100) < null_pct) return Value::Null();
    if (r < 25) return Value::Empty();
    if (r < 30) return Value::Unset();
    if (r < 40) return GenGenericNow(budget, true);
  }
  return GenPresentNow(t, null_pct, budget);
}

int GenVersion() {
  return *rc::gen::weightedElement<int>({{1, 1}, {3, 2}, {3, 3}, {6, 4}, {4, 5}});
}

// Decode options: the server-compatible defaults half of the time, otherwise each strict flag
// on with probability 1/2.
DecodeOptions GenOptionsNow() {
  DecodeOptions o;
  if (Roll(0, 2) == 0) return o;
  o.require_minimal_varint = Roll(0, 2) == 0;
  o.reject_short_tuples = Roll(0, 2) == 0;
  o.reject_negative_lengths = Roll(0, 2) == 0;
  o.require_time_in_day = Roll(0, 2) == 0;
  o.reject_duration_trailing_bytes = Roll(0, 2) == 0;
  o.strict_utf8 = Roll(0, 2) == 0;
  return o;
}

std::string ShowOptions(const DecodeOptions& o) {
  std::string s = absl::StrCat(" max_depth=", o.max_depth);
  if (o.require_minimal_varint) s += " require_minimal_varint";
  if (o.reject_short_tuples) s += " reject_short_tuples";
  if (o.reject_negative_lengths) s += " reject_negative_lengths";
  if (o.require_time_in_day) s += " require_time_in_day";
  if (o.reject_duration_trailing_bytes) s += " reject_duration_trailing_bytes";
  if (o.strict_utf8) s += " strict_utf8";
  return s;
}

std::string ShowDecodeInput(const DecodeInput& in) {
  return absl::StrCat("v", in.version, in.framed ? " [value] " : " payload ",
                      opt::TypeToString(in.type), ShowOptions(in.options), " bytes(",
                      in.bytes.size(), ")=", Hex(in.bytes.substr(0, 256)),
                      in.bytes.size() > 256 ? "..." : "");
}

// ---- running the codecs -----------------------------------------------------------------------

Output OptEncode(const EncodeInput& in) {
  if (in.framed) return opt::SerializeValue(in.type, in.value, in.version);
  return opt::Serialize(in.type, in.value, in.version);
}
Output RefEncode(const EncodeInput& in) {
  if (in.framed) return ref::SerializeValue(in.type, in.value, in.version);
  return ref::Serialize(in.type, in.value, in.version);
}

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

size_t WidestComponents(const Type& t) {
  size_t w = (t.kind == Kind::kTuple || t.kind == Kind::kUdt) ? t.params.size() : 1;
  for (const Type& p : t.params) w = std::max(w, WidestComponents(p));
  return w;
}

// The decode targets run the decoder and print the value: the decoder's bound plus the text
// (which grows by doubling: up to 3 x its final size while it is being reallocated).
int64_t DecodeHeapBound(const Type& t, size_t input_bytes, size_t output_bytes) {
  return DecodePeakBound(t, input_bytes) + 3 * static_cast<int64_t>(output_bytes) + kEncodeSlack;
}

}  // namespace

// ---- public helpers ---------------------------------------------------------------------------

int64_t DecodePeakBound(const Type& t, size_t input_bytes) {
  const int64_t factor = static_cast<int64_t>(sizeof(Value) * WidestComponents(t) / 4) + 2;
  return factor * static_cast<int64_t>(input_bytes) + 4096;
}

std::vector<int64_t> EdgeInt64() {
  constexpr int64_t kMin = std::numeric_limits<int64_t>::min();
  constexpr int64_t kMax = std::numeric_limits<int64_t>::max();
  std::vector<int64_t> v = {kMin, kMin + 1, -1, 0, 1, kMax - 1, kMax};
  for (int b = 7; b < 63; b += 8) {
    const int64_t p = int64_t{1} << b;
    v.insert(v.end(), {p - 1, p, -p, -p - 1});
  }
  return SortedUnique(std::move(v));
}

std::vector<BigInt> EdgeVarints() {
  std::vector<BigInt> v = {BigInt(),
                           BigInt::FromInt64(1),
                           BigInt::FromInt64(-1),
                           BigInt::FromInt64(std::numeric_limits<int64_t>::min()),
                           BigInt::FromInt64(std::numeric_limits<int64_t>::max()),
                           BigInt::FromInt128(std::numeric_limits<absl::int128>::min()),
                           BigInt::FromInt128(std::numeric_limits<absl::int128>::max())};
  for (int k = 0; k <= 300; k += (k < 80 ? 1 : 7)) {
    for (int d = -1; d <= 1; ++d) {
      v.push_back(BigInt::PowerOfTwo(false, k, d));
      v.push_back(BigInt::PowerOfTwo(true, k, d));
    }
  }
  for (int len = 1; len <= 40; ++len) {
    const int top = 8 * len - 1;  // an L-byte varint holds -2^top .. 2^top - 1
    v.push_back(BigInt::PowerOfTwo(false, top, -1));
    v.push_back(BigInt::PowerOfTwo(true, top, 0));
    if (len > 1) {
      v.push_back(BigInt::PowerOfTwo(false, top - 8, 0));
      v.push_back(BigInt::PowerOfTwo(true, top - 8, 1));
    }
  }
  std::vector<BigInt> out;
  for (BigInt& b : v) {
    if (b.magnitude().size() > kMaxMagnitude) continue;
    if (std::find(out.begin(), out.end(), b) == out.end()) out.push_back(std::move(b));
  }
  return out;
}

std::string Unhex(std::string_view hex) {
  std::string digits;
  for (char c : hex) {
    if (c != ' ' && c != '|' && c != '\n') digits.push_back(c);
  }
  return absl::HexStringToBytes(digits);
}

std::string Hex(std::string_view bytes) {
  return absl::BytesToHexString(absl::string_view(bytes.data(), bytes.size()));
}

Value ExpectedDecode(const Type& t, const Value& v) {
  switch (v.shape()) {
    case Shape::kItems: {
      const bool fields = t.kind == Kind::kUdt || t.kind == Kind::kTuple;
      if (fields && v.items().empty()) return Value::Empty();
      std::vector<Value> items;
      for (size_t i = 0; i < v.items().size(); ++i) {
        const Type& it =
            (t.kind == Kind::kList || t.kind == Kind::kSet) ? t.params[0] : t.params[i];
        items.push_back(ExpectedDecode(it, v.items()[i]));
      }
      if (fields) items.resize(t.params.size());
      return Value::Items(std::move(items));
    }
    case Shape::kPairs: {
      std::vector<Value> items;
      for (size_t i = 0; i < v.items().size(); ++i) {
        items.push_back(ExpectedDecode(t.params[i % 2], v.items()[i]));
      }
      return Value::Pairs(std::move(items));
    }
    default:
      return v;
  }
}

std::string ShowEncodeInput(const EncodeInput& in) {
  return absl::StrCat("v", in.version, in.framed ? " [value] " : " payload ",
                      opt::TypeToString(in.type), " = ", opt::FormatValue(in.type, in.value));
}

std::string MutatedBytes(const MutatedInput& in) {
  Output enc = RefEncode(in.base);
  std::string b = enc.ok() ? *enc : std::string();
  const size_t n = b.size();
  switch (in.op) {
    case 1:
      b.resize(n == 0 ? 0 : in.pos % (n + 1));
      break;
    case 2:
      if (n > 0) b[in.pos % n] = static_cast<char>(b[in.pos % n] ^ static_cast<char>(in.arg | 1));
      break;
    case 3:
      b.insert(b.begin() + static_cast<std::ptrdiff_t>(in.pos % (n + 1)),
               static_cast<char>(in.arg));
      break;
    case 4:
      if (n >= 4) {
        const size_t at = in.pos % (n - 3);
        for (int i = 0; i < 4; ++i)
          b[at + static_cast<size_t>(i)] = static_cast<char>(in.arg >> (24 - 8 * i));
      }
      break;
    case 5:
      b.append(in.arg % 8 + 1, static_cast<char>(in.arg >> 8));
      break;
    case 6:
      if (n > 0) b.erase(in.pos % n, 1);
      break;
    default:
      break;
  }
  return b;
}

std::string LargeShapeName(uint8_t shape) {
  static const char* kNames[kLargeShapes] = {"list<int>",
                                             "list<bigint>",
                                             "set<text>",
                                             "map<int, text>",
                                             "map<text, bigint>",
                                             "list<udt<u, a int, b text, c list<int>>>",
                                             "udt<big, a text, b text, c int, d blob>",
                                             "list<list<int>>",
                                             "tuple<text, list<int>, map<int, int>>"};
  return shape < kLargeShapes ? kNames[shape] : "?";
}

EncodeInput BuildLarge(const LargeSpec& spec) {
  EncodeInput in;
  in.version = std::clamp<int>(spec.version, 3, 5);
  absl::Status st = opt::ParseType(LargeShapeName(spec.shape % kLargeShapes), &in.type);
  (void)st;
  uint64_t rng = spec.seed;
  const uint32_t n = std::min(spec.count, kLargeMaxCount);
  const size_t text_cap = (size_t{16} << 20) / std::max<size_t>(n, 1);
  const size_t tlen = std::min<size_t>(spec.text_len, text_cap);
  auto maybe_null = [&]() { return SplitMix(&rng) % 100 < spec.null_pct; };
  auto text = [&](size_t len) {
    std::string s(len, 'a');
    uint64_t r = SplitMix(&rng);
    for (size_t i = 0; i < len; ++i) {
      if (i % 8 == 0) r = SplitMix(&rng);
      s[i] = static_cast<char>('a' + (r >> (8 * (i % 8))) % 26);
    }
    return Value::Text(std::move(s));
  };
  auto int32v = [&]() { return Value::Int(static_cast<int32_t>(SplitMix(&rng))); };
  std::vector<Value> items;
  switch (spec.shape % kLargeShapes) {
    case 0:
    case 1:
      items.reserve(n);
      for (uint32_t i = 0; i < n; ++i) {
        if (maybe_null()) {
          items.push_back(Value::Null());
        } else {
          items.push_back(spec.shape == 0 ? int32v()
                                          : Value::Int(static_cast<int64_t>(SplitMix(&rng))));
        }
      }
      in.value = Value::List(std::move(items));
      break;
    case 2:
      items.reserve(n);
      for (uint32_t i = 0; i < n; ++i) items.push_back(maybe_null() ? Value::Null() : text(tlen));
      in.value = Value::Set(std::move(items));
      break;
    case 3:
    case 4:
      items.reserve(2 * size_t{n});
      for (uint32_t i = 0; i < n; ++i) {
        if (spec.shape == 3) {
          items.push_back(int32v());
          items.push_back(maybe_null() ? Value::Null() : text(tlen));
        } else {
          items.push_back(text(std::max<size_t>(tlen, 1)));
          items.push_back(maybe_null() ? Value::Null()
                                       : Value::Int(static_cast<int64_t>(SplitMix(&rng))));
        }
      }
      in.value = Value::Pairs(std::move(items));
      break;
    case 5:
      items.reserve(n);
      for (uint32_t i = 0; i < n; ++i) {
        if (maybe_null()) {
          items.push_back(Value::Null());
          continue;
        }
        std::vector<Value> fields = {int32v(), text(tlen)};
        std::vector<Value> inner;
        for (uint64_t k = SplitMix(&rng) % 4; k > 0; --k) inner.push_back(int32v());
        fields.push_back(Value::List(std::move(inner)));
        fields.resize(SplitMix(&rng) % 4);  // 0..3 fields: omitted trailing fields
        items.push_back(Value::Udt(std::move(fields)));
      }
      in.value = Value::List(std::move(items));
      break;
    case 6: {
      const size_t len = std::min<size_t>(std::max<size_t>(spec.text_len, n), size_t{4} << 20);
      std::string blob(len, '\0');
      for (size_t i = 0; i < len; ++i) blob[i] = static_cast<char>(SplitMix(&rng));
      in.value = Value::Udt({text(len), maybe_null() ? Value::Null() : text(len), int32v(),
                             Value::Blob(std::move(blob))});
      break;
    }
    case 7:
      items.reserve(n);
      for (uint32_t i = 0; i < n; ++i) {
        if (maybe_null()) {
          items.push_back(Value::Null());
          continue;
        }
        std::vector<Value> inner;
        for (uint64_t k = SplitMix(&rng) % 8; k > 0; --k) inner.push_back(int32v());
        items.push_back(Value::List(std::move(inner)));
      }
      in.value = Value::List(std::move(items));
      break;
    case 8: {
      std::vector<Value> list, map;
      list.reserve(n);
      for (uint32_t i = 0; i < n; ++i) list.push_back(maybe_null() ? Value::Null() : int32v());
      for (uint32_t i = 0; i < n / 2; ++i) {
        map.push_back(int32v());
        map.push_back(maybe_null() ? Value::Null() : int32v());
      }
      in.value = Value::Tuple({text(std::min<size_t>(std::max<size_t>(spec.text_len, 1), 1 << 20)),
                               Value::List(std::move(list)), Value::Pairs(std::move(map))});
      break;
    }
  }
  return in;
}

rc::Gen<Type> GenType(int max_depth) {
  return rc::gen::exec([max_depth] { return GenTypeNow(0, max_depth); });
}

rc::Gen<EncodeInput> GenEncodeInput(bool nested) {
  return rc::gen::exec([nested] {
    EncodeInput in;
    in.version = GenVersion();
    in.framed = Roll(0, 10) < 3;
    in.type = GenTypeNow(0, nested ? *rc::gen::inRange(1, kMaxTypeDepth + 1) : 0);
    const int null_pct = *Percent();
    int budget = kNodeBudget;
    in.value = GenValueNow(in.type, null_pct, budget, true);
    return in;
  });
}

rc::Gen<LargeSpec> GenLargeSpec() {
  return rc::gen::exec([] {
    LargeSpec s;
    s.shape = Roll<uint8_t>(0, kLargeShapes);
    s.count =
        *rc::gen::weightedOneOf<uint32_t>({{2, rc::gen::just(kLargeMaxCount)},
                                           {3, rc::gen::inRange<uint32_t>(0, kLargeMaxCount + 1)},
                                           {2, rc::gen::inRange<uint32_t>(0, 5000)}});
    s.null_pct = static_cast<uint8_t>(*Percent());
    s.text_len = *rc::gen::weightedOneOf<uint32_t>(
        {{2, rc::gen::inRange<uint32_t>(0, 64)}, {1, rc::gen::inRange<uint32_t>(0, 200'001)}});
    s.seed = *rc::gen::arbitrary<uint64_t>();
    s.version = Roll<uint8_t>(3, 6);
    return s;
  });
}

harness::Domain<EncodeInput> EncodeDomain(bool nested) {
  harness::Domain<EncodeInput> d;
  d.type_name = nested ? "(version, framing, nested cql type, value)"
                       : "(version, framing, native cql type, value)";
  d.gen = GenEncodeInput(nested);
  const int max_depth = nested ? kMaxTypeDepth : 0;
  d.decode = [max_depth](FuzzedDataProvider& p) {
    EncodeInput in;
    FdpIn io{p};
    VisitEncodeInput(io, in, max_depth);
    return in;
  };
  d.encode = [max_depth](const EncodeInput& v, harness::FuzzInputWriter& w) {
    EncodeInput copy = v;
    FdpOut io{w};
    VisitEncodeInput(io, copy, max_depth);
  };
  d.show = ShowEncodeInput;
  return d;
}

harness::Domain<DecodeInput> DecodeDomain() {
  harness::Domain<DecodeInput> d;
  d.type_name = "(version, framing, options, cql type, bytes)";
  d.gen = rc::gen::exec([] {
    DecodeInput in;
    in.version = GenVersion();
    in.framed = Roll(0, 10) < 3;
    in.options = GenOptionsNow();
    in.options.max_depth = *rc::gen::weightedOneOf<int>(
        {{4, rc::gen::just(serdiff::cql::kDefaultMaxDepth)}, {1, rc::gen::inRange(0, 8)}});
    in.type = GenTypeNow(0, *rc::gen::inRange(0, kMaxTypeDepth + 1));
    const int mode = Roll(0, 10);
    if (mode < 4) {  // a valid encoding of a generated value
      const int null_pct = *Percent();
      int budget = kNodeBudget;
      EncodeInput e{in.type, GenValueNow(in.type, null_pct, budget, true), in.version, in.framed};
      Output b = RefEncode(e);
      if (b.ok()) in.bytes = *b;
    } else if (mode < 6) {  // a huge or negative count / length, then a few bytes
      in.bytes = Pick(std::vector<std::string>{"3b9aca00", "ffffffff", "7fffffff", "fffffffe",
                                               "80000000", "0000ffff", "ffff"});
      in.bytes = Unhex(in.bytes) +
                 *rc::gen::container<std::string>(Roll<size_t>(0, 9), rc::gen::arbitrary<char>());
    } else {
      in.bytes = *rc::gen::arbitrary<std::string>();
    }
    return in;
  });
  d.decode = [](FuzzedDataProvider& p) {
    DecodeInput in;
    FdpIn io{p};
    io.Int(in.version, 1, 5);
    io.Bool(in.framed);
    VisitOptions(io, in.options);
    VisitType(io, in.type, 0, kMaxTypeDepth);
    in.bytes = p.ConsumeRemainingBytesAsString();
    return in;
  };
  d.encode = [](const DecodeInput& v, harness::FuzzInputWriter& w) {
    DecodeInput c = v;
    FdpOut io{w};
    io.Int(c.version, 1, 5);
    io.Bool(c.framed);
    VisitOptions(io, c.options);
    VisitType(io, c.type, 0, kMaxTypeDepth);
    w.WriteRemainingBytes(c.bytes);
  };
  d.show = ShowDecodeInput;
  return d;
}

harness::Domain<MutatedInput> MutatedDomain() {
  harness::Domain<MutatedInput> d;
  d.type_name = "(encode input, options, mutation)";
  d.gen = rc::gen::exec([] {
    MutatedInput in;
    in.base = *GenEncodeInput(Roll(0, 3) != 0);
    in.options = GenOptionsNow();
    in.options.max_depth = *rc::gen::weightedOneOf<int>(
        {{4, rc::gen::just(serdiff::cql::kDefaultMaxDepth)}, {1, rc::gen::inRange(0, 6)}});
    in.op = Roll<uint8_t>(0, 7);
    in.pos = *rc::gen::arbitrary<uint32_t>();
    in.arg = *rc::gen::weightedOneOf<uint32_t>(
        {{1, rc::gen::elementOf(std::vector<uint32_t>{0xFFFFFFFF, 0xFFFFFFFE, 0x3B9ACA00,
                                                      0x7FFFFFFF, 0x80000000, 0, 1, 0xFFFF})},
         {2, rc::gen::arbitrary<uint32_t>()}});
    in.bytes = MutatedBytes(in);
    return in;
  });
  d.decode = [](FuzzedDataProvider& p) {
    MutatedInput in;
    FdpIn io{p};
    VisitOptions(io, in.options);
    io.Int(in.op, uint8_t{0}, uint8_t{6});
    io.Int(in.pos, uint32_t{0}, ~uint32_t{0});
    io.Int(in.arg, uint32_t{0}, ~uint32_t{0});
    VisitEncodeInput(io, in.base, kMaxTypeDepth);
    in.bytes = MutatedBytes(in);
    return in;
  };
  d.encode = [](const MutatedInput& v, harness::FuzzInputWriter& w) {
    MutatedInput c = v;
    FdpOut io{w};
    VisitOptions(io, c.options);
    io.Int(c.op, uint8_t{0}, uint8_t{6});
    io.Int(c.pos, uint32_t{0}, ~uint32_t{0});
    io.Int(c.arg, uint32_t{0}, ~uint32_t{0});
    VisitEncodeInput(io, c.base, kMaxTypeDepth);
  };
  d.show = [](const MutatedInput& in) {
    return absl::StrCat(ShowEncodeInput(in.base), "\n  mutation op=", in.op, " pos=", in.pos,
                        " arg=", in.arg, ShowOptions(in.options), "\n  bytes(", in.bytes.size(),
                        ")=", Hex(in.bytes.substr(0, 256)));
  };
  return d;
}

harness::Domain<LargeInput> LargeDomain() {
  harness::Domain<LargeInput> d;
  d.type_name = "(shape, count, null %, text length, seed, version)";
  d.gen = rc::gen::map(GenLargeSpec(), [](const LargeSpec& s) {
    return LargeInput{s, BuildLarge(s)};
  });
  d.decode = [](FuzzedDataProvider& p) {
    LargeSpec s;
    s.shape = p.ConsumeIntegralInRange<uint8_t>(0, kLargeShapes - 1);
    s.count = p.ConsumeIntegralInRange<uint32_t>(0, kLargeMaxCount);
    s.null_pct = p.ConsumeIntegralInRange<uint8_t>(0, 100);
    s.text_len = p.ConsumeIntegralInRange<uint32_t>(0, 200'000);
    s.seed = p.ConsumeIntegral<uint64_t>();
    s.version = p.ConsumeIntegralInRange<uint8_t>(3, 5);
    return LargeInput{s, BuildLarge(s)};
  };
  d.encode = [](const LargeInput& v, harness::FuzzInputWriter& w) {
    const LargeSpec& s = v.spec;
    w.WriteIntegralInRange<uint8_t>(s.shape, 0, kLargeShapes - 1);
    w.WriteIntegralInRange<uint32_t>(s.count, 0, kLargeMaxCount);
    w.WriteIntegralInRange<uint8_t>(s.null_pct, 0, 100);
    w.WriteIntegralInRange<uint32_t>(s.text_len, 0, 200'000);
    w.WriteIntegral<uint64_t>(s.seed);
    w.WriteIntegralInRange<uint8_t>(s.version, 3, 5);
  };
  d.show = [](const LargeInput& in) {
    const LargeSpec& s = in.spec;
    return absl::StrCat(LargeShapeName(s.shape), " count=", s.count, " nulls=", s.null_pct,
                        "% text_len=", s.text_len, " seed=", s.seed, " v", s.version);
  };
  return d;
}

// ---- typed fast path ----------------------------------------------------------------------------

namespace {

// Calls f(std::type_identity<T>{}) with the typed path's element type of kind k.
template <typename F>
auto WithElementType(Kind k, F&& f) {
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

template <typename T>
absl::Span<const T> ValuesOf(const AnyColumn& c) {
  if constexpr (std::is_same_v<T, bool>) return absl::Span<const bool>(c.b.get(), c.n);
  if constexpr (std::is_same_v<T, int8_t>) return c.i8;
  if constexpr (std::is_same_v<T, int16_t>) return c.i16;
  if constexpr (std::is_same_v<T, int32_t>) return c.i32;
  if constexpr (std::is_same_v<T, int64_t>) return c.i64;
  if constexpr (std::is_same_v<T, float>) return c.f32;
  if constexpr (std::is_same_v<T, double>) return c.f64;
  if constexpr (std::is_same_v<T, serdiff::cql::Uuid>) return c.uuid;
}

template <typename T>
serdiff::cql::ColumnView<T> ViewOf(const AnyColumn& c) {
  return {ValuesOf<T>(c), c.nulls};
}

// Fills `c` with n values of kind k (edge values now and then) and nulls at null_pct %;
// `bad` makes element n / 2 invalid for its kind when the kind has invalid values. Appends the
// same elements as Values to `tree` (interleaved with the map's other column by the caller).
void FillColumn(AnyColumn& c, Kind k, uint32_t n, uint8_t null_pct, bool bad, uint64_t* rng,
                std::vector<Value>* tree) {
  c.kind = k;
  c.n = n;
  const bool any_null = null_pct > 0 && n > 0;
  if (any_null) c.nulls.assign((n + 7) / 8, 0);
  WithElementType(k, [&](auto tag) {
    using T = typename decltype(tag)::type;
    if constexpr (std::is_same_v<T, bool>) {
      c.b = std::shared_ptr<bool[]>(new bool[n > 0 ? n : 1]());
    }
    for (uint32_t i = 0; i < n; ++i) {
      const uint64_t r = SplitMix(rng);
      const bool null = any_null && (null_pct >= 100 || r % 100 < null_pct);
      static constexpr uint64_t kEdges[] = {0, ~0ull, 1ull << 63, (1ull << 63) - 1};
      const uint64_t x = (r >> 8) % 8 == 0 ? kEdges[r % 4] : SplitMix(rng);
      T v{};
      if constexpr (std::is_same_v<T, serdiff::cql::Uuid>) {
        uint64_t y = SplitMix(rng);
        std::memcpy(v.data(), &x, 8);
        std::memcpy(v.data() + 8, &y, 8);
        if (k == Kind::kTimeuuid) v[6] = static_cast<uint8_t>((v[6] & 0x0F) | 0x10);
        if (bad && i == n / 2 && k == Kind::kTimeuuid) v[6] = 0x40;
      } else if constexpr (std::is_same_v<T, float>) {
        v = std::bit_cast<float>(static_cast<uint32_t>(x));
      } else if constexpr (std::is_same_v<T, double>) {
        v = std::bit_cast<double>(x);
      } else if constexpr (std::is_same_v<T, bool>) {
        v = (x & 1) != 0;
      } else {
        v = static_cast<T>(x);
        if (k == Kind::kTime) {
          v = static_cast<T>(x % 86'400'000'000'000ull);
          if (bad && i == n / 2) v = -1;
        }
      }
      if constexpr (std::is_same_v<T, bool>) {
        c.b[i] = v;
      } else if constexpr (std::is_same_v<T, int8_t>) {
        c.i8.push_back(v);
      } else if constexpr (std::is_same_v<T, int16_t>) {
        c.i16.push_back(v);
      } else if constexpr (std::is_same_v<T, int32_t>) {
        c.i32.push_back(v);
      } else if constexpr (std::is_same_v<T, int64_t>) {
        c.i64.push_back(v);
      } else if constexpr (std::is_same_v<T, float>) {
        c.f32.push_back(v);
      } else if constexpr (std::is_same_v<T, double>) {
        c.f64.push_back(v);
      } else {
        c.uuid.push_back(v);
      }
      if (null) c.nulls[i / 8] = static_cast<uint8_t>(c.nulls[i / 8] | (1u << (i % 8)));
      if (null) {
        tree->push_back(Value::Null());
      } else if constexpr (std::is_same_v<T, serdiff::cql::Uuid>) {
        tree->push_back(Value::FromUuid(v));
      } else if constexpr (std::is_same_v<T, float>) {
        tree->push_back(Value::Float(v));
      } else if constexpr (std::is_same_v<T, double>) {
        tree->push_back(Value::Double(v));
      } else if constexpr (std::is_same_v<T, bool>) {
        tree->push_back(Value::Bool(v));
      } else {
        tree->push_back(Value::Int(static_cast<int64_t>(v)));
      }
    }
    return 0;
  });
  if (any_null && std::all_of(c.nulls.begin(), c.nulls.end(), [](uint8_t x) { return x == 0; })) {
    c.nulls.clear();  // no null drawn: no bitmap
  }
}

}  // namespace

Type TypedType(uint8_t container, uint8_t key, uint8_t value) {
  const Type k = Type::Native(kTypedKinds[key % kTypedKindCount]);
  if (container % 3 == 2) return Type::Map(k, Type::Native(kTypedKinds[value % kTypedKindCount]));
  return container % 3 == 1 ? Type::Set(k) : Type::List(k);
}

TypedInput BuildTyped(const TypedSpec& spec) {
  auto built = std::make_shared<TypedBuilt>();
  uint64_t rng = spec.seed;
  const bool map = spec.container % 3 == 2;
  std::vector<Value> keys;
  std::vector<Value> values;
  const Kind kk = kTypedKinds[spec.key % kTypedKindCount];
  const Kind vk = kTypedKinds[spec.value % kTypedKindCount];
  FillColumn(built->keys, kk, spec.count, spec.null_pct, spec.bad, &rng, &keys);
  if (map) FillColumn(built->values, vk, spec.count, spec.null_pct, false, &rng, &values);
  std::vector<Value> items;
  if (map) {
    items.reserve(2 * keys.size());
    for (size_t i = 0; i < keys.size(); ++i) {
      items.push_back(std::move(keys[i]));
      items.push_back(std::move(values[i]));
    }
  } else {
    items = std::move(keys);
  }
  built->tree.type = TypedType(spec.container, spec.key, spec.value);
  built->tree.value = map ? Value::Pairs(std::move(items)) : Value::Items(std::move(items));
  built->tree.version = spec.version;
  built->tree.framed = false;
  return TypedInput{spec, std::move(built)};
}

std::string ShowTypedSpec(const TypedSpec& s) {
  return absl::StrCat("v", s.version, " ",
                      opt::TypeToString(TypedType(s.container, s.key, s.value)), " count=", s.count,
                      " nulls=", s.null_pct, "%", s.bad ? " bad" : "", " seed=", s.seed);
}

absl::StatusOr<std::string> TypedEncode(const TypedInput& in) {
  const TypedBuilt& b = *in.built;
  const int version = in.spec.version;
  if (in.spec.container % 3 != 2) {
    return WithElementType(b.keys.kind, [&](auto tag) {
      using T = typename decltype(tag)::type;
      return opt::SerializeFixedList<T>(b.keys.kind, ViewOf<T>(b.keys), version);
    });
  }
  return WithElementType(b.keys.kind, [&](auto ktag) {
    using K = typename decltype(ktag)::type;
    return WithElementType(b.values.kind, [&](auto vtag) {
      using V = typename decltype(vtag)::type;
      return opt::SerializeFixedMap<K, V>(b.keys.kind, ViewOf<K>(b.keys), b.values.kind,
                                          ViewOf<V>(b.values), version);
    });
  });
}

namespace {

template <typename IO>
void VisitTypedSpec(IO& io, TypedSpec& s) {
  io.Int(s.container, uint8_t{0}, uint8_t{2});
  io.Int(s.key, uint8_t{0}, static_cast<uint8_t>(kTypedKindCount - 1));
  io.Int(s.value, uint8_t{0}, static_cast<uint8_t>(kTypedKindCount - 1));
  io.Int(s.count, uint32_t{0}, kTypedMaxCount);
  io.Int(s.null_pct, uint8_t{0}, uint8_t{100});
  io.Bool(s.bad);
  io.Int(s.seed, uint64_t{0}, ~uint64_t{0});
  io.Int(s.version, uint8_t{1}, uint8_t{5});
}

template <typename IO>
void VisitTypedDecode(IO& io, TypedDecodeInput& in) {
  io.Int(in.container, uint8_t{0}, uint8_t{2});
  io.Int(in.key, uint8_t{0}, static_cast<uint8_t>(kTypedKindCount - 1));
  io.Int(in.value, uint8_t{0}, static_cast<uint8_t>(kTypedKindCount - 1));
  io.Int(in.version, 1, 5);
  VisitOptions(io, in.options);
}

// Canonical dump shared by both sides of cql_typed_decode: per element 'N' (null) or 'V' and
// 8 bytes (integers, date days, time, boolean 0/1, float and double bits) or 16 (uuid).
template <typename T>
void DumpTyped(const serdiff::cql::Column<T>& c, size_t i, std::string* out) {
  if (c.is_null(i)) {
    out->push_back('N');
    return;
  }
  out->push_back('V');
  const T& v = c.values[i];
  if constexpr (std::is_same_v<T, serdiff::cql::Uuid>) {
    out->append(reinterpret_cast<const char*>(v.data()), 16);
  } else {
    uint64_t bits;
    if constexpr (std::is_same_v<T, float>) {
      bits = std::bit_cast<uint32_t>(v);
    } else if constexpr (std::is_same_v<T, double>) {
      bits = std::bit_cast<uint64_t>(v);
    } else {
      bits = static_cast<uint64_t>(static_cast<int64_t>(v));
    }
    out->append(reinterpret_cast<const char*>(&bits), 8);
  }
}

size_t DumpWidth(Kind k) { return (k == Kind::kUuid || k == Kind::kTimeuuid) ? 17 : 9; }

void DumpValue(Kind k, const Value& v, std::string* out) {
  if (v.is_null()) {
    out->push_back('N');
    return;
  }
  out->push_back('V');
  if (k == Kind::kUuid || k == Kind::kTimeuuid) {
    out->append(reinterpret_cast<const char*>(v.uuid().data()), 16);
    return;
  }
  uint64_t bits;
  if (k == Kind::kFloat) {
    bits = std::bit_cast<uint32_t>(v.as_float());
  } else if (k == Kind::kDouble) {
    bits = std::bit_cast<uint64_t>(v.as_double());
  } else if (k == Kind::kBoolean) {
    bits = v.as_bool() ? 1 : 0;
  } else {
    bits = static_cast<uint64_t>(v.as_int());
  }
  out->append(reinterpret_cast<const char*>(&bits), 8);
}

Output TypedDecodeRun(const TypedDecodeInput& in) {
  const Kind kk = kTypedKinds[in.key % kTypedKindCount];
  const Kind vk = kTypedKinds[in.value % kTypedKindCount];
  if (in.container % 3 != 2) {
    return WithElementType(kk, [&](auto tag) -> Output {
      using T = typename decltype(tag)::type;
      absl::StatusOr<serdiff::cql::Column<T>> c =
          opt::DeserializeFixedList<T>(kk, in.bytes, in.version, in.options);
      if (!c.ok()) return c.status();
      std::string out;
      out.reserve(c->values.size() * DumpWidth(kk));
      for (size_t i = 0; i < c->values.size(); ++i) DumpTyped(*c, i, &out);
      return out;
    });
  }
  return WithElementType(kk, [&](auto ktag) -> Output {
    using K = typename decltype(ktag)::type;
    return WithElementType(vk, [&](auto vtag) -> Output {
      using V = typename decltype(vtag)::type;
      auto c = opt::DeserializeFixedMap<K, V>(kk, vk, in.bytes, in.version, in.options);
      if (!c.ok()) return c.status();
      std::string out;
      out.reserve(c->first.values.size() * (DumpWidth(kk) + DumpWidth(vk)));
      for (size_t i = 0; i < c->first.values.size(); ++i) {
        DumpTyped(c->first, i, &out);
        DumpTyped(c->second, i, &out);
      }
      return out;
    });
  });
}

// The Value-tree decoder's reading of the same input, dumped the same way. Inputs it reads
// with an Empty payload or element (no typed form) are declined.
Output TreeDecodeRun(const TypedDecodeInput& in) {
  const Type t = TypedType(in.container, in.key, in.value);
  absl::StatusOr<Value> v = opt::Deserialize(t, in.bytes, in.version, in.options);
  if (!v.ok()) return v.status();
  if (v->is_empty()) return harness::Declined("empty payload: no typed form");
  std::string out;
  const bool map = t.kind == Kind::kMap;
  for (size_t i = 0; i < v->items().size(); ++i) {
    const Value& e = v->items()[i];
    if (e.is_empty()) return harness::Declined("empty element: no typed form");
    DumpValue(map ? t.params[i % 2].kind : t.params[0].kind, e, &out);
  }
  return out;
}

}  // namespace

absl::StatusOr<std::string> TypedDecodeOutput(const TypedDecodeInput& in) {
  return TypedDecodeRun(in);
}
absl::StatusOr<std::string> TreeDecodeOutput(const TypedDecodeInput& in) {
  return TreeDecodeRun(in);
}

harness::Domain<TypedInput> TypedDomain() {
  harness::Domain<TypedInput> d;
  d.type_name = "(list/set/map, fixed-width kinds, count, null %, seed, version)";
  d.gen = rc::gen::exec([] {
    TypedSpec s;
    s.container = Roll<uint8_t>(0, 3);
    s.key = Roll<uint8_t>(0, kTypedKindCount);
    s.value = Roll<uint8_t>(0, kTypedKindCount);
    s.count =
        *rc::gen::weightedOneOf<uint32_t>({{3, rc::gen::inRange<uint32_t>(0, 40)},
                                           {1, rc::gen::element<uint32_t>(0, 1, 2, 65535, 65536)},
                                           {1, rc::gen::inRange<uint32_t>(0, 3000)}});
    s.null_pct = *rc::gen::element<uint8_t>(0, 1, 33, 99, 100);
    s.bad = Roll(0, 8) == 0;
    s.seed = *rc::gen::arbitrary<uint64_t>();
    s.version = Roll<uint8_t>(1, 6);
    return BuildTyped(s);
  });
  d.decode = [](FuzzedDataProvider& p) {
    TypedSpec s;
    FdpIn io{p};
    VisitTypedSpec(io, s);
    return BuildTyped(s);
  };
  d.encode = [](const TypedInput& v, harness::FuzzInputWriter& w) {
    TypedSpec s = v.spec;
    FdpOut io{w};
    VisitTypedSpec(io, s);
  };
  d.show = [](const TypedInput& in) { return ShowTypedSpec(in.spec); };
  return d;
}

harness::Domain<TypedDecodeInput> TypedDecodeDomain() {
  harness::Domain<TypedDecodeInput> d;
  d.type_name = "(list/set/map, fixed-width kinds, version, options, bytes)";
  d.gen = rc::gen::exec([] {
    TypedDecodeInput in;
    TypedSpec s;
    s.container = Roll<uint8_t>(0, 3);
    s.key = Roll<uint8_t>(0, kTypedKindCount);
    s.value = Roll<uint8_t>(0, kTypedKindCount);
    s.count = *rc::gen::weightedOneOf<uint32_t>(
        {{4, rc::gen::inRange<uint32_t>(0, 20)}, {1, rc::gen::inRange<uint32_t>(0, 2000)}});
    s.null_pct = *rc::gen::element<uint8_t>(0, 1, 33, 99, 100);
    s.seed = *rc::gen::arbitrary<uint64_t>();
    s.version = Roll<uint8_t>(1, 6);
    in.container = s.container;
    in.key = s.key;
    in.value = s.value;
    in.version = s.version;
    in.options = GenOptionsNow();
    if (Roll(0, 8) == 0) in.options.max_depth = Roll(0, 3);
    const int mode = Roll(0, 10);
    if (mode < 7) {  // a valid encoding, mutated 3 times in 4
      const TypedInput built = BuildTyped(s);
      Output b = RefEncode(built.built->tree);
      if (b.ok()) in.bytes = *b;
      if (mode >= 2 && !in.bytes.empty()) {
        const size_t pos = Roll<size_t>(0, in.bytes.size());
        switch (Roll(0, 5)) {
          case 0:
            in.bytes.resize(pos);
            break;
          case 1:
            in.bytes[pos] = static_cast<char>(in.bytes[pos] ^ (Roll(0, 255) | 1));
            break;
          case 2:
            in.bytes.insert(pos, 1, static_cast<char>(Roll(0, 256)));
            break;
          case 3: {
            const uint32_t v = *rc::gen::element<uint32_t>(0, 0xFFFFFFFF, 0xFFFFFFFE, 0x7FFFFFFF, 0,
                                                           3, 4, 8, 0xFFFF);
            for (size_t i = 0; i < 4 && pos + i < in.bytes.size(); ++i) {
              in.bytes[pos + i] = static_cast<char>(v >> (24 - 8 * i));
            }
            break;
          }
          default:
            in.bytes.erase(pos, 1);
        }
      }
    } else if (mode < 8) {
      in.bytes = Unhex(Pick(std::vector<std::string>{"3b9aca00", "7fffffff", "ffffffff", "ffff"})) +
                 *rc::gen::container<std::string>(Roll<size_t>(0, 9), rc::gen::arbitrary<char>());
    } else {
      in.bytes = *rc::gen::arbitrary<std::string>();
    }
    return in;
  });
  d.decode = [](FuzzedDataProvider& p) {
    TypedDecodeInput in;
    FdpIn io{p};
    VisitTypedDecode(io, in);
    in.bytes = p.ConsumeRemainingBytesAsString();
    return in;
  };
  d.encode = [](const TypedDecodeInput& v, harness::FuzzInputWriter& w) {
    TypedDecodeInput c = v;
    FdpOut io{w};
    VisitTypedDecode(io, c);
    w.WriteRemainingBytes(c.bytes);
  };
  d.show = [](const TypedDecodeInput& in) {
    return absl::StrCat(
        "v", in.version, " ", opt::TypeToString(TypedType(in.container, in.key, in.value)),
        ShowOptions(in.options), " bytes(", in.bytes.size(), ")=", Hex(in.bytes.substr(0, 256)));
  };
  return d;
}

}  // namespace cql

// ---- registration -------------------------------------------------------------------------------

void RegisterCqlTargets(harness::Registry& registry) {
  using namespace cql;  // NOLINT
  auto encode_target = [](std::string name, bool nested, std::string what) {
    harness::TargetDef<EncodeInput> def;
    def.name = std::move(name);
    def.description = std::move(what);
    def.domain = EncodeDomain(nested);
    def.optimized = {"optimized", OptEncode};
    def.references.push_back({"reference", RefEncode});
    def.references.push_back(
        {"optimized_buffer", harness::Role::kOptimizedTier, OptEncodeIntoBuffer});
    def.checks.push_back({"size-prediction", CheckSize});
    def.checks.push_back({"round-trip", CheckRoundTrip});
    def.heap_bound = [](const EncodeInput&, const std::string& out) {
      return static_cast<int64_t>(out.size()) + kEncodeSlack;
    };
    def.heap_bound_text = "output + 64 KiB";
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
    def.optimized = {"optimized", [](const LargeInput& in) { return OptEncode(in.input); }};
    def.references.push_back(
        {"reference", [](const LargeInput& in) { return RefEncode(in.input); }});
    def.checks.push_back({"size-prediction", [](const LargeInput& in, const std::string& out) {
                            return CheckSize(in.input, out);
                          }});
    def.heap_bound = [](const LargeInput&, const std::string& out) {
      return static_cast<int64_t>(out.size()) + kEncodeSlack;
    };
    def.heap_bound_text = "output + 64 KiB";
    def.show_output = [](const std::string& out) {
      return absl::StrCat(out.size(), " bytes, starting ", Hex(out.substr(0, 32)));
    };
    registry.Add(std::move(def));
  }

  {
    harness::TargetDef<DecodeInput> def;
    def.name = "cql_decode";
    def.description =
        "a CQL type plus arbitrary bytes (payload or [value], v1..v5, options): optimized vs "
        "reference decoder; output = canonical text of the decoded value";
    def.domain = DecodeDomain();
    def.optimized = {
        "optimized", [](const DecodeInput& in) {
          return AsText(in.type, OptDecode(in.type, in.bytes, in.version, in.framed, in.options));
        }};
    def.references.push_back(
        {"reference", [](const DecodeInput& in) {
           return AsText(in.type, RefDecode(in.type, in.bytes, in.version, in.framed, in.options));
         }});
    def.heap_bound = [](const DecodeInput& in, const std::string& out) {
      return DecodeHeapBound(in.type, in.bytes.size(), out.size());
    };
    def.heap_bound_text = "DecodePeakBound(type, input) + 3 x output + 64 KiB";
    // Both decoders report where the first invalid field starts (docs/architecture.md,
    // "Error offsets"); a missing or different offset fails the case.
    def.offsets = harness::OffsetPolicy::kRequired;
    def.show_output = [](const std::string& out) { return out; };
    registry.Add(std::move(def));
  }

  {
    harness::TargetDef<MutatedInput> def;
    def.name = "cql_decode_mutated";
    def.description =
        "a valid encoding with one mutation (truncate, flip, insert, overwrite a length or "
        "count, append, drop): optimized vs reference decoder; output = canonical text";
    def.domain = MutatedDomain();
    def.optimized = {"optimized", [](const MutatedInput& in) {
                       return AsText(in.base.type,
                                     OptDecode(in.base.type, in.bytes, in.base.version,
                                               in.base.framed, in.options));
                     }};
    def.references.push_back({"reference", [](const MutatedInput& in) {
                                return AsText(in.base.type,
                                              RefDecode(in.base.type, in.bytes, in.base.version,
                                                        in.base.framed, in.options));
                              }});
    def.heap_bound = [](const MutatedInput& in, const std::string& out) {
      return DecodeHeapBound(in.base.type, in.bytes.size(), out.size());
    };
    def.heap_bound_text = "DecodePeakBound(type, input) + 3 x output + 64 KiB";
    // Both decoders report where the first invalid field starts (docs/architecture.md,
    // "Error offsets"); a missing or different offset fails the case.
    def.offsets = harness::OffsetPolicy::kRequired;
    def.show_output = [](const std::string& out) { return out; };
    registry.Add(std::move(def));
  }

  {
    harness::TargetDef<EncodeInput> def;
    def.name = "cql_round_trip";
    def.description =
        "decode(encode(v)) with the optimized codec vs with the reference codec (canonical "
        "text), checked to give back v (UDT fields padded with null, zero length as empty)";
    def.domain = EncodeDomain(true);
    def.optimized = {
        "optimized", [](const EncodeInput& in) -> Output {
          Output enc = OptEncode(in);
          if (!enc.ok()) return enc.status();
          return AsText(in.type, OptDecode(in.type, *enc, in.version, in.framed, DecodeOptions{}));
        }};
    def.references.push_back(
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
    def.heap_bound = [](const EncodeInput& in, const std::string& out) {
      absl::StatusOr<size_t> n = in.framed ? opt::SerializedValueSize(in.type, in.value, in.version)
                                           : opt::SerializedSize(in.type, in.value, in.version);
      const size_t encoded = n.ok() ? *n : 0;
      return static_cast<int64_t>(encoded) + DecodeHeapBound(in.type, encoded, out.size());
    };
    def.heap_bound_text = "encoded + DecodePeakBound(type, encoded) + 3 x output + 64 KiB";
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
    def.references.push_back({"reference", [](const EncodeInput& in) -> Output {
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
    def.heap_bound = [](const EncodeInput&, const std::string&) -> int64_t { return 4096; };
    def.heap_bound_text = "4 KiB";
    def.show_output = [](const std::string& out) { return absl::StrCat(out, " bytes"); };
    registry.Add(std::move(def));
  }

  {
    harness::TargetDef<TypedInput> def;
    def.name = "cql_typed_encode";
    def.description =
        "list/set/map of fixed-width kinds from spans + null bitmap (0/1/33/99/100% nulls, "
        "counts 0, 1, 65535, 65536, v1..v5): typed SerializeFixedList/Map vs the Value-tree "
        "encoder vs the reference, byte for byte";
    def.domain = TypedDomain();
    def.optimized = {"optimized", [](const TypedInput& in) -> Output { return TypedEncode(in); }};
    def.references.push_back({"value_tree", harness::Role::kOptimizedTier,
                              [](const TypedInput& in) { return OptEncode(in.built->tree); }});
    def.references.push_back(
        {"reference", [](const TypedInput& in) { return RefEncode(in.built->tree); }});
    // Accepted: the one exact-size output allocation plus 64 bytes. Rejected: nothing but the
    // error status (its message and offset payload), at most 1 KiB.
    def.heap_bound = [](const TypedInput&, const Output& out) -> int64_t {
      return out.ok() ? static_cast<int64_t>(out->size()) + 64 : 1024;
    };
    def.heap_bound_text = "output + 64 (rejected: 1 KiB, the error status)";
    def.show_output = [](const std::string& out) {
      return absl::StrCat(out.size(), " bytes, starting ", Hex(out.substr(0, 32)));
    };
    registry.Add(std::move(def));
  }

  {
    harness::TargetDef<TypedDecodeInput> def;
    def.name = "cql_typed_decode";
    def.description =
        "arbitrary and mutated bytes as list/set/map of fixed-width kinds: typed "
        "DeserializeFixedList/Map vs the Value-tree decoder (error class, then every element); "
        "Value-tree results with empty elements are declined (no typed form)";
    def.domain = TypedDecodeDomain();
    def.optimized = {"optimized", TypedDecodeRun};
    def.references.push_back({"value_tree", harness::Role::kOptimizedTier, TreeDecodeRun});
    // Both decoders report where the first invalid field starts (docs/architecture.md,
    // "Error offsets"); a missing or different offset fails the case.
    def.offsets = harness::OffsetPolicy::kRequired;
    def.heap_bound = [](const TypedDecodeInput& in, const Output& result) -> int64_t {
      // The typed column (values + bitmap; both columns for a map) and the dump of it.
      const Kind kk = kTypedKinds[in.key % kTypedKindCount];
      const Kind vk = kTypedKinds[in.value % kTypedKindCount];
      const bool map = in.container % 3 == 2;
      auto size_of = [](Kind k) -> size_t {
        return WithElementType(k, [](auto tag) { return sizeof(typename decltype(tag)::type); });
      };
      if (!result.ok()) {
        // Rejected: the column may have been reserved for the count before an element failed,
        // but only once the count was checked against the bytes that remain, at 4 bytes (a
        // length: 2 bytes in v1/v2, 4 from v3) per element at least; plus the error status.
        const size_t n_max = in.bytes.size() / 2;
        const size_t column = n_max * (size_of(kk) + (map ? size_of(vk) : 0)) + 2 * (n_max / 8 + 1);
        return static_cast<int64_t>(column) + 1024;
      }
      const std::string& out = *result;
      // Elements in the dump: 'N' alone, or 'V' and the value (8 or 16 bytes).
      size_t n = 0;
      for (size_t i = 0; i < out.size(); ++n) {
        const Kind k = (map && n % 2 == 1) ? vk : kk;
        i += out[i] == 'N' ? 1 : DumpWidth(k);
      }
      if (map) n /= 2;
      const size_t column =
          n * size_of(kk) + (n + 7) / 8 + (map ? n * size_of(vk) + (n + 7) / 8 : 0);
      // The dump reserves its largest size (every element present) up front.
      const size_t dump = n * (DumpWidth(kk) + (map ? DumpWidth(vk) : 0));
      return static_cast<int64_t>(column + dump) + 64;
    };
    def.heap_bound_text =
        "typed column + its dump (reserved at full size) + 64 (rejected: a column of input/2 "
        "elements + 1 KiB)";
    registry.Add(std::move(def));
  }
}

SERDIFF_REGISTER_FAMILY("cql", RegisterCqlTargets);

}  // namespace serdiff::targets
