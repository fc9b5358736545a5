// UTF-8 well-formedness, one implementation for every family (CQL `text`, BSON keys and
// strings, the CQL value printer). One return convention: an offset, equal to the input's
// length when nothing is wrong.
//
// Well-formed means RFC 3629, section 4 (the same table as Unicode 15, table 3-7): a lead byte
// 00..7F alone; C2..DF then 80..BF; E0 then A0..BF, E1..EC and EE..EF then 80..BF, ED then
// 80..9F (no surrogates), each then one more 80..BF; F0 then 90..BF, F1..F3 then 80..BF, F4
// then 80..8F (nothing above U+10FFFF), each then two more 80..BF. C0, C1 (overlong forms),
// F5..FF and a stray continuation byte start nothing.
#pragma once

#include <cstddef>
#include <cstdint>
#include <cstring>
#include <string_view>

namespace serdiff {

// Bytes of ASCII (00..7F) at the start of [p, p + n): 8 at a time, then byte by byte.
inline size_t AsciiPrefixLength(const uint8_t* p, size_t n) {
  size_t i = 0;
  for (; n - i >= 8; i += 8) {
    uint64_t w;
    std::memcpy(&w, p + i, 8);
    if ((w & 0x8080808080808080ull) != 0) break;
  }
  while (i < n && p[i] < 0x80) ++i;
  return i;
}

// Length (1..4) of the well-formed sequence that starts at p[0] of the n > 0 bytes at p, or 0
// when none does there (an ill-formed lead, a bad or missing continuation byte).
inline size_t Utf8SequenceLength(const uint8_t* p, size_t n) {
  const uint8_t c = p[0];
  if (c < 0x80) return 1;
  size_t len;
  uint8_t lo = 0x80, hi = 0xBF;  // the range allowed for the second byte
  if (c >= 0xC2 && c <= 0xDF) {
    len = 2;
  } else if (c >= 0xE0 && c <= 0xEF) {
    len = 3;
    if (c == 0xE0) lo = 0xA0;
    if (c == 0xED) hi = 0x9F;
  } else if (c >= 0xF0 && c <= 0xF4) {
    len = 4;
    if (c == 0xF0) lo = 0x90;
    if (c == 0xF4) hi = 0x8F;
  } else {
    return 0;
  }
  if (n < len || p[1] < lo || p[1] > hi) return 0;
  for (size_t k = 2; k < len; ++k) {
    if ((p[k] & 0xC0) != 0x80) return 0;
  }
  return len;
}

// Offset of the lead byte of the first ill-formed sequence in [p, p + n) (also when the input
// ends inside a sequence), or n when all of it is well-formed.
inline size_t FirstInvalidUtf8(const uint8_t* p, size_t n) {
  size_t i = 0;
  while (i < n) {
    i += AsciiPrefixLength(p + i, n - i);
    if (i == n) break;
    const size_t len = Utf8SequenceLength(p + i, n - i);
    if (len == 0) return i;
    i += len;
  }
  return n;
}
inline size_t FirstInvalidUtf8(std::string_view s) {
  return FirstInvalidUtf8(reinterpret_cast<const uint8_t*>(s.data()), s.size());
}

}  // namespace serdiff
