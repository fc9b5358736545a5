// Varint family: what serdiff accepts from protobuf 3.21 (oracles/protobuf, in process), in
// varint_leb128_decode. Declared in targets/varint/divergences.h.
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

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
  return out;
}

harness::OffsetExemption ProtobufDecodeOffsetExemption() {
  return {"protobuf", "CodedInputStream::ReadVarint64 returns only false, with no position"};
}

}  // namespace serdiff::targets::varint
