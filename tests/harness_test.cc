// Tests of the harness engine itself: allocation tracker, corpus-file form, reports,
// the verdict rules and the repro output.
#include <gtest/gtest.h>

#include <algorithm>
#include <cstdio>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <iterator>
#include <map>
#include <memory>
#include <set>
#include <string>
#include <vector>

#include "absl/strings/str_cat.h"
#include "harness/alloc_tracker.h"
#include "harness/corpus.h"
#include "harness/domains.h"
#include "harness/fuzz_input.h"
#include "harness/hex.h"
#include "harness/target.h"
#include "targets/families.h"
#include "tests/run_cli.h"

namespace serdiff::harness {
namespace {

constexpr int64_t kMiB = 1 << 20;

// Keeps the compiler from eliding new/delete pairs.
void* volatile g_sink;

TEST(PeakHeapScope, OneMiBFreedThenHalfMiBPeaksAtOneMiB) {
  ASSERT_TRUE(AllocationTrackingActive());
  PeakHeapScope scope;
  {
    auto a = std::make_unique<char[]>(kMiB);
    g_sink = a.get();
  }
  auto b = std::make_unique<char[]>(kMiB / 2);
  g_sink = b.get();
  // Requested bytes are counted exactly, in the plain build (operator new replacement)
  // and under ASan (allocator hooks) alike; 4 KiB leaves room for gtest's own bookkeeping.
  EXPECT_GE(scope.PeakBytes(), kMiB);
  EXPECT_LT(scope.PeakBytes(), kMiB + 4096);
  EXPECT_GE(scope.LiveDeltaBytes(), kMiB / 2);
  EXPECT_LT(scope.LiveDeltaBytes(), kMiB / 2 + 4096);
}

TEST(PeakHeapScope, CountsExactRequestedBytes) {
  PeakHeapScope scope;
  std::vector<char> v;
  v.reserve(1000);
  g_sink = v.data();
  EXPECT_EQ(scope.PeakBytes(), 1000);
  EXPECT_EQ(scope.LiveDeltaBytes(), 1000);
}

TEST(PeakHeapScope, InnerScopeDoesNotHideOuterPeak) {
  PeakHeapScope outer;
  {
    auto a = std::make_unique<char[]>(300000);
    g_sink = a.get();
  }
  {
    PeakHeapScope inner;
    auto b = std::make_unique<char[]>(1000);
    g_sink = b.get();
    EXPECT_EQ(inner.PeakBytes(), 1000);
  }
  EXPECT_EQ(outer.PeakBytes(), 300000);
}

TEST(PeakHeapScope, AlignedAllocationsAreCounted) {
  struct alignas(64) Wide {
    char bytes[192];
  };
  PeakHeapScope scope;
  auto w = std::make_unique<Wide>();
  g_sink = w.get();
  EXPECT_EQ(scope.PeakBytes(), 192);
}

TEST(FuzzInputWriter, MirrorsFuzzedDataProviderExactly) {
  FuzzInputWriter w;
  w.WriteIntegral<int64_t>(-5);
  w.WriteIntegralInRange<uint32_t>(300, 0, 10000);
  w.WriteBool(true);
  w.WriteRandomLengthString("a\\b", 100);
  w.WriteIntegral<uint8_t>(7);
  w.WriteBytes("xyz");
  w.WriteRemainingBytes("tail");
  const std::string bytes = w.Finish();
  // front: a \\ \\ b, the terminator \\ 00, xyz, tail; then the back stream reversed: 7, the
  // bool, 300 as 2 bytes, and -5 as its offset from INT64_MIN (2^63-5 = 7f ff .. fb), which
  // FDP reads most significant byte first from the end.
  EXPECT_EQ(Hex(bytes),
            "61 5c 5c 62 5c 00 78 79 7a 74 61 69 6c 07 01 2c 01 fb ff ff ff ff ff ff 7f");
  FuzzedDataProvider p(reinterpret_cast<const uint8_t*>(bytes.data()), bytes.size());
  EXPECT_EQ(p.ConsumeIntegral<int64_t>(), -5);
  EXPECT_EQ(p.ConsumeIntegralInRange<uint32_t>(0, 10000), 300u);
  EXPECT_TRUE(p.ConsumeBool());
  EXPECT_EQ(p.ConsumeRandomLengthString(100), "a\\b");
  EXPECT_EQ(p.ConsumeIntegral<uint8_t>(), 7);
  EXPECT_EQ(p.ConsumeBytesAsString(3), "xyz");
  EXPECT_EQ(p.ConsumeRemainingBytesAsString(), "tail");
}

TEST(FuzzInputWriter, StringOfMaximumLengthHasNoTerminator) {
  FuzzInputWriter w;
  w.WriteRandomLengthString("abc", 3);
  w.WriteBytes("z");
  const std::string bytes = w.Finish();
  EXPECT_EQ(bytes, "abcz");
  FuzzedDataProvider p(reinterpret_cast<const uint8_t*>(bytes.data()), bytes.size());
  EXPECT_EQ(p.ConsumeRandomLengthString(3), "abc");
  EXPECT_EQ(p.ConsumeBytesAsString(1), "z");
}

TEST(Report, HexAndFirstDifference) {
  EXPECT_EQ(Hex(std::string("\xac\x02", 2)), "ac 02");
  EXPECT_EQ(Hex(std::string(300, '\x01'), 2), "01 01 ... (300 bytes)");
  EXPECT_EQ(FirstDifference("abc", "abc"), std::nullopt);
  EXPECT_EQ(FirstDifference("abc", "abd"), 2u);
  EXPECT_EQ(FirstDifference("ab", "abc"), 2u);
  EXPECT_EQ(HexWindow("\x01\x02\x03", 1), "@0: 01 [02] 03");
  EXPECT_EQ(HexWindow("\x01\x02", 2), "@0: 01 02 [--]");
  EXPECT_EQ(HexWindow(std::string(20, 'A'), 10),
            "@2: 41 41 41 41 41 41 41 41 [41] 41 41 41 41 41 41 41");
}

TEST(Corpus, Sha1NamesFiles) {
  EXPECT_EQ(Sha1Hex(""), "da39a3ee5e6b4b0d3255bfef95601890afd80709");
  EXPECT_EQ(Sha1Hex("abc"), "a9993e364706816aba3e25717850c26c9cd0d89d");
}

// A tiny target over int64 whose implementations are chosen per test.
TargetDef<int64_t> TinyTarget(std::function<Output(const int64_t&)> opt,
                              std::function<Output(const int64_t&)> ref) {
  TargetDef<int64_t> def;
  def.name = "tiny";
  def.domain = IntegerDomain<int64_t>("int64", rc::gen::arbitrary<int64_t>());
  def.optimized = {"optimized", std::move(opt)};
  def.others.push_back({"reference", std::move(ref)});
  return def;
}

TEST(Verdict, ErrorClassIsComparedBeforeBytes) {
  TypedTarget<int64_t> t(
      TinyTarget([](const int64_t&) -> Output { return std::string("x"); },
                 [](const int64_t&) -> Output { return absl::InvalidArgumentError("no"); }));
  CaseResult r = t.Judge(3, {});
  EXPECT_FALSE(r.passed);
  EXPECT_EQ(r.failure_class, "error-class-mismatch:reference");
  EXPECT_NE(r.report.find("serdiff: tiny: error-class-mismatch:reference\n"), std::string::npos);
}

TEST(Verdict, BothRejectingWithDifferentMessagesAgree) {
  TypedTarget<int64_t> t(
      TinyTarget([](const int64_t&) -> Output { return absl::OutOfRangeError("a"); },
                 [](const int64_t&) -> Output { return absl::InvalidArgumentError("b"); }));
  EXPECT_TRUE(t.Judge(3, {}).passed);
}

TEST(Verdict, SecondRunDifferingIsNondeterminism) {
  int calls = 0;
  TypedTarget<int64_t> t(TinyTarget(
      [&calls](const int64_t&) -> Output { return std::string(1, static_cast<char>(calls++)); },
      [](const int64_t&) -> Output { return std::string(1, '\0'); }));
  CaseResult r = t.Judge(0, {});
  EXPECT_EQ(r.failure_class, "nondeterministic:optimized");
}

TEST(Verdict, DeclinedReferenceIsSkippedAndAcceptedDivergenceRecorded) {
  TargetDef<int64_t> def = TinyTarget([](const int64_t&) -> Output { return std::string("a"); },
                                      [](const int64_t&) -> Output { return Declined("no"); });
  def.others.push_back({"other", [](const int64_t&) -> Output { return std::string("b"); }});
  def.divergences.push_back(
      {"other", "known", [](const int64_t& v, const Output&, const Output&) { return v == 1; }});
  TypedTarget<int64_t> t(std::move(def));
  CaseResult one = t.Judge(1, {});
  EXPECT_TRUE(one.passed);
  ASSERT_EQ(one.accepted.size(), 1u);
  EXPECT_EQ(one.accepted[0], "other: known");
  EXPECT_EQ(t.Judge(2, {}).failure_class, "bytes-mismatch:other");
}

TEST(Verdict, HeapBoundIsEnforcedOnTheOptimizedSide) {
  TargetDef<int64_t> def = TinyTarget(
      [](const int64_t& n) -> Output { return std::string(static_cast<size_t>(n), 'x'); },
      [](const int64_t& n) -> Output { return std::string(static_cast<size_t>(n), 'x'); });
  def.heap_bound = HeapBound<int64_t>::Linear(1, 100);
  TypedTarget<int64_t> t(std::move(def));
  CaseResult ok = t.Judge(1000, {});
  EXPECT_TRUE(ok.passed) << ok.report;
  EXPECT_EQ(ok.optimized_peak_bytes, 1001);  // the string and its NUL
  def = TinyTarget(
      [](const int64_t& n) -> Output {
        std::string scratch(static_cast<size_t>(n), 'y');  // a fragment kept alongside
        g_sink = scratch.data();
        return std::string(static_cast<size_t>(n), 'x');
      },
      [](const int64_t& n) -> Output { return std::string(static_cast<size_t>(n), 'x'); });
  def.heap_bound = HeapBound<int64_t>::Linear(1, 100);
  TypedTarget<int64_t> t2(std::move(def));
  EXPECT_EQ(t2.Judge(1000, {}).failure_class, "heap-bound:optimized");
}

// The bound is inclusive: a peak exactly at it passes, one byte above fails. The optimized side
// peaks at exactly n + 1 bytes (a string of n and its NUL; the tracker counts requested bytes).
TEST(Verdict, HeapBoundIsInclusiveAtTheByte) {
  auto make = [](int64_t bound) {
    TargetDef<int64_t> def = TinyTarget(
        [](const int64_t& n) -> Output { return std::string(static_cast<size_t>(n), 'x'); },
        [](const int64_t& n) -> Output { return std::string(static_cast<size_t>(n), 'x'); });
    def.heap_bound = HeapBound<int64_t>::Fixed(bound);
    return TypedTarget<int64_t>(std::move(def));
  };
  const CaseResult at = make(1001).Judge(1000, {});
  EXPECT_EQ(at.optimized_peak_bytes, 1001);
  EXPECT_TRUE(at.passed) << at.report;
  const CaseResult above = make(1000).Judge(1000, {});
  EXPECT_EQ(above.optimized_peak_bytes, 1001);
  EXPECT_EQ(above.failure_class, "heap-bound:optimized");
}

// A heap bound computes and describes itself, so its number and its text cannot drift.
TEST(HeapBoundValue, ComputesAndDescribesItself) {
  const Output three = std::string("abc");
  const Output rejected = absl::InvalidArgumentError("no");
  const auto lin = HeapBound<int64_t>::Linear(4, 64 * 1024);
  EXPECT_EQ(lin.text(), "4 x output + 64 KiB");
  EXPECT_EQ(lin(0, three), 4 * 3 + 65536);
  EXPECT_EQ(lin(0, rejected), 65536);  // a rejected input has no output
  EXPECT_EQ(HeapBound<int64_t>::Linear(1, 4096).text(), "output + 4 KiB");
  EXPECT_EQ(HeapBound<int64_t>::Linear(1, 64).text(), "output + 64");
  EXPECT_EQ(HeapBound<int64_t>::Linear(2, 0).text(), "2 x output");
  EXPECT_EQ(HeapBound<int64_t>::Fixed(1024).text(), "1 KiB");
  EXPECT_EQ(HeapBound<int64_t>::Fixed(3 << 20).text(), "3 MiB");
  EXPECT_EQ(HeapBound<int64_t>::Fixed(1000).text(), "1000");
  EXPECT_EQ(HeapBound<int64_t>::Fixed(1000)(7, three), 1000);
  const auto custom = HeapBound<int64_t>::Custom(
      "input x 2", [](const int64_t& v, const Output&) -> int64_t { return 2 * v; });
  EXPECT_EQ(custom.text(), "input x 2");
  EXPECT_EQ(custom(21, three), 42);
  EXPECT_FALSE(HeapBound<int64_t>());
}

// The self-test target's optimized zigzag uses a logical shift: for -1 it yields
// 0xffff...ff ^ 1 = 0xfffffffffffffffe... with u >> 63 == 1: zz = (2^64-2) ^ 1 = 2^64-1,
// while the reference gives 1. The report must show both outputs and offset 0.
TEST(Repro, SelfTestTargetReportShowsBothOutputsAndFirstDifference) {
  const Target* t = serdiff::targets::SelfTestTargets().Find("selftest_broken_zigzag");
  ASSERT_NE(t, nullptr);
  FuzzInputWriter w;
  w.WriteIntegral<int64_t>(-1);
  const CaseResult r = t->RunBytes(w.Finish(), {});
  EXPECT_FALSE(r.passed);
  EXPECT_EQ(r.failure_class, "bytes-mismatch:reference");
  EXPECT_NE(r.report.find("input:  -1\n"), std::string::npos) << r.report;
  EXPECT_NE(r.report.find("optimized  8 bytes: ff ff ff ff ff ff ff ff"), std::string::npos)
      << r.report;
  EXPECT_NE(r.report.find("reference  8 bytes: 01 00 00 00 00 00 00 00"), std::string::npos)
      << r.report;
  EXPECT_NE(r.report.find("first differing byte at offset 0"), std::string::npos) << r.report;
  EXPECT_NE(r.report.find("@0: [ff] ff ff ff ff ff ff ff"), std::string::npos) << r.report;
  EXPECT_NE(r.report.find("@0: [01] 00 00 00 00 00 00 00"), std::string::npos) << r.report;
  EXPECT_TRUE(r.report.ends_with("serdiff: selftest_broken_zigzag: bytes-mismatch:reference\n"));
}

using ::serdiff::testing_support::RunCli;

// Usage and I/O errors exit 2, so that a script never mistakes them for a pass (0) or a
// differential failure (1).
TEST(Cli, UsageAndIoErrorsExitTwo) {
  const std::string dir = ::testing::TempDir();
  EXPECT_EQ(RunCli("repro varint_zigzag64 " + dir).first, 2);  // a directory
  EXPECT_EQ(RunCli("repro varint_zigzag64 /nonexistent/file").first, 2);
  EXPECT_EQ(RunCli("repro no_such_target /dev/null").first, 2);
  EXPECT_EQ(RunCli("check --cases -1").first, 2);
  EXPECT_EQ(RunCli("check --filter no_such_target").first, 2);
  EXPECT_EQ(RunCli("check --corpus /nonexistent --cases 1").first, 2);
  EXPECT_EQ(RunCli("check --filter varint_zigzag64 --cases 1 --json /nonexistent/x.json").first, 2);
  EXPECT_EQ(RunCli("frobnicate").first, 2);
  auto [rc, out] = RunCli("check --filter varint_zigzag64 --cases 5");
  EXPECT_EQ(rc, 0) << out;
  EXPECT_NE(out.find("1 targets, 0 failures"), std::string::npos) << out;
}

// `serdiff check --json` writes the schema docs/fuzzing.md documents ("serdiff check --json"):
// every field, in that order, on a run with failures.
TEST(CheckJson, WritesItsSchema) {
  const std::string dir = ::testing::TempDir() + "/serdiff_check_json";
  std::filesystem::remove_all(dir);
  std::filesystem::create_directories(dir + "/corpus");  // empty: generated cases only
  const std::string json = dir + "/report.json";
  const auto [rc, out] = RunCli(
      "--selftest check --filter selftest_broken_zigzag --cases 3 "
      "--seed 7 --corpus " +
      dir + "/corpus --json " + json + " --failures-dir " + dir + "/failures");
  EXPECT_EQ(rc, 1) << out;
  std::ifstream in(json);
  const std::string j((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
  // 3 generated int64s: every negative one fails (the planted bug), so 1 to 3 failures.
  ASSERT_EQ(j.rfind("{\"schema_version\": 1, \"seed\": 7, \"cases\": 3, \"failures\": ", 0), 0u)
      << j;
  size_t at = 0;
  for (const char* key :
       {"\"targets\": [\n  {\"target\": \"selftest_broken_zigzag\", \"corpus\": 0, "
        "\"generated\": 3, \"failures\": ",
        "\"peak_heap_bytes\": ", "\"heap_bound_bytes\": -1, ", "\"reference_peak_heap_bytes\": ",
        "\"rejected_peak_heap_bytes\": -1, \"rejected_heap_bound_bytes\": -1, \"seconds\": ",
        "\n], \"failing_inputs\": [\n  {\"target\": \"selftest_broken_zigzag\", "
        "\"class\": \"bytes-mismatch:reference\", \"path\": \""}) {
    const size_t found = j.find(key, at);
    ASSERT_NE(found, std::string::npos) << "missing, in order: " << key << "\n" << j;
    at = found + std::strlen(key);
  }
  EXPECT_EQ(j.substr(j.size() - 4), "\n]}\n") << j;
  std::filesystem::remove_all(dir);
}

// The same through the CLI binary: `serdiff --selftest repro` exits 1 and prints the report.
TEST(Repro, CliPrintsReportAndExitsOne) {
  FuzzInputWriter w;
  w.WriteIntegral<int64_t>(-1);
  const std::string dir = ::testing::TempDir() + "serdiff_repro_cli";
  auto path = WriteCorpusFile(dir, w.Finish());
  ASSERT_TRUE(path.ok());
  auto [status, out] = RunCli("--selftest repro selftest_broken_zigzag " + *path);
  EXPECT_EQ(status, 1) << out;
  EXPECT_NE(out.find("first differing byte at offset 0"), std::string::npos) << out;
  EXPECT_NE(out.find("serdiff: selftest_broken_zigzag: bytes-mismatch:reference"),
            std::string::npos)
      << out;
}

}  // namespace
}  // namespace serdiff::harness

// ---- families register themselves
// ----------------------------------------------------------------

// Every folder src/serdiff/<family>/ with a CMakeLists.txt is a family that registered itself
// (SERDIFF_REGISTER_FAMILY), and every registered family but "selftest" has such a folder; each
// target carries its family, the prefix of its name.
TEST(FamilyRegistration, FoldersAndRegisteredFamiliesAgree) {
  namespace fs = std::filesystem;
  const fs::path src = fs::path(SERDIFF_CORPUS_DIR).parent_path() / "src" / "serdiff";
  std::vector<std::string> folders;
  for (const auto& e : fs::directory_iterator(src)) {
    if (e.is_directory() && fs::exists(e.path() / "CMakeLists.txt")) {
      folders.push_back(e.path().filename().string());
    }
  }
  std::sort(folders.begin(), folders.end());
  std::vector<std::string> registered = serdiff::harness::RecordedFamilies();
  registered.erase(std::remove(registered.begin(), registered.end(), "selftest"), registered.end());
  EXPECT_EQ(registered, folders);
  std::set<std::string> with_targets;
  for (const auto& t : serdiff::targets::AllTargets().targets()) {
    EXPECT_EQ(t->name().substr(0, t->family().size() + 1), t->family() + "_") << t->name();
    with_targets.insert(t->family());
  }
  EXPECT_EQ(std::vector<std::string>(with_targets.begin(), with_targets.end()), folders);
  for (const auto& t : serdiff::targets::SelfTestTargets().targets()) {
    EXPECT_EQ(t->family(), "selftest") << t->name();
  }
}

// What serdiff accepts from an implementation it did not write is found in one place per peer
// and family (docs/architecture.md, "The family folder"): every accepted divergence and offset
// exemption of a registered target is declared in targets/<family>/divergences_<peer>.cc, <peer>
// being the implementation it names (python_driver_3_25, serdiff's model of the python driver's
// arithmetic, lives with the driver, python_cassandra).
TEST(FamilyRegistration, EveryAcceptanceIsDeclaredInItsPeersFile) {
  const std::map<std::string, std::string> model_of = {{"python_driver_3_25", "python_cassandra"}};
  size_t seen = 0;
  for (const auto& t : serdiff::targets::AllTargets().targets()) {
    std::vector<serdiff::harness::Acceptance> all = t->accepted_divergences();
    all.insert(all.end(), t->offset_exemptions().begin(), t->offset_exemptions().end());
    for (const serdiff::harness::Acceptance& a : all) {
      const auto m = model_of.find(a.impl);
      const std::string peer = m == model_of.end() ? a.impl : m->second;
      EXPECT_EQ(serdiff::harness::DeclaredInText(a.declared_in),
                absl::StrCat("targets/", t->family(), "/divergences_", peer, ".cc"))
          << t->name() << ", " << a.impl << ": " << a.reason;
      ++seen;
    }
  }
  EXPECT_GE(seen, 40u);  // every family's peers: libbson, pymongo, js_bson, protobuf, fury, ...
}

TEST(FamilyRegistration, DeclaredInTextStartsAtTheTreesFolder) {
  EXPECT_EQ(serdiff::harness::DeclaredInText("/home/u/serdiff/targets/bson/divergences_pymongo.cc"),
            "targets/bson/divergences_pymongo.cc");
  EXPECT_EQ(serdiff::harness::DeclaredInText("targets/cql/divergences.cc"),
            "targets/cql/divergences.cc");
  EXPECT_EQ(serdiff::harness::DeclaredInText("/src/oracles/x/y.cc"), "oracles/x/y.cc");
  // The last targets/ of the path: a checkout under folders named oracles/ or targets/.
  EXPECT_EQ(serdiff::harness::DeclaredInText(
                "/oracles/targets/serdiff/targets/varint/divergences_fury.cc"),
            "targets/varint/divergences_fury.cc");
  EXPECT_EQ(serdiff::harness::DeclaredInText("/home/u/mine/my_divergences.cc"),
            "/home/u/mine/my_divergences.cc");
}

// `serdiff list` says where each implementation comes from: the optimized side and its tiers
// from src/serdiff/<family>, references from reference/<family> (or where they say), and every
// oracle names its origin (an oracles/<name>/ folder, the standard library, or serdiff's model
// of a driver), so that no implementation's provenance is left to guess.
TEST(ImplOrigins, EveryImplementationSaysWhereItComesFrom) {
  const serdiff::harness::Target* zz = serdiff::targets::AllTargets().Find("varint_zigzag64");
  ASSERT_NE(zz, nullptr);
  std::vector<std::string> origins;
  for (const auto& i : zz->info().impls) origins.push_back(i.name + " " + i.origin);
  EXPECT_EQ(origins, (std::vector<std::string>{
                         "optimized src/serdiff/varint", "reference reference/varint",
                         "protobuf oracles/protobuf: protobuf 3.21.12 (Debian libprotobuf-dev)"}));
  for (const auto& t : serdiff::targets::AllTargets().targets()) {
    for (const auto& i : t->info().impls) {
      if (i.role != serdiff::harness::Role::kOracle) continue;
      EXPECT_NE(i.origin, serdiff::harness::DefaultOrigin(i.role, t->family()))
          << t->name() << ": oracle " << i.name << " names no origin";
      EXPECT_TRUE(i.origin.rfind("oracles/", 0) == 0 || i.origin.rfind("src/", 0) == 0 ||
                  i.origin.rfind("the C++ standard library", 0) == 0)
          << t->name() << ": " << i.name << " from " << i.origin;
    }
  }
}

// The custom mutator's lying-length layout is part of each target's definition (set by its
// family): CQL [int]/[short] big-endian, the little-endian int32/count fields of BSON, mutation
// and varint inputs, none for timestamps (their inputs hold no lengths).
TEST(LengthFields, EveryTargetCarriesItsFamilysLayout) {
  auto layout = [](const serdiff::harness::Target& t) {
    std::string s;
    for (const auto& f : t.info().length_fields) {
      absl::StrAppend(&s, f.width, f.big_endian ? "BE " : "LE ");
    }
    return s;
  };
  // The shipped families; a new family states its own layout (or none) and is not checked here.
  const std::map<std::string, std::string> want = {{"cql", "4BE 2BE "},
                                                   {"bson", "4LE 2LE "},
                                                   {"mutation", "4LE 2LE "},
                                                   {"varint", "4LE 2LE "},
                                                   {"timestamp", ""}};
  int checked = 0;
  for (const auto& t : serdiff::targets::AllTargets().targets()) {
    auto it = want.find(t->family());
    if (it == want.end()) continue;
    EXPECT_EQ(layout(*t), it->second) << t->name();
    ++checked;
  }
  EXPECT_GT(checked, 60);
}
