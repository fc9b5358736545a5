// serdiff::cql internal: the CPU tiers of the value tree's one-pass route for lists and sets of
// int and date (codec_write.cc; docs/cql.md, "The value tree's avx512 tier"). Not part of the
// public API; codec.h exposes them through Serialize's TypedTier argument.
//
// The one-pass route writes each element of a list<int>, set<int>, list<date> or set<date> as
// the [int] length 00 00 00 04 and its 4 big-endian bytes, a null as ff ff ff ff and an empty
// as 00 00 00 00 (native_protocol_v4.spec sections 6.11 list, 6.13 set, 6.10 int, 6.5 date, 3
// [bytes]), reading one 48-byte Value per element. Its loops:
//   portable         blocks of 8 ints checked and written by plain C++, anything else element
//                    by element (codec_write.cc)
//   avx512           8 Values per kernel call: their 384 bytes loaded (six unaligned 64-byte
//                    loads, or in the middle of the array the seven whole cache lines around
//                    them), payloads and shapes gathered by permutes; 8 ints in range are one
//                    branch and one 64-byte store, a block mixing ints, nulls and empties is
//                    packed by VPCOMPRESSD, any other block goes element by element
//   avx512_emulated  the avx512 kernel's source (value_tiers_avx512.inc) over SIMDe, as for
//                    the typed path (typed_tiers.h): any CPU, for tests and mutants
// The kernels read a Value's bytes, so they run only where ValueLayoutKnown() found the layout
// they assume in this build's std::variant; elsewhere the route takes the portable loop.
#pragma once

#include <cstddef>
#include <cstdint>

#include "serdiff/cql/typed_tiers.h"
#include "serdiff/cql/value.h"

namespace serdiff::cql::value_internal {

// Whether a Value is 48 bytes whose first 8 hold an int shape's int64_t (host order) and whose
// byte 40 holds the shape's number (Value::Shape), on a little-endian host, checked once per
// process on a sample of every shape. False on other standard libraries, ABIs or byte orders.
bool ValueLayoutKnown();

// Whether tier t has a value-tree kernel here: kPortable always; kAvx512 and kAvx512Emulated
// where typed_internal::TierSupported(t) and ValueLayoutKnown(); kSsse3 and kAvx2 never.
bool TierSupported(typed_internal::Tier t);

// The tier Serialize runs when not told: kAvx512 where supported, else kPortable.
typed_internal::Tier BestTier();

// Writes whole blocks of 8 from the start of values[0..n) while every Value of the block is an
// int (shape kInt) with a payload within -2^31..2^31-1, a null or an empty: an int as
// 00 00 00 04 and the big-endian bytes of (uint32_t)payload ^ flip (flip 0x80000000 gives a
// date's biased wire form, 0 an int's), a null as ff ff ff ff, an empty as 00 00 00 00 (v4
// spec section 3 [bytes] inside a collection). Stops before the first block holding anything
// else, writing nothing of it. Returns the Values written, a multiple of 8, and moves *out past
// their bytes (8 per int, 4 per null or empty). Reads no byte outside values[0..n).
// Preconditions: t is kAvx512 or kAvx512Emulated and TierSupported(t); values[0..n) is one
// array of live Values (a std::vector's data(), say); *out has room for 8 x (n / 8 x 8) bytes
// (a block's one 64-byte store may write past the bytes it packs, never past that room).
size_t WriteIntValueBlocks(typed_internal::Tier t, const Value* values, size_t n, uint32_t flip,
                           uint8_t** out);

#if SERDIFF_CQL_HAVE_AVX512_EMULATION
// WriteIntValueBlocks for kAvx512Emulated (typed_tiers_avx512_emulated.cc).
// `shapes`: the numbers of Value::Shape::kInt, kNull and kEmpty, in that order.
size_t WriteIntValueBlocksAvx512Emulated(const uint8_t* values, size_t n, const uint64_t shapes[3],
                                         uint32_t flip, uint8_t** out);
#endif

}  // namespace serdiff::cql::value_internal
