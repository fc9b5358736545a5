// serdiff::varint — optimized variable-length integer codecs.
//
// Formats (facts in docs/varint.md):
//   * ZigZag64: int64 -> uint64, zz(n) = (n << 1) XOR (n >> 63) with an ARITHMETIC shift.
//     Protocol Buffers encoding guide, "Signed Integers". zz(-1) = 1, zz(INT64_MIN) = 2^64-1.
//   * LEB128 (protobuf wire format varint; encoding guide "Base 128 Varints"): 7 value bits
//     per byte, least significant group first, 0x80 = more bytes follow; 1..10 bytes for 64
//     bits. 300 -> ac 02; 2^64-1 -> ff ff ff ff ff ff ff ff ff 01. The 10th byte may only be
//     0x00 or 0x01.
//   * Fory varuint64 (apache/fory MemoryBuffer.java, cpp/fory/util/buffer.h, "PVL"; digest
//     section 3.1): like LEB128 for the first 8 bytes; a 9th byte, when present, carries all
//     8 remaining bits (56..63) and ends the value. 1..9 bytes.
//     2^63 -> 80 80 80 80 80 80 80 80 80; 2^64-1 -> ff x9. Fory's signed varint64 is the
//     varuint64 of zz(n): -(2^52 + 1) -> 81 80 80 80 80 80 80 10.
//   * Cassandra unsigned vint (VIntCoding.java; native_protocol_v5.spec section 3; digest
//     section 2): big endian; the count E of leading 1 bits of the first byte is the number
//     of extra bytes (0..8); the first byte holds the value's top bits after a 0 separator
//     (none when E = 8). 1..9 bytes. 2^56 -> ff 01 00 00 00 00 00 00 00; 256000 -> c3 e8 00.
//     The signed vint is the unsigned vint of zz(n): -65 -> 80 81.
//
// Decoders accept non-minimal encodings that stay within the format's length limit (as
// protobuf and Cassandra do: LEB128 80 00 is 0), and reject, with an absl::Status whose
// message starts "<kind> at byte offset <N>: " where N is the offset in the input of the
// offending value's FIRST byte and <kind> is "LEB128 varint", "Fory varuint64" or
// "Cassandra vint":
//   * truncated input (the input ends inside a value)            -> OutOfRange
//   * LEB128 with more than 10 bytes (10th byte >= 0x80)           -> InvalidArgument
//   * LEB128 whose 10th byte is 0x02..0x7f (bits past 64)          -> InvalidArgument
//   e.g. "LEB128 varint at byte offset 12: 10th byte 0x02 overflows 64 bits".
// The same N travels as data: serdiff::ErrorOffset(status) == N (serdiff/common/error_offset.h;
// the value is the field, so N is where it starts, also for an overflowing 10th byte).
// Fory and Cassandra values cannot overflow (their longest form holds exactly 64 bits), so
// truncation is their only decode error. Decoders never read outside the given span.
//
// Tiers. The batch functions run a word-at-a-time tier (8-byte loads/stores, 64-byte stop
// masks for LEB128/Fory decode; see varint.cc) while enough input/output remains, then the
// portable scalar tier: byte at a time, bounds-checked per value. The word and block tiers
// come in CPU variants (BatchTier below), chosen at run time and each callable by name. Read and
// WriteToArray ARE that scalar tier, so a property can compare the batch (fast) tier, a loop of
// single-value calls (portable tier) and serdiff::ref::varint (the spec transcription).
//
// Thread safety: all functions are pure (no shared state). None allocates except the
// string-returning encoders (one allocation of exactly the result) and the error paths
// (the Status message).
//
// Note: Format lives in this namespace, so an unqualified call with a Format argument made
// from another namespace also finds these functions by argument-dependent lookup; call the
// reference twins qualified (serdiff::ref::varint::EncodeBatch).
#pragma once

#include <cstddef>
#include <cstdint>
#include <string>
#include <string_view>

#include "absl/status/statusor.h"
#include "absl/types/span.h"

