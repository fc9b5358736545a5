// The self-test fuzzer: libFuzzer over one self-test target (targets/selftest/), named by the
// environment variable SERDIFF_SELFTEST_TARGET (libFuzzer owns the command line;
// SERDIFF_SELFTEST_TARGET=list prints the names and exits 0). Each self-test target has a planted
// bug (targets/selftest/planted.h), so under a correct harness the fuzzer finds a failing input
// within its first few inputs. Its verdict is compared with the planted ones, and the binary
// prints one stable line before it aborts (libFuzzer records the crash input):
//   serdiff-selftest: <target>: found its planted verdict <class>
//   serdiff-selftest: <target>: WRONG verdict: got ...; planted ...
// A harness that blinds a rule of the verdict shows as a run that ends with no failure, or with
// the second line. scripts/selftest-fuzz runs every target this way; never shipped to OSS-Fuzz
// (each target fails by design).
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <string>
#include <string_view>

#include "harness/target.h"
#include "targets/families.h"
#include "targets/selftest/planted.h"

namespace {
const serdiff::harness::Target* g_target = nullptr;
// As the shipped fuzz binaries judge (fuzz/fuzz_main.cc): the re-run sample; written once by
// LLVMFuzzerInitialize, passed to every verdict.
serdiff::harness::RunConfig g_config;
const serdiff::targets::PlantedBug* g_bug = nullptr;
}  // namespace

extern "C" int LLVMFuzzerInitialize(int*, char***) {
  g_config.rerun_one_in = serdiff::harness::FuzzRerunOneInFromEnvironment();
  const char* name = std::getenv("SERDIFF_SELFTEST_TARGET");
  const auto& bugs = serdiff::targets::PlantedBugs();
  if (name != nullptr && std::string_view(name) == "list") {
    for (const auto& b : bugs) std::printf("%s\n", b.target.c_str());
    std::exit(0);
  }
  if (name != nullptr) {
    g_target = serdiff::targets::SelfTestTargets().Find(name);
    g_bug = serdiff::targets::FindPlantedBug(name);
  }
  if (g_target == nullptr || g_bug == nullptr) {
    std::fprintf(stderr,
                 "serdiff-selftest: set SERDIFF_SELFTEST_TARGET to a self-test target (%s); "
                 "SERDIFF_SELFTEST_TARGET=list prints them\n",
                 name == nullptr ? "it is unset" : "no such target");
    std::exit(2);
  }
  return 0;
}

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  const serdiff::harness::CaseResult r =
      g_target->RunBytes(std::string_view(reinterpret_cast<const char*>(data), size), g_config);
  if (r.passed) return 0;
  std::fputs(r.report.c_str(), stderr);
  const std::string mismatch = serdiff::targets::PlantedMismatch(*g_bug, r);
  if (mismatch.empty()) {
    std::fprintf(stderr, "serdiff-selftest: %s: found its planted verdict %s\n",
                 g_target->name().c_str(), r.failure_class.c_str());
  } else {
    std::fprintf(stderr, "serdiff-selftest: %s: WRONG verdict: %s\n", g_target->name().c_str(),
                 mismatch.c_str());
  }
  std::fflush(stderr);
  std::abort();
}
