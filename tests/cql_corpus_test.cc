// Hand-picked seed inputs of the cql_* targets: the exact-byte cases and the
// decoder's edge cases, in corpus-file form. The test fails when a listed seed is missing
// from corpus/<target>/; run it once with SERDIFF_WRITE_CQL_SEEDS=1 to (re)write them.
#include <gtest/gtest.h>

#include <cstdlib>
#include <filesystem>
#include <string>
#include <vector>

#include "absl/strings/str_cat.h"
#include "harness/corpus.h"
#include "harness/hex.h"
#include "serdiff/cql/literal.h"
#include "targets/cql/domain.h"

namespace serdiff::targets::cql {
namespace {

using harness::Unhex;

Type T(const std::string& text) {
  Type t;
  EXPECT_TRUE(serdiff::cql::ParseType(text, &t).ok()) << text;
  return t;
}

Value V(const Type& t, const std::string& text) {
  Value v;
  EXPECT_TRUE(serdiff::cql::ParseValue(t, text, &v).ok()) << text;
  return v;
}

struct Seed {
  std::string target;
  std::string bytes;  // corpus-file form
};

template <typename T>
std::string CorpusForm(const harness::Domain<T>& d, const T& v) {
  harness::FuzzInputWriter w;
  d.encode(v, w);
  std::string bytes = w.Finish();
  // The form must read back as the same input.
  FuzzedDataProvider p(reinterpret_cast<const uint8_t*>(bytes.data()), bytes.size());
  EXPECT_TRUE(d.decode(p) == v) << d.show(v);
  return bytes;
}

std::vector<Seed> HandPickedSeeds() {
  std::vector<Seed> seeds;
  const auto decode = DecodeDomain();
  auto dec = [&](const std::string& type, const std::string& hex, int version = 4,
                 bool framed = false) {
    DecodeInput in{T(type), version, framed, DecodeOptions{}, Unhex(hex)};
    seeds.push_back({"cql_decode", CorpusForm(decode, in)});
  };
  dec("list<int>", "3b9aca00");
  dec("list<text>", "ffffffff");
  dec("list<text>", "00000002 00000005 68656c6c6f ffffffff");
  dec("map<int, text>", "00000001 00000004 00000001 ffffffff");
  dec("udt<u, f0 int, f1 int>", "00000004 00000001");
  for (const char* v : {"80000000", "80", "8000", "0080", "ff7f", "0001", "ff80", "00"}) {
    dec("varint", v);
  }
  dec("list<int>", "0002 0004 00000001 0004 00000002", 2);
  dec("list<int>", "0002 0004 00000001 0004 00000002", 4);
  dec("int", "fffffffe", 4, true);
  dec("int", "fffffffe", 3, true);
  dec("int", "ffffffff", 2, true);
  dec("duration", "020406");
  dec("duration", "020100");
  dec("time", "00004e94914f0000");
  dec("text", "c3a9e282ac");
  dec("text", "eda080");
  dec("decimal", "00000009 01b69b4be052fab1");
  dec("list<int>", "00000001 fffffffe");
  dec("tuple<int, text>", "00000004 00000001");

  // Regression inputs, kept forever under corpus/cql_decode/regressions/: the short tuples that
  // servers accept and serdiff once rejected ((1, null) and {(1, null)}, docs/cql.md "Decode
  // rules"), and error-offset cases (a map count wrong at offset 0; UTF-8 bad at offset 7, and
  // the same word with a valid 2-byte sequence at its end). Exact values: tests/cql_test.cc
  // (CqlDecodeRules, CqlErrorOffsets).
  auto reg = [&](const std::string& type, const std::string& hex) {
    DecodeInput in{T(type), 4, false, DecodeOptions{}, Unhex(hex)};
    seeds.push_back({"cql_decode/regressions", CorpusForm(decode, in)});
  };
  reg("tuple<int, int>", "00000004 00000001");
  reg("set<tuple<int, int>>", "00000001 00000008 00000004 00000001");
  reg("map<int, int>", "00000001 00000000");
  reg("text", "61626364656667ff");
  reg("text", "61626364656667c3a9");

  const auto scalar = EncodeDomain(false);
  const auto nested = EncodeDomain(true);
  auto enc = [&](bool is_nested, const std::string& type, const std::string& value, int version = 4,
                 bool framed = false) {
    const Type t = T(type);
    EncodeInput in{t, V(t, value), version, framed};
    seeds.push_back({is_nested ? "cql_encode_nested" : "cql_encode_scalar",
                     CorpusForm(is_nested ? nested : scalar, in)});
    if (is_nested) {
      seeds.push_back({"cql_round_trip", CorpusForm(nested, in)});
      seeds.push_back({"cql_size", CorpusForm(nested, in)});
    }
  };
  enc(true, "list<text>", "['hello', null]");
  enc(true, "map<int, text>", "{1: null}");
  enc(true, "list<int>", "[1, 2]", 2);
  enc(true, "list<int>", "[1, null]", 2);  // rejected: no null in a [short] list
  enc(true, "udt<u, f0 int, f1 int>", "{f0: 1}");
  enc(true, "tuple<int, text>", "(1, null)");
  enc(true, "list<list<int>>", "[[1], [], null, empty]", 2);
  for (const char* v :
       {"-2147483648", "-128", "-32768", "128", "-129", "0", "-1", "18446744073709551616"}) {
    enc(false, "varint", v);
  }
  enc(false, "int", "unset", 3, true);  // rejected: unset needs v4
  enc(false, "int", "unset", 4, true);
  enc(false, "text", "''", 4, true);
  enc(false, "duration", "duration(1, -1, 0)");  // rejected: mixed signs
  enc(false, "time", "86399999999999");
  enc(false, "date", "-2147483648");
  enc(false, "decimal", "1E+3");

  const auto mutated = MutatedDomain();
  auto mut = [&](const std::string& type, const std::string& value, uint8_t op, uint32_t pos,
                 uint32_t arg) {
    const Type t = T(type);
    MutatedInput in;
    in.base.base = EncodeInput{t, V(t, value), 4, false};
    in.edit = harness::Edit{op, pos, arg};
    seeds.push_back({"cql_decode_mutated", CorpusForm(mutated, in)});
  };
  mut("list<int>", "[1, 2, 3]", 4, 0, 1'000'000'000);           // count 1e9
  mut("list<int>", "[1, 2, 3]", 4, 4, 0xFFFFFFFE);              // an unset element
  mut("list<text>", "['a', 'b']", 1, 9, 0);                     // truncated
  mut("udt<u, f0 int, f1 text>", "{f0: 1, f1: 'x'}", 1, 8, 0);  // drops the last field
  mut("map<int, int>", "{1: 2}", 5, 0, 0);                      // trailing byte

  // Typed fast path: the null shares and the v2 [short] count edges.
  const auto typed = TypedDomain();
  auto typ = [&](uint8_t container, uint8_t key, uint8_t value, uint32_t count, uint8_t nulls,
                 uint8_t version, bool bad = false) {
    TypedSpec s;
    s.container = container;
    s.key = key;
    s.value = value;
    s.count = count;
    s.null_pct = nulls;
    s.bad = bad;
    s.seed = 7;
    s.version = version;
    seeds.push_back({"cql_typed_encode", CorpusForm(typed, BuildTyped(s))});
  };
  for (uint8_t nulls : {0, 1, 33, 99, 100}) typ(0, 3, 3, 1000, nulls, 4);  // list<int>
  for (uint32_t count : {0u, 1u, 65535u, 65536u}) {
    typ(0, 5, 3, count, 0, 2);  // list<bigint>, v2 [short] count
    typ(2, 3, 9, count, 0, 2);  // map<int, float>, v2
  }
  typ(1, 8, 3, 50, 33, 4, true);  // set<time> with one time of -1
  typ(0, 12, 3, 20, 0, 5, true);  // list<timeuuid> with one version 4 uuid
  typ(2, 11, 0, 30, 33, 3);       // map<uuid, boolean>
  typ(0, 4, 3, 10, 33, 1);        // list<date>, v1 with nulls: rejected
  // Within the fuzz target's max_len (26 bytes: <= 72 elements, fuzz/limits.tsv): the null
  // bitmap's block edges at 63, 64, 65 elements, a bad element, a map of 16-byte kinds.
  typ(0, 3, 3, 65, 33, 4);       // list<int>
  typ(1, 8, 3, 64, 1, 5, true);  // set<time> with one time of -1
  typ(2, 11, 12, 63, 33, 4);     // map<uuid, timeuuid>
  typ(0, 0, 3, 72, 99, 2);       // list<boolean>, v2

  const auto typed_decode = TypedDecodeDomain();
  auto tdec = [&](uint8_t container, uint8_t key, uint8_t value, const std::string& hex,
                  int version = 4) {
    TypedDecodeInput in{container, key, value, version, DecodeOptions{}, Unhex(hex)};
    seeds.push_back({"cql_typed_decode", CorpusForm(typed_decode, in)});
  };
  tdec(0, 3, 3, "00000003 00000004 00000001 ffffffff 00000004 00000003");
  tdec(0, 3, 3, "00000001 00000000");  // an empty element: no typed form
  tdec(0, 3, 3, "7fffffff 00000004 00000001");
  tdec(2, 3, 3, "00000001 00000000");  // map count wrong at offset 0
  tdec(0, 3, 3, "0002 0004 00000001 0004 00000002", 2);
  tdec(0, 8, 3, "00000001 00000008 ffffffffffffffff");
  tdec(0, 12, 3, "00000001 00000010 00000000000040000000000000000000");
  tdec(2, 5, 0, "00000001 00000008 0000000000000001 00000001 02");

  const auto large = LargeDomain();
  auto big = [&](uint8_t shape, uint32_t count, uint8_t nulls, uint32_t text_len) {
    LargeSpec s;
    s.shape = shape;
    s.count = count;
    s.null_pct = nulls;
    s.text_len = text_len;
    s.seed = 42;
    s.version = 4;
    seeds.push_back({"cql_encode_large", CorpusForm(large, LargeInput{s, BuildLarge(s)})});
  };
  big(0, 500'000, 0, 0);  // list<int> of 500,000: 4,000,004 bytes
  big(0, 500'000, 33, 0);
  big(3, 100'000, 10, 100);     // map<int, text>
  big(5, 50'000, 5, 40);        // list<udt>
  big(6, 500'000, 0, 200'000);  // udt with two 500 KB text fields and a 500 KB blob
  // Every shape within the fuzz target's max_len (32 bytes: LargeWork <= 121 units,
  // fuzz/limits.tsv): 8 elements with 8-byte texts.
  for (uint8_t shape = 0; shape < kLargeShapes; ++shape) big(shape, 8, 33, 8);
  return seeds;
}

TEST(CqlCorpus, HandPickedSeedsArePresent) {
  const bool write = std::getenv("SERDIFF_WRITE_CQL_SEEDS") != nullptr;
  for (const Seed& s : HandPickedSeeds()) {
    const std::string dir = absl::StrCat(SERDIFF_CORPUS_DIR, "/", s.target);
    const std::string path = absl::StrCat(dir, "/", harness::Sha1Hex(s.bytes));
    if (write) {
      ASSERT_TRUE(harness::WriteCorpusFile(dir, s.bytes).ok()) << path;
    }
    EXPECT_TRUE(std::filesystem::exists(path))
        << "missing seed " << path << " (run with SERDIFF_WRITE_CQL_SEEDS=1)";
  }
}

}  // namespace
}  // namespace serdiff::targets::cql
