// Declines held at their edges, for what runs in this process: every compiled implementation's
// decline_edges (harness::DeclineEdge: libbson's API limits, the CPU tiers of the typed CQL
// encoder and of the value tree, the seconds round trip's identity) and the CQL interchange's
// declines (what the JSON sent to a worker or module cannot hold). A decline widened by one value
// takes an input out of the comparison without a verdict; each is one value from its edge here
// (mutants/*/decline_*). The workers' own declines are held by
// WorkerDeclines.EveryShippedWorkerHoldsItsDeclineEdges.
#include <gtest/gtest.h>

#include <cstdint>
#include <limits>
#include <string>

#include "harness/target.h"
#include "serdiff/cql/value.h"
#include "targets/cql/domain.h"
#include "targets/cql/interchange.h"
#include "targets/families.h"

namespace serdiff::targets {
namespace {

using serdiff::cql::Type;
using serdiff::cql::Value;

TEST(InProcessDeclines, EveryImplementationHoldsItsDeclineEdges) {
  size_t edges = 0;
  for (const auto& t : AllTargets().targets()) {
    for (const std::string& p : t->DeclineEdgeProblems(&edges)) {
      ADD_FAILURE() << t->name() << ": " << p;
    }
  }
  // libbson in bson_encode and bson_encode_packed (20 each), the five CPU tiers of
  // cql_typed_encode (9 each: portable, ssse3, avx2, avx512, avx512_emulated),
  // timestamp_seconds_roundtrip's identity (4), the varint CPU tiers (one each: the six encode
  // targets' buffer_portable and buffer_bmi2, the decoders' sse2, bmi2 and avx512 for LEB128,
  // sse2 and bmi2 for Fory, bmi2 for vint), and LEB128's avx512_emulated (3: the CPU, then its
  // byte cap at the cap and one past it), and the value tree's two forced tiers (portable,
  // avx512_emulated) in cql_encode_nested (8 each) and in cql_typed_encode (7 each).
  EXPECT_EQ(edges, 2 * 20u + 5 * 9u + 4u + 6 * 2u + 3u + 3u + 2u + 1u + 2 * 8u + 2 * 7u);
}

Type T(const std::string& text) {
  Type t;
  EXPECT_TRUE(serdiff::cql::ParseType(text, &t).ok()) << text;
  return t;
}

bool Declined(const absl::Status& st) { return harness::IsDeclined(st); }

// The CQL JSON value (cql.serialize's "value"): each decline one value past what it holds.
TEST(InProcessDeclines, CqlValueJsonAtItsEdges) {
  // A date is sent as the wire's day number, days + 2^31: the last days value whose day number is
  // an int64, and the first that is not.
  const int64_t last_day = std::numeric_limits<int64_t>::max() - (int64_t{1} << 31);
  absl::StatusOr<std::string> d = cql::CqlValueJson(T("date"), Value::Int(last_day));
  ASSERT_TRUE(d.ok()) << d.status();
  EXPECT_EQ(*d, "9223372036854775807");
  EXPECT_TRUE(Declined(cql::CqlValueJson(T("date"), Value::Int(last_day + 1)).status()));
  // Text: U+10FFFF is the last code point UTF-8 holds; F4 90 80 80 would be U+110000.
  absl::StatusOr<std::string> s = cql::CqlValueJson(T("text"), Value::Text("\xf4\x8f\xbf\xbf"));
  ASSERT_TRUE(s.ok()) << s.status();
  EXPECT_EQ(*s, "\"\xf4\x8f\xbf\xbf\"");
  EXPECT_TRUE(Declined(cql::CqlValueJson(T("text"), Value::Text("\xf4\x90\x80\x80")).status()));
  // A tuple of exactly its components is sent; one more is not.
  absl::StatusOr<std::string> tu =
      cql::CqlValueJson(T("tuple<int, int>"), Value::Tuple({Value::Int(1), Value::Int(2)}));
  ASSERT_TRUE(tu.ok()) << tu.status();
  EXPECT_EQ(*tu, "[1,2]");
  EXPECT_TRUE(
      Declined(cql::CqlValueJson(T("tuple<int, int>"),
                                 Value::Tuple({Value::Int(1), Value::Int(2), Value::Int(3)}))
                   .status()));
  // The quiet NaN is sent, a NaN with another payload is not.
  absl::StatusOr<std::string> n =
      cql::CqlValueJson(T("double"), Value::Double(std::numeric_limits<double>::quiet_NaN()));
  ASSERT_TRUE(n.ok()) << n.status();
  EXPECT_EQ(*n, "\"NaN\"");
}

// The list<int> form (a module's or a worker's int32 list): every int32 is held, one past either
// end is not.
TEST(InProcessDeclines, CqlInt32ListAtItsEdges) {
  const auto list = [](int64_t v) {
    cql::EncodeInput in;
    in.type = T("list<int>");
    in.value = Value::List({Value::Int(v), Value::Null()});
    return cql::CqlInt32List(in);
  };
  for (const int64_t v : {int64_t{std::numeric_limits<int32_t>::max()},
                          int64_t{std::numeric_limits<int32_t>::min()}}) {
    absl::StatusOr<harness::Int32List> l = list(v);
    ASSERT_TRUE(l.ok()) << v << ": " << l.status();
    ASSERT_EQ(l->values.size(), 2u);
    EXPECT_EQ(l->values[0], v);
    EXPECT_EQ(l->nulls, (std::vector<unsigned char>{0, 1}));
  }
  EXPECT_TRUE(Declined(list(int64_t{std::numeric_limits<int32_t>::max()} + 1).status()));
  EXPECT_TRUE(Declined(list(int64_t{std::numeric_limits<int32_t>::min()} - 1).status()));
}

}  // namespace
}  // namespace serdiff::targets
