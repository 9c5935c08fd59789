/* Instruction-count cases for the CI regression guard (tools/icount, .ci/icount).
 *
 * On the fake driver, each case repeats one update (or launch) N times in a function of its
 * own, icount_case_<name>, so that `valgrind --tool=callgrind --toggle-collect=icount_case_<name>`
 * counts exactly those N calls and everything they call. tools/icount then takes the fake
 * driver's own instructions out of the count (every call from cgn into the fake driver, minus
 * what the driver calls back into cgn, e.g. user-object destructors) and divides by N: cgn's
 * own instructions per update.
 *
 * Updates alternate between two values (as bench_updates does), so every call really changes
 * the node; the kernel is a CUkernel, as bench_updates loads it (kernel_grid_function: a
 * CUfunction); owners are unchanged except in memset_dst_owner and kernel_arg_owner. Each case is warmed up first
 * (outside its counted function), so first-use allocations are not counted.
 *
 * adopt_10k and destroy_10k count one cgn_graph_adopt (one cgn_graph_destroy) of a 10,000-node
 * graph instead, whatever N is, and print "UNITS <name> 10000": tools/icount divides their
 * counts (and the driver calls) by the nodes, giving cgn's own instructions per node.
 *
 *   icount [--iterations N] [--stub] [--list] [CASE...]
 *
 * Without CASE every case runs. Prints per case "CALLS <name> <driver calls per update>
 * <entry>=<calls per update>..." (counted in a warm-up round, through a counting table) and
 * "CASE <name> <iterations> <ns per update>" (wall time on the fake, for orientation only; the
 * instruction counts come from tools/icount). --list prints the case names and exits.
 * --stub answers every setter (generic and typed, definition and executable) and cuGraphLaunch
 * with stubs that return CUDA_SUCCESS at once (as bench_updates measures "cgn alone"): counted the same
 * way, that gives the same counts plus the stubs' own instructions, a cross-check of the
 * subtraction; the guard itself runs without it. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "cgn/cgn.h"
#include "fake_driver.h"

/* The counted functions keep their names: not inlined into main, not cloned by LTO under a
 * suffixed name (callgrind's --toggle-collect matches the name). */
#if defined(__GNUC__) && !defined(__clang__)
#define ICOUNT_CASE __attribute__((noinline, noclone, used))
#else
#define ICOUNT_CASE __attribute__((noinline, used))
#endif

#define CHECK(call)                                                                                \
    do {                                                                                           \
        if ((call) != CGN_OK) {                                                                    \
            fprintf(stderr, "%s:%d: %s failed: %s\n", __FILE__, __LINE__, #call,                   \
                    cgn_last_error());                                                             \
            exit(1);                                                                               \
        }                                                                                          \
    } while (0)

/* ---- fixtures ------------------------------------------------------------------------------ */

/* The table installed last (the adoption cases step around the counting one). */
static const cgn_driver_table *installed_table;
static void install(const cgn_driver_table *table) {
    installed_table = table;
    cgn_driver_install(table);
}

static unsigned char host_a[64], host_b[64];
static CUdeviceptr buf_a, buf_b;
static unsigned scalar_values[2] = {7, 9};
static CUevent events[2];
static cgn_owner *owners[2];

static cgn_graph *graph;
static cgn_node *kernel_node, *function_node, *six_node, *memset_node, *memcpy_node, *host_node, *record_node, *wait_node,
    *owned_memset_node;
static cgn_exec *exec;

static cgn_arg scalar_args[2][2];
static cgn_kernel_update kernel_scalar[2], kernel_grid[2], kernel_owned[2];
static cgn_arg owned_args[2][2];
#ifdef CGN_KERNEL_SET_ARG
static cgn_kernel_update kernel_arg[2], kernel_arg6[2];
#endif
/* axpy_tagged's arguments, as bench_updates' argument-level rows: out, x, y, a, n, tag. */
static CUdeviceptr six_ptrs[3];
static float six_a = 2.0f;
static unsigned six_n = 4;
static unsigned long long six_tag = 1;
static cgn_memset_update memset_value[2], memset_dst[2];
static cgn_memcpy_update memcpy_size[2];
static cgn_host_callback_update host_fn[2];
static cgn_event_record_update record_event[2];
static cgn_event_wait_update wait_event[2];

