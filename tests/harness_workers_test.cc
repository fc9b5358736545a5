// Workers and subjects (harness/external.h, docs/workers.md): a worker that crashes, hangs,
// answers garbage, answers wrong bytes, declines, rejects or is missing gives its own verdict,
// and the next input is judged normally; a subject's peak is bounded and a subject's decline
// leaves the case unjudged. The worker is tests/workers/misbehaving_worker.py, whose input value
// picks its misbehaviour.
#include <charconv>
#include <chrono>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <iostream>
#include <memory>
#include <string>
#include <utility>
#include <vector>

#include <gtest/gtest.h>

#include "absl/strings/str_cat.h"
#include "harness/domains.h"
#include "harness/external.h"
#include "harness/target.h"
#include "serdiff/common/error_offset.h"

namespace serdiff::harness {
namespace {

const std::string kManifest =
    std::string(SERDIFF_CORPUS_DIR) + "/../tests/workers/misbehaving.json";

TargetDef<int64_t> Int64Target() {
  TargetDef<int64_t> def;
  def.name = "test_int64_to_decimal";
  def.description = "int64 to decimal, with a worker";
  def.domain = IntegerDomain<int64_t>("int64", rc::gen::arbitrary<int64_t>());
  def.optimized = {"optimized", [](const int64_t& v) -> Output {
                     char buf[24];
                     auto r = std::to_chars(buf, buf + sizeof buf, v);
                     return std::string(buf, r.ptr);
                   }};
  def.others.push_back({"reference", [](const int64_t& v) -> Output { return absl::StrCat(v); }});
  def.interchange.op = "int64.to_decimal";
  def.interchange.input_json = [](const int64_t& v) -> absl::StatusOr<std::string> {
    return absl::StrCat("{\"value\":\"", v, "\"}");
  };
  return def;
}

WorkerManifest Manifest() {
  absl::StatusOr<WorkerManifest> m = ReadWorkerManifest(kManifest);
  EXPECT_TRUE(m.ok()) << m.status();
  return *m;
}

struct WithWorker {
  explicit WithWorker(WorkerManifest m, TargetDef<int64_t> def = Int64Target())
      : client(std::make_shared<WorkerClient>(std::move(m))), target(std::move(def), "test") {
    EXPECT_TRUE(target.AttachWorker(client).ok());
  }
  std::shared_ptr<WorkerClient> client;
  TypedTarget<int64_t> target;
};

TEST(Workers, ManifestIsRead) {
  const WorkerManifest m = Manifest();
  EXPECT_EQ(m.name, "misbehaving");
  EXPECT_EQ(m.timeout_ms, 2000);
  EXPECT_FALSE(m.is_default);
  ASSERT_EQ(m.command.size(), 2u);
  EXPECT_EQ(m.command[0], "/usr/bin/python3");
}

TEST(Workers, AnswerIsComparedAndItsPeakReported) {
  WithWorker w(Manifest());
  const CaseResult r = w.target.Judge(42, {});
  EXPECT_TRUE(r.passed) << r.failure_class << r.details;
  ASSERT_EQ(r.external.size(), 1u);
  EXPECT_EQ(r.external[0].name, "misbehaving");
  EXPECT_EQ(r.external[0].peak_bytes, 420);  // the worker's own report: value x 10
  EXPECT_EQ(r.external[0].outcome, Outcome::kAccepted);
  EXPECT_EQ(w.target.impl_names().back(), "misbehaving");
  EXPECT_EQ(w.target.info().impls.back().kind, ImplKind::kWorker);
}

// Each failure is its verdict, and the next input (42) is judged normally by a new process.
TEST(Workers, EachFailureIsAVerdictAndTheNextInputIsJudged) {
  WithWorker w(Manifest());
  const struct {
    int64_t value;
    const char* cls;
  } kCases[] = {
      {13, "worker-crashed:misbehaving"},  {21, "worker-crashed:misbehaving"},
      {15, "worker-protocol:misbehaving"}, {16, "worker-protocol:misbehaving"},
      {17, "worker-protocol:misbehaving"}, {14, "worker-timeout:misbehaving"},
  };
  int64_t starts = 0;
  for (const auto& c : kCases) {
    const auto t0 = std::chrono::steady_clock::now();
    const CaseResult bad = w.target.Judge(c.value, {}, Render::kAlways);
    const double s = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
    EXPECT_FALSE(bad.passed) << c.value;
    EXPECT_EQ(bad.failure_class, c.cls) << bad.report;
    EXPECT_EQ(bad.failing_impl, "misbehaving");
    EXPECT_NE(bad.report.find(absl::StrCat("serdiff: test_int64_to_decimal: ", c.cls)),
              std::string::npos)
        << bad.report;
    EXPECT_LT(s, 10.0) << "judging " << c.value << " took " << s << " s";
    const CaseResult good = w.target.Judge(42, {});
    EXPECT_TRUE(good.passed) << c.value << ": " << good.failure_class << " " << good.details;
    EXPECT_GT(w.client->starts(), starts);
    starts = w.client->starts();
  }
}

// A peer that runs once (a fuzz binary's peers on the inputs its rerun sample leaves out) still
// has its crash, timeout or protocol break reported as such (rule 0), not read as a rejection.
TEST(Workers, AFailureOfARunMadeOnceIsItsOwnVerdict) {
  WithWorker w(Manifest());
  for (const auto& [value, cls] :
       {std::pair<int64_t, const char*>{13, "worker-crashed:misbehaving"},
        {15, "worker-protocol:misbehaving"}}) {
    const CaseResult r = w.target.Judge(value, {}, Render::kOnFailure, /*rerun_all=*/false);
    EXPECT_EQ(r.failure_class, cls) << value << ": " << r.details;
    EXPECT_EQ(r.failing_impl, "misbehaving");
    EXPECT_TRUE(w.target.Judge(42, {}, Render::kOnFailure, /*rerun_all=*/false).passed);
  }
}

// The frame limit (256 MiB, docs/workers.md) held at its value: a length of 256 MiB + 1 is a
// protocol verdict on the length alone; a length of exactly 256 MiB is taken, so the same worker
// sending 10 bytes of it and exiting is a crash (the body cut short), not a protocol verdict.
TEST(Workers, TheFrameLimitIsHeldAtItsValue) {
  WithWorker w(Manifest());
  const CaseResult over = w.target.Judge(38, {}, Render::kAlways);
  EXPECT_EQ(over.failure_class, "worker-protocol:misbehaving") << over.report;
  EXPECT_NE(over.report.find("a frame of 268435457 bytes (limit 268435456)"), std::string::npos)
      << over.report;
  EXPECT_TRUE(w.target.Judge(42, {}).passed);
  const CaseResult at = w.target.Judge(39, {}, Render::kAlways);
  EXPECT_EQ(at.failure_class, "worker-crashed:misbehaving") << at.report;
  EXPECT_EQ(at.report.find("limit 268435456"), std::string::npos) << at.report;
  EXPECT_TRUE(w.target.Judge(42, {}).passed);
}

// A decline edge the manifest cannot state exactly is a manifest error, not an edge skipped.
TEST(WorkerDeclines, AMalformedEdgeIsAManifestError) {
  const std::string path = ::testing::TempDir() + "/bad_edges.json";
  for (const char* edge : {R"({"op": "x", "input": {}, "declined": true})",
                           R"({"text": "t", "op": "x", "input": [], "declined": true})",
                           R"({"text": "t", "op": "x", "input": {}, "declined": "yes"})",
                           R"({"text": "", "op": "x", "input": {}, "declined": false})"}) {
    std::ofstream(path) << R"({"name": "w", "command": ["true"], "targets": [], )"
                        << R"("decline_edges": [)" << edge << "]}";
    const absl::StatusOr<WorkerManifest> m = ReadWorkerManifest(path);
    EXPECT_TRUE(absl::IsInvalidArgument(m.status())) << edge << ": " << m.status();
  }
  std::ofstream(path)
      << R"({"name": "w", "command": ["true"], "targets": [], "decline_edges": )"
      << R"([{"text": "t", "op": "x", "input": {"b": 1, "a": 2}, "declined": true}]})";
  const absl::StatusOr<WorkerManifest> m = ReadWorkerManifest(path);
  ASSERT_TRUE(m.ok()) << m.status();
  ASSERT_EQ(m->decline_edges.size(), 1u);
  EXPECT_EQ(m->decline_edges[0].input_json, R"({"b":1,"a":2})");  // the key order kept
  EXPECT_TRUE(m->decline_edges[0].declined);
}

// A field the manifest format does not have (a typo) is refused with its name, at the top and
// inside heap_noise and heap_slack, never read as the default; text that is not JSON is refused
// with the byte where it breaks off.
TEST(WorkerManifests, AnUnknownFieldOrBrokenJsonIsRefused) {
  const std::string path = ::testing::TempDir() + "/typo.json";
  const std::string head = R"({"name": "w", "command": ["true"], "targets": [], )";
  for (const auto& [field, named] : std::vector<std::pair<std::string, std::string>>{
           {R"("timeout": 5000)", R"(unknown field "timeout")"},
           {R"("heap_slack": {"per_output_permile": 100, "reason": "r"})",
            R"(unknown field "heap_slack"."per_output_permile")"},
           {R"("heap_noise": {"percent": 1, "byte": 2, "reason": "r"})",
            R"(unknown field "heap_noise"."byte")"},
           {R"("targets": ["t"], "heap_slack": {"targets": {"t": {"reason": "r", "bites": 1}}})",
            R"(unknown field "heap_slack"."targets"."t"."bites")"}}) {
    std::string text = head + field + "}";
    if (field.rfind(R"("targets")", 0) == 0) {
      text = R"({"name": "w", "command": ["true"], )" + field + "}";
    }
    std::ofstream(path) << text;
    const absl::StatusOr<WorkerManifest> m = ReadWorkerManifest(path);
    EXPECT_TRUE(absl::IsInvalidArgument(m.status())) << field << ": " << m.status();
    EXPECT_NE(m.status().message().find(named), std::string::npos) << m.status();
  }
  std::ofstream(path) << head.substr(0, 30);
  const absl::StatusOr<WorkerManifest> cut = ReadWorkerManifest(path);
  EXPECT_TRUE(absl::IsInvalidArgument(cut.status())) << cut.status();
  EXPECT_NE(cut.status().message().find("not JSON: [json.exception.parse_error.101] parse error at "
                                        "line 1, column 31"),
            std::string::npos)
      << cut.status();
}

// Every shipped worker's declines held at their edges (WorkerManifest::decline_edges, in each
// oracles/*/worker*.json and the example worker's manifest): each request sent to the worker
// itself, declined exactly when the manifest says so. A decline one value too wide (a `>`
// written `>=` in a range check, a limit that starts at the last legal value) hides a peer's
// bug as "not compared", and fails here. A manifest holds edges or says why it has none.
// Workers whose runtime or package is missing are left out, by name.
TEST(WorkerDeclines, EveryShippedWorkerHoldsItsDeclineEdges) {
  std::vector<std::string> files = ShippedWorkerManifests();
  files.push_back(std::string(SERDIFF_CORPUS_DIR) + "/../examples/own_worker/worker.json");
  size_t checked = 0;
  size_t not_sent = 0;
  std::vector<std::string> missing;
  for (const std::string& file : files) {
    absl::StatusOr<WorkerManifest> m = ReadWorkerManifest(file);
    ASSERT_TRUE(m.ok()) << m.status();
    if (m->decline_edges.empty()) {
      EXPECT_FALSE(m->no_decline_edges.empty()) << file << ": no decline edges and no reason";
      continue;
    }
    WorkerClient client(*m);
    for (const WorkerManifest::DeclineEdge& e : m->decline_edges) {
      int64_t peak = -1;
      const absl::StatusOr<ExternalAnswer> a = client.Call(e.op, e.input_json, &peak);
      if (client.declined_reason().has_value()) break;  // not installed here
      EXPECT_EQ(!a.ok() && IsDeclined(a.status()), e.declined)
          << m->name << ": " << e.text << "\n  " << e.op << " " << e.input_json
          << "\n  answer: " << (a.ok() ? std::string("accepted") : a.status().ToString());
      ++checked;
    }
    if (client.declined_reason().has_value()) {
      missing.push_back(absl::StrCat(m->name, " (", *client.declined_reason(), ")"));
      not_sent += m->decline_edges.size();
    }
  }
  for (const std::string& w : missing)
    std::cout << "not installed here, edges not sent: " << w << "\n";
  // gocql 18, python_cassandra 14, fury 8, node_cassandra 8, js_bson 6, pymongo 4, java_bson 2,
  // the example worker 2.
  EXPECT_EQ(checked + not_sent, 62u);
  EXPECT_GT(checked, 0u);
}

// Every rule of an answer that serdiff checks, broken once (tests/workers/misbehaving_worker.py,
// MALFORMED): each is a worker-protocol verdict naming the worker, and the next input is judged
// normally by a new process. A lenient reader (hex "3g" read as bytes, an offset "3" read as
// none, a peak "330" read as unknown) would pass one of these.
TEST(Workers, EachBrokenRuleOfAnAnswerIsAProtocolVerdict) {
  WithWorker w(Manifest());
  const struct {
    int64_t value;
    const char* why;
  } kCases[] = {
      {22, "the answer has no boolean \"ok\""},
      {23, "the answer has no boolean \"ok\""},
      {24, "\"error\" is neither rejected nor declined"},
      {25, "\"hex\" has an odd length"},
      {26, "\"hex\" holds a non-hex character"},
      {27, "\"hex\" is not a string"},
      {28, "an accepted answer has neither \"hex\" nor \"value\""},
      {29, "the answer is not one JSON object"},
      {30, "the answer does not echo id"},
      {31, "\"offset\" is not a byte offset (an integer >= 0)"},
      {32, "\"offset\" is not a byte offset (an integer >= 0)"},
      {33, "\"peak\" is not a byte count (an integer >= 0)"},
      // "error": null (nlohmann's value() would throw on it and end serdiff).
      {40, "\"error\" is neither rejected nor declined"},
      // A negative peak, which would pass every heap bound: in the plain answer's form (refused by
      // the plain reader, then by the parser) and in a rejection.
      {56, "\"peak\" is not a byte count (an integer >= 0)"},
      {55, "\"peak\" is not a byte count (an integer >= 0)"},
      // An earlier request's id: in the plain answer's form and in a decline.
      {52, "the answer does not echo id"},
      {53, "the answer does not echo id"},
  };
  for (const auto& c : kCases) {
    const CaseResult bad = w.target.Judge(c.value, {}, Render::kAlways);
    EXPECT_EQ(bad.failure_class, "worker-protocol:misbehaving") << c.value << "\n" << bad.report;
    EXPECT_NE(bad.report.find(c.why), std::string::npos) << c.value << "\n" << bad.report;
    EXPECT_TRUE(w.target.Judge(42, {}).passed) << "after " << c.value;
  }
}

// The peak is read from every kind of answer: the plain accepted one, a rejection (-3, read by
// the JSON parser) and an accepted "value" (54); a subject's rejection is held to the bound too.
TEST(Workers, APeakIsReadFromEveryKindOfAnswer) {
  WorkerClient client(Manifest());
  int64_t peak = 0;
  absl::StatusOr<ExternalAnswer> a = client.Call("int64.to_decimal", R"({"value":"42"})", &peak);
  ASSERT_TRUE(a.ok()) << a.status();
  EXPECT_EQ(a->bytes, "42");
  EXPECT_EQ(peak, 420);
  a = client.Call("int64.to_decimal", R"({"value":"-3"})", &peak);
  EXPECT_EQ(a.status().code(), absl::StatusCode::kInvalidArgument) << a.status();
  EXPECT_EQ(peak, 30);
  a = client.Call("int64.to_decimal", R"({"value":"54"})", &peak);
  ASSERT_TRUE(a.ok()) << a.status();
  EXPECT_EQ(a->value_json, R"("54")");
  EXPECT_EQ(peak, 540);
  TargetDef<int64_t> def = Int64Target();
  def.name = "test_reject_negatives";
  auto reject_negatives = [](const int64_t& v) -> Output {
    if (v < 0) return absl::InvalidArgumentError("negative");
    return absl::StrCat(v);
  };
  def.optimized = {"optimized", reject_negatives};
  def.others = {{"reference", reject_negatives}};
  def.heap_bound = HeapBound<int64_t>::Fixed(25);
  WithWorker w(Manifest(), std::move(def));
  RunConfig subject;
  subject.subject = "misbehaving";
  const CaseResult r = w.target.Judge(-3, subject, Render::kAlways);
  EXPECT_EQ(r.failure_class, "heap-bound:misbehaving") << r.report;  // 30 > 25
  EXPECT_EQ(r.optimized_peak_bytes, 30);
}

// An accepted answer with "value" and no "hex" (54) to an op whose output is bytes is a protocol
// verdict, as a peer and as the subject: read as bytes it was an empty output, which passed
// wherever the right output is empty too.
TEST(Workers, AValueAnswerToABytesOpIsAProtocolVerdict) {
  WithWorker w(Manifest());
  const CaseResult peer = w.target.Judge(54, {}, Render::kAlways);
  EXPECT_EQ(peer.failure_class, "worker-protocol:misbehaving") << peer.report;
  EXPECT_NE(peer.report.find("the answer to int64.to_decimal has no \"hex\" (its output is bytes)"),
            std::string::npos)
      << peer.report;
  RunConfig subject;
  subject.subject = "misbehaving";
  EXPECT_EQ(w.target.Judge(54, subject).failure_class, "worker-protocol:misbehaving");
}

// A hello whose "serdiff_worker" is not the integer 1 (a later version, none, the 1 as text) is a
// protocol verdict, not a worker read by the wrong rules or an exception that ends serdiff.
TEST(Workers, AHelloOfAnotherVersionIsAProtocolVerdict) {
  for (const char* version : {"2", "0", "\"1\"", "null"}) {
    WorkerManifest m = Manifest();
    m.command.push_back("--hello-version");
    m.command.push_back(version);
    WorkerClient client(m);
    int64_t peak = 0;
    const absl::StatusOr<ExternalAnswer> a =
        client.Call("int64.to_decimal", R"({"value":"42"})", &peak);
    EXPECT_EQ(WorkerFailureClass(a.status()), "worker-protocol") << version << ": " << a.status();
    EXPECT_NE(a.status().message().find("the first frame is not a version-1 hello"),
              std::string::npos)
        << version << ": " << a.status();
  }
}

// Timed calls (`serdiff review`): the request's "time" reaches the worker, its "ns" comes back,
// and each way of breaking the answer's "ns" is a worker-protocol verdict.
TEST(Workers, TimedCallsAndTheirProtocolChecks) {
  WorkerClient client(Manifest());
  int64_t peak = 0;
  std::vector<double> ns;
  absl::StatusOr<ExternalAnswer> a =
      client.Call("int64.to_decimal", "{\"value\":\"42\"}", &peak, 3, &ns);
  ASSERT_TRUE(a.ok()) << a.status();
  EXPECT_EQ(ns, (std::vector<double>{1042, 1042, 1042}));
  EXPECT_EQ(peak, 420);
  // Not asked: none.
  a = client.Call("int64.to_decimal", "{\"value\":\"42\"}", &peak, 0, &ns);
  ASSERT_TRUE(a.ok()) << a.status();
  EXPECT_TRUE(ns.empty());
  for (int v : {34, 35, 36, 37}) {
    a = client.Call("int64.to_decimal", absl::StrCat("{\"value\":\"", v, "\"}"), &peak, 3, &ns);
    ASSERT_FALSE(a.ok()) << v;
    EXPECT_EQ(WorkerFailureClass(a.status()), "worker-protocol") << v;
    EXPECT_NE(a.status().message().find("\"ns\" is not 3 timings (integers >= 0)"),
              std::string::npos)
        << v << ": " << a.status();
    EXPECT_TRUE(client.Call("int64.to_decimal", "{\"value\":\"7\"}", &peak, 2, &ns).ok());
    EXPECT_EQ(ns, (std::vector<double>{1007, 1007}));
  }
}

// The client waits for an answer through its SpinWait (worker_frames.h), one wait per answer
// it had to wait for; the hello and a timed call's answer never go through it.
TEST(Workers, TheClientsSpinWaitsForAnswersOnly) {
  WorkerClient client(Manifest());
  int64_t peak = 0;
  // Value 49: the worker sleeps 0.7 s before it answers, so serdiff waits for it.
  absl::StatusOr<ExternalAnswer> a = client.Call("int64.to_decimal", "{\"value\":\"49\"}", &peak);
  ASSERT_TRUE(a.ok()) << a.status();
  EXPECT_EQ(client.starts(), 1);
  EXPECT_EQ(client.spin().spun + client.spin().slept, 1);
  EXPECT_EQ(client.spin().long_waits, 1);  // 0.7 s is longer than any default limit
  std::vector<double> ns;
  a = client.Call("int64.to_decimal", "{\"value\":\"49\"}", &peak, 2, &ns);
  ASSERT_TRUE(a.ok()) << a.status();
  EXPECT_EQ(ns, (std::vector<double>{1049, 1049}));
  EXPECT_EQ(client.spin().spun + client.spin().slept, 1);
}

// "batch": B asks for timings of B calls each; the answer's "ns" is divided by the batch it
// echoes (none: the worker timed each call alone), and a "batch" that is not the one asked for
// is a worker-protocol verdict (it would divide the timings by the wrong count).
TEST(Workers, TimedBatchesAndTheirProtocolChecks) {
  WorkerClient client(Manifest());
  int64_t peak = 0;
  std::vector<double> ns;
  absl::StatusOr<ExternalAnswer> a =
      client.Call("int64.to_decimal", "{\"value\":\"42\"}", &peak, 3, &ns, 8);
  ASSERT_TRUE(a.ok()) << a.status();
  EXPECT_EQ(ns, (std::vector<double>{1042, 1042, 1042}));  // 8336 ns a timing / 8 calls
  a = client.Call("int64.to_decimal", "{\"value\":\"42\"}", &peak, 2, &ns, 1);
  ASSERT_TRUE(a.ok()) << a.status();
  EXPECT_EQ(ns, (std::vector<double>{1042, 1042}));  // batch 1: not sent, nothing to divide
  // A worker that does not know "batch": its timings are of one call each.
  a = client.Call("int64.to_decimal", "{\"value\":\"46\"}", &peak, 2, &ns, 8);
  ASSERT_TRUE(a.ok()) << a.status();
  EXPECT_EQ(ns, (std::vector<double>{1046, 1046}));
  for (const auto& [v, batch] : std::vector<std::pair<int, int>>{{43, 8}, {44, 8}, {45, 1}}) {
    a = client.Call("int64.to_decimal", absl::StrCat("{\"value\":\"", v, "\"}"), &peak, 2, &ns,
                    batch);
    ASSERT_FALSE(a.ok()) << v;
    EXPECT_EQ(WorkerFailureClass(a.status()), "worker-protocol") << v;
    EXPECT_NE(a.status().message().find(absl::StrCat(
                  "\"batch\" is not the ", batch > 1 ? absl::StrCat(batch) : "none", " asked for")),
              std::string::npos)
        << v << ": " << a.status();
    EXPECT_TRUE(ns.empty()) << v;
  }
  // 45 with a batch asked for: its "batch": 2 is right when 2 was asked.
  a = client.Call("int64.to_decimal", "{\"value\":\"45\"}", &peak, 1, &ns, 2);
  ASSERT_TRUE(a.ok()) << a.status();
  EXPECT_EQ(ns, (std::vector<double>{1045}));
}

// The manifest's "env" and the run configuration's worker_env reach the worker's environment,
// the latter over the former; a manifest whose "env" is not an object of strings is refused.
TEST(Workers, ManifestEnvironment) {
  const std::string dir = ::testing::TempDir() + "/serdiff_env_manifest";
  std::filesystem::create_directories(dir);
  auto write = [&](const std::string& name, const std::string& text) {
    std::ofstream(dir + "/" + name) << text;
    return dir + "/" + name;
  };
  write("env_worker.py",
        "import os, sys\n"
        "sys.path.insert(0, " +
            absl::StrCat("'", SERDIFF_CORPUS_DIR, "/../workers/python'") +
            ")\n"
            "import serdiff_worker as sw\n"
            "sw.serve(name='env_worker', ops={'int64.to_decimal': lambda inp: ('hex', "
            "(os.environ.get('A', '-') + os.environ.get('B', '-')).encode())})\n");
  const std::string manifest =
      write("worker.json",
            R"({"name": "env_worker", "command": ["/usr/bin/python3", "env_worker.py"],
                "targets": [], "env": {"A": "x", "B": "y"}})");
  absl::StatusOr<WorkerManifest> m = ReadWorkerManifest(manifest);
  ASSERT_TRUE(m.ok()) << m.status();
  EXPECT_EQ(m->env, (std::vector<std::pair<std::string, std::string>>{{"A", "x"}, {"B", "y"}}));
  m->env.emplace_back("B", "z");  // as AttachExternal appends RunConfig's worker_env
  WorkerClient client(*m);
  int64_t peak = 0;
  // Over serdiff's own environment too: a name already set there is replaced, not repeated (a
  // runtime reading the first of two would see serdiff's value).
  ASSERT_EQ(std::getenv("A"), nullptr);
  setenv("A", "serdiff", 1);
  absl::StatusOr<ExternalAnswer> a = client.Call("int64.to_decimal", "{\"value\":\"1\"}", &peak);
  unsetenv("A");
  ASSERT_TRUE(a.ok()) << a.status();
  EXPECT_EQ(a->bytes, "xz");
  // And every optional field of another type than its own, refused (not thrown).
  for (const char* bad :
       {R"("env": ["A=x"])", R"("env": {"A": 1})", R"("env": {"A=B": "x"})", R"("timeout_ms": "5")",
        R"("timeout_ms": 1.5)", R"("origin": 5)", R"("default": "no")",
        R"("no_decline_edges": false)", R"("heap_noise": {"percent": "1"})",
        R"("heap_noise": {"reason": 1})", R"("heap_slack": {"bytes": 1.5, "reason": "r"})",
        R"("heap_slack": {"per_input_permille": "1"})"}) {
    const std::string f = write("bad.json", absl::StrCat(R"({"name": "e", "command": ["x"],
        "targets": [], )",
                                                         bad, "}"));
    EXPECT_FALSE(ReadWorkerManifest(f).ok()) << bad;
  }
  const std::string slack = write("slack.json", R"({"name": "e", "command": ["x"], "targets": ["t"],
      "heap_slack": {"targets": {"t": {"bytes": "1", "reason": "r"}}}})");
  const absl::StatusOr<WorkerManifest> s = ReadWorkerManifest(slack);
  EXPECT_EQ(s.status().code(), absl::StatusCode::kInvalidArgument) << s.status();
  EXPECT_NE(s.status().message().find("needs an object with a \"reason\" string and integers"),
            std::string::npos)
      << s.status();
  std::filesystem::remove_all(dir);
}

