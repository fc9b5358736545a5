// The value tree's one-pass tiers: see value_tiers.h.
#include "serdiff/cql/value_tiers.h"

#include <bit>
#include <cstring>
#include <vector>

#if defined(__x86_64__)
#include <immintrin.h>

#include "serdiff/cql/typed_tiers_lanes.h"
#endif

namespace serdiff::cql::value_internal {

#if defined(__x86_64__)
#if defined(__clang__)
#pragma clang attribute push(__attribute__((target("avx512f,avx512bw"))), apply_to = function)
#else
#pragma GCC push_options
#pragma GCC target("avx512f,avx512bw")
// g++ 12's avx512fintrin.h: the same false positive as in typed_tiers.cc.
#pragma GCC diagnostic push
#pragma GCC diagnostic ignored "-Wmaybe-uninitialized"
#endif
namespace avx512 {
#define SERDIFF_VALUE_TIER_PIN(z) asm("" : "+v"(z))
#include "serdiff/cql/value_tiers_avx512.inc"
#undef SERDIFF_VALUE_TIER_PIN
}  // namespace avx512
#if defined(__clang__)
#pragma clang attribute pop
#else
#pragma GCC diagnostic pop
#pragma GCC pop_options
#endif
#endif  // __x86_64__

namespace {

constexpr size_t kShapeByte = 40;

uint8_t ShapeByte(const Value& v) {
  unsigned char bytes[sizeof(Value)];
  std::memcpy(bytes, static_cast<const void*>(&v), sizeof(Value));
  return bytes[kShapeByte];
}

bool ProbeLayout() {
  // The kernels read the shape as the low byte of a little-endian word.
  if constexpr (sizeof(Value) != 48 || alignof(Value) != 8 ||
                std::endian::native != std::endian::little) {
    return false;
  } else {
    // One Value of every shape, each with bytes that differ from its neighbours'.
    std::vector<Value> samples = {
        Value::Null(),
        Value::Unset(),
        Value::Empty(),
        Value::Bool(true),
        Value::Int(0x0123456789ABCDEFll),
        Value::Float(1.5f),
        Value::Double(-2.25),
        Value::Bytes(std::string(40, 'x')),
        Value::FromUuid(Uuid{1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15, 16}),
        Value::Varint(BigInt::FromInt64(-7)),
        Value::FromDecimal(Decimal{-3, BigInt::FromInt64(12345)}),
        Value::FromDuration(Duration{1, 2, 3}),
        Value::Items({Value::Int(1)}),
        Value::Pairs({Value::Int(1), Value::Int(2)}),
    };
    for (size_t i = 0; i < samples.size(); ++i) {
      if (static_cast<size_t>(samples[i].shape()) != i || ShapeByte(samples[i]) != i) return false;
    }
    for (int64_t x : {int64_t{0x0123456789ABCDEFll}, int64_t{-1}, int64_t{INT32_MIN}}) {
      const Value v = Value::Int(x);
      int64_t word;
      std::memcpy(&word, static_cast<const void*>(&v), 8);
      if (word != x || ShapeByte(v) != static_cast<uint8_t>(Value::Shape::kInt)) return false;
    }
    return true;
  }
}

}  // namespace

bool ValueLayoutKnown() {
  static const bool known = ProbeLayout();
  return known;
}

bool TierSupported(typed_internal::Tier t) {
  switch (t) {
    case typed_internal::Tier::kPortable:
      return true;
    case typed_internal::Tier::kAvx512:
    case typed_internal::Tier::kAvx512Emulated:
      return typed_internal::TierSupported(t) && ValueLayoutKnown();
    case typed_internal::Tier::kSsse3:
    case typed_internal::Tier::kAvx2:
      return false;
  }
  return false;
}

typed_internal::Tier BestTier() {
  static const typed_internal::Tier best =
      value_internal::TierSupported(typed_internal::Tier::kAvx512)
          ? typed_internal::Tier::kAvx512
          : typed_internal::Tier::kPortable;
  return best;
}

size_t WriteIntValueBlocks(typed_internal::Tier t, const Value* values, size_t n, uint32_t flip,
                           uint8_t** out) {
  const auto* e = reinterpret_cast<const uint8_t*>(values);
  static constexpr uint64_t kShapes[3] = {static_cast<uint64_t>(Value::Shape::kInt),
                                          static_cast<uint64_t>(Value::Shape::kNull),
                                          static_cast<uint64_t>(Value::Shape::kEmpty)};
  switch (t) {
#if defined(__x86_64__)
    case typed_internal::Tier::kAvx512:
      return avx512::IntValueLoop(e, n, {kShapes[0], kShapes[1], kShapes[2]}, flip, out);
#endif
#if SERDIFF_CQL_HAVE_AVX512_EMULATION
    case typed_internal::Tier::kAvx512Emulated:
      return WriteIntValueBlocksAvx512Emulated(e, n, kShapes, flip, out);
#endif
    default:
      return 0;
  }
}

}  // namespace serdiff::cql::value_internal
