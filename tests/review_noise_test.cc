// `serdiff review` widens its heap allowance by the runtime noise a worker's manifest states
// ("heap_noise"), in a whole review and in the one-input review its reproduce lines print
// (`--target T --input F`), and by nothing when the manifest states none.
#include <unistd.h>

#include <cstdint>
#include <filesystem>
#include <fstream>
#include <string>

#include "absl/strings/ascii.h"
#include "absl/strings/match.h"
#include "absl/strings/numbers.h"
#include "absl/strings/str_cat.h"
#include "gtest/gtest.h"
#include "tests/run_cli.h"

namespace serdiff {
namespace {

using testing_support::RunCli;
namespace fs = std::filesystem;

std::string TempDir(const std::string& name) {
  return testing_support::TempDir("review_noise", name);
}

// The number in the one-input review's "peak heap N B (allowed A B)" line of the after side:
// A, or -1.
int64_t Allowed(const std::string& out) {
  const size_t at = out.find("(allowed ");
  if (at == std::string::npos) return -1;
  int64_t v = -1;
  if (!absl::SimpleAtoi(out.substr(at + 9, out.find(' ', at + 9) - (at + 9)), &v)) return -1;
  return v;
}

// A Python worker "held" for bson_format_int64 that answers a value's digits and holds HELD
// bytes (the environment; none when unset) during each call, so that tracemalloc's peak sees
// them; and its manifest at dir/<manifest>, with `extra` JSON members.
std::string WriteWorker(const std::string& dir, const std::string& manifest,
                        const std::string& extra) {
  std::ofstream(dir + "/held_worker.py")
      << "import os, sys\n"
      << "sys.path.insert(0, '" << SERDIFF_CORPUS_DIR << "/../workers/python')\n"
      << "import serdiff_worker as sw\n"
      << "def to_decimal(inp):\n"
      << "    held = bytes(int(os.environ.get('HELD', '0')))\n"
      << "    return ('hex', str(int(inp['value'])).encode() + held[:0])\n"
      << "sw.serve(name='held', ops={'int64.to_decimal': to_decimal})\n";
  std::ofstream(dir + "/" + manifest)
      << R"({"name": "held", "command": ["/usr/bin/python3", "held_worker.py"],)"
      << R"( "targets": ["bson_format_int64"], "default": false)" << extra << "}";
  return dir + "/" + manifest;
}

// The after side holds 20,000 bytes more on every call: past the default allowance (+10 % +
// 256 B of a peak under 1 KiB), inside a stated noise of 64 KiB.
TEST(ReviewNoise, TheManifestsNoiseWidensTheAllowanceOfEveryReview) {
  if (std::system("test -x /usr/bin/python3") != 0) GTEST_SKIP() << "no /usr/bin/python3";
  const std::string dir = TempDir("held");
  const std::string plain = WriteWorker(dir, "plain.json", "");
  const std::string noisy = WriteWorker(
      dir, "noisy.json",
      R"(, "heap_noise": {"percent": 0, "bytes": 65536, "reason": "a test's stated noise"})");
  const auto [rc_seed, input] =
      RunCli(absl::StrCat("--no-workers seed bson_format_int64 --value -1 --corpus ", dir, "/c"));
  ASSERT_EQ(rc_seed, 0) << input;
  const std::string file(absl::StripTrailingAsciiWhitespace(input));

  // Without a stated noise: heap-grew, in the whole review and for the one input.
  const auto [rc_plain, out_plain] =
      RunCli(absl::StrCat("review --before ", plain, " --after ", plain,
                          " --after-env HELD=20000 --cases 5 --out ", dir, "/o1"));
  EXPECT_EQ(rc_plain, 1) << out_plain;
  EXPECT_TRUE(absl::StrContains(out_plain, "serdiff review: bson_format_int64: heap-grew"))
      << out_plain;
  const auto [rc_one_plain, one_plain] =
      RunCli(absl::StrCat("review --before ", plain, " --after ", plain,
                          " --after-env HELD=20000 --target bson_format_int64 --input ", file));
  EXPECT_EQ(rc_one_plain, 1) << one_plain;
  EXPECT_TRUE(absl::StrContains(one_plain, "serdiff review: bson_format_int64: heap-grew"))
      << one_plain;

  // With 64 KiB of stated noise: no regression, and the one input's allowance carries it.
  const auto [rc_noisy, out_noisy] =
      RunCli(absl::StrCat("review --before ", noisy, " --after ", noisy,
                          " --after-env HELD=20000 --cases 5 --out ", dir, "/o2"));
  EXPECT_EQ(rc_noisy, 0) << out_noisy;
  EXPECT_TRUE(absl::StrContains(out_noisy,
                                "heap allowance before + 10 % + 65792 B (of which 0 % "
                                "+ 65536 B the runtime's heap noise, as its manifest "
                                "states)"))
      << out_noisy;
  const auto [rc_one_noisy, one_noisy] =
      RunCli(absl::StrCat("review --before ", noisy, " --after ", noisy,
                          " --after-env HELD=20000 --target bson_format_int64 --input ", file));
  EXPECT_EQ(rc_one_noisy, 0) << one_noisy;
  // The one input's allowance is the plain one's plus the noise, to the byte.
  EXPECT_EQ(Allowed(one_noisy), Allowed(one_plain) + 65536) << one_plain << one_noisy;
  EXPECT_GT(Allowed(one_plain), 256) << one_plain;
  EXPECT_TRUE(absl::StrContains(one_noisy, "review: the sides agree")) << one_noisy;
  fs::remove_all(dir);
}

}  // namespace
}  // namespace serdiff
