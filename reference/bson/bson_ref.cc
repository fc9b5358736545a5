#include "reference/bson/bson_ref.h"

#include <cstdio>
#include <cstring>
#include <limits>
#include <vector>

#include "absl/strings/str_cat.h"
#include "reference/timestamp/timestamp_ref.h"
#include "serdiff/common/error_offset.h"

namespace serdiff::ref::bson {

namespace sb = serdiff::bson;
using sb::Element;
using sb::Type;
using sb::Value;

std::string FormatInt64(int64_t v) {
  char buf[32];
  const int n = std::snprintf(buf, sizeof buf, "%lld", static_cast<long long>(v));
  return std::string(buf, static_cast<size_t>(n));
}

std::string FormatUint64(uint64_t v) {
  char buf[32];
  const int n = std::snprintf(buf, sizeof buf, "%llu", static_cast<unsigned long long>(v));
  return std::string(buf, static_cast<size_t>(n));
}

std::string ArrayKey(uint64_t index) { return FormatUint64(index); }

// ---- encoder --------------------------------------------------------------------------------

namespace {

constexpr int kMaxDepth = 100;
constexpr uint64_t kInt32Max = 2147483647;

std::string Le(uint64_t v, int bytes) {
  std::string out;
  for (int i = 0; i < bytes; ++i) out.push_back(static_cast<char>((v >> (8 * i)) & 0xFF));
  return out;
}

bool HasNul(const std::string& s) { return s.find('\0') != std::string::npos; }

absl::StatusOr<std::string> StringFragment(const std::string& s) {
  if (s.size() + 1 > kInt32Max) return absl::OutOfRangeError("string too long");
  return Le(s.size() + 1, 4) + s + std::string(1, '\0');
}

absl::StatusOr<std::string> DocumentFragment(const std::vector<Element>& elements, bool is_array,
                                             int depth);

std::string AlphabeticalOrder(const std::string& options) {
  std::string out;
  for (int c = 1; c < 256; ++c) {
    for (char o : options) {
      if (static_cast<unsigned char>(o) == c) out.push_back(o);
    }
  }
  return out;
}

absl::StatusOr<int64_t> Millis(const Value& v) {
  if (!v.civil.has_value()) return v.i;
  return timestamp::ToUnixMillis(*v.civil, timestamp::Rounding::kFloor);
}

absl::StatusOr<std::string> ValueFragment(const Value& v, int depth) {
  switch (v.type) {
    case Type::kDouble: {
      uint64_t bits;
      static_assert(sizeof bits == sizeof v.d);
      std::memcpy(&bits, &v.d, 8);
      return Le(bits, 8);
    }
    case Type::kString:
    case Type::kCode:
    case Type::kSymbol:
      return StringFragment(v.s);
    case Type::kDocument:
      return DocumentFragment(v.children, false, depth + 1);
    case Type::kArray:
      if (sb::IsPacked(v)) {
        // A packed array is the array of its values (document.h, Packed): spelled out as
        // elements and encoded like any other array.
        if (!sb::PackedWellFormed(v)) return absl::InvalidArgumentError("ill-formed packed array");
        return DocumentFragment(sb::Unpack(v).children, true, depth + 1);
      }
      return DocumentFragment(v.children, true, depth + 1);
    case Type::kBinary: {
      std::string payload = v.s;
      if (v.subtype == 0x02) payload = Le(v.s.size(), 4) + v.s;
      if (payload.size() > kInt32Max) return absl::OutOfRangeError("binary too long");
      return Le(payload.size(), 4) + std::string(1, static_cast<char>(v.subtype)) + payload;
    }
    case Type::kUndefined:
    case Type::kNull:
    case Type::kMinKey:
    case Type::kMaxKey:
      return std::string();
    case Type::kObjectId:
      if (v.s.size() != 12) return absl::InvalidArgumentError("ObjectId is not 12 bytes");
      return v.s;
    case Type::kBool:
      if (v.i == 0) return std::string(1, '\0');
      if (v.i == 1) return std::string(1, '\1');
      return absl::InvalidArgumentError("bool is not 0 or 1");
    case Type::kDateTime: {
      absl::StatusOr<int64_t> ms = Millis(v);
      if (!ms.ok()) return ms.status();
      return Le(static_cast<uint64_t>(*ms), 8);
    }
    case Type::kRegex:
      if (HasNul(v.s) || HasNul(v.s2.get()))
        return absl::InvalidArgumentError("regex contains NUL");
      // "Options ... must be stored in alphabetical order" (BSON 1.1, element 0x0B): each byte
      // value from the smallest up, as often as it occurs.
      return v.s + std::string(1, '\0') + AlphabeticalOrder(v.s2.get()) + std::string(1, '\0');
    case Type::kDbPointer: {
      if (v.s2.size() != 12) return absl::InvalidArgumentError("DBPointer id is not 12 bytes");
      absl::StatusOr<std::string> ns = StringFragment(v.s);
      if (!ns.ok()) return ns.status();
      return *ns + v.s2.get();
    }
    case Type::kCodeWithScope: {
      absl::StatusOr<std::string> code = StringFragment(v.s);
      if (!code.ok()) return code.status();
      absl::StatusOr<std::string> scope = DocumentFragment(v.children, false, depth + 1);
      if (!scope.ok()) return scope.status();
      const uint64_t total = 4 + code->size() + scope->size();
      if (total > kInt32Max) return absl::OutOfRangeError("code_w_scope too long");
      return Le(total, 4) + *code + *scope;
    }
    case Type::kInt32:
      if (v.i < std::numeric_limits<int32_t>::min() || v.i > std::numeric_limits<int32_t>::max()) {
        return absl::InvalidArgumentError("int32 out of range");
      }
      return Le(static_cast<uint64_t>(v.i), 4);
    case Type::kTimestamp:
    case Type::kInt64:
      return Le(static_cast<uint64_t>(v.i), 8);
    case Type::kDecimal128:
      if (v.s.size() != 16) return absl::InvalidArgumentError("decimal128 is not 16 bytes");
      return v.s;
  }
  return absl::InvalidArgumentError("unknown type");
}

absl::StatusOr<std::string> DocumentFragment(const std::vector<Element>& elements, bool is_array,
                                             int depth) {
  if (depth > kMaxDepth) return absl::InvalidArgumentError("nesting too deep");
  std::vector<std::string> fragments;
  for (size_t i = 0; i < elements.size(); ++i) {
    const Element& e = elements[i];
    std::string key = is_array ? ArrayKey(i) : e.key;
    if (!is_array && HasNul(key)) return absl::InvalidArgumentError("key contains NUL");
    absl::StatusOr<std::string> value = ValueFragment(e.value, depth);
    if (!value.ok()) return value.status();
    fragments.push_back(std::string(1, static_cast<char>(e.value.type)) + key +
                        std::string(1, '\0') + *value);
  }
  std::string body;
  for (const std::string& f : fragments) body += f;
  const uint64_t total = 4 + body.size() + 1;
  if (total > kInt32Max) return absl::OutOfRangeError("document too long");
  return Le(total, 4) + body + std::string(1, '\0');
}

}  // namespace

absl::StatusOr<std::string> Encode(const Document& doc) {
  return DocumentFragment(doc.elements, false, 1);
}

// ---- validator ------------------------------------------------------------------------------

namespace {

// Decodes code points one by one; returns the index of the first byte that does not begin a
// well-formed UTF-8 sequence, or -1.
int64_t BadUtf8At(std::string_view s) {
  size_t i = 0;
  while (i < s.size()) {
    const auto lead = static_cast<unsigned char>(s[i]);
    int extra;
    uint32_t cp;
    uint32_t min;
    if (lead <= 0x7F) {
      i += 1;
      continue;
    } else if ((lead & 0xE0) == 0xC0) {
      extra = 1, cp = lead & 0x1F, min = 0x80;
    } else if ((lead & 0xF0) == 0xE0) {
      extra = 2, cp = lead & 0x0F, min = 0x800;
    } else if ((lead & 0xF8) == 0xF0) {
      extra = 3, cp = lead & 0x07, min = 0x10000;
    } else {
      return static_cast<int64_t>(i);
    }
    if (i + extra >= s.size()) return static_cast<int64_t>(i);
    for (int k = 1; k <= extra; ++k) {
      const auto c = static_cast<unsigned char>(s[i + k]);
      if ((c & 0xC0) != 0x80) return static_cast<int64_t>(i);
      cp = (cp << 6) | (c & 0x3F);
    }
    if (cp < min || cp > 0x10FFFF || (cp >= 0xD800 && cp <= 0xDFFF)) {
      return static_cast<int64_t>(i);
    }
    i += 1 + extra;
  }
  return -1;
}

class Validator {
 public:
  Validator(std::string_view in, const ValidateOptions& opt) : in_(in), opt_(opt) {}

