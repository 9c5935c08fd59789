# Test, demo and benchmark kernels: compiled with nvcc into fatbins embedded as C arrays.
# Without nvcc the arrays are empty and GPU programs say that the kernels are missing.
# cgn_test_kernels.cu holds the kernels every GPU test loads; cgn_cond_kernels.cu the ones that
# call the device runtime (cudaGraphSetConditional), in a fatbin of their own that only the
# conditional-node tests load: with them in the shared library, test_child_graph_gpu crashed in
# 3 to 8 runs of 10 on the H200, and never without them.
function(cgn_embed_kernels name)
  set(c_file ${CMAKE_CURRENT_BINARY_DIR}/${name}_fatbin.c)
  if(CGN_NVCC)
    set(fatbin ${CMAKE_CURRENT_BINARY_DIR}/${name}.fatbin)
    add_custom_command(OUTPUT ${fatbin}
      COMMAND ${CGN_NVCC} -fatbin
        -gencode arch=compute_80,code=[sm_80,compute_80]
        -gencode arch=compute_90,code=sm_90
        -o ${fatbin} ${CMAKE_CURRENT_SOURCE_DIR}/tests/kernels/${name}.cu
      DEPENDS ${CMAKE_CURRENT_SOURCE_DIR}/tests/kernels/${name}.cu
      COMMENT "Compiling ${name}.cu with nvcc" VERBATIM)
    add_custom_command(OUTPUT ${c_file}
      COMMAND ${CMAKE_COMMAND} -DINPUT=${fatbin} -DOUTPUT=${c_file}
        -DNAME=${name}_fatbin -P ${CMAKE_CURRENT_SOURCE_DIR}/cmake/embed.cmake
      DEPENDS ${fatbin} ${CMAKE_CURRENT_SOURCE_DIR}/cmake/embed.cmake VERBATIM)
  else()
    file(WRITE ${c_file} "#include <stddef.h>\nconst unsigned char ${name}_fatbin[] = {0};\nconst size_t ${name}_fatbin_size = 0;\n")
  endif()
  set(cgn_embedded_${name} ${c_file} PARENT_SCOPE)
endfunction()

if(NOT CGN_NVCC)
  message(STATUS "nvcc not found: GPU tests and the demo will report that their kernels are missing")
endif()
cgn_embed_kernels(cgn_test_kernels)
cgn_embed_kernels(cgn_cond_kernels)
add_library(cgn_test_kernels STATIC ${cgn_embedded_cgn_test_kernels}
  ${cgn_embedded_cgn_cond_kernels})
