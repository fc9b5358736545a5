// serdiff harness: implementations from outside the build, judged like compiled-in ones
// (docs/workers.md).
//
//   * a WORKER: a program in any language, started once per process with its manifest's
//     command and spoken to over its stdin/stdout in length-prefixed JSON frames; it reports
//     its own peak heap per call. Its failures are verdicts: "worker-crashed:<impl>",
//     "worker-timeout:<impl>", "worker-protocol:<impl>"; a missing runtime or package is a
//     decline with its reason.
//   * a MODULE: a shared library with the C ABI of harness/serdiff_module.h, loaded with dlopen,
//     called in process under the allocation tracker. Breaking the ABI's rules on the output's
//     room is a verdict too: "module-protocol:<impl>".
//
// A target opts in by giving its TargetDef an Interchange (harness/interchange.h): the operation
// name and how its input becomes the operation's JSON input (and, for modules, the fast forms).
// WorkerImpl and ModuleImpl below build the implementation of one worker or module operation
// for a target; the registry's AttachExternal (harness/registry.h) joins every worker and
// module to the targets they name.
#pragma once

#include <cstddef>
#include <cstdint>
#include <deque>
#include <functional>
#include <memory>
#include <optional>
#include <string>
#include <utility>
#include <vector>
#include "absl/strings/string_view.h"

#include "absl/status/status.h"
#include "absl/status/statusor.h"
#include "absl/strings/str_cat.h"
#include "harness/alloc_tracker.h"
#include "harness/definition.h"
#include "harness/interchange.h"
#include "harness/serdiff_module.h"
#include "harness/worker_frames.h"

namespace serdiff::harness {

// ---- workers --------------------------------------------------------------------------------

// oracles/<name>/worker.json (docs/workers.md, "The manifest").
struct WorkerManifest {
  std::string path;                  // the manifest file
  std::string dir;                   // its folder: the worker's working directory
  std::string name;                  // the implementation's name
  std::vector<std::string> command;  // argv; argv[0] absolute or found on PATH
  std::string origin;                // where it comes from (serdiff list)
  std::vector<std::string> targets;  // the targets it joins
  // For writing a request, and for its answer from when serdiff waits for it (docs/workers.md);
  // SERDIFF_WORKER_TIMEOUT_MS overrides.
  int timeout_ms = 10000;
  bool is_default = true;  // false: loaded only when named (--worker)
  // Added to the target's heap bound when this worker is the subject (its runtime's own
  // overhead), with the reason shown in reports.
  int64_t slack_per_output_permille = 0;
  int64_t slack_bytes = 0;
  // Permille of the input's size in its corpus form (the bytes a fuzz binary reads): for a
  // decoder, whose library may build a tree from the bytes it reads before it rejects (the
  // output is then empty and per_output_permille adds nothing).
  int64_t slack_per_input_permille = 0;
  std::string slack_reason;
  // A target's own slack in place of the one above, where the runtime's overhead on that target
  // is of another shape ("heap_slack": {..., "targets": {"<target>": {"per_output_permille": P,
  // "bytes": B, "reason": "..."}}}).
  struct TargetSlack {
    std::string target;
    int64_t per_output_permille = 0;
    int64_t bytes = 0;
    std::string reason;
    int64_t per_input_permille = 0;
  };
  std::vector<TargetSlack> target_slack = {};
  // How far this runtime's peak moves between identical calls (`serdiff review` adds it to its
  // heap allowance): percent of the before side's peak plus bytes, with the measured reason.
  int64_t heap_noise_percent = 0;
  int64_t heap_noise_bytes = 0;
  std::string heap_noise_reason;
  // Set in the worker's environment over serdiff's own ("env": {"NAME": "value", ...}; then
  // ExternalConfig::worker_env, e.g. `serdiff review --after-env PYTHONPATH=<checkout>`).
  std::vector<std::pair<std::string, std::string>> env = {};
  // Its declines held at their edges ("decline_edges", docs/workers.md "Decline edges"): for
  // each decline with a boundary, the last request the worker must answer (declined false) and
  // the first it must decline (true). A decline too wide by one value hides a peer's bug as
  // "not compared"; WorkerDeclines.EveryShippedWorkerHoldsItsDeclineEdges sends each request.
  struct DeclineEdge {
    std::string text;        // which edge, in words ("a UTC datetime of 8.64e15 ms, a Date's last")
    std::string op;          // the request's op
    std::string input_json;  // the request's input (a JSON object)
    bool declined = false;   // what the worker must answer: declined, or anything else
  };
  std::vector<DeclineEdge> decline_edges = {};
  // Why a worker has no decline edges ("no_decline_edges"): a manifest has one or the other.
  std::string no_decline_edges = {};
};
// Reads a manifest. Errors: NotFound (no file), InvalidArgument "<path>: <what>" for text that
// is not JSON (the parser's message, with the byte where it broke off) or JSON that is not a
// manifest (a field the format does not have, at the top or inside "heap_noise" or
// "heap_slack": a typo, never read as the default; missing name, command or targets; a name not
// [a-z0-9_]+; a "decline_edges" entry without a text, an op, an object input or a boolean
// "declined"; "env" not an object of strings; a negative number in "heap_noise" or "heap_slack"; a
// "heap_slack"."targets" entry naming a target not in "targets" or without a "reason"). The
// file is parsed once, keeping its key order (a decline edge's input is sent as written).
absl::StatusOr<WorkerManifest> ReadWorkerManifest(const std::string& path);

// Whether `name` may name an implementation from outside (a worker's "name", a module's name):
// one or more of [a-z0-9_].
bool ValidImplementationName(absl::string_view name);

// One worker process, started at its first call, restarted after a failure.
class WorkerClient {
 public:
  explicit WorkerClient(WorkerManifest manifest);
  ~WorkerClient();
  WorkerClient(const WorkerClient&) = delete;
  WorkerClient& operator=(const WorkerClient&) = delete;

