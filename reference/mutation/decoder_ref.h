// serdiff::ref::mutation — reference mutation decoder: the decoder rules of docs/mutation.md
// ("Decoder rules") transcribed a second time, independently of serdiff::mutation::Deserialize
// (own vint reader, own cursor, no shared code). Same inputs, outputs, error classes and error
// offsets (serdiff/common/error_offset.h) as serdiff::mutation::Deserialize.
#pragma once

#include <cstdint>
#include <string_view>
#include <vector>

#include "absl/status/statusor.h"
#include "serdiff/mutation/decoded.h"
#include "serdiff/mutation/model.h"

namespace serdiff::ref::mutation {

// Into the same flat form (serdiff/mutation/decoded.h), appending each record as it is read;
// same heap budget (at most 64 bytes per input byte plus a constant).
absl::StatusOr<serdiff::mutation::DecodedMutation> RefDeserialize(
    std::string_view bytes, serdiff::mutation::Version version,
    const serdiff::mutation::Schema& schema);

// The byte offsets, in reading order, of the fields of `bytes` whose bits the decoder rules
// constrain one by one: every one-byte field (the mutation, partition, row, extended row,
// marker and cell flags and kinds) and every byte of every clustering prefix header and column
// subset bitmap (unsigned vints), as RefDeserialize reads them; reading stops at the
// first error, so an invalid input yields the offsets before it. Not a decoder: the mutated
// domain (targets/mutation/mutation.cc) aims its bit and byte edits at these offsets
// (harness/mutated.h, "aimed edits").
std::vector<uint32_t> RefFlagOffsets(std::string_view bytes, serdiff::mutation::Version version,
                                     const serdiff::mutation::Schema& schema);

}  // namespace serdiff::ref::mutation
