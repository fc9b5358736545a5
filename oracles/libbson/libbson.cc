// libbson 1.23 (Debian libbson-dev) as a live oracle: the bson_append_* builder, bson_validate
// and bson_uint32_to_string. Declared in oracles/libbson/libbson.h.
#include "oracles/libbson/libbson.h"

#include <bson/bson.h>

#include <cstring>
#include <string>
#include <vector>

#include "absl/strings/str_cat.h"
#include "harness/result.h"
#include "reference/timestamp/timestamp_ref.h"
#include "serdiff/bson/codec.h"
#include "serdiff/timestamp/timestamp.h"

namespace serdiff::oracle::libbson {
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
        if (HasNul(v.s) || HasNul(v.s2.get())) return "a regex containing NUL";
        break;
      case Type::kCode:  // bson_append_value passes code to bson_append_code, a C string
      case Type::kCodeWithScope:
        if (HasNul(v.s)) return "code containing NUL";
        break;
      default:
        break;
    }
    if (IsPacked(v) && !PackedWellFormed(v)) return "an ill-formed packed array";
    if (PackedType(v) == Type::kBool) {  // as for an unpacked bool below
      for (char b : v.s) {
        if (static_cast<uint8_t>(b) > 1) return "a bool other than 0 or 1";
      }
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
  return ref::timestamp::ToUnixMillis(*v.civil, ref::timestamp::Rounding::kFloor);
}

absl::Status AppendAll(bson_t* b, const std::vector<Element>& els, bool is_array);

// The values of a well-formed packed array (document.h), keys from bson_uint32_to_string.
absl::Status AppendPacked(bson_t* b, const Value& v) {
  const Type t = PackedType(v);
  const size_t n = PackedSize(v);
  const char* p = v.s.data();
  char buf[16];
  for (size_t i = 0; i < n; ++i) {
    const char* key;
    const int len =
        static_cast<int>(bson_uint32_to_string(static_cast<uint32_t>(i), &key, buf, sizeof buf));
    bool ok;
    if (t == Type::kInt32) {
      int32_t x;
      std::memcpy(&x, p + 4 * i, 4);
      ok = bson_append_int32(b, key, len, x);
    } else if (t == Type::kInt64) {
      int64_t x;
      std::memcpy(&x, p + 8 * i, 8);
      ok = bson_append_int64(b, key, len, x);
    } else if (t == Type::kDouble) {
      double x;
      std::memcpy(&x, p + 8 * i, 8);
      ok = bson_append_double(b, key, len, x);
    } else {
      ok = bson_append_bool(b, key, len, p[i] == 1);
    }
    if (!ok) return absl::InvalidArgumentError("a bson_append_* call failed");
  }
  return absl::OkStatus();
}

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
      // A packed array (well formed: Inexpressible declined the others) is appended value by
      // value, as libbson's users append one, without spelling it out as elements first.
      absl::Status st = IsPacked(v) ? AppendPacked(&child, v)
                                    : AppendAll(&child, v.children, v.type == Type::kArray);
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
      ok = bson_append_regex(b, key, key_len, v.s.c_str(), v.s2.get().c_str());
      break;
    case Type::kDbPointer: {
      bson_oid_t oid;
      std::memcpy(oid.bytes, v.s2.get().data(), 12);
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

absl::StatusOr<std::string> Encode(const Document& doc) {
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

absl::Status Validate(std::string_view bytes) {
  // libbson's bson_validate recurses once per nesting level, with no limit: a document nested
  // some 10,000 levels deep (80 KB) overflowed an 8 MiB stack and ended the process (1,000
  // levels under a 1 MiB one). Where its walk would go deeper than kMaxValidateDepth (serdiff's
  // model of that walk, the one the divergence predicates use, says so) it is not called: the
  // input is Declined, not compared with libbson.
  sb::DecodeOptions walk;
  walk.libbson_quirks = true;
  walk.max_depth = kMaxValidateDepth;
  if (sb::NestsTooDeepFirst(bytes, walk)) {
    return harness::Declined(absl::StrCat(
        "libbson's bson_validate recurses once per level without a limit: nesting deeper than ",
        kMaxValidateDepth, " levels could overflow the stack"));
  }
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

std::string ArrayKeys(uint32_t n) {
  std::string out;
  char buf[16];
  for (uint32_t i = 0; i < n; ++i) {
    const char* key;
    const size_t len = bson_uint32_to_string(i, &key, buf, sizeof buf);
    out.append(key, len);
    out.push_back('\0');
  }
  return out;
}

}  // namespace serdiff::oracle::libbson
