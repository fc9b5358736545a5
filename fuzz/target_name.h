// The name of the target a fuzz binary runs (a row of fuzz/limits.tsv, generated from the registry).
//
// libFuzzer builds link one binary per target; fuzz/CMakeLists.txt generates, per binary, a
// one-line object defining SerdiffFuzzTargetName() to return that binary's name. Builds
// without libFuzzer link one replay binary for every target instead (fuzz/replay_main.cc),
// whose definition returns the name given as its first argument.
//
// Returns a NUL-terminated name that stays valid for the life of the process; never null
// once LLVMFuzzerTestOneInput may be called.
#ifndef SERDIFF_FUZZ_TARGET_NAME_H_
#define SERDIFF_FUZZ_TARGET_NAME_H_

extern "C" const char* SerdiffFuzzTargetName();

// The file the replay binary is replaying now (fuzz/replay_main.cc defines it), so that a
// failure's printed commands name that file; libFuzzer binaries do not define it (a weak
// symbol: its address is null there, and the commands name libFuzzer's crash file instead).
extern "C" const char* SerdiffFuzzInputPath() __attribute__((weak));

#endif  // SERDIFF_FUZZ_TARGET_NAME_H_
