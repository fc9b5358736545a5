// Test helpers: run the serdiff command-line tool built with the tests (its path is the
// SERDIFF_CLI compile definition that tests/CMakeLists.txt sets) or any shell command, and make
// a fresh temporary folder.
#ifndef SERDIFF_TESTS_RUN_CLI_H_
#define SERDIFF_TESTS_RUN_CLI_H_

#include <sys/wait.h>
#include <unistd.h>

#include <cstdio>
#include <filesystem>
#include <string>
#include <utility>

#include "absl/strings/str_cat.h"

namespace serdiff::testing_support {

// Runs `command` through the shell and returns (exit status, stdout and stderr as they came). The
// status is the exit code, 128 + the signal number when the command was killed by a signal (an
// abort is 134, never 0), and -1 when the shell could not be started or waited for.
inline std::pair<int, std::string> RunShell(const std::string& command) {
  FILE* f = popen(absl::StrCat(command, " 2>&1").c_str(), "r");
  if (f == nullptr) return {-1, ""};
  std::string out;
  char buf[4096];
  while (size_t n = fread(buf, 1, sizeof buf, f)) out.append(buf, n);
  const int status = pclose(f);
  if (status == -1) return {-1, out};
  if (WIFSIGNALED(status)) return {128 + WTERMSIG(status), out};
  return {WIFEXITED(status) ? WEXITSTATUS(status) : -1, out};
}

// Runs `serdiff <args>` through the shell (so `args` may quote and redirect), as RunShell.
inline std::pair<int, std::string> RunCli(const std::string& args) {
  return RunShell(absl::StrCat(SERDIFF_CLI, " ", args));
}

// A new, empty folder <temp>/serdiff_<prefix>_<name>_<pid> (removed first if it was there).
inline std::string TempDir(const std::string& prefix, const std::string& name) {
  const std::filesystem::path d = std::filesystem::temp_directory_path() /
                                  absl::StrCat("serdiff_", prefix, "_", name, "_", getpid());
  std::filesystem::remove_all(d);
  std::filesystem::create_directories(d);
  return d.string();
}

}  // namespace serdiff::testing_support

#endif  // SERDIFF_TESTS_RUN_CLI_H_
