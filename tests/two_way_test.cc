// The shared two-way visitor (harness/two_way.h) and edge tables (harness/edges.h): exact
// corpus bytes for a hand-written visitor, and the boundaries every family relies on.
#include <gtest/gtest.h>

#include <algorithm>
#include <cstdint>
#include <limits>
#include <set>
#include <string>
#include <vector>

#include "absl/strings/str_cat.h"
#include "harness/edges.h"
#include "harness/two_way.h"

namespace serdiff::harness {
namespace {

struct Point {
  bool wide = false;
  int32_t x = 0;
  uint16_t y = 0;
  std::string name;
  std::string rest;
  bool operator==(const Point&) const = default;
};

Domain<Point> PointDomain() {
  return TwoWayDomain<Point>(
      "point", rc::gen::just(Point{}),
      [](auto& io, Point& p) {
        io.Bool(p.wide);
        if (p.wide) {
          io.Int(p.x);
        } else {
          io.Int(p.x, int32_t{-1}, int32_t{200});
        }
        io.Int(p.y);
        io.Str(p.name, 10);
        io.Rest(p.rest);
      },
      [](const Point& p) { return p.name; });
}

TEST(TwoWay, WriterWritesExactlyWhatTheReaderReads) {
  const Domain<Point> d = PointDomain();
  const Point p{false, 7, 0x1234, "ab", "zz"};
  FuzzInputWriter w;
  d.encode(p, w);
  const std::string bytes = w.Finish();
  // The byte strings go to the front, the integers to the back, which FDP reads from the last
  // byte: the bool, then x - (-1) = 8 in one byte, then y in two bytes, high byte first.
  ASSERT_GE(bytes.size(), 4u);
  EXPECT_EQ(static_cast<uint8_t>(bytes[bytes.size() - 1]), 0);     // wide = false
  EXPECT_EQ(static_cast<uint8_t>(bytes[bytes.size() - 2]), 8);     // x = 7 in [-1, 200]
  EXPECT_EQ(static_cast<uint8_t>(bytes[bytes.size() - 3]), 0x12);  // y, high byte first
  EXPECT_EQ(static_cast<uint8_t>(bytes[bytes.size() - 4]), 0x34);
  FuzzedDataProvider fdp(reinterpret_cast<const uint8_t*>(bytes.data()), bytes.size());
  EXPECT_EQ(d.decode(fdp), p);
  const Point wide{true, std::numeric_limits<int32_t>::min(), 0, "", "\xff"};
  FuzzInputWriter w2;
  d.encode(wide, w2);
  const std::string b2 = w2.Finish();
  FuzzedDataProvider fdp2(reinterpret_cast<const uint8_t*>(b2.data()), b2.size());
  EXPECT_EQ(d.decode(fdp2), wide);
}

TEST(TwoWay, ReaderFillsZerosWhenBytesRunOut) {
  const Domain<Point> d = PointDomain();
  FuzzedDataProvider fdp(nullptr, 0);
  EXPECT_EQ(d.decode(fdp), (Point{false, -1, 0, "", ""}));  // x = lo when no bytes remain
}

bool Has(const std::vector<int64_t>& v, int64_t x) {
  return std::binary_search(v.begin(), v.end(), x);
}
bool HasU(const std::vector<uint64_t>& v, uint64_t x) {
  return std::binary_search(v.begin(), v.end(), x);
}

TEST(Edges, SignedTableHoldsEveryKindOfBoundary) {
  const std::vector<int64_t> e = EdgeInt64();
  ASSERT_TRUE(std::is_sorted(e.begin(), e.end()));
  ASSERT_EQ(std::adjacent_find(e.begin(), e.end()), e.end());
  for (int64_t x : {std::numeric_limits<int64_t>::min(),
                    std::numeric_limits<int64_t>::min() + 1,
                    std::numeric_limits<int64_t>::max(),
                    int64_t{0},
                    int64_t{-1},
                    int64_t{1},
                    int64_t{63},
                    int64_t{64},
                    int64_t{-65},  // zigzag 7-bit
                    int64_t{127},
                    int64_t{128},
                    int64_t{-129},  // signed byte
                    int64_t{16383},
                    int64_t{16384},  // 2^14
                    (int64_t{1} << 62) - 1,
                    int64_t{1} << 62,
                    -(int64_t{1} << 62) - 1,
                    int64_t{9},
                    int64_t{10},
                    int64_t{99},
                    int64_t{100},
                    int64_t{-1000},
                    int64_t{999999999999999999},
                    int64_t{1000000000000000000}}) {
    EXPECT_TRUE(Has(e, x)) << x;
  }
}

TEST(Edges, UnsignedTableHoldsEveryKindOfBoundary) {
  const std::vector<uint64_t> e = EdgeUint64();
  ASSERT_TRUE(std::is_sorted(e.begin(), e.end()));
  for (uint64_t x : {uint64_t{0}, uint64_t{126}, uint64_t{127}, uint64_t{128}, uint64_t{255},
                     uint64_t{256}, uint64_t{1} << 56, (uint64_t{1} << 63) - 1, uint64_t{1} << 63,
                     uint64_t{9999999999999999999u}, uint64_t{10000000000000000000u},
                     std::numeric_limits<uint64_t>::max()}) {
    EXPECT_TRUE(HasU(e, x)) << x;
  }
}

// Every boundary of every kind, each with its neighbours, and nothing else: the exact size of
// each table is the count of its distinct members (a lost group, e.g. 2^21..2^49, fails here).
TEST(Edges, EveryBoundaryOfEachTableWithItsNeighbours) {
  const std::vector<uint64_t> u = EdgeUint64();
  std::set<uint64_t> want_u = {0, 1, 2, 63, 64, ~uint64_t{1}, ~uint64_t{0}};
  for (int k = 1; k <= 9; ++k) {  // every LEB128 length boundary, 2^7 .. 2^63
    const uint64_t b = uint64_t{1} << (7 * k);
    for (uint64_t x : {b - 2, b - 1, b, b + 1}) {
      EXPECT_TRUE(HasU(u, x)) << "2^" << 7 * k << " " << x;
      want_u.insert(x);
    }
  }
  for (int k = 1; k <= 7; ++k) {
    const uint64_t b = uint64_t{1} << (8 * k);
    for (uint64_t x : {b - 1, b, b + 1}) {
      EXPECT_TRUE(HasU(u, x)) << "2^" << 8 * k << " " << x;
      want_u.insert(x);
    }
  }
  for (uint64_t x : {(uint64_t{1} << 63) - 1, uint64_t{1} << 63, (uint64_t{1} << 63) + 1}) {
    EXPECT_TRUE(HasU(u, x)) << x;
    want_u.insert(x);
  }
  uint64_t p = 1;
  for (int k = 1; k <= 19; ++k) {
    p *= 10;
    for (uint64_t x : {p - 1, p, p + 1}) {
      EXPECT_TRUE(HasU(u, x)) << "10^" << k << " " << x;
      want_u.insert(x);
    }
  }
  EXPECT_EQ(u.size(), want_u.size());

  const std::vector<int64_t> s = EdgeInt64();
  std::set<int64_t> want_s = {0,
                              1,
                              -1,
                              2,
                              -2,
                              std::numeric_limits<int64_t>::min(),
                              std::numeric_limits<int64_t>::min() + 1,
                              std::numeric_limits<int64_t>::max(),
                              std::numeric_limits<int64_t>::max() - 1,
                              -(int64_t{1} << 52) - 1};
  auto around = [&](int64_t b, const std::string& what) {
    for (int64_t x : {b - 1, b, b + 1, -b - 1, -b, -b + 1}) {
      EXPECT_TRUE(Has(s, x)) << what << " " << x;
      want_s.insert(x);
    }
  };
  for (int k = 1; k <= 9; ++k) {
    around(int64_t{1} << (7 * k - 1), absl::StrCat("zigzag of 2^", 7 * k));
    if (k <= 8) around(int64_t{1} << (7 * k), absl::StrCat("2^", 7 * k));
  }
  for (int k = 1; k <= 7; ++k) around(int64_t{1} << (8 * k - 1), absl::StrCat("2^", 8 * k - 1));
  around(int64_t{1} << 62, "2^62");
  int64_t q = 1;
  for (int k = 1; k <= 18; ++k) {
    q *= 10;
    around(q, absl::StrCat("10^", k));
  }
  EXPECT_EQ(s.size(), want_s.size());
}

// The uniform part draws from [lo, hi], wherever that range lies: a range below zero gets its
// share (weight 3 of 12), not values from [0, hi - lo].
TEST(Edges, BiasedGeneratorsUniformPartIsTheRangeItself) {
  const rc::Gen<int64_t> g = EdgeBiased<int64_t>({0}, -1000000, -900000);
  int in_range = 0;
  for (uint64_t seed = 0; seed < 2000; ++seed) {
    const int64_t v = g(rc::Random(seed), 50).value();
    if (v >= -1000000 && v <= -900000) ++in_range;
  }
  EXPECT_GT(in_range, 300);
}

TEST(Edges, BiasedGeneratorHitsEdgesAndStaysAbleToLeaveTheRange) {
  const rc::Gen<int64_t> g = EdgeBiased<int64_t>({-5, 5}, 0, 10);
  int edges = 0, outside = 0;
  for (uint64_t seed = 0; seed < 2000; ++seed) {
    const int64_t v = g(rc::Random(seed), 50).value();
    if (v == -5 || v == 5) ++edges;
    if (v < 0 || v > 10) ++outside;
  }
  EXPECT_GT(edges, 400);    // weight 4 of 12 on the edges alone
  EXPECT_GT(outside, 100);  // -5 and its nudges, small values, any int64
}

}  // namespace
}  // namespace serdiff::harness
