// Reference CQL value decoder (codec_ref.h: Deserialize, DeserializeValue): a plain reader that
// checks every length and count against the bytes that remain. Deliberately plain, like the
// encoder (codec_ref.cc); the helpers both use are in codec_ref_common.cc (codec_ref_internal.h).
#include "reference/cql/codec_ref.h"

#include <cstring>
#include <string>
#include <utility>
#include <vector>

#include "absl/strings/str_cat.h"
#include "reference/cql/codec_ref_internal.h"
#include "serdiff/common/error_offset.h"

namespace serdiff::ref::cql {
namespace {

using namespace codec_ref_internal;  // NOLINT(google-build-using-namespace): shared helpers

// Decode errors carry their input byte offset as a status payload (serdiff/common/error_offset.h).
absl::Status DecodeError(size_t offset, absl::string_view what) {
  return serdiff::InvalidAt(static_cast<int64_t>(offset), absl::StrCat("ref cql decode: ", what));
}
absl::Status DecodeShort(size_t offset, absl::string_view what) {
  return serdiff::OutOfRangeAt(static_cast<int64_t>(offset),
                               absl::StrCat("ref cql decode: ", what));
}

// ---- decoding ------------------------------------------------------------------------------

class Reader {
 public:
  Reader(std::string_view in, const DecodeOptions& options) : in_(in), options_(options) {}

  uint64_t Byte(size_t at) const { return static_cast<unsigned char>(in_[at]); }
  uint64_t Unsigned(size_t at, int width) const {
    uint64_t x = 0;
    for (int i = 0; i < width; ++i) x = (x << 8) | Byte(at + static_cast<size_t>(i));
    return x;
  }
  std::string Slice(size_t from, size_t to) const {
    return std::string(in_.substr(from, to - from));
  }

  absl::StatusOr<Value> Decode(const Type& t, size_t from, size_t to, bool short_form) const {
    const size_t n = to - from;
    if (n == 0) {
      // Cassandra's validators of the v4/v5 types want their bytes (ByteSerializer: exactly 1,
      // ShortSerializer 2, SimpleDateSerializer 4, TimeSerializer 8, DurationSerializer at least
      // 3); every other kind takes the empty value.
      const bool wants_bytes = t.kind == Kind::kTinyint || t.kind == Kind::kSmallint ||
                               t.kind == Kind::kDate || t.kind == Kind::kTime ||
                               t.kind == Kind::kDuration;
      if (wants_bytes && options_.reject_empty_where_cassandra_does) {
        return DecodeError(from, "no empty value for this type (Cassandra's validator)");
      }
      return Value::Empty();
    }
    auto need = [&](size_t width) -> absl::Status {
      if (n == width) return absl::OkStatus();
      return DecodeError(from, absl::StrCat("expected ", width, " bytes, got ", n));
    };
    // The signed fixed-width integers (every integer kind but date: IsIntegerKind, value.h).
    if (IsIntegerKind(t.kind) && t.kind != Kind::kDate) {
      const int width = t.kind == Kind::kTinyint    ? 1
                        : t.kind == Kind::kSmallint ? 2
                        : t.kind == Kind::kInt      ? 4
                                                    : 8;
      absl::Status s = need(static_cast<size_t>(width));
      if (!s.ok()) return s;
      uint64_t raw = Unsigned(from, width);
      // Sign-extend from `width` bytes.
      if (width < 8 && (raw >> (8 * width - 1)) != 0) raw |= ~uint64_t{0} << (8 * width);
      const int64_t x = static_cast<int64_t>(raw);
      if (t.kind == Kind::kTime && options_.require_time_in_day && (x < 0 || x > kLastTimeNanos)) {
        return DecodeError(from, "time out of range");
      }
      return Value::Int(x);
    }
    switch (t.kind) {
      case Kind::kBoolean: {
        absl::Status s = need(1);
        if (!s.ok()) return s;
        return Value::Bool(Byte(from) != 0);
      }
      case Kind::kDate: {
        absl::Status s = need(4);
        if (!s.ok()) return s;
        return Value::Int(static_cast<int64_t>(Unsigned(from, 4)) - 2147483648LL);
      }
      case Kind::kFloat: {
        absl::Status s = need(4);
        if (!s.ok()) return s;
        const uint32_t bits = static_cast<uint32_t>(Unsigned(from, 4));
        float f;
        std::memcpy(&f, &bits, sizeof f);
        return Value::Float(f);
      }
      case Kind::kDouble: {
        absl::Status s = need(8);
        if (!s.ok()) return s;
        const uint64_t bits = Unsigned(from, 8);
        double d;
        std::memcpy(&d, &bits, sizeof d);
        return Value::Double(d);
      }
      case Kind::kUuid:
      case Kind::kTimeuuid: {
        absl::Status s = need(16);
        if (!s.ok()) return s;
        Uuid u;
        for (size_t i = 0; i < 16; ++i) u[i] = static_cast<uint8_t>(Byte(from + i));
        if (t.kind == Kind::kTimeuuid && (u[6] & 0xF0) != 0x10) {
          return DecodeError(from + 6, "timeuuid version is not 1");
        }
        return Value::FromUuid(u);
      }
      case Kind::kText: {
        std::string s = Slice(from, to);
        const size_t bad = options_.strict_utf8 ? FirstBadUtf8(s) : FirstBadCassandraText(s);
        if (bad != s.size()) return DecodeError(from + bad, "text is not UTF-8");
        return Value::Text(std::move(s));
      }
      case Kind::kAscii: {
        std::string s = Slice(from, to);
        for (size_t i = 0; i < s.size(); ++i) {
          if (static_cast<unsigned char>(s[i]) > 127) {
            return DecodeError(from + i, "ascii above 127");
          }
        }
        return Value::Ascii(std::move(s));
      }
      case Kind::kBlob:
        return Value::Blob(Slice(from, to));
      case Kind::kInet:
        if (n != 4 && n != 16) return DecodeError(from, "inet is not 4 or 16 bytes");
        return Value::Inet(Slice(from, to));
      case Kind::kVarint: {
        absl::StatusOr<BigInt> b = ReadVarint(from, to);
        if (!b.ok()) return b.status();
        return Value::Varint(*std::move(b));
      }
      case Kind::kDecimal: {
        if (n < 5) return DecodeError(from, "decimal shorter than 5 bytes");
        Decimal d;
        d.scale = static_cast<int32_t>(static_cast<uint32_t>(Unsigned(from, 4)));
        absl::StatusOr<BigInt> b = ReadVarint(from + 4, to);
        if (!b.ok()) return b.status();
        d.unscaled = *std::move(b);
        return Value::FromDecimal(std::move(d));
      }
      case Kind::kDuration:
        return ReadDuration(from, to);
      case Kind::kList:
      case Kind::kSet:
      case Kind::kMap:
        return ReadCollection(t, from, to, short_form);
      case Kind::kTuple:
      case Kind::kUdt:
        return ReadFields(t, from, to);
      default:
        return DecodeError(from, "unknown kind");
    }
  }

