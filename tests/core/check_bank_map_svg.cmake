# Runs bank_map --svg and checks the file is an SVG picture of the tile with conflicts marked, whose
# text fits inside the picture.
file(REMOVE "${OUT}")
execute_process(COMMAND "${BANK_MAP}" --elem-bytes 4 --rows 32 --cols 32 --pad 1 --access column --svg "${OUT}"
                RESULT_VARIABLE rc OUTPUT_QUIET)
if(NOT rc EQUAL 0)
  message(FATAL_ERROR "bank_map --svg exited with ${rc}")
endif()
if(NOT EXISTS "${OUT}")
  message(FATAL_ERROR "bank_map did not write ${OUT}")
endif()
file(READ "${OUT}" svg)
if(NOT svg MATCHES "^<\\?xml[^\n]*\n<svg [^>]*xmlns=\"http://www.w3.org/2000/svg\"" OR NOT svg MATCHES "</svg>[\n]*$")
  message(FATAL_ERROR "${OUT} is not an SVG document")
endif()
string(REGEX MATCHALL "class=\"cell\"" cells "${svg}")
list(LENGTH cells cell_count)
if(NOT cell_count EQUAL 1056)  # 32 rows x (32 + 1) stored elements, padding included
  message(FATAL_ERROR "expected 1056 cells, found ${cell_count}")
endif()
string(REGEX MATCHALL "class=\"conflict\"" marks "${svg}")
if(marks)
  message(FATAL_ERROR "a padded column read has no conflicts, but the SVG marks some")
endif()

# The unpadded tile: all 32 words of the warp's column are in one bank, each marked.
execute_process(COMMAND "${BANK_MAP}" --elem-bytes 4 --rows 32 --cols 32 --pad 0 --access column --svg "${OUT}"
                RESULT_VARIABLE rc OUTPUT_QUIET)
file(READ "${OUT}" svg)
string(REGEX MATCHALL "class=\"conflict\"" marks "${svg}")
list(LENGTH marks mark_count)
if(NOT mark_count EQUAL 32)
  message(FATAL_ERROR "expected 32 conflicting elements marked, found ${mark_count}")
endif()

# The text fits the picture: every left-aligned <text> line (the title and the legend) ends inside
# the picture's width, counting 0.6 em per character, the advance of monospace fonts (the SVG asks
# for monospace), and so do the cells. Checked on the wide tile above and on a narrow one, whose
# title is much wider than its grid.
function(check_text_fits svg_file case)
  file(READ "${svg_file}" svg)
  string(REPLACE ";" ":" svg "${svg}")  # one character for another: CMake lists split at ';'
  if(NOT svg MATCHES "<svg [^>]*width=\"([0-9]+)\"")
    message(FATAL_ERROR "${case}: the <svg> element has no width")
  endif()
  set(width ${CMAKE_MATCH_1})
  string(REGEX MATCHALL "<text x=\"[0-9]+\" y=\"[0-9]+\" font-size=\"[0-9]+\">[^<]*</text>" lines "${svg}")
  list(LENGTH lines line_count)
  if(line_count LESS 2)
    message(FATAL_ERROR "${case}: expected the title and the legend as left-aligned text, found ${line_count} lines")
  endif()
  foreach(line IN LISTS lines)
    string(REGEX MATCH "^<text x=\"([0-9]+)\" y=\"[0-9]+\" font-size=\"([0-9]+)\">([^<]*)</text>$" _ "${line}")
    set(x ${CMAKE_MATCH_1})
    set(font_size ${CMAKE_MATCH_2})
    string(LENGTH "${CMAKE_MATCH_3}" chars)
    math(EXPR right "${x} + (${chars} * ${font_size} * 6 + 9) / 10")  # 0.6 em per character, rounded up
    if(right GREATER width)
      message(FATAL_ERROR "${case}: text ends at x = ${right}, outside the picture's width ${width}:\n  ${line}")
    endif()
  endforeach()
  string(REGEX MATCHALL "class=\"cell\" x=\"[0-9]+\" y=\"[0-9]+\" width=\"[0-9]+\"" cells "${svg}")
  foreach(cell IN LISTS cells)
    string(REGEX MATCH "x=\"([0-9]+)\" y=\"[0-9]+\" width=\"([0-9]+)\"" _ "${cell}")
    math(EXPR right "${CMAKE_MATCH_1} + ${CMAKE_MATCH_2}")
    if(right GREATER width)
      message(FATAL_ERROR "${case}: a cell ends at x = ${right}, outside the picture's width ${width}")
    endif()
  endforeach()
  message(STATUS "${case}: ${line_count} text lines and the cells fit in width ${width}")
endfunction()

check_text_fits("${OUT}" "32 x 32 tile, pad 0")
foreach(shape IN ITEMS "32;32;1" "4;4;0" "1;1;0")
  list(GET shape 0 rows)
  list(GET shape 1 cols)
  list(GET shape 2 pad)
  execute_process(COMMAND "${BANK_MAP}" --elem-bytes 4 --rows ${rows} --cols ${cols} --pad ${pad} --access column
                          --svg "${OUT}" RESULT_VARIABLE rc OUTPUT_QUIET)
  if(NOT rc EQUAL 0)
    message(FATAL_ERROR "bank_map --svg exited with ${rc} for a ${rows} x ${cols} tile")
  endif()
  check_text_fits("${OUT}" "${rows} x ${cols} tile, pad ${pad}")
endforeach()
