// serdiff::varint — optimized variable-length integer codecs (contracts in varint.h).
//
// Three tiers, each handing over to the next near the end of the buffer:
//   * block tier (LEB128 and Fory decode): a 64-bit stop mask per 64 input bytes (bit k set
//     iff byte k has no continuation bit; SSE2 movemask on x86-64, a multiply gather
//     elsewhere), walked with count-trailing-zeros, so that value boundaries come from the
//     mask instead of a load -> length -> position chain. Needs 80 bytes of input.
//   * word tier (all encoders, vint decode, and decode tails): one unaligned 8-byte load or
//     store per value plus at most two single bytes; the length from a count of leading or
//     trailing zeros (a table lookup by top bit index for encoders), the 7-bit groups spread
//     or compacted with three shift/mask steps, the vint via a byte swap. Needs MaxBytes(f)
//     bytes of room.
//   * portable scalar tier: byte at a time, bounds-checked per value (WriteToArray, Read and
//     the last values of every batch).
// The build needs no -march: the block and word tiers are templates over a CPU tier's primitives
// (BatchTier in varint.h; varint_internal.h): the shift/mask steps of plain x86-64 (SSE2 is part
// of it) or any 64-bit target, PDEP/PEXT in the bmi2 tier, and 512-bit LEB128 decode windows in
// the avx512 tier (varint_avx512_inl.h). The instruction-set-specific loops are compiled through
// one entry function each with a target attribute and chosen at run time (varint_tier.cc).
//
// Scratch-write rule of the word tier: a fast write of one value may store up to
// MaxBytes(f) - 1 bytes past that value's last byte. It is only used while (a) at least
// MaxBytes(f) bytes of `out` remain, so the store stays inside `out`, and (b) at least
// MaxBytes(f) more values follow, each at least one byte long, so the following values
// overwrite every scratch byte. Hence a successful batch encode writes exactly
// out[0, returned size) and nothing else.
//
// Error agreement: the block and word tiers never build an error themselves from partial
// information; on anything invalid they hand the value (or block) to a tier that checks
// byte by byte, so every tier reports the same class and offset as the scalar reader.
//
// Where the code is: this file holds the single-value functions (WriteToArray, EncodedSize,
// ZigZag) and the encoders (scalar and word tiers); varint_decode.cc the decoders (Read, and the
// scalar, word and block tiers of the batch decoders); varint_internal.h what both use.
#include "serdiff/varint/varint.h"

#include <bit>
#include <cstring>

#include "absl/base/optimization.h"
#include "absl/strings/str_cat.h"
#include "serdiff/common/fill_string.h"
#include "serdiff/varint/varint_internal.h"

