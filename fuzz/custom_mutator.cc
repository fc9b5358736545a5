// libFuzzer custom mutator for the length-prefixed families. Three mutations in four are
// libFuzzer's own (LLVMFuzzerMutate); the fourth picks a length or count field position
// and lies about it (harness/length_lies.h: 0, -1, -2, remaining + 1, the largest positive
// and unsigned values), sometimes also truncating or doubling what follows. A fuzz input is
// an encoded value whose wire bytes sit at the front (FuzzedDataProvider reads byte strings
// from the front and integers from the back), so any offset may be a length inside them;
// the ones at the back are the value's counts. The fields' widths and byte orders are part of
// the target's definition (TargetDef::length_fields); targets without any (timestamp) get
// libFuzzer's mutations only. Linked into libFuzzer builds only.
#include <cstddef>
#include <cstdint>
#include <random>
#include <vector>

#include "fuzz/fuzz_registry.h"
#include "fuzz/target_name.h"
#include "harness/length_lies.h"
#include "harness/registry.h"

extern "C" size_t LLVMFuzzerMutate(uint8_t* data, size_t size, size_t max_size);

namespace {

using serdiff::harness::LengthField;

// The length/count fields of the target's inputs, from its definition
// (TargetDef::length_fields, set by its family); empty: none.
const std::vector<LengthField>& Fields() {
  static const std::vector<LengthField>* fields = [] {
    const serdiff::harness::Target* t = SerdiffFuzzRegistry().Find(SerdiffFuzzTargetName());
    return t != nullptr ? &t->info().length_fields : new std::vector<LengthField>();
  }();
  return *fields;
}

}  // namespace

extern "C" size_t LLVMFuzzerCustomMutator(uint8_t* data, size_t size, size_t max_size,
                                          unsigned int seed) {
  const std::vector<LengthField>& fields = Fields();
  std::minstd_rand rng(seed);
  if (fields.empty() || rng() % 4 != 0) return LLVMFuzzerMutate(data, size, max_size);
  const LengthField f = fields[rng() % fields.size()];
  if (size < static_cast<size_t>(f.width)) return LLVMFuzzerMutate(data, size, max_size);
  const size_t offset = rng() % (size - static_cast<size_t>(f.width) + 1);
  const unsigned r = rng();
  const int body = r % 4 == 0 ? 1 : (r % 4 == 1 ? 2 : 0);
  return serdiff::harness::TellLengthLie(data, size, max_size, offset, f, rng(), body);
}
