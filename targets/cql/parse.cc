// CQL family: parsers of the printed inputs of the cql_* targets (targets/cql/domain.h).
//
// The printers put together a protocol version, a type (serdiff::cql::TypeToString), decode
// options (ShowOptions), a value (serdiff::cql::FormatValue) or bytes (harness::Hex). Types are
// read with serdiff::cql::ParseType on the span that ends where the printer's next field
// starts (a type's text never holds " max_depth=", " = " or " count="). Values are read here,
// following FormatValue's structure exactly (its spacing, and the <shape:body> form it prints
// for a value whose shape does not fit the type, which ParseValue does not read); every scalar
// token is handed to ParseValue with its own type.
#include "targets/cql/domain.h"

#include <cstddef>
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "absl/strings/ascii.h"
#include "absl/strings/numbers.h"
#include "absl/strings/str_cat.h"
#include "serdiff/cql/literal.h"
#include "targets/cql/internal.h"

namespace serdiff::targets::cql {

namespace {

using harness::ParseErrorAt;
using harness::TextCursor;

// The scalar shapes of a generic value's printed `<shape:value>` and the CQL kind whose
// literal each is read as; nullopt for any other shape.
std::optional<Kind> ScalarShapeKind(std::string_view shape) {
  static constexpr std::pair<std::string_view, Kind> kShapes[] = {
      {"int64", Kind::kBigint},    {"float", Kind::kFloat},      {"double", Kind::kDouble},
      {"bytes", Kind::kBlob},      {"uuid", Kind::kUuid},        {"varint", Kind::kVarint},
      {"decimal", Kind::kDecimal}, {"duration", Kind::kDuration}};
  for (const auto& [name, kind] : kShapes) {
    if (name == shape) return kind;
  }
  return std::nullopt;
}

// An error of ParseType / ParseValue ("... at character N: what[ in '...']") on the part of
// the text that starts at `base`, as an error at base + N of the whole text.
// `len`: the length of that part when the parser reports the end of a token it could not read
// (ParseValue on one token does): an offset at or past it is moved to `base`, the token's start.
absl::Status Shifted(const absl::Status& s, size_t base, size_t len = std::string_view::npos) {
  const std::string_view msg(s.message().data(), s.message().size());
  constexpr std::string_view kAt = "at character ";
  const size_t at = msg.find(kAt);
  if (at != std::string_view::npos) {
    size_t i = at + kAt.size();
    size_t n = 0;
    const size_t digits = i;
    while (i < msg.size() && msg[i] >= '0' && msg[i] <= '9' && i - digits < 12) {
      n = n * 10 + static_cast<size_t>(msg[i] - '0');
      ++i;
    }
    if (i > digits && msg.substr(i, 2) == ": ") {
      std::string_view what = msg.substr(i + 2);
      const size_t in = what.find(" in '");
      if (in != std::string_view::npos) what = what.substr(0, in);
      // ParseType reports an unknown type name after reading it: point at its start.
      constexpr std::string_view kUnknown = "unknown type '";
      if (what.substr(0, kUnknown.size()) == kUnknown && what.back() == '\'') {
        const size_t word = what.size() - kUnknown.size() - 1;
        if (n >= word) n -= word;
      }
      return ParseErrorAt(n >= len ? base : base + n, what);
    }
  }
  return ParseErrorAt(base, msg);
}

// The type whose text runs from the cursor to the first `stop` (which must follow).
absl::Status ReadTypeUntil(TextCursor& c, std::string_view stop, Type* t) {
  const size_t start = c.pos();
  const std::string_view span = c.Until(stop);
  if (c.AtEnd()) {
    return ParseErrorAt(
        start, absl::StrCat("expected a CQL type followed by \"", std::string(stop), "\""));
  }
  if (span.empty()) return ParseErrorAt(start, "expected a CQL type");
  absl::Status s = opt::ParseType(span, t);
  if (!s.ok()) return Shifted(s, start);
  return absl::OkStatus();
}

// "v<version>" with the version in lo..hi.
absl::Status ReadVersion(TextCursor& c, int lo, int hi, int* v) {
  if (absl::Status s = c.Expect("v"); !s.ok()) return s;
  const size_t at = c.pos();
  if (absl::Status s = c.Int(*v); !s.ok()) return s;
  if (*v < lo || *v > hi) {
    return ParseErrorAt(at, absl::StrCat("protocol version ", *v, " is outside ", lo, "..", hi));
  }
  return absl::OkStatus();
}

// " payload " or " [value] ".
absl::Status ReadFraming(TextCursor& c, bool* framed) {
  if (c.Consume(" payload ")) {
    *framed = false;
  } else if (c.Consume(" [value] ")) {
    *framed = true;
  } else {
    return c.Error(absl::StrCat("expected \" payload \" or \" [value] \", found ", c.Next()));
  }
  return absl::OkStatus();
}

// ShowOptions: " max_depth=N" and the names of the flags that are on, in its order.
absl::Status ReadOptions(TextCursor& c, DecodeOptions* o) {
  if (absl::Status s = c.Expect(" max_depth="); !s.ok()) return s;
  const size_t at = c.pos();
  if (absl::Status s = c.Int(o->max_depth); !s.ok()) return s;
  if (o->max_depth < 0 || o->max_depth > opt::kMaxNestingDepth) {
    return ParseErrorAt(
        at, absl::StrCat("max_depth ", o->max_depth, " is outside 0..", opt::kMaxNestingDepth));
  }
  const std::pair<std::string_view, bool DecodeOptions::*> kFlags[] = {
      {" require_minimal_varint", &DecodeOptions::require_minimal_varint},
      {" reject_short_tuples", &DecodeOptions::reject_short_tuples},
      {" reject_negative_lengths", &DecodeOptions::reject_negative_lengths},
      {" require_time_in_day", &DecodeOptions::require_time_in_day},
      {" reject_duration_trailing_bytes", &DecodeOptions::reject_duration_trailing_bytes},
      {" strict_utf8", &DecodeOptions::strict_utf8},
      {" reject_empty_where_cassandra_does", &DecodeOptions::reject_empty_where_cassandra_does}};
  for (const auto& [name, flag] : kFlags) o->*flag = c.Consume(name);
  return absl::OkStatus();
}

// " bytes(N)=<hex>" (harness::Hex; a cut-short dump fails with ElidedAt).
absl::Status ReadBytes(TextCursor& c, std::string* bytes) {
  if (absl::Status s = c.Expect(" bytes("); !s.ok()) return s;
  size_t n = 0;
  if (absl::Status s = c.Int(n); !s.ok()) return s;
  if (absl::Status s = c.Expect(")="); !s.ok()) return s;
  return harness::ParseHexBytes(c, n, *bytes);
}

// An unsigned field "<name><digits>" with the value at most `max`.
template <typename T>
absl::Status ReadField(TextCursor& c, std::string_view name, T max, T* v) {
  if (absl::Status s = c.Expect(name); !s.ok()) return s;
  const size_t at = c.pos();
  if (absl::Status s = c.Int(*v); !s.ok()) return s;
  if (*v > max) {
    const absl::string_view field =
        absl::StripLeadingAsciiWhitespace(absl::string_view(name.data(), name.size()));
    return ParseErrorAt(at, absl::StrCat(std::string(field), *v, " is above the most the input ",
                                         "holds (", max, ")"));
  }
  return absl::OkStatus();
}

// The index of `k` in kTypedKinds, or -1.
int TypedKindIndex(Kind k) {
  for (uint8_t i = 0; i < kTypedKindCount; ++i) {
    if (kTypedKinds[i] == k) return i;
  }
  return -1;
}

// The typed path's type (TypedType): list/set of a typed kind, or a map of two.
absl::Status ReadTypedType(TextCursor& c, std::string_view stop, uint8_t* container, uint8_t* key,
                           uint8_t* value) {
  const size_t at = c.pos();
  Type t;
  if (absl::Status s = ReadTypeUntil(c, stop, &t); !s.ok()) return s;
  const bool map = t.kind == Kind::kMap;
  if (t.kind != Kind::kList && t.kind != Kind::kSet && !map) {
    return ParseErrorAt(at, "expected a list, set or map type (the typed path's containers)");
  }
  const int k = TypedKindIndex(t.params[0].kind);
  const int v = map ? TypedKindIndex(t.params[1].kind) : 3;
  if (k < 0 || v < 0) {
    return ParseErrorAt(at,
                        "the typed path takes boolean, tinyint, smallint, int, date, bigint, "
                        "counter, timestamp, time, float, double, uuid and timeuuid elements");
  }
  *container = map ? 2 : (t.kind == Kind::kSet ? 1 : 0);
  *key = static_cast<uint8_t>(k);
  *value = static_cast<uint8_t>(v);
  return absl::OkStatus();
}

// ---- values ---------------------------------------------------------------------------------

class ValueReader {
 public:
  explicit ValueReader(TextCursor& c) : c_(c) {}

