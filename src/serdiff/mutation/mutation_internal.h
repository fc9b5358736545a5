// serdiff::mutation internal: what the serializer's entry points (mutation.cc) and its two walks
// (mutation_walks.cc: the size walk and the writer) share: the field trace, the size walk's
// accumulator, the writer's output sink, and the two walks over a whole mutation. Not part of the
// public API (that is mutation.h).
#pragma once

#include <cstddef>
#include <cstdint>
#include <string>
#include <utility>
#include <vector>

#include "serdiff/mutation/mutation.h"
#include "serdiff/varint/varint.h"

namespace serdiff::mutation::mutation_internal {

using varint::Format;

// ---- field traces (diagnostics only) --------------------------------------------------------

// (field name, bytes) for each field, in walk order. Filled only by Mismatch, after a mismatch, so
// that the normal path records nothing.
using Trace = std::vector<std::pair<const char*, size_t>>;

// Size-only walk accumulator.
// The Size* functions add, under the same field names and in the same order, what the Write*
// functions write, so that a trace of each can be compared entry by entry.
struct Counter {
  size_t total = 0;
  Trace* trace = nullptr;
  void Add(size_t n, const char* field) {
    total += n;
    if (trace != nullptr) trace->emplace_back(field, n);
  }
};

// Output sink: appends to `out`, never past `cap` total bytes. The first write that would
// cross `cap` is refused and remembered (overflow_field), and every later write is ignored.
// The exact path caps at the computed size, so the string never grows past its one reservation and
// an overrun names its field instead of reallocating; the small path caps at its threshold; the
// growable path does not cap.
class Sink {
 public:
  Sink(std::string* out, size_t cap, Trace* trace) : out_(out), cap_(cap), trace_(trace) {}

  bool ok() const { return overflow_field_ == nullptr; }
  const char* overflow_field() const { return overflow_field_; }
  size_t overflow_offset() const { return overflow_offset_; }

  void Byte(uint8_t b, const char* field) {
    if (!Room(1, field)) return;
    out_->push_back(static_cast<char>(b));
  }
  void VInt(uint64_t v, const char* field) {
    // Encoded on the stack first: its length is known only once it is encoded, and the room check
    // comes before anything is appended.
    uint8_t buf[varint::kMaxVIntBytes];
    const uint8_t* end = varint::WriteToArray(Format::kVInt, v, buf);
    const size_t n = static_cast<size_t>(end - buf);
    if (!Room(n, field)) return;
    out_->append(reinterpret_cast<const char*>(buf), n);
  }
  void Raw(const void* p, size_t n, const char* field) {
    if (!Room(n, field)) return;
    out_->append(static_cast<const char*>(p), n);
  }
  // Big endian, like every fixed-width integer of the format (the marker's bound size).
  void Be16(uint16_t v, const char* field) {
    const uint8_t b[2] = {static_cast<uint8_t>(v >> 8), static_cast<uint8_t>(v)};
    Raw(b, 2, field);
  }

 private:
  bool Room(size_t n, const char* field) {
    if (overflow_field_ != nullptr) return false;
    // Written as n > cap - size (size never exceeds cap), which cannot overflow when cap is the
    // largest size_t. Only accepted writes are traced, so the trace holds what was written.
    if (n > cap_ - out_->size()) {
      overflow_field_ = field;
      overflow_offset_ = out_->size();
      return false;
    }
    if (trace_ != nullptr) trace_->emplace_back(field, n);
    return true;
  }

  std::string* out_;
  size_t cap_;
  Trace* trace_;
  const char* overflow_field_ = nullptr;
  size_t overflow_offset_ = 0;
};

// The two walks over a whole mutation (mutation_walks.cc), for a mutation Validate accepted: the
// size walk adds to `c` the bytes that the writer appends to `s`, field by field under the same
// names.
void SizeMutation(Counter& c, const Mutation& m);
void WriteMutation(Sink& s, const Mutation& m);

}  // namespace serdiff::mutation::mutation_internal
