// Every refusal of the BSON encoder (codec.h, EncodedSize), one at a time and at its edge: a
// value just past the rule is refused by EncodedSize and Encode with the exact message, by the
// encoder on the unpacked form, and by the reference encoder (ref::bson::Encode) with the same
// status code; the value just inside is written by both encoders to the same bytes. The fuzz
// domains build values the encoders take (an int32 is an int32_t, an ObjectId 12 bytes), so
// these tests are what reaches most refusals (docs/bson.md, "Encoder refusals").
#include <cstdint>
#include <limits>
#include <string>
#include <utility>
#include <vector>

#include "absl/strings/escaping.h"
#include "gtest/gtest.h"
#include "reference/bson/bson_ref.h"
#include "serdiff/bson/codec.h"
#include "serdiff/bson/document.h"
#include "tests/bson_test_util.h"

namespace serdiff::bson {
namespace {

using test_util::One;

// {d: {d: ... {p: inner}}}: `levels` documents below the top level, the innermost holding
// inner, which is then at level levels + 2 (the top-level document is level 1).
Document NestedWith(int levels, Value inner) {
  Value v = SubDocument({Element{"p", std::move(inner)}});
  for (int i = 1; i < levels; ++i) v = SubDocument({Element{"d", std::move(v)}});
  return One("d", std::move(v));
}

Value Sized(Type t, size_t n) {
  Value v = OfType(t);
  if (t == Type::kDbPointer) {
    v.s = "db.c";
    v.s2 = std::string(n, '\x07');
  } else {
    v.s = std::string(n, '\x07');
  }
  return v;
}

Value Regex(std::string pattern, std::string options) {
  Value v = OfType(Type::kRegex);
  v.s = std::move(pattern);
  v.s2 = std::move(options);
  return v;
}

Value Int32Of(int64_t i) {
  Value v = OfType(Type::kInt32);
  v.i = i;
  return v;
}

Value BoolOf(int64_t i) {
  Value v = OfType(Type::kBool);
  v.i = i;
  return v;
}

Value Civil(int month) {
  timestamp::CivilDateTime c;
  c.year = 2020;
  c.month = month;
  c.day = 1;
  return DateTimeCivil(c);
}

struct Rule {
  const char* what;
  Document refused;
  Document held;
  std::string message;  // empty: the timestamp family's message, not checked here
};

std::vector<Rule> Rules() {
  Value array_key_nul = Array({Int32(1)});
  array_key_nul.children[0].key = std::string("a\0b", 3);  // array keys are ignored
  const int64_t lo = std::numeric_limits<int32_t>::min();
  const int64_t hi = std::numeric_limits<int32_t>::max();
  return {
      {"a key with NUL", One(std::string("a\0b", 3), Null()), One("ab", array_key_nul),
       "key contains NUL"},
      {"a nested key with NUL", One("d", SubDocument({Element{std::string("\0", 1), Null()}})),
       One("d", SubDocument({Element{"", Null()}})), "key contains NUL"},
      {"a regex pattern with NUL", One("r", Regex(std::string("a\0", 2), "i")),
       One("r", Regex("a", "i")), "regex pattern or options contain NUL"},
      {"regex options with NUL", One("r", Regex("a", std::string("i\0m", 3))),
       One("r", Regex("a", "mi")), "regex pattern or options contain NUL"},
      {"an ObjectId of 11 bytes", One("o", Sized(Type::kObjectId, 11)),
       One("o", Sized(Type::kObjectId, 12)), "ObjectId must be 12 bytes"},
      {"an ObjectId of 13 bytes", One("o", Sized(Type::kObjectId, 13)),
       One("o", Sized(Type::kObjectId, 12)), "ObjectId must be 12 bytes"},
      {"a DBPointer id of 11 bytes", One("p", Sized(Type::kDbPointer, 11)),
       One("p", Sized(Type::kDbPointer, 12)), "DBPointer id must be 12 bytes"},
      {"a DBPointer id of 13 bytes", One("p", Sized(Type::kDbPointer, 13)),
       One("p", Sized(Type::kDbPointer, 12)), "DBPointer id must be 12 bytes"},
      {"a decimal128 of 15 bytes", One("x", Sized(Type::kDecimal128, 15)),
       One("x", Sized(Type::kDecimal128, 16)), "decimal128 must be 16 bytes"},
      {"a decimal128 of 17 bytes", One("x", Sized(Type::kDecimal128, 17)),
       One("x", Sized(Type::kDecimal128, 16)), "decimal128 must be 16 bytes"},
      {"an int32 one below INT32_MIN", One("i", Int32Of(lo - 1)), One("i", Int32Of(lo)),
       "int32 value out of range"},
      {"an int32 one above INT32_MAX", One("i", Int32Of(hi + 1)), One("i", Int32Of(hi)),
       "int32 value out of range"},
      {"a bool of 2", One("b", BoolOf(2)), One("b", BoolOf(1)), "bool must be 0 or 1"},
      {"a bool of -1", One("b", BoolOf(-1)), One("b", BoolOf(0)), "bool must be 0 or 1"},
      {"a packed bool of 2", One("a", PackedBool(std::vector<uint8_t>{1, 2})),
       One("a", PackedBool(std::vector<uint8_t>{1, 0})), "bool must be 0 or 1"},
      {"a civil datetime in month 13", One("t", Civil(13)), One("t", Civil(12)), ""},
      {"documents 101 levels deep", test_util::Nested(100), test_util::Nested(99),
       "nesting deeper than 100 levels"},
      {"an array at level 101", NestedWith(99, Array({Int32(1)})),
       NestedWith(98, Array({Int32(1)})), "nesting deeper than 100 levels"},
      {"a packed array at level 101", NestedWith(99, PackedInt32(std::vector<int32_t>{1})),
       NestedWith(98, PackedInt32(std::vector<int32_t>{1})), "nesting deeper than 100 levels"},
      {"an empty packed array at level 101", NestedWith(99, PackedInt64({})),
       NestedWith(98, PackedInt64({})), "nesting deeper than 100 levels"},
  };
}

TEST(BsonEncodeRules, EachRefusalIsTheSameInEveryEncoderAndTheReference) {
  for (const Rule& r : Rules()) {
    SCOPED_TRACE(r.what);
    const absl::StatusOr<uint64_t> size = EncodedSize(r.refused);
    ASSERT_FALSE(size.ok());
    EXPECT_EQ(size.status().code(), absl::StatusCode::kInvalidArgument);
    if (!r.message.empty()) {
      EXPECT_EQ(size.status().message(), r.message);
    }
    EXPECT_EQ(Encode(r.refused).status(), size.status());
    EXPECT_EQ(Encode(Unpack(r.refused)).status(), size.status());
    EXPECT_EQ(ref::bson::Encode(r.refused).status().code(), absl::StatusCode::kInvalidArgument)
        << "the reference writes what the optimized encoder refuses";
  }
}

TEST(BsonEncodeRules, TheValueJustInsideEachRuleIsWrittenAsTheReferenceWritesIt) {
  for (const Rule& r : Rules()) {
    SCOPED_TRACE(r.what);
    const absl::StatusOr<std::string> want = ref::bson::Encode(r.held);
    ASSERT_TRUE(want.ok()) << want.status();
    const absl::StatusOr<std::string> got = Encode(r.held);
    ASSERT_TRUE(got.ok()) << got.status();
    EXPECT_EQ(absl::BytesToHexString(*got), absl::BytesToHexString(*want));
    EXPECT_EQ(*EncodedSize(r.held), want->size());
    EXPECT_EQ(*Encode(Unpack(r.held)), *want);
    EXPECT_TRUE(Validate(*got).ok()) << Validate(*got);
  }
}

// Hand-derived bytes of three edges: the regex's options sorted, INT32_MIN, a 12-byte id.
TEST(BsonEncodeRules, EdgeValuesExactBytes) {
  EXPECT_EQ(test_util::ToHex(Encode(One("r", Regex("a", "mi")))),
            "0d000000"
            "0b7200"
            "6100"
            "696d00"
            "00");
  EXPECT_EQ(test_util::ToHex(Encode(One("i", Int32Of(std::numeric_limits<int32_t>::min())))),
            "0c000000"
            "106900"
            "00000080"
            "00");
  EXPECT_EQ(test_util::ToHex(Encode(One("o", Sized(Type::kObjectId, 12)))),
            "14000000"
            "076f00"
            "070707070707070707070707"
            "00");
}

}  // namespace
}  // namespace serdiff::bson
