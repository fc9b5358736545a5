// Typed fast path for collections of fixed-width CQL elements: see typed.h.
#include "serdiff/cql/typed.h"

#include <bit>
#include <cstring>
#include <limits>
#include <optional>
#include <type_traits>

#include "absl/strings/str_cat.h"
#include "serdiff/common/error_offset.h"
#include "serdiff/common/fill_string.h"
#include "serdiff/cql/typed_tiers.h"
#include "serdiff/cql/wire_bytes.h"

namespace serdiff::cql {
namespace {

constexpr int64_t kMaxTimeNanos = 86'399'999'999'999;
using namespace wire;  // NOLINT(google-build-using-namespace): the wire primitives

// Whether C++ type T is the element type of kind k (typed.h).
template <typename T>
bool KindMatches(Kind k) {
  if constexpr (std::is_same_v<T, bool>) return k == Kind::kBoolean;
  if constexpr (std::is_same_v<T, int8_t>) return k == Kind::kTinyint;
  if constexpr (std::is_same_v<T, int16_t>) return k == Kind::kSmallint;
  if constexpr (std::is_same_v<T, int32_t>) return k == Kind::kInt || k == Kind::kDate;
  if constexpr (std::is_same_v<T, int64_t>) {
    return k == Kind::kBigint || k == Kind::kCounter || k == Kind::kTimestamp || k == Kind::kTime;
  }
  if constexpr (std::is_same_v<T, float>) return k == Kind::kFloat;
  if constexpr (std::is_same_v<T, double>) return k == Kind::kDouble;
  if constexpr (std::is_same_v<T, Uuid>) return k == Kind::kUuid || k == Kind::kTimeuuid;
  return false;
}

// Writes the big-endian payload of one element (width FixedWidth(k)).
template <typename T>
inline void PutValue(Kind k, const T& v, uint8_t* p) {
  if constexpr (std::is_same_v<T, bool>) {
    *p = v ? 1 : 0;
  } else if constexpr (std::is_same_v<T, int8_t>) {
    *p = static_cast<uint8_t>(v);
  } else if constexpr (std::is_same_v<T, int16_t>) {
    Store16(p, static_cast<uint16_t>(v));
  } else if constexpr (std::is_same_v<T, int32_t>) {
    // date: signed days -> the biased unsigned wire value (v4 spec 6.5).
    Store32(p,
            k == Kind::kDate ? static_cast<uint32_t>(v) ^ 0x80000000u : static_cast<uint32_t>(v));
  } else if constexpr (std::is_same_v<T, int64_t>) {
    Store64(p, static_cast<uint64_t>(v));
  } else if constexpr (std::is_same_v<T, float>) {
    Store32(p, std::bit_cast<uint32_t>(v));
  } else if constexpr (std::is_same_v<T, double>) {
    Store64(p, std::bit_cast<uint64_t>(v));
  } else {
    std::memcpy(p, v.data(), 16);
  }
}

template <typename T>
inline T GetValue(Kind k, const uint8_t* p) {
  if constexpr (std::is_same_v<T, bool>) {
    return *p != 0;
  } else if constexpr (std::is_same_v<T, int8_t>) {
    return static_cast<int8_t>(*p);
  } else if constexpr (std::is_same_v<T, int16_t>) {
    return static_cast<int16_t>(Load16(p));
  } else if constexpr (std::is_same_v<T, int32_t>) {
    const uint32_t raw = Load32(p);
    return static_cast<int32_t>(k == Kind::kDate ? raw ^ 0x80000000u : raw);
  } else if constexpr (std::is_same_v<T, int64_t>) {
    return static_cast<int64_t>(Load64(p));
  } else if constexpr (std::is_same_v<T, float>) {
    return std::bit_cast<float>(Load32(p));
  } else if constexpr (std::is_same_v<T, double>) {
    return std::bit_cast<double>(Load64(p));
  } else {
    Uuid u;
    std::memcpy(u.data(), p, 16);
    return u;
  }
}

// The Value path's value checks (codec_internal.h FixedValueOk): time range, timeuuid version.
template <typename T>
inline bool ValueOk(Kind k, const T& v) {
  if constexpr (std::is_same_v<T, int64_t>) {
    return k != Kind::kTime || (v >= 0 && v <= kMaxTimeNanos);
  } else if constexpr (std::is_same_v<T, Uuid>) {
    return k != Kind::kTimeuuid || (v[6] >> 4) == 1;
  } else {
    return true;
  }
}

size_t CountNulls(absl::Span<const uint8_t> nulls, size_t n) {
  if (nulls.empty()) return 0;
  size_t count = 0;
  const size_t full = n / 8;
  for (size_t i = 0; i < full; ++i) count += static_cast<size_t>(std::popcount(nulls[i]));
  if (n % 8 != 0) {
    const uint8_t mask = static_cast<uint8_t>((1u << (n % 8)) - 1);
    count += static_cast<size_t>(std::popcount(static_cast<uint8_t>(nulls[full] & mask)));
  }
  return count;
}

absl::Status EncodeError(absl::string_view what) {
  return absl::InvalidArgumentError(absl::StrCat("cql typed encode: ", what));
}

// Checks one column for a collection in `version`; returns its null count.
template <typename T>
absl::StatusOr<size_t> CheckColumn(Kind k, ColumnView<T> col, int version) {
  if (version < kMinProtocolVersion || version > kMaxProtocolVersion) {
    return EncodeError(absl::StrCat("protocol version ", version, " is not in 1..5"));
  }
  if (!KindMatches<T>(k)) {
    return EncodeError(absl::StrCat(KindName(k), " is not the kind of this element type"));
  }
  const size_t n = col.values.size();
  if (!col.nulls.empty() && col.nulls.size() < (n + 7) / 8) {
    return EncodeError(
        absl::StrCat("null bitmap of ", col.nulls.size(), " bytes for ", n, " elements"));
  }
  if (n > (version < 3 ? kMaxShortLength : kMaxIntLength)) {
    return EncodeError(absl::StrCat("collection of ", n, " elements exceeds the count"));
  }
  const size_t nulls = CountNulls(col.nulls, n);
  if (nulls != 0 && version < 3) {
    return EncodeError("a null element cannot be written with a [short] length (v1/v2)");
  }
  if constexpr (std::is_same_v<T, int64_t> || std::is_same_v<T, Uuid>) {
    for (size_t i = 0; i < n; ++i) {
      if (!NullBit(col.nulls, i) && !ValueOk(k, col.values[i])) {
        return EncodeError(absl::StrCat("element ", i, " is not a valid ", KindName(k)));
      }
    }
  }
  return nulls;
}

// Writes one element in the v3+ form: its [int] length and payload, or ff ff ff ff for a null.
template <typename T>
inline uint8_t* PutElement(Kind k, const T& v, bool null, uint8_t* p) {
  constexpr size_t kW = std::is_same_v<T, bool> ? 1 : std::is_same_v<T, Uuid> ? 16 : sizeof(T);
  if (null) {
    std::memset(p, 0xFF, 4);
    return p + 4;
  }
  Store32(p, static_cast<uint32_t>(kW));
  PutValue(k, v, p + 4);
  return p + 4 + kW;
}

// Writes the elements of `col` at p (its count already written); returns the end. The 4-byte
// kinds in the v3+ form go to the CPU tier `tier` (typed_tiers.h); the others read the null
// bitmap a byte at a time as the tiers do: 8 values, 8 nulls, or element by element.
template <typename T>
uint8_t* WriteElements(Kind k, ColumnView<T> col, bool short_form, typed_internal::Tier tier,
                       uint8_t* p) {
  const size_t n = col.values.size();
  const T* v = col.values.data();
  constexpr size_t kW = std::is_same_v<T, bool> ? 1 : std::is_same_v<T, Uuid> ? 16 : sizeof(T);
  if (short_form) {  // no nulls here (checked)
    for (size_t i = 0; i < n; ++i) {
      Store16(p, static_cast<uint16_t>(kW));
      PutValue(k, v[i], p + 2);
      p += 2 + kW;
    }
    return p;
  }
  const uint8_t* nulls = col.nulls.empty() ? nullptr : col.nulls.data();
  if constexpr (std::is_same_v<T, int32_t> || std::is_same_v<T, float>) {
    // date: signed days -> the biased unsigned wire value (v4 spec 6.5), as in PutValue.
    const uint32_t flip = k == Kind::kDate ? 0x80000000u : 0;
    return typed_internal::Write4ByteElements(tier, v, n, nulls, flip, p);
  }
  size_t i = 0;
  if (nulls != nullptr) {
    for (; i + 8 <= n; i += 8) {
      const uint8_t bits = nulls[i / 8];
      if (bits == 0xFF) {
        std::memset(p, 0xFF, 32);
        p += 32;
      } else if (bits == 0) {
        for (size_t j = 0; j < 8; ++j) p = PutElement(k, v[i + j], false, p);
      } else {
        for (size_t j = 0; j < 8; ++j) p = PutElement(k, v[i + j], ((bits >> j) & 1) != 0, p);
      }
    }
  }
  for (; i < n; ++i) p = PutElement(k, v[i], NullBit(col.nulls, i), p);
  return p;
}

using ::serdiff::internal::FillString;

absl::Status SizePassDisagrees() {
  return absl::InternalError("cql typed encode: size pass and write pass disagree");
}

// The CPU tier behind a TypedTier (kAuto: the best supported).
typed_internal::Tier TierOf(TypedTier t) {
  return typed_internal::TierOf(t, typed_internal::BestTier());
}

// Writes the count and the elements at p; returns the end.
template <typename T>
uint8_t* WriteList(Kind elem, ColumnView<T> col, int version, typed_internal::Tier tier,
                   uint8_t* p) {
  const bool short_form = version < 3;
  if (short_form) {
    Store16(p, static_cast<uint16_t>(col.values.size()));
    p += 2;
  } else {
    Store32(p, static_cast<uint32_t>(col.values.size()));
    p += 4;
  }
  return WriteElements(elem, col, short_form, tier, p);
}

// ---- decoding ----------------------------------------------------------------------------

absl::Status Invalid(size_t off, absl::string_view what) {
  return WithErrorOffset(
      absl::InvalidArgumentError(absl::StrCat("cql typed decode: offset ", off, ": ", what)),
      static_cast<int64_t>(off));
}
absl::Status Truncated(size_t off, absl::string_view what) {
  return WithErrorOffset(
      absl::OutOfRangeError(absl::StrCat("cql typed decode: offset ", off, ": ", what)),
      static_cast<int64_t>(off));
}
absl::Status NoTypedForm(size_t off, absl::string_view what) {
  return WithErrorOffset(absl::FailedPreconditionError(absl::StrCat(
                             "cql typed decode: offset ", off, ": ", what, " has no typed form")),
                         static_cast<int64_t>(off));
}

// Setup checks, in the Value path's order: version, max_depth range, the type (a collection
// is 1 level deep; kinds must fit T).
absl::Status CheckDecodeSetup(int version, const DecodeOptions& options, bool kinds_ok) {
  if (version < kMinProtocolVersion || version > kMaxProtocolVersion) {
    return InvalidAt(
        0, absl::StrCat("cql typed decode: protocol version ", version, " is not in 1..5"));
  }
  if (options.max_depth < 0 || options.max_depth > kMaxNestingDepth) {
    return InvalidAt(0, "cql typed decode: max_depth is not in 0..64");
  }
  if (options.max_depth < 1) return InvalidAt(0, "cql typed decode: type nested too deeply");
  if (!kinds_ok) return InvalidAt(0, "cql typed decode: kind does not match the element type");
  return absl::OkStatus();
}

// Reads the count at 0; checks it against the smallest entry (`per_entry` bytes).
absl::StatusOr<size_t> ReadCount(const uint8_t* data, size_t size, bool short_form,
                                 size_t per_entry) {
  const size_t header = short_form ? 2 : 4;
  if (size < header) return Truncated(0, "collection count is truncated");
  int64_t count;
  if (short_form) {
    count = Load16(data);
  } else {
    count = static_cast<int32_t>(Load32(data));
    if (count < 0) return Invalid(0, absl::StrCat("negative element count ", count));
  }
  if (static_cast<uint64_t>(count) > (size - header) / per_entry) {
    return Truncated(0, absl::StrCat("count ", count, " needs more bytes than remain"));
  }
  return static_cast<size_t>(count);
}

// Reads element i of `out` at *pos. An empty element is not an error here (the Value path
// accepts it): its offset goes to *empty_at (first one only) and decoding goes on, so that
// the typed path reports exactly the Value path's error whenever that one fails.
template <typename T>
absl::Status ReadElement(Kind k, const uint8_t* data, size_t size, bool short_form,
                         const DecodeOptions& options, size_t* pos, size_t i, Column<T>* out,
                         std::optional<size_t>* empty_at) {
  constexpr size_t kW = std::is_same_v<T, bool> ? 1 : std::is_same_v<T, Uuid> ? 16 : sizeof(T);
  const size_t at = *pos;
  const size_t prefix = short_form ? 2 : 4;
  if (size - at < prefix) return Truncated(at, "item length is truncated");
  int64_t n;
  if (short_form) {
    n = Load16(data + at);
  } else {
    n = static_cast<int32_t>(Load32(data + at));
    if (n == -1 || (n < 0 && !options.reject_negative_lengths)) {
      if (out->nulls.empty()) out->nulls.assign((out->values.size() + 7) / 8, 0);
      out->nulls[i / 8] = static_cast<uint8_t>(out->nulls[i / 8] | (1u << (i % 8)));
      *pos = at + 4;
      return absl::OkStatus();
    }
    if (n == -2) return Invalid(at, "unset (-2) is not allowed inside a value");
    if (n < 0) return Invalid(at, absl::StrCat("negative item length ", n));
  }
  const size_t body = at + prefix;
  if (static_cast<uint64_t>(n) > size - body) {
    return Truncated(at, absl::StrCat("item length ", n, " exceeds the bytes that remain"));
  }
  if (n == 0) {
    if (options.reject_empty_where_cassandra_does && CassandraRejectsEmpty(k)) {
      return Invalid(body, absl::StrCat(KindName(k),
                                        " has no empty value (Cassandra's validator "
                                        "wants its bytes)"));
    }
    if (!empty_at->has_value()) *empty_at = body;
    *pos = body;
    return absl::OkStatus();
  }
  if (static_cast<size_t>(n) != kW) {
    return Invalid(body, absl::StrCat(KindName(k), " needs ", kW, " bytes, got ", n));
  }
  const T v = GetValue<T>(k, data + body);
  if constexpr (std::is_same_v<T, int64_t>) {
    if (k == Kind::kTime && options.require_time_in_day && !ValueOk(k, v)) {
      return Invalid(body, "time outside 0..86399999999999");
    }
  } else if constexpr (std::is_same_v<T, Uuid>) {
    if (!ValueOk(k, v)) return Invalid(body + 6, "timeuuid is not a version 1 UUID");
  }
  out->values[i] = v;
  *pos = body + kW;
  return absl::OkStatus();
}

}  // namespace

template <typename T>
absl::StatusOr<size_t> FixedListSize(Kind elem, ColumnView<T> col, int version) {
  absl::StatusOr<size_t> nulls = CheckColumn(elem, col, version);
  if (!nulls.ok()) return nulls.status();
  const size_t n = col.values.size();
  const size_t w = static_cast<size_t>(FixedWidth(elem));
  const size_t prefix = version < 3 ? 2 : 4;
  return prefix + n * prefix + (n - *nulls) * w;
}

std::string_view TypedTierName(TypedTier tier) {
  return tier == TypedTier::kAuto ? "auto" : typed_internal::TierName(TierOf(tier));
}

bool TypedTierSupported(TypedTier tier) {
  return tier == TypedTier::kAuto || typed_internal::TierSupported(TierOf(tier));
}

TypedTier AutoTypedTier() {
  switch (typed_internal::BestTier()) {
    case typed_internal::Tier::kSsse3:
      return TypedTier::kSsse3;
    case typed_internal::Tier::kAvx2:
      return TypedTier::kAvx2;
    case typed_internal::Tier::kAvx512:
      return TypedTier::kAvx512;
    case typed_internal::Tier::kPortable:
    case typed_internal::Tier::kAvx512Emulated:  // never BestTier's
      break;
  }
  return TypedTier::kPortable;
}

template <typename T>
absl::StatusOr<std::string> SerializeFixedList(Kind elem, ColumnView<T> col, int version,
                                               TypedTier tier) {
  if (!TypedTierSupported(tier)) {
    return EncodeError(
        absl::StrCat("tier ", std::string(TypedTierName(tier)), " is not supported here"));
  }
  absl::StatusOr<size_t> size = FixedListSize(elem, col, version);
  if (!size.ok()) return size.status();
  const typed_internal::Tier t = TierOf(tier);
  std::string out;
  if (!FillString(
          *size, [&](uint8_t* p) { return WriteList(elem, col, version, t, p); }, &out)) {
    return SizePassDisagrees();
  }
  return out;
}

template <typename T>
absl::StatusOr<std::string> SerializeFixedList(Kind elem, ColumnView<T> col, int version) {
  return SerializeFixedList(elem, col, version, TypedTier::kAuto);
}

template <typename T>
absl::StatusOr<size_t> SerializeFixedListInto(Kind elem, ColumnView<T> col, int version,
                                              absl::Span<uint8_t> out, TypedTier tier) {
  if (!TypedTierSupported(tier)) {
    return EncodeError(
        absl::StrCat("tier ", std::string(TypedTierName(tier)), " is not supported here"));
  }
  absl::StatusOr<size_t> size = FixedListSize(elem, col, version);
  if (!size.ok()) return size.status();
  if (out.size() < *size) {
    return EncodeError(
        absl::StrCat("output buffer of ", out.size(), " bytes, the payload needs ", *size));
  }
  if (WriteList(elem, col, version, TierOf(tier), out.data()) != out.data() + *size) {
    return SizePassDisagrees();
  }
  return *size;
}

template <typename K, typename V>
absl::StatusOr<std::string> SerializeFixedMap(Kind key_kind, ColumnView<K> keys, Kind value_kind,
                                              ColumnView<V> values, int version) {
  if (keys.values.size() != values.values.size()) {
    return EncodeError("map key and value columns differ in length");
  }
  absl::StatusOr<size_t> key_nulls = CheckColumn(key_kind, keys, version);
  if (!key_nulls.ok()) return key_nulls.status();
  absl::StatusOr<size_t> value_nulls = CheckColumn(value_kind, values, version);
  if (!value_nulls.ok()) return value_nulls.status();
  const size_t n = keys.values.size();
  const size_t prefix = version < 3 ? 2 : 4;
  const size_t kw = static_cast<size_t>(FixedWidth(key_kind));
  const size_t vw = static_cast<size_t>(FixedWidth(value_kind));
  const size_t size = prefix + 2 * n * prefix + (n - *key_nulls) * kw + (n - *value_nulls) * vw;
  auto write = [&](uint8_t* p) {
    if (prefix == 2) {
      Store16(p, static_cast<uint16_t>(n));
    } else {
      Store32(p, static_cast<uint32_t>(n));
    }
    p += prefix;
    auto put = [&](auto kind, const auto& v, bool null, size_t w) {
      if (null) {
        std::memset(p, 0xFF, 4);
        p += 4;
        return;
      }
      if (prefix == 2) {
        Store16(p, static_cast<uint16_t>(w));
      } else {
        Store32(p, static_cast<uint32_t>(w));
      }
      PutValue(kind, v, p + prefix);
      p += prefix + w;
    };
    for (size_t i = 0; i < n; ++i) {
      put(key_kind, keys.values[i], NullBit(keys.nulls, i), kw);
      put(value_kind, values.values[i], NullBit(values.nulls, i), vw);
    }
    return p;
  };
  std::string out;
  if (!FillString(size, write, &out)) return SizePassDisagrees();
  return out;
}

template <typename T>
absl::StatusOr<Column<T>> DeserializeFixedList(Kind elem, std::string_view payload, int version,
                                               const DecodeOptions& options) {
  absl::Status st = CheckDecodeSetup(version, options, KindMatches<T>(elem));
  if (!st.ok()) return st;
  if (payload.empty()) return NoTypedForm(0, "an empty payload");
  const uint8_t* data = reinterpret_cast<const uint8_t*>(payload.data());
  const size_t size = payload.size();
  const bool short_form = version < 3;
  absl::StatusOr<size_t> count = ReadCount(data, size, short_form, short_form ? 2 : 4);
  if (!count.ok()) return count.status();
  Column<T> out;
  out.values.resize(*count);  // checked: the count fits in the input
  std::optional<size_t> empty_at;
  size_t pos = short_form ? 2 : 4;
  constexpr size_t kW = std::is_same_v<T, bool> ? 1 : std::is_same_v<T, Uuid> ? 16 : sizeof(T);
  // Fast path: int elements with no null, no empty and no odd length.
  if constexpr (std::is_same_v<T, int32_t>) {
    if (!short_form && elem == Kind::kInt && size - pos >= 8 * *count) {
      size_t i = 0;
      const uint8_t* p = data + pos;
      for (; i < *count; ++i) {
        if (Load32(p + 8 * i) != kW) break;
        out.values[i] = static_cast<int32_t>(Load32(p + 8 * i + 4));
      }
      pos += 8 * i;
      for (; i < *count; ++i) {
        st = ReadElement(elem, data, size, short_form, options, &pos, i, &out, &empty_at);
        if (!st.ok()) return st;
      }
      if (pos != size) return Invalid(pos, "bytes left after the last element");
      if (empty_at.has_value()) return NoTypedForm(*empty_at, "an empty element");
      return out;
    }
  }
  for (size_t i = 0; i < *count; ++i) {
    st = ReadElement(elem, data, size, short_form, options, &pos, i, &out, &empty_at);
    if (!st.ok()) return st;
  }
  if (pos != size) return Invalid(pos, "bytes left after the last element");
  if (empty_at.has_value()) return NoTypedForm(*empty_at, "an empty element");
  return out;
}

template <typename K, typename V>
absl::StatusOr<std::pair<Column<K>, Column<V>>> DeserializeFixedMap(Kind key_kind, Kind value_kind,
                                                                    std::string_view payload,
                                                                    int version,
                                                                    const DecodeOptions& options) {
  absl::Status st =
      CheckDecodeSetup(version, options, KindMatches<K>(key_kind) && KindMatches<V>(value_kind));
  if (!st.ok()) return st;
  if (payload.empty()) return NoTypedForm(0, "an empty payload");
  const uint8_t* data = reinterpret_cast<const uint8_t*>(payload.data());
  const size_t size = payload.size();
  const bool short_form = version < 3;
  absl::StatusOr<size_t> count = ReadCount(data, size, short_form, short_form ? 4 : 8);
  if (!count.ok()) return count.status();
  std::pair<Column<K>, Column<V>> out;
  out.first.values.resize(*count);
  out.second.values.resize(*count);
  size_t pos = short_form ? 2 : 4;
  std::optional<size_t> empty_at;
  for (size_t i = 0; i < *count; ++i) {
    st = ReadElement(key_kind, data, size, short_form, options, &pos, i, &out.first, &empty_at);
    if (!st.ok()) return st;
    st = ReadElement(value_kind, data, size, short_form, options, &pos, i, &out.second, &empty_at);
    if (!st.ok()) return st;
  }
  if (pos != size) return Invalid(pos, "bytes left after the last element");
  if (empty_at.has_value()) return NoTypedForm(*empty_at, "an empty element");
  return out;
}

// Explicit instantiations: every element type, and every pair for maps.
#define SERDIFF_CQL_TYPED_LIST(T)                                                                  \
  template absl::StatusOr<size_t> FixedListSize<T>(Kind, ColumnView<T>, int);                      \
  template absl::StatusOr<std::string> SerializeFixedList<T>(Kind, ColumnView<T>, int);            \
  template absl::StatusOr<std::string> SerializeFixedList<T>(Kind, ColumnView<T>, int, TypedTier); \
  template absl::StatusOr<size_t> SerializeFixedListInto<T>(Kind, ColumnView<T>, int,              \
                                                            absl::Span<uint8_t>, TypedTier);       \
  template absl::StatusOr<Column<T>> DeserializeFixedList<T>(Kind, std::string_view, int,          \
                                                             const DecodeOptions&);
#define SERDIFF_CQL_TYPED_MAP(K, V)                                                       \
  template absl::StatusOr<std::string> SerializeFixedMap<K, V>(Kind, ColumnView<K>, Kind, \
                                                               ColumnView<V>, int);       \
  template absl::StatusOr<std::pair<Column<K>, Column<V>>> DeserializeFixedMap<K, V>(     \
      Kind, Kind, std::string_view, int, const DecodeOptions&);
#define SERDIFF_CQL_TYPED_MAPS(K)   \
  SERDIFF_CQL_TYPED_MAP(K, bool)    \
  SERDIFF_CQL_TYPED_MAP(K, int8_t)  \
  SERDIFF_CQL_TYPED_MAP(K, int16_t) \
  SERDIFF_CQL_TYPED_MAP(K, int32_t) \
  SERDIFF_CQL_TYPED_MAP(K, int64_t) \
  SERDIFF_CQL_TYPED_MAP(K, float)   \
  SERDIFF_CQL_TYPED_MAP(K, double)  \
  SERDIFF_CQL_TYPED_MAP(K, Uuid)
#define SERDIFF_CQL_TYPED_ALL(T) SERDIFF_CQL_TYPED_LIST(T) SERDIFF_CQL_TYPED_MAPS(T)
SERDIFF_CQL_TYPED_ALL(bool)
SERDIFF_CQL_TYPED_ALL(int8_t)
SERDIFF_CQL_TYPED_ALL(int16_t)
SERDIFF_CQL_TYPED_ALL(int32_t)
SERDIFF_CQL_TYPED_ALL(int64_t)
SERDIFF_CQL_TYPED_ALL(float)
SERDIFF_CQL_TYPED_ALL(double)
SERDIFF_CQL_TYPED_ALL(Uuid)

}  // namespace serdiff::cql
