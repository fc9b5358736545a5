// Optimized CQL value codec. Encoding: one validating size pass, then one write pass into a
// single exactly sized buffer (variable-size items get their length prefix back-patched).
// Decoding: one pass over the input with every length and count checked before use.
#include "serdiff/cql/codec.h"

#include <algorithm>
#include <cstring>
#include <limits>
#include <type_traits>
#include <utility>
#include <vector>

#include "absl/strings/str_cat.h"
#include "serdiff/common/error_offset.h"
#include "serdiff/cql/wire_bytes.h"
#include "serdiff/varint/varint.h"

namespace serdiff::cql {
namespace {

constexpr int64_t kMaxTimeNanos = 86'399'999'999'999;
constexpr int64_t kDateEpoch = int64_t{1} << 31;
constexpr size_t kMaxIntLength = static_cast<size_t>(std::numeric_limits<int32_t>::max());
constexpr size_t kMaxShortLength = 0xFFFF;

using wire::Load16;
using wire::Load32;
using wire::Load64;
using wire::Store16;
using wire::Store32;
using wire::Store64;

// Index of the first byte that does not start a valid UTF-8 sequence, or n when all of
// [p, p+n) is valid (no overlong forms, no surrogates, nothing above U+10FFFF).
size_t FirstInvalidUtf8(const uint8_t* p, size_t n) {
  size_t i = 0;
  while (i < n) {
    if (n - i >= 8) {
      uint64_t w;
      std::memcpy(&w, p + i, 8);
      if ((w & 0x8080808080808080ull) == 0) {
        i += 8;
        continue;
      }
    }
    const uint8_t c = p[i];
    if (c < 0x80) {
      ++i;
    } else if (c < 0xC2) {
      return i;
    } else if (c < 0xE0) {
      if (n - i < 2 || (p[i + 1] & 0xC0) != 0x80) return i;
      i += 2;
    } else if (c < 0xF0) {
      if (n - i < 3 || (p[i + 1] & 0xC0) != 0x80 || (p[i + 2] & 0xC0) != 0x80) return i;
      if ((c == 0xE0 && p[i + 1] < 0xA0) || (c == 0xED && p[i + 1] > 0x9F)) return i;
      i += 3;
    } else if (c < 0xF5) {
      if (n - i < 4 || (p[i + 1] & 0xC0) != 0x80 || (p[i + 2] & 0xC0) != 0x80 ||
          (p[i + 3] & 0xC0) != 0x80) {
        return i;
      }
      if ((c == 0xF0 && p[i + 1] < 0x90) || (c == 0xF4 && p[i + 1] > 0x8F)) return i;
      i += 4;
    } else {
      return i;
    }
  }
  return n;
}

// Index of the first byte of the first sequence that Cassandra's UTF8Serializer.UTF8Validator
// rejects (the sequence's lead byte, also when the input ends inside the sequence), or n.
// Its rules: 00..7F alone; C0 80 (modified-UTF-8 NUL); C2..DF + continuation; E0 + any byte
// outside 80..9F + continuation; E1..EF + 2 continuations (surrogates included); F0 + any byte
// with bit 4 or 5 set + 2 continuations; F1..F7 + 3 continuations. C1, F8..FF and a stray
// continuation byte start nothing.
size_t FirstInvalidCassandraUtf8(const uint8_t* p, size_t n) {
  size_t i = 0;
  while (i < n) {
    if (n - i >= 8) {
      uint64_t w;
      std::memcpy(&w, p + i, 8);
      if ((w & 0x8080808080808080ull) == 0) {
        i += 8;
        continue;
      }
    }
    const uint8_t c = p[i];
    if (c < 0x80) {
      ++i;
      continue;
    }
    if (c < 0xC0 || c == 0xC1 || c >= 0xF8) return i;
    const size_t len = c < 0xE0 ? 2 : c < 0xF0 ? 3 : 4;
    if (n - i < len) return i;
    const uint8_t second = p[i + 1];
    bool ok;
    if (c == 0xC0) {
      ok = second == 0x80;
    } else if (c == 0xE0) {
      ok = (second & 0xE0) != 0x80;
    } else if (c == 0xF0) {
      ok = (second & 0x30) != 0;
    } else {
      ok = (second & 0xC0) == 0x80;
    }
    for (size_t k = 2; k < len; ++k) ok = ok && (p[i + k] & 0xC0) == 0x80;
    if (!ok) return i;
    i += len;
  }
  return n;
}

size_t FirstNonAscii(const uint8_t* p, size_t n) {
  size_t i = 0;
  for (; n - i >= 8; i += 8) {
    uint64_t w;
    std::memcpy(&w, p + i, 8);
    if ((w & 0x8080808080808080ull) != 0) break;
  }
  for (; i < n; ++i) {
    if (p[i] >= 0x80) return i;
  }
  return n;
}

const uint8_t* U8(const std::string& s) { return reinterpret_cast<const uint8_t*>(s.data()); }

// ---- varint (v4 spec 6.23): minimal big-endian two's complement --------------------------

// Bytes of the minimal two's complement form of b. Zero -> 1 (00). Positive m -> the
// magnitude's length, plus a 00 byte when its top bit is set. Negative -m -> the form is
// NOT(m - 1), whose length is that of m - 1 (counted in m's byte count k) plus an FF byte
// when the top bit of m - 1 is set. m - 1 differs from m in its top byte only when all lower
// bytes of m are zero: then its top byte is top - 1 (so -128 = -0x80 fits in one byte: 80).
size_t VarintSize(const BigInt& b) {
  const std::string_view mag = b.magnitude();
  const size_t k = mag.size();
  if (k == 0) return 1;
  uint8_t top = static_cast<uint8_t>(mag[0]);
  if (b.negative()) {
    bool rest_zero = true;
    for (size_t i = 1; i < k && rest_zero; ++i) rest_zero = mag[i] == '\0';
    if (rest_zero) top = static_cast<uint8_t>(top - 1);
  }
  return k + (top >= 0x80 ? 1 : 0);
}

uint8_t* WriteVarint(const BigInt& b, uint8_t* p) {
  const std::string_view mag = b.magnitude();
  const size_t k = mag.size();
  const size_t len = VarintSize(b);
  if (k == 0) {
    *p = 0;
    return p + 1;
  }
  uint8_t* const end = p + len;
  uint8_t* q = end;
  if (!b.negative()) {
    std::memcpy(end - k, mag.data(), k);
    if (len > k) *p = 0x00;
    return end;
  }
  // NOT(m - 1), least significant byte first, then an FF sign byte if there is room left.
  int borrow = 1;
  for (size_t i = k; i-- > 0;) {
    int digit = static_cast<uint8_t>(mag[i]) - borrow;
    borrow = digit < 0 ? 1 : 0;
    digit &= 0xFF;
    *--q = static_cast<uint8_t>(~digit);
  }
  while (q > p) *--q = 0xFF;
  return end;
}

// Decodes a two's complement varint of n >= 1 bytes.
BigInt ReadVarint(const uint8_t* p, size_t n) {
  if (p[0] < 0x80) {
    return BigInt::FromMagnitude(false, std::string_view(reinterpret_cast<const char*>(p), n));
  }
  // Negative: magnitude = NOT(bytes) + 1.
  std::string mag(n, '\0');
  unsigned carry = 1;
  for (size_t i = n; i-- > 0;) {
    const unsigned digit = static_cast<uint8_t>(~p[i]) + carry;
    mag[i] = static_cast<char>(digit & 0xFF);
    carry = digit >> 8;
  }
  return BigInt::FromMagnitude(true, mag);
}

// True when the varint bytes carry a redundant leading sign byte.
bool VarintIsPadded(const uint8_t* p, size_t n) {
  return n >= 2 && ((p[0] == 0x00 && p[1] < 0x80) || (p[0] == 0xFF && p[1] >= 0x80));
}

// True when a value of fixed-width kind `k`, already of the right shape, is valid (integer
// within the kind's range, timeuuid of version 1). The fast paths below use it; anything
// else goes through the generic path, which also builds the error message.
constexpr bool FixedValueOk(Kind k, const Value& v) {
  switch (k) {
    case Kind::kTinyint:
      return v.as_int() >= -128 && v.as_int() <= 127;
    case Kind::kSmallint:
      return v.as_int() >= -32768 && v.as_int() <= 32767;
    case Kind::kInt:
    case Kind::kDate: {
      // int: -2^31..2^31-1; date (days): the same range.
      const int64_t x = v.as_int();
      return x >= std::numeric_limits<int32_t>::min() && x <= std::numeric_limits<int32_t>::max();
    }
    case Kind::kTime:
      return v.as_int() >= 0 && v.as_int() <= kMaxTimeNanos;
    case Kind::kTimeuuid:
      return (v.uuid()[6] >> 4) == 1;
    default:
      return true;
  }
}

// The payload of a fixed-width kind (shape and range already checked).
inline uint8_t* WriteFixed(Kind k, const Value& v, uint8_t* p) {
  switch (k) {
    case Kind::kBoolean:
      *p = v.as_bool() ? 1 : 0;
      return p + 1;
    case Kind::kTinyint:
      *p = static_cast<uint8_t>(v.as_int());
      return p + 1;
    case Kind::kSmallint:
      Store16(p, static_cast<uint16_t>(v.as_int()));
      return p + 2;
    case Kind::kInt:
      Store32(p, static_cast<uint32_t>(v.as_int()));
      return p + 4;
    case Kind::kDate:
      Store32(p, static_cast<uint32_t>(v.as_int() + kDateEpoch));
      return p + 4;
    case Kind::kFloat: {
      uint32_t bits;
      const float f = v.as_float();
      std::memcpy(&bits, &f, 4);
      Store32(p, bits);
      return p + 4;
    }
    case Kind::kDouble: {
      uint64_t bits;
      const double d = v.as_double();
      std::memcpy(&bits, &d, 8);
      Store64(p, bits);
      return p + 8;
    }
    case Kind::kUuid:
    case Kind::kTimeuuid:
      std::memcpy(p, v.uuid().data(), 16);
      return p + 16;
    default:  // bigint, counter, timestamp, time
      Store64(p, static_cast<uint64_t>(v.as_int()));
      return p + 8;
  }
}

// Calls f(std::integral_constant<Kind, k>{}) for a fixed-width kind k, so that loops over
// fixed-width elements are compiled once per kind with the per-element kind checks folded.
template <typename F>
auto DispatchFixed(Kind k, F&& f) {
  switch (k) {
    case Kind::kBoolean:
      return f(std::integral_constant<Kind, Kind::kBoolean>{});
    case Kind::kTinyint:
      return f(std::integral_constant<Kind, Kind::kTinyint>{});
    case Kind::kSmallint:
      return f(std::integral_constant<Kind, Kind::kSmallint>{});
    case Kind::kInt:
      return f(std::integral_constant<Kind, Kind::kInt>{});
    case Kind::kDate:
      return f(std::integral_constant<Kind, Kind::kDate>{});
    case Kind::kFloat:
      return f(std::integral_constant<Kind, Kind::kFloat>{});
    case Kind::kBigint:
      return f(std::integral_constant<Kind, Kind::kBigint>{});
    case Kind::kCounter:
      return f(std::integral_constant<Kind, Kind::kCounter>{});
    case Kind::kTimestamp:
      return f(std::integral_constant<Kind, Kind::kTimestamp>{});
    case Kind::kTime:
      return f(std::integral_constant<Kind, Kind::kTime>{});
    case Kind::kDouble:
      return f(std::integral_constant<Kind, Kind::kDouble>{});
    case Kind::kUuid:
      return f(std::integral_constant<Kind, Kind::kUuid>{});
    default:
      return f(std::integral_constant<Kind, Kind::kTimeuuid>{});
  }
}

absl::Status CheckVersion(int version) {
  if (version < kMinProtocolVersion || version > kMaxProtocolVersion) {
    return absl::InvalidArgumentError(
        absl::StrCat("cql: protocol version ", version, " is not in 1..5"));
  }
  return absl::OkStatus();
}

// ---- size pass ----------------------------------------------------------------------------

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

// ---- write pass (unchecked: the size pass has validated everything) -------------------------

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

absl::Status CheckWritten(size_t written, size_t predicted) {
  if (written == predicted) return absl::OkStatus();
  return absl::InternalError(absl::StrCat("cql encode: wrote ", written,
                                          " bytes but the size pass predicted ", predicted));
}

// ---- decoder --------------------------------------------------------------------------------

class Decoder {
 public:
  Decoder(const uint8_t* data, const DecodeOptions& options) : data_(data), options_(options) {}

