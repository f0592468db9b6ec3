# smemtile_add_compile_test(<name> <snippet.cu> <define> <labels> [<pass-regex>]): a test that compiles
# <snippet.cu> with nvcc (device front end only, sm_90) and -D<define>. With <pass-regex> it passes
# when the compiler's output matches it (a compile-fail case: the static_assert's message); without,
# when the snippet compiles (the control case).
function(smemtile_add_compile_test name snippet define labels)
  add_test(NAME ${name}
    COMMAND "${CMAKE_CUDA_COMPILER}" -std=c++17 -arch=sm_90 -fdevice-syntax-only "-I${PROJECT_SOURCE_DIR}/include"
            -D${define} -c "${snippet}" -o "${CMAKE_CURRENT_BINARY_DIR}/${name}.o")
  set_tests_properties(${name} PROPERTIES LABELS "${labels}")
  if(ARGC GREATER 4)
    set_tests_properties(${name} PROPERTIES PASS_REGULAR_EXPRESSION "${ARGV4}")
  endif()
endfunction()
