// Generators aimed at the CQL fixed-width collection loops:
//   * the typed path (src/serdiff/cql/typed.cc): the null bitmap (one bit per element, 8 per
//     byte), CountNulls with its mask for the last, partial bitmap byte, the one-8-byte-store
//     loop of list<int> without nulls, and the decoder's list<int> loop, which leaves its
//     fast path at the first element that is not a plain 4-byte int;
//   * the Value-tree fast paths: for these top-level lists the one-pass route
//     (SerializeFixedItemsOnePass, codec_write.cc: blocks of 8 checked then written, the tail
//     element by element), and behind it, for longer lists and nested ones, FixedItems in the
//     size pass (codec_size.cc) and WriteFixedItems in the write pass, which write valid elements
//     inline and send nulls and invalid values to the generic path.
// For n in {0..17, 63, 64, 65} (every position modulo the 8-bit bitmap byte and the 8-element
// word, the first and last byte, one past a 64-bit boundary) and for every position i < n: a
// column with exactly one null at i, and one where every element but i is null. Typed encode,
// Value-tree encode, reference encode and an independent expected-bytes writer in this file
// must agree byte for byte; typed decode gives the same values and the exact bitmap back, the
// Value-tree and reference decoders the same Value. A bad element (time out of range, a
// timeuuid of version 2, an int of 3 bytes) at every position is rejected by the typed,
// Value-tree and reference decoders at the same exact offset.
#include <gtest/gtest.h>

#include <bit>
#include <cstdint>
#include <memory>
#include <string>
#include <type_traits>
#include <vector>

#include "absl/strings/match.h"
#include "absl/strings/str_cat.h"
#include "harness/hex.h"
#include "reference/cql/codec_ref.h"
#include "serdiff/common/error_offset.h"
#include "serdiff/cql/codec.h"
#include "serdiff/cql/typed.h"
#include "targets/cql/domain.h"
#include "tests/cql_test_util.h"

