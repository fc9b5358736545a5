// Varint family: the accepted divergences of the worker "fury" (oracles/fury: Apache Fury's
// JavaScript package, npm @furyjs/fury 0.5.9-beta, dist/lib/writer.js and reader/index.js), which
// joins varint_fory_encode and varint_fory_decode. Declared in targets/varint/divergences.h;
// docs/peers.md ("## varint") lists them. Both are bugs of the package, each kept as a
// regression input (corpus/varint_fory_{encode,decode}/regressions/).
//
// Each predicate recomputes from the input what the package answers (FuryWrites, FuryDecodeModel:
// transcriptions of its writer and reader) and holds only when the worker answered exactly that
// and the input is one where the bug shows. tests/interchange_test.cc ("InterchangePeers")
// shows each on its example and on a nearby answer it does not cover.
#include <algorithm>
#include <cstdint>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "absl/status/status.h"
#include "absl/status/statusor.h"
#include "absl/strings/str_cat.h"
#include "absl/strings/string_view.h"
#include "absl/types/span.h"
#include "harness/target.h"
#include "serdiff/common/error_offset.h"
#include "serdiff/varint/varint.h"
#include "targets/varint/divergences.h"
#include "targets/varint/interchange.h"

namespace serdiff::targets::varint {

using harness::Output;

namespace {

constexpr uint64_t kTwoTo63 = uint64_t{1} << 63;

// zigzag as BinaryWriter.varInt64 computes it: (v << 1n) ^ (v >> 63n), kept to 64 bits.
uint64_t ZigZag(int64_t v) {
  return (static_cast<uint64_t>(v) << 1) ^ static_cast<uint64_t>(v >> 63);
}

// A value and where the next one starts.
using Read = std::pair<uint64_t, size_t>;

// Fory's varuint64 at `at` (serdiff's Fory format, and the package's reader when fewer than 8
// bytes are left): up to 8 bytes of 7 bits, each but the last with 0x80 set, then a 9th byte of
// 8 bits. nullopt: the input ends inside it.
std::optional<Read> ForyRead(absl::string_view b, size_t at) {
  uint64_t value = 0;
  for (size_t k = 0; k < 9; ++k) {
    if (at + k >= b.size()) return std::nullopt;
    const auto byte = static_cast<uint8_t>(b[at + k]);
    if (k == 8) return Read{value | (uint64_t{byte} << 56), at + 9};
    value |= uint64_t{static_cast<uint8_t>(byte & 0x7F)} << (7 * k);
    if ((byte & 0x80) == 0) return Read{value, at + k + 1};
  }
  return std::nullopt;  // not reached
}

// BinaryReader.varUInt64's fast path (8 or more bytes left at `at`), as the package has it:
// `byte = l32 & 0xff00 >> 8` is `l32 & 0xff`, so the 2nd, 3rd and 4th byte are the 1st again
// and the 6th, 7th and 8th the 5th again; a 9th byte is read (as 8 bits) when the 1st and 5th
// have 0x80 set. nullopt: that 9th byte lies past the input (DataView.getUint8 throws).
std::optional<Read> FuryFastRead(absl::string_view b, size_t at) {
  constexpr uint64_t kFourTimes = 1 + (1 << 7) + (1 << 14) + (1 << 21);  // x | x<<7 | x<<14 | x<<21
  const auto b0 = static_cast<uint8_t>(b[at]);
  if ((b0 & 0x80) == 0) return Read{b0, at + 1};
  const uint64_t rl28 = uint64_t{static_cast<uint8_t>(b0 & 0x7F)} * kFourTimes;
  const auto b4 = static_cast<uint8_t>(b[at + 4]);
  if ((b4 & 0x80) == 0) return Read{(uint64_t{b4} << 28) | rl28, at + 5};
  const uint64_t rh28 = uint64_t{static_cast<uint8_t>(b4 & 0x7F)} * kFourTimes;
  if (at + 8 >= b.size()) return std::nullopt;
  return Read{(uint64_t{static_cast<uint8_t>(b[at + 8])} << 56) | (rh28 << 28) | rl28, at + 9};
}

// Both accepted with the same bytes, or both rejected (not declined) at the same offset.
bool SameAnswer(const Output& predicted, const Output& actual) {
  if (predicted.ok() || actual.ok()) {
    return predicted.ok() && actual.ok() && *predicted == *actual;
  }
  if (harness::IsDeclined(actual.status())) return false;
  const std::optional<int64_t> want = ErrorOffset(predicted.status());
  return want.has_value() && want == ErrorOffset(actual.status());
}

template <typename T>
harness::Divergence<std::vector<T>> FuryEncodeDivergence(std::string reason, uint64_t (*wire)(T)) {
  return {"fury", std::move(reason),
          [wire](const std::vector<T>& values, const Output& opt, const Output& other) {
            if (!opt.ok() || !other.ok()) return false;
            std::vector<uint64_t> w(values.size());
            std::transform(values.begin(), values.end(), w.begin(), wire);
            if (std::none_of(w.begin(), w.end(), [](uint64_t x) { return x >= kTwoTo63; })) {
              return false;  // below 2^63 LEB128 and Fory write the same bytes
            }
            return *other == FuryWrites(w);
          }};
}

uint64_t Same(uint64_t v) { return v; }

}  // namespace

std::string FuryWrites(absl::Span<const uint64_t> values) {
  std::string out;
  for (uint64_t v : values) {
    while (v > 127) {
      out.push_back(static_cast<char>((v & 127) | 128));
      v >>= 7;
    }
    out.push_back(static_cast<char>(v));
  }
  return out;
}

absl::StatusOr<std::string> FuryDecodeModel(const DecodeInput& in, size_t max_count,
                                            bool* misread) {
  *misread = false;
  const size_t count = std::min<size_t>(in.count, max_count);
  const absl::string_view b =
      absl::string_view(in.bytes).substr(0, ForyDecodePrefix(in.bytes, count));
  std::vector<uint64_t> values;
  size_t at = 0;
  while (at < b.size()) {
    std::optional<Read> r;
    if (b.size() - at >= 8) {
      r = FuryFastRead(b, at);
      if (r != ForyRead(b, at)) *misread = true;
    } else {
      r = ForyRead(b, at);
    }
    if (!r) return InvalidAt(static_cast<int64_t>(at), "varUInt64 read past the end");
    values.push_back(r->first);
    at = r->second;
  }
  if (values.size() < count) {
    return InvalidAt(static_cast<int64_t>(at),
                     absl::StrCat(values.size(), " values, not ", count, ": the input ended"));
  }
  return DecodedOutput(at, values);
}

namespace {

// An edge of the encode divergences: `values`, serdiff's Fory bytes, and what fury writes.
template <typename T>
harness::DivergenceEdge<std::vector<T>> EncodeEdge(std::string text, std::vector<T> values,
                                                   uint64_t (*wire)(T)) {
  std::vector<uint64_t> w(values.size());
  std::transform(values.begin(), values.end(), w.begin(), wire);
  std::string serdiff_bytes = serdiff::varint::EncodeBatch(serdiff::varint::Format::kFory, w);
  return {std::move(text), std::move(values), std::move(serdiff_bytes), FuryWrites(w)};
}

// An edge of the decode divergence: what fury's reader answers there as the peer's answer.
harness::DivergenceEdge<DecodeInput> DecodeEdge(std::string text, DecodeInput in,
                                                size_t max_count) {
  bool misread = false;
  absl::StatusOr<std::string> fury = FuryDecodeModel(in, max_count, &misread);
  Output other = fury.ok() ? Output(*fury) : Output(fury.status());
  return {std::move(text), std::move(in), other, other};
}

}  // namespace

std::vector<harness::Divergence<std::vector<uint64_t>>> FuryEncodeDivergences() {
  auto d = FuryEncodeDivergence<uint64_t>(
      "bug of Fury JS 0.5.9-beta: BinaryWriter.varUInt64 writes plain LEB128, so a value >= "
      "2^63 takes 10 bytes where Fory's varuint64 takes 9, its 9th carrying 8 bits "
      "(docs/varint.md), and the package's own reader, which reads the 9-byte form, does not read "
      "it back; [9223372036854775808]: serdiff 80 80 80 80 80 80 80 80 80, fury 80 80 80 80 80 "
      "80 80 80 80 01 (covered: the batch holds a value >= 2^63 and fury's bytes are exactly "
      "the LEB128 of every value; regression input corpus/varint_fory_encode/regressions/)",
      Same);
  d.edges = [] {
    return std::vector{EncodeEdge<uint64_t>("[9223372036854775807], 2^63 - 1: 9 bytes both ways",
                                            {kTwoTo63 - 1}, Same)};
  };
  return {d};
}

std::vector<harness::Divergence<std::vector<int64_t>>> FuryZigZagEncodeDivergences() {
  auto d = FuryEncodeDivergence<int64_t>(
      "bug of Fury JS 0.5.9-beta: BinaryWriter.varInt64 writes zigzag(v) as plain LEB128, so a "
      "zigzag value >= 2^63 (v >= 2^62 or v < -2^62) takes 10 bytes where Fory's varint64 takes "
      "9; [-9223372036854775808]: serdiff ff ff ff ff ff ff ff ff ff, fury ff ff ff ff ff ff "
      "ff ff ff 01 (covered: the batch holds such a value and fury's bytes are exactly the "
      "LEB128 of every zigzag value)",
      ZigZag);
  d.edges = [] {
    return std::vector{EncodeEdge<int64_t>("[-4611686018427387904], -2^62: zigzag 2^63 - 1",
                                           {-(int64_t{1} << 62)}, ZigZag),
                       EncodeEdge<int64_t>("[4611686018427387903], 2^62 - 1: zigzag 2^63 - 2",
                                           {(int64_t{1} << 62) - 1}, ZigZag)};
  };
  return {d};
}

std::vector<harness::Divergence<DecodeInput>> FuryDecodeDivergences(size_t max_count) {
  return {
      {"fury",
       "bug of Fury JS 0.5.9-beta: BinaryReader.varUInt64, when 8 or more bytes are left, reads "
       "the 2nd to 4th byte of a 4-byte word as `l32 & 0xff00 >> 8`, which is `l32 & 0xff` (>> "
       "binds tighter than &): a value of 2 or more bytes is misread, and so is where the next "
       "one starts; count 7, 8 bytes: ac 02 00 00 00 00 00 00: serdiff reads 300 and six 0 "
       "(consumed 8), fury 93001260, 0, 0, 0 (consumed 8): too few values, a rejection at "
       "offset 8 (covered: a transcription of the reader misreads some value of the input and "
       "answers exactly what fury answered; regression input "
       "corpus/varint_fory_decode/regressions/)",
       [max_count](const DecodeInput& in, const Output&, const Output& other) {
         bool misread = false;
         const absl::StatusOr<std::string> predicted = FuryDecodeModel(in, max_count, &misread);
         return misread && SameAnswer(predicted, other);
       },
       [max_count] {
         // The fast path needs 8 bytes left: 7 left take the slow one, which reads right; on
         // the fast path, one-byte values read right.
         return std::vector{
             DecodeEdge("count 6, 7 bytes: ac 02 00 00 00 00 00 (7 left: the slow path)",
                        {6, std::string("\xac\x02\x00\x00\x00\x00\x00", 7)}, max_count),
             DecodeEdge(
                 "count 8, 8 bytes: 01 00 00 00 00 00 00 00 (the fast path, one-byte values)",
                 {8, std::string("\x01\x00\x00\x00\x00\x00\x00\x00", 8)}, max_count)};
       }},
  };
}

}  // namespace serdiff::targets::varint
