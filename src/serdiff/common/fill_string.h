// serdiff internal: writing an output string of known size once, without zero-filling it
// first where the standard library allows it. Not part of the public API.
#pragma once

#include <cstddef>
#include <cstdint>
#include <string>

namespace serdiff::internal {

// Test seam (tests/output_written_once.cc): when set, FillString calls it with the output's bytes
// after they are allocated and before write() runs, so a test with a poisoning operator new can see
// that nothing (a zero fill) wrote them first. Null in every shipped program: one load and one
// predictable branch per output string.
using FillObserver = void (*)(const uint8_t* data, size_t size);
inline FillObserver fill_observer = nullptr;

// Makes *out a string of at most `max_size` bytes filled by write(p), which returns the end it
// reached, or nullptr to give up. With C++23's std::string::resize_and_overwrite (the files that
// include this are compiled as C++2b where the compiler allows, see src/serdiff/cql/CMakeLists.txt
// and src/serdiff/bson/CMakeLists.txt) the bytes are not zero-filled first; otherwise resize()
// zero-fills them. The string is allocated at max_size (its capacity stays that when write ends
// earlier). Returns false, and leaves *out empty, when write gave up (it may have written
// anything into the bytes first).
template <typename F>
bool FillStringAtMost(size_t max_size, F&& write, std::string* out) {
  bool done = false;
#if defined(__cpp_lib_string_resize_and_overwrite)
  // The callback's size argument is not used: libstdc++ 12 passes the capacity it allocated,
  // which can exceed the requested size (its _M_create rounds up through that argument).
  out->resize_and_overwrite(max_size, [&](char* data, size_t) {
    uint8_t* begin = reinterpret_cast<uint8_t*>(data);
    if (fill_observer != nullptr) fill_observer(begin, max_size);
    const uint8_t* end = write(begin);
    done = end != nullptr;
    return done ? static_cast<size_t>(end - begin) : 0;
  });
#else
  out->resize(max_size);
  uint8_t* begin = reinterpret_cast<uint8_t*>(out->data());
  if (fill_observer != nullptr) fill_observer(begin, max_size);
  const uint8_t* end = write(begin);
  done = end != nullptr;
  out->resize(done ? static_cast<size_t>(end - begin) : 0);
#endif
  return done;
}

// Makes *out a string of exactly `size` bytes filled by write(p), which returns the end it
// reached (FillStringAtMost with the end required to be p + size). Returns false, and leaves
// *out empty, when write did not end at p + size (a size pass and a write pass disagree).
template <typename F>
bool FillString(size_t size, F&& write, std::string* out) {
  return FillStringAtMost(
      size,
      [&](uint8_t* begin) -> const uint8_t* {
        const uint8_t* end = write(begin);
        return end == begin + size ? end : nullptr;
      },
      out);
}

}  // namespace serdiff::internal