static void fake_fill(void **args, const CUDA_KERNEL_NODE_PARAMS_v2 *launch, void *user) {
    (void)args;
    (void)launch;
    (void)user;
}
static void host_fn_a(void *data) { (void)data; }
static void host_fn_b(void *data) { (void)data; }
static void noop_release(void *resource) { (void)resource; }

/* One graph with a node of every type the cases update, instantiated once: the exec cases
 * update and launch that executable (launches complete at once on the fake, so nothing is ever
 * waiting). */
static void open_fixture(void) {
    static const size_t sizes[2] = {sizeof(CUdeviceptr), sizeof(unsigned)};
    cgn_fake_reset();
    static const size_t six_sizes[6] = {sizeof(CUdeviceptr), sizeof(CUdeviceptr),
                                        sizeof(CUdeviceptr), sizeof(float), sizeof(unsigned),
                                        sizeof(unsigned long long)};
    CUfunction fill = cgn_fake_register_kernel("fill_u32", 2, sizes, fake_fill, NULL);
    CUfunction six = cgn_fake_register_kernel("axpy_tagged", 6, six_sizes, fake_fill, NULL);
    install(cgn_fake_table());
    buf_a = (CUdeviceptr)(uintptr_t)host_a;
    buf_b = (CUdeviceptr)(uintptr_t)host_b;
    cgn_fake_mark_device_memory(host_a, sizeof host_a);
    cgn_fake_mark_device_memory(host_b, sizeof host_b);
    events[0] = cgn_fake_event_create();
    events[1] = cgn_fake_event_create();
    CHECK(cgn_owner_create(&buf_a, noop_release, &owners[0]));
    CHECK(cgn_owner_create(&buf_b, noop_release, &owners[1]));
    CHECK(cgn_graph_create(&graph));

    for (int k = 0; k < 2; k++) {
        scalar_args[k][0] = CGN_ARG(buf_a);
        scalar_args[k][1] = CGN_ARG(scalar_values[k]);
    }
    /* The kernel as a CUkernel, as bench_updates loads it on the GPU (cuLibraryGetKernel); the
     * same kernel as a CUfunction too, whose updates also ask for the current context. */
    cgn_kernel_desc kd = CGN_KERNEL_DESC_INIT;
    kd.kernel = CGN_KERNEL(cgn_fake_kernel_of(fill));
    kd.grid = CGN_DIM3(1, 1, 1);
    kd.block = CGN_DIM3(32, 1, 1);
    kd.args = scalar_args[0];
    kd.num_args = 2;
    CHECK(cgn_graph_add_kernel(graph, NULL, 0, &kd, &kernel_node));
    kd.kernel = CGN_FUNCTION(fill);
    CHECK(cgn_graph_add_kernel(graph, NULL, 0, &kd, &function_node));
    six_ptrs[0] = six_ptrs[1] = six_ptrs[2] = buf_a;
    cgn_arg six_args[6] = {CGN_ARG(six_ptrs[0]), CGN_ARG(six_ptrs[1]), CGN_ARG(six_ptrs[2]),
                           CGN_ARG(six_a),       CGN_ARG(six_n),       CGN_ARG(six_tag)};
    kd.kernel = CGN_KERNEL(cgn_fake_kernel_of(six));
    kd.args = six_args;
    kd.num_args = 6;
    CHECK(cgn_graph_add_kernel(graph, NULL, 0, &kd, &six_node));

    cgn_memset_desc sd = CGN_MEMSET_DESC_INIT;
    sd.dst = buf_a;
    sd.value = 1;
    sd.element_size = 4;
    sd.width = 4;
    CHECK(cgn_graph_add_memset(graph, NULL, 0, &sd, &memset_node));
    sd.dst_owner = owners[0];
    CHECK(cgn_graph_add_memset(graph, NULL, 0, &sd, &owned_memset_node));

    cgn_memcpy_desc cd = CGN_MEMCPY_DESC_INIT;
    cd.dst = buf_b;
    cd.src = buf_a;
    cd.size = 8;
    CHECK(cgn_graph_add_memcpy(graph, NULL, 0, &cd, &memcpy_node));

    cgn_host_callback_desc hd = CGN_HOST_CALLBACK_DESC_INIT;
    hd.fn = host_fn_a;
    CHECK(cgn_graph_add_host_callback(graph, NULL, 0, &hd, &host_node));

    cgn_event_record_desc rd = CGN_EVENT_RECORD_DESC_INIT;
    rd.event = events[0];
    CHECK(cgn_graph_add_event_record(graph, NULL, 0, &rd, &record_node));
    cgn_event_wait_desc wd = CGN_EVENT_WAIT_DESC_INIT;
    wd.event = events[1];
    CHECK(cgn_graph_add_event_wait(graph, NULL, 0, &wd, &wait_node));

    CHECK(cgn_graph_instantiate(graph, &exec));

    static const CUhostFn fns[2] = {host_fn_a, host_fn_b};
    for (int k = 0; k < 2; k++) {
        kernel_scalar[k] = (cgn_kernel_update)CGN_KERNEL_UPDATE_INIT;
        cgn_kernel_update_set_args(&kernel_scalar[k], scalar_args[k], 2);
        owned_args[k][0] = CGN_ARG_OWNED(*(k ? &buf_b : &buf_a), owners[k]);
        owned_args[k][1] = CGN_ARG(scalar_values[0]);
        kernel_owned[k] = (cgn_kernel_update)CGN_KERNEL_UPDATE_INIT;
        cgn_kernel_update_set_args(&kernel_owned[k], owned_args[k], 2);
        kernel_grid[k] = (cgn_kernel_update)CGN_KERNEL_UPDATE_INIT;
        cgn_kernel_update_set_grid(&kernel_grid[k], CGN_DIM3(1 + (uint32_t)k, 1, 1));
#ifdef CGN_KERNEL_SET_ARG
        kernel_arg[k] = (cgn_kernel_update)CGN_KERNEL_UPDATE_INIT;
        cgn_kernel_update_set_arg(&kernel_arg[k], 1, &scalar_values[k], sizeof(unsigned), NULL);
        kernel_arg6[k] = (cgn_kernel_update)CGN_KERNEL_UPDATE_INIT;
        cgn_kernel_update_set_arg(&kernel_arg6[k], 0, k ? &buf_b : &buf_a, sizeof(CUdeviceptr),
                                  NULL);
#endif
        memset_value[k] = (cgn_memset_update)CGN_MEMSET_UPDATE_INIT;
        cgn_memset_update_set_value(&memset_value[k], 2 + (uint32_t)k, 4);
        memset_dst[k] = (cgn_memset_update)CGN_MEMSET_UPDATE_INIT;
        cgn_memset_update_set_dst(&memset_dst[k], k ? buf_b : buf_a, owners[k]);
        memcpy_size[k] = (cgn_memcpy_update)CGN_MEMCPY_UPDATE_INIT;
        cgn_memcpy_update_set_size(&memcpy_size[k], 8 + 8 * (size_t)k);
        host_fn[k] = (cgn_host_callback_update)CGN_HOST_CALLBACK_UPDATE_INIT;
        cgn_host_callback_update_set_fn(&host_fn[k], fns[k], NULL, NULL, NULL, 0);
        record_event[k] = (cgn_event_record_update)CGN_EVENT_RECORD_UPDATE_INIT;
        cgn_event_record_update_set_event(&record_event[k], events[k], NULL);
        wait_event[k] = (cgn_event_wait_update)CGN_EVENT_WAIT_UPDATE_INIT;
        cgn_event_wait_update_set_event(&wait_event[k], events[k], NULL);
    }
}

