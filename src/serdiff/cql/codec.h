// serdiff::cql — optimized encoder and validating decoder for CQL native-protocol values.
//
// Spec: apache/cassandra doc/native_protocol_v4.spec section 3 ([int], [short], [bytes],
// [value]), section 6 (6.1 ascii ... 6.23 varint) and section 7 (UDT); native_protocol_v5.spec
// section 6.8 (duration: three signed [vint]s, section 3) ; native_protocol_v3.spec section 10
// (v1/v2 collections use [short] counts and lengths). Facts and examples: docs/cql.md.
// Value model: value.h.
//
// Two framings:
//   * payload — the type's own bytes, without a length prefix (what spec section 6 shows):
//       int 1 -> 00 00 00 01; list<int> [1, 2] (v3+) ->
//       00 00 00 02 | 00 00 00 04 00 00 00 01 | 00 00 00 04 00 00 00 02.
//     Empty is the zero-length payload; Null and Unset have no payload.
//   * [value] — an [int] length then the payload, as bound values are sent (v4 section 3):
//       null -> FF FF FF FF; unset (v4+) -> FF FF FF FE; empty -> 00 00 00 00;
//       int 7 -> 00 00 00 04 00 00 00 07.
// Inside collections, tuples and UDTs every item is a [bytes] (v1/v2 top-level collections:
// a [short] length): -1 is null, 0 is empty; unset (-2) is never allowed there.
//
// Protocol versions: 1..5 (anything else is InvalidArgument). In v1/v2 a TOP-LEVEL list, set
// or map writes its count and element lengths as uint16; nested collections and every
// tuple/UDT component keep [int] lengths (docs/cql.md). A null element cannot be
// written with a [short] length, so it is rejected in v1/v2 top-level collections.
//
// Encoders check the value against the type (InvalidArgument, message naming the output
// byte offset where the offending value would start): the shape must fit the kind (value.h),
// integers must fit the width (tinyint -128..127, ...), text must be UTF-8, ascii 0..127,
// inet 4 or 16 bytes, timeuuid version 1, time 0..86399999999999 ns, date -2^31..2^31-1
// days, duration components all >= 0 or all <= 0, a tuple or UDT at most one item per
// component / field (fewer items are written as they are: a UDT value may stop early, v4
// section 7, and servers read a short tuple the same way), collection counts and item lengths
// within int32 (uint16 in v1/v2), and the type itself valid and nested at most kMaxNestingDepth
// levels.
//
// The optimized encoder makes two passes and no intermediate buffers: SerializedSize walks
// the value once (validating everything) and computes the exact size; the write pass then
// writes every byte once into a single buffer of that size, back-patching the length prefix
// of each variable-size item. Peak heap of Serialize = the output string alone. One exception,
// for speed: a list or set of a fixed-width type (int, bigint, uuid, ...) whose encoding
// without null and empty elements fits in 32 KiB (4,095 ints in v3+) is validated and written
// in one pass, into a string of that size: each null or empty element leaves its width in bytes
// of the capacity unused (size() is exact), and a bad element fails, with the same status as
// in the two passes, after that string was allocated (at most 32 KiB, then freed).
//
// Decoders validate everything and never read outside the input. By default they accept what
// Apache Cassandra's own validators accept, and also a zero-length payload of every kind (Empty),
// which Cassandra refuses for tinyint, smallint, date, time and duration (DecodeOptions in
// value.h; each strict flag restores one rule of the spec, or of Cassandra:
// reject_empty_where_cassandra_does; table in docs/cql.md "Decode rules"). Every error carries
// its input byte offset as a status payload (serdiff::ErrorOffset, serdiff/common/
// error_offset.h) and in its message: the offset where the first field that makes the input
// invalid starts, reading front to back; the reference decoder reports the same offsets.
//   OutOfRange       the input ends inside a value: a length or count claims more bytes than
//                    remain (counts are checked against the smallest possible element size —
//                    4 bytes per element in v3+, 2 in v1/v2, twice that per map entry — at the
//                    count's own offset, before anything is reserved), a truncated duration
//                    vint, or (DecodeOptions::reject_short_tuples) a missing tuple component
//   InvalidArgument  a fixed-width type with another length (int needs 4 bytes, ...), a
//                    negative count, bytes left over after the last element / component /
//                    field, text rejected by Cassandra's UTF-8 validator (RFC 3629 with
//                    strict_utf8; offset of the bad sequence's lead byte), ascii > 127 (offset
//                    of that byte), inet not 4/16 bytes, timeuuid not version 1 (offset of
//                    byte 6), decimal shorter than 5 bytes, duration months/days beyond int32
//                    or of mixed signs, a type deeper than DecodeOptions::max_depth (offset 0),
//                    an invalid type or version (offset 0); with the strict flags also: an
//                    item length below -1 (reject_negative_lengths), time outside
//                    0..86399999999999 (require_time_in_day), bytes after a duration's three
//                    vints (reject_duration_trailing_bytes), a non-minimal varint / vint
//                    (require_minimal_varint), a zero-length tinyint, smallint, date, time or
//                    duration (reject_empty_where_cassandra_does, at the payload's start).
// Decoded values: a zero-length payload is Empty for every type (without
// reject_empty_where_cassandra_does); a negative item length is
// null; a tuple or UDT value that stops before its type's last item has only the items present
// (the missing trailing ones read as null, v4 spec section 7, but are not stored: the value
// re-encodes to the same bytes, and FormatValue tells a missing field from a null one); boolean
// is true for any non-zero byte. Peak heap while decoding is at most about sizeof(Value) / 4 =
// 12 bytes per input byte from v3 on, sizeof(Value) / 2 = 24 in v1/v2 (whose top-level
// collection has 2-byte element lengths), plus the copies of text and blob bytes, whatever the
// type (targets/cql DecodePeakBound: 14 or 26 x input + 4 KiB): nothing is reserved before the
// count has been checked against the remaining bytes, and each collection, tuple or UDT reserves
// exactly the items its loop will start (stepping over the length prefixes at its level), so
// there is at most one Value per length prefix in the input at all levels together.
#pragma once

