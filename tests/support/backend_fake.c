/* Test backend on the fake driver: buffers are host memory, kernels are host functions. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cgn_test_env.h"
#include "fake_driver.h"

extern int (*cgn_test_in_driver_callback)(void);

static struct {
    CUfunction add_one, write_config, fill_u32, empty, set_condition, countdown;
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

/* cudaGraphSetConditional, as the kernels of tests/kernels/cgn_test_kernels.cu call it. */
static void run_set_condition(void **args, const CUDA_KERNEL_NODE_PARAMS_v2 *launch, void *user) {
    (void)launch;
    (void)user;
    CUgraphConditionalHandle h;
    uint32_t value;
    memcpy(&h, args[0], sizeof h);
    memcpy(&value, args[1], sizeof value);
    cgn_fake_set_conditional(h, value);
}

static void run_countdown(void **args, const CUDA_KERNEL_NODE_PARAMS_v2 *launch, void *user) {
    (void)launch;
    (void)user;
    CUdeviceptr p;
    CUgraphConditionalHandle h;
    memcpy(&p, args[0], sizeof p);
    memcpy(&h, args[1], sizeof h);
    uint32_t left = *(uint32_t *)(uintptr_t)p - 1;
    *(uint32_t *)(uintptr_t)p = left;
    cgn_fake_set_conditional(h, left != 0);
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
    static const size_t set_sizes[] = {sizeof(CUgraphConditionalHandle), sizeof(uint32_t)};
    static const size_t countdown_sizes[] = {sizeof(CUdeviceptr), sizeof(CUgraphConditionalHandle)};
    cgn_fake_kernels.set_condition =
        cgn_fake_register_kernel("set_condition", 2, set_sizes, run_set_condition, NULL);
    cgn_fake_kernels.countdown =
        cgn_fake_register_kernel("countdown", 2, countdown_sizes, run_countdown, NULL);
    cgn_driver_install(cgn_fake_table());
    cgn_test_in_driver_callback = cgn_fake_in_driver_callback;
    return 0;
}

static void fake_close(cgn_test_env *env) {
    cgn_collect();
    env->live_at_close = cgn_fake_live_objects() + cgn_fake_live_events();
    env->crash_prone_calls = cgn_fake_crash_prone_calls();
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
    if (strcmp(name, "set_condition") == 0)
        return CGN_KERNEL(cgn_fake_kernel_of(cgn_fake_kernels.set_condition));
    if (strcmp(name, "countdown") == 0)
        return CGN_KERNEL(cgn_fake_kernel_of(cgn_fake_kernels.countdown));
    abort();
}

/* Plain malloc: the fake does not know it, as the driver does not know pageable memory, so
 * copies through it take the host path that a CUDA_ERROR_INVALID_VALUE from
 * cuPointerGetAttribute leads to. */
static void *fake_alloc_host(cgn_test_env *env, size_t size) {
    (void)env;
    void *p = calloc(1, size);
    if (p == NULL)
        abort();
    return p;
}

static void fake_free_host(cgn_test_env *env, void *p) {
    (void)env;
    free(p);
}

static CUevent fake_event_create(cgn_test_env *env) {
    (void)env;
    CUevent e = cgn_fake_event_create();
    if (e == NULL)
        abort();
    return e;
}

static void fake_event_destroy(cgn_test_env *env, CUevent e) {
    (void)env;
    (void)cgn_fake_table()->cuEventDestroy(e);
}

/* Fake context 0 is current when the fake starts; context 2 plays the foreign one. */
static void fake_set_context(cgn_test_env *env, int which) {
    (void)env;
    cgn_fake_set_current_context(which == CGN_TEST_CTX_NONE  ? NULL
                                 : which == CGN_TEST_CTX_OWN ? cgn_fake_context(0)
                                                             : cgn_fake_context(2));
}

static int fake_current_context(cgn_test_env *env) {
    (void)env;
    CUcontext c = NULL;
    if (cgn_fake_table()->cuCtxGetCurrent(&c) != CUDA_SUCCESS)
        return -1;
    return c == NULL                   ? CGN_TEST_CTX_NONE
           : c == cgn_fake_context(0) ? CGN_TEST_CTX_OWN
           : c == cgn_fake_context(2) ? CGN_TEST_CTX_FOREIGN
                                       : -1;
}

static cgn_kernel fake_foreign_kernel(cgn_test_env *env, const char *name) {
    cgn_kernel k = fake_kernel(env, name);
    CUfunction f = k.function;
    if (f == NULL) { /* a CUkernel: the CUfunction of its registered kernel */
        if (strcmp(name, "write_config") == 0)
            f = cgn_fake_kernels.write_config;
        else if (strcmp(name, "fill_u32") == 0)
            f = cgn_fake_kernels.fill_u32;
        else
            f = cgn_fake_kernels.empty;
    }
    return CGN_FUNCTION(cgn_fake_function_in_context(f, cgn_fake_context(2)));
}

/* The fake has no modules to unload: a handle it never issued answers the same way the H200
 * answers a function of an unloaded module (CUDA_ERROR_INVALID_HANDLE). */
static cgn_kernel fake_unloaded_kernel(cgn_test_env *env) {
    (void)env;
    static int gone;
    return CGN_FUNCTION((CUfunction)(void *)&gone);
}