static void close_fixture(void) {
    CHECK(cgn_exec_destroy(exec));
    CHECK(cgn_graph_destroy(graph));
    cgn_collect();
    CHECK(cgn_owner_release(owners[0]));
    CHECK(cgn_owner_release(owners[1]));
    cgn_collect();
    cgn_fake_reset();
}

/* ---- the cases: one update each, i the call index ----------------------------------------- */

/* Definition level, owners unchanged. (i + 1) & 1: the first call changes the value the
 * fixture gave the node. */
static inline void step_kernel_scalar(long i) {
    CHECK(cgn_kernel_node_update(kernel_node, &kernel_scalar[(i + 1) & 1]));
}
static inline void step_kernel_grid(long i) {
    CHECK(cgn_kernel_node_update(kernel_node, &kernel_grid[(i + 1) & 1]));
}
static inline void step_kernel_grid_function(long i) {
    CHECK(cgn_kernel_node_update(function_node, &kernel_grid[(i + 1) & 1]));
}
#ifdef CGN_KERNEL_SET_ARG
static inline void step_kernel_arg(long i) {
    CHECK(cgn_kernel_node_update(kernel_node, &kernel_arg[(i + 1) & 1]));
}
static inline void step_kernel_arg6(long i) {
    CHECK(cgn_kernel_node_update(six_node, &kernel_arg6[(i + 1) & 1]));
}
/* The same through the one-call form: no update struct. */
static inline void step_kernel_arg6_direct(long i) {
    CHECK(cgn_kernel_node_set_arg(six_node, 0, (i + 1) & 1 ? &buf_b : &buf_a, sizeof(CUdeviceptr),
                                  NULL));
}
#endif
static inline void step_memset_value(long i) {
    CHECK(cgn_memset_node_update(memset_node, &memset_value[i & 1]));
}
static inline void step_memcpy_size(long i) {
    CHECK(cgn_memcpy_node_update(memcpy_node, &memcpy_size[(i + 1) & 1]));
}
static inline void step_host_fn(long i) {
    CHECK(cgn_host_callback_node_update(host_node, &host_fn[(i + 1) & 1]));
}
static inline void step_event_record(long i) {
    CHECK(cgn_event_record_node_update(record_node, &record_event[(i + 1) & 1]));
}
static inline void step_event_wait(long i) {
    CHECK(cgn_event_wait_node_update(wait_node, &wait_event[i & 1]));
}
/* Definition level, owners changed: a new dst with its own owner every call. */
static inline void step_memset_dst_owner(long i) {
    CHECK(cgn_memset_node_update(owned_memset_node, &memset_dst[(i + 1) & 1]));
}
/* Definition level, owners changed: a new buffer argument with its own owner every call. */
static inline void step_kernel_arg_owner(long i) {
    CHECK(cgn_kernel_node_update(kernel_node, &kernel_owned[(i + 1) & 1]));
}
/* Executable level, owners unchanged. */
static inline void step_exec_kernel_scalar(long i) {
    CHECK(cgn_kernel_exec_update(exec, kernel_node, &kernel_scalar[(i + 1) & 1]));
}
#ifdef CGN_KERNEL_SET_ARG
static inline void step_exec_kernel_arg6(long i) {
    CHECK(cgn_kernel_exec_update(exec, six_node, &kernel_arg6[(i + 1) & 1]));
}
static inline void step_exec_kernel_arg6_direct(long i) {
    CHECK(cgn_kernel_exec_set_arg(exec, six_node, 0, (i + 1) & 1 ? &buf_b : &buf_a,
                                  sizeof(CUdeviceptr), NULL));
}
#endif
static inline void step_exec_kernel_grid(long i) {
    CHECK(cgn_kernel_exec_update(exec, kernel_node, &kernel_grid[(i + 1) & 1]));
}
static inline void step_exec_host_fn(long i) {
    CHECK(cgn_host_callback_exec_update(exec, host_node, &host_fn[(i + 1) & 1]));
}
static inline void step_exec_event_record(long i) {
    CHECK(cgn_event_record_exec_update(exec, record_node, &record_event[(i + 1) & 1]));
}
static inline void step_exec_memset_value(long i) {
    CHECK(cgn_memset_exec_update(exec, memset_node, &memset_value[i & 1]));
}
/* A launch with no superseded version waiting (launches complete at once on the fake). */
static inline void step_exec_launch(long i) {
    (void)i;
    CHECK(cgn_exec_launch(exec, NULL));
}


