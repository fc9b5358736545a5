// `serdiff review` (tools/review.cc, docs/review.md): one serializer before a change and after
// it, judged against each other on every input that matters (bytes, outcome class, error
// offsets, peak heap, and with --time-rounds the speed of the call), each side also judged
// against serdiff's own implementations as `serdiff check` would.
#pragma once

#include <cstdint>
#include <string>
#include <utility>
#include <vector>

#include "harness/review.h"

namespace serdiff::tools {

struct ReviewOptions {
  // Each side: a worker manifest (*.json), a module (*.so), or an implementation's name (a
  // shipped worker, found under oracles/, or a compiled one: optimized, reference, ...).
  std::string before, after;
  // NAME=value set in that side's worker environment (a worker side only).
  std::vector<std::string> before_env, after_env;
  std::string filter;      // only targets whose name contains this
  std::string target;      // --target: with --input, the one target
  std::string input;       // --input: judge this one file only, in full
  int cases = 200;         // generated inputs per target, after the corpus
  uint64_t seed = 1;       // seed of the first generated input (the same for both sides)
  std::string corpus_dir;  // corpus/<target>/ (regressions/ included)
  harness::HeapTolerance heap;
  int time_rounds = 0;         // speed: interleaved rounds per target (0: not measured)
  int time_calls = 20;         // timings per round and side
  int warmup_ms = 50;          // per timed input, each side's warm-up calls last this long
  int sample_us = 20;          // each timing holds enough calls to last this long (0: one call)
  int forks = 3;               // fresh processes of each worker side per timed input
  double max_slowdown = -1;    // percent; < 0: a slowdown never fails the review
  int64_t shrink_runs = 2000;  // candidates judged per shrink
  std::string markdown_path;   // "" none
  std::string json_path;       // "" none, "-" stdout
  std::string plots_dir;       // "" none: <dir>/<target>.png (and .dat, .gp) per laddered target
  std::string out_dir = "serdiff-review";  // shrunk inputs: <out>/<target>/<sha1>
  bool selftest = false;                   // also the self-test targets (tests)
};

// 0: no regression; 1: a difference, a heap regression or (with max_slowdown) a slowdown;
// 2: a usage or environment error (a side no target has, an unreadable file).
int Review(const ReviewOptions& options);

}  // namespace serdiff::tools
