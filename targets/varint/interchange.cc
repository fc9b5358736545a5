// Varint family: the interchange of the Fory targets (declared in targets/varint/interchange.h).
#include "targets/varint/interchange.h"

#include <charconv>
#include <cstdint>
#include <limits>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "absl/status/status.h"
#include "absl/strings/escaping.h"
#include "absl/strings/str_cat.h"
#include "absl/strings/string_view.h"
#include "harness/domains.h"
#include "serdiff/common/error_offset.h"

namespace serdiff::targets::varint {
namespace {

template <typename T>
std::string EncodeInput(absl::Span<const T> values, bool zigzag) {
  std::string out = "{\"values\":[";
  for (size_t i = 0; i < values.size(); ++i) {
    absl::StrAppend(&out, i > 0 ? ",\"" : "\"", values[i], "\"");
  }
  absl::StrAppend(&out, "],\"zigzag\":", zigzag ? "true" : "false", "}");
  return out;
}

// A uint64 in decimal digits alone (no sign, no spaces), in range.
bool ParseDecimalUint64(const std::string& s, uint64_t* v) {
  if (s.empty()) return false;
  for (char c : s) {
    if (c < '0' || c > '9') return false;
  }
  const std::from_chars_result r = std::from_chars(s.data(), s.data() + s.size(), *v);
  return r.ec == std::errc() && r.ptr == s.data() + s.size();
}

absl::Status NotTheValue(absl::string_view text, absl::string_view what) {
  constexpr size_t kShown = 200;
  return absl::InternalError(absl::StrCat(
      "varint.fory_decode answered a value that is not {\"values\": [decimal strings], "
      "\"consumed\": n} (",
      what, "): ", absl::CHexEscape(text.substr(0, kShown)),
      text.size() > kShown ? absl::StrCat("... (", text.size(), " bytes)") : ""));
}

}  // namespace

std::string ForyEncodeInputJson(absl::Span<const uint64_t> values) {
  return EncodeInput(values, false);
}

std::string ForyEncodeInputJson(absl::Span<const int64_t> values) {
  return EncodeInput(values, true);
}

size_t ForyDecodePrefix(absl::string_view bytes, size_t count) {
  size_t pos = 0;
  for (size_t n = 0; n < count; ++n) {
    // One varuint64: up to 8 bytes of 7 bits, each but the last with 0x80 set; a 9th byte, when
    // reached, carries 8 bits and ends the value.
    for (size_t k = 0;; ++k) {
      if (pos + k >= bytes.size()) return bytes.size();  // cut off: the decode fails in it
      if (k == 8 || (static_cast<uint8_t>(bytes[pos + k]) & 0x80) == 0) {
        pos += k + 1;
        break;
      }
    }
  }
  return pos;
}

std::string ForyDecodeInputJson(absl::string_view bytes, size_t count) {
  return absl::StrCat("{\"hex\":\"",
                      absl::BytesToHexString(bytes.substr(0, ForyDecodePrefix(bytes, count))),
                      "\"}");
}

absl::StatusOr<std::string> ForyDecodeOutput(size_t count, const harness::ExternalAnswer& answer) {
  const std::string& text = answer.value_json ? *answer.value_json : answer.bytes;
  const nlohmann::json j = nlohmann::json::parse(text, nullptr, /*allow_exceptions=*/false);
  if (!j.is_object()) return NotTheValue(text, "not a JSON object");
  const auto values = j.find("values");
  const auto consumed = j.find("consumed");
  if (values == j.end() || !values->is_array()) return NotTheValue(text, "no array \"values\"");
  if (consumed == j.end() || !consumed->is_number_unsigned()) {
    return NotTheValue(text, "no non-negative integer \"consumed\"");
  }
  std::vector<uint64_t> parsed;
  parsed.reserve(values->size());
  for (const nlohmann::json& v : *values) {
    uint64_t x = 0;
    if (!v.is_string() || !ParseDecimalUint64(v.get_ref<const std::string&>(), &x)) {
      return NotTheValue(text, "a value that is not a uint64 as a decimal string");
    }
    parsed.push_back(x);
  }
  const uint64_t n = consumed->get<uint64_t>();
  if (n > static_cast<uint64_t>(std::numeric_limits<int64_t>::max())) {
    return NotTheValue(text, "\"consumed\" above 2^63 - 1");
  }
  if (parsed.size() < count) {
    return InvalidAt(static_cast<int64_t>(n),
                     absl::StrCat("the answer holds ", parsed.size(), " values, not ", count,
                                  ": the input ended after them"));
  }
  return DecodedOutput(n, parsed);
}

std::string ForyDecodeAnswerJson(absl::string_view output) {
  std::string values;
  uint64_t consumed = 0;
  for (size_t at = 0; at + 8 <= output.size(); at += 8) {
    const uint64_t v = harness::ReadLe64(output.data() + at);
    if (at == 0) {
      consumed = v;
      continue;
    }
    absl::StrAppend(&values, values.empty() ? "" : ",", "\"", v, "\"");
  }
  return absl::StrCat("{\"value\":{\"values\":[", values, "],\"consumed\":", consumed, "}}");
}

}  // namespace serdiff::targets::varint