 private:
  absl::StatusOr<BigInt> ReadVarint(size_t from, size_t to) const {
    const std::string bytes = Slice(from, to);
    BigInt b = VarintValue(bytes);
    if (options_.require_minimal_varint && VarintBytes(b).size() != bytes.size()) {
      return DecodeError(from, "varint is longer than its minimal form");
    }
    return b;
  }

  absl::StatusOr<Value> ReadDuration(size_t from, size_t to) const {
    size_t at = from;
    int64_t parts[3];
    for (int i = 0; i < 3; ++i) {
      if (at >= to) return DecodeShort(at, "duration vint missing");
      const uint64_t first = Byte(at);
      int extra = 0;
      while (extra < 8 && ((first << extra) & 0x80) != 0) ++extra;
      if (to - at < static_cast<size_t>(1 + extra)) return DecodeShort(at, "duration vint cut");
      uint64_t value = extra == 8 ? 0 : (first & (0xFFu >> (extra + 1)));
      for (int k = 1; k <= extra; ++k) value = (value << 8) | Byte(at + static_cast<size_t>(k));
      if (options_.require_minimal_varint &&
          UnsignedVint(value).size() != static_cast<size_t>(1 + extra)) {
        return DecodeError(at, "duration vint is longer than its minimal form");
      }
      parts[i] = UnZigZag(value);
      if (i < 2 && (parts[i] < kInt32Min || parts[i] > kInt32Max)) {
        return DecodeError(at, "duration months/days beyond int32");
      }
      at += static_cast<size_t>(1 + extra);
    }
    if (at != to && options_.reject_duration_trailing_bytes) {
      return DecodeError(at, "bytes after the duration");
    }
    const bool all_up = parts[0] >= 0 && parts[1] >= 0 && parts[2] >= 0;
    const bool all_down = parts[0] <= 0 && parts[1] <= 0 && parts[2] <= 0;
    if (!all_up && !all_down) return DecodeError(from, "duration of mixed signs");
    Duration d;
    d.months = static_cast<int32_t>(parts[0]);
    d.days = static_cast<int32_t>(parts[1]);
    d.nanos = parts[2];
    return Value::FromDuration(d);
  }

  // One item at *at: a [bytes] (or, short_form, a [short bytes]).
  absl::StatusOr<Value> ReadItem(const Type& t, size_t* at, size_t to, bool short_form) const {
    const int width = short_form ? 2 : 4;
    if (to - *at < static_cast<size_t>(width)) return DecodeShort(*at, "item length cut");
    int64_t len = static_cast<int64_t>(Unsigned(*at, width));
    if (!short_form) len = static_cast<int32_t>(static_cast<uint32_t>(len));
    const size_t start = *at;
    *at += static_cast<size_t>(width);
    if (len == -1) return Value::Null();
    if (len < 0) {
      if (!options_.reject_negative_lengths) return Value::Null();  // as Cassandra reads it
      return DecodeError(start, "item length below -1");
    }
    if (static_cast<uint64_t>(len) > to - *at) return DecodeShort(start, "item runs past the end");
    const size_t end = *at + static_cast<size_t>(len);
    absl::StatusOr<Value> v = Decode(t, *at, end, false);
    *at = end;
    return v;
  }

