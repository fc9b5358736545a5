// The verdict with two and three references that disagree with the optimized side in every
// combination of outcome and offset (issue 22, kind 4): each field of the verdict (pass,
// class, the implementation it names, the first differing byte, the decliners) must come
// from the same implementation, the first that fails in registration order, and the
// comparison of outputs comes before the comparison of error offsets (harness/target.h).
#include <gtest/gtest.h>

#include <optional>
#include <string>
#include <vector>

#include "absl/strings/str_cat.h"
#include "harness/target.h"
#include "serdiff/common/error_offset.h"

namespace serdiff::harness {
namespace {

// What a reference does, relative to the optimized output.
enum class Kind { kSame, kBytesAt1, kBytesAt4, kLonger, kRejectAt2, kRejectAt5, kDecline };
constexpr Kind kKinds[] = {Kind::kSame,      Kind::kBytesAt1,  Kind::kBytesAt4, Kind::kLonger,
                           Kind::kRejectAt2, Kind::kRejectAt5, Kind::kDecline};

const char* Name(Kind k) {
  switch (k) {
    case Kind::kSame:
      return "same";
    case Kind::kBytesAt1:
      return "bytes@1";
    case Kind::kBytesAt4:
      return "bytes@4";
    case Kind::kLonger:
      return "longer";
    case Kind::kRejectAt2:
      return "reject@2";
    case Kind::kRejectAt5:
      return "reject@5";
    case Kind::kDecline:
      return "decline";
  }
  return "?";
}

// The optimized side either accepts "abcdef" or rejects at offset 2.
Output OptOutput(bool opt_rejects) {
  if (opt_rejects) return InvalidAt(2, "bad field");
  return std::string("abcdef");
}

Output RefOutput(Kind k, bool opt_rejects) {
  switch (k) {
    case Kind::kSame:
      return OptOutput(opt_rejects);
    case Kind::kBytesAt1:
      return std::string("aXcdef");
    case Kind::kBytesAt4:
      return std::string("abcdXf");
    case Kind::kLonger:
      return std::string("abcdefg");  // first difference at 6, the shorter one's end
    case Kind::kRejectAt2:
      return InvalidAt(2, "bad field");
    case Kind::kRejectAt5:
      return InvalidAt(5, "bad field");
    case Kind::kDecline:
      return Declined("not supported here");
  }
  return std::string();
}

struct Expected {
  bool passed = true;
  std::string failure_class;
  std::string failing_impl;
  std::optional<int64_t> first_difference;
  std::vector<std::string> declined;
};

// The rules, written out for this table only: outputs first, reference by reference; then,
// where the optimized side rejected, error offsets reference by reference.
Expected Expect(bool opt_rejects, const std::vector<Kind>& refs) {
  Expected e;
  auto name = [](size_t i) { return absl::StrCat("ref", i + 1); };
  for (size_t i = 0; i < refs.size() && e.passed; ++i) {
    const Kind k = refs[i];
    if (k == Kind::kDecline || k == Kind::kSame) continue;
    const bool ref_rejects = k == Kind::kRejectAt2 || k == Kind::kRejectAt5;
    if (ref_rejects != opt_rejects) {
      e = {false, "error-class-mismatch:" + name(i), name(i), std::nullopt, {}};
    } else if (!ref_rejects) {
      const int64_t at = k == Kind::kBytesAt1 ? 1 : k == Kind::kBytesAt4 ? 4 : 6;
      e = {false, "bytes-mismatch:" + name(i), name(i), at, {}};
    }
  }
  if (e.passed && opt_rejects) {
    for (size_t i = 0; i < refs.size() && e.passed; ++i) {
      if (refs[i] == Kind::kRejectAt5) {
        e = {false, "error-offset-mismatch:" + name(i), name(i), std::nullopt, {}};
      }
    }
  }
  if (!e.passed) {
    for (size_t i = 0; i < refs.size(); ++i) {
      if (refs[i] == Kind::kDecline) e.declined.push_back(name(i));
    }
  }
  return e;
}

void CheckCombination(bool opt_rejects, const std::vector<Kind>& refs) {
  std::vector<ImplRun> runs;
  runs.push_back({"optimized", Role::kOptimized, OptOutput(opt_rejects), OptOutput(opt_rejects)});
  std::vector<std::string> names;
  for (size_t i = 0; i < refs.size(); ++i) names.push_back(absl::StrCat("ref", i + 1));
  for (size_t i = 0; i < refs.size(); ++i) {
    runs.push_back({names[i], i == 0 ? Role::kReference : Role::kOracle,
                    RefOutput(refs[i], opt_rejects), RefOutput(refs[i], opt_rejects)});
  }
  JudgeInput in;
  in.target = "matrix";
  in.runs = runs;
  in.offsets = OffsetPolicy::kCompareWhenPresent;
  const CaseResult r = JudgeCase(in);
  const Expected e = Expect(opt_rejects, refs);
  std::string what = opt_rejects ? "optimized rejects @2;" : "optimized accepts;";
  for (Kind k : refs) absl::StrAppend(&what, " ", Name(k));
  EXPECT_EQ(r.passed, e.passed) << what;
  EXPECT_EQ(r.failure_class, e.failure_class) << what;
  EXPECT_EQ(r.failing_impl, e.failing_impl) << what;
  EXPECT_EQ(r.first_difference, e.first_difference) << what;
  EXPECT_EQ(r.declined, e.declined) << what;
  if (!r.passed) {
    // The class names the implementation the details are about.
    EXPECT_NE(r.details.find(r.failing_impl), std::string::npos) << what << ": " << r.details;
  }
}

TEST(VerdictMatrix, TwoReferencesEveryCombination) {
  for (bool opt_rejects : {false, true}) {
    for (Kind a : kKinds) {
      for (Kind b : kKinds) CheckCombination(opt_rejects, {a, b});
    }
  }
}

TEST(VerdictMatrix, ThreeReferencesEveryCombination) {
  for (bool opt_rejects : {false, true}) {
    for (Kind a : kKinds) {
      for (Kind b : kKinds) {
        for (Kind c : kKinds) CheckCombination(opt_rejects, {a, b, c});
      }
    }
  }
}

// Two hand-written rows, so that the table above is not the only witness: the second
// reference differs earlier in the output than the first, yet the first is named and its
// offset is the one reported.
TEST(VerdictMatrix, TheFirstFailingReferenceGivesBothTheClassAndTheOffset) {
  std::vector<ImplRun> runs = {
      {"optimized", Role::kOptimized, std::string("abcdef"), std::string("abcdef")},
      {"reference", Role::kReference, std::string("abcdXf"), std::string("abcdXf")},
      {"oracle", Role::kOracle, std::string("Xbcdef"), std::string("Xbcdef")}};
  JudgeInput in;
  in.target = "matrix";
  in.runs = runs;
  const CaseResult r = JudgeCase(in);
  EXPECT_EQ(r.failure_class, "bytes-mismatch:reference");
  EXPECT_EQ(r.failing_impl, "reference");
  EXPECT_EQ(r.first_difference, 4);
  // A class mismatch with the first and a byte difference with the second: no offset.
  runs[1].first = runs[1].second = InvalidAt(0, "bad");
  in.runs = runs;
  const CaseResult r2 = JudgeCase(in);
  EXPECT_EQ(r2.failure_class, "error-class-mismatch:reference");
  EXPECT_EQ(r2.first_difference, std::nullopt);
}

}  // namespace
}  // namespace serdiff::harness
