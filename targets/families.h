// The target registries. Families register themselves (harness/registry.h,
// SERDIFF_REGISTER_FAMILY); nothing here names one.
#pragma once

#include <memory>

#include "harness/registry.h"
#include "harness/run_config.h"

namespace serdiff::targets {

// Every production target, in family-name order, then in each family's registration order,
// built for `config` (its subject and re-run sample are what RunBytes(data, r->config()) judges
// under) with the workers and modules config.external names attached; what could not be
// attached is in r->attach_problems(). `serdiff` and the fuzz binaries build their own.
std::unique_ptr<harness::Registry> BuildTargets(harness::RunConfig config);
// BuildTargets(RunConfigFromEnvironment(false)): the environment's subject, workers and modules
// (SERDIFF_SUBJECT, SERDIFF_WORKERS, SERDIFF_MODULES, SERDIFF_DEFAULT_WORKERS), no default
// workers unless asked. Built at the first call, then kept: for the test binaries and the
// benchmarks, which judge under AllTargets().config().
const harness::Registry& AllTargets();
// The self-test targets alone (family "selftest": optimized sides deliberately wrong, see
// targets/selftest/selftest.cc), under the default configuration; never part of AllTargets().
const harness::Registry& SelfTestTargets();

}  // namespace serdiff::targets
