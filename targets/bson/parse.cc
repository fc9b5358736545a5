// BSON family: parsers of the printed values of the bson_* targets (declared in
// targets/bson/domain.h): the bson_array_keys count, the decoders' hex dump, and documents as
// serdiff::bson::Show prints them.
#include <cmath>
#include <cstdint>
#include <cstdlib>
#include <limits>
#include <string>
#include <string_view>
#include <vector>

#include "absl/strings/escaping.h"
#include "absl/strings/numbers.h"
#include "absl/strings/str_cat.h"
#include "harness/domains.h"
#include "harness/text_parse.h"
#include "serdiff/bson/document.h"
#include "targets/bson/domain.h"

namespace serdiff::targets::bson {

using harness::TextCursor;

absl::StatusOr<uint32_t> ParseArrayKeyCount(std::string_view text) {
  return harness::ParseAll<uint32_t>(text, [](TextCursor& c, uint32_t& n) {
    const size_t at = c.pos();
    if (absl::Status s = c.Int(n); !s.ok()) return s;
    if (n > kMaxArrayKeys) {
      return harness::ParseErrorAt(
          at, absl::StrCat(n, " keys, more than the input holds (", kMaxArrayKeys, ")"));
    }
    return absl::OkStatus();
  });
}

absl::StatusOr<std::string> ParseDecoderInput(std::string_view text) {
  return harness::ParseAll<std::string>(text, harness::ParseHexDump);
}

// ---- documents ------------------------------------------------------------------------------
//
// serdiff::bson::Show's form (src/serdiff/bson/document.cc): a document is {"key": value, ...},
// an array [value, ...]; a value is its type name (TypeName) and its payload:
//   double 1.5 | string "..." | code "..." | symbol "..." (CHexEscape: \n \r \t \" \' \\ \xHH)
//   binary subtype 5 0a0b | objectid <24 hex> | decimal128 <32 hex> | bool 1 | int32 -7
//   int64 9 | timestamp 9 | datetime -1 ms | datetime 1969-12-31T23:59:59.999500 (civil)
//   regex /pattern/options | dbpointer "ns" <24 hex> | code_w_scope "code" {...}
//   document{...} | array[...] (no space) | undefined | null | minkey | maxkey
//
// What the text leaves out, and so what the parser refuses:
//   * A container with more than 8 elements shows 8 and ", ... (N in all)": ElidedAt.
//   * A double prints with 6 significant digits (absl::StrCat), and every NaN as "nan": only
//     "0", "-0", "inf" and "-inf" name one double each. Any other printed double fails with
//     ElidedAt. A double may be written exactly as a hex float ("double 0x1.8p+0", "-0x1p-1074"),
//     a form the printer never writes.
//   * A regex prints its pattern and options unescaped for '/', ',', ']' and '}': the parser
//     reads the pattern up to the first '/' and the options up to the first ',', ']', '}' or end
//     of text, and refuses a '/' right after the options (a pattern or options containing '/'
//     print ambiguously). Options holding ", " or a closing bracket (never generated; only a
//     fuzzer-made file holds them) print the same as a shorter regex followed by more text; the
//     parser reads the shorter regex.
namespace {

namespace sb = serdiff::bson;

class DocumentParser {
 public:
  explicit DocumentParser(TextCursor& c) : c_(c) {}

  // A container's elements, `depth` as in DocumentVisitor::Elements (the top level is 1).
  absl::Status Elements(std::vector<sb::Element>& els, bool is_array, int depth) {
    const char close = is_array ? ']' : '}';
    if (absl::Status s = c_.Expect(is_array ? "[" : "{"); !s.ok()) return s;
    if (c_.Consume(std::string_view(&close, 1))) return absl::OkStatus();
    if (depth > kMaxDomainDepth) {
      return c_.Error(absl::StrCat("a container nested ", depth,
                                   " levels deep holds no elements in the input (at most ",
                                   kMaxDomainDepth, " levels)"));
    }
    for (size_t i = 0;; ++i) {
      if (i > 0) {
        if (c_.Consume(std::string_view(&close, 1))) return absl::OkStatus();
        if (c_.rest().substr(0, 6) == ", ... ") {
          return harness::ElidedAt(c_.pos() + 2,
                                   absl::StrCat("the container shows only its first ", i,
                                                " elements (\"...\"): the rest cannot be read "
                                                "back"));
        }
        if (absl::Status s = c_.Expect(", "); !s.ok()) return s;
      }
      if (i >= kMaxElements) {
        return c_.Error(absl::StrCat("more than ", kMaxElements,
                                     " elements in a container (the most the input holds)"));
      }
      sb::Element e;
      if (!is_array) {
        if (absl::Status s = Quoted(e.key); !s.ok()) return s;
        if (absl::Status s = c_.Expect(": "); !s.ok()) return s;
      }
      if (absl::Status s = ValueAt(e.value, depth); !s.ok()) return s;
      els.push_back(std::move(e));
    }
  }

