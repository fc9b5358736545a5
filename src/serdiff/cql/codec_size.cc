// Optimized CQL value codec, size pass: validates a value against its type (shapes, ranges,
// lengths, counts, nesting) and computes the exact size of its encoding, so that the write
// pass (codec_write.cc) can write into one exactly sized buffer without checking anything.
#include <algorithm>
#include <limits>
#include <string>

#include "absl/strings/str_cat.h"
#include "serdiff/cql/codec_internal.h"
#include "serdiff/varint/varint.h"

namespace serdiff::cql {
namespace codec_internal {
namespace {

class Sizer {
 public:
  const absl::Status& status() const { return status_; }

  // Payload bytes of `v` (Empty: 0) starting at output offset `off`. 0 after a failure.
  size_t Payload(const Type& t, const Value& v, size_t off, bool short_collection) {
    if (v.is_empty()) return 0;
    if (v.is_null() || v.is_unset()) {
      return Fail(off, absl::StrCat(v.is_null() ? "null" : "unset",
                                    " has no payload (only a [value] can carry it)"));
    }
    if (v.shape() != ShapeOfKind(t.kind)) {
      return Fail(off, absl::StrCat("a ", ShapeName(v.shape()), " value cannot be written as ",
                                    KindName(t.kind)));
    }
    switch (t.kind) {
      case Kind::kBoolean:
        return 1;
      case Kind::kTinyint:
        return IntInRange(v, off, -128, 127, 1);
      case Kind::kSmallint:
        return IntInRange(v, off, -32768, 32767, 2);
      case Kind::kInt:
        return IntInRange(v, off, std::numeric_limits<int32_t>::min(),
                          std::numeric_limits<int32_t>::max(), 4);
      case Kind::kDate:
        return IntInRange(v, off, -kDateEpoch, kDateEpoch - 1, 4);
      case Kind::kTime:
        return IntInRange(v, off, 0, kMaxTimeNanos, 8);
      case Kind::kBigint:
      case Kind::kCounter:
      case Kind::kTimestamp:
      case Kind::kDouble:
        return 8;
      case Kind::kFloat:
        return 4;
      case Kind::kUuid:
        return 16;
      case Kind::kTimeuuid:
        if ((v.uuid()[6] >> 4) != 1) return Fail(off, "timeuuid must be a version 1 UUID");
        return 16;
      case Kind::kText: {
        const std::string& s = v.bytes();
        const size_t bad = FirstInvalidUtf8(U8(s), s.size());
        if (bad != s.size()) {
          return Fail(off + bad, absl::StrCat("text is not valid UTF-8 at byte ", bad));
        }
        return s.size();
      }
      case Kind::kAscii: {
        const std::string& s = v.bytes();
        const size_t bad = FirstNonAscii(U8(s), s.size());
        if (bad != s.size()) {
          return Fail(off + bad, absl::StrCat("ascii byte ", bad, " is above 127"));
        }
        return s.size();
      }
      case Kind::kBlob:
        return v.bytes().size();
      case Kind::kInet: {
        const size_t n = v.bytes().size();
        if (n != 4 && n != 16) {
          return Fail(off, absl::StrCat("inet needs 4 or 16 address bytes, not ", n));
        }
        return n;
      }
      case Kind::kVarint:
        return VarintSize(v.varint());
      case Kind::kDecimal:
        return 4 + VarintSize(v.decimal().unscaled);
      case Kind::kDuration: {
        const Duration& d = v.duration();
        const bool non_negative = d.months >= 0 && d.days >= 0 && d.nanos >= 0;
        const bool non_positive = d.months <= 0 && d.days <= 0 && d.nanos <= 0;
        if (!non_negative && !non_positive) {
          return Fail(off, "duration components must be all >= 0 or all <= 0");
        }
        using varint::Format;
        return varint::EncodedSize(Format::kVInt, varint::EncodeZigZag64(d.months)) +
               varint::EncodedSize(Format::kVInt, varint::EncodeZigZag64(d.days)) +
               varint::EncodedSize(Format::kVInt, varint::EncodeZigZag64(d.nanos));
      }
      case Kind::kList:
      case Kind::kSet:
      case Kind::kMap: {
        const std::vector<Value>& items = v.items();
        const bool map = t.kind == Kind::kMap;
        if (map && items.size() % 2 != 0) return Fail(off, "map has a key without a value");
        const size_t count = map ? items.size() / 2 : items.size();
        if (count > (short_collection ? kMaxShortLength : kMaxIntLength)) {
          return Fail(off, absl::StrCat("collection of ", count, " elements exceeds the ",
                                        short_collection ? "[short]" : "[int]", " count"));
        }
        if (!map && FixedWidth(t.params[0].kind) != 0) {
          return DispatchFixed(t.params[0].kind, [&](auto kind) {
            return FixedItems<decltype(kind)::value>(t.params[0], items, off, short_collection);
          });
        }
        size_t size = short_collection ? 2 : 4;
        const size_t prefix = short_collection ? 2 : 4;
        // Element types (key, value for maps) with their fixed width (0: variable).
        const Type& et0 = t.params[0];
        const Type& et1 = map ? t.params[1] : t.params[0];
        const size_t w0 = static_cast<size_t>(FixedWidth(et0.kind));
        const size_t w1 = static_cast<size_t>(FixedWidth(et1.kind));
        const Value::Shape s0 = ShapeOfKind(et0.kind);
        const Value::Shape s1 = ShapeOfKind(et1.kind);
        for (size_t i = 0; i < items.size(); ++i) {
          const bool second = map && (i % 2 == 1);
          const Value& e = items[i];
          const size_t w = second ? w1 : w0;
          const Type& et = second ? et1 : et0;
          // Fast path: a valid fixed-width element needs no recursion.
          if (w != 0 && e.shape() == (second ? s1 : s0) && FixedValueOk(et.kind, e)) {
            size += prefix + w;
            continue;
          }
          size += Element(et, e, off + size, short_collection);
          if (!status_.ok()) return 0;
        }
        return size;
      }
      case Kind::kTuple:
      case Kind::kUdt: {
        const std::vector<Value>& items = v.items();
        const bool tuple = t.kind == Kind::kTuple;
        // A tuple value, like a UDT value, may stop early (Cassandra's TupleSerializer reads
        // missing trailing components as null); more items than components is an error.
        if (items.size() > t.params.size()) {
          return Fail(off, absl::StrCat(KindName(t.kind), " of ", t.params.size(),
                                        tuple ? " components" : " fields", " given ", items.size(),
                                        " items"));
        }
        size_t size = 0;
        for (size_t i = 0; i < items.size(); ++i) {
          size += Element(t.params[i], items[i], off + size, false);
          if (!status_.ok()) return 0;
        }
        return size;
      }
    }
    return Fail(off, "unknown kind");
  }

