# docs:api_reference: runs Doxygen over include/smemtile (docs/Doxyfile.in) and decides from its
# warning log (WARN_IF_UNDOCUMENTED, WARN_IF_DOC_ERROR; namespace detail excluded):
#   - doxygen exits non-zero                                   -> FAIL
#   - a warning in a header not listed in PENDING              -> FAIL (undocumented public name or
#                                                                 malformed doc comment)
#   - a warning that names no file (configuration, input)      -> FAIL
#   - a header listed in PENDING with no warning any more      -> FAIL (remove it from the list)
#   - warnings in headers listed in PENDING                    -> printed, do not fail
# It passes only when none of the FAIL cases occurs; with an empty PENDING list, that means no
# warning at all.
#
#   cmake -DDOXYGEN=<doxygen> -DDOXYFILE=<Doxyfile> -DWARN_LOG=<log> -DSOURCE_DIR=<repo>
#         -DPENDING=<undocumented_pending.txt> -P check_api_docs.cmake
foreach(required DOXYGEN DOXYFILE WARN_LOG SOURCE_DIR PENDING)
  if(NOT DEFINED ${required})
    message(FATAL_ERROR "check_api_docs.cmake: ${required} is not set")
  endif()
endforeach()

file(REMOVE "${WARN_LOG}")
execute_process(COMMAND "${DOXYGEN}" "${DOXYFILE}" WORKING_DIRECTORY "${SOURCE_DIR}"
                RESULT_VARIABLE rc OUTPUT_VARIABLE out ERROR_VARIABLE err)
if(NOT rc EQUAL 0)
  message(FATAL_ERROR "doxygen failed (exit ${rc}):\n${out}${err}")
endif()
if(NOT EXISTS "${WARN_LOG}")
  message(FATAL_ERROR "doxygen wrote no warning log at ${WARN_LOG}")
endif()

# The pending headers (comments and blank lines skipped).
file(STRINGS "${PENDING}" pending_lines)
set(pending "")
foreach(line IN LISTS pending_lines)
  string(STRIP "${line}" line)
  if(line AND NOT line MATCHES "^#")
    list(APPEND pending "${line}")
  endif()
endforeach()

# Warnings: a line "<file>:<line>: warning|error: <text>" starts one; other lines continue it.
file(READ "${WARN_LOG}" log)
string(REPLACE ";" "\\;" log "${log}")
string(REPLACE "\n" ";" lines "${log}")
set(entries "")
set(failures "")
set(pending_count 0)
foreach(path IN LISTS pending)
  set(count_${path} 0)
endforeach()
foreach(line IN LISTS lines)
  if(line STREQUAL "")
    continue()
  endif()
  if(line MATCHES "^([^:]+):([0-9]+): (warning|error): ")
    file(RELATIVE_PATH file "${SOURCE_DIR}" "${CMAKE_MATCH_1}")
    string(REPLACE "${SOURCE_DIR}/" "" text "${line}")
    list(FIND pending "${file}" index)
    if(index GREATER -1)
      math(EXPR count_${file} "${count_${file}} + 1")
      math(EXPR pending_count "${pending_count} + 1")
      message("pending: ${text}")
    else()
      list(APPEND failures "${text}")
    endif()
  elseif(line MATCHES "^[ \t]")
    # continuation of the previous warning (parameter lists and the like): printed with it
    message("         ${line}")
  else()
    list(APPEND failures "${line}")
  endif()
endforeach()

foreach(path IN LISTS pending)
  if(count_${path} EQUAL 0)
    list(APPEND failures "${path} has no Doxygen warning any more: remove it from ${PENDING}")
  endif()
endforeach()

list(LENGTH pending pending_files)
list(REMOVE_DUPLICATES failures)  # Doxygen may report one name twice
if(failures)
  list(LENGTH failures failure_count)
  string(REPLACE ";" "\n  " failures "${failures}")
  message(FATAL_ERROR "API reference: ${failure_count} problem(s) (undocumented public names, malformed doc "
                      "comments or a stale pending list):\n  ${failures}")
endif()
message(STATUS "API reference: no Doxygen warning outside the pending headers; ${pending_count} warnings "
               "(printed above) in the ${pending_files} pending header(s) listed in ${PENDING}")
