// Verdict paths that the row tables of harness_verdict_test.cc do not reach: a target's output
// checks (rule 5), an outside implementation's own peak held to the bound as the subject, and
// the differential property (what every <target>.DifferentialAgreesWithReferences runs) failing
// on a planted bug.
#include <string>
#include <vector>

#include <gtest/gtest.h>
#include <rapidcheck.h>

#include "absl/strings/match.h"
#include "absl/strings/str_cat.h"
#include "harness/domains.h"
#include "harness/target.h"
#include "serdiff/common/error_offset.h"
#include "targets/families.h"

namespace serdiff::harness {
namespace {

TargetDef<int64_t> WithSizeCheck(Output opt, Output ref) {
  TargetDef<int64_t> def;
  def.name = "tiny";
  def.domain = IntegerDomain<int64_t>("int64", rc::gen::arbitrary<int64_t>());
  def.optimized = {"optimized", [opt](const int64_t&) { return opt; }};
  def.others.push_back({"reference", [ref](const int64_t&) { return ref; }});
  def.offsets = OffsetPolicy::kCompareWhenPresent;
  def.checks.push_back({"size", [](const int64_t&, const std::string& out) -> absl::Status {
                          if (out.size() == 3) return absl::OkStatus();
                          return absl::InternalError(absl::StrCat(out.size(), " bytes, not 3"));
                        }});
  return def;
}

// Rule 5: a failing check is a verdict of its own, named by the check, also when the references
// agree on the bytes and when a subject gives the optimized bytes; a passing check and a
// rejected input (nothing to check) pass.
TEST(OutputChecks, AFailingCheckIsItsOwnVerdict) {
  TypedTarget<int64_t> two_bytes(WithSizeCheck(std::string("ab"), std::string("ab")));
  const CaseResult r = two_bytes.Judge(0, {}, Render::kAlways);
  EXPECT_FALSE(r.passed);
  EXPECT_EQ(r.failure_class, "check-failed:size");
  EXPECT_EQ(r.failing_impl, "size");
  EXPECT_TRUE(absl::EndsWith(r.report, "serdiff: tiny: check-failed:size\n")) << r.report;
  EXPECT_TRUE(absl::StrContains(r.report, "2 bytes, not 3")) << r.report;
  RunConfig subject;
  subject.subject = "reference";
  EXPECT_EQ(two_bytes.Judge(0, subject).failure_class, "check-failed:size");
  TypedTarget<int64_t> three_bytes(WithSizeCheck(std::string("abc"), std::string("abc")));
  EXPECT_TRUE(three_bytes.Judge(0, {}).passed);
  TypedTarget<int64_t> rejected(
      WithSizeCheck(InvalidAt(1, "bad field"), InvalidAt(1, "bad field")));
  EXPECT_TRUE(rejected.Judge(0, {}).passed);
}

// An outside implementation's peak is its own report (measured_run), not the allocation
// tracker's: as the subject it is held to the bound (a module's 5,000 bytes against 4,096).
TEST(OutputChecks, AnOutsideImplementationsOwnPeakIsBounded) {
  TargetDef<int64_t> def = WithSizeCheck(std::string("abc"), std::string("abc"));
  def.checks.clear();
  def.heap_bound = HeapBound<int64_t>::Fixed(4096);
  Impl<int64_t> module;
  module.name = "mod";
  module.kind = ImplKind::kModule;
  module.run = [](const int64_t&) -> Output { return std::string("abc"); };
  module.measured_run = [](const int64_t&) { return MeasuredOutput{std::string("abc"), 5000}; };
  def.others.push_back(module);
  TypedTarget<int64_t> t(std::move(def));
  RunConfig subject;
  subject.subject = "mod";
  const CaseResult r = t.Judge(7, subject);
  EXPECT_EQ(r.failure_class, "heap-bound:mod");
  EXPECT_EQ(r.optimized_peak_bytes, 5000);
  EXPECT_EQ(t.RunOne(t.Encode(7), "mod").peak_bytes, 5000);
}

// With a subject, the optimized implementation may no more decline than without one: its decline
// is "optimized-declined:optimized", whether the subject accepts the input or declines it too.
TEST(OutputChecks, TheOptimizedSideMayNotDeclineBesideASubject) {
  for (const bool subject_declines : {false, true}) {
    TargetDef<int64_t> def = WithSizeCheck(Declined("not supported here"), std::string("abc"));
    def.checks.clear();
    Impl<int64_t> module;
    module.name = "mod";
    module.kind = ImplKind::kModule;
    module.run = [subject_declines](const int64_t&) -> Output {
      if (subject_declines) return Declined("no such type");
      return std::string("abc");
    };
    def.others.push_back(module);
    TypedTarget<int64_t> t(std::move(def));
    RunConfig subject;
    subject.subject = "mod";
    const CaseResult r = t.Judge(7, subject);
    EXPECT_EQ(r.failure_class, "optimized-declined:optimized") << subject_declines;
    EXPECT_EQ(r.failing_impl, "optimized");
    EXPECT_FALSE(r.subject_declined);
  }
}

// A reference's decline edges hold both ways: a decline widened past its edge (0 declined where
// it must be answered) and one narrowed (-1 answered where it must be declined) are each a
// problem naming the edge; the edges held give none.
TEST(OutputChecks, DeclineEdgesAreHeldBothWays) {
  auto problems = [](int64_t first_answered) {
    TargetDef<int64_t> def = WithSizeCheck(std::string("abc"), std::string("abc"));
    def.others[0].run = [first_answered](const int64_t& v) -> Output {
      if (v < first_answered) return Declined("negative");
      return std::string("abc");
    };
    def.others[0].decline_edges = [] {
      return std::vector<DeclineEdge<int64_t>>{{"-1, the last declined", -1, true},
                                               {"0, the first answered", 0, false}};
    };
    size_t edges = 0;
    TypedTarget<int64_t> t(std::move(def));
    std::vector<std::string> found = t.DeclineEdgeProblems(&edges);
    EXPECT_EQ(edges, 2u);
    return found;
  };
  EXPECT_TRUE(problems(0).empty());
  const std::vector<std::string> widened = problems(1);
  ASSERT_EQ(widened.size(), 1u);
  EXPECT_TRUE(absl::StartsWith(widened[0], "reference: 0, the first answered: declined ("))
      << widened[0];
  EXPECT_TRUE(absl::EndsWith(widened[0], "), must answer")) << widened[0];
  const std::vector<std::string> narrowed = problems(-1);
  ASSERT_EQ(narrowed.size(), 1u);
  EXPECT_EQ(narrowed[0], "reference: -1, the last declined: answered (accepted), must decline");
}

// A divergence is checked against its edge with the answers in their places: a predicate that
// covers its own edge (here widened by one value) is a problem; one that stops short is not.
TEST(OutputChecks, ADivergenceThatCoversItsEdgeIsAProblem) {
  auto problems = [](int64_t from) {
    TargetDef<int64_t> def = WithSizeCheck(std::string("abc"), std::string("abc"));
    def.divergences.push_back(
        {"reference", "the reference rejects what the optimized side accepts, from `from` on",
         [from](const int64_t& v, const Output& optimized, const Output& other) {
           return v >= from && optimized.ok() && !other.ok();
         },
         [] {
           return std::vector<DivergenceEdge<int64_t>>{
               {"-1, the last value both accept", -1, std::string("x"), InvalidAt(0, "no")}};
         }});
    TypedTarget<int64_t> t(std::move(def));
    return t.DivergenceEdgeProblems();
  };
  EXPECT_TRUE(problems(0).empty());
  const std::vector<std::string> widened = problems(-1);
  ASSERT_EQ(widened.size(), 1u);
  EXPECT_TRUE(absl::StrContains(widened[0], "covers its edge -1, the last value both accept"))
      << widened[0];
}

// A divergence must be held at an edge, or say why none exists; an edge list that comes back
// empty holds nothing and is a problem, as is an empty decline-edge list.
TEST(OutputChecks, ADivergenceOrDeclineWithoutEdgesIsAProblem) {
  auto divergence = [](bool edges_fn, std::string no_edge) {
    TargetDef<int64_t> def = WithSizeCheck(std::string("abc"), std::string("abc"));
    harness::Divergence<int64_t> d{
        "reference", "the reference rejects negative values",
        [](const int64_t& v, const Output&, const Output&) { return v < 0; }};
    if (edges_fn) d.edges = [] { return std::vector<DivergenceEdge<int64_t>>{}; };
    d.no_edge = std::move(no_edge);
    def.divergences.push_back(std::move(d));
    TypedTarget<int64_t> t(std::move(def));
    return t.DivergenceEdgeProblems();
  };
  const std::vector<std::string> none = divergence(true, "");
  ASSERT_EQ(none.size(), 1u);
  EXPECT_TRUE(absl::StrContains(none[0], "edges() gave none")) << none[0];
  const std::vector<std::string> no_reason = divergence(false, "");
  ASSERT_EQ(no_reason.size(), 1u);
  EXPECT_TRUE(absl::StrContains(no_reason[0], "no edges and no reason why")) << no_reason[0];
  EXPECT_TRUE(divergence(false, "every input diverges alike").empty());

  TargetDef<int64_t> def = WithSizeCheck(std::string("abc"), std::string("abc"));
  def.others[0].decline_edges = [] { return std::vector<DeclineEdge<int64_t>>{}; };
  TypedTarget<int64_t> t(std::move(def));
  size_t edges = 0;
  const std::vector<std::string> decl = t.DeclineEdgeProblems(&edges);
  EXPECT_EQ(edges, 0u);
  ASSERT_EQ(decl.size(), 1u);
  EXPECT_EQ(decl[0], "reference: decline_edges() gave none");
}

// The differential property fails on a planted bug (a ZigZag with a logical shift: wrong for
// every negative value) and keeps the failing input, which is negative.
TEST(OutputChecks, TheDifferentialPropertyFailsOnAPlantedBug) {
  const Target* t = serdiff::targets::SelfTestTargets().Find("selftest_broken_zigzag");
  ASSERT_NE(t, nullptr);
  const bool passed = rc::check("the planted ZigZag", [t] { t->RcDifferentialProperty({}); });
  EXPECT_FALSE(passed);
  ASSERT_FALSE(t->last_counterexample().empty());
  EXPECT_TRUE(absl::StartsWith(t->ShowBytes(t->last_counterexample()), "-"))
      << t->ShowBytes(t->last_counterexample());
}

}  // namespace
}  // namespace serdiff::harness
