// Every target's heap bound, as a number: on 50 generated inputs of each target (fixed seeds and
// sizes), the bound the optimized implementation's peak is held to (Target::SubjectHeapBound,
// for the answer it gave), summed and maximized per target, against tests/data/heap_bounds.tsv. A
// bound made looser (Linear(4,
// ...) for Linear(1, ...), a constant doubled) without its text changing passes every property
// and fuzz run; it fails here. After a deliberate change of a bound or of a generator, write the
// file again with SERDIFF_WRITE_HEAP_BOUNDS=1 and read the diff:
//   SERDIFF_WRITE_HEAP_BOUNDS=1 build/dev/tests/serdiff_unit_tests --gtest_filter='HeapBounds.*'
#include <cstdint>
#include <cstdlib>
#include <fstream>
#include <sstream>
#include <string>

#include <gtest/gtest.h>

#include "absl/strings/str_cat.h"
#include "harness/target.h"
#include "targets/families.h"

namespace serdiff::harness {
namespace {

const std::string kTable = std::string(SERDIFF_CORPUS_DIR) + "/../tests/data/heap_bounds.tsv";

// One line per target with a heap bound: name, the bound's text, the inputs, the sum and the
// largest of their bounds in bytes.
std::string BoundsTable(bool* complete) {
  std::string out = "# target\tbound\tinputs\tsum_bytes\tmax_bytes\n";
  *complete = true;
  for (const auto& t : targets::AllTargets().targets()) {
    if (t->family() == "selftest" || t->heap_bound_text().empty()) continue;
    const std::string& optimized = t->info().impls[0].name;
    int64_t files = 0, sum = 0, max = 0;
    for (uint64_t seed = 1; seed <= 50; ++seed) {
      const std::string b = t->GeneratedBytes(seed, static_cast<int>(seed * 2));
      const int64_t bound = t->SubjectHeapBound(b, optimized, t->RunOne(b, optimized).output);
      ++files;
      sum += bound;
      max = std::max(max, bound);
    }
    absl::StrAppend(&out, t->name(), "\t", t->heap_bound_text(), "\t", files, "\t", sum, "\t", max,
                    "\n");
  }
  *complete = targets::AllTargets().targets().size() > 40;  // every family built
  return out;
}

TEST(HeapBounds, EveryTargetsBoundOnGeneratedInputsIsAsRecorded) {
  bool complete = false;
  const std::string got = BoundsTable(&complete);
  if (!complete) GTEST_SKIP() << "a build of some families only";
  if (const char* w = std::getenv("SERDIFF_WRITE_HEAP_BOUNDS"); w != nullptr && *w == '1') {
    std::ofstream(kTable) << got;
    GTEST_SKIP() << "wrote " << kTable;
  }
  std::ifstream f(kTable);
  std::stringstream want;
  want << f.rdbuf();
  EXPECT_EQ(got, want.str()) << "a target's heap bound or its generator changed; if on purpose, "
                                "write the table again (this file's comment)";
}

}  // namespace
}  // namespace serdiff::harness
