// CQL family: RapidCheck generators of the cql_* inputs (types nested to any depth, values
// leaning on the edge tables, decode options) and the deterministic builder of the large
// collections of cql_encode_large.
#include <algorithm>
#include <bit>
#include <cstdint>
#include <iterator>
#include <limits>
#include <string>
#include <utility>
#include <vector>

#include "absl/status/status.h"
#include "absl/strings/str_cat.h"
#include "harness/edges.h"
#include "harness/hex.h"
#include "serdiff/cql/literal.h"
#include "targets/cql/internal.h"

namespace serdiff::targets::cql {

rc::Gen<int> Percent() {
  return rc::gen::weightedOneOf<int>({{3, rc::gen::just(0)},
                                      {2, rc::gen::just(33)},
                                      {1, rc::gen::just(100)},
                                      {1, rc::gen::just(90)},
                                      {3, harness::UniformIn(0, 101)}});
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

namespace {

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
    s = *rc::gen::container<std::string>(harness::UniformIn<char>('a', 'z' + 1));
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
      return Value::Int(Pick(harness::EdgeInt64()));
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
          {{3, harness::UniformIn<int32_t>(-3, 10)},
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
      d.months = sign * *harness::UniformIn<int32_t>(0, 1000);
      d.days = sign * *harness::UniformIn<int32_t>(0, 40);
      d.nanos = sign * *harness::UniformIn<int64_t>(0, int64_t{1} << 50);
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

}  // namespace

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
  o.reject_empty_where_cassandra_does = Roll(0, 2) == 0;
  return o;
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
  // Parsed once: under fuzzing, parsing the type text cost as much as building a small value.
  static const std::vector<Type> kTypes = [] {
    std::vector<Type> types(kLargeShapes);
    for (uint8_t i = 0; i < kLargeShapes; ++i) {
      absl::Status st = opt::ParseType(LargeShapeName(i), &types[i]);
      (void)st;
    }
    return types;
  }();
  in.type = kTypes[spec.shape % kLargeShapes];
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

namespace {

// Values BuildLarge makes per element at most, by shape: list<udt> 7 (the UDT, three fields,
// up to three inner items), list<list<int>> 8 (the list and up to seven items), the tuple's
// list item and map entry 2; the big UDT has four fields whatever the count.
constexpr uint64_t kLargeValuesPerElement[kLargeShapes] = {1, 1, 1, 2, 2, 8, 0, 8, 2};

// Text and blob bytes BuildLarge makes at most (nulls not subtracted), with its caps.
uint64_t LargeTextBytes(const LargeSpec& spec) {
  const uint64_t n = std::min(spec.count, kLargeMaxCount);
  const uint64_t tlen =
      std::min<uint64_t>(spec.text_len, (uint64_t{16} << 20) / std::max<uint64_t>(n, 1));
  switch (spec.shape % kLargeShapes) {
    case 2:
    case 3:
    case 5:
      return n * tlen;
    case 4:
      return n * std::max<uint64_t>(tlen, 1);
    case 6:
      return 3 * std::min<uint64_t>(std::max<uint64_t>(spec.text_len, n), uint64_t{4} << 20);
    case 8:
      return std::min<uint64_t>(std::max<uint64_t>(spec.text_len, 1), uint64_t{1} << 20);
    default:
      return 0;
  }
}

}  // namespace

uint64_t LargeWork(const LargeSpec& spec) {
  const uint64_t n = std::min(spec.count, kLargeMaxCount);
  return n * kLargeValuesPerElement[spec.shape % kLargeShapes] +
         (LargeTextBytes(spec) + kLargeTextBytesPerUnit - 1) / kLargeTextBytesPerUnit;
}

// A spec over budget gets at most budget / 16 elements (so at most budget / 2 Values at 8 per
// element), then text_len of at most kLargeTextBytesPerUnit x budget / (6 x count): the text
// of every shape (n x text_len; 3 x max(text_len, n) for the big UDT) stays within about
// budget / 2 units. Total: at most budget + 1 units (the rounding up of the text).
void ClampLargeSpec(LargeSpec* spec, size_t pad_bytes) {
  const uint64_t budget = kLargeUnitsPerByte * pad_bytes;
  if (LargeWork(*spec) <= budget) return;
  spec->count = static_cast<uint32_t>(std::min<uint64_t>(spec->count, budget / 16));
  const uint64_t text_cap =
      kLargeTextBytesPerUnit * budget / (6 * std::max<uint64_t>(spec->count, 1));
  spec->text_len = static_cast<uint32_t>(std::min<uint64_t>(spec->text_len, text_cap));
}

size_t LargePadBytes(const LargeSpec& spec) {
  return static_cast<size_t>((LargeWork(spec) + kLargeUnitsPerByte - 1) / kLargeUnitsPerByte);
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
}  // namespace serdiff::targets::cql
