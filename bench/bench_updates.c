/* Benchmarks of cgn node updates against the raw driver, measured side by side in one run.
 * Prints one line per measurement: "RESULT <key> <value> <note>" (bench/report.py makes the table).
 *   bench_updates            on the GPU (real driver)
 *   bench_updates --fake     on the fake driver, short: a smoke test that keeps the code alive
 * Options: --quick (short batches), --only SECTION[,SECTION...] (def, exec, arg, loop,
 * retention, size, adopt, memory, exec_memory, insitu), --cycles N (exec_memory cycles; default
 * 1,000,000, 20,000 when short), --max-seconds S (stop exec_memory early after S seconds and say
 * so).
 * Exit status 1 when an accounting check fails (owners not released exactly once, released off
 * the main thread, live owners or memory not bounded). */
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <threads.h>
#include <time.h>
#include <unistd.h>

#include "../examples/cgn_cuda.h"
#include "cgn/cgn.h"
#include "runtime.h"

#ifdef CGN_BENCH_WITH_FAKE
#include "fake_driver.h"
#endif

extern const unsigned char cgn_test_kernels_fatbin[];
extern const size_t cgn_test_kernels_fatbin_size;

static int quick, on_fake, failures;
static const cgn_driver_table *drv;
static cgn_cuda cu;
static CUkernel fill_kernel; /* fill_u32(unsigned *out, unsigned value) */
static CUfunction fill_function;
static CUkernel six_kernel; /* axpy_tagged: 6 arguments, 40 bytes (arg and adopt sections) */
static CUfunction six_function;
static CUdeviceptr buf_a, buf_b;
static CUstream stream; /* launches: a stream of its own on the GPU, the NULL stream on the fake */
static PFN_cuMemGetInfo_v3020 mem_get_info;

static double now_ns(void) {
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec * 1e9 + (double)ts.tv_nsec;
}

static int cmp_double(const void *a, const void *b) {
    double x = *(const double *)a, y = *(const double *)b;
    return (x > y) - (x < y);
}

static double median(double *v, int n) {
    qsort(v, (size_t)n, sizeof *v, cmp_double);
    return n % 2 ? v[n / 2] : 0.5 * (v[n / 2 - 1] + v[n / 2]);
}

#define REPS (quick ? 3 : 31)
#define BATCH (quick ? 50 : 2000)

/* Median over REPS batches of BATCH calls of `body` (i is the call index), in ns per call. */
#define MEASURE(out, body)                                                                         \
    do {                                                                                           \
        double samples_[64];                                                                       \
        for (long i = 0; i < BATCH; i++) {                                                         \
            body;                                                                                  \
        }                                                                                          \
        for (int r_ = 0; r_ < REPS; r_++) {                                                        \
            double t0_ = now_ns();                                                                 \
            for (long i = 0; i < BATCH; i++) {                                                     \
                body;                                                                              \
            }                                                                                      \
            samples_[r_] = (now_ns() - t0_) / BATCH;                                               \
        }                                                                                          \
        (out) = median(samples_, REPS);                                                            \
    } while (0)

/* Three measurements interleaved batch by batch (A, B, C, A, B, C, ...), so drifting host
 * conditions affect all alike: the ratios between them are what the targets are about. */
#define MEASURE_TRIO(out_a, body_a, out_b, body_b, out_c, body_c)                                  \
    do {                                                                                           \
        double sa_[64], sb_[64], sc_[64];                                                          \
        for (long i = 0; i < BATCH; i++) {                                                         \
            body_a;                                                                                \
            body_b;                                                                                \
            body_c;                                                                                \
        }                                                                                          \
        for (int r_ = 0; r_ < REPS; r_++) {                                                        \
            double t0_ = now_ns();                                                                 \
            for (long i = 0; i < BATCH; i++) {                                                     \
                body_a;                                                                            \
            }                                                                                      \
            double t1_ = now_ns();                                                                 \
            for (long i = 0; i < BATCH; i++) {                                                     \
                body_b;                                                                            \
            }                                                                                      \
            double t2_ = now_ns();                                                                 \
            for (long i = 0; i < BATCH; i++) {                                                     \
                body_c;                                                                            \
            }                                                                                      \
            sa_[r_] = (t1_ - t0_) / BATCH;                                                         \
            sb_[r_] = (t2_ - t1_) / BATCH;                                                         \
            sc_[r_] = (now_ns() - t2_) / BATCH;                                                    \
        }                                                                                          \
        (out_a) = median(sa_, REPS);                                                               \
        (out_b) = median(sb_, REPS);                                                               \
        (out_c) = median(sc_, REPS);                                                               \
    } while (0)

/* Two measurements interleaved the same way (the third batch is empty and not reported). */
#define MEASURE_PAIR(out_a, body_a, out_b, body_b)                                                 \
    do {                                                                                           \
        double pair_none_;                                                                         \
        MEASURE_TRIO(out_a, body_a, out_b, body_b, pair_none_, (void)0);                           \
        (void)pair_none_;                                                                          \
    } while (0)

#define CHECK(call)                                                                                \
    do {                                                                                           \
        if ((call) != CGN_OK) {                                                                    \
            fprintf(stderr, "%s:%d: %s failed: %s\n", __FILE__, __LINE__, #call,                   \
                    cgn_last_error());                                                             \
            exit(1);                                                                               \
        }                                                                                          \
    } while (0)
