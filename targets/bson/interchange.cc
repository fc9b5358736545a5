// BSON family: how the inputs of the bson targets cross to workers and modules (docs/workers.md,
// "The interchange"; harness/external.h), declared in targets/bson/domain.h. The one part with
// rules of its own is the writer of MongoDB Extended JSON v2, canonical mode
// (mongodb/specifications, source/extended-json/extended-json.md, "Conversion table"), for a
// serdiff::bson::Document: a document is written as EJSON only where the text denotes exactly the
// bytes the encoders write, else bson.encode sends the reference encoder's bytes in hex.
//
// The writer's output is compact (no spaces), the keys in the document's order, the wrappers'
// keys in the order of the conversion table.
#include <algorithm>
#include <bit>
#include <charconv>
#include <cmath>
#include <cstdint>
#include <cstdlib>
#include <limits>
#include <optional>
#include <string>
#include <string_view>
#include <unordered_set>
#include <vector>

#include "absl/status/status.h"
#include "absl/strings/escaping.h"
#include "absl/strings/str_cat.h"
#include "absl/strings/string_view.h"
#include "harness/target.h"
#include "reference/bson/bson_ref.h"
#include "reference/timestamp/timestamp_ref.h"
#include "serdiff/bson/codec.h"
#include "serdiff/common/utf8.h"
#include "targets/bson/domain.h"
#include "targets/bson/interchange.h"

namespace serdiff::targets::bson {

namespace sb = serdiff::bson;
using sb::Document;
using sb::Element;
using sb::Type;
using sb::Value;

namespace {

// The encoders' nesting limit (a top-level document is level 1; docs/bson.md): the optimized
// codec's own constant.
constexpr int kMaxDepth = sb::kDefaultMaxDepth;
// The one NaN that EJSON's "NaN" reads back as in every parser (the quiet NaN, no payload).
constexpr uint64_t kCanonicalNan = 0x7FF8000000000000;

// Well-formed UTF-8 (serdiff/common/utf8.h: RFC 3629 / Unicode table 3-7).
bool IsWellFormedUtf8(absl::string_view s) {
  return serdiff::FirstInvalidUtf8(reinterpret_cast<const uint8_t*>(s.data()), s.size()) ==
         s.size();
}

// The BSON 1.1 regex options as the encoders write them: every byte value from the smallest up,
// as often as it occurs ("must be stored in alphabetical order").
std::string SortedOptions(std::string options) {
  std::sort(options.begin(), options.end(),
            [](char a, char b) { return static_cast<uint8_t>(a) < static_cast<uint8_t>(b); });
  return options;
}

absl::Status Inexact(absl::string_view why) { return absl::FailedPreconditionError(why); }

class Writer {
 public:
  std::string& out() { return out_; }

  // A document's elements as a JSON object, keys in the document's order.
  absl::Status Object(const std::vector<Element>& elements, int depth) {
    if (depth > kMaxDepth) {
      return absl::InvalidArgumentError(
          absl::StrCat("nested deeper than ", kMaxDepth, " levels (the encoders reject it)"));
    }
    std::unordered_set<std::string_view> seen;
    seen.reserve(elements.size());
    out_.push_back('{');
    for (size_t i = 0; i < elements.size(); ++i) {
      const std::string& key = elements[i].key;
      if (key.find('\0') != std::string::npos) {
        return absl::InvalidArgumentError("a key contains NUL (the encoders reject it)");
      }
      if (!key.empty() && key[0] == '$') {
        return Inexact(absl::StrCat("the key \"", absl::CHexEscape(key),
                                    "\" begins with '$' (EJSON reads such keys as type wrappers "
                                    "or DBRefs)"));
      }
      if (!IsWellFormedUtf8(key)) {
        return Inexact(absl::StrCat("the key \"", absl::CHexEscape(key), "\" is not UTF-8"));
      }
      if (!seen.insert(std::string_view(key)).second) {
        return Inexact(absl::StrCat("the key \"", absl::CHexEscape(key),
                                    "\" occurs twice in one document (a JSON object keeps one)"));
      }
      if (i > 0) out_.push_back(',');
      harness::AppendJsonString(&out_, key);
      out_.push_back(':');
      if (absl::Status st = Val(elements[i].value, depth); !st.ok()) return st;
    }
    out_.push_back('}');
    return absl::OkStatus();
  }

