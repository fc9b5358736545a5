// The interchange of the bson and varint targets (docs/workers.md, "The interchange"): the exact
// JSON text each op is given, and how an answer becomes the target's output. Every expected text
// is derived by hand: the Extended JSON forms from mongodb/specifications
// (source/extended-json/extended-json.md, the BSON corpus's canonical_extjson), the bytes from
// the BSON 1.1 spec and Fory's varuint64 (docs/varint.md).
#include <algorithm>
#include <cmath>
#include <cstdint>
#include <cstring>
#include <limits>
#include <optional>
#include <string>
#include <vector>

#include "absl/status/status.h"
#include "absl/strings/escaping.h"
#include "gtest/gtest.h"
#include "harness/external.h"
#include "harness/target.h"
#include "reference/bson/bson_ref.h"
#include "reference/varint/varint_ref.h"
#include "serdiff/bson/codec.h"
#include "serdiff/bson/document.h"
#include "serdiff/common/error_offset.h"
#include "serdiff/timestamp/civil.h"
#include "serdiff/varint/varint.h"
#include "targets/bson/divergences.h"
#include "targets/bson/domain.h"
#include "targets/bson/interchange.h"
#include "targets/families.h"
#include "targets/varint/divergences.h"
#include "targets/varint/interchange.h"

