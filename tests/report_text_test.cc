// The words of a failure report, exactly (harness/report.cc, harness/verdict.cc): each side's
// bytes under its own name, which side accepted, each implementation's own output and peak even
// when it ran once, and a corpus file written twice holding its bytes once. A developer acts on
// these lines (docs/architecture.md, "Reports"); a report that names the wrong side sends them
// to the wrong code.
#include <gtest/gtest.h>

#include <filesystem>
#include <memory>
#include <string>

#include "absl/strings/match.h"
#include "harness/corpus.h"
#include "harness/domains.h"
#include "harness/target.h"
#include "serdiff/common/error_offset.h"

namespace serdiff::harness {
namespace {

void* volatile g_sink;

TargetDef<int64_t> Tiny(Output opt, Output ref) {
  TargetDef<int64_t> def;
  def.name = "tiny_report";
  def.domain = IntegerDomain<int64_t>("int64", rc::gen::arbitrary<int64_t>());
  def.optimized = {"optimized", [opt](const int64_t&) { return opt; }};
  def.others.push_back({"reference", [ref](const int64_t&) { return ref; }});
  return def;
}

TEST(ReportText, ABytesMismatchShowsEachSideUnderItsOwnName) {
  TypedTarget<int64_t> t(Tiny(std::string("abc"), std::string("ab")));
  const CaseResult r = t.Judge(0, {});
  EXPECT_EQ(r.failure_class, "bytes-mismatch:reference");
  EXPECT_EQ(r.first_difference, 2);
  EXPECT_EQ(r.details,
            "first differing byte at offset 2 (optimized has 3 bytes, reference has 2)\n"
            "  optimized  @0: 61 62 [63]\n"
            "  reference  @0: 61 62 [--]");  // no byte there
}

TEST(ReportText, AClassMismatchSaysWhichSideAccepted) {
  TypedTarget<int64_t> a(Tiny(std::string("ab"), InvalidAt(1, "no")));
  EXPECT_EQ(a.Judge(0, {}).details, "optimized accepted the input but reference rejected it");
  TypedTarget<int64_t> b(Tiny(InvalidAt(1, "no"), std::string("ab")));
  EXPECT_EQ(b.Judge(0, {}).details, "optimized rejected the input but reference accepted it");
}

// Each output line is that implementation's first run, also when the others ran once (a fuzz
// binary's sample, rerun_all false); each peak is its own.
TEST(ReportText, EachLineIsItsImplementationsOwnOutputAndPeak) {
  TargetDef<int64_t> def = Tiny(std::string("ab"), std::string("ac"));
  def.others[0] = {"reference", [](const int64_t&) -> Output {
                     std::unique_ptr<char[]> p(new char[5000]);
                     g_sink = p.get();
                     return std::string("ac");
                   }};
  TypedTarget<int64_t> t(std::move(def));
  const CaseResult r = t.Judge(0, {}, Render::kAlways, /*rerun_all=*/false);
  EXPECT_TRUE(absl::StrContains(r.report, "\n  optimized  2 bytes: 61 62\n")) << r.report;
  EXPECT_TRUE(absl::StrContains(r.report, "\n  reference  2 bytes: 61 63\n")) << r.report;
  EXPECT_TRUE(absl::StrContains(r.report, "peak heap: optimized 0 bytes, reference 5000 bytes\n"))
      << r.report;
  EXPECT_TRUE(absl::StrContains(r.report, "verdict: FAIL\n")) << r.report;
}

TEST(CorpusFiles, AnInputWrittenTwiceIsKeptOnce) {
  const std::string dir =
      (std::filesystem::temp_directory_path() / "serdiff_report_text_corpus").string();
  std::filesystem::remove_all(dir);
  const absl::StatusOr<std::string> first = WriteCorpusFile(dir, "xyz");
  const absl::StatusOr<std::string> second = WriteCorpusFile(dir, "xyz");
  ASSERT_TRUE(first.ok() && second.ok());
  EXPECT_EQ(*first, *second);
  EXPECT_EQ(*ReadFileBytes(*first), "xyz");
  std::filesystem::remove_all(dir);
}

}  // namespace
}  // namespace serdiff::harness
