// libFuzzer dictionaries generated from the format tables of the optimized codecs
// (`serdiff dict <family>`), checked in as fuzz/<family>.dict; tests/dicts_test.cc keeps
// the checked-in files equal to this output.
#pragma once

#include <string>

namespace serdiff::tools {

// The dictionary text of `family` ("varint", "cql"), in libFuzzer's format (name="\xNN..."
// lines, # comments); "" for a family without one.
std::string FamilyDictionary(const std::string& family);

}  // namespace serdiff::tools