  // Framed bytes of one collection element / tuple component / UDT field: its [bytes] (or
  // [short bytes] when short_prefix) length and payload.
  size_t Element(const Type& t, const Value& e, size_t off, bool short_prefix) {
    const size_t prefix = short_prefix ? 2 : 4;
    switch (e.shape()) {
      case Value::Shape::kNull:
        if (short_prefix) {
          return Fail(off, "a null element cannot be written with a [short] length (v1/v2)");
        }
        return 4;
      case Value::Shape::kUnset:
        return Fail(off, "unset is only allowed as a top-level [value], not inside a value");
      case Value::Shape::kEmpty:
        return prefix;
      default:
        break;
    }
    const size_t n = Payload(t, e, off + prefix, false);
    if (!status_.ok()) return 0;
    if (n > (short_prefix ? kMaxShortLength : kMaxIntLength)) {
      return Fail(off, absl::StrCat("item of ", n, " bytes exceeds its length prefix"));
    }
    return prefix + n;
  }

 private:
  // A list/set of fixed-width kind K: count header plus every element, validated inline;
  // null, empty and invalid elements take the generic path (which builds the error).
  template <Kind K>
  size_t FixedItems(const Type& et, const std::vector<Value>& items, size_t off,
                    bool short_collection) {
    constexpr size_t kWidth = static_cast<size_t>(FixedWidth(K));
    constexpr Value::Shape kShape = ShapeOfKind(K);
    const size_t prefix = short_collection ? 2 : 4;
    size_t size = prefix;
    for (const Value& e : items) {
      if (e.shape() == kShape && FixedValueOk(K, e)) {
        size += prefix + kWidth;
        continue;
      }
      size += Element(et, e, off + size, short_collection);
      if (!status_.ok()) return 0;
    }
    return size;
  }

  size_t IntInRange(const Value& v, size_t off, int64_t lo, int64_t hi, size_t width) {
    const int64_t x = v.as_int();
    if (x < lo || x > hi) {
      return Fail(off, absl::StrCat(x, " is outside ", lo, "..", hi));
    }
    return width;
  }
  size_t Fail(size_t off, absl::string_view what) {
    if (status_.ok()) {
      status_ = absl::InvalidArgumentError(
          absl::StrCat("cql encode: value at output offset ", off, ": ", what));
    }
    return 0;
  }

  absl::Status status_;
};

}  // namespace

size_t ElementSize(const Type& t, const Value& e, bool short_prefix) {
  Sizer sizer;
  return sizer.Element(t, e, 0, short_prefix);
}

absl::StatusOr<size_t> PayloadSize(const Type& t, const Value& v, int version) {
  absl::Status st = CheckVersion(version);
  if (!st.ok()) return st;
  st = ValidateType(t, kMaxNestingDepth);
  if (!st.ok()) return absl::InvalidArgumentError(absl::StrCat("cql encode: ", st.message()));
  Sizer sizer;
  const size_t n = sizer.Payload(t, v, 0, version < 3);
  if (!sizer.status().ok()) return sizer.status();
  return n;
}

}  // namespace codec_internal

using codec_internal::CheckVersion;
using codec_internal::kMaxIntLength;
using codec_internal::PayloadSize;

absl::StatusOr<size_t> SerializedSize(const Type& t, const Value& v, int version) {
  return PayloadSize(t, v, version);
}

absl::StatusOr<size_t> SerializedValueSize(const Type& t, const Value& v, int version) {
  absl::Status st = CheckVersion(version);
  if (!st.ok()) return st;
  // A null or unset writes no payload, but its type is still checked (codec.h: the type valid
  // and nested at most kMaxNestingDepth), as PayloadSize checks it for every other value.
  if (v.is_null() || v.is_unset()) {
    st = ValidateType(t, kMaxNestingDepth);
    if (!st.ok()) return absl::InvalidArgumentError(absl::StrCat("cql encode: ", st.message()));
  }
  if (v.is_null()) return 4;
  if (v.is_unset()) {
    if (version < 4) {
      return absl::InvalidArgumentError(
          absl::StrCat("cql encode: unset needs protocol v4+, not v", version));
    }
    return 4;
  }
  absl::StatusOr<size_t> n = PayloadSize(t, v, version);
  if (!n.ok()) return n.status();
  if (*n > kMaxIntLength) {
    return absl::InvalidArgumentError(
        absl::StrCat("cql encode: a payload of ", *n, " bytes exceeds the [value] length"));
  }
  return 4 + *n;
}

}  // namespace serdiff::cql
