// CQL family: how a CQL value crosses to a worker or a module (docs/workers.md, "CQL JSON
// values"): op "cql.serialize", input {"type": <serdiff type text>, "value": <CQL JSON value>,
// "version": 1..5}; the answer is the payload, to which a framed input's [bytes] length is
// added here. Values the JSON form cannot hold exactly are declined (the outside
// implementation is then not compared on that input): an unset or empty value, a value whose
// shape is not its type's (the wrong-shape inputs of cql_encode_scalar), text that is not
// UTF-8, a NaN other than the canonical quiet one, a top-level null.
#include <cmath>
#include <cstdio>
#include <cstring>
#include <limits>

#include "absl/strings/escaping.h"
#include "absl/strings/str_cat.h"
#include "harness/result.h"
#include "serdiff/common/utf8.h"
#include "targets/cql/interchange.h"
#include "targets/cql/internal.h"

namespace serdiff::targets::cql {

namespace {

using serdiff::cql::Duration;

std::string UuidText(const serdiff::cql::Uuid& u) {
  const std::string h =
      absl::BytesToHexString(absl::string_view(reinterpret_cast<const char*>(u.data()), 16));
  return absl::StrCat(h.substr(0, 8), "-", h.substr(8, 4), "-", h.substr(12, 4), "-",
                      h.substr(16, 4), "-", h.substr(20));
}

// A float or double as JSON: printf's %.17g, 17 significant digits, which always read back to
// the same double (every float is exactly a double; not always the shortest such text: 0.1 is
// 0.10000000000000001), the three specials as strings, -0 as "-0".
absl::Status AppendFloating(double d, bool is_float, uint64_t bits, std::string* out) {
  if (std::isnan(d)) {
    const bool canonical = is_float ? bits == 0x7fc00000u : bits == 0x7ff8000000000000ull;
    if (!canonical) {
      return harness::Declined("a NaN with a payload other than the quiet NaN's has no JSON form");
    }
    absl::StrAppend(out, "\"NaN\"");
  } else if (std::isinf(d)) {
    absl::StrAppend(out, d > 0 ? "\"Infinity\"" : "\"-Infinity\"");
  } else if (d == 0 && std::signbit(d)) {
    absl::StrAppend(out, "\"-0\"");
  } else {
    char buf[40];
    std::snprintf(buf, sizeof buf, "%.17g", d);
    absl::StrAppend(out, buf);
  }
  return absl::OkStatus();
}

absl::Status AppendValue(const Type& t, const Value& v, std::string* out);

absl::Status AppendItems(const Type& t, const Value& v, std::string* out) {
  if (v.shape() != Value::Shape::kItems && v.shape() != Value::Shape::kPairs) {
    return harness::Declined("a collection value of another shape has no JSON form");
  }
  const std::vector<Value>& items = v.items();
  out->push_back('[');
  if (t.kind == Kind::kMap) {
    if (v.shape() != Value::Shape::kPairs || items.size() % 2 != 0) {
      return harness::Declined("a map value that is not key/value pairs has no JSON form");
    }
    for (size_t i = 0; i < items.size(); i += 2) {
      if (i) out->push_back(',');
      out->push_back('[');
      if (absl::Status s = AppendValue(t.params[0], items[i], out); !s.ok()) return s;
      out->push_back(',');
      if (absl::Status s = AppendValue(t.params[1], items[i + 1], out); !s.ok()) return s;
      out->push_back(']');
    }
  } else {
    if (v.shape() != Value::Shape::kItems) {
      return harness::Declined("pairs for a list, set, tuple or udt have no JSON form");
    }
    const bool per_position = t.kind == Kind::kTuple || t.kind == Kind::kUdt;
    if (per_position && items.size() > t.params.size()) {
      return harness::Declined("more components than the type has have no JSON form");
    }
    for (size_t i = 0; i < items.size(); ++i) {
      if (i) out->push_back(',');
      const Type& et = per_position ? t.params[i] : t.params[0];
      if (absl::Status s = AppendValue(et, items[i], out); !s.ok()) return s;
    }
  }
  out->push_back(']');
  return absl::OkStatus();
}

absl::Status AppendValue(const Type& t, const Value& v, std::string* out) {
  if (v.is_null()) {
    absl::StrAppend(out, "null");
    return absl::OkStatus();
  }
  if (v.is_unset() || v.is_empty()) {
    return harness::Declined("an unset or empty (zero-length) value has no JSON form");
  }
  if (v.shape() != serdiff::cql::ShapeOfKind(t.kind)) {
    return harness::Declined(absl::StrCat("a ", serdiff::cql::ShapeName(v.shape()), " value for a ",
                                          serdiff::cql::KindName(t.kind), " has no JSON form"));
  }
  switch (t.kind) {
    case Kind::kBoolean:
      absl::StrAppend(out, v.as_bool() ? "true" : "false");
      return absl::OkStatus();
    case Kind::kTinyint:
    case Kind::kSmallint:
    case Kind::kInt:
      absl::StrAppend(out, v.as_int());
      return absl::OkStatus();
    case Kind::kDate:
      // The interchange's date is the wire's unsigned day number (2^31 = 1970-01-01); the value
      // model holds days since 1970-01-01 (serdiff/cql/value.h).
      if (v.as_int() > std::numeric_limits<int64_t>::max() - kDateEpoch) {
        return harness::Declined("a date this far out of range has no int64 day number");
      }
      absl::StrAppend(out, v.as_int() + kDateEpoch);
      return absl::OkStatus();
    case Kind::kBigint:
    case Kind::kCounter:
    case Kind::kTimestamp:
    case Kind::kTime:
      absl::StrAppend(out, "\"", v.as_int(), "\"");
      return absl::OkStatus();
    case Kind::kFloat: {
      const float f = v.as_float();
      uint32_t bits;
      std::memcpy(&bits, &f, 4);
      return AppendFloating(f, true, bits, out);
    }
    case Kind::kDouble: {
      const double d = v.as_double();
      uint64_t bits;
      std::memcpy(&bits, &d, 8);
      return AppendFloating(d, false, bits, out);
    }
    case Kind::kText:
    case Kind::kAscii:
      if (serdiff::FirstInvalidUtf8(v.bytes()) != v.bytes().size()) {
        return harness::Declined("text that is not UTF-8 has no JSON string form");
      }
      harness::AppendJsonString(out, v.bytes());
      return absl::OkStatus();
    case Kind::kBlob:
    case Kind::kInet:
      absl::StrAppend(out, "{\"hex\":\"", absl::BytesToHexString(v.bytes()), "\"}");
      return absl::OkStatus();
    case Kind::kUuid:
    case Kind::kTimeuuid:
      absl::StrAppend(out, "\"", UuidText(v.uuid()), "\"");
      return absl::OkStatus();
    case Kind::kVarint:
      absl::StrAppend(out, "\"", v.varint().ToDecimalString(), "\"");
      return absl::OkStatus();
    case Kind::kDecimal:
      absl::StrAppend(out, "{\"unscaled\":\"", v.decimal().unscaled.ToDecimalString(),
                      "\",\"scale\":", v.decimal().scale, "}");
      return absl::OkStatus();
    case Kind::kDuration: {
      const Duration& d = v.duration();
      absl::StrAppend(out, "{\"months\":", d.months, ",\"days\":", d.days, ",\"nanos\":\"", d.nanos,
                      "\"}");
      return absl::OkStatus();
    }
    case Kind::kList:
    case Kind::kSet:
    case Kind::kMap:
    case Kind::kTuple:
    case Kind::kUdt:
      return AppendItems(t, v, out);
  }
  return harness::Declined("a kind the interchange does not know");
}

}  // namespace

absl::StatusOr<std::string> CqlValueJson(const Type& t, const Value& v) {
  std::string out;
  if (absl::Status s = AppendValue(t, v, &out); !s.ok()) return s;
  return out;
}

absl::StatusOr<std::string> CqlSerializeRequest(const EncodeInput& in) {
  if (in.value.is_null()) {
    return harness::Declined("a top-level null has no payload to compare (only [value] has one)");
  }
  // One string, written once: a worker call is made for most inputs a fuzz binary runs, and
  // under AddressSanitizer each allocation records its stack.
  std::string out;
  out.reserve(256);
  out = "{\"type\":";
  harness::AppendJsonString(&out, serdiff::cql::TypeToString(in.type));
  out += ",\"value\":";
  if (absl::Status s = AppendValue(in.type, in.value, &out); !s.ok()) return s;
  absl::StrAppend(&out, ",\"version\":", in.version, "}");
  return out;
}

absl::StatusOr<std::string> CqlSerializeOutput(const EncodeInput& in,
                                               const harness::ExternalAnswer& answer) {
  if (!answer.has_hex) {  // cql.serialize answers bytes
    return harness::WorkerFailure(
        "worker-protocol", "the answer to cql.serialize has no \"hex\" (its output is bytes)");
  }
  if (!in.framed) return answer.bytes;
  // A [value]: the payload behind its 4-byte big-endian length (v1+: [bytes]).
  const uint32_t n = static_cast<uint32_t>(answer.bytes.size());
  std::string out{static_cast<char>(n >> 24), static_cast<char>(n >> 16), static_cast<char>(n >> 8),
                  static_cast<char>(n)};
  out += answer.bytes;
  return out;
}

absl::StatusOr<harness::Int32List> CqlInt32List(const EncodeInput& in) {
  if (in.type.kind != Kind::kList || in.type.params[0].kind != Kind::kInt) {
    return harness::Declined("not a list<int>");
  }
  if (in.framed) return harness::Declined("the list<int> form has no [value] framing");
  if (in.value.shape() != Value::Shape::kItems) {
    return harness::Declined("a list<int> value of another shape");
  }
  harness::Int32List l;
  l.protocol_version = in.version;
  const std::vector<Value>& items = in.value.items();
  l.values.reserve(items.size());
  bool any_null = false;
  for (const Value& e : items) any_null |= e.is_null();
  if (any_null) l.nulls.reserve(items.size());
  for (const Value& e : items) {
    if (e.is_null()) {
      l.values.push_back(0);
      l.nulls.push_back(1);
      continue;
    }
    if (e.shape() != Value::Shape::kInt || e.as_int() < std::numeric_limits<int32_t>::min() ||
        e.as_int() > std::numeric_limits<int32_t>::max()) {
      return harness::Declined("an element the list<int> form cannot hold");
    }
    l.values.push_back(static_cast<int32_t>(e.as_int()));
    if (any_null) l.nulls.push_back(0);
  }
  return l;
}

}  // namespace serdiff::targets::cql
