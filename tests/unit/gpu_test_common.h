/* What the standalone GPU test programs (test_blackbox_gpu, test_library_capture_gpu,
 * test_threads_gpu) share: the checks of cgn and raw driver calls made on the test's thread,
 * resolving a raw driver call through cgn_driver_proc (nothing links libcuda) and opening the
 * device. Include after <cmocka.h> and cgn_cuda.h; test_hostile_gpu, whose cases run in forked
 * children, has checks of its own. */
#ifndef CGN_TESTS_GPU_TEST_COMMON_H
#define CGN_TESTS_GPU_TEST_COMMON_H

#include <stdio.h>
#include <string.h>

/* A cgn call that must succeed. */
#define OK(call)                                                                                   \
    do {                                                                                           \
        cgn_status ok_st_ = (call);                                                                \
        if (ok_st_ != CGN_OK)                                                                      \
            fail_msg("%s:%d: %s -> %s: %s", __FILE__, __LINE__, #call, cgn_status_name(ok_st_),    \
                     cgn_last_error());                                                            \
    } while (0)

/* A raw driver call that must succeed. */
#define CU(call)                                                                                   \
    do {                                                                                           \
        CUresult cu_r_ = (call);                                                                   \
        if (cu_r_ != CUDA_SUCCESS)                                                                 \
            fail_msg("%s:%d: %s returned CUresult %d", __FILE__, __LINE__, #call, (int)cu_r_);     \
    } while (0)

/* Resolves driver call `name` of ABI `version` into *slot (a function pointer of its PFN type);
 * 0 after printing why `program` cannot. */
static inline int gpu_test_resolve(void *slot, const char *name, int version, const char *program) {
    void *pfn = NULL;
    cgn_status st = cgn_driver_proc(name, version, &pfn);
    if (st != CGN_OK) {
        printf("%s: cannot resolve %s: %s\n", program, name, cgn_last_error());
        return 0;
    }
    memcpy(slot, &pfn, sizeof pfn);
    return 1;
}

/* The test kernels (tests/kernels/cgn_test_kernels.cu), embedded by the build. */
extern const unsigned char cgn_test_kernels_fatbin[];
extern const size_t cgn_test_kernels_fatbin_size;

/* Device 0's primary context current through *cu, a driver of 12.4 or newer (argument-level
 * updates) and the test kernels: 0 when ready, 77 after printing why `program` is skipped here,
 * 1 on a setup failure. *version_out gets the driver's version. */
static inline int gpu_test_open(cgn_cuda *cu, const char *program, int *version_out) {
    cgn_status st = cgn_cuda_open(cu);
    if (st != CGN_OK) {
        printf("%s skipped: no usable GPU: %s (%s)\n", program, cgn_last_error(),
               cgn_status_name(st));
        return 77;
    }
    if (cgn_driver_version(version_out) != CGN_OK) {
        printf("%s: cgn_driver_version failed: %s\n", program, cgn_last_error());
        return 1;
    }
    if (*version_out < 12040) {
        printf("%s skipped: argument-level updates need driver 12.4; this one is %d.%d\n", program,
               *version_out / 1000, (*version_out % 1000) / 10);
        return 77;
    }
    if (cgn_test_kernels_fatbin_size == 0) {
        printf("%s skipped: built without nvcc, so its kernels are missing\n", program);
        return 77;
    }
    return 0;
}

#endif /* CGN_TESTS_GPU_TEST_COMMON_H */
