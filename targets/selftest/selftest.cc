// Test-only targets whose optimized side (or a reference beside it) is deliberately wrong, so
// that tests can show what a mismatch report looks like (`serdiff repro --selftest ...`) and so
// that the harness itself can be checked: each target's planted bug has the verdicts a correct
// harness gives (targets/selftest/planted.h), and a harness that blinds a rule stops giving
// them. Never registered in AllTargets(): `serdiff check`, the property suite and the production
// fuzz binaries do not see them; the self-test fuzzer (fuzz/selftest_fuzz.cc) does.
//
// Every target's input is one int64 (8 bytes little-endian out). Most bugs fire on odd values
// only, which the fuzzer reaches within its first few inputs, and every failing input of a target
// fails in one of its planted ways (class, implementation, offset: one way for each target but
// selftest_two_bugs and selftest_two_impls, which have two), so that any other verdict is the
// harness's fault.
#include <cstdint>
#include <new>
#include <string>

#include "absl/strings/str_cat.h"
#include "harness/domains.h"
#include "harness/run_config.h"
#include "serdiff/common/error_offset.h"
#include "targets/families.h"
#include "targets/selftest/planted.h"

namespace serdiff::targets {
namespace {

using harness::Output;
using harness::Role;

std::string Le64(uint64_t v) {
  std::string out;
  harness::AppendLe64(&out, v);
  return out;
}
std::string Le64(int64_t v) { return Le64(static_cast<uint64_t>(v)); }
bool Odd(int64_t v) { return (v & 1) != 0; }

// Allocates `bytes` on the heap and frees them: a call of the replaceable ::operator new, which,
// unlike a new-expression, the compiler may not elide.
void TouchHeap(size_t bytes) {
  void* p = ::operator new(bytes);
  static_cast<volatile char*>(p)[0] = 1;
  ::operator delete(p);
}

// The calls of an implementation on this thread, so that its second run on an input (the
// harness runs each implementation twice in a row, rule 1) can differ from its first.
bool SecondCall(uint64_t& calls) { return (++calls % 2) == 0; }

harness::TargetDef<int64_t> Int64Target(std::string name, std::string description) {
  harness::TargetDef<int64_t> def;
  def.name = std::move(name);
  def.description = std::move(description);
  def.domain = harness::IntegerDomain<int64_t>("int64", rc::gen::arbitrary<int64_t>());
  return def;
}

harness::Impl<int64_t> Correct(std::string name, Role role) {
  return {std::move(name), role, "targets/selftest",
          [](const int64_t& v) -> Output { return Le64(v); }};
}

harness::Impl<int64_t> RejectsOdd(std::string name, Role role) {
  return {std::move(name), role, "targets/selftest", [](const int64_t& v) -> Output {
            if (Odd(v)) return InvalidAt(0, "odd value");
            return Le64(v);
          }};
}

std::vector<PlantedBug>& MutablePlantedBugs() {
  static auto* bugs = new std::vector<PlantedBug>;
  return *bugs;
}

const PlantedBug* FindPlantedBugIn(const std::vector<PlantedBug>& bugs, std::string_view target) {
  for (const PlantedBug& b : bugs) {
    if (b.target == target) return &b;
  }
  return nullptr;
}

// Registers `def` with its planted verdicts.
void AddPlanted(harness::Registry& registry, harness::TargetDef<int64_t> def,
                std::vector<PlantedVerdict> verdicts, std::string watches) {
  // A second registry of the family (harness::BuildRegistry(true) again) adds no second entry.
  if (FindPlantedBugIn(MutablePlantedBugs(), def.name) == nullptr) {
    MutablePlantedBugs().push_back({def.name, std::move(verdicts), std::move(watches)});
  }
  registry.Add(std::move(def));
}

PlantedVerdict Bytes(std::string impl, int64_t offset) {
  return {"bytes-mismatch:" + impl, impl, offset, std::nullopt};
}
PlantedVerdict Class(std::string kind, std::string impl) {
  return {kind + ":" + impl, impl, std::nullopt, std::nullopt};
}

}  // namespace

void RegisterSelfTestTargets(harness::Registry& registry) {
  {
    auto def = Int64Target(
        "selftest_broken_zigzag",
        "ZigZag64 with a logical instead of an arithmetic shift (deliberately wrong) vs the "
        "textbook formula; output: 8 bytes little-endian");
    def.optimized = {"optimized", Role::kOptimized, "targets/selftest (a planted bug)",
                     [](const int64_t& v) -> Output {
                       const uint64_t u = static_cast<uint64_t>(v);
                       return Le64((u << 1) ^ (u >> 63));  // the bug: >> on the unsigned value
                     }};
    def.others.push_back(
        {"reference", Role::kReference, "targets/selftest", [](const int64_t& v) -> Output {
           const uint64_t sign = v < 0 ? ~uint64_t{0} : 0;
           return Le64((static_cast<uint64_t>(v) << 1) ^ sign);
         }});
    // Negative values only; the low byte always differs (^1 against ^0xff).
    AddPlanted(registry, std::move(def), {Bytes("reference", 0)},
               "rule 2: the bytes of two accepting sides are compared");
  }

  // Two planted bugs and an implementation with a limited reach, for the shrinker's tests
  // (tests/shrink_test.cc): a shrinker that accepted any failure, or any set of compared
  // implementations, would end somewhere else.
  {
    auto def = Int64Target(
        "selftest_two_bugs",
        "int64 as 8 bytes little-endian; the optimized side rejects -1000..-1 and writes the "
        "wrong bytes below -1000 (deliberately wrong); \"picky\" declines -1999..-1");
    def.optimized = {"optimized", Role::kOptimized, "targets/selftest (two planted bugs)",
                     [](const int64_t& v) -> Output {
                       if (v >= 0) return Le64(v);
                       if (v >= -1000) return absl::InvalidArgumentError("planted rejection");
                       return Le64(static_cast<uint64_t>(v) ^ 1);
                     }};
    def.others.push_back(Correct("reference", Role::kReference));
    def.others.push_back({"picky", Role::kOracle, "targets/selftest (reach -inf..-2000, 0..)",
                          [](const int64_t& v) -> Output {
                            if (v < 0 && v > -2000) return harness::Declined("outside my reach");
                            return Le64(v);
                          }});
    AddPlanted(registry, std::move(def),
               {Class("error-class-mismatch", "reference"), Bytes("reference", 0)},
               "rules 2 and 3, and the shrinker's keeping of the class and the compared set");
  }

  // One bug, seen by two implementations in turn, for the shrinker (tests/shrink_test.cc): the
  // optimized side writes the wrong bytes for every negative value; "first" shares the bug on
  // -1000..-1 and "second" below -1000, so the class is bytes-mismatch:second on -1000..-1 and
  // bytes-mismatch:first below. A shrinker that kept the kind of the class but not the
  // implementation it names would go from -1500 to -1.
  {
    auto def = Int64Target(
        "selftest_two_impls",
        "int64 as 8 bytes little-endian; the optimized side flips the low bit of every negative "
        "value (deliberately wrong); \"first\" flips it too on -1000..-1, \"second\" below -1000");
    auto flipped = [](int64_t v) { return Le64(static_cast<uint64_t>(v) ^ 1); };
    def.optimized = {
        "optimized", Role::kOptimized, "targets/selftest (a planted bug)",
        [flipped](const int64_t& v) -> Output { return v < 0 ? flipped(v) : Le64(v); }};
    def.others.push_back({"first", Role::kReference, "targets/selftest (the bug on -1000..-1)",
                          [flipped](const int64_t& v) -> Output {
                            return v < 0 && v >= -1000 ? flipped(v) : Le64(v);
                          }});
    def.others.push_back(
        {"second", Role::kReference, "targets/selftest (the bug below -1000)",
         [flipped](const int64_t& v) -> Output { return v < -1000 ? flipped(v) : Le64(v); }});
    AddPlanted(registry, std::move(def), {Bytes("second", 0), Bytes("first", 0)},
               "the shrinker's keeping of the implementation a class names");
  }

  // The planted bugs below each watch one rule of the verdict (harness/target.h), and the
  // mutant of mutants/harness/ that blinds it names the target in its header.
  {
    auto def = Int64Target("selftest_reference_rejects",
                           "the reference rejects odd values at offset 0; the optimized side "
                           "accepts them (deliberately wrong)");
    def.optimized = Correct("optimized", Role::kOptimized);
    def.others.push_back(RejectsOdd("reference", Role::kReference));
    AddPlanted(registry, std::move(def), {Class("error-class-mismatch", "reference")},
               "rule 3: a reference's rejection is no decline");
  }
  {
    auto def = Int64Target(
        "selftest_reference_unimplemented",
        "the reference returns a plain Unimplemented error (no decline payload) on odd values; "
        "the optimized side accepts them (deliberately wrong)");
    def.optimized = Correct("optimized", Role::kOptimized);
    def.others.push_back(
        {"reference", Role::kReference, "targets/selftest", [](const int64_t& v) -> Output {
           if (Odd(v)) return absl::UnimplementedError("odd values");
           return Le64(v);
         }});
    AddPlanted(registry, std::move(def), {Class("error-class-mismatch", "reference")},
               "rule 1: only the decline payload makes an error a decline, not its code");
  }
  {
    auto def = Int64Target(
        "selftest_divergence_elsewhere",
        "the optimized side flips bit 8 of odd values (deliberately wrong); an accepted "
        "divergence covers the oracle \"lenient\" on them, not the reference");
    def.optimized = {"optimized", Role::kOptimized, "targets/selftest (a planted bug)",
                     [](const int64_t& v) -> Output {
                       return Le64(Odd(v) ? static_cast<uint64_t>(v) ^ 0x100 : uint64_t(v));
                     }};
    def.others.push_back(Correct("lenient", Role::kOracle));
    def.others.push_back(Correct("reference", Role::kReference));
    def.divergences.push_back(
        {"lenient", "a planted divergence: bit 8 of odd values",
         [](const int64_t& v, const Output&, const Output&) { return Odd(v); }});
    AddPlanted(registry, std::move(def), {Bytes("reference", 1)},
               "divergences: an accepted divergence covers the implementation it names only");
  }
  {
    auto def = Int64Target(
        "selftest_two_references_differ",
        "on odd values the optimized side flips bit 40 (byte 5) and the oracle \"second\" flips "
        "bits 40 and 16, so the reference differs from the optimized side at byte 5 and "
        "\"second\" at byte 2 (deliberately wrong)");
    def.optimized = {"optimized", Role::kOptimized, "targets/selftest (a planted bug)",
                     [](const int64_t& v) -> Output {
                       return Le64(Odd(v) ? uint64_t(v) ^ (uint64_t{1} << 40) : uint64_t(v));
                     }};
    def.others.push_back(Correct("reference", Role::kReference));
    def.others.push_back({"second", Role::kOracle, "targets/selftest (a planted bug)",
                          [](const int64_t& v) -> Output {
                            return Le64(Odd(v) ? uint64_t(v) ^ (uint64_t{1} << 40) ^
                                                     (uint64_t{1} << 16)
                                               : uint64_t(v));
                          }});
    AddPlanted(registry, std::move(def), {Bytes("reference", 5)},
               "the verdict's implementation and offset both come from the first failure");
  }
  {
    auto def = Int64Target("selftest_nondeterministic",
                           "the optimized side's second run on an odd value flips its bit 0 "
                           "(deliberately wrong)");
    def.optimized = {"optimized", Role::kOptimized, "targets/selftest (a planted bug)",
                     [](const int64_t& v) -> Output {
                       thread_local uint64_t calls = 0;
                       const bool second = SecondCall(calls);
                       return Le64(Odd(v) && second ? uint64_t(v) ^ 1 : uint64_t(v));
                     }};
    def.others.push_back(Correct("reference", Role::kReference));
    AddPlanted(registry, std::move(def), {Class("nondeterministic", "optimized")},
               "rule 1: each implementation's second run is compared with its first");
  }
  {
    auto def = Int64Target(
        "selftest_nondeterministic_offset",
        "both sides reject odd values with the same code and message; the optimized side's "
        "second run puts the error offset at 1 instead of 0 (deliberately wrong)");
    def.optimized = {"optimized", Role::kOptimized, "targets/selftest (a planted bug)",
                     [](const int64_t& v) -> Output {
                       thread_local uint64_t calls = 0;
                       const bool second = SecondCall(calls);
                       if (!Odd(v)) return Le64(v);
                       return WithErrorOffset(absl::InvalidArgumentError("odd value"),
                                              second ? 1 : 0);
                     }};
    def.others.push_back(
        {"reference", Role::kReference, "targets/selftest", [](const int64_t& v) -> Output {
           if (!Odd(v)) return Le64(v);
           return WithErrorOffset(absl::InvalidArgumentError("odd value"), 0);
         }});
    AddPlanted(registry, std::move(def), {Class("nondeterministic", "optimized")},
               "rule 1: a second run is compared with its payloads (the error offset)");
  }
  {
    // The fuzz binaries rerun the implementations other than the optimized one on a sample of
    // the inputs only (RunConfig::rerun_one_in): this bug is seen only on inputs the sample
    // picks, so a sample that picks none passes it. The reference cannot count its calls, as
    // the optimized planted bugs do (outside the sample it runs once, and `serdiff review` runs
    // it alone): it asks the harness whether this run is a rerun (harness::InSecondRun).
    auto def = Int64Target("selftest_nondeterministic_reference",
                           "the reference's second run on an odd value flips its bit 0 "
                           "(deliberately wrong); the optimized side is right");
    def.optimized = Correct("optimized", Role::kOptimized);
    def.others.push_back({"reference", Role::kReference, "targets/selftest (a planted bug)",
                          [](const int64_t& v) -> Output {
                            const bool rerun = harness::InSecondRun();
                            return Le64(Odd(v) && rerun ? uint64_t(v) ^ 1 : uint64_t(v));
                          }});
    AddPlanted(registry, std::move(def), {Class("nondeterministic", "reference")},
               "rule 1: the implementations other than the optimized one are rerun too (in a "
               "fuzz binary, on the inputs its rerun sample picks)");
  }
  {
    auto def = Int64Target("selftest_offset_missing",
                           "offsets required; the optimized side rejects odd values without an "
                           "error offset, the reference at offset 0 (deliberately wrong)");
    def.offsets = harness::OffsetPolicy::kRequired;
    def.optimized = {"optimized", Role::kOptimized, "targets/selftest (a planted bug)",
                     [](const int64_t& v) -> Output {
                       if (Odd(v)) return absl::InvalidArgumentError("odd value");
                       return Le64(v);
                     }};
    def.others.push_back(RejectsOdd("reference", Role::kReference));
    AddPlanted(registry, std::move(def), {Class("error-offset-missing", "optimized")},
               "rule 4: under OffsetPolicy::kRequired a rejection must carry its offset");
  }
  {
    auto def = Int64Target("selftest_offset_differs",
                           "the optimized side rejects odd values at offset 1, the reference at "
                           "offset 0 (deliberately wrong)");
    def.optimized = {"optimized", Role::kOptimized, "targets/selftest (a planted bug)",
                     [](const int64_t& v) -> Output {
                       if (Odd(v)) return InvalidAt(1, "odd value");
                       return Le64(v);
                     }};
    def.others.push_back(RejectsOdd("reference", Role::kReference));
    AddPlanted(registry, std::move(def), {Class("error-offset-mismatch", "reference")},
               "rule 4: the error offsets of two rejecting sides are compared");
  }
  {
    auto def = Int64Target("selftest_heap_on_reject",
                           "the optimized side allocates 1 MiB before rejecting an odd value; "
                           "the bound is 64 KiB (deliberately wrong)");
    def.optimized = {"optimized", Role::kOptimized, "targets/selftest (a planted bug)",
                     [](const int64_t& v) -> Output {
                       if (!Odd(v)) return Le64(v);
                       TouchHeap(size_t{1} << 20);
                       return InvalidAt(0, "odd value");
                     }};
    def.others.push_back(RejectsOdd("reference", Role::kReference));
    def.heap_bound = harness::HeapBound<int64_t>::Fixed(64 * 1024);
    AddPlanted(registry, std::move(def), {Class("heap-bound", "optimized")},
               "rule 6: the heap bound applies when the optimized side rejects too");
  }
  {
    auto def = Int64Target(
        "selftest_reference_peak_by_role",
        "the optimized side and the oracle \"heavy\" (listed first, 4 KiB of heap) flip bit 0 of "
        "odd values (deliberately wrong); the reference allocates nothing");
    def.optimized = {
        "optimized", Role::kOptimized, "targets/selftest (a planted bug)",
        [](const int64_t& v) -> Output { return Le64(Odd(v) ? uint64_t(v) ^ 1 : uint64_t(v)); }};
    def.others.push_back({"heavy", Role::kOracle, "targets/selftest (a planted bug)",
                          [](const int64_t& v) -> Output {
                            TouchHeap(4096);
                            return Le64(Odd(v) ? uint64_t(v) ^ 1 : uint64_t(v));
                          }});
    def.others.push_back(Correct("reference", Role::kReference));
    PlantedVerdict v = Bytes("reference", 0);
    v.reference_peak_bytes = 0;
    AddPlanted(registry, std::move(def), {v},
               "roles: the reference peak is the kReference implementation's, found by role");
  }
}

const std::vector<PlantedBug>& PlantedBugs() {
  (void)SelfTestTargets();  // the registry's construction fills the list
  return MutablePlantedBugs();
}

const PlantedBug* FindPlantedBug(std::string_view target) {
  return FindPlantedBugIn(PlantedBugs(), target);
}

namespace {
std::string Describe(const std::string& cls, const std::string& impl,
                     const std::optional<int64_t>& first_difference,
                     const std::optional<int64_t>& reference_peak) {
  std::string s = absl::StrCat(cls, ", impl ", impl, ", first difference ",
                               first_difference ? absl::StrCat(*first_difference) : "none");
  if (reference_peak) absl::StrAppend(&s, ", reference peak ", *reference_peak);
  return s;
}
}  // namespace

std::string PlantedMismatch(const PlantedBug& bug, const harness::CaseResult& r) {
  for (const PlantedVerdict& v : bug.verdicts) {
    if (r.failure_class == v.failure_class && r.failing_impl == v.failing_impl &&
        r.first_difference == v.first_difference &&
        (!v.reference_peak_bytes || r.reference_peak_bytes == *v.reference_peak_bytes)) {
      return "";
    }
  }
  std::string planted;
  for (const PlantedVerdict& v : bug.verdicts) {
    absl::StrAppend(
        &planted, planted.empty() ? "" : " or ",
        Describe(v.failure_class, v.failing_impl, v.first_difference, v.reference_peak_bytes));
  }
  const PlantedVerdict& any = bug.verdicts.front();
  return absl::StrCat(
      "got ",
      Describe(
          r.failure_class, r.failing_impl, r.first_difference,
          any.reference_peak_bytes ? std::optional<int64_t>(r.reference_peak_bytes) : std::nullopt),
      "; planted ", planted);
}

SERDIFF_REGISTER_FAMILY("selftest", RegisterSelfTestTargets);

}  // namespace serdiff::targets
