// Varint family: what serdiff accepts from each outside implementation of the varint targets,
// declared once; each peer's definitions are in targets/varint/divergences_<peer>.cc, and
// docs/peers.md's generated table lists every one with its file
// (`serdiff list --emit divergences-md`).
#pragma once

#include <cstddef>
#include <cstdint>
#include <string>
#include <vector>

#include "absl/status/statusor.h"
#include "absl/types/span.h"
#include "harness/target.h"
#include "targets/varint/domain.h"

namespace serdiff::targets::varint {

// ---- protobuf 3.21 (oracles/protobuf, in process; divergences_protobuf.cc) --------------------
//   ProtobufDecodeDivergences     varint_leb128_decode: CodedInputStream's fast path accepts a
//                                 10th byte above 0x01 (dropping the bits past 64)
//   ProtobufDecodeOffsetExemption varint_leb128_decode: ReadVarint64 reports no position
std::vector<harness::Divergence<DecodeInput>> ProtobufDecodeDivergences();
harness::OffsetExemption ProtobufDecodeOffsetExemption();

// ---- the worker "fury" (Fury JS, npm @furyjs/fury 0.5.9-beta): accepted divergences ---------
// Defined in targets/varint/divergences_fury.cc; docs/peers.md ("## varint") lists them. Each
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

}  // namespace serdiff::targets::varint
