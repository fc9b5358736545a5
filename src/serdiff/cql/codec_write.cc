// Optimized CQL value codec, write pass: writes a value that the size pass (codec_size.cc)
// has validated into a buffer of exactly the predicted size, without checks of its own. One
// exception, the one-pass route below: a short list or set of a fixed-width type is validated
// and written at once, and gives the value back to the two passes at the first bad element.
#include <algorithm>
#include <cstring>
#include <string>
#include <vector>

#include "absl/strings/str_cat.h"
#include "serdiff/common/fill_string.h"
#include "serdiff/cql/codec_internal.h"
#include "serdiff/cql/typed.h"
#include "serdiff/cql/value_tiers.h"
#include "serdiff/varint/varint.h"

namespace serdiff::cql {
namespace {

using namespace codec_internal;  // NOLINT(google-build-using-namespace)

uint8_t* WritePayload(const Type& t, const Value& v, uint8_t* p, bool short_collection);

inline uint8_t* WriteElement(const Type& t, const Value& e, uint8_t* p, bool short_prefix) {
  switch (e.shape()) {
    case Value::Shape::kNull:
      Store32(p, 0xFFFFFFFFu);
      return p + 4;
    case Value::Shape::kEmpty:
      if (short_prefix) {
        Store16(p, 0);
        return p + 2;
      }
      Store32(p, 0);
      return p + 4;
    default:
      break;
  }
  const size_t prefix = short_prefix ? 2 : 4;
  if (const int w = FixedWidth(t.kind); w != 0) {  // the length is known: no back-patching
    if (short_prefix) {
      Store16(p, static_cast<uint16_t>(w));
    } else {
      Store32(p, static_cast<uint32_t>(w));
    }
    return WriteFixed(t.kind, e, p + prefix);
  }
  uint8_t* const body = p + prefix;
  uint8_t* const end = WritePayload(t, e, body, false);
  const size_t n = static_cast<size_t>(end - body);
  if (short_prefix) {
    Store16(p, static_cast<uint16_t>(n));
  } else {
    Store32(p, static_cast<uint32_t>(n));
  }
  return end;
}

// The elements of a list/set of fixed-width kind K: length prefix and value written inline;
// null and empty elements go through WriteElement.
template <Kind K>
uint8_t* WriteFixedItems(const Type& et, const std::vector<Value>& items, uint8_t* p,
                         bool short_collection) {
  constexpr int kWidth = FixedWidth(K);
  constexpr Value::Shape kShape = ShapeOfKind(K);
  if (short_collection) {
    for (const Value& e : items) {
      if (e.shape() != kShape) {
        p = WriteElement(et, e, p, true);
        continue;
      }
      Store16(p, static_cast<uint16_t>(kWidth));
      p = WriteFixed(K, e, p + 2);
    }
    return p;
  }
  for (const Value& e : items) {
    if (e.shape() != kShape) {
      p = WriteElement(et, e, p, false);
      continue;
    }
    Store32(p, static_cast<uint32_t>(kWidth));
    p = WriteFixed(K, e, p + 4);
  }
  return p;
}

uint8_t* WritePayload(const Type& t, const Value& v, uint8_t* p, bool short_collection) {
  if (v.is_empty()) return p;
  switch (t.kind) {
    case Kind::kBoolean:
    case Kind::kTinyint:
    case Kind::kSmallint:
    case Kind::kInt:
    case Kind::kDate:
    case Kind::kBigint:
    case Kind::kCounter:
    case Kind::kTimestamp:
    case Kind::kTime:
    case Kind::kFloat:
    case Kind::kDouble:
    case Kind::kUuid:
    case Kind::kTimeuuid:
      return WriteFixed(t.kind, v, p);
    case Kind::kText:
    case Kind::kAscii:
    case Kind::kBlob:
    case Kind::kInet: {
      const std::string& s = v.bytes();
      std::memcpy(p, s.data(), s.size());
      return p + s.size();
    }
    case Kind::kVarint:
      return WriteVarint(v.varint(), p);
    case Kind::kDecimal:
      Store32(p, static_cast<uint32_t>(v.decimal().scale));
      return WriteVarint(v.decimal().unscaled, p + 4);
    case Kind::kDuration: {
      using varint::Format;
      const Duration& d = v.duration();
      p = varint::WriteToArray(Format::kVInt, varint::EncodeZigZag64(d.months), p);
      p = varint::WriteToArray(Format::kVInt, varint::EncodeZigZag64(d.days), p);
      return varint::WriteToArray(Format::kVInt, varint::EncodeZigZag64(d.nanos), p);
    }
    case Kind::kList:
    case Kind::kSet: {
      const std::vector<Value>& items = v.items();
      if (short_collection) {
        Store16(p, static_cast<uint16_t>(items.size()));
        p += 2;
      } else {
        Store32(p, static_cast<uint32_t>(items.size()));
        p += 4;
      }
      const Type& et = t.params[0];
      const int w = FixedWidth(et.kind);
      if (w == 0) {
        for (const Value& e : items) p = WriteElement(et, e, p, short_collection);
        return p;
      }
      return DispatchFixed(et.kind, [&](auto kind) {
        return WriteFixedItems<decltype(kind)::value>(et, items, p, short_collection);
      });
    }
    case Kind::kMap: {
      const std::vector<Value>& items = v.items();
      if (short_collection) {
        Store16(p, static_cast<uint16_t>(items.size() / 2));
        p += 2;
      } else {
        Store32(p, static_cast<uint32_t>(items.size() / 2));
        p += 4;
      }
      for (size_t i = 0; i < items.size(); i += 2) {
        p = WriteElement(t.params[0], items[i], p, short_collection);
        p = WriteElement(t.params[1], items[i + 1], p, short_collection);
      }
      return p;
    }
    case Kind::kTuple:
    case Kind::kUdt: {
      const std::vector<Value>& items = v.items();
      for (size_t i = 0; i < items.size(); ++i) p = WriteElement(t.params[i], items[i], p, false);
      return p;
    }
  }
  return p;
}

// ---- one pass for a list or set of fixed-width elements --------------------------------------
// The size pass and the write pass each read every element, a 48-byte Value; for a list or set
// of a fixed-width type they can be one pass that validates and writes each element into a
// buffer sized for the case without null and empty elements: count + n x (prefix + width).
// Each null or empty element leaves `width` bytes of that buffer unused, and a bad element
// makes the pass give up after the buffer was allocated, so the route is taken only while that
// buffer is at most kOnePassMaxBytes; a longer list takes the two passes and gets an exact
// string. An element that is neither a valid value nor (v3+) a null nor an empty makes the pass
// give up; the two-pass route then finds it again and reports it.
constexpr size_t kOnePassMaxBytes = 32 * 1024;

// `tier` (value_tiers.h) picks the loop over whole blocks of an int or date list: kPortable
// the plain C++ block below, kAvx512 / kAvx512Emulated the vector kernel. Other kinds have the
// plain loop only.
template <Kind K>
uint8_t* WriteFixedItemsValidated(const std::vector<Value>& items, uint8_t* p,
                                  bool short_collection, typed_internal::Tier tier) {
  constexpr uint32_t kWidth = static_cast<uint32_t>(FixedWidth(K));
  constexpr Value::Shape kShape = ShapeOfKind(K);
  if (short_collection) {
    for (const Value& e : items) {
      const Value::Shape s = e.shape();
      if (s == kShape && FixedValueOk(K, e)) [[likely]] {
        uint8_t* const next = WriteFixed(K, e, p + 2);
        Store16(p, static_cast<uint16_t>(kWidth));
        p = next;
        continue;
      }
      if (s != Value::Shape::kEmpty) return nullptr;  // a null has no [short bytes] form
      Store16(p, 0);
      p += 2;
    }
    return p;
  }
  const Value* e = items.data();
  const Value* const end = e + items.size();
  constexpr size_t kBlock = 8;
  while (e != end) {
    bool try_block = true;
    if constexpr (K == Kind::kInt || K == Kind::kDate) {
      if (tier != typed_internal::Tier::kPortable) {
        // Whole blocks while they pass; the block that does not (or the tail) goes element by
        // element below.
        e += value_internal::WriteIntValueBlocks(tier, e, static_cast<size_t>(end - e),
                                                 K == Kind::kDate ? 0x80000000u : 0u, &p);
        if (e == end) break;
        try_block = false;
      }
    }
    // A block of values of the element's shape, all in range, is written without a branch per
    // element; anything else in the block takes the element-by-element loop below.
    if (try_block && static_cast<size_t>(end - e) >= kBlock) {
      bool fast = true;
      for (size_t j = 0; j < kBlock; ++j) fast &= e[j].shape() == kShape;
      if (fast) {
        // Every payload loaded into a local before anything is stored (see LoadFixed).
        decltype(LoadFixed<K>(*e)) x[kBlock];
        for (size_t j = 0; j < kBlock; ++j) {
          x[j] = LoadFixed<K>(e[j]);
          fast &= FixedPayloadOk<K>(x[j]);
        }
        if (fast) {
          for (size_t j = 0; j < kBlock; ++j) {
            Store32(p, kWidth);
            p = StoreFixed<K>(x[j], p + 4);
          }
          e += kBlock;
          continue;
        }
      }
    }
    const Value* const stop = e + std::min<size_t>(kBlock, static_cast<size_t>(end - e));
    for (; e != stop; ++e) {
      const Value::Shape s = e->shape();
      if (s == kShape && FixedValueOk(K, *e)) {
        Store32(p, kWidth);
        p = WriteFixed(K, *e, p + 4);
        continue;
      }
      if (s == Value::Shape::kNull) {
        Store32(p, 0xFFFFFFFFu);
      } else if (s == Value::Shape::kEmpty) {
        Store32(p, 0);
      } else {
        return nullptr;
      }
      p += 4;
    }
  }
  return p;
}

// `v` written in one pass when it is a list or set of a fixed-width type whose buffer fits in
// kOnePassMaxBytes, after `header` bytes left for the caller (SerializeValue's [int] length).
// Returns false, with *out empty, when the route does not apply or an element gave up.
bool SerializeFixedItemsOnePass(const Type& t, const Value& v, int version, size_t header,
                                typed_internal::Tier tier, std::string* out) {
  if ((t.kind != Kind::kList && t.kind != Kind::kSet) || t.params.size() != 1 ||
      v.shape() != Value::Shape::kItems) {
    return false;
  }
  const size_t width = static_cast<size_t>(FixedWidth(t.params[0].kind));
  const std::vector<Value>& items = v.items();
  const bool short_collection = version < 3;
  const size_t prefix = short_collection ? 2 : 4;
  // Multiplied, not divided (a division was about 1 % of a 1,000-int list's call): a vector of
  // 48-byte Values holds under 2^58 of them, so the product of at most 20 each cannot overflow.
  if (width == 0 || items.size() > kOnePassMaxBytes ||
      items.size() * (prefix + width) > kOnePassMaxBytes - header - prefix) {
    return false;
  }
  if (!CheckVersion(version).ok() || !ValidateType(t, kMaxNestingDepth).ok()) return false;
  const size_t max_size = header + prefix + items.size() * (prefix + width);
  return ::serdiff::internal::FillStringAtMost(
      max_size,
      [&](uint8_t* base) -> uint8_t* {
        uint8_t* p = base + header;
        if (short_collection) {
          Store16(p, static_cast<uint16_t>(items.size()));
        } else {
          Store32(p, static_cast<uint32_t>(items.size()));
        }
        p += prefix;
        return DispatchFixed(t.params[0].kind, [&](auto kind) {
          return WriteFixedItemsValidated<decltype(kind)::value>(items, p, short_collection, tier);
        });
      },
      out);
}

absl::Status CheckWritten(size_t written, size_t predicted) {
  if (written == predicted) return absl::OkStatus();
  return absl::InternalError(absl::StrCat("cql encode: wrote ", written,
                                          " bytes but the size pass predicted ", predicted));
}

// The value tree's loop behind a TypedTier (kAuto: the best it supports here).
typed_internal::Tier ValueTreeTierOf(TypedTier t) {
  return typed_internal::TierOf(t, value_internal::BestTier());
}

absl::StatusOr<std::string> SerializeWithTier(const Type& t, const Value& v, int version,
                                              typed_internal::Tier tier) {
  std::string out;
  if (SerializeFixedItemsOnePass(t, v, version, 0, tier, &out)) return out;
  absl::StatusOr<size_t> size = PayloadSize(t, v, version);
  if (!size.ok()) return size.status();
  size_t written = 0;
  const bool exact = ::serdiff::internal::FillString(
      *size,
      [&](uint8_t* base) {
        uint8_t* end = WritePayload(t, v, base, version < 3);
        written = static_cast<size_t>(end - base);
        return end;
      },
      &out);
  if (!exact) return CheckWritten(written, *size);
  return out;
}

absl::StatusOr<std::string> SerializeValueWithTier(const Type& t, const Value& v, int version,
                                                   typed_internal::Tier tier) {
  std::string out;
  if (SerializeFixedItemsOnePass(t, v, version, 4, tier, &out)) {
    // At most kOnePassMaxBytes, far below the [int] length's limit.
    Store32(reinterpret_cast<uint8_t*>(out.data()), static_cast<uint32_t>(out.size() - 4));
    return out;
  }
  absl::StatusOr<size_t> size = SerializedValueSize(t, v, version);
  if (!size.ok()) return size.status();
  size_t written = 0;
  const bool exact = ::serdiff::internal::FillString(
      *size,
      [&](uint8_t* base) {
        if (v.is_null() || v.is_unset()) {
          Store32(base, v.is_null() ? 0xFFFFFFFFu : 0xFFFFFFFEu);
          written = 4;
          return base + 4;
        }
        Store32(base, static_cast<uint32_t>(*size - 4));
        uint8_t* end = WritePayload(t, v, base + 4, version < 3);
        written = static_cast<size_t>(end - base);
        return end;
      },
      &out);
  if (!exact) return CheckWritten(written, *size);
  return out;
}

absl::Status NoSuchTier(TypedTier tier) {
  return absl::InvalidArgumentError(absl::StrCat(
      "cql encode: tier ", std::string(TypedTierName(tier)),
      " is not a value-tree tier this machine runs (the value tree has portable, avx512 and "
      "avx512_emulated)"));
}

}  // namespace

absl::StatusOr<size_t> SerializeTo(const Type& t, const Value& v, int version,
                                   absl::Span<uint8_t> out) {
  absl::StatusOr<size_t> size = PayloadSize(t, v, version);
  if (!size.ok()) return size.status();
  if (out.size() < *size) {
    return absl::ResourceExhaustedError(
        absl::StrCat("cql encode: payload needs ", *size, " bytes, buffer has ", out.size()));
  }
  const uint8_t* end = WritePayload(t, v, out.data(), version < 3);
  absl::Status st = CheckWritten(static_cast<size_t>(end - out.data()), *size);
  if (!st.ok()) return st;
  return *size;
}

absl::StatusOr<std::string> Serialize(const Type& t, const Value& v, int version) {
  return SerializeWithTier(t, v, version, value_internal::BestTier());
}

absl::StatusOr<std::string> Serialize(const Type& t, const Value& v, int version, TypedTier tier) {
  if (!ValueTreeTierSupported(tier)) return NoSuchTier(tier);
  return SerializeWithTier(t, v, version, ValueTreeTierOf(tier));
}

absl::StatusOr<std::string> SerializeValue(const Type& t, const Value& v, int version) {
  return SerializeValueWithTier(t, v, version, value_internal::BestTier());
}

absl::StatusOr<std::string> SerializeValue(const Type& t, const Value& v, int version,
                                           TypedTier tier) {
  if (!ValueTreeTierSupported(tier)) return NoSuchTier(tier);
  return SerializeValueWithTier(t, v, version, ValueTreeTierOf(tier));
}

bool ValueTreeTierSupported(TypedTier tier) {
  return tier == TypedTier::kAuto || value_internal::TierSupported(ValueTreeTierOf(tier));
}

}  // namespace serdiff::cql