// "heap_slack": the default and each target's own, read in the file's order; a negative number,
// a target the manifest does not join or one without a reason is a manifest error.
TEST(Workers, ManifestHeapSlack) {
  const std::string dir = ::testing::TempDir() + "/serdiff_slack_manifest";
  std::filesystem::create_directories(dir);
  auto read = [&](const std::string& slack) {
    const std::string f = dir + "/worker.json";
    std::ofstream(f) << absl::StrCat(
        R"({"name": "s", "command": ["x"], "targets": ["b_target", "a_target"], "heap_slack": )",
        slack, "}");
    return ReadWorkerManifest(f);
  };
  absl::StatusOr<WorkerManifest> m = read(
      R"({"per_output_permille": 200, "bytes": 12288, "per_input_permille": 3, "reason": "r",
          "targets": {
          "b_target": {"per_output_permille": 5000, "bytes": 65536, "reason": "rb",
                       "per_input_permille": 9000},
          "a_target": {"bytes": 7, "reason": "ra"}}})");
  ASSERT_TRUE(m.ok()) << m.status();
  EXPECT_EQ(m->slack_per_output_permille, 200);
  EXPECT_EQ(m->slack_bytes, 12288);
  EXPECT_EQ(m->slack_per_input_permille, 3);
  EXPECT_EQ(m->target_slack[0].per_input_permille, 9000);
  EXPECT_EQ(m->slack_reason, "r");
  ASSERT_EQ(m->target_slack.size(), 2u);
  EXPECT_EQ(m->target_slack[0].target, "b_target");
  EXPECT_EQ(m->target_slack[0].per_output_permille, 5000);
  EXPECT_EQ(m->target_slack[0].bytes, 65536);
  EXPECT_EQ(m->target_slack[0].reason, "rb");
  EXPECT_EQ(m->target_slack[1].target, "a_target");
  EXPECT_EQ(m->target_slack[1].per_output_permille, 0);
  EXPECT_EQ(m->target_slack[1].bytes, 7);
  EXPECT_EQ(m->target_slack[1].per_input_permille, 0);
  for (const char* bad : {
           R"({"bytes": -1, "reason": "r"})",
           R"({"per_output_permille": -1, "reason": "r"})",
           R"({"per_input_permille": -1, "reason": "r"})",
           R"({"reason": "r", "targets": {"a_target": {"per_input_permille": -1, "reason": "x"}}})",
           R"({"reason": "r", "targets": {"a_target": {"bytes": -1, "reason": "x"}}})",
           R"({"reason": "r", "targets": {"c_target": {"bytes": 1, "reason": "x"}}})",
           R"({"reason": "r", "targets": {"a_target": {"bytes": 1}}})",
           R"({"reason": "r", "targets": ["a_target"]})",
       }) {
    EXPECT_FALSE(read(bad).ok()) << bad;
  }
  std::filesystem::remove_all(dir);
}

