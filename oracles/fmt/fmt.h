// {fmt} 9.1 (Debian libfmt-dev) as an oracle for integer-to-decimal formatting
// (oracles/fmt/README.md).
#pragma once

#include <cstdint>
#include <string>

namespace serdiff::oracle::fmt {

// Where this oracle comes from, as `serdiff list` shows it.
inline constexpr char kOrigin[] = "oracles/fmt: {fmt} 9.1.0 (Debian libfmt-dev)";

// Decimal ASCII of v by fmt::format_to(buf, "{}", v): "-9223372036854775808" for INT64_MIN,
// "18446744073709551615" for UINT64_MAX. Allocates the returned string only.
std::string FormatDecimal(int64_t v);
std::string FormatDecimal(uint64_t v);

}  // namespace serdiff::oracle::fmt
