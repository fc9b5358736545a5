// Every family's wire-edge table (harness/wire_edges.h), expanded: each derived input decodes
// or fails at exactly the offset the table gives, in the optimized decoder and in the
// reference alike (issue 22, kinds 1-3: lengths that must equal something, minimums,
// reserved bits). Plus the expansion itself, on a made-up table.
#include "harness/wire_edges.h"

#include <set>
#include <string>

#include <gtest/gtest.h>

#include "absl/strings/str_cat.h"
#include "harness/hex.h"
#include "serdiff/common/error_offset.h"
#include "targets/families.h"

namespace serdiff::harness {
namespace {

std::string Verdict(const absl::Status& s) {
  if (s.ok()) return "decodes";
  const auto off = ErrorOffset(s);
  return off ? absl::StrCat("error at ", *off)
             : absl::StrCat("error without offset: ", s.ToString());
}

std::string Expected(int64_t offset) {
  return offset < 0 ? "decodes" : absl::StrCat("error at ", offset);
}

TEST(WireEdges, EveryCaseOfEveryFamilyFailsWhereItsTableSays) {
  const auto& tables = targets::AllTargets().wire_edges();
  std::set<std::string> families;
  for (const WireEdgeTable& t : tables) {
    families.insert(t.family);
    ASSERT_TRUE(!t.optimized.empty() && t.reference) << t.family;
    for (const WireCase& c : ExpandWireEdges(t.fields)) {
      const std::string want = Expected(c.offset);
      int judged = 0;
      for (const auto& path : t.optimized) {
        const absl::Status s = path.run(c.context, c.bytes);
        if (s.code() == absl::StatusCode::kUnimplemented) continue;
        ++judged;
        EXPECT_EQ(Verdict(s), want) << t.family << ", " << path.name << ": " << c.name << " ["
                                    << c.context << "] " << Hex(c.bytes, 200);
      }
      EXPECT_GE(judged, 1) << t.family << ": no optimized path handles " << c.name;
      EXPECT_EQ(Verdict(t.reference(c.context, c.bytes)), want)
          << t.family << ", reference: " << c.name << " [" << c.context << "] "
          << Hex(c.bytes, 200);
    }
  }
  // The families whose formats have length, minimum or reserved-bit rules.
  for (const char* f : {"bson", "cql", "mutation"}) {
    EXPECT_EQ(families.count(f), 1u) << "no wire-edge table for " << f;
  }
}

TEST(WireEdges, ExpansionEditsOnlyTheField) {
  WireField eq;
  eq.field = "n";
  eq.kind = EdgeRule::kEquals;
  eq.base = Unhex("aa 0102 bb");
  eq.at = 1;
  eq.width = 2;
  eq.big_endian = true;
  eq.below = 1;
  eq.above = 3;
  WireField min = eq;
  min.kind = EdgeRule::kAtLeast;
  min.big_endian = false;  // 0x0201
  WireField bits;
  bits.field = "flags";
  bits.kind = EdgeRule::kReservedZero;
  bits.base = Unhex("10");
  bits.reserved = 0xa0;
  bits.above = 0;
  const auto cases = ExpandWireEdges({eq, min, bits});
  ASSERT_EQ(cases.size(), 8u);
  EXPECT_EQ(Hex(cases[0].bytes), "aa 01 02 bb");
  EXPECT_EQ(cases[0].offset, -1);
  EXPECT_EQ(Hex(cases[1].bytes), "aa 01 01 bb");
  EXPECT_EQ(cases[1].offset, 1);
  EXPECT_EQ(Hex(cases[2].bytes), "aa 01 03 bb");
  EXPECT_EQ(cases[2].offset, 3);
  EXPECT_EQ(Hex(cases[4].bytes), "aa 00 02 bb");  // 0x0201 - 1, little-endian
  EXPECT_EQ(cases[4].name, "n: minimum - 1 (512)");
  EXPECT_EQ(Hex(cases[6].bytes), "30");
  EXPECT_EQ(cases[6].name, "flags: reserved bit 0x20 set");
  EXPECT_EQ(Hex(cases[7].bytes), "90");
  EXPECT_EQ(cases[7].offset, 0);
}

TEST(WireEdgesDeathTest, AMalformedTableIsAProgrammingError) {
  WireField f;
  f.field = "past";
  f.base = Unhex("01");
  f.at = 1;
  EXPECT_DEATH(ExpandWireEdges({f}), "field past the base");
  f.at = 0;
  f.kind = EdgeRule::kReservedZero;
  f.reserved = 0x01;
  EXPECT_DEATH(ExpandWireEdges({f}), "a reserved bit is set in the base");
}

}  // namespace
}  // namespace serdiff::harness