namespace serdiff::targets {
namespace {

namespace sb = serdiff::bson;
namespace vi = varint;
using harness::ExternalAnswer;
using sb::Document;
using sb::Element;
using sb::Type;
using sb::Value;

template <typename T>
const harness::Interchange<T>& InterchangeOf(const std::string& target) {
  const harness::Target* t = AllTargets().Find(target);
  EXPECT_NE(t, nullptr) << target;
  const auto* typed = dynamic_cast<const harness::TypedTarget<T>*>(t);
  EXPECT_NE(typed, nullptr) << target;
  return typed->def().interchange;
}

std::string Unhex(const std::string& hex) { return absl::HexStringToBytes(hex); }

double FromBits(uint64_t bits) {
  double d;
  std::memcpy(&d, &bits, sizeof d);
  return d;
}

Value Typed(Type t, std::string s = "", std::string s2 = "") {
  Value v = sb::OfType(t);
  v.s = std::move(s);
  v.s2 = std::move(s2);
  return v;
}

// ---- which targets take which op -------------------------------------------------------------

TEST(Interchange, EachTargetNamesItsOp) {
  const std::vector<std::pair<std::string, std::string>> expected = {
      {"bson_format_int64", "int64.to_decimal"},
      {"bson_format_uint64", "uint64.to_decimal"},
      {"bson_array_keys", "bson.array_keys"},
      {"bson_encode", "bson.encode"},
      {"bson_encode_packed", "bson.encode"},
      {"bson_decode", "bson.decode"},
      {"bson_decode_offsets", ""},
      {"varint_fory_encode", "varint.fory_encode"},
      {"varint_fory_zigzag_encode", "varint.fory_encode"},
      {"varint_fory_decode", "varint.fory_decode"},
      {"varint_leb128_encode", ""},
      {"varint_vint_decode", ""},
  };
  for (const auto& [name, op] : expected) {
    const harness::Target* t = AllTargets().Find(name);
    ASSERT_NE(t, nullptr) << name;
    EXPECT_EQ(t->info().interchange_op, op) << name;
  }
}

// ---- integers to decimal ---------------------------------------------------------------------

TEST(Interchange, Int64ToDecimal) {
  const auto& ic = InterchangeOf<int64_t>("bson_format_int64");
  const int64_t min = std::numeric_limits<int64_t>::min();
  EXPECT_EQ(ic.input_json(min).value(), R"({"value":"-9223372036854775808"})");
  EXPECT_EQ(ic.input_json(0).value(), R"({"value":"0"})");
  EXPECT_EQ(ic.as_int64(min), min);
  EXPECT_FALSE(ic.output);  // the answer's bytes: the ASCII digits
}

TEST(Interchange, Uint64ToDecimal) {
  const auto& ic = InterchangeOf<uint64_t>("bson_format_uint64");
  const uint64_t max = std::numeric_limits<uint64_t>::max();
  EXPECT_EQ(ic.input_json(max).value(), R"({"value":"18446744073709551615"})");
  EXPECT_EQ(ic.as_int64(max), -1);  // the bit pattern
  EXPECT_EQ(ic.as_int64(uint64_t{1} << 63), std::numeric_limits<int64_t>::min());
}

TEST(Interchange, ArrayKeys) {
  const auto& ic = InterchangeOf<uint32_t>("bson_array_keys");
  EXPECT_EQ(ic.input_json(11).value(), R"({"count":11})");
  EXPECT_EQ(ic.input_json(0).value(), R"({"count":0})");
}

// ---- bson.encode: canonical Extended JSON ----------------------------------------------------

TEST(ExtendedJson, TheExampleDocument) {
  Document doc;
  doc.elements = {
      {"a", sb::Int32(1)},
      {"b", sb::Int64(-1)},
      {"c", sb::Double(1.5)},
      {"d", Typed(Type::kBinary, std::string("\x01\x02", 2))},
      {"e", sb::Array({sb::Bool(true), sb::Null()})},
  };
  // base64 of 01 02: 000000 010000 0010(00) -> "AQI=".
  const std::string ejson =
      R"({"a":{"$numberInt":"1"},"b":{"$numberLong":"-1"},"c":{"$numberDouble":"1.5"},)"
      R"("d":{"$binary":{"base64":"AQI=","subType":"00"}},"e":[true,null]})";
  EXPECT_EQ(bson::CanonicalExtendedJson(doc).value(), ejson);
  const auto& ic = InterchangeOf<Document>("bson_encode");
  EXPECT_EQ(ic.input_json(doc).value(), R"({"document":)" + ejson + "}");
  EXPECT_FALSE(ic.output);  // the answer's bytes: the document's BSON
}

TEST(ExtendedJson, EveryWrapper) {
  Value ts = sb::OfType(Type::kTimestamp);
  ts.i = (int64_t{42} << 32) | 1;  // seconds 42 (high 32 bits), increment 1
  Value cws = Typed(Type::kCodeWithScope, "g");
  cws.children = {{"x", sb::Int32(2)}};
  Value bin_old = Typed(Type::kBinary, "\xff\xff");
  bin_old.subtype = 0x02;  // the inner length is the encoders' to add: base64 of ff ff alone
  Value bin_user = Typed(Type::kBinary, "123");
  bin_user.subtype = 0x80;
  serdiff::timestamp::CivilDateTime before_epoch{1969, 12, 31,    23,
                                                 59,   59, 999500};  // -500 us: floor -1 ms
  Document doc;
  doc.elements = {
      {"oid", Typed(Type::kObjectId, Unhex("000102030405060708090a0b"))},
      {"sym", Typed(Type::kSymbol, "s")},
      {"date", sb::DateTimeMillis(-62135596800000)},
      {"civil", sb::DateTimeCivil(before_epoch)},
      {"re", Typed(Type::kRegex, "a\"b", "xmi")},
      {"ts", ts},
      {"dbp", Typed(Type::kDbPointer, "db.c", std::string(12, '\x11'))},
      {"code", Typed(Type::kCode, "f()")},
      {"cws", cws},
      {"min", sb::OfType(Type::kMinKey)},
      {"max", sb::OfType(Type::kMaxKey)},
      {"u", sb::OfType(Type::kUndefined)},
      {"f", sb::Bool(false)},
      {"nan", sb::Double(FromBits(0x7FF8000000000000))},
      {"inf", sb::Double(std::numeric_limits<double>::infinity())},
      {"ninf", sb::Double(-std::numeric_limits<double>::infinity())},
      {"nz", sb::Double(-0.0)},
      {"bin2", bin_old},
      {"bin80", bin_user},
      {"str", sb::String("\x01\n\"\\\xc3\xa9")},
      {"doc", sb::SubDocument({{"k", sb::Null()}, {"", sb::String("")}})},
      {"packed", sb::PackedInt32(std::vector<int32_t>{1, -2})},
  };
  EXPECT_EQ(bson::CanonicalExtendedJson(doc).value(),
            R"({"oid":{"$oid":"000102030405060708090a0b"},"sym":{"$symbol":"s"},)"
            R"("date":{"$date":{"$numberLong":"-62135596800000"}},)"
            R"("civil":{"$date":{"$numberLong":"-1"}},)"
            R"("re":{"$regularExpression":{"pattern":"a\"b","options":"imx"}},)"
            R"("ts":{"$timestamp":{"t":42,"i":1}},)"
            R"("dbp":{"$dbPointer":{"$ref":"db.c","$id":{"$oid":"111111111111111111111111"}}},)"
            R"j("code":{"$code":"f()"},"cws":{"$code":"g","$scope":{"x":{"$numberInt":"2"}}},)j"
            R"("min":{"$minKey":1},"max":{"$maxKey":1},"u":{"$undefined":true},"f":false,)"
            R"("nan":{"$numberDouble":"NaN"},"inf":{"$numberDouble":"Infinity"},)"
            R"("ninf":{"$numberDouble":"-Infinity"},"nz":{"$numberDouble":"-0.0"},)"
            R"("bin2":{"$binary":{"base64":"//8=","subType":"02"}},)"
            R"("bin80":{"$binary":{"base64":"MTIz","subType":"80"}},)"
            "\"str\":\"\\u0001\\n\\\"\\\\\xc3\xa9\","
            R"("doc":{"k":null,"":""},"packed":[{"$numberInt":"1"},{"$numberInt":"-2"}]})");
}

TEST(ExtendedJson, ArraysIgnoreTheirModelKeys) {
  Value arr = sb::Array({sb::Int64(7), sb::String("x")});
  arr.children[0].key = "b";  // the encoders write "0", "1" whatever the model holds
  arr.children[1].key = "b";
  Document doc;
  doc.elements = {{"a", arr}};
  EXPECT_EQ(bson::CanonicalExtendedJson(doc).value(), R"({"a":[{"$numberLong":"7"},"x"]})");
}