/* ---- adoption: cgn's own instructions per adopted (or destroyed) node ---------------------- */

/* The graph bench_updates adopts (adopt_source), built through the fake's raw table: ADOPT_NODES
 * nodes in 4 chains (node i depends on node i - 4), kernel nodes (a 6-argument and a
 * 2-argument kernel in turn) with a memset at every 100th node (from 50) and a device-to-device
 * 1-D memcpy at every 100th (from 99). adopt_10k counts one cgn_graph_adopt (borrowing) of it, destroy_10k
 * one cgn_graph_destroy of the adopted graph; both divided by ADOPT_NODES. */
#define ADOPT_NODES 10000L
#define ADOPT_CHAINS 4
static CUgraph adopt_raw;
static cgn_graph *adopted;
static struct {
    CUdeviceptr out, x, y;
    float a;
    unsigned n;
    unsigned long long tag;
} six = {0, 0, 0, 2.0f, 4, 42};

static void adopt_build(void) {
    if (adopt_raw != NULL)
        return;
    static const size_t six_sizes[6] = {8, 8, 8, 4, 4, 8};
    static const size_t fill_sizes[2] = {sizeof(CUdeviceptr), sizeof(unsigned)};
    const cgn_driver_table *drv = cgn_fake_table();
    CUfunction six_fn = cgn_fake_register_kernel("axpy_tagged", 6, six_sizes, NULL, NULL);
    CUfunction fill_fn = cgn_fake_register_kernel("fill_u32_adopt", 2, fill_sizes, NULL, NULL);
    six.out = six.y = buf_a;
    six.x = buf_b;
    void *six_params[6] = {&six.out, &six.x, &six.y, &six.a, &six.n, &six.tag};
    void *fill_params[2] = {&buf_a, &scalar_values[0]};
    CUDA_KERNEL_NODE_PARAMS_v2 six_kp, fill_kp;
    memset(&six_kp, 0, sizeof six_kp);
    six_kp.func = six_fn;
    six_kp.gridDimX = six_kp.gridDimY = six_kp.gridDimZ = 1;
    six_kp.blockDimX = 128;
    six_kp.blockDimY = six_kp.blockDimZ = 1;
    fill_kp = six_kp;
    fill_kp.func = fill_fn;
    six_kp.kernelParams = six_params;
    fill_kp.kernelParams = fill_params;
    CUDA_MEMSET_NODE_PARAMS_v1 ms = {buf_a, 0, 1, 4, 4, 1};
    CUDA_MEMCPY3D_v2 mc;
    memset(&mc, 0, sizeof mc);
    mc.srcMemoryType = mc.dstMemoryType = CU_MEMORYTYPE_DEVICE;
    mc.srcDevice = buf_a;
    mc.dstDevice = buf_b;
    mc.WidthInBytes = 8;
    mc.Height = mc.Depth = 1;
    CUgraphNode *nodes = malloc((size_t)ADOPT_NODES * sizeof *nodes);
    if (nodes == NULL || drv->cuGraphCreate(&adopt_raw, 0) != CUDA_SUCCESS) {
        fprintf(stderr, "icount: cannot build the graph to adopt\n");
        exit(1);
    }
    CUcontext ctx = cgn_fake_context(0);
    for (long i = 0; i < ADOPT_NODES; i++) {
        const CUgraphNode *dep = i >= ADOPT_CHAINS ? &nodes[i - ADOPT_CHAINS] : NULL;
        size_t nd = dep != NULL;
        CUresult r;
        if (i % 100 == 50)
            r = drv->cuGraphAddMemsetNode(&nodes[i], adopt_raw, dep, nd, &ms, ctx);
        else if (i % 100 == 99)
            r = drv->cuGraphAddMemcpyNode(&nodes[i], adopt_raw, dep, nd, &mc, ctx);
        else
            r = drv->cuGraphAddKernelNode(&nodes[i], adopt_raw, dep, nd,
                                          i & 1 ? &fill_kp : &six_kp);
        if (r != CUDA_SUCCESS) {
            fprintf(stderr, "icount: adding node %ld of the graph to adopt failed (%d)\n", i,
                    (int)r);
            exit(1);
        }
    }
    free(nodes);
}

