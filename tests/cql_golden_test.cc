// Golden vectors from a real implementation: oracles/python_cassandra/cql_vectors.tsv was written
// by oracles/python_cassandra/cql_golden_vectors.py driving the DataStax python driver 3.25 (Debian
// python3-cassandra). Every vector must hold for both serdiff codecs: the encoder produces the
// driver's bytes and the decoder reads them back, except where the vector names an accepted
// divergence (oracles/python_cassandra/divergences.h) - and then the difference must be exactly
// that one.
#include <gtest/gtest.h>

#include <fstream>
#include <map>
#include <set>
#include <sstream>
#include <string>
#include <vector>

#include "absl/strings/numbers.h"
#include "absl/strings/str_cat.h"
#include "absl/strings/str_split.h"
#include "harness/hex.h"
#include "oracles/python_cassandra/divergences.h"
#include "reference/cql/codec_ref.h"
#include "serdiff/cql/codec.h"
#include "serdiff/cql/literal.h"
#include "targets/cql/domain.h"

namespace serdiff::cql {
namespace {

namespace ref = serdiff::ref::cql;
using harness::CompactHex;
using harness::Unhex;
using targets::cql::ExpectedDecode;
using targets::cql::ReadAsCassandra;

struct Vector {
  int line = 0;
  char kind = 'E';  // E: the driver encoded value -> bytes; D: it decoded bytes -> value
  int version = 4;
  std::string type_text;
  Type type;
  std::string value_text;
  Value value;
  std::string bytes;
  std::string divergence;  // "-" when none

