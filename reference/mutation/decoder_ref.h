// serdiff::ref::mutation — reference mutation decoder: the decoder rules of docs/mutation.md
// ("Decoder rules") transcribed a second time, independently of serdiff::mutation::Deserialize
// (own vint reader, own cursor, no shared code). Same inputs, outputs, error classes and error
// offsets (serdiff/common/error_offset.h) as serdiff::mutation::Deserialize.
#pragma once

#include <cstdint>
#include <string_view>

#include "absl/status/statusor.h"
#include "serdiff/mutation/model.h"

namespace serdiff::ref::mutation {

absl::StatusOr<serdiff::mutation::Mutation> RefDeserialize(std::string_view bytes,
                                                           serdiff::mutation::Version version,
                                                           const serdiff::mutation::Schema& schema);

}  // namespace serdiff::ref::mutation
