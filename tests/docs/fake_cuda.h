/* Runs the node-type examples (examples/example_<type>.c) on the fake driver: force-included
 * (-include) in their place of examples/cgn_cuda.h, whose include guard it defines, it gives
 * the same cgn_cuda table with host implementations: device memory is host memory marked as
 * device memory in the fake, kernels are the fake kernels below, streams are opaque and every
 * launch completes at once. So the examples' own checks run in every build (label unit), not
 * only on a GPU. Not modelled: cuLaunchKernel (the event example holds streams with it and
 * runs on a GPU only). */
#ifndef CGN_TESTS_DOCS_FAKE_CUDA_H
#define CGN_TESTS_DOCS_FAKE_CUDA_H
#define CGN_CGN_CUDA_H /* examples/cgn_cuda.h (its include guard) is replaced by this file */

#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cudaTypedefs.h>

#include "cgn/cgn.h"
#include "fake_driver.h"

/* The examples check cgn_test_kernels_fatbin_size before loading kernels. */
const unsigned char cgn_test_kernels_fatbin[1] = {0};
const size_t cgn_test_kernels_fatbin_size = 1;

typedef struct cgn_cuda {
    PFN_cuMemAlloc_v3020 cuMemAlloc;
    PFN_cuMemFree_v3020 cuMemFree;
    PFN_cuMemAllocHost_v3020 cuMemAllocHost;
    PFN_cuMemFreeHost_v2000 cuMemFreeHost;
    PFN_cuMemHostGetDevicePointer_v3020 cuMemHostGetDevicePointer;
    PFN_cuMemcpyDtoH_v3020 cuMemcpyDtoH;
    PFN_cuMemcpyHtoD_v3020 cuMemcpyHtoD;
    PFN_cuMemsetD8_v3020 cuMemsetD8;
    PFN_cuLibraryLoadData_v12000 cuLibraryLoadData;
    PFN_cuLibraryUnload_v12000 cuLibraryUnload;
    PFN_cuLibraryGetKernel_v12000 cuLibraryGetKernel;
    PFN_cuKernelGetFunction_v12000 cuKernelGetFunction;
    PFN_cuLaunchKernel_v4000 cuLaunchKernel;
    PFN_cuStreamCreate_v2000 cuStreamCreate;
    PFN_cuStreamDestroy_v4000 cuStreamDestroy;
    PFN_cuStreamSynchronize_v2000 cuStreamSynchronize;
    PFN_cuStreamQuery_v2000 cuStreamQuery;
    PFN_cuEventCreate_v2000 cuEventCreate;
    PFN_cuEventDestroy_v4000 cuEventDestroy;
    PFN_cuEventQuery_v2000 cuEventQuery;
    PFN_cuEventRecord_v2000 cuEventRecord;
    CUdevice device;
    CUcontext context;
} cgn_cuda;

static struct {
    CUfunction add_one, fill_u32;
    int libraries; /* loaded and not unloaded */
    char stream_tag[1];
} fake_cuda;

static void fake_cuda_add_one(void **args, const CUDA_KERNEL_NODE_PARAMS_v2 *launch, void *user) {
    (void)launch;
    (void)user;
    CUdeviceptr p;
    memcpy(&p, args[0], sizeof p);
    *(int32_t *)(uintptr_t)p += 1;
}

static void fake_cuda_fill_u32(void **args, const CUDA_KERNEL_NODE_PARAMS_v2 *launch, void *user) {
    (void)launch;
    (void)user;
    CUdeviceptr p;
    memcpy(&p, args[0], sizeof p);
    memcpy((void *)(uintptr_t)p, args[1], sizeof(uint32_t));
}

