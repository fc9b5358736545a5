#include "tools/dicts.h"

#include <cstdint>
#include <map>
#include <string>
#include <vector>

#include "absl/strings/str_cat.h"
#include "absl/strings/str_format.h"

namespace serdiff::tools {
namespace {

// Function-local: the generators record themselves during static initialization.
std::map<std::string, DictionaryFn>& Generators() {
  static auto* generators = new std::map<std::string, DictionaryFn>;
  return *generators;
}

std::string Quote(const std::string& bytes) {
  std::string out = "\"";
  for (unsigned char c : bytes) absl::StrAppendFormat(&out, "\\x%02x", c);
  return out + "\"";
}

}  // namespace

std::vector<std::string> DictionaryFamilies() {
  std::vector<std::string> out;
  for (const auto& [name, fn] : Generators()) out.push_back(name);
  return out;  // a std::map: sorted
}

bool RecordDictionary(const char* name, DictionaryFn fn) {
  Generators()[name] = fn;
  return true;
}

void AppendEntry(std::string* out, const std::string& name, const std::string& bytes) {
  absl::StrAppend(out, name, "=", Quote(bytes), "\n");
}

std::string BigEndian(uint64_t v, int bytes) {
  std::string out(static_cast<size_t>(bytes), '\0');
  for (int i = bytes - 1; i >= 0; --i, v >>= 8)
    out[static_cast<size_t>(i)] = static_cast<char>(v & 0xff);
  return out;
}

std::string FamilyDictionary(const std::string& family) {
  auto it = Generators().find(family);
  return it == Generators().end() ? "" : it->second();
}

}  // namespace serdiff::tools
