// serdiff::cql internal: the CPU-specific element writers of the typed fast path (typed.h,
// "Typed fast path" in docs/cql.md). Not part of the public API; typed.h exposes the tiers as
// TypedTier.
//
// One job, four implementations: write n elements of a 4-byte CQL kind (int, date, float) in
// the v3+ collection form, each as the [int] length 00 00 00 04 and then its big-endian payload,
// or as ff ff ff ff (null, 4 bytes, no payload) when its bit in the null bitmap is set
// (native_protocol_v4.spec sections 6.11/6.13, [value] of section 3). The null bitmap is read a
// byte (8 elements) at a time: a zero byte is a block of 8 values written by the tier's vector
// kernel, a 0xFF byte a block of 8 nulls (32 bytes of 0xFF), any other byte element by
// element. The kernels:
//   portable  one 8-byte store per element (length and byte-swapped value merged in a word)
//   ssse3     PSHUFB: 4 values -> 32 output bytes, two 16-byte stores
//   avx2      VPMOVZXDQ + VPSHUFB: 4 values -> one 32-byte store
//   avx512    VPMOVZXDQ + VPSHUFB (AVX-512BW): 8 values -> one 64-byte store
//   avx512_emulated  the avx512 kernel's source (typed_tiers_avx512.inc) over SIMDe's portable
//             emulation of its intrinsics (typed_tiers_avx512_emulated.cc): any CPU, slow, for
//             tests, the harness and mutants on machines without AVX-512; never chosen by
//             BestTier; only in builds that found SIMDe (SERDIFF_CQL_HAVE_AVX512_EMULATION)
// The x86 kernels are compiled for their instruction set with target attributes, whatever the
// build's -march, and are chosen at run time (BestTier) from what the CPU reports.
#pragma once

#include <cstddef>
#include <cstdint>
#include <string_view>

#include "serdiff/cql/typed.h"

namespace serdiff::cql::typed_internal {

enum class Tier : uint8_t { kPortable, kSsse3, kAvx2, kAvx512, kAvx512Emulated };

// "portable", "ssse3", "avx2", "avx512", "avx512_emulated".
std::string_view TierName(Tier t);

// Whether this CPU (and this build: the x86 tiers exist only on x86-64) can run tier t.
// kPortable is always supported; kAvx512Emulated wherever the build found SIMDe.
bool TierSupported(Tier t);

// The fastest supported tier, decided once per process.
Tier BestTier();

// The tier a TypedTier (typed.h, codec.h) names: kPortable .. kAvx512Emulated their own, kAuto
// `auto_tier` (the typed path's BestTier, or the value tree's, value_tiers.h).
Tier TierOf(TypedTier t, Tier auto_tier);

// Writes n elements read from `values` (n host-order 32-bit words, any alignment; each is
// XORed with `flip` before it is written: 0x80000000 turns a CQL date's signed day count into
// its biased wire form, 0 leaves int and float bits as they are). `nulls` is the null bitmap
// (bit i of byte i / 8 set: element i is null), or nullptr for none. Writes exactly
// 8 * (n - nulls) + 4 * nulls bytes at out and returns the end. Precondition: TierSupported(t).
uint8_t* Write4ByteElements(Tier t, const void* values, size_t n, const uint8_t* nulls,
                            uint32_t flip, uint8_t* out);

// Set by the build (CMake, where SIMDe's headers are found), 0 otherwise.
#if !defined(SERDIFF_CQL_HAVE_AVX512_EMULATION)
#define SERDIFF_CQL_HAVE_AVX512_EMULATION 0
#endif
#if SERDIFF_CQL_HAVE_AVX512_EMULATION
// Write4ByteElements(Tier::kAvx512Emulated, ...) (typed_tiers_avx512_emulated.cc).
uint8_t* Write4ByteElementsAvx512Emulated(const void* values, size_t n, const uint8_t* nulls,
                                          uint32_t flip, uint8_t* out);
#endif

}  // namespace serdiff::cql::typed_internal
