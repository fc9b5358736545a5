#include "harness/hex.h"

#include <algorithm>

#include "absl/strings/str_cat.h"
#include "absl/strings/str_format.h"

namespace serdiff::harness {

std::string Hex(std::string_view bytes, size_t max_bytes) {
  std::string out;
  const size_t n = std::min(bytes.size(), max_bytes);
  out.reserve(n * 3);
  for (size_t i = 0; i < n; ++i) {
    if (i != 0) out.push_back(' ');
    absl::StrAppendFormat(&out, "%02x", static_cast<unsigned char>(bytes[i]));
  }
  if (n < bytes.size()) absl::StrAppend(&out, " ... (", bytes.size(), " bytes)");
  return out;
}

std::optional<size_t> FirstDifference(std::string_view a, std::string_view b) {
  const size_t n = std::min(a.size(), b.size());
  for (size_t i = 0; i < n; ++i) {
    if (a[i] != b[i]) return i;
  }
  if (a.size() == b.size()) return std::nullopt;
  return n;
}

std::string CompactHex(std::string_view bytes) {
  static constexpr char kDigits[] = "0123456789abcdef";
  std::string out;
  out.reserve(2 * bytes.size());
  for (unsigned char c : bytes) {
    out.push_back(kDigits[c >> 4]);
    out.push_back(kDigits[c & 15]);
  }
  return out;
}

std::string Unhex(std::string_view hex) {
  std::string out;
  int high = -1;  // the pending first digit of a byte
  for (char ch : hex) {
    int v;
    if (ch >= '0' && ch <= '9') {
      v = ch - '0';
    } else if (ch >= 'a' && ch <= 'f') {
      v = ch - 'a' + 10;
    } else if (ch >= 'A' && ch <= 'F') {
      v = ch - 'A' + 10;
    } else {
      continue;
    }
    if (high < 0) {
      high = v;
    } else {
      out.push_back(static_cast<char>(high * 16 + v));
      high = -1;
    }
  }
  return out;
}

std::string HexWindow(std::string_view bytes, size_t offset) {
  const size_t start = offset >= 8 ? offset - 8 : 0;
  std::string out = absl::StrFormat("@%d:", start);
  for (size_t i = start; i < start + 16; ++i) {
    const bool mark = i == offset;
    if (i >= bytes.size() && !mark) break;
    out.append(mark ? " [" : " ");
    if (i < bytes.size()) {
      absl::StrAppendFormat(&out, "%02x", static_cast<unsigned char>(bytes[i]));
    } else {
      out.append("--");
    }
    if (mark) out.push_back(']');
  }
  return out;
}

std::string Printable(std::string_view bytes, size_t max_bytes) {
  std::string out = "\"";
  const size_t n = std::min(bytes.size(), max_bytes);
  for (size_t i = 0; i < n; ++i) {
    const unsigned char c = static_cast<unsigned char>(bytes[i]);
    if (c == '"' || c == '\\') {
      out.push_back('\\');
      out.push_back(static_cast<char>(c));
    } else if (c >= 0x20 && c < 0x7f) {
      out.push_back(static_cast<char>(c));
    } else {
      absl::StrAppendFormat(&out, "\\x%02x", c);
    }
  }
  out.push_back('"');
  if (n < bytes.size()) absl::StrAppend(&out, "... (", bytes.size(), " bytes)");
  return out;
}

}  // namespace serdiff::harness
