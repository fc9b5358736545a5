// Optimized CQL value codec, decoder: one pass over the input, every length and count checked
// against the bytes that remain before it is used (and before anything is allocated for it).
// Every position below is an absolute offset into the input the public function was given, so an
// error's offset needs no translation: the convention counts from the input's first byte
// (docs/architecture.md, "Error offsets"), and the reference decoder reports the same offsets.
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

// One decoder per call: the input's first byte and the options. The decoder owns no buffer; the
// only allocations are the decoded values themselves and an error status.
class Decoder {
 public:
  Decoder(const uint8_t* data, const DecodeOptions& options) : data_(data), options_(options) {}

  // Decodes the payload [begin, end) of the input as `t`.
  // `short_collection` is true only for the top-level payload in protocol v1/v2
  // (native_protocol_v3.spec section 10): every nested item passes false, since nested collections
  // keep [int] counts and lengths.
  absl::Status Payload(const Type& t, size_t begin, size_t end, bool short_collection, Value* out) {
    const size_t len = end - begin;
    // A zero-length payload is the empty value of every type (v4 spec section 6: empty is distinct
    // from null). It is answered before the width check, which would otherwise reject an empty int.
    if (len == 0) {
      if (options_.reject_empty_where_cassandra_does && CassandraRejectsEmpty(t.kind)) {
        return Invalid(begin, absl::StrCat(KindName(t.kind),
                                           " has no empty value (Cassandra's "
                                           "validator wants its bytes)"));
      }
      *out = Value::Empty();
      return absl::OkStatus();
    }
    const uint8_t* p = data_ + begin;
    const int width = FixedWidth(t.kind);
    // A fixed-width kind takes exactly its width. The error is at the payload's first byte: the
    // payload as a whole has the wrong length, and no byte inside it is the one at fault.
    if (width != 0 && len != static_cast<size_t>(width)) {
      return Invalid(begin, absl::StrCat(KindName(t.kind), " needs ", width, " bytes, got ", len));
    }
    switch (t.kind) {
      case Kind::kBoolean:
        // v4 spec 6.4: any non-zero byte is true. With every strict flag on, this is the only
        // value that does not re-encode to the bytes it came from (docs/cql.md, "Decoders").
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
        // v4 spec 6.5: the wire holds days biased by 2^31; the value model holds signed days.
        *out = Value::Int(static_cast<int64_t>(Load32(p)) - kDateEpoch);
        return absl::OkStatus();
      case Kind::kBigint:
      case Kind::kCounter:
      case Kind::kTimestamp:
        *out = Value::Int(static_cast<int64_t>(Load64(p)));
        return absl::OkStatus();
      case Kind::kTime: {
        const int64_t ns = static_cast<int64_t>(Load64(p));
        // Cassandra checks only the 8-byte width of a time, so the default accepts any value;
        // require_time_in_day restores the range of v4 spec 6.16.
        if (options_.require_time_in_day && (ns < 0 || ns > kMaxTimeNanos)) {
          return Invalid(begin, absl::StrCat("time ", ns, " ns is outside 0..", kMaxTimeNanos));
        }
        *out = Value::Int(ns);
        return absl::OkStatus();
      }
      case Kind::kFloat: {
        const uint32_t bits = Load32(p);
        float f;
        // Copied bit for bit, not converted: values compare bit for bit (docs/cql.md), so a NaN's
        // payload and the sign of zero are part of the value.
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
        // v4 spec 6.18: a timeuuid is a version 1 UUID. The version is the high nibble of byte 6,
        // so the error is at that byte rather than at the UUID's start.
        if (t.kind == Kind::kTimeuuid && (p[6] >> 4) != 1) {
          return Invalid(begin + 6, "timeuuid is not a version 1 UUID");
        }
        Uuid u;
        std::memcpy(u.data(), p, 16);
        *out = Value::FromUuid(u);
        return absl::OkStatus();
      }
      case Kind::kText: {
        // By default the rules of Cassandra's UTF8Validator, which accepts some sequences RFC 3629
        // forbids; strict_utf8 applies RFC 3629. Both return the lead byte of the first bad
        // sequence (the convention reports a multi-byte field at its first byte), or len when all
        // is valid.
        const size_t bad =
            options_.strict_utf8 ? FirstInvalidUtf8(p, len) : FirstInvalidCassandraUtf8(p, len);
        if (bad != len) return Invalid(begin + bad, "text is not valid UTF-8");
        *out = Value::Text(std::string(reinterpret_cast<const char*>(p), len));
        return absl::OkStatus();
      }
      case Kind::kAscii: {
        // v4 spec 6.1: every byte in 0..127; the error is at the first byte above.
        const size_t bad = FirstNonAscii(p, len);
        if (bad != len) return Invalid(begin + bad, "ascii byte above 127");
        *out = Value::Ascii(std::string(reinterpret_cast<const char*>(p), len));
        return absl::OkStatus();
      }
      case Kind::kBlob:
        *out = Value::Blob(std::string(reinterpret_cast<const char*>(p), len));
        return absl::OkStatus();
      case Kind::kInet:
        // v4 spec 6.9: IPv4 or IPv6. inet has two widths, so FixedWidth leaves it to this check.
        if (len != 4 && len != 16) {
          return Invalid(begin, absl::StrCat("inet needs 4 or 16 bytes, got ", len));
        }
        *out = Value::Inet(std::string(reinterpret_cast<const char*>(p), len));
        return absl::OkStatus();
      case Kind::kVarint:
        // Cassandra accepts a redundant leading sign byte; require_minimal_varint restores v4 spec
        // 6.23's minimal form. The varint is one field, so the error is at its first byte.
        if (options_.require_minimal_varint && VarintIsPadded(p, len)) {
          return Invalid(begin, "varint has a redundant leading sign byte");
        }
        *out = Value::Varint(ReadVarint(p, len));
        return absl::OkStatus();
      case Kind::kDecimal: {
        // v4 spec 6.6: an [int] scale, then a varint of at least one byte. Cassandra rejects 1..3
        // bytes and cannot deserialize 4 (docs/cql.md, "Decode rules"), so every length below 5 is
        // an error.
        if (len < 5) {
          return Invalid(begin, absl::StrCat("decimal needs a 4-byte scale and at least one "
                                             "unscaled byte, got ",
                                             len, " bytes"));
        }
        // The unscaled varint starts after the 4-byte scale; a padded one is reported there.
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
    // The switch names every Kind, so this is reached only by a value outside the enum.
    return Invalid(begin, "unknown kind");
  }

 private:
  // InvalidArgument: a field holds a value the type does not allow. OutOfRange (Truncated): the
  // input ends inside a field, or a length or count claims more than remains (codec.h). Both put
  // the offset in the status payload, which the harness compares, and in the message, for people.
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

  // v5 spec section 6.8: three signed [vint]s (section 3), zigzag encoded: months, days and
  // nanoseconds. Each error is at the start of the vint concerned, except the sign rule, which
  // concerns the three together and is reported at the duration's start. The trailing-bytes check
  // comes before the sign check, in the reference decoder too, so that both report the same offset
  // when an input breaks both rules.
  absl::Status ReadDuration(size_t begin, size_t end, Value* out) {
    const absl::Span<const uint8_t> in(data_ + begin, end - begin);
    size_t off = 0;
    int64_t parts[3];
    for (int i = 0; i < 3; ++i) {
      const size_t start = off;
      absl::StatusOr<uint64_t> raw = varint::Read(varint::Format::kVInt, in, &off);
      // A vint's first byte says how many bytes follow, so Read fails here only when the payload
      // ends inside the vint: a truncation, at the vint's first byte.
      if (!raw.ok()) {
        return Truncated(begin + start, absl::StrCat("duration component ", i, " is truncated"));
      }
      // The default accepts a longer-than-needed vint, as it accepts a padded varint;
      // require_minimal_varint refuses it.
      if (options_.require_minimal_varint &&
          varint::EncodedSize(varint::Format::kVInt, *raw) != off - start) {
        return Invalid(begin + start,
                       absl::StrCat("duration component ", i, " is a non-minimal vint"));
      }
      parts[i] = varint::DecodeZigZag64(*raw);
      // Months and days are 32-bit (Cassandra rejects wider ones, and Duration holds int32);
      // nanoseconds take the whole int64.
      if (i < 2 && (parts[i] < std::numeric_limits<int32_t>::min() ||
                    parts[i] > std::numeric_limits<int32_t>::max())) {
        return Invalid(begin + start,
                       absl::StrCat(i == 0 ? "months " : "days ", parts[i], " exceed int32"));
      }
    }
    // Cassandra ignores bytes after the third vint; the strict flag rejects them at the first one.
    if (off != in.size() && options_.reject_duration_trailing_bytes) {
      return Invalid(begin + off, "bytes left after the duration's three vints");
    }
    // v5 spec 6.8: the components are all >= 0 or all <= 0.
    const bool non_negative = parts[0] >= 0 && parts[1] >= 0 && parts[2] >= 0;
    const bool non_positive = parts[0] <= 0 && parts[1] <= 0 && parts[2] <= 0;
    if (!non_negative && !non_positive) {
      return Invalid(begin, "duration components of mixed signs");
    }
    *out = Value::FromDuration(
        Duration{static_cast<int32_t>(parts[0]), static_cast<int32_t>(parts[1]), parts[2]});
    return absl::OkStatus();
  }

  // How many items a loop over [pos, end) starts, so that its vector is reserved exactly once:
  // up to `max` items, each a length prefix of `prefix` bytes (a negative [int] length: no body)
  // and its body; the first item whose prefix or body does not fit is counted too (the loop
  // starts it, then fails). stop_at_end: the loop starts no item where the bytes end (a tuple or
  // UDT value that stops early). The walk steps over the bodies, so a length prefix inside an
  // item is counted only by that item's own loop: however deeply collections, tuples and UDTs
  // nest, the items reserved at all levels together are at most one per length prefix in the
  // input (not one per 4 bytes of each level's span, which nested levels would count again), and
  // none for a field a short tuple or UDT value does not have.
  size_t ItemsStarted(size_t pos, size_t end, size_t max, size_t prefix, bool stop_at_end) const {
    size_t n = 0;
    while (n < max) {
      if (stop_at_end && pos == end) break;
      ++n;
      if (end - pos < prefix) break;
      const int64_t len = prefix == 2
                              ? static_cast<int64_t>(Load16(data_ + pos))
                              : static_cast<int64_t>(static_cast<int32_t>(Load32(data_ + pos)));
      pos += prefix;
      if (len <= 0) continue;
      if (static_cast<uint64_t>(len) > end - pos) break;
      pos += static_cast<size_t>(len);
    }
    return n;
  }

  // One [bytes] / [short bytes] item at *pos (< end), decoded as `t` into `out`.
  // [bytes] (v4 spec section 3): an [int] length n, then n bytes; n < 0 is null. [short bytes]
  // (v1/v2 top-level collections): a [short] length, which is unsigned, so it has no null form (the
  // encoders refuse a null element there). The length is checked against the bytes after it before
  // the payload is read, and a length too long is reported at the length itself, not where the
  // bytes run out (docs/architecture.md, "Error offsets").
  absl::Status ReadItem(const Type& t, size_t* pos, size_t end, bool short_prefix, Value* out) {
    const size_t at = *pos;
    const size_t prefix = short_prefix ? 2 : 4;
    if (end - at < prefix) return Truncated(at, "item length is truncated");
    int64_t n;
    if (short_prefix) {
      n = Load16(data_ + at);
    } else {
      n = static_cast<int32_t>(Load32(data_ + at));
      // Cassandra reads every negative length as null; reject_negative_lengths keeps only -1.
      if (n == -1 || (n < 0 && !options_.reject_negative_lengths)) {
        *pos = at + 4;
        *out = Value::Null();
        return absl::OkStatus();
      }
      // Reached only with reject_negative_lengths. Unset exists only as a top-level [value]
      // (codec.h): -2 gets its own message, but the same class and offset as any length below -1.
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

  // v4 spec 6.11-6.13: an [int] count, then that many [bytes] elements, two per map entry (key and
  // value, read alternately into one flat list that Value::Pairs pairs up); v1/v2 top level:
  // [short] count and lengths. The count is checked against the remaining bytes at the smallest
  // size an element can take (a bare length prefix: a null or empty element) before `items`
  // reserves anything, so a huge claimed count fails at the count's own offset and allocates only
  // the error status (codec.h; test CqlMemory.ClaimedCountIsCheckedBeforeReserving).
  absl::Status ReadCollection(const Type& t, size_t begin, size_t end, bool short_form,
                              Value* out) {
    const bool map = t.kind == Kind::kMap;
    const size_t header = short_form ? 2 : 4;
    if (end - begin < header) return Truncated(begin, "collection count is truncated");
    // A [short] count is unsigned. A negative [int] count is rejected: Cassandra's validate loops
    // zero times over it, but its deserialize rejects it (docs/cql.md, "Decode rules").
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
    items.reserve(ItemsStarted(begin + header, end, n_items, short_form ? 2 : 4, false));
    size_t pos = begin + header;
    for (size_t i = 0; i < n_items; ++i) {
      const Type& et = map ? t.params[i % 2] : t.params[0];
      items.emplace_back();
      absl::Status st = ReadItem(et, &pos, end, short_form, &items.back());
      if (!st.ok()) return st;
    }
    // Cassandra rejects bytes after the last element; the error is at the first of them.
    if (pos != end) {
      return Invalid(pos, absl::StrCat(end - pos, " bytes left after the last element"));
    }
    *out = map ? Value::Pairs(std::move(items)) : Value::Items(std::move(items));
    return absl::OkStatus();
  }

  // Tuples (v4 spec 6.20) and UDTs (v4 spec section 7): one [bytes] per component or field, with an
  // [int] length also in v1/v2. A value may stop before its type's last item (see below); bytes
  // after the last item the type has are rejected, as Cassandra rejects them (docs/cql.md, "Decode
  // rules").
  absl::Status ReadComponents(const Type& t, size_t begin, size_t end, Value* out) {
    const bool tuple = t.kind == Kind::kTuple;
    std::vector<Value> items;
    // The components present, whatever the (caller-supplied) type declares.
    items.reserve(ItemsStarted(begin, end, t.params.size(), 4, true));
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
    // Missing trailing fields / components read as null (Cassandra's rule); the value keeps only
    // the items present, so that a short item costs no Value per field it lacks (docs/cql.md,
    // "Decoder heap"): FormatValue shows the difference and Serialize writes the same bytes back.
    *out = Value::Items(std::move(items));
    return absl::OkStatus();
  }

  const uint8_t* data_;
  DecodeOptions options_;
};

// What both entry points check before reading any input byte. The decoder recurses along the type
// (an item of a collection, tuple or UDT is decoded as one of its parameters), so bounding the
// type's depth by max_depth bounds the recursion, whatever the input says.
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

// A payload has no length prefix: its end is the input's end. `version < 3` selects the [short]
// form for the top-level collection only.
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

// [value] (v4 spec section 3): an [int] n, then n bytes; -1 is null, -2 unset, below -2 an error.
// Before v4 the value is a [bytes] (v3 spec section 3): every negative n is null, as Cassandra's
// CBUtil.readBoundValue reads it for the older versions. Offsets count from the length's first
// byte, so the payload starts at offset 4.
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
  // Unset exists from protocol v4 on (docs/cql.md); before it, any negative length is null (only
  // -1 with reject_negative_lengths, as for an item).
  if (version < 4 && n < -1 && options.reject_negative_lengths) {
    return InvalidAt(0, absl::StrCat("cql decode: [bytes] length ", n, " is below -1"));
  }
  const bool null_or_unset = version < 4 ? n < 0 : (n == -1 || n == -2);
  if (null_or_unset) {
    // Null and unset have no bytes after the length; the first extra byte is at offset 4.
    if (framed.size() != 4) {
      return InvalidAt(
          4, absl::StrCat("cql decode: ", framed.size() - 4, " bytes after a null/unset [value]"));
    }
    return n == -2 && version >= 4 ? Value::Unset() : Value::Null();
  }
  if (n < 0) return InvalidAt(0, absl::StrCat("cql decode: [value] length ", n, " is below -2"));
  const size_t remaining = framed.size() - 4;
  // A length longer than what remains is wrong at the length itself (offset 0), before anything is
  // read; a shorter one leaves bytes after the value, reported at the first of them.
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
