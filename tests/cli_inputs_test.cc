// What the CLI does with inputs it cannot judge: a corpus file it cannot read fails `serdiff
// check` and `serdiff review` (never skipped in silence: a replay that left a file out would
// pass on less than it claims); a review whose after side declined every input writes no pass
// in its JSON or Markdown report; a review between sides that share only some targets reviews
// those alone.
#include <unistd.h>

#include <filesystem>
#include <fstream>
#include <set>
#include <sstream>
#include <string>
#include <tuple>

#include <gtest/gtest.h>
#include <nlohmann/json.hpp>

#include "absl/strings/match.h"
#include "absl/strings/str_cat.h"
#include "harness/run_config.h"
#include "tests/run_cli.h"

namespace serdiff {
namespace {

using testing_support::RunCli;
namespace fs = std::filesystem;

std::string TempDir(const std::string& name) {
  return testing_support::TempDir("cli_inputs", name);
}

std::string Slurp(const std::string& path) {
  std::ifstream f(path);
  std::stringstream s;
  s << f.rdbuf();
  return s.str();
}

const std::string kExampleWorker =
    std::string(SERDIFF_CORPUS_DIR) + "/../examples/own_worker/worker.json";

// A corpus holding one good seed and one file over the 64 MiB a corpus file may hold (sparse:
// it takes no disk).
std::string CorpusWithAnUnreadableFile() {
  const std::string root = TempDir("corpus");
  const fs::path dir = fs::path(root) / "varint_leb128_encode";
  fs::create_directories(dir);
  std::ofstream(dir / "a_good_seed", std::ios::binary) << std::string("\x01\x02", 2);
  std::ofstream(dir / "b_too_large", std::ios::binary).close();
  fs::resize_file(dir / "b_too_large", (64u << 20) + 1);
  return root;
}

TEST(CliInputs, ACorpusFileThatCannotBeReadFailsCheck) {
  const std::string root = CorpusWithAnUnreadableFile();
  const auto [rc, out] = RunCli(
      absl::StrCat("--no-workers check --filter varint_leb128_encode --cases 0 --corpus ", root));
  EXPECT_EQ(rc, 1) << out;
  EXPECT_TRUE(absl::StrContains(out, "b_too_large")) << out;
  // Listed with its reason, in the summary and the JSON report (no repro: no input to give it).
  EXPECT_TRUE(absl::StrContains(out, "FAIL varint_leb128_encode: unreadable-input\n  ")) << out;
  const auto [rc_json, json] = RunCli(absl::StrCat(
      "--no-workers check --filter varint_leb128_encode --cases 0 --json - --corpus ", root));
  EXPECT_EQ(rc_json, 1) << json;
  EXPECT_TRUE(absl::StrContains(json, "\"class\": \"unreadable-input\", \"path\": \"" + root +
                                          "/varint_leb128_encode/b_too_large\", \"unreadable\": "))
      << json;
  fs::remove_all(root);
}

TEST(CliInputs, ACorpusFileThatCannotBeReadFailsReview) {
  const std::string root = CorpusWithAnUnreadableFile();
  const auto [rc, out] = RunCli(absl::StrCat(
      "--no-workers review --before reference --after optimized --filter varint_leb128_encode "
      "--cases 0 --time-rounds 0 --corpus ",
      root));
  EXPECT_EQ(rc, 2) << out;
  EXPECT_TRUE(absl::StrContains(out, "serdiff review: ")) << out;
  EXPECT_TRUE(absl::StrContains(out, "b_too_large")) << out;
  fs::remove_all(root);
}

// A misspelt variant makes the after side decline every input: the JSON report says
// "passed":false and the Markdown names the verdict, as the exit status (2) does.
TEST(CliInputs, NothingComparedIsNoPassInTheReports) {
  if (std::system("test -x /usr/bin/python3") != 0) GTEST_SKIP() << "no /usr/bin/python3";
  const std::string dir = TempDir("declined");
  const auto [rc, out] = RunCli(
      absl::StrCat("review --before ", kExampleWorker, " --after ", kExampleWorker,
                   " --after-env MY_WORKER_VARIANT=fragmnets --filter cql_typed_encode --cases 3 "
                   "--time-rounds 0 --out ",
                   dir, " --json ", dir, "/r.json --markdown ", dir, "/r.md"));
  EXPECT_EQ(rc, 2) << out;
  const std::string json = Slurp(dir + "/r.json");
  EXPECT_TRUE(absl::StrContains(json, "\"passed\":false")) << json;
  const std::string md = Slurp(dir + "/r.md");
  EXPECT_TRUE(absl::StrContains(md, "Verdict: **nothing compared, every input declined**")) << md;
  fs::remove_all(dir);
}

// The example worker joins four targets; `optimized` has every target. Without --filter the
// review takes the four both sides have, and no target where one side is missing (that side
// would "reject" every input, a class change that is no change of the serializer).
TEST(CliInputs, AReviewTakesOnlyTheTargetsBothSidesHave) {
  if (std::system("test -x /usr/bin/python3") != 0) GTEST_SKIP() << "no /usr/bin/python3";
  const std::string dir = TempDir("shared");
  const auto [rc, out] =
      RunCli(absl::StrCat("review --before optimized --after ", kExampleWorker,
                          " --cases 2 --time-rounds 0 --corpus ", dir, "/none --out ", dir));
  EXPECT_NE(rc, 2) << out;  // the Python worker peaks above the optimized side: heap-grew
  EXPECT_TRUE(absl::StrContains(out, "; 4 targets;")) << out;
  EXPECT_TRUE(absl::StrContains(out, "over 4 targets")) << out;
  EXPECT_FALSE(absl::StrContains(out, "class-changed")) << out;
  fs::remove_all(dir);
}

// A side named by a word that no target's implementation has (a typo, a manifest path without its
// .json) is named as such, not as a pair of implementations no target has.
TEST(CliInputs, AReviewSideThatNamesNoImplementationIsNamed) {
  for (const char* side : {"--before optimised --after reference",
                           "--before optimized --after "
                           "oracles/fmt/worker"}) {
    const auto [rc, out] = RunCli(absl::StrCat("review ", side, " --cases 2"));
    EXPECT_EQ(rc, 2) << out;
    EXPECT_TRUE(absl::StrContains(out,
                                  "is not a worker manifest (.json), a module (.so) or an "
                                  "implementation of any target"))
        << out;
  }
  // A shipped implementation's name still names it.
  const auto [rc, out] =
      RunCli("review --before optimized --after reference --filter varint_zigzag64 --cases 5");
  EXPECT_EQ(rc, 0) << out;
}

// SERDIFF_WORKERS is a ':'-list; a manifest whose path holds a ':' is named with "\\:", and the
// reproduce lines name it so.
TEST(CliInputs, AManifestPathWithAColonIsNamedInTheList) {
  EXPECT_EQ(harness::SplitFileList("/a.json:/b\\:c.json::/d\\\\e\\f:"),
            (std::vector<std::string>{"/a.json", "/b:c.json", "/d\\e\\f"}));
  const std::vector<std::string> files = {"/x:y/z.json", "/p\\q", "/r\\", ":"};
  EXPECT_EQ(harness::JoinFileList(files), "/x\\:y/z.json:/p\\\\q:/r\\\\:\\:");
  EXPECT_EQ(harness::SplitFileList(harness::JoinFileList(files)), files);
  if (std::system("test -x /usr/bin/python3") != 0) GTEST_SKIP() << "no /usr/bin/python3";
  const std::string dir = TempDir("colon");
  fs::create_symlink(fs::path(kExampleWorker).parent_path(), dir + "/at 10:00");
  fs::create_directories(dir + "/none");
  const auto [rc, out] = testing_support::RunShell(
      absl::StrCat("SERDIFF_WORKERS='", dir, "/at 10\\:00/worker.json' ", SERDIFF_CLI,
                   " check --filter cql_typed_encode --cases 20 --corpus ", dir, "/none"));
  EXPECT_EQ(rc, 0) << out;
  EXPECT_TRUE(absl::StrContains(out, "my_worker")) << out;
  fs::remove_all(dir);
}

// A worker or module named on the command line that cannot be attached is an I/O error (exit 2)
// for every command that judges, never a run without it that passes.
TEST(CliInputs, AWorkerOrModuleThatCannotBeAttachedIsAnError) {
  const std::string dir = TempDir("attach");
  const std::string missing = dir + "/missing.json";
  const std::string file = dir + "/input";
  std::ofstream(file, std::ios::binary) << std::string(8, '\x01');
  for (const std::string& args :
       {absl::StrCat("--no-workers --worker ", missing,
                     " check --filter bson_format_int64 --cases 2"),
        absl::StrCat("--no-workers --module ", dir, "/missing.so repro bson_format_int64 ", file),
        absl::StrCat("--no-workers --worker ", missing, " repro bson_format_int64 ", file),
        absl::StrCat("review --before optimized --after ", missing, " --cases 1")}) {
    const auto [rc, out] = RunCli(args);
    EXPECT_EQ(rc, 2) << args << "\n" << out;
    EXPECT_TRUE(absl::StrContains(out, "/missing.")) << args << "\n" << out;  // names it
  }
  fs::remove_all(dir);
}

// A seed or count out of its range is refused (exit 2) with the range, never wrapped: "-1" and
// 2^64 were both read as 2^64 - 1 in silence.
TEST(CliInputs, SeedsAndCountsOutOfRangeAreRefused) {
  for (const std::string& bad :
       {std::string("check --seed -1"), std::string("check --seed 18446744073709551616"),
        std::string("seed varint_zigzag64 --seed -1 --value 1"),
        std::string("review --before optimized --after reference --seed -1"),
        std::string("check --cases -1"), std::string("check --cases 99999999999999"),
        std::string("review --before optimized --after reference --cases -2"),
        std::string("review --before optimized --after reference --heap-slack -1")}) {
    const auto [rc, out] = RunCli("--no-workers " + bad);
    EXPECT_EQ(rc, 2) << bad << "\n" << out;
    EXPECT_TRUE(absl::StrContains(out, "must be a whole number from 0 to ")) << bad << "\n" << out;
  }
  const auto [rc, out] = RunCli(
      "--no-workers check --filter varint_zigzag64 --cases 1 --seed 18446744073709551615 --json -");
  EXPECT_EQ(rc, 0) << out;
  EXPECT_TRUE(absl::StrContains(out, "\"seed\": 18446744073709551615")) << out;
}

// A manifest's target name that no target has and no family of the project could have (a typo)
// is an attach problem, not a worker dropped in silence from the run.
TEST(CliInputs, AManifestsMisspeltTargetIsAnError) {
  const std::string dir = TempDir("typo");
  const std::string m = dir + "/typo.json";
  std::ofstream(m) << R"({"name": "typo", "command": ["/usr/bin/python3", "x.py"],)"
                   << R"( "targets": ["BSON_format_int64", "bsn_decode", "bson_format_int65"],)"
                   << R"( "default": false})";
  const auto [rc, out] = RunCli(
      absl::StrCat("--no-workers --worker ", m, " check --filter bson_format_int64 --cases 2"));
  EXPECT_EQ(rc, 2) << out;
  for (const char* name : {"BSON_format_int64", "bsn_decode", "bson_format_int65"}) {
    EXPECT_TRUE(absl::StrContains(
        out, absl::StrCat("serdiff: not attached: ", m, ": no target ", name, "\n")))
        << out;
  }
  fs::remove_all(dir);
}

// A named worker that cannot even start (its script missing; text on its stdout before its
// hello) is a problem of the run (exit 2, "not attached ... could not start"), told before any
// input: not one worker-crashed finding that no rerun confirms, after which review passed.
TEST(CliInputs, ANamedWorkerThatCannotStartIsAnError) {
  if (std::system("test -x /usr/bin/python3") != 0) GTEST_SKIP() << "no /usr/bin/python3";
  const std::string dir = TempDir("no_start");
  const std::string file = dir + "/input";
  std::ofstream(file, std::ios::binary) << std::string(8, '\x01');
  std::ofstream(dir + "/prints.py") << "print('starting up')\n";
  for (const auto& [name, script, why] :
       {std::tuple<std::string, std::string, std::string>{"gone", dir + "/no_such_script.py",
                                                          "worker-crashed: gone: the worker ended"},
        {"prints", dir + "/prints.py", "read as text: \"star\""}}) {
    const std::string m = absl::StrCat(dir, "/", name, ".json");
    std::ofstream(m) << R"({"name": ")" << name << R"(", "command": ["/usr/bin/python3", ")"
                     << script << R"("], "targets": ["bson_format_int64"], "default": false})";
    for (const std::string& args :
         {absl::StrCat("--no-workers --worker ", m, " check --filter bson_format_int64 --cases 2"),
          absl::StrCat("--no-workers --worker ", m, " repro bson_format_int64 ", file),
          absl::StrCat("review --before optimized --after ", m, " --cases 2 --out ", dir, "/o"),
          absl::StrCat("review --before ", m, " --after optimized --cases 2 --out ", dir, "/o")}) {
      const auto [rc, out] = RunCli(args);
      EXPECT_EQ(rc, 2) << args << "\n" << out;
      EXPECT_TRUE(absl::StrContains(
          out, absl::StrCat("not attached: ", name, " (", m, "): the worker could not start: ")))
          << args << "\n"
          << out;
      EXPECT_TRUE(absl::StrContains(out, why)) << args << "\n" << out;
    }
  }
  fs::remove_all(dir);
}

