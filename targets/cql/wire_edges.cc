// The CQL wire-edge table (harness/wire_edges.h): every [int]/[short] count and length of a
// collection, tuple and UDT payload (docs/cql.md, "Wire rules" and "Decode rules"), the exact
// width of every fixed-width kind as a collection element, the minimum sizes of decimal and
// duration, and the version bits of a timeuuid; each on a valid payload with the error offset
// of the edited inputs. The decoders: the value tree (serdiff::cql::Deserialize), the typed
// fast path (DeserializeFixedList/Map, where it applies) and the reference, default options.
// docs/cql.md, "Wire edges", prints this table (scripts/registry-tables).
#include <string>
#include <utility>
#include <vector>

#include "absl/strings/numbers.h"
#include "absl/strings/str_cat.h"
#include "absl/strings/str_format.h"
#include "harness/hex.h"
#include "harness/wire_edges.h"
#include "reference/cql/codec_ref.h"
#include "serdiff/cql/typed.h"
#include "serdiff/cql/value.h"
#include "targets/cql/internal.h"

namespace serdiff::targets::cql {
namespace {

using harness::EdgeRule;
using harness::WireField;

// A field of `width` big-endian bytes (CQL's [int] and [short]).
WireField Field(std::string field, std::string rule, EdgeRule kind, std::string context,
                const std::string& hex, size_t at, int width, int64_t below, int64_t above = -1) {
  return harness::MakeWireField(std::move(field), std::move(rule), kind, std::move(context), hex,
                                at, width, true, below, above);
}

// "<type> v<version>" -> the type and the protocol version.
absl::Status ParseContext(const std::string& context, opt::Type* type, int* version) {
  const size_t sp = context.rfind(" v");
  if (sp == std::string::npos || !absl::SimpleAtoi(context.substr(sp + 2), version)) {
    return absl::InvalidArgumentError(absl::StrCat("bad wire-edge context: ", context));
  }
  return opt::ParseType(context.substr(0, sp), type);
}

absl::Status ValueTree(const std::string& context, std::string_view bytes) {
  opt::Type t;
  int version = 0;
  if (absl::Status s = ParseContext(context, &t, &version); !s.ok()) return s;
  return opt::Deserialize(t, bytes, version).status();
}

absl::Status Reference(const std::string& context, std::string_view bytes) {
  opt::Type t;
  int version = 0;
  if (absl::Status s = ParseContext(context, &t, &version); !s.ok()) return s;
  return serdiff::ref::cql::Deserialize(t, bytes, version).status();
}

// The typed path: list/set of a fixed-width kind, map of two. It has no form for an empty
// element (FailedPrecondition, which the typed targets count as declining): so here either.
absl::Status Typed(const std::string& context, std::string_view bytes) {
  opt::Type t;
  int version = 0;
  if (absl::Status s = ParseContext(context, &t, &version); !s.ok()) return s;
  auto fixed = [](const opt::Type& e) {
    return e.kind != opt::Kind::kList && e.kind != opt::Kind::kSet && e.kind != opt::Kind::kMap &&
           opt::FixedWidth(e.kind) > 0;
  };
  absl::Status s = absl::UnimplementedError("no typed path for " + context);
  if ((t.kind == opt::Kind::kList || t.kind == opt::Kind::kSet) && fixed(t.params[0])) {
    s = WithElementType(t.params[0].kind, [&](auto tag) {
      using T = typename decltype(tag)::type;
      return opt::DeserializeFixedList<T>(t.params[0].kind, bytes, version).status();
    });
  } else if (t.kind == opt::Kind::kMap && fixed(t.params[0]) && fixed(t.params[1])) {
    s = WithElementType(t.params[0].kind, [&](auto ktag) {
      return WithElementType(t.params[1].kind, [&](auto vtag) {
        using K = typename decltype(ktag)::type;
        using V = typename decltype(vtag)::type;
        return opt::DeserializeFixedMap<K, V>(t.params[0].kind, t.params[1].kind, bytes, version)
            .status();
      });
    });
  }
  if (s.code() == absl::StatusCode::kFailedPrecondition) {
    return absl::UnimplementedError(absl::StrCat("typed path declines: ", s.message()));
  }
  return s;
}

}  // namespace

harness::WireEdgeTable WireEdges() {
  harness::WireEdgeTable t;
  t.doc = "docs/cql.md, Wire rules and Decode rules (native protocol v4 section 6, v5 section 6)";
  const EdgeRule eq = EdgeRule::kEquals;
  const EdgeRule min = EdgeRule::kAtLeast;
  // Every fixed-width kind as the first of two elements of a list: its [int] length must be
  // the width (or 0, empty). The second element leaves room, so that one long still fits and
  // reaches the width check, like one short (both at the element's bytes, 8); for a 1-byte
  // kind one short is empty, and the next length, read from 8 (01 00 00 00), does not fit.
  struct Fixed {
    const char* type;
    const char* value_hex;
  };
  const std::vector<Fixed> fixed = {
      {"boolean", "01"},
      {"tinyint", "07"},
      {"smallint", "0007"},
      {"int", "00000007"},
      {"date", "80000000"},
      {"float", "3f800000"},
      {"bigint", "0000000000000007"},
      {"counter", "0000000000000007"},
      {"timestamp", "0000000000000007"},
      {"time", "0000000000000007"},
      {"double", "3ff0000000000000"},
      {"uuid", "00112233445566778899aabbccddeeff"},
      {"timeuuid", "00112233445511778899aabbccddeeff"},
  };
  for (const Fixed& k : fixed) {
    const size_t w = std::string(k.value_hex).size() / 2;
    const std::string hex_len = absl::StrFormat("%08x", w);
    t.fields.push_back(Field(
        absl::StrCat("list<", k.type, "> element length"),
        absl::StrCat("== ", w, " (the width) or 0"), eq, absl::StrCat("list<", k.type, "> v4"),
        absl::StrCat("00000002 ", hex_len, " ", k.value_hex, " ", hex_len, " ", k.value_hex), 4, 4,
        8, 8));
  }
  const std::vector<WireField> more = {
      // Collection counts: one short leaves the last element as trailing bytes; one long runs
      // out where the missing element's length would start.
      Field("list count", "== elements", eq, "list<int> v4", "00000001 00000004 00000007", 0, 4, 4,
            12),
      Field("set count", "== elements", eq, "set<int> v4", "00000001 00000004 00000007", 0, 4, 4,
            12),
      Field("map count", "== entries", eq, "map<int, int> v4",
            "00000001 00000004 00000001 00000004 00000002", 0, 4, 4, 20),
      // One long still fits (the value's bytes follow): the key's width check fails (8).
      Field("map key length", "== 4 (int)", eq, "map<int, int> v4",
            "00000001 00000004 00000001 00000004 00000002", 4, 4, 8, 8),
      Field("map value length", "== 4 (int)", eq, "map<int, int> v4",
            "00000001 00000004 00000001 00000004 00000002", 12, 4, 16, 12),
      Field("list<text> element length", "== bytes", eq, "list<text> v4", "00000001 00000002 6162",
            4, 4, 9, 4),
      Field("nested list count", "== elements", eq, "list<list<int>> v4",
            "00000001 0000000c 00000001 00000004 00000007", 8, 4, 12, 20),
      // One short: the inner element's length (12) no longer fits in the inner payload.
      Field("nested list length", "== inner payload bytes", eq, "list<list<int>> v4",
            "00000001 0000000c 00000001 00000004 00000007", 4, 4, 12, 4),
      // Protocol v1/v2: a top-level collection's count and lengths are [short].
      Field("v2 list count", "== elements", eq, "list<int> v2", "0001 0004 00000007", 0, 2, 2, 8),
      Field("v2 list element length", "== 4 (int)", eq, "list<int> v2", "0001 0004 00000007", 2, 2,
            4, 2),
      // Tuple and UDT components: [int] lengths.
      Field("tuple component length", "== 4 (int)", eq, "tuple<int, int> v4",
            "00000004 00000001 00000004 00000002", 0, 4, 4, 4),
      Field("udt field length", "== 4 (int)", eq, "udt<u, a int, b int> v4",
            "00000004 00000001 00000004 00000002", 0, 4, 4, 4),
      // Minimum sizes: decimal is a 4-byte scale and at least one unscaled byte; a duration
      // is three vints of at least one byte each.
      Field("list<decimal> element length", ">= 5", min, "list<decimal> v4",
            "00000001 00000005 00000000 01", 4, 4, 8),
      // Two bytes: the third vint (nanoseconds, at 10) is cut off.
      Field("list<duration> element length", ">= 3", min, "list<duration> v4",
            "00000001 00000003 000000", 4, 4, 10),
      Field("list<inet> element length", "== 4 or 16", eq, "list<inet> v4",
            "00000002 00000004 7f000001 00000004 7f000001", 4, 4, 8, 8),
  };
  t.fields.insert(t.fields.end(), more.begin(), more.end());
  // A timeuuid's version nibble (high half of byte 6) must be 1: bits 5..7 of that byte set
  // alone make versions 3, 5 and 9.
  WireField v = Field("timeuuid version bits", "version == 1 (RFC 4122)", EdgeRule::kReservedZero,
                      "list<timeuuid> v4", "00000001 00000010 00112233445511778899aabbccddeeff", 14,
                      1, -1, 14);
  v.reserved = 0xe0;
  t.fields.push_back(v);
  t.optimized = {{"Deserialize (value tree)", ValueTree},
                 {"DeserializeFixedList/Map (typed)", Typed}};
  t.reference = Reference;
  return t;
}

}  // namespace serdiff::targets::cql
