// serdiff::bson integer formatting: int64 / uint64 to decimal ASCII, and the array index keys
// "0", "1", "2", ... of a BSON array (docs/bson.md, "Integer formatting and array keys").
//
// Two formatters, compared with each other and with the reference by the harness
// (targets bson_format_int64 / bson_format_uint64):
//   - FormatInt64 / FormatUint64 (inline, below): fixed-point digit extraction. A block of up
//     to 8 digits is multiplied once by a scaled reciprocal of a power of ten, so that the top
//     8 bits of the 64-bit product hold the first digit pair and the low 56 bits the rest as
//     a binary fraction; each further pair is one multiply by 100 of that fraction. The digit
//     count is found by a tree of compares, not by a count-leading-zeros and a table; the sign
//     of an int64 costs no branch.
//   - FormatInt64DigitPairs / FormatUint64DigitPairs (int_format.cc): the earlier formatter,
//     kept as a second optimized tier: clz-based digit count, blocks written back to front
//     with divisions by 100.
// Both write into a caller buffer, never allocate, never call printf, never divide per digit.
#pragma once
#include <cstddef>
#include <cstdint>
#include <cstring>
#include <string_view>

namespace serdiff::bson {

// Worst-case length of a formatted 64-bit integer, without any terminator:
// "-9223372036854775808" (INT64_MIN) and "18446744073709551615" (UINT64_MAX) are 20 characters.
inline constexpr size_t kMaxDecimalChars = 20;

// Number of decimal digits of v (1 for 0), 1..20.
int DecimalDigits(uint64_t v);

namespace internal {

// "00" "01" ... "99": the two ASCII digits of i at [2i, 2i + 2).
inline constexpr char kDigitPairs[201] =
    "00010203040506070809101112131415161718192021222324252627282930313233343536373839"
    "40414243444546474849505152535455565758596061626364656667686970717273747576777879"
    "8081828384858687888990919293949596979899";

// The fraction's width: a product's top 8 bits (bits 56..63) are the next digit pair, 0..99.
inline constexpr int kFracBits = 56;
inline constexpr uint64_t kFracMask = (uint64_t{1} << kFracBits) - 1;

// ceil(2^56 / 10^(2k)) for k = 1, 2, 3. For n < 10^(2k+2), n * kScale[k] is n / 10^(2k) as a
// fixed-point number with 56 fraction bits, too large by less than n * 2^-56 relative, which
// stays below the gap to the next digit through the k further multiplications by 100 (checked
// for every n < 10^8 by tests/bson_test.cc, BsonIntFormat.FixedPointBlocksAgainstDivision).
inline constexpr uint64_t kScale[4] = {
    uint64_t{1} << kFracBits,
    ((uint64_t{1} << kFracBits) + 100 - 1) / 100,
    ((uint64_t{1} << kFracBits) + 10000 - 1) / 10000,
    ((uint64_t{1} << kFracBits) + 1000000 - 1) / 1000000,
};

inline void PutPair(char* out, uint64_t pair) { std::memcpy(out, kDigitPairs + 2 * pair, 2); }

// Writes the pairs after the first of a fixed-point block: `pairs` more, from the fraction of f.
inline char* PutFractionPairs(uint64_t f, int pairs, char* out) {
  for (int i = 0; i < pairs; ++i) {
    f = (f & kFracMask) * 100;
    PutPair(out, f >> kFracBits);
    out += 2;
  }
  return out;
}

// Writes n (< 10^8) as exactly 8 digits, leading zeros included; returns out + 8.
inline char* Put8(uint32_t n, char* out) {
  const uint64_t f = uint64_t{n} * kScale[3];
  PutPair(out, f >> kFracBits);
  return PutFractionPairs(f, 3, out + 2);
}

// Writes n (< 10^(2k+2), at least 10^(2k)) with 2k+1 or 2k+2 digits; returns the end.
template <int k>
inline char* PutBlock(uint32_t n, uint32_t ten_pow_odd, char* out) {
  const uint64_t f = uint64_t{n} * kScale[k];
  const uint64_t first = f >> kFracBits;  // 1..99
  if (n < ten_pow_odd) {
    *out++ = static_cast<char>('0' + first);
  } else {
    PutPair(out, first);
    out += 2;
  }
  return PutFractionPairs(f, k, out);
}

// Writes n (< 10^8) with no leading zeros ("0" for 0); returns the end.
inline char* PutUpTo8(uint32_t n, char* out) {
  if (n < 100) {
    if (n < 10) {
      *out = static_cast<char>('0' + n);
      return out + 1;
    }
    PutPair(out, n);
    return out + 2;
  }
  if (n < 10000) return PutBlock<1>(n, 1000, out);
  if (n < 1000000) return PutBlock<2>(n, 100000, out);
  return PutBlock<3>(n, 10000000, out);
}

}  // namespace internal

// Writes v in decimal (no sign, no leading zeros, "0" for 0) to out[0..n) and returns n, 1..20.
// Precondition: out has room for kMaxDecimalChars bytes (fewer suffice when n is known).
// Writes no terminator. Inline: fixed-point digit extraction (see the top of this file).
inline size_t FormatUint64(uint64_t v, char* out) {
  if (v < 100000000)
    return static_cast<size_t>(internal::PutUpTo8(static_cast<uint32_t>(v), out) - out);
  char* p;
  if (v < 10000000000000000) {
    const uint64_t hi = v / 100000000;
    p = internal::PutUpTo8(static_cast<uint32_t>(hi), out);
    p = internal::Put8(static_cast<uint32_t>(v - hi * 100000000), p);
  } else {
    const uint64_t top = v / 10000000000000000;  // 1..1844
    const uint64_t rest = v - top * 10000000000000000;
    const uint64_t hi = rest / 100000000;
    p = internal::PutUpTo8(static_cast<uint32_t>(top), out);
    p = internal::Put8(static_cast<uint32_t>(hi), p);
    p = internal::Put8(static_cast<uint32_t>(rest - hi * 100000000), p);
  }
  return static_cast<size_t>(p - out);
}

// Writes v in decimal ('-' then the digits of |v| for negative v) and returns the length,
// 1..20. INT64_MIN is "-9223372036854775808": |v| is taken in unsigned arithmetic.
// Precondition: out has room for kMaxDecimalChars bytes. Writes no terminator. Branch-free
// sign: out[0] = '-' is always stored and overwritten by the first digit when v >= 0.
inline size_t FormatInt64(int64_t v, char* out) {
  const uint64_t neg = static_cast<uint64_t>(v) >> 63;
  const uint64_t magnitude = (static_cast<uint64_t>(v) ^ (0 - neg)) + neg;  // exact for 2^63
  *out = '-';
  return neg + FormatUint64(magnitude, out + neg);
}

// The earlier formatter (a second optimized tier; same contract as FormatUint64): digit count
// from the bit length, blocks of at most 8 digits written back to front, two digits per
// division by 100.
size_t FormatUint64DigitPairs(uint64_t v, char* out);

// Same contract as FormatInt64, over FormatUint64DigitPairs; the sign is a branch.
size_t FormatInt64DigitPairs(int64_t v, char* out);

// Bytes taken by the keys of an array of n elements, each key with its terminating NUL:
// sum over i in [0, n) of (DecimalDigits(i) + 1). Closed form, O(1).
uint64_t ArrayKeyBytes(uint64_t n);

// The keys of one array, generated incrementally: a decimal counter that starts at "0" and is
// incremented in place (usually only the last digit changes), so an array of n elements costs
// n increments instead of n integer formattings. Holds its digits inline; never allocates.
class ArrayKeyCounter {
 public:
  ArrayKeyCounter() { Reset(); }
  // Back to "0".
  void Reset() {
    std::memset(digits_, '0', sizeof(digits_));
    len_ = 1;
  }
  // The current key, without terminator ("0" after construction).
  std::string_view key() const { return {digits_ + kMaxDecimalChars - len_, len_}; }
  size_t size() const { return len_; }
  // Writes the current key and its terminating NUL to out; returns size() + 1.
  size_t WriteKeyWithNul(char* out) const {
    std::memcpy(out, digits_ + kMaxDecimalChars - len_, len_);
    out[len_] = '\0';
    return len_ + 1;
  }
  // Advances to the next index ("9" -> "10", "99" -> "100"). Precondition: the current
  // index is below UINT64_MAX.
  void Next() {
    size_t i = kMaxDecimalChars - 1;
    while (digits_[i] == '9') {
      digits_[i] = '0';
      --i;
    }
    ++digits_[i];
    const size_t used = kMaxDecimalChars - i;
    if (used > len_) len_ = used;
  }

 private:
  char digits_[kMaxDecimalChars];  // right-aligned; unused positions hold '0'
  size_t len_ = 1;
};

}  // namespace serdiff::bson
