# `cmake --install <build> [--prefix <dir>]`: what a user needs to build a test executable against
# every target, outside this tree, with `find_package(serdiff)` (examples/own_serializer/):
#
#   lib/libserdiff_*.a                   every library of src/serdiff/, reference/, oracles/,
#                                        targets/ and harness/ (serdiff_common is header-only)
#   lib/cmake/serdiff/                   serdiffConfig.cmake (+ Version, the exported targets
#                                        serdiff::<name without "serdiff_">, serdiffFuzz.cmake)
#   include/serdiff/harness/, targets/families.h, fuzz/target_name.h,
#     reference/, oracles/             headers, included as "harness/target.h" ...
#   include/serdiff/<family>/, common/   headers, included as "serdiff/cql/value.h" ...
#   include/serdiff/fdp/                 FuzzedDataProvider.h (the harness headers include it)
#   bin/serdiff                          the CLI
#   share/serdiff/oracles/, workers/     the shipped worker manifests and scripts
#   share/serdiff/corpus/                the seed corpus, corpus/<target>/
#   share/serdiff/fuzz/                  the generic fuzz entry's sources and dictionaries
#
# The libraries are collected from the folders below, so that a new family or oracle is
# installed without a line here. serdiff::targets links every family's library whole
# (WHOLE_ARCHIVE), as tools/ links it: registrations are static initializers nothing references.
set(SERDIFF_INSTALL_CMAKEDIR ${CMAKE_INSTALL_LIBDIR}/cmake/serdiff)
set(SERDIFF_INSTALL_DATA ${CMAKE_INSTALL_DATADIR}/serdiff)

# The library targets (static, interface) named serdiff_* defined in `dir` and below.
function(serdiff_collect_libraries dir out)
  set(_found "")
  get_property(_targets DIRECTORY ${dir} PROPERTY BUILDSYSTEM_TARGETS)
  foreach(_t ${_targets})
    get_target_property(_type ${_t} TYPE)
    if(_t MATCHES "^serdiff_" AND _type MATCHES "^(STATIC|SHARED|INTERFACE)_LIBRARY$")
      list(APPEND _found ${_t})
    endif()
  endforeach()
  get_property(_subdirs DIRECTORY ${dir} PROPERTY SUBDIRECTORIES)
  foreach(_sub ${_subdirs})
    serdiff_collect_libraries(${_sub} _below)
    list(APPEND _found ${_below})
  endforeach()
  set(${out} ${_found} PARENT_SCOPE)
endfunction()

set(_libs "")
foreach(_dir src/serdiff reference harness oracles targets)
  serdiff_collect_libraries(${PROJECT_SOURCE_DIR}/${_dir} _in_dir)
  list(APPEND _libs ${_in_dir})
endforeach()
# A module's one header (harness/serdiff_module.h, C ABI): serdiff::module_api links nothing.
add_library(serdiff_module_api INTERFACE)
target_include_directories(serdiff_module_api INTERFACE $<BUILD_INTERFACE:${PROJECT_SOURCE_DIR}>)
list(APPEND _libs serdiff_module_api)
list(REMOVE_DUPLICATES _libs)
# serdiff::targets: the registry and every family's library linked whole. The in-tree
# serdiff_targets names its families in $<LINK_LIBRARY:WHOLE_ARCHIVE,...> expressions, which
# install(EXPORT) writes out with the in-tree names; the exported one is this twin.
list(REMOVE_ITEM _libs serdiff_targets)
add_library(serdiff_targets_export INTERFACE)
set_target_properties(serdiff_targets_export PROPERTIES EXPORT_NAME targets)
target_link_libraries(serdiff_targets_export INTERFACE serdiff_targets_registry)
foreach(_lib ${_libs})
  if(_lib MATCHES "^serdiff_targets_(.+)$" AND NOT _lib STREQUAL "serdiff_targets_registry")
    target_link_libraries(serdiff_targets_export INTERFACE
      "$<INSTALL_INTERFACE:$<LINK_LIBRARY:WHOLE_ARCHIVE,serdiff::targets_${CMAKE_MATCH_1}>>")
  endif()
endforeach()
foreach(_lib ${_libs})
  string(REGEX REPLACE "^serdiff_" "" _export_name ${_lib})
  set_target_properties(${_lib} PROPERTIES EXPORT_NAME ${_export_name})
endforeach()
set_target_properties(serdiff PROPERTIES EXPORT_NAME serdiff)

