// BSON family: the accepted divergences of the outside implementations that join the bson
// targets as workers (docs/workers.md): pymongo (oracles/pymongo, pymongo's bson 3.11 with its C
// extension) and js_bson (oracles/js_bson, npm bson 7.3.4). Declared in targets/bson/domain.h;
// docs/peers.md ("## BSON") lists each with its example and its kind (on purpose or a bug). What
// a peer cannot take at all (an API limit: a Python datetime past year 9999, a JS Date past
// 8.64e15 ms, a key twice in one document) its worker declines instead, so it is not here.
//
// Every predicate recomputes what the peer answers from the input and holds only when the
// peer's answer is exactly that: an encode divergence rebuilds the document the peer writes
// (PymongoEncodeModel) and compares bytes; a decode divergence that lets the peer accept what
// serdiff rejects re-validates the input with serdiff's own Validate after blanking, in place,
// only the bytes the peer does not check (BlankUncheckedUtf8), or, for pymongo's bounds bug, runs
// a transcription of its C decoder's checks (PymongoDecodeModel); one that lets the peer reject
// what serdiff accepts needs both the feature in the decoded document and the peer's own error
// text for it. tests/interchange_test.cc ("InterchangePeers") shows each on its example and on
// a nearby answer it does not cover.
#include <algorithm>
#include <cstdint>
#include <cstring>
#include <functional>
#include <optional>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "absl/status/status.h"
#include "absl/status/statusor.h"
#include "absl/strings/match.h"
#include "absl/strings/string_view.h"
#include "harness/target.h"
#include "reference/bson/bson_ref.h"
#include "serdiff/bson/codec.h"
#include "serdiff/bson/document.h"
#include "targets/bson/domain.h"

