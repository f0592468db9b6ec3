# smemtile_find_cuda_dependencies(): defines smemtile::cuda_dependencies, an interface target with
# the CUDA toolkit's headers (cuda_runtime.h) and its CCCL headers (CUB, libcu++), which CUDA 12.x+
# keeps in include/cccl. Used by smemtile's own build and by its installed package config, so a
# consumer gets the same dependencies either way.
include_guard(GLOBAL)

function(smemtile_find_cuda_dependencies)
  if(TARGET smemtile::cuda_dependencies)
    return()
  endif()
  find_package(CUDAToolkit REQUIRED)
  add_library(smemtile_cuda_dependencies INTERFACE IMPORTED GLOBAL)
  target_link_libraries(smemtile_cuda_dependencies INTERFACE CUDA::toolkit)
  foreach(dir IN LISTS CUDAToolkit_INCLUDE_DIRS)
    if(EXISTS "${dir}/cccl/cub/cub.cuh")
      target_include_directories(smemtile_cuda_dependencies SYSTEM INTERFACE "${dir}/cccl")
    endif()
  endforeach()
  add_library(smemtile::cuda_dependencies ALIAS smemtile_cuda_dependencies)
endfunction()