  // Decodes the payload [begin, end) of the input as `t`.
  absl::Status Payload(const Type& t, size_t begin, size_t end, bool short_collection, Value* out) {
    const size_t len = end - begin;
    if (len == 0) {
      *out = Value::Empty();
      return absl::OkStatus();
    }
    const uint8_t* p = data_ + begin;
    const int width = FixedWidth(t.kind);
    if (width != 0 && len != static_cast<size_t>(width)) {
      return Invalid(begin, absl::StrCat(KindName(t.kind), " needs ", width, " bytes, got ", len));
    }
    switch (t.kind) {
      case Kind::kBoolean:
        *out = Value::Bool(p[0] != 0);
        return absl::OkStatus();
      case Kind::kTinyint:
        *out = Value::Int(static_cast<int8_t>(p[0]));
        return absl::OkStatus();
      case Kind::kSmallint:
        *out = Value::Int(static_cast<int16_t>(Load16(p)));
        return absl::OkStatus();
      case Kind::kInt:
        *out = Value::Int(static_cast<int32_t>(Load32(p)));
        return absl::OkStatus();
      case Kind::kDate:
        *out = Value::Int(static_cast<int64_t>(Load32(p)) - kDateEpoch);
        return absl::OkStatus();
      case Kind::kBigint:
      case Kind::kCounter:
      case Kind::kTimestamp:
        *out = Value::Int(static_cast<int64_t>(Load64(p)));
        return absl::OkStatus();
      case Kind::kTime: {
        const int64_t ns = static_cast<int64_t>(Load64(p));
        if (options_.require_time_in_day && (ns < 0 || ns > kMaxTimeNanos)) {
          return Invalid(begin, absl::StrCat("time ", ns, " ns is outside 0..", kMaxTimeNanos));
        }
        *out = Value::Int(ns);
        return absl::OkStatus();
      }
      case Kind::kFloat: {
        const uint32_t bits = Load32(p);
        float f;
        std::memcpy(&f, &bits, 4);
        *out = Value::Float(f);
        return absl::OkStatus();
      }
      case Kind::kDouble: {
        const uint64_t bits = Load64(p);
        double d;
        std::memcpy(&d, &bits, 8);
        *out = Value::Double(d);
        return absl::OkStatus();
      }
      case Kind::kUuid:
      case Kind::kTimeuuid: {
        if (t.kind == Kind::kTimeuuid && (p[6] >> 4) != 1) {
          return Invalid(begin + 6, "timeuuid is not a version 1 UUID");
        }
        Uuid u;
        std::memcpy(u.data(), p, 16);
        *out = Value::FromUuid(u);
        return absl::OkStatus();
      }
      case Kind::kText: {
        const size_t bad =
            options_.strict_utf8 ? FirstInvalidUtf8(p, len) : FirstInvalidCassandraUtf8(p, len);
        if (bad != len) return Invalid(begin + bad, "text is not valid UTF-8");
        *out = Value::Text(std::string(reinterpret_cast<const char*>(p), len));
        return absl::OkStatus();
      }
      case Kind::kAscii: {
        const size_t bad = FirstNonAscii(p, len);
        if (bad != len) return Invalid(begin + bad, "ascii byte above 127");
        *out = Value::Ascii(std::string(reinterpret_cast<const char*>(p), len));
        return absl::OkStatus();
      }
      case Kind::kBlob:
        *out = Value::Blob(std::string(reinterpret_cast<const char*>(p), len));
        return absl::OkStatus();
      case Kind::kInet:
        if (len != 4 && len != 16) {
          return Invalid(begin, absl::StrCat("inet needs 4 or 16 bytes, got ", len));
        }
        *out = Value::Inet(std::string(reinterpret_cast<const char*>(p), len));
        return absl::OkStatus();
      case Kind::kVarint:
        if (options_.require_minimal_varint && VarintIsPadded(p, len)) {
          return Invalid(begin, "varint has a redundant leading sign byte");
        }
        *out = Value::Varint(ReadVarint(p, len));
        return absl::OkStatus();
      case Kind::kDecimal: {
        if (len < 5) {
          return Invalid(begin, absl::StrCat("decimal needs a 4-byte scale and at least one "
                                             "unscaled byte, got ",
                                             len, " bytes"));
        }
        if (options_.require_minimal_varint && VarintIsPadded(p + 4, len - 4)) {
          return Invalid(begin + 4, "decimal unscaled varint has a redundant leading sign byte");
        }
        Decimal d;
        d.scale = static_cast<int32_t>(Load32(p));
        d.unscaled = ReadVarint(p + 4, len - 4);
        *out = Value::FromDecimal(std::move(d));
        return absl::OkStatus();
      }
      case Kind::kDuration:
        return ReadDuration(begin, end, out);
      case Kind::kList:
      case Kind::kSet:
      case Kind::kMap:
        return ReadCollection(t, begin, end, short_collection, out);
      case Kind::kTuple:
      case Kind::kUdt:
        return ReadComponents(t, begin, end, out);
    }
    return Invalid(begin, "unknown kind");
  }

