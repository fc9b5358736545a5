// The exact text each interchange sends to a worker or module, on any machine (no worker
// needed): the CQL JSON values of cql.serialize (docs/workers.md, "CQL JSON values") and the
// civil fields of timestamp.civil_to_cql, byte for byte, as the BSON Extended JSON and varint
// texts are in tests/interchange_test.cc. A precision loss (a double sent with 16 significant
// digits), a field in another unit or an escape left out fails here. The double texts are what
// C's printf("%.17g") gives (Python's '%.17g' % x agrees), the shortest form that always reads
// back to the same double.
#include <gtest/gtest.h>

#include <cstdint>
#include <cstring>
#include <limits>
#include <string>
#include <utility>
#include <vector>

#include "harness/result.h"
#include "harness/target.h"
#include "serdiff/cql/value.h"
#include "serdiff/timestamp/civil.h"
#include "targets/cql/domain.h"
#include "targets/cql/interchange.h"
#include "targets/families.h"

namespace serdiff::targets {
namespace {

using serdiff::cql::BigInt;
using serdiff::cql::Kind;
using serdiff::cql::Type;
using serdiff::cql::Value;

template <typename T>
const harness::Interchange<T>& InterchangeOf(const std::string& target) {
  const harness::Target* t = AllTargets().Find(target);
  EXPECT_NE(t, nullptr) << target;
  const auto* typed = dynamic_cast<const harness::TypedTarget<T>*>(t);
  EXPECT_NE(typed, nullptr) << target;
  return typed->def().interchange;
}

Type T(const std::string& text) {
  Type t;
  EXPECT_TRUE(serdiff::cql::ParseType(text, &t).ok()) << text;
  return t;
}

// The "value" member alone.
std::string Json(const std::string& type, const Value& v) {
  absl::StatusOr<std::string> s = cql::CqlValueJson(T(type), v);
  return s.ok() ? *s : "error: " + std::string(s.status().message());
}

double DoubleOfBits(uint64_t bits) {
  double d;
  std::memcpy(&d, &bits, 8);
  return d;
}

TEST(InterchangeText, CqlRequestThroughTheRegisteredTarget) {
  const auto& ic = InterchangeOf<cql::EncodeInput>("cql_encode_scalar");
  EXPECT_EQ(ic.op, "cql.serialize");
  cql::EncodeInput in{T("list<int>"), Value::List({Value::Int(1), Value::Null(), Value::Int(3)}), 4,
                      false};
  EXPECT_EQ(ic.input_json(in).value(), R"({"type":"list<int>","value":[1,null,3],"version":4})");
  in = {T("map<text, frozen<list<bigint>>>"),
        Value::Map({{Value::Text("a"), Value::List({Value::Int(-1)})}}), 3, true};
  EXPECT_EQ(ic.input_json(in).value(),
            R"({"type":"map<text, list<bigint>>","value":[["a",["-1"]]],"version":3})");
  // A top-level null has no payload to compare.
  in = {T("int"), Value::Null(), 4, true};
  EXPECT_TRUE(harness::IsDeclined(ic.input_json(in).status()));
}

// The answer's bytes become the output (framed: behind their 4-byte length); an answer without
// "hex" is a protocol failure, never an empty payload.
TEST(InterchangeText, CqlAnswerBytesAndAnAnswerWithoutHex) {
  const auto& ic = InterchangeOf<cql::EncodeInput>("cql_encode_scalar");
  const cql::EncodeInput framed{T("int"), Value::Int(1), 4, true};
  harness::ExternalAnswer a;
  a.bytes = std::string("\0\0\0\x01", 4);
  a.has_hex = true;
  EXPECT_EQ(ic.output(framed, a).value(), std::string("\0\0\0\x04\0\0\0\x01", 8));
  a = {};
  a.value_json = "1";
  for (const bool f : {true, false}) {
    const absl::StatusOr<std::string> out = ic.output({T("int"), Value::Int(1), 4, f}, a);
    EXPECT_EQ(harness::WorkerFailureClass(out.status()), "worker-protocol") << out.status();
  }
}

TEST(InterchangeText, CqlDoublesKeepEveryBit) {
  EXPECT_EQ(Json("double", Value::Double(0.1)), "0.10000000000000001");
  EXPECT_EQ(Json("double", Value::Double(1e300)), "1.0000000000000001e+300");
  EXPECT_EQ(Json("double", Value::Double(0.5)), "0.5");
  EXPECT_EQ(Json("double", Value::Double(100.0)), "100");
  EXPECT_EQ(Json("double", Value::Double(std::numeric_limits<double>::denorm_min())),
            "4.9406564584124654e-324");
  EXPECT_EQ(Json("double", Value::Double(std::numeric_limits<double>::max())),
            "1.7976931348623157e+308");
  EXPECT_EQ(Json("double", Value::Double(-0.0)), R"("-0")");
  EXPECT_EQ(Json("double", Value::Double(0.0)), "0");
  EXPECT_EQ(Json("double", Value::Double(std::numeric_limits<double>::infinity())),
            R"("Infinity")");
  EXPECT_EQ(Json("double", Value::Double(-std::numeric_limits<double>::infinity())),
            R"("-Infinity")");
  EXPECT_EQ(Json("double", Value::Double(DoubleOfBits(0x7ff8000000000000ull))), R"("NaN")");
  // A NaN with another payload (or sign) has no JSON form.
  EXPECT_TRUE(harness::IsDeclined(
      cql::CqlValueJson(T("double"), Value::Double(DoubleOfBits(0x7ff8000000000001ull))).status()));
  EXPECT_TRUE(harness::IsDeclined(
      cql::CqlValueJson(T("double"), Value::Double(DoubleOfBits(0xfff8000000000000ull))).status()));
  // A float is sent as the double it is exactly.
  EXPECT_EQ(Json("float", Value::Float(0.1f)), "0.10000000149011612");
  EXPECT_EQ(Json("float", Value::Float(-0.0f)), R"("-0")");
}

TEST(InterchangeText, CqlIntegersDatesAndTimes) {
  EXPECT_EQ(Json("tinyint", Value::Int(-128)), "-128");
  EXPECT_EQ(Json("int", Value::Int(2147483647)), "2147483647");
  // 64-bit kinds as strings (a JSON number past 2^53 loses digits in most readers).
  EXPECT_EQ(Json("bigint", Value::Int(std::numeric_limits<int64_t>::min())),
            R"("-9223372036854775808")");
  EXPECT_EQ(Json("counter", Value::Int(9007199254740993)), R"("9007199254740993")");
  EXPECT_EQ(Json("timestamp", Value::Int(-1)), R"("-1")");
  EXPECT_EQ(Json("time", Value::Int(86399999999999)), R"("86399999999999")");
  // A date is the wire's unsigned day number: 2^31 is 1970-01-01.
  EXPECT_EQ(Json("date", Value::Int(0)), "2147483648");
  EXPECT_EQ(Json("date", Value::Int(-1)), "2147483647");
  EXPECT_EQ(Json("date", Value::Int(-2147483648)), "0");
  EXPECT_EQ(Json("boolean", Value::Bool(false)), "false");
}

TEST(InterchangeText, CqlTextBytesAndNumbers) {
  // RFC 8259 escapes for '"', '\\' and control characters; UTF-8 as it is.
  EXPECT_EQ(Json("text", Value::Text("a\"b\\c\n\x01\xc3\xa9")),
            "\"a\\\"b\\\\c\\n\\u0001\xc3\xa9\"");
  EXPECT_TRUE(harness::IsDeclined(cql::CqlValueJson(T("text"), Value::Text("\xff")).status()));
  EXPECT_EQ(Json("blob", Value::Blob(std::string("\x00\xff\x10", 3))), R"({"hex":"00ff10"})");
  EXPECT_EQ(Json("inet", Value::Inet(std::string("\x7f\x00\x00\x01", 4))), R"({"hex":"7f000001"})");
  serdiff::cql::Uuid u;
  for (int i = 0; i < 16; ++i) u[i] = static_cast<uint8_t>(0x11 * (i % 16));
  EXPECT_EQ(Json("uuid", Value::FromUuid(u)), R"("00112233-4455-6677-8899-aabbccddeeff")");
  EXPECT_EQ(Json("varint", Value::Varint(BigInt::PowerOfTwo(true, 64))),
            R"("-18446744073709551616")");
  EXPECT_EQ(Json("decimal", Value::FromDecimal({2, BigInt::FromInt64(-12345)})),
            R"({"unscaled":"-12345","scale":2})");
  EXPECT_EQ(Json("decimal", Value::FromDecimal({-3, BigInt::FromInt64(7)})),
            R"({"unscaled":"7","scale":-3})");
  EXPECT_EQ(Json("duration", Value::FromDuration({1, -2, -3000000000})),
            R"({"months":1,"days":-2,"nanos":"-3000000000"})");
}

TEST(InterchangeText, CqlCollectionsTuplesAndUdts) {
  EXPECT_EQ(Json("list<list<int>>", Value::List({Value::List({})})), "[[]]");
  EXPECT_EQ(Json("set<text>", Value::Set({Value::Text("x"), Value::Null()})), R"(["x",null])");
  EXPECT_EQ(Json("map<int, text>",
                 Value::Map({{Value::Int(1), Value::Null()}, {Value::Int(2), Value::Text("b")}})),
            R"([[1,null],[2,"b"]])");
  EXPECT_EQ(Json("tuple<int, text, double>", Value::Tuple({Value::Int(1), Value::Null()})),
            "[1,null]");
  EXPECT_EQ(Json("udt<addr, street text, zip int>", Value::Udt({Value::Text("Main St")})),
            R"(["Main St"])");
  // More components than the type has, or an empty value inside: no JSON form.
  EXPECT_TRUE(harness::IsDeclined(
      cql::CqlValueJson(T("tuple<int>"), Value::Tuple({Value::Int(1), Value::Int(2)})).status()));
  EXPECT_TRUE(harness::IsDeclined(
      cql::CqlValueJson(T("list<int>"), Value::List({Value::Empty()})).status()));
}

TEST(InterchangeText, TimestampCivilFieldsInNanoseconds) {
  const auto& ic = InterchangeOf<serdiff::timestamp::CivilDateTime>("timestamp_driver_serialize");
  EXPECT_EQ(ic.op, "timestamp.civil_to_cql");
  EXPECT_EQ(ic.input_json({1969, 12, 31, 23, 59, 59, 999500}).value(),
            R"({"year":1969,"month":12,"day":31,"hour":23,"minute":59,"second":59,)"
            R"("nanos":999500000})");
  EXPECT_EQ(ic.input_json({1, 1, 1, 0, 0, 0, 0}).value(),
            R"({"year":1,"month":1,"day":1,"hour":0,"minute":0,"second":0,"nanos":0})");
  EXPECT_EQ(ic.input_json({9999, 12, 31, 23, 59, 59, 999999}).value(),
            R"({"year":9999,"month":12,"day":31,"hour":23,"minute":59,"second":59,)"
            R"("nanos":999999000})");
}

}  // namespace
}  // namespace serdiff::targets