  absl::StatusOr<Value> ReadCollection(const Type& t, size_t from, size_t to,
                                       bool short_form) const {
    const int width = short_form ? 2 : 4;
    if (to - from < static_cast<size_t>(width)) return DecodeShort(from, "count cut");
    int64_t count = static_cast<int64_t>(Unsigned(from, width));
    if (!short_form) count = static_cast<int32_t>(static_cast<uint32_t>(count));
    if (count < 0) return DecodeError(from, "negative count");
    const bool is_map = t.kind == Kind::kMap;
    // The smallest element is a bare length (a null or empty item): the count is wrong as
    // soon as the remaining bytes cannot hold that many.
    const uint64_t smallest_entry = static_cast<uint64_t>(width) * (is_map ? 2 : 1);
    const uint64_t left = to - from - static_cast<size_t>(width);
    if (static_cast<uint64_t>(count) * smallest_entry > left) {
      return DecodeShort(from, "the count needs more bytes than remain");
    }
    std::vector<Value> items;  // grows one item at a time: nothing reserved up front
    size_t at = from + static_cast<size_t>(width);
    for (int64_t i = 0; i < count; ++i) {
      for (int part = 0; part < (is_map ? 2 : 1); ++part) {
        if (at == to) return DecodeShort(at, "fewer elements than the count");
        absl::StatusOr<Value> item = ReadItem(t.params[is_map ? part : 0], &at, to, short_form);
        if (!item.ok()) return item.status();
        items.push_back(*std::move(item));
      }
    }
    if (at != to) return DecodeError(at, "bytes after the last element");
    return is_map ? Value::Pairs(std::move(items)) : Value::Items(std::move(items));
  }

  absl::StatusOr<Value> ReadFields(const Type& t, size_t from, size_t to) const {
    std::vector<Value> items;
    size_t at = from;
    for (const Type& ft : t.params) {
      if (at == to) {
        if (t.kind == Kind::kTuple && options_.reject_short_tuples) {
          return DecodeShort(at, "tuple component missing");
        }
        // UDT: v4 spec section 7; tuple: Cassandra's TupleSerializer. Missing items read as
        // null; the value holds only the items present (codec.h, "Decoded values").
        break;
      }
      absl::StatusOr<Value> item = ReadItem(ft, &at, to, false);
      if (!item.ok()) return item.status();
      items.push_back(*std::move(item));
    }
    if (at != to) return DecodeError(at, "bytes after the last component");
    return Value::Items(std::move(items));
  }

  std::string_view in_;
  DecodeOptions options_;
};

absl::Status CheckDecodeSetup(const Type& t, int version, const DecodeOptions& options) {
  absl::Status s = CheckVersion(version);
  if (s.ok() && (options.max_depth < 0 || options.max_depth > kMaxNesting)) {
    s = absl::InvalidArgumentError("ref cql: max_depth out of 0..64");
  }
  if (s.ok()) s = CheckType(t, 0, options.max_depth);
  return serdiff::WithErrorOffset(s, 0);  // nothing read yet: offset 0
}

}  // namespace

absl::StatusOr<Value> Deserialize(const Type& t, std::string_view payload, int version,
                                  const DecodeOptions& options) {
  absl::Status s = CheckDecodeSetup(t, version, options);
  if (!s.ok()) return s;
  return Reader(payload, options).Decode(t, 0, payload.size(), version <= 2);
}

absl::StatusOr<Value> DeserializeValue(const Type& t, std::string_view framed, int version,
                                       const DecodeOptions& options) {
  absl::Status s = CheckDecodeSetup(t, version, options);
  if (!s.ok()) return s;
  if (framed.size() < 4) return DecodeShort(0, "[value] length cut");
  const Reader reader(framed, options);
  const int32_t n = static_cast<int32_t>(static_cast<uint32_t>(reader.Unsigned(0, 4)));
  // v3 spec section 3: before v4 the value is a [bytes], "If n < 0 ... the value represented is
  // `null`"; v4 section 3: [value] -1 null, -2 unset, below -2 an error.
  if (version < 4 && n < -1 && options.reject_negative_lengths) {
    return DecodeError(0, "[bytes] length below -1");
  }
  if (version < 4 && n < 0) {
    if (framed.size() != 4) return DecodeError(4, "bytes after null");
    return Value::Null();
  }
  if (n == -1 || n == -2) {
    if (framed.size() != 4) return DecodeError(4, "bytes after null/unset");
    return n == -1 ? Value::Null() : Value::Unset();
  }
  if (n < 0) return DecodeError(0, "[value] length below -2");
  const size_t end = 4 + static_cast<size_t>(n);
  if (end > framed.size()) return DecodeShort(0, "[value] runs past end");
  if (end < framed.size()) return DecodeError(end, "bytes after [value]");
  return reader.Decode(t, 4, framed.size(), version <= 2);
}

}  // namespace serdiff::ref::cql
