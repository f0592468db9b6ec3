# smemtile_add_compile_test(<name> SOURCE <snippet> LABELS <labels> [DEFINES <NAME=value>...]
#                           [EXPECT <regex>])
#   The one compile-fail harness of smemtile's tests: a test that compiles <snippet> with the
#   -D<define>s and, with EXPECT, passes when the compiler's output matches <regex> (a compile-fail
#   case: a static_assert's message); without EXPECT it passes when the snippet compiles (the
#   control case, proving that a failure comes from the parameters and not from the snippet).
#   A .cpp snippet is compiled by the C++ compiler (-fsyntax-only: the header needs no CUDA
#   compiler); a .cu snippet by nvcc for sm_90, device front end only (-fdevice-syntax-only).
function(smemtile_add_compile_test name)
  cmake_parse_arguments(ARG "" "SOURCE;EXPECT" "LABELS;DEFINES" ${ARGN})
  if(NOT ARG_SOURCE OR NOT ARG_LABELS)
    message(FATAL_ERROR "smemtile_add_compile_test(${name}): SOURCE and LABELS are required")
  endif()
  set(defines "")
  foreach(define IN LISTS ARG_DEFINES)
    list(APPEND defines "-D${define}")
  endforeach()
  if(ARG_SOURCE MATCHES "\\.cpp$")
    set(command "${CMAKE_CXX_COMPILER}" -std=c++17 -fsyntax-only "-I${PROJECT_SOURCE_DIR}/include"
                ${defines} "${ARG_SOURCE}")
  else()
    set(command "${CMAKE_CUDA_COMPILER}" -std=c++17 -arch=sm_90 -fdevice-syntax-only
                "-I${PROJECT_SOURCE_DIR}/include" ${defines} -c "${ARG_SOURCE}"
                -o "${CMAKE_CURRENT_BINARY_DIR}/${name}.o")
  endif()
  add_test(NAME ${name} COMMAND ${command})
  set_tests_properties(${name} PROPERTIES LABELS "${ARG_LABELS}")
  if(DEFINED ARG_EXPECT)
    set_tests_properties(${name} PROPERTIES PASS_REGULAR_EXPRESSION "${ARG_EXPECT}")
  endif()
endfunction()

# smemtile_add_compile_cases(SOURCE <file> DEFINE <macro> LABELS <labels> CASES "<n>|<test name>[|<expected text>]" ...)
# One compile test per case: <file> compiled with -D<macro>=<n>; with an expected text the compiler
# must print it (a static_assert's message, so the case must fail for the documented reason), else
# the case must compile.
function(smemtile_add_compile_cases)
  cmake_parse_arguments(ARG "" "SOURCE;DEFINE" "LABELS;CASES" ${ARGN})
  foreach(entry IN LISTS ARG_CASES)
    string(REPLACE "|" ";" parts "${entry}")
    list(GET parts 0 case_number)
    list(GET parts 1 name)
    list(LENGTH parts n)
    set(expect "")
    if(n GREATER 2)
      list(GET parts 2 message)
      set(expect EXPECT "${message}")
    endif()
    smemtile_add_compile_test(${name} SOURCE "${ARG_SOURCE}" DEFINES ${ARG_DEFINE}=${case_number}
      LABELS "${ARG_LABELS}" ${expect})
  endforeach()
endfunction()
