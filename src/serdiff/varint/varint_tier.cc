// serdiff::varint CPU tiers (BatchTier in varint.h): names, what this machine supports, and the
// tier kAuto runs.
#include <string>

#include "absl/status/status.h"
#include "absl/strings/str_cat.h"
#include "serdiff/varint/varint.h"
#include "serdiff/varint/varint_internal.h"

#if defined(__x86_64__)
#include <cpuid.h>
#endif

namespace serdiff::varint {
namespace {

#if defined(__x86_64__)
// AMD (and Hygon) before family 0x19 (Zen 3) run PDEP/PEXT as microcode: about 18 cycles plus
// more per set bit of the mask, against 3 cycles on Zen 3/4 and Intel since Haswell (AMD's and
// Agner Fog's instruction tables). Our masks have 56 set bits.
bool SlowPdep() {
  unsigned eax = 0, ebx = 0, ecx = 0, edx = 0;
  if (__get_cpuid(0, &eax, &ebx, &ecx, &edx) == 0) return true;
  // Vendor string in ebx, edx, ecx: "AuthenticAMD" / "HygonGenuine".
  const bool amd = ebx == 0x68747541 /* Auth */ || ebx == 0x6f677948 /* Hygo */;
  if (!amd) return false;
  if (__get_cpuid(1, &eax, &ebx, &ecx, &edx) == 0) return true;
  unsigned family = (eax >> 8) & 0xF;
  if (family == 0xF) family += (eax >> 20) & 0xFF;
  return family < 0x19;
}
#endif

BatchTier DetectTier() {
#if SERDIFF_VARINT_HAVE_BMI2_TIER
  if (BatchTierSupported(BatchTier::kAvx512) && !SlowPdep()) return BatchTier::kAvx512;
  if (BatchTierSupported(BatchTier::kBmi2) && !SlowPdep()) return BatchTier::kBmi2;
#endif
#if defined(__x86_64__)
  return BatchTier::kSse2;
#else
  return BatchTier::kPortable;
#endif
}

}  // namespace

std::string_view BatchTierName(BatchTier tier) {
  switch (tier) {
    case BatchTier::kAuto:
      return "auto";
    case BatchTier::kPortable:
      return "portable";
    case BatchTier::kSse2:
      return "sse2";
    case BatchTier::kBmi2:
      return "bmi2";
    case BatchTier::kAvx512:
      return "avx512";
    case BatchTier::kAvx512Emulated:
      return "avx512_emulated";
  }
  return "unknown";
}

bool BatchTierSupported(BatchTier tier) {
  switch (tier) {
    case BatchTier::kAuto:
    case BatchTier::kPortable:
      return true;
    case BatchTier::kSse2:
#if defined(__x86_64__)
      return true;
#else
      return false;
#endif
    case BatchTier::kBmi2:
#if SERDIFF_VARINT_HAVE_BMI2_TIER
      return __builtin_cpu_supports("bmi2");
#else
      return false;
#endif
    case BatchTier::kAvx512:
#if SERDIFF_VARINT_HAVE_AVX512_TIER
      return __builtin_cpu_supports("bmi2") && __builtin_cpu_supports("avx512f") &&
             __builtin_cpu_supports("avx512bw") && __builtin_cpu_supports("avx512vl") &&
             __builtin_cpu_supports("avx512vbmi") && __builtin_cpu_supports("avx512vbmi2");
#else
      return false;
#endif
    case BatchTier::kAvx512Emulated:
      return SERDIFF_VARINT_HAVE_AVX512_EMULATION != 0;
  }
  return false;
}

BatchTier AutoBatchTier() {
  static const BatchTier tier = DetectTier();
  return tier;
}

namespace varint_internal {

absl::Status UnsupportedTierError(BatchTier tier) {
  return absl::InvalidArgumentError(
      absl::StrCat("varint tier ", std::string(BatchTierName(tier)),
                   tier == BatchTier::kAvx512Emulated
                       ? " is not supported by this build (configured without SIMDe)"
                       : " is not supported by this CPU"));
}

}  // namespace varint_internal
}  // namespace serdiff::varint
