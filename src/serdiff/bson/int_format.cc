#include "serdiff/bson/int_format.h"

namespace serdiff::bson {
namespace {

// "00" "01" ... "99".
constexpr char kPairs[201] =
    "00010203040506070809101112131415161718192021222324252627282930313233343536373839"
    "40414243444546474849505152535455565758596061626364656667686970717273747576777879"
    "8081828384858687888990919293949596979899";

constexpr uint64_t kPow10[20] = {1ull,
                                 10ull,
                                 100ull,
                                 1000ull,
                                 10000ull,
                                 100000ull,
                                 1000000ull,
                                 10000000ull,
                                 100000000ull,
                                 1000000000ull,
                                 10000000000ull,
                                 100000000000ull,
                                 1000000000000ull,
                                 10000000000000ull,
                                 100000000000000ull,
                                 1000000000000000ull,
                                 10000000000000000ull,
                                 100000000000000000ull,
                                 1000000000000000000ull,
                                 10000000000000000000ull};

// Writes v (< 10^8) as exactly 8 digits, leading zeros included.
inline void Write8(uint32_t v, char* out) {
  const uint32_t hi = v / 10000;
  const uint32_t lo = v - hi * 10000;
  const uint32_t a = hi / 100, b = hi - a * 100;
  const uint32_t c = lo / 100, d = lo - c * 100;
  std::memcpy(out, kPairs + 2 * a, 2);
  std::memcpy(out + 2, kPairs + 2 * b, 2);
  std::memcpy(out + 4, kPairs + 2 * c, 2);
  std::memcpy(out + 6, kPairs + 2 * d, 2);
}

// Writes v (< 10^8) with exactly n digits (n = DecimalDigits(v), 1..8), back to front.
inline void WriteUpTo8(uint32_t v, int n, char* out) {
  char* p = out + n;
  while (v >= 100) {
    const uint32_t q = v / 100;
    p -= 2;
    std::memcpy(p, kPairs + 2 * (v - q * 100), 2);
    v = q;
  }
  if (v >= 10) {
    std::memcpy(p - 2, kPairs + 2 * v, 2);
  } else {
    p[-1] = static_cast<char>('0' + v);
  }
}

}  // namespace

int DecimalDigits(uint64_t v) {
  const uint64_t x = v | 1;
  const int bits = 64 - __builtin_clzll(x);
  const int t = (bits * 1233) >> 12;  // floor(log10(2^bits)) approximation, 0..19
  return t + 1 - (x < kPow10[t] ? 1 : 0);
}

size_t FormatUint64DigitPairs(uint64_t v, char* out) {
  // Up to three digits (array indexes, small counts) without the digit count's clz and table.
  if (v < 100) {
    if (v < 10) {
      *out = static_cast<char>('0' + v);
      return 1;
    }
    std::memcpy(out, kPairs + 2 * v, 2);
    return 2;
  }
  if (v < 1000) {
    const uint32_t q = static_cast<uint32_t>(v) / 100;
    out[0] = static_cast<char>('0' + q);
    std::memcpy(out + 1, kPairs + 2 * (static_cast<uint32_t>(v) - q * 100), 2);
    return 3;
  }
  if (v < 100000000) {
    const int n = DecimalDigits(v);
    WriteUpTo8(static_cast<uint32_t>(v), n, out);
    return static_cast<size_t>(n);
  }
  const uint64_t top = v / 100000000;
  const uint32_t low8 = static_cast<uint32_t>(v - top * 100000000);
  size_t n;
  if (top < 100000000) {
    const int tn = DecimalDigits(top);
    WriteUpTo8(static_cast<uint32_t>(top), tn, out);
    n = static_cast<size_t>(tn);
  } else {
    const uint32_t head = static_cast<uint32_t>(top / 100000000);  // <= 1844
    const uint32_t mid8 = static_cast<uint32_t>(top - uint64_t{head} * 100000000);
    const int hn = DecimalDigits(head);
    WriteUpTo8(head, hn, out);
    Write8(mid8, out + hn);
    n = static_cast<size_t>(hn) + 8;
  }
  Write8(low8, out + n);
  return n + 8;
}

size_t FormatInt64DigitPairs(int64_t v, char* out) {
  uint64_t magnitude = static_cast<uint64_t>(v);
  if (v < 0) {
    *out = '-';
    magnitude = 0 - magnitude;  // unsigned: exact for INT64_MIN (2^63)
    return 1 + FormatUint64DigitPairs(magnitude, out + 1);
  }
  return FormatUint64DigitPairs(magnitude, out);
}

uint64_t ArrayKeyBytes(uint64_t n) {
  uint64_t total = 0;
  uint64_t lo = 0;  // first index with `digits` digits
  for (int digits = 1; digits <= 20 && lo < n; ++digits) {
    const uint64_t hi = digits == 20 ? UINT64_MAX : kPow10[digits];  // exclusive
    const uint64_t count = (n < hi ? n : hi) - lo;
    total += count * static_cast<uint64_t>(digits + 1);
    lo = hi;
  }
  return total;
}

}  // namespace serdiff::bson
