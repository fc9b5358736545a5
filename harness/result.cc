// The result vocabulary (harness/result.h): declines, outcomes, and an output for people.
#include "harness/result.h"

#include <optional>

#include "absl/strings/cord.h"
#include "absl/strings/str_cat.h"
#include "harness/hex.h"
#include "serdiff/common/error_offset.h"

namespace serdiff::harness {
namespace {

// The start of a decline's message, for people. IsDeclined looks only at the payload, so an error
// whose message happens to start this way is still a rejection.
constexpr absl::string_view kDeclinedPrefix = "declined: ";

}  // namespace

// An Unimplemented status carrying the kDeclinedUrl payload. The payload, not the code, is what
// makes it a decline (result.h), so a reference's ordinary Unimplemented error stays a rejection.
absl::Status Declined(std::string_view reason) {
  absl::Status s = absl::UnimplementedError(
      absl::StrCat(kDeclinedPrefix, absl::string_view(reason.data(), reason.size())));
  s.SetPayload(absl::string_view(kDeclinedUrl.data(), kDeclinedUrl.size()), absl::Cord("1"));
  return s;
}

// The payload alone decides (an OK status carries none).
bool IsDeclined(const absl::Status& status) {
  return !status.ok() &&
         status.GetPayload(absl::string_view(kDeclinedUrl.data(), kDeclinedUrl.size())).has_value();
}

// A decline is neither an acceptance nor a rejection: the verdict leaves it out.
Outcome OutcomeOf(const Output& out) {
  if (out.ok()) return Outcome::kAccepted;
  return IsDeclined(out.status()) ? Outcome::kDeclined : Outcome::kRejected;
}

absl::Status WorkerFailure(absl::string_view cls, absl::string_view message) {
  absl::Status s =
      absl::UnavailableError(absl::StrCat(absl::string_view(cls.data(), cls.size()), ": ",
                                          absl::string_view(message.data(), message.size())));
  s.SetPayload(absl::string_view(kWorkerFailureUrl.data(), kWorkerFailureUrl.size()),
               absl::Cord(absl::string_view(cls.data(), cls.size())));
  return s;
}

std::string WorkerFailureClass(const absl::Status& status) {
  if (status.ok()) return "";
  absl::optional<absl::Cord> p =
      status.GetPayload(absl::string_view(kWorkerFailureUrl.data(), kWorkerFailureUrl.size()));
  return p ? std::string(*p) : std::string();
}

std::string DescribeOutput(const Output& out,
                           const std::function<std::string(const std::string&)>& show) {
  if (!out.ok()) {
    if (IsDeclined(out.status())) return std::string(out.status().message());
    const std::optional<int64_t> offset = ErrorOffset(out.status());
    return absl::StrCat("error", offset ? absl::StrCat(" at offset ", *offset) : "", ": ",
                        absl::StatusCodeToString(out.status().code()), ": ",
                        out.status().message());
  }
  std::string s = absl::StrCat(out->size(), " bytes: ", Hex(*out));
  if (show) absl::StrAppend(&s, "\n      = ", show(*out));
  return s;
}

}  // namespace serdiff::harness
