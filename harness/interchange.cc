// The interchanges' shared JSON string writer (harness/interchange.h).
#include "harness/interchange.h"

#include "absl/strings/escaping.h"
#include "absl/strings/match.h"
#include "absl/strings/str_cat.h"
#include "absl/strings/str_format.h"
#include "serdiff/common/error_offset.h"

namespace serdiff::harness {

void AppendJsonString(std::string* out, absl::string_view s) {
  out->push_back('"');
  for (const char c : s) {
    switch (c) {
      case '"':
        out->append("\\\"");
        break;
      case '\\':
        out->append("\\\\");
        break;
      case '\b':
        out->append("\\b");
        break;
      case '\f':
        out->append("\\f");
        break;
      case '\n':
        out->append("\\n");
        break;
      case '\r':
        out->append("\\r");
        break;
      case '\t':
        out->append("\\t");
        break;
      default:
        if (static_cast<uint8_t>(c) < 0x20) {
          constexpr char kHex[] = "0123456789abcdef";
          const auto u = static_cast<uint8_t>(c);
          out->append("\\u00");
          out->push_back(kHex[u >> 4]);
          out->push_back(kHex[u & 0xF]);
        } else {
          out->push_back(c);
        }
    }
  }
  out->push_back('"');
}

namespace {

// The spec an op's answers are held to, for the reproducer's printout; a CQL op's names the
// protocol version its input gives ("version": N).
std::string SpecOf(absl::string_view op, absl::string_view input_json) {
  if (absl::StartsWith(op, "bson.")) return "BSON 1.1, bsonspec.org/spec.html";
  if (absl::StartsWith(op, "cql.")) {
    const size_t at = input_json.find("\"version\":");
    int n = 0;
    if (at != absl::string_view::npos) {
      const size_t d = at + 10;
      if (d < input_json.size() && input_json[d] >= '1' && input_json[d] <= '5') {
        n = input_json[d] - '0';
      }
    }
    if (n == 0)
      return "CQL native protocol (apache/cassandra doc/native_protocol_v*.spec), section 6";
    const std::string spec = absl::StrCat("CQL native protocol v", n,
                                          " (apache/cassandra doc/native_protocol_v", n, ".spec)");
    if (n <= 2) {
      return absl::StrCat(spec,
                          ", section 6; a collection's values below the top in the v3 "
                          "form, native_protocol_v3.spec section 10");
    }
    return absl::StrCat(spec, ", section 6 (values, collections, tuples), 7 (user types)");
  }
  if (absl::StartsWith(op, "varint.fory")) {
    return "Apache Fory xlang spec: varuint64 and zigzag varint64";
  }
  if (absl::StartsWith(op, "timestamp.")) return "CQL native protocol v4, 6.17 (timestamp)";
  return "the decimal text of the integer";
}

// Text for the request, which the programs print and put in comments: as it is when it is
// printable ASCII, else C-escaped (\xNN: no byte a language reads as a line end, a byte order
// mark or a quote can reach a program's source, and JSON text must be UTF-8).
std::string PrintableText(absl::string_view s) {
  for (const char c : s) {
    if (c < 0x20 || c > 0x7e) return absl::CHexEscape(s);
  }
  return std::string(s);
}

}  // namespace

std::string UpstreamRequestJson(absl::string_view target, absl::string_view op,
                                absl::string_view input_json, absl::string_view shown,
                                const absl::StatusOr<std::string>& reference,
                                absl::string_view answer_json) {
  std::string out = "{\"target\":";
  AppendJsonString(&out, target);
  out += ",\"op\":";
  AppendJsonString(&out, op);
  absl::StrAppend(&out, ",\"input\":", input_json, ",\"shown\":");
  AppendJsonString(&out, PrintableText(shown));
  out += ",\"spec\":";
  AppendJsonString(&out, SpecOf(op, input_json));
  if (reference.ok()) {
    absl::StrAppend(&out, ",\"expect\":{\"outcome\":\"accepted\",\"answer\":", answer_json, "}}");
    return out;
  }
  const std::optional<int64_t> at = ErrorOffset(reference.status());
  absl::StrAppend(&out, ",\"expect\":{\"outcome\":\"rejected\",\"offset\":",
                  at ? absl::StrCat(*at) : std::string("null"), ",\"message\":");
  AppendJsonString(&out, PrintableText(reference.status().message()));
  out += "}}";
  return out;
}

}  // namespace serdiff::harness
