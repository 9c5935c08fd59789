/* The consumer .ci/consumers builds against cgn in three ways (find_package, pkg-config + cc,
 * add_subdirectory/FetchContent): it includes the public headers, which include cuda.h, so it
 * compiles only if the package says where the CUDA toolkit's headers are. It prints cgn_init's
 * status and exits 0 when cgn works or reports cleanly that there is no driver or device. */
#include <stdio.h>

#include <cgn/cgn.h>
#include <cgn/cgn_cuda.h>

int main(void) {
    cgn_status st = cgn_init();
    printf("cgn_init: %s\n", cgn_status_name(st));
    if (st == CGN_OK) {
        cgn_cuda cu; /* device 0's primary context through cgn_driver_proc: no libcuda link */
        st = cgn_cuda_open(&cu);
        printf("cgn_cuda_open: %s\n", cgn_status_name(st));
        cgn_cuda_close(&cu);
    }
    return st == CGN_OK || st == CGN_ERROR_NO_DRIVER || st == CGN_ERROR_NO_DEVICE ? 0 : 1;
}