namespace serdiff::targets::bson {

namespace sb = serdiff::bson;
using harness::Output;
using sb::Document;
using sb::Element;
using sb::Type;
using sb::Value;

namespace {

// The deepest nesting the decode divergences cover (as the libbson ones, divergences.cc): past
// pymongo's (Python's recursion limit, 1,000), shallow enough for the stack of the walk below.
// js-bson reads deeper documents too; those stay reported.
constexpr int kWalkDepth = 1000;

// pymongo's bson.regex.Regex holds the options as re flag bits and writes them back in this
// order: every other byte is dropped, and so is a repeat.
constexpr std::string_view kRegexFlags = "ilmsux";

// ---- walking a decoded document --------------------------------------------------------------

// True when `pred` holds for some value at any depth (documents, arrays, code_w_scope scopes).
bool AnyValue(const std::vector<Element>& els, const std::function<bool(const Value&)>& pred) {
  for (const Element& e : els) {
    if (pred(e.value)) return true;
    if (sb::IsPacked(e.value)) continue;  // int32, int64, double or bool only
    if (AnyValue(e.value.children, pred)) return true;
  }
  return false;
}

bool HasType(const Document& doc, Type t) {
  return AnyValue(doc.elements, [t](const Value& v) { return v.type == t; });
}

bool HasBinarySubtype(const Document& doc, uint8_t subtype) {
  return AnyValue(doc.elements, [subtype](const Value& v) {
    return v.type == Type::kBinary && v.subtype == subtype;
  });
}

// A binary of subtype 0x04 (UUID), or with old_too 0x03 (UUID, old), whose payload is not 16
// bytes.
bool HasUuidNot16Bytes(const Document& doc, bool old_too) {
  return AnyValue(doc.elements, [old_too](const Value& v) {
    return v.type == Type::kBinary && (v.subtype == 0x04 || (old_too && v.subtype == 0x03)) &&
           v.s.size() != 16;
  });
}

// A regex with an option byte outside "ilmsux".
bool HasRegexOptionOutsideIlmsux(const Document& doc) {
  return AnyValue(doc.elements, [](const Value& v) {
    return v.type == Type::kRegex && std::any_of(v.s2.begin(), v.s2.end(), [](char c) {
             return kRegexFlags.find(c) == std::string_view::npos;
           });
  });
}

// The options as pymongo writes them: the letters of "ilmsux" the options hold, each once, in
// that order.
std::string PymongoRegexOptions(std::string_view options) {
  std::string out;
  for (char c : kRegexFlags) {
    if (options.find(c) != std::string_view::npos) out.push_back(c);
  }
  return out;
}

// A regex whose options pymongo writes otherwise than serdiff (which sorts every byte it is
// given): a repeat or a byte outside "ilmsux".
bool HasRegexOptionsPymongoRewrites(const Document& doc) {
  return AnyValue(doc.elements, [](const Value& v) {
    if (v.type != Type::kRegex) return false;
    std::string sorted = v.s2;
    std::sort(sorted.begin(), sorted.end());
    return sorted != PymongoRegexOptions(v.s2);
  });
}

bool TopLevelIdNotFirst(const Document& doc) {
  for (size_t i = 1; i < doc.elements.size(); ++i) {
    if (doc.elements[i].key == "_id") return true;
  }
  return false;
}

// ---- what pymongo writes ---------------------------------------------------------------------

std::optional<Value> PymongoValue(const Value& v);

// A container's elements as pymongo holds them; nullopt for a document with a key twice (a
// Python mapping keeps one: the worker declines such a document, this model does not guess).
std::optional<std::vector<Element>> PymongoElements(const std::vector<Element>& els,
                                                    bool is_array) {
  std::vector<Element> out;
  out.reserve(els.size());
  for (const Element& e : els) {
    if (!is_array) {
      for (const Element& seen : out) {
        if (seen.key == e.key) return std::nullopt;
      }
    }
    std::optional<Value> v = PymongoValue(e.value);
    if (!v) return std::nullopt;
    out.push_back(Element{e.key, std::move(*v)});
  }
  return out;
}

// json_util.loads (or bson.decode) then bson.encode, for one value: undefined reads as None
// (null), a DBPointer as bson.dbref.DBRef (written as the document {"$ref": ns, "$id": id}), a
// symbol as str (a string), a regex's options as re flags; everything else as it is.
std::optional<Value> PymongoValue(const Value& v) {
  switch (v.type) {
    case Type::kUndefined:
      return sb::Null();
    case Type::kSymbol:
      return sb::String(v.s);
    case Type::kDbPointer: {
      Value id = sb::OfType(Type::kObjectId);
      id.s = v.s2;
      return sb::SubDocument({Element{"$ref", sb::String(v.s)}, Element{"$id", std::move(id)}});
    }
    case Type::kRegex: {
      Value out = v;
      out.s2 = PymongoRegexOptions(v.s2);
      return out;
    }
    case Type::kDocument:
    case Type::kArray:
    case Type::kCodeWithScope: {
      std::optional<std::vector<Element>> children =
          PymongoElements(v.children, v.type == Type::kArray);
      if (!children) return std::nullopt;
      Value out = v;
      out.children = std::move(*children);
      return out;
    }
    default:
      return v;
  }
}

// The bytes pymongo's bson.encode writes for the document serdiff sent it (as Extended JSON or
// as bytes); nullopt where this model does not say (a key twice, a document the reference
// encoder rejects). A top-level "_id" is written first (the C extension's top_level rule).
}  // namespace

std::optional<std::string> PymongoEncodeModel(const Document& input) {
  std::optional<std::vector<Element>> els = PymongoElements(sb::Unpack(input).elements, false);
  if (!els) return std::nullopt;
  Document doc{std::move(*els)};
  const auto id = std::find_if(doc.elements.begin(), doc.elements.end(),
                               [](const Element& e) { return e.key == "_id"; });
  if (id != doc.elements.end()) std::rotate(doc.elements.begin(), id, id + 1);
  absl::StatusOr<std::string> bytes = ref::bson::Encode(doc);
  if (!bytes.ok()) return std::nullopt;
  return *std::move(bytes);
}

namespace {

// Both accepted, serdiff's bytes are not the peer's, and the peer's are exactly what the model
// of pymongo's encoder writes for this input.
bool PymongoWroteItsModel(const Document& doc, const Output& opt, const Output& other) {
  if (!opt.ok() || !other.ok() || *opt == *other) return false;
  const std::optional<std::string> model = PymongoEncodeModel(doc);
  return model.has_value() && *model == *other;
}

// serdiff accepted, the peer rejected (not declined) with `text` in its message.
bool PeerRejectedSaying(const Output& opt, const Output& other, absl::string_view text) {
  return opt.ok() && !other.ok() && !harness::IsDeclined(other.status()) &&
         absl::StrContains(other.status().message(), text);
}

// ---- the raw bytes a peer's decoder does not check for UTF-8 -------------------------------

// Which cstrings of a document a decoder reads without checking their UTF-8.
struct Unchecked {
  bool document_keys = false;   // keys of documents and of code_w_scope scopes
  bool array_keys = false;      // keys of arrays
  bool regex_patterns = false;  // the first cstring of a regex
  bool regex_options = false;   // the second
};

// Replaces, in place, every byte >= 0x80 of the cstrings `unchecked` names with 'a', walking the
// document's layout exactly as BSON 1.1 lays it out. A replaced byte is never NUL nor a length,
// a type or a terminator, so the layout stays the same and only UTF-8 errors in those cstrings
// can go away. Returns false where the layout cannot be followed (a length that does not fit, an
// unknown type, nesting past kWalkDepth): the caller then covers nothing.
class Sanitizer {
 public:
  Sanitizer(std::string* bytes, Unchecked unchecked) : b_(*bytes), u_(unchecked) {}