 private:
  static absl::Status Invalid(size_t off, absl::string_view what) {
    return WithErrorOffset(
        absl::InvalidArgumentError(absl::StrCat("cql decode: offset ", off, ": ", what)),
        static_cast<int64_t>(off));
  }
  static absl::Status Truncated(size_t off, absl::string_view what) {
    return WithErrorOffset(
        absl::OutOfRangeError(absl::StrCat("cql decode: offset ", off, ": ", what)),
        static_cast<int64_t>(off));
  }

  absl::Status ReadDuration(size_t begin, size_t end, Value* out) {
    const absl::Span<const uint8_t> in(data_ + begin, end - begin);
    size_t off = 0;
    int64_t parts[3];
    for (int i = 0; i < 3; ++i) {
      const size_t start = off;
      absl::StatusOr<uint64_t> raw = varint::Read(varint::Format::kVInt, in, &off);
      if (!raw.ok()) {
        return Truncated(begin + start, absl::StrCat("duration component ", i, " is truncated"));
      }
      if (options_.require_minimal_varint &&
          varint::EncodedSize(varint::Format::kVInt, *raw) != off - start) {
        return Invalid(begin + start,
                       absl::StrCat("duration component ", i, " is a non-minimal vint"));
      }
      parts[i] = varint::DecodeZigZag64(*raw);
      if (i < 2 && (parts[i] < std::numeric_limits<int32_t>::min() ||
                    parts[i] > std::numeric_limits<int32_t>::max())) {
        return Invalid(begin + start,
                       absl::StrCat(i == 0 ? "months " : "days ", parts[i], " exceed int32"));
      }
    }
    if (off != in.size() && options_.reject_duration_trailing_bytes) {
      return Invalid(begin + off, "bytes left after the duration's three vints");
    }
    const bool non_negative = parts[0] >= 0 && parts[1] >= 0 && parts[2] >= 0;
    const bool non_positive = parts[0] <= 0 && parts[1] <= 0 && parts[2] <= 0;
    if (!non_negative && !non_positive) {
      return Invalid(begin, "duration components of mixed signs");
    }
    *out = Value::FromDuration(
        Duration{static_cast<int32_t>(parts[0]), static_cast<int32_t>(parts[1]), parts[2]});
    return absl::OkStatus();
  }

