// Varint family: how the inputs of the Fory targets cross to workers and modules
// (docs/workers.md, "The interchange"; harness/external.h), and how an answer becomes the decode
// target's output form (domain.h). Defined in targets/varint/interchange.cc.
#pragma once

#include <cstddef>
#include <cstdint>
#include <string>
#include <vector>

#include "absl/status/statusor.h"
#include "absl/strings/string_view.h"
#include "absl/types/span.h"
#include "harness/external.h"
#include "harness/target.h"
#include "targets/varint/domain.h"

namespace serdiff::targets::varint {

// varint.fory_encode: {"values":["0","18446744073709551615"],"zigzag":false} for a batch of
// uint64 (varint_fory_encode), {"values":["-1","300"],"zigzag":true} for a batch of int64
// (varint_fory_zigzag_encode). The answer is the bytes, as they are.
std::string ForyEncodeInputJson(absl::Span<const uint64_t> values);
std::string ForyEncodeInputJson(absl::Span<const int64_t> values);

// varint_fory_decode decodes `count` values from its bytes and ignores what follows them; the
// op varint.fory_decode decodes every value until its input ends. So the op is given the bytes
// the target's decode reads: the first `count` varuint64 (each ends at its first byte below 0x80
// or at its 9th byte, Fory's 8-bit last byte), or all of the bytes when they hold fewer complete
// values (the decode then fails in or after them, where the op fails or stops too).
size_t ForyDecodePrefix(absl::string_view bytes, size_t count);
// {"hex":"<the ForyDecodePrefix bytes, lower-case hex>"}
std::string ForyDecodeInputJson(absl::string_view bytes, size_t count);

// An accepted varint.fory_decode answer -> varint_fory_decode's output for `count` values. The
// value {"values":["300"],"consumed":2} (the answer's "value"; a module's output bytes hold the
// same JSON text) becomes DecodedOutput(consumed, values); fewer values than `count` mean the
// input ended before value number len(values): a rejection at offset `consumed`, as the target's
// decoders report a value cut off. A value that is not that JSON is an InternalError.
absl::StatusOr<std::string> ForyDecodeOutput(size_t count, const harness::ExternalAnswer& answer);

// The inverse, for `serdiff repro --upstream`: varint_fory_decode's accepted output
// (DecodedOutput: the consumed count, then each value, 8 bytes LE each) as the answer fields a
// correct reader gives, {"value":{"values":["300",...],"consumed":2}}.
std::string ForyDecodeAnswerJson(absl::string_view output);

}  // namespace serdiff::targets::varint