  // Reads a document starting at `at`, which may extend to `room_end`; returns its end.
  absl::StatusOr<size_t> Doc(size_t at, size_t room_end, int depth, bool is_array) {
    if (at + 4 > room_end) return InvalidAt(at, "no room for a document length");
    const int64_t len = I32(at);
    if (len < 5) return InvalidAt(at, "document length too small");
    if (at + static_cast<uint64_t>(len) > room_end) return InvalidAt(at, "document too long");
    if (depth > opt_.max_depth) return InvalidAt(at, "too deep");
    const size_t terminator = at + static_cast<size_t>(len) - 1;
    size_t pos = at + 4;
    uint64_t index = 0;
    for (;;) {
      if (pos == terminator) {
        if (in_[pos] != '\0') return InvalidAt(pos, "document does not end with NUL");
        return terminator + 1;
      }
      const auto type = static_cast<unsigned char>(in_[pos]);
      if (type == 0x00) return InvalidAt(pos, "early end of document");
      if (!sb::IsKnownType(type)) return InvalidAt(pos, "unknown type");
      size_t key_end = pos + 1;
      while (key_end < terminator && in_[key_end] != '\0') ++key_end;
      if (key_end == terminator) return InvalidAt(pos + 1, "key without NUL");
      const std::string key(in_.substr(pos + 1, key_end - pos - 1));
      if (absl::Status st = Utf8(pos + 1, key); !st.ok()) return st;
      if (is_array && opt_.check_array_keys) {
        if (key != ArrayKey(index)) return InvalidAt(pos + 1, "array key out of order");
        ++index;
      }
      absl::StatusOr<size_t> next =
          ValueAt(static_cast<Type>(type), key_end + 1, terminator, depth);
      if (!next.ok()) return next.status();
      pos = *next;
    }
  }

