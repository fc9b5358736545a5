// Mutation family: the inputs of the mutation_* targets (a small spec from which a mutation is
// built deterministically), their generators and corpus forms, and helpers shared with
// tests/mutation_*_test.cc, props/mutation_*_test.cc and bench/mutation_benchmark.cc.
// Definitions live in targets/mutation/domain_build.cc (BuildMutation, SingleValueMutation),
// domain.cc (GenSpec and the domains), parse.cc (the parsers) and mutation.cc (Dump).
#pragma once

#include <cstddef>
#include <cstdint>
#include <string>
#include <string_view>

#include <rapidcheck.h>

#include "harness/mutated.h"
#include "harness/target.h"
#include "serdiff/mutation/decoded.h"
#include "serdiff/mutation/model.h"
#include "serdiff/mutation/mutation.h"

namespace serdiff::targets::mutation {

using serdiff::mutation::DecodedMutation;
using serdiff::mutation::Mutation;

// What BuildMutation makes: `updates` partition updates (1..8) of messaging version `version`
// (0 = 4.0, 1 = 5.0, 2 = 5.1), each of a table with `columns` regular columns (1..70; some
// complex, some fixed width), `clustering` clustering columns (0..40: blocks of 32 are
// crossed), up to `max_rows` rows (0..200) mixed with range-tombstone markers; cells of every
// kind; timestamps, TTLs and deletion times drawn from the int32/int64 edges and below the
// encoding epoch; `value_bytes` scales variable-length values (0..4096). All choices come from
// a PRNG seeded with `seed`, so the spec is the whole input (and shrinks field by field).
//
// `budget` bounds the size of what is built: rows stop once the unfiltereds drawn so far,
// across updates, come to about `budget` serialized bytes (ApproxBytes), and the value scale
// is at most budget / 16. The largest spec would otherwise describe a mutation of hundreds of
// MB (8 updates x 200 rows x 70 columns x 4 KiB values). The budget is at most kMaxBuiltBytes,
// which the generators use (so properties and `serdiff check` build the large mutations);
// at kMaxBuiltBytes both limits are those of the spec before the budget existed (rows stop
// at 256 KiB, and 256 KiB / 16 is above the largest value scale). A fuzz input pays for its
// budget with its length: kBudgetBytesPerInputByte per byte of filler (see the domains in
// targets/mutation/domain.cc), so a short input builds a small mutation. The rest of the work is
// bounded by the spec's ranges: 8 tables of at most 70 + 3 columns, one static row each, and
// the one row that may cross the budget. Large single values have their own benchmark and
// tests (SingleValueMutation).
inline constexpr size_t kMaxBuiltBytes = 256 * 1024;
// The wide shapes' cheap encoding (BuildMutation): a spec asking for at least this many
// columns, or clustering columns, gets them at any budget (below, the width costs budget:
// 1 + budget / 128 columns, budget / 128 clustering columns); rows of a table wider than its
// budget pays for are mostly sparse, one column in ten.
inline constexpr size_t kWideColumns = 63;
inline constexpr size_t kWideClustering = 30;
inline constexpr size_t kBudgetBytesPerInputByte = 64;
inline constexpr size_t kMaxBudgetUnits = kMaxBuiltBytes / kBudgetBytesPerInputByte;  // 4096
struct MutationSpec {
  uint64_t seed = 0;
  uint8_t version = 0;
  uint8_t updates = 1;
  uint8_t max_rows = 4;
  uint8_t columns = 3;
  uint8_t clustering = 1;
  uint16_t value_bytes = 8;
  // A multiple of kBudgetBytesPerInputByte, at most kMaxBuiltBytes (the fuzz domains' form
  // holds no other value). Printed only when below kMaxBuiltBytes (`budget=N`).
  uint32_t budget = kMaxBuiltBytes;
  friend bool operator==(const MutationSpec&, const MutationSpec&) = default;
};
Mutation BuildMutation(const MutationSpec& spec);

// A spec with its mutation and that mutation's schema built (outside any measured run).
// Compared by spec.
struct MutationInput {
  MutationSpec spec;
  Mutation m;                        // BuildMutation(spec)
  serdiff::mutation::Schema schema;  // SchemaOf(m)
  friend bool operator==(const MutationInput& a, const MutationInput& b) {
    return a.spec == b.spec;
  }
};

// Table ids BuildMutation uses: update i of a spec gets id 0i 11 22 33 .. ee ff (first byte
// i), so a fuzzer finds them easily. Column names are "c<k>" (regular) and "s<k>" (static).

// Bytes to decode against the schema of BuildMutation(spec).
struct DecodeInput {
  MutationSpec spec;
  std::string bytes;
  serdiff::mutation::Version version{};  // derived: BuildMutation(spec).version
  serdiff::mutation::Schema schema;      // derived: SchemaOf(BuildMutation(spec))
  friend bool operator==(const DecodeInput& a, const DecodeInput& b) {
    return a.spec == b.spec && a.bytes == b.bytes;
  }
};

// A valid encoding (Serialize(BuildMutation(spec)); "" when it fails) with one harness::Edit
// (harness/mutated.h), decoded against the spec's schema.
using MutatedInput = harness::Mutated<MutationInput>;

// One partition update of table (pk int, v blob) holding one row with one value of `bytes`
// bytes (the benchmark's shape).
Mutation SingleValueMutation(size_t bytes);

// A readable, complete dump of a mutation (the decode targets' canonical output). The two give
// the same text for a decoded mutation and its tree: Dump(d) == Dump(d.ToMutation()).
std::string Dump(const Mutation& m);
std::string Dump(const DecodedMutation& d);

rc::Gen<MutationSpec> GenSpec();
harness::Domain<MutationInput> SpecDomain();
harness::Domain<DecodeInput> DecodeDomain();
harness::Domain<MutatedInput> MutatedDomain();

// Parsers of the printed values (Domain::parse; targets/mutation/parse.cc), exactly the
// printers' forms:
//   spec      "spec{seed=S version=V updates=U max_rows=R columns=C clustering=K value_bytes=B}"
//             and, for a budget below kMaxBuiltBytes, " budget=N" before the "}" (absent: the
//             full kMaxBuiltBytes; N a multiple of kBudgetBytesPerInputByte, at most
//             kMaxBuiltBytes). Each field must be within the range the corpus form holds
//             (version 0..2, updates 1..8, max_rows 0..200, columns 1..70, clustering 0..40,
//             value_bytes 0..4096).
//   decode    the spec, then " bytes=" and the bytes as lowercase or uppercase hex without
//             spaces (possibly none). The printer shows only the first 256 bytes, then "...":
//             such a text fails with ElidedAt.
//   mutated   the spec, then, on the next line, "  edit <name> pos=P arg=A" (harness/mutated.h,
//             MutatedOf's form: the edit's name, pos a uint32, arg 0..255).
// The derived fields (the built mutation, schema, version, mutated bytes) are left unset: the
// domains in domain.cc fill them. Errors: InvalidArgument "at character N: ..." where the
// text departs from the form or a field is out of range.
absl::Status ParseSpecAt(harness::TextCursor& c, MutationSpec& s);
absl::StatusOr<MutationSpec> ParseSpec(std::string_view text);

// The decode targets' heap bound per input byte (mutation_decode, mutation_decode_mutated:
// this x input + 4 x output + 64 KiB): the decoders' own budget (serdiff/mutation/mutation.h).
inline constexpr int64_t kDecodeHeapPerInputByte = serdiff::mutation::kDecodeHeapPerInputByte;

absl::StatusOr<DecodeInput> ParseDecodeText(std::string_view text);

// The SerializeSmall threshold the mutation_serialize_small target uses (its scratch buffer is
// grown to this size when the targets are registered, so its peak is the output alone). Small
// enough that the fuzz inputs, capped in fuzz/limits.tsv to a budget of a few hundred bytes,
// build mutations on both sides of it (the scratch path and the fallback to Serialize).
inline constexpr size_t kSmallTargetThreshold = 256;

}  // namespace serdiff::targets::mutation
