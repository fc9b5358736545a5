// serdiff harness: the run configuration. Everything beside the input that decides a verdict
// is here, passed explicitly from each entry point down to the judge: no global or
// thread-local state takes part in a verdict.
//
// Where it comes from:
//   * `serdiff` (tools/): its flags (--subject, --worker, --module) over the environment below;
//   * the fuzz binaries (fuzz/fuzz_main.cc): RunConfigFromEnvironment(false) with
//     rerun_one_in = FuzzRerunOneInFromEnvironment(), read once in LLVMFuzzerInitialize;
//   * ctest's binaries and the example project: RunConfigFromEnvironment(false) when they build
//     their registry (targets/families.h, AllTargets), or a RunConfig written in the test.
#pragma once

#include <cstdint>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

namespace serdiff::harness {

// The worker manifests and modules a process attaches (AttachExternal, harness/registry.h).
struct ExternalConfig {
  bool default_workers = false;           // every oracles/*/worker*.json whose default is true
  std::vector<std::string> worker_files;  // SERDIFF_WORKERS and --worker
  std::vector<std::string> module_files;  // SERDIFF_MODULES and --module
  // Set in every attached worker's environment after its manifest's "env" (NAME, value):
  // `serdiff review --before-env/--after-env`.
  std::vector<std::pair<std::string, std::string>> worker_env = {};
};

struct RunConfig {
  // The run's subject (docs/workers.md): the implementation placed first in every verdict,
  // whose peak is bounded. Empty: the optimized implementation. A subject that a target lacks
  // leaves that target's optimized implementation first.
  std::string subject;
  // How often the determinism check (rule 1, harness/verdict.h) runs the implementations other
  // than the subject a second time, for inputs judged from bytes: on the inputs whose RerunHash
  // is divisible by `rerun_one_in`. 1 (0 is taken as 1) is every input: properties, corpus
  // replay, `serdiff check` and `serdiff repro` keep it. Fuzz binaries use kFuzzRerunOneIn,
  // because under ASan each extra run costs as much as the run itself (docs/fuzzing.md,
  // "Throughput"). The choice is a function of the input's bytes alone, so a crash input
  // replays with the same runs.
  uint32_t rerun_one_in = 1;
  // Whether a worker that is not the subject measures its peak heap (docs/workers.md, "peak" in
  // the request). Only the subject's peak takes part in a verdict; a peer's is shown in reports
  // (`serdiff check`, `serdiff repro`). Fuzz binaries set it false: a worker then skips its
  // measurement (the Python library's rehearsal run and tracemalloc, the Node library's
  // collections), and a peer's peak in a fuzz binary's own crash report reads "unknown" (its
  // printed `serdiff repro` command measures it). A worker's second run (rule 1's rerun) never
  // measures: only the first run's peak is kept.
  bool peer_peaks = true;
  // The outside implementations the registry attaches when it is built.
  ExternalConfig external;
};

inline constexpr uint32_t kFuzzRerunOneIn = 8;

// FNV-1a (64-bit) of the bytes: the same on every machine and run (no per-process seed).
uint64_t RerunHash(std::string_view data);
// True when the input with these bytes reruns every implementation under `config`.
bool RerunsAll(std::string_view data, const RunConfig& config);

// True on this thread while the harness runs an implementation a second time on an input (rule
// 1's rerun, harness/run_impls.h); false during every other run, RunOne's and TimeCalls'
// included. Only the self-test targets' planted bugs read it (targets/selftest: a reference
// that differs on its rerun alone); a real implementation must not behave by it.
bool InSecondRun();
// Marks the second run of an implementation for InSecondRun, from construction to destruction.
class SecondRunScope {
 public:
  SecondRunScope();
  ~SecondRunScope();
  SecondRunScope(const SecondRunScope&) = delete;
  SecondRunScope& operator=(const SecondRunScope&) = delete;

 private:
  bool outer_;
};

// A list of files as SERDIFF_WORKERS and SERDIFF_MODULES hold it: separated by ':', where a
// backslash before ':' makes it part of a file name and two backslashes are one (any other
// backslash is itself); empty items are skipped. The list /a.json:/b\:c.json (as the shell sees
// it in single quotes) names /a.json and /b:c.json.
std::vector<std::string> SplitFileList(std::string_view list);
// The inverse: the files joined by ':', each ':' and backslash in a name escaped as above.
std::string JoinFileList(const std::vector<std::string>& files);

// The environment's configuration: SERDIFF_WORKERS, SERDIFF_MODULES (SplitFileList),
// SERDIFF_DEFAULT_WORKERS (1/0; when unset, `default_workers` is the caller's choice).
ExternalConfig ExternalConfigFromEnvironment(bool default_workers);
// ExternalConfigFromEnvironment plus the subject from SERDIFF_SUBJECT; rerun_one_in 1.
RunConfig RunConfigFromEnvironment(bool default_workers);
// SERDIFF_RERUN_ONE_IN (a positive integer) if set, else kFuzzRerunOneIn; an unreadable value is
// reported on stderr and the default used. For the fuzz binaries' LLVMFuzzerInitialize.
uint32_t FuzzRerunOneInFromEnvironment();

}  // namespace serdiff::harness
