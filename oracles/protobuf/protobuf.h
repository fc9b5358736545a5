// protobuf 3.21's varint code (Debian libprotobuf-dev) as an oracle: oracles/protobuf/README.md.
// Base-128 varints, least significant group first, high bit = "more bytes" (protobuf's
// encoding guide, "Base 128 Varints"; the same bytes as serdiff's LEB128: 300 -> ac 02).
#pragma once

#include <cstddef>
#include <cstdint>
#include <string>

#include "absl/status/statusor.h"
#include "absl/types/span.h"

namespace serdiff::oracle::protobuf {

// Where this oracle comes from, as `serdiff list` shows it.
inline constexpr char kOrigin[] = "oracles/protobuf: protobuf 3.21.12 (Debian libprotobuf-dev)";

// ZigZag of one int64 (WireFormatLite::ZigZagEncode64): 0 -> 0, -1 -> 1, 1 -> 2,
// INT64_MIN -> 2^64-1.
uint64_t ZigZagEncode64(int64_t v);

// The varints of `values`, concatenated (CodedOutputStream::WriteVarint64ToArray): 1 to 10
// bytes each. The signed overload zigzags each value first. Allocates the output only.
std::string EncodeVarint64Batch(absl::Span<const uint64_t> values);
std::string EncodeVarint64Batch(absl::Span<const int64_t> values);

// Reads out.size() varints from the front of `bytes` into `out` (CodedInputStream::
// ReadVarint64) and returns the bytes consumed. Error: InvalidArgument("protobuf: bad varint")
// when a varint is truncated or longer than 10 bytes, without an offset (protobuf reports
// none). Precondition: bytes.size() <= INT_MAX.
absl::StatusOr<size_t> DecodeVarint64Batch(absl::Span<const uint8_t> bytes,
                                           absl::Span<uint64_t> out);

}  // namespace serdiff::oracle::protobuf
