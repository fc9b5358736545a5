// Mutated inputs: a valid encoding with one edit, the decode-side input every family's
// `<family>_decode_mutated` target uses (docs/architecture.md, "Mutated inputs").
//
// A decoder fed random bytes spends most cases rejecting the first field. A valid encoding
// with one edit reaches every field: a truncation at each position, a flipped or inserted
// byte, a length or count overwritten with a lie (0, 0xFFFFFFFF, 2^31), a stray flag bit.
// `MutatedOf(base, encode)` builds that domain from any family's domain of valid values and
// an encoder (the reference encoder, so that a bug in the optimized encoder cannot hide one in
// the optimized decoder): one op table, one corpus form, one printed form for every family.
#pragma once

#include <cstdint>
#include <functional>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include <FuzzedDataProvider.h>

#include "absl/status/statusor.h"
#include "absl/strings/str_cat.h"
#include "absl/types/span.h"
#include "harness/definition.h"
#include "harness/fuzz_input.h"
#include "harness/hex.h"
#include "harness/text_parse.h"

namespace serdiff::harness {

// The edits. `n` is the encoding's length in bytes, `pos` and `arg` the Edit's fields.
// Positions are taken modulo the room the op has, so every (pos, arg) is a valid edit; an op
// with no room (a byte op on an empty encoding, a 4-byte overwrite of 3 bytes) changes nothing.
enum class EditOp : uint8_t {
  kNone = 0,            // the encoding as it is
  kTruncate = 1,        // keep the first pos % (n + 1) bytes
  kXorByte = 2,         // byte pos % n ^= (arg | 1) & 0xff (always changes it; aimed: kAimedPos)
  kInsertByte = 3,      // insert byte arg & 0xff before position pos % (n + 1)
  kOverwrite32BE = 4,   // bytes pos % (n - 3) .. +3 = arg, big-endian (a CQL [int] length)
  kAppend = 5,          // append arg % 8 + 1 copies of byte (arg >> 8) & 0xff
  kDropByte = 6,        // erase byte pos % n
  kOverwriteByte = 7,   // byte pos % n = arg & 0xff (a flags byte, a vint's first byte; aimed)
  kSetBit = 8,          // byte pos % n |= 1 << (arg % 8) (a reserved or stray flag bit; aimed)
  kOverwrite32LE = 9,   // bytes pos % (n - 3) .. +3 = arg, little-endian (a BSON int32 length)
  kOverwrite16BE = 10,  // bytes pos % (n - 1) .. +1 = arg & 0xffff, big-endian (a CQL [short])
};
inline constexpr uint8_t kEditOps = 11;  // ops 0 .. kEditOps - 1

// "none", "truncate", "xor", "insert", "overwrite32be", "append", "drop", "overwrite8",
// "setbit", "overwrite32le", "overwrite16be"; "op?" for a number outside the table.
std::string_view EditOpName(uint8_t op);

// One edit. `op` is an EditOp value (0 .. kEditOps - 1; ApplyEdit treats any other as kNone).
struct Edit {
  uint8_t op = 0;
  uint32_t pos = 0;
  uint32_t arg = 0;
  friend bool operator==(const Edit&, const Edit&) = default;
};

// Aimed edits. A family whose encoder knows where its flags and header fields lie gives their
// byte offsets (`aim`, MutatedOf's third argument). Then the three one-byte ops (kXorByte,
// kOverwriteByte, kSetBit) whose pos has bit 31 set (kAimedPos) edit the byte at
// aim[(pos - kAimedPos) % aim.size()] instead of pos % n: half of the fuzzer's and the
// generator's bit flips land on a field whose stray bits a decoder must reject (issue 22,
// kind 3), where a uniform position would hit one only as often as such fields are among the
// bytes. An aim offset past the end of the bytes, or an empty aim, falls back to pos % n.
inline constexpr uint32_t kAimedPos = uint32_t{1} << 31;

// `bytes` with `e` applied (the table above; `aim`: see kAimedPos). Never fails; the result is
// at most n + 8 bytes long.
std::string ApplyEdit(std::string bytes, const Edit& e, absl::Span<const uint32_t> aim = {});

// Edits biased to where decoders break: every op equally, any position (half of them aimed,
// kAimedPos), and an argument that is half the time a length lie (0, 1, 0xFFFF, 2^31 - 1, 2^31,
// 10^9, 0xFFFFFFFE, 0xFFFFFFFF).
rc::Gen<Edit> GenEdit();

// The edit as `show` prints it: "edit truncate pos=9 arg=0".
std::string ShowEdit(const Edit& e);
// Reads ShowEdit's text at the cursor (the op by name). Errors: an unknown op name (at the
// name), a missing field, a number out of range (at the number).
absl::Status ParseEditAt(TextCursor& c, Edit& e);

// A value of the base domain, its encoding with one edit. `bytes` is derived
// (ApplyEdit(encode(base), edit)) and not compared.
template <typename Base>
struct Mutated {
  Base base;
  Edit edit;
  std::string bytes;
  friend bool operator==(const Mutated& a, const Mutated& b) {
    return a.base == b.base && a.edit == b.edit;
  }
};

// The domain of Mutated<Base>:
// - corpus form: the edit's op (ConsumeIntegralInRange 0 .. kEditOps - 1), pos and arg
//   (ConsumeIntegral<uint32_t> each), then the base domain's own form, read from the same
//   bytes (so a base whose size is bounded by the bytes left stays bounded);
// - printed form: base.show(base), "\n  " ShowEdit(edit), "\n  bytes(N)=" Hex(bytes) (the
//   first 256 bytes); the parser reads the base (base.parse, required), the edit, and then
//   either nothing more or exactly the bytes line the value prints;
// - generator: base.gen and GenEdit().
// `encode` turns a base value into the bytes the edit applies to; for a value it cannot
// encode it returns "" (the edit then applies to no bytes). `aim`, when set, gives the byte
// offsets of the encoding's flags and header fields (kAimedPos).
template <typename Base>
Domain<Mutated<Base>> MutatedOf(
    Domain<Base> base, std::function<std::string(const Base&)> encode,
    std::function<std::vector<uint32_t>(const Base&, std::string_view bytes)> aim = nullptr) {
  using M = Mutated<Base>;
  Domain<M> d;
  d.type_name = absl::StrCat("(", base.type_name, ", one edit of its encoding)");
  auto derive = [encode, aim](M m) {
    std::string bytes = encode(m.base);
    std::vector<uint32_t> marks;
    if (aim) marks = aim(m.base, bytes);
    m.bytes = ApplyEdit(std::move(bytes), m.edit, marks);
    return m;
  };
  if (base.gen) {
    d.gen = rc::gen::apply(
        [derive](Base b, Edit e) {
          return derive(M{std::move(b), e, {}});
        },
        *base.gen, GenEdit());
  }
  d.decode = [decode = base.decode, derive](FuzzedDataProvider& p) {
    M m;
    m.edit.op = p.ConsumeIntegralInRange<uint8_t>(0, kEditOps - 1);
    m.edit.pos = p.ConsumeIntegral<uint32_t>();
    m.edit.arg = p.ConsumeIntegral<uint32_t>();
    m.base = decode(p);
    return derive(std::move(m));
  };
  d.encode = [enc = base.encode](const M& m, FuzzInputWriter& w) {
    w.WriteIntegralInRange<uint8_t>(m.edit.op, 0, kEditOps - 1);
    w.WriteIntegral<uint32_t>(m.edit.pos);
    w.WriteIntegral<uint32_t>(m.edit.arg);
    enc(m.base, w);
  };
  d.show = [show = base.show](const M& m) {
    return absl::StrCat(show(m.base), "\n  ", ShowEdit(m.edit), "\n  bytes(", m.bytes.size(),
                        ")=", Hex(m.bytes));
  };
  if (base.parse) {
    d.parse = [parse = base.parse, show = d.show,
               derive](std::string_view text) -> absl::StatusOr<M> {
      constexpr std::string_view kEditLine = "\n  edit ";
      const size_t line = text.rfind(kEditLine);
      if (line == std::string_view::npos) {
        return ParseErrorAt(text.size(), "expected a line \"  edit <op> pos=<n> arg=<n>\"");
      }
      absl::StatusOr<Base> b = parse(text.substr(0, line));
      if (!b.ok()) return b.status();
      TextCursor c(text);
      c.Consume(text.substr(0, line + 3));  // the base and "\n  "
      M m;
      m.base = *std::move(b);
      if (absl::Status s = ParseEditAt(c, m.edit); !s.ok()) return s;
      m = derive(std::move(m));
      if (absl::Status s = AtEndOrShownAs(c, show(m)); !s.ok()) return s;
      return m;
    };
  }
  return d;
}

}  // namespace serdiff::harness