install(TARGETS ${_libs} serdiff_targets_export serdiff EXPORT serdiffTargets
        ARCHIVE DESTINATION ${CMAKE_INSTALL_LIBDIR}
        LIBRARY DESTINATION ${CMAKE_INSTALL_LIBDIR}
        RUNTIME DESTINATION ${CMAKE_INSTALL_BINDIR}
        INCLUDES DESTINATION ${CMAKE_INSTALL_INCLUDEDIR}/serdiff ${CMAKE_INSTALL_INCLUDEDIR})
install(EXPORT serdiffTargets NAMESPACE serdiff:: DESTINATION ${SERDIFF_INSTALL_CMAKEDIR})

# Headers. "harness/...", "targets/families.h", "fuzz/target_name.h", "fuzz/fuzz_registry.h",
# "reference/...",
# "oracles/..." resolve under include/serdiff; "serdiff/<family>/..." under include.
set(_inc ${CMAKE_INSTALL_INCLUDEDIR}/serdiff)
install(DIRECTORY harness/ DESTINATION ${_inc}/harness FILES_MATCHING PATTERN "*.h")
install(FILES targets/families.h DESTINATION ${_inc}/targets)
install(FILES fuzz/target_name.h fuzz/fuzz_registry.h DESTINATION ${_inc}/fuzz)
install(FILES ${SERDIFF_FDP_INCLUDE_DIR}/FuzzedDataProvider.h DESTINATION ${_inc}/fdp)
install(DIRECTORY src/serdiff/ DESTINATION ${_inc} FILES_MATCHING PATTERN "*.h")
install(DIRECTORY reference/ DESTINATION ${_inc}/reference FILES_MATCHING PATTERN "*.h")
install(DIRECTORY oracles/ DESTINATION ${_inc}/oracles FILES_MATCHING PATTERN "*.h"
        PATTERN node_modules EXCLUDE)

# Data: worker manifests and scripts (harness/external.cc, OraclesDir: an installed
# <prefix>/bin/serdiff reads <prefix>/share/serdiff/oracles), the corpus, the fuzz entry.
install(DIRECTORY oracles/ DESTINATION ${SERDIFF_INSTALL_DATA}/oracles
        FILES_MATCHING PATTERN "worker*.json" PATTERN "interchange.json" PATTERN "*.py"
        PATTERN "*.js" PATTERN "*.go" PATTERN "*.java" PATTERN "package.json"
        PATTERN "package-lock.json"
        PATTERN node_modules EXCLUDE PATTERN __pycache__ EXCLUDE)
install(DIRECTORY workers/ DESTINATION ${SERDIFF_INSTALL_DATA}/workers
        PATTERN node_modules EXCLUDE PATTERN __pycache__ EXCLUDE)
install(DIRECTORY corpus/ DESTINATION ${SERDIFF_INSTALL_DATA}/corpus)
install(FILES fuzz/fuzz_main.cc fuzz/replay_main.cc fuzz/custom_mutator.cc
        DESTINATION ${SERDIFF_INSTALL_DATA}/fuzz)
install(DIRECTORY fuzz/ DESTINATION ${SERDIFF_INSTALL_DATA}/fuzz
        FILES_MATCHING PATTERN "*.dict")

# The package: the dependencies of the libraries built (the oracles of the families chosen).
set(SERDIFF_CONFIG_FMT OFF)
if(TARGET serdiff_oracle_fmt)
  set(SERDIFF_CONFIG_FMT ON)
endif()
set(SERDIFF_CONFIG_LIBBSON "")
if(TARGET serdiff_oracle_libbson)
  set(SERDIFF_CONFIG_LIBBSON libbson-1.0)
endif()
include(CMakePackageConfigHelpers)
configure_package_config_file(${PROJECT_SOURCE_DIR}/cmake/serdiffConfig.cmake.in
  ${PROJECT_BINARY_DIR}/serdiffConfig.cmake
  INSTALL_DESTINATION ${SERDIFF_INSTALL_CMAKEDIR}
  PATH_VARS SERDIFF_INSTALL_DATA CMAKE_INSTALL_BINDIR)
write_basic_package_version_file(${PROJECT_BINARY_DIR}/serdiffConfigVersion.cmake
  COMPATIBILITY SameMinorVersion)
install(FILES ${PROJECT_BINARY_DIR}/serdiffConfig.cmake
              ${PROJECT_BINARY_DIR}/serdiffConfigVersion.cmake
              ${PROJECT_SOURCE_DIR}/cmake/serdiffFuzz.cmake
        DESTINATION ${SERDIFF_INSTALL_CMAKEDIR})
