// The verdict's truth table (harness/target.h, JudgeCase), row by row, with tiny synthetic
// targets whose implementations return fixed outputs; and corpus replay of nested folders.
// Every row names the exact failure class (or a pass), so a harness that stops comparing
// something (offsets, the reference a divergence names, bounds on rejected inputs, the
// second run) fails here.
#include <gtest/gtest.h>

#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <map>
#include <memory>
#include <regex>
#include <set>
#include <string>
#include <vector>

#include "absl/strings/str_cat.h"
#include "harness/corpus.h"
#include "harness/domains.h"
#include "harness/target.h"
#include "serdiff/common/error_offset.h"
#include "targets/families.h"
#include "tests/run_cli.h"

namespace serdiff::harness {
namespace {

void* volatile g_sink;

// The outputs a row is built from.
Output Accept(std::string bytes) { return bytes; }
Output RejectAt(int64_t offset) { return InvalidAt(offset, "bad field"); }
Output RejectNoOffset() { return absl::InvalidArgumentError("bad, somewhere"); }
Output Decline() { return Declined("not supported by this reference"); }
Output PlainUnimplemented() { return absl::UnimplementedError("feature X is not implemented"); }

TargetDef<int64_t> Def(Output opt, Output ref, OffsetPolicy offsets) {
  TargetDef<int64_t> def;
  def.name = "tiny";
  def.domain = IntegerDomain<int64_t>("int64", rc::gen::arbitrary<int64_t>());
  def.optimized = {"optimized", [opt](const int64_t&) { return opt; }};
  def.others.push_back({"reference", [ref](const int64_t&) { return ref; }});
  def.offsets = offsets;
  return def;
}

struct Row {
  const char* what;
  Output opt;
  Output ref;
  OffsetPolicy offsets;
  std::string expected;  // failure class; "" = pass
};

constexpr OffsetPolicy kWhenPresent = OffsetPolicy::kCompareWhenPresent;
constexpr OffsetPolicy kRequired = OffsetPolicy::kRequired;
constexpr OffsetPolicy kNotApplicable = OffsetPolicy::kNotApplicable;

TEST(VerdictTruthTable, EveryRowGivesItsExactClass) {
  const std::vector<Row> rows = {
      {"both accept, same bytes", Accept("ab"), Accept("ab"), kWhenPresent, ""},
      {"both accept, different bytes", Accept("ab"), Accept("ac"), kWhenPresent,
       "bytes-mismatch:reference"},
      {"both accept, one a prefix", Accept("ab"), Accept("a"), kWhenPresent,
       "bytes-mismatch:reference"},
      {"optimized accepts, reference rejects", Accept("ab"), RejectAt(3), kWhenPresent,
       "error-class-mismatch:reference"},
      {"optimized rejects, reference accepts", RejectAt(3), Accept("ab"), kWhenPresent,
       "error-class-mismatch:reference"},
      {"optimized rejects without offset, reference accepts", RejectNoOffset(), Accept(""),
       kRequired, "error-class-mismatch:reference"},
      {"both reject at the same offset", RejectAt(3), RejectAt(3), kRequired, ""},
      {"both reject, different codes and messages, same offset", RejectAt(3),
       OutOfRangeAt(3, "other words"), kRequired, ""},
      {"both reject at different offsets", RejectAt(0), RejectAt(8), kWhenPresent,
       "error-offset-mismatch:reference"},
      {"both reject at different offsets, required", RejectAt(8), RejectAt(0), kRequired,
       "error-offset-mismatch:reference"},
      {"different offsets, offsets not applicable", RejectAt(0), RejectAt(8), kNotApplicable, ""},
      {"reference without offset, compare-when-present", RejectAt(3), RejectNoOffset(),
       kWhenPresent, ""},
      {"optimized without offset, compare-when-present", RejectNoOffset(), RejectAt(3),
       kWhenPresent, ""},
      {"reference without offset, required", RejectAt(3), RejectNoOffset(), kRequired,
       "error-offset-missing:reference"},
      {"optimized without offset, required", RejectNoOffset(), RejectAt(3), kRequired,
       "error-offset-missing:optimized"},
      {"neither has an offset, required", RejectNoOffset(), RejectNoOffset(), kRequired,
       "error-offset-missing:optimized"},
      {"reference declines, optimized accepts", Accept("ab"), Decline(), kRequired, ""},
      {"reference declines, optimized rejects", RejectAt(1), Decline(), kRequired, ""},
      {"reference declines, optimized rejects without offset", RejectNoOffset(), Decline(),
       kWhenPresent, ""},
      {"optimized declines", Decline(), Accept("ab"), kWhenPresent, "optimized-declined:optimized"},
      {"plain Unimplemented is an error, not a decline", Accept("ab"), PlainUnimplemented(),
       kWhenPresent, "error-class-mismatch:reference"},
      {"a decline-like message without the marker is an error", Accept("ab"),
       absl::UnimplementedError("declined: no marker"), kWhenPresent,
       "error-class-mismatch:reference"},
      {"plain Unimplemented on both sides: both reject", PlainUnimplemented(), PlainUnimplemented(),
       kWhenPresent, ""},
      {"plain Unimplemented has no offset, required", RejectAt(2), PlainUnimplemented(), kRequired,
       "error-offset-missing:reference"},
  };
  for (const Row& row : rows) {
    TypedTarget<int64_t> t(Def(row.opt, row.ref, row.offsets));
    const CaseResult r = t.Judge(0, {});
    EXPECT_EQ(r.failure_class, row.expected) << row.what << "\n" << r.report;
    EXPECT_EQ(r.passed, row.expected.empty()) << row.what;
    if (!row.expected.empty()) {
      EXPECT_TRUE(r.report.ends_with(absl::StrCat("serdiff: tiny: ", row.expected, "\n")))
          << row.what << "\n"
          << r.report;
    }
  }
}

TEST(VerdictTruthTable, DeclinedIsAMarkerNotAMessage) {
  const absl::Status d = Declined("why");
  EXPECT_TRUE(IsDeclined(d));
  EXPECT_EQ(d.code(), absl::StatusCode::kUnimplemented);
  EXPECT_EQ(d.message(), "declined: why");
  EXPECT_FALSE(IsDeclined(absl::UnimplementedError("declined: why")));
  EXPECT_FALSE(IsDeclined(absl::UnimplementedError("anything")));
  EXPECT_FALSE(IsDeclined(absl::OkStatus()));
}

TEST(VerdictTruthTable, OffsetExemptionNamesOneImplementation) {
  TargetDef<int64_t> def = Def(RejectAt(3), RejectNoOffset(), kRequired);
  def.others.push_back({"oracle", [](const int64_t&) { return RejectNoOffset(); }});
  def.offset_exemptions.push_back({"oracle", "reports no position"});
  TypedTarget<int64_t> t(std::move(def));
  // The oracle is exempt; "reference" is not.
  EXPECT_EQ(t.Judge(0, {}).failure_class, "error-offset-missing:reference");
  TargetDef<int64_t> def2 = Def(RejectAt(3), RejectAt(3), kRequired);
  def2.others.push_back({"oracle", [](const int64_t&) { return RejectNoOffset(); }});
  def2.offset_exemptions.push_back({"oracle", "reports no position"});
  TypedTarget<int64_t> t2(std::move(def2));
  const CaseResult r = t2.Judge(0, {});
  EXPECT_TRUE(r.passed) << r.report;
  ASSERT_EQ(t2.offset_exemptions().size(), 1u);
  EXPECT_EQ(t2.offset_exemptions()[0].impl, "oracle");
  EXPECT_EQ(t2.offset_exemptions()[0].reason, "reports no position");
}

TEST(VerdictTruthTable, ReportShowsEachOffset) {
  TypedTarget<int64_t> t(Def(RejectAt(0), RejectAt(8), kRequired));
  const CaseResult r = t.Judge(0, {});
  EXPECT_NE(r.report.find("optimized  error at offset 0: INVALID_ARGUMENT: offset 0: bad field"),
            std::string::npos)
      << r.report;
  EXPECT_NE(r.report.find("reference  error at offset 8: INVALID_ARGUMENT: offset 8: bad field"),
            std::string::npos)
      << r.report;
  EXPECT_NE(r.report.find("both rejected the input, optimized at offset 0, reference at offset 8"),
            std::string::npos)
      << r.report;
}

// ---- accepted divergences: they cover only the reference they name ----------------------

TargetDef<int64_t> TwoReferences(Output opt, Output a, Output b) {
  TargetDef<int64_t> def = Def(std::move(opt), std::move(a), kRequired);
  def.others[0].name = "ref_a";
  def.others.push_back({"ref_b", [b](const int64_t&) { return b; }});
  def.divergences.push_back({"ref_a", "A is known to differ",
                             [](const int64_t&, const Output&, const Output&) { return true; }});
  return def;
}

TEST(VerdictDivergence, CoversItsReferenceOnly) {
  // Bytes: A's difference is accepted, B's is not.
  TypedTarget<int64_t> bytes(TwoReferences(Accept("x"), Accept("y"), Accept("y")));
  CaseResult r = bytes.Judge(0, {});
  EXPECT_EQ(r.failure_class, "bytes-mismatch:ref_b") << r.report;
  ASSERT_EQ(r.accepted.size(), 1u);
  EXPECT_EQ(r.accepted[0], "ref_a: A is known to differ");
  // Class.
  TypedTarget<int64_t> cls(TwoReferences(Accept("x"), RejectAt(1), RejectAt(1)));
  EXPECT_EQ(cls.Judge(0, {}).failure_class, "error-class-mismatch:ref_b");
  // Offsets.
  TypedTarget<int64_t> off(TwoReferences(RejectAt(0), RejectAt(8), RejectAt(8)));
  r = off.Judge(0, {});
  EXPECT_EQ(r.failure_class, "error-offset-mismatch:ref_b") << r.report;
  ASSERT_EQ(r.accepted.size(), 1u);
  EXPECT_EQ(r.accepted[0], "ref_a: A is known to differ");
  // Only A differs: covered, a pass with the divergence listed.
  TypedTarget<int64_t> only_a(TwoReferences(RejectAt(0), RejectAt(8), RejectAt(0)));
  r = only_a.Judge(0, {}, Render::kAlways);
  EXPECT_TRUE(r.passed) << r.report;
  EXPECT_NE(r.report.find("accepted divergence: ref_a: A is known to differ"), std::string::npos);
}

// A peer's accepted divergence holds whatever its role (verdict.h): as the subject it departs
// from the optimized side as accepted, or from another implementation that agrees with the
// optimized side; a departure of its own that no divergence covers still fails, and so does
// another implementation's uncovered one.
TEST(VerdictDivergence, AppliesToThePeerAsTheSubject) {
  RunConfig subject_a;
  subject_a.subject = "ref_a";
  // ref_a departs (covered), ref_b agrees with the optimized side: a pass, the divergence listed.
  TypedTarget<int64_t> a_departs(TwoReferences(Accept("x"), Accept("y"), Accept("x")));
  CaseResult r = a_departs.Judge(0, subject_a);
  EXPECT_TRUE(r.passed) << r.report;
  EXPECT_EQ(r.subject, "ref_a");
  ASSERT_EQ(r.accepted.size(), 2u) << r.report;  // once against optimized, once against ref_b
  EXPECT_EQ(r.accepted[0], "ref_a: A is known to differ");
  // ref_b departs too, uncovered: ref_b is blamed, as when the optimized side is the subject.
  TypedTarget<int64_t> both(TwoReferences(Accept("x"), Accept("y"), Accept("z")));
  EXPECT_EQ(both.Judge(0, subject_a).failure_class, "bytes-mismatch:ref_b");
  // ref_b as the subject, departing with no divergence of its own: a failure against the optimized
  // side, whatever ref_a does.
  RunConfig subject_b;
  subject_b.subject = "ref_b";
  EXPECT_EQ(both.Judge(0, subject_b).failure_class, "bytes-mismatch:optimized");
  // ref_b as the subject agreeing with the optimized side, ref_a departing as accepted: a pass.
  EXPECT_TRUE(a_departs.Judge(0, subject_b).passed);
  // The predicate sees the optimized side's output as "optimized" (not the subject's): one that
  // accepts only optimized "x" covers ref_a as subject.
  TargetDef<int64_t> def = TwoReferences(Accept("x"), Accept("y"), Accept("x"));
  def.divergences[0].applies = [](const int64_t&, const Output& o, const Output& a) {
    return o.ok() && *o == "x" && a.ok() && *a == "y";
  };
  TypedTarget<int64_t> exact(std::move(def));
  EXPECT_TRUE(exact.Judge(0, subject_a).passed);
  // Offsets: ref_a rejects at another offset (covered), ref_b at the optimized one's.
  TypedTarget<int64_t> off(TwoReferences(RejectAt(0), RejectAt(8), RejectAt(0)));
  EXPECT_TRUE(off.Judge(0, subject_a).passed);
  TypedTarget<int64_t> off_b(TwoReferences(RejectAt(0), RejectAt(8), RejectAt(3)));
  EXPECT_EQ(off_b.Judge(0, subject_a).failure_class, "error-offset-mismatch:ref_b");
}

// A subject exempt from offsets (TargetDef::offset_exemptions) agrees on offsets with the
// optimized side by having none: another implementation's missing offset is then covered by that
// implementation's own divergence alone. It is not covered when no divergence is named at all,
// even though the subject, by its exemption, agrees (here the optimized side's own offset is
// missing, and nothing accepts that).
TEST(VerdictDivergence, AnOffsetExemptSubjectAgreesOnOffsetsByHavingNone) {
  RunConfig subject_b;
  subject_b.subject = "ref_b";
  TargetDef<int64_t> def = TwoReferences(RejectAt(0), RejectNoOffset(), RejectNoOffset());
  def.offset_exemptions.push_back({"ref_b", "reports no position"});
  TypedTarget<int64_t> exempt(std::move(def));
  CaseResult r = exempt.Judge(0, subject_b);
  EXPECT_TRUE(r.passed) << r.report;
  ASSERT_EQ(r.accepted.size(), 1u) << r.report;
  EXPECT_EQ(r.accepted[0], "ref_a: A is known to differ");
  // The same subject without the exemption: its own missing offset fails.
  TypedTarget<int64_t> not_exempt(TwoReferences(RejectAt(0), RejectNoOffset(), RejectNoOffset()));
  EXPECT_EQ(not_exempt.Judge(0, subject_b).failure_class, "error-offset-missing:ref_b");
  // The optimized side rejects without an offset, the exempt subject too: no divergence covers
  // the optimized side's, so it fails.
  TargetDef<int64_t> def2 = TwoReferences(RejectNoOffset(), RejectAt(8), RejectNoOffset());
  def2.offset_exemptions.push_back({"ref_b", "reports no position"});
  TypedTarget<int64_t> opt_missing(std::move(def2));
  r = opt_missing.Judge(0, subject_b);
  EXPECT_EQ(r.failure_class, "error-offset-missing:optimized") << r.report;
}

TEST(VerdictDivergence, PredicateDecides) {
  TargetDef<int64_t> def = Def(Accept("x"), Accept("y"), kWhenPresent);
  def.divergences.push_back({"reference", "only for odd inputs",
                             [](const int64_t& v, const Output& o, const Output& ref) {
                               return v % 2 != 0 && o.ok() && ref.ok() && *o == "x";
                             }});
  TypedTarget<int64_t> t(std::move(def));
  EXPECT_TRUE(t.Judge(1, {}).passed);
  EXPECT_EQ(t.Judge(2, {}).failure_class, "bytes-mismatch:reference");
}

// ---- judge, then render ---------------------------------------------------------------------

// Counts the calls of every printer and of the corpus encoder of a tiny target.
struct RenderCounts {
  int show_input = 0;
  int show_output = 0;
  int encode = 0;
  int divergence = 0;
};

TargetDef<int64_t> Counting(Output opt, Output ref, std::shared_ptr<RenderCounts> n) {
  TargetDef<int64_t> def = Def(std::move(opt), std::move(ref), kWhenPresent);
  auto show = def.domain.show;
  def.domain.show = [n, show](const int64_t& v) {
    ++n->show_input;
    return show(v);
  };
  auto encode = def.domain.encode;
  def.domain.encode = [n, encode](const int64_t& v, FuzzInputWriter& w) {
    ++n->encode;
    encode(v, w);
  };
  def.show_output = [n](const std::string& out) {
    ++n->show_output;
    return out;
  };
  def.divergences.push_back(
      {"reference", "never applies", [n](const int64_t&, const Output&, const Output&) {
         ++n->divergence;
         return false;
       }});
  return def;
}

TEST(VerdictRender, PassingCaseCallsNoPrinterNoEncoderNoPredicate) {
  auto n = std::make_shared<RenderCounts>();
  TypedTarget<int64_t> t(Counting(Accept("ab"), Accept("ab"), n));
  FuzzInputWriter w;
  w.WriteIntegral<int64_t>(7);
  const std::string bytes = w.Finish();
  for (int i = 0; i < 3; ++i) {
    const CaseResult r = i == 0   ? t.Judge(7, {})
                         : i == 1 ? t.RunBytes(bytes, {})
                                  : t.RunGenerated(1, 5, {});
    EXPECT_TRUE(r.passed);
    EXPECT_FALSE(r.rendered);
    EXPECT_TRUE(r.report.empty());
    EXPECT_TRUE(r.corpus_bytes.empty());
  }
  EXPECT_EQ(n->show_input, 0);
  EXPECT_EQ(n->show_output, 0);
  EXPECT_EQ(n->encode, 0);
  EXPECT_EQ(n->divergence, 0);
  // Asked for (repro, seed): rendered although it passes.
  const CaseResult r = t.RunBytes(bytes, {}, Render::kAlways);
  EXPECT_TRUE(r.rendered);
  EXPECT_EQ(r.corpus_bytes, bytes);
  EXPECT_NE(r.report.find("input:  7\n"), std::string::npos) << r.report;
  EXPECT_NE(r.report.find("verdict: pass\n"), std::string::npos) << r.report;
  EXPECT_EQ(n->show_input, 1);
  EXPECT_EQ(n->show_output, 2);  // optimized and reference outputs
  EXPECT_EQ(n->encode, 1);
}

TEST(VerdictRender, FailingCaseIsRenderedWithItsVerdictAsData) {
  auto n = std::make_shared<RenderCounts>();
  TypedTarget<int64_t> t(Counting(Accept("abcd"), Accept("abXd"), n));
  const CaseResult r = t.Judge(-1, {});
  EXPECT_FALSE(r.passed);
  EXPECT_EQ(r.failure_class, "bytes-mismatch:reference");
  EXPECT_EQ(r.failing_impl, "reference");
  EXPECT_EQ(r.first_difference, 2);
  EXPECT_TRUE(r.rendered);
  EXPECT_EQ(n->divergence, 1);  // asked once, where the reference differed
  EXPECT_EQ(n->show_input, 1);
  EXPECT_EQ(n->encode, 1);
  FuzzInputWriter w;
  w.WriteIntegral<int64_t>(-1);
  EXPECT_EQ(r.corpus_bytes, w.Finish());
  EXPECT_NE(r.report.find("input:  -1\n"), std::string::npos) << r.report;
  EXPECT_TRUE(r.report.ends_with("serdiff: tiny: bytes-mismatch:reference\n")) << r.report;
}

// ---- roles ------------------------------------------------------------------------------------

// The reference peak comes from the first implementation whose role is kReference, wherever it
// stands and whatever it is called; none: -1.
TEST(VerdictRoles, ReferencePeakComesFromTheReferenceRole) {
  auto allocating = [](size_t bytes) {
    return [bytes](const int64_t&) -> Output {
      std::unique_ptr<char[]> p(new char[bytes]);
      g_sink = p.get();
      return std::string("ok");
    };
  };
  TargetDef<int64_t> def = Def(Accept("ok"), Accept("ok"), kWhenPresent);
  def.others.clear();
  def.others.push_back({"libfoo", Role::kOracle, allocating(50000)});
  def.others.push_back({"fast_tier", Role::kOptimizedTier, allocating(30000)});
  def.others.push_back({"slow", allocating(7000)});  // a reference by default
  TypedTarget<int64_t> t(def);
  CaseResult r = t.Judge(0, {});
  EXPECT_TRUE(r.passed);
  EXPECT_GE(r.reference_peak_bytes, 7000);
  EXPECT_LT(r.reference_peak_bytes, 30000);

  def.others.pop_back();  // an oracle and a tier only
  TypedTarget<int64_t> no_ref(def);
  EXPECT_EQ(no_ref.Judge(0, {}).reference_peak_bytes, -1);
  EXPECT_EQ(RoleName(Role::kOracle), "oracle");
  EXPECT_EQ(OutcomeOf(Decline()), Outcome::kDeclined);
  EXPECT_EQ(OutcomeOf(PlainUnimplemented()), Outcome::kRejected);
  EXPECT_EQ(OutcomeOf(Accept("")), Outcome::kAccepted);
}

// ---- nondeterminism -----------------------------------------------------------------------

TEST(VerdictNondeterminism, SecondRunOfEachSideIsCompared) {
  auto flip = [](Output first, Output second) {
    auto calls = std::make_shared<int>(0);
    return [calls, first, second](const int64_t&) { return (*calls)++ % 2 == 0 ? first : second; };
  };
  {
    TargetDef<int64_t> def = Def(Accept("a"), Accept("a"), kRequired);
    def.optimized.run = flip(Accept("a"), Accept("b"));
    TypedTarget<int64_t> t(std::move(def));
    EXPECT_EQ(t.Judge(0, {}).failure_class, "nondeterministic:optimized");
  }
  {
    TargetDef<int64_t> def = Def(Accept("a"), Accept("a"), kRequired);
    def.others[0].run = flip(Accept("a"), RejectAt(0));
    TypedTarget<int64_t> t(std::move(def));
    EXPECT_EQ(t.Judge(0, {}).failure_class, "nondeterministic:reference");
  }
  {  // the same error, once at offset 3 and once at offset 4
    TargetDef<int64_t> def = Def(RejectAt(3), RejectAt(3), kRequired);
    def.optimized.run = flip(InvalidAt(3, "x"), WithErrorOffset(InvalidAt(3, "x"), 4));
    TypedTarget<int64_t> t(std::move(def));
    EXPECT_EQ(t.Judge(0, {}).failure_class, "nondeterministic:optimized");
  }
}

// A fuzz binary's sample (SetRerunOneIn): the optimized side reruns on every input, the others
// exactly on the inputs whose FNV-1a hash the divisor divides; the default reruns everything.
TEST(VerdictNondeterminism, FuzzSampleRerunsOthersOnTheInputsItsHashPicks) {
  // Known FNV-1a 64 values: the empty string is the offset basis; "a" from the published tables.
  EXPECT_EQ(RerunHash(""), 0xcbf29ce484222325ULL);
  EXPECT_EQ(RerunHash("a"), 0xaf63dc4c8601ec8cULL);
  EXPECT_EQ(RerunHash("foobar"), 0x85944171f73967e8ULL);
  auto alternating = [] {
    auto calls = std::make_shared<int>(0);
    return [calls](const int64_t&) -> Output {
      return (*calls)++ % 2 == 0 ? Accept("a") : Accept("b");
    };
  };
  // The reference answers "a" on its first call for an input and "b" on its second: the
  // optimized side, which runs first, resets the count.
  TargetDef<int64_t> other = Def(Accept("a"), Accept("a"), kRequired);
  auto ref_calls = std::make_shared<int>(0);
  other.optimized.run = [ref_calls](const int64_t&) -> Output {
    *ref_calls = 0;
    return Accept("a");
  };
  other.others[0].run = [ref_calls](const int64_t&) -> Output {
    return (*ref_calls)++ == 0 ? Accept("a") : Accept("b");
  };
  TypedTarget<int64_t> other_t(std::move(other));
  TargetDef<int64_t> opt = Def(Accept("a"), Accept("a"), kRequired);
  opt.optimized.run = alternating();
  TypedTarget<int64_t> opt_t(std::move(opt));

  const RunConfig every_input;  // the default: rerun_one_in 1
  EXPECT_EQ(other_t.RunBytes("x", every_input).failure_class, "nondeterministic:reference");
  RunConfig fuzz;
  fuzz.rerun_one_in = kFuzzRerunOneIn;
  int picked = 0;
  for (int i = 0; i < 4000; ++i) {
    const std::string bytes = absl::StrCat("input ", i);
    const bool all = RerunHash(bytes) % kFuzzRerunOneIn == 0;
    EXPECT_EQ(RerunsAll(bytes, fuzz), all) << bytes;
    picked += all;
    EXPECT_EQ(other_t.RunBytes(bytes, fuzz).failure_class, all ? "nondeterministic:reference" : "")
        << bytes;
    EXPECT_EQ(opt_t.RunBytes(bytes, fuzz).failure_class, "nondeterministic:optimized") << bytes;
    // The same input under the default configuration reruns every implementation.
    EXPECT_EQ(other_t.RunBytes(bytes, every_input).failure_class, "nondeterministic:reference");
  }
  EXPECT_GT(picked, 4000 / 8 * 3 / 4);  // about one in eight
  EXPECT_LT(picked, 4000 / 8 * 5 / 4);
  RunConfig zero;
  zero.rerun_one_in = 0;  // 0 is taken as 1
  EXPECT_TRUE(RerunsAll("input 1", zero));
  EXPECT_EQ(other_t.RunBytes("input 1", zero).failure_class, "nondeterministic:reference");

  // SERDIFF_RERUN_ONE_IN overrides the fuzz default; garbage leaves the default.
  setenv("SERDIFF_RERUN_ONE_IN", "1", 1);
  EXPECT_EQ(FuzzRerunOneInFromEnvironment(), 1u);
  setenv("SERDIFF_RERUN_ONE_IN", "3", 1);
  EXPECT_EQ(FuzzRerunOneInFromEnvironment(), 3u);
  setenv("SERDIFF_RERUN_ONE_IN", "zero", 1);
  EXPECT_EQ(FuzzRerunOneInFromEnvironment(), kFuzzRerunOneIn);
  setenv("SERDIFF_RERUN_ONE_IN", "0", 1);
  EXPECT_EQ(FuzzRerunOneInFromEnvironment(), kFuzzRerunOneIn);
  unsetenv("SERDIFF_RERUN_ONE_IN");
  EXPECT_EQ(FuzzRerunOneInFromEnvironment(), kFuzzRerunOneIn);
}

// ---- heap bounds on every outcome ---------------------------------------------------------

// The optimized side allocates `scratch` bytes, then accepts or rejects.
TargetDef<int64_t> Allocating(bool accept, size_t scratch) {
  TargetDef<int64_t> def = Def(Accept(""), Accept(""), kWhenPresent);
  def.optimized.run = [accept, scratch](const int64_t&) -> Output {
    std::unique_ptr<char[]> p(new char[scratch]);
    g_sink = p.get();
    if (accept) return std::string("ok");
    return InvalidAt(0, "no");
  };
  def.others[0].run = [accept](const int64_t&) -> Output {
    if (accept) return std::string("ok");
    return InvalidAt(0, "no");
  };
  return def;
}

TEST(VerdictHeapBound, AppliesToAcceptedAndRejectedInputs) {
  for (bool accept : {true, false}) {
    for (size_t scratch : {size_t{100}, size_t{100000}}) {
      TargetDef<int64_t> def = Allocating(accept, scratch);
      std::string seen;
      def.heap_bound = HeapBound<int64_t>::Custom(
          "4 KiB", [&seen](const int64_t&, const Output& out) -> int64_t {
            seen = out.ok() ? "accepted" : "rejected";
            return 4096;
          });
      TypedTarget<int64_t> t(std::move(def));
      const CaseResult r = t.Judge(0, {});
      EXPECT_EQ(seen, accept ? "accepted" : "rejected");
      EXPECT_EQ(r.heap_bound_bytes, 4096);
      EXPECT_EQ(r.optimized_rejected, !accept);
      EXPECT_GE(r.optimized_peak_bytes, static_cast<int64_t>(scratch));
      EXPECT_EQ(r.failure_class, scratch > 4096 ? "heap-bound:optimized" : "")
          << "accept=" << accept << " scratch=" << scratch << "\n"
          << r.report;
      if (scratch > 4096) {
        EXPECT_NE(r.report.find(accept ? "(accepting the input)" : "(rejecting the input)"),
                  std::string::npos)
            << r.report;
      }
    }
  }
}

TEST(VerdictHeapBound, CustomBoundSeesTheRejectionAsSuch) {
  TargetDef<int64_t> def = Allocating(false, 100000);
  def.heap_bound = HeapBound<int64_t>::Custom(
      "output + 4 KiB, 8 KiB on a rejection", [](const int64_t&, const Output& out) -> int64_t {
        return out.ok() ? static_cast<int64_t>(out->size()) + 4096 : 8192;
      });
  TypedTarget<int64_t> t(std::move(def));
  const CaseResult r = t.Judge(0, {});
  EXPECT_EQ(r.heap_bound_bytes, 8192);
  EXPECT_EQ(r.failure_class, "heap-bound:optimized");
}

// A subject's known peak-heap departure (HeapDivergence) widens its bound by the allowance it
// gives for the input and the subject's answer, says so in the report, and nothing more: a peak
// over bound + allowance still fails, another implementation as subject gets none, and an
// allowance of 0 adds nothing.
TEST(VerdictHeapBound, HeapDivergenceAllowsItsSubjectOnly) {
  auto make = [](int64_t allowance) {
    TargetDef<int64_t> def = Allocating(false, 1);  // the optimized side rejects, allocating 1 B
    def.others[0].name = "ref_a";
    def.others[0].run = [](const int64_t& v) -> Output {  // rejects, allocating v bytes
      std::unique_ptr<char[]> p(new char[static_cast<size_t>(v)]);
      g_sink = p.get();
      return InvalidAt(0, "asked for the bytes");
    };
    def.heap_bound = HeapBound<int64_t>::Fixed(4096);
    def.heap_divergences.push_back(
        {"ref_a", "allocates before it checks", [allowance](const int64_t&, const Output& out) {
           return out.ok() ? 0 : allowance;  // keyed on the subject's answer
         }});
    return def;
  };
  RunConfig as_a;
  as_a.subject = "ref_a";
  TypedTarget<int64_t> t(make(200000));
  CaseResult r = t.Judge(100000, as_a);
  EXPECT_TRUE(r.passed) << r.report;
  EXPECT_EQ(r.heap_bound_bytes, 4096 + 200000);
  ASSERT_EQ(r.accepted.size(), 1u) << r.report;
  EXPECT_EQ(r.accepted[0], "ref_a: peak heap: allocates before it checks");
  // Under the plain bound the allowance is not needed and not listed.
  r = t.Judge(100, as_a);
  EXPECT_TRUE(r.passed) << r.report;
  EXPECT_TRUE(r.accepted.empty()) << r.report;
  // Over bound + allowance: a failure.
  EXPECT_EQ(t.Judge(300000, as_a).failure_class, "heap-bound:ref_a");
  // An allowance of 0 on this answer: the plain bound.
  TypedTarget<int64_t> none(make(0));
  EXPECT_EQ(none.Judge(100000, as_a).failure_class, "heap-bound:ref_a");
  // The optimized side as the subject: ref_a's departure is not its own.
  TargetDef<int64_t> def = make(200000);
  def.optimized.run = [](const int64_t& v) -> Output {
    std::unique_ptr<char[]> p(new char[static_cast<size_t>(v)]);
    g_sink = p.get();
    return InvalidAt(0, "no");
  };
  TypedTarget<int64_t> opt(std::move(def));
  EXPECT_EQ(opt.Judge(100000, {}).failure_class, "heap-bound:optimized");
}

// ---- corpus replay --------------------------------------------------------------------------

void WriteFile(const std::filesystem::path& p, const std::string& bytes) {
  std::filesystem::create_directories(p.parent_path());
  std::ofstream(p, std::ios::binary) << bytes;
}

TEST(CorpusReplay, ListsNestedFoldersSortedAndSkipsHiddenFilesAndFolders) {
  namespace fs = std::filesystem;
  const fs::path root = fs::path(::testing::TempDir()) / "serdiff_nested_corpus";
  fs::remove_all(root);
  WriteFile(root / "b0", "seed");
  WriteFile(root / "regressions" / "r1", "regression");
  WriteFile(root / "regressions" / "deeper" / "r2", "nested regression");
  WriteFile(root / "regressions" / ".keep", "");
  WriteFile(root / ".hidden", "x");
  WriteFile(root / ".cache" / "x", "inside a hidden folder");
  WriteFile(root / "regressions" / ".git" / "objects" / "y", "inside a hidden folder, deeper");
  const std::vector<std::string> files = ListCorpusFiles(root.string()).value();
  const std::vector<std::string> expected = {(root / "b0").string(),
                                             (root / "regressions" / "deeper" / "r2").string(),
                                             (root / "regressions" / "r1").string()};
  EXPECT_EQ(files, expected);
  EXPECT_TRUE(ListCorpusFiles((root / "absent").string())->empty());
}

// A failing input kept under regressions/ makes the target fail through the same path the
// replay uses (RunBytes on every listed file).
TEST(CorpusReplay, AFailingRegressionInputFailsTheReplay) {
  namespace fs = std::filesystem;
  const Target* t = serdiff::targets::SelfTestTargets().Find("selftest_broken_zigzag");
  ASSERT_NE(t, nullptr);
  const fs::path root = fs::path(::testing::TempDir()) / "serdiff_selftest_corpus";
  fs::remove_all(root);
  FuzzInputWriter w;
  w.WriteIntegral<int64_t>(-1);
  ASSERT_TRUE(WriteCorpusFile((root / "regressions").string(), w.Finish()).ok());
  int failed = 0;
  for (const std::string& f : std::vector<std::string>(ListCorpusFiles(root.string()).value())) {
    auto bytes = ReadFileBytes(f);
    ASSERT_TRUE(bytes.ok());
    if (!t->RunBytes(*bytes, {}).passed) ++failed;
  }
  EXPECT_EQ(failed, 1);
}

// Regular files directly or deeper below `dir`, counted without ListCorpusFiles.
std::set<std::string> FilesBelow(const std::filesystem::path& dir) {
  std::set<std::string> out;
  std::error_code ec;
  for (auto it = std::filesystem::recursive_directory_iterator(dir, ec);
       !ec && it != std::filesystem::end(it); it.increment(ec)) {
    if (it->is_regular_file() && it->path().filename().string()[0] != '.') {
      out.insert(it->path().string());
    }
  }
  return out;
}

// The replay (ListCorpusFiles of corpus/<target>) sees every file of every existing
// corpus/<target>/regressions/ folder, and the families whose development failures were kept
// have such folders.
TEST(CorpusReplay, SeesEveryRegressionFolder) {
  namespace fs = std::filesystem;
  int folders = 0;
  for (const auto& t : serdiff::targets::AllTargets().targets()) {
    const fs::path dir = fs::path(SERDIFF_CORPUS_DIR) / t->name();
    const fs::path reg = dir / "regressions";
    if (!fs::is_directory(reg)) continue;
    ++folders;
    const std::set<std::string> expected = FilesBelow(reg);
    EXPECT_FALSE(expected.empty()) << reg << " is empty";
    const std::vector<std::string> listed = ListCorpusFiles(dir.string()).value();
    const std::set<std::string> seen(listed.begin(), listed.end());
    for (const std::string& f : expected) EXPECT_TRUE(seen.count(f)) << f << " is not replayed";
  }
  for (const char* name :
       {"varint_leb128_decode", "varint_fory_decode", "varint_vint_decode", "varint_leb128_encode",
        "varint_zigzag64", "timestamp_civil_to_millis_floor"}) {
    EXPECT_TRUE(fs::is_directory(fs::path(SERDIFF_CORPUS_DIR) / name / "regressions"))
        << name << " has no regressions/ folder";
  }
  EXPECT_GE(folders, 6);
}

// `serdiff check`'s corpus pass replays every file of corpus/<target>/, regressions/ included:
// its JSON report's "corpus" count of each target equals the files below that folder, counted
// here without ListCorpusFiles (the in-process and libFuzzer replays are counted in
// tests/target_driver.cc and fuzz_replay.*).
TEST(CorpusReplay, CheckReplaysEveryFileOfEveryTarget) {
  namespace fs = std::filesystem;
  const std::string json = (fs::temp_directory_path() / "serdiff_check_corpus_count.json").string();
  const auto [status, out] = ::serdiff::testing_support::RunCli(
      absl::StrCat("--no-workers check --cases 0 --json ", json));
  ASSERT_EQ(status, 0) << out;
  auto text = ReadFileBytes(json);
  ASSERT_TRUE(text.ok()) << text.status();
  std::map<std::string, int> counted;
  const std::regex row(R"re(\{"target": "([a-z0-9_]+)", "corpus": ([0-9]+),)re");
  for (std::sregex_iterator it(text->begin(), text->end(), row), end; it != end; ++it) {
    counted[(*it)[1].str()] = std::stoi((*it)[2].str());
  }
  int with_regressions = 0;
  for (const auto& t : serdiff::targets::AllTargets().targets()) {
    const fs::path dir = fs::path(SERDIFF_CORPUS_DIR) / t->name();
    ASSERT_TRUE(counted.count(t->name())) << t->name() << " has no row in " << json;
    EXPECT_EQ(counted[t->name()], static_cast<int>(FilesBelow(dir).size())) << t->name();
    with_regressions += fs::is_directory(dir / "regressions");
  }
  EXPECT_GE(with_regressions, 6);
  std::remove(json.c_str());
}

}  // namespace
}  // namespace serdiff::harness