  // Sends one request and waits for its answer, at most the deadline. Returns the answer, a
  // rejection (the worker's message, with its offset as serdiff/common/error_offset.h
  // attaches it), Declined (the worker's reason, a missing runtime, an op the worker lacks)
  // or a WorkerFailure status. *peak_bytes: the worker's reported peak, -1 when unknown.
  //
  // Timed calls (`serdiff review`): time_calls > 0 asks the worker for that many more timings
  // of the implementation alone after an accepted answer (the request's "time"), each of `batch`
  // calls in a row (the request's "batch", sent when batch > 1, at most 1000000), and
  // *ns receives the nanoseconds per call of each timing: the answer's "ns" divided by the
  // batch the answer echoes ("batch": B; a worker that does not say timed each call alone). Left
  // empty when the worker does not time (a worker not built on serdiff's libraries).
  // worker-protocol: an "ns" that is not time_calls integers >= 0, or a "batch" in the answer
  // that is not the one asked for.
  absl::StatusOr<ExternalAnswer> Call(absl::string_view op, absl::string_view input_json,
                                      int64_t* peak_bytes, int time_calls = 0,
                                      std::vector<double>* ns = nullptr, int batch = 1);

  // Call in two halves, for a caller with work of its own to do while the worker answers (the
  // verdict runs the in-process implementations in between: TypedTarget::Judge). Send starts
  // the worker if needed and writes the request; it returns the request's id (> 0), or what
  // Call would have returned without an answer: Declined (the worker's runtime or package is
  // missing, or it lacks the op) or a WorkerFailure (it failed to start, or the request could
  // not be written: worker-crashed, worker-timeout). Receive(id) waits for that answer and gives
  // what Call gives; its deadline (the manifest's timeout) is counted from the Receive, so time
  // spent between the two halves is not the worker's.
  //
  // Neither process may block writing to the other while that one writes too (a large request
  // against a large answer). So a Send reads the answers of the requests in flight first and
  // keeps them (or their failures) for their own Receives (the last 16 such answers are kept),
  // except a Send `behind` them: that one is written behind the requests in flight, without
  // reading their answers, when at most one request is in flight before it and the requests
  // unread fit in a quarter of the pipe (a quarter of the capacity fcntl F_GETPIPE_SZ gives,
  // 16 KiB of the usual 64 KiB), so that its write does not block. Otherwise, and when its
  // write finds the pipe full before its first byte or the worker ended (whose last answer may
  // be in the pipe, and is kept for its Receive), it sends nothing and returns 0 (the caller
  // sends it later, not behind). The worker answers the requests in order ("order.pipelined" of
  // the worker conformance suite, docs/workers.md). A failure that ends the worker (a crash, a
  // timeout, a protocol error) is the verdict of the request whose answer was being read, and
  // the requests behind it are worker-crashed ("stopped before its answer was read"). Receives
  // may come in any order. A Receive of an id that was never sent, was already received or was
  // dropped is InternalError (a bug of the caller, never a verdict). The deadline holds for the
  // write, and for the answer from when Receive starts to wait (an answer already there is
  // taken); the answer of a request written behind another has twice the timeout, since the
  // worker answers the one before it first.
  // peak false: serdiff does not need this call's peak, and says so in the request ("peak":
  // false); the answer then may leave it out (Receive's *peak_bytes -1).
  absl::StatusOr<int64_t> Send(absl::string_view op, absl::string_view input_json,
                               int time_calls = 0, int batch = 1, bool peak = true,
                               bool behind = false);
  absl::StatusOr<ExternalAnswer> Receive(int64_t id, int64_t* peak_bytes,
                                         std::vector<double>* ns = nullptr);