 private:
  int64_t I32(size_t at) const {
    uint32_t v = 0;
    for (int i = 3; i >= 0; --i) v = (v << 8) | static_cast<unsigned char>(in_[at + i]);
    return static_cast<int32_t>(v);
  }

  absl::Status Utf8(size_t at, const std::string& s) const {
    if (!opt_.check_utf8) return absl::OkStatus();
    const int64_t bad = BadUtf8At(s);
    if (bad < 0) return absl::OkStatus();
    return InvalidAt(static_cast<int64_t>(at) + bad, "invalid UTF-8");
  }

  absl::StatusOr<size_t> Need(size_t at, size_t n, size_t room_end) const {
    if (at + n > room_end) return InvalidAt(at, "value truncated");
    return at + n;
  }

  absl::StatusOr<size_t> Str(size_t at, size_t room_end) const {
    if (at + 4 > room_end) return InvalidAt(at, "no room for a string length");
    const int64_t len = I32(at);
    if (len <= 0) return InvalidAt(at, "string length not positive");
    if (at + 4 + static_cast<uint64_t>(len) > room_end) return InvalidAt(at, "string too long");
    const std::string content(in_.substr(at + 4, static_cast<size_t>(len) - 1));
    if (absl::Status st = Utf8(at + 4, content); !st.ok()) return st;
    const size_t last = at + 4 + static_cast<size_t>(len) - 1;
    if (in_[last] != '\0') return InvalidAt(last, "string without NUL");
    return last + 1;
  }

