// The run configuration (harness/run_config.h): the re-run sample and the environment's part.
#include "harness/run_config.h"

#include <cstdio>
#include <cstdlib>

#include "absl/strings/numbers.h"
#include "absl/strings/string_view.h"

namespace serdiff::harness {

uint64_t RerunHash(std::string_view data) {
  uint64_t h = 0xcbf29ce484222325ULL;  // FNV-1a offset basis and prime
  for (const char c : data) {
    h ^= static_cast<unsigned char>(c);
    h *= 0x100000001b3ULL;
  }
  return h;
}

bool RerunsAll(std::string_view data, const RunConfig& config) {
  return config.rerun_one_in <= 1 || RerunHash(data) % config.rerun_one_in == 0;
}

std::vector<std::string> SplitFileList(std::string_view list) {
  std::vector<std::string> out;
  std::string item;
  for (size_t i = 0; i < list.size(); ++i) {
    const char c = list[i];
    if (c == '\\' && i + 1 < list.size() && (list[i + 1] == ':' || list[i + 1] == '\\')) {
      item.push_back(list[++i]);
    } else if (c == ':') {
      if (!item.empty()) out.push_back(std::move(item));
      item.clear();
    } else {
      item.push_back(c);
    }
  }
  if (!item.empty()) out.push_back(std::move(item));
  return out;
}

std::string JoinFileList(const std::vector<std::string>& files) {
  std::string out;
  for (const std::string& f : files) {
    if (!out.empty()) out.push_back(':');
    for (char c : f) {
      if (c == ':' || c == '\\') out.push_back('\\');
      out.push_back(c);
    }
  }
  return out;
}

ExternalConfig ExternalConfigFromEnvironment(bool default_workers) {
  ExternalConfig c;
  c.default_workers = default_workers;
  if (const char* e = std::getenv("SERDIFF_DEFAULT_WORKERS"); e != nullptr && *e) {
    c.default_workers = std::string(e) != "0";
  }
  if (const char* e = std::getenv("SERDIFF_WORKERS")) c.worker_files = SplitFileList(e);
  if (const char* e = std::getenv("SERDIFF_MODULES")) c.module_files = SplitFileList(e);
  return c;
}

RunConfig RunConfigFromEnvironment(bool default_workers) {
  RunConfig c;
  c.external = ExternalConfigFromEnvironment(default_workers);
  if (const char* s = std::getenv("SERDIFF_SUBJECT"); s != nullptr) c.subject = s;
  return c;
}

uint32_t FuzzRerunOneInFromEnvironment() {
  const char* env = std::getenv("SERDIFF_RERUN_ONE_IN");
  if (env == nullptr) return kFuzzRerunOneIn;
  uint32_t v = 0;
  if (absl::SimpleAtoi(env, &v) && v >= 1) return v;
  std::fprintf(stderr, "serdiff: SERDIFF_RERUN_ONE_IN=%s is not a positive integer; using %u\n",
               env, static_cast<unsigned>(kFuzzRerunOneIn));
  return kFuzzRerunOneIn;
}

namespace {
thread_local bool in_second_run = false;
}  // namespace

bool InSecondRun() { return in_second_run; }

SecondRunScope::SecondRunScope() : outer_(in_second_run) { in_second_run = true; }

SecondRunScope::~SecondRunScope() { in_second_run = outer_; }

}  // namespace serdiff::harness
