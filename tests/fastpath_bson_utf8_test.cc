// Generators aimed at the BSON decoder's UTF-8 word loop (serdiff::FirstInvalidUtf8,
// serdiff/common/utf8.h, as the BSON decoder uses it; in src/serdiff/bson/codec.cc skips 8 ASCII
// bytes at a time; Validate and Decode check every key and every string value with it). Each
// interesting sequence - ill-formed (a lone continuation byte, the overlong leads C0/C1, F5 and
// above, 2/3/4-byte sequences cut short, a surrogate, overlong 3/4-byte forms, a code point above
// U+10FFFF) or well-formed (2, 3 and 4 bytes) - is put at every offset of a 16..24-byte ASCII
// string, so at every position modulo the 8-byte word, in the first and the last word, both as a
// string value and as a key. The optimized validator, the reference (reference/bson, which decodes
// code points one by one) and the exact expected offset must agree; glibc's iconv (UTF-8 ->
// UTF-32LE, an independent strict decoder) must agree on the string itself. Strings of 0..17 bytes
// ending in a bad byte cover the tail after the last whole word.
#include <gtest/gtest.h>
#include <iconv.h>

#include <cerrno>
#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "absl/strings/escaping.h"
#include "absl/strings/str_cat.h"
#include "reference/bson/bson_ref.h"
#include "serdiff/bson/codec.h"
#include "serdiff/common/error_offset.h"
#include "serdiff/common/utf8.h"

namespace serdiff::bson {
namespace {

// serdiff::FirstInvalidUtf8 in this file's convention: -1 for well-formed, like iconv's helper.
int64_t FirstBad(std::string_view s) {
  const size_t i = serdiff::FirstInvalidUtf8(s);
  return i == s.size() ? -1 : static_cast<int64_t>(i);
}

// glibc iconv from UTF-8: the offset of the first byte of an invalid (EILSEQ) or incomplete
// (EINVAL) sequence, or nullopt when the whole input converts.
class Iconv {
 public:
  Iconv() : cd_(iconv_open("UTF-32LE", "UTF-8")) {}
  ~Iconv() {
    if (usable()) iconv_close(cd_);
  }
  Iconv(const Iconv&) = delete;
  Iconv& operator=(const Iconv&) = delete;
  bool usable() const { return cd_ != reinterpret_cast<iconv_t>(-1); }
  std::optional<int64_t> FirstBad(const std::string& in) {
    iconv(cd_, nullptr, nullptr, nullptr, nullptr);
    std::string out(4 * in.size() + 16, '\0');
    char* ip = const_cast<char*>(in.data());
    size_t il = in.size();
    char* op = out.data();
    size_t ol = out.size();
    if (iconv(cd_, &ip, &il, &op, &ol) != static_cast<size_t>(-1)) return std::nullopt;
    EXPECT_TRUE(errno == EILSEQ || errno == EINVAL) << errno;
    return ip - in.data();
  }

