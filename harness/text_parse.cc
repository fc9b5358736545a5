// Parsing printed values back: error positions and the small cursor (harness/text_parse.h).
#include "harness/text_parse.h"

#include <algorithm>
#include <string>
#include <string_view>

#include "absl/strings/cord.h"
#include "absl/strings/escaping.h"
#include "absl/strings/str_cat.h"

namespace serdiff::harness {

namespace {

// Messages quote text C-escaped, so a stray tab or control byte in a --value is visible.
std::string Quote(std::string_view s) {
  return absl::StrCat("\"", absl::CHexEscape(absl::string_view(s.data(), s.size())), "\"");
}

}  // namespace

absl::Status ParseErrorAt(size_t pos, std::string_view what) {
  return absl::InvalidArgumentError(absl::StrCat("at character ", pos, ": ", std::string(what)));
}

absl::Status ElidedAt(size_t pos, std::string_view what) {
  absl::Status s = ParseErrorAt(pos, what);
  s.SetPayload(absl::string_view(kElidedUrl.data(), kElidedUrl.size()), absl::Cord("elided"));
  return s;
}

bool IsElided(const absl::Status& status) {
  return status.GetPayload(absl::string_view(kElidedUrl.data(), kElidedUrl.size())).has_value();
}

bool TextCursor::Consume(std::string_view lit) {
  if (rest().substr(0, lit.size()) != lit) return false;
  pos_ += lit.size();
  return true;
}

absl::Status TextCursor::Expect(std::string_view lit) {
  if (Consume(lit)) return absl::OkStatus();
  return Error(absl::StrCat("expected ", Quote(lit), ", found ", Next()));
}

absl::Status TextCursor::End() const {
  if (AtEnd()) return absl::OkStatus();
  return Error(absl::StrCat("unexpected ", Quote(rest()), " after the value"));
}

std::string_view TextCursor::Until(std::string_view stop) {
  const size_t found = text_.find(stop, pos_);
  const size_t end = found == std::string_view::npos ? text_.size() : found;
  const std::string_view span = text_.substr(pos_, end - pos_);
  pos_ = end;
  return span;
}

std::string TextCursor::Next() const {
  if (AtEnd()) return "end of text";
  const std::string_view r = rest();
  return r.size() <= 16 ? Quote(r) : Quote(r.substr(0, 16)) + "...";
}

absl::Status AtEndOrShownAs(TextCursor& c, const std::string& shown) {
  if (c.AtEnd()) return absl::OkStatus();
  absl::Status s = MatchesShown(c.text(), shown);
  if (s.ok()) c.SkipToEnd();
  return s;
}

absl::Status ParseHexBytes(TextCursor& c, size_t n, std::string& out) {
  for (size_t i = 0; i < n; ++i) {
    if (i > 0) {
      if (absl::Status s = c.Expect(" "); !s.ok()) return s;
    }
    if (c.rest().substr(0, 3) == "...") {
      return ElidedAt(c.pos(), absl::StrCat("the hex dump shows ", i, " of its ", n,
                                            " bytes (\"...\"): the rest cannot be read back"));
    }
    const std::string_view r = c.rest();
    if (r.size() < 2 || !TextCursor::IsHexDigit(r[0]) || !TextCursor::IsHexDigit(r[1]) ||
        (r.size() > 2 && TextCursor::IsHexDigit(r[2]))) {
      return c.Error(
          absl::StrCat("expected byte ", i, " of ", n, " as two hex digits, found ", c.Next()));
    }
    out += absl::HexStringToBytes(absl::string_view(r.data(), 2));
    c.Consume(r.substr(0, 2));
  }
  return absl::OkStatus();
}

absl::Status MatchesShown(std::string_view text, const std::string& shown) {
  if (text == shown) return absl::OkStatus();
  size_t diff = 0;
  const size_t n = std::min(text.size(), shown.size());
  while (diff < n && text[diff] == shown[diff]) ++diff;
  return ParseErrorAt(
      diff, absl::StrCat("the text does not match how the value it names prints: ", Quote(shown)));
}

absl::Status ReadAsPrinted(const TextCursor& c, size_t start, const std::string& printed) {
  const std::string_view read = c.text().substr(start, c.pos() - start);
  if (read == printed) return absl::OkStatus();
  size_t diff = 0;
  const size_t n = std::min(read.size(), printed.size());
  while (diff < n && read[diff] == printed[diff]) ++diff;
  return ParseErrorAt(start + diff, absl::StrCat("the fields read print as ", Quote(printed),
                                                 ": write them that way (zero-padded)"));
}

}  // namespace serdiff::harness

// ---- hex runs and whole hex dumps -----------------------------------------------------------

namespace serdiff::harness {

absl::Status ParseHexRun(TextCursor& c, std::string& out) {
  const std::string_view r = c.rest();
  size_t n = 0;
  while (n < r.size() && TextCursor::IsHexDigit(r[n])) ++n;
  if (n % 2 != 0) {
    return ParseErrorAt(c.pos() + n - 1,
                        absl::StrCat("an odd number of hex digits (", n, "): two per byte"));
  }
  out += absl::HexStringToBytes(absl::string_view(r.data(), n));
  c.Consume(r.substr(0, n));
  return absl::OkStatus();
}

absl::Status ParseHexDump(TextCursor& c, std::string& out) {
  for (size_t i = 0; !c.AtEnd(); ++i) {
    if (i > 0) {
      if (c.rest().substr(0, 4) == " ...") {
        return ElidedAt(c.pos() + 1, absl::StrCat("the hex dump shows only its first ", i,
                                                  " bytes (\"...\"): the rest cannot be read "
                                                  "back"));
      }
      if (absl::Status s = c.Expect(" "); !s.ok()) return s;
    }
    const std::string_view r = c.rest();
    if (r.size() < 2 || !TextCursor::IsHexDigit(r[0]) || !TextCursor::IsHexDigit(r[1]) ||
        (r.size() > 2 && TextCursor::IsHexDigit(r[2]))) {
      return c.Error(absl::StrCat("expected byte ", i, " as two hex digits, found ", c.Next()));
    }
    out += absl::HexStringToBytes(absl::string_view(r.data(), 2));
    c.Consume(r.substr(0, 2));
  }
  return absl::OkStatus();
}

}  // namespace serdiff::harness
