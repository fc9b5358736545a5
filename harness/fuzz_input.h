// Corpus-file form of structured inputs.
//
// A fuzz input is read with libFuzzer's FuzzedDataProvider (FDP). FuzzInputWriter is its
// exact inverse for the calls a domain uses, so that any generated value can be written as
// the bytes that FDP reads back as the same value: a RapidCheck counterexample becomes a
// corpus file, replayed exactly like a fuzzer's crash input.
//
// FDP reads integers from the END of the buffer (first integer = last byte, most significant
// byte first) and byte strings from the FRONT. The writer keeps the two streams apart and
// joins them as front + reverse(back). Rules that keep the mirror exact:
//   * make the same calls, in the same order, with the same arguments as the reader;
//   * WriteRemainingBytes (FDP::ConsumeRemainingBytes*) must be the last call.
#pragma once

#include <cstddef>
#include <cstdint>
#include <limits>
#include <string>
#include <string_view>
#include <type_traits>

#include <FuzzedDataProvider.h>

namespace serdiff::harness {

class FuzzInputWriter {
 public:
  // Mirrors FDP::ConsumeIntegralInRange<T>(min, max). Precondition: min <= v <= max.
  template <typename T>
  void WriteIntegralInRange(T v, T min, T max) {
    static_assert(std::is_integral_v<T> && sizeof(T) <= sizeof(uint64_t));
    const uint64_t range = static_cast<uint64_t>(max) - static_cast<uint64_t>(min);
    const uint64_t r = static_cast<uint64_t>(v) - static_cast<uint64_t>(min);
    size_t n = 0;
    for (size_t offset = 0; offset < sizeof(T) * 8 && (range >> offset) > 0; offset += 8) ++n;
    // The reader builds result = (result << 8) | next, so the first byte it reads is the
    // most significant of the n bytes.
    for (size_t i = 0; i < n; ++i) back_.push_back(static_cast<char>(r >> (8 * (n - 1 - i))));
  }
  // Mirrors FDP::ConsumeIntegral<T>().
  template <typename T>
  void WriteIntegral(T v) {
    WriteIntegralInRange<T>(v, std::numeric_limits<T>::min(), std::numeric_limits<T>::max());
  }
  // Mirrors FDP::ConsumeBool().
  void WriteBool(bool b) { WriteIntegral<uint8_t>(b ? 1 : 0); }
  // Mirrors FDP::ConsumeBytesAsString(bytes.size()) / ConsumeBytes<uint8_t>(bytes.size()).
  void WriteBytes(std::string_view bytes) { front_.append(bytes); }
  // Mirrors FDP::ConsumeRandomLengthString(max_length). Precondition: s.size() <= max_length.
  void WriteRandomLengthString(std::string_view s, size_t max_length);
  // Mirrors FDP::ConsumeRemainingBytesAsString(); must be the last call.
  void WriteRemainingBytes(std::string_view bytes) { front_.append(bytes); }

  // The corpus bytes: front + reverse(back).
  std::string Finish() const;

 private:
  std::string front_;
  std::string back_;  // in the order the reader consumes it
};

}  // namespace serdiff::harness
