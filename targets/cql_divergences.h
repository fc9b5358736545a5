// The accepted divergences between serdiff's CQL codecs and the DataStax python driver 3.25
// (Debian python3-cassandra), the real implementation behind corpus/cql_golden/vectors.tsv.
// This list is the one place they are kept: the golden-vector test
// (tests/cql_golden_test.cc) accepts a vector whose bytes or value differ from serdiff's only
// when the vector names one of these entries, and then checks that the difference is exactly
// the one described (never "anything goes"). docs/cql.md repeats the table.
//
// In every case serdiff follows the protocol spec (apache/cassandra
// doc/native_protocol_v4.spec / v5.spec); the optimized and the reference codecs agree with
// each other everywhere.
#pragma once

#include <string_view>

namespace serdiff::targets::cql {

struct DriverDivergence {
  std::string_view name;  // as written in the vectors' last column
  std::string_view how_checked;
  std::string_view reason;
};

inline constexpr DriverDivergence kDriverDivergences[] = {
    {"none-element-as-empty",
     "serdiff's bytes for the value with every null collection element replaced by empty "
     "equal the driver's; serdiff's own bytes differ",
     "The driver writes a None list/set element or map key/value as an empty value (length 0). "
     "A collection element is a [bytes] (v4 spec 6.11-6.13), where a negative length means "
     "null, so serdiff writes FF FF FF FF (and, in v1/v2, refuses a null it cannot express). "
     "Writing empty silently changes null into a different value."},
    {"date-int-is-raw", "serdiff's bytes for days = int - 2^31 equal the driver's",
     "SimpleDateType.serialize(int) takes a plain int as the already-biased unsigned wire value "
     "(serialize(0) is -5877641-06-23, not the epoch). serdiff's date value is a signed day "
     "count since 1970-01-01 and adds the 2^31 bias itself (v4 spec 6.5)."},
    {"short-tuple-written",
     "serdiff rejects the value, and rejects the driver's bytes read as the full tuple type",
     "The driver writes only the items of a Python tuple shorter than the tuple type. v4 spec "
     "6.20 defines a tuple as one [bytes] per component; only a UDT value may stop early "
     "(section 7)."},
    {"duration-sign-unchecked",
     "serdiff rejects the value when encoding and the bytes when decoding",
     "The driver encodes and decodes durations whose months, days and nanoseconds have mixed "
     "signs; v5 spec 6.8 requires all components >= 0 or all <= 0."},
    {"time-range-unchecked", "serdiff rejects the value when encoding and the bytes when decoding",
     "The driver writes and reads negative times (ns since midnight); v4 spec 6.16 allows only "
     "0..86399999999999."},
    {"negative-length-is-null", "serdiff rejects the bytes",
     "The driver reads any negative element length as None. serdiff reads -1 as null and "
     "rejects -2 (unset is only a top-level bound [value], v4 spec section 3) and lengths below "
     "-2, which no conforming writer produces."},
    {"non-minimal-varint-accepted",
     "serdiff rejects the bytes by default and reads the driver's value with "
     "require_minimal_varint = false",
     "The driver (like Cassandra) reads a varint with a redundant leading 00/FF byte. serdiff's "
     "default decoder insists on the shortest form that v4 spec 6.23 describes, so that every "
     "accepted varint re-encodes to the same bytes; DecodeOptions::require_minimal_varint = "
     "false gives the lenient reading."},
    {"empty-udt-reads-as-nulls", "serdiff reads the zero-length payload as the empty value",
     "The driver reads a zero-length UDT payload as a UDT with every field null. serdiff reads a "
     "zero-length payload as empty for every type (v4 spec section 6: empty is distinct from "
     "null), so empty and {all null} stay two values."},
};

}  // namespace serdiff::targets::cql
