// Mutation family: parsers of the printed specs and inputs of the mutation_* targets
// (declared in targets/mutation/domain.h; the printers are ShowSpec and the domains' show
// functions in targets/mutation/domain.cc).
#include <cstdint>
#include <string>
#include <string_view>

#include "absl/strings/str_cat.h"
#include "harness/text_parse.h"
#include "targets/mutation/domain.h"

namespace serdiff::targets::mutation {

namespace {

using harness::TextCursor;

// "<name>=<integer in lo..hi>", the name preceded by `sep`.
template <typename T>
absl::Status Field(TextCursor& c, std::string_view sep, std::string_view name, T& v, uint64_t lo,
                   uint64_t hi) {
  if (absl::Status s = c.Expect(absl::StrCat(std::string(sep), std::string(name), "=")); !s.ok())
    return s;
  const size_t at = c.pos();
  if (absl::Status s = c.Int(v); !s.ok()) return s;
  if (static_cast<uint64_t>(v) < lo || static_cast<uint64_t>(v) > hi) {
    return harness::ParseErrorAt(
        at, absl::StrCat(std::string(name), " ", static_cast<uint64_t>(v),
                         " is outside the range the input holds (", lo, "..", hi, ")"));
  }
  return absl::OkStatus();
}

}  // namespace

absl::Status ParseSpecAt(TextCursor& c, MutationSpec& s) {
  s = MutationSpec{};
  absl::Status st = c.Expect("spec{");
  if (st.ok()) st = Field(c, "", "seed", s.seed, 0, UINT64_MAX);
  if (st.ok()) st = Field(c, " ", "version", s.version, 0, 2);
  if (st.ok()) st = Field(c, " ", "updates", s.updates, 1, 8);
  if (st.ok()) st = Field(c, " ", "max_rows", s.max_rows, 0, 200);
  if (st.ok()) st = Field(c, " ", "columns", s.columns, 1, 70);
  if (st.ok()) st = Field(c, " ", "clustering", s.clustering, 0, 40);
  if (st.ok()) st = Field(c, " ", "value_bytes", s.value_bytes, 0, 4096);
  if (!st.ok()) return st;
  s.budget = kMaxBuiltBytes;
  if (c.rest().substr(0, 1) == " ") {
    const size_t at = c.pos() + 8;  // after " budget="
    if (st = Field(c, " ", "budget", s.budget, 0, kMaxBuiltBytes); !st.ok()) return st;
    if (s.budget % kBudgetBytesPerInputByte != 0) {
      return harness::ParseErrorAt(
          at,
          absl::StrCat("budget ", s.budget, " is not a multiple of ", kBudgetBytesPerInputByte,
                       " (the input holds it in units of ", kBudgetBytesPerInputByte, " bytes)"));
    }
  }
  return c.Expect("}");
}

absl::StatusOr<MutationSpec> ParseSpec(std::string_view text) {
  return harness::ParseAll<MutationSpec>(text, ParseSpecAt);
}

absl::StatusOr<DecodeInput> ParseDecodeText(std::string_view text) {
  return harness::ParseAll<DecodeInput>(text, [](TextCursor& c, DecodeInput& in) {
    if (absl::Status s = ParseSpecAt(c, in.spec); !s.ok()) return s;
    if (absl::Status s = c.Expect(" bytes="); !s.ok()) return s;
    if (absl::Status s = harness::ParseHexRun(c, in.bytes); !s.ok()) return s;
    if (c.rest() == "..." && in.bytes.size() == 256) {
      return harness::ElidedAt(c.pos(),
                               "the bytes are shown up to their first 256 (\"...\"): "
                               "the rest cannot be read back");
    }
    return absl::OkStatus();
  });
}

}  // namespace serdiff::targets::mutation