// A worker's rejection reaches the verdict with its offset: a target whose implementations all
// reject every negative value at offset 1 (the worker: -1 at offset 1, -2 at offset 2, -3 with
// none, and it accepts -4).
TEST(Workers, ARejectionsOffsetIsCompared) {
  TargetDef<int64_t> def = Int64Target();
  def.name = "test_reject_negatives";
  auto reject_negatives = [](const int64_t& v) -> Output {
    if (v < 0) return WithErrorOffset(absl::InvalidArgumentError("negative"), 1);
    return absl::StrCat(v);
  };
  def.optimized = {"optimized", reject_negatives};
  def.others = {{"reference", reject_negatives}};
  def.offsets = OffsetPolicy::kCompareWhenPresent;
  {
    WithWorker w(Manifest(), def);
    EXPECT_TRUE(w.target.Judge(-1, {}).passed);
    const CaseResult two = w.target.Judge(-2, {}, Render::kAlways);
    EXPECT_EQ(two.failure_class, "error-offset-mismatch:misbehaving") << two.report;
    EXPECT_TRUE(w.target.Judge(-3, {}).passed);  // no offset: compared when present only
    EXPECT_EQ(w.target.Judge(-4, {}).failure_class, "error-class-mismatch:misbehaving");
  }
  def.offsets = OffsetPolicy::kRequired;
  {
    WithWorker w(Manifest(), def);
    EXPECT_TRUE(w.target.Judge(-1, {}).passed);
    EXPECT_EQ(w.target.Judge(-2, {}).failure_class, "error-offset-mismatch:misbehaving");
    EXPECT_EQ(w.target.Judge(-3, {}).failure_class, "error-offset-missing:misbehaving");
  }
  // An exemption lets the worker omit an offset; one it gives is still compared.
  def.offset_exemptions = {{"misbehaving", "may omit its offsets"}};
  {
    WithWorker w(Manifest(), def);
    EXPECT_EQ(w.target.Judge(-2, {}).failure_class, "error-offset-mismatch:misbehaving");
    EXPECT_TRUE(w.target.Judge(-3, {}).passed);
    EXPECT_EQ(w.target.Judge(-4, {}).failure_class, "error-class-mismatch:misbehaving");
  }
}

