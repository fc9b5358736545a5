// The value tree's vector kernel (src/serdiff/cql/value_tiers.h, WriteIntValueBlocks) on Values
// placed at each of the 8 word offsets (skews) within a 64-byte cache line, since the kernel
// reads a block in the middle of the array as whole cache lines whose layout depends on that
// skew, and a heap array has whichever skew malloc gave it. For every skew, count and position
// of one bad element of every kind, and for int and date: exactly how many Values the kernel
// takes (whole blocks before the bad one's block), the bytes it writes for them (hand-derived:
// 00 00 00 04 and the big-endian payload, plus 2^31 for a date, v4 spec 6.10 and 6.5), and
// that nothing is written for the block that fails or after it; and, against a guard page and
// under AddressSanitizer, that it reads nothing outside the array. Every vector tier this
// machine runs (avx512 and its SIMDe emulation).
#include <gtest/gtest.h>
#include <sys/mman.h>
#include <unistd.h>

#include <cstdint>
#include <cstring>
#include <new>
#include <string>
#include <vector>

#if defined(__SANITIZE_ADDRESS__)
#define SERDIFF_TEST_ASAN 1
#elif defined(__has_feature)
#if __has_feature(address_sanitizer)
#define SERDIFF_TEST_ASAN 1
#endif
#endif
#if defined(SERDIFF_TEST_ASAN)
#include <sanitizer/asan_interface.h>
#endif

#include "absl/strings/str_cat.h"
#include "harness/hex.h"
#include "serdiff/cql/value_tiers.h"
#include "tests/cql_test_util.h"

namespace serdiff::cql {
namespace {

using test_util::Be;
using typed_internal::Tier;

// n Values at `skew` words (0..7) past a 64-byte boundary, built in place. Under
// AddressSanitizer the 64 + 8 x skew bytes before the array and the 64 - 8 x skew after it are
// poisoned, so that a kernel load touching them is reported (the guard-page test below holds
// the end in every build).
class PlacedValues {
 public:
  PlacedValues(const std::vector<Value>& values, unsigned skew)
      : n_(values.size()),
        raw_(static_cast<unsigned char*>(::operator new (Size(), std::align_val_t{64}))) {
    // The bytes around the array are set, so that a kernel that read them would see a
    // deterministic wrong shape rather than garbage.
    std::memset(raw_, 0xA5, Size());
    values_ = reinterpret_cast<Value*>(raw_ + 64 + 8 * skew);
    for (size_t i = 0; i < n_; ++i) new (&values_[i]) Value(values[i]);
#if defined(SERDIFF_TEST_ASAN)
    unsigned char* const begin = reinterpret_cast<unsigned char*>(values_);
    unsigned char* const end = begin + 48 * n_;
    ASAN_POISON_MEMORY_REGION(raw_, static_cast<size_t>(begin - raw_));
    ASAN_POISON_MEMORY_REGION(end, static_cast<size_t>(raw_ + Size() - end));
#endif
  }
  ~PlacedValues() {
#if defined(SERDIFF_TEST_ASAN)
    ASAN_UNPOISON_MEMORY_REGION(raw_, Size());
#endif
    for (size_t i = 0; i < n_; ++i) values_[i].~Value();
    ::operator delete (raw_, std::align_val_t{64});
  }
  PlacedValues(const PlacedValues&) = delete;
  PlacedValues& operator=(const PlacedValues&) = delete;
  const Value* data() const { return values_; }

 private:
  size_t Size() const { return 48 * n_ + 128; }

