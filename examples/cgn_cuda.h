/* The few CUDA driver calls the demo, the GPU tests and the benchmarks make themselves, resolved
 * through cgn_driver_proc so that none of them links libcuda: each runs on a machine without a
 * driver and says what is missing. Header-only on purpose: examples stay self-contained.
 *
 * Installed as <cgn/cgn_cuda.h> (and available under that name to add_subdirectory users), so
 * an application can get a device context the same way; it includes everything it uses. */
#ifndef CGN_CGN_CUDA_H
#define CGN_CGN_CUDA_H

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cudaTypedefs.h>

#include <cgn/cgn.h>

#define CGN_CUDA_CALLS(X)                                                                          \
    X(cuDeviceGet, 2000)                                                                           \
    X(cuDeviceGetName, 2000)                                                                       \
    X(cuDevicePrimaryCtxRetain, 7000)                                                              \
    X(cuDevicePrimaryCtxRelease, 11000)                                                            \
    X(cuCtxSetCurrent, 4000)                                                                       \
    X(cuMemAlloc, 3020)                                                                            \
    X(cuMemFree, 3020)                                                                             \
    X(cuMemAllocHost, 3020)                                                                        \
    X(cuMemFreeHost, 2000)                                                                         \
    X(cuMemHostGetDevicePointer, 3020)                                                             \
    X(cuMemcpyDtoH, 3020)                                                                          \
    X(cuMemcpyHtoD, 3020)                                                                          \
    X(cuMemsetD8, 3020)                                                                            \
    X(cuLibraryLoadData, 12000)                                                                    \
    X(cuLibraryUnload, 12000)                                                                      \
    X(cuLibraryGetKernel, 12000)                                                                   \
    X(cuKernelGetFunction, 12000)                                                                  \
    X(cuLaunchKernel, 4000)                                                                        \
    X(cuStreamCreate, 2000)                                                                        \
    X(cuStreamDestroy, 4000)                                                                       \
    X(cuStreamSynchronize, 2000)                                                                   \
    X(cuStreamQuery, 2000)                                                                         \
    X(cuEventCreate, 2000)                                                                         \
    X(cuEventDestroy, 4000)                                                                        \
    X(cuEventQuery, 2000)                                                                          \
    X(cuEventRecord, 2000)

typedef struct cgn_cuda {
#define CGN_CUDA_FIELD_(name, ver) PFN_##name##_v##ver name;
    CGN_CUDA_CALLS(CGN_CUDA_FIELD_)
#undef CGN_CUDA_FIELD_
    CUdevice device;
    CUcontext context;
} cgn_cuda;

/* Resolves the calls above, retains device 0's primary context and makes it current.
 * On failure returns the cgn status and leaves cgn_last_error() saying what is missing. */
static inline cgn_status cgn_cuda_open(cgn_cuda *cu) {
    memset(cu, 0, sizeof *cu);
    cgn_status st = cgn_init();
    if (st != CGN_OK)
        return st;
#define CGN_CUDA_RESOLVE_(name, ver)                                                               \
    {                                                                                              \
        void *pfn = NULL;                                                                          \
        if ((st = cgn_driver_proc(#name, ver, &pfn)) != CGN_OK)                                    \
            return st;                                                                             \
        memcpy(&cu->name, &pfn, sizeof pfn);                                                       \
    }
    CGN_CUDA_CALLS(CGN_CUDA_RESOLVE_)
#undef CGN_CUDA_RESOLVE_
    if (cu->cuDeviceGet(&cu->device, 0) != CUDA_SUCCESS ||
        cu->cuDevicePrimaryCtxRetain(&cu->context, cu->device) != CUDA_SUCCESS ||
        cu->cuCtxSetCurrent(cu->context) != CUDA_SUCCESS)
        return CGN_ERROR_NO_DEVICE;
    return CGN_OK;
}

static inline void cgn_cuda_close(cgn_cuda *cu) {
    if (cu->context) {
        cu->cuCtxSetCurrent(NULL);
        cu->cuDevicePrimaryCtxRelease(cu->device);
        cu->context = NULL;
    }
}

/* Aborts with the failing call's location: for demo and test setup code, not library code. */
#define CGN_CUDA_CHECK(call)                                                                       \
    do {                                                                                           \
        CUresult cgn_cuda_r_ = (call);                                                             \
        if (cgn_cuda_r_ != CUDA_SUCCESS) {                                                         \
            fprintf(stderr, "%s:%d: %s returned %d\n", __FILE__, __LINE__, #call,                  \
                    (int)cgn_cuda_r_);                                                             \
            abort();                                                                               \
        }                                                                                          \
    } while (0)

#endif /* CGN_CGN_CUDA_H */
