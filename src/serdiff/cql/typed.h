// serdiff::cql typed fast path: list/set/map payloads of fixed-width elements, written
// straight from flat arrays (spans) plus an optional null bitmap and read back into the same
// form — the way drivers hold such columns — instead of one 48-byte Value per element.
//
// Spec: apache/cassandra doc/native_protocol_v4.spec sections 6.11 (list), 6.12 (map), 6.13
// (set) and the fixed-width types of section 6 (int 6.7 ... uuid 6.21); native_protocol_v3.spec
// section 10 (v1/v2 top-level collections: [short] count and [short] element lengths).
// docs/cql.md, "Typed fast path".
//
// Element kinds and their C++ element type (a kind with another T is InvalidArgument):
//   boolean bool | tinyint int8_t | smallint int16_t | int int32_t | date int32_t (signed days
//   since 1970-01-01, as in Value; the wire adds the 2^31 bias) | bigint, counter, timestamp
//   int64_t | time int64_t (ns since midnight) | float float | double double | uuid, timeuuid
//   Uuid (16 bytes, network order).
// Null bitmap: bit i (byte i / 8, least significant bit first) set = element i is null; an
// empty span means no nulls, otherwise it needs at least ceil(n / 8) bytes (InvalidArgument).
//
// Bytes: exactly what serdiff::cql::Serialize writes for the equivalent Value (a list whose
// items are Value::Int/Float/... or Value::Null()): count, then per element its length (4, or
// FF FF FF FF for a null, never an empty value) and its big-endian payload. v1/v2 write a
// [short] count and [short] lengths and cannot express a null (InvalidArgument), nor more
// than 65535 elements. Values are checked as the Value path checks them: time within
// 0..86399999999999, timeuuid of version 1 (InvalidArgument otherwise).
//
// Encoding computes the exact size first (count, nulls by popcount) and makes one allocation,
// the output string, which is not zero-filled before it is written where the standard library
// allows it (C++23 std::string::resize_and_overwrite); nothing else. The element loop reads
// the null bitmap a byte at a time: 8 values, 8 nulls, or a mixed byte element by element. Decoding
// checks the count against the remaining bytes at the smallest element size before allocating, then
// allocates the values (n x sizeof(T)) and, only when a null is present, the bitmap (ceil(n / 8)
// bytes).
//
// Decoding accepts and rejects exactly what serdiff::cql::Deserialize does for the same type
// and options (same error code, same error offset payload), with one addition: where the Value
// path accepts the input but reads a zero-length payload or element (Value::Empty), which has
// no typed form, the typed path returns FailedPrecondition at the first such offset.
#pragma once

#include <cstddef>
#include <cstdint>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "absl/status/statusor.h"
#include "absl/types/span.h"
#include "serdiff/cql/value.h"