TEST(ExtendedJson, DoubleText) {
  const std::vector<std::pair<double, std::string>> cases = {
      {1.0, "1.0"},
      {-1.0, "-1.0"},
      {1.0001220703125, "1.0001220703125"},
      {FromBits(0x43B12210F47DE981), "1.2345678901234568e+18"},  // the BSON corpus's value
      {0.0, "0.0"},
      {-0.0, "-0.0"},
      {1.5, "1.5"},
      {0.1, "0.1"},
      {100.0, "100.0"},
      {123456.789, "123456.789"},
      {1e15, "1000000000000000.0"},
      {1e16, "1e+16"},
      {0.0001, "0.0001"},
      {0.00001, "1e-05"},
      {-2.5e-7, "-2.5e-07"},
      {5e-324, "5e-324"},
      {std::numeric_limits<double>::max(), "1.7976931348623157e+308"},
      {std::numeric_limits<double>::infinity(), "Infinity"},
      {-std::numeric_limits<double>::infinity(), "-Infinity"},
      {FromBits(0x7FF8000000000000), "NaN"},
  };
  for (const auto& [d, text] : cases) EXPECT_EQ(bson::ExtendedJsonDouble(d), text) << text;
  EXPECT_EQ(bson::ExtendedJsonDouble(FromBits(0xFFF8000000000000)), std::nullopt);  // -NaN
  EXPECT_EQ(bson::ExtendedJsonDouble(FromBits(0x7FF8000000000012)), std::nullopt);  // payload
  EXPECT_EQ(bson::ExtendedJsonDouble(FromBits(0x7FF0000000000001)), std::nullopt);  // signalling
}

// The inexact documents cross as the reference encoder's bytes.
void ExpectBytesForm(const Document& doc, const std::string& why) {
  absl::StatusOr<std::string> ejson = bson::CanonicalExtendedJson(doc);
  EXPECT_TRUE(absl::IsFailedPrecondition(ejson.status())) << why << ": " << ejson.status();
  const std::string hex = absl::BytesToHexString(ref::bson::Encode(doc).value());
  EXPECT_EQ(bson::EncodeInputJson(doc).value(), R"({"bson":")" + hex + R"("})") << why;
}

TEST(ExtendedJson, DuplicateKeysCrossAsBytes) {
  Document doc;
  doc.elements = {{"a", sb::Int32(1)}, {"a", sb::Int32(2)}};
  // 0x13 bytes: the length, 10 "a" 00 01000000, 10 "a" 00 02000000, the terminator.
  EXPECT_EQ(bson::EncodeInputJson(doc).value(),
            R"({"bson":"13000000106100010000001061000200000000"})");
  ExpectBytesForm(doc, "duplicate key");
  // The same key in two documents is no duplicate.
  Document nested;
  nested.elements = {{"a", sb::SubDocument({{"a", sb::Int32(1)}})}};
  EXPECT_EQ(bson::CanonicalExtendedJson(nested).value(), R"({"a":{"a":{"$numberInt":"1"}}})");
}

TEST(ExtendedJson, InexactValuesCrossAsBytes) {
  auto one = [](std::string key, Value v) {
    Document d;
    d.elements = {{std::move(key), std::move(v)}};
    return d;
  };
  ExpectBytesForm(one("$numberInt", sb::String("1")), "a $ key");
  ExpectBytesForm(one("x", sb::SubDocument({{"$ref", sb::String("c")}})), "a nested $ key");
  ExpectBytesForm(one("\xff", sb::Null()), "a key that is not UTF-8");
  ExpectBytesForm(one("x", sb::String("\xed\xa0\x80")), "a surrogate");
  ExpectBytesForm(one("x", sb::String("\xc0\x80")), "an overlong NUL");
  ExpectBytesForm(one("x", sb::String(std::string("a\0b", 3))), "a NUL in a string");
  ExpectBytesForm(one("x", Typed(Type::kCode, "\x80")), "code not UTF-8");
  ExpectBytesForm(one("x", Typed(Type::kSymbol, std::string(1, '\0'))), "a NUL in a symbol");
  ExpectBytesForm(one("x", Typed(Type::kDecimal128, std::string(16, '\x01'))), "decimal128");
  ExpectBytesForm(one("x", sb::Double(FromBits(0x7FF8000000000001))), "a NaN payload");
  // The encoders sort the options bytewise: c3 a9 ("é") becomes a9 c3, no UTF-8.
  ExpectBytesForm(one("x", Typed(Type::kRegex, "p", "\xc3\xa9")), "regex options");
  Document deep;
  deep.elements = {
      {"a",
       sb::SubDocument({{"b", sb::Array({Typed(Type::kDecimal128, std::string(16, '\0'))})}})}};
  ExpectBytesForm(deep, "a nested decimal128");
}

TEST(ExtendedJson, DocumentsTheEncodersRejectAreDeclined) {
  Value bad_bool = sb::Bool(true);
  bad_bool.i = 2;
  Value bad_int32 = sb::Int32(0);
  bad_int32.i = int64_t{1} << 31;
  for (const Value& v : {bad_bool, bad_int32, Typed(Type::kObjectId, "short")}) {
    Document doc;
    doc.elements = {{"x", v}};
    EXPECT_TRUE(absl::IsInvalidArgument(bson::CanonicalExtendedJson(doc).status()));
    absl::StatusOr<std::string> in = bson::EncodeInputJson(doc);
    EXPECT_TRUE(harness::IsDeclined(in.status())) << in.status();
  }
  Document nul_key;
  nul_key.elements = {{std::string("a\0", 2), sb::Null()}};
  EXPECT_TRUE(harness::IsDeclined(bson::EncodeInputJson(nul_key).status()));
}

