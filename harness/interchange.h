// serdiff harness: how a target's input crosses to an implementation outside the build (a
// worker or a module, harness/external.h; docs/workers.md, "The interchange"): the operation, the
// input as JSON text, the answer, and the modules' fast forms. A target states it in its
// TargetDef (harness/definition.h).
#pragma once

#include <cstdint>
#include <functional>
#include <optional>
#include <string>
#include <vector>

#include "absl/status/statusor.h"
#include "absl/strings/string_view.h"

namespace serdiff::harness {

// What a worker or module answered for an accepted input: the output bytes (from "hex"), or
// an interchange value (the JSON text of "value", for decode operations).
struct ExternalAnswer {
  std::string bytes;
  std::optional<std::string> value_json;
  // Whether the answer had "hex" (a module's answer always has its bytes). An op whose output is
  // the answer's bytes needs it: an answer with only "value" is a worker-protocol failure there,
  // never an empty output that may pass.
  bool has_hex = false;
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
  // exactly returns Declined(reason) (harness/result.h), so the outside implementation is not
  // compared on it.
  std::function<absl::StatusOr<std::string>(const T&)> input_json;
  // An accepted answer -> the target's output form. Unset: the answer's bytes, as they are.
  std::function<absl::StatusOr<std::string>(const T&, const ExternalAnswer&)> output;
  // Module fast forms (serdiff_module.h), set where the op has one: the input as one int64
  // (SERDIFF_FORM_INT64 / UINT64: its bit pattern) or as a CQL list<int> (Declined when the
  // input is another type).
  std::function<int64_t(const T&)> as_int64;
  std::function<absl::StatusOr<Int32List>(const T&)> as_int32_list;
  // `serdiff repro --upstream` (docs/workers.md, "Upstream reproducers"): what a library that
  // follows the spec answers, given the reference's accepted output, as the JSON text of the
  // answer's fields the reproducer compares ({"hex": "..."}, {"value": ...}; "{}" when any
  // accepted answer is right, e.g. a decoder's re-encoding). Unset: {"hex": <the output>} when
  // `output` is unset (the answer's bytes are the output), "{}" otherwise.
  std::function<absl::StatusOr<std::string>(const T&, const std::string& output)> expected_answer;
};

// The request a worker's "serdiff.upstream" op turns into a program (docs/workers.md, "Upstream
// reproducers"), as JSON text: {"target", "op", "input": <input_json>, "shown": the input as the
// domain prints it, "spec": the spec the op's answers are held to (its name and sections),
// "expect": {"outcome": "accepted", "answer": <answer_json>} or {"outcome":
// "rejected", "offset": <int or null>, "message": <the reference's error>}}. `input_json` and
// `answer_json` must be JSON objects; `reference` is the reference implementation's output.
// `shown` and the reference's message go as they are when they are printable ASCII, else
// C-escaped (absl::CHexEscape: they are for people, and the programs put them in comments, where
// U+2028 ends a JavaScript line and U+FEFF stops a Go build).
std::string UpstreamRequestJson(absl::string_view target, absl::string_view op,
                                absl::string_view input_json, absl::string_view shown,
                                const absl::StatusOr<std::string>& reference,
                                absl::string_view answer_json);

// Appends `s` as a JSON string (RFC 8259 section 7): '"' and '\\' escaped, the control
// characters as \b \f \n \r \t or \u00xx, everything else (UTF-8 included) as it is. For the
// interchanges' input_json (the text must be UTF-8; callers decline what is not).
void AppendJsonString(std::string* out, absl::string_view s);

}  // namespace serdiff::harness
