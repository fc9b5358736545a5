// Two-way domains: a value's corpus form written once, as a visitor that runs both ways.
//
// A fuzz or corpus input is read with libFuzzer's FuzzedDataProvider (FDP), and a generated
// value (a seed, a shrunk RapidCheck counterexample) must be written as the bytes FDP reads
// back as the same value (harness/fuzz_input.h). Written as two functions, a reader and a
// writer must mirror each other call for call, and drift apart silently. Written as one
// visitor over a value, templated on the direction, they cannot:
//
//   template <typename IO>
//   void VisitPoint(IO& io, Point& p) {
//     io.Int(p.x, -100, 100);  // FuzzReader: p.x = ConsumeIntegralInRange(-100, 100)
//     io.Int(p.y);             // FuzzWriter: writes p.y as ConsumeIntegral reads it
//   }
//   Domain<Point> d = TwoWayDomain<Point>("point", gen, [](auto& io, Point& p) {
//     VisitPoint(io, p); }, show);
//
// FuzzReader fills the value from the bytes; FuzzWriter writes the bytes and leaves the value
// as it is. A choice that depends on the value (a "compact or wide" flag, a length) is
// computed from the value when writing and read when reading: IO::kReading tells which.
// The DomainDecodeInvertsEncode property of every target checks decode(encode(v)) == v.
#pragma once

#include <cstddef>
#include <cstdint>
#include <functional>
#include <string>
#include <string_view>
#include <utility>

#include <FuzzedDataProvider.h>

#include "absl/status/statusor.h"
#include "harness/definition.h"
#include "harness/fuzz_input.h"

namespace serdiff::harness {

// The reading direction: fuzz/corpus bytes -> value. Never fails: FDP returns zeros and
// empty strings once the bytes run out.
struct FuzzReader {
  static constexpr bool kReading = true;
  FuzzedDataProvider& p;

  // An integer in [lo, hi] (FDP ConsumeIntegralInRange).
  template <typename T>
  void Int(T& v, T lo, T hi) {
    v = p.ConsumeIntegralInRange<T>(lo, hi);
  }
  // Any integer of type T (FDP ConsumeIntegral).
  template <typename T>
  void Int(T& v) {
    v = p.ConsumeIntegral<T>();
  }
  void Bool(bool& b) { b = p.ConsumeBool(); }
  // A string of at most `max` bytes (FDP ConsumeRandomLengthString).
  void Str(std::string& s, size_t max) { s = p.ConsumeRandomLengthString(max); }
  // Exactly `n` bytes, fewer when the input runs out (FDP ConsumeBytesAsString).
  void Fixed(std::string& s, size_t n) { s = p.ConsumeBytesAsString(n); }
  // Every byte left; must be the last call (FDP ConsumeRemainingBytesAsString).
  void Rest(std::string& s) { s = p.ConsumeRemainingBytesAsString(); }
  // Skips `n` bytes (fewer when the input runs out): filler that makes an input as long as
  // the work it asks for (a size budget bounded by the input's length; the mutation spec).
  void Pad(size_t n) { p.ConsumeBytes<uint8_t>(n); }
  // Bytes not read yet.
  size_t remaining_bytes() const { return p.remaining_bytes(); }
  // Padding the writer added (FuzzWriter::PadUnread) so that an input is long enough for the
  // work its value costs; the reader leaves those bytes unread and may bound the value's sizes
  // by remaining_bytes() (the CQL large and typed specs: docs/fuzzing.md, "Limits").
  void PadUnread(size_t /*n*/) {}
};

// The writing direction: value -> the bytes FuzzReader reads back as that value.
// Preconditions: every value within the range passed; Fixed's string exactly `n` bytes; Str's
// at most `max` bytes.
struct FuzzWriter {
  static constexpr bool kReading = false;
  FuzzInputWriter& w;

  template <typename T>
  void Int(T& v, T lo, T hi) {
    w.WriteIntegralInRange<T>(v, lo, hi);
  }
  template <typename T>
  void Int(T& v) {
    w.WriteIntegral<T>(v);
  }
  void Bool(bool& b) { w.WriteBool(b); }
  void Str(std::string& s, size_t max) { w.WriteRandomLengthString(s, max); }
  void Fixed(std::string& s, size_t /*n*/) { w.WriteBytes(s); }
  void Rest(std::string& s) { w.WriteRemainingBytes(s); }
  // Writes `n` zero bytes, which FuzzReader::Pad skips.
  void Pad(size_t n) { w.WriteBytes(std::string(n, '\0')); }
  // `n` zero bytes at the front, which FuzzReader leaves unread (it reads integers from the
  // back); they count in its remaining_bytes(). Call it last: after every Fixed and Str, and
  // never in a visitor that calls Rest.
  void PadUnread(size_t n) { w.WriteBytes(std::string(n, '\0')); }
};

// A domain whose decode and encode both run `visit`, a callable taking (IO&, T&) for IO =
// FuzzReader and FuzzWriter (a generic lambda, or a function template wrapped in one).
// Decoding starts from a value-initialized T; encoding visits a copy of the value. `parse`
// (optional) reads what `show` prints back (Domain::parse, harness/text_parse.h).
template <typename T, typename Visit>
Domain<T> TwoWayDomain(std::string type_name, rc::Gen<T> gen, Visit visit,
                       std::function<std::string(const T&)> show,
                       std::function<absl::StatusOr<T>(std::string_view)> parse = nullptr) {
  Domain<T> d;
  d.type_name = std::move(type_name);
  d.gen = std::move(gen);
  d.decode = [visit](FuzzedDataProvider& p) {
    T v{};
    FuzzReader io{p};
    visit(io, v);
    return v;
  };
  d.encode = [visit](const T& v, FuzzInputWriter& w) {
    T copy = v;
    FuzzWriter io{w};
    visit(io, copy);
  };
  d.show = std::move(show);
  d.parse = std::move(parse);
  return d;
}

}  // namespace serdiff::harness
