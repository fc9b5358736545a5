#include "oracles/protobuf/protobuf.h"

#include <google/protobuf/io/coded_stream.h>
#include <google/protobuf/wire_format_lite.h>

#include "absl/status/status.h"

namespace serdiff::oracle::protobuf {
namespace {

using google::protobuf::internal::WireFormatLite;
using google::protobuf::io::CodedInputStream;
using google::protobuf::io::CodedOutputStream;

constexpr size_t kMaxVarint64Bytes = 10;

template <typename T, typename ToWire>
std::string Encode(absl::Span<const T> values, ToWire to_wire) {
  std::string out(values.size() * kMaxVarint64Bytes, '\0');
  uint8_t* const begin = reinterpret_cast<uint8_t*>(out.data());
  uint8_t* p = begin;
  for (T v : values) p = CodedOutputStream::WriteVarint64ToArray(to_wire(v), p);
  out.resize(static_cast<size_t>(p - begin));
  return out;
}

}  // namespace

uint64_t ZigZagEncode64(int64_t v) { return WireFormatLite::ZigZagEncode64(v); }

std::string EncodeVarint64Batch(absl::Span<const uint64_t> values) {
  return Encode(values, [](uint64_t v) { return v; });
}

std::string EncodeVarint64Batch(absl::Span<const int64_t> values) {
  return Encode(values, [](int64_t v) { return WireFormatLite::ZigZagEncode64(v); });
}

absl::StatusOr<size_t> DecodeVarint64Batch(absl::Span<const uint8_t> bytes,
                                           absl::Span<uint64_t> out) {
  CodedInputStream stream(bytes.data(), static_cast<int>(bytes.size()));
  for (uint64_t& v : out) {
    google::protobuf::uint64 x;
    if (!stream.ReadVarint64(&x)) return absl::InvalidArgumentError("protobuf: bad varint");
    v = x;
  }
  return static_cast<size_t>(stream.CurrentPosition());
}

}  // namespace serdiff::oracle::protobuf