  // One [bytes] / [short bytes] item at *pos (< end), decoded as `t` into `out`.
  absl::Status ReadItem(const Type& t, size_t* pos, size_t end, bool short_prefix, Value* out) {
    const size_t at = *pos;
    const size_t prefix = short_prefix ? 2 : 4;
    if (end - at < prefix) return Truncated(at, "item length is truncated");
    int64_t n;
    if (short_prefix) {
      n = Load16(data_ + at);
    } else {
      n = static_cast<int32_t>(Load32(data_ + at));
      if (n == -1 || (n < 0 && !options_.reject_negative_lengths)) {
        *pos = at + 4;
        *out = Value::Null();
        return absl::OkStatus();
      }
      if (n == -2) return Invalid(at, "unset (-2) is not allowed inside a value");
      if (n < 0) return Invalid(at, absl::StrCat("negative item length ", n));
    }
    const size_t body = at + prefix;
    if (static_cast<uint64_t>(n) > end - body) {
      return Truncated(
          at, absl::StrCat("item length ", n, " exceeds the ", end - body, " bytes that remain"));
    }
    *pos = body + static_cast<size_t>(n);
    return Payload(t, body, *pos, false, out);
  }

  absl::Status ReadCollection(const Type& t, size_t begin, size_t end, bool short_form,
                              Value* out) {
    const bool map = t.kind == Kind::kMap;
    const size_t header = short_form ? 2 : 4;
    if (end - begin < header) return Truncated(begin, "collection count is truncated");
    int64_t count;
    if (short_form) {
      count = Load16(data_ + begin);
    } else {
      count = static_cast<int32_t>(Load32(data_ + begin));
      if (count < 0) return Invalid(begin, absl::StrCat("negative element count ", count));
    }
    const size_t remaining = end - begin - header;
    const size_t per_entry = (short_form ? 2 : 4) * (map ? 2 : 1);
    // Every element needs at least its length prefix: check before reserving anything.
    if (static_cast<uint64_t>(count) > remaining / per_entry) {
      return Truncated(begin, absl::StrCat("count ", count, " needs at least ",
                                           static_cast<uint64_t>(count) * per_entry, " bytes but ",
                                           remaining, " remain"));
    }
    const size_t n_items = static_cast<size_t>(count) * (map ? 2 : 1);
    std::vector<Value> items;
    items.reserve(n_items);
    size_t pos = begin + header;
    for (size_t i = 0; i < n_items; ++i) {
      const Type& et = map ? t.params[i % 2] : t.params[0];
      items.emplace_back();
      absl::Status st = ReadItem(et, &pos, end, short_form, &items.back());
      if (!st.ok()) return st;
    }
    if (pos != end) {
      return Invalid(pos, absl::StrCat(end - pos, " bytes left after the last element"));
    }
    *out = map ? Value::Pairs(std::move(items)) : Value::Items(std::move(items));
    return absl::OkStatus();
  }

