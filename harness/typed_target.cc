// The type-erased side of a target (harness/typed_target.h).
#include "harness/typed_target.h"

#include "absl/strings/str_cat.h"

namespace serdiff::harness {

// The optimized side and its tiers live in src/serdiff/<family>/, references in
// reference/<family>/. An oracle must name its own origin (test
// ImplOrigins.EveryImplementationSaysWhereItComesFrom), so the fallback says that it did not.
std::string DefaultOrigin(Role role, std::string_view family) {
  switch (role) {
    case Role::kOptimized:
    case Role::kOptimizedTier:
      return "src/serdiff/" + std::string(family);
    case Role::kReference:
      return "reference/" + std::string(family);
    case Role::kOracle:
      break;
  }
  return "an oracle that names no origin";
}

std::string DeclaredInText(std::string_view declared_in) {
  for (std::string_view dir : {"targets/", "oracles/"}) {
    if (declared_in.substr(0, dir.size()) == dir) return std::string(declared_in);
    const size_t at = declared_in.rfind("/" + std::string(dir));
    if (at != std::string_view::npos) return std::string(declared_in.substr(at + 1));
  }
  return std::string(declared_in);
}

// Both in TargetInfo::impls order: [0] is the optimized implementation.
std::vector<std::string> Target::impl_names() const {
  std::vector<std::string> names;
  for (const ImplInfo& i : info_.impls) names.push_back(i.name);
  return names;
}

std::vector<Role> Target::impl_roles() const {
  std::vector<Role> roles;
  for (const ImplInfo& i : info_.impls) roles.push_back(i.role);
  return roles;
}

}  // namespace serdiff::harness
