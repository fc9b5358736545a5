// Optimized CQL value codec, wire primitives: Cassandra's UTF-8 rules (the RFC 3629 check is
// serdiff/common/utf8.h, shared with BSON), ASCII validation and the varint
// (arbitrary-precision integer) form. Encoding: one validating size pass (codec_size.cc), then
// one write pass into a single exactly sized buffer (codec_write.cc: variable-size items get
// their length prefix back-patched). Decoding: one pass over the input with every length and
// count checked before use (codec_decode.cc). Shared pieces: codec_internal.h.
#include <cstring>
#include <string>

#include "absl/strings/str_cat.h"
#include "serdiff/cql/codec_internal.h"

namespace serdiff::cql::codec_internal {

// Index of the first byte of the first sequence that Cassandra's UTF8Serializer.UTF8Validator
// rejects (the sequence's lead byte, also when the input ends inside the sequence), or n.
// Its rules: 00..7F alone; C0 80 (modified-UTF-8 NUL); C2..DF + continuation; E0 + any byte
// outside 80..9F + continuation; E1..EF + 2 continuations (surrogates included); F0 + any byte
// with bit 4 or 5 set + 2 continuations; F1..F7 + 3 continuations. C1, F8..FF and a stray
// continuation byte start nothing.
size_t FirstInvalidCassandraUtf8(const uint8_t* p, size_t n) {
  size_t i = 0;
  while (i < n) {
    i += AsciiPrefixLength(p + i, n - i);
    if (i == n) break;
    const uint8_t c = p[i];
    if (c < 0xC0 || c == 0xC1 || c >= 0xF8) return i;
    const size_t len = c < 0xE0 ? 2 : c < 0xF0 ? 3 : 4;
    if (n - i < len) return i;
    const uint8_t second = p[i + 1];
    bool ok;
    if (c == 0xC0) {
      ok = second == 0x80;
    } else if (c == 0xE0) {
      ok = (second & 0xE0) != 0x80;
    } else if (c == 0xF0) {
      ok = (second & 0x30) != 0;
    } else {
      ok = (second & 0xC0) == 0x80;
    }
    for (size_t k = 2; k < len; ++k) ok = ok && (p[i + k] & 0xC0) == 0x80;
    if (!ok) return i;
    i += len;
  }
  return n;
}

size_t FirstNonAscii(const uint8_t* p, size_t n) { return AsciiPrefixLength(p, n); }

// ---- varint (v4 spec 6.23): minimal big-endian two's complement --------------------------

// Bytes of the minimal two's complement form of b. Zero -> 1 (00). Positive m -> the
// magnitude's length, plus a 00 byte when its top bit is set. Negative -m -> the form is
// NOT(m - 1), whose length is that of m - 1 (counted in m's byte count k) plus an FF byte
// when the top bit of m - 1 is set. m - 1 differs from m in its top byte only when all lower
// bytes of m are zero: then its top byte is top - 1 (so -128 = -0x80 fits in one byte: 80).
size_t VarintSize(const BigInt& b) {
  const std::string_view mag = b.magnitude();
  const size_t k = mag.size();
  if (k == 0) return 1;
  uint8_t top = static_cast<uint8_t>(mag[0]);
  if (b.negative()) {
    bool rest_zero = true;
    for (size_t i = 1; i < k && rest_zero; ++i) rest_zero = mag[i] == '\0';
    if (rest_zero) top = static_cast<uint8_t>(top - 1);
  }
  return k + (top >= 0x80 ? 1 : 0);
}

uint8_t* WriteVarint(const BigInt& b, uint8_t* p) {
  const std::string_view mag = b.magnitude();
  const size_t k = mag.size();
  const size_t len = VarintSize(b);
  if (k == 0) {
    *p = 0;
    return p + 1;
  }
  uint8_t* const end = p + len;
  uint8_t* q = end;
  if (!b.negative()) {
    std::memcpy(end - k, mag.data(), k);
    if (len > k) *p = 0x00;
    return end;
  }
  // NOT(m - 1), least significant byte first, then an FF sign byte if there is room left.
  int borrow = 1;
  for (size_t i = k; i-- > 0;) {
    int digit = static_cast<uint8_t>(mag[i]) - borrow;
    borrow = digit < 0 ? 1 : 0;
    digit &= 0xFF;
    *--q = static_cast<uint8_t>(~digit);
  }
  while (q > p) *--q = 0xFF;
  return end;
}

// Decodes a two's complement varint of n >= 1 bytes.
BigInt ReadVarint(const uint8_t* p, size_t n) {
  if (p[0] < 0x80) {
    return BigInt::FromMagnitude(false, std::string_view(reinterpret_cast<const char*>(p), n));
  }
  // Negative: magnitude = NOT(bytes) + 1.
  std::string mag(n, '\0');
  unsigned carry = 1;
  for (size_t i = n; i-- > 0;) {
    const unsigned digit = static_cast<uint8_t>(~p[i]) + carry;
    mag[i] = static_cast<char>(digit & 0xFF);
    carry = digit >> 8;
  }
  return BigInt::FromMagnitude(true, mag);
}

absl::Status CheckVersion(int version) {
  if (version < kMinProtocolVersion || version > kMaxProtocolVersion) {
    return absl::InvalidArgumentError(
        absl::StrCat("cql: protocol version ", version, " is not in 1..5"));
  }
  return absl::OkStatus();
}

}  // namespace serdiff::cql::codec_internal