  std::string Where() const {
    return absl::StrCat("vectors.tsv:", line, ": ", std::string(1, kind), " v", version, " ",
                        type_text, " ", value_text, " ", CompactHex(bytes), " ", divergence);
  }
};

const std::vector<Vector>& Vectors() {
  static const auto* vectors = [] {
    auto* out = new std::vector<Vector>;
    std::ifstream in(std::string(SERDIFF_CORPUS_DIR) +
                     "/../oracles/python_cassandra/cql_vectors.tsv");
    EXPECT_TRUE(in.good()) << "oracles/python_cassandra/cql_vectors.tsv is missing";
    std::string line;
    int n = 0;
    while (std::getline(in, line)) {
      ++n;
      if (line.empty() || line[0] == '#') continue;
      std::vector<std::string> f = absl::StrSplit(line, '\t');
      EXPECT_EQ(f.size(), 6u) << "line " << n;
      if (f.size() != 6) continue;
      Vector v;
      v.line = n;
      v.kind = f[0].empty() ? '?' : f[0][0];
      EXPECT_TRUE(absl::SimpleAtoi(f[1], &v.version)) << "line " << n;
      v.type_text = f[2];
      EXPECT_TRUE(ParseType(f[2], &v.type).ok()) << "line " << n << ": " << f[2];
      v.value_text = f[3];
      const absl::Status st = ParseValue(v.type, f[3], &v.value);
      EXPECT_TRUE(st.ok()) << "line " << n << ": " << st;
      v.bytes = Unhex(f[4]);
      v.divergence = f[5];
      out->push_back(std::move(v));
    }
    return out;
  }();
  return *vectors;
}

void ExpectEncodes(const Type& t, const Value& v, int version, const std::string& want,
                   const std::string& where) {
  absl::StatusOr<std::string> opt = Serialize(t, v, version);
  absl::StatusOr<std::string> rf = ref::Serialize(t, v, version);
  ASSERT_TRUE(opt.ok()) << where << "\n" << opt.status();
  ASSERT_TRUE(rf.ok()) << where << "\n" << rf.status();
  EXPECT_EQ(CompactHex(*opt), CompactHex(want)) << where;
  EXPECT_EQ(CompactHex(*rf), CompactHex(want)) << where;
  absl::StatusOr<size_t> n = SerializedSize(t, v, version);
  ASSERT_TRUE(n.ok()) << where;
  EXPECT_EQ(*n, want.size()) << where;
}

// `as_driver`: `want` is what the driver decoded (missing trailing tuple/UDT items as null), and
// the decoders' values are compared as Cassandra reads them (ReadAsCassandra).
void ExpectDecodesTo(const Type& t, const std::string& bytes, int version, const Value& want,
                     const std::string& where, DecodeOptions options = {}, bool as_driver = false) {
  absl::StatusOr<Value> opt = Deserialize(t, bytes, version, options);
  absl::StatusOr<Value> rf = ref::Deserialize(t, bytes, version, options);
  if (as_driver && opt.ok()) opt = ReadAsCassandra(t, *opt);
  if (as_driver && rf.ok()) rf = ReadAsCassandra(t, *rf);
  ASSERT_TRUE(opt.ok()) << where << "\n" << opt.status();
  ASSERT_TRUE(rf.ok()) << where << "\n" << rf.status();
  EXPECT_EQ(FormatValue(t, *opt), FormatValue(t, want)) << where;
  EXPECT_EQ(FormatValue(t, *rf), FormatValue(t, want)) << where;
  EXPECT_TRUE(*opt == want) << where;
}

void ExpectEncodeRejected(const Vector& g) {
  EXPECT_FALSE(Serialize(g.type, g.value, g.version).ok()) << g.Where();
  EXPECT_FALSE(ref::Serialize(g.type, g.value, g.version).ok()) << g.Where();
}

void ExpectDecodeRejected(const Vector& g, DecodeOptions options = {}) {
  EXPECT_FALSE(Deserialize(g.type, g.bytes, g.version, options).ok()) << g.Where();
  EXPECT_FALSE(ref::Deserialize(g.type, g.bytes, g.version, options).ok()) << g.Where();
}

// Every null element of a list/set/map (at any depth) replaced by empty: what the driver
// writes for None.
Value NullElementsAsEmpty(const Type& t, const Value& v) {
  if (v.shape() != Value::Shape::kItems && v.shape() != Value::Shape::kPairs) return v;
  const bool collection = IsCollection(t.kind);
  std::vector<Value> items;
  for (size_t i = 0; i < v.items().size(); ++i) {
    const Type& it = t.kind == Kind::kMap ? t.params[i % 2]
                     : collection         ? t.params[0]
                                          : t.params[i];
    const Value& item = v.items()[i];
    items.push_back(collection && item.is_null() ? Value::Empty() : NullElementsAsEmpty(it, item));
  }
  return v.shape() == Value::Shape::kPairs ? Value::Pairs(std::move(items))
                                           : Value::Items(std::move(items));
}

TEST(CqlGolden, HundredsOfVectorsCoverEveryTypeAndVersion) {
  const auto& vs = Vectors();
  EXPECT_GE(vs.size(), 300u);
  std::set<std::string> kinds;
  std::set<int> versions;
  for (const Vector& v : vs) {
    kinds.insert(std::string(KindName(v.type.kind)));
    for (const Type& p : v.type.params) kinds.insert(std::string(KindName(p.kind)));
    versions.insert(v.version);
  }
  for (Kind k : kNativeKinds) EXPECT_TRUE(kinds.count(std::string(KindName(k)))) << KindName(k);
  for (Kind k : kCompositeKinds) {
    EXPECT_TRUE(kinds.count(std::string(KindName(k)))) << KindName(k);
  }
  EXPECT_EQ(versions, (std::set<int>{2, 3, 4, 5}));
}

TEST(CqlGolden, EncoderWritesTheDriversBytesAndDecoderReadsThemBack) {
  int checked = 0;
  for (const Vector& g : Vectors()) {
    if (g.divergence != "-") continue;
    const std::string where = g.Where();
    if (g.kind == 'E') {
      ExpectEncodes(g.type, g.value, g.version, g.bytes, where);
      ExpectDecodesTo(g.type, g.bytes, g.version, ExpectedDecode(g.type, g.value), where);
    } else {
      ExpectDecodesTo(g.type, g.bytes, g.version, g.value, where, {}, /*as_driver=*/true);
    }
    ++checked;
  }
  EXPECT_GE(checked, 300);
}

TEST(CqlGolden, DifferencesAreExactlyTheAcceptedDivergences) {
  std::map<std::string, int> seen;
  for (const oracle::python_cassandra::DriverDivergence& d :
       oracle::python_cassandra::kDriverDivergences) {
    seen[std::string(d.name)] = 0;
  }
  for (const Vector& g : Vectors()) {
    if (g.divergence == "-") continue;
    const std::string where = g.Where();
    ASSERT_TRUE(seen.count(g.divergence)) << "unlisted divergence: " << where;
    ++seen[g.divergence];
    const std::string& d = g.divergence;
    if (d == "none-element-as-empty") {
      // Not serdiff's bytes (v3+: FF FF FF FF where the driver wrote 00 00 00 00; v2: rejected),
      // but exactly serdiff's bytes once the nulls are empties.
      absl::StatusOr<std::string> ours = Serialize(g.type, g.value, g.version);
      EXPECT_TRUE(!ours.ok() || *ours != g.bytes) << where;
      ExpectEncodes(g.type, NullElementsAsEmpty(g.type, g.value), g.version, g.bytes, where);
    } else if (d == "date-int-is-raw") {
      ExpectEncodes(g.type, Value::Int(g.value.as_int() - (int64_t{1} << 31)), g.version, g.bytes,
                    where);
    } else if (d == "duration-sign-unchecked") {
      if (g.kind == 'E') ExpectEncodeRejected(g);
      ExpectDecodeRejected(g);
    } else if (d == "time-range-unchecked") {
      // Not written by serdiff (v4 6.16); read like Cassandra by default, rejected with the
      // strict flag.
      if (g.kind == 'E') ExpectEncodeRejected(g);
      ExpectDecodesTo(g.type, g.bytes, g.version, g.value, where, {}, g.kind == 'D');
      DecodeOptions strict;
      strict.require_time_in_day = true;
      ExpectDecodeRejected(g, strict);
    } else if (d == "empty-udt-reads-as-nulls") {
      ExpectDecodesTo(g.type, g.bytes, g.version, Value::Empty(), where);
      EXPECT_FALSE(g.value.is_empty()) << where;
    } else {
      ADD_FAILURE() << "no check for divergence " << d;
    }
  }
  for (const auto& [name, count] : seen) {
    EXPECT_GT(count, 0) << "listed divergence " << name << " has no vector";
  }
}

}  // namespace
}  // namespace serdiff::cql