#include <cstddef>
#include <cstdint>
#include <string>
#include <string_view>

#include "absl/status/statusor.h"
#include "absl/types/span.h"
#include "serdiff/cql/typed.h"
#include "serdiff/cql/value.h"

namespace serdiff::cql {

// Exact payload size in bytes of `v` as `t` in protocol `version`, after validating the
// value (errors: see the file comment). No allocation except for an error status.
// Example: SerializedSize(list<int>, [1, 2], 4) == 20; (same, 2) == 14.
absl::StatusOr<size_t> SerializedSize(const Type& t, const Value& v, int version);

// Writes the payload into `out` and returns the bytes written (== SerializedSize). Errors as
// SerializedSize, plus ResourceExhausted when out.size() is smaller than the payload (nothing
// is written then). Never writes past out.size(). Allocates nothing.
absl::StatusOr<size_t> SerializeTo(const Type& t, const Value& v, int version,
                                   absl::Span<uint8_t> out);

// The payload as a string of exactly SerializedSize bytes (its only allocation; its capacity
// can exceed its size as said above for short lists and sets of fixed-width types).
// Examples: list<text> ['hello', null] (v4) ->
//   00 00 00 02 00 00 00 05 68 65 6C 6C 6F FF FF FF FF;
// varint -128 -> 80; varint 128 -> 00 80; list<int> [1, 2] (v2) -> 00 02 00 04 00 00 00 01
// 00 04 00 00 00 02. Null and Unset have no payload: InvalidArgument.
absl::StatusOr<std::string> Serialize(const Type& t, const Value& v, int version);

// Serialize with the one-pass route's block loop of `tier` (value_tiers.h; docs/cql.md, "The
// value tree's avx512 tier"): the same bytes and errors from every tier, plus InvalidArgument
// when !ValueTreeTierSupported(tier). kAuto (what the three-argument Serialize and
// SerializeValue run) is avx512 where supported, else portable; the others force one, so that
// tests and the harness compare every tier the machine has. The tier matters only on that
// route: a list or set of int or date in protocol v3+ whose encoding fits in 32 KiB (at most
// 4,095 elements); every other value takes the same code whatever the tier.
absl::StatusOr<std::string> Serialize(const Type& t, const Value& v, int version, TypedTier tier);

// Whether Serialize(..., tier) and SerializeValue(..., tier) run here: kAuto and kPortable always;
// kAvx512 on x86-64 CPUs with AVX-512F and AVX-512BW, kAvx512Emulated in builds that found SIMDe,
// both only where this build's Value has the byte layout the kernel reads (checked once per
// process); kSsse3 and kAvx2 never (the value tree has no such tier).
bool ValueTreeTierSupported(TypedTier tier);

// Size of the [value] framing of `v`: 4 + payload (4 for null, unset and empty).
absl::StatusOr<size_t> SerializedValueSize(const Type& t, const Value& v, int version);

// `v` as a [value]: null -> FF FF FF FF; unset -> FF FF FF FE (InvalidArgument before
// protocol v4); empty -> 00 00 00 00; otherwise the [int] payload length then the payload.
absl::StatusOr<std::string> SerializeValue(const Type& t, const Value& v, int version);

// SerializeValue with the one-pass route's block loop of `tier`, as Serialize(t, v, version,
// tier) above: the same bytes and errors from every tier, plus InvalidArgument when
// !ValueTreeTierSupported(tier).
absl::StatusOr<std::string> SerializeValue(const Type& t, const Value& v, int version,
                                           TypedTier tier);

// Reads a whole payload (no length prefix) as `t`. The input must be exactly one value:
// trailing bytes are an error. Example: udt<u, a int, b int> from 00 00 00 04 00 00 00 01 ->
// {a: 1, b: null}. list<int> whose count is 3B 9A CA 00 with nothing after ->
// OutOfRange at offset 0, with no allocation.
absl::StatusOr<Value> Deserialize(const Type& t, std::string_view payload, int version,
                                  const DecodeOptions& options = {});

// Reads a whole [value] (v4 spec section 3): FF FF FF FF -> Null; FF FF FF FE -> Unset; other
// negative lengths -> InvalidArgument at 0. Before v4 the value is a [bytes] (v3 spec section
// 3): every negative length -> Null (with options.reject_negative_lengths only -1; below it
// InvalidArgument at 0). Bytes after a null or unset -> InvalidArgument at 4;
// otherwise the payload as Deserialize, which must end exactly at the end of the input.
absl::StatusOr<Value> DeserializeValue(const Type& t, std::string_view framed, int version,
                                       const DecodeOptions& options = {});

}  // namespace serdiff::cql
