// BSON family: what the accepted divergences of the workers pymongo (oracles/pymongo, pymongo's
// bson 3.11 with its C extension) and js_bson (oracles/js_bson, npm bson 7.3.4) share (declared
// in targets/bson/internal.h); each peer's entries are in that peer's file,
// divergences_pymongo.cc and divergences_js_bson.cc (declared in divergences.h). docs/peers.md ("##
// BSON") lists each with its example and its kind (on purpose or a bug). What a peer cannot take at
// all (an API limit: a Python datetime past year 9999, a JS Date past 8.64e15 ms, a key twice in
// one document) its worker declines instead, so it is not here.
//
// Every predicate recomputes what the peer answers from the input and holds only when the
// peer's answer is exactly that: an encode divergence rebuilds the document the peer writes
// (PymongoEncodeModel) and compares bytes; a decode divergence that lets the peer accept what
// serdiff rejects re-validates the input with serdiff's own Validate after blanking, in place,
// only the bytes the peer does not check (BlankUncheckedUtf8, here), or, for pymongo's bounds
// bug, runs a transcription of its C decoder's checks (PymongoDecodeModel); one that lets the
// peer reject what serdiff accepts needs both the feature in the decoded document and the
// peer's own error text for it. tests/interchange_test.cc ("InterchangePeers") shows each on
// its example and on a nearby answer it does not cover.
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <functional>
#include <optional>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "absl/status/statusor.h"
#include "absl/strings/escaping.h"
#include "absl/strings/match.h"
#include "absl/strings/string_view.h"
#include "harness/target.h"
#include "reference/bson/bson_ref.h"
#include "serdiff/bson/codec.h"
#include "serdiff/bson/document.h"
#include "targets/bson/divergences.h"
#include "targets/bson/domain.h"
#include "targets/bson/internal.h"

namespace serdiff::targets::bson {

// ---- walking a decoded document --------------------------------------------------------------

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

bool HasUuidNot16Bytes(const Document& doc, bool old_too) {
  return AnyValue(doc.elements, [old_too](const Value& v) {
    return v.type == Type::kBinary && (v.subtype == 0x04 || (old_too && v.subtype == 0x03)) &&
           v.s.size() != 16;
  });
}

std::optional<Document> Decoded(std::string_view in) {
  absl::StatusOr<Document> doc = sb::Decode(in);
  if (!doc.ok()) return std::nullopt;
  return *std::move(doc);
}

// ---- a peer's answer -------------------------------------------------------------------------

bool PeerRejectedSaying(const Output& opt, const Output& other, absl::string_view text) {
  return opt.ok() && !other.ok() && !harness::IsDeclined(other.status()) &&
         absl::StrContains(other.status().message(), text);
}

// ---- the raw bytes a peer's decoder does not check for UTF-8 -------------------------------

namespace {

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
      case Type::kSymbol: {
        const std::optional<size_t> end = StringEnd(at, last);
        if (end && u_.string_values) Blank(at + 4, *end - 1);
        return end;
      }
      case Type::kDbPointer: {
        std::optional<size_t> end = StringEnd(at, last);
        if (!end || last - *end < 12) return std::nullopt;
        if (u_.string_values) Blank(at + 4, *end - 1);
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
        if (u_.old_binary_inner_length && b_[at + 4] == '\x02') b_[at + 4] = '\x00';
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
        if (u_.string_values) Blank(at + 8, *code_end - 1);
        if (u_.code_terminator) b_[*code_end - 1] = '\0';
        return end;
      }
    }
    return std::nullopt;  // an unknown type byte
  }

  std::string& b_;
  Unchecked u_;
};

}  // namespace

// The input with the cstrings the peer leaves unchecked blanked (Sanitizer), or nullopt.
std::optional<std::string> BlankUncheckedUtf8(std::string_view bson, bool pymongo) {
  std::string out(bson);
  Sanitizer s(&out, pymongo ? kPymongoUnchecked : kJsBsonUnchecked);
  if (!s.Document(0, out.size(), false, 1)) return std::nullopt;
  return out;
}

bool PeerSkipsTheCheck(std::string_view in, const Output& opt, const Output& other, bool pymongo,
                       int max_depth) {
  return PeerSkipsTheCheck(in, opt, other, pymongo ? kPymongoUnchecked : kJsBsonUnchecked,
                           max_depth);
}

bool PeerSkipsTheCheck(std::string_view in, const Output& opt, const Output& other,
                       const Unchecked& unchecked, int max_depth) {
  if (opt.ok() || !other.ok()) return false;
  // Only where the spec rejects the input too: what the reference accepts and serdiff's
  // optimized side rejects is serdiff's bug, whatever the peer says.
  if (ref::bson::Validate(in).ok()) return false;
  std::optional<std::string> blanked(std::string{in});
  if (!Sanitizer(&*blanked, unchecked).Document(0, blanked->size(), false, 1)) return false;
  sb::DecodeOptions options;
  options.max_depth = max_depth;
  return sb::Validate(*blanked, options).ok();
}

// ---- the edges of the divergences --------------------------------------------------------------

Document DocumentOf(std::string_view text) {
  absl::StatusOr<Document> doc = ParseDocument(text);
  if (!doc.ok()) {
    std::fprintf(stderr, "targets/bson: the edge %.*s does not parse: %s\n",
                 static_cast<int>(text.size()), text.data(), doc.status().ToString().c_str());
    std::abort();
  }
  return *std::move(doc);
}

std::string BytesOfHex(std::string_view hex) {
  return absl::HexStringToBytes(absl::string_view(hex.data(), hex.size()));
}

Document NestedDocument(int levels) {
  Document doc;
  for (int i = 1; i < levels; ++i) {
    Value v;
    v.type = Type::kDocument;
    v.children = std::move(doc.elements);
    doc.elements.clear();
    doc.elements.push_back({"d", std::move(v)});
  }
  return doc;
}

std::string NestedBytes(int levels) {
  auto le32 = [](uint32_t n) {
    return std::string{static_cast<char>(n), static_cast<char>(n >> 8), static_cast<char>(n >> 16),
                       static_cast<char>(n >> 24)};
  };
  std::string doc = le32(5) + std::string(1, '\0');  // the innermost, empty
  for (int i = 1; i < levels; ++i) {
    const std::string body = std::string(
                                 "\x03"
                                 "d",
                                 2) +
                             std::string(1, '\0') + doc;
    doc = le32(static_cast<uint32_t>(body.size() + 5)) + body + std::string(1, '\0');
  }
  return doc;
}

Output Rejection(std::string message) { return absl::InvalidArgumentError(std::move(message)); }

std::vector<harness::DivergenceEdge<std::string>> DepthEdges() {
  const std::string deep = NestedBytes(100);
  const std::string past = NestedBytes(kWalkDepth + 1);
  return {{"100 levels deep, the limit itself", deep, Rejection("too deep"), deep},
          {"1,001 levels deep, past the walk's limit", past, sb::Validate(past), past}};
}

}  // namespace serdiff::targets::bson