  absl::Status Typed(const Type& t, Value* out, int depth) {
    if (depth > opt::kMaxNestingDepth) return c_.Error("the value is nested too deeply");
    if (Special(out)) return absl::OkStatus();
    // FormatValue prints a value whose shape does not fit the type (or a composite type
    // without parameters) in the type-free form.
    if (c_.rest().substr(0, 1) == "<" || (!opt::IsNative(t.kind) && t.params.empty())) {
      return Generic(out, depth);
    }
    switch (t.kind) {
      case Kind::kList:
      case Kind::kSet: {
        const bool list = t.kind == Kind::kList;
        std::vector<Value> items;
        absl::Status s = Items(list ? "[" : "{", list ? "]" : "}", depth, [&](size_t) {
          items.emplace_back();
          return Typed(t.params[0], &items.back(), depth + 1);
        });
        if (s.ok()) *out = Value::Items(std::move(items));
        return s;
      }
      case Kind::kMap: {
        std::vector<Value> flat;
        const Type& vt = t.params.size() > 1 ? t.params[1] : t.params[0];
        absl::Status s = Items("{", "}", depth, [&](size_t) {
          flat.emplace_back();
          if (absl::Status k = Typed(t.params[0], &flat.back(), depth + 1); !k.ok()) return k;
          if (absl::Status k = c_.Expect(": "); !k.ok()) return k;
          flat.emplace_back();
          return Typed(vt, &flat.back(), depth + 1);
        });
        if (s.ok()) *out = Value::Pairs(std::move(flat));
        return s;
      }
      case Kind::kTuple: {
        std::vector<Value> items;
        absl::Status s = Items("(", ")", depth, [&](size_t i) {
          items.emplace_back();
          return i < t.params.size() ? Typed(t.params[i], &items.back(), depth + 1)
                                     : Generic(&items.back(), depth + 1);
        });
        if (s.ok()) *out = Value::Items(std::move(items));
        return s;
      }
      case Kind::kUdt: {
        std::vector<Value> items;
        absl::Status s = Items("{", "}", depth, [&](size_t i) {
          items.emplace_back();
          if (i < t.params.size() && i < t.field_names.size()) {
            if (absl::Status f = c_.Expect(absl::StrCat(t.field_names[i], ": ")); !f.ok()) {
              return f;
            }
            return Typed(t.params[i], &items.back(), depth + 1);
          }
          if (absl::Status f = c_.Expect("?: "); !f.ok()) return f;
          return Generic(&items.back(), depth + 1);
        });
        if (s.ok()) *out = Value::Items(std::move(items));
        return s;
      }
      default:
        return Scalar(t.kind, out);
    }
  }

