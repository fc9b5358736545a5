// CQL family properties beyond the generic per-target ones (tests/target_driver.cc): the
// memory contract stated directly with the allocation tracker, canonical decoding, the text
// form, and the caller-buffer API.
#include <gtest/gtest.h>
#include <rapidcheck/gtest.h>

#include <string>

#include "absl/strings/str_cat.h"
#include "harness/alloc_tracker.h"
#include "harness/hex.h"
#include "reference/cql/codec_ref.h"
#include "serdiff/common/error_offset.h"
#include "serdiff/cql/codec.h"
#include "serdiff/cql/literal.h"
#include "targets/cql/domain.h"

namespace serdiff::targets::cql {
namespace {

namespace opt = serdiff::cql;
namespace ref = serdiff::ref::cql;

bool Contains(const Type& t, Kind k) {
  if (t.kind == k) return true;
  for (const Type& p : t.params) {
    if (Contains(p, k)) return true;
  }
  return false;
}

// Lists, sets, maps, UDTs with large text fields, up to 500,000 elements, 0..100% nulls.
RC_GTEST_PROP(CqlMemoryProps, LargeCollectionsPeakAtOutputPlus64KiB, ()) {
  const LargeSpec spec = *GenLargeSpec();
  const EncodeInput in = BuildLarge(spec);
  int64_t peak;
  absl::StatusOr<std::string> out;
  {
    harness::PeakHeapScope scope;
    out = opt::Serialize(in.type, in.value, in.version);
    peak = scope.PeakBytes();
  }
  RC_ASSERT(out.ok());
  RC_TAG(LargeShapeName(spec.shape));
  RC_ASSERT(peak <= static_cast<int64_t>(out->size()) + 65536);
}

TEST(CqlMemoryProps, EveryLargeShapeAtFullSizeStaysWithinBound) {
  for (uint8_t shape = 0; shape < kLargeShapes; ++shape) {
    LargeSpec spec;
    spec.shape = shape;
    spec.count = kLargeMaxCount;
    spec.null_pct = 33;
    spec.text_len = 16;
    spec.seed = shape;
    const EncodeInput in = BuildLarge(spec);
    harness::PeakHeapScope scope;
    absl::StatusOr<std::string> out = opt::Serialize(in.type, in.value, in.version);
    const int64_t peak = scope.PeakBytes();
    ASSERT_TRUE(out.ok()) << LargeShapeName(shape) << ": " << out.status();
    EXPECT_LE(peak, static_cast<int64_t>(out->size()) + 65536) << LargeShapeName(shape);
    EXPECT_GE(out->size(), 4u * kLargeMaxCount / 2) << LargeShapeName(shape);
  }
}

// Decoding never allocates in proportion to a count or length field: whatever the bytes,
// accepted or rejected, the optimized decoder's peak stays within DecodePeakBound.
RC_GTEST_PROP(CqlMemoryProps, DecodingAnyInputStaysWithinAMultipleOfTheInput, ()) {
  const DecodeInput in = *DecodeDomain().gen.value();
  int64_t peak;
  {
    harness::PeakHeapScope scope;
    absl::StatusOr<Value> v = in.framed
                                  ? opt::DeserializeValue(in.type, in.bytes, in.version, in.options)
                                  : opt::Deserialize(in.type, in.bytes, in.version, in.options);
    RC_TAG(v.ok() ? "accepted" : "rejected");
    peak = scope.PeakBytes();
  }
  RC_ASSERT(peak <= DecodePeakBound(in.bytes.size(), in.version));
}

RC_GTEST_PROP(CqlMemoryProps, DecodingMutatedEncodingsStaysWithinAMultipleOfTheInput, ()) {
  const MutatedInput in = *MutatedDomain().gen.value();
  const EncodeInput& base = in.base.base;
  int64_t peak;
  {
    harness::PeakHeapScope scope;
    absl::StatusOr<Value> v =
        base.framed ? opt::DeserializeValue(base.type, in.bytes, base.version, in.base.options)
                    : opt::Deserialize(base.type, in.bytes, base.version, in.base.options);
    RC_TAG(v.ok() ? "accepted" : "rejected");
    peak = scope.PeakBytes();
  }
  RC_ASSERT(peak <= DecodePeakBound(in.bytes.size(), base.version));
}

// Claimed counts far beyond the input: rejected with (almost) nothing allocated.
RC_GTEST_PROP(CqlMemoryProps, HugeClaimedCountsFailFastWithoutAllocating, ()) {
  const Type t = *rc::gen::element(Type::List(Type::Native(Kind::kInt)),
                                   Type::Map(Type::Native(Kind::kText), Type::Native(Kind::kInt)),
                                   Type::Set(Type::List(Type::Native(Kind::kBigint))));
  const uint32_t count = *rc::gen::inRange<uint32_t>(1'000, 0x7FFFFFFF);
  const std::string body = *rc::gen::container<std::string>(*rc::gen::inRange<size_t>(0, 64),
                                                            rc::gen::arbitrary<char>());
  std::string input(4, '\0');
  for (int i = 0; i < 4; ++i) input[i] = static_cast<char>(count >> (24 - 8 * i));
  input += body;
  RC_PRE(static_cast<size_t>(count) * 4 > body.size());
  harness::PeakHeapScope scope;
  absl::StatusOr<Value> v = opt::Deserialize(t, input, 4);
  RC_ASSERT(!v.ok());
  RC_ASSERT(scope.PeakBytes() <= 16 * static_cast<int64_t>(input.size()) + 1024);
}

// With every strict flag on, the decoders are canonical: what they accept re-encodes to the
// same bytes (booleans other than 00/01 are the one documented normalisation; a UDT with
// missing trailing fields keeps exactly the fields present). The server-compatible defaults
// read more than the encoders write (long varints, negative lengths as null, short tuples,
// ...), so they are not.
RC_GTEST_PROP(CqlDecodeProps, AcceptedBytesReencodeToThemselves, ()) {
  DecodeInput in = *DecodeDomain().gen.value();
  in.options.require_minimal_varint = true;
  in.options.reject_short_tuples = true;
  in.options.reject_negative_lengths = true;
  in.options.require_time_in_day = true;
  in.options.reject_duration_trailing_bytes = true;
  in.options.strict_utf8 = true;
  RC_PRE(!Contains(in.type, Kind::kBoolean));
  absl::StatusOr<Value> v = in.framed
                                ? opt::DeserializeValue(in.type, in.bytes, in.version, in.options)
                                : opt::Deserialize(in.type, in.bytes, in.version, in.options);
  RC_PRE(v.ok());
  absl::StatusOr<std::string> again = in.framed ? opt::SerializeValue(in.type, *v, in.version)
                                                : opt::Serialize(in.type, *v, in.version);
  RC_ASSERT(again.ok());
  RC_ASSERT(harness::CompactHex(*again) == harness::CompactHex(in.bytes));
}

// The text form is exact: parsing the printed value gives back the value (for every value
// that fits its type).
RC_GTEST_PROP(CqlModelProps, PrintedValuesParseBack, ()) {
  const EncodeInput in = *GenEncodeInput(true);
  RC_PRE(opt::SerializeValue(in.type, in.value, 5).ok());
  const std::string text = opt::FormatValue(in.type, in.value);
  Value back;
  const absl::Status st = opt::ParseValue(in.type, text, &back);
  RC_ASSERT(st.ok());
  RC_ASSERT(back == in.value);
  Type type_back;
  RC_ASSERT(opt::ParseType(opt::TypeToString(in.type), &type_back).ok());
  RC_ASSERT(type_back == in.type);
}

// SerializeTo: a buffer one byte short is refused and left untouched; an exact one is filled.
RC_GTEST_PROP(CqlEncodeProps, PresizedBufferIsFilledExactly, ()) {
  const EncodeInput in = *GenEncodeInput(true);
  absl::StatusOr<size_t> size = opt::SerializedSize(in.type, in.value, in.version);
  RC_PRE(size.ok());
  RC_PRE(*size > 0);
  std::string buf(*size - 1, '\x5A');
  absl::StatusOr<size_t> n =
      opt::SerializeTo(in.type, in.value, in.version,
                       absl::MakeSpan(reinterpret_cast<uint8_t*>(buf.data()), buf.size()));
  RC_ASSERT(n.status().code() == absl::StatusCode::kResourceExhausted);
  RC_ASSERT(buf == std::string(*size - 1, '\x5A'));
  buf.assign(*size, '\x5A');
  n = opt::SerializeTo(in.type, in.value, in.version,
                       absl::MakeSpan(reinterpret_cast<uint8_t*>(buf.data()), buf.size()));
  RC_ASSERT(n.ok());
  RC_ASSERT(*n == *size);
  RC_ASSERT(buf == *ref::Serialize(in.type, in.value, in.version));
}

}  // namespace

// Optimized and reference decoders agree on every input and every option: same error class
// and the same error offset (docs/architecture.md, "Error offsets"), or the same value.
RC_GTEST_PROP(CqlDecodeProps, BothDecodersReportTheSameErrorOffset, ()) {
  const DecodeInput in = *DecodeDomain().gen.value();
  absl::StatusOr<Value> a = in.framed
                                ? opt::DeserializeValue(in.type, in.bytes, in.version, in.options)
                                : opt::Deserialize(in.type, in.bytes, in.version, in.options);
  absl::StatusOr<Value> b =
      in.framed ? serdiff::ref::cql::DeserializeValue(in.type, in.bytes, in.version, in.options)
                : serdiff::ref::cql::Deserialize(in.type, in.bytes, in.version, in.options);
  RC_ASSERT(a.ok() == b.ok());
  if (a.ok()) {
    RC_ASSERT(opt::FormatValue(in.type, *a) == opt::FormatValue(in.type, *b));
    return;
  }
  RC_ASSERT(a.status().code() == b.status().code());
  RC_ASSERT(serdiff::ErrorOffset(a.status()).has_value());
  RC_ASSERT(serdiff::ErrorOffset(a.status()) == serdiff::ErrorOffset(b.status()));
}

}  // namespace serdiff::targets::cql
