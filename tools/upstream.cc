// `serdiff repro <target> <file> --upstream <worker>`: a program in the worker's language that
// calls its library directly on the input, for a bug report (docs/workers.md, "Upstream
// reproducers"). serdiff builds the request (Target::UpstreamRequest: the input in the
// interchange form and the reference's answer), the worker's "serdiff.upstream" op writes the
// program, and serdiff saves it and prints how to run it.
#include <sys/stat.h>

#include <algorithm>
#include <filesystem>
#include <fstream>
#include <iostream>
#include <string>
#include <system_error>
#include <vector>

#include "absl/strings/str_cat.h"
#include "absl/strings/str_join.h"
#include "absl/strings/str_replace.h"
#include "harness/corpus.h"
#include "harness/external.h"
#include "harness/result.h"
#include "nlohmann/json.hpp"
#include "tools/cli.h"

namespace serdiff::tools {
namespace {

// A shell word for `s`: as it is when it holds only safe characters, else in single quotes.
std::string ShellWord(const std::string& s) {
  if (!s.empty() && s.find_first_not_of("abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ"
                                        "0123456789_-./=:,+@%") == std::string::npos) {
    return s;
  }
  return absl::StrCat("'", absl::StrReplaceAll(s, {{"'", "'\\''"}}), "'");
}

}  // namespace

int Upstream(const Session& session, const std::string& name, const std::string& file,
             const std::string& worker, const std::string& out_dir) {
  const Target* t = FindTarget(session, name);
  if (t == nullptr) {
    std::cerr << "serdiff: no target named " << name << " (see serdiff list)\n";
    return 2;
  }
  std::shared_ptr<harness::WorkerClient> client;
  std::vector<std::string> names;
  for (const auto& w : session.targets->workers()) {
    names.push_back(w->manifest().name);
    if (w->manifest().name == worker) client = w;
  }
  if (client == nullptr) {
    std::cerr << "serdiff: --upstream " << worker << ": no worker of that name is loaded (loaded: "
              << (names.empty() ? std::string("none") : absl::StrJoin(names, ", "))
              << "; --worker <manifest> loads one)\n";
    return 2;
  }
  const std::vector<std::string> impls = t->impl_names();
  if (std::find(impls.begin(), impls.end(), worker) == impls.end()) {
    std::cerr << "serdiff: --upstream " << worker << ": the worker does not join " << name
              << " (its implementations: " << absl::StrJoin(impls, ", ") << ")\n";
    return 2;
  }
  auto bytes = harness::ReadFileBytes(file);
  if (!bytes.ok()) {
    std::cerr << "serdiff: " << bytes.status() << "\n";
    return 2;
  }
  absl::StatusOr<std::string> request = t->UpstreamRequest(*bytes);
  if (!request.ok()) {
    std::cerr << "serdiff: --upstream: "
              << (harness::IsDeclined(request.status())
                      ? absl::StrCat("the input has no form a worker takes: ",
                                     request.status().message())
                      : std::string(request.status().message()))
              << "\n";
    return 2;
  }
  const nlohmann::ordered_json req = nlohmann::ordered_json::parse(*request);  // key order kept
  // A program is written for a finding only. An input the worker declines is never compared;
  // one on which the worker gives what the reference gives (the same outcome, the same output
  // once the interchange has turned its answer into the target's form: fewer fury values than
  // the count asked for is a rejection there, for one) is no finding. Both are asked as a run
  // asks them.
  const harness::MeasuredOutput mine = t->RunOne(*bytes, worker);
  if (!mine.output.ok() && harness::IsDeclined(mine.output.status())) {
    std::cerr << "serdiff: --upstream " << worker
              << ": the worker declines this input, so it is not compared on it and there is no "
                 "finding to reproduce: "
              << mine.output.status().message() << "\n";
    return 2;
  }
  // The same answer as the reference's is still a finding when the worker's peak heap is over
  // the bound it is held to as the subject (without the allowance of a HeapDivergence, which is
  // the known bug itself): a heap finding, whose program the op serdiff.upstream_heap writes
  // (expect.peak_bound added), so that a worker library that compares answers only declines it
  // rather than writing a program that passes.
  int64_t heap_bound = -1;
  const std::vector<harness::Role> roles = t->impl_roles();
  for (size_t i = 0; i < impls.size() && i < roles.size(); ++i) {
    if (roles[i] != harness::Role::kReference) continue;
    const harness::MeasuredOutput ref = t->RunOne(*bytes, impls[i]);
    const bool same =
        ref.output.ok() == mine.output.ok() && (!ref.output.ok() || *ref.output == *mine.output);
    if (same) {
      heap_bound = t->SubjectHeapBound(*bytes, worker, mine.output);
      if (heap_bound < 0 || mine.peak_bytes < 0 || mine.peak_bytes <= heap_bound) {
        std::cerr << "serdiff: --upstream " << worker << ": " << worker << " gives what "
                  << impls[i] << " gives on this input ("
                  << (ref.output.ok() ? "the same output" : "both reject it")
                  << (heap_bound < 0 || mine.peak_bytes < 0
                          ? std::string()
                          : absl::StrCat(", within its heap bound: ", mine.peak_bytes,
                                         " <= ", heap_bound, " bytes"))
                  << "): no finding to reproduce\n";
        return 2;
      }
    }
    break;
  }
  const bool heap_finding = heap_bound >= 0;
  std::string request_text = *request;
  if (heap_finding) {
    nlohmann::ordered_json with_bound = req;
    with_bound["expect"]["peak_bound"] = heap_bound;
    request_text = with_bound.dump();
  }
  int64_t peak = -1;
  absl::StatusOr<harness::ExternalAnswer> answer = client->Call(
      heap_finding ? "serdiff.upstream_heap" : "serdiff.upstream", request_text, &peak);
  if (!answer.ok()) {
    std::cerr << "serdiff: --upstream " << worker << ": "
              << (harness::IsDeclined(answer.status())
                      ? absl::StrCat("the worker writes no reproducer here: ",
                                     answer.status().message())
                      : absl::StrCat("the worker failed: ", answer.status().ToString()))
              << "\n";
    return 2;
  }
  const nlohmann::json j = nlohmann::json::parse(
      answer->value_json ? *answer->value_json : std::string(), nullptr, false);
  const bool shaped = j.is_object() && j.contains("program") && j["program"].is_string() &&
                      j.contains("ext") && j["ext"].is_string() && j.contains("run") &&
                      j["run"].is_array() && !j["run"].empty();
  if (!shaped) {
    std::cerr << "serdiff: --upstream " << worker
              << ": the worker's answer is not {\"program\", \"ext\", \"run\"}\n";
    return 2;
  }
  const std::string ext = j["ext"].get<std::string>();
  if (ext.empty() || ext.find_first_not_of("abcdefghijklmnopqrstuvwxyz") != std::string::npos) {
    std::cerr << "serdiff: --upstream " << worker << ": bad file extension '" << ext << "'\n";
    return 2;
  }
  std::error_code ec;
  const std::string where = out_dir.empty() ? std::string(".") : out_dir;
  std::filesystem::create_directories(where, ec);
  if (ec) {
    std::cerr << "serdiff: --upstream-dir " << where << ": " << ec.message() << "\n";
    return 2;
  }
  const std::filesystem::path dir = std::filesystem::absolute(where, ec);
  const std::string path =
      (dir / absl::StrCat(name, "-", worker, "-", harness::Sha1Hex(*bytes).substr(0, 12), ".", ext))
          .string();
  {
    std::ofstream out(path, std::ios::binary | std::ios::trunc);
    out << j["program"].get<std::string>();
    if (!out) {
      std::cerr << "serdiff: cannot write " << path << "\n";
      return 2;
    }
  }
  chmod(path.c_str(), 0755);
  std::vector<std::string> run;
  for (const nlohmann::json& w : j["run"]) {
    if (!w.is_string()) {
      std::cerr << "serdiff: --upstream " << worker << ": \"run\" holds a non-string\n";
      return 2;
    }
    run.push_back(ShellWord(absl::StrReplaceAll(w.get<std::string>(), {{"{file}", path}})));
  }
  const nlohmann::ordered_json& expect = req["expect"];
  std::cout << "upstream reproducer: " << path << "\n"
            << "  " << worker << " on " << name << ": " << req["shown"].get<std::string>() << "\n"
            << "  what serdiff's reference gives: "
            << (expect["outcome"] == "accepted"
                    ? absl::StrCat("accepted ", expect["answer"].dump())
                    : absl::StrCat("rejected (", expect["message"].get<std::string>(), ")"))
            << "\n";
  if (heap_finding) {
    std::cout << "  peak heap: " << worker << " " << mine.peak_bytes
              << " bytes; the bound it is held to as the subject: " << heap_bound
              << " bytes (the target's " << t->heap_bound_text()
              << ", plus the slack its manifest states)\n";
  }
  std::cout << "run it without serdiff (it exits 1 while " << worker
            << (heap_finding ? " answers otherwise or allocates more than the bound"
                             : " answers otherwise")
            << ", 0 once it agrees):\n"
            << "  " << absl::StrJoin(run, " ") << "\n";
  return 0;
}

}  // namespace serdiff::tools
