// Shared by the varint family's unit tests, tests/varint_test.cc (exact bytes and exact errors,
// typed on the two implementations) and tests/varint_tiers_test.cc (the optimized tiers against
// the reference and protobuf): limits, hex helpers, and the checks of an exact encode, decode
// and decode error through every entry point of an implementation (Opt or Ref, in
// tests/varint_test.cc).
#pragma once

#include <cstddef>
#include <cstdint>
#include <limits>
#include <string>
#include <string_view>
#include <vector>

#include "absl/status/status.h"
#include "absl/status/statusor.h"
#include "absl/strings/str_cat.h"
#include "absl/types/span.h"
#include "gmock/gmock.h"
#include "gtest/gtest.h"
#include "serdiff/varint/varint.h"

namespace serdiff::varint::test_util {

using ::testing::HasSubstr;

inline constexpr uint64_t kU64Max = std::numeric_limits<uint64_t>::max();
inline constexpr int64_t kI64Min = std::numeric_limits<int64_t>::min();
inline constexpr int64_t kI64Max = std::numeric_limits<int64_t>::max();
constexpr uint64_t P2(int k) { return uint64_t{1} << k; }

// ---- helpers ----------------------------------------------------------------------------

using Bytes = std::vector<uint8_t>;

// "ac 02" -> {0xac, 0x02}; "ff*9 01" repeats a byte.
inline Bytes FromHex(std::string_view hex) {
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

inline std::string Hex(absl::Span<const uint8_t> bytes) {
  std::string s;
  for (const uint8_t b : bytes) {
    if (!s.empty()) s += ' ';
    absl::StrAppend(&s, absl::Hex(b, absl::kZeroPad2));
  }
  return s;
}
inline std::string Hex(const std::string& s) {
  return Hex(absl::MakeConstSpan(reinterpret_cast<const uint8_t*>(s.data()), s.size()));
}

// Every batch tier this machine runs (varint.h, BatchTier), to be forced one by one: the
// avx512 tier's kernel too, on any CPU, through its SIMDe emulation (kAvx512Emulated).
inline std::vector<BatchTier> SupportedTiers() {
  std::vector<BatchTier> tiers;
  for (const BatchTier t : {BatchTier::kPortable, BatchTier::kSse2, BatchTier::kBmi2,
                            BatchTier::kAvx512, BatchTier::kAvx512Emulated}) {
    if (BatchTierSupported(t)) tiers.push_back(t);
  }
  return tiers;
}

inline constexpr size_t kCopies = 24;  // long enough that early values take the word tier

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

}  // namespace serdiff::varint::test_util
