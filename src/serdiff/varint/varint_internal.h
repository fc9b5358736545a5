// serdiff::varint internal: what the encoders (varint.cc) and the decoders (varint_decode.cc)
// share: the little- and big-endian word loads and stores, the 7-bit group spread and compaction,
// the per-length tables looked up by a value's top bit, and the macro that turns a run-time Format
// into one template instantiation per format. Not part of the public API (that is varint.h).
#pragma once

#include <bit>
#include <cstddef>
#include <cstdint>
#include <cstring>

#include "absl/base/attributes.h"
#include "absl/status/status.h"
#include "serdiff/varint/varint.h"

namespace serdiff::varint::varint_internal {

inline constexpr uint64_t kMsbs = 0x8080808080808080ULL;  // the continuation bit of each byte
inline constexpr uint64_t kLows = 0x7F7F7F7F7F7F7F7FULL;  // the 7 value bits of each byte

// ---- zigzag -------------------------------------------------------------------------------
// The bodies of EncodeZigZag64 / DecodeZigZag64 (varint.h), inline for the batch loops of both
// files (a call into the other file per value cost the decoders about a third of their time).
inline uint64_t ZigZagEncode(int64_t v) {
  // Arithmetic right shift of a signed value is defined in C++20.
  return (static_cast<uint64_t>(v) << 1) ^ static_cast<uint64_t>(v >> 63);
}
inline int64_t ZigZagDecode(uint64_t u) { return static_cast<int64_t>((u >> 1) ^ (0 - (u & 1))); }

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

// Inverse of Spread56: the low 7 bits of each of the 8 bytes -> 56 bits (bit 7 of every byte
// is ignored).
inline uint64_t Compact56(uint64_t x) {
  x = (x & 0x007F007F007F007FULL) | ((x & 0x7F007F007F007F00ULL) >> 1);
  x = (x & 0x00003FFF00003FFFULL) | ((x & 0x3FFF00003FFF0000ULL) >> 2);
  x = (x & 0x000000000FFFFFFFULL) | ((x & 0x0FFFFFFF00000000ULL) >> 4);
  return x;
}

// InvalidArgument "varint tier <name> is not supported by this CPU" (varint_tier.cc).
absl::Status UnsupportedTierError(BatchTier tier);

// ---- CPU tiers ---------------------------------------------------------------------------
//
// The batch loops are templates over a tier's primitives (BatchTier in varint.h):
//   PortableOps  the shift/mask spread and compaction above; stop masks by multiply
//   Sse2Ops      the same, stop masks by SSE2 movemask (x86-64's baseline)
//   Bmi2Ops      PDEP/PEXT (BMI2) spread and compact a value in one instruction each; SSE2 masks
// The BMI2 instructions are emitted by inline assembly rather than intrinsics so that the loops
// need no per-function target attribute (the intrinsics refuse to inline into code compiled for
// baseline x86-64); a Bmi2Ops loop is only entered after the CPU reported BMI2.
struct PortableOps {
  static constexpr bool kSse2Mask = false;
  static uint64_t Spread(uint64_t x) { return Spread56(x); }
  static uint64_t Compact(uint64_t x) { return Compact56(x); }
  // The value whose first 8 bytes are w and whose first stop (byte without continuation bit) is
  // the lowest set bit of `stop` = ~w & kMsbs, nonzero (1..8 bytes); bytes after it ignored.
  static uint64_t CompactShort(uint64_t w, uint64_t stop) {
    uint64_t x = w & (stop ^ (stop - 1));  // the value's bytes; bit 7s are dropped below
    x = (x & 0x007F007F007F007FULL) | ((x & 0x7F007F007F007F00ULL) >> 1);
    if ((stop & 0x8080) == 0) {  // 3..8 bytes; 1-2 byte values (small magnitudes) stop here
      x = (x & 0x00003FFF00003FFFULL) | ((x & 0x3FFF00003FFF0000ULL) >> 2);
      x = (x & 0x000000000FFFFFFFULL) | ((x & 0x0FFFFFFF00000000ULL) >> 4);
    }
    return x;
  }
};

struct Sse2Ops : PortableOps {
  static constexpr bool kSse2Mask = true;
};

#if defined(__x86_64__)
#define SERDIFF_VARINT_HAVE_BMI2_TIER 1
#define SERDIFF_VARINT_HAVE_AVX512_TIER 1
struct Bmi2Ops {
  static constexpr bool kSse2Mask = true;
  // PDEP: the low 56 bits of x into the 7 low bits of each byte.
  static uint64_t Spread(uint64_t x) {
    uint64_t r;
    asm("pdepq %2, %1, %0" : "=r"(r) : "r"(x), "r"(kLows));
    return r;
  }
  // PEXT: the 7 low bits of each byte, gathered.
  static uint64_t Compact(uint64_t x) {
    uint64_t r;
    asm("pextq %2, %1, %0" : "=r"(r) : "r"(x), "r"(kLows));
    return r;
  }
  static uint64_t CompactShort(uint64_t w, uint64_t stop) {
    return Compact(w & (stop ^ (stop - 1)));
  }
};
// On the entry function of a Bmi2Ops loop: everything it calls is inlined (flatten) and compiled
// for BMI1/BMI2/POPCNT/LZCNT, so the compiler's own code uses ANDN, BLSR, TZCNT and the
// three-operand shifts too. Only that function carries the attribute: no inline function is
// emitted out of line with these instructions.
#define SERDIFF_VARINT_BMI2_ENTRY \
  __attribute__((flatten, target("bmi,bmi2,popcnt,lzcnt"))) ABSL_ATTRIBUTE_NOINLINE
#else
#define SERDIFF_VARINT_HAVE_BMI2_TIER 0
#define SERDIFF_VARINT_HAVE_AVX512_TIER 0
#endif

// The avx512 tier's LEB128 window kernel over SIMDe's emulation (varint_avx512_emulated.cc,
// BatchTier::kAvx512Emulated): DecodeLeb128WindowsAvx512 of varint_avx512_inl.h, plain LEB128
// into uint64_t, zigzag into int64_t. SERDIFF_VARINT_HAVE_AVX512_EMULATION is set by the build
// (CMake, where SIMDe's headers are found), 0 otherwise.
#if !defined(SERDIFF_VARINT_HAVE_AVX512_EMULATION)
#define SERDIFF_VARINT_HAVE_AVX512_EMULATION 0
#endif
#if SERDIFF_VARINT_HAVE_AVX512_EMULATION
void DecodeLeb128WindowsAvx512Emulated(const uint8_t* data, size_t size, size_t* pos_io,
                                       uint64_t* dst, size_t n, size_t* i_io);
void DecodeLeb128WindowsAvx512Emulated(const uint8_t* data, size_t size, size_t* pos_io,
                                       int64_t* dst, size_t n, size_t* i_io);
#endif

// ---- sizes and per-length constants ------------------------------------------------------
//
// Everything that depends on a value's length is looked up by its top bit index
// b = bit_width(v | 1) - 1 = 63 - countl_zero(v | 1), in 0..63 (one BSR/LZCNT, no division).

// LEB128 length of a value whose top bit is b: ceil((b + 1) / 7), 1..10.
constexpr int LebLenFromTopBit(int b) { return (b + 7) / 7; }

struct ByTopBit {
  uint8_t leb_len[64];     // 1..10
  uint8_t capped_len[64];  // min(leb_len, 9): Fory and Cassandra vint, 1..9
  uint64_t cont[64];       // 0x80 on each of the first min(leb_len, 9) - 1 bytes
};

constexpr ByTopBit MakeByTopBit() {
  ByTopBit t{};
  for (int b = 0; b < 64; ++b) {
    const int len = LebLenFromTopBit(b);
    const int capped = len > 9 ? 9 : len;
    t.leb_len[b] = static_cast<uint8_t>(len);
    t.capped_len[b] = static_cast<uint8_t>(capped);
    t.cont[b] = 0;
    for (int k = 0; k + 1 < capped; ++k) t.cont[b] |= uint64_t{0x80} << (8 * k);
  }
  return t;
}
inline constexpr ByTopBit kByTopBit = MakeByTopBit();
static_assert(kByTopBit.leb_len[6] == 1 && kByTopBit.leb_len[7] == 2 &&
              kByTopBit.leb_len[62] == 9 && kByTopBit.leb_len[63] == 10 &&
              kByTopBit.capped_len[63] == 9);
static_assert(kByTopBit.cont[6] == 0 && kByTopBit.cont[7] == 0x80 &&
              kByTopBit.cont[55] == 0x0080808080808080ULL && kByTopBit.cont[56] == kMsbs &&
              kByTopBit.cont[63] == kMsbs);

inline unsigned TopBit(uint64_t v) { return 63u ^ static_cast<unsigned>(std::countl_zero(v | 1)); }

inline size_t Leb128Size(uint64_t v) { return kByTopBit.leb_len[TopBit(v)]; }
// Fory and Cassandra both cap at 9 bytes and otherwise need exactly the LEB128 length
// (7 value bits per byte in either layout, 8 in the 9th).
inline size_t Capped9Size(uint64_t v) { return kByTopBit.capped_len[TopBit(v)]; }

template <Format F>
inline size_t SizeOf(uint64_t v) {
  if constexpr (F == Format::kLeb128) {
    return Leb128Size(v);
  } else {
    return Capped9Size(v);
  }
}

template <Format F>
inline constexpr size_t kMax = F == Format::kLeb128 ? kMaxLeb128Bytes : kMaxForyBytes;

}  // namespace serdiff::varint::varint_internal

// Dispatch helpers: one instantiation per format. Expanded inside namespace serdiff::varint by
// varint.cc and varint_decode.cc, each of which #undefs it after its last use.
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
