/* Test backend on the real driver and a GPU: device buffers, pinned host buffers, events, and
 * kernels from the embedded fatbin. Event nodes are observed by holding a stream with the
 * wait_flag kernel (tests/kernels/cgn_test_kernels.cu) while the executable is launched. */
#define _GNU_SOURCE 1 /* backtrace */
#include <execinfo.h>
#include <signal.h>
#include <stdatomic.h>
#include <unistd.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "../../examples/cgn_cuda.h"
#include "cgn_test_env.h"
#include "runtime.h"

extern const unsigned char cgn_test_kernels_fatbin[];
extern const size_t cgn_test_kernels_fatbin_size;
extern const unsigned char cgn_cond_kernels_fatbin[]; /* device-runtime kernels, loaded lazily */

/* How long a launch that waits for a held event must stay incomplete: one that does not wait
 * completes in microseconds. */
#define GPU_WAIT_WINDOW_S 0.2

static struct {
    cgn_cuda cu;
    CUlibrary lib;
    CUlibrary cond_lib; /* cgn_cond_kernels: loaded by the first test that asks (kernels.cmake) */
    CUstream stream; /* executables run here */
    CUstream side;   /* event_wait observation records the event here, behind a hold */
    cgn_kernel add_one, write_config, fill_u32, empty;
    CUfunction wait_flag;
    volatile int *flag; /* pinned: [0] release, [1] running, [2] gave up (wait_flag) */
    CUdeviceptr flag_dev;
    /* A second context on the same device, and the test kernels loaded in it. */
    CUcontext foreign;
    CUmodule foreign_module;
    PFN_cuCtxCreate_v12050 cuCtxCreate;
    PFN_cuCtxDestroy_v4000 cuCtxDestroy;
    PFN_cuCtxGetCurrent_v4000 cuCtxGetCurrent;
    PFN_cuCtxPopCurrent_v4000 cuCtxPopCurrent;
    PFN_cuModuleLoadData_v2000 cuModuleLoadData;
    PFN_cuModuleUnload_v2000 cuModuleUnload;
    PFN_cuModuleGetFunction_v2000 cuModuleGetFunction;
    /* Test arrays (memcpy_3d): made, filled and read back with 3-D copies. */
    PFN_cuArray3DCreate_v3020 cuArray3DCreate;
    PFN_cuArrayDestroy_v2000 cuArrayDestroy;
    PFN_cuMemcpy3D_v3020 cuMemcpy3D;
    PFN_cuCtxSynchronize_v2000 cuCtxSynchronize;
    PFN_cuDeviceGetAttribute_v2000 cuDeviceGetAttribute;
} gpu;

static void gpu_resolve(void *slot, const char *name, int version) {
    void *pfn = NULL;
    if (cgn_driver_proc(name, version, &pfn) != CGN_OK) {
        fprintf(stderr, "GPU tests: %s\n", cgn_last_error());
        abort();
    }
    memcpy(slot, &pfn, sizeof pfn);
}

static CUkernel gpu_get(const char *name) {
    CUkernel k;
    CGN_CUDA_CHECK(gpu.cu.cuLibraryGetKernel(&k, gpu.lib, name));
    return k;
}

/* The run's shared resources go at exit, so compute-sanitizer's leak check stays clean. */
static void gpu_shutdown(void) {
    gpu.cu.cuCtxSetCurrent(gpu.cu.context);
    gpu.cuModuleUnload(gpu.foreign_module);
    gpu.cuCtxDestroy(gpu.foreign);
    gpu.cu.cuCtxSetCurrent(gpu.cu.context);
    gpu.cu.cuMemFreeHost((void *)gpu.flag);
    gpu.cu.cuStreamDestroy(gpu.side);
    gpu.cu.cuStreamDestroy(gpu.stream);
    gpu.cu.cuLibraryUnload(gpu.lib);
    if (gpu.cond_lib != NULL)
        gpu.cu.cuLibraryUnload(gpu.cond_lib);
}

