// serdiff harness: implementations from outside the build, judged like compiled-in ones
// (docs/workers.md).
//
//   * a WORKER: a program in any language, started once per process with its manifest's
//     command and spoken to over its stdin/stdout in length-prefixed JSON frames; it reports
//     its own peak heap per call. Its failures are verdicts: "worker-crashed:<impl>",
//     "worker-timeout:<impl>", "worker-protocol:<impl>"; a missing runtime or package is a
//     decline with its reason.
//   * a MODULE: a shared library with the C ABI of harness/serdiff_module.h, loaded with dlopen,
//     called in process under the allocation tracker.
//
// A target opts in by giving its TargetDef an Interchange: the operation name and how its
// input becomes the operation's JSON input (and, for modules, the fast forms). The registry's
// AttachExternal joins every worker and module to the targets they name.
#pragma once

#include <cstdint>
#include <functional>
#include <memory>
#include <optional>
#include <string>
#include <vector>
#include "absl/strings/string_view.h"

#include "absl/status/status.h"
#include "absl/status/statusor.h"
#include "harness/serdiff_module.h"

namespace serdiff::harness {

// What a worker or module answered for an accepted input: the output bytes (from "hex"), or
// an interchange value (the JSON text of "value", for decode operations).
struct ExternalAnswer {
  std::string bytes;
  std::optional<std::string> value_json;
};

// A CQL list<int> for SERDIFF_FORM_INT32_LIST.
struct Int32List {
  std::vector<int32_t> values;
  std::vector<unsigned char> nulls;  // empty: no nulls; else one per value, 1 = null
  int protocol_version = 4;
};

// How a target's input crosses to a worker or a module (docs/workers.md, "The interchange").
template <typename T>
struct Interchange {
  std::string op;  // "cql.serialize", ...; empty: the target takes no outside implementation
  // The operation's "input" object as JSON text. An input the interchange cannot express
  // exactly returns Declined(reason) (harness/target.h), so the outside implementation is not
  // compared on it.
  std::function<absl::StatusOr<std::string>(const T&)> input_json;
  // An accepted answer -> the target's output form. Unset: the answer's bytes, as they are.
  std::function<absl::StatusOr<std::string>(const T&, const ExternalAnswer&)> output;
  // Module fast forms (serdiff_module.h), set where the op has one: the input as one int64
  // (SERDIFF_FORM_INT64 / UINT64: its bit pattern) or as a CQL list<int> (Declined when the
  // input is another type).
  std::function<int64_t(const T&)> as_int64;
  std::function<absl::StatusOr<Int32List>(const T&)> as_int32_list;
};

// Appends `s` as a JSON string (RFC 8259 section 7): '"' and '\\' escaped, the control
// characters as \b \f \n \r \t or \u00xx, everything else (UTF-8 included) as it is. For the
// interchanges' input_json (the text must be UTF-8; callers decline what is not).
void AppendJsonString(std::string* out, absl::string_view s);

// ---- verdict classes of a worker's failures -------------------------------------------------

// The payload that marks a status as a worker failure; its value is the class prefix
// ("worker-crashed", "worker-timeout", "worker-protocol"). JudgeCase reports such a run as
// "<prefix>:<impl>" before any other rule.
inline constexpr absl::string_view kWorkerFailureUrl = "serdiff.dev/worker-failure";
absl::Status WorkerFailure(absl::string_view cls, absl::string_view message);
// The class prefix of a worker failure, or empty for any other status.
std::string WorkerFailureClass(const absl::Status& status);

// ---- workers --------------------------------------------------------------------------------

// oracles/<name>/worker.json (docs/workers.md, "The manifest").
struct WorkerManifest {
  std::string path;                  // the manifest file
  std::string dir;                   // its folder: the worker's working directory
  std::string name;                  // the implementation's name
  std::vector<std::string> command;  // argv; argv[0] absolute or found on PATH
  std::string origin;                // where it comes from (serdiff list)
  std::vector<std::string> targets;  // the targets it joins
  int timeout_ms = 10000;            // per call; SERDIFF_WORKER_TIMEOUT_MS overrides
  bool is_default = true;            // false: loaded only when named (--worker)
  // Added to the target's heap bound when this worker is the subject (its runtime's own
  // overhead), with the reason shown in reports.
  int64_t slack_per_output_permille = 0;
  int64_t slack_bytes = 0;
  std::string slack_reason;
};
// Reads a manifest. Errors: NotFound (no file), InvalidArgument "<path>: <what>" for JSON
// that is not a manifest (missing name, command or targets; a name not [a-z0-9_]+).
absl::StatusOr<WorkerManifest> ReadWorkerManifest(const std::string& path);

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
  absl::StatusOr<ExternalAnswer> Call(absl::string_view op, absl::string_view input_json,
                                      int64_t* peak_bytes);

  const WorkerManifest& manifest() const { return manifest_; }
  int64_t calls() const { return calls_; }
  int64_t starts() const { return starts_; }
  // The hello's peak text (how the worker measures its peak), once it has started.
  const std::string& peak_text() const { return peak_text_; }

 private:
  absl::Status Start();
  void Stop(bool kill);
  absl::Status Fail(absl::string_view cls, std::string message);

  WorkerManifest manifest_;
  int pid_ = -1;
  int to_fd_ = -1;
  int from_fd_ = -1;
  int64_t next_id_ = 1;
  int64_t calls_ = 0;
  int64_t starts_ = 0;
  std::vector<std::string> ops_;
  std::string peak_text_;
  std::optional<std::string> declined_;  // the hello's or the start's reason, once known
  int failed_starts_ = 0;
};

// ---- modules ----------------------------------------------------------------------------------

// A loaded module (dlopen, never closed). Errors: NotFound when the file cannot be loaded,
// InvalidArgument when it lacks serdiff_module_v1 or speaks another ABI version.
absl::StatusOr<const serdiff_module*> LoadModule(const std::string& path);

// Calls one operation of a module, collecting its output. The int64 form's value is given
// in `scalar`; the JSON form's in `json`; the list form's in `list`.
absl::StatusOr<std::string> CallModuleOp(const serdiff_op& op, int64_t scalar,
                                         absl::string_view json, const Int32List* list);

// True when the comma-separated `targets` of an op (NULL: all) names `target`.
bool OpJoinsTarget(const serdiff_op& op, absl::string_view target);

// ---- what a process attaches ----------------------------------------------------------------

// Where the shipped worker manifests live: SERDIFF_ORACLES_DIR if set; else, for a binary in
// <prefix>/bin, <prefix>/share/serdiff/oracles when it exists; else the source tree's oracles/
// (compiled in); else the configured install datadir's serdiff/oracles.
std::string OraclesDir();

// The worker manifests and modules a process attaches (AttachExternal in target.h).
struct ExternalConfig {
  bool default_workers = false;           // every oracles/*/worker*.json whose default is true
  std::vector<std::string> worker_files;  // SERDIFF_WORKERS and --worker
  std::vector<std::string> module_files;  // SERDIFF_MODULES and --module
};
// The configuration from the environment: SERDIFF_WORKERS, SERDIFF_MODULES (':'-separated),
// SERDIFF_DEFAULT_WORKERS (1/0; when unset, `default_workers` is the caller's choice).
ExternalConfig ExternalConfigFromEnvironment(bool default_workers);

// The run's subject (docs/workers.md): the implementation placed first in every verdict, whose
// peak is bounded. Empty (the default): the optimized implementation. Set before judging.
void SetSubject(std::string name);
const std::string& Subject();

}  // namespace serdiff::harness