TEST(ExtendedJson, PackedDocumentsCrossAsTheirArrays) {
  Document doc;
  doc.elements = {{"d", sb::PackedDouble(std::vector<double>{0.5, -0.0})},
                  {"b", sb::PackedBool(std::vector<uint8_t>{1, 0})}};
  const auto& ic = InterchangeOf<Document>("bson_encode_packed");
  EXPECT_EQ(ic.input_json(doc).value(),
            R"({"document":{"d":[{"$numberDouble":"0.5"},{"$numberDouble":"-0.0"}],)"
            R"("b":[true,false]}})");
  Document bad;
  bad.elements = {{"b", sb::PackedBool(std::vector<uint8_t>{2})}};
  EXPECT_TRUE(harness::IsDeclined(ic.input_json(bad).status()));
}

// ---- bson.decode -----------------------------------------------------------------------------

TEST(Interchange, BsonDecodeAnswersMapToTheInput) {
  const auto& ic = InterchangeOf<std::string>("bson_decode");
  const std::string in = Unhex("0500000000");
  EXPECT_EQ(ic.input_json(in).value(), R"({"bson":"0500000000"})");
  ExternalAnswer re_encoded;
  re_encoded.bytes = Unhex("0500000000ff");  // whatever an accepting decoder answers
  EXPECT_EQ(ic.output(in, re_encoded).value(), in);
}

// ---- varint.fory_encode ----------------------------------------------------------------------

TEST(Interchange, ForyEncodeInput) {
  const auto& u = InterchangeOf<std::vector<uint64_t>>("varint_fory_encode");
  EXPECT_EQ(u.input_json({0, 300, std::numeric_limits<uint64_t>::max()}).value(),
            R"({"values":["0","300","18446744073709551615"],"zigzag":false})");
  EXPECT_EQ(u.input_json({}).value(), R"({"values":[],"zigzag":false})");
  EXPECT_FALSE(u.output);
  const auto& z = InterchangeOf<std::vector<int64_t>>("varint_fory_zigzag_encode");
  EXPECT_EQ(z.input_json({-1, 300, std::numeric_limits<int64_t>::min()}).value(),
            R"({"values":["-1","300","-9223372036854775808"],"zigzag":true})");
}

// ---- varint.fory_decode ----------------------------------------------------------------------

// What the target's decoders give for `count` values of `bytes` (the reference's batch decode).
absl::StatusOr<std::string> ReferenceDecode(const std::string& bytes, size_t count) {
  std::vector<uint64_t> values(count);
  absl::StatusOr<size_t> n = ref::varint::DecodeBatch(
      serdiff::varint::Format::kFory,
      absl::Span<const uint8_t>(reinterpret_cast<const uint8_t*>(bytes.data()), bytes.size()),
      absl::MakeSpan(values));
  if (!n.ok()) return n.status();
  return vi::DecodedOutput(*n, values);
}

ExternalAnswer Answer(const std::string& json) {
  ExternalAnswer a;
  a.value_json = json;
  return a;
}

TEST(Interchange, ForyDecodeInputIsWhatTheDecodeReads) {
  // ac 02 = 300 (2 bytes), 05 = 5; the ff after them is not read for 2 values.
  EXPECT_EQ(vi::ForyDecodeInputJson(Unhex("ac0205ff"), 2), R"({"hex":"ac0205"})");
  EXPECT_EQ(vi::ForyDecodeInputJson(Unhex("ac0205ff"), 0), R"({"hex":""})");
  // Fewer complete values than asked for: all of the bytes (cut off, or ending after one).
  EXPECT_EQ(vi::ForyDecodeInputJson(Unhex("ac"), 1), R"({"hex":"ac"})");
  EXPECT_EQ(vi::ForyDecodeInputJson(Unhex("ac02"), 2), R"({"hex":"ac02"})");
  // A 9th byte carries 8 bits and ends the value, 80 included.
  EXPECT_EQ(vi::ForyDecodePrefix(Unhex("ffffffffffffffff8001"), 1), 9u);
  EXPECT_EQ(vi::ForyDecodePrefix(Unhex("ffffffffffffffff8001"), 2), 10u);
}

TEST(Interchange, ForyDecodeAnswerBecomesTheTargetsOutput) {
  const std::string bytes = Unhex("ac0205ff");
  // consumed 3, then 300 and 5, each 8 bytes little-endian.
  const std::string expected = Unhex(
      "0300000000000000"
      "2c01000000000000"
      "0500000000000000");
  EXPECT_EQ(vi::ForyDecodeOutput(2, Answer(R"({"values":["300","5"],"consumed":3})")).value(),
            expected);
  EXPECT_EQ(ReferenceDecode(bytes, 2).value(), expected);
  // A module's output bytes hold the same JSON text.
  ExternalAnswer module;
  module.bytes = R"({"values":["300","5"],"consumed":3})";
  EXPECT_EQ(vi::ForyDecodeOutput(2, module).value(), expected);
  // The target's own interchange, through the registry.
  const harness::Target* t = AllTargets().Find("varint_fory_decode");
  ASSERT_NE(t, nullptr);
  EXPECT_EQ(t->info().interchange_op, "varint.fory_decode");
  // Every value of 64 bits: 9 bytes.
  EXPECT_EQ(vi::ForyDecodeOutput(1, Answer(R"({"values":["18446744073709551615"],"consumed":9})"))
                .value(),
            Unhex("0900000000000000ffffffffffffffff"));
}