/* A crash inside the driver is a finding: say where (no debugger on the GPU machine). */
static void gpu_crashed(int sig) {
    static const char msg[] = "\nGPU test crashed; backtrace:\n";
    (void)!write(2, msg, sizeof msg - 1);
    void *frames[48];
    int n = backtrace(frames, 48);
    backtrace_symbols_fd(frames, n, 2);
    _exit(128 + sig);
}

static atomic_int gpu_crash_armed;

/* cmocka installs its own SIGSEGV/SIGBUS handler around every test and carries on with the next
 * test after a crash, with whatever locks the crashed call held still held: a crash then shows
 * as a hang later in the program. Once the GPU backend is open, those two signals end the
 * program with a backtrace instead. This definition takes the place of libc's for cmocka too
 * (exported: the executable's symbols come first in the dynamic lookup). */
__attribute__((visibility("default"))) sighandler_t signal(int sig, sighandler_t handler) {
    if ((sig == SIGSEGV || sig == SIGBUS) && atomic_load(&gpu_crash_armed))
        handler = gpu_crashed;
    struct sigaction want, old;
    memset(&want, 0, sizeof want);
    want.sa_handler = handler;
    sigemptyset(&want.sa_mask);
    want.sa_flags = SA_RESTART;
    if (sigaction(sig, &want, &old) != 0)
        return SIG_ERR;
    return old.sa_handler;
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
    CGN_CUDA_CHECK(gpu.cu.cuStreamCreate(&gpu.side, CU_STREAM_NON_BLOCKING));
    void *flag = NULL;
    CGN_CUDA_CHECK(gpu.cu.cuMemAllocHost(&flag, 4 * sizeof(int)));
    memset(flag, 0, 4 * sizeof(int));
    gpu.flag = flag;
    CGN_CUDA_CHECK(gpu.cu.cuMemHostGetDevicePointer(&gpu.flag_dev, flag, 0));
    CGN_CUDA_CHECK(gpu.cu.cuKernelGetFunction(&gpu.wait_flag, gpu_get("wait_flag")));
    /* add_one as a context-bound CUfunction, the others as CUkernels: both kinds covered. */
    CUfunction f;
    CGN_CUDA_CHECK(gpu.cu.cuKernelGetFunction(&f, gpu_get("add_one")));
    gpu.add_one = CGN_FUNCTION(f);
    gpu.write_config = CGN_KERNEL(gpu_get("write_config"));
    gpu.fill_u32 = CGN_KERNEL(gpu_get("fill_u32"));
    gpu.empty = CGN_KERNEL(gpu_get("empty"));
    gpu_resolve(&gpu.cuCtxCreate, "cuCtxCreate", 12050);
    gpu_resolve(&gpu.cuCtxDestroy, "cuCtxDestroy", 4000);
    gpu_resolve(&gpu.cuCtxGetCurrent, "cuCtxGetCurrent", 4000);
    gpu_resolve(&gpu.cuCtxPopCurrent, "cuCtxPopCurrent", 4000);
    gpu_resolve(&gpu.cuModuleLoadData, "cuModuleLoadData", 2000);
    gpu_resolve(&gpu.cuModuleUnload, "cuModuleUnload", 2000);
    gpu_resolve(&gpu.cuModuleGetFunction, "cuModuleGetFunction", 2000);
    gpu_resolve(&gpu.cuArray3DCreate, "cuArray3DCreate", 3020);
    gpu_resolve(&gpu.cuArrayDestroy, "cuArrayDestroy", 2000);
    gpu_resolve(&gpu.cuMemcpy3D, "cuMemcpy3D", 3020);
    gpu_resolve(&gpu.cuCtxSynchronize, "cuCtxSynchronize", 2000);
    CGN_CUDA_CHECK(gpu.cuCtxCreate(&gpu.foreign, NULL, 0, gpu.cu.device)); /* pushed */
    CGN_CUDA_CHECK(gpu.cuModuleLoadData(&gpu.foreign_module, cgn_test_kernels_fatbin));
    CUcontext popped;
    CGN_CUDA_CHECK(gpu.cuCtxPopCurrent(&popped)); /* the stack holds the primary context alone */
    /* Batch memory operation cases write and wait on 64-bit values: say so up front when the
     * device cannot (CUDA 12+ supports 32-bit stream memory operations everywhere). */
    gpu_resolve(&gpu.cuDeviceGetAttribute, "cuDeviceGetAttribute", 2000);
    int mem_ops_64 = 0;
    CGN_CUDA_CHECK(gpu.cuDeviceGetAttribute(
        &mem_ops_64, CU_DEVICE_ATTRIBUTE_CAN_USE_64_BIT_STREAM_MEM_OPS, gpu.cu.device));
    if (!mem_ops_64)
        printf("GPU tests: this device has no 64-bit stream memory operations "
               "(CU_DEVICE_ATTRIBUTE_CAN_USE_64_BIT_STREAM_MEM_OPS): the batch-write64, "
               "batch-several and batch-wait64 cases will fail\n");
    atexit(gpu_shutdown);
    atomic_store(&gpu_crash_armed, 1);
    signal(SIGSEGV, gpu_crashed);
    signal(SIGBUS, gpu_crashed);
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

static void *gpu_alloc_host(cgn_test_env *env, size_t size) {
    (void)env;
    void *p = NULL;
    CGN_CUDA_CHECK(gpu.cu.cuMemAllocHost(&p, size)); /* pinned: the driver reports HOST */
    memset(p, 0, size);
    return p;
}

static void gpu_free_host(cgn_test_env *env, void *p) {
    (void)env;
    CGN_CUDA_CHECK(gpu.cu.cuMemFreeHost(p));
}

static CUevent gpu_event_create(cgn_test_env *env) {
    (void)env;
    CUevent e;
    CGN_CUDA_CHECK(gpu.cu.cuEventCreate(&e, CU_EVENT_DISABLE_TIMING));
    return e;
}

static void gpu_event_destroy(cgn_test_env *env, CUevent e) {
    (void)env;
    CGN_CUDA_CHECK(gpu.cu.cuEventDestroy(e));
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
    if (strcmp(name, "set_condition") != 0 && strcmp(name, "countdown") != 0)
        abort();
    if (gpu.cond_lib == NULL)
        CGN_CUDA_CHECK(gpu.cu.cuLibraryLoadData(&gpu.cond_lib, cgn_cond_kernels_fatbin, NULL, NULL,
                                                0, NULL, NULL, 0));
    CUkernel k;
    CGN_CUDA_CHECK(gpu.cu.cuLibraryGetKernel(&k, gpu.cond_lib, name));
    return CGN_KERNEL(k);
}

/* Empties the calling thread's context stack (cuCtxSetCurrent(NULL) only pops its top), then
 * makes `which` current. */
static void gpu_set_context(cgn_test_env *env, int which) {
    (void)env;
    for (;;) {
        CUcontext c = NULL;
        CGN_CUDA_CHECK(gpu.cuCtxGetCurrent(&c));
        if (c == NULL)
            break;
        CGN_CUDA_CHECK(gpu.cuCtxPopCurrent(&c));
    }
    if (which != CGN_TEST_CTX_NONE)
        CGN_CUDA_CHECK(gpu.cu.cuCtxSetCurrent(which == CGN_TEST_CTX_OWN ? gpu.cu.context
                                                                        : gpu.foreign));
}

static int gpu_current_context(cgn_test_env *env) {
    (void)env;
    CUcontext c = NULL;
    CGN_CUDA_CHECK(gpu.cuCtxGetCurrent(&c));
    return c == NULL                ? CGN_TEST_CTX_NONE
           : c == gpu.cu.context   ? CGN_TEST_CTX_OWN
           : c == gpu.foreign      ? CGN_TEST_CTX_FOREIGN
                                    : -1;
}

static cgn_kernel gpu_foreign_kernel(cgn_test_env *env, const char *name) {
    (void)env;
    CUfunction f;
    CGN_CUDA_CHECK(gpu.cuModuleGetFunction(&f, gpu.foreign_module, name));
    return CGN_FUNCTION(f);
}

static cgn_kernel gpu_unloaded_kernel(cgn_test_env *env) {
    (void)env;
    CUmodule m;
    CUfunction f;
    CGN_CUDA_CHECK(gpu.cuModuleLoadData(&m, cgn_test_kernels_fatbin));
    CGN_CUDA_CHECK(gpu.cuModuleGetFunction(&f, m, "add_one"));
    CGN_CUDA_CHECK(gpu.cuModuleUnload(m));
    return CGN_FUNCTION(f);
}

static double gpu_now(void) {
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + (double)ts.tv_nsec * 1e-9;
}

static void gpu_pause(long ns) {
    struct timespec pause = {0, ns};
    nanosleep(&pause, NULL);
}

/* Launches and waits for completion. A launch completes in milliseconds; one still running
 * after 30 s is stuck (a batch memory operation wait that never holds blocks its stream for
 * good, and nothing can unblock it): the test fails at once instead of hanging. */
static cgn_status gpu_launch(cgn_test_env *env, cgn_exec *exec) {
    (void)env;
    cgn_status st = cgn_exec_launch(exec, gpu.stream);
    if (st != CGN_OK)
        return st;
    double deadline = gpu_now() + 30.0;
    CUresult r;
    while ((r = gpu.cu.cuStreamQuery(gpu.stream)) == CUDA_ERROR_NOT_READY) {
        if (gpu_now() > deadline) {
            fprintf(stderr, "gpu launch: not complete after 30 s (a batch memory operation "
                            "wait that never holds?)\n");
            abort();
        }
        gpu_pause(20000);
    }
    CGN_CUDA_CHECK(r);
    return st;
}

/* A full barrier after host writes to the flags wait_flag polls. gcc refuses
 * atomic_thread_fence under -fsanitize=thread (-Wtsan, an error with -Werror), so a TSan build
 * with gcc uses a sequentially consistent read-modify-write instead (a locked instruction: a
 * full barrier on x86-64, like the fence). */
#if defined(__SANITIZE_THREAD__)
static atomic_int gpu_fence_word;
static void gpu_fence(void) {
    (void)atomic_fetch_add_explicit(&gpu_fence_word, 0, memory_order_seq_cst);
}
#else
static void gpu_fence(void) { atomic_thread_fence(memory_order_seq_cst); }
#endif

static void gpu_release(void) {
    gpu.flag[0] = 1;
    gpu_fence();
}

/* Starts wait_flag on `stream` and waits until it runs, so work queued behind it is held until
 * gpu_release(). 0 (with the kernel released) when it did not start within 5 s. */
static int gpu_hold(CUstream stream) {
    gpu.flag[0] = gpu.flag[1] = gpu.flag[2] = 0;
    gpu_fence();
    void *args[] = {&gpu.flag_dev};
    CGN_CUDA_CHECK(gpu.cu.cuLaunchKernel(gpu.wait_flag, 1, 1, 1, 1, 1, 1, 0, stream, args, NULL));
    double deadline = gpu_now() + 5.0;
    while (gpu.flag[1] == 0) {
        if (gpu_now() > deadline) {
            gpu_release();
            return 0;
        }
        gpu_pause(100000);
    }
    return 1;
}

/* An event is recorded by a launch if its record is still pending while the launch is held
 * behind wait_flag on the same stream: cuEventQuery says CUDA_ERROR_NOT_READY for it and
 * CUDA_SUCCESS for the others (never recorded, or recorded by launches that have finished). */
static cgn_status gpu_observe_records(cgn_test_env *env, cgn_exec *exec,
                                      int recorded[CGN_TEST_NUM_EVENTS]) {
    CUresult before[CGN_TEST_NUM_EVENTS], during[CGN_TEST_NUM_EVENTS];
    if (!gpu_hold(gpu.stream))
        return cgn__fail(CGN_ERROR_DRIVER, "observing event records: wait_flag did not start");
    for (int i = 0; i < CGN_TEST_NUM_EVENTS; i++)
        before[i] = gpu.cu.cuEventQuery(env->event[i]);
    cgn_status st = cgn_exec_launch(exec, gpu.stream);
    for (int i = 0; i < CGN_TEST_NUM_EVENTS; i++)
        during[i] = st == CGN_OK ? gpu.cu.cuEventQuery(env->event[i]) : CUDA_SUCCESS;
    gpu_release();
    CGN_CUDA_CHECK(gpu.cu.cuStreamSynchronize(gpu.stream));
    if (st != CGN_OK)
        return st;
    if (gpu.flag[2])
        return cgn__fail(CGN_ERROR_DRIVER, "observing event records: wait_flag gave up");
    for (int i = 0; i < CGN_TEST_NUM_EVENTS; i++) {
        if (before[i] != CUDA_SUCCESS)
            return cgn__fail(CGN_ERROR_DRIVER, "observing event records: event %d reported %d "
                                               "before the launch", i, (int)before[i]);
        if (during[i] != CUDA_SUCCESS && during[i] != CUDA_ERROR_NOT_READY)
            return cgn__fail(CGN_ERROR_DRIVER, "observing event records: cuEventQuery of event "
                                               "%d returned %d", i, (int)during[i]);
        CUresult after = gpu.cu.cuEventQuery(env->event[i]);
        if (after != CUDA_SUCCESS)
            return cgn__fail(CGN_ERROR_DRIVER, "observing event records: event %d reported %d "
                                               "after the launch completed", i, (int)after);
        recorded[i] = during[i] == CUDA_ERROR_NOT_READY;
    }
    return CGN_OK;
}

/* Per test event: hold the side stream, record the event behind the hold, launch: a launch
 * that waits for that event stays incomplete (cuStreamQuery NOT_READY) for the whole window and
 * completes once released; one that waits for another (complete) event finishes at once. */
static cgn_status gpu_observe_waits(cgn_test_env *env, cgn_exec *exec,
                                    int waited[CGN_TEST_NUM_EVENTS]) {
    for (int i = 0; i < CGN_TEST_NUM_EVENTS; i++) {
        if (!gpu_hold(gpu.side))
            return cgn__fail(CGN_ERROR_DRIVER, "observing event waits: wait_flag did not start");
        CGN_CUDA_CHECK(gpu.cu.cuEventRecord(env->event[i], gpu.side));
        cgn_status st = cgn_exec_launch(exec, gpu.stream);
        CUresult r = CUDA_ERROR_NOT_READY;
        double deadline = gpu_now() + GPU_WAIT_WINDOW_S;
        while (st == CGN_OK && (r = gpu.cu.cuStreamQuery(gpu.stream)) == CUDA_ERROR_NOT_READY &&
               gpu_now() < deadline)
            gpu_pause(1000000);
        gpu_release();
        CGN_CUDA_CHECK(gpu.cu.cuStreamSynchronize(gpu.side));
        CGN_CUDA_CHECK(gpu.cu.cuStreamSynchronize(gpu.stream));
        if (st != CGN_OK)
            return st;
        if (gpu.flag[2])
            return cgn__fail(CGN_ERROR_DRIVER, "observing event waits: wait_flag gave up");
        if (r != CUDA_SUCCESS && r != CUDA_ERROR_NOT_READY)
            return cgn__fail(CGN_ERROR_DRIVER, "observing event waits: cuStreamQuery returned %d",
                             (int)r);
        waited[i] = r == CUDA_ERROR_NOT_READY;
    }
    return CGN_OK;
}

static int gpu_hold_stream(cgn_test_env *env) {
    (void)env;
    return gpu_hold(gpu.stream);
}

static void gpu_release_stream(cgn_test_env *env) {
    (void)env;
    gpu_release();
    CGN_CUDA_CHECK(gpu.cu.cuStreamSynchronize(gpu.stream));
}

static cgn_status gpu_launch_async(cgn_test_env *env, cgn_exec *exec) {
    (void)env;
    return cgn_exec_launch(exec, gpu.stream);
}

static void gpu_sync(cgn_test_env *env) {
    (void)env;
    CGN_CUDA_CHECK(gpu.cu.cuStreamSynchronize(gpu.stream));
}

static CUarray gpu_array_create(cgn_test_env *env) {
    (void)env;
    CUDA_ARRAY3D_DESCRIPTOR desc;
    memset(&desc, 0, sizeof desc);
    desc.Width = CGN_TEST_ARRAY_WIDTH; /* elements of one unsigned byte */
    desc.Height = CGN_TEST_ARRAY_HEIGHT;
    desc.Depth = CGN_TEST_ARRAY_DEPTH;
    desc.Format = CU_AD_FORMAT_UNSIGNED_INT8;
    desc.NumChannels = 1;
    CUarray a;
    CGN_CUDA_CHECK(gpu.cuArray3DCreate(&a, &desc));
    return a;
}

static void gpu_array_destroy(cgn_test_env *env, CUarray array) {
    (void)env;
    CGN_CUDA_CHECK(gpu.cuArrayDestroy(array));
}

/* The whole array to or from CGN_TEST_BUF_SIZE host bytes, row by row, slice by slice. */
static void gpu_array_copy(CUarray array, void *host, int to_array) {
    CUDA_MEMCPY3D c;
    memset(&c, 0, sizeof c);
    if (to_array) {
        c.srcMemoryType = CU_MEMORYTYPE_HOST;
        c.srcHost = host;
        c.srcPitch = CGN_TEST_ARRAY_WIDTH;
        c.srcHeight = CGN_TEST_ARRAY_HEIGHT;
        c.dstMemoryType = CU_MEMORYTYPE_ARRAY;
        c.dstArray = array;
    } else {
        c.srcMemoryType = CU_MEMORYTYPE_ARRAY;
        c.srcArray = array;
        c.dstMemoryType = CU_MEMORYTYPE_HOST;
        c.dstHost = host;
        c.dstPitch = CGN_TEST_ARRAY_WIDTH;
        c.dstHeight = CGN_TEST_ARRAY_HEIGHT;
    }
    c.WidthInBytes = CGN_TEST_ARRAY_WIDTH;
    c.Height = CGN_TEST_ARRAY_HEIGHT;
    c.Depth = CGN_TEST_ARRAY_DEPTH;
    CGN_CUDA_CHECK(gpu.cuMemcpy3D(&c));
    /* From pageable memory the copy may return before the device has the bytes: finish it
     * before a launch on the (non-blocking) test stream reads the array. */
    CGN_CUDA_CHECK(gpu.cuCtxSynchronize());
}

static void gpu_array_read(cgn_test_env *env, CUarray array, void *out) {
    (void)env;
    gpu_array_copy(array, out, 0);
}

static void gpu_array_write(cgn_test_env *env, CUarray array, const void *data) {
    (void)env;
    unsigned char bytes[CGN_TEST_BUF_SIZE];
    memcpy(bytes, data, sizeof bytes);
    gpu_array_copy(array, bytes, 1);
}

static const cgn_driver_table *gpu_driver(cgn_test_env *env) {
    (void)env;
    return cgn_driver_real();
}

const cgn_test_backend cgn_test_backend_selected = {
    .name = "gpu",
    .open = gpu_open,
    .close = gpu_close,
    .alloc = gpu_alloc,
    .free = gpu_free,
    .read = gpu_read,
    .write = gpu_write,
    .alloc_host = gpu_alloc_host,
    .free_host = gpu_free_host,
    .event_create = gpu_event_create,
    .event_destroy = gpu_event_destroy,
    .kernel = gpu_kernel,
    .launch = gpu_launch,
    .hold = gpu_hold_stream,
    .release = gpu_release_stream,
    .launch_async = gpu_launch_async,
    .sync = gpu_sync,
    .set_context = gpu_set_context,
    .current_context = gpu_current_context,
    .foreign_kernel = gpu_foreign_kernel,
    .unloaded_kernel = gpu_unloaded_kernel,
    .launch_observe_records = gpu_observe_records,
    .launch_observe_waits = gpu_observe_waits,
    .driver = gpu_driver,
    .release_timeout = 5.0,
    .array_create = gpu_array_create,
    .array_destroy = gpu_array_destroy,
    .array_read = gpu_array_read,
    .array_write = gpu_array_write,
};
