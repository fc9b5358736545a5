// Test helper: runs the serdiff command-line tool built with the tests (its path is the
// SERDIFF_CLI compile definition that tests/CMakeLists.txt sets).
#ifndef SERDIFF_TESTS_RUN_CLI_H_
#define SERDIFF_TESTS_RUN_CLI_H_

#include <sys/wait.h>

#include <cstdio>
#include <string>
#include <utility>

#include "absl/strings/str_cat.h"

namespace serdiff::testing_support {

// Runs `serdiff <args>` through the shell (so `args` may quote and redirect) and returns
// (exit status, stdout followed by stderr). Exit status -1 when the shell cannot start.
inline std::pair<int, std::string> RunCli(const std::string& args) {
  FILE* f = popen(absl::StrCat(SERDIFF_CLI, " ", args, " 2>&1").c_str(), "r");
  if (f == nullptr) return {-1, ""};
  std::string out;
  char buf[4096];
  while (size_t n = fread(buf, 1, sizeof buf, f)) out.append(buf, n);
  const int status = pclose(f);
  return {WEXITSTATUS(status), out};
}

}  // namespace serdiff::testing_support

#endif  // SERDIFF_TESTS_RUN_CLI_H_
