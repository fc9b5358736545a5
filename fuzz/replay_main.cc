// Stand-in for libFuzzer in builds without it (the gcc dev build, the asan preset): one binary,
// serdiff_fuzz_replay, for every target, so that the fuzz entry point (fuzz/fuzz_main.cc) is
// built and replays every target's corpus everywhere without linking one binary per target.
//
//   serdiff_fuzz_replay <target> <file or directory>...
//
// runs LLVMFuzzerTestOneInput on every named file and every file found below a named
// directory (arguments starting with '-', libFuzzer flags, are ignored). A failing input
// prints the differential report and aborts, as under libFuzzer. Exit status: 0 when every
// input passed, 2 on a usage error or an unreadable file.
//
// Compiled with SERDIFF_REPLAY_TARGET="<target>" (serdiff_add_fuzz_target of an installed
// serdiff, cmake/serdiffFuzz.cmake, for a compiler without libFuzzer), the binary is that
// target's alone and takes no target argument: `<binary> <file or directory>...`.
#include <cstdint>
#include <cstdio>
#include <string>

#include "fuzz/target_name.h"
#include "harness/corpus.h"

namespace {
const char* g_target = nullptr;
std::string g_input;  // the file being replayed
}  // namespace

extern "C" const char* SerdiffFuzzTargetName() { return g_target; }
extern "C" const char* SerdiffFuzzInputPath() { return g_input.c_str(); }
extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size);

int main(int argc, char** argv) {
#ifdef SERDIFF_REPLAY_TARGET
  g_target = SERDIFF_REPLAY_TARGET;
  const int first = 1;
#else
  if (argc < 2 || argv[1][0] == '-') {
    std::fprintf(stderr, "usage: %s <target> <file or directory>...\n", argv[0]);
    return 2;
  }
  g_target = argv[1];
  const int first = 2;
#endif
  size_t n = 0;
  for (int i = first; i < argc; ++i) {
    std::string arg = argv[i];
    if (!arg.empty() && arg[0] == '-') continue;  // libFuzzer flags are ignored here
    auto listed = serdiff::harness::ListCorpusFiles(arg);
    if (!listed.ok()) {
      std::fprintf(stderr, "%s\n", listed.status().ToString().c_str());
      return 2;
    }
    std::vector<std::string> files = *std::move(listed);
    if (files.empty()) files.push_back(arg);
    for (const auto& f : files) {
      auto bytes = serdiff::harness::ReadFileBytes(f);
      if (!bytes.ok()) {
        std::fprintf(stderr, "%s\n", bytes.status().ToString().c_str());
        return 2;
      }
      g_input = f;
      LLVMFuzzerTestOneInput(reinterpret_cast<const uint8_t*>(bytes->data()), bytes->size());
      ++n;
    }
  }
  std::printf("%s: replayed %zu inputs without a failure\n", g_target, n);
  return 0;
}
