// The target registries. Families register themselves (harness/target.h,
// SERDIFF_REGISTER_FAMILY); nothing here names one.
#pragma once

#include "harness/target.h"

namespace serdiff::targets {

// Every production target, registered once, in family-name order, then in each family's
// registration order.
const harness::Registry& AllTargets();
// The self-test targets alone (family "selftest": optimized sides deliberately wrong, see
// targets/selftest/selftest.cc); never part of AllTargets().
const harness::Registry& SelfTestTargets();

}  // namespace serdiff::targets
