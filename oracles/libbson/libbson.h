// libbson 1.23 (Debian libbson-dev) as a live oracle for the BSON targets
// (oracles/libbson/libbson.cc).
#pragma once

#include <cstdint>
#include <string>
#include <string_view>

#include "absl/status/status.h"
#include "absl/status/statusor.h"
#include "serdiff/bson/document.h"

namespace serdiff::oracle::libbson {

// Where this oracle comes from, as `serdiff list` shows it.
inline constexpr char kOrigin[] = "oracles/libbson: libbson 1.23.1 (Debian libbson-dev)";

// Builds `doc` with bson_append_* (documents and arrays with *_begin/*_end, array keys by
// libbson's bson_uint32_to_string, civil datetimes converted by the reference timestamp
// family) and returns libbson's bytes. InvalidArgument when a bson_append_* call fails or the
// civil datetime is invalid; Declined (harness) for values libbson's API cannot express
// (an ObjectId or decimal128 of the wrong size, a bool other than 0/1, a NUL inside a regex,
// JavaScript code (alone or in a code_w_scope) or a DBPointer namespace: libbson takes those
// as C strings, bson_append_value included). A key with
// a NUL goes to libbson, whose bson_append_* refuses it.
absl::StatusOr<std::string> Encode(const serdiff::bson::Document& doc);

// The deepest nesting Validate lets bson_validate walk (levels; the top-level document is 1).
inline constexpr int kMaxValidateDepth = 1000;

// bson_validate with BSON_VALIDATE_UTF8 | BSON_VALIDATE_UTF8_ALLOW_NULL (the spec's rules: UTF-8
// strings that may contain U+0000) after bson_init_static: OK, or InvalidArgument naming
// libbson's offset in the message (not as a payload: libbson's offsets follow its own rule).
// Declined (harness/result.h), without calling libbson, when its recursive walk would go
// deeper than kMaxValidateDepth levels (it has no limit of its own and would overflow the
// stack).
absl::Status Validate(std::string_view bytes);

// The keys of an n-element array, "0\0" "1\0" ... "<n-1>\0", each written by libbson's
// bson_uint32_to_string (its table of the first 1000 keys, then snprintf). Allocates the result.
std::string ArrayKeys(uint32_t n);

}  // namespace serdiff::oracle::libbson
