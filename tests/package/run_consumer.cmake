# Configures and builds the consumer project in one consumption mode, then runs it.
#   cmake -DMODE=<find_package|add_subdirectory|fetchcontent> -DCONSUMER_DIR=<dir> -DBINARY_DIR=<dir>
#         -DSMEMTILE_SOURCE_DIR=<dir> -DPREFIX=<install prefix> -DCUDA_COMPILER=<nvcc>
#         -DCOMPARE_SCRIPT=<compare_kernel_sizes.cmake> -P run_consumer.cmake
file(REMOVE_RECURSE "${BINARY_DIR}")
execute_process(
  COMMAND "${CMAKE_COMMAND}" -S "${CONSUMER_DIR}" -B "${BINARY_DIR}"
          "-DSMEMTILE_CONSUME=${MODE}" "-DSMEMTILE_SOURCE_DIR=${SMEMTILE_SOURCE_DIR}"
          "-DCMAKE_PREFIX_PATH=${PREFIX}" "-DCMAKE_CUDA_COMPILER=${CUDA_COMPILER}"
          "-DSMEMTILE_COMPARE_SCRIPT=${COMPARE_SCRIPT}"
  RESULT_VARIABLE rc)
if(NOT rc EQUAL 0)
  message(FATAL_ERROR "consumer (${MODE}): configure failed")
endif()
execute_process(COMMAND "${CMAKE_COMMAND}" --build "${BINARY_DIR}" RESULT_VARIABLE rc)
if(NOT rc EQUAL 0)
  message(FATAL_ERROR "consumer (${MODE}): build failed")
endif()
execute_process(COMMAND "${BINARY_DIR}/consumer" RESULT_VARIABLE rc)
if(NOT rc EQUAL 0)
  message(FATAL_ERROR "consumer (${MODE}): the program failed")
endif()
message(STATUS "consumer (${MODE}): configured, built, kernel no larger than raw, ran")
