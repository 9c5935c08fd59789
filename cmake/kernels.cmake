# Test, demo and benchmark kernels: compiled with nvcc into a fatbin embedded as a C array.
# Without nvcc the array is empty and GPU programs say that the kernels are missing.
set(cgn_kernels_c ${CMAKE_CURRENT_BINARY_DIR}/cgn_test_kernels_fatbin.c)
if(CGN_NVCC)
  set(cgn_fatbin ${CMAKE_CURRENT_BINARY_DIR}/cgn_test_kernels.fatbin)
  add_custom_command(OUTPUT ${cgn_fatbin}
    COMMAND ${CGN_NVCC} -fatbin
      -gencode arch=compute_80,code=[sm_80,compute_80]
      -gencode arch=compute_90,code=sm_90
      -o ${cgn_fatbin} ${CMAKE_CURRENT_SOURCE_DIR}/tests/kernels/cgn_test_kernels.cu
    DEPENDS ${CMAKE_CURRENT_SOURCE_DIR}/tests/kernels/cgn_test_kernels.cu
    COMMENT "Compiling the test kernels with nvcc" VERBATIM)
  add_custom_command(OUTPUT ${cgn_kernels_c}
    COMMAND ${CMAKE_COMMAND} -DINPUT=${cgn_fatbin} -DOUTPUT=${cgn_kernels_c}
      -DNAME=cgn_test_kernels_fatbin -P ${CMAKE_CURRENT_SOURCE_DIR}/cmake/embed.cmake
    DEPENDS ${cgn_fatbin} ${CMAKE_CURRENT_SOURCE_DIR}/cmake/embed.cmake VERBATIM)
else()
  message(STATUS "nvcc not found: GPU tests and the demo will report that their kernels are missing")
  file(WRITE ${cgn_kernels_c} "#include <stddef.h>\nconst unsigned char cgn_test_kernels_fatbin[] = {0};\nconst size_t cgn_test_kernels_fatbin_size = 0;\n")
endif()
add_library(cgn_test_kernels STATIC ${cgn_kernels_c})
