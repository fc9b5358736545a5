// serdiff: the byte offset of a decode error, carried as data on the absl::Status.
//
// Convention (docs/architecture.md, "Error offsets"): the offset is where the first field
// that makes the input invalid starts, reading the input front to back, counted in bytes from
// the first byte of the input the decoder was given. A count or length field is invalid as soon
// as the bytes that remain after it cannot hold what it announces (even at its minimum size
// per element), so the error is at the count's own offset, not later where the bytes run out.
//
// The offset travels as a status payload under kErrorOffsetUrl, its value the decimal offset
// in ASCII, so that the harness compares offsets without parsing messages. The message keeps
// naming the offset for people. This header depends on Abseil only, so optimized code,
// references and the harness can all include it.
#pragma once

#include <cstdint>
#include <optional>

#include "absl/status/status.h"
#include "absl/strings/cord.h"
#include "absl/strings/numbers.h"
#include "absl/strings/str_cat.h"
#include "absl/strings/string_view.h"

namespace serdiff {

// Payload type URL under which a status carries its byte offset.
inline constexpr absl::string_view kErrorOffsetUrl = "serdiff.dev/error-offset";

// Returns `status` with its byte offset attached (replacing any earlier one). `offset` >= 0.
// An OK status is returned unchanged (OK statuses carry no payloads).
inline absl::Status WithErrorOffset(absl::Status status, int64_t offset) {
  if (status.ok()) return status;
  status.SetPayload(kErrorOffsetUrl, absl::Cord(absl::StrCat(offset)));
  return status;
}

// The byte offset a status carries, or nullopt when it carries none (an OK status, an error
// from code that reports no offset, such as a third-party oracle).
inline std::optional<int64_t> ErrorOffset(const absl::Status& status) {
  // auto: absl::optional, which is not std::optional in Debian's C++14-built Abseil.
  const auto payload = status.GetPayload(kErrorOffsetUrl);
  if (!payload.has_value()) return std::nullopt;
  int64_t offset = 0;
  if (!absl::SimpleAtoi(std::string(*payload), &offset)) return std::nullopt;
  return offset;
}

// Convenience constructors: the message is prefixed with "offset N: ".
inline absl::Status InvalidAt(int64_t offset, absl::string_view what) {
  return WithErrorOffset(absl::InvalidArgumentError(absl::StrCat("offset ", offset, ": ", what)),
                         offset);
}
inline absl::Status OutOfRangeAt(int64_t offset, absl::string_view what) {
  return WithErrorOffset(absl::OutOfRangeError(absl::StrCat("offset ", offset, ": ", what)),
                         offset);
}

}  // namespace serdiff
