// serdiff::bson document model: every BSON 1.1 element type (docs/bson.md, "Layout").
//
// Plain data, shared by the optimized codec (codec.h) and the reference (reference/bson).
// One Value struct holds any element; which fields are meaningful depends on `type`:
//
//   type                  fields used
//   kDouble        0x01   d (compared bit for bit, so NaN payloads and -0.0 are kept)
//   kString        0x02   s (UTF-8; may contain NUL bytes)
//   kDocument      0x03   children (keys as given)
//   kArray         0x04   children (keys ignored by the encoders: "0", "1", ... are written);
//                         or, when subtype != 0, a packed array: see "Packed arrays" below
//   kBinary        0x05   subtype, s (payload; subtype 0x02 adds its inner length on the wire)
//   kUndefined     0x06   -
//   kObjectId      0x07   s (exactly 12 bytes)
//   kBool          0x08   i (0 or 1)
//   kDateTime      0x09   civil set: the encoders convert it to ms with the timestamp family
//                         (floor); civil unset: i is the int64 ms since the epoch
//   kNull          0x0A   -
//   kRegex         0x0B   s (pattern), s2 (options); neither may contain NUL
//   kDbPointer     0x0C   s (namespace string), s2 (exactly 12 bytes of ObjectId)
//   kCode          0x0D   s
//   kSymbol        0x0E   s
//   kCodeWithScope 0x0F   s (code), children (scope document)
//   kInt32         0x10   i (in int32 range)
//   kTimestamp     0x11   i (the uint64 bit pattern: increment low 32 bits, seconds high)
//   kInt64         0x12   i
//   kDecimal128    0x13   s (exactly 16 bytes, opaque, as on the wire: low 64 bits first)
//   kMinKey        0xFF   -
//   kMaxKey        0x7F   -
#pragma once

#include <cstdint>
#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "absl/types/span.h"
#include "serdiff/timestamp/timestamp.h"

namespace serdiff::bson {

enum class Type : uint8_t {
  kDouble = 0x01,
  kString = 0x02,
  kDocument = 0x03,
  kArray = 0x04,
  kBinary = 0x05,
  kUndefined = 0x06,
  kObjectId = 0x07,
  kBool = 0x08,
  kDateTime = 0x09,
  kNull = 0x0A,
  kRegex = 0x0B,
  kDbPointer = 0x0C,
  kCode = 0x0D,
  kSymbol = 0x0E,
  kCodeWithScope = 0x0F,
  kInt32 = 0x10,
  kTimestamp = 0x11,
  kInt64 = 0x12,
  kDecimal128 = 0x13,
  kMinKey = 0xFF,
  kMaxKey = 0x7F,
};

// All 21 element types, in type-byte order (min key last).
inline constexpr Type kAllTypes[] = {
    Type::kDouble,    Type::kString,    Type::kDocument, Type::kArray,      Type::kBinary,
    Type::kUndefined, Type::kObjectId,  Type::kBool,     Type::kDateTime,   Type::kNull,
    Type::kRegex,     Type::kDbPointer, Type::kCode,     Type::kSymbol,     Type::kCodeWithScope,
    Type::kInt32,     Type::kTimestamp, Type::kInt64,    Type::kDecimal128, Type::kMaxKey,
    Type::kMinKey};

// True for the type bytes BSON 1.1 defines (kAllTypes).
bool IsKnownType(uint8_t byte);
// "double", "string", ..., "maxkey"; "unknown" for other bytes.
std::string_view TypeName(Type t);

// Binary subtype 0x02 ("binary, old"): the payload is preceded by its own int32 length.
inline constexpr uint8_t kBinarySubtypeOld = 0x02;

struct Element;

// The two fields that few types use are kept out of line, so that a Value is 96 bytes and an
// Element 128 (it was 176): a decoded element can be 2 input bytes (a null with an empty key),
// and the decoder's model stays within 64 bytes per input byte (docs/bson.md, "Decoder heap").
//
// OutOfLineString: a string that allocates only when non-empty. Read it with get() (an empty
// string when unset), write it with mut() (allocates) or by assignment. Copies are deep; an
// empty value and an unset one are the same value (==, get()).
class OutOfLineString {
 public:
  OutOfLineString() = default;
  OutOfLineString(std::string_view s) { *this = s; }  // NOLINT: implicit, like std::string's
  OutOfLineString(const OutOfLineString& o) { *this = o.get(); }
  OutOfLineString(OutOfLineString&&) noexcept = default;
  OutOfLineString& operator=(const OutOfLineString& o) {
    if (this != &o) *this = std::string_view(o.get());
    return *this;
  }
  OutOfLineString& operator=(OutOfLineString&&) noexcept = default;
  OutOfLineString& operator=(std::string_view s) {
    if (s.empty()) {
      p_.reset();
    } else if (p_) {
      p_->assign(s);
    } else {
      p_ = std::make_unique<std::string>(s);
    }
    return *this;
  }
  OutOfLineString& operator=(const std::string& s) { return *this = std::string_view(s); }
  OutOfLineString& operator=(const char* s) { return *this = std::string_view(s); }
  // The string; a reference to one shared empty string while unset. Valid until the next
  // write.
  const std::string& get() const { return p_ ? *p_ : Empty(); }
  // The string, to write in place (allocates it when unset).
  std::string& mut() {
    if (!p_) p_ = std::make_unique<std::string>();
    return *p_;
  }
  size_t size() const { return p_ ? p_->size() : 0; }
  bool empty() const { return size() == 0; }
  friend bool operator==(const OutOfLineString& a, const OutOfLineString& b) {
    return a.get() == b.get();
  }

