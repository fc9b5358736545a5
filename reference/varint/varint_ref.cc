// serdiff::ref::varint — reference codecs, transcribed from the specs named in varint_ref.h.
// Deliberately naive: one byte at a time, explicit loops, no word tricks, no shared code
// with src/serdiff/varint beyond the Format enum.
#include "reference/varint/varint_ref.h"

#include <type_traits>

#include "absl/strings/str_cat.h"
#include "absl/strings/str_format.h"
#include "serdiff/common/error_offset.h"

namespace serdiff::ref::varint {
namespace {

// Cassandra vint capacities: a value of total length i + 1 bytes holds kVIntBits[i] bits
// (VIntCoding.java; digest section 2 table).
constexpr int kVIntBits[9] = {7, 14, 21, 28, 35, 42, 49, 56, 64};

std::string ValueName(Format f) {
  switch (f) {
    case Format::kLeb128:
      return "LEB128 varint";
    case Format::kFory:
      return "Fory varuint64";
    case Format::kVInt:
      return "Cassandra vint";
  }
  return "varint";
}

// Every error carries the offset of the failing value's first byte as data
// (serdiff/common/error_offset.h), besides naming it in the message.
absl::Status Truncated(Format f, size_t start, size_t available) {
  return WithErrorOffset(absl::OutOfRangeError(absl::StrCat(ValueName(f), " at byte offset ", start,
                                                            ": truncated, the input ends "
                                                            "after ",
                                                            available, " of its bytes")),
                         static_cast<int64_t>(start));
}

// [LEB] one byte at a time: group i holds bits 7i..7i+6.
absl::StatusOr<uint64_t> ReadLeb128(absl::Span<const uint8_t> in, size_t* offset) {
  const size_t start = *offset;
  uint64_t value = 0;
  size_t pos = start;
  for (int i = 0; i < 10; ++i) {
    if (pos >= in.size()) return Truncated(Format::kLeb128, start, in.size() - start);
    const uint8_t b = in[pos];
    ++pos;
    if (i == 9) {
      // The 10th byte: 63 bits are already filled, only bit 63 is left.
      if (b & 0x80) {
        return WithErrorOffset(
            absl::InvalidArgumentError(absl::StrFormat(
                "LEB128 varint at byte offset %d: longer than 10 bytes (10th byte 0x%02x has the "
                "continuation bit)",
                start, b)),
            static_cast<int64_t>(start));
      }
      if (b > 1) {
        return WithErrorOffset(
            absl::InvalidArgumentError(absl::StrFormat(
                "LEB128 varint at byte offset %d: 10th byte 0x%02x overflows 64 bits", start, b)),
            static_cast<int64_t>(start));
      }
      value |= static_cast<uint64_t>(b) << 63;
      break;
    }
    value |= static_cast<uint64_t>(b & 0x7F) << (7 * i);
    if ((b & 0x80) == 0) break;
  }
  *offset = pos;
  return value;
}

// [PVL] bytes 1..8 like LEB128; the 9th, if reached, is 8 plain bits and ends the value.
absl::StatusOr<uint64_t> ReadFory(absl::Span<const uint8_t> in, size_t* offset) {
  const size_t start = *offset;
  uint64_t value = 0;
  size_t pos = start;
  for (int i = 0; i < 9; ++i) {
    if (pos >= in.size()) return Truncated(Format::kFory, start, in.size() - start);
    const uint8_t b = in[pos];
    ++pos;
    if (i == 8) {
      value |= static_cast<uint64_t>(b) << 56;
      break;
    }
    value |= static_cast<uint64_t>(b & 0x7F) << (7 * i);
    if ((b & 0x80) == 0) break;
  }
  *offset = pos;
  return value;
}

// [VINT] count the leading ones of the first byte, then read that many bytes big-endian.
absl::StatusOr<uint64_t> ReadVInt(absl::Span<const uint8_t> in, size_t* offset) {
  const size_t start = *offset;
  if (start >= in.size()) return Truncated(Format::kVInt, start, in.size() - start);
  const uint8_t first = in[start];
  int extra = 0;
  while (extra < 8 && (first & (0x80 >> extra)) != 0) ++extra;
  // Value bits of the first byte: those after the ones and the separator.
  uint64_t value = extra == 8 ? 0 : (first & (0xFF >> (extra + 1)));
  size_t pos = start + 1;
  for (int i = 0; i < extra; ++i) {
    if (pos >= in.size()) return Truncated(Format::kVInt, start, in.size() - start);
    value = (value << 8) | in[pos];
    ++pos;
  }
  *offset = pos;
  return value;
}

// Encodes one value into `bytes` (room for 10), returns its length.
size_t EncodeOne(Format f, uint64_t v, uint8_t* bytes) {
  size_t n = 0;
  switch (f) {
    case Format::kLeb128:
      // [LEB] emit the low 7 bits with 0x80 while more bits remain.
      while (v >= 0x80) {
        bytes[n++] = static_cast<uint8_t>((v & 0x7F) | 0x80);
        v >>= 7;
      }
      bytes[n++] = static_cast<uint8_t>(v);
      return n;
    case Format::kFory:
      // [PVL] at most 8 LEB128 groups; what is left after them is the 9th byte, 8 bits.
      while (v >= 0x80 && n < 8) {
        bytes[n++] = static_cast<uint8_t>((v & 0x7F) | 0x80);
        v >>= 7;
      }
      bytes[n++] = static_cast<uint8_t>(v);
      return n;
    case Format::kVInt: {
      // [VINT] E extra bytes, E + 1 = EncodedSize; bytes[E - i] = byte i of v (big-endian);
      // then the first byte gets E leading ones (its top bits are free by the size rule).
      const size_t total = ref::varint::EncodedSize(Format::kVInt, v);
      const size_t extra = total - 1;
      for (size_t i = 0; i < total; ++i) {
        bytes[extra - i] = i < 8 ? static_cast<uint8_t>(v >> (8 * i)) : 0;
      }
      for (size_t i = 0; i < extra; ++i) bytes[0] |= static_cast<uint8_t>(0x80 >> i);
      return total;
    }
  }
  return 0;
}

template <typename T>
uint64_t Wire(T v) {
  if constexpr (std::is_same_v<T, int64_t>) {
    return ref::varint::EncodeZigZag64(v);
  } else {
    return v;
  }
}

template <typename T>
size_t BatchSize(Format f, absl::Span<const T> values) {
  size_t total = 0;
  for (const T v : values) total += ref::varint::EncodedSize(f, Wire(v));
  return total;
}

template <typename T>
absl::StatusOr<size_t> EncodeInto(Format f, absl::Span<const T> values, absl::Span<uint8_t> out) {
  size_t pos = 0;
  for (const T v : values) {
    uint8_t bytes[10];
    const size_t n = EncodeOne(f, Wire(v), bytes);
    for (size_t i = 0; i < n; ++i) {
      if (pos >= out.size()) {
        return absl::ResourceExhaustedError(
            absl::StrCat(std::string(ref::varint::FormatName(f)), " batch encode: need ",
                         BatchSize(f, values), " bytes, have ", out.size()));
      }
      out[pos] = bytes[i];
      ++pos;
    }
  }
  return pos;
}

template <typename T>
std::string EncodeToString(Format f, absl::Span<const T> values) {
  std::string s;
  s.reserve(BatchSize(f, values));
  for (const T v : values) {
    uint8_t bytes[10];
    const size_t n = EncodeOne(f, Wire(v), bytes);
    for (size_t i = 0; i < n; ++i) s.push_back(static_cast<char>(bytes[i]));
  }
  return s;
}

template <typename T>
absl::StatusOr<size_t> DecodeInto(Format f, absl::Span<const uint8_t> in, absl::Span<T> out) {
  size_t offset = 0;
  for (T& slot : out) {
    absl::StatusOr<uint64_t> u = ref::varint::Read(f, in, &offset);
    if (!u.ok()) return u.status();
    if constexpr (std::is_same_v<T, int64_t>) {
      slot = ref::varint::DecodeZigZag64(*u);
    } else {
      slot = *u;
    }
  }
  return offset;
}

}  // namespace

std::string_view FormatName(Format f) {
  switch (f) {
    case Format::kLeb128:
      return "leb128";
    case Format::kFory:
      return "fory";
    case Format::kVInt:
      return "vint";
  }
  return "unknown";
}

size_t MaxBytes(Format f) {
  switch (f) {
    case Format::kLeb128:
      return 10;
    case Format::kFory:
      return 9;
    case Format::kVInt:
      return 9;
  }
  return 0;
}

uint64_t EncodeZigZag64(int64_t v) {
  const uint64_t shifted = static_cast<uint64_t>(v) << 1;
  const uint64_t sign = v < 0 ? ~uint64_t{0} : 0;  // n >> 63, arithmetic
  return shifted ^ sign;
}

int64_t DecodeZigZag64(uint64_t u) {
  const uint64_t magnitude = u >> 1;
  const uint64_t sign = (u & 1) ? ~uint64_t{0} : 0;  // -(u & 1)
  return static_cast<int64_t>(magnitude ^ sign);
}

size_t EncodedSize(Format f, uint64_t v) {
  switch (f) {
    case Format::kLeb128: {
      size_t n = 1;
      while (v >= 0x80) {
        v >>= 7;
        ++n;
      }
      return n;
    }
    case Format::kFory: {
      size_t n = 1;
      while (v >= 0x80 && n < 9) {
        v >>= 7;
        ++n;
      }
      return n;
    }
    case Format::kVInt:
      for (size_t i = 0; i < 8; ++i) {
        if (v < (uint64_t{1} << kVIntBits[i])) return i + 1;
      }
      return 9;
  }
  return 0;
}

uint8_t* WriteToArray(Format f, uint64_t v, uint8_t* out) {
  uint8_t bytes[10];
  const size_t n = EncodeOne(f, v, bytes);
  for (size_t i = 0; i < n; ++i) out[i] = bytes[i];
  return out + n;
}

absl::StatusOr<uint64_t> Read(Format f, absl::Span<const uint8_t> in, size_t* offset) {
  if (*offset > in.size()) return Truncated(f, *offset, 0);
  switch (f) {
    case Format::kLeb128:
      return ReadLeb128(in, offset);
    case Format::kFory:
      return ReadFory(in, offset);
    case Format::kVInt:
      return ReadVInt(in, offset);
  }
  return absl::InvalidArgumentError("unknown varint format");
}

size_t EncodedBatchSize(Format f, absl::Span<const uint64_t> values) {
  return BatchSize(f, values);
}
size_t EncodedZigZagBatchSize(Format f, absl::Span<const int64_t> values) {
  return BatchSize(f, values);
}

absl::StatusOr<size_t> EncodeBatch(Format f, absl::Span<const uint64_t> values,
                                   absl::Span<uint8_t> out) {
  return EncodeInto(f, values, out);
}
absl::StatusOr<size_t> EncodeZigZagBatch(Format f, absl::Span<const int64_t> values,
                                         absl::Span<uint8_t> out) {
  return EncodeInto(f, values, out);
}

std::string EncodeBatch(Format f, absl::Span<const uint64_t> values) {
  return EncodeToString(f, values);
}
std::string EncodeZigZagBatch(Format f, absl::Span<const int64_t> values) {
  return EncodeToString(f, values);
}

absl::StatusOr<size_t> DecodeBatch(Format f, absl::Span<const uint8_t> in,
                                   absl::Span<uint64_t> out) {
  return DecodeInto(f, in, out);
}
absl::StatusOr<size_t> DecodeZigZagBatch(Format f, absl::Span<const uint8_t> in,
                                         absl::Span<int64_t> out) {
  return DecodeInto(f, in, out);
}

}  // namespace serdiff::ref::varint
