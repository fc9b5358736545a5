// Optimized CQL value codec, decoder: one pass over the input, every length and count checked
// against the bytes that remain before it is used (and before anything is allocated for it).
#include <algorithm>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "absl/strings/str_cat.h"
#include "serdiff/common/error_offset.h"
#include "serdiff/cql/codec_internal.h"
#include "serdiff/varint/varint.h"

namespace serdiff::cql {
namespace {

using namespace codec_internal;  // NOLINT(google-build-using-namespace)

class Decoder {
 public:
  Decoder(const uint8_t* data, const DecodeOptions& options) : data_(data), options_(options) {}

  // Decodes the payload [begin, end) of the input as `t`.
  absl::Status Payload(const Type& t, size_t begin, size_t end, bool short_collection, Value* out) {
    const size_t len = end - begin;
    if (len == 0) {
      *out = Value::Empty();
      return absl::OkStatus();
    }
    const uint8_t* p = data_ + begin;
    const int width = FixedWidth(t.kind);
    if (width != 0 && len != static_cast<size_t>(width)) {
      return Invalid(begin, absl::StrCat(KindName(t.kind), " needs ", width, " bytes, got ", len));
    }
    switch (t.kind) {
      case Kind::kBoolean:
        *out = Value::Bool(p[0] != 0);
        return absl::OkStatus();
      case Kind::kTinyint:
        *out = Value::Int(static_cast<int8_t>(p[0]));
        return absl::OkStatus();
      case Kind::kSmallint:
        *out = Value::Int(static_cast<int16_t>(Load16(p)));
        return absl::OkStatus();
      case Kind::kInt:
        *out = Value::Int(static_cast<int32_t>(Load32(p)));
        return absl::OkStatus();
      case Kind::kDate:
        *out = Value::Int(static_cast<int64_t>(Load32(p)) - kDateEpoch);
        return absl::OkStatus();
      case Kind::kBigint:
      case Kind::kCounter:
      case Kind::kTimestamp:
        *out = Value::Int(static_cast<int64_t>(Load64(p)));
        return absl::OkStatus();
      case Kind::kTime: {
        const int64_t ns = static_cast<int64_t>(Load64(p));
        if (options_.require_time_in_day && (ns < 0 || ns > kMaxTimeNanos)) {
          return Invalid(begin, absl::StrCat("time ", ns, " ns is outside 0..", kMaxTimeNanos));
        }
        *out = Value::Int(ns);
        return absl::OkStatus();
      }
      case Kind::kFloat: {
        const uint32_t bits = Load32(p);
        float f;
        std::memcpy(&f, &bits, 4);
        *out = Value::Float(f);
        return absl::OkStatus();
      }
      case Kind::kDouble: {
        const uint64_t bits = Load64(p);
        double d;
        std::memcpy(&d, &bits, 8);
        *out = Value::Double(d);
        return absl::OkStatus();
      }
      case Kind::kUuid:
      case Kind::kTimeuuid: {
        if (t.kind == Kind::kTimeuuid && (p[6] >> 4) != 1) {
          return Invalid(begin + 6, "timeuuid is not a version 1 UUID");
        }
        Uuid u;
        std::memcpy(u.data(), p, 16);
        *out = Value::FromUuid(u);
        return absl::OkStatus();
      }
      case Kind::kText: {
        const size_t bad =
            options_.strict_utf8 ? FirstInvalidUtf8(p, len) : FirstInvalidCassandraUtf8(p, len);
        if (bad != len) return Invalid(begin + bad, "text is not valid UTF-8");
        *out = Value::Text(std::string(reinterpret_cast<const char*>(p), len));
        return absl::OkStatus();
      }
      case Kind::kAscii: {
        const size_t bad = FirstNonAscii(p, len);
        if (bad != len) return Invalid(begin + bad, "ascii byte above 127");
        *out = Value::Ascii(std::string(reinterpret_cast<const char*>(p), len));
        return absl::OkStatus();
      }
      case Kind::kBlob:
        *out = Value::Blob(std::string(reinterpret_cast<const char*>(p), len));
        return absl::OkStatus();
      case Kind::kInet:
        if (len != 4 && len != 16) {
          return Invalid(begin, absl::StrCat("inet needs 4 or 16 bytes, got ", len));
        }
        *out = Value::Inet(std::string(reinterpret_cast<const char*>(p), len));
        return absl::OkStatus();
      case Kind::kVarint:
        if (options_.require_minimal_varint && VarintIsPadded(p, len)) {
          return Invalid(begin, "varint has a redundant leading sign byte");
        }
        *out = Value::Varint(ReadVarint(p, len));
        return absl::OkStatus();
      case Kind::kDecimal: {
        if (len < 5) {
          return Invalid(begin, absl::StrCat("decimal needs a 4-byte scale and at least one "
                                             "unscaled byte, got ",
                                             len, " bytes"));
        }
        if (options_.require_minimal_varint && VarintIsPadded(p + 4, len - 4)) {
          return Invalid(begin + 4, "decimal unscaled varint has a redundant leading sign byte");
        }
        Decimal d;
        d.scale = static_cast<int32_t>(Load32(p));
        d.unscaled = ReadVarint(p + 4, len - 4);
        *out = Value::FromDecimal(std::move(d));
        return absl::OkStatus();
      }
      case Kind::kDuration:
        return ReadDuration(begin, end, out);
      case Kind::kList:
      case Kind::kSet:
      case Kind::kMap:
        return ReadCollection(t, begin, end, short_collection, out);
      case Kind::kTuple:
      case Kind::kUdt:
        return ReadComponents(t, begin, end, out);
    }
    return Invalid(begin, "unknown kind");
  }