  // Ends the worker process (its stdin closed; killed if it does not end within a second), so
  // that the next call starts a fresh one: `serdiff review` times each input in a fresh process,
  // whose figures do not depend on what the worker ran before (a JIT's type feedback, an
  // allocator's state). Nothing happens when no process is running.
  void Restart() { Stop(false); }

  // Starts the worker now unless it runs or declined already: `check`, `repro` and `review` start
  // the workers a user names (a --worker manifest, SERDIFF_WORKERS, the subject, a review side)
  // before their first input, so that one that cannot even start is a problem of the run (exit
  // 2, "not attached"), not a finding against it. OK when the worker runs or declined (its
  // runtime or package is missing: declined_reason() says why, and it is judged as declining);
  // else the start's WorkerFailure (worker-crashed: it exited or its command could not run before
  // its hello; worker-protocol: its first frame is not a version-1 hello; worker-timeout).
  absl::Status StartNow();

  const WorkerManifest& manifest() const { return manifest_; }
  // Why the worker declines every call (its runtime or package is missing), once it was asked.
  const std::optional<std::string>& declined_reason() const { return declined_; }
  int64_t calls() const { return calls_; }
  int64_t starts() const { return starts_; }
  // The hello's peak text (how the worker measures its peak), once it has started.
  const std::string& peak_text() const { return peak_text_; }
  // The hello's "library" (the library's name and the version the worker found; empty when the
  // hello names none), once it has started.
  const std::string& library() const { return library_; }
  // How the answers are waited for (worker_frames::SpinWait: its limit, from
  // worker_frames::DefaultSpinLimit() when the client is made, and its counts so far). The hello
  // and a timed call's answer (time_calls > 0) are never spun on, nor counted.
  const worker_frames::SpinWait& spin() const { return spin_; }

 private:
  absl::Status Start();
  void Stop(bool kill);
  absl::Status Fail(absl::string_view cls, std::string message);
  // The verdict of a frame that could not be read (ReadFrame's status): worker-timeout,
  // worker-protocol (over the frame limit) or worker-crashed; `what` names the frame.
  absl::Status FrameFailure(const absl::Status& s, absl::string_view what, int64_t timeout_ms);

