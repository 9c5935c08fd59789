/* probe_driver.c: a standalone probe of CUDA driver behaviour around graph node updates, for cgn.
 *
 * Usage: probe_driver [-j JOBS] [-t CASE_TIMEOUT_S] [-b BUDGET_S] [-l] KERNELS.{cubin,fatbin}
 *                     [CASE-ID-PREFIX...]   (options may come anywhere; run.sh builds and runs it)
 *
 * The driver is loaded with dlopen("libcuda.so.1") and every entry point is resolved with
 * cuGetProcAddress_v2 (nothing links libcuda or cgn). Every case runs in a forked child process
 * that does its own cuInit and context setup, under alarm(), so a crash or a hang inside libcuda is
 * a reported result. The parent never initializes CUDA (a process that called cuInit cannot fork
 * usable children); it prints one markdown table row per case.
 *
 * Child protocol (one line per write(2), so nothing is lost when the child dies):
 *   "R text"  the outcome of the call under test      "N text"  an observation
 *   "S text"  the step about to run (shown on a crash) "F text"  a setup step failed (exit 3)
 *   "K k=v"   a key for the parent (info case)        "E"       the case body returned */
#define _POSIX_C_SOURCE 200809L

#include <cudaTypedefs.h>
#include <dlfcn.h>
#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdarg.h>
#include <stdatomic.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <sys/types.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

/* ------------------------------------------------------------------------------------------ */
/* Driver entry points: X(name, ABI version of the PFN typedef).                               */

#define DRIVER_ENTRIES(X)                                                                          \
    X(cuInit, 2000)                                                                                \
    X(cuDriverGetVersion, 2020)                                                                    \
    X(cuGetErrorName, 6000)                                                                        \
    X(cuDeviceGet, 2000)                                                                           \
    X(cuDeviceGetCount, 2000)                                                                      \
    X(cuDeviceGetName, 2000)                                                                       \
    X(cuDeviceGetAttribute, 2000)                                                                  \
    X(cuDevicePrimaryCtxRetain, 7000)                                                              \
    X(cuCtxGetCurrent, 4000)                                                                       \
    X(cuCtxSetCurrent, 4000)                                                                       \
    X(cuCtxPushCurrent, 4000)                                                                      \
    X(cuCtxPopCurrent, 4000)                                                                       \
    X(cuModuleLoad, 2000)                                                                          \
    X(cuModuleUnload, 2000)                                                                        \
    X(cuModuleGetFunction, 2000)                                                                   \
    X(cuModuleGetFunctionCount, 12040)                                                             \
    X(cuModuleGetLoadingMode, 11070)                                                               \
    X(cuFuncGetModule, 11000)                                                                      \
    X(cuFuncIsLoaded, 12040)                                                                       \
    X(cuFuncLoad, 12040)                                                                           \
    X(cuFuncGetAttribute, 2020)                                                                    \
    X(cuFuncSetAttribute, 9000)                                                                    \
    X(cuFuncGetParamInfo, 12040)                                                                   \
    X(cuFuncGetName, 12030)                                                                        \
    X(cuOccupancyMaxActiveBlocksPerMultiprocessor, 6050)                                           \
    X(cuLibraryLoadFromFile, 12000)                                                                \
    X(cuLibraryUnload, 12000)                                                                      \
    X(cuLibraryGetKernel, 12000)                                                                   \
    X(cuKernelGetFunction, 12000)                                                                  \
    X(cuKernelGetParamInfo, 12040)                                                                 \
    X(cuMemAlloc, 3020)                                                                            \
    X(cuMemFree, 3020)                                                                             \
    X(cuMemAllocHost, 3020)                                                                        \
    X(cuMemFreeHost, 2000)                                                                         \
    X(cuMemcpyDtoH, 3020)                                                                          \
    X(cuMemsetD32, 3020)                                                                           \
    X(cuStreamCreate, 2000)                                                                        \
    X(cuStreamSynchronize, 2000)                                                                   \
    X(cuLaunchKernel, 4000)                                                                        \
    X(cuEventCreate, 2000)                                                                         \
    X(cuEventRecord, 2000)                                                                         \
    X(cuEventQuery, 2000)                                                                          \
    X(cuEventDestroy, 4000)                                                                        \
    X(cuGraphCreate, 10000)                                                                        \
    X(cuGraphDestroy, 10000)                                                                       \
    X(cuGraphAddNode, 12020)                                                                       \
    X(cuGraphAddDependencies, 10000)                                                               \
    X(cuGraphGetNodes, 10000)                                                                      \
    X(cuGraphChildGraphNodeGetGraph, 10000)                                                        \
    X(cuGraphNodeSetParams, 12020)                                                                 \
    X(cuGraphExecNodeSetParams, 12020)                                                             \
    X(cuGraphKernelNodeSetParams, 12000)                                                           \
    X(cuGraphKernelNodeGetParams, 12000)                                                           \
    X(cuGraphExecKernelNodeSetParams, 12000)                                                       \
    X(cuGraphMemcpyNodeGetParams, 10000)                                                           \
    X(cuGraphInstantiateWithFlags, 11040)                                                          \
    X(cuGraphExecDestroy, 10000)                                                                   \
    X(cuGraphExecUpdate, 12000)                                                                    \
    X(cuGraphLaunch, 10000)                                                                        \
    X(cuGraphNodeSetEnabled, 11060)                                                                \
    X(cuGraphNodeGetEnabled, 11060)                                                                \
    X(cuUserObjectCreate, 11030)                                                                   \
    X(cuUserObjectRelease, 11030)                                                                  \
    X(cuGraphRetainUserObject, 11030)                                                              \
    X(cuPointerGetAttribute, 4000)

/* Member names go through cuda.h's renaming macros (cuMemAlloc -> cuMemAlloc_v2) at both the
 * declaration and every use, so they stay consistent; #name is never expanded. */
typedef struct {
#define DECL_ENTRY(name, ver) PFN_##name##_v##ver name;
    DRIVER_ENTRIES(DECL_ENTRY)
#undef DECL_ENTRY
} driver_t;
static driver_t D;

static void *g_libcuda;
static PFN_cuGetProcAddress_v12000 g_get_proc;
static PFN_cuCtxCreate_v3020 g_ctx_create_v2;   /* cuCtxCreate(ctx, flags, dev) */
static PFN_cuCtxCreate_v12050 g_ctx_create_v4;  /* cuCtxCreate(ctx, params, flags, dev) */
static char g_missing[1024];

/* Called in place of an entry point the driver lacks (every CUresult function returns in rax, and
 * the caller cleans the arguments, so this stands in for any of them on x86-64 and aarch64). */
static CUresult missing_entry(void) { return CUDA_ERROR_NOT_FOUND; }

static void *resolve_one(const char *name, int ver) {
    void *pfn = NULL;
    CUdriverProcAddressQueryResult q = CU_GET_PROC_ADDRESS_SYMBOL_NOT_FOUND;
    CUresult r = g_get_proc(name, &pfn, ver, CU_GET_PROC_ADDRESS_LEGACY_STREAM, &q);
    if (r != CUDA_SUCCESS || q != CU_GET_PROC_ADDRESS_SUCCESS || pfn == NULL)
        return NULL;
    return pfn;
}

