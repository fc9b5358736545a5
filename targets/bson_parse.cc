// BSON family: parsers of the printed values of the bson_* targets (declared in
// targets/bson_domain.h): the bson_array_keys count, the decoders' hex dump, and documents as
// serdiff::bson::Show prints them.
#include <cstdint>
#include <string>
#include <string_view>

#include "absl/strings/str_cat.h"
#include "harness/domains.h"
#include "harness/text_parse.h"
#include "targets/bson_domain.h"

namespace serdiff::targets::bson {

using harness::TextCursor;

absl::StatusOr<uint32_t> ParseArrayKeyCount(std::string_view text) {
  return harness::ParseAll<uint32_t>(text, [](TextCursor& c, uint32_t& n) {
    const size_t at = c.pos();
    if (absl::Status s = c.Int(n); !s.ok()) return s;
    if (n > kMaxArrayKeys) {
      return harness::ParseErrorAt(
          at, absl::StrCat(n, " keys, more than the input holds (", kMaxArrayKeys, ")"));
    }
    return absl::OkStatus();
  });
}

absl::StatusOr<std::string> ParseDecoderInput(std::string_view text) {
  return harness::ParseAll<std::string>(text, harness::ParseHexDump);
}

}  // namespace serdiff::targets::bson
