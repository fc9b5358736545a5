// BSON family targets: the optimized serdiff::bson code vs the reference serdiff::ref::bson,
// with libbson 1.23 (Debian libbson-dev) live as a real oracle and std::to_chars, Abseil and
// libfmt as oracles for the integer formatting.
//
//   bson_format_int64    int64 -> decimal: optimized vs snprintf, to_chars, absl, fmt
//   bson_format_uint64   uint64 -> decimal: the same five
//   bson_array_keys      n -> the keys "0".."n-1" (each with its NUL) from the counter vs
//                        snprintf per key vs libbson's bson_uint32_to_string; check: the
//                        closed-form key size
//   bson_encode          Document -> bytes: optimized vs reference vs libbson bson_append_*;
//                        checks: EncodedSize, the bytes validate and decode back; heap bound
//   bson_decode          bytes -> accept (output: the bytes) or reject: optimized Validate vs
//                        optimized Decode vs reference vs libbson bson_validate
//   bson_decode_offsets  bytes -> "accept" or "reject at <offset>": optimized vs reference,
//                        so that the offsets themselves are compared
#include "targets/bson_domain.h"

#include <bson/bson.h>
#include <fmt/format.h>

#include <charconv>
#include <cstring>
#include <limits>
#include <string>
#include <vector>

#include "absl/strings/str_cat.h"
#include "harness/domains.h"
#include "harness/report.h"
#include "reference/bson/bson_ref.h"
#include "reference/timestamp/timestamp_ref.h"
#include "serdiff/bson/codec.h"
#include "serdiff/bson/int_format.h"
#include "serdiff/common/error_offset.h"
#include "serdiff/timestamp/timestamp.h"
#include "targets/bson_divergences.h"
#include "targets/bson_libbson.h"
#include "targets/families.h"

namespace serdiff::targets {
namespace bson {

namespace sb = serdiff::bson;
using sb::Document;
using sb::Element;
using sb::Type;
using sb::Value;

// ---- corpus form -------------------------------------------------------------------------

namespace {

constexpr size_t kMaxKey = 24;
constexpr size_t kMaxString = 48;

struct Reader {
  FuzzedDataProvider& p;
  uint32_t budget = kMaxTotalElements;

  void Elements(std::vector<Element>* out, bool is_array, int depth) {
    const uint32_t cap = depth > kMaxDomainDepth ? 0 : std::min(kMaxElements, budget);
    const uint32_t n = p.ConsumeIntegralInRange<uint32_t>(0, cap);
    budget -= n;
    out->reserve(std::min<size_t>(n, p.remaining_bytes() + 1));
    for (uint32_t i = 0; i < n; ++i) {
      Element e;
      const uint8_t t = p.ConsumeIntegralInRange<uint8_t>(0, 20);
      if (!is_array) e.key = p.ConsumeRandomLengthString(kMaxKey);
      e.value = Payload(sb::kAllTypes[t], depth);
      out->push_back(std::move(e));
    }
  }

  Value Payload(Type t, int depth) {
    Value v = sb::OfType(t);
    switch (t) {
      case Type::kDouble: {
        const uint64_t bits = p.ConsumeIntegral<uint64_t>();
        std::memcpy(&v.d, &bits, 8);
        break;
      }
      case Type::kString:
      case Type::kCode:
      case Type::kSymbol:
        v.s = p.ConsumeRandomLengthString(kMaxString);
        break;
      case Type::kDocument:
      case Type::kArray:
        Elements(&v.children, t == Type::kArray, depth + 1);
        break;
      case Type::kBinary:
        v.subtype = p.ConsumeIntegral<uint8_t>();
        v.s = p.ConsumeRandomLengthString(kMaxString);
        break;
      case Type::kObjectId:
        v.s = p.ConsumeBytesAsString(12);
        break;
      case Type::kDecimal128:
        v.s = p.ConsumeBytesAsString(16);
        break;
      case Type::kBool:
        v.i = p.ConsumeIntegralInRange<uint8_t>(0, 2);
        break;
      case Type::kDateTime:
        if (p.ConsumeBool()) {
          timestamp::CivilDateTime c;
          c.year = p.ConsumeIntegralInRange<int32_t>(0, 10000);
          c.month = p.ConsumeIntegralInRange<int32_t>(0, 13);
          c.day = p.ConsumeIntegralInRange<int32_t>(0, 32);
          c.hour = p.ConsumeIntegralInRange<int32_t>(0, 24);
          c.minute = p.ConsumeIntegralInRange<int32_t>(0, 60);
          c.second = p.ConsumeIntegralInRange<int32_t>(0, 60);
          c.microsecond = p.ConsumeIntegralInRange<int32_t>(0, 1000000);
          v.civil = c;
        } else {
          v.i = p.ConsumeIntegral<int64_t>();
        }
        break;
      case Type::kRegex:
        v.s = p.ConsumeRandomLengthString(kMaxKey);
        v.s2 = p.ConsumeRandomLengthString(kMaxKey);
        break;
      case Type::kDbPointer:
        v.s = p.ConsumeRandomLengthString(kMaxKey);
        v.s2 = p.ConsumeBytesAsString(12);
        break;
      case Type::kCodeWithScope:
        v.s = p.ConsumeRandomLengthString(kMaxString);
        Elements(&v.children, false, depth + 1);
        break;
      case Type::kInt32:
        v.i = p.ConsumeIntegral<int32_t>();
        break;
      case Type::kTimestamp:
      case Type::kInt64:
        v.i = p.ConsumeIntegral<int64_t>();
        break;
      default:
        break;
    }
    return v;
  }
};

int TypeIndex(Type t) {
  for (int i = 0; i < 21; ++i) {
    if (sb::kAllTypes[i] == t) return i;
  }
  return 0;
}

struct Writer {
  harness::FuzzInputWriter& w;
  uint32_t budget = kMaxTotalElements;

