// The definition vocabulary (harness/definition.h): names for people, bound texts, default
// fuzz limits.
#include "harness/definition.h"

#include "absl/strings/str_cat.h"

namespace serdiff::harness {

// The names `serdiff list` shows. The switch has no default label, so -Wswitch (part of -Wall, an
// error in the dev preset) flags an enumerator added without a name; the return after it covers a
// value outside the enum. RoleName has the same form.
std::string_view OffsetPolicyName(OffsetPolicy p) {
  switch (p) {
    case OffsetPolicy::kCompareWhenPresent:
      return "compare-when-present";
    case OffsetPolicy::kRequired:
      return "required";
    case OffsetPolicy::kNotApplicable:
      return "not-applicable";
  }
  return "unknown";
}

std::string_view ImplKindName(ImplKind k) {
  switch (k) {
    case ImplKind::kCompiled:
      return "compiled";
    case ImplKind::kModule:
      return "module";
    case ImplKind::kWorker:
      return "worker";
  }
  return "unknown";
}

std::string_view RoleName(Role r) {
  switch (r) {
    case Role::kOptimized:
      return "optimized";
    case Role::kOptimizedTier:
      return "optimized-tier";
    case Role::kReference:
      return "reference";
    case Role::kOracle:
      return "oracle";
  }
  return "unknown";
}

// A unit only for an exact multiple, so that the text never rounds: a bound's number and its text
// cannot disagree (HeapBound in definition.h).
std::string BoundBytesText(int64_t bytes) {
  constexpr int64_t kKiB = 1024;
  if (bytes > 0 && bytes % (kKiB * kKiB) == 0) return absl::StrCat(bytes / (kKiB * kKiB), " MiB");
  if (bytes > 0 && bytes % kKiB == 0) return absl::StrCat(bytes / kKiB, " KiB");
  return absl::StrCat(bytes);
}

// 64 KiB inputs, a 1088 KiB heap bound and 25 s per input (OSS-Fuzz's timeout), for a family that
// states no limits of its own.
FuzzLimits DefaultFuzzLimits() {
  return FuzzLimits{65536, 1114112, 25,
                    "default for a new family: 1088 KiB until its author states a bound"};
}

}  // namespace serdiff::harness
