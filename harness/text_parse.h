// Parsing a printed value back into the value (Domain::parse).
//
// Every domain prints its values for people (Domain::show): `serdiff repro`, `serdiff show`,
// tests/data/corpus-printed/. A domain that can also read that text back lets a person write a
// corpus file from a readable value (`serdiff seed <target> --value '<text>'`) instead of
// hand-assembling FuzzedDataProvider bytes. The printed forms are fixed (the corpus-printed
// records depend on them), so a parser follows its printer, not the other way round.
//
// Errors are absl::InvalidArgumentError with the message "at character N: <what>", N the
// 0-based offset in the text (bytes; the printers write UTF-8 such as "µs", a 2-byte
// character). A printer that leaves part of a value out (a long vector shown as "[40 values:
// 1, 2, ..., ...]") cannot be parsed back: its parser fails with ElidedAt, which the
// parse(show(v)) == v property recognises (IsElided) and skips.
#pragma once

#include <cstddef>
#include <cstdint>
#include <limits>
#include <string>
#include <string_view>
#include <type_traits>

#include "absl/status/status.h"
#include "absl/status/statusor.h"
#include "absl/strings/numbers.h"
#include "absl/strings/str_cat.h"

namespace serdiff::harness {

// InvalidArgument "at character <pos>: <what>".
absl::Status ParseErrorAt(size_t pos, std::string_view what);
// The same error, marked (a payload under kElidedUrl) as "the text leaves part of the value
// out", so it cannot be parsed back; IsElided is true exactly for statuses made here.
inline constexpr std::string_view kElidedUrl = "serdiff.dev/elided";
absl::Status ElidedAt(size_t pos, std::string_view what);
bool IsElided(const absl::Status& status);

// A position in a text being parsed. Every failing call leaves the position where the
// problem is, and the error names it.
class TextCursor {
 public:
  explicit TextCursor(std::string_view text) : text_(text) {}

  size_t pos() const { return pos_; }
  bool AtEnd() const { return pos_ == text_.size(); }
  std::string_view text() const { return text_; }
  std::string_view rest() const { return text_.substr(pos_); }
  // ParseErrorAt(pos(), what).
  absl::Status Error(std::string_view what) const { return ParseErrorAt(pos_, what); }

  // Consumes `lit` when the rest starts with it; true when it did.
  bool Consume(std::string_view lit);
  // Consumes `lit`, or fails: `expected "<lit>", found "<the next few characters>"`.
  absl::Status Expect(std::string_view lit);
  // Fails unless the whole text has been consumed: `unexpected "<rest>" after the value`.
  absl::Status End() const;

  // A decimal integer of type T: an optional '-' (signed T only) and at least one digit,
  // leading zeros allowed ("-0001" is -1, as "%05d"-style printers write it), converted with
  // absl::SimpleAtoi. Errors: no digit; a value outside T's range (the position is the
  // integer's first character).
  template <typename T>
  absl::Status Int(T& v) {
    static_assert(std::is_integral_v<T> && !std::is_same_v<T, bool>);
    const size_t start = pos_;
    size_t end = pos_;
    if (std::is_signed_v<T> && end < text_.size() && text_[end] == '-') ++end;
    const size_t digits = end;
    while (end < text_.size() && text_[end] >= '0' && text_[end] <= '9') ++end;
    if (end == digits) return Error(absl::StrCat("expected a decimal integer, found ", Next()));
    using Wide = std::conditional_t<std::is_signed_v<T>, int64_t, uint64_t>;
    Wide wide = 0;
    const std::string_view span = text_.substr(start, end - start);
    if (!absl::SimpleAtoi(absl::string_view(span.data(), span.size()), &wide) ||
        wide < static_cast<Wide>(std::numeric_limits<T>::min()) ||
        wide > static_cast<Wide>(std::numeric_limits<T>::max())) {
      return Error(
          absl::StrCat("\"", std::string(span), "\" is out of range (", TypeRange<T>(), ")"));
    }
    v = static_cast<T>(wide);
    pos_ = end;
    return absl::OkStatus();
  }

