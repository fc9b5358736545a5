// serdiff::varint — optimized variable-length integer codecs.
//
// Formats (see docs/formats.md and ../shared wire-formats digest, sections 2 and 3):
//   * ZigZag64: int64 -> uint64, zz(n) = (n << 1) XOR (n >> 63) with an ARITHMETIC shift.
//     Protocol Buffers encoding guide, "Signed Integers". zz(-1) = 1, zz(INT64_MIN) = 2^64-1.
//   * LEB128 (protobuf wire format varint): 7 value bits per byte, least significant group
//     first, 0x80 = more bytes follow; 1..10 bytes for 64 bits. 300 -> ac 02;
//     2^64-1 -> ff ff ff ff ff ff ff ff ff 01. The 10th byte may only be 0x00 or 0x01.
//   * Fory varuint64 (apache/fory MemoryBuffer/buffer.h, "PVL"): like LEB128 for the first 8
//     bytes; a 9th byte, when present, carries all 8 remaining bits (56..63) and ends the
//     value. 1..9 bytes. 2^63 -> 80 80 80 80 80 80 80 80 80; 2^64-1 -> ff x9.
//   * Cassandra unsigned vint (VIntCoding.java; native_protocol_v5.spec section 3): big
//     endian; the count E of leading 1 bits of the first byte is the number of extra bytes
//     (0..8); the first byte holds the value's top bits after a 0 separator (none when
//     E = 8). 1..9 bytes. 2^56 -> ff 01 00 00 00 00 00 00 00; 256000 -> c3 e8 00.
//     The signed vint is the unsigned vint of zz(n): -65 -> 80 81.
//
// Decoders accept non-minimal encodings that stay within the format's length limit (as
// protobuf and Cassandra do), and reject, with absl::Status naming the byte offset of the
// offending value's first byte:
//   * truncated input (the input ends inside a value)            -> OutOfRange
//   * LEB128 with more than 10 bytes                               -> InvalidArgument
//   * LEB128 whose 10th byte is > 0x01 (bits past 64)              -> InvalidArgument
// They never read outside the given span.
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
// Maximum encoded bytes of one 64-bit value in `f` (10, 9, 9).
size_t MaxBytes(Format f);

// ZigZag64 (arithmetic shift). EncodeZigZag64(-1) == 1, EncodeZigZag64(INT64_MIN) == 2^64-1.
uint64_t EncodeZigZag64(int64_t v);
// Inverse: (u >> 1) XOR -(u & 1). DecodeZigZag64(EncodeZigZag64(v)) == v for every int64.
int64_t DecodeZigZag64(uint64_t u);

// ---- single values ----------------------------------------------------------------
// Bytes needed for `v` in format `f`: 1..MaxBytes(f). Exact, no allocation.
size_t EncodedSize(Format f, uint64_t v);
// Writes `v` at `out`, returns one past the last byte written. Unchecked: the caller
// guarantees EncodedSize(f, v) writable bytes at `out` (MaxBytes(f) always suffice).
uint8_t* WriteToArray(Format f, uint64_t v, uint8_t* out);
// Reads one value from `in` starting at `*offset` (bytes) and advances `*offset` past it.
// Errors: see the file comment; `*offset` is unchanged on error.
absl::StatusOr<uint64_t> Read(Format f, absl::Span<const uint8_t> in, size_t* offset);

// ---- batches ------------------------------------------------------------------------
// Exact total encoded size (bytes) of `values`, each as unsigned / as zigzag.
size_t EncodedBatchSize(Format f, absl::Span<const uint64_t> values);
size_t EncodedZigZagBatchSize(Format f, absl::Span<const int64_t> values);

// Encodes every value back to back into `out`; returns the bytes written (== the batch
// size). Error: ResourceExhausted when out.size() is smaller than the batch size; nothing
// is written past out.end() in any case. Allocates nothing.
absl::StatusOr<size_t> EncodeBatch(Format f, absl::Span<const uint64_t> values,
                                   absl::Span<uint8_t> out);
absl::StatusOr<size_t> EncodeZigZagBatch(Format f, absl::Span<const int64_t> values,
                                         absl::Span<uint8_t> out);

// Same, into a string of exactly the batch size (its only allocation).
std::string EncodeBatch(Format f, absl::Span<const uint64_t> values);
std::string EncodeZigZagBatch(Format f, absl::Span<const int64_t> values);

// Decodes exactly out.size() values from the front of `in`; returns the bytes consumed.
// Trailing bytes after the last value are not an error. Errors as for Read, with the
// offset of the failing value. Allocates nothing.
absl::StatusOr<size_t> DecodeBatch(Format f, absl::Span<const uint8_t> in,
                                   absl::Span<uint64_t> out);
absl::StatusOr<size_t> DecodeZigZagBatch(Format f, absl::Span<const uint8_t> in,
                                         absl::Span<int64_t> out);

}  // namespace serdiff::varint