namespace serdiff::cql {
namespace {

using harness::CompactHex;
using harness::Unhex;
using test_util::Be;
using test_util::kFixedListCounts;

// ---- an independent writer of the expected bytes ------------------------------------------

// Width in bytes of T on the wire.
template <typename T>
constexpr int WidthOf() {
  if constexpr (std::is_same_v<T, bool>) return 1;
  if constexpr (std::is_same_v<T, Uuid>) return 16;
  return sizeof(T);
}

// The big-endian payload of one element (v4 spec section 6; date: days + 2^31, 6.5).
template <typename T>
std::string PayloadOf(Kind k, const T& v) {
  if constexpr (std::is_same_v<T, bool>) {
    return std::string(1, v ? '\x01' : '\x00');
  } else if constexpr (std::is_same_v<T, Uuid>) {
    return std::string(reinterpret_cast<const char*>(v.data()), 16);
  } else if constexpr (std::is_same_v<T, float>) {
    return Be(std::bit_cast<uint32_t>(v), 4);
  } else if constexpr (std::is_same_v<T, double>) {
    return Be(std::bit_cast<uint64_t>(v), 8);
  } else {
    const int64_t x = k == Kind::kDate ? static_cast<int64_t>(v) + (int64_t{1} << 31) : v;
    return Be(static_cast<uint64_t>(x), sizeof(T));
  }
}

template <typename T>
Value ValueOf(const T& v) {
  if constexpr (std::is_same_v<T, bool>) return Value::Bool(v);
  if constexpr (std::is_same_v<T, Uuid>) return Value::FromUuid(v);
  if constexpr (std::is_same_v<T, float>) return Value::Float(v);
  if constexpr (std::is_same_v<T, double>) return Value::Double(v);
  if constexpr (std::is_integral_v<T> && !std::is_same_v<T, bool>) return Value::Int(v);
}

// Count then elements: null FF FF FF FF, else [int] (v1/v2: [short]) length and payload.
template <typename T>
std::string ExpectedBytes(Kind k, const std::vector<T>& v, const std::vector<bool>& null,
                          bool short_form) {
  const int prefix = short_form ? 2 : 4;
  std::string s = Be(v.size(), prefix);
  for (size_t i = 0; i < v.size(); ++i) {
    if (null[i]) {
      s += Be(0xffffffffu, 4);
    } else {
      s += Be(WidthOf<T>(), prefix) + PayloadOf(k, v[i]);
    }
  }
  return s;
}

// Offset of element i's payload in ExpectedBytes (v3+).
size_t BodyOffset(const std::vector<bool>& null, size_t i, int width) {
  size_t off = 4;
  for (size_t j = 0; j < i; ++j) off += null[j] ? 4 : 4 + width;
  return off + 4;
}

// A deterministic element i of kind k, valid, with varied high and low bits.
template <typename T>
T Make(Kind k, size_t i) {
  const uint64_t x = (i + 1) * 0x9e3779b97f4a7c15ull;
  if constexpr (std::is_same_v<T, bool>) {
    return i % 3 != 1;
  } else if constexpr (std::is_same_v<T, Uuid>) {
    Uuid u;
    for (int b = 0; b < 16; ++b) u[b] = static_cast<uint8_t>((x >> (8 * (b % 8))) + b);
    if (k == Kind::kTimeuuid) u[6] = static_cast<uint8_t>(0x10 | (u[6] & 0x0f));
    return u;
  } else if constexpr (std::is_same_v<T, float>) {
    return static_cast<float>(static_cast<int32_t>(x >> 40)) / 8.0f;
  } else if constexpr (std::is_same_v<T, double>) {
    return static_cast<double>(static_cast<int64_t>(x >> 11)) * 0.25;
  } else if constexpr (std::is_same_v<T, int64_t>) {
    if (k == Kind::kTime) return static_cast<int64_t>(x % 86'400'000'000'000ull);
    return static_cast<int64_t>(x);
  } else {
    return static_cast<T>(x >> (64 - 8 * sizeof(T)));
  }
}

// The values as a contiguous array (std::vector<bool> has none): what ColumnView points at.
template <typename T>
class Flat {
 public:
  explicit Flat(const std::vector<T>& v) : n_(v.size()), p_(new T[v.size() + 1]) {
    for (size_t i = 0; i < n_; ++i) p_[i] = v[i];
  }
  absl::Span<const T> span() const { return absl::Span<const T>(p_.get(), n_); }

