// Reference CQL value codec, the parts that the encoder (codec_ref.cc) and the decoder
// (codec_ref_decode.cc) share (declared in codec_ref_internal.h): the type and protocol-version
// checks and the byte helpers. Deliberately plain, like the rest of the reference.
#include "reference/cql/codec_ref_internal.h"

#include <set>
#include <string>

#include "absl/strings/str_cat.h"

namespace serdiff::ref::cql::codec_ref_internal {
namespace {

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

}  // namespace

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

}  // namespace serdiff::ref::cql::codec_ref_internal
