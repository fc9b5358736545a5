// Parsers of printed values (Domain::parse, harness/text_parse.h): exact values and exact
// error positions for the harness integer and vector domains, the timestamp and varint
// domains, and Target::BytesOfText (what `serdiff seed <target> --value` writes). Plus the
// timestamp exact-value inputs (tests/data/timestamp_exact_values.tsv): each is in its
// target's corpus, and its text encodes to that very file.
#include <gtest/gtest.h>

#include <bit>
#include <cmath>
#include <cstdint>
#include <cstdio>
#include <filesystem>
#include <limits>
#include <string>
#include <vector>

#include "absl/strings/match.h"
#include "absl/strings/str_cat.h"
#include "absl/strings/str_split.h"
#include "harness/corpus.h"
#include "harness/domains.h"
#include "harness/fuzz_input.h"
#include "harness/target.h"
#include "harness/text_parse.h"
#include "targets/families.h"
#include "targets/timestamp/domain.h"
#include "tests/run_cli.h"

namespace serdiff::harness {
namespace {

namespace tsd = ::serdiff::targets::timestamp;

// The message of a failed parse, or "ok".
template <typename T>
std::string ErrorOf(const absl::StatusOr<T>& r) {
  return r.ok() ? "ok" : std::string(r.status().message());
}

TEST(TextParse, IntegerDomainReadsDecimalAndNamesTheBadCharacter) {
  const Domain<int64_t> d = IntegerDomain<int64_t>("int64", rc::gen::arbitrary<int64_t>());
  EXPECT_EQ(*d.parse("-9223372036854775808"), std::numeric_limits<int64_t>::min());
  EXPECT_EQ(*d.parse("007"), 7);
  EXPECT_EQ(ErrorOf(d.parse("")), "at character 0: expected a decimal integer, found end of text");
  EXPECT_EQ(ErrorOf(d.parse("12x")), "at character 2: unexpected \"x\" after the value");
  EXPECT_EQ(ErrorOf(d.parse("9223372036854775808")),
            "at character 0: \"9223372036854775808\" is out of range "
            "(-9223372036854775808..9223372036854775807)");
  const Domain<uint32_t> u = IntegerDomain<uint32_t>("uint32", rc::gen::arbitrary<uint32_t>());
  EXPECT_EQ(*u.parse("4294967295"), 4294967295u);
  EXPECT_EQ(ErrorOf(u.parse("4294967296")),
            "at character 0: \"4294967296\" is out of range (0..4294967295)");
  EXPECT_EQ(ErrorOf(u.parse("-1")), "at character 0: expected a decimal integer, found \"-1\"");
}

TEST(TextParse, VectorDomainReadsShowVectorAndRefusesAnElidedList) {
  const Domain<std::vector<int64_t>> d =
      VectorDomain<int64_t>("vector<int64>", rc::gen::arbitrary<int64_t>(), 40);
  EXPECT_EQ(*d.parse("[0 values]"), std::vector<int64_t>{});
  EXPECT_EQ(*d.parse("[1 value: -5]"), std::vector<int64_t>{-5});
  EXPECT_EQ(*d.parse("[3 values: 1, -2, 3]"), (std::vector<int64_t>{1, -2, 3}));
  EXPECT_EQ(ErrorOf(d.parse("[3 values: 1, 2]")), "at character 15: expected \", \", found \"]\"");
  EXPECT_EQ(ErrorOf(d.parse("[41 values: 1]")),
            "at character 1: 41 values, more than the domain holds (40)");
  const std::vector<int64_t> twenty(20, 9);
  const std::string shown = d.show(twenty);
  ASSERT_EQ(shown.substr(shown.size() - 6), ", ...]");
  const absl::StatusOr<std::vector<int64_t>> elided = d.parse(shown);
  ASSERT_FALSE(elided.ok());
  EXPECT_TRUE(IsElided(elided.status()));
  EXPECT_EQ(elided.status().message(),
            absl::StrCat("at character ", shown.size() - 4,
                         ": the list shows 16 of its 20 values (\"...\"): the rest cannot be "
                         "read back"));
  // A wrong parse is not an elision.
  EXPECT_FALSE(IsElided(d.parse("[2 values: 1]").status()));
}

TEST(TextParse, CivilDomainReadsItsPrintedFormAndTheIsoTextAlone) {
  const Domain<::serdiff::timestamp::CivilDateTime> d = tsd::CivilDomain();
  const ::serdiff::timestamp::CivilDateTime want{1969, 12, 31, 23, 59, 59, 999500};
  EXPECT_EQ(*d.parse("1969-12-31T23:59:59.999500"), want);
  EXPECT_EQ(*d.parse(d.show(want)), want);
  // Out-of-range fields print with their sign, and read back.
  const ::serdiff::timestamp::CivilDateTime odd{-1, -1, 0, 24, 60, -1, 1000000};
  EXPECT_EQ(d.show(odd),
            "-0001--1-00T24:60:-1.1000000 {year -1, month -1, day 0, 24:60:-1, \xc2\xb5s 1000000}");
  EXPECT_EQ(*d.parse(d.show(odd)), odd);
  // The braces must agree with the text before them.
  EXPECT_EQ(ErrorOf(d.parse("1969-12-31T23:59:59.999500 {year 1968, month 12, day 31, "
                            "23:59:59, \xc2\xb5s 999500}")),
            "at character 36: the text does not match how the value it names prints: "
            "\"1969-12-31T23:59:59.999500 {year 1969, month 12, day 31, 23:59:59, "
            "\\xc2\\xb5s 999500}\"");
  EXPECT_EQ(ErrorOf(d.parse("1969-12-31 23:59:59")),
            "at character 10: expected \"T\", found \" 23:59:59\"");
  // Fields are read as printed, zero-padded: ".5" would be microsecond 5, which prints as
  // ".000005", so it is refused (not read as 5 µs, nor as 500000).
  EXPECT_EQ(ErrorOf(d.parse("1970-01-01T00:00:00.5")),
            "at character 20: the fields read print as \"1970-01-01T00:00:00.000005\": write "
            "them that way (zero-padded)");
  EXPECT_EQ(ErrorOf(d.parse("1970-1-01T00:00:00.000000")),
            "at character 5: the fields read print as \"1970-01-01T00:00:00.000000\": write "
            "them that way (zero-padded)");
  EXPECT_EQ(ErrorOf(tsd::DayDomain().parse("1970-01-1")),
            "at character 8: the fields read print as \"1970-01-01\": write them that way "
            "(zero-padded)");
  EXPECT_EQ(ErrorOf(tsd::TimeOfDayDomain().parse("00:00:00.5")),
            "at character 9: the fields read print as \"00:00:00.000000005\": write them that "
            "way (zero-padded)");
}

TEST(TextParse, DayTimeSecondsAndIntegerTimestampDomains) {
  EXPECT_EQ(*tsd::DayDomain().parse("-5877641-06-23"), (::serdiff::timestamp::CivilDay{-5877641, 6, 23}));
  EXPECT_EQ(*tsd::TimeOfDayDomain().parse("23:59:59.999999000 {23 h, 59 min, 59 s, 999999000 ns}"),
            (::serdiff::timestamp::TimeOfDay{23, 59, 59, 999999000}));
  const Domain<int64_t> ms = tsd::MillisDomain();
  EXPECT_EQ(*ms.parse("-1"), -1);
  EXPECT_EQ(*ms.parse("-1 ms"), -1);
  EXPECT_EQ(*ms.parse("-1 ms (1969-12-31T23:59:59.999000)"), -1);
  EXPECT_EQ(ErrorOf(ms.parse("-1 ms (1969-12-31T23:59:59.998000)")),
            "at character 29: the text does not match how the value it names prints: "
            "\"-1 ms (1969-12-31T23:59:59.999000)\"");
  EXPECT_EQ(*tsd::DaysDomain().parse("10957 days"), 10957);
  EXPECT_EQ(*tsd::CqlTimeDomain().parse("86399999999999 ns"), 86399999999999);
  EXPECT_EQ(*tsd::RawDateDomain().parse("raw 2147483648 (0x80000000, day 0)"), 2147483648u);
  EXPECT_EQ(*tsd::RawDateDomain().parse("2147483647"), 2147483647u);
  const Domain<tsd::Seconds> s = tsd::SecondsDomain();
  EXPECT_EQ(s.parse("1e-06")->value, 1e-06);
  EXPECT_EQ(std::bit_cast<uint64_t>(s.parse("-0 s (bits 0x8000000000000000)")->value),
            0x8000000000000000u);
  // A NaN's payload is in the bits, and survives.
  const double nan = std::bit_cast<double>(uint64_t{0x7ff8000000000123});
  EXPECT_EQ(std::bit_cast<uint64_t>(s.parse(s.show({nan}))->value), 0x7ff8000000000123u);
  EXPECT_EQ(ErrorOf(s.parse("1 s (bits 0x3ff0000000000001)")),
            "at character 1: the text does not match how the value it names prints: "
            "\"1.0000000000000002 s (bits 0x3ff0000000000001)\"");
  EXPECT_EQ(ErrorOf(s.parse("one s")),
            "at character 0: expected a number of seconds, found \"one\"");
}

const Target& Find(const std::string& name) {
  const Target* t = targets::AllTargets().Find(name);
  if (t == nullptr) {
    ADD_FAILURE() << "no target " << name;
    std::abort();
  }
  return *t;
}

TEST(TextParse, BytesOfTextWritesTheCorpusFormOrSaysWhyNot) {
  // int64 -1 in corpus form: FDP reads it as its offset from INT64_MIN, 7f ff .. ff, last byte
  // first.
  EXPECT_EQ(*Find("varint_zigzag64").BytesOfText("-1"),
            std::string("\xff\xff\xff\xff\xff\xff\xff\x7f", 8));
  // A varint decode input: the bytes at the front, then the count (0..10000: two bytes, the
  // most significant last).
  const Target& leb = Find("varint_leb128_decode");
  EXPECT_EQ(*leb.BytesOfText("count 2, 3 bytes: 96 01 00"), std::string("\x96\x01\x00\x02\x00", 5));
  EXPECT_EQ(leb.ShowBytes(*leb.BytesOfText("count 2, 3 bytes: 96 01 00")),
            "count 2, 3 bytes: 96 01 00");
  EXPECT_EQ(leb.BytesOfText("count 2, 3 bytes: 96 01").status().message(),
            "at character 23: expected \" \", found end of text");
  // The corpus form holds counts up to 10000 only.
  EXPECT_EQ(leb.BytesOfText("count 10001, 0 bytes: ").status().message(),
            "the corpus form of (count, bytes) cannot hold count 10001, 0 bytes: : its bytes "
            "read back as count 0, 0 bytes: ");
  // A domain without a parser (every shipped domain has one, so a tiny target here).
  TargetDef<int64_t> def;
  def.name = "no_parser";
  def.domain = IntegerDomain<int64_t>("int64", rc::gen::arbitrary<int64_t>());
  def.domain.parse = nullptr;
  def.optimized = {"optimized", [](const int64_t&) -> Output { return std::string("x"); }};
  def.others.push_back({"reference", [](const int64_t&) -> Output { return std::string("x"); }});
  const TypedTarget<int64_t> tiny(std::move(def));
  EXPECT_FALSE(tiny.has_parser());
  const absl::StatusOr<std::string> none = tiny.BytesOfText("x");
  EXPECT_EQ(none.status().code(), absl::StatusCode::kUnimplemented);
  EXPECT_EQ(none.status().message(),
            "the domain of no_parser (int64) has no parser for printed values");
  for (const auto& t : targets::AllTargets().targets()) EXPECT_TRUE(t->has_parser()) << t->name();
}

using ::serdiff::testing_support::RunCli;

TEST(SeedValue, WritesEachValueAsItsCorpusFileAndRefusesAnUnreadableOne) {
  const std::string root = testing::TempDir() + "/seed_value_corpus";
  std::filesystem::remove_all(root);
  // zigzag -1 and 5; the second file is named by the SHA-1 of its 8 bytes.
  auto [status, out] = RunCli("seed varint_zigzag64 --corpus " + root + " --value -1 --value '5'");
  EXPECT_EQ(status, 0) << out;
  const std::string minus1 = std::string("\xff\xff\xff\xff\xff\xff\xff\x7f", 8);
  const std::string path = absl::StrCat(root, "/varint_zigzag64/", Sha1Hex(minus1));
  EXPECT_EQ(*ReadFileBytes(path), minus1);
  EXPECT_EQ(out, absl::StrCat(path, "\n", root, "/varint_zigzag64/",
                              Sha1Hex(*Find("varint_zigzag64").BytesOfText("5")), "\n"));
  // A printed vector is one value (not split at its commas).
  const std::string vec = "[2 values: 1, 300]";
  auto [vec_status, vec_out] =
      RunCli("seed varint_leb128_encode --corpus " + root + " --value '" + vec + "'");
  EXPECT_EQ(vec_status, 0) << vec_out;
  EXPECT_EQ(vec_out, absl::StrCat(root, "/varint_leb128_encode/",
                                  Sha1Hex(*Find("varint_leb128_encode").BytesOfText(vec)), "\n"));
  // A failing input says so, as `seed --count` does.
  auto [fail_status, fail_out] =
      RunCli("--selftest seed selftest_broken_zigzag --corpus " + root + " --value -1");
  EXPECT_EQ(fail_status, 0) << fail_out;
  EXPECT_TRUE(absl::StrContains(fail_out, "  (FAILS: bytes-mismatch:reference)")) << fail_out;
  // An unreadable text: exit 2, the parser's error, nothing written.
  std::filesystem::remove_all(root);
  auto [bad_status, bad_out] =
      RunCli("seed varint_zigzag64 --corpus " + root + " --value 7 --value 12x");
  EXPECT_EQ(bad_status, 2);
  EXPECT_EQ(bad_out,
            "serdiff: varint_zigzag64: cannot read the value '12x': at character 2: unexpected "
            "\"x\" after the value\n");
  EXPECT_FALSE(std::filesystem::exists(root));
  // A document's text starts with "{".
  EXPECT_EQ(RunCli("seed bson_encode --corpus " + root + " --value x"),
            std::make_pair(2, std::string("serdiff: bson_encode: cannot read the value 'x': at "
                                          "character 0: expected \"{\", found \"x\"\n")));
  // --value and --count exclude each other.
  EXPECT_EQ(RunCli("seed varint_zigzag64 --corpus " + root + " --value 1 --count 2").first, 2);
}

// tests/data/timestamp_exact_values.tsv: "<target>\t<printed value>" per line, the exact-value
// inputs of docs/timestamp.md ("Exact-value tests"). Each must be in its target's seed corpus
// as the file its text encodes to (`serdiff seed <target> --value '<text>'` writes it), and
// that file must print as the text.
TEST(TimestampExactValues, EachIsACorpusFileThatPrintsAsItsText) {
  auto table =
      ReadFileBytes(std::string(SERDIFF_CORPUS_DIR) + "/../tests/data/timestamp_exact_values.tsv");
  ASSERT_TRUE(table.ok()) << table.status();
  int lines = 0;
  for (absl::string_view line : absl::StrSplit(*table, '\n', absl::SkipEmpty())) {
    if (line[0] == '#') continue;
    ++lines;
    const std::vector<std::string> cols = absl::StrSplit(line, absl::MaxSplits('\t', 1));
    ASSERT_EQ(cols.size(), 2u) << line;
    const Target& t = Find(cols[0]);
    SCOPED_TRACE(std::string(line));
    const absl::StatusOr<std::string> bytes = t.BytesOfText(cols[1]);
    ASSERT_TRUE(bytes.ok()) << bytes.status();
    const std::string path = absl::StrCat(SERDIFF_CORPUS_DIR, "/", cols[0], "/", Sha1Hex(*bytes));
    const absl::StatusOr<std::string> file = ReadFileBytes(path);
    ASSERT_TRUE(file.ok()) << "the corpus lacks the input: " << file.status();
    EXPECT_EQ(*file, *bytes);
    EXPECT_EQ(t.ShowBytes(*file), cols[1]);
  }
  EXPECT_GT(lines, 500);
}

}  // namespace
}  // namespace serdiff::harness
