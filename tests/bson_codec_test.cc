// BSON family: exact bytes, offsets and heap of the encoder, the packed arrays and the decoder
// (docs/bson.md), for the optimized codec, the reference and libbson alike. Integer
// formatting, array keys and libbson's accepted divergences: tests/bson_test.cc.
#include <bit>
#include <cstdint>
#include <cstdio>
#include <limits>
#include <string>
#include <vector>

#include "absl/strings/escaping.h"
#include "absl/strings/match.h"
#include "absl/strings/str_cat.h"
#include "gtest/gtest.h"
#include "harness/alloc_tracker.h"
#include "harness/hex.h"
#include "harness/result.h"
#include "harness/target.h"
#include "oracles/libbson/libbson.h"
#include "reference/bson/bson_ref.h"
#include "serdiff/bson/codec.h"
#include "serdiff/bson/int_format.h"
#include "targets/families.h"
#include "tests/bson_test_util.h"

namespace serdiff::bson {
namespace {

// Shared with tests/bson_test.cc (tests/bson_test_util.h).
using test_util::Nested;
using test_util::OffsetOf;
using test_util::One;
using test_util::ToHex;

// ---- encoder -----------------------------------------------------------------------------

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

// Past ten million elements the packed writer's array keys reach 8 digits, and its tens counter
// 7 digits (the template cases h = 6 and 7, which no smaller array reaches; 41 past ten million,
// so that a ten of 7-digit tens is written from the template after a step, not only by the
// exact stores of the last whole ten): the document is the exact size and every key is its
// index ("0", "1", ... in order, as the validator checks).
TEST(BsonPacked, TenMillionAndFortyOneKeysAreTheirIndexes) {
  constexpr int kN = 10000041;
  std::vector<int32_t> values(kN);
  for (int i = 0; i < kN; ++i) values[i] = i;
  const absl::StatusOr<std::string> out = Encode(One("a", PackedInt32(std::move(values))));
  ASSERT_TRUE(out.ok()) << out.status();
  EXPECT_EQ(out->size(), 4 + 3 + 4 + 5 * static_cast<size_t>(kN) + ArrayKeyBytes(kN) + 2);
  DecodeOptions keys;
  keys.check_array_keys = true;
  EXPECT_TRUE(Validate(*out, keys).ok()) << Validate(*out, keys);
  // The last element: type 0x10, key "10000040", value 10000040, then the two terminators.
  EXPECT_EQ(out->substr(out->size() - 16), std::string("\x10"
                                                       "10000040\0",
                                                       10) +
                                               std::string("\xa8\x96\x98\x00", 4) +
                                               std::string(2, '\0'));
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

// Decode builds the model: its peak heap per input byte on the cheapest elements, within the
// decoder budget, kDecodeHeapPerInputByte (64) per input byte + 4 KiB, accepted or rejected.
// The worst inputs were found by cost per byte: an Element is 128 bytes whatever its type, so
// the fewest bytes per element cost most: a null (or undefined, min key, max key) with an empty
// key is 2 bytes, a bool 3; then the shapes that add an allocation per element (a one-element
// document: its own vector; a 16-byte key: past the string's inline buffer; a regex's options
// and a DBPointer's id: out of line), nesting, and the same shapes cut short (a rejection after
// the vector was sized). Counts just past a power of two, where a vector that doubled would
// hold its old and new arrays at once. Measured figures in docs/bson.md, "Decoder heap".
std::string DocOf(const std::string& body) {
  std::string doc(4, '\0');
  doc += body;
  doc += '\0';
  const uint32_t len = static_cast<uint32_t>(doc.size());
  for (int i = 0; i < 4; ++i) doc[i] = static_cast<char>((len >> (8 * i)) & 0xff);
  return doc;
}

TEST(BsonDecode, ModelHeapPerInputByteOnTheCheapestElements) {
  std::printf("model sizes: Element %zu, Value %zu bytes\n", sizeof(Element), sizeof(Value));
  EXPECT_LE(sizeof(Element), 128u);  // the budget's premise (x86-64, libstdc++)
  struct Shape {
    const char* name;
    std::string element;  // one element's bytes, repeated
  };
  const std::string key16 = "6b6b6b6b6b6b6b6b6b6b6b6b6b6b6b6b00";
  const Shape shapes[] = {
      {"nulls with empty keys", harness::Unhex("0a 00")},
      {"min keys with empty keys", harness::Unhex("ff 00")},
      {"bools with empty keys", harness::Unhex("08 00 01")},
      {"empty documents with empty keys", harness::Unhex("03 00 05000000 00")},
      {"empty strings with empty keys", harness::Unhex("02 00 01000000 00")},
      {"documents of one null", harness::Unhex("03 00 07000000 0a00 00")},
      {"arrays of one empty array", harness::Unhex("04 00 0c000000 0400 05000000 00 00")},
      {"nulls with 16-byte keys", harness::Unhex("0a" + key16)},
      {"regexes with one option", harness::Unhex("0b 00 00 6900")},
      {"dbpointers", harness::Unhex("0c 00 01000000 00 000000000000000000000000")},
      {"datetimes", harness::Unhex("09 00 0000000000000000")}};
  for (const Shape& sh : shapes) {
    for (size_t n : {size_t{16385}, size_t{20000}}) {
      std::string body;
      for (size_t i = 0; i < n; ++i) body += sh.element;
      const std::string doc = DocOf(body);
      // Accepted; then the same bytes with the last element's type byte made unknown (rejected
      // after every element before it was built).
      std::string bad = doc;
      bad[doc.size() - 1 - sh.element.size()] = '\x14';
      for (const std::string* input : {&doc, static_cast<const std::string*>(&bad)}) {
        int64_t peak = 0;
        {
          harness::PeakHeapScope scope;
          const absl::StatusOr<Document> d = Decode(*input);
          peak = scope.PeakBytes();
          if (input == &doc) {
            ASSERT_TRUE(d.ok()) << sh.name << ": " << d.status();
            EXPECT_EQ(d->elements.size(), n);
          } else {
            ASSERT_FALSE(d.ok()) << sh.name;
            EXPECT_EQ(OffsetOf(d.status()),
                      static_cast<int64_t>(doc.size() - 1 - sh.element.size()));
          }
        }
        std::printf("%s x %zu%s: %zu input bytes, peak %lld, %.1f per input byte\n", sh.name, n,
                    input == &doc ? "" : ", rejected at the last", input->size(),
                    static_cast<long long>(peak),
                    static_cast<double>(peak) / static_cast<double>(input->size()));
        EXPECT_LE(peak, kDecodeHeapPerInputByte * static_cast<int64_t>(input->size()) + 4096)
            << sh.name;
      }
    }
  }
  // Deep nesting: 100 levels of one-element documents ({"": {"": ... {}}}), 7 bytes a level,
  // each level a vector of one Element.
  std::string nested = DocOf("");
  for (int level = 1; level < 100; ++level) nested = DocOf(std::string("\x03\x00", 2) + nested);
  int64_t peak = 0;
  {
    harness::PeakHeapScope scope;
    const absl::StatusOr<Document> d = Decode(nested);
    peak = scope.PeakBytes();
    ASSERT_TRUE(d.ok()) << d.status();
    EXPECT_EQ(Depth(*d), 100);
  }
  std::printf("100 nested documents: %zu input bytes, peak %lld\n", nested.size(),
              static_cast<long long>(peak));
  EXPECT_LE(peak, kDecodeHeapPerInputByte * static_cast<int64_t>(nested.size()) + 4096);
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

// `levels` documents, each the only element ("a") of the one around it: {a: {a: ... {}}}.
std::string NestedRaw(int levels) {
  std::string d("\x05\0\0\0\0", 5);
  for (int i = 1; i < levels; ++i) {
    const std::string body =
        "\x03"
        "a" +
        std::string(1, '\0') + d + std::string(1, '\0');
    const uint32_t n = static_cast<uint32_t>(4 + body.size());
    d = std::string{static_cast<char>(n), static_cast<char>(n >> 8), static_cast<char>(n >> 16),
                    static_cast<char>(n >> 24)} +
        body;
  }
  return d;
}

// libbson's bson_validate recurses once per level with no limit (20,000 levels overflowed the
// stack and ended the process): up to kMaxValidateDepth levels it is asked, deeper the oracle
// declines without calling it.
TEST(BsonDecode, LibbsonIsNotWalkedPastItsDepthGuard) {
  const int limit = oracle::libbson::kMaxValidateDepth;
  EXPECT_TRUE(oracle::libbson::Validate(NestedRaw(limit)).ok());
  for (const int levels : {limit + 1, 20000}) {
    const absl::Status s = oracle::libbson::Validate(NestedRaw(levels));
    EXPECT_TRUE(harness::IsDeclined(s)) << levels << ": " << s;
  }
  // Shallow and broken: still libbson's own answer.
  std::string broken = NestedRaw(3);
  broken.back() = '\x01';
  EXPECT_EQ(oracle::libbson::Validate(broken).code(), absl::StatusCode::kInvalidArgument);
}

// bson_decode's outside decoders (the workers' bson.decode op) get no document nested past the
// depth divergences' walk (1,000 levels): serdiff rejects it at 100, and no peer's answer could
// be judged (a valid 1,001-level document failed as the peer's finding). One level less is sent,
// as bytes, and so is an input broken before its depth.
TEST(BsonDecode, OutsideDecodersGetNoDocumentPastTheWalk) {
  const harness::Target* t = targets::AllTargets().Find("bson_decode");
  ASSERT_NE(t, nullptr);
  const auto* typed = dynamic_cast<const harness::TypedTarget<std::string>*>(t);
  ASSERT_NE(typed, nullptr);
  const auto& ic = typed->def().interchange;
  const absl::StatusOr<std::string> declined = ic.input_json(NestedRaw(1001));
  ASSERT_FALSE(declined.ok());
  EXPECT_TRUE(harness::IsDeclined(declined.status())) << declined.status();
  EXPECT_TRUE(absl::StrContains(declined.status().message(), "deeper than 1000 levels"));
  const std::string at = NestedRaw(1000);
  EXPECT_EQ(ic.input_json(at).value(),
            absl::StrCat(R"({"bson":")", absl::BytesToHexString(at), R"("})"));
  std::string broken = NestedRaw(1001);
  broken[4] = '\x20';  // the first element's type: no BSON type
  EXPECT_TRUE(ic.input_json(broken).ok());
}

}  // namespace
}  // namespace serdiff::bson
