// The reader of the text form of CQL values (literal.h: ParseValue): golden vectors and
// hand-written values are read back through it. It inverts the printer (FormatValue, literal.cc,
// whose file comment says why the text looks the way it does) for values that fit their type.
#include "serdiff/cql/literal.h"

#include <bit>
#include <charconv>
#include <cstdint>
#include <cstring>
#include <limits>
#include <string>
#include <vector>

#include "absl/strings/ascii.h"
#include "absl/strings/escaping.h"
#include "absl/strings/numbers.h"
#include "absl/strings/str_cat.h"
#include "absl/strings/str_split.h"

namespace serdiff::cql {
namespace {

// ---- parsing -------------------------------------------------------------------------------

// A recursive-descent parser over the printer's grammar. It reads untrusted text (golden
// files, command-line values), so it never indexes past the input and never recurses deeper
// than kMaxNestingDepth. It does not range-check values against the type (a tinyint of 300
// parses): out-of-range values are inputs the encoders must reject, and tests write them
// as text.
class ValueParser {
 public:
  explicit ValueParser(absl::string_view s) : s_(s) {}

  absl::Status ParseAll(const Type& t, Value* out) {
    absl::Status st = Parse(t, out, 0);
    if (!st.ok()) return st;
    SkipSpace();
    if (pos_ != s_.size()) return Error("trailing characters");
    return absl::OkStatus();
  }

 private:
  absl::Status Error(absl::string_view what) const {
    return absl::InvalidArgumentError(absl::StrCat("value syntax at character ", pos_, ": ", what));
  }
  void SkipSpace() {
    while (pos_ < s_.size() && absl::ascii_isspace(static_cast<unsigned char>(s_[pos_]))) ++pos_;
  }
  bool Eat(char c) {
    SkipSpace();
    if (pos_ < s_.size() && s_[pos_] == c) {
      ++pos_;
      return true;
    }
    return false;
  }
  // A keyword or field name only when a whole word matches: otherwise the keyword "null"
  // would eat the start of a UDT field named "nullable".
  bool EatWord(absl::string_view w) {
    SkipSpace();
    if (s_.substr(pos_, w.size()) != w) return false;
    const size_t end = pos_ + w.size();
    if (end < s_.size() &&
        (absl::ascii_isalnum(static_cast<unsigned char>(s_[end])) || s_[end] == '_')) {
      return false;
    }
    pos_ = end;
    return true;
  }
  // A run of characters that may form a number, uuid, hex blob or identifier.
  absl::string_view Token() {
    SkipSpace();
    const size_t start = pos_;
    while (pos_ < s_.size()) {
      const char c = s_[pos_];
      if (absl::ascii_isalnum(static_cast<unsigned char>(c)) || c == '-' || c == '+' || c == '.' ||
          c == '_' || c == '(') {
        if (c == '(') {  // nan(0x...)
          const size_t close = s_.find(')', pos_);
          if (close == absl::string_view::npos) break;
          pos_ = close + 1;
          break;
        }
        ++pos_;
      } else {
        break;
      }
    }
    return s_.substr(start, pos_ - start);
  }

  absl::Status ParseQuoted(std::string* out) {
    if (!Eat('\'')) return Error("expected a quoted string");
    while (true) {
      if (pos_ >= s_.size()) return Error("unterminated string");
      const char c = s_[pos_++];
      if (c == '\'') return absl::OkStatus();
      if (c != '\\') {
        out->push_back(c);
        continue;
      }
      if (pos_ >= s_.size()) return Error("unterminated escape");
      const char e = s_[pos_++];
      if (e == '\\' || e == '\'') {
        out->push_back(e);
      } else if (e == 'x') {
        if (pos_ + 2 > s_.size()) return Error("short \\x escape");
        const absl::string_view hex = s_.substr(pos_, 2);
        if (!absl::ascii_isxdigit(static_cast<unsigned char>(hex[0])) ||
            !absl::ascii_isxdigit(static_cast<unsigned char>(hex[1]))) {
          return Error("bad \\x escape");
        }
        out->append(absl::HexStringToBytes(hex));
        pos_ += 2;
      } else {
        return Error("unknown escape");
      }
    }
  }

