// serdiff::cql — the CQL type description and value model (no wire format in this file).
//
// Spec: apache/cassandra doc/native_protocol_v4.spec section 6 ("Data Type Serialization
// Formats") and section 7 (UDT); native_protocol_v5.spec section 6 (adds duration, 6.8);
// type ids: the [option] ids of the RESULT metadata (v4 spec section 4.2.5.2).
//
// A `Type` describes a CQL type: one of the 20 native types, or list / set / map / tuple /
// UDT over other types, nested to any depth. A `Value` is an untyped tree that is meant to be
// read with a Type: the codec (codec.h, reference/cql/codec_ref.h) checks that the value fits
// the type and rejects it otherwise, so that the model can also hold invalid values (a text
// that is not UTF-8, an int out of range, a tuple with too few items) for the encoders'
// reject paths.
//
// Null, unset and empty are three distinct values:
//   * Null   — CQL null: a [bytes]/[value] length of -1 (`FF FF FF FF`).
//   * Unset  — "not set", only as a top-level bound [value] in protocol v4+: length -2.
//   * Empty  — a zero-length value (length 0), which every type accepts (v4 spec section 6:
//              "most non-string types support empty values"). For text, ascii, blob and inet
//              a zero-length string IS the empty value, so Value::Text("") == Value::Empty().
//
// Value shapes and the types that read them:
//   bool      boolean
//   int64     tinyint, smallint, int, bigint, counter (the value must fit the type's width);
//             timestamp (ms since 1970-01-01T00:00:00Z); time (ns since midnight,
//             0..86399999999999); date (days since 1970-01-01, -2^31..2^31-1; the wire value
//             is days + 2^31 as an unsigned int)
//   float / double   float / double (compared bit for bit: -0.0 != 0.0, NaN payloads count)
//   bytes     text (UTF-8), ascii (0..127), blob, inet (4 or 16 address bytes)
//   uuid      uuid, timeuuid (timeuuid: version nibble 1)
//   varint    varint (arbitrary precision)
//   decimal   decimal: unscaled varint x 10^-scale; (1, 10) and (0, 1) are different values
//   duration  duration: months, days, nanoseconds; all >= 0 or all <= 0
//   items     list, set (in writer order; duplicates are not checked), tuple (at most one
//             item per component), UDT (at most one item per field): a tuple or UDT value may
//             omit trailing items, which read as null (a decoded short value keeps only the
//             items present)
//   pairs     map: key, value, key, value, ... (in writer order)
// Items of collections, tuples and UDTs may be Null or Empty, never Unset.
#pragma once

#include <array>
#include <cstddef>
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <utility>
#include <variant>
#include <vector>

#include "absl/numeric/int128.h"
#include "absl/status/status.h"
#include "absl/strings/string_view.h"