TEST(Workers, WrongBytesFromAPeerAreABytesMismatch) {
  WithWorker w(Manifest());
  const CaseResult r = w.target.Judge(18, {});
  EXPECT_EQ(r.failure_class, "bytes-mismatch:misbehaving");
  EXPECT_EQ(r.first_difference, 0);
}

TEST(Workers, ARejectionIsAnErrorClassAndADeclineIsNotCompared) {
  WithWorker w(Manifest());
  EXPECT_EQ(w.target.Judge(20, {}).failure_class, "error-class-mismatch:misbehaving");
  const CaseResult d = w.target.Judge(19, {});
  EXPECT_TRUE(d.passed);
  ASSERT_EQ(d.external.size(), 1u);
  EXPECT_EQ(d.external[0].outcome, Outcome::kDeclined);
}

TEST(Workers, AMissingRuntimeIsDeclinedWithItsReason) {
  WorkerManifest m = Manifest();
  m.command = {"/nonexistent/python9", "misbehaving_worker.py"};
  WithWorker w(m);
  const CaseResult r = w.target.Judge(42, {}, Render::kAlways);
  EXPECT_TRUE(r.passed) << r.failure_class;
  ASSERT_EQ(r.external.size(), 1u);
  EXPECT_EQ(r.external[0].outcome, Outcome::kDeclined);
  EXPECT_NE(r.report.find("declined: the worker's runtime /nonexistent/python9 is not installed"),
            std::string::npos)
      << r.report;
  EXPECT_TRUE(w.target.Judge(7, {}).passed);
}

