// serdiff::varint decoders (contracts in varint.h): Read and the batch decoders' portable scalar
// tier, the word tier, and the 64-byte stop-mask block tiers of LEB128 and Fory. The tiers, and
// why they all report the same error class and offset, are described at the top of varint.cc;
// the helpers shared with the encoders are in varint_internal.h.
#include "serdiff/varint/varint.h"

#include <bit>
#include <cstring>
#include <type_traits>
// The portable stop mask is always compiled: DecodeBatchPortable uses it on every machine, so the
// harness compares it with the SSE2 mask on x86-64 too.
#if defined(__SSE2__)
#define SERDIFF_VARINT_SSE2 1
#include <emmintrin.h>
#else
#define SERDIFF_VARINT_SSE2 0
#endif

#include "absl/base/optimization.h"
#include "absl/strings/str_cat.h"
#include "absl/strings/str_format.h"
#include "serdiff/common/error_offset.h"
#include "serdiff/varint/varint_internal.h"
#if SERDIFF_VARINT_HAVE_AVX512_TIER
#include "serdiff/varint/varint_avx512_inl.h"
#endif

namespace serdiff::varint {
namespace {

using namespace varint_internal;  // NOLINT(google-build-using-namespace): the shared helpers

// ---- errors ------------------------------------------------------------------------------

enum class Err : uint8_t { kOk, kTruncated, kTooLong, kOverflow };

const char* ValueName(Format f) {
  switch (f) {
    case Format::kLeb128:
      return "LEB128 varint";
    case Format::kFory:
      return "Fory varuint64";
    case Format::kVInt:
      return "Cassandra vint";
  }
  return "varint";
}

// `start` = offset of the value's first byte; `available` = bytes from `start` to the end of
// the input; `last` = the offending byte (10th byte of a LEB128 value) for kTooLong/kOverflow.
ABSL_ATTRIBUTE_NOINLINE absl::Status MakeDecodeError(Format f, Err e, size_t start,
                                                     size_t available, uint8_t last) {
  // The offset travels as data too (serdiff/common/error_offset.h): the failing value's start.
  const int64_t at = static_cast<int64_t>(start);
  switch (e) {
    case Err::kTruncated:
      return WithErrorOffset(absl::OutOfRangeError(absl::StrCat(
                                 ValueName(f), " at byte offset ", start,
                                 ": truncated, the input ends after ", available, " of its bytes")),
                             at);
    case Err::kTooLong:
      return WithErrorOffset(absl::InvalidArgumentError(absl::StrFormat(
                                 "%s at byte offset %d: longer than 10 bytes (10th byte 0x%02x has "
                                 "the continuation bit)",
                                 ValueName(f), start, last)),
                             at);
    case Err::kOverflow:
      return WithErrorOffset(absl::InvalidArgumentError(absl::StrFormat(
                                 "%s at byte offset %d: 10th byte 0x%02x overflows 64 bits",
                                 ValueName(f), start, last)),
                             at);
    case Err::kOk:
      break;
  }
  return absl::InternalError("no error");
}

// ---- portable scalar tier ----------------------------------------------------------------

// Reads one value from data[*pos, size). On success advances *pos; on error leaves it and
// sets *last to the offending byte (LEB128 10th byte) when there is one.
template <Format F>
inline Err ScalarRead(const uint8_t* data, size_t size, size_t* pos, uint64_t* out, uint8_t* last) {
  const size_t start = *pos;
  const size_t avail = size - start;  // callers guarantee start <= size
  if constexpr (F == Format::kVInt) {
    if (avail == 0) return Err::kTruncated;
    const uint8_t first = data[start];
    const size_t extra = static_cast<size_t>(std::countl_one(first));  // 0..8
    if (avail < extra + 1) return Err::kTruncated;
    uint64_t v = first & (0xFFu >> extra);
    for (size_t i = 1; i <= extra; ++i) v = (v << 8) | data[start + i];
    *out = v;
    *pos = start + extra + 1;
    return Err::kOk;
  } else {
    uint64_t v = 0;
    for (size_t i = 0;; ++i) {
      if (i == avail) return Err::kTruncated;
      const uint8_t b = data[start + i];
      if (F == Format::kFory && i == 8) {  // 9th byte: 8 value bits, always the last
        v |= static_cast<uint64_t>(b) << 56;
      } else if (F == Format::kLeb128 && i == 9) {  // 10th byte: only bit 63 is left
        if (b > 1) {
          *last = b;
          return (b & 0x80) ? Err::kTooLong : Err::kOverflow;
        }
        v |= static_cast<uint64_t>(b) << 63;
      } else {
        v |= static_cast<uint64_t>(b & 0x7F) << (7 * i);
        if (b & 0x80) continue;
      }
      *out = v;
      *pos = start + i + 1;
      return Err::kOk;
    }
  }
}

// ---- word-at-a-time tier -----------------------------------------------------------------

// Reads one value at p; returns its length, or 0 with *last set on a LEB128 10th-byte error.
// Needs kMax<F> readable bytes at p.
template <Format F, typename Ops>
inline size_t FastRead(const uint8_t* p, uint64_t* out, uint8_t* last) {
  if constexpr (F == Format::kVInt) {
    const unsigned first = p[0];
    // Length classes that real data tends to stick to get their own (well predicted)
    // branches, so the next value's position does not wait for the leading-ones count.
    if (first < 0xC0) {
      // 1 or 2 bytes: 0xxxxxxx, or 10xxxxxx xxxxxxxx. Branch-free between the two.
      const unsigned two = first >> 7;
      const uint64_t pair = (static_cast<uint64_t>(first & 0x3F) << 8) | p[1];
      const uint64_t pick = 0 - static_cast<uint64_t>(two);  // no branch: lengths mix
      *out = (pair & pick) | (first & ~pick);
      return 1 + two;
    }
    if (first == 0xFF) {  // 9 bytes: the 8 following bytes are the whole value
      *out = Load64BE(p + 1);
      return 9;
    }
    const unsigned extra = static_cast<unsigned>(std::countl_one(static_cast<uint8_t>(first)));
    // 2..7 extra bytes: top bits from the first byte, then the `extra` following bytes,
    // the top ones of a big-endian load.
    const uint64_t high = static_cast<uint64_t>(first & (0xFFu >> extra)) << (8 * extra);
    const uint64_t low = Load64BE(p + 1) >> (64 - 8 * extra);
    *out = high | low;
    return extra + 1;
  } else {
    const uint64_t w = Load64LE(p);
    if ((w & 0x80) == 0) {  // one byte: most small values
      *out = w & 0x7F;
      return 1;
    }
    const uint64_t stop = ~w & kMsbs;  // bit 7 of every byte that ends the value
    if (ABSL_PREDICT_TRUE(stop != 0)) {
      const uint64_t keep = stop ^ (stop - 1);  // all bits up to the first stop bit
      *out = Ops::Compact(w & keep);
      return static_cast<size_t>(std::countr_zero(stop) >> 3) + 1;
    }
    const uint64_t b8 = p[8];
    uint64_t v = Ops::Compact(w);
    if constexpr (F == Format::kFory) {
      *out = v | (b8 << 56);
      return 9;
    } else {
      // Branch-free 9 vs 10 bytes: the 10th byte counts only if the 9th continues.
      const uint64_t more = b8 >> 7;
      const uint64_t b9 = p[9] & (0 - more);
      if (ABSL_PREDICT_FALSE(b9 > 1)) {
        *last = static_cast<uint8_t>(b9);
        return 0;
      }
      *out = v | ((b8 & 0x7F) << 56) | (b9 << 63);
      return 9 + more;
    }
  }
}

// ---- batches -----------------------------------------------------------------------------

template <bool kZigZag, typename T>
inline T FromWire(uint64_t u) {
  if constexpr (kZigZag) {
    return ZigZagDecode(u);
  } else {
    return u;
  }
}

// ---- block tiers (LEB128 and Fory decode) ------------------------------------------------
//
// Decoding one value at a time is bound by the chain pos -> load -> length -> pos. The block
// tiers break it with a stop mask: bit k set iff byte k of a 64-byte window has no
// continuation bit (ends a LEB128 group run). Value ends are then found with
// count-trailing-zeros, and the loads and bit compaction of successive values overlap.

constexpr size_t kWindowBytes = 64;
// A window's mask reads bytes [0, 64) past its start. A value that ends at byte e of the
// window reads 8 bytes from its start s <= e, plus bytes s + 8 and s + 9 only when none of
// those 8 ends it (then s + 8 <= e): all reads are below window start + 72. 80 bytes of
// input past the window start suffice (also for Fory blocks, which start at a value).
constexpr size_t kWindowSlack = 80;

// Bit k (0..63) set <=> p[k] < 0x80, word at a time: a word's 8 flags sit at bits 8j;
// multiplying by sum_j 2^(56 - 7j) moves flag j to bit 56 + j without carries (all partial
// products land on distinct bits). Any 64-bit target.
inline uint64_t StopMask64Portable(const uint8_t* p) {
  uint64_t m = 0;
  for (int k = 0; k < 8; ++k) {
    const uint64_t flags = (~Load64LE(p + 8 * k) & kMsbs) >> 7;
    m |= ((flags * 0x0102040810204080ULL) >> 56) << (8 * k);
  }
  return m;
}

// The same mask by the fastest means the build has: SSE2 (part of x86-64 itself), one
// movemask per 16 bytes; elsewhere the portable form. kPortable forces the portable form.
template <bool kPortable>
inline uint64_t StopMask64(const uint8_t* p) {
#if SERDIFF_VARINT_SSE2
  if constexpr (!kPortable) {
    const auto top_bits = [p](int k) {
      const __m128i v = _mm_loadu_si128(reinterpret_cast<const __m128i*>(p + 16 * k));
      return static_cast<uint64_t>(static_cast<uint16_t>(_mm_movemask_epi8(v))) << (16 * k);
    };
    return ~(top_bits(0) | top_bits(1) | top_bits(2) | top_bits(3));
  }
#endif
  return StopMask64Portable(p);
}

// Walks the stops in mask m of the window at data + base, decoding the value that ends at
// each into dst[*i] (the first one starts at *pos, possibly in an earlier window). Returns
// a word with bit 7 set if a value was invalid (the caller discards the window's values).
// kCheckCount: stop at n values (otherwise the caller guarantees n - *i >= 64).
template <bool kZigZag, bool kCheckCount, typename Ops, typename T>
inline uint64_t WalkLeb128Window(const uint8_t* data, size_t base, uint64_t m, size_t* pos_io,
                                 T* dst, size_t n, size_t* i_io) {
  size_t pos = *pos_io;
  size_t i = *i_io;
  uint64_t err = 0;
  while (m != 0) {
    if constexpr (kCheckCount) {
      if (i == n) break;
    }
    const size_t end = base + static_cast<unsigned>(std::countr_zero(m));  // last byte
    const uint8_t* const p = data + pos;
    const uint64_t w = Load64LE(p);
    const uint64_t stop = ~w & kMsbs;
    uint64_t v;
    if (stop != 0) {
      v = Ops::CompactShort(w, stop);
    } else {
      // 9 or more bytes; 9 and 10 are about equally likely for large magnitudes, so no
      // branch on which. Bits 56..63 are b8 & (0x7f | b9 << 7): bit 63 = b9 bit 0, and only
      // when b8 continues. Invalid (10th byte > 0x01, or more than 10 bytes, where b9 >=
      // 0x80) iff b8 continues and b9 >= 2. Bit 7 of (b9 + 126) | b9 is set iff b9 >= 2
      // (b9 + 126 carries into bit 7 for 2..0x7f; b9's own bit 7 covers 0x80..0xff), so
      // bit 7 of b8 & that is the error flag.
      const uint64_t b8 = p[8];
      const uint64_t b9 = p[9];
      err |= b8 & ((b9 + 126) | b9);
      v = Ops::Compact(w) | ((b8 & (0x7F | (b9 << 7))) << 56);
    }
    dst[i++] = FromWire<kZigZag, T>(v);
    pos = end + 1;
    m &= m - 1;
  }
  *pos_io = pos;
  *i_io = i;
  return err;
}

// LEB128 window tier: decodes from data[*pos, size) into dst[*i, n) over consecutive 64-byte
// windows while kWindowSlack bytes remain past the window start. The windows do not depend
// on where values start, so their masks can be computed ahead of the walk. Stops at the
// first value of a window that holds an invalid value (all of that window's values are
// redone by the next tier, which reports the error), or when no value ends in the last
// windows it may scan.
template <bool kZigZag, typename Ops, typename T>
inline void DecodeLeb128Windows(const uint8_t* data, size_t size, size_t* pos_io, T* dst, size_t n,
                                size_t* i_io) {
  size_t pos = *pos_io;
  size_t i = *i_io;
  size_t base = pos;
  while (i < n && size - base >= kWindowSlack) {
    const uint64_t m = StopMask64<!Ops::kSse2Mask>(data + base);
    const size_t pos0 = pos;
    const size_t i0 = i;
    const uint64_t err =
        n - i >= kWindowBytes
            ? WalkLeb128Window<kZigZag, false, Ops>(data, base, m, &pos, dst, n, &i)
            : WalkLeb128Window<kZigZag, true, Ops>(data, base, m, &pos, dst, n, &i);
    if (ABSL_PREDICT_FALSE(err & 0x80)) {
      pos = pos0;
      i = i0;
      break;
    }
    base += kWindowBytes;
  }
  *pos_io = pos;
  *i_io = i;
}

// Fory window tier. Fory's 9th byte ends a value whatever its top bit, so a value ends at
// its first stop or at its 9th byte, whichever comes first; a 9th byte >= 0x80 is not in
// the mask, and the stop bit of a value is consumed only when the value ended there.
// Fory values cannot be invalid, so the walk reports nothing. Two walks:
//   * kDense (short values, which nearly always end at a stop): mask chain m &= m - 1 as
//     for LEB128, and a branch for the rare value that runs to its 9th byte;
//   * otherwise (large magnitudes, where a 9th byte >= 0x80 is a coin flip): branch free,
//     at the price of a longer chain through the mask.
template <bool kZigZag, bool kCheckCount, bool kDense, typename Ops, typename T>
inline void WalkForyWindow(const uint8_t* data, size_t base, uint64_t m, size_t* pos_io, T* dst,
                           size_t n, size_t* i_io) {
  size_t pos = *pos_io;
  size_t i = *i_io;
  const size_t window_end = base + kWindowBytes;
  for (;;) {
    if constexpr (kCheckCount) {
      if (i == n) break;
    }
    // The next stop (window_end when there is none left: countr_zero(0) == 64).
    const size_t stop = base + static_cast<unsigned>(std::countr_zero(m));
    const uint8_t* const p = data + pos;
    uint64_t v;
    if constexpr (kDense) {
      if (ABSL_PREDICT_TRUE(stop - pos <= 8)) {  // ends at its stop (stop >= pos always)
        if (stop >= window_end) break;
        const uint64_t w = Load64LE(p);
        const uint64_t stop_bits = ~w & kMsbs;
        v = stop_bits != 0 ? Ops::CompactShort(w, stop_bits)
                           : Ops::Compact(w) | (static_cast<uint64_t>(p[8]) << 56);
        pos = stop + 1;
        m &= m - 1;
      } else {  // runs to its 9th byte; the stop belongs to a later value
        if (pos + 8 >= window_end) break;
        v = Ops::Compact(Load64LE(p)) | (static_cast<uint64_t>(p[8]) << 56);
        pos += 9;
      }
    } else {
      const size_t end = stop < pos + 8 ? stop : pos + 8;  // the value's last byte
      if (end >= window_end) break;                        // it ends in a later window
      const uint64_t w = Load64LE(p);
      const uint64_t stop_bits = ~w & kMsbs;
      v = stop_bits != 0 ? Ops::CompactShort(w, stop_bits)
                         : Ops::Compact(w) | (static_cast<uint64_t>(p[8]) << 56);
      pos = end + 1;
      m &= m - static_cast<uint64_t>(end == stop);  // clears the lowest stop iff consumed
    }
    dst[i++] = FromWire<kZigZag, T>(v);
  }
  *pos_io = pos;
  *i_io = i;
}

template <bool kZigZag, typename Ops, typename T>
inline void DecodeForyWindows(const uint8_t* data, size_t size, size_t* pos_io, T* dst, size_t n,
                              size_t* i_io) {
  size_t pos = *pos_io;
  size_t i = *i_io;
  size_t base = pos;
  bool dense = true;  // whether the last window held many (hence short) values
  while (i < n && size - base >= kWindowSlack) {
    const uint64_t m = StopMask64<!Ops::kSse2Mask>(data + base);
    const size_t i0 = i;
    if (n - i >= kWindowBytes) {
      if (dense) {
        WalkForyWindow<kZigZag, false, true, Ops>(data, base, m, &pos, dst, n, &i);
      } else {
        WalkForyWindow<kZigZag, false, false, Ops>(data, base, m, &pos, dst, n, &i);
      }
    } else {
      WalkForyWindow<kZigZag, true, false, Ops>(data, base, m, &pos, dst, n, &i);
    }
    dense = i - i0 > 12;  // more than 12 values in 64 bytes: about 5 bytes or less each
    base += kWindowBytes;
  }
  *pos_io = pos;
  *i_io = i;
}

// The vector window kernel run before the scalar windows, LEB128 only (varint_avx512_inl.h):
// none, the native avx512 one, or the same source over SIMDe's emulation (kAvx512Emulated).
enum class VectorWindows : uint8_t { kNone, kNative, kEmulated };

// LEB128 windows decoded 8 values at a time first where `kVectorWindows` says so; the scalar
// windows continue where it stops.
template <Format F, bool kZigZag, typename Ops, VectorWindows kVectorWindows = VectorWindows::kNone,
          typename T>
absl::StatusOr<size_t> DecodeBatchImpl(absl::Span<const uint8_t> in, absl::Span<T> out) {
  constexpr size_t M = kMax<F>;
  const uint8_t* const data = in.data();
  const size_t size = in.size();
  T* dst = out.data();
  const size_t n = out.size();
  size_t pos = 0;
  size_t i = 0;
  uint8_t last = 0;
  if constexpr (F == Format::kLeb128) {
#if SERDIFF_VARINT_HAVE_AVX512_TIER
    if constexpr (kVectorWindows == VectorWindows::kNative) {
      DecodeLeb128WindowsAvx512<kZigZag>(data, size, &pos, dst, n, &i);
    }
#endif
#if SERDIFF_VARINT_HAVE_AVX512_EMULATION
    if constexpr (kVectorWindows == VectorWindows::kEmulated) {
      static_assert(kZigZag == std::is_signed_v<T>, "the emulated kernel picks zigzag by T");
      DecodeLeb128WindowsAvx512Emulated(data, size, &pos, dst, n, &i);
    }
#endif
    DecodeLeb128Windows<kZigZag, Ops>(data, size, &pos, dst, n, &i);
  } else if constexpr (F == Format::kFory) {
    DecodeForyWindows<kZigZag, Ops>(data, size, &pos, dst, n, &i);
  }
  // Word tier while M bytes remain: every load stays inside `in`.
  if (size >= M) {
    const size_t fast_end = size - M + 1;  // pos < fast_end <=> M bytes remain
    while (i < n && pos < fast_end) {
      uint64_t u;
      const size_t len = FastRead<F, Ops>(data + pos, &u, &last);
      if (ABSL_PREDICT_FALSE(len == 0)) {
        return MakeDecodeError(F, (last & 0x80) ? Err::kTooLong : Err::kOverflow, pos, size - pos,
                               last);
      }
      dst[i++] = FromWire<kZigZag, T>(u);
      pos += len;
    }
  }
  // Scalar tier near the end of the input.
  for (; i < n; ++i) {
    uint64_t u;
    const size_t start = pos;
    const Err e = ScalarRead<F>(data, size, &pos, &u, &last);
    if (ABSL_PREDICT_FALSE(e != Err::kOk)) return MakeDecodeError(F, e, start, size - start, last);
    dst[i] = FromWire<kZigZag, T>(u);
  }
  return pos;
}

#if SERDIFF_VARINT_HAVE_BMI2_TIER
template <Format F, bool kZigZag, typename T>
SERDIFF_VARINT_BMI2_ENTRY absl::StatusOr<size_t> DecodeBatchBmi2(absl::Span<const uint8_t> in,
                                                                 absl::Span<T> out) {
  return DecodeBatchImpl<F, kZigZag, Bmi2Ops>(in, out);
}
#endif

#if SERDIFF_VARINT_HAVE_AVX512_TIER
template <Format F, bool kZigZag, typename T>
SERDIFF_VARINT_AVX512_ENTRY absl::StatusOr<size_t> DecodeBatchAvx512(absl::Span<const uint8_t> in,
                                                                     absl::Span<T> out) {
  return DecodeBatchImpl<F, kZigZag, Bmi2Ops, VectorWindows::kNative>(in, out);
}
#endif

// The loop of `tier`, which must be supported (kAuto resolved).
template <Format F, bool kZigZag, typename T>
absl::StatusOr<size_t> DecodeBatchTier(BatchTier tier, absl::Span<const uint8_t> in,
                                       absl::Span<T> out) {
  switch (tier) {
#if SERDIFF_VARINT_HAVE_BMI2_TIER
    case BatchTier::kBmi2:
      return DecodeBatchBmi2<F, kZigZag>(in, out);
#endif
#if SERDIFF_VARINT_HAVE_AVX512_TIER
    case BatchTier::kAvx512:
      return DecodeBatchAvx512<F, kZigZag>(in, out);
#endif
#if SERDIFF_VARINT_HAVE_AVX512_EMULATION
    case BatchTier::kAvx512Emulated:
      return DecodeBatchImpl<F, kZigZag, PortableOps, VectorWindows::kEmulated>(in, out);
#endif
#if SERDIFF_VARINT_SSE2
    case BatchTier::kSse2:
      return DecodeBatchImpl<F, kZigZag, Sse2Ops>(in, out);
#endif
    default:
      return DecodeBatchImpl<F, kZigZag, PortableOps>(in, out);
  }
}

template <Format F, bool kZigZag, typename T>
absl::StatusOr<size_t> DecodeBatchChecked(absl::Span<const uint8_t> in, absl::Span<T> out,
                                          BatchTier tier) {
  if (tier == BatchTier::kAuto) return DecodeBatchTier<F, kZigZag>(AutoBatchTier(), in, out);
  if (!BatchTierSupported(tier)) return UnsupportedTierError(tier);
  return DecodeBatchTier<F, kZigZag>(tier, in, out);
}

}  // namespace

absl::StatusOr<uint64_t> Read(Format f, absl::Span<const uint8_t> in, size_t* offset) {
  const size_t start = *offset;
  if (start > in.size()) return MakeDecodeError(f, Err::kTruncated, start, 0, 0);
  size_t pos = start;
  uint64_t v = 0;
  uint8_t last = 0;
  Err e = Err::kOk;
  switch (f) {
    case Format::kLeb128:
      e = ScalarRead<Format::kLeb128>(in.data(), in.size(), &pos, &v, &last);
      break;
    case Format::kFory:
      e = ScalarRead<Format::kFory>(in.data(), in.size(), &pos, &v, &last);
      break;
    case Format::kVInt:
      e = ScalarRead<Format::kVInt>(in.data(), in.size(), &pos, &v, &last);
      break;
  }
  if (e != Err::kOk) return MakeDecodeError(f, e, start, in.size() - start, last);
  *offset = pos;
  return v;
}

absl::StatusOr<size_t> DecodeBatch(Format f, absl::Span<const uint8_t> in,
                                   absl::Span<uint64_t> out) {
  return DecodeBatch(f, in, out, BatchTier::kAuto);
}

absl::StatusOr<size_t> DecodeZigZagBatch(Format f, absl::Span<const uint8_t> in,
                                         absl::Span<int64_t> out) {
  return DecodeZigZagBatch(f, in, out, BatchTier::kAuto);
}

absl::StatusOr<size_t> DecodeBatch(Format f, absl::Span<const uint8_t> in, absl::Span<uint64_t> out,
                                   BatchTier tier){
    SERDIFF_VARINT_DISPATCH(f, (DecodeBatchChecked<kF, false>(in, out, tier)))}

absl::StatusOr<size_t> DecodeZigZagBatch(Format f, absl::Span<const uint8_t> in,
                                         absl::Span<int64_t> out, BatchTier tier){
    SERDIFF_VARINT_DISPATCH(f, (DecodeBatchChecked<kF, true>(in, out, tier)))}

absl::StatusOr<size_t> DecodeBatchPortable(Format f, absl::Span<const uint8_t> in,
                                           absl::Span<uint64_t> out) {
  return DecodeBatch(f, in, out, BatchTier::kPortable);
}

#undef SERDIFF_VARINT_DISPATCH

}  // namespace serdiff::varint
