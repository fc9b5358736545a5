// Corpus files: seed inputs and regression inputs, one file per input, in the corpus-file
// form that FuzzedDataProvider reads (see fuzz_input.h). Layout:
//   corpus/<target>/<sha1>              seed inputs
//   corpus/<target>/regressions/<sha1>  every input that ever failed, kept forever
#pragma once

#include <string>
#include <string_view>
#include <vector>

#include "absl/status/statusor.h"

namespace serdiff::harness {

// Lower-case hex SHA-1 of `bytes` (40 characters): the file name of a corpus input.
std::string Sha1Hex(std::string_view bytes);

// Every file below `dir` (recursive), sorted by path: each regular file, and each other entry
// that is not a folder (a FIFO, a socket, a symbolic link to nothing), so that reading it
// (ReadFileBytes) fails with its reason rather than the entry being skipped without a word. An
// absent directory is an empty corpus, not an error. Hidden files and folders (names starting
// with '.') are skipped, with everything inside such a folder. Errors: Unavailable "cannot list
// <path> (a corpus below <dir>): <why>" when a folder below `dir` cannot be read (<path>: the
// folder it could not enter, or the last entry listed before the listing failed) (a replay that
// went on would leave out every input after it in silence).
absl::StatusOr<std::vector<std::string>> ListCorpusFiles(const std::string& dir);

// Whole file contents. Errors name the path: NotFound (no such file), InvalidArgument (not a
// regular file, e.g. a directory or a device, or larger than 64 MiB), Internal (read error).
absl::StatusOr<std::string> ReadFileBytes(const std::string& path);

// Writes `bytes` to `dir`/<sha1 of bytes>, creating `dir` as needed; returns the path.
absl::StatusOr<std::string> WriteCorpusFile(const std::string& dir, std::string_view bytes);

}  // namespace serdiff::harness
