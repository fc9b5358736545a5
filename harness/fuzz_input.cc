#include "harness/fuzz_input.h"

namespace serdiff::harness {

void FuzzInputWriter::WriteRandomLengthString(std::string_view s, size_t max_length) {
  // FDP reads byte by byte; a backslash followed by a backslash is one backslash, a
  // backslash followed by anything else ends the string (both bytes consumed).
  for (char c : s) {
    front_.push_back(c);
    if (c == '\\') front_.push_back('\\');
  }
  if (s.size() < max_length) front_.append("\\\0", 2);
}

std::string FuzzInputWriter::Finish() const {
  std::string out = front_;
  out.append(back_.rbegin(), back_.rend());
  return out;
}

}  // namespace serdiff::harness
