// Accepted divergences of the BSON targets from libbson 1.23 (targets/bson/divergences.cc). Where
// the BSON spec, libbson and pymongo disagree, the spec decides serdiff's behaviour; each entry
// below says what libbson does instead and why it is accepted. tests/bson_test.cc shows, for each,
// a nearby valid input that the predicate does not cover.
#pragma once

#include <string>
#include <vector>

#include "harness/target.h"
#include "serdiff/bson/document.h"

namespace serdiff::targets::bson {

std::vector<harness::Divergence<serdiff::bson::Document>> EncodeDivergences();
std::vector<harness::Divergence<std::string>> DecodeDivergences();

}  // namespace serdiff::targets::bson
