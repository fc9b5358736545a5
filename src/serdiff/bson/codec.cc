// serdiff::bson encoder (codec.h: EncodedSize, Encode): the size pass, which checks the model
// and computes the exact size, then the write pass into one string of exactly that size. The
// validating decoder (Validate, Decode) is in codec_decode.cc.
#include "serdiff/bson/codec.h"

#include <algorithm>
#include <bit>
#include <cstring>
#include <limits>

#include "absl/strings/str_cat.h"
#include "serdiff/bson/int_format.h"
#include "serdiff/common/fill_string.h"
#include "serdiff/timestamp/timestamp.h"

namespace serdiff::bson {

static_assert(std::endian::native == std::endian::little, "the codec assumes a little-endian host");

namespace {

constexpr uint64_t kMaxInt32 = static_cast<uint64_t>(std::numeric_limits<int32_t>::max());

// ---- size pass ----------------------------------------------------------------------------

absl::Status CheckedLength(uint64_t n, const char* what) {
  if (n > kMaxInt32) return absl::OutOfRangeError(absl::StrCat(what, " longer than INT32_MAX"));
  return absl::OkStatus();
}

absl::StatusOr<uint64_t> ElementsSize(const std::vector<Element>& elements, bool is_array,
                                      int depth);

// Size of a packed array (length + n x (type byte, key, NUL, payload) + NUL), after its
// checks (document.h, "Packed arrays"): well formed, bools 0 or 1, the depth limit.
absl::StatusOr<uint64_t> PackedArraySize(const Value& v, int depth) {
  if (depth + 1 > kDefaultMaxDepth) {
    return absl::InvalidArgumentError(
        absl::StrCat("nesting deeper than ", kDefaultMaxDepth, " levels"));
  }
  if (!PackedWellFormed(v)) {
    return absl::InvalidArgumentError(
        "packed array: children beside the values, an unknown element type or a size that is "
        "not a multiple of the width");
  }
  const Type t = PackedType(v);
  if (t == Type::kBool) {
    for (char b : v.s) {
      if (static_cast<uint8_t>(b) > 1) return absl::InvalidArgumentError("bool must be 0 or 1");
    }
  }
  const uint64_t n = bson::PackedSize(v);
  const uint64_t total = 4 + 1 + ArrayKeyBytes(n) + n + uint64_t{v.s.size()};
  if (total > kMaxInt32) return absl::OutOfRangeError("document longer than INT32_MAX");
  return total;
}

// Payload size of v (after its type byte and key).
absl::StatusOr<uint64_t> ValueSize(const Value& v, int depth) {
  if (IsPacked(v)) return PackedArraySize(v, depth);
  switch (v.type) {
    case Type::kDouble:
    case Type::kTimestamp:
    case Type::kInt64:
      return 8;
    case Type::kString:
    case Type::kCode:
    case Type::kSymbol: {
      const uint64_t n = uint64_t{v.s.size()} + 1;
      if (absl::Status st = CheckedLength(n, "string"); !st.ok()) return st;
      return 4 + n;
    }
    case Type::kDocument:
    case Type::kArray:
      return ElementsSize(v.children, v.type == Type::kArray, depth + 1);
    case Type::kBinary: {
      const uint64_t n = v.s.size() + (v.subtype == kBinarySubtypeOld ? 4 : 0);
      if (absl::Status st = CheckedLength(n, "binary"); !st.ok()) return st;
      return 5 + n;
    }
    case Type::kUndefined:
    case Type::kNull:
    case Type::kMinKey:
    case Type::kMaxKey:
      return 0;
    case Type::kObjectId:
      if (v.s.size() != 12) return absl::InvalidArgumentError("ObjectId must be 12 bytes");
      return 12;
    case Type::kBool:
      if (v.i != 0 && v.i != 1) return absl::InvalidArgumentError("bool must be 0 or 1");
      return 1;
    case Type::kDateTime: {
      absl::StatusOr<int64_t> ms = DateTimeMillisOf(v);
      if (!ms.ok()) return ms.status();
      return 8;
    }
    case Type::kRegex:
      if (v.s.find('\0') != std::string::npos || v.s2.get().find('\0') != std::string::npos) {
        return absl::InvalidArgumentError("regex pattern or options contain NUL");
      }
      return uint64_t{v.s.size()} + 1 + v.s2.size() + 1;
    case Type::kDbPointer: {
      if (v.s2.size() != 12) return absl::InvalidArgumentError("DBPointer id must be 12 bytes");
      const uint64_t n = uint64_t{v.s.size()} + 1;
      if (absl::Status st = CheckedLength(n, "string"); !st.ok()) return st;
      return 4 + n + 12;
    }
    case Type::kCodeWithScope: {
      const uint64_t n = uint64_t{v.s.size()} + 1;
      absl::StatusOr<uint64_t> scope = ElementsSize(v.children, false, depth + 1);
      if (!scope.ok()) return scope.status();
      const uint64_t total = 4 + 4 + n + *scope;
      if (absl::Status st = CheckedLength(total, "code_w_scope"); !st.ok()) return st;
      return total;
    }
    case Type::kInt32:
      if (v.i < std::numeric_limits<int32_t>::min() || v.i > std::numeric_limits<int32_t>::max()) {
        return absl::InvalidArgumentError("int32 value out of range");
      }
      return 4;
    case Type::kDecimal128:
      if (v.s.size() != 16) return absl::InvalidArgumentError("decimal128 must be 16 bytes");
      return 16;
  }
  return absl::InvalidArgumentError("unknown element type");
}

// Size of a whole (embedded) document: length + elements + NUL.
absl::StatusOr<uint64_t> ElementsSize(const std::vector<Element>& elements, bool is_array,
                                      int depth) {
  if (depth > kDefaultMaxDepth) {
    return absl::InvalidArgumentError(
        absl::StrCat("nesting deeper than ", kDefaultMaxDepth, " levels"));
  }
  uint64_t total = 4 + 1;
  if (is_array) total += ArrayKeyBytes(elements.size());
  for (const Element& e : elements) {
    if (!is_array) {
      if (e.key.find('\0') != std::string::npos) {
        return absl::InvalidArgumentError("key contains NUL");
      }
      total += e.key.size() + 1;
    }
    absl::StatusOr<uint64_t> n = ValueSize(e.value, depth);
    if (!n.ok()) return n.status();
    total += 1 + *n;
    if (total > kMaxInt32) return absl::OutOfRangeError("document longer than INT32_MAX");
  }
  return total;
}

// ---- write pass (input already checked by the size pass) -----------------------------------

inline char* Put32(char* p, int32_t v) {
  std::memcpy(p, &v, 4);
  return p + 4;
}
inline char* Put64(char* p, int64_t v) {
  std::memcpy(p, &v, 8);
  return p + 8;
}
inline char* PutBytes(char* p, const std::string& s) {
  std::memcpy(p, s.data(), s.size());
  return p + s.size();
}
inline char* PutCString(char* p, const std::string& s) {
  p = PutBytes(p, s);
  *p = '\0';
  return p + 1;
}
inline char* PutString(char* p, const std::string& s) {
  p = Put32(p, static_cast<int32_t>(s.size() + 1));
  return PutCString(p, s);
}

char* WriteElements(const std::vector<Element>& elements, bool is_array, char* p);

// The elements of a packed array (checked by the size pass): a bandwidth-bound loop over its
// W-byte values. The key of index 10t + d is the decimal form of t followed by the digit d,
// so a counter of the tens t is advanced once per ten elements and each key is that counter's
// digits, one more digit and the NUL.
// Ten elements of a packed array whose keys are H digits of tens and one digit: each a 16-byte
// store of the template lo:hi (type byte, the H digits, a digit slot, NUL, then zeros), its
// digit and its W-byte value. Precondition: at least 16 writable bytes past the tenth
// element's start.
template <size_t W, size_t H>
inline char* WriteTen(uint64_t lo, uint64_t hi, const char* values, char* p) {
  for (size_t d = 0; d < 10; ++d) {
    std::memcpy(p, &lo, 8);
    std::memcpy(p + 8, &hi, 8);
    p[H + 1] = static_cast<char>('0' + d);
    std::memcpy(p + H + 3, values + W * d, W);
    p += H + 3 + W;
  }
  return p;
}

// The 16-byte template of the keys of one ten (type byte tb, then the tens' digits, then zeros)
// as two little-endian words, read from the counter. Built in memory and read back as wider
// words, so the CPU cannot forward the stores to the loads: called only when the tens gain a
// carry (once per 100 elements), the other tens add 1 to their last digit in the registers.
inline void TemplateOf(char tb, const ArrayKeyCounter& tens, uint64_t* lo, uint64_t* hi) {
  char tmpl[16] = {};
  tmpl[0] = tb;
  std::memcpy(tmpl + 1, tens.key().data(), tens.size());
  std::memcpy(lo, tmpl, 8);
  std::memcpy(hi, tmpl + 8, 8);
}

template <size_t W>
char* WritePackedValues(const Value& v, char* p) {
  char* start = p;
  p += 4;
  const char* values = v.s.data();
  const size_t n = v.s.size() / W;
  const char tb = static_cast<char>(v.subtype);
  size_t i = 0;
  for (; i < n && i < 10; ++i) {  // keys "0".."9"
    p[0] = tb;
    p[1] = static_cast<char>('0' + i);
    p[2] = '\0';
    std::memcpy(p + 3, values + W * i, W);
    p += 3 + W;
  }
  ArrayKeyCounter tens;
  tens.Next();  // "1": the keys 10..19
  // While another whole ten follows, each element is one 16-byte store of a per-ten template
  // (type byte, the tens' digits, a digit slot, NUL, zeros), the digit and the value: the
  // template's bytes past the element are overwritten by the next element, and the ten after
  // this one writes more than 16 bytes, so nothing past the array is touched. The template
  // lives in two registers (lo, hi), so no element waits on a store of the template's bytes
  // (read back wider than written, which store-to-load forwarding cannot serve: 1.71 -> 0.93
  // ms for a million int32 on the EPYC, docs/benchmarks.md).
  uint64_t lo = 0, hi = 0;
  TemplateOf(tb, tens, &lo, &hi);
  for (; i + 20 <= n && tens.size() <= 8; i += 10) {
    const size_t h = tens.size();
    const char* ten = values + W * i;
    switch (h) {  // the key length as a constant: ten straight-line element writes
      case 1:
        p = WriteTen<W, 1>(lo, hi, ten, p);
        break;
      case 2:
        p = WriteTen<W, 2>(lo, hi, ten, p);
        break;
      case 3:
        p = WriteTen<W, 3>(lo, hi, ten, p);
        break;
      case 4:
        p = WriteTen<W, 4>(lo, hi, ten, p);
        break;
      case 5:
        p = WriteTen<W, 5>(lo, hi, ten, p);
        break;
      case 6:
        p = WriteTen<W, 6>(lo, hi, ten, p);
        break;
      case 7:
        p = WriteTen<W, 7>(lo, hi, ten, p);
        break;
      default:
        p = WriteTen<W, 8>(lo, hi, ten, p);
        break;
    }
    // The next ten: the tens' last digit (template byte h) goes up by one, unless it is a 9.
    const bool carry = tens.key()[h - 1] == '9';
    tens.Next();
    if (carry) {
      TemplateOf(tb, tens, &lo, &hi);
    } else if (h < 8) {
      lo += uint64_t{1} << (8 * h);
    } else {
      hi += 1;  // byte 8
    }
  }
  for (; i + 10 <= n; i += 10, tens.Next()) {  // the last whole ten: exact stores
    const size_t h = tens.size();
    char head[kMaxDecimalChars];
    std::memcpy(head, tens.key().data(), h);
    for (size_t d = 0; d < 10; ++d) {
      *p = tb;
      std::memcpy(p + 1, head, h);
      p[h + 1] = static_cast<char>('0' + d);
      p[h + 2] = '\0';
      std::memcpy(p + h + 3, values + W * (i + d), W);
      p += h + 3 + W;
    }
  }
  for (size_t d = 0; i < n; ++i, ++d) {  // the last, partial ten
    const size_t h = tens.size();
    *p = tb;
    std::memcpy(p + 1, tens.key().data(), h);
    p[h + 1] = static_cast<char>('0' + d);
    p[h + 2] = '\0';
    std::memcpy(p + h + 3, values + W * i, W);
    p += h + 3 + W;
  }
  *p++ = '\0';
  Put32(start, static_cast<int32_t>(p - start));
  return p;
}

char* WritePacked(const Value& v, char* p) {
  switch (PackedWidth(PackedType(v))) {
    case 4:
      return WritePackedValues<4>(v, p);
    case 8:
      return WritePackedValues<8>(v, p);
    default:
      return WritePackedValues<1>(v, p);
  }
}

char* WriteValue(const Value& v, char* p) {
  if (IsPacked(v)) return WritePacked(v, p);
  switch (v.type) {
    case Type::kDouble:
      std::memcpy(p, &v.d, 8);
      return p + 8;
    case Type::kString:
    case Type::kCode:
    case Type::kSymbol:
      return PutString(p, v.s);
    case Type::kDocument:
    case Type::kArray:
      return WriteElements(v.children, v.type == Type::kArray, p);
    case Type::kBinary:
      if (v.subtype == kBinarySubtypeOld) {
        p = Put32(p, static_cast<int32_t>(v.s.size() + 4));
        *p++ = static_cast<char>(v.subtype);
        p = Put32(p, static_cast<int32_t>(v.s.size()));
      } else {
        p = Put32(p, static_cast<int32_t>(v.s.size()));
        *p++ = static_cast<char>(v.subtype);
      }
      return PutBytes(p, v.s);
    case Type::kUndefined:
    case Type::kNull:
    case Type::kMinKey:
    case Type::kMaxKey:
      return p;
    case Type::kObjectId:
    case Type::kDecimal128:
      return PutBytes(p, v.s);
    case Type::kBool:
      *p = static_cast<char>(v.i);
      return p + 1;
    case Type::kDateTime:
      return Put64(p, *DateTimeMillisOf(v));  // checked by the size pass
    case Type::kRegex: {
      // BSON 1.1, element 0x0B: the options "must be stored in alphabetical order", so they are
      // sorted where they are written (byte order: "xmi" is stored "imx"). Letters outside
      // "ilmsux" and repeats are kept: the encoder reorders, it does not drop.
      char* options = PutCString(p, v.s);
      char* end = PutCString(options, v.s2.get());
      // By unsigned byte value (char may be signed: 0xff must sort after 0x0f).
      std::sort(reinterpret_cast<unsigned char*>(options),
                reinterpret_cast<unsigned char*>(end - 1));
      return end;
    }
    case Type::kDbPointer:
      return PutBytes(PutString(p, v.s), v.s2.get());
    case Type::kCodeWithScope: {
      char* start = p;
      p = PutString(p + 4, v.s);
      p = WriteElements(v.children, false, p);
      Put32(start, static_cast<int32_t>(p - start));
      return p;
    }
    case Type::kInt32:
      return Put32(p, static_cast<int32_t>(v.i));
    case Type::kTimestamp:
    case Type::kInt64:
      return Put64(p, v.i);
  }
  return p;
}

char* WriteElements(const std::vector<Element>& elements, bool is_array, char* p) {
  char* start = p;
  p += 4;
  if (is_array) {
    ArrayKeyCounter key;
    for (const Element& e : elements) {
      *p++ = static_cast<char>(e.value.type);
      p += key.WriteKeyWithNul(p);
      key.Next();
      p = WriteValue(e.value, p);
    }
  } else {
    for (const Element& e : elements) {
      *p++ = static_cast<char>(e.value.type);
      p = PutCString(p, e.key);
      p = WriteValue(e.value, p);
    }
  }
  *p++ = '\0';
  Put32(start, static_cast<int32_t>(p - start));
  return p;
}

}  // namespace

absl::StatusOr<int64_t> DateTimeMillisOf(const Value& v) {
  if (!v.civil.has_value()) return v.i;
  return timestamp::ToUnixMillis(*v.civil, timestamp::Rounding::kFloor);
}

absl::StatusOr<uint64_t> EncodedSize(const Document& doc) {
  return ElementsSize(doc.elements, false, 1);
}

absl::StatusOr<std::string> Encode(const Document& doc) {
  absl::StatusOr<uint64_t> size = EncodedSize(doc);
  if (!size.ok()) return size.status();
  std::string out;
  const bool exact = ::serdiff::internal::FillString(
      static_cast<size_t>(*size),
      [&](uint8_t* p) {
        return reinterpret_cast<uint8_t*>(
            WriteElements(doc.elements, false, reinterpret_cast<char*>(p)));
      },
      &out);
  if (!exact) return absl::InternalError("bson encode: the write pass missed the size pass");
  return out;
}

}  // namespace serdiff::bson
