// Golden vectors from a real implementation: oracles/pymongo/bson_vectors.tsv was written by
// oracles/pymongo/bson_golden_vectors.py with Debian's python3-bson (pymongo's bson package). For
// every vector, serdiff must accept the bytes (optimized and reference validators), decode them and
// re-encode exactly the same bytes with the optimized and the reference encoder; datetime
// vectors built from a civil time are also encoded from that civil time (the timestamp family's
// floor conversion must give pymongo's milliseconds). Together the vectors cover all 21 types.
#include <gtest/gtest.h>

#include <fstream>
#include <set>
#include <string>
#include <vector>

#include "absl/strings/escaping.h"
#include "absl/strings/match.h"
#include "absl/strings/numbers.h"
#include "absl/strings/str_split.h"
#include "reference/bson/bson_ref.h"
#include "serdiff/bson/codec.h"

namespace serdiff::bson {
namespace {

struct Vector {
  std::string name, how, bytes, extra;
};

std::vector<Vector> LoadVectors() {
  std::vector<Vector> out;
  std::ifstream in(std::string(SERDIFF_CORPUS_DIR) + "/../oracles/pymongo/bson_vectors.tsv");
  EXPECT_TRUE(in.good()) << "oracles/pymongo/bson_vectors.tsv is missing";
  std::string line;
  while (std::getline(in, line)) {
    if (line.empty() || line[0] == '#') continue;
    std::vector<std::string> f = absl::StrSplit(line, '\t');
    EXPECT_EQ(f.size(), 4u) << line;
    if (f.size() != 4) continue;
    out.push_back({f[0], f[1], absl::HexStringToBytes(f[2]), f[3]});
  }
  return out;
}

void CollectTypes(const std::vector<Element>& els, std::set<Type>* seen) {
  for (const Element& e : els) {
    seen->insert(e.value.type);
    CollectTypes(e.value.children, seen);
  }
}

TEST(BsonGolden, SerdiffReproducesPymongoBytes) {
  const std::vector<Vector> vectors = LoadVectors();
  ASSERT_GE(vectors.size(), 40u);
  std::set<Type> seen;
  for (const Vector& v : vectors) {
    SCOPED_TRACE(v.name);
    EXPECT_TRUE(Validate(v.bytes).ok()) << Validate(v.bytes);
    EXPECT_TRUE(ref::bson::Validate(v.bytes).ok());
    const absl::StatusOr<Document> doc = Decode(v.bytes);
    ASSERT_TRUE(doc.ok()) << doc.status();
    CollectTypes(doc->elements, &seen);
    const absl::StatusOr<std::string> opt = Encode(*doc);
    const absl::StatusOr<std::string> ref = ref::bson::Encode(*doc);
    ASSERT_TRUE(opt.ok() && ref.ok());
    EXPECT_EQ(absl::BytesToHexString(*opt), absl::BytesToHexString(v.bytes));
    EXPECT_EQ(absl::BytesToHexString(*ref), absl::BytesToHexString(v.bytes));
    if (absl::StartsWith(v.extra, "civil=")) {
      std::vector<std::string> f = absl::StrSplit(v.extra.substr(6), '-');
      ASSERT_EQ(f.size(), 7u);
      int32_t x[7];
      for (int i = 0; i < 7; ++i) ASSERT_TRUE(absl::SimpleAtoi(f[i], &x[i]));
      Document civil;
      civil.elements.push_back(
          Element{"t", DateTimeCivil({x[0], x[1], x[2], x[3], x[4], x[5], x[6]})});
      EXPECT_EQ(absl::BytesToHexString(*Encode(civil)), absl::BytesToHexString(v.bytes));
      EXPECT_EQ(absl::BytesToHexString(*ref::bson::Encode(civil)), absl::BytesToHexString(v.bytes));
    }
  }
  EXPECT_EQ(seen.size(), 21u) << "the vectors must cover every BSON 1.1 element type";
}

}  // namespace
}  // namespace serdiff::bson
