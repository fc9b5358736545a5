// Stand-in main for fuzz targets in builds without libFuzzer (gcc dev build): runs
// LLVMFuzzerTestOneInput on every file named on the command line, or found below a named
// directory, so that every fuzz target builds and replays its corpus everywhere.
#include <cstdint>
#include <cstdio>
#include <string>

#include "harness/corpus.h"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size);

int main(int argc, char** argv) {
  size_t n = 0;
  for (int i = 1; i < argc; ++i) {
    std::string arg = argv[i];
    if (!arg.empty() && arg[0] == '-') continue;  // libFuzzer flags are ignored here
    auto files = serdiff::harness::ListCorpusFiles(arg);
    if (files.empty()) files.push_back(arg);
    for (const auto& f : files) {
      auto bytes = serdiff::harness::ReadFileBytes(f);
      if (!bytes.ok()) {
        std::fprintf(stderr, "%s\n", bytes.status().ToString().c_str());
        return 2;
      }
      LLVMFuzzerTestOneInput(reinterpret_cast<const uint8_t*>(bytes->data()), bytes->size());
      ++n;
    }
  }
  std::printf("replayed %zu inputs without a failure\n", n);
  return 0;
}
