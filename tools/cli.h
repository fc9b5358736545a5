// The CLI's commands (tools/serdiff_main.cc parses the command line): what they share, the
// session every command runs in, and the commands defined outside serdiff_main.cc.
#pragma once

#include <cstdint>
#include <memory>
#include <string>
#include <string_view>
#include <vector>

#include "harness/registry.h"
#include "harness/run_config.h"
#include "harness/shrink.h"

namespace serdiff::tools {

using serdiff::harness::CaseResult;
using serdiff::harness::Registry;
using serdiff::harness::Target;

// One invocation of `serdiff`: its run configuration (harness/run_config.h: the environment's,
// then --subject, --worker, --module, --no-workers), the registry built for it, and the
// self-test targets when --selftest.
struct Session {
  serdiff::harness::RunConfig config;
  std::unique_ptr<Registry> targets;
  const Registry* selftest_targets = nullptr;  // --selftest; else nullptr
  // The options a printed repro command needs to see the same implementations, as shell words
  // (" --subject x --worker /abs/w.json").
  std::string repro_args;
};

// The target of that name (self-test targets with --selftest); nullptr: none.
const Target* FindTarget(const Session& session, const std::string& name);
// True when a worker or a module of that name is attached to `r`: then that name is the outside
// implementation only, never a compiled one that shares it (the timestamp family's reference is
// called "slow").
bool AttachedOutside(const Registry& r, const std::string& name);
// True when `t` has an implementation called `name`, and, with outside_only, one that is not
// compiled in.
bool HasImplementation(const Target& t, const std::string& name, bool outside_only);
// The targets whose name contains `filter` (every one when empty) and, with a subject, that have
// it; the self-test targets too when with_selftest and --selftest.
std::vector<const Target*> Selected(const Session& session, const std::string& filter,
                                    bool with_selftest = true);
// The commands a failure report of `target` prints (harness::FindReproTools): the running program
// is the CLI itself, so its own path names it even when it lies outside a build tree (a copy, an
// install), which FindReproTools alone finds only in a build tree's tools/.
harness::ReproTools CliReproTools(const std::string& target);
// The shipped corpus: for an installed binary (<prefix>/bin/serdiff), <prefix>/share/serdiff/
// corpus when it exists; else the source tree's corpus/ (compiled in).
std::string DefaultCorpusDir();
// --no-workers, --worker, --module and --subject as shell words (files made absolute).
std::string ReproArgs(const std::string& subject, const std::vector<std::string>& workers,
                      const std::vector<std::string>& modules, bool no_workers);
// A byte count for the tables: "123 B", "12.3 KiB", "1.23 MiB"; "-" when negative.
std::string Bytes(int64_t n);
// `s` as a JSON string, quotes included (harness::AppendJsonString).
std::string JsonText(std::string_view s);

// `serdiff list` and its --emit forms (tools/list.cc); each returns the exit status.
int List(const Session& session);
int EmitLimitsTsv(const Session& session);
int EmitOffsetsTable(const Session& session);
int EmitWireEdges(const Session& session);
int EmitDivergencesTable(const Session& session);

// `serdiff check` (tools/check.cc): 0 when every case passed, 1 on a failure, 2 on a usage or
// I/O error.
struct CheckOptions {
  int cases = 200;
  uint64_t seed = 1;
  std::string corpus_dir;
  std::string json_path;  // "" none, "-" stdout
  std::string filter;
  std::string failures_dir = "serdiff-failures";
};
int Check(const Session& session, const CheckOptions& options);

// `serdiff repro <target> <file> --upstream <worker>` (tools/upstream.cc): asks that worker for a
// program calling its library directly on the input, with serdiff's reference answer as the
// expectation (docs/workers.md, "Upstream reproducers"); writes it into out_dir as
// <target>-<worker>-<sha1 of the file, 12 digits>.<ext> and prints the command that runs it.
// 0 when written; 2 when the target, the file or the worker is wrong, the input has no form the
// worker takes, or the worker writes no reproducer for it.
int Upstream(const Session& session, const std::string& name, const std::string& file,
             const std::string& worker, const std::string& out_dir);

}  // namespace serdiff::tools
