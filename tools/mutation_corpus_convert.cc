// One-off converter of the mutation_* corpora to the byte form with a build budget
// (targets/mutation_domain.h, MutationSpec::budget). Not part of the build; built by hand
// against the dev tree's libraries (the command is in docs/fuzzing.md, "Limits"):
//
//   mutation_corpus_convert CORPUS_DIR
//
// The old form was seven FDP integers (seed, version, updates, max_rows, columns,
// clustering, value_bytes; read from the end of the input), then for mutation_decode the
// remaining bytes and for mutation_decode_mutated three more integers (op, pos, arg). Its
// specs always built with the full budget, kMaxBuiltBytes. For each file this program reads
// the old form (a copy of the old reader below), looks for a small budget that builds the
// same thing (the same mutation; for mutation_decode, the same version and schema, all that
// target uses), checks it, writes the new form with the domain's encoder under its SHA-1
// name in the same folder, removes the old file and checks that the new file decodes to
// the same value. Exits non-zero on any mismatch.
#include <FuzzedDataProvider.h>

#include <cstdint>
#include <cstdio>
#include <filesystem>
#include <functional>
#include <string>

#include "harness/corpus.h"
#include "harness/fuzz_input.h"
#include "targets/mutation_domain.h"

namespace {

using serdiff::mutation::Mutation;
using serdiff::mutation::SchemaOf;
using namespace serdiff::targets::mutation;  // NOLINT

// The old reader (targets/mutation.cc before the budget), word for word.
MutationSpec OldReadSpec(FuzzedDataProvider& p) {
  MutationSpec s;
  s.seed = p.ConsumeIntegral<uint64_t>();
  s.version = p.ConsumeIntegralInRange<uint8_t>(0, 2);
  s.updates = p.ConsumeIntegralInRange<uint8_t>(1, 8);
  s.max_rows = p.ConsumeIntegralInRange<uint8_t>(0, 200);
  s.columns = p.ConsumeIntegralInRange<uint8_t>(1, 70);
  s.clustering = p.ConsumeIntegralInRange<uint8_t>(0, 40);
  s.value_bytes = p.ConsumeIntegralInRange<uint16_t>(0, 4096);
  s.budget = kMaxBuiltBytes;  // what the old builder used
  return s;
}

// The smallest budget found (binary search over filler counts) for which `same` holds,
// checked; kMaxBuiltBytes when none smaller is.
MutationSpec SmallBudget(MutationSpec s, const std::function<bool(const MutationSpec&)>& same) {
  size_t lo = 0, hi = kMaxBudgetUnits;  // same(hi) holds: the old builder's budget
  while (lo < hi) {
    const size_t mid = (lo + hi) / 2;
    MutationSpec t = s;
    t.budget = static_cast<uint32_t>(mid * kBudgetBytesPerInputByte);
    if (same(t)) {
      hi = mid;
    } else {
      lo = mid + 1;
    }
  }
  s.budget = static_cast<uint32_t>(hi * kBudgetBytesPerInputByte);
  if (!same(s)) s.budget = kMaxBuiltBytes;
  return s;
}

template <typename T>
std::string Encode(const serdiff::harness::Domain<T>& d, const T& v) {
  serdiff::harness::FuzzInputWriter w;
  d.encode(v, w);
  return w.Finish();
}

template <typename T>
T Decode(const serdiff::harness::Domain<T>& d, const std::string& bytes) {
  FuzzedDataProvider p(reinterpret_cast<const uint8_t*>(bytes.data()), bytes.size());
  return d.decode(p);
}

int failures = 0;

void Replace(const std::string& path, const std::string& bytes, bool same_value) {
  if (!same_value) {
    std::fprintf(stderr, "%s: the new form does not decode to the same value\n", path.c_str());
    ++failures;
    return;
  }
  const std::string dir = std::filesystem::path(path).parent_path().string();
  absl::StatusOr<std::string> written = serdiff::harness::WriteCorpusFile(dir, bytes);
  if (!written.ok()) {
    std::fprintf(stderr, "%s: %s\n", path.c_str(), written.status().ToString().c_str());
    ++failures;
    return;
  }
  if (*written != path) std::filesystem::remove(path);
  std::printf("%s -> %s (%zu bytes)\n", path.c_str(), written->c_str(), bytes.size());
}

}  // namespace

int main(int argc, char** argv) {
  if (argc != 2) {
    std::fprintf(stderr, "usage: %s CORPUS_DIR\n", argv[0]);
    return 2;
  }
  const std::string root = argv[1];
  for (const char* target : {"mutation_serialize", "mutation_serialize_small"}) {
    const auto domain = SpecDomain();
    for (const std::string& f : serdiff::harness::ListCorpusFiles(root + "/" + target)) {
      const std::string old = *serdiff::harness::ReadFileBytes(f);
      FuzzedDataProvider p(reinterpret_cast<const uint8_t*>(old.data()), old.size());
      const MutationSpec spec = OldReadSpec(p);
      const Mutation want = BuildMutation(spec);
      const MutationSpec small =
          SmallBudget(spec, [&](const MutationSpec& t) { return BuildMutation(t) == want; });
      const MutationInput in{small, want};
      const std::string bytes = Encode(domain, in);
      const MutationInput back = Decode(domain, bytes);
      Replace(f, bytes, back.spec == small && back.m == want);
    }
  }
  {
    const auto domain = DecodeDomain();
    for (const std::string& f : serdiff::harness::ListCorpusFiles(root + "/mutation_decode")) {
      const std::string old = *serdiff::harness::ReadFileBytes(f);
      FuzzedDataProvider p(reinterpret_cast<const uint8_t*>(old.data()), old.size());
      DecodeInput in;
      in.spec = OldReadSpec(p);
      in.bytes = p.ConsumeRemainingBytesAsString();
      const Mutation full = BuildMutation(in.spec);
      in.spec = SmallBudget(in.spec, [&](const MutationSpec& t) {
        const Mutation m = BuildMutation(t);
        return m.version == full.version && SchemaOf(m) == SchemaOf(full);
      });
      in.version = full.version;
      in.schema = SchemaOf(full);
      const std::string bytes = Encode(domain, in);
      const DecodeInput back = Decode(domain, bytes);
      Replace(f, bytes, back == in && back.version == in.version && back.schema == in.schema);
    }
  }
  {
    const auto domain = MutatedDomain();
    for (const std::string& f :
         serdiff::harness::ListCorpusFiles(root + "/mutation_decode_mutated")) {
      const std::string old = *serdiff::harness::ReadFileBytes(f);
      FuzzedDataProvider p(reinterpret_cast<const uint8_t*>(old.data()), old.size());
      MutatedInput in;
      in.spec = OldReadSpec(p);
      in.op = p.ConsumeIntegralInRange<uint8_t>(0, 6);
      in.pos = p.ConsumeIntegral<uint32_t>();
      in.arg = p.ConsumeIntegral<uint8_t>();
      const Mutation want = BuildMutation(in.spec);
      in.spec =
          SmallBudget(in.spec, [&](const MutationSpec& t) { return BuildMutation(t) == want; });
      in.version = want.version;
      in.schema = SchemaOf(want);
      in.bytes = MutatedBytes(want, in);
      const std::string bytes = Encode(domain, in);
      const MutatedInput back = Decode(domain, bytes);
      Replace(f, bytes,
              back == in && back.bytes == in.bytes && back.version == in.version &&
                  back.schema == in.schema);
    }
  }
  return failures == 0 ? 0 : 1;
}
