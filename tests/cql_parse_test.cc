// Parsers of the printed inputs of the nine cql_* targets (targets/cql/domain.h): hand-written
// texts read to exact values, errors at exact character offsets, every line of
// tests/data/corpus-printed/cql_*.tsv read back to a corpus file that prints as that line, and
// `serdiff seed --value` writing a file that `serdiff show` prints back.
#include <gtest/gtest.h>

#include <bit>
#include <cstdint>
#include <cstdio>
#include <filesystem>
#include <string>
#include <utility>
#include <vector>

#include "absl/strings/escaping.h"
#include "absl/strings/str_cat.h"
#include "absl/strings/str_split.h"
#include "harness/corpus.h"
#include "harness/target.h"
#include "harness/text_parse.h"
#include "serdiff/cql/value.h"
#include "targets/cql/domain.h"
#include "targets/families.h"
#include "tests/run_cli.h"

namespace serdiff::targets::cql {
namespace {

using serdiff::cql::Decimal;
using serdiff::cql::ParseType;

template <typename T>
std::string ErrorOf(const absl::StatusOr<T>& r) {
  return r.ok() ? "ok" : std::string(r.status().message());
}

Type Ty(std::string_view text) {
  Type t;
  EXPECT_TRUE(ParseType(text, &t).ok()) << text;
  return t;
}

// show(parse(text)) for a domain.
template <typename V>
std::string Reprint(const harness::Domain<V>& d, std::string_view text) {
  absl::StatusOr<V> v = d.parse(text);
  return v.ok() ? d.show(*v) : absl::StrCat("error: ", v.status().message());
}

TEST(CqlParse, DecodeInputsReadToExactFields) {
  const auto d = DecodeDomain();
  const std::string text = "v4 payload varint max_depth=32 require_minimal_varint bytes(2)=80 00";
  absl::StatusOr<DecodeInput> v = d.parse(text);
  ASSERT_TRUE(v.ok()) << v.status();
  DecodeOptions o;
  o.require_minimal_varint = true;
  EXPECT_EQ(*v, (DecodeInput{Ty("varint"), 4, false, o, std::string("\x80\x00", 2)}));
  EXPECT_EQ(d.show(*v), text);

  const std::string framed =
      "v3 [value] map<int, udt<u, f0 text, f1 list<inet>>> max_depth=5 reject_short_tuples "
      "reject_negative_lengths require_time_in_day reject_duration_trailing_bytes strict_utf8 "
      "reject_empty_where_cassandra_does bytes(0)=";
  v = d.parse(framed);
  ASSERT_TRUE(v.ok()) << v.status();
  DecodeOptions all{5, false, true, true, true, true, true, true};
  EXPECT_EQ(*v, (DecodeInput{Ty("map<int, udt<u, f0 text, f1 list<inet>>>"), 3, true, all, ""}));
  EXPECT_EQ(d.show(*v), framed);

  // Errors, at the character where the text goes wrong.
  EXPECT_EQ(ErrorOf(d.parse("v9 payload int max_depth=32 bytes(0)=")),
            "at character 1: protocol version 9 is outside 1..5");
  EXPECT_EQ(
      ErrorOf(d.parse("v4 frame int max_depth=32 bytes(0)=")),
      "at character 2: expected \" payload \" or \" [value] \", found \" frame int max_d\"...");
  EXPECT_EQ(ErrorOf(d.parse("v4 payload list<nt> max_depth=32 bytes(0)=")),
            "at character 16: unknown type 'nt'");
  EXPECT_EQ(ErrorOf(d.parse("v4 payload list<int max_depth=32 bytes(0)=")),
            "at character 19: expected '>' or ','");
  EXPECT_EQ(ErrorOf(d.parse("v4 payload int max_depth=65 bytes(0)=")),
            "at character 25: max_depth 65 is outside 0..64");
  EXPECT_EQ(ErrorOf(d.parse("v4 payload int max_depth=32 bytes(2)=00")),
            "at character 39: expected \" \", found end of text");
  // Flags in another order than the printer's do not print as the text.
  EXPECT_EQ(ErrorOf(d.parse("v4 payload int max_depth=32 strict_utf8 require_minimal_varint "
                            "bytes(0)=")),
            "at character 39: expected \" bytes(\", found \" require_minimal\"...");
  // A long dump is cut short by the printer: the bytes are lost.
  DecodeInput big{Ty("blob"), 4, false, {}, std::string(300, '\x07')};
  const absl::StatusOr<DecodeInput> elided = d.parse(d.show(big));
  EXPECT_TRUE(harness::IsElided(elided.status())) << elided.status();
}

TEST(CqlParse, TypedInputsReadToExactFields) {
  const auto d = TypedDecodeDomain();
  const std::string text =
      "v1 list<time> max_depth=60 require_minimal_varint strict_utf8 bytes(3)=00 01 ff";
  absl::StatusOr<TypedDecodeInput> v = d.parse(text);
  ASSERT_TRUE(v.ok()) << v.status();
  DecodeOptions o{60, true, false, false, false, false, true};
  EXPECT_EQ(*v, (TypedDecodeInput{0, 8, 3, 1, o, std::string("\x00\x01\xff", 3)}));
  EXPECT_EQ(d.show(*v), text);
  v = d.parse("v5 map<uuid, double> max_depth=32 bytes(0)=");
  ASSERT_TRUE(v.ok()) << v.status();
  EXPECT_EQ(*v, (TypedDecodeInput{2, 11, 10, 5, {}, ""}));
  // A list or set does not print its (unused) map-value index: it reads back as the default.
  const TypedDecodeInput list7{0, 3, 7, 4, {}, ""};
  EXPECT_EQ(d.show(list7), "v4 list<int> max_depth=32 bytes(0)=");
  EXPECT_EQ(d.parse(d.show(list7))->value, 3);
  EXPECT_EQ(ErrorOf(d.parse("v4 list<text> max_depth=32 bytes(0)=")),
            "at character 3: the typed path takes boolean, tinyint, smallint, int, date, bigint, "
            "counter, timestamp, time, float, double, uuid and timeuuid elements");
  EXPECT_EQ(ErrorOf(d.parse("v4 tuple<int> max_depth=32 bytes(0)=")),
            "at character 3: expected a list, set or map type (the typed path's containers)");

  const auto e = TypedDomain();
  absl::StatusOr<TypedInput> t = e.parse("v4 list<int> count=1000 nulls=1% seed=7");
  ASSERT_TRUE(t.ok()) << t.status();
  EXPECT_EQ(t->spec, (TypedSpec{0, 3, 3, 1000, 1, false, 7, 4}));
  EXPECT_EQ(t->built->keys.n, 1000u);
  t = e.parse("v2 set<timeuuid> count=3 nulls=0% bad seed=18446744073709551615");
  ASSERT_TRUE(t.ok()) << t.status();
  EXPECT_EQ(t->spec, (TypedSpec{1, 12, 3, 3, 0, true, ~uint64_t{0}, 2}));
  t = e.parse("v3 map<boolean, float> count=0 nulls=100% seed=0");
  ASSERT_TRUE(t.ok()) << t.status();
  EXPECT_EQ(t->spec, (TypedSpec{2, 0, 9, 0, 100, false, 0, 3}));
  EXPECT_EQ(ErrorOf(e.parse("v4 list<int> count=70001 nulls=0% seed=1")),
            "at character 19: count=70001 is above the most the input holds (70000)");
  EXPECT_EQ(ErrorOf(e.parse("v4 list<int> count=1 nulls=101% seed=1")),
            "at character 27: nulls=101 is above the most the input holds (100)");
  EXPECT_EQ(ErrorOf(e.parse("v4 list<int> count=1 nulls=1% seed=1 bad")),
            "at character 36: unexpected \" bad\" after the value");
}

TEST(CqlParse, LargeSpecsReadToExactFields) {
  const auto d = LargeDomain();
  absl::StatusOr<LargeInput> v = d.parse("list<int> count=500000 nulls=0% text_len=0 seed=42 v4");
  ASSERT_TRUE(v.ok()) << v.status();
  EXPECT_EQ(v->spec, (LargeSpec{0, 500000, 0, 0, 42, 4}));
  EXPECT_EQ(v->input.value.items().size(), 500000u);
  v = d.parse("tuple<text, list<int>, map<int, int>> count=2 nulls=50% text_len=3 seed=1 v5");
  ASSERT_TRUE(v.ok()) << v.status();
  EXPECT_EQ(v->spec, (LargeSpec{8, 2, 50, 3, 1, 5}));
  EXPECT_EQ(v->input.type, Ty("tuple<text, list<int>, map<int, int>>"));
  EXPECT_EQ(ErrorOf(d.parse("list<float> count=1 nulls=0% text_len=0 seed=1 v4")),
            "at character 0: expected one of the large shapes (list<int>, ..., tuple<text, "
            "list<int>, map<int, int>>) and \" count=\"");
  EXPECT_EQ(ErrorOf(d.parse("list<int> count=500001 nulls=0% text_len=0 seed=1 v4")),
            "at character 16: count=500001 is above the most the input holds (500000)");
  EXPECT_EQ(ErrorOf(d.parse("list<int> count=1 nulls=0% text_len=0 seed=1 v2")),
            "at character 46: protocol version 2 is outside 3..5");
}

TEST(CqlParse, EncodeInputsReadToExactValues) {
  const auto d = EncodeDomain(true);
  struct Case {
    std::string text;
    EncodeInput want;
  };
  const std::vector<Case> cases = {
      {"v4 payload list<text> = ['it\\'s', null, '\\x00\\\\', 'µ']",
       {Ty("list<text>"),
        Value::Items({Value::Text("it's"), Value::Null(), Value::Text(std::string("\0\\", 2)),
                      Value::Text("µ")}),
        4, false}},
      {"v2 [value] udt<u, f0 time, f1 inet> = {f0: 5}",
       {Ty("udt<u, f0 time, f1 inet>"), Value::Items({Value::Int(5)}), 2, true}},
      {"v5 payload map<inet, blob> = {'1.2.3.4': 0x00ff, '0:0:0:0:0:0:0:1': empty}",
       {Ty("map<inet, blob>"),
        Value::Pairs({Value::Inet("\x01\x02\x03\x04"), Value::Blob(std::string("\x00\xff", 2)),
                      Value::Inet(std::string(15, '\0') + "\x01"), Value::Empty()}),
        5, false}},
      {"v4 payload decimal = 1E+3",
       {Ty("decimal"), Value::FromDecimal(Decimal{-3, BigInt::FromInt64(1)}), 4, false}},
      {"v4 payload tuple<float, double, duration> = (nan(0x7fc00001), -0, duration(1, -2, 3))",
       {Ty("tuple<float, double, duration>"),
        Value::Items({Value::Float(std::bit_cast<float>(uint32_t{0x7fc00001})), Value::Double(-0.0),
                      Value::FromDuration({1, -2, 3})}),
        4, false}},
      // Values of the wrong shape print in the type-free form.
      {"v4 payload int = <bytes:0x00ff>",
       {Ty("int"), Value::Bytes(std::string("\x00\xff", 2)), 4, false}},
      {"v3 payload list<int> = [1, <items:[<int64:2>, unset, <pairs:[]>]>]",
       {Ty("list<int>"),
        Value::Items({
            Value::Int(1),
            Value::Items({Value::Int(2), Value::Unset(), Value::Pairs({})}),
        }),
        3, false}},
      {"v4 payload tuple<int> = (1, <float:1.5>)",
       {Ty("tuple<int>"), Value::Items({Value::Int(1), Value::Float(1.5f)}), 4, false}},
      {"v4 payload udt<u, f0 int> = {f0: 1, ?: <uuid:00112233-4455-6677-8899-aabbccddeeff>}",
       {Ty("udt<u, f0 int>"),
        Value::Items(
            {Value::Int(1), Value::FromUuid({0x00, 0x11, 0x22, 0x33, 0x44, 0x55, 0x66, 0x77, 0x88,
                                             0x99, 0xaa, 0xbb, 0xcc, 0xdd, 0xee, 0xff})}),
        4, false}},
  };
  for (const Case& c : cases) {
    absl::StatusOr<EncodeInput> v = d.parse(c.text);
    ASSERT_TRUE(v.ok()) << c.text << "\n" << v.status();
    EXPECT_EQ(*v, c.want) << c.text << "\n" << d.show(*v);
    EXPECT_EQ(d.show(*v), c.text);
  }
  // The long example of the brief's form, printed back.
  const std::string nested =
      "v5 payload map<set<tuple<counter, tuple<text>, set<duration>, date, int, ascii>>, bigint> "
      "= {{null, (5, ('a'), {duration(0, 0, 1)}, -1, 2147483647, 'x'), (null, null)}: 5, {}: "
      "-9223372036854775808}";
  EXPECT_EQ(Reprint(d, nested), nested);

  EXPECT_EQ(ErrorOf(d.parse("v4 payload list<int> = [1, x]")), "at character 27: bad integer 'x'");
  EXPECT_EQ(ErrorOf(d.parse("v4 payload list<int> = [1,2]")),
            "at character 25: expected \"]\", found \",2]\"");
  EXPECT_EQ(ErrorOf(d.parse("v4 payload text = 'abc")),
            "at character 18: unterminated quoted string");
  EXPECT_EQ(ErrorOf(d.parse("v4 payload int = <nope:1>")),
            "at character 18: unknown value shape \"nope\"");
  EXPECT_EQ(ErrorOf(d.parse("v4 payload int 5")),
            "at character 11: expected a CQL type followed by \" = \"");
  // A text that reads but is not the printed form: at the first difference.
  EXPECT_EQ(ErrorOf(d.parse("v4 payload int = 05")),
            "at character 17: the text does not match how the value it names prints: "
            "\"v4 payload int = 5\"");
  // cql_encode_scalar holds native types only.
  EXPECT_EQ(ErrorOf(EncodeDomain(false).parse("v4 payload list<int> = []")),
            "at character 11: the type is nested 1 deep; this input holds types up to 0");
}

TEST(CqlParse, MutatedInputsDeriveTheirBytes) {
  const auto d = MutatedDomain();
  // int 5 is 00 00 00 05; "drop" erases the byte at 2 % 4.
  const std::string text =
      "v4 payload int = 5\n  options max_depth=32 strict_utf8\n  edit drop pos=2 arg=0\n  "
      "bytes(3)=00 00 05";
  absl::StatusOr<MutatedInput> v = d.parse(text);
  ASSERT_TRUE(v.ok()) << v.status();
  EXPECT_EQ(v->base.base, (EncodeInput{Ty("int"), Value::Int(5), 4, false}));
  EXPECT_EQ(v->edit, (harness::Edit{6, 2, 0}));
  EXPECT_TRUE(v->base.options.strict_utf8);
  EXPECT_EQ(v->bytes, std::string("\x00\x00\x05", 3));
  EXPECT_EQ(d.show(*v), text);
  // Without the bytes line: the same value (the bytes are derived from the fields).
  absl::StatusOr<MutatedInput> short_form = d.parse(text.substr(0, text.find("\n  bytes(")));
  ASSERT_TRUE(short_form.ok()) << short_form.status();
  EXPECT_EQ(*short_form, *v);
  // The dump must be the one the fields give.
  std::string wrong = text;
  wrong.back() = '6';
  EXPECT_EQ(ErrorOf(d.parse(wrong)),
            absl::StrCat("at character ", text.size() - 1,
                         ": the text does not match how the value it names prints: \"v4 "
                         "payload int = 5\\n  options max_depth=32 strict_utf8\\n  edit drop "
                         "pos=2 arg=0\\n  bytes(3)=00 00 05\""));
  // "v4 payload int = 5" (18) "\n  options max_depth=32" (23) "\n  edit " (8): the op at 49.
  EXPECT_EQ(ErrorOf(d.parse("v4 payload int = 5\n  options max_depth=32\n  edit chop pos=2 arg=0")),
            "at character 49: unknown edit \"chop\" (none, truncate, xor, insert, overwrite32be, "
            "append, drop, overwrite8, setbit, overwrite32le, overwrite16be)");
  EXPECT_EQ(ErrorOf(d.parse("v4 payload int = 5\n  options max_depth=32")),
            "at character 41: expected a line \"  edit <op> pos=<n> arg=<n>\"");
  EXPECT_EQ(ErrorOf(d.parse("v4 payload int = 5\n  edit none pos=0 arg=0")),
            "at character 18: expected a second line \"  options max_depth=...\"");
}

const harness::Target& Find(const std::string& name) {
  const harness::Target* t = targets::AllTargets().Find(name);
  if (t == nullptr) {
    ADD_FAILURE() << "no target " << name;
    std::abort();
  }
  return *t;
}

// Every recorded printed value of the shipped corpus reads back (Target::BytesOfText) to
// corpus bytes that print as that very text; a value whose printed form is cut short (a long
// hex dump) fails as elided. The count of lines whose bytes are the recorded file's own is
// printed (a typed list's unused `value` index, or padding, may differ).
TEST(CqlParse, EveryCorpusPrintedLineReadsBack) {
  const std::vector<std::string> names = {
      "cql_decode",        "cql_decode_mutated", "cql_encode_large",
      "cql_encode_nested", "cql_encode_scalar",  "cql_round_trip",
      "cql_size",          "cql_typed_decode",   "cql_typed_encode"};
  int total = 0;
  for (const std::string& name : names) {
    const harness::Target& t = Find(name);
    ASSERT_TRUE(t.has_parser()) << name;
    const absl::StatusOr<std::string> tsv = harness::ReadFileBytes(
        absl::StrCat(SERDIFF_CORPUS_DIR, "/../tests/data/corpus-printed/", name, ".tsv"));
    ASSERT_TRUE(tsv.ok()) << tsv.status();
    int lines = 0, parsed = 0, elided = 0, same_bytes = 0;
    for (absl::string_view line : absl::StrSplit(*tsv, '\n', absl::SkipEmpty())) {
      const size_t tab = line.find('\t');
      ASSERT_NE(tab, absl::string_view::npos) << line;
      std::string text;
      ASSERT_TRUE(absl::CUnescape(line.substr(tab + 1), &text)) << line;
      ++lines;
      const absl::StatusOr<std::string> bytes = t.BytesOfText(text);
      if (!bytes.ok() && harness::IsElided(bytes.status())) {
        ++elided;
        continue;
      }
      ASSERT_TRUE(bytes.ok()) << name << ": " << text << "\n" << bytes.status();
      EXPECT_EQ(t.ShowBytes(*bytes), text) << name;
      ++parsed;
      const absl::StatusOr<std::string> file = harness::ReadFileBytes(
          absl::StrCat(SERDIFF_CORPUS_DIR, "/", name, "/", std::string(line.substr(0, tab))));
      if (file.ok() && *file == *bytes) ++same_bytes;
    }
    EXPECT_GT(lines, 0) << name;
    EXPECT_EQ(parsed + elided, lines) << name;
    total += lines;
    std::printf("%s: %d lines, %d parse back (%d to the recorded file's own bytes), %d elided\n",
                name.c_str(), lines, parsed, same_bytes, elided);
  }
  EXPECT_GT(total, 300);
}

using ::serdiff::testing_support::RunCli;

TEST(CqlParse, SeedValueWritesAFileThatShowPrintsBack) {
  const std::string root = testing::TempDir() + "/cql_seed_value_corpus";
  std::filesystem::remove_all(root);
  const std::string text = "v4 payload map<text, list<int>> = {'a b': [1, null], 'c': []}";
  // The text in single quotes for the shell, each ' in it as '\''.
  std::string quoted = "'";
  for (char ch : text) quoted += ch == '\'' ? std::string("'\\''") : std::string(1, ch);
  quoted += "'";
  auto [status, out] = RunCli("seed cql_round_trip --corpus " + root + " --value " + quoted);
  ASSERT_EQ(status, 0) << out;
  const std::string path = out.substr(0, out.find('\n'));
  EXPECT_EQ(path, absl::StrCat(root, "/cql_round_trip/",
                               harness::Sha1Hex(*Find("cql_round_trip").BytesOfText(text))));
  auto [show_status, show_out] = RunCli("show cql_round_trip " + path);
  EXPECT_EQ(show_status, 0) << show_out;
  EXPECT_NE(show_out.find(text), std::string::npos) << show_out;
  std::filesystem::remove_all(root);
}

}  // namespace
}  // namespace serdiff::targets::cql
