// The CQL type description and value model (value.h), plus the type's text form. The model
// is plain data shared by the optimized codec and the reference, so that both are judged on
// the same values; the invariants kept here (a canonical BigInt, Empty for every zero-length
// byte string, bit-exact equality of floats) are what let a decoded value be compared with
// the value that was encoded, and two decoders' results with each other, by plain equality.
#include "serdiff/cql/value.h"

#include <algorithm>
#include <bit>
#include <cctype>

#include "absl/container/flat_hash_set.h"
#include "absl/strings/ascii.h"
#include "absl/strings/str_cat.h"

namespace serdiff::cql {

// The CQL spellings of the type names (CQL native protocol v4 spec, section 6): the same table
// prints types (TypeToString) and parses them (TypeParser), so the two cannot disagree.
absl::string_view KindName(Kind k) {
  switch (k) {
    case Kind::kAscii:
      return "ascii";
    case Kind::kBigint:
      return "bigint";
    case Kind::kBlob:
      return "blob";
    case Kind::kBoolean:
      return "boolean";
    case Kind::kCounter:
      return "counter";
    case Kind::kDecimal:
      return "decimal";
    case Kind::kDouble:
      return "double";
    case Kind::kFloat:
      return "float";
    case Kind::kInt:
      return "int";
    case Kind::kTimestamp:
      return "timestamp";
    case Kind::kUuid:
      return "uuid";
    case Kind::kText:
      return "text";
    case Kind::kVarint:
      return "varint";
    case Kind::kTimeuuid:
      return "timeuuid";
    case Kind::kInet:
      return "inet";
    case Kind::kDate:
      return "date";
    case Kind::kTime:
      return "time";
    case Kind::kSmallint:
      return "smallint";
    case Kind::kTinyint:
      return "tinyint";
    case Kind::kDuration:
      return "duration";
    case Kind::kList:
      return "list";
    case Kind::kMap:
      return "map";
    case Kind::kSet:
      return "set";
    case Kind::kUdt:
      return "udt";
    case Kind::kTuple:
      return "tuple";
  }
  return "?";
}

Type Type::Native(Kind k) {
  Type t;
  t.kind = k;
  return t;
}
Type Type::List(Type element) {
  Type t;
  t.kind = Kind::kList;
  t.params.push_back(std::move(element));
  return t;
}
Type Type::Set(Type element) {
  Type t;
  t.kind = Kind::kSet;
  t.params.push_back(std::move(element));
  return t;
}
Type Type::Map(Type key, Type value) {
  Type t;
  t.kind = Kind::kMap;
  t.params.push_back(std::move(key));
  t.params.push_back(std::move(value));
  return t;
}
Type Type::Tuple(std::vector<Type> components) {
  Type t;
  t.kind = Kind::kTuple;
  t.params = std::move(components);
  return t;
}
Type Type::Udt(std::string name, std::vector<std::pair<std::string, Type>> fields) {
  Type t;
  t.kind = Kind::kUdt;
  t.udt_name = std::move(name);
  for (auto& [field, type] : fields) {
    t.field_names.push_back(std::move(field));
    t.params.push_back(std::move(type));
  }
  return t;
}

int TypeDepth(const Type& t) {
  int d = 0;
  for (const Type& p : t.params) d = std::max(d, TypeDepth(p) + 1);
  return d;
}

namespace {

// The Value-tree codec validates the type at every entry point (encode and decode) before
// anything else, so it can index t.params by the kind's arity without checks of its own. The
// depth limit matters because the encoder and the decoder recurse along the type: a type read
// from fuzz bytes or text could otherwise be nested deep enough to overflow the stack.
absl::Status ValidateTypeAt(const Type& t, int depth, int max_depth) {
  if (!IsKnownKind(t.kind)) {
    return absl::InvalidArgumentError(
        absl::StrCat("type: unknown kind id ", static_cast<int>(t.kind)));
  }
  if (IsNative(t.kind)) {
    if (!t.params.empty() || !t.field_names.empty()) {
      return absl::InvalidArgumentError(
          absl::StrCat("type: ", KindName(t.kind), " takes no parameters"));
    }
    return absl::OkStatus();
  }
  if (depth + 1 > max_depth) {
    return absl::InvalidArgumentError(
        absl::StrCat("type: nested deeper than the limit of ", max_depth, " levels"));
  }
  size_t want_min = 1, want_max = 1;
  if (t.kind == Kind::kMap) want_min = want_max = 2;
  if (t.kind == Kind::kTuple || t.kind == Kind::kUdt) want_max = SIZE_MAX;
  if (t.params.size() < want_min || t.params.size() > want_max) {
    return absl::InvalidArgumentError(
        absl::StrCat("type: ", KindName(t.kind), " with ", t.params.size(), " parameters"));
  }
  if (t.kind == Kind::kUdt) {
    // One unique, non-empty name per field: the text form addresses UDT fields by name
    // (literal.h), and a duplicate or empty name would make a value's text ambiguous.
    if (t.field_names.size() != t.params.size()) {
      return absl::InvalidArgumentError("type: udt needs one name per field");
    }
    // Unique names: pairwise for the usual handful of fields (no allocation: this runs on
    // every encode and decode call), a hash set beyond that.
    const std::vector<std::string>& names = t.field_names;
    auto bad_name = [&](size_t i) {
      return absl::InvalidArgumentError(
          absl::StrCat("type: udt field names must be unique and non-empty: '", names[i], "'"));
    };
    if (names.size() <= 32) {
      for (size_t i = 0; i < names.size(); ++i) {
        if (names[i].empty()) return bad_name(i);
        for (size_t j = 0; j < i; ++j) {
          if (names[j] == names[i]) return bad_name(i);
        }
      }
    } else {
      absl::flat_hash_set<absl::string_view> seen;
      for (size_t i = 0; i < names.size(); ++i) {
        if (names[i].empty() || !seen.insert(names[i]).second) return bad_name(i);
      }
    }
  } else if (!t.field_names.empty()) {
    return absl::InvalidArgumentError(
        absl::StrCat("type: ", KindName(t.kind), " has no field names"));
  }
  for (const Type& p : t.params) {
    absl::Status s = ValidateTypeAt(p, depth + 1, max_depth);
    if (!s.ok()) return s;
  }
  return absl::OkStatus();
}

}  // namespace

absl::Status ValidateType(const Type& t, int max_depth) { return ValidateTypeAt(t, 0, max_depth); }

// Tolerates invalid types (missing names print as "?"): reports print the types of fuzz
// inputs before anything has validated them.
std::string TypeToString(const Type& t) {
  std::string out(KindName(t.kind));
  if (IsNative(t.kind)) return out;
  out += '<';
  if (t.kind == Kind::kUdt) {
    absl::StrAppend(&out, t.udt_name.empty() ? "udt" : t.udt_name);
    for (size_t i = 0; i < t.params.size(); ++i) {
      absl::StrAppend(&out, ", ", i < t.field_names.size() ? t.field_names[i] : "?", " ",
                      TypeToString(t.params[i]));
    }
  } else {
    for (size_t i = 0; i < t.params.size(); ++i) {
      absl::StrAppend(&out, i ? ", " : "", TypeToString(t.params[i]));
    }
  }
  out += '>';
  return out;
}

namespace {

class TypeParser {
 public:
  explicit TypeParser(absl::string_view s) : s_(s) {}