 private:
  static absl::Status Invalid(size_t off, absl::string_view what) {
    return WithErrorOffset(
        absl::InvalidArgumentError(absl::StrCat("cql decode: offset ", off, ": ", what)),
        static_cast<int64_t>(off));
  }
  static absl::Status Truncated(size_t off, absl::string_view what) {
    return WithErrorOffset(
        absl::OutOfRangeError(absl::StrCat("cql decode: offset ", off, ": ", what)),
        static_cast<int64_t>(off));
  }

  absl::Status ReadDuration(size_t begin, size_t end, Value* out) {
    const absl::Span<const uint8_t> in(data_ + begin, end - begin);
    size_t off = 0;
    int64_t parts[3];
    for (int i = 0; i < 3; ++i) {
      const size_t start = off;
      absl::StatusOr<uint64_t> raw = varint::Read(varint::Format::kVInt, in, &off);
      if (!raw.ok()) {
        return Truncated(begin + start, absl::StrCat("duration component ", i, " is truncated"));
      }
      if (options_.require_minimal_varint &&
          varint::EncodedSize(varint::Format::kVInt, *raw) != off - start) {
        return Invalid(begin + start,
                       absl::StrCat("duration component ", i, " is a non-minimal vint"));
      }
      parts[i] = varint::DecodeZigZag64(*raw);
      if (i < 2 && (parts[i] < std::numeric_limits<int32_t>::min() ||
                    parts[i] > std::numeric_limits<int32_t>::max())) {
        return Invalid(begin + start,
                       absl::StrCat(i == 0 ? "months " : "days ", parts[i], " exceed int32"));
      }
    }
    if (off != in.size() && options_.reject_duration_trailing_bytes) {
      return Invalid(begin + off, "bytes left after the duration's three vints");
    }
    const bool non_negative = parts[0] >= 0 && parts[1] >= 0 && parts[2] >= 0;
    const bool non_positive = parts[0] <= 0 && parts[1] <= 0 && parts[2] <= 0;
    if (!non_negative && !non_positive) {
      return Invalid(begin, "duration components of mixed signs");
    }
    *out = Value::FromDuration(
        Duration{static_cast<int32_t>(parts[0]), static_cast<int32_t>(parts[1]), parts[2]});
    return absl::OkStatus();
  }

  // One [bytes] / [short bytes] item at *pos (< end), decoded as `t` into `out`.
  absl::Status ReadItem(const Type& t, size_t* pos, size_t end, bool short_prefix, Value* out) {
    const size_t at = *pos;
    const size_t prefix = short_prefix ? 2 : 4;
    if (end - at < prefix) return Truncated(at, "item length is truncated");
    int64_t n;
    if (short_prefix) {
      n = Load16(data_ + at);
    } else {
      n = static_cast<int32_t>(Load32(data_ + at));
      if (n == -1 || (n < 0 && !options_.reject_negative_lengths)) {
        *pos = at + 4;
        *out = Value::Null();
        return absl::OkStatus();
      }
      if (n == -2) return Invalid(at, "unset (-2) is not allowed inside a value");
      if (n < 0) return Invalid(at, absl::StrCat("negative item length ", n));
    }
    const size_t body = at + prefix;
    if (static_cast<uint64_t>(n) > end - body) {
      return Truncated(
          at, absl::StrCat("item length ", n, " exceeds the ", end - body, " bytes that remain"));
    }
    *pos = body + static_cast<size_t>(n);
    return Payload(t, body, *pos, false, out);
  }

  absl::Status ReadCollection(const Type& t, size_t begin, size_t end, bool short_form,
                              Value* out) {
    const bool map = t.kind == Kind::kMap;
    const size_t header = short_form ? 2 : 4;
    if (end - begin < header) return Truncated(begin, "collection count is truncated");
    int64_t count;
    if (short_form) {
      count = Load16(data_ + begin);
    } else {
      count = static_cast<int32_t>(Load32(data_ + begin));
      if (count < 0) return Invalid(begin, absl::StrCat("negative element count ", count));
    }
    const size_t remaining = end - begin - header;
    const size_t per_entry = (short_form ? 2 : 4) * (map ? 2 : 1);
    // Every element needs at least its length prefix: check before reserving anything.
    if (static_cast<uint64_t>(count) > remaining / per_entry) {
      return Truncated(begin, absl::StrCat("count ", count, " needs at least ",
                                           static_cast<uint64_t>(count) * per_entry, " bytes but ",
                                           remaining, " remain"));
    }
    const size_t n_items = static_cast<size_t>(count) * (map ? 2 : 1);
    std::vector<Value> items;
    items.reserve(n_items);
    size_t pos = begin + header;
    for (size_t i = 0; i < n_items; ++i) {
      const Type& et = map ? t.params[i % 2] : t.params[0];
      items.emplace_back();
      absl::Status st = ReadItem(et, &pos, end, short_form, &items.back());
      if (!st.ok()) return st;
    }
    if (pos != end) {
      return Invalid(pos, absl::StrCat(end - pos, " bytes left after the last element"));
    }
    *out = map ? Value::Pairs(std::move(items)) : Value::Items(std::move(items));
    return absl::OkStatus();
  }