static void adopt_check(void) {
    size_t count = 0;
    CHECK(cgn_graph_nodes(adopted, NULL, &count));
    if (count != (size_t)ADOPT_NODES) {
        fprintf(stderr, "icount: adopted %zu nodes of %ld\n", count, ADOPT_NODES);
        exit(1);
    }
}

static void adopt_10k(void) { CHECK(cgn_graph_adopt(adopt_raw, 0, &adopted)); }
/* The counted functions: the warm-ups call the same work through other functions (callgrind
 * collects whatever runs under a function of the toggle's name). */
ICOUNT_CASE void icount_case_adopt_10k(long n);
ICOUNT_CASE void icount_case_adopt_10k(long n) {
    (void)n;
    adopt_10k();
}
static void adopt_10k_after(void) {
    adopt_check();
    CHECK(cgn_graph_destroy(adopted));
    adopted = NULL;
}
/* Warm-up: one adoption (the one whose driver calls are counted), then its destroy uncounted. */
static void warm_adopt_10k(long n) {
    (void)n;
    adopt_build();
    adopt_10k();
    const cgn_driver_table *installed = installed_table;
    install(cgn_fake_table());
    adopt_10k_after();
    install(installed);
}

static void destroy_10k_before(void) {
    adopt_build();
    CHECK(cgn_graph_adopt(adopt_raw, 0, &adopted));
    adopt_check();
}
static void destroy_10k(void) {
    CHECK(cgn_graph_destroy(adopted));
    adopted = NULL;
}
ICOUNT_CASE void icount_case_destroy_10k(long n);
ICOUNT_CASE void icount_case_destroy_10k(long n) {
    (void)n;
    destroy_10k();
}
/* Warm-up: an adoption uncounted, then the destroy whose driver calls are counted. */
static void warm_destroy_10k(long n) {
    const cgn_driver_table *installed = installed_table;
    install(cgn_fake_table());
    destroy_10k_before();
    install(installed);
    (void)n;
    destroy_10k();
}

