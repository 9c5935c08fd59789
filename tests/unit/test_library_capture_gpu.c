/* cgn on graphs that real NVIDIA libraries build: cuBLAS (and cuFFT, where installed) calls
 * are stream-captured into raw graphs, the way PyTorch and inference engines capture them, and
 * cgn adopts those graphs, lists and classifies every node, instantiates and launches them, and
 * updates the library's kernel nodes (every argument set to its current value, a pointer
 * re-targeted at executable level, a definition-level edit carried into an executable by
 * cgn_exec_update_from_graph). Every result is read back after a synchronisation and checked
 * against a host computation.
 *
 * The libraries are loaded at run time with dlopen and their few functions resolved with dlsym
 * (nothing links libcublas, libcufft or libcuda); a case whose library cannot be loaded is
 * skipped with the reason. Without a usable GPU (or with a driver older than 12.4, which
 * argument-level updates need) the program says why and exits 77 before any test runs.
 *
 * Inputs are small multiples of 1/4, so every GEMM and SAXPY result is exact in float whatever
 * the summation order (checked with a small tolerance all the same). */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>

#include <cmocka.h>

#include <dlfcn.h>
#include <math.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cublas_v2.h>
#include <cudaTypedefs.h>
#include <cufft.h>

#include "cgn/cgn.h"
#include "cgn_cuda.h"
#include "gpu_test_common.h" /* OK, CU, gpu_test_resolve */

#ifndef CGN_TEST_CUDA_LIBDIR
#define CGN_TEST_CUDA_LIBDIR ""
#endif

/* ---- driver calls ------------------------------------------------------------------------ */

static cgn_cuda cu;

/* The raw calls the tests make besides those of cgn_cuda.h. */
static struct {
    PFN_cuStreamBeginCapture_v10010 cuStreamBeginCapture;
    PFN_cuStreamEndCapture_v10000 cuStreamEndCapture;
    PFN_cuGraphGetNodes_v10000 cuGraphGetNodes;
    PFN_cuGraphNodeGetType_v10000 cuGraphNodeGetType;
    PFN_cuGraphDestroy_v10000 cuGraphDestroy;
    PFN_cuGraphKernelNodeGetAttribute_v11000 cuGraphKernelNodeGetAttribute;
    PFN_cuMemsetD32_v3020 cuMemsetD32;
    PFN_cuMemsetD32Async_v3020 cuMemsetD32Async;
    PFN_cuMemcpyHtoDAsync_v3020 cuMemcpyHtoDAsync;
    PFN_cuLaunchHostFunc_v10000 cuLaunchHostFunc;
    PFN_cuEventRecordWithFlags_v11010 cuEventRecordWithFlags;
    PFN_cuGraphInstantiateWithFlags_v11040 cuGraphInstantiateWithFlags;
} dx;

static cgn_status resolve(void *slot, const char *name, int version) {
    void *pfn = NULL;
    cgn_status st = cgn_driver_proc(name, version, &pfn);
    memcpy(slot, &pfn, sizeof pfn);
    return st;
}

