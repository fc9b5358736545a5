// The registry of a fuzz binary's process (fuzz/fuzz_main.cc defines it): built once, by
// LLVMFuzzerInitialize under libFuzzer (with the fuzz re-run sample) or at the first input of the
// replay binary, for the run configuration of the environment (harness/run_config.h). The custom
// mutator reads its target's length fields from it, so a process builds one registry, not two.
#ifndef SERDIFF_FUZZ_FUZZ_REGISTRY_H_
#define SERDIFF_FUZZ_FUZZ_REGISTRY_H_

#include "harness/registry.h"

const serdiff::harness::Registry& SerdiffFuzzRegistry();

#endif  // SERDIFF_FUZZ_FUZZ_REGISTRY_H_