  absl::Status Parse(Type* out) {
    absl::Status st = ParseOne(out, 0);
    if (!st.ok()) return st;
    SkipSpace();
    if (pos_ != s_.size()) return Error("trailing characters");
    return absl::OkStatus();
  }

 private:
  absl::Status Error(absl::string_view what) const {
    return absl::InvalidArgumentError(absl::StrCat(
        "type syntax at character ", pos_, ": ", std::string(what), " in '", std::string(s_), "'"));
  }
  void SkipSpace() {
    while (pos_ < s_.size() && absl::ascii_isspace(static_cast<unsigned char>(s_[pos_]))) ++pos_;
  }
  // '.' so that a keyspace-qualified UDT name ("ks.address") is one identifier.
  static bool IdentChar(char c) {
    return absl::ascii_isalnum(static_cast<unsigned char>(c)) || c == '_' || c == '.';
  }
  absl::string_view Ident() {
    SkipSpace();
    const size_t start = pos_;
    while (pos_ < s_.size() && IdentChar(s_[pos_])) ++pos_;
    return s_.substr(start, pos_ - start);
  }
  bool Eat(char c) {
    SkipSpace();
    if (pos_ < s_.size() && s_[pos_] == c) {
      ++pos_;
      return true;
    }
    return false;
  }

