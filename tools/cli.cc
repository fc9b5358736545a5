// What every command of the CLI shares (tools/cli.h).
#include <unistd.h>

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <iostream>
#include <string>
#include <system_error>
#include <vector>

#include "absl/strings/escaping.h"
#include "absl/strings/match.h"
#include "absl/strings/str_cat.h"
#include "absl/strings/str_format.h"
#include "absl/strings/str_join.h"
#include "harness/corpus.h"
#include "harness/hex.h"
#include "harness/interchange.h"
#include "harness/shrink.h"
#include "targets/families.h"
#include "tools/cli.h"

namespace serdiff::tools {

const Target* FindTarget(const Session& session, const std::string& name) {
  if (const Target* t = session.targets->Find(name)) return t;
  if (session.selftest_targets != nullptr) return session.selftest_targets->Find(name);
  return nullptr;
}

bool AttachedOutside(const Registry& r, const std::string& name) {
  for (const auto& w : r.workers()) {
    if (w->manifest().name == name) return true;
  }
  for (const serdiff_module* m : r.modules()) {
    if (m->name == name) return true;
  }
  return false;
}

bool HasImplementation(const Target& t, const std::string& name, bool outside_only) {
  for (const harness::ImplInfo& i : t.info().impls) {
    if (i.name == name) return !outside_only || i.kind != harness::ImplKind::kCompiled;
  }
  return false;
}

std::vector<const Target*> Selected(const Session& session, const std::string& filter,
                                    bool with_selftest) {
  std::vector<const Target*> out;
  const std::string& subject = session.config.subject;
  // A subject that names an attached worker or module is that outside implementation only.
  const bool outside = AttachedOutside(*session.targets, subject);
  auto add = [&](const Registry& r) {
    for (const auto& t : r.targets()) {
      if (!filter.empty() && !absl::StrContains(t->name(), filter)) continue;
      // With a subject, only the targets that have it.
      if (!subject.empty() && !HasImplementation(*t, subject, outside)) continue;
      out.push_back(t.get());
    }
  };
  add(*session.targets);
  if (with_selftest && session.selftest_targets != nullptr) add(*session.selftest_targets);
  return out;
}

harness::ReproTools CliReproTools(const std::string& target) {
  const std::string self = harness::SelfPath();
  harness::ReproTools tools = harness::FindReproTools(target, self);
  if (tools.serdiff.empty()) tools.serdiff = self;
  return tools;
}

// The shipped corpus: for an installed binary (<prefix>/bin/serdiff), <prefix>/share/serdiff/
// corpus when it exists; else the source tree's corpus/ (compiled in).
std::string DefaultCorpusDir() {
  std::error_code ec;
  const std::filesystem::path exe = std::filesystem::read_symlink("/proc/self/exe", ec);
  if (!ec && exe.parent_path().filename() == "bin") {
    const std::filesystem::path installed =
        exe.parent_path().parent_path() / "share" / "serdiff" / "corpus";
    if (std::filesystem::is_directory(installed, ec)) return installed.string();
  }
  return SERDIFF_CORPUS_DIR;
}

std::string ReproArgs(const std::string& subject, const std::vector<std::string>& workers,
                      const std::vector<std::string>& modules, bool no_workers) {
  std::string a;
  auto abs = [](const std::string& f) {
    std::error_code ec;
    const std::filesystem::path p = std::filesystem::absolute(f, ec);
    return serdiff::harness::ShellWord(ec ? f : p.lexically_normal().string());
  };
  if (no_workers) a += " --no-workers";
  for (const std::string& w : workers) a += " --worker " + abs(w);
  for (const std::string& m : modules) a += " --module " + abs(m);
  if (!subject.empty()) a += " --subject " + serdiff::harness::ShellWord(subject);
  return a;
}

std::string Bytes(int64_t n) {
  if (n < 0) return "-";
  if (n < 10 * 1024) return absl::StrCat(n, " B");
  if (n < 10 * 1024 * 1024) return absl::StrFormat("%.1f KiB", n / 1024.0);
  return absl::StrFormat("%.2f MiB", n / (1024.0 * 1024.0));
}

std::string JsonText(std::string_view s) {
  std::string out;
  serdiff::harness::AppendJsonString(&out, absl::string_view(s.data(), s.size()));
  return out;
}

}  // namespace serdiff::tools
