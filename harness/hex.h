// Human-readable pieces of a differential report: hex dumps and the first difference.
#pragma once

#include <cstddef>
#include <optional>
#include <string>
#include <string_view>

namespace serdiff::harness {

// Lower-case hex, bytes separated by single spaces ("ac 02"). At most max_bytes bytes are
// shown; longer input ends with " ... (N bytes)".
std::string Hex(std::string_view bytes, size_t max_bytes = 256);

// Compact lower-case hex, two digits a byte and no separator ("ac02"): the form tests compare
// exact bytes in and golden files store.
std::string CompactHex(std::string_view bytes);

// The bytes that the hex digits of `hex` spell, two digits a byte, every other character
// skipped (so "00 0a | ff\n" and "000aff" both give 00 0a ff); a last lone digit is dropped.
// For test vectors and hand-written seeds, not for parsing untrusted text (see
// harness/text_parse.h, which reports where a text is wrong).
std::string Unhex(std::string_view hex);

// Offset (bytes) of the first position where a and b differ; when one is a strict prefix of
// the other, the shorter length. std::nullopt when a == b.
std::optional<size_t> FirstDifference(std::string_view a, std::string_view b);

// A 16-byte window of `bytes` starting 8 bytes before `offset` (clamped to the data), as
// "@<start>: xx xx [yy] xx ..." with the byte at `offset` bracketed ("[--]" past the end).
std::string HexWindow(std::string_view bytes, size_t offset);

// Quotes a byte string for display: printable ASCII as is, others as \xNN.
std::string Printable(std::string_view bytes, size_t max_bytes = 256);

}  // namespace serdiff::harness
