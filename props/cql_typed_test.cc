// Properties of the CQL typed fast path (serdiff/cql/typed.h): it accepts and rejects exactly
// what the Value path does for the same values, writes the same bytes, and reads back what
// it wrote.
#include <gtest/gtest.h>
#include <rapidcheck/gtest.h>

#include <string>

#include "serdiff/common/error_offset.h"
#include "serdiff/cql/codec.h"
#include "serdiff/cql/typed.h"
#include "targets/cql/domain.h"

namespace serdiff::targets::cql {
namespace {

namespace opt = serdiff::cql;

// Encoding: the typed path and the Value path agree on acceptance, error class and bytes.
RC_GTEST_PROP(CqlTypedProps, EncodeAcceptsAndRejectsLikeTheValuePath, ()) {
  const TypedInput in = *TypedDomain().gen.value();
  const absl::StatusOr<std::string> typed = TypedEncode(in);
  const absl::StatusOr<std::string> tree =
      opt::Serialize(in.built->tree.type, in.built->tree.value, in.spec.version);
  RC_ASSERT(typed.ok() == tree.ok());
  if (!typed.ok()) {
    RC_ASSERT(typed.status().code() == tree.status().code());
    return;
  }
  RC_ASSERT(*typed == *tree);
}

// Decoding: same acceptance, error class and error offset as the Value path; where the Value
// path reads an empty element the typed path says FailedPrecondition.
RC_GTEST_PROP(CqlTypedProps, DecodeAcceptsAndRejectsLikeTheValuePath, ()) {
  const TypedDecodeInput in = *TypedDecodeDomain().gen.value();
  const absl::StatusOr<std::string> typed = TypedDecodeOutput(in);
  const absl::StatusOr<std::string> tree = TreeDecodeOutput(in);
  if (!tree.ok() && harness::IsDeclined(tree.status())) {
    RC_ASSERT(!typed.ok());
    RC_ASSERT(typed.status().code() == absl::StatusCode::kFailedPrecondition);
    return;
  }
  RC_ASSERT(typed.ok() == tree.ok());
  if (!typed.ok()) {
    RC_ASSERT(typed.status().code() == tree.status().code());
    RC_ASSERT(serdiff::ErrorOffset(typed.status()).has_value());
    RC_ASSERT(serdiff::ErrorOffset(typed.status()) == serdiff::ErrorOffset(tree.status()));
    return;
  }
  RC_ASSERT(*typed == *tree);
}

// What the typed encoder writes, the typed decoder reads back to the same column.
RC_GTEST_PROP(CqlTypedProps, DecodeReadsBackWhatEncodeWrote, ()) {
  const TypedInput in = *TypedDomain().gen.value();
  const absl::StatusOr<std::string> bytes = TypedEncode(in);
  RC_PRE(bytes.ok());
  TypedDecodeInput d;
  d.container = in.spec.container;
  d.key = in.spec.key;
  d.value = in.spec.value;
  d.version = in.spec.version;
  d.bytes = *bytes;
  const absl::StatusOr<std::string> typed = TypedDecodeOutput(d);
  const absl::StatusOr<std::string> tree = TreeDecodeOutput(d);
  RC_ASSERT(typed.ok());
  RC_ASSERT(tree.ok());
  RC_ASSERT(*typed == *tree);
}

}  // namespace
}  // namespace serdiff::targets::cql