namespace serdiff::varint {

inline constexpr size_t kMaxLeb128Bytes = 10;
inline constexpr size_t kMaxForyBytes = 9;
inline constexpr size_t kMaxVIntBytes = 9;

enum class Format : uint8_t {
  kLeb128,  // protobuf varint
  kFory,    // Fory varuint64 (PVL, 9th byte 8-bit)
  kVInt,    // Cassandra unsigned vint
};

// "leb128", "fory", "vint".
std::string_view FormatName(Format f);
// Maximum encoded bytes of one 64-bit value in `f`: 10 (LEB128), 9 (Fory), 9 (vint).
size_t MaxBytes(Format f);

// ZigZag64 (arithmetic shift). Total. EncodeZigZag64(-1) == 1, EncodeZigZag64(1) == 2,
// EncodeZigZag64(INT64_MIN) == 2^64-1 (LEB128 bytes ff ff ff ff ff ff ff ff ff 01).
uint64_t EncodeZigZag64(int64_t v);
// Inverse: (u >> 1) XOR -(u & 1). Total. DecodeZigZag64(EncodeZigZag64(v)) == v for every
// int64; DecodeZigZag64(3) == -2.
int64_t DecodeZigZag64(uint64_t u);

// ---- single values (the portable scalar tier) --------------------------------------------

// Bytes needed for `v` in format `f`: 1..MaxBytes(f). Exact, no allocation.
// LEB128: ceil(bit_width(v | 1) / 7); Fory and vint: the same, at most 9.
// EncodedSize(kLeb128, 300) == 2; EncodedSize(kVInt, 2^56) == 9; EncodedSize(kLeb128,
// 2^63) == 10.
size_t EncodedSize(Format f, uint64_t v);

// Writes `v` at `out`, byte by byte, and returns one past the last byte written.
// Unchecked: the caller guarantees EncodedSize(f, v) writable bytes at `out` (MaxBytes(f)
// always suffice); exactly that many are written, nothing else is touched.
// WriteToArray(kLeb128, 300, p) writes ac 02 and returns p + 2.
uint8_t* WriteToArray(Format f, uint64_t v, uint8_t* out);

// Reads one value from `in` starting at byte `*offset` and advances `*offset` past it.
// *offset == in.size() or *offset > in.size() is an input that ends before the value
// (OutOfRange). Errors: see the file comment, with N = the incoming *offset; `*offset` is
// unchanged on error. Reads only in[*offset, *offset + MaxBytes(f)) ∩ in.
// Read(kVInt, {80 81}, &o = 0) == 129, o == 2.
absl::StatusOr<uint64_t> Read(Format f, absl::Span<const uint8_t> in, size_t* offset);

// ---- batches ------------------------------------------------------------------------------

// Exact total encoded size (bytes) of `values`, each as unsigned / as zigzag. No allocation.
// EncodedBatchSize(kLeb128, {300, 1}) == 3; EncodedZigZagBatchSize(kFory, {INT64_MIN}) == 9.
size_t EncodedBatchSize(Format f, absl::Span<const uint64_t> values);
size_t EncodedZigZagBatchSize(Format f, absl::Span<const int64_t> values);

// Encodes every value back to back into `out` (as unsigned / as zigzag); returns the bytes
// written, == the batch size. On success exactly out[0, batch size) is written; bytes after
// it are untouched. Error: ResourceExhausted "<format> batch encode: need N bytes, have M"
// (N = batch size, M = out.size()) when out.size() < N; then the contents of `out` are
// unspecified, but nothing past out.end() is ever written. Allocates nothing on success.
// EncodeBatch(kLeb128, {300, 1}, out) writes ac 02 01 and returns 3;
// EncodeZigZagBatch(kVInt, {-65}, out) writes 80 81 and returns 2.
absl::StatusOr<size_t> EncodeBatch(Format f, absl::Span<const uint64_t> values,
                                   absl::Span<uint8_t> out);
absl::StatusOr<size_t> EncodeZigZagBatch(Format f, absl::Span<const int64_t> values,
                                         absl::Span<uint8_t> out);

// Same, into a string of exactly the batch size (its only allocation: peak heap = the
// encoded size). Cannot fail. EncodeBatch(kFory, {2^64-1}) == "\xff" x 9.
std::string EncodeBatch(Format f, absl::Span<const uint64_t> values);
std::string EncodeZigZagBatch(Format f, absl::Span<const int64_t> values);

// Decodes exactly out.size() values from the front of `in` (then zigzag-decodes them, for
// the ZigZag variant); returns the bytes consumed. Trailing bytes after the last value are
// not an error (they may be read, never anything outside `in`). Errors as for Read, with
// N = the offset of the failing value's first byte; on error the contents of `out` are
// unspecified. Allocates nothing on success. out.size() == 0 consumes 0 bytes.
// DecodeBatch(kLeb128, {ac 02 01 ff}, out[2]) == 3 with out == {300, 1};
// DecodeZigZagBatch(kFory, {81 80 80 80 80 80 80 10}, out[1]) == 8, out == {-(2^52 + 1)}.
absl::StatusOr<size_t> DecodeBatch(Format f, absl::Span<const uint8_t> in,
                                   absl::Span<uint64_t> out);
absl::StatusOr<size_t> DecodeZigZagBatch(Format f, absl::Span<const uint8_t> in,
                                         absl::Span<int64_t> out);

// ---- CPU tiers of the batch functions -----------------------------------------------------
//
// The batch encoders and decoders above run the fastest tier this CPU supports (kAuto). The
// others force one, so that tests and the harness compare every tier the machine has (the
// varint targets run each as an implementation of its own). Same bytes, values, errors and
// offsets from every tier.
//   kPortable  shift/mask spread and compaction of the 7-bit groups; decode stop masks by a
//              multiply (no CPU-specific instruction: what non-x86 builds run)
//   kSse2      the same, decode stop masks by SSE2 movemask (baseline x86-64)
//   kBmi2      PDEP spreads and PEXT compacts a value in one instruction each (BMI2), SSE2
//              masks. Chosen by kAuto wherever the CPU has BMI2: measured on an AMD EPYC Zen 4
//              (docs/benchmarks.md, "varint tiers"), where PDEP/PEXT take 3 cycles; on AMD
//              Zen 1/2 they are microcoded (tens of cycles, the reason protobuf has no such
//              tier), so kAuto keeps kSse2 on AMD family 0x17 and older.
//   kAvx512    kBmi2, and LEB128 decode windows decoded 8 values per 512-bit register
//              (VPMOVB2M stop masks, VPCOMPRESSB value ends, VPERMI2B byte gathers; AVX-512 F, BW,
//              VBMI and VBMI2, which Intel has since Ice Lake and AMD since Zen 4, after the
//              Skylake-era frequency drops on wide instructions). Other formats and all encoders
//              run the kBmi2 loops in this tier.
//   kAvx512Emulated  kAvx512's LEB128 window kernel, the same source, compiled against SIMDe's
//              portable emulation of the AVX-512 intrinsics (varint_avx512_emulated.cc), around
//              the kPortable loops: runs on any CPU, many times slower than any other tier, so
//              that tests, fuzz targets and mutants check the kernel's logic on machines without
//              AVX-512. Never chosen by kAuto. Exists only in builds that found SIMDe (Debian:
//              libsimde-dev); other formats and all encoders run the kPortable loops in it.
enum class BatchTier : uint8_t { kAuto, kPortable, kSse2, kBmi2, kAvx512, kAvx512Emulated };

// "auto", "portable", "sse2", "bmi2", "avx512", "avx512_emulated".
std::string_view BatchTierName(BatchTier tier);

// Whether this build and CPU can run `tier`: kAuto and kPortable always; kSse2 on x86-64;
// kBmi2 on x86-64 CPUs that report BMI2; kAvx512 on those that also report AVX-512 F, BW, VL,
// VBMI and VBMI2; kAvx512Emulated on any CPU, in builds that found SIMDe.
bool BatchTierSupported(BatchTier tier);

// The tier kAuto runs on this machine (never kAuto). Decided once per process.
BatchTier AutoBatchTier();

// The batch functions with a forced tier: the same contracts as above, plus InvalidArgument
// ("varint tier <name> is not supported by this CPU", or "... by this build (configured without
// SIMDe)" for kAvx512Emulated) when !BatchTierSupported(tier).
absl::StatusOr<size_t> EncodeBatch(Format f, absl::Span<const uint64_t> values,
                                   absl::Span<uint8_t> out, BatchTier tier);
absl::StatusOr<size_t> EncodeZigZagBatch(Format f, absl::Span<const int64_t> values,
                                         absl::Span<uint8_t> out, BatchTier tier);
absl::StatusOr<size_t> DecodeBatch(Format f, absl::Span<const uint8_t> in, absl::Span<uint64_t> out,
                                   BatchTier tier);
absl::StatusOr<size_t> DecodeZigZagBatch(Format f, absl::Span<const uint8_t> in,
                                         absl::Span<int64_t> out, BatchTier tier);

// DecodeBatch with the block tiers' stop mask (which bytes of a 64-byte window end a
// value) computed word at a time by a multiply, never with SSE2: the tier that non-x86 builds
// use, kept callable on x86-64 so that the harness compares it with the SSE2 tier in every
// build (the varint_*_decode targets' "portable" implementation). Same results, errors and
// offsets as DecodeBatch. The same as DecodeBatch(f, in, out, BatchTier::kPortable).
absl::StatusOr<size_t> DecodeBatchPortable(Format f, absl::Span<const uint8_t> in,
                                           absl::Span<uint64_t> out);

}  // namespace serdiff::varint
