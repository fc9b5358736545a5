// Varint family targets: optimized serdiff::varint vs the byte-at-a-time reference
// serdiff::ref::varint, and protobuf's varint code as a real oracle for LEB128.
//
//   varint_zigzag64              ZigZag64 of one int64 (output: zz as 8 bytes LE)
//   varint_<fmt>_encode          batch of uint64 -> bytes          (fmt: leb128, fory, vint)
//   varint_<fmt>_zigzag_encode   batch of int64, zigzag -> bytes
//   varint_<fmt>_decode          (count, bytes) -> consumed + values, or an error
//
// Every encode target runs five implementations of the same bytes: the optimized string API
// (whose peak heap must stay within output + 4 KiB), the optimized caller-buffer API with
// guard bytes after an exactly sized span once per CPU tier loop (buffer_portable, buffer_bmi2),
// the optimized single-value tier in a loop, and the reference (plus protobuf for LEB128). Checks:
// the size predictor equals the output size, and the output decodes back to the input.
//
// The Fory targets (varint_fory_encode, varint_fory_zigzag_encode, varint_fory_decode) take
// outside implementations too, through the interchange of targets/varint/interchange.h
// (docs/workers.md); the accepted divergences of the worker "fury" are in
// targets/varint/divergences_fury.cc (docs/peers.md).

#include <algorithm>
#include <cstring>
#include <functional>
#include <limits>
#include <optional>
#include <random>
#include <string>
#include <string_view>
#include <type_traits>
#include <utility>
#include <vector>

#include "absl/strings/str_cat.h"
#include "absl/strings/str_format.h"
#include "harness/domains.h"
#include "harness/edges.h"
#include "harness/hex.h"
#include "harness/text_parse.h"
#include "harness/two_way.h"
#include "harness/uniform.h"
#include "oracles/protobuf/protobuf.h"
#include "reference/varint/varint_ref.h"
#include "serdiff/common/error_offset.h"
#include "serdiff/varint/varint.h"
#include "targets/families.h"
#include "targets/varint/divergences.h"
#include "targets/varint/domain.h"
#include "targets/varint/interchange.h"

