#include "harness/corpus.h"

#include <openssl/evp.h>

#include <algorithm>
#include <filesystem>
#include <fstream>
#include <sstream>

#include "absl/strings/str_cat.h"
#include "absl/strings/str_format.h"

namespace serdiff::harness {
namespace fs = std::filesystem;

constexpr uintmax_t kMaxInputBytes = uintmax_t{64} << 20;

std::string Sha1Hex(std::string_view bytes) {
  unsigned char md[EVP_MAX_MD_SIZE];
  unsigned int len = 0;
  EVP_Digest(bytes.data(), bytes.size(), md, &len, EVP_sha1(), nullptr);
  std::string out;
  for (unsigned int i = 0; i < len; ++i) absl::StrAppendFormat(&out, "%02x", md[i]);
  return out;
}

absl::StatusOr<std::vector<std::string>> ListCorpusFiles(const std::string& dir) {
  std::vector<std::string> files;
  std::error_code ec;
  if (!fs::is_directory(dir, ec)) return files;
  std::string last = dir;  // the entry the iterator was on: the folder it failed to enter
  for (auto it = fs::recursive_directory_iterator(dir, ec); !ec && it != fs::end(it);
       it.increment(ec)) {
    last = it->path().string();
    const std::string name = it->path().filename().string();
    if (!name.empty() && name[0] == '.') {
      // A hidden folder (.git, an editor's cache) is not descended into either.
      std::error_code dir_ec;
      if (it->is_directory(dir_ec)) it.disable_recursion_pending();
      continue;
    }
    std::error_code type_ec;
    if (!it->is_directory(type_ec)) files.push_back(it->path().string());
  }
  if (ec) {
    return absl::UnavailableError(
        absl::StrCat("cannot list ", last, " (a corpus below ", dir, "): ", ec.message()));
  }
  std::sort(files.begin(), files.end());
  return files;
}

absl::StatusOr<std::string> ReadFileBytes(const std::string& path) {
  std::error_code ec;
  if (!fs::exists(path, ec)) return absl::NotFoundError(absl::StrCat("no file ", path));
  if (!fs::is_regular_file(path, ec)) {
    return absl::InvalidArgumentError(absl::StrCat(path, " is not a regular file"));
  }
  const auto size = fs::file_size(path, ec);
  if (ec || size > kMaxInputBytes) {
    return absl::InvalidArgumentError(
        absl::StrCat(path, " is larger than ", kMaxInputBytes, " bytes (or unreadable)"));
  }
  std::ifstream in(path, std::ios::binary);
  if (!in) return absl::NotFoundError(absl::StrCat("cannot open ", path));
  std::ostringstream ss;
  ss << in.rdbuf();
  if (in.bad()) return absl::InternalError(absl::StrCat("cannot read ", path));
  return std::move(ss).str();
}

absl::StatusOr<std::string> WriteCorpusFile(const std::string& dir, std::string_view bytes) {
  std::error_code ec;
  fs::create_directories(dir, ec);
  if (ec) return absl::InternalError(absl::StrCat("cannot create ", dir, ": ", ec.message()));
  const std::string path = (fs::path(dir) / Sha1Hex(bytes)).string();
  std::ofstream out(path, std::ios::binary | std::ios::trunc);
  out.write(bytes.data(), static_cast<std::streamsize>(bytes.size()));
  if (!out) return absl::InternalError(absl::StrCat("cannot write ", path));
  return path;
}

}  // namespace serdiff::harness
