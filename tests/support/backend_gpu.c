/* Test backend on the real driver and a GPU: device buffers, kernels from the embedded fatbin. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "../../examples/cgn_cuda.h"
#include "cgn_test_env.h"

extern const unsigned char cgn_test_kernels_fatbin[];
extern const size_t cgn_test_kernels_fatbin_size;

static struct {
    cgn_cuda cu;
    CUlibrary lib;
    CUstream stream;
    cgn_kernel add_one, write_config, fill_u32, empty;
} gpu;

static CUkernel gpu_get(const char *name) {
    CUkernel k;
    CGN_CUDA_CHECK(gpu.cu.cuLibraryGetKernel(&k, gpu.lib, name));
    return k;
}

static int gpu_open(cgn_test_env *env) {
    (void)env;
    if (gpu.lib != NULL)
        return 0; /* one context and library for the whole run */
    cgn_status st = cgn_cuda_open(&gpu.cu);
    if (st != CGN_OK) {
        printf("GPU tests skipped: %s (%s)\n", cgn_last_error(), cgn_status_name(st));
        return 77;
    }
    if (cgn_test_kernels_fatbin_size == 0) {
        printf("GPU tests skipped: built without nvcc, so the test kernels are missing\n");
        return 77;
    }
    CGN_CUDA_CHECK(gpu.cu.cuLibraryLoadData(&gpu.lib, cgn_test_kernels_fatbin, NULL, NULL, 0,
                                            NULL, NULL, 0));
    CGN_CUDA_CHECK(gpu.cu.cuStreamCreate(&gpu.stream, CU_STREAM_NON_BLOCKING));
    /* add_one as a context-bound CUfunction, the others as CUkernels: both kinds covered. */
    CUfunction f;
    CGN_CUDA_CHECK(gpu.cu.cuKernelGetFunction(&f, gpu_get("add_one")));
    gpu.add_one = CGN_FUNCTION(f);
    gpu.write_config = CGN_KERNEL(gpu_get("write_config"));
    gpu.fill_u32 = CGN_KERNEL(gpu_get("fill_u32"));
    gpu.empty = CGN_KERNEL(gpu_get("empty"));
    return 0;
}

static void gpu_close(cgn_test_env *env) {
    (void)env;
    cgn_driver_install(cgn_driver_real());
}

static CUdeviceptr gpu_alloc(cgn_test_env *env, size_t size) {
    (void)env;
    CUdeviceptr p;
    CGN_CUDA_CHECK(gpu.cu.cuMemAlloc(&p, size));
    return p;
}

static void gpu_free(cgn_test_env *env, CUdeviceptr p) {
    (void)env;
    CGN_CUDA_CHECK(gpu.cu.cuMemFree(p));
}

static void gpu_read(cgn_test_env *env, CUdeviceptr p, void *out, size_t size) {
    (void)env;
    CGN_CUDA_CHECK(gpu.cu.cuMemcpyDtoH(out, p, size));
}

static void gpu_write(cgn_test_env *env, CUdeviceptr p, const void *data, size_t size) {
    (void)env;
    CGN_CUDA_CHECK(gpu.cu.cuMemcpyHtoD(p, data, size));
}

static cgn_kernel gpu_kernel(cgn_test_env *env, const char *name) {
    (void)env;
    if (strcmp(name, "add_one") == 0)
        return gpu.add_one;
    if (strcmp(name, "write_config") == 0)
        return gpu.write_config;
    if (strcmp(name, "fill_u32") == 0)
        return gpu.fill_u32;
    if (strcmp(name, "empty") == 0)
        return gpu.empty;
    abort();
}

static cgn_status gpu_launch(cgn_test_env *env, cgn_exec *exec) {
    (void)env;
    cgn_status st = cgn_exec_launch(exec, gpu.stream);
    if (st == CGN_OK)
        CGN_CUDA_CHECK(gpu.cu.cuStreamSynchronize(gpu.stream));
    return st;
}

static const cgn_driver_table *gpu_driver(cgn_test_env *env) {
    (void)env;
    return cgn_driver_real();
}

const cgn_test_backend cgn_test_backend_selected = {
    "gpu",    gpu_open,   gpu_close,  gpu_alloc,  gpu_free, gpu_read,
    gpu_write, gpu_kernel, gpu_launch, gpu_driver, 5.0};
