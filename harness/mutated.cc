#include "harness/mutated.h"

#include <array>
#include <cstddef>
#include <vector>

#include "harness/uniform.h"

namespace serdiff::harness {
namespace {

constexpr std::array<std::string_view, kEditOps> kOpNames = {
    "none", "truncate",   "xor",    "insert",        "overwrite32be", "append",
    "drop", "overwrite8", "setbit", "overwrite32le", "overwrite16be"};

// Writes the low `width` bytes of `v` at `at`, most significant first when `big_endian`.
void Store(std::string& b, size_t at, uint32_t v, int width, bool big_endian) {
  for (int i = 0; i < width; ++i) {
    const int shift = 8 * (big_endian ? width - 1 - i : i);
    b[at + static_cast<size_t>(i)] = static_cast<char>((v >> shift) & 0xff);
  }
}

}  // namespace

std::string_view EditOpName(uint8_t op) {
  if (op < kEditOps) return kOpNames[op];
  return "op?";
}

namespace {
// The byte a one-byte op edits (n > 0): an aimed position picks a field offset (kAimedPos).
size_t ByteAt(uint32_t pos, size_t n, absl::Span<const uint32_t> aim) {
  if ((pos & kAimedPos) != 0 && !aim.empty()) {
    const uint32_t at = aim[(pos - kAimedPos) % aim.size()];
    if (at < n) return at;
  }
  return pos % n;
}
}  // namespace

std::string ApplyEdit(std::string b, const Edit& e, absl::Span<const uint32_t> aim) {
  const size_t n = b.size();
  const char low = static_cast<char>(e.arg & 0xff);
  switch (static_cast<EditOp>(e.op)) {
    case EditOp::kTruncate:
      b.resize(e.pos % (n + 1));
      break;
    case EditOp::kXorByte:
      if (n > 0) {
        const size_t i = ByteAt(e.pos, n, aim);
        b[i] = static_cast<char>(b[i] ^ (low | 1));
      }
      break;
    case EditOp::kInsertByte:
      b.insert(b.begin() + static_cast<std::ptrdiff_t>(e.pos % (n + 1)), low);
      break;
    case EditOp::kOverwrite32BE:
      if (n >= 4) Store(b, e.pos % (n - 3), e.arg, 4, true);
      break;
    case EditOp::kAppend:
      b.append(e.arg % 8 + 1, static_cast<char>((e.arg >> 8) & 0xff));
      break;
    case EditOp::kDropByte:
      if (n > 0) b.erase(e.pos % n, 1);
      break;
    case EditOp::kOverwriteByte:
      if (n > 0) b[ByteAt(e.pos, n, aim)] = low;
      break;
    case EditOp::kSetBit:
      if (n > 0) {
        const size_t i = ByteAt(e.pos, n, aim);
        b[i] = static_cast<char>(b[i] | (1 << (e.arg % 8)));
      }
      break;
    case EditOp::kOverwrite32LE:
      if (n >= 4) Store(b, e.pos % (n - 3), e.arg, 4, false);
      break;
    case EditOp::kOverwrite16BE:
      if (n >= 2) Store(b, e.pos % (n - 1), e.arg, 2, true);
      break;
    case EditOp::kNone:
    default:
      break;
  }
  return b;
}

rc::Gen<Edit> GenEdit() {
  return rc::gen::apply(
      [](uint8_t op, uint32_t pos, uint32_t arg) {
        return Edit{op, pos, arg};
      },
      UniformIn<uint8_t>(0, kEditOps),
      // Half the positions aimed (kAimedPos): RapidCheck scales an arbitrary uint32's bits
      // with the size, so bit 31 would otherwise be set only at the largest sizes.
      rc::gen::weightedOneOf<uint32_t>(
          {{1, rc::gen::arbitrary<uint32_t>()},
           {1, rc::gen::map(rc::gen::arbitrary<uint32_t>(),
                            [](uint32_t p) { return p | kAimedPos; })}}),
      rc::gen::weightedOneOf<uint32_t>(
          {{1, rc::gen::elementOf(std::vector<uint32_t>{0, 1, 0xFFFF, 0x7FFFFFFF, 0x80000000,
                                                        1'000'000'000, 0xFFFFFFFE, 0xFFFFFFFF})},
           {1, rc::gen::arbitrary<uint32_t>()}}));
}

std::string ShowEdit(const Edit& e) {
  return absl::StrCat("edit ", std::string(EditOpName(e.op)), " pos=", e.pos, " arg=", e.arg);
}

absl::Status ParseEditAt(TextCursor& c, Edit& e) {
  if (absl::Status s = c.Expect("edit "); !s.ok()) return s;
  const size_t at = c.pos();
  const std::string_view name = c.Until(" ");
  bool found = false;
  for (uint8_t op = 0; op < kEditOps; ++op) {
    if (kOpNames[op] == name) {
      e.op = op;
      found = true;
    }
  }
  if (!found) {
    return ParseErrorAt(at,
                        absl::StrCat("unknown edit \"", std::string(name),
                                     "\" (none, truncate, xor, insert, overwrite32be, append, "
                                     "drop, overwrite8, setbit, overwrite32le, overwrite16be)"));
  }
  if (absl::Status s = c.Expect(" pos="); !s.ok()) return s;
  if (absl::Status s = c.Int(e.pos); !s.ok()) return s;
  if (absl::Status s = c.Expect(" arg="); !s.ok()) return s;
  return c.Int(e.arg);
}

}  // namespace serdiff::harness
