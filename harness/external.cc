// Workers over pipes and modules through dlopen (harness/external.h, docs/workers.md).
#include "harness/external.h"
#include "harness/worker_frames.h"

#include <dlfcn.h>
#include <fcntl.h>
#include <signal.h>
#include <sys/wait.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <chrono>
#include <cstdlib>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <initializer_list>
#include <limits>
#include <sstream>

#include <nlohmann/json.hpp>

#include "absl/strings/ascii.h"
#include "absl/strings/cord.h"
#include "absl/strings/escaping.h"
#include "absl/strings/match.h"
#include "absl/strings/numbers.h"
#include "absl/strings/str_cat.h"
#include "absl/strings/str_split.h"
#include "serdiff/common/error_offset.h"

#ifndef SERDIFF_SOURCE_DIR
#define SERDIFF_SOURCE_DIR ""
#endif
#ifndef SERDIFF_INSTALL_DATADIR
#define SERDIFF_INSTALL_DATADIR ""
#endif
#ifndef SERDIFF_BIN_TO_DATADIR
#define SERDIFF_BIN_TO_DATADIR "../share"
#endif

namespace serdiff::harness {

using Json = nlohmann::json;

// ---- worker processes ---------------------------------------------------------------------------

namespace {

// An executable: absolute or relative to the manifest's folder when it holds a '/', else
// found on PATH.
bool FindExecutable(const std::string& cmd, const std::string& dir) {
  if (cmd.find('/') != std::string::npos) {
    const std::string p = cmd[0] == '/' ? cmd : dir + "/" + cmd;
    return access(p.c_str(), X_OK) == 0;
  }
  const char* path = std::getenv("PATH");
  for (absl::string_view d : absl::StrSplit(path ? path : "/usr/bin:/bin", ':')) {
    if (access(absl::StrCat(d, "/", cmd).c_str(), X_OK) == 0) return true;
  }
  return false;
}

// At most about 11 days, so that a deadline made of it (doubled for a request behind another,
// plus the hello's 20 s) never overflows the clock.
constexpr int64_t kMaxTimeoutMs = 1'000'000'000;

int64_t TimeoutMs(const WorkerManifest& m) {
  if (const char* e = std::getenv("SERDIFF_WORKER_TIMEOUT_MS")) {
    int64_t v = 0;
    if (absl::SimpleAtoi(e, &v) && v > 0) return std::min(v, kMaxTimeoutMs);
  }
  return m.timeout_ms > 0 ? std::min<int64_t>(m.timeout_ms, kMaxTimeoutMs) : 10000;
}

using worker_frames::Clock;

// A buffer kept between calls keeps at most 1 MiB once its call is over: the one large request
// or answer of a run (125 MB for a 500,000-int list) is not held past it.
struct ReleaseIfLarge {
  std::string* buffer;
  ~ReleaseIfLarge() {
    if (buffer->capacity() > (size_t{1} << 20)) std::string().swap(*buffer);
  }
};
// Answers read early and never asked for (a caller that left between the halves, e.g. by an
// exception) are dropped beyond this many, oldest first.
constexpr size_t kMaxEarly = 16;

}  // namespace

WorkerClient::WorkerClient(WorkerManifest manifest) : manifest_(std::move(manifest)) {
  spin_.limit = worker_frames::DefaultSpinLimit();
  // A worker that dies while serdiff writes to it must not kill serdiff.
  signal(SIGPIPE, SIG_IGN);
}

WorkerClient::~WorkerClient() { Stop(false); }

void WorkerClient::Keep(Early e) {
  if (early_.size() >= kMaxEarly) early_.erase(early_.begin());
  early_.push_back(std::move(e));
}

void WorkerClient::ReadEarly() {
  Early e;
  e.id = in_flight_.front().id;
  e.answer = ReadAnswer(&e.peak_bytes, &e.ns);
  Keep(std::move(e));
}

void WorkerClient::Stop(bool kill_it) {
  // Their answers can no longer come: Restart() between the halves, or a failure of the
  // request before them.
  for (const InFlight& f : in_flight_) {
    Early e;
    e.id = f.id;
    e.answer = WorkerFailure("worker-crashed", absl::StrCat(manifest_.name,
                                                            ": the worker was stopped before "
                                                            "its answer was read"));
    Keep(std::move(e));
  }
  in_flight_.clear();
  if (to_fd_ >= 0) close(to_fd_);
  if (from_fd_ >= 0) close(from_fd_);
  to_fd_ = from_fd_ = -1;
  ahead_.clear();  // bytes of the process that ended
  if (pid_ > 0) {
    if (kill_it) kill(pid_, SIGKILL);
    // Closing its stdin ends a well-behaved worker; one that does not end is killed.
    int status = 0;
    for (int i = 0; i < 200; ++i) {
      const pid_t r = waitpid(pid_, &status, WNOHANG);
      if (r == pid_ || r < 0) {
        pid_ = -1;
        break;
      }
      usleep(5000);
    }
    if (pid_ > 0) {
      kill(pid_, SIGKILL);
      waitpid(pid_, &status, 0);
      pid_ = -1;
    }
  }
}

absl::Status WorkerClient::Fail(absl::string_view cls, std::string message) {
  Stop(true);
  return WorkerFailure(cls, absl::StrCat(manifest_.name, ": ", message));
}

absl::Status WorkerClient::FrameFailure(const absl::Status& s, absl::string_view what,
                                        int64_t timeout_ms) {
  if (absl::IsDeadlineExceeded(s)) {
    return Fail("worker-timeout", absl::StrCat("no ", what, " within ", timeout_ms, " ms"));
  }
  if (absl::IsOutOfRange(s)) return Fail("worker-protocol", absl::StrCat(what, ": ", s.message()));
  return Fail("worker-crashed", absl::StrCat("the worker ended (", what, ": ", s.message(), ")"));
}

absl::Status WorkerClient::Start() {
  if (!FindExecutable(manifest_.command[0], manifest_.dir)) {
    declined_ = absl::StrCat("the worker's runtime ", manifest_.command[0], " is not installed (",
                             manifest_.path, ")");
    return Declined(*declined_);
  }
  int to[2], from[2];
  if (pipe2(to, O_CLOEXEC) != 0) return absl::InternalError("pipe failed");
  if (pipe2(from, O_CLOEXEC) != 0) {
    close(to[0]);
    close(to[1]);
    return absl::InternalError("pipe failed");
  }
  std::vector<char*> argv;
  for (std::string& a : manifest_.command) argv.push_back(a.data());
  argv.push_back(nullptr);
  // The environment, made before fork (the child only execs): serdiff's own with the manifest's
  // "env" set over it.
  std::vector<std::string> env_text;
  for (char** e = environ; *e != nullptr; ++e) {
    const absl::string_view entry(*e);
    bool overridden = false;
    for (const auto& [k, v] : manifest_.env) {
      overridden |= absl::StartsWith(entry, absl::StrCat(k, "="));
    }
    if (!overridden) env_text.emplace_back(entry);
  }
  for (size_t i = 0; i < manifest_.env.size(); ++i) {
    const std::string& k = manifest_.env[i].first;
    bool later = false;  // a later entry of the same name wins
    for (size_t j = i + 1; j < manifest_.env.size(); ++j) later |= manifest_.env[j].first == k;
    if (!later) env_text.push_back(absl::StrCat(k, "=", manifest_.env[i].second));
  }
  std::vector<char*> envp;
  for (std::string& e : env_text) envp.push_back(e.data());
  envp.push_back(nullptr);
  const pid_t pid = fork();
  if (pid < 0) return absl::InternalError("fork failed");
  if (pid == 0) {
    dup2(to[0], 0);
    dup2(from[1], 1);
    if (chdir(manifest_.dir.c_str()) != 0) _exit(126);
    signal(SIGPIPE, SIG_DFL);
    execvpe(argv[0], argv.data(), envp.data());
    _exit(127);
  }
  close(to[0]);
  close(from[1]);
  pid_ = pid;
  to_fd_ = to[1];
  from_fd_ = from[0];
  fcntl(to_fd_, F_SETFL, fcntl(to_fd_, F_GETFL) | O_NONBLOCK);
  // Reads try first and wait only when nothing is there (worker_frames.h): an answer that came
  // while serdiff ran its own implementations costs one read, not a poll and a read.
  fcntl(from_fd_, F_SETFL, fcntl(from_fd_, F_GETFL) | O_NONBLOCK);
  ++starts_;
  // Send's `behind`: a quarter of what the pipe holds (a pipe made while the user is over
  // /proc/sys/fs/pipe-user-pages-soft holds fewer pages than the usual 16).
  const int pipe_bytes = fcntl(to_fd_, F_GETPIPE_SZ);
  pipe_budget_ = pipe_bytes > 0 ? static_cast<size_t>(pipe_bytes) / 4 : 0;
  // next_id_ goes on across restarts: an answer kept from the process before (Send's early_)
  // must not share its id with a request to this one.
  // The hello, within the deadline (a runtime's start-up counts against it).
  const auto deadline = Clock::now() + std::chrono::milliseconds(TimeoutMs(manifest_) + 20000);
  std::string body;
  if (absl::Status s = worker_frames::ReadFrame(from_fd_, deadline, &ahead_, &body); !s.ok()) {
    return FrameFailure(s, "hello frame", TimeoutMs(manifest_) + 20000);
  }
  const Json h = Json::parse(body, nullptr, false);
  // Each field's type is checked before it is read: nlohmann's value() and get() throw on a
  // field of another type, and a worker's bytes must never end serdiff.
  if (!h.is_object() || !h.contains("serdiff_worker") || !h["serdiff_worker"].is_number_integer() ||
      h["serdiff_worker"].get<int64_t>() != 1) {
    return Fail("worker-protocol", "the first frame is not a version-1 hello");
  }
  if (h.contains("declined") && h["declined"].is_string()) {
    declined_ = h["declined"].get<std::string>();
    Stop(false);
    return Declined(*declined_);
  }
  ops_.clear();
  if (h.contains("ops") && h["ops"].is_array()) {
    for (const Json& o : h["ops"]) {
      if (o.is_string()) ops_.push_back(o.get<std::string>());
    }
  }
  peak_text_ =
      h.contains("peak") && h["peak"].is_string() ? h["peak"].get<std::string>() : std::string();
  library_ = h.contains("library") && h["library"].is_string() ? h["library"].get<std::string>()
                                                               : std::string();
  return absl::OkStatus();
}

absl::Status WorkerClient::StartNow() {
  if (declined_ || pid_ >= 0) return absl::OkStatus();
  absl::Status s = Start();
  return declined_ ? absl::OkStatus() : s;
}

absl::StatusOr<ExternalAnswer> WorkerClient::Call(absl::string_view op,
                                                  absl::string_view input_json, int64_t* peak_bytes,
                                                  int time_calls, std::vector<double>* ns,
                                                  int batch) {
  *peak_bytes = -1;
  if (ns != nullptr) ns->clear();
  absl::StatusOr<int64_t> id = Send(op, input_json, time_calls, batch);
  if (!id.ok()) return id.status();
  return Receive(*id, peak_bytes, ns);
}

absl::StatusOr<int64_t> WorkerClient::Send(absl::string_view op, absl::string_view input_json,
                                           int time_calls, int batch, bool peak, bool behind) {
  if (declined_) return Declined(*declined_);
  // A request behind another is written only when the unread requests fit the pipe's budget
  // (checked below, once its frame is built); any other waits for the answers before it.
  if (behind && in_flight_.size() > 1) return 0;
  if (!behind) {
    while (!in_flight_.empty()) ReadEarly();
    if (declined_) return Declined(*declined_);
  }
  if (pid_ < 0) {
    if (absl::Status s = Start(); !s.ok()) {
      // A worker that cannot even start is declined for the rest of the process after two
      // tries in a row, so that a broken runtime does not make every input a failure.
      if (!declined_ && ++failed_starts_ >= 2) {
        declined_ = absl::StrCat("the worker failed to start twice: ", s.message());
      }
      return s;
    }
    failed_starts_ = 0;
  }
  if (std::find(ops_.begin(), ops_.end(), op) == ops_.end()) {
    return Declined(absl::StrCat(manifest_.name, " does not answer ", op));
  }
  // The frame is built in one buffer kept between calls (no allocation once it is large enough).
  const ReleaseIfLarge release{&request_};
  std::string& req = request_;
  const int64_t id = next_id_;
  worker_frames::StartFrame(&req);
  absl::StrAppend(&req, "{\"id\":", id, ",\"op\":\"", op, "\",\"input\":");
  req.append(input_json.data(), input_json.size());
  if (time_calls > 0) absl::StrAppend(&req, ",\"time\":", time_calls);
  if (time_calls > 0 && batch > 1) absl::StrAppend(&req, ",\"batch\":", batch);
  if (!peak) req.append(",\"peak\":false");
  req.push_back('}');
  worker_frames::EndFrame(&req);
  if (!in_flight_.empty()) {  // behind: the unread requests must fit, this one included
    size_t unread = req.size();
    for (const InFlight& f : in_flight_) unread += f.frame_bytes;
    if (unread > pipe_budget_) return 0;
  }
  ++next_id_;
  ++calls_;
  const auto deadline = Clock::now() + std::chrono::milliseconds(TimeoutMs(manifest_));
  const int ahead = static_cast<int>(in_flight_.size());
  if (absl::Status s = worker_frames::WriteAll(to_fd_, req, deadline, /*only_if_room=*/ahead > 0);
      !s.ok()) {
    if (ahead > 0 && !absl::IsDeadlineExceeded(s)) {
      // Behind a request whose answer is not read yet, and nothing could be written (the pipe
      // full after all) or the worker ended (EPIPE), perhaps after writing that answer, which
      // must not be lost. Not sent: the caller reads that answer, or its failure, first and
      // sends this request again.
      --calls_;
      return 0;
    }
    if (absl::IsDeadlineExceeded(s)) return Fail("worker-timeout", "request not taken in time");
    return Fail("worker-crashed", absl::StrCat("writing the request: ", s.message()));
  }
  in_flight_.push_back(InFlight{id, time_calls, batch, req.size(), ahead});
  return id;
}

absl::StatusOr<ExternalAnswer> WorkerClient::Receive(int64_t id, int64_t* peak_bytes,
                                                     std::vector<double>* ns) {
  *peak_bytes = -1;
  if (ns != nullptr) ns->clear();
  for (size_t i = 0; i < early_.size(); ++i) {
    if (early_[i].id != id) continue;
    Early e = std::move(early_[i]);
    early_.erase(early_.begin() + static_cast<std::ptrdiff_t>(i));
    *peak_bytes = e.peak_bytes;
    if (ns != nullptr) *ns = std::move(e.ns);
    return std::move(e.answer);
  }
  bool pending = false;
  for (const InFlight& f : in_flight_) pending |= f.id == id;
  if (!pending) {
    return absl::InternalError(absl::StrCat(manifest_.name, ": no request ", id, " is pending"));
  }
  // The answers come in the order of the requests: those before this one's are kept. A failure
  // among them ends the worker, and this request's verdict is then kept too (Stop).
  while (!in_flight_.empty() && in_flight_.front().id != id) ReadEarly();
  if (in_flight_.empty()) return Receive(id, peak_bytes, ns);
  return ReadAnswer(peak_bytes, ns);
}

absl::StatusOr<ExternalAnswer> WorkerClient::ReadAnswer(int64_t* peak_bytes,
                                                        std::vector<double>* ns) {
  const InFlight f = in_flight_.front();
  in_flight_.pop_front();
  const int64_t id = f.id;
  const int time_calls = f.time_calls;
  const int batch = f.batch;
  // A request written behind others waits for the worker to answer those first: its answer has
  // one more timeout for each of them, so that no worker is late here that would have been on
  // time had the request been sent after their answers were read (docs/workers.md).
  const int64_t timeout_ms = TimeoutMs(manifest_) * (1 + f.ahead);
  const auto deadline = Clock::now() + std::chrono::milliseconds(timeout_ms);
  const ReleaseIfLarge release{&answer_};  // after the answer is made of it
  std::string& body = answer_;
  // A timed call's answer is not spun on: the spin would share a core (or an SMT sibling) with
  // the worker while it times the implementation (docs/workers.md, "Waiting for an answer").
  worker_frames::SpinWait* const spin = time_calls > 0 ? nullptr : &spin_;
  if (absl::Status s = worker_frames::ReadFrame(from_fd_, deadline, &ahead_, &body, spin);
      !s.ok()) {
    return FrameFailure(s, "answer", timeout_ms);
  }
  // The common answer without a JSON document (worker_frames.h; under a fuzzer's
  // AddressSanitizer the document's allocations were most of the call's cost on serdiff's side,
  // docs/fuzzing.md). Anything else, and a timed call's answer, is parsed and judged below.
  if (time_calls == 0) {
    int64_t read_id = 0;
    ExternalAnswer plain;
    if (worker_frames::ReadPlainAnswer(body, &read_id, peak_bytes, &plain.bytes) && read_id == id) {
      plain.has_hex = true;
      return plain;
    }
    *peak_bytes = -1;
  }
  const Json a = Json::parse(body, nullptr, false);
  if (!a.is_object()) return Fail("worker-protocol", "the answer is not one JSON object");
  if (!a.contains("id") || !a["id"].is_number_integer() || a["id"].get<int64_t>() != id) {
    return Fail("worker-protocol", absl::StrCat("the answer does not echo id ", id));
  }
  if (a.contains("peak")) {
    // A negative peak would pass every heap bound (docs/workers.md: a peak is 0 or more).
    if (!a["peak"].is_number_integer() || a["peak"].get<int64_t>() < 0) {
      return Fail("worker-protocol", "\"peak\" is not a byte count (an integer >= 0)");
    }
    *peak_bytes = a["peak"].get<int64_t>();
  }
  if (!a.contains("ok") || !a["ok"].is_boolean()) {
    return Fail("worker-protocol", "the answer has no boolean \"ok\"");
  }
  if (!a["ok"].get<bool>()) {
    const std::string err =
        a.contains("error") && a["error"].is_string() ? a["error"].get<std::string>() : "";
    const std::string msg = a.contains("message") && a["message"].is_string()
                                ? a["message"].get<std::string>()
                                : std::string();
    if (err == "declined") return Declined(absl::StrCat(manifest_.name, ": ", msg));
    if (err != "rejected") {
      return Fail("worker-protocol", absl::StrCat("\"error\" is neither rejected nor declined"));
    }
    absl::Status st = absl::InvalidArgumentError(absl::StrCat(manifest_.name, ": ", msg));
    if (a.contains("offset")) {
      if (!a["offset"].is_number_integer() || a["offset"].get<int64_t>() < 0) {
        return Fail("worker-protocol", "\"offset\" is not a byte offset (an integer >= 0)");
      }
      st = WithErrorOffset(std::move(st), a["offset"].get<int64_t>());
    }
    return st;
  }
  ExternalAnswer ans;
  if (a.contains("hex")) {
    if (!a["hex"].is_string()) return Fail("worker-protocol", "\"hex\" is not a string");
    const std::string& hex = a["hex"].get_ref<const std::string&>();
    if (hex.size() % 2 != 0) return Fail("worker-protocol", "\"hex\" has an odd length");
    for (char c : hex) {
      if (!((c >= '0' && c <= '9') || (c >= 'a' && c <= 'f') || (c >= 'A' && c <= 'F'))) {
        return Fail("worker-protocol", "\"hex\" holds a non-hex character");
      }
    }
    ans.bytes = absl::HexStringToBytes(hex);
    ans.has_hex = true;
  }
  if (a.contains("value")) ans.value_json = a["value"].dump();
  if (!a.contains("hex") && !a.contains("value")) {
    return Fail("worker-protocol", "an accepted answer has neither \"hex\" nor \"value\"");
  }
  if (time_calls > 0 && a.contains("ns")) {
    const Json& t = a["ns"];
    bool good = t.is_array() && t.size() == static_cast<size_t>(time_calls);
    for (size_t i = 0; good && i < t.size(); ++i) {
      good = t[i].is_number_integer() && t[i].get<int64_t>() >= 0;
    }
    if (!good) {
      return Fail("worker-protocol",
                  absl::StrCat("\"ns\" is not ", time_calls, " timings (integers >= 0)"));
    }
    // A worker that does not know "batch" timed each call alone and says nothing; one that
    // batched echoes it. Any other "batch" would divide the timings by the wrong count.
    int64_t per = 1;
    if (a.contains("batch")) {
      const Json& b = a["batch"];
      if (batch <= 1 || !b.is_number_integer() || b.get<int64_t>() != batch) {
        return Fail("worker-protocol",
                    absl::StrCat("\"batch\" is not the ", batch > 1 ? absl::StrCat(batch) : "none",
                                 " asked for"));
      }
      per = batch;
    }
    if (ns != nullptr) {
      for (const Json& x : t) {
        ns->push_back(static_cast<double>(x.get<int64_t>()) / static_cast<double>(per));
      }
    }
  }
  return ans;
}

// ---- modules ----------------------------------------------------------------------------------

absl::StatusOr<const serdiff_module*> LoadModule(const std::string& path) {
  void* h = dlopen(path.c_str(), RTLD_NOW | RTLD_LOCAL);
  if (h == nullptr) {
    const char* e = dlerror();
    return absl::NotFoundError(absl::StrCat(path, ": cannot load the module: ", e ? e : "?"));
  }
  auto entry = reinterpret_cast<serdiff_module_v1_fn>(dlsym(h, SERDIFF_MODULE_ENTRY));
  if (entry == nullptr) {
    return absl::InvalidArgumentError(
        absl::StrCat(path, ": exports no ", SERDIFF_MODULE_ENTRY, " (harness/serdiff_module.h)"));
  }
  const serdiff_module* m = entry();
  if (m == nullptr || m->abi_version < SERDIFF_MODULE_ABI_OLDEST ||
      m->abi_version > SERDIFF_MODULE_ABI) {
    return absl::InvalidArgumentError(
        absl::StrCat(path, ": module ABI version ", m ? m->abi_version : -1, ", serdiff speaks ",
                     SERDIFF_MODULE_ABI_OLDEST, " to ", SERDIFF_MODULE_ABI));
  }
  if (m->name == nullptr || !ValidImplementationName(m->name)) {
    return absl::InvalidArgumentError(absl::StrCat(path, ": module name must be [a-z0-9_]+"));
  }
  return m;
}

bool OpJoinsTarget(const serdiff_op& op, absl::string_view target) {
  if (op.targets == nullptr) return true;
  for (absl::string_view t : absl::StrSplit(op.targets, ',')) {
    if (absl::StripAsciiWhitespace(t) == absl::string_view(target.data(), target.size())) {
      return true;
    }
  }
  return false;
}

// ---- configuration ------------------------------------------------------------------------------

std::string OraclesDir() {
  if (const char* e = std::getenv("SERDIFF_ORACLES_DIR"); e != nullptr && *e) return e;
  std::error_code ec;
  // An installed binary, <prefix>/bin/serdiff: its own prefix's data, wherever the prefix was
  // installed or moved, and whether or not the source tree it was built from is still there.
  const std::filesystem::path exe = std::filesystem::read_symlink("/proc/self/exe", ec);
  if (!ec && exe.parent_path().filename() == "bin") {
    const std::filesystem::path installed =
        exe.parent_path() / SERDIFF_BIN_TO_DATADIR / "serdiff" / "oracles";
    if (std::filesystem::is_directory(installed, ec)) return installed.lexically_normal().string();
  }
  const std::string src = std::string(SERDIFF_SOURCE_DIR) + "/oracles";
  if (!std::string(SERDIFF_SOURCE_DIR).empty() && std::filesystem::is_directory(src, ec)) {
    return src;
  }
  return std::string(SERDIFF_INSTALL_DATADIR) + "/serdiff/oracles";
}

std::vector<std::string> ShippedWorkerManifests() {
  std::error_code ec;
  std::vector<std::string> found;
  for (const auto& dir : std::filesystem::directory_iterator(OraclesDir(), ec)) {
    for (const auto& f : std::filesystem::directory_iterator(dir.path(), ec)) {
      const std::string name = f.path().filename().string();
      if (absl::StartsWith(name, "worker") && absl::EndsWith(name, ".json")) {
        found.push_back(f.path().string());
      }
    }
  }
  std::sort(found.begin(), found.end());
  return found;
}

}  // namespace serdiff::harness
