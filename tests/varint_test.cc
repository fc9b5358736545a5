// Exact-byte and exact-error tests for the varint family: the optimized codecs
// (serdiff::varint) and the reference (serdiff::ref::varint) run through the same typed
// tests; the optimized tiers against the reference, and protobuf's coded streams as an
// independent oracle for LEB128: tests/varint_tiers_test.cc.
//
// Every encode is checked three ways for the optimized side: single value (scalar tier),
// a batch long enough that the value goes through the word-at-a-time tier, and the exact
// string form. Every decode is checked with and without trailing padding (the word tier
// needs MaxBytes bytes of room; without padding the scalar tail decodes).
#include <cstdint>
#include <string>
#include <vector>

#include "absl/status/status.h"
#include "absl/strings/str_cat.h"
#include "absl/types/span.h"
#include "gmock/gmock.h"
#include "gtest/gtest.h"
#include "reference/varint/varint_ref.h"
#include "serdiff/common/error_offset.h"
#include "serdiff/varint/varint.h"
#include "tests/varint_test_util.h"

namespace serdiff::varint {
namespace {

using ::testing::HasSubstr;

// Shared with tests/varint_tiers_test.cc (tests/varint_test_util.h).
using test_util::Bytes;
using test_util::ExpectDecodeError;
using test_util::ExpectDecodes;
using test_util::ExpectRoundTrip;
using test_util::ExpectZigZag;
using test_util::FromHex;
using test_util::Hex;
using test_util::kI64Max;
using test_util::kI64Min;
using test_util::kU64Max;
using test_util::P2;

// ---- the two implementations behind one interface ----------------------------------------

struct Opt {
  static constexpr const char* kName = "optimized";
  static uint64_t EncodeZigZag64(int64_t v) { return varint::EncodeZigZag64(v); }
  static int64_t DecodeZigZag64(uint64_t u) { return varint::DecodeZigZag64(u); }
  static size_t MaxBytes(Format f) { return varint::MaxBytes(f); }
  static std::string_view FormatName(Format f) { return varint::FormatName(f); }
  static size_t EncodedSize(Format f, uint64_t v) { return varint::EncodedSize(f, v); }
  static uint8_t* WriteToArray(Format f, uint64_t v, uint8_t* out) {
    return varint::WriteToArray(f, v, out);
  }
  static absl::StatusOr<uint64_t> Read(Format f, absl::Span<const uint8_t> in, size_t* off) {
    return varint::Read(f, in, off);
  }
  static size_t EncodedBatchSize(Format f, absl::Span<const uint64_t> v) {
    return varint::EncodedBatchSize(f, v);
  }
  static size_t EncodedZigZagBatchSize(Format f, absl::Span<const int64_t> v) {
    return varint::EncodedZigZagBatchSize(f, v);
  }
  static absl::StatusOr<size_t> EncodeBatch(Format f, absl::Span<const uint64_t> v,
                                            absl::Span<uint8_t> out) {
    return varint::EncodeBatch(f, v, out);
  }
  static absl::StatusOr<size_t> EncodeZigZagBatch(Format f, absl::Span<const int64_t> v,
                                                  absl::Span<uint8_t> out) {
    return varint::EncodeZigZagBatch(f, v, out);
  }
  static std::string EncodeBatch(Format f, absl::Span<const uint64_t> v) {
    return varint::EncodeBatch(f, v);
  }
  static std::string EncodeZigZagBatch(Format f, absl::Span<const int64_t> v) {
    return varint::EncodeZigZagBatch(f, v);
  }
  static absl::StatusOr<size_t> DecodeBatch(Format f, absl::Span<const uint8_t> in,
                                            absl::Span<uint64_t> out) {
    return varint::DecodeBatch(f, in, out);
  }
  static absl::StatusOr<size_t> DecodeZigZagBatch(Format f, absl::Span<const uint8_t> in,
                                                  absl::Span<int64_t> out) {
    return varint::DecodeZigZagBatch(f, in, out);
  }
};

struct Ref {
  static constexpr const char* kName = "reference";
  static uint64_t EncodeZigZag64(int64_t v) { return ref::varint::EncodeZigZag64(v); }
  static int64_t DecodeZigZag64(uint64_t u) { return ref::varint::DecodeZigZag64(u); }
  static size_t MaxBytes(Format f) { return ref::varint::MaxBytes(f); }
  static std::string_view FormatName(Format f) { return ref::varint::FormatName(f); }
  static size_t EncodedSize(Format f, uint64_t v) { return ref::varint::EncodedSize(f, v); }
  static uint8_t* WriteToArray(Format f, uint64_t v, uint8_t* out) {
    return ref::varint::WriteToArray(f, v, out);
  }
  static absl::StatusOr<uint64_t> Read(Format f, absl::Span<const uint8_t> in, size_t* off) {
    return ref::varint::Read(f, in, off);
  }
  static size_t EncodedBatchSize(Format f, absl::Span<const uint64_t> v) {
    return ref::varint::EncodedBatchSize(f, v);
  }
  static size_t EncodedZigZagBatchSize(Format f, absl::Span<const int64_t> v) {
    return ref::varint::EncodedZigZagBatchSize(f, v);
  }
  static absl::StatusOr<size_t> EncodeBatch(Format f, absl::Span<const uint64_t> v,
                                            absl::Span<uint8_t> out) {
    return ref::varint::EncodeBatch(f, v, out);
  }
  static absl::StatusOr<size_t> EncodeZigZagBatch(Format f, absl::Span<const int64_t> v,
                                                  absl::Span<uint8_t> out) {
    return ref::varint::EncodeZigZagBatch(f, v, out);
  }
  static std::string EncodeBatch(Format f, absl::Span<const uint64_t> v) {
    return ref::varint::EncodeBatch(f, v);
  }
  static std::string EncodeZigZagBatch(Format f, absl::Span<const int64_t> v) {
    return ref::varint::EncodeZigZagBatch(f, v);
  }
  static absl::StatusOr<size_t> DecodeBatch(Format f, absl::Span<const uint8_t> in,
                                            absl::Span<uint64_t> out) {
    return ref::varint::DecodeBatch(f, in, out);
  }
  static absl::StatusOr<size_t> DecodeZigZagBatch(Format f, absl::Span<const uint8_t> in,
                                                  absl::Span<int64_t> out) {
    return ref::varint::DecodeZigZagBatch(f, in, out);
  }
};

// Opt, Ref and the typed suite stay in this file's anonymous namespace: the typed tests' ctest
// names spell the type parameter (serdiff::varint::(anonymous namespace)::Opt), and gtest wants
// one fixture type per suite, so every VarintTest test is defined here.
template <typename Impl>
class VarintTest : public ::testing::Test {};
using Impls = ::testing::Types<Opt, Ref>;
class ImplNames {
 public:
  template <typename T>
  static std::string GetName(int) {
    return T::kName;
  }
};
TYPED_TEST_SUITE(VarintTest, Impls, ImplNames);

// ---- names and limits ---------------------------------------------------------------------

TYPED_TEST(VarintTest, NamesAndMaxBytes) {
  EXPECT_EQ(TypeParam::FormatName(Format::kLeb128), "leb128");
  EXPECT_EQ(TypeParam::FormatName(Format::kFory), "fory");
  EXPECT_EQ(TypeParam::FormatName(Format::kVInt), "vint");
  EXPECT_EQ(TypeParam::MaxBytes(Format::kLeb128), 10u);
  EXPECT_EQ(TypeParam::MaxBytes(Format::kFory), 9u);
  EXPECT_EQ(TypeParam::MaxBytes(Format::kVInt), 9u);
}

// ---- ZigZag -------------------------------------------------------------------------------

TYPED_TEST(VarintTest, ZigZagExactValues) {
  EXPECT_EQ(TypeParam::EncodeZigZag64(0), 0u);
  EXPECT_EQ(TypeParam::EncodeZigZag64(-1), 1u);
  EXPECT_EQ(TypeParam::EncodeZigZag64(1), 2u);
  EXPECT_EQ(TypeParam::EncodeZigZag64(-2), 3u);
  EXPECT_EQ(TypeParam::EncodeZigZag64(2147483647), 4294967294u);
  EXPECT_EQ(TypeParam::EncodeZigZag64(-2147483648LL), 4294967295u);
  EXPECT_EQ(TypeParam::EncodeZigZag64(kI64Max), kU64Max - 1);
  EXPECT_EQ(TypeParam::EncodeZigZag64(kI64Min), kU64Max);
  EXPECT_EQ(TypeParam::EncodeZigZag64(-(int64_t{1} << 62)), P2(63) - 1);
  EXPECT_EQ(TypeParam::EncodeZigZag64(int64_t{1} << 62), P2(63));
  EXPECT_EQ(TypeParam::DecodeZigZag64(0), 0);
  EXPECT_EQ(TypeParam::DecodeZigZag64(1), -1);
  EXPECT_EQ(TypeParam::DecodeZigZag64(2), 1);
  EXPECT_EQ(TypeParam::DecodeZigZag64(kU64Max), kI64Min);
  EXPECT_EQ(TypeParam::DecodeZigZag64(kU64Max - 1), kI64Max);
  EXPECT_EQ(TypeParam::DecodeZigZag64(P2(63)), int64_t{1} << 62);
}

TYPED_TEST(VarintTest, ZigZagRoundTripsBoundaries) {
  for (int k = 0; k < 63; ++k) {
    for (const int64_t d : {-1, 0, 1}) {
      for (const int64_t sign : {1, -1}) {
        const int64_t v = sign * ((int64_t{1} << k) + d);
        EXPECT_EQ(TypeParam::DecodeZigZag64(TypeParam::EncodeZigZag64(v)), v) << v;
      }
    }
  }
}

// ---- LEB128 -------------------------------------------------------------------------------

TYPED_TEST(VarintTest, Leb128ExactBytes) {
  const Format f = Format::kLeb128;
  ExpectRoundTrip<TypeParam>(f, 0, "00");
  ExpectRoundTrip<TypeParam>(f, 1, "01");
  ExpectRoundTrip<TypeParam>(f, 127, "7f");
  ExpectRoundTrip<TypeParam>(f, 128, "80 01");
  ExpectRoundTrip<TypeParam>(f, 150, "96 01");
  ExpectRoundTrip<TypeParam>(f, 300, "ac 02");
  ExpectRoundTrip<TypeParam>(f, 16383, "ff 7f");
  ExpectRoundTrip<TypeParam>(f, 16384, "80 80 01");
  ExpectRoundTrip<TypeParam>(f, 0x0123456789ABCDEFULL, "ef 9b af cd f8 ac d1 91 01");
  ExpectRoundTrip<TypeParam>(f, P2(56) - 1, "ff*7 7f");
  ExpectRoundTrip<TypeParam>(f, P2(56), "80*8 01");
  ExpectRoundTrip<TypeParam>(f, P2(63) - 1, "ff*8 7f");
  ExpectRoundTrip<TypeParam>(f, P2(63), "80*9 01");
  ExpectRoundTrip<TypeParam>(f, kU64Max, "ff ff ff ff ff ff ff ff ff 01");
  // int64 -1 as plain (not zigzag) LEB128: cast to uint64.
  ExpectRoundTrip<TypeParam>(f, static_cast<uint64_t>(int64_t{-1}), "ff*9 01");
}

TYPED_TEST(VarintTest, Leb128EverySevenBitBoundary) {
  // 2^(7k) - 1 = k bytes (k - 1 of ff, then 7f); 2^(7k) = k bytes of 80, then 01.
  for (int k = 1; k <= 9; ++k) {
    const std::string below = absl::StrCat(k > 1 ? absl::StrCat("ff*", k - 1, " ") : "", "7f");
    const std::string at = absl::StrCat("80*", k, " 01");
    ExpectRoundTrip<TypeParam>(Format::kLeb128, P2(7 * k) - 1, below);
    ExpectRoundTrip<TypeParam>(Format::kLeb128, P2(7 * k), at);
  }
}

TYPED_TEST(VarintTest, Leb128ZigZagExactBytes) {
  const Format f = Format::kLeb128;
  ExpectZigZag<TypeParam>(f, 0, "00");
  ExpectZigZag<TypeParam>(f, -1, "01");
  ExpectZigZag<TypeParam>(f, 1, "02");
  ExpectZigZag<TypeParam>(f, -64, "7f");
  ExpectZigZag<TypeParam>(f, 64, "80 01");
  ExpectZigZag<TypeParam>(f, 150, "ac 02");
  ExpectZigZag<TypeParam>(f, kI64Min, "ff ff ff ff ff ff ff ff ff 01");
  ExpectZigZag<TypeParam>(f, kI64Max, "fe ff*8 01");
  ExpectZigZag<TypeParam>(f, int64_t{1} << 62, "80*9 01");
  ExpectZigZag<TypeParam>(f, -(int64_t{1} << 62) - 1, "81 80*8 01");
}

TYPED_TEST(VarintTest, Leb128AcceptsNonMinimalWithinTenBytes) {
  ExpectDecodes<TypeParam>(Format::kLeb128, "80 00", 0);
  ExpectDecodes<TypeParam>(Format::kLeb128, "ff 80 00", 127);
  ExpectDecodes<TypeParam>(Format::kLeb128, "80*9 00", 0);
  ExpectDecodes<TypeParam>(Format::kLeb128, "ff*9 00", P2(63) - 1);
}

// ---- Fory -----------------------------------------------------------------------------------

TYPED_TEST(VarintTest, ForyUnsignedExactBytes) {
  const Format f = Format::kFory;
  ExpectRoundTrip<TypeParam>(f, 0, "00");
  ExpectRoundTrip<TypeParam>(f, 127, "7f");
  ExpectRoundTrip<TypeParam>(f, 128, "80 01");
  ExpectRoundTrip<TypeParam>(f, 300, "ac 02");
  ExpectRoundTrip<TypeParam>(f, P2(56) - 1, "ff ff ff ff ff ff ff 7f");
  ExpectRoundTrip<TypeParam>(f, P2(56), "80*8 01");
  ExpectRoundTrip<TypeParam>(f, P2(63) - 1, "ff*8 7f");
  ExpectRoundTrip<TypeParam>(f, P2(63), "80*9");
  ExpectRoundTrip<TypeParam>(f, P2(63) + 1, "81 80*8");
  ExpectRoundTrip<TypeParam>(f, 0x0123456789ABCDEFULL, "ef 9b af cd f8 ac d1 91 01");
  ExpectRoundTrip<TypeParam>(f, 0xFEDCBA9876543210ULL, "90 e4 d0 b2 87 d3 ae ee fe");
  ExpectRoundTrip<TypeParam>(f, kU64Max, "ff*9");
  for (int k = 1; k <= 8; ++k) {  // every 7-bit boundary below 2^56 is LEB128's
    const std::string below = absl::StrCat(k > 1 ? absl::StrCat("ff*", k - 1, " ") : "", "7f");
    ExpectRoundTrip<TypeParam>(f, P2(7 * k) - 1, below);
    ExpectRoundTrip<TypeParam>(f, P2(7 * k), absl::StrCat("80*", k, " 01"));
  }
}

TYPED_TEST(VarintTest, ForySignedExactBytesSection31Table) {
  const Format f = Format::kFory;
  ExpectZigZag<TypeParam>(f, 0, "00");
  ExpectZigZag<TypeParam>(f, 1, "02");
  ExpectZigZag<TypeParam>(f, -1, "01");
  ExpectZigZag<TypeParam>(f, 64, "80 01");
  ExpectZigZag<TypeParam>(f, 1000000, "80 89 7a");
  ExpectZigZag<TypeParam>(f, (int64_t{1} << 62) - 1, "fe ff ff ff ff ff ff ff 7f");
  ExpectZigZag<TypeParam>(f, int64_t{1} << 62, "80 80 80 80 80 80 80 80 80");
  ExpectZigZag<TypeParam>(f, -(int64_t{1} << 62) - 1, "81 80 80 80 80 80 80 80 80");
  ExpectZigZag<TypeParam>(f, kI64Max, "fe ff ff ff ff ff ff ff ff");
  ExpectZigZag<TypeParam>(f, kI64Min, "ff ff ff ff ff ff ff ff ff");
  // -(2^52 + 1): zz = 2^53 + 1.
  ExpectZigZag<TypeParam>(f, -((int64_t{1} << 52) + 1), "81 80 80 80 80 80 80 10");
}

TYPED_TEST(VarintTest, ForyNinthByteIsEightBitsAndAlwaysLast) {
  // The 9th byte's top bit is a value bit, not a continuation: decoding stops after it.
  Bytes in = FromHex("80*8 ff 05");
  uint64_t out[2] = {0, 0};
  absl::StatusOr<size_t> n = TypeParam::DecodeBatch(Format::kFory, in, absl::MakeSpan(out));
  ASSERT_TRUE(n.ok()) << n.status();
  EXPECT_EQ(*n, 10u);
  EXPECT_EQ(out[0], uint64_t{0xFF} << 56);
  EXPECT_EQ(out[1], 5u);
  ExpectDecodes<TypeParam>(Format::kFory, "80*8 00", 0);  // non-minimal, accepted
}

// ---- Cassandra vint -------------------------------------------------------------------------

TYPED_TEST(VarintTest, VIntUnsignedExactBytesSection2Table) {
  const Format f = Format::kVInt;
  ExpectRoundTrip<TypeParam>(f, 0, "00");
  ExpectRoundTrip<TypeParam>(f, 127, "7f");
  ExpectRoundTrip<TypeParam>(f, 128, "80 80");
  ExpectRoundTrip<TypeParam>(f, 16383, "bf ff");
  ExpectRoundTrip<TypeParam>(f, 16384, "c0 40 00");
  ExpectRoundTrip<TypeParam>(f, P2(21) - 1, "df ff ff");
  ExpectRoundTrip<TypeParam>(f, P2(21), "e0 20 00 00");
  ExpectRoundTrip<TypeParam>(f, P2(28) - 1, "ef ff ff ff");
  ExpectRoundTrip<TypeParam>(f, P2(28), "f0 10 00 00 00");
  ExpectRoundTrip<TypeParam>(f, P2(35) - 1, "f7 ff ff ff ff");
  ExpectRoundTrip<TypeParam>(f, P2(35), "f8 08 00 00 00 00");
  ExpectRoundTrip<TypeParam>(f, P2(42) - 1, "fb ff ff ff ff ff");
  ExpectRoundTrip<TypeParam>(f, P2(42), "fc 04 00 00 00 00 00");
  ExpectRoundTrip<TypeParam>(f, P2(49) - 1, "fd ff ff ff ff ff ff");
  ExpectRoundTrip<TypeParam>(f, P2(49), "fe 02 00 00 00 00 00 00");
  ExpectRoundTrip<TypeParam>(f, P2(56) - 1, "fe ff ff ff ff ff ff ff");
  ExpectRoundTrip<TypeParam>(f, P2(56), "ff 01 00 00 00 00 00 00 00");
  ExpectRoundTrip<TypeParam>(f, P2(63), "ff 80 00 00 00 00 00 00 00");
  ExpectRoundTrip<TypeParam>(f, kU64Max, "ff ff ff ff ff ff ff ff ff");
  ExpectRoundTrip<TypeParam>(f, 256000, "c3 e8 00");
  ExpectRoundTrip<TypeParam>(f, 0x0123456789ABCDEFULL, "ff 01 23 45 67 89 ab cd ef");
}

TYPED_TEST(VarintTest, VIntSignedExactBytesSection2) {
  const Format f = Format::kVInt;
  ExpectZigZag<TypeParam>(f, 0, "00");
  ExpectZigZag<TypeParam>(f, -1, "01");
  ExpectZigZag<TypeParam>(f, 1, "02");
  ExpectZigZag<TypeParam>(f, 63, "7e");
  ExpectZigZag<TypeParam>(f, -64, "7f");
  ExpectZigZag<TypeParam>(f, 64, "80 80");
  ExpectZigZag<TypeParam>(f, -65, "80 81");
  ExpectZigZag<TypeParam>(f, 1000, "87 d0");
  ExpectZigZag<TypeParam>(f, -1000, "87 cf");
  ExpectZigZag<TypeParam>(f, 2147483647, "f0 ff ff ff fe");
  ExpectZigZag<TypeParam>(f, -2147483648LL, "f0 ff ff ff ff");
  ExpectZigZag<TypeParam>(f, int64_t{1} << 62, "ff 80 00 00 00 00 00 00 00");
  ExpectZigZag<TypeParam>(f, kI64Max, "ff ff ff ff ff ff ff ff fe");
  ExpectZigZag<TypeParam>(f, kI64Min, "ff*9");
}

TYPED_TEST(VarintTest, VIntAcceptsNonMinimal) {
  ExpectDecodes<TypeParam>(Format::kVInt, "80 00", 0);
  ExpectDecodes<TypeParam>(Format::kVInt, "c0 00 7f", 127);
  ExpectDecodes<TypeParam>(Format::kVInt, "ff 00 00 00 00 00 00 00 05", 5);
}

// ---- sizes ------------------------------------------------------------------------------------

TYPED_TEST(VarintTest, EncodedSizeAtEveryBitWidth) {
  // Bytes for a value of bit width w (1..64): LEB128 ceil(w / 7); Fory and vint the same,
  // capped at 9.
  for (int w = 1; w <= 64; ++w) {
    const size_t leb = static_cast<size_t>((w + 6) / 7);
    const size_t capped = leb > 9 ? 9 : leb;
    const uint64_t lo = w == 1 ? 0 : P2(w - 1);         // smallest value of width w
    const uint64_t hi = w == 64 ? kU64Max : P2(w) - 1;  // largest
    for (const uint64_t v : {lo, hi}) {
      EXPECT_EQ(TypeParam::EncodedSize(Format::kLeb128, v), leb) << v;
      EXPECT_EQ(TypeParam::EncodedSize(Format::kFory, v), capped) << v;
      EXPECT_EQ(TypeParam::EncodedSize(Format::kVInt, v), capped) << v;
    }
  }
}

TYPED_TEST(VarintTest, EmptyBatches) {
  for (const Format f : {Format::kLeb128, Format::kFory, Format::kVInt}) {
    EXPECT_EQ(TypeParam::EncodedBatchSize(f, {}), 0u);
    EXPECT_EQ(TypeParam::EncodeBatch(f, absl::Span<const uint64_t>()), "");
    absl::StatusOr<size_t> n =
        TypeParam::EncodeBatch(f, absl::Span<const uint64_t>(), absl::Span<uint8_t>());
    ASSERT_TRUE(n.ok());
    EXPECT_EQ(*n, 0u);
    n = TypeParam::DecodeBatch(f, absl::Span<const uint8_t>(), absl::Span<uint64_t>());
    ASSERT_TRUE(n.ok());
    EXPECT_EQ(*n, 0u);
  }
}

// ---- batches: consumed count, mixed lengths -----------------------------------------------------

TYPED_TEST(VarintTest, DecodeBatchReturnsExactConsumedCountWithTrailingBytes) {
  // 300, 1, 2^64-1 then five trailing bytes that would parse as more values.
  const Bytes in = FromHex("ac 02 01 ff*9 01 05 06 07 08 09");
  uint64_t out[3] = {0, 0, 0};
  absl::StatusOr<size_t> n = TypeParam::DecodeBatch(Format::kLeb128, in, absl::MakeSpan(out));
  ASSERT_TRUE(n.ok()) << n.status();
  EXPECT_EQ(*n, 13u);
  EXPECT_EQ(out[0], 300u);
  EXPECT_EQ(out[1], 1u);
  EXPECT_EQ(out[2], kU64Max);
  // Long batch followed by garbage-free trailing bytes: consumed stops at the last value.
  std::vector<uint64_t> values;
  for (int k = 0; k < 64; ++k) values.push_back(P2(k));
  for (const Format f : {Format::kLeb128, Format::kFory, Format::kVInt}) {
    std::string enc = TypeParam::EncodeBatch(f, values);
    const size_t size = enc.size();
    enc.append(20, '\x01');
    std::vector<uint64_t> got(values.size(), 0);
    n = TypeParam::DecodeBatch(
        f, absl::MakeConstSpan(reinterpret_cast<const uint8_t*>(enc.data()), enc.size()),
        absl::MakeSpan(got));
    ASSERT_TRUE(n.ok()) << n.status();
    EXPECT_EQ(*n, size);
    EXPECT_EQ(got, values);
  }
}

TYPED_TEST(VarintTest, ReadAdvancesOffsetAndLeavesItOnError) {
  const Bytes in = FromHex("01 ac 02 80");
  size_t off = 1;
  absl::StatusOr<uint64_t> v = TypeParam::Read(Format::kLeb128, in, &off);
  ASSERT_TRUE(v.ok()) << v.status();
  EXPECT_EQ(*v, 300u);
  EXPECT_EQ(off, 3u);
  v = TypeParam::Read(Format::kLeb128, in, &off);
  EXPECT_EQ(v.status().code(), absl::StatusCode::kOutOfRange);
  EXPECT_THAT(std::string(v.status().message()), HasSubstr("byte offset 3"));
  EXPECT_EQ(off, 3u);
  off = 4;  // at the end
  EXPECT_EQ(TypeParam::Read(Format::kVInt, in, &off).status().code(),
            absl::StatusCode::kOutOfRange);
  off = 9;  // past the end
  EXPECT_EQ(TypeParam::Read(Format::kFory, in, &off).status().code(),
            absl::StatusCode::kOutOfRange);
  EXPECT_EQ(off, 9u);
}

// ---- decode errors ------------------------------------------------------------------------------

TYPED_TEST(VarintTest, Leb128TooLongAndOverflowingTenthByte) {
  const auto kInvalid = absl::StatusCode::kInvalidArgument;
  // 11 bytes: the 10th byte still has the continuation bit.
  ExpectDecodeError<TypeParam>(Format::kLeb128, FromHex("ff*10 01"), 1, kInvalid, 0);
  ExpectDecodeError<TypeParam>(Format::kLeb128, FromHex("80*10 00"), 1, kInvalid, 0);
  // Exactly 10 continuation bytes and the end: too long, not truncated.
  ExpectDecodeError<TypeParam>(Format::kLeb128, FromHex("80*10"), 1, kInvalid, 0);
  // 10th byte 0x02 (and 0x7f) would set bits past 63.
  ExpectDecodeError<TypeParam>(Format::kLeb128, FromHex("ff*9 02"), 1, kInvalid, 0);
  ExpectDecodeError<TypeParam>(Format::kLeb128, FromHex("80*9 7f"), 1, kInvalid, 0);
  // At offset 12, after twelve 1-byte values, with and without trailing padding (word tier
  // vs scalar tier).
  for (const size_t pad : {size_t{0}, size_t{16}}) {
    Bytes in = FromHex("05*12 ff*9 02");
    in.insert(in.end(), pad, 0x00);
    ExpectDecodeError<TypeParam>(Format::kLeb128, in, 13, kInvalid, 12);
    Bytes in2 = FromHex("05*12 ff*11");
    in2.insert(in2.end(), pad, 0x00);
    ExpectDecodeError<TypeParam>(Format::kLeb128, in2, 13, kInvalid, 12);
  }
}

TYPED_TEST(VarintTest, Leb128OverflowMessageIsExact) {
  const Bytes in = FromHex("05*12 ff*9 02 00*16");
  std::vector<uint64_t> out(13);
  absl::StatusOr<size_t> n = TypeParam::DecodeBatch(Format::kLeb128, in, absl::MakeSpan(out));
  // The offset also travels as data (serdiff/common/error_offset.h).
  EXPECT_EQ(n.status(),
            serdiff::WithErrorOffset(
                absl::InvalidArgumentError(
                    "LEB128 varint at byte offset 12: 10th byte 0x02 overflows 64 bits"),
                12));
}

TYPED_TEST(VarintTest, TruncatedInputAtEveryPosition) {
  // A batch of mixed lengths, cut at every byte: the value containing the cut is reported
  // as truncated at its first byte, whichever tier was decoding it.
  std::vector<uint64_t> values = {0, 300, kU64Max, 127, P2(56), P2(63), 16384, 1, P2(35) - 1};
  for (int i = 0; i < 6; ++i) values.insert(values.end(), values.begin(), values.begin() + 9);
  for (const Format f : {Format::kLeb128, Format::kFory, Format::kVInt}) {
    const std::string enc = TypeParam::EncodeBatch(f, values);
    std::vector<size_t> starts;
    size_t pos = 0;
    for (const uint64_t v : values) {
      starts.push_back(pos);
      pos += TypeParam::EncodedSize(f, v);
    }
    ASSERT_EQ(pos, enc.size());
    const Bytes all(enc.begin(), enc.end());
    for (size_t cut = 0; cut < all.size(); ++cut) {
      // The value that contains byte `cut`: the last start <= cut.
      size_t idx = 0;
      while (idx + 1 < starts.size() && starts[idx + 1] <= cut) ++idx;
      const Bytes in(all.begin(), all.begin() + static_cast<ptrdiff_t>(cut));
      if (starts[idx] == cut) {
        // The cut falls between values: decoding idx values succeeds, idx + 1 fails.
        std::vector<uint64_t> out(idx);
        absl::StatusOr<size_t> n = TypeParam::DecodeBatch(f, in, absl::MakeSpan(out));
        ASSERT_TRUE(n.ok()) << n.status();
        EXPECT_EQ(*n, cut);
      }
      ExpectDecodeError<TypeParam>(f, in, idx + 1, absl::StatusCode::kOutOfRange, starts[idx]);
    }
  }
}

TYPED_TEST(VarintTest, TruncatedMessageNamesOffset) {
  const Bytes in = FromHex("00*12 ac");
  std::vector<uint64_t> out(13);
  absl::StatusOr<size_t> n = TypeParam::DecodeBatch(Format::kLeb128, in, absl::MakeSpan(out));
  EXPECT_EQ(n.status().code(), absl::StatusCode::kOutOfRange);
  EXPECT_THAT(std::string(n.status().message()),
              HasSubstr("LEB128 varint at byte offset 12: truncated"));
  const Bytes vin = FromHex("c0 40");  // 3-byte vint cut after 2
  n = TypeParam::DecodeBatch(Format::kVInt, vin, absl::MakeSpan(out.data(), 1));
  EXPECT_EQ(n.status().code(), absl::StatusCode::kOutOfRange);
  EXPECT_THAT(std::string(n.status().message()), HasSubstr("Cassandra vint at byte offset 0"));
}

// ---- encode into a caller buffer -----------------------------------------------------------

// Read's errors say exactly what the batch decoder says of the same value: the offset, and for a
// cut value how many of its bytes the input still holds (from the value's start, not from 0).
TEST(VarintRead, ErrorsAreTheBatchDecodersWordForWord) {
  struct Case {
    Format f;
    std::string hex;
    size_t at;
    std::string message;
  };
  const Case cases[] = {
      {Format::kLeb128, "01 ac 02 80 80", 3,
       "LEB128 varint at byte offset 3: truncated, the input ends after 2 of its bytes"},
      {Format::kVInt, "00 00 ff 00 00", 2,
       "Cassandra vint at byte offset 2: truncated, the input ends after 3 of its bytes"},
      {Format::kLeb128, "01 ff*10 01", 1,
       "LEB128 varint at byte offset 1: longer than 10 bytes (10th byte 0xff has the continuation "
       "bit)"},
      {Format::kLeb128, "01 01 ff*9 02", 2,
       "LEB128 varint at byte offset 2: 10th byte 0x02 overflows 64 bits"},
  };
  for (const Case& c : cases) {
    SCOPED_TRACE(c.hex);
    const Bytes in = FromHex(c.hex);
    size_t off = c.at;
    const absl::StatusOr<uint64_t> one = Read(c.f, in, &off);
    ASSERT_FALSE(one.ok());
    EXPECT_EQ(one.status().message(), c.message);
    EXPECT_EQ(off, c.at);
    std::vector<uint64_t> out(c.at + 1);
    const absl::StatusOr<size_t> batch = DecodeBatch(c.f, in, absl::MakeSpan(out));
    ASSERT_FALSE(batch.ok());
    EXPECT_EQ(batch.status().message(), c.message);
  }
}

TYPED_TEST(VarintTest, EncodeIntoBufferOneByteShortIsResourceExhausted) {
  std::vector<uint64_t> values;
  for (int k = 0; k < 64; ++k) values.push_back(P2(k) - 1);
  values.push_back(kU64Max);
  for (const Format f : {Format::kLeb128, Format::kFory, Format::kVInt}) {
    SCOPED_TRACE(TypeParam::FormatName(f));
    const size_t need = TypeParam::EncodedBatchSize(f, values);
    for (const size_t have : {need - 1, need - 9, size_t{0}, size_t{1}, size_t{10}}) {
      Bytes buf(need + 16, 0xAA);
      absl::StatusOr<size_t> n =
          TypeParam::EncodeBatch(f, values, absl::MakeSpan(buf.data(), have));
      EXPECT_EQ(n.status().code(), absl::StatusCode::kResourceExhausted) << have;
      EXPECT_THAT(std::string(n.status().message()),
                  HasSubstr(absl::StrCat("need ", need, " bytes, have ", have)));
      for (size_t i = have; i < buf.size(); ++i) ASSERT_EQ(buf[i], 0xAA) << have << " byte " << i;
    }
    // Signed, one byte short.
    std::vector<int64_t> svalues;
    for (int k = 0; k < 63; ++k) svalues.push_back(-(int64_t{1} << k));
    const size_t sneed = TypeParam::EncodedZigZagBatchSize(f, svalues);
    Bytes buf(sneed + 1, 0xAA);
    absl::StatusOr<size_t> n =
        TypeParam::EncodeZigZagBatch(f, svalues, absl::MakeSpan(buf.data(), sneed - 1));
    EXPECT_EQ(n.status().code(), absl::StatusCode::kResourceExhausted);
    EXPECT_EQ(buf[sneed - 1], 0xAA);
    EXPECT_EQ(buf[sneed], 0xAA);
  }
}

TYPED_TEST(VarintTest, EncodeIntoLargerBufferWritesOnlyTheBatch) {
  // Nothing past the returned size is touched, even with room to spare.
  std::vector<uint64_t> values;
  for (int i = 0; i < 200; ++i) values.push_back(static_cast<uint64_t>(i % 3));
  for (const Format f : {Format::kLeb128, Format::kFory, Format::kVInt}) {
    Bytes buf(1000, 0xAA);
    absl::StatusOr<size_t> n = TypeParam::EncodeBatch(f, values, absl::MakeSpan(buf));
    ASSERT_TRUE(n.ok()) << n.status();
    EXPECT_EQ(*n, 200u);
    for (size_t i = 0; i < 200; ++i) ASSERT_EQ(buf[i], i % 3) << i;
    for (size_t i = 200; i < buf.size(); ++i) ASSERT_EQ(buf[i], 0xAA) << i;
  }
}

// ---- errors and randomized inputs through the block tiers --------------------------------------

TYPED_TEST(VarintTest, Leb128InvalidValueAfterLongValidPrefixes) {
  // A bad value after k valid ones of mixed lengths, with plenty of valid input after it:
  // the word-at-a-time tiers see it at every position relative to their blocks.
  const std::vector<uint64_t> cycle = {1, 300, kU64Max, 5, P2(63), 70000, P2(56) - 1};
  for (const std::string_view bad : {"ff*9 02", "80*9 7f", "ff*11 01", "80*10 00"}) {
    for (size_t k = 0; k < 140; ++k) {
      std::vector<uint64_t> prefix;
      for (size_t j = 0; j < k; ++j) prefix.push_back(cycle[j % cycle.size()]);
      const std::string head = TypeParam::EncodeBatch(Format::kLeb128, prefix);
      Bytes in(head.begin(), head.end());
      const Bytes b = FromHex(bad);
      in.insert(in.end(), b.begin(), b.end());
      const std::string tail =
          TypeParam::EncodeBatch(Format::kLeb128, std::vector<uint64_t>(40, kU64Max));
      in.insert(in.end(), tail.begin(), tail.end());
      std::vector<uint64_t> out(k + 10);
      absl::StatusOr<size_t> n = TypeParam::DecodeBatch(Format::kLeb128, in, absl::MakeSpan(out));
      ASSERT_EQ(n.status().code(), absl::StatusCode::kInvalidArgument) << bad << " after " << k;
      ASSERT_THAT(std::string(n.status().message()),
                  HasSubstr(absl::StrCat("byte offset ", head.size(), ":")))
          << bad << " after " << k;
      // Decoding only the k valid values succeeds and consumes exactly the prefix.
      n = TypeParam::DecodeBatch(Format::kLeb128, in, absl::MakeSpan(out.data(), k));
      ASSERT_TRUE(n.ok()) << n.status();
      ASSERT_EQ(*n, head.size());
      ASSERT_EQ(std::vector<uint64_t>(out.begin(), out.begin() + static_cast<ptrdiff_t>(k)),
                prefix);
    }
  }
}

}  // namespace
}  // namespace serdiff::varint
