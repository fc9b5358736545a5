# serdiff_add_fuzz_target(<name> TARGET <serdiff target> [ENGINE <link flags>] [REPLAY])
#
# Adds the executable <name>: serdiff's generic fuzz entry (fuzz/fuzz_main.cc, installed in
# <prefix>/share/serdiff/fuzz) for one target, linking that target's family whole
# (serdiff::targets_<family>, WHOLE_ARCHIVE), as the in-tree fuzz binaries do
# (fuzz/CMakeLists.txt). A failing input prints the differential report, ending in
# "serdiff: <target>: <class>", and aborts.
#
#   * libFuzzer, when the compiler links ENGINE (default SERDIFF_FUZZ_ENGINE,
#     "-fsanitize=fuzzer": clang): `<name> [libFuzzer flags] [corpus dir...]`, with serdiff's
#     custom mutator (fuzz/custom_mutator.cc). Compile your own code under test with
#     -fsanitize=fuzzer-no-link for coverage (serdiff's installed libraries carry none).
#   * otherwise (g++, or REPLAY): the replay main (fuzz/replay_main.cc), `<name> <file or
#     directory>...`, which runs every input through the same entry point and prints
#     "<target>: replayed N inputs without a failure".
#
# The target property SERDIFF_FUZZ_MODE says which: "libfuzzer" or "replay". Modules and a
# subject come from the environment at run time (SERDIFF_MODULES, SERDIFF_SUBJECT).
include_guard(GLOBAL)

set(SERDIFF_FUZZ_ENGINE "-fsanitize=fuzzer" CACHE STRING
    "Link flags of the fuzzing engine for serdiff_add_fuzz_target")

function(serdiff_add_fuzz_target name)
  cmake_parse_arguments(PARSE_ARGV 1 arg "REPLAY" "TARGET;ENGINE" "")
  if(arg_UNPARSED_ARGUMENTS OR NOT arg_TARGET)
    message(FATAL_ERROR "usage: serdiff_add_fuzz_target(<name> TARGET <serdiff target> "
                        "[ENGINE <link flags>] [REPLAY]), got: ${ARGV}")
  endif()
  if(NOT arg_TARGET MATCHES "^[a-z0-9_]+$")
    message(FATAL_ERROR "serdiff_add_fuzz_target: '${arg_TARGET}' is no target name "
                        "(`serdiff list` names them)")
  endif()
  set(_engine_text "${SERDIFF_FUZZ_ENGINE}")
  if(arg_ENGINE)
    set(_engine_text "${arg_ENGINE}")
  endif()
  separate_arguments(_engine UNIX_COMMAND "${_engine_text}")

  set(_mode replay)
  if(NOT arg_REPLAY)
    # Does the compiler link a fuzz target with the engine? Cached per engine.
    string(MD5 _key "${CMAKE_CXX_COMPILER};${_engine_text}")
    string(SUBSTRING ${_key} 0 8 _key)
    include(CheckCXXSourceCompiles)
    set(CMAKE_REQUIRED_LINK_OPTIONS ${_engine})
    set(CMAKE_REQUIRED_QUIET ON)
    check_cxx_source_compiles(
      "#include <cstddef>\n#include <cstdint>\nextern \"C\" int LLVMFuzzerTestOneInput(const uint8_t*, size_t) { return 0; }"
      SERDIFF_FUZZ_ENGINE_LINKS_${_key})
    if(SERDIFF_FUZZ_ENGINE_LINKS_${_key})
      set(_mode libfuzzer)
    endif()
  endif()

  set(_src ${SERDIFF_DATA_DIR}/fuzz)
  if(_mode STREQUAL "libfuzzer")
    set(_name_cc ${CMAKE_CURRENT_BINARY_DIR}/serdiff_fuzz_names/${name}.cc)
    file(CONFIGURE OUTPUT ${_name_cc} CONTENT
         "extern \"C\" const char* SerdiffFuzzTargetName() { return \"${arg_TARGET}\"; }\n")
    add_executable(${name} ${_src}/fuzz_main.cc ${_src}/custom_mutator.cc ${_name_cc})
    target_link_options(${name} PRIVATE ${_engine})
    # A module built with -fsanitize=fuzzer-no-link calls libFuzzer's coverage callbacks, which
    # it finds in the executable once loaded (dlopen): export them (-rdynamic).
    set_target_properties(${name} PROPERTIES ENABLE_EXPORTS ON)
  else()
    add_executable(${name} ${_src}/fuzz_main.cc ${_src}/replay_main.cc)
    target_compile_definitions(${name} PRIVATE SERDIFF_REPLAY_TARGET="${arg_TARGET}")
  endif()
  string(REGEX MATCH "^[a-z0-9]+" _family ${arg_TARGET})
  if(TARGET serdiff::targets_${_family})
    target_link_libraries(${name} PRIVATE
      "$<LINK_LIBRARY:WHOLE_ARCHIVE,serdiff::targets_${_family}>" serdiff::harness)
  else()
    target_link_libraries(${name} PRIVATE serdiff::targets serdiff::harness)
  endif()
  # A failure's printed repro commands name the installed CLI.
  target_compile_definitions(${name} PRIVATE SERDIFF_INSTALLED_CLI="${SERDIFF_EXECUTABLE}")
  set_target_properties(${name} PROPERTIES SERDIFF_FUZZ_MODE ${_mode}
                                           SERDIFF_FUZZ_TARGET ${arg_TARGET})
endfunction()