  absl::Status ParseOne(Type* out, int depth) {
    if (depth > kMaxNestingDepth) return Error("nested too deeply");
    const std::string word = absl::AsciiStrToLower(Ident());
    if (word.empty()) return Error("expected a type name");
    // frozen<T> changes how Cassandra stores a value, not its protocol serialization, so it
    // parses as T; varchar is CQL's other name for text (v4 spec, section 6.22).
    if (word == "frozen") {
      if (!Eat('<')) return Error("expected '<' after frozen");
      absl::Status st = ParseOne(out, depth + 1);
      if (!st.ok()) return st;
      return Eat('>') ? absl::OkStatus() : Error("expected '>'");
    }
    if (word == "varchar") {
      *out = Type::Native(Kind::kText);
      return absl::OkStatus();
    }
    for (Kind k : kNativeKinds) {
      if (word == KindName(k)) {
        *out = Type::Native(k);
        return absl::OkStatus();
      }
    }
    Type t;
    if (word == "list")
      t.kind = Kind::kList;
    else if (word == "set")
      t.kind = Kind::kSet;
    else if (word == "map")
      t.kind = Kind::kMap;
    else if (word == "tuple")
      t.kind = Kind::kTuple;
    else if (word == "udt")
      t.kind = Kind::kUdt;
    else
      return Error(absl::StrCat("unknown type '", word, "'"));
    if (!Eat('<')) return Error("expected '<'");
    if (t.kind == Kind::kUdt) {
      t.udt_name = std::string(Ident());
      if (t.udt_name.empty()) return Error("expected a udt name");
      while (Eat(',')) {
        const absl::string_view field = Ident();
        if (field.empty()) return Error("expected a field name");
        t.field_names.emplace_back(field);
        t.params.emplace_back();
        absl::Status st = ParseOne(&t.params.back(), depth + 1);
        if (!st.ok()) return st;
      }
    } else {
      do {
        t.params.emplace_back();
        absl::Status st = ParseOne(&t.params.back(), depth + 1);
        if (!st.ok()) return st;
      } while (Eat(','));
    }
    if (!Eat('>')) return Error("expected '>' or ','");
    // Whatever parses is a valid type (arity, unique field names), so callers can pass it on.
    absl::Status st = ValidateType(t, kMaxNestingDepth);
    if (!st.ok()) return Error(std::string(st.message()));
    *out = std::move(t);
    return absl::OkStatus();
  }

