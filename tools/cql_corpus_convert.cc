// One-off converter of the corpus files of cql_encode_large and cql_typed_encode to the byte
// form in which the input's length bounds the work (the spec's fields, then zero padding:
// targets/cql_domain.h, LargePadBytes and kTypedCountPerByte; docs/fuzzing.md, "Limits").
//
// Each file is read with a copy of the OLD reader (the spec's fields only, no clamping),
// written with the NEW domain encoder, saved as corpus/<target>/[regressions/]<sha1>, and the
// old file is removed. The test <target>.CorpusPrintedValuesUnchanged then shows that every
// file still prints the value recorded in tests/data/corpus-printed/<target>.tsv.
//
//   build/dev/tools/cql_corpus_convert corpus
#include <cstdint>
#include <cstdio>
#include <filesystem>
#include <string>

#include <FuzzedDataProvider.h>

#include "harness/corpus.h"
#include "harness/fuzz_input.h"
#include "targets/cql_domain.h"

namespace {

using serdiff::targets::cql::LargeInput;
using serdiff::targets::cql::LargeSpec;
using serdiff::targets::cql::TypedInput;
using serdiff::targets::cql::TypedSpec;

// The old reader of cql_encode_large: the six fields, nothing else.
LargeSpec OldLargeSpec(FuzzedDataProvider& p) {
  LargeSpec s;
  s.shape = p.ConsumeIntegralInRange<uint8_t>(0, 8);
  s.count = p.ConsumeIntegralInRange<uint32_t>(0, 500'000);
  s.null_pct = p.ConsumeIntegralInRange<uint8_t>(0, 100);
  s.text_len = p.ConsumeIntegralInRange<uint32_t>(0, 200'000);
  s.seed = p.ConsumeIntegral<uint64_t>();
  s.version = p.ConsumeIntegralInRange<uint8_t>(3, 5);
  return s;
}

// The old reader of cql_typed_encode.
TypedSpec OldTypedSpec(FuzzedDataProvider& p) {
  TypedSpec s;
  s.container = p.ConsumeIntegralInRange<uint8_t>(0, 2);
  s.key = p.ConsumeIntegralInRange<uint8_t>(0, 12);
  s.value = p.ConsumeIntegralInRange<uint8_t>(0, 12);
  s.count = p.ConsumeIntegralInRange<uint32_t>(0, 70'000);
  s.null_pct = p.ConsumeIntegralInRange<uint8_t>(0, 100);
  s.bad = p.ConsumeBool();
  s.seed = p.ConsumeIntegralInRange<uint64_t>(0, ~uint64_t{0});
  s.version = p.ConsumeIntegralInRange<uint8_t>(1, 5);
  return s;
}

std::string NewBytes(const std::string& target, const std::string& old) {
  FuzzedDataProvider p(reinterpret_cast<const uint8_t*>(old.data()), old.size());
  serdiff::harness::FuzzInputWriter w;
  if (target == "cql_encode_large") {
    serdiff::targets::cql::LargeDomain().encode(LargeInput{OldLargeSpec(p), {}}, w);
  } else {
    serdiff::targets::cql::TypedDomain().encode(TypedInput{OldTypedSpec(p), nullptr}, w);
  }
  return w.Finish();
}

}  // namespace

int main(int argc, char** argv) {
  if (argc != 2) {
    std::fprintf(stderr, "usage: cql_corpus_convert <corpus dir>\n");
    return 2;
  }
  int converted = 0;
  for (const std::string target : {"cql_encode_large", "cql_typed_encode"}) {
    const std::string dir = std::string(argv[1]) + "/" + target;
    for (const std::string& path : serdiff::harness::ListCorpusFiles(dir)) {
      auto old = serdiff::harness::ReadFileBytes(path);
      if (!old.ok()) {
        std::fprintf(stderr, "%s\n", old.status().ToString().c_str());
        return 1;
      }
      const std::string parent = std::filesystem::path(path).parent_path().string();
      auto written = serdiff::harness::WriteCorpusFile(parent, NewBytes(target, *old));
      if (!written.ok()) {
        std::fprintf(stderr, "%s\n", written.status().ToString().c_str());
        return 1;
      }
      if (*written != path) std::filesystem::remove(path);
      ++converted;
    }
  }
  std::printf("converted %d files\n", converted);
  return 0;
}
