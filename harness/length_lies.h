// Length and count lies for length-prefixed wire formats: the core of serdiff's libFuzzer
// custom mutator (fuzz/custom_mutator.cc). Knows no family: a family names the width and
// byte order of its length/count fields (CQL: 4-byte [int] and 2-byte [short], big-endian;
// BSON: 4-byte int32, little-endian).
#pragma once

#include <cstddef>
#include <cstdint>
#include <vector>

namespace serdiff::harness {

struct LengthField {
  int width;        // bytes: 1, 2 or 4
  bool big_endian;  // byte order of the field
};

// The lies told about a length field of `width` bytes followed by `remaining` bytes, in the
// order they are tried: 0, -1, -2 (all ones, all ones minus one: CQL null and unset),
// remaining + 1 (one byte more than there is), the largest positive value of the width
// (2^31-1 for 4 bytes, 2^15-1 for 2, 127 for 1) and the largest unsigned value (2^32-1,
// 2^16-1, 255), each truncated to the field's width; duplicates removed.
std::vector<uint64_t> LengthLies(int width, size_t remaining);

// Rewrites, in place, the field of `field.width` bytes at `offset` of data[0, size) with
// lie number `lie` (modulo the number of LengthLies(width, size - offset - width)), then,
// when `body` is 1, truncates the bytes after the field to half, when 2 doubles them by
// repeating them (never beyond max_size). Returns the new size. Precondition: offset +
// field.width <= size <= max_size. Never reads or writes outside data[0, max_size).
size_t TellLengthLie(uint8_t* data, size_t size, size_t max_size, size_t offset, LengthField field,
                     size_t lie, int body);

}  // namespace serdiff::harness