  absl::Status ParseHex(absl::string_view tok, std::string* out) {
    if (tok.size() < 2 || tok[0] != '0' || (tok[1] != 'x' && tok[1] != 'X')) {
      return Error("expected 0x<hex>");
    }
    tok.remove_prefix(2);
    if (tok.size() % 2 != 0) return Error("odd number of hex digits");
    for (char c : tok) {
      if (!absl::ascii_isxdigit(static_cast<unsigned char>(c))) return Error("bad hex digit");
    }
    *out = absl::HexStringToBytes(tok);
    return absl::OkStatus();
  }

  template <typename F, typename Bits>
  absl::Status ParseFloating(absl::string_view tok, F* out) {
    // nan(0x...) is this format's own spelling: from_chars would read a NaN with a payload of
    // its choosing, not these bits.
    if (tok.substr(0, 4) == "nan(" && tok.back() == ')') {
      Bits bits = 0;
      std::string hex;
      absl::Status st = ParseHex(tok.substr(4, tok.size() - 5), &hex);
      if (!st.ok() || hex.size() != sizeof(Bits)) return Error("bad nan bits");
      for (char c : hex) bits = static_cast<Bits>((bits << 8) | static_cast<uint8_t>(c));
      *out = std::bit_cast<F>(bits);
      return absl::OkStatus();
    }
    bool neg = false;
    absl::string_view body = tok;
    if (!body.empty() && body[0] == '-') {
      neg = true;
      body.remove_prefix(1);
    }
    if (body == "inf") {
      *out = neg ? -std::numeric_limits<F>::infinity() : std::numeric_limits<F>::infinity();
      return absl::OkStatus();
    }
    F f{};
    auto res = std::from_chars(tok.data(), tok.data() + tok.size(), f);
    if (res.ec != std::errc() || res.ptr != tok.data() + tok.size()) {
      return Error(absl::StrCat("bad floating-point literal '", tok, "'"));
    }
    *out = f;
    return absl::OkStatus();
  }

  absl::Status ParseDecimal(absl::string_view tok, Decimal* out) {
    bool neg = false;
    if (!tok.empty() && (tok[0] == '-' || tok[0] == '+')) {
      neg = tok[0] == '-';
      tok.remove_prefix(1);
    }
    int64_t exponent = 0;
    const size_t e = tok.find_first_of("eE");
    if (e != absl::string_view::npos) {
      absl::string_view exp = tok.substr(e + 1);
      if (!exp.empty() && exp[0] == '+') exp.remove_prefix(1);
      // Bounded far beyond int32 so that fraction - exponent cannot overflow; the scale's
      // int32 range is checked on the exact result below.
      if (!absl::SimpleAtoi(exp, &exponent) || exponent < -(int64_t{1} << 40) ||
          exponent > (int64_t{1} << 40)) {
        return Error("bad decimal exponent");
      }
      tok = tok.substr(0, e);
    }
    std::string digits;
    int64_t fraction = 0;
    const size_t dot = tok.find('.');
    if (dot != absl::string_view::npos) {
      digits = absl::StrCat(tok.substr(0, dot), tok.substr(dot + 1));
      fraction = static_cast<int64_t>(tok.size() - dot - 1);
      if (dot == 0) return Error("decimal needs a digit before '.'");
    } else {
      digits = std::string(tok);
    }
    const int64_t scale = fraction - exponent;
    if (scale < INT32_MIN || scale > INT32_MAX) return Error("decimal scale out of int32 range");
    if (digits.empty() || digits.find_first_not_of("0123456789") != std::string::npos) {
      return Error("bad decimal digits");
    }
    BigInt unscaled;
    if (!BigInt::FromDecimalString(neg ? "-" + digits : digits, &unscaled)) {
      return Error("bad decimal digits");
    }
    out->scale = static_cast<int32_t>(scale);
    out->unscaled = std::move(unscaled);
    return absl::OkStatus();
  }

