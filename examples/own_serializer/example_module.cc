// A serdiff module (harness/serdiff_module.h, ABI 2): one user's own serializers, written plainly,
// that serdiff joins to its targets and judges against its own implementations. Each writes its
// output into the room serdiff hands it up front when it fits, and asks for more with append
// when it does not.
//
//   "int64.to_decimal" (SERDIFF_FORM_INT64)      -> joins bson_format_int64
//   "cql.serialize"    (SERDIFF_FORM_INT32_LIST) -> joins the cql encode targets whose input is
//                                                   a list<int> (serdiff declines the others
//                                                   before calling)
//
// Compiled with -DEXAMPLE_PLANT_INT2STRING_BUG (the library example_module_buggy), the int64
// formatter has the classic bug of a naive int-to-string: it negates a negative value in
// int64 and formats what it gets, which for INT64_MIN is INT64_MIN again.
#include <cstddef>
#include <cstdint>
#include <cstring>

#include "harness/serdiff_module.h"

namespace {

// ---- int64 -> decimal ASCII -------------------------------------------------------------------

#ifndef EXAMPLE_PLANT_INT2STRING_BUG

// Digits written into a buffer from its end; the magnitude is taken as uint64_t, where
// 0 - (uint64_t)INT64_MIN is 2^63: no overflow.
int Int64ToDecimal(int64_t value, serdiff_out* out) {
  char buf[20];  // "-9223372036854775808" is 20 characters
  char* end = buf + sizeof buf;
  char* p = end;
  const bool negative = value < 0;
  uint64_t magnitude = negative ? 0 - static_cast<uint64_t>(value) : static_cast<uint64_t>(value);
  do {
    *--p = static_cast<char>('0' + magnitude % 10);
    magnitude /= 10;
  } while (magnitude != 0);
  if (negative) *--p = '-';
  const size_t n = static_cast<size_t>(end - p);
  std::memcpy(out->room, p, n);  // the room holds at least SERDIFF_OUT_ROOM_MIN (64) bytes
  out->room_used = n;
  return SERDIFF_OK;
}

#else  // the planted bug

// "Make it positive, then print the digits": value = -value leaves INT64_MIN negative (two's
// complement wraps; written out with unsigned arithmetic here so that the result is the same
// at every optimization level and under -fsanitize=undefined), and the digit loop then runs
// on a negative number, whose remainders are 0..-9: '0' + (-8) is '(' and so on. INT64_MIN
// comes out as "-'..--).0-*(+,))+(0(" instead of "-9223372036854775808"; every other value
// is right.
int Int64ToDecimal(int64_t value, serdiff_out* out) {
  char buf[20];
  char* end = buf + sizeof buf;
  char* p = end;
  const bool negative = value < 0;
  if (negative) value = static_cast<int64_t>(0 - static_cast<uint64_t>(value));  // -value
  do {
    *--p = static_cast<char>('0' + value % 10);
    value /= 10;
  } while (value != 0);
  if (negative) *--p = '-';
  const size_t n = static_cast<size_t>(end - p);
  std::memcpy(out->room, p, n);  // the room holds at least SERDIFF_OUT_ROOM_MIN (64) bytes
  out->room_used = n;
  return SERDIFF_OK;
}

#endif

// ---- CQL list<int> ----------------------------------------------------------------------------

void PutBigEndian(unsigned char* p, uint32_t v, int width) {
  for (int i = width - 1; i >= 0; --i) {
    p[i] = static_cast<unsigned char>(v);
    v >>= 8;
  }
}

// The payload of a list<int> (no [bytes] length in front): the element count, then each
// element as a [bytes]: its length (4), then the int32 big-endian; a null element is the
// length -1 alone. Protocol v3 and later write the count and the lengths as int32; v1 and v2
// as unsigned 16-bit [short]s, which can hold neither a null element nor more than 65535
// elements: such a list is rejected, as Cassandra's own writers reject it.
int SerializeIntList(const serdiff_int32_list* list, serdiff_out* out) {
  if (list->protocol_version < 1 || list->protocol_version > 5) {
    out->error(out->ctx, -1, "protocol version is not 1..5");
    return SERDIFF_REJECTED;
  }
  const bool short_form = list->protocol_version <= 2;
  const int width = short_form ? 2 : 4;
  const uint64_t max_count = short_form ? 65535 : 2147483647;
  if (list->count > max_count) {
    out->error(out->ctx, -1, "too many elements for the protocol version");
    return SERDIFF_REJECTED;
  }
  size_t size = width;
  for (size_t i = 0; i < list->count; ++i) {
    const bool is_null = list->nulls != nullptr && list->nulls[i] != 0;
    if (is_null && short_form) {
      out->error(out->ctx, -1, "a null element has no v1/v2 form");
      return SERDIFF_REJECTED;
    }
    size += width + (is_null ? 0 : 4);
  }
  // A payload that fits goes into the room serdiff gave up front; a longer one into one append
  // of its whole size (one allocation, the size of the output).
  unsigned char* p = out->room;
  if (size <= out->room_size) {
    out->room_used = size;
  } else {
    p = out->append(out->ctx, size);
    if (p == nullptr) return SERDIFF_REJECTED;
  }
  PutBigEndian(p, static_cast<uint32_t>(list->count), width);
  p += width;
  for (size_t i = 0; i < list->count; ++i) {
    if (list->nulls != nullptr && list->nulls[i] != 0) {
      PutBigEndian(p, 0xffffffffu, 4);  // -1 (only v3+ gets here)
      p += 4;
      continue;
    }
    PutBigEndian(p, 4, width);
    p += width;
    PutBigEndian(p, static_cast<uint32_t>(list->values[i]), 4);
    p += 4;
  }
  return SERDIFF_OK;
}

const serdiff_op kOps[] = {
    {"int64.to_decimal", SERDIFF_FORM_INT64, nullptr, nullptr, Int64ToDecimal, nullptr, nullptr},
    {"cql.serialize", SERDIFF_FORM_INT32_LIST, nullptr, nullptr, nullptr, nullptr,
     SerializeIntList},
};

const serdiff_module kModule = {
    SERDIFF_MODULE_ABI,
    "example",
#ifndef EXAMPLE_PLANT_INT2STRING_BUG
    "examples/own_serializer/example_module.cc: a plain int64 formatter and CQL list<int> writer",
#else
    "examples/own_serializer/example_module.cc with EXAMPLE_PLANT_INT2STRING_BUG (INT64_MIN wrong)",
#endif
    kOps,
    sizeof kOps / sizeof kOps[0],
};

}  // namespace

extern "C" __attribute__((visibility("default"))) const serdiff_module* serdiff_module_v1(void) {
  return &kModule;
}