 private:
  // null, unset, empty (whole words).
  bool Special(Value* out) {
    for (std::string_view w : {"null", "unset", "empty"}) {
      const std::string_view r = c_.rest();
      if (r.substr(0, w.size()) != w) continue;
      if (r.size() > w.size() &&
          (absl::ascii_isalnum(static_cast<unsigned char>(r[w.size()])) || r[w.size()] == '_')) {
        continue;
      }
      c_.Consume(w);
      *out = w == "null" ? Value::Null() : (w == "unset" ? Value::Unset() : Value::Empty());
      return true;
    }
    return false;
  }

  // `open`, items separated by ", " (each read by item(index)), `close`.
  template <typename Fn>
  absl::Status Items(std::string_view open, std::string_view close, int depth, Fn item) {
    (void)depth;
    if (absl::Status s = c_.Expect(open); !s.ok()) return s;
    if (c_.Consume(close)) return absl::OkStatus();
    for (size_t i = 0;; ++i) {
      if (absl::Status s = item(i); !s.ok()) return s;
      if (c_.Consume(", ")) continue;
      return c_.Expect(close);
    }
  }

  // The extent of one scalar token as FormatValue prints it: a quoted string (text, ascii,
  // inet), duration(m, d, n), or a run of [A-Za-z0-9_.+-] (numbers, 0x hex, uuids, inf) with a
  // nan(0x...) bit pattern. Then ParseValue on the token alone, with the scalar's type.
  absl::Status Scalar(Kind k, Value* out) {
    const std::string_view r = c_.rest();
    size_t end = 0;
    if (!r.empty() && r[0] == '\'') {
      end = 1;
      while (end < r.size() && r[end] != '\'') end += r[end] == '\\' ? 2 : 1;
      if (end >= r.size()) return c_.Error("unterminated quoted string");
      ++end;
    } else if (r.substr(0, 9) == "duration(") {
      end = r.find(')');
      if (end == std::string_view::npos) return c_.Error("expected \")\" after duration(");
      ++end;
    } else {
      while (end < r.size() && (absl::ascii_isalnum(static_cast<unsigned char>(r[end])) ||
                                r[end] == '_' || r[end] == '.' || r[end] == '+' || r[end] == '-')) {
        ++end;
      }
      if (end < r.size() && r[end] == '(') {  // nan(0x...)
        const size_t close = r.find(')', end);
        if (close == std::string_view::npos) return c_.Error("expected \")\" after nan(");
        end = close + 1;
      }
    }
    if (end == 0) {
      return c_.Error(
          absl::StrCat("expected a ", std::string(opt::KindName(k)), " value, found ", c_.Next()));
    }
    const size_t at = c_.pos();
    absl::Status s = opt::ParseValue(Type::Native(k), r.substr(0, end), out);
    if (!s.ok()) return Shifted(s, at, end);
    c_.Consume(r.substr(0, end));
    return absl::OkStatus();
  }

