// The one-pass route of the Value-tree encoder (src/serdiff/cql/codec_write.cc,
// SerializeFixedItemsOnePass): a list or set of a fixed-width type whose encoding without null
// and empty elements fits in 32 KiB is validated and written in one pass, into a buffer of that
// size. Checked here, against bytes written by hand and against the reference:
//   * an empty element, a null element (v3+) and each kind of bad element at every position of
//     every count in 0..17 and 63..65 (the 8-element blocks of the loop, the tail after them),
//     for list and set, protocol v4 and v2, Serialize and SerializeValue, for int and date, and
//     with every block loop of the value tree this machine runs (Serialize's TypedTier:
//     portable, avx512, avx512_emulated; value_tiers.h);
//   * a bad element makes the call fail where the two-pass route says (its output offset);
//   * the peak heap at the route's edge: exactly the output with no null; the output plus the
//     unused width of every null; one element past the route, the output again; a rejected
//     list, the route's buffer at most.
#include <gtest/gtest.h>

#include <cstdint>
#include <iostream>
#include <string>
#include <vector>

#include "absl/strings/match.h"
#include "absl/strings/str_cat.h"
#include "harness/alloc_tracker.h"
#include "harness/hex.h"
#include "reference/cql/codec_ref.h"
#include "serdiff/cql/codec.h"
#include "tests/cql_test_util.h"

