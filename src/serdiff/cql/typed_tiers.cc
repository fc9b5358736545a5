// The typed path's CPU tiers: see typed_tiers.h.
#include "serdiff/cql/typed_tiers.h"

#include <cstring>

#if defined(__x86_64__)
#include <immintrin.h>
#endif

namespace serdiff::cql::typed_internal {

namespace portable {
inline constexpr size_t kBlock = 4;
inline void Scalar(const uint8_t* v, uint32_t flip, uint8_t* out);
inline void Block(const uint8_t* v, uint32_t flip, uint8_t* out) {
  for (size_t j = 0; j < kBlock; ++j) Scalar(v + 4 * j, flip, out + 8 * j);
}
#include "serdiff/cql/typed_tiers_loop.inc"
}  // namespace portable

#if defined(__x86_64__)

// Byte shuffle for one 16-byte lane holding two elements zero-extended to 64 bits (AVX2,
// AVX-512: lane = v0 0 0 0 0 v1 0 0 0 0 as 4+4 bytes): each 8-byte group becomes
// 00 00 00 00 b3 b2 b1 b0 (0x80 selects a zero byte); OR-ing kLength adds the 04.
#define SERDIFF_SHUF_ZEXT -128, -128, -128, -128, 3, 2, 1, 0, -128, -128, -128, -128, 11, 10, 9, 8
// The length word 00 00 00 04 at bytes 0..3 and 8..11 of every 16-byte lane.
#define SERDIFF_LENGTH_LANE 0, 0, 0, 4, 0, 0, 0, 0, 0, 0, 0, 4, 0, 0, 0, 0

#if defined(__clang__)
#pragma clang attribute push(__attribute__((target("ssse3"))), apply_to = function)
#else
#pragma GCC push_options
#pragma GCC target("ssse3")
#endif
namespace ssse3 {
inline constexpr size_t kBlock = 4;
inline void Block(const uint8_t* v, uint32_t flip, uint8_t* out) {
  // 4 values v0..v3 (16 bytes) -> two 16-byte stores: [len v0 len v1] [len v2 len v3].
  const __m128i x = _mm_xor_si128(_mm_loadu_si128(reinterpret_cast<const __m128i*>(v)),
                                  _mm_set1_epi32(static_cast<int>(flip)));
  const __m128i len = _mm_setr_epi8(SERDIFF_LENGTH_LANE);
  const __m128i lo =
      _mm_setr_epi8(-128, -128, -128, -128, 3, 2, 1, 0, -128, -128, -128, -128, 7, 6, 5, 4);
  const __m128i hi =
      _mm_setr_epi8(-128, -128, -128, -128, 11, 10, 9, 8, -128, -128, -128, -128, 15, 14, 13, 12);
  _mm_storeu_si128(reinterpret_cast<__m128i*>(out), _mm_or_si128(_mm_shuffle_epi8(x, lo), len));
  _mm_storeu_si128(reinterpret_cast<__m128i*>(out + 16),
                   _mm_or_si128(_mm_shuffle_epi8(x, hi), len));
}
#include "serdiff/cql/typed_tiers_loop.inc"
}  // namespace ssse3
#if defined(__clang__)
#pragma clang attribute pop
#else
#pragma GCC pop_options
#endif

#if defined(__clang__)
#pragma clang attribute push(__attribute__((target("avx2"))), apply_to = function)
#else
#pragma GCC push_options
#pragma GCC target("avx2")
#endif
namespace avx2 {
inline constexpr size_t kBlock = 4;
inline void Block(const uint8_t* v, uint32_t flip, uint8_t* out) {
  // 4 values, zero-extended to 4 x 64 bits, shuffled in each 128-bit lane: one 32-byte store.
  const __m128i x = _mm_xor_si128(_mm_loadu_si128(reinterpret_cast<const __m128i*>(v)),
                                  _mm_set1_epi32(static_cast<int>(flip)));
  const __m256i wide = _mm256_cvtepu32_epi64(x);
  const __m256i shuf = _mm256_setr_epi8(SERDIFF_SHUF_ZEXT, SERDIFF_SHUF_ZEXT);
  const __m256i len = _mm256_setr_epi8(SERDIFF_LENGTH_LANE, SERDIFF_LENGTH_LANE);
  _mm256_storeu_si256(reinterpret_cast<__m256i*>(out),
                      _mm256_or_si256(_mm256_shuffle_epi8(wide, shuf), len));
}
#include "serdiff/cql/typed_tiers_loop.inc"
}  // namespace avx2
#if defined(__clang__)
#pragma clang attribute pop
#else
#pragma GCC pop_options
#endif

#if defined(__clang__)
#pragma clang attribute push(__attribute__((target("avx512f,avx512bw"))), apply_to = function)
#else
#pragma GCC push_options
#pragma GCC target("avx512f,avx512bw")
// g++ 12 warns inside its own avx512fintrin.h (the _mm512_undefined_* operand of the
// zero-extend and broadcast intrinsics "may be used uninitialized"): a known false positive.
#pragma GCC diagnostic push
#pragma GCC diagnostic ignored "-Wmaybe-uninitialized"
#endif
namespace avx512 {
inline constexpr size_t kBlock = 8;
inline void Block(const uint8_t* v, uint32_t flip, uint8_t* out) {
  // 8 values, zero-extended to 8 x 64 bits, shuffled in each 128-bit lane: one 64-byte store.
  const __m256i x = _mm256_xor_si256(_mm256_loadu_si256(reinterpret_cast<const __m256i*>(v)),
                                     _mm256_set1_epi32(static_cast<int>(flip)));
  const __m512i wide = _mm512_cvtepu32_epi64(x);
  const __m512i shuf = _mm512_broadcast_i32x4(_mm_setr_epi8(SERDIFF_SHUF_ZEXT));
  const __m512i len = _mm512_broadcast_i32x4(_mm_setr_epi8(SERDIFF_LENGTH_LANE));
  _mm512_storeu_si512(out, _mm512_or_si512(_mm512_shuffle_epi8(wide, shuf), len));
}
#include "serdiff/cql/typed_tiers_loop.inc"
}  // namespace avx512
#if defined(__clang__)
#pragma clang attribute pop
#else
#pragma GCC diagnostic pop
#pragma GCC pop_options
#endif

#undef SERDIFF_SHUF_ZEXT
#undef SERDIFF_LENGTH_LANE

#endif  // __x86_64__

std::string_view TierName(Tier t) {
  switch (t) {
    case Tier::kPortable:
      return "portable";
    case Tier::kSsse3:
      return "ssse3";
    case Tier::kAvx2:
      return "avx2";
    case Tier::kAvx512:
      return "avx512";
  }
  return "?";
}

bool TierSupported(Tier t) {
#if defined(__x86_64__)
  switch (t) {
    case Tier::kPortable:
      return true;
    case Tier::kSsse3:
      return __builtin_cpu_supports("ssse3");
    case Tier::kAvx2:
      return __builtin_cpu_supports("avx2");
    case Tier::kAvx512:
      return __builtin_cpu_supports("avx512f") && __builtin_cpu_supports("avx512bw");
  }
  return false;
#else
  return t == Tier::kPortable;
#endif
}

Tier BestTier() {
  static const Tier best = [] {
    for (Tier t : {Tier::kAvx512, Tier::kAvx2, Tier::kSsse3}) {
      if (TierSupported(t)) return t;
    }
    return Tier::kPortable;
  }();
  return best;
}

uint8_t* Write4ByteElements(Tier t, const void* values, size_t n, const uint8_t* nulls,
                            uint32_t flip, uint8_t* out) {
  const auto* v = static_cast<const uint8_t*>(values);
  switch (t) {
#if defined(__x86_64__)
    case Tier::kSsse3:
      return ssse3::Loop(v, n, nulls, flip, out);
    case Tier::kAvx2:
      return avx2::Loop(v, n, nulls, flip, out);
    case Tier::kAvx512:
      return avx512::Loop(v, n, nulls, flip, out);
#endif
    default:
      return portable::Loop(v, n, nulls, flip, out);
  }
}

}  // namespace serdiff::cql::typed_internal