  void Elements(const std::vector<Element>& els, bool is_array, int depth) {
    const uint32_t cap = depth > kMaxDomainDepth ? 0 : std::min(kMaxElements, budget);
    const uint32_t n = static_cast<uint32_t>(els.size());
    w.WriteIntegralInRange<uint32_t>(n, 0, cap);
    budget -= n;
    for (const Element& e : els) {
      w.WriteIntegralInRange<uint8_t>(static_cast<uint8_t>(TypeIndex(e.value.type)), 0, 20);
      if (!is_array) w.WriteRandomLengthString(e.key, kMaxKey);
      Payload(e.value, depth);
    }
  }

  void Payload(const Value& v, int depth) {
    switch (v.type) {
      case Type::kDouble: {
        uint64_t bits;
        std::memcpy(&bits, &v.d, 8);
        w.WriteIntegral<uint64_t>(bits);
        break;
      }
      case Type::kString:
      case Type::kCode:
      case Type::kSymbol:
        w.WriteRandomLengthString(v.s, kMaxString);
        break;
      case Type::kDocument:
      case Type::kArray:
        Elements(v.children, v.type == Type::kArray, depth + 1);
        break;
      case Type::kBinary:
        w.WriteIntegral<uint8_t>(v.subtype);
        w.WriteRandomLengthString(v.s, kMaxString);
        break;
      case Type::kObjectId:
      case Type::kDecimal128:
        w.WriteBytes(v.s);
        break;
      case Type::kBool:
        w.WriteIntegralInRange<uint8_t>(static_cast<uint8_t>(v.i), 0, 2);
        break;
      case Type::kDateTime:
        w.WriteBool(v.civil.has_value());
        if (v.civil) {
          const timestamp::CivilDateTime& c = *v.civil;
          w.WriteIntegralInRange<int32_t>(c.year, 0, 10000);
          w.WriteIntegralInRange<int32_t>(c.month, 0, 13);
          w.WriteIntegralInRange<int32_t>(c.day, 0, 32);
          w.WriteIntegralInRange<int32_t>(c.hour, 0, 24);
          w.WriteIntegralInRange<int32_t>(c.minute, 0, 60);
          w.WriteIntegralInRange<int32_t>(c.second, 0, 60);
          w.WriteIntegralInRange<int32_t>(c.microsecond, 0, 1000000);
        } else {
          w.WriteIntegral<int64_t>(v.i);
        }
        break;
      case Type::kRegex:
        w.WriteRandomLengthString(v.s, kMaxKey);
        w.WriteRandomLengthString(v.s2, kMaxKey);
        break;
      case Type::kDbPointer:
        w.WriteRandomLengthString(v.s, kMaxKey);
        w.WriteBytes(v.s2);
        break;
      case Type::kCodeWithScope:
        w.WriteRandomLengthString(v.s, kMaxString);
        Elements(v.children, false, depth + 1);
        break;
      case Type::kInt32:
        w.WriteIntegral<int32_t>(static_cast<int32_t>(v.i));
        break;
      case Type::kTimestamp:
      case Type::kInt64:
        w.WriteIntegral<int64_t>(v.i);
        break;
      default:
        break;
    }
  }
};

}  // namespace

Document DecodeDocument(FuzzedDataProvider& p) {
  Reader r{p};
  Document doc;
  r.Elements(&doc.elements, false, 1);
  return doc;
}

void EncodeDocument(const Document& doc, harness::FuzzInputWriter& w) {
  Writer wr{w};
  wr.Elements(doc.elements, false, 1);
}

// ---- generators -----------------------------------------------------------------------------

namespace {

const std::vector<std::string>& EdgeKeys() {
  static const auto* keys = new std::vector<std::string>{"",
                                                         "a",
                                                         "_id",
                                                         "key",
                                                         "0",
                                                         "10",
                                                         "x.y",
                                                         "$set",
                                                         "\xC3\xA9",
                                                         "\xE6\x97\xA5\xE6\x9C\xAC",
                                                         "\xF0\x9F\x98\x80",
                                                         "caf\xC3\xA9",
                                                         std::string(kMaxKey, 'k')};
  return *keys;
}

rc::Gen<std::string> GenText(size_t max) {
  return rc::gen::weightedOneOf<std::string>({
      {3, rc::gen::elementOf(EdgeKeys())},
      {3, rc::gen::map(rc::gen::container<std::string>(rc::gen::inRange<char>('a', 'z' + 1)),
                       [max](std::string s) {
                         if (s.size() > max) s.resize(max);
                         return s;
                       })},
  });
}

rc::Gen<std::string> GenBytes(size_t n) {
  return rc::gen::container<std::string>(n, rc::gen::arbitrary<char>());
}

rc::Gen<int64_t> GenInt64() {
  constexpr int64_t kMin = std::numeric_limits<int64_t>::min();
  constexpr int64_t kMax = std::numeric_limits<int64_t>::max();
  constexpr int64_t kMin32 = std::numeric_limits<int32_t>::min();
  constexpr int64_t kMax32 = std::numeric_limits<int32_t>::max();
  return rc::gen::weightedOneOf<int64_t>({
      {3, rc::gen::element<int64_t>(0, 1, -1, kMin, kMax, kMin + 1, kMax - 1, kMin32, kMax32,
                                    kMin32 - 1, kMax32 + 1, 9, 10, 99, 100)},
      {3, rc::gen::arbitrary<int64_t>()},
  });
}

rc::Gen<int32_t> GenInt32() {
  return rc::gen::weightedOneOf<int32_t>({
      {2, rc::gen::element<int32_t>(0, 1, -1, std::numeric_limits<int32_t>::min(),
                                    std::numeric_limits<int32_t>::max())},
      {3, rc::gen::arbitrary<int32_t>()},
  });
}

rc::Gen<timestamp::CivilDateTime> GenCivil() {
  return rc::gen::exec([] {
    const int which = *rc::gen::inRange(0, 4);
    if (which == 0) {
      return *rc::gen::element(timestamp::CivilDateTime{9999, 1, 1, 1, 1, 1, 999999},
                               timestamp::CivilDateTime{1969, 12, 31, 23, 59, 59, 999500},
                               timestamp::CivilDateTime{1, 1, 1, 0, 0, 0, 0},
                               timestamp::CivilDateTime{9999, 12, 31, 23, 59, 59, 999999},
                               timestamp::CivilDateTime{1970, 1, 1, 0, 0, 0, 1},
                               timestamp::CivilDateTime{2000, 2, 30, 0, 0, 0, 0});
    }
    const std::vector<int64_t> edges = timestamp::EdgeMillis();
    const int64_t ms = *rc::gen::elementOf(edges);
    absl::StatusOr<timestamp::CivilDateTime> c = timestamp::FromUnixMillis(ms);
    timestamp::CivilDateTime out = c.ok() ? *c : timestamp::CivilDateTime{};
    if (which == 2) out.microsecond = *rc::gen::inRange(0, 1000000);
    return out;
  });
}

rc::Gen<Value> GenValue(int depth);

rc::Gen<std::vector<Element>> GenElements(int depth, bool is_array, uint32_t max_n) {
  return rc::gen::exec([=] {
    const uint32_t n = *rc::gen::weightedOneOf<uint32_t>({
        {6, rc::gen::inRange<uint32_t>(0, 5)},
        {1, rc::gen::inRange<uint32_t>(0, std::min<uint32_t>(max_n, 40) + 1)},
    });
    std::vector<Element> out;
    for (uint32_t i = 0; i < n; ++i) {
      Element e;
      if (!is_array) e.key = *GenText(kMaxKey);
      e.value = *GenValue(depth);
      out.push_back(std::move(e));
    }
    return out;
  });
}

Value Chain(int levels) {  // {"d": {"d": ... {} }} with `levels` embedded documents
  Value v = sb::SubDocument({});
  for (int i = 1; i < levels; ++i) v = sb::SubDocument({Element{"d", std::move(v)}});
  return v;
}

rc::Gen<Value> GenValue(int depth) {
  return rc::gen::exec([depth] {
    const Type t = depth >= 4 ? *rc::gen::element(Type::kInt32, Type::kString, Type::kNull)
                              : *rc::gen::elementOf(std::vector<Type>(std::begin(sb::kAllTypes),
                                                                      std::end(sb::kAllTypes)));
    Value v = sb::OfType(t);
    switch (t) {
      case Type::kDouble:
        v.d = *rc::gen::weightedOneOf<double>(
            {{2, rc::gen::element(0.0, -0.0, 1.5, std::numeric_limits<double>::infinity(),
                                  std::numeric_limits<double>::quiet_NaN(), 1e308, 5e-324)},
             {2, rc::gen::arbitrary<double>()}});
        break;
      case Type::kString:
      case Type::kCode:
      case Type::kSymbol:
        v.s = *GenText(kMaxString);
        break;
      case Type::kDocument:
      case Type::kArray:
        v.children = *GenElements(depth + 1, t == Type::kArray, 40);
        break;
      case Type::kBinary:
        v.subtype = *rc::gen::element<uint8_t>(0, 1, 2, 3, 4, 5, 6, 7, 0x80, 0xFF);
        v.s = *rc::gen::container<std::string>(rc::gen::arbitrary<char>());
        if (v.s.size() > kMaxString) v.s.resize(kMaxString);
        break;
      case Type::kObjectId:
        v.s = *GenBytes(12);
        break;
      case Type::kDecimal128:
        v.s = *GenBytes(16);
        break;
      case Type::kBool:
        v.i = *rc::gen::weightedOneOf<int64_t>(
            {{10, rc::gen::element<int64_t>(0, 1)}, {1, rc::gen::just<int64_t>(2)}});
        break;
      case Type::kDateTime:
        if (*rc::gen::inRange(0, 3) > 0) {
          v.civil = *GenCivil();
        } else {
          v.i = *GenInt64();
        }
        break;
      case Type::kRegex:
        v.s = *GenText(kMaxKey);
        v.s2 = *rc::gen::element<std::string>("", "i", "imsx", "ilmsux");
        break;
      case Type::kDbPointer:
        v.s = *GenText(kMaxKey);
        v.s2 = *GenBytes(12);
        break;
      case Type::kCodeWithScope:
        v.s = *GenText(kMaxString);
        v.children = *GenElements(depth + 1, false, 8);
        break;
      case Type::kInt32:
        v.i = *GenInt32();
        break;
      case Type::kTimestamp:
      case Type::kInt64:
        v.i = *GenInt64();
        break;
      default:
        break;
    }
    return v;
  });
}

// A large array of int32 or int64 edge values.
rc::Gen<Value> GenLargeArray() {
  return rc::gen::exec([] {
    const uint32_t n = *rc::gen::weightedOneOf<uint32_t>({
        {3, rc::gen::element<uint32_t>(10, 11, 100, 101, 1000, 1001)},
        {1, rc::gen::inRange<uint32_t>(0, kMaxElements + 1)},
    });
    const bool wide = *rc::gen::arbitrary<bool>();
    Value v = sb::OfType(Type::kArray);
    v.children.resize(n);
    const int64_t seed = *GenInt64();
    for (uint32_t i = 0; i < n; ++i) {
      // Unsigned arithmetic: wraps at the int64 extremes instead of overflowing.
      const auto step = static_cast<int64_t>(static_cast<uint64_t>(seed) + uint64_t{i} * 7919);
      v.children[i].value = wide ? sb::Int64(step) : sb::Int32(static_cast<int32_t>(i));
    }
    return v;
  });
}

}  // namespace

rc::Gen<Document> GenDocument() {
  return rc::gen::exec([] {
    Document doc;
    const int shape = *rc::gen::inRange(0, 10);
    if (shape == 0) {
      doc.elements.push_back(Element{*GenText(kMaxKey), *GenLargeArray()});
    } else if (shape == 1) {
      const int levels = *rc::gen::weightedOneOf<int>(
          {{1, rc::gen::element(98, 99, 100, 101)}, {2, rc::gen::inRange(1, 30)}});
      doc.elements.push_back(Element{"d", Chain(levels)});
    } else {
      doc.elements = *GenElements(1, false, 40);
    }
    return doc;
  });
}

rc::Gen<std::string> GenDecoderInput() {
  return rc::gen::exec([] {
    const int kind = *rc::gen::inRange(0, 12);
    if (kind == 0) {
      std::string raw = *rc::gen::container<std::string>(rc::gen::arbitrary<char>());
      return raw;
    }
    Document doc = *GenDocument();
    absl::StatusOr<std::string> enc = sb::Encode(doc);
    std::string bytes = enc.ok() ? *enc : std::string("\x05\0\0\0\0", 5);
    if (kind <= 3 || bytes.empty()) return bytes;  // well-formed
    const size_t at = *rc::gen::inRange<size_t>(0, bytes.size());
    switch (kind) {
      case 4:  // a length: add a small delta to the int32 at `at`
        if (at + 4 <= bytes.size()) {
          // Wrapping (two's complement) addition: a length near INT32_MAX plus a delta must not
          // overflow a signed int.
          uint32_t len;
          std::memcpy(&len, bytes.data() + at, 4);
          len += static_cast<uint32_t>(*rc::gen::element(-5, -1, 1, 4, 0x7FFFFFFF));
          std::memcpy(bytes.data() + at, &len, 4);
        }
        break;
      case 5:
        bytes[bytes.size() - 1] = *rc::gen::element('\x01', '\xFF');
        break;  // terminator
      case 6:
        bytes[at] = *rc::gen::element('\0', '\x08', '\x14', '\x7E', '\x80');
        break;
      case 7:
        bytes.resize(at);
        break;  // cut
      case 8:
        bytes.insert(at, 1, '\0');
        break;  // one byte more
      case 9:
        bytes[at] = static_cast<char>(*rc::gen::arbitrary<uint8_t>());
        break;
      case 10:
        bytes[at] = *rc::gen::element('\xC3', '\xE9', '\xED', '\xF5');
        break;    // UTF-8
      default: {  // top-level length 2^31-1
        const int32_t len = 0x7FFFFFFF;
        if (bytes.size() >= 4) std::memcpy(bytes.data(), &len, 4);
      }
    }
    return bytes;
  });
}

}  // namespace bson
}  // namespace serdiff::targets

