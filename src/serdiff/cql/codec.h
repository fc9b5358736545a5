// serdiff::cql — optimized encoder and validating decoder for CQL native-protocol values.
//
// Spec: apache/cassandra doc/native_protocol_v4.spec section 3 ([int], [short], [bytes],
// [value]), section 6 (6.1 ascii ... 6.23 varint) and section 7 (UDT); native_protocol_v5.spec
// section 6.8 (duration: three signed [vint]s, section 3) ; native_protocol_v3.spec section 10
// (v1/v2 collections use [short] counts and lengths). Digest with [run] examples:
// ../shared/docs/wire-formats.md section 1. Value model: value.h.
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
// tuple/UDT component keep [int] lengths (wire-formats.md 1.8). A null element cannot be
// written with a [short] length, so it is rejected in v1/v2 top-level collections.
//
// Encoders check the value against the type (InvalidArgument, message naming the output
// byte offset where the offending value would start): the shape must fit the kind (value.h),
// integers must fit the width (tinyint -128..127, ...), text must be UTF-8, ascii 0..127,
// inet 4 or 16 bytes, timeuuid version 1, time 0..86399999999999 ns, date -2^31..2^31-1
// days, duration components all >= 0 or all <= 0, a tuple exactly one item per component,
// a UDT at most one item per field (fewer items are written as they are: the spec lets a UDT
// value stop early), collection counts and item lengths within int32 (uint16 in v1/v2), and
// the type itself valid and nested at most kMaxNestingDepth levels.
//
// The optimized encoder makes two passes and no intermediate buffers: SerializedSize walks
// the value once (validating everything) and computes the exact size; the write pass then
// writes every byte once into a single buffer of that size, back-patching the length prefix
// of each variable-size item. Peak heap of Serialize = the output string alone.
//
// Decoders validate everything and never read outside the input. Errors carry the input byte
// offset of the offending item:
//   OutOfRange       the input ends inside a value: a length or count claims more bytes than
//                    remain (counts are checked against the smallest possible element size —
//                    4 bytes per element in v3+, 2 in v1/v2, twice that per map entry — before
//                    anything is reserved), or a tuple component / count is missing
//   InvalidArgument  a fixed-width type with another length (int needs 4 bytes, ...), a
//                    length < -1 (or -2 where unset is not allowed), a negative count, bytes
//                    left over after the last element / component / field, text that is not
//                    UTF-8, ascii > 127, inet not 4/16 bytes, timeuuid not version 1, time out
//                    of range, decimal shorter than 5 bytes, a duration component out of range
//                    or of the wrong sign, a non-minimal varint / vint (when
//                    DecodeOptions::require_minimal_varint), a type deeper than
//                    DecodeOptions::max_depth (offset 0), an invalid type or version.
// Decoded values are canonical: a zero-length payload is Empty for every type; a UDT with
// fewer items than fields gets Null for the missing trailing fields; boolean is true for any
// non-zero byte. Peak heap while decoding is at most about (sizeof(Value) / 4 + 1) x input
// bytes: nothing is reserved before the count has been checked against the remaining bytes.
#pragma once

#include <cstddef>
#include <cstdint>
#include <string>
#include <string_view>

#include "absl/status/statusor.h"
#include "absl/types/span.h"
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

// The payload as a string of exactly SerializedSize bytes (its only allocation).
// Examples: list<text> ['hello', null] (v4) ->
//   00 00 00 02 00 00 00 05 68 65 6C 6C 6F FF FF FF FF;
// varint -128 -> 80; varint 128 -> 00 80; list<int> [1, 2] (v2) -> 00 02 00 04 00 00 00 01
// 00 04 00 00 00 02. Null and Unset have no payload: InvalidArgument.
absl::StatusOr<std::string> Serialize(const Type& t, const Value& v, int version);

// Size of the [value] framing of `v`: 4 + payload (4 for null, unset and empty).
absl::StatusOr<size_t> SerializedValueSize(const Type& t, const Value& v, int version);

// `v` as a [value]: null -> FF FF FF FF; unset -> FF FF FF FE (InvalidArgument before
// protocol v4); empty -> 00 00 00 00; otherwise the [int] payload length then the payload.
absl::StatusOr<std::string> SerializeValue(const Type& t, const Value& v, int version);

// Reads a whole payload (no length prefix) as `t`. The input must be exactly one value:
// trailing bytes are an error. Example: udt<u, a int, b int> from 00 00 00 04 00 00 00 01 ->
// {a: 1, b: null}. list<int> whose count is 3B 9A CA 00 with nothing after ->
// OutOfRange at offset 0, with no allocation.
absl::StatusOr<Value> Deserialize(const Type& t, std::string_view payload, int version,
                                  const DecodeOptions& options = {});

// Reads a whole [value]: FF FF FF FF -> Null; FF FF FF FE -> Unset (InvalidArgument before
// v4); other negative lengths -> InvalidArgument; otherwise the payload as Deserialize, which
// must end exactly at the end of the input.
absl::StatusOr<Value> DeserializeValue(const Type& t, std::string_view framed, int version,
                                       const DecodeOptions& options = {});

}  // namespace serdiff::cql
