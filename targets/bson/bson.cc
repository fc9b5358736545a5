// BSON family targets: the optimized serdiff::bson code vs the reference serdiff::ref::bson,
// with libbson 1.23 (Debian libbson-dev) live as a real oracle and std::to_chars, Abseil and
// libfmt as oracles for the integer formatting.
//
//   bson_format_int64    int64 -> decimal: optimized vs snprintf, to_chars, absl, fmt
//   bson_format_uint64   uint64 -> decimal: the same five
//   bson_array_keys      n -> the keys "0".."n-1" (each with its NUL) from the counter vs
//                        snprintf per key vs libbson's bson_uint32_to_string; check: the
//                        closed-form key size
//   bson_encode          Document -> bytes: optimized vs reference vs libbson bson_append_*;
//                        checks: EncodedSize, the bytes validate and decode back; heap bound
//   bson_decode          bytes -> accept (output: the bytes) or reject: optimized Validate vs
//                        optimized Decode vs reference vs libbson bson_validate
//   bson_decode_offsets  bytes -> "accept" or "reject at <offset>": optimized vs reference,
//                        so that the offsets themselves are compared
//
// The family's files follow docs/architecture.md, "The family folder": this file defines and
// registers the targets; domain.h (domain.cc, parse.cc) the inputs; interchange.h how they
// cross to workers and modules (every target above but bson_decode_offsets has an interchange,
// docs/workers.md); divergences.h what serdiff accepts from libbson, pymongo and js_bson, one
// divergences_<peer>.cc each (docs/peers.md); wire_edges.cc the wire-edge table.

#include <charconv>
#include <cstring>
#include <limits>
#include <string>
#include <type_traits>
#include <vector>

#include "absl/strings/str_cat.h"
#include "harness/domains.h"
#include "harness/hex.h"
#include "harness/uniform.h"
#include "oracles/abseil/time.h"
#include "oracles/fmt/fmt.h"
#include "oracles/libbson/libbson.h"
#include "reference/bson/bson_ref.h"
#include "serdiff/bson/codec.h"
#include "serdiff/bson/int_format.h"
#include "serdiff/common/error_offset.h"
#include "serdiff/timestamp/timestamp.h"
#include "targets/bson/divergences.h"
#include "targets/bson/domain.h"
#include "targets/bson/interchange.h"
#include "targets/bson/internal.h"
#include "targets/families.h"

