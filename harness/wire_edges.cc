#include "harness/wire_edges.h"

#include <cstdio>
#include <cstdlib>
#include <utility>

#include "absl/strings/str_cat.h"
#include "absl/strings/str_format.h"
#include "harness/hex.h"

namespace serdiff::harness {
namespace {

[[noreturn]] void BadTable(const WireField& f, const char* why) {
  std::fprintf(stderr, "serdiff: wire-edge table, field \"%s\": %s\n", f.field.c_str(), why);
  std::abort();
}

uint64_t ReadField(const WireField& f, const std::string& b) {
  uint64_t v = 0;
  for (int i = 0; i < f.width; ++i) {
    const uint64_t byte = static_cast<unsigned char>(b[f.at + i]);
    v |= f.big_endian ? byte << (8 * (f.width - 1 - i)) : byte << (8 * i);
  }
  return v;
}

std::string WithField(const WireField& f, const std::string& b, uint64_t v) {
  std::string out = b;
  for (int i = 0; i < f.width; ++i) {
    const int shift = f.big_endian ? 8 * (f.width - 1 - i) : 8 * i;
    out[f.at + i] = static_cast<char>((v >> shift) & 0xff);
  }
  return out;
}

const char* KindName(EdgeRule k) {
  switch (k) {
    case EdgeRule::kEquals:
      return "equals";
    case EdgeRule::kAtLeast:
      return "at least";
    case EdgeRule::kReservedZero:
      return "reserved bits zero";
  }
  return "?";
}

std::string OffsetText(int64_t o) { return o < 0 ? "decodes" : absl::StrCat("error at ", o); }

}  // namespace

WireField MakeWireField(std::string field, std::string rule, EdgeRule kind, std::string context,
                        std::string_view base_hex, size_t at, int width, bool big_endian,
                        int64_t below, int64_t above) {
  WireField f;
  f.field = std::move(field);
  f.rule = std::move(rule);
  f.kind = kind;
  f.context = std::move(context);
  f.base = Unhex(base_hex);
  f.at = at;
  f.width = width;
  f.big_endian = big_endian;
  f.below = below;
  f.above = above;
  return f;
}

std::vector<WireCase> ExpandWireEdges(const std::vector<WireField>& fields) {
  std::vector<WireCase> out;
  for (const WireField& f : fields) {
    if (f.width != 1 && f.width != 2 && f.width != 4 && f.width != 8) BadTable(f, "bad width");
    if (f.at + static_cast<size_t>(f.width) > f.base.size()) BadTable(f, "field past the base");
    const uint64_t v = ReadField(f, f.base);
    const uint64_t max = f.width == 8 ? ~uint64_t{0} : (uint64_t{1} << (8 * f.width)) - 1;
    out.push_back({absl::StrCat(f.field, ": base (", v, ")"), f.context, f.base, -1});
    switch (f.kind) {
      case EdgeRule::kEquals:
        if (v == 0 || v == max) BadTable(f, "the value has no neighbour on one side");
        out.push_back({absl::StrCat(f.field, ": required - 1 (", v - 1, ")"), f.context,
                       WithField(f, f.base, v - 1), f.below});
        out.push_back({absl::StrCat(f.field, ": required + 1 (", v + 1, ")"), f.context,
                       WithField(f, f.base, v + 1), f.above});
        break;
      case EdgeRule::kAtLeast:
        if (v == 0) BadTable(f, "a minimum of 0 has nothing below it");
        out.push_back({absl::StrCat(f.field, ": minimum - 1 (", v - 1, ")"), f.context,
                       WithField(f, f.base, v - 1), f.below});
        break;
      case EdgeRule::kReservedZero:
        if (f.reserved == 0) BadTable(f, "no reserved bit");
        if (f.width < 8 && (f.reserved >> (8 * f.width)) != 0) {
          BadTable(f, "a reserved bit past the field's width");
        }
        if ((v & f.reserved) != 0) BadTable(f, "a reserved bit is set in the base");
        for (int bit = 0; bit < 8 * f.width; ++bit) {
          const uint64_t m = uint64_t{1} << bit;
          if ((f.reserved & m) == 0) continue;
          out.push_back({absl::StrFormat("%s: reserved bit 0x%x set", f.field, m), f.context,
                         WithField(f, f.base, v | m), f.above});
        }
        break;
    }
  }
  return out;
}

std::string WireEdgesMarkdown(const WireEdgeTable& table) {
  std::string out = absl::StrCat(
      "| field | context | rule | kind | bytes | base value | value - 1 | value + 1 or reserved "
      "bit |\n| --- | --- | --- | --- | --- | --- | --- | --- |\n");
  for (const WireField& f : table.fields) {
    const std::string bytes =
        f.width == 1 ? "1" : absl::StrCat(f.width, f.big_endian ? " BE" : " LE");
    std::string above = "-";
    if (f.kind == EdgeRule::kEquals) above = OffsetText(f.above);
    if (f.kind == EdgeRule::kReservedZero) {
      above = absl::StrFormat("bits 0x%x: %s", f.reserved, OffsetText(f.above));
    }
    const std::string below = f.kind == EdgeRule::kReservedZero ? "-" : OffsetText(f.below);
    absl::StrAppend(&out, "| ", f.field, " | ", f.context.empty() ? "-" : f.context, " | ", f.rule,
                    " | ", KindName(f.kind), " | ", bytes, " at ", f.at, " | ",
                    ReadField(f, f.base), " | ", below, " | ", above, " |\n");
  }
  return out;
}

}  // namespace serdiff::harness
