// Mutation family, private to targets/mutation/: what its files share beyond domain.h. Tests,
// properties and benchmarks use targets/mutation/domain.h.
#pragma once

#include "harness/wire_edges.h"

namespace serdiff::targets::mutation {

// The family's wire-edge table (wire_edges.cc; harness/wire_edges.h), registered with its
// targets.
harness::WireEdgeTable WireEdges();

}  // namespace serdiff::targets::mutation