  absl::Status ParseInet(Value* out) {
    std::string text;
    absl::Status st = ParseQuoted(&text);
    if (!st.ok()) return st;
    std::string bytes;
    if (text.find(':') == std::string::npos) {
      std::vector<absl::string_view> parts = absl::StrSplit(text, '.');
      if (parts.size() != 4) return Error("IPv4 address needs 4 parts");
      for (auto p : parts) {
        int v;
        if (!absl::SimpleAtoi(p, &v) || v < 0 || v > 255) return Error("bad IPv4 part");
        bytes.push_back(static_cast<char>(v));
      }
    } else {
      std::vector<absl::string_view> parts = absl::StrSplit(text, ':');
      // The printer's form only (see FormatInet): "::" is not read.
      if (parts.size() != 8) return Error("IPv6 address needs 8 groups (no '::')");
      for (auto p : parts) {
        uint32_t v;
        if (p.empty() || p.size() > 4 ||
            p.find_first_not_of("0123456789abcdefABCDEF") != absl::string_view::npos ||
            !absl::SimpleHexAtoi(p, &v)) {
          return Error("bad IPv6 group");
        }
        bytes.push_back(static_cast<char>(v >> 8));
        bytes.push_back(static_cast<char>(v & 0xFF));
      }
    }
    *out = Value::Inet(std::move(bytes));
    return absl::OkStatus();
  }

  absl::Status ParseUuid(absl::string_view tok, Value* out) {
    std::string hex;
    for (size_t i = 0; i < tok.size(); ++i) {
      if (tok[i] == '-') {
        if (i != 8 && i != 13 && i != 18 && i != 23) return Error("bad uuid dash");
        continue;
      }
      hex.push_back(tok[i]);
    }
    if (tok.size() != 36 || hex.size() != 32) return Error("uuid needs 8-4-4-4-12 hex digits");
    for (char c : hex) {
      if (!absl::ascii_isxdigit(static_cast<unsigned char>(c))) return Error("bad uuid digit");
    }
    const std::string bytes = absl::HexStringToBytes(hex);
    Uuid u;
    std::memcpy(u.data(), bytes.data(), 16);
    *out = Value::FromUuid(u);
    return absl::OkStatus();
  }

  absl::Status ParseItems(const Type& elem, char close, std::vector<Value>* items, int depth) {
    if (Eat(close)) return absl::OkStatus();
    do {
      items->emplace_back();
      absl::Status st = Parse(elem, &items->back(), depth + 1);
      if (!st.ok()) return st;
    } while (Eat(','));
    if (!Eat(close)) return Error(absl::StrCat("expected '", std::string(1, close), "'"));
    return absl::OkStatus();
  }

