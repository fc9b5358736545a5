// Derives four or five GoogleTest tests from every registered target:
//   <target>.DifferentialAgreesWithReferences  RapidCheck property (with shrinking) over the
//                                              target's domain; a failing, shrunk input is
//                                              written in corpus-file form and its
//                                              `serdiff repro` command printed
//   <target>.DomainDecodeInvertsEncode         decode(encode(v)) == v for the domain
//   <target>.DomainParseInvertsShow            parse(show(v)) == v, for a domain with a parser
//                                              (skipping values whose printed form elides)
//   <target>.CorpusReplayPasses                every file in corpus/<target>/ (recursive),
//                                              and no file of corpus/<target>/regressions/
//                                              (counted independently) is left out
//   <target>.CorpusPrintedValuesUnchanged      every value recorded in
//                                              tests/data/corpus-printed/<target>.tsv is still
//                                              what some corpus file decodes to (a corpus
//                                              byte-form change keeps each file's meaning)
// Failing inputs go to $SERDIFF_FAILURES_DIR (default ./serdiff-failures)/<target>/.
#include <gtest/gtest.h>
#include <rapidcheck/gtest.h>

#include <algorithm>
#include <cstdlib>
#include <filesystem>
#include <iostream>
#include <set>

#include "absl/strings/escaping.h"
#include "absl/strings/match.h"
#include "absl/strings/str_cat.h"
#include "absl/strings/str_split.h"
#include "harness/corpus.h"
#include "harness/target.h"
#include "targets/families.h"

namespace serdiff::harness {
namespace {

std::string FailuresDir(const Target& t) {
  const char* env = std::getenv("SERDIFF_FAILURES_DIR");
  return absl::StrCat(env != nullptr ? env : "serdiff-failures", "/", t.name());
}

void Differential(const Target& t) {
  rc::detail::checkGTest(
      [&t] { t.RcDifferentialProperty(serdiff::targets::AllTargets().config()); });
  if (testing::Test::HasFailure() && !t.last_counterexample().empty()) {
    auto path = WriteCorpusFile(FailuresDir(t), t.last_counterexample());
    if (path.ok()) {
      std::cerr << "minimal failing input saved; reproduce with:\n  serdiff repro " << t.name()
                << " " << *path << "\n"
                << "keep it as a regression input: corpus/" << t.name() << "/regressions/\n";
    }
  }
}

void DomainRoundTrip(const Target& t) {
  rc::detail::checkGTest([&t] { t.RcDomainRoundTripProperty(); });
}

void ParseShow(const Target& t) {
  rc::detail::checkGTest([&t] { t.RcParseInvertsShowProperty(); });
}

// Regular, non-hidden files below `dir` (recursive), counted without ListCorpusFiles.
int CountFilesBelow(const std::string& dir) {
  namespace fs = std::filesystem;
  int n = 0;
  std::error_code ec;
  if (!fs::is_directory(dir, ec)) return 0;
  for (auto it = fs::recursive_directory_iterator(dir, ec); !ec && it != fs::end(it);
       it.increment(ec)) {
    if (it->is_regular_file(ec) && it->path().filename().string()[0] != '.') ++n;
  }
  return n;
}

void CorpusReplay(const Target& t) {
  const std::string dir = absl::StrCat(SERDIFF_CORPUS_DIR, "/", t.name());
  const std::vector<std::string> files = ListCorpusFiles(dir).value();
  EXPECT_FALSE(files.empty()) << "no seed corpus in " << dir;
  int regressions = 0;
  for (const std::string& f : files) {
    if (absl::StrContains(f, "/regressions/")) ++regressions;
    auto bytes = ReadFileBytes(f);
    ASSERT_TRUE(bytes.ok()) << bytes.status();
    CaseResult r = t.RunBytes(*bytes, serdiff::targets::AllTargets().config());
    EXPECT_TRUE(r.passed) << f << "\n" << r.report;
  }
  EXPECT_EQ(regressions, CountFilesBelow(dir + "/regressions"))
      << "the replay left out inputs of " << dir << "/regressions/";
}

// The meaning of the shipped corpus. tests/data/corpus-printed/<target>.tsv (written by
// scripts/corpus-printed) holds "<file>\t<printed value, C-escaped>" per corpus file. Each
// recorded value must be printed by one file of corpus/<target>/ (a multiset match: corpus
// files are named by the SHA-1 of their bytes, so a converted file has a new name). Files
// added since the record was written are not in it and are not checked here.
void CorpusPrinted(const Target& t) {
  const std::string record =
      absl::StrCat(SERDIFF_SOURCE_DIR, "/tests/data/corpus-printed/", t.name(), ".tsv");
  auto text = ReadFileBytes(record);
  ASSERT_TRUE(text.ok()) << "no record of the corpus's printed values: run "
                            "scripts/corpus-printed build/dev "
                         << t.name() << "\n"
                         << text.status();
  std::multiset<std::string> printed;
  for (const std::string& f : std::vector<std::string>(
           ListCorpusFiles(absl::StrCat(SERDIFF_CORPUS_DIR, "/", t.name())).value())) {
    auto bytes = ReadFileBytes(f);
    ASSERT_TRUE(bytes.ok()) << bytes.status();
    printed.insert(t.ShowBytes(*bytes));
  }
  int recorded = 0;
  for (absl::string_view line : absl::StrSplit(*text, '\n', absl::SkipEmpty())) {
    const size_t tab = line.find('\t');
    ASSERT_NE(tab, absl::string_view::npos) << record << ": no tab in line: " << line;
    std::string value;
    ASSERT_TRUE(absl::CUnescape(line.substr(tab + 1), &value)) << record << ": " << line;
    ++recorded;
    auto it = printed.find(value);
    if (it == printed.end()) {
      ADD_FAILURE() << "corpus/" << t.name() << "/" << line.substr(0, tab) << " was recorded as\n  "
                    << value << "\nand no corpus file decodes to that value now";
    } else {
      printed.erase(it);
    }
  }
  EXPECT_GT(recorded, 0) << record << " is empty";
}

// One registered test: its body run on one target.
class TargetTest : public testing::Test {
 public:
  TargetTest(const Target* t, void (*body)(const Target&)) : t_(t), body_(body) {}
  void TestBody() override { body_(*t_); }

