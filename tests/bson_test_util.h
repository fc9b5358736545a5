// Shared by the BSON family's unit tests, tests/bson_test.cc (integer formatting, array keys,
// libbson's accepted divergences) and tests/bson_codec_test.cc (encoder, packed arrays,
// decoder): a result as hex, an error's offset, and documents of one element.
#pragma once

#include <cstdint>
#include <string>
#include <utility>

#include "absl/status/status.h"
#include "absl/status/statusor.h"
#include "absl/strings/escaping.h"
#include "serdiff/bson/codec.h"
#include "serdiff/bson/document.h"
#include "serdiff/common/error_offset.h"

namespace serdiff::bson::test_util {

inline std::string ToHex(const absl::StatusOr<std::string>& s) {
  return s.ok() ? absl::BytesToHexString(*s) : s.status().ToString();
}
inline int64_t OffsetOf(const absl::Status& st) { return ErrorOffset(st).value_or(-1); }

inline Document One(std::string key, Value v) {
  Document d;
  d.elements.push_back(Element{std::move(key), std::move(v)});
  return d;
}

inline Document Nested(int levels) {  // depth levels + 1
  Value v = SubDocument({});
  for (int i = 1; i < levels; ++i) v = SubDocument({Element{"d", std::move(v)}});
  return One("d", std::move(v));
}

}  // namespace serdiff::bson::test_util