// ---- libbson ------------------------------------------------------------------------------

namespace serdiff::targets::bson {
namespace {

namespace sb = serdiff::bson;
using sb::Document;
using sb::Element;
using sb::Type;
using sb::Value;

bool HasNul(const std::string& s) { return s.find('\0') != std::string::npos; }

// Why libbson's API cannot take v, or empty.
std::string Inexpressible(const std::vector<Element>& els) {
  for (const Element& e : els) {
    const Value& v = e.value;
    switch (v.type) {
      case Type::kObjectId:
        if (v.s.size() != 12) return "an ObjectId not 12 bytes";
        break;
      case Type::kDecimal128:
        if (v.s.size() != 16) return "a decimal128 not 16 bytes";
        break;
      case Type::kDbPointer:
        if (v.s2.size() != 12) return "a DBPointer id not 12 bytes";
        if (HasNul(v.s)) return "a DBPointer namespace containing NUL";
        break;
      case Type::kBool:
        if (v.i != 0 && v.i != 1) return "a bool other than 0 or 1";
        break;
      case Type::kRegex:
        if (HasNul(v.s) || HasNul(v.s2)) return "a regex containing NUL";
        break;
      case Type::kCode:  // bson_append_value passes code to bson_append_code, a C string
      case Type::kCodeWithScope:
        if (HasNul(v.s)) return "code containing NUL";
        break;
      default:
        break;
    }
    if (v.type == Type::kDocument || v.type == Type::kArray || v.type == Type::kCodeWithScope) {
      std::string why = Inexpressible(v.children);
      if (!why.empty()) return why;
    }
  }
  return "";
}

absl::StatusOr<int64_t> RefMillis(const Value& v) {
  if (!v.civil) return v.i;
  const timestamp::CivilDateTime& c = *v.civil;
  return ref::timestamp::SlowToUnixMillis(
      ref::timestamp::CivilDateTime{c.year, c.month, c.day, c.hour, c.minute, c.second,
                                    c.microsecond},
      ref::timestamp::Rounding::kFloor);
}

absl::Status AppendAll(bson_t* b, const std::vector<Element>& els, bool is_array);

absl::Status Append(bson_t* b, const char* key, int key_len, const Value& v) {
  bool ok = true;
  switch (v.type) {
    case Type::kDouble:
      ok = bson_append_double(b, key, key_len, v.d);
      break;
    case Type::kString:
      ok = bson_append_utf8(b, key, key_len, v.s.data(), static_cast<int>(v.s.size()));
      break;
    case Type::kSymbol:
      ok = bson_append_symbol(b, key, key_len, v.s.data(), static_cast<int>(v.s.size()));
      break;
    case Type::kCode: {
      bson_value_t value;
      value.value_type = BSON_TYPE_CODE;
      value.value.v_code.code = const_cast<char*>(v.s.c_str());
      value.value.v_code.code_len = static_cast<uint32_t>(v.s.size());
      ok = bson_append_value(b, key, key_len, &value);
      break;
    }
    case Type::kDocument:
    case Type::kArray: {
      bson_t child;
      ok = v.type == Type::kArray ? bson_append_array_begin(b, key, key_len, &child)
                                  : bson_append_document_begin(b, key, key_len, &child);
      if (!ok) break;
      absl::Status st = AppendAll(&child, v.children, v.type == Type::kArray);
      ok = v.type == Type::kArray ? bson_append_array_end(b, &child)
                                  : bson_append_document_end(b, &child);
      if (!st.ok()) return st;
      break;
    }
    case Type::kBinary:
      ok = bson_append_binary(b, key, key_len, static_cast<bson_subtype_t>(v.subtype),
                              reinterpret_cast<const uint8_t*>(v.s.data()),
                              static_cast<uint32_t>(v.s.size()));
      break;
    case Type::kUndefined:
      ok = bson_append_undefined(b, key, key_len);
      break;
    case Type::kObjectId: {
      bson_oid_t oid;
      std::memcpy(oid.bytes, v.s.data(), 12);
      ok = bson_append_oid(b, key, key_len, &oid);
      break;
    }
    case Type::kBool:
      ok = bson_append_bool(b, key, key_len, v.i == 1);
      break;
    case Type::kDateTime: {
      absl::StatusOr<int64_t> ms = RefMillis(v);
      if (!ms.ok()) return ms.status();
      ok = bson_append_date_time(b, key, key_len, *ms);
      break;
    }
    case Type::kNull:
      ok = bson_append_null(b, key, key_len);
      break;
    case Type::kRegex:
      ok = bson_append_regex(b, key, key_len, v.s.c_str(), v.s2.c_str());
      break;
    case Type::kDbPointer: {
      bson_oid_t oid;
      std::memcpy(oid.bytes, v.s2.data(), 12);
      ok = bson_append_dbpointer(b, key, key_len, v.s.c_str(), &oid);
      break;
    }
    case Type::kCodeWithScope: {
      bson_t scope;
      bson_init(&scope);
      absl::Status st = AppendAll(&scope, v.children, false);
      if (st.ok()) ok = bson_append_code_with_scope(b, key, key_len, v.s.c_str(), &scope);
      bson_destroy(&scope);
      if (!st.ok()) return st;
      break;
    }
    case Type::kInt32:
      ok = bson_append_int32(b, key, key_len, static_cast<int32_t>(v.i));
      break;
    case Type::kTimestamp: {
      const auto u = static_cast<uint64_t>(v.i);
      ok = bson_append_timestamp(b, key, key_len, static_cast<uint32_t>(u >> 32),
                                 static_cast<uint32_t>(u));
      break;
    }
    case Type::kInt64:
      ok = bson_append_int64(b, key, key_len, v.i);
      break;
    case Type::kDecimal128: {
      bson_decimal128_t dec;
      std::memcpy(&dec.low, v.s.data(), 8);
      std::memcpy(&dec.high, v.s.data() + 8, 8);
      ok = bson_append_decimal128(b, key, key_len, &dec);
      break;
    }
    case Type::kMinKey:
      ok = bson_append_minkey(b, key, key_len);
      break;
    case Type::kMaxKey:
      ok = bson_append_maxkey(b, key, key_len);
      break;
  }
  if (!ok) return absl::InvalidArgumentError("a bson_append_* call failed");
  return absl::OkStatus();
}

absl::Status AppendAll(bson_t* b, const std::vector<Element>& els, bool is_array) {
  char buf[16];
  for (size_t i = 0; i < els.size(); ++i) {
    const char* key = els[i].key.c_str();
    int key_len = static_cast<int>(els[i].key.size());
    if (is_array) {
      key_len =
          static_cast<int>(bson_uint32_to_string(static_cast<uint32_t>(i), &key, buf, sizeof buf));
    }
    if (absl::Status st = Append(b, key, key_len, els[i].value); !st.ok()) return st;
  }
  return absl::OkStatus();
}

}  // namespace

absl::StatusOr<std::string> LibbsonEncode(const Document& doc) {
  const std::string why = Inexpressible(doc.elements);
  if (!why.empty()) return harness::Declined(absl::StrCat("libbson's API cannot take ", why));
  bson_t b;
  bson_init(&b);
  absl::Status st = AppendAll(&b, doc.elements, false);
  std::string out;
  if (st.ok()) out.assign(reinterpret_cast<const char*>(bson_get_data(&b)), b.len);
  bson_destroy(&b);
  if (!st.ok()) return st;
  return out;
}

absl::Status LibbsonValidate(std::string_view bytes) {
  bson_t b;
  if (!bson_init_static(&b, reinterpret_cast<const uint8_t*>(bytes.data()), bytes.size())) {
    return absl::InvalidArgumentError("libbson: bson_init_static refused the length");
  }
  size_t offset = 0;
  if (!bson_validate(
          &b,
          static_cast<bson_validate_flags_t>(BSON_VALIDATE_UTF8 | BSON_VALIDATE_UTF8_ALLOW_NULL),
          &offset)) {
    return absl::InvalidArgumentError(absl::StrCat("libbson: bson_validate failed at ", offset));
  }
  return absl::OkStatus();
}

}  // namespace serdiff::targets::bson

