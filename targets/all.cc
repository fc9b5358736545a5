#include "targets/families.h"

namespace serdiff::targets {

const harness::Registry& AllTargets() {
  static const harness::Registry* registry = [] {
    auto* r = new harness::Registry;
#ifdef SERDIFF_HAS_VARINT
    RegisterVarintTargets(*r);
#endif
#ifdef SERDIFF_HAS_TIMESTAMP
    RegisterTimestampTargets(*r);
#endif
#ifdef SERDIFF_HAS_CQL
    RegisterCqlTargets(*r);
#endif
#ifdef SERDIFF_HAS_BSON
    RegisterBsonTargets(*r);
#endif
#ifdef SERDIFF_HAS_MUTATION
    RegisterMutationTargets(*r);
#endif
    return r;
  }();
  return *registry;
}

const harness::Registry& SelfTestTargets() {
  static const harness::Registry* registry = [] {
    auto* r = new harness::Registry;
    RegisterSelfTestTargets(*r);
    return r;
  }();
  return *registry;
}

}  // namespace serdiff::targets
