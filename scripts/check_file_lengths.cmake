# Fails when a source file of the project is over the length limit (CONTRIBUTING.md: no source
# file over 700 lines; split a longer one along its concerns). Run by ctest as
# source_file_lengths; by hand:
#   cmake -DSERDIFF_SOURCE_DIR=<checkout> [-DSERDIFF_MAX_LINES=700] -P scripts/check_file_lengths.cmake
# Counts the lines of every *.cc, *.h, *.py, *.js, *.sh, *.go and *.java file and of every extensionless script
# in scripts/ (shell or Python by its #! line), outside build*/, corpus/, hidden folders and
# node_modules/.
cmake_minimum_required(VERSION 3.25)

if(NOT SERDIFF_SOURCE_DIR)
  message(FATAL_ERROR "pass -DSERDIFF_SOURCE_DIR=<the source tree>")
endif()
if(NOT SERDIFF_MAX_LINES)
  set(SERDIFF_MAX_LINES 700)
endif()

# Walk the top-level folders one by one, so that build trees (large) are never entered.
file(GLOB _top RELATIVE ${SERDIFF_SOURCE_DIR} ${SERDIFF_SOURCE_DIR}/*)
set(_files "")
foreach(_entry ${_top})
  if(_entry MATCHES "^(build.*|corpus|\\..*)$")
    continue()
  endif()
  if(IS_DIRECTORY ${SERDIFF_SOURCE_DIR}/${_entry})
    file(GLOB_RECURSE _found LIST_DIRECTORIES false RELATIVE ${SERDIFF_SOURCE_DIR}
      ${SERDIFF_SOURCE_DIR}/${_entry}/*.cc ${SERDIFF_SOURCE_DIR}/${_entry}/*.h
      ${SERDIFF_SOURCE_DIR}/${_entry}/*.py ${SERDIFF_SOURCE_DIR}/${_entry}/*.js
      ${SERDIFF_SOURCE_DIR}/${_entry}/*.sh ${SERDIFF_SOURCE_DIR}/${_entry}/*.go
      ${SERDIFF_SOURCE_DIR}/${_entry}/*.java)
    # Installed npm packages (oracles/node/node_modules, scripts/bootstrap) are not ours.
    list(FILTER _found EXCLUDE REGEX "(^|/)node_modules/")
    list(APPEND _files ${_found})
  elseif(_entry MATCHES "\\.(cc|h|py|js|sh|go|java)$")
    list(APPEND _files ${_entry})
  endif()
endforeach()
file(GLOB _scripts LIST_DIRECTORIES false RELATIVE ${SERDIFF_SOURCE_DIR}
  ${SERDIFF_SOURCE_DIR}/scripts/*)
foreach(_script ${_scripts})
  if(NOT _script MATCHES "\\.[A-Za-z0-9]+$")
    file(STRINGS ${SERDIFF_SOURCE_DIR}/${_script} _first LIMIT_COUNT 1)
    if(_first MATCHES "^#!.*(sh|python)")
      list(APPEND _files ${_script})
    endif()
  endif()
endforeach()

set(_checked 0)
set(_over "")
foreach(_file ${_files})
  # Hidden folders (.git, ...) below the top level are not sources either.
  if(_file MATCHES "(^|/)\\.")
    continue()
  endif()
  math(EXPR _checked "${_checked} + 1")
  # Count newline characters, as wc -l does (a CMake list of lines would miscount lines that
  # hold a ';').
  file(READ ${SERDIFF_SOURCE_DIR}/${_file} _text)
  string(REGEX REPLACE "[^\n]" "" _newlines "${_text}")
  string(LENGTH "${_newlines}" _lines)
  if(_lines GREATER SERDIFF_MAX_LINES)
    string(APPEND _over "  ${_file}: ${_lines} lines\n")
  endif()
endforeach()

if(_over)
  message(FATAL_ERROR "source files over ${SERDIFF_MAX_LINES} lines (split them along their "
    "concerns):\n${_over}")
endif()
message(STATUS "${_checked} source files, none over ${SERDIFF_MAX_LINES} lines")
