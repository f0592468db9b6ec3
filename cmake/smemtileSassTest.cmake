# SASS tests of smemtile's tests: kernels compiled (never run, no GPU needed) and their SASS read.
#
# Defines, for every test folder (whatever the order they are added in):
#   SMEMTILE_CUOBJDUMP        cuobjdump (the toolkit's, found beside nvcc; or -DSMEMTILE_CUOBJDUMP=<path>:
#                             scripts/run_tests.sh installs it from PyPI)
#   SMEMTILE_REQUIRE_SASS     option: a missing cuobjdump is a configure error instead of leaving the
#                             SASS checks out (the zero-overhead checks would compare PTX)
#   SMEMTILE_ZERO_OVERHEAD_ARCH  the architecture the SASS tests compile for (the first of
#                             CMAKE_CUDA_ARCHITECTURES)
# and the function smemtile_add_sass_test below.
# An empty SMEMTILE_CUOBJDUMP (the ci preset where $env{SMEMTILE_CUOBJDUMP} is unset) means: find it.
if(DEFINED SMEMTILE_CUOBJDUMP AND "${SMEMTILE_CUOBJDUMP}" STREQUAL "")
  unset(SMEMTILE_CUOBJDUMP CACHE)
endif()
get_filename_component(_smemtile_cuda_bin_dir "${CMAKE_CUDA_COMPILER}" DIRECTORY)
find_program(SMEMTILE_CUOBJDUMP cuobjdump HINTS "${_smemtile_cuda_bin_dir}")
option(SMEMTILE_REQUIRE_SASS "Fail configuration when cuobjdump (the SASS tests) is missing" OFF)
if(SMEMTILE_CUOBJDUMP AND NOT EXISTS "${SMEMTILE_CUOBJDUMP}")
  message(FATAL_ERROR "SMEMTILE_CUOBJDUMP is ${SMEMTILE_CUOBJDUMP}, which does not exist")
elseif(SMEMTILE_CUOBJDUMP)
  message(STATUS "smemtile tests: SASS tests read ${SMEMTILE_CUOBJDUMP}")
elseif(SMEMTILE_REQUIRE_SASS)
  message(FATAL_ERROR "SMEMTILE_REQUIRE_SASS is ON but no cuobjdump was found (pass -DSMEMTILE_CUOBJDUMP=<path>; the ci preset reads it from the environment: scripts/run_tests.sh installs it and sets it)")
else()
  message(STATUS "smemtile tests: no cuobjdump: the zero-overhead tests compare PTX and the SASS "
                 "opcode tests are left out (pass -DSMEMTILE_CUOBJDUMP=<path>)")
endif()
list(GET CMAKE_CUDA_ARCHITECTURES 0 SMEMTILE_ZERO_OVERHEAD_ARCH)
string(REGEX REPLACE "[^0-9].*$" "" SMEMTILE_ZERO_OVERHEAD_ARCH "${SMEMTILE_ZERO_OVERHEAD_ARCH}")

# smemtile_add_sass_test(<name> SOURCE <file.cu> LABELS <labels>
#                        (OPCODES <kernel=OP,OP|kernel=OP...> | SIZES [TOLERANCE <n>] [SASS_ONLY])
#                        [INCLUDE_DIRS <dir>...])
#   OPCODES: tests/support/check_sass_opcodes.cmake: each kernel whose name contains the text before
#            '=' uses every listed opcode and none listed as !OP, and no kernel has generic LD/ST.
#            Needs cuobjdump: left out without it.
#   SIZES:   tests/support/compare_kernel_sizes.cmake: each lib_<x> kernel of SOURCE compiles to no
#            more instructions than its raw_<x> twin (+ TOLERANCE), no more generic LD/ST and as many
#            shared accesses: SASS with cuobjdump, PTX without (SASS_ONLY: left out without it).
#   include/ is always on the include path; each test works in its own folder of the build tree.
function(smemtile_add_sass_test name)
  cmake_parse_arguments(ARG "SIZES;SASS_ONLY" "SOURCE;OPCODES;TOLERANCE" "LABELS;INCLUDE_DIRS" ${ARGN})
  if(NOT ARG_SOURCE OR NOT ARG_LABELS OR (NOT ARG_OPCODES AND NOT ARG_SIZES))
    message(FATAL_ERROR "smemtile_add_sass_test(${name}): SOURCE, LABELS and OPCODES or SIZES are required")
  endif()
  if(NOT SMEMTILE_CUOBJDUMP AND (ARG_OPCODES OR ARG_SASS_ONLY))
    message(STATUS "smemtile tests: ${name} left out (needs cuobjdump)")
    return()
  endif()
  string(REGEX REPLACE "[^A-Za-z0-9_]" "_" work_dir "${name}")
  set(args "-DNVCC=${CMAKE_CUDA_COMPILER}" "-DSOURCE=${ARG_SOURCE}"
           "-DWORK_DIR=${CMAKE_CURRENT_BINARY_DIR}/sass/${work_dir}" "-DARCH=${SMEMTILE_ZERO_OVERHEAD_ARCH}"
           "-DCUOBJDUMP=${SMEMTILE_CUOBJDUMP}")
  set(include_dirs "${PROJECT_SOURCE_DIR}/include" ${ARG_INCLUDE_DIRS})
  string(REPLACE ";" "\\;" include_dirs "${include_dirs}")
  list(APPEND args "-DINCLUDE_DIRS=${include_dirs}")
  if(ARG_OPCODES)
    set(script check_sass_opcodes.cmake)
    list(APPEND args "-DEXPECT=${ARG_OPCODES}")
  else()
    set(script compare_kernel_sizes.cmake)
    set(require_sass "${SMEMTILE_REQUIRE_SASS}")
    if(ARG_SASS_ONLY)
      set(require_sass ON)
    endif()
    list(APPEND args "-DREQUIRE_SASS=${require_sass}")
    if(DEFINED ARG_TOLERANCE)
      list(APPEND args "-DTOLERANCE=${ARG_TOLERANCE}")
    endif()
  endif()
  add_test(NAME ${name} COMMAND "${CMAKE_COMMAND}" ${args} -P "${PROJECT_SOURCE_DIR}/tests/support/${script}")
  set_tests_properties(${name} PROPERTIES LABELS "${ARG_LABELS}")
endfunction()
