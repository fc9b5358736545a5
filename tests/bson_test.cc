// BSON family: exact values and exact bytes (docs/bson.md). Bytes marked [pymongo] were
// produced by python3-bson 3.11 (Debian); the rest are derived by hand from the BSON spec.
// Encoder, packed arrays and decoder: tests/bson_codec_test.cc.
#include <bson/bson.h>

#include <charconv>
#include <cstring>
#include <limits>
#include <string>

#include "absl/strings/escaping.h"
#include "absl/strings/str_cat.h"
#include "gtest/gtest.h"
#include "harness/hex.h"
#include "harness/target.h"
#include "oracles/libbson/libbson.h"
#include "reference/bson/bson_ref.h"
#include "serdiff/bson/codec.h"
#include "serdiff/bson/int_format.h"
#include "serdiff/common/error_offset.h"
#include "targets/bson/divergences.h"
#include "targets/bson/domain.h"
#include "tests/bson_test_util.h"

namespace serdiff::bson {
namespace {

// Shared with tests/bson_codec_test.cc (tests/bson_test_util.h).
using test_util::Nested;
using test_util::OffsetOf;
using test_util::One;
using test_util::ToHex;

std::string Fmt64(int64_t v) {
  char buf[kMaxDecimalChars];
  return std::string(buf, FormatInt64(v, buf));
}
std::string FmtU64(uint64_t v) {
  char buf[kMaxDecimalChars];
  return std::string(buf, FormatUint64(v, buf));
}

// ---- integer formatting ------------------------------------------------------------------

TEST(BsonIntFormat, Extremes) {
  EXPECT_EQ(Fmt64(std::numeric_limits<int64_t>::min()), "-9223372036854775808");
  EXPECT_EQ(Fmt64(std::numeric_limits<int64_t>::min()).size(), kMaxDecimalChars);
  EXPECT_EQ(Fmt64(std::numeric_limits<int64_t>::max()), "9223372036854775807");
  EXPECT_EQ(FmtU64(std::numeric_limits<uint64_t>::max()), "18446744073709551615");
  EXPECT_EQ(FmtU64(std::numeric_limits<uint64_t>::max()).size(), kMaxDecimalChars);
  EXPECT_EQ(Fmt64(0), "0");
  EXPECT_EQ(FmtU64(0), "0");
  EXPECT_EQ(Fmt64(-1), "-1");
  EXPECT_EQ(Fmt64(std::numeric_limits<int64_t>::min() + 1), "-9223372036854775807");
}

TEST(BsonIntFormat, PowersOfTenAndTwoAgainstReference) {
  std::vector<uint64_t> bases;
  for (uint64_t p = 1;; p *= 10) {
    bases.push_back(p);
    if (p > std::numeric_limits<uint64_t>::max() / 10) break;
  }
  for (int k = 0; k < 64; ++k) bases.push_back(uint64_t{1} << k);
  for (uint64_t b : bases) {
    for (int64_t d = -1; d <= 1; ++d) {
      const uint64_t u = b + static_cast<uint64_t>(d);
      EXPECT_EQ(FmtU64(u), ref::bson::FormatUint64(u)) << u;
      const auto s = static_cast<int64_t>(u);
      EXPECT_EQ(Fmt64(s), ref::bson::FormatInt64(s)) << s;
      const auto neg = static_cast<int64_t>(0 - u);  // unsigned: no overflow at INT64_MIN
      EXPECT_EQ(Fmt64(neg), ref::bson::FormatInt64(neg)) << neg;
    }
  }
}

TEST(BsonIntFormat, EveryIntegerInPlusMinusOneMillion) {
  for (int64_t v = -1000000; v <= 1000000; ++v) {
    const std::string ref = ref::bson::FormatInt64(v);
    ASSERT_EQ(Fmt64(v), ref);
    if (v >= 0) {
      ASSERT_EQ(FmtU64(static_cast<uint64_t>(v)), ref);
      ASSERT_EQ(DecimalDigits(static_cast<uint64_t>(v)), static_cast<int>(ref.size()));
    }
  }
}

// Every block the fixed-point formatter can write (n < 10^8, with and without leading zeros)
// against a decimal counter of 8 ASCII digits incremented alongside n.
TEST(BsonIntFormat, FixedPointBlocksAgainstCounter) {
  char counter[8];
  std::memset(counter, '0', sizeof counter);
  int first = 7;  // index of the counter's first significant digit
  char trimmed[kMaxDecimalChars + 8];
  char padded[8];
  for (uint32_t n = 0; n < 100000000; ++n) {
    if (n != 0) {
      int i = 7;
      while (counter[i] == '9') counter[i--] = '0';
      ++counter[i];
      if (i < first) first = i;
    }
    internal::Put8(n, padded);
    const size_t len = static_cast<size_t>(internal::PutUpTo8(n, trimmed) - trimmed);
    if (std::memcmp(padded, counter, 8) != 0 || len != static_cast<size_t>(8 - first) ||
        std::memcmp(trimmed, counter + first, len) != 0) {
      ADD_FAILURE() << n << ": Put8 " << std::string(padded, 8) << ", PutUpTo8 "
                    << std::string(trimmed, len) << ", want " << std::string(counter, 8);
      return;
    }
  }
}

// Both tiers on the blocks' boundaries in every position of a 20-digit value, and at the
// lengths where the top block changes from 1 to 4 digits.
TEST(BsonIntFormat, TiersAgreeAcrossBlockBoundaries) {
  std::vector<uint64_t> values;
  for (uint64_t p = 1;; p *= 10) {
    for (uint64_t m : {uint64_t{1}, uint64_t{9}, uint64_t{99999999}, uint64_t{10000001}})
      if (p <= std::numeric_limits<uint64_t>::max() / m) values.push_back(p * m);
    if (p > std::numeric_limits<uint64_t>::max() / 10) break;
  }
  values.insert(values.end(), {9999999999999999ull, 10000000000000000ull, 18446744073709551615ull,
                               10000000000000000000ull, 999999999999999999ull});
  for (uint64_t u0 : values) {
    for (int64_t d = -2; d <= 2; ++d) {
      const uint64_t u = u0 + static_cast<uint64_t>(d);
      char buf[kMaxDecimalChars];
      const std::string want = ref::bson::FormatUint64(u);
      EXPECT_EQ(std::string(buf, FormatUint64DigitPairs(u, buf)), want);
      EXPECT_EQ(FmtU64(u), want);
      const auto s = static_cast<int64_t>(u);
      EXPECT_EQ(std::string(buf, FormatInt64DigitPairs(s, buf)), ref::bson::FormatInt64(s));
      EXPECT_EQ(Fmt64(s), ref::bson::FormatInt64(s));
    }
  }
  EXPECT_EQ(FmtU64(10000000000000000ull), "10000000000000000");
  EXPECT_EQ(FmtU64(1000000000000000000ull), "1000000000000000000");
  EXPECT_EQ(Fmt64(-100000000), "-100000000");
  EXPECT_EQ(Fmt64(-1234567890123456789), "-1234567890123456789");
}

TEST(BsonArrayKeys, CounterMatchesSnprintf) {
  ArrayKeyCounter key;
  uint64_t bytes = 0;
  for (uint64_t i = 0; i <= 1000001; ++i, key.Next()) {
    ASSERT_EQ(key.key(), ref::bson::ArrayKey(i));
    bytes += key.size() + 1;
    ASSERT_EQ(ArrayKeyBytes(i + 1), bytes);
  }
  EXPECT_EQ(ArrayKeyBytes(0), 0u);
  EXPECT_EQ(ArrayKeyBytes(10), 20u);
  EXPECT_EQ(ArrayKeyBytes(11), 23u);  // key "10" takes 3 bytes with its NUL
}

// ---- libbson: accepted divergences and real results -------------------------------------

// The first divergence of `list` whose predicate covers (input, optimized, libbson), or "".
template <typename T>
std::string Covering(const std::vector<harness::Divergence<T>>& list, const T& in,
                     const harness::Output& opt, const harness::Output& lib) {
  for (const auto& d : list) {
    if (d.impl == "libbson" && d.applies(in, opt, lib)) return d.reason;
  }
  return "";
}

harness::Output Accept(const std::string& in, const absl::Status& st) {
  if (!st.ok()) return st;
  return in;
}

TEST(BsonLibbson, NonUtf8StringValueIsAnAcceptedDivergenceOnly) {
  const auto divergences = targets::bson::LibbsonDecodeDivergences();
  const std::string bad = harness::Unhex("0e000000 02 6100 02000000 e9 00 00");
  const harness::Output opt = Accept(bad, Validate(bad));
  const harness::Output lib = Accept(bad, oracle::libbson::Validate(bad));
  ASSERT_FALSE(opt.ok());
  ASSERT_TRUE(lib.ok());  // libbson 1.23 accepts it: the reason for the divergence
  EXPECT_NE(Covering(divergences, bad, opt, lib), "");
  // Nearby valid input: "\xC3\xA9" (é) -> both accept, nothing to cover.
  const std::string good = harness::Unhex("0f000000 02 6100 03000000 c3a9 00 00");
  EXPECT_TRUE(Validate(good).ok());
  EXPECT_TRUE(oracle::libbson::Validate(good).ok());
  // Nearby input with the bad byte in a key: libbson rejects it too (no divergence to cover).
  const std::string bad_key = harness::Unhex("08000000 0a e9 00 00");
  EXPECT_FALSE(oracle::libbson::Validate(bad_key).ok());
  // libbson stops after a bad regex pattern and reports success even though a NUL type byte
  // follows before the end: covered (the first fault is the pattern's UTF-8) ...
  const std::string stops = harness::Unhex("0c000000 0b 6400 9d 00 00 00 00");
  ASSERT_TRUE(oracle::libbson::Validate(stops).ok());
  EXPECT_NE(Covering(divergences, stops, Accept(stops, Validate(stops)), stops), "");
  // ... but with a valid pattern the same structural fault is not covered (libbson rejects it).
  const std::string structural = harness::Unhex("0c000000 0b 6400 61 00 00 00 00");
  EXPECT_FALSE(oracle::libbson::Validate(structural).ok());
  EXPECT_EQ(Covering(divergences, structural, Accept(structural, Validate(structural)), structural),
            "");
  // A non-UTF-8 string that is also cut short is a real error: not covered.
  const std::string cut = harness::Unhex("0e000000 02 6100 03000000 e9 00 00");
  EXPECT_EQ(Covering(divergences, cut, Accept(cut, Validate(cut)), cut), "");
}

// A regex's options are not checked by libbson at all (a bug-class review, 2026-12-07): an
// option byte ff neither fails nor stops bson_validate, which goes on to reject the bool 2 after
// it, and the emulation does the same; the options alone are accepted by both.
TEST(BsonLibbson, RegexOptionsAreNotCheckedByLibbsonNorByItsEmulation) {
  const auto divergences = targets::bson::LibbsonDecodeDivergences();
  DecodeOptions model;
  model.libbson_quirks = true;
  const std::string then_bool2 = harness::Unhex("10000000 0b 7200 6100 ff00 08 6200 02 00");
  EXPECT_EQ(ErrorOffset(Validate(then_bool2)), 9);  // serdiff: the option byte, not UTF-8
  EXPECT_FALSE(oracle::libbson::Validate(then_bool2).ok());
  const absl::Status quirk = Validate(then_bool2, model);
  EXPECT_EQ(ErrorOffset(quirk), 14) << quirk;  // the bool, as libbson
  // Had libbson accepted it, that would be no known quirk.
  EXPECT_EQ(Covering(divergences, then_bool2, Accept(then_bool2, Validate(then_bool2)), then_bool2),
            "");
  const std::string alone = harness::Unhex("0c000000 0b 7200 6100 ff00 00");
  EXPECT_TRUE(oracle::libbson::Validate(alone).ok());
  EXPECT_TRUE(Validate(alone, model).ok());
  EXPECT_NE(Covering(divergences, alone, Accept(alone, Validate(alone)), alone), "");
}

// go_bson frames an old binary (subtype 2) by its outer length and never checks the inner one
// (a bug-class review, 2026-12-07): the three findings are covered by a go_bson divergence, also
// 105 levels deep (the depth divergence frames old binaries the same way); a generic binary that
// runs past its document, and the first finding beside a bool 2, are not.
TEST(BsonGoBson, OldBinaryInnerLengthIsAnAcceptedDivergenceOnlyThere) {
  const auto divergences = targets::bson::GoBsonDecodeDivergences();
  auto covered = [&](const std::string& in) {
    const absl::Status st = Validate(in);
    for (const auto& d : divergences) {
      if (d.impl == "go_bson" && d.applies(in, Accept(in, st), in)) return true;
    }
    return false;
  };
  const std::string old_len0 = harness::Unhex("0d000000 05 6200 00000000 02 00");
  for (const std::string& in :
       {old_len0, harness::Unhex("11000000 05 6200 04000000 02 01000000 00"),
        harness::Unhex("13000000 05 6200 06000000 02 00000000 0a00 00")}) {
    ASSERT_FALSE(Validate(in).ok()) << harness::CompactHex(in);
    EXPECT_TRUE(covered(in)) << harness::CompactHex(in);
  }
  std::string deep = old_len0;  // {"d": {"d": ... old_len0}}, 105 levels
  for (int i = 1; i < 105; ++i) {
    std::string outer = std::string(4, '\0') + "\x03" + "d" + std::string(1, '\0') + deep + '\0';
    const auto n = static_cast<uint32_t>(outer.size());
    std::memcpy(outer.data(), &n, 4);
    deep = std::move(outer);
  }
  EXPECT_TRUE(covered(deep));
  EXPECT_FALSE(covered(harness::Unhex("0d000000 05 6200 05000000 00 00")));
  EXPECT_FALSE(covered(harness::Unhex("11000000 05 6200 00000000 02 08 6300 02 00")));
}

std::string NestedBytes(int levels) { return *ref::bson::Encode(Nested(levels)); }

TEST(BsonLibbson, DepthIsAnAcceptedDivergenceOnlyPastTheLimit) {
  const auto divergences = targets::bson::LibbsonDecodeDivergences();
  // Nested(100) has depth 101: rejected by serdiff, accepted by libbson.
  Document deep = Nested(kDefaultMaxDepth);
  std::string bytes;
  {
    // Build the bytes by hand: the encoders refuse this depth.
    std::string inner = harness::Unhex("05000000 00");
    for (int i = 0; i < kDefaultMaxDepth; ++i) {
      std::string body = std::string(
                             "\x03"
                             "d",
                             2) +
                         std::string(1, '\0') + inner;
      const uint32_t len = static_cast<uint32_t>(4 + body.size() + 1);
      inner = std::string(reinterpret_cast<const char*>(&len), 4) + body + std::string(1, '\0');
    }
    bytes = inner;
  }
  const harness::Output opt = Accept(bytes, Validate(bytes));
  const harness::Output lib = Accept(bytes, oracle::libbson::Validate(bytes));
  EXPECT_FALSE(opt.ok());
  EXPECT_TRUE(lib.ok());
  EXPECT_NE(Covering(divergences, bytes, opt, lib), "");
  // Depth exactly 100: both accept, not covered (opt is OK).
  const std::string at_limit = NestedBytes(kDefaultMaxDepth - 1);
  EXPECT_TRUE(Validate(at_limit).ok());
  EXPECT_TRUE(oracle::libbson::Validate(at_limit).ok());
  EXPECT_EQ(Covering(divergences, at_limit, Accept(at_limit, Validate(at_limit)), at_limit), "");
  // Encoder side: depth 101 covered, depth 100 encodes identically in all three.
  const auto enc = targets::bson::LibbsonEncodeDivergences();
  EXPECT_NE(Covering(enc, deep, Encode(deep), oracle::libbson::Encode(deep)), "");
  const Document ok_doc = Nested(kDefaultMaxDepth - 1);
  EXPECT_EQ(*Encode(ok_doc), *oracle::libbson::Encode(ok_doc));
  EXPECT_EQ(Covering(enc, ok_doc, Encode(ok_doc), oracle::libbson::Encode(ok_doc)), "");
}

TEST(BsonLibbson, FaultAfterCodeWithScopeIsAnAcceptedDivergenceOnlyAfterIt) {
  const auto divergences = targets::bson::LibbsonDecodeDivergences();
  // {c: code_w_scope("x", {}), b: bool 2}: libbson accepts, serdiff rejects at the bool (25).
  const std::string after =
      harness::Unhex("1b000000 0f 6300 0f000000 02000000 7800 05000000 00 08 6200 02 00");
  ASSERT_TRUE(oracle::libbson::Validate(after).ok());
  EXPECT_EQ(OffsetOf(Validate(after)), 25);
  EXPECT_NE(Covering(divergences, after, Accept(after, Validate(after)), after), "");
  // The same bool 2 before the code_w_scope: libbson rejects; not covered.
  const std::string before =
      harness::Unhex("1b000000 08 6200 02 0f 6300 0f000000 02000000 7800 05000000 00 00");
  EXPECT_FALSE(oracle::libbson::Validate(before).ok());
  EXPECT_EQ(Covering(divergences, before, Accept(before, Validate(before)), before), "");
  // An embedded document ending in 0x01: libbson accepts, covered; the top-level document
  // ending in 0x01 is rejected by libbson and not covered.
  const std::string embedded = harness::Unhex("0d000000 03 6400 05000000 01 00");
  ASSERT_TRUE(oracle::libbson::Validate(embedded).ok());
  EXPECT_NE(Covering(divergences, embedded, Accept(embedded, Validate(embedded)), embedded), "");
  const std::string top = harness::Unhex("0d000000 03 6400 05000000 00 01");
  EXPECT_FALSE(oracle::libbson::Validate(top).ok());
  EXPECT_EQ(Covering(divergences, top, Accept(top, Validate(top)), top), "");
}

// Found by fuzzing bson_decode (corpus/bson_decode/regressions/ff1931b4...): libbson skips the
// whole content of an embedded document whose last byte is not 0x00, so a fault inside it,
// ahead of that last byte, is not seen either.
TEST(BsonLibbson, FaultInsideAnUnterminatedEmbeddedDocumentIsCoveredOnlyThere) {
  const auto divergences = targets::bson::LibbsonDecodeDivergences();
  // {d: {e: <10-byte document whose first type byte is 0x00>}} with d's last byte 0x01.
  // serdiff reads front to back and stops at the early end of the innermost document (18).
  const std::string inside =
      harness::Unhex("1a000000 03 6400 12000000 03 6500 0a000000 00 00000000 00 01 00");
  ASSERT_TRUE(oracle::libbson::Validate(inside).ok());
  EXPECT_EQ(OffsetOf(Validate(inside)), 18);
  EXPECT_EQ(OffsetOf(ref::bson::Validate(inside)), 18);
  EXPECT_NE(Covering(divergences, inside, Accept(inside, Validate(inside)), inside), "");
  // d ends with 0x00 again: libbson sees the early end too, nothing is covered.
  const std::string seen =
      harness::Unhex("1a000000 03 6400 12000000 03 6500 0a000000 00 00000000 00 00 00");
  EXPECT_FALSE(oracle::libbson::Validate(seen).ok());
  EXPECT_EQ(OffsetOf(Validate(seen)), 18);
  EXPECT_EQ(Covering(divergences, seen, Accept(seen, Validate(seen)), seen), "");
  // The innermost document well formed and d ending with 0x00: valid for all three.
  const std::string good = harness::Unhex("15000000 03 6400 0d000000 03 6500 05000000 00 00 00");
  EXPECT_EQ(good.size(), 0x15u);
  EXPECT_TRUE(oracle::libbson::Validate(good).ok());
  EXPECT_TRUE(Validate(good).ok());
}

// Found by fuzzing bson_decode (corpus/bson_decode/regressions/a8317193...): libbson checks only
// the lengths of a code_w_scope, not its code string's NUL; it validates the scope only when
// the scope ends with 0x00, and a valid scope ends its validation with success.
TEST(BsonLibbson, CodeWithScopeIsCheckedAsLibbsonChecksIt) {
  const auto divergences = targets::bson::LibbsonDecodeDivergences();
  // {c: code_w_scope("0\x04" without its NUL, {})}: serdiff rejects at the code's last byte.
  const std::string no_nul =
      harness::Unhex("17000000 0f 6300 0f000000 02000000 3004 05000000 00 00");
  ASSERT_TRUE(oracle::libbson::Validate(no_nul).ok());
  EXPECT_EQ(OffsetOf(Validate(no_nul)), 16);
  EXPECT_EQ(OffsetOf(ref::bson::Validate(no_nul)), 16);
  EXPECT_NE(Covering(divergences, no_nul, Accept(no_nul, Validate(no_nul)), no_nul), "");
  // The same code with a scope {b: bool 2}: libbson validates the scope and rejects; not covered.
  const std::string bad_scope =
      harness::Unhex("1b000000 0f 6300 13000000 02000000 3004 09000000 08 6200 02 00 00");
  EXPECT_FALSE(oracle::libbson::Validate(bad_scope).ok());
  EXPECT_EQ(Covering(divergences, bad_scope, Accept(bad_scope, Validate(bad_scope)), bad_scope),
            "");
  // A scope ending in 0x01 is skipped by libbson, which goes on and finds the bool 2 after it:
  // not covered. Without the bool, libbson accepts: covered.
  const std::string skipped_then_bad =
      harness::Unhex("1b000000 0f 6300 0f000000 02000000 3000 05000000 01 08 6200 02 00");
  EXPECT_FALSE(oracle::libbson::Validate(skipped_then_bad).ok());
  EXPECT_EQ(OffsetOf(Validate(skipped_then_bad)), 21);
  EXPECT_EQ(Covering(divergences, skipped_then_bad,
                     Accept(skipped_then_bad, Validate(skipped_then_bad)), skipped_then_bad),
            "");
  const std::string skipped =
      harness::Unhex("17000000 0f 6300 0f000000 02000000 3000 05000000 01 00");
  ASSERT_TRUE(oracle::libbson::Validate(skipped).ok());
  EXPECT_NE(Covering(divergences, skipped, Accept(skipped, Validate(skipped)), skipped), "");
  // Code with ill-formed UTF-8: libbson stops before looking at the scope (found by fuzzing,
  // corpus/bson_decode/regressions/0d298467...); covered. Valid code: the scope is checked.
  const std::string bad_code =
      harness::Unhex("1b000000 0f 6300 13000000 02000000 fe00 09000000 08 6200 02 00 00");
  ASSERT_TRUE(oracle::libbson::Validate(bad_code).ok());
  EXPECT_EQ(OffsetOf(Validate(bad_code)), 15);
  EXPECT_NE(Covering(divergences, bad_code, Accept(bad_code, Validate(bad_code)), bad_code), "");
  const std::string good_code =
      harness::Unhex("1b000000 0f 6300 13000000 02000000 3000 09000000 08 6200 02 00 00");
  EXPECT_FALSE(oracle::libbson::Validate(good_code).ok());
  EXPECT_EQ(OffsetOf(Validate(good_code)), 24);
  EXPECT_EQ(Covering(divergences, good_code, Accept(good_code, Validate(good_code)), good_code),
            "");
  // Code with ill-formed UTF-8 stops libbson even when it steps over the scope (ending in
  // 0x01; corpus/bson_decode/regressions/5432b115...): a bool 2 after it passes, covered.
  const std::string bad_code_skipped =
      harness::Unhex("1b000000 0f 6300 0f000000 02000000 fe00 05000000 01 08 6200 02 00");
  ASSERT_TRUE(oracle::libbson::Validate(bad_code_skipped).ok());
  EXPECT_NE(Covering(divergences, bad_code_skipped,
                     Accept(bad_code_skipped, Validate(bad_code_skipped)), bad_code_skipped),
            "");
  // Well formed: all three accept.
  const std::string good = harness::Unhex("17000000 0f 6300 0f000000 02000000 3000 05000000 00 00");
  EXPECT_TRUE(Validate(good).ok());
  EXPECT_TRUE(ref::bson::Validate(good).ok());
  EXPECT_TRUE(oracle::libbson::Validate(good).ok());
}

// Found by fuzzing bson_decode (corpus/bson_decode/regressions/024022eb...): libbson steps over
// an embedded document of length 4 (it fits, but bson_init_static refuses it, so nothing in it
// is visited) and goes on 4 bytes later; lengths 0..3 land on the length's own zero bytes.
TEST(BsonLibbson, EmbeddedDocumentShorterThan5IsSkippedByLibbsonOnly) {
  const auto divergences = targets::bson::LibbsonDecodeDivergences();
  // {"\x01": <length 4>, "\x01\x01": int32 0}: serdiff rejects the length at offset 7.
  const std::string four = harness::Unhex("14000000 03 0100 04000000 10 010100 00000000 00");
  ASSERT_TRUE(oracle::libbson::Validate(four).ok());
  EXPECT_EQ(OffsetOf(Validate(four)), 7);
  EXPECT_EQ(OffsetOf(ref::bson::Validate(four)), 7);
  EXPECT_NE(Covering(divergences, four, Accept(four, Validate(four)), four), "");
  const std::string four_in_array =
      harness::Unhex("14000000 04 0100 04000000 10 010100 00000000 00");
  ASSERT_TRUE(oracle::libbson::Validate(four_in_array).ok());
  EXPECT_NE(Covering(divergences, four_in_array, Accept(four_in_array, Validate(four_in_array)),
                     four_in_array),
            "");
  // A bool 2 after the skipped length: libbson rejects it; not covered.
  const std::string then_bad = harness::Unhex("10000000 03 6400 04000000 08 6500 02 00");
  EXPECT_FALSE(oracle::libbson::Validate(then_bad).ok());
  EXPECT_EQ(Covering(divergences, then_bad, Accept(then_bad, Validate(then_bad)), then_bad), "");
  // Lengths 0 and 2: libbson rejects them as well (the next type byte read is 0x00).
  for (const char* hex :
       {"0c000000 03 6400 00000000 00", "11000000 03 6400 02000000 00 00 00 00 00 00"}) {
    const std::string in = harness::Unhex(hex);
    EXPECT_FALSE(oracle::libbson::Validate(in).ok()) << hex;
    EXPECT_EQ(Covering(divergences, in, Accept(in, Validate(in)), in), "") << hex;
  }
}

// Found by fuzzing bson_decode (corpus/bson_decode/regressions/c765c825...): libbson's stops
// (after a valid code_w_scope scope, after a value with ill-formed UTF-8) end the validation
// of the document they are in; its parents go on being checked.
TEST(BsonLibbson, LibbsonStopsOnlyTheDocumentItIsIn) {
  const auto divergences = targets::bson::LibbsonDecodeDivergences();
  auto covered = [&](const std::string& in) {
    return Covering(divergences, in, Accept(in, Validate(in)), in) != "";
  };
  // {d: {c: code_w_scope("0", {}), b: bool 2}}: libbson accepts; serdiff rejects the bool (30).
  const std::string inside = harness::Unhex(
      "23000000 03 6400 1b000000 0f 6300 0f000000 02000000 3000 05000000 00 08 6200 02 00 00");
  ASSERT_TRUE(oracle::libbson::Validate(inside).ok());
  EXPECT_EQ(OffsetOf(Validate(inside)), 32);
  EXPECT_TRUE(covered(inside));
  // {d: {c: code_w_scope("0", {})}, b: bool 2}: the parent goes on, libbson rejects; not covered.
  const std::string parent = harness::Unhex(
      "23000000 03 6400 17000000 0f 6300 0f000000 02000000 3000 05000000 00 00 08 6200 02 00");
  EXPECT_FALSE(oracle::libbson::Validate(parent).ok());
  EXPECT_FALSE(covered(parent));
  // {d: {a: "\xfe", b: bool 2}}: libbson accepts (stops at the string); covered.
  const std::string bad_string =
      harness::Unhex("1a000000 03 6400 12000000 02 6100 02000000 fe00 08 6200 02 00 00");
  ASSERT_TRUE(oracle::libbson::Validate(bad_string).ok());
  EXPECT_TRUE(covered(bad_string));
  // {d: {a: "\xfe"}, b: bool 2}: libbson rejects the bool in the parent; not covered.
  const std::string bad_string_parent =
      harness::Unhex("1a000000 03 6400 0e000000 02 6100 02000000 fe00 00 08 6200 02 00");
  EXPECT_FALSE(oracle::libbson::Validate(bad_string_parent).ok());
  EXPECT_FALSE(covered(bad_string_parent));
}

// Found by fuzzing bson_encode (corpus/bson_encode/regressions/e7ae94c1..., first kept as
// 77143e7e... in the older corpus form): libbson's bson_append_value hands JavaScript code to
// bson_append_code, a C string, which cuts it at the first NUL. The libbson side declines such
// documents; without the NUL it must agree.
TEST(BsonLibbson, CodeWithNulIsDeclinedAndCodeWithoutNulAgrees) {
  Value code = OfType(Type::kCode);
  code.s = std::string("a\0b", 3);
  const Document with_nul = One("c", code);
  const absl::StatusOr<std::string> lib = oracle::libbson::Encode(with_nul);
  ASSERT_FALSE(lib.ok());
  EXPECT_TRUE(harness::IsDeclined(lib.status())) << lib.status();
  // serdiff writes all three bytes: length 4 = "a\0b" + NUL.
  EXPECT_EQ(ToHex(Encode(with_nul)), "100000000d6300040000006100620000");
  code.s = "ab";
  const Document plain = One("c", code);
  EXPECT_EQ(ToHex(oracle::libbson::Encode(plain)), "0f0000000d63000300000061620000");
  EXPECT_EQ(ToHex(Encode(plain)), "0f0000000d63000300000061620000");
}

// BSON 1.1, element 0x0B: regex options "must be stored in alphabetical order". /abc/xmi is
// stored with "imx" by both serdiff encoders, as by libbson and pymongo.
TEST(BsonCanonical, RegexOptionsAreWrittenInAlphabeticalOrder) {
  Value re = OfType(Type::kRegex);
  re.s = "abc";
  re.s2 = "xmi";
  const Document doc = One("r", re);
  // 10 00 00 00 (16 bytes) | 0b "r" 00 | "abc" 00 | "imx" 00 | 00
  const std::string want =
      "100000000b72006162630069"
      "6d78"
      "0000";
  EXPECT_EQ(ToHex(Encode(doc)), want);
  EXPECT_EQ(ToHex(ref::bson::Encode(doc)), want);
  EXPECT_EQ(ToHex(oracle::libbson::Encode(doc)), want);
  re.s2 = "\xff\x0f";  // bytes above 0x7f sort by unsigned value, after 0x0f (a fuzzer's find)
  EXPECT_EQ(ToHex(Encode(One("r", re))), "0f0000000b7200616263000fff0000");
  EXPECT_EQ(ToHex(ref::bson::Encode(One("r", re))), "0f0000000b7200616263000fff0000");
  re.s2 = "usmxli";  // every letter, reversed-ish: "ilmsux"
  EXPECT_EQ(ToHex(Encode(One("r", re))), "130000000b720061626300696c6d7375780000");
  EXPECT_EQ(ToHex(ref::bson::Encode(One("r", re))), "130000000b720061626300696c6d7375780000");
}

TEST(BsonLibbson, RegexOptionsLibbsonDropsAreAnAcceptedDivergenceOnlyThen) {
  const auto enc = targets::bson::LibbsonEncodeDivergences();
  Value re = OfType(Type::kRegex);
  re.s = "a";
  re.s2 = "xix";  // a repeated letter: libbson drops it, serdiff keeps it (sorted)
  const Document repeated = One("r", re);
  const absl::StatusOr<std::string> lib = oracle::libbson::Encode(repeated);
  ASSERT_TRUE(lib.ok());
  EXPECT_EQ(absl::BytesToHexString(*lib), "0d0000000b7200610069780000");  // libbson: "ix"
  EXPECT_EQ(ToHex(Encode(repeated)), "0e0000000b720061006978780000");     // serdiff: "ixx"
  EXPECT_EQ(ToHex(ref::bson::Encode(repeated)), "0e0000000b720061006978780000");
  EXPECT_NE(Covering(enc, repeated, Encode(repeated), lib), "");
  re.s2 = "xi";  // unsorted but valid: the same bytes everywhere, so never covered
  const Document unsorted = One("r", re);
  EXPECT_EQ(*Encode(unsorted), *oracle::libbson::Encode(unsorted));
  EXPECT_EQ(Covering(enc, unsorted, Encode(unsorted), harness::Output(std::string("x"))), "");
}

TEST(BsonLibbson, RealResultOnAtLeast90PercentOfGeneratedDocuments) {
  const rc::Gen<Document> gen = targets::bson::GenDocument();
  int declined = 0;
  constexpr int kCases = 400;
  for (int seed = 1; seed <= kCases; ++seed) {
    const Document doc = gen(rc::Random(seed), seed % 100).value();
    const absl::StatusOr<std::string> lib = oracle::libbson::Encode(doc);
    if (!lib.ok() && harness::IsDeclined(lib.status())) ++declined;
  }
  EXPECT_LE(declined * 10, kCases) << declined << " of " << kCases << " declined";
}

TEST(BsonLibbson, KeyWithNulIsRefusedByLibbsonToo) {
  const Document doc = One(std::string("a\0b", 3), Int32(1));
  const absl::StatusOr<std::string> lib = oracle::libbson::Encode(doc);
  EXPECT_EQ(lib.status().code(), absl::StatusCode::kInvalidArgument);
  EXPECT_EQ(Encode(doc).status().code(), absl::StatusCode::kInvalidArgument);
}

}  // namespace
}  // namespace serdiff::bson