static CUresult CUDAAPI fake_cuMemAlloc(CUdeviceptr *p, size_t size) {
    void *m = calloc(1, size ? size : 1);
    if (m == NULL)
        return CUDA_ERROR_OUT_OF_MEMORY;
    cgn_fake_mark_device_memory(m, size);
    *p = (CUdeviceptr)(uintptr_t)m;
    return CUDA_SUCCESS;
}
static CUresult CUDAAPI fake_cuMemFree(CUdeviceptr p) {
    free((void *)(uintptr_t)p);
    return CUDA_SUCCESS;
}
static CUresult CUDAAPI fake_cuMemAllocHost(void **p, size_t size) {
    *p = calloc(1, size ? size : 1);
    if (*p == NULL)
        return CUDA_ERROR_OUT_OF_MEMORY;
    cgn_fake_mark_memory(*p, size, CU_MEMORYTYPE_HOST); /* pinned: the driver reports HOST */
    return CUDA_SUCCESS;
}
static CUresult CUDAAPI fake_cuMemFreeHost(void *p) {
    free(p);
    return CUDA_SUCCESS;
}
static CUresult CUDAAPI fake_cuMemHostGetDevicePointer(CUdeviceptr *d, void *p, unsigned flags) {
    (void)flags;
    *d = (CUdeviceptr)(uintptr_t)p;
    return CUDA_SUCCESS;
}
static CUresult CUDAAPI fake_cuMemcpyDtoH(void *dst, CUdeviceptr src, size_t size) {
    memcpy(dst, (const void *)(uintptr_t)src, size);
    return CUDA_SUCCESS;
}
static CUresult CUDAAPI fake_cuMemcpyHtoD(CUdeviceptr dst, const void *src, size_t size) {
    memcpy((void *)(uintptr_t)dst, src, size);
    return CUDA_SUCCESS;
}
static CUresult CUDAAPI fake_cuMemsetD8(CUdeviceptr dst, unsigned char value, size_t n) {
    memset((void *)(uintptr_t)dst, value, n);
    return CUDA_SUCCESS;
}
static CUresult CUDAAPI fake_cuLibraryLoadData(CUlibrary *lib, const void *code,
                                               CUjit_option *jit_options, void **jit_values,
                                               unsigned int num_jit, CUlibraryOption *options,
                                               void **values, unsigned int num_options) {
    (void)code, (void)jit_options, (void)jit_values, (void)num_jit;
    (void)options, (void)values, (void)num_options;
    fake_cuda.libraries++;
    *lib = (CUlibrary)(void *)&fake_cuda;
    return CUDA_SUCCESS;
}
static CUresult CUDAAPI fake_cuLibraryUnload(CUlibrary lib) {
    (void)lib;
    fake_cuda.libraries--;
    return CUDA_SUCCESS;
}
static CUresult CUDAAPI fake_cuLibraryGetKernel(CUkernel *k, CUlibrary lib, const char *name) {
    (void)lib;
    CUfunction f = strcmp(name, "add_one") == 0    ? fake_cuda.add_one
                   : strcmp(name, "fill_u32") == 0 ? fake_cuda.fill_u32
                                                   : NULL;
    if (f == NULL)
        return CUDA_ERROR_NOT_FOUND;
    *k = cgn_fake_kernel_of(f);
    return CUDA_SUCCESS;
}
static CUresult CUDAAPI fake_cuKernelGetFunction(CUfunction *f, CUkernel k) {
    *f = k == cgn_fake_kernel_of(fake_cuda.add_one) ? fake_cuda.add_one : fake_cuda.fill_u32;
    return CUDA_SUCCESS;
}
static CUresult CUDAAPI fake_cuLaunchKernel(CUfunction f, unsigned gx, unsigned gy, unsigned gz,
                                            unsigned bx, unsigned by, unsigned bz, unsigned smem,
                                            CUstream s, void **params, void **extra) {
    (void)f, (void)gx, (void)gy, (void)gz, (void)bx, (void)by, (void)bz, (void)smem, (void)s;
    (void)params, (void)extra;
    return CUDA_ERROR_NOT_SUPPORTED;
}
static CUresult CUDAAPI fake_cuStreamCreate(CUstream *s, unsigned flags) {
    (void)flags;
    *s = (CUstream)(void *)fake_cuda.stream_tag;
    return CUDA_SUCCESS;
}
static CUresult CUDAAPI fake_cuStreamDestroy(CUstream s) {
    (void)s;
    return CUDA_SUCCESS;
}
static CUresult CUDAAPI fake_cuStreamSynchronize(CUstream s) {
    (void)s;
    cgn_fake_complete_pending();
    return CUDA_SUCCESS;
}
static CUresult CUDAAPI fake_cuStreamQuery(CUstream s) {
    (void)s;
    return cgn_fake_in_flight(NULL) ? CUDA_ERROR_NOT_READY : CUDA_SUCCESS;
}
static CUresult CUDAAPI fake_cuEventCreate(CUevent *e, unsigned flags) {
    return cgn_fake_table()->cuEventCreate(e, flags);
}
static CUresult CUDAAPI fake_cuEventDestroy(CUevent e) {
    return cgn_fake_table()->cuEventDestroy(e);
}
static CUresult CUDAAPI fake_cuEventQuery(CUevent e) {
    return cgn_fake_table()->cuEventQuery(e);
}
static CUresult CUDAAPI fake_cuEventRecord(CUevent e, CUstream s) {
    return cgn_fake_table()->cuEventRecord(e, s);
}