  // FormatGeneric: null / unset / empty, or <shape:body>.
  absl::Status Generic(Value* out, int depth) {
    if (depth > opt::kMaxNestingDepth) return c_.Error("the value is nested too deeply");
    if (Special(out)) return absl::OkStatus();
    if (absl::Status s = c_.Expect("<"); !s.ok()) return s;
    const size_t at = c_.pos();
    const std::string_view shape = c_.Until(":");
    if (!c_.Consume(":")) return ParseErrorAt(at, "expected <shape:value>");
    absl::Status s;
    if (shape == "bool") {
      if (c_.Consume("true")) {
        *out = Value::Bool(true);
      } else if (c_.Consume("false")) {
        *out = Value::Bool(false);
      } else {
        s = c_.Error(absl::StrCat("expected true or false, found ", c_.Next()));
      }
    } else if (const std::optional<Kind> kind = ScalarShapeKind(shape)) {
      s = Scalar(*kind, out);
    } else if (shape == "items" || shape == "pairs") {
      std::vector<Value> items;
      s = Items("[", "]", depth, [&](size_t) {
        items.emplace_back();
        return Generic(&items.back(), depth + 1);
      });
      if (s.ok()) {
        *out = shape == "items" ? Value::Items(std::move(items)) : Value::Pairs(std::move(items));
      }
    } else {
      return ParseErrorAt(at, absl::StrCat("unknown value shape \"", std::string(shape), "\""));
    }
    if (!s.ok()) return s;
    return c_.Expect(">");
  }

