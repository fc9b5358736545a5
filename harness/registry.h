// serdiff harness: the registry of targets. Families register themselves (the
// SERDIFF_REGISTER_FAMILY macro below), each with its defaults (length fields, fuzz-limit rules,
// wire edges); a registry is built for one run configuration (harness/run_config.h), and the
// workers and modules it names are attached to the targets they join.
#pragma once

#include <memory>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "harness/definition.h"
#include "harness/external.h"
#include "harness/length_lies.h"
#include "harness/run_config.h"
#include "harness/typed_target.h"
#include "harness/wire_edges.h"

namespace serdiff::harness {

// All registered targets, in registration order.
class Registry {
 public:
  // Adds a target of the family being registered (BuildRegistry sets it).
  template <typename T>
  void Add(TargetDef<T> def) {
    if (def.length_fields.empty()) def.length_fields = default_length_fields_;
    if (def.fuzz_limits.max_len == 0) def.fuzz_limits = FuzzLimitsFor(def.name);
    targets_.push_back(std::make_unique<TypedTarget<T>>(std::move(def), family_));
  }
  // The length/count field layout of the family being registered, given to each target it
  // adds that names none (TargetDef::length_fields). Reset for every family.
  void SetDefaultLengthFields(std::vector<LengthField> fields) {
    default_length_fields_ = std::move(fields);
  }
  // A rule of the family being registered: the targets it adds afterwards whose name matches
  // `glob` (`*` matches any run of characters) and that set no TargetDef::fuzz_limits get
  // `limits`; the first matching rule wins. Reset for every family.
  void SetFuzzLimits(std::string glob, FuzzLimits limits) {
    fuzz_limit_rules_.emplace_back(std::move(glob), std::move(limits));
  }
  // The wire-edge table of the family being registered (harness/wire_edges.h: its checked
  // length, minimum and reserved-bit fields); its `family` is set here.
  void AddWireEdges(WireEdgeTable table) {
    table.family = family_;
    wire_edges_.push_back(std::move(table));
  }
  const std::vector<std::unique_ptr<Target>>& targets() const { return targets_; }
  // Every family's wire-edge tables, in registration order.
  const std::vector<WireEdgeTable>& wire_edges() const { return wire_edges_; }
  // nullptr when no target has that name.
  const Target* Find(std::string_view name) const;
  Target* FindMutable(std::string_view name) {
    return const_cast<Target*>(static_cast<const Registry*>(this)->Find(name));
  }
  // The workers and modules attached (AttachExternal), for the reports' tables.
  const std::vector<std::shared_ptr<WorkerClient>>& workers() const { return workers_; }
  const std::vector<const serdiff_module*>& modules() const { return modules_; }
  // The run configuration the registry was built with (BuildRegistry): what its verdicts are
  // judged under (RunBytes(data, registry.config())) and what AttachExternal attached.
  const RunConfig& config() const { return config_; }
  // What AttachExternal could not attach, one line per problem (`serdiff list` shows them).
  const std::vector<std::string>& attach_problems() const { return attach_problems_; }
  // Starts now (WorkerClient::StartNow) every attached worker the run names: one whose manifest
  // is among config().external.worker_files (--worker, SERDIFF_WORKERS) or that is the subject.
  // Returns one line per worker that could not start ("<name> (<manifest>): the worker could
  // not start: <why>"); empty when each runs or declined (a missing runtime or package). A shipped
  // worker the run does not name starts at its first input, as before.
  std::vector<std::string> StartNamedWorkers() const;

 private:
  friend std::unique_ptr<Registry> BuildRegistry(bool selftest, RunConfig config);
  std::string family_ = "unregistered";
  RunConfig config_;
  std::vector<std::string> attach_problems_;
  FuzzLimits FuzzLimitsFor(std::string_view name) const;
  std::vector<LengthField> default_length_fields_;
  std::vector<std::pair<std::string, FuzzLimits>> fuzz_limit_rules_;
  std::vector<std::unique_ptr<Target>> targets_;
  std::vector<WireEdgeTable> wire_edges_;
  std::vector<std::shared_ptr<WorkerClient>> workers_;
  std::vector<const serdiff_module*> modules_;
  friend const std::vector<std::string>& AttachExternal(Registry& registry);
};

// Joins the workers and modules of registry.config() to the targets they name
// (docs/workers.md): every default manifest under OraclesDir() when external.default_workers
// (and, when a subject is set, the manifest of that name in any case), each of
// external.worker_files and external.module_files. Returns attach_problems(): one line per
// problem (a manifest that cannot be read, a target it names that does not exist or has no
// interchange, a module that does not load); what could be attached is.
const std::vector<std::string>& AttachExternal(Registry& registry);

// ---- Families register themselves ------------------------------------------------------------
//
// A family's target file ends with
//   SERDIFF_REGISTER_FAMILY("cql", RegisterTargets);
// which records the family name and its registration function when the program starts
// (static initialization). Nothing else names the family: no list in CMake, no #ifdef, no
// declaration in a shared header. The targets library is linked whole (WHOLE_ARCHIVE in
// targets/CMakeLists.txt), so the linker keeps these otherwise unreferenced objects.

using RegisterFamilyFn = void (*)(Registry& registry);

// Records family `name` (lower case, the prefix of each of its target names) with its
// registration function. Returns true (its value initializes a static). A name recorded twice
// is a programming error: BuildRegistry aborts on it.
bool RecordFamily(const char* name, RegisterFamilyFn fn);

// Names of the recorded families, sorted.
std::vector<std::string> RecordedFamilies();

// A registry of every recorded family, in family-name order: the families other than
// "selftest" (selftest false), or "selftest" alone (selftest true; targets whose optimized
// side is deliberately wrong), holding `config` (nothing is attached yet: AttachExternal).
// Aborts with a message when a family is recorded twice or a target's name does not start with
// "<family>_".
std::unique_ptr<Registry> BuildRegistry(bool selftest, RunConfig config = {});

#define SERDIFF_REGISTER_FAMILY(name, fn)                         \
  [[maybe_unused]] static const bool serdiff_family_registered_ = \
      ::serdiff::harness::RecordFamily(name, fn)

}  // namespace serdiff::harness
