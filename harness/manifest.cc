// Worker manifests: reading and checking a worker's JSON manifest (harness/external.h,
// ReadWorkerManifest; docs/workers.md, "The manifest").
#include <algorithm>
#include <filesystem>
#include <fstream>
#include <initializer_list>
#include <limits>
#include <sstream>
#include <string>

#include <nlohmann/json.hpp>

#include "absl/strings/str_cat.h"
#include "harness/external.h"

namespace serdiff::harness {

// ---- manifests --------------------------------------------------------------------------------

bool ValidImplementationName(absl::string_view n) {
  if (n.empty()) return false;
  for (char c : n) {
    if (!((c >= 'a' && c <= 'z') || (c >= '0' && c <= '9') || c == '_')) return false;
  }
  return true;
}

namespace {

// The first of the keys that `o` holds with a value of another JSON type than its list says
// (integers, strings, booleans), or "" when there is none.
template <typename J>
std::string FieldOfAnotherType(const J& o, std::initializer_list<const char*> integers,
                               std::initializer_list<const char*> strings,
                               std::initializer_list<const char*> booleans) {
  for (const char* k : integers) {
    if (o.contains(k) && !o[k].is_number_integer()) return k;
  }
  for (const char* k : strings) {
    if (o.contains(k) && !o[k].is_string()) return k;
  }
  for (const char* k : booleans) {
    if (o.contains(k) && !o[k].is_boolean()) return k;
  }
  return "";
}

// The first key of the object `o` that is not among `known`, or "" when there is none (or `o` is
// not an object).
template <typename J>
std::string UnknownField(const J& o, std::initializer_list<const char*> known) {
  if (!o.is_object()) return "";
  for (auto it = o.begin(); it != o.end(); ++it) {
    const std::string& k = it.key();
    if (std::none_of(known.begin(), known.end(), [&](const char* n) { return k == n; })) return k;
  }
  return "";
}

}  // namespace

absl::StatusOr<WorkerManifest> ReadWorkerManifest(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  if (!in) return absl::NotFoundError(absl::StrCat(path, ": cannot read the worker manifest"));
  std::stringstream ss;
  ss << in.rdbuf();
  // Key order kept: a decline edge's input is sent as written (an input's key order is part of
  // it: js_bson declines documents whose keys a JS object would reorder).
  using OrderedJson = nlohmann::ordered_json;
  const std::string text = ss.str();
  const OrderedJson j = OrderedJson::parse(text, nullptr, false);
  auto bad = [&](absl::string_view what) {
    return absl::InvalidArgumentError(absl::StrCat(path, ": ", what));
  };
  if (j.is_discarded()) {
    // Where the JSON breaks off: the parser's own message names the byte (a second parse, only
    // for a manifest that is not JSON at all).
    try {
      const OrderedJson again = OrderedJson::parse(text);
      return bad("not JSON");  // not reached: the first parse failed
    } catch (const nlohmann::json::parse_error& e) {
      return bad(absl::StrCat("not JSON: ", e.what()));
    }
  }
  if (!j.is_object()) return bad("not a JSON object");
  WorkerManifest m;
  m.path = path;
  m.dir = std::filesystem::absolute(std::filesystem::path(path)).parent_path().string();
  if (!j.contains("name") || !j["name"].is_string()) return bad("no \"name\" string");
  m.name = j["name"].get<std::string>();
  if (!ValidImplementationName(m.name)) return bad("\"name\" must be [a-z0-9_]+");
  if (!j.contains("command") || !j["command"].is_array() || j["command"].empty())
    return bad("no \"command\" array");
  for (const OrderedJson& c : j["command"]) {
    if (!c.is_string()) return bad("\"command\" holds a non-string");
    m.command.push_back(c.get<std::string>());
  }
  if (!j.contains("targets") || !j["targets"].is_array()) return bad("no \"targets\" array");
  for (const OrderedJson& t : j["targets"]) {
    if (!t.is_string()) return bad("\"targets\" holds a non-string");
    m.targets.push_back(t.get<std::string>());
  }
  // A field the manifest format does not have is a typo ("timeout" for "timeout_ms", a slack's
  // "per_output_permile"): refused, never read as the default in silence.
  if (const std::string k =
          UnknownField(j, {"name", "command", "targets", "origin", "timeout_ms", "default",
                           "heap_noise", "heap_slack", "env", "decline_edges", "no_decline_edges"});
      !k.empty()) {
    return bad(absl::StrCat("unknown field \"", k, "\" (docs/workers.md, \"The manifest\")"));
  }
  if (j.contains("heap_noise") && j["heap_noise"].is_object()) {
    if (const std::string k = UnknownField(j["heap_noise"], {"percent", "bytes", "reason"});
        !k.empty()) {
      return bad(absl::StrCat("unknown field \"heap_noise\".\"", k, "\""));
    }
  }
  if (j.contains("heap_slack") && j["heap_slack"].is_object()) {
    const OrderedJson& s = j["heap_slack"];
    if (const std::string k = UnknownField(
            s, {"per_output_permille", "per_input_permille", "bytes", "reason", "targets"});
        !k.empty()) {
      return bad(absl::StrCat("unknown field \"heap_slack\".\"", k, "\""));
    }
    if (s.contains("targets") && s["targets"].is_object()) {
      for (const auto& [target, t] : s["targets"].items()) {
        if (const std::string k =
                UnknownField(t, {"per_output_permille", "per_input_permille", "bytes", "reason"});
            !k.empty()) {
          return bad(absl::StrCat("unknown field \"heap_slack\".\"targets\".\"", target, "\".\"", k,
                                  "\""));
        }
      }
    }
  }
  // Every optional field's type is checked before value() reads it (value() throws on a field of
  // another type, and a manifest with a typo must be a message, not an ended process).
  if (const std::string k =
          FieldOfAnotherType(j, {"timeout_ms"}, {"origin", "no_decline_edges"}, {"default"});
      !k.empty()) {
    return bad(absl::StrCat("\"", k, "\" is not of its type (docs/workers.md, \"The manifest\")"));
  }
  for (const char* object : {"heap_noise", "heap_slack"}) {
    if (!j.contains(object) || !j[object].is_object()) continue;
    const OrderedJson& o = j[object];
    if (const std::string k = FieldOfAnotherType(
            o, {"percent", "bytes", "per_output_permille", "per_input_permille"}, {"reason"}, {});
        !k.empty()) {
      return bad(absl::StrCat("\"", object, "\".\"", k, "\" is not of its type"));
    }
  }
  m.origin = j.value("origin", std::string("worker ") + path);
  m.timeout_ms = static_cast<int>(std::clamp<int64_t>(j.value("timeout_ms", int64_t{10000}), 0,
                                                      std::numeric_limits<int>::max()));
  m.is_default = j.value("default", true);
  if (j.contains("heap_noise") && j["heap_noise"].is_object()) {
    const OrderedJson& n = j["heap_noise"];
    m.heap_noise_percent = n.value("percent", int64_t{0});
    m.heap_noise_bytes = n.value("bytes", int64_t{0});
    m.heap_noise_reason = n.value("reason", std::string());
    if (m.heap_noise_percent < 0 || m.heap_noise_bytes < 0) {
      return bad("\"heap_noise\" holds a negative number");
    }
  }
  if (j.contains("env")) {
    if (!j["env"].is_object()) return bad("\"env\" is not an object");
    for (const auto& [k, v] : j["env"].items()) {
      if (!v.is_string() || k.empty() || k.find('=') != std::string::npos)
        return bad("\"env\" holds a name with '=' or a value that is not a string");
      m.env.emplace_back(k, v.get<std::string>());
    }
  }
  if (j.contains("decline_edges")) {
    if (!j["decline_edges"].is_array()) return bad("\"decline_edges\" is not an array");
    for (const OrderedJson& e : j["decline_edges"]) {
      if (!e.is_object() || !e.contains("text") || !e["text"].is_string() ||
          e["text"].get<std::string>().empty() || !e.contains("op") || !e["op"].is_string() ||
          !e.contains("input") || !e["input"].is_object() || !e.contains("declined") ||
          !e["declined"].is_boolean()) {
        return bad(
            "a \"decline_edges\" entry needs \"text\", \"op\", an object \"input\" and a "
            "boolean \"declined\"");
      }
      m.decline_edges.push_back({e["text"].get<std::string>(), e["op"].get<std::string>(),
                                 e["input"].dump(), e["declined"].get<bool>()});
    }
  }
  m.no_decline_edges = j.value("no_decline_edges", std::string());
  if (j.contains("heap_slack") && j["heap_slack"].is_object()) {
    const OrderedJson& s = j["heap_slack"];
    m.slack_per_output_permille = s.value("per_output_permille", int64_t{0});
    m.slack_bytes = s.value("bytes", int64_t{0});
    m.slack_per_input_permille = s.value("per_input_permille", int64_t{0});
    m.slack_reason = s.value("reason", std::string());
    if (m.slack_per_output_permille < 0 || m.slack_bytes < 0 || m.slack_per_input_permille < 0) {
      return bad("\"heap_slack\" holds a negative number");
    }
    if (s.contains("targets")) {
      if (!s["targets"].is_object()) return bad("\"heap_slack\".\"targets\" is not an object");
      for (const auto& [target, t] : s["targets"].items()) {
        if (std::find(m.targets.begin(), m.targets.end(), target) == m.targets.end()) {
          return bad(absl::StrCat("\"heap_slack\".\"targets\" names ", target,
                                  ", which is not in \"targets\""));
        }
        if (!t.is_object() || !t.contains("reason") || !t["reason"].is_string() ||
            !FieldOfAnotherType(t, {"per_output_permille", "bytes", "per_input_permille"}, {}, {})
                 .empty()) {
          return bad(absl::StrCat("\"heap_slack\".\"targets\".\"", target,
                                  "\" needs an object with a \"reason\" string and integers"));
        }
        m.target_slack.push_back({target, t.value("per_output_permille", int64_t{0}),
                                  t.value("bytes", int64_t{0}), t["reason"].get<std::string>(),
                                  t.value("per_input_permille", int64_t{0})});
        const WorkerManifest::TargetSlack& ts = m.target_slack.back();
        if (ts.per_output_permille < 0 || ts.bytes < 0 || ts.per_input_permille < 0) {
          return bad(
              absl::StrCat("\"heap_slack\".\"targets\".\"", target, "\" holds a negative number"));
        }
      }
    }
  }
  return m;
}

}  // namespace serdiff::harness
