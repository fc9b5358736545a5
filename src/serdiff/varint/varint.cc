// serdiff::varint — optimized variable-length integer codecs (see varint.h).
//
// Two tiers live here:
//   * the portable scalar tier: byte-at-a-time, bounds-checked per value (WriteToArray, Read,
//     and the tails of every batch loop);
//   * the word-at-a-time tier used by the batch functions while enough room remains: one
//     unaligned 8-byte load or store per value plus at most two single bytes, with the length
//     taken from a count of leading or trailing zeros and the 7-bit groups spread or compacted
//     with three shift/mask steps. No BMI2, no SIMD: plain x86-64 / any 64-bit target.
//
// Scratch-write rule of the word tier: a fast write of one value may store up to
// MaxBytes(f) - 1 bytes past that value's last byte. It is only used while (a) at least
// MaxBytes(f) bytes of `out` remain, so the store stays inside `out`, and (b) at least
// MaxBytes(f) more values follow, each at least one byte long, so the following values
// overwrite every scratch byte. Hence a successful batch encode writes exactly
// out[0, returned size) and nothing else.
#include "serdiff/varint/varint.h"

#include <bit>
#include <cstring>

#include "absl/base/optimization.h"
#include "absl/strings/str_cat.h"
#include "absl/strings/str_format.h"

