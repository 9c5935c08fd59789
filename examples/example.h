/* What the node-type examples (examples/example_<type>.c) share: device 0's primary context
 * through cgn_cuda.h (no libcuda link), a check macro that stops at the first failing cgn call
 * with its message, and a wait for release callbacks. Each example exits 0 when every check
 * passed, 1 when one failed, and 77 (CTest: skipped) where there is no GPU to run on. */
#ifndef CGN_EXAMPLES_EXAMPLE_H
#define CGN_EXAMPLES_EXAMPLE_H

#include <stdio.h>
#include <stdlib.h>
#include <time.h>

#include "cgn/cgn.h"
#include "cgn_cuda.h"

/* The test kernels (tests/kernels/cgn_test_kernels.cu), embedded by the build; an empty array
 * when it had no nvcc. */
extern const unsigned char cgn_test_kernels_fatbin[];
extern const size_t cgn_test_kernels_fatbin_size;

static cgn_cuda cu;

/* A cgn call that must succeed: otherwise print its status and message, and fail. */
#define CHECK(call)                                                                                \
    do {                                                                                           \
        cgn_status check_st_ = (call);                                                             \
        if (check_st_ != CGN_OK) {                                                                 \
            fprintf(stderr, "%s:%d: %s: %s: %s\n", __FILE__, __LINE__, #call,                      \
                    cgn_status_name(check_st_), cgn_last_error());                                 \
            exit(1);                                                                               \
        }                                                                                          \
    } while (0)

/* What the example asserts about the work the GPU did. */
#define EXPECT(cond)                                                                               \
    do {                                                                                           \
        if (!(cond)) {                                                                             \
            fprintf(stderr, "%s:%d: expected %s\n", __FILE__, __LINE__, #cond);                    \
            exit(1);                                                                               \
        }                                                                                          \
    } while (0)

/* Opens device 0 and makes its primary context current. 0 when ready; 77 (skip) when this
 * machine cannot run the example, after saying why. */
static int example_open(const char *name, int needs_kernels) {
    cgn_status st = cgn_cuda_open(&cu);
    if (st != CGN_OK) {
        printf("%s skipped: %s (%s)\n", name, cgn_last_error(), cgn_status_name(st));
        return 77;
    }
    int version = 0;
    CHECK(cgn_driver_version(&version));
    if (version < 12020) {
        printf("%s skipped: node updates need CUDA driver 12.2; this one is %d.%d\n", name,
               version / 1000, (version % 1000) / 10);
        return 77;
    }
    if (needs_kernels && cgn_test_kernels_fatbin_size == 0) {
        printf("%s skipped: built without nvcc, so its kernels are missing\n", name);
        return 77;
    }
    return 0;
}

/* CUDA may run the destructors of its user objects on its own thread, a little after the last
 * graph or executable holding them went: call cgn_collect() until `*released` reaches `count`
 * (release callbacks count themselves there), for at most five seconds. */
static void example_collect_until(const int *released, int count) {
    for (int i = 0; i < 5000 && *released < count; i++) {
        if (cgn_collect() == 0) {
            struct timespec ms = {0, 1000000};
            nanosleep(&ms, NULL);
        }
    }
    EXPECT(*released == count);
}

#endif /* CGN_EXAMPLES_EXAMPLE_H */