  // Hexadecimal digits (no "0x": the caller expects it), at most 16, as an unsigned T
  // (absl::SimpleHexAtoi). Errors: no hex digit; a value beyond T.
  template <typename T>
  absl::Status HexInt(T& v) {
    static_assert(std::is_unsigned_v<T>);
    size_t end = pos_;
    while (end < text_.size() && IsHexDigit(text_[end])) ++end;
    if (end == pos_) return Error(absl::StrCat("expected hexadecimal digits, found ", Next()));
    const std::string_view span = text_.substr(pos_, end - pos_);
    uint64_t wide = 0;
    if (end - pos_ > 16 ||
        !absl::SimpleHexAtoi(absl::string_view(span.data(), span.size()), &wide) ||
        wide > std::numeric_limits<T>::max()) {
      return Error(
          absl::StrCat("0x", std::string(span), " is out of range (", TypeRange<T>(), ")"));
    }
    v = static_cast<T>(wide);
    pos_ = end;
    return absl::OkStatus();
  }

  // The characters up to the first `stop` (or the end), consumed; `stop` itself is not.
  std::string_view Until(std::string_view stop);
  // Consumes the rest of the text.
  void SkipToEnd() { pos_ = text_.size(); }

  // The next few characters, quoted, for messages ("end of text" at the end).
  std::string Next() const;

  static bool IsHexDigit(char c) {
    return (c >= '0' && c <= '9') || (c >= 'a' && c <= 'f') || (c >= 'A' && c <= 'F');
  }

 private:
  template <typename T>
  static std::string TypeRange() {
    return absl::StrCat(std::numeric_limits<T>::min(), "..", std::numeric_limits<T>::max());
  }

  std::string_view text_;
  size_t pos_ = 0;
};

// Runs `fn(cursor, value)` (returning absl::Status) over the whole of `text`, starting from a
// value-initialized T, and requires that it consumed every character.
template <typename T, typename Fn>
absl::StatusOr<T> ParseAll(std::string_view text, Fn fn) {
  TextCursor c(text);
  T v{};
  absl::Status s = fn(c, v);
  if (!s.ok()) return s;
  s = c.End();
  if (!s.ok()) return s;
  return v;
}

// For a printer that writes the value once and then again in another form (`5 ms (1970-01-01
// T00:00:00.005000)`): a parser reads the first form and accepts either that alone (the cursor
// is at the end: a short form for people) or exactly the whole printed text `shown` of the
// value read. Otherwise it fails at the first character where the text and `shown` differ,
// quoting what the value prints as. On success the cursor is at the end.
absl::Status AtEndOrShownAs(TextCursor& c, const std::string& shown);
// OK when `text` == `shown`, else the error AtEndOrShownAs gives (at the first difference).
absl::Status MatchesShown(std::string_view text, const std::string& shown);
// OK when the text read from `start` to the cursor is exactly `printed` (how the value read
// prints), else a parse error at the first character that differs, quoting `printed`. For
// fields a printer pads ("1970-01-01T00:00:00.500000"): "00:00:00.5" reads second 0 and
// microsecond 5, which prints as ".000005", so it is refused rather than read as 5 µs.
absl::Status ReadAsPrinted(const TextCursor& c, size_t start, const std::string& printed);

// Reads `n` bytes written as harness::Hex writes them ("00 ff 1a", lower or upper case) and
// appends them to `out`. A list cut short as Hex cuts it (" ... (N bytes)") fails with
// ElidedAt; anything else but two hex digits per byte, one space apart, fails where it is.
absl::Status ParseHexBytes(TextCursor& c, size_t n, std::string& out);

}  // namespace serdiff::harness

// ---- hex runs and whole hex dumps (the bson and mutation parsers) ---------------------------

namespace serdiff::harness {

// Reads a run of hex digits, two per byte and no separator (what absl::BytesToHexString
// writes; lower or upper case), as long as there are hex digits, and appends the bytes to
// `out`; an empty run is zero bytes. Errors: an odd number of digits (at the run's last digit).
absl::Status ParseHexRun(TextCursor& c, std::string& out);

// Reads harness::Hex's text of a byte string of any length, up to the end of the text: ""
// (no bytes) or "00 ff 1a" (lower or upper case), and appends the bytes to `out`. A dump cut
// short as Hex cuts it (" ... (N bytes)") fails with ElidedAt; anything else but two hex
// digits per byte, one space apart, up to the end, fails where it is.
absl::Status ParseHexDump(TextCursor& c, std::string& out);

}  // namespace serdiff::harness
