// Test-only targets whose optimized side is deliberately wrong, so that tests can show
// what a mismatch report looks like (`serdiff repro --selftest ...`). Never registered in
// AllTargets(): fuzzers, `serdiff check` and the property suite do not see them.
#include <cstdint>
#include <string>

#include "absl/strings/str_cat.h"
#include "harness/domains.h"
#include "targets/families.h"

namespace serdiff::targets {
namespace {

std::string Le64(uint64_t v) {
  std::string out;
  harness::AppendLe64(&out, v);
  return out;
}

}  // namespace

void RegisterSelfTestTargets(harness::Registry& registry) {
  harness::TargetDef<int64_t> def;
  def.name = "selftest_broken_zigzag";
  def.description =
      "ZigZag64 with a logical instead of an arithmetic shift (deliberately wrong) vs the "
      "textbook formula; output: 8 bytes little-endian";
  def.domain = harness::IntegerDomain<int64_t>("int64", rc::gen::arbitrary<int64_t>());
  def.optimized = {"optimized", harness::Role::kOptimized, "targets/selftest (a planted bug)",
                   [](const int64_t& v) -> harness::Output {
                     const uint64_t u = static_cast<uint64_t>(v);
                     return Le64((u << 1) ^ (u >> 63));  // the bug: >> on the unsigned value
                   }};
  def.references.push_back({"reference", harness::Role::kReference, "targets/selftest",
                            [](const int64_t& v) -> harness::Output {
                              const uint64_t sign = v < 0 ? ~uint64_t{0} : 0;
                              return Le64((static_cast<uint64_t>(v) << 1) ^ sign);
                            }});
  registry.Add(std::move(def));

  // Two planted bugs and an implementation with a limited reach, for the shrinker's tests
  // (tests/shrink_test.cc): a shrinker that accepted any failure, or any set of compared
  // implementations, would end somewhere else.
  harness::TargetDef<int64_t> two;
  two.name = "selftest_two_bugs";
  two.description =
      "int64 as 8 bytes little-endian; the optimized side rejects -1000..-1 and writes the "
      "wrong bytes below -1000 (deliberately wrong); \"picky\" declines -1999..-1";
  two.domain = harness::IntegerDomain<int64_t>("int64", rc::gen::arbitrary<int64_t>());
  two.optimized = {"optimized", harness::Role::kOptimized, "targets/selftest (two planted bugs)",
                   [](const int64_t& v) -> harness::Output {
                     if (v >= 0) return Le64(static_cast<uint64_t>(v));
                     if (v >= -1000) return absl::InvalidArgumentError("planted rejection");
                     return Le64(static_cast<uint64_t>(v) ^ 1);
                   }};
  two.references.push_back(
      {"reference", harness::Role::kReference, "targets/selftest",
       [](const int64_t& v) -> harness::Output { return Le64(static_cast<uint64_t>(v)); }});
  two.references.push_back({"picky", harness::Role::kOracle,
                            "targets/selftest (reach -inf..-2000, 0..)",
                            [](const int64_t& v) -> harness::Output {
                              if (v < 0 && v > -2000) return harness::Declined("outside my reach");
                              return Le64(static_cast<uint64_t>(v));
                            }});
  registry.Add(std::move(two));
}

SERDIFF_REGISTER_FAMILY("selftest", RegisterSelfTestTargets);

}  // namespace serdiff::targets
