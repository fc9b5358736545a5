// serdiff::varint internal: the LEB128 window decoder of the avx512 tier (BatchTier::kAvx512 in
// varint.h), included by varint_decode.cc only. Not part of the public API.
//
// The same 64-byte windows as the scalar window tier (varint_decode.cc), with the values that end
// in a window decoded 8 at a time in the lanes of one 512-bit register:
//   1. the stop mask of the window (bit k: byte k has no continuation bit) from one VPMOVB2M;
//   2. the offsets of the value ends, packed by VPCOMPRESSB (AVX-512 VBMI2); each value starts
//      one past the previous end (the first where the last window left off);
//   3. per group of 8 values, each start broadcast to its lane plus 0..7 and plus 8..15, and
//      VPERMI2B (AVX-512 VBMI) gathers each value's first 8 bytes and its bytes 9 and 10 from the
//      128 bytes of this window and the one before;
//   4. per lane, as the scalar walk does: the bytes up to the first stop kept, the 7-bit groups
//      compacted (three shift-and-select steps, 14, 28 then 56 bits), bits 56..63 from bytes 9
//      and 10 where no byte of the first 8 ends the value, the 10th-byte error flag, zigzag;
//   5. one 64-byte store of the 8 values (lanes past the window's last value write scratch into
//      dst that later values overwrite: the caller guarantees 64 slots of room).
// Every invalid window (a value longer than 10 bytes, a 10th byte above 0x01) is left undecoded,
// with pos and i where they were, to the scalar tiers, which report the error with its offset.
//
// The same source is also compiled against SIMDe's portable emulation of these intrinsics
// (varint_avx512_emulated.cc, BatchTier::kAvx512Emulated): that file defines
// SERDIFF_VARINT_AVX512_EMULATED before including this one, which then neither includes
// <immintrin.h> nor asks the compiler for AVX-512 code, and puts the kernel in the inline
// namespace `emulated` instead of `native` (two definitions of one inline function would break
// the one-definition rule).
#pragma once

#if !defined(SERDIFF_VARINT_AVX512_EMULATED)
#include <immintrin.h>
#endif

// GCC 12 reports its own AVX-512 intrinsics (the maskz_ forms' unused "undefined" operand) as
// maybe-uninitialized once inlined here; the warning is about the header, not this code.
#if defined(__GNUC__) && !defined(__clang__)
#pragma GCC diagnostic ignored "-Wmaybe-uninitialized"
#endif

#include <cstddef>
#include <cstdint>

#include "serdiff/varint/varint_internal.h"

#if defined(SERDIFF_VARINT_AVX512_EMULATED)
#define SERDIFF_VARINT_AVX512_TARGET
#define SERDIFF_VARINT_AVX512_NS emulated
#else
// On the avx512 tier's entry function (as SERDIFF_VARINT_BMI2_ENTRY, plus the AVX-512 subsets).
#define SERDIFF_VARINT_AVX512_TARGET                                       \
  __attribute__((                                                          \
      target("bmi,bmi2,popcnt,lzcnt,avx512f,avx512bw,avx512vl,avx512vbmi," \
             "avx512vbmi2")))
#define SERDIFF_VARINT_AVX512_ENTRY \
  __attribute__((flatten)) SERDIFF_VARINT_AVX512_TARGET ABSL_ATTRIBUTE_NOINLINE
#define SERDIFF_VARINT_AVX512_NS native
#endif