 private:
  size_t n_;
  std::unique_ptr<T[]> p_;
};

std::vector<uint8_t> BitmapOf(const std::vector<bool>& null) {
  std::vector<uint8_t> bits((null.size() + 7) / 8, 0);
  for (size_t i = 0; i < null.size(); ++i) {
    if (null[i]) bits[i / 8] = static_cast<uint8_t>(bits[i / 8] | (1u << (i % 8)));
  }
  return bits;
}

// One column through every encoder and decoder; `null` marks the null positions, `bitmap` is
// what the typed encoder is given (BitmapOf(null), or that with bits past n set).
template <typename T>
void CheckColumn(Kind k, const std::vector<T>& values, const std::vector<bool>& null,
                 const std::vector<uint8_t>& bitmap, const std::string& where) {
  const size_t n = values.size();
  bool any_null = false;
  std::vector<Value> items;
  for (size_t i = 0; i < n; ++i) {
    any_null = any_null || null[i];
    items.push_back(null[i] ? Value::Null() : ValueOf(values[i]));
  }
  const Type type = Type::List(Type::Native(k));
  const Value tree = Value::Items(items);
  const Flat<T> flat(values);
  for (const int version : {4, 2}) {
    const std::string at = absl::StrCat(where, " v", version);
    absl::StatusOr<std::string> typed = SerializeFixedList<T>(k, {flat.span(), bitmap}, version);
    absl::StatusOr<std::string> fast = Serialize(type, tree, version);
    absl::StatusOr<std::string> ref = ref::cql::Serialize(type, tree, version);
    if (version == 2 && any_null) {  // a null has no [short] form
      EXPECT_EQ(typed.status().code(), absl::StatusCode::kInvalidArgument) << at;
      EXPECT_EQ(fast.status().code(), absl::StatusCode::kInvalidArgument) << at;
      EXPECT_EQ(ref.status().code(), absl::StatusCode::kInvalidArgument) << at;
      continue;
    }
    ASSERT_TRUE(typed.ok()) << at << ": " << typed.status();
    ASSERT_TRUE(fast.ok()) << at << ": " << fast.status();
    ASSERT_TRUE(ref.ok()) << at << ": " << ref.status();
    const std::string want = ExpectedBytes(k, values, null, version < 3);
    ASSERT_EQ(CompactHex(*typed), CompactHex(want)) << at << " typed";
    ASSERT_EQ(CompactHex(*fast), CompactHex(want)) << at << " value tree";
    ASSERT_EQ(CompactHex(*ref), CompactHex(want)) << at << " reference";
    EXPECT_EQ(*FixedListSize<T>(k, {flat.span(), bitmap}, version), want.size()) << at;

    // Decoding: the column back with the exact bitmap (empty without nulls), and the tree.
    Column<T> col;
    for (size_t i = 0; i < n; ++i) col.values.push_back(null[i] ? T{} : values[i]);
    if (any_null) col.nulls = BitmapOf(null);
    absl::StatusOr<Column<T>> back = DeserializeFixedList<T>(k, want, version);
    ASSERT_TRUE(back.ok()) << at << ": " << back.status();
    EXPECT_TRUE(*back == col) << at << " typed decode";
    absl::StatusOr<Value> fast_back = Deserialize(type, want, version);
    ASSERT_TRUE(fast_back.ok()) << at << ": " << fast_back.status();
    EXPECT_TRUE(*fast_back == tree) << at << " value-tree decode";
    absl::StatusOr<Value> ref_back = ref::cql::Deserialize(type, want, version);
    ASSERT_TRUE(ref_back.ok()) << at << ": " << ref_back.status();
    EXPECT_TRUE(*ref_back == tree) << at << " reference decode";
  }
}

template <typename T>
void EveryNullPosition(Kind k) {
  for (size_t n : kFixedListCounts) {
    std::vector<T> values;
    for (size_t i = 0; i < n; ++i) values.push_back(Make<T>(k, i));
    const std::string kind(KindName(k));
    const std::vector<bool> none(n, false);
    CheckColumn<T>(k, values, none, {}, absl::StrCat(kind, " n ", n));
    CheckColumn<T>(k, values, none, BitmapOf(none), absl::StrCat(kind, " n ", n, " zero bitmap"));
    for (size_t i = 0; i < n; ++i) {
      std::vector<bool> one(n, false);
      one[i] = true;
      CheckColumn<T>(k, values, one, BitmapOf(one), absl::StrCat(kind, " n ", n, " null at ", i));
      std::vector<bool> all_but(n, true);
      all_but[i] = false;
      CheckColumn<T>(k, values, all_but, BitmapOf(all_but),
                     absl::StrCat(kind, " n ", n, " only ", i, " present"));
      // Bits past n and a longer bitmap are not elements: the same bytes.
      std::vector<uint8_t> dirty = BitmapOf(all_but);
      dirty.back() = static_cast<uint8_t>(dirty.back() | ~((1u << (n % 8 == 0 ? 8 : n % 8)) - 1));
      dirty.push_back(0xff);
      CheckColumn<T>(k, values, all_but, dirty,
                     absl::StrCat(kind, " n ", n, " only ", i, " present, bits past n set"));
    }
  }
}

// ---- exact values ---------------------------------------------------------------------------

// list<int> of 9 elements 1..9 with a null at 8 (bit 0 of the second bitmap byte, the partial
// last byte): count 9, eight (00000004, value) pairs, then FF FF FF FF.
TEST(FastpathCqlFixed, ListOfNineIntsWithNullAt8) {
  const std::vector<int32_t> v = {1, 2, 3, 4, 5, 6, 7, 8, 0};
  const std::vector<uint8_t> bits = {0x00, 0x01};
  const std::string want = Unhex(
      "00000009"
      "00000004 00000001 00000004 00000002 00000004 00000003 00000004 00000004"
      "00000004 00000005 00000004 00000006 00000004 00000007 00000004 00000008"
      "ffffffff");
  absl::StatusOr<std::string> typed = SerializeFixedList<int32_t>(Kind::kInt, {v, bits}, 4);
  ASSERT_TRUE(typed.ok()) << typed.status();
  EXPECT_EQ(CompactHex(*typed), CompactHex(want));
  EXPECT_EQ(*FixedListSize<int32_t>(Kind::kInt, {v, bits}, 4), 4u + 8 * 8 + 4);
  const Value tree =
      Value::Items({Value::Int(1), Value::Int(2), Value::Int(3), Value::Int(4), Value::Int(5),
                    Value::Int(6), Value::Int(7), Value::Int(8), Value::Null()});
  const Type type = Type::List(Type::Native(Kind::kInt));
  EXPECT_EQ(CompactHex(*Serialize(type, tree, 4)), CompactHex(want));
  EXPECT_EQ(CompactHex(*ref::cql::Serialize(type, tree, 4)), CompactHex(want));
  absl::StatusOr<Column<int32_t>> back = DeserializeFixedList<int32_t>(Kind::kInt, want, 4);
  ASSERT_TRUE(back.ok()) << back.status();
  EXPECT_EQ(back->values, v);
  EXPECT_EQ(back->nulls, bits);
}

// list<smallint> of 3 with only element 1 present, given a bitmap whose unused bits are set
// (0xfd): count 3, FF FF FF FF, 00000002 FFFE, FF FF FF FF.
TEST(FastpathCqlFixed, BitmapBitsPastTheCountAreIgnored) {
  const std::vector<int16_t> v = {7, -2, 9};
  const std::vector<uint8_t> bits = {0xfd};
  absl::StatusOr<std::string> typed = SerializeFixedList<int16_t>(Kind::kSmallint, {v, bits}, 4);
  ASSERT_TRUE(typed.ok()) << typed.status();
  EXPECT_EQ(CompactHex(*typed), "00000003ffffffff00000002fffeffffffff");
  absl::StatusOr<Column<int16_t>> back = DeserializeFixedList<int16_t>(Kind::kSmallint, *typed, 4);
  ASSERT_TRUE(back.ok()) << back.status();
  EXPECT_EQ(back->values, (std::vector<int16_t>{0, -2, 0}));
  EXPECT_EQ(back->nulls, std::vector<uint8_t>{0x05});
}

// ---- generators: one null / one present element at every position -------------------------

TEST(FastpathCqlFixed, IntNullAtEveryPosition) { EveryNullPosition<int32_t>(Kind::kInt); }
TEST(FastpathCqlFixed, DateNullAtEveryPosition) { EveryNullPosition<int32_t>(Kind::kDate); }
TEST(FastpathCqlFixed, BigintNullAtEveryPosition) { EveryNullPosition<int64_t>(Kind::kBigint); }
TEST(FastpathCqlFixed, TimeNullAtEveryPosition) { EveryNullPosition<int64_t>(Kind::kTime); }
TEST(FastpathCqlFixed, BooleanNullAtEveryPosition) { EveryNullPosition<bool>(Kind::kBoolean); }
TEST(FastpathCqlFixed, TinyintNullAtEveryPosition) { EveryNullPosition<int8_t>(Kind::kTinyint); }
TEST(FastpathCqlFixed, SmallintNullAtEveryPosition) { EveryNullPosition<int16_t>(Kind::kSmallint); }
TEST(FastpathCqlFixed, FloatNullAtEveryPosition) { EveryNullPosition<float>(Kind::kFloat); }
TEST(FastpathCqlFixed, DoubleNullAtEveryPosition) { EveryNullPosition<double>(Kind::kDouble); }
TEST(FastpathCqlFixed, TimeuuidNullAtEveryPosition) { EveryNullPosition<Uuid>(Kind::kTimeuuid); }

// map<K, V>: a null key or a null value at every position (each column has its own bitmap).
template <typename K, typename V>
void MapNullAtEveryPosition(Kind kk, Kind vk) {
  const Type type = Type::Map(Type::Native(kk), Type::Native(vk));
  for (size_t n : kFixedListCounts) {
    std::vector<K> keys;
    std::vector<V> vals;
    for (size_t i = 0; i < n; ++i) {
      keys.push_back(Make<K>(kk, i));
      vals.push_back(Make<V>(vk, i + 100));
    }
    const Flat<K> fk(keys);
    const Flat<V> fv(vals);
    for (size_t i = 0; i <= n; ++i) {  // i == n: no null at all
      for (const bool key_side : {true, false}) {
        std::vector<bool> knull(n, false), vnull(n, false);
        if (i < n) (key_side ? knull : vnull)[i] = true;
        const std::string where = absl::StrCat(KindName(kk), "->", KindName(vk), " n ", n, " null ",
                                               key_side ? "key" : "value", " at ", i);
        std::string want = Be(n, 4);
        std::vector<Value> items;
        for (size_t j = 0; j < n; ++j) {
          want += knull[j] ? Be(0xffffffffu, 4) : Be(WidthOf<K>(), 4) + PayloadOf<K>(kk, keys[j]);
          want += vnull[j] ? Be(0xffffffffu, 4) : Be(WidthOf<V>(), 4) + PayloadOf<V>(vk, vals[j]);
          items.push_back(knull[j] ? Value::Null() : ValueOf<K>(keys[j]));
          items.push_back(vnull[j] ? Value::Null() : ValueOf<V>(vals[j]));
        }
        const Value tree = Value::Pairs(items);
        absl::StatusOr<std::string> typed = SerializeFixedMap<K, V>(
            kk, {fk.span(), BitmapOf(knull)}, vk, {fv.span(), BitmapOf(vnull)}, 4);
        ASSERT_TRUE(typed.ok()) << where << ": " << typed.status();
        ASSERT_EQ(CompactHex(*typed), CompactHex(want)) << where << " typed";
        ASSERT_EQ(CompactHex(*Serialize(type, tree, 4)), CompactHex(want))
            << where << " value tree";
        ASSERT_EQ(CompactHex(*ref::cql::Serialize(type, tree, 4)), CompactHex(want))
            << where << " reference";
        absl::StatusOr<std::pair<Column<K>, Column<V>>> back =
            DeserializeFixedMap<K, V>(kk, vk, want, 4);
        ASSERT_TRUE(back.ok()) << where << ": " << back.status();
        for (size_t j = 0; j < n; ++j) {
          EXPECT_EQ(back->first.values[j], knull[j] ? K{} : static_cast<K>(keys[j]))
              << where << " key " << j;
          EXPECT_EQ(back->second.values[j], vnull[j] ? V{} : static_cast<V>(vals[j]))
              << where << " value " << j;
        }
        const bool kn = i < n && key_side, vn = i < n && !key_side;
        EXPECT_EQ(back->first.nulls, kn ? BitmapOf(knull) : std::vector<uint8_t>{}) << where;
        EXPECT_EQ(back->second.nulls, vn ? BitmapOf(vnull) : std::vector<uint8_t>{}) << where;
        absl::StatusOr<Value> fast_back = Deserialize(type, want, 4);
        ASSERT_TRUE(fast_back.ok()) << where << ": " << fast_back.status();
        EXPECT_TRUE(*fast_back == tree) << where;
        absl::StatusOr<Value> ref_back = ref::cql::Deserialize(type, want, 4);
        ASSERT_TRUE(ref_back.ok()) << where << ": " << ref_back.status();
        EXPECT_TRUE(*ref_back == tree) << where;
      }
    }
  }
}

TEST(FastpathCqlFixed, MapNullKeyOrValueAtEveryPosition) {
  MapNullAtEveryPosition<int32_t, int64_t>(Kind::kInt, Kind::kBigint);
  MapNullAtEveryPosition<Uuid, bool>(Kind::kTimeuuid, Kind::kBoolean);
}

// ---- generators: a bad element at every position ------------------------------------------

// Decodes `bytes` as list<k> with every decoder; each must reject with InvalidArgument at
// `offset`.
template <typename T>
void ExpectRejectedAt(Kind k, const std::string& bytes, size_t offset, const std::string& where) {
  DecodeOptions options;
  options.require_time_in_day = true;
  const Type type = Type::List(Type::Native(k));
  absl::StatusOr<Column<T>> typed = DeserializeFixedList<T>(k, bytes, 4, options);
  absl::StatusOr<Value> fast = Deserialize(type, bytes, 4, options);
  absl::StatusOr<Value> ref = ref::cql::Deserialize(type, bytes, 4, options);
  ASSERT_FALSE(typed.ok()) << where;
  ASSERT_FALSE(fast.ok()) << where;
  ASSERT_FALSE(ref.ok()) << where;
  EXPECT_EQ(typed.status().code(), absl::StatusCode::kInvalidArgument) << where << typed.status();
  EXPECT_EQ(fast.status().code(), absl::StatusCode::kInvalidArgument) << where << fast.status();
  EXPECT_EQ(ref.status().code(), absl::StatusCode::kInvalidArgument) << where << ref.status();
  EXPECT_EQ(ErrorOffset(typed.status()), static_cast<int64_t>(offset)) << where;
  EXPECT_EQ(ErrorOffset(fast.status()), static_cast<int64_t>(offset)) << where;
  EXPECT_EQ(ErrorOffset(ref.status()), static_cast<int64_t>(offset)) << where;
}

// Null patterns for the elements around the bad one: none, and every third one.
std::vector<bool> NullsAround(size_t n, size_t bad, bool some) {
  std::vector<bool> null(n, false);
  if (some) {
    for (size_t j = 0; j < n; ++j) null[j] = j != bad && j % 3 == 0;
  }
  return null;
}

TEST(FastpathCqlFixed, OutOfRangeTimeAtEveryPositionIsRejectedThere) {
  for (size_t n : kFixedListCounts) {
    for (size_t i = 0; i < n; ++i) {
      for (const int64_t bad : {int64_t{-1}, int64_t{86'400'000'000'000}}) {
        for (const bool some : {false, true}) {
          const std::vector<bool> null = NullsAround(n, i, some);
          std::vector<int64_t> v;
          for (size_t j = 0; j < n; ++j) v.push_back(Make<int64_t>(Kind::kTime, j));
          v[i] = bad;
          const std::string where =
              absl::StrCat("n ", n, " bad at ", i, " value ", bad, some ? " with nulls" : "");
          const size_t body = BodyOffset(null, i, 8);
          ExpectRejectedAt<int64_t>(Kind::kTime, ExpectedBytes(Kind::kTime, v, null, false), body,
                                    where);
          // Encoding: every encoder rejects; the Value tree names the output offset.
          const Type type = Type::List(Type::Native(Kind::kTime));
          std::vector<Value> items;
          for (size_t j = 0; j < n; ++j)
            items.push_back(null[j] ? Value::Null() : Value::Int(v[j]));
          absl::StatusOr<std::string> typed =
              SerializeFixedList<int64_t>(Kind::kTime, {v, BitmapOf(null)}, 4);
          absl::StatusOr<std::string> fast = Serialize(type, Value::Items(items), 4);
          absl::StatusOr<std::string> ref = ref::cql::Serialize(type, Value::Items(items), 4);
          EXPECT_EQ(typed.status().code(), absl::StatusCode::kInvalidArgument) << where;
          EXPECT_TRUE(absl::StrContains(typed.status().message(), absl::StrCat("element ", i, " ")))
              << where << typed.status();
          EXPECT_EQ(fast.status().code(), absl::StatusCode::kInvalidArgument) << where;
          EXPECT_TRUE(
              absl::StrContains(fast.status().message(), absl::StrCat("output offset ", body, ":")))
              << where << fast.status();
          EXPECT_EQ(ref.status().code(), absl::StatusCode::kInvalidArgument) << where;
        }
      }
    }
  }
}

TEST(FastpathCqlFixed, TimeuuidOfVersion2AtEveryPositionIsRejectedAtItsByte6) {
  for (size_t n : kFixedListCounts) {
    for (size_t i = 0; i < n; ++i) {
      for (const bool some : {false, true}) {
        const std::vector<bool> null = NullsAround(n, i, some);
        std::vector<Uuid> v;
        for (size_t j = 0; j < n; ++j) v.push_back(Make<Uuid>(Kind::kTimeuuid, j));
        v[i][6] = static_cast<uint8_t>(0x20 | (v[i][6] & 0x0f));
        const std::string where = absl::StrCat("n ", n, " bad at ", i, some ? " with nulls" : "");
        ExpectRejectedAt<Uuid>(Kind::kTimeuuid, ExpectedBytes(Kind::kTimeuuid, v, null, false),
                               BodyOffset(null, i, 16) + 6, where);
        const Type type = Type::List(Type::Native(Kind::kTimeuuid));
        std::vector<Value> items;
        for (size_t j = 0; j < n; ++j) {
          items.push_back(null[j] ? Value::Null() : Value::FromUuid(v[j]));
        }
        absl::StatusOr<std::string> typed =
            SerializeFixedList<Uuid>(Kind::kTimeuuid, {v, BitmapOf(null)}, 4);
        EXPECT_EQ(typed.status().code(), absl::StatusCode::kInvalidArgument) << where;
        EXPECT_TRUE(absl::StrContains(typed.status().message(), absl::StrCat("element ", i, " ")))
            << where << typed.status();
        EXPECT_EQ(Serialize(type, Value::Items(items), 4).status().code(),
                  absl::StatusCode::kInvalidArgument)
            << where;
        EXPECT_EQ(ref::cql::Serialize(type, Value::Items(items), 4).status().code(),
                  absl::StatusCode::kInvalidArgument)
            << where;
      }
    }
  }
}

// list<int>: element i is 3 or 5 bytes long. With 5 bytes and no null the input is long
// enough for the typed decoder's 8-bytes-per-element loop, which must leave its fast path at
// element i and report the element's payload offset, as the other decoders do.
TEST(FastpathCqlFixed, IntOfAnotherWidthAtEveryPositionIsRejectedAtItsPayload) {
  for (size_t n : kFixedListCounts) {
    for (size_t i = 0; i < n; ++i) {
      for (const bool some : {false, true}) {
        for (const int width : {3, 5}) {
          const std::vector<bool> null = NullsAround(n, i, some);
          std::string bytes = Be(n, 4);
          for (size_t j = 0; j < n; ++j) {
            if (null[j]) {
              bytes += Be(0xffffffffu, 4);
            } else if (j == i) {
              bytes += Be(width, 4) + std::string(width, '\x5a');
            } else {
              bytes += Be(4, 4) + Be(static_cast<uint32_t>(Make<int32_t>(Kind::kInt, j)), 4);
            }
          }
          ExpectRejectedAt<int32_t>(
              Kind::kInt, bytes, BodyOffset(null, i, 4),
              absl::StrCat("n ", n, " width ", width, " at ", i, some ? " with nulls" : ""));
        }
      }
    }
  }
}

}  // namespace
}  // namespace serdiff::cql
