// The mutation wire-edge table (harness/wire_edges.h): the counts and lengths of a
// partition update and the reserved bits of its flags bytes (docs/mutation.md, "Layout" and
// "Decoder rules"), each on a valid mutation built by hand from the layout (the worked example
// and three variants of it), with the error offset of the edited inputs. A Cassandra uvint
// below 0x80 is one byte, so each field here is edited as one byte. The decoders:
// serdiff::mutation::Deserialize and the reference RefDeserialize.
// docs/mutation.md, "Wire edges", prints this table (scripts/registry-tables).
#include <string>
#include <utility>

#include "absl/strings/str_cat.h"
#include "harness/hex.h"
#include "harness/wire_edges.h"
#include "reference/mutation/decoder_ref.h"
#include "serdiff/mutation/mutation.h"
#include "targets/mutation/domain.h"
#include "targets/mutation/internal.h"

namespace serdiff::targets::mutation {
namespace {

using harness::EdgeRule;
using harness::WireField;
using serdiff::mutation::Column;
using serdiff::mutation::Schema;
using serdiff::mutation::TableDef;
using serdiff::mutation::Version;

constexpr char kTableHex[] = "00112233445566778899aabbccddeeff";

// The contexts: the table (its columns) and the messaging version.
constexpr char kIntV4[] = "(pk int PRIMARY KEY, v int), 4.0";
constexpr char kIntV51[] = "(pk int PRIMARY KEY, v int), 5.1";
constexpr char kTextV4[] = "(pk int PRIMARY KEY, v text), 4.0";
constexpr char kClusteredV4[] = "(pk int, c int, v int, w int, PRIMARY KEY (pk, c)), 4.0";

bool ContextOf(const std::string& context, Version* version, Schema* schema) {
  TableDef t;
  t.id = {0x00, 0x11, 0x22, 0x33, 0x44, 0x55, 0x66, 0x77,
          0x88, 0x99, 0xaa, 0xbb, 0xcc, 0xdd, 0xee, 0xff};
  *version = Version::kV40;
  if (context == kIntV4 || context == kIntV51) {
    t.regular_columns = {Column{"v", 4, false}};
    if (context == kIntV51) *version = Version::kV51;
  } else if (context == kTextV4) {
    t.regular_columns = {Column{"v", -1, false}};
  } else if (context == kClusteredV4) {
    t.clustering_widths = {4};
    t.regular_columns = {Column{"v", 4, false}, Column{"w", 4, false}};
  } else {
    return false;
  }
  *schema = {t};
  return true;
}

// Up to the row: count, table id, key (int 1), partition flags (row estimate), the stats
// (min timestamp 1700000000000000 µs, deletion time and TTL deltas 0).
std::string Head(const char* columns_and_estimate) {
  return absl::StrCat("01 ", kTableHex, " 04 00000001 10 fce9d96a43c000 00 00 ",
                      columns_and_estimate);
}

WireField Byte(std::string field, std::string rule, EdgeRule kind, const char* context,
               const std::string& hex, size_t at, int64_t below, int64_t above = -1) {
  return harness::MakeWireField(std::move(field), std::move(rule), kind, context, hex, at, 1, false,
                                below, above);
}

WireField Bits(std::string field, std::string rule, const char* context, const std::string& hex,
               size_t at, uint64_t reserved, int64_t offset) {
  WireField f = Byte(std::move(field), std::move(rule), EdgeRule::kReservedZero, context, hex, at,
                     -1, offset);
  f.reserved = reserved;
  return f;
}

}  // namespace

harness::WireEdgeTable WireEdges() {
  harness::WireEdgeTable t;
  t.doc = "docs/mutation.md, Layout and Decoder rules (Cassandra 4.0-5.1 messaging format)";
  const EdgeRule eq = EdgeRule::kEquals;
  // The worked example (44 bytes): row flags 0x24 at 36, row timestamp delta at 37, cell flags
  // 0x08 at 38, the int 42 at 39..42, end of partition at 43.
  const std::string worked = Head("01 0176 01") + " 24 00 08 0000002a 01";
  // 5.1: mutation flags 00 first, the epoch (05) after the table id.
  const std::string worked51 =
      absl::StrCat("00 01 ", kTableHex, " 05 04 00000001 10 fce9d96a43c000 00 00 01 0176 01",
                   " 24 00 08 0000002a 01");
  // v text: the cell is use-row-timestamp (08), then length 2 and "ab" (39..41), end at 42.
  const std::string text = Head("01 0176 01") + " 24 00 08 02 6162 01";
  // Clustered, columns v and w, row c = 5 with v only: row flags 0x04 at 38 (w missing, so no
  // 0x20), clustering header 00 at 39, c at 40..43, row timestamp delta at 44, subset bitmap
  // 0x02 (column 1 missing) at 45, cell at 46..50, end at 51.
  const std::string clustered = Head("02 0176 0177 01") + " 04 00 00000005 00 02 08 0000002a 01";
  // Shadowable deletion: row flags 0xb4 (extension, deletion, all columns, timestamp) at 36,
  // extended flags 0x02 (shadowable) at 37, row timestamp delta at 38, the deletion (two deltas
  // of 0) at 39..40, the cell at 41..45, end at 46.
  const std::string shadowable = Head("01 0176 01") + " b4 02 00 00 00 08 0000002a 01";
  t.fields = {
      // One short: zero updates (0); one long: a second update that is not there (44). The key
      // length: one short leaves the key's last byte (0x01, "empty") as the partition flags, and
      // the rest as trailing bytes (22); one long makes a min-timestamp byte (0xfc) the flags.
      Byte("partition update count", "== updates (>= 1)", eq, kIntV4, worked, 0, 0, 44),
      Byte("partition key length", "== key bytes", eq, kIntV4, worked, 17, 22, 23),
      // One short: no columns, so "v"'s bytes are read as the row estimate (01 at 33) and the
      // row flags (0x76 at 34, a marker with other bits: rejected there).
      Byte("regular column count", "== header columns", eq, kIntV4, worked, 32, 34, 35),
      Byte("column name length", "== name bytes", eq, kIntV4, worked, 33, 33, 33),
      // One short: the 'b' at 41 is read as the next unfiltered's flags (0x62: the marker bit
      // with others, rejected there); one long: the value swallows the end-of-partition byte,
      // which is then missing (43).
      Byte("cell value length (text)", "== value bytes", eq, kTextV4, text, 39, 41, 43),
      Bits("partition flags", "only 0x01..0x10 defined", kIntV4, worked, 22, 0xe0, 22),
      Bits("cell flags", "only 0x01..0x10 defined", kIntV4, worked, 38, 0xe0, 38),
      Bits("mutation flags (5.1)", "0x00 or 0x01", kIntV51, worked51, 0, 0xfe, 0),
      Bits("extended row flags", "only 0x01, 0x02 defined", kIntV4, shadowable, 37, 0xfc, 37),
      Bits("clustering header", "no bits past the block's components (1 here: bits 0, 1)",
           kClusteredV4, clustered, 39, 0x7c, 39),
      Bits("column subset bitmap", "no bits past the header's columns (2 here: bits 0, 1)",
           kClusteredV4, clustered, 45, 0x7c, 45),
  };
  t.optimized = {{"Deserialize", [](const std::string& context, std::string_view bytes) {
                    Version v;
                    Schema s;
                    if (!ContextOf(context, &v, &s)) {
                      return absl::InvalidArgumentError("bad wire-edge context: " + context);
                    }
                    return serdiff::mutation::Deserialize(
                               absl::Span<const uint8_t>(
                                   reinterpret_cast<const uint8_t*>(bytes.data()), bytes.size()),
                               v, s)
                        .status();
                  }}};
  t.reference = [](const std::string& context, std::string_view bytes) {
    Version v;
    Schema s;
    if (!ContextOf(context, &v, &s)) {
      return absl::InvalidArgumentError("bad wire-edge context: " + context);
    }
    return serdiff::ref::mutation::RefDeserialize(bytes, v, s).status();
  };
  return t;
}

}  // namespace serdiff::targets::mutation
