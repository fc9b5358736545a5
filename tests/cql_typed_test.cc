// CQL typed fast path (serdiff/cql/typed.h): exact bytes, exact decoded columns, the v1/v2
// [short] framing limits, null bitmaps, error parity with the Value path, and peak heap.
#include <gtest/gtest.h>

#include <bit>
#include <cstdint>
#include <iostream>
#include <optional>
#include <string>
#include <vector>

#include "absl/strings/str_cat.h"
#include "harness/alloc_tracker.h"
#include "harness/hex.h"
#include "serdiff/common/error_offset.h"
#include "serdiff/cql/codec.h"
#include "serdiff/cql/literal.h"
#include "serdiff/cql/typed.h"
#include "targets/cql/domain.h"

namespace serdiff::cql {
namespace {

using harness::CompactHex;
using harness::Unhex;

std::vector<uint8_t> Bits(std::initializer_list<int> null_positions, size_t n) {
  std::vector<uint8_t> bits((n + 7) / 8, 0);
  for (int i : null_positions) bits[i / 8] = static_cast<uint8_t>(bits[i / 8] | (1 << (i % 8)));
  return bits;
}

TEST(CqlTypedEncode, ListOfIntWithNullWritesMinusOne) {
  const std::vector<int32_t> v = {1, 0, 3};
  const std::vector<uint8_t> nulls = Bits({1}, 3);
  absl::StatusOr<std::string> got = SerializeFixedList<int32_t>(Kind::kInt, {v, nulls}, 4);
  ASSERT_TRUE(got.ok()) << got.status();
  EXPECT_EQ(CompactHex(*got),
            "00000003"
            "00000004"
            "00000001"
            "ffffffff"
            "00000004"
            "00000003");
  // The Value path writes the same bytes.
  absl::StatusOr<std::string> tree =
      Serialize(Type::List(Type::Native(Kind::kInt)),
                Value::Items({Value::Int(1), Value::Null(), Value::Int(3)}), 4);
  ASSERT_TRUE(tree.ok());
  EXPECT_EQ(CompactHex(*tree), CompactHex(*got));
  EXPECT_EQ(*FixedListSize<int32_t>(Kind::kInt, {v, nulls}, 4), 24u);
  // No bitmap: no nulls.
  got = SerializeFixedList<int32_t>(Kind::kInt, {v, {}}, 4);
  EXPECT_EQ(CompactHex(*got),
            "00000003"
            "00000004"
            "00000001"
            "00000004"
            "00000000"
            "00000004"
            "00000003");
}

TEST(CqlTypedEncode, EveryKindWritesTheValuePathsBytes) {
  const std::vector<int32_t> days = {0, -1};
  EXPECT_EQ(CompactHex(*SerializeFixedList<int32_t>(Kind::kDate, {days, {}}, 4)),
            "00000002"
            "00000004"
            "80000000"
            "00000004"
            "7fffffff");
  const std::vector<int64_t> big = {-2};
  EXPECT_EQ(CompactHex(*SerializeFixedList<int64_t>(Kind::kBigint, {big, {}}, 4)),
            "00000001"
            "00000008"
            "fffffffffffffffe");
  const std::vector<int16_t> small = {-2};
  EXPECT_EQ(CompactHex(*SerializeFixedList<int16_t>(Kind::kSmallint, {small, {}}, 4)),
            "00000001"
            "00000002"
            "fffe");
  const std::vector<int8_t> tiny = {-128};
  EXPECT_EQ(CompactHex(*SerializeFixedList<int8_t>(Kind::kTinyint, {tiny, {}}, 4)),
            "00000001"
            "00000001"
            "80");
  const bool barr[] = {true, false};
  EXPECT_EQ(CompactHex(*SerializeFixedList<bool>(Kind::kBoolean, {barr, {}}, 4)),
            "00000002"
            "00000001"
            "01"
            "00000001"
            "00");
  const float f[] = {1.0f};
  EXPECT_EQ(CompactHex(*SerializeFixedList<float>(Kind::kFloat, {f, {}}, 4)),
            "00000001"
            "00000004"
            "3f800000");
  const double d[] = {-2.0};
  EXPECT_EQ(CompactHex(*SerializeFixedList<double>(Kind::kDouble, {d, {}}, 4)),
            "00000001"
            "00000008"
            "c000000000000000");
  Uuid u{};
  u[6] = 0x10;
  const Uuid us[] = {u};
  EXPECT_EQ(CompactHex(*SerializeFixedList<Uuid>(Kind::kTimeuuid, {us, {}}, 4)),
            "00000001"
            "00000010"
            "00000000000010000000000000000000");
  // map<int, bigint> {1: null, null: 7}
  const int32_t keys[] = {1, 0};
  const int64_t vals[] = {0, 7};
  const std::vector<uint8_t> knull = Bits({1}, 2);
  const std::vector<uint8_t> vnull = Bits({0}, 2);
  absl::StatusOr<std::string> m = SerializeFixedMap<int32_t, int64_t>(
      Kind::kInt, {keys, knull}, Kind::kBigint, {vals, vnull}, 4);
  ASSERT_TRUE(m.ok()) << m.status();
  EXPECT_EQ(CompactHex(*m),
            "00000002"
            "00000004"
            "00000001"
            "ffffffff"
            "ffffffff"
            "00000008"
            "0000000000000007");
}

TEST(CqlTypedEncode, ShortFramingInV1AndV2) {
  const int32_t v[] = {1, 2};
  EXPECT_EQ(CompactHex(*SerializeFixedList<int32_t>(Kind::kInt, {v, {}}, 2)),
            "0002"
            "0004"
            "00000001"
            "0004"
            "00000002");
  const int32_t k[] = {1};
  const int64_t x[] = {5};
  EXPECT_EQ(CompactHex(*SerializeFixedMap<int32_t, int64_t>(Kind::kInt, {k, {}}, Kind::kBigint,
                                                            {x, {}}, 1)),
            "0001"
            "0004"
            "00000001"
            "0008"
            "0000000000000005");
  // 2^16 - 1 elements fit the [short] count; 2^16 do not.
  std::vector<int32_t> max(65535, 7);
  absl::StatusOr<std::string> got = SerializeFixedList<int32_t>(Kind::kInt, {max, {}}, 2);
  ASSERT_TRUE(got.ok()) << got.status();
  EXPECT_EQ(got->size(), 2u + 65535u * 6u);
  EXPECT_EQ(CompactHex(got->substr(0, 8)), "ffff000400000007");
  max.push_back(7);
  EXPECT_EQ(SerializeFixedList<int32_t>(Kind::kInt, {max, {}}, 2).status().code(),
            absl::StatusCode::kInvalidArgument);
  EXPECT_TRUE(SerializeFixedList<int32_t>(Kind::kInt, {max, {}}, 3).ok());
  // No null in a [short] collection.
  const std::vector<uint8_t> nulls = Bits({0}, 2);
  EXPECT_EQ(SerializeFixedList<int32_t>(Kind::kInt, {v, nulls}, 2).status().code(),
            absl::StatusCode::kInvalidArgument);
}

TEST(CqlTypedEncode, RejectsWhatTheValuePathRejects) {
  using C = absl::StatusCode;
  const int64_t t[] = {-1};
  EXPECT_EQ(SerializeFixedList<int64_t>(Kind::kTime, {t, {}}, 4).status().code(),
            C::kInvalidArgument);
  EXPECT_FALSE(
      Serialize(Type::List(Type::Native(Kind::kTime)), Value::Items({Value::Int(-1)}), 4).ok());
  // A null time is not checked.
  const std::vector<uint8_t> nulls = Bits({0}, 1);
  EXPECT_TRUE(SerializeFixedList<int64_t>(Kind::kTime, {t, nulls}, 4).ok());
  Uuid v4{};
  v4[6] = 0x40;
  const Uuid u[] = {v4};
  EXPECT_EQ(SerializeFixedList<Uuid>(Kind::kTimeuuid, {u, {}}, 4).status().code(),
            C::kInvalidArgument);
  EXPECT_TRUE(SerializeFixedList<Uuid>(Kind::kUuid, {u, {}}, 4).ok());
  const int32_t i[] = {1, 2, 3, 4, 5, 6, 7, 8, 9};
  const uint8_t one_byte[] = {0};
  EXPECT_EQ(SerializeFixedList<int32_t>(Kind::kInt, {i, one_byte}, 4).status().code(),
            C::kInvalidArgument);  // 9 elements need 2 bitmap bytes
  EXPECT_EQ(SerializeFixedList<int32_t>(Kind::kBigint, {i, {}}, 4).status().code(),
            C::kInvalidArgument);  // kind does not match the element type
  EXPECT_EQ(SerializeFixedList<int32_t>(Kind::kInt, {i, {}}, 6).status().code(),
            C::kInvalidArgument);
  const int32_t k[] = {1, 2};
  const int32_t v[] = {1};
  EXPECT_EQ((SerializeFixedMap<int32_t, int32_t>(Kind::kInt, {k, {}}, Kind::kInt, {v, {}}, 4))
                .status()
                .code(),
            C::kInvalidArgument);
}

TEST(CqlTypedDecode, ReadsValuesAndNullBitmap) {
  absl::StatusOr<Column<int32_t>> got = DeserializeFixedList<int32_t>(
      Kind::kInt, Unhex("00000003 00000004 00000001 ffffffff 00000004 00000003"), 4);
  ASSERT_TRUE(got.ok()) << got.status();
  EXPECT_EQ(got->values, (std::vector<int32_t>{1, 0, 3}));
  EXPECT_EQ(got->nulls, (std::vector<uint8_t>{0x02}));
  EXPECT_TRUE(got->is_null(1));
  EXPECT_FALSE(got->is_null(0));
  // No nulls: no bitmap. A negative length other than -1 is null too (server default).
  got = DeserializeFixedList<int32_t>(Kind::kInt, Unhex("00000002 00000004 0000002a fffffffe"), 4);
  ASSERT_TRUE(got.ok());
  EXPECT_EQ(got->values, (std::vector<int32_t>{42, 0}));
  EXPECT_EQ(got->nulls, (std::vector<uint8_t>{0x02}));
  got = DeserializeFixedList<int32_t>(Kind::kInt, Unhex("00000001 00000004 0000002a"), 4);
  EXPECT_TRUE(got->nulls.empty());
  // v2 [short] framing; date bias.
  got = DeserializeFixedList<int32_t>(Kind::kDate, Unhex("0002 0004 80000000 0004 7fffffff"), 2);
  ASSERT_TRUE(got.ok()) << got.status();
  EXPECT_EQ(got->values, (std::vector<int32_t>{0, -1}));
  auto map = DeserializeFixedMap<int32_t, int64_t>(Kind::kInt, Kind::kBigint,
                                                   Unhex("00000001 00000004 00000001 ffffffff"), 4);
  ASSERT_TRUE(map.ok()) << map.status();
  EXPECT_EQ(map->first.values, (std::vector<int32_t>{1}));
  EXPECT_TRUE(map->first.nulls.empty());
  EXPECT_EQ(map->second.nulls, (std::vector<uint8_t>{0x01}));
}

// Same code and same ErrorOffset as the Value-tree decoder.
void ExpectSameErrorAsValuePath(const std::string& hex, absl::StatusCode code, int64_t offset,
                                int version = 4, DecodeOptions options = {}) {
  SCOPED_TRACE(hex);
  const std::string bytes = Unhex(hex);
  absl::StatusOr<Column<int32_t>> typed =
      DeserializeFixedList<int32_t>(Kind::kInt, bytes, version, options);
  absl::StatusOr<Value> tree =
      Deserialize(Type::List(Type::Native(Kind::kInt)), bytes, version, options);
  ASSERT_FALSE(typed.ok());
  ASSERT_FALSE(tree.ok());
  EXPECT_EQ(typed.status().code(), code) << typed.status();
  EXPECT_EQ(tree.status().code(), code) << tree.status();
  EXPECT_EQ(ErrorOffset(typed.status()), std::optional<int64_t>(offset)) << typed.status();
  EXPECT_EQ(ErrorOffset(tree.status()), std::optional<int64_t>(offset)) << tree.status();
}

TEST(CqlTypedDecode, RejectsExactlyWhatTheValuePathRejects) {
  using C = absl::StatusCode;
  ExpectSameErrorAsValuePath("3b9aca00", C::kOutOfRange, 0);
  ExpectSameErrorAsValuePath("00000002 00000000", C::kOutOfRange, 0);
  ExpectSameErrorAsValuePath("ffffffff", C::kInvalidArgument, 0);
  ExpectSameErrorAsValuePath("00000001 00000003 000001", C::kInvalidArgument, 8);
  ExpectSameErrorAsValuePath("00000001 00000004 00000001 00", C::kInvalidArgument, 12);
  ExpectSameErrorAsValuePath("00000001 00000008 00000001", C::kOutOfRange, 4);
  DecodeOptions strict;
  strict.reject_negative_lengths = true;
  ExpectSameErrorAsValuePath("00000001 fffffffe", C::kInvalidArgument, 4, 4, strict);
  ExpectSameErrorAsValuePath("0001 ffff 00000001", C::kOutOfRange, 2, 2);
  // An empty element or payload has no typed form.
  absl::StatusOr<Column<int32_t>> got =
      DeserializeFixedList<int32_t>(Kind::kInt, Unhex("00000001 00000000"), 4);
  EXPECT_EQ(got.status().code(), C::kFailedPrecondition);
  EXPECT_EQ(ErrorOffset(got.status()), std::optional<int64_t>(8));
  got = DeserializeFixedList<int32_t>(Kind::kInt, "", 4);
  EXPECT_EQ(got.status().code(), C::kFailedPrecondition);
  // Of several empty elements, the first one's offset: 16 in the list, 8 in the map.
  got = DeserializeFixedList<int32_t>(Kind::kInt,
                                      Unhex("00000003 00000004 00000001 00000000 00000000"), 4);
  EXPECT_EQ(got.status().code(), C::kFailedPrecondition);
  EXPECT_EQ(ErrorOffset(got.status()), std::optional<int64_t>(16));
  auto empties = DeserializeFixedMap<int32_t, int32_t>(
      Kind::kInt, Kind::kInt, Unhex("00000002 00000000 00000004 00000001 00000000 00000000"), 4);
  EXPECT_EQ(empties.status().code(), C::kFailedPrecondition);
  EXPECT_EQ(ErrorOffset(empties.status()), std::optional<int64_t>(8));
  // map<int, int>: one entry needs at least 8 bytes.
  auto map =
      DeserializeFixedMap<int32_t, int32_t>(Kind::kInt, Kind::kInt, Unhex("00000001 00000000"), 4);
  EXPECT_EQ(map.status().code(), C::kOutOfRange);
  EXPECT_EQ(ErrorOffset(map.status()), std::optional<int64_t>(0));
  // timeuuid version at byte 6 of the element; time range only with the flag.
  auto uu = DeserializeFixedList<Uuid>(
      Kind::kTimeuuid, Unhex("00000001 00000010 00000000000040000000000000000000"), 4);
  EXPECT_EQ(ErrorOffset(uu.status()), std::optional<int64_t>(14));
  auto tm =
      DeserializeFixedList<int64_t>(Kind::kTime, Unhex("00000001 00000008 ffffffffffffffff"), 4);
  ASSERT_TRUE(tm.ok());
  EXPECT_EQ(tm->values, (std::vector<int64_t>{-1}));
  DecodeOptions in_day;
  in_day.require_time_in_day = true;
  tm = DeserializeFixedList<int64_t>(Kind::kTime, Unhex("00000001 00000008 ffffffffffffffff"), 4,
                                     in_day);
  EXPECT_EQ(ErrorOffset(tm.status()), std::optional<int64_t>(8));
}

TEST(CqlTypedMemory, EncodeIsOneAllocationDecodeIsTheColumn) {
  std::vector<int32_t> v(100'000);
  for (size_t i = 0; i < v.size(); ++i) v[i] = static_cast<int32_t>(i * 2654435761u);
  std::vector<uint8_t> nulls((v.size() + 7) / 8, 0x21);
  std::string bytes;
  {
    harness::PeakHeapScope scope;
    absl::StatusOr<std::string> got = SerializeFixedList<int32_t>(Kind::kInt, {v, nulls}, 4);
    ASSERT_TRUE(got.ok());
    EXPECT_LE(scope.PeakBytes(), static_cast<int64_t>(got->size()) + 64);
    bytes = *got;
  }
  {
    harness::PeakHeapScope scope;
    absl::StatusOr<Column<int32_t>> got = DeserializeFixedList<int32_t>(Kind::kInt, bytes, 4);
    ASSERT_TRUE(got.ok());
    EXPECT_LE(scope.PeakBytes(), static_cast<int64_t>(4 * v.size() + nulls.size()) + 64);
    EXPECT_EQ(got->nulls, nulls);
  }
  {
    // A huge claimed count: rejected before anything is allocated.
    harness::PeakHeapScope scope;
    absl::StatusOr<Column<int32_t>> got =
        DeserializeFixedList<int32_t>(Kind::kInt, Unhex("7fffffff 00000004 00000001"), 4);
    EXPECT_EQ(got.status().code(), absl::StatusCode::kOutOfRange);
    EXPECT_LE(scope.PeakBytes(), 1024);
  }
}

// ---- CPU tiers -----------------------------------------------------------------------------

// kAvx512Emulated: the avx512 kernel's source over SIMDe, run on every CPU (typed.h).
constexpr TypedTier kForcedTiers[] = {TypedTier::kPortable, TypedTier::kSsse3, TypedTier::kAvx2,
                                      TypedTier::kAvx512, TypedTier::kAvx512Emulated};

// The bytes the Value path writes for `v` with nulls at the set bits of `nulls` (kind int,
// date or float), v4.
std::string TreeBytes(Kind k, const std::vector<int32_t>& v, const std::vector<uint8_t>& nulls) {
  std::vector<Value> items;
  for (size_t i = 0; i < v.size(); ++i) {
    if (NullBit(nulls, i)) {
      items.push_back(Value::Null());
    } else if (k == Kind::kFloat) {
      items.push_back(Value::Float(std::bit_cast<float>(v[i])));
    } else {
      items.push_back(Value::Int(v[i]));
    }
  }
  absl::StatusOr<std::string> out = Serialize(Type::List(Type::Native(k)), Value::Items(items), 4);
  return out.ok() ? *out : out.status().ToString();
}

TEST(CqlTypedTiers, TheMachineRunsThePortableTierAndAutoPicksASupportedOne) {
  EXPECT_TRUE(TypedTierSupported(TypedTier::kPortable));
  EXPECT_TRUE(TypedTierSupported(TypedTier::kAuto));
  EXPECT_NE(AutoTypedTier(), TypedTier::kAuto);
  EXPECT_TRUE(TypedTierSupported(AutoTypedTier()));
  EXPECT_EQ(TypedTierName(TypedTier::kAvx512), "avx512");
  EXPECT_EQ(TypedTierName(TypedTier::kAvx512Emulated), "avx512_emulated");
  EXPECT_NE(AutoTypedTier(), TypedTier::kAvx512Emulated) << "the emulation is for tests only";
#if SERDIFF_EXPECT_AVX512_EMULATION
  // Built with SIMDe (CMake's SERDIFF_AVX512_EMULATION): the avx512 kernel runs on every CPU.
  EXPECT_TRUE(TypedTierSupported(TypedTier::kAvx512Emulated));
#endif
  // A tier the CPU lacks is an error, not a crash (every tier this machine has is run below).
  for (TypedTier t : kForcedTiers) {
    const std::vector<int32_t> v = {1};
    absl::StatusOr<std::string> got = SerializeFixedList<int32_t>(Kind::kInt, {v, {}}, 4, t);
    EXPECT_EQ(got.ok(), TypedTierSupported(t)) << TypedTierName(t);
    if (!got.ok()) {
      EXPECT_EQ(got.status().code(), absl::StatusCode::kInvalidArgument);
    }
  }
  std::cout << "typed tiers on this machine: auto = " << TypedTierName(AutoTypedTier()) << "\n";
}

// Hand-derived bytes, every tier: 9 ints (one 8-element block and a tail of one, no bitmap),
// values chosen so that a swapped byte, a swapped element or a wrong length shows.
TEST(CqlTypedTiers, EveryTierWritesTheExactBytesOfABlockAndATail) {
  const std::vector<int32_t> v = {0x01020304, -1,         0,  0x7fffffff, INT32_MIN,
                                  5,          0x11223344, -2, 0x0a0b0c0d};
  const std::string want =
      "00000009"
      "00000004"
      "01020304"
      "00000004"
      "ffffffff"
      "00000004"
      "00000000"
      "00000004"
      "7fffffff"
      "00000004"
      "80000000"
      "00000004"
      "00000005"
      "00000004"
      "11223344"
      "00000004"
      "fffffffe"
      "00000004"
      "0a0b0c0d";
  for (TypedTier t : kForcedTiers) {
    if (!TypedTierSupported(t)) continue;
    absl::StatusOr<std::string> got = SerializeFixedList<int32_t>(Kind::kInt, {v, {}}, 4, t);
    ASSERT_TRUE(got.ok()) << got.status();
    EXPECT_EQ(CompactHex(*got), want) << TypedTierName(t);
    // date: the 2^31 bias flips the top bit of every value, nothing else.
    got = SerializeFixedList<int32_t>(Kind::kDate, {v, {}}, 4, t);
    ASSERT_TRUE(got.ok());
    EXPECT_EQ(CompactHex(got->substr(4, 16)), "0000000481020304000000047fffffff")
        << TypedTierName(t);
  }
}

// Null bitmaps of every block kind (all null, none null, mixed, an all-null byte then a
// mixed tail) and lengths 0..40, for int, date and float in every tier, against the Value
// path; into a buffer as into a string.
TEST(CqlTypedTiers, EveryTierMatchesTheValuePathOnEveryNullBlockShape) {
  uint64_t rng = 0x9e3779b97f4a7c15ull;
  auto next = [&] {
    rng ^= rng << 13;
    rng ^= rng >> 7;
    rng ^= rng << 17;
    return rng;
  };
  const std::vector<uint8_t> patterns = {0x00, 0xFF, 0x01, 0x80, 0x7E, 0xA5, 0xFE};
  for (size_t n = 0; n <= 40; ++n) {
    for (int shape = 0; shape < 4; ++shape) {
      std::vector<int32_t> v(n);
      for (int32_t& x : v) x = static_cast<int32_t>(next());
      std::vector<uint8_t> nulls;
      if (shape > 0) {
        nulls.assign((n + 7) / 8, 0);
        for (size_t b = 0; b < nulls.size(); ++b) {
          nulls[b] = shape == 1   ? patterns[b % patterns.size()]
                     : shape == 2 ? patterns[(b + 3) % patterns.size()]
                                  : static_cast<uint8_t>(next());
        }
      }
      for (Kind k : {Kind::kInt, Kind::kDate, Kind::kFloat}) {
        const std::string want = TreeBytes(k, v, nulls);
        for (TypedTier t : kForcedTiers) {
          if (!TypedTierSupported(t)) continue;
          absl::StatusOr<std::string> got =
              k == Kind::kFloat
                  ? SerializeFixedList<float>(
                        k,
                        {absl::MakeConstSpan(reinterpret_cast<const float*>(v.data()), n), nulls},
                        4, t)
                  : SerializeFixedList<int32_t>(k, {v, nulls}, 4, t);
          ASSERT_TRUE(got.ok()) << got.status();
          ASSERT_EQ(CompactHex(*got), CompactHex(want))
              << TypedTierName(t) << " " << KindName(k) << " n=" << n << " shape=" << shape;
          if (k != Kind::kInt) continue;
          std::vector<uint8_t> buf(want.size() + 8, 0xAB);
          absl::StatusOr<size_t> wrote = SerializeFixedListInto<int32_t>(
              k, {v, nulls}, 4, absl::MakeSpan(buf.data(), want.size()), t);
          ASSERT_TRUE(wrote.ok()) << wrote.status();
          ASSERT_EQ(*wrote, want.size());
          EXPECT_EQ(std::string(buf.begin(), buf.begin() + want.size()), want);
          EXPECT_EQ(buf[want.size()], 0xAB) << "wrote past the payload";
        }
      }
    }
  }
}

TEST(CqlTypedTiers, IntoABufferTooShortWritesNothing) {
  const std::vector<int32_t> v = {1, 2};
  std::vector<uint8_t> buf(19, 0xAB);  // the payload is 20 bytes
  absl::StatusOr<size_t> wrote =
      SerializeFixedListInto<int32_t>(Kind::kInt, {v, {}}, 4, absl::MakeSpan(buf));
  EXPECT_EQ(wrote.status().code(), absl::StatusCode::kInvalidArgument);
  EXPECT_EQ(buf, std::vector<uint8_t>(19, 0xAB));
  buf.assign(20, 0);
  wrote = SerializeFixedListInto<int32_t>(Kind::kInt, {v, {}}, 4, absl::MakeSpan(buf));
  ASSERT_TRUE(wrote.ok());
  EXPECT_EQ(CompactHex(std::string(buf.begin(), buf.end())),
            "0000000200000004000000010000000400000002");
  // Other kinds and the v1/v2 form go through the same entry point.
  const std::vector<int64_t> big = {-1};
  std::vector<uint8_t> b2(2 + 2 + 8);
  wrote = SerializeFixedListInto<int64_t>(Kind::kBigint, {big, {}}, 2, absl::MakeSpan(b2));
  ASSERT_TRUE(wrote.ok());
  EXPECT_EQ(CompactHex(std::string(b2.begin(), b2.end())), "00010008ffffffffffffffff");
}

// Blocks of 8 nulls and mixed bytes for the kinds without a CPU tier (8- and 16-byte, 1- and
// 2-byte elements) against the Value path.
TEST(CqlTypedTiers, NullBlocksOfTheOtherKindsMatchTheValuePath) {
  const std::vector<uint8_t> nulls = {0xFF, 0x00, 0x5A, 0x01};
  std::vector<int64_t> v(27);
  for (size_t i = 0; i < v.size(); ++i) v[i] = static_cast<int64_t>(i * 0x0123456789abcdefull);
  std::vector<Value> items;
  for (size_t i = 0; i < v.size(); ++i)
    items.push_back(NullBit(nulls, i) ? Value::Null() : Value::Int(v[i]));
  absl::StatusOr<std::string> want =
      Serialize(Type::List(Type::Native(Kind::kBigint)), Value::Items(items), 4);
  ASSERT_TRUE(want.ok());
  absl::StatusOr<std::string> got = SerializeFixedList<int64_t>(Kind::kBigint, {v, nulls}, 4);
  ASSERT_TRUE(got.ok());
  EXPECT_EQ(CompactHex(*got), CompactHex(*want));
  EXPECT_EQ(CompactHex(got->substr(0, 4 + 32)), "0000001b" + std::string(64, 'f'));
  std::vector<int16_t> s(v.begin(), v.end());
  items.clear();
  for (size_t i = 0; i < s.size(); ++i)
    items.push_back(NullBit(nulls, i) ? Value::Null() : Value::Int(s[i]));
  want = Serialize(Type::List(Type::Native(Kind::kSmallint)), Value::Items(items), 4);
  got = SerializeFixedList<int16_t>(Kind::kSmallint, {s, nulls}, 4);
  ASSERT_TRUE(got.ok() && want.ok());
  EXPECT_EQ(CompactHex(*got), CompactHex(*want));
}

}  // namespace
}  // namespace serdiff::cql
