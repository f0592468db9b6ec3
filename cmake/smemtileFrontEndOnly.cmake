# SMEMTILE_FRONT_END_ONLY: a build for a machine without a GPU (scripts/run_tests.sh sets it there,
# and CI has no GPU). Programs that need a GPU cannot run there (GPU tests are reported Skipped), so
# they only have to compile: every template is still instantiated and checked by the front end,
# without the optimizer and ptxas. Host code (the host tests, which do run, and the host side of
# every program) is compiled unoptimized, NDEBUG kept. Together this is most of CI's build time;
# the SASS, zero-overhead and all-architectures tests still build real, optimized SASS with their
# own commands, and the GPU machine (scripts/gpu_suite.sh) builds everything optimized.
option(SMEMTILE_FRONT_END_ONLY
  "Machines without a GPU: GPU tests and examples as unoptimized PTX, host code unoptimized" OFF)

# Host code unoptimized in this directory and below (the calling directory's scope): the build
# type's -O level is taken out of its flags, which nvcc then passes to the host compiler without one.
macro(smemtile_front_end_only_host_flags)
  if(SMEMTILE_FRONT_END_ONLY AND CMAKE_BUILD_TYPE)
    string(TOUPPER "${CMAKE_BUILD_TYPE}" _smemtile_config)
    foreach(_smemtile_lang IN ITEMS CXX CUDA)
      string(REGEX REPLACE "(^| )-O[0-9s]( |$)" " " CMAKE_${_smemtile_lang}_FLAGS_${_smemtile_config}
             "${CMAKE_${_smemtile_lang}_FLAGS_${_smemtile_config}}")
    endforeach()
  endif()
endmacro()

# smemtile_front_end_only(<target>...): with SMEMTILE_FRONT_END_ONLY, the targets' device code is
# compiled to PTX of the first of CMAKE_CUDA_ARCHITECTURES, unoptimized (-Xcicc -O0); else nothing.
function(smemtile_front_end_only)
  if(NOT SMEMTILE_FRONT_END_ONLY)
    return()
  endif()
  list(GET CMAKE_CUDA_ARCHITECTURES 0 first_arch)
  string(REGEX REPLACE "-.*$" "" first_arch "${first_arch}")
  foreach(target IN LISTS ARGN)
    set_target_properties(${target} PROPERTIES CUDA_ARCHITECTURES "${first_arch}-virtual")
    target_compile_options(${target} PRIVATE "$<$<COMPILE_LANGUAGE:CUDA>:SHELL:-Xcicc -O0>")
  endforeach()
endfunction()
