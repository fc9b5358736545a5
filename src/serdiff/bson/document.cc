#include "serdiff/bson/document.h"

#include <cstring>

#include "absl/strings/escaping.h"
#include "absl/strings/str_cat.h"
#include "serdiff/timestamp/timestamp.h"

namespace serdiff::bson {

bool IsKnownType(uint8_t byte) {
  return (byte >= 0x01 && byte <= 0x13) || byte == 0x7F || byte == 0xFF;
}

std::string_view TypeName(Type t) {
  switch (t) {
    case Type::kDouble:
      return "double";
    case Type::kString:
      return "string";
    case Type::kDocument:
      return "document";
    case Type::kArray:
      return "array";
    case Type::kBinary:
      return "binary";
    case Type::kUndefined:
      return "undefined";
    case Type::kObjectId:
      return "objectid";
    case Type::kBool:
      return "bool";
    case Type::kDateTime:
      return "datetime";
    case Type::kNull:
      return "null";
    case Type::kRegex:
      return "regex";
    case Type::kDbPointer:
      return "dbpointer";
    case Type::kCode:
      return "code";
    case Type::kSymbol:
      return "symbol";
    case Type::kCodeWithScope:
      return "code_w_scope";
    case Type::kInt32:
      return "int32";
    case Type::kTimestamp:
      return "timestamp";
    case Type::kInt64:
      return "int64";
    case Type::kDecimal128:
      return "decimal128";
    case Type::kMinKey:
      return "minkey";
    case Type::kMaxKey:
      return "maxkey";
  }
  return "unknown";
}

bool operator==(const Value& a, const Value& b) {
  return a.type == b.type && a.subtype == b.subtype && a.i == b.i &&
         std::memcmp(&a.d, &b.d, sizeof(double)) == 0 && a.s == b.s && a.s2 == b.s2 &&
         a.civil == b.civil && a.children == b.children;
}
bool operator==(const Element& a, const Element& b) { return a.key == b.key && a.value == b.value; }
bool operator==(const Document& a, const Document& b) { return a.elements == b.elements; }

Value OfType(Type t) {
  Value v;
  v.type = t;
  if (t == Type::kObjectId) v.s.assign(12, '\0');
  if (t == Type::kDecimal128) v.s.assign(16, '\0');
  if (t == Type::kDbPointer) v.s2.mut().assign(12, '\0');
  return v;
}
Value Double(double d) {
  Value v = OfType(Type::kDouble);
  v.d = d;
  return v;
}
Value String(std::string s) {
  Value v = OfType(Type::kString);
  v.s = std::move(s);
  return v;
}
Value Int32(int32_t x) {
  Value v = OfType(Type::kInt32);
  v.i = x;
  return v;
}
Value Int64(int64_t x) {
  Value v = OfType(Type::kInt64);
  v.i = x;
  return v;
}
Value Bool(bool b) {
  Value v = OfType(Type::kBool);
  v.i = b ? 1 : 0;
  return v;
}
Value Null() { return OfType(Type::kNull); }
Value DateTimeMillis(int64_t ms) {
  Value v = OfType(Type::kDateTime);
  v.i = ms;
  return v;
}
Value DateTimeCivil(const timestamp::CivilDateTime& c) {
  Value v = OfType(Type::kDateTime);
  v.civil = c;
  return v;
}
Value SubDocument(std::vector<Element> elements) {
  Value v = OfType(Type::kDocument);
  v.children = std::move(elements);
  return v;
}
Value Array(std::vector<Value> items) {
  Value v = OfType(Type::kArray);
  v.children.reserve(items.size());
  for (Value& item : items) v.children.push_back(Element{"", std::move(item)});
  return v;
}

namespace {
template <typename T>
Value MakePacked(absl::Span<const T> values, Type elem) {
  Value v = OfType(Type::kArray);
  v.subtype = static_cast<uint8_t>(elem);
  // One allocation and a copy (assign does not zero-fill first, as resize would).
  v.s.assign(reinterpret_cast<const char*>(values.data()), values.size() * sizeof(T));
  return v;
}
}  // namespace

Value PackedInt32(absl::Span<const int32_t> values) { return MakePacked(values, Type::kInt32); }
Value PackedInt64(absl::Span<const int64_t> values) { return MakePacked(values, Type::kInt64); }
Value PackedDouble(absl::Span<const double> values) { return MakePacked(values, Type::kDouble); }
Value PackedBool(absl::Span<const uint8_t> values) { return MakePacked(values, Type::kBool); }

bool IsPacked(const Value& v) { return v.type == Type::kArray && v.subtype != 0; }

Type PackedType(const Value& v) { return IsPacked(v) ? static_cast<Type>(v.subtype) : Type::kNull; }

size_t PackedWidth(Type t) {
  switch (t) {
    case Type::kInt32:
      return 4;
    case Type::kInt64:
    case Type::kDouble:
      return 8;
    case Type::kBool:
      return 1;
    default:
      return 0;
  }
}

size_t PackedSize(const Value& v) {
  const size_t w = PackedWidth(PackedType(v));
  return w == 0 ? 0 : v.s.size() / w;
}

bool PackedWellFormed(const Value& v) {
  const size_t w = PackedWidth(PackedType(v));
  return IsPacked(v) && v.children.empty() && w != 0 && v.s.size() % w == 0;
}

Value Unpack(const Value& v) {
  Value out;
  out.type = v.type;
  if (IsPacked(v) && PackedWellFormed(v)) {
    const Type t = PackedType(v);
    const size_t n = PackedSize(v);
    const char* p = v.s.data();
    // Each element built where it stays (a packed type presets no field: the type is all of
    // OfType(t)), not built aside and moved in.
    out.children.resize(n);
    for (size_t i = 0; i < n; ++i) {
      Value& e = out.children[i].value;
      e.type = t;
      if (t == Type::kInt32) {
        int32_t x;
        std::memcpy(&x, p + 4 * i, 4);
        e.i = x;
      } else if (t == Type::kInt64) {
        std::memcpy(&e.i, p + 8 * i, 8);
      } else if (t == Type::kDouble) {
        std::memcpy(&e.d, p + 8 * i, 8);
      } else {
        e.i = static_cast<uint8_t>(p[i]);  // 0/1 or not: the encoders judge it
      }
    }
    return out;
  }
  // Every field but the children copied; the children built unpacked, once each (copying v
  // whole and then replacing each child copied every subtree once per level above it).
  out.subtype = v.subtype;
  out.i = v.i;
  out.d = v.d;
  out.s = v.s;
  out.s2 = v.s2;
  out.civil = v.civil;
  out.children.reserve(v.children.size());
  for (const Element& e : v.children) out.children.push_back(Element{e.key, Unpack(e.value)});
  return out;
}

Document Unpack(const Document& doc) {
  Document out;
  out.elements.reserve(doc.elements.size());
  for (const Element& e : doc.elements) out.elements.push_back(Element{e.key, Unpack(e.value)});
  return out;
}

int Depth(const Value& v) {
  if (v.type != Type::kDocument && v.type != Type::kArray && v.type != Type::kCodeWithScope) {
    return 0;
  }
  int deepest = 0;
  for (const Element& e : v.children) deepest = std::max(deepest, Depth(e.value));
  return 1 + deepest;  // a packed array holds scalars: one level
}
int Depth(const Document& doc) {
  int deepest = 0;
  for (const Element& e : doc.elements) deepest = std::max(deepest, Depth(e.value));
  return 1 + deepest;
}

namespace {

void ShowElements(const std::vector<Element>& elements, bool is_array, size_t max_items,
                  std::string* out);

void ShowValue(const Value& v, size_t max_items, std::string* out) {
  out->append(TypeName(v.type));
  switch (v.type) {
    case Type::kDouble:
      absl::StrAppend(out, " ", v.d);
      break;
    case Type::kString:
    case Type::kCode:
    case Type::kSymbol:
      absl::StrAppend(out, " \"", absl::CHexEscape(v.s), "\"");
      break;
    case Type::kBinary:
      absl::StrAppend(out, " subtype ", v.subtype, " ", absl::BytesToHexString(v.s));
      break;
    case Type::kObjectId:
    case Type::kDecimal128:
      absl::StrAppend(out, " ", absl::BytesToHexString(v.s));
      break;
    case Type::kBool:
    case Type::kInt32:
    case Type::kInt64:
    case Type::kTimestamp:
      absl::StrAppend(out, " ", v.i);
      break;
    case Type::kDateTime:
      if (v.civil) {
        absl::StrAppend(out, " ", timestamp::FormatCivil(*v.civil));
      } else {
        absl::StrAppend(out, " ", v.i, " ms");
      }
      break;
    case Type::kRegex:
      absl::StrAppend(out, " /", absl::CHexEscape(v.s), "/", absl::CHexEscape(v.s2.get()));
      break;
    case Type::kDbPointer:
      absl::StrAppend(out, " \"", absl::CHexEscape(v.s), "\" ", absl::BytesToHexString(v.s2.get()));
      break;
    case Type::kCodeWithScope:
      absl::StrAppend(out, " \"", absl::CHexEscape(v.s), "\" ");
      ShowElements(v.children, false, max_items, out);
      break;
    case Type::kDocument:
      ShowElements(v.children, false, max_items, out);
      break;
    case Type::kArray:
      if (IsPacked(v)) {
        // "array packed int32[int32 1, int32 2]": the element type, then the values as an
        // unpacked array shows them (targets/bson/parse.cc reads this form back).
        out->append(" packed ");
        out->append(TypeName(PackedType(v)));
        ShowElements(Unpack(v).children, true, max_items, out);
        break;
      }
      ShowElements(v.children, true, max_items, out);
      break;
    default:
      break;
  }
}

void ShowElements(const std::vector<Element>& elements, bool is_array, size_t max_items,
                  std::string* out) {
  out->push_back(is_array ? '[' : '{');
  for (size_t i = 0; i < elements.size() && i < max_items; ++i) {
    if (i) out->append(", ");
    if (!is_array) absl::StrAppend(out, "\"", absl::CHexEscape(elements[i].key), "\": ");
    ShowValue(elements[i].value, max_items, out);
  }
  if (elements.size() > max_items) absl::StrAppend(out, ", ... (", elements.size(), " in all)");
  out->push_back(is_array ? ']' : '}');
}

}  // namespace

std::string Show(const Document& doc, size_t max_items) {
  std::string out;
  ShowElements(doc.elements, false, max_items, &out);
  return out;
}

}  // namespace serdiff::bson