 private:
  // A type name: the longest of TypeName's names the text starts with ("code_w_scope" before
  // "code").
  absl::Status TypeAt(sb::Type& t) {
    size_t best = 0;
    for (sb::Type candidate : sb::kAllTypes) {
      const std::string_view name = sb::TypeName(candidate);
      if (name.size() > best && c_.rest().substr(0, name.size()) == name) {
        best = name.size();
        t = candidate;
      }
    }
    if (best == 0) return c_.Error(absl::StrCat("expected a BSON type name, found ", c_.Next()));
    c_.Consume(c_.rest().substr(0, best));
    return absl::OkStatus();
  }

  // "packed <type>[<elements>]" after "array" (document.cc Show): elements of that one type,
  // int32, int64, double or bool, stored packed.
  absl::Status PackedAt(sb::Value& v, int depth) {
    sb::Type elem = sb::Type::kNull;
    if (absl::Status s = TypeAt(elem); !s.ok()) return s;
    if (elem != sb::Type::kInt32 && elem != sb::Type::kInt64 && elem != sb::Type::kDouble &&
        elem != sb::Type::kBool) {
      return c_.Error("a packed array holds int32, int64, double or bool");
    }
    std::vector<sb::Element> items;
    if (absl::Status s = Elements(items, true, depth + 1); !s.ok()) return s;
    std::vector<int32_t> i32;
    std::vector<int64_t> i64;
    std::vector<double> f64;
    std::vector<uint8_t> b;
    for (const sb::Element& e : items) {
      if (e.value.type != elem) return c_.Error("a packed array's values must share its type");
      if (elem == sb::Type::kInt32) i32.push_back(static_cast<int32_t>(e.value.i));
      if (elem == sb::Type::kInt64) i64.push_back(e.value.i);
      if (elem == sb::Type::kDouble) f64.push_back(e.value.d);
      if (elem == sb::Type::kBool) b.push_back(static_cast<uint8_t>(e.value.i));
    }
    v = elem == sb::Type::kInt32    ? sb::PackedInt32(std::move(i32))
        : elem == sb::Type::kInt64  ? sb::PackedInt64(std::move(i64))
        : elem == sb::Type::kDouble ? sb::PackedDouble(std::move(f64))
                                    : sb::PackedBool(std::move(b));
    return absl::OkStatus();
  }

