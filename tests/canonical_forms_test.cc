// The canonical forms the specs prescribe, one test per rule, each through every serdiff
// encoder that writes the form (optimized and reference): where a format leaves a choice of
// bytes for one value, the encoders must write the one the spec (or the reference
// implementation the spec points at) writes. The expected bytes are derived here from the
// rule itself, not from the encoders. The BSON regex-options rule is
// BsonCanonical.RegexOptionsAreWrittenInAlphabeticalOrder (tests/bson_test.cc). Rules looked
// for and not found (docs/architecture.md, "Canonical forms"): a canonical NaN (neither CQL nor
// BSON prescribes one; Cassandra writes the raw bits), and an order of a mutation's header
// columns or rows (serdiff's mutation model takes them in the caller's order).
#include <bit>
#include <cstdint>
#include <string>
#include <utility>
#include <vector>

#include <gtest/gtest.h>

#include "absl/numeric/int128.h"
#include "harness/hex.h"
#include "reference/bson/bson_ref.h"
#include "reference/cql/codec_ref.h"
#include "reference/varint/varint_ref.h"
#include "serdiff/bson/codec.h"
#include "serdiff/cql/codec.h"
#include "serdiff/varint/varint.h"

namespace serdiff {
namespace {

using varint::Format;

// 2^(7k) - 1 and 2^(7k) for every k, plus 0, 1 and 2^64 - 1: where every varint's length
// changes.
std::vector<uint64_t> LengthBoundaries() {
  std::vector<uint64_t> v = {0, 1, ~uint64_t{0}};
  for (int k = 1; 7 * k < 64; ++k) {
    v.push_back((uint64_t{1} << (7 * k)) - 1);
    v.push_back(uint64_t{1} << (7 * k));
  }
  v.push_back(uint64_t{1} << 63);
  v.push_back((uint64_t{1} << 63) - 1);
  return v;
}

int BitLength(uint64_t v) { return 64 - std::countl_zero(v); }

// The shortest form of each format, from its definition:
//   LEB128 (protobuf encoding guide, "Base 128 Varints"): 7 bits a byte, so ceil(bits / 7),
//     at least 1; the encoders write no redundant 0x80 continuation bytes;
//   Fory varuint64 (apache/fory, "PVL"): the same for up to 8 bytes (56 bits), else 9;
//   Cassandra unsigned vint (VIntCoding.computeUnsignedVIntSize):
//     (639 - 9 * numberOfLeadingZeros(v | 1)) >> 6.
size_t MinimalLength(Format f, uint64_t v) {
  const int bits = BitLength(v);
  switch (f) {
    case Format::kLeb128:
      return bits == 0 ? 1 : static_cast<size_t>((bits + 6) / 7);
    case Format::kFory:
      return bits <= 56 ? (bits == 0 ? 1 : static_cast<size_t>((bits + 6) / 7)) : 9;
    case Format::kVInt:
      return static_cast<size_t>((639 - 9 * std::countl_zero(v | 1)) >> 6);
  }
  return 0;
}

// Every varint encoder (the batch tier, the single-value tier and the reference) writes every
// value in its shortest form, which reads back as the value.
TEST(CanonicalForms, VarintsAreWrittenInTheirShortestForm) {
  for (Format f : {Format::kLeb128, Format::kFory, Format::kVInt}) {
    for (uint64_t v : LengthBoundaries()) {
      const size_t want = MinimalLength(f, v);
      const std::string batch = varint::EncodeBatch(f, absl::Span<const uint64_t>(&v, 1));
      uint8_t one[16];
      const size_t single = static_cast<size_t>(varint::WriteToArray(f, v, one) - one);
      uint8_t ref[16];
      const size_t reference = static_cast<size_t>(ref::varint::WriteToArray(f, v, ref) - ref);
      EXPECT_EQ(batch.size(), want) << varint::FormatName(f) << " " << v;
      EXPECT_EQ(single, want) << varint::FormatName(f) << " " << v;
      EXPECT_EQ(reference, want) << varint::FormatName(f) << " " << v;
      EXPECT_EQ(varint::EncodedSize(f, v), want) << varint::FormatName(f) << " " << v;
      size_t at = 0;
      const auto back = varint::Read(f, absl::Span<const uint8_t>(one, single), &at);
      ASSERT_TRUE(back.ok()) << back.status();
      EXPECT_EQ(*back, v);
    }
  }
  // LEB128's shortest form has no trailing 0x80 group: 127 is 7f, 128 is 80 01, not 80 81 00.
  const uint64_t v128 = 128;
  EXPECT_EQ(
      harness::Hex(varint::EncodeBatch(Format::kLeb128, absl::Span<const uint64_t>(&v128, 1))),
      "80 01");
}

// The minimal big-endian two's complement of x: the fewest bytes n with
// -2^(8n-1) <= x < 2^(8n-1) (Java's BigInteger.toByteArray, which Cassandra's IntegerSerializer
// writes; CQL native protocol v4 section 6.23, varint: "a variable-length two's complement
// encoding of a signed integer", positive values with a most significant byte >= 0x80 padded
// with one 00 byte).
std::string MinimalTwosComplement(absl::int128 x) {
  int n = 1;
  while (n < 16) {
    const absl::int128 lim = absl::int128(1) << (8 * n - 1);
    if (x >= -lim && x < lim) break;
    ++n;
  }
  std::string out(static_cast<size_t>(n), '\0');
  const absl::uint128 u = static_cast<absl::uint128>(x);
  for (int i = 0; i < n; ++i) {
    out[static_cast<size_t>(n - 1 - i)] = static_cast<char>(static_cast<uint8_t>(u >> (8 * i)));
  }
  return out;
}

std::vector<absl::int128> TwosComplementBoundaries() {
  std::vector<absl::int128> v = {0, 1, -1};
  for (int k = 7; k <= 119; k += 8) {  // +-2^(8n-1) and one inside: where n changes
    const absl::int128 p = absl::int128(1) << k;
    for (absl::int128 x : {p - 1, p, p + 1, -p - 1, -p, -p + 1}) v.push_back(x);
  }
  return v;
}

// CQL varint: every encoder writes the minimal two's complement (one sign byte at most).
TEST(CanonicalForms, CqlVarintIsTheMinimalTwosComplement) {
  const cql::Type t = cql::Type::Native(cql::Kind::kVarint);
  for (absl::int128 x : TwosComplementBoundaries()) {
    const std::string want = MinimalTwosComplement(x);
    const cql::Value v = cql::Value::Varint(cql::BigInt::FromInt128(x));
    const auto opt = cql::Serialize(t, v, 4);
    const auto ref = ref::cql::Serialize(t, v, 4);
    ASSERT_TRUE(opt.ok() && ref.ok());
    EXPECT_EQ(harness::Hex(*opt), harness::Hex(want));
    EXPECT_EQ(harness::Hex(*ref), harness::Hex(want));
  }
  // The spec's own table (v4 section 6.23), through the encoders.
  const std::pair<int, const char*> table[] = {{0, "00"},      {1, "01"},      {127, "7f"},
                                               {128, "00 80"}, {129, "00 81"}, {-1, "ff"},
                                               {-128, "80"},   {-129, "ff 7f"}};
  for (const auto& [x, hex] : table) {
    const cql::Value v = cql::Value::Varint(cql::BigInt::FromInt64(x));
    EXPECT_EQ(harness::Hex(*cql::Serialize(t, v, 4)), hex) << x;
    EXPECT_EQ(harness::Hex(*ref::cql::Serialize(t, v, 4)), hex) << x;
  }
}

// CQL decimal (v4 section 6.6): a 4-byte big-endian scale, then the unscaled value as a
// varint, minimal as above.
TEST(CanonicalForms, CqlDecimalUnscaledIsTheMinimalTwosComplement) {
  const cql::Type t = cql::Type::Native(cql::Kind::kDecimal);
  for (absl::int128 x : TwosComplementBoundaries()) {
    cql::Decimal d;
    d.scale = -3;
    d.unscaled = cql::BigInt::FromInt128(x);
    const std::string want = harness::Unhex("fffffffd") + MinimalTwosComplement(x);
    const auto opt = cql::Serialize(t, cql::Value::FromDecimal(d), 4);
    const auto ref = ref::cql::Serialize(t, cql::Value::FromDecimal(d), 4);
    ASSERT_TRUE(opt.ok() && ref.ok());
    EXPECT_EQ(harness::Hex(*opt), harness::Hex(want));
    EXPECT_EQ(harness::Hex(*ref), harness::Hex(want));
  }
}

// CQL duration (native protocol v5, section 6 "duration": months, days and nanoseconds as
// signed [vint]s): each field in its shortest zigzag vint.
TEST(CanonicalForms, CqlDurationFieldsAreShortestVints) {
  const cql::Type t = cql::Type::Native(cql::Kind::kDuration);
  for (int64_t n : {int64_t{0}, int64_t{-1}, int64_t{63}, int64_t{-64}, int64_t{64}, int64_t{-65},
                    int64_t{8191}, int64_t{-8193}, INT64_MAX, INT64_MIN}) {
    // The three fields share a sign (Cassandra's DurationSerializer rejects mixed signs).
    cql::Duration d;
    d.months = n < 0 ? -1 : 1;
    d.days = n < 0 ? -1 : 1;
    d.nanos = n;
    const uint64_t zz = varint::EncodeZigZag64(n);
    const size_t nanos_len = MinimalLength(Format::kVInt, zz);
    const auto opt = cql::Serialize(t, cql::Value::FromDuration(d), 5);
    const auto ref = ref::cql::Serialize(t, cql::Value::FromDuration(d), 5);
    ASSERT_TRUE(opt.ok() && ref.ok());
    // months and days 1 -> zigzag 2 -> 02 (-1 -> 1 -> 01); then the nanoseconds.
    EXPECT_EQ(opt->size(), 2 + nanos_len) << n;
    EXPECT_EQ(harness::Hex(opt->substr(0, 2)), n < 0 ? "01 01" : "02 02") << n;
    EXPECT_EQ(*opt, *ref) << n;
  }
}

// CQL boolean (v4 section 6.4: "A value of 0 denotes false; any other value denotes true.
// (However, it is recommended that a value of 1 be used to represent true.)"): the encoders
// write 01, as Cassandra's BooleanSerializer does.
TEST(CanonicalForms, CqlTrueIsWrittenAs01) {
  const cql::Type t = cql::Type::Native(cql::Kind::kBoolean);
  for (bool b : {false, true}) {
    const auto opt = cql::Serialize(t, cql::Value::Bool(b), 4);
    const auto ref = ref::cql::Serialize(t, cql::Value::Bool(b), 4);
    ASSERT_TRUE(opt.ok() && ref.ok());
    EXPECT_EQ(harness::Hex(*opt), b ? "01" : "00");
    EXPECT_EQ(harness::Hex(*ref), b ? "01" : "00");
  }
}

// BSON 1.1, "array": "The document for an array is a normal BSON document with integer values
// for the keys, starting with 0 and continuing sequentially". Both encoders write "0", "1",
// ..., "1099" whatever keys the model's children carry.
TEST(CanonicalForms, BsonArrayKeysAreTheIndexesInDecimal) {
  bson::Value arr;
  arr.type = bson::Type::kArray;
  for (int i = 0; i < 1100; ++i) {
    bson::Element e;
    e.key = "x";  // ignored
    e.value.type = bson::Type::kBool;
    e.value.i = 1;
    arr.children.push_back(e);
  }
  bson::Document doc;
  doc.elements.push_back({"a", arr});
  for (const auto& encoded : {bson::Encode(doc), ref::bson::Encode(doc)}) {
    ASSERT_TRUE(encoded.ok()) << encoded.status();
    const std::string& b = *encoded;
    // 4 (document length) + 1 (type 04) + "a\0" + 4 (array length): the first element.
    size_t at = 11;
    for (int i = 0; i < 1100; ++i) {
      ASSERT_LT(at, b.size());
      EXPECT_EQ(b[at], '\x08') << i;  // bool
      const size_t nul = b.find('\0', at + 1);
      ASSERT_NE(nul, std::string::npos);
      EXPECT_EQ(b.substr(at + 1, nul - at - 1), std::to_string(i));
      EXPECT_EQ(b[nul + 1], '\x01') << i;  // true is 0x01 (BSON 1.1: "\x01" boolean true)
      at = nul + 2;
    }
  }
}

}  // namespace
}  // namespace serdiff
