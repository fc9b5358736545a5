// Reference CQL value codec: see codec_ref.h. Deliberately plain.
//
// This file holds the encoder (Serialize*); the decoder (Deserialize*) is in codec_ref_decode.cc,
// the type checks and byte helpers both use in codec_ref_common.cc (codec_ref_internal.h).
#include "reference/cql/codec_ref.h"

#include <cstring>
#include <utility>
#include <vector>

#include "absl/strings/str_cat.h"
#include "reference/cql/codec_ref_internal.h"

namespace serdiff::ref::cql {
namespace {

using namespace codec_ref_internal;  // NOLINT(google-build-using-namespace): shared helpers

absl::Status EncodeError(absl::string_view what) {
  return absl::InvalidArgumentError(absl::StrCat("ref cql encode: ", what));
}

// ---- encoding ------------------------------------------------------------------------------

absl::Status AppendPayload(const Type& t, const Value& v, bool short_form, std::string* out);

// One item inside a collection / tuple / UDT: its length (4 bytes, or 2 in the v1/v2
// top-level collection form) followed by its payload. The length is written once the payload is
// (appended after a placeholder of its width, so a list is built in one string).
absl::Status AppendItem(const Type& t, const Value& item, bool short_form, std::string* out) {
  if (item.is_unset()) return EncodeError("unset inside a value");
  if (item.is_null()) {
    if (short_form) return EncodeError("null element in a v1/v2 collection");
    out->append(BigEndian(0xFFFFFFFF, 4));
    return absl::OkStatus();
  }
  const int width = short_form ? 2 : 4;
  const size_t at = out->size();
  out->append(static_cast<size_t>(width), '\0');
  absl::Status s = AppendPayload(t, item, false, out);
  if (!s.ok()) return s;
  const uint64_t size = out->size() - at - static_cast<size_t>(width);
  const uint64_t limit = short_form ? 65535 : 2147483647;
  if (size > limit) return EncodeError("item too long for its length prefix");
  out->replace(at, static_cast<size_t>(width), BigEndian(size, width));
  return absl::OkStatus();
}

absl::StatusOr<std::string> EncodeIntInRange(const Value& v, int64_t lo, int64_t hi, int width) {
  const int64_t x = v.as_int();
  if (x < lo || x > hi) return EncodeError(absl::StrCat(x, " out of range"));
  return BigEndian(static_cast<uint64_t>(x), width);
}

// The payload of a value of a native type.
absl::StatusOr<std::string> NativePayload(const Type& t, const Value& v) {
  switch (t.kind) {
    case Kind::kBoolean:
      return std::string(1, v.as_bool() ? '\x01' : '\x00');
    case Kind::kTinyint:
      return EncodeIntInRange(v, -128, 127, 1);
    case Kind::kSmallint:
      return EncodeIntInRange(v, -32768, 32767, 2);
    case Kind::kInt:
      return EncodeIntInRange(v, kInt32Min, kInt32Max, 4);
    case Kind::kBigint:
    case Kind::kCounter:
    case Kind::kTimestamp:
      return BigEndian(static_cast<uint64_t>(v.as_int()), 8);
    case Kind::kTime:
      return EncodeIntInRange(v, 0, kLastTimeNanos, 8);
    case Kind::kDate: {
      // v4 spec 6.5: unsigned days with the epoch at 2^31.
      const int64_t days = v.as_int();
      if (days < kInt32Min || days > kInt32Max) return EncodeError("date out of range");
      return BigEndian(static_cast<uint64_t>(days + 2147483648LL), 4);
    }
    case Kind::kFloat: {
      const float f = v.as_float();
      uint32_t bits;
      std::memcpy(&bits, &f, sizeof bits);
      return BigEndian(bits, 4);
    }
    case Kind::kDouble: {
      const double d = v.as_double();
      uint64_t bits;
      std::memcpy(&bits, &d, sizeof bits);
      return BigEndian(bits, 8);
    }
    case Kind::kUuid:
    case Kind::kTimeuuid: {
      const Uuid& u = v.uuid();
      if (t.kind == Kind::kTimeuuid && (u[6] & 0xF0) != 0x10) {
        return EncodeError("timeuuid of a version other than 1");
      }
      return std::string(u.begin(), u.end());
    }
    case Kind::kText:
      if (!IsUtf8(v.bytes())) return EncodeError("text is not UTF-8");
      return v.bytes();
    case Kind::kAscii:
      for (char c : v.bytes()) {
        if (static_cast<unsigned char>(c) > 127) return EncodeError("ascii above 127");
      }
      return v.bytes();
    case Kind::kBlob:
      return v.bytes();
    case Kind::kInet:
      if (v.bytes().size() != 4 && v.bytes().size() != 16) return EncodeError("inet length");
      return v.bytes();
    case Kind::kVarint:
      return VarintBytes(v.varint());
    case Kind::kDecimal:
      return BigEndian(static_cast<uint32_t>(v.decimal().scale), 4) +
             VarintBytes(v.decimal().unscaled);
    case Kind::kDuration: {
      const Duration& d = v.duration();
      const bool all_up = d.months >= 0 && d.days >= 0 && d.nanos >= 0;
      const bool all_down = d.months <= 0 && d.days <= 0 && d.nanos <= 0;
      if (!all_up && !all_down) return EncodeError("duration of mixed signs");
      return UnsignedVint(ZigZag(d.months)) + UnsignedVint(ZigZag(d.days)) +
             UnsignedVint(ZigZag(d.nanos));
    }
    default:
      return EncodeError("unknown kind");
  }
}

// v's payload appended to *out (on an error *out holds a part of it, which the callers drop).
absl::Status AppendPayload(const Type& t, const Value& v, bool short_form, std::string* out) {
  if (v.is_empty()) return absl::OkStatus();
  if (v.is_null() || v.is_unset()) return EncodeError("null/unset have no payload");
  if (v.shape() != ShapeFor(t.kind)) return EncodeError("value shape does not fit the type");
  switch (t.kind) {
    case Kind::kList:
    case Kind::kSet:
    case Kind::kMap: {
      const bool is_map = t.kind == Kind::kMap;
      const std::vector<Value>& items = v.items();
      if (is_map && items.size() % 2 == 1) return EncodeError("odd number of map items");
      const size_t count = is_map ? items.size() / 2 : items.size();
      if (count > (short_form ? 65535u : 2147483647u)) return EncodeError("too many elements");
      out->append(BigEndian(count, short_form ? 2 : 4));
      for (size_t i = 0; i < items.size(); ++i) {
        const Type& item_type = is_map ? t.params[i % 2] : t.params[0];
        absl::Status s = AppendItem(item_type, items[i], short_form, out);
        if (!s.ok()) return s;
      }
      return absl::OkStatus();
    }
    case Kind::kTuple:
    case Kind::kUdt: {
      const std::vector<Value>& items = v.items();
      // Tuple and UDT values may stop early (missing trailing items read back as null).
      if (items.size() > t.params.size()) return EncodeError("more items than components");
      for (size_t i = 0; i < items.size(); ++i) {
        absl::Status s = AppendItem(t.params[i], items[i], false, out);
        if (!s.ok()) return s;
      }
      return absl::OkStatus();
    }
    default: {
      absl::StatusOr<std::string> payload = NativePayload(t, v);
      if (!payload.ok()) return payload.status();
      out->append(*payload);
      return absl::OkStatus();
    }
  }
}

absl::StatusOr<std::string> EncodePayload(const Type& t, const Value& v, bool short_form) {
  std::string out;
  absl::Status s = AppendPayload(t, v, short_form, &out);
  if (!s.ok()) return s;
  return out;
}

absl::Status CheckEncodeSetup(const Type& t, int version) {
  absl::Status s = CheckVersion(version);
  if (!s.ok()) return s;
  return CheckType(t, 0, kMaxNesting);
}

}  // namespace

absl::StatusOr<std::string> Serialize(const Type& t, const Value& v, int version) {
  absl::Status s = CheckEncodeSetup(t, version);
  if (!s.ok()) return s;
  return EncodePayload(t, v, version <= 2);
}

absl::StatusOr<size_t> SerializedSize(const Type& t, const Value& v, int version) {
  absl::StatusOr<std::string> bytes = Serialize(t, v, version);
  if (!bytes.ok()) return bytes.status();
  return bytes->size();
}

absl::StatusOr<size_t> SerializeTo(const Type& t, const Value& v, int version,
                                   absl::Span<uint8_t> out) {
  absl::StatusOr<std::string> bytes = Serialize(t, v, version);
  if (!bytes.ok()) return bytes.status();
  if (bytes->size() > out.size()) return absl::ResourceExhaustedError("ref cql: buffer too small");
  for (size_t i = 0; i < bytes->size(); ++i) out[i] = static_cast<uint8_t>((*bytes)[i]);
  return bytes->size();
}

absl::StatusOr<std::string> SerializeValue(const Type& t, const Value& v, int version) {
  absl::Status s = CheckEncodeSetup(t, version);
  if (!s.ok()) return s;
  if (v.is_null()) return BigEndian(0xFFFFFFFF, 4);
  if (v.is_unset()) {
    if (version < 4) return EncodeError("unset needs protocol v4");
    return BigEndian(0xFFFFFFFE, 4);
  }
  absl::StatusOr<std::string> payload = EncodePayload(t, v, version <= 2);
  if (!payload.ok()) return payload.status();
  if (payload->size() > 2147483647u) return EncodeError("payload too long for a [value]");
  return BigEndian(payload->size(), 4) + *payload;
}

absl::StatusOr<size_t> SerializedValueSize(const Type& t, const Value& v, int version) {
  absl::StatusOr<std::string> bytes = SerializeValue(t, v, version);
  if (!bytes.ok()) return bytes.status();
  return bytes->size();
}

}  // namespace serdiff::ref::cql
