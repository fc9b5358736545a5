// The checked-in dictionaries fuzz/<family>.dict are exactly what `serdiff dict <family>`
// generates from the format tables (tools/dicts_<family>.cc): regenerate them with
//   build/dev/tools/serdiff dict varint > fuzz/varint.dict   (and cql)
#include <cstdio>
#include <fstream>
#include <sstream>
#include <string>

#include <gtest/gtest.h>

#include "absl/strings/str_cat.h"

namespace {

std::string Cli(const std::string& args) {
  // stdout only (RunCli in tests/run_cli.h merges stderr in, which these checks must not see).
  FILE* f = popen(absl::StrCat(SERDIFF_CLI, " ", args).c_str(), "r");
  if (f == nullptr) return "";
  std::string out;
  char buf[4096];
  size_t n;
  while ((n = std::fread(buf, 1, sizeof buf, f)) > 0) out.append(buf, n);
  pclose(f);
  return out;
}

std::string ReadFile(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  std::stringstream s;
  s << in.rdbuf();
  return s.str();
}

TEST(Dictionaries, CheckedInFilesAreTheGeneratedOnes) {
  for (const char* family : {"varint", "cql"}) {
    const std::string file = absl::StrCat(SERDIFF_CORPUS_DIR, "/../fuzz/", family, ".dict");
    EXPECT_EQ(ReadFile(file), Cli(absl::StrCat("dict ", family)))
        << file << " is stale: regenerate it with `serdiff dict " << family << "`";
  }
}

TEST(Dictionaries, VarintBoundariesAreTheFormatsEncodings) {
  const std::string d = Cli("dict varint");
  // 300 is not a boundary; 2^7 and 2^7 - 1 are, in every format.
  EXPECT_NE(d.find("leb128_2p7m1=\"\\x7f\"\n"), std::string::npos) << d;
  EXPECT_NE(d.find("leb128_2p7=\"\\x80\\x01\"\n"), std::string::npos) << d;
  EXPECT_NE(d.find("leb128_max=\"\\xff\\xff\\xff\\xff\\xff\\xff\\xff\\xff\\xff\\x01\"\n"),
            std::string::npos)
      << d;
  EXPECT_NE(d.find("vint_2p7=\"\\x80\\x80\"\n"), std::string::npos) << d;
  EXPECT_NE(d.find("fory_max=\"\\xff\\xff\\xff\\xff\\xff\\xff\\xff\\xff\\xff\"\n"),
            std::string::npos)
      << d;
}

TEST(Dictionaries, CqlHasEveryTypeIdAndTheLengthEdges) {
  const std::string d = Cli("dict cql");
  EXPECT_NE(d.find("type_int=\"\\x00\\x09\"\n"), std::string::npos) << d;
  EXPECT_NE(d.find("type_tuple=\"\\x00\\x31\"\n"), std::string::npos) << d;
  EXPECT_NE(d.find("len_null=\"\\xff\\xff\\xff\\xff\"\n"), std::string::npos) << d;
  EXPECT_NE(d.find("len_unset=\"\\xff\\xff\\xff\\xfe\"\n"), std::string::npos) << d;
}

}  // namespace