  absl::Status ReadComponents(const Type& t, size_t begin, size_t end, Value* out) {
    const bool tuple = t.kind == Kind::kTuple;
    std::vector<Value> items;
    // Each present component takes at least its 4-byte length: reserve no more than the input
    // can hold, whatever the (caller-supplied) type declares.
    items.reserve(std::min(t.params.size(), (end - begin) / 4));
    size_t pos = begin;
    for (size_t i = 0; i < t.params.size(); ++i) {
      if (pos == end) {
        if (tuple && options_.reject_short_tuples) {
          return Truncated(pos, absl::StrCat("tuple component ", i, " is missing"));
        }
        // v4 spec section 7: a UDT value may stop early; Cassandra's TupleSerializer lets a
        // tuple value stop early too. Missing trailing items are null.
        break;
      }
      items.emplace_back();
      absl::Status st = ReadItem(t.params[i], &pos, end, false, &items.back());
      if (!st.ok()) return st;
    }
    if (pos != end) {
      return Invalid(pos, absl::StrCat(end - pos, " bytes left after the last ",
                                       tuple ? "component" : "field"));
    }
    items.resize(t.params.size());  // missing trailing fields / components read as null
    *out = Value::Items(std::move(items));
    return absl::OkStatus();
  }

  const uint8_t* data_;
  DecodeOptions options_;
};

absl::Status CheckDecodeSetup(const Type& t, int version, const DecodeOptions& options) {
  // Setup errors concern no input byte; they carry offset 0 (the decoder read nothing).
  absl::Status st = CheckVersion(version);
  if (!st.ok()) return WithErrorOffset(st, 0);
  if (options.max_depth < 0 || options.max_depth > kMaxNestingDepth) {
    return InvalidAt(0,
                     absl::StrCat("cql decode: max_depth ", options.max_depth, " is not in 0..64"));
  }
  st = ValidateType(t, options.max_depth);
  if (!st.ok()) return InvalidAt(0, absl::StrCat("cql decode: ", st.message()));
  return absl::OkStatus();
}

}  // namespace

absl::StatusOr<size_t> SerializedSize(const Type& t, const Value& v, int version) {
  return PayloadSize(t, v, version);
}

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
  std::string out(*size, '\0');
  uint8_t* const base = reinterpret_cast<uint8_t*>(out.data());
  const uint8_t* end = WritePayload(t, v, base, version < 3);
  absl::Status st = CheckWritten(static_cast<size_t>(end - base), *size);
  if (!st.ok()) return st;
  return out;
}

