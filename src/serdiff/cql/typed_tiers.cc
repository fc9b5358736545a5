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

#include "serdiff/cql/typed_tiers_lanes.h"

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
#include "serdiff/cql/typed_tiers_avx512.inc"
#include "serdiff/cql/typed_tiers_loop.inc"
}  // namespace avx512
#if defined(__clang__)
#pragma clang attribute pop
#else
#pragma GCC diagnostic pop
#pragma GCC pop_options
#endif

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
    case Tier::kAvx512Emulated:
      return "avx512_emulated";
  }
  return "?";
}

bool TierSupported(Tier t) {
  if (t == Tier::kAvx512Emulated) return SERDIFF_CQL_HAVE_AVX512_EMULATION != 0;
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
    case Tier::kAvx512Emulated:
      break;  // above
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

Tier TierOf(TypedTier t, Tier auto_tier) {
  switch (t) {
    case TypedTier::kPortable:
      return Tier::kPortable;
    case TypedTier::kSsse3:
      return Tier::kSsse3;
    case TypedTier::kAvx2:
      return Tier::kAvx2;
    case TypedTier::kAvx512:
      return Tier::kAvx512;
    case TypedTier::kAvx512Emulated:
      return Tier::kAvx512Emulated;
    case TypedTier::kAuto:
      break;
  }
  return auto_tier;
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
#if SERDIFF_CQL_HAVE_AVX512_EMULATION
    case Tier::kAvx512Emulated:
      return Write4ByteElementsAvx512Emulated(v, n, nulls, flip, out);
#endif
    default:
      return portable::Loop(v, n, nulls, flip, out);
  }
}

}  // namespace serdiff::cql::typed_internal