namespace serdiff::varint {
namespace {

constexpr uint64_t kMsbs = 0x8080808080808080ULL;  // the continuation bit of each byte
constexpr uint64_t kLows = 0x7F7F7F7F7F7F7F7FULL;  // the 7 value bits of each byte

// ---- word helpers ------------------------------------------------------------------------

inline uint64_t ByteSwap64(uint64_t w) { return __builtin_bswap64(w); }

// Little-endian 8-byte load/store at any alignment.
inline uint64_t Load64LE(const uint8_t* p) {
  uint64_t w;
  std::memcpy(&w, p, sizeof w);
  if constexpr (std::endian::native == std::endian::big) w = ByteSwap64(w);
  return w;
}
inline void Store64LE(uint8_t* p, uint64_t w) {
  if constexpr (std::endian::native == std::endian::big) w = ByteSwap64(w);
  std::memcpy(p, &w, sizeof w);
}
// Big-endian 8-byte load at any alignment.
inline uint64_t Load64BE(const uint8_t* p) {
  uint64_t w;
  std::memcpy(&w, p, sizeof w);
  if constexpr (std::endian::native == std::endian::little) w = ByteSwap64(w);
  return w;
}

// Spreads the low 56 bits of x into eight 7-bit groups, group k in bits [8k, 8k+7) (bit 7 of
// every byte clear): 28|28 -> 14|14|14|14 -> 7 x 8.
inline uint64_t Spread56(uint64_t x) {
  x = (x & 0x000000000FFFFFFFULL) | ((x & 0x00FFFFFFF0000000ULL) << 4);
  x = (x & 0x00003FFF00003FFFULL) | ((x & 0x0FFFC0000FFFC000ULL) << 2);
  x = (x & 0x007F007F007F007FULL) | ((x & 0x3F803F803F803F80ULL) << 1);
  return x;
}

// Inverse of Spread56: eight 7-bit groups (bit 7 of each byte must be clear) -> 56 bits.
inline uint64_t Compact56(uint64_t x) {
  x = (x & 0x007F007F007F007FULL) | ((x & 0x7F007F007F007F00ULL) >> 1);
  x = (x & 0x00003FFF00003FFFULL) | ((x & 0x3FFF00003FFF0000ULL) >> 2);
  x = (x & 0x000000000FFFFFFFULL) | ((x & 0x0FFFFFFF00000000ULL) >> 4);
  return x;
}

// Continuation bits of the first min(len, 9) - 1 bytes of a LEB128/Fory value of `len` bytes.
constexpr uint64_t kContinuation[11] = {
    0,                      // unused
    0,                      // 1 byte
    0x0000000000000080ULL,  // 2
    0x0000000000008080ULL,  // 3
    0x0000000000808080ULL,  // 4
    0x0000000080808080ULL,  // 5
    0x0000008080808080ULL,  // 6
    0x0000808080808080ULL,  // 7
    0x0080808080808080ULL,  // 8
    0x8080808080808080ULL,  // 9
    0x8080808080808080ULL,  // 10
};

// ---- sizes -------------------------------------------------------------------------------

// ceil(bit_width(v | 1) / 7), 1..10, as a multiply and shift instead of a division:
// (w * 9 + 64) / 64 == ceil(w / 7) for every w in 1..64 (checked exhaustively by the tests
// through EncodedSize against the reference).
inline size_t Leb128Size(uint64_t v) {
  const unsigned w = 64u - static_cast<unsigned>(std::countl_zero(v | 1));
  return (w * 9u + 64u) / 64u;
}
// Fory and Cassandra both cap at 9 bytes and otherwise need exactly the LEB128 length
// (7 value bits per byte in either layout, 8 in the 9th).
inline size_t Capped9Size(uint64_t v) {
  const size_t n = Leb128Size(v);
  return n > 9 ? 9 : n;
}

template <Format F>
inline size_t SizeOf(uint64_t v) {
  if constexpr (F == Format::kLeb128) {
    return Leb128Size(v);
  } else {
    return Capped9Size(v);
  }
}

template <Format F>
constexpr size_t kMax = F == Format::kLeb128 ? kMaxLeb128Bytes : kMaxForyBytes;

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
  switch (e) {
    case Err::kTruncated:
      return absl::OutOfRangeError(absl::StrCat(ValueName(f), " at byte offset ", start,
                                                ": truncated, the input ends after ", available,
                                                " of its bytes"));
    case Err::kTooLong:
      return absl::InvalidArgumentError(
          absl::StrFormat("%s at byte offset %d: longer than 10 bytes (10th byte 0x%02x has "
                          "the continuation bit)",
                          ValueName(f), start, last));
    case Err::kOverflow:
      return absl::InvalidArgumentError(absl::StrFormat(
          "%s at byte offset %d: 10th byte 0x%02x overflows 64 bits", ValueName(f), start, last));
    case Err::kOk:
      break;
  }
  return absl::InternalError("no error");
}

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

// Writes v at p; returns its length. Needs kMax<F> writable bytes at p and may store
// scratch into all of them (see the file comment).
template <Format F>
inline size_t FastWrite(uint64_t v, uint8_t* p) {
  const size_t len = SizeOf<F>(v);
  if constexpr (F == Format::kVInt) {
    // First byte: `len - 1` leading ones, separator, top bits (0xFF when len == 9; then the
    // shift by 64 is masked to 0 and the OR with 0xFF wins). Then the low len - 1 bytes of v,
    // big-endian: bswap puts v's top byte first, the right shift drops the 9 - len unused
    // ones (for len == 1 the masked shift stores scratch, which is allowed).
    const unsigned extra = static_cast<unsigned>(len - 1);
    p[0] = static_cast<uint8_t>((0xFF00u >> extra) | (v >> ((8 * extra) & 63)));
    Store64LE(p + 1, ByteSwap64(v) >> ((64 - 8 * extra) & 63));
  } else {
    Store64LE(p, Spread56(v) | kContinuation[len]);
    // Byte 9 holds bits 56..62 plus, in LEB128, the continuation bit iff bit 63 is set, i.e.
    // exactly v >> 56 in both formats; LEB128 byte 10 holds bit 63.
    p[8] = static_cast<uint8_t>(v >> 56);
    if constexpr (F == Format::kLeb128) p[9] = static_cast<uint8_t>(v >> 63);
  }
  return len;
}

// Reads one value at p; returns its length, or 0 with *last set on a LEB128 10th-byte error.
// Needs kMax<F> readable bytes at p.
template <Format F>
inline size_t FastRead(const uint8_t* p, uint64_t* out, uint8_t* last) {
  if constexpr (F == Format::kVInt) {
    const unsigned first = p[0];
    if (first < 0x80) {
      *out = first;
      return 1;
    }
    const unsigned extra = static_cast<unsigned>(std::countl_one(static_cast<uint8_t>(first)));
    // Top bits from the first byte (none when extra == 8: mask 0, shift masked to 0), then
    // the `extra` following bytes, the top ones of a big-endian load.
    const uint64_t high = static_cast<uint64_t>(first & (0xFFu >> extra)) << ((8 * extra) & 63);
    const uint64_t low = Load64BE(p + 1) >> ((64 - 8 * extra) & 63);
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
      *out = Compact56(w & keep & kLows);
      return static_cast<size_t>(std::countr_zero(stop) >> 3) + 1;
    }
    const uint64_t b8 = p[8];
    uint64_t v = Compact56(w & kLows);
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
inline uint64_t ToWire(T v) {
  if constexpr (kZigZag) {
    return EncodeZigZag64(v);
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

template <Format F, bool kZigZag, typename T>
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
      pos += FastWrite<F>(ToWire<kZigZag>(in[i]), base + pos);
      pos += FastWrite<F>(ToWire<kZigZag>(in[i + 1]), base + pos);
      pos += FastWrite<F>(ToWire<kZigZag>(in[i + 2]), base + pos);
      pos += FastWrite<F>(ToWire<kZigZag>(in[i + 3]), base + pos);
      i += 4;
    }
    while (i < fast_n && cap - pos >= M) {
      pos += FastWrite<F>(ToWire<kZigZag>(in[i]), base + pos);
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

template <Format F, bool kZigZag, typename T>
std::string EncodeBatchToString(absl::Span<const T> values) {
  std::string s(BatchSize<F, kZigZag>(values), '\0');
  // Exact size: cannot fail.
  const auto written = EncodeBatchImpl<F, kZigZag>(
      values, absl::MakeSpan(reinterpret_cast<uint8_t*>(s.data()), s.size()));
  (void)written;
  return s;
}

template <bool kZigZag, typename T>
inline T FromWire(uint64_t u) {
  if constexpr (kZigZag) {
    return DecodeZigZag64(u);
  } else {
    return u;
  }
}

template <Format F, bool kZigZag, typename T>
absl::StatusOr<size_t> DecodeBatchImpl(absl::Span<const uint8_t> in, absl::Span<T> out) {
  constexpr size_t M = kMax<F>;
  const uint8_t* const data = in.data();
  const size_t size = in.size();
  T* dst = out.data();
  const size_t n = out.size();
  size_t pos = 0;
  size_t i = 0;
  uint8_t last = 0;
  // Word tier while M bytes remain: every load stays inside `in`.
  if (size >= M) {
    const size_t fast_end = size - M + 1;  // pos < fast_end <=> M bytes remain
    while (i < n && pos < fast_end) {
      uint64_t u;
      const size_t len = FastRead<F>(data + pos, &u, &last);
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

uint64_t EncodeZigZag64(int64_t v) {
  // Arithmetic right shift of a signed value is defined in C++20.
  return (static_cast<uint64_t>(v) << 1) ^ static_cast<uint64_t>(v >> 63);
}

int64_t DecodeZigZag64(uint64_t u) { return static_cast<int64_t>((u >> 1) ^ (0 - (u & 1))); }

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

// Dispatch helpers: one instantiation per format.
#define SERDIFF_VARINT_DISPATCH(f, expr_template) \
  switch (f) {                                    \
    case Format::kLeb128: {                       \
      constexpr Format kF = Format::kLeb128;      \
      return expr_template;                       \
    }                                             \
    case Format::kFory: {                         \
      constexpr Format kF = Format::kFory;        \
      return expr_template;                       \
    }                                             \
    case Format::kVInt:                           \
    default: {                                    \
      constexpr Format kF = Format::kVInt;        \
      return expr_template;                       \
    }                                             \
  }

size_t EncodedBatchSize(Format f, absl::Span<const uint64_t> values){
    SERDIFF_VARINT_DISPATCH(f, (BatchSize<kF, false>(values)))}

size_t EncodedZigZagBatchSize(Format f, absl::Span<const int64_t> values){
    SERDIFF_VARINT_DISPATCH(f, (BatchSize<kF, true>(values)))}

absl::StatusOr<size_t> EncodeBatch(Format f, absl::Span<const uint64_t> values,
                                   absl::Span<uint8_t> out){
    SERDIFF_VARINT_DISPATCH(f, (EncodeBatchImpl<kF, false>(values, out)))}

absl::StatusOr<size_t> EncodeZigZagBatch(Format f, absl::Span<const int64_t> values,
                                         absl::Span<uint8_t> out){
    SERDIFF_VARINT_DISPATCH(f, (EncodeBatchImpl<kF, true>(values, out)))}

std::string EncodeBatch(Format f, absl::Span<const uint64_t> values){
    SERDIFF_VARINT_DISPATCH(f, (EncodeBatchToString<kF, false>(values)))}

std::string EncodeZigZagBatch(Format f, absl::Span<const int64_t> values){
    SERDIFF_VARINT_DISPATCH(f, (EncodeBatchToString<kF, true>(values)))}

absl::StatusOr<size_t> DecodeBatch(Format f, absl::Span<const uint8_t> in,
                                   absl::Span<uint64_t> out){
    SERDIFF_VARINT_DISPATCH(f, (DecodeBatchImpl<kF, false>(in, out)))}

absl::StatusOr<size_t> DecodeZigZagBatch(Format f, absl::Span<const uint8_t> in,
                                         absl::Span<int64_t> out) {
  SERDIFF_VARINT_DISPATCH(f, (DecodeBatchImpl<kF, true>(in, out)))
}

#undef SERDIFF_VARINT_DISPATCH

}  // namespace serdiff::varint