 private:
  // A string value (string, code, symbol, regex parts, DBPointer namespace).
  absl::Status String(absl::string_view s, absl::string_view what) {
    if (s.find('\0') != absl::string_view::npos) {
      return Inexact(absl::StrCat("a ", what, " contains NUL"));
    }
    if (!IsWellFormedUtf8(s)) return Inexact(absl::StrCat("a ", what, " is not UTF-8"));
    harness::AppendJsonString(&out_, s);
    return absl::OkStatus();
  }

  // {"<wrapper>":"<text>"}
  void Wrapped(absl::string_view wrapper, absl::string_view text) {
    absl::StrAppend(&out_, "{\"", wrapper, "\":\"", text, "\"}");
  }

  absl::Status Array(const Value& v, int depth) {
    if (sb::IsPacked(v)) {
      if (!sb::PackedWellFormed(v)) {
        return absl::InvalidArgumentError("an ill-formed packed array (the encoders reject it)");
      }
      return Array(sb::Unpack(v), depth);
    }
    if (depth + 1 > kMaxDepth) {
      return absl::InvalidArgumentError(
          absl::StrCat("nested deeper than ", kMaxDepth, " levels (the encoders reject it)"));
    }
    // The encoders write the keys "0", "1", ... whatever the model's keys are (document.h), and
    // so does every EJSON reader for a JSON array.
    out_.push_back('[');
    for (size_t i = 0; i < v.children.size(); ++i) {
      if (i > 0) out_.push_back(',');
      if (absl::Status st = Val(v.children[i].value, depth + 1); !st.ok()) return st;
    }
    out_.push_back(']');
    return absl::OkStatus();
  }