namespace serdiff::targets::varint {
namespace {

namespace sv = ::serdiff::varint;

using harness::Output;
using sv::Format;

constexpr size_t kMaxBatch = 10000;

std::string Name(Format f) { return std::string(sv::FormatName(f)); }
constexpr uint8_t kGuard = 0xA5;
constexpr size_t kGuardBytes = 16;

// ---- edge values ----------------------------------------------------------------------

// The shared tables (harness/edges.h) hold every 7-bit group boundary (where LEB128, Fory and
// Cassandra vint lengths change), their zigzag images, ±2^62 (Fory's 9-byte form), 2^63
// (LEB128's 10th byte) and the extremes.
using harness::EdgeBiased;
using harness::EdgeInt64;
using harness::EdgeUint64;

// ---- canonical outputs ---------------------------------------------------------------

std::string ShowDecoded(const std::string& out) {
  if (out.size() < 8 || out.size() % 8 != 0) return "(malformed)";
  std::vector<uint64_t> vals;
  for (size_t i = 8; i < out.size(); i += 8) vals.push_back(harness::ReadLe64(out.data() + i));
  return absl::StrCat("consumed ", harness::ReadLe64(out.data()), " bytes, values ",
                      harness::ShowVector(vals));
}

// Runs a caller-buffer encoder on an exactly sized span followed by guard bytes; reports
// any write past the span.
template <typename Fn>
Output WithGuardBytes(size_t size, Fn encode) {
  std::vector<uint8_t> buf(size + kGuardBytes, kGuard);
  absl::StatusOr<size_t> n = encode(absl::Span<uint8_t>(buf.data(), size));
  for (size_t i = size; i < buf.size(); ++i) {
    if (buf[i] != kGuard) {
      return absl::InternalError(absl::StrFormat(
          "wrote past the end of a %d-byte buffer (guard byte %d changed)", size, i - size));
    }
  }
  if (!n.ok()) return n.status();
  return std::string(reinterpret_cast<const char*>(buf.data()), *n);
}

// ---- encode targets --------------------------------------------------------------------

// Unsigned values as is, signed values through zigzag.
template <typename T>
struct Signedness;
template <>
struct Signedness<uint64_t> {
  static constexpr const char* kSuffix = "_encode";
  static constexpr const char* kType = "vector<uint64>";
  static uint64_t ToWire(uint64_t v) { return v; }
  static uint64_t RefToWire(uint64_t v) { return v; }
  static std::string Encode(Format f, absl::Span<const uint64_t> v) {
    return sv::EncodeBatch(f, v);
  }
  static absl::StatusOr<size_t> EncodeInto(Format f, absl::Span<const uint64_t> v,
                                           absl::Span<uint8_t> out, sv::BatchTier tier) {
    return sv::EncodeBatch(f, v, out, tier);
  }
  static size_t Size(Format f, absl::Span<const uint64_t> v) { return sv::EncodedBatchSize(f, v); }
  static std::string RefEncode(Format f, absl::Span<const uint64_t> v) {
    return ref::varint::EncodeBatch(f, v);
  }
  static absl::StatusOr<size_t> Decode(Format f, absl::Span<const uint8_t> in,
                                       absl::Span<uint64_t> out) {
    return sv::DecodeBatch(f, in, out);
  }
};
template <>
struct Signedness<int64_t> {
  static constexpr const char* kSuffix = "_zigzag_encode";
  static constexpr const char* kType = "vector<int64>";
  static uint64_t ToWire(int64_t v) { return sv::EncodeZigZag64(v); }
  static uint64_t RefToWire(int64_t v) { return ref::varint::EncodeZigZag64(v); }
  static std::string Encode(Format f, absl::Span<const int64_t> v) {
    return sv::EncodeZigZagBatch(f, v);
  }
  static absl::StatusOr<size_t> EncodeInto(Format f, absl::Span<const int64_t> v,
                                           absl::Span<uint8_t> out, sv::BatchTier tier) {
    return sv::EncodeZigZagBatch(f, v, out, tier);
  }
  static size_t Size(Format f, absl::Span<const int64_t> v) {
    return sv::EncodedZigZagBatchSize(f, v);
  }
  static std::string RefEncode(Format f, absl::Span<const int64_t> v) {
    return ref::varint::EncodeZigZagBatch(f, v);
  }
  static absl::StatusOr<size_t> Decode(Format f, absl::Span<const uint8_t> in,
                                       absl::Span<int64_t> out) {
    return sv::DecodeZigZagBatch(f, in, out);
  }
};

// ---- CPU tiers ----------------------------------------------------------------------------

// The batch tiers (varint.h, BatchTier) whose loops differ, each run forced as an implementation
// of its own so that every input is encoded or decoded by each loop this machine has and compared
// with the others (the "optimized" side runs kAuto, whichever that is); a tier the CPU lacks
// declines. Tiers that run the same loop as another are left out (each costs fuzz throughput):
//   encoders: portable (= sse2) and bmi2 (= avx512);
//   decoders: portable, sse2 (its SSE2 stop mask), bmi2, and avx512 for LEB128 only (its vector
//   windows); Cassandra vint has no windows, so its sse2 is the portable loop.
// The caller-buffer API is run once per encoder tier loop (buffer_portable, buffer_bmi2), not also
// unforced: kAuto runs one of those loops, and the string API ("optimized") runs kAuto.
std::vector<sv::BatchTier> EncodeTiers() {
  return {sv::BatchTier::kPortable, sv::BatchTier::kBmi2};
}
std::vector<sv::BatchTier> DecodeTiers(Format f) {
  std::vector<sv::BatchTier> tiers = {sv::BatchTier::kPortable, sv::BatchTier::kBmi2};
  if (f != Format::kVInt) tiers.insert(tiers.begin() + 1, sv::BatchTier::kSse2);
  if (f == Format::kLeb128) {
    tiers.push_back(sv::BatchTier::kAvx512);
    tiers.push_back(sv::BatchTier::kAvx512Emulated);
  }
  return tiers;
}

// Whether the targets run `tier` here: the CPU has it, and for the avx512 kernel's SIMDe
// emulation (avx512_emulated, LEB128 decode only) also that the CPU lacks the native avx512 tier:
// where it has it, that tier runs the same kernel source at full speed, and the emulation (tens of
// times slower) would only cost fuzz throughput.
bool TierRuns(sv::BatchTier tier) {
  if (tier == sv::BatchTier::kAvx512Emulated && sv::BatchTierSupported(sv::BatchTier::kAvx512)) {
    return false;
  }
  return sv::BatchTierSupported(tier);
}

// The avx512 kernel's emulation decodes inputs of at most this many bytes (two of its 64-byte
// windows: it stops 80 bytes before the end): it is about 16 times slower than the portable tier,
// and uncapped it halved varint_leb128_decode's fuzz throughput on a CPU without AVX-512 (256
// bytes, three windows, still cost 13 %; docs/fuzzing.md, "The avx512 kernels' emulation"). A
// window after another, values carried across a window's end and the invalid-window fallback all
// occur within two windows.
constexpr size_t kEmulatedMaxBytes = 160;

const absl::Status& EmulatedTooLong() {
  static const absl::Status* const kTooLong = new absl::Status(harness::Declined(
      absl::StrCat("the avx512 emulation takes inputs of at most ", kEmulatedMaxBytes, " bytes")));
  return *kTooLong;
}

const absl::Status& TierUnsupported(sv::BatchTier tier = sv::BatchTier::kAuto) {
  // Built once: copying an absl::Status shares its payload (no allocation per input).
  static const absl::Status* const kUnsupported =
      new absl::Status(harness::Declined("this CPU cannot run the tier"));
  static const absl::Status* const kNative = new absl::Status(
      harness::Declined("this CPU runs the native avx512 tier (or the build lacks SIMDe)"));
  return tier == sv::BatchTier::kAvx512Emulated ? *kNative : *kUnsupported;
}

// A tier covers every input, so its only decline edge is the CPU: `sample` is declined exactly
// when the tier is not supported.
template <typename T>
std::function<std::vector<harness::DeclineEdge<T>>()> TierDeclineEdges(sv::BatchTier tier,
                                                                       T sample) {
  return [tier, sample] {
    return std::vector<harness::DeclineEdge<T>>{
        {absl::StrCat("any input (the ", std::string(sv::BatchTierName(tier)),
                      " tier covers them all; declined only where the CPU lacks it)"),
         sample, !TierRuns(tier)}};
  };
}

absl::Span<const uint8_t> AsBytes(const std::string& s) {
  return absl::Span<const uint8_t>(reinterpret_cast<const uint8_t*>(s.data()), s.size());
}

template <typename T>
harness::TargetDef<std::vector<T>> EncodeTarget(Format f, std::vector<T> edges) {
  using S = Signedness<T>;
  using Batch = std::vector<T>;
  harness::TargetDef<Batch> def;
  def.name = absl::StrCat("varint_", Name(f), S::kSuffix);
  def.description =
      absl::StrCat("batch ", std::is_signed_v<T> ? "zigzag " : "", Name(f),
                   " encode: optimized (string, caller buffer per CPU tier, single-value "
                   "tier) vs reference",
                   f == Format::kLeb128 ? " vs protobuf CodedOutputStream" : "");
  def.domain = harness::VectorDomain<T>(S::kType, EdgeBiased<T>(std::move(edges)), kMaxBatch);
  // `serdiff review`'s size ladder: `count` values drawn uniformly over every bit pattern (all
  // encoded lengths alike), from a fixed seed.
  def.ladder = {[](uint32_t count, int) {
                  std::mt19937_64 rng(42);
                  Batch v(count);
                  for (T& x : v) x = static_cast<T>(rng());
                  return v;
                },
                static_cast<uint32_t>(kMaxBatch), false};
  // The encoders return the library's std::string (not an Output): `serdiff review` times them
  // without the conversion (harness::Impl::timed_run).
  def.optimized = {"optimized", [f](const Batch& v) { return S::Encode(f, v); }};
  def.others.push_back({"single", harness::Role::kOptimizedTier, [f](const Batch& v) {
                          std::string out(v.size() * sv::MaxBytes(f), '\0');
                          uint8_t* const begin = reinterpret_cast<uint8_t*>(out.data());
                          uint8_t* p = begin;
                          for (T x : v) p = sv::WriteToArray(f, S::ToWire(x), p);
                          out.resize(static_cast<size_t>(p - begin));
                          return out;
                        }});
  for (const sv::BatchTier tier : EncodeTiers()) {
    def.others.push_back({absl::StrCat("buffer_", std::string(sv::BatchTierName(tier))),
                          harness::Role::kOptimizedTier, [f, tier](const Batch& v) -> Output {
                            if (!sv::BatchTierSupported(tier)) return TierUnsupported();
                            return WithGuardBytes(S::Size(f, v), [&](absl::Span<uint8_t> out) {
                              return S::EncodeInto(f, v, out, tier);
                            });
                          }});
    def.others.back().decline_edges = TierDeclineEdges(tier, Batch{T{1}, T{2}});
  }
  def.others.push_back({"reference", [f](const Batch& v) { return S::RefEncode(f, v); }});
  if (f == Format::kLeb128) {
    def.others.push_back(
        {"protobuf", harness::Role::kOracle, oracle::protobuf::kOrigin, [](const Batch& v) {
           return oracle::protobuf::EncodeVarint64Batch(absl::MakeConstSpan(v));
         }});
  }
  def.checks.push_back({"size-prediction", [f](const Batch& v, const std::string& out) {
                          const size_t predicted = S::Size(f, v);
                          if (predicted == out.size()) return absl::OkStatus();
                          return absl::InternalError(absl::StrFormat("predicted %d bytes, wrote %d",
                                                                     predicted, out.size()));
                        }});
  def.checks.push_back({"round-trip", [f](const Batch& v, const std::string& out) {
                          Batch back(v.size());
                          absl::StatusOr<size_t> n =
                              S::Decode(f, AsBytes(out), absl::MakeSpan(back));
                          if (!n.ok()) return n.status();
                          if (*n != out.size()) {
                            return absl::InternalError(absl::StrFormat(
                                "decoding consumed %d of %d bytes", *n, out.size()));
                          }
                          for (size_t i = 0; i < v.size(); ++i) {
                            if (back[i] != v[i]) {
                              return absl::InternalError(absl::StrCat("value ", i, " decoded as ",
                                                                      back[i], ", encoded ", v[i]));
                            }
                          }
                          return absl::OkStatus();
                        }});
  def.heap_bound = harness::HeapBound<Batch>::Linear(1, 4096);
  def.offsets = harness::OffsetPolicy::kNotApplicable;
  def.offsets_reason = "the input is a batch of integers, not bytes";
  if (f == Format::kFory) {
    // The values in decimal, zigzag for the int64 batches; the answer is the bytes.
    def.interchange.op = "varint.fory_encode";
    def.interchange.input_json = [](const Batch& v) -> absl::StatusOr<std::string> {
      return ForyEncodeInputJson(absl::MakeConstSpan(v));
    };
    // The worker "fury" writes plain LEB128 (docs/peers.md).
    if constexpr (std::is_signed_v<T>) {
      def.divergences = FuryZigZagEncodeDivergences();
    } else {
      def.divergences = FuryEncodeDivergences();
    }
  }
  return def;
}

// ---- decode targets --------------------------------------------------------------------

// Valid encodings of generated values, then maybe damaged: truncated, a byte replaced,
// junk appended, or a count larger than what is there; or arbitrary bytes.
rc::Gen<DecodeInput> DecodeInputGen(Format f) {
  auto values = rc::gen::mapcat(harness::BatchLength(256), [](size_t n) {
    return rc::gen::container<std::vector<uint64_t>>(n, EdgeBiased<uint64_t>(EdgeUint64()));
  });
  auto valid = rc::gen::map(values, [f](const std::vector<uint64_t>& v) {
    return DecodeInput{static_cast<uint32_t>(v.size()), ref::varint::EncodeBatch(f, v)};
  });
  auto damaged = rc::gen::map(
      rc::gen::tuple(valid, harness::UniformIn(0, 5), rc::gen::arbitrary<uint32_t>(),
                     rc::gen::arbitrary<uint8_t>()),
      [](const std::tuple<DecodeInput, int, uint32_t, uint8_t>& t) {
        DecodeInput in = std::get<0>(t);
        const uint32_t where = std::get<2>(t);
        const char byte = static_cast<char>(std::get<3>(t));
        switch (std::get<1>(t)) {
          case 0:  // truncate
            in.bytes.resize(in.bytes.empty() ? 0 : where % in.bytes.size());
            break;
          case 1:  // replace a byte
            if (!in.bytes.empty()) in.bytes[where % in.bytes.size()] = byte;
            break;
          case 2:  // an overlong run of continuation bytes
            in.bytes.insert(in.bytes.begin() + (in.bytes.empty() ? 0 : where % in.bytes.size()), 11,
                            static_cast<char>(0x80 | byte));
            break;
          case 3:  // ask for one value more than encoded
            ++in.count;
            break;
          default:  // junk after the values
            in.bytes.append(1 + where % 16, byte);
        }
        return in;
      });
  auto arbitrary = rc::gen::map(
      rc::gen::pair(rc::gen::inRange<uint32_t>(0, 40), rc::gen::arbitrary<std::string>()),
      [](const std::pair<uint32_t, std::string>& p) {
        return DecodeInput{p.first, p.second};
      });
  return rc::gen::weightedOneOf<DecodeInput>({{3, valid}, {4, damaged}, {2, arbitrary}});
}

// Reads the printed form back: "count 2, 3 bytes: 96 01 00". A dump cut short after 256 bytes
// ("... (300 bytes)") cannot be read back (harness::ElidedAt).
absl::StatusOr<DecodeInput> ParseDecodeInput(std::string_view text) {
  return harness::ParseAll<DecodeInput>(
      text, [](harness::TextCursor& c, DecodeInput& in) -> absl::Status {
        size_t n = 0;
        absl::Status s = c.Expect("count ");
        if (s.ok()) s = c.Int(in.count);
        if (s.ok()) s = c.Expect(", ");
        if (s.ok()) s = c.Int(n);
        if (s.ok()) s = c.Expect(" bytes: ");
        if (s.ok()) s = harness::ParseHexBytes(c, n, in.bytes);
        return s;
      });
}

harness::Domain<DecodeInput> DecodeDomain(Format f) {
  return harness::TwoWayDomain<DecodeInput>(
      "(count, bytes)", DecodeInputGen(f),
      [](auto& io, DecodeInput& in) {
        io.Int(in.count, uint32_t{0}, static_cast<uint32_t>(kMaxBatch));
        io.Rest(in.bytes);
      },
      [](const DecodeInput& in) {
        return absl::StrCat("count ", in.count, ", ", in.bytes.size(),
                            " bytes: ", harness::Hex(in.bytes));
      },
      ParseDecodeInput);
}

// The decoders get an exact-size heap copy of the input, so a read past the end is caught
// by ASan, and never more values than the domain's maximum.
template <typename Fn>
Output DecodeWith(const DecodeInput& in, Fn decode) {
  std::unique_ptr<uint8_t[]> copy(new uint8_t[in.bytes.size()]);
  if (!in.bytes.empty()) std::memcpy(copy.get(), in.bytes.data(), in.bytes.size());
  std::vector<uint64_t> values(std::min<uint32_t>(in.count, kMaxBatch));
  absl::StatusOr<size_t> n =
      decode(absl::Span<const uint8_t>(copy.get(), in.bytes.size()), absl::MakeSpan(values));
  if (!n.ok()) return n.status();
  return DecodedOutput(*n, values);
}

harness::TargetDef<DecodeInput> DecodeTarget(Format f) {
  harness::TargetDef<DecodeInput> def;
  def.name = absl::StrCat("varint_", Name(f), "_decode");
  def.description = absl::StrCat(
      "batch ", Name(f),
      " decode of count values from arbitrary bytes: optimized batch vs each CPU tier vs "
      "single-value tier vs reference",
      f == Format::kLeb128 ? " vs protobuf CodedInputStream" : "",
      "; output: consumed bytes and values (8 bytes LE each)");
  def.domain = DecodeDomain(f);
  def.optimized = {"optimized", [f](const DecodeInput& in) {
                     return DecodeWith(
                         in, [f](auto bytes, auto out) { return sv::DecodeBatch(f, bytes, out); });
                   }};
  def.others.push_back({"portable", harness::Role::kOptimizedTier, [f](const DecodeInput& in) {
                          return DecodeWith(in, [f](auto bytes, auto out) {
                            return sv::DecodeBatchPortable(f, bytes, out);
                          });
                        }});
  // The x86 tiers ("portable" above is BatchTier::kPortable).
  for (const sv::BatchTier tier : DecodeTiers(f)) {
    if (tier == sv::BatchTier::kPortable) continue;
    def.others.push_back({std::string(sv::BatchTierName(tier)), harness::Role::kOptimizedTier,
                          [f, tier](const DecodeInput& in) -> Output {
                            if (!TierRuns(tier)) return TierUnsupported(tier);
                            if (tier == sv::BatchTier::kAvx512Emulated &&
                                in.bytes.size() > kEmulatedMaxBytes) {
                              return EmulatedTooLong();
                            }
                            return DecodeWith(in, [f, tier](auto bytes, auto out) {
                              return sv::DecodeBatch(f, bytes, out, tier);
                            });
                          }});
    if (tier != sv::BatchTier::kAvx512Emulated) {
      def.others.back().decline_edges =
          TierDeclineEdges(tier, DecodeInput{1, std::string(1, '\x01')});
      continue;
    }
    // The emulation's edges: the CPU rule, then its byte cap: 64 one-byte values read from an
    // input of exactly the cap, answered (one window of the kernel); one byte more, declined
    // (where the tier runs at all).
    def.others.back().decline_edges = [] {
      const bool runs = TierRuns(sv::BatchTier::kAvx512Emulated);
      return std::vector<harness::DeclineEdge<DecodeInput>>{
          {"any input (declined where the CPU runs the native avx512 tier, or the build lacks "
           "SIMDe)",
           DecodeInput{1, std::string(1, '\x01')}, !runs},
          {absl::StrCat(kEmulatedMaxBytes, " bytes, the most the emulation takes"),
           DecodeInput{64, std::string(kEmulatedMaxBytes, '\x01')}, !runs},
          {absl::StrCat(kEmulatedMaxBytes + 1, " bytes, one past the cap"),
           DecodeInput{64, std::string(kEmulatedMaxBytes + 1, '\x01')}, true}};
    };
  }
  def.others.push_back({"single", harness::Role::kOptimizedTier, [f](const DecodeInput& in) {
                          return DecodeWith(
                              in, [f](auto bytes, auto out) -> absl::StatusOr<size_t> {
                                size_t offset = 0;
                                for (uint64_t& v : out) {
                                  absl::StatusOr<uint64_t> r = sv::Read(f, bytes, &offset);
                                  if (!r.ok()) return r.status();
                                  v = *r;
                                }
                                return offset;
                              });
                        }});
  def.others.push_back({"reference", [f](const DecodeInput& in) {
                          return DecodeWith(in, [f](auto bytes, auto out) {
                            return ref::varint::DecodeBatch(f, bytes, out);
                          });
                        }});
  if (f == Format::kLeb128) {
    def.others.push_back(
        {"protobuf", harness::Role::kOracle, oracle::protobuf::kOrigin, [](const DecodeInput& in) {
           return DecodeWith(in, oracle::protobuf::DecodeVarint64Batch);
         }});
    def.divergences = ProtobufDecodeDivergences();
  }
  // Every decoder (optimized tiers and reference) reports the failing value's first byte
  // as its error offset; protobuf reports none.
  def.offsets = harness::OffsetPolicy::kRequired;
  if (f == Format::kLeb128) {
    def.offset_exemptions.push_back(ProtobufDecodeOffsetExemption());
  }
  // The harness's own copies (the input, the value slots, the output) plus 4 KiB for the
  // decoder, whether it accepts or rejects: decoding allocates nothing else.
  def.heap_bound = harness::HeapBound<DecodeInput>::Custom(
      "input + 16 x count + 4 KiB (accepted or rejected)",
      [](const DecodeInput& in, const Output&) {
        const int64_t slots = std::min<int64_t>(in.count, kMaxBatch);
        return static_cast<int64_t>(in.bytes.size()) + 16 * slots + 8 + 4096;
      });
  def.show_output = ShowDecoded;
  if (f == Format::kFory) {
    // The bytes the decode of `count` values reads; the answer's values and consumed count
    // become this target's output (targets/varint/domain.h).
    def.interchange.op = "varint.fory_decode";
    def.interchange.input_json = [](const DecodeInput& in) -> absl::StatusOr<std::string> {
      return ForyDecodeInputJson(in.bytes, std::min<size_t>(in.count, kMaxBatch));
    };
    def.interchange.output = [](const DecodeInput& in,
                                const harness::ExternalAnswer& a) -> absl::StatusOr<std::string> {
      return ForyDecodeOutput(std::min<size_t>(in.count, kMaxBatch), a);
    };
    // serdiff repro --upstream: the answer a reader of Fory's format gives, from the output
    // (the consumed count, then each value, 8 bytes LE each: DecodedOutput).
    def.interchange.expected_answer = [](const DecodeInput&,
                                         const std::string& out) -> absl::StatusOr<std::string> {
      return ForyDecodeAnswerJson(out);
    };
    // The worker "fury" misreads on its reader's fast path (docs/peers.md).
    for (auto& d : FuryDecodeDivergences(kMaxBatch)) {
      def.divergences.push_back(std::move(d));
    }
  }
  return def;
}

// ---- zigzag ------------------------------------------------------------------------------

harness::TargetDef<int64_t> ZigZagTarget() {
  harness::TargetDef<int64_t> def;
  def.name = "varint_zigzag64";
  def.description =
      "ZigZag64 of one int64: optimized vs reference vs protobuf WireFormatLite::ZigZagEncode64; "
      "output: zz as 8 bytes LE";
  def.domain = harness::IntegerDomain<int64_t>("int64", EdgeBiased<int64_t>(EdgeInt64()));
  auto le = [](uint64_t v) {
    std::string s;
    harness::AppendLe64(&s, v);
    return s;
  };
  def.optimized = {"optimized",
                   [le](const int64_t& v) -> Output { return le(sv::EncodeZigZag64(v)); }};
  def.others.push_back({"reference", [le](const int64_t& v) -> Output {
                          return le(ref::varint::EncodeZigZag64(v));
                        }});
  def.others.push_back(
      {"protobuf", harness::Role::kOracle, oracle::protobuf::kOrigin,
       [le](const int64_t& v) -> Output { return le(oracle::protobuf::ZigZagEncode64(v)); }});
  def.offsets = harness::OffsetPolicy::kNotApplicable;
  def.offsets_reason = "the input is one integer, not bytes";
  def.checks.push_back({"round-trip", [](const int64_t& v, const std::string& out) {
                          const int64_t back = sv::DecodeZigZag64(harness::ReadLe64(out.data()));
                          if (back == v) return absl::OkStatus();
                          return absl::InternalError(absl::StrCat("DecodeZigZag64 gave ", back));
                        }});
  def.show_output = [](const std::string& out) {
    return absl::StrCat("zz = ", harness::ReadLe64(out.data()));
  };
  return def;
}

}  // namespace

void RegisterTargets(harness::Registry& registry) {
  // Fuzz limits (docs/fuzzing.md, "Limits"; fuzz/limits.tsv is generated from these):
  // max_len, the heap bound at the largest input, the per-input timeout, the derivation.
  registry.SetFuzzLimits(
      "varint_*_encode",
      {2048, 6646, 25,
       "capped for speed: <= 255 values (8 input bytes each) x <= 10 bytes = 2550 output + 4 KiB; "
       "batches up to 10000 values (kMaxBatch) stay in the properties and serdiff check"});
  registry.SetFuzzLimits(
      "varint_*_decode",
      {4096, 84096, 25, "count <= 10000 (kMaxBatch) x 8-byte values = 80000 output + 4 KiB"});
  registry.SetFuzzLimits("varint_zigzag64", {64, 4104, 25, "one int64: 8 bytes output + 4 KiB"});
  // The custom mutator lies about the batch counts (FuzzedDataProvider integers at the back,
  // little-endian, 4 and 2 bytes).
  registry.SetDefaultLengthFields({{4, false}, {2, false}});
  registry.Add(ZigZagTarget());
  for (Format f : {Format::kLeb128, Format::kFory, Format::kVInt}) {
    registry.Add(EncodeTarget<uint64_t>(f, EdgeUint64()));
    registry.Add(EncodeTarget<int64_t>(f, EdgeInt64()));
    registry.Add(DecodeTarget(f));
  }
}

SERDIFF_REGISTER_FAMILY("varint", RegisterTargets);

}  // namespace serdiff::targets::varint
