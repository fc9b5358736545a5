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
// (exit status, stdout and stderr as they came). The status is the exit code, 128 + the signal
// number when the tool was killed by a signal (an abort is 134, never 0), and -1 when the
// shell could not be started or waited for.
inline std::pair<int, std::string> RunCli(const std::string& args) {
  FILE* f = popen(absl::StrCat(SERDIFF_CLI, " ", args, " 2>&1").c_str(), "r");
  if (f == nullptr) return {-1, ""};
  std::string out;
  char buf[4096];
  while (size_t n = fread(buf, 1, sizeof buf, f)) out.append(buf, n);
  const int status = pclose(f);
  if (status == -1) return {-1, out};
  if (WIFSIGNALED(status)) return {128 + WTERMSIG(status), out};
  return {WIFEXITED(status) ? WEXITSTATUS(status) : -1, out};
}

}  // namespace serdiff::testing_support

#endif  // SERDIFF_TESTS_RUN_CLI_H_
