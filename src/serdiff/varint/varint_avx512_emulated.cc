// The avx512 tier's LEB128 window kernel (varint_avx512_inl.h), compiled a second time against
// SIMDe's portable emulation of the AVX-512 intrinsics it calls, for BatchTier::kAvx512Emulated
// (varint.h): the same source as the native tier, run on any CPU, so that tests, the fuzz targets
// and the mutant catalog check that kernel's logic on machines without AVX-512 too. Built only
// where CMake found SIMDe's headers (Debian: libsimde-dev); see varint_internal.h.
//
// SIMDe (https://github.com/simd-everywhere/simde) maps each _mm512_* call to a function of the
// same semantics (SIMDE_ENABLE_NATIVE_ALIASES), written with whatever the build's target has:
// portable code over SSE2 in the presets' baseline x86-64 build, so nothing here needs an
// instruction that build lacks. Its native paths stay on: with them off, SIMDe's own __m128i
// clashes with the real one that Abseil's headers include when the build enables SSSE3
// (SERDIFF_NATIVE); in a build for an AVX-512 CPU the "emulation" is then the real instructions,
// which is still the same source. SIMDe 0.7.4 lacks seven of the operations the kernel calls:
// VPCOMPRESSB, the two mask conversions, POPCNT, LZCNT and BZHI (defined below from the
// instructions' definitions in Intel's SDM), and the mask type's __mmask8 name.
//
#if defined(__GNUC__) && !defined(__clang__)
#pragma GCC diagnostic ignored "-Wmaybe-uninitialized"
#endif
#define SIMDE_ENABLE_NATIVE_ALIASES
#include <simde/x86/avx512.h>

#include <bit>
#include <cstdint>
#include <cstring>

#define SERDIFF_VARINT_AVX512_EMULATED 1

#include "serdiff/varint/varint_internal.h"

namespace serdiff::varint::varint_internal {
inline namespace emulated {

// The mask type SIMDe names simde__mmask8 only.
using __mmask8 = simde__mmask8;  // NOLINT(bugprone-reserved-identifier): the intrinsics' name

// VPCOMPRESSB is skipped where the SIMDe found defines it (should a later release); the others
// have no SIMDe alias macro to collide with, and inside this namespace they hide any global one.
#if !defined(_mm512_maskz_compress_epi8)
// VPCOMPRESSB with zero masking (AVX-512 VBMI2): the bytes of `a` whose bit in `k` is set, packed
// to the low end in order, the rest zero.
inline simde__m512i _mm512_maskz_compress_epi8(simde__mmask64 k, simde__m512i a) {
  uint8_t in[64];
  uint8_t out[64] = {};
  std::memcpy(in, &a, 64);
  size_t j = 0;
  for (size_t b = 0; b < 64; ++b) {
    if ((k >> b) & 1) out[j++] = in[b];
  }
  simde__m512i r;
  std::memcpy(&r, out, 64);
  return r;
}
#endif
// KMOVQ between a 64-bit mask and a general register: the same bits.
inline uint64_t _cvtmask64_u64(simde__mmask64 k) { return k; }
inline simde__mmask64 _cvtu64_mask64(uint64_t x) { return x; }
// POPCNT, LZCNT (64 when x is 0), BZHI (the low `index` bits of x; all of them from 32 up).
inline long long _mm_popcnt_u64(uint64_t x) { return std::popcount(x); }
inline unsigned long long _lzcnt_u64(uint64_t x) {
  return static_cast<unsigned long long>(std::countl_zero(x));
}
inline unsigned _bzhi_u32(unsigned x, unsigned index) {
  index &= 0xFF;
  return index >= 32 ? x : (x & ((1u << index) - 1));
}

}  // namespace emulated
}  // namespace serdiff::varint::varint_internal

#include "serdiff/varint/varint_avx512_inl.h"

namespace serdiff::varint::varint_internal {

void DecodeLeb128WindowsAvx512Emulated(const uint8_t* data, size_t size, size_t* pos_io,
                                       uint64_t* dst, size_t n, size_t* i_io) {
  emulated::DecodeLeb128WindowsAvx512<false>(data, size, pos_io, dst, n, i_io);
}
void DecodeLeb128WindowsAvx512Emulated(const uint8_t* data, size_t size, size_t* pos_io,
                                       int64_t* dst, size_t n, size_t* i_io) {
  emulated::DecodeLeb128WindowsAvx512<true>(data, size, pos_io, dst, n, i_io);
}

}  // namespace serdiff::varint::varint_internal
