// The text form of CQL values (literal.h). Its first job is to be the canonical output of the
// decode targets: two decoders agree exactly when their texts are equal, so the printer must
// be injective (different values, different texts: every bit that the wire form keeps shows
// in the text) and total (it prints anything, also values that do not fit their type, because
// reports print the wrong-shape inputs of the encoders). Its second job is to be read back:
// golden vectors and hand-written values go through ParseValue, which inverts the printer for
// values that fit their type.
//
// This file holds the printer (FormatValue); the parser (ParseValue) is in literal_parse.cc.
#include "serdiff/cql/literal.h"

#include <bit>
#include <charconv>
#include <cmath>
#include <string>

#include "absl/strings/escaping.h"
#include "absl/strings/str_cat.h"
#include "absl/strings/str_format.h"
#include "serdiff/common/utf8.h"

namespace serdiff::cql {
namespace {

// A decimal's scale is a 4-byte int on the wire, so the plain form could need 2^31 - 1
// fraction digits for a 5-byte payload. Past this scale the text switches to the exponent
// form, which keeps the text proportional to the encoded size (the decode targets' heap
// bounds count the text); up to it, the familiar plain form stays short.
constexpr int kPlainDecimalMaxScale = 40;

// The printer passes only well-formed sequences (RFC 3629, serdiff/common/utf8.h) through
// raw: decoded text may hold sequences that RFC 3629 forbids (the default decoder follows
// Cassandra's validator, which accepts surrogates and C0 80) and reports print encoder inputs
// of any bytes; printing those raw would make reports and the TSV golden file invalid UTF-8.
size_t Utf8SequenceLength(absl::string_view s, size_t i) {
  return serdiff::Utf8SequenceLength(reinterpret_cast<const uint8_t*>(s.data()) + i, s.size() - i);
}

// Why each branch: ' and \ are the quote and the escape character, so they are escaped or the
// parser could not find the end of the string. Control bytes (below 0x20, 0x7F) become \xNN so
// that a value is one line of printable text (the golden file is one vector per line, fields
// split by tabs). Bytes outside a valid UTF-8 sequence become \xNN as well. The form stays
// injective: a raw byte above 0x7F only ever appears inside a valid sequence, and a \ in the
// text always starts an escape.
void AppendQuoted(std::string* out, absl::string_view s) {
  out->push_back('\'');
  for (size_t i = 0; i < s.size();) {
    const uint8_t c = static_cast<uint8_t>(s[i]);
    if (c == '\'' || c == '\\') {
      out->push_back('\\');
      out->push_back(static_cast<char>(c));
      ++i;
    } else if (c >= 0x20 && c < 0x7F) {
      out->push_back(static_cast<char>(c));
      ++i;
    } else if (size_t n = c >= 0x80 ? Utf8SequenceLength(s, i) : 0; n > 1) {
      out->append(s.data() + i, n);
      i += n;
    } else {
      absl::StrAppendFormat(out, "\\x%02x", c);
      ++i;
    }
  }
  out->push_back('\'');
}

// std::to_chars without a precision gives the shortest text that reads back to the same bits
// (and keeps the sign of -0), so the text is exact without printing 17 digits. NaN is printed
// with its bit pattern: float and double carry the NaN payload on the wire, decoders must keep
// it, and a plain "nan" would make two decoders that disagree on the payload look equal.
template <typename F>
std::string FormatFloating(F f) {
  if (std::isnan(f)) {
    if constexpr (sizeof(F) == 4) {
      return absl::StrFormat("nan(0x%08x)", std::bit_cast<uint32_t>(f));
    } else {
      return absl::StrFormat("nan(0x%016x)", std::bit_cast<uint64_t>(f));
    }
  }
  char buf[64];
  auto res = std::to_chars(buf, buf + sizeof buf, f);
  return std::string(buf, res.ptr);
}

std::string FormatUuid(const Uuid& u) {
  std::string out;
  for (size_t i = 0; i < 16; ++i) {
    if (i == 4 || i == 6 || i == 8 || i == 10) out.push_back('-');
    absl::StrAppendFormat(&out, "%02x", u[i]);
  }
  return out;
}

// IPv6 as 8 groups, never compressed with "::": compression has several valid spellings for
// one address, and the canonical output needs exactly one. Any other length is not an address
// (a value that does not fit inet, seen only in reports) and prints as hex.
std::string FormatInet(absl::string_view b) {
  if (b.size() == 4) {
    return absl::StrFormat("'%d.%d.%d.%d'", static_cast<uint8_t>(b[0]), static_cast<uint8_t>(b[1]),
                           static_cast<uint8_t>(b[2]), static_cast<uint8_t>(b[3]));
  }
  if (b.size() == 16) {
    std::string out = "'";
    for (size_t g = 0; g < 8; ++g) {
      const unsigned v = (static_cast<uint8_t>(b[2 * g]) << 8) | static_cast<uint8_t>(b[2 * g + 1]);
      if (g) out.push_back(':');
      absl::StrAppendFormat(&out, "%x", v);
    }
    return out + "'";
  }
  return absl::StrCat("0x", absl::BytesToHexString(b));
}

// Exactly (unscaled, scale), never normalized: 1.0 and 1.00 are different values on the wire
// (scale 1 and 2, CQL native protocol v4 spec, section 6.6), and a decoder that dropped
// trailing zeros must show up as a difference. The exponent form is <unscaled>E<-scale> for
// the same reason: ParseDecimal turns it back into the same pair.
std::string FormatDecimal(const Decimal& d) {
  std::string digits = d.unscaled.ToDecimalString();
  const bool neg = !digits.empty() && digits[0] == '-';
  if (neg) digits.erase(0, 1);
  if (d.scale >= 0 && d.scale <= kPlainDecimalMaxScale) {
    const size_t scale = static_cast<size_t>(d.scale);
    std::string out = neg ? "-" : "";
    if (scale == 0) return out + digits;
    // Left-pad with zeros to at least one integer digit, then put the point `scale` from the end.
    const std::string padded =
        digits.size() < scale + 1 ? std::string(scale + 1 - digits.size(), '0') + digits : digits;
    const size_t int_digits = padded.size() - scale;
    out.append(padded, 0, int_digits);
    out.push_back('.');
    out.append(padded, int_digits, scale);
    return out;
  }
  const int64_t exponent = -static_cast<int64_t>(d.scale);
  return absl::StrCat(neg ? "-" : "", digits, "E", exponent >= 0 ? "+" : "", exponent);
}

// The type-free form of a value, used where the type cannot direct the printing (a value of
// the wrong shape, a type without its parameters). It names the shape in <shape:...> so that a
// report tells "the int 1" from "the text '1'"; it is not meant to be parsed.
std::string FormatGeneric(const Value& v);

std::string FormatGenericBody(const Value& v) {
  switch (v.shape()) {
    case Value::Shape::kNull:
      return "null";
    case Value::Shape::kUnset:
      return "unset";
    case Value::Shape::kEmpty:
      return "empty";
    case Value::Shape::kBool:
      return v.as_bool() ? "true" : "false";
    case Value::Shape::kInt:
      return absl::StrCat(v.as_int());
    case Value::Shape::kFloat:
      return FormatFloating(v.as_float());
    case Value::Shape::kDouble:
      return FormatFloating(v.as_double());
    case Value::Shape::kBytes:
      return absl::StrCat("0x", absl::BytesToHexString(v.bytes()));
    case Value::Shape::kUuid:
      return FormatUuid(v.uuid());
    case Value::Shape::kVarint:
      return v.varint().ToDecimalString();
    case Value::Shape::kDecimal:
      return FormatDecimal(v.decimal());
    case Value::Shape::kDuration:
      return absl::StrCat("duration(", v.duration().months, ", ", v.duration().days, ", ",
                          v.duration().nanos, ")");
    case Value::Shape::kItems:
    case Value::Shape::kPairs: {
      std::string out = "[";
      for (size_t i = 0; i < v.items().size(); ++i) {
        absl::StrAppend(&out, i ? ", " : "", FormatGeneric(v.items()[i]));
      }
      return out + "]";
    }
  }
  return "?";
}

std::string FormatGeneric(const Value& v) {
  switch (v.shape()) {
    case Value::Shape::kNull:
    case Value::Shape::kUnset:
    case Value::Shape::kEmpty:
      return FormatGenericBody(v);
    default:
      return absl::StrCat("<", ShapeName(v.shape()), ":", FormatGenericBody(v), ">");
  }
}

// Printing is directed by the type because the value model alone is ambiguous: an Int is a
// tinyint or a timestamp, Bytes are text, blob or inet, Items are a list, a set, a tuple or a
// UDT. Every path tolerates a value or a type that is not valid (index checks instead of
// assumptions): the printer runs on fuzz-built encoder inputs, which are often invalid.
void Format(const Type& t, const Value& v, std::string* out) {
  if (v.is_null() || v.is_unset() || v.is_empty()) {
    out->append(FormatGenericBody(v));
    return;
  }
  if (v.shape() != ShapeOfKind(t.kind) || (!IsNative(t.kind) && t.params.empty())) {
    out->append(FormatGeneric(v));
    return;
  }
  switch (t.kind) {
    case Kind::kText:
    case Kind::kAscii:
      AppendQuoted(out, v.bytes());
      return;
    case Kind::kBlob:
      absl::StrAppend(out, "0x", absl::BytesToHexString(v.bytes()));
      return;
    case Kind::kInet:
      out->append(FormatInet(v.bytes()));
      return;
    case Kind::kList:
    case Kind::kSet: {
      const bool list = t.kind == Kind::kList;
      out->push_back(list ? '[' : '{');
      for (size_t i = 0; i < v.items().size(); ++i) {
        if (i) out->append(", ");
        Format(t.params[0], v.items()[i], out);
      }
      out->push_back(list ? ']' : '}');
      return;
    }
    case Kind::kMap: {
      out->push_back('{');
      const auto& items = v.items();
      for (size_t i = 0; i < items.size(); ++i) {
        if (i % 2 == 0) {
          if (i) out->append(", ");
          Format(t.params[0], items[i], out);
        } else {
          out->append(": ");
          Format(t.params.size() > 1 ? t.params[1] : t.params[0], items[i], out);
        }
      }
      out->push_back('}');
      return;
    }
    case Kind::kTuple: {
      out->push_back('(');
      for (size_t i = 0; i < v.items().size(); ++i) {
        if (i) out->append(", ");
        if (i < t.params.size()) {
          Format(t.params[i], v.items()[i], out);
        } else {
          out->append(FormatGeneric(v.items()[i]));
        }
      }
      out->push_back(')');
      return;
    }
    case Kind::kUdt: {
      // Only the items present, by name: a UDT value may end before its last fields (they
      // then read as null), and the text must tell a missing field from a null one.
      out->push_back('{');
      for (size_t i = 0; i < v.items().size(); ++i) {
        if (i) out->append(", ");
        if (i < t.params.size() && i < t.field_names.size()) {
          absl::StrAppend(out, t.field_names[i], ": ");
          Format(t.params[i], v.items()[i], out);
        } else {
          absl::StrAppend(out, "?: ", FormatGeneric(v.items()[i]));
        }
      }
      out->push_back('}');
      return;
    }
    default:
      out->append(FormatGenericBody(v));
      return;
  }
}

}  // namespace

std::string FormatValue(const Type& t, const Value& v) {
  std::string out;
  Format(t, v, &out);
  return out;
}

}  // namespace serdiff::cql
