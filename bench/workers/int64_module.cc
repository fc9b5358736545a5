// A module (harness/serdiff_module.h) for bench/workers_benchmark.cc: serdiff's own optimized
// int64 formatter (serdiff/bson/int_format.h, inline) behind the module ABI, so that the
// benchmark compares the same function compiled in and called through a module.
#include "harness/serdiff_module.h"
#include "serdiff/bson/int_format.h"

namespace {

// The digits go straight into the room serdiff gives up front (ABI 2: at least
// SERDIFF_OUT_ROOM_MIN = 64 bytes; FormatInt64 writes at most 20).
int FormatInt64(int64_t v, serdiff_out* out) {
  out->room_used = serdiff::bson::FormatInt64(v, reinterpret_cast<char*>(out->room));
  return SERDIFF_OK;
}

const serdiff_op kOps[] = {
    {"int64.to_decimal", SERDIFF_FORM_INT64, "bson_format_int64", nullptr, FormatInt64, nullptr,
     nullptr},
};
const serdiff_module kModule = {SERDIFF_MODULE_ABI, "bench_int64",
                                "bench/workers/int64_module.cc: serdiff::bson::FormatInt64 as a "
                                "module",
                                kOps, 1};

}  // namespace

extern "C" __attribute__((visibility("default"))) const serdiff_module* serdiff_module_v1() {
  return &kModule;
}