namespace serdiff::cql {

// A column to encode: n values and an optional null bitmap (see the file comment). The value
// stored at a null position is ignored.
template <typename T>
struct ColumnView {
  absl::Span<const T> values;
  absl::Span<const uint8_t> nulls;
};

// A decoded column: values (T{} at null positions) and the null bitmap, empty when no
// element is null, else exactly ceil(values.size() / 8) bytes with the unused high bits zero.
template <typename T>
struct Column {
  std::vector<T> values;
  std::vector<uint8_t> nulls;
  bool is_null(size_t i) const { return !nulls.empty() && ((nulls[i / 8] >> (i % 8)) & 1) != 0; }
  ColumnView<T> view() const { return {values, nulls}; }
  friend bool operator==(const Column&, const Column&) = default;
};

// True when bit i of a null bitmap is set (false for an empty bitmap).
inline bool NullBit(absl::Span<const uint8_t> nulls, size_t i) {
  return !nulls.empty() && ((nulls[i / 8] >> (i % 8)) & 1) != 0;
}

// Exact payload size of list/set<elem> holding `col` in `version`, after validating it.
// Example: list<int> [1, null, 3] (v4) -> 4 + 8 + 4 + 8 = 24.
template <typename T>
absl::StatusOr<size_t> FixedListSize(Kind elem, ColumnView<T> col, int version);

// The list/set<elem> payload of `col`. Example: list<int> [1, null] (v4) ->
// 00000002 00000004 00000001 ffffffff; (v2, no null) [1, 2] -> 0002 0004 00000001 0004
// 00000002. Errors (InvalidArgument): version not 1..5, kind not fixed-width or not matching T,
// bitmap too short, a null in v1/v2, more elements than the count can hold, a time or
// timeuuid value the Value path rejects.
template <typename T>
absl::StatusOr<std::string> SerializeFixedList(Kind elem, ColumnView<T> col, int version);

// The implementation of the element loop for the 4-byte kinds (int, date, float) in v3+ lists
// and sets (typed_tiers.h; docs/cql.md, "Typed fast path"): the same bytes from each. kAuto
// runs the fastest this CPU supports (avx512 > avx2 > ssse3 > portable); the others force one,
// so that tests and the harness compare every tier the machine has. Other kinds, v1/v2 and
// maps have one loop, whatever the tier. kAvx512Emulated runs the avx512 kernel's source over
// SIMDe's portable emulation of AVX-512 (typed_tiers.h): on any CPU, many times slower, never
// chosen by kAuto, so that the kernel is checked on machines without AVX-512 too; it exists in
// builds that found SIMDe (Debian: libsimde-dev).
enum class TypedTier : uint8_t { kAuto, kPortable, kSsse3, kAvx2, kAvx512, kAvx512Emulated };

// "auto", "portable", "ssse3", "avx2", "avx512", "avx512_emulated".
std::string_view TypedTierName(TypedTier tier);

// Whether this CPU and build can run `tier` (kAuto and kPortable: always; the x86 tiers only
// on x86-64 CPUs that report SSSE3, AVX2, AVX-512F + AVX-512BW; kAvx512Emulated on any CPU in
// builds that found SIMDe).
bool TypedTierSupported(TypedTier tier);

// The tier kAuto runs on this machine (never kAuto).
TypedTier AutoTypedTier();

// SerializeFixedList with the element loop of `tier`. Same bytes, same errors, plus
// InvalidArgument when !TypedTierSupported(tier).
template <typename T>
absl::StatusOr<std::string> SerializeFixedList(Kind elem, ColumnView<T> col, int version,
                                               TypedTier tier);

// Writes the list/set<elem> payload of `col` into out[0..n) and returns n, the exact size
// FixedListSize gives: no allocation, nothing written past n (the way a driver fills a frame
// buffer it reuses). Errors: those of SerializeFixedList, plus InvalidArgument when out is
// shorter than n (nothing written then) or the tier is not supported.
template <typename T>
absl::StatusOr<size_t> SerializeFixedListInto(Kind elem, ColumnView<T> col, int version,
                                              absl::Span<uint8_t> out,
                                              TypedTier tier = TypedTier::kAuto);

// The map<key, value> payload of keys[i] -> values[i] (entries in the given order; both
// columns of one length, else InvalidArgument). Example: map<int, bigint> {1: null} (v4) ->
// 00000001 00000004 00000001 ffffffff.
template <typename K, typename V>
absl::StatusOr<std::string> SerializeFixedMap(Kind key_kind, ColumnView<K> keys, Kind value_kind,
                                              ColumnView<V> values, int version);

// Reads a whole list/set<elem> payload into a column. Errors: those of Deserialize (code and
// ErrorOffset identical), plus FailedPrecondition for an empty payload or empty element.
// Example: list<int> from 00000001 00000004 0000002a -> values {42}, no nulls.
template <typename T>
absl::StatusOr<Column<T>> DeserializeFixedList(Kind elem, std::string_view payload, int version,
                                               const DecodeOptions& options = {});

// Reads a whole map<key, value> payload into two columns of one length.
template <typename K, typename V>
absl::StatusOr<std::pair<Column<K>, Column<V>>> DeserializeFixedMap(
    Kind key_kind, Kind value_kind, std::string_view payload, int version,
    const DecodeOptions& options = {});

}  // namespace serdiff::cql
