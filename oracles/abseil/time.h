// Abseil (Debian libabsl-dev, LTS 20220623) as an oracle: its civil-time library for the
// timestamp family and its integer formatting for the BSON decimal formats
// (oracles/abseil/README.md). Value types: serdiff/timestamp/civil.h. A civil value is valid
// iff Abseil's normalizing constructor (absl::CivilSecond, absl::CivilDay) gives back the same
// fields and the year is 1..9999 (the microsecond 0..999999).
#pragma once

#include <cstdint>
#include <string>

#include "absl/status/statusor.h"
#include "serdiff/timestamp/civil.h"

namespace serdiff::oracle::abseil {

// Where this oracle comes from, as `serdiff list` shows it.
inline constexpr char kOrigin[] = "oracles/abseil: Abseil LTS 20220623 (Debian libabsl-dev)";

using serdiff::timestamp::CivilDateTime;
using serdiff::timestamp::CivilDay;

// ms since the epoch of `c`, floor (absl::ToUnixMillis rounds toward negative infinity).
// InvalidArgument for invalid fields.
absl::StatusOr<int64_t> ToUnixMillisFloor(const CivilDateTime& c);
// µs since the epoch of `c` (exact). InvalidArgument for invalid fields.
absl::StatusOr<int64_t> ToUnixMicros(const CivilDateTime& c);
// The UTC civil datetime of ms / µs since the epoch (absl::ToCivilSecond). OutOfRange when the
// year is outside 1..9999.
absl::StatusOr<CivilDateTime> FromUnixMillis(int64_t ms);
absl::StatusOr<CivilDateTime> FromUnixMicros(int64_t us);
// Days since 1970-01-01 (absl::CivilDay difference). InvalidArgument for an invalid date.
absl::StatusOr<int64_t> DaysFromCivil(const CivilDay& d);
// The date `days` after 1970-01-01. Precondition: |days| <= 2^39.
CivilDay CivilFromDays(int64_t days);
// CQL date (raw = days + 2^31, v4 spec 6.5): InvalidArgument for an invalid date, OutOfRange
// when the day count does not fit int32.
absl::StatusOr<uint32_t> CqlDateFromCivil(const CivilDay& d);
CivilDay CivilFromCqlDate(uint32_t raw);
// ms -> raw CQL date under floor: the UTC date of the instant (absl::ToCivilDay).
absl::StatusOr<uint32_t> CqlDateFromUnixMillisFloor(int64_t ms);

// Decimal ASCII of v (absl::StrCat's FastIntToBuffer): "-9223372036854775808" for INT64_MIN.
std::string FormatDecimal(int64_t v);
std::string FormatDecimal(uint64_t v);

}  // namespace serdiff::oracle::abseil
