# smemtile_sass_listing(<out-var> <nvcc> <cuobjdump> <source> <cubin> <flags>...): compiles <source>
# to <cubin> with nvcc and the flags, disassembles it with cuobjdump -sass and puts the listing in
# <out-var>; stops the script with a message if either tool fails. Shared by the SASS checks
# (compare_kernel_sizes.cmake, check_sass_opcodes.cmake).
function(smemtile_sass_listing out_var nvcc cuobjdump source cubin)
  execute_process(COMMAND "${nvcc}" ${ARGN} -cubin "${source}" -o "${cubin}" RESULT_VARIABLE rc)
  if(NOT rc EQUAL 0)
    message(FATAL_ERROR "nvcc -cubin failed on ${source}")
  endif()
  execute_process(COMMAND "${cuobjdump}" -sass "${cubin}" OUTPUT_VARIABLE listing RESULT_VARIABLE rc)
  if(NOT rc EQUAL 0)
    message(FATAL_ERROR "cuobjdump -sass failed on ${cubin}")
  endif()
  set(${out_var} "${listing}" PARENT_SCOPE)
endfunction()