TEST(Interchange, ForyDecodeTooFewValuesIsARejectionWhereTheInputEnds) {
  // ac 02 holds one value; the target asks for two: its decoders reject at offset 2.
  absl::StatusOr<std::string> ref = ReferenceDecode(Unhex("ac02"), 2);
  ASSERT_FALSE(ref.ok());
  EXPECT_EQ(ErrorOffset(ref.status()), 2);
  absl::StatusOr<std::string> out =
      vi::ForyDecodeOutput(2, Answer(R"({"values":["300"],"consumed":2})"));
  ASSERT_FALSE(out.ok());
  EXPECT_TRUE(absl::IsInvalidArgument(out.status())) << out.status();
  EXPECT_EQ(ErrorOffset(out.status()), 2);
  // More values than asked for are the answer's, compared as they are.
  EXPECT_EQ(vi::ForyDecodeOutput(0, Answer(R"({"values":["1"],"consumed":1})")).value(),
            Unhex("01000000000000000100000000000000"));
}

TEST(Interchange, ForyDecodeValueThatIsNotTheFormIsAnInternalError) {
  for (const std::string json :
       {"{", "[1]", R"({"values":[300],"consumed":2})", R"({"values":["300"]})",
        R"({"values":["300"],"consumed":-1})", R"({"values":["-1"],"consumed":1})",
        R"({"values":["18446744073709551616"],"consumed":10})", R"({"values":[" 1"],"consumed":1})",
        R"({"values":"300","consumed":2})"}) {
    absl::StatusOr<std::string> out = vi::ForyDecodeOutput(1, Answer(json));
    EXPECT_TRUE(absl::IsInternal(out.status())) << json << ": " << out.status();
  }
}

// ---- the peers' accepted divergences (docs/peers.md) -------------------------------------------
// Each divergence covers its example, where the peer answers exactly what the predicate
// recomputes, and not a nearby answer: another byte, another input, another error, a decline.

// The reason of the divergence of `target` naming `impl` that covers this outcome, or nullopt.
template <typename T>
std::optional<std::string> CoveredBy(const std::string& target, const std::string& impl,
                                     const T& in, const harness::Output& opt,
                                     const harness::Output& other) {
  const auto* typed = dynamic_cast<const harness::TypedTarget<T>*>(AllTargets().Find(target));
  EXPECT_NE(typed, nullptr) << target;
  if (typed == nullptr) return std::nullopt;
  for (const auto& d : typed->def().divergences) {
    if (d.impl == impl && d.applies(in, opt, other)) return d.reason;
  }
  return std::nullopt;
}

absl::Status PeerError(const std::string& text) { return absl::InvalidArgumentError(text); }

Document Doc(std::vector<Element> elements) { return Document{std::move(elements)}; }

// Covered by `impl` on bson_encode, the other side being `other`.
bool EncodeCovered(const std::string& impl, const Document& doc, const harness::Output& other) {
  return CoveredBy<Document>("bson_encode", impl, doc, sb::Encode(doc), other).has_value();
}

bool DecodeCovered(const std::string& impl, const std::string& in, const harness::Output& other) {
  const absl::Status st = sb::Validate(in);
  const harness::Output opt = st.ok() ? harness::Output(in) : harness::Output(st);
  return CoveredBy<std::string>("bson_decode", impl, in, opt, other).has_value();
}

// {"d": {"d": ... {}}}, `levels` documents deep (the top-level one included), as raw bytes.
std::string Chain(int levels, const std::string& innermost = Unhex("0500000000")) {
  std::string doc = innermost;
  for (int i = 1; i < levels; ++i) {
    std::string outer = std::string(4, '\0') + "\x03" + std::string("d", 1) + '\0' + doc + '\0';
    const auto n = static_cast<uint32_t>(outer.size());
    std::memcpy(outer.data(), &n, 4);
    doc = std::move(outer);
  }
  return doc;
}

