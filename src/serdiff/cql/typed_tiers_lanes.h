// serdiff::cql internal: the byte patterns of the AVX2 and AVX-512 kernels of typed_tiers.cc
// (and of the AVX-512 kernel's SIMDe emulation, typed_tiers_avx512_emulated.cc), as macros for
// _mm_setr_epi8 / _mm256_setr_epi8 argument lists. Not part of the public API.
#pragma once

// Byte shuffle for one 16-byte lane holding two elements zero-extended to 64 bits (AVX2,
// AVX-512: lane = v0 0 0 0 0 v1 0 0 0 0 as 4+4 bytes): each 8-byte group becomes
// 00 00 00 00 b3 b2 b1 b0 (0x80 selects a zero byte); OR-ing kLength adds the 04.
#define SERDIFF_SHUF_ZEXT -128, -128, -128, -128, 3, 2, 1, 0, -128, -128, -128, -128, 11, 10, 9, 8
// The length word 00 00 00 04 at bytes 0..3 and 8..11 of every 16-byte lane.
#define SERDIFF_LENGTH_LANE 0, 0, 0, 4, 0, 0, 0, 0, 0, 0, 0, 4, 0, 0, 0, 0
