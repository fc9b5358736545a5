// BSON family: the accepted divergences of pymongo (oracles/pymongo: pymongo's bson 3.11 with
// its C extension, a worker, docs/workers.md), in bson_encode and bson_decode, and the models
// their predicates check pymongo's answers against: what bson.encode writes
// (PymongoEncodeModel, declared in targets/bson/divergences.h) and what its C decoder accepts
// (PymongoDecodeModel). docs/peers.md ("## BSON") lists each; divergences.h says how the
// predicates work; divergences.cc holds what this file shares with js_bson's.
#include <algorithm>
#include <cstdint>
#include <cstring>
#include <optional>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "absl/status/statusor.h"
#include "harness/target.h"
#include "reference/bson/bson_ref.h"
#include "serdiff/bson/codec.h"
#include "serdiff/bson/document.h"
#include "targets/bson/divergences.h"
#include "targets/bson/domain.h"
#include "targets/bson/internal.h"

namespace serdiff::targets::bson {

namespace {

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
    std::string sorted = v.s2.get();
    std::sort(sorted.begin(), sorted.end());
    return sorted != PymongoRegexOptions(v.s2.get());
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
      id.s = v.s2.get();
      return sb::SubDocument({Element{"$ref", sb::String(v.s)}, Element{"$id", std::move(id)}});
    }
    case Type::kRegex: {
      Value out = v;
      out.s2 = PymongoRegexOptions(v.s2.get());
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

}  // namespace

// The bytes pymongo's bson.encode writes for the document serdiff sent it (as Extended JSON or
// as bytes); nullopt where this model does not say (a key twice, a document the reference
// encoder rejects). A top-level "_id" is written first (the C extension's top_level rule).
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

PymongoDecodeVerdict PymongoDecode(std::string_view in, bool* overran) {
  PymongoDecodeModel model(in);
  const PymongoDecodeModel::Verdict v = model.Run();
  *overran = model.overran();
  switch (v) {
    case PymongoDecodeModel::Verdict::kAccepts:
      return PymongoDecodeVerdict::kAccepts;
    case PymongoDecodeModel::Verdict::kRejects:
      return PymongoDecodeVerdict::kRejects;
    case PymongoDecodeModel::Verdict::kUnknown:
      break;
  }
  return PymongoDecodeVerdict::kUnknown;
}

// Array keys and regex options (bson.decode reads an array as a list and a regex's options as
// re flags).
const Unchecked kPymongoUnchecked{false, true, false, true};

std::vector<harness::Divergence<Document>> PymongoEncodeDivergences() {
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
  // Held at their edges: the nearest documents pymongo writes as the spec says (the type next
  // to the one it rewrites; "_id" already first, or not at the top; options it keeps), each
  // with what pymongo's model writes there, and subtype 0xFE with the SystemError.
  auto edge = [](std::string text) {
    const Document doc = DocumentOf(text);
    const std::optional<std::string> model = PymongoEncodeModel(doc);
    return harness::DivergenceEdge<Document>{
        text, doc, *sb::Encode(doc),
        model ? Output(*model) : Output(Rejection("outside the model"))};
  };
  out[0].edges = [edge] { return std::vector{edge(R"({"u": null})")}; };
  out[1].edges = [edge] { return std::vector{edge(R"({"p": string "c"})")}; };
  out[2].edges = [edge] { return std::vector{edge(R"({"s": string "sym"})")}; };
  out[3].edges = [edge] {
    return std::vector{edge(R"({"_id": int32 2, "a": int32 1})"),
                       edge(R"({"d": document{"a": int32 1, "_id": int32 2}})")};
  };
  out[4].edges = [edge] { return std::vector{edge(R"({"r": regex /abc/ilmsux})")}; };
  out[5].edges = [] {
    const Document doc = DocumentOf(R"({"b": binary subtype 254 010203})");
    return std::vector<harness::DivergenceEdge<Document>>{
        {"binary subtype 0xFE", doc, *sb::Encode(doc),
         Rejection("SystemError: <built-in function _dict_to_bson> returned NULL")}};
  };
  return out;
}

std::vector<harness::Divergence<std::string>> PymongoDecodeDivergences() {
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
  // Held at their edges (an input serdiff rejects is given with its own rejection; one the
  // spec accepts with a rejection, as a planted bug in serdiff would give).
  out[0].edges = [] {
    const std::string key = BytesOfHex("080000000aff0000");  // a document key ff: pymongo checks it
    const std::string str = BytesOfHex("0e00000002610002000000ff0000");  // a string value ff
    const std::string valid = BytesOfHex("090000000861000100");
    return std::vector<harness::DivergenceEdge<std::string>>{
        {"a document key ff, which pymongo checks", key, sb::Validate(key), key},
        {"a string value ff, which pymongo checks", str, sb::Validate(str), str},
        {"{\"a\": true}, valid", valid, Rejection("planted"), valid}};
  };
  out[1].edges = DepthEdges;
  out[2].edges = [] {
    // The last value ends exactly at its document's end: no overrun.
    const std::string flag = BytesOfHex("090000000861000100");
    const std::string binary = BytesOfHex("0e00000005610001000000000100");
    return std::vector<harness::DivergenceEdge<std::string>>{
        {"{\"a\": true}: the bool ends at the document's end", flag, Rejection("planted"), flag},
        {"a 1-byte binary ending at the document's end", binary, Rejection("planted"), binary}};
  };
  out[3].edges = [] {
    const std::string uuid =
        BytesOfHex("1d000000056100100000000400112233445566778899aabbccddeeff00");
    const std::string md5 = BytesOfHex("10000000056100030000000561626300");  // subtype 5, 3 bytes
    return std::vector<harness::DivergenceEdge<std::string>>{
        {"a UUID of 16 bytes", uuid, uuid, Rejection("invalid length or type code")},
        {"a binary of subtype 5 and 3 bytes", md5, md5, Rejection("invalid length or type code")}};
  };
  out[4].edges = [] {
    const std::string fe = BytesOfHex("0e00000005620001000000fe0100");
    return std::vector<harness::DivergenceEdge<std::string>>{
        {"binary subtype 0xFE", fe, fe, Rejection("SystemError")}};
  };
  return out;
}

harness::OffsetExemption PymongoDecodeOffsetExemption() {
  return {"pymongo", "bson.decode raises InvalidBSON with a message only, no position"};
}

}  // namespace serdiff::targets::bson
