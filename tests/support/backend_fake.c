/* Test backend on the fake driver: buffers are host memory, kernels are host functions. */
#include <stdlib.h>
#include <string.h>

#include "cgn_test_env.h"
#include "fake_driver.h"

extern int (*cgn_test_in_driver_callback)(void);

static struct {
    CUfunction add_one, write_config, fill_u32, empty;
} cgn_fake_kernels;

static void run_add_one(void **args, const CUDA_KERNEL_NODE_PARAMS_v2 *launch, void *user) {
    (void)launch;
    (void)user;
    CUdeviceptr p;
    memcpy(&p, args[0], sizeof p);
    *(int32_t *)(uintptr_t)p += 1;
}

static void run_write_config(void **args, const CUDA_KERNEL_NODE_PARAMS_v2 *l, void *user) {
    (void)user;
    CUdeviceptr p;
    memcpy(&p, args[0], sizeof p);
    uint32_t cfg[7] = {l->gridDimX,  l->gridDimY,  l->gridDimZ,     l->blockDimX,
                       l->blockDimY, l->blockDimZ, l->sharedMemBytes};
    memcpy((void *)(uintptr_t)p, cfg, sizeof cfg);
}

static void run_fill_u32(void **args, const CUDA_KERNEL_NODE_PARAMS_v2 *launch, void *user) {
    (void)launch;
    (void)user;
    CUdeviceptr p;
    memcpy(&p, args[0], sizeof p);
    memcpy((void *)(uintptr_t)p, args[1], sizeof(uint32_t));
}

static void run_empty(void **args, const CUDA_KERNEL_NODE_PARAMS_v2 *launch, void *user) {
    (void)args;
    (void)launch;
    (void)user;
}

static int fake_open(cgn_test_env *env) {
    (void)env;
    cgn_fake_reset();
    static const size_t ptr_size[] = {sizeof(CUdeviceptr)};
    static const size_t fill_sizes[] = {sizeof(CUdeviceptr), sizeof(uint32_t)};
    cgn_fake_kernels.add_one = cgn_fake_register_kernel("add_one", 1, ptr_size, run_add_one, NULL);
    cgn_fake_kernels.write_config =
        cgn_fake_register_kernel("write_config", 1, ptr_size, run_write_config, NULL);
    cgn_fake_kernels.fill_u32 =
        cgn_fake_register_kernel("fill_u32", 2, fill_sizes, run_fill_u32, NULL);
    cgn_fake_kernels.empty = cgn_fake_register_kernel("empty", 0, NULL, run_empty, NULL);
    cgn_driver_install(cgn_fake_table());
    cgn_test_in_driver_callback = cgn_fake_in_driver_callback;
    return 0;
}

static void fake_close(cgn_test_env *env) {
    cgn_collect();
    env->live_at_close = cgn_fake_live_objects();
    cgn_driver_install(NULL);
    cgn_fake_reset();
}

static CUdeviceptr fake_alloc(cgn_test_env *env, size_t size) {
    (void)env;
    void *p = calloc(1, size);
    if (p == NULL)
        abort();
    cgn_fake_mark_device_memory(p, size);
    return (CUdeviceptr)(uintptr_t)p;
}

static void fake_free(cgn_test_env *env, CUdeviceptr p) {
    (void)env;
    free((void *)(uintptr_t)p);
}

static void fake_read(cgn_test_env *env, CUdeviceptr p, void *out, size_t size) {
    (void)env;
    memcpy(out, (const void *)(uintptr_t)p, size);
}

static void fake_write(cgn_test_env *env, CUdeviceptr p, const void *data, size_t size) {
    (void)env;
    memcpy((void *)(uintptr_t)p, data, size);
}

/* add_one comes as a CUfunction, the others as CUkernels, so both handle kinds are covered. */
static cgn_kernel fake_kernel(cgn_test_env *env, const char *name) {
    (void)env;
    if (strcmp(name, "add_one") == 0)
        return CGN_FUNCTION(cgn_fake_kernels.add_one);
    if (strcmp(name, "write_config") == 0)
        return CGN_KERNEL(cgn_fake_kernel_of(cgn_fake_kernels.write_config));
    if (strcmp(name, "fill_u32") == 0)
        return CGN_KERNEL(cgn_fake_kernel_of(cgn_fake_kernels.fill_u32));
    if (strcmp(name, "empty") == 0)
        return CGN_KERNEL(cgn_fake_kernel_of(cgn_fake_kernels.empty));
    abort();
}

static cgn_status fake_launch(cgn_test_env *env, cgn_exec *exec) {
    (void)env;
    return cgn_exec_launch(exec, NULL);
}

static const cgn_driver_table *fake_driver(cgn_test_env *env) {
    (void)env;
    return cgn_fake_table();
}

const cgn_test_backend cgn_test_backend_selected = {
    "fake",     fake_open,   fake_close,  fake_alloc,  fake_free, fake_read,
    fake_write,  fake_kernel, fake_launch, fake_driver, 0.0};