  // A request written whose answer is not read yet, and the answers read early (Send).
  struct InFlight {
    int64_t id = 0;
    int time_calls = 0;
    int batch = 1;
    size_t frame_bytes = 0;  // the request's frame, length included
    int ahead = 0;           // requests in flight before it when it was written
  };
  struct Early {
    int64_t id = 0;
    absl::StatusOr<ExternalAnswer> answer;
    int64_t peak_bytes = -1;
    std::vector<double> ns;
  };
  // Reads the answer of the first request in flight (Receive's work; takes it off in_flight_).
  absl::StatusOr<ExternalAnswer> ReadAnswer(int64_t* peak_bytes, std::vector<double>* ns);
  // Reads the first request in flight's answer into early_ (Send's and Receive's waits).
  void ReadEarly();
  // Keeps an answer for its Receive, dropping the oldest beyond 16.
  void Keep(Early e);

  WorkerManifest manifest_;
  // Buffers kept between calls: bytes read from the worker past the last frame, the request
  // frame being written and the answer's body.
  std::string ahead_;
  std::string request_;
  std::string answer_;
  std::deque<InFlight> in_flight_;  // in the order sent, which is the order of the answers
  worker_frames::SpinWait spin_;    // how the answers are waited for (not the hello)
  size_t pipe_budget_ = 0;          // Send's `behind`: a quarter of the pipe's capacity
  std::vector<Early> early_;
  int pid_ = -1;
  int to_fd_ = -1;
  int from_fd_ = -1;
  int64_t next_id_ = 1;
  int64_t calls_ = 0;
  int64_t starts_ = 0;
  std::vector<std::string> ops_;
  std::string peak_text_;
  std::string library_;
  std::optional<std::string> declined_;  // the hello's or the start's reason, once known
  int failed_starts_ = 0;
};

// ---- modules ----------------------------------------------------------------------------------

// A loaded module (dlopen, never closed). Errors: NotFound when the file cannot be loaded,
// InvalidArgument when it lacks serdiff_module_v1, its name is not [a-z0-9_]+, or its ABI version
// is outside SERDIFF_MODULE_ABI_OLDEST..SERDIFF_MODULE_ABI (1..2).
absl::StatusOr<const serdiff_module*> LoadModule(const std::string& path);

// Calls one operation of a module, collecting its output: the bytes it wrote into the room
// serdiff gives it up front (256 bytes), then those it appended (harness/serdiff_module.h). The
// int64 form's value is given in `scalar`; the JSON form's in `json`; the list form's in `list`.
// Errors: InvalidArgument (with the module's message and, when it gave one, its byte offset) for
// SERDIFF_REJECTED or any unknown return code; Declined (harness/result.h) for SERDIFF_DECLINED;
// a WorkerFailure of class "module-protocol" (harness/result.h) when the module broke the
// room's rules (a room_used past the room, or changed after the first append), whatever it
// returned.
absl::StatusOr<std::string> CallModuleOp(const serdiff_op& op, int64_t scalar,
                                         absl::string_view json, const Int32List* list);

// CallModuleOp under the allocation tracker: its outcome and the call's peak heap (bytes above
// the live count at the call; the output string included). The verdict's path for a module.
MeasuredOutput MeasuredModuleCall(const serdiff_op& op, int64_t scalar, absl::string_view json,
                                  const Int32List* list);

// True when the comma-separated `targets` of an op (NULL: all) names `target`.
bool OpJoinsTarget(const serdiff_op& op, absl::string_view target);

// ---- what a process attaches ----------------------------------------------------------------

// Where the shipped worker manifests live: SERDIFF_ORACLES_DIR if set; else, for a binary in
// <prefix>/bin, <prefix>/share/serdiff/oracles when it exists; else the source tree's oracles/
// (compiled in); else the configured install datadir's serdiff/oracles.
std::string OraclesDir();

// Every shipped worker manifest: OraclesDir()/<name>/worker*.json, sorted by path. Empty when
// the folder cannot be read.
std::vector<std::string> ShippedWorkerManifests();

// ---- implementations from outside, for a target ---------------------------------------------

// The implementation a worker gives a target with this interchange: named after the manifest, an
// oracle unless made the subject, run in the worker's process; its peak is the one the worker
// reports for the call (-1 when it does not say). `ic` must outlive the implementation (the
// target's own TargetDef, which never moves).
template <typename T>
Impl<T> WorkerImpl(std::shared_ptr<WorkerClient> client, const Interchange<T>* ic,
                   absl::string_view target) {
  const WorkerManifest& m = client->manifest();
  Impl<T> impl;
  impl.name = m.name;
  impl.role = Role::kOracle;
  impl.kind = ImplKind::kWorker;
  impl.origin = absl::StrCat("worker ", m.path, ": ", m.origin);
  impl.slack_per_output_permille = m.slack_per_output_permille;
  impl.slack_bytes = m.slack_bytes;
  impl.slack_per_input_permille = m.slack_per_input_permille;
  impl.slack_reason = m.slack_reason;
  for (const WorkerManifest::TargetSlack& t : m.target_slack) {
    if (t.target != target) continue;
    impl.slack_per_output_permille = t.per_output_permille;
    impl.slack_bytes = t.bytes;
    impl.slack_per_input_permille = t.per_input_permille;
    impl.slack_reason = t.reason;
  }
  // A request behind another is the rerun of the value just sent (RunAll): its input's JSON is
  // the one made for that request, kept here (not kept over 1 MiB, which could not go behind
  // another anyway: the request is then not sent behind, and 0 says so).
  auto last_input = std::make_shared<std::string>();
  impl.send_run = [ic, client, last_input](const T& v, bool peak,
                                           bool behind) -> absl::StatusOr<int64_t> {
    if (behind) {
      if (last_input->empty()) return 0;
      return client->Send(ic->op, *last_input, 0, 1, peak, behind);
    }
    absl::StatusOr<std::string> in = ic->input_json(v);
    if (!in.ok()) return in.status();
    *last_input = std::move(*in);
    absl::StatusOr<int64_t> sent = client->Send(ic->op, *last_input, 0, 1, peak, behind);
    if (last_input->size() > (size_t{1} << 20)) std::string().swap(*last_input);
    return sent;
  };
  impl.receive_run = [ic, client](const T& v, const absl::StatusOr<int64_t>& sent) {
    MeasuredOutput r;
    if (!sent.ok()) {
      r.output = sent.status();
      return r;
    }
    absl::StatusOr<ExternalAnswer> ans = client->Receive(*sent, &r.peak_bytes);
    if (!ans.ok()) {
      r.output = ans.status();
    } else if (ic->output) {
      r.output = ic->output(v, *ans);
    } else if (!ans->has_hex) {  // the output is the answer's bytes, and it gave none
      r.output = WorkerFailure("worker-protocol",
                               absl::StrCat(client->manifest().name, ": the answer to ", ic->op,
                                            " has no \"hex\" (its output is bytes)"));
    } else {
      r.output = std::move(ans->bytes);
    }
    return r;
  };
  // The whole call: its two halves in a row (WorkerClient::Call is Send then Receive).
  impl.measured_run = [send = impl.send_run, receive = impl.receive_run](const T& v) {
    return receive(v, send(v, true, false));
  };
  impl.fresh_process = [client] { client->Restart(); };
  impl.timed_run = [ic, client](const T& v, int calls, int batch) -> std::vector<double> {
    std::vector<double> ns;
    absl::StatusOr<std::string> in = ic->input_json(v);
    if (!in.ok()) return ns;
    int64_t peak = -1;
    if (!client->Call(ic->op, *in, &peak, calls, &ns, batch).ok()) ns.clear();
    return ns;
  };
  return impl;
}

// True when a module operation of this form can serve the interchange (the form's conversion is
// set).
template <typename T>
bool ModuleFormFits(const serdiff_op& op, const Interchange<T>& ic) {
  return (op.form == SERDIFF_FORM_JSON && ic.input_json) ||
         ((op.form == SERDIFF_FORM_INT64 || op.form == SERDIFF_FORM_UINT64) && ic.as_int64) ||
         (op.form == SERDIFF_FORM_INT32_LIST && ic.as_int32_list);
}

// The implementation one module operation gives a target with this interchange. Its peak is the
// allocation tracker's around the module call alone: serdiff's own conversion of the input to
// the op's form is not the module's. Precondition: ModuleFormFits(*op, *ic). `module`, `op` and
// `ic` outlive the implementation.
template <typename T>
Impl<T> ModuleImpl(const serdiff_module* module, const serdiff_op* op, const Interchange<T>* ic) {
  Impl<T> impl;
  impl.name = module->name;
  impl.role = Role::kOracle;
  impl.kind = ImplKind::kModule;
  impl.origin = absl::StrCat("module ", module->origin ? module->origin : "");
  if (op->form == SERDIFF_FORM_INT64 || op->form == SERDIFF_FORM_UINT64) {
    // A scalar op gets a function of its own: no list or JSON locals in the frame of a call that
    // costs about as much as the function it calls (docs/benchmarks.md).
    impl.measured_run = [ic, op](const T& v) -> MeasuredOutput {
      return MeasuredModuleCall(*op, ic->as_int64(v), {}, nullptr);
    };
  } else if (op->form == SERDIFF_FORM_INT32_LIST) {
    impl.measured_run = [ic, op](const T& v) -> MeasuredOutput {
      absl::StatusOr<Int32List> l = ic->as_int32_list(v);
      if (!l.ok()) return MeasuredOutput{l.status()};
      return MeasuredModuleCall(*op, 0, {}, &*l);
    };
  } else {
    impl.measured_run = [ic, op](const T& v) -> MeasuredOutput {
      absl::StatusOr<std::string> in = ic->input_json(v);
      if (!in.ok()) return MeasuredOutput{in.status()};
      MeasuredOutput r = MeasuredModuleCall(*op, 0, *in, nullptr);
      if (!r.output.ok() || !ic->output) return r;
      ExternalAnswer a;
      a.bytes = std::move(*r.output);
      a.has_hex = true;
      r.output = ic->output(v, a);
      return r;
    };
  }
  impl.timed_run = [ic, op](const T& v, int calls, int batch) -> std::vector<double> {
    std::vector<double> ns;
    int64_t scalar = 0;
    std::string json;
    std::optional<Int32List> list;
    if (op->form == SERDIFF_FORM_INT64 || op->form == SERDIFF_FORM_UINT64) {
      scalar = ic->as_int64(v);
    } else if (op->form == SERDIFF_FORM_INT32_LIST) {
      absl::StatusOr<Int32List> l = ic->as_int32_list(v);
      if (!l.ok()) return ns;
      list = *std::move(l);
    } else {
      absl::StatusOr<std::string> in = ic->input_json(v);
      if (!in.ok()) return ns;
      json = *std::move(in);
    }
    const Int32List* l = list ? &*list : nullptr;
    bool ok = true;
    ns = TimeBatches(
        [&] {
          const bool call_ok = CallModuleOp(*op, scalar, json, l).ok();
          ok &= call_ok;
          return call_ok;
        },
        calls, batch);
    if (!ok) return {};  // a call that failed: not timed
    return ns;
  };
  return impl;
}

}  // namespace serdiff::harness
