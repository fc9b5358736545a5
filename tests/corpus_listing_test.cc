// The corpus listing (harness::ListCorpusFiles) never drops an entry in silence: a folder it
// cannot read is an error (a replay that went on would leave out every input after it), and an
// entry that is neither a folder nor a regular file (a FIFO, a symbolic link to nothing) is
// listed, so that reading it fails with its reason; `check` counts either as a failure and
// `review` refuses the corpus (exit 2).
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include <filesystem>
#include <fstream>
#include <string>
#include <utility>
#include <vector>

#include "absl/strings/match.h"
#include "absl/strings/str_cat.h"
#include "gtest/gtest.h"
#include "harness/corpus.h"
#include "tests/run_cli.h"

namespace serdiff::harness {
namespace {

namespace fs = std::filesystem;
using testing_support::RunCli;

fs::path Fresh(const std::string& name) { return testing_support::TempDir("listing", name); }

// Runs `serdiff <args>` as RunCli does, but as the user "nobody" (uid 65534) when this process is
// root, whom file permissions do not stop (setpriv, util-linux); (exit status, output).
std::pair<int, std::string> RunCliUnprivileged(const std::string& args) {
  if (geteuid() != 0) return RunCli(args);
  return testing_support::RunShell(
      absl::StrCat("setpriv --reuid=65534 --regid=65534 --clear-groups ", SERDIFF_CLI, " ", args));
}

TEST(CorpusListing, AnEntryThatIsNoRegularFileIsListedAndFailsToRead) {
  const fs::path d = Fresh("entries");
  std::ofstream(d / "a_seed", std::ios::binary) << "x";
  ASSERT_EQ(mkfifo((d / "b_fifo").c_str(), 0644), 0);
  fs::create_symlink(d / "nowhere", d / "c_dangling");
  fs::create_directories(d / "d_folder");
  const absl::StatusOr<std::vector<std::string>> files = ListCorpusFiles(d.string());
  ASSERT_TRUE(files.ok()) << files.status();
  EXPECT_EQ(*files, (std::vector<std::string>{(d / "a_seed").string(), (d / "b_fifo").string(),
                                              (d / "c_dangling").string()}));
  EXPECT_EQ(ReadFileBytes((d / "b_fifo").string()).status().message(),
            absl::StrCat((d / "b_fifo").string(), " is not a regular file"));
  EXPECT_EQ(ReadFileBytes((d / "c_dangling").string()).status().code(),
            absl::StatusCode::kNotFound);
  fs::remove_all(d);
}

// A folder of the corpus that cannot be read (mode 000), listed before any input:
// check counts a failure and names the folder, review and show refuse the corpus.
TEST(CorpusListing, AFolderThatCannotBeListedIsAnError) {
  if (geteuid() == 0 && std::system("command -v setpriv >/dev/null") != 0) {
    GTEST_SKIP() << "root without setpriv: no folder can be made unreadable";
  }
  const fs::path d = Fresh("unreadable");
  const fs::path target = d / "varint_leb128_encode";
  fs::create_directories(target / "a_unreadable");
  std::ofstream(target / "b_seed", std::ios::binary) << std::string("\x01\x02", 2);
  fs::permissions(d, fs::perms::all);  // the review's --out is made inside it
  fs::permissions(target / "a_unreadable", fs::perms::none);
  const std::string listing =
      absl::StrCat("cannot list ", (target / "a_unreadable").string(), " (a corpus below ",
                   target.string(), "): Permission denied");
  const auto [rc, out] = RunCliUnprivileged(absl::StrCat(
      "--no-workers check --filter varint_leb128_encode --cases 0 --corpus ", d.string()));
  EXPECT_EQ(rc, 1) << out;
  EXPECT_TRUE(absl::StrContains(out, listing)) << out;
  EXPECT_TRUE(absl::StrContains(out, "1 targets, 1 failures")) << out;
  EXPECT_TRUE(absl::StrContains(out, "FAIL varint_leb128_encode: unreadable-input\n  " + listing))
      << out;
  const auto [rc_review, out_review] = RunCliUnprivileged(absl::StrCat(
      "--no-workers review --before reference --after optimized --filter varint_leb128_encode "
      "--cases 0 --time-rounds 0 --corpus ",
      d.string(), " --out ", d.string(), "/out"));
  EXPECT_EQ(rc_review, 2) << out_review;
  EXPECT_TRUE(absl::StrContains(out_review, "serdiff review: UNAVAILABLE: " + listing))
      << out_review;
  const auto [rc_show, out_show] = RunCliUnprivileged(
      absl::StrCat("--no-workers show varint_leb128_encode --corpus ", d.string()));
  EXPECT_EQ(rc_show, 2) << out_show;
  EXPECT_TRUE(absl::StrContains(out_show, listing)) << out_show;
  fs::permissions(target / "a_unreadable", fs::perms::owner_all);
  fs::remove_all(d);
}

}  // namespace
}  // namespace serdiff::harness
