// The CQL `text` decoder's UTF-8 validation (serdiff::cql::Deserialize, which checks 8 bytes
// at a time while they are ASCII): exact values at the word boundaries, a generator that puts the
// interesting byte at every position modulo the 8-byte word and in the first and last word,
// and a cross-check against glibc's iconv (an independent UTF-8 decoder, strict like RFC 3629
// section 4: no overlong forms, no surrogates, nothing above U+10FFFF), on every 1- and 2-byte
// sequence and on 3- and 4-byte sequences built from byte classes, each at every offset of a
// 16-byte window of ASCII.
#include <gtest/gtest.h>
#include <iconv.h>

#include <cerrno>
#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "absl/strings/escaping.h"
#include "absl/strings/numbers.h"
#include "absl/strings/str_cat.h"
#include "serdiff/common/error_offset.h"
#include "serdiff/cql/codec.h"
#include "serdiff/cql/value.h"

namespace serdiff::cql {
namespace {

constexpr size_t kWord = 8;  // the decoder's fast-path block size

// What a decoder said about one payload: accepted (offset nullopt) or the error offset.
struct Verdict {
  bool ok = false;
  std::optional<int64_t> offset;
  std::string text;  // the decoded text when ok
  bool operator==(const Verdict& o) const { return ok == o.ok && offset == o.offset; }
};

// The error offset: the status payload (serdiff/common/error_offset.h), else the
// "offset N: " of the message (decoders not yet carrying the payload).
std::optional<int64_t> OffsetOf(const absl::Status& s) {
  if (auto off = serdiff::ErrorOffset(s)) return off;
  const absl::string_view m = s.message();
  const size_t at = m.find("offset ");
  if (at == absl::string_view::npos) return std::nullopt;
  size_t end = at + 7;
  while (end < m.size() && m[end] >= '0' && m[end] <= '9') ++end;
  int64_t v = 0;
  if (!absl::SimpleAtoi(m.substr(at + 7, end - at - 7), &v)) return std::nullopt;
  return v;
}

// Decodes `payload` as `text`. strict: RFC 3629 (DecodeOptions::strict_utf8), the rules iconv
// applies; otherwise the default, Cassandra's UTF8Validator rules (see codec.h).
Verdict DecodeText(const std::string& payload, bool strict = true) {
  static const Type kText = Type::Native(Kind::kText);
  DecodeOptions options;
  options.strict_utf8 = strict;
  absl::StatusOr<Value> v = Deserialize(kText, payload, 4, options);
  Verdict r;
  r.ok = v.ok();
  if (!v.ok()) {
    r.offset = OffsetOf(v.status());
  } else {
    r.text = v->bytes();
  }
  return r;
}

// glibc's verdict: iconv from UTF-8 stops at the first byte of an invalid (EILSEQ) or
// incomplete (EINVAL) sequence.
class Iconv {
 public:
  Iconv() : cd_(iconv_open("UTF-32LE", "UTF-8")) {}
  ~Iconv() {
    if (cd_ != reinterpret_cast<iconv_t>(-1)) iconv_close(cd_);
  }
  bool usable() const { return cd_ != reinterpret_cast<iconv_t>(-1); }
  Verdict Check(const std::string& in) {
    iconv(cd_, nullptr, nullptr, nullptr, nullptr);  // reset the state
    out_.resize(4 * in.size() + 16);
    char* ip = const_cast<char*>(in.data());
    size_t il = in.size();
    char* op = out_.data();
    size_t ol = out_.size();
    const size_t r = iconv(cd_, &ip, &il, &op, &ol);
    Verdict v;
    v.ok = r != static_cast<size_t>(-1);
    if (!v.ok) {
      EXPECT_TRUE(errno == EILSEQ || errno == EINVAL) << errno;
      v.offset = ip - in.data();
    }
    return v;
  }