TEST(InterchangePeers, PymongoEncodeModel) {
  EXPECT_EQ(bson::PymongoEncodeModel(Doc({{"u", Typed(Type::kUndefined)}})),
            Unhex("080000000a750000"));
  EXPECT_EQ(bson::PymongoEncodeModel(Doc({{"s", Typed(Type::kSymbol, "sym")}})),
            Unhex("100000000273000400000073796d0000"));
  EXPECT_EQ(bson::PymongoEncodeModel(Doc({{"a", sb::Int32(1)}, {"_id", sb::Int32(2)}})),
            Unhex("15000000105f696400020000001061000100000000"));
  EXPECT_EQ(
      bson::PymongoEncodeModel(
          Doc({{"p", Typed(Type::kDbPointer, "c", Unhex("000102030405060708090a0b"))}})),
      Unhex(
          "2a000000037000220000000224726566000200000063000724696400000102030405060708090a0b0000"));
  EXPECT_EQ(bson::PymongoEncodeModel(Doc({{"r", Typed(Type::kRegex, "abc", "xix")}})),
            Unhex("0f0000000b72006162630069780000"));
  // Only the top level's "_id" moves; a key twice is not modelled (the worker declines it).
  EXPECT_EQ(
      bson::PymongoEncodeModel(
          Doc({{"d", sb::SubDocument({{"a", sb::Null()}, {"_id", sb::Null()}})}})),
      sb::Encode(Doc({{"d", sb::SubDocument({{"a", sb::Null()}, {"_id", sb::Null()}})}})).value());
  EXPECT_FALSE(bson::PymongoEncodeModel(Doc({{"a", sb::Null()}, {"a", sb::Null()}})).has_value());
}

TEST(InterchangePeers, PymongoEncodeDivergencesCoverExactlyWhatPymongoWrites) {
  const Document undefined = Doc({{"u", Typed(Type::kUndefined)}, {"x", sb::Int32(1)}});
  const std::string model = *bson::PymongoEncodeModel(undefined);
  EXPECT_TRUE(EncodeCovered("pymongo", undefined, model));
  std::string off_by_one = model;
  off_by_one[off_by_one.size() - 2] ^= 1;  // the int32's last byte
  EXPECT_FALSE(EncodeCovered("pymongo", undefined, off_by_one));
  EXPECT_FALSE(EncodeCovered("js_bson", undefined, model));  // it names pymongo only
  // Null written for a null: nothing to cover (and serdiff's own bytes are no divergence).
  const Document null = Doc({{"u", sb::Null()}});
  EXPECT_FALSE(EncodeCovered("pymongo", null, Unhex("080000000a750000")));
  // _id first at the top level only.
  const Document id = Doc({{"a", sb::Int32(1)}, {"_id", sb::Int32(2)}});
  EXPECT_TRUE(EncodeCovered("pymongo", id, Unhex("15000000105f696400020000001061000100000000")));
  const Document nested =
      Doc({{"d", sb::SubDocument({{"a", sb::Int32(1)}, {"_id", sb::Int32(2)}})}});
  EXPECT_FALSE(EncodeCovered("pymongo", nested,
                             Unhex("1d00000003640015000000105f69640002000000106100010000000000")));
  // Regex options: what pymongo writes ("ix") is covered, anything else ("i") is not.
  const Document regex = Doc({{"r", Typed(Type::kRegex, "abc", "xix")}});
  EXPECT_TRUE(EncodeCovered("pymongo", regex, Unhex("0f0000000b72006162630069780000")));
  EXPECT_FALSE(EncodeCovered("pymongo", regex, Unhex("0e0000000b720061626300690000")));
  // The SystemError of subtype 0xFF, and no other rejection.
  Value ff = Typed(Type::kBinary, Unhex("010203"));
  ff.subtype = 0xFF;
  const absl::Status system_error = PeerError(
      "pymongo: SystemError: <built-in function _dict_to_bson> returned NULL without setting an "
      "exception");
  EXPECT_TRUE(EncodeCovered("pymongo", Doc({{"b", ff}}), system_error));
  Value user = ff;
  user.subtype = 0x80;
  EXPECT_FALSE(EncodeCovered("pymongo", Doc({{"b", user}}), system_error));
  EXPECT_FALSE(EncodeCovered("pymongo", Doc({{"b", ff}}), PeerError("pymongo: TypeError: x")));
  EXPECT_FALSE(EncodeCovered("pymongo", Doc({{"b", ff}}), harness::Declined("SystemError")));
}

TEST(InterchangePeers, JsBsonEncodeDivergences) {
  const absl::Status option_q =
      PeerError("js_bson: EJSON.parse: The regular expression option [q] is not supported");
  EXPECT_TRUE(EncodeCovered("js_bson", Doc({{"r", Typed(Type::kRegex, "abc", "q")}}), option_q));
  EXPECT_FALSE(EncodeCovered("js_bson", Doc({{"r", Typed(Type::kRegex, "abc", "im")}}), option_q));
  EXPECT_FALSE(EncodeCovered("pymongo", Doc({{"r", Typed(Type::kRegex, "abc", "q")}}), option_q));
  const absl::Status uuid = PeerError(
      "js_bson: EJSON.parse: Argument passed in UUID constructor must be a UUID, a 16 byte Buffer "
      "or a 32/36 character hex string");
  Value short_uuid = Typed(Type::kBinary, Unhex("010203"));
  short_uuid.subtype = 0x04;
  EXPECT_TRUE(EncodeCovered("js_bson", Doc({{"a", short_uuid}}), uuid));
  Value uuid16 = short_uuid;
  uuid16.s = std::string(16, 'a');
  EXPECT_FALSE(EncodeCovered("js_bson", Doc({{"a", uuid16}}), uuid));
  Value old_uuid = short_uuid;
  old_uuid.subtype = 0x03;  // EJSON.parse keeps subtype 3 a Binary
  EXPECT_FALSE(EncodeCovered("js_bson", Doc({{"a", old_uuid}}), uuid));
}