namespace serdiff::cql {
namespace {

using harness::CompactHex;
using test_util::Be;
using test_util::kFixedListCounts;

// The value tree's tiers this machine and build run (value_tiers.h), kAuto first.
std::vector<TypedTier> ValueTreeTiers() {
  std::vector<TypedTier> tiers;
  for (TypedTier t :
       {TypedTier::kAuto, TypedTier::kPortable, TypedTier::kAvx512, TypedTier::kAvx512Emulated}) {
    if (ValueTreeTierSupported(t)) tiers.push_back(t);
  }
  return tiers;
}

// Element j of the test lists: varied, negative and positive, within int32.
int32_t IntAt(size_t j) { return static_cast<int32_t>((j + 1) * 0x9e3779b1u); }

enum class Odd { kNone, kEmpty, kNull };

// list<int> of n elements with element i empty or null (kNone: none): the payload by hand
// (v4 spec 6: [int] count, each element [bytes]; v1/v2: [short] count and lengths).
// A date writes its day count plus 2^31 (v4 spec 6.5), which flips the top bit.
std::string Expected(size_t n, size_t i, Odd odd, bool short_form, Kind kind = Kind::kInt) {
  const uint32_t flip = kind == Kind::kDate ? 0x80000000u : 0;
  const int prefix = short_form ? 2 : 4;
  std::string s = Be(n, prefix);
  for (size_t j = 0; j < n; ++j) {
    if (j == i && odd == Odd::kEmpty) {
      s += Be(0, prefix);
    } else if (j == i && odd == Odd::kNull) {
      s += Be(0xffffffffu, 4);
    } else {
      s += Be(4, prefix) + Be(static_cast<uint32_t>(IntAt(j)) ^ flip, 4);
    }
  }
  return s;
}

Value Items(size_t n, size_t i, const Value& at_i) {
  std::vector<Value> items;
  for (size_t j = 0; j < n; ++j) items.push_back(j == i ? at_i : Value::Int(IntAt(j)));
  return Value::Items(std::move(items));
}

TEST(CqlOnePass, TheValueTreesTiersOnThisMachine) {
  EXPECT_TRUE(ValueTreeTierSupported(TypedTier::kAuto));
  EXPECT_TRUE(ValueTreeTierSupported(TypedTier::kPortable));
#if defined(__x86_64__) && defined(__GLIBCXX__)
  // libstdc++'s std::variant on x86-64: the layout the kernels read (value_tiers.h).
  EXPECT_EQ(ValueTreeTierSupported(TypedTier::kAvx512), TypedTierSupported(TypedTier::kAvx512));
#endif
#if SERDIFF_EXPECT_AVX512_EMULATION && defined(__GLIBCXX__)
  EXPECT_TRUE(ValueTreeTierSupported(TypedTier::kAvx512Emulated));
#endif
  // The value tree has no ssse3 or avx2 loop: forcing one is an error, not a crash.
  const Value v = Value::Items({Value::Int(1)});
  for (const TypedTier t : {TypedTier::kSsse3, TypedTier::kAvx2}) {
    EXPECT_FALSE(ValueTreeTierSupported(t));
    EXPECT_EQ(Serialize(Type::List(Type::Native(Kind::kInt)), v, 4, t).status().code(),
              absl::StatusCode::kInvalidArgument);
  }
  std::cout << "value tree tiers on this machine:";
  for (const TypedTier t : ValueTreeTiers()) std::cout << " " << TypedTierName(t);
  std::cout << "\n";
}

TEST(CqlOnePass, EmptyAndNullElementsAtEveryPosition) {
  for (const TypedTier tier : ValueTreeTiers()) {
    for (const Kind kind : {Kind::kInt, Kind::kDate}) {
      for (const int version : {4, 2}) {
        const bool short_form = version < 3;
        for (const bool set : {false, true}) {
          const Type type = set ? Type::Set(Type::Native(kind)) : Type::List(Type::Native(kind));
          for (const size_t n : kFixedListCounts) {
            for (size_t i = 0; i <= n; ++i) {  // i == n: every element a value
              for (const Odd odd : {Odd::kEmpty, Odd::kNull}) {
                if (i == n && odd == Odd::kNull) continue;
                const std::string where =
                    absl::StrCat(std::string(TypedTierName(tier)), " ", KindName(kind), " ",
                                 set ? "set" : "list", " v", version, " n ", n,
                                 odd == Odd::kNull ? " null" : " empty", " at ", i);
                const Value v = Items(n, i, odd == Odd::kNull ? Value::Null() : Value::Empty());
                absl::StatusOr<std::string> fast = Serialize(type, v, version, tier);
                absl::StatusOr<std::string> framed = SerializeValue(type, v, version, tier);
                if (short_form && odd == Odd::kNull && i < n) {  // a null has no [short bytes] form
                  const size_t at = 2 + i * 6;
                  EXPECT_EQ(fast.status().code(), absl::StatusCode::kInvalidArgument) << where;
                  EXPECT_TRUE(absl::StrContains(fast.status().message(),
                                                absl::StrCat("output offset ", at, ":")))
                      << where << fast.status();
                  EXPECT_EQ(framed.status(), fast.status()) << where;
                  continue;
                }
                const std::string want = Expected(n, i, odd, short_form, kind);
                ASSERT_TRUE(fast.ok()) << where << ": " << fast.status();
                EXPECT_EQ(CompactHex(*fast), CompactHex(want)) << where;
                ASSERT_TRUE(framed.ok()) << where << ": " << framed.status();
                EXPECT_EQ(CompactHex(*framed), CompactHex(Be(want.size(), 4) + want)) << where;
                absl::StatusOr<std::string> ref = ref::cql::Serialize(type, v, version);
                ASSERT_TRUE(ref.ok()) << where << ": " << ref.status();
                EXPECT_EQ(CompactHex(*ref), CompactHex(want)) << where << " reference";
              }
            }
          }
        }
      }
    }
  }
}

// Both sides of the route's edge write the same bytes: 4,095 ints (one pass) and 4,096 (two
// passes), every third element null and the last one empty, list and set, Serialize and
// SerializeValue, against bytes written here and the reference.
TEST(CqlOnePass, BothSidesOfTheRoutesEdgeWriteTheSameBytes) {
  for (const size_t n : {size_t{4095}, size_t{4096}}) {
    for (const bool set : {false, true}) {
      const Type type =
          set ? Type::Set(Type::Native(Kind::kInt)) : Type::List(Type::Native(Kind::kInt));
      std::vector<Value> items;
      std::string want = Be(n, 4);
      for (size_t j = 0; j < n; ++j) {
        if (j == n - 1) {
          items.push_back(Value::Empty());
          want += Be(0, 4);
        } else if (j % 3 == 1) {
          items.push_back(Value::Null());
          want += Be(0xffffffffu, 4);
        } else {
          items.push_back(Value::Int(IntAt(j)));
          want += Be(4, 4) + Be(static_cast<uint32_t>(IntAt(j)), 4);
        }
      }
      const Value v = Value::Items(std::move(items));
      const std::string where = absl::StrCat(set ? "set" : "list", " of ", n);
      for (const TypedTier tier : ValueTreeTiers()) {
        absl::StatusOr<std::string> fast = Serialize(type, v, 4, tier);
        ASSERT_TRUE(fast.ok()) << where << " " << TypedTierName(tier) << ": " << fast.status();
        EXPECT_TRUE(*fast == want) << where << " " << TypedTierName(tier);
      }
      absl::StatusOr<std::string> framed = SerializeValue(type, v, 4);
      ASSERT_TRUE(framed.ok()) << where << ": " << framed.status();
      EXPECT_TRUE(*framed == Be(want.size(), 4) + want) << where;
      absl::StatusOr<std::string> ref = ref::cql::Serialize(type, v, 4);
      ASSERT_TRUE(ref.ok()) << where << ": " << ref.status();
      EXPECT_TRUE(*ref == want) << where << " reference";
    }
  }
}

// Each bad element where the two-pass route reports it: a value of the wrong shape or out of
// int's range at its payload, an unset at the element's own offset.
TEST(CqlOnePass, BadElementsAtEveryPositionFailWhereTheSizePassSays) {
  struct Bad {
    Value v;
    bool at_payload;
    const char* name;
  };
  const std::vector<Bad> bads = {
      {Value::Int(int64_t{1} << 31), true, "2^31"},
      {Value::Int(-(int64_t{1} << 31) - 1), true, "-2^31 - 1"},
      {Value::Int(INT64_MIN), true, "INT64_MIN"},
      {Value::Text("x"), true, "text"},
      {Value::Double(1.0), true, "double"},
      {Value::Int(INT64_MAX), true, "INT64_MAX"},
      {Value::Int(int64_t{1} << 32), true, "2^32"},
      {Value::Float(1.0f), true, "float"},
      {Value::Bool(true), true, "boolean"},
      {Value::Varint(BigInt::FromInt64(1)), true, "varint"},
      {Value::Items({Value::Int(1)}), true, "list"},
      {Value::Unset(), false, "unset"},
  };
  for (const TypedTier tier : ValueTreeTiers()) {
    for (const Kind kind : {Kind::kInt, Kind::kDate}) {
      for (const int version : {4, 2}) {
        const size_t prefix = version < 3 ? 2 : 4;
        const Type type = Type::List(Type::Native(kind));
        for (const size_t n : kFixedListCounts) {
          for (size_t i = 0; i < n; ++i) {
            for (const Bad& bad : bads) {
              const std::string where =
                  absl::StrCat(std::string(TypedTierName(tier)), " ", KindName(kind), " v", version,
                               " n ", n, " ", bad.name, " at ", i);
              const Value v = Items(n, i, bad.v);
              const size_t at = prefix + i * (prefix + 4) + (bad.at_payload ? prefix : 0);
              absl::StatusOr<std::string> fast = Serialize(type, v, version, tier);
              EXPECT_EQ(fast.status().code(), absl::StatusCode::kInvalidArgument) << where;
              EXPECT_TRUE(absl::StrContains(fast.status().message(),
                                            absl::StrCat("output offset ", at, ":")))
                  << where << ": " << fast.status();
              EXPECT_EQ(SerializeValue(type, v, version, tier).status(), fast.status()) << where;
              EXPECT_EQ(ref::cql::Serialize(type, v, version).status().code(),
                        absl::StatusCode::kInvalidArgument)
                  << where;
            }
          }
        }
      }
    }
  }
}

// Peak heap of Serialize for n elements of `kind`, every one null when `nulls`; *size gets the
// output's size.
int64_t PeakOf(Kind kind, size_t n, bool nulls, size_t* size) {
  const Type type = Type::List(Type::Native(kind));
  std::vector<Value> items(n, nulls ? Value::Null() : Value::Int(7));
  const Value v = Value::Items(std::move(items));
  harness::PeakHeapScope scope;
  absl::StatusOr<std::string> out = Serialize(type, v, 4);
  const int64_t peak = scope.PeakBytes();
  EXPECT_TRUE(out.ok()) << out.status();
  *size = out.ok() ? out->size() : 0;
  return peak;
}

// The string's allocation is its size + 1 (the terminator). One pass: sized for no null, so
// each null leaves its width unused; the route ends where count + n x (4 + width) passes 32 KiB.
TEST(CqlOnePass, PeakIsTheOutputPlusTheWidthOfEachNullUpTo32KiB) {
  struct Case {
    Kind kind;
    size_t width;
  };
  for (const Case c : {Case{Kind::kInt, 4}, Case{Kind::kBigint, 8}}) {
    const size_t last = (32768 - 4) / (4 + c.width);  // the longest list of the one-pass route
    for (const size_t n : {size_t{1000}, last, last + 1}) {
      const std::string where = absl::StrCat(KindName(c.kind), " x ", n);
      size_t size = 0;
      const int64_t exact = PeakOf(c.kind, n, false, &size);
      EXPECT_EQ(exact, static_cast<int64_t>(size + 1)) << where;
      EXPECT_EQ(size, 4 + n * (4 + c.width)) << where;
      const int64_t peak = PeakOf(c.kind, n, true, &size);
      EXPECT_EQ(size, 4 + n * 4) << where << " nulls";
      const size_t unused = n <= last ? n * c.width : 0;
      EXPECT_EQ(peak, static_cast<int64_t>(size + unused + 1)) << where << " nulls";
    }
  }
}

// A bad last element: the one-pass buffer (4 + 4,095 x 8 + 1 bytes) is allocated, given up and
// freed before the size pass builds the error; nothing else of that size is alive.
TEST(CqlOnePass, ARejectedListPeaksAtTheRoutesBuffer) {
  const Type type = Type::List(Type::Native(Kind::kInt));
  std::vector<Value> items(4095, Value::Int(1));
  items.back() = Value::Int(int64_t{1} << 31);
  const Value v = Value::Items(std::move(items));
  harness::PeakHeapScope scope;
  absl::StatusOr<std::string> out = Serialize(type, v, 4);
  const int64_t peak = scope.PeakBytes();
  EXPECT_EQ(out.status().code(), absl::StatusCode::kInvalidArgument);
  EXPECT_GE(peak, 4 + 4095 * 8 + 1);
  EXPECT_LE(peak, 4 + 4095 * 8 + 1 + 1024);
}

}  // namespace
}  // namespace serdiff::cql