 private:
  static const std::string& Empty() {
    static const std::string* const kEmpty = new std::string();
    return *kEmpty;
  }
  std::unique_ptr<std::string> p_;
};

// OutOfLineOptional<T>: std::optional's interface (has_value, *, ->, emplace, reset,
// assignment of a T or std::nullopt, ==) with the T on the heap while set. Copies are deep.
template <typename T>
class OutOfLineOptional {
 public:
  OutOfLineOptional() = default;
  OutOfLineOptional(std::nullopt_t) {}  // NOLINT: implicit, like std::optional's
  OutOfLineOptional(const T& v) : p_(std::make_unique<T>(v)) {}  // NOLINT: as above
  OutOfLineOptional(const OutOfLineOptional& o) : p_(o.p_ ? std::make_unique<T>(*o.p_) : nullptr) {}
  OutOfLineOptional(OutOfLineOptional&&) noexcept = default;
  OutOfLineOptional& operator=(const OutOfLineOptional& o) {
    if (this != &o) p_ = o.p_ ? std::make_unique<T>(*o.p_) : nullptr;
    return *this;
  }
  OutOfLineOptional& operator=(OutOfLineOptional&&) noexcept = default;
  OutOfLineOptional& operator=(const T& v) {
    if (p_) {
      *p_ = v;
    } else {
      p_ = std::make_unique<T>(v);
    }
    return *this;
  }
  OutOfLineOptional& operator=(std::nullopt_t) {
    p_.reset();
    return *this;
  }
  bool has_value() const { return p_ != nullptr; }
  explicit operator bool() const { return has_value(); }
  // Precondition for *, -> and value(): has_value().
  const T& operator*() const { return *p_; }
  T& operator*() { return *p_; }
  const T* operator->() const { return p_.get(); }
  T* operator->() { return p_.get(); }
  T& emplace() {
    p_ = std::make_unique<T>();
    return *p_;
  }
  void reset() { p_.reset(); }
  friend bool operator==(const OutOfLineOptional& a, const OutOfLineOptional& b) {
    if (a.has_value() != b.has_value()) return false;
    return !a.has_value() || *a == *b;
  }

