# Compile-fail tests: invalid StaticTile parameters must stop compilation with a static_assert that
# says what is wrong. Each test compiles static_tile_parameters.cpp with the C++ compiler
# (-fsyntax-only: no CUDA compiler, nothing linked) and passes when the output contains the
# message; its twin compiles the nearest valid parameters and must succeed, so a snippet that
# fails for an unrelated reason cannot pass.

set(SMEMTILE_COMPILE_FAIL_SNIPPET "${CMAKE_CURRENT_LIST_DIR}/static_tile_parameters.cpp")

# smemtile_static_tile_compile_test(<name> <T> <rows> <cols> <pad> [<expected message regex>])
#   Without a regex the tile must compile.
function(smemtile_static_tile_compile_test name type rows cols pad)
  add_test(NAME ${name}
    COMMAND "${CMAKE_CXX_COMPILER}" -std=c++17 -fsyntax-only "-I${PROJECT_SOURCE_DIR}/include"
            "-DTILE_T=${type}" "-DTILE_ROWS=${rows}" "-DTILE_COLS=${cols}" "-DTILE_PAD=${pad}"
            "${SMEMTILE_COMPILE_FAIL_SNIPPET}")
  set_tests_properties(${name} PROPERTIES LABELS "host;static")
  if(ARGC GREATER 5)
    set_tests_properties(${name} PROPERTIES PASS_REGULAR_EXPRESSION "${ARGV5}")
  endif()
endfunction()

smemtile_static_tile_compile_test(static_compile_fail_zero_rows int 0 4 0 "a tile needs at least one row")
smemtile_static_tile_compile_test(static_compile_ok_one_row int 1 4 0)

smemtile_static_tile_compile_test(static_compile_fail_zero_cols int 4 0 0 "a tile needs at least one column")
smemtile_static_tile_compile_test(static_compile_ok_one_col int 4 1 0)

smemtile_static_tile_compile_test(static_compile_fail_negative_pad int 4 4 -1
  "the padding after each row cannot be negative")
smemtile_static_tile_compile_test(static_compile_ok_zero_pad int 4 4 0)

# 96 x (128 + 1) ints = 49536 bytes, one padded row over 48 KB; without the pad exactly 48 KB.
smemtile_static_tile_compile_test(static_compile_fail_over_48kb int 96 128 1
  "exceeds the 48 KB static shared memory limit")
smemtile_static_tile_compile_test(static_compile_ok_exactly_48kb int 96 128 0)

# One byte over the limit with 1-byte elements: the limit is in bytes, not in elements.
smemtile_static_tile_compile_test(static_compile_fail_one_byte_over_48kb char 1 49153 0
  "exceeds the 48 KB static shared memory limit")
smemtile_static_tile_compile_test(static_compile_ok_char_48kb char 1 49152 0)
