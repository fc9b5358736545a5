// The BSON wire-edge table (harness/wire_edges.h): every length, minimum and reserved-bit
// rule of docs/bson.md's "Decoder and validator" table, each on a valid document in which the
// field sits at a known offset, with the error offset the table's offset column gives for the
// edited inputs. docs/bson.md, "Wire edges", prints this table (scripts/registry-tables).
#include "targets/bson/internal.h"

#include <string>

#include "harness/hex.h"
#include "reference/bson/bson_ref.h"
#include "serdiff/bson/codec.h"

namespace serdiff::targets::bson {
namespace {

using harness::EdgeRule;
using harness::Unhex;
using harness::WireField;

// A 4-byte little-endian field: every BSON length is an int32.
WireField Len(std::string field, std::string rule, EdgeRule kind, const char* hex, size_t at,
              int64_t below, int64_t above = -1) {
  return harness::MakeWireField(std::move(field), std::move(rule), kind, "", hex, at, 4, false,
                                below, above);
}

}  // namespace

harness::WireEdgeTable WireEdges() {
  harness::WireEdgeTable t;
  t.doc = "docs/bson.md, Layout and Decoder and validator (BSON 1.1)";
  const EdgeRule eq = EdgeRule::kEquals;
  const EdgeRule min = EdgeRule::kAtLeast;
  t.fields = {
      // {a: int32 1}, 12 bytes: the total must be the byte count, at offset 0 either way.
      Len("document length", "== bytes given", eq, "0c000000 10 6100 01000000 00", 0, 0, 0),
      Len("document length", ">= 5", min, "05000000 00", 0, 0),
      // {d: {b: true}}: the embedded length counts its own bytes. One short: the bool's value
      // byte becomes the embedded terminator's place, so the payload no longer fits (14); one
      // long: it runs past the parent's elements (7).
      Len("embedded document length", "== its byte count", eq,
          "11000000 03 6400 09000000 08 6200 01 00 00", 7, 14, 7),
      Len("embedded document length", ">= 5", min, "0d000000 03 6400 05000000 00 00", 7, 7),
      Len("array length", "== its byte count", eq, "11000000 04 6100 09000000 08 3000 01 00 00", 7,
          14, 7),
      Len("array length", ">= 5", min, "0d000000 04 6100 05000000 00 00", 7, 7),
      // {a: "x"}: one short leaves 'x' where the NUL must be; one long does not fit.
      Len("string length", "== bytes + 1 (the NUL)", eq, "0e000000 02 6100 02000000 78 00 00", 7,
          11, 7),
      Len("string length", ">= 1", min, "0d000000 02 6100 01000000 00 00", 7, 7),
      Len("JavaScript code length", "== bytes + 1", eq, "0e000000 0d 6100 02000000 78 00 00", 7, 11,
          7),
      Len("symbol length", "== bytes + 1", eq, "0e000000 0e 6100 02000000 78 00 00", 7, 11, 7),
      // One long still ends on a NUL (the ObjectId's first byte), which a string may hold; then
      // the ObjectId is one byte short of its 12 (14).
      Len("DBPointer namespace length", "== bytes + 1", eq,
          "1a000000 0c 6100 02000000 78 00 000102030405060708090a0b 00", 7, 11, 14),
      // {x: binary subtype 0, 2 bytes}: one short leaves a stray byte that is read as the next
      // element's type (0x02 string) whose key would start at the document's NUL; one long
      // does not fit.
      Len("binary length", "== payload bytes", eq, "0f000000 05 7800 02000000 00 0102 00", 7, 14,
          7),
      // Subtype 2: the payload starts with its own length, the outer one minus 4.
      Len("binary subtype 2 inner length", "== outer length - 4", eq,
          "13000000 05 7800 06000000 02 02000000 0102 00", 12, 12, 12),
      Len("binary subtype 2 outer length", ">= 4 (the inner length)", min,
          "11000000 05 7800 04000000 02 00000000 00", 7, 12),
      // {c: code_w_scope("x", {})}: the total counts itself, the code string and the scope.
      Len("code with scope total", "== 4 + code string + scope", eq,
          "17000000 0f 6300 0f000000 02000000 7800 05000000 00 00", 7, 17, 7),
      Len("code with scope total", ">= 14", min,
          "16000000 0f 6300 0e000000 01000000 00 05000000 00 00", 7, 7),
      // One short puts 'x' where the code's NUL must be (15); one long, the scope's first
      // length byte (17): both still inside the total.
      Len("code with scope code length", "== bytes + 1", eq,
          "17000000 0f 6300 0f000000 02000000 7800 05000000 00 00", 11, 15, 17),
      Len("code with scope scope length", "== its byte count, ending at the total", eq,
          "17000000 0f 6300 0f000000 02000000 7800 05000000 00 00", 17, 17, 17),
  };
  // {b: false}: a bool is 0x00 or 0x01, so bits 1..7 of its byte are reserved.
  WireField b;
  b.field = "bool value";
  b.rule = "0x00 or 0x01";
  b.kind = EdgeRule::kReservedZero;
  b.base = Unhex("09000000 08 6200 00 00");
  b.at = 7;
  b.reserved = 0xfe;
  b.above = 7;
  t.fields.push_back(b);
  t.optimized = {
      {"Validate",
       [](const std::string&, std::string_view bytes) { return serdiff::bson::Validate(bytes); }},
      {"Decode", [](const std::string&,
                    std::string_view bytes) { return serdiff::bson::Decode(bytes).status(); }},
  };
  t.reference = [](const std::string&, std::string_view bytes) {
    return serdiff::ref::bson::Validate(bytes);
  };
  return t;
}

}  // namespace serdiff::targets::bson