TEST(Workers, AMissingPackageIsDeclinedWithTheWorkersReason) {
  WorkerManifest m = Manifest();
  m.command.push_back("--declined");
  WithWorker w(m);
  const CaseResult r = w.target.Judge(42, {}, Render::kAlways);
  EXPECT_TRUE(r.passed);
  EXPECT_NE(r.report.find("package frobnicate is not installed"), std::string::npos) << r.report;
}

// The subject goes first: its disagreement names the implementation it differs from, its
// peak is held to the bound, and its decline leaves the case unjudged.
TEST(Workers, TheSubjectIsFirstAndItsPeakIsBounded) {
  TargetDef<int64_t> def = Int64Target();
  def.heap_bound = HeapBound<int64_t>::Fixed(100);
  WithWorker w(Manifest(), std::move(def));
  EXPECT_TRUE(w.target.Judge(42, {}).passed);  // the optimized side is the subject: tiny peak
  RunConfig subject;
  subject.subject = "misbehaving";
  const CaseResult heavy = w.target.Judge(42, subject, Render::kAlways);
  EXPECT_EQ(heavy.subject, "misbehaving");
  EXPECT_EQ(heavy.failure_class, "heap-bound:misbehaving");  // 420 > 100
  EXPECT_EQ(heavy.optimized_peak_bytes, 420);
  EXPECT_NE(heavy.report.find("subject: misbehaving"), std::string::npos) << heavy.report;
  EXPECT_EQ(w.target.Judge(18, subject).failure_class, "bytes-mismatch:optimized");
  const CaseResult declined = w.target.Judge(19, subject);
  EXPECT_TRUE(declined.passed);
  EXPECT_TRUE(declined.subject_declined);
  EXPECT_TRUE(w.target.Judge(5, subject).passed);  // peak 50 <= 100
  // The bound is inclusive: at it, one below and one above (the peak is value x 10).
  EXPECT_TRUE(w.target.Judge(10, subject).passed);  // 100
  EXPECT_TRUE(w.target.Judge(9, subject).passed);   // 90
  const CaseResult above = w.target.Judge(11, subject);
  EXPECT_EQ(above.failure_class, "heap-bound:misbehaving");  // 110
  EXPECT_EQ(above.optimized_peak_bytes, 110);
}

