// `serdiff review`'s reports (tools/review_internal.h).
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <ostream>
#include <string>
#include <system_error>
#include <vector>

#include "absl/strings/match.h"
#include "absl/strings/str_cat.h"
#include "absl/strings/str_format.h"
#include "absl/strings/str_join.h"
#include "absl/strings/str_split.h"
#include "harness/shrink.h"
#include "tools/cli.h"
#include "tools/review_internal.h"

namespace serdiff::tools::review_internal {
namespace {

// "<peak> (<x> x output)" for the growth table; "-" when the peak is unknown.
std::string PeakVsOutput(int64_t peak, int64_t output) {
  if (peak < 0) return "-";
  if (output <= 0) return Bytes(peak);
  return absl::StrFormat("%s (%.2f x)", Bytes(peak), static_cast<double>(peak) / output);
}

// A call under this many ns is marked: so short a call moves with the code around it (where the
// linker puts its loop), and where serdiff's own dispatch is timed with it (a compiled callable
// returning anything but a std::string: a std::function call and the move into the StatusOr; a
// module: the module ABI's call), those few ns are a large share of it (docs/benchmarks.md,
// "`serdiff review`'s timing against plain loops": on 0 values, calls of 4-8 ns, 0.43 in the
// review and in a plain C++ loop; through the dispatch 0.57-0.66). Workers' calls are timed
// inside the worker in batches and need no mark.
constexpr double kShortCallNs = 100;
constexpr const char* kShortCallNote =
    "* under 100 ns a call: so short a call moves with the code around it (and with serdiff's "
    "dispatch, for an implementation not returning a std::string, or a module): the ratio of "
    "such a step can be off by a tenth or more (docs/benchmarks.md)";

bool AnyShortCall(const std::vector<GrowthRow>& growth) {
  for (const GrowthRow& g : growth) {
    if ((g.before_ns >= 0 && g.before_ns < kShortCallNs) ||
        (g.after_ns >= 0 && g.after_ns < kShortCallNs)) {
      return true;
    }
  }
  return false;
}

std::string NsText(double ns) {
  if (ns < 0) return "-";
  if (ns < kShortCallNs) return absl::StrFormat("%.0f ns*", ns);
  if (ns < 10000) return absl::StrFormat("%.0f ns", ns);
  if (ns < 1e7) return absl::StrFormat("%.1f us", ns / 1e3);
  return absl::StrFormat("%.1f ms", ns / 1e6);
}

std::string AbsolutePath(const std::string& f) {
  std::error_code ec;
  const std::filesystem::path p = std::filesystem::absolute(f, ec);
  return ec ? f : p.lexically_normal().string();
}

}  // namespace

std::string AbsolutePaths(const std::string& value) {
  std::vector<std::string> parts = absl::StrSplit(value, ':');
  for (std::string& p : parts) {
    std::error_code ec;
    if (p.find('/') != std::string::npos && p[0] != '/' && std::filesystem::exists(p, ec)) {
      p = AbsolutePath(p);
    }
  }
  return absl::StrJoin(parts, ":");
}

// A long printed value cut for the summary (the file holds the whole input).
std::string Cap(const std::string& text, size_t n) {
  return text.size() <= n ? text
                          : text.substr(0, n) + absl::StrCat("... (", text.size(), " chars)");
}

// The command that judges one input of a review, as the reviewer ran it.
std::string ReproLine(const ReviewOptions& o, const std::string& target, const std::string& file) {
  std::string a = harness::ShellWord(harness::SelfPath()) + " review";
  if (o.selftest) a += " --selftest";
  // A manifest or module as an absolute path; an implementation's name as given (a folder of
  // that name in the current directory, such as reference/, is no side).
  auto side = [](const std::string& spec) {
    const bool is_file = absl::EndsWith(spec, ".json") || absl::StrContains(spec, ".so");
    return harness::ShellWord(is_file ? AbsolutePath(spec) : spec);
  };
  a += " --before " + side(o.before);
  // NAME=value with the value's relative paths made absolute, as the review used them.
  auto env = [](const std::string& e) {
    const size_t eq = e.find('=');
    return harness::ShellWord(
        eq == std::string::npos ? e : e.substr(0, eq + 1) + AbsolutePaths(e.substr(eq + 1)));
  };
  for (const std::string& e : o.before_env) a += " --before-env " + env(e);
  a += " --after " + side(o.after);
  for (const std::string& e : o.after_env) a += " --after-env " + env(e);
  if (o.heap.percent != harness::HeapTolerance{}.percent)
    a += absl::StrCat(" --heap-tolerance ", o.heap.percent);
  if (o.heap.slack_bytes != harness::HeapTolerance{}.slack_bytes)
    a += absl::StrCat(" --heap-slack ", o.heap.slack_bytes);
  return a + " --target " + target + " --input " + harness::ShellWord(AbsolutePath(file));
}

void PrintSummary(std::ostream& out, const ReviewOptions& o, const std::vector<TargetRow>& rows,
                  const std::vector<Finding>& findings) {
  out << absl::StrFormat("%-32s %7s %8s %8s %9s %10s %10s  %s\n", "target", "inputs", "compared",
                         "declined", "differing", "before/spec", "after/spec",
                         "heap after/before (worst)");
  for (const TargetRow& r : rows) {
    out << absl::StrFormat(
        "%-32s %7d %8d %8d %9d %10s %10s  %s\n", r.target, r.inputs, r.compared, r.declined,
        r.differing, r.before_spec_failures ? absl::StrCat(r.before_spec_failures, " fail") : "ok",
        r.after_spec_failures ? absl::StrCat(r.after_spec_failures, " fail") : "ok",
        r.heap_compared ? absl::StrFormat("%.2fx", r.worst_heap_ratio) : "not measured");
    if (r.compared == 0 && r.declined > 0) {
      out << "  nothing compared: every input was declined";
      if (!r.first_decline_before.empty()) out << "; before, first: " << r.first_decline_before;
      if (!r.first_decline_after.empty()) out << "; after, first: " << r.first_decline_after;
      out << "\n";
    }
    if (r.timed) {
      out << absl::StrFormat(
          "  speed: speedup %.3fx (before time / after time; 95 %% CI %.3f-%.3f, %d rounds of %d "
          "timings of %d call%s): %s%s\n",
          r.speed.ratio, r.speed.low, r.speed.high, r.speed.rounds, o.time_calls, r.speed_batch,
          r.speed_batch == 1 ? "" : "s", r.speed.verdict,
          r.speed_note.empty() ? "" : "; " + r.speed_note);
    } else if (!r.speed_note.empty()) {
      out << "  speed: " << r.speed_note << "\n";
    }
    if (!r.growth.empty()) {
      out << absl::StrFormat("  size ladder: %9s %5s %12s  %-24s %-24s %10s %10s  %s\n", "count",
                             "nulls", "output", "before peak (x output)", "after peak (x output)",
                             "before", "after", "");
      for (const GrowthRow& g : r.growth) {
        out << absl::StrFormat("               %9d %4d%% %12s  %-24s %-24s %10s %10s  %s\n",
                               g.count, g.null_percent, Bytes(g.output_bytes),
                               PeakVsOutput(g.before_peak, g.output_bytes),
                               PeakVsOutput(g.after_peak, g.output_bytes), NsText(g.before_ns),
                               NsText(g.after_ns), !g.compared ? "not compared (declined)" : g.cls);
      }
      if (AnyShortCall(r.growth)) out << "  " << kShortCallNote << "\n";
    }
  }
  for (const Finding& f : findings) {
    out << "\n" << f.target << ": " << f.cls << ": " << f.details << "\n";
    if (!f.confirmed()) {
      out << "  unconfirmed: the same class on " << f.confirmed_runs << " of " << kConfirmRuns
          << " re-runs of this input (a measurement that moves between runs); not a regression\n";
    }
    if (f.shrunk_ok) {
      out << "  shrunk: " << Cap(f.shrunk.before_value) << "  ->  " << Cap(f.shrunk.after_value)
          << " (" << f.shrunk.runs << " candidates judged, " << f.shrunk.steps << " kept)\n";
    } else {
      out << "  input:  " << Cap(f.shrunk.before_value)
          << (f.from_ladder ? " (the smallest ladder step that differs)" : "") << "\n";
      if (!f.shrink_note.empty()) out << "  " << f.shrink_note << "\n";
    }
    out << "  before: " << f.before_text << "\n  after:  " << f.after_text << "\n";
    if (!f.written.empty()) {
      out << "  written: " << f.written << "\n  reproduce: " << ReproLine(o, f.target, f.written)
          << "\n";
    }
    if (f.confirmed()) out << "serdiff review: " << f.target << ": " << f.cls << "\n";
  }
}

void WriteMarkdown(std::ostream& md, const ReviewOptions& o, const SideText& before,
                   const SideText& after, const std::vector<TargetRow>& rows,
                   const std::vector<Finding>& findings, bool failed) {
  md << "## serdiff review: " << before.impl << " (" << before.spec << ") -> " << after.impl << " ("
     << after.spec << ")\n\n"
     << "Verdict: **"
     << (failed                  ? "regression"
         : NothingCompared(rows) ? "nothing compared, every input declined"
                                 : "no regression")
     << "**. Inputs: the shipped "
     << "corpus of each target, then " << o.cases << " generated (seed " << o.seed
     << "), the same for both sides. Heap allowance per input: before + " << o.heap.percent
     << " % + " << o.heap.slack_bytes
     << " B, plus the runtime noise a worker's manifest states (docs/review.md).\n\n"
     << "| target | inputs | compared | declined | differing | heap compared | before vs spec "
        "| after vs spec | worst heap after/before | speedup, before time / after time (95 % CI) "
        "|\n"
     << "| --- | ---: | ---: | ---: | ---: | ---: | --- | --- | --- | --- |\n";
  for (const TargetRow& r : rows) {
    std::vector<std::string> cls;
    for (const auto& [c, n] : r.classes) cls.push_back(absl::StrCat(c, " ", n));
    md << "| " << r.target << " | " << r.inputs << " | " << r.compared << " | " << r.declined
       << " | " << r.differing << (cls.empty() ? "" : " (" + absl::StrJoin(cls, ", ") + ")")
       << " | " << r.heap_compared << " | "
       << (r.before_spec_failures
               ? absl::StrCat(r.before_spec_failures, " failing (", r.before_spec_first, ")")
               : "agrees")
       << " | "
       << (r.after_spec_failures
               ? absl::StrCat(r.after_spec_failures, " failing (", r.after_spec_first, ")")
               : "agrees")
       << " | "
       << (r.heap_compared ? absl::StrFormat("%.2fx", r.worst_heap_ratio) : std::string("-"))
       << " | "
       << (r.timed ? absl::StrFormat("%.2fx (%.2f-%.2f), %s%s", r.speed.ratio, r.speed.low,
                                     r.speed.high, r.speed.verdict,
                                     r.speed_note.empty() ? "" : "; " + r.speed_note)
                   : r.speed_note)
       << " |\n";
  }
  for (const TargetRow& r : rows) {
    if (r.growth.empty()) continue;
    md << "\n### Growth: " << r.target << "\n\n"
       << "| count | nulls | output | before peak (x output) | after peak (x output) | before "
          "time | after time | class |\n| ---: | ---: | ---: | ---: | ---: | ---: | ---: | --- |\n";
    for (const GrowthRow& g : r.growth) {
      md << "| " << g.count << " | " << g.null_percent << " % | " << Bytes(g.output_bytes) << " | "
         << PeakVsOutput(g.before_peak, g.output_bytes) << " | "
         << PeakVsOutput(g.after_peak, g.output_bytes) << " | " << NsText(g.before_ns) << " | "
         << NsText(g.after_ns) << " | " << (!g.compared ? "declined" : g.cls) << " |\n";
    }
    if (AnyShortCall(r.growth)) md << "\n" << kShortCallNote << ".\n";
  }
  if (findings.empty()) return;
  md << "\n### Differences (each shrunk to a local minimum: no smaller neighbour still differs)\n";
  for (const Finding& f : findings) {
    md << "\n**" << f.target << ": " << f.cls << "**"
       << (f.confirmed() ? ""
                         : absl::StrCat(" (unconfirmed: ", f.confirmed_runs, " of ", kConfirmRuns,
                                        " re-runs; not a regression)"))
       << ": " << f.details << "\n\n"
       << "- input: `" << Cap(f.shrunk_ok ? f.shrunk.after_value : f.shrunk.before_value)
       << "`\n- before: `" << f.before_text << "`\n- after: `" << f.after_text << "`\n";
    if (!f.written.empty()) {
      md << "- reproduce: `" << ReproLine(o, f.target, f.written) << "`\n";
    }
  }
}

void WriteJson(std::ostream& js, const ReviewOptions& o, const SideText& before,
               const SideText& after, const std::vector<TargetRow>& rows,
               const std::vector<Finding>& findings, bool failed) {
  js << "{\"schema_version\":1,\"tool\":\"serdiff review\",\"before\":{\"spec\":"
     << JsonText(before.spec) << ",\"impl\":" << JsonText(before.impl)
     << "},\"after\":{\"spec\":" << JsonText(after.spec) << ",\"impl\":" << JsonText(after.impl)
     << "},\"cases\":" << o.cases << ",\"seed\":" << o.seed
     << ",\"heap_tolerance_percent\":" << o.heap.percent
     << ",\"heap_slack_bytes\":" << o.heap.slack_bytes
     << ",\"passed\":" << (failed || NothingCompared(rows) ? "false" : "true") << ",\"targets\":[";
  for (size_t i = 0; i < rows.size(); ++i) {
    const TargetRow& r = rows[i];
    js << (i ? "," : "") << "{\"target\":" << JsonText(r.target) << ",\"inputs\":" << r.inputs
       << ",\"compared\":" << r.compared << ",\"declined\":" << r.declined
       << ",\"differing\":" << r.differing << ",\"classes\":{";
    size_t k = 0;
    for (const auto& [c, n] : r.classes) js << (k++ ? "," : "") << JsonText(c) << ":" << n;
    js << "},\"heap_compared\":" << r.heap_compared
       << ",\"before_peak_max_bytes\":" << r.before_peak_max
       << ",\"after_peak_max_bytes\":" << r.after_peak_max
       << ",\"worst_heap_ratio\":" << absl::StrFormat("%.4f", r.worst_heap_ratio)
       << ",\"worst_heap_excess_bytes\":" << r.worst_heap_excess
       << ",\"before_spec_failures\":" << r.before_spec_failures
       << ",\"after_spec_failures\":" << r.after_spec_failures;
    js << ",\"ladder\":[";
    for (size_t k2 = 0; k2 < r.growth.size(); ++k2) {
      const GrowthRow& g = r.growth[k2];
      js << (k2 ? "," : "") << "{\"count\":" << g.count << ",\"null_percent\":" << g.null_percent
         << ",\"compared\":" << (g.compared ? "true" : "false")
         << ",\"output_bytes\":" << g.output_bytes << ",\"before_peak_bytes\":" << g.before_peak
         << ",\"after_peak_bytes\":" << g.after_peak
         << ",\"before_ns\":" << absl::StrFormat("%.1f", g.before_ns)
         << ",\"after_ns\":" << absl::StrFormat("%.1f", g.after_ns)
         << ",\"class\":" << JsonText(g.cls) << "}";
    }
    js << "]";
    if (r.timed) {
      js << ",\"speed\":{\"ratio\":" << absl::StrFormat("%.4f", r.speed.ratio)
         << ",\"low\":" << absl::StrFormat("%.4f", r.speed.low)
         << ",\"high\":" << absl::StrFormat("%.4f", r.speed.high)
         << ",\"rounds\":" << r.speed.rounds << ",\"timings\":" << o.time_calls
         << ",\"batch\":" << r.speed_batch << ",\"verdict\":" << JsonText(r.speed.verdict)
         << ",\"over_max_slowdown\":" << (r.over_max_slowdown ? "true" : "false") << "}";
    }
    js << "}";
  }
  js << "],\"findings\":[";
  for (size_t i = 0; i < findings.size(); ++i) {
    const Finding& f = findings[i];
    js << (i ? "," : "") << "{\"target\":" << JsonText(f.target) << ",\"class\":" << JsonText(f.cls)
       << ",\"confirmed\":" << (f.confirmed() ? "true" : "false")
       << ",\"confirmed_runs\":" << f.confirmed_runs << ",\"details\":" << JsonText(f.details)
       << ",\"input\":"
       << JsonText(Cap(f.shrunk_ok ? f.shrunk.after_value : f.shrunk.before_value, 4096))
       << ",\"before\":" << JsonText(f.before_text) << ",\"after\":" << JsonText(f.after_text)
       << ",\"file\":" << JsonText(f.written)
       << ",\"reproduce\":" << JsonText(f.written.empty() ? "" : ReproLine(o, f.target, f.written))
       << "}";
  }
  js << "]}\n";
}

// --plots: per target with a size ladder, <dir>/<target>.dat (the 0 %-null steps from count 1:
// count, output bytes, both peaks, both times) and <dir>/<target>.gp, a gnuplot script drawing
// peak heap and time against the element count (log-log, both sides), run with gnuplot into
// <dir>/<target>.png when gnuplot is on PATH (Debian: gnuplot-nox). Returns a line per target.
std::vector<std::string> WritePlots(const std::string& dir, const SideText& before,
                                    const SideText& after, const std::vector<TargetRow>& rows) {
  std::vector<std::string> out;
  std::error_code ec;
  std::filesystem::create_directories(dir, ec);
  const bool have_gnuplot = std::system("command -v gnuplot >/dev/null 2>&1") == 0;
  for (const TargetRow& r : rows) {
    if (r.growth.empty()) continue;
    // Absolute paths in the script, so that `gnuplot <target>.gp` works from any directory.
    const std::filesystem::path abs_dir = std::filesystem::absolute(dir, ec);
    const std::string base = (ec ? std::filesystem::path(dir) : abs_dir).string() + "/" + r.target;
    std::ofstream dat(base + ".dat");
    dat << "# count output_bytes before_peak after_peak before_ns after_ns (nulls 0 %)\n";
    int points = 0;
    bool timed = false;  // a time panel only when some step was timed (--time-rounds)
    for (const GrowthRow& g : r.growth) {
      if (g.null_percent != 0 || g.count == 0) continue;
      dat << g.count << " " << g.output_bytes << " " << g.before_peak << " " << g.after_peak << " "
          << g.before_ns << " " << g.after_ns << "\n";
      ++points;
      timed |= g.before_ns > 0 || g.after_ns > 0;
    }
    std::ofstream gp(base + ".gp");
    const std::string b = before.impl + " (before)", a = after.impl + " (after)";
    gp << "set terminal pngcairo noenhanced size " << (timed ? "1200" : "640")
       << ",480 font ',10'\nset output '" << base << ".png'\n"
       << "set multiplot layout 1," << (timed ? 2 : 1) << " title '" << r.target << ": " << b
       << " vs " << a << "'\n"
       << "set logscale xy\nset grid\nset key top left\nset xlabel 'elements'\n"
       << "set datafile missing '-1'\n"
       << "set ylabel 'peak heap (bytes)'\nplot '" << base << ".dat' using 1:3 with linespoints "
       << "title '" << b << "', '' using 1:4 with linespoints title '" << a
       << "', '' using 1:2 with lines dashtype 2 title 'output size'\n";
    if (timed) {
      gp << "set ylabel 'time per call (ns)'\nplot '" << base << ".dat' using 1:($5>0?$5:1/0) "
         << "with linespoints title '" << b
         << "', '' using 1:($6>0?$6:1/0) with linespoints title '" << a << "'\n";
    }
    gp << "unset multiplot\n";
    dat.close();
    gp.close();
    std::string line = absl::StrCat(r.target, ": ", points, " sizes in ", base, ".dat");
    if (have_gnuplot && points > 0) {
      const int rc =
          std::system(("gnuplot " + harness::ShellWord(base + ".gp") + " 2>/dev/null").c_str());
      absl::StrAppend(&line, rc == 0 ? absl::StrCat(", plotted: ", base, ".png")
                                     : absl::StrCat(", gnuplot failed on ", base, ".gp"));
    } else {
      absl::StrAppend(&line,
                      ", not plotted (gnuplot not installed: apt-get install gnuplot-nox; "
                      "then gnuplot ",
                      base, ".gp)");
    }
    out.push_back(line);
  }
  return out;
}

}  // namespace serdiff::tools::review_internal