static inline cgn_status cgn_cuda_open(cgn_cuda *cu) {
    memset(cu, 0, sizeof *cu);
    cgn_fake_reset(); /* context 0 current on this thread */
    static const size_t ptr_size[] = {sizeof(CUdeviceptr)};
    static const size_t fill_sizes[] = {sizeof(CUdeviceptr), sizeof(uint32_t)};
    fake_cuda.add_one = cgn_fake_register_kernel("add_one", 1, ptr_size, fake_cuda_add_one, NULL);
    fake_cuda.fill_u32 =
        cgn_fake_register_kernel("fill_u32", 2, fill_sizes, fake_cuda_fill_u32, NULL);
    cgn_driver_install(cgn_fake_table());
#define FAKE_CUDA_SET_(name) cu->name = fake_##name;
    FAKE_CUDA_SET_(cuMemAlloc)
    FAKE_CUDA_SET_(cuMemFree)
    FAKE_CUDA_SET_(cuMemAllocHost)
    FAKE_CUDA_SET_(cuMemFreeHost)
    FAKE_CUDA_SET_(cuMemHostGetDevicePointer)
    FAKE_CUDA_SET_(cuMemcpyDtoH)
    FAKE_CUDA_SET_(cuMemcpyHtoD)
    FAKE_CUDA_SET_(cuMemsetD8)
    FAKE_CUDA_SET_(cuLibraryLoadData)
    FAKE_CUDA_SET_(cuLibraryUnload)
    FAKE_CUDA_SET_(cuLibraryGetKernel)
    FAKE_CUDA_SET_(cuKernelGetFunction)
    FAKE_CUDA_SET_(cuLaunchKernel)
    FAKE_CUDA_SET_(cuStreamCreate)
    FAKE_CUDA_SET_(cuStreamDestroy)
    FAKE_CUDA_SET_(cuStreamSynchronize)
    FAKE_CUDA_SET_(cuStreamQuery)
    FAKE_CUDA_SET_(cuEventCreate)
    FAKE_CUDA_SET_(cuEventDestroy)
    FAKE_CUDA_SET_(cuEventQuery)
    FAKE_CUDA_SET_(cuEventRecord)
#undef FAKE_CUDA_SET_
    cu->context = cgn_fake_context(0);
    return CGN_OK;
}

/* Checks what the fake can see of a clean exit: every graph, executable and user object the
 * example made is gone, and libraries loaded were unloaded. */
static inline void cgn_cuda_close(cgn_cuda *cu) {
    cgn_collect();
    size_t live = cgn_fake_live_objects() + cgn_fake_live_events();
    if (live != 0 || fake_cuda.libraries != 0 || cgn_fake_crash_prone_calls() != 0) {
        fprintf(stderr,
                "fake driver: %zu objects still alive, %d libraries loaded, %zu calls "
                "that crash the real driver\n",
                live, fake_cuda.libraries, cgn_fake_crash_prone_calls());
        exit(1);
    }
    cu->context = NULL;
}

#define CGN_CUDA_CHECK(call)                                                                       \
    do {                                                                                           \
        CUresult cgn_cuda_r_ = (call);                                                             \
        if (cgn_cuda_r_ != CUDA_SUCCESS) {                                                         \
            fprintf(stderr, "%s:%d: %s returned %d\n", __FILE__, __LINE__, #call,                  \
                    (int)cgn_cuda_r_);                                                             \
            abort();                                                                               \
        }                                                                                          \
    } while (0)

#endif /* CGN_TESTS_DOCS_FAKE_CUDA_H */
