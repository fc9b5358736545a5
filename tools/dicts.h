// libFuzzer dictionaries generated from the format tables of the optimized codecs
// (`serdiff dict <family>`), checked in as fuzz/<family>.dict; tests/dicts_test.cc keeps
// the checked-in files equal to this output. A family's generator is tools/dicts_<family>.cc,
// compiled into the CLI when the family is built (tools/CMakeLists.txt), which records itself
// with SERDIFF_REGISTER_DICTIONARY.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

namespace serdiff::tools {

// The dictionary text of `family` ("varint", "cql"), in libFuzzer's format (name="\xNN..."
// lines, # comments); "" for a family without one.
std::string FamilyDictionary(const std::string& family);

// The families that have a dictionary generator in this build, sorted.
std::vector<std::string> DictionaryFamilies();

// Records `fn` as the generator of family `name`'s dictionary. Returns true (its value
// initializes a static).
using DictionaryFn = std::string (*)();
bool RecordDictionary(const char* name, DictionaryFn fn);

// Appends one dictionary line, name="\xNN...", with every byte of `bytes` escaped.
void AppendEntry(std::string* out, const std::string& name, const std::string& bytes);
// `v` as `bytes` bytes, most significant first.
std::string BigEndian(uint64_t v, int bytes);

}  // namespace serdiff::tools

#define SERDIFF_REGISTER_DICTIONARY(name, fn)                         \
  [[maybe_unused]] static const bool serdiff_dictionary_registered_ = \
      ::serdiff::tools::RecordDictionary(name, fn)
