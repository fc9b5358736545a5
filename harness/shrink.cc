#include "harness/shrink.h"

#include <algorithm>
#include <cstdlib>
#include <filesystem>
#include <string_view>
#include <system_error>
#include <tuple>
#include <vector>

#include "absl/strings/ascii.h"
#include "absl/strings/match.h"
#include "absl/strings/str_cat.h"
#include "absl/strings/str_join.h"
#include "absl/strings/str_replace.h"

namespace serdiff::harness {
namespace {

struct Candidate {
  std::string bytes;
  std::string value;
  std::string report;
};

bool Smaller(const Candidate& a, const Candidate& b) {
  return std::make_tuple(a.bytes.size(), a.value.size(), a.value) <
         std::make_tuple(b.bytes.size(), b.value.size(), b.value);
}

// The candidates of one round, from the current canonical bytes, in the order they are tried.
// Calls `try_candidate` with each neighbour of `b` in order (removals of halves, quarters, ...
// single bytes, then the byte edits of shrink.h's comment) until it returns true; true when one
// did. Each candidate is built when its turn comes: the whole list of a 64 KiB input would take
// gigabytes (every candidate is nearly the input's size).
template <typename F>
bool ForEachNeighbour(const std::string& b, F try_candidate) {
  const size_t n = b.size();
  for (size_t k = n / 2; k >= 1; k /= 2) {
    for (size_t i = 0; i + k <= n; i += k) {
      std::string c = b;
      c.erase(i, k);
      if (try_candidate(std::move(c))) return true;
    }
    if (k == 1) break;
  }
  for (size_t i = 0; i < n; ++i) {
    const auto byte = static_cast<unsigned char>(b[i]);
    const unsigned values[] = {
        0x00, 0xff, 0x80, 0x7f, byte / 2u, (byte + 255u) % 256u, (byte + 1u) % 256u};
    for (unsigned v : values) {
      if (v == byte) continue;
      std::string c = b;
      c[i] = static_cast<char>(v);
      if (try_candidate(std::move(c))) return true;
    }
  }
  return false;
}

}  // namespace

std::string ReportInputText(const std::string& report) {
  size_t pos = 0;
  while (pos < report.size()) {
    size_t end = report.find('\n', pos);
    if (end == std::string::npos) end = report.size();
    if (report.compare(pos, 6, "input:") == 0) {
      size_t start = pos + 6;
      while (start < end && report[start] == ' ') ++start;
      return report.substr(start, end - start);
    }
    pos = end + 1;
  }
  return "";
}

// The bytes a shrink keeps for an input it ran: its canonical corpus form when that form means
// the same value, else the bytes as they are. A domain's canonical form can mean another value
// when the raw bytes ran out inside a field (BSON's ObjectId read short from the end of a fuzz
// input, written back at its short length, takes the next field's bytes when read again): kept,
// it would fail otherwise than the input, or pass.
// Both are shown only when the bytes differ (most candidates are canonical already).
std::string KeptBytes(const Target& target, std::string_view raw, const std::string& canonical) {
  if (canonical == raw || target.ShowBytes(canonical) == target.ShowBytes(raw)) return canonical;
  return std::string(raw);
}

absl::StatusOr<ShrinkResult> Shrink(const Target& target, const RunConfig& config,
                                    std::string_view input, int64_t max_runs) {
  ShrinkResult out;
  out.before_bytes = std::string(input);
  const CaseResult first = target.RunBytes(input, config);
  out.before_value = ReportInputText(first.report);
  if (first.passed) {
    return absl::InvalidArgumentError(
        absl::StrCat("the input passes target ", target.name(), ": there is nothing to shrink"));
  }
  out.failure_class = first.failure_class;
  Candidate cur{KeptBytes(target, input, first.corpus_bytes), out.before_value, first.report};
  bool improved = true;
  while (improved && out.runs < max_runs) {
    // A copy: the candidate that is kept replaces cur while its neighbours are being made.
    const std::string from = cur.bytes;
    improved = ForEachNeighbour(from, [&](std::string c) {
      if (out.runs >= max_runs) return true;
      ++out.runs;
      const CaseResult r = target.RunBytes(c, config);
      if (r.passed || r.failure_class != out.failure_class) return false;
      Candidate next{KeptBytes(target, c, r.corpus_bytes), ReportInputText(r.report), r.report};
      // Declined by an implementation that compared the original: not the same comparison.
      std::vector<std::string> lost;
      for (const std::string& d : r.declined) {
        if (std::find(first.declined.begin(), first.declined.end(), d) == first.declined.end()) {
          lost.push_back(d);
        }
      }
      if (!lost.empty()) {
        if (Smaller(next, cur)) {
          ++out.refused_declined;
          for (std::string& d : lost) {
            if (std::find(out.declined_by.begin(), out.declined_by.end(), d) ==
                out.declined_by.end()) {
              out.declined_by.push_back(std::move(d));
            }
          }
        }
        return false;
      }
      if (Smaller(next, cur)) {
        cur = std::move(next);
        ++out.steps;
        return true;
      }
      return false;
    });
    if (out.runs >= max_runs) break;
  }
  std::sort(out.declined_by.begin(), out.declined_by.end());
  out.after_bytes = std::move(cur.bytes);
  out.after_value = std::move(cur.value);
  out.after_report = std::move(cur.report);
  return out;
}

absl::StatusOr<ShrinkResult> ShrinkWhile(
    const Target& target, std::string_view input,
    const std::function<std::string(const std::string& canonical)>& class_of, int64_t max_runs) {
  ShrinkResult out;
  out.before_bytes = std::string(input);
  out.before_value = target.ShowBytes(input);
  std::string canonical = KeptBytes(target, input, target.CanonicalBytes(input));
  out.failure_class = class_of(canonical);
  if (out.failure_class.empty()) {
    return absl::InvalidArgumentError(absl::StrCat("the input does not differ on target ",
                                                   target.name(), ": there is nothing to shrink"));
  }
  Candidate cur{canonical, target.ShowBytes(canonical), ""};
  bool improved = true;
  while (improved && out.runs < max_runs) {
    const std::string from = cur.bytes;
    improved = ForEachNeighbour(from, [&](std::string c) {
      if (out.runs >= max_runs) return true;
      ++out.runs;
      std::string cb = KeptBytes(target, c, target.CanonicalBytes(c));
      Candidate next{cb, target.ShowBytes(cb), ""};
      if (!Smaller(next, cur)) return false;
      if (class_of(cb) != out.failure_class) return false;
      cur = std::move(next);
      ++out.steps;
      return true;
    });
    if (out.runs >= max_runs) break;
  }
  out.after_bytes = std::move(cur.bytes);
  out.after_value = std::move(cur.value);
  return out;
}

std::string SelfPath() {
  std::error_code ec;
  const std::filesystem::path p = std::filesystem::read_symlink("/proc/self/exe", ec);
  if (ec) return std::string();
  // A binary replaced while it runs (a rebuild) reads as "<path> (deleted)": the path names the
  // new binary, which is what a printed command should run.
  std::string path = p.string();
  constexpr absl::string_view kDeleted = " (deleted)";
  if (absl::EndsWith(path, kDeleted)) path.resize(path.size() - kDeleted.size());
  return path;
}

ReproTools FindReproTools(const std::string& target, const std::string& self) {
  namespace fs = std::filesystem;
  ReproTools out;
  if (self.empty()) return out;
  const fs::path exe = fs::path(self).lexically_normal();
  const fs::path dir = exe.parent_path();
  auto executable = [](const fs::path& p) {
    std::error_code ec;
    return fs::is_regular_file(p, ec) &&
           (fs::status(p, ec).permissions() & fs::perms::owner_exec) != fs::perms::none;
  };
  const std::string dir_name = dir.filename().string();
  if (dir_name == "tools" || dir_name == "fuzz") {
    const fs::path tree = dir.parent_path();
    if (executable(tree / "tools" / "serdiff")) out.serdiff = (tree / "tools" / "serdiff").string();
    if (executable(tree / "fuzz" / target)) {
      out.fuzz_binary = (tree / "fuzz" / target).string();
    } else if (executable(tree / "fuzz" / "serdiff_fuzz_replay")) {
      out.fuzz_binary = (tree / "fuzz" / "serdiff_fuzz_replay").string();
      out.fuzz_binary_replays = true;
    }
    std::error_code ec;
    if (fs::is_regular_file(tree / "tests" / "CTestTestfile.cmake", ec)) {
      out.ctest_tree = tree.string();
    }
  }
  // Anywhere else, a binary named after the target is its fuzz binary: an OSS-Fuzz $OUT's
  // `<target>`, or a project's own `<prefix>_<target>` (serdiff_add_fuzz_target).
  const std::string name = exe.filename().string();
  if (out.fuzz_binary.empty() && (name == target || absl::EndsWith(name, "_" + target) ||
                                  absl::EndsWith(name, "-" + target))) {
    out.fuzz_binary = exe.string();
  }
  return out;
}

std::string ShellWord(const std::string& path) {
  const bool plain = !path.empty() && std::all_of(path.begin(), path.end(), [](char c) {
    return absl::ascii_isalnum(static_cast<unsigned char>(c)) ||
           std::string_view("_./+=:@%,-").find(c) != std::string_view::npos;
  });
  if (plain) return path;
  return absl::StrCat("'", absl::StrReplaceAll(path, {{"'", "'\\''"}}), "'");
}

std::string ReproCommands(const std::string& target, const std::string& file, bool selftest,
                          const ReproTools& tools, const RunConfig& config) {
  std::error_code ec;
  std::filesystem::path abs = std::filesystem::absolute(file, ec);
  const std::string f = ShellWord(ec ? file : abs.lexically_normal().string());
  std::string out = "reproduce:\n";
  // Outside implementations (docs/workers.md) reach every command below through the
  // environment, written from the run's configuration: the subject, the workers and modules
  // named, and whether the default workers join (so that each command judges with the same
  // implementations, whichever program printed it).
  std::string env;
  const std::string& subject = config.subject;
  const std::string workers = JoinFileList(config.external.worker_files);
  const std::string modules = JoinFileList(config.external.module_files);
  // Whether the default workers join differs by program: the CLI joins them unless told not to,
  // the ctest registry and the fuzz binaries do not. A line whose program would choose otherwise
  // than this run did is told, so that no command judges with more or fewer peers. (Self-test
  // targets have no interchange, so no worker joins them either way.)
  const bool cli_lines = !selftest && (!tools.serdiff.empty() || !tools.source_dir.empty());
  const bool other_lines = !selftest && (!tools.ctest_tree.empty() || !tools.fuzz_binary.empty());
  const bool defaults_differ = (cli_lines && !config.external.default_workers) ||
                               (other_lines && config.external.default_workers);
  if (!subject.empty() || !workers.empty() || !modules.empty() || defaults_differ) {
    absl::StrAppend(&env, "SERDIFF_DEFAULT_WORKERS=", config.external.default_workers ? "1" : "0",
                    " ");
    if (!subject.empty()) absl::StrAppend(&env, "SERDIFF_SUBJECT=", ShellWord(subject), " ");
    if (!workers.empty()) absl::StrAppend(&env, "SERDIFF_WORKERS=", ShellWord(workers), " ");
    if (!modules.empty()) absl::StrAppend(&env, "SERDIFF_MODULES=", ShellWord(modules), " ");
  }
  std::string cli;  // the CLI, or a command that builds it and then names it
  if (!tools.serdiff.empty()) {
    cli = env + ShellWord(tools.serdiff);
  } else if (!tools.source_dir.empty()) {
    const std::string src = ShellWord(tools.source_dir);
    cli = absl::StrCat("(cd ", src, " && cmake --preset dev >/dev/null && cmake --build --preset ",
                       "dev --target serdiff >/dev/null) && ", env,
                       ShellWord(absl::StrCat(tools.source_dir, "/build/dev/tools/serdiff")));
  }
  const std::string flag = selftest ? " --selftest" : "";
  if (!cli.empty()) {
    absl::StrAppend(&out, "  ", cli, flag, " repro ", target, " ", f, "   # the report\n");
    if (selftest) {
      absl::StrAppend(&out, "  ", cli, flag, " repro --shrink ", target, " ", f,
                      "   # smallest value failing the same way\n");
      return out;
    }
    absl::StrAppend(&out, "  ", cli, " repro --shrink --emit-regression ", target, " ", f,
                    "   # smallest value, kept in corpus/", target, "/regressions/\n");
  }
  if (selftest) return out;
  if (!tools.ctest_tree.empty()) {
    const std::string tree = ShellWord(tools.ctest_tree);
    absl::StrAppend(&out, "  cmake --build ", tree, " && ", env, "ctest --test-dir ", tree,
                    " --no-tests=error -R '^(", target, "\\.CorpusReplayPasses|fuzz_replay\\.",
                    target, ")$'   # ctest, once kept as a regression (rebuilds first)\n");
  }
  if (!tools.fuzz_binary.empty()) {
    absl::StrAppend(&out, "  ", env, ShellWord(tools.fuzz_binary), " ",
                    tools.fuzz_binary_replays ? target + " " : std::string(), f,
                    tools.fuzz_binary_replays ? "   # the fuzz entry point (replay binary)\n"
                                              : "   # the libFuzzer binary\n");
  }
  if (tools.oss_fuzz) {
    absl::StrAppend(&out, "  python infra/helper.py reproduce serdiff ", target, " ", f,
                    "   # from an OSS-Fuzz checkout\n");
  }
  return out;
}

}  // namespace serdiff::harness
