#include "harness/length_lies.h"

#include <algorithm>
#include <cstring>

namespace serdiff::harness {

std::vector<uint64_t> LengthLies(int width, size_t remaining) {
  const int bits = 8 * width;
  const uint64_t mask = bits >= 64 ? ~uint64_t{0} : (uint64_t{1} << bits) - 1;
  const uint64_t candidates[] = {0,
                                 mask,      // -1
                                 mask - 1,  // -2
                                 static_cast<uint64_t>(remaining) + 1,
                                 mask >> 1,  // largest positive
                                 mask};
  std::vector<uint64_t> out;
  for (uint64_t c : candidates) {
    c &= mask;
    if (std::find(out.begin(), out.end(), c) == out.end()) out.push_back(c);
  }
  return out;
}

size_t TellLengthLie(uint8_t* data, size_t size, size_t max_size, size_t offset, LengthField field,
                     size_t lie, int body) {
  const size_t w = static_cast<size_t>(field.width);
  if (offset + w > size || size > max_size) return size;
  const size_t remaining = size - offset - w;
  const std::vector<uint64_t> lies = LengthLies(field.width, remaining);
  const uint64_t v = lies[lie % lies.size()];
  for (size_t i = 0; i < w; ++i) {
    const size_t shift = 8 * (field.big_endian ? w - 1 - i : i);
    data[offset + i] = static_cast<uint8_t>(v >> shift);
  }
  if (body == 1) return offset + w + remaining / 2;
  if (body == 2) {
    const size_t extra = std::min(remaining, max_size - size);
    std::memmove(data + size, data + offset + w, extra);
    return size + extra;
  }
  return size;
}

}  // namespace serdiff::harness