  bool Document(size_t start, size_t limit, bool is_array, int depth) {
    if (depth > kWalkDepth) return false;
    std::optional<int64_t> len = Int32At(start, limit);
    if (!len || *len < sb::kMinDocumentSize || static_cast<uint64_t>(*len) > limit - start) {
      return false;
    }
    const size_t last = start + static_cast<size_t>(*len) - 1;  // the terminating NUL
    size_t i = start + 4;
    while (i < last) {
      const auto type = static_cast<uint8_t>(b_[i]);
      const std::optional<size_t> key_end = CStringEnd(i + 1, last);
      if (!key_end) return false;
      if (is_array ? u_.array_keys : u_.document_keys) Blank(i + 1, *key_end);
      const std::optional<size_t> next = Payload(type, *key_end + 1, last, depth);
      if (!next) return false;
      i = *next;
    }
    return i == last;
  }

 private:
  std::optional<int64_t> Int32At(size_t at, size_t limit) const {
    if (at > limit || limit - at < 4) return std::nullopt;
    int32_t v;
    std::memcpy(&v, b_.data() + at, 4);  // little-endian host (x86-64, as the project builds)
    return v;
  }

  // The position of the NUL ending the cstring at `at`, before `limit`.
  std::optional<size_t> CStringEnd(size_t at, size_t limit) const {
    if (at >= limit) return std::nullopt;
    const size_t nul = b_.find('\0', at);
    if (nul == std::string::npos || nul >= limit) return std::nullopt;
    return nul;
  }

  void Blank(size_t from, size_t to) {
    for (size_t k = from; k < to; ++k) {
      if (static_cast<uint8_t>(b_[k]) >= 0x80) b_[k] = 'a';
    }
  }

  // A string-like value (int32 length >= 1, then that many bytes) at `at`: where it ends.
  std::optional<size_t> StringEnd(size_t at, size_t limit) const {
    std::optional<int64_t> n = Int32At(at, limit);
    if (!n || *n < 1 || static_cast<uint64_t>(*n) > limit - at - 4) return std::nullopt;
    return at + 4 + static_cast<size_t>(*n);
  }

  // The value of `type` at `at` (inside a document ending at `last`): where it ends.
  std::optional<size_t> Payload(uint8_t type, size_t at, size_t last, int depth) {
    auto fixed = [&](size_t n) -> std::optional<size_t> {
      if (at > last || last - at < n) return std::nullopt;
      return at + n;
    };
    switch (static_cast<Type>(type)) {
      case Type::kDouble:
      case Type::kDateTime:
      case Type::kTimestamp:
      case Type::kInt64:
        return fixed(8);
      case Type::kObjectId:
        return fixed(12);
      case Type::kBool:
        return fixed(1);
      case Type::kInt32:
        return fixed(4);
      case Type::kDecimal128:
        return fixed(16);
      case Type::kUndefined:
      case Type::kNull:
      case Type::kMinKey:
      case Type::kMaxKey:
        return at;
      case Type::kString:
      case Type::kCode:
      case Type::kSymbol:
        return StringEnd(at, last);
      case Type::kDbPointer: {
        std::optional<size_t> end = StringEnd(at, last);
        if (!end || last - *end < 12) return std::nullopt;
        return *end + 12;
      }
      case Type::kDocument:
      case Type::kArray: {
        if (!Document(at, last, type == static_cast<uint8_t>(Type::kArray), depth + 1)) {
          return std::nullopt;
        }
        return at + static_cast<size_t>(*Int32At(at, last));
      }
      case Type::kBinary: {
        std::optional<int64_t> n = Int32At(at, last);
        if (!n || *n < 0 || static_cast<uint64_t>(*n) + 5 > last - at) return std::nullopt;
        return at + 5 + static_cast<size_t>(*n);
      }
      case Type::kRegex: {
        const std::optional<size_t> pattern_end = CStringEnd(at, last);
        if (!pattern_end) return std::nullopt;
        const std::optional<size_t> options_end = CStringEnd(*pattern_end + 1, last);
        if (!options_end) return std::nullopt;
        if (u_.regex_patterns) Blank(at, *pattern_end);
        if (u_.regex_options) Blank(*pattern_end + 1, *options_end);
        return *options_end + 1;
      }
      case Type::kCodeWithScope: {
        std::optional<int64_t> total = Int32At(at, last);
        if (!total || *total < 14 || static_cast<uint64_t>(*total) > last - at) {
          return std::nullopt;
        }
        const size_t end = at + static_cast<size_t>(*total);
        const std::optional<size_t> code_end = StringEnd(at + 4, end);
        if (!code_end || !Document(*code_end, end, false, depth + 1)) return std::nullopt;
        return end;
      }
    }
    return std::nullopt;  // an unknown type byte
  }

