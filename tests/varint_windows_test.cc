// Generators aimed at the varint decoders' fast paths (varint.cc): a 64-byte stop-mask window
// tier (LEB128, Fory) while 80 bytes remain, an 8-byte word tier while a whole value fits,
// then the scalar tier. The interesting value - an error, or a long value - is put at every
// offset 0..3x64+16, so at every position modulo the 8-byte word and the 64-byte window, in
// the first and the last window, and where the tiers hand over near the end. Each result is
// compared with the byte-at-a-time reference and with the exact expected value or offset, for
// every CPU tier this machine runs (BatchTier), each forced.
#include <gtest/gtest.h>

#include <cstdint>
#include <string>
#include <vector>

#include "absl/strings/str_cat.h"
#include "reference/varint/varint_ref.h"
#include "serdiff/common/error_offset.h"
#include "serdiff/varint/varint.h"
#include "tests/varint_test_util.h"

namespace serdiff::varint {
namespace {

constexpr size_t kPositions = 3 * 64 + 16;

using test_util::SupportedTiers;

absl::Span<const uint8_t> Bytes(const std::string& s) {
  return absl::Span<const uint8_t>(reinterpret_cast<const uint8_t*>(s.data()), s.size());
}

// `pos` one-byte values (0x01), then `value`, then `pad` one-byte values.
std::string Stream(size_t pos, const std::string& value, size_t pad) {
  return std::string(pos, '\x01') + value + std::string(pad, '\x01');
}

struct Bad {
  Format f;
  std::string value;  // the encoded bytes of the failing value
  absl::StatusCode code;
};

TEST(VarintWindows, ErrorAtEveryPositionIsReportedThereByEveryTier) {
  const std::vector<Bad> bad = {
      {Format::kLeb128, std::string(9, '\xff') + "\x02", absl::StatusCode::kInvalidArgument},
      {Format::kLeb128, std::string(10, '\xff') + "\x01", absl::StatusCode::kInvalidArgument},
      {Format::kLeb128, std::string(9, '\x80') + "\x7f", absl::StatusCode::kInvalidArgument},
  };
  for (const BatchTier tier : SupportedTiers()) {
    for (const Bad& b : bad) {
      for (size_t pos = 0; pos < kPositions; ++pos) {
        for (size_t pad : {size_t{0}, size_t{100}}) {
          const std::string s = Stream(pos, b.value, pad);
          std::vector<uint64_t> out(pos + 1 + pad);
          const absl::StatusOr<size_t> opt = DecodeBatch(b.f, Bytes(s), absl::MakeSpan(out), tier);
          const absl::StatusOr<size_t> ref =
              ref::varint::DecodeBatch(b.f, Bytes(s), absl::MakeSpan(out));
          const std::string where =
              absl::StrCat(std::string(BatchTierName(tier)), " pos ", pos, " pad ", pad);
          ASSERT_FALSE(opt.ok()) << where;
          ASSERT_FALSE(ref.ok()) << where;
          EXPECT_EQ(opt.status().code(), b.code) << where;
          EXPECT_EQ(ErrorOffset(opt.status()), static_cast<int64_t>(pos)) << where;
          EXPECT_EQ(ErrorOffset(ref.status()), static_cast<int64_t>(pos)) << where;
        }
      }
    }
  }
}

// A run of continuation bytes longer than a window: windows that hold no value's end, the
// value begun in an earlier window, named at its first byte (a window with no end must not
// move the start). LEB128 gives up on such a value after 10 bytes: too long. (Fory's ninth
// byte carries 8 bits, so a run of FF there is a row of 9-byte values.)
TEST(VarintWindows, ARunOfContinuationBytesPastAWindowIsNamedAtItsStart) {
  for (const BatchTier tier : SupportedTiers()) {
    for (Format f : {Format::kLeb128}) {
      for (size_t run : {size_t{11}, size_t{64}, size_t{100}, size_t{200}}) {
        for (size_t pos = 0; pos < kPositions; ++pos) {
          const std::string s = Stream(pos, std::string(run, '\xff'), 100);
          std::vector<uint64_t> out(pos + 1 + 100);
          const absl::StatusOr<size_t> opt = DecodeBatch(f, Bytes(s), absl::MakeSpan(out), tier);
          const absl::StatusOr<size_t> ref =
              ref::varint::DecodeBatch(f, Bytes(s), absl::MakeSpan(out));
          const std::string where =
              absl::StrCat(std::string(BatchTierName(tier)), " ", std::string(FormatName(f)),
                           " run ", run, " pos ", pos);
          ASSERT_FALSE(opt.ok()) << where;
          ASSERT_FALSE(ref.ok()) << where;
          EXPECT_EQ(opt.status().code(), absl::StatusCode::kInvalidArgument) << where;
          EXPECT_EQ(ref.status().code(), absl::StatusCode::kInvalidArgument) << where;
          EXPECT_EQ(ErrorOffset(opt.status()), static_cast<int64_t>(pos)) << where;
          EXPECT_EQ(ErrorOffset(ref.status()), static_cast<int64_t>(pos)) << where;
        }
      }
    }
  }
}

TEST(VarintWindows, TruncationAtEveryPositionIsReportedAtTheValueStart) {
  for (const BatchTier tier : SupportedTiers()) {
    for (Format f : {Format::kLeb128, Format::kFory, Format::kVInt}) {
      // A value cut one byte short: LEB128/Fory 80 80 (continuation, then the end); vint ff
      // announces 8 more bytes of which 7 are there.
      const std::string cut = f == Format::kVInt ? std::string("\xff") + std::string(7, '\x00')
                                                 : std::string("\x80\x80");
      for (size_t pos = 0; pos < kPositions; ++pos) {
        const std::string s = Stream(pos, cut, 0);
        std::vector<uint64_t> out(pos + 1);
        const absl::StatusOr<size_t> opt = DecodeBatch(f, Bytes(s), absl::MakeSpan(out), tier);
        const absl::StatusOr<size_t> ref =
            ref::varint::DecodeBatch(f, Bytes(s), absl::MakeSpan(out));
        const std::string where = absl::StrCat(std::string(BatchTierName(tier)), " ",
                                               std::string(FormatName(f)), " pos ", pos);
        ASSERT_FALSE(opt.ok()) << where;
        EXPECT_EQ(opt.status().code(), absl::StatusCode::kOutOfRange) << where;
        EXPECT_EQ(ErrorOffset(opt.status()), static_cast<int64_t>(pos)) << where;
        EXPECT_EQ(ErrorOffset(ref.status()), static_cast<int64_t>(pos)) << where;
      }
    }
  }
}

TEST(VarintWindows, LongValueAtEveryPositionDecodesExactly) {
  const std::vector<uint64_t> longs = {~uint64_t{0}, uint64_t{1} << 63, uint64_t{1} << 56,
                                       (uint64_t{1} << 56) - 1, 300};
  for (const BatchTier tier : SupportedTiers()) {
    for (Format f : {Format::kLeb128, Format::kFory, Format::kVInt}) {
      for (uint64_t v : longs) {
        const std::string enc = ref::varint::EncodeBatch(f, std::vector<uint64_t>{v});
        for (size_t pos = 0; pos < kPositions; ++pos) {
          for (size_t pad : {size_t{0}, size_t{3}, size_t{100}}) {
            const std::string s = Stream(pos, enc, pad);
            std::vector<uint64_t> out(pos + 1 + pad, 0xdead);
            const absl::StatusOr<size_t> n = DecodeBatch(f, Bytes(s), absl::MakeSpan(out), tier);
            const std::string where =
                absl::StrCat(std::string(BatchTierName(tier)), " ", std::string(FormatName(f)),
                             " value ", v, " pos ", pos, " pad ", pad);
            ASSERT_TRUE(n.ok()) << where << ": " << n.status();
            EXPECT_EQ(*n, s.size()) << where;
            std::vector<uint64_t> expected(pos + 1 + pad, 1);
            expected[pos] = v;
            EXPECT_EQ(out, expected) << where;
          }
        }
      }
    }
  }
}

}  // namespace
}  // namespace serdiff::varint
