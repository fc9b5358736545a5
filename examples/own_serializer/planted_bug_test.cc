// The planted bug (example_module.cc compiled with -DEXAMPLE_PLANT_INT2STRING_BUG: INT64_MIN
// formatted by "negate, then print the digits") must be caught, the same way by every entry:
//   * in process: bson_format_int64 with the buggy module as the subject fails at INT64_MIN
//     with a failure class "bytes-mismatch:..." (RunBytes on INT64_MIN's corpus form, eight
//     zero bytes: an int64 is read as its offset from INT64_MIN);
//   * the installed CLI: `serdiff --module <buggy> --subject example repro bson_format_int64
//     <file>` exits 1 and ends with "serdiff: bson_format_int64: bytes-mismatch:...", and
//     `repro --shrink` ends with the same line;
//   * the fuzz binary (serdiff_add_fuzz_target) aborts on that file with the same line.
//
// EXAMPLE_BUGGY_MODULE, SERDIFF_CLI, EXAMPLE_FUZZ_BINARY: paths, from CMakeLists.txt.
#include <gtest/gtest.h>
#include <sys/wait.h>

#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <iostream>
#include <string>

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

const std::string kInt64Min(8, '\0');  // corpus form of INT64_MIN

struct CommandRun {
  int exit_code = -1;  // -1: ended by a signal
  std::string output;  // stdout and stderr
  // The last line starting "serdiff: ", or "".
  std::string LastSerdiffLine() const {
    std::string last;
    size_t at = 0;
    while (at < output.size()) {
      size_t end = output.find('\n', at);
      if (end == std::string::npos) end = output.size();
      const std::string line = output.substr(at, end - at);
      if (line.rfind("serdiff: ", 0) == 0) last = line;
      at = end + 1;
    }
    return last;
  }
};

CommandRun RunCommand(const std::string& command) {
  CommandRun r;
  FILE* p = popen((command + " 2>&1").c_str(), "r");
  if (p == nullptr) return r;
  char buf[4096];
  size_t n;
  while ((n = fread(buf, 1, sizeof buf, p)) > 0) r.output.append(buf, n);
  const int status = pclose(p);
  if (WIFEXITED(status)) r.exit_code = WEXITSTATUS(status);
  return r;
}

// A path as one shell word.
std::string Quote(const std::string& s) {
  std::string q = "'";
  for (char c : s) q += c == '\'' ? std::string("'\\''") : std::string(1, c);
  return q + "'";
}

// INT64_MIN's corpus file, in the current directory (ctest's: the build folder), one per test
// (ctest runs them in parallel).
std::string Int64MinFile() {
  const std::filesystem::path file =
      std::filesystem::current_path() /
      (std::string("int64_min.") + testing::UnitTest::GetInstance()->current_test_info()->name());
  std::ofstream(file, std::ios::binary) << kInt64Min;
  return file.string();
}

// The bug itself: INT64_MIN's digits come out as '0' minus each digit.
TEST(PlantedBug, BuggyModuleBytes) {
  absl::StatusOr<const serdiff_module*> m = h::LoadModule(EXAMPLE_BUGGY_MODULE);
  ASSERT_TRUE(m.ok()) << m.status();
  const serdiff_op* op = &(*m)->ops[0];
  ASSERT_STREQ(op->op, "int64.to_decimal");
  absl::StatusOr<std::string> out = h::CallModuleOp(*op, INT64_MIN, {}, nullptr);
  ASSERT_TRUE(out.ok()) << out.status();
  EXPECT_EQ(*out, "-'..--).0-*(+,))+(0(");
  out = h::CallModuleOp(*op, INT64_MIN + 1, {}, nullptr);
  ASSERT_TRUE(out.ok()) << out.status();
  EXPECT_EQ(*out, "-9223372036854775807");
}

TEST(PlantedBug, RunBytesFailsAtInt64Min) {
  const h::Target* t = serdiff::targets::AllTargets().Find("bson_format_int64");
  ASSERT_NE(t, nullptr);
  ASSERT_TRUE(t->HasImpl("example")) << "the buggy module did not join bson_format_int64";
  EXPECT_EQ(t->ShowBytes(kInt64Min), "-9223372036854775808");
  const h::CaseResult r = t->RunBytes(kInt64Min, AsSubject(), h::Render::kAlways);
  EXPECT_FALSE(r.passed) << r.report;
  EXPECT_EQ(r.failure_class.rfind("bytes-mismatch:", 0), 0u) << r.failure_class << "\n" << r.report;
  std::cout << r.report;
  // Every other value is formatted right: -1 (all 0xff but the top bit) and INT64_MIN + 1.
  EXPECT_TRUE(t->RunBytes(std::string("\x01\0\0\0\0\0\0\0", 8), AsSubject()).passed);
  EXPECT_TRUE(t->RunBytes(std::string("\xff\xff\xff\xff\xff\xff\xff\x7f", 8), AsSubject()).passed);
}

// The CLI's options --module and --subject go before the subcommand. This process's own
// SERDIFF_MODULES (set in main) is not passed on: the module is named once, by --module.
std::string Cli(const std::string& subcommand) {
  return "env -u SERDIFF_MODULES -u SERDIFF_SUBJECT " + Quote(SERDIFF_CLI) + " --module " +
         Quote(EXAMPLE_BUGGY_MODULE) + " --subject example " + subcommand;
}

TEST(PlantedBug, CliReproExitsOne) {
  const std::string file = Int64MinFile();
  const CommandRun r = RunCommand(Cli("repro bson_format_int64 " + Quote(file)));
  EXPECT_EQ(r.exit_code, 1) << r.output;
  EXPECT_EQ(r.LastSerdiffLine().rfind("serdiff: bson_format_int64: bytes-mismatch:", 0), 0u)
      << r.output;
  const CommandRun shrunk = RunCommand(Cli("repro --shrink bson_format_int64 " + Quote(file)));
  EXPECT_EQ(shrunk.exit_code, 1) << shrunk.output;
  EXPECT_EQ(shrunk.LastSerdiffLine(), r.LastSerdiffLine()) << shrunk.output;
}

TEST(PlantedBug, FuzzBinaryAbortsOnInt64Min) {
  const std::string file = Int64MinFile();
  const CommandRun r =
      RunCommand("env SERDIFF_MODULES=" + Quote(EXAMPLE_BUGGY_MODULE) +
                 " SERDIFF_SUBJECT=example " + Quote(EXAMPLE_FUZZ_BINARY) + " " + Quote(file));
  EXPECT_NE(r.exit_code, 0) << r.output;
  EXPECT_NE(r.output.find("serdiff: bson_format_int64: bytes-mismatch:"), std::string::npos)
      << r.output;
}

}  // namespace

int main(int argc, char** argv) {
  setenv("SERDIFF_MODULES", EXAMPLE_BUGGY_MODULE, 1);
  testing::InitGoogleTest(&argc, argv);
  return RUN_ALL_TESTS();
}