  size_t n_;
  unsigned char* raw_;
  Value* values_ = nullptr;
};

int32_t IntAt(size_t j) {
  if (j % 11 == 3) return INT32_MIN;
  if (j % 11 == 7) return INT32_MAX;
  return static_cast<int32_t>((j + 1) * 0x9e3779b1u);
}

std::vector<Tier> VectorTiers() {
  std::vector<Tier> tiers;
  for (const Tier t : {Tier::kAvx512, Tier::kAvx512Emulated}) {
    if (value_internal::TierSupported(t)) tiers.push_back(t);
  }
  return tiers;
}

TEST(CqlValueTiers, EveryVectorTierAtEverySkewTakesWholeGoodBlocksOnly) {
  const std::vector<Tier> tiers = VectorTiers();
  if (tiers.empty()) GTEST_SKIP() << "no vector tier of the value tree on this machine";
  struct Bad {
    Value v;
    const char* name;
    const char* written;  // the kernel writes it (hex), or nullptr: the block stops there
  };
  const std::vector<Bad> bads = {
      {Value::Null(), "null", "ffffffff"},
      {Value::Empty(), "empty", "00000000"},
      {Value::Unset(), "unset", nullptr},
      {Value::Float(1.0f), "float 1", nullptr},
      {Value::Bool(true), "boolean", nullptr},
      {Value::Double(0.0), "double 0", nullptr},
      {Value::Text("x"), "text", nullptr},
      {Value::Items({Value::Int(1)}), "list", nullptr},
      {Value::Int(int64_t{1} << 31), "2^31", nullptr},
      {Value::Int(-(int64_t{1} << 31) - 1), "-2^31 - 1", nullptr},
      {Value::Int(int64_t{1} << 32), "2^32", nullptr},
      {Value::Int(INT64_MIN), "INT64_MIN", nullptr},
      {Value::Int(INT64_MAX), "INT64_MAX", nullptr},
  };
  size_t cases = 0;
  for (const size_t n :
       {size_t{7}, size_t{8}, size_t{9}, size_t{16}, size_t{17}, size_t{23}, size_t{24}, size_t{25},
        size_t{32}, size_t{40}, size_t{63}, size_t{64}, size_t{65}}) {
    // bad == bads.size(): every element good.
    for (size_t bad = 0; bad <= bads.size(); ++bad) {
      for (size_t at = 0; at < (bad == bads.size() ? 1 : n); ++at) {
        std::vector<Value> values;
        for (size_t j = 0; j < n; ++j) {
          values.push_back(bad < bads.size() && j == at ? bads[bad].v : Value::Int(IntAt(j)));
        }
        const bool stops = bad < bads.size() && bads[bad].written == nullptr;
        const size_t want_taken = std::min((stops ? at : n) / 8 * 8, n / 8 * 8);
        for (unsigned skew = 0; skew < 8; ++skew) {
          const PlacedValues placed(values, skew);
          for (const uint32_t flip : {0u, 0x80000000u}) {
            std::string want;
            for (size_t j = 0; j < want_taken; ++j) {
              if (bad < bads.size() && j == at) {
                want += test_util::Unhex(bads[bad].written);
              } else {
                want += Be(4, 4) + Be(static_cast<uint32_t>(IntAt(j)) ^ flip, 4);
              }
            }
            for (const Tier tier : tiers) {
              const std::string where =
                  absl::StrCat(std::string(typed_internal::TierName(tier)), " skew ", skew, " n ",
                               n, flip ? " date" : " int", " ",
                               bad < bads.size() ? bads[bad].name : "none", " at ", at);
              std::string out(8 * n + 64, '\xA5');
              uint8_t* const base = reinterpret_cast<uint8_t*>(out.data());
              uint8_t* end = base;
              const size_t taken =
                  value_internal::WriteIntValueBlocks(tier, placed.data(), n, flip, &end);
              ASSERT_EQ(taken, want_taken) << where;
              ASSERT_EQ(static_cast<size_t>(end - base), want.size()) << where;
              EXPECT_EQ(harness::CompactHex(out.substr(0, want.size())), harness::CompactHex(want))
                  << where;
              EXPECT_EQ(out.substr(8 * taken), std::string(out.size() - 8 * taken, '\xA5'))
                  << where << ": bytes written past the room of the Values taken";
              ++cases;
            }
          }
        }
      }
    }
  }
  EXPECT_GT(cases, 10000u);
}

// Every mix of ints, nulls and empties in one block (3^8 of them), in the first block (read
// unaligned), a middle one (read as whole cache lines) and the last one, at every skew: the
// kernel packs them (8 bytes an int, 4 a null or an empty) with the hand-derived bytes.
TEST(CqlValueTiers, EveryMixOfIntsNullsAndEmptiesInABlockIsPacked) {
  const std::vector<Tier> tiers = VectorTiers();
  if (tiers.empty()) GTEST_SKIP() << "no vector tier of the value tree on this machine";
  constexpr size_t n = 24;
  size_t cases = 0;
  for (size_t block = 0; block < 3; ++block) {
    for (unsigned mix = 0; mix < 6561; ++mix) {
      std::vector<Value> values;
      std::string want;
      unsigned m = mix;
      for (size_t j = 0; j < n; ++j) {
        unsigned kind = 0;  // 0 int, 1 null, 2 empty
        if (j / 8 == block) {
          kind = m % 3;
          m /= 3;
        }
        if (kind == 1) {
          values.push_back(Value::Null());
          want += Be(0xffffffffu, 4);
        } else if (kind == 2) {
          values.push_back(Value::Empty());
          want += Be(0, 4);
        } else {
          values.push_back(Value::Int(IntAt(j)));
          want += Be(4, 4) + Be(static_cast<uint32_t>(IntAt(j)), 4);
        }
      }
      // Every skew for a third of the mixes, one (mix % 8) for the others.
      for (unsigned skew = 0; skew < 8; ++skew) {
        if (mix % 3 != 0 && skew != mix % 8) continue;
        const PlacedValues placed(values, skew);
        for (const Tier tier : tiers) {
          std::string out(8 * n + 64, '\xA5');
          uint8_t* const base = reinterpret_cast<uint8_t*>(out.data());
          uint8_t* end = base;
          const size_t taken = value_internal::WriteIntValueBlocks(tier, placed.data(), n, 0, &end);
          const std::string where = absl::StrCat(std::string(typed_internal::TierName(tier)),
                                                 " block ", block, " mix ", mix, " skew ", skew);
          ASSERT_EQ(taken, n) << where;
          ASSERT_EQ(static_cast<size_t>(end - base), want.size()) << where;
          ASSERT_EQ(harness::CompactHex(out.substr(0, want.size())), harness::CompactHex(want))
              << where;
          ++cases;
        }
      }
    }
  }
  EXPECT_GT(cases, 20000u);
}

// The end of the array against a page that cannot be read: for 8..80 Values ending there or
// 8 to 56 bytes before it (every skew), every vector tier takes every block and writes the
// right bytes without touching the guard page (an unaligned load past the array's end would end
// the test with SIGSEGV). A whole cache line never crosses a page, so a line read past the end
// is seen only by AddressSanitizer's poisoned bytes (PlacedValues, in the asan tree's run).
TEST(CqlValueTiers, NoVectorTierReadsPastTheLastValue) {
  const std::vector<Tier> tiers = VectorTiers();
  if (tiers.empty()) GTEST_SKIP() << "no vector tier of the value tree on this machine";
  const size_t page = static_cast<size_t>(sysconf(_SC_PAGESIZE));
  const size_t room = ((48 * 80 + 64) / page + 1) * page;
  void* const map =
      mmap(nullptr, room + page, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
  ASSERT_NE(map, MAP_FAILED);
  unsigned char* const guard = static_cast<unsigned char*>(map) + room;
  ASSERT_EQ(mprotect(guard, page, PROT_NONE), 0);
  for (size_t n = 8; n <= 80; ++n) {
    for (size_t gap = 0; gap <= 56; gap += 8) {
      Value* const values = reinterpret_cast<Value*>(guard - gap - 48 * n);
      for (size_t j = 0; j < n; ++j) new (&values[j]) Value(Value::Int(IntAt(j)));
      std::string want;
      for (size_t j = 0; j < n / 8 * 8; ++j) {
        want += Be(4, 4) + Be(static_cast<uint32_t>(IntAt(j)), 4);
      }
      for (const Tier tier : tiers) {
        const std::string where =
            absl::StrCat(std::string(typed_internal::TierName(tier)), " n ", n, " gap ", gap);
        std::string out(8 * n, '\xA5');
        uint8_t* end = reinterpret_cast<uint8_t*>(out.data());
        const size_t taken = value_internal::WriteIntValueBlocks(tier, values, n, 0, &end);
        EXPECT_EQ(taken, n / 8 * 8) << where;
        EXPECT_EQ(harness::CompactHex(out.substr(0, 8 * taken)), harness::CompactHex(want))
            << where;
      }
      for (size_t j = 0; j < n; ++j) values[j].~Value();
    }
  }
  munmap(map, room + page);
}

}  // namespace
}  // namespace serdiff::cql
