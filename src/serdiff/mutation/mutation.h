// serdiff::mutation — optimized serializer and deserializer of Cassandra mutations in the
// messaging form (4.0/5.0 and 5.1). Layout and the Cassandra class behind every byte:
// docs/mutation.md (sources: apache/cassandra Mutation.MutationSerializer,
// PartitionUpdate.PartitionUpdateSerializer, UnfilteredRowIteratorSerializer,
// SerializationHeader, EncodingStats, UnfilteredSerializer, Cell.Serializer, Columns.Serializer,
// ClusteringPrefix.Serializer, DeletionTime).
//
// Three ways to produce the bytes here (a fourth, independent one is serdiff::ref::mutation):
//   * Serialize: SerializedSize() by a size-only walk, one allocation of exactly that size,
//     fields written straight into it, then written == computed is checked;
//   * SerializeSmall: below a byte threshold, no size walk: the fields go into a per-thread
//     scratch buffer which is then copied out; above it, falls back to Serialize;
//   * SerializeViaGrowableBuffer: the old way: a fresh growable buffer, then a copy.
// All three produce identical bytes for every valid mutation.
//
// Deltas. Timestamps are written as uvint(ts - base) (64-bit wrap). Local deletion times and
// TTLs are "uvint32" deltas: the difference, computed in 64 bits, is cast to int32 and that
// int32 is sign-extended to 64 bits before the uvint, as Cassandra's writeUnsignedVInt32 does;
// a negative int32 (and so a delta in [2^31, 2^32)) takes 9 bytes. The size walk predicts the
// same length for every delta. E.g. a row local-deletion-time delta of -1 is ff x 9.
//
// Thread safety: every function may run concurrently on different (or the same const)
// mutations; SerializeSmall's scratch buffer is thread_local.
#pragma once

#include <cstddef>
#include <cstdint>
#include <string>

#include "absl/status/status.h"
#include "absl/status/statusor.h"
#include "absl/types/span.h"
#include "serdiff/mutation/decoded.h"
#include "serdiff/mutation/model.h"

namespace serdiff::mutation {

// Default byte threshold of SerializeSmall (from bench/mutation_benchmark.cc; see
// docs/benchmarks.md, "Mutation family").
inline constexpr size_t kDefaultSmallThreshold = 4096;

// OK when `m` can be serialized; else InvalidArgument naming the first offending field, e.g.
// "partition 0 row 2 column 1: value of 3 bytes for a fixed-width 4 type". Rules: at least one
// partition update; 5.1-only fields (allow_out_of_range, epoch) zero for 4.0/5.0;
// row_estimate >= 0; widths -1 or > 0; an empty update (PartitionUpdate::IsEmpty) has default
// stats, no columns, row_estimate 0; rows have one clustering component per clustering column
// (none for the static row); fixed-width values are empty or exactly that wide; column
// indexes strictly increase and are below the header's column count; a simple column has one
// cell without a path and a live complex deletion; a live cell has ttl 0 and kNoDeletionTime;
// a tombstone ttl 0; an expiring cell ttl > 0 (Cassandra refuses a negative TTL, 5.0's reader
// too); an empty liveness has ttl 0 and kNoDeletionTime, a non-expiring one kNoDeletionTime;
// shadowable only with a deletion; a marker bound has at most as many components as clustering
// columns, and none only when it is the inclusive start or end (CanBeEmptyBound); markers pair
// up, and no range is open at the partition's end (MarkerPairing, model.h).
absl::Status Validate(const Mutation& m);

// Exact serialized size in bytes (size-only walk, no allocation). Error: Validate's.
absl::StatusOr<size_t> SerializedSize(const Mutation& m);

// The bytes of `m`, written into one allocation of exactly SerializedSize(m) bytes (plus the
// string's terminating NUL). Errors: Validate's; Internal "mutation serializer: field <f> ..."
// when the bytes written differ from the size walk's prediction (a bug, never a short or
// overlong result): an overrun is stopped at the field that would cross the computed end; a
// short write is traced field by field and the first field whose written length differs from
// its predicted length is named.
// Example (docs/mutation.md, worked example): 44 bytes starting 01 00 11 22 33.
absl::StatusOr<std::string> Serialize(const Mutation& m);

// Same bytes as Serialize. When the output fits in `threshold` bytes it is written into this
// thread's scratch buffer (grown once, kept for the thread's lifetime, never above
// `threshold`) and copied out without a size walk; otherwise the partial write is dropped and
// Serialize runs. Peak heap once the scratch has grown: the output alone.
absl::StatusOr<std::string> SerializeSmall(const Mutation& m,
                                           size_t threshold = kDefaultSmallThreshold);

// Grows this thread's SerializeSmall scratch buffer to at least `bytes` now (so that a later
// SerializeSmall whose output fits allocates nothing but its result).
void ReserveSmallScratch(size_t bytes);

// Same bytes, the way it was done before: a fresh growable buffer (doubling), then a copy of
// exactly the written size. Peak heap: about 3 x the output.
absl::StatusOr<std::string> SerializeViaGrowableBuffer(const Mutation& m);

// The decoders' heap budget per input byte (this x input + a constant: the schema's copy and
// one block per array). The cheapest records: a 1-byte empty row is a 56-byte record (about
// 60 bytes with its deque block's slack and the input's copy), a 1-byte cell a 40-byte one
// (tests/mutation_test.cc, MutationHeap.DecodersStayWithinTheirPerInputByteBound).
inline constexpr int64_t kDecodeHeapPerInputByte = 64;

// Reads one mutation of `version` from `bytes`, resolving tables and column names in
// `schema`, into the flat DecodedMutation of decoded.h (the input and the schema are copied
// into it; its ranges point into the copy). Validates flags, lengths, counts and column
// indexes against the header and the bytes that remain; every error carries its byte offset
// (serdiff/common/error_offset.h):
//   OutOfRange: the input ends inside a field; a length or count announcing more than the
//     bytes after it can hold (counts at 1 byte per element, 18 (19 in 5.1) per partition
//     update, 2 per complex cell) — at the length's or count's own offset;
//   InvalidArgument: unknown mutation/partition/row/extended/cell flag bits, a flag combination
//     the serializer never writes (see docs/mutation.md, "Decoder rules"), an unknown table id
//     or column name, a uvint32 outside int32 (sign-extended), a negative row estimate or
//     length, zero partition updates, a column index out of range or not increasing, a subset
//     bitmap with bits past the header's column count, a clustering header with a component
//     both null and empty or bits past its block, a bound kind or size out of range, trailing
//     bytes after the last partition update; at offset 0, whatever the bytes: an input of
//     2^32 - 1 bytes or more (the ranges are 32-bit), or a schema with a clustering or column
//     width other than -1 or > 0, or with two static (or two regular) columns of one table
//     sharing a name.
// Deserialize(Serialize(m))->ToMutation() == m for every valid m. Peak heap: at most
// kDecodeHeapPerInputByte bytes per input byte plus a constant, accepted or rejected, whatever
// the bytes say (decoded.h; measured per shape in docs/mutation.md, "Decoder heap").
absl::StatusOr<DecodedMutation> Deserialize(absl::Span<const uint8_t> bytes, Version version,
                                            const Schema& schema);

}  // namespace serdiff::mutation
