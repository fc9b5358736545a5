// A module (harness/serdiff_module.h) that only declares an ABI version, built once per version
// the loader must accept or refuse (tests/CMakeLists.txt: SERDIFF_TEST_MODULE_ABI=0, 1, 2, 3).
// Its one op writes "v<version>" into the room (version 2 and later) or through append (1).
#include <cstring>

#include "harness/serdiff_module.h"

#ifndef SERDIFF_TEST_MODULE_ABI
#error "SERDIFF_TEST_MODULE_ABI must be defined"
#endif

namespace {

int Answer(int64_t, serdiff_out* out) {
  const char text[] = {'v', static_cast<char>('0' + SERDIFF_TEST_MODULE_ABI)};
#if SERDIFF_TEST_MODULE_ABI >= 2
  std::memcpy(out->room, text, sizeof text);
  out->room_used = sizeof text;
#else
  unsigned char* p = out->append(out->ctx, sizeof text);
  if (p == nullptr) return SERDIFF_REJECTED;
  std::memcpy(p, text, sizeof text);
#endif
  return SERDIFF_OK;
}

const serdiff_op kOps[] = {
    {"int64.to_decimal", SERDIFF_FORM_INT64, "no_such_target", nullptr, Answer, nullptr, nullptr},
};
const serdiff_module kModule = {SERDIFF_TEST_MODULE_ABI, "abi_fixture",
                                "tests/module_abi_fixture.cc", kOps, 1};

}  // namespace

extern "C" __attribute__((visibility("default"))) const serdiff_module* serdiff_module_v1() {
  return &kModule;
}