// ---- targets -------------------------------------------------------------------------------

namespace serdiff::targets {
namespace {

namespace sb = serdiff::bson;
using harness::Output;
using sb::Document;

template <typename T>
rc::Gen<T> EdgeIntegers() {
  std::vector<T> edges = {0,
                          1,
                          9,
                          10,
                          11,
                          99,
                          100,
                          101,
                          std::numeric_limits<T>::max(),
                          std::numeric_limits<T>::max() - 1,
                          std::numeric_limits<T>::min(),
                          static_cast<T>(std::numeric_limits<T>::min() + 1)};
  for (T p = 1; p <= std::numeric_limits<T>::max() / 10; p *= 10) {
    edges.insert(edges.end(), {static_cast<T>(p - 1), p, static_cast<T>(p + 1)});
    if constexpr (std::is_signed_v<T>)
      edges.insert(edges.end(), {static_cast<T>(-p), static_cast<T>(-p - 1)});
  }
  return rc::gen::weightedOneOf<T>({
      {3, rc::gen::elementOf(edges)},
      {3, rc::gen::arbitrary<T>()},
      {2, rc::gen::cast<T>(rc::gen::inRange<int64_t>(-1000000, 1000001))},
  });
}

template <typename T>
void RegisterFormat(harness::Registry& registry, const std::string& name, const std::string& type) {
  harness::TargetDef<T> def;
  def.name = name;
  def.description = absl::StrCat(type,
                                 " to decimal ASCII: optimized digit pairs vs snprintf, "
                                 "std::to_chars, absl::StrCat, fmt::format_to");
  def.domain = harness::IntegerDomain<T>(type, EdgeIntegers<T>());
  def.optimized = {"optimized", [](const T& v) -> Output {
                     char buf[sb::kMaxDecimalChars];
                     size_t n;
                     if constexpr (std::is_signed_v<T>) {
                       n = sb::FormatInt64(v, buf);
                     } else {
                       n = sb::FormatUint64(v, buf);
                     }
                     return std::string(buf, n);
                   }};
  def.references.push_back({"reference", [](const T& v) -> Output {
                              if constexpr (std::is_signed_v<T>) return ref::bson::FormatInt64(v);
                              return ref::bson::FormatUint64(static_cast<uint64_t>(v));
                            }});
  def.references.push_back({"to_chars", harness::Role::kOracle, [](const T& v) -> Output {
                              char buf[24];
                              auto r = std::to_chars(buf, buf + sizeof buf, v);
                              return std::string(buf, r.ptr);
                            }});
  def.references.push_back(
      {"absl", harness::Role::kOracle, [](const T& v) -> Output { return absl::StrCat(v); }});
  def.references.push_back({"fmt", harness::Role::kOracle, [](const T& v) -> Output {
                              char buf[24];
                              char* end = fmt::format_to(buf, "{}", v);
                              return std::string(buf, end);
                            }});
  // Formatting allocates nothing; the returned std::string is the only allocation.
  def.heap_bound = [](const T&, const std::string& out) {
    return static_cast<int64_t>(out.size()) + 64;
  };
  def.heap_bound_text = "output + 64";
  def.show_output = [](const std::string& out) { return out; };
  registry.Add(std::move(def));
}

void RegisterArrayKeys(harness::Registry& registry) {
  harness::TargetDef<uint32_t> def;
  def.name = "bson_array_keys";
  def.description =
      "the keys of an n-element array (each with its NUL): the decimal counter vs snprintf per "
      "key vs libbson's bson_uint32_to_string; check: ArrayKeyBytes(n)";
  def.domain = harness::IntegerDomain<uint32_t>(
      "uint32 (n <= 200000)",
      rc::gen::weightedOneOf<uint32_t>(
          {{3, rc::gen::element<uint32_t>(0, 1, 10, 11, 100, 101, 1000, 1001, 100001)},
           {3, rc::gen::inRange<uint32_t>(0, 20001)}}));
  def.domain.decode = [](FuzzedDataProvider& p) {
    return p.ConsumeIntegralInRange<uint32_t>(0, 200000);
  };
  def.domain.encode = [](const uint32_t& v, harness::FuzzInputWriter& w) {
    w.WriteIntegralInRange<uint32_t>(v, 0, 200000);
  };
  def.optimized = {"optimized", [](const uint32_t& n) -> Output {
                     std::string out(sb::ArrayKeyBytes(n), '\0');
                     char* p = out.data();
                     sb::ArrayKeyCounter key;
                     for (uint32_t i = 0; i < n; ++i, key.Next()) p += key.WriteKeyWithNul(p);
                     return out;
                   }};
  def.references.push_back({"reference", [](const uint32_t& n) -> Output {
                              std::string out;
                              for (uint32_t i = 0; i < n; ++i) {
                                out += ref::bson::ArrayKey(i);
                                out.push_back('\0');
                              }
                              return out;
                            }});
  def.references.push_back({"libbson", harness::Role::kOracle, [](const uint32_t& n) -> Output {
                              std::string out;
                              char buf[16];
                              for (uint32_t i = 0; i < n; ++i) {
                                const char* key;
                                const size_t len = bson_uint32_to_string(i, &key, buf, sizeof buf);
                                out.append(key, len);
                                out.push_back('\0');
                              }
                              return out;
                            }});
  def.checks.push_back({"key-bytes", [](const uint32_t& n, const std::string& out) {
                          if (sb::ArrayKeyBytes(n) == out.size()) return absl::OkStatus();
                          return absl::InternalError(absl::StrCat("ArrayKeyBytes(", n,
                                                                  ") = ", sb::ArrayKeyBytes(n),
                                                                  ", keys take ", out.size()));
                        }});
  def.heap_bound = [](const uint32_t&, const std::string& out) {
    return static_cast<int64_t>(out.size()) + 4096;
  };
  def.heap_bound_text = "output + 4096";
  registry.Add(std::move(def));
}

harness::Domain<Document> DocumentDomain() {
  harness::Domain<Document> d;
  d.type_name = "bson document";
  d.gen = bson::GenDocument();
  d.decode = [](FuzzedDataProvider& p) { return bson::DecodeDocument(p); };
  d.encode = [](const Document& doc, harness::FuzzInputWriter& w) { bson::EncodeDocument(doc, w); };
  d.show = [](const Document& doc) { return sb::Show(doc); };
  return d;
}

void RegisterEncode(harness::Registry& registry) {
  harness::TargetDef<Document> def;
  def.name = "bson_encode";
  def.description =
      "document -> BSON bytes: optimized (size pass + exact write) vs reference (fragments) vs "
      "libbson bson_append_*";
  def.domain = DocumentDomain();
  def.optimized = {"optimized", [](const Document& doc) -> Output { return sb::Encode(doc); }};
  def.references.push_back(
      {"reference", [](const Document& doc) -> Output { return ref::bson::Encode(doc); }});
  def.references.push_back({"libbson", harness::Role::kOracle, [](const Document& doc) -> Output {
                              return bson::LibbsonEncode(doc);
                            }});
  def.checks.push_back({"size-prediction", [](const Document& doc, const std::string& out) {
                          absl::StatusOr<uint64_t> n = sb::EncodedSize(doc);
                          if (n.ok() && *n == out.size()) return absl::OkStatus();
                          return absl::InternalError("EncodedSize differs from the output size");
                        }});
  def.checks.push_back({"validates", [](const Document&, const std::string& out) {
                          sb::DecodeOptions opt;
                          opt.check_utf8 = false;  // the encoder writes strings as given
                          opt.check_array_keys = true;
                          return sb::Validate(out, opt);
                        }});
  def.divergences = bson::EncodeDivergences();
  def.heap_bound = [](const Document&, const std::string& out) {
    return static_cast<int64_t>(out.size()) + 4096;
  };
  def.heap_bound_text = "output + 4096";
  registry.Add(std::move(def));
}

harness::Domain<std::string> BytesDomain() {
  harness::Domain<std::string> d;
  d.type_name = "bytes";
  d.gen = bson::GenDecoderInput();
  d.decode = [](FuzzedDataProvider& p) { return p.ConsumeRemainingBytesAsString(); };
  d.encode = [](const std::string& s, harness::FuzzInputWriter& w) { w.WriteRemainingBytes(s); };
  d.show = [](const std::string& s) { return harness::Hex(s); };
  return d;
}

Output Accepted(const std::string& bytes, const absl::Status& st) {
  if (!st.ok()) return st;
  return bytes;
}

void RegisterDecode(harness::Registry& registry) {
  harness::TargetDef<std::string> def;
  def.name = "bson_decode";
  def.description =
      "bytes -> accept/reject: optimized Validate and Decode vs reference vs libbson "
      "bson_validate (UTF-8 checked, NUL allowed in strings)";
  def.domain = BytesDomain();
  def.optimized = {"optimized",
                   [](const std::string& in) -> Output { return Accepted(in, sb::Validate(in)); }};
  def.references.push_back(
      {"optimized-decode", harness::Role::kOptimizedTier, [](const std::string& in) -> Output {
         absl::StatusOr<Document> doc = sb::Decode(in);
         return Accepted(in, doc.status());
       }});
  def.references.push_back({"reference", [](const std::string& in) -> Output {
                              return Accepted(in, ref::bson::Validate(in));
                            }});
  def.references.push_back({"libbson", harness::Role::kOracle, [](const std::string& in) -> Output {
                              return Accepted(in, bson::LibbsonValidate(in));
                            }});
  def.divergences = bson::DecodeDivergences();
  // Every serdiff decoder reports where the first invalid field starts (docs/architecture.md,
  // "Error offsets"); libbson's bson_validate reports an offset of its own convention only.
  def.offsets = harness::OffsetPolicy::kRequired;
  def.offset_exemptions.push_back(
      {"libbson", "bson_validate's error offset follows libbson's own rules, not serdiff's"});
  def.heap_bound = [](const std::string&, const std::string& out) {
    return static_cast<int64_t>(out.size()) + 4096;
  };
  def.heap_bound_text = "output + 4096";
  registry.Add(std::move(def));
}

// "accept" or "reject at N" (N from the status payload, "none" when missing).
std::string Verdict(const absl::Status& st) {
  if (st.ok()) return "accept";
  std::optional<int64_t> at = ErrorOffset(st);
  return absl::StrCat("reject at ", at ? absl::StrCat(*at) : std::string("none"));
}

void RegisterDecodeOffsets(harness::Registry& registry) {
  harness::TargetDef<std::string> def;
  def.name = "bson_decode_offsets";
  def.description =
      "bytes -> \"accept\" or \"reject at <offset>\" (with array keys checked): optimized vs "
      "reference, so the error offsets are compared";
  def.domain = BytesDomain();
  def.optimized = {"optimized", [](const std::string& in) -> Output {
                     sb::DecodeOptions opt;
                     opt.check_array_keys = true;
                     return Verdict(sb::Validate(in, opt));
                   }};
  def.references.push_back({"reference", [](const std::string& in) -> Output {
                              ref::bson::ValidateOptions opt;
                              opt.check_array_keys = true;
                              return Verdict(ref::bson::Validate(in, opt));
                            }});
  def.heap_bound = [](const std::string&, const std::string&) { return int64_t{4096}; };
  def.heap_bound_text = "4096";
  def.show_output = [](const std::string& out) { return out; };
  registry.Add(std::move(def));
}

}  // namespace

void RegisterBsonTargets(harness::Registry& registry) {
  RegisterFormat<int64_t>(registry, "bson_format_int64", "int64");
  RegisterFormat<uint64_t>(registry, "bson_format_uint64", "uint64");
  RegisterArrayKeys(registry);
  RegisterEncode(registry);
  RegisterDecode(registry);
  RegisterDecodeOffsets(registry);
}

SERDIFF_REGISTER_FAMILY("bson", RegisterBsonTargets);

}  // namespace serdiff::targets