/* icount_case_<name>(n): n calls of step_<name>, the function callgrind counts. */
#define ICOUNT_CASES(X)                                                                            \
    X(kernel_scalar, "kernel node, new scalar argument (whole argument list)")                     \
    ICOUNT_CASE_KERNEL_ARG(X)                                                                      \
    X(kernel_grid, "kernel node, new grid")                                                        \
    X(kernel_grid_function, "kernel node of a CUfunction, new grid (asks for the context)")        \
    X(memset_value, "memset node, new value")                                                      \
    X(memcpy_size, "memcpy node, new size")                                                        \
    X(host_fn, "host callback node, new function")                                                 \
    X(event_record, "event record node, new event")                                                \
    X(event_wait, "event wait node, new event")                                                    \
    X(memset_dst_owner, "memset node, new dst with a new owner (owners changed)")                  \
    X(kernel_arg_owner, "kernel node, new buffer argument with its owner (owners changed)")        \
    X(exec_kernel_scalar, "executable: kernel node, new scalar argument")                          \
    X(exec_kernel_grid, "executable: kernel node, new grid")                                       \
    ICOUNT_CASE_EXEC_KERNEL_ARG(X)                                                                 \
    X(exec_memset_value, "executable: memset node, new value")                                     \
    X(exec_host_fn, "executable: host callback node, new function")                                \
    X(exec_event_record, "executable: event record node, new event")                               \
    X(exec_launch, "cgn_exec_launch, nothing waiting")
#ifdef CGN_KERNEL_SET_ARG
#define ICOUNT_CASE_EXEC_KERNEL_ARG(X)                                                             \
    X(exec_kernel_arg6, "executable: kernel node, one pointer of six by index (set_arg)")          \
    X(exec_kernel_arg6_direct, "executable: the same, one call (cgn_kernel_exec_set_arg)")
#define ICOUNT_CASE_KERNEL_ARG(X)                                                                  \
    X(kernel_arg, "kernel node, one argument of two by index (set_arg)")                           \
    X(kernel_arg6, "kernel node, one pointer of six by index (set_arg)")                           \
    X(kernel_arg6_direct, "kernel node, the same, one call (cgn_kernel_node_set_arg)")
