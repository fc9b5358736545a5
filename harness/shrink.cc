#include "harness/shrink.h"

#include <algorithm>
#include <tuple>
#include <vector>

#include "absl/strings/str_cat.h"

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
std::vector<std::string> Neighbours(const std::string& b) {
  std::vector<std::string> out;
  const size_t n = b.size();
  for (size_t k = n / 2; k >= 1; k /= 2) {
    for (size_t i = 0; i + k <= n; i += k) {
      std::string c = b;
      c.erase(i, k);
      out.push_back(std::move(c));
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
      out.push_back(std::move(c));
    }
  }
  return out;
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

absl::StatusOr<ShrinkResult> Shrink(const Target& target, std::string_view input,
                                    int64_t max_runs) {
  ShrinkResult out;
  out.before_bytes = std::string(input);
  const CaseResult first = target.RunBytes(input);
  out.before_value = ReportInputText(first.report);
  if (first.passed) {
    return absl::InvalidArgumentError(
        absl::StrCat("the input passes target ", target.name(), ": there is nothing to shrink"));
  }
  out.failure_class = first.failure_class;
  Candidate cur{first.corpus_bytes, out.before_value, first.report};
  bool improved = true;
  while (improved && out.runs < max_runs) {
    improved = false;
    for (const std::string& c : Neighbours(cur.bytes)) {
      if (out.runs >= max_runs) break;
      ++out.runs;
      const CaseResult r = target.RunBytes(c);
      if (r.passed || r.failure_class != out.failure_class) continue;
      Candidate next{r.corpus_bytes, ReportInputText(r.report), r.report};
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
        continue;
      }
      if (Smaller(next, cur)) {
        cur = std::move(next);
        ++out.steps;
        improved = true;
        break;
      }
    }
  }
  std::sort(out.declined_by.begin(), out.declined_by.end());
  out.after_bytes = std::move(cur.bytes);
  out.after_value = std::move(cur.value);
  out.after_report = std::move(cur.report);
  return out;
}

std::string ReproCommands(const std::string& target, const std::string& file, bool selftest) {
  std::string out = "reproduce:\n";
  if (selftest) {
    absl::StrAppend(&out, "  build/dev/tools/serdiff --selftest repro ", target, " ", file,
                    "   # the report\n");
    return out;
  }
  absl::StrAppend(&out, "  build/dev/tools/serdiff repro ", target, " ", file, "   # the report\n");
  absl::StrAppend(&out, "  build/dev/tools/serdiff repro --shrink --emit-regression ", target, " ",
                  file, "   # smallest value, kept in corpus/", target, "/regressions/\n");
  absl::StrAppend(&out, "  ctest --preset dev -R '^(", target,
                  "\\.CorpusReplayPasses|fuzz_replay\\.", target,
                  ")$'   # ctest, once kept as a regression\n");
  absl::StrAppend(&out, "  build/oss-fuzz-address/out/", target, " ", file,
                  "   # raw libFuzzer binary (or build/fuzz/fuzz/", target, ")\n");
  absl::StrAppend(&out, "  python infra/helper.py reproduce serdiff ", target, " ", file,
                  "   # OSS-Fuzz checkout\n");
  return out;
}

}  // namespace serdiff::harness
