// Each compiled implementation a target names is a program of its own: on the target's corpus
// and generated inputs, every in-process implementation other than the optimized one differs
// from it somewhere, in its output, its error's message or its peak heap. A target whose
// "reference" called the optimized code (a one-word slip in a target definition) would compare
// the optimized code with itself and pass everything; this test fails on it instead.
#include <cstdint>
#include <map>
#include <set>
#include <string>

#include <gtest/gtest.h>

#include "absl/strings/str_cat.h"
#include "harness/corpus.h"
#include "harness/target.h"
#include "targets/families.h"

namespace serdiff::harness {
namespace {

// What tells two runs apart: the output's bytes, or the error's code and message, and the peak.
std::string Signature(const MeasuredOutput& m) {
  const std::string what = m.output.ok() ? absl::StrCat("ok:", *m.output)
                                         : absl::StrCat("error:", m.output.status().ToString());
  return absl::StrCat(what, "|peak:", m.peak_bytes);
}

// The references and oracles that answer as the optimized implementation does on every input
// here, by design: pure integer and calendar functions with the same error texts, allocating
// nothing (or the same copy of the input), and libbson on the packed documents it takes (the
// others it declines), whose differences would be bugs the differential tests report. A
// pair that joins this list is a target whose other side may be the optimized code; one that
// leaves it has started to differ (update the list).
const std::set<std::string> kAnswersAlike = {
    "bson_encode_packed: libbson",
    "bson_format_int64: absl",
    "bson_format_int64: fmt",
    "bson_format_int64: reference",
    "bson_format_int64: to_chars",
    "bson_format_uint64: absl",
    "bson_format_uint64: fmt",
    "bson_format_uint64: reference",
    "bson_format_uint64: to_chars",
    "timestamp_cql_date_roundtrip: identity",
    "timestamp_cql_date_to_civil: abseil",
    "timestamp_cql_date_to_civil: slow",
    "timestamp_cql_time_to_time_of_day: slow",
    "timestamp_micros_to_millis_floor: abseil",
    "timestamp_micros_to_millis_floor: slow",
    "timestamp_micros_to_millis_half_even: slow",
    "timestamp_micros_to_millis_truncate: slow",
    "varint_fory_decode: reference",
    "varint_fory_encode: reference",
    "varint_fory_zigzag_encode: reference",
    "varint_leb128_decode: reference",
    "varint_leb128_encode: reference",
    "varint_leb128_zigzag_encode: reference",
    "varint_vint_decode: reference",
    "varint_vint_encode: reference",
    "varint_vint_zigzag_encode: reference",
    "varint_zigzag64: protobuf",
    "varint_zigzag64: reference",
};

TEST(ImplIdentity, EveryOtherImplementationDiffersFromTheOptimizedOneSomewhere) {
  std::set<std::string> alike, registered, compared;
  int pairs = 0;
  for (const auto& t : targets::AllTargets().targets()) {
    if (t->family() == "selftest") continue;
    registered.insert(t->name());
    std::vector<std::string> inputs;
    for (const std::string& f : std::vector<std::string>(
             ListCorpusFiles(std::string(SERDIFF_CORPUS_DIR) + "/" + t->name()).value())) {
      absl::StatusOr<std::string> b = ReadFileBytes(f);
      if (b.ok()) inputs.push_back(*b);
    }
    for (uint64_t seed = 1; seed <= 40; ++seed) {
      inputs.push_back(t->GeneratedBytes(seed, static_cast<int>(seed * 5 % 101)));
    }
    const std::string& optimized = t->info().impls[0].name;
    for (size_t i = 1; i < t->info().impls.size(); ++i) {
      const ImplInfo& impl = t->info().impls[i];
      // The optimized code's own other paths (CPU tiers, the small-input path) are the
      // optimized code by design; the references and the oracles are what must be other code.
      if (impl.kind != ImplKind::kCompiled || impl.role == Role::kOptimizedTier) continue;
      // An input the implementation declines is not compared (a peer's missing type; every
      // input of a CPU tier this machine lacks, or of the avx512 emulation where the native
      // tier runs: such a pair is not compared here at all).
      bool differs = false, any = false;
      for (const std::string& in : inputs) {
        const MeasuredOutput other = t->RunOne(in, impl.name);
        if (IsDeclined(other.output.status())) continue;
        any = true;
        differs |= Signature(t->RunOne(in, optimized)) != Signature(other);
      }
      if (!any) continue;
      compared.insert(absl::StrCat(t->name(), ": ", impl.name));
      ++pairs;
      if (!differs) alike.insert(absl::StrCat(t->name(), ": ", impl.name));
    }
  }
  EXPECT_GT(pairs, registered.size() > 40 ? 80 : 0);  // 90 on a machine with every tier
  for (const std::string& p : alike) {
    EXPECT_TRUE(kAnswersAlike.count(p))
        << p << " answers as the optimized implementation does on every input, peaks and error "
        << "texts included: is it the optimized code?";
  }
  for (const std::string& p : kAnswersAlike) {
    if (!compared.count(p)) continue;  // another family's build, or a tier this CPU lacks
    EXPECT_TRUE(alike.count(p)) << p << " now differs from the optimized implementation on "
                                << "some input: take it off kAnswersAlike";
  }
}

}  // namespace
}  // namespace serdiff::harness