// A subject that declines every input (here the example worker started with a variant it does
// not know) was judged on nothing: check says so per target, with the reason, and exits 2; a
// repro of one of its inputs says "not judged" and exits 2 too.
TEST(CliInputs, ASubjectThatDeclinedEverythingIsNoPass) {
  if (std::system("test -x /usr/bin/python3") != 0) GTEST_SKIP() << "no /usr/bin/python3";
  const std::string dir = TempDir("declines");
  nlohmann::ordered_json manifest = nlohmann::ordered_json::parse(Slurp(kExampleWorker));
  manifest["command"][1] = (fs::path(kExampleWorker).parent_path() / "worker.py").string();
  manifest["env"] = {{"MY_WORKER_VARIANT", "typo"}};
  std::ofstream(dir + "/declines.json") << manifest.dump();
  const auto [rc, out] =
      RunCli(absl::StrCat("--no-workers --worker ", dir,
                          "/declines.json --subject my_worker "
                          "check --filter bson_format_int64 --cases 3 --failures-dir ",
                          dir, "/f"));
  EXPECT_EQ(rc, 2) << out;
  EXPECT_TRUE(absl::StrContains(out,
                                "my_worker declined every input of bson_format_int64: "
                                "MY_WORKER_VARIANT=typo is not one of fragments, batch"))
      << out;
  EXPECT_TRUE(absl::StrContains(out, "serdiff: NOTHING JUDGED: my_worker declined every input"))
      << out;
  const std::string file = dir + "/input";
  std::ofstream(file, std::ios::binary) << std::string(8, '\x01');
  const auto [rc2, out2] = RunCli(absl::StrCat("--no-workers --worker ", dir,
                                               "/declines.json --subject my_worker repro "
                                               "bson_format_int64 ",
                                               file));
  EXPECT_EQ(rc2, 2) << out2;
  EXPECT_TRUE(absl::StrContains(out2, "verdict: not judged (my_worker declined the input)"))
      << out2;
  fs::remove_all(dir);
}

