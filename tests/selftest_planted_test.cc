// The self-test targets' planted bugs (targets/selftest/planted.h) give exactly their planted
// verdicts: on -1 (odd and negative, where every planted bug fires) the first one listed, on 2
// (where none fires) a pass, and on generated inputs nothing else. The same comparison runs under
// libFuzzer in fuzz/selftest_fuzz.cc (scripts/selftest-fuzz); here it runs in every build.
#include "targets/selftest/planted.h"

#include <string>
#include <vector>

#include <gtest/gtest.h>

#include "harness/fuzz_input.h"
#include "targets/families.h"

namespace serdiff::targets {
namespace {

std::string Int64Input(int64_t v) {
  harness::FuzzInputWriter w;
  w.WriteIntegral<int64_t>(v);
  return w.Finish();
}

TEST(SelfTestPlanted, EveryTargetHasItsVerdicts) {
  std::vector<std::string> registered;
  for (const auto& t : SelfTestTargets().targets()) registered.push_back(t->name());
  std::vector<std::string> planted;
  for (const PlantedBug& b : PlantedBugs()) {
    planted.push_back(b.target);
    EXPECT_FALSE(b.verdicts.empty()) << b.target;
    EXPECT_FALSE(b.watches.empty()) << b.target;
  }
  EXPECT_EQ(planted, registered);
  EXPECT_EQ(FindPlantedBug("varint_zigzag64"), nullptr);
  ASSERT_NE(FindPlantedBug("selftest_offset_differs"), nullptr);
  EXPECT_EQ(FindPlantedBug("selftest_offset_differs")->verdicts[0].failure_class,
            "error-offset-mismatch:reference");
}

TEST(SelfTestPlanted, MinusOneGivesThePlantedVerdictAndTwoPasses) {
  for (const PlantedBug& b : PlantedBugs()) {
    const harness::Target* t = SelfTestTargets().Find(b.target);
    ASSERT_NE(t, nullptr) << b.target;
    const harness::CaseResult fails = t->RunBytes(Int64Input(-1), {});
    ASSERT_FALSE(fails.passed) << b.target;
    const PlantedVerdict& want = b.verdicts.front();
    EXPECT_EQ(fails.failure_class, want.failure_class) << b.target;
    EXPECT_EQ(fails.failing_impl, want.failing_impl) << b.target;
    EXPECT_EQ(fails.first_difference, want.first_difference) << b.target;
    if (want.reference_peak_bytes) {
      EXPECT_EQ(fails.reference_peak_bytes, *want.reference_peak_bytes) << b.target;
    }
    EXPECT_EQ(PlantedMismatch(b, fails), "") << b.target;
    const harness::CaseResult passes = t->RunBytes(Int64Input(2), {});
    EXPECT_TRUE(passes.passed) << b.target << ": " << passes.failure_class;
  }
}

// selftest_two_bugs' second verdict (below -1000), and the exact values the planted bugs of
// the kind-4 and role targets pin.
TEST(SelfTestPlanted, ExactFieldsOfTheMultiFieldVerdicts) {
  const harness::CaseResult two =
      SelfTestTargets().Find("selftest_two_bugs")->RunBytes(Int64Input(-5001), {});
  EXPECT_EQ(two.failure_class, "bytes-mismatch:reference");
  EXPECT_EQ(two.first_difference, 0);
  const harness::CaseResult differ =
      SelfTestTargets().Find("selftest_two_references_differ")->RunBytes(Int64Input(7), {});
  EXPECT_EQ(differ.failure_class, "bytes-mismatch:reference");
  EXPECT_EQ(differ.failing_impl, "reference");
  EXPECT_EQ(differ.first_difference, 5);
  const harness::CaseResult peak =
      SelfTestTargets().Find("selftest_reference_peak_by_role")->RunBytes(Int64Input(7), {});
  EXPECT_EQ(peak.failure_class, "bytes-mismatch:reference");
  EXPECT_EQ(peak.reference_peak_bytes, 0);
  const harness::CaseResult heap =
      SelfTestTargets().Find("selftest_heap_on_reject")->RunBytes(Int64Input(7), {});
  EXPECT_EQ(heap.failure_class, "heap-bound:optimized");
  EXPECT_TRUE(heap.optimized_rejected);
  EXPECT_GE(heap.optimized_peak_bytes, int64_t{1} << 20);
  EXPECT_EQ(heap.heap_bound_bytes, 64 * 1024);
}

TEST(SelfTestPlanted, GeneratedInputsFailOnlyAsPlanted) {
  for (const PlantedBug& b : PlantedBugs()) {
    const harness::Target* t = SelfTestTargets().Find(b.target);
    ASSERT_NE(t, nullptr) << b.target;
    int failures = 0;
    for (uint64_t seed = 1; seed <= 200; ++seed) {
      const harness::CaseResult r = t->RunGenerated(seed, 50, {});
      if (r.passed) continue;
      ++failures;
      EXPECT_EQ(PlantedMismatch(b, r), "") << b.target << " seed " << seed;
    }
    EXPECT_GT(failures, 0) << b.target;
  }
}

TEST(SelfTestPlanted, MismatchSaysWhatItGotAndWhatWasPlanted) {
  const PlantedBug* b = FindPlantedBug("selftest_two_bugs");
  ASSERT_NE(b, nullptr);
  harness::CaseResult r;
  r.passed = false;
  r.failure_class = "bytes-mismatch:picky";
  r.failing_impl = "picky";
  r.first_difference = 3;
  EXPECT_EQ(PlantedMismatch(*b, r),
            "got bytes-mismatch:picky, impl picky, first difference 3; planted "
            "error-class-mismatch:reference, impl reference, first difference none or "
            "bytes-mismatch:reference, impl reference, first difference 0");
  const PlantedBug* peak = FindPlantedBug("selftest_reference_peak_by_role");
  ASSERT_NE(peak, nullptr);
  r.failure_class = "bytes-mismatch:reference";
  r.failing_impl = "reference";
  r.first_difference = 0;
  r.reference_peak_bytes = 4096;
  EXPECT_EQ(PlantedMismatch(*peak, r),
            "got bytes-mismatch:reference, impl reference, first difference 0, reference peak "
            "4096; planted bytes-mismatch:reference, impl reference, first difference 0, "
            "reference peak 0");
}

}  // namespace
}  // namespace serdiff::targets