/* A batch memory operation wait that does not hold would hang a GPU: the launch fails. */
static cgn_status fake_launch(cgn_test_env *env, cgn_exec *exec) {
    (void)env;
    size_t waits = cgn_fake_unsatisfied_waits();
    cgn_status st = cgn_exec_launch(exec, NULL);
    if (st == CGN_OK && cgn_fake_unsatisfied_waits() != waits) {
        fprintf(stderr, "fake launch: a batch memory operation wait did not hold (a GPU would "
                        "block forever)\n");
        return CGN_ERROR_DRIVER;
    }
    return st;
}

static int fake_hold(cgn_test_env *env) {
    (void)env;
    cgn_fake_hold_completion(1);
    return 1;
}

static void fake_release(cgn_test_env *env) {
    (void)env;
    cgn_fake_hold_completion(0);
    cgn_fake_complete_pending();
}

static void fake_sync(cgn_test_env *env) {
    (void)env;
    cgn_fake_complete_pending();
}

/* The fake counts the records of each event. */
static cgn_status fake_observe_records(cgn_test_env *env, cgn_exec *exec,
                                       int recorded[CGN_TEST_NUM_EVENTS]) {
    int before[CGN_TEST_NUM_EVENTS];
    for (int i = 0; i < CGN_TEST_NUM_EVENTS; i++)
        before[i] = cgn_fake_event_record_count(env->event[i]);
    cgn_status st = cgn_exec_launch(exec, NULL);
    for (int i = 0; i < CGN_TEST_NUM_EVENTS; i++)
        recorded[i] = cgn_fake_event_record_count(env->event[i]) - before[i];
    return st;
}

/* Fake launches never wait (they run to completion at once), so what can be observed is
 * which event the executable's wait nodes carry: its own snapshot, not the definition. */
static cgn_status fake_observe_waits(cgn_test_env *env, cgn_exec *exec,
                                     int waited[CGN_TEST_NUM_EVENTS]) {
    CUgraphExec raw = NULL;
    cgn_status st = cgn_exec_raw(exec, &raw);
    if (st == CGN_OK)
        st = cgn_exec_launch(exec, NULL);
    for (int i = 0; st == CGN_OK && i < CGN_TEST_NUM_EVENTS; i++)
        waited[i] = (int)cgn_fake_exec_event_waits(raw, env->event[i]);
    return st;
}

static const cgn_driver_table *fake_driver(cgn_test_env *env) {
    (void)env;
    return cgn_fake_table();
}

static CUarray fake_array_create(cgn_test_env *env) {
    (void)env;
    CUarray a =
        cgn_fake_array_create(CGN_TEST_ARRAY_WIDTH, CGN_TEST_ARRAY_HEIGHT, CGN_TEST_ARRAY_DEPTH);
    if (a == NULL)
        abort();
    return a;
}

static void fake_array_destroy(cgn_test_env *env, CUarray array) {
    (void)env;
    if (!cgn_fake_array_destroy(array))
        abort();
}

/* The array's bytes, which must be exactly the CGN_TEST_BUF_SIZE the observation holds. */
static unsigned char *fake_array_bytes(CUarray array) {
    size_t size = 0;
    unsigned char *data = cgn_fake_array_data(array, &size);
    if (data == NULL || size != CGN_TEST_BUF_SIZE)
        abort();
    return data;
}

static void fake_array_read(cgn_test_env *env, CUarray array, void *out) {
    (void)env;
    memcpy(out, fake_array_bytes(array), CGN_TEST_BUF_SIZE);
}

static void fake_array_write(cgn_test_env *env, CUarray array, const void *data) {
    (void)env;
    memcpy(fake_array_bytes(array), data, CGN_TEST_BUF_SIZE);
}

static CUexternalSemaphore fake_sem_create(cgn_test_env *env) {
    (void)env;
    CUexternalSemaphore sem = cgn_fake_ext_sem_create();
    if (sem == NULL)
        abort();
    return sem;
}

static void fake_sem_destroy(cgn_test_env *env, CUexternalSemaphore sem) {
    (void)env;
    if (!cgn_fake_ext_sem_destroy(sem))
        abort();
}

static void fake_sem_state(cgn_test_env *env, CUexternalSemaphore sem, size_t *signals,
                           size_t *waits, uint64_t *value) {
    (void)env;
    if (!cgn_fake_ext_sem_state(sem, signals, waits, value))
        abort();
}

const cgn_test_backend cgn_test_backend_selected = {
    .name = "fake",
    .open = fake_open,
    .close = fake_close,
    .alloc = fake_alloc,
    .free = fake_free,
    .read = fake_read,
    .write = fake_write,
    .alloc_host = fake_alloc_host,
    .free_host = fake_free_host,
    .event_create = fake_event_create,
    .event_destroy = fake_event_destroy,
    .kernel = fake_kernel,
    .launch = fake_launch,
    .hold = fake_hold,
    .release = fake_release,
    .launch_async = fake_launch,
    .sync = fake_sync,
    .set_context = fake_set_context,
    .current_context = fake_current_context,
    .foreign_kernel = fake_foreign_kernel,
    .unloaded_kernel = fake_unloaded_kernel,
    .launch_observe_records = fake_observe_records,
    .launch_observe_waits = fake_observe_waits,
    .driver = fake_driver,
    .release_timeout = 0.0,
    .array_create = fake_array_create,
    .array_destroy = fake_array_destroy,
    .array_read = fake_array_read,
    .array_write = fake_array_write,
    .sem_create = fake_sem_create,
    .sem_destroy = fake_sem_destroy,
    .sem_state = fake_sem_state,
};
