// libFuzzer custom mutator for the length-prefixed families. Three mutations in four are
// libFuzzer's own (LLVMFuzzerMutate); the fourth picks a length or count field position
// and lies about it (harness/length_lies.h: 0, -1, -2, remaining + 1, the largest positive
// and unsigned values), sometimes also truncating or doubling what follows. A fuzz input is
// an encoded value whose wire bytes sit at the front (FuzzedDataProvider reads byte strings
// from the front and integers from the back), so any offset may be a length inside them;
// the ones at the back are the value's counts. Families without length fields get
// libFuzzer's mutations only. Linked into libFuzzer builds only.
#include <cstddef>
#include <cstdint>
#include <cstring>
#include <random>

#include "fuzz/target_name.h"
#include "harness/length_lies.h"

extern "C" size_t LLVMFuzzerMutate(uint8_t* data, size_t size, size_t max_size);

namespace {

using serdiff::harness::LengthField;

bool StartsWith(const char* s, const char* prefix) {
  return std::strncmp(s, prefix, std::strlen(prefix)) == 0;
}

// The length/count fields of the target's family; count 0: none.
int Fields(LengthField out[2]) {
  const char* name = SerdiffFuzzTargetName();
  if (StartsWith(name, "cql_")) {  // [int] and [short], big-endian
    out[0] = {4, true};
    out[1] = {2, true};
    return 2;
  }
  if (StartsWith(name, "bson_") || StartsWith(name, "mutation_")) {
    out[0] = {4, false};  // int32 little-endian
    out[1] = {2, false};
    return 2;
  }
  if (StartsWith(name, "varint_")) {  // batch counts (FDP integers, at the back)
    out[0] = {4, false};
    out[1] = {2, false};
    return 2;
  }
  return 0;
}

}  // namespace

extern "C" size_t LLVMFuzzerCustomMutator(uint8_t* data, size_t size, size_t max_size,
                                          unsigned int seed) {
  static LengthField fields[2];
  static const int n = Fields(fields);
  std::minstd_rand rng(seed);
  if (n == 0 || rng() % 4 != 0) return LLVMFuzzerMutate(data, size, max_size);
  const LengthField f = fields[rng() % static_cast<unsigned>(n)];
  if (size < static_cast<size_t>(f.width)) return LLVMFuzzerMutate(data, size, max_size);
  const size_t offset = rng() % (size - static_cast<size_t>(f.width) + 1);
  const unsigned r = rng();
  const int body = r % 4 == 0 ? 1 : (r % 4 == 1 ? 2 : 0);
  return serdiff::harness::TellLengthLie(data, size, max_size, offset, f, rng(), body);
}
