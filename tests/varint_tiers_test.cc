// The varint family's optimized tiers (the CPU tiers of BatchTier, each forced: portable, sse2,
// bmi2, avx512 where the CPU has them; word-at-a-time blocks, the single-value scalar writer
// and reader) against the reference on structured, patterned and random inputs, and protobuf's
// coded streams as an independent oracle for LEB128. Exact bytes and exact errors of each
// format: tests/varint_test.cc.
#include <cstdint>
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
#include "serdiff/varint/varint.h"
#include "tests/varint_test_util.h"

namespace serdiff::varint {
namespace {

using ::testing::HasSubstr;

// Shared with tests/varint_test.cc (tests/varint_test_util.h).
using test_util::Bytes;
using test_util::Hex;
using test_util::kU64Max;
using test_util::P2;
using test_util::SupportedTiers;

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
        EXPECT_EQ(EncodeBatch(f, values), enc.substr(0, size));
        std::vector<int64_t> signed_values(values.begin(), values.end());
        const std::string zenc = ref::varint::EncodeZigZagBatch(f, signed_values);
        for (const BatchTier tier : SupportedTiers()) {
          SCOPED_TRACE(BatchTierName(tier));
          std::vector<uint64_t> got(values.size(), 0);
          const absl::StatusOr<size_t> n = DecodeBatch(f, in, absl::MakeSpan(got), tier);
          ASSERT_TRUE(n.ok()) << n.status();
          EXPECT_EQ(*n, size);
          EXPECT_EQ(got, values);
          // One more value than there is: truncated at the trailing bytes.
          std::vector<uint64_t> more(values.size() + 1);
          const absl::StatusOr<size_t> t = DecodeBatch(f, in, absl::MakeSpan(more), tier);
          EXPECT_EQ(t.status().code(), absl::StatusCode::kOutOfRange);
          EXPECT_THAT(std::string(t.status().message()),
                      HasSubstr(absl::StrCat("byte offset ", size, ":")));
          // The same values as zigzag int64 (the decoders' signed loops), both directions.
          Bytes zbuf(zenc.size());
          const absl::StatusOr<size_t> zn =
              EncodeZigZagBatch(f, signed_values, absl::MakeSpan(zbuf), tier);
          ASSERT_TRUE(zn.ok()) << zn.status();
          EXPECT_EQ(Hex(zbuf), Hex(zenc));
          std::vector<int64_t> zgot(values.size(), 0);
          const absl::StatusOr<size_t> zd = DecodeZigZagBatch(f, zbuf, absl::MakeSpan(zgot), tier);
          ASSERT_TRUE(zd.ok()) << zd.status();
          EXPECT_EQ(*zd, zenc.size());
          EXPECT_EQ(zgot, signed_values);
        }
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
      for (const BatchTier tier : SupportedTiers()) {
        SCOPED_TRACE(absl::StrCat(std::string(BatchTierName(tier)), " ", std::string(FormatName(f)),
                                  " iter ", iter, " ", Hex(in)));
        std::vector<uint64_t> a(count, 1), b(count, 2);
        const absl::StatusOr<size_t> ra = DecodeBatch(f, in, absl::MakeSpan(a), tier);
        const absl::StatusOr<size_t> rb = ref::varint::DecodeBatch(f, in, absl::MakeSpan(b));
        ASSERT_EQ(ra.status().code(), rb.status().code()) << ra.status() << " vs " << rb.status();
        if (ra.ok()) {
          ASSERT_EQ(*ra, *rb);
          ASSERT_EQ(a, b);
        } else {
          ASSERT_EQ(std::string(ra.status().message()), std::string(rb.status().message()));
        }
        std::vector<int64_t> sa(count, 1), sb(count, 2);
        const absl::StatusOr<size_t> za = DecodeZigZagBatch(f, in, absl::MakeSpan(sa), tier);
        const absl::StatusOr<size_t> zb = ref::varint::DecodeZigZagBatch(f, in, absl::MakeSpan(sb));
        ASSERT_EQ(za.status(), zb.status());
        if (za.ok()) {
          ASSERT_EQ(*za, *zb);
          ASSERT_EQ(sa, sb);
        }
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
      const BatchTier tier = SupportedTiers()[static_cast<size_t>(iter) % SupportedTiers().size()];
      SCOPED_TRACE(BatchTierName(tier));
      const absl::StatusOr<size_t> ra =
          EncodeBatch(f, values, absl::MakeSpan(a.data(), have), tier);
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
          EncodeZigZagBatch(f, signed_values, absl::MakeSpan(za.data(), zneed), tier);
      ASSERT_TRUE(rz.ok()) << rz.status();
      ASSERT_EQ(Hex(absl::MakeConstSpan(za.data(), zneed)),
                Hex(ref::varint::EncodeZigZagBatch(f, signed_values)));
      for (size_t j = zneed; j < za.size(); ++j) ASSERT_EQ(za[j], 0xAA) << "byte " << j;
    }
  }
}

// ---- the tiers themselves --------------------------------------------------------------------