#else
#define ICOUNT_CASE_KERNEL_ARG(X)
#define ICOUNT_CASE_EXEC_KERNEL_ARG(X)
#endif

#define ICOUNT_DEFINE(name, what)                                                                  \
    ICOUNT_CASE void icount_case_##name(long n);                                                   \
    ICOUNT_CASE void icount_case_##name(long n) {                                                  \
        for (long i = 0; i < n; i++)                                                               \
            step_##name(i);                                                                        \
    }                                                                                              \
    static void warm_##name(long n) {                                                              \
        for (long i = 0; i < n; i++)                                                               \
            step_##name(i);                                                                        \
    }
ICOUNT_CASES(ICOUNT_DEFINE)

typedef struct icount_case {
    const char *name, *what;
    void (*run)(long n);
    void (*warm)(long n);
    /* What a count is divided by: 0, the calls (run(n): n updates; warm(n): n); else the units
     * one run or one warm-up call covers whatever n is (adoption: the nodes of one graph). */
    long units;
    void (*before)(void), (*after)(void); /* around the counted run, not counted; or NULL */
} icount_case;

#define ICOUNT_ENTRY(name, what) {#name, what, icount_case_##name, warm_##name, 0, NULL, NULL},
static const icount_case cases[] = {ICOUNT_CASES(ICOUNT_ENTRY)
    {"adopt_10k", "cgn_graph_adopt of a 10,000-node graph (per node)", icount_case_adopt_10k,
     warm_adopt_10k, ADOPT_NODES, NULL, adopt_10k_after},
    {"destroy_10k", "cgn_graph_destroy of an adopted 10,000-node graph (per node)",
     icount_case_destroy_10k, warm_destroy_10k, ADOPT_NODES, destroy_10k_before, NULL},
};
#define NUM_CASES (sizeof cases / sizeof cases[0])

/* ---- driver calls per update -------------------------------------------------------------- */

/* A table whose every entry counts its calls and forwards to the fake: installed only for an
 * extra warm-up round of each case, never while callgrind counts. */
enum {
#define ICOUNT_ENTRY_ID(name, abi, need, params, args) ID_##name,
    CGN_DRIVER_ENTRIES(ICOUNT_ENTRY_ID)
#undef ICOUNT_ENTRY_ID
        NUM_ENTRIES
};
static const char *const entry_names[NUM_ENTRIES] = {
#define ICOUNT_ENTRY_NAME(name, abi, need, params, args) #name,
    CGN_DRIVER_ENTRIES(ICOUNT_ENTRY_NAME)
#undef ICOUNT_ENTRY_NAME
};
static long entry_calls[NUM_ENTRIES];
static const cgn_driver_table *forward;
#define ICOUNT_COUNTER(name, abi, need, params, args)                                              \
    static CUresult count_##name params {                                                          \
        entry_calls[ID_##name]++;                                                                  \
        return forward->name args;                                                                 \
    }
CGN_DRIVER_ENTRIES(ICOUNT_COUNTER)
#undef ICOUNT_COUNTER

/* Installs a counting table in front of `under` (entries it lacks stay NULL). */
static void install_counting(const cgn_driver_table *under) {
    static cgn_driver_table counting;
    forward = under;
    counting = *under;
#define ICOUNT_WRAP(name, abi, need, params, args)                                                 \
    counting.name = under->name ? count_##name : NULL;
    CGN_DRIVER_ENTRIES(ICOUNT_WRAP)
#undef ICOUNT_WRAP
    memset(entry_calls, 0, sizeof entry_calls);
    install(&counting);
}

/* "CALLS <case> <total per update> <entry>=<per update>...", e.g. 1 cuGraphNodeSetParams=1. */
static void print_calls(const char *name, long n) {
    long total = 0;
    for (int e = 0; e < NUM_ENTRIES; e++)
        total += entry_calls[e];
    printf("CALLS %s %g", name, (double)total / (double)n);
    for (int e = 0; e < NUM_ENTRIES; e++)
        if (entry_calls[e])
            printf(" %s=%g", entry_names[e], (double)entry_calls[e] / (double)n);
    printf("\n");
}

