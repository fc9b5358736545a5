// serdiff::ref::varint — reference (slow, obviously correct) variable-length integer codecs.
//
// Byte-at-a-time transcriptions of the specs, the differential twin of serdiff::varint
// (src/serdiff/varint/varint.h): same function names, same signatures, same error classes.
// Nothing here is tuned; every input byte is bounds-checked before it is read and every
// output byte before it is written.
//
// Specs (facts in docs/varint.md):
//   [ZZ]   ZigZag64 — Protocol Buffers encoding guide, "Signed Integers":
//          zz(n) = (n << 1) XOR (n >> 63), arithmetic shift; zz(-1) = 1, zz(INT64_MIN) = 2^64-1.
//   [LEB]  LEB128 varint — Protocol Buffers encoding guide, "Base 128 Varints": 7 value bits
//          per byte, least significant group first, bit 7 (0x80) set on every byte but the
//          last. A uint64 takes 1..10 bytes; the 10th byte can only hold bit 63 (0x00/0x01).
//          300 -> ac 02.
//   [PVL]  Fory varuint64 (apache/fory MemoryBuffer.java / cpp/fory/util/buffer.h; digest
//          section 3.1): bytes 1..8 as LEB128; a 9th byte, when reached, holds bits 56..63
//          (all 8 bits, no continuation meaning) and ends the value. 1..9 bytes.
//          2^63 -> 80 80 80 80 80 80 80 80 80. Signed varint64 = varuint64(zz(v)).
//   [VINT] Cassandra unsigned vint (VIntCoding.java; native_protocol_v5.spec section 3;
//          digest section 2): big-endian; the number E of leading 1 bits of the first byte
//          is the number of bytes that follow (0..8); after those ones a 0 separator (absent
//          when E = 8) and the value's top bits; then E bytes, most significant first.
//          Total 1..9 bytes: the smallest length whose capacity (7, 14, 21, 28, 35, 42, 49,
//          56, 64 value bits) holds the value. 256000 -> c3 e8 00. Signed vint = vint(zz(v)).
//
// Decoders accept non-minimal encodings within the format's length limit and reject, with
// an absl::Status whose message names the byte offset of the failing value's first byte,
// and which carries that offset as data (serdiff::ErrorOffset, serdiff/common/error_offset.h):
//   * the input ends inside a value                                  -> OutOfRange
//   * [LEB] a 10th byte with the continuation bit (more than 10 bytes) -> InvalidArgument
//   * [LEB] a 10th byte of 0x02..0x7f (bits past 64)                   -> InvalidArgument
// [PVL] and [VINT] cannot overflow (their longest form holds exactly 64 bits), so
// truncation is their only decode error.
#pragma once

#include <cstddef>
#include <cstdint>
#include <string>
#include <string_view>

#include "absl/status/statusor.h"
#include "absl/types/span.h"
#include "serdiff/varint/varint.h"  // for the shared Format enum and kMax*Bytes only

namespace serdiff::ref::varint {

using ::serdiff::varint::Format;
using ::serdiff::varint::kMaxForyBytes;
using ::serdiff::varint::kMaxLeb128Bytes;
using ::serdiff::varint::kMaxVIntBytes;

// "leb128", "fory", "vint".
std::string_view FormatName(Format f);
// Longest encoding of one 64-bit value in `f`, in bytes: 10 [LEB], 9 [PVL], 9 [VINT].
size_t MaxBytes(Format f);

// [ZZ] int64 -> uint64. EncodeZigZag64(-1) == 1; EncodeZigZag64(INT64_MIN) == 2^64-1
// (LEB128 bytes ff ff ff ff ff ff ff ff ff 01). Total, no errors.
uint64_t EncodeZigZag64(int64_t v);
// [ZZ] inverse: (u >> 1) XOR -(u & 1). DecodeZigZag64(1) == -1. Total, no errors.
int64_t DecodeZigZag64(uint64_t u);

// ---- single values ----------------------------------------------------------------------

// Bytes needed for `v` in `f`, 1..MaxBytes(f), counted the way the spec builds the
// encoding: [LEB] one byte per 7-bit group until the rest is 0; [PVL] the same, at most 9;
// [VINT] the first capacity in the table above that holds v. EncodedSize(kLeb128, 300) == 2.
size_t EncodedSize(Format f, uint64_t v);

// Writes `v` at `out` and returns one past its last byte. Precondition: EncodedSize(f, v)
// writable bytes at `out` (MaxBytes(f) always suffice); writes exactly that many.
// Example: WriteToArray(kVInt, 2^56, p) writes ff 01 00 00 00 00 00 00 00, returns p + 9.
uint8_t* WriteToArray(Format f, uint64_t v, uint8_t* out);

// Reads one value of `in` starting at byte `*offset` and advances `*offset` past it.
// *offset > in.size() is treated as an input that ends before the value (OutOfRange).
// Errors (message: "<value kind> at byte offset <*offset>: ..."): OutOfRange when the input
// ends inside the value; [LEB] InvalidArgument for a 10th byte > 0x01. `*offset` is unchanged
// on error. Example: Read(kLeb128, {ac 02}, &o = 0) == 300, o == 2. Allocates nothing on
// success.
absl::StatusOr<uint64_t> Read(Format f, absl::Span<const uint8_t> in, size_t* offset);

// ---- batches ----------------------------------------------------------------------------

// Sum of EncodedSize over `values` (as given / after [ZZ]), in bytes.
// EncodedZigZagBatchSize(kLeb128, {-1, 150}) == 1 + 2.
size_t EncodedBatchSize(Format f, absl::Span<const uint64_t> values);
size_t EncodedZigZagBatchSize(Format f, absl::Span<const int64_t> values);

// Encodes the values back to back into `out`, byte by byte, each write bounds-checked;
// returns the bytes written (== the batch size). Error: ResourceExhausted
// "need N bytes, have M" (N = batch size, M = out.size()) as soon as a byte would land
// past out.end(); the bytes before it have been written, nothing past out.end() is.
// Example: EncodeBatch(kLeb128, {300, 1}, out) writes ac 02 01 and returns 3.
absl::StatusOr<size_t> EncodeBatch(Format f, absl::Span<const uint64_t> values,
                                   absl::Span<uint8_t> out);
// Same after [ZZ]: EncodeZigZagBatch(kVInt, {-65}, out) writes 80 81 and returns 2.
absl::StatusOr<size_t> EncodeZigZagBatch(Format f, absl::Span<const int64_t> values,
                                         absl::Span<uint8_t> out);

// Same into a new string: reserves the exact batch size, then appends byte by byte.
// EncodeBatch(kFory, {2^64-1}) == "\xff" x 9.
std::string EncodeBatch(Format f, absl::Span<const uint64_t> values);
std::string EncodeZigZagBatch(Format f, absl::Span<const int64_t> values);

// Decodes exactly out.size() values from the front of `in` with Read; returns the bytes
// consumed (trailing bytes are not an error). Errors: those of Read, with the offset of the
// failing value's first byte; out[0, k) holds the k values decoded before it.
// Example: DecodeBatch(kLeb128, {ac 02 01 ff}, out[2]) == 3, out == {300, 1}.
absl::StatusOr<size_t> DecodeBatch(Format f, absl::Span<const uint8_t> in,
                                   absl::Span<uint64_t> out);
// Same, then [ZZ] inverse: DecodeZigZagBatch(kVInt, {80 81}, out[1]) == 2, out == {-65}.
absl::StatusOr<size_t> DecodeZigZagBatch(Format f, absl::Span<const uint8_t> in,
                                         absl::Span<int64_t> out);

}  // namespace serdiff::ref::varint
