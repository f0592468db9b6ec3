# Runs bank_map --svg and checks the file is an SVG picture of the tile with conflicts marked.
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
