// Varint family: the input and output forms the family's files and tests share (the other
// inputs are plain batches of uint64 or int64, whose domains are in varint.cc). DecodedOutput is
// defined in targets/varint/domain.cc.
#pragma once

#include <cstddef>
#include <cstdint>
#include <string>

#include "absl/types/span.h"

namespace serdiff::targets::varint {

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

}  // namespace serdiff::targets::varint
