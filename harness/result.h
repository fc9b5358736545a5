// serdiff harness: the result vocabulary. What one implementation did with one input, as every
// implementation (optimized code, references, oracles, modules, workers) returns it. An oracle or
// a module needs this header alone.
#pragma once

#include <functional>
#include <string>
#include <string_view>

#include "absl/status/status.h"
#include "absl/status/statusor.h"
#include "absl/strings/string_view.h"

namespace serdiff::harness {

// Output of one implementation on one input: canonical bytes or an error.
using Output = absl::StatusOr<std::string>;

// The status a reference returns for an input it does not support. Declined results take no
// part in the comparison. The decline is an explicit marker (a payload under kDeclinedUrl on
// an Unimplemented status whose message is "declined: <reason>"), so an ordinary
// absl::UnimplementedError from a reference is a rejection like any other error.
inline constexpr std::string_view kDeclinedUrl = "serdiff.dev/declined";
absl::Status Declined(std::string_view reason);
// True exactly for statuses made by Declined() (those carrying the kDeclinedUrl payload).
bool IsDeclined(const absl::Status& status);

// What one run of an implementation did with an input.
enum class Outcome { kAccepted, kRejected, kDeclined };
Outcome OutcomeOf(const Output& out);

// An outside implementation that failed (harness/external.h): the payload that marks its
// status; its value is the class prefix ("worker-crashed", "worker-timeout", "worker-protocol",
// and for a module that broke its ABI's rules on the output's room, "module-protocol").
// JudgeCase reports such a run as "<prefix>:<impl>" before any other rule.
inline constexpr absl::string_view kWorkerFailureUrl = "serdiff.dev/worker-failure";
absl::Status WorkerFailure(absl::string_view cls, absl::string_view message);
// The class prefix of a worker failure, or empty for any other status.
std::string WorkerFailureClass(const absl::Status& status);

// One implementation's result as a person reads it: a decline by its message, an error with its
// error offset (serdiff/common/error_offset.h), code and message, bytes in hex (and through
// `show`, when set, after the hex). For reports only: called to explain a failure or to render.
std::string DescribeOutput(const Output& out,
                           const std::function<std::string(const std::string&)>& show);

}  // namespace serdiff::harness
