// BSON family: exact values and exact bytes (docs/bson.md). Bytes marked [pymongo] were
// produced by python3-bson 3.11 (Debian); the rest are derived by hand from the BSON spec.
#include <bson/bson.h>

#include <bit>
#include <charconv>
#include <cstring>
#include <limits>
#include <string>

#include "absl/strings/escaping.h"
#include "absl/strings/str_cat.h"
#include "gtest/gtest.h"
#include "harness/alloc_tracker.h"
#include "harness/report.h"
#include "harness/target.h"
#include "oracles/libbson/libbson.h"
#include "reference/bson/bson_ref.h"
#include "serdiff/bson/codec.h"
#include "serdiff/bson/int_format.h"
#include "serdiff/common/error_offset.h"
#include "targets/bson/divergences.h"
#include "targets/bson/domain.h"

namespace serdiff::bson {
namespace {

std::string Fmt64(int64_t v) {
  char buf[kMaxDecimalChars];
  return std::string(buf, FormatInt64(v, buf));
}
std::string FmtU64(uint64_t v) {
  char buf[kMaxDecimalChars];
  return std::string(buf, FormatUint64(v, buf));
}
std::string ToHex(const absl::StatusOr<std::string>& s) {
  return s.ok() ? absl::BytesToHexString(*s) : s.status().ToString();
}
int64_t OffsetOf(const absl::Status& st) { return ErrorOffset(st).value_or(-1); }

// ---- integer formatting ------------------------------------------------------------------

TEST(BsonIntFormat, Extremes) {
  EXPECT_EQ(Fmt64(std::numeric_limits<int64_t>::min()), "-9223372036854775808");
  EXPECT_EQ(Fmt64(std::numeric_limits<int64_t>::min()).size(), kMaxDecimalChars);
  EXPECT_EQ(Fmt64(std::numeric_limits<int64_t>::max()), "9223372036854775807");
  EXPECT_EQ(FmtU64(std::numeric_limits<uint64_t>::max()), "18446744073709551615");
  EXPECT_EQ(FmtU64(std::numeric_limits<uint64_t>::max()).size(), kMaxDecimalChars);
  EXPECT_EQ(Fmt64(0), "0");
  EXPECT_EQ(FmtU64(0), "0");
  EXPECT_EQ(Fmt64(-1), "-1");
  EXPECT_EQ(Fmt64(std::numeric_limits<int64_t>::min() + 1), "-9223372036854775807");
}

TEST(BsonIntFormat, PowersOfTenAndTwoAgainstReference) {
  std::vector<uint64_t> bases;
  for (uint64_t p = 1;; p *= 10) {
    bases.push_back(p);
    if (p > std::numeric_limits<uint64_t>::max() / 10) break;
  }
  for (int k = 0; k < 64; ++k) bases.push_back(uint64_t{1} << k);
  for (uint64_t b : bases) {
    for (int64_t d = -1; d <= 1; ++d) {
      const uint64_t u = b + static_cast<uint64_t>(d);
      EXPECT_EQ(FmtU64(u), ref::bson::FormatUint64(u)) << u;
      const auto s = static_cast<int64_t>(u);
      EXPECT_EQ(Fmt64(s), ref::bson::FormatInt64(s)) << s;
      const auto neg = static_cast<int64_t>(0 - u);  // unsigned: no overflow at INT64_MIN
      EXPECT_EQ(Fmt64(neg), ref::bson::FormatInt64(neg)) << neg;
    }
  }
}

TEST(BsonIntFormat, EveryIntegerInPlusMinusOneMillion) {
  for (int64_t v = -1000000; v <= 1000000; ++v) {
    const std::string ref = ref::bson::FormatInt64(v);
    ASSERT_EQ(Fmt64(v), ref);
    if (v >= 0) {
      ASSERT_EQ(FmtU64(static_cast<uint64_t>(v)), ref);
      ASSERT_EQ(DecimalDigits(static_cast<uint64_t>(v)), static_cast<int>(ref.size()));
    }
  }
}

// Every block the fixed-point formatter can write (n < 10^8, with and without leading zeros)
// against a decimal counter of 8 ASCII digits incremented alongside n.
TEST(BsonIntFormat, FixedPointBlocksAgainstCounter) {
  char counter[8];
  std::memset(counter, '0', sizeof counter);
  int first = 7;  // index of the counter's first significant digit
  char trimmed[kMaxDecimalChars + 8];
  char padded[8];
  for (uint32_t n = 0; n < 100000000; ++n) {
    if (n != 0) {
      int i = 7;
      while (counter[i] == '9') counter[i--] = '0';
      ++counter[i];
      if (i < first) first = i;
    }
    internal::Put8(n, padded);
    const size_t len = static_cast<size_t>(internal::PutUpTo8(n, trimmed) - trimmed);
    if (std::memcmp(padded, counter, 8) != 0 || len != static_cast<size_t>(8 - first) ||
        std::memcmp(trimmed, counter + first, len) != 0) {
      ADD_FAILURE() << n << ": Put8 " << std::string(padded, 8) << ", PutUpTo8 "
                    << std::string(trimmed, len) << ", want " << std::string(counter, 8);
      return;
    }
  }
}

// Both tiers on the blocks' boundaries in every position of a 20-digit value, and at the
// lengths where the top block changes from 1 to 4 digits.
TEST(BsonIntFormat, TiersAgreeAcrossBlockBoundaries) {
  std::vector<uint64_t> values;
  for (uint64_t p = 1;; p *= 10) {
    for (uint64_t m : {uint64_t{1}, uint64_t{9}, uint64_t{99999999}, uint64_t{10000001}})
      if (p <= std::numeric_limits<uint64_t>::max() / m) values.push_back(p * m);
    if (p > std::numeric_limits<uint64_t>::max() / 10) break;
  }
  values.insert(values.end(), {9999999999999999ull, 10000000000000000ull, 18446744073709551615ull,
                               10000000000000000000ull, 999999999999999999ull});
  for (uint64_t u0 : values) {
    for (int64_t d = -2; d <= 2; ++d) {
      const uint64_t u = u0 + static_cast<uint64_t>(d);
      char buf[kMaxDecimalChars];
      const std::string want = ref::bson::FormatUint64(u);
      EXPECT_EQ(std::string(buf, FormatUint64DigitPairs(u, buf)), want);
      EXPECT_EQ(FmtU64(u), want);
      const auto s = static_cast<int64_t>(u);
      EXPECT_EQ(std::string(buf, FormatInt64DigitPairs(s, buf)), ref::bson::FormatInt64(s));
      EXPECT_EQ(Fmt64(s), ref::bson::FormatInt64(s));
    }
  }
  EXPECT_EQ(FmtU64(10000000000000000ull), "10000000000000000");
  EXPECT_EQ(FmtU64(1000000000000000000ull), "1000000000000000000");
  EXPECT_EQ(Fmt64(-100000000), "-100000000");
  EXPECT_EQ(Fmt64(-1234567890123456789), "-1234567890123456789");
}

TEST(BsonArrayKeys, CounterMatchesSnprintf) {
  ArrayKeyCounter key;
  uint64_t bytes = 0;
  for (uint64_t i = 0; i <= 1000001; ++i, key.Next()) {
    ASSERT_EQ(key.key(), ref::bson::ArrayKey(i));
    bytes += key.size() + 1;
    ASSERT_EQ(ArrayKeyBytes(i + 1), bytes);
  }
  EXPECT_EQ(ArrayKeyBytes(0), 0u);
  EXPECT_EQ(ArrayKeyBytes(10), 20u);
  EXPECT_EQ(ArrayKeyBytes(11), 23u);  // key "10" takes 3 bytes with its NUL
}

// ---- encoder -----------------------------------------------------------------------------

Document One(std::string key, Value v) {
  Document d;
  d.elements.push_back(Element{std::move(key), std::move(v)});
  return d;
}

TEST(BsonEncode, ArrayOfTwoStrings) {
  const Document doc = One("a", Array({String("x"), String("y")}));
  const std::string want =
      harness::Unhex("1f000000 04 6100 17000000 02 3000 02000000 7800 02 3100 02000000 7900 00 00");
  EXPECT_EQ(ToHex(Encode(doc)), absl::BytesToHexString(want));
  EXPECT_EQ(ToHex(ref::bson::Encode(doc)), absl::BytesToHexString(want));
  EXPECT_EQ(ToHex(oracle::libbson::Encode(doc)), absl::BytesToHexString(want));
  EXPECT_EQ(*EncodedSize(doc), want.size());
}

TEST(BsonEncode, Int64Extremes) {
  const Document doc = One("a", Array({Int64(std::numeric_limits<int64_t>::min()),
                                       Int64(std::numeric_limits<int64_t>::max())}));
  const std::string want = harness::Unhex(
      "23000000 04 6100 1b000000 12 3000 0000000000000080 12 3100 ffffffffffffff7f 00 00");
  EXPECT_EQ(ToHex(Encode(doc)), absl::BytesToHexString(want));
  EXPECT_EQ(ToHex(ref::bson::Encode(doc)), absl::BytesToHexString(want));
}

TEST(BsonEncode, EleventhAndHundredFirstKeys) {
  std::vector<Value> items;
  for (int i = 0; i < 101; ++i) items.push_back(Int32(i));
  const absl::StatusOr<std::string> bytes = Encode(One("a", Array(items)));
  ASSERT_TRUE(bytes.ok());
  // elements 0..9: 1 + 2 + 4 = 7 bytes; the 11th starts at 4 + 1 + 2 + 4 + 10 * 7.
  const size_t eleventh = 4 + 1 + 2 + 4 + 10 * 7;
  EXPECT_EQ(absl::BytesToHexString(bytes->substr(eleventh, 8)), "103130000a000000");
  // elements 10..99 take 8 bytes each; the 101st has key "100".
  const size_t hundred_first = eleventh + 90 * 8;
  EXPECT_EQ(absl::BytesToHexString(bytes->substr(hundred_first, 9)),
            "1031303000"
            "64000000");
  EXPECT_EQ(*bytes, *ref::bson::Encode(One("a", Array(items))));
}

TEST(BsonEncode, DateTimesFromTheTimestampFamily) {
  EXPECT_EQ(*DateTimeMillisOf(DateTimeCivil({9999, 1, 1, 1, 1, 1, 999999})), 253370768461999);
  EXPECT_EQ(*DateTimeMillisOf(DateTimeCivil({1969, 12, 31, 23, 59, 59, 999500})), -1);
  const Document doc = One("t", DateTimeCivil({1969, 12, 31, 23, 59, 59, 999500}));
  const std::string want = harness::Unhex("10000000 09 7400 ffffffffffffffff 00");
  EXPECT_EQ(ToHex(Encode(doc)), absl::BytesToHexString(want));
  EXPECT_EQ(ToHex(ref::bson::Encode(doc)), absl::BytesToHexString(want));
  const Document late = One("t", DateTimeCivil({9999, 1, 1, 1, 1, 1, 999999}));
  // 253370768461999 = 0x0000E6707AA690AF
  EXPECT_EQ(ToHex(Encode(late)),
            absl::BytesToHexString(harness::Unhex("10000000 09 7400 af90a67a70e60000 00")));
  EXPECT_FALSE(Encode(One("t", DateTimeCivil({2001, 2, 29, 0, 0, 0, 0}))).ok());
}

TEST(BsonEncode, OldBinaryCarriesItsInnerLength) {
  Value bin = OfType(Type::kBinary);
  bin.subtype = kBinarySubtypeOld;
  bin.s = "\x01\x02";
  const std::string want = harness::Unhex("13000000 05 7800 06000000 02 02000000 0102 00");
  EXPECT_EQ(ToHex(Encode(One("x", bin))), absl::BytesToHexString(want));
  EXPECT_EQ(ToHex(ref::bson::Encode(One("x", bin))), absl::BytesToHexString(want));
  EXPECT_EQ(ToHex(oracle::libbson::Encode(One("x", bin))), absl::BytesToHexString(want));
}

TEST(BsonEncode, Errors) {
  EXPECT_EQ(Encode(One(std::string("a\0b", 3), Null())).status().code(),
            absl::StatusCode::kInvalidArgument);
  Value b = Bool(true);
  b.i = 2;
  EXPECT_FALSE(Encode(One("b", b)).ok());
  Value oid = OfType(Type::kObjectId);
  oid.s = "short";
  EXPECT_FALSE(Encode(One("o", oid)).ok());
  EXPECT_FALSE(ref::bson::Encode(One("o", oid)).ok());
}

// Peak heap of the optimized encoder on {a: [0, 1, ..., 999999]}: the output and nothing else
// (the document model is built before the scope).
TEST(BsonEncode, MillionElementArrayHeapIsOutputPlus4KiB) {
  Value arr = OfType(Type::kArray);
  arr.children.resize(1000000);
  for (int i = 0; i < 1000000; ++i) arr.children[i].value = Int32(i);
  const Document doc = One("a", std::move(arr));
  harness::PeakHeapScope scope;
  const absl::StatusOr<std::string> out = Encode(doc);
  const int64_t peak = scope.PeakBytes();
  ASSERT_TRUE(out.ok());
  // 4 + (1 + 2) + 4 + 10^6 * (1 + 4) + key bytes + 1 + 1
  EXPECT_EQ(out->size(), 4 + 3 + 4 + 5000000 + ArrayKeyBytes(1000000) + 2);
  EXPECT_LE(peak, static_cast<int64_t>(out->size()) + 4096);
  EXPECT_GE(peak, static_cast<int64_t>(out->size()));
  EXPECT_TRUE(Validate(*out).ok()) << Validate(*out);
  EXPECT_TRUE(oracle::libbson::Validate(*out).ok());
}

// ---- packed arrays ---------------------------------------------------------------------------

// Hand-derived: {a: packed int32 [1, -1]} is the document length 0x1b, element 04 "a" NUL,
// the array (length 0x13; 10 "0" NUL 01000000; 10 "1" NUL ffffffff; NUL), NUL.
TEST(BsonPacked, TwoInt32sExactBytes) {
  const std::vector<int32_t> v = {1, -1};
  const Document doc = One("a", PackedInt32(v));
  const absl::StatusOr<std::string> out = Encode(doc);
  ASSERT_TRUE(out.ok()) << out.status();
  EXPECT_EQ(ToHex(out),
            "1b000000046100130000001030000100000010310"
            "0ffffffff0000");
  EXPECT_EQ(*EncodedSize(doc), out->size());
  EXPECT_EQ(ToHex(ref::bson::Encode(doc)), ToHex(out));
  EXPECT_EQ(Show(doc), "{\"a\": array packed int32[int32 1, int32 -1]}");
  // Each element type's byte and width: int64 12, double 01, bool 08.
  const std::vector<int64_t> w = {-2};
  EXPECT_EQ(ToHex(Encode(One("a", PackedInt64(w)))),
            "18000000046100100000001230"
            "00feffffffffffffff0000");
  const std::vector<double> d = {-0.0};
  EXPECT_EQ(ToHex(Encode(One("a", PackedDouble(d)))),
            "18000000046100100000000130"
            "0000000000000000800000");
  const std::vector<uint8_t> b = {1, 0};
  EXPECT_EQ(ToHex(Encode(One("a", PackedBool(b)))),
            "150000000461000d0000000830"
            "000108310000"
            "0000");
}

// Every packed type at the counts where the keys change length or the tens blocks start and
// end, byte for byte against the same encoder on the unpacked array and the reference.
TEST(BsonPacked, EveryTypeAndCountMatchesTheUnpackedForm) {
  uint64_t x = 0x2545F4914F6CDD1Dull;
  auto next = [&] {
    x ^= x << 13;
    x ^= x >> 7;
    x ^= x << 17;
    return x;
  };
  for (size_t n : {0,   1,   2,   9,   10,  11,   19,   20,   21,    99,
                   100, 101, 109, 110, 999, 1000, 1001, 1009, 10001, 12345}) {
    std::vector<int32_t> a(n);
    std::vector<int64_t> b(n);
    std::vector<double> c(n);
    std::vector<uint8_t> d(n);
    for (size_t i = 0; i < n; ++i) {
      a[i] = static_cast<int32_t>(next());
      b[i] = static_cast<int64_t>(next());
      c[i] = std::bit_cast<double>(next());
      d[i] = static_cast<uint8_t>(next() & 1);
    }
    for (const Value& v : {PackedInt32(a), PackedInt64(b), PackedDouble(c), PackedBool(d)}) {
      ASSERT_EQ(PackedSize(v), n);
      const Document doc = One("k", v);
      const absl::StatusOr<std::string> packed = Encode(doc);
      const absl::StatusOr<std::string> unpacked = Encode(Unpack(doc));
      ASSERT_TRUE(packed.ok()) << packed.status();
      ASSERT_TRUE(unpacked.ok()) << unpacked.status();
      ASSERT_EQ(*packed, *unpacked) << TypeName(PackedType(v)) << " n=" << n;
      ASSERT_EQ(Unpack(doc).elements[0].value.children.size(), n);
      if (n <= 1001) {
        ASSERT_EQ(ToHex(ref::bson::Encode(doc)), ToHex(packed));
      }
      ASSERT_EQ(*EncodedSize(doc), packed->size());
      ASSERT_TRUE(Validate(*packed).ok());
    }
  }
}

TEST(BsonPacked, IllFormedPackedArraysAreRejectedByEveryEncoder) {
  const std::vector<uint8_t> two = {0, 2};
  Value with_children = PackedInt32(std::vector<int32_t>{1});
  with_children.children.push_back(Element{"", Int32(2)});
  Value ragged = PackedInt64(std::vector<int64_t>{1});
  ragged.s.pop_back();  // 7 bytes: not a whole int64
  Value unknown = PackedInt32(std::vector<int32_t>{1});
  unknown.subtype = 0x02;  // string: no packed form
  for (const Value& v : {PackedBool(two), with_children, ragged, unknown}) {
    const Document doc = One("a", v);
    const absl::StatusOr<std::string> opt = Encode(doc);
    EXPECT_EQ(opt.status().code(), absl::StatusCode::kInvalidArgument) << Show(doc);
    EXPECT_FALSE(ref::bson::Encode(doc).ok()) << Show(doc);
    EXPECT_FALSE(Encode(Unpack(doc)).ok()) << Show(doc);
  }
}

// The packed million-int32 document: the output is the only allocation (bound output + 4 KiB,
// as for the children form), and the model holds 4 bytes per element.
TEST(BsonPacked, MillionInt32HeapIsOutputPlus4KiBAndTheModelIsTheValues) {
  std::vector<int32_t> values(1000000);
  for (int i = 0; i < 1000000; ++i) values[i] = i;
  Document doc;
  {
    harness::PeakHeapScope scope;
    doc = One("a", PackedInt32(values));
    EXPECT_LE(scope.PeakBytes(), 4000000 + 4096);
  }
  harness::PeakHeapScope scope;
  const absl::StatusOr<std::string> out = Encode(doc);
  const int64_t peak = scope.PeakBytes();
  ASSERT_TRUE(out.ok());
  EXPECT_EQ(out->size(), 4 + 3 + 4 + 5000000 + ArrayKeyBytes(1000000) + 2);
  EXPECT_LE(peak, static_cast<int64_t>(out->size()) + 4096);
  Value unpacked = OfType(Type::kArray);
  unpacked.children.resize(1000000);
  for (int i = 0; i < 1000000; ++i) unpacked.children[i].value = Int32(i);
  EXPECT_EQ(*out, *Encode(One("a", std::move(unpacked))));
}

// ---- decoder -----------------------------------------------------------------------------

TEST(BsonDecode, RoundTripOfEveryType) {
  Document doc;
  for (Type t : kAllTypes) {
    Value v = OfType(t);
    if (t == Type::kString) v.s = "h\xC3\xA9";
    doc.elements.push_back(Element{std::string(TypeName(t)), v});
  }
  const absl::StatusOr<std::string> bytes = Encode(doc);
  ASSERT_TRUE(bytes.ok());
  EXPECT_TRUE(Validate(*bytes).ok());
  EXPECT_TRUE(ref::bson::Validate(*bytes).ok());
  EXPECT_TRUE(oracle::libbson::Validate(*bytes).ok());
  const absl::StatusOr<Document> back = Decode(*bytes);
  ASSERT_TRUE(back.ok()) << back.status();
  EXPECT_EQ(*Encode(*back), *bytes);
}

struct OffsetCase {
  const char* name;
  std::string bytes;
  int64_t offset;  // -1: valid
};

TEST(BsonDecode, ExactOffsetsOptimizedAndReference) {
  const std::vector<OffsetCase> cases = {
      {"minimal", harness::Unhex("05000000 00"), -1},
      {"too short", harness::Unhex("0500"), 0},
      {"length 2^31-1, 5 bytes", harness::Unhex("ffffff7f 00"), 0},
      {"length below 5", harness::Unhex("04000000 00"), 0},
      {"no final NUL", harness::Unhex("05000000 01"), 4},
      {"NUL type before end", harness::Unhex("07000000 00 00 00"), 4},
      {"unknown type", harness::Unhex("08000000 14 6100 00"), 4},
      {"key not terminated", harness::Unhex("08000000 0a 6161 00"), 5},
      {"string length 0", harness::Unhex("0d000000 02 6100 00000000 00 00"), 7},
      {"string not NUL-terminated", harness::Unhex("0e000000 02 6100 02000000 78 79 00"), 12},
      {"string not UTF-8", harness::Unhex("0e000000 02 6100 02000000 e9 00 00"), 11},
      {"string longer than the document", harness::Unhex("0e000000 02 6100 03000000 78 00 00"), 7},
      {"bool 2", harness::Unhex("09000000 08 6200 02 00"), 7},
      {"int32 cut", harness::Unhex("0a000000 10 6100 0100 00"), 7},
      {"embedded length past parent", harness::Unhex("0d000000 03 6400 06000000 00 00"), 7},
      {"embedded not terminated", harness::Unhex("0d000000 03 6400 05000000 01 00"), 11},
      {"old binary inner length", harness::Unhex("13000000 05 7800 06000000 02 03000000 0102 00"),
       12},
      {"code_w_scope scope shorter than its total",
       harness::Unhex("18000000 0f 6300 10000000 02000000 7800 05000000 00 00 00"), 17},
      {"key not UTF-8", harness::Unhex("08000000 0a c300 00"), 5},
  };
  for (const OffsetCase& c : cases) {
    const absl::Status opt = Validate(c.bytes);
    const absl::Status ref = ref::bson::Validate(c.bytes);
    EXPECT_EQ(opt.ok() ? -1 : OffsetOf(opt), c.offset) << c.name << ": " << opt;
    EXPECT_EQ(ref.ok() ? -1 : OffsetOf(ref), c.offset) << c.name << ": " << ref;
    if (!opt.ok()) {
      EXPECT_EQ(opt.code(), absl::StatusCode::kInvalidArgument) << c.name;
    }
  }
}

TEST(BsonDecode, HugeClaimedLengthAllocatesOnlyTheError) {
  const std::string bytes = harness::Unhex("ffffff7f 00");
  harness::PeakHeapScope scope;
  absl::StatusOr<Document> doc = Decode(bytes);
  const int64_t peak = scope.PeakBytes();
  ASSERT_FALSE(doc.ok());
  EXPECT_EQ(OffsetOf(doc.status()), 0);
  EXPECT_LT(peak, 1024);  // the status message and payload only
}

// Decode builds the model: its peak heap per input byte on the cheapest elements, just past
// a power of two (where the element vector's doubling holds the old and new arrays at once):
// a null with an empty key is 2 bytes (type, key NUL) and one Element; an empty embedded
// document is 7. Validate allocates nothing (bson_decode's bound: output + 4 KiB). Measured
// figures in docs/bson.md, "Decoder heap"; the test fails when the model grows past
// kDecodeHeapPerInputByte per input byte.
TEST(BsonDecode, ModelHeapPerInputByteOnTheCheapestElements) {
  constexpr int64_t kDecodeHeapPerInputByte = 288;
  std::printf("model sizes: Element %zu, Value %zu bytes\n", sizeof(Element), sizeof(Value));
  struct Shape {
    const char* name;
    std::string element;  // one element's bytes, repeated
  };
  const Shape shapes[] = {{"nulls with empty keys", harness::Unhex("0a 00")},
                          {"bools with empty keys", harness::Unhex("08 00 01")},
                          {"empty documents with empty keys", harness::Unhex("03 00 05000000 00")},
                          {"empty strings with empty keys", harness::Unhex("02 00 01000000 00")}};
  for (const Shape& sh : shapes) {
    for (size_t n : {size_t{16385}, size_t{20000}}) {
      std::string body;
      for (size_t i = 0; i < n; ++i) body += sh.element;
      std::string doc(4, '\0');
      doc += body;
      doc += '\0';
      const uint32_t len = static_cast<uint32_t>(doc.size());
      for (int i = 0; i < 4; ++i) doc[i] = static_cast<char>((len >> (8 * i)) & 0xff);
      int64_t peak = 0;
      {
        harness::PeakHeapScope scope;
        const absl::StatusOr<Document> d = Decode(doc);
        peak = scope.PeakBytes();
        ASSERT_TRUE(d.ok()) << sh.name << ": " << d.status();
        EXPECT_EQ(d->elements.size(), n);
      }
      std::printf("%s x %zu: %zu input bytes, peak %lld, %.1f per input byte\n", sh.name, n,
                  doc.size(), static_cast<long long>(peak),
                  static_cast<double>(peak) / static_cast<double>(doc.size()));
      EXPECT_LE(peak, kDecodeHeapPerInputByte * static_cast<int64_t>(doc.size()) + 4096) << sh.name;
    }
  }
}

TEST(BsonDecode, ArrayKeyOrderIsAFlag) {
  // {a: {"1": 1}} as an array: key "1" where "0" is expected.
  const std::string bytes = harness::Unhex("14000000 04 6100 0c000000 10 3100 01000000 00 00");
  EXPECT_TRUE(Validate(bytes).ok());
  DecodeOptions strict;
  strict.check_array_keys = true;
  EXPECT_EQ(OffsetOf(Validate(bytes, strict)), 12);
  ref::bson::ValidateOptions rstrict;
  rstrict.check_array_keys = true;
  EXPECT_EQ(OffsetOf(ref::bson::Validate(bytes, rstrict)), 12);
}

TEST(BsonDecode, Utf8IsAFlag) {
  const std::string bytes = harness::Unhex("0e000000 02 6100 02000000 e9 00 00");
  DecodeOptions lax;
  lax.check_utf8 = false;
  EXPECT_TRUE(Validate(bytes, lax).ok());
  EXPECT_FALSE(Validate(bytes).ok());
  DecodeOptions keys_only;
  keys_only.check_utf8_values = false;
  EXPECT_TRUE(Validate(bytes, keys_only).ok());
  EXPECT_EQ(OffsetOf(Validate(harness::Unhex("08000000 0a e9 00 00"), keys_only)), 5);
}

Document Nested(int levels) {  // depth levels + 1
  Value v = SubDocument({});
  for (int i = 1; i < levels; ++i) v = SubDocument({Element{"d", std::move(v)}});
  return One("d", std::move(v));
}

TEST(BsonDecode, DepthLimit) {
  const Document ok_doc = Nested(kDefaultMaxDepth - 1);
  ASSERT_EQ(Depth(ok_doc), kDefaultMaxDepth);
  const absl::StatusOr<std::string> ok_bytes = Encode(ok_doc);
  ASSERT_TRUE(ok_bytes.ok());
  EXPECT_TRUE(Validate(*ok_bytes).ok());
  EXPECT_TRUE(ref::bson::Validate(*ok_bytes).ok());
  const Document deep = Nested(kDefaultMaxDepth);
  EXPECT_FALSE(Encode(deep).ok());
  EXPECT_FALSE(ref::bson::Encode(deep).ok());
  std::string deep_bytes = *ref::bson::Encode(Nested(kDefaultMaxDepth - 1));
  DecodeOptions shallow;
  shallow.max_depth = kDefaultMaxDepth - 1;
  // the innermost document {} starts at 4 + 98 * (1 + 2 + 4) + 3
  EXPECT_EQ(OffsetOf(Validate(deep_bytes, shallow)), 4 + 98 * 7 + 3);
}

// ---- libbson: accepted divergences and real results -------------------------------------

// The first divergence of `list` whose predicate covers (input, optimized, libbson), or "".
template <typename T>
std::string Covering(const std::vector<harness::Divergence<T>>& list, const T& in,
                     const harness::Output& opt, const harness::Output& lib) {
  for (const auto& d : list) {
    if (d.impl == "libbson" && d.applies(in, opt, lib)) return d.reason;
  }
  return "";
}

harness::Output Accept(const std::string& in, const absl::Status& st) {
  if (!st.ok()) return st;
  return in;
}

TEST(BsonLibbson, NonUtf8StringValueIsAnAcceptedDivergenceOnly) {
  const auto divergences = targets::bson::DecodeDivergences();
  const std::string bad = harness::Unhex("0e000000 02 6100 02000000 e9 00 00");
  const harness::Output opt = Accept(bad, Validate(bad));
  const harness::Output lib = Accept(bad, oracle::libbson::Validate(bad));
  ASSERT_FALSE(opt.ok());
  ASSERT_TRUE(lib.ok());  // libbson 1.23 accepts it: the reason for the divergence
  EXPECT_NE(Covering(divergences, bad, opt, lib), "");
  // Nearby valid input: "\xC3\xA9" (é) -> both accept, nothing to cover.
  const std::string good = harness::Unhex("0f000000 02 6100 03000000 c3a9 00 00");
  EXPECT_TRUE(Validate(good).ok());
  EXPECT_TRUE(oracle::libbson::Validate(good).ok());
  // Nearby input with the bad byte in a key: libbson rejects it too (no divergence to cover).
  const std::string bad_key = harness::Unhex("08000000 0a e9 00 00");
  EXPECT_FALSE(oracle::libbson::Validate(bad_key).ok());
  // libbson stops after a bad regex pattern and reports success even though a NUL type byte
  // follows before the end: covered (the first fault is the pattern's UTF-8) ...
  const std::string stops = harness::Unhex("0c000000 0b 6400 9d 00 00 00 00");
  ASSERT_TRUE(oracle::libbson::Validate(stops).ok());
  EXPECT_NE(Covering(divergences, stops, Accept(stops, Validate(stops)), stops), "");
  // ... but with a valid pattern the same structural fault is not covered (libbson rejects it).
  const std::string structural = harness::Unhex("0c000000 0b 6400 61 00 00 00 00");
  EXPECT_FALSE(oracle::libbson::Validate(structural).ok());
  EXPECT_EQ(Covering(divergences, structural, Accept(structural, Validate(structural)), structural),
            "");
  // A non-UTF-8 string that is also cut short is a real error: not covered.
  const std::string cut = harness::Unhex("0e000000 02 6100 03000000 e9 00 00");
  EXPECT_EQ(Covering(divergences, cut, Accept(cut, Validate(cut)), cut), "");
}

std::string NestedBytes(int levels) { return *ref::bson::Encode(Nested(levels)); }

TEST(BsonLibbson, DepthIsAnAcceptedDivergenceOnlyPastTheLimit) {
  const auto divergences = targets::bson::DecodeDivergences();
  // Nested(100) has depth 101: rejected by serdiff, accepted by libbson.
  Document deep = Nested(kDefaultMaxDepth);
  std::string bytes;
  {
    // Build the bytes by hand: the encoders refuse this depth.
    std::string inner = harness::Unhex("05000000 00");
    for (int i = 0; i < kDefaultMaxDepth; ++i) {
      std::string body = std::string(
                             "\x03"
                             "d",
                             2) +
                         std::string(1, '\0') + inner;
      const uint32_t len = static_cast<uint32_t>(4 + body.size() + 1);
      inner = std::string(reinterpret_cast<const char*>(&len), 4) + body + std::string(1, '\0');
    }
    bytes = inner;
  }
  const harness::Output opt = Accept(bytes, Validate(bytes));
  const harness::Output lib = Accept(bytes, oracle::libbson::Validate(bytes));
  EXPECT_FALSE(opt.ok());
  EXPECT_TRUE(lib.ok());
  EXPECT_NE(Covering(divergences, bytes, opt, lib), "");
  // Depth exactly 100: both accept, not covered (opt is OK).
  const std::string at_limit = NestedBytes(kDefaultMaxDepth - 1);
  EXPECT_TRUE(Validate(at_limit).ok());
  EXPECT_TRUE(oracle::libbson::Validate(at_limit).ok());
  EXPECT_EQ(Covering(divergences, at_limit, Accept(at_limit, Validate(at_limit)), at_limit), "");
  // Encoder side: depth 101 covered, depth 100 encodes identically in all three.
  const auto enc = targets::bson::EncodeDivergences();
  EXPECT_NE(Covering(enc, deep, Encode(deep), oracle::libbson::Encode(deep)), "");
  const Document ok_doc = Nested(kDefaultMaxDepth - 1);
  EXPECT_EQ(*Encode(ok_doc), *oracle::libbson::Encode(ok_doc));
  EXPECT_EQ(Covering(enc, ok_doc, Encode(ok_doc), oracle::libbson::Encode(ok_doc)), "");
}

TEST(BsonLibbson, FaultAfterCodeWithScopeIsAnAcceptedDivergenceOnlyAfterIt) {
  const auto divergences = targets::bson::DecodeDivergences();
  // {c: code_w_scope("x", {}), b: bool 2}: libbson accepts, serdiff rejects at the bool (25).
  const std::string after =
      harness::Unhex("1b000000 0f 6300 0f000000 02000000 7800 05000000 00 08 6200 02 00");
  ASSERT_TRUE(oracle::libbson::Validate(after).ok());
  EXPECT_EQ(OffsetOf(Validate(after)), 25);
  EXPECT_NE(Covering(divergences, after, Accept(after, Validate(after)), after), "");
  // The same bool 2 before the code_w_scope: libbson rejects; not covered.
  const std::string before =
      harness::Unhex("1b000000 08 6200 02 0f 6300 0f000000 02000000 7800 05000000 00 00");
  EXPECT_FALSE(oracle::libbson::Validate(before).ok());
  EXPECT_EQ(Covering(divergences, before, Accept(before, Validate(before)), before), "");
  // An embedded document ending in 0x01: libbson accepts, covered; the top-level document
  // ending in 0x01 is rejected by libbson and not covered.
  const std::string embedded = harness::Unhex("0d000000 03 6400 05000000 01 00");
  ASSERT_TRUE(oracle::libbson::Validate(embedded).ok());
  EXPECT_NE(Covering(divergences, embedded, Accept(embedded, Validate(embedded)), embedded), "");
  const std::string top = harness::Unhex("0d000000 03 6400 05000000 00 01");
  EXPECT_FALSE(oracle::libbson::Validate(top).ok());
  EXPECT_EQ(Covering(divergences, top, Accept(top, Validate(top)), top), "");
}

// Found by fuzzing bson_decode (corpus/bson_decode/regressions/ff1931b4...): libbson skips the
// whole content of an embedded document whose last byte is not 0x00, so a fault inside it,
// ahead of that last byte, is not seen either.
TEST(BsonLibbson, FaultInsideAnUnterminatedEmbeddedDocumentIsCoveredOnlyThere) {
  const auto divergences = targets::bson::DecodeDivergences();
  // {d: {e: <10-byte document whose first type byte is 0x00>}} with d's last byte 0x01.
  // serdiff reads front to back and stops at the early end of the innermost document (18).
  const std::string inside =
      harness::Unhex("1a000000 03 6400 12000000 03 6500 0a000000 00 00000000 00 01 00");
  ASSERT_TRUE(oracle::libbson::Validate(inside).ok());
  EXPECT_EQ(OffsetOf(Validate(inside)), 18);
  EXPECT_EQ(OffsetOf(ref::bson::Validate(inside)), 18);
  EXPECT_NE(Covering(divergences, inside, Accept(inside, Validate(inside)), inside), "");
  // d ends with 0x00 again: libbson sees the early end too, nothing is covered.
  const std::string seen =
      harness::Unhex("1a000000 03 6400 12000000 03 6500 0a000000 00 00000000 00 00 00");
  EXPECT_FALSE(oracle::libbson::Validate(seen).ok());
  EXPECT_EQ(OffsetOf(Validate(seen)), 18);
  EXPECT_EQ(Covering(divergences, seen, Accept(seen, Validate(seen)), seen), "");
  // The innermost document well formed and d ending with 0x00: valid for all three.
  const std::string good = harness::Unhex("15000000 03 6400 0d000000 03 6500 05000000 00 00 00");
  EXPECT_EQ(good.size(), 0x15u);
  EXPECT_TRUE(oracle::libbson::Validate(good).ok());
  EXPECT_TRUE(Validate(good).ok());
}

// Found by fuzzing bson_decode (corpus/bson_decode/regressions/a8317193...): libbson checks only
// the lengths of a code_w_scope, not its code string's NUL; it validates the scope only when
// the scope ends with 0x00, and a valid scope ends its validation with success.
TEST(BsonLibbson, CodeWithScopeIsCheckedAsLibbsonChecksIt) {
  const auto divergences = targets::bson::DecodeDivergences();
  // {c: code_w_scope("0\x04" without its NUL, {})}: serdiff rejects at the code's last byte.
  const std::string no_nul =
      harness::Unhex("17000000 0f 6300 0f000000 02000000 3004 05000000 00 00");
  ASSERT_TRUE(oracle::libbson::Validate(no_nul).ok());
  EXPECT_EQ(OffsetOf(Validate(no_nul)), 16);
  EXPECT_EQ(OffsetOf(ref::bson::Validate(no_nul)), 16);
  EXPECT_NE(Covering(divergences, no_nul, Accept(no_nul, Validate(no_nul)), no_nul), "");
  // The same code with a scope {b: bool 2}: libbson validates the scope and rejects; not covered.
  const std::string bad_scope =
      harness::Unhex("1b000000 0f 6300 13000000 02000000 3004 09000000 08 6200 02 00 00");
  EXPECT_FALSE(oracle::libbson::Validate(bad_scope).ok());
  EXPECT_EQ(Covering(divergences, bad_scope, Accept(bad_scope, Validate(bad_scope)), bad_scope),
            "");
  // A scope ending in 0x01 is skipped by libbson, which goes on and finds the bool 2 after it:
  // not covered. Without the bool, libbson accepts: covered.
  const std::string skipped_then_bad =
      harness::Unhex("1b000000 0f 6300 0f000000 02000000 3000 05000000 01 08 6200 02 00");
  EXPECT_FALSE(oracle::libbson::Validate(skipped_then_bad).ok());
  EXPECT_EQ(OffsetOf(Validate(skipped_then_bad)), 21);
  EXPECT_EQ(Covering(divergences, skipped_then_bad,
                     Accept(skipped_then_bad, Validate(skipped_then_bad)), skipped_then_bad),
            "");
  const std::string skipped =
      harness::Unhex("17000000 0f 6300 0f000000 02000000 3000 05000000 01 00");
  ASSERT_TRUE(oracle::libbson::Validate(skipped).ok());
  EXPECT_NE(Covering(divergences, skipped, Accept(skipped, Validate(skipped)), skipped), "");
  // Code with ill-formed UTF-8: libbson stops before looking at the scope (found by fuzzing,
  // corpus/bson_decode/regressions/0d298467...); covered. Valid code: the scope is checked.
  const std::string bad_code =
      harness::Unhex("1b000000 0f 6300 13000000 02000000 fe00 09000000 08 6200 02 00 00");
  ASSERT_TRUE(oracle::libbson::Validate(bad_code).ok());
  EXPECT_EQ(OffsetOf(Validate(bad_code)), 15);
  EXPECT_NE(Covering(divergences, bad_code, Accept(bad_code, Validate(bad_code)), bad_code), "");
  const std::string good_code =
      harness::Unhex("1b000000 0f 6300 13000000 02000000 3000 09000000 08 6200 02 00 00");
  EXPECT_FALSE(oracle::libbson::Validate(good_code).ok());
  EXPECT_EQ(OffsetOf(Validate(good_code)), 24);
  EXPECT_EQ(Covering(divergences, good_code, Accept(good_code, Validate(good_code)), good_code),
            "");
  // Code with ill-formed UTF-8 stops libbson even when it steps over the scope (ending in
  // 0x01; corpus/bson_decode/regressions/5432b115...): a bool 2 after it passes, covered.
  const std::string bad_code_skipped =
      harness::Unhex("1b000000 0f 6300 0f000000 02000000 fe00 05000000 01 08 6200 02 00");
  ASSERT_TRUE(oracle::libbson::Validate(bad_code_skipped).ok());
  EXPECT_NE(Covering(divergences, bad_code_skipped,
                     Accept(bad_code_skipped, Validate(bad_code_skipped)), bad_code_skipped),
            "");
  // Well formed: all three accept.
  const std::string good = harness::Unhex("17000000 0f 6300 0f000000 02000000 3000 05000000 00 00");
  EXPECT_TRUE(Validate(good).ok());
  EXPECT_TRUE(ref::bson::Validate(good).ok());
  EXPECT_TRUE(oracle::libbson::Validate(good).ok());
}

// Found by fuzzing bson_decode (corpus/bson_decode/regressions/024022eb...): libbson steps over
// an embedded document of length 4 (it fits, but bson_init_static refuses it, so nothing in it
// is visited) and goes on 4 bytes later; lengths 0..3 land on the length's own zero bytes.
TEST(BsonLibbson, EmbeddedDocumentShorterThan5IsSkippedByLibbsonOnly) {
  const auto divergences = targets::bson::DecodeDivergences();
  // {"\x01": <length 4>, "\x01\x01": int32 0}: serdiff rejects the length at offset 7.
  const std::string four = harness::Unhex("14000000 03 0100 04000000 10 010100 00000000 00");
  ASSERT_TRUE(oracle::libbson::Validate(four).ok());
  EXPECT_EQ(OffsetOf(Validate(four)), 7);
  EXPECT_EQ(OffsetOf(ref::bson::Validate(four)), 7);
  EXPECT_NE(Covering(divergences, four, Accept(four, Validate(four)), four), "");
  const std::string four_in_array =
      harness::Unhex("14000000 04 0100 04000000 10 010100 00000000 00");
  ASSERT_TRUE(oracle::libbson::Validate(four_in_array).ok());
  EXPECT_NE(Covering(divergences, four_in_array, Accept(four_in_array, Validate(four_in_array)),
                     four_in_array),
            "");
  // A bool 2 after the skipped length: libbson rejects it; not covered.
  const std::string then_bad = harness::Unhex("10000000 03 6400 04000000 08 6500 02 00");
  EXPECT_FALSE(oracle::libbson::Validate(then_bad).ok());
  EXPECT_EQ(Covering(divergences, then_bad, Accept(then_bad, Validate(then_bad)), then_bad), "");
  // Lengths 0 and 2: libbson rejects them as well (the next type byte read is 0x00).
  for (const char* hex :
       {"0c000000 03 6400 00000000 00", "11000000 03 6400 02000000 00 00 00 00 00 00"}) {
    const std::string in = harness::Unhex(hex);
    EXPECT_FALSE(oracle::libbson::Validate(in).ok()) << hex;
    EXPECT_EQ(Covering(divergences, in, Accept(in, Validate(in)), in), "") << hex;
  }
}

// Found by fuzzing bson_decode (corpus/bson_decode/regressions/c765c825...): libbson's stops
// (after a valid code_w_scope scope, after a value with ill-formed UTF-8) end the validation
// of the document they are in; its parents go on being checked.
TEST(BsonLibbson, LibbsonStopsOnlyTheDocumentItIsIn) {
  const auto divergences = targets::bson::DecodeDivergences();
  auto covered = [&](const std::string& in) {
    return Covering(divergences, in, Accept(in, Validate(in)), in) != "";
  };
  // {d: {c: code_w_scope("0", {}), b: bool 2}}: libbson accepts; serdiff rejects the bool (30).
  const std::string inside = harness::Unhex(
      "23000000 03 6400 1b000000 0f 6300 0f000000 02000000 3000 05000000 00 08 6200 02 00 00");
  ASSERT_TRUE(oracle::libbson::Validate(inside).ok());
  EXPECT_EQ(OffsetOf(Validate(inside)), 32);
  EXPECT_TRUE(covered(inside));
  // {d: {c: code_w_scope("0", {})}, b: bool 2}: the parent goes on, libbson rejects; not covered.
  const std::string parent = harness::Unhex(
      "23000000 03 6400 17000000 0f 6300 0f000000 02000000 3000 05000000 00 00 08 6200 02 00");
  EXPECT_FALSE(oracle::libbson::Validate(parent).ok());
  EXPECT_FALSE(covered(parent));
  // {d: {a: "\xfe", b: bool 2}}: libbson accepts (stops at the string); covered.
  const std::string bad_string =
      harness::Unhex("1a000000 03 6400 12000000 02 6100 02000000 fe00 08 6200 02 00 00");
  ASSERT_TRUE(oracle::libbson::Validate(bad_string).ok());
  EXPECT_TRUE(covered(bad_string));
  // {d: {a: "\xfe"}, b: bool 2}: libbson rejects the bool in the parent; not covered.
  const std::string bad_string_parent =
      harness::Unhex("1a000000 03 6400 0e000000 02 6100 02000000 fe00 00 08 6200 02 00");
  EXPECT_FALSE(oracle::libbson::Validate(bad_string_parent).ok());
  EXPECT_FALSE(covered(bad_string_parent));
}

// Found by fuzzing bson_encode (corpus/bson_encode/regressions/e7ae94c1..., first kept as
// 77143e7e... in the older corpus form): libbson's bson_append_value hands JavaScript code to
// bson_append_code, a C string, which cuts it at the first NUL. The libbson side declines such
// documents; without the NUL it must agree.
TEST(BsonLibbson, CodeWithNulIsDeclinedAndCodeWithoutNulAgrees) {
  Value code = OfType(Type::kCode);
  code.s = std::string("a\0b", 3);
  const Document with_nul = One("c", code);
  const absl::StatusOr<std::string> lib = oracle::libbson::Encode(with_nul);
  ASSERT_FALSE(lib.ok());
  EXPECT_TRUE(harness::IsDeclined(lib.status())) << lib.status();
  // serdiff writes all three bytes: length 4 = "a\0b" + NUL.
  EXPECT_EQ(ToHex(Encode(with_nul)), "100000000d6300040000006100620000");
  code.s = "ab";
  const Document plain = One("c", code);
  EXPECT_EQ(ToHex(oracle::libbson::Encode(plain)), "0f0000000d63000300000061620000");
  EXPECT_EQ(ToHex(Encode(plain)), "0f0000000d63000300000061620000");
}

// BSON 1.1, element 0x0B: regex options "must be stored in alphabetical order". /abc/xmi is
// stored with "imx" by both serdiff encoders, as by libbson and pymongo.
TEST(BsonCanonical, RegexOptionsAreWrittenInAlphabeticalOrder) {
  Value re = OfType(Type::kRegex);
  re.s = "abc";
  re.s2 = "xmi";
  const Document doc = One("r", re);
  // 10 00 00 00 (16 bytes) | 0b "r" 00 | "abc" 00 | "imx" 00 | 00
  const std::string want =
      "100000000b72006162630069"
      "6d78"
      "0000";
  EXPECT_EQ(ToHex(Encode(doc)), want);
  EXPECT_EQ(ToHex(ref::bson::Encode(doc)), want);
  EXPECT_EQ(ToHex(oracle::libbson::Encode(doc)), want);
  re.s2 = "\xff\x0f";  // bytes above 0x7f sort by unsigned value, after 0x0f (a fuzzer's find)
  EXPECT_EQ(ToHex(Encode(One("r", re))), "0f0000000b7200616263000fff0000");
  EXPECT_EQ(ToHex(ref::bson::Encode(One("r", re))), "0f0000000b7200616263000fff0000");
  re.s2 = "usmxli";  // every letter, reversed-ish: "ilmsux"
  EXPECT_EQ(ToHex(Encode(One("r", re))), "130000000b720061626300696c6d7375780000");
  EXPECT_EQ(ToHex(ref::bson::Encode(One("r", re))), "130000000b720061626300696c6d7375780000");
}

TEST(BsonLibbson, RegexOptionsLibbsonDropsAreAnAcceptedDivergenceOnlyThen) {
  const auto enc = targets::bson::EncodeDivergences();
  Value re = OfType(Type::kRegex);
  re.s = "a";
  re.s2 = "xix";  // a repeated letter: libbson drops it, serdiff keeps it (sorted)
  const Document repeated = One("r", re);
  const absl::StatusOr<std::string> lib = oracle::libbson::Encode(repeated);
  ASSERT_TRUE(lib.ok());
  EXPECT_EQ(absl::BytesToHexString(*lib), "0d0000000b7200610069780000");  // libbson: "ix"
  EXPECT_EQ(ToHex(Encode(repeated)), "0e0000000b720061006978780000");     // serdiff: "ixx"
  EXPECT_EQ(ToHex(ref::bson::Encode(repeated)), "0e0000000b720061006978780000");
  EXPECT_NE(Covering(enc, repeated, Encode(repeated), lib), "");
  re.s2 = "xi";  // unsorted but valid: the same bytes everywhere, so never covered
  const Document unsorted = One("r", re);
  EXPECT_EQ(*Encode(unsorted), *oracle::libbson::Encode(unsorted));
  EXPECT_EQ(Covering(enc, unsorted, Encode(unsorted), harness::Output(std::string("x"))), "");
}

TEST(BsonLibbson, RealResultOnAtLeast90PercentOfGeneratedDocuments) {
  const rc::Gen<Document> gen = targets::bson::GenDocument();
  int declined = 0;
  constexpr int kCases = 400;
  for (int seed = 1; seed <= kCases; ++seed) {
    const Document doc = gen(rc::Random(seed), seed % 100).value();
    const absl::StatusOr<std::string> lib = oracle::libbson::Encode(doc);
    if (!lib.ok() && harness::IsDeclined(lib.status())) ++declined;
  }
  EXPECT_LE(declined * 10, kCases) << declined << " of " << kCases << " declined";
}

TEST(BsonLibbson, KeyWithNulIsRefusedByLibbsonToo) {
  const Document doc = One(std::string("a\0b", 3), Int32(1));
  const absl::StatusOr<std::string> lib = oracle::libbson::Encode(doc);
  EXPECT_EQ(lib.status().code(), absl::StatusCode::kInvalidArgument);
  EXPECT_EQ(Encode(doc).status().code(), absl::StatusCode::kInvalidArgument);
}

}  // namespace
}  // namespace serdiff::bson
