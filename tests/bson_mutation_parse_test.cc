// Parsers of the printed values of the bson_* and mutation_* targets (targets/bson/parse.cc,
// targets/mutation/parse.cc): exact values, exact corpus bytes (hand-derived from the
// FuzzedDataProvider forms in targets/bson/domain.h and targets/mutation/domains.cc), exact error
// positions, the forms that cannot be read back (ElidedAt), and every recorded printed value
// of the shipped corpus (tests/data/corpus-printed/{bson,mutation}_*.tsv) read back.
#include <gtest/gtest.h>

#include <cmath>
#include <cstdint>
#include <filesystem>
#include <iostream>
#include <limits>
#include <string>
#include <vector>

#include "absl/strings/escaping.h"
#include "absl/strings/match.h"
#include "absl/strings/str_cat.h"
#include "absl/strings/str_split.h"
#include "harness/corpus.h"
#include "harness/hex.h"
#include "harness/target.h"
#include "harness/text_parse.h"
#include "serdiff/bson/document.h"
#include "serdiff/mutation/mutation.h"
#include "targets/bson/domain.h"
#include "targets/families.h"
#include "targets/mutation/domain.h"

namespace serdiff::harness {
namespace {

namespace sb = ::serdiff::bson;
namespace mt = ::serdiff::targets::mutation;

const Target& Find(const std::string& name) {
  const Target* t = targets::AllTargets().Find(name);
  if (t == nullptr) ADD_FAILURE() << "no target " << name;
  return *t;
}

std::string ErrorOf(const absl::StatusOr<std::string>& r) {
  return r.ok() ? "ok" : std::string(r.status().message());
}

// The spec whose corpus form is all zeros: every field at the low end of its range.
constexpr char kZeroSpec[] =
    "spec{seed=0 version=0 updates=1 max_rows=0 columns=1 clustering=0 value_bytes=0 budget=0}";

TEST(BsonMutationParse, MutationSpecBytesAreTheFdpForm) {
  const Target& t = Find("mutation_serialize");
  // seed 8 bytes, version/updates/max_rows/columns/clustering 1 byte each, value_bytes and
  // the budget's units (0..4096) 2 bytes each: 17 bytes, read from the end.
  EXPECT_EQ(*t.BytesOfText(kZeroSpec), std::string(17, '\0'));
  // The first integer read (the seed) is the last 8 bytes, its first byte read (the file's
  // last) the most significant: seed 1 is byte 9 = 01; version 2 is byte 8.
  const std::string one =
      "spec{seed=1 version=2 updates=1 max_rows=0 columns=1 clustering=0 value_bytes=0 budget=0}";
  EXPECT_EQ(*t.BytesOfText(one), std::string("\0\0\0\0\0\0\0\0\x02\x01\0\0\0\0\0\0\0", 17));
  EXPECT_EQ(t.ShowBytes(*t.BytesOfText(one)), one);
  // Without a budget the spec has the full kMaxBuiltBytes, and prints without one.
  const std::string full =
      "spec{seed=7 version=1 updates=8 max_rows=200 columns=70 clustering=40 value_bytes=4096}";
  EXPECT_EQ(t.ShowBytes(*t.BytesOfText(full)), full);
  EXPECT_EQ(*mt::ParseSpec(full),
            (mt::MutationSpec{7, 1, 8, 200, 70, 40, 4096, mt::kMaxBuiltBytes}));
  EXPECT_EQ(t.ShowBytes(*Find("mutation_serialize_small").BytesOfText(kZeroSpec)), kZeroSpec);
}

TEST(BsonMutationParse, MutationErrorsNameTheCharacter) {
  const Target& t = Find("mutation_serialize");
  EXPECT_EQ(
      ErrorOf(t.BytesOfText(
          "spec{seed=0 version=3 updates=1 max_rows=0 columns=1 clustering=0 value_bytes=0}")),
      "at character 20: version 3 is outside the range the input holds (0..2)");
  EXPECT_EQ(ErrorOf(t.BytesOfText("spec{seed=0 version=0 updates=1 max_rows=0 columns=1 "
                                  "clustering=0 value_bytes=0 budget=65}")),
            "at character 87: budget 65 is not a multiple of 64 (the input holds it in units "
            "of 64 bytes)");
  EXPECT_EQ(ErrorOf(t.BytesOfText("spec{seed=0 version=0}")),
            "at character 21: expected \" updates=\", found \"}\"");
  EXPECT_EQ(ErrorOf(t.BytesOfText(absl::StrCat(kZeroSpec, " "))),
            "at character 89: unexpected \" \" after the value");
}

TEST(BsonMutationParse, MutationDecodeReadsTheHexBytesAndRefusesTheCutForm) {
  const Target& t = Find("mutation_decode");
  // The spec's integers at the end, the bytes (FDP's remaining bytes) in front of them.
  const std::string text = absl::StrCat(kZeroSpec, " bytes=cafe");
  EXPECT_EQ(*t.BytesOfText(text), std::string("\xca\xfe", 2) + std::string(17, '\0'));
  EXPECT_EQ(t.ShowBytes(*t.BytesOfText(text)), text);
  EXPECT_EQ(*t.BytesOfText(absl::StrCat(kZeroSpec, " bytes=")), std::string(17, '\0'));
  EXPECT_EQ(ErrorOf(t.BytesOfText(absl::StrCat(kZeroSpec, " bytes=abc"))),
            "at character 98: an odd number of hex digits (3): two per byte");
  // More than 256 bytes print as the first 256 and "...".
  const std::string shown = t.ShowBytes(std::string(300, '\x11') + std::string(17, '\0'));
  ASSERT_TRUE(absl::EndsWith(shown, "..."));
  const absl::StatusOr<std::string> cut = t.BytesOfText(shown);
  ASSERT_FALSE(cut.ok());
  EXPECT_TRUE(IsElided(cut.status()));
  EXPECT_EQ(cut.status().message(),
            absl::StrCat("at character ", shown.size() - 3,
                         ": the bytes are shown up to their first 256 (\"...\"): the rest cannot "
                         "be read back"));
}

TEST(BsonMutationParse, MutationMutatedReadsTheEdit) {
  const Target& t = Find("mutation_decode_mutated");
  const std::string text = absl::StrCat(kZeroSpec, "\n  edit insert pos=258 arg=160");
  // Read from the end: op (1 byte, 0..10), pos (4 bytes, most significant read first, so
  // last in the file), arg (4 bytes, the same), then the spec's 17 bytes.
  EXPECT_EQ(*t.BytesOfText(text),
            std::string(17, '\0') + std::string("\xa0\0\0\0\x02\x01\0\0\x03", 9));
  // The printed form adds the edited encoding: the zero spec's encoding with byte 160 (a0)
  // inserted at 258 % (size + 1).
  absl::StatusOr<std::string> enc = serdiff::mutation::Serialize(
      serdiff::targets::mutation::BuildMutation(*serdiff::targets::mutation::ParseSpec(kZeroSpec)));
  ASSERT_TRUE(enc.ok());
  std::string edited = *enc;
  edited.insert(258 % (enc->size() + 1), 1, '\xa0');
  EXPECT_EQ(t.ShowBytes(*t.BytesOfText(text)),
            absl::StrCat(text, "\n  bytes(", edited.size(), ")=", harness::Hex(edited)));
  // kZeroSpec is 89 characters, "\n  edit " 8 more: the op's name at 97.
  EXPECT_EQ(ErrorOf(t.BytesOfText(absl::StrCat(kZeroSpec, "\n  edit chop pos=1 arg=2"))),
            "at character 97: unknown edit \"chop\" (none, truncate, xor, insert, overwrite32be, "
            "append, drop, overwrite8, setbit, overwrite32le, overwrite16be)");
  EXPECT_EQ(
      ErrorOf(t.BytesOfText(absl::StrCat(kZeroSpec, "\n  edit truncate pos=1 arg=4294967296"))),
      "at character 116: \"4294967296\" is out of range (0..4294967295)");
}

TEST(BsonMutationParse, ArrayKeyCountAndDecoderBytes) {
  const Target& keys = Find("bson_array_keys");
  // n in 0..200000 takes 3 bytes (read from the end, most significant first), after
  // ceil(n / 16) padding bytes 0xFF.
  EXPECT_EQ(*keys.BytesOfText("0"), std::string("\0\0\0", 3));
  EXPECT_EQ(*keys.BytesOfText("1"), std::string("\xff\x01\0\0", 4));
  EXPECT_EQ(keys.ShowBytes(*keys.BytesOfText("12000")), "12000");
  EXPECT_EQ(ErrorOf(keys.BytesOfText("200001")),
            "at character 0: 200001 keys, more than the input holds (200000)");
  for (const char* name : {"bson_decode", "bson_decode_offsets"}) {
    const Target& t = Find(name);
    EXPECT_EQ(*t.BytesOfText(""), "");
    EXPECT_EQ(*t.BytesOfText("cb 22 00"), std::string("\xcb\x22\x00", 3));
    EXPECT_EQ(*t.BytesOfText("CB FF"), "\xcb\xff");
    EXPECT_EQ(ErrorOf(t.BytesOfText("cb 2")),
              "at character 3: expected byte 1 as two hex digits, found \"2\"");
    EXPECT_EQ(ErrorOf(t.BytesOfText("cb  22")),
              "at character 3: expected byte 1 as two hex digits, found \" 22\"");
    const std::string shown = t.ShowBytes(std::string(300, '\x07'));
    const absl::StatusOr<std::string> cut = t.BytesOfText(shown);
    ASSERT_FALSE(cut.ok());
    EXPECT_TRUE(IsElided(cut.status()));
    EXPECT_EQ(cut.status().message(),
              "at character 768: the hex dump shows only its first 256 bytes (\"...\"): the "
              "rest cannot be read back");
  }
}

sb::Value Typed(sb::Type t, int64_t i = 0, std::string s = "", std::string s2 = "") {
  sb::Value v = sb::OfType(t);
  v.i = i;
  v.s = std::move(s);
  v.s2 = std::move(s2);
  return v;
}

TEST(BsonMutationParse, DocumentOfEveryTypeReadsBackExactly) {
  sb::Value binary = Typed(sb::Type::kBinary, 0, std::string("\x00\xff", 2));
  binary.subtype = 128;
  sb::Value scope = Typed(sb::Type::kCodeWithScope, 0, "f()");
  scope.children = {sb::Element{"x", sb::Int32(-7)}};
  sb::Value array = sb::Array({sb::Bool(true), Typed(sb::Type::kTimestamp, 4294967297),
                               sb::Int64(std::numeric_limits<int64_t>::min()),
                               Typed(sb::Type::kDecimal128, 0, std::string(15, '\0') + "\x40"),
                               sb::Null(), sb::Double(-std::numeric_limits<double>::infinity())});
  sb::Value inner = sb::SubDocument({
      {"p",
       Typed(sb::Type::kDbPointer, 0, "db.c", "\x01\x02\x03\x04\x05\x06\x07\x08\x09\x0a\x0b\x0c")},
      {"w", scope},
      {"y", Typed(sb::Type::kSymbol, 0, "sym")},
      {"c", Typed(sb::Type::kCode, 0, "x=1")},
      {"u", Typed(sb::Type::kUndefined)},
      {"k", Typed(sb::Type::kMinKey)},
      {"K", Typed(sb::Type::kMaxKey)},
      {"z", array},
  });
  const sb::Document doc{{
      {"d", sb::Double(-0.0)},
      {"s", sb::String(std::string("a\"\n\0\xc3\xa9", 6))},
      {"b", binary},
      {"o", Typed(sb::Type::kObjectId, 0, std::string("\0\1\2\3\4\5\6\7\x08\x09\x0a\x0b", 12))},
      {"t", sb::DateTimeCivil({1969, 12, 31, 23, 59, 59, 999500})},
      {"\xc3\xa9", sb::DateTimeMillis(-1)},
      {"r", Typed(sb::Type::kRegex, 0, "^a.*$", "imsx")},
      {"n", inner},
  }};
  const std::string text =
      "{\"d\": double -0, \"s\": string \"a\\\"\\n\\x00\\xc3\\xa9\", \"b\": binary subtype 128 "
      "00ff, \"o\": objectid 000102030405060708090a0b, \"t\": datetime "
      "1969-12-31T23:59:59.999500, \"\\xc3\\xa9\": datetime -1 ms, \"r\": regex /^a.*$/imsx, "
      "\"n\": document{\"p\": dbpointer \"db.c\" 0102030405060708090a0b0c, \"w\": "
      "code_w_scope \"f()\" {\"x\": int32 -7}, \"y\": symbol \"sym\", \"c\": code \"x=1\", "
      "\"u\": undefined, \"k\": minkey, \"K\": maxkey, \"z\": array[bool 1, timestamp "
      "4294967297, int64 -9223372036854775808, decimal128 00000000000000000000000000000040, "
      "null, double -inf]}}";
  ASSERT_EQ(sb::Show(doc), text);  // the hand-written text is the printed form
  const absl::StatusOr<sb::Document> back = targets::bson::ParseDocument(text);
  ASSERT_TRUE(back.ok()) << back.status();
  EXPECT_TRUE(*back == doc) << sb::Show(*back);
  EXPECT_TRUE(std::signbit(back->elements[0].value.d));
  const Target& t = Find("bson_encode");
  EXPECT_EQ(t.ShowBytes(*t.BytesOfText(text)), text);
  // {} is an element count of 0 in 0..10000: two zero bytes.
  EXPECT_EQ(*t.BytesOfText("{}"), std::string("\0\0", 2));
}

TEST(BsonMutationParse, DocumentRefusesWhatItsTextLeavesOutAndNamesBadCharacters) {
  auto error = [](std::string_view text) {
    const absl::StatusOr<sb::Document> r = targets::bson::ParseDocument(text);
    return r.ok() ? std::string("ok") : std::string(r.status().message());
  };
  auto elided = [](std::string_view text) {
    return IsElided(targets::bson::ParseDocument(text).status());
  };
  // A double prints with 6 significant digits: only 0, -0, inf, -inf read back; a hex float
  // is exact.
  // An ObjectId is 12 bytes, a decimal128 16: another length fails where its hex starts.
  EXPECT_EQ(error("{\"a\": objectid 0a}"),
            "at character 15: expected 12 bytes (24 hex digits), found 1");
  EXPECT_EQ(error("{\"a\": decimal128 000102030405060708090a0b}"),
            "at character 17: expected 16 bytes (32 hex digits), found 12");
  // A datetime's fields are read as printed (zero-padded): ".5" is not 5 µs.
  EXPECT_EQ(error("{\"a\": datetime 1970-01-01T00:00:00.5}"),
            "at character 35: the fields read print as \"1970-01-01T00:00:00.000005\": write "
            "them that way (zero-padded)");
  EXPECT_TRUE(elided("{\"a\": double 1.5}"));
  EXPECT_TRUE(elided("{\"a\": double nan}"));
  EXPECT_TRUE(elided("{\"a\": double 4.94066e-324}"));
  EXPECT_EQ(targets::bson::ParseDocument("{\"a\": double 0x1.8p+0}")->elements[0].value.d, 1.5);
  EXPECT_EQ(targets::bson::ParseDocument("{\"a\": double -0x1p-1074}")->elements[0].value.d,
            -std::numeric_limits<double>::denorm_min());
  EXPECT_EQ(error("{\"a\": double 1.5}"),
            "at character 13: the double \"1.5\" is printed rounded to 6 significant digits (NaN "
            "without its payload); write it exactly as a hex float (0x1.8p+0)");
  // A container of more than 8 elements shows 8.
  std::vector<sb::Value> nine(9, sb::Int32(1));
  const std::string shown = sb::Show(sb::Document{{{"a", sb::Array(nine)}}});
  EXPECT_TRUE(elided(shown));
  EXPECT_EQ(error(shown),
            absl::StrCat("at character ", shown.find("..."),
                         ": the container shows only its first 8 elements (\"...\"): the rest "
                         "cannot be read back"));
  EXPECT_EQ(error("{\"a\": int33 1}"),
            "at character 6: expected a BSON type name, found \"int33 1}\"");
  EXPECT_EQ(error("{\"a\": int32 2147483648}"),
            "at character 12: 2147483648 is outside -2147483648..2147483647");
  EXPECT_EQ(error("{\"a\": regex /x/y/z}"),
            "at character 16: a '/' after a regex's options: a pattern or options holding '/' "
            "print ambiguously");
  EXPECT_TRUE(
      absl::StartsWith(error("{\"a\": string \"x\\q\"}"), "at character 15: expected an escape"));
  EXPECT_EQ(error("{\"a\": string \"x}"), "at character 16: the text ends before the closing '\"'");
  EXPECT_EQ(error("{\"a\": objectid 0a0}"),
            "at character 17: an odd number of hex digits (3): two per byte");
  EXPECT_EQ(error("{\"a\": null"), "at character 10: expected \", \", found end of text");
  // Containers deeper than kMaxDomainDepth (104) hold no elements in the corpus form.
  std::string deep;
  for (int i = 0; i < 104; ++i) deep += "{\"d\": document";
  EXPECT_EQ(error(deep + "{\"d\": null}" + std::string(104, '}')),
            "at character 1457: a container nested 105 levels deep holds no elements in the "
            "input (at most 104 levels)");
  EXPECT_EQ(error(deep + "{}" + std::string(104, '}')), "ok");
}

// Every recorded printed value of the shipped corpus of the bson and mutation families reads
// back to corpus bytes that print as the same text, unless the printer left part of it out.
TEST(BsonMutationParse, EveryRecordedCorpusValueReadsBack) {
  const std::filesystem::path dir =
      std::filesystem::path(SERDIFF_CORPUS_DIR) / ".." / "tests" / "data" / "corpus-printed";
  int files = 0;
  for (const auto& entry : std::filesystem::directory_iterator(dir)) {
    const std::string name = entry.path().stem().string();
    if (!absl::StartsWith(name, "bson_") && !absl::StartsWith(name, "mutation_")) continue;
    ++files;
    const Target& t = Find(name);
    ASSERT_TRUE(t.has_parser()) << name;
    absl::StatusOr<std::string> record = ReadFileBytes(entry.path().string());
    ASSERT_TRUE(record.ok()) << record.status();
    int lines = 0, parsed = 0, elided = 0;
    for (absl::string_view line : absl::StrSplit(*record, '\n', absl::SkipEmpty())) {
      ++lines;
      const size_t tab = line.find('\t');
      ASSERT_NE(tab, absl::string_view::npos) << line;
      std::string value;
      ASSERT_TRUE(absl::CUnescape(line.substr(tab + 1), &value)) << line;
      const absl::StatusOr<std::string> bytes = t.BytesOfText(value);
      if (!bytes.ok() && IsElided(bytes.status())) {
        ++elided;
        continue;
      }
      ASSERT_TRUE(bytes.ok()) << name << ": " << value << "\n" << bytes.status();
      EXPECT_EQ(t.ShowBytes(*bytes), value) << name;
      ++parsed;
    }
    std::cout << name << ": " << lines << " recorded values, " << parsed << " read back, " << elided
              << " elided\n";
    EXPECT_GT(parsed, 0) << name;
    // These printed forms leave nothing out.
    if (absl::StartsWith(name, "mutation_serialize") || name == "bson_array_keys") {
      EXPECT_EQ(elided, 0) << name;
    }
  }
  EXPECT_EQ(files, 11);  // 9 bson/mutation targets + bson_format_int64, bson_format_uint64
}

}  // namespace
}  // namespace serdiff::harness
