// Mutation family: the domains of the mutation_* targets (declared in
// targets/mutation/domain.h): the spec generator (GenSpec), the spec's corpus form (one
// two-way visitor, VisitSpec, harness/two_way.h) and printer, and the spec, decode and
// mutated domains built on them. Their parsers are in parse.cc, BuildMutation in domain_build.cc.
#include <algorithm>
#include <cstdint>
#include <string>
#include <string_view>
#include <type_traits>
#include <utility>

#include "absl/strings/str_cat.h"
#include "harness/domains.h"
#include "harness/hex.h"
#include "harness/two_way.h"
#include "harness/uniform.h"
#include "reference/mutation/decoder_ref.h"
#include "reference/mutation/spec_writer.h"
#include "serdiff/mutation/mutation.h"
#include "targets/mutation/domain.h"

namespace serdiff::targets::mutation {

using namespace serdiff::mutation;  // NOLINT: the model's types

rc::Gen<MutationSpec> GenSpec() {
  return rc::gen::apply(
      [](uint64_t seed, uint8_t version, uint8_t updates, uint8_t rows, uint8_t cols, uint8_t clust,
         uint16_t value_bytes, uint32_t budget) {
        return MutationSpec{seed, version, updates, rows, cols, clust, value_bytes, budget};
      },
      rc::gen::arbitrary<uint64_t>(), harness::UniformIn<uint8_t>(0, 3),
      rc::gen::weightedOneOf<uint8_t>(
          {{4, rc::gen::inRange<uint8_t>(1, 3)}, {1, rc::gen::inRange<uint8_t>(1, 9)}}),
      rc::gen::weightedOneOf<uint8_t>(
          {{6, rc::gen::inRange<uint8_t>(0, 8)}, {1, rc::gen::inRange<uint8_t>(0, 201)}}),
      rc::gen::weightedOneOf<uint8_t>({{4, rc::gen::inRange<uint8_t>(1, 8)},
                                       {2, rc::gen::inRange<uint8_t>(60, 71)},
                                       {1, rc::gen::inRange<uint8_t>(1, 71)}}),
      rc::gen::weightedOneOf<uint8_t>(
          {{6, rc::gen::inRange<uint8_t>(0, 4)}, {1, rc::gen::inRange<uint8_t>(30, 41)}}),
      rc::gen::weightedOneOf<uint16_t>(
          {{6, rc::gen::inRange<uint16_t>(0, 64)}, {1, rc::gen::inRange<uint16_t>(0, 4097)}}),
      // Mostly the full budget (the large mutations stay in the properties), sometimes one
      // as small as a fuzz input's.
      rc::gen::weightedOneOf<uint32_t>(
          {{6, rc::gen::just(static_cast<uint32_t>(kMaxBuiltBytes))},
           {1, rc::gen::map(rc::gen::inRange<uint32_t>(0, 129), [](uint32_t units) {
              return static_cast<uint32_t>(units * kBudgetBytesPerInputByte);
            })}}));
}

namespace {

// The corpus form of a spec, both ways (harness/two_way.h). The seven fields are integers
// (FDP reads them from the end of the input), then the budget as a count of filler bytes
// (an integer, then that many bytes at the front, which carry nothing): reading, the count is
// cut to the bytes left, so an input's length bounds its budget, kBudgetBytesPerInputByte
// bytes of mutation per byte of input. The writer writes every filler byte the budget needs.
template <typename IO>
void VisitSpec(IO& io, MutationSpec& s) {
  io.Int(s.seed);
  io.Int(s.version, uint8_t{0}, uint8_t{2});
  io.Int(s.updates, uint8_t{1}, uint8_t{8});
  io.Int(s.max_rows, uint8_t{0}, uint8_t{200});
  io.Int(s.columns, uint8_t{1}, uint8_t{70});
  io.Int(s.clustering, uint8_t{0}, uint8_t{40});
  io.Int(s.value_bytes, uint16_t{0}, uint16_t{4096});
  // Writing: the budget is a multiple of kBudgetBytesPerInputByte (MutationSpec); another
  // one would be rounded up.
  uint16_t units = static_cast<uint16_t>(std::min<size_t>(
      (s.budget + kBudgetBytesPerInputByte - 1) / kBudgetBytesPerInputByte, kMaxBudgetUnits));
  io.Int(units, uint16_t{0}, static_cast<uint16_t>(kMaxBudgetUnits));
  if constexpr (IO::kReading) {
    units = static_cast<uint16_t>(std::min<size_t>(units, io.remaining_bytes()));
    s.budget = static_cast<uint32_t>(units * kBudgetBytesPerInputByte);
  }
  io.Pad(units);
}
// The budget is part of the value (it caps what BuildMutation draws), so it is printed, but
// only when below the full kMaxBuiltBytes, the budget of every spec before it existed.
std::string ShowSpec(const MutationSpec& s) {
  return absl::StrCat("spec{seed=", s.seed, " version=", s.version, " updates=", s.updates,
                      " max_rows=", s.max_rows, " columns=", s.columns,
                      " clustering=", s.clustering, " value_bytes=", s.value_bytes,
                      s.budget < kMaxBuiltBytes ? absl::StrCat(" budget=", s.budget) : "", "}");
}

MutationInput MakeInput(const MutationSpec& s) {
  MutationInput in{s, BuildMutation(s), {}};
  in.schema = SchemaOf(in.m);
  return in;
}
DecodeInput Derive(DecodeInput in) {
  const Mutation m = BuildMutation(in.spec);
  in.version = m.version;
  in.schema = SchemaOf(m);
  return in;
}

}  // namespace

harness::Domain<MutationInput> SpecDomain() {
  return harness::TwoWayDomain<MutationInput>(
      "mutation spec (seed, version, updates, rows, columns, clustering, value size)",
      rc::gen::map(GenSpec(), MakeInput),
      [](auto& io, MutationInput& in) {
        VisitSpec(io, in.spec);
        if constexpr (std::decay_t<decltype(io)>::kReading) in = MakeInput(in.spec);
      },
      [](const MutationInput& in) { return ShowSpec(in.spec); },
      [](std::string_view text) -> absl::StatusOr<MutationInput> {
        absl::StatusOr<MutationSpec> s = ParseSpec(text);
        if (!s.ok()) return s.status();
        return MakeInput(*s);
      });
}

harness::Domain<DecodeInput> DecodeDomain() {
  return harness::TwoWayDomain<DecodeInput>(
      "(schema spec, bytes)",
      rc::gen::apply(
          [](MutationSpec s, std::string bytes) {
            DecodeInput in;
            in.spec = s;
            in.bytes = std::move(bytes);
            return Derive(std::move(in));
          },
          GenSpec(), rc::gen::arbitrary<std::string>()),
      [](auto& io, DecodeInput& in) {
        VisitSpec(io, in.spec);
        io.Rest(in.bytes);
        if constexpr (std::decay_t<decltype(io)>::kReading) in = Derive(std::move(in));
      },
      [](const DecodeInput& in) {
        return absl::StrCat(ShowSpec(in.spec),
                            " bytes=", harness::CompactHex(in.bytes.substr(0, 256)),
                            in.bytes.size() > 256 ? "..." : "");
      },
      [](std::string_view text) -> absl::StatusOr<DecodeInput> {
        absl::StatusOr<DecodeInput> in = ParseDecodeText(text);
        if (!in.ok()) return in.status();
        return Derive(*std::move(in));
      });
}

// The edits' aim (harness/mutated.h, kAimedPos): every flags, kind, clustering header and
// column subset bitmap offset of the encoding, as the reference decoder reads them.
harness::Domain<MutatedInput> MutatedDomain() {
  return harness::MutatedOf<MutationInput>(
      SpecDomain(),
      // The reference writer (harness/mutated.h): a bug of the optimized writer must not hide
      // one of the optimized decoder.
      [](const MutationInput& in) {
        absl::StatusOr<std::string> bytes = ref::mutation::SpecSerialize(in.m);
        return bytes.ok() ? *std::move(bytes) : std::string();
      },
      [](const MutationInput& in, std::string_view bytes) {
        return ref::mutation::RefFlagOffsets(bytes, in.m.version, in.schema);
      });
}

}  // namespace serdiff::targets::mutation