  TextCursor& c_;
};

}  // namespace

absl::Status ParseValueText(TextCursor& c, const Type& t, Value* out) {
  return ValueReader(c).Typed(t, out, 0);
}

absl::StatusOr<EncodeInput> ParseEncodeInput(std::string_view text, int max_depth) {
  return harness::ParseAll<EncodeInput>(text, [max_depth](TextCursor& c, EncodeInput& in) {
    if (absl::Status s = ReadVersion(c, 1, 5, &in.version); !s.ok()) return s;
    if (absl::Status s = ReadFraming(c, &in.framed); !s.ok()) return s;
    const size_t at = c.pos();
    if (absl::Status s = ReadTypeUntil(c, " = ", &in.type); !s.ok()) return s;
    if (opt::TypeDepth(in.type) > max_depth) {
      return ParseErrorAt(at, absl::StrCat("the type is nested ", opt::TypeDepth(in.type),
                                           " deep; this input holds types up to ", max_depth));
    }
    if (absl::Status s = c.Expect(" = "); !s.ok()) return s;
    return ParseValueText(c, in.type, &in.value);
  });
}

absl::StatusOr<DecodeInput> ParseDecodeInput(std::string_view text) {
  return harness::ParseAll<DecodeInput>(text, [](TextCursor& c, DecodeInput& in) {
    if (absl::Status s = ReadVersion(c, 1, 5, &in.version); !s.ok()) return s;
    if (absl::Status s = ReadFraming(c, &in.framed); !s.ok()) return s;
    if (absl::Status s = ReadTypeUntil(c, " max_depth=", &in.type); !s.ok()) return s;
    if (absl::Status s = ReadOptions(c, &in.options); !s.ok()) return s;
    return ReadBytes(c, &in.bytes);
  });
}

absl::StatusOr<DecodeSetup> ParseDecodeSetup(std::string_view text) {
  constexpr std::string_view kOptions = "\n  options";
  const size_t line = text.rfind(kOptions);
  if (line == std::string_view::npos) {
    return ParseErrorAt(text.size(), "expected a second line \"  options max_depth=...\"");
  }
  absl::StatusOr<EncodeInput> base = ParseEncodeInput(text.substr(0, line), kMaxTypeDepth);
  if (!base.ok()) return base.status();
  TextCursor c(text);
  c.Consume(text.substr(0, line + kOptions.size()));
  DecodeSetup in;
  in.base = *std::move(base);
  if (absl::Status s = ReadOptions(c, &in.options); !s.ok()) return s;
  if (absl::Status s = c.End(); !s.ok()) return s;
  return in;
}

absl::StatusOr<LargeInput> ParseLargeInput(std::string_view text) {
  TextCursor c(text);
  LargeSpec s;
  bool found = false;
  for (uint8_t shape = 0; shape < kLargeShapes && !found; ++shape) {
    const std::string name = LargeShapeName(shape);
    if (c.rest().substr(0, name.size() + 7) == absl::StrCat(name, " count=")) {
      c.Consume(name);
      s.shape = shape;
      found = true;
    }
  }
  if (!found) {
    return c.Error(absl::StrCat("expected one of the large shapes (list<int>, ..., ",
                                LargeShapeName(kLargeShapes - 1), ") and \" count=\""));
  }
  if (absl::Status st = ReadField(c, " count=", kLargeMaxCount, &s.count); !st.ok()) return st;
  if (absl::Status st = ReadField(c, " nulls=", uint8_t{100}, &s.null_pct); !st.ok()) return st;
  if (absl::Status st = c.Expect("%"); !st.ok()) return st;
  if (absl::Status st = ReadField(c, " text_len=", kLargeMaxTextLen, &s.text_len); !st.ok()) {
    return st;
  }
  if (absl::Status st = ReadField(c, " seed=", ~uint64_t{0}, &s.seed); !st.ok()) return st;
  if (absl::Status st = c.Expect(" v"); !st.ok()) return st;
  const size_t at = c.pos();
  if (absl::Status st = c.Int(s.version); !st.ok()) return st;
  if (s.version < 3 || s.version > 5) {
    return ParseErrorAt(at, absl::StrCat("protocol version ", s.version, " is outside 3..5"));
  }
  if (absl::Status st = c.End(); !st.ok()) return st;
  return LargeInput{s, BuildLarge(s)};
}

absl::StatusOr<TypedInput> ParseTypedInput(std::string_view text) {
  TextCursor c(text);
  TypedSpec s;
  int version = 0;
  if (absl::Status st = ReadVersion(c, 1, 5, &version); !st.ok()) return st;
  s.version = static_cast<uint8_t>(version);
  if (absl::Status st = c.Expect(" "); !st.ok()) return st;
  if (absl::Status st = ReadTypedType(c, " count=", &s.container, &s.key, &s.value); !st.ok()) {
    return st;
  }
  if (absl::Status st = ReadField(c, " count=", kTypedMaxCount, &s.count); !st.ok()) return st;
  if (absl::Status st = ReadField(c, " nulls=", uint8_t{100}, &s.null_pct); !st.ok()) return st;
  if (absl::Status st = c.Expect("%"); !st.ok()) return st;
  s.bad = c.Consume(" bad");
  if (absl::Status st = ReadField(c, " seed=", ~uint64_t{0}, &s.seed); !st.ok()) return st;
  if (absl::Status st = c.End(); !st.ok()) return st;
  return BuildTyped(s);
}

absl::StatusOr<TypedDecodeInput> ParseTypedDecodeInput(std::string_view text) {
  return harness::ParseAll<TypedDecodeInput>(text, [](TextCursor& c, TypedDecodeInput& in) {
    if (absl::Status s = ReadVersion(c, 1, 5, &in.version); !s.ok()) return s;
    if (absl::Status s = c.Expect(" "); !s.ok()) return s;
    if (absl::Status s = ReadTypedType(c, " max_depth=", &in.container, &in.key, &in.value);
        !s.ok()) {
      return s;
    }
    if (absl::Status s = ReadOptions(c, &in.options); !s.ok()) return s;
    return ReadBytes(c, &in.bytes);
  });
}

}  // namespace serdiff::targets::cql
