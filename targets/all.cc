// The registries every binary uses, built once from the families that registered themselves
// (SERDIFF_REGISTER_FAMILY at the end of each targets/<family>/), with the workers and modules
// the process asks for joined to their targets (harness/external.h, docs/workers.md).
#include <cstdlib>

#include "targets/families.h"

namespace serdiff::targets {

namespace {
bool g_default_workers = false;
}  // namespace

void SetDefaultWorkers(bool on) { g_default_workers = on; }

std::vector<std::string>& AttachProblems() {
  static auto* problems = new std::vector<std::string>;
  return *problems;
}

const harness::Registry& AllTargets() {
  static const harness::Registry* registry = [] {
    std::unique_ptr<harness::Registry> r = harness::BuildRegistry(false);
    if (const char* s = std::getenv("SERDIFF_SUBJECT");
        s != nullptr && *s && harness::Subject().empty()) {
      harness::SetSubject(s);
    }
    AttachProblems() =
        harness::AttachExternal(*r, harness::ExternalConfigFromEnvironment(g_default_workers));
    return r.release();
  }();
  return *registry;
}

const harness::Registry& SelfTestTargets() {
  static const harness::Registry* registry = harness::BuildRegistry(true).release();
  return *registry;
}

}  // namespace serdiff::targets
