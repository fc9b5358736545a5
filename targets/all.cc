// The registries every binary uses, built once from the families that registered themselves
// (SERDIFF_REGISTER_FAMILY at the end of each targets/<family>/).
#include "targets/families.h"

namespace serdiff::targets {

const harness::Registry& AllTargets() {
  static const harness::Registry* registry = harness::BuildRegistry(false).release();
  return *registry;
}

const harness::Registry& SelfTestTargets() {
  static const harness::Registry* registry = harness::BuildRegistry(true).release();
  return *registry;
}

}  // namespace serdiff::targets