#define CU(call)                                                                                   \
    do {                                                                                           \
        CUresult cu_r_ = (call);                                                                   \
        if (cu_r_ != CUDA_SUCCESS) {                                                               \
            fprintf(stderr, "%s:%d: %s returned %d\n", __FILE__, __LINE__, #call, (int)cu_r_);     \
            exit(1);                                                                               \
        }                                                                                          \
    } while (0)

static void result(const char *key, double ns, const char *note) {
    printf("RESULT %s %.1f %s\n", key, ns, note);
    fflush(stdout);
}

/* A count or size: printed without decimals. */
static void result_count(const char *key, long long value, const char *note) {
    printf("RESULT %s %lld %s\n", key, value, note);
    fflush(stdout);
}

/* An accounting check that failed: reported at once, and the exit status becomes 1. */
static void fail_check(const char *what) {
    fprintf(stderr, "CHECK FAILED: %s\n", what);
    printf("FAILED %s\n", what);
    fflush(stdout);
    failures++;
}

/* ---- the calls that differ between the GPU and the fake ------------------------------------- */

/* Loops that launch synchronise every SYNC_EVERY launches, so the launch queue never fills. */
#define SYNC_EVERY 64

/* Waits for every launch so far. The fake holds launches in flight (cgn_fake_hold_completion)
 * until this, so retention works there as it does on the GPU. */
static void sync_stream(void) {
#ifdef CGN_BENCH_WITH_FAKE
    if (on_fake) {
        cgn_fake_complete_pending();
        return;
    }
#endif
    CU(cu.cuStreamSynchronize(stream));
}

/* Device memory on the GPU; host memory on the fake, where device pointers are host addresses. */
static CUdeviceptr dev_alloc(size_t size) {
    if (on_fake) {
        void *p = malloc(size);
        if (p == NULL) {
            fprintf(stderr, "out of host memory\n");
            exit(1);
        }
        return (CUdeviceptr)(uintptr_t)p;
    }
    CUdeviceptr p;
    CU(cu.cuMemAlloc(&p, size));
    return p;
}

static void dev_free(CUdeviceptr p) {
    if (on_fake)
        free((void *)(uintptr_t)p);
    else
        CU(cu.cuMemFree(p));
}

/* Free device memory in KiB (cuMemGetInfo); -1 on the fake. */
static long long device_free_kib(void) {
    size_t free_bytes = 0, total = 0;
    if (on_fake || mem_get_info == NULL || mem_get_info(&free_bytes, &total) != CUDA_SUCCESS)
        return -1;
    return (long long)(free_bytes / 1024);
}

static long resident_kib(void) {
    FILE *f = fopen("/proc/self/statm", "r");
    long pages = 0, resident = 0;
    if (f) {
        if (fscanf(f, "%ld %ld", &pages, &resident) != 2)
            resident = 0;
        fclose(f);
    }
    return resident * (sysconf(_SC_PAGESIZE) / 1024);
}

/* ---- graphs ------------------------------------------------------------------------------- */

static unsigned scalar_values[2] = {7, 9};

static cgn_kernel bench_kernel(void) {
    return fill_function ? CGN_FUNCTION(fill_function) : CGN_KERNEL(fill_kernel);
}

/* A cgn graph of n kernel nodes; *mid is the middle one. */
static cgn_graph *cgn_graph_of(long n, cgn_node **mid) {
    cgn_graph *g;
    CHECK(cgn_graph_create(&g));
    cgn_arg args[2] = {CGN_ARG(buf_a), CGN_ARG(scalar_values[0])};
    cgn_kernel_desc d = CGN_KERNEL_DESC_INIT;
    d.kernel = bench_kernel();
    d.grid = CGN_DIM3(1, 1, 1);
    d.block = CGN_DIM3(32, 1, 1);
    d.args = args;
    d.num_args = 2;
    for (long i = 0; i < n; i++) {
        cgn_node *node;
        CHECK(cgn_graph_add_kernel(g, NULL, 0, &d, &node));
        if (i == n / 2)
            *mid = node;
    }
    return g;
}

/* The same graph through the raw driver; p receives the middle node's complete params. */
static CUgraph raw_graph_of(long n, CUgraphNode *mid, CUgraphNodeParams *p, void **kparams) {
    CUgraph g;
    CU(drv->cuGraphCreate(&g, 0));
    memset(p, 0, sizeof *p);
    p->type = CU_GRAPH_NODE_TYPE_KERNEL;
    cgn_kernel k = bench_kernel();
    p->kernel.func = k.function;
    p->kernel.kern = k.kernel;
    p->kernel.ctx = k.function ? NULL : cu.context;
    p->kernel.gridDimX = p->kernel.gridDimY = p->kernel.gridDimZ = 1;
    p->kernel.blockDimX = 32;
    p->kernel.blockDimY = p->kernel.blockDimZ = 1;
    kparams[0] = &buf_a;
    kparams[1] = &scalar_values[0];
    p->kernel.kernelParams = kparams;
    for (long i = 0; i < n; i++) {
        CUgraphNode node;
        CU(drv->cuGraphAddKernelNode(&node, g, NULL, 0, (CUDA_KERNEL_NODE_PARAMS_v2 *)&p->kernel));
        if (i == n / 2)
            *mid = node;
    }
    return g;
}

/* ---- measurements ------------------------------------------------------------------------- */

static CUresult null_set_params(CUgraphNode node, CUgraphNodeParams *params) {
    (void)node;
    (void)params;
    return CUDA_SUCCESS;
}

/* The kernel's typed setters (spec cuda.set / cuda.exec_set), which cgn calls. */
static CUresult null_kernel_set(CUgraphNode node, const CUDA_KERNEL_NODE_PARAMS_v2 *params) {
    (void)node;
    (void)params;
    return CUDA_SUCCESS;
}

static CUresult null_kernel_exec_set(CUgraphExec exec, CUgraphNode node,
                                     const CUDA_KERNEL_NODE_PARAMS_v2 *params) {
    (void)exec;
    (void)node;
    (void)params;
    return CUDA_SUCCESS;
}

/* The host callback's and event record's typed setters, which cgn calls for those nodes. */
static CUresult null_host_set(CUgraphNode node, const CUDA_HOST_NODE_PARAMS_v1 *params) {
    (void)node;
    (void)params;
    return CUDA_SUCCESS;
}

static CUresult null_event_set(CUgraphNode node, CUevent event) {
    (void)node;
    (void)event;
    return CUDA_SUCCESS;
}

/* Installs a copy of the driver table whose definition-level setters cgn calls for kernel, host
 * callback and event record nodes (generic and typed) are stubs: "cgn alone".
 * cgn_driver_install(drv) puts the real one back. */
static void install_stub_def_setters(void) {
    static cgn_driver_table stubbed;
    stubbed = *drv;
    stubbed.cuGraphNodeSetParams = null_set_params;
    stubbed.cuGraphKernelNodeSetParams = null_kernel_set;
    stubbed.cuGraphHostNodeSetParams = null_host_set;
    stubbed.cuGraphEventRecordNodeSetEvent = null_event_set;
    cgn_driver_install(&stubbed);
}

typedef PFN_cuGraphKernelNodeSetParams_v12000 kernel_set_fn;
typedef PFN_cuGraphExecKernelNodeSetParams_v12000 exec_kernel_set_fn;
static int typed_kernel_setters(kernel_set_fn *set, exec_kernel_set_fn *exec_set);

static void bench_owners_unchanged(void) {
    cgn_node *node;
    cgn_graph *g = cgn_graph_of(1, &node);
    CUgraphNode raw_node;
    CUgraphNodeParams p;
    void *kparams[2];
    CUgraph rg = raw_graph_of(1, &raw_node, &p, kparams);
    double raw_generic, raw_typed = 0, cgn_args, cgn_grid;

    MEASURE(raw_generic, {
        kparams[1] = &scalar_values[i & 1];
        CU(drv->cuGraphNodeSetParams(raw_node, &p));
    });
    result("def_update_unchanged.raw_cuGraphNodeSetParams", raw_generic, "scalar arg");

    /* Like raw_generic, but alternating between two kernelParams arrays, as cgn's
     * double-buffered argument blocks do: tells whether the driver cares. */
    double raw_alt;
    unsigned alt_values[2] = {7, 9};
    void *alt_params[2][2] = {{&buf_a, &alt_values[0]}, {&buf_a, &alt_values[1]}};
    MEASURE(raw_alt, {
        p.kernel.kernelParams = alt_params[i & 1];
        CU(drv->cuGraphNodeSetParams(raw_node, &p));
    });
    p.kernel.kernelParams = kparams;
    result("def_update_unchanged.raw_alternating_arrays", raw_alt,
           "scalar arg, two kernelParams arrays in turn");

    void *pfn = NULL;
    if (!quick && cgn_driver_proc("cuGraphKernelNodeSetParams", 12000, &pfn) == CGN_OK) {
        PFN_cuGraphKernelNodeSetParams_v12000 set_typed;
        memcpy(&set_typed, &pfn, sizeof pfn);
        MEASURE(raw_typed, {
            kparams[1] = &scalar_values[i & 1];
            CU(set_typed(raw_node, (CUDA_KERNEL_NODE_PARAMS_v2 *)&p.kernel));
        });
        result("def_update_unchanged.raw_cuGraphKernelNodeSetParams", raw_typed, "scalar arg");
    }

    cgn_arg args[2][2] = {{CGN_ARG(buf_a), CGN_ARG(scalar_values[0])},
                          {CGN_ARG(buf_a), CGN_ARG(scalar_values[1])}};
    cgn_kernel_update u[2] = {CGN_KERNEL_UPDATE_INIT, CGN_KERNEL_UPDATE_INIT};
    cgn_kernel_update_set_args(&u[0], args[0], 2);
    cgn_kernel_update_set_args(&u[1], args[1], 2);
    MEASURE(cgn_args, CHECK(cgn_kernel_node_update(node, &u[i & 1])));
    result("def_update_unchanged.cgn_args", cgn_args, "new scalar arg, owners unchanged");
    /* Interleaved with both raw setters: the typed one (which cgn calls, and the faster on the
     * H200) is what the target compares with; the generic one for reference. */
    kernel_set_fn kernel_set;
    exec_kernel_set_fn exec_kernel_set;
    const char *typed_note = typed_kernel_setters(&kernel_set, &exec_kernel_set)
                                 ? "cuGraphKernelNodeSetParams"
                                 : "cuGraphNodeSetParams via a typed-setter stand-in";
    double pair_raw, pair_typed, pair_cgn;
    MEASURE_TRIO(
        pair_typed,
        {
            kparams[1] = &scalar_values[i & 1];
            CU(kernel_set(raw_node, (CUDA_KERNEL_NODE_PARAMS_v2 *)&p.kernel));
        },
        pair_raw,
        {
            kparams[1] = &scalar_values[i & 1];
            CU(drv->cuGraphNodeSetParams(raw_node, &p));
        },
        pair_cgn, CHECK(cgn_kernel_node_update(node, &u[i & 1])));
    char note[160];
    snprintf(note, sizeof note, "%s, scalar arg, interleaved with cgn", typed_note);
    result("interleaved.args.raw_typed", pair_typed, note);
    result("interleaved.args.raw", pair_raw,
           "cuGraphNodeSetParams, scalar arg, interleaved with cgn");
    result("interleaved.args.cgn", pair_cgn, "scalar arg, interleaved with raw");

    double raw_grid;
    MEASURE(raw_grid, {
        p.kernel.gridDimX = 1 + (unsigned)(i & 1);
        CU(drv->cuGraphNodeSetParams(raw_node, &p));
    });
    p.kernel.gridDimX = 1;
    result("def_update_unchanged.raw_grid", raw_grid, "cuGraphNodeSetParams, new grid");

    cgn_kernel_update grid[2] = {CGN_KERNEL_UPDATE_INIT, CGN_KERNEL_UPDATE_INIT};
    cgn_kernel_update_set_grid(&grid[0], CGN_DIM3(1, 1, 1));
    cgn_kernel_update_set_grid(&grid[1], CGN_DIM3(2, 1, 1));
    MEASURE(cgn_grid, CHECK(cgn_kernel_node_update(node, &grid[i & 1])));
    result("def_update_unchanged.cgn_grid", cgn_grid, "new grid, owners unchanged");
    MEASURE_TRIO(
        pair_typed,
        {
            p.kernel.gridDimX = 1 + (unsigned)(i & 1);
            CU(kernel_set(raw_node, (CUDA_KERNEL_NODE_PARAMS_v2 *)&p.kernel));
        },
        pair_raw,
        {
            p.kernel.gridDimX = 1 + (unsigned)(i & 1);
            CU(drv->cuGraphNodeSetParams(raw_node, &p));
        },
        pair_cgn, CHECK(cgn_kernel_node_update(node, &grid[i & 1])));
    p.kernel.gridDimX = 1;
    snprintf(note, sizeof note, "%s, new grid, interleaved with cgn", typed_note);
    result("interleaved.grid.raw_typed", pair_typed, note);
    result("interleaved.grid.raw", pair_raw,
           "cuGraphNodeSetParams, new grid, interleaved with cgn");
    result("interleaved.grid.cgn", pair_cgn, "new grid, interleaved with raw");

    /* cgn's own CPU cost: the same updates with cuGraphNodeSetParams answered by a stub. */
    install_stub_def_setters();
    double cpu_args, cpu_grid;
    MEASURE(cpu_args, CHECK(cgn_kernel_node_update(node, &u[i & 1])));
    MEASURE(cpu_grid, CHECK(cgn_kernel_node_update(node, &grid[i & 1])));
    cgn_driver_install(drv);
    result("cgn_cpu.args", cpu_args, "cgn alone: scalar-arg update with a stub driver call");
    result("cgn_cpu.grid", cpu_grid, "cgn alone: grid update with a stub driver call");
    CHECK(cgn_graph_destroy(g));
    CU(drv->cuGraphDestroy(rg));
}

/* ---- executable level ------------------------------------------------------------------------ */

/* The same one-kernel graph through cgn and through the raw driver, each instantiated once.
 * Static instances only: p.kernel.kernelParams points into the struct. */
typedef struct exec_pair {
    cgn_graph *graph;
    cgn_node *node;
    cgn_exec *exec;
    CUgraph raw_graph;
    CUgraphNode raw_node;
    CUgraphExec raw_exec;
    CUgraphNodeParams p;
    void *kparams[2];
} exec_pair;

static void exec_pair_open(exec_pair *x) {
    x->graph = cgn_graph_of(1, &x->node);
    CHECK(cgn_graph_instantiate(x->graph, &x->exec));
    x->raw_graph = raw_graph_of(1, &x->raw_node, &x->p, x->kparams);
    CU(drv->cuGraphInstantiateWithFlags(&x->raw_exec, x->raw_graph, 0));
}

static void exec_pair_close(exec_pair *x) {
    sync_stream();
    CHECK(cgn_exec_destroy(x->exec));
    CHECK(cgn_graph_destroy(x->graph));
    CU(drv->cuGraphExecDestroy(x->raw_exec));
    CU(drv->cuGraphDestroy(x->raw_graph));
}

/* Partial updates, owners unchanged: a new scalar argument, a new grid. */
static cgn_arg scalar_args[2][2];
static cgn_kernel_update scalar_update[2], grid_update[2];

static void init_updates(void) {
    for (int k = 0; k < 2; k++) {
        scalar_args[k][0] = CGN_ARG(buf_a);
        scalar_args[k][1] = CGN_ARG(scalar_values[k]);
        scalar_update[k] = (cgn_kernel_update)CGN_KERNEL_UPDATE_INIT;
        cgn_kernel_update_set_args(&scalar_update[k], scalar_args[k], 2);
        grid_update[k] = (cgn_kernel_update)CGN_KERNEL_UPDATE_INIT;
        cgn_kernel_update_set_grid(&grid_update[k], CGN_DIM3(1 + (uint32_t)k, 1, 1));
    }
}

static CUresult null_exec_set_params(CUgraphExec exec, CUgraphNode node,
                                     CUgraphNodeParams *params) {
    (void)exec;
    (void)node;
    (void)params;
    return CUDA_SUCCESS;
}

/* Executable-level partial updates, owners unchanged, interleaved with the raw call doing the
 * same (target: at most 1.10x raw cuGraphExecNodeSetParams). */
static void bench_exec_update(void) {
    static exec_pair x;
    exec_pair_open(&x);
    double raw, mine;
    MEASURE_PAIR(raw, {
        x.kparams[1] = &scalar_values[i & 1];
        CU(drv->cuGraphExecNodeSetParams(x.raw_exec, x.raw_node, &x.p));
    }, mine, CHECK(cgn_kernel_exec_update(x.exec, x.node, &scalar_update[i & 1])));
    x.kparams[1] = &scalar_values[0];
    result("exec_update.raw", raw, "cuGraphExecNodeSetParams, new scalar arg (interleaved)");
    result("exec_update.cgn", mine,
           "cgn_kernel_exec_update(args only), new scalar arg (interleaved)");

    MEASURE_PAIR(raw, {
        x.p.kernel.gridDimX = 1 + (unsigned)(i & 1);
        CU(drv->cuGraphExecNodeSetParams(x.raw_exec, x.raw_node, &x.p));
    }, mine, CHECK(cgn_kernel_exec_update(x.exec, x.node, &grid_update[i & 1])));
    x.p.kernel.gridDimX = 1;
    result("exec_update.grid.raw", raw, "cuGraphExecNodeSetParams, new grid (interleaved)");
    result("exec_update.grid.cgn", mine, "cgn_kernel_exec_update(grid only) (interleaved)");

    /* cgn's own CPU cost: the same updates with cuGraphExecNodeSetParams answered by a stub. */
    static cgn_driver_table null_driver;
    null_driver = *drv;
    null_driver.cuGraphExecNodeSetParams = null_exec_set_params;
    null_driver.cuGraphExecKernelNodeSetParams = null_kernel_exec_set;
    cgn_driver_install(&null_driver);
    double cpu_args, cpu_grid;
    MEASURE(cpu_args, CHECK(cgn_kernel_exec_update(x.exec, x.node, &scalar_update[i & 1])));
    MEASURE(cpu_grid, CHECK(cgn_kernel_exec_update(x.exec, x.node, &grid_update[i & 1])));
    cgn_driver_install(drv);
    /* The executable ran nothing but the stub's versions: put back what it really has. */
    CHECK(cgn_kernel_exec_update(x.exec, x.node, &grid_update[0]));
    CHECK(cgn_kernel_exec_update(x.exec, x.node, &scalar_update[0]));
    result("exec_cgn_cpu.args", cpu_args, "cgn alone: exec scalar-arg update, stub driver call");
    result("exec_cgn_cpu.grid", cpu_grid, "cgn alone: exec grid update, stub driver call");
    exec_pair_close(&x);
}

/* Loops that launch, measured like MEASURE_PAIR: the variants take turns batch by batch. A
 * batch runs in windows of SYNC_EVERY iterations with a stream sync after each window, outside
 * the timed region. host: host time per iteration without the syncs (with self_timed, the sum
 * of what each step measured around its own timed part); wall: per iteration with the syncs. */
typedef struct loop_variant {
    double (*step)(long i); /* one iteration; returns the ns of its timed part when self_timed */
    double host_ns, wall_ns;
} loop_variant;

static void measure_loops(loop_variant *v, int n, int self_timed) {
    double host[4][64], wall[4][64];
    for (int r = -1; r < REPS; r++) { /* r = -1 warms up */
        for (int k = 0; k < n; k++) {
            double timed = 0, start = now_ns();
            for (long i = 0; i < BATCH; i += SYNC_EVERY) {
                long end = i + SYNC_EVERY < BATCH ? i + SYNC_EVERY : BATCH;
                double inner = 0, t0 = now_ns();
                for (long j = i; j < end; j++)
                    inner += v[k].step(j);
                timed += self_timed ? inner : now_ns() - t0;
                sync_stream();
            }
            if (r >= 0) {
                host[k][r] = timed / BATCH;
                wall[k][r] = (now_ns() - start) / BATCH;
            }
        }
    }
    for (int k = 0; k < n; k++) {
        v[k].host_ns = median(host[k], REPS);
        v[k].wall_ns = median(wall[k], REPS);
    }
}

/* Update + launch, every iteration: cgn against the raw driver loop. */
static exec_pair loop_x;

static double step_loop_cgn(long i) {
    CHECK(cgn_kernel_exec_update(loop_x.exec, loop_x.node, &scalar_update[i & 1]));
    CHECK(cgn_exec_launch(loop_x.exec, stream));
    return 0;
}

static double step_loop_raw(long i) {
    loop_x.kparams[1] = &scalar_values[i & 1];
    CU(drv->cuGraphExecNodeSetParams(loop_x.raw_exec, loop_x.raw_node, &loop_x.p));
    CU(drv->cuGraphLaunch(loop_x.raw_exec, stream));
    return 0;
}

static void bench_exec_loop(void) {
    exec_pair_open(&loop_x);
    loop_variant v[2] = {{step_loop_raw, 0, 0}, {step_loop_cgn, 0, 0}};
    measure_loops(v, 2, 0);
    result("exec_loop.raw", v[0].host_ns,
           "cuGraphExecNodeSetParams + cuGraphLaunch, new scalar arg (host, syncs excluded)");
    result("exec_loop.cgn", v[1].host_ns,
           "cgn_kernel_exec_update(args) + cgn_exec_launch (host, syncs excluded)");
    result("exec_loop.raw_wall", v[0].wall_ns, "raw loop per iteration with a sync every 64");
    result("exec_loop.cgn_wall", v[1].wall_ns, "cgn loop per iteration with a sync every 64");
    exec_pair_close(&loop_x);
}

/* Retention cost per launch: cgn_exec_launch with nothing waiting, with a superseded version
 * waiting after every update (a new owner each iteration), and raw cuGraphLaunch. Each step
 * times only its launch call; its update is untimed. */
static exec_pair ret_x;
static cgn_graph *ret_graph;
static cgn_node *ret_node;
static cgn_exec *ret_exec;
static long ret_created, ret_live_max;
static atomic_long ret_released;

static void count_retention_release(void *resource) {
    (void)resource;
    atomic_fetch_add(&ret_released, 1);
}

static double step_launch_idle(long i) {
    CHECK(cgn_kernel_exec_update(ret_x.exec, ret_x.node, &scalar_update[i & 1]));
    double t0 = now_ns();
    CHECK(cgn_exec_launch(ret_x.exec, stream));
    return now_ns() - t0;
}

static double step_launch_waiting(long i) {
    cgn_owner *o;
    CHECK(cgn_owner_create(NULL, count_retention_release, &o));
    ret_created++;
    cgn_arg args[2] = {CGN_ARG_OWNED(buf_a, o), CGN_ARG(scalar_values[i & 1])};
    cgn_kernel_update u = CGN_KERNEL_UPDATE_INIT;
    cgn_kernel_update_set_args(&u, args, 2);
    CHECK(cgn_kernel_exec_update(ret_exec, ret_node, &u)); /* retires the previous version */
    CHECK(cgn_owner_release(o));
    double t0 = now_ns();
    CHECK(cgn_exec_launch(ret_exec, stream));
    double t = now_ns() - t0;
    long live = ret_created - atomic_load(&ret_released);
    if (live > ret_live_max)
        ret_live_max = live;
    return t;
}

static double step_launch_raw(long i) {
    ret_x.kparams[1] = &scalar_values[i & 1];
    CU(drv->cuGraphExecNodeSetParams(ret_x.raw_exec, ret_x.raw_node, &ret_x.p));
    double t0 = now_ns();
    CU(drv->cuGraphLaunch(ret_x.raw_exec, stream));
    return now_ns() - t0;
}

/* Counts the events cgn records and queries (a pass of its own, not timed). */
static long events_recorded, events_queried;
static CUresult counting_event_record(CUevent e, CUstream s) {
    events_recorded++;
    return drv->cuEventRecord(e, s);
}
static CUresult counting_event_query(CUevent e) {
    events_queried++;
    return drv->cuEventQuery(e);
}

static void bench_retention(void) {
    exec_pair_open(&ret_x);
    ret_graph = cgn_graph_of(1, &ret_node);
    CHECK(cgn_graph_instantiate(ret_graph, &ret_exec));
    loop_variant v[3] = {{step_launch_raw, 0, 0}, {step_launch_idle, 0, 0},
                         {step_launch_waiting, 0, 0}};
    measure_loops(v, 3, 1);
    result("retention.raw", v[0].host_ns, "cuGraphLaunch (timed alone; sync every 64 excluded)");
    result("retention.cgn_idle", v[1].host_ns, "cgn_exec_launch, no superseded versions waiting");
    result("retention.cgn_waiting", v[2].host_ns,
           "cgn_exec_launch, a version superseded before every launch (new owner each update)");

    static cgn_driver_table counting;
    counting = *drv;
    counting.cuEventRecord = counting_event_record;
    counting.cuEventQuery = counting_event_query;
    cgn_driver_install(&counting);
    events_recorded = events_queried = 0;
    long launches = quick ? 4 * SYNC_EVERY : 32 * SYNC_EVERY;
    for (long i = 0; i < launches; i++) {
        (void)step_launch_waiting(i);
        if ((i + 1) % SYNC_EVERY == 0)
            sync_stream();
    }
    cgn_driver_install(drv);
    result("retention.events_per_1000_launches",
           1000.0 * (double)events_recorded / (double)launches,
           "fences (cuEventRecord) with a version superseded before every launch");
    result("retention.queries_per_launch", (double)events_queried / (double)launches,
           "cuEventQuery calls per launch + update (polls at both)");
    result_count("retention.live_owners_max", ret_live_max, "superseded owners alive at most");

    sync_stream();
    CHECK(cgn_exec_destroy(ret_exec));
    CHECK(cgn_graph_destroy(ret_graph));
    exec_pair_close(&ret_x);
    for (int k = 0; k < 5000 && atomic_load(&ret_released) != ret_created; k++) {
        cgn_collect();
        struct timespec ms = {0, 1000000};
        nanosleep(&ms, NULL);
    }
    if (atomic_load(&ret_released) != ret_created)
        fail_check("retention: not every owner was released after destroy");
    if (ret_live_max > 4 * SYNC_EVERY)
        fail_check("retention: superseded owners were not bounded");
}

static void noop_release(void *resource) { (void)resource; }

static void bench_owners_changed(void) {
    cgn_node *node;
    cgn_graph *g = cgn_graph_of(1, &node);
    CUgraphNode raw_node;
    CUgraphNodeParams p;
    void *kparams[2];
    CUgraph rg = raw_graph_of(1, &raw_node, &p, kparams);
    CUdeviceptr bufs[2] = {buf_a, buf_b};
    cgn_owner *owners[2];
    CHECK(cgn_owner_create(&bufs[0], noop_release, &owners[0]));
    CHECK(cgn_owner_create(&bufs[1], noop_release, &owners[1]));
    double raw, cgn_kernel_ns, cgn_memset_ns;

    cgn_arg args[2][2] = {{CGN_ARG_OWNED(bufs[0], owners[0]), CGN_ARG(scalar_values[0])},
                          {CGN_ARG_OWNED(bufs[1], owners[1]), CGN_ARG(scalar_values[0])}};
    cgn_kernel_update u[2] = {CGN_KERNEL_UPDATE_INIT, CGN_KERNEL_UPDATE_INIT};
    cgn_kernel_update_set_args(&u[0], args[0], 2);
    cgn_kernel_update_set_args(&u[1], args[1], 2);
    cgn_node *fill;
    cgn_memset_desc md = CGN_MEMSET_DESC_INIT;
    md.dst = buf_a;
    md.dst_owner = owners[0];
    md.value = 1;
    md.width = 4;
    CHECK(cgn_graph_add_memset(g, NULL, 0, &md, &fill));
    cgn_memset_update mu[2] = {CGN_MEMSET_UPDATE_INIT, CGN_MEMSET_UPDATE_INIT};
    cgn_memset_update_set_dst(&mu[0], bufs[0], owners[0]);
    cgn_memset_update_set_dst(&mu[1], bufs[1], owners[1]);

    /* The raw driver doing the same safely by hand: a user object per version, moved onto the
     * graph, then the params, then the graph's reference to the previous version dropped.
     * Interleaved with both cgn updates batch by batch: a phase change of the host mid-section
     * once read as a ratio of 3.1 (run 74, measured one after the other). */
    CUuserObject previous = NULL;
    static int payload;
    MEASURE_TRIO(
        raw,
        {
            CUuserObject obj;
            CU(drv->cuUserObjectCreate(&obj, &payload, noop_release, 1,
                                       CU_USER_OBJECT_NO_DESTRUCTOR_SYNC));
            CU(drv->cuGraphRetainUserObject(rg, obj, 1, CU_GRAPH_USER_OBJECT_MOVE));
            kparams[0] = &bufs[i & 1];
            CU(drv->cuGraphNodeSetParams(raw_node, &p));
            if (previous)
                CU(drv->cuGraphReleaseUserObject(rg, previous, 1));
            previous = obj;
        },
        cgn_kernel_ns, CHECK(cgn_kernel_node_update(node, &u[i & 1])), cgn_memset_ns,
        CHECK(cgn_memset_node_update(fill, &mu[(i + 1) & 1])));
    result("def_update_owners.raw_by_hand", raw,
           "user object create+retain+set+release old (interleaved with cgn)");
    result("def_update_owners.cgn_kernel_args", cgn_kernel_ns,
           "new buffer arg with its owner (interleaved)");
    result("def_update_owners.cgn_memset_dst", cgn_memset_ns,
           "new dst with its owner (interleaved)");

    CHECK(cgn_graph_destroy(g));
    CU(drv->cuGraphDestroy(rg));
    cgn_collect();
    CHECK(cgn_owner_release(owners[0]));
    CHECK(cgn_owner_release(owners[1]));
}

/* The typed memcpy setter's stand-in on the fake: the generic setter with these params. */
static CUgraphNodeParams *memcpy_stand_in_params;
static CUresult CUDAAPI memcpy_set_stand_in(CUgraphNode node, const CUDA_MEMCPY3D_v2 *copy) {
    memcpy_stand_in_params->memcpy.copyParams = *copy;
    return drv->cuGraphNodeSetParams(node, memcpy_stand_in_params);
}

static void host_fn_a(void *data) { (void)data; }
static void host_fn_b(void *data) { (void)data; }

/* The other node types: a cgn update interleaved with the raw setters doing the same (the typed
 * one and the generic cuGraphNodeSetParams). */
static void bench_other_types(int fake) {
    double raw, mine;
    CUgraph rg;
    CU(drv->cuGraphCreate(&rg, 0));
    cgn_graph *g;
    CHECK(cgn_graph_create(&g));

    /* memcpy: a new size, interleaved with the raw call. In a graph whose raw handle was
     * handed out (cgn_graph_raw), cgn reads the descriptor back first (one extra driver call:
     * the form check against changes made behind its back); in one only cgn reaches, not. */
    CUmemorytype type = fake ? CU_MEMORYTYPE_HOST : CU_MEMORYTYPE_DEVICE;
    CUgraphNodeParams p;
    memset(&p, 0, sizeof p);
    p.type = CU_GRAPH_NODE_TYPE_MEMCPY;
    p.memcpy.copyCtx = cu.context;
    p.memcpy.copyParams.srcMemoryType = p.memcpy.copyParams.dstMemoryType = type;
    if (fake) {
        p.memcpy.copyParams.srcHost = (void *)(uintptr_t)buf_a;
        p.memcpy.copyParams.dstHost = (void *)(uintptr_t)buf_b;
    } else {
        p.memcpy.copyParams.srcDevice = buf_a;
        p.memcpy.copyParams.dstDevice = buf_b;
    }
    p.memcpy.copyParams.WidthInBytes = 8;
    p.memcpy.copyParams.Height = p.memcpy.copyParams.Depth = 1;
    CUgraphNode raw_copy;
    CU(drv->cuGraphAddMemcpyNode(&raw_copy, rg, NULL, 0, &p.memcpy.copyParams, cu.context));
    cgn_memcpy_desc md = CGN_MEMCPY_DESC_INIT;
    md.dst = buf_b;
    md.src = buf_a;
    md.size = 8;
    cgn_node *copy, *exposed_copy;
    CHECK(cgn_graph_add_memcpy(g, NULL, 0, &md, &copy));
    cgn_graph *exposed;
    CHECK(cgn_graph_create(&exposed));
    CHECK(cgn_graph_add_memcpy(exposed, NULL, 0, &md, &exposed_copy));
    CUgraph exposed_raw;
    CHECK(cgn_graph_raw(exposed, &exposed_raw));
    cgn_memcpy_update mu[2] = {CGN_MEMCPY_UPDATE_INIT, CGN_MEMCPY_UPDATE_INIT};
    cgn_memcpy_update_set_size(&mu[0], 8);
    cgn_memcpy_update_set_size(&mu[1], 16);
    /* The typed setter (on the fake, which has the generic entry points alone, a stand-in that
     * calls those), interleaved with the generic one and cgn: the target compares with the
     * faster of the two. */
    memcpy_stand_in_params = &p;
    PFN_cuGraphMemcpyNodeSetParams_v10000 memcpy_set = memcpy_set_stand_in;
    void *memcpy_set_pfn = NULL;
    int memcpy_typed =
        !fake && cgn_driver_proc("cuGraphMemcpyNodeSetParams", 10000, &memcpy_set_pfn) == CGN_OK;
    if (memcpy_typed)
        memcpy(&memcpy_set, &memcpy_set_pfn, sizeof memcpy_set_pfn);
    double typed;
    MEASURE_TRIO(
        typed,
        {
            p.memcpy.copyParams.WidthInBytes = 8 + 8 * (size_t)(i & 1);
            CU(memcpy_set(raw_copy, &p.memcpy.copyParams));
        },
        raw,
        {
            p.memcpy.copyParams.WidthInBytes = 8 + 8 * (size_t)(i & 1);
            CU(drv->cuGraphNodeSetParams(raw_copy, &p));
        },
        mine, CHECK(cgn_memcpy_node_update(copy, &mu[i & 1])));
    result("other.memcpy_size.raw_typed", typed,
           memcpy_typed
               ? "cuGraphMemcpyNodeSetParams, new size (interleaved)"
               : "cuGraphNodeSetParams via a typed-setter stand-in, new size (interleaved)");
    result("other.memcpy_size.raw", raw, "cuGraphNodeSetParams, new size (interleaved)");
    result("other.memcpy_size.cgn", mine, "cgn_memcpy_node_update(size) (interleaved)");
    double raw_exposed, mine_exposed;
    MEASURE_PAIR(
        raw_exposed,
        {
            p.memcpy.copyParams.WidthInBytes = 8 + 8 * (size_t)(i & 1);
            CU(drv->cuGraphNodeSetParams(raw_copy, &p));
        },
        mine_exposed, CHECK(cgn_memcpy_node_update(exposed_copy, &mu[i & 1])));
    result("other.memcpy_size.raw_exposed", raw_exposed,
           "cuGraphNodeSetParams, new size (interleaved with the next)");
    result("other.memcpy_size.cgn_exposed", mine_exposed,
           "the same in a graph whose raw handle was handed out: read back first (interleaved)");
    CHECK(cgn_graph_destroy(exposed));

    /* memcpy from pinned host memory: a new size, where cgn checks that the copy's last byte is
     * mapped (probed once, then found in the thread's cache of checked extents). GPU only (on
     * the fake the host buffers are plain malloc). */
    if (!fake) {
        void *pinned = NULL;
        CU(cu.cuMemAllocHost(&pinned, 64));
        CUgraphNodeParams hp = p;
        hp.memcpy.copyParams.srcMemoryType = CU_MEMORYTYPE_HOST;
        hp.memcpy.copyParams.srcDevice = 0;
        hp.memcpy.copyParams.srcHost = pinned;
        CUgraphNode raw_pinned;
        CU(drv->cuGraphAddMemcpyNode(&raw_pinned, rg, NULL, 0, &hp.memcpy.copyParams,
                                     cu.context));
        cgn_memcpy_desc pd = md;
        pd.src = (CUdeviceptr)(uintptr_t)pinned;
        cgn_node *pinned_copy;
        CHECK(cgn_graph_add_memcpy(g, NULL, 0, &pd, &pinned_copy));
        double none;
        MEASURE_TRIO(raw, {
            hp.memcpy.copyParams.WidthInBytes = 8 + 8 * (size_t)(i & 1);
            CU(drv->cuGraphNodeSetParams(raw_pinned, &hp));
        }, mine, CHECK(cgn_memcpy_node_update(pinned_copy, &mu[i & 1])), none, (void)0);
        (void)none;
        result("other.memcpy_pinned_size.raw", raw,
               "cuGraphNodeSetParams, new size, from pinned host memory (interleaved)");
        result("other.memcpy_pinned_size.cgn", mine,
               "cgn_memcpy_node_update(size), from pinned host memory: extent checked once, "
               "then cached (interleaved)");
        CHECK(cgn_node_destroy(pinned_copy));
        CU(drv->cuGraphDestroyNode(raw_pinned));
        CU(cu.cuMemFreeHost(pinned));
    }

    /* host callback: a new function. */
    memset(&p, 0, sizeof p);
    p.type = CU_GRAPH_NODE_TYPE_HOST;
    p.host.fn = host_fn_a;
    CUgraphNode raw_host;
    CU(drv->cuGraphAddHostNode(&raw_host, rg, NULL, 0, (CUDA_HOST_NODE_PARAMS_v1 *)&p.host));
    CUhostFn fns[2] = {host_fn_a, host_fn_b};
    cgn_host_callback_desc hd = CGN_HOST_CALLBACK_DESC_INIT;
    hd.fn = host_fn_a;
    cgn_node *host;
    CHECK(cgn_graph_add_host_callback(g, NULL, 0, &hd, &host));
    cgn_host_callback_update hu[2] = {CGN_HOST_CALLBACK_UPDATE_INIT,
                                      CGN_HOST_CALLBACK_UPDATE_INIT};
    cgn_host_callback_update_set_fn(&hu[0], host_fn_a, NULL, NULL, NULL, 0);
    cgn_host_callback_update_set_fn(&hu[1], host_fn_b, NULL, NULL, NULL, 0);
    CUDA_HOST_NODE_PARAMS_v1 host_params[2] = {{host_fn_a, NULL}, {host_fn_b, NULL}};
    MEASURE_TRIO(
        typed, CU(drv->cuGraphHostNodeSetParams(raw_host, &host_params[i & 1])), raw,
        {
            p.host.fn = fns[i & 1];
            CU(drv->cuGraphNodeSetParams(raw_host, &p));
        },
        mine, CHECK(cgn_host_callback_node_update(host, &hu[i & 1])));
    result("other.host_fn.raw", raw, "cuGraphNodeSetParams, new function (interleaved)");
    result("other.host_fn.raw_typed", typed,
           "cuGraphHostNodeSetParams, new function (interleaved)");
    result("other.host_fn.cgn", mine, "cgn_host_callback_node_update(fn) (interleaved)");
    /* cgn's own CPU for it: the same update with the setter answered by a stub. */
    double alone;
    install_stub_def_setters();
    MEASURE(alone, CHECK(cgn_host_callback_node_update(host, &hu[i & 1])));
    cgn_driver_install(drv);
    result("other.host_fn.cgn_cpu", alone, "cgn alone: new function, stub setter");

    /* event record: a new event. */
    CUevent events[2];
#ifdef CGN_BENCH_WITH_FAKE
    if (fake) {
        events[0] = cgn_fake_event_create();
        events[1] = cgn_fake_event_create();
    }
#endif
    if (!fake) {
        CU(cu.cuEventCreate(&events[0], CU_EVENT_DISABLE_TIMING));
        CU(cu.cuEventCreate(&events[1], CU_EVENT_DISABLE_TIMING));
    }
    memset(&p, 0, sizeof p);
    p.type = CU_GRAPH_NODE_TYPE_EVENT_RECORD;
    p.eventRecord.event = events[0];
    CUgraphNode raw_record;
    CU(drv->cuGraphAddEventRecordNode(&raw_record, rg, NULL, 0, events[0]));
    cgn_event_record_desc ed = CGN_EVENT_RECORD_DESC_INIT;
    ed.event = events[0];
    cgn_node *record;
    CHECK(cgn_graph_add_event_record(g, NULL, 0, &ed, &record));
    cgn_event_record_update eu[2] = {CGN_EVENT_RECORD_UPDATE_INIT, CGN_EVENT_RECORD_UPDATE_INIT};
    cgn_event_record_update_set_event(&eu[0], events[0], NULL);
    cgn_event_record_update_set_event(&eu[1], events[1], NULL);
    MEASURE_TRIO(
        typed, CU(drv->cuGraphEventRecordNodeSetEvent(raw_record, events[i & 1])), raw,
        {
            p.eventRecord.event = events[i & 1];
            CU(drv->cuGraphNodeSetParams(raw_record, &p));
        },
        mine, CHECK(cgn_event_record_node_update(record, &eu[i & 1])));
    result("other.event_record.raw", raw, "cuGraphNodeSetParams, new event (interleaved)");
    result("other.event_record.raw_typed", typed,
           "cuGraphEventRecordNodeSetEvent, new event (interleaved)");
    result("other.event_record.cgn", mine, "cgn_event_record_node_update(event) (interleaved)");
    install_stub_def_setters();
    MEASURE(alone, CHECK(cgn_event_record_node_update(record, &eu[i & 1])));
    cgn_driver_install(drv);
    result("other.event_record.cgn_cpu", alone, "cgn alone: new event, stub setter");

    CHECK(cgn_graph_destroy(g));
    CU(drv->cuGraphDestroy(rg));
    if (!fake) {
        CU(cu.cuEventDestroy(events[0]));
        CU(cu.cuEventDestroy(events[1]));
    }
}

static void bench_graph_size(void) {
    static const long sizes[] = {1, 100, 10000, 100000};
    int count = quick ? 2 : 4;
    for (int s = 0; s < count; s++) {
        long n = sizes[s];
        cgn_node *mid;
        cgn_graph *g = cgn_graph_of(n, &mid);
        CUgraphNode raw_mid;
        CUgraphNodeParams p;
        void *kparams[2];
        CUgraph rg = raw_graph_of(n, &raw_mid, &p, kparams);
        cgn_arg args[2][2] = {{CGN_ARG(buf_a), CGN_ARG(scalar_values[0])},
                              {CGN_ARG(buf_a), CGN_ARG(scalar_values[1])}};
        cgn_kernel_update u[2] = {CGN_KERNEL_UPDATE_INIT, CGN_KERNEL_UPDATE_INIT};
        cgn_kernel_update_set_args(&u[0], args[0], 2);
        cgn_kernel_update_set_args(&u[1], args[1], 2);
        double raw, mine;
        MEASURE(raw, {
            kparams[1] = &scalar_values[i & 1];
            CU(drv->cuGraphNodeSetParams(raw_mid, &p));
        });
        MEASURE(mine, CHECK(cgn_kernel_node_update(mid, &u[i & 1])));
        char key[96];
        snprintf(key, sizeof key, "graph_size.%ld.raw", n);
        result(key, raw, "middle node, scalar arg");
        snprintf(key, sizeof key, "graph_size.%ld.cgn", n);
        result(key, mine, "middle node, scalar arg");

        if (n == 100 || n == 10000) {
            int reps = quick ? 1 : 5;
            double t_raw[8], t_cgn[8];
            for (int r = 0; r < reps; r++) {
                CUgraphExec e;
                double t0 = now_ns();
                CU(drv->cuGraphInstantiateWithFlags(&e, rg, 0));
                t_raw[r] = now_ns() - t0;
                CU(drv->cuGraphExecDestroy(e));
                cgn_exec *ce;
                t0 = now_ns();
                CHECK(cgn_graph_instantiate(g, &ce));
                t_cgn[r] = now_ns() - t0;
                CHECK(cgn_exec_destroy(ce));
            }
            snprintf(key, sizeof key, "instantiate.%ld.raw", n);
            result(key, median(t_raw, reps), "cuGraphInstantiateWithFlags");
            snprintf(key, sizeof key, "instantiate.%ld.cgn", n);
            result(key, median(t_cgn, reps), "cgn_graph_instantiate");
        }
        CHECK(cgn_graph_destroy(g));
        CU(drv->cuGraphDestroy(rg));
    }
}

/* ---- argument-level updates: one pointer of a 6-argument kernel ---------------------------- */

/* axpy_tagged(float *out, const float *x, const float *y, float a, unsigned n,
 * unsigned long long tag): 40 bytes of arguments, at offsets 0, 8, 16, 24, 28, 32. */
typedef struct six_args {
    CUdeviceptr out, x, y;
    float a;
    unsigned n;
    unsigned long long tag;
} six_args;

static cgn_kernel six_kernel_handle(void) {
    return six_function ? CGN_FUNCTION(six_function) : CGN_KERNEL(six_kernel);
}

/* The raw driver's view of kernel k: func, or kern with the context, as raw_graph_of does. */
static void raw_kernel_params(cgn_kernel k, CUDA_KERNEL_NODE_PARAMS_v2 *p) {
    memset(p, 0, sizeof *p);
    p->func = k.function;
    p->kern = k.kernel;
    p->ctx = k.function ? NULL : cu.context;
    p->gridDimX = p->gridDimY = p->gridDimZ = 1;
    p->blockDimX = 32;
    p->blockDimY = p->blockDimZ = 1;
}

static void six_kparams(six_args *a, void *kparams[6]) {
    kparams[0] = &a->out;
    kparams[1] = &a->x;
    kparams[2] = &a->y;
    kparams[3] = &a->a;
    kparams[4] = &a->n;
    kparams[5] = &a->tag;
}

/* The typed setters the targets compare with. On the fake, which has only the generic entry
 * points, stand-ins that convert to CUgraphNodeParams and call those. */

static void generic_kernel_params(const CUDA_KERNEL_NODE_PARAMS_v2 *k, CUgraphNodeParams *p) {
    memset(p, 0, sizeof *p);
    p->type = CU_GRAPH_NODE_TYPE_KERNEL;
    p->kernel.func = k->func;
    p->kernel.gridDimX = k->gridDimX;
    p->kernel.gridDimY = k->gridDimY;
    p->kernel.gridDimZ = k->gridDimZ;
    p->kernel.blockDimX = k->blockDimX;
    p->kernel.blockDimY = k->blockDimY;
    p->kernel.blockDimZ = k->blockDimZ;
    p->kernel.sharedMemBytes = k->sharedMemBytes;
    p->kernel.kernelParams = k->kernelParams;
    p->kernel.extra = k->extra;
    p->kernel.kern = k->kern;
    p->kernel.ctx = k->ctx;
}

static CUresult CUDAAPI fake_kernel_set(CUgraphNode node, const CUDA_KERNEL_NODE_PARAMS_v2 *k) {
    CUgraphNodeParams p;
    generic_kernel_params(k, &p);
    return drv->cuGraphNodeSetParams(node, &p);
}

static CUresult CUDAAPI fake_exec_kernel_set(CUgraphExec exec, CUgraphNode node,
                                     const CUDA_KERNEL_NODE_PARAMS_v2 *k) {
    CUgraphNodeParams p;
    generic_kernel_params(k, &p);
    return drv->cuGraphExecNodeSetParams(exec, node, &p);
}

/* 1 with the driver's typed setters; 0 with the stand-ins (the fake, or a driver without them,
 * which the notes then say). */
static int typed_kernel_setters(kernel_set_fn *set, exec_kernel_set_fn *exec_set) {
    *set = fake_kernel_set;
    *exec_set = fake_exec_kernel_set;
    void *pfn = NULL, *exec_pfn = NULL;
    if (on_fake || cgn_driver_proc("cuGraphKernelNodeSetParams", 12000, &pfn) != CGN_OK ||
        cgn_driver_proc("cuGraphExecKernelNodeSetParams", 12000, &exec_pfn) != CGN_OK)
        return 0;
    memcpy(set, &pfn, sizeof pfn);
    memcpy(exec_set, &exec_pfn, sizeof exec_pfn);
    return 1;
}

/* ---- cgn's own time right after a driver call ------------------------------------------------ */

/* Lines for the calibration rows: 64 cache lines, each naming the next in a fixed order. */
typedef struct bench_line {
    alignas(64) size_t next;
} bench_line;
static bench_line chase_lines[64];
static volatile size_t chase_sink;

/* Follows `depth` lines, each load waiting for the one before (a handle -> record -> block
 * chain, as cgn's lookups are). */
static void __attribute__((noinline)) chase(int depth) {
    size_t at = 0;
    for (int d = 0; d < depth; d++)
        at = chase_lines[at].next;
    chase_sink = at;
}

/* Reads `lines` lines, none waiting for another. */
static void __attribute__((noinline)) touch(int lines) {
    size_t sum = 0;
    for (int l = 0; l < lines; l++)
        sum += chase_lines[l].next;
    chase_sink = sum;
}

/* Where the definition-level gap goes that "cgn alone" (setter stubbed, a tight loop) does not
 * explain: the same cgn update with its setter stubbed, timed right after a real driver call
 * (raw + cgn, minus raw, interleaved), against the same update in a tight loop; and, to
 * calibrate, what reading lines costs after a driver call and in a tight loop. */
static void bench_insitu(void) {
    kernel_set_fn set_typed;
    exec_kernel_set_fn exec_set_typed;
    if (!typed_kernel_setters(&set_typed, &exec_set_typed))
        return; /* the rows compare with the driver's typed setter only */
    (void)exec_set_typed;
    cgn_node *node;
    cgn_graph *g = cgn_graph_of(1, &node);
    CUgraphNode raw_node;
    CUgraphNodeParams p;
    void *kparams[2];
    CUgraph rg = raw_graph_of(1, &raw_node, &p, kparams);
    CUDA_KERNEL_NODE_PARAMS_v2 *kp = (CUDA_KERNEL_NODE_PARAMS_v2 *)&p.kernel;
    for (size_t l = 0; l < 64; l++)
        chase_lines[l].next = (l * 37 + 11) % 64; /* one cycle through all 64 lines */
    cgn_arg args[2][2] = {{CGN_ARG(buf_a), CGN_ARG(scalar_values[0])},
                          {CGN_ARG(buf_a), CGN_ARG(scalar_values[1])}};
    cgn_kernel_update u[2] = {CGN_KERNEL_UPDATE_INIT, CGN_KERNEL_UPDATE_INIT};
    cgn_kernel_update_set_args(&u[0], args[0], 2);
    cgn_kernel_update_set_args(&u[1], args[1], 2);
#define RAW_CALL                                                                                   \
    do {                                                                                           \
        kparams[1] = &scalar_values[i & 1];                                                        \
        CU(set_typed(raw_node, kp));                                                               \
    } while (0)
    double raw, real, none;
    MEASURE_TRIO(raw, RAW_CALL, real, CHECK(cgn_kernel_node_update(node, &u[i & 1])), none,
                 (void)0);
    (void)none;
    result("insitu.raw_typed", raw, "cuGraphKernelNodeSetParams, new scalar arg");
    result("insitu.cgn_real", real, "cgn, new scalar arg, real setter (interleaved with raw)");

    install_stub_def_setters();
    double raw2, both, alone;
    MEASURE_TRIO(
        raw2, RAW_CALL, both,
        {
            RAW_CALL;
            CHECK(cgn_kernel_node_update(node, &u[i & 1]));
        },
        alone, CHECK(cgn_kernel_node_update(node, &u[i & 1])));
    cgn_driver_install(drv);
    result("insitu.raw_typed2", raw2, "the raw call of the stubbed rows");
    result("insitu.cgn_stub_after_raw", both - raw2,
           "cgn alone (setter stubbed) right after a raw call: (raw + cgn) - raw");
    result("insitu.cgn_stub_alone", alone, "cgn alone (setter stubbed), tight loop");

    static const int depths[] = {6, 24};
    for (int c = 0; c < 2; c++) {
        int d = depths[c];
        double r, after_chase, chase_alone, r2, after_touch, touch_alone;
        MEASURE_TRIO(
            r, RAW_CALL, after_chase,
            {
                RAW_CALL;
                chase(d);
            },
            chase_alone, chase(d));
        MEASURE_TRIO(
            r2, RAW_CALL, after_touch,
            {
                RAW_CALL;
                touch(d);
            },
            touch_alone, touch(d));
        char key[64], note[96];
        snprintf(key, sizeof key, "insitu.chain%d_after_raw", d);
        snprintf(note, sizeof note, "%d dependent line loads right after a raw call", d);
        result(key, after_chase - r, note);
        snprintf(key, sizeof key, "insitu.chain%d_alone", d);
        snprintf(note, sizeof note, "%d dependent line loads, tight loop", d);
        result(key, chase_alone, note);
        snprintf(key, sizeof key, "insitu.lines%d_after_raw", d);
        snprintf(note, sizeof note, "%d independent line loads right after a raw call", d);
        result(key, after_touch - r2, note);
        snprintf(key, sizeof key, "insitu.lines%d_alone", d);
        snprintf(note, sizeof note, "%d independent line loads, tight loop", d);
        result(key, touch_alone, note);
    }
#undef RAW_CALL
    CHECK(cgn_graph_destroy(g));
    CU(drv->cuGraphDestroy(rg));
}

/* Argument 0 (out) of a node as the driver has it. */
static CUdeviceptr six_out_of(CUgraphNode raw) {
    CUDA_KERNEL_NODE_PARAMS_v2 k;
    CU(drv->cuGraphKernelNodeGetParams(raw, &k));
    CUdeviceptr out;
    memcpy(&out, k.kernelParams[0], sizeof out);
    return out;
}

/* One pointer argument of a 6-argument kernel replaced per call, alternating two buffers:
 * cgn_kernel_node_update with one cgn_kernel_update_set_arg (the update built in the loop, as an
 * application does) against the raw driver with a kernelParams array the caller keeps and
 * changes one pointer in (typed cuGraphKernelNodeSetParams: target at most 1.15x; generic
 * cuGraphNodeSetParams, which cgn calls, for reference); then the same at executable level, and
 * cgn's own CPU with the driver call stubbed. */
static void bench_arg_update(void) {
    CUdeviceptr bufs[2] = {buf_a, buf_b};
    six_args init = {buf_a, buf_b, buf_a, 2.0f, 4, 42};
    kernel_set_fn set_typed;
    exec_kernel_set_fn exec_set_typed;
    int typed = typed_kernel_setters(&set_typed, &exec_set_typed);

    /* cgn's node and executable. */
    cgn_graph *g;
    CHECK(cgn_graph_create(&g));
    cgn_arg args[6] = {CGN_ARG(init.out), CGN_ARG(init.x), CGN_ARG(init.y),
                       CGN_ARG(init.a),   CGN_ARG(init.n), CGN_ARG(init.tag)};
    cgn_kernel_desc d = CGN_KERNEL_DESC_INIT;
    d.kernel = six_kernel_handle();
    d.grid = CGN_DIM3(1, 1, 1);
    d.block = CGN_DIM3(32, 1, 1);
    d.args = args;
    d.num_args = 6;
    cgn_node *node;
    CHECK(cgn_graph_add_kernel(g, NULL, 0, &d, &node));
    cgn_exec *exec;
    CHECK(cgn_graph_instantiate(g, &exec));

    /* The raw node and executable, with the caller's own argument array. */
    six_args ra = init;
    void *kparams[6];
    six_kparams(&ra, kparams);
    CUDA_KERNEL_NODE_PARAMS_v2 kp;
    raw_kernel_params(six_kernel_handle(), &kp);
    kp.kernelParams = kparams;
    CUgraph rg;
    CU(drv->cuGraphCreate(&rg, 0));
    CUgraphNode raw_node;
    CU(drv->cuGraphAddKernelNode(&raw_node, rg, NULL, 0, &kp));
    CUgraphExec raw_exec;
    CU(drv->cuGraphInstantiateWithFlags(&raw_exec, rg, 0));
    CUgraphNodeParams gp; /* the generic form of the same, sharing kparams */
    generic_kernel_params(&kp, &gp);

    double raw, generic, mine;
    MEASURE_TRIO(raw, {
        ra.out = bufs[i & 1];
        CU(set_typed(raw_node, &kp));
    }, generic, {
        ra.out = bufs[i & 1];
        CU(drv->cuGraphNodeSetParams(raw_node, &gp));
    }, mine, {
        cgn_kernel_update u = CGN_KERNEL_UPDATE_INIT;
        cgn_kernel_update_set_arg(&u, 0, &bufs[i & 1], sizeof(CUdeviceptr), NULL);
        CHECK(cgn_kernel_node_update(node, &u));
    });
    const char *typed_name = typed ? "cuGraphKernelNodeSetParams"
                                   : "cuGraphNodeSetParams via a typed-setter stand-in";
    char note[160];
    snprintf(note, sizeof note, "%s, caller's kernelParams, 1 pointer of 6 args (interleaved)",
             typed_name);
    result("arg_update.raw", raw, note);
    result("arg_update.raw_generic", generic,
           "cuGraphNodeSetParams, caller's kernelParams, 1 pointer of 6 args (interleaved)");
    result("arg_update.cgn", mine,
           "cgn_kernel_node_update + 1 cgn_kernel_update_set_arg, 6 args (interleaved)");
    /* The same with the update reused (cgn_kernel_update_reset, two stores) instead of
     * built each time: CGN_KERNEL_UPDATE_INIT zeroes the whole 280-byte struct, which costs
     * the caller 8-35 ns with gcc -O2 (rep stos) on its own. */
    double raw_again, mine_reused;
    cgn_kernel_update reused;
    cgn_kernel_update_reset(&reused);
    MEASURE_PAIR(raw_again, {
        ra.out = bufs[i & 1];
        CU(set_typed(raw_node, &kp));
    }, mine_reused, {
        cgn_kernel_update_reset(&reused);
        cgn_kernel_update_set_arg(&reused, 0, &bufs[i & 1], sizeof(CUdeviceptr), NULL);
        CHECK(cgn_kernel_node_update(node, &reused));
    });
    result("arg_update_reused.raw", raw_again, note);
    result("arg_update_reused.cgn", mine_reused,
           "cgn_kernel_node_update + 1 set_arg, the update reused (reset), 6 args (interleaved)");
    /* The one-call form, cgn_kernel_node_set_arg: no update struct at all. */
    double raw_direct, generic_direct, mine_direct;
    MEASURE_TRIO(
        raw_direct,
        {
            ra.out = bufs[i & 1];
            CU(set_typed(raw_node, &kp));
        },
        generic_direct,
        {
            ra.out = bufs[i & 1];
            CU(drv->cuGraphNodeSetParams(raw_node, &gp));
        },
        mine_direct,
        CHECK(cgn_kernel_node_set_arg(node, 0, &bufs[i & 1], sizeof(CUdeviceptr), NULL)));
    result("arg_update_direct.raw", raw_direct, note);
    result("arg_update_direct.raw_generic", generic_direct,
           "cuGraphNodeSetParams, caller's kernelParams, 1 pointer of 6 args (interleaved)");
    result("arg_update_direct.cgn", mine_direct,
           "cgn_kernel_node_set_arg (one call, no update struct), 6 args (interleaved)");
    /* Where the rest goes: the raw setter fed from two argument arrays in turn (cgn alternates
     * between two argument blocks), against cgn with the updates built once (no per-call
     * construction) and cgn replacing the whole list of six. */
    {
        six_args alt[2] = {init, init};
        alt[1].out = bufs[1];
        void *alt_params[2][6];
        six_kparams(&alt[0], alt_params[0]);
        six_kparams(&alt[1], alt_params[1]);
        CUDA_KERNEL_NODE_PARAMS_v2 alt_kp[2] = {kp, kp};
        alt_kp[0].kernelParams = alt_params[0];
        alt_kp[1].kernelParams = alt_params[1];
        cgn_kernel_update built[2];
        cgn_arg whole[2][6];
        cgn_kernel_update whole_u[2];
        for (int k = 0; k < 2; k++) {
            cgn_kernel_update_reset(&built[k]);
            cgn_kernel_update_set_arg(&built[k], 0, &bufs[k], sizeof(CUdeviceptr), NULL);
            memcpy(whole[k], args, sizeof args);
            whole[k][0] = CGN_ARG(bufs[k]);
            cgn_kernel_update_reset(&whole_u[k]);
            cgn_kernel_update_set_args(&whole_u[k], whole[k], 6);
        }
        double alt_raw, built_cgn, whole_cgn;
        MEASURE_TRIO(alt_raw, CU(set_typed(raw_node, &alt_kp[i & 1])), built_cgn,
                     CHECK(cgn_kernel_node_update(node, &built[i & 1])), whole_cgn,
                     CHECK(cgn_kernel_node_update(node, &whole_u[i & 1])));
        result("arg_probe.raw_two_arrays", alt_raw,
               "typed setter, two kernelParams arrays in turn (interleaved)");
        result("arg_probe.cgn_prebuilt", built_cgn,
               "cgn set_arg, the two updates built once (interleaved)");
        result("arg_probe.cgn_whole6", whole_cgn,
               "cgn set_args, all six replaced, updates built once (interleaved)");
        /* The same bytes in 16-byte slots (cgn's block layout) instead of at the kernel's own
         * parameter offsets (a six_args struct is exactly the kernel's parameter buffer). */
        _Alignas(16) unsigned char spaced[2][6 * 16];
        void *spaced_params[2][6];
        CUDA_KERNEL_NODE_PARAMS_v2 spaced_kp[2] = {kp, kp};
        static const size_t six_sizes[6] = {8, 8, 8, 4, 4, 8};
        for (int k = 0; k < 2; k++) {
            void *from[6];
            six_kparams(&alt[k], from);
            for (int a = 0; a < 6; a++) {
                spaced_params[k][a] = spaced[k] + 16 * a;
                memcpy(spaced_params[k][a], from[a], six_sizes[a]);
            }
            spaced_kp[k].kernelParams = spaced_params[k];
        }
        double contiguous_raw, spaced_raw;
        MEASURE_PAIR(contiguous_raw, CU(set_typed(raw_node, &alt_kp[i & 1])), spaced_raw,
                     CU(set_typed(raw_node, &spaced_kp[i & 1])));
        result("arg_probe.raw_contiguous", contiguous_raw,
               "typed setter, arguments at the kernel's offsets (interleaved with the next)");
        result("arg_probe.raw_spaced", spaced_raw,
               "typed setter, the same arguments in 16-byte slots (interleaved)");
        MEASURE_PAIR(contiguous_raw, CU(exec_set_typed(raw_exec, raw_node, &alt_kp[i & 1])),
                     spaced_raw, CU(exec_set_typed(raw_exec, raw_node, &spaced_kp[i & 1])));
        result("arg_probe.exec_raw_contiguous", contiguous_raw,
               "exec typed setter, arguments at the kernel's offsets (interleaved with the next)");
        result("arg_probe.exec_raw_spaced", spaced_raw,
               "exec typed setter, the same arguments in 16-byte slots (interleaved)");
    }
    /* Both sides really changed argument 0, through either form of cgn's. */
    for (int form = 0; form < 2; form++) {
        CUdeviceptr want = bufs[1 - form];
        if (form == 0) {
            cgn_kernel_update u = CGN_KERNEL_UPDATE_INIT;
            cgn_kernel_update_set_arg(&u, 0, &want, sizeof(CUdeviceptr), NULL);
            CHECK(cgn_kernel_node_update(node, &u));
        } else {
            CHECK(cgn_kernel_node_set_arg(node, 0, &want, sizeof(CUdeviceptr), NULL));
        }
        ra.out = want;
        CU(set_typed(raw_node, &kp));
        CUgraphNode cgn_raw;
        CHECK(cgn_node_raw(node, &cgn_raw));
        if (six_out_of(cgn_raw) != want || six_out_of(raw_node) != want)
            fail_check("arg: argument 0 does not read back as set");
    }

    MEASURE_TRIO(raw, {
        ra.out = bufs[i & 1];
        CU(exec_set_typed(raw_exec, raw_node, &kp));
    }, generic, {
        ra.out = bufs[i & 1];
        CU(drv->cuGraphExecNodeSetParams(raw_exec, raw_node, &gp));
    }, mine, {
        cgn_kernel_update u = CGN_KERNEL_UPDATE_INIT;
        cgn_kernel_update_set_arg(&u, 0, &bufs[i & 1], sizeof(CUdeviceptr), NULL);
        CHECK(cgn_kernel_exec_update(exec, node, &u));
    });
    snprintf(note, sizeof note, "%s, 1 pointer of 6 args (interleaved)",
             typed ? "cuGraphExecKernelNodeSetParams"
                   : "cuGraphExecNodeSetParams via a typed-setter stand-in");
    result("arg_exec_update.raw", raw, note);
    result("arg_exec_update.raw_generic", generic,
           "cuGraphExecNodeSetParams, 1 pointer of 6 args (interleaved)");
    result("arg_exec_update.cgn", mine,
           "cgn_kernel_exec_update + 1 cgn_kernel_update_set_arg, 6 args (interleaved)");
    MEASURE_PAIR(raw_again, {
        ra.out = bufs[i & 1];
        CU(exec_set_typed(raw_exec, raw_node, &kp));
    }, mine_reused, {
        cgn_kernel_update_reset(&reused);
        cgn_kernel_update_set_arg(&reused, 0, &bufs[i & 1], sizeof(CUdeviceptr), NULL);
        CHECK(cgn_kernel_exec_update(exec, node, &reused));
    });
    result("arg_exec_update_reused.raw", raw_again, note);
    result("arg_exec_update_reused.cgn", mine_reused,
           "cgn_kernel_exec_update + 1 set_arg, the update reused (reset), 6 args (interleaved)");
    MEASURE_PAIR(
        raw_direct,
        {
            ra.out = bufs[i & 1];
            CU(exec_set_typed(raw_exec, raw_node, &kp));
        },
        mine_direct,
        CHECK(cgn_kernel_exec_set_arg(exec, node, 0, &bufs[i & 1], sizeof(CUdeviceptr), NULL)));
    result("arg_exec_update_direct.raw", raw_direct, note);
    result("arg_exec_update_direct.cgn", mine_direct,
           "cgn_kernel_exec_set_arg (one call, no update struct), 6 args (interleaved)");

    /* cgn's own CPU cost: the same updates with the driver's set calls answered by a stub. */
    static cgn_driver_table null_driver;
    null_driver = *drv;
    null_driver.cuGraphNodeSetParams = null_set_params;
    null_driver.cuGraphExecNodeSetParams = null_exec_set_params;
    null_driver.cuGraphKernelNodeSetParams = null_kernel_set;
    null_driver.cuGraphExecKernelNodeSetParams = null_kernel_exec_set;
    cgn_driver_install(&null_driver);
    double cpu_def, cpu_exec;
    MEASURE(cpu_def, {
        cgn_kernel_update u = CGN_KERNEL_UPDATE_INIT;
        cgn_kernel_update_set_arg(&u, 0, &bufs[i & 1], sizeof(CUdeviceptr), NULL);
        CHECK(cgn_kernel_node_update(node, &u));
    });
    MEASURE(cpu_exec, {
        cgn_kernel_update u = CGN_KERNEL_UPDATE_INIT;
        cgn_kernel_update_set_arg(&u, 0, &bufs[i & 1], sizeof(CUdeviceptr), NULL);
        CHECK(cgn_kernel_exec_update(exec, node, &u));
    });
    double cpu_def_reused, cpu_exec_reused;
    MEASURE(cpu_def_reused, {
        cgn_kernel_update_reset(&reused);
        cgn_kernel_update_set_arg(&reused, 0, &bufs[i & 1], sizeof(CUdeviceptr), NULL);
        CHECK(cgn_kernel_node_update(node, &reused));
    });
    MEASURE(cpu_exec_reused, {
        cgn_kernel_update_reset(&reused);
        cgn_kernel_update_set_arg(&reused, 0, &bufs[i & 1], sizeof(CUdeviceptr), NULL);
        CHECK(cgn_kernel_exec_update(exec, node, &reused));
    });
    double cpu_def_direct, cpu_exec_direct;
    MEASURE(cpu_def_direct,
            CHECK(cgn_kernel_node_set_arg(node, 0, &bufs[i & 1], sizeof(CUdeviceptr), NULL)));
    MEASURE(cpu_exec_direct,
            CHECK(cgn_kernel_exec_set_arg(exec, node, 0, &bufs[i & 1], sizeof(CUdeviceptr), NULL)));
    cgn_driver_install(drv);
    result("arg_cgn_cpu.def_direct", cpu_def_direct,
           "cgn alone: cgn_kernel_node_set_arg, stub driver call");
    result("arg_cgn_cpu.exec_direct", cpu_exec_direct,
           "cgn alone: cgn_kernel_exec_set_arg, stub driver call");
    result("arg_cgn_cpu.def_reused", cpu_def_reused,
           "cgn alone: set_arg pointer update, update reused, stub driver call");
    result("arg_cgn_cpu.exec_reused", cpu_exec_reused,
           "cgn alone: exec set_arg pointer update, update reused, stub driver call");
    result("arg_cgn_cpu.def", cpu_def, "cgn alone: set_arg pointer update, stub driver call");
    result("arg_cgn_cpu.exec", cpu_exec,
           "cgn alone: exec set_arg pointer update, stub driver call");

    CHECK(cgn_exec_destroy(exec));
    CHECK(cgn_graph_destroy(g));
    CU(drv->cuGraphExecDestroy(raw_exec));
    CU(drv->cuGraphDestroy(rg));
}

/* ---- adoption of a graph built elsewhere ---------------------------------------------------- */

#define ADOPT_CHAINS 4 /* node i depends on node i - ADOPT_CHAINS */

/* A raw graph of n nodes in ADOPT_CHAINS chains, as a capture of a decode step might be: kernel
 * nodes (the 6-argument kernel and fill_u32 in turn), with a memset at every 100th node (from
 * 50) and a device-to-device memcpy at every 100th (from 99). */
static CUgraph adopt_source(long n) {
    CUgraph g;
    CU(drv->cuGraphCreate(&g, 0));
    CUgraphNode *nodes = malloc((size_t)n * sizeof *nodes);
    if (nodes == NULL) {
        fprintf(stderr, "out of host memory\n");
        exit(1);
    }
    static six_args six;
    six = (six_args){buf_a, buf_b, buf_a, 2.0f, 4, 42};
    void *six_params[6];
    six_kparams(&six, six_params);
    void *fill_params[2] = {&buf_a, &scalar_values[0]};
    CUDA_KERNEL_NODE_PARAMS_v2 six_kp, fill_kp;
    raw_kernel_params(six_kernel_handle(), &six_kp);
    six_kp.kernelParams = six_params;
    raw_kernel_params(bench_kernel(), &fill_kp);
    fill_kp.kernelParams = fill_params;
    CUDA_MEMSET_NODE_PARAMS_v1 ms;
    memset(&ms, 0, sizeof ms);
    ms.dst = buf_a;
    ms.value = 1;
    ms.elementSize = 4;
    ms.width = 4;
    ms.height = 1;
    CUDA_MEMCPY3D_v2 mc;
    memset(&mc, 0, sizeof mc);
    if (on_fake) {
        mc.srcMemoryType = mc.dstMemoryType = CU_MEMORYTYPE_HOST;
        mc.srcHost = (void *)(uintptr_t)buf_a;
        mc.dstHost = (void *)(uintptr_t)buf_b;
    } else {
        mc.srcMemoryType = mc.dstMemoryType = CU_MEMORYTYPE_DEVICE;
        mc.srcDevice = buf_a;
        mc.dstDevice = buf_b;
    }
    mc.WidthInBytes = 8;
    mc.Height = mc.Depth = 1;
    for (long i = 0; i < n; i++) {
        const CUgraphNode *dep = i >= ADOPT_CHAINS ? &nodes[i - ADOPT_CHAINS] : NULL;
        size_t nd = dep != NULL;
        if (i % 100 == 50)
            CU(drv->cuGraphAddMemsetNode(&nodes[i], g, dep, nd, &ms, cu.context));
        else if (i % 100 == 99)
            CU(drv->cuGraphAddMemcpyNode(&nodes[i], g, dep, nd, &mc, cu.context));
        else
            CU(drv->cuGraphAddKernelNode(&nodes[i], g, dep, nd, i & 1 ? &fill_kp : &six_kp));
    }
    free(nodes);
    return g;
}

static volatile unsigned long long raw_sink;

/* What adoption is measured against: the raw enumeration of the graph (cuGraphGetNodes and
 * cuGraphGetEdges, count then fill, into arrays of the caller's), then per node its type and
 * one typed getter. Returns the number of nodes; *edges the number of edges. */
static size_t raw_enumerate(CUgraph g, size_t *edges) {
    size_t n = 0, e = 0;
    CU(drv->cuGraphGetNodes(g, NULL, &n));
    CU(drv->cuGraphGetEdges(g, NULL, NULL, &e));
    CUgraphNode *nodes = malloc((n ? n : 1) * sizeof *nodes);
    CUgraphNode *from = malloc((e ? e : 1) * sizeof *from);
    CUgraphNode *to = malloc((e ? e : 1) * sizeof *to);
    if (nodes == NULL || from == NULL || to == NULL) {
        fprintf(stderr, "out of host memory\n");
        exit(1);
    }
    if (n > 0)
        CU(drv->cuGraphGetNodes(g, nodes, &n));
    if (e > 0)
        CU(drv->cuGraphGetEdges(g, from, to, &e));
    unsigned long long sum = 0;
    for (size_t i = 0; i < n; i++) {
        CUgraphNodeType t;
        CU(drv->cuGraphNodeGetType(nodes[i], &t));
        switch (t) {
        case CU_GRAPH_NODE_TYPE_KERNEL: {
            CUDA_KERNEL_NODE_PARAMS_v2 k;
            CU(drv->cuGraphKernelNodeGetParams(nodes[i], &k));
            sum += k.gridDimX + (uintptr_t)k.kernelParams;
            break;
        }
        case CU_GRAPH_NODE_TYPE_MEMSET: {
            CUDA_MEMSET_NODE_PARAMS_v1 m;
            CU(drv->cuGraphMemsetNodeGetParams(nodes[i], &m));
            sum += m.width;
            break;
        }
        case CU_GRAPH_NODE_TYPE_MEMCPY: {
            CUDA_MEMCPY3D_v2 c;
            CU(drv->cuGraphMemcpyNodeGetParams(nodes[i], &c));
            sum += c.WidthInBytes;
            break;
        }
        default:
            break;
        }
    }
    if (e > 0)
        sum += (uintptr_t)from[0] + (uintptr_t)to[0];
    raw_sink = sum;
    free(nodes);
    free(from);
    free(to);
    *edges = e;
    return n;
}

/* cgn_graph_adopt (borrowing: cgn_graph_destroy leaves the raw graph) against the raw
 * enumeration, one call each per repetition, in turns (the order swapped every repetition);
 * cgn_graph_destroy timed apart. Target: adopt at most 1.2x the raw enumeration. */
static void bench_adopt(void) {
    static const long sizes[] = {100, 1000, 10000};
    for (int s = 0; s < 3; s++) {
        long n = sizes[s];
        int reps = quick ? 3 : n <= 100 ? 31 : n <= 1000 ? 15 : 9;
        double t_raw[32], t_adopt[32], t_destroy[32];
        CUgraph rg = adopt_source(n);
        size_t edges = 0, listed = raw_enumerate(rg, &edges); /* warms up both */
        cgn_graph *g;
        CHECK(cgn_graph_adopt(rg, 0, &g));
        size_t adopted = 0;
        CHECK(cgn_graph_nodes(g, NULL, &adopted));
        CHECK(cgn_graph_destroy(g));
        if (listed != (size_t)n || adopted != (size_t)n ||
            edges != (size_t)(n > ADOPT_CHAINS ? n - ADOPT_CHAINS : 0))
            fail_check("adopt: the graph does not list (or adopt) as built");
        for (int r = 0; r < reps; r++) {
            for (int k = 0; k < 2; k++) {
                if ((k + r) % 2 == 0) {
                    double t0 = now_ns();
                    (void)raw_enumerate(rg, &edges);
                    t_raw[r] = now_ns() - t0;
                } else {
                    double t0 = now_ns();
                    CHECK(cgn_graph_adopt(rg, 0, &g));
                    double t1 = now_ns();
                    CHECK(cgn_graph_destroy(g));
                    t_adopt[r] = t1 - t0;
                    t_destroy[r] = now_ns() - t1;
                }
            }
        }
        char key[64], note[160];
        snprintf(note, sizeof note,
                 "cuGraphGetNodes + cuGraphGetEdges + per node type + typed getter, %zu edges",
                 edges);
        snprintf(key, sizeof key, "adopt.%ld.raw", n);
        result(key, median(t_raw, reps), note);
        snprintf(note, sizeof note, "cgn_graph_adopt (borrowing), median of %d in turns with raw",
                 reps);
        snprintf(key, sizeof key, "adopt.%ld.cgn", n);
        result(key, median(t_adopt, reps), note);
        snprintf(key, sizeof key, "adopt.%ld.destroy", n);
        result(key, median(t_destroy, reps), "cgn_graph_destroy of the adopted graph (borrowed)");
        CU(drv->cuGraphDestroy(rg));
    }
}

static long live_owners;
static void count_owner_release(void *resource) {
    (void)resource;
    live_owners--;
}

/* A million updates with a fresh owner each time, instantiating and destroying an executable
 * every 10,000: resident memory and live owners must stay flat. */
static void bench_memory(void) {
    long total = quick ? 20000 : 1000000, period = 10000;
    cgn_node *node;
    cgn_graph *g = cgn_graph_of(1, &node);
    long rss_start = 0, live_max = 0;
    cgn_exec *exec = NULL;
    double t0 = now_ns();
    for (long i = 0; i < total; i++) {
        cgn_owner *o;
        CHECK(cgn_owner_create(NULL, count_owner_release, &o));
        live_owners++;
        cgn_arg args[2] = {CGN_ARG_OWNED(buf_a, o), CGN_ARG(scalar_values[i & 1])};
        cgn_kernel_update u = CGN_KERNEL_UPDATE_INIT;
        cgn_kernel_update_set_args(&u, args, 2);
        CHECK(cgn_kernel_node_update(node, &u));
        CHECK(cgn_owner_release(o)); /* the graph holds it now */
        if (i % period == 0) {
            if (exec)
                CHECK(cgn_exec_destroy(exec));
            CHECK(cgn_graph_instantiate(g, &exec));
            cgn_collect();
            if (i == 2 * period)
                rss_start = resident_kib();
            if (live_owners > live_max)
                live_max = live_owners;
        }
    }
    double secs = (now_ns() - t0) * 1e-9;
    cgn_collect();
    long rss_end = resident_kib();
    printf("RESULT memory.updates %ld %.2f s\n", total, secs);
    printf("RESULT memory.rss_kib_start %ld after %ld updates\n", rss_start, 2 * period);
    printf("RESULT memory.rss_kib_end %ld after %ld updates\n", rss_end, total);
    printf("RESULT memory.live_owners_max %ld sampled every %ld updates\n", live_max, period);
    printf("RESULT memory.live_owners_end %ld with one exec and the graph alive\n", live_owners);
    CHECK(cgn_exec_destroy(exec));
    CHECK(cgn_graph_destroy(g));
    for (int i = 0; i < 5000 && live_owners > 0; i++) {
        cgn_collect();
        struct timespec ms = {0, 1000000};
        nanosleep(&ms, NULL);
    }
    printf("RESULT memory.live_owners_after_destroy %ld\n", live_owners);
    if (live_owners != 0 || (rss_start && rss_end > rss_start + 8192)) {
        fprintf(stderr, "memory did not stay flat\n");
        exit(1);
    }
}

/* The exec-level memory run: every cycle allocates a small device buffer, wraps it in a fresh
 * owner whose release frees it, points the executable's memset at it, drops the caller's
 * reference and launches (a sync every SYNC_EVERY cycles). Superseded owners must be released
 * once their launches completed (live owners bounded), each exactly once, on this thread, and
 * host and device memory must stay flat after the warm-up. */
#define EXEC_MEMORY_BYTES 256

typedef struct tracked_buffer {
    CUdeviceptr ptr;
    long id;
} tracked_buffer;

static struct {
    long created;
    atomic_long released, off_main, in_driver_callback, out_of_range;
    unsigned char *times_released; /* per owner id, 0..255 */
    long capacity;
    thrd_t main_thread;
} em;

static void release_tracked(void *resource) {
    tracked_buffer *b = resource;
    dev_free(b->ptr);
    if (b->id >= 0 && b->id < em.capacity) {
        if (em.times_released[b->id] < 255)
            em.times_released[b->id]++;
    } else {
        atomic_fetch_add(&em.out_of_range, 1);
    }
    atomic_fetch_add(&em.released, 1);
    if (!thrd_equal(thrd_current(), em.main_thread))
        atomic_fetch_add(&em.off_main, 1);
#ifdef CGN_BENCH_WITH_FAKE
    if (on_fake && cgn_fake_in_driver_callback())
        atomic_fetch_add(&em.in_driver_callback, 1);
#endif
    free(b);
}

/* A fresh buffer and the owner (one reference, the caller's) that frees it. */
static cgn_owner *tracked_owner(CUdeviceptr *ptr_out) {
    tracked_buffer *b = malloc(sizeof *b);
    if (b == NULL) {
        fprintf(stderr, "out of host memory\n");
        exit(1);
    }
    b->ptr = dev_alloc(EXEC_MEMORY_BYTES);
    b->id = em.created++;
    cgn_owner *o;
    CHECK(cgn_owner_create(b, release_tracked, &o));
    *ptr_out = b->ptr;
    return o;
}

static void bench_exec_memory(long cycles, double max_seconds) {
    em.capacity = cycles + 1; /* +1: the buffer the node starts with */
    em.times_released = malloc((size_t)em.capacity);
    if (em.times_released == NULL) {
        fprintf(stderr, "out of host memory\n");
        exit(1);
    }
    memset(em.times_released, 0, (size_t)em.capacity); /* touched now: RSS stays put later */
    em.main_thread = thrd_current();

    cgn_graph *g;
    CHECK(cgn_graph_create(&g));
    cgn_memset_desc d = CGN_MEMSET_DESC_INIT;
    cgn_owner *first = tracked_owner(&d.dst);
    d.dst_owner = first;
    d.value = 0x5a5a5a5a;
    d.element_size = 4;
    d.width = EXEC_MEMORY_BYTES / 4;
    cgn_node *node;
    CHECK(cgn_graph_add_memset(g, NULL, 0, &d, &node));
    CHECK(cgn_owner_release(first));
    cgn_exec *exec;
    CHECK(cgn_graph_instantiate(g, &exec));

    long warm = cycles >= 100000 ? 10000 : cycles / 10;
    long rss_start = resident_kib(), rss_warm = rss_start, live_max = 0, done = 0;
    long long dev_start = device_free_kib(), dev_warm = dev_start;
    double t0 = now_ns(), elapsed = 0;
    for (; done < cycles; done++) {
        CUdeviceptr p;
        cgn_owner *o = tracked_owner(&p);
        cgn_memset_update u = CGN_MEMSET_UPDATE_INIT;
        cgn_memset_update_set_dst(&u, p, o);
        CHECK(cgn_memset_exec_update(exec, node, &u));
        CHECK(cgn_owner_release(o)); /* the executable holds it now */
        CHECK(cgn_exec_launch(exec, stream));
        long live = em.created - atomic_load(&em.released);
        if (live > live_max)
            live_max = live;
        if ((done + 1) % SYNC_EVERY == 0)
            sync_stream();
        if (done + 1 == warm) {
            rss_warm = resident_kib();
            dev_warm = device_free_kib();
        }
        if (max_seconds > 0 && (done & 4095) == 4095 && (now_ns() - t0) * 1e-9 > max_seconds) {
            done++;
            break;
        }
    }
    sync_stream();
    elapsed = now_ns() - t0;
    long live_end = em.created - atomic_load(&em.released);
    cgn_collect();
    long rss_end = resident_kib();
    long long dev_end = device_free_kib();
    CHECK(cgn_exec_destroy(exec));
    CHECK(cgn_graph_destroy(g));
    for (int k = 0; k < 5000 && atomic_load(&em.released) != em.created; k++) {
        cgn_collect();
        struct timespec ms = {0, 1000000};
        nanosleep(&ms, NULL);
    }
    long wrong = 0;
    for (long k = 0; k < em.created; k++)
        wrong += em.times_released[k] != 1;

    char note[160];
    snprintf(note, sizeof note, "%.2f s%s", elapsed * 1e-9,
             done < cycles ? " (stopped early by --max-seconds)" : "");
    result_count("exec_memory.cycles", done, note);
    result("exec_memory.ns_per_cycle", done ? elapsed / (double)done : 0,
           "alloc + owner + exec update + release + launch (+ sync every 64)");
    result_count("exec_memory.live_owners_max", live_max, "owners created minus released, max");
    result_count("exec_memory.live_owners_end", live_end, "before destroying the executable");
    snprintf(note, sizeof note, "at start, after %ld cycles, at the end", warm);
    result_count("exec_memory.rss_kib_start", rss_start, note);
    result_count("exec_memory.rss_kib_warm", rss_warm, "");
    result_count("exec_memory.rss_kib_end", rss_end, "");
    if (dev_start >= 0) {
        result_count("exec_memory.device_free_kib_start", dev_start, "cuMemGetInfo free");
        result_count("exec_memory.device_free_kib_warm", dev_warm, "");
        result_count("exec_memory.device_free_kib_end", dev_end, "");
    }
    result_count("exec_memory.owners_created", em.created, "");
    result_count("exec_memory.owners_released", atomic_load(&em.released),
                 "after exec destroy + cgn_collect");
    result_count("exec_memory.not_released_exactly_once", wrong, "");
    result_count("exec_memory.released_off_main_thread", atomic_load(&em.off_main), "");
    if (on_fake)
        result_count("exec_memory.released_in_driver_callback",
                     atomic_load(&em.in_driver_callback), "");

    if (atomic_load(&em.released) != em.created || wrong != 0 ||
        atomic_load(&em.out_of_range) != 0)
        fail_check("exec_memory: not every owner was released exactly once");
    if (atomic_load(&em.off_main) != 0 || atomic_load(&em.in_driver_callback) != 0)
        fail_check("exec_memory: a release callback ran off the main thread");
    if (live_max > 4 * SYNC_EVERY)
        fail_check("exec_memory: live owners were not bounded");
    if (done >= 100000 && rss_end > rss_warm + 16384)
        fail_check("exec_memory: host RSS grew by more than 16 MiB after the warm-up");
    if (done >= 100000 && dev_warm >= 0 && dev_end < dev_warm - 65536)
        fail_check("exec_memory: free device memory fell by more than 64 MiB after the warm-up");
    free(em.times_released);
}

#ifdef CGN_BENCH_WITH_FAKE
static void fake_fill(void **args, const CUDA_KERNEL_NODE_PARAMS_v2 *launch, void *user) {
    (void)args;
    (void)launch;
    (void)user;
}

static int open_fake(void) {
    static const size_t sizes[2] = {sizeof(CUdeviceptr), sizeof(unsigned)};
    static const size_t six_sizes[6] = {sizeof(CUdeviceptr), sizeof(CUdeviceptr),
                                        sizeof(CUdeviceptr), sizeof(float),
                                        sizeof(unsigned),    sizeof(unsigned long long)};
    cgn_fake_reset();
    fill_function = cgn_fake_register_kernel("fill_u32", 2, sizes, fake_fill, NULL);
    six_function = cgn_fake_register_kernel("axpy_tagged", 6, six_sizes, NULL, NULL);
    cgn_driver_install(cgn_fake_table());
    drv = cgn_fake_table();
    cu.context = cgn_fake_context(0);
    cgn_fake_hold_completion(1); /* launches stay in flight until sync_stream() */
    static unsigned char host_a[16], host_b[16];
    buf_a = (CUdeviceptr)(uintptr_t)host_a;
    buf_b = (CUdeviceptr)(uintptr_t)host_b;
    return 0;
}
#endif

static int open_gpu(void) {
    cgn_status st = cgn_cuda_open(&cu);
    if (st != CGN_OK) {
        printf("benchmark skipped: %s\n", cgn_last_error());
        return 77;
    }
    if (cgn_test_kernels_fatbin_size == 0) {
        printf("benchmark skipped: built without nvcc\n");
        return 77;
    }
    drv = cgn_driver_real();
    CUlibrary lib;
    CU(cu.cuLibraryLoadData(&lib, cgn_test_kernels_fatbin, NULL, NULL, 0, NULL, NULL, 0));
    CU(cu.cuLibraryGetKernel(&fill_kernel, lib, "fill_u32"));
    CU(cu.cuLibraryGetKernel(&six_kernel, lib, "axpy_tagged"));
    CU(cu.cuMemAlloc(&buf_a, 16));
    CU(cu.cuMemAlloc(&buf_b, 16));
    CU(cu.cuStreamCreate(&stream, CU_STREAM_NON_BLOCKING));
    void *pfn = NULL;
    if (cgn_driver_proc("cuMemGetInfo", 3020, &pfn) == CGN_OK)
        memcpy(&mem_get_info, &pfn, sizeof pfn);
    return 0;
}

/* Whether SECTION is in the comma-separated list (every section when there is no list). */
static int wanted(const char *only, const char *section) {
    if (only == NULL)
        return 1;
    size_t n = strlen(section);
    for (const char *p = only; *p;) {
        const char *comma = strchr(p, ',');
        size_t len = comma ? (size_t)(comma - p) : strlen(p);
        if (len == n && strncmp(p, section, n) == 0)
            return 1;
        p += len + (comma != NULL);
    }
    return 0;
}

static void usage(void) {
    fprintf(stderr, "usage: bench_updates [--fake] [--quick] [--only SECTION[,SECTION...]] "
                    "[--cycles N] [--max-seconds S]\n"
                    "sections: def exec arg loop retention size adopt memory exec_memory insitu\n");
    exit(2);
}

int main(int argc, char **argv) {
    const char *only = NULL;
    long cycles = -1;
    double max_seconds = 0;
    for (int i = 1; i < argc; i++) {
        if (strcmp(argv[i], "--fake") == 0)
            on_fake = quick = 1;
        else if (strcmp(argv[i], "--quick") == 0)
            quick = 1;
        else if (strcmp(argv[i], "--only") == 0 && i + 1 < argc)
            only = argv[++i];
        else if (strcmp(argv[i], "--cycles") == 0 && i + 1 < argc)
            cycles = strtol(argv[++i], NULL, 10);
        else if (strcmp(argv[i], "--max-seconds") == 0 && i + 1 < argc)
            max_seconds = strtod(argv[++i], NULL);
        else
            usage();
    }
    if (cycles < 0)
        cycles = quick ? 20000 : 1000000;
    int rc;
    if (on_fake) {
#ifdef CGN_BENCH_WITH_FAKE
        rc = open_fake();
#else
        fprintf(stderr, "built without the fake driver\n");
        return 1;
#endif
    } else {
        rc = open_gpu();
    }
    if (rc != 0)
        return rc;
    printf("cgn benchmark on the %s driver %d, %s\n", on_fake ? "fake" : "real", drv->version,
           quick ? "short run" : "full run");
    init_updates();
    if (wanted(only, "def")) {
        bench_owners_unchanged();
        bench_owners_changed();
        bench_other_types(on_fake);
    }
    if (wanted(only, "exec"))
        bench_exec_update();
    if (wanted(only, "arg"))
        bench_arg_update();
    if (wanted(only, "loop"))
        bench_exec_loop();
    if (wanted(only, "retention"))
        bench_retention();
    if (wanted(only, "size"))
        bench_graph_size();
    if (wanted(only, "adopt"))
        bench_adopt();
    if (wanted(only, "memory"))
        bench_memory();
    if (wanted(only, "exec_memory"))
        bench_exec_memory(cycles, max_seconds);
    if (wanted(only, "insitu"))
        bench_insitu();
    printf("benchmark finished%s\n", failures ? " with FAILED checks" : "");
    return failures ? 1 : 0;
}
