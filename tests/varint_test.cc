// Exact-byte and exact-error tests for the varint family: the optimized codecs
// (serdiff::varint) and the reference (serdiff::ref::varint) run through the same typed
// tests; protobuf's coded streams serve as an independent oracle for LEB128.
//
// Every encode is checked three ways for the optimized side: single value (scalar tier),
// a batch long enough that the value goes through the word-at-a-time tier, and the exact
// string form. Every decode is checked with and without trailing padding (the word tier
// needs MaxBytes bytes of room; without padding the scalar tail decodes).
#include <cstdint>
#include <limits>
#include <string>
#include <vector>

#include "absl/status/status.h"
#include "absl/strings/str_cat.h"
#include "absl/types/span.h"
#include "gmock/gmock.h"
#include "google/protobuf/io/coded_stream.h"
#include "google/protobuf/wire_format_lite.h"
#include "gtest/gtest.h"
#include "reference/varint/varint_ref.h"
#include "serdiff/common/error_offset.h"
#include "serdiff/varint/varint.h"

namespace serdiff::varint {
namespace {

using ::testing::HasSubstr;

constexpr uint64_t kU64Max = std::numeric_limits<uint64_t>::max();
constexpr int64_t kI64Min = std::numeric_limits<int64_t>::min();
constexpr int64_t kI64Max = std::numeric_limits<int64_t>::max();
constexpr uint64_t P2(int k) { return uint64_t{1} << k; }

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

// ---- helpers ----------------------------------------------------------------------------

using Bytes = std::vector<uint8_t>;

// "ac 02" -> {0xac, 0x02}; "ff*9 01" repeats a byte.
Bytes FromHex(std::string_view hex) {
  Bytes out;
  while (!hex.empty()) {
    const size_t space = hex.find(' ');
    std::string_view tok = hex.substr(0, space);
    hex = space == std::string_view::npos ? std::string_view() : hex.substr(space + 1);
    if (tok.empty()) continue;
    size_t times = 1;
    if (const size_t star = tok.find('*'); star != std::string_view::npos) {
      times = std::stoul(std::string(tok.substr(star + 1)));
      tok = tok.substr(0, star);
    }
    const auto b = static_cast<uint8_t>(std::stoul(std::string(tok), nullptr, 16));
    out.insert(out.end(), times, b);
  }
  return out;
}

std::string Hex(absl::Span<const uint8_t> bytes) {
  std::string s;
  for (const uint8_t b : bytes) {
    if (!s.empty()) s += ' ';
    absl::StrAppend(&s, absl::Hex(b, absl::kZeroPad2));
  }
  return s;
}
std::string Hex(const std::string& s) {
  return Hex(absl::MakeConstSpan(reinterpret_cast<const uint8_t*>(s.data()), s.size()));
}

constexpr size_t kCopies = 24;  // long enough that early values take the word tier

// Checks every encode entry point of Impl on `v` (unsigned) against `hex`.
template <typename Impl>
void ExpectEncodes(Format f, uint64_t v, std::string_view hex) {
  SCOPED_TRACE(absl::StrCat(Impl::kName, " ", std::string(Impl::FormatName(f)), " unsigned ", v));
  const Bytes want = FromHex(hex);
  EXPECT_EQ(Impl::EncodedSize(f, v), want.size());
  // Single value, unchecked writer, guard bytes after it untouched.
  Bytes buf(want.size() + 16, 0xAA);
  const uint8_t* end = Impl::WriteToArray(f, v, buf.data());
  EXPECT_EQ(end - buf.data(), static_cast<ptrdiff_t>(want.size()));
  EXPECT_EQ(Hex(absl::MakeConstSpan(buf.data(), want.size())), Hex(want));
  for (size_t i = want.size(); i < buf.size(); ++i) ASSERT_EQ(buf[i], 0xAA) << "byte " << i;
  // String form, one value.
  const uint64_t one[1] = {v};
  EXPECT_EQ(Hex(Impl::EncodeBatch(f, absl::MakeConstSpan(one))), Hex(want));
  // Batch of copies into an exact buffer with guard bytes.
  const std::vector<uint64_t> many(kCopies, v);
  Bytes want_many;
  for (size_t i = 0; i < kCopies; ++i) want_many.insert(want_many.end(), want.begin(), want.end());
  EXPECT_EQ(Impl::EncodedBatchSize(f, many), want_many.size());
  Bytes out(want_many.size() + 16, 0xAA);
  absl::StatusOr<size_t> n =
      Impl::EncodeBatch(f, many, absl::MakeSpan(out.data(), want_many.size()));
  ASSERT_TRUE(n.ok()) << n.status();
  EXPECT_EQ(*n, want_many.size());
  EXPECT_EQ(Hex(absl::MakeConstSpan(out.data(), want_many.size())), Hex(want_many));
  for (size_t i = want_many.size(); i < out.size(); ++i) ASSERT_EQ(out[i], 0xAA) << "byte " << i;
  EXPECT_EQ(Hex(Impl::EncodeBatch(f, many)), Hex(want_many));
}

// Checks every decode entry point of Impl on `hex` (unsigned) against `v`.
template <typename Impl>
void ExpectDecodes(Format f, std::string_view hex, uint64_t v) {
  SCOPED_TRACE(absl::StrCat(Impl::kName, " ", std::string(Impl::FormatName(f)), " decode ",
                            std::string(hex)));
  const Bytes bytes = FromHex(hex);
  for (const size_t padding : {size_t{0}, size_t{1}, size_t{16}}) {
    Bytes in = bytes;
    in.insert(in.end(), padding, 0x00);
    size_t off = 0;
    absl::StatusOr<uint64_t> r = Impl::Read(f, in, &off);
    ASSERT_TRUE(r.ok()) << r.status();
    EXPECT_EQ(*r, v);
    EXPECT_EQ(off, bytes.size());
    uint64_t out[1] = {12345};
    absl::StatusOr<size_t> n = Impl::DecodeBatch(f, in, absl::MakeSpan(out));
    ASSERT_TRUE(n.ok()) << n.status();
    EXPECT_EQ(*n, bytes.size());
    EXPECT_EQ(out[0], v);
  }
  // Many copies back to back (word tier for the early ones, scalar tail for the last).
  Bytes many;
  for (size_t i = 0; i < kCopies; ++i) many.insert(many.end(), bytes.begin(), bytes.end());
  std::vector<uint64_t> out(kCopies, 12345);
  absl::StatusOr<size_t> n = Impl::DecodeBatch(f, many, absl::MakeSpan(out));
  ASSERT_TRUE(n.ok()) << n.status();
  EXPECT_EQ(*n, many.size());
  EXPECT_EQ(out, std::vector<uint64_t>(kCopies, v));
}

template <typename Impl>
void ExpectRoundTrip(Format f, uint64_t v, std::string_view hex) {
  ExpectEncodes<Impl>(f, v, hex);
  ExpectDecodes<Impl>(f, hex, v);
}

// The same for signed values through zigzag.
template <typename Impl>
void ExpectZigZag(Format f, int64_t v, std::string_view hex) {
  SCOPED_TRACE(absl::StrCat(Impl::kName, " ", std::string(Impl::FormatName(f)), " signed ", v));
  const Bytes want = FromHex(hex);
  const std::vector<int64_t> many(kCopies, v);
  Bytes want_many;
  for (size_t i = 0; i < kCopies; ++i) want_many.insert(want_many.end(), want.begin(), want.end());
  const int64_t one[1] = {v};
  EXPECT_EQ(Impl::EncodedZigZagBatchSize(f, one), want.size());
  EXPECT_EQ(Hex(Impl::EncodeZigZagBatch(f, absl::MakeConstSpan(one))), Hex(want));
  EXPECT_EQ(Hex(Impl::EncodeZigZagBatch(f, many)), Hex(want_many));
  Bytes out(want_many.size() + 8, 0xAA);
  absl::StatusOr<size_t> n =
      Impl::EncodeZigZagBatch(f, many, absl::MakeSpan(out.data(), want_many.size()));
  ASSERT_TRUE(n.ok()) << n.status();
  EXPECT_EQ(*n, want_many.size());
  EXPECT_EQ(Hex(absl::MakeConstSpan(out.data(), *n)), Hex(want_many));
  for (size_t i = want_many.size(); i < out.size(); ++i) ASSERT_EQ(out[i], 0xAA) << "byte " << i;
  // Decode: one value (scalar), and the copies.
  int64_t got_one[1] = {0};
  absl::StatusOr<size_t> m = Impl::DecodeZigZagBatch(f, want, absl::MakeSpan(got_one));
  ASSERT_TRUE(m.ok()) << m.status();
  EXPECT_EQ(*m, want.size());
  EXPECT_EQ(got_one[0], v);
  std::vector<int64_t> got(kCopies, 0);
  m = Impl::DecodeZigZagBatch(f, want_many, absl::MakeSpan(got));
  ASSERT_TRUE(m.ok()) << m.status();
  EXPECT_EQ(*m, want_many.size());
  EXPECT_EQ(got, many);
}

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

// Decodes `count` values from `in` with every decode entry point; expects `code` and
// "byte offset <at>" in the message.
template <typename Impl>
void ExpectDecodeError(Format f, const Bytes& in, size_t count, absl::StatusCode code, size_t at) {
  SCOPED_TRACE(absl::StrCat(Impl::kName, " ", std::string(Impl::FormatName(f)), " ", Hex(in)));
  const std::string where = absl::StrCat("byte offset ", at, ":");
  std::vector<uint64_t> out(count);
  absl::StatusOr<size_t> n = Impl::DecodeBatch(f, in, absl::MakeSpan(out));
  EXPECT_EQ(n.status().code(), code) << n.status();
  EXPECT_THAT(std::string(n.status().message()), HasSubstr(where));
  std::vector<int64_t> sout(count);
  n = Impl::DecodeZigZagBatch(f, in, absl::MakeSpan(sout));
  EXPECT_EQ(n.status().code(), code) << n.status();
  EXPECT_THAT(std::string(n.status().message()), HasSubstr(where));
  size_t off = at;
  absl::StatusOr<uint64_t> r = Impl::Read(f, in, &off);
  EXPECT_EQ(r.status().code(), code) << r.status();
  EXPECT_THAT(std::string(r.status().message()), HasSubstr(where));
  EXPECT_EQ(off, at);
}

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

// ---- optimized tiers vs reference on structured values --------------------------------------

std::vector<uint64_t> EdgeValues() {
  std::vector<uint64_t> v = {0, 1, kU64Max, kU64Max - 1};
  for (int k = 1; k < 64; ++k) {
    for (const uint64_t d : {uint64_t{0}, uint64_t{1}, uint64_t{2}}) {
      v.push_back(P2(k) - d);
      v.push_back(P2(k) + d);
    }
  }
  uint64_t x = 0x9E3779B97F4A7C15ULL;  // splitmix64 stream: fixed, reproducible
  for (int i = 0; i < 300; ++i) {
    x += 0x9E3779B97F4A7C15ULL;
    uint64_t z = x;
    z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ULL;
    z = (z ^ (z >> 27)) * 0x94D049BB133111EBULL;
    z ^= z >> 31;
    v.push_back(z >> (i % 64));  // every bit width
  }
  return v;
}

TEST(VarintTiers, BatchMatchesReferenceAndSingleValueTier) {
  const std::vector<uint64_t> values = EdgeValues();
  std::vector<int64_t> signed_values;
  for (const uint64_t u : values) signed_values.push_back(static_cast<int64_t>(u));
  for (const Format f : {Format::kLeb128, Format::kFory, Format::kVInt}) {
    SCOPED_TRACE(FormatName(f));
    const std::string fast = EncodeBatch(f, values);
    EXPECT_EQ(Hex(fast), Hex(ref::varint::EncodeBatch(f, values)));
    EXPECT_EQ(Hex(EncodeZigZagBatch(f, signed_values)),
              Hex(ref::varint::EncodeZigZagBatch(f, signed_values)));
    // Portable tier: one WriteToArray per value.
    Bytes scalar(values.size() * kMaxLeb128Bytes);
    uint8_t* p = scalar.data();
    for (const uint64_t v : values) p = WriteToArray(f, v, p);
    scalar.resize(static_cast<size_t>(p - scalar.data()));
    EXPECT_EQ(Hex(fast), Hex(scalar));
    // Decode back with the batch (word tier) and with Read (portable tier).
    std::vector<uint64_t> got(values.size());
    absl::StatusOr<size_t> n = DecodeBatch(f, scalar, absl::MakeSpan(got));
    ASSERT_TRUE(n.ok()) << n.status();
    EXPECT_EQ(*n, scalar.size());
    EXPECT_EQ(got, values);
    size_t off = 0;
    for (const uint64_t v : values) {
      absl::StatusOr<uint64_t> r = Read(f, scalar, &off);
      ASSERT_TRUE(r.ok()) << r.status();
      ASSERT_EQ(*r, v);
    }
    EXPECT_EQ(off, scalar.size());
  }
}

// ---- errors and randomized inputs through the block tiers --------------------------------------

// splitmix64: a fixed, reproducible stream.
struct Rng {
  uint64_t x;
  uint64_t Next() {
    uint64_t z = (x += 0x9E3779B97F4A7C15ULL);
    z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ULL;
    z = (z ^ (z >> 27)) * 0x94D049BB133111EBULL;
    return z ^ (z >> 31);
  }
  size_t Below(size_t n) { return static_cast<size_t>(Next() % n); }
};

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

// Long batches whose value lengths follow patterns that switch the block tiers between
// their walks (short values, 9-byte Fory values whose 9th byte is >= 0x80, 10-byte LEB128
// values, alternations and bursts): decoded values and consumed bytes are exact.
TEST(VarintTiers, LengthPatternsRoundTripThroughEveryWalk) {
  Rng rng{2024};
  const auto pick = [&rng](int kind) -> uint64_t {
    switch (kind) {
      case 0:
        return rng.Below(128);  // 1 byte
      case 1:
        return 128 + rng.Below(16000);  // 2 bytes
      case 2:
        return P2(56) + (rng.Next() >> 8);  // 9 bytes, 9th byte < 0x80 (Fory), 9 (LEB128)
      default:
        return P2(63) | rng.Next();  // Fory 9th byte >= 0x80; LEB128 10 bytes
    }
  };
  const std::vector<std::vector<int>> patterns = {{0},
                                                  {1},
                                                  {3},
                                                  {2, 3},
                                                  {0, 3},
                                                  {1, 1, 1, 1, 3},
                                                  {3, 3, 3, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0},
                                                  {0, 1, 2, 3}};
  for (size_t pi = 0; pi < patterns.size(); ++pi) {
    for (const size_t burst : {size_t{1}, size_t{7}, size_t{40}}) {
      std::vector<uint64_t> values;
      for (size_t k = 0; values.size() < 700; ++k) {
        const int kind = patterns[pi][(k / burst) % patterns[pi].size()];
        values.push_back(pick(kind));
      }
      for (const Format f : {Format::kLeb128, Format::kFory, Format::kVInt}) {
        SCOPED_TRACE(absl::StrCat(std::string(FormatName(f)), " pattern ", pi, " burst ", burst));
        std::string enc = ref::varint::EncodeBatch(f, values);
        const size_t size = enc.size();
        enc.append("\xff\x80\x80");  // trailing bytes: a value truncated in every format
        const absl::Span<const uint8_t> in(reinterpret_cast<const uint8_t*>(enc.data()),
                                           enc.size());
        std::vector<uint64_t> got(values.size(), 0);
        const absl::StatusOr<size_t> n = DecodeBatch(f, in, absl::MakeSpan(got));
        ASSERT_TRUE(n.ok()) << n.status();
        EXPECT_EQ(*n, size);
        EXPECT_EQ(got, values);
        EXPECT_EQ(EncodeBatch(f, values), enc.substr(0, size));
        // One more value than there is: truncated at the trailing bytes.
        std::vector<uint64_t> more(values.size() + 1);
        const absl::StatusOr<size_t> t = DecodeBatch(f, in, absl::MakeSpan(more));
        EXPECT_EQ(t.status().code(), absl::StatusCode::kOutOfRange);
        EXPECT_THAT(std::string(t.status().message()),
                    HasSubstr(absl::StrCat("byte offset ", size, ":")));
      }
    }
  }
}

// Random byte strings, biased towards continuation-heavy bytes: the optimized decoders agree
// with the reference on the status code, the failing offset, bytes consumed and values.
TEST(VarintTiers, DecodeMatchesReferenceOnRandomBytes) {
  Rng rng{42};
  const uint8_t kBytes[] = {0x00, 0x01, 0x02, 0x7f, 0x80, 0x81, 0xfe, 0xff};
  for (int iter = 0; iter < 3000; ++iter) {
    const size_t len = rng.Below(400);
    const size_t cont_bias = rng.Below(4);  // how often a byte is forced to continue
    Bytes in(len);
    for (uint8_t& byte : in) {
      byte = rng.Below(2) ? kBytes[rng.Below(8)] : static_cast<uint8_t>(rng.Next());
      if (rng.Below(4) < cont_bias) byte |= 0x80;
    }
    const size_t count = rng.Below(len + 2);
    for (const Format f : {Format::kLeb128, Format::kFory, Format::kVInt}) {
      SCOPED_TRACE(absl::StrCat(std::string(FormatName(f)), " iter ", iter, " ", Hex(in)));
      std::vector<uint64_t> a(count, 1), b(count, 2);
      const absl::StatusOr<size_t> ra = DecodeBatch(f, in, absl::MakeSpan(a));
      const absl::StatusOr<size_t> rb = ref::varint::DecodeBatch(f, in, absl::MakeSpan(b));
      ASSERT_EQ(ra.status().code(), rb.status().code()) << ra.status() << " vs " << rb.status();
      if (ra.ok()) {
        ASSERT_EQ(*ra, *rb);
        ASSERT_EQ(a, b);
      } else {
        ASSERT_EQ(std::string(ra.status().message()), std::string(rb.status().message()));
      }
      std::vector<int64_t> sa(count, 1), sb(count, 2);
      const absl::StatusOr<size_t> za = DecodeZigZagBatch(f, in, absl::MakeSpan(sa));
      const absl::StatusOr<size_t> zb = ref::varint::DecodeZigZagBatch(f, in, absl::MakeSpan(sb));
      ASSERT_EQ(za.status(), zb.status());
      if (za.ok()) {
        ASSERT_EQ(*za, *zb);
        ASSERT_EQ(sa, sb);
      }
    }
  }
}

// Random values of every bit width into random-size buffers: same status as the reference,
// same bytes on success, nothing written past the returned size or outside the span.
TEST(VarintTiers, EncodeMatchesReferenceIntoRandomBuffers) {
  Rng rng{7};
  for (int iter = 0; iter < 2000; ++iter) {
    const size_t count = rng.Below(120);
    std::vector<uint64_t> values(count);
    for (uint64_t& v : values) v = rng.Next() >> rng.Below(64);
    std::vector<int64_t> signed_values(values.begin(), values.end());
    for (const Format f : {Format::kLeb128, Format::kFory, Format::kVInt}) {
      SCOPED_TRACE(absl::StrCat(std::string(FormatName(f)), " iter ", iter));
      const size_t need = ref::varint::EncodedBatchSize(f, values);
      ASSERT_EQ(EncodedBatchSize(f, values), need);
      ASSERT_EQ(EncodedZigZagBatchSize(f, signed_values),
                ref::varint::EncodedZigZagBatchSize(f, signed_values));
      const size_t have = rng.Below(4) == 0 ? rng.Below(need + 1) : need + rng.Below(40);
      Bytes a(have + 16, 0xAA), b(have + 16, 0xAA);
      const absl::StatusOr<size_t> ra = EncodeBatch(f, values, absl::MakeSpan(a.data(), have));
      const absl::StatusOr<size_t> rb =
          ref::varint::EncodeBatch(f, values, absl::MakeSpan(b.data(), have));
      ASSERT_EQ(ra.status(), rb.status());
      const size_t written = ra.ok() ? *ra : have;
      if (ra.ok()) {
        ASSERT_EQ(*ra, need);
        ASSERT_EQ(Hex(absl::MakeConstSpan(a.data(), need)),
                  Hex(absl::MakeConstSpan(b.data(), need)));
      }
      for (size_t j = written; j < a.size(); ++j) ASSERT_EQ(a[j], 0xAA) << "byte " << j;
      Bytes za(need + 64, 0xAA);
      const size_t zneed = EncodedZigZagBatchSize(f, signed_values);
      const absl::StatusOr<size_t> rz =
          EncodeZigZagBatch(f, signed_values, absl::MakeSpan(za.data(), zneed));
      ASSERT_TRUE(rz.ok()) << rz.status();
      ASSERT_EQ(Hex(absl::MakeConstSpan(za.data(), zneed)),
                Hex(ref::varint::EncodeZigZagBatch(f, signed_values)));
      for (size_t j = zneed; j < za.size(); ++j) ASSERT_EQ(za[j], 0xAA) << "byte " << j;
    }
  }
}

// ---- protobuf as an independent oracle (LEB128) ----------------------------------------------

TEST(VarintProtobufOracle, ZigZagAndLeb128MatchProtobuf) {
  using google::protobuf::internal::WireFormatLite;
  using google::protobuf::io::CodedInputStream;
  using google::protobuf::io::CodedOutputStream;
  const std::vector<uint64_t> values = EdgeValues();
  ASSERT_GE(values.size(), 300u);
  std::vector<int64_t> signed_values;
  for (const uint64_t u : values) signed_values.push_back(static_cast<int64_t>(u));

  Bytes pb_unsigned(values.size() * 10), pb_zigzag(values.size() * 10);
  uint8_t* pu = pb_unsigned.data();
  uint8_t* pz = pb_zigzag.data();
  for (size_t i = 0; i < values.size(); ++i) {
    ASSERT_EQ(EncodeZigZag64(signed_values[i]), WireFormatLite::ZigZagEncode64(signed_values[i]));
    ASSERT_EQ(DecodeZigZag64(values[i]), WireFormatLite::ZigZagDecode64(values[i]));
    ASSERT_EQ(EncodedSize(Format::kLeb128, values[i]), CodedOutputStream::VarintSize64(values[i]));
    pu = CodedOutputStream::WriteVarint64ToArray(values[i], pu);
    pz = CodedOutputStream::WriteVarint64ToArray(WireFormatLite::ZigZagEncode64(signed_values[i]),
                                                 pz);
  }
  pb_unsigned.resize(static_cast<size_t>(pu - pb_unsigned.data()));
  pb_zigzag.resize(static_cast<size_t>(pz - pb_zigzag.data()));

  EXPECT_EQ(Hex(EncodeBatch(Format::kLeb128, values)), Hex(pb_unsigned));
  EXPECT_EQ(Hex(ref::varint::EncodeBatch(Format::kLeb128, values)), Hex(pb_unsigned));
  EXPECT_EQ(Hex(EncodeZigZagBatch(Format::kLeb128, signed_values)), Hex(pb_zigzag));
  EXPECT_EQ(Hex(ref::varint::EncodeZigZagBatch(Format::kLeb128, signed_values)), Hex(pb_zigzag));

  // Our decoders read protobuf's bytes; protobuf's reader reads ours.
  std::vector<int64_t> got(values.size());
  absl::StatusOr<size_t> n = DecodeZigZagBatch(Format::kLeb128, pb_zigzag, absl::MakeSpan(got));
  ASSERT_TRUE(n.ok()) << n.status();
  EXPECT_EQ(*n, pb_zigzag.size());
  EXPECT_EQ(got, signed_values);
  const std::string ours = EncodeBatch(Format::kLeb128, values);
  CodedInputStream cis(reinterpret_cast<const uint8_t*>(ours.data()),
                       static_cast<int>(ours.size()));
  for (const uint64_t v : values) {
    uint64_t u = 0;
    ASSERT_TRUE(cis.ReadVarint64(&u));
    ASSERT_EQ(u, v);
  }
  EXPECT_EQ(cis.CurrentPosition(), static_cast<int>(ours.size()));
}

}  // namespace
}  // namespace serdiff::varint
