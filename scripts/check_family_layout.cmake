# The family folder template (docs/architecture.md, "The family folder"), checked for every
# serializer family (a folder src/serdiff/<family>/ with a targets/<family>/ beside it):
#   - every file of targets/<family>/ has one of the template's names: CMakeLists.txt,
#     <family>.cc, <family>_<part>.cc, domain.h, domain.cc, domain_<part>.cc, parse.cc,
#     wire_edges.cc, interchange.h, interchange.cc, divergences.h, divergences.cc,
#     divergences_<peer>.cc, internal.h;
#   - every .cc and .h opens the family's one namespace, serdiff::targets::<family>, and no other
#     namespace under serdiff::targets;
#   - <family>.cc holds the registration, SERDIFF_REGISTER_FAMILY("<family>", RegisterTargets);
#   - a family with a divergences_<peer>.cc has a divergences.h.
# Usage: cmake -DSERDIFF_SOURCE_DIR=<checkout> -P scripts/check_family_layout.cmake
# Prints every departure and fails when there is one. (targets/selftest/, the harness's own
# planted targets, is no serializer family and is not checked.)
cmake_minimum_required(VERSION 3.25)
if(NOT SERDIFF_SOURCE_DIR)
  message(FATAL_ERROR "usage: cmake -DSERDIFF_SOURCE_DIR=<checkout> -P check_family_layout.cmake")
endif()
set(_bad "")
file(GLOB _families LIST_DIRECTORIES true RELATIVE ${SERDIFF_SOURCE_DIR}/src/serdiff
     ${SERDIFF_SOURCE_DIR}/src/serdiff/*)
foreach(_family ${_families})
  set(_dir ${SERDIFF_SOURCE_DIR}/targets/${_family})
  if(NOT IS_DIRECTORY ${_dir} OR NOT EXISTS ${SERDIFF_SOURCE_DIR}/src/serdiff/${_family}/CMakeLists.txt)
    continue()
  endif()
  file(GLOB _files RELATIVE ${_dir} ${_dir}/*)
  set(_has_peer_file FALSE)
  foreach(_f ${_files})
    set(_path targets/${_family}/${_f})
    if(NOT _f MATCHES "^(CMakeLists\\.txt|${_family}(_[a-z0-9_]+)?\\.cc|domain(_[a-z0-9_]+)?\\.cc|domain\\.h|parse\\.cc|wire_edges\\.cc|interchange\\.(h|cc)|divergences\\.(h|cc)|divergences_[a-z0-9_]+\\.cc|internal\\.h)$")
      string(APPEND _bad "  ${_path}: not a name of the family template\n")
    endif()
    if(_f MATCHES "^divergences_")
      set(_has_peer_file TRUE)
    endif()
    if(NOT _f MATCHES "\\.(cc|h)$")
      continue()
    endif()
    file(STRINGS ${_dir}/${_f} _opens REGEX "^namespace serdiff::targets")
    if(NOT _opens)
      string(APPEND _bad "  ${_path}: opens no namespace serdiff::targets::${_family}\n")
    endif()
    foreach(_line ${_opens})
      if(NOT _line STREQUAL "namespace serdiff::targets::${_family} {")
        string(APPEND _bad "  ${_path}: ${_line} (the family's namespace is serdiff::targets::${_family})\n")
      endif()
    endforeach()
  endforeach()
  if(EXISTS ${_dir}/${_family}.cc)
    file(STRINGS ${_dir}/${_family}.cc _reg REGEX "^SERDIFF_REGISTER_FAMILY\\(\"${_family}\", RegisterTargets\\);$")
    if(NOT _reg)
      string(APPEND _bad "  targets/${_family}/${_family}.cc: no SERDIFF_REGISTER_FAMILY(\"${_family}\", RegisterTargets);\n")
    endif()
  else()
    string(APPEND _bad "  targets/${_family}: no ${_family}.cc (the registration)\n")
  endif()
  if(_has_peer_file AND NOT EXISTS ${_dir}/divergences.h)
    string(APPEND _bad "  targets/${_family}: divergences_<peer>.cc without divergences.h\n")
  endif()
endforeach()
if(_bad)
  message(FATAL_ERROR "family folders that depart from docs/architecture.md, \"The family folder\":\n${_bad}")
endif()
message(STATUS "every family folder follows the template")
