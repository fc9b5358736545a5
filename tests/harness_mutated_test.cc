// harness/mutated.h: every edit's exact bytes, the room rules at the edges, the corpus and
// printed forms of MutatedOf.
#include "harness/mutated.h"

#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "harness/hex.h"

namespace serdiff::harness {
namespace {

std::string Edited(std::string_view hex, uint8_t op, uint32_t pos, uint32_t arg) {
  return CompactHex(ApplyEdit(Unhex(hex), Edit{op, pos, arg}));
}

TEST(ApplyEdit, EveryOpOnFiveBytes) {
  const std::string b = "0102030405";
  EXPECT_EQ(Edited(b, 0, 3, 9), "0102030405");
  // truncate: pos % 6, so 5 keeps all and 6 keeps none.
  EXPECT_EQ(Edited(b, 1, 2, 0), "0102");
  EXPECT_EQ(Edited(b, 1, 5, 0), "0102030405");
  EXPECT_EQ(Edited(b, 1, 6, 0), "");
  // xor with (arg | 1): arg 0 still flips bit 0; only the low byte of arg counts.
  EXPECT_EQ(Edited(b, 2, 1, 0), "0103030405");
  EXPECT_EQ(Edited(b, 2, 6, 0x1f0), "01f3030405");
  // insert: before pos % 6, so 5 appends.
  EXPECT_EQ(Edited(b, 3, 0, 0xaa), "aa0102030405");
  EXPECT_EQ(Edited(b, 3, 5, 0x1bb), "0102030405bb");
  // overwrite32be at pos % 2.
  EXPECT_EQ(Edited(b, 4, 1, 0x3b9aca00), "013b9aca00");
  EXPECT_EQ(Edited(b, 4, 2, 0xfffffffe), "fffffffe05");
  // append arg % 8 + 1 copies of byte arg >> 8.
  EXPECT_EQ(Edited(b, 5, 0, 0xee02), "0102030405eeeeee");
  EXPECT_EQ(Edited(b, 5, 0, 7), "01020304050000000000000000");
  // drop pos % 5.
  EXPECT_EQ(Edited(b, 6, 7, 0), "01020405");
  // overwrite8.
  EXPECT_EQ(Edited(b, 7, 4, 0x180), "0102030480");
  // setbit arg % 8 of byte pos % 5.
  EXPECT_EQ(Edited(b, 8, 0, 7), "8102030405");
  EXPECT_EQ(Edited(b, 8, 0, 8), "0102030405");  // bit 0 is already set
  EXPECT_EQ(Edited(b, 8, 1, 10), "0106030405");
  // overwrite32le at pos % 2.
  EXPECT_EQ(Edited(b, 9, 1, 0x3b9aca00), "0100ca9a3b");
  // overwrite16be at pos % 4.
  EXPECT_EQ(Edited(b, 10, 3, 0x1ffff), "010203ffff");
  EXPECT_EQ(Edited(b, 10, 4, 0x1234), "1234030405");
  // An op outside the table changes nothing.
  EXPECT_EQ(Edited(b, kEditOps, 0, 0), "0102030405");
}

// Aimed edits (kAimedPos): the one-byte ops with bit 31 of pos set edit the aim's offset
// (pos - 2^31 taken modulo the aim's size); other ops, an unset bit 31, an empty aim and an
// offset past the end keep pos % n.
TEST(ApplyEdit, AimedOneByteOpsEditTheAimsOffsets) {
  const std::string b = Unhex("0102030405");
  const std::vector<uint32_t> aim = {3, 1, 9};
  auto edited = [&](uint8_t op, uint32_t pos, uint32_t arg) {
    return CompactHex(ApplyEdit(b, Edit{op, pos, arg}, aim));
  };
  EXPECT_EQ(edited(8, kAimedPos + 0, 5), "0102032405");  // setbit 5 of byte 3
  EXPECT_EQ(edited(8, kAimedPos + 1, 7), "0182030405");  // byte 1
  EXPECT_EQ(edited(8, kAimedPos + 4, 7), "0182030405");  // 4 % 3 = 1
  EXPECT_EQ(edited(8, kAimedPos + 2, 7),
            "8102030405");  // offset 9 is past the end: 2^31 + 2 = 0 mod 5
  EXPECT_EQ(edited(2, kAimedPos + 0, 0x10), "0102031505");  // xor (0x10 | 1)
  EXPECT_EQ(edited(7, kAimedPos + 1, 0xee), "01ee030405");  // overwrite8
  EXPECT_EQ(edited(8, 3, 7), "0102038405");                 // no bit 31: byte 3 % 5
  EXPECT_EQ(edited(6, kAimedPos + 0, 0), "01020305");       // drop is not aimed: 2^31 = 3 mod 5
  EXPECT_EQ(CompactHex(ApplyEdit(b, Edit{8, kAimedPos + 0, 5}, {})), "0102032405");  // byte 3
}

TEST(ApplyEdit, OpsWithoutRoomChangeNothing) {
  for (uint8_t op : {2, 4, 6, 7, 8, 9, 10}) {
    EXPECT_EQ(Edited("", op, 0, 0x12345678), "") << int(op);
  }
  EXPECT_EQ(Edited("010203", 4, 0, 0xffffffff), "010203");
  EXPECT_EQ(Edited("010203", 9, 0, 0xffffffff), "010203");
  EXPECT_EQ(Edited("01", 10, 0, 0xffff), "01");
  EXPECT_EQ(Edited("0102", 10, 0, 0xffff), "ffff");
  EXPECT_EQ(Edited("01020304", 4, 9, 0xa0b0c0d0), "a0b0c0d0");
  // Ops that grow work on nothing too.
  EXPECT_EQ(Edited("", 3, 9, 0x41), "41");
  EXPECT_EQ(Edited("", 5, 0, 0x4101), "4141");
  EXPECT_EQ(Edited("", 1, 9, 0), "");
}

TEST(EditText, NamesRoundTripAndUnknownNamesFail) {
  for (uint8_t op = 0; op < kEditOps; ++op) {
    const Edit e{op, 4000000000u, 7};
    const std::string shown = ShowEdit(e);  // the cursor views it: it must outlive the cursor
    TextCursor c(shown);
    Edit back;
    ASSERT_TRUE(ParseEditAt(c, back).ok()) << ShowEdit(e);
    EXPECT_EQ(back, e);
    EXPECT_TRUE(c.AtEnd());
  }
  EXPECT_EQ(ShowEdit({4, 1, 2}), "edit overwrite32be pos=1 arg=2");
  TextCursor c("edit swap pos=1 arg=2");
  Edit e;
  const absl::Status s = ParseEditAt(c, e);
  EXPECT_EQ(s.message(),
            "at character 5: unknown edit \"swap\" (none, truncate, xor, insert, overwrite32be, "
            "append, drop, overwrite8, setbit, overwrite32le, overwrite16be)");
}

// A base domain of one byte string: corpus form = the bytes, printed as "s=<hex>".
Domain<std::string> StringDomain() {
  Domain<std::string> d;
  d.type_name = "string";
  d.gen = rc::gen::arbitrary<std::string>();
  d.decode = [](FuzzedDataProvider& p) { return p.ConsumeRemainingBytesAsString(); };
  d.encode = [](const std::string& s, FuzzInputWriter& w) { w.WriteRemainingBytes(s); };
  d.show = [](const std::string& s) { return "s=" + CompactHex(s); };
  d.parse = [](std::string_view text) -> absl::StatusOr<std::string> {
    if (text.substr(0, 2) != "s=") return ParseErrorAt(0, "expected s=");
    return Unhex(text.substr(2));
  };
  return d;
}

TEST(MutatedOf, CorpusFormIsTheEditThenTheBase) {
  const Domain<Mutated<std::string>> d =
      MutatedOf<std::string>(StringDomain(), [](const std::string& s) { return s + "!"; });
  Mutated<std::string> m{"ab", Edit{6, 1, 0x01020304}, ""};
  FuzzInputWriter w;
  d.encode(m, w);
  // The base's bytes at the front; from the back, op (1 byte, 6), pos (4 bytes, 1: most
  // significant read first), arg (4 bytes).
  const std::string file = w.Finish();
  EXPECT_EQ(CompactHex(file),
            "6162"
            "04030201"
            "01000000"
            "06");
  FuzzedDataProvider p(reinterpret_cast<const uint8_t*>(file.data()), file.size());
  const Mutated<std::string> back = d.decode(p);
  EXPECT_EQ(back, m);
  EXPECT_EQ(back.bytes, "a!");  // "ab!" with byte 1 dropped
  EXPECT_EQ(d.show(back), "s=6162\n  edit drop pos=1 arg=16909060\n  bytes(2)=61 21");
  // A kEditOps-wide op range: 11 is read as 11 % 11 = 0.
  const std::string eleven = "\x0b";
  FuzzedDataProvider q(reinterpret_cast<const uint8_t*>(eleven.data()), eleven.size());
  EXPECT_EQ(d.decode(q).edit.op, 0);
}

TEST(MutatedOf, ParserReadsTheBaseTheEditAndOptionallyTheBytes) {
  const Domain<Mutated<std::string>> d =
      MutatedOf<std::string>(StringDomain(), [](const std::string& s) { return s; });
  absl::StatusOr<Mutated<std::string>> v = d.parse("s=00ff\n  edit xor pos=0 arg=0");
  ASSERT_TRUE(v.ok()) << v.status();
  EXPECT_EQ(v->bytes, std::string("\x01\xff", 2));
  EXPECT_TRUE(d.parse("s=00ff\n  edit xor pos=0 arg=0\n  bytes(2)=01 ff").ok());
  const absl::StatusOr<Mutated<std::string>> wrong =
      d.parse("s=00ff\n  edit xor pos=0 arg=0\n  bytes(2)=00 ff");
  ASSERT_FALSE(wrong.ok());
  EXPECT_EQ(wrong.status().message().substr(0, 17), "at character 42: ");
  const absl::StatusOr<Mutated<std::string>> none = d.parse("s=00ff");
  ASSERT_FALSE(none.ok());
  EXPECT_EQ(none.status().message(),
            "at character 6: expected a line \"  edit <op> pos=<n> arg=<n>\"");
}

}  // namespace
}  // namespace serdiff::harness