  absl::string_view s_;
  size_t pos_ = 0;
};

}  // namespace

absl::Status ParseType(std::string_view text, Type* out) {
  return TypeParser(absl::string_view(text.data(), text.size())).Parse(out);
}

// ---- BigInt --------------------------------------------------------------------------------

// The canonical form (leading zero bytes dropped, zero has no sign) is what lets operator==
// compare the representation: 00 01 and 01, or -0 and 0, would otherwise be different values
// of one number. The wire's redundant sign bytes (a non-minimal varint) thus never reach the
// model; whether they are accepted is the decoder's decision (DecodeOptions).
BigInt BigInt::FromMagnitude(bool negative, std::string_view magnitude) {
  size_t i = 0;
  while (i < magnitude.size() && magnitude[i] == '\0') ++i;
  BigInt b;
  if (i == magnitude.size()) return b;
  b.rep_.reserve(1 + magnitude.size() - i);
  b.rep_.push_back(negative ? '-' : '+');
  b.rep_.append(magnitude.substr(i));
  return b;
}

BigInt BigInt::FromInt128(absl::int128 v) {
  const bool neg = v < 0;
  // Magnitude in unsigned arithmetic, so that INT128_MIN does not overflow.
  const absl::uint128 mag =
      neg ? absl::uint128(0) - static_cast<absl::uint128>(v) : static_cast<absl::uint128>(v);
  std::string bytes(16, '\0');
  for (int i = 0; i < 16; ++i) {
    bytes[15 - i] = static_cast<char>(static_cast<uint8_t>(mag >> (8 * i)));
  }
  return FromMagnitude(neg, bytes);
}

BigInt BigInt::FromInt64(int64_t v) { return FromInt128(absl::int128(v)); }

// Clamped arguments: this is a generator helper, and the clamp bounds what it allocates.
BigInt BigInt::PowerOfTwo(bool negative, int k, int delta) {
  k = std::clamp(k, 0, 2048);
  delta = std::clamp(delta, -1, 1);
  // 2^k as big-endian bytes: a one bit at position k, with a spare leading zero byte.
  const size_t n = static_cast<size_t>(k / 8) + 2;
  std::string mag(n, '\0');
  mag[n - 1 - static_cast<size_t>(k / 8)] = static_cast<char>(1u << (k % 8));
  // Add delta to the magnitude (then apply the sign): ±(2^k + delta).
  if (delta == 1) {
    for (size_t i = n; i-- > 0;) {
      const uint8_t b = static_cast<uint8_t>(mag[i]);
      mag[i] = static_cast<char>(b + 1);
      if (b != 0xFF) break;
    }
  } else if (delta == -1) {
    for (size_t i = n; i-- > 0;) {
      const uint8_t b = static_cast<uint8_t>(mag[i]);
      mag[i] = static_cast<char>(b - 1);
      if (b != 0x00) break;
    }
  }
  return FromMagnitude(negative, mag);
}

std::optional<absl::int128> BigInt::ToInt128() const {
  const std::string_view mag = magnitude();
  if (mag.size() > 16) return std::nullopt;
  absl::uint128 m = 0;
  for (char c : mag) m = (m << 8) | static_cast<uint8_t>(c);
  // Two's complement is asymmetric: -2^127 fits, +2^127 does not.
  const absl::uint128 limit = absl::uint128(1) << 127;
  if (negative()) {
    if (m > limit) return std::nullopt;
    return static_cast<absl::int128>(absl::uint128(0) - m);
  }
  if (m >= limit) return std::nullopt;
  return static_cast<absl::int128>(m);
}

namespace {

// The magnitude as little-endian 64-bit limbs (a word at a time, not a byte at a time: the
// decimal conversions below are quadratic in the number of limbs, and a hostile input can hold
// a varint of megabytes).
std::vector<uint64_t> LimbsOf(std::string_view be) {
  std::vector<uint64_t> limbs((be.size() + 7) / 8);
  for (size_t i = 0; i < be.size(); ++i) {
    const size_t bit = 8 * (be.size() - 1 - i);  // the byte's weight
    limbs[bit / 64] |= uint64_t{static_cast<uint8_t>(be[i])} << (bit % 64);
  }
  while (!limbs.empty() && limbs.back() == 0) limbs.pop_back();
  return limbs;
}

constexpr uint64_t kTen19 = 10000000000000000000u;  // 10^19: the most digits a limb step holds

// (hi * 2^64 + lo) / kTen19 with the remainder in *rem; precondition hi < kTen19, so the
// quotient fits 64 bits. One hardware division on x86-64 (a 128-bit division would be a call
// to __udivti3).
inline uint64_t DivTen19(uint64_t hi, uint64_t lo, uint64_t* rem) {
#if defined(__x86_64__)
  uint64_t q;
  uint64_t r;
  __asm__("divq %4" : "=a"(q), "=d"(r) : "a"(lo), "d"(hi), "r"(kTen19));
  *rem = r;
  return q;
#else
  const absl::uint128 cur = absl::MakeUint128(hi, lo);
  *rem = absl::Uint128Low64(cur % kTen19);
  return absl::Uint128Low64(cur / kTen19);
#endif
}

}  // namespace

std::string BigInt::ToDecimalString() const {
  if (is_zero()) return "0";
  // Repeated division of the magnitude by 10^19, most significant limb first; each pass
  // yields the next 19 digits from the right.
  std::vector<uint64_t> limbs = LimbsOf(magnitude());
  std::vector<uint64_t> chunks;                // base 10^19, least significant first
  chunks.reserve(limbs.size() * 64 / 63 + 1);  // log2(10^19) > 63.1
  while (!limbs.empty()) {
    uint64_t rem = 0;
    for (size_t i = limbs.size(); i-- > 0;) limbs[i] = DivTen19(rem, limbs[i], &rem);
    chunks.push_back(rem);
    while (!limbs.empty() && limbs.back() == 0) limbs.pop_back();
  }
  std::string out = negative() ? "-" : "";
  out.reserve(out.size() + 19 * chunks.size());
  absl::StrAppend(&out, chunks.back());
  for (size_t i = chunks.size() - 1; i-- > 0;) {
    char digits[19];
    uint64_t c = chunks[i];
    for (int d = 18; d >= 0; --d) {
      digits[d] = static_cast<char>('0' + c % 10);
      c /= 10;
    }
    out.append(digits, 19);
  }
  return out;
}

bool BigInt::FromDecimalString(std::string_view text, BigInt* out) {
  bool neg = false;
  if (!text.empty() && text[0] == '-') {
    neg = true;
    text.remove_prefix(1);
  }
  if (text.empty()) return false;
  for (char c : text) {
    if (c < '0' || c > '9') return false;
  }
  // limbs = limbs * 10^k + (the next k digits), 19 digits at a time (the first group takes
  // what is left over), on little-endian 64-bit limbs: one multiply-add per limb per group.
  std::vector<uint64_t> limbs;
  limbs.reserve(text.size() / 19 + 1);
  size_t pos = 0;
  size_t group = text.size() % 19 == 0 ? 19 : text.size() % 19;
  while (pos < text.size()) {
    uint64_t scale = 1;
    uint64_t add = 0;
    for (size_t j = 0; j < group; ++j) {
      scale *= 10;
      add = add * 10 + static_cast<uint64_t>(text[pos + j] - '0');
    }
    uint64_t carry = add;
    for (uint64_t& limb : limbs) {
      const absl::uint128 cur = absl::uint128(limb) * scale + carry;
      limb = absl::Uint128Low64(cur);
      carry = absl::Uint128High64(cur);
    }
    if (carry != 0) limbs.push_back(carry);
    pos += group;
    group = 19;
  }
  std::string mag(8 * limbs.size(), '\0');  // big-endian; FromMagnitude strips leading zeros
  for (size_t i = 0; i < limbs.size(); ++i) {
    for (size_t b = 0; b < 8; ++b) {
      mag[mag.size() - 1 - (8 * i + b)] = static_cast<char>(limbs[i] >> (8 * b));
    }
  }
  *out = FromMagnitude(neg, mag);
  return true;
}

// ---- Value ---------------------------------------------------------------------------------

Value Value::Unset() {
  Value v;
  v.data_ = UnsetTag{};
  return v;
}
Value Value::Empty() {
  Value v;
  v.data_ = EmptyTag{};
  return v;
}
Value Value::Bool(bool b) {
  Value v;
  v.data_ = b;
  return v;
}
Value Value::Int(int64_t i) {
  Value v;
  v.data_ = i;
  return v;
}
Value Value::Float(float f) {
  Value v;
  v.data_ = f;
  return v;
}
Value Value::Double(double d) {
  Value v;
  v.data_ = d;
  return v;
}
// A zero-length byte string is the empty value: on the wire both are a length of 0 (v4 spec,
// section 6), so a decoder cannot tell them apart, and one model for one encoding keeps
// decode(encode(v)) == v exact.
Value Value::Bytes(std::string b) {
  if (b.empty()) return Empty();
  Value v;
  v.data_ = std::move(b);
  return v;
}
Value Value::FromUuid(const Uuid& u) {
  Value v;
  v.data_ = u;
  return v;
}
Value Value::Varint(BigInt b) {
  Value v;
  v.data_ = std::move(b);
  return v;
}
Value Value::FromDecimal(Decimal d) {
  Value v;
  v.data_ = std::move(d);
  return v;
}
Value Value::FromDuration(Duration d) {
  Value v;
  v.data_ = d;
  return v;
}
Value Value::Items(std::vector<Value> items) {
  Value v;
  v.data_ = ItemsBox{std::move(items)};
  return v;
}
Value Value::Pairs(std::vector<Value> interleaved) {
  Value v;
  v.data_ = PairsBox{std::move(interleaved)};
  return v;
}
Value Value::Map(std::vector<std::pair<Value, Value>> entries) {
  std::vector<Value> flat;
  flat.reserve(2 * entries.size());
  for (auto& [k, val] : entries) {
    flat.push_back(std::move(k));
    flat.push_back(std::move(val));
  }
  return Pairs(std::move(flat));
}

const std::vector<Value>& Value::items() const {
  if (const auto* p = std::get_if<PairsBox>(&data_)) return p->v;
  return std::get<ItemsBox>(data_).v;
}

std::vector<Value>& Value::mutable_items() {
  if (auto* p = std::get_if<PairsBox>(&data_)) return p->v;
  return std::get<ItemsBox>(data_).v;
}

// Shapes first: Items and Pairs with the same elements differ (a list is not a map). Floats
// by their bits, so that NaN equals itself and -0 differs from +0: a codec that canonicalizes
// NaN payloads or loses the sign of zero changes the bytes, and must show up as a difference.
bool operator==(const Value& a, const Value& b) {
  if (a.data_.index() != b.data_.index()) return false;
  switch (a.shape()) {
    case Value::Shape::kNull:
    case Value::Shape::kUnset:
    case Value::Shape::kEmpty:
      return true;
    case Value::Shape::kBool:
      return a.as_bool() == b.as_bool();
    case Value::Shape::kInt:
      return a.as_int() == b.as_int();
    case Value::Shape::kFloat:
      return std::bit_cast<uint32_t>(a.as_float()) == std::bit_cast<uint32_t>(b.as_float());
    case Value::Shape::kDouble:
      return std::bit_cast<uint64_t>(a.as_double()) == std::bit_cast<uint64_t>(b.as_double());
    case Value::Shape::kBytes:
      return a.bytes() == b.bytes();
    case Value::Shape::kUuid:
      return a.uuid() == b.uuid();
    case Value::Shape::kVarint:
      return a.varint() == b.varint();
    case Value::Shape::kDecimal:
      return a.decimal() == b.decimal();
    case Value::Shape::kDuration:
      return a.duration() == b.duration();
    case Value::Shape::kItems:
    case Value::Shape::kPairs:
      return a.items() == b.items();
  }
  return false;
}

absl::string_view ShapeName(Value::Shape s) {
  switch (s) {
    case Value::Shape::kNull:
      return "null";
    case Value::Shape::kUnset:
      return "unset";
    case Value::Shape::kEmpty:
      return "empty";
    case Value::Shape::kBool:
      return "bool";
    case Value::Shape::kInt:
      return "int64";
    case Value::Shape::kFloat:
      return "float";
    case Value::Shape::kDouble:
      return "double";
    case Value::Shape::kBytes:
      return "bytes";
    case Value::Shape::kUuid:
      return "uuid";
    case Value::Shape::kVarint:
      return "varint";
    case Value::Shape::kDecimal:
      return "decimal";
    case Value::Shape::kDuration:
      return "duration";
    case Value::Shape::kItems:
      return "items";
    case Value::Shape::kPairs:
      return "pairs";
  }
  return "?";
}

}  // namespace serdiff::cql