namespace serdiff::varint::varint_internal {
inline namespace SERDIFF_VARINT_AVX512_NS {

// Decodes from data[*pos_io, size) into dst[*i_io, n) over consecutive 64-byte windows, from
// *pos_io, while 80 bytes remain past the window start and 64 values remain to be decoded. Stops
// before a window that holds an invalid value or that starts 10 or more bytes into a value (which
// is then longer than 10 bytes): the scalar tiers take over there.
template <bool kZigZag, typename T>
SERDIFF_VARINT_AVX512_TARGET inline void DecodeLeb128WindowsAvx512(const uint8_t* data, size_t size,
                                                                   size_t* pos_io, T* dst, size_t n,
                                                                   size_t* i_io) {
  constexpr size_t kWindow = 64;
  constexpr size_t kSlack = 80;
  size_t pos = *pos_io;
  size_t i = *i_io;
  size_t base = pos;
  // Byte indices into the 128-byte view [previous window | this window]: this window's byte k
  // is index 64 + k.
  alignas(64) static constexpr uint8_t kPlus64[64] = {
      64,  65,  66,  67,  68,  69,  70,  71,  72,  73,  74,  75,  76,  77,  78,  79,
      80,  81,  82,  83,  84,  85,  86,  87,  88,  89,  90,  91,  92,  93,  94,  95,
      96,  97,  98,  99,  100, 101, 102, 103, 104, 105, 106, 107, 108, 109, 110, 111,
      112, 113, 114, 115, 116, 117, 118, 119, 120, 121, 122, 123, 124, 125, 126, 127};
  // Shifts a byte vector up by one byte (byte 0 is overwritten afterwards).
  alignas(64) static constexpr uint8_t kShiftUp[64] = {
      0,  0,  1,  2,  3,  4,  5,  6,  7,  8,  9,  10, 11, 12, 13, 14, 15, 16, 17, 18, 19, 20,
      21, 22, 23, 24, 25, 26, 27, 28, 29, 30, 31, 32, 33, 34, 35, 36, 37, 38, 39, 40, 41, 42,
      43, 44, 45, 46, 47, 48, 49, 50, 51, 52, 53, 54, 55, 56, 57, 58, 59, 60, 61, 62};
  // Lane k of a group takes start k: byte 8k + j reads byte k.
  alignas(64) static constexpr uint8_t kLaneOfByte[64] = {
      0, 0, 0, 0, 0, 0, 0, 0, 1, 1, 1, 1, 1, 1, 1, 1, 2, 2, 2, 2, 2, 2,
      2, 2, 3, 3, 3, 3, 3, 3, 3, 3, 4, 4, 4, 4, 4, 4, 4, 4, 5, 5, 5, 5,
      5, 5, 5, 5, 6, 6, 6, 6, 6, 6, 6, 6, 7, 7, 7, 7, 7, 7, 7, 7};
  const __m512i plus64 = _mm512_load_si512(kPlus64);
  const __m512i shift_up = _mm512_load_si512(kShiftUp);
  const __m512i lane_of_byte = _mm512_load_si512(kLaneOfByte);
  const __m512i byte_in_lane = _mm512_set1_epi64(0x0706050403020100LL);
  const __m512i eight = _mm512_set1_epi8(8);
  const __m512i one = _mm512_set1_epi8(1);
  const __m512i msbs = _mm512_set1_epi64(static_cast<int64_t>(kMsbs));
  const __m512i lows = _mm512_set1_epi64(static_cast<int64_t>(kLows));
  const __m512i ones64 = _mm512_set1_epi64(1);
  const __m512i low7 = _mm512_set1_epi64(0x7F);
  const __m512i b9_high = _mm512_set1_epi64(0xFE00);  // byte 10 above 0x01
  const __m512i b8_cont = _mm512_set1_epi64(0x80);
  const __m512i m16 = _mm512_set1_epi64(0x007F007F007F007FLL);
  const __m512i m32 = _mm512_set1_epi64(0x00003FFF00003FFFLL);
  const __m512i m64 = _mm512_set1_epi64(0x000000000FFFFFFFLL);
  // The window before the first: never read (the first value starts at the first window's start).
  __m512i prev = _mm512_setzero_si512();
  while (n - i >= kWindow && size - base >= kSlack && base - pos < 10) {
    const __m512i cur = _mm512_loadu_si512(data + base);
    const uint64_t m = ~_cvtmask64_u64(_mm512_movepi8_mask(cur));
    const size_t count = static_cast<size_t>(_mm_popcnt_u64(m));
    const __m512i ends = _mm512_maskz_compress_epi8(_cvtu64_mask64(m), plus64);
    __m512i starts = _mm512_add_epi8(_mm512_permutexvar_epi8(shift_up, ends), one);
    starts = _mm512_mask_set1_epi8(starts, 1, static_cast<char>(64 - (base - pos)));
    __mmask8 bad = 0;
    for (size_t g = 0; g * 8 < count; ++g) {
      const __m512i idx = _mm512_add_epi8(
          _mm512_permutexvar_epi8(
              _mm512_add_epi8(lane_of_byte, _mm512_set1_epi8(static_cast<char>(8 * g))), starts),
          byte_in_lane);
      const __m512i x = _mm512_permutex2var_epi8(prev, idx, cur);
      const __m512i y = _mm512_permutex2var_epi8(prev, _mm512_add_epi8(idx, eight), cur);
      // Bytes up to the first stop (all 8 where none), without their continuation bits.
      const __m512i stop = _mm512_andnot_si512(x, msbs);
      const __m512i keep = _mm512_xor_si512(stop, _mm512_sub_epi64(stop, ones64));
      __m512i v = _mm512_ternarylogic_epi64(x, keep, lows, 0x80);  // x & keep & lows
      // 7-bit groups -> 14 -> 28 -> 56 bits: select the low group, or the high one shifted down.
      v = _mm512_ternarylogic_epi64(m16, v, _mm512_srli_epi16(v, 1), 0xCA);
      v = _mm512_ternarylogic_epi64(m32, v, _mm512_srli_epi32(v, 2), 0xCA);
      v = _mm512_ternarylogic_epi64(m64, v, _mm512_srli_epi64(v, 4), 0xCA);
      // 9 or 10 bytes (no stop in the first 8): bits 56..63 are b8 & (0x7f | b9 << 7), b8 and b9
      // the low two bytes of y; invalid iff b8 continues and b9 >= 2.
      const __mmask8 long_value = _mm512_testn_epi64_mask(stop, stop);
      const __m512i high = _mm512_ternarylogic_epi64(y, _mm512_srli_epi64(y, 1), low7, 0xE0);
      v = _mm512_mask_or_epi64(v, long_value, v, _mm512_slli_epi64(high, 56));
      const unsigned left = static_cast<unsigned>(count - 8 * g);
      const __mmask8 real = static_cast<__mmask8>(_bzhi_u32(0xFF, left));
      bad |= static_cast<__mmask8>(long_value & real & _mm512_test_epi64_mask(y, b8_cont) &
                                   _mm512_test_epi64_mask(y, b9_high));
      if constexpr (kZigZag) {
        // (u >> 1) ^ -(u & 1): the shifted value, inverted in the lanes whose bit 0 is set.
        const __m512i half = _mm512_srli_epi64(v, 1);
        v = _mm512_mask_ternarylogic_epi64(half, _mm512_test_epi64_mask(v, ones64), half, half,
                                           0x55);  // ~half where selected
      }
      _mm512_storeu_si512(dst + i + 8 * g, v);
    }
    if (bad != 0) break;  // the scalar tiers redo this window and report the error
    i += count;
    if (m != 0) pos = base + kWindow - static_cast<size_t>(_lzcnt_u64(m));
    prev = cur;
    base += kWindow;
  }
  *pos_io = pos;
  *i_io = i;
}

}  // namespace SERDIFF_VARINT_AVX512_NS
}  // namespace serdiff::varint::varint_internal
