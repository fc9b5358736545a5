// The target registries. Families register themselves (harness/target.h,
// SERDIFF_REGISTER_FAMILY); nothing here names one.
#pragma once

#include <string>
#include <vector>

#include "harness/target.h"

namespace serdiff::targets {

// Every production target, registered once, in family-name order, then in each family's
// registration order.
// Every family's targets, with the workers and modules that SERDIFF_WORKERS, SERDIFF_MODULES
// and SERDIFF_SUBJECT name joined to them (and the shipped default workers when
// SetDefaultWorkers(true) was called before the first call, as `serdiff` does; the fuzz
// binaries and the test suite attach them only when asked). Built at the first call.
const harness::Registry& AllTargets();
void SetDefaultWorkers(bool on);
// What AllTargets could not attach (harness::AttachExternal's lines), shown by `serdiff list`.
std::vector<std::string>& AttachProblems();
// The self-test targets alone (family "selftest": optimized sides deliberately wrong, see
// targets/selftest/selftest.cc); never part of AllTargets().
const harness::Registry& SelfTestTargets();

}  // namespace serdiff::targets