// The subject's slack (a worker runtime's own overhead, its manifest's "heap_slack") is added to
// the bound exactly, bytes, permille of the output and permille of the input alike: the value 61
// peaks at 610 B, writes 2 bytes ("61") and is 8 bytes in its corpus form.
TEST(Workers, TheSubjectsSlackIsAddedToTheByte) {
  RunConfig subject;
  subject.subject = "misbehaving";
  const struct {
    int64_t bound, slack_bytes, permille;
    bool passes;
    int64_t input_permille = 0;  // of the input's corpus form, kInputBytes bytes
  } kCases[] = {
      {510, 100, 0, true},    // 510 + 100 = 610: at the bound
      {511, 100, 0, true},    // one above the peak
      {509, 100, 0, false},   // one below: 609 < 610
      {608, 0, 1000, true},   // 608 + 2 bytes x 1000 / 1000 = 610
      {607, 0, 1000, false},  // 609
      {609, 0, 500, true},    // 609 + 2 x 500 / 1000 = 610
      {608, 0, 499, false},   // 608 + 998 / 1000 (rounded down: 0) = 608
      {600, 8, 1000, true},   // both: 600 + 8 + 2 = 610
      {600, 7, 1000, false},  // 609
      // permille of the input's corpus form (8 bytes for an int64): 602 + 8 x 1000 / 1000 = 610
      {602, 0, 0, true, 1000},
      {601, 0, 0, false, 1000},    // 609
      {606, 0, 0, true, 500},      // 606 + 4 = 610
      {606, 0, 0, false, 499},     // 606 + 3 (3.992 rounded down) = 609
      {600, 7, 1000, true, 125},   // all three: 600 + 7 + 2 + 1 = 610
      {600, 7, 1000, false, 124},  // 600 + 7 + 2 + 0 = 609
  };
  for (const auto& c : kCases) {
    TargetDef<int64_t> def = Int64Target();
    def.heap_bound = HeapBound<int64_t>::Fixed(c.bound);
    WorkerManifest m = Manifest();
    m.slack_bytes = c.slack_bytes;
    m.slack_per_output_permille = c.permille;
    m.slack_per_input_permille = c.input_permille;
    WithWorker w(std::move(m), std::move(def));
    ASSERT_EQ(w.target.Encode(61).size(), 8u);
    const CaseResult r = w.target.Judge(61, subject);
    EXPECT_EQ(r.passed, c.passes) << c.bound << " + " << c.slack_bytes << " B + " << c.permille
                                  << " permille + " << c.input_permille
                                  << " permille of the input: " << r.failure_class;
    if (!c.passes) {
      EXPECT_EQ(r.failure_class, "heap-bound:misbehaving");
    }
  }
  // A target's own slack replaces the default for that target alone: 100 bytes named for this
  // target lift a bound of 510 to the peak (610); named for another target, the default (0) holds.
  for (const std::string& named : {std::string("test_int64_to_decimal"), std::string("other")}) {
    TargetDef<int64_t> def = Int64Target();
    def.heap_bound = HeapBound<int64_t>::Fixed(510);
    WorkerManifest m = Manifest();
    m.target_slack.push_back({named, 0, 100, "a target's own", 0});
    WithWorker w(std::move(m), std::move(def));
    const CaseResult r = w.target.Judge(61, subject);
    EXPECT_EQ(r.passed, named != "other") << named << ": " << r.failure_class;
  }
}

}  // namespace
}  // namespace serdiff::harness