static cgn_status resolve_extras(void) {
    cgn_status st = CGN_OK;
#define RESOLVE_(name, ver)                                                                        \
    if (st == CGN_OK)                                                                              \
        st = resolve(&dx.name, #name, ver);
    RESOLVE_(cuStreamBeginCapture, 10010)
    RESOLVE_(cuStreamEndCapture, 10000)
    RESOLVE_(cuGraphGetNodes, 10000)
    RESOLVE_(cuGraphNodeGetType, 10000)
    RESOLVE_(cuGraphDestroy, 10000)
    RESOLVE_(cuGraphKernelNodeGetAttribute, 11000)
    RESOLVE_(cuMemsetD32, 3020)
    RESOLVE_(cuMemsetD32Async, 3020)
    RESOLVE_(cuMemcpyHtoDAsync, 3020)
    RESOLVE_(cuLaunchHostFunc, 10000)
    RESOLVE_(cuEventRecordWithFlags, 11010)
    RESOLVE_(cuGraphInstantiateWithFlags, 11040)
#undef RESOLVE_
    return st;
}

/* ---- the libraries, loaded at run time ---------------------------------------------------- */

/* Function-pointer types written from cublas_v2.h / cufft.h (the _v2 names are the exported
 * symbols cublas_v2.h maps its names to). */
typedef cublasStatus_t (*pfn_cublas_create)(cublasHandle_t *handle);
typedef cublasStatus_t (*pfn_cublas_destroy)(cublasHandle_t handle);
typedef cublasStatus_t (*pfn_cublas_get_version)(cublasHandle_t handle, int *version);
typedef cublasStatus_t (*pfn_cublas_set_stream)(cublasHandle_t handle, cudaStream_t stream);
typedef cublasStatus_t (*pfn_cublas_set_workspace)(cublasHandle_t handle, void *workspace,
                                                   size_t size);
typedef cublasStatus_t (*pfn_cublas_sgemm)(cublasHandle_t handle, cublasOperation_t transa,
                                           cublasOperation_t transb, int m, int n, int k,
                                           const float *alpha, const float *A, int lda,
                                           const float *B, int ldb, const float *beta, float *C,
                                           int ldc);
typedef cublasStatus_t (*pfn_cublas_saxpy)(cublasHandle_t handle, int n, const float *alpha,
                                           const float *x, int incx, float *y, int incy);
typedef const char *(*pfn_cublas_status_name)(cublasStatus_t status);

typedef cufftResult (*pfn_cufft_plan_1d)(cufftHandle *plan, int nx, cufftType type, int batch);
typedef cufftResult (*pfn_cufft_set_stream)(cufftHandle plan, cudaStream_t stream);
typedef cufftResult (*pfn_cufft_exec_c2c)(cufftHandle plan, cufftComplex *idata,
                                          cufftComplex *odata, int direction);
typedef cufftResult (*pfn_cufft_destroy)(cufftHandle plan);
typedef cufftResult (*pfn_cufft_get_version)(int *version);

/* The typedefs must match the toolkit's declarations (checked without referencing the symbols:
 * _Generic does not evaluate its controlling expression). */
_Static_assert(_Generic(&cublasSgemm_v2, pfn_cublas_sgemm : 1, default : 0), "cublasSgemm type");
_Static_assert(_Generic(&cublasSaxpy_v2, pfn_cublas_saxpy : 1, default : 0), "cublasSaxpy type");
_Static_assert(_Generic(&cublasSetStream_v2, pfn_cublas_set_stream : 1, default : 0),
               "cublasSetStream type");
_Static_assert(_Generic(&cublasSetWorkspace_v2, pfn_cublas_set_workspace : 1, default : 0),
               "cublasSetWorkspace type");
_Static_assert(_Generic(&cublasCreate_v2, pfn_cublas_create : 1, default : 0), "cublasCreate type");
_Static_assert(_Generic(&cufftExecC2C, pfn_cufft_exec_c2c : 1, default : 0), "cufftExecC2C type");
_Static_assert(_Generic(&cufftPlan1d, pfn_cufft_plan_1d : 1, default : 0), "cufftPlan1d type");
_Static_assert(_Generic(&cufftSetStream, pfn_cufft_set_stream : 1, default : 0),
               "cufftSetStream type");

static struct {
    void *lib;
    char path[640];
    char why[1024]; /* why it could not be loaded */
    pfn_cublas_create create;
    pfn_cublas_destroy destroy;
    pfn_cublas_get_version get_version; /* optional */
    pfn_cublas_set_stream set_stream;
    pfn_cublas_set_workspace set_workspace;
    pfn_cublas_sgemm sgemm;
    pfn_cublas_saxpy saxpy;
    pfn_cublas_status_name status_name; /* optional */
} blas;

static struct {
    void *lib;
    char path[640];
    char why[1024];
    pfn_cufft_plan_1d plan_1d;
    pfn_cufft_set_stream set_stream;
    pfn_cufft_exec_c2c exec_c2c;
    pfn_cufft_destroy destroy;
    pfn_cufft_get_version get_version; /* optional */
} fft;

/* Candidate `idx` for one of `names`: each name as given (the loader's search path), then in
 * $CUDA_PATH/lib64, then in the toolkit's library directory found at configure time. Returns 0
 * past the last; an empty `path` is a candidate to pass over (its directory is not set). */
static int candidate(const char *const *names, size_t count, size_t idx, char *path, size_t size) {
    const char *dirs[3] = {NULL, getenv("CUDA_PATH"), CGN_TEST_CUDA_LIBDIR};
    size_t d = idx / count, i = idx % count;
    if (d >= 3)
        return 0;
    if (d == 0)
        snprintf(path, size, "%s", names[i]);
    else if (dirs[d] == NULL || dirs[d][0] == '\0')
        path[0] = '\0';
    else if (d == 1)
        snprintf(path, size, "%s/lib64/%s", dirs[d], names[i]);
    else
        snprintf(path, size, "%s/%s", dirs[d], names[i]);
    return 1;
}

/* Appends "; <text>" (or "<text>") to why. */
static void why_add(char *why, size_t size, const char *fmt, ...) {
    size_t used = strlen(why);
    if (used + 3 >= size)
        return;
    if (used) {
        memcpy(why + used, "; ", 3);
        used += 2;
    }
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(why + used, size - used, fmt, ap);
    va_end(ap);
}

/* dlsym into a function-pointer slot; 0 (with `why` naming the symbol) when missing. */
static int sym(void *lib, void *slot, const char *name, char *why, size_t why_size) {
    dlerror();
    void *p = dlsym(lib, name);
    memcpy(slot, &p, sizeof p);
    if (p == NULL) {
        const char *e = dlerror();
        snprintf(why, why_size, "symbol %s not found (%s)", name, e ? e : "no error text");
        return 0;
    }
    return 1;
}

/* Loads the first cuBLAS that resolves and can create a handle on this driver (a library
 * newer than the driver loads but cannot create one). Libraries are never dlclose'd: a CUDA
 * library may leave exit handlers behind. */
static void load_cublas(void) {
    static const char *const names[] = {"libcublas.so.13", "libcublas.so.12", "libcublas.so"};
    char path[512], e[512];
    blas.why[0] = '\0';
    for (size_t idx = 0; candidate(names, 3, idx, path, sizeof path); idx++) {
        if (path[0] == '\0')
            continue;
        void *lib = dlopen(path, RTLD_NOW | RTLD_LOCAL);
        if (lib == NULL) {
            const char *d = dlerror();
            why_add(blas.why, sizeof blas.why, "%s", d ? d : path);
            continue;
        }
        int ok = sym(lib, &blas.create, "cublasCreate_v2", e, sizeof e) &&
                 sym(lib, &blas.destroy, "cublasDestroy_v2", e, sizeof e) &&
                 sym(lib, &blas.set_stream, "cublasSetStream_v2", e, sizeof e) &&
                 sym(lib, &blas.set_workspace, "cublasSetWorkspace_v2", e, sizeof e) &&
                 sym(lib, &blas.sgemm, "cublasSgemm_v2", e, sizeof e) &&
                 sym(lib, &blas.saxpy, "cublasSaxpy_v2", e, sizeof e);
        if (!ok) {
            why_add(blas.why, sizeof blas.why, "%s: %s", path, e);
            continue;
        }
        if (!sym(lib, &blas.status_name, "cublasGetStatusName", e, sizeof e))
            blas.status_name = NULL;
        if (!sym(lib, &blas.get_version, "cublasGetVersion_v2", e, sizeof e))
            blas.get_version = NULL;
        cublasHandle_t h = NULL;
        cublasStatus_t st = blas.create(&h);
        if (st != CUBLAS_STATUS_SUCCESS) {
            const char *n = blas.status_name ? blas.status_name(st) : NULL;
            why_add(blas.why, sizeof blas.why, "%s: cublasCreate returned %d (%s)", path, (int)st,
                    n ? n : "no name");
            continue;
        }
        int version = 0;
        if (blas.get_version == NULL || blas.get_version(h, &version) != CUBLAS_STATUS_SUCCESS)
            version = 0;
        blas.destroy(h);
        snprintf(blas.path, sizeof blas.path, "%s (version %d)", path, version);
        blas.lib = lib;
        return;
    }
}

/* Loads the first cuFFT that resolves and can make a small plan on this driver. */
static void load_cufft(void) {
    static const char *const names[] = {"libcufft.so.12", "libcufft.so.11", "libcufft.so"};
    char path[512], e[512];
    fft.why[0] = '\0';
    for (size_t idx = 0; candidate(names, 3, idx, path, sizeof path); idx++) {
        if (path[0] == '\0')
            continue;
        void *lib = dlopen(path, RTLD_NOW | RTLD_LOCAL);
        if (lib == NULL) {
            const char *d = dlerror();
            why_add(fft.why, sizeof fft.why, "%s", d ? d : path);
            continue;
        }
        int ok = sym(lib, &fft.plan_1d, "cufftPlan1d", e, sizeof e) &&
                 sym(lib, &fft.set_stream, "cufftSetStream", e, sizeof e) &&
                 sym(lib, &fft.exec_c2c, "cufftExecC2C", e, sizeof e) &&
                 sym(lib, &fft.destroy, "cufftDestroy", e, sizeof e);
        if (!ok) {
            why_add(fft.why, sizeof fft.why, "%s: %s", path, e);
            continue;
        }
        if (!sym(lib, &fft.get_version, "cufftGetVersion", e, sizeof e))
            fft.get_version = NULL;
        cufftHandle plan;
        cufftResult r = fft.plan_1d(&plan, 8, CUFFT_C2C, 1);
        if (r != CUFFT_SUCCESS) {
            why_add(fft.why, sizeof fft.why, "%s: cufftPlan1d(8, C2C) returned %d", path, (int)r);
            continue;
        }
        fft.destroy(plan);
        int version = 0;
        if (fft.get_version == NULL || fft.get_version(&version) != CUFFT_SUCCESS)
            version = 0;
        snprintf(fft.path, sizeof fft.path, "%s (version %d)", path, version);
        fft.lib = lib;
        return;
    }
}

/* Cases skipped (cmocka's skip(), counted so that a run where every case was skipped exits
 * 77, which ctest reports as skipped rather than passed). */
static int skipped_cases;
#define SKIP_CASE()                                                                                \
    do {                                                                                           \
        skipped_cases++;                                                                           \
        skip();                                                                                    \
    } while (0)

/* ---- checks ---------------------------------------------------------------------------- */

static const char *blas_status(cublasStatus_t s) {
    const char *n = blas.status_name ? blas.status_name(s) : NULL;
    return n ? n : "(no name)";
}

/* A cuBLAS call that must succeed. */
#define BLAS(call)                                                                                 \
    do {                                                                                           \
        cublasStatus_t bl_s_ = (call);                                                             \
        if (bl_s_ != CUBLAS_STATUS_SUCCESS)                                                        \
            fail_msg("%s:%d: %s: expected CUBLAS_STATUS_SUCCESS, got %d (%s)", __FILE__, __LINE__, \
                     #call, (int)bl_s_, blas_status(bl_s_));                                       \
    } while (0)

/* A cuFFT call that must succeed. */
#define FFT(call)                                                                                  \
    do {                                                                                           \
        cufftResult ff_r_ = (call);                                                                \
        if (ff_r_ != CUFFT_SUCCESS)                                                                \
            fail_msg("%s:%d: %s: expected CUFFT_SUCCESS, got cufftResult %d", __FILE__, __LINE__,  \
                     #call, (int)ff_r_);                                                           \
    } while (0)

static CUdeviceptr dalloc(size_t bytes) {
    CUdeviceptr p = 0;
    CU(cu.cuMemAlloc(&p, bytes));
    CU(cu.cuMemsetD8(p, 0, bytes));
    return p;
}

static void *halloc(size_t bytes) {
    void *p = calloc(1, bytes);
    assert_non_null(p);
    return p;
}

/* A multiple of 1/4 in [-1, 1], from a cheap hash of (i, seed). */
static float quarter(size_t i, unsigned seed) {
    unsigned h = (unsigned)i * 2654435761u + seed * 40503u;
    h ^= h >> 13;
    return (float)((int)(h % 9u) - 4) * 0.25f;
}

static uint32_t float_bits(float f) {
    uint32_t u;
    memcpy(&u, &f, sizeof u);
    return u;
}

/* Fills a device buffer of floats with NaN, so that a launch that wrote nothing is seen. */
static void poison(CUdeviceptr p, size_t floats) {
    CU(dx.cuMemsetD32(p, 0xffffffffu, floats));
}

/* Compares n floats with want, within 1e-4 * (1 + |want|); fails naming the first mismatch. */
static void expect_floats(const float *got, const float *want, size_t n, const char *what) {
    size_t bad = 0, first = 0;
    for (size_t i = 0; i < n; i++) {
        double tol = 1e-4 * (1.0 + fabs((double)want[i]));
        if (!(fabs((double)got[i] - (double)want[i]) <= tol)) {
            if (bad == 0)
                first = i;
            bad++;
        }
    }
    if (bad)
        fail_msg("%s: %zu of %zu values wrong; first at index %zu: expected %.6g, got %.6g", what,
                 bad, n, first, (double)want[first], (double)got[first]);
}

/* The documented statuses of a refusal (accepted where the docs leave the status open). */
static int documented_refusal(cgn_status st) {
    return st == CGN_ERROR_NOT_SUPPORTED || st == CGN_ERROR_DRIVER || st == CGN_ERROR_NO_CONTEXT ||
           st == CGN_ERROR_DRIVER_TOO_OLD;
}

/* ---- adoption and the node inventory ---------------------------------------------------- */

/* Adopts `raw`. Returns 1 when adopted; 0 when cgn refused with the limit docs/adopt.md
 * documents for graphs whose edges carry data (programmatic dependent launch: cuGraphGetEdges
 * is CUDA_ERROR_LOSSY_QUERY), which a library may use; `raw` is then untouched (the caller
 * destroys it) and the case is to be skipped. Any other failure fails the test. */
static int adopt(CUgraph raw, unsigned flags, cgn_graph **out, const char *what) {
    *out = NULL;
    cgn_status st = cgn_graph_adopt(raw, flags, out);
    if (st == CGN_OK) {
        assert_non_null(*out);
        return 1;
    }
    const char *msg = cgn_last_error();
    if (st == CGN_ERROR_DRIVER && msg && strstr(msg, "LOSSY_QUERY")) {
        printf("  [%s] cgn_graph_adopt refused the graph with the documented limit for edges "
               "carrying data (programmatic dependent launch): %s\n",
               what, msg);
        return 0;
    }
    fail_msg("%s: cgn_graph_adopt -> %s: %s", what, cgn_status_name(st), msg);
    return 0;
}

static const char *cgn_type_name(cgn_node_type t) {
    static const char *const names[CGN_NODE_TYPE_COUNT_] = {
        "empty",        "kernel",         "memset",       "memcpy",     "host",      "child",
        "ev_record",    "ev_wait",        "other",        "memcpy_3d",  "mem_alloc", "mem_free",
        "batch_mem_op", "ext_sem_signal", "ext_sem_wait", "conditional"};
    return (unsigned)t < CGN_NODE_TYPE_COUNT_ ? names[t] : "out-of-range";
}

/* Whether cgn's type `t` is what adoption should make of CUDA's node type `ct`. */
static int type_matches(CUgraphNodeType ct, cgn_node_type t) {
    switch (ct) {
    case CU_GRAPH_NODE_TYPE_KERNEL:
        return t == CGN_NODE_KERNEL;
    case CU_GRAPH_NODE_TYPE_MEMCPY:
        return t == CGN_NODE_MEMCPY || t == CGN_NODE_MEMCPY_3D;
    case CU_GRAPH_NODE_TYPE_MEMSET:
        return t == CGN_NODE_MEMSET;
    case CU_GRAPH_NODE_TYPE_HOST:
        return t == CGN_NODE_HOST;
    case CU_GRAPH_NODE_TYPE_GRAPH:
        return t == CGN_NODE_CHILD_GRAPH;
    case CU_GRAPH_NODE_TYPE_EMPTY:
        return t == CGN_NODE_EMPTY;
    case CU_GRAPH_NODE_TYPE_WAIT_EVENT:
        return t == CGN_NODE_EVENT_WAIT;
    case CU_GRAPH_NODE_TYPE_EVENT_RECORD:
        return t == CGN_NODE_EVENT_RECORD;
    case CU_GRAPH_NODE_TYPE_EXT_SEMAS_SIGNAL:
        return t == CGN_NODE_EXT_SEM_SIGNAL;
    case CU_GRAPH_NODE_TYPE_EXT_SEMAS_WAIT:
        return t == CGN_NODE_EXT_SEM_WAIT;
    case CU_GRAPH_NODE_TYPE_MEM_ALLOC:
        return t == CGN_NODE_MEM_ALLOC;
    case CU_GRAPH_NODE_TYPE_MEM_FREE:
        return t == CGN_NODE_MEM_FREE;
    case CU_GRAPH_NODE_TYPE_BATCH_MEM_OP:
        return t == CGN_NODE_BATCH_MEM_OP;
    case CU_GRAPH_NODE_TYPE_CONDITIONAL:
        return t == CGN_NODE_CONDITIONAL || t == CGN_NODE_OTHER;
    default:
        return t == CGN_NODE_OTHER;
    }
}

/* The graph's nodes (cgn_graph_nodes order), malloc'd; *n receives the count. */
static cgn_node **list_nodes(cgn_graph *graph, size_t *n) {
    size_t count = 0;
    OK(cgn_graph_nodes(graph, NULL, &count));
    cgn_node **nodes = halloc((count ? count : 1) * sizeof *nodes);
    size_t got = count;
    OK(cgn_graph_nodes(graph, nodes, &got));
    if (got != count)
        fail_msg("cgn_graph_nodes: first call counted %zu nodes, second %zu", count, got);
    *n = count;
    return nodes;
}

/* Checks what adoption made of `raw`: as many cgn nodes as cuGraphGetNodes lists, each raw
 * node found once, each type known and consistent with CUDA's, kernel nodes updatable, the
 * others updatable or refused with CGN_ERROR_NOT_SUPPORTED and a message. Prints the types. */
static void check_inventory(cgn_graph *graph, CUgraph raw, const char *what) {
    size_t n_raw = 0;
    CU(dx.cuGraphGetNodes(raw, NULL, &n_raw));
    size_t n = 0;
    cgn_node **nodes = list_nodes(graph, &n);
    if (n != n_raw)
        fail_msg("%s: cgn_graph_nodes lists %zu nodes, cuGraphGetNodes %zu", what, n, n_raw);
    CUgraphNode *raws = halloc((n_raw ? n_raw : 1) * sizeof *raws);
    size_t got_raw = n_raw;
    CU(dx.cuGraphGetNodes(raw, raws, &got_raw));
    assert_int_equal(got_raw, n_raw);
    for (size_t i = 0; i < n_raw; i++) {
        cgn_node *found = NULL;
        OK(cgn_graph_find_raw(graph, raws[i], &found));
        assert_non_null(found);
        size_t hits = 0;
        for (size_t j = 0; j < n; j++)
            hits += nodes[j] == found;
        if (hits != 1)
            fail_msg("%s: raw node %zu maps to a cgn node listed %zu times", what, i, hits);
    }
    size_t per_type[CGN_NODE_TYPE_COUNT_] = {0};
    for (size_t i = 0; i < n; i++) {
        cgn_node_type t = CGN_NODE_TYPE_COUNT_;
        OK(cgn_node_type_of(nodes[i], &t));
        if ((unsigned)t >= CGN_NODE_TYPE_COUNT_)
            fail_msg("%s: node %zu: cgn_node_type_of gave %d, not a cgn_node_type", what, i,
                     (int)t);
        per_type[t]++;
        CUgraphNode rn = NULL;
        OK(cgn_node_raw(nodes[i], &rn));
        CUgraphNodeType ct;
        CU(dx.cuGraphNodeGetType(rn, &ct));
        if (!type_matches(ct, t))
            fail_msg("%s: node %zu: CUDA type %d adopted as cgn type %s", what, i, (int)ct,
                     cgn_type_name(t));
        if (t == CGN_NODE_KERNEL) {
            /* The node is found by the kernel it launches (how a user finds library nodes). */
            cgn_kernel_desc d;
            OK(cgn_kernel_node_get(nodes[i], &d));
            size_t found = 0;
            OK(cgn_graph_find_kernel(graph, d.kernel, NULL, &found));
            cgn_node **same = halloc((found ? found : 1) * sizeof *same);
            size_t got = found, hits = 0;
            OK(cgn_graph_find_kernel(graph, d.kernel, same, &got));
            for (size_t j = 0; j < got && j < found; j++)
                hits += same[j] == nodes[i];
            free(same);
            if (hits != 1)
                fail_msg("%s: kernel node %zu: cgn_graph_find_kernel with its own kernel listed "
                         "%zu nodes, the node itself %zu times (expected once)",
                         what, i, found, hits);
        }
        cgn_status st = cgn_node_check_updatable(nodes[i]);
        if (st == CGN_OK)
            continue;
        const char *msg = cgn_last_error();
        if (st != CGN_ERROR_NOT_SUPPORTED || msg == NULL || msg[0] == '\0')
            fail_msg("%s: node %zu (%s): cgn_node_check_updatable -> %s with message \"%s\" "
                     "(expected CGN_OK or CGN_ERROR_NOT_SUPPORTED with a reason)",
                     what, i, cgn_type_name(t), cgn_status_name(st), msg ? msg : "(null)");
        if (t == CGN_NODE_KERNEL)
            fail_msg("%s: kernel node %zu of a library graph is not updatable: %s", what, i, msg);
        printf("  [%s] node %zu (%s) not updatable: %s\n", what, i, cgn_type_name(t), msg);
    }
    char line[512];
    size_t used = 0;
    line[0] = '\0';
    for (unsigned t = 0; t < CGN_NODE_TYPE_COUNT_; t++)
        if (per_type[t] && used < sizeof line) {
            int w = snprintf(line + used, sizeof line - used, " %s x%zu",
                             cgn_type_name((cgn_node_type)t), per_type[t]);
            used += w > 0 ? (size_t)w : 0;
        }
    printf("  [%s] %zu nodes:%s\n", what, n, line);
    free(raws);
    free(nodes);
}

/* Prints each kernel node's shape (once per graph, for the record). */
static void describe_kernels(cgn_graph *graph, const char *what) {
    size_t n = 0;
    cgn_node **nodes = list_nodes(graph, &n);
    for (size_t i = 0; i < n; i++) {
        cgn_node_type t;
        OK(cgn_node_type_of(nodes[i], &t));
        if (t != CGN_NODE_KERNEL)
            continue;
        cgn_kernel_desc d;
        OK(cgn_kernel_node_get(nodes[i], &d));
        CUgraphNode rn;
        OK(cgn_node_raw(nodes[i], &rn));
        CUlaunchAttributeValue cl;
        memset(&cl, 0, sizeof cl);
        CUresult r =
            dx.cuGraphKernelNodeGetAttribute(rn, CU_LAUNCH_ATTRIBUTE_CLUSTER_DIMENSION, &cl);
        char sizes[256];
        size_t used = 0;
        sizes[0] = '\0';
        for (uint32_t a = 0; a < d.num_args && used < sizeof sizes; a++) {
            int w =
                snprintf(sizes + used, sizeof sizes - used, "%s%zu", a ? "," : "", d.args[a].size);
            used += w > 0 ? (size_t)w : 0;
        }
        printf("  [%s] kernel node %zu: %s, grid %ux%ux%u, block %ux%ux%u, shmem %u, %u args "
               "(bytes %s), cluster %s%ux%ux%u\n",
               what, i, d.kernel.function ? "CUfunction" : "CUkernel", d.grid.x, d.grid.y, d.grid.z,
               d.block.x, d.block.y, d.block.z, d.shared_mem_bytes, d.num_args, sizes,
               r == CUDA_SUCCESS ? "" : "(unreadable) ", cl.clusterDim.x, cl.clusterDim.y,
               cl.clusterDim.z);
    }
    free(nodes);
}

/* ---- kernel descriptor snapshots -------------------------------------------------------- */

/* A deep copy of a kernel descriptor: its arguments in the caller's memory. */
typedef struct ksnap {
    cgn_kernel kernel;
    cgn_dim3 grid, block;
    uint32_t shared_mem_bytes;
    uint32_t num_args;
    cgn_arg *args; /* values point into bytes */
    unsigned char *bytes;
} ksnap;

static void snap_take(ksnap *s, const cgn_kernel_desc *d) {
    memset(s, 0, sizeof *s);
    s->kernel = d->kernel;
    s->grid = d->grid;
    s->block = d->block;
    s->shared_mem_bytes = d->shared_mem_bytes;
    s->num_args = d->num_args;
    size_t total = 0;
    for (uint32_t i = 0; i < d->num_args; i++)
        total += (d->args[i].size + 15u) & ~(size_t)15u;
    s->args = halloc((d->num_args ? d->num_args : 1) * sizeof *s->args);
    s->bytes = halloc(total ? total : 1);
    size_t off = 0;
    for (uint32_t i = 0; i < d->num_args; i++) {
        assert_true(d->args[i].size == 0 || d->args[i].value != NULL);
        if (d->args[i].size)
            memcpy(s->bytes + off, d->args[i].value, d->args[i].size);
        s->args[i].value = s->bytes + off;
        s->args[i].size = d->args[i].size;
        s->args[i].owner = NULL;
        off += (d->args[i].size + 15u) & ~(size_t)15u;
    }
}

static void snap_free(ksnap *s) {
    free(s->args);
    free(s->bytes);
    memset(s, 0, sizeof *s);
}

/* The descriptor must equal the snapshot: kernel, shape, and every argument's size and bytes. */
static void snap_expect(const ksnap *s, const cgn_kernel_desc *d, const char *what, size_t node) {
    if (d->kernel.function != s->kernel.function || d->kernel.kernel != s->kernel.kernel)
        fail_msg("%s: kernel node %zu: kernel changed from {%p,%p} to {%p,%p}", what, node,
                 (void *)s->kernel.function, (void *)s->kernel.kernel, (void *)d->kernel.function,
                 (void *)d->kernel.kernel);
    if (memcmp(&d->grid, &s->grid, sizeof s->grid) != 0 ||
        memcmp(&d->block, &s->block, sizeof s->block) != 0)
        fail_msg("%s: kernel node %zu: launch shape changed: grid %ux%ux%u block %ux%ux%u, "
                 "expected grid %ux%ux%u block %ux%ux%u",
                 what, node, d->grid.x, d->grid.y, d->grid.z, d->block.x, d->block.y, d->block.z,
                 s->grid.x, s->grid.y, s->grid.z, s->block.x, s->block.y, s->block.z);
    if (d->shared_mem_bytes != s->shared_mem_bytes)
        fail_msg("%s: kernel node %zu: shared_mem_bytes expected %u, got %u", what, node,
                 s->shared_mem_bytes, d->shared_mem_bytes);
    if (d->num_args != s->num_args)
        fail_msg("%s: kernel node %zu: expected %u args, got %u", what, node, s->num_args,
                 d->num_args);
    for (uint32_t i = 0; i < s->num_args; i++) {
        if (d->args[i].size != s->args[i].size)
            fail_msg("%s: kernel node %zu: arg %u: expected %zu bytes, got %zu", what, node, i,
                     s->args[i].size, d->args[i].size);
        const unsigned char *g = d->args[i].value, *w = s->args[i].value;
        for (size_t b = 0; b < s->args[i].size; b++)
            if (g[b] != w[b])
                fail_msg("%s: kernel node %zu: arg %u (%zu bytes): byte %zu expected 0x%02x, "
                         "got 0x%02x",
                         what, node, i, s->args[i].size, b, w[b], g[b]);
    }
}

/* Launch attributes cgn neither reads nor sets (docs/adopt.md): they must survive updates. */
#define NUM_ATTRS 3
static const CUlaunchAttributeID attr_ids[NUM_ATTRS] = {CU_LAUNCH_ATTRIBUTE_CLUSTER_DIMENSION,
                                                        CU_LAUNCH_ATTRIBUTE_COOPERATIVE,
                                                        CU_LAUNCH_ATTRIBUTE_PRIORITY};
static const char *const attr_names[NUM_ATTRS] = {"cluster dimension", "cooperative", "priority"};

typedef struct kattrs {
    CUresult r[NUM_ATTRS];
    CUlaunchAttributeValue v[NUM_ATTRS];
} kattrs;

static void attrs_read(CUgraphNode rn, kattrs *a) {
    memset(a, 0, sizeof *a);
    for (int i = 0; i < NUM_ATTRS; i++)
        a->r[i] = dx.cuGraphKernelNodeGetAttribute(rn, attr_ids[i], &a->v[i]);
}

static void attrs_expect(const kattrs *before, const kattrs *after, const char *what, size_t node) {
    for (int i = 0; i < NUM_ATTRS; i++) {
        if (before->r[i] != after->r[i])
            fail_msg("%s: kernel node %zu: reading attribute %s: CUresult %d before the update, "
                     "%d after",
                     what, node, attr_names[i], (int)before->r[i], (int)after->r[i]);
        if (before->r[i] != CUDA_SUCCESS)
            continue;
        const CUlaunchAttributeValue *b = &before->v[i], *f = &after->v[i];
        int same = i == 0
                       ? b->clusterDim.x == f->clusterDim.x && b->clusterDim.y == f->clusterDim.y &&
                             b->clusterDim.z == f->clusterDim.z
                   : i == 1 ? b->cooperative == f->cooperative
                            : b->priority == f->priority;
        if (!same)
            fail_msg("%s: kernel node %zu: attribute %s changed by the update (cluster %ux%ux%u -> "
                     "%ux%ux%u, cooperative %d -> %d, priority %d -> %d)",
                     what, node, attr_names[i], b->clusterDim.x, b->clusterDim.y, b->clusterDim.z,
                     f->clusterDim.x, f->clusterDim.y, f->clusterDim.z, b->cooperative,
                     f->cooperative, b->priority, f->priority);
    }
}

/* For every kernel node of `graph`: every argument set to its current value (all of them with
 * cgn_kernel_update_set_args, then argument 0 alone with cgn_kernel_update_set_arg), at
 * definition level and in `exec`; the getters must then report the same kernel, shape and
 * argument bytes, and the launch attributes must be as before. Then cgn_node_refresh on every
 * node: CGN_OK (and nothing changed) or a documented refusal with a message. */
static void roundtrip_kernels(cgn_graph *graph, cgn_exec *exec, const char *what) {
    size_t n = 0;
    cgn_node **nodes = list_nodes(graph, &n);
    size_t kernels = 0;
    for (size_t i = 0; i < n; i++) {
        cgn_node_type t;
        OK(cgn_node_type_of(nodes[i], &t));
        if (t != CGN_NODE_KERNEL)
            continue;
        kernels++;
        CUgraphNode rn;
        OK(cgn_node_raw(nodes[i], &rn));
        kattrs before, after;
        attrs_read(rn, &before);

        cgn_kernel_desc d;
        OK(cgn_kernel_node_get(nodes[i], &d));
        ksnap s;
        snap_take(&s, &d);

        /* Definition level: every argument, given as the getter returned them (pointers into
         * cgn's own copy, valid until this update). */
        cgn_kernel_update u = CGN_KERNEL_UPDATE_INIT;
        cgn_kernel_update_set_args(&u, d.args, d.num_args);
        OK(cgn_kernel_node_update(nodes[i], &u));
        OK(cgn_kernel_node_get(nodes[i], &d));
        snap_expect(&s, &d, "definition after set_args(current)", i);
        attrs_read(rn, &after);
        attrs_expect(&before, &after, "definition after set_args(current)", i);

        /* Definition level: argument 0 alone, with its own current bytes. */
        if (s.num_args > 0) {
            cgn_kernel_update_reset(&u);
            cgn_kernel_update_set_arg(&u, 0, s.args[0].value, s.args[0].size, NULL);
            OK(cgn_kernel_node_update(nodes[i], &u));
            OK(cgn_kernel_node_get(nodes[i], &d));
            snap_expect(&s, &d, "definition after set_arg(0, current)", i);
            attrs_read(rn, &after);
            attrs_expect(&before, &after, "definition after set_arg(0, current)", i);
        }

        /* Executable level: the executable's own copy must equal the definition's, then the
         * same two updates. */
        cgn_kernel_desc e;
        OK(cgn_kernel_exec_get(exec, nodes[i], &e));
        snap_expect(&s, &e, "executable copy before the updates", i);
        cgn_kernel_update v = CGN_KERNEL_UPDATE_INIT;
        cgn_kernel_update_set_args(&v, s.args, s.num_args);
        OK(cgn_kernel_exec_update(exec, nodes[i], &v));
        OK(cgn_kernel_exec_get(exec, nodes[i], &e));
        snap_expect(&s, &e, "executable after set_args(current)", i);
        if (s.num_args > 0) {
            cgn_kernel_update_reset(&v);
            cgn_kernel_update_set_arg(&v, 0, s.args[0].value, s.args[0].size, NULL);
            OK(cgn_kernel_exec_update(exec, nodes[i], &v));
            OK(cgn_kernel_exec_get(exec, nodes[i], &e));
            snap_expect(&s, &e, "executable after set_arg(0, current)", i);
        }
        snap_free(&s);
    }
    if (kernels == 0)
        fail_msg("%s: the library graph has no kernel node", what);

    /* Refresh every node from the driver. */
    for (size_t i = 0; i < n; i++) {
        cgn_node_type t;
        OK(cgn_node_type_of(nodes[i], &t));
        ksnap s;
        memset(&s, 0, sizeof s);
        int is_kernel = t == CGN_NODE_KERNEL;
        if (is_kernel) {
            cgn_kernel_desc d;
            OK(cgn_kernel_node_get(nodes[i], &d));
            snap_take(&s, &d);
        }
        cgn_status st = cgn_node_refresh(nodes[i]);
        if (st != CGN_OK) {
            const char *msg = cgn_last_error();
            if (!documented_refusal(st) || msg == NULL || msg[0] == '\0')
                fail_msg("%s: node %zu (%s): cgn_node_refresh -> %s (\"%s\"): not a documented "
                         "status",
                         what, i, cgn_type_name(t), cgn_status_name(st), msg ? msg : "(null)");
            printf("  [%s] node %zu (%s): cgn_node_refresh refused: %s: %s\n", what, i,
                   cgn_type_name(t), cgn_status_name(st), msg);
        } else if (is_kernel) {
            cgn_kernel_desc d;
            OK(cgn_kernel_node_get(nodes[i], &d));
            snap_expect(&s, &d, "definition after cgn_node_refresh", i);
        }
        if (is_kernel)
            snap_free(&s);
    }
    printf("  [%s] %zu kernel nodes: set_args(current), set_arg(0, current) at both levels, "
           "refresh: unchanged\n",
           what, kernels);
    free(nodes);
}

/* ---- GEMM fixture ----------------------------------------------------------------------- */

typedef struct gemm {
    const char *name;
    int m, n, k;
    cublasOperation_t ta, tb;
    int lda, ldb, ldc;
    size_t a_elems, b_elems, c_elems;
    float *ha, *hb, *hb2, *ref, *ref2, *hc;
    CUdeviceptr a, b, b2, c, ws;
    size_t ws_bytes;
    CUstream stream;
    cublasHandle_t handle;
} gemm;

static void gemm_reference(const gemm *g, const float *hb, float *out) {
    for (int j = 0; j < g->n; j++)
        for (int i = 0; i < g->m; i++) {
            double sum = 0.0;
            for (int l = 0; l < g->k; l++) {
                float av = g->ta == CUBLAS_OP_N ? g->ha[i + (size_t)l * g->lda]
                                                : g->ha[l + (size_t)i * g->lda];
                float bv =
                    g->tb == CUBLAS_OP_N ? hb[l + (size_t)j * g->ldb] : hb[j + (size_t)l * g->ldb];
                sum += (double)av * (double)bv;
            }
            out[i + (size_t)j * g->ldc] = (float)sum;
        }
}

/* Runs C = op(A) * op(b) on the fixture's stream (eagerly, or into a capture). */
static cublasStatus_t gemm_call(gemm *g, CUdeviceptr b) {
    const float alpha = 1.0f, beta = 0.0f;
    return blas.sgemm(g->handle, g->ta, g->tb, g->m, g->n, g->k, &alpha,
                      (const float *)(uintptr_t)g->a, g->lda, (const float *)(uintptr_t)b, g->ldb,
                      &beta, (float *)(uintptr_t)g->c, g->ldc);
}

/* Reads C after synchronising and compares it with `ref`. */
static void gemm_expect(gemm *g, const float *ref, const char *what) {
    CU(cu.cuStreamSynchronize(g->stream));
    CU(cu.cuMemcpyDtoH(g->hc, g->c, g->c_elems * sizeof(float)));
    char label[256];
    snprintf(label, sizeof label, "%s (%s: %dx%dx%d, %s%s)", what, g->name, g->m, g->n, g->k,
             g->ta == CUBLAS_OP_N ? "N" : "T", g->tb == CUBLAS_OP_N ? "N" : "T");
    expect_floats(g->hc, ref, g->c_elems, label);
}

/* Launches the executable with C poisoned first, and checks C against `ref`. */
static void gemm_run(gemm *g, cgn_exec *exec, const float *ref, const char *what) {
    poison(g->c, g->c_elems);
    OK(cgn_exec_launch(exec, g->stream));
    gemm_expect(g, ref, what);
}

static void gemm_setup(gemm *g, const char *name, int m, int n, int k, cublasOperation_t ta,
                       cublasOperation_t tb) {
    memset(g, 0, sizeof *g);
    g->name = name;
    g->m = m;
    g->n = n;
    g->k = k;
    g->ta = ta;
    g->tb = tb;
    g->lda = ta == CUBLAS_OP_N ? m : k;
    g->ldb = tb == CUBLAS_OP_N ? k : n;
    g->ldc = m;
    g->a_elems = (size_t)m * (size_t)k;
    g->b_elems = (size_t)k * (size_t)n;
    g->c_elems = (size_t)m * (size_t)n;
    g->ha = halloc(g->a_elems * sizeof(float));
    g->hb = halloc(g->b_elems * sizeof(float));
    g->hb2 = halloc(g->b_elems * sizeof(float));
    g->ref = halloc(g->c_elems * sizeof(float));
    g->ref2 = halloc(g->c_elems * sizeof(float));
    g->hc = halloc(g->c_elems * sizeof(float));
    for (size_t i = 0; i < g->a_elems; i++)
        g->ha[i] = quarter(i, 1);
    for (size_t i = 0; i < g->b_elems; i++) {
        g->hb[i] = quarter(i, 2);
        g->hb2[i] = quarter(i, 3);
    }
    gemm_reference(g, g->hb, g->ref);
    gemm_reference(g, g->hb2, g->ref2);
    g->a = dalloc(g->a_elems * sizeof(float));
    g->b = dalloc(g->b_elems * sizeof(float));
    g->b2 = dalloc(g->b_elems * sizeof(float));
    g->c = dalloc(g->c_elems * sizeof(float));
    g->ws_bytes = (size_t)32 << 20; /* cuBLAS's recommendation for Hopper */
    g->ws = dalloc(g->ws_bytes);
    CU(cu.cuMemcpyHtoD(g->a, g->ha, g->a_elems * sizeof(float)));
    CU(cu.cuMemcpyHtoD(g->b, g->hb, g->b_elems * sizeof(float)));
    CU(cu.cuMemcpyHtoD(g->b2, g->hb2, g->b_elems * sizeof(float)));
    CU(cu.cuStreamCreate(&g->stream, 0));
    BLAS(blas.create(&g->handle));
    /* A CUstream is a cudaStream_t. cublasSetStream resets the workspace: set ours after it,
     * so that captures use caller-owned memory (no allocation inside the capture). */
    BLAS(blas.set_stream(g->handle, (cudaStream_t)g->stream));
    BLAS(blas.set_workspace(g->handle, (void *)(uintptr_t)g->ws, g->ws_bytes));
    /* Warm-up, outside any capture (loads the kernels), checked against the host. */
    poison(g->c, g->c_elems);
    BLAS(gemm_call(g, g->b));
    gemm_expect(g, g->ref, "eager cublasSgemm (warm-up)");
}

static void gemm_teardown(gemm *g) {
    CU(cu.cuStreamSynchronize(g->stream));
    BLAS(blas.destroy(g->handle));
    CU(cu.cuStreamDestroy(g->stream));
    CU(cu.cuMemFree(g->ws));
    CU(cu.cuMemFree(g->c));
    CU(cu.cuMemFree(g->b2));
    CU(cu.cuMemFree(g->b));
    CU(cu.cuMemFree(g->a));
    free(g->ha);
    free(g->hb);
    free(g->hb2);
    free(g->ref);
    free(g->ref2);
    free(g->hc);
    memset(g, 0, sizeof *g);
}

/* Captures C = op(A) * op(b) into a raw graph (the caller's). */
static CUgraph gemm_capture(gemm *g, CUdeviceptr b, CUstreamCaptureMode mode) {
    CU(dx.cuStreamBeginCapture(g->stream, mode));
    cublasStatus_t s = gemm_call(g, b);
    CUgraph raw = NULL;
    CUresult r = dx.cuStreamEndCapture(g->stream, &raw);
    if (s != CUBLAS_STATUS_SUCCESS) {
        if (r == CUDA_SUCCESS && raw)
            dx.cuGraphDestroy(raw);
        fail_msg("cublasSgemm during capture: expected CUBLAS_STATUS_SUCCESS, got %d (%s)", (int)s,
                 blas_status(s));
    }
    if (r != CUDA_SUCCESS)
        fail_msg("cuStreamEndCapture after cublasSgemm: expected CUDA_SUCCESS, got %d", (int)r);
    assert_non_null(raw);
    return raw;
}

#define REQUIRE_CUBLAS()                                                                           \
    do {                                                                                           \
        if (blas.lib == NULL) {                                                                    \
            printf("  cuBLAS could not be loaded: %s\n", blas.why);                                \
            SKIP_CASE();                                                                           \
        }                                                                                          \
    } while (0)

static const struct {
    const char *name;
    int m, n, k;
    cublasOperation_t ta, tb;
} shapes[] = {
    {"square", 256, 256, 256, CUBLAS_OP_N, CUBLAS_OP_N},
    {"non-square, A transposed", 200, 72, 136, CUBLAS_OP_T, CUBLAS_OP_N},
};
#define NUM_SHAPES (sizeof shapes / sizeof shapes[0])

/* ---- 1. adopt a captured SGEMM, borrowed and owned ---------------------------------------- */

static void test_sgemm_adopt(void **state) {
    (void)state;
    REQUIRE_CUBLAS();
    int skipped = 0;
    for (size_t sh = 0; sh < NUM_SHAPES; sh++) {
        gemm g;
        gemm_setup(&g, shapes[sh].name, shapes[sh].m, shapes[sh].n, shapes[sh].k, shapes[sh].ta,
                   shapes[sh].tb);
        for (int owned = 0; owned < 2; owned++) {
            char what[128];
            snprintf(what, sizeof what, "sgemm %s, %s", g.name, owned ? "owned" : "borrowed");
            CUgraph raw = gemm_capture(&g, g.b, CU_STREAM_CAPTURE_MODE_GLOBAL);
            size_t n_raw = 0;
            CU(dx.cuGraphGetNodes(raw, NULL, &n_raw));
            cgn_graph *graph = NULL;
            if (!adopt(raw, owned ? CGN_ADOPT_TAKE_OWNERSHIP : 0, &graph, what)) {
                CU(dx.cuGraphDestroy(raw));
                skipped = 1;
                continue;
            }
            check_inventory(graph, raw, what);
            if (sh == 0 && owned == 0)
                describe_kernels(graph, what);
            cgn_exec *exec = NULL;
            OK(cgn_graph_instantiate(graph, &exec));
            gemm_run(&g, exec, g.ref, what);
            gemm_run(&g, exec, g.ref, what); /* a second launch of the same executable */
            if (owned) {
                /* The executable outlives the graph: cgn keeps the raw graph for it. */
                OK(cgn_graph_destroy(graph));
                gemm_run(&g, exec, g.ref, "owned graph destroyed, executable launched");
                OK(cgn_exec_destroy(exec));
            } else {
                /* An executable instantiated outside cgn (as a framework would), adopted for
                 * executable-level updates: every argument of every kernel set to its value. */
                CUgraphExec raw_exec = NULL;
                CU(dx.cuGraphInstantiateWithFlags(&raw_exec, raw, 0));
                cgn_exec *adopted = NULL;
                OK(cgn_exec_adopt(raw_exec, graph, CGN_ADOPT_TAKE_OWNERSHIP, &adopted));
                gemm_run(&g, adopted, g.ref, "adopted raw executable");
                size_t n = 0;
                cgn_node **nodes = list_nodes(graph, &n);
                for (size_t i = 0; i < n; i++) {
                    cgn_node_type t;
                    OK(cgn_node_type_of(nodes[i], &t));
                    if (t != CGN_NODE_KERNEL)
                        continue;
                    cgn_kernel_desc d;
                    OK(cgn_kernel_exec_get(adopted, nodes[i], &d));
                    ksnap s;
                    snap_take(&s, &d);
                    cgn_kernel_update u = CGN_KERNEL_UPDATE_INIT;
                    cgn_kernel_update_set_args(&u, s.args, s.num_args);
                    OK(cgn_kernel_exec_update(adopted, nodes[i], &u));
                    OK(cgn_kernel_exec_get(adopted, nodes[i], &d));
                    snap_expect(&s, &d, "adopted executable after set_args(current)", i);
                    snap_free(&s);
                }
                free(nodes);
                gemm_run(&g, adopted, g.ref, "adopted raw executable after set_args(current)");
                OK(cgn_exec_destroy(adopted)); /* destroys raw_exec (owned) */
                OK(cgn_exec_destroy(exec));
                OK(cgn_graph_destroy(graph));
                /* Borrowed: the raw graph is still the caller's, intact. */
                size_t after = 0;
                CU(dx.cuGraphGetNodes(raw, NULL, &after));
                if (after != n_raw)
                    fail_msg("%s: the borrowed raw graph had %zu nodes, %zu after "
                             "cgn_graph_destroy",
                             what, n_raw, after);
                CU(dx.cuGraphDestroy(raw));
            }
            cgn_collect();
        }
        gemm_teardown(&g);
    }
    cgn_collect();
    if (skipped) {
        printf("  skipped: cgn could not adopt a cuBLAS graph (documented limit, above)\n");
        SKIP_CASE();
    }
}

/* ---- 2. every kernel argument set to its current value ------------------------------------ */

static void test_sgemm_args_roundtrip(void **state) {
    (void)state;
    REQUIRE_CUBLAS();
    int skipped = 0;
    for (size_t sh = 0; sh < NUM_SHAPES; sh++) {
        gemm g;
        gemm_setup(&g, shapes[sh].name, shapes[sh].m, shapes[sh].n, shapes[sh].k, shapes[sh].ta,
                   shapes[sh].tb);
        char what[128];
        snprintf(what, sizeof what, "sgemm %s round trip", g.name);
        CUgraph raw = gemm_capture(&g, g.b, CU_STREAM_CAPTURE_MODE_GLOBAL);
        cgn_graph *graph = NULL;
        if (!adopt(raw, CGN_ADOPT_TAKE_OWNERSHIP, &graph, what)) {
            CU(dx.cuGraphDestroy(raw));
            gemm_teardown(&g);
            skipped = 1;
            continue;
        }
        check_inventory(graph, raw, what);
        cgn_exec *exec = NULL;
        OK(cgn_graph_instantiate(graph, &exec));
        gemm_run(&g, exec, g.ref, "before the round trip");
        roundtrip_kernels(graph, exec, what);
        gemm_run(&g, exec, g.ref, "executable after every argument was set to its value");
        cgn_exec *fresh = NULL;
        OK(cgn_graph_instantiate(graph, &fresh));
        gemm_run(&g, fresh, g.ref, "executable instantiated from the updated definition");
        /* And once more from the definition into the first executable. */
        OK(cgn_exec_update_from_graph(exec, graph));
        gemm_run(&g, exec, g.ref, "after cgn_exec_update_from_graph");
        OK(cgn_exec_destroy(fresh));
        OK(cgn_exec_destroy(exec));
        OK(cgn_graph_destroy(graph));
        gemm_teardown(&g);
        cgn_collect();
    }
    if (skipped) {
        printf("  skipped: cgn could not adopt a cuBLAS graph (documented limit, above)\n");
        SKIP_CASE();
    }
}

/* ---- 3. re-target B at executable level -------------------------------------------------------
 */

/* An argument of a kernel node that holds B's address: the whole argument (8 bytes), or a
 * larger one (a parameter struct) with B at one or more 8-byte fields. */
#define MAX_PATCHES 16
typedef struct patch {
    cgn_node *node;
    size_t node_index;
    uint32_t arg;
    size_t size;
    size_t occurrences;
    unsigned char *orig;    /* the argument as captured (pointing at B) */
    unsigned char *patched; /* the same with every occurrence of B replaced by B2 */
} patch;

/* How many of C's values differ from `ref` (after synchronising); no failure. */
static size_t gemm_mismatches(gemm *g, const float *ref) {
    CU(cu.cuStreamSynchronize(g->stream));
    CU(cu.cuMemcpyDtoH(g->hc, g->c, g->c_elems * sizeof(float)));
    size_t bad = 0;
    for (size_t i = 0; i < g->c_elems; i++)
        bad += !(fabs((double)g->hc[i] - (double)ref[i]) <= 1e-4 * (1.0 + fabs((double)ref[i])));
    return bad;
}

static void apply_patches(cgn_exec *exec, const patch *p, size_t count, int to_b2) {
    for (size_t h = 0; h < count; h++) {
        cgn_kernel_update u = CGN_KERNEL_UPDATE_INIT;
        cgn_kernel_update_set_arg(&u, p[h].arg, to_b2 ? p[h].patched : p[h].orig, p[h].size, NULL);
        OK(cgn_kernel_exec_update(exec, p[h].node, &u));
    }
}

static void test_sgemm_retarget_pointer(void **state) {
    (void)state;
    REQUIRE_CUBLAS();
    gemm g;
    gemm_setup(&g, shapes[0].name, shapes[0].m, shapes[0].n, shapes[0].k, shapes[0].ta,
               shapes[0].tb);
    const char *what = "sgemm re-target B";
    CUgraph raw = gemm_capture(&g, g.b, CU_STREAM_CAPTURE_MODE_GLOBAL);
    cgn_graph *graph = NULL;
    if (!adopt(raw, CGN_ADOPT_TAKE_OWNERSHIP, &graph, what)) {
        CU(dx.cuGraphDestroy(raw));
        gemm_teardown(&g);
        SKIP_CASE();
        return;
    }
    cgn_exec *exec = NULL, *other = NULL;
    OK(cgn_graph_instantiate(graph, &exec));
    OK(cgn_graph_instantiate(graph, &other));
    gemm_run(&g, exec, g.ref, "before re-targeting");

    /* Every kernel argument holding B's device address, whole or at an 8-byte field inside. */
    size_t n = 0;
    cgn_node **nodes = list_nodes(graph, &n);
    patch patches[MAX_PATCHES];
    size_t num_patches = 0, direct = 0, in_struct = 0, overflow = 0;
    for (size_t i = 0; i < n; i++) {
        cgn_node_type t;
        OK(cgn_node_type_of(nodes[i], &t));
        if (t != CGN_NODE_KERNEL)
            continue;
        cgn_kernel_desc d;
        OK(cgn_kernel_node_get(nodes[i], &d));
        for (uint32_t a = 0; a < d.num_args; a++) {
            size_t size = d.args[a].size, found = 0;
            const unsigned char *bytes = d.args[a].value;
            for (size_t off = 0; off + sizeof(CUdeviceptr) <= size; off += 4) {
                CUdeviceptr v;
                memcpy(&v, bytes + off, sizeof v);
                found += v == g.b;
            }
            if (found == 0)
                continue;
            if (num_patches == MAX_PATCHES) {
                overflow++;
                continue;
            }
            patch *p = &patches[num_patches++];
            p->node = nodes[i];
            p->node_index = i;
            p->arg = a;
            p->size = size;
            p->occurrences = found;
            p->orig = halloc(size);
            p->patched = halloc(size);
            memcpy(p->orig, bytes, size);
            memcpy(p->patched, bytes, size);
            for (size_t off = 0; off + sizeof(CUdeviceptr) <= size; off += 4) {
                CUdeviceptr v;
                memcpy(&v, p->orig + off, sizeof v);
                if (v == g.b)
                    memcpy(p->patched + off, &g.b2, sizeof g.b2);
            }
            if (size == sizeof(CUdeviceptr))
                direct++;
            else
                in_struct++;
            printf("  [%s] B is %s argument %u (%zu bytes) of kernel node %zu%s\n", what,
                   size == sizeof(CUdeviceptr) ? "the whole of" : "inside", a, size, i,
                   found > 1 ? " (several times)" : "");
        }
    }
    free(nodes);

    const char *skip_why = NULL;
    if (num_patches == 0)
        skip_why = "no kernel argument holds B's device address (cuBLAS reaches B in another form)";
    else if (overflow)
        skip_why = "B's address is in more kernel arguments than this test tracks";
    if (skip_why == NULL) {
        if (direct == 0)
            printf("  [%s] no argument is B's address itself; cuBLAS passes it inside a "
                   "parameter struct: re-targeting those fields\n",
                   what);
        apply_patches(exec, patches, num_patches, 1);
        poison(g.c, g.c_elems);
        OK(cgn_exec_launch(exec, g.stream));
        size_t bad = gemm_mismatches(&g, g.ref2);
        if (bad && in_struct > 0) {
            printf("  [%s] re-targeting B inside the library's parameter struct did not make the "
                   "GEMM read B2 (%zu of %zu values differ from A*B2): cuBLAS holds B in another "
                   "form too (e.g. a tensor-map descriptor), which no argument edit can reach\n",
                   what, bad, g.c_elems);
            skip_why = "B is not re-targetable through the library's arguments";
        } else {
            gemm_expect(&g, g.ref2, "executable re-targeted to B2");
        }
    }
    if (skip_why == NULL) {
        gemm_run(&g, other, g.ref, "second executable (not updated)");
        for (size_t h = 0; h < num_patches; h++) {
            cgn_kernel_desc d;
            OK(cgn_kernel_node_get(patches[h].node, &d));
            assert_int_equal(d.args[patches[h].arg].size, patches[h].size);
            if (memcmp(d.args[patches[h].arg].value, patches[h].orig, patches[h].size) != 0)
                fail_msg("%s: the definition's argument %u of node %zu changed (it must still "
                         "point at B)",
                         what, patches[h].arg, patches[h].node_index);
            OK(cgn_kernel_exec_get(exec, patches[h].node, &d));
            assert_int_equal(d.args[patches[h].arg].size, patches[h].size);
            if (memcmp(d.args[patches[h].arg].value, patches[h].patched, patches[h].size) != 0)
                fail_msg("%s: the executable's argument %u of node %zu is not the re-targeted "
                         "value",
                         what, patches[h].arg, patches[h].node_index);
        }
        cgn_exec *third = NULL;
        OK(cgn_graph_instantiate(graph, &third));
        gemm_run(&g, third, g.ref, "executable instantiated from the definition");
        OK(cgn_exec_destroy(third));
        apply_patches(exec, patches, num_patches, 0);
        gemm_run(&g, exec, g.ref, "executable re-targeted back to B");
        apply_patches(exec, patches, num_patches, 1);
        gemm_run(&g, exec, g.ref2, "executable re-targeted to B2 again");
        printf("  [%s] re-targeted %zu argument(s) (%zu whole, %zu inside structs) at executable "
               "level\n",
               what, num_patches, direct, in_struct);
    }

    for (size_t h = 0; h < num_patches; h++) {
        free(patches[h].orig);
        free(patches[h].patched);
    }
    OK(cgn_exec_destroy(other));
    OK(cgn_exec_destroy(exec));
    OK(cgn_graph_destroy(graph));
    gemm_teardown(&g);
    cgn_collect();
    if (skip_why) {
        printf("  [%s] skipped: %s\n", what, skip_why);
        SKIP_CASE();
    }
}

/* ---- 4. a definition-level edit carried into an executable -------------------------------- */

static void test_sgemm_update_from_graph(void **state) {
    (void)state;
    REQUIRE_CUBLAS();
    gemm g;
    gemm_setup(&g, shapes[0].name, shapes[0].m, shapes[0].n, shapes[0].k, shapes[0].ta,
               shapes[0].tb);
    const char *what = "sgemm update_from_graph";
    CUgraph raw1 = gemm_capture(&g, g.b, CU_STREAM_CAPTURE_MODE_GLOBAL);
    CUgraph raw2 = gemm_capture(&g, g.b2, CU_STREAM_CAPTURE_MODE_GLOBAL);
    cgn_graph *g1 = NULL, *g2 = NULL;
    if (!adopt(raw1, CGN_ADOPT_TAKE_OWNERSHIP, &g1, what)) {
        CU(dx.cuGraphDestroy(raw1));
        CU(dx.cuGraphDestroy(raw2));
        gemm_teardown(&g);
        SKIP_CASE();
        return;
    }
    /* The second capture is only read: adopted too, to compare its arguments with the first. */
    if (!adopt(raw2, CGN_ADOPT_TAKE_OWNERSHIP, &g2, what)) {
        CU(dx.cuGraphDestroy(raw2));
        OK(cgn_graph_destroy(g1));
        gemm_teardown(&g);
        SKIP_CASE();
        return;
    }
    cgn_exec *exec = NULL;
    OK(cgn_graph_instantiate(g1, &exec));
    gemm_run(&g, exec, g.ref, "first capture");

    size_t n1 = 0, n2 = 0;
    cgn_node **nodes1 = list_nodes(g1, &n1);
    cgn_node **nodes2 = list_nodes(g2, &n2);
    const char *mismatch = NULL;
    size_t edited_args = 0, edited_nodes = 0;
    if (n1 != n2)
        mismatch = "the two captures have different node counts";
    for (size_t i = 0; mismatch == NULL && i < n1; i++) {
        cgn_node_type t1, t2;
        OK(cgn_node_type_of(nodes1[i], &t1));
        OK(cgn_node_type_of(nodes2[i], &t2));
        if (t1 != t2) {
            mismatch = "the two captures have different node types";
            break;
        }
        if (t1 != CGN_NODE_KERNEL)
            continue;
        cgn_kernel_desc d1, d2;
        OK(cgn_kernel_node_get(nodes1[i], &d1));
        OK(cgn_kernel_node_get(nodes2[i], &d2));
        if (d1.kernel.function != d2.kernel.function || d1.kernel.kernel != d2.kernel.kernel ||
            d1.num_args != d2.num_args || memcmp(&d1.grid, &d2.grid, sizeof d1.grid) != 0 ||
            memcmp(&d1.block, &d2.block, sizeof d1.block) != 0 ||
            d1.shared_mem_bytes != d2.shared_mem_bytes) {
            mismatch = "the two captures launch different kernels or launch shapes";
            break;
        }
        ksnap s2;
        snap_take(&s2, &d2);
        uint32_t diff[CGN_MAX_ARG_EDITS];
        uint32_t num_diff = 0, total_diff = 0;
        for (uint32_t a = 0; a < d1.num_args; a++) {
            if (d1.args[a].size != d2.args[a].size) {
                mismatch = "the two captures' kernels have different argument sizes";
                break;
            }
            if (memcmp(d1.args[a].value, d2.args[a].value, d1.args[a].size) != 0) {
                if (num_diff < CGN_MAX_ARG_EDITS)
                    diff[num_diff++] = a;
                total_diff++;
            }
        }
        if (mismatch == NULL && total_diff > 0) {
            /* The differing arguments (B's address, wherever cuBLAS keeps it) take the second
             * capture's values, at definition level only. */
            cgn_kernel_update u = CGN_KERNEL_UPDATE_INIT;
            if (total_diff <= CGN_MAX_ARG_EDITS) {
                for (uint32_t e = 0; e < num_diff; e++)
                    cgn_kernel_update_set_arg(&u, diff[e], s2.args[diff[e]].value,
                                              s2.args[diff[e]].size, NULL);
            } else {
                cgn_kernel_update_set_args(&u, s2.args, s2.num_args);
            }
            OK(cgn_kernel_node_update(nodes1[i], &u));
            cgn_kernel_desc after;
            OK(cgn_kernel_node_get(nodes1[i], &after));
            snap_expect(&s2, &after, "definition after taking the second capture's arguments", i);
            printf("  [%s] kernel node %zu: %u argument(s) differ between the captures; set at "
                   "definition level\n",
                   what, i, total_diff);
            edited_args += total_diff;
            edited_nodes++;
        }
        snap_free(&s2);
    }
    free(nodes1);
    free(nodes2);

    if (mismatch == NULL && edited_args == 0)
        mismatch = "no kernel argument differs between captures with B and B2 (B reached "
                   "indirectly?)";
    if (mismatch) {
        printf("  [%s] cannot map one capture onto the other: %s\n", what, mismatch);
        OK(cgn_exec_destroy(exec));
        OK(cgn_graph_destroy(g2));
        OK(cgn_graph_destroy(g1));
        gemm_teardown(&g);
        cgn_collect();
        SKIP_CASE();
        return;
    }

    /* The executable keeps what it had until it is refreshed from the definition. */
    gemm_run(&g, exec, g.ref, "executable before cgn_exec_update_from_graph");
    OK(cgn_exec_update_from_graph(exec, g1));
    gemm_run(&g, exec, g.ref2, "executable after cgn_exec_update_from_graph");
    cgn_exec *fresh = NULL;
    OK(cgn_graph_instantiate(g1, &fresh));
    gemm_run(&g, fresh, g.ref2, "executable instantiated from the edited definition");
    printf("  [%s] %zu argument(s) of %zu kernel node(s) edited; executable refreshed\n", what,
           edited_args, edited_nodes);

    OK(cgn_exec_destroy(fresh));
    OK(cgn_exec_destroy(exec));
    OK(cgn_graph_destroy(g2));
    OK(cgn_graph_destroy(g1));
    gemm_teardown(&g);
    cgn_collect();
}

/* ---- 5. cuFFT ------------------------------------------------------------------------------- */

#define FFT_N 1000 /* 2^3 * 5^3: a mixed-radix plan */
#define FFT_BATCH 2

static void fft_expect(const cufftComplex *got, const double *want_re, const double *want_im,
                       size_t count, const char *what) {
    size_t bad = 0, first = 0;
    for (size_t i = 0; i < count; i++) {
        double tr = 2e-3 + 1e-4 * fabs(want_re[i]), ti = 2e-3 + 1e-4 * fabs(want_im[i]);
        if (!(fabs((double)got[i].x - want_re[i]) <= tr) ||
            !(fabs((double)got[i].y - want_im[i]) <= ti)) {
            if (bad == 0)
                first = i;
            bad++;
        }
    }
    if (bad)
        fail_msg("%s: %zu of %zu FFT outputs wrong; first at %zu: expected (%.6g, %.6g), got "
                 "(%.6g, %.6g)",
                 what, bad, count, first, want_re[first], want_im[first], (double)got[first].x,
                 (double)got[first].y);
}

static void fft_run(cgn_exec *exec, CUstream stream, CUdeviceptr out, cufftComplex *host,
                    const double *re, const double *im, const char *what) {
    size_t count = (size_t)FFT_N * FFT_BATCH;
    poison(out, count * 2);
    OK(cgn_exec_launch(exec, stream));
    CU(cu.cuStreamSynchronize(stream));
    CU(cu.cuMemcpyDtoH(host, out, count * sizeof *host));
    fft_expect(host, re, im, count, what);
}

static void test_cufft_c2c(void **state) {
    (void)state;
    if (fft.lib == NULL) {
        printf("  cuFFT could not be loaded: %s\n", fft.why);
        SKIP_CASE();
    }
    const char *what = "cufft C2C";
    size_t count = (size_t)FFT_N * FFT_BATCH;
    cufftComplex *hin = halloc(count * sizeof *hin);
    cufftComplex *hout = halloc(count * sizeof *hout);
    double *re = halloc(count * sizeof *re), *im = halloc(count * sizeof *im);
    for (size_t i = 0; i < count; i++) {
        hin[i].x = quarter(i, 5);
        hin[i].y = quarter(i, 6);
    }
    /* Naive forward DFT (exponent -2*pi*i*j*k/n), per batch. */
    const double two_pi = 6.283185307179586476925286766559;
    for (size_t b = 0; b < FFT_BATCH; b++)
        for (size_t k = 0; k < FFT_N; k++) {
            double sr = 0.0, si = 0.0;
            for (size_t j = 0; j < FFT_N; j++) {
                double ang = -two_pi * (double)((j * k) % FFT_N) / (double)FFT_N;
                double c = cos(ang), s = sin(ang);
                double xr = hin[b * FFT_N + j].x, xi = hin[b * FFT_N + j].y;
                sr += xr * c - xi * s;
                si += xr * s + xi * c;
            }
            re[b * FFT_N + k] = sr;
            im[b * FFT_N + k] = si;
        }
    CUdeviceptr din = dalloc(count * sizeof *hin), dout = dalloc(count * sizeof *hout);
    CU(cu.cuMemcpyHtoD(din, hin, count * sizeof *hin));
    CUstream stream;
    CU(cu.cuStreamCreate(&stream, 0));
    cufftHandle plan;
    FFT(fft.plan_1d(&plan, FFT_N, CUFFT_C2C, FFT_BATCH));
    FFT(fft.set_stream(plan, (cudaStream_t)stream));
    cufftComplex *pin = (cufftComplex *)(uintptr_t)din, *pout = (cufftComplex *)(uintptr_t)dout;
    /* Warm-up, outside capture, checked against the host. */
    poison(dout, count * 2);
    FFT(fft.exec_c2c(plan, pin, pout, CUFFT_FORWARD));
    CU(cu.cuStreamSynchronize(stream));
    CU(cu.cuMemcpyDtoH(hout, dout, count * sizeof *hout));
    fft_expect(hout, re, im, count, "eager cufftExecC2C (warm-up)");

    CU(dx.cuStreamBeginCapture(stream, CU_STREAM_CAPTURE_MODE_THREAD_LOCAL));
    cufftResult fr = fft.exec_c2c(plan, pin, pout, CUFFT_FORWARD);
    CUgraph raw = NULL;
    CUresult r = dx.cuStreamEndCapture(stream, &raw);
    if (fr != CUFFT_SUCCESS)
        fail_msg("cufftExecC2C during capture: expected CUFFT_SUCCESS, got %d", (int)fr);
    if (r != CUDA_SUCCESS)
        fail_msg("cuStreamEndCapture after cufftExecC2C: expected CUDA_SUCCESS, got %d", (int)r);
    cgn_graph *graph = NULL;
    int adopted = adopt(raw, CGN_ADOPT_TAKE_OWNERSHIP, &graph, what);
    if (adopted) {
        check_inventory(graph, raw, what);
        describe_kernels(graph, what);
        cgn_exec *exec = NULL;
        OK(cgn_graph_instantiate(graph, &exec));
        fft_run(exec, stream, dout, hout, re, im, "captured FFT");
        roundtrip_kernels(graph, exec, what);
        fft_run(exec, stream, dout, hout, re, im, "executable after the round trip");
        cgn_exec *fresh = NULL;
        OK(cgn_graph_instantiate(graph, &fresh));
        fft_run(fresh, stream, dout, hout, re, im, "instantiated from the updated definition");
        OK(cgn_exec_destroy(fresh));
        OK(cgn_exec_destroy(exec));
        OK(cgn_graph_destroy(graph));
    } else {
        CU(dx.cuGraphDestroy(raw));
    }
    CU(cu.cuStreamSynchronize(stream));
    FFT(fft.destroy(plan));
    CU(cu.cuStreamDestroy(stream));
    CU(cu.cuMemFree(dout));
    CU(cu.cuMemFree(din));
    free(hin);
    free(hout);
    free(re);
    free(im);
    cgn_collect();
    if (!adopted)
        SKIP_CASE();
}

/* ---- 6. a mixed pipeline: memset, copy, SAXPY, host function, event ------------------------ */

#define PIPE_N 4096

static void CUDA_CB count_calls(void *user_data) {
    atomic_fetch_add((atomic_int *)user_data, 1);
}

static void test_mixed_pipeline(void **state) {
    (void)state;
    REQUIRE_CUBLAS();
    const char *what = "memset+copy+saxpy+host+event";
    const float alpha = 2.0f, v1 = 1.5f, v2 = -0.75f;
    CUstream stream;
    CU(cu.cuStreamCreate(&stream, 0));
    CUdeviceptr x = dalloc(PIPE_N * sizeof(float)), y = dalloc(PIPE_N * sizeof(float));
    size_t ws_bytes = (size_t)4 << 20;
    CUdeviceptr ws = dalloc(ws_bytes);
    float *hy = NULL; /* pinned: the copy node reads it at every launch */
    CU(cu.cuMemAllocHost((void **)&hy, PIPE_N * sizeof(float)));
    float *got = halloc(PIPE_N * sizeof(float)), *want = halloc(PIPE_N * sizeof(float));
    for (size_t i = 0; i < PIPE_N; i++)
        hy[i] = quarter(i, 7);
    CUevent ev;
    CU(cu.cuEventCreate(&ev, CU_EVENT_DEFAULT));
    static atomic_int calls1, calls2;
    atomic_store(&calls1, 0);
    atomic_store(&calls2, 0);

    cublasHandle_t h;
    BLAS(blas.create(&h));
    BLAS(blas.set_stream(h, (cudaStream_t)stream));
    BLAS(blas.set_workspace(h, (void *)(uintptr_t)ws, ws_bytes));
    /* Warm-up outside capture. */
    BLAS(blas.saxpy(h, PIPE_N, &alpha, (const float *)(uintptr_t)x, 1, (float *)(uintptr_t)y, 1));
    CU(cu.cuStreamSynchronize(stream));

    CU(dx.cuStreamBeginCapture(stream, CU_STREAM_CAPTURE_MODE_THREAD_LOCAL));
    CUresult r1 = dx.cuMemsetD32Async(x, float_bits(v1), PIPE_N, stream);
    CUresult r2 = dx.cuMemcpyHtoDAsync(y, hy, PIPE_N * sizeof(float), stream);
    cublasStatus_t bs =
        blas.saxpy(h, PIPE_N, &alpha, (const float *)(uintptr_t)x, 1, (float *)(uintptr_t)y, 1);
    CUresult r3 = dx.cuLaunchHostFunc(stream, count_calls, &calls1);
    CUresult r4 = dx.cuEventRecordWithFlags(ev, stream, CU_EVENT_RECORD_EXTERNAL);
    CUgraph raw = NULL;
    CUresult r5 = dx.cuStreamEndCapture(stream, &raw);
    CU(r1);
    CU(r2);
    BLAS(bs);
    CU(r3);
    CU(r4);
    CU(r5);

    cgn_graph *graph = NULL;
    int adopted = adopt(raw, CGN_ADOPT_TAKE_OWNERSHIP, &graph, what);
    if (adopted) {
        check_inventory(graph, raw, what);
        size_t n = 0;
        cgn_node **nodes = list_nodes(graph, &n);
        cgn_node *memset_node = NULL, *host_node = NULL, *event_node = NULL;
        size_t memcpys = 0, kernels = 0;
        for (size_t i = 0; i < n; i++) {
            cgn_node_type t;
            OK(cgn_node_type_of(nodes[i], &t));
            if (t == CGN_NODE_MEMSET) {
                cgn_memset_desc d;
                OK(cgn_memset_node_get(nodes[i], &d));
                if (d.dst == x) {
                    if (d.value != float_bits(v1) || d.element_size != 4 || d.width != PIPE_N)
                        fail_msg("%s: memset node: expected value 0x%x, 4-byte elements, width "
                                 "%d; got 0x%x, %u, %zu",
                                 what, float_bits(v1), PIPE_N, d.value, d.element_size, d.width);
                    memset_node = nodes[i];
                }
            } else if (t == CGN_NODE_HOST) {
                cgn_host_callback_desc d;
                OK(cgn_host_callback_node_get(nodes[i], &d));
                if (d.fn == count_calls) {
                    if (d.user_data != (void *)&calls1)
                        fail_msg("%s: host node: expected user_data %p, got %p", what,
                                 (void *)&calls1, d.user_data);
                    host_node = nodes[i];
                }
            } else if (t == CGN_NODE_EVENT_RECORD) {
                cgn_event_record_desc d;
                OK(cgn_event_record_node_get(nodes[i], &d));
                if (d.event == ev)
                    event_node = nodes[i];
            } else if (t == CGN_NODE_MEMCPY) {
                OK(cgn_node_check_updatable(nodes[i]));
                memcpys++;
            } else if (t == CGN_NODE_KERNEL) {
                kernels++;
            }
        }
        free(nodes);
        if (!memset_node || !host_node || !event_node || memcpys == 0 || kernels == 0)
            fail_msg("%s: expected our memset, host and event record nodes, a memcpy and a "
                     "kernel; found memset %s, host %s, event %s, %zu memcpy, %zu kernel",
                     what, memset_node ? "yes" : "no", host_node ? "yes" : "no",
                     event_node ? "yes" : "no", memcpys, kernels);

        cgn_exec *exec = NULL;
        OK(cgn_graph_instantiate(graph, &exec));
        poison(y, PIPE_N);
        OK(cgn_exec_launch(exec, stream));
        CU(cu.cuStreamSynchronize(stream));
        CU(cu.cuEventQuery(ev)); /* recorded by the graph */
        CU(cu.cuMemcpyDtoH(got, y, PIPE_N * sizeof(float)));
        for (size_t i = 0; i < PIPE_N; i++)
            want[i] = alpha * v1 + hy[i];
        expect_floats(got, want, PIPE_N, "pipeline as captured");
        assert_int_equal(atomic_load(&calls1), 1);
        assert_int_equal(atomic_load(&calls2), 0);

        /* Executable level: a new memset value, the callback counting elsewhere, new input. */
        cgn_memset_update mu = CGN_MEMSET_UPDATE_INIT;
        cgn_memset_update_set_value(&mu, float_bits(v2), 4);
        OK(cgn_memset_exec_update(exec, memset_node, &mu));
        cgn_host_callback_update hu = CGN_HOST_CALLBACK_UPDATE_INIT;
        cgn_host_callback_update_set_fn(&hu, count_calls, &calls2, NULL, NULL, 0);
        OK(cgn_host_callback_exec_update(exec, host_node, &hu));
        for (size_t i = 0; i < PIPE_N; i++)
            hy[i] = quarter(i, 8);
        poison(y, PIPE_N);
        OK(cgn_exec_launch(exec, stream));
        CU(cu.cuStreamSynchronize(stream));
        CU(cu.cuMemcpyDtoH(got, y, PIPE_N * sizeof(float)));
        for (size_t i = 0; i < PIPE_N; i++)
            want[i] = alpha * v2 + hy[i];
        expect_floats(got, want, PIPE_N, "pipeline after the executable-level updates");
        assert_int_equal(atomic_load(&calls1), 1);
        assert_int_equal(atomic_load(&calls2), 1);
        cgn_memset_desc md;
        OK(cgn_memset_exec_get(exec, memset_node, &md));
        assert_int_equal(md.value, float_bits(v2));
        /* The definition is untouched: a new executable runs the captured values. */
        OK(cgn_memset_node_get(memset_node, &md));
        if (md.value != float_bits(v1))
            fail_msg("%s: the definition's memset value changed: expected 0x%x, got 0x%x", what,
                     float_bits(v1), md.value);
        cgn_exec *fresh = NULL;
        OK(cgn_graph_instantiate(graph, &fresh));
        poison(y, PIPE_N);
        OK(cgn_exec_launch(fresh, stream));
        CU(cu.cuStreamSynchronize(stream));
        CU(cu.cuMemcpyDtoH(got, y, PIPE_N * sizeof(float)));
        for (size_t i = 0; i < PIPE_N; i++)
            want[i] = alpha * v1 + hy[i];
        expect_floats(got, want, PIPE_N, "new executable from the untouched definition");
        assert_int_equal(atomic_load(&calls1), 2);
        assert_int_equal(atomic_load(&calls2), 1);
        /* The library's kernel survives the same round trip as in the GEMM cases. */
        roundtrip_kernels(graph, exec, what);
        poison(y, PIPE_N);
        OK(cgn_exec_launch(exec, stream));
        CU(cu.cuStreamSynchronize(stream));
        CU(cu.cuMemcpyDtoH(got, y, PIPE_N * sizeof(float)));
        for (size_t i = 0; i < PIPE_N; i++)
            want[i] = alpha * v2 + hy[i];
        expect_floats(got, want, PIPE_N, "updated executable after the kernel round trip");
        assert_int_equal(atomic_load(&calls2), 2);

        OK(cgn_exec_destroy(fresh));
        OK(cgn_exec_destroy(exec));
        OK(cgn_graph_destroy(graph));
    } else {
        CU(dx.cuGraphDestroy(raw));
    }
    CU(cu.cuStreamSynchronize(stream));
    BLAS(blas.destroy(h));
    CU(cu.cuEventDestroy(ev));
    CU(cu.cuStreamDestroy(stream));
    CU(cu.cuMemFreeHost(hy));
    CU(cu.cuMemFree(ws));
    CU(cu.cuMemFree(y));
    CU(cu.cuMemFree(x));
    free(got);
    free(want);
    cgn_collect();
    if (!adopted)
        SKIP_CASE();
}

/* ---- main ----------------------------------------------------------------------------------- */

int main(void) {
    cgn_status st = cgn_cuda_open(&cu);
    if (st != CGN_OK) {
        printf("test_library_capture_gpu: no usable GPU: %s (%s); skipping\n", cgn_last_error(),
               cgn_status_name(st));
        return 77;
    }
    int version = 0;
    if (cgn_driver_version(&version) != CGN_OK || version < 12040) {
        printf("test_library_capture_gpu: argument-level updates need CUDA driver 12.4 or "
               "newer; this one is %d.%d; skipping\n",
               version / 1000, (version % 1000) / 10);
        cgn_cuda_close(&cu);
        return 77;
    }
    st = resolve_extras();
    if (st != CGN_OK) {
        printf("test_library_capture_gpu: a driver entry point is missing: %s (%s); skipping\n",
               cgn_last_error(), cgn_status_name(st));
        cgn_cuda_close(&cu);
        return 77;
    }
    load_cublas();
    load_cufft();
    if (blas.lib) {
        printf("cuBLAS: %s\n", blas.path);
    } else {
        printf("cuBLAS not available (its cases are skipped): %s\n", blas.why);
    }
    if (fft.lib) {
        printf("cuFFT: %s\n", fft.path);
    } else {
        printf("cuFFT not available (its case is skipped): %s\n", fft.why);
    }
    printf("CUDA driver %d.%d\n", version / 1000, (version % 1000) / 10);

    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_sgemm_adopt),
        cmocka_unit_test(test_sgemm_args_roundtrip),
        cmocka_unit_test(test_sgemm_retarget_pointer),
        cmocka_unit_test(test_sgemm_update_from_graph),
        cmocka_unit_test(test_cufft_c2c),
        cmocka_unit_test(test_mixed_pipeline),
    };
    int failed = cmocka_run_group_tests(tests, NULL, NULL);
    cgn_collect();
    cgn_cuda_close(&cu);
    if (failed)
        return 1;
    if (skipped_cases == (int)(sizeof tests / sizeof tests[0])) {
        printf("test_library_capture_gpu: every case was skipped (reasons above)\n");
        return 77;
    }
    return 0;
}
