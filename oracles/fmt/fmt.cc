#include "oracles/fmt/fmt.h"

#include <fmt/format.h>

namespace serdiff::oracle::fmt {
namespace {

template <typename T>
std::string Format(T v) {
  char buf[24];  // 20 digits and a sign at most
  char* end = ::fmt::format_to(buf, "{}", v);
  return std::string(buf, end);
}

}  // namespace

std::string FormatDecimal(int64_t v) { return Format(v); }
std::string FormatDecimal(uint64_t v) { return Format(v); }

}  // namespace serdiff::oracle::fmt