namespace serdiff::cql {

// Protocol versions understood by the codecs: 1..5. Versions 1 and 2 write the count and the
// element lengths of a top-level collection as [short] (uint16); 3+ as [int]
// (native_protocol_v3.spec section 10). Unset exists from version 4.
inline constexpr int kMinProtocolVersion = 1;
inline constexpr int kMaxProtocolVersion = 5;

// Deepest type nesting the codecs accept: a scalar has depth 0, list<int> depth 1,
// map<int, list<int>> depth 2. Encoders always apply this limit; decoders apply
// DecodeOptions::max_depth, which may not exceed it.
inline constexpr int kMaxNestingDepth = 64;
inline constexpr int kDefaultMaxDepth = 32;

// Decoder settings (both the optimized and the reference decoder honour them).
//
// The defaults read what Apache Cassandra's own validators accept (the validate methods of
// org.apache.cassandra.serializers.*, Cassandra 4.x/5.0), so that a driver tested with serdiff
// reads every value a server can hand it. Each `true` flag restores a stricter rule that the
// protocol spec describes but servers do not enforce. docs/cql.md, "Decode rules", has the
// table: rule, Cassandra, python3-cassandra 3.25, serdiff default, flag.
struct DecodeOptions {
  // Types nested deeper than this are rejected (offset 0) before any byte is read. 0..64.
  int max_depth = kDefaultMaxDepth;
  // Reject non-shortest integer encodings: a varint (or a decimal's unscaled part) with a
  // redundant leading 00/FF byte, and a duration component whose vint is longer than needed.
  // The CQL spec describes the shortest form (v4 6.23: "pad positive values that have a
  // MSB >= 0x80 with a leading 0x00 byte" - and only those); Cassandra's IntegerSerializer
  // accepts any bytes and its vint reader any length, which is what `false` (default) models.
  bool require_minimal_varint = false;
  // Reject a tuple payload that ends before its last component (OutOfRange at the offset where
  // the first missing component would start). Default: like Cassandra's TupleSerializer
  // ("we allow the input to have less fields than declared") and the python driver, missing
  // trailing components read as null, exactly as missing trailing UDT fields do.
  bool reject_short_tuples = false;
  // Inside a collection, tuple or UDT, reject item lengths below -1 (-2, the unset marker, and
  // anything lower: InvalidArgument at the length). Default: every negative length is null, as
  // Cassandra's CollectionSerializer.readValue and Tuple/UserTypeSerializer read it. Applies to
  // [int] lengths only; v1/v2 [short] lengths are unsigned.
  bool reject_negative_lengths = false;
  // Reject a time outside 0..86399999999999 ns (v4 spec 6.16). Default: any 8 bytes, as
  // Cassandra's TimeSerializer.validate (it checks the length only).
  bool require_time_in_day = false;
  // Reject bytes after a duration's three vints. Default: ignored, as Cassandra's
  // DurationSerializer.validate (it reads three vints and checks their ranges and signs only).
  bool reject_duration_trailing_bytes = false;
  // Validate text as RFC 3629 UTF-8 (no surrogates, no overlong forms, nothing above
  // U+10FFFF). Default: Cassandra's UTF8Serializer.UTF8Validator rules, which also accept the
  // modified-UTF-8 NUL C0 80, surrogates (ED A0..BF xx), lead bytes F0..F7 up to U+1FFFFF, and
  // after E0 any second byte outside 80..9F, after F0 any second byte with bit 4 or 5 set
  // (the byte itself is not checked to be a continuation byte in those two cases).
  bool strict_utf8 = false;
  // Reject a zero-length payload of the kinds whose Cassandra validator wants bytes:
  // tinyint, smallint, date and time (ByteSerializer, ShortSerializer, SimpleDateSerializer and
  // TimeSerializer want exactly 1, 2, 4 and 8 bytes) and duration (DurationSerializer at least
  // 3); InvalidArgument at the payload's start (where its first byte would be). Default: Empty,
  // as for every other kind (the value model's empty value, which the encoders also write;
  // docs/cql.md, "Decode rules").
  bool reject_empty_where_cassandra_does = false;
  friend bool operator==(const DecodeOptions&, const DecodeOptions&) = default;
};

// Native type ids are the protocol's [option] ids (v4 spec section 4.2.5.2; duration 0x15 is
// v5). text and varchar are the same type (0x000D).
enum class Kind : uint16_t {
  kAscii = 0x0001,
  kBigint = 0x0002,
  kBlob = 0x0003,
  kBoolean = 0x0004,
  kCounter = 0x0005,
  kDecimal = 0x0006,
  kDouble = 0x0007,
  kFloat = 0x0008,
  kInt = 0x0009,
  kTimestamp = 0x000B,
  kUuid = 0x000C,
  kText = 0x000D,
  kVarint = 0x000E,
  kTimeuuid = 0x000F,
  kInet = 0x0010,
  kDate = 0x0011,
  kTime = 0x0012,
  kSmallint = 0x0013,
  kTinyint = 0x0014,
  kDuration = 0x0015,
  kList = 0x0020,
  kMap = 0x0021,
  kSet = 0x0022,
  kUdt = 0x0030,
  kTuple = 0x0031,
};

// Every native (non-composite) kind, in type-id order (20 kinds).
inline constexpr Kind kNativeKinds[] = {
    Kind::kAscii,   Kind::kBigint, Kind::kBlob,     Kind::kBoolean,  Kind::kCounter,
    Kind::kDecimal, Kind::kDouble, Kind::kFloat,    Kind::kInt,      Kind::kTimestamp,
    Kind::kUuid,    Kind::kText,   Kind::kVarint,   Kind::kTimeuuid, Kind::kInet,
    Kind::kDate,    Kind::kTime,   Kind::kSmallint, Kind::kTinyint,  Kind::kDuration};
inline constexpr Kind kCompositeKinds[] = {Kind::kList, Kind::kSet, Kind::kMap, Kind::kTuple,
                                           Kind::kUdt};

// "int", "text", "list", ... (the CQL spelling; text for 0x000D); "?" for an unknown id.
absl::string_view KindName(Kind k);

// One of the 20 native kinds.
constexpr bool IsNative(Kind k) {
  const uint16_t id = static_cast<uint16_t>(k);
  return id >= 0x0001 && id <= 0x0015 && id != 0x000A;
}
// list, set, map: the types whose payload starts with an element count.
constexpr bool IsCollection(Kind k) {
  return k == Kind::kList || k == Kind::kSet || k == Kind::kMap;
}
// One of the 25 kinds above (a Kind can hold any uint16).
constexpr bool IsKnownKind(Kind k) {
  return IsNative(k) || IsCollection(k) || k == Kind::kTuple || k == Kind::kUdt;
}
// Payload bytes of a fixed-width kind (boolean 1, tinyint 1, smallint 2, int/float/date 4,
// bigint/counter/double/timestamp/time 8, uuid/timeuuid 16); 0 for variable-width kinds.
constexpr int FixedWidth(Kind k) {
  switch (k) {
    case Kind::kBoolean:
    case Kind::kTinyint:
      return 1;
    case Kind::kSmallint:
      return 2;
    case Kind::kInt:
    case Kind::kFloat:
    case Kind::kDate:
      return 4;
    case Kind::kBigint:
    case Kind::kCounter:
    case Kind::kDouble:
    case Kind::kTimestamp:
    case Kind::kTime:
      return 8;
    case Kind::kUuid:
    case Kind::kTimeuuid:
      return 16;
    default:
      return 0;
  }
}

struct Type {
  Kind kind = Kind::kInt;
  // list/set: {element}; map: {key, value}; tuple: the components; udt: the field types.
  std::vector<Type> params;
  std::vector<std::string> field_names;  // udt only: one name per field
  std::string udt_name;                  // udt only: "ks.addr", for people; not on the wire

