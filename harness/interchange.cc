// The interchanges' shared JSON string writer (harness/interchange.h).
#include "harness/interchange.h"

#include "absl/strings/str_format.h"

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

}  // namespace serdiff::harness
