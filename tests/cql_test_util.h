// Shared by the CQL family's unit tests, tests/cql_bytes_test.cc (exact bytes and exact errors)
// and tests/cql_test.cc (memory, the model, decode rules, error offsets, the peers'
// divergences): both codecs behind one interface, type and value literals, and the checks of an
// exact payload and of an exact decode error.
#pragma once

#include <gtest/gtest.h>

#include <cstddef>
#include <cstdint>
#include <functional>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "absl/status/status.h"
#include "absl/status/statusor.h"
#include "absl/strings/str_cat.h"
#include "harness/hex.h"
#include "reference/cql/codec_ref.h"
#include "serdiff/common/error_offset.h"
#include "serdiff/cql/codec.h"
#include "serdiff/cql/literal.h"
#include "targets/cql/domain.h"

namespace serdiff::cql::test_util {

namespace ref = serdiff::ref::cql;
using harness::CompactHex;
using harness::Unhex;
using targets::cql::ExpectedDecode;

// v as `bytes` big-endian bytes (the wire's byte order for counts, lengths and integers).
inline std::string Be(uint64_t v, int bytes) {
  std::string s;
  for (int k = bytes - 1; k >= 0; --k) s.push_back(static_cast<char>((v >> (8 * k)) & 0xff));
  return s;
}

// Element counts that reach every position modulo an 8-bit bitmap byte and an 8-element block,
// the first and last byte, and one past a 64-bit boundary.
inline const std::vector<size_t> kFixedListCounts = {0,  1,  2,  3,  4,  5,  6,  7,  8,  9, 10,
                                                     11, 12, 13, 14, 15, 16, 17, 63, 64, 65};

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

inline std::vector<Codec> Codecs() {
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

inline Type T(std::string_view text) {
  Type t;
  absl::Status st = ParseType(text, &t);
  EXPECT_TRUE(st.ok()) << st;
  return t;
}

inline Value V(const Type& t, std::string_view text) {
  Value v;
  absl::Status st = ParseValue(t, text, &v);
  EXPECT_TRUE(st.ok()) << st << " parsing " << text;
  return v;
}

// `type` / `value` (literal text) encodes to `hex` in `version` with both codecs, the size
// predictor agrees, and decoding `hex` gives back ExpectedDecode(value).
inline void ExpectPayload(const std::string& type, const std::string& value, const std::string& hex,
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

// Both decoders reject `hex` as `type` with `code`, and both errors carry `offset` as their
// error-offset payload (serdiff/common/error_offset.h); the optimized message names it too.
inline void ExpectDecodeError(const std::string& type, const std::string& hex,
                              absl::StatusCode code, size_t offset, int version = 4,
                              DecodeOptions options = {}) {
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

}  // namespace serdiff::cql::test_util