  static Type Native(Kind k);
  static Type List(Type element);
  static Type Set(Type element);
  static Type Map(Type key, Type value);
  static Type Tuple(std::vector<Type> components);
  static Type Udt(std::string name, std::vector<std::pair<std::string, Type>> fields);

  friend bool operator==(const Type&, const Type&) = default;
};

// Nesting depth (scalar 0, list<int> 1, ...). Recursion depth = the result; use
// ValidateType first on types from untrusted sources.
int TypeDepth(const Type& t);

// Checks the shape of `t`: parameter counts (list/set 1, map 2, tuple and udt >= 1, udt names
// one per field, unique and non-empty; natives none) and depth <= max_depth. Recursion never
// goes deeper than max_depth + 1. InvalidArgument naming the rule otherwise.
absl::Status ValidateType(const Type& t, int max_depth);

// CQL-like spelling: "int", "list<text>", "map<int, frozen<...>>" is printed without frozen:
// "map<int, list<int>>", "tuple<int, text>", and UDTs as "udt<addr, street text, zip int>"
// (name first, then "field type" pairs).
std::string TypeToString(const Type& t);
// Inverse of TypeToString; also accepts "varchar", "frozen<T>" (same as T) and any spaces.
// InvalidArgument with the character offset on a syntax error.
absl::Status ParseType(std::string_view text, Type* out);

// ---- arbitrary-precision integer (varint) -----------------------------------------------

// Sign and magnitude. The magnitude is big-endian with no leading zero bytes; zero has an
// empty magnitude and is never negative. Plain data: the two's complement wire form is the
// codecs' business.
class BigInt {
 public:
  BigInt() = default;  // zero
  static BigInt FromInt64(int64_t v);
  static BigInt FromInt128(absl::int128 v);
  // `magnitude` big-endian, leading zero bytes allowed (stripped); -0 becomes 0.
  static BigInt FromMagnitude(bool negative, std::string_view magnitude);
  // ±2^k + delta for k in 0..2048, delta in -1..1 (edge values for generators and tests).
  static BigInt PowerOfTwo(bool negative, int k, int delta = 0);

