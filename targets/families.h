// Registration entry points, one per family (targets/<family>.cc).
#pragma once

#include "harness/target.h"

namespace serdiff::targets {

void RegisterVarintTargets(harness::Registry& registry);
void RegisterTimestampTargets(harness::Registry& registry);
void RegisterCqlTargets(harness::Registry& registry);
void RegisterBsonTargets(harness::Registry& registry);
void RegisterMutationTargets(harness::Registry& registry);
// Test-only targets whose optimized side is deliberately wrong (see selftest.cc); never part
// of AllTargets().
void RegisterSelfTestTargets(harness::Registry& registry);

// Every production target, registered once, in family order.
const harness::Registry& AllTargets();
// The self-test targets alone.
const harness::Registry& SelfTestTargets();

}  // namespace serdiff::targets
