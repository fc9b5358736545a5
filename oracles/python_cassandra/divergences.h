// The accepted divergences between serdiff's CQL codecs and the DataStax python driver 3.25
// (Debian python3-cassandra), the real implementation behind
// oracles/python_cassandra/cql_vectors.tsv. This list is the one place they are kept: the
// golden-vector test (tests/cql_golden_test.cc) accepts a vector whose bytes or value differ from
// serdiff's only when the vector names one of these entries, and then checks that the difference is
// exactly the one described (never "anything goes"). docs/cql.md repeats the table.
//
// serdiff's encoders follow the protocol spec (apache/cassandra doc/native_protocol_v4.spec /
// v5.spec); its decoders read what Cassandra's validators accept by default (DecodeOptions
// flags restore the spec's stricter rules). The optimized and the reference codecs agree with
// each other everywhere. Former entries now gone because serdiff reads what servers read:
// short-tuple-written, negative-length-is-null, non-minimal-varint-accepted.
#pragma once

#include <string_view>

namespace serdiff::oracle::python_cassandra {

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
    {"duration-sign-unchecked",
     "serdiff rejects the value when encoding and the bytes when decoding",
     "The driver encodes and decodes durations whose months, days and nanoseconds have mixed "
     "signs; v5 spec 6.8 requires all components >= 0 or all <= 0."},
    {"time-range-unchecked",
     "serdiff's encoders reject the value; its decoders read the driver's bytes by default and "
     "reject them with DecodeOptions::require_time_in_day",
     "The driver writes negative times (ns since midnight); v4 spec 6.16 allows only "
     "0..86399999999999, so serdiff does not write them. Cassandra's TimeSerializer checks only "
     "the 8-byte width, so serdiff's decoders read any 8 bytes by default."},
    {"empty-udt-reads-as-nulls", "serdiff reads the zero-length payload as the empty value",
     "The driver reads a zero-length UDT payload as a UDT with every field null. serdiff reads a "
     "zero-length payload as empty for every type (v4 spec section 6: empty is distinct from "
     "null), so empty and {all null} stay two values."},
};

}  // namespace serdiff::oracle::python_cassandra
