// Reference CQL value codec: see codec_ref.h. Deliberately plain.
#include "reference/cql/codec_ref.h"

#include <cstring>
#include <set>
#include <utility>
#include <vector>

#include "absl/strings/str_cat.h"
#include "serdiff/common/error_offset.h"

namespace serdiff::ref::cql {
namespace {

using serdiff::cql::BigInt;
using serdiff::cql::Decimal;
using serdiff::cql::Duration;
using serdiff::cql::Kind;
using serdiff::cql::Uuid;
using Shape = serdiff::cql::Value::Shape;

constexpr int kMaxNesting = 64;                     // same limit as serdiff::cql::kMaxNestingDepth
constexpr int64_t kLastTimeNanos = 86399999999999;  // v4 spec 6.16
constexpr int64_t kInt32Min = -2147483648LL;
constexpr int64_t kInt32Max = 2147483647LL;

absl::Status EncodeError(absl::string_view what) {
  return absl::InvalidArgumentError(absl::StrCat("ref cql encode: ", what));
}
// Decode errors carry their input byte offset as a status payload (serdiff/common/error_offset.h).
absl::Status DecodeError(size_t offset, absl::string_view what) {
  return serdiff::InvalidAt(static_cast<int64_t>(offset), absl::StrCat("ref cql decode: ", what));
}
absl::Status DecodeShort(size_t offset, absl::string_view what) {
  return serdiff::OutOfRangeAt(static_cast<int64_t>(offset),
                               absl::StrCat("ref cql decode: ", what));
}

// ---- the type ------------------------------------------------------------------------------

bool IsNativeKind(Kind k) {
  switch (k) {
    case Kind::kAscii:
    case Kind::kBigint:
    case Kind::kBlob:
    case Kind::kBoolean:
    case Kind::kCounter:
    case Kind::kDecimal:
    case Kind::kDouble:
    case Kind::kFloat:
    case Kind::kInt:
    case Kind::kTimestamp:
    case Kind::kUuid:
    case Kind::kText:
    case Kind::kVarint:
    case Kind::kTimeuuid:
    case Kind::kInet:
    case Kind::kDate:
    case Kind::kTime:
    case Kind::kSmallint:
    case Kind::kTinyint:
    case Kind::kDuration:
      return true;
    default:
      return false;
  }
}

// `level` = how many composite types enclose t.
absl::Status CheckType(const Type& t, int level, int max_depth) {
  if (IsNativeKind(t.kind)) {
    if (t.params.empty() && t.field_names.empty()) return absl::OkStatus();
    return absl::InvalidArgumentError("ref cql: a native type with parameters");
  }
  const bool known = t.kind == Kind::kList || t.kind == Kind::kSet || t.kind == Kind::kMap ||
                     t.kind == Kind::kTuple || t.kind == Kind::kUdt;
  if (!known) return absl::InvalidArgumentError("ref cql: unknown type id");
  if (level + 1 > max_depth) return absl::InvalidArgumentError("ref cql: type nested too deeply");
  const size_t n = t.params.size();
  if ((t.kind == Kind::kList || t.kind == Kind::kSet) && n != 1) {
    return absl::InvalidArgumentError("ref cql: list/set need one parameter");
  }
  if (t.kind == Kind::kMap && n != 2) {
    return absl::InvalidArgumentError("ref cql: map needs two parameters");
  }
  if ((t.kind == Kind::kTuple || t.kind == Kind::kUdt) && n == 0) {
    return absl::InvalidArgumentError("ref cql: tuple/udt need at least one component");
  }
  if (t.kind == Kind::kUdt) {
    if (t.field_names.size() != n) return absl::InvalidArgumentError("ref cql: udt names");
    std::set<std::string> names;
    for (const std::string& name : t.field_names) {
      if (name.empty() || names.count(name) > 0) {
        return absl::InvalidArgumentError("ref cql: udt names must be unique and non-empty");
      }
      names.insert(name);
    }
  } else if (!t.field_names.empty()) {
    return absl::InvalidArgumentError("ref cql: field names on a non-udt type");
  }
  for (const Type& p : t.params) {
    absl::Status s = CheckType(p, level + 1, max_depth);
    if (!s.ok()) return s;
  }
  return absl::OkStatus();
}

absl::Status CheckVersion(int version) {
  if (version >= 1 && version <= 5) return absl::OkStatus();
  return absl::InvalidArgumentError(absl::StrCat("ref cql: bad protocol version ", version));
}

// ---- byte helpers --------------------------------------------------------------------------

// `width` bytes of x, most significant first.
std::string BigEndian(uint64_t x, int width) {
  std::string out;
  for (int i = width - 1; i >= 0; --i) out.push_back(static_cast<char>((x >> (8 * i)) & 0xFF));
  return out;
}

// True when `s` is well-formed UTF-8, checked code point by code point.
// Index of the lead byte of the first ill-formed RFC 3629 sequence (also when the string ends
// inside it), or s.size() when the whole string is well formed.
size_t FirstBadUtf8(const std::string& s) {
  size_t i = 0;
  while (i < s.size()) {
    const unsigned char c = static_cast<unsigned char>(s[i]);
    int extra;
    uint32_t cp;
    uint32_t smallest;
    if (c <= 0x7F) {
      extra = 0;
      cp = c;
      smallest = 0;
    } else if (c >= 0xC0 && c <= 0xDF) {
      extra = 1;
      cp = c & 0x1F;
      smallest = 0x80;
    } else if (c >= 0xE0 && c <= 0xEF) {
      extra = 2;
      cp = c & 0x0F;
      smallest = 0x800;
    } else if (c >= 0xF0 && c <= 0xF7) {
      extra = 3;
      cp = c & 0x07;
      smallest = 0x10000;
    } else {
      return i;  // a continuation byte without a lead, or 0xF8..0xFF
    }
    for (int k = 1; k <= extra; ++k) {
      if (i + static_cast<size_t>(k) >= s.size()) return i;
      const unsigned char cc = static_cast<unsigned char>(s[i + static_cast<size_t>(k)]);
      if (cc < 0x80 || cc > 0xBF) return i;
      cp = (cp << 6) | (cc & 0x3F);
    }
    if (cp < smallest) return i;                 // overlong
    if (cp >= 0xD800 && cp <= 0xDFFF) return i;  // surrogate
    if (cp > 0x10FFFF) return i;                 // beyond Unicode
    i += 1 + static_cast<size_t>(extra);
  }
  return s.size();
}

bool IsUtf8(const std::string& s) { return FirstBadUtf8(s) == s.size(); }

// Cassandra's text rule (UTF8Serializer.UTF8Validator), restated as byte ranges per position:
// which bytes may follow a given lead byte. Returns the index of the lead byte of the first
// rejected sequence, or s.size().
size_t FirstBadCassandraText(const std::string& s) {
  auto in = [](unsigned char b, unsigned lo, unsigned hi) { return b >= lo && b <= hi; };
  size_t i = 0;
  while (i < s.size()) {
    const unsigned char lead = static_cast<unsigned char>(s[i]);
    if (lead <= 0x7F) {
      ++i;
      continue;
    }
    // Number of bytes after the lead, and the test each of them must pass.
    int follow = 0;
    bool (*second)(unsigned char) = nullptr;
    if (lead == 0xC0) {
      follow = 1;
      second = [](unsigned char b) { return b == 0x80; };  // modified-UTF-8 NUL only
    } else if (in(lead, 0xC2, 0xDF)) {
      follow = 1;
    } else if (lead == 0xE0) {
      follow = 2;
      second = [](unsigned char b) { return !(b >= 0x80 && b <= 0x9F); };
    } else if (in(lead, 0xE1, 0xEF)) {
      follow = 2;
    } else if (lead == 0xF0) {
      follow = 3;
      // Rejected: 00..0F, 40..4F, 80..8F, C0..CF (bits 4 and 5 both clear).
      second = [](unsigned char b) { return (b / 16) % 4 != 0; };
    } else if (in(lead, 0xF1, 0xF7)) {
      follow = 3;
    } else {
      return i;  // 80..BF without a lead, C1, F8..FF
    }
    if (s.size() - i - 1 < static_cast<size_t>(follow)) return i;
    for (int k = 1; k <= follow; ++k) {
      const unsigned char b = static_cast<unsigned char>(s[i + static_cast<size_t>(k)]);
      const bool ok = (k == 1 && second != nullptr) ? second(b) : in(b, 0x80, 0xBF);
      if (!ok) return i;
    }
    i += 1 + static_cast<size_t>(follow);
  }
  return s.size();
}

// Minimal two's complement bytes of a varint: start from 00 + magnitude, negate when
// negative (invert every byte, add one), then drop leading bytes that only repeat the sign.
std::string VarintBytes(const BigInt& b) {
  std::string bytes(1, '\0');
  bytes.append(b.magnitude().data(), b.magnitude().size());
  if (b.negative()) {
    for (char& c : bytes) c = static_cast<char>(~c);
    for (size_t i = bytes.size(); i-- > 0;) {
      bytes[i] = static_cast<char>(static_cast<unsigned char>(bytes[i]) + 1);
      if (bytes[i] != '\0') break;  // no carry out of this byte
    }
  }
  while (bytes.size() >= 2) {
    const unsigned char b0 = static_cast<unsigned char>(bytes[0]);
    const unsigned char b1 = static_cast<unsigned char>(bytes[1]);
    const bool redundant = (b0 == 0x00 && b1 < 0x80) || (b0 == 0xFF && b1 >= 0x80);
    if (!redundant) break;
    bytes.erase(0, 1);
  }
  return bytes;
}

// Varint bytes (n >= 1) to a number: non-negative when the top bit is clear; otherwise
// the magnitude is 256^n minus the bytes read as unsigned.
BigInt VarintValue(const std::string& bytes) {
  if (static_cast<unsigned char>(bytes[0]) < 0x80) return BigInt::FromMagnitude(false, bytes);
  std::string mag(bytes.size(), '\0');
  int borrow = 0;
  for (size_t i = bytes.size(); i-- > 0;) {
    int d = 0 - static_cast<unsigned char>(bytes[i]) - borrow;
    borrow = 0;
    if (d < 0) {
      d += 256;
      borrow = 1;
    }
    mag[i] = static_cast<char>(d);
  }
  return BigInt::FromMagnitude(true, mag);
}

// Cassandra unsigned vint (native_protocol_v5.spec section 3, [vint]): the number of leading
// 1 bits of the first byte says how many bytes follow; the value is big-endian in the rest
// of the first byte and the following bytes.
std::string UnsignedVint(uint64_t v) {
  int extra = 0;
  while (extra < 8 && (v >> (7 * (extra + 1))) != 0) ++extra;
  std::string out;
  if (extra == 8) {
    out.push_back(static_cast<char>(0xFF));
    out += BigEndian(v, 8);
    return out;
  }
  const unsigned ones = (0xFF00u >> extra) & 0xFF;  // `extra` leading one bits
  out.push_back(static_cast<char>(ones | static_cast<unsigned>(v >> (8 * extra))));
  for (int i = extra - 1; i >= 0; --i) out.push_back(static_cast<char>((v >> (8 * i)) & 0xFF));
  return out;
}

uint64_t ZigZag(int64_t n) {
  return n >= 0 ? static_cast<uint64_t>(n) * 2 : (static_cast<uint64_t>(-(n + 1)) * 2) + 1;
}
int64_t UnZigZag(uint64_t z) {
  return (z % 2 == 0) ? static_cast<int64_t>(z / 2) : -static_cast<int64_t>(z / 2) - 1;
}

Shape ShapeFor(Kind k) {
  switch (k) {
    case Kind::kBoolean:
      return Shape::kBool;
    case Kind::kFloat:
      return Shape::kFloat;
    case Kind::kDouble:
      return Shape::kDouble;
    case Kind::kText:
    case Kind::kAscii:
    case Kind::kBlob:
    case Kind::kInet:
      return Shape::kBytes;
    case Kind::kUuid:
    case Kind::kTimeuuid:
      return Shape::kUuid;
    case Kind::kVarint:
      return Shape::kVarint;
    case Kind::kDecimal:
      return Shape::kDecimal;
    case Kind::kDuration:
      return Shape::kDuration;
    case Kind::kMap:
      return Shape::kPairs;
    case Kind::kList:
    case Kind::kSet:
    case Kind::kTuple:
    case Kind::kUdt:
      return Shape::kItems;
    default:
      return Shape::kInt;
  }
}

// ---- encoding ------------------------------------------------------------------------------

absl::StatusOr<std::string> EncodePayload(const Type& t, const Value& v, bool short_form);

// One item inside a collection / tuple / UDT: its length (4 bytes, or 2 in the v1/v2
// top-level collection form) followed by its payload.
absl::StatusOr<std::string> EncodeItem(const Type& t, const Value& item, bool short_form) {
  if (item.is_unset()) return EncodeError("unset inside a value");
  if (item.is_null()) {
    if (short_form) return EncodeError("null element in a v1/v2 collection");
    return BigEndian(0xFFFFFFFF, 4);
  }
  absl::StatusOr<std::string> payload = EncodePayload(t, item, false);
  if (!payload.ok()) return payload.status();
  const uint64_t limit = short_form ? 65535 : 2147483647;
  if (payload->size() > limit) return EncodeError("item too long for its length prefix");
  return BigEndian(payload->size(), short_form ? 2 : 4) + *payload;
}

absl::StatusOr<std::string> EncodeIntInRange(const Value& v, int64_t lo, int64_t hi, int width) {
  const int64_t x = v.as_int();
  if (x < lo || x > hi) return EncodeError(absl::StrCat(x, " out of range"));
  return BigEndian(static_cast<uint64_t>(x), width);
}

absl::StatusOr<std::string> EncodePayload(const Type& t, const Value& v, bool short_form) {
  if (v.is_empty()) return std::string();
  if (v.is_null() || v.is_unset()) return EncodeError("null/unset have no payload");
  if (v.shape() != ShapeFor(t.kind)) return EncodeError("value shape does not fit the type");
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
    case Kind::kList:
    case Kind::kSet:
    case Kind::kMap: {
      const bool is_map = t.kind == Kind::kMap;
      const std::vector<Value>& items = v.items();
      if (is_map && items.size() % 2 == 1) return EncodeError("odd number of map items");
      const size_t count = is_map ? items.size() / 2 : items.size();
      if (count > (short_form ? 65535u : 2147483647u)) return EncodeError("too many elements");
      std::vector<std::string> pieces;
      for (size_t i = 0; i < items.size(); ++i) {
        const Type& item_type = is_map ? t.params[i % 2] : t.params[0];
        absl::StatusOr<std::string> piece = EncodeItem(item_type, items[i], short_form);
        if (!piece.ok()) return piece.status();
        pieces.push_back(*std::move(piece));
      }
      std::string out = BigEndian(count, short_form ? 2 : 4);
      for (const std::string& piece : pieces) out += piece;
      return out;
    }
    case Kind::kTuple:
    case Kind::kUdt: {
      const std::vector<Value>& items = v.items();
      // Tuple and UDT values may stop early (missing trailing items read back as null).
      if (items.size() > t.params.size()) return EncodeError("more items than components");
      std::string out;
      for (size_t i = 0; i < items.size(); ++i) {
        absl::StatusOr<std::string> piece = EncodeItem(t.params[i], items[i], false);
        if (!piece.ok()) return piece.status();
        out += *piece;
      }
      return out;
    }
    default:
      return EncodeError("unknown kind");
  }
}

absl::Status CheckEncodeSetup(const Type& t, int version) {
  absl::Status s = CheckVersion(version);
  if (!s.ok()) return s;
  return CheckType(t, 0, kMaxNesting);
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
    if (n == 0) return Value::Empty();
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
        // UDT: v4 spec section 7; tuple: Cassandra's TupleSerializer. Missing items are null.
        items.push_back(Value::Null());
        continue;
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
  if (n == -2 && version < 4) return DecodeError(0, "unset needs protocol v4");
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