  std::string& b_;
  Unchecked u_;
};

// serdiff rejected, the peer (pymongo, else js_bson) accepted, and serdiff's Validate accepts
// the input once the bytes the peer does not check are blanked (BlankUncheckedUtf8), with
// nesting up to `max_depth`.
bool PeerSkipsTheCheck(std::string_view in, const Output& opt, const Output& other, bool pymongo,
                       int max_depth) {
  if (opt.ok() || !other.ok()) return false;
  const std::optional<std::string> blanked = BlankUncheckedUtf8(in, pymongo);
  if (!blanked) return false;
  sb::DecodeOptions options;
  options.max_depth = max_depth;
  return sb::Validate(*blanked, options).ok();
}

// The document serdiff decoded from an input it accepted (nullopt if it cannot).
std::optional<Document> Decoded(std::string_view in) {
  absl::StatusOr<Document> doc = sb::Decode(in);
  if (!doc.ok()) return std::nullopt;
  return *std::move(doc);
}

constexpr Unchecked kPymongoUnchecked{false, true, false, true};
constexpr Unchecked kJsBsonUnchecked{true, true, true, false};

// ---- pymongo's decoder, for the ends it does not check ---------------------------------------

// Well-formed UTF-8 (Unicode Table 3-7), what Python's strict "utf-8" codec decodes.
bool IsUtf8(std::string_view s) {
  size_t i = 0;
  while (i < s.size()) {
    const auto c = static_cast<uint8_t>(s[i]);
    size_t extra = 0;
    uint8_t lo = 0x80;
    uint8_t hi = 0xBF;
    if (c < 0x80) {
      ++i;
      continue;
    } else if (c >= 0xC2 && c <= 0xDF) {
      extra = 1;
    } else if (c == 0xE0) {
      extra = 2, lo = 0xA0;
    } else if (c == 0xED) {
      extra = 2, hi = 0x9F;
    } else if (c >= 0xE1 && c <= 0xEF) {
      extra = 2;
    } else if (c == 0xF0) {
      extra = 3, lo = 0x90;
    } else if (c == 0xF4) {
      extra = 3, hi = 0x8F;
    } else if (c >= 0xF1 && c <= 0xF3) {
      extra = 3;
    } else {
      return false;
    }
    if (s.size() - i <= extra) return false;
    const auto c1 = static_cast<uint8_t>(s[i + 1]);
    if (c1 < lo || c1 > hi) return false;
    for (size_t k = 2; k <= extra; ++k) {
      if ((static_cast<uint8_t>(s[i + k]) & 0xC0) != 0x80) return false;
    }
    i += 1 + extra;
  }
  return true;
}

// What pymongo 3.11's C extension decodes (bson/_cbsonmodule.c: _cbson_bson_to_dict,
// elements_to_dict, _element_to_dict, get_value), transcribed check for check with C's unsigned
// 32-bit arithmetic, to tell its one bounds bug from anything else: a document's elements are
// read while the position is below the end of its element list, and nothing checks that the
// last value ended there (an array's end is checked). A bool (read with no bound), a regex (its
// two NULs not counted against the bound) and a binary (its 5-byte header not counted) can so
// run into the document's terminating NUL, a binary up to 4 bytes past it: past the input's
// last byte at top level, a read out of bounds. Run() says kUnknown where the model does not
// follow (a byte it would read lies past the input, a "$ref" key (the DBRef hook), nesting past
// kWalkDepth).
class PymongoDecodeModel {
 public:
  enum class Verdict { kAccepts, kRejects, kUnknown };

  explicit PymongoDecodeModel(std::string_view in) : b_(in) {}

  Verdict Run() {
    if (b_.size() < 5) return Verdict::kRejects;
    const std::optional<uint32_t> size = U32(0);
    const auto n = static_cast<int32_t>(*size);
    if (n < 5 || b_.size() < static_cast<size_t>(n) || b_.size() > kBsonMaxSize ||
        static_cast<size_t>(n) != b_.size() || b_[b_.size() - 1] != '\0') {
      return Verdict::kRejects;
    }
    return Elements(4, static_cast<uint32_t>(n) - 5, 1, false);
  }
  // Some document's last value ran past the end of its element list (set by Run).
  bool overran() const { return overran_; }

 private:
  static constexpr uint64_t kBsonMaxSize = 2147483647;

  std::optional<uint8_t> Byte(uint64_t at) const {
    if (at >= b_.size()) return std::nullopt;
    return static_cast<uint8_t>(b_[at]);
  }
  std::optional<uint32_t> U32(uint64_t at) const {
    if (at > b_.size() || b_.size() - at < 4) return std::nullopt;
    uint32_t v;
    std::memcpy(&v, b_.data() + at, 4);  // little-endian host
    return v;
  }
  // strlen(buffer + at), when a NUL ends it inside the input.
  std::optional<uint64_t> StrLen(uint64_t at) const {
    if (at >= b_.size()) return std::nullopt;
    const size_t nul = b_.find('\0', at);
    if (nul == std::string_view::npos) return std::nullopt;
    return nul - at;
  }