  absl::Status ReadComponents(const Type& t, size_t begin, size_t end, Value* out) {
    const bool tuple = t.kind == Kind::kTuple;
    std::vector<Value> items;
    // Each present component takes at least its 4-byte length: reserve no more than the input
    // can hold, whatever the (caller-supplied) type declares.
    items.reserve(std::min(t.params.size(), (end - begin) / 4));
    size_t pos = begin;
    for (size_t i = 0; i < t.params.size(); ++i) {
      if (pos == end) {
        if (tuple && options_.reject_short_tuples) {
          return Truncated(pos, absl::StrCat("tuple component ", i, " is missing"));
        }
        // v4 spec section 7: a UDT value may stop early; Cassandra's TupleSerializer lets a
        // tuple value stop early too. Missing trailing items are null.
        break;
      }
      items.emplace_back();
      absl::Status st = ReadItem(t.params[i], &pos, end, false, &items.back());
      if (!st.ok()) return st;
    }
    if (pos != end) {
      return Invalid(pos, absl::StrCat(end - pos, " bytes left after the last ",
                                       tuple ? "component" : "field"));
    }
    items.resize(t.params.size());  // missing trailing fields / components read as null
    *out = Value::Items(std::move(items));
    return absl::OkStatus();
  }

  const uint8_t* data_;
  DecodeOptions options_;
};

absl::Status CheckDecodeSetup(const Type& t, int version, const DecodeOptions& options) {
  // Setup errors concern no input byte; they carry offset 0 (the decoder read nothing).
  absl::Status st = CheckVersion(version);
  if (!st.ok()) return WithErrorOffset(st, 0);
  if (options.max_depth < 0 || options.max_depth > kMaxNestingDepth) {
    return InvalidAt(0,
                     absl::StrCat("cql decode: max_depth ", options.max_depth, " is not in 0..64"));
  }
  st = ValidateType(t, options.max_depth);
  if (!st.ok()) return InvalidAt(0, absl::StrCat("cql decode: ", st.message()));
  return absl::OkStatus();
}

}  // namespace

absl::StatusOr<Value> Deserialize(const Type& t, std::string_view payload, int version,
                                  const DecodeOptions& options) {
  absl::Status st = CheckDecodeSetup(t, version, options);
  if (!st.ok()) return st;
  Decoder dec(reinterpret_cast<const uint8_t*>(payload.data()), options);
  Value v;
  st = dec.Payload(t, 0, payload.size(), version < 3, &v);
  if (!st.ok()) return st;
  return v;
}

absl::StatusOr<Value> DeserializeValue(const Type& t, std::string_view framed, int version,
                                       const DecodeOptions& options) {
  absl::Status st = CheckDecodeSetup(t, version, options);
  if (!st.ok()) return st;
  const uint8_t* data = reinterpret_cast<const uint8_t*>(framed.data());
  if (framed.size() < 4) {
    return OutOfRangeAt(
        0, absl::StrCat("cql decode: [value] length needs 4 bytes, got ", framed.size()));
  }
  const int32_t n = static_cast<int32_t>(Load32(data));
  if (n == -1 || n == -2) {
    if (n == -2 && version < 4) {
      return InvalidAt(0,
                       absl::StrCat("cql decode: unset (-2) needs protocol v4+, not v", version));
    }
    if (framed.size() != 4) {
      return InvalidAt(
          4, absl::StrCat("cql decode: ", framed.size() - 4, " bytes after a null/unset [value]"));
    }
    return n == -1 ? Value::Null() : Value::Unset();
  }
  if (n < 0) return InvalidAt(0, absl::StrCat("cql decode: [value] length ", n, " is below -2"));
  const size_t remaining = framed.size() - 4;
  if (static_cast<size_t>(n) > remaining) {
    return OutOfRangeAt(0, absl::StrCat("cql decode: [value] length ", n, " exceeds the ",
                                        remaining, " bytes that remain"));
  }
  if (static_cast<size_t>(n) < remaining) {
    return InvalidAt(4 + n,
                     absl::StrCat("cql decode: ", remaining - n, " bytes after the [value]"));
  }
  Decoder dec(data, options);
  Value v;
  st = dec.Payload(t, 4, framed.size(), version < 3, &v);
  if (!st.ok()) return st;
  return v;
}

}  // namespace serdiff::cql
