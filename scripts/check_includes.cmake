# Fails when an #include points against the dependency direction (docs/architecture.md,
# "Dependencies point one way"):
#   src/        includes only Abseil and src/ itself (serdiff/...): no harness, reference,
#               oracles or targets;
#   reference/  no harness/, oracles/ or targets/ (it may use the optimized side's value model);
#   oracles/    no targets/;
#   harness/    no targets/, reference/, oracles/, and of src/ only serdiff/common/ (the harness
#               knows no family); inside harness/, the engine's headers are layered
#               (docs/architecture.md, "The engine, one job a header"): a file includes only
#               engine headers of its own layer or below (a .cc counts as its header's layer).
#   oracles/    of harness/ only the result vocabulary (harness/result.h).
# Run by ctest as include_graph; by hand:
#   cmake -DSERDIFF_SOURCE_DIR=<checkout> -P scripts/check_includes.cmake
cmake_minimum_required(VERSION 3.25)
if(NOT SERDIFF_SOURCE_DIR)
  message(FATAL_ERROR "pass -DSERDIFF_SOURCE_DIR=<the source tree>")
endif()

# folder -> regex of the quoted includes it must not have
set(_forbidden_src "^(harness|reference|oracles|targets)/")
set(_forbidden_reference "^(harness|oracles|targets)/")
set(_forbidden_oracles "^targets/")
# The engine's layers, lowest first; a header not listed is a leaf (includes no engine header).
set(_layers result interchange definition run_config verdict report external run_impls
  typed_target registry target)
# harness: checked below (targets, reference, oracles, and serdiff/ outside serdiff/common/)

set(_bad "")
foreach(_dir src reference oracles harness)
  if(NOT IS_DIRECTORY ${SERDIFF_SOURCE_DIR}/${_dir})
    continue()
  endif()
  file(GLOB_RECURSE _files RELATIVE ${SERDIFF_SOURCE_DIR}
    ${SERDIFF_SOURCE_DIR}/${_dir}/*.cc ${SERDIFF_SOURCE_DIR}/${_dir}/*.h)
  foreach(_f ${_files})
    file(STRINGS ${SERDIFF_SOURCE_DIR}/${_f} _incs REGEX "^[ \t]*#[ \t]*include[ \t]+\"")
    foreach(_inc ${_incs})
      string(REGEX REPLACE "^[ \t]*#[ \t]*include[ \t]+\"([^\"]*)\".*" "\\1" _path "${_inc}")
      set(_hit FALSE)
      if(_dir STREQUAL "harness")
        # CMake regexes have no lookahead: serdiff/ is allowed only under serdiff/common/.
        if(_path MATCHES "^(targets|reference|oracles)/" OR
           (_path MATCHES "^serdiff/" AND NOT _path MATCHES "^serdiff/common/"))
          set(_hit TRUE)
        endif()
        get_filename_component(_self ${_f} NAME_WE)
        list(FIND _layers ${_self} _self_rank)
        if(_path MATCHES "^harness/([a-z_]+)\\.h$")
          list(FIND _layers ${CMAKE_MATCH_1} _inc_rank)
          if(_inc_rank GREATER _self_rank AND _self_rank GREATER -1)
            set(_hit TRUE)
          endif()
        endif()
      elseif(_path MATCHES "${_forbidden_${_dir}}")
        set(_hit TRUE)
      elseif(_dir STREQUAL "oracles" AND _path MATCHES "^harness/" AND
             NOT _path STREQUAL "harness/result.h")
        set(_hit TRUE)
      endif()
      if(_hit)
        list(APPEND _bad "${_f}: #include \"${_path}\"")
      endif()
    endforeach()
  endforeach()
endforeach()

if(_bad)
  list(JOIN _bad "\n  " _text)
  message(FATAL_ERROR "includes against the dependency direction (docs/architecture.md):\n  ${_text}")
endif()
message(STATUS "include graph: every include points the allowed way")
