// serdiff::ref::bson — reference BSON implementation, the differential twin of
// src/serdiff/bson (int_format.h, codec.h), written for obviousness, not speed:
//   * integers through snprintf("%lld") / snprintf("%llu");
//   * encoding builds one std::string fragment per element (keys by snprintf, even in
//     arrays) and joins them at the end; UTC datetimes from civil time by
//     serdiff::ref::timestamp::ToUnixMillis (floor);
//   * validation reads the input through a bounds-checked cursor, one field at a time, and
//     decodes UTF-8 into code points to check them.
// Same rules, same error classes and the same error offsets (serdiff::InvalidAt) as the
// optimized side; docs/bson.md lists the rules. Shares only the plain document model
// (serdiff/bson/document.h) with the optimized side.
#pragma once

#include <cstdint>
#include <string>
#include <string_view>

#include "absl/status/status.h"
#include "absl/status/statusor.h"
#include "serdiff/bson/document.h"

namespace serdiff::ref::bson {

using serdiff::bson::Document;

// snprintf("%lld") / snprintf("%llu") of v.
std::string FormatInt64(int64_t v);
std::string FormatUint64(uint64_t v);
// The key of array element `index`: snprintf("%llu").
std::string ArrayKey(uint64_t index);

// The BSON bytes of doc; same errors, classes and conditions as serdiff::bson::Encode, except
// which one a document with two faults reports when one is a length past INT32_MAX: this
// reference builds every element before it measures the document (InvalidArgument for a bad
// value after the 2 GiB), where Encode stops with OutOfRange as soon as its running size passes
// INT32_MAX. Both reject such a document.
absl::StatusOr<std::string> Encode(const Document& doc);

struct ValidateOptions {
  bool check_utf8 = true;
  bool check_array_keys = false;
  int max_depth = 100;
};

// As serdiff::bson::Validate: OK or InvalidArgument with the same byte offset.
absl::Status Validate(std::string_view bytes, const ValidateOptions& options = {});

}  // namespace serdiff::ref::bson
