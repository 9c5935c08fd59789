/* Black-box tests of cgn on a real GPU, written from the documentation alone (README.md,
 * the docs/ pages, include/cgn/cgn.h and the generated node headers): the public API only, the
 * embedded test kernels (tests/kernels/cgn_test_kernels.cu), and the few raw driver calls a
 * user makes, resolved through cgn_driver_proc (nothing links libcuda). Every test checks what
 * the GPU did by reading memory back after synchronising, and cleans up after itself so that
 * the program is leak-free under compute-sanitizer.
 *
 * Without a usable device (or without the kernels, or with a driver older than 12.4, which
 * argument-level updates need) the program says why and exits 77 before any test runs.
 *
 * Conventions: release callbacks never call blocking CUDA functions (cuMemFree may synchronise,
 * which would deadlock against a kernel held by the host flag): they count themselves and
 * record what cuEventQuery/cuStreamQuery said at that moment, and buffers are freed by the
 * tests once their streams are idle. Streams are blocking (flags 0), so the synchronous
 * cuMemcpy and cuMemset calls the tests make (on the legacy stream) are ordered with them;
 * no synchronous memory call is made while a kernel waits on the host flag. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>

#include <cmocka.h>

#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include <cudaTypedefs.h>

#include "cgn/cgn.h"
#include "cgn_cuda.h"
#include "gpu_test_common.h" /* OK, CU, gpu_test_resolve */

/* ---- driver calls and shared state ------------------------------------------------------ */

static cgn_cuda cu;

/* The raw calls the tests make besides those of cgn_cuda.h. */
static struct {
    PFN_cuCtxGetCurrent_v4000 cuCtxGetCurrent;
    PFN_cuCtxCreate_v12050 cuCtxCreate;
    PFN_cuCtxDestroy_v4000 cuCtxDestroy;
    PFN_cuCtxPopCurrent_v4000 cuCtxPopCurrent;
    PFN_cuStreamBeginCapture_v10010 cuStreamBeginCapture;
    PFN_cuStreamEndCapture_v10000 cuStreamEndCapture;
    PFN_cuMemsetD32Async_v3020 cuMemsetD32Async;
    PFN_cuMemcpyHtoDAsync_v3020 cuMemcpyHtoDAsync;
    PFN_cuGraphInstantiateWithFlags_v11040 cuGraphInstantiateWithFlags;
    PFN_cuGraphExecDestroy_v10000 cuGraphExecDestroy;
    PFN_cuGraphDestroy_v10000 cuGraphDestroy;
    PFN_cuGraphMemsetNodeGetParams_v10000 cuGraphMemsetNodeGetParams;
    PFN_cuGraphMemsetNodeSetParams_v10000 cuGraphMemsetNodeSetParams;
    PFN_cuGraphKernelNodeGetParams_v12000 cuGraphKernelNodeGetParams;
    PFN_cuGraphKernelNodeSetParams_v12000 cuGraphKernelNodeSetParams;
    PFN_cuMemHostAlloc_v2020 cuMemHostAlloc;
} dx;

static CUlibrary lib;
static CUkernel k_fill, k_add, k_cfg, k_wait, k_axpy;
static CUfunction f_fill, f_add, f_wait; /* in the primary context */
static CUfunction f_add_other;           /* add_one in the second context */
static CUcontext ctx_other;              /* a second context on device 0 */
static CUstream stream, stream2;         /* blocking streams of the primary context */
/* The gate of wait_flag (pinned, mapped): [0] go, [1] running, [2] gave up after ~10 s. */
static volatile int *flag_host;
static CUdeviceptr flag_dev;

/* ---- checks -------------------------------------------------------------------------------- */

/* A cgn call that must fail with `want`, setting cgn_last_status() and a non-empty
 * cgn_last_error() (errors.md: "After a failure, cgn_last_error() gives a message and
 * cgn_last_status() the status, both for the calling thread only"). */
