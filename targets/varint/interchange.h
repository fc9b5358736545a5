// Varint family: how the inputs of the Fory targets cross to workers and modules
// (docs/workers.md, "The interchange"; harness/external.h), and the output form of the decode
// targets that an answer is mapped to. Defined in targets/varint/interchange.cc.
#pragma once

#include <cstddef>
#include <cstdint>
#include <string>
#include <vector>

#include "absl/status/statusor.h"
#include "absl/strings/string_view.h"
#include "absl/types/span.h"
#include "harness/external.h"
#include "harness/target.h"

namespace serdiff::targets::varint_interchange {

// The input of the varint_<fmt>_decode targets: decode `count` values from `bytes` (the values
// must be there; bytes after them are ignored).
struct DecodeInput {
  uint32_t count = 0;
  std::string bytes;
  bool operator==(const DecodeInput&) const = default;
};

// The output of the varint_<fmt>_decode targets: the consumed byte count, then each value, all
// as 8 bytes little-endian.
std::string DecodedOutput(size_t consumed, absl::Span<const uint64_t> values);

// varint.fory_encode: {"values":["0","18446744073709551615"],"zigzag":false} for a batch of
// uint64 (varint_fory_encode), {"values":["-1","300"],"zigzag":true} for a batch of int64
// (varint_fory_zigzag_encode). The answer is the bytes, as they are.
std::string ForyEncodeInputJson(absl::Span<const uint64_t> values);
std::string ForyEncodeInputJson(absl::Span<const int64_t> values);

// varint_fory_decode decodes `count` values from its bytes and ignores what follows them; the
// op varint.fory_decode decodes every value until its input ends. So the op is given the bytes
// the target's decode reads: the first `count` varuint64 (each ends at its first byte below 0x80
// or at its 9th byte, Fory's 8-bit last byte), or all of the bytes when they hold fewer complete
// values (the decode then fails in or after them, where the op fails or stops too).
size_t ForyDecodePrefix(absl::string_view bytes, size_t count);
// {"hex":"<the ForyDecodePrefix bytes, lower-case hex>"}
std::string ForyDecodeInputJson(absl::string_view bytes, size_t count);

// An accepted varint.fory_decode answer -> varint_fory_decode's output for `count` values. The
// value {"values":["300"],"consumed":2} (the answer's "value"; a module's output bytes hold the
// same JSON text) becomes DecodedOutput(consumed, values); fewer values than `count` mean the
// input ended before value number len(values): a rejection at offset `consumed`, as the target's
// decoders report a value cut off. A value that is not that JSON is an InternalError.
absl::StatusOr<std::string> ForyDecodeOutput(size_t count, const harness::ExternalAnswer& answer);

// ---- the worker "fury" (Fury JS, npm @furyjs/fury 0.5.9-beta): accepted divergences ---------
// Defined in targets/varint/peer_divergences.cc; docs/peers.md ("## varint") lists them. Each
// recomputes what the package answers from the input and covers only that exact answer.
//   FuryEncodeDivergences        varint_fory_encode: values >= 2^63 written as 10-byte LEB128
//   FuryZigZagEncodeDivergences  varint_fory_zigzag_encode: the same for zigzag(v) >= 2^63
//   FuryDecodeDivergences        varint_fory_decode: BinaryReader.varUInt64's fast path misreads
//                                a value of 2 or more bytes with 8 or more bytes left
//                                (max_count: the target's cap on `count`, kMaxBatch)
std::vector<harness::Divergence<std::vector<uint64_t>>> FuryEncodeDivergences();
std::vector<harness::Divergence<std::vector<int64_t>>> FuryZigZagEncodeDivergences();
std::vector<harness::Divergence<DecodeInput>> FuryDecodeDivergences(size_t max_count);
// The bytes Fury JS's BinaryWriter.varUInt64 writes for each value, one after another: plain
// unsigned LEB128, 7 bits a byte, 1 to 10 bytes (a value >= 2^63 takes 10).
std::string FuryWrites(absl::Span<const uint64_t> values);
// What the varint.fory_decode worker answers for `in`, as the target's output (ForyDecodeOutput
// of it): BinaryReader.varUInt64 read over ForyDecodePrefix(in.bytes, min(in.count, max_count))
// until it ends, the fast path (8 or more bytes left from the value's first byte) as the package
// has it: its 2nd to 4th byte and 6th to 8th byte are each taken to be the 1st and the 5th byte
// again (`l32 & 0xff00 >> 8` is `l32 & 0xff`). A read past the input is a rejection at the
// value's first byte. *misread: some value read on the fast path differs (value or length)
// from Fory's varuint64 at that place.
absl::StatusOr<std::string> FuryDecodeModel(const DecodeInput& in, size_t max_count, bool* misread);

}  // namespace serdiff::targets::varint_interchange
