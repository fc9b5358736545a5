// The avx512 tiers' kernels compiled a second time against SIMDe's portable emulation of the
// intrinsics they call, for TypedTier::kAvx512Emulated: the typed path's (typed_tiers_avx512.inc,
// typed.h) and the value tree's (value_tiers_avx512.inc, value_tiers.h). The same sources as the
// native tiers, run on any CPU, so that tests, the cql_typed_encode and cql_encode_nested targets
// and the mutant catalog check those kernels on machines without AVX-512 too. Built only where
// CMake found SIMDe's headers (Debian: libsimde-dev), as
// src/serdiff/varint/varint_avx512_emulated.cc.
//
// SIMDe (https://github.com/simd-everywhere/simde) maps each _mm*_ call to a function of the
// same semantics (SIMDE_ENABLE_NATIVE_ALIASES), with its native paths on, as
// src/serdiff/varint/varint_avx512_emulated.cc explains. SIMDe 0.7.4 lacks VPMOVZXDQ's 512-bit
// form, defined below from Intel's definition.
//
#if defined(__GNUC__) && !defined(__clang__)
#pragma GCC diagnostic ignored "-Wmaybe-uninitialized"
#endif
#define SIMDE_ENABLE_NATIVE_ALIASES
#include <simde/x86/avx512.h>
// SIMDe's alias takes 16 macro parameters; the kernel passes one macro that expands to 16.
#undef _mm_setr_epi8
#define _mm_setr_epi8(...) simde_mm_setr_epi8(__VA_ARGS__)

#include <cstdint>
#include <cstring>

#include "serdiff/cql/typed_tiers.h"
#include "serdiff/cql/typed_tiers_lanes.h"
#include "serdiff/cql/value_tiers.h"

namespace serdiff::cql::typed_internal {
namespace avx512_emulated {

#if !defined(_mm512_cvtepu32_epi64)
// VPMOVZXDQ zmm, ymm: the eight 32-bit lanes of `a`, zero-extended to 64 bits each.
inline simde__m512i _mm512_cvtepu32_epi64(simde__m256i a) {
  uint32_t in[8];
  uint64_t out[8];
  std::memcpy(in, &a, 32);
  for (int k = 0; k < 8; ++k) out[k] = in[k];
  simde__m512i r;
  std::memcpy(&r, out, 64);
  return r;
}
#endif

#include "serdiff/cql/typed_tiers_avx512.inc"
#include "serdiff/cql/typed_tiers_loop.inc"

}  // namespace avx512_emulated

uint8_t* Write4ByteElementsAvx512Emulated(const void* values, size_t n, const uint8_t* nulls,
                                          uint32_t flip, uint8_t* out) {
  return avx512_emulated::Loop(static_cast<const uint8_t*>(values), n, nulls, flip, out);
}

}  // namespace serdiff::cql::typed_internal

namespace serdiff::cql::value_internal {
namespace avx512_emulated {

#include "serdiff/cql/value_tiers_avx512.inc"
#undef SERDIFF_VALUE_TIER_PIN

}  // namespace avx512_emulated

size_t WriteIntValueBlocksAvx512Emulated(const uint8_t* values, size_t n, const uint64_t shapes[3],
                                         uint32_t flip, uint8_t** out) {
  return avx512_emulated::IntValueLoop(values, n, {shapes[0], shapes[1], shapes[2]}, flip, out);
}

}  // namespace serdiff::cql::value_internal