namespace serdiff::targets::bson {
namespace {

namespace sb = serdiff::bson;
using harness::Output;
using sb::Document;

template <typename T>
rc::Gen<T> EdgeIntegers() {
  std::vector<T> edges = {0,
                          1,
                          9,
                          10,
                          11,
                          99,
                          100,
                          101,
                          std::numeric_limits<T>::max(),
                          std::numeric_limits<T>::max() - 1,
                          std::numeric_limits<T>::min(),
                          static_cast<T>(std::numeric_limits<T>::min() + 1)};
  for (T p = 1; p <= std::numeric_limits<T>::max() / 10; p *= 10) {
    edges.insert(edges.end(), {static_cast<T>(p - 1), p, static_cast<T>(p + 1)});
    if constexpr (std::is_signed_v<T>)
      edges.insert(edges.end(), {static_cast<T>(-p), static_cast<T>(-p - 1)});
  }
  return rc::gen::weightedOneOf<T>({
      {3, rc::gen::elementOf(edges)},
      {3, rc::gen::arbitrary<T>()},
      {2, rc::gen::cast<T>(harness::UniformIn<int64_t>(-1000000, 1000001))},
  });
}

// v formatted by one of serdiff's formatters (the signed or the unsigned one, by T).
template <typename T>
std::string FormatWith(const T& v, size_t (*format_signed)(int64_t, char*),
                       size_t (*format_unsigned)(uint64_t, char*)) {
  char buf[sb::kMaxDecimalChars];
  size_t n;
  if constexpr (std::is_signed_v<T>) {
    n = format_signed(v, buf);
  } else {
    n = format_unsigned(v, buf);
  }
  return std::string(buf, n);
}

template <typename T>
harness::TargetDef<T> FormatTarget(const std::string& name, const std::string& type) {
  harness::TargetDef<T> def;
  def.name = name;
  def.description =
      absl::StrCat(type,
                   " to decimal ASCII: optimized fixed-point digits and digit pairs vs snprintf, "
                   "std::to_chars, absl::StrCat, fmt::format_to");
  def.domain = harness::IntegerDomain<T>(type, EdgeIntegers<T>());
  def.optimized = {"optimized", [](const T& v) -> Output {
                     return FormatWith<T>(v, sb::FormatInt64, sb::FormatUint64);
                   }};
  def.others.push_back({"digit_pairs", harness::Role::kOptimizedTier, [](const T& v) -> Output {
                          return FormatWith<T>(v, sb::FormatInt64DigitPairs,
                                               sb::FormatUint64DigitPairs);
                        }});
  def.others.push_back({"reference", [](const T& v) -> Output {
                          if constexpr (std::is_signed_v<T>) return ref::bson::FormatInt64(v);
                          return ref::bson::FormatUint64(static_cast<uint64_t>(v));
                        }});
  def.others.push_back({"to_chars", harness::Role::kOracle,
                        "the C++ standard library: std::to_chars (libstdc++, GCC 12)",
                        [](const T& v) -> Output {
                          char buf[24];
                          auto r = std::to_chars(buf, buf + sizeof buf, v);
                          return std::string(buf, r.ptr);
                        }});
  def.others.push_back({"absl", harness::Role::kOracle, oracle::abseil::kOrigin,
                        [](const T& v) -> Output { return oracle::abseil::FormatDecimal(v); }});
  def.others.push_back({"fmt", harness::Role::kOracle, oracle::fmt::kOrigin,
                        [](const T& v) -> Output { return oracle::fmt::FormatDecimal(v); }});
  // Formatting allocates nothing; the returned std::string is the only allocation.
  def.heap_bound = harness::HeapBound<T>::Linear(1, 64);
  def.show_output = [](const std::string& out) { return out; };
  // Outside implementations answer the ASCII digits; modules may take the value itself (the
  // uint64's bit pattern for SERDIFF_FORM_UINT64).
  def.interchange.op = std::is_signed_v<T> ? "int64.to_decimal" : "uint64.to_decimal";
  def.interchange.input_json = [](const T& v) -> absl::StatusOr<std::string> {
    return DecimalInputJson(v);
  };
  def.interchange.as_int64 = [](const T& v) { return static_cast<int64_t>(v); };
  return def;
}

harness::TargetDef<uint32_t> ArrayKeysTarget() {
  harness::TargetDef<uint32_t> def;
  def.name = "bson_array_keys";
  def.description =
      "the keys of an n-element array (each with its NUL): the decimal counter vs snprintf per "
      "key vs libbson's bson_uint32_to_string; check: ArrayKeyBytes(n)";
  def.domain = ArrayKeyCountDomain();
  def.ladder = {[](uint32_t count, int) { return count; }, kMaxArrayKeys, false};
  def.optimized = {"optimized", [](const uint32_t& n) -> Output {
                     std::string out(sb::ArrayKeyBytes(n), '\0');
                     char* p = out.data();
                     sb::ArrayKeyCounter key;
                     for (uint32_t i = 0; i < n; ++i, key.Next()) p += key.WriteKeyWithNul(p);
                     return out;
                   }};
  def.others.push_back({"reference", [](const uint32_t& n) -> Output {
                          std::string out;
                          for (uint32_t i = 0; i < n; ++i) {
                            out += ref::bson::ArrayKey(i);
                            out.push_back('\0');
                          }
                          return out;
                        }});
  def.others.push_back({"libbson", harness::Role::kOracle, oracle::libbson::kOrigin,
                        [](const uint32_t& n) -> Output { return oracle::libbson::ArrayKeys(n); }});
  def.checks.push_back({"key-bytes", [](const uint32_t& n, const std::string& out) {
                          if (sb::ArrayKeyBytes(n) == out.size()) return absl::OkStatus();
                          return absl::InternalError(absl::StrCat("ArrayKeyBytes(", n,
                                                                  ") = ", sb::ArrayKeyBytes(n),
                                                                  ", keys take ", out.size()));
                        }});
  def.heap_bound = harness::HeapBound<uint32_t>::Linear(1, 4096);
  def.interchange.op = "bson.array_keys";
  def.interchange.input_json = [](const uint32_t& n) -> absl::StatusOr<std::string> {
    return ArrayKeysInputJson(n);
  };
  return def;
}

// The encode targets' interchange: the document as canonical Extended JSON, or the reference
// encoder's bytes where that is not exact (EncodeInputJson); the answer is the bytes.
harness::Interchange<Document> EncodeInterchange() {
  harness::Interchange<Document> ic;
  ic.op = "bson.encode";
  ic.input_json = [](const Document& doc) { return EncodeInputJson(doc); };
  return ic;
}

// The encode targets' check: EncodedSize predicts the output's size exactly.
harness::OutputCheck<Document> SizePredictionCheck() {
  return {"size-prediction", [](const Document& doc, const std::string& out) {
            absl::StatusOr<uint64_t> n = sb::EncodedSize(doc);
            if (n.ok() && *n == out.size()) return absl::OkStatus();
            return absl::InternalError("EncodedSize differs from the output size");
          }};
}

harness::TargetDef<Document> EncodeTarget() {
  harness::TargetDef<Document> def;
  def.name = "bson_encode";
  def.description =
      "document -> BSON bytes: optimized (size pass + exact write) vs reference (fragments) vs "
      "libbson bson_append_*";
  def.domain = DocumentDomain();
  def.optimized = {"optimized", [](const Document& doc) -> Output { return sb::Encode(doc); }};
  def.others.push_back(
      {"reference", [](const Document& doc) -> Output { return ref::bson::Encode(doc); }});
  def.others.push_back(
      {"libbson", harness::Role::kOracle, oracle::libbson::kOrigin,
       [](const Document& doc) -> Output { return oracle::libbson::Encode(doc); }});
  def.others.back().decline_edges = LibbsonEncodeDeclineEdges;
  def.checks.push_back(SizePredictionCheck());
  def.checks.push_back({"validates", [](const Document&, const std::string& out) {
                          sb::DecodeOptions opt;
                          opt.check_utf8 = false;  // the encoder writes strings as given
                          opt.check_array_keys = true;
                          return sb::Validate(out, opt);
                        }});
  // What serdiff accepts from libbson and from the workers pymongo, js_bson and go_bson, which join
  // this target (their manifests): each peer's list, from its divergences_<peer>.cc.
  def.divergences = LibbsonEncodeDivergences();
  for (auto& d : PymongoEncodeDivergences()) def.divergences.push_back(std::move(d));
  for (auto& d : JsBsonEncodeDivergences()) def.divergences.push_back(std::move(d));
  for (auto& d : GoBsonEncodeDivergences()) def.divergences.push_back(std::move(d));
  def.heap_bound = harness::HeapBound<Document>::Linear(1, 4096);
  def.interchange = EncodeInterchange();
  return def;
}

// Packed arrays (serdiff/bson/document.h, Packed): the documents of bson_encode with every
// homogeneous array held as one contiguous vector. The optimized encoder's packed loop is
// compared with its element-by-element path on the same document unpacked (tier "children"),
// with the reference (which spells packed arrays out) and with libbson.
harness::TargetDef<Document> EncodePackedTarget() {
  harness::TargetDef<Document> def;
  def.name = "bson_encode_packed";
  def.description =
      "document with homogeneous arrays packed (int32/int64/double/bool spans, keys implicit) "
      "-> BSON bytes: optimized packed loop vs the same encoder on the unpacked document vs "
      "reference vs libbson";
  def.domain = PackedDocumentDomain();
  def.optimized = {"optimized", [](const Document& doc) -> Output { return sb::Encode(doc); }};
  def.others.push_back({"children", harness::Role::kOptimizedTier,
                        [](const Document& doc) -> Output { return sb::Encode(sb::Unpack(doc)); }});
  def.others.push_back(
      {"reference", [](const Document& doc) -> Output { return ref::bson::Encode(doc); }});
  def.others.push_back(
      {"libbson", harness::Role::kOracle, oracle::libbson::kOrigin,
       [](const Document& doc) -> Output { return oracle::libbson::Encode(doc); }});
  def.others.back().decline_edges = LibbsonEncodeDeclineEdges;
  def.checks.push_back(SizePredictionCheck());
  def.divergences = LibbsonEncodeDivergences();
  // The packed loop allocates nothing but the output.
  def.heap_bound = harness::HeapBound<Document>::Linear(1, 4096);
  // Packed arrays cross as the arrays they stand for (Unpack).
  def.interchange = EncodeInterchange();
  return def;
}

Output Accepted(const std::string& bytes, const absl::Status& st) {
  if (!st.ok()) return st;
  return bytes;
}

harness::TargetDef<std::string> DecodeTarget() {
  harness::TargetDef<std::string> def;
  def.name = "bson_decode";
  def.description =
      "bytes -> accept/reject: optimized Validate and Decode vs reference vs libbson "
      "bson_validate (UTF-8 checked, NUL allowed in strings)";
  def.domain = DecoderInputDomain();
  // The subject is Decode, which builds the model, so that the heap bound below holds the
  // model to its budget on every input a run or a fuzzer tries; Validate (the same parser,
  // building nothing) is its tier.
  def.optimized = {"optimized", [](const std::string& in) -> Output {
                     // The model is freed at the end of this statement, before Accepted copies
                     // the input: the peak is the model's, not the model's plus the copy's.
                     const absl::Status st = sb::Decode(in).status();
                     return Accepted(in, st);
                   }};
  def.others.push_back(
      {"optimized-validate", harness::Role::kOptimizedTier,
       [](const std::string& in) -> Output { return Accepted(in, sb::Validate(in)); }});
  def.others.push_back({"reference", [](const std::string& in) -> Output {
                          return Accepted(in, ref::bson::Validate(in));
                        }});
  def.others.push_back({"libbson", harness::Role::kOracle, oracle::libbson::kOrigin,
                        [](const std::string& in) -> Output {
                          return Accepted(in, oracle::libbson::Validate(in));
                        }});
  def.divergences = LibbsonDecodeDivergences();
  for (auto& d : PymongoDecodeDivergences()) def.divergences.push_back(std::move(d));
  for (auto& d : JsBsonDecodeDivergences()) def.divergences.push_back(std::move(d));
  for (auto& d : GoBsonDecodeDivergences()) def.divergences.push_back(std::move(d));
  for (auto& d : JavaBsonDecodeDivergences()) def.divergences.push_back(std::move(d));
  def.heap_divergences = JavaBsonDecodeHeapDivergences();
  // Every serdiff decoder reports where the first invalid field starts (docs/architecture.md,
  // "Error offsets"); libbson's bson_validate reports an offset of its own convention only, the
  // workers pymongo, js_bson, go_bson and java_bson none.
  def.offsets = harness::OffsetPolicy::kRequired;
  def.offset_exemptions = {LibbsonDecodeOffsetExemption(), PymongoDecodeOffsetExemption(),
                           JsBsonDecodeOffsetExemption(), GoBsonDecodeOffsetExemption(),
                           JavaBsonDecodeOffsetExemption()};
  // The decoder's budget (issue 36): kDecodeHeapPerInputByte per input byte + 4 KiB, accepted
  // or rejected (docs/bson.md, "Decoder heap").
  def.heap_bound = harness::HeapBound<std::string>::Custom(
      absl::StrCat(sb::kDecodeHeapPerInputByte, " x input + 4 KiB"),
      [](const std::string& in, const Output&) -> int64_t {
        return sb::kDecodeHeapPerInputByte * static_cast<int64_t>(in.size()) + 4096;
      });
  // An outside decoder answers accept (with bytes of its own: a re-encoding, say) or reject; an
  // acceptance is this target's output for an accepted input, the input itself (Accepted).
  def.interchange.op = "bson.decode";
  def.interchange.input_json = [](const std::string& in) -> absl::StatusOr<std::string> {
    // serdiff rejects past kDefaultMaxDepth (100) levels, a limit of its own (BSON 1.1 sets
    // none), and the peers' depth divergences excuse that only where the document, walked to
    // kWalkDepth, is otherwise valid. Past kWalkDepth no answer could be judged: a valid document
    // would fail as a peer's finding, so the input is not sent (as libbson declines it too). Only
    // where the walk meets the depth before any other error (UTF-8 aside): an input with an
    // earlier fault a peer leaves unchecked, and nesting past kWalkDepth after it, is still sent
    // and still reported (docs/bson.md).
    sb::DecodeOptions walk;
    walk.check_utf8 = false;
    walk.max_depth = kWalkDepth;
    if (sb::NestsTooDeepFirst(in, walk)) {
      return harness::Declined(absl::StrCat(
          "the document nests deeper than ", kWalkDepth,
          " levels, past the walk of the depth divergences: an outside decoder's answer could "
          "not be judged"));
    }
    return BytesInputJson(in);
  };
  def.interchange.output = [](const std::string& in,
                              const harness::ExternalAnswer&) -> absl::StatusOr<std::string> {
    return in;
  };
  return def;
}

// "accept" or "reject at N" (N from the status payload, "none" when missing).
std::string Verdict(const absl::Status& st) {
  if (st.ok()) return "accept";
  std::optional<int64_t> at = ErrorOffset(st);
  return absl::StrCat("reject at ", at ? absl::StrCat(*at) : std::string("none"));
}

harness::TargetDef<std::string> DecodeOffsetsTarget() {
  harness::TargetDef<std::string> def;
  def.name = "bson_decode_offsets";
  def.description =
      "bytes -> \"accept\" or \"reject at <offset>\" (with array keys checked): optimized vs "
      "reference, so the error offsets are compared";
  def.domain = DecoderInputDomain();
  def.optimized = {"optimized", [](const std::string& in) -> Output {
                     sb::DecodeOptions opt;
                     opt.check_array_keys = true;
                     return Verdict(sb::Validate(in, opt));
                   }};
  def.others.push_back({"reference", [](const std::string& in) -> Output {
                          ref::bson::ValidateOptions opt;
                          opt.check_array_keys = true;
                          return Verdict(ref::bson::Validate(in, opt));
                        }});
  def.heap_bound = harness::HeapBound<std::string>::Fixed(4096);
  def.show_output = [](const std::string& out) { return out; };
  return def;
}

}  // namespace

void RegisterTargets(harness::Registry& registry) {
  registry.AddWireEdges(WireEdges());
  // Fuzz limits (docs/fuzzing.md, "Limits"; fuzz/limits.tsv is generated from these):
  // max_len, the heap bound at the largest input, the per-input timeout, the derivation.
  registry.SetFuzzLimits(
      "bson_format_*",
      {64, 4160, 25, "one 8-byte integer: output <= 20 characters + 64 (the targets' bound)"});
  registry.SetFuzzLimits(
      "bson_array_keys",
      {64, 7890, 25,
       "capped for speed: n <= 16 keys per input byte after the 3-byte count (kArrayKeysPerByte), "
       "so <= 976 keys at 64 bytes: ArrayKeyBytes(976) = 3794 + 4096; counts up to 200000 stay in "
       "the properties and serdiff check"});
  registry.SetFuzzLimits(
      "bson_encode", {384, 42496, 25,
                      "capped for speed: every element takes an input byte, so <= 384 elements "
                      "(the reader cuts counts to the bytes left), each <= about 100 bytes: output "
                      "<= 38400 + 4096; room for 100+ nested arrays (3 bytes a level); large "
                      "documents (20000 elements) stay in the properties and serdiff check"});
  registry.SetFuzzLimits(
      "bson_encode_packed",
      {4096, 413696, 25,
       "room for packed arrays past 1000 elements (an int32 takes 5 input bytes, a bool 2), so "
       "the tens-counter keys reach 4 digits; every element takes an input byte and writes "
       "<= about 100 bytes: output <= 409600 + 4096"});
  registry.SetFuzzLimits(
      "bson_decode*",
      {65536, 4198400, 25,
       "input <= 64 KiB: Decode's model stays within 64 bytes per input byte + 4096 (32765 "
       "two-byte elements of 128 bytes, the vector sized once); Validate allocates nothing"});
  // The custom mutator lies about int32 document and string lengths, little-endian (BSON 1.1),
  // and the 2-byte counts of the fuzz inputs' own form.
  registry.SetDefaultLengthFields({{4, false}, {2, false}});
  registry.Add(FormatTarget<int64_t>("bson_format_int64", "int64"));
  registry.Add(FormatTarget<uint64_t>("bson_format_uint64", "uint64"));
  registry.Add(ArrayKeysTarget());
  registry.Add(EncodeTarget());
  registry.Add(EncodePackedTarget());
  registry.Add(DecodeTarget());
  registry.Add(DecodeOffsetsTarget());
}

SERDIFF_REGISTER_FAMILY("bson", RegisterTargets);

}  // namespace serdiff::targets::bson
