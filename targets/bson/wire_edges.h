// The BSON family's wire-edge table (harness/wire_edges.h), registered with its targets.
#pragma once

#include "harness/wire_edges.h"

namespace serdiff::targets::bson {

// Every length, minimum and reserved-bit field of docs/bson.md's decoder rules, on a valid
// document each, with the error offsets of the edited inputs; the decoders are
// serdiff::bson::Validate and serdiff::ref::bson::Validate with default options.
harness::WireEdgeTable WireEdges();

}  // namespace serdiff::targets::bson