TEST(InterchangePeers, BlankUncheckedUtf8FollowsTheLayout) {
  // {"a": [null] with the array key ff, "s": string ff}: pymongo checks the string, not the key;
  // js-bson the other way round for document keys (not array keys: js-bson skips those too).
  const std::string in = Unhex("19000000046100080000000aff000002730002000000ff0000");
  EXPECT_EQ(bson::BlankUncheckedUtf8(in, true),
            Unhex("19000000046100080000000a61000002730002000000ff0000"));
  EXPECT_EQ(bson::BlankUncheckedUtf8(in, false),
            Unhex("19000000046100080000000a61000002730002000000ff0000"));
  EXPECT_EQ(bson::BlankUncheckedUtf8(Unhex("080000000ae90000"), false), Unhex("080000000a610000"));
  EXPECT_EQ(bson::BlankUncheckedUtf8(Unhex("080000000ae90000"), true), Unhex("080000000ae90000"));
  // A layout it cannot follow: a string length past the end.
  EXPECT_FALSE(bson::BlankUncheckedUtf8(Unhex("0c000000026100ff00000000"), true).has_value());
}

TEST(InterchangePeers, DecodeDivergencesOfUnCheckedUtf8AndDepth) {
  // pymongo skips array keys: covered; a string value it checks: not.
  const std::string array_key = Unhex("10000000046100080000000aff000000");
  EXPECT_TRUE(DecodeCovered("pymongo", array_key, array_key));
  const std::string string_value = Unhex("0e00000002730002000000ff0000");
  EXPECT_FALSE(DecodeCovered("pymongo", string_value, string_value));
  EXPECT_FALSE(DecodeCovered("js_bson", string_value, string_value));
  // js-bson skips document keys: covered for js_bson, not for pymongo (which checks them).
  const std::string key = Unhex("080000000ae90000");
  EXPECT_TRUE(DecodeCovered("js_bson", key, key));
  EXPECT_FALSE(DecodeCovered("pymongo", key, key));
  // Nesting: 101 levels are covered, 101 levels with a bool 2 inside are not.
  const std::string deep = Chain(101);
  EXPECT_TRUE(DecodeCovered("pymongo", deep, deep));
  EXPECT_TRUE(DecodeCovered("js_bson", deep, deep));
  const std::string deep_bad = Chain(101, Unhex("090000000862000200"));  // {"b": bool 2}
  EXPECT_FALSE(DecodeCovered("pymongo", deep_bad, deep_bad));
  EXPECT_FALSE(DecodeCovered("js_bson", deep_bad, deep_bad));
  // An acceptance that no unchecked byte explains is never covered.
  const std::string bool2 = Unhex("090000000862000200");
  EXPECT_FALSE(DecodeCovered("pymongo", bool2, bool2));
  EXPECT_FALSE(DecodeCovered("js_bson", bool2, bool2));
}

TEST(InterchangePeers, PymongoDecodeOverrunAndRejections) {
  // {"a": bool} whose value byte is the terminator; the same inside an array (pymongo checks an
  // array's end, so an acceptance there is no known bug).
  const std::string overrun = Unhex("0800000008610000");
  EXPECT_TRUE(DecodeCovered("pymongo", overrun, overrun));
  EXPECT_FALSE(DecodeCovered("js_bson", overrun, overrun));
  const std::string in_array = Unhex("10000000046100080000000830000000");
  EXPECT_FALSE(DecodeCovered("pymongo", in_array, in_array));
  // A binary of 5 bytes of which 4 lie past the input.
  const std::string binary = Unhex("0d000000056100050000000000");
  EXPECT_TRUE(DecodeCovered("pymongo", binary, binary));
  // UUIDs of other than 16 bytes, with pymongo's message.
  const std::string uuid3 = Unhex("10000000056100030000000461626300");  // subtype 4
  const absl::Status invalid = PeerError("pymongo: InvalidBSON: invalid length or type code");
  EXPECT_TRUE(DecodeCovered("pymongo", uuid3, invalid));
  EXPECT_FALSE(DecodeCovered("pymongo", uuid3, PeerError("pymongo: InvalidBSON: bad eoo")));
  const std::string uuid16 = Unhex("1d00000005610010000000046161616161616161616161616161616100");
  EXPECT_FALSE(DecodeCovered("pymongo", uuid16, invalid));
  // Subtype 0xFF: the re-encoding's SystemError.
  const std::string ff = Unhex("0e00000005620001000000ff0100");
  const absl::Status system_error = PeerError(
      "pymongo: bson.decode read the document, re-encoding it failed: SystemError: <built-in "
      "function _dict_to_bson> returned NULL without setting an exception");
  EXPECT_TRUE(DecodeCovered("pymongo", ff, system_error));
  EXPECT_FALSE(DecodeCovered("pymongo", Unhex("0e00000005620001000000800100"), system_error));
  // js-bson's regex options.
  const std::string option_a = Unhex("0c0000000b72006100610000");
  const absl::Status js_option =
      PeerError("js_bson: The regular expression option [a] is not supported");
  EXPECT_TRUE(DecodeCovered("js_bson", option_a, js_option));
  EXPECT_FALSE(DecodeCovered("js_bson", Unhex("0c0000000b72006100690000"), js_option));
}

