// CQL values family: exact bytes and exact errors, for the optimized codec (serdiff::cql) and
// the reference (serdiff::ref::cql) alike. Byte strings come from the issue, from
// native_protocol_v4.spec section 6 and from the python-driver 3.25
// examples recorded in docs/cql.md.
#include <gtest/gtest.h>

#include <bit>
#include <chrono>
#include <cmath>
#include <functional>
#include <limits>
#include <optional>
#include <string>

#include "absl/strings/match.h"
#include "absl/strings/str_cat.h"
#include "harness/alloc_tracker.h"
#include "harness/report.h"
#include "reference/cql/codec_ref.h"
#include "serdiff/common/error_offset.h"
#include "serdiff/cql/codec.h"
#include "serdiff/cql/literal.h"
#include "targets/cql/domain.h"
#include "targets/families.h"

namespace serdiff::cql {
namespace {

namespace ref = serdiff::ref::cql;
using harness::CompactHex;
using harness::Unhex;
using targets::cql::ExpectedDecode;

// Both implementations behind one interface, so that every test runs on each.
struct Codec {
  std::string name;
  std::function<absl::StatusOr<std::string>(const Type&, const Value&, int)> serialize;
  std::function<absl::StatusOr<std::string>(const Type&, const Value&, int)> serialize_value;
  std::function<absl::StatusOr<Value>(const Type&, std::string_view, int, const DecodeOptions&)>
      deserialize;
  std::function<absl::StatusOr<Value>(const Type&, std::string_view, int, const DecodeOptions&)>
      deserialize_value;
};

std::vector<Codec> Codecs() {
  return {
      {"optimized", [](const Type& t, const Value& v, int ver) { return Serialize(t, v, ver); },
       [](const Type& t, const Value& v, int ver) { return SerializeValue(t, v, ver); },
       [](const Type& t, std::string_view b, int ver, const DecodeOptions& o) {
         return Deserialize(t, b, ver, o);
       },
       [](const Type& t, std::string_view b, int ver, const DecodeOptions& o) {
         return DeserializeValue(t, b, ver, o);
       }},
      {"reference",
       [](const Type& t, const Value& v, int ver) { return ref::Serialize(t, v, ver); },
       [](const Type& t, const Value& v, int ver) { return ref::SerializeValue(t, v, ver); },
       [](const Type& t, std::string_view b, int ver, const DecodeOptions& o) {
         return ref::Deserialize(t, b, ver, o);
       },
       [](const Type& t, std::string_view b, int ver, const DecodeOptions& o) {
         return ref::DeserializeValue(t, b, ver, o);
       }},
  };
}

Type T(std::string_view text) {
  Type t;
  absl::Status st = ParseType(text, &t);
  EXPECT_TRUE(st.ok()) << st;
  return t;
}

Value V(const Type& t, std::string_view text) {
  Value v;
  absl::Status st = ParseValue(t, text, &v);
  EXPECT_TRUE(st.ok()) << st << " parsing " << text;
  return v;
}

// `type` / `value` (literal text) encodes to `hex` in `version` with both codecs, the size
// predictor agrees, and decoding `hex` gives back ExpectedDecode(value).
void ExpectPayload(const std::string& type, const std::string& value, const std::string& hex,
                   int version = 4) {
  const Type t = T(type);
  const Value v = V(t, value);
  const std::string want = Unhex(hex);
  for (const Codec& c : Codecs()) {
    SCOPED_TRACE(absl::StrCat(c.name, " v", version, " ", type, " ", value));
    absl::StatusOr<std::string> got = c.serialize(t, v, version);
    ASSERT_TRUE(got.ok()) << got.status();
    EXPECT_EQ(CompactHex(*got), CompactHex(want));
    absl::StatusOr<Value> back = c.deserialize(t, want, version, DecodeOptions{});
    ASSERT_TRUE(back.ok()) << back.status();
    EXPECT_EQ(FormatValue(t, *back), FormatValue(t, ExpectedDecode(t, v)));
  }
  absl::StatusOr<size_t> n = SerializedSize(t, v, version);
  ASSERT_TRUE(n.ok()) << n.status();
  EXPECT_EQ(*n, want.size());
}

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

// Both decoders reject `hex` as `type` with `code`, and both errors carry `offset` as their
// error-offset payload (serdiff/common/error_offset.h); the optimized message names it too.
void ExpectDecodeError(const std::string& type, const std::string& hex, absl::StatusCode code,
                       size_t offset, int version = 4, DecodeOptions options = {}) {
  const Type t = T(type);
  for (const Codec& c : Codecs()) {
    SCOPED_TRACE(absl::StrCat(c.name, " ", type, " ", hex));
    absl::StatusOr<Value> got = c.deserialize(t, Unhex(hex), version, options);
    ASSERT_FALSE(got.ok()) << FormatValue(t, *got);
    EXPECT_EQ(got.status().code(), code) << got.status();
    EXPECT_EQ(ErrorOffset(got.status()), std::optional<int64_t>(offset)) << got.status();
    if (c.name == "optimized") {
      EXPECT_NE(got.status().message().find(absl::StrCat("offset ", offset, ":")),
                absl::string_view::npos)
          << got.status();
    }
  }
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

TEST(CqlExactBytes, UdtWithMissingTrailingFieldReadsNull) {
  ExpectDecodes("udt<u, a int, b int>", "00000004 00000001", "{a: 1, b: null}");
  const Type t = T("udt<u, a int, b int>");
  const Value want = Value::Udt({Value::Int(1), Value::Null()});
  for (const Codec& c : Codecs()) {
    absl::StatusOr<Value> got = c.deserialize(t, Unhex("00000004 00000001"), 4, {});
    ASSERT_TRUE(got.ok());
    EXPECT_EQ(*got, want) << c.name;
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
    EXPECT_FALSE(c.deserialize_value(t, Unhex("fffffffe"), 3, {}).ok()) << c.name;
    EXPECT_FALSE(c.deserialize_value(t, Unhex("fffffffd"), 4, {}).ok()) << c.name;
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
  ExpectPayload("list<list<text>>", "[['a']]", "0001 0009 00000001 00000001 61", 2);
}

TEST(CqlEncodeErrors, MessageNamesOutputOffset) {
  const Type t = T("list<int>");
  absl::StatusOr<std::string> r =
      Serialize(t, Value::List({Value::Int(1), Value::Int(int64_t{1} << 40)}), 4);
  ASSERT_FALSE(r.ok());
  // count (4) + first element (8) + second element's length prefix (4) = offset 16.
  EXPECT_NE(r.status().message().find("output offset 16:"), absl::string_view::npos) << r.status();
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

// ---- memory: the contract in numbers
// -------------------------------------------------------------

TEST(CqlMemory, HalfMillionIntsPeakAtOutputPlus64KiB) {
  std::vector<Value> items;
  items.reserve(500'000);
  for (int i = 0; i < 500'000; ++i) items.push_back(Value::Int(int64_t{i} * 7919 % 2147483647));
  const Value v = Value::List(std::move(items));
  const Type t = Type::List(Type::Native(Kind::kInt));
  int64_t opt_peak, ref_peak;
  size_t opt_size, ref_size;
  {
    harness::PeakHeapScope scope;
    absl::StatusOr<std::string> out = Serialize(t, v, 4);
    opt_peak = scope.PeakBytes();
    ASSERT_TRUE(out.ok());
    opt_size = out->size();
  }
  {
    harness::PeakHeapScope scope;
    absl::StatusOr<std::string> out = ref::Serialize(t, v, 4);
    ref_peak = scope.PeakBytes();
    ASSERT_TRUE(out.ok());
    ref_size = out->size();
  }
  EXPECT_EQ(opt_size, 4'000'004u);
  EXPECT_EQ(ref_size, 4'000'004u);
  EXPECT_LE(opt_peak, 4'000'004 + 65'536);
  EXPECT_GE(opt_peak, 4'000'004);
  RecordProperty("optimized_peak_bytes", std::to_string(opt_peak));
  RecordProperty("reference_peak_bytes", std::to_string(ref_peak));
  std::printf("list<int> x 500000: output %zu bytes, optimized peak %lld, reference peak %lld\n",
              opt_size, static_cast<long long>(opt_peak), static_cast<long long>(ref_peak));
}

TEST(CqlMemory, ClaimedCountIsCheckedBeforeReserving) {
  // 100,000 claimed elements, 8 bytes of body: reserving first would take ~4.8 MB.
  const Type t = T("list<int>");
  const std::string input = Unhex("000186a0 00000004 00000001");
  harness::PeakHeapScope scope;
  absl::StatusOr<Value> got = Deserialize(t, input, 4);
  EXPECT_FALSE(got.ok());
  EXPECT_LE(scope.PeakBytes(), 16 * static_cast<int64_t>(input.size()) + 1024);
}

// ---- the model and its text form ----------------------------------------------------------------

TEST(CqlModel, TypeTextRoundTrips) {
  for (const char* s : {"int", "list<text>", "map<int, list<int>>", "tuple<int, text, blob>",
                        "udt<ks.addr, street text, zip int>", "set<frozen<map<text, int>>>"}) {
    Type t;
    ASSERT_TRUE(ParseType(s, &t).ok()) << s;
    Type back;
    ASSERT_TRUE(ParseType(TypeToString(t), &back).ok());
    EXPECT_EQ(t, back) << s;
  }
  EXPECT_EQ(TypeToString(T("frozen<list<varchar>>")), "list<text>");
  Type bad;
  EXPECT_FALSE(ParseType("map<int>", &bad).ok());
  EXPECT_FALSE(ParseType("list<nope>", &bad).ok());
  EXPECT_FALSE(ParseType("udt<u, a int, a text>", &bad).ok());
}

TEST(CqlModel, LiteralsAreExact) {
  EXPECT_EQ(FormatValue(T("list<text>"), Value::List({Value::Text("it's"), Value::Null()})),
            "['it\\'s', null]");
  EXPECT_EQ(FormatValue(T("float"), Value::Float(std::bit_cast<float>(0x7FC00001u))),
            "nan(0x7fc00001)");
  EXPECT_EQ(FormatValue(T("decimal"), Value::FromDecimal({-3, BigInt::FromInt64(1)})), "1E+3");
  EXPECT_EQ(FormatValue(T("decimal"), Value::FromDecimal({3, BigInt::FromInt64(-5)})), "-0.005");
  EXPECT_EQ(FormatValue(T("text"), Value::Text("\xFF"
                                               "a")),
            "'\\xffa'");
  EXPECT_EQ(FormatValue(T("int"), Value::Text("x")), "<bytes:0x78>");
  EXPECT_EQ(BigInt::PowerOfTwo(true, 127).ToDecimalString(),
            "-170141183460469231731687303715884105728");
  EXPECT_EQ(V(T("decimal"), "1E+3"), Value::FromDecimal({-3, BigInt::FromInt64(1)}));
  EXPECT_EQ(std::bit_cast<uint64_t>(V(T("double"), "nan(0x7ff8000000000001)").as_double()),
            0x7ff8000000000001u);
}

TEST(CqlModel, BigIntConversions) {
  EXPECT_EQ(BigInt::FromInt64(-1).magnitude(), std::string("\x01"));
  EXPECT_TRUE(BigInt::FromInt64(0).is_zero());
  EXPECT_EQ(BigInt::FromMagnitude(true, std::string("\0\0", 2)), BigInt());
  EXPECT_EQ(*BigInt::FromInt64(std::numeric_limits<int64_t>::min()).ToInt128(),
            absl::int128(std::numeric_limits<int64_t>::min()));
  EXPECT_FALSE(BigInt::PowerOfTwo(false, 127).ToInt128().has_value());
  EXPECT_TRUE(BigInt::PowerOfTwo(true, 127).ToInt128().has_value());
  BigInt b;
  ASSERT_TRUE(BigInt::FromDecimalString("-18446744073709551616", &b));
  EXPECT_EQ(b, BigInt::PowerOfTwo(true, 64));
  EXPECT_EQ(BigInt::PowerOfTwo(false, 8, -1), BigInt::FromInt64(255));
  EXPECT_EQ(BigInt::PowerOfTwo(true, 8, 1), BigInt::FromInt64(-257));
}

// ---- decode rules: server behaviour by default, the spec's stricter rules behind flags ----------
// One test per row of the table in docs/cql.md ("Decode rules"), each with the default options
// (what Cassandra's validators accept) and with the row's flag on. Cassandra = the validate
// methods of org.apache.cassandra.serializers.* (4.x/5.0); python = python3-cassandra 3.25.

// Both decoders read `hex` as `type` with `options` into the value whose literal is `value`.
void ExpectDecodesWith(const DecodeOptions& options, const std::string& type,
                       const std::string& hex, const std::string& value, int version = 4) {
  const Type t = T(type);
  for (const Codec& c : Codecs()) {
    SCOPED_TRACE(absl::StrCat(c.name, " ", type, " ", hex));
    absl::StatusOr<Value> got = c.deserialize(t, Unhex(hex), version, options);
    ASSERT_TRUE(got.ok()) << got.status();
    EXPECT_EQ(FormatValue(t, *got), value);
  }
}

DecodeOptions With(bool DecodeOptions::*flag) {
  DecodeOptions o;
  o.*flag = true;
  return o;
}

TEST(CqlDecodeRules, ShortTupleReadsMissingComponentsAsNull) {
  using C = absl::StatusCode;
  // The two inputs: Cassandra and python read (1, null) / {(1, null)}.
  ExpectDecodesWith({}, "tuple<int, int>", "00000004 00000001", "(1, null)");
  ExpectDecodesWith({}, "set<tuple<int, int>>", "00000001 00000008 00000004 00000001",
                    "{(1, null)}");
  ExpectDecodesWith({}, "tuple<int, text, int>", "00000004 00000001", "(1, null, null)");
  ExpectDecodesWith({}, "list<tuple<int, int>>", "00000002 00000000 00000008 00000004 00000001",
                    "[empty, (1, null)]");
  const DecodeOptions strict = With(&DecodeOptions::reject_short_tuples);
  ExpectDecodeError("tuple<int, int>", "00000004 00000001", C::kOutOfRange, 8, 4, strict);
  ExpectDecodeError("set<tuple<int, int>>", "00000001 00000008 00000004 00000001", C::kOutOfRange,
                    16, 4, strict);
  // Extra bytes after the last component stay an error in both modes (Cassandra: "Invalid
  // remaining data after end of tuple value").
  ExpectDecodeError("tuple<int>", "00000004 00000001 00", C::kInvalidArgument, 8);
  // The encoders write a short tuple value as it is, like a UDT value that stops early.
  ExpectPayload("tuple<int, int>", "(1)", "00000004 00000001");
}

TEST(CqlDecodeRules, NegativeItemLengthsAreNull) {
  using C = absl::StatusCode;
  ExpectDecodesWith({}, "list<int>", "00000001 fffffffe", "[null]");
  ExpectDecodesWith({}, "list<int>", "00000002 fffffff0 000000 04000000ff", "[null, 255]");
  ExpectDecodesWith({}, "tuple<int, int>", "fffffffb 80000000", "(null, null)");
  ExpectDecodesWith({}, "map<int, int>", "00000001 00000004 00000001 fffffffe", "{1: null}");
  const DecodeOptions strict = With(&DecodeOptions::reject_negative_lengths);
  ExpectDecodesWith(strict, "list<int>", "00000001 ffffffff", "[null]");
  ExpectDecodeError("list<int>", "00000001 fffffffe", C::kInvalidArgument, 4, 4, strict);
  ExpectDecodeError("tuple<int, int>", "fffffffb 80000000", C::kInvalidArgument, 0, 4, strict);
  ExpectDecodeError("map<int, int>", "00000001 00000004 00000001 fffffffe", C::kInvalidArgument, 12,
                    4, strict);
}

TEST(CqlDecodeRules, NonMinimalVarintsAreRead) {
  using C = absl::StatusCode;
  ExpectDecodesWith({}, "varint", "0001", "1");
  ExpectDecodesWith({}, "varint", "ff80", "-128");
  ExpectDecodesWith({}, "varint", "000000", "0");
  ExpectDecodesWith({}, "decimal", "00000001 0001", "0.1");
  ExpectDecodesWith({}, "duration", "8002 00 00", "duration(1, 0, 0)");
  const DecodeOptions strict = With(&DecodeOptions::require_minimal_varint);
  ExpectDecodeError("varint", "0001", C::kInvalidArgument, 0, 4, strict);
  ExpectDecodeError("varint", "ff80", C::kInvalidArgument, 0, 4, strict);
  ExpectDecodeError("decimal", "00000001 0001", C::kInvalidArgument, 4, 4, strict);
  ExpectDecodeError("duration", "02 8004 00", C::kInvalidArgument, 1, 4, strict);
}

TEST(CqlDecodeRules, TimeIsAnyEightBytes) {
  using C = absl::StatusCode;
  ExpectDecodesWith({}, "time", "ffffffffffffffff", "-1");
  ExpectDecodesWith({}, "time", "00004e94914f0000", "86400000000000");
  ExpectDecodesWith({}, "time", "00004e94914effff", "86399999999999");
  const DecodeOptions strict = With(&DecodeOptions::require_time_in_day);
  ExpectDecodesWith(strict, "time", "00004e94914effff", "86399999999999");
  ExpectDecodeError("time", "ffffffffffffffff", C::kInvalidArgument, 0, 4, strict);
  ExpectDecodeError("time", "00004e94914f0000", C::kInvalidArgument, 0, 4, strict);
  // The width is checked in both modes.
  ExpectDecodeError("time", "00004e94914f00", C::kInvalidArgument, 0);
}

TEST(CqlDecodeRules, DurationIgnoresBytesAfterItsThreeVints) {
  using C = absl::StatusCode;
  ExpectDecodesWith({}, "duration", "020406 00", "duration(1, 2, 3)");
  ExpectDecodesWith({}, "duration", "020406 ffff", "duration(1, 2, 3)");
  const DecodeOptions strict = With(&DecodeOptions::reject_duration_trailing_bytes);
  ExpectDecodeError("duration", "020406 00", C::kInvalidArgument, 3, 4, strict);
  // Signs and int32 ranges are Cassandra's rules too: rejected in both modes.
  ExpectDecodeError("duration", "020100", C::kInvalidArgument, 0);
  ExpectDecodeError("duration", "f100000000 00 00", C::kInvalidArgument, 0);
  ExpectDecodeError("duration", "0204", C::kOutOfRange, 2);
}

TEST(CqlDecodeRules, TextFollowsCassandrasValidator) {
  using C = absl::StatusCode;
  // Accepted by Cassandra's UTF8Validator, rejected by RFC 3629 (and by python's decode).
  for (const char* hex : {"c080", "eda080", "edbfbf", "f4908080", "f5808080", "f7bfbfbf", "e04180",
                          "e0c080", "f0108080", "f0d08080"}) {
    const Type t = T("text");
    for (const Codec& c : Codecs()) {
      SCOPED_TRACE(absl::StrCat(c.name, " ", hex));
      absl::StatusOr<Value> got = c.deserialize(t, Unhex(hex), 4, DecodeOptions{});
      ASSERT_TRUE(got.ok()) << got.status();
      EXPECT_EQ(got->bytes(), Unhex(hex));
    }
    ExpectDecodeError("text", hex, C::kInvalidArgument, 0, 4, With(&DecodeOptions::strict_utf8));
  }
  // Rejected in both modes, at the lead byte of the bad sequence.
  for (const DecodeOptions& o : {DecodeOptions{}, With(&DecodeOptions::strict_utf8)}) {
    ExpectDecodeError("text", "c1bf", C::kInvalidArgument, 0, 4, o);
    ExpectDecodeError("text", "41 80", C::kInvalidArgument, 1, 4, o);
    ExpectDecodeError("text", "41 f8808080", C::kInvalidArgument, 1, 4, o);
    ExpectDecodeError("text", "4142 e08080", C::kInvalidArgument, 2, 4, o);
    ExpectDecodeError("text", "4142 f0808080", C::kInvalidArgument, 2, 4, o);
    ExpectDecodeError("text", "414243 e1bf", C::kInvalidArgument, 3, 4, o);
    ExpectDecodeError("text", "c0", C::kInvalidArgument, 0, 4, o);
    ExpectDecodeError("text", "61626364656667ff", C::kInvalidArgument, 7, 4, o);
    ExpectDecodesWith(o, "text", "61626364656667c3a9", "'abcdefg\xc3\xa9'");
  }
}

TEST(CqlDecodeRules, RulesWhereSerdiffMatchesTheServer) {
  using C = absl::StatusCode;
  // Cassandra's deserializers reject a negative count ("cannot be deserialized as a list").
  ExpectDecodeError("list<int>", "ffffffff", C::kInvalidArgument, 0);
  // Trailing bytes after the last element (Cassandra: "Unexpected extraneous bytes").
  ExpectDecodeError("list<int>", "00000000 00", C::kInvalidArgument, 4);
  ExpectDecodeError("map<int, int>", "00000000 00", C::kInvalidArgument, 4);
  // A decimal needs its 4-byte scale and at least one unscaled byte (Cassandra's validate
  // passes 4 bytes, its deserialize then fails on the empty BigInteger; python fails too).
  ExpectDecodeError("decimal", "00000001", C::kInvalidArgument, 0);
  ExpectDecodeError("decimal", "0001", C::kInvalidArgument, 0);
  ExpectDecodeError("inet", "0102030405", C::kInvalidArgument, 0);
  ExpectDecodesWith({}, "inet", "01020304", "'1.2.3.4'");
  ExpectDecodeError("date", "800000", C::kInvalidArgument, 0);
  ExpectDecodesWith({}, "date", "80000000", "0");
  ExpectDecodeError("ascii", "41 80", C::kInvalidArgument, 1);
  ExpectDecodeError("timeuuid", "00000000000040008000000000000000", C::kInvalidArgument, 6);
  // Null elements of lists, sets and maps are read as null (python: None).
  ExpectDecodesWith({}, "set<int>", "00000001 ffffffff", "{null}");
  ExpectDecodesWith({}, "map<int, int>", "00000001 ffffffff 00000004 00000001", "{null: 1}");
}

// ---- error offsets (docs/architecture.md, "Error offsets") ------------------------------------

TEST(CqlErrorOffsets, CountsAreCheckedAgainstTheSmallestElementUpFront) {
  using C = absl::StatusCode;
  // One map entry needs at least 8 bytes (two lengths): the count at offset 0 is wrong.
  ExpectDecodeError("map<int, int>", "00000001 00000000", C::kOutOfRange, 0);
  ExpectDecodeError("list<int>", "00000002 00000000", C::kOutOfRange, 0);
  ExpectDecodeError("list<int>", "0002 0000", C::kOutOfRange, 0, 2);
  ExpectDecodeError("map<int, int>", "0001 0000", C::kOutOfRange, 0, 2);
  // Nested: the inner count is at offset 8.
  ExpectDecodeError("list<map<int, int>>", "00000001 00000008 00000001 00000000", C::kOutOfRange,
                    8);
  // Enough bytes for the count: the error is where the bytes run out, at the item.
  ExpectDecodeError("map<int, int>", "00000001 00000004 00000001", C::kOutOfRange, 12);
  ExpectDecodeError("list<int>", "00000001 00000008 00000001", C::kOutOfRange, 4);
}

TEST(CqlErrorOffsets, TextAndFramedValues) {
  using C = absl::StatusCode;
  ExpectDecodeError("text", "61626364656667ff", C::kInvalidArgument, 7);
  ExpectDecodesWith({}, "text", "61626364656667c3a9", "'abcdefg\xc3\xa9'");
  ExpectDecodeError("list<text>", "00000001 00000003 41ff41", C::kInvalidArgument, 9);
  const Type t = T("int");
  struct Case {
    std::string hex;
    absl::StatusCode code;
    int64_t offset;
    int version;
  };
  for (const Case& k :
       {Case{"000000", C::kOutOfRange, 0, 4},
        Case{"00000004 00000001 00", C::kInvalidArgument, 8, 4},
        Case{"00000008 00000001", C::kOutOfRange, 0, 4},
        Case{"fffffffe 00", C::kInvalidArgument, 0, 3},
        Case{"fffffffe 00", C::kInvalidArgument, 4, 4}, Case{"fffffffd", C::kInvalidArgument, 0, 4},
        Case{"00000003 000001", C::kInvalidArgument, 4, 4}}) {
    for (const Codec& c : Codecs()) {
      SCOPED_TRACE(absl::StrCat(c.name, " ", k.hex, " v", k.version));
      absl::StatusOr<Value> got = c.deserialize_value(t, Unhex(k.hex), k.version, {});
      ASSERT_FALSE(got.ok());
      EXPECT_EQ(got.status().code(), k.code) << got.status();
      EXPECT_EQ(ErrorOffset(got.status()), std::optional<int64_t>(k.offset)) << got.status();
    }
  }
  // Setup errors (a bad version) carry offset 0.
  for (const Codec& c : Codecs()) {
    absl::StatusOr<Value> got = c.deserialize(t, Unhex("00000001"), 6, {});
    ASSERT_FALSE(got.ok());
    EXPECT_EQ(ErrorOffset(got.status()), std::optional<int64_t>(0)) << c.name;
  }
}

// ---- the CQL peers' accepted divergences (targets/cql/peer_divergences.cc, docs/peers.md) ----

// The name (its reason's first word) of the first divergence of `impl` on `target` that accepts
// `answer` (hex bytes, or "rejected: <message>") for the input printed as `text`; "" when none
// does.
std::string AcceptedBy(std::string_view target, std::string_view impl, std::string_view text,
                       std::string_view answer) {
  using In = targets::cql::EncodeInput;
  const auto* t = dynamic_cast<const harness::TypedTarget<In>*>(targets::AllTargets().Find(target));
  if (t == nullptr) return "no such target";
  absl::StatusOr<In> in = t->def().domain.parse(text);
  if (!in.ok()) return absl::StrCat("unparsed: ", in.status().ToString());
  const harness::Output serdiff = Serialize(in->type, in->value, in->version);
  const std::string a(answer);
  harness::Output peer = absl::InvalidArgumentError(a.substr(a.find(' ') + 1));
  if (!absl::StartsWith(a, "rejected:")) peer = Unhex(a);
  for (const auto& d : t->def().divergences) {
    if (d.impl == impl && d.applies(*in, serdiff, peer))
      return d.reason.substr(0, d.reason.find_first_of(": "));
  }
  return "";
}

TEST(CqlPeerDivergences, AcceptExactlyTheDriversModelledAnswers) {
  struct Row {
    const char* target;
    const char* impl;
    const char* input;
    const char* answer;
    const char* accepted;  // the divergence's name, "" for none
  };
  constexpr const char* kPy = "python_cassandra";
  constexpr const char* kNode = "node_cassandra";
  constexpr const char* kN = "cql_encode_nested";
  constexpr const char* kS = "cql_encode_scalar";
  const Row rows[] = {
      // python driver 3.25: a null collection element is written empty, ...
      {kN, kPy, "v4 payload list<int> = [1, null, 3]",
       "00000003 0000000400000001 00000000 0000000400000003", "none-element-as-empty"},
      {kN, kPy, "v4 payload list<int> = [1, null, 3]",
       "00000003 0000000400000001 00000000 0000000400000004", ""},
      {kN, kPy, "v4 payload list<int> = [1, null, 3]",
       "00000003 0000000400000001 fffffffe 0000000400000003", ""},
      {kN, kPy, "v4 [value] map<int, text> = {1: null}",
       "00000010 00000001 0000000400000001 00000000", "none-element-as-empty"},
      {kN, kPy, "v4 payload list<time> = [-1, null]", "00000002 00000008ffffffffffffffff 00000000",
       "none-element-as-empty"},
      // ... only the fields given of a UDT have no driver form (the worker declines them).
      {kN, kPy, "v4 payload udt<u, f0 int, f1 int> = {f0: 1}", "00000004 00000001 ffffffff", ""},
      {kS, kPy, "v4 payload time = -1", "ffffffffffffffff", "time-range-unchecked"},
      {kS, kPy, "v4 payload time = -1", "00000000ffffffff", ""},
      {kS, kPy, "v4 payload duration = duration(1, -2, 3)", "020306", "duration-sign-unchecked"},
      {kS, kPy, "v2 payload duration = duration(1, -2, 3)", "020306", ""},
      {kS, kPy, "v4 payload timeuuid = 00000000-0000-4000-8000-000000000000",
       "00000000000040008000000000000000", "timeuuid-version-unchecked"},
      {kS, kPy, "v4 payload int = 1", "00000002", ""},
      // Node.js driver 4.10.0.
      {kN, kNode, "v4 payload list<int> = [1, null]",
       "rejected: node_cassandra: Encoder.encode: A collection can't contain null or unset values",
       "null-element-refused"},
      {kN, kNode, "v4 payload list<int> = [1, null]", "rejected: node_cassandra: something else",
       ""},
      {kN, kNode, "v4 payload list<list<int>> = [[]]",
       "rejected: Encoder.encode: Cannot read properties of null (reading 'length')",
       "empty-list-in-list-crash"},
      {kN, kNode, "v4 payload list<list<int>> = [[null], []]",
       "rejected: Encoder.encode: Cannot read properties of null (reading 'length')", ""},
      {kN, kNode, "v4 payload list<list<int>> = [[null], []]",
       "rejected: Encoder.encode: A collection can't contain null or unset values",
       "null-element-refused"},
      {kN, kNode, "v4 payload tuple<list<int>> = ([])", "ffffffff", "empty-list-as-null"},
      {kN, kNode, "v4 payload map<int, list<int>> = {1: []}", "00000001 0000000400000001 00000000",
       "empty-list-as-null"},
      {kN, kNode, "v4 payload udt<u, f0 text, f1 int> = {f0: 'Main St'}",
       "000000074d61696e205374 ffffffff", "udt-fields-padded"},
      {kN, kNode, "v4 payload udt<u, f0 text, f1 int> = {f0: 'Main St'}",
       "000000074d61696e205374 00000000", ""},
      {kN, kNode, "v2 payload list<list<int>> = [[1]]", "0001 0008 0001 0004 00000001",
       "short-lengths-nested"},
      {kN, kNode, "v3 payload list<list<int>> = [[1]]", "0001 0008 0001 0004 00000001", ""},
      {kS, kNode, "v4 payload ascii = '\xc3\xa9\xe2\x82\xac'", "e9ac", "ascii-as-latin1"},
      {kS, kNode, "v4 payload ascii = '\xc3\xa9'", "c3a9", ""},
      {kS, kNode, "v4 payload timeuuid = 00000000-0000-4000-8000-000000000000",
       "00000000000040008000000000000001", ""},
  };
  for (const Row& r : rows) {
    SCOPED_TRACE(absl::StrCat(r.impl, " ", r.input, " -> ", r.answer));
    EXPECT_EQ(AcceptedBy(r.target, r.impl, r.input, r.answer), r.accepted);
  }
}

}  // namespace
}  // namespace serdiff::cql