  absl::Status ValueAt(sb::Value& v, int depth) {
    if (absl::Status s = TypeAt(v.type); !s.ok()) return s;
    switch (v.type) {
      case sb::Type::kDocument:
      case sb::Type::kArray:
        if (c_.rest().substr(0, 8) == " packed ") {
          c_.Consume(" packed ");
          return PackedAt(v, depth);
        }
        return Elements(v.children, v.type == sb::Type::kArray, depth + 1);
      case sb::Type::kUndefined:
      case sb::Type::kNull:
      case sb::Type::kMinKey:
      case sb::Type::kMaxKey:
        return absl::OkStatus();
      default:
        break;
    }
    if (absl::Status s = c_.Expect(" "); !s.ok()) return s;
    switch (v.type) {
      case sb::Type::kDouble:
        return Double(v.d);
      case sb::Type::kString:
      case sb::Type::kCode:
      case sb::Type::kSymbol:
        return Quoted(v.s);
      case sb::Type::kBinary: {
        absl::Status s = c_.Expect("subtype ");
        if (s.ok()) s = c_.Int(v.subtype);
        if (s.ok()) s = c_.Expect(" ");
        if (s.ok()) s = harness::ParseHexRun(c_, v.s);
        return s;
      }
      case sb::Type::kObjectId:
        return FixedHex(12, v.s);
      case sb::Type::kDecimal128:
        return FixedHex(16, v.s);
      case sb::Type::kBool:
        return IntIn(v.i, 0, 2);
      case sb::Type::kInt32:
        return IntIn(v.i, std::numeric_limits<int32_t>::min(), std::numeric_limits<int32_t>::max());
      case sb::Type::kInt64:
      case sb::Type::kTimestamp:
        return c_.Int(v.i);
      case sb::Type::kDateTime:
        return DateTime(v);
      case sb::Type::kRegex: {
        absl::Status s = c_.Expect("/");
        if (s.ok()) s = Escaped("/", true, v.s);
        if (s.ok()) s = c_.Expect("/");
        if (s.ok()) s = Escaped(",]}/", false, v.s2.mut());
        if (s.ok() && c_.rest().substr(0, 1) == "/") {
          s = c_.Error(
              "a '/' after a regex's options: a pattern or options holding '/' print "
              "ambiguously");
        }
        return s;
      }
      case sb::Type::kDbPointer: {
        absl::Status s = Quoted(v.s);
        if (s.ok()) s = c_.Expect(" ");
        if (s.ok()) s = FixedHex(12, v.s2.mut());
        return s;
      }
      case sb::Type::kCodeWithScope: {
        absl::Status s = Quoted(v.s);
        if (s.ok()) s = c_.Expect(" ");
        if (s.ok()) s = Elements(v.children, false, depth + 1);
        return s;
      }
      default:
        return c_.Error("unexpected type");  // not reached: TypeAt names a known type
    }
  }

  absl::Status IntIn(int64_t& v, int64_t lo, int64_t hi) {
    const size_t at = c_.pos();
    if (absl::Status s = c_.Int(v); !s.ok()) return s;
    if (v < lo || v > hi) {
      return harness::ParseErrorAt(at, absl::StrCat(v, " is outside ", lo, "..", hi));
    }
    return absl::OkStatus();
  }

  // A hex run of exactly `n` bytes (an ObjectId's 12, a decimal128's 16): another length is
  // refused here, at the run's first character, not later by the encoder without a position.
  absl::Status FixedHex(size_t n, std::string& out) {
    const size_t at = c_.pos();
    std::string bytes;
    if (absl::Status s = harness::ParseHexRun(c_, bytes); !s.ok()) return s;
    if (bytes.size() != n) {
      return harness::ParseErrorAt(at, absl::StrCat("expected ", n, " bytes (", 2 * n,
                                                    " hex digits), found ", bytes.size()));
    }
    out += bytes;
    return absl::OkStatus();
  }

  // "N ms", or FormatCivil's "YYYY-MM-DDThh:mm:ss.uuuuuu" (a field out of its range prints
  // with its sign: "-0001-01-01", "1970--1-01").
  absl::Status DateTime(sb::Value& v) {
    const size_t at = c_.pos();
    int64_t first = 0;
    if (absl::Status s = c_.Int(first); !s.ok()) return s;
    if (c_.Consume(" ms")) {
      v.i = first;
      return absl::OkStatus();
    }
    if (first < std::numeric_limits<int32_t>::min() ||
        first > std::numeric_limits<int32_t>::max()) {
      return harness::ParseErrorAt(at, absl::StrCat("year ", first, " is out of int32 range"));
    }
    timestamp::CivilDateTime civil;
    civil.year = static_cast<int32_t>(first);
    int32_t* fields[] = {&civil.month,  &civil.day,    &civil.hour,
                         &civil.minute, &civil.second, &civil.microsecond};
    const std::string_view separators[] = {"-", "-", "T", ":", ":", "."};
    for (size_t i = 0; i < 6; ++i) {
      if (absl::Status s = c_.Expect(separators[i]); !s.ok()) return s;
      if (absl::Status s = c_.Int(*fields[i]); !s.ok()) return s;
    }
    if (absl::Status s = harness::ReadAsPrinted(c_, at, timestamp::FormatCivil(civil)); !s.ok()) {
      return s;
    }
    v.civil = civil;
    return absl::OkStatus();
  }

