// `serdiff repro --shrink`: a crash file planted from the deliberately broken self-test target
// (targets/selftest/selftest.cc: ZigZag64 with a logical shift, wrong for every negative int64)
// shrinks to the smallest failing value, -1, with the same `serdiff:` line.
#include "harness/shrink.h"

#include <cstdio>
#include <filesystem>
#include <fstream>
#include <string>
#include <vector>

#include <gtest/gtest.h>

#include "absl/strings/match.h"
#include "absl/strings/str_cat.h"
#include "harness/corpus.h"
#include "harness/fuzz_input.h"
#include "targets/families.h"
#include "tests/run_cli.h"

namespace serdiff::harness {
namespace {

using ::serdiff::testing_support::RunCli;

const Target& Broken() {
  const Target* t = targets::SelfTestTargets().Find("selftest_broken_zigzag");
  EXPECT_NE(t, nullptr);
  return *t;
}

std::string Int64Input(int64_t v) {
  FuzzInputWriter w;
  w.WriteIntegral<int64_t>(v);
  return w.Finish();
}

// -1 in corpus form: its offset from INT64_MIN (0x7fffffffffffffff), most significant byte
// last (fuzz_input.h).
const std::string kMinusOne("\xff\xff\xff\xff\xff\xff\xff\x7f", 8);

TEST(Shrink, PlantedCrashShrinksToMinusOneWithTheSameLine) {
  const std::string planted = Int64Input(-123456789012345);
  ASSERT_EQ(Int64Input(-1), kMinusOne);
  auto s = Shrink(Broken(), {}, planted);
  ASSERT_TRUE(s.ok()) << s.status();
  EXPECT_EQ(s->failure_class, "bytes-mismatch:reference");
  EXPECT_EQ(s->before_value, "-123456789012345");
  EXPECT_EQ(s->after_value, "-1");
  EXPECT_EQ(s->after_bytes, kMinusOne);
  EXPECT_NE(s->after_report.find("\nserdiff: selftest_broken_zigzag: bytes-mismatch:reference\n"),
            std::string::npos)
      << s->after_report;
  // The shrunk input, replayed on its own, fails the same way.
  const CaseResult r = Broken().RunBytes(s->after_bytes, {});
  EXPECT_FALSE(r.passed);
  EXPECT_EQ(r.failure_class, "bytes-mismatch:reference");
}

TEST(Shrink, FromTheFarEndOfTheDomainToo) {
  // INT64_MIN is all-zero bytes in corpus form: every step has to move the top byte first.
  auto s = Shrink(Broken(), {}, Int64Input(INT64_MIN));
  ASSERT_TRUE(s.ok()) << s.status();
  EXPECT_EQ(s->before_value, "-9223372036854775808");
  EXPECT_EQ(s->after_value, "-1");
  EXPECT_EQ(s->after_bytes, kMinusOne);
}

const Target& TwoBugs() {
  const Target* t = targets::SelfTestTargets().Find("selftest_two_bugs");
  EXPECT_NE(t, nullptr);
  return *t;
}

int64_t ShownInt(const std::string& shown) { return std::stoll(shown); }

// selftest_two_bugs fails two ways: error-class-mismatch:reference on -1000..-1 (the
// optimized side rejects), bytes-mismatch:reference below -1000. A shrinker that took any
// failure would go from -1500 to -1 (the smallest failing value); it must stay below -1000.
TEST(Shrink, KeepsTheFailureClassOnATargetThatFailsTwoWays) {
  ASSERT_EQ(TwoBugs().RunBytes(Int64Input(-1), {}).failure_class, "error-class-mismatch:reference");
  ASSERT_EQ(TwoBugs().RunBytes(Int64Input(-1500), {}).failure_class, "bytes-mismatch:reference");
  auto s = Shrink(TwoBugs(), {}, Int64Input(-1500));
  ASSERT_TRUE(s.ok()) << s.status();
  EXPECT_EQ(s->failure_class, "bytes-mismatch:reference");
  EXPECT_LT(ShownInt(s->after_value), -1000) << s->after_value;
  EXPECT_GT(s->steps, 0);
  EXPECT_EQ(TwoBugs().RunBytes(s->after_bytes, {}).failure_class, "bytes-mismatch:reference");
  // -1500 is declined by picky already, so no candidate is refused for that.
  EXPECT_EQ(s->refused_declined, 0);
}

// From -5000 (compared by reference AND picky) the same class holds down to -1001, but
// picky declines -1999..-1: the shrunk input must stay where picky still compares it, and
// the result says that smaller candidates were refused, and by whom.
TEST(Shrink, KeepsEveryImplementationThatComparedTheOriginal) {
  const CaseResult original = TwoBugs().RunBytes(Int64Input(-5000), {});
  ASSERT_EQ(original.failure_class, "bytes-mismatch:reference");
  EXPECT_TRUE(original.declined.empty());
  const CaseResult inside = TwoBugs().RunBytes(Int64Input(-1500), {});
  EXPECT_EQ(inside.declined, std::vector<std::string>{"picky"});
  auto s = Shrink(TwoBugs(), {}, Int64Input(-5000));
  ASSERT_TRUE(s.ok()) << s.status();
  EXPECT_EQ(s->failure_class, "bytes-mismatch:reference");
  EXPECT_LE(ShownInt(s->after_value), -2000) << s->after_value;
  // Exactly one smaller candidate was refused (the shrinker's walk is deterministic): a count
  // that also took larger or passing candidates, or counted a refusal twice, differs.
  EXPECT_EQ(s->refused_declined, 1);
  EXPECT_EQ(s->after_value, "-2049");
  EXPECT_EQ(s->steps, 12);
  EXPECT_EQ(s->declined_by, std::vector<std::string>{"picky"});
  EXPECT_TRUE(TwoBugs().RunBytes(s->after_bytes, {}).declined.empty());
}

// selftest_two_impls fails one way, bytes-mismatch, against "second" on -1000..-1 and against
// "first" below -1000. From -1500 the shrunk input must still fail against "first": a
// candidate failing the same kind against another implementation is another failure.
TEST(Shrink, KeepsTheImplementationTheClassNames) {
  const Target* t = targets::SelfTestTargets().Find("selftest_two_impls");
  ASSERT_NE(t, nullptr);
  ASSERT_EQ(t->RunBytes(Int64Input(-1), {}).failure_class, "bytes-mismatch:second");
  ASSERT_EQ(t->RunBytes(Int64Input(-1500), {}).failure_class, "bytes-mismatch:first");
  auto s = Shrink(*t, {}, Int64Input(-1500));
  ASSERT_TRUE(s.ok()) << s.status();
  EXPECT_EQ(s->failure_class, "bytes-mismatch:first");
  EXPECT_LT(ShownInt(s->after_value), -1000) << s->after_value;
  EXPECT_GT(s->steps, 0);
  EXPECT_EQ(t->RunBytes(s->after_bytes, {}).failure_class, "bytes-mismatch:first");
}

TEST(Shrink, CliSaysWhenItKeptTheComparison) {
  const auto dir = std::filesystem::temp_directory_path() / "serdiff_shrink_keep_test";
  std::filesystem::remove_all(dir);
  std::filesystem::create_directories(dir);
  const std::string crash = (dir / "crash").string();
  std::ofstream(crash, std::ios::binary) << Int64Input(-5000);
  const auto [code, out] =
      RunCli(absl::StrCat("--selftest repro --shrink --shrink-dir ", (dir / "shrunk").string(),
                          " selftest_two_bugs ", crash));
  EXPECT_EQ(code, 1) << out;
  EXPECT_NE(out.find(" smaller candidates failed the same way but were declined by picky, which "
                     "compared the original; the input above is the smallest that every "
                     "implementation of the original still compares\n"),
            std::string::npos)
      << out;
  std::filesystem::remove_all(dir);
}

// A domain whose canonical form is not its input's (a byte read as v, written back as v % 100):
// the optimized side fails from 100 up. The shrink must keep bytes that fail, not the canonical
// form of 150 (which is 50, and passes): it ends on the smallest failing value, 100, as the
// bytes it ran.
TEST(Shrink, KeepsTheBytesWhenTheCanonicalFormMeansAnotherValue) {
  TargetDef<uint8_t> def;
  def.name = "lossy";
  def.domain.type_name = "byte";
  def.domain.gen = rc::gen::arbitrary<uint8_t>();
  def.domain.decode = [](FuzzedDataProvider& p) { return p.ConsumeIntegral<uint8_t>(); };
  def.domain.encode = [](const uint8_t& v, FuzzInputWriter& w) {
    w.WriteIntegral<uint8_t>(static_cast<uint8_t>(v % 100));
  };
  def.domain.show = [](const uint8_t& v) { return std::to_string(v); };
  def.optimized = {"optimized", [](const uint8_t& v) -> Output { return v >= 100 ? "x" : "y"; }};
  def.others.push_back({"reference", [](const uint8_t&) -> Output { return "y"; }});
  const TypedTarget<uint8_t> t(std::move(def));
  FuzzInputWriter w;
  w.WriteIntegral<uint8_t>(150);
  const std::string raw = w.Finish();
  ASSERT_EQ(t.ShowBytes(t.CanonicalBytes(raw)), "50");
  auto s = Shrink(t, {}, raw);
  ASSERT_TRUE(s.ok()) << s.status();
  EXPECT_EQ(s->after_value, "100");
  const CaseResult r = t.RunBytes(s->after_bytes, {});
  EXPECT_FALSE(r.passed) << t.ShowBytes(s->after_bytes);
  EXPECT_EQ(r.failure_class, "bytes-mismatch:reference");
  // ShrinkWhile (review's) keeps failing bytes the same way.
  auto w2 = ShrinkWhile(t, raw, [&](const std::string& bytes) {
    const CaseResult c = t.RunBytes(bytes, {});
    return c.passed ? std::string() : c.failure_class;
  });
  ASSERT_TRUE(w2.ok()) << w2.status();
  EXPECT_FALSE(t.RunBytes(w2->after_bytes, {}).passed) << t.ShowBytes(w2->after_bytes);
}

TEST(Shrink, APassingInputIsAnError) {
  auto s = Shrink(Broken(), {}, Int64Input(5));
  ASSERT_FALSE(s.ok());
  EXPECT_EQ(s.status().code(), absl::StatusCode::kInvalidArgument);
}

TEST(Shrink, ReproCommandsNameEveryConsumerByAbsolutePath) {
  ReproTools tools;
  tools.serdiff = "/b/dev/tools/serdiff";
  tools.ctest_tree = "/b/dev";
  tools.fuzz_binary = "/b/dev/fuzz/serdiff_fuzz_replay";
  tools.fuzz_binary_replays = true;
  // A run without the default workers (a fuzz binary's, `serdiff --no-workers`): the CLI would
  // join them, so every line says it must not.
  EXPECT_EQ(ReproCommands("varint_zigzag64", "/tmp/crash-1", false, tools, {}),
            "reproduce:\n"
            "  SERDIFF_DEFAULT_WORKERS=0 /b/dev/tools/serdiff repro varint_zigzag64 /tmp/crash-1"
            "   # the report\n"
            "  SERDIFF_DEFAULT_WORKERS=0 /b/dev/tools/serdiff repro --shrink --emit-regression "
            "varint_zigzag64 /tmp/crash-1"
            "   # smallest value, kept in corpus/varint_zigzag64/regressions/\n"
            "  cmake --build /b/dev && SERDIFF_DEFAULT_WORKERS=0 ctest --test-dir /b/dev "
            "--no-tests=error -R "
            "'^(varint_zigzag64\\.CorpusReplayPasses|fuzz_replay\\.varint_zigzag64)$'"
            "   # ctest, once kept as a regression (rebuilds first)\n"
            "  SERDIFF_DEFAULT_WORKERS=0 /b/dev/fuzz/serdiff_fuzz_replay varint_zigzag64 "
            "/tmp/crash-1   # the fuzz entry point (replay binary)\n");
  // A run with them (`serdiff check`): ctest and the fuzz binary would not join them.
  RunConfig with_defaults;
  with_defaults.external.default_workers = true;
  const std::string report = ReproCommands("varint_zigzag64", "/x", false, tools, with_defaults);
  EXPECT_EQ(report.substr(0, report.find('\n', 12) + 1),
            "reproduce:\n  SERDIFF_DEFAULT_WORKERS=1 /b/dev/tools/serdiff repro varint_zigzag64 /x"
            "   # the report\n");
  EXPECT_NE(report.find("&& SERDIFF_DEFAULT_WORKERS=1 ctest "), std::string::npos) << report;
  EXPECT_NE(report.find("  SERDIFF_DEFAULT_WORKERS=1 /b/dev/fuzz/serdiff_fuzz_replay "),
            std::string::npos)
      << report;
  // With the CLI alone, which joins them by default as the run did: nothing to say.
  ReproTools cli_only;
  cli_only.serdiff = "/b/dev/tools/serdiff";
  EXPECT_EQ(ReproCommands("varint_zigzag64", "/x", false, cli_only, with_defaults),
            "reproduce:\n"
            "  /b/dev/tools/serdiff repro varint_zigzag64 /x   # the report\n"
            "  /b/dev/tools/serdiff repro --shrink --emit-regression varint_zigzag64 /x"
            "   # smallest value, kept in corpus/varint_zigzag64/regressions/\n");
  // A worker or a module as a peer only (no subject) reaches every line too.
  RunConfig peer;
  peer.external.worker_files = {"/w/a.json"};
  EXPECT_EQ(ReproCommands("varint_zigzag64", "/x", false, cli_only, peer),
            "reproduce:\n"
            "  SERDIFF_DEFAULT_WORKERS=0 SERDIFF_WORKERS=/w/a.json /b/dev/tools/serdiff repro "
            "varint_zigzag64 /x   # the report\n"
            "  SERDIFF_DEFAULT_WORKERS=0 SERDIFF_WORKERS=/w/a.json /b/dev/tools/serdiff repro "
            "--shrink --emit-regression varint_zigzag64 /x"
            "   # smallest value, kept in corpus/varint_zigzag64/regressions/\n");
  RunConfig module;
  module.external.default_workers = true;
  module.external.module_files = {"/m/x.so"};
  const std::string with_module = ReproCommands("varint_zigzag64", "/x", false, cli_only, module);
  EXPECT_EQ(with_module.rfind("reproduce:\n  SERDIFF_DEFAULT_WORKERS=1 SERDIFF_MODULES=/m/x.so "
                              "/b/dev/tools/serdiff repro ",
                              0),
            0u)
      << with_module;
}

TEST(Shrink, ReproCommandsOfAFuzzBinaryNameOnlyWhatItsBuildHas) {
  ReproTools tools;
  tools.fuzz_binary = "/out/varint_zigzag64";
  tools.oss_fuzz = true;
  // A relative file is made absolute against the current directory.
  const std::string cwd = std::filesystem::current_path().string();
  EXPECT_EQ(ReproCommands("varint_zigzag64", "crash-1", false, tools, {}),
            absl::StrCat("reproduce:\n"
                         "  /out/varint_zigzag64 ",
                         cwd,
                         "/crash-1   # the libFuzzer binary\n"
                         "  python infra/helper.py reproduce serdiff varint_zigzag64 ",
                         cwd, "/crash-1   # from an OSS-Fuzz checkout\n"));
  // With no CLI but a source tree, the repro lines build the CLI first; odd paths are quoted.
  tools.oss_fuzz = false;
  tools.source_dir = "/src/my serdiff";
  EXPECT_EQ(
      ReproCommands("varint_zigzag64", "/c/it's", false, tools, {}),
      "reproduce:\n"
      "  (cd '/src/my serdiff' && cmake --preset dev >/dev/null && cmake --build --preset "
      "dev --target serdiff >/dev/null) && SERDIFF_DEFAULT_WORKERS=0 "
      "'/src/my serdiff/build/dev/tools/serdiff' repro "
      "varint_zigzag64 '/c/it'\\''s'   # the report\n"
      "  (cd '/src/my serdiff' && cmake --preset dev >/dev/null && cmake --build --preset "
      "dev --target serdiff >/dev/null) && SERDIFF_DEFAULT_WORKERS=0 "
      "'/src/my serdiff/build/dev/tools/serdiff' repro "
      "--shrink --emit-regression varint_zigzag64 '/c/it'\\''s'"
      "   # smallest value, kept in corpus/varint_zigzag64/regressions/\n"
      "  SERDIFF_DEFAULT_WORKERS=0 /out/varint_zigzag64 '/c/it'\\''s'   # the libFuzzer binary\n");
  // A self-test target: the CLI lines only, with --selftest and no regression.
  ReproTools cli;
  cli.serdiff = "/b/tools/serdiff";
  cli.ctest_tree = "/b";
  EXPECT_EQ(ReproCommands("selftest_broken_zigzag", "/x", true, cli, {}),
            "reproduce:\n"
            "  /b/tools/serdiff --selftest repro selftest_broken_zigzag /x   # the report\n"
            "  /b/tools/serdiff --selftest repro --shrink selftest_broken_zigzag /x"
            "   # smallest value failing the same way\n");
}

// A manifest or module whose path holds a ':' is escaped in the list the lines set.
TEST(Shrink, ReproCommandsEscapeAColonInAFileList) {
  RunConfig config;
  config.external.default_workers = false;
  config.external.worker_files = {"/w/at 10:00/a.json", "/w/b.json"};
  config.external.module_files = {"/m:n/x.so"};
  ReproTools tools;
  tools.serdiff = "/b/serdiff";
  const std::string out = ReproCommands("varint_zigzag64", "/tmp/c", false, tools, config);
  EXPECT_TRUE(absl::StrContains(
      out, "SERDIFF_WORKERS='/w/at 10\\:00/a.json:/w/b.json' SERDIFF_MODULES='/m\\:n/x.so' "))
      << out;
}

// A finding with a subject, workers or modules reproduces only when every printed command
// judges with the same implementations: each line carries them in its environment, whichever
// tree printed it (with its own CLI, or a fuzz build with none, whose lines build the CLI).
TEST(Shrink, ReproCommandsCarryTheSubjectWorkersAndModulesOnEveryLine) {
  RunConfig config;
  config.subject = "python_cassandra";
  config.external.default_workers = false;
  config.external.worker_files = {"/w/a.json", "/w/b c.json"};
  config.external.module_files = {"/m/x.so"};
  const std::string env =
      "SERDIFF_DEFAULT_WORKERS=0 SERDIFF_SUBJECT=python_cassandra "
      "SERDIFF_WORKERS='/w/a.json:/w/b c.json' SERDIFF_MODULES=/m/x.so ";
  ReproTools tools;
  tools.serdiff = "/b/dev/tools/serdiff";
  tools.ctest_tree = "/b/dev";
  tools.fuzz_binary = "/b/dev/fuzz/cql_typed_encode";
  EXPECT_EQ(
      ReproCommands("cql_typed_encode", "/tmp/c", false, tools, config),
      absl::StrCat("reproduce:\n"
                   "  ",
                   env,
                   "/b/dev/tools/serdiff repro cql_typed_encode /tmp/c   # the report\n"
                   "  ",
                   env,
                   "/b/dev/tools/serdiff repro --shrink --emit-regression cql_typed_encode "
                   "/tmp/c   # smallest value, kept in corpus/cql_typed_encode/regressions/\n"
                   "  cmake --build /b/dev && ",
                   env,
                   "ctest --test-dir /b/dev --no-tests=error -R "
                   "'^(cql_typed_encode\\.CorpusReplayPasses|fuzz_replay\\.cql_typed_encode)$'"
                   "   # ctest, once kept as a regression (rebuilds first)\n"
                   "  ",
                   env, "/b/dev/fuzz/cql_typed_encode /tmp/c   # the libFuzzer binary\n"));
  // A fuzz build without the CLI: the lines that build it still hand the environment to it.
  ReproTools fuzz_only;
  fuzz_only.fuzz_binary = "/b/fuzz/fuzz/cql_typed_encode";
  fuzz_only.source_dir = "/src";
  const std::string build =
      "(cd /src && cmake --preset dev >/dev/null && cmake --build --preset dev --target serdiff "
      ">/dev/null) && ";
  EXPECT_EQ(ReproCommands("cql_typed_encode", "/tmp/c", false, fuzz_only, config),
            absl::StrCat("reproduce:\n"
                         "  ",
                         build, env,
                         "/src/build/dev/tools/serdiff repro cql_typed_encode /tmp/c   # the "
                         "report\n"
                         "  ",
                         build, env,
                         "/src/build/dev/tools/serdiff repro --shrink --emit-regression "
                         "cql_typed_encode /tmp/c   # smallest value, kept in "
                         "corpus/cql_typed_encode/regressions/\n"
                         "  ",
                         env, "/b/fuzz/fuzz/cql_typed_encode /tmp/c   # the libFuzzer binary\n"));
}

TEST(Shrink, FindReproToolsSeesOnlyFilesThatExist) {
  namespace fs = std::filesystem;
  const fs::path tree = fs::temp_directory_path() / "serdiff_repro_tools_test";
  fs::remove_all(tree);
  fs::create_directories(tree / "tools");
  fs::create_directories(tree / "fuzz");
  auto touch = [](const fs::path& p, bool exec) {
    std::ofstream(p) << "x";
    if (exec) fs::permissions(p, fs::perms::owner_all);
  };
  touch(tree / "tools" / "serdiff", true);
  // A fuzz binary of the target: its own tree's CLI, itself, no ctest (no tests/ folder).
  touch(tree / "fuzz" / "cql_decode", true);
  ReproTools t = FindReproTools("cql_decode", (tree / "fuzz" / "cql_decode").string());
  EXPECT_EQ(t.serdiff, (tree / "tools" / "serdiff").string());
  EXPECT_EQ(t.fuzz_binary, (tree / "fuzz" / "cql_decode").string());
  EXPECT_FALSE(t.fuzz_binary_replays);
  EXPECT_EQ(t.ctest_tree, "");
  // The CLI of a tree with tests and only the replay binary; a file that is not executable
  // is not a binary.
  fs::create_directories(tree / "tests");
  touch(tree / "tests" / "CTestTestfile.cmake", false);
  touch(tree / "fuzz" / "serdiff_fuzz_replay", true);
  touch(tree / "fuzz" / "bson_decode", false);
  t = FindReproTools("bson_decode", (tree / "tools" / "serdiff").string());
  EXPECT_EQ(t.serdiff, (tree / "tools" / "serdiff").string());
  EXPECT_EQ(t.fuzz_binary, (tree / "fuzz" / "serdiff_fuzz_replay").string());
  EXPECT_TRUE(t.fuzz_binary_replays);
  EXPECT_EQ(t.ctest_tree, tree.string());
  // An OSS-Fuzz $OUT: the binary itself, nothing else.
  fs::create_directories(tree / "out");
  touch(tree / "out" / "bson_decode", true);
  t = FindReproTools("bson_decode", (tree / "out" / "bson_decode").string());
  EXPECT_EQ(t.serdiff, "");
  EXPECT_EQ(t.fuzz_binary, (tree / "out" / "bson_decode").string());
  EXPECT_EQ(t.ctest_tree, "");
  EXPECT_EQ(FindReproTools("bson_decode", "").fuzz_binary, "");
  // A project's own fuzz binary (serdiff_add_fuzz_target names it <prefix>_<target>) names
  // itself; a binary of another name does not.
  fs::create_directories(tree / "example");
  touch(tree / "example" / "example_fuzz_bson_decode", true);
  EXPECT_EQ(FindReproTools("bson_decode", (tree / "example" / "example_fuzz_bson_decode").string())
                .fuzz_binary,
            (tree / "example" / "example_fuzz_bson_decode").string());
  touch(tree / "example" / "tool", true);
  EXPECT_EQ(FindReproTools("bson_decode", (tree / "example" / "tool").string()).fuzz_binary, "");
  fs::remove_all(tree);
}

TEST(Shrink, CliShrinksAndEmitsARegression) {
  const auto dir = std::filesystem::temp_directory_path() / "serdiff_shrink_test";
  std::filesystem::remove_all(dir);
  std::filesystem::create_directories(dir);
  const std::string crash = (dir / "crash-planted").string();
  std::ofstream(crash, std::ios::binary) << Int64Input(-987654321);
  const auto [code, out] = RunCli(absl::StrCat(
      "--selftest repro --shrink --emit-regression --shrink-dir ", (dir / "shrunk").string(),
      " --corpus ", (dir / "corpus").string(), " selftest_broken_zigzag ", crash));
  EXPECT_EQ(code, 1) << out;
  EXPECT_NE(out.find("  before: -987654321\n"), std::string::npos) << out;
  EXPECT_NE(out.find("  after:  -1\n          ff ff ff ff ff ff ff 7f (8 bytes)\n"),
            std::string::npos)
      << out;
  const std::string sha = Sha1Hex(kMinusOne);
  EXPECT_TRUE(std::filesystem::exists(dir / "shrunk" / "selftest_broken_zigzag" / sha));
  EXPECT_TRUE(
      std::filesystem::exists(dir / "corpus" / "selftest_broken_zigzag" / "regressions" / sha));
  EXPECT_NE(out.find("serdiff: selftest_broken_zigzag: bytes-mismatch:reference\nreproduce:\n"),
            std::string::npos)
      << out;
  // The file judged and every reproduce line name the kept regression, not the crash file.
  const std::string kept =
      (dir / "corpus" / "selftest_broken_zigzag" / "regressions" / sha).string();
  EXPECT_NE(out.find("file:   " + kept + " (8 bytes)\n"), std::string::npos) << out;
  // Nothing was declined on the way: no note about a kept comparison.
  EXPECT_EQ(out.find("kept the comparison"), std::string::npos) << out;
  EXPECT_NE(out.find(" repro selftest_broken_zigzag " + kept), std::string::npos) << out;
  EXPECT_EQ(out.find(" repro selftest_broken_zigzag " + crash), std::string::npos) << out;
  std::filesystem::remove_all(dir);
}

}  // namespace
}  // namespace serdiff::harness
