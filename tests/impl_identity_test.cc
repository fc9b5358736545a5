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

// The implementations that answer as the optimized one does on every input here, by design:
// pure integer and calendar functions with the same error texts, allocating nothing (or the
// same copy of the input), whose differences would be bugs the differential tests report. A
// pair that joins this list is a target whose other side may be the optimized code; one that
// leaves it has started to differ (update the list).
const std::set<std::string> kAnswersAlike = {"bson_format_int64: digit_pairs",
                                             "bson_format_int64: reference",
                                             "bson_format_int64: to_chars",
                                             "bson_format_int64: absl",
                                             "bson_format_int64: fmt",
                                             "bson_format_uint64: digit_pairs",
                                             "bson_format_uint64: reference",
                                             "bson_format_uint64: to_chars",
                                             "bson_format_uint64: absl",
                                             "bson_format_uint64: fmt",
                                             "timestamp_civil_to_millis_floor: wide_calendar",
                                             "timestamp_civil_to_millis_truncate: wide_calendar",
                                             "timestamp_civil_to_millis_half_even: wide_calendar",
                                             "timestamp_civil_to_micros: wide_calendar",
                                             "timestamp_micros_to_millis_floor: abseil",
                                             "timestamp_micros_to_millis_floor: slow",
                                             "timestamp_micros_to_millis_truncate: slow",
                                             "timestamp_micros_to_millis_half_even: slow",
                                             "timestamp_cql_date_to_civil: abseil",
                                             "timestamp_cql_date_to_civil: slow",
                                             "timestamp_cql_time_to_time_of_day: slow",
                                             "timestamp_cql_date_roundtrip: identity",
                                             "varint_zigzag64: reference",
                                             "varint_zigzag64: protobuf",
                                             "varint_leb128_encode: reference",
                                             "varint_leb128_zigzag_encode: reference",
                                             "varint_leb128_decode: portable",
                                             "varint_leb128_decode: sse2",
                                             "varint_leb128_decode: bmi2",
                                             "varint_leb128_decode: avx512",
                                             "varint_leb128_decode: single",
                                             "varint_leb128_decode: reference",
                                             "varint_fory_encode: reference",
                                             "varint_fory_zigzag_encode: reference",
                                             "varint_fory_decode: portable",
                                             "varint_fory_decode: sse2",
                                             "varint_fory_decode: bmi2",
                                             "varint_fory_decode: single",
                                             "varint_fory_decode: reference",
                                             "varint_vint_encode: reference",
                                             "varint_vint_zigzag_encode: reference",
                                             "varint_vint_decode: portable",
                                             "varint_vint_decode: bmi2",
                                             "varint_vint_decode: single",
                                             "varint_vint_decode: reference"};

TEST(ImplIdentity, EveryOtherImplementationDiffersFromTheOptimizedOneSomewhere) {
  std::set<std::string> alike, registered;
  int pairs = 0;
  for (const auto& t : targets::AllTargets().targets()) {
    if (t->family() == "selftest") continue;
    registered.insert(t->name());
    std::vector<std::string> inputs;
    for (const std::string& f :
         ListCorpusFiles(std::string(SERDIFF_CORPUS_DIR) + "/" + t->name())) {
      absl::StatusOr<std::string> b = ReadFileBytes(f);
      if (b.ok()) inputs.push_back(*b);
    }
    for (uint64_t seed = 1; seed <= 40; ++seed) {
      inputs.push_back(t->GeneratedBytes(seed, static_cast<int>(seed * 5 % 101)));
    }
    const std::string& optimized = t->info().impls[0].name;
    for (size_t i = 1; i < t->info().impls.size(); ++i) {
      const ImplInfo& impl = t->info().impls[i];
      if (impl.kind != ImplKind::kCompiled) continue;
      bool differs = false;
      for (const std::string& in : inputs) {
        if (Signature(t->RunOne(in, optimized)) != Signature(t->RunOne(in, impl.name))) {
          differs = true;
          break;
        }
      }
      ++pairs;
      if (!differs) alike.insert(absl::StrCat(t->name(), ": ", impl.name));
    }
  }
  EXPECT_GT(pairs, registered.size() > 40 ? 100 : 0);
  for (const std::string& p : alike) {
    EXPECT_TRUE(kAnswersAlike.count(p))
        << p << " answers as the optimized implementation does on every input, peaks and error "
        << "texts included: is it the optimized code?";
  }
  for (const std::string& p : kAnswersAlike) {
    if (!registered.count(p.substr(0, p.find(':')))) continue;  // a build of other families
    EXPECT_TRUE(alike.count(p)) << p << " now differs from the optimized implementation on "
                                << "some input: take it off kAnswersAlike";
  }
}

}  // namespace
}  // namespace serdiff::harness