#define FAILS(call, want)                                                                          \
    do {                                                                                           \
        cgn_status f_st_ = (call);                                                                 \
        if (f_st_ != (want))                                                                       \
            fail_msg("%s:%d: %s: expected %s, got %s (%s)", __FILE__, __LINE__, #call,             \
                     cgn_status_name(want), cgn_status_name(f_st_), cgn_last_error());             \
        if (cgn_last_status() != (want))                                                           \
            fail_msg("%s:%d: %s: cgn_last_status() is %s, expected %s", __FILE__, __LINE__, #call, \
                     cgn_status_name(cgn_last_status()), cgn_status_name(want));                   \
        const char *f_msg_ = cgn_last_error();                                                     \
        if (f_msg_ == NULL || f_msg_[0] == '\0')                                                   \
            fail_msg("%s:%d: %s: empty cgn_last_error()", __FILE__, __LINE__, #call);              \
    } while (0)

/* OK(cgn_exec_destroy(exec)), then OK(cgn_graph_destroy(graph)), failures reported at the
 * caller's line with the caller's names for them. */
static void destroy_exec_graph_at(cgn_exec *exec, cgn_graph *graph, const char *exec_name,
                                  const char *graph_name, int line) {
    cgn_status st = cgn_exec_destroy(exec);
    if (st != CGN_OK)
        fail_msg("%s:%d: cgn_exec_destroy(%s) -> %s: %s", __FILE__, line, exec_name,
                 cgn_status_name(st), cgn_last_error());
    st = cgn_graph_destroy(graph);
    if (st != CGN_OK)
        fail_msg("%s:%d: cgn_graph_destroy(%s) -> %s: %s", __FILE__, line, graph_name,
                 cgn_status_name(st), cgn_last_error());
}
#define DESTROY_EXEC_GRAPH(exec, graph)                                                            \
    destroy_exec_graph_at((exec), (graph), #exec, #graph, __LINE__)

static CUdeviceptr dalloc(size_t bytes) {
    CUdeviceptr p = 0;
    CU(cu.cuMemAlloc(&p, bytes));
    CU(cu.cuMemsetD8(p, 0, bytes));
    return p;
}

static void dfree(CUdeviceptr p) {
    CU(cu.cuMemFree(p));
}

static unsigned read_u32(CUdeviceptr p) {
    unsigned v = 0;
    CU(cu.cuMemcpyDtoH(&v, p, sizeof v));
    return v;
}

static void write_u32(CUdeviceptr p, unsigned v) {
    CU(cu.cuMemcpyHtoD(p, &v, sizeof v));
}

static void expect_u32_at(CUdeviceptr p, unsigned want, const char *what, int line) {
    unsigned got = read_u32(p);
    if (got != want)
        fail_msg("line %d: %s: expected %u (0x%x), got %u (0x%x)", line, what, want, want, got,
                 got);
}
#define EXPECT_U32(p, want, what) expect_u32_at((p), (want), (what), __LINE__)

static void launch_sync(cgn_exec *exec) {
    OK(cgn_exec_launch(exec, stream));
    CU(cu.cuStreamSynchronize(stream));
}

/* launch_sync(exec), then EXPECT_U32(p, want, what), reported at the caller's line. */
static void run_expect_u32_at(cgn_exec *exec, CUdeviceptr p, unsigned want, const char *what,
                              int line) {
    launch_sync(exec);
    expect_u32_at(p, want, what, line);
}
#define RUN_EXPECT_U32(exec, p, want, what) run_expect_u32_at((exec), (p), (want), (what), __LINE__)

static CUcontext current_ctx(void) {
    CUcontext c = NULL;
    CU(dx.cuCtxGetCurrent(&c));
    return c;
}

static void set_ctx(CUcontext c) {
    CU(cu.cuCtxSetCurrent(c));
    CUcontext now = current_ctx();
    if (now != c)
        fail_msg("cuCtxSetCurrent(%p) left %p current (context stack deeper than one?)", (void *)c,
                 (void *)now);
}

static void expect_ctx_at(CUcontext want, const char *what, int line) {
    CUcontext got = current_ctx();
    if (got != want)
        fail_msg("line %d: %s: current context changed: expected %p, got %p", line, what,
                 (void *)want, (void *)got);
}
#define EXPECT_CTX(want, what) expect_ctx_at((want), (what), __LINE__)

/* The three states a caller's thread may be in around a cgn call. */
enum { CTX_PRIMARY, CTX_NONE, CTX_OTHER, CTX_STATES };
static const char *const ctx_names[CTX_STATES] = {"primary context current", "no context current",
                                                  "other context current"};
static CUcontext ctx_of(int w) {
    return w == CTX_PRIMARY ? cu.context : w == CTX_NONE ? NULL : ctx_other;
}

/* A kernel desc of one block of one thread. */
static cgn_kernel_desc kdesc(cgn_kernel k, const cgn_arg *args, uint32_t num_args) {
    cgn_kernel_desc d = CGN_KERNEL_DESC_INIT;
    d.kernel = k;
    d.grid = CGN_DIM3(1, 1, 1);
    d.block = CGN_DIM3(1, 1, 1);
    d.args = args;
    d.num_args = num_args;
    return d;
}

/* Copies argument i of d, which must exist and be `size` bytes, into `out`. */
static void arg_value(const cgn_kernel_desc *d, uint32_t i, void *out, size_t size) {
    assert_true(i < d->num_args);
    assert_int_equal(d->args[i].size, size);
    memcpy(out, d->args[i].value, size);
}

static unsigned arg_u32(const cgn_kernel_desc *d, uint32_t i) {
    unsigned v;
    arg_value(d, i, &v, sizeof v);
    return v;
}

static CUdeviceptr arg_ptr(const cgn_kernel_desc *d, uint32_t i) {
    CUdeviceptr v;
    arg_value(d, i, &v, sizeof v);
    return v;
}

/* Adds the gate kernel wait_flag(flag) (holds its stream until flag_host[0] is set). */
static cgn_node *add_gate(cgn_graph *g) {
    cgn_arg a[1] = {CGN_ARG(flag_dev)};
    cgn_kernel_desc d = kdesc(CGN_KERNEL(k_wait), a, 1);
    cgn_node *n = NULL;
    OK(cgn_graph_add_kernel(g, NULL, 0, &d, &n));
    return n;
}

static void gate_close(void) {
    flag_host[0] = 0;
    flag_host[1] = 0;
    flag_host[2] = 0;
}

static void gate_open(void) {
    flag_host[0] = 1;
}

/* The gate kernel must not have given up (a launch blocked for ~10 s: something waited for a
 * launch that waited for the host). */
static void expect_gate_not_timed_out(const char *what) {
    if (flag_host[2] != 0)
        fail_msg("%s: the gate kernel timed out (something blocked while a launch waited)", what);
}

/* ---- owners that count their releases ------------------------------------------------------ */

typedef struct tracked {
    atomic_int releases;
    int seq;       /* global release order (1-based), 0 before release */
    CUevent fence; /* if set: queried when released */
    CUresult fence_at_release;
    CUstream stream_q; /* if set: queried when released */
    CUresult stream_at_release;
} tracked;

static atomic_int release_seq;

static void tracked_release(void *resource) {
    tracked *t = resource;
    t->fence_at_release = t->fence ? cu.cuEventQuery(t->fence) : CUDA_SUCCESS;
    t->stream_at_release = t->stream_q ? cu.cuStreamQuery(t->stream_q) : CUDA_SUCCESS;
    t->seq = atomic_fetch_add(&release_seq, 1) + 1;
    atomic_fetch_add(&t->releases, 1);
}

static cgn_owner *tracked_owner(tracked *t) {
    atomic_init(&t->releases, 0);
    t->seq = 0;
    t->fence = NULL;
    t->fence_at_release = CUDA_SUCCESS;
    t->stream_q = NULL;
    t->stream_at_release = CUDA_SUCCESS;
    cgn_owner *o = NULL;
    OK(cgn_owner_create(t, tracked_release, &o));
    return o;
}

/* Tracked owners live in a static pool, never reused: an owner a failed test left behind in a
 * graph may still be released by a later test's cgn calls, and must not find a dead stack frame. */
enum { TRACKED_POOL = 1024 };
static tracked tracked_pool[TRACKED_POOL];
static size_t tracked_used;

static tracked *tracked_array(size_t n) {
    if (n > TRACKED_POOL - tracked_used)
        fail_msg("tracked owner pool exhausted (%zu used, %zu more wanted)", tracked_used, n);
    tracked *t = &tracked_pool[tracked_used];
    tracked_used += n;
    for (size_t i = 0; i < n; i++)
        atomic_init(&t[i].releases, 0);
    return t;
}

static tracked *tracked_new(void) {
    return tracked_array(1);
}

static void sleep_ms(long ms) {
    struct timespec ts = {ms / 1000, (ms % 1000) * 1000000L};
    nanosleep(&ts, NULL);
}

/* ownership.md: CUDA lets go of references on its own schedule, "so at shutdown, after
 * synchronising the streams, call cgn_collect() until what you wait for has been released".
 * At most 5 s. */
static int collect_until(atomic_int *counter, int want) {
    for (int i = 0; i < 5000; i++) {
        if (atomic_load(counter) >= want)
            break;
        if (cgn_collect() == 0)
            sleep_ms(1);
    }
    cgn_collect();
    return atomic_load(counter);
}

static void expect_released_at(tracked *t, int want, const char *what, int line) {
    int got = collect_until(&t->releases, want);
    if (got != want)
        fail_msg("line %d: %s: expected %d release(s), got %d", line, what, want, got);
}
#define EXPECT_RELEASED(t, want, what) expect_released_at((t), (want), (what), __LINE__)

/* Not released (yet): a few collects must not release it. */
static void expect_held_at(tracked *t, const char *what, int line) {
    for (int i = 0; i < 3; i++)
        cgn_collect();
    int got = atomic_load(&t->releases);
    if (got != 0)
        fail_msg("line %d: %s: released %d time(s) while still in use", line, what, got);
}
#define EXPECT_HELD(t, what) expect_held_at((t), (what), __LINE__)

/* After each test, even a failed one: let any gate kernel go, drain the streams, make the
 * primary context current again and run pending releases. */
static int teardown(void **state) {
    (void)state;
    gate_open();
    cu.cuCtxSetCurrent(cu.context);
    cu.cuStreamSynchronize(stream);
    cu.cuStreamSynchronize(stream2);
    cgn_collect();
    return 0;
}

/* ===== definition-level updates =========================================================== */

/* kernel.h: "Applies a partial update ... future instantiations see it, existing executables
 * keep their parameters and owners." cgn_arg: "CUDA (and cgn) copy the bytes, so `value` may
 * be freed after the call." */
static void test_kernel_def_scalar_arg(void **state) {
    (void)state;
    CUdeviceptr out = dalloc(sizeof(unsigned));
    cgn_graph *g;
    cgn_node *n;
    cgn_exec *e1, *e2, *e3;
    OK(cgn_graph_create(&g));
    unsigned v = 7;
    cgn_arg args[2] = {CGN_ARG(out), CGN_ARG(v)};
    cgn_kernel_desc d = kdesc(CGN_KERNEL(k_fill), args, 2);
    OK(cgn_graph_add_kernel(g, NULL, 0, &d, &n));
    v = 1000; /* cgn copied the bytes */
    OK(cgn_graph_instantiate(g, &e1));

    unsigned nine = 9;
    cgn_kernel_update u = CGN_KERNEL_UPDATE_INIT;
    cgn_kernel_update_set_arg(&u, 1, &nine, sizeof nine, NULL);
    OK(cgn_kernel_node_update(n, &u));
    nine = 2000;
    OK(cgn_graph_instantiate(g, &e2));

    /* every argument replaced (set_args) */
    unsigned eleven = 11;
    cgn_arg args3[2] = {CGN_ARG(out), CGN_ARG(eleven)};
    cgn_kernel_update u3 = CGN_KERNEL_UPDATE_INIT;
    cgn_kernel_update_set_args(&u3, args3, 2);
    OK(cgn_kernel_node_update(n, &u3));
    OK(cgn_graph_instantiate(g, &e3));

    RUN_EXPECT_U32(e1, out, 7, "executable made before the updates");
    RUN_EXPECT_U32(e2, out, 9, "executable made after set_arg(1, 9)");
    RUN_EXPECT_U32(e3, out, 11, "executable made after set_args(out, 11)");
    RUN_EXPECT_U32(e1, out, 7, "first executable again");

    cgn_kernel_desc got;
    OK(cgn_kernel_node_get(n, &got));
    assert_int_equal(got.num_args, 2);
    assert_true(arg_ptr(&got, 0) == out);
    assert_int_equal(arg_u32(&got, 1), 11);
    OK(cgn_kernel_exec_get(e1, n, &got));
    assert_int_equal(arg_u32(&got, 1), 7);
    OK(cgn_kernel_exec_get(e2, n, &got));
    assert_int_equal(arg_u32(&got, 1), 9);

    OK(cgn_exec_destroy(e1));
    OK(cgn_exec_destroy(e2));
    DESTROY_EXEC_GRAPH(e3, g);
    cgn_collect();
    dfree(out);
}

/* ownership.md: "Update with different owners: ... Executables made before keep the old one."
 * "When the last reference goes, release_fn(resource) runs once." */
static void test_kernel_def_pointer_arg_owner(void **state) {
    (void)state;
    CUdeviceptr a = dalloc(sizeof(unsigned)), b = dalloc(sizeof(unsigned));
    tracked *ta = tracked_new();
    tracked *tb = tracked_new();
    cgn_owner *oa = tracked_owner(ta), *ob = tracked_owner(tb);
    cgn_graph *g;
    cgn_node *n;
    cgn_exec *e1, *e2;
    OK(cgn_graph_create(&g));
    unsigned five = 5;
    cgn_arg args[2] = {CGN_ARG_OWNED(a, oa), CGN_ARG(five)};
    cgn_kernel_desc d = kdesc(CGN_KERNEL(k_fill), args, 2);
    OK(cgn_graph_add_kernel(g, NULL, 0, &d, &n));
    OK(cgn_owner_release(oa)); /* the graph holds A */
    OK(cgn_graph_instantiate(g, &e1));

    cgn_kernel_update u = CGN_KERNEL_UPDATE_INIT;
    cgn_kernel_update_set_arg(&u, 0, &b, sizeof b, ob);
    OK(cgn_kernel_node_update(n, &u));
    OK(cgn_owner_release(ob)); /* the graph holds B */
    OK(cgn_graph_instantiate(g, &e2));

    EXPECT_HELD(ta, "owner A (e1 still runs the version pointing at A)");
    EXPECT_HELD(tb, "owner B (graph and e2 point at B)");

    RUN_EXPECT_U32(e1, a, 5, "e1 writes A");
    EXPECT_U32(b, 0, "e1 must not write B");
    RUN_EXPECT_U32(e2, b, 5, "e2 writes B");

    cgn_kernel_desc got;
    OK(cgn_kernel_node_get(n, &got));
    assert_true(arg_ptr(&got, 0) == b);
    assert_ptr_equal(got.args[0].owner, ob);
    assert_int_equal(arg_u32(&got, 1), 5);

    OK(cgn_exec_destroy(e1));
    EXPECT_RELEASED(ta, 1, "owner A after its last executable went");
    EXPECT_HELD(tb, "owner B (graph and e2)");
    DESTROY_EXEC_GRAPH(e2, g);
    EXPECT_RELEASED(tb, 1, "owner B after graph and e2 went");
    EXPECT_RELEASED(ta, 1, "owner A released exactly once");
    dfree(a);
    dfree(b);
}

/* kernel.h: grid "Grid dimensions in blocks", block, shared_mem_bytes "Dynamic shared memory
 * per block in bytes": the launch configuration of later instantiations. */
static void test_kernel_def_grid_block_smem(void **state) {
    (void)state;
    CUdeviceptr out = dalloc(7 * sizeof(unsigned));
    cgn_graph *g;
    cgn_node *n;
    cgn_exec *e1, *e2;
    OK(cgn_graph_create(&g));
    cgn_arg args[1] = {CGN_ARG(out)};
    cgn_kernel_desc d = kdesc(CGN_KERNEL(k_cfg), args, 1);
    OK(cgn_graph_add_kernel(g, NULL, 0, &d, &n));
    OK(cgn_graph_instantiate(g, &e1));
    cgn_kernel_update u = CGN_KERNEL_UPDATE_INIT;
    cgn_kernel_update_set_grid(&u, CGN_DIM3(3, 2, 1));
    cgn_kernel_update_set_block(&u, CGN_DIM3(64, 2, 1));
    cgn_kernel_update_set_shared_mem_bytes(&u, 256);
    OK(cgn_kernel_node_update(n, &u));
    OK(cgn_graph_instantiate(g, &e2));

    static const char *const names[7] = {"grid.x",  "grid.y",  "grid.z",      "block.x",
                                         "block.y", "block.z", "dynamic smem"};
    const unsigned want1[7] = {1, 1, 1, 1, 1, 1, 0};
    const unsigned want2[7] = {3, 2, 1, 64, 2, 1, 256};
    unsigned got[7];
    launch_sync(e1);
    CU(cu.cuMemcpyDtoH(got, out, sizeof got));
    for (int i = 0; i < 7; i++)
        if (got[i] != want1[i])
            fail_msg("e1 (before the update): %s expected %u, got %u", names[i], want1[i], got[i]);
    launch_sync(e2);
    CU(cu.cuMemcpyDtoH(got, out, sizeof got));
    for (int i = 0; i < 7; i++)
        if (got[i] != want2[i])
            fail_msg("e2 (after the update): %s expected %u, got %u", names[i], want2[i], got[i]);

    /* executable level: only e1 changes, the definition keeps (3,2,1) */
    cgn_kernel_update x = CGN_KERNEL_UPDATE_INIT;
    cgn_kernel_update_set_grid(&x, CGN_DIM3(5, 1, 1));
    OK(cgn_kernel_exec_update(e1, n, &x));
    launch_sync(e1);
    CU(cu.cuMemcpyDtoH(got, out, sizeof got));
    assert_int_equal(got[0], 5);
    assert_int_equal(got[3], 1); /* block kept what e1 had, not the definition's 64 */
    cgn_kernel_desc now;
    OK(cgn_kernel_node_get(n, &now));
    assert_int_equal(now.grid.x, 3);
    assert_int_equal(now.block.x, 64);
    assert_int_equal(now.shared_mem_bytes, 256);

    OK(cgn_exec_destroy(e1));
    DESTROY_EXEC_GRAPH(e2, g);
    cgn_collect();
    dfree(out);
}

/* cgn.h: "Argument-level kernel updates (cgn_kernel_update_set_arg): arguments replaced by
 * index, the others kept as the node (or that executable) has them." */
static void test_kernel_def_set_arg_by_index(void **state) {
    (void)state;
    CUdeviceptr out = dalloc(2 * sizeof(float)), x = dalloc(2 * sizeof(float)),
                x2 = dalloc(2 * sizeof(float)), y = dalloc(2 * sizeof(float));
    const float xv[2] = {1.0f, 2.0f}, x2v[2] = {5.0f, 6.0f}, yv[2] = {10.0f, 20.0f};
    CU(cu.cuMemcpyHtoD(x, xv, sizeof xv));
    CU(cu.cuMemcpyHtoD(x2, x2v, sizeof x2v));
    CU(cu.cuMemcpyHtoD(y, yv, sizeof yv));
    tracked *tx2 = tracked_new();
    cgn_owner *ox2 = tracked_owner(tx2);
    cgn_graph *g;
    cgn_node *n;
    cgn_exec *e1, *e2, *e3;
    OK(cgn_graph_create(&g));
    float a = 2.0f;
    unsigned cnt = 2;
    unsigned long long tag = 0;
    cgn_arg args[6] = {CGN_ARG(out), CGN_ARG(x),   CGN_ARG(y),
                       CGN_ARG(a),   CGN_ARG(cnt), CGN_ARG(tag)};
    cgn_kernel_desc d = kdesc(CGN_KERNEL(k_axpy), args, 6);
    OK(cgn_graph_add_kernel(g, NULL, 0, &d, &n));
    OK(cgn_graph_instantiate(g, &e1));

    float a3 = 3.0f;
    cgn_kernel_update u = CGN_KERNEL_UPDATE_INIT;
    cgn_kernel_update_set_arg(&u, 3, &a3, sizeof a3, NULL);
    cgn_kernel_update_set_arg(&u, 1, &x2, sizeof x2, ox2);
    OK(cgn_kernel_node_update(n, &u));
    OK(cgn_owner_release(ox2));
    OK(cgn_graph_instantiate(g, &e2));

    /* n = 0: the kernel writes out[0] = tag */
    unsigned zero = 0;
    unsigned long long tag42 = 42;
    cgn_kernel_update v = CGN_KERNEL_UPDATE_INIT;
    cgn_kernel_update_set_arg(&v, 4, &zero, sizeof zero, NULL);
    cgn_kernel_update_set_arg(&v, 5, &tag42, sizeof tag42, NULL);
    OK(cgn_kernel_node_update(n, &v));
    OK(cgn_graph_instantiate(g, &e3));

    float got[2];
    launch_sync(e1);
    CU(cu.cuMemcpyDtoH(got, out, sizeof got));
    if (got[0] != 12.0f || got[1] != 24.0f)
        fail_msg("e1: expected 2*x+y = {12, 24}, got {%g, %g}", (double)got[0], (double)got[1]);
    launch_sync(e2);
    CU(cu.cuMemcpyDtoH(got, out, sizeof got));
    if (got[0] != 25.0f || got[1] != 38.0f)
        fail_msg("e2: expected 3*x2+y = {25, 38}, got {%g, %g}", (double)got[0], (double)got[1]);
    CU(cu.cuMemsetD8(out, 0, 2 * sizeof(float)));
    launch_sync(e3);
    CU(cu.cuMemcpyDtoH(got, out, sizeof got));
    if (got[0] != 42.0f)
        fail_msg("e3 (n = 0, tag 42): expected out[0] = 42, got %g", (double)got[0]);

    cgn_kernel_desc now;
    OK(cgn_kernel_node_get(n, &now));
    assert_int_equal(now.num_args, 6);
    assert_true(arg_ptr(&now, 0) == out);
    assert_true(arg_ptr(&now, 1) == x2);
    assert_true(arg_ptr(&now, 2) == y);
    assert_ptr_equal(now.args[1].owner, ox2);

    OK(cgn_exec_destroy(e1));
    OK(cgn_exec_destroy(e2));
    DESTROY_EXEC_GRAPH(e3, g);
    EXPECT_RELEASED(tx2, 1, "owner of x2");
    dfree(out);
    dfree(x);
    dfree(x2);
    dfree(y);
}

/* kernel.h: "Coupled: kernel requires args"; guide.md: "A new kernel comes with its arguments
 * (`kernel` requires `args`), which the kernel setter takes together". */
static void test_kernel_def_switch_kernel(void **state) {
    (void)state;
    CUdeviceptr out = dalloc(sizeof(unsigned));
    tracked *tl = tracked_new();
    cgn_owner *lib_owner = tracked_owner(tl); /* stands for the library (unloaded by main) */
    cgn_graph *g;
    cgn_node *n;
    cgn_exec *e1, *e2;
    OK(cgn_graph_create(&g));
    unsigned v = 40;
    cgn_arg args[2] = {CGN_ARG(out), CGN_ARG(v)};
    cgn_kernel_desc d = kdesc(CGN_KERNEL(k_fill), args, 2);
    OK(cgn_graph_add_kernel(g, NULL, 0, &d, &n));
    OK(cgn_graph_instantiate(g, &e1));

    /* kernel without args: refused, nothing changes */
    cgn_kernel_update bad = CGN_KERNEL_UPDATE_INIT;
    bad.kernel = CGN_KERNEL(k_add);
    bad.set = CGN_KERNEL_SET_KERNEL;
    FAILS(cgn_kernel_node_update(n, &bad), CGN_ERROR_MISSING_FIELD);

    cgn_arg one[1] = {CGN_ARG(out)};
    cgn_kernel_update u = CGN_KERNEL_UPDATE_INIT;
    cgn_kernel_update_set_kernel(&u, CGN_KERNEL(k_add), lib_owner, one, 1);
    cgn_kernel_update_set_grid(&u, CGN_DIM3(2, 1, 1));
    OK(cgn_kernel_node_update(n, &u));
    OK(cgn_owner_release(lib_owner));
    OK(cgn_graph_instantiate(g, &e2));

    RUN_EXPECT_U32(e1, out, 40, "e1 still runs fill_u32(out, 40)");
    launch_sync(e2);
    RUN_EXPECT_U32(e2, out, 42, "e2 runs add_one twice after 40");

    cgn_kernel_desc now;
    OK(cgn_kernel_node_get(n, &now));
    assert_ptr_equal(now.kernel.kernel, k_add);
    assert_ptr_equal(now.kernel_owner, lib_owner);
    assert_int_equal(now.num_args, 1);
    assert_int_equal(now.grid.x, 2);

    OK(cgn_exec_destroy(e1));
    EXPECT_HELD(tl, "kernel owner (graph and e2 run add_one)");
    DESTROY_EXEC_GRAPH(e2, g);
    EXPECT_RELEASED(tl, 1, "kernel owner");
    dfree(out);
}

/* guide.md: "A definition update changes what *later* instantiations do. `first`, made
 * before it, still fills buffer A with 0x11 and holds the owners of its own version". */
static void test_memset_def_value_dst(void **state) {
    (void)state;
    enum { N = 16 };
    CUdeviceptr a = dalloc(N), b = dalloc(N);
    tracked *tb = tracked_new();
    cgn_owner *ob = tracked_owner(tb);
    cgn_graph *g;
    cgn_node *n;
    cgn_exec *e1, *e2, *e3;
    OK(cgn_graph_create(&g));
    cgn_memset_desc d = CGN_MEMSET_DESC_INIT;
    d.dst = a;
    d.value = 0x11;
    d.width = N;
    OK(cgn_graph_add_memset(g, NULL, 0, &d, &n));
    OK(cgn_graph_instantiate(g, &e1));
    cgn_memset_update u = CGN_MEMSET_UPDATE_INIT;
    cgn_memset_update_set_dst(&u, b, ob);
    cgn_memset_update_set_value(&u, 0x22, 1);
    OK(cgn_memset_node_update(n, &u));
    OK(cgn_owner_release(ob));
    OK(cgn_graph_instantiate(g, &e2));
    cgn_memset_update w = CGN_MEMSET_UPDATE_INIT;
    cgn_memset_update_set_value(&w, 0xA5C3E1F7u, 4);
    cgn_memset_update_set_width(&w, N / 4);
    OK(cgn_memset_node_update(n, &w));
    OK(cgn_graph_instantiate(g, &e3));

    unsigned char got[N];
    launch_sync(e1);
    CU(cu.cuMemcpyDtoH(got, a, N));
    for (int i = 0; i < N; i++)
        if (got[i] != 0x11)
            fail_msg("e1: A[%d] expected 0x11, got 0x%02x", i, got[i]);
    CU(cu.cuMemsetD8(a, 0, N));
    launch_sync(e2);
    CU(cu.cuMemcpyDtoH(got, b, N));
    for (int i = 0; i < N; i++)
        if (got[i] != 0x22)
            fail_msg("e2: B[%d] expected 0x22, got 0x%02x", i, got[i]);
    CU(cu.cuMemcpyDtoH(got, a, N));
    for (int i = 0; i < N; i++)
        if (got[i] != 0)
            fail_msg("e2 wrote A[%d] = 0x%02x; it should write B only", i, got[i]);
    launch_sync(e3);
    unsigned words[N / 4];
    CU(cu.cuMemcpyDtoH(words, b, N));
    for (int i = 0; i < N / 4; i++)
        if (words[i] != 0xA5C3E1F7u)
            fail_msg("e3: B word %d expected 0xa5c3e1f7, got 0x%08x", i, words[i]);

    cgn_memset_desc now;
    OK(cgn_memset_node_get(n, &now));
    assert_true(now.dst == b);
    assert_ptr_equal(now.dst_owner, ob);
    assert_int_equal(now.value, 0xA5C3E1F7u);
    assert_int_equal(now.element_size, 4);
    assert_int_equal(now.width, N / 4);
    OK(cgn_memset_exec_get(e1, n, &now));
    assert_true(now.dst == a);
    assert_int_equal(now.value, 0x11);

    OK(cgn_exec_destroy(e1));
    OK(cgn_exec_destroy(e2));
    OK(cgn_exec_destroy(e3));
    EXPECT_HELD(tb, "owner of B (the graph)");
    OK(cgn_graph_destroy(g));
    EXPECT_RELEASED(tb, 1, "owner of B");
    dfree(a);
    dfree(b);
}

/* guide.md: "a definition update can turn a device-to-device copy into a device-to-host one";
 * memcpy.h: dst_memory_type "CU_MEMORYTYPE_DEVICE (device or managed) or CU_MEMORYTYPE_HOST". */
static void test_memcpy_def_size_src_dst_host(void **state) {
    (void)state;
    enum { W = 4 };
    const unsigned v1[W] = {1, 2, 3, 4}, v2[W] = {100, 101, 102, 103};
    CUdeviceptr src1 = dalloc(sizeof v1), src2 = dalloc(sizeof v2), dst = dalloc(sizeof v1);
    CU(cu.cuMemcpyHtoD(src1, v1, sizeof v1));
    CU(cu.cuMemcpyHtoD(src2, v2, sizeof v2));
    unsigned *host_dst = NULL, *host_src = NULL;
    CU(cu.cuMemAllocHost((void **)&host_dst, sizeof v1));
    CU(cu.cuMemAllocHost((void **)&host_src, sizeof v1));
    memset(host_dst, 0, sizeof v1);
    for (int i = 0; i < W; i++)
        host_src[i] = 7000u + (unsigned)i;
    tracked *ts2 = tracked_new();
    cgn_owner *os2 = tracked_owner(ts2);

    cgn_graph *g;
    cgn_node *n;
    cgn_exec *e1, *e2, *e3, *e4;
    OK(cgn_graph_create(&g));
    cgn_memcpy_desc d = CGN_MEMCPY_DESC_INIT;
    d.dst = dst;
    d.src = src1;
    d.size = 2 * sizeof(unsigned);
    OK(cgn_graph_add_memcpy(g, NULL, 0, &d, &n));
    OK(cgn_graph_instantiate(g, &e1));

    cgn_memcpy_update u = CGN_MEMCPY_UPDATE_INIT;
    cgn_memcpy_update_set_src(&u, src2, os2);
    cgn_memcpy_update_set_size(&u, sizeof v2);
    OK(cgn_memcpy_node_update(n, &u));
    OK(cgn_owner_release(os2));
    OK(cgn_graph_instantiate(g, &e2));

    cgn_memcpy_update h = CGN_MEMCPY_UPDATE_INIT; /* device to pinned host; src keeps src2 */
    cgn_memcpy_update_set_dst(&h, (CUdeviceptr)(uintptr_t)host_dst, NULL);
    OK(cgn_memcpy_node_update(n, &h));
    cgn_memcpy_desc now;
    OK(cgn_memcpy_node_get(n, &now));
    assert_int_equal(now.dst_memory_type, CU_MEMORYTYPE_HOST);
    assert_int_equal(now.src_memory_type, CU_MEMORYTYPE_DEVICE);
    assert_ptr_equal(now.src_owner, os2);
    OK(cgn_graph_instantiate(g, &e3));

    cgn_memcpy_update hd = CGN_MEMCPY_UPDATE_INIT; /* pinned host to device */
    cgn_memcpy_update_set_src(&hd, (CUdeviceptr)(uintptr_t)host_src, NULL);
    cgn_memcpy_update_set_dst(&hd, dst, NULL);
    OK(cgn_memcpy_node_update(n, &hd));
    OK(cgn_memcpy_node_get(n, &now));
    assert_int_equal(now.src_memory_type, CU_MEMORYTYPE_HOST);
    assert_int_equal(now.dst_memory_type, CU_MEMORYTYPE_DEVICE);
    assert_null(now.src_owner); /* "src without src_owner resets src_owner to NULL" */
    OK(cgn_graph_instantiate(g, &e4));

    unsigned got[W];
    launch_sync(e1);
    CU(cu.cuMemcpyDtoH(got, dst, sizeof got));
    if (got[0] != 1 || got[1] != 2 || got[2] != 0 || got[3] != 0)
        fail_msg("e1: expected {1,2,0,0}, got {%u,%u,%u,%u}", got[0], got[1], got[2], got[3]);
    launch_sync(e2);
    CU(cu.cuMemcpyDtoH(got, dst, sizeof got));
    for (int i = 0; i < W; i++)
        if (got[i] != v2[i])
            fail_msg("e2: dst[%d] expected %u, got %u", i, v2[i], got[i]);
    CU(cu.cuMemsetD8(dst, 0, sizeof v1));
    launch_sync(e3);
    for (int i = 0; i < W; i++)
        if (host_dst[i] != v2[i])
            fail_msg("e3 (device to host): host[%d] expected %u, got %u", i, v2[i], host_dst[i]);
    CU(cu.cuMemcpyDtoH(got, dst, sizeof got));
    assert_int_equal(got[0], 0); /* e3 does not write dst */
    launch_sync(e4);
    CU(cu.cuMemcpyDtoH(got, dst, sizeof got));
    for (int i = 0; i < W; i++)
        if (got[i] != 7000u + (unsigned)i)
            fail_msg("e4 (host to device): dst[%d] expected %u, got %u", i, 7000u + (unsigned)i,
                     got[i]);

    OK(cgn_exec_destroy(e1));
    DESTROY_EXEC_GRAPH(e4, g);
    EXPECT_HELD(ts2, "owner of src2 (e2 and e3 copy from it)");
    OK(cgn_exec_destroy(e2));
    OK(cgn_exec_destroy(e3));
    EXPECT_RELEASED(ts2, 1, "owner of src2");
    CU(cu.cuMemFreeHost(host_dst));
    CU(cu.cuMemFreeHost(host_src));
    dfree(src1);
    dfree(src2);
    dfree(dst);
}

/* Host callbacks: they run on a CUDA thread, so they only touch atomics. */
typedef struct cb_counter {
    atomic_int calls;
} cb_counter;
static atomic_int cb_null_calls;
static atomic_int cb_payload_value;

static void CUDA_CB cb_count(void *p) {
    if (p == NULL)
        atomic_fetch_add(&cb_null_calls, 1);
    else
        atomic_fetch_add(&((cb_counter *)p)->calls, 1);
}

static void CUDA_CB cb_count10(void *p) {
    if (p == NULL)
        atomic_fetch_add(&cb_null_calls, 1);
    else
        atomic_fetch_add(&((cb_counter *)p)->calls, 10);
}

static void CUDA_CB cb_payload(void *p) {
    int v = -1;
    if (p != NULL)
        memcpy(&v, p, sizeof v);
    atomic_store(&cb_payload_value, v);
}

/* host_callback.h: "user_data requires fn (fn without user_data resets user_data to NULL)";
 * guide.md: "a new function given without an argument runs with NULL, never with the old
 * one's"; payload: "Bytes cgn copies and passes to fn by pointer". */
static void test_host_callback_def_fn_user_data(void **state) {
    (void)state;
    cb_counter ca, cbb;
    atomic_init(&ca.calls, 0);
    atomic_init(&cbb.calls, 0);
    atomic_store(&cb_null_calls, 0);
    atomic_store(&cb_payload_value, 0);
    tracked *tb = tracked_new();
    cgn_owner *ob = tracked_owner(tb);
    cgn_graph *g;
    cgn_node *n;
    cgn_exec *e1, *e2, *e3, *e4;
    OK(cgn_graph_create(&g));
    cgn_host_callback_desc d = CGN_HOST_CALLBACK_DESC_INIT;
    d.fn = cb_count;
    d.user_data = &ca;
    OK(cgn_graph_add_host_callback(g, NULL, 0, &d, &n));
    OK(cgn_graph_instantiate(g, &e1));

    cgn_host_callback_update u = CGN_HOST_CALLBACK_UPDATE_INIT;
    cgn_host_callback_update_set_fn(&u, cb_count10, &cbb, ob, NULL, 0);
    OK(cgn_host_callback_node_update(n, &u));
    OK(cgn_owner_release(ob));
    OK(cgn_graph_instantiate(g, &e2));

    cgn_host_callback_update z = CGN_HOST_CALLBACK_UPDATE_INIT;
    cgn_host_callback_update_set_fn(&z, cb_count, NULL, NULL, NULL, 0);
    OK(cgn_host_callback_node_update(n, &z));
    OK(cgn_graph_instantiate(g, &e3));

    int payload = 4242;
    cgn_host_callback_update p = CGN_HOST_CALLBACK_UPDATE_INIT;
    cgn_host_callback_update_set_fn(&p, cb_payload, NULL, NULL, &payload, sizeof payload);
    OK(cgn_host_callback_node_update(n, &p));
    payload = -7; /* cgn keeps its own copy */
    OK(cgn_graph_instantiate(g, &e4));

    launch_sync(e1);
    assert_int_equal(atomic_load(&ca.calls), 1);
    assert_int_equal(atomic_load(&cbb.calls), 0);
    launch_sync(e2);
    assert_int_equal(atomic_load(&ca.calls), 1);
    assert_int_equal(atomic_load(&cbb.calls), 10);
    launch_sync(e3);
    if (atomic_load(&cb_null_calls) != 1)
        fail_msg("e3: the new function without user data should run with NULL once; NULL calls "
                 "%d, A %d, B %d",
                 atomic_load(&cb_null_calls), atomic_load(&ca.calls), atomic_load(&cbb.calls));
    launch_sync(e4);
    assert_int_equal(atomic_load(&cb_payload_value), 4242);

    cgn_host_callback_desc now;
    OK(cgn_host_callback_node_get(n, &now));
    assert_true(now.fn == cb_payload);
    assert_null(now.user_data);
    assert_int_equal(now.payload_size, sizeof payload);
    assert_non_null(now.payload);

    OK(cgn_graph_destroy(g)); /* executables outlive their graph */
    OK(cgn_exec_destroy(e1));
    OK(cgn_exec_destroy(e3));
    OK(cgn_exec_destroy(e4));
    EXPECT_HELD(tb, "user data owner (e2 passes it)");
    launch_sync(e2);
    assert_int_equal(atomic_load(&cbb.calls), 20);
    OK(cgn_exec_destroy(e2));
    EXPECT_RELEASED(tb, 1, "user data owner");
}

/* event_record.h: "Record an event when the node runs"; an update changes the event later
 * instantiations record. Checked through cuEventQuery with the record held behind the gate:
 * the event being recorded is pending, the other one is not touched. */
static void test_event_record_def_new_event(void **state) {
    (void)state;
    CUevent ev1, ev2;
    CU(cu.cuEventCreate(&ev1, CU_EVENT_DISABLE_TIMING));
    CU(cu.cuEventCreate(&ev2, CU_EVENT_DISABLE_TIMING));
    tracked *t2 = tracked_new();
    cgn_owner *o2 = tracked_owner(t2);
    cgn_graph *g;
    cgn_node *gate, *rec;
    cgn_exec *e1, *e2;
    OK(cgn_graph_create(&g));
    gate = add_gate(g);
    cgn_event_record_desc d = CGN_EVENT_RECORD_DESC_INIT;
    d.event = ev1;
    OK(cgn_graph_add_event_record(g, &gate, 1, &d, &rec));
    OK(cgn_graph_instantiate(g, &e1));
    cgn_event_record_update u = CGN_EVENT_RECORD_UPDATE_INIT;
    cgn_event_record_update_set_event(&u, ev2, o2);
    OK(cgn_event_record_node_update(rec, &u));
    OK(cgn_owner_release(o2));
    OK(cgn_graph_instantiate(g, &e2));

    gate_close();
    OK(cgn_exec_launch(e2, stream));
    CUresult q1 = cu.cuEventQuery(ev1), q2 = cu.cuEventQuery(ev2);
    gate_open();
    CU(cu.cuStreamSynchronize(stream));
    expect_gate_not_timed_out("e2");
    if (q2 != CUDA_ERROR_NOT_READY || q1 != CUDA_SUCCESS)
        fail_msg("e2 held at the gate: expected ev2 pending (%d) and ev1 untouched (%d); got "
                 "ev2 %d, ev1 %d",
                 (int)CUDA_ERROR_NOT_READY, (int)CUDA_SUCCESS, (int)q2, (int)q1);
    CU(cu.cuEventQuery(ev2));

    gate_close();
    OK(cgn_exec_launch(e1, stream));
    q1 = cu.cuEventQuery(ev1);
    q2 = cu.cuEventQuery(ev2);
    gate_open();
    CU(cu.cuStreamSynchronize(stream));
    expect_gate_not_timed_out("e1");
    if (q1 != CUDA_ERROR_NOT_READY || q2 != CUDA_SUCCESS)
        fail_msg("e1 held at the gate: expected ev1 pending and ev2 untouched; got ev1 %d, ev2 "
                 "%d",
                 (int)q1, (int)q2);

    cgn_event_record_desc now;
    OK(cgn_event_record_node_get(rec, &now));
    assert_ptr_equal(now.event, ev2);
    assert_ptr_equal(now.event_owner, o2);
    OK(cgn_event_record_exec_get(e1, rec, &now));
    assert_ptr_equal(now.event, ev1);

    OK(cgn_exec_destroy(e1));
    DESTROY_EXEC_GRAPH(e2, g);
    EXPECT_RELEASED(t2, 1, "event owner");
    CU(cu.cuEventDestroy(ev1));
    CU(cu.cuEventDestroy(ev2));
}

/* event_wait.h: "Wait for the most recent record of an event before the nodes after it run";
 * an update changes the event later instantiations wait for. */
static void test_event_wait_def_new_event(void **state) {
    (void)state;
    CUevent ev1, ev2;
    CU(cu.cuEventCreate(&ev1, CU_EVENT_DISABLE_TIMING)); /* never recorded: complete */
    CU(cu.cuEventCreate(&ev2, CU_EVENT_DISABLE_TIMING));
    CUdeviceptr out = dalloc(sizeof(unsigned));
    cgn_graph *g;
    cgn_node *wait, *fill;
    cgn_exec *e1, *e2;
    OK(cgn_graph_create(&g));
    cgn_event_wait_desc d = CGN_EVENT_WAIT_DESC_INIT;
    d.event = ev1;
    OK(cgn_graph_add_event_wait(g, NULL, 0, &d, &wait));
    unsigned five = 5;
    cgn_arg args[2] = {CGN_ARG(out), CGN_ARG(five)};
    cgn_kernel_desc k = kdesc(CGN_KERNEL(k_fill), args, 2);
    OK(cgn_graph_add_kernel(g, &wait, 1, &k, &fill));
    OK(cgn_graph_instantiate(g, &e1));
    cgn_event_wait_update u = CGN_EVENT_WAIT_UPDATE_INIT;
    cgn_event_wait_update_set_event(&u, ev2, NULL);
    OK(cgn_event_wait_node_update(wait, &u));
    unsigned six = 6; /* e2 writes 6, e1 5 */
    cgn_kernel_update ku = CGN_KERNEL_UPDATE_INIT;
    cgn_kernel_update_set_arg(&ku, 1, &six, sizeof six, NULL);
    OK(cgn_kernel_node_update(fill, &ku));
    OK(cgn_graph_instantiate(g, &e2));

    /* stream2: the gate, then ev2. No synchronous memory call from here until the gate opens:
     * the legacy stream would wait for stream2. */
    gate_close();
    void *gate_args[1] = {&flag_dev};
    CU(cu.cuLaunchKernel(f_wait, 1, 1, 1, 1, 1, 1, 0, stream2, gate_args, NULL));
    CU(cu.cuEventRecord(ev2, stream2));
    /* e1 waits for ev1 (complete): it runs now, while stream2 is held */
    OK(cgn_exec_launch(e1, stream));
    CU(cu.cuStreamSynchronize(stream));
    CUresult held = cu.cuStreamQuery(stream2);
    /* e2 waits for ev2: it must not finish before the gate opens */
    OK(cgn_exec_launch(e2, stream));
    CUresult q = cu.cuStreamQuery(stream);
    gate_open();
    CU(cu.cuStreamSynchronize(stream2));
    CU(cu.cuStreamSynchronize(stream));
    /* Under compute-sanitizer kernels run one at a time: e1 could run only once the gate gave up
     * (~10 s), so what waited for what cannot be seen. (A stream memory operation on stream2
     * instead of the gate kernel hangs there for good.) */
    const int serialized = flag_host[2] != 0;
    if (!serialized && held != CUDA_ERROR_NOT_READY)
        fail_msg("the gate on stream2 should still hold after e1 ran; cuStreamQuery gave %d",
                 (int)held);
    if (!serialized && q != CUDA_ERROR_NOT_READY)
        fail_msg("e2 should wait for ev2 (held behind the gate); cuStreamQuery gave %d", (int)q);
    EXPECT_U32(out, 6, "e2 ran (after e1) once ev2 was recorded");

    cgn_event_wait_desc now;
    OK(cgn_event_wait_node_get(wait, &now));
    assert_ptr_equal(now.event, ev2);
    OK(cgn_event_wait_exec_get(e1, wait, &now));
    assert_ptr_equal(now.event, ev1);

    OK(cgn_exec_destroy(e1));
    DESTROY_EXEC_GRAPH(e2, g);
    cgn_collect();
    CU(cu.cuEventDestroy(ev1));
    CU(cu.cuEventDestroy(ev2));
    dfree(out);
    if (serialized)
        skip(); /* the waits were not observed: not counted as passed */
}

/* child_graph.h: "The graph to embed a copy of ... The copy keeps the owners of its nodes
 * alive; the source may be changed or destroyed afterwards." cgn.h: cgn_child_graph_node_find:
 * "source_node may have been destroyed since (with its graph): it is compared by value". */
static void test_child_graph_def_replace(void **state) {
    (void)state;
    CUdeviceptr out = dalloc(sizeof(unsigned));
    tracked *to = tracked_new();
    cgn_owner *oo = tracked_owner(to);
    cgn_graph *s1, *s2, *p;
    cgn_node *s1_fill, *s2_fill, *s2_add, *child;
    cgn_exec *e1, *e2, *e3;
    unsigned one = 1, two = 2;
    cgn_arg a1[2] = {CGN_ARG(out), CGN_ARG(one)};
    cgn_arg a2[2] = {CGN_ARG_OWNED(out, oo), CGN_ARG(two)};
    cgn_arg a3[1] = {CGN_ARG(out)};
    cgn_kernel_desc d1 = kdesc(CGN_KERNEL(k_fill), a1, 2), d2 = kdesc(CGN_KERNEL(k_fill), a2, 2),
                    d3 = kdesc(CGN_KERNEL(k_add), a3, 1);
    OK(cgn_graph_create(&s1));
    OK(cgn_graph_add_kernel(s1, NULL, 0, &d1, &s1_fill));
    OK(cgn_graph_create(&s2));
    OK(cgn_graph_add_kernel(s2, NULL, 0, &d2, &s2_fill));
    OK(cgn_graph_add_kernel(s2, &s2_fill, 1, &d3, &s2_add));
    OK(cgn_owner_release(oo)); /* s2 holds it */

    OK(cgn_graph_create(&p));
    cgn_child_graph_desc c = CGN_CHILD_GRAPH_DESC_INIT;
    c.graph = s1;
    OK(cgn_graph_add_child_graph(p, NULL, 0, &c, &child));
    OK(cgn_graph_instantiate(p, &e1));

    cgn_child_graph_update u = CGN_CHILD_GRAPH_UPDATE_INIT;
    cgn_child_graph_update_set_graph(&u, s2);
    OK(cgn_child_graph_node_update(child, &u));
    /* same hierarchy: refused */
    cgn_child_graph_update self = CGN_CHILD_GRAPH_UPDATE_INIT;
    cgn_child_graph_update_set_graph(&self, p);
    FAILS(cgn_child_graph_node_update(child, &self), CGN_ERROR_SAME_HIERARCHY);
    OK(cgn_graph_destroy(s1));
    OK(cgn_graph_destroy(s2)); /* the embedding keeps the owner */
    EXPECT_HELD(to, "owner inside the embedded copy");
    OK(cgn_graph_instantiate(p, &e2));

    /* update inside the embedding, found from the destroyed source node */
    cgn_node *inner = NULL;
    OK(cgn_child_graph_node_find(child, s2_fill, &inner));
    unsigned ten = 10;
    cgn_kernel_update k = CGN_KERNEL_UPDATE_INIT;
    cgn_kernel_update_set_arg(&k, 1, &ten, sizeof ten, NULL);
    OK(cgn_kernel_node_update(inner, &k));
    OK(cgn_graph_instantiate(p, &e3));
    cgn_graph *emb = NULL;
    OK(cgn_child_graph_node_embedded(child, &emb));
    cgn_graph *inner_graph = NULL;
    OK(cgn_node_graph(inner, &inner_graph));
    assert_ptr_equal(inner_graph, emb);

    RUN_EXPECT_U32(e1, out, 1, "e1 runs the first child (fill 1)");
    RUN_EXPECT_U32(e2, out, 3, "e2 runs the second child (fill 2, add 1)");
    RUN_EXPECT_U32(e3, out, 11, "e3 runs the updated embedding (fill 10, add 1)");
    RUN_EXPECT_U32(e2, out, 3, "e2 keeps its copy");

    OK(cgn_exec_destroy(e1));
    OK(cgn_exec_destroy(e2));
    DESTROY_EXEC_GRAPH(e3, p);
    EXPECT_RELEASED(to, 1, "owner inside the embedded copy");
    dfree(out);
}

/* ===== executable-level updates =========================================================== */

/* kernel.h: "The definition and other executables are not touched." "unset fields keep what
 * *that executable* has (its own copy, taken at instantiation; the definition is never read)". */
static void test_exec_update_isolated(void **state) {
    (void)state;
    CUdeviceptr out = dalloc(sizeof(unsigned)), other = dalloc(sizeof(unsigned));
    tracked *to = tracked_new();
    cgn_owner *oo = tracked_owner(to);
    cgn_graph *g;
    cgn_node *n;
    cgn_exec *e1, *e2, *e3;
    OK(cgn_graph_create(&g));
    unsigned seven = 7;
    cgn_arg args[2] = {CGN_ARG(out), CGN_ARG(seven)};
    cgn_kernel_desc d = kdesc(CGN_KERNEL(k_fill), args, 2);
    OK(cgn_graph_add_kernel(g, NULL, 0, &d, &n));
    OK(cgn_graph_instantiate(g, &e1));
    OK(cgn_graph_instantiate(g, &e2));

    unsigned eleven = 11;
    cgn_kernel_update u = CGN_KERNEL_UPDATE_INIT;
    cgn_kernel_update_set_arg(&u, 1, &eleven, sizeof eleven, NULL);
    OK(cgn_kernel_exec_update(e1, n, &u));
    /* a definition update after: e1's unset fields must not follow it */
    unsigned eight = 8;
    cgn_kernel_update dd = CGN_KERNEL_UPDATE_INIT;
    cgn_kernel_update_set_arg(&dd, 1, &eight, sizeof eight, NULL);
    OK(cgn_kernel_node_update(n, &dd));
    /* e2: a new pointer with an owner, value kept */
    cgn_kernel_update p = CGN_KERNEL_UPDATE_INIT;
    cgn_kernel_update_set_arg(&p, 0, &other, sizeof other, oo);
    OK(cgn_kernel_exec_update(e2, n, &p));
    OK(cgn_owner_release(oo)); /* e2 holds it */
    OK(cgn_graph_instantiate(g, &e3));

    RUN_EXPECT_U32(e1, out, 11, "e1 after its own update");
    RUN_EXPECT_U32(e2, other, 7, "e2 writes its new pointer with its own value 7");
    EXPECT_U32(out, 11, "e2 no longer writes out");
    RUN_EXPECT_U32(e3, out, 8, "e3 runs the definition (8)");

    cgn_kernel_desc x;
    OK(cgn_kernel_exec_get(e1, n, &x));
    assert_true(arg_ptr(&x, 0) == out);
    assert_int_equal(arg_u32(&x, 1), 11);
    OK(cgn_kernel_exec_get(e2, n, &x));
    assert_true(arg_ptr(&x, 0) == other);
    assert_int_equal(arg_u32(&x, 1), 7);
    assert_ptr_equal(x.args[0].owner, oo);
    OK(cgn_kernel_node_get(n, &x));
    assert_true(arg_ptr(&x, 0) == out);
    assert_int_equal(arg_u32(&x, 1), 8);
    assert_null(x.args[0].owner);

    OK(cgn_exec_destroy(e1));
    DESTROY_EXEC_GRAPH(e3, g);
    EXPECT_HELD(to, "owner of e2's pointer");
    OK(cgn_exec_destroy(e2));
    EXPECT_RELEASED(to, 1, "owner of e2's pointer");
    dfree(out);
    dfree(other);
}

/* ownership.md: "Retired versions are released once no launch can read them ... a version
 * retired when the executable had been launched k times can go once launch k has completed."
 * 64 launches queued behind the gate, each with its own pointer and owner; every owner's release
 * must find the fence recorded after the launch that read it complete. */
static void test_exec_inflight_back_to_back(void **state) {
    (void)state;
    enum { L = 64 };
    CUdeviceptr slots = dalloc(L * sizeof(unsigned));
    tracked *t = tracked_array(L);
    CUevent fence[L];
    for (int i = 0; i < L; i++)
        CU(cu.cuEventCreate(&fence[i], CU_EVENT_DISABLE_TIMING));
    cgn_graph *g;
    cgn_node *gate, *fill;
    cgn_exec *e;
    OK(cgn_graph_create(&g));
    gate = add_gate(g);
    unsigned zero = 0;
    cgn_arg args[2] = {CGN_ARG(slots), CGN_ARG(zero)};
    cgn_kernel_desc d = kdesc(CGN_KERNEL(k_fill), args, 2);
    OK(cgn_graph_add_kernel(g, &gate, 1, &d, &fill));
    OK(cgn_graph_instantiate(g, &e));

    gate_close();
    cgn_kernel_update u = CGN_KERNEL_UPDATE_INIT;
    for (int i = 0; i < L; i++) {
        cgn_owner *o = tracked_owner(&t[i]);
        t[i].fence = fence[i];
        CUdeviceptr slot = slots + (CUdeviceptr)i * sizeof(unsigned);
        unsigned value = 1000u + (unsigned)i;
        cgn_kernel_update_reset(&u);
        cgn_kernel_update_set_arg(&u, 0, &slot, sizeof slot, o);
        cgn_kernel_update_set_arg(&u, 1, &value, sizeof value, NULL);
        OK(cgn_kernel_exec_update(e, fill, &u));
        OK(cgn_owner_release(o)); /* e holds it */
        OK(cgn_exec_launch(e, stream));
        CU(cu.cuEventRecord(fence[i], stream));
    }
    /* nothing can have completed: the first launch waits for the gate */
    for (int r = 0; r < 3; r++)
        cgn_collect();
    int early = 0;
    for (int i = 0; i < L; i++)
        early += atomic_load(&t[i].releases);
    CUresult still = cu.cuStreamQuery(stream);
    gate_open();
    CU(cu.cuStreamSynchronize(stream));
    expect_gate_not_timed_out("back-to-back launches");
    if (still != CUDA_ERROR_NOT_READY)
        fail_msg("the launches should still be held by the gate (cuStreamQuery %d)", (int)still);
    if (early != 0)
        fail_msg("%d owner(s) released while every launch was still in flight", early);

    for (int i = 0; i < L - 1; i++) {
        char what[64];
        snprintf(what, sizeof what, "owner of launch %d", i);
        EXPECT_RELEASED(&t[i], 1, what);
        if (t[i].fence_at_release != CUDA_SUCCESS)
            fail_msg("owner %d released before the launch that read it completed (fence %d)", i,
                     (int)t[i].fence_at_release);
    }
    EXPECT_HELD(&t[L - 1], "owner of the executable's current version");
    unsigned got[L];
    CU(cu.cuMemcpyDtoH(got, slots, sizeof got));
    for (int i = 0; i < L; i++)
        if (got[i] != 1000u + (unsigned)i)
            fail_msg("launch %d: slot expected %u, got %u", i, 1000u + (unsigned)i, got[i]);

    DESTROY_EXEC_GRAPH(e, g);
    EXPECT_RELEASED(&t[L - 1], 1, "owner of the last version");
    for (int i = 0; i < L; i++) {
        assert_int_equal(atomic_load(&t[i].releases), 1);
        CU(cu.cuEventDestroy(fence[i]));
    }
    dfree(slots);
}

/* cgn.h cgn_exec_destroy: "Safe while a launch is in flight: CUDA frees the executable when it
 * completes, and what the executable held is released after that"; ownership.md: "never blocks
 * for cgn's own launches". */
static void test_exec_destroy_inflight(void **state) {
    (void)state;
    CUdeviceptr a = dalloc(sizeof(unsigned)), b = dalloc(sizeof(unsigned));
    tracked *tb = tracked_new();
    cgn_graph *g;
    cgn_node *gate, *fill;
    cgn_exec *e;
    OK(cgn_graph_create(&g));
    gate = add_gate(g);
    unsigned v = 3;
    cgn_arg args[2] = {CGN_ARG(a), CGN_ARG(v)};
    cgn_kernel_desc d = kdesc(CGN_KERNEL(k_fill), args, 2);
    OK(cgn_graph_add_kernel(g, &gate, 1, &d, &fill));
    OK(cgn_graph_instantiate(g, &e));
    cgn_owner *ob = tracked_owner(tb);
    tb->stream_q = stream;
    cgn_kernel_update u = CGN_KERNEL_UPDATE_INIT;
    cgn_kernel_update_set_arg(&u, 0, &b, sizeof b, ob);
    OK(cgn_kernel_exec_update(e, fill, &u));
    OK(cgn_owner_release(ob));

    gate_close();
    OK(cgn_exec_launch(e, stream));
    OK(cgn_exec_destroy(e)); /* must return while the launch waits */
    OK(cgn_graph_destroy(g));
    for (int r = 0; r < 3; r++)
        cgn_collect();
    int early = atomic_load(&tb->releases);
    int timed_out = flag_host[2];
    CUresult q = cu.cuStreamQuery(stream);
    gate_open();
    CU(cu.cuStreamSynchronize(stream));
    if (timed_out)
        fail_msg("%s", "cgn_exec_destroy or cgn_collect blocked on the in-flight launch");
    if (q != CUDA_ERROR_NOT_READY)
        fail_msg("the launch should still be in flight after destroy (cuStreamQuery %d)", (int)q);
    if (early != 0)
        fail_msg("%s", "owner released while the destroyed executable's launch was in flight");
    EXPECT_RELEASED(tb, 1, "owner of the destroyed executable's version");
    if (tb->stream_at_release != CUDA_SUCCESS)
        fail_msg("owner released while its launch was in flight (cuStreamQuery %d at release)",
                 (int)tb->stream_at_release);
    EXPECT_U32(b, 3, "the in-flight launch wrote B");
    EXPECT_U32(a, 0, "nothing wrote A");
    dfree(a);
    dfree(b);
}

/* A host callback updated in one executable while that executable's launch is in flight: the
 * launch runs the old callback with its user data, whose owner goes after that launch. */
static void test_exec_host_callback_inflight(void **state) {
    (void)state;
    cb_counter ca, cbb, cc;
    atomic_init(&ca.calls, 0);
    atomic_init(&cbb.calls, 0);
    atomic_init(&cc.calls, 0);
    CUevent fence;
    CU(cu.cuEventCreate(&fence, CU_EVENT_DISABLE_TIMING));
    tracked *tb = tracked_new();
    tracked *tc = tracked_new();
    cgn_graph *g;
    cgn_node *gate, *host;
    cgn_exec *e;
    OK(cgn_graph_create(&g));
    gate = add_gate(g);
    cgn_host_callback_desc d = CGN_HOST_CALLBACK_DESC_INIT;
    d.fn = cb_count;
    d.user_data = &ca;
    OK(cgn_graph_add_host_callback(g, &gate, 1, &d, &host));
    OK(cgn_graph_instantiate(g, &e));

    cgn_owner *ob = tracked_owner(tb), *oc = tracked_owner(tc);
    tb->fence = fence;
    cgn_host_callback_update u = CGN_HOST_CALLBACK_UPDATE_INIT;
    cgn_host_callback_update_set_fn(&u, cb_count, &cbb, ob, NULL, 0);
    OK(cgn_host_callback_exec_update(e, host, &u));
    OK(cgn_owner_release(ob));
    gate_close();
    OK(cgn_exec_launch(e, stream));
    CU(cu.cuEventRecord(fence, stream));
    cgn_host_callback_update v = CGN_HOST_CALLBACK_UPDATE_INIT;
    cgn_host_callback_update_set_fn(&v, cb_count10, &cc, oc, NULL, 0);
    OK(cgn_host_callback_exec_update(e, host, &v)); /* while the launch waits */
    OK(cgn_owner_release(oc));
    OK(cgn_exec_launch(e, stream));
    for (int r = 0; r < 3; r++)
        cgn_collect();
    int early = atomic_load(&tb->releases);
    gate_open();
    CU(cu.cuStreamSynchronize(stream));
    expect_gate_not_timed_out("host callback launches");
    if (early != 0)
        fail_msg("%s", "user data owner released while the launch passing it was in flight");
    assert_int_equal(atomic_load(&ca.calls), 0);
    assert_int_equal(atomic_load(&cbb.calls), 1);
    assert_int_equal(atomic_load(&cc.calls), 10);
    EXPECT_RELEASED(tb, 1, "first user data owner");
    if (tb->fence_at_release != CUDA_SUCCESS)
        fail_msg("%s", "first user data owner released before its launch completed");
    EXPECT_HELD(tc, "current user data owner");
    cgn_host_callback_desc x;
    OK(cgn_host_callback_node_get(host, &x));
    assert_ptr_equal(x.user_data, &ca); /* the definition is untouched */
    DESTROY_EXEC_GRAPH(e, g);
    EXPECT_RELEASED(tc, 1, "current user data owner");
    CU(cu.cuEventDestroy(fence));
}

/* cgn.h: "Enables or disables a node in one executable (a disabled node does nothing when
 * launched; its parameters are kept). Kernel, memset and memcpy nodes only
 * (CGN_ERROR_NOT_SUPPORTED otherwise)." */
static void test_exec_enable_disable(void **state) {
    (void)state;
    CUdeviceptr a = dalloc(16), counter = dalloc(sizeof(unsigned));
    cb_counter calls;
    atomic_init(&calls.calls, 0);
    cgn_graph *g;
    cgn_node *ms, *add, *host;
    cgn_exec *e1, *e2;
    OK(cgn_graph_create(&g));
    cgn_memset_desc m = CGN_MEMSET_DESC_INIT;
    m.dst = a;
    m.value = 0x5A;
    m.width = 16;
    OK(cgn_graph_add_memset(g, NULL, 0, &m, &ms));
    cgn_arg args[1] = {CGN_ARG(counter)};
    cgn_kernel_desc k = kdesc(CGN_KERNEL(k_add), args, 1);
    OK(cgn_graph_add_kernel(g, &ms, 1, &k, &add));
    cgn_host_callback_desc h = CGN_HOST_CALLBACK_DESC_INIT;
    h.fn = cb_count;
    h.user_data = &calls;
    OK(cgn_graph_add_host_callback(g, &add, 1, &h, &host));
    OK(cgn_graph_instantiate(g, &e1));
    OK(cgn_graph_instantiate(g, &e2));

    OK(cgn_exec_node_set_enabled(e1, add, 0));
    OK(cgn_exec_node_set_enabled(e1, ms, 0));
    int en = -1;
    OK(cgn_exec_node_get_enabled(e1, add, &en));
    assert_int_equal(en, 0);
    OK(cgn_exec_node_get_enabled(e2, add, &en));
    assert_int_equal(en, 1);
    FAILS(cgn_exec_node_set_enabled(e1, host, 0), CGN_ERROR_NOT_SUPPORTED);
    FAILS(cgn_exec_node_get_enabled(e1, host, &en), CGN_ERROR_NOT_SUPPORTED);

    RUN_EXPECT_U32(e1, counter, 0, "e1 with add_one disabled");
    EXPECT_U32(a, 0, "e1 with the memset disabled");
    assert_int_equal(atomic_load(&calls.calls), 1); /* the host node still runs */
    RUN_EXPECT_U32(e2, counter, 1, "e2 (enabled)");
    EXPECT_U32(a, 0x5A5A5A5Au, "e2 memset");
    OK(cgn_exec_node_set_enabled(e1, add, 1));
    RUN_EXPECT_U32(e1, counter, 2, "e1 with add_one enabled again");
    cgn_kernel_desc x; /* parameters kept */
    OK(cgn_kernel_exec_get(e1, add, &x));
    assert_true(arg_ptr(&x, 0) == counter);

    OK(cgn_exec_destroy(e1));
    DESTROY_EXEC_GRAPH(e2, g);
    cgn_collect();
    dfree(a);
    dfree(counter);
}

/* cgn.h cgn_exec_update_from_graph: "Makes the executable run the graph's current parameters
 * ... with the graph's current owners held by the executable"; "Refused before the driver is
 * asked when cgn can see why (nodes added or destroyed since the instantiation ...); the
 * executable is then unchanged"; "`graph` must be the graph the executable was instantiated
 * from". */
static void test_exec_update_from_graph(void **state) {
    (void)state;
    CUdeviceptr a = dalloc(sizeof(unsigned)), b = dalloc(sizeof(unsigned));
    tracked *tb = tracked_new();
    cgn_graph *g, *other;
    cgn_node *n, *extra;
    cgn_exec *e;
    OK(cgn_graph_create(&g));
    OK(cgn_graph_create(&other));
    unsigned one = 1;
    cgn_arg args[2] = {CGN_ARG(a), CGN_ARG(one)};
    cgn_kernel_desc d = kdesc(CGN_KERNEL(k_fill), args, 2);
    OK(cgn_graph_add_kernel(g, NULL, 0, &d, &n));
    OK(cgn_graph_instantiate(g, &e));
    cgn_owner *ob = tracked_owner(tb);
    tb->stream_q = stream;
    cgn_kernel_update u = CGN_KERNEL_UPDATE_INIT;
    cgn_kernel_update_set_arg(&u, 0, &b, sizeof b, ob);
    OK(cgn_kernel_exec_update(e, n, &u));
    OK(cgn_owner_release(ob));
    RUN_EXPECT_U32(e, b, 1, "e after its exec update writes B");

    unsigned five = 5;
    cgn_kernel_update v = CGN_KERNEL_UPDATE_INIT;
    cgn_kernel_update_set_arg(&v, 1, &five, sizeof five, NULL);
    OK(cgn_kernel_node_update(n, &v));
    FAILS(cgn_exec_update_from_graph(e, other), CGN_ERROR_INVALID_ARGUMENT);
    OK(cgn_exec_update_from_graph(e, g));
    EXPECT_RELEASED(tb, 1, "owner of the exec-level version replaced by the refresh");
    cgn_kernel_desc x;
    OK(cgn_kernel_exec_get(e, n, &x));
    assert_true(arg_ptr(&x, 0) == a);
    assert_int_equal(arg_u32(&x, 1), 5);
    RUN_EXPECT_U32(e, a, 5, "e after the refresh runs the definition");

    /* a node added since: refused, e unchanged */
    cgn_kernel_update w = CGN_KERNEL_UPDATE_INIT;
    unsigned nine = 9;
    cgn_kernel_update_set_arg(&w, 1, &nine, sizeof nine, NULL);
    OK(cgn_kernel_node_update(n, &w));
    OK(cgn_graph_add_empty(g, &n, 1, &extra));
    FAILS(cgn_exec_update_from_graph(e, g), CGN_ERROR_INVALID_VALUE);
    write_u32(a, 0);
    RUN_EXPECT_U32(e, a, 5, "e after the refused refresh");
    OK(cgn_kernel_exec_get(e, n, &x));
    assert_int_equal(arg_u32(&x, 1), 5);

    DESTROY_EXEC_GRAPH(e, g);
    OK(cgn_graph_destroy(other));
    cgn_collect();
    assert_int_equal(atomic_load(&tb->releases), 1);
    dfree(a);
    dfree(b);
}

/* memcpy.h exec rules: "dst: an executable's copy keeps the memory types (device or host) of its
 * operands" (refused before any mutation); memset.h: "height: a 1-D memset (height 1) stays
 * 1-D in an executable". */
static void test_exec_rules_refused_unchanged(void **state) {
    (void)state;
    const unsigned v[4] = {9, 8, 7, 6};
    CUdeviceptr src = dalloc(sizeof v), dst = dalloc(sizeof v), ms = dalloc(64);
    CU(cu.cuMemcpyHtoD(src, v, sizeof v));
    unsigned *host = NULL;
    CU(cu.cuMemAllocHost((void **)&host, sizeof v));
    memset(host, 0, sizeof v);
    cgn_graph *g;
    cgn_node *cp, *set;
    cgn_exec *e;
    OK(cgn_graph_create(&g));
    cgn_memcpy_desc c = CGN_MEMCPY_DESC_INIT;
    c.dst = dst;
    c.src = src;
    c.size = 2 * sizeof(unsigned);
    OK(cgn_graph_add_memcpy(g, NULL, 0, &c, &cp));
    cgn_memset_desc m = CGN_MEMSET_DESC_INIT;
    m.dst = ms;
    m.value = 0x33;
    m.width = 16;
    OK(cgn_graph_add_memset(g, NULL, 0, &m, &set));
    OK(cgn_graph_instantiate(g, &e));

    cgn_memcpy_update to_host = CGN_MEMCPY_UPDATE_INIT;
    cgn_memcpy_update_set_dst(&to_host, (CUdeviceptr)(uintptr_t)host, NULL);
    FAILS(cgn_memcpy_exec_update(e, cp, &to_host), CGN_ERROR_INVALID_VALUE);
    cgn_memset_update taller = CGN_MEMSET_UPDATE_INIT;
    cgn_memset_update_set_height(&taller, 2);
    cgn_memset_update_set_pitch(&taller, 32);
    FAILS(cgn_memset_exec_update(e, set, &taller), CGN_ERROR_INVALID_VALUE);
    cgn_memcpy_update longer = CGN_MEMCPY_UPDATE_INIT;
    cgn_memcpy_update_set_size(&longer, sizeof v);
    OK(cgn_memcpy_exec_update(e, cp, &longer));

    launch_sync(e);
    unsigned got[4];
    CU(cu.cuMemcpyDtoH(got, dst, sizeof got));
    for (int i = 0; i < 4; i++)
        if (got[i] != v[i])
            fail_msg("copy after the accepted size update: dst[%d] expected %u, got %u", i, v[i],
                     got[i]);
    for (int i = 0; i < 4; i++)
        if (host[i] != 0)
            fail_msg("the refused update wrote host[%d] = %u", i, host[i]);
    EXPECT_U32(ms, 0x33333333u, "memset");
    EXPECT_U32(ms + 16, 0, "memset wrote past its width (refused height update applied?)");
    cgn_memset_desc md;
    OK(cgn_memset_exec_get(e, set, &md));
    assert_int_equal(md.height, 1);
    assert_int_equal(md.width, 16);
    cgn_memcpy_desc cd;
    OK(cgn_memcpy_exec_get(e, cp, &cd));
    assert_true(cd.dst == dst);
    assert_int_equal(cd.size, sizeof v);
    OK(cgn_memcpy_node_get(cp, &cd));
    assert_int_equal(cd.size, 2 * sizeof(unsigned));

    DESTROY_EXEC_GRAPH(e, g);
    cgn_collect();
    CU(cu.cuMemFreeHost(host));
    dfree(src);
    dfree(dst);
    dfree(ms);
}

/* memset.h / memcpy.h exec update: "unset fields keep what *that executable* has"; "Owners of
 * the new version are held until no launch of the executable can read that version any more";
 * "The definition and other executables are not touched." */
static void test_exec_memset_memcpy_updates(void **state) {
    (void)state;
    enum { N = 16 };
    CUdeviceptr a = dalloc(N), b = dalloc(N), dst = dalloc(N), dst2 = dalloc(N);
    tracked *tb = tracked_new();
    tracked *td = tracked_new();
    cgn_graph *g;
    cgn_node *ms, *cp;
    cgn_exec *e, *plain;
    OK(cgn_graph_create(&g));
    cgn_memset_desc m = CGN_MEMSET_DESC_INIT;
    m.dst = a;
    m.value = 0x11;
    m.width = N;
    OK(cgn_graph_add_memset(g, NULL, 0, &m, &ms));
    cgn_memcpy_desc c = CGN_MEMCPY_DESC_INIT;
    c.dst = dst;
    c.src = a;
    c.size = N;
    OK(cgn_graph_add_memcpy(g, &ms, 1, &c, &cp));
    OK(cgn_graph_instantiate(g, &e));
    OK(cgn_graph_instantiate(g, &plain));

    cgn_owner *ob = tracked_owner(tb), *od = tracked_owner(td);
    cgn_memset_update mu = CGN_MEMSET_UPDATE_INIT;
    cgn_memset_update_set_dst(&mu, b, ob);
    cgn_memset_update_set_value(&mu, 0x44, 1);
    OK(cgn_memset_exec_update(e, ms, &mu));
    cgn_memcpy_update cu1 = CGN_MEMCPY_UPDATE_INIT;
    cgn_memcpy_update_set_src(&cu1, b, ob);
    cgn_memcpy_update_set_dst(&cu1, dst2, od);
    OK(cgn_memcpy_exec_update(e, cp, &cu1));
    OK(cgn_owner_release(ob));
    OK(cgn_owner_release(od));

    unsigned char got[N];
    launch_sync(e);
    CU(cu.cuMemcpyDtoH(got, dst2, N));
    for (int i = 0; i < N; i++)
        if (got[i] != 0x44)
            fail_msg("e (exec-level memset B 0x44, copy B -> dst2): dst2[%d] = 0x%02x", i, got[i]);
    CU(cu.cuMemcpyDtoH(got, a, N));
    for (int i = 0; i < N; i++)
        if (got[i] != 0)
            fail_msg("e wrote A[%d] = 0x%02x after its memset moved to B", i, got[i]);
    launch_sync(plain);
    CU(cu.cuMemcpyDtoH(got, dst, N));
    for (int i = 0; i < N; i++)
        if (got[i] != 0x11)
            fail_msg("plain executable (definition): dst[%d] = 0x%02x, expected 0x11", i, got[i]);
    cgn_memset_desc md;
    OK(cgn_memset_node_get(ms, &md));
    assert_true(md.dst == a);
    assert_int_equal(md.value, 0x11);
    assert_null(md.dst_owner);
    OK(cgn_memset_exec_get(e, ms, &md));
    assert_true(md.dst == b);
    assert_int_equal(md.value, 0x44);
    assert_int_equal(md.width, N); /* kept what e had */
    cgn_memcpy_desc cd;
    OK(cgn_memcpy_exec_get(e, cp, &cd));
    assert_true(cd.src == b);
    assert_true(cd.dst == dst2);
    assert_int_equal(cd.size, N);

    DESTROY_EXEC_GRAPH(plain, g);
    EXPECT_HELD(tb, "owner of B (e's memset and copy)");
    EXPECT_HELD(td, "owner of dst2 (e's copy)");
    OK(cgn_exec_destroy(e));
    EXPECT_RELEASED(tb, 1, "owner of B");
    EXPECT_RELEASED(td, 1, "owner of dst2");
    dfree(a);
    dfree(b);
    dfree(dst);
    dfree(dst2);
}

/* child_graph.h exec update: one executable's embedded copy replaced; errors.md: "an
 * executable-level child-graph update to a graph of another topology" is
 * CGN_ERROR_INVALID_VALUE, and "An executable-level child-graph update given a graph of the
 * executable's own hierarchy" CGN_ERROR_SAME_HIERARCHY; nothing changes then. */
static void test_exec_child_graph_update(void **state) {
    (void)state;
    CUdeviceptr out = dalloc(sizeof(unsigned)), out3 = dalloc(sizeof(unsigned));
    tracked *t3 = tracked_new();
    cgn_owner *o3 = tracked_owner(t3);
    cgn_graph *s1, *s3, *s4, *p;
    cgn_node *n1, *n3, *n4a, *n4b, *child;
    cgn_exec *e, *plain;
    unsigned one = 1, three = 3;
    cgn_arg a1[2] = {CGN_ARG(out), CGN_ARG(one)};
    cgn_arg a3[2] = {CGN_ARG_OWNED(out3, o3), CGN_ARG(three)};
    cgn_kernel_desc d1 = kdesc(CGN_KERNEL(k_fill), a1, 2), d3 = kdesc(CGN_KERNEL(k_fill), a3, 2);
    OK(cgn_graph_create(&s1));
    OK(cgn_graph_add_kernel(s1, NULL, 0, &d1, &n1));
    OK(cgn_graph_create(&s3));
    OK(cgn_graph_add_kernel(s3, NULL, 0, &d3, &n3));
    OK(cgn_owner_release(o3));
    OK(cgn_graph_create(&s4)); /* another topology: two nodes */
    OK(cgn_graph_add_kernel(s4, NULL, 0, &d1, &n4a));
    OK(cgn_graph_add_kernel(s4, &n4a, 1, &d1, &n4b));
    OK(cgn_graph_create(&p));
    cgn_child_graph_desc c = CGN_CHILD_GRAPH_DESC_INIT;
    c.graph = s1;
    OK(cgn_graph_add_child_graph(p, NULL, 0, &c, &child));
    OK(cgn_graph_instantiate(p, &e));
    OK(cgn_graph_instantiate(p, &plain));

    cgn_child_graph_update bad = CGN_CHILD_GRAPH_UPDATE_INIT;
    cgn_child_graph_update_set_graph(&bad, s4);
    FAILS(cgn_child_graph_exec_update(e, child, &bad), CGN_ERROR_INVALID_VALUE);
    cgn_child_graph_update self = CGN_CHILD_GRAPH_UPDATE_INIT;
    cgn_child_graph_update_set_graph(&self, p);
    FAILS(cgn_child_graph_exec_update(e, child, &self), CGN_ERROR_SAME_HIERARCHY);
    RUN_EXPECT_U32(e, out, 1, "e after refused child updates");

    cgn_child_graph_update u = CGN_CHILD_GRAPH_UPDATE_INIT;
    cgn_child_graph_update_set_graph(&u, s3);
    OK(cgn_child_graph_exec_update(e, child, &u));
    OK(cgn_graph_destroy(s3)); /* "the source may be changed or destroyed afterwards" */
    write_u32(out, 0);
    RUN_EXPECT_U32(e, out3, 3, "e runs the new child (fill out3, 3)");
    EXPECT_U32(out, 0, "e no longer runs the old child");
    RUN_EXPECT_U32(plain, out, 1, "the other executable keeps the old child");
    cgn_exec *fresh;
    OK(cgn_graph_instantiate(p, &fresh));
    write_u32(out, 0);
    RUN_EXPECT_U32(fresh, out, 1, "the definition keeps the old child");
    OK(cgn_exec_destroy(fresh));

    DESTROY_EXEC_GRAPH(plain, p);
    OK(cgn_graph_destroy(s1));
    OK(cgn_graph_destroy(s4));
    /* Ambiguity: the docs say the child copy "keeps the owners of its nodes alive" and that an
     * executable holds the owners of its versions; we read that as: the executable that runs
     * s3's copy keeps s3's owners until it goes. */
    EXPECT_HELD(t3, "owner inside the executable's new child");
    OK(cgn_exec_destroy(e));
    EXPECT_RELEASED(t3, 1, "owner inside the executable's new child");
    dfree(out);
    dfree(out3);
}

/* ===== graphs built elsewhere ================================================================ */

/* A captured decode-like step: memset, copy from pinned host, two kernels (fill_u32 through its
 * CUfunction, add_one through its CUkernel cast, as cuLaunchKernel allows). */
typedef struct captured {
    CUdeviceptr out, x;
    unsigned *host_x;
    CUgraph raw;
} captured;

static void capture_step(captured *c) {
    c->out = dalloc(4 * sizeof(unsigned));
    c->x = dalloc(2 * sizeof(unsigned));
    CU(cu.cuMemAllocHost((void **)&c->host_x, 2 * sizeof(unsigned)));
    c->host_x[0] = 31;
    c->host_x[1] = 32;
    CUstream cs;
    CU(cu.cuStreamCreate(&cs, CU_STREAM_NON_BLOCKING));
    CU(dx.cuStreamBeginCapture(cs, CU_STREAM_CAPTURE_MODE_RELAXED));
    CU(dx.cuMemsetD32Async(c->out, 0x11, 4, cs));
    CU(dx.cuMemcpyHtoDAsync(c->x, c->host_x, 2 * sizeof(unsigned), cs));
    unsigned v = 21;
    void *fill_args[2] = {&c->out, &v};
    CU(cu.cuLaunchKernel(f_fill, 1, 1, 1, 1, 1, 1, 0, cs, fill_args, NULL));
    CUdeviceptr second = c->out + sizeof(unsigned);
    void *add_args[1] = {&second};
    CU(cu.cuLaunchKernel((CUfunction)(void *)k_add, 1, 1, 1, 1, 1, 1, 0, cs, add_args, NULL));
    CU(dx.cuStreamEndCapture(cs, &c->raw));
    CU(cu.cuStreamDestroy(cs));
}

static void captured_free(captured *c) {
    CU(cu.cuMemFreeHost(c->host_x));
    dfree(c->out);
    dfree(c->x);
}

static cgn_node *find_one_kernel(cgn_graph *g, cgn_kernel k, const char *name) {
    cgn_node *n = NULL;
    size_t count = 1;
    OK(cgn_graph_find_kernel(g, k, &n, &count));
    if (count != 1)
        fail_msg("expected one node launching %s, found %zu", name, count);
    return n;
}

/* adopt.md: capture, adopt, find nodes by kernel, argument-level updates at both levels: "The
 * definition is not touched (other executables and future instantiations keep what they
 * have)". cgn.h find_kernel: "A CUkernel also matches nodes that launch the CUfunction
 * cuKernelGetFunction gives for it in the current context (or the CUkernel itself cast to a
 * CUfunction, as cuLaunchKernel allows)". */
static void test_capture_adopt_set_arg(void **state) {
    (void)state;
    captured c;
    capture_step(&c);
    cgn_graph *g;
    OK(cgn_graph_adopt(c.raw, CGN_ADOPT_TAKE_OWNERSHIP, &g));
    size_t count = 0;
    OK(cgn_graph_nodes(g, NULL, &count));
    assert_int_equal(count, 4);
    cgn_node *nodes[4];
    OK(cgn_graph_nodes(g, nodes, &count));
    const cgn_node_type want[4] = {CGN_NODE_MEMSET, CGN_NODE_MEMCPY, CGN_NODE_KERNEL,
                                   CGN_NODE_KERNEL};
    for (int i = 0; i < 4; i++) {
        cgn_node_type t;
        OK(cgn_node_type_of(nodes[i], &t));
        if (t != want[i])
            fail_msg("captured node %d: type %d, expected %d (capture order)", i, (int)t,
                     (int)want[i]);
        OK(cgn_node_check_updatable(nodes[i]));
    }
    cgn_node *fill = find_one_kernel(g, CGN_KERNEL(k_fill), "fill_u32 (by CUkernel)");
    assert_ptr_equal(fill, nodes[2]);
    cgn_node *fill2 = find_one_kernel(g, CGN_FUNCTION(f_fill), "fill_u32 (by CUfunction)");
    assert_ptr_equal(fill2, fill);
    cgn_node *add = find_one_kernel(g, CGN_KERNEL(k_add), "add_one (by CUkernel)");
    assert_ptr_equal(add, nodes[3]);
    cgn_kernel_desc kd;
    OK(cgn_kernel_node_get(fill, &kd));
    assert_int_equal(kd.num_args, 2);
    assert_true(arg_ptr(&kd, 0) == c.out);
    assert_int_equal(arg_u32(&kd, 1), 21);
    cgn_memset_desc md;
    OK(cgn_memset_node_get(nodes[0], &md));
    assert_int_equal(md.value, 0x11);
    assert_int_equal(md.element_size, 4);
    assert_int_equal(md.width, 4);

    cgn_exec *e1, *e2;
    OK(cgn_graph_instantiate(g, &e1));
    launch_sync(e1);
    unsigned got[4], xs[2];
    CU(cu.cuMemcpyDtoH(got, c.out, sizeof got));
    CU(cu.cuMemcpyDtoH(xs, c.x, sizeof xs));
    if (got[0] != 21 || got[1] != 0x12 || got[2] != 0x11 || got[3] != 0x11)
        fail_msg("captured step: expected {21, 0x12, 0x11, 0x11}, got {%u, 0x%x, 0x%x, 0x%x}",
                 got[0], got[1], got[2], got[3]);
    assert_int_equal(xs[0], 31);
    assert_int_equal(xs[1], 32);

    /* definition level: the value */
    unsigned v33 = 33;
    cgn_kernel_update u = CGN_KERNEL_UPDATE_INIT;
    cgn_kernel_update_set_arg(&u, 1, &v33, sizeof v33, NULL);
    OK(cgn_kernel_node_update(fill, &u));
    OK(cgn_graph_instantiate(g, &e2));
    /* executable level on e1: the pointer */
    CUdeviceptr third = c.out + 2 * sizeof(unsigned);
    cgn_kernel_update x = CGN_KERNEL_UPDATE_INIT;
    cgn_kernel_update_set_arg(&x, 0, &third, sizeof third, NULL);
    OK(cgn_kernel_exec_update(e1, fill, &x));

    launch_sync(e2);
    CU(cu.cuMemcpyDtoH(got, c.out, sizeof got));
    if (got[0] != 33 || got[2] != 0x11)
        fail_msg("e2 (definition set_arg 33): expected out[0]=33, out[2]=0x11; got %u, 0x%x",
                 got[0], got[2]);
    launch_sync(e1);
    CU(cu.cuMemcpyDtoH(got, c.out, sizeof got));
    if (got[0] != 0x11 || got[2] != 21)
        fail_msg("e1 (exec set_arg to out+2, value 21 kept): expected out[0]=0x11, out[2]=21; "
                 "got 0x%x, %u",
                 got[0], got[2]);
    OK(cgn_kernel_node_get(fill, &kd));
    assert_true(arg_ptr(&kd, 0) == c.out);
    assert_int_equal(arg_u32(&kd, 1), 33);

    OK(cgn_exec_destroy(e1));
    DESTROY_EXEC_GRAPH(e2, g);
    cgn_collect();
    captured_free(&c);
}

/* cgn.h cgn_exec_adopt: "An executable instantiated outside cgn from `graph` ... for
 * executable-level updates"; "with CGN_ADOPT_TAKE_OWNERSHIP cgn_exec_destroy destroys it";
 * "cgn_exec_destroy, which waits for the executable's context (cuCtxSynchronize) before
 * releasing it". */
static void test_exec_adopt_raw(void **state) {
    (void)state;
    captured c;
    capture_step(&c);
    cgn_graph *g;
    OK(cgn_graph_adopt(c.raw, 0, &g)); /* borrowed: we destroy c.raw */
    cgn_node *fill = find_one_kernel(g, CGN_KERNEL(k_fill), "fill_u32");
    CUgraph raw_g = NULL;
    OK(cgn_graph_raw(g, &raw_g));
    assert_ptr_equal(raw_g, c.raw);
    CUgraphExec raw_owned, raw_borrowed;
    CU(dx.cuGraphInstantiateWithFlags(&raw_owned, raw_g, 0));
    CU(dx.cuGraphInstantiateWithFlags(&raw_borrowed, raw_g, 0));
    cgn_exec *eo, *eb;
    OK(cgn_exec_adopt(raw_owned, g, CGN_ADOPT_TAKE_OWNERSHIP, &eo));
    OK(cgn_exec_adopt(raw_borrowed, g, 0, &eb));

    CUdeviceptr b = dalloc(sizeof(unsigned));
    tracked *tb = tracked_new();
    cgn_owner *ob = tracked_owner(tb);
    unsigned v8 = 8;
    cgn_kernel_update u = CGN_KERNEL_UPDATE_INIT;
    cgn_kernel_update_set_arg(&u, 0, &b, sizeof b, ob);
    cgn_kernel_update_set_arg(&u, 1, &v8, sizeof v8, NULL);
    OK(cgn_kernel_exec_update(eo, fill, &u));
    OK(cgn_owner_release(ob));
    unsigned v9 = 9;
    cgn_kernel_update w = CGN_KERNEL_UPDATE_INIT;
    cgn_kernel_update_set_arg(&w, 1, &v9, sizeof v9, NULL);
    OK(cgn_kernel_exec_update(eb, fill, &w));

    RUN_EXPECT_U32(eo, b, 8, "adopted executable after its update");
    EXPECT_U32(c.out, 0x11, "adopted executable no longer writes out[0]");
    RUN_EXPECT_U32(eb, c.out, 9, "borrowed adopted executable after its update");
    cgn_kernel_desc kd;
    OK(cgn_kernel_node_get(fill, &kd));
    assert_int_equal(arg_u32(&kd, 1), 21);
    CUgraphExec back = NULL;
    OK(cgn_exec_raw(eo, &back));
    assert_ptr_equal(back, raw_owned);

    /* cgn.h: cgn_exec_destroy "waits for the executable's context (cuCtxSynchronize) before
     * releasing it" (adopt.md instead says "call it only once the executable's launches have
     * completed": we test the stronger cgn.h promise) */
    tb->stream_q = stream;
    OK(cgn_exec_launch(eo, stream));
    EXPECT_HELD(tb, "owner of the adopted executable's version");
    OK(cgn_exec_destroy(eo));
    EXPECT_RELEASED(tb, 1, "owner of the adopted executable's version");
    if (tb->stream_at_release != CUDA_SUCCESS)
        fail_msg("adopted executable's owner released while its launch was in flight (%d)",
                 (int)tb->stream_at_release);
    OK(cgn_exec_destroy(eb));
    CU(dx.cuGraphExecDestroy(raw_borrowed));
    OK(cgn_graph_destroy(g));
    cgn_collect();
    CU(cu.cuStreamSynchronize(stream));
    CU(dx.cuGraphDestroy(c.raw)); /* the borrowed raw graph is ours to destroy */
    EXPECT_U32(b, 8, "b after the last launch");
    dfree(b);
    captured_free(&c);
}

/* adopt.md: "cgn_node_refresh re-reads the node with its typed getter into cgn's record of the
 * definition"; "fields an update does not set keep cgn's value" (the refreshed one); "Do not
 * write into the kernelParams (or extra) block cuGraphKernelNodeGetParams returns" (we pass
 * our own block). */
static void test_refresh_after_raw_change(void **state) {
    (void)state;
    captured c;
    capture_step(&c);
    cgn_graph *g;
    OK(cgn_graph_adopt(c.raw, CGN_ADOPT_TAKE_OWNERSHIP, &g));
    cgn_node *nodes[4];
    size_t count = 4;
    OK(cgn_graph_nodes(g, nodes, &count));
    assert_int_equal(count, 4);
    cgn_node *ms = nodes[0];
    CUgraphNode raw_ms = NULL;
    OK(cgn_node_raw(ms, &raw_ms));
    CUDA_MEMSET_NODE_PARAMS p;
    memset(&p, 0, sizeof p);
    CU(dx.cuGraphMemsetNodeGetParams(raw_ms, &p));
    assert_int_equal(p.value, 0x11);
    p.value = 0x22; /* behind cgn's back */
    CU(dx.cuGraphMemsetNodeSetParams(raw_ms, &p));
    OK(cgn_node_refresh(ms));
    cgn_memset_desc md;
    OK(cgn_memset_node_get(ms, &md));
    assert_int_equal(md.value, 0x22);
    cgn_memset_update u = CGN_MEMSET_UPDATE_INIT; /* value not set: keeps the refreshed 0x22 */
    cgn_memset_update_set_width(&u, 3);
    OK(cgn_memset_node_update(ms, &u));

    /* the kernel: its value argument changed with raw calls (our own argument block, never the
     * driver's), refreshed, then an argument-level update of the pointer keeps the new value */
    cgn_node *fill = nodes[2];
    CUgraphNode raw_fill = NULL;
    OK(cgn_node_raw(fill, &raw_fill));
    CUDA_KERNEL_NODE_PARAMS_v2 kp;
    memset(&kp, 0, sizeof kp);
    CU(dx.cuGraphKernelNodeGetParams(raw_fill, &kp));
    CUdeviceptr same = c.out;
    unsigned seventy_seven = 77;
    void *block[2] = {&same, &seventy_seven};
    kp.kernelParams = block;
    kp.extra = NULL;
    CU(dx.cuGraphKernelNodeSetParams(raw_fill, &kp));
    OK(cgn_node_refresh(fill));
    cgn_kernel_desc kd;
    OK(cgn_kernel_node_get(fill, &kd));
    assert_int_equal(kd.num_args, 2);
    assert_int_equal(arg_u32(&kd, 1), 77);
    CUdeviceptr fourth = c.out + 3 * sizeof(unsigned);
    cgn_kernel_update ku = CGN_KERNEL_UPDATE_INIT;
    cgn_kernel_update_set_arg(&ku, 0, &fourth, sizeof fourth, NULL);
    OK(cgn_kernel_node_update(fill, &ku));

    cgn_exec *e;
    OK(cgn_graph_instantiate(g, &e));
    CU(cu.cuMemsetD8(c.out, 0, 4 * sizeof(unsigned)));
    launch_sync(e);
    unsigned got[4];
    CU(cu.cuMemcpyDtoH(got, c.out, sizeof got));
    if (got[0] != 0x22 || got[1] != 0x23 || got[2] != 0x22 || got[3] != 77)
        fail_msg("after refreshes + partial updates: expected {0x22, 0x23, 0x22, 77} (memset "
                 "value 0x22 kept with width 3; fill value 77 kept with its new pointer), got "
                 "{0x%x, 0x%x, 0x%x, %u}",
                 got[0], got[1], got[2], got[3]);
    DESTROY_EXEC_GRAPH(e, g);
    cgn_collect();
    captured_free(&c);
}

/* ===== errors on the real driver ============================================================= */

/* kernel.h exec update: "kernel: an executable's kernel node cannot move to another context (a
 * CUfunction owned by another context ...)", CGN_ERROR_INVALID_VALUE naming the rule; guide.md:
 * updates "leave the caller's current context as it was". */
static void test_error_foreign_function_context_kept(void **state) {
    (void)state;
    CUdeviceptr out = dalloc(sizeof(unsigned));
    cgn_graph *g;
    cgn_node *n;
    cgn_exec *e;
    OK(cgn_graph_create(&g));
    cgn_arg args[1] = {CGN_ARG(out)};
    cgn_kernel_desc d = kdesc(CGN_FUNCTION(f_add), args, 1);
    OK(cgn_graph_add_kernel(g, NULL, 0, &d, &n));
    OK(cgn_graph_instantiate(g, &e));
    for (int w = 0; w < CTX_STATES; w++) {
        cgn_kernel_update u = CGN_KERNEL_UPDATE_INIT;
        cgn_kernel_update_set_kernel(&u, CGN_FUNCTION(f_add_other), NULL, args, 1);
        set_ctx(ctx_of(w));
        cgn_status st = cgn_kernel_exec_update(e, n, &u);
        CUcontext after = current_ctx();
        set_ctx(cu.context);
        if (after != ctx_of(w))
            fail_msg("%s: the failed update changed the current context to %p", ctx_names[w],
                     (void *)after);
        if (st != CGN_ERROR_INVALID_VALUE)
            fail_msg("%s: expected CGN_ERROR_INVALID_VALUE, got %s (%s)", ctx_names[w],
                     cgn_status_name(st), cgn_last_error());
        if (strstr(cgn_last_error(), "another context") == NULL)
            fail_msg("%s: message should name the rule: %s", ctx_names[w], cgn_last_error());
        cgn_kernel_desc x;
        OK(cgn_kernel_exec_get(e, n, &x));
        assert_ptr_equal(x.kernel.function, f_add);
        write_u32(out, 0);
        RUN_EXPECT_U32(e, out, 1, "the executable still runs its own add_one");
    }
    DESTROY_EXEC_GRAPH(e, g);
    cgn_collect();
    dfree(out);
}

/* errors.md: "A failed call changes nothing: the node, its owners and every executable are as
 * they were"; ownership.md: "Failed update: everything staged is released before the call
 * returns; refcounts are exactly as before"; guide.md: "The node records its context: updates
 * later run with it current whatever the calling thread has current, and leave the caller's
 * current context as it was." Refusals of both levels, under each context state. */
static void test_error_refusals_leave_everything(void **state) {
    (void)state;
    CUdeviceptr out = dalloc(sizeof(unsigned)), other = dalloc(sizeof(unsigned));
    tracked *ta = tracked_new();
    cgn_owner *oa = tracked_owner(ta);
    cgn_graph *g;
    cgn_node *n, *ms;
    cgn_exec *e;
    OK(cgn_graph_create(&g));
    unsigned seven = 7;
    cgn_arg args[2] = {CGN_ARG_OWNED(out, oa), CGN_ARG(seven)};
    cgn_kernel_desc d = kdesc(CGN_FUNCTION(f_fill), args, 2);
    OK(cgn_graph_add_kernel(g, NULL, 0, &d, &n));
    OK(cgn_owner_release(oa));
    cgn_memset_desc m = CGN_MEMSET_DESC_INIT;
    m.dst = other;
    m.value = 0;
    m.width = 4;
    OK(cgn_graph_add_memset(g, &n, 1, &m, &ms));
    OK(cgn_graph_instantiate(g, &e));

    for (int w = 0; w < CTX_STATES; w++) {
        tracked *tb = tracked_new();
        cgn_owner *ob = tracked_owner(tb);
        unsigned long long wide = 99;
        unsigned small = 99;
        set_ctx(ctx_of(w));
        for (int level = 0; level < 2; level++) {
#define UPD(u) (level == 0 ? cgn_kernel_node_update(n, (u)) : cgn_kernel_exec_update(e, n, (u)))
            cgn_kernel_update u = CGN_KERNEL_UPDATE_INIT;
            cgn_kernel_update_set_arg(&u, 1, &wide, sizeof wide, NULL); /* 8 bytes for 4 */
            FAILS(UPD(&u), CGN_ERROR_INVALID_VALUE);
            cgn_kernel_update_reset(&u);
            cgn_kernel_update_set_arg(&u, 2, &small, sizeof small, NULL); /* no argument 2 */
            FAILS(UPD(&u), CGN_ERROR_INVALID_VALUE);
            cgn_kernel_update_reset(&u);
            cgn_kernel_update_set_arg(&u, 0, &other, sizeof other, ob); /* with an owner ... */
            cgn_kernel_update_set_grid(&u, CGN_DIM3(0, 1, 1));          /* ... and a bad grid */
            FAILS(UPD(&u), CGN_ERROR_INVALID_VALUE);
            cgn_kernel_update_reset(&u);
            u.set = UINT64_C(1) << 40; /* no such field */
            FAILS(UPD(&u), CGN_ERROR_INVALID_ARGUMENT);
            cgn_kernel_update_reset(&u);
            u.set = CGN_KERNEL_SET_KERNEL_OWNER; /* owner without its kernel */
            u.kernel_owner = ob;
            FAILS(UPD(&u), CGN_ERROR_MISSING_FIELD);
#undef UPD
        }
        cgn_memset_update mu = CGN_MEMSET_UPDATE_INIT;
        cgn_memset_update_set_value(&mu, 1, 1);
        FAILS(cgn_memset_node_update(n, &mu), CGN_ERROR_WRONG_NODE_TYPE);
        FAILS(cgn_memset_exec_update(e, n, &mu), CGN_ERROR_WRONG_NODE_TYPE);
        cgn_kernel_update ku = CGN_KERNEL_UPDATE_INIT;
        cgn_kernel_update_set_arg(&ku, 1, &small, sizeof small, NULL);
        FAILS(cgn_kernel_node_update(ms, &ku), CGN_ERROR_WRONG_NODE_TYPE);
        cgn_memset_update big = CGN_MEMSET_UPDATE_INIT;
        cgn_memset_update_set_value(&big, 0x1234, 1);
        FAILS(cgn_memset_node_update(ms, &big), CGN_ERROR_OUT_OF_RANGE);
        FAILS(cgn_memset_exec_update(e, ms, &big), CGN_ERROR_OUT_OF_RANGE);
        CUcontext after = current_ctx();
        set_ctx(cu.context);
        if (after != ctx_of(w))
            fail_msg("%s: refused updates changed the current context to %p", ctx_names[w],
                     (void *)after);
        /* the refused updates kept no reference to ob */
        OK(cgn_owner_release(ob));
        EXPECT_RELEASED(tb, 1, "owner given only to refused updates");

        cgn_kernel_desc x;
        OK(cgn_kernel_node_get(n, &x));
        assert_true(arg_ptr(&x, 0) == out);
        assert_ptr_equal(x.args[0].owner, oa);
        assert_int_equal(arg_u32(&x, 1), 7);
        assert_int_equal(x.grid.x, 1);
        OK(cgn_kernel_exec_get(e, n, &x));
        assert_true(arg_ptr(&x, 0) == out);
        assert_int_equal(arg_u32(&x, 1), 7);
        assert_int_equal(x.grid.x, 1);
        cgn_memset_desc md;
        OK(cgn_memset_node_get(ms, &md));
        assert_int_equal(md.value, 0);
        write_u32(out, 0);
        RUN_EXPECT_U32(e, out, 7, "executable after refused updates");
        EXPECT_HELD(ta, "owner of the node's pointer");
    }

    /* a successful update of a CUfunction node under each context state */
    for (int w = 0; w < CTX_STATES; w++) {
        unsigned v = 20u + (unsigned)w;
        cgn_kernel_update u = CGN_KERNEL_UPDATE_INIT;
        cgn_kernel_update_set_arg(&u, 1, &v, sizeof v, NULL);
        set_ctx(ctx_of(w));
        cgn_status s1 = cgn_kernel_node_update(n, &u);
        cgn_status s2 = cgn_kernel_exec_update(e, n, &u);
        CUcontext after = current_ctx();
        set_ctx(cu.context);
        if (s1 != CGN_OK || s2 != CGN_OK)
            fail_msg("%s: updates failed: %s / %s: %s", ctx_names[w], cgn_status_name(s1),
                     cgn_status_name(s2), cgn_last_error());
        if (after != ctx_of(w))
            fail_msg("%s: the update changed the current context to %p", ctx_names[w],
                     (void *)after);
        RUN_EXPECT_U32(e, out, v, "executable after an update under another context state");
        cgn_exec *fresh;
        OK(cgn_graph_instantiate(g, &fresh));
        write_u32(out, 0);
        RUN_EXPECT_U32(fresh, out, v, "new instantiation after a definition update");
        OK(cgn_exec_destroy(fresh));
    }

    DESTROY_EXEC_GRAPH(e, g);
    EXPECT_RELEASED(ta, 1, "owner of the node's pointer");
    dfree(out);
    dfree(other);
}

/* cgn.h: cgn_node_destroy: "its handle reports CGN_ERROR_DESTROYED from then on, also in
 * executables made before"; cgn_graph_destroy: "Its node handles stay valid for
 * executable-level calls on executables made from it (which outlive it) and report
 * CGN_ERROR_DESTROYED elsewhere"; errors.md: "an executable after cgn_exec_destroy (a second
 * destroy included)"; "a node that is not part of the executable": INVALID_ARGUMENT. */
static void test_error_stale_handles(void **state) {
    (void)state;
    CUdeviceptr out = dalloc(sizeof(unsigned)), cnt = dalloc(sizeof(unsigned));
    cgn_graph *g, *g2;
    cgn_node *n, *gone, *foreign;
    cgn_exec *e, *dead;
    OK(cgn_graph_create(&g));
    OK(cgn_graph_create(&g2));
    unsigned one = 1;
    cgn_arg args[2] = {CGN_ARG(out), CGN_ARG(one)};
    cgn_kernel_desc d = kdesc(CGN_KERNEL(k_fill), args, 2);
    OK(cgn_graph_add_kernel(g, NULL, 0, &d, &n));
    cgn_arg cargs[1] = {CGN_ARG(cnt)};
    cgn_kernel_desc c = kdesc(CGN_KERNEL(k_add), cargs, 1);
    OK(cgn_graph_add_kernel(g, NULL, 0, &c, &gone));
    OK(cgn_graph_add_kernel(g2, NULL, 0, &c, &foreign));
    OK(cgn_graph_instantiate(g, &e));
    OK(cgn_graph_instantiate(g, &dead));
    OK(cgn_exec_destroy(dead));

    unsigned v = 4;
    cgn_kernel_update u = CGN_KERNEL_UPDATE_INIT;
    cgn_kernel_update_set_arg(&u, 1, &v, sizeof v, NULL);
    set_ctx(NULL);
    FAILS(cgn_exec_destroy(dead), CGN_ERROR_DESTROYED);
    FAILS(cgn_kernel_exec_update(dead, n, &u), CGN_ERROR_DESTROYED);
    FAILS(cgn_exec_launch(dead, stream), CGN_ERROR_DESTROYED);
    FAILS(cgn_kernel_exec_update(e, foreign, &u), CGN_ERROR_INVALID_ARGUMENT);
    FAILS(cgn_kernel_node_update((cgn_node *)(void *)g, &u), CGN_ERROR_INVALID_ARGUMENT);
    FAILS(cgn_kernel_node_update(NULL, &u), CGN_ERROR_INVALID_ARGUMENT);
    EXPECT_CTX(NULL, "after refusals with no context current");
    set_ctx(cu.context);

    OK(cgn_node_destroy(gone));
    assert_int_equal(cgn_node_is_alive(gone), 0);
    cgn_kernel_update z = CGN_KERNEL_UPDATE_INIT;
    cgn_kernel_update_set_grid(&z, CGN_DIM3(2, 1, 1));
    FAILS(cgn_kernel_node_update(gone, &z), CGN_ERROR_DESTROYED);
    FAILS(cgn_kernel_exec_update(e, gone, &z), CGN_ERROR_DESTROYED);
    FAILS(cgn_node_destroy(gone), CGN_ERROR_DESTROYED);
    launch_sync(e); /* e still runs its copy of the destroyed node */
    EXPECT_U32(cnt, 1, "executable's copy of the destroyed node");
    EXPECT_U32(out, 1, "fill");

    OK(cgn_graph_destroy(g));
    FAILS(cgn_kernel_node_update(n, &u), CGN_ERROR_DESTROYED);
    FAILS(cgn_graph_destroy(g), CGN_ERROR_DESTROYED);
    set_ctx(ctx_other);
    OK(cgn_kernel_exec_update(e, n, &u)); /* executable-level calls keep working */
    EXPECT_CTX(ctx_other, "exec update with another context current");
    set_ctx(cu.context);
    RUN_EXPECT_U32(e, out, 4, "exec update after the graph was destroyed");

    DESTROY_EXEC_GRAPH(e, g2);
    cgn_collect();
    dfree(out);
    dfree(cnt);
}

/* errors.md CGN_ERROR_NO_CONTEXT: "Adding a kernel, memset or memcpy node with no CUDA context
 * current on the calling thread"; "A failed call changes nothing". */
static void test_error_no_context_add(void **state) {
    (void)state;
    CUdeviceptr out = dalloc(16);
    cgn_graph *g;
    cgn_node *n = NULL;
    OK(cgn_graph_create(&g));
    set_ctx(NULL);
    cgn_memset_desc m = CGN_MEMSET_DESC_INIT;
    m.dst = out;
    m.value = 1;
    m.width = 16;
    FAILS(cgn_graph_add_memset(g, NULL, 0, &m, &n), CGN_ERROR_NO_CONTEXT);
    unsigned v = 3;
    cgn_arg args[2] = {CGN_ARG(out), CGN_ARG(v)};
    cgn_kernel_desc d = kdesc(CGN_FUNCTION(f_fill), args, 2);
    FAILS(cgn_graph_add_kernel(g, NULL, 0, &d, &n), CGN_ERROR_NO_CONTEXT);
    cgn_memcpy_desc c = CGN_MEMCPY_DESC_INIT;
    c.dst = out;
    c.src = out + 8;
    c.size = 4;
    FAILS(cgn_graph_add_memcpy(g, NULL, 0, &c, &n), CGN_ERROR_NO_CONTEXT);
    EXPECT_CTX(NULL, "after NO_CONTEXT refusals");
    set_ctx(cu.context);
    size_t count = 99;
    OK(cgn_graph_nodes(g, NULL, &count));
    assert_int_equal(count, 0);
    OK(cgn_graph_add_memset(g, NULL, 0, &m, &n));
    cgn_exec *e;
    OK(cgn_graph_instantiate(g, &e));
    RUN_EXPECT_U32(e, out, 0x01010101u, "memset added after a context was made current");
    DESTROY_EXEC_GRAPH(e, g);
    cgn_collect();
    dfree(out);
}

/* ===== threads ============================================================================== */

static _Thread_local int on_test_thread; /* 1 on the thread running the tests */
static atomic_int cb_released_owner;     /* the host callback dropped its reference */
static atomic_int thread_release_calls;
static atomic_int thread_release_on_test_thread;

static void CUDA_CB cb_release_owner(void *p) {
    cgn_owner_release((cgn_owner *)p); /* allowed on CUDA's thread (guide.md, Threads) */
    atomic_store(&cb_released_owner, 1);
}

static void thread_release(void *resource) {
    (void)resource;
    atomic_fetch_add(&thread_release_calls, 1);
    if (on_test_thread)
        atomic_fetch_add(&thread_release_on_test_thread, 1);
}

/* guide.md: "Owners may be retained and released from any thread, CUDA's host-callback threads
 * included"; cgn.h cgn_owner_release: "Never runs the release callback itself (this may be a
 * CUDA thread): when the last reference goes, the callback runs at the next cgn call that may
 * call CUDA, or in cgn_collect()". */
static void test_owner_release_from_host_callback(void **state) {
    (void)state;
    on_test_thread = 1;
    atomic_store(&cb_released_owner, 0);
    atomic_store(&thread_release_calls, 0);
    atomic_store(&thread_release_on_test_thread, 0);
    cgn_owner *o = NULL;
    OK(cgn_owner_create((void *)&thread_release_calls, thread_release, &o));
    cgn_graph *g;
    cgn_node *h;
    cgn_exec *e;
    OK(cgn_graph_create(&g));
    cgn_host_callback_desc d = CGN_HOST_CALLBACK_DESC_INIT;
    d.fn = cb_release_owner;
    d.user_data = o; /* our reference, dropped by the callback */
    OK(cgn_graph_add_host_callback(g, NULL, 0, &d, &h));
    OK(cgn_graph_instantiate(g, &e));
    launch_sync(e);
    assert_int_equal(atomic_load(&cb_released_owner), 1);
    int got = collect_until(&thread_release_calls, 1);
    if (got != 1)
        fail_msg("the owner released in a host callback: %d release callback(s), expected 1", got);
    if (atomic_load(&thread_release_on_test_thread) != 1)
        fail_msg("%s", "the release callback ran on a CUDA thread, not on a user thread");
    DESTROY_EXEC_GRAPH(e, g);
    cgn_collect();
    assert_int_equal(atomic_load(&thread_release_calls), 1);
}

/* ===== bounded loop ========================================================================== */

/* 20,000 cycles; CGN_TEST_LOOP_CYCLES (at least LOOP_SYNC) asks for fewer, as the
 * compute-sanitizer run in bench/run_device.sh does: there every launch is much slower. */
enum { LOOP_SYNC = 1000 };
static int loop_cycles(void) {
    const char *env = getenv("CGN_TEST_LOOP_CYCLES");
    long n = env != NULL ? strtol(env, NULL, 10) : 20000;
    return n < LOOP_SYNC ? LOOP_SYNC : n > 20000 ? 20000 : (int)n;
}
static atomic_uchar *loop_released;
static atomic_int loop_total;

static void loop_release(void *resource) {
    size_t i = (size_t)(uintptr_t)resource;
    atomic_fetch_add(&loop_released[i], 1);
    atomic_fetch_add(&loop_total, 1);
}

/* ownership.md: "In an update → launch loop that synchronises, live owners stay at a small
 * constant"; "When the last reference goes, release_fn(resource) runs once." */
static void test_loop_20000_fresh_owners(void **state) {
    (void)state;
    const int cycles = loop_cycles();
    loop_released = calloc((size_t)cycles, sizeof *loop_released);
    assert_non_null(loop_released);
    atomic_store(&loop_total, 0);
    CUdeviceptr out = dalloc(sizeof(unsigned));
    cgn_graph *g;
    cgn_node *n;
    cgn_exec *e;
    OK(cgn_graph_create(&g));
    unsigned zero = 0;
    cgn_arg args[2] = {CGN_ARG(out), CGN_ARG(zero)};
    cgn_kernel_desc d = kdesc(CGN_KERNEL(k_fill), args, 2);
    OK(cgn_graph_add_kernel(g, NULL, 0, &d, &n));
    OK(cgn_graph_instantiate(g, &e));
    cgn_kernel_update u = CGN_KERNEL_UPDATE_INIT;
    int max_live = 0;
    for (unsigned i = 0; i < (unsigned)cycles; i++) {
        cgn_owner *o = NULL;
        OK(cgn_owner_create((void *)(uintptr_t)i, loop_release, &o));
        cgn_kernel_update_reset(&u);
        cgn_kernel_update_set_arg(&u, 0, &out, sizeof out, o);
        cgn_kernel_update_set_arg(&u, 1, &i, sizeof i, NULL);
        OK(cgn_kernel_exec_update(e, n, &u));
        OK(cgn_owner_release(o));
        OK(cgn_exec_launch(e, stream));
        if ((i + 1) % LOOP_SYNC == 0) {
            CU(cu.cuStreamSynchronize(stream));
            EXPECT_U32(out, i, "loop result at a synchronisation point");
            /* all but the current owner can go now */
            int want = (int)i; /* owners 0 .. i-1 */
            collect_until(&loop_total, want);
            int live = (int)(i + 1) - atomic_load(&loop_total);
            if (live > max_live)
                max_live = live;
            if (live > 2)
                fail_msg("iteration %u: %d owners still live after synchronising and "
                         "collecting (expected at most 2)",
                         i, live);
        }
    }
    CU(cu.cuStreamSynchronize(stream));
    DESTROY_EXEC_GRAPH(e, g);
    int total = collect_until(&loop_total, cycles);
    if (total != cycles)
        fail_msg("expected %d releases, got %d", cycles, total);
    for (size_t i = 0; i < (size_t)cycles; i++)
        if (atomic_load(&loop_released[i]) != 1)
            fail_msg("owner %zu released %d times", i, (int)atomic_load(&loop_released[i]));
    print_message("loop: %d update+launch cycles, at most %d owners live at a sync point\n", cycles,
                  max_live);
    free((void *)loop_released);
    loop_released = NULL;
    dfree(out);
}

/* ===== main ================================================================================== */

static int resolve(void *slot, const char *name, int version) {
    return gpu_test_resolve(slot, name, version, "test_blackbox_gpu");
}

/* 0 when ready, 77 after saying why this machine cannot run the tests, 1 on a setup failure. */
static int setup_device(void) {
    int version = 0;
    int rc = gpu_test_open(&cu, "test_blackbox_gpu", &version);
    if (rc != 0)
        return rc;
    if (!resolve(&dx.cuCtxGetCurrent, "cuCtxGetCurrent", 4000) ||
        !resolve(&dx.cuCtxCreate, "cuCtxCreate", 12050) ||
        !resolve(&dx.cuCtxDestroy, "cuCtxDestroy", 4000) ||
        !resolve(&dx.cuCtxPopCurrent, "cuCtxPopCurrent", 4000) ||
        !resolve(&dx.cuStreamBeginCapture, "cuStreamBeginCapture", 10010) ||
        !resolve(&dx.cuStreamEndCapture, "cuStreamEndCapture", 10000) ||
        !resolve(&dx.cuMemsetD32Async, "cuMemsetD32Async", 3020) ||
        !resolve(&dx.cuMemcpyHtoDAsync, "cuMemcpyHtoDAsync", 3020) ||
        !resolve(&dx.cuGraphInstantiateWithFlags, "cuGraphInstantiateWithFlags", 11040) ||
        !resolve(&dx.cuGraphExecDestroy, "cuGraphExecDestroy", 10000) ||
        !resolve(&dx.cuGraphDestroy, "cuGraphDestroy", 10000) ||
        !resolve(&dx.cuGraphMemsetNodeGetParams, "cuGraphMemsetNodeGetParams", 10000) ||
        !resolve(&dx.cuGraphMemsetNodeSetParams, "cuGraphMemsetNodeSetParams", 10000) ||
        !resolve(&dx.cuGraphKernelNodeGetParams, "cuGraphKernelNodeGetParams", 12000) ||
        !resolve(&dx.cuGraphKernelNodeSetParams, "cuGraphKernelNodeSetParams", 12000) ||
        !resolve(&dx.cuMemHostAlloc, "cuMemHostAlloc", 2020))
        return 1;
#define SETUP_CU(call)                                                                             \
    do {                                                                                           \
        CUresult r_ = (call);                                                                      \
        if (r_ != CUDA_SUCCESS) {                                                                  \
            printf("test_blackbox_gpu: setup: %s returned %d\n", #call, (int)r_);                  \
            return 1;                                                                              \
        }                                                                                          \
    } while (0)
    SETUP_CU(cu.cuLibraryLoadData(&lib, cgn_test_kernels_fatbin, NULL, NULL, 0, NULL, NULL, 0));
    SETUP_CU(cu.cuLibraryGetKernel(&k_fill, lib, "fill_u32"));
    SETUP_CU(cu.cuLibraryGetKernel(&k_add, lib, "add_one"));
    SETUP_CU(cu.cuLibraryGetKernel(&k_cfg, lib, "write_config"));
    SETUP_CU(cu.cuLibraryGetKernel(&k_wait, lib, "wait_flag"));
    SETUP_CU(cu.cuLibraryGetKernel(&k_axpy, lib, "axpy_tagged"));
    SETUP_CU(cu.cuKernelGetFunction(&f_fill, k_fill));
    SETUP_CU(cu.cuKernelGetFunction(&f_add, k_add));
    SETUP_CU(cu.cuKernelGetFunction(&f_wait, k_wait));
    SETUP_CU(cu.cuStreamCreate(&stream, CU_STREAM_DEFAULT));
    SETUP_CU(cu.cuStreamCreate(&stream2, CU_STREAM_DEFAULT));
    void *flag = NULL;
    SETUP_CU(dx.cuMemHostAlloc(&flag, 4 * sizeof(int),
                               CU_MEMHOSTALLOC_DEVICEMAP | CU_MEMHOSTALLOC_PORTABLE));
    flag_host = flag;
    flag_host[0] = 1;
    flag_host[1] = flag_host[2] = flag_host[3] = 0;
    SETUP_CU(cu.cuMemHostGetDevicePointer(&flag_dev, flag, 0));
    /* a second context on device 0 (cuCtxCreate makes it current), and add_one in it */
    SETUP_CU(dx.cuCtxCreate(&ctx_other, NULL, 0, cu.device));
    SETUP_CU(cu.cuKernelGetFunction(&f_add_other, k_add));
    /* pop it, so that the thread's stack holds the primary context alone: cuCtxSetCurrent
     * replaces the top of the stack, and cuCtxSetCurrent(NULL) pops it (with two entries the
     * tests' "no context current" would leave the primary context current) */
    CUcontext popped = NULL;
    SETUP_CU(dx.cuCtxPopCurrent(&popped));
    CUcontext now = NULL;
    SETUP_CU(dx.cuCtxGetCurrent(&now));
    if (popped != ctx_other || now != cu.context) {
        printf("test_blackbox_gpu: setup: context stack not as expected\n");
        return 1;
    }
#undef SETUP_CU
    return 0;
}

static void teardown_device(void) {
    cu.cuCtxSetCurrent(cu.context);
    cgn_collect();
    if (stream)
        cu.cuStreamDestroy(stream);
    if (stream2)
        cu.cuStreamDestroy(stream2);
    if (flag_host)
        cu.cuMemFreeHost((void *)flag_host);
    if (ctx_other)
        dx.cuCtxDestroy(ctx_other);
    cu.cuCtxSetCurrent(cu.context);
    if (lib)
        cu.cuLibraryUnload(lib);
    cgn_collect();
    cgn_cuda_close(&cu);
}

#define T(fn) cmocka_unit_test_teardown(fn, teardown)

int main(void) {
    int rc = setup_device();
    if (rc != 0) {
        if (rc != 77)
            teardown_device();
        return rc;
    }
    const struct CMUnitTest tests[] = {
        T(test_kernel_def_scalar_arg),
        T(test_kernel_def_pointer_arg_owner),
        T(test_kernel_def_grid_block_smem),
        T(test_kernel_def_set_arg_by_index),
        T(test_kernel_def_switch_kernel),
        T(test_memset_def_value_dst),
        T(test_memcpy_def_size_src_dst_host),
        T(test_host_callback_def_fn_user_data),
        T(test_event_record_def_new_event),
        T(test_event_wait_def_new_event),
        T(test_child_graph_def_replace),
        T(test_exec_update_isolated),
        T(test_exec_inflight_back_to_back),
        T(test_exec_destroy_inflight),
        T(test_exec_host_callback_inflight),
        T(test_exec_enable_disable),
        T(test_exec_update_from_graph),
        T(test_exec_rules_refused_unchanged),
        T(test_exec_memset_memcpy_updates),
        T(test_exec_child_graph_update),
        T(test_capture_adopt_set_arg),
        T(test_exec_adopt_raw),
        T(test_refresh_after_raw_change),
        T(test_error_foreign_function_context_kept),
        T(test_error_refusals_leave_everything),
        T(test_error_stale_handles),
        T(test_error_no_context_add),
        T(test_owner_release_from_host_callback),
        T(test_loop_20000_fresh_owners),
    };
    rc = cmocka_run_group_tests_name("blackbox_gpu", tests, NULL, NULL);
    teardown_device();
    return rc;
}
