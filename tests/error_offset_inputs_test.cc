// Exact inputs whose error offset is easy to get wrong (docs/architecture.md, "Error offsets";
// the UTF-8 ones are in utf8_cql_text_test.cc): decoded through the public API, with the exact
// class and offset.
#include <gtest/gtest.h>

#include <optional>
#include <string>

#include "absl/strings/escaping.h"
#include "absl/strings/numbers.h"
#include "reference/varint/varint_ref.h"
#include "serdiff/common/error_offset.h"
#include "serdiff/cql/codec.h"
#include "serdiff/cql/value.h"
#include "serdiff/varint/varint.h"

namespace serdiff {
namespace {

// The offset payload, else the "offset N" of the message (decoders not yet carrying it).
std::optional<int64_t> OffsetOf(const absl::Status& s) {
  if (auto off = ErrorOffset(s)) return off;
  const absl::string_view m = s.message();
  const size_t at = m.find("offset ");
  if (at == absl::string_view::npos) return std::nullopt;
  size_t end = at + 7;
  while (end < m.size() && m[end] >= '0' && m[end] <= '9') ++end;
  int64_t v = 0;
  if (!absl::SimpleAtoi(m.substr(at + 7, end - at - 7), &v)) return std::nullopt;
  return v;
}

// map<int, int> (v4) announcing one entry with 4 bytes left: one entry needs at least 8 (two
// [int] lengths), so the count itself is the error, at offset 0 (docs/architecture.md,
// "Error offsets"), not offset 8 where the bytes run out.
TEST(ErrorOffsetInputs, MapCountThatTheRemainingBytesCannotHoldFailsAtOffset0) {
  const cql::Type t =
      cql::Type::Map(cql::Type::Native(cql::Kind::kInt), cql::Type::Native(cql::Kind::kInt));
  const absl::StatusOr<cql::Value> v =
      cql::Deserialize(t, absl::HexStringToBytes("0000000100000000"), 4);
  ASSERT_FALSE(v.ok());
  EXPECT_EQ(v.status().code(), absl::StatusCode::kOutOfRange) << v.status();
  EXPECT_EQ(OffsetOf(v.status()), 0) << v.status();
}

// Varint decoders carry the offset as data (not only in the message), the same in the
// optimized batch tier, the single-value tier and the reference: the failing value's start.
TEST(ErrorOffsetInputs, VarintErrorsCarryTheValueStartAsPayload) {
  const std::string bytes = absl::HexStringToBytes(std::string(24, '0') + "ffffffffffffffffff02");
  const absl::Span<const uint8_t> in(reinterpret_cast<const uint8_t*>(bytes.data()), bytes.size());
  uint64_t out[13];
  const absl::StatusOr<size_t> opt = varint::DecodeBatch(varint::Format::kLeb128, in, out);
  const absl::StatusOr<size_t> ref = ref::varint::DecodeBatch(varint::Format::kLeb128, in, out);
  ASSERT_FALSE(opt.ok());
  ASSERT_FALSE(ref.ok());
  EXPECT_EQ(ErrorOffset(opt.status()), 12);
  EXPECT_EQ(ErrorOffset(ref.status()), 12);
  size_t at = 12;
  EXPECT_EQ(ErrorOffset(varint::Read(varint::Format::kLeb128, in, &at).status()), 12);
  // Truncated after 70 one-byte values: past the 64-byte window tier.
  const std::string t = std::string(70, '\x01') + "\x80";
  const absl::Span<const uint8_t> tin(reinterpret_cast<const uint8_t*>(t.data()), t.size());
  uint64_t many[71];
  for (varint::Format f : {varint::Format::kLeb128, varint::Format::kFory}) {
    const absl::StatusOr<size_t> o = varint::DecodeBatch(f, tin, many);
    const absl::StatusOr<size_t> r = ref::varint::DecodeBatch(f, tin, many);
    ASSERT_FALSE(o.ok());
    EXPECT_EQ(o.status().code(), absl::StatusCode::kOutOfRange);
    EXPECT_EQ(ErrorOffset(o.status()), 70);
    EXPECT_EQ(ErrorOffset(r.status()), 70);
  }
}

}  // namespace
}  // namespace serdiff
