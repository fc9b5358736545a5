// The custom mutator's length lies (harness/length_lies.h), byte for byte.
#include "harness/length_lies.h"

#include <cstdint>
#include <string>
#include <vector>

#include <gtest/gtest.h>

namespace serdiff::harness {
namespace {

TEST(LengthLies, FourByteFieldLies) {
  EXPECT_EQ(LengthLies(4, 10),
            (std::vector<uint64_t>{0, 0xffffffffu, 0xfffffffeu, 11, 0x7fffffffu}));
}

TEST(LengthLies, TwoAndOneByteFieldsAreTruncatedAndDeduplicated) {
  EXPECT_EQ(LengthLies(2, 3), (std::vector<uint64_t>{0, 0xffff, 0xfffe, 4, 0x7fff}));
  // remaining + 1 = 256 truncates to 0, already there.
  EXPECT_EQ(LengthLies(1, 255), (std::vector<uint64_t>{0, 0xff, 0xfe, 0x7f}));
}

TEST(LengthLies, RewritesABigEndianIntAndKeepsTheBody) {
  // CQL [int] 3 then 3 body bytes; lie 3 = remaining + 1 = 4.
  uint8_t d[16] = {0, 0, 0, 3, 'a', 'b', 'c'};
  const size_t n = TellLengthLie(d, 7, sizeof d, 0, {4, true}, 3, 0);
  EXPECT_EQ(n, 7u);
  EXPECT_EQ(std::string(reinterpret_cast<char*>(d), n), std::string("\0\0\0\4abc", 7));
}

TEST(LengthLies, LittleEndianMinusTwoWithTruncatedBody) {
  uint8_t d[16] = {9, 4, 0, 0, 0, 'w', 'x', 'y', 'z'};
  const size_t n = TellLengthLie(d, 9, sizeof d, 1, {4, false}, 2, 1);
  EXPECT_EQ(n, 7u);  // field at 1..4, body halved from 4 to 2 bytes
  EXPECT_EQ(std::string(reinterpret_cast<char*>(d), n), std::string("\x09\xfe\xff\xff\xffwx", 7));
}

TEST(LengthLies, DoubledBodyNeverPassesMaxSize) {
  uint8_t d[8] = {0, 2, 'p', 'q', 'r'};
  const size_t n = TellLengthLie(d, 5, sizeof d, 0, {2, true}, 0, 2);
  EXPECT_EQ(n, 8u);  // 3 body bytes, only 3 more fit
  EXPECT_EQ(std::string(reinterpret_cast<char*>(d), n), std::string("\0\0pqrpqr", 8));
}

TEST(LengthLies, AFieldThatDoesNotFitIsLeftAlone) {
  uint8_t d[4] = {1, 2, 3, 4};
  EXPECT_EQ(TellLengthLie(d, 3, sizeof d, 1, {4, true}, 0, 0), 3u);
  EXPECT_EQ(d[1], 2);
}

}  // namespace
}  // namespace serdiff::harness
