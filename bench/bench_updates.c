/* Benchmarks of cgn node updates against the raw driver, measured side by side in one run.
 * Prints one line per measurement: "RESULT <key> <ns_per_call> <note>", then a table.
 *   bench_updates            on the GPU (real driver)
 *   bench_updates --fake     on the fake driver, short: a smoke test that keeps the code alive */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "../examples/cgn_cuda.h"
#include "cgn/cgn.h"
#include "runtime.h"

#ifdef CGN_BENCH_WITH_FAKE
#include "fake_driver.h"
#endif

extern const unsigned char cgn_test_kernels_fatbin[];
extern const size_t cgn_test_kernels_fatbin_size;

static int quick;
static const cgn_driver_table *drv;
static cgn_cuda cu;
static CUkernel fill_kernel; /* fill_u32(unsigned *out, unsigned value) */
static CUfunction fill_function;
static CUdeviceptr buf_a, buf_b;

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

/* Two measurements interleaved batch by batch (A, B, A, B, ...), so drifting host conditions
 * affect both alike: the ratio between them is what the targets are about. */
#define MEASURE_PAIR(out_a, body_a, out_b, body_b)                                                 \
    do {                                                                                           \
        double sa_[64], sb_[64];                                                                   \
        for (long i = 0; i < BATCH; i++) {                                                         \
            body_a;                                                                                \
            body_b;                                                                                \
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
            sa_[r_] = (t1_ - t0_) / BATCH;                                                         \
            sb_[r_] = (now_ns() - t1_) / BATCH;                                                    \
        }                                                                                          \
        (out_a) = median(sa_, REPS);                                                               \
        (out_b) = median(sb_, REPS);                                                               \
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
        CUresult cu_r_ = (call);                                                                      \
        if (cu_r_ != CUDA_SUCCESS) {                                                                  \
            fprintf(stderr, "%s:%d: %s returned %d\n", __FILE__, __LINE__, #call, (int)cu_r_);     \
            exit(1);                                                                               \
        }                                                                                          \
    } while (0)

static void result(const char *key, double ns, const char *note) {
    printf("RESULT %s %.1f %s\n", key, ns, note);
    fflush(stdout);
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
    double pair_raw, pair_cgn;
    MEASURE_PAIR(pair_raw, {
        kparams[1] = &scalar_values[i & 1];
        CU(drv->cuGraphNodeSetParams(raw_node, &p));
    }, pair_cgn, CHECK(cgn_kernel_node_update(node, &u[i & 1])));
    result("interleaved.args.raw", pair_raw, "scalar arg, interleaved with cgn");
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
    MEASURE_PAIR(pair_raw, {
        p.kernel.gridDimX = 1 + (unsigned)(i & 1);
        CU(drv->cuGraphNodeSetParams(raw_node, &p));
    }, pair_cgn, CHECK(cgn_kernel_node_update(node, &grid[i & 1])));
    p.kernel.gridDimX = 1;
    result("interleaved.grid.raw", pair_raw, "new grid, interleaved with cgn");
    result("interleaved.grid.cgn", pair_cgn, "new grid, interleaved with raw");

    /* cgn's own CPU cost: the same updates with cuGraphNodeSetParams answered by a stub. */
    static cgn_driver_table null_driver;
    null_driver = *drv;
    null_driver.cuGraphNodeSetParams = null_set_params;
    cgn_driver_install(&null_driver);
    double cpu_args, cpu_grid;
    MEASURE(cpu_args, CHECK(cgn_kernel_node_update(node, &u[i & 1])));
    MEASURE(cpu_grid, CHECK(cgn_kernel_node_update(node, &grid[i & 1])));
    cgn_driver_install(drv);
    result("cgn_cpu.args", cpu_args, "cgn alone: scalar-arg update with a stub driver call");
    result("cgn_cpu.grid", cpu_grid, "cgn alone: grid update with a stub driver call");
    CHECK(cgn_graph_destroy(g));
    CU(drv->cuGraphDestroy(rg));
}

/* Executable-level: a complete replacement in one executable. */
static void bench_exec_update(void) {
    cgn_node *node;
    cgn_graph *g = cgn_graph_of(1, &node);
    cgn_exec *exec;
    CHECK(cgn_graph_instantiate(g, &exec));
    CUgraphNode raw_node;
    CUgraphNodeParams p;
    void *kparams[2];
    CUgraph rg = raw_graph_of(1, &raw_node, &p, kparams);
    CUgraphExec raw_exec;
    CU(drv->cuGraphInstantiateWithFlags(&raw_exec, rg, 0));
    cgn_arg args[2][2] = {{CGN_ARG(buf_a), CGN_ARG(scalar_values[0])},
                          {CGN_ARG(buf_a), CGN_ARG(scalar_values[1])}};
    cgn_kernel_update u[2];
    for (int k = 0; k < 2; k++) {
        u[k] = (cgn_kernel_update)CGN_KERNEL_UPDATE_INIT;
        cgn_kernel_update_set_args(&u[k], args[k], 2);
    }
    double raw, mine;
    MEASURE_PAIR(raw, {
        kparams[1] = &scalar_values[i & 1];
        CU(drv->cuGraphExecNodeSetParams(raw_exec, raw_node, &p));
    }, mine, CHECK(cgn_kernel_exec_update(exec, node, &u[i & 1])));
    result("exec_update.raw", raw, "cuGraphExecNodeSetParams, scalar arg (interleaved)");
    result("exec_update.cgn", mine, "cgn_kernel_exec_update, new args (interleaved)");
    CHECK(cgn_exec_destroy(exec));
    CHECK(cgn_graph_destroy(g));
    CU(drv->cuGraphExecDestroy(raw_exec));
    CU(drv->cuGraphDestroy(rg));
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

    /* The raw driver doing the same safely by hand: a user object per version, moved onto the
     * graph, then the params, then the graph's reference to the previous version dropped. */
    CUuserObject previous = NULL;
    static int payload;
    MEASURE(raw, {
        CUuserObject obj;
        CU(drv->cuUserObjectCreate(&obj, &payload, noop_release, 1,
                                   CU_USER_OBJECT_NO_DESTRUCTOR_SYNC));
        CU(drv->cuGraphRetainUserObject(rg, obj, 1, CU_GRAPH_USER_OBJECT_MOVE));
        kparams[0] = &bufs[i & 1];
        CU(drv->cuGraphNodeSetParams(raw_node, &p));
        if (previous)
            CU(drv->cuGraphReleaseUserObject(rg, previous, 1));
        previous = obj;
    });
    result("def_update_owners.raw_by_hand", raw, "user object create+retain+set+release old");

    cgn_arg args[2][2] = {{CGN_ARG_OWNED(bufs[0], owners[0]), CGN_ARG(scalar_values[0])},
                          {CGN_ARG_OWNED(bufs[1], owners[1]), CGN_ARG(scalar_values[0])}};
    cgn_kernel_update u[2] = {CGN_KERNEL_UPDATE_INIT, CGN_KERNEL_UPDATE_INIT};
    cgn_kernel_update_set_args(&u[0], args[0], 2);
    cgn_kernel_update_set_args(&u[1], args[1], 2);
    MEASURE(cgn_kernel_ns, CHECK(cgn_kernel_node_update(node, &u[i & 1])));
    result("def_update_owners.cgn_kernel_args", cgn_kernel_ns, "new buffer arg with its owner");

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
    MEASURE(cgn_memset_ns, CHECK(cgn_memset_node_update(fill, &mu[(i + 1) & 1])));
    result("def_update_owners.cgn_memset_dst", cgn_memset_ns, "new dst with its owner");

    CHECK(cgn_graph_destroy(g));
    CU(drv->cuGraphDestroy(rg));
    cgn_collect();
    CHECK(cgn_owner_release(owners[0]));
    CHECK(cgn_owner_release(owners[1]));
}

static void host_fn_a(void *data) { (void)data; }
static void host_fn_b(void *data) { (void)data; }

/* The other node types: a cgn update against the raw cuGraphNodeSetParams doing the same. */
static void bench_other_types(int fake) {
    double raw, mine;
    CUgraph rg;
    CU(drv->cuGraphCreate(&rg, 0));
    cgn_graph *g;
    CHECK(cgn_graph_create(&g));

    /* memcpy: a new size (cgn reads the descriptor back first: one extra driver call). */
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
    MEASURE(raw, {
        p.memcpy.copyParams.WidthInBytes = 8 + 8 * (size_t)(i & 1);
        CU(drv->cuGraphNodeSetParams(raw_copy, &p));
    });
    cgn_memcpy_desc md = CGN_MEMCPY_DESC_INIT;
    md.dst = buf_b;
    md.src = buf_a;
    md.size = 8;
    cgn_node *copy;
    CHECK(cgn_graph_add_memcpy(g, NULL, 0, &md, &copy));
    cgn_memcpy_update mu[2] = {CGN_MEMCPY_UPDATE_INIT, CGN_MEMCPY_UPDATE_INIT};
    cgn_memcpy_update_set_size(&mu[0], 8);
    cgn_memcpy_update_set_size(&mu[1], 16);
    MEASURE(mine, CHECK(cgn_memcpy_node_update(copy, &mu[i & 1])));
    result("other.memcpy_size.raw", raw, "cuGraphNodeSetParams, new size");
    result("other.memcpy_size.cgn", mine, "cgn_memcpy_node_update(size)");

    /* host callback: a new function. */
    memset(&p, 0, sizeof p);
    p.type = CU_GRAPH_NODE_TYPE_HOST;
    p.host.fn = host_fn_a;
    CUgraphNode raw_host;
    CU(drv->cuGraphAddHostNode(&raw_host, rg, NULL, 0, (CUDA_HOST_NODE_PARAMS_v1 *)&p.host));
    CUhostFn fns[2] = {host_fn_a, host_fn_b};
    MEASURE(raw, {
        p.host.fn = fns[i & 1];
        CU(drv->cuGraphNodeSetParams(raw_host, &p));
    });
    cgn_host_callback_desc hd = CGN_HOST_CALLBACK_DESC_INIT;
    hd.fn = host_fn_a;
    cgn_node *host;
    CHECK(cgn_graph_add_host_callback(g, NULL, 0, &hd, &host));
    cgn_host_callback_update hu[2] = {CGN_HOST_CALLBACK_UPDATE_INIT,
                                      CGN_HOST_CALLBACK_UPDATE_INIT};
    cgn_host_callback_update_set_fn(&hu[0], host_fn_a, NULL, NULL, NULL, 0);
    cgn_host_callback_update_set_fn(&hu[1], host_fn_b, NULL, NULL, NULL, 0);
    MEASURE(mine, CHECK(cgn_host_callback_node_update(host, &hu[i & 1])));
    result("other.host_fn.raw", raw, "cuGraphNodeSetParams, new function");
    result("other.host_fn.cgn", mine, "cgn_host_callback_node_update(fn)");

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
    MEASURE(raw, {
        p.eventRecord.event = events[i & 1];
        CU(drv->cuGraphNodeSetParams(raw_record, &p));
    });
    cgn_event_record_desc ed = CGN_EVENT_RECORD_DESC_INIT;
    ed.event = events[0];
    cgn_node *record;
    CHECK(cgn_graph_add_event_record(g, NULL, 0, &ed, &record));
    cgn_event_record_update eu[2] = {CGN_EVENT_RECORD_UPDATE_INIT, CGN_EVENT_RECORD_UPDATE_INIT};
    cgn_event_record_update_set_event(&eu[0], events[0], NULL);
    cgn_event_record_update_set_event(&eu[1], events[1], NULL);
    MEASURE(mine, CHECK(cgn_event_record_node_update(record, &eu[i & 1])));
    result("other.event_record.raw", raw, "cuGraphNodeSetParams, new event");
    result("other.event_record.cgn", mine, "cgn_event_record_node_update(event)");

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

static long live_owners;
static void count_owner_release(void *resource) {
    (void)resource;
    live_owners--;
}

static long resident_kib(void) {
    FILE *f = fopen("/proc/self/statm", "r");
    long pages = 0, resident = 0;
    if (f) {
        if (fscanf(f, "%ld %ld", &pages, &resident) != 2)
            resident = 0;
        fclose(f);
    }
    return resident * 4;
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

#ifdef CGN_BENCH_WITH_FAKE
static void fake_fill(void **args, const CUDA_KERNEL_NODE_PARAMS_v2 *launch, void *user) {
    (void)args;
    (void)launch;
    (void)user;
}

static int open_fake(void) {
    static const size_t sizes[2] = {sizeof(CUdeviceptr), sizeof(unsigned)};
    cgn_fake_reset();
    fill_function = cgn_fake_register_kernel("fill_u32", 2, sizes, fake_fill, NULL);
    cgn_driver_install(cgn_fake_table());
    drv = cgn_fake_table();
    cu.context = cgn_fake_context(0);
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
    CU(cu.cuMemAlloc(&buf_a, 16));
    CU(cu.cuMemAlloc(&buf_b, 16));
    return 0;
}

int main(int argc, char **argv) {
    int fake = 0;
    for (int i = 1; i < argc; i++) {
        if (strcmp(argv[i], "--fake") == 0)
            fake = quick = 1;
        else if (strcmp(argv[i], "--quick") == 0)
            quick = 1;
    }
    int rc;
    if (fake) {
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
    printf("cgn benchmark on the %s driver %d, %s\n", fake ? "fake" : "real", drv->version,
           quick ? "short run" : "full run");
    bench_owners_unchanged();
    bench_owners_changed();
    bench_other_types(fake);
    bench_exec_update();
    bench_graph_size();
    bench_memory();
    printf("benchmark finished\n");
    return 0;
}