  absl::StatusOr<size_t> CStr(size_t at, size_t room_end) const {
    size_t end = at;
    while (end < room_end && in_[end] != '\0') ++end;
    if (end == room_end) return InvalidAt(at, "cstring without NUL");
    if (absl::Status st = Utf8(at, std::string(in_.substr(at, end - at))); !st.ok()) return st;
    return end + 1;
  }

  absl::StatusOr<size_t> ValueAt(Type type, size_t at, size_t room_end, int depth) {
    switch (type) {
      case Type::kDouble:
      case Type::kDateTime:
      case Type::kTimestamp:
      case Type::kInt64:
        return Need(at, 8, room_end);
      case Type::kInt32:
        return Need(at, 4, room_end);
      case Type::kObjectId:
        return Need(at, 12, room_end);
      case Type::kDecimal128:
        return Need(at, 16, room_end);
      case Type::kBool: {
        absl::StatusOr<size_t> end = Need(at, 1, room_end);
        if (!end.ok()) return end;
        const auto b = static_cast<unsigned char>(in_[at]);
        if (b != 0 && b != 1) return InvalidAt(at, "bool not 0 or 1");
        return end;
      }
      case Type::kUndefined:
      case Type::kNull:
      case Type::kMinKey:
      case Type::kMaxKey:
        return at;
      case Type::kString:
      case Type::kCode:
      case Type::kSymbol:
        return Str(at, room_end);
      case Type::kDocument:
        return Doc(at, room_end, depth + 1, false);
      case Type::kArray:
        return Doc(at, room_end, depth + 1, true);
      case Type::kBinary: {
        if (at + 4 > room_end) return InvalidAt(at, "no room for a binary length");
        const int64_t len = I32(at);
        if (len < 0) return InvalidAt(at, "binary length negative");
        if (at + 5 + static_cast<uint64_t>(len) > room_end) return InvalidAt(at, "binary too long");
        if (static_cast<unsigned char>(in_[at + 4]) == 0x02) {
          if (len < 4 || I32(at + 5) != len - 4) return InvalidAt(at + 5, "old binary length");
        }
        return at + 5 + static_cast<size_t>(len);
      }
      case Type::kRegex: {
        absl::StatusOr<size_t> mid = CStr(at, room_end);
        if (!mid.ok()) return mid;
        return CStr(*mid, room_end);
      }
      case Type::kDbPointer: {
        absl::StatusOr<size_t> mid = Str(at, room_end);
        if (!mid.ok()) return mid;
        return Need(*mid, 12, room_end);
      }
      case Type::kCodeWithScope: {
        if (at + 4 > room_end) return InvalidAt(at, "no room for a code_w_scope length");
        const int64_t total = I32(at);
        if (total < 4 + 5 + 5) return InvalidAt(at, "code_w_scope too short");
        if (at + static_cast<uint64_t>(total) > room_end) {
          return InvalidAt(at, "code_w_scope too long");
        }
        const size_t cws_end = at + static_cast<size_t>(total);
        absl::StatusOr<size_t> scope = Str(at + 4, cws_end);
        if (!scope.ok()) return scope;
        absl::StatusOr<size_t> end = Doc(*scope, cws_end, depth + 1, false);
        if (!end.ok()) return end;
        if (*end != cws_end) return InvalidAt(*scope, "scope does not fill code_w_scope");
        return cws_end;
      }
    }
    return InvalidAt(at, "unknown type");
  }

  std::string_view in_;
  ValidateOptions opt_;
};

}  // namespace

absl::Status Validate(std::string_view bytes, const ValidateOptions& options) {
  if (bytes.size() < 4) return InvalidAt(0, "fewer than 4 bytes");
  Validator v(bytes, options);
  uint32_t raw = 0;
  for (int i = 3; i >= 0; --i) raw = (raw << 8) | static_cast<unsigned char>(bytes[i]);
  const int64_t len = static_cast<int32_t>(raw);
  if (len < 5 || static_cast<uint64_t>(len) != bytes.size()) {
    return InvalidAt(0, "document length does not match the input size");
  }
  absl::StatusOr<size_t> end = v.Doc(0, bytes.size(), 1, false);
  return end.status();
}

}  // namespace serdiff::ref::bson