  bool negative() const { return !rep_.empty() && rep_[0] == '-'; }
  bool is_zero() const { return rep_.empty(); }
  // Big-endian magnitude without leading zeros (empty for zero).
  std::string_view magnitude() const {
    return rep_.empty() ? std::string_view() : std::string_view(rep_).substr(1);
  }
  // The value when it fits an int128.
  std::optional<absl::int128> ToInt128() const;
  // Decimal digits with a leading '-' when negative: "-170141183460469231731687303715884105728".
  std::string ToDecimalString() const;
  // Inverse of ToDecimalString ("[-]digits", no leading '+', leading zeros allowed);
  // false on a syntax error.
  static bool FromDecimalString(std::string_view text, BigInt* out);

  friend bool operator==(const BigInt&, const BigInt&) = default;

 private:
  std::string rep_;  // empty for zero, else sign char ('+' / '-') followed by the magnitude
};

struct Decimal {
  int32_t scale = 0;  // value = unscaled * 10^(-scale)
  BigInt unscaled;
  friend bool operator==(const Decimal&, const Decimal&) = default;
};

struct Duration {
  int32_t months = 0;
  int32_t days = 0;
  int64_t nanos = 0;
  friend bool operator==(const Duration&, const Duration&) = default;
};

using Uuid = std::array<uint8_t, 16>;

// ---- values ------------------------------------------------------------------------------

class Value {
 public:
  enum class Shape : uint8_t {
    kNull,
    kUnset,
    kEmpty,
    kBool,
    kInt,
    kFloat,
    kDouble,
    kBytes,
    kUuid,
    kVarint,
    kDecimal,
    kDuration,
    kItems,
    kPairs,
  };

  Value() = default;  // Null
  static Value Null() { return Value(); }
  static Value Unset();
  static Value Empty();
  static Value Bool(bool b);
  static Value Int(int64_t v);
  static Value Float(float f);
  static Value Double(double d);
  // Byte strings: a zero-length string is Empty().
  static Value Bytes(std::string b);
  static Value Text(std::string s) { return Bytes(std::move(s)); }
  static Value Ascii(std::string s) { return Bytes(std::move(s)); }
  static Value Blob(std::string b) { return Bytes(std::move(b)); }
  static Value Inet(std::string address_bytes) { return Bytes(std::move(address_bytes)); }
  static Value FromUuid(const Uuid& u);
  static Value Varint(BigInt v);
  static Value FromDecimal(Decimal d);
  static Value FromDuration(Duration d);
  // list, set, tuple and UDT values.
  static Value Items(std::vector<Value> items);
  static Value List(std::vector<Value> items) { return Items(std::move(items)); }
  static Value Set(std::vector<Value> items) { return Items(std::move(items)); }
  static Value Tuple(std::vector<Value> items) { return Items(std::move(items)); }
  static Value Udt(std::vector<Value> fields) { return Items(std::move(fields)); }
  // map: keys and values interleaved.
  static Value Map(std::vector<std::pair<Value, Value>> entries);
  static Value Pairs(std::vector<Value> interleaved);

