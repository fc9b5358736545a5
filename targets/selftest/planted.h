// The planted bugs of the self-test targets (targets/selftest/selftest.cc) and the verdicts a
// correct harness gives on them. A harness change that blinds or garbles a verdict (the
// mutants in mutants/harness/) shows as a self-test target that no longer fails, or fails
// another way: the in-process test SelfTestPlanted.* and the self-test fuzzer
// (fuzz/selftest_fuzz.cc, scripts/selftest-fuzz; docs/fuzzing.md, "The harness under the
// fuzzer") both compare every failing input's verdict with these.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "harness/target.h"

namespace serdiff::targets {

// One verdict a self-test target may give. Every field is compared with the CaseResult of a
// failing input; an unset optional is not compared.
struct PlantedVerdict {
  std::string failure_class;  // CaseResult::failure_class, "bytes-mismatch:reference"
  std::string failing_impl;   // CaseResult::failing_impl, the implementation the class names
  // CaseResult::first_difference (bytes-mismatch only): the offset of the first differing
  // output byte, bytes. Unset: the verdict must have none.
  std::optional<int64_t> first_difference;
  // CaseResult::reference_peak_bytes, when the target pins it (bytes); unset: not compared.
  std::optional<int64_t> reference_peak_bytes;
};

// A self-test target, the verdicts it may give (any failing input gives one of them, and some
// input gives one), and which harness rule it watches (text for people: docs, reports).
struct PlantedBug {
  std::string target;
  std::vector<PlantedVerdict> verdicts;
  std::string watches;  // "rule 2: bytes of two accepting sides are compared"
};

// Every self-test target's planted bug, in registration order (one entry per target of
// SelfTestTargets(); the test SelfTestPlanted.EveryTargetHasItsVerdicts checks it).
const std::vector<PlantedBug>& PlantedBugs();

// The planted bug of `target`, or nullptr when it is no self-test target.
const PlantedBug* FindPlantedBug(std::string_view target);

// Empty when `r` (a failing input's verdict on bug.target) is one of bug.verdicts; otherwise
// one line saying what the verdict was and what was planted, for example
// "got bytes-mismatch:reference, impl reference, first difference 2; planted ...".
// Precondition: !r.passed.
std::string PlantedMismatch(const PlantedBug& bug, const harness::CaseResult& r);

}  // namespace serdiff::targets