  // elements_to_dict(buffer + start, max): the elements of a document or scope. dbref: a
  // document in a value (get_value case 3), where a "$ref" key makes a DBRef.
  Verdict Elements(uint64_t start, uint32_t max, int depth, bool dbref) {
    if (depth > kWalkDepth) return Verdict::kUnknown;
    uint32_t position = 0;
    while (position < max) {
      const std::optional<uint8_t> type = Byte(start + position);
      if (!type) return Verdict::kUnknown;
      ++position;
      const std::optional<uint64_t> name_length = StrLen(start + position);
      if (!name_length) return Verdict::kUnknown;
      if (*name_length > kBsonMaxSize || position + *name_length >= max) return Verdict::kRejects;
      const std::string_view name = b_.substr(start + position, *name_length);
      if (!IsUtf8(name)) return Verdict::kRejects;
      if (dbref && name == "$ref") return Verdict::kUnknown;
      position += static_cast<uint32_t>(*name_length) + 1;
      uint64_t at = start + position;
      const Verdict v = Value(*type, &at, max - position, depth);
      if (v != Verdict::kAccepts) return v;
      position = static_cast<uint32_t>(at - start);
    }
    if (position > max) overran_ = true;
    return Verdict::kAccepts;
  }

  // A string-like value (string, symbol, code; a DBPointer namespace): int32 length, bytes, NUL.
  Verdict StringValue(uint64_t* at, uint32_t max, uint32_t after) {
    if (max < 4) return Verdict::kRejects;
    const std::optional<uint32_t> len = U32(*at);
    if (!len) return Verdict::kUnknown;
    if (*len == 0 || max < *len || max < static_cast<uint32_t>(4 + *len + after)) {
      return Verdict::kRejects;
    }
    *at += 4;
    const std::optional<uint8_t> last = Byte(*at + *len - 1);
    if (!last) return Verdict::kUnknown;
    if (*last != 0) return Verdict::kRejects;
    if (!IsUtf8(b_.substr(*at, *len - 1))) return Verdict::kRejects;
    *at += *len;
    return Verdict::kAccepts;
  }

  // get_value(buffer, &position, type, max).
  Verdict Value(uint8_t type, uint64_t* at, uint32_t max, int depth) {
    auto fixed = [&](uint32_t n) {
      if (max < n) return Verdict::kRejects;
      *at += n;
      return Verdict::kAccepts;
    };
    switch (type) {
      case 0x01:
      case 0x11:
      case 0x12:
        return fixed(8);
      case 0x07:
        return fixed(12);
      case 0x10:
        return fixed(4);
      case 0x13:
        return fixed(16);
      case 0x06:
      case 0x0A:
      case 0x7F:
      case 0xFF:
        return Verdict::kAccepts;
      case 0x02:
      case 0x0D:
      case 0x0E:
        return StringValue(at, max, 0);
      case 0x0C: {
        const Verdict v = StringValue(at, max, 12);
        if (v == Verdict::kAccepts) *at += 12;
        return v;
      }
      case 0x08: {  // no bound checked
        const std::optional<uint8_t> v = Byte(*at);
        if (!v) return Verdict::kUnknown;
        *at += 1;
        return *v <= 1 ? Verdict::kAccepts : Verdict::kRejects;
      }
      case 0x09: {  // a datetime.datetime: years 1..9999
        if (max < 8) return Verdict::kRejects;
        if (*at > b_.size() || b_.size() - *at < 8) return Verdict::kUnknown;
        int64_t ms;
        std::memcpy(&ms, b_.data() + *at, 8);
        *at += 8;
        return ms >= -62135596800000 && ms <= 253402300799999 ? Verdict::kAccepts
                                                              : Verdict::kRejects;
      }
      case 0x03:
      case 0x04: {
        if (max < 4) return Verdict::kRejects;
        const std::optional<uint32_t> size = U32(*at);
        if (!size) return Verdict::kUnknown;
        if (*size < 5 || max < *size) return Verdict::kRejects;
        const uint64_t end = *at + *size - 1;
        const std::optional<uint8_t> eoo = Byte(end);
        if (!eoo) return Verdict::kUnknown;
        if (*eoo != 0) return Verdict::kRejects;
        if (type == 0x03) {
          const Verdict v = Elements(*at + 4, *size - 5, depth + 1, true);
          if (v == Verdict::kAccepts) *at += *size;
          return v;
        }
        if (depth + 1 > kWalkDepth) return Verdict::kUnknown;
        *at += 4;
        while (*at < end) {  // an array: keys skipped, values bounded by the array's max
          const std::optional<uint8_t> t = Byte(*at);
          if (!t) return Verdict::kUnknown;
          *at += 1;
          const std::optional<uint64_t> key_size = StrLen(*at);
          if (!key_size) return Verdict::kUnknown;
          if (max < *key_size) return Verdict::kRejects;
          *at += *key_size + 1;
          const Verdict v = Value(*t, at, max - static_cast<uint32_t>(*key_size), depth + 1);
          if (v != Verdict::kAccepts) return v;
        }
        if (*at != end) return Verdict::kRejects;
        *at += 1;
        return Verdict::kAccepts;
      }
      case 0x05: {  // the bound forgets the 5-byte header
        if (max < 5) return Verdict::kRejects;
        const std::optional<uint32_t> length = U32(*at);
        const std::optional<uint8_t> subtype = Byte(*at + 4);
        if (!length || !subtype) return Verdict::kUnknown;
        if (max < *length) return Verdict::kRejects;
        *at += 5;
        if (*subtype == 0x02) {
          if (*length < 4) return Verdict::kRejects;
          const std::optional<uint32_t> inner = U32(*at);
          if (!inner) return Verdict::kUnknown;
          if (*inner != *length - 4) return Verdict::kRejects;
        }
        if ((*subtype == 0x03 || *subtype == 0x04) && *length != 16) return Verdict::kRejects;
        *at += *length;
        return Verdict::kAccepts;
      }
      case 0x0B: {  // the bound forgets the two NULs
        const std::optional<uint64_t> pattern = StrLen(*at);
        if (!pattern) return Verdict::kUnknown;
        if (*pattern > kBsonMaxSize || max < *pattern) return Verdict::kRejects;
        if (!IsUtf8(b_.substr(*at, *pattern))) return Verdict::kRejects;
        *at += *pattern + 1;
        const std::optional<uint64_t> flags = StrLen(*at);  // read byte by byte, never decoded
        if (!flags) return Verdict::kUnknown;
        if (*flags > kBsonMaxSize || kBsonMaxSize - *pattern < *flags || max < *pattern + *flags) {
          return Verdict::kRejects;
        }
        *at += *flags + 1;
        return Verdict::kAccepts;
      }
      case 0x0F: {
        if (max < 8) return Verdict::kRejects;
        const std::optional<uint32_t> total = U32(*at);
        if (!total) return Verdict::kUnknown;
        *at += 4;
        if (max < *total) return Verdict::kRejects;
        const std::optional<uint32_t> code = U32(*at);
        if (!code) return Verdict::kUnknown;
        if (*code == 0 || max < *code || max < static_cast<uint32_t>(4 + 4 + *code + 4)) {
          return Verdict::kRejects;
        }
        *at += 4;
        const std::optional<uint8_t> code_nul = Byte(*at + *code - 1);
        if (!code_nul) return Verdict::kUnknown;
        if (*code_nul != 0 || !IsUtf8(b_.substr(*at, *code - 1))) return Verdict::kRejects;
        *at += *code;
        const std::optional<uint32_t> scope = U32(*at);
        if (!scope) return Verdict::kUnknown;
        if (*scope < 5 || static_cast<uint32_t>(4 + *code + 4 + *scope) != *total) {
          return Verdict::kRejects;
        }
        const std::optional<uint8_t> eoo = Byte(*at + *scope - 1);
        if (!eoo) return Verdict::kUnknown;
        if (*eoo != 0) return Verdict::kRejects;
        const Verdict v = Elements(*at + 4, *scope - 5, depth + 1, false);
        if (v == Verdict::kAccepts) *at += *scope;
        return v;
      }
      default:  // "Detected unknown BSON type"
        return Verdict::kRejects;
    }
  }

