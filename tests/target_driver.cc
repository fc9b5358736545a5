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

class DifferentialTest : public testing::Test {
 public:
  explicit DifferentialTest(const Target* t) : t_(t) {}
  void TestBody() override {
    rc::detail::checkGTest([this] { t_->RcDifferentialProperty(); });
    if (HasFailure() && !t_->last_counterexample().empty()) {
      auto path = WriteCorpusFile(FailuresDir(*t_), t_->last_counterexample());
      if (path.ok()) {
        std::cerr << "minimal failing input saved; reproduce with:\n  serdiff repro " << t_->name()
                  << " " << *path << "\n"
                  << "keep it as a regression input: corpus/" << t_->name() << "/regressions/\n";
      }
    }
  }

 private:
  const Target* t_;
};

class DomainRoundTripTest : public testing::Test {
 public:
  explicit DomainRoundTripTest(const Target* t) : t_(t) {}
  void TestBody() override {
    rc::detail::checkGTest([this] { t_->RcDomainRoundTripProperty(); });
  }

 private:
  const Target* t_;
};

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

class ParseShowTest : public testing::Test {
 public:
  explicit ParseShowTest(const Target* t) : t_(t) {}
  void TestBody() override {
    rc::detail::checkGTest([this] { t_->RcParseInvertsShowProperty(); });
  }

 private:
  const Target* t_;
};

class CorpusReplayTest : public testing::Test {
 public:
  explicit CorpusReplayTest(const Target* t) : t_(t) {}
  void TestBody() override {
    const std::string dir = absl::StrCat(SERDIFF_CORPUS_DIR, "/", t_->name());
    const std::vector<std::string> files = ListCorpusFiles(dir);
    EXPECT_FALSE(files.empty()) << "no seed corpus in " << dir;
    int regressions = 0;
    for (const std::string& f : files) {
      if (absl::StrContains(f, "/regressions/")) ++regressions;
      auto bytes = ReadFileBytes(f);
      ASSERT_TRUE(bytes.ok()) << bytes.status();
      CaseResult r = t_->RunBytes(*bytes);
      EXPECT_TRUE(r.passed) << f << "\n" << r.report;
    }
    EXPECT_EQ(regressions, CountFilesBelow(dir + "/regressions"))
        << "the replay left out inputs of " << dir << "/regressions/";
  }

 private:
  const Target* t_;
};

// The meaning of the shipped corpus. tests/data/corpus-printed/<target>.tsv (written by
// scripts/corpus-printed) holds "<file>\t<printed value, C-escaped>" per corpus file. Each
// recorded value must be printed by one file of corpus/<target>/ (a multiset match: corpus
// files are named by the SHA-1 of their bytes, so a converted file has a new name). Files
// added since the record was written are not in it and are not checked here.
class CorpusPrintedTest : public testing::Test {
 public:
  explicit CorpusPrintedTest(const Target* t) : t_(t) {}
  void TestBody() override {
    const std::string record =
        absl::StrCat(SERDIFF_SOURCE_DIR, "/tests/data/corpus-printed/", t_->name(), ".tsv");
    auto text = ReadFileBytes(record);
    ASSERT_TRUE(text.ok()) << "no record of the corpus's printed values: run "
                              "scripts/corpus-printed build/dev "
                           << t_->name() << "\n"
                           << text.status();
    std::multiset<std::string> printed;
    for (const std::string& f :
         ListCorpusFiles(absl::StrCat(SERDIFF_CORPUS_DIR, "/", t_->name()))) {
      auto bytes = ReadFileBytes(f);
      ASSERT_TRUE(bytes.ok()) << bytes.status();
      printed.insert(t_->ShowBytes(*bytes));
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
        ADD_FAILURE() << "corpus/" << t_->name() << "/" << line.substr(0, tab)
                      << " was recorded as\n  " << value
                      << "\nand no corpus file decodes to that value now";
      } else {
        printed.erase(it);
      }
    }
    EXPECT_GT(recorded, 0) << record << " is empty";
  }

 private:
  const Target* t_;
};

void RegisterAll(const Registry& registry) {
  for (const auto& t : registry.targets()) {
    const Target* target = t.get();
    const char* suite = target->name().c_str();
    testing::RegisterTest(suite, "DifferentialAgreesWithReferences", nullptr, nullptr, __FILE__,
                          __LINE__,
                          [target]() -> testing::Test* { return new DifferentialTest(target); });
    testing::RegisterTest(suite, "DomainDecodeInvertsEncode", nullptr, nullptr, __FILE__, __LINE__,
                          [target]() -> testing::Test* { return new DomainRoundTripTest(target); });
    if (target->has_parser()) {
      testing::RegisterTest(suite, "DomainParseInvertsShow", nullptr, nullptr, __FILE__, __LINE__,
                            [target]() -> testing::Test* { return new ParseShowTest(target); });
    }
    testing::RegisterTest(suite, "CorpusReplayPasses", nullptr, nullptr, __FILE__, __LINE__,
                          [target]() -> testing::Test* { return new CorpusReplayTest(target); });
    testing::RegisterTest(suite, "CorpusPrintedValuesUnchanged", nullptr, nullptr, __FILE__,
                          __LINE__,
                          [target]() -> testing::Test* { return new CorpusPrintedTest(target); });
  }
}

}  // namespace

// CMake builds one fuzz binary per name in targets/*.targets; those names must be exactly
// the registered targets, or a target would go unfuzzed (or a fuzz binary would abort).
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