// Options that would be ignored are refused: --target without --input, --filter with it, and a
// --max-slowdown with no timing to hold to it.
TEST(CliInputs, ReviewRefusesOptionsItWouldIgnore) {
  const std::string base =
      "--no-workers review --before optimized --after reference --cases 1 --time-rounds 0 ";
  for (const std::string& extra : {std::string("--target varint_zigzag64"),
                                   std::string("--filter varint --target varint_zigzag64 "
                                               "--input /dev/null"),
                                   std::string("--filter varint_zigzag64 --max-slowdown 50")}) {
    const auto [rc, out] = RunCli(base + extra);
    EXPECT_EQ(rc, 2) << extra << "\n" << out;
    EXPECT_TRUE(absl::StrContains(out, "serdiff review: --")) << extra << "\n" << out;
  }
}

// check's FAIL lines carry the run's --subject (a repro without it judges another side), and an
// input met twice is one failure, printed once.
TEST(CliInputs, AFailLineReproducesWithTheSubjectAndEachInputOnce) {
  const std::string dir = TempDir("fail_lines");
  const auto [rc, out] = RunCli(absl::StrCat(
      "--selftest --no-workers --subject reference check --filter selftest_broken_zigzag "
      "--cases 5 --failures-dir ",
      dir));
  EXPECT_EQ(rc, 1) << out;
  EXPECT_TRUE(absl::StrContains(out,
                                " --selftest --no-workers --subject reference repro "
                                "selftest_broken_zigzag "))
      << out;
  std::set<std::string> lines;
  size_t fails = 0;
  for (size_t at = out.find("\nFAIL "); at != std::string::npos; at = out.find("\nFAIL ", at + 1)) {
    const size_t end = out.find('\n', out.find('\n', at + 1) + 1);
    lines.insert(out.substr(at, end - at));
    ++fails;
  }
  EXPECT_GE(fails, 1u) << out;  // 5 cases meet the input -1 twice: one failure
  EXPECT_EQ(lines.size(), fails) << "a FAIL line printed twice:\n" << out;
  fs::remove_all(dir);
}

}  // namespace
}  // namespace serdiff