// ---- accepted divergences ------------------------------------------------------------------

namespace serdiff::targets::bson {

using serdiff::bson::Document;

namespace {

bool IsCanonicalRegexOptions(const std::string& options) {
  constexpr std::string_view kValid = "ilmsux";  // the spec's option letters, in order
  for (size_t i = 0; i < options.size(); ++i) {
    if (kValid.find(options[i]) == std::string_view::npos) return false;
    if (i > 0 && options[i - 1] >= options[i]) return false;
  }
  return true;
}

bool HasNonCanonicalRegex(const std::vector<serdiff::bson::Element>& els) {
  for (const serdiff::bson::Element& e : els) {
    if (e.value.type == serdiff::bson::Type::kRegex && !IsCanonicalRegexOptions(e.value.s2)) {
      return true;
    }
    if (HasNonCanonicalRegex(e.value.children)) return true;
  }
  return false;
}

// Deep enough for any input a fuzzer sends (7 bytes per level), shallow enough for the stack.
constexpr int kUnlimitedDepth = 1000;

}  // namespace

std::vector<harness::Divergence<Document>> EncodeDivergences() {
  std::vector<harness::Divergence<Document>> out;
  out.push_back({"libbson",
                 "nesting deeper than 100 levels: serdiff refuses it (the spec's recommended "
                 "limit, kDefaultMaxDepth), libbson's bson_append_* builds any depth",
                 [](const Document& doc, const harness::Output& opt, const harness::Output&) {
                   return !opt.ok() && serdiff::bson::Depth(doc) > serdiff::bson::kDefaultMaxDepth;
                 }});
  out.push_back({"libbson",
                 "regex options that are not distinct letters of \"ilmsux\" in alphabetical "
                 "order: libbson's bson_append_regex sorts them, drops duplicates and unknown "
                 "letters; serdiff writes the caller's options as given (the spec asks the "
                 "producer for sorted options; the encoder does not rewrite values)",
                 [](const Document& doc, const harness::Output& opt, const harness::Output& other) {
                   return opt.ok() && other.ok() && *opt != *other &&
                          HasNonCanonicalRegex(doc.elements);
                 }});
  return out;
}

std::vector<harness::Divergence<std::string>> DecodeDivergences() {
  namespace sb = serdiff::bson;
  std::vector<harness::Divergence<std::string>> out;
  out.push_back(
      {"libbson",
       "checks libbson 1.23's bson_validate skips (found by the bson_decode property and "
       "fuzzer; modelled by Validate with libbson_quirks, no depth limit): after a "
       "code_w_scope with a valid scope, or a value with ill-formed UTF-8 (it never rejects a "
       "string value's UTF-8, only keys'), it accepts the rest of that document unchecked (a "
       "bool 2 after it passes; the parents are still checked); it checks only the lengths of a "
       "code_w_scope; it steps over an embedded document or array shorter than 5 bytes or not "
       "ending with 0x00 without looking inside (its visitor sees only subdocuments "
       "bson_init_static accepts)",
       [](const std::string& in, const harness::Output& opt, const harness::Output& other) {
         if (opt.ok() || !other.ok()) return false;
         sb::DecodeOptions libbson_model;
         libbson_model.max_depth = kUnlimitedDepth;
         libbson_model.libbson_quirks = true;
         return sb::Validate(in, libbson_model).ok();
       }});
  out.push_back(
      {"libbson",
       "nesting deeper than 100 levels: serdiff rejects it (kDefaultMaxDepth, the "
       "limit the spec recommends), libbson 1.23's bson_validate has no depth limit",
       [](const std::string& in, const harness::Output& opt, const harness::Output& other) {
         return !opt.ok() && other.ok() &&
                sb::Validate(in, sb::DecodeOptions{true, false, kUnlimitedDepth}).ok();
       }});
  return out;
}

}  // namespace serdiff::targets::bson