static void driver_resolve(void) {
    g_missing[0] = '\0';
#define RESOLVE_ENTRY(name, ver)                                                                   \
    {                                                                                              \
        void *pfn = resolve_one(#name, ver);                                                       \
        if (pfn == NULL) {                                                                         \
            CUresult (*stub)(void) = missing_entry;                                                \
            memcpy(&pfn, &stub, sizeof pfn);                                                       \
            size_t used = strlen(g_missing);                                                       \
            snprintf(g_missing + used, sizeof g_missing - used, "%s%s", used ? ", " : "", #name);  \
        }                                                                                          \
        memcpy(&D.name, &pfn, sizeof pfn);                                                         \
    }
    DRIVER_ENTRIES(RESOLVE_ENTRY)
#undef RESOLVE_ENTRY
    void *p = resolve_one("cuCtxCreate", 3020);
    memcpy(&g_ctx_create_v2, &p, sizeof p);
    p = resolve_one("cuCtxCreate", 12050);
    memcpy(&g_ctx_create_v4, &p, sizeof p);
    if (g_ctx_create_v2 == NULL && g_ctx_create_v4 == NULL) {
        size_t used = strlen(g_missing);
        snprintf(g_missing + used, sizeof g_missing - used, "%scuCtxCreate", used ? ", " : "");
    }
}

/* ------------------------------------------------------------------------------------------ */
/* Child-side output.                                                                          */

static void emit(char tag, const char *fmt, ...) {
    char buf[2048];
    buf[0] = tag;
    buf[1] = ' ';
    va_list ap;
    va_start(ap, fmt);
    int n = vsnprintf(buf + 2, sizeof buf - 3, fmt, ap);
    va_end(ap);
    if (n < 0)
        n = 0;
    size_t len = 2 + (size_t)n;
    if (len > sizeof buf - 2)
        len = sizeof buf - 2;
    for (size_t i = 2; i < len; i++)
        if (buf[i] == '\n' || buf[i] == '\r')
            buf[i] = ' ';
    buf[len++] = '\n';
    size_t off = 0;
    while (off < len) {
        ssize_t w = write(1, buf + off, len - off);
        if (w < 0 && errno == EINTR)
            continue;
        if (w <= 0)
            break;
        off += (size_t)w;
    }
}

#define NOTE(...) emit('N', __VA_ARGS__)
#define STEP(...) emit('S', __VA_ARGS__)
#define RESULT(...) emit('R', __VA_ARGS__)

static const char *ename(CUresult r) {
    static char buf[8][40];
    static int slot;
    const char *s = NULL;
    if (D.cuGetErrorName != NULL && D.cuGetErrorName(r, &s) == CUDA_SUCCESS && s != NULL)
        return s;
    slot = (slot + 1) & 7;
    snprintf(buf[slot], sizeof buf[slot], "CUresult(%d)", (int)r);
    return buf[slot];
}

/* A setup step: on failure, say which and with what CUresult, and end the case. */
#define CK(call)                                                                                   \
    do {                                                                                           \
        CUresult ck_ = (call);                                                                     \
        if (ck_ != CUDA_SUCCESS) {                                                                 \
            emit('F', "setup step `%s` (line %d) returned %s", #call, __LINE__, ename(ck_));       \
            _exit(3);                                                                              \
        }                                                                                          \
    } while (0)

static void sleep_ms(int ms) {
    struct timespec ts = {ms / 1000, (long)(ms % 1000) * 1000000L};
    while (nanosleep(&ts, &ts) != 0 && errno == EINTR) {
    }
}

static double mono_ns(void) {
    struct timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    return (double)t.tv_sec * 1e9 + (double)t.tv_nsec;
}

/* ------------------------------------------------------------------------------------------ */
/* Per-child environment.                                                                      */

static const char *g_cubin;

/* What a case's setup creates beyond context A, its module, buffers, stream and events. */
enum {
    NODE_PRIMARY = 1, /* A is the primary context (implies NEED_P) */
    NEED_B = 2,       /* foreign context B with its own module, buffer and stream */
    NEED_LIB = 4,     /* the library (CUkernel add_one, fill_u32) */
    NEED_P = 8,       /* the primary context retained (so it exists and can be named) */
    NEED_ALL = NEED_B | NEED_LIB | NEED_P
};

#define BUF_BYTES (1u << 20) /* every device buffer */
#define CHECK_BYTES 65536u   /* the part of it that is read back and summarized */

typedef struct {
    CUdevice dev;
    CUcontext P; /* the primary context (retained; the node context only with NODE_PRIMARY) */
    CUcontext A; /* the nodes' own context: cuCtxCreate'd, or P with NODE_PRIMARY */
    CUcontext B; /* a foreign context on the same device, cuCtxCreate'd */
    CUmodule modA, modB;
    CUfunction fAdd, fAdd2, fFill, fEmpty; /* add_one, add_two, fill_u32, empty: module in A */
    CUfunction bAdd, bFill;                /* add_one, fill_u32: module loaded in B */
    CUlibrary lib;
    CUkernel kAdd, kFill;
    CUstream sA, sB;
    CUdeviceptr dA, dA2, dB; /* 1 MiB each: dA, dA2 in A, dB in B */
    CUevent evA, evA2;       /* in A */
} env_t;
static env_t S;

static CUresult ctx_create(CUcontext *c) {
    if (g_ctx_create_v2 != NULL)
        return g_ctx_create_v2(c, 0, S.dev);
    if (g_ctx_create_v4 != NULL) {
        CUresult r = g_ctx_create_v4(c, NULL, 0, S.dev);
        if (r == CUDA_ERROR_INVALID_VALUE) {
            CUctxCreateParams params;
            memset(&params, 0, sizeof params);
            r = g_ctx_create_v4(c, &params, 0, S.dev);
        }
        return r;
    }
    return CUDA_ERROR_NOT_FOUND;
}

/* Empties this thread's context stack. */
static CUresult clear_ctx(void) {
    for (int i = 0; i < 16; i++) {
        CUcontext c = NULL;
        CUresult r = D.cuCtxGetCurrent(&c);
        if (r != CUDA_SUCCESS)
            return r;
        if (c == NULL)
            return CUDA_SUCCESS;
        CUcontext popped = NULL;
        if (D.cuCtxPopCurrent(&popped) != CUDA_SUCCESS) {
            r = D.cuCtxSetCurrent(NULL);
            if (r != CUDA_SUCCESS)
                return r;
        }
    }
    return CUDA_ERROR_UNKNOWN;
}

/* Makes c the only context on this thread's stack (none when c is NULL). */
static CUresult make_current(CUcontext c) {
    CUresult r = clear_ctx();
    if (r != CUDA_SUCCESS || c == NULL)
        return r;
    return D.cuCtxSetCurrent(c);
}

static const char *cname(CUcontext c) {
    static char buf[4][48];
    static int slot;
    if (c == NULL)
        return "none";
    if (c == S.A && S.A == S.P)
        return "A (node ctx = primary)";
    if (c == S.A)
        return "A (node ctx)";
    if (c == S.P)
        return "P (primary ctx)";
    if (c == S.B)
        return "B (foreign ctx)";
    slot = (slot + 1) & 3;
    snprintf(buf[slot], sizeof buf[slot], "other ctx %p", (void *)c);
    return buf[slot];
}

static const char *current_name(void) {
    CUcontext c = NULL;
    CUresult r = D.cuCtxGetCurrent(&c);
    return r == CUDA_SUCCESS ? cname(c) : ename(r);
}

static char g_setup_times[512];
static double g_lap;

static void lap(const char *what) {
    double now = mono_ns();
    size_t used = strlen(g_setup_times);
    snprintf(g_setup_times + used, sizeof g_setup_times - used, "%s%s %.0f ms",
             used ? ", " : "", what, (now - g_lap) / 1e6);
    g_lap = now;
}

static void setup(int flags) {
    STEP("setup");
    g_setup_times[0] = '\0';
    g_lap = mono_ns();
    CK(D.cuInit(0));
    CK(D.cuDeviceGet(&S.dev, 0));
    lap("cuInit");
    if (flags & (NEED_P | NODE_PRIMARY)) {
        CK(D.cuDevicePrimaryCtxRetain(&S.P, S.dev));
        lap("primary retain");
    }
    if (flags & NEED_B) {
        /* Foreign context B with its own copy of the module. */
        CK(ctx_create(&S.B));
        lap("ctx B");
        CK(make_current(S.B));
        CK(D.cuModuleLoad(&S.modB, g_cubin));
        CK(D.cuModuleGetFunction(&S.bAdd, S.modB, "add_one"));
        CK(D.cuModuleGetFunction(&S.bFill, S.modB, "fill_u32"));
        CK(D.cuMemAlloc(&S.dB, BUF_BYTES));
        CK(D.cuMemsetD32(S.dB, 0, BUF_BYTES / 4));
        CK(D.cuStreamCreate(&S.sB, 0));
        lap("B module+buffer+stream");
    }
    /* The nodes' context A. */
    if (flags & NODE_PRIMARY) {
        S.A = S.P;
    } else {
        CK(ctx_create(&S.A));
        lap("ctx A");
    }
    CK(make_current(S.A));
    CK(D.cuModuleLoad(&S.modA, g_cubin));
    CK(D.cuModuleGetFunction(&S.fAdd, S.modA, "add_one"));
    CK(D.cuModuleGetFunction(&S.fAdd2, S.modA, "add_two"));
    CK(D.cuModuleGetFunction(&S.fFill, S.modA, "fill_u32"));
    CK(D.cuModuleGetFunction(&S.fEmpty, S.modA, "empty"));
    lap("A module");
    if (flags & NEED_LIB) {
        CK(D.cuLibraryLoadFromFile(&S.lib, g_cubin, NULL, NULL, 0, NULL, NULL, 0));
        CK(D.cuLibraryGetKernel(&S.kAdd, S.lib, "add_one"));
        CK(D.cuLibraryGetKernel(&S.kFill, S.lib, "fill_u32"));
        lap("library");
    }
    CK(D.cuMemAlloc(&S.dA, BUF_BYTES));
    CK(D.cuMemAlloc(&S.dA2, BUF_BYTES));
    CK(D.cuMemsetD32(S.dA, 0, BUF_BYTES / 4));
    CK(D.cuMemsetD32(S.dA2, 0x5A5A5A5Au, BUF_BYTES / 4));
    CK(D.cuStreamCreate(&S.sA, 0));
    CK(D.cuEventCreate(&S.evA, CU_EVENT_DISABLE_TIMING));
    CK(D.cuEventCreate(&S.evA2, CU_EVENT_DISABLE_TIMING));
    CK(D.cuStreamSynchronize(S.sA));
    lap("A buffers+stream+events");
    STEP("setup done");
}

/* Reads one word of a buffer of ctx (made current for the copy; A is current afterwards). */
static unsigned read_u32(CUcontext ctx, CUdeviceptr p, CUresult *rout) {
    unsigned v = 0xFFFFFFFFu;
    CUresult r = make_current(ctx);
    if (r == CUDA_SUCCESS)
        r = D.cuMemcpyDtoH(&v, p, sizeof v);
    make_current(S.A);
    if (rout)
        *rout = r;
    return v;
}

static void note_word(const char *label, CUcontext ctx, CUdeviceptr p, const char *expect) {
    CUresult r;
    unsigned v = read_u32(ctx, p, &r);
    if (r != CUDA_SUCCESS)
        NOTE("%s: readback failed with %s", label, ename(r));
    else
        NOTE("%s = %u (0x%08x)%s%s%s", label, v, v, expect ? " [expect " : "", expect ? expect : "",
             expect ? "]" : "");
}

static void summarize_bytes(const unsigned char *h, size_t n, char *out, size_t outsz) {
    size_t count = 0, first = 0, last = 0;
    for (size_t i = 0; i < n; i++)
        if (h[i]) {
            if (count == 0)
                first = i;
            last = i;
            count++;
        }
    if (count == 0)
        snprintf(out, outsz, "all %zu bytes zero", n);
    else
        snprintf(out, outsz, "%zu nonzero bytes in [%zu, %zu], first 0x%02x", count, first, last,
                 h[first]);
}

static void note_bytes(const char *label, CUcontext ctx, CUdeviceptr p) {
    unsigned char *h = calloc(1, CHECK_BYTES);
    char sum[160];
    if (h == NULL)
        return;
    CUresult r = make_current(ctx);
    if (r == CUDA_SUCCESS)
        r = D.cuMemcpyDtoH(h, p, CHECK_BYTES);
    make_current(S.A);
    if (r != CUDA_SUCCESS) {
        NOTE("%s: readback failed with %s", label, ename(r));
    } else {
        summarize_bytes(h, CHECK_BYTES, sum, sizeof sum);
        NOTE("%s: %s", label, sum);
    }
    free(h);
}

/* Zeroes the first CHECK_BYTES of a buffer of ctx; A is current afterwards. */
static void zero_buf(CUcontext ctx, CUdeviceptr p) {
    CK(make_current(ctx));
    CK(D.cuMemsetD32(p, 0, CHECK_BYTES / 4));
    CK(D.cuStreamSynchronize(NULL));
    CK(make_current(S.A));
}

static void health(void) {
    CUresult r = make_current(S.A);
    CUresult r2 = r == CUDA_SUCCESS ? D.cuMemsetD32(S.dA2 + BUF_BYTES / 2, 0, 1) : r;
    CUresult r3 = D.cuStreamSynchronize(S.sA);
    NOTE("ctx A health afterwards: cuMemsetD32 %s, cuStreamSynchronize %s", ename(r2), ename(r3));
}

/* ------------------------------------------------------------------------------------------ */
/* Node parameters.                                                                            */

enum { NT_KFUNC, NT_KKERN, NT_MEMSET, NT_MEMCPY, NT_HOST, NT_EVREC, NT_EVWAIT, NT_CHILD, NT_EMPTY };

/* The kernel argument storage lives next to the params; do not copy a kernel nparm. */
typedef struct {
    CUgraphNodeParams p;
    CUdeviceptr kp;
    unsigned kv;
    void *ka[2];
} nparm;

static atomic_int g_host_count, g_host_count2;
static void CUDA_CB host_cb(void *u) { atomic_fetch_add((atomic_int *)u, 1); }

static void np_kernel_func(nparm *n, CUfunction f, CUdeviceptr ptr, unsigned v) {
    memset(n, 0, sizeof *n);
    n->p.type = CU_GRAPH_NODE_TYPE_KERNEL;
    n->kp = ptr;
    n->kv = v;
    n->ka[0] = &n->kp;
    n->ka[1] = &n->kv;
    CUDA_KERNEL_NODE_PARAMS_v3 *k = &n->p.kernel;
    k->func = f;
    k->gridDimX = k->gridDimY = k->gridDimZ = 1;
    k->blockDimX = k->blockDimY = k->blockDimZ = 1;
    k->kernelParams = n->ka;
}

static void np_kernel_kern(nparm *n, CUkernel kk, CUcontext ctx, CUdeviceptr ptr, unsigned v) {
    np_kernel_func(n, NULL, ptr, v);
    n->p.kernel.kern = kk;
    n->p.kernel.ctx = ctx;
}

static void np_memset(nparm *n, CUdeviceptr dst, unsigned value, unsigned esz, size_t width,
                      size_t height, size_t pitch, CUcontext ctx) {
    memset(n, 0, sizeof *n);
    n->p.type = CU_GRAPH_NODE_TYPE_MEMSET;
    n->p.memset.dst = dst;
    n->p.memset.value = value;
    n->p.memset.elementSize = esz;
    n->p.memset.width = width;
    n->p.memset.height = height;
    n->p.memset.pitch = pitch;
    n->p.memset.ctx = ctx;
}

static void np_memcpy_dd(nparm *n, CUdeviceptr src, CUdeviceptr dst, size_t bytes, CUcontext ctx) {
    memset(n, 0, sizeof *n);
    n->p.type = CU_GRAPH_NODE_TYPE_MEMCPY;
    n->p.memcpy.copyCtx = ctx;
    CUDA_MEMCPY3D *c = &n->p.memcpy.copyParams;
    c->srcMemoryType = CU_MEMORYTYPE_DEVICE;
    c->srcDevice = src;
    c->dstMemoryType = CU_MEMORYTYPE_DEVICE;
    c->dstDevice = dst;
    c->WidthInBytes = bytes;
    c->Height = 1;
    c->Depth = 1;
}

static void np_host(nparm *n, atomic_int *counter) {
    memset(n, 0, sizeof *n);
    n->p.type = CU_GRAPH_NODE_TYPE_HOST;
    n->p.host.fn = host_cb;
    n->p.host.userData = counter;
}

static void np_event(nparm *n, CUgraphNodeType type, CUevent ev) {
    memset(n, 0, sizeof *n);
    n->p.type = type;
    if (type == CU_GRAPH_NODE_TYPE_EVENT_RECORD)
        n->p.eventRecord.event = ev;
    else
        n->p.eventWait.event = ev;
}

static void np_child(nparm *n, CUgraph child) {
    memset(n, 0, sizeof *n);
    n->p.type = CU_GRAPH_NODE_TYPE_GRAPH;
    n->p.graph.graph = child;
    n->p.graph.ownership = CU_GRAPH_CHILD_GRAPH_OWNERSHIP_CLONE;
}

/* A graph of `count` chained add_one(dA) nodes. */
static CUgraph kernel_chain(int count) {
    CUgraph g;
    CUgraphNode prev = NULL, node;
    CK(D.cuGraphCreate(&g, 0));
    for (int i = 0; i < count; i++) {
        nparm k;
        np_kernel_func(&k, S.fAdd, S.dA, 0);
        CK(D.cuGraphAddNode(&node, g, prev ? &prev : NULL, prev ? 1 : 0, &k.p));
        prev = node;
    }
    return g;
}

static void np_default(nparm *n, int nt) {
    switch (nt) {
    case NT_KFUNC: np_kernel_func(n, S.fAdd, S.dA, 0); break;
    case NT_KKERN: np_kernel_kern(n, S.kAdd, S.A, S.dA, 0); break;
    case NT_MEMSET: np_memset(n, S.dA, 7, 4, 64, 1, 0, S.A); break;
    case NT_MEMCPY: np_memcpy_dd(n, S.dA2, S.dA, 256, S.A); break;
    case NT_HOST: np_host(n, &g_host_count); break;
    case NT_EVREC: np_event(n, CU_GRAPH_NODE_TYPE_EVENT_RECORD, S.evA); break;
    case NT_EVWAIT: np_event(n, CU_GRAPH_NODE_TYPE_WAIT_EVENT, S.evA); break;
    case NT_CHILD: np_child(n, kernel_chain(1)); break;
    default:
        memset(n, 0, sizeof *n);
        n->p.type = CU_GRAPH_NODE_TYPE_EMPTY;
        break;
    }
}

/* What a launch of the default node of type nt leaves behind, for the notes. */
static void note_effect(int nt, const char *when) {
    char label[96];
    snprintf(label, sizeof label, "%s: dA[0]", when);
    switch (nt) {
    case NT_KFUNC:
    case NT_KKERN: note_word(label, S.A, S.dA, "1 if add_one ran once on dA"); break;
    case NT_CHILD: note_word(label, S.A, S.dA, "the number of child add_one nodes that ran"); break;
    case NT_MEMSET: note_word(label, S.A, S.dA, "7 if the memset wrote dA"); break;
    case NT_MEMCPY: note_word(label, S.A, S.dA, "0x5a5a5a5a if the copy from dA2 reached dA"); break;
    case NT_HOST: NOTE("%s: host callback count = %d", when, atomic_load(&g_host_count)); break;
    default: break;
    }
}

static void reset_effects(void) {
    zero_buf(S.A, S.dA);
    atomic_store(&g_host_count, 0);
    atomic_store(&g_host_count2, 0);
}

static void build1(nparm *n, CUgraph *g, CUgraphNode *node) {
    CK(D.cuGraphCreate(g, 0));
    CK(D.cuGraphAddNode(node, *g, NULL, 0, &n->p));
}

static void instantiate(CUgraph g, CUgraphExec *e) {
    CK(D.cuGraphInstantiateWithFlags(e, g, 0));
}

/* Launches e on A's stream with A current and synchronizes; notes both results. */
static CUresult launch_sync2(CUgraphExec e, const char *label, CUresult *rl, CUresult *rs) {
    CK(make_current(S.A));
    STEP("%s: cuGraphLaunch", label);
    CUresult r = D.cuGraphLaunch(e, S.sA);
    CUresult s = CUDA_SUCCESS;
    if (r == CUDA_SUCCESS) {
        STEP("%s: cuStreamSynchronize", label);
        s = D.cuStreamSynchronize(S.sA);
    }
    NOTE("%s: cuGraphLaunch %s, cuStreamSynchronize %s", label, ename(r),
         r == CUDA_SUCCESS ? ename(s) : "(skipped)");
    if (rl)
        *rl = r;
    if (rs)
        *rs = s;
    return r != CUDA_SUCCESS ? r : s;
}

static CUresult launch_sync(CUgraphExec e, const char *label) {
    return launch_sync2(e, label, NULL, NULL);
}

/* ------------------------------------------------------------------------------------------ */
/* Info.                                                                                       */

static void case_info(int a, int b, int c) {
    (void)a, (void)b, (void)c;
    int v = 0;
    CUresult r = D.cuDriverGetVersion(&v);
    NOTE("cuDriverGetVersion: %s, %d (CUDA %d.%d)", ename(r), v, v / 1000, (v % 1000) / 10);
    NOTE("entry points the driver lacks: %s", g_missing[0] ? g_missing : "none");
    NOTE("cuCtxCreate resolved as: %s", g_ctx_create_v2   ? "v2 (ABI 3020)"
                                        : g_ctx_create_v4 ? "v4 (ABI 12050)"
                                                          : "MISSING");
    r = D.cuInit(0);
    if (r != CUDA_SUCCESS) {
        emit('K', "nodevice");
        RESULT("cuInit(0) returned %s", ename(r));
        _exit(4);
    }
    int count = 0;
    D.cuDeviceGetCount(&count);
    CUdevice dev;
    CK(D.cuDeviceGet(&dev, 0));
    char name[256] = "";
    D.cuDeviceGetName(name, sizeof name, dev);
    int maj = 0, min = 0, mode = -1, sms = 0;
    D.cuDeviceGetAttribute(&maj, CU_DEVICE_ATTRIBUTE_COMPUTE_CAPABILITY_MAJOR, dev);
    D.cuDeviceGetAttribute(&min, CU_DEVICE_ATTRIBUTE_COMPUTE_CAPABILITY_MINOR, dev);
    D.cuDeviceGetAttribute(&sms, CU_DEVICE_ATTRIBUTE_MULTIPROCESSOR_COUNT, dev);
    D.cuDeviceGetAttribute(&mode, CU_DEVICE_ATTRIBUTE_COMPUTE_MODE, dev);
    NOTE("devices: %d; device 0: %s, sm_%d%d, %d SMs, compute mode %d (0 = default)", count, name,
         maj, min, sms, mode);
    emit('K', "computemode=%d", mode);
    CUmoduleLoadingMode lm = 0;
    r = D.cuModuleGetLoadingMode(&lm);
    const char *env = getenv("CUDA_MODULE_LOADING");
    NOTE("cuModuleGetLoadingMode: %s, %s; CUDA_MODULE_LOADING=%s", ename(r),
         lm == CU_MODULE_LAZY_LOADING ? "LAZY" : lm == CU_MODULE_EAGER_LOADING ? "EAGER" : "?",
         env ? env : "(unset)");
    setup(NEED_ALL);
    NOTE("full case setup: %s", g_setup_times);
    RESULT("ok");
}

/* ------------------------------------------------------------------------------------------ */
/* A. Hostile changes.                                                                         */

enum { TS_NONE, TS_FOREIGN, TS_OWN };
static const char *const ts_label[] = {"no ctx current", "foreign ctx B current",
                                       "own ctx A current"};
static const char *const ts_id[] = {"none", "foreign", "own"};
enum { LV_DEF, LV_EXEC };

static void apply_ts(int ts) {
    CK(make_current(ts == TS_NONE ? NULL : ts == TS_FOREIGN ? S.B : S.A));
}

enum {
    AK_FUNC_CTX,
    AK_KERN_CTX,
    AK_FUNC_UNLOADED,
    AK_KERN_UNLOADED,
    AK_EVREC_DESTROYED,
    AK_EVWAIT_DESTROYED,
    AK_MEMSET_FREED,
    AK_MEMCPY_SRC_FREED,
    AK_MEMCPY_DST_FREED,
    AK_CHILD_DESTROYED,
    AK_CHILD_TOPO,
    AK_COUNT
};

static const struct {
    const char *id;
    int nt;
    const char *what;
} a_kinds[AK_COUNT] = {
    {"A1f", NT_KFUNC,
     "kernel node add_one(dA) with CUfunction fA (module in ctx A) -> fB, the same kernel from a "
     "module loaded in ctx B"},
    {"A1k", NT_KKERN,
     "kernel node add_one(dA) with CUkernel (library) and ctx=A -> same CUkernel with ctx=B"},
    {"A2f", NT_KFUNC,
     "kernel node -> CUfunction add_one of a second module (loaded in A) that was cuModuleUnload'ed"},
    {"A2k", NT_KKERN,
     "CUkernel node -> CUkernel add_one of a second library that was cuLibraryUnload'ed (ctx=A)"},
    {"A3r", NT_EVREC, "event record node (event of A) -> an event that was cuEventDestroy'ed"},
    {"A3w", NT_EVWAIT, "event wait node (event of A) -> an event that was cuEventDestroy'ed"},
    {"A4s", NT_MEMSET, "memset node (dst dA) -> dst = a cuMemFree'd device pointer"},
    {"A4cs", NT_MEMCPY, "memcpy node D->D (dA2 -> dA) -> src = a cuMemFree'd device pointer"},
    {"A4cd", NT_MEMCPY, "memcpy node D->D (dA2 -> dA) -> dst = a cuMemFree'd device pointer"},
    {"A5d", NT_CHILD,
     "child graph node (1 add_one node) -> a CUgraph (same topology) that was cuGraphDestroy'ed"},
    {"A5t", NT_CHILD, "child graph node (1 add_one node) -> a live CUgraph with 2 chained nodes"},
};

static void case_A(int kind, int level, int ts) {
    int nt = a_kinds[kind].nt;
    setup((ts == TS_FOREIGN || kind == AK_FUNC_CTX || kind == AK_KERN_CTX ? NEED_B : 0) |
          (nt == NT_KKERN ? NEED_LIB : 0));
    nparm base, h;
    CUgraph g;
    CUgraphNode n;
    CUgraphExec e;
    np_default(&base, nt);
    build1(&base, &g, &n);
    instantiate(g, &e);
    CK(launch_sync(e, "baseline launch"));
    reset_effects();

    STEP("prepare the hostile parameters");
    np_default(&h, nt);
    CUmodule m2;
    CUlibrary l2;
    CUfunction f2;
    CUkernel k2;
    CUevent ev;
    CUdeviceptr x;
    CUgraph cg;
    switch (kind) {
    case AK_FUNC_CTX: h.p.kernel.func = S.bAdd; break;
    case AK_KERN_CTX: h.p.kernel.ctx = S.B; break;
    case AK_FUNC_UNLOADED:
        CK(D.cuModuleLoad(&m2, g_cubin));
        CK(D.cuModuleGetFunction(&f2, m2, "add_one"));
        CK(D.cuModuleUnload(m2));
        h.p.kernel.func = f2;
        break;
    case AK_KERN_UNLOADED:
        CK(D.cuLibraryLoadFromFile(&l2, g_cubin, NULL, NULL, 0, NULL, NULL, 0));
        CK(D.cuLibraryGetKernel(&k2, l2, "add_one"));
        CK(D.cuLibraryUnload(l2));
        h.p.kernel.kern = k2;
        break;
    case AK_EVREC_DESTROYED:
    case AK_EVWAIT_DESTROYED:
        CK(D.cuEventCreate(&ev, CU_EVENT_DISABLE_TIMING));
        CK(D.cuEventDestroy(ev));
        if (kind == AK_EVREC_DESTROYED)
            h.p.eventRecord.event = ev;
        else
            h.p.eventWait.event = ev;
        break;
    case AK_MEMSET_FREED:
    case AK_MEMCPY_SRC_FREED:
    case AK_MEMCPY_DST_FREED:
        CK(D.cuMemAlloc(&x, BUF_BYTES));
        CK(D.cuMemFree(x));
        if (kind == AK_MEMSET_FREED)
            h.p.memset.dst = x;
        else if (kind == AK_MEMCPY_SRC_FREED)
            h.p.memcpy.copyParams.srcDevice = x;
        else
            h.p.memcpy.copyParams.dstDevice = x;
        break;
    case AK_CHILD_DESTROYED:
        CK(D.cuGraphDestroy(h.p.graph.graph));
        break;
    case AK_CHILD_TOPO:
        CK(D.cuGraphDestroy(h.p.graph.graph));
        cg = kernel_chain(2);
        h.p.graph.graph = cg;
        break;
    default: break;
    }

    apply_ts(ts);
    const char *before = current_name();
    STEP("call under test: %s", level == LV_DEF ? "cuGraphNodeSetParams" : "cuGraphExecNodeSetParams");
    CUresult r = level == LV_DEF ? D.cuGraphNodeSetParams(n, &h.p)
                                 : D.cuGraphExecNodeSetParams(e, n, &h.p);
    RESULT("%s", ename(r));
    NOTE("current ctx before the call: %s; after: %s", before, current_name());

    CK(make_current(S.A));
    if (level == LV_DEF && (nt == NT_KFUNC || nt == NT_KKERN)) {
        CUDA_KERNEL_NODE_PARAMS_v2 got;
        memset(&got, 0, sizeof got);
        STEP("cuGraphKernelNodeGetParams");
        CUresult rg = D.cuGraphKernelNodeGetParams(n, &got);
        NOTE("cuGraphKernelNodeGetParams afterwards: %s; func %s, kern %s, ctx %s", ename(rg),
             got.func == NULL         ? "NULL"
             : got.func == S.fAdd     ? "fA"
             : got.func == S.bAdd     ? "fB"
             : got.func == h.p.kernel.func ? "the new func"
                                      : "other",
             got.kern == NULL ? "NULL" : got.kern == S.kAdd ? "kAdd" : "other",
             got.ctx == NULL ? "NULL" : cname(got.ctx));
    }
    CUresult rl = CUDA_SUCCESS, rs = CUDA_SUCCESS;
    char tail[160] = "";
    if (level == LV_DEF) {
        CUgraphExec e2 = NULL;
        STEP("cuGraphInstantiateWithFlags after the definition update");
        CUresult ri = D.cuGraphInstantiateWithFlags(&e2, g, 0);
        NOTE("re-instantiating the graph: %s", ename(ri));
        if (ri == CUDA_SUCCESS) {
            launch_sync2(e2, "launch of the new exec", &rl, &rs);
            snprintf(tail, sizeof tail, "; re-instantiate OK; launch %s, sync %s", ename(rl),
                     rl == CUDA_SUCCESS ? ename(rs) : "-");
        } else {
            snprintf(tail, sizeof tail, "; re-instantiate %s", ename(ri));
        }
    } else {
        launch_sync2(e, "launch of the updated exec", &rl, &rs);
        snprintf(tail, sizeof tail, "; launch %s, sync %s", ename(rl),
                 rl == CUDA_SUCCESS ? ename(rs) : "-");
    }
    RESULT("%s%s", ename(r), tail);
    note_effect(nt, "after");
    health();
}

static const char *memtype_name(unsigned t) {
    switch (t) {
    case CU_MEMORYTYPE_HOST: return "HOST";
    case CU_MEMORYTYPE_DEVICE: return "DEVICE";
    case CU_MEMORYTYPE_ARRAY: return "ARRAY";
    case CU_MEMORYTYPE_UNIFIED: return "UNIFIED";
    default: return "?";
    }
}

static void note_ptr(const char *label, CUdeviceptr p, int as_result) {
    unsigned mt = 0xdeadu;
    CUcontext pc = NULL;
    STEP("cuPointerGetAttribute on %s", label);
    CUresult r1 = D.cuPointerGetAttribute(&mt, CU_POINTER_ATTRIBUTE_MEMORY_TYPE, p);
    CUresult r2 = D.cuPointerGetAttribute(&pc, CU_POINTER_ATTRIBUTE_CONTEXT, p);
    char mts[48];
    snprintf(mts, sizeof mts, "%s", r1 == CUDA_SUCCESS ? memtype_name(mt) : "-");
    if (as_result)
        RESULT("MEMORY_TYPE: %s %s", ename(r1), mts);
    NOTE("%s: MEMORY_TYPE %s %s; CONTEXT %s %s", label, ename(r1), mts, ename(r2),
         r2 == CUDA_SUCCESS ? cname(pc) : "-");
}

static void case_A4p(int ts, int b, int c) {
    (void)b, (void)c;
    setup(NEED_B);
    CUdeviceptr x;
    CK(D.cuMemAlloc(&x, BUF_BYTES));
    CK(D.cuMemFree(x));
    apply_ts(ts);
    note_ptr("freed device pointer (was 1 MiB in A)", x, 1);
    note_ptr("live dA (ctx A)", S.dA, 0);
    note_ptr("live dB (ctx B)", S.dB, 0);
    note_ptr("never-allocated address 0x10000", (CUdeviceptr)0x10000, 0);
    NOTE("current ctx after the queries: %s", current_name());
}

/* ------------------------------------------------------------------------------------------ */
/* B. Context left current.                                                                    */

enum {
    BC_NSP,
    BC_ENSP,
    BC_KNSP,
    BC_EKNSP,
    BC_UOC,
    BC_RETAIN,
    BC_PTRATTR,
    BC_KPARAM,
    BC_FPARAM,
    BC_MCPYGET,
    BC_INST,
    BC_EUPD,
    BC_ENABLE,
    BC_EVREC,
    BC_LAUNCH,
    BC_ADDNODE
};

#define B_KCTX_NULL 1 /* kernel.ctx = NULL in the CUkernel params of the call */

static const struct {
    const char *id;
    int call, nt, flag;
    const char *what;
} b_calls[] = {
    {"01", BC_NSP, NT_KFUNC, 0, "cuGraphNodeSetParams, kernel node (CUfunction), new pointer arg"},
    {"02", BC_NSP, NT_KKERN, 0, "cuGraphNodeSetParams, kernel node (CUkernel, ctx=A), new arg"},
    {"03", BC_NSP, NT_KKERN, B_KCTX_NULL,
     "cuGraphNodeSetParams, kernel node (CUkernel), new arg with ctx=NULL"},
    {"04", BC_NSP, NT_MEMSET, 0, "cuGraphNodeSetParams, memset node (ctx=A), new value"},
    {"05", BC_NSP, NT_MEMCPY, 0, "cuGraphNodeSetParams, memcpy node (copyCtx=A), new size"},
    {"06", BC_NSP, NT_HOST, 0, "cuGraphNodeSetParams, host node, new userData"},
    {"07", BC_NSP, NT_EVREC, 0, "cuGraphNodeSetParams, event record node, other event of A"},
    {"08", BC_ENSP, NT_KFUNC, 0, "cuGraphExecNodeSetParams, kernel node (CUfunction), new arg"},
    {"09", BC_ENSP, NT_KKERN, 0, "cuGraphExecNodeSetParams, kernel node (CUkernel, ctx=A), new arg"},
    {"10", BC_ENSP, NT_KKERN, B_KCTX_NULL,
     "cuGraphExecNodeSetParams, kernel node (CUkernel), new arg with ctx=NULL"},
    {"11", BC_ENSP, NT_MEMSET, 0, "cuGraphExecNodeSetParams, memset node (ctx=A), new value"},
    {"12", BC_ENSP, NT_MEMCPY, 0, "cuGraphExecNodeSetParams, memcpy node (copyCtx=A), new size"},
    {"13", BC_ENSP, NT_HOST, 0, "cuGraphExecNodeSetParams, host node, new userData"},
    {"14", BC_ENSP, NT_EVREC, 0, "cuGraphExecNodeSetParams, event record node, other event of A"},
    {"15", BC_KNSP, NT_KFUNC, 0, "cuGraphKernelNodeSetParams (v2 struct, CUfunction), new arg"},
    {"16", BC_EKNSP, NT_KFUNC, 0, "cuGraphExecKernelNodeSetParams (v2 struct, CUfunction), new arg"},
    {"17", BC_UOC, -1, 0, "cuUserObjectCreate"},
    {"18", BC_RETAIN, NT_KFUNC, 0, "cuGraphRetainUserObject (MOVE) on a graph built in A"},
    {"19", BC_PTRATTR, -1, 0, "cuPointerGetAttribute(MEMORY_TYPE, dA)"},
    {"20", BC_KPARAM, -1, 0, "cuKernelGetParamInfo(CUkernel add_one, 0)"},
    {"21", BC_FPARAM, -1, 0, "cuFuncGetParamInfo(fA add_one, 0)"},
    {"22", BC_MCPYGET, NT_MEMCPY, 0, "cuGraphMemcpyNodeGetParams"},
    {"23", BC_INST, NT_KFUNC, 0, "cuGraphInstantiateWithFlags (kernel graph)"},
    {"24", BC_EUPD, NT_KFUNC, 0, "cuGraphExecUpdate (identical graph, new arg)"},
    {"25", BC_ENABLE, NT_KFUNC, 0, "cuGraphNodeSetEnabled(exec, kernel node, 0)"},
    {"26", BC_EVREC, -1, 0, "cuEventRecord(event of A, stream of A)"},
    {"27", BC_LAUNCH, NT_KFUNC, 0, "cuGraphLaunch(exec, stream of A)"},
    {"28", BC_ADDNODE, NT_KFUNC, 0, "cuGraphAddNode kernel (CUfunction fA)"},
    {"29", BC_ADDNODE, NT_KKERN, 0, "cuGraphAddNode kernel (CUkernel, ctx=A)"},
    {"30", BC_ADDNODE, NT_KKERN, B_KCTX_NULL, "cuGraphAddNode kernel (CUkernel, ctx=NULL)"},
    {"31", BC_ADDNODE, NT_MEMSET, 0, "cuGraphAddNode memset (ctx=A)"},
};
#define B_COUNT ((int)(sizeof b_calls / sizeof b_calls[0]))

/* Valid new parameters for the update calls of B. */
static void tweak_update(nparm *u, int nt) {
    switch (nt) {
    case NT_KFUNC:
    case NT_KKERN: u->kp = S.dA2; break;
    case NT_MEMSET: u->p.memset.value = 9; break;
    case NT_MEMCPY: u->p.memcpy.copyParams.WidthInBytes = 128; break;
    case NT_HOST: u->p.host.userData = &g_host_count2; break;
    case NT_EVREC: u->p.eventRecord.event = S.evA2; break;
    default: break;
    }
}

static void case_B(int idx, int primary, int c) {
    (void)c;
    int call = b_calls[idx].call, nt = b_calls[idx].nt;
    setup((primary ? NODE_PRIMARY : 0) | NEED_P |
          (nt == NT_KKERN || call == BC_KPARAM ? NEED_LIB : 0));
    nparm base, u;
    CUgraph g = NULL, g2 = NULL;
    CUgraphNode n = NULL, n2 = NULL;
    CUgraphExec e = NULL, e2 = NULL;
    CUuserObject uo = NULL;
    CUDA_KERNEL_NODE_PARAMS_v2 kp2;
    CUDA_MEMCPY3D cp;
    unsigned mt = 0;
    size_t off = 0, sz = 0;
    if (nt >= 0) {
        np_default(&base, nt);
        build1(&base, &g, &n);
        instantiate(g, &e);
        np_default(&u, nt);
        tweak_update(&u, nt);
        if (b_calls[idx].flag & B_KCTX_NULL)
            u.p.kernel.ctx = NULL;
    }
    if (call == BC_KNSP || call == BC_EKNSP) {
        memset(&kp2, 0, sizeof kp2);
        kp2.func = S.fAdd;
        kp2.gridDimX = kp2.gridDimY = kp2.gridDimZ = 1;
        kp2.blockDimX = kp2.blockDimY = kp2.blockDimZ = 1;
        kp2.kernelParams = u.ka;
    }
    if (call == BC_RETAIN)
        CK(D.cuUserObjectCreate(&uo, &g_host_count2, host_cb, 1, CU_USER_OBJECT_NO_DESTRUCTOR_SYNC));
    if (call == BC_EUPD) {
        nparm p2;
        np_kernel_func(&p2, S.fAdd, S.dA2, 0);
        build1(&p2, &g2, &n2);
    }
    CK(clear_ctx());
    const char *before = current_name();
    STEP("call under test (no ctx current)");
    CUresult r = CUDA_ERROR_UNKNOWN;
    switch (call) {
    case BC_NSP: r = D.cuGraphNodeSetParams(n, &u.p); break;
    case BC_ENSP: r = D.cuGraphExecNodeSetParams(e, n, &u.p); break;
    case BC_KNSP: r = D.cuGraphKernelNodeSetParams(n, &kp2); break;
    case BC_EKNSP: r = D.cuGraphExecKernelNodeSetParams(e, n, &kp2); break;
    case BC_UOC:
        r = D.cuUserObjectCreate(&uo, &g_host_count2, host_cb, 1, CU_USER_OBJECT_NO_DESTRUCTOR_SYNC);
        break;
    case BC_RETAIN: r = D.cuGraphRetainUserObject(g, uo, 1, CU_GRAPH_USER_OBJECT_MOVE); break;
    case BC_PTRATTR: r = D.cuPointerGetAttribute(&mt, CU_POINTER_ATTRIBUTE_MEMORY_TYPE, S.dA); break;
    case BC_KPARAM: r = D.cuKernelGetParamInfo(S.kAdd, 0, &off, &sz); break;
    case BC_FPARAM: r = D.cuFuncGetParamInfo(S.fAdd, 0, &off, &sz); break;
    case BC_MCPYGET: r = D.cuGraphMemcpyNodeGetParams(n, &cp); break;
    case BC_INST: r = D.cuGraphInstantiateWithFlags(&e2, g, 0); break;
    case BC_EUPD: {
        CUgraphExecUpdateResultInfo info;
        memset(&info, 0, sizeof info);
        r = D.cuGraphExecUpdate(e, g2, &info);
        break;
    }
    case BC_ENABLE: r = D.cuGraphNodeSetEnabled(e, n, 0); break;
    case BC_EVREC: r = D.cuEventRecord(S.evA, S.sA); break;
    case BC_LAUNCH: r = D.cuGraphLaunch(e, S.sA); break;
    case BC_ADDNODE: {
        nparm extra;
        np_default(&extra, nt);
        if (b_calls[idx].flag & B_KCTX_NULL)
            extra.p.kernel.ctx = NULL;
        r = D.cuGraphAddNode(&n2, g, NULL, 0, &extra.p);
        break;
    }
    default: break;
    }
    CUcontext after = NULL;
    CUresult ra = D.cuCtxGetCurrent(&after);
    RESULT("%s; current after: %s", ename(r), ra == CUDA_SUCCESS ? cname(after) : ename(ra));
    NOTE("current before: %s", before);
    if (call == BC_PTRATTR && r == CUDA_SUCCESS)
        NOTE("MEMORY_TYPE = %s", memtype_name(mt));
    if ((call == BC_KPARAM || call == BC_FPARAM) && r == CUDA_SUCCESS)
        NOTE("param 0: offset %zu, size %zu", off, sz);
    if (call == BC_LAUNCH || call == BC_EVREC) {
        CK(make_current(S.A));
        NOTE("then with A current: cuStreamSynchronize %s", ename(D.cuStreamSynchronize(S.sA)));
    }
    if (call == BC_ADDNODE && r == CUDA_SUCCESS) {
        CK(make_current(S.A));
        CUresult ri = D.cuGraphInstantiateWithFlags(&e2, g, 0);
        NOTE("then with A current: instantiate %s", ename(ri));
        if (ri == CUDA_SUCCESS)
            launch_sync(e2, "launch");
    }
}

/* ------------------------------------------------------------------------------------------ */
/* C. Which context does a CUfunction belong to?                                              */

#define NQ 9
static const char *const q_names[NQ] = {
    "cuFuncGetAttribute(MAX_THREADS_PER_BLOCK)",
    "cuFuncGetModule",
    "cuModuleGetFunctionCount(that module)",
    "cuModuleGetFunction(that module, \"add_one\") vs f",
    "cuFuncIsLoaded",
    "cuFuncGetParamInfo(0)",
    "cuFuncGetName",
    "cuOccupancyMaxActiveBlocksPerMultiprocessor(32 threads)",
    "cuFuncSetAttribute(MAX_DYNAMIC_SHARED_SIZE_BYTES, 0)",
};

static const char *modname(CUmodule m) {
    static char buf[4][40];
    static int slot;
    if (m == NULL)
        return "NULL";
    if (m == S.modA)
        return "modA";
    if (m == S.modB)
        return "modB";
    slot = (slot + 1) & 3;
    snprintf(buf[slot], sizeof buf[slot], "other module %p", (void *)m);
    return buf[slot];
}

static void run_queries(CUfunction f, char out[NQ][112]) {
    int v = 0;
    CUresult r;
    STEP("query 0");
    r = D.cuFuncGetAttribute(&v, CU_FUNC_ATTRIBUTE_MAX_THREADS_PER_BLOCK, f);
    snprintf(out[0], 112, "%s%s%d", ename(r), r ? "" : " ", r ? 0 : v);
    if (r)
        snprintf(out[0], 112, "%s", ename(r));
    STEP("query 1");
    CUmodule m = NULL;
    r = D.cuFuncGetModule(&m, f);
    snprintf(out[1], 112, "%s %s", ename(r), r ? "" : modname(m));
    if (r == CUDA_SUCCESS && m != NULL) {
        unsigned cnt = 0;
        STEP("query 2");
        r = D.cuModuleGetFunctionCount(&cnt, m);
        snprintf(out[2], 112, "%s %u", ename(r), r ? 0 : cnt);
        CUfunction g = NULL;
        STEP("query 3");
        r = D.cuModuleGetFunction(&g, m, "add_one");
        snprintf(out[3], 112, "%s %s", ename(r),
                 r ? "" : (g == f ? "same handle" : "DIFFERENT handle"));
    } else {
        snprintf(out[2], 112, "(no module)");
        snprintf(out[3], 112, "(no module)");
    }
    STEP("query 4");
    CUfunctionLoadingState st = CU_FUNCTION_LOADING_STATE_MAX;
    r = D.cuFuncIsLoaded(&st, f);
    snprintf(out[4], 112, "%s %s", ename(r),
             r                                        ? ""
             : st == CU_FUNCTION_LOADING_STATE_LOADED ? "LOADED"
                                                      : "UNLOADED");
    STEP("query 5");
    size_t off = 0, sz = 0;
    r = D.cuFuncGetParamInfo(f, 0, &off, &sz);
    snprintf(out[5], 112, "%s off %zu size %zu", ename(r), r ? 0 : off, r ? 0 : sz);
    STEP("query 6");
    const char *nm = NULL;
    r = D.cuFuncGetName(&nm, f);
    snprintf(out[6], 112, "%s %s", ename(r), r == CUDA_SUCCESS && nm ? nm : "");
    STEP("query 7");
    int nb = 0;
    r = D.cuOccupancyMaxActiveBlocksPerMultiprocessor(&nb, f, 32, 0);
    snprintf(out[7], 112, "%s %d", ename(r), r ? 0 : nb);
    STEP("query 8");
    r = D.cuFuncSetAttribute(f, CU_FUNC_ATTRIBUTE_MAX_DYNAMIC_SHARED_SIZE_BYTES, 0);
    snprintf(out[8], 112, "%s", ename(r));
}

static void case_C1(int a, int b, int c) {
    (void)a, (void)b, (void)c;
    setup(NEED_B | NEED_LIB);
    CUfunction fkA = NULL, fkB = NULL, fkN = NULL;
    CK(make_current(S.A));
    CUresult rA = D.cuKernelGetFunction(&fkA, S.kAdd);
    CK(make_current(S.B));
    CUresult rB = D.cuKernelGetFunction(&fkB, S.kAdd);
    CK(make_current(NULL));
    CUresult rN = D.cuKernelGetFunction(&fkN, S.kAdd);
    NOTE("cuKernelGetFunction(CUkernel add_one): A current %s, B current %s, none current %s; "
         "fkA %s fkB; fkA %s fA",
         ename(rA), ename(rB), ename(rN), fkA == fkB ? "==" : "!=", fkA == S.fAdd ? "==" : "!=");
    struct {
        const char *name;
        CUfunction f;
    } fs[4] = {{"fA", S.fAdd}, {"fB", S.bAdd}, {"fkA", fkA}, {"fkB", fkB}};
    struct {
        const char *name;
        CUcontext c;
    } cs[3] = {{"A", S.A}, {"B", S.B}, {"none", NULL}};
    static char res[3][4][NQ][112];
    for (int ci = 0; ci < 3; ci++)
        for (int fi = 0; fi < 4; fi++) {
            if (fs[fi].f == NULL)
                continue;
            CK(make_current(cs[ci].c));
            STEP("queries with %s current on %s", cs[ci].name, fs[fi].name);
            run_queries(fs[fi].f, res[ci][fi]);
            char line[1400];
            size_t used = 0;
            for (int q = 0; q < NQ && used < sizeof line; q++)
                used += (size_t)snprintf(line + used, sizeof line - used, "%s[%d] %s", q ? "; " : "",
                                         q, res[ci][fi][q]);
            NOTE("cur=%s f=%s: %s", cs[ci].name, fs[fi].name, line);
        }
    char summary[600] = "";
    for (int ci = 0; ci < 3; ci++)
        for (int pair = 0; pair < 2; pair++) {
            int f0 = pair * 2, f1 = pair * 2 + 1;
            if (fs[f0].f == NULL || fs[f1].f == NULL)
                continue;
            char list[600] = "";
            size_t used = 0;
            for (int q = 0; q < NQ; q++)
                if (strcmp(res[ci][f0][q], res[ci][f1][q]) != 0 && used < sizeof list)
                    used += (size_t)snprintf(list + used, sizeof list - used, "%s[%d] %s",
                                             used ? ", " : "", q, q_names[q]);
            NOTE("DIFFER with %s current, %s vs %s: %s", cs[ci].name, fs[f0].name, fs[f1].name,
                 used ? list : "nothing");
            if (ci == 0 && pair == 0)
                snprintf(summary, sizeof summary, "%s", used ? list : "nothing");
        }
    for (int q = 0; q < NQ; q++)
        NOTE("[%d] = %s", q, q_names[q]);
    RESULT("with A current, fA vs fB differ in: %s", summary);
}

/* Launch of a CUfunction on a stream of another context. */
static void case_C_launch(int which, int b, int c) {
    (void)b, (void)c;
    setup(NEED_B);
    void *args[1] = {&S.dA};
    CUfunction f = which == 0 || which == 1 ? S.bAdd : S.fAdd;
    CUstream s = which == 1 ? NULL : S.sA;
    CK(make_current(which == 2 ? S.B : S.A));
    STEP("cuLaunchKernel");
    CUresult r = D.cuLaunchKernel(f, 1, 1, 1, 1, 1, 1, 0, s, args, NULL);
    RESULT("%s", ename(r));
    CUresult rs = D.cuStreamSynchronize(s);
    NOTE("cuStreamSynchronize(that stream) with the same ctx current: %s", ename(rs));
    CK(make_current(S.A));
    note_word("dA[0]", S.A, S.dA, "1 = the kernel ran in ctx A");
    health();
}

/* A graph kernel node made from fB while A is current. */
static void case_C5(int a, int b, int c) {
    (void)a, (void)b, (void)c;
    setup(NEED_B);
    CUgraph g;
    CUgraphNode n;
    CUgraphExec e;
    nparm k;
    CK(D.cuGraphCreate(&g, 0));
    np_kernel_func(&k, S.bAdd, S.dA, 0);
    STEP("cuGraphAddNode");
    CUresult r = D.cuGraphAddNode(&n, g, NULL, 0, &k.p);
    RESULT("cuGraphAddNode %s", ename(r));
    if (r != CUDA_SUCCESS)
        return;
    STEP("instantiate");
    CUresult ri = D.cuGraphInstantiateWithFlags(&e, g, 0);
    NOTE("instantiate with A current: %s", ename(ri));
    if (ri == CUDA_SUCCESS)
        launch_sync(e, "launch on stream of A");
    note_word("dA[0]", S.A, S.dA, "1 = ran in ctx A");
    health();
}

/* ------------------------------------------------------------------------------------------ */
/* D. cuGraphExecUpdate and user objects.                                                      */

static atomic_int g_dtor[3];
static void CUDA_CB dtor_cb(void *p) { atomic_store((atomic_int *)p, 1); }

static void settle(void) {
    make_current(S.A);
    D.cuStreamSynchronize(S.sA);
    sleep_ms(100);
}

static const char *ran(int i) { return atomic_load(&g_dtor[i]) ? "RAN" : "not run"; }

typedef struct {
    CUgraph g1, g2;
    CUgraphNode n1, n2;
    CUgraphExec e;
    nparm p1, p2;
} dstate;

/* G1 = fill_u32(dA, 1) with U1, G2 = fill_u32(dA, 2) with U2, E from G1, then update E from G2. */
static CUresult d_prepare(dstate *d) {
    np_kernel_func(&d->p1, S.fFill, S.dA, 1);
    np_kernel_func(&d->p2, S.fFill, S.dA, 2);
    build1(&d->p1, &d->g1, &d->n1);
    build1(&d->p2, &d->g2, &d->n2);
    CUuserObject u1, u2;
    CK(D.cuUserObjectCreate(&u1, &g_dtor[1], dtor_cb, 1, CU_USER_OBJECT_NO_DESTRUCTOR_SYNC));
    CK(D.cuGraphRetainUserObject(d->g1, u1, 1, CU_GRAPH_USER_OBJECT_MOVE));
    CK(D.cuUserObjectCreate(&u2, &g_dtor[2], dtor_cb, 1, CU_USER_OBJECT_NO_DESTRUCTOR_SYNC));
    CK(D.cuGraphRetainUserObject(d->g2, u2, 1, CU_GRAPH_USER_OBJECT_MOVE));
    instantiate(d->g1, &d->e);
    CK(launch_sync(d->e, "launch before update"));
    note_word("dA[0]", S.A, S.dA, "1 = G1's params");
    CUgraphExecUpdateResultInfo info;
    memset(&info, 0, sizeof info);
    STEP("cuGraphExecUpdate(E, G2)");
    CUresult r = D.cuGraphExecUpdate(d->e, d->g2, &info);
    NOTE("cuGraphExecUpdate(E, G2): %s, info.result %d, errorNode %s", ename(r), (int)info.result,
         info.errorNode == NULL ? "NULL" : "set");
    launch_sync(d->e, "launch after update");
    note_word("dA[0]", S.A, S.dA, "2 = G2's params");
    return r;
}

static void case_D1(int a, int b, int c) {
    (void)a, (void)b, (void)c;
    setup(0);
    dstate d;
    CUresult r = d_prepare(&d);
    RESULT("cuGraphExecUpdate %s (details in notes)", ename(r));
    settle();
    NOTE("after update, G1 and G2 alive: U1 %s, U2 %s", ran(1), ran(2));
    STEP("cuGraphDestroy(G2)");
    CK(D.cuGraphDestroy(d.g2));
    settle();
    NOTE("after cuGraphDestroy(G2), E alive: U1 %s, U2 %s%s", ran(1), ran(2),
         atomic_load(&g_dtor[2]) ? " => E did NOT take references to G2's user objects"
                                 : " => E holds references to G2's user objects");
    STEP("cuGraphDestroy(G1)");
    CK(D.cuGraphDestroy(d.g1));
    settle();
    NOTE("after cuGraphDestroy(G1) too, E alive: U1 %s, U2 %s%s", ran(1), ran(2),
         atomic_load(&g_dtor[1]) ? " => the update dropped E's references to G1's user objects"
                                 : " => E still holds G1's user objects");
    launch_sync(d.e, "launch of E after both graphs are destroyed");
    note_word("dA[0]", S.A, S.dA, "2 = G2's params");
    settle();
    NOTE("after that launch: U1 %s, U2 %s", ran(1), ran(2));
    STEP("cuGraphExecDestroy(E)");
    CK(D.cuGraphExecDestroy(d.e));
    settle();
    for (int i = 0; i < 10 && !(atomic_load(&g_dtor[1]) && atomic_load(&g_dtor[2])); i++)
        sleep_ms(100);
    NOTE("after cuGraphExecDestroy(E) (+ up to 1 s): U1 %s, U2 %s", ran(1), ran(2));
}

/* The node handles of G1 and G2 against E after the update, both graphs alive. */
static void case_D2(int a, int b, int c) {
    (void)a, (void)b, (void)c;
    setup(0);
    dstate d;
    CK(d_prepare(&d));
    char res[4][64];
    for (int i = 0; i < 2; i++) {
        nparm p;
        np_kernel_func(&p, S.fFill, S.dA, 3 + (unsigned)i);
        CUgraphNode n = i == 0 ? d.n1 : d.n2;
        STEP("cuGraphExecNodeSetParams(E, n%d)", i + 1);
        CUresult r = D.cuGraphExecNodeSetParams(d.e, n, &p.p);
        snprintf(res[i], sizeof res[i], "%s", ename(r));
        NOTE("cuGraphExecNodeSetParams(E, node of G%d, fill %u): %s", i + 1, 3 + i, ename(r));
        launch_sync(d.e, "launch");
        note_word("dA[0]", S.A, S.dA, i == 0 ? "3 = took effect" : "4 = took effect");
    }
    for (int i = 0; i < 2; i++) {
        CUgraphNode n = i == 0 ? d.n1 : d.n2;
        zero_buf(S.A, S.dA);
        STEP("cuGraphNodeSetEnabled(E, n%d, 0)", i + 1);
        CUresult r = D.cuGraphNodeSetEnabled(d.e, n, 0);
        unsigned en = 99;
        CUresult rg = D.cuGraphNodeGetEnabled(d.e, n, &en);
        snprintf(res[2 + i], sizeof res[2 + i], "%s", ename(r));
        NOTE("cuGraphNodeSetEnabled(E, node of G%d, 0): %s; GetEnabled %s -> %u", i + 1, ename(r),
             ename(rg), en);
        launch_sync(d.e, "launch");
        note_word("dA[0]", S.A, S.dA, "0 = node was disabled");
        CUresult r1 = D.cuGraphNodeSetEnabled(d.e, n, 1);
        NOTE("cuGraphNodeSetEnabled(E, node of G%d, 1): %s", i + 1, ename(r1));
    }
    RESULT("SetParams via G1 node: %s, via G2 node: %s; SetEnabled via G1 node: %s, via G2 node: %s",
           res[0], res[1], res[2], res[3]);
}

/* After the update, destroy one source graph, then use its (dangling) node handle with E. */
static void case_D_dangling(int which_graph, int enable, int c) {
    (void)c;
    setup(0);
    dstate d;
    CK(d_prepare(&d));
    CK(D.cuGraphDestroy(which_graph == 1 ? d.g1 : d.g2));
    CUgraphNode n = which_graph == 1 ? d.n1 : d.n2;
    CUresult r;
    if (enable) {
        STEP("cuGraphNodeSetEnabled(E, dangling node, 0)");
        r = D.cuGraphNodeSetEnabled(d.e, n, 0);
        RESULT("%s", ename(r));
        zero_buf(S.A, S.dA);
        launch_sync(d.e, "launch");
        note_word("dA[0]", S.A, S.dA, "0 = disabled, 2 = still enabled");
    } else {
        nparm p;
        np_kernel_func(&p, S.fFill, S.dA, 5);
        STEP("cuGraphExecNodeSetParams(E, dangling node)");
        r = D.cuGraphExecNodeSetParams(d.e, n, &p.p);
        RESULT("%s", ename(r));
        launch_sync(d.e, "launch");
        note_word("dA[0]", S.A, S.dA, "5 = took effect");
    }
    health();
}

/* ------------------------------------------------------------------------------------------ */
/* E. Executable update restrictions.                                                         */

enum {
    EM_W_SMALLER,
    EM_W_LARGER,
    EM_ESZ_1_TO_4,
    EM_H_1_TO_2,
    EM2_WIDTH,
    EM2_PITCH,
    EM2_ESZ,
    EM2_DST_OTHER_ALLOC,
    EM2_DST_OFFSET,
    EM2_VALUE,
    EM2_H_TO_1,
    EM_DST_CTXB_KEEP_CTX,
    EM_DST_CTXB_CTX_B,
    EM_COUNT
};

static const struct {
    const char *id, *what;
} em_cases[EM_COUNT] = {
    {"E01", "1-D memset (4-byte x 256) -> width 128"},
    {"E02", "1-D memset (4-byte x 256) -> width 512"},
    {"E03", "1-D memset (1-byte x 1024) -> elementSize 4, width 256"},
    {"E04", "1-D memset (4-byte x 256) -> height 2, pitch 2048"},
    {"E05", "2-D memset (4-byte x 64, 4 rows, pitch 2048) -> width 32"},
    {"E06", "2-D memset -> pitch 4096"},
    {"E07", "2-D memset -> elementSize 2, width 128"},
    {"E08", "2-D memset -> dst another allocation of A (dA2)"},
    {"E09", "2-D memset -> dst dA + 8192 (same allocation)"},
    {"E10", "2-D memset -> new value"},
    {"E11", "2-D memset -> height 1 (1-D)"},
    {"E12", "1-D memset -> dst = allocation of ctx B, node ctx stays A"},
    {"E13", "1-D memset -> dst = allocation of ctx B, ctx field B"},
};

static void case_E_memset(int which, int b, int c) {
    (void)b, (void)c;
    setup(which == EM_DST_CTXB_KEEP_CTX || which == EM_DST_CTXB_CTX_B ? NEED_B : 0);
    /* The value pattern fits the element size: 0xAB, 0xABAB or 0xABABABAB. */
    const unsigned V1 = 0xABu, V2 = 0xABABu, V = 0xABABABABu;
    nparm base, upd;
    int two_d = which >= EM2_WIDTH && which <= EM2_H_TO_1;
    if (which == EM_ESZ_1_TO_4)
        np_memset(&base, S.dA, V1, 1, 1024, 1, 0, S.A);
    else if (two_d)
        np_memset(&base, S.dA, V, 4, 64, 4, 2048, S.A);
    else
        np_memset(&base, S.dA, V, 4, 256, 1, 0, S.A);
    upd = base;
    CUDA_MEMSET_NODE_PARAMS_v2 *m = &upd.p.memset;
    switch (which) {
    case EM_W_SMALLER: m->width = 128; break;
    case EM_W_LARGER: m->width = 512; break;
    case EM_ESZ_1_TO_4: m->elementSize = 4; m->width = 256; m->value = V; break;
    case EM_H_1_TO_2: m->height = 2; m->pitch = 2048; break;
    case EM2_WIDTH: m->width = 32; break;
    case EM2_PITCH: m->pitch = 4096; break;
    case EM2_ESZ: m->elementSize = 2; m->width = 128; m->value = V2; break;
    case EM2_DST_OTHER_ALLOC: m->dst = S.dA2; break;
    case EM2_DST_OFFSET: m->dst = S.dA + 8192; break;
    case EM2_VALUE: m->value = 0x12121212u; break;
    case EM2_H_TO_1: m->height = 1; break;
    case EM_DST_CTXB_KEEP_CTX: m->dst = S.dB; break;
    case EM_DST_CTXB_CTX_B: m->dst = S.dB; m->ctx = S.B; break;
    default: break;
    }
    CUgraph g;
    CUgraphNode n;
    CUgraphExec e;
    build1(&base, &g, &n);
    instantiate(g, &e);
    zero_buf(S.A, S.dA);
    zero_buf(S.A, S.dA2);
    CK(launch_sync(e, "launch before update"));
    note_bytes("before update, dA", S.A, S.dA);
    zero_buf(S.A, S.dA);
    STEP("cuGraphExecNodeSetParams");
    CUresult r = D.cuGraphExecNodeSetParams(e, n, &upd.p);
    RESULT("%s", ename(r));
    launch_sync(e, "launch after update");
    note_bytes("after, dA", S.A, S.dA);
    if (which == EM2_DST_OTHER_ALLOC)
        note_bytes("after, dA2", S.A, S.dA2);
    if (which == EM_DST_CTXB_KEEP_CTX || which == EM_DST_CTXB_CTX_B)
        note_bytes("after, dB (read with B current)", S.B, S.dB);
    health();
}

/* Memcpy D->D exec-updated to D->host and back. host_kind: 0 pinned, 1 pageable. */
static void case_E_memcpy(int host_kind, int at_creation, int c) {
    (void)c;
    setup(0);
    unsigned char *hbuf = NULL;
    if (host_kind == 0) {
        void *p = NULL;
        CK(D.cuMemAllocHost(&p, 4096));
        hbuf = p;
    } else {
        hbuf = malloc(4096);
        if (hbuf == NULL) {
            emit('F', "malloc failed");
            _exit(3);
        }
    }
    memset(hbuf, 0, 4096);
    nparm dd, dh;
    np_memcpy_dd(&dd, S.dA2, S.dA, 256, S.A);
    dh = dd;
    dh.p.memcpy.copyParams.dstMemoryType = CU_MEMORYTYPE_HOST;
    dh.p.memcpy.copyParams.dstDevice = 0;
    dh.p.memcpy.copyParams.dstHost = hbuf;
    CUgraph g;
    CUgraphNode n;
    CUgraphExec e;
    char sum[160];
    if (at_creation) {
        CK(D.cuGraphCreate(&g, 0));
        STEP("cuGraphAddNode D->host");
        CUresult r = D.cuGraphAddNode(&n, g, NULL, 0, &dh.p);
        RESULT("cuGraphAddNode %s", ename(r));
        if (r != CUDA_SUCCESS)
            return;
        CUresult ri = D.cuGraphInstantiateWithFlags(&e, g, 0);
        NOTE("instantiate %s", ename(ri));
        if (ri != CUDA_SUCCESS)
            return;
        launch_sync(e, "launch");
        summarize_bytes(hbuf, 4096, sum, sizeof sum);
        NOTE("host buffer: %s (256 x 0x5a expected)", sum);
        STEP("exec update to D->D");
        CUresult r2 = D.cuGraphExecNodeSetParams(e, n, &dd.p);
        NOTE("exec update D->host -> D->D: %s", ename(r2));
        RESULT("cuGraphAddNode D->host %s; exec update D->host -> D->D: %s", ename(r), ename(r2));
        zero_buf(S.A, S.dA);
        launch_sync(e, "launch");
        note_bytes("dA", S.A, S.dA);
        return;
    }
    build1(&dd, &g, &n);
    instantiate(g, &e);
    zero_buf(S.A, S.dA);
    CK(launch_sync(e, "launch before update"));
    note_bytes("before, dA", S.A, S.dA);
    STEP("exec update D->D -> D->host");
    CUresult r = D.cuGraphExecNodeSetParams(e, n, &dh.p);
    RESULT("D->D -> D->host: %s", ename(r));
    NOTE("exec update D->D -> D->host: %s", ename(r));
    zero_buf(S.A, S.dA);
    launch_sync(e, "launch after update");
    summarize_bytes(hbuf, 4096, sum, sizeof sum);
    NOTE("host buffer: %s; (256 x 0x5a if the update took effect)", sum);
    note_bytes("dA", S.A, S.dA);
    STEP("exec update back to D->D");
    CUresult r2 = D.cuGraphExecNodeSetParams(e, n, &dd.p);
    NOTE("back to D->D: %s", ename(r2));
    RESULT("D->D -> D->host: %s; back to D->D: %s", ename(r), ename(r2));
    memset(hbuf, 0, 4096);
    zero_buf(S.A, S.dA);
    launch_sync(e, "launch after update back");
    note_bytes("dA", S.A, S.dA);
    summarize_bytes(hbuf, 4096, sum, sizeof sum);
    NOTE("host buffer: %s", sum);
    health();
}

enum {
    EK_ADD_TWO,
    EK_FILL,
    EK_EMPTY,
    EK_GRID,
    EK_BLOCK,
    EK_SHMEM,
    EK_SHMEM_BIG,
    EK_TO_KERN,
    EK_COUNT
};
static const struct {
    const char *id, *what, *expect;
} ek_cases[EK_COUNT] = {
    {"E20", "kernel node add_one(dA) -> add_two (same module, same signature)", "2 if applied"},
    {"E21", "kernel node add_one(dA) -> fill_u32(dA, 0x77) (same module, other signature)",
     "0x77 if applied"},
    {"E22", "kernel node add_one(dA) -> empty() (same module, no params)", "0 if applied"},
    {"E23", "kernel node add_one: grid 1 -> 4", "4 if applied"},
    {"E24", "kernel node add_one: block 1 -> 64", "64 if applied"},
    {"E25", "kernel node add_one: dynamic shared 0 -> 1024 B", "1"},
    {"E26", "kernel node add_one: dynamic shared 0 -> 64 KiB (above the 48 KiB default)", "1"},
    {"E27", "kernel node add_one CUfunction fA -> CUkernel fill_u32(dA, 0x77) with ctx=A",
     "0x77 if applied"},
};

static void case_E_kernel(int which, int b, int c) {
    (void)b, (void)c;
    setup(which == EK_TO_KERN ? NEED_LIB : 0);
    nparm base, upd;
    np_kernel_func(&base, S.fAdd, S.dA, 0);
    np_kernel_func(&upd, S.fAdd, S.dA, 0x77);
    CUDA_KERNEL_NODE_PARAMS_v3 *k = &upd.p.kernel;
    switch (which) {
    case EK_ADD_TWO: k->func = S.fAdd2; break;
    case EK_FILL: k->func = S.fFill; break;
    case EK_EMPTY: k->func = S.fEmpty; break;
    case EK_GRID: k->gridDimX = 4; break;
    case EK_BLOCK: k->blockDimX = 64; break;
    case EK_SHMEM: k->sharedMemBytes = 1024; break;
    case EK_SHMEM_BIG: k->sharedMemBytes = 65536; break;
    case EK_TO_KERN: k->func = NULL; k->kern = S.kFill; k->ctx = S.A; break;
    default: break;
    }
    CUgraph g;
    CUgraphNode n;
    CUgraphExec e;
    build1(&base, &g, &n);
    instantiate(g, &e);
    zero_buf(S.A, S.dA);
    CK(launch_sync(e, "launch before update"));
    note_word("before update, dA[0]", S.A, S.dA, "1");
    STEP("cuGraphExecNodeSetParams");
    CUresult r = D.cuGraphExecNodeSetParams(e, n, &upd.p);
    RESULT("%s", ename(r));
    zero_buf(S.A, S.dA);
    launch_sync(e, "launch after update");
    note_word("after, dA[0]", S.A, S.dA, ek_cases[which].expect);
    health();
}

/* ------------------------------------------------------------------------------------------ */
/* F. cuGraphNodeSetEnabled per node type.                                                     */

enum { FT_ORIG_CHILD_NODE = 100, FT_EMBEDDED_CHILD_NODE = 101 };

static void case_F(int nt, int b, int c) {
    (void)b, (void)c;
    setup(0);
    int base_nt = nt >= 100 ? NT_CHILD : nt;
    nparm p;
    CUgraph g;
    CUgraphNode n;
    CUgraphExec e;
    np_default(&p, base_nt);
    build1(&p, &g, &n);
    instantiate(g, &e);
    CUgraphNode target = n;
    if (nt == FT_ORIG_CHILD_NODE || nt == FT_EMBEDDED_CHILD_NODE) {
        CUgraph cg = p.p.graph.graph;
        if (nt == FT_EMBEDDED_CHILD_NODE)
            CK(D.cuGraphChildGraphNodeGetGraph(n, &cg));
        size_t cnt = 1;
        CK(D.cuGraphGetNodes(cg, &target, &cnt));
    }
    reset_effects();
    STEP("cuGraphNodeSetEnabled(0)");
    CUresult r = D.cuGraphNodeSetEnabled(e, target, 0);
    unsigned en = 99;
    CUresult rg = D.cuGraphNodeGetEnabled(e, target, &en);
    RESULT("SetEnabled(0) %s; GetEnabled %s -> %u", ename(r), ename(rg), en);
    launch_sync(e, "launch while disabled");
    note_effect(base_nt, "while disabled");
    CUresult r1 = D.cuGraphNodeSetEnabled(e, target, 1);
    en = 99;
    rg = D.cuGraphNodeGetEnabled(e, target, &en);
    NOTE("SetEnabled(1) %s; GetEnabled %s -> %u", ename(r1), ename(rg), en);
    reset_effects();
    launch_sync(e, "launch re-enabled");
    note_effect(base_nt, "re-enabled");
}

/* ------------------------------------------------------------------------------------------ */
/* G. Timings.                                                                                 */

#define G_WARM 2000
#define G_BATCHES 5
#define G_ITERS 20000
#define G_SYNC_EVERY 1000

enum {
    GT_EXEC_SETPARAMS,
    GT_EXEC_KERNEL_SETPARAMS,
    GT_DEF_SETPARAMS,
    GT_LAUNCH,
    GT_LAUNCH_RECORD,
    GT_SETPARAMS_LAUNCH,
    GT_EVENT_QUERY,
    GT_CTX_GET,
    GT_CTX_PUSH_POP,
    GT_CTX_SET_SAME,
    GT_CTX_SET_ALT,
    GT_COUNT
};
static const struct {
    const char *id, *what;
} g_cases[GT_COUNT] = {
    {"G01", "cuGraphExecNodeSetParams (kernel fill_u32, new scalar arg each call)"},
    {"G02", "cuGraphExecKernelNodeSetParams (v2 struct, new scalar arg each call)"},
    {"G03", "cuGraphNodeSetParams (definition, kernel, new scalar arg each call)"},
    {"G04", "cuGraphLaunch alone (1 kernel node; sync every 1,000, sync time excluded)"},
    {"G05", "cuGraphLaunch + cuEventRecord (sync every 1,000, sync time excluded)"},
    {"G06", "cuGraphExecNodeSetParams + cuGraphLaunch (sync every 1,000, excluded)"},
    {"G07", "cuEventQuery on a completed event"},
    {"G08", "cuCtxGetCurrent"},
    {"G09", "cuCtxPushCurrent(A) + cuCtxPopCurrent pair"},
    {"G10", "cuCtxSetCurrent(A) with A already current"},
    {"G11", "cuCtxSetCurrent alternating A / B"},
};

static int cmp_double(const void *a, const void *b) {
    double x = *(const double *)a, y = *(const double *)b;
    return x < y ? -1 : x > y;
}

#define G_FAIL(what, r)                                                                            \
    do {                                                                                           \
        RESULT("%s failed at iteration %d: %s", what, i, ename(r));                                \
        return;                                                                                    \
    } while (0)

static void case_G(int which, int b, int c) {
    (void)b, (void)c;
    setup(which == GT_CTX_SET_ALT ? NEED_B : 0);
    nparm p;
    CUgraph g;
    CUgraphNode n;
    CUgraphExec e;
    np_kernel_func(&p, S.fFill, S.dA, 0);
    build1(&p, &g, &n);
    instantiate(g, &e);
    CK(launch_sync(e, "warm launch"));
    CUDA_KERNEL_NODE_PARAMS_v2 kp2;
    memset(&kp2, 0, sizeof kp2);
    kp2.func = S.fFill;
    kp2.gridDimX = kp2.gridDimY = kp2.gridDimZ = 1;
    kp2.blockDimX = kp2.blockDimY = kp2.blockDimZ = 1;
    kp2.kernelParams = p.ka;
    CK(D.cuEventRecord(S.evA, S.sA));
    CK(D.cuStreamSynchronize(S.sA));
    CK(make_current(S.A));
    double per[G_BATCHES], wall[G_BATCHES];
    int launches = which == GT_LAUNCH || which == GT_LAUNCH_RECORD || which == GT_SETPARAMS_LAUNCH;
    STEP("timing loop");
    for (int batch = -1; batch < G_BATCHES; batch++) {
        int iters = batch < 0 ? G_WARM : G_ITERS;
        double t0 = mono_ns(), seg = t0, host = 0;
        CUresult r = CUDA_SUCCESS;
        CUcontext cur;
        for (int i = 0; i < iters; i++) {
            if (launches && i > 0 && i % G_SYNC_EVERY == 0) {
                host += mono_ns() - seg;
                r = D.cuStreamSynchronize(S.sA);
                if (r)
                    G_FAIL("cuStreamSynchronize", r);
                seg = mono_ns();
            }
            p.kv = (unsigned)i;
            switch (which) {
            case GT_EXEC_SETPARAMS:
                if ((r = D.cuGraphExecNodeSetParams(e, n, &p.p)) != CUDA_SUCCESS)
                    G_FAIL("cuGraphExecNodeSetParams", r);
                break;
            case GT_EXEC_KERNEL_SETPARAMS:
                if ((r = D.cuGraphExecKernelNodeSetParams(e, n, &kp2)) != CUDA_SUCCESS)
                    G_FAIL("cuGraphExecKernelNodeSetParams", r);
                break;
            case GT_DEF_SETPARAMS:
                if ((r = D.cuGraphNodeSetParams(n, &p.p)) != CUDA_SUCCESS)
                    G_FAIL("cuGraphNodeSetParams", r);
                break;
            case GT_LAUNCH:
                if ((r = D.cuGraphLaunch(e, S.sA)) != CUDA_SUCCESS)
                    G_FAIL("cuGraphLaunch", r);
                break;
            case GT_LAUNCH_RECORD:
                if ((r = D.cuGraphLaunch(e, S.sA)) != CUDA_SUCCESS)
                    G_FAIL("cuGraphLaunch", r);
                if ((r = D.cuEventRecord(S.evA, S.sA)) != CUDA_SUCCESS)
                    G_FAIL("cuEventRecord", r);
                break;
            case GT_SETPARAMS_LAUNCH:
                if ((r = D.cuGraphExecNodeSetParams(e, n, &p.p)) != CUDA_SUCCESS)
                    G_FAIL("cuGraphExecNodeSetParams", r);
                if ((r = D.cuGraphLaunch(e, S.sA)) != CUDA_SUCCESS)
                    G_FAIL("cuGraphLaunch", r);
                break;
            case GT_EVENT_QUERY:
                if ((r = D.cuEventQuery(S.evA)) != CUDA_SUCCESS)
                    G_FAIL("cuEventQuery", r);
                break;
            case GT_CTX_GET:
                if ((r = D.cuCtxGetCurrent(&cur)) != CUDA_SUCCESS)
                    G_FAIL("cuCtxGetCurrent", r);
                break;
            case GT_CTX_PUSH_POP:
                if ((r = D.cuCtxPushCurrent(S.A)) != CUDA_SUCCESS)
                    G_FAIL("cuCtxPushCurrent", r);
                if ((r = D.cuCtxPopCurrent(&cur)) != CUDA_SUCCESS)
                    G_FAIL("cuCtxPopCurrent", r);
                break;
            case GT_CTX_SET_SAME:
                if ((r = D.cuCtxSetCurrent(S.A)) != CUDA_SUCCESS)
                    G_FAIL("cuCtxSetCurrent", r);
                break;
            case GT_CTX_SET_ALT:
                if ((r = D.cuCtxSetCurrent((i & 1) ? S.B : S.A)) != CUDA_SUCCESS)
                    G_FAIL("cuCtxSetCurrent", r);
                break;
            default: break;
            }
        }
        host += mono_ns() - seg;
        if (launches) {
            int i = iters;
            if ((r = D.cuStreamSynchronize(S.sA)) != CUDA_SUCCESS)
                G_FAIL("cuStreamSynchronize", r);
        }
        if (which == GT_CTX_SET_ALT)
            CK(make_current(S.A));
        if (batch >= 0) {
            per[batch] = host / iters;
            wall[batch] = (mono_ns() - t0) / iters;
        }
    }
    double sorted[G_BATCHES], wsorted[G_BATCHES];
    memcpy(sorted, per, sizeof per);
    memcpy(wsorted, wall, sizeof wall);
    qsort(sorted, G_BATCHES, sizeof sorted[0], cmp_double);
    qsort(wsorted, G_BATCHES, sizeof wsorted[0], cmp_double);
    RESULT("median %.0f ns/call", sorted[G_BATCHES / 2]);
    NOTE("batches: min %.0f, max %.0f ns/call (%d x %d calls after %d warm-up)", sorted[0],
         sorted[G_BATCHES - 1], G_BATCHES, G_ITERS, G_WARM);
    if (launches)
        NOTE("including the syncs every %d (GPU throughput bound): median %.0f ns/iteration",
             G_SYNC_EVERY, wsorted[G_BATCHES / 2]);
    if (which == GT_SETPARAMS_LAUNCH || which == GT_LAUNCH)
        note_word("dA[0] after the loops", S.A, S.dA,
                  which == GT_SETPARAMS_LAUNCH ? "19999 = last scalar arg" : "0");
}

/* ------------------------------------------------------------------------------------------ */
/* Parent: case table, scheduler, report.                                                     */

typedef void (*case_fn)(int, int, int);

typedef struct {
    char id[24];
    char sec;
    int excl; /* runs with no other case running */
    case_fn fn;
    int a, b, c;
    char what[320];
    /* run state */
    int state; /* 0 pending, 1 running, 2 done */
    pid_t pid;
    int fd;
    double t_start, t_kill;
    int killed;
    double secs;
    char outcome[640];
    char notes[16384];
} pcase;

#define MAX_CASES 320
static pcase g_cases_tab[MAX_CASES];
static int g_ncases;
static int g_timeout_s = 10;
static int g_compute_mode = -1;
static int g_nodevice;

static void add_case(char sec, const char *id, int excl, case_fn fn, int a, int b, int c,
                     const char *fmt, ...) {
    if (g_ncases >= MAX_CASES)
        return;
    pcase *k = &g_cases_tab[g_ncases++];
    memset(k, 0, sizeof *k);
    snprintf(k->id, sizeof k->id, "%s", id);
    k->sec = sec;
    k->excl = excl;
    k->fn = fn;
    k->a = a;
    k->b = b;
    k->c = c;
    k->fd = -1;
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(k->what, sizeof k->what, fmt, ap);
    va_end(ap);
}

static void build_cases(void) {
    add_case('I', "I0", 1, case_info, 0, 0, 0,
             "driver, device, loading mode; one full case setup as a smoke test");
    for (int i = 0; i < GT_COUNT; i++)
        add_case('G', g_cases[i].id, 1, case_G, i, 0, 0, "%s", g_cases[i].what);
    static const char *const lv_name[] = {"def", "exec"};
    static const char *const lv_call[] = {"cuGraphNodeSetParams", "cuGraphExecNodeSetParams"};
    for (int k = 0; k < AK_COUNT; k++)
        for (int lv = 0; lv < 2; lv++)
            for (int ts = 0; ts < 3; ts++) {
                char id[24];
                snprintf(id, sizeof id, "%s-%s-%s", a_kinds[k].id, lv_name[lv], ts_id[ts]);
                add_case('A', id, 0, case_A, k, lv, ts, "%s; %s with %s", a_kinds[k].what,
                         lv_call[lv], ts_label[ts]);
            }
    for (int ts = 0; ts < 3; ts++) {
        char id[24];
        snprintf(id, sizeof id, "A4p-%s", ts_id[ts]);
        add_case('A', id, 0, case_A4p, ts, 0, 0,
                 "cuPointerGetAttribute(MEMORY_TYPE, CONTEXT) on a cuMemFree'd device pointer "
                 "(and live/never-allocated ones for comparison) with %s",
                 ts_label[ts]);
    }
    for (int i = 0; i < B_COUNT; i++) {
        char id[24];
        snprintf(id, sizeof id, "B%s", b_calls[i].id);
        add_case('B', id, 0, case_B, i, 0, 0, "%s", b_calls[i].what);
    }
    add_case('C', "C1", 0, case_C1, 0, 0, 0,
             "queries on fA (module in A), fB (module in B), fkA/fkB (cuKernelGetFunction with A/B "
             "current) under A, B and no ctx current");
    add_case('C', "C2", 0, case_C_launch, 0, 0, 0,
             "cuLaunchKernel(fB, arg dA) on a stream of A with A current");
    add_case('C', "C3", 0, case_C_launch, 1, 0, 0,
             "cuLaunchKernel(fB, arg dA) on the NULL stream with A current");
    add_case('C', "C4", 0, case_C_launch, 2, 0, 0,
             "cuLaunchKernel(fA, arg dA) on a stream of A with B current");
    add_case('C', "C5", 0, case_C5, 0, 0, 0,
             "cuGraphAddNode kernel with fB (module in B) while A is current; instantiate; launch "
             "on A's stream");
    add_case('D', "D1", 0, case_D1, 0, 0, 0,
             "user objects: G1 (U1, MOVE) -> E; G2 (U2, MOVE) same topology; cuGraphExecUpdate(E, "
             "G2); destroy G2, G1, then E; when does each destructor run?");
    add_case('D', "D2", 0, case_D2, 0, 0, 0,
             "after cuGraphExecUpdate(E, G2), G1 and G2 alive: cuGraphExecNodeSetParams and "
             "cuGraphNodeSetEnabled on E with G1's node and with G2's node");
    add_case('D', "D3", 0, case_D_dangling, 1, 0, 0,
             "after cuGraphExecUpdate(E, G2) and cuGraphDestroy(G1): cuGraphExecNodeSetParams(E, "
             "node of G1)");
    add_case('D', "D4", 0, case_D_dangling, 1, 1, 0,
             "after cuGraphExecUpdate(E, G2) and cuGraphDestroy(G1): cuGraphNodeSetEnabled(E, node "
             "of G1, 0)");
    add_case('D', "D5", 0, case_D_dangling, 2, 0, 0,
             "after cuGraphExecUpdate(E, G2) and cuGraphDestroy(G2): cuGraphExecNodeSetParams(E, "
             "node of G2)");
    add_case('D', "D6", 0, case_D_dangling, 2, 1, 0,
             "after cuGraphExecUpdate(E, G2) and cuGraphDestroy(G2): cuGraphNodeSetEnabled(E, node "
             "of G2, 0)");
    for (int i = 0; i < EM_COUNT; i++)
        add_case('E', em_cases[i].id, 0, case_E_memset, i, 0, 0, "exec update: %s",
                 em_cases[i].what);
    add_case('E', "E14", 0, case_E_memcpy, 0, 0, 0,
             "memcpy D->D (256 B) exec-updated to D->pinned host (cuMemAllocHost), then back");
    add_case('E', "E15", 0, case_E_memcpy, 1, 0, 0,
             "memcpy D->D (256 B) exec-updated to D->pageable host (malloc), then back");
    add_case('E', "E16", 0, case_E_memcpy, 0, 1, 0,
             "memcpy node created D->pinned host; launch; exec-updated to D->D");
    add_case('E', "E17", 0, case_E_memcpy, 1, 1, 0,
             "memcpy node created D->pageable host (malloc); launch; exec-updated to D->D");
    for (int i = 0; i < EK_COUNT; i++)
        add_case('E', ek_cases[i].id, 0, case_E_kernel, i, 0, 0, "exec update: %s",
                 ek_cases[i].what);
    static const struct {
        const char *id;
        int nt;
        const char *what;
    } fl[] = {
        {"F1", NT_KFUNC, "kernel node"},
        {"F2", NT_MEMSET, "memset node"},
        {"F3", NT_MEMCPY, "memcpy node"},
        {"F4", NT_HOST, "host node"},
        {"F5", NT_EVREC, "event record node"},
        {"F6", NT_EVWAIT, "event wait node"},
        {"F7", NT_CHILD, "child graph node"},
        {"F8", NT_EMPTY, "empty node"},
        {"F9", FT_ORIG_CHILD_NODE, "node of the graph passed to the child node (not in the exec)"},
        {"F10", FT_EMBEDDED_CHILD_NODE,
         "node inside the child node's embedded graph (cuGraphChildGraphNodeGetGraph)"},
    };
    for (size_t i = 0; i < sizeof fl / sizeof fl[0]; i++)
        add_case('F', fl[i].id, 0, case_F, fl[i].nt, 0, 0,
                 "cuGraphNodeSetEnabled(0/1) + cuGraphNodeGetEnabled on a %s", fl[i].what);
    /* The primary-context variant of B last: the first to go when the time budget runs out. */
    for (int i = 0; i < B_COUNT; i++) {
        char id[24];
        snprintf(id, sizeof id, "Bp%s", b_calls[i].id);
        add_case('P', id, 0, case_B, i, 1, 0, "%s [node ctx = primary]", b_calls[i].what);
    }
}

static const char *section_title(char s) {
    switch (s) {
    case 'I': return "Environment";
    case 'G':
        return "G. Timings (host ns per call; median of 5 batches x 20,000 calls after 2,000 "
               "warm-up; run alone)";
    case 'A':
        return "A. Hostile node updates (def = cuGraphNodeSetParams, exec = "
               "cuGraphExecNodeSetParams; node ctx A = cuCtxCreate'd, foreign B = second "
               "cuCtxCreate; after the call: launch on A's stream + sync)";
    case 'B':
        return "B. Context left current by calls made with NO context current (node ctx A is "
               "cuCtxCreate'd; the primary context is retained too; valid inputs)";
    case 'P':
        return "B (variant). The same calls with NO context current when the node ctx A IS the "
               "primary context";
    case 'C': return "C. Which context does a CUfunction belong to?";
    case 'D': return "D. cuGraphExecUpdate, user objects and node handles";
    case 'E': return "E. Executable update restrictions (cuGraphExecNodeSetParams)";
    case 'F': return "F. cuGraphNodeSetEnabled per node type";
    default: return "?";
    }
}

static void md_append(char *dst, size_t cap, const char *src) {
    size_t used = strlen(dst);
    for (; *src && used + 3 < cap; src++) {
        if (*src == '|')
            dst[used++] = '\\';
        dst[used++] = *src;
    }
    dst[used] = '\0';
}

static const char *sig_name(int s) {
    static char buf[24];
    switch (s) {
    case SIGSEGV: return "SIGSEGV";
    case SIGBUS: return "SIGBUS";
    case SIGABRT: return "SIGABRT";
    case SIGILL: return "SIGILL";
    case SIGFPE: return "SIGFPE";
    case SIGKILL: return "SIGKILL";
    case SIGTERM: return "SIGTERM";
    case SIGALRM: return "SIGALRM";
    default: snprintf(buf, sizeof buf, "signal %d", s); return buf;
    }
}

static double g_t0;
static double now_s(void) { return mono_ns() / 1e9 - g_t0; }

static void start_case(pcase *k) {
    char tmpl[] = "/tmp/cgn_probe_XXXXXX";
    int fd = mkstemp(tmpl);
    if (fd < 0) {
        snprintf(k->outcome, sizeof k->outcome, "could not create a temp file: %s",
                 strerror(errno));
        k->state = 2;
        return;
    }
    unlink(tmpl);
    fflush(stdout);
    fflush(stderr);
    pid_t pid = fork();
    if (pid < 0) {
        snprintf(k->outcome, sizeof k->outcome, "fork failed: %s", strerror(errno));
        close(fd);
        k->state = 2;
        return;
    }
    if (pid == 0) {
        struct rlimit rl = {0, 0};
        setrlimit(RLIMIT_CORE, &rl);
        dup2(fd, 1);
        dup2(fd, 2);
        close(fd);
        signal(SIGALRM, SIG_DFL);
        alarm((unsigned)g_timeout_s);
        driver_resolve();
        k->fn(k->a, k->b, k->c);
        emit('E', "end");
        _exit(0);
    }
    k->pid = pid;
    k->fd = fd;
    k->t_start = now_s();
    k->state = 1;
}

/* Turns the child's output and exit status into the row's outcome and notes. */
static void finish_case(pcase *k, int status, int reaped) {
    k->secs = now_s() - k->t_start;
    char *buf = calloc(1, 65537);
    ssize_t got = 0;
    if (buf != NULL && lseek(k->fd, 0, SEEK_SET) == 0) {
        ssize_t n;
        while (got < 65536 && (n = read(k->fd, buf + got, (size_t)(65536 - got))) > 0)
            got += n;
    }
    close(k->fd);
    k->fd = -1;
    char result[640] = "", last_step[256] = "", fail[512] = "";
    int ended = 0;
    k->notes[0] = '\0';
    if (buf != NULL) {
        buf[got] = '\0';
        for (char *line = buf, *next; line && *line; line = next) {
            next = strchr(line, '\n');
            if (next)
                *next++ = '\0';
            const char *text = strlen(line) >= 2 ? line + 2 : "";
            if (line[0] == 'R' && line[1] == ' ') {
                snprintf(result, sizeof result, "%s", text);
            } else if (line[0] == 'N' && line[1] == ' ') {
                if (k->notes[0])
                    md_append(k->notes, sizeof k->notes, "<br>");
                md_append(k->notes, sizeof k->notes, text);
            } else if (line[0] == 'S' && line[1] == ' ') {
                snprintf(last_step, sizeof last_step, "%s", text);
            } else if (line[0] == 'F' && line[1] == ' ') {
                snprintf(fail, sizeof fail, "%s", text);
            } else if (line[0] == 'K' && line[1] == ' ') {
                if (strncmp(text, "computemode=", 12) == 0)
                    g_compute_mode = atoi(text + 12);
                else if (strcmp(text, "nodevice") == 0)
                    g_nodevice = 1;
            } else if (line[0] == 'E' && line[1] == ' ') {
                ended = 1;
            } else if (line[0]) {
                if (k->notes[0])
                    md_append(k->notes, sizeof k->notes, "<br>");
                md_append(k->notes, sizeof k->notes, "output: ");
                md_append(k->notes, sizeof k->notes, line);
            }
        }
    }
    free(buf);
    char out[1200] = "";
    if (!reaped) {
        snprintf(out, sizeof out, "**hang** (killed after %d s; the process could not be reaped) "
                 "during: %s", g_timeout_s, last_step);
        if (result[0])
            snprintf(out + strlen(out), sizeof out - strlen(out), "; earlier result: %s", result);
    } else if (WIFSIGNALED(status)) {
        int sig = WTERMSIG(status);
        if (sig == SIGALRM || k->killed)
            snprintf(out, sizeof out, "%s%s**hang** (no end after %d s) during: %s", result,
                     result[0] ? ", then " : "", g_timeout_s, last_step);
        else
            snprintf(out, sizeof out, "%s%s**%s** during: %s", result, result[0] ? ", then " : "",
                     sig_name(sig), last_step);
    } else if (WIFEXITED(status) && WEXITSTATUS(status) == 3) {
        snprintf(out, sizeof out, "setup failed: %s", fail);
    } else if (WIFEXITED(status) && WEXITSTATUS(status) == 0 && ended) {
        snprintf(out, sizeof out, "%s", result[0] ? result : "(no result line)");
    } else if (WIFEXITED(status)) {
        snprintf(out, sizeof out, "%s%sexit %d after: %s", result, result[0] ? ", then " : "",
                 WEXITSTATUS(status), last_step);
    }
    k->outcome[0] = '\0';
    md_append(k->outcome, sizeof k->outcome, out);
    char took[64];
    snprintf(took, sizeof took, "%s(case took %.1f s)", k->notes[0] ? "<br>" : "", k->secs);
    md_append(k->notes, sizeof k->notes, took);
    k->state = 2;
}

static int g_printed;
static char g_last_sec;

static void print_ordered(FILE *md) {
    while (g_printed < g_ncases && g_cases_tab[g_printed].state == 2) {
        pcase *k = &g_cases_tab[g_printed++];
        if (k->sec != g_last_sec) {
            g_last_sec = k->sec;
            fprintf(md, "\n## %s\n\n| case | what was done | outcome | observations |\n"
                        "|---|---|---|---|\n",
                    section_title(k->sec));
        }
        char what[700] = "";
        md_append(what, sizeof what, k->what);
        fprintf(md, "| %s | %s | %s | %s |\n", k->id, what, k->outcome, k->notes);
        fflush(md);
    }
}

static int matches(const char *id, int nfilter, char **filters) {
    if (nfilter == 0 || strcmp(id, "I0") == 0)
        return 1;
    for (int i = 0; i < nfilter; i++)
        if (strncmp(id, filters[i], strlen(filters[i])) == 0)
            return 1;
    return 0;
}

static pid_t start_keeper(int secs) {
    fflush(stdout);
    pid_t pid = fork();
    if (pid == 0) {
        int devnull = open("/dev/null", O_WRONLY);
        if (devnull >= 0) {
            dup2(devnull, 1);
            dup2(devnull, 2);
        }
        struct rlimit rl = {0, 0};
        setrlimit(RLIMIT_CORE, &rl);
        alarm((unsigned)secs);
        driver_resolve();
        CUdevice dev;
        CUcontext c;
        if (D.cuInit(0) == CUDA_SUCCESS && D.cuDeviceGet(&dev, 0) == CUDA_SUCCESS &&
            D.cuDevicePrimaryCtxRetain(&c, dev) == CUDA_SUCCESS)
            D.cuCtxSetCurrent(c);
        for (;;)
            pause();
    }
    return pid;
}

/* An outcome shortened for the compact tables: CUDA_SUCCESS -> OK, CUDA_ERROR_X -> X. */
static void shorten(const char *in, char *out, size_t cap) {
    size_t used = 0;
    while (*in && used + 1 < cap) {
        if (strncmp(in, "CUDA_SUCCESS", 12) == 0) {
            if (used + 3 >= cap)
                break;
            memcpy(out + used, "OK", 2);
            used += 2;
            in += 12;
        } else if (strncmp(in, "CUDA_ERROR_", 11) == 0) {
            in += 11;
        } else if (strncmp(in, "**", 2) == 0) {
            in += 2;
        } else {
            out[used++] = *in++;
        }
    }
    out[used] = '\0';
    if (*in && cap > 4)
        memcpy(out + cap - 4, "...", 4);
}

static pcase *find_case(const char *id) {
    for (int i = 0; i < g_ncases; i++)
        if (strcmp(g_cases_tab[i].id, id) == 0)
            return &g_cases_tab[i];
    return NULL;
}

static void print_compact(void) {
    static const char *const cols[6] = {"def-none", "def-foreign", "def-own",
                                        "exec-none", "exec-foreign", "exec-own"};
    printf("\n## Compact view (OK = CUDA_SUCCESS, error names without CUDA_ERROR_)\n\n"
           "A: call under test; then launch/sync of the updated (exec) or re-instantiated (def) "
           "graph.\n\n| A | def, no ctx | def, ctx B | def, ctx A | exec, no ctx | exec, ctx B | "
           "exec, ctx A |\n|---|---|---|---|---|---|---|\n");
    for (int k = 0; k < AK_COUNT; k++) {
        int any = 0;
        char row[2400];
        snprintf(row, sizeof row, "| %s |", a_kinds[k].id);
        for (int c = 0; c < 6; c++) {
            char id[40], cell[200] = "-";
            snprintf(id, sizeof id, "%s-%s", a_kinds[k].id, cols[c]);
            pcase *pc = find_case(id);
            if (pc != NULL) {
                any = 1;
                shorten(pc->outcome, cell, sizeof cell);
            }
            size_t used = strlen(row);
            snprintf(row + used, sizeof row - used, " %s |", cell);
        }
        if (any)
            printf("%s\n", row);
    }
    printf("\n");
    for (int i = 0; i < g_ncases; i++) {
        pcase *pc = &g_cases_tab[i];
        if (pc->sec == 'A' && strncmp(pc->id, "A4p", 3) != 0)
            continue;
        if (pc->sec == 'I')
            continue;
        char cell[150];
        shorten(pc->outcome, cell, sizeof cell);
        printf("- %s: %s\n", pc->id, cell);
    }
}

static void usage(const char *argv0) {
    fprintf(stderr,
            "usage: %s [-j JOBS] [-t CASE_TIMEOUT_S] [-b BUDGET_S] [-l] KERNELS.{cubin,fatbin} "
            "[CASE-ID-PREFIX...]\n",
            argv0);
}

int main(int argc, char **argv) {
    int jobs = 6, budget_s = 95, list_only = 0;
    /* Options may come anywhere; the first other argument is the kernel file, the rest are
     * case-id prefixes. */
    char **filters = calloc((size_t)argc, sizeof *filters);
    int nfilter = 0;
    if (filters == NULL)
        return 2;
    for (int argi = 1; argi < argc; argi++) {
        const char *a = argv[argi];
        if (strcmp(a, "-j") == 0 && argi + 1 < argc)
            jobs = atoi(argv[++argi]);
        else if (strcmp(a, "-t") == 0 && argi + 1 < argc)
            g_timeout_s = atoi(argv[++argi]);
        else if (strcmp(a, "-b") == 0 && argi + 1 < argc)
            budget_s = atoi(argv[++argi]);
        else if (strcmp(a, "-l") == 0)
            list_only = 1;
        else if (a[0] == '-') {
            usage(argv[0]);
            return 2;
        } else if (g_cubin == NULL)
            g_cubin = a;
        else
            filters[nfilter++] = argv[argi];
    }
    if (jobs < 1)
        jobs = 1;
    if (g_timeout_s < 1)
        g_timeout_s = 10;
    build_cases();
    if (list_only) {
        for (int i = 0; i < g_ncases; i++)
            if (matches(g_cases_tab[i].id, nfilter, filters))
                printf("%-18s %s\n", g_cases_tab[i].id, g_cases_tab[i].what);
        return 0;
    }
    if (g_cubin == NULL) {
        usage(argv[0]);
        return 2;
    }
    if (access(g_cubin, R_OK) != 0) {
        fprintf(stderr, "probe: cannot read %s\n", g_cubin);
        return 2;
    }
    g_t0 = mono_ns() / 1e9;
    signal(SIGPIPE, SIG_IGN);

    printf("# cgn driver probe\n\n");
    g_libcuda = dlopen("libcuda.so.1", RTLD_NOW | RTLD_LOCAL);
    if (g_libcuda == NULL) {
        const char *err = dlerror();
        printf("no CUDA driver: dlopen(\"libcuda.so.1\") failed (%s); nothing to probe.\n",
               err ? err : "?");
        return 0;
    }
    void *sym = dlsym(g_libcuda, "cuGetProcAddress_v2");
    memcpy(&g_get_proc, &sym, sizeof g_get_proc);
    if (g_get_proc == NULL) {
        printf("no usable CUDA driver: libcuda.so.1 has no cuGetProcAddress_v2 (driver older than "
               "12.0); nothing to probe.\n");
        return 0;
    }
    /* Only the selected cases (I0 always). */
    int kept = 0;
    for (int i = 0; i < g_ncases; i++)
        if (matches(g_cases_tab[i].id, nfilter, filters))
            g_cases_tab[kept++] = g_cases_tab[i];
    g_ncases = kept;

    printf("kernels: `%s`; %d cases; %d parallel jobs (timings and info run alone); per-case "
           "timeout %d s; start budget %d s.\n"
           "Outcome = the CUresult of the call under test (or what killed the child process); a "
           "**SIGSEGV**/**hang** names the step it happened in.\n",
           g_cubin, g_ncases, jobs, g_timeout_s, budget_s);
    fflush(stdout);

    pid_t keeper = -1;
    int running = 0, excl_running = 0, next = 0, done = 0;
    while (done < g_ncases) {
        /* Start what may start. */
        while (next < g_ncases && !excl_running && running < jobs) {
            pcase *k = &g_cases_tab[next];
            if (k->excl && running > 0)
                break;
            if (now_s() > budget_s) {
                snprintf(k->outcome, sizeof k->outcome, "skipped (time budget of %d s used up)",
                         budget_s);
                k->state = 2;
                next++;
                done++;
                continue;
            }
            if (g_nodevice) {
                snprintf(k->outcome, sizeof k->outcome, "skipped (no device)");
                k->state = 2;
                next++;
                done++;
                continue;
            }
            start_case(k);
            next++;
            if (k->state == 2) {
                done++;
                continue;
            }
            running++;
            if (k->excl)
                excl_running = 1;
        }
        /* Reap, time out. */
        for (int i = 0; i < next; i++) {
            pcase *k = &g_cases_tab[i];
            if (k->state != 1)
                continue;
            int status = 0;
            pid_t w = waitpid(k->pid, &status, WNOHANG);
            int finished = 0;
            if (w == k->pid) {
                finish_case(k, status, 1);
                finished = 1;
            } else if (!k->killed && now_s() - k->t_start > g_timeout_s + 2) {
                kill(k->pid, SIGKILL);
                k->killed = 1;
                k->t_kill = now_s();
            } else if (k->killed && now_s() - k->t_kill > 5) {
                finish_case(k, 0, 0);
                finished = 1;
            }
            if (finished) {
                running--;
                done++;
                if (k->excl)
                    excl_running = 0;
                if (strcmp(k->id, "I0") == 0) {
                    if (g_nodevice) {
                        printf("\nno CUDA device: %s\n", k->outcome);
                        return 0;
                    }
                    if (strncmp(k->outcome, "setup failed", 12) == 0 ||
                        strncmp(k->outcome, "ok", 2) != 0) {
                        g_printed = 0;
                        print_ordered(stdout);
                        printf("\nthe info case failed; not running the others.\n");
                        return 1;
                    }
                    if (g_compute_mode == 0) {
                        keeper = start_keeper(budget_s + 4 * g_timeout_s + 60);
                    } else {
                        jobs = 1;
                        printf("\ncompute mode is %d (not default): running one case at a time "
                               "and without a keeper process.\n",
                               g_compute_mode);
                    }
                }
            }
        }
        print_ordered(stdout);
        if (done < g_ncases)
            sleep_ms(2);
    }
    print_ordered(stdout);

    if (keeper > 0) {
        kill(keeper, SIGKILL);
        for (int i = 0; i < 300 && waitpid(keeper, NULL, WNOHANG) == 0; i++)
            sleep_ms(10);
    }

    /* Summary. */
    int crashes = 0, hangs = 0, setups = 0, skipped = 0;
    char crash_ids[2048] = "", hang_ids[1024] = "", setup_ids[1024] = "";
    for (int i = 0; i < g_ncases; i++) {
        pcase *k = &g_cases_tab[i];
        char *list = NULL;
        size_t cap = 0;
        if (strstr(k->outcome, "**hang**")) {
            hangs++;
            list = hang_ids;
            cap = sizeof hang_ids;
        } else if (strstr(k->outcome, "**SIG") || strstr(k->outcome, "**signal")) {
            crashes++;
            list = crash_ids;
            cap = sizeof crash_ids;
        } else if (strncmp(k->outcome, "setup failed", 12) == 0) {
            setups++;
            list = setup_ids;
            cap = sizeof setup_ids;
        } else if (strncmp(k->outcome, "skipped", 7) == 0) {
            skipped++;
        }
        if (list != NULL) {
            size_t used = strlen(list);
            snprintf(list + used, cap - used, "%s%s", used ? ", " : "", k->id);
        }
    }
    print_compact();
    printf("\n## Summary\n\n%d cases in %.1f s: %d crashed (%s), %d hung (%s), %d setup failures "
           "(%s), %d skipped.\n",
           g_ncases, now_s(), crashes, crashes ? crash_ids : "-", hangs, hangs ? hang_ids : "-",
           setups, setups ? setup_ids : "-", skipped);
    return 0;
}
