// serdiff::ref::mutation — the spec-transcription mutation writer (way 4) and the reference
// decoder.
//
// SpecSerialize builds every field as its own byte string, in the order of docs/mutation.md's
// per-field table (itself read from apache/cassandra's serializers), and concatenates them. It
// shares no code with serdiff::mutation's writers: its only include from src/ is the plain
// value model (serdiff/mutation/model.h); tests/mutation_model_test.cc checks that. Its vint
// is written from the VIntCoding rule (leading one bits = extra bytes), its deltas from
// Cassandra's "writeUnsignedVInt32(int)" (cast to int32, sign-extend).
//
// Errors: InvalidArgument for a mutation the format cannot carry (the same rules as
// serdiff::mutation::Validate, checked independently here).
#pragma once

#include <string>

#include "absl/status/statusor.h"
#include "serdiff/mutation/model.h"

namespace serdiff::ref::mutation {

absl::StatusOr<std::string> SpecSerialize(const serdiff::mutation::Mutation& m);

}  // namespace serdiff::ref::mutation
