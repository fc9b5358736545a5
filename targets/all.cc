// The registries every binary uses, built from the families that registered themselves
// (SERDIFF_REGISTER_FAMILY at the end of each targets/<family>/), with the workers and modules
// of a run configuration joined to their targets (harness/registry.h, docs/workers.md).
#include "targets/families.h"

namespace serdiff::targets {

std::unique_ptr<harness::Registry> BuildTargets(harness::RunConfig config) {
  std::unique_ptr<harness::Registry> r = harness::BuildRegistry(false, std::move(config));
  harness::AttachExternal(*r);
  return r;
}

const harness::Registry& AllTargets() {
  static const harness::Registry* registry =
      BuildTargets(harness::RunConfigFromEnvironment(false)).release();
  return *registry;
}

const harness::Registry& SelfTestTargets() {
  static const harness::Registry* registry = harness::BuildRegistry(true).release();
  return *registry;
}

}  // namespace serdiff::targets