  // One element's value; `depth` is the level of the container holding it.
  absl::Status Val(const Value& v, int depth) {
    switch (v.type) {
      case Type::kDouble: {
        std::optional<std::string> text = ExtendedJsonDouble(v.d);
        if (!text) {
          return Inexact(absl::StrCat("the double with bits ",
                                      absl::Hex(std::bit_cast<uint64_t>(v.d), absl::kZeroPad16),
                                      " is a NaN whose sign or payload EJSON's \"NaN\" loses"));
        }
        Wrapped("$numberDouble", *text);
        return absl::OkStatus();
      }
      case Type::kString:
        return String(v.s, "string");
      case Type::kDocument:
        return Object(v.children, depth + 1);
      case Type::kArray:
        return Array(v, depth);
      case Type::kBinary: {
        // Subtype 0x02's inner length is the encoders' to add: the payload is the model's s.
        absl::StrAppend(
            &out_, "{\"$binary\":{\"base64\":\"", absl::Base64Escape(v.s), "\",\"subType\":\"",
            absl::BytesToHexString(std::string(1, static_cast<char>(v.subtype))), "\"}}");
        return absl::OkStatus();
      }
      case Type::kUndefined:
        out_.append("{\"$undefined\":true}");
        return absl::OkStatus();
      case Type::kObjectId:
        if (v.s.size() != 12) {
          return absl::InvalidArgumentError("an ObjectId that is not 12 bytes");
        }
        Wrapped("$oid", absl::BytesToHexString(v.s));
        return absl::OkStatus();
      case Type::kBool:
        if (v.i != 0 && v.i != 1) {
          return absl::InvalidArgumentError("a bool that is not 0 or 1 (the encoders reject it)");
        }
        out_.append(v.i != 0 ? "true" : "false");
        return absl::OkStatus();
      case Type::kDateTime: {
        int64_t ms = v.i;
        if (v.civil.has_value()) {
          // As the reference encoder converts it (reference/bson, floor).
          absl::StatusOr<int64_t> m =
              ref::timestamp::ToUnixMillis(*v.civil, serdiff::timestamp::Rounding::kFloor);
          if (!m.ok()) return m.status();
          ms = *m;
        }
        absl::StrAppend(&out_, "{\"$date\":{\"$numberLong\":\"", ms, "\"}}");
        return absl::OkStatus();
      }
      case Type::kNull:
        out_.append("null");
        return absl::OkStatus();
      case Type::kRegex: {
        if (v.s.find('\0') != std::string::npos || v.s2.get().find('\0') != std::string::npos) {
          return absl::InvalidArgumentError("a regex contains NUL (the encoders reject it)");
        }
        out_.append("{\"$regularExpression\":{\"pattern\":");
        if (absl::Status st = String(v.s, "regex pattern"); !st.ok()) return st;
        out_.append(",\"options\":");
        if (absl::Status st = String(SortedOptions(v.s2.get()), "regex options string"); !st.ok()) {
          return st;
        }
        out_.append("}}");
        return absl::OkStatus();
      }
      case Type::kDbPointer: {
        if (v.s2.size() != 12) {
          return absl::InvalidArgumentError("a DBPointer id that is not 12 bytes");
        }
        out_.append("{\"$dbPointer\":{\"$ref\":");
        if (absl::Status st = String(v.s, "DBPointer namespace"); !st.ok()) return st;
        absl::StrAppend(&out_, ",\"$id\":{\"$oid\":\"", absl::BytesToHexString(v.s2.get()),
                        "\"}}}");
        return absl::OkStatus();
      }
      case Type::kCode:
        out_.append("{\"$code\":");
        if (absl::Status st = String(v.s, "code string"); !st.ok()) return st;
        out_.push_back('}');
        return absl::OkStatus();
      case Type::kSymbol:
        out_.append("{\"$symbol\":");
        if (absl::Status st = String(v.s, "symbol"); !st.ok()) return st;
        out_.push_back('}');
        return absl::OkStatus();
      case Type::kCodeWithScope:
        out_.append("{\"$code\":");
        if (absl::Status st = String(v.s, "code string"); !st.ok()) return st;
        out_.append(",\"$scope\":");
        if (absl::Status st = Object(v.children, depth + 1); !st.ok()) return st;
        out_.push_back('}');
        return absl::OkStatus();
      case Type::kInt32:
        if (v.i < std::numeric_limits<int32_t>::min() ||
            v.i > std::numeric_limits<int32_t>::max()) {
          return absl::InvalidArgumentError("an int32 out of range (the encoders reject it)");
        }
        Wrapped("$numberInt", absl::StrCat(v.i));
        return absl::OkStatus();
      case Type::kTimestamp: {
        const auto bits = static_cast<uint64_t>(v.i);
        absl::StrAppend(&out_, "{\"$timestamp\":{\"t\":", bits >> 32, ",\"i\":", bits & 0xFFFFFFFF,
                        "}}");
        return absl::OkStatus();
      }
      case Type::kInt64:
        Wrapped("$numberLong", absl::StrCat(v.i));
        return absl::OkStatus();
      case Type::kDecimal128:
        return Inexact("a decimal128 (its decimal text is left to the bytes form)");
      case Type::kMinKey:
        out_.append("{\"$minKey\":1}");
        return absl::OkStatus();
      case Type::kMaxKey:
        out_.append("{\"$maxKey\":1}");
        return absl::OkStatus();
    }
    return absl::InvalidArgumentError(
        absl::StrCat("an element of unknown type ", static_cast<int>(v.type)));
  }