namespace serdiff::varint {
namespace {

using namespace varint_internal;  // NOLINT(google-build-using-namespace): the shared helpers

// ---- errors ------------------------------------------------------------------------------

ABSL_ATTRIBUTE_NOINLINE absl::Status MakeExhaustedError(Format f, size_t need, size_t have) {
  return absl::ResourceExhaustedError(absl::StrCat(
      std::string(FormatName(f)), " batch encode: need ", need, " bytes, have ", have));
}

// ---- portable scalar tier ----------------------------------------------------------------

// Writes v at p, exactly SizeOf<F>(v) bytes. Byte at a time; touches nothing else.
template <Format F>
inline uint8_t* ScalarWrite(uint64_t v, uint8_t* p) {
  if constexpr (F == Format::kVInt) {
    const size_t extra = Capped9Size(v) - 1;  // E, 0..8
    if (extra == 8) {
      *p++ = 0xFF;
    } else {
      // Leading `extra` ones, a zero separator, then the value's top bits.
      *p++ = static_cast<uint8_t>((0xFF00u >> extra) | (v >> (8 * extra)));
    }
    for (size_t i = extra; i-- > 0;) *p++ = static_cast<uint8_t>(v >> (8 * i));
    return p;
  } else {
    constexpr size_t kGroups = F == Format::kLeb128 ? 10 : 8;  // 7-bit groups before the end
    for (size_t i = 0; i < kGroups && v >= 0x80; ++i) {
      *p++ = static_cast<uint8_t>(v | 0x80);
      v >>= 7;
    }
    *p++ = static_cast<uint8_t>(v);  // Fory: after 8 groups, the 9th byte carries all 8 bits
    return p;
  }
}

// ---- word-at-a-time tier -----------------------------------------------------------------

// Writes v at p; returns its length. Needs kMax<F> writable bytes at p and may store
// scratch into all of them (see the file comment).
template <Format F, typename Ops>
inline size_t FastWrite(uint64_t v, uint8_t* p) {
  if (v < (uint64_t{1} << 14)) {
    // One or two bytes: a short path that is always taken for small-magnitude data, so the
    // branch predicts well; the first byte's flag is the only thing that depends on v.
    const unsigned two = v >= 0x80;
    uint16_t w;
    if constexpr (F == Format::kVInt) {
      // 0xxxxxxx, or 10xxxxxx xxxxxxxx: as a big-endian 16-bit word, v << 8 (the second
      // byte is scratch) or 0x8000 | v; stored with its first byte first.
      const unsigned be = (static_cast<unsigned>(v) << ((two ^ 1u) << 3)) | (two << 15);
      w = static_cast<uint16_t>((be >> 8) | (be << 8));
    } else {
      w = static_cast<uint16_t>((v & 0x7F) | ((v << 1) & 0x7F00) | (two << 7));
    }
    if constexpr (std::endian::native == std::endian::big) w = __builtin_bswap16(w);
    std::memcpy(p, &w, sizeof w);
    return 1 + two;
  }
  const unsigned top = TopBit(v);
  if constexpr (F == Format::kVInt) {
    const size_t len = kByTopBit.capped_len[top];
    // First byte: `len - 1` leading ones, separator, top bits (0xFF when len == 9; then the
    // shift by 64 is masked to 0 and the OR with 0xFF wins). Then the low len - 1 bytes of v,
    // big-endian: bswap puts v's top byte first, the right shift drops the 9 - len unused
    // ones.
    const unsigned extra = static_cast<unsigned>(len - 1);
    p[0] = static_cast<uint8_t>((0xFF00u >> extra) | (v >> ((8 * extra) & 63)));
    Store64LE(p + 1, ByteSwap64(v) >> ((64 - 8 * extra) & 63));
    return len;
  } else {
    Store64LE(p, Ops::Spread(v) | kByTopBit.cont[top]);
    // Byte 9 holds bits 56..62 plus, in LEB128, the continuation bit iff bit 63 is set, i.e.
    // exactly v >> 56 in both formats; LEB128 byte 10 holds bit 63.
    p[8] = static_cast<uint8_t>(v >> 56);
    if constexpr (F == Format::kLeb128) {
      p[9] = static_cast<uint8_t>(v >> 63);
      return kByTopBit.leb_len[top];
    } else {
      return kByTopBit.capped_len[top];
    }
  }
}

// ---- batches -----------------------------------------------------------------------------

template <bool kZigZag, typename T>
inline uint64_t ToWire(T v) {
  if constexpr (kZigZag) {
    return ZigZagEncode(v);
  } else {
    return v;
  }
}

template <Format F, bool kZigZag, typename T>
size_t BatchSize(absl::Span<const T> values) {
  size_t total = 0;
  for (const T v : values) total += SizeOf<F>(ToWire<kZigZag>(v));
  return total;
}

template <Format F, bool kZigZag, typename Ops, typename T>
absl::StatusOr<size_t> EncodeBatchImpl(absl::Span<const T> values, absl::Span<uint8_t> out) {
  constexpr size_t M = kMax<F>;
  const T* in = values.data();
  const size_t n = values.size();
  uint8_t* const base = out.data();
  const size_t cap = out.size();
  size_t pos = 0;
  size_t i = 0;
  // Word tier while M more values follow (they overwrite the scratch) and M bytes remain.
  if (n > M) {
    const size_t fast_n = n - M;
    // Unrolled by 4 when 4 * M bytes of room remain: one room check per 4 values.
    while (i + 4 <= fast_n && cap - pos >= 4 * M) {
      pos += FastWrite<F, Ops>(ToWire<kZigZag>(in[i]), base + pos);
      pos += FastWrite<F, Ops>(ToWire<kZigZag>(in[i + 1]), base + pos);
      pos += FastWrite<F, Ops>(ToWire<kZigZag>(in[i + 2]), base + pos);
      pos += FastWrite<F, Ops>(ToWire<kZigZag>(in[i + 3]), base + pos);
      i += 4;
    }
    while (i < fast_n && cap - pos >= M) {
      pos += FastWrite<F, Ops>(ToWire<kZigZag>(in[i]), base + pos);
      ++i;
    }
  }
  // Scalar tier: exact writes, room checked per value.
  for (; i < n; ++i) {
    const uint64_t v = ToWire<kZigZag>(in[i]);
    const size_t len = SizeOf<F>(v);
    if (ABSL_PREDICT_FALSE(cap - pos < len)) {
      return MakeExhaustedError(F, pos + BatchSize<F, kZigZag>(values.subspan(i)), cap);
    }
    pos = static_cast<size_t>(ScalarWrite<F>(v, base + pos) - base);
  }
  return pos;
}

#if SERDIFF_VARINT_HAVE_BMI2_TIER
template <Format F, bool kZigZag, typename T>
SERDIFF_VARINT_BMI2_ENTRY absl::StatusOr<size_t> EncodeBatchBmi2(absl::Span<const T> values,
                                                                 absl::Span<uint8_t> out) {
  return EncodeBatchImpl<F, kZigZag, Bmi2Ops>(values, out);
}
#endif

// The loop of `tier`, which must be supported (kAuto resolved).
template <Format F, bool kZigZag, typename T>
absl::StatusOr<size_t> EncodeBatchTier(BatchTier tier, absl::Span<const T> values,
                                       absl::Span<uint8_t> out) {
  switch (tier) {
#if SERDIFF_VARINT_HAVE_BMI2_TIER
    case BatchTier::kBmi2:
    case BatchTier::kAvx512:  // the encoders have no AVX-512 loop: the BMI2 one
      return EncodeBatchBmi2<F, kZigZag>(values, out);
#endif
    case BatchTier::kPortable:
    case BatchTier::kAvx512Emulated:  // no AVX-512 encoder loop to emulate: the portable one
      return EncodeBatchImpl<F, kZigZag, PortableOps>(values, out);
    default:
      // kSse2: encoders use no SSE2 instruction, so its loop is the portable one.
      return EncodeBatchImpl<F, kZigZag, Sse2Ops>(values, out);
  }
}

template <Format F, bool kZigZag, typename T>
absl::StatusOr<size_t> EncodeBatchChecked(absl::Span<const T> values, absl::Span<uint8_t> out,
                                          BatchTier tier) {
  if (tier == BatchTier::kAuto) return EncodeBatchTier<F, kZigZag>(AutoBatchTier(), values, out);
  if (!BatchTierSupported(tier)) return UnsupportedTierError(tier);
  return EncodeBatchTier<F, kZigZag>(tier, values, out);
}

// The string is written once: no zero fill first (fill_string.h; this file is compiled as C++2b
// for it, src/serdiff/varint/CMakeLists.txt).
template <Format F, bool kZigZag, typename T>
std::string EncodeBatchToString(absl::Span<const T> values) {
  std::string s;
  const size_t size = BatchSize<F, kZigZag>(values);
  // Exact size: the encode cannot fail, and it writes exactly `size` bytes.
  internal::FillString(
      size,
      [&](uint8_t* p) {
        const absl::StatusOr<size_t> n =
            EncodeBatchTier<F, kZigZag>(AutoBatchTier(), values, absl::MakeSpan(p, size));
        return p + (n.ok() ? *n : 0);
      },
      &s);
  return s;
}

}  // namespace

std::string_view FormatName(Format f) {
  switch (f) {
    case Format::kLeb128:
      return "leb128";
    case Format::kFory:
      return "fory";
    case Format::kVInt:
      return "vint";
  }
  return "unknown";
}

size_t MaxBytes(Format f) {
  return f == Format::kLeb128 ? kMaxLeb128Bytes
                              : (f == Format::kFory ? kMaxForyBytes : kMaxVIntBytes);
}

uint64_t EncodeZigZag64(int64_t v) { return ZigZagEncode(v); }

int64_t DecodeZigZag64(uint64_t u) { return ZigZagDecode(u); }

size_t EncodedSize(Format f, uint64_t v) {
  return f == Format::kLeb128 ? Leb128Size(v) : Capped9Size(v);
}

uint8_t* WriteToArray(Format f, uint64_t v, uint8_t* out) {
  switch (f) {
    case Format::kLeb128:
      return ScalarWrite<Format::kLeb128>(v, out);
    case Format::kFory:
      return ScalarWrite<Format::kFory>(v, out);
    case Format::kVInt:
      return ScalarWrite<Format::kVInt>(v, out);
  }
  return out;
}

size_t EncodedBatchSize(Format f, absl::Span<const uint64_t> values){
    SERDIFF_VARINT_DISPATCH(f, (BatchSize<kF, false>(values)))}

size_t EncodedZigZagBatchSize(Format f, absl::Span<const int64_t> values){
    SERDIFF_VARINT_DISPATCH(f, (BatchSize<kF, true>(values)))}

absl::StatusOr<size_t> EncodeBatch(Format f, absl::Span<const uint64_t> values,
                                   absl::Span<uint8_t> out) {
  return EncodeBatch(f, values, out, BatchTier::kAuto);
}

absl::StatusOr<size_t> EncodeZigZagBatch(Format f, absl::Span<const int64_t> values,
                                         absl::Span<uint8_t> out) {
  return EncodeZigZagBatch(f, values, out, BatchTier::kAuto);
}

absl::StatusOr<size_t> EncodeBatch(Format f, absl::Span<const uint64_t> values,
                                   absl::Span<uint8_t> out, BatchTier tier){
    SERDIFF_VARINT_DISPATCH(f, (EncodeBatchChecked<kF, false>(values, out, tier)))}

absl::StatusOr<size_t> EncodeZigZagBatch(Format f, absl::Span<const int64_t> values,
                                         absl::Span<uint8_t> out, BatchTier tier){
    SERDIFF_VARINT_DISPATCH(f, (EncodeBatchChecked<kF, true>(values, out, tier)))}

std::string EncodeBatch(Format f, absl::Span<const uint64_t> values){
    SERDIFF_VARINT_DISPATCH(f, (EncodeBatchToString<kF, false>(values)))}

std::string EncodeZigZagBatch(Format f, absl::Span<const int64_t> values) {
  SERDIFF_VARINT_DISPATCH(f, (EncodeBatchToString<kF, true>(values)))
}

#undef SERDIFF_VARINT_DISPATCH

}  // namespace serdiff::varint