  absl::Status Parse(const Type& t, Value* out, int depth) {
    if (depth > kMaxNestingDepth) return Error("nested too deeply");
    if (EatWord("null")) {
      *out = Value::Null();
      return absl::OkStatus();
    }
    if (EatWord("unset")) {
      *out = Value::Unset();
      return absl::OkStatus();
    }
    if (EatWord("empty")) {
      *out = Value::Empty();
      return absl::OkStatus();
    }
    if (IsIntegerKind(t.kind)) {
      const absl::string_view tok = Token();
      int64_t v;
      if (!absl::SimpleAtoi(tok, &v)) return Error(absl::StrCat("bad integer '", tok, "'"));
      *out = Value::Int(v);
      return absl::OkStatus();
    }
    switch (t.kind) {
      case Kind::kBoolean:
        if (EatWord("true")) {
          *out = Value::Bool(true);
        } else if (EatWord("false")) {
          *out = Value::Bool(false);
        } else {
          return Error("expected true or false");
        }
        return absl::OkStatus();
      case Kind::kVarint: {
        const absl::string_view tok = Token();
        BigInt b;
        if (!BigInt::FromDecimalString(std::string_view(tok.data(), tok.size()), &b)) {
          return Error("bad varint");
        }
        *out = Value::Varint(std::move(b));
        return absl::OkStatus();
      }
      case Kind::kFloat: {
        float f;
        absl::Status st = ParseFloating<float, uint32_t>(Token(), &f);
        if (st.ok()) *out = Value::Float(f);
        return st;
      }
      case Kind::kDouble: {
        double d;
        absl::Status st = ParseFloating<double, uint64_t>(Token(), &d);
        if (st.ok()) *out = Value::Double(d);
        return st;
      }
      case Kind::kDecimal: {
        Decimal d;
        absl::Status st = ParseDecimal(Token(), &d);
        if (st.ok()) *out = Value::FromDecimal(std::move(d));
        return st;
      }
      case Kind::kText:
      case Kind::kAscii: {
        std::string s;
        absl::Status st = ParseQuoted(&s);
        if (st.ok()) *out = Value::Text(std::move(s));
        return st;
      }
      case Kind::kBlob: {
        std::string b;
        absl::Status st = ParseHex(Token(), &b);
        if (st.ok()) *out = Value::Blob(std::move(b));
        return st;
      }
      case Kind::kInet: {
        SkipSpace();
        if (pos_ < s_.size() && s_[pos_] == '\'') return ParseInet(out);
        std::string b;
        absl::Status st = ParseHex(Token(), &b);
        if (st.ok()) *out = Value::Inet(std::move(b));
        return st;
      }
      case Kind::kUuid:
      case Kind::kTimeuuid:
        return ParseUuid(Token(), out);
      case Kind::kDuration: {
        if (!EatWord("duration") || !Eat('(')) return Error("expected duration(");
        int64_t parts[3];
        for (int i = 0; i < 3; ++i) {
          if (i && !Eat(',')) return Error("expected ','");
          const absl::string_view tok = Token();
          if (!absl::SimpleAtoi(tok, &parts[i])) return Error("bad duration component");
        }
        if (!Eat(')')) return Error("expected ')'");
        if (parts[0] < INT32_MIN || parts[0] > INT32_MAX || parts[1] < INT32_MIN ||
            parts[1] > INT32_MAX) {
          return Error("duration months/days out of int32 range");
        }
        *out = Value::FromDuration(
            Duration{static_cast<int32_t>(parts[0]), static_cast<int32_t>(parts[1]), parts[2]});
        return absl::OkStatus();
      }
      case Kind::kList:
      case Kind::kSet: {
        const bool list = t.kind == Kind::kList;
        if (t.params.size() != 1) return Error("bad collection type");
        if (!Eat(list ? '[' : '{')) return Error(list ? "expected '['" : "expected '{'");
        std::vector<Value> items;
        absl::Status st = ParseItems(t.params[0], list ? ']' : '}', &items, depth);
        if (st.ok()) *out = Value::Items(std::move(items));
        return st;
      }
      case Kind::kMap: {
        if (t.params.size() != 2) return Error("bad map type");
        if (!Eat('{')) return Error("expected '{'");
        std::vector<Value> flat;
        if (!Eat('}')) {
          do {
            flat.emplace_back();
            absl::Status st = Parse(t.params[0], &flat.back(), depth + 1);
            if (!st.ok()) return st;
            if (!Eat(':')) return Error("expected ':'");
            flat.emplace_back();
            st = Parse(t.params[1], &flat.back(), depth + 1);
            if (!st.ok()) return st;
          } while (Eat(','));
          if (!Eat('}')) return Error("expected '}'");
        }
        *out = Value::Pairs(std::move(flat));
        return absl::OkStatus();
      }
      case Kind::kTuple: {
        if (!Eat('(')) return Error("expected '('");
        std::vector<Value> items;
        if (!Eat(')')) {
          do {
            // Checked before indexing t.params: the text may hold more items than the type.
            if (items.size() >= t.params.size()) return Error("too many tuple items");
            items.emplace_back();
            absl::Status st = Parse(t.params[items.size() - 1], &items.back(), depth + 1);
            if (!st.ok()) return st;
          } while (Eat(','));
          if (!Eat(')')) return Error("expected ')'");
        }
        *out = Value::Tuple(std::move(items));
        return absl::OkStatus();
      }
      case Kind::kUdt: {
        // Fields in declaration order, each by its name, possibly fewer than declared (the
        // printer's form of a UDT value that ends early).
        if (!Eat('{')) return Error("expected '{'");
        std::vector<Value> items;
        if (!Eat('}')) {
          do {
            const size_t i = items.size();
            if (i >= t.params.size() || i >= t.field_names.size()) {
              return Error("too many udt fields");
            }
            if (!EatWord(t.field_names[i]) || !Eat(':')) {
              return Error(absl::StrCat("expected field '", t.field_names[i], ":'"));
            }
            items.emplace_back();
            absl::Status st = Parse(t.params[i], &items.back(), depth + 1);
            if (!st.ok()) return st;
          } while (Eat(','));
          if (!Eat('}')) return Error("expected '}'");
        }
        *out = Value::Udt(std::move(items));
        return absl::OkStatus();
      }
      default:  // the integer kinds, read above (IsIntegerKind)
        break;
    }
    return Error("unknown type");
  }

  absl::string_view s_;
  size_t pos_ = 0;
};

}  // namespace

absl::Status ParseValue(const Type& t, std::string_view text, Value* out) {
  return ValueParser(absl::string_view(text.data(), text.size())).ParseAll(t, out);
}

}  // namespace serdiff::cql