// kAuto runs a supported tier, the best this CPU has by the documented order (avx512 > bmi2 >
// sse2 > portable, bmi2 and avx512 only where PDEP/PEXT are fast); forcing a tier the CPU lacks
// is InvalidArgument, never a crash; names are stable (the targets' implementations carry them).
TEST(VarintTiers, AutoRunsASupportedTierAndUnsupportedOnesAreRefused) {
  EXPECT_EQ(BatchTierName(BatchTier::kAuto), "auto");
  EXPECT_EQ(BatchTierName(BatchTier::kPortable), "portable");
  EXPECT_EQ(BatchTierName(BatchTier::kSse2), "sse2");
  EXPECT_EQ(BatchTierName(BatchTier::kBmi2), "bmi2");
  EXPECT_EQ(BatchTierName(BatchTier::kAvx512), "avx512");
  EXPECT_EQ(BatchTierName(BatchTier::kAvx512Emulated), "avx512_emulated");
  const BatchTier auto_tier = AutoBatchTier();
  EXPECT_NE(auto_tier, BatchTier::kAvx512Emulated) << "the emulation is for tests only";
#if SERDIFF_EXPECT_AVX512_EMULATION
  // Built with SIMDe (CMake's SERDIFF_AVX512_EMULATION): the avx512 kernel runs on every CPU.
  EXPECT_TRUE(BatchTierSupported(BatchTier::kAvx512Emulated));
#endif
  EXPECT_NE(auto_tier, BatchTier::kAuto);
  EXPECT_TRUE(BatchTierSupported(auto_tier));
  EXPECT_TRUE(BatchTierSupported(BatchTier::kPortable));
  // Supported tiers nest: avx512 implies bmi2.
  if (BatchTierSupported(BatchTier::kAvx512)) {
    EXPECT_TRUE(BatchTierSupported(BatchTier::kBmi2));
  }
  if (auto_tier == BatchTier::kAvx512 || auto_tier == BatchTier::kBmi2) {
    EXPECT_TRUE(BatchTierSupported(BatchTier::kBmi2));
  }
  if (BatchTierSupported(BatchTier::kAvx512) && auto_tier != BatchTier::kAvx512) {
    EXPECT_EQ(auto_tier, BatchTier::kSse2) << "only a slow PDEP keeps kAuto below avx512";
  }
  const std::vector<uint64_t> one = {300};
  for (const BatchTier t : {BatchTier::kPortable, BatchTier::kSse2, BatchTier::kBmi2,
                            BatchTier::kAvx512, BatchTier::kAvx512Emulated}) {
    SCOPED_TRACE(BatchTierName(t));
    Bytes out(16);
    std::vector<uint64_t> back(1);
    const Bytes in = {0xac, 0x02};
    const absl::StatusOr<size_t> e = EncodeBatch(Format::kLeb128, one, absl::MakeSpan(out), t);
    const absl::StatusOr<size_t> d = DecodeBatch(Format::kLeb128, in, absl::MakeSpan(back), t);
    if (BatchTierSupported(t)) {
      ASSERT_TRUE(e.ok()) << e.status();
      EXPECT_EQ(Hex(absl::MakeConstSpan(out.data(), *e)), "ac 02");
      ASSERT_TRUE(d.ok()) << d.status();
      EXPECT_EQ(back[0], 300u);
    } else {
      EXPECT_EQ(e.status().code(), absl::StatusCode::kInvalidArgument);
      EXPECT_EQ(e.status().message(),
                absl::StrCat("varint tier ", std::string(BatchTierName(t)),
                             t == BatchTier::kAvx512Emulated
                                 ? " is not supported by this build (configured without SIMDe)"
                                 : " is not supported by this CPU"));
      EXPECT_EQ(d.status().code(), absl::StatusCode::kInvalidArgument);
    }
  }
}

// Batches long enough for many windows, each of one value shape (the avx512 tier decodes 8
// values per register, so 1, 7, 8 and 9 values per window and more than 8 long values in a
// row all occur), decoded by every tier: exact values, as unsigned and as zigzag.
TEST(VarintTiers, EveryTierDecodesLongUniformBatchesExactly) {
  Rng rng{99};
  for (int width : {1, 7, 8, 14, 35, 56, 57, 63, 64}) {
    std::vector<int64_t> values(3000);
    for (int64_t& v : values) {
      const uint64_t u = width == 64 ? rng.Next() : rng.Next() >> (64 - width);
      v = static_cast<int64_t>(u);
    }
    const std::vector<uint64_t> unsigned_values(values.begin(), values.end());
    for (const Format f : {Format::kLeb128, Format::kFory, Format::kVInt}) {
      const std::string zenc = ref::varint::EncodeZigZagBatch(f, values);
      const std::string uenc = ref::varint::EncodeBatch(f, unsigned_values);
      const absl::Span<const uint8_t> zin(reinterpret_cast<const uint8_t*>(zenc.data()),
                                          zenc.size());
      const absl::Span<const uint8_t> uin(reinterpret_cast<const uint8_t*>(uenc.data()),
                                          uenc.size());
      for (const BatchTier tier : SupportedTiers()) {
        SCOPED_TRACE(absl::StrCat(std::string(BatchTierName(tier)), " ", std::string(FormatName(f)),
                                  " width ", width));
        std::vector<int64_t> z(values.size());
        const absl::StatusOr<size_t> zn = DecodeZigZagBatch(f, zin, absl::MakeSpan(z), tier);
        ASSERT_TRUE(zn.ok()) << zn.status();
        EXPECT_EQ(*zn, zenc.size());
        EXPECT_EQ(z, values);
        std::vector<uint64_t> u(values.size());
        const absl::StatusOr<size_t> un = DecodeBatch(f, uin, absl::MakeSpan(u), tier);
        ASSERT_TRUE(un.ok()) << un.status();
        EXPECT_EQ(*un, uenc.size());
        EXPECT_EQ(u, unsigned_values);
      }
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