  // See the comment above: 0, -0, inf, -inf, or a hex float; any other number is elided.
  absl::Status Double(double& d) {
    const size_t at = c_.pos();
    const std::string_view r = c_.rest();
    size_t n = 0;
    while (n < r.size() &&
           (TextCursor::IsHexDigit(r[n]) || r[n] == '.' || r[n] == '-' || r[n] == '+' ||
            r[n] == 'x' || r[n] == 'p' || r[n] == 'i' || r[n] == 'n')) {
      ++n;
    }
    const std::string token(r.substr(0, n));
    const bool negative = !token.empty() && token[0] == '-';
    const std::string_view body = std::string_view(token).substr(negative ? 1 : 0);
    if (body == "0" || body == "inf") {
      d = body == "0" ? 0.0 : std::numeric_limits<double>::infinity();
      if (negative) d = -d;
    } else if (body.substr(0, 2) == "0x" || body.substr(0, 2) == "0X") {
      char* end = nullptr;
      d = std::strtod(token.c_str(), &end);
      if (end != token.c_str() + token.size()) {
        return harness::ParseErrorAt(at + static_cast<size_t>(end - token.c_str()),
                                     "expected a hex float (0x1.8p+0)");
      }
    } else {
      double ignored = 0;
      if (body == "nan" || absl::SimpleAtod(token, &ignored)) {
        return harness::ElidedAt(at,
                                 absl::StrCat("the double \"", token,
                                              "\" is printed rounded to 6 significant digits "
                                              "(NaN without its payload); write it exactly as a "
                                              "hex float (0x1.8p+0)"));
      }
      return c_.Error(absl::StrCat("expected a double, found ", c_.Next()));
    }
    c_.Consume(r.substr(0, n));
    return absl::OkStatus();
  }

  // A string in double quotes, CHexEscape-escaped.
  absl::Status Quoted(std::string& out) {
    if (absl::Status s = c_.Expect("\""); !s.ok()) return s;
    if (absl::Status s = Escaped("\"", true, out); !s.ok()) return s;
    return c_.Expect("\"");
  }

  // CHexEscape's text up to (not including) the first unescaped character of `stops` or, unless
  // `stop_required`, the end of the text. Escapes: \n \r \t \" \' \\ and \xHH.
  absl::Status Escaped(std::string_view stops, bool stop_required, std::string& out) {
    while (true) {
      const std::string_view r = c_.rest();
      if (r.empty()) {
        if (!stop_required) return absl::OkStatus();
        return c_.Error(
            absl::StrCat("the text ends before the closing '", std::string(stops), "'"));
      }
      if (stops.find(r[0]) != std::string_view::npos) return absl::OkStatus();
      if (r[0] != '\\') {
        out.push_back(r[0]);
        c_.Consume(r.substr(0, 1));
        continue;
      }
      const char e = r.size() > 1 ? r[1] : '\0';
      const std::string_view simple = "nrt\"'\\";
      const std::string_view meaning = "\n\r\t\"'\\";
      if (const size_t k = simple.find(e); e != '\0' && k != std::string_view::npos) {
        out.push_back(meaning[k]);
        c_.Consume(r.substr(0, 2));
      } else if (e == 'x' && r.size() >= 4 && TextCursor::IsHexDigit(r[2]) &&
                 TextCursor::IsHexDigit(r[3])) {
        out += absl::HexStringToBytes(absl::string_view(r.data() + 2, 2));
        c_.Consume(r.substr(0, 4));
      } else {
        return c_.Error(absl::StrCat("expected an escape (\\n \\r \\t \\\" \\' \\\\ \\xHH), found ",
                                     c_.Next()));
      }
    }
  }

  TextCursor& c_;
};

}  // namespace

absl::StatusOr<sb::Document> ParseDocument(std::string_view text) {
  return harness::ParseAll<sb::Document>(text, [](TextCursor& c, sb::Document& doc) {
    return DocumentParser(c).Elements(doc.elements, false, 1);
  });
}

}  // namespace serdiff::targets::bson
