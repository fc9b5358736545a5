// Varint family: what serdiff accepts from protobuf 3.21 (oracles/protobuf, in process), in
// varint_leb128_decode. Declared in targets/varint/divergences.h.
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "absl/status/status.h"
#include "harness/target.h"
#include "serdiff/common/error_offset.h"
#include "targets/varint/divergences.h"

namespace serdiff::targets::varint {

using harness::Output;

namespace {

// True when a LEB128 varint of ten bytes starts at `offset` of `bytes` and its tenth byte holds
// more than the one value bit left of 64 (nine continuation bytes, then a last byte above
// 0x01): the overflow every serdiff LEB128 decoder rejects, told from a truncation by the
// input and the error offset (a payload), never by the message text.
bool OverflowsAt(std::string_view bytes, std::optional<int64_t> offset) {
  if (!offset || *offset < 0 || static_cast<size_t>(*offset) > bytes.size() ||
      bytes.size() - static_cast<size_t>(*offset) < 10) {
    return false;
  }
  const auto* p = reinterpret_cast<const uint8_t*>(bytes.data()) + *offset;
  for (int i = 0; i < 9; ++i) {
    if ((p[i] & 0x80) == 0) return false;
  }
  return p[9] > 0x01 && (p[9] & 0x80) == 0;
}

}  // namespace

std::vector<harness::Divergence<DecodeInput>> ProtobufDecodeDivergences() {
  std::vector<harness::Divergence<DecodeInput>> out;
  out.push_back(
      {"protobuf",
       "protobuf 3.21's CodedInputStream, on its fast path (10 or more bytes buffered), accepts "
       "a 10th byte above 0x01 and drops the bits past 64 (ff x9 02 reads as 2^63-1), while "
       "its slow path near the end of the buffer rejects it; serdiff always rejects it as an "
       "overflow, since the value does not fit 64 bits",
       [](const DecodeInput& in, const Output& opt, const Output& pb) {
         return !opt.ok() && pb.ok() && OverflowsAt(in.bytes, ErrorOffset(opt.status()));
       }});
  // Held at its edge: ten bytes whose last is 0x01, 2^64 - 1, which fits; had serdiff rejected
  // it (a planted off-by-one in its overflow check), the divergence must not cover that.
  out[0].edges = [] {
    const std::string max = std::string(9, '\xff') + '\x01';
    std::string decoded;
    for (uint64_t v : {uint64_t{10}, ~uint64_t{0}}) {
      for (int i = 0; i < 8; ++i) decoded.push_back(static_cast<char>(v >> (8 * i)));
    }
    // Nine bytes ending in 0x7f (2^63 - 1), then the value 2: ten bytes whose tenth is above
    // 0x01, but the ninth ends the first value; had serdiff rejected it, that is no overflow.
    const std::string nine_then_two = std::string(8, '\xff') + "\x7f\x02";
    std::string decoded_nine;  // the output: bytes consumed, then the values
    for (uint64_t v : {uint64_t{10}, uint64_t{0x7FFFFFFFFFFFFFFF}, uint64_t{2}}) {
      for (int i = 0; i < 8; ++i) decoded_nine.push_back(static_cast<char>(v >> (8 * i)));
    }
    return std::vector<harness::DivergenceEdge<DecodeInput>>{
        {"count 1, ff x9 01: 2^64 - 1, the largest value ten bytes hold",
         {1, max},
         WithErrorOffset(absl::InvalidArgumentError("varint overflows 64 bits"), 0),
         decoded},
        {"count 2, ff x8 7f 02: 2^63 - 1 in nine bytes, then 2",
         {2, nine_then_two},
         WithErrorOffset(absl::InvalidArgumentError("varint overflows 64 bits"), 0),
         decoded_nine}};
  };
  return out;
}

harness::OffsetExemption ProtobufDecodeOffsetExemption() {
  return {"protobuf", "CodedInputStream::ReadVarint64 returns only false, with no position"};
}

}  // namespace serdiff::targets::varint