  std::string_view b_;
  bool overran_ = false;
};

}  // namespace

// The input with the cstrings the peer leaves unchecked blanked (Sanitizer), or nullopt.
std::optional<std::string> BlankUncheckedUtf8(std::string_view bson, bool pymongo) {
  std::string out(bson);
  Sanitizer s(&out, pymongo ? kPymongoUnchecked : kJsBsonUnchecked);
  if (!s.Document(0, out.size(), false, 1)) return std::nullopt;
  return out;
}

std::vector<harness::Divergence<Document>> PeerEncodeDivergences() {
  std::vector<harness::Divergence<Document>> out;
  // pymongo: bson.encode after json_util.loads (or bson.decode, for a document sent as bytes).
  out.push_back(
      {"pymongo",
       "on purpose: pymongo has no value for BSON undefined (deprecated): json_util and "
       "bson.decode read it as None, which bson.encode writes as null, {\"u\": undefined}: "
       "serdiff 08000000 06 7500 00, pymongo 08000000 0a 7500 00 (the rest of the document "
       "as serdiff writes it, checked by rebuilding what pymongo writes)",
       [](const Document& doc, const Output& opt, const Output& other) {
         return HasType(doc, Type::kUndefined) && PymongoWroteItsModel(doc, opt, other);
       }});
  out.push_back(
      {"pymongo",
       "on purpose: pymongo reads a DBPointer (deprecated) as bson.dbref.DBRef and writes it as "
       "the document {\"$ref\": ns, \"$id\": id}, {\"p\": dbpointer \"c\" "
       "000102030405060708090a0b}: serdiff 1a000000 0c 7000 02000000 6300 "
       "000102030405060708090a0b 00, pymongo 2a000000 03 7000 22000000 02 2472656600 02000000 "
       "6300 07 24696400 000102030405060708090a0b 00 00",
       [](const Document& doc, const Output& opt, const Output& other) {
         return HasType(doc, Type::kDbPointer) && PymongoWroteItsModel(doc, opt, other);
       }});
  out.push_back(
      {"pymongo",
       "on purpose: pymongo reads a symbol (deprecated) as str and writes it as a string, "
       "{\"s\": symbol \"sym\"}: serdiff 10000000 0e 7300 04000000 73796d00 00, pymongo "
       "10000000 02 7300 04000000 73796d00 00",
       [](const Document& doc, const Output& opt, const Output& other) {
         return HasType(doc, Type::kSymbol) && PymongoWroteItsModel(doc, opt, other);
       }});
  out.push_back(
      {"pymongo",
       "on purpose: bson.encode writes a top-level \"_id\" first (MongoDB's rule for stored "
       "documents), the other elements in order; BSON keeps the document's order, {\"a\": int32 "
       "1, \"_id\": int32 2}: serdiff 15000000 10 6100 01000000 10 5f696400 02000000 00, "
       "pymongo 15000000 10 5f696400 02000000 10 6100 01000000 00",
       [](const Document& doc, const Output& opt, const Output& other) {
         return TopLevelIdNotFirst(doc) && PymongoWroteItsModel(doc, opt, other);
       }});
  out.push_back(
      {"pymongo",
       "on purpose: bson.regex.Regex holds the options as re flags and writes back the letters "
       "of \"ilmsux\" it holds, once each: a repeat and any other byte are dropped, where "
       "serdiff writes every option byte it is given, sorted (BSON 1.1), {\"r\": regex "
       "/abc/xix}: serdiff 10000000 0b 7200 61626300 69787800 00, pymongo 0f000000 0b 7200 "
       "61626300 697800 00",
       [](const Document& doc, const Output& opt, const Output& other) {
         return HasRegexOptionsPymongoRewrites(doc) && PymongoWroteItsModel(doc, opt, other);
       }});
  out.push_back(
      {"pymongo",
       "bug of pymongo 3.11's C extension (docs/bson.md): bson.encode of a Binary of subtype "
       "0xFF raises SystemError (\"_dict_to_bson returned NULL without setting an "
       "exception\"); its pure-Python encoder writes what serdiff writes, {\"b\": binary "
       "subtype 255 010203}: serdiff 10000000 05 6200 03000000 ff 010203 00, pymongo "
       "SystemError (regression input corpus/bson_encode/regressions/)",
       [](const Document& doc, const Output& opt, const Output& other) {
         return HasBinarySubtype(doc, 0xFF) && PeerRejectedSaying(opt, other, "SystemError");
       }});
  // js_bson: EJSON.parse (or BSON.deserialize, for bytes) then BSON.serialize.
  out.push_back(
      {"js_bson",
       "on purpose: js-bson's BSONRegExp refuses an option outside i, l, m, s, u, x (\"The "
       "regular expression option [q] is not supported\"); BSON 1.1 and serdiff take any "
       "option byte, sorted, {\"r\": regex /abc/q}: serdiff 0e000000 0b 7200 61626300 7100 00, "
       "js-bson rejects it",
       [](const Document& doc, const Output& opt, const Output& other) {
         return HasRegexOptionOutsideIlmsux(doc) &&
                PeerRejectedSaying(opt, other, "The regular expression option [");
       }});
  out.push_back(
      {"js_bson",
       "on purpose: EJSON.parse reads a $binary of subtype 04 as a UUID, which must be 16 "
       "bytes (\"Argument passed in UUID constructor must be a UUID, a 16 byte Buffer or ...\"); "
       "BSON 1.1 sets no length (and BSON.deserialize takes it), {\"a\": binary subtype 4 "
       "010203}: serdiff 10000000 05 6100 03000000 04 010203 00, js-bson rejects",
       [](const Document& doc, const Output& opt, const Output& other) {
         return HasUuidNot16Bytes(doc, false) &&
                PeerRejectedSaying(opt, other, "Argument passed in UUID constructor");
       }});
  return out;
}

std::vector<harness::Divergence<std::string>> PeerDecodeDivergences() {
  std::vector<harness::Divergence<std::string>> out;
  out.push_back(
      {"pymongo",
       "on purpose: bson.decode (C extension) reads an array as a list and skips its keys "
       "unread, and reads a regex's options byte by byte as re flags, so it checks the UTF-8 "
       "of neither; serdiff checks every key and cstring (BSON 1.1: UTF-8), "
       "{\"a\": [null]} with the array key ff: 10000000 04 6100 08000000 0a ff00 00 00, "
       "serdiff rejects at offset 12, pymongo accepts (covered: the input validates once "
       "those bytes are blanked)",
       [](const std::string& in, const Output& opt, const Output& other) {
         return PeerSkipsTheCheck(in, opt, other, /*pymongo=*/true, sb::kDefaultMaxDepth);
       }});
  out.push_back(
      {"pymongo",
       "on purpose (serdiff's): serdiff rejects nesting deeper than 100 levels (the limit the "
       "spec recommends, kDefaultMaxDepth), pymongo's C extension reads to Python's recursion "
       "limit, e.g. {\"d\": {\"d\": ...}} 101 levels deep: serdiff rejects at the 101st "
       "level's length, pymongo accepts (covered: the input validates with no depth limit, "
       "array keys and regex options blanked as above)",
       [](const std::string& in, const Output& opt, const Output& other) {
         return PeerSkipsTheCheck(in, opt, other, /*pymongo=*/true, kWalkDepth);
       }});
  out.push_back(
      {"pymongo",
       "bug of pymongo 3.11's C extension: its decoder reads a document's elements while the "
       "position is below the end of the element list and never checks that the last value "
       "ended there; a bool (no bound), a regex (its two NULs not counted) or a binary (its "
       "5-byte header not counted) may run into the terminating NUL, a binary up to 4 bytes "
       "past it, which at the end of the input is a read past the buffer, {\"a\": bool} whose "
       "value byte is the terminator: 08000000 08 6100 00, serdiff rejects at offset 7 "
       "(regression input corpus/bson_decode/regressions/), and 0d000000 05 6100 05000000 00 "
       "00, a binary of 5 bytes of which 4 lie past the input: pymongo accepts both (covered: "
       "a transcription of its decoder's checks accepts the input and sees a value overrun)",
       [](const std::string& in, const Output& opt, const Output& other) {
         if (opt.ok() || !other.ok()) return false;
         PymongoDecodeModel model(in);
         return model.Run() == PymongoDecodeModel::Verdict::kAccepts && model.overran();
       }});
  out.push_back(
      {"pymongo",
       "on purpose: pymongo 3.11's C extension refuses a binary of subtype 0x03 or 0x04 (UUID) "
       "that is not 16 bytes (\"invalid length or type code\"; its pure-Python decoder takes "
       "it); BSON 1.1 sets no length for them, {\"a\": binary subtype 4 616263}: 10000000 05 "
       "6100 03000000 04 616263 00, serdiff accepts, pymongo rejects",
       [](const std::string& in, const Output& opt, const Output& other) {
         if (!PeerRejectedSaying(opt, other, "invalid length or type code")) return false;
         const std::optional<Document> doc = Decoded(in);
         return doc.has_value() && HasUuidNot16Bytes(*doc, true);
       }});
  out.push_back(
      {"pymongo",
       "bug of pymongo 3.11's C extension: bson.decode reads a binary of subtype 0xFF, and "
       "writing it back (the worker re-encodes what it read) raises SystemError, "
       "0e000000 05 6200 01000000 ff 01 00: serdiff accepts, pymongo's answer is that "
       "SystemError (the bson_encode entry's bug)",
       [](const std::string& in, const Output& opt, const Output& other) {
         if (!PeerRejectedSaying(opt, other, "SystemError")) return false;
         const std::optional<Document> doc = Decoded(in);
         return doc.has_value() && HasBinarySubtype(*doc, 0xFF);
       }});
  out.push_back(
      {"js_bson",
       "on purpose: BSON.deserialize's validation {utf8: true} covers string values only; keys "
       "(of documents and arrays) and regex patterns are read as UTF-8 with U+FFFD for what is "
       "ill-formed, {\"\\xe9\": null}: 08000000 0a e900 00, serdiff rejects at offset 5, "
       "js-bson accepts (covered: the input validates once those bytes are blanked)",
       [](const std::string& in, const Output& opt, const Output& other) {
         return PeerSkipsTheCheck(in, opt, other, /*pymongo=*/false, sb::kDefaultMaxDepth);
       }});
  out.push_back(
      {"js_bson",
       "on purpose (serdiff's): serdiff rejects nesting deeper than 100 levels (the limit the "
       "spec recommends), js-bson has none, e.g. {\"d\": {\"d\": ...}} 101 levels deep: serdiff "
       "rejects, js-bson accepts (covered: the input validates with no depth limit, keys and "
       "regex patterns blanked as above)",
       [](const std::string& in, const Output& opt, const Output& other) {
         return PeerSkipsTheCheck(in, opt, other, /*pymongo=*/false, kWalkDepth);
       }});
  out.push_back(
      {"js_bson",
       "on purpose: BSON.deserialize builds a BSONRegExp, which refuses an option outside i, "
       "l, m, s, u, x (\"The regular expression option [a] is not supported\"); BSON 1.1 and "
       "serdiff take any UTF-8 option, 0c000000 0b 7200 6100 6100 00: serdiff accepts, "
       "js-bson rejects",
       [](const std::string& in, const Output& opt, const Output& other) {
         if (!PeerRejectedSaying(opt, other, "The regular expression option [")) return false;
         const std::optional<Document> doc = Decoded(in);
         return doc.has_value() && HasRegexOptionOutsideIlmsux(*doc);
       }});
  return out;
}

std::vector<harness::OffsetExemption> PeerDecodeOffsetExemptions() {
  return {
      {"pymongo", "bson.decode raises InvalidBSON with a message only, no position"},
      {"js_bson", "BSON.deserialize throws a BSONError with a message only, no position"},
  };
}

}  // namespace serdiff::targets::bson
