// Optimized CQL value codec, write pass: writes a value that the size pass (codec_size.cc)
// has validated into a buffer of exactly the predicted size, without checks of its own.
#include <cstring>
#include <string>
#include <vector>

#include "absl/strings/str_cat.h"
#include "serdiff/common/fill_string.h"
#include "serdiff/cql/codec_internal.h"
#include "serdiff/varint/varint.h"

namespace serdiff::cql {
namespace {

using namespace codec_internal;  // NOLINT(google-build-using-namespace)

uint8_t* WritePayload(const Type& t, const Value& v, uint8_t* p, bool short_collection);

inline uint8_t* WriteElement(const Type& t, const Value& e, uint8_t* p, bool short_prefix) {
  switch (e.shape()) {
    case Value::Shape::kNull:
      Store32(p, 0xFFFFFFFFu);
      return p + 4;
    case Value::Shape::kEmpty:
      if (short_prefix) {
        Store16(p, 0);
        return p + 2;
      }
      Store32(p, 0);
      return p + 4;
    default:
      break;
  }
  const size_t prefix = short_prefix ? 2 : 4;
  if (const int w = FixedWidth(t.kind); w != 0) {  // the length is known: no back-patching
    if (short_prefix) {
      Store16(p, static_cast<uint16_t>(w));
    } else {
      Store32(p, static_cast<uint32_t>(w));
    }
    return WriteFixed(t.kind, e, p + prefix);
  }
  uint8_t* const body = p + prefix;
  uint8_t* const end = WritePayload(t, e, body, false);
  const size_t n = static_cast<size_t>(end - body);
  if (short_prefix) {
    Store16(p, static_cast<uint16_t>(n));
  } else {
    Store32(p, static_cast<uint32_t>(n));
  }
  return end;
}

// The elements of a list/set of fixed-width kind K: length prefix and value written inline;
// null and empty elements go through WriteElement.
template <Kind K>
uint8_t* WriteFixedItems(const Type& et, const std::vector<Value>& items, uint8_t* p,
                         bool short_collection) {
  constexpr int kWidth = FixedWidth(K);
  constexpr Value::Shape kShape = ShapeOfKind(K);
  if (short_collection) {
    for (const Value& e : items) {
      if (e.shape() != kShape) {
        p = WriteElement(et, e, p, true);
        continue;
      }
      Store16(p, static_cast<uint16_t>(kWidth));
      p = WriteFixed(K, e, p + 2);
    }
    return p;
  }
  for (const Value& e : items) {
    if (e.shape() != kShape) {
      p = WriteElement(et, e, p, false);
      continue;
    }
    Store32(p, static_cast<uint32_t>(kWidth));
    p = WriteFixed(K, e, p + 4);
  }
  return p;
}

uint8_t* WritePayload(const Type& t, const Value& v, uint8_t* p, bool short_collection) {
  if (v.is_empty()) return p;
  switch (t.kind) {
    case Kind::kBoolean:
    case Kind::kTinyint:
    case Kind::kSmallint:
    case Kind::kInt:
    case Kind::kDate:
    case Kind::kBigint:
    case Kind::kCounter:
    case Kind::kTimestamp:
    case Kind::kTime:
    case Kind::kFloat:
    case Kind::kDouble:
    case Kind::kUuid:
    case Kind::kTimeuuid:
      return WriteFixed(t.kind, v, p);
    case Kind::kText:
    case Kind::kAscii:
    case Kind::kBlob:
    case Kind::kInet: {
      const std::string& s = v.bytes();
      std::memcpy(p, s.data(), s.size());
      return p + s.size();
    }
    case Kind::kVarint:
      return WriteVarint(v.varint(), p);
    case Kind::kDecimal:
      Store32(p, static_cast<uint32_t>(v.decimal().scale));
      return WriteVarint(v.decimal().unscaled, p + 4);
    case Kind::kDuration: {
      using varint::Format;
      const Duration& d = v.duration();
      p = varint::WriteToArray(Format::kVInt, varint::EncodeZigZag64(d.months), p);
      p = varint::WriteToArray(Format::kVInt, varint::EncodeZigZag64(d.days), p);
      return varint::WriteToArray(Format::kVInt, varint::EncodeZigZag64(d.nanos), p);
    }
    case Kind::kList:
    case Kind::kSet: {
      const std::vector<Value>& items = v.items();
      if (short_collection) {
        Store16(p, static_cast<uint16_t>(items.size()));
        p += 2;
      } else {
        Store32(p, static_cast<uint32_t>(items.size()));
        p += 4;
      }
      const Type& et = t.params[0];
      const int w = FixedWidth(et.kind);
      if (w == 0) {
        for (const Value& e : items) p = WriteElement(et, e, p, short_collection);
        return p;
      }
      return DispatchFixed(et.kind, [&](auto kind) {
        return WriteFixedItems<decltype(kind)::value>(et, items, p, short_collection);
      });
    }
    case Kind::kMap: {
      const std::vector<Value>& items = v.items();
      if (short_collection) {
        Store16(p, static_cast<uint16_t>(items.size() / 2));
        p += 2;
      } else {
        Store32(p, static_cast<uint32_t>(items.size() / 2));
        p += 4;
      }
      for (size_t i = 0; i < items.size(); i += 2) {
        p = WriteElement(t.params[0], items[i], p, short_collection);
        p = WriteElement(t.params[1], items[i + 1], p, short_collection);
      }
      return p;
    }
    case Kind::kTuple:
    case Kind::kUdt: {
      const std::vector<Value>& items = v.items();
      for (size_t i = 0; i < items.size(); ++i) p = WriteElement(t.params[i], items[i], p, false);
      return p;
    }
  }
  return p;
}

absl::Status CheckWritten(size_t written, size_t predicted) {
  if (written == predicted) return absl::OkStatus();
  return absl::InternalError(absl::StrCat("cql encode: wrote ", written,
                                          " bytes but the size pass predicted ", predicted));
}

}  // namespace

absl::StatusOr<size_t> SerializeTo(const Type& t, const Value& v, int version,
                                   absl::Span<uint8_t> out) {
  absl::StatusOr<size_t> size = PayloadSize(t, v, version);
  if (!size.ok()) return size.status();
  if (out.size() < *size) {
    return absl::ResourceExhaustedError(
        absl::StrCat("cql encode: payload needs ", *size, " bytes, buffer has ", out.size()));
  }
  const uint8_t* end = WritePayload(t, v, out.data(), version < 3);
  absl::Status st = CheckWritten(static_cast<size_t>(end - out.data()), *size);
  if (!st.ok()) return st;
  return *size;
}

absl::StatusOr<std::string> Serialize(const Type& t, const Value& v, int version) {
  absl::StatusOr<size_t> size = PayloadSize(t, v, version);
  if (!size.ok()) return size.status();
  std::string out;
  size_t written = 0;
  const bool exact = ::serdiff::internal::FillString(
      *size,
      [&](uint8_t* base) {
        uint8_t* end = WritePayload(t, v, base, version < 3);
        written = static_cast<size_t>(end - base);
        return end;
      },
      &out);
  if (!exact) return CheckWritten(written, *size);
  return out;
}

absl::StatusOr<std::string> SerializeValue(const Type& t, const Value& v, int version) {
  absl::StatusOr<size_t> size = SerializedValueSize(t, v, version);
  if (!size.ok()) return size.status();
  std::string out(*size, '\0');
  uint8_t* const base = reinterpret_cast<uint8_t*>(out.data());
  if (v.is_null() || v.is_unset()) {
    Store32(base, v.is_null() ? 0xFFFFFFFFu : 0xFFFFFFFEu);
    return out;
  }
  Store32(base, static_cast<uint32_t>(*size - 4));
  const uint8_t* end = WritePayload(t, v, base + 4, version < 3);
  absl::Status st = CheckWritten(static_cast<size_t>(end - base), *size);
  if (!st.ok()) return st;
  return out;
}

}  // namespace serdiff::cql
