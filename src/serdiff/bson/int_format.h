// serdiff::bson integer formatting: int64 / uint64 to decimal ASCII, and the array index keys
// "0", "1", "2", ... of a BSON array (docs/bson.md, "Integer formatting and array keys").
//
// The formatters write into a caller buffer and never allocate, never call printf and never
// divide once per digit: a value is cut into blocks of at most 8 digits with 32-bit arithmetic
// and each block is written two digits at a time from a 200-byte digit-pair table.
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

// Writes v in decimal (no sign, no leading zeros, "0" for 0) to out[0..n) and returns n, 1..20.
// Precondition: out has room for kMaxDecimalChars bytes (fewer suffice when n is known).
// Writes no terminator.
size_t FormatUint64(uint64_t v, char* out);

// Writes v in decimal ('-' then the digits of |v| for negative v) and returns the length,
// 1..20. INT64_MIN is "-9223372036854775808": |v| is taken in unsigned arithmetic.
// Precondition: out has room for kMaxDecimalChars bytes. Writes no terminator.
size_t FormatInt64(int64_t v, char* out);

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
