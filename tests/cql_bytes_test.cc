// CQL values family: exact bytes and exact errors, for the optimized codec (serdiff::cql) and
// the reference (serdiff::ref::cql) alike. Byte strings come from the issue, from
// native_protocol_v4.spec section 6 and from the python-driver 3.25
// examples recorded in docs/cql.md.
#include <gtest/gtest.h>

#include <chrono>
#include <cstdint>
#include <string>

#include "absl/strings/str_cat.h"
#include "harness/alloc_tracker.h"
#include "harness/hex.h"
#include "serdiff/common/error_offset.h"
#include "serdiff/cql/codec.h"
#include "serdiff/cql/literal.h"
#include "tests/cql_test_util.h"

namespace serdiff::cql {
namespace {

using harness::CompactHex;
using harness::Unhex;

// Shared with tests/cql_test.cc (tests/cql_test_util.h).
using test_util::Codec;
using test_util::Codecs;
using test_util::ExpectDecodeError;
using test_util::ExpectPayload;
using test_util::T;

// Both decoders read `hex` as `type` into the value whose literal is `value`.
void ExpectDecodes(const std::string& type, const std::string& hex, const std::string& value,
                   int version = 4) {
  const Type t = T(type);
  for (const Codec& c : Codecs()) {
    SCOPED_TRACE(absl::StrCat(c.name, " ", type, " ", hex));
    absl::StatusOr<Value> got = c.deserialize(t, Unhex(hex), version, DecodeOptions{});
    ASSERT_TRUE(got.ok()) << got.status();
    EXPECT_EQ(FormatValue(t, *got), value);
  }
}

// Every strict decode flag on (the spec's rules where servers are more lenient).
DecodeOptions Strict() {
  DecodeOptions o;
  o.require_minimal_varint = true;
  o.reject_short_tuples = true;
  o.reject_negative_lengths = true;
  o.require_time_in_day = true;
  o.reject_duration_trailing_bytes = true;
  o.strict_utf8 = true;
  return o;
}

void ExpectEncodeError(const Type& t, const Value& v, int version = 4) {
  for (const Codec& c : Codecs()) {
    SCOPED_TRACE(c.name);
    absl::StatusOr<std::string> got = c.serialize(t, v, version);
    EXPECT_FALSE(got.ok()) << CompactHex(*got);
  }
  EXPECT_FALSE(SerializedSize(t, v, version).ok());
}

// ---- the exact-byte list ----------------------------------------------------------------

TEST(CqlExactBytes, ListOfTextWithNullWritesMinusOne) {
  ExpectPayload("list<text>", "['hello', null]", "00000002 00000005 68656c6c6f ffffffff");
  ExpectPayload("list<text>", "['hello', null]", "00000002 00000005 68656c6c6f ffffffff", 3);
}

TEST(CqlExactBytes, MapValueNullWritesMinusOne) {
  ExpectPayload("map<int, text>", "{1: null}", "00000001 00000004 00000001 ffffffff");
}

// A missing trailing field reads as null (v4 spec section 7) and is not stored: the value holds
// the fields present, re-encodes to the same bytes, and differs from an explicit null.
TEST(CqlExactBytes, UdtWithMissingTrailingFieldReadsNull) {
  ExpectDecodes("udt<u, a int, b int>", "00000004 00000001", "{a: 1}");
  ExpectDecodes("udt<u, a int, b int>", "00000004 00000001 ffffffff", "{a: 1, b: null}");
  const Type t = T("udt<u, a int, b int>");
  for (const Codec& c : Codecs()) {
    absl::StatusOr<Value> got = c.deserialize(t, Unhex("00000004 00000001"), 4, {});
    ASSERT_TRUE(got.ok());
    EXPECT_EQ(*got, Value::Udt({Value::Int(1)})) << c.name;
    absl::StatusOr<std::string> back = c.serialize(t, *got, 4);
    ASSERT_TRUE(back.ok());
    EXPECT_EQ(*back, Unhex("00000004 00000001")) << c.name;
    got = c.deserialize(t, Unhex("00000004 00000001 ffffffff"), 4, {});
    ASSERT_TRUE(got.ok());
    EXPECT_EQ(*got, Value::Udt({Value::Int(1), Value::Null()})) << c.name;
  }
}

TEST(CqlExactBytes, VarintNegativePowersOfTwoHaveNoRedundantSignByte) {
  ExpectPayload("varint", "-2147483648", "80000000");
  ExpectPayload("varint", "-128", "80");
  ExpectPayload("varint", "-32768", "8000");
  ExpectPayload("varint", "128", "0080");
  ExpectPayload("varint", "-129", "ff7f");
}

TEST(CqlExactBytes, HugeCountWithFourByteBodyFailsFastWithoutAllocating) {
  const Type t = T("list<int>");
  const std::string input = Unhex("3b9aca00");
  for (const Codec& c : Codecs()) {
    harness::PeakHeapScope scope;
    const auto start = std::chrono::steady_clock::now();
    absl::StatusOr<Value> got = c.deserialize(t, input, 4, {});
    const auto elapsed = std::chrono::steady_clock::now() - start;
    ASSERT_FALSE(got.ok()) << c.name;
    EXPECT_EQ(got.status().code(), absl::StatusCode::kOutOfRange) << got.status();
    // Fails fast: nothing proportional to the claimed 1,000,000,000 elements; the only
    // allocation is the error status.
    EXPECT_LE(scope.PeakBytes(), 16 * static_cast<int64_t>(input.size()) + 1024) << c.name;
    EXPECT_LT(elapsed, std::chrono::seconds(1)) << c.name;  // a sanity net, not a benchmark
  }
  ExpectDecodeError("list<int>", "3b9aca00", absl::StatusCode::kOutOfRange, 0);
}

TEST(CqlExactBytes, MinusOneCountIsAnError) {
  ExpectDecodeError("list<text>", "ffffffff", absl::StatusCode::kInvalidArgument, 0);
}

TEST(CqlExactBytes, ProtocolV2ListUsesShortCountAndLengths) {
  ExpectPayload("list<int>", "[1, 2]", "0002 0004 00000001 0004 00000002", 2);
  ExpectPayload("list<int>", "[1, 2]", "0002 0004 00000001 0004 00000002", 1);
}

// ---- docs/cql.md [run] examples ---------------------------------------------------

TEST(CqlWireFormats, ValueFraming) {
  const Type t = T("int");
  for (const Codec& c : Codecs()) {
    EXPECT_EQ(CompactHex(*c.serialize_value(t, Value::Null(), 4)), "ffffffff") << c.name;
    EXPECT_EQ(CompactHex(*c.serialize_value(t, Value::Unset(), 4)), "fffffffe") << c.name;
    EXPECT_EQ(CompactHex(*c.serialize_value(t, Value::Empty(), 4)), "00000000") << c.name;
    EXPECT_EQ(CompactHex(*c.serialize_value(t, Value::Int(7), 4)), "0000000400000007") << c.name;
    EXPECT_FALSE(c.serialize_value(t, Value::Unset(), 3).ok()) << "unset is v4+ " << c.name;
    EXPECT_EQ(*c.deserialize_value(t, Unhex("ffffffff"), 4, {}), Value::Null()) << c.name;
    EXPECT_EQ(*c.deserialize_value(t, Unhex("fffffffe"), 4, {}), Value::Unset()) << c.name;
    EXPECT_EQ(*c.deserialize_value(t, Unhex("00000000"), 4, {}), Value::Empty()) << c.name;
    EXPECT_EQ(*c.deserialize_value(t, Unhex("0000000400000007"), 4, {}), Value::Int(7));
    EXPECT_FALSE(c.deserialize_value(t, Unhex("fffffffd"), 4, {}).ok()) << c.name;
    EXPECT_FALSE(c.deserialize_value(t, Unhex("80000000"), 4, {}).ok()) << c.name;
    // Before v4 a value is a [bytes]: every negative length is null (v3 spec section 3;
    // Cassandra's CBUtil.readBoundValue), -2 and INT32_MIN included, with nothing after it.
    for (int version : {1, 2, 3}) {
      for (const char* neg : {"ffffffff", "fffffffe", "fffffffd", "80000000"}) {
        SCOPED_TRACE(absl::StrCat(c.name, " v", version, " ", neg));
        const absl::StatusOr<Value> null = c.deserialize_value(t, Unhex(neg), version, {});
        ASSERT_TRUE(null.ok()) << null.status();
        EXPECT_EQ(*null, Value::Null());
        const absl::StatusOr<Value> extra =
            c.deserialize_value(t, Unhex(absl::StrCat(neg, "00")), version, {});
        ASSERT_FALSE(extra.ok());
        EXPECT_EQ(extra.status().code(), absl::StatusCode::kInvalidArgument);
        EXPECT_EQ(ErrorOffset(extra.status()), 4);
      }
      EXPECT_EQ(*c.deserialize_value(T("list<int>"), Unhex("fffffffe"), version, {}),
                Value::Null());
      // reject_negative_lengths keeps only -1, as it does for an item.
      DecodeOptions strict;
      strict.reject_negative_lengths = true;
      EXPECT_EQ(*c.deserialize_value(t, Unhex("ffffffff"), version, strict), Value::Null());
      const absl::StatusOr<Value> below =
          c.deserialize_value(t, Unhex("fffffffe"), version, strict);
      ASSERT_FALSE(below.ok());
      EXPECT_EQ(below.status().code(), absl::StatusCode::kInvalidArgument);
      EXPECT_EQ(ErrorOffset(below.status()), 0);
    }
    EXPECT_FALSE(c.deserialize_value(t, Unhex("0000000500000007"), 4, {}).ok()) << c.name;
    EXPECT_FALSE(c.deserialize_value(t, Unhex("000000040000000700"), 4, {}).ok()) << c.name;
    EXPECT_FALSE(c.deserialize_value(t, Unhex("ffffffff00"), 4, {}).ok()) << c.name;
  }
  EXPECT_EQ(*SerializedValueSize(t, Value::Int(7), 4), 8u);
}

TEST(CqlWireFormats, FixedWidthScalars) {
  ExpectPayload("int", "1", "00000001");
  ExpectPayload("int", "-2", "fffffffe");
  ExpectPayload("int", "2147483647", "7fffffff");
  ExpectPayload("bigint", "-1", "ffffffffffffffff");
  ExpectPayload("bigint", "1099511627776", "0000010000000000");
  ExpectPayload("counter", "-1", "ffffffffffffffff");
  ExpectPayload("smallint", "256", "0100");
  ExpectPayload("smallint", "-1", "ffff");
  ExpectPayload("tinyint", "-128", "80");
  ExpectPayload("tinyint", "127", "7f");
  ExpectPayload("boolean", "true", "01");
  ExpectPayload("boolean", "false", "00");
  ExpectPayload("float", "1.5", "3fc00000");
  ExpectPayload("float", "-0", "80000000");
  ExpectPayload("double", "0.1", "3fb999999999999a");
  ExpectPayload("double", "1", "3ff0000000000000");
  ExpectPayload("uuid", "00112233-4455-6677-8899-aabbccddeeff", "00112233445566778899aabbccddeeff");
  ExpectPayload("timeuuid", "00112233-4455-1677-8899-aabbccddeeff",
                "00112233445516778899aabbccddeeff");
  ExpectPayload("inet", "'127.0.0.1'", "7f000001");
  ExpectPayload("inet", "'0:0:0:0:0:0:0:1'", "00000000000000000000000000000001");
  // boolean: any non-zero byte reads as true (v4 spec 6.4).
  ExpectDecodes("boolean", "02", "true");
}

TEST(CqlWireFormats, StringsAndBlobs) {
  ExpectPayload("text", "'\xC3\xA9\xE2\x82\xAC'", "c3a9e282ac");
  ExpectPayload("ascii", "'hi'", "6869");
  ExpectPayload("text", "''", "");
  ExpectPayload("blob", "0x00ff", "00ff");
  EXPECT_EQ(Value::Text(""), Value::Empty());
}

TEST(CqlWireFormats, VarintTable) {
  ExpectPayload("varint", "0", "00");
  ExpectPayload("varint", "-1", "ff");
  ExpectPayload("varint", "127", "7f");
  ExpectPayload("varint", "129", "0081");
  ExpectPayload("varint", "255", "00ff");
  ExpectPayload("varint", "256", "0100");
  ExpectPayload("varint", "-32769", "ff7fff");
  ExpectPayload("varint", "-256", "ff00");
  ExpectPayload("varint", "-255", "ff01");
  ExpectPayload("varint", "9223372036854775808", "008000000000000000");
  ExpectPayload("varint", "-9223372036854775808", "8000000000000000");
  ExpectPayload("varint", "18446744073709551616", "010000000000000000");
  ExpectPayload("varint", "-340282366920938463463374607431768211456",
                "ff00000000000000000000000000000000");
}

TEST(CqlWireFormats, Decimal) {
  ExpectPayload("decimal", "1.0", "00000001 0a");
  ExpectPayload("decimal", "1", "00000000 01");
  ExpectPayload("decimal", "1.23", "00000002 7b");
  ExpectPayload("decimal", "-0.5", "00000001 fb");
  ExpectPayload("decimal", "1E+3", "fffffffd 01");
  ExpectPayload("decimal", "0.00", "00000002 00");
  ExpectPayload("decimal", "123456789.987654321", "00000009 01b69b4be052fab1");
}

TEST(CqlWireFormats, TimestampDateTime) {
  ExpectPayload("timestamp", "0", "0000000000000000");
  ExpectPayload("timestamp", "1609459200000", "00000176bb3e7000");
  ExpectPayload("timestamp", "-1", "ffffffffffffffff");
  ExpectPayload("timestamp", "981173106789", "000000e472797865");
  ExpectPayload("date", "0", "80000000");
  ExpectPayload("date", "-1", "7fffffff");
  ExpectPayload("date", "10957", "80002acd");    // 2000-01-01
  ExpectPayload("date", "-719162", "7ff506c6");  // 0001-01-01
  ExpectPayload("date", "2932896", "802cc0a0");  // 9999-12-31
  ExpectPayload("date", "-2147483648", "00000000");
  ExpectPayload("date", "2147483647", "ffffffff");
  ExpectPayload("time", "0", "0000000000000000");
  ExpectPayload("time", "45296789000000", "000029327b048f40");  // 12:34:56.789
  ExpectPayload("time", "86399999999000", "00004e94914efc18");
  ExpectPayload("time", "86399999999999", "00004e94914effff");
}

TEST(CqlWireFormats, Duration) {
  ExpectPayload("duration", "duration(1, 2, 3)", "020406");
  ExpectPayload("duration", "duration(-1, -1, -1)", "010101");
  ExpectPayload("duration", "duration(12, 0, 0)", "180000");
  ExpectPayload("duration", "duration(0, 0, 3600000000000)", "0000fc068c61714000");
  ExpectPayload("duration", "duration(0, -65, 0)", "008081 00");
  ExpectPayload("duration", "duration(0, 0, -9223372036854775808)", "0000ffffffffffffffffff");
}

TEST(CqlWireFormats, Collections) {
  ExpectPayload("list<int>", "[1, 2]", "00000002 00000004 00000001 00000004 00000002");
  ExpectPayload("list<int>", "[]", "00000000");
  ExpectPayload("set<text>", "{'a'}", "00000001 00000001 61");
  ExpectPayload("map<text, int>", "{'a': 1}", "00000001 00000001 61 00000004 00000001");
  ExpectPayload("map<text, int>", "{'a': 1}", "0001 0001 61 0004 00000001", 2);
  ExpectPayload("list<list<int>>", "[[1]]", "0001 000c 00000001 00000004 00000001", 2);
  ExpectPayload("list<int>", "[1, null, 3]",
                "00000003 00000004 00000001 ffffffff 00000004 00000003");
  ExpectPayload("list<int>", "[empty]", "00000001 00000000");
  ExpectPayload("list<int>", "[empty]", "0001 0000", 2);
}

TEST(CqlWireFormats, TupleAndUdt) {
  ExpectPayload("tuple<int, text>", "(1, 'x')", "00000004 00000001 00000001 78");
  ExpectPayload("tuple<int, text>", "(1, null)", "00000004 00000001 ffffffff");
  ExpectPayload("udt<addr, street text, zip int>", "{street: 'x', zip: null}",
                "00000001 78 ffffffff");
  ExpectPayload("udt<addr, street text, zip int>", "{street: 'x', zip: 5}",
                "00000001 78 00000004 00000005");
  // A UDT value with an omitted trailing field is written as it is (the spec allows it).
  ExpectPayload("udt<addr, street text, zip int>", "{street: 'x'}", "00000001 78");
  // In v2 tuples and UDTs inside a top-level collection keep [int] lengths inside.
  ExpectPayload("list<tuple<int>>", "[(1)]", "0001 0008 00000004 00000001", 2);
}

// ---- decoder rejections, with offsets -----------------------------------------------------------

TEST(CqlDecodeErrors, LengthsCountsAndWidths) {
  using C = absl::StatusCode;
  ExpectDecodeError("int", "000001", C::kInvalidArgument, 0);
  ExpectDecodeError("int", "0000000100", C::kInvalidArgument, 0);
  ExpectDecodeError("list<int>", "00000001 00000004 000000", C::kOutOfRange, 4);
  ExpectDecodeError("list<int>", "00000001 000000", C::kOutOfRange, 0);
  ExpectDecodeError("list<int>", "000000", C::kOutOfRange, 0);
  ExpectDecodeError("list<int>", "00000001 00000004 00000001 00", C::kInvalidArgument, 12);
  ExpectDecodeError("list<int>", "00000001 fffffffe", C::kInvalidArgument, 4, 4, Strict());
  ExpectDecodeError("list<int>", "00000001 fffffff0", C::kInvalidArgument, 4, 4, Strict());
  ExpectDecodeError("list<int>", "00000001 00000003 000001", C::kInvalidArgument, 8);
  ExpectDecodeError("map<int, int>", "00000001 00000004 00000001", C::kOutOfRange, 12);
  ExpectDecodeError("tuple<int, int>", "00000004 00000001", C::kOutOfRange, 8, 4, Strict());
  ExpectDecodeError("tuple<int>", "00000004 00000001 00", C::kInvalidArgument, 8);
  ExpectDecodeError("udt<u, a int>", "00000004 00000001 ffffffff", C::kInvalidArgument, 8);
  ExpectDecodeError("udt<u, a int, b int>", "00000004 00000001 0000", C::kOutOfRange, 8);
  // v2: a null can not be expressed, 0xffff is a length of 65535.
  ExpectDecodeError("list<int>", "0001 ffff 00000001", C::kOutOfRange, 2, 2);
}

TEST(CqlDecodeErrors, ContentRules) {
  using C = absl::StatusCode;
  ExpectDecodeError("text", "68c3", C::kInvalidArgument, 1);
  const DecodeOptions strict = Strict();
  ExpectDecodeError("text", "c080", C::kInvalidArgument, 0, 4, strict);      // overlong
  ExpectDecodeError("text", "eda080", C::kInvalidArgument, 0, 4, strict);    // surrogate
  ExpectDecodeError("text", "f4908080", C::kInvalidArgument, 0, 4, strict);  // above U+10FFFF
  ExpectDecodeError("ascii", "41 80", C::kInvalidArgument, 1);
  ExpectDecodeError("inet", "7f0000", C::kInvalidArgument, 0);
  ExpectDecodeError("timeuuid", "00112233445546778899aabbccddeeff", C::kInvalidArgument, 6);
  ExpectDecodeError("time", "ffffffffffffffff", C::kInvalidArgument, 0, 4, strict);
  ExpectDecodeError("time", "00004e94914f0000", C::kInvalidArgument, 0, 4, strict);  // 86400e9
  ExpectDecodeError("varint", "0001", C::kInvalidArgument, 0, 4, strict);
  ExpectDecodeError("varint", "ff80", C::kInvalidArgument, 0, 4, strict);
  ExpectDecodeError("decimal", "00000001", C::kInvalidArgument, 0);
  ExpectDecodeError("decimal", "00000001 0001", C::kInvalidArgument, 4, 4, strict);
  ExpectDecodeError("duration", "02 01 00", C::kInvalidArgument, 0);  // 1 month, -1 day
  ExpectDecodeError("duration", "02 04", C::kOutOfRange, 2);
  ExpectDecodeError("duration", "02 04 06 00", C::kInvalidArgument, 3, 4, strict);
  ExpectDecodeError("duration", "8002 00 00", C::kInvalidArgument, 0, 4, strict);  // long vint
  // months beyond int32: zigzag(2^31) = 2^32 as a 5-byte vint.
  ExpectDecodeError("duration", "f100000000 00 00", C::kInvalidArgument, 0);
}

TEST(CqlDecodeErrors, LenientModeAcceptsLongVarints) {
  DecodeOptions lenient;
  lenient.require_minimal_varint = false;
  for (const Codec& c : Codecs()) {
    absl::StatusOr<Value> v = c.deserialize(T("varint"), Unhex("0001"), 4, lenient);
    ASSERT_TRUE(v.ok()) << c.name;
    EXPECT_EQ(*v, Value::Varint(BigInt::FromInt64(1)));
    v = c.deserialize(T("varint"), Unhex("ff80"), 4, lenient);
    ASSERT_TRUE(v.ok()) << c.name;
    EXPECT_EQ(*v, Value::Varint(BigInt::FromInt64(-128)));
    v = c.deserialize(T("duration"), Unhex("8002 00 00"), 4, lenient);
    ASSERT_TRUE(v.ok()) << c.name;
    EXPECT_EQ(v->duration(), (Duration{1, 0, 0}));
  }
}

TEST(CqlDecodeErrors, NestingDepthLimit) {
  Type t = T("int");
  for (int i = 0; i < 40; ++i) t = Type::List(std::move(t));
  const std::string bytes = Unhex("00000000");  // an empty outer list
  for (const Codec& c : Codecs()) {
    EXPECT_FALSE(c.deserialize(t, bytes, 4, {}).ok()) << c.name << ": 40 > default 32";
    DecodeOptions deep;
    deep.max_depth = 40;
    EXPECT_TRUE(c.deserialize(t, bytes, 4, deep).ok()) << c.name;
    deep.max_depth = 39;
    EXPECT_FALSE(c.deserialize(t, bytes, 4, deep).ok()) << c.name;
    deep.max_depth = 65;
    EXPECT_FALSE(c.deserialize(t, bytes, 4, deep).ok()) << c.name << ": above the hard cap";
  }
  absl::StatusOr<Value> err = Deserialize(t, bytes, 4);
  EXPECT_NE(err.status().message().find("offset 0:"), absl::string_view::npos) << err.status();
}

// ---- encoder rejections
// ---------------------------------------------------------------------------

TEST(CqlEncodeErrors, ValuesThatDoNotFitTheirType) {
  ExpectEncodeError(T("int"), Value::Int(int64_t{1} << 31));
  ExpectEncodeError(T("tinyint"), Value::Int(128));
  ExpectEncodeError(T("smallint"), Value::Int(-32769));
  ExpectEncodeError(T("date"), Value::Int(int64_t{1} << 31));
  ExpectEncodeError(T("time"), Value::Int(-1));
  ExpectEncodeError(T("time"), Value::Int(86'400'000'000'000));
  ExpectEncodeError(T("text"), Value::Text("\xC3"));
  ExpectEncodeError(T("ascii"), Value::Ascii("\xC3\xA9"));
  ExpectEncodeError(T("inet"), Value::Inet("abc"));
  ExpectEncodeError(T("duration"), Value::FromDuration({1, -1, 0}));
  ExpectEncodeError(T("int"), Value::Text("1"));
  ExpectEncodeError(T("list<int>"), Value::Pairs({Value::Int(1), Value::Int(2)}));
  ExpectEncodeError(T("map<int, int>"), Value::Pairs({Value::Int(1)}));
  ExpectEncodeError(T("tuple<int, int>"),
                    Value::Tuple({Value::Int(1), Value::Int(2), Value::Int(3)}));
  ExpectEncodeError(T("udt<u, a int>"), Value::Udt({Value::Int(1), Value::Int(2)}));
  ExpectEncodeError(T("list<int>"), Value::List({Value::Unset()}));
  ExpectEncodeError(T("int"), Value::Null());
  ExpectEncodeError(T("list<int>"), Value::List({Value::Null()}), 2);  // no null in [short]
  Uuid v4{};
  v4[6] = 0x40;
  ExpectEncodeError(T("timeuuid"), Value::FromUuid(v4));
  ExpectEncodeError(T("int"), Value::Int(1), 6);  // protocol version
  std::string long_text(70000, 'a');
  ExpectEncodeError(T("list<text>"), Value::List({Value::Text(long_text)}), 2);
  // A v1/v2 element is a [short bytes]: 65535 bytes is the most, written by every codec and sized
  // exactly; one more is refused.
  const std::string most(65535, 'b');
  for (const Codec& c : Codecs()) {
    const absl::StatusOr<std::string> got =
        c.serialize(T("list<text>"), Value::List({Value::Text(most)}), 2);
    ASSERT_TRUE(got.ok()) << c.name << ": " << got.status();
    EXPECT_EQ(CompactHex(got->substr(0, 4)), "0001ffff") << c.name;
    EXPECT_EQ(got->size(), 4 + most.size()) << c.name;
  }
  EXPECT_EQ(SerializedSize(T("list<text>"), Value::List({Value::Text(most)}), 2).value(),
            4 + most.size());
  ExpectEncodeError(T("list<text>"), Value::List({Value::Text(most + "b")}), 2);
  ExpectPayload("list<list<text>>", "[['a']]", "0001 0009 00000001 00000001 61", 2);
}

// A null or unset [value] writes no payload, but its type is checked all the same (codec.h): a
// list without its element type, a UDT with a repeated field name and a type nested one level
// past kMaxNestingDepth are refused by both codecs, as they are for any other value.
TEST(CqlEncodeErrors, ANullOrUnsetOfAnInvalidTypeIsRefused) {
  Type bare_list;
  bare_list.kind = Kind::kList;
  const Type twice =
      Type::Udt("u", {{"a", Type::Native(Kind::kInt)}, {"a", Type::Native(Kind::kInt)}});
  Type deep = Type::Native(Kind::kInt);
  for (int i = 0; i <= kMaxNestingDepth; ++i) deep = Type::List(deep);
  for (const Codec& c : Codecs()) {
    for (const Type& t : {bare_list, twice, deep}) {
      for (const Value& v : {Value::Null(), Value::Unset()}) {
        absl::StatusOr<std::string> r = c.serialize_value(t, v, 4);
        ASSERT_FALSE(r.ok()) << c.name << " " << CompactHex(*r);
        EXPECT_EQ(r.status().code(), absl::StatusCode::kInvalidArgument) << c.name << r.status();
      }
    }
  }
  EXPECT_FALSE(SerializedValueSize(bare_list, Value::Null(), 4).ok());
  EXPECT_FALSE(SerializedValueSize(deep, Value::Unset(), 4).ok());
  // The same types are fine one level shallower, and then a null is its four bytes.
  Type ok = Type::Native(Kind::kInt);
  for (int i = 0; i < kMaxNestingDepth; ++i) ok = Type::List(ok);
  for (const Codec& c : Codecs()) {
    EXPECT_EQ(CompactHex(*c.serialize_value(ok, Value::Null(), 4)), "ffffffff") << c.name;
  }
}

TEST(CqlEncodeErrors, MessageNamesOutputOffset) {
  const Type t = T("list<int>");
  absl::StatusOr<std::string> r =
      Serialize(t, Value::List({Value::Int(1), Value::Int(int64_t{1} << 40)}), 4);
  ASSERT_FALSE(r.ok());
  // count (4) + first element (8) + second element's length prefix (4) = offset 16.
  EXPECT_NE(r.status().message().find("output offset 16:"), absl::string_view::npos) << r.status();
}

// A tuple's or a UDT's later component is named at its own offset: the first component's length
// (4) and value (4), the second's length (4): offset 12 in the tuple, 16 inside a list.
TEST(CqlEncodeErrors, ATuplesLaterComponentIsNamedAtItsOffset) {
  const Value bad = Value::Tuple({Value::Int(1), Value::Int(int64_t{1} << 40)});
  EXPECT_NE(Serialize(T("tuple<int, int>"), bad, 4).status().message().find("output offset 12:"),
            absl::string_view::npos)
      << Serialize(T("tuple<int, int>"), bad, 4).status();
  const absl::StatusOr<std::string> listed =
      Serialize(T("list<frozen<tuple<int, int>>>"), Value::List({bad}), 4);
  EXPECT_NE(listed.status().message().find("output offset 20:"), absl::string_view::npos)
      << listed.status();
  const absl::StatusOr<std::string> udt = Serialize(
      T("udt<u, a int, b int>"), Value::Udt({Value::Int(1), Value::Int(int64_t{1} << 40)}), 4);
  EXPECT_NE(udt.status().message().find("output offset 12:"), absl::string_view::npos)
      << udt.status();
}

// The variable-length kinds name the offending byte itself: count (4) + length (4) + "ab" = 10
// for the text; count + "x" with its length (5) + length (4) + "a" = 14 for the ascii.
TEST(CqlEncodeErrors, MessageNamesTheOffendingByteOfTextAndAscii) {
  const absl::StatusOr<std::string> text =
      Serialize(T("list<text>"), Value::List({Value::Text("ab\xC3")}), 4);
  EXPECT_EQ(std::string(text.status().message()),
            "cql encode: value at output offset 10: text is not valid UTF-8 at byte 2");
  const absl::StatusOr<std::string> ascii =
      Serialize(T("list<ascii>"), Value::List({Value::Ascii("x"), Value::Ascii("a\x80")}), 4);
  EXPECT_EQ(std::string(ascii.status().message()),
            "cql encode: value at output offset 14: ascii byte 1 is above 127");
}

TEST(CqlSerializeTo, ExactBufferAndTooSmallBuffer) {
  const Type t = T("list<text>");
  const Value v = Value::List({Value::Text("hello"), Value::Null()});
  std::string buf(17 + 4, '\x5A');
  auto span = absl::MakeSpan(reinterpret_cast<uint8_t*>(buf.data()), 17);
  absl::StatusOr<size_t> n = SerializeTo(t, v, 4, span);
  ASSERT_TRUE(n.ok()) << n.status();
  EXPECT_EQ(*n, 17u);
  EXPECT_EQ(CompactHex(buf),
            "0000000200000005"
            "68656c6c6f"
            "ffffffff"
            "5a5a5a5a");
  std::string small(16, '\x5A');
  absl::StatusOr<size_t> e =
      SerializeTo(t, v, 4, absl::MakeSpan(reinterpret_cast<uint8_t*>(small.data()), 16));
  EXPECT_EQ(e.status().code(), absl::StatusCode::kResourceExhausted);
  EXPECT_EQ(small, std::string(16, '\x5A')) << "nothing written on error";
}

}  // namespace
}  // namespace serdiff::cql