absl::StatusOr<size_t> SerializedValueSize(const Type& t, const Value& v, int version) {
  absl::Status st = CheckVersion(version);
  if (!st.ok()) return st;
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

absl::StatusOr<Value> Deserialize(const Type& t, std::string_view payload, int version,
                                  const DecodeOptions& options) {
  absl::Status st = CheckDecodeSetup(t, version, options);
  if (!st.ok()) return st;
  Decoder dec(reinterpret_cast<const uint8_t*>(payload.data()), options);
  Value v;
  st = dec.Payload(t, 0, payload.size(), version < 3, &v);
  if (!st.ok()) return st;
  return v;
}

absl::StatusOr<Value> DeserializeValue(const Type& t, std::string_view framed, int version,
                                       const DecodeOptions& options) {
  absl::Status st = CheckDecodeSetup(t, version, options);
  if (!st.ok()) return st;
  const uint8_t* data = reinterpret_cast<const uint8_t*>(framed.data());
  if (framed.size() < 4) {
    return OutOfRangeAt(
        0, absl::StrCat("cql decode: [value] length needs 4 bytes, got ", framed.size()));
  }
  const int32_t n = static_cast<int32_t>(Load32(data));
  if (n == -1 || n == -2) {
    if (n == -2 && version < 4) {
      return InvalidAt(0,
                       absl::StrCat("cql decode: unset (-2) needs protocol v4+, not v", version));
    }
    if (framed.size() != 4) {
      return InvalidAt(
          4, absl::StrCat("cql decode: ", framed.size() - 4, " bytes after a null/unset [value]"));
    }
    return n == -1 ? Value::Null() : Value::Unset();
  }
  if (n < 0) return InvalidAt(0, absl::StrCat("cql decode: [value] length ", n, " is below -2"));
  const size_t remaining = framed.size() - 4;
  if (static_cast<size_t>(n) > remaining) {
    return OutOfRangeAt(0, absl::StrCat("cql decode: [value] length ", n, " exceeds the ",
                                        remaining, " bytes that remain"));
  }
  if (static_cast<size_t>(n) < remaining) {
    return InvalidAt(4 + n,
                     absl::StrCat("cql decode: ", remaining - n, " bytes after the [value]"));
  }
  Decoder dec(data, options);
  Value v;
  st = dec.Payload(t, 4, framed.size(), version < 3, &v);
  if (!st.ok()) return st;
  return v;
}

}  // namespace serdiff::cql