TEST(InterchangePeers, DecodeOffsetExemptions) {
  const harness::Target* t = AllTargets().Find("bson_decode");
  ASSERT_NE(t, nullptr);
  std::vector<std::string> exempt;
  for (const auto& e : t->offset_exemptions()) exempt.push_back(e.impl);
  EXPECT_NE(std::find(exempt.begin(), exempt.end(), "pymongo"), exempt.end());
  EXPECT_NE(std::find(exempt.begin(), exempt.end(), "js_bson"), exempt.end());
}

TEST(InterchangePeers, FuryWritesLeb128) {
  EXPECT_EQ(vi::FuryWrites(std::vector<uint64_t>{300}), Unhex("ac02"));
  EXPECT_EQ(vi::FuryWrites(std::vector<uint64_t>{uint64_t{1} << 63}),
            Unhex("80808080808080808001"));
  EXPECT_EQ(vi::FuryWrites(std::vector<uint64_t>{std::numeric_limits<uint64_t>::max()}),
            Unhex("ffffffffffffffffff01"));
}

TEST(InterchangePeers, FuryEncodeDivergences) {
  using U = std::vector<uint64_t>;
  const U big = {1, uint64_t{1} << 63};
  const std::string ours = serdiff::varint::EncodeBatch(serdiff::varint::Format::kFory, big);
  EXPECT_TRUE(CoveredBy<U>("varint_fory_encode", "fury", big, ours, Unhex("0180808080808080808001"))
                  .has_value());
  // One byte more, or a value below 2^63 written otherwise: not covered.
  EXPECT_FALSE(
      CoveredBy<U>("varint_fory_encode", "fury", big, ours, Unhex("018080808080808080800100"))
          .has_value());
  const U small = {300};
  EXPECT_FALSE(
      CoveredBy<U>("varint_fory_encode", "fury", small, Unhex("ac02"), Unhex("ac82")).has_value());
  using I = std::vector<int64_t>;
  const I min = {std::numeric_limits<int64_t>::min()};
  EXPECT_TRUE(CoveredBy<I>("varint_fory_zigzag_encode", "fury", min, Unhex("ffffffffffffffffff"),
                           Unhex("ffffffffffffffffff01"))
                  .has_value());
  EXPECT_FALSE(CoveredBy<I>("varint_fory_zigzag_encode", "fury", I{-1}, Unhex("01"), Unhex("0100"))
                   .has_value());
}

TEST(InterchangePeers, FuryDecodeModelAndDivergence) {
  bool misread = false;
  // 300 and six 0: the fast path reads ac as every byte of the first word: 93001260, 5 bytes.
  const vi::DecodeInput example{7, Unhex("ac02000000000000")};
  absl::StatusOr<std::string> fury = vi::FuryDecodeModel(example, 10000, &misread);
  EXPECT_TRUE(misread);
  ASSERT_FALSE(fury.ok());
  EXPECT_EQ(ErrorOffset(fury.status()), 8);
  const std::string ours = ReferenceDecode(example.bytes, 7).value();
  EXPECT_TRUE(CoveredBy<vi::DecodeInput>("varint_fory_decode", "fury", example, ours,
                                         harness::Output(InvalidAt(8, "x")))
                  .has_value());
  EXPECT_FALSE(CoveredBy<vi::DecodeInput>("varint_fory_decode", "fury", example, ours,
                                          harness::Output(InvalidAt(5, "x")))
                   .has_value());
  EXPECT_FALSE(CoveredBy<vi::DecodeInput>("varint_fory_decode", "fury", example, ours,
                                          harness::Output(harness::Declined("x")))
                   .has_value());
  // Fewer than 8 bytes: the slow path, Fory's form, no misread (nothing to cover).
  const vi::DecodeInput short_input{2, Unhex("ac02ac02")};
  EXPECT_EQ(vi::FuryDecodeModel(short_input, 10000, &misread).value(),
            ReferenceDecode(short_input.bytes, 2).value());
  EXPECT_FALSE(misread);
  EXPECT_FALSE(CoveredBy<vi::DecodeInput>("varint_fory_decode", "fury", short_input,
                                          ReferenceDecode(short_input.bytes, 2).value(),
                                          harness::Output(InvalidAt(0, "x")))
                   .has_value());
  // Four times ac 02: the 1st and 5th byte have 0x80 set, so a 9th byte is read, past the end.
  const vi::DecodeInput four{4, Unhex("ac02ac02ac02ac02")};
  fury = vi::FuryDecodeModel(four, 10000, &misread);
  EXPECT_TRUE(misread);
  ASSERT_FALSE(fury.ok());
  EXPECT_EQ(ErrorOffset(fury.status()), 0);
  // One-byte values on the fast path read right.
  const vi::DecodeInput ones{8, Unhex("0102030405060708")};
  EXPECT_EQ(vi::FuryDecodeModel(ones, 10000, &misread).value(),
            ReferenceDecode(ones.bytes, 8).value());
  EXPECT_FALSE(misread);
}

}  // namespace
}  // namespace serdiff::targets