 private:
  const Target* t_;
  void (*body_)(const Target&);
};

void RegisterAll(const Registry& registry) {
  struct PerTarget {
    const char* name;
    void (*body)(const Target&);
    bool only_with_parser;
  };
  static constexpr PerTarget kTests[] = {
      {"DifferentialAgreesWithReferences", Differential, false},
      {"DomainDecodeInvertsEncode", DomainRoundTrip, false},
      {"DomainParseInvertsShow", ParseShow, true},
      {"CorpusReplayPasses", CorpusReplay, false},
      {"CorpusPrintedValuesUnchanged", CorpusPrinted, false},
  };
  for (const auto& t : registry.targets()) {
    const Target* target = t.get();
    for (const PerTarget& test : kTests) {
      if (test.only_with_parser && !target->has_parser()) continue;
      testing::RegisterTest(
          target->name().c_str(), test.name, nullptr, nullptr, __FILE__, __LINE__,
          [target, body = test.body]() -> testing::Test* { return new TargetTest(target, body); });
    }
  }
}

}  // namespace

// CMake builds one fuzz binary per row of fuzz/limits.tsv whose family is built; those names must
// be exactly the registered targets, or a target would go unfuzzed (or a fuzz binary would abort).
TEST(Registry, FuzzTargetListsMatchTheRegistry) {
  std::vector<std::string> listed =
      absl::StrSplit(SERDIFF_FUZZ_TARGET_NAMES, ',', absl::SkipEmpty());
  std::vector<std::string> registered;
  for (const auto& t : serdiff::targets::AllTargets().targets()) registered.push_back(t->name());
  std::sort(listed.begin(), listed.end());
  std::sort(registered.begin(), registered.end());
  EXPECT_EQ(listed, registered);
}

}  // namespace serdiff::harness

int main(int argc, char** argv) {
  testing::InitGoogleTest(&argc, argv);
  serdiff::harness::RegisterAll(serdiff::targets::AllTargets());
  return RUN_ALL_TESTS();
}
