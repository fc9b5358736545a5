// serdiff::bson validating decoder (codec.h: Validate, Decode): one pass over the bytes that
// checks every length, type byte, key, string and nesting level against the spec (or, with
// DecodeOptions::libbson_quirks, against what libbson 1.23 checks), and builds the document when
// asked to. The encoder is in codec.cc.
#include "serdiff/bson/codec.h"

#include <bit>
#include <cstring>
#include <string>
#include <string_view>
#include <vector>

#include "absl/strings/match.h"
#include "absl/strings/str_cat.h"
#include "serdiff/bson/int_format.h"
#include "serdiff/common/error_offset.h"
#include "serdiff/common/utf8.h"

namespace serdiff::bson {

static_assert(std::endian::native == std::endian::little, "the codec assumes a little-endian host");

// ---- decoder --------------------------------------------------------------------------------

namespace {

// The depth error's text, which NestsTooDeepFirst looks for.
constexpr char kTooDeep[] = "nesting deeper than ";

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
      return InvalidAt(start, absl::StrCat(kTooDeep, opt_.max_depth, " levels"));
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
    // The vector is sized once, before any element is built: a vector that doubles holds its
    // old and its new array at once (1.5 x the elements at the worst moment), and the model
    // of a 2-byte element is 128 bytes (docs/bson.md, "Decoder heap").
    if constexpr (Build) out->reserve(CountElements(p, last));
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
  // How many elements the document body [p, last) holds, found by stepping over each one by
  // its type and length fields without checking anything else (the parse that follows does).
  // Stops at the first element whose type is unknown or whose lengths do not fit in the body:
  // the parse reports that one. Every element counted takes at least 2 bytes of the body (its
  // type byte and its name's NUL), so the count is at most (last - p) / 2, whatever the input.
  size_t CountElements(size_t p, size_t last) const {
    size_t n = 0;
    while (p < last && b_[p] != 0) {
      const unsigned char type = b_[p];
      const void* nul = std::memchr(b_ + p + 1, 0, last - (p + 1));
      if (nul == nullptr) break;
      const size_t q = static_cast<size_t>(static_cast<const unsigned char*>(nul) - b_) + 1;
      ++n;
      size_t size = 0;
      if (!PayloadSize(type, q, last, &size)) break;
      p = q + size;
    }
    return n;
  }

  // The payload's size in bytes for an element of type byte `type` whose payload starts at q,
  // from its length fields alone; false when the type is unknown or the payload does not fit
  // before `last`.
  bool PayloadSize(unsigned char type, size_t q, size_t last, size_t* size) const {
    const size_t room = last - q;
    auto length_at = [&](size_t at, int64_t* len) {
      if (at > last || last - at < 4) return false;
      *len = Get32(b_ + at);
      return *len >= 0;
    };
    int64_t len = 0;
    switch (static_cast<Type>(type)) {
      case Type::kDouble:
      case Type::kDateTime:
      case Type::kTimestamp:
      case Type::kInt64:
        *size = 8;
        break;
      case Type::kInt32:
        *size = 4;
        break;
      case Type::kObjectId:
        *size = 12;
        break;
      case Type::kDecimal128:
        *size = 16;
        break;
      case Type::kBool:
        *size = 1;
        break;
      case Type::kUndefined:
      case Type::kNull:
      case Type::kMinKey:
      case Type::kMaxKey:
        *size = 0;
        break;
      case Type::kString:
      case Type::kCode:
      case Type::kSymbol:
        if (!length_at(q, &len)) return false;
        *size = 4 + static_cast<size_t>(len);
        break;
      case Type::kDocument:
      case Type::kArray:
      case Type::kCodeWithScope:
        if (!length_at(q, &len)) return false;
        *size = static_cast<size_t>(len);
        break;
      case Type::kBinary:
        if (!length_at(q, &len)) return false;
        *size = 5 + static_cast<size_t>(len);
        break;
      case Type::kDbPointer:
        if (!length_at(q, &len)) return false;
        *size = 4 + static_cast<size_t>(len) + 12;
        break;
      case Type::kRegex: {
        const void* a = std::memchr(b_ + q, 0, room);
        if (a == nullptr) return false;
        const size_t mid = static_cast<size_t>(static_cast<const unsigned char*>(a) - b_) + 1;
        const void* z = std::memchr(b_ + mid, 0, last - mid);
        if (z == nullptr) return false;
        *size = static_cast<size_t>(static_cast<const unsigned char*>(z) - b_) + 1 - q;
        break;
      }
      default:
        return false;
    }
    return *size <= room;
  }

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

  // utf8 false: the cstring's UTF-8 is not looked at (a regex's options under libbson_quirks).
  absl::Status CString(size_t q, size_t limit, std::string* out, size_t* end, bool utf8 = true) {
    const void* nul = std::memchr(b_ + q, 0, limit - q);
    if (nul == nullptr) return InvalidAt(q, "cstring not NUL-terminated");
    const size_t len = static_cast<const unsigned char*>(nul) - (b_ + q);
    const std::string_view s(reinterpret_cast<const char*>(b_ + q), len);
    if (utf8) {
      if (absl::Status st = CheckUtf8(q, s); !st.ok()) return st;
    }
    if constexpr (Build) out->assign(s);
    *end = q + len + 1;
    return absl::OkStatus();
  }

  absl::Status Payload(Type type, size_t q, size_t limit, int depth, Value* v, size_t* end) {
    std::string* s = v ? &v->s : nullptr;
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
        std::string options;
        // libbson 1.23's bson_validate checks a regex's pattern, not its options: an ill-formed
        // option byte neither fails nor stops it (a bool 2 after it is still rejected).
        if (absl::Status st = CString(mid, limit, &options, end, !opt_.libbson_quirks); !st.ok()) {
          return st;
        }
        if constexpr (Build) v->s2 = options;  // allocated only when not empty
        return absl::OkStatus();
      }
      case Type::kDbPointer: {
        size_t mid = 0;
        if (absl::Status st = ParseString(q, limit, s, &mid); !st.ok()) return st;
        if (absl::Status st = Fixed(mid, 12, limit); !st.ok()) return st;
        if constexpr (Build) v->s2 = std::string_view(reinterpret_cast<const char*>(b_ + mid), 12);
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

bool NestsTooDeepFirst(std::string_view bytes, const DecodeOptions& options) {
  const absl::Status st = Run<false>(bytes, options, nullptr);
  return !st.ok() && absl::StrContains(st.message(), kTooDeep);
}

absl::StatusOr<Document> Decode(std::string_view bytes, const DecodeOptions& options) {
  Document doc;
  if (absl::Status st = Run<true>(bytes, options, &doc.elements); !st.ok()) return st;
  return doc;
}

}  // namespace serdiff::bson
