// The custom mutator's length lies (harness/length_lies.h) over random layouts (issue 22,
// kind 7): whatever the field's width, byte order and place, the lie and the body change,
// the result stays within max_size, no byte at or past max_size is written, the bytes before
// the field are kept, the field holds exactly the lie chosen, and the body is what the
// header says (kept, cut to half, or repeated up to max_size).
#include <gtest/gtest.h>
#include <rapidcheck.h>
#include <rapidcheck/gtest.h>

#include <algorithm>
#include <cstdint>
#include <vector>

#include "harness/length_lies.h"

namespace serdiff::harness {
namespace {

constexpr size_t kGuard = 32;

RC_GTEST_PROP(LengthLiesProps, StaysWithinMaxSizeAndWritesExactlyTheLie, ()) {
  const int width = *rc::gen::element(1, 2, 4);
  const bool big_endian = *rc::gen::arbitrary<bool>();
  const size_t size = *rc::gen::inRange<size_t>(static_cast<size_t>(width), 80);
  const size_t max_size = size + *rc::gen::inRange<size_t>(0, 80);
  const size_t offset = *rc::gen::inRange<size_t>(0, size - static_cast<size_t>(width) + 1);
  const size_t lie = *rc::gen::arbitrary<size_t>();
  const int body = *rc::gen::inRange(0, 3);
  std::vector<uint8_t> buf =
      *rc::gen::container<std::vector<uint8_t>>(max_size + kGuard, rc::gen::arbitrary<uint8_t>());
  const std::vector<uint8_t> before = buf;

  const size_t n =
      TellLengthLie(buf.data(), size, max_size, offset, LengthField{width, big_endian}, lie, body);

  const size_t w = static_cast<size_t>(width);
  const size_t remaining = size - offset - w;
  RC_ASSERT(n <= max_size);
  RC_ASSERT(n >= offset + w);
  // Nothing at or past max_size is touched.
  RC_ASSERT(std::equal(buf.begin() + static_cast<std::ptrdiff_t>(max_size), buf.end(),
                       before.begin() + static_cast<std::ptrdiff_t>(max_size)));
  // The bytes before the field are kept.
  RC_ASSERT(
      std::equal(buf.begin(), buf.begin() + static_cast<std::ptrdiff_t>(offset), before.begin()));
  // The field holds the lie, in its width and byte order.
  const std::vector<uint64_t> lies = LengthLies(width, remaining);
  const uint64_t want = lies[lie % lies.size()];
  uint64_t got = 0;
  for (size_t i = 0; i < w; ++i) {
    const size_t shift = 8 * (big_endian ? w - 1 - i : i);
    got |= static_cast<uint64_t>(buf[offset + i]) << shift;
  }
  RC_ASSERT(got == want);
  // The body.
  const size_t body_at = offset + w;
  if (body == 1) {
    RC_ASSERT(n == body_at + remaining / 2);
  } else if (body == 2) {
    const size_t extra = std::min(remaining, max_size - size);
    RC_ASSERT(n == size + extra);
    for (size_t i = 0; i < extra; ++i) RC_ASSERT(buf[size + i] == before[body_at + i]);
  } else {
    RC_ASSERT(n == size);
  }
  // The body's own bytes are never rewritten (cutting only shortens the size).
  RC_ASSERT(std::equal(buf.begin() + static_cast<std::ptrdiff_t>(body_at),
                       buf.begin() + static_cast<std::ptrdiff_t>(size),
                       before.begin() + static_cast<std::ptrdiff_t>(body_at)));
}

// A layout whose field does not fit, or whose size exceeds max_size, is left alone.
RC_GTEST_PROP(LengthLiesProps, ALayoutThatDoesNotFitChangesNothing, ()) {
  const int width = *rc::gen::element(2, 4);
  const size_t size = *rc::gen::inRange<size_t>(0, 40);
  const size_t offset = size + 1 - *rc::gen::inRange<size_t>(0, static_cast<size_t>(width));
  std::vector<uint8_t> buf =
      *rc::gen::container<std::vector<uint8_t>>(size + kGuard, rc::gen::arbitrary<uint8_t>());
  const std::vector<uint8_t> before = buf;
  const size_t n = TellLengthLie(buf.data(), size, size + kGuard, offset, LengthField{width, true},
                                 *rc::gen::arbitrary<size_t>(), 2);
  RC_ASSERT(n == size);
  RC_ASSERT(buf == before);
}

}  // namespace
}  // namespace serdiff::harness
