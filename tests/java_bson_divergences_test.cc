// java_bson's accepted divergences (targets/bson/divergences_java_bson.cc) on the answers the
// worker gave (oracles/java_bson, org.bson 3.6.3 from Debian 12's libmongodb-java, 2026-12-05):
// each message below is the worker's rejection text as serdiff received it.
#include <gtest/gtest.h>

#include <cstdint>
#include <string>

#include "absl/status/status.h"
#include "absl/strings/escaping.h"
#include "harness/target.h"
#include "targets/bson/divergences.h"

namespace serdiff::targets::bson {
namespace {

using harness::Output;

std::string Bytes(const char* hex) { return absl::HexStringToBytes(hex); }

Output Rejected(const std::string& message) {
  return absl::InvalidArgumentError("java_bson: " + message);
}

int64_t Allowance(const std::string& in, const Output& answer) {
  const auto heap = JavaBsonDecodeHeapDivergences();
  EXPECT_EQ(heap.size(), 1u);
  EXPECT_EQ(heap[0].impl, "java_bson");
  return heap[0].allowance(in, answer);
}

// The allowance is the length the library's own error names (what it allocated), plus an array
// header: a 13-byte document declaring a 33,554,432-byte binary (regression input
// corpus/bson_decode/regressions/ef9d0ffe25d32b51f09e4b53cb92ec8e76645b09, docs/peers.md)
// peaked at 33,557,248 B.
TEST(JavaBsonHeap, AllowanceIsTheLengthItsErrorNames) {
  const std::string binary = Bytes("0d00000005610000000002000000");
  EXPECT_EQ(Allowance(binary, Rejected("BsonSerializationException: While decoding a BSON "
                                       "document 33554432 bytes were required, but only 1 "
                                       "remain")),
            33554432 + 64);
  const std::string string = Bytes("0e0000000261000000000261000000");
  EXPECT_EQ(Allowance(string, Rejected("BsonSerializationException: While decoding a BSON "
                                       "document 33554431 bytes were required, but only 3 "
                                       "remain")),
            33554431 + 64);
  // A length over the worker's heap: OutOfMemoryError, the most one Java array asks.
  EXPECT_EQ(Allowance(binary, Rejected("OutOfMemoryError: Requested array size exceeds VM limit")),
            (int64_t{1} << 31) + 64);
  // Anything else: none. An acceptance, another rejection, a malformed number.
  EXPECT_EQ(Allowance(binary, Output(std::string("ok"))), 0);
  EXPECT_EQ(Allowance(binary, Rejected("BsonSerializationException: Found a BSON string that "
                                       "is not null-terminated")),
            0);
  EXPECT_EQ(Allowance(binary, Rejected("While decoding a BSON document x bytes were required, "
                                       "but only 1 remain")),
            0);
  EXPECT_EQ(Allowance(binary, Rejected("While decoding a BSON document -5 bytes were required, "
                                       "but only 1 remain")),
            0);
}

// The unchecked UTF-8: {"a": "\xe9"} is accepted by java_bson, rejected by serdiff; covered. The
// same answer on a document whose string runs past its element is not.
TEST(JavaBsonDecode, UncheckedUtf8IsCoveredAndNothingElse) {
  const auto divergences = JavaBsonDecodeDivergences();
  ASSERT_EQ(divergences.size(), 2u);
  const std::string e9 = Bytes("0e00000002610002000000e90000");
  const Output serdiff = absl::InvalidArgumentError("offset 11: ill-formed UTF-8");
  EXPECT_TRUE(divergences[0].applies(e9, serdiff, Output(e9)));
  const std::string runs_past = Bytes("0e00000002610003000000e90000");
  EXPECT_FALSE(divergences[0].applies(runs_past, serdiff, Output(runs_past)));
  EXPECT_FALSE(divergences[1].applies(runs_past, serdiff, Output(runs_past)));
}

}  // namespace
}  // namespace serdiff::targets::bson