 private:
  iconv_t cd_;
  std::string out_;
};

std::string Hex(const std::string& s) { return absl::BytesToHexString(s); }

// ---- exact values ------------------------------------------------------------------------

TEST(Utf8CqlText, InvalidByteAtTheEndOfTheFirstWordIsRejectedAtOffset7) {
  for (const bool strict : {true, false}) {
    const Verdict v = DecodeText(absl::HexStringToBytes("61626364656667ff"), strict);
    EXPECT_FALSE(v.ok) << "strict " << strict;
    EXPECT_EQ(v.offset, 7) << "strict " << strict;
  }
}

TEST(Utf8CqlText, TwoByteSequenceCrossingTheFirstWordIsAccepted) {
  for (const bool strict : {true, false}) {
    const Verdict v = DecodeText(absl::HexStringToBytes("61626364656667c3a9"), strict);
    ASSERT_TRUE(v.ok) << "strict " << strict;
    EXPECT_EQ(v.text, "abcdefg\xc3\xa9");  // "abcdefgé"
  }
}

// ---- fast-path generator: every position of the word, first and last word ---------------

// Positions to try in an ASCII payload of `len` bytes: all of them for short payloads (so
// every position modulo 8 in several words), the first and last two words otherwise.
std::vector<size_t> Positions(size_t len) {
  std::vector<size_t> p;
  for (size_t i = 0; i < len; ++i) {
    if (len <= 5 * kWord || i < 2 * kWord || i + 2 * kWord >= len) p.push_back(i);
  }
  return p;
}

TEST(Utf8CqlText, InvalidByteAtEveryPositionOfEveryWordIsRejectedThere) {
  // Invalid under both rule sets (a never-valid byte, a stray continuation byte, a lead byte
  // followed by ASCII), and invalid under RFC 3629 only (modified-UTF-8 NUL, a surrogate, a
  // code point above U+10FFFF), which Cassandra's validator accepts.
  const std::vector<std::string> bad_everywhere = {"\xff", "\x80", "\xc3", "\xe1\x80"};
  const std::vector<std::string> bad_strict = {"\xc0\x80", "\xed\xa0\x80", "\xf4\x90\x80\x80"};
  for (const bool strict : {true, false}) {
    std::vector<std::string> bad = bad_everywhere;
    if (strict) bad.insert(bad.end(), bad_strict.begin(), bad_strict.end());
    for (size_t len : {size_t{8}, size_t{9}, size_t{15}, size_t{16}, size_t{17}, size_t{24},
                       size_t{40}, size_t{1027}, size_t{4096}}) {
      for (size_t pos : Positions(len)) {
        for (const std::string& b : bad) {
          std::string s(len, 'q');
          s.replace(pos, std::min(b.size(), len - pos), b.substr(0, len - pos));
          const Verdict v = DecodeText(s, strict);
          EXPECT_FALSE(v.ok) << "strict " << strict << " len " << len << " pos " << pos << " "
                             << Hex(b);
          EXPECT_EQ(v.offset, static_cast<int64_t>(pos))
              << "strict " << strict << " len " << len << " pos " << pos << " " << Hex(b);
        }
      }
    }
  }
}

// The same positions under Cassandra's rules (the default): what RFC 3629 rejects but the
// server accepts is accepted at every position of the word, byte for byte.
TEST(Utf8CqlText, CassandraOnlySequencesAreAcceptedAtEveryPositionByDefault) {
  for (const std::string& seq :
       {std::string("\xc0\x80"), std::string("\xed\xa0\x80"), std::string("\xf4\x90\x80\x80")}) {
    for (size_t len : {size_t{8}, size_t{16}, size_t{17}, size_t{40}}) {
      for (size_t pos : Positions(len)) {
        std::string s(len, 'q');
        s.insert(pos, seq);
        const Verdict v = DecodeText(s, /*strict=*/false);
        ASSERT_TRUE(v.ok) << "len " << len << " pos " << pos << " " << Hex(seq);
        EXPECT_EQ(v.text, s);
      }
    }
  }
}

TEST(Utf8CqlText, ValidMultiByteSequenceAtEveryPositionIsAccepted) {
  const std::vector<std::string> good = {"\xc3\xa9",     "\xe2\x82\xac",     "\xf0\x9f\x98\x80",
                                         "\xed\x9f\xbf", "\xf4\x8f\xbf\xbf", "\x7f"};
  for (size_t len : {size_t{8}, size_t{16}, size_t{17}, size_t{40}, size_t{4096}}) {
    for (size_t pos : Positions(len)) {
      for (const std::string& g : good) {
        std::string s(len, 'q');
        s.insert(pos, g);
        for (const bool strict : {true, false}) {
          const Verdict v = DecodeText(s, strict);
          ASSERT_TRUE(v.ok) << "strict " << strict << " len " << len << " pos " << pos << " "
                            << Hex(g);
          EXPECT_EQ(v.text, s);
        }
      }
    }
  }
}

// ---- cross-check with glibc iconv ---------------------------------------------------------

// Each sequence at every offset 0..16 of a 16-byte ASCII window: 16 ASCII bytes with the
// sequence inserted (so it is followed by ASCII, or ends the input at offset 16).
void CrossCheck(Iconv& iconv, const std::string& seq, int* checked) {
  for (size_t off = 0; off <= 16; ++off) {
    std::string s(16, 'a');
    s.insert(off, seq);
    const Verdict ours = DecodeText(s);
    const Verdict theirs = iconv.Check(s);
    ++*checked;
    if (!(ours == theirs)) {
      ADD_FAILURE() << Hex(s) << ": serdiff " << (ours.ok ? "accepts" : "rejects") << " at "
                    << ours.offset.value_or(-1) << ", iconv " << (theirs.ok ? "accepts" : "rejects")
                    << " at " << theirs.offset.value_or(-1);
      return;
    }
  }
}

TEST(Utf8CqlText, AgreesWithIconvOnEveryOneAndTwoByteSequence) {
  Iconv iconv;
  ASSERT_TRUE(iconv.usable());
  int checked = 0;
  for (int a = 0; a < 256; ++a) {
    CrossCheck(iconv, std::string(1, static_cast<char>(a)), &checked);
    for (int b = 0; b < 256; ++b) {
      CrossCheck(iconv, std::string{static_cast<char>(a), static_cast<char>(b)}, &checked);
    }
  }
  EXPECT_EQ(checked, 17 * (256 + 256 * 256));
}

// Representatives of every byte class a UTF-8 decoder tells apart: ASCII, the continuation
// ranges 80..8F / 90..9F / A0..BF (which the second-byte rules of E0, ED, F0, F4 split),
// the never-valid C0 C1 F5..FF, and lead bytes of each length.
const std::vector<uint8_t> kClasses = {0x00, 0x41, 0x7f, 0x80, 0x8f, 0x90, 0x9f, 0xa0,
                                       0xbf, 0xc0, 0xc1, 0xc2, 0xdf, 0xf5, 0xff};
const std::vector<uint8_t> kLeads3 = {0xe0, 0xe1, 0xec, 0xed, 0xee, 0xef};
const std::vector<uint8_t> kLeads4 = {0xf0, 0xf1, 0xf3, 0xf4, 0xf5, 0xf7};

TEST(Utf8CqlText, AgreesWithIconvOnThreeAndFourByteSequencesFromByteClasses) {
  Iconv iconv;
  ASSERT_TRUE(iconv.usable());
  int checked = 0;
  for (uint8_t lead : kLeads3) {
    for (uint8_t b : kClasses) {
      for (uint8_t c : kClasses) {
        const std::string seq{static_cast<char>(lead), static_cast<char>(b), static_cast<char>(c)};
        CrossCheck(iconv, seq, &checked);
        CrossCheck(iconv, seq.substr(0, 2), &checked);  // truncated
      }
    }
  }
  for (uint8_t lead : kLeads4) {
    for (uint8_t b : kClasses) {
      for (uint8_t c : kClasses) {
        for (uint8_t d : kClasses) {
          const std::string seq{static_cast<char>(lead), static_cast<char>(b), static_cast<char>(c),
                                static_cast<char>(d)};
          CrossCheck(iconv, seq, &checked);
        }
        CrossCheck(iconv,
                   std::string{static_cast<char>(lead), static_cast<char>(b), static_cast<char>(c)},
                   &checked);  // truncated after 3
      }
    }
  }
  // Named cases the classes include: surrogates, overlongs, above U+10FFFF.
  for (const char* hex : {"eda080", "edbfbf", "e08080", "e09fbf", "f08fbfbf", "f4908080", "c0af",
                          "c1bf", "f7bfbfbf"}) {
    const std::string s = absl::StrCat("abcdefg", absl::HexStringToBytes(hex));
    EXPECT_FALSE(DecodeText(s).ok) << hex;
    EXPECT_FALSE(iconv.Check(s).ok) << hex;
  }
  EXPECT_GT(checked, 17 * 6 * 15 * 15 * 15);
}

}  // namespace
}  // namespace serdiff::cql