/* ---- --stub: the driver calls answered at once -------------------------------------------- */

/* A stub for every entry; --stub installs those that change a node (the generic and the typed
 * setters) and cuGraphLaunch. */
#if defined(__GNUC__) || defined(__clang__)
#pragma GCC diagnostic push
#pragma GCC diagnostic ignored "-Wunused-parameter"
#endif
#define ICOUNT_STUB(name, abi, need, params, args)                                                 \
    static CUresult stub_##name params { return CUDA_SUCCESS; }
CGN_DRIVER_ENTRIES(ICOUNT_STUB)
#undef ICOUNT_STUB
#if defined(__GNUC__) || defined(__clang__)
#pragma GCC diagnostic pop
#endif

static void install_stubs(cgn_driver_table *t) {
#define ICOUNT_STUB_SETTER(name, abi, need, params, args)                                          \
    if (t->name != NULL && (strstr(#name, "NodeSetParams") || strstr(#name, "NodeSetEvent") ||    \
                            strcmp(#name, "cuGraphLaunch") == 0))                                 \
        t->name = stub_##name;
    CGN_DRIVER_ENTRIES(ICOUNT_STUB_SETTER)
#undef ICOUNT_STUB_SETTER
}

/* ---- main ---------------------------------------------------------------------------------- */

static double now_ns(void) {
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec * 1e9 + (double)ts.tv_nsec;
}

static void usage(void) {
    fprintf(stderr, "usage: icount [--iterations N] [--stub] [--list] [CASE...]\ncases:");
    for (size_t c = 0; c < NUM_CASES; c++)
        fprintf(stderr, " %s", cases[c].name);
    fprintf(stderr, "\n");
    exit(2);
}

int main(int argc, char **argv) {
    long iterations = 1000;
    int stub = 0, any = 0;
    int wanted[NUM_CASES] = {0};
    for (int i = 1; i < argc; i++) {
        if (strcmp(argv[i], "--iterations") == 0 && i + 1 < argc) {
            iterations = strtol(argv[++i], NULL, 10);
            if (iterations <= 0)
                usage();
        } else if (strcmp(argv[i], "--stub") == 0) {
            stub = 1;
        } else if (strcmp(argv[i], "--list") == 0) {
            for (size_t c = 0; c < NUM_CASES; c++)
                printf("%s\t%s\n", cases[c].name, cases[c].what);
            return 0;
        } else {
            size_t c = 0;
            while (c < NUM_CASES && strcmp(argv[i], cases[c].name) != 0)
                c++;
            if (c == NUM_CASES) {
                fprintf(stderr, "icount: unknown case %s\n", argv[i]);
                usage();
            }
            wanted[c] = any = 1;
        }
    }

    open_fixture();
    static cgn_driver_table stubbed;
    const cgn_driver_table *table = cgn_fake_table();
    if (stub) {
        stubbed = *table;
        install_stubs(&stubbed);
        table = &stubbed;
        install(table);
    }
    for (size_t c = 0; c < NUM_CASES; c++) {
        if (any && !wanted[c])
            continue;
        /* Warm-up: 16 calls, then 16 more counting the driver calls (an even number each, so
         * the counted run starts from the same state every time). */
        cases[c].warm(16);
        install_counting(table);
        cases[c].warm(16);
        install(table);
        long units = cases[c].units ? cases[c].units : iterations;
        print_calls(cases[c].name, cases[c].units ? cases[c].units : 16);
        if (cases[c].before != NULL)
            cases[c].before();
        double t0 = now_ns();
        cases[c].run(iterations);
        double ns = (now_ns() - t0) / (double)units;
        if (cases[c].after != NULL)
            cases[c].after();
        if (cases[c].units)
            printf("UNITS %s %ld\n", cases[c].name, units);
        printf("CASE %s %ld %.1f\n", cases[c].name, iterations, ns);
        fflush(stdout);
    }
    if (stub)
        install(cgn_fake_table());
    close_fixture();
    return 0;
}