 private:
  std::unique_ptr<T> p_;
};

struct Value {
  Type type = Type::kNull;
  uint8_t subtype = 0;  // kBinary: the subtype; kArray: the element type of a packed array
  int64_t i = 0;
  double d = 0;
  std::string s;
  OutOfLineString s2;                                 // kRegex, kDbPointer only
  OutOfLineOptional<timestamp::CivilDateTime> civil;  // kDateTime only
  std::vector<Element> children;
  // (Unpack, document.cc, copies every field but the children by name: a new field goes there.)
};

struct Element {
  std::string key;
  Value value;
};

// A top-level document: its elements in order.
struct Document {
  std::vector<Element> elements;
};

// Exact equality: doubles bit for bit, every field compared whatever the type. A packed array
// is not equal to its unpacked form (compare Unpack(a) == Unpack(b) for that).
bool operator==(const Value& a, const Value& b);
bool operator==(const Element& a, const Element& b);
bool operator==(const Document& a, const Document& b);

// Convenience constructors.
Value Double(double d);
Value String(std::string s);
Value Int32(int32_t v);
Value Int64(int64_t v);
Value Bool(bool b);
Value Null();
Value DateTimeMillis(int64_t ms);
Value DateTimeCivil(const timestamp::CivilDateTime& c);
Value SubDocument(std::vector<Element> elements);
Value Array(std::vector<Value> items);  // keys left empty
// ---- Packed arrays ---------------------------------------------------------------------------
// A homogeneous array held contiguously: a kArray Value whose `subtype` is the element type
// byte (0x10 int32, 0x12 int64, 0x01 double, 0x08 bool) and whose `s` holds the n values back
// to back as they appear on the wire (little-endian, 4, 8, 8 or 1 bytes each; a bool byte must
// be 0 or 1), with no `children`. The keys "0", "1", ... are never stored. An array encodes to
// the same bytes packed or as children holding the same values (the encoders reject a packed
// array with children, a size that is not a multiple of the width, a bool byte above 1 and an
// unknown element type). The decoder always builds children; Unpack turns a packed model into
// that form. A packed array costs the Value no more than an ordinary array does.

// The values are copied into v.s: one allocation of n x width bytes.
Value PackedInt32(absl::Span<const int32_t> values);
Value PackedInt64(absl::Span<const int64_t> values);
Value PackedDouble(absl::Span<const double> values);
Value PackedBool(absl::Span<const uint8_t> values);  // each 0 or 1 (else the encoders reject it)

// True when v is a kArray with a nonzero subtype (its elements are in v.s).
bool IsPacked(const Value& v);
// The element type of a packed array (static_cast<Type>(subtype)); kNull when !IsPacked.
Type PackedType(const Value& v);
// Bytes per element of packed type t: 4, 8, 8, 1; 0 for any other type.
size_t PackedWidth(Type t);
// The element count (s.size() / width); 0 when !IsPacked or the type is unknown.
size_t PackedSize(const Value& v);
// Whether a packed array is well formed: no children, a known element type, a size that is
// a multiple of the width (bool bytes are judged by the encoders, element by element).
bool PackedWellFormed(const Value& v);
// The same model with every well-formed packed array, at any depth, turned into children
// (empty keys, the form Array() builds); everything else, ill-formed packed arrays included,
// copied as it is. Encode(Unpack(d)) == Encode(d), and both fail alike.
Value Unpack(const Value& v);
Document Unpack(const Document& doc);
Value OfType(Type t);  // a value with default fields of that type

// Nesting depth: a document with no document-valued elements is 1; each embedded document,
// array or code-with-scope scope adds one level.
int Depth(const Document& doc);
int Depth(const Value& v);  // 0 for non-container values

// Human-readable form for reports: {"a": [int32 1, string "x"], ...}; at most `max_items`
// elements per container are shown.
std::string Show(const Document& doc, size_t max_items = 8);

}  // namespace serdiff::bson
