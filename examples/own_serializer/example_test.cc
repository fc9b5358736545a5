// The example module (example_module.cc) judged by serdiff, built against an installed serdiff
// (find_package(serdiff)):
//   * the module's own bytes, called through serdiff's module loader;
//   * for bson_format_int64 and cql_typed_encode: the target lists the module as one of its
//     implementations, and with the module as the subject (RunConfig::subject "example") the
//     differential property passes, every file of the installed seed corpus passes, and the
//     module was compared on inputs (not declined on every one);
//   * cql_typed_encode on a grid of list<int> inputs (versions, counts, null ratios).
//
// EXAMPLE_MODULE (the module's path) and SERDIFF_CORPUS_DIR (<prefix>/share/serdiff/corpus)
// come from CMakeLists.txt. SERDIFF_MODULES is set in main(), before the registry is first
// built (serdiff::targets::AllTargets() reads it once).
#include <gtest/gtest.h>
#include <rapidcheck/gtest.h>

#include <cstdint>
#include <cstdlib>
#include <iostream>
#include <limits>
#include <string>
#include <vector>

#include "harness/corpus.h"
#include "harness/external.h"
#include "harness/target.h"
#include "targets/families.h"

namespace {

namespace h = serdiff::harness;

// The registry's run configuration (the environment's) with the module as the subject.
h::RunConfig AsSubject() {
  h::RunConfig c = serdiff::targets::AllTargets().config();
  c.subject = "example";
  return c;
}

const serdiff_op* FindOp(const serdiff_module* m, const std::string& name) {
  for (size_t i = 0; i < m->op_count; ++i) {
    if (name == m->ops[i].op) return &m->ops[i];
  }
  return nullptr;
}

std::string Hex(const std::string& bytes) {
  static const char kDigits[] = "0123456789abcdef";
  std::string out;
  for (unsigned char c : bytes) {
    out.push_back(kDigits[c >> 4]);
    out.push_back(kDigits[c & 15]);
  }
  return out;
}

// ---- the module itself: exact bytes ---------------------------------------------------------

TEST(ExampleModule, Int64ToDecimalExactBytes) {
  absl::StatusOr<const serdiff_module*> m = h::LoadModule(EXAMPLE_MODULE);
  ASSERT_TRUE(m.ok()) << m.status();
  EXPECT_STREQ((*m)->name, "example");
  const serdiff_op* op = FindOp(*m, "int64.to_decimal");
  ASSERT_NE(op, nullptr);
  ASSERT_EQ(op->form, SERDIFF_FORM_INT64);
  auto format = [&](int64_t v) {
    absl::StatusOr<std::string> out = h::CallModuleOp(*op, v, {}, nullptr);
    return out.ok() ? *out : "error: " + out.status().ToString();
  };
  EXPECT_EQ(format(std::numeric_limits<int64_t>::min()), "-9223372036854775808");
  EXPECT_EQ(format(std::numeric_limits<int64_t>::max()), "9223372036854775807");
  EXPECT_EQ(format(0), "0");
  EXPECT_EQ(format(-1), "-1");
  EXPECT_EQ(format(1000000), "1000000");
}

TEST(ExampleModule, CqlIntListExactBytes) {
  absl::StatusOr<const serdiff_module*> m = h::LoadModule(EXAMPLE_MODULE);
  ASSERT_TRUE(m.ok()) << m.status();
  const serdiff_op* op = FindOp(*m, "cql.serialize");
  ASSERT_NE(op, nullptr);
  ASSERT_EQ(op->form, SERDIFF_FORM_INT32_LIST);
  h::Int32List list;
  list.values = {1, 0, -2};
  list.nulls = {0, 1, 0};
  list.protocol_version = 4;
  absl::StatusOr<std::string> v4 = h::CallModuleOp(*op, 0, {}, &list);
  ASSERT_TRUE(v4.ok()) << v4.status();
  // count 3 | [4] 00000001 | [-1] | [4] fffffffe
  EXPECT_EQ(Hex(*v4),
            "00000003"
            "0000000400000001"
            "ffffffff"
            "00000004fffffffe");
  list.nulls.clear();
  list.protocol_version = 2;
  absl::StatusOr<std::string> v2 = h::CallModuleOp(*op, 0, {}, &list);
  ASSERT_TRUE(v2.ok()) << v2.status();
  EXPECT_EQ(Hex(*v2),
            "0003"
            "000400000001"
            "000400000000"
            "0004fffffffe");
  list.nulls = {0, 1, 0};
  EXPECT_FALSE(h::CallModuleOp(*op, 0, {}, &list).ok()) << "a null element has no v2 form";
}

// ---- serdiff's targets, with the module as the subject ----------------------------------------

class ModuleAsSubject : public testing::TestWithParam<const char*> {
 protected:
  void SetUp() override {
    target_ = serdiff::targets::AllTargets().Find(GetParam());
    ASSERT_NE(target_, nullptr) << "no target " << GetParam();
  }
  const h::Target* target_ = nullptr;
};

TEST_P(ModuleAsSubject, TargetListsTheModule) {
  bool found = false;
  for (const h::ImplInfo& impl : target_->info().impls) {
    if (impl.name != "example") continue;
    found = true;
    EXPECT_EQ(impl.kind, h::ImplKind::kModule);
  }
  EXPECT_TRUE(found) << GetParam() << " does not list the module: its implementations are "
                     << testing::PrintToString(target_->impl_names());
}

TEST_P(ModuleAsSubject, DifferentialPropertyPasses) {
  ASSERT_TRUE(target_->HasImpl("example"));
  const h::Target* t = target_;
  rc::detail::checkGTest([t] { t->RcDifferentialProperty(AsSubject()); });
  if (testing::Test::HasFailure()) {
    std::cerr << "shrunk counterexample (corpus form, hex): " << Hex(t->last_counterexample())
              << "\n";
  }
}

TEST_P(ModuleAsSubject, SeedCorpusPasses) {
  ASSERT_TRUE(target_->HasImpl("example"));
  const std::string dir = std::string(SERDIFF_CORPUS_DIR) + "/" + GetParam();
  const absl::StatusOr<std::vector<std::string>> files = h::ListCorpusFiles(dir);
  ASSERT_TRUE(files.ok()) << files.status();
  ASSERT_FALSE(files->empty()) << "no seed corpus in " << dir;
  for (const std::string& f : *files) {
    absl::StatusOr<std::string> bytes = h::ReadFileBytes(f);
    ASSERT_TRUE(bytes.ok()) << bytes.status();
    const h::CaseResult r = target_->RunBytes(*bytes, AsSubject());
    EXPECT_TRUE(r.passed) << f << "\n" << r.report;
  }
}

// The module took part: on some inputs it was run and did not decline (the subject declines
// the cql inputs that are no list<int>, which are then not judged).
TEST_P(ModuleAsSubject, ModuleIsCompared) {
  ASSERT_TRUE(target_->HasImpl("example"));
  int compared = 0, judged = 0;
  for (uint64_t seed = 1; seed <= 300; ++seed) {
    const h::CaseResult r = target_->RunGenerated(seed, static_cast<int>(seed % 101), AsSubject());
    ASSERT_TRUE(r.passed) << r.report;
    if (r.subject_declined) continue;
    ++judged;
    for (const auto& e : r.external) {
      if (e.name == "example" && e.is_subject && e.outcome != h::Outcome::kDeclined) ++compared;
    }
  }
  EXPECT_GT(compared, 0) << GetParam() << ": the module declined all 300 generated inputs";
  std::cout << GetParam() << ": the module was compared on " << compared << " of 300 generated "
            << "inputs (" << judged << " judged)\n";
}

// cql_typed_encode's generated inputs are seldom a list<int> (most hold other element types,
// which the module does not take): here a grid of list<int> inputs, written in the text form
// `serdiff show` prints and read back with the target's parser, each judged with the module
// as the subject. v1/v2 cannot hold a null element or more than 65535 elements: every
// implementation must reject those alike.
TEST(CqlTypedEncode, ListIntGridWithModuleAsSubject) {
  const h::Target* t = serdiff::targets::AllTargets().Find("cql_typed_encode");
  ASSERT_NE(t, nullptr);
  ASSERT_TRUE(t->HasImpl("example"));
  int compared = 0, rejected = 0;
  for (int version = 1; version <= 5; ++version) {
    // 31/32 (v3+) and 42/43 (v1/v2) elements with no null are the last payload that fits the
    // module's 256-byte room and the first that the module appends instead.
    for (int count : {0, 1, 3, 31, 32, 42, 43, 1000, 65535, 65536}) {
      for (const char* nulls : {"0%", "1%", "33%", "100%"}) {
        const std::string text = "v" + std::to_string(version) +
                                 " list<int> count=" + std::to_string(count) + " nulls=" + nulls +
                                 " seed=7";
        absl::StatusOr<std::string> bytes = t->BytesOfText(text);
        ASSERT_TRUE(bytes.ok()) << text << ": " << bytes.status();
        const h::CaseResult r = t->RunBytes(*bytes, AsSubject());
        EXPECT_TRUE(r.passed) << text << "\n" << r.report;
        for (const auto& e : r.external) {
          if (e.name != "example") continue;
          EXPECT_NE(e.outcome, h::Outcome::kDeclined) << text;
          ++compared;
          rejected += e.outcome == h::Outcome::kRejected;
        }
      }
    }
  }
  EXPECT_EQ(compared, 5 * 10 * 4);
  EXPECT_GT(rejected, 0) << "no v1/v2 input was rejected";
  std::cout << "list<int> grid: " << compared << " inputs compared, " << rejected
            << " rejected by every implementation\n";
}

INSTANTIATE_TEST_SUITE_P(Targets, ModuleAsSubject,
                         testing::Values("bson_format_int64", "cql_typed_encode"),
                         [](const testing::TestParamInfo<const char*>& info) {
                           return std::string(info.param);
                         });

}  // namespace

int main(int argc, char** argv) {
  setenv("SERDIFF_MODULES", EXAMPLE_MODULE, 1);
  testing::InitGoogleTest(&argc, argv);
  return RUN_ALL_TESTS();
}
