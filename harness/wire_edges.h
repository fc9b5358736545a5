// Systematic edges of the fields a decoder must check, one table per family (issue 22, kinds
// 1-3). Knows no family: a family describes each checked field of its wire format once, by a
// valid input and where the field sits in it, and ExpandWireEdges derives the inputs:
//
//   * kEquals: a length that must EQUAL something (BSON binary subtype 2's inner length is the
//     outer length - 4; a document's length is its byte count): the required value, one
//     below and one above. A check loosened from `!=` to `>` or `<` accepts one of the two.
//   * kAtLeast: a format minimum (a code-with-scope total of 14; a string length of 1): the
//     minimum, which must decode, and one below it, which must not.
//   * kReservedZero: bits of a header or flags byte that must be zero: each such bit set
//     alone. A decoder that masks or shifts by the wrong amount ignores one of them.
//
// Every rejected input carries the exact error offset the family's docs table gives (docs/
// architecture.md, "Error offsets"), and the test (tests/harness_wire_edges_test.cc) requires
// that offset from both the optimized decoder and the reference, so a check that moves, drops
// or loosens fails it. `serdiff list --emit wire-edges-md` prints every table; the family's
// docs page holds that printout (scripts/registry-tables keeps it current).
#pragma once

#include <cstddef>
#include <cstdint>
#include <functional>
#include <string>
#include <string_view>
#include <vector>

#include "absl/status/status.h"

namespace serdiff::harness {

enum class EdgeRule { kEquals, kAtLeast, kReservedZero };

// One checked field. `base` is a valid input (the decoders accept it) in which the field holds
// its required value (kEquals), its minimum (kAtLeast) or no reserved bit (kReservedZero).
struct WireField {
  std::string field;  // what the field is, e.g. "binary subtype 2: inner length"
  std::string rule;   // the rule, e.g. "== outer length - 4"; with the spec section
  // What the decoders need besides the bytes (CQL: the type and protocol version; mutation:
  // the schema and messaging version), in the family's own words; "" when nothing.
  std::string context;
  EdgeRule kind = EdgeRule::kEquals;
  std::string base;
  size_t at = 0;            // the field's first byte in `base`
  int width = 1;            // bytes: 1, 2, 4 or 8 (a Cassandra uvint below 0x80 is 1 byte)
  bool big_endian = false;  // byte order when width > 1
  uint64_t reserved = 0;    // kReservedZero: the bits that must be zero
  // Error offsets of the edited inputs (-1: the input must decode): `below` for value - 1
  // (kEquals, kAtLeast), `above` for value + 1 (kEquals) and for each reserved bit set alone
  // (kReservedZero).
  int64_t below = -1;
  int64_t above = -1;
};

// A family's table, with its decoders: each returns OK or the error (with the offset payload
// of serdiff/common/error_offset.h) for a field's context and wire bytes. Every optimized path
// is listed (a validator and a model builder, a value tree and a typed fast path): each must
// give the table's verdict. A path that does not handle a context (the typed CQL path has no
// tuples) returns kUnimplemented there, and is not judged on it.
struct WireEdgeTable {
  std::string family;  // set by Registry::AddWireEdges
  std::string doc;     // where the layout is described, e.g. "docs/bson.md, Layout"
  std::vector<WireField> fields;
  using Decoder = std::function<absl::Status(const std::string& context, std::string_view bytes)>;
  struct Path {
    std::string name;
    Decoder run;
  };
  std::vector<Path> optimized;
  Decoder reference;
};

// A field of `width` bytes at `at` of the base written as `base_hex` (hex digits, spaces
// ignored: harness::Unhex), in `big_endian` order when width > 1; `below` and `above` as in
// WireField (`reserved` is left 0: set it for kReservedZero). What every family's table is
// written with.
WireField MakeWireField(std::string field, std::string rule, EdgeRule kind, std::string context,
                        std::string_view base_hex, size_t at, int width, bool big_endian,
                        int64_t below, int64_t above = -1);

// One derived input: `offset` -1 means it must decode, otherwise the error offset both
// decoders must report.
struct WireCase {
  std::string name;     // "<field>: required - 1" and so on
  std::string context;  // the field's
  std::string bytes;
  int64_t offset = -1;
};

// The inputs of every field of `fields`, in order: the base, then value - 1 and value + 1
// (kEquals), value - 1 (kAtLeast), or each reserved bit set alone, lowest first
// (kReservedZero). Each edit rewrites only the field's `width` bytes. Aborts on a malformed
// table (the field past the end of `base`, a width other than 1, 2, 4 or 8, a value 0 that
// has no value - 1, kReservedZero with no reserved bit, with one past the field's width or
// with one already set in `base`):
// a table is code, and a wrong one is a programming error.
std::vector<WireCase> ExpandWireEdges(const std::vector<WireField>& fields);

// The table as Markdown (one row per field: field, rule, kind, width and byte order, the
// offsets of the edited inputs), for the family's docs page.
std::string WireEdgesMarkdown(const WireEdgeTable& table);

}  // namespace serdiff::harness
