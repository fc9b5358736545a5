#include "serdiff/bson/codec.h"

#include <algorithm>
#include <bit>
#include <cstring>
#include <limits>

#include "absl/strings/str_cat.h"
#include "serdiff/bson/int_format.h"
#include "serdiff/common/error_offset.h"
#include "serdiff/common/fill_string.h"
#include "serdiff/common/utf8.h"
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
      if (v.s.find('\0') != std::string::npos || v.s2.find('\0') != std::string::npos) {
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
// store of `tmpl` (type byte, the H digits, a digit slot, NUL, then garbage), its digit and
// its W-byte value. Precondition: at least 16 writable bytes past the tenth element's start.
template <size_t W, size_t H>
inline char* WriteTen(const char* tmpl, const char* values, char* p) {
  for (size_t d = 0; d < 10; ++d) {
    std::memcpy(p, tmpl, 16);
    p[H + 1] = static_cast<char>('0' + d);
    std::memcpy(p + H + 3, values + W * d, W);
    p += H + 3 + W;
  }
  return p;
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
  // (type byte, the tens' digits, a digit slot, NUL), the digit and the value: the template's
  // bytes past the element are garbage the next element overwrites, and the ten after this
  // one writes more than 16 bytes, so nothing past the array is touched.
  for (; i + 20 <= n && tens.size() <= 8; i += 10, tens.Next()) {
    char tmpl[16] = {};
    tmpl[0] = tb;
    std::memcpy(tmpl + 1, tens.key().data(), tens.size());
    const char* ten = values + W * i;
    switch (tens.size()) {  // the key length as a constant: ten straight-line element writes
      case 1:
        p = WriteTen<W, 1>(tmpl, ten, p);
        break;
      case 2:
        p = WriteTen<W, 2>(tmpl, ten, p);
        break;
      case 3:
        p = WriteTen<W, 3>(tmpl, ten, p);
        break;
      case 4:
        p = WriteTen<W, 4>(tmpl, ten, p);
        break;
      case 5:
        p = WriteTen<W, 5>(tmpl, ten, p);
        break;
      case 6:
        p = WriteTen<W, 6>(tmpl, ten, p);
        break;
      case 7:
        p = WriteTen<W, 7>(tmpl, ten, p);
        break;
      default:
        p = WriteTen<W, 8>(tmpl, ten, p);
        break;
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
      char* end = PutCString(options, v.s2);
      // By unsigned byte value (char may be signed: 0xff must sort after 0x0f).
      std::sort(reinterpret_cast<unsigned char*>(options),
                reinterpret_cast<unsigned char*>(end - 1));
      return end;
    }
    case Type::kDbPointer:
      return PutBytes(PutString(p, v.s), v.s2);
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

// ---- decoder --------------------------------------------------------------------------------

namespace {

inline int32_t Get32(const unsigned char* p) {
  int32_t v;
  std::memcpy(&v, p, 4);
  return v;
}
inline int64_t Get64(const unsigned char* p) {
  int64_t v;
  std::memcpy(&v, p, 8);
  return v;
}

// One pass over the bytes; builds elements when `Build` is true.
template <bool Build>
class Parser {
 public:
  Parser(std::string_view bytes, const DecodeOptions& options)
      : b_(reinterpret_cast<const unsigned char*>(bytes.data())), opt_(options) {}

  // The document whose length field is at `start`; it may use bytes up to `limit` (exclusive).
  // On success *end is one past its terminating NUL.
  absl::Status ParseDocument(size_t start, size_t limit, int depth, bool is_array,
                             std::vector<Element>* out, size_t* end) {
    if (limit - start < 4) return InvalidAt(start, "document length needs 4 bytes");
    const int32_t len = Get32(b_ + start);
    if (opt_.libbson_quirks && depth > 1 && len >= 0 && len < kMinDocumentSize &&
        static_cast<uint64_t>(len) <= limit - start) {
      // libbson's bson_iter_next only checks that the length fits; bson_init_static refuses
      // it, so the subdocument is skipped and iteration goes on `len` bytes later (inside the
      // length field for 0..3, whose zero bytes then end the parent early: still an error).
      *end = start + static_cast<size_t>(len);
      return absl::OkStatus();
    }
    if (len < kMinDocumentSize) return InvalidAt(start, "document length below 5");
    if (static_cast<uint64_t>(len) > limit - start) {
      return InvalidAt(start, absl::StrCat("document length ", len, " exceeds the ", limit - start,
                                           " bytes that remain"));
    }
    if (depth > opt_.max_depth) {
      return InvalidAt(start, absl::StrCat("nesting deeper than ", opt_.max_depth, " levels"));
    }
    const size_t last = start + static_cast<size_t>(len) - 1;  // the terminator's offset
    if (opt_.libbson_quirks && depth > 1 && b_[last] != 0) {
      // libbson's bson_iter_visit_all hands an embedded document to its visitor only when
      // bson_init_static accepts it, which needs a final 0x00; otherwise the whole subtree is
      // skipped without an error.
      *end = last + 1;
      return absl::OkStatus();
    }
    size_t p = start + 4;
    ArrayKeyCounter index;
    while (p < last) {
      const unsigned char type = b_[p];
      if (type == 0) return InvalidAt(p, "NUL type byte before the end of the document");
      if (!IsKnownType(type)) return InvalidAt(p, absl::StrCat("unknown element type ", type));
      const size_t key = p + 1;
      const void* nul = std::memchr(b_ + key, 0, last - key);
      if (nul == nullptr) return InvalidAt(key, "element name not NUL-terminated");
      const size_t key_len = static_cast<const unsigned char*>(nul) - (b_ + key);
      const std::string_view key_view(reinterpret_cast<const char*>(b_ + key), key_len);
      if (absl::Status st = CheckUtf8(key, key_view, /*is_key=*/true); !st.ok()) return st;
      if (is_array && opt_.check_array_keys) {
        if (key_view != index.key()) {
          return InvalidAt(key,
                           absl::StrCat("array key \"", std::string(index.key()), "\" expected"));
        }
        index.Next();
      }
      Element* element = nullptr;
      if constexpr (Build) {
        element = &out->emplace_back();
        element->key.assign(key_view);
        element->value.type = static_cast<Type>(type);
      }
      size_t q = key + key_len + 1;
      if (absl::Status st = Payload(static_cast<Type>(type), q, last, depth,
                                    element ? &element->value : nullptr, &q);
          !st.ok()) {
        return st;
      }
      if (stop_) {  // libbson_quirks: its validator stopped after this element
        stop_ = false;
        *end = last + 1;
        return absl::OkStatus();
      }
      p = q;
    }
    if (b_[last] != 0) {
      return InvalidAt(last, "document not terminated by NUL");
    }
    *end = last + 1;
    return absl::OkStatus();
  }

 private:
  absl::Status CheckUtf8(size_t offset, std::string_view s, bool is_key = false) {
    if (!opt_.check_utf8 || (!is_key && !opt_.check_utf8_values)) return absl::OkStatus();
    const size_t bad = serdiff::FirstInvalidUtf8(s);
    if (bad == s.size()) return absl::OkStatus();
    if (opt_.libbson_quirks && !is_key) {
      // libbson's validator stops at such a value and reports no error: the rest of this
      // document goes unchecked (its parent goes on).
      stop_ = true;
      return absl::OkStatus();
    }
    return InvalidAt(static_cast<int64_t>(offset + bad), "ill-formed UTF-8");
  }

  absl::Status Fixed(size_t q, size_t n, size_t limit) {
    if (limit - q < n) return InvalidAt(q, absl::StrCat("value needs ", n, " bytes"));
    return absl::OkStatus();
  }

  // int32 length + content + NUL, ending before limit.
  absl::Status ParseString(size_t q, size_t limit, std::string* out, size_t* end) {
    if (limit - q < 4) return InvalidAt(q, "string length needs 4 bytes");
    const int32_t len = Get32(b_ + q);
    if (len < 1) return InvalidAt(q, "string length below 1");
    if (static_cast<uint64_t>(len) > limit - q - 4) {
      return InvalidAt(q, absl::StrCat("string length ", len, " exceeds the ", limit - q - 4,
                                       " bytes that remain"));
    }
    const size_t content = q + 4;
    const size_t nul = content + static_cast<size_t>(len) - 1;
    const std::string_view s(reinterpret_cast<const char*>(b_ + content), nul - content);
    if (absl::Status st = CheckUtf8(content, s); !st.ok()) return st;
    if (b_[nul] != 0) return InvalidAt(nul, "string not terminated by NUL");
    if constexpr (Build) out->assign(s);
    *end = nul + 1;
    return absl::OkStatus();
  }

  absl::Status CString(size_t q, size_t limit, std::string* out, size_t* end) {
    const void* nul = std::memchr(b_ + q, 0, limit - q);
    if (nul == nullptr) return InvalidAt(q, "cstring not NUL-terminated");
    const size_t len = static_cast<const unsigned char*>(nul) - (b_ + q);
    const std::string_view s(reinterpret_cast<const char*>(b_ + q), len);
    if (absl::Status st = CheckUtf8(q, s); !st.ok()) return st;
    if constexpr (Build) out->assign(s);
    *end = q + len + 1;
    return absl::OkStatus();
  }

  absl::Status Payload(Type type, size_t q, size_t limit, int depth, Value* v, size_t* end) {
    std::string* s = v ? &v->s : nullptr;
    std::string* s2 = v ? &v->s2 : nullptr;
    std::vector<Element>* children = v ? &v->children : nullptr;
    switch (type) {
      case Type::kDouble:
      case Type::kDateTime:
      case Type::kTimestamp:
      case Type::kInt64:
        if (absl::Status st = Fixed(q, 8, limit); !st.ok()) return st;
        if constexpr (Build) {
          if (type == Type::kDouble) {
            std::memcpy(&v->d, b_ + q, 8);
          } else {
            v->i = Get64(b_ + q);
          }
        }
        *end = q + 8;
        return absl::OkStatus();
      case Type::kInt32:
        if (absl::Status st = Fixed(q, 4, limit); !st.ok()) return st;
        if constexpr (Build) v->i = Get32(b_ + q);
        *end = q + 4;
        return absl::OkStatus();
      case Type::kObjectId:
      case Type::kDecimal128: {
        const size_t n = type == Type::kObjectId ? 12 : 16;
        if (absl::Status st = Fixed(q, n, limit); !st.ok()) return st;
        if constexpr (Build) s->assign(reinterpret_cast<const char*>(b_ + q), n);
        *end = q + n;
        return absl::OkStatus();
      }
      case Type::kBool:
        if (absl::Status st = Fixed(q, 1, limit); !st.ok()) return st;
        if (b_[q] > 1) return InvalidAt(q, absl::StrCat("bool byte ", b_[q], " is not 0 or 1"));
        if constexpr (Build) v->i = b_[q];
        *end = q + 1;
        return absl::OkStatus();
      case Type::kUndefined:
      case Type::kNull:
      case Type::kMinKey:
      case Type::kMaxKey:
        *end = q;
        return absl::OkStatus();
      case Type::kString:
      case Type::kCode:
      case Type::kSymbol:
        return ParseString(q, limit, s, end);
      case Type::kDocument:
      case Type::kArray:
        return ParseDocument(q, limit, depth + 1, type == Type::kArray, children, end);
      case Type::kBinary: {
        if (limit - q < 4) return InvalidAt(q, "binary length needs 4 bytes");
        const int32_t len = Get32(b_ + q);
        if (len < 0) return InvalidAt(q, "binary length negative");
        if (static_cast<uint64_t>(len) + 1 > limit - q - 4) {
          return InvalidAt(q,
                           absl::StrCat("binary length ", len, " exceeds the bytes that remain"));
        }
        const uint8_t subtype = b_[q + 4];
        size_t data = q + 5;
        size_t data_len = static_cast<size_t>(len);
        if (subtype == kBinarySubtypeOld) {
          if (len < 4 || Get32(b_ + q + 5) != len - 4) {
            return InvalidAt(q + 5, "binary subtype 2 inner length is not the length minus 4");
          }
          data += 4;
          data_len -= 4;
        }
        if constexpr (Build) {
          v->subtype = subtype;
          s->assign(reinterpret_cast<const char*>(b_ + data), data_len);
        }
        *end = data + data_len;
        return absl::OkStatus();
      }
      case Type::kRegex: {
        size_t mid = 0;
        if (absl::Status st = CString(q, limit, s, &mid); !st.ok()) return st;
        return CString(mid, limit, s2, end);
      }
      case Type::kDbPointer: {
        size_t mid = 0;
        if (absl::Status st = ParseString(q, limit, s, &mid); !st.ok()) return st;
        if (absl::Status st = Fixed(mid, 12, limit); !st.ok()) return st;
        if constexpr (Build) s2->assign(reinterpret_cast<const char*>(b_ + mid), 12);
        *end = mid + 12;
        return absl::OkStatus();
      }
      case Type::kCodeWithScope: {
        if (limit - q < 4) return InvalidAt(q, "code_w_scope length needs 4 bytes");
        const int32_t total = Get32(b_ + q);
        if (total < 14) return InvalidAt(q, "code_w_scope length below 14");
        if (static_cast<uint64_t>(total) > limit - q) {
          return InvalidAt(
              q, absl::StrCat("code_w_scope length ", total, " exceeds the bytes that remain"));
        }
        const size_t cws_end = q + static_cast<size_t>(total);
        if (opt_.libbson_quirks) return LibbsonCodeWithScope(q, cws_end, depth, end);
        size_t scope = 0;
        if (absl::Status st = ParseString(q + 4, cws_end, s, &scope); !st.ok()) return st;
        size_t scope_end = 0;
        if (absl::Status st = ParseDocument(scope, cws_end, depth + 1, false, children, &scope_end);
            !st.ok()) {
          return st;
        }
        if (scope_end != cws_end) {
          return InvalidAt(scope, "code_w_scope scope does not end at the code_w_scope length");
        }
        *end = cws_end;
        return absl::OkStatus();
      }
    }
    return InvalidAt(q, "unknown element type");
  }

  // libbson_quirks: what libbson 1.23 checks of a code_w_scope whose total length (>= 14,
  // fitting) starts at q. bson_iter_next checks only the lengths: the code string's length is
  // at least 1 and leaves room for the scope's length, and the scope's length ends exactly at
  // the element's end (its NUL terminator and content are not checked). bson_iter_visit_all
  // stops at code with ill-formed UTF-8 (whatever the scope); otherwise the scope is
  // validated, as a document of its own, only when bson_init_static accepts it (final byte
  // 0x00), and a valid scope means the document holding the code_w_scope is accepted from
  // there on (the parents go on); a scope it refuses is stepped over.
  absl::Status LibbsonCodeWithScope(size_t q, size_t cws_end, int depth, size_t* end) {
    const uint32_t code_len = static_cast<uint32_t>(Get32(b_ + q + 4));
    if (code_len == 0 || uint64_t{q} + 8 + code_len + 4 >= cws_end) {
      return InvalidAt(q + 4, "code_w_scope string length");
    }
    const size_t scope = q + 8 + code_len;
    const uint32_t scope_len = static_cast<uint32_t>(Get32(b_ + scope));
    if (uint64_t{scope} + scope_len != cws_end) {
      return InvalidAt(scope, "code_w_scope scope does not end at the code_w_scope length");
    }
    // The code's UTF-8 is checked first (NUL allowed), whatever the scope: ill-formed, stop.
    const std::string_view code(reinterpret_cast<const char*>(b_ + q + 8), code_len - 1);
    if (opt_.check_utf8 && serdiff::FirstInvalidUtf8(code) != code.size()) {
      stop_ = true;
      *end = cws_end;
      return absl::OkStatus();
    }
    if (scope_len >= static_cast<uint32_t>(kMinDocumentSize) && b_[cws_end - 1] == 0) {
      size_t scope_end = 0;
      std::vector<Element> discarded;  // Decode with quirks: the scope is checked, not kept
      if (absl::Status st = ParseDocument(scope, cws_end, depth + 1, false,
                                          Build ? &discarded : nullptr, &scope_end);
          !st.ok()) {
        return st;
      }
      stop_ = true;
    }
    *end = cws_end;
    return absl::OkStatus();
  }

  const unsigned char* b_;
  const DecodeOptions& opt_;
  // libbson_quirks: libbson's validator stops after the current element and reports success
  // for the document it is in (a valid code_w_scope scope, a value with ill-formed UTF-8).
  bool stop_ = false;
};

template <bool Build>
absl::Status Run(std::string_view bytes, const DecodeOptions& options, std::vector<Element>* out) {
  if (bytes.size() < 4) return InvalidAt(0, "document length needs 4 bytes");
  int32_t len;
  std::memcpy(&len, bytes.data(), 4);
  if (len < kMinDocumentSize) return InvalidAt(0, "document length below 5");
  if (static_cast<uint64_t>(len) != bytes.size()) {
    return InvalidAt(0,
                     absl::StrCat("document length ", len, " but ", bytes.size(), " bytes given"));
  }
  Parser<Build> parser(bytes, options);
  size_t end = 0;
  return parser.ParseDocument(0, bytes.size(), 1, false, out, &end);
}

}  // namespace

absl::Status Validate(std::string_view bytes, const DecodeOptions& options) {
  return Run<false>(bytes, options, nullptr);
}

absl::StatusOr<Document> Decode(std::string_view bytes, const DecodeOptions& options) {
  Document doc;
  if (absl::Status st = Run<true>(bytes, options, &doc.elements); !st.ok()) return st;
  return doc;
}

}  // namespace serdiff::bson