 private:
  iconv_t cd_;
};

std::string Le32(uint32_t v) {
  std::string s(4, '\0');
  for (int i = 0; i < 4; ++i) s[i] = static_cast<char>((v >> (8 * i)) & 0xff);
  return s;
}

// {key: value} with value a BSON string: the document bytes.
std::string StringDoc(const std::string& key, const std::string& value) {
  const std::string body =
      absl::StrCat(std::string(1, '\x02'), key, std::string(1, '\0'),
                   Le32(static_cast<uint32_t>(value.size() + 1)), value, std::string(1, '\0'));
  return absl::StrCat(Le32(static_cast<uint32_t>(4 + body.size() + 1)), body, std::string(1, '\0'));
}
// Offset of the string value's first content byte in StringDoc(key, value): length 4, type 1,
// key and its NUL, string length 4.
size_t ValueContentOffset(const std::string& key) { return 4 + 1 + key.size() + 1 + 4; }
// Offset of the key's first byte: after the length and the type byte.
constexpr size_t kKeyOffset = 5;

// What both validators and Decode say about `doc`: nullopt when all accept, else the offset,
// after checking that they agree on it.
struct Outcome {
  bool ok = false;
  std::optional<int64_t> offset;
};
Outcome Check(const std::string& doc, const std::string& where) {
  const absl::Status opt = Validate(doc);
  const absl::Status ref = ref::bson::Validate(doc);
  const absl::StatusOr<Document> dec = Decode(doc);
  EXPECT_EQ(opt.ok(), ref.ok()) << where << ": optimized " << opt << ", reference " << ref;
  EXPECT_EQ(opt.ok(), dec.ok()) << where;
  Outcome o;
  o.ok = opt.ok();
  if (!opt.ok()) {
    EXPECT_EQ(opt.code(), absl::StatusCode::kInvalidArgument) << where;
    o.offset = ErrorOffset(opt);
    EXPECT_EQ(ErrorOffset(ref), o.offset) << where << ": reference " << ref;
    if (!dec.ok()) {
      EXPECT_EQ(ErrorOffset(dec.status()), o.offset) << where;
    }
  }
  return o;
}

struct Seq {
  const char* hex;
  bool valid;
};
// Every sequence is checked at its lead byte: an ill-formed one is reported there.
const std::vector<Seq> kSeqs = {
    {"80", false},       {"bf", false},       {"c0af", false},     {"c080", false},
    {"c1bf", false},     {"f5808080", false}, {"f8", false},       {"ff", false},
    {"c3", false},       {"e282", false},     {"e2", false},       {"f09f98", false},
    {"f09f", false},     {"f0", false},       {"eda080", false},   {"edbfbf", false},
    {"e08080", false},   {"e09fbf", false},   {"f0808080", false}, {"f08fbfbf", false},
    {"f4908080", false}, {"c3a9", true},      {"e282ac", true},    {"f09f9880", true},
    {"ed9fbf", true},    {"f48fbfbf", true},  {"7f", true},
};

// ASCII filler: letters with DEL (0x7f, the largest ASCII byte) every third byte.
std::string Ascii(size_t n) {
  std::string s(n, 'a');
  for (size_t k = 0; k < n; ++k) s[k] = k % 3 == 2 ? '\x7f' : static_cast<char>('a' + k % 26);
  return s;
}

// ---- exact values ---------------------------------------------------------------------------

// {"k": "abcde\x80gh"}: 21 bytes; the content starts at 11, the stray 0x80 is byte 5 of the
// first word of the content, at document offset 16.
TEST(FastpathBsonUtf8, StrayContinuationAtByte5OfTheWordIsRejectedAtOffset16) {
  const std::string doc = absl::HexStringToBytes(
      "15000000026b0009000000616263646580676800"
      "00");
  ASSERT_EQ(doc, StringDoc("k", "abcde\x80gh"));
  const absl::Status opt = Validate(doc);
  const absl::Status ref = ref::bson::Validate(doc);
  EXPECT_EQ(opt.code(), absl::StatusCode::kInvalidArgument) << opt;
  EXPECT_EQ(ErrorOffset(opt), 16);
  EXPECT_EQ(ErrorOffset(ref), 16);
  EXPECT_EQ(FirstBad("abcde\x80gh"), 5);
}

// {"abcde\x80gh": int32 1}: 19 bytes; the key starts at 5, the 0x80 is at offset 10.
TEST(FastpathBsonUtf8, StrayContinuationAtByte5OfAKeyIsRejectedAtOffset10) {
  const std::string doc = absl::HexStringToBytes(
      "1300000010616263646580676800010000"
      "0000");
  const absl::Status opt = Validate(doc);
  EXPECT_EQ(opt.code(), absl::StatusCode::kInvalidArgument) << opt;
  EXPECT_EQ(ErrorOffset(opt), 10);
  EXPECT_EQ(ErrorOffset(ref::bson::Validate(doc)), 10);
}

// A 4-byte sequence starting at byte 5 of the first word and crossing into the second word.
TEST(FastpathBsonUtf8, FourByteSequenceCrossingTheWordIsAccepted) {
  const std::string doc = StringDoc("k", "abcde\xf0\x9f\x98\x80xyz");
  ASSERT_TRUE(Validate(doc).ok());
  absl::StatusOr<Document> d = Decode(doc);
  ASSERT_TRUE(d.ok()) << d.status();
  ASSERT_EQ(d->elements.size(), 1u);
  EXPECT_EQ(d->elements[0].value.s, "abcde\xf0\x9f\x98\x80xyz");
}

// ---- generators -----------------------------------------------------------------------------

TEST(FastpathBsonUtf8, SequenceAtEveryOffsetOfAStringValueAndAKey) {
  Iconv iconv;
  ASSERT_TRUE(iconv.usable());
  int checked = 0;
  for (const Seq& seq : kSeqs) {
    const std::string bytes = absl::HexStringToBytes(seq.hex);
    for (size_t len = 16; len <= 24; ++len) {
      for (size_t pos = 0; pos <= len; ++pos) {
        std::string s = Ascii(len);
        s.insert(pos, bytes);
        const std::string where = absl::StrCat(seq.hex, " len ", len, " pos ", pos);
        // The string alone: the word loop, the reference's code points, iconv.
        const int64_t want = seq.valid ? -1 : static_cast<int64_t>(pos);
        ASSERT_EQ(FirstBad(s), want) << where;
        const std::optional<int64_t> ic = iconv.FirstBad(s);
        EXPECT_EQ(ic.value_or(-1), want) << where << " (iconv)";
        // As a string value.
        const Outcome v = Check(StringDoc("key", s), where + " value");
        EXPECT_EQ(v.ok, seq.valid) << where << " value";
        if (!seq.valid) {
          EXPECT_EQ(v.offset, static_cast<int64_t>(ValueContentOffset("key") + pos))
              << where << " value";
        }
        // As a key (with a valid value after it).
        const Outcome k = Check(StringDoc(s, "v"), where + " key");
        EXPECT_EQ(k.ok, seq.valid) << where << " key";
        if (!seq.valid) {
          EXPECT_EQ(k.offset, static_cast<int64_t>(kKeyOffset + pos)) << where << " key";
        }
        ++checked;
      }
    }
  }
  EXPECT_EQ(checked, static_cast<int>(kSeqs.size()) * (17 + 18 + 19 + 20 + 21 + 22 + 23 + 24 + 25));
}

// The tail after the last whole word: strings of 0..17 bytes whose last byte is bad (a stray
// continuation, a lead byte with nothing after it, a never-valid byte), or a good 2-byte
// sequence as the last two bytes.
TEST(FastpathBsonUtf8, BadLastByteOfStringsOf0To17Bytes) {
  Iconv iconv;
  ASSERT_TRUE(iconv.usable());
  for (const char last : {'\x80', '\xc3', '\xe2', '\xf0', '\xff'}) {
    for (size_t len = 1; len <= 17; ++len) {
      const std::string s = Ascii(len - 1) + std::string(1, last);
      const std::string where =
          absl::StrCat(absl::BytesToHexString(std::string(1, last)), " len ", len);
      EXPECT_EQ(FirstBad(s), static_cast<int64_t>(len - 1)) << where;
      EXPECT_EQ(iconv.FirstBad(s).value_or(-1), static_cast<int64_t>(len - 1)) << where;
      const Outcome v = Check(StringDoc("k", s), where + " value");
      EXPECT_FALSE(v.ok) << where;
      EXPECT_EQ(v.offset, static_cast<int64_t>(ValueContentOffset("k") + len - 1)) << where;
      const Outcome k = Check(StringDoc(s, "v"), where + " key");
      EXPECT_FALSE(k.ok) << where;
      EXPECT_EQ(k.offset, static_cast<int64_t>(kKeyOffset + len - 1)) << where;
    }
  }
  for (size_t len = 0; len <= 17; ++len) {
    // All ASCII, and a good sequence ending the string: accepted.
    for (const std::string& s : {Ascii(len), Ascii(len) + "\xc3\xa9"}) {
      const std::string where = absl::StrCat("good len ", s.size());
      EXPECT_EQ(FirstBad(s), -1) << where;
      EXPECT_FALSE(iconv.FirstBad(s).has_value()) << where;
      EXPECT_TRUE(Check(StringDoc("k", s), where).ok) << where;
      EXPECT_TRUE(Check(StringDoc(s, "v"), where + " key").ok) << where;
      absl::StatusOr<Document> d = Decode(StringDoc(s, s));
      ASSERT_TRUE(d.ok()) << where;
      EXPECT_EQ(d->elements[0].key, s) << where;
      EXPECT_EQ(d->elements[0].value.s, s) << where;
    }
  }
}

}  // namespace
}  // namespace serdiff::bson
