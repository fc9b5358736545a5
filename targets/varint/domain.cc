// Varint family: the decode targets' output form (declared in targets/varint/domain.h).
#include "targets/varint/domain.h"

#include "harness/domains.h"

namespace serdiff::targets::varint {

std::string DecodedOutput(size_t consumed, absl::Span<const uint64_t> values) {
  std::string out;
  out.reserve(8 * (values.size() + 1));
  harness::AppendLe64(&out, consumed);
  for (uint64_t v : values) harness::AppendLe64(&out, v);
  return out;
}

}  // namespace serdiff::targets::varint