  Shape shape() const { return static_cast<Shape>(data_.index()); }
  bool is_null() const { return shape() == Shape::kNull; }
  bool is_unset() const { return shape() == Shape::kUnset; }
  bool is_empty() const { return shape() == Shape::kEmpty; }

  // Accessors; precondition: the matching shape (checked by std::get, which throws).
  bool as_bool() const { return std::get<bool>(data_); }
  int64_t as_int() const { return std::get<int64_t>(data_); }
  float as_float() const { return std::get<float>(data_); }
  double as_double() const { return std::get<double>(data_); }
  const std::string& bytes() const { return std::get<std::string>(data_); }
  const Uuid& uuid() const { return std::get<Uuid>(data_); }
  const BigInt& varint() const { return std::get<BigInt>(data_); }
  const Decimal& decimal() const { return std::get<Decimal>(data_); }
  const Duration& duration() const { return std::get<Duration>(data_); }
  // Items of a list/set/tuple/UDT, or the interleaved keys and values of a map.
  const std::vector<Value>& items() const;
  std::vector<Value>& mutable_items();

  // Structural equality; floats and doubles compare bit patterns.
  friend bool operator==(const Value& a, const Value& b);

 private:
  struct NullTag {};
  struct UnsetTag {};
  struct EmptyTag {};
  struct ItemsBox {
    std::vector<Value> v;
  };
  struct PairsBox {
    std::vector<Value> v;
  };
  // Alternative order == Shape order.
  std::variant<NullTag, UnsetTag, EmptyTag, bool, int64_t, float, double, std::string, Uuid, BigInt,
               Decimal, Duration, ItemsBox, PairsBox>
      data_;
};

absl::string_view ShapeName(Value::Shape s);

// The Value shape that holds a value of native or composite kind `k` (e.g. kInt for every
// integer kind, kBytes for text/ascii/blob/inet, kItems for list/set/tuple/UDT).
constexpr Value::Shape ShapeOfKind(Kind k) {
  switch (k) {
    case Kind::kBoolean:
      return Value::Shape::kBool;
    case Kind::kTinyint:
    case Kind::kSmallint:
    case Kind::kInt:
    case Kind::kBigint:
    case Kind::kCounter:
    case Kind::kTimestamp:
    case Kind::kTime:
    case Kind::kDate:
      return Value::Shape::kInt;
    case Kind::kFloat:
      return Value::Shape::kFloat;
    case Kind::kDouble:
      return Value::Shape::kDouble;
    case Kind::kText:
    case Kind::kAscii:
    case Kind::kBlob:
    case Kind::kInet:
      return Value::Shape::kBytes;
    case Kind::kUuid:
    case Kind::kTimeuuid:
      return Value::Shape::kUuid;
    case Kind::kVarint:
      return Value::Shape::kVarint;
    case Kind::kDecimal:
      return Value::Shape::kDecimal;
    case Kind::kDuration:
      return Value::Shape::kDuration;
    case Kind::kMap:
      return Value::Shape::kPairs;
    case Kind::kList:
    case Kind::kSet:
    case Kind::kTuple:
    case Kind::kUdt:
      return Value::Shape::kItems;
  }
  return Value::Shape::kNull;
}

// Whether kind `k` is an integer kind (held as Value::Int: tinyint, smallint, int, bigint,
// counter, timestamp, time, date). The one list of them: every other place asks this.
constexpr bool IsIntegerKind(Kind k) { return ShapeOfKind(k) == Value::Shape::kInt; }

// The kinds whose Cassandra validator refuses a zero-length value (the types added in
// protocol v4 and v5): DecodeOptions::reject_empty_where_cassandra_does.
constexpr bool CassandraRejectsEmpty(Kind k) {
  return k == Kind::kTinyint || k == Kind::kSmallint || k == Kind::kDate || k == Kind::kTime ||
         k == Kind::kDuration;
}

}  // namespace serdiff::cql