  std::string out_;
};

}  // namespace

std::optional<std::string> ExtendedJsonDouble(double d) {
  if (std::isnan(d)) {
    if (std::bit_cast<uint64_t>(d) == kCanonicalNan) return "NaN";
    return std::nullopt;
  }
  if (std::isinf(d)) return d > 0 ? "Infinity" : "-Infinity";
  if (d == 0) return std::signbit(d) ? "-0.0" : "0.0";
  // The shortest digits that read back as d: "[-]D[.DDD]e(+|-)XX".
  char buf[64];
  const std::to_chars_result r =
      std::to_chars(buf, buf + sizeof buf, d, std::chars_format::scientific);
  absl::string_view sci(buf, static_cast<size_t>(r.ptr - buf));
  std::string out;
  if (sci.front() == '-') {
    out.push_back('-');
    sci.remove_prefix(1);
  }
  const size_t e = sci.find('e');
  std::string digits(1, sci[0]);
  if (e > 1) digits.append(sci.data() + 2, e - 2);
  absl::string_view exp_text = sci.substr(e + 1);
  if (exp_text.front() == '+') exp_text.remove_prefix(1);
  int exp10 = 0;
  std::from_chars(exp_text.data(), exp_text.data() + exp_text.size(), exp10);
  // Laid out as Python's repr(float) lays out the same digits (pymongo's canonical
  // $numberDouble; "1.2345678901234568e+18" and "1.0" in the BSON corpus, double.json): with
  // the value 0.DDD x 10^decpt, an exponent when decpt <= -4 or decpt > 16 (two digits at
  // least), else positional with at least one digit after the point.
  const int decpt = exp10 + 1;
  const int n = static_cast<int>(digits.size());
  if (decpt <= -4 || decpt > 16) {
    out.push_back(digits[0]);
    if (n > 1) absl::StrAppend(&out, ".", absl::string_view(digits).substr(1));
    absl::StrAppend(&out, "e", exp10 < 0 ? "-" : "+", std::abs(exp10) < 10 ? "0" : "",
                    std::abs(exp10));
  } else if (decpt <= 0) {
    absl::StrAppend(&out, "0.", std::string(static_cast<size_t>(-decpt), '0'), digits);
  } else if (decpt >= n) {
    absl::StrAppend(&out, digits, std::string(static_cast<size_t>(decpt - n), '0'), ".0");
  } else {
    absl::StrAppend(&out, absl::string_view(digits).substr(0, static_cast<size_t>(decpt)), ".",
                    absl::string_view(digits).substr(static_cast<size_t>(decpt)));
  }
  return out;
}

absl::StatusOr<std::string> CanonicalExtendedJson(const Document& doc) {
  Writer w;
  if (absl::Status st = w.Object(doc.elements, 1); !st.ok()) return st;
  return std::move(w.out());
}

absl::StatusOr<std::string> EncodeInputJson(const Document& doc) {
  absl::StatusOr<std::string> bytes = ref::bson::Encode(doc);
  if (!bytes.ok()) {
    return harness::Declined(absl::StrCat("the reference encoder rejects the document (",
                                          bytes.status().message(),
                                          "): the interchange holds only valid documents"));
  }
  absl::StatusOr<std::string> ejson = CanonicalExtendedJson(doc);
  if (ejson.ok()) return absl::StrCat("{\"document\":", *ejson, "}");
  return absl::StrCat("{\"bson\":\"", absl::BytesToHexString(*bytes), "\"}");
}

std::string DecimalInputJson(int64_t v) {
  return absl::StrCat("{\"value\":\"", ref::bson::FormatInt64(v), "\"}");
}

std::string DecimalInputJson(uint64_t v) {
  return absl::StrCat("{\"value\":\"", ref::bson::FormatUint64(v), "\"}");
}

std::string ArrayKeysInputJson(uint32_t count) { return absl::StrCat("{\"count\":", count, "}"); }

std::string BytesInputJson(absl::string_view bytes) {
  return absl::StrCat("{\"bson\":\"", absl::BytesToHexString(bytes), "\"}");
}

}  // namespace serdiff::targets::bson
