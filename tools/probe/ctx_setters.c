/* ctx_setters.c: which graph-node setters depend on, or change, the calling thread's current
 * context, and what the typed setters cost against the generic ones (issue 12: may an update
 * skip cuCtxGetCurrent, and use the typed setter?).
 *
 *   ctx_setters FATBIN CASE STATE     one correctness case, one line "CASE STATE rc ctx result"
 *   ctx_setters FATBIN time           timings (median of 7 batches of 20,000 calls)
 *
 * CASE: kdef-typed kdef-generic kexec-typed kexec-generic (CUfunction, same function, new
 * value and grid), ldef-typed lexec-typed (the same through a CUkernel), mdef-typed mdef-generic
 * mexec-typed mexec-generic (memset value), cdef-typed cexec-typed (memcpy size), hdef-typed
 * hexec-typed (host function), edef-typed eexec-typed (event record). STATE: none (no context
 * current), other (another context of the same device current), node (the node's context).
 * A case builds its node in context A (the primary context), puts STATE in place, makes the one
 * call, records its result and whether the current context is still what STATE made it, then
 * makes A current, launches and checks what the node did. Links libcuda; run.sh-free:
 *   gcc -O2 -I$CUDA/include ctx_setters.c -lcuda -o ctx_setters */
#define _POSIX_C_SOURCE 200809L
#include <cuda.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#define CK(x)                                                                                      \
    do {                                                                                           \
        CUresult r_ = (x);                                                                         \
        if (r_ != CUDA_SUCCESS) {                                                                  \
            const char *n_ = NULL;                                                                 \
            cuGetErrorName(r_, &n_);                                                               \
            printf("SETUP-FAIL %s:%d %s -> %s\n", __FILE__, __LINE__, #x, n_ ? n_ : "?");        \
            exit(3);                                                                               \
        }                                                                                          \
    } while (0)

static CUcontext ctx_a, ctx_b;
static CUmodule mod;
static CUfunction fill;
static CUkernel fill_kernel;
static CUdeviceptr buf, src;
static unsigned host_seen;

static void host_fn_1(void *p) { (void)p; host_seen = 1; }
static void host_fn_2(void *p) { (void)p; host_seen = 2; }

static void set_state(const char *state) {
    if (strcmp(state, "none") == 0) {
        CUcontext c;
        while (cuCtxPopCurrent(&c) == CUDA_SUCCESS) {
        }
        CK(cuCtxSetCurrent(NULL));
    } else if (strcmp(state, "other") == 0 || strcmp(state, "gone") == 0) {
        CK(cuCtxSetCurrent(ctx_b));
    } else {
        CK(cuCtxSetCurrent(ctx_a));
    }
}

static CUcontext expected_ctx(const char *state) {
    return strcmp(state, "none") == 0                                  ? NULL
           : strcmp(state, "other") == 0 || strcmp(state, "gone") == 0 ? ctx_b
                                                                        : ctx_a;
}

static unsigned read_buf(void) {
    unsigned v = 0;
    CK(cuMemcpyDtoH(&v, buf, 4));
    return v;
}

static void launch(CUgraphExec e) {
    CK(cuCtxSetCurrent(ctx_a));
    CK(cuGraphLaunch(e, NULL));
    CK(cuStreamSynchronize(NULL));
}

static CUDA_KERNEL_NODE_PARAMS kparams(unsigned *value, void **args, int use_kernel) {
    CUDA_KERNEL_NODE_PARAMS p;
    memset(&p, 0, sizeof p);
    if (use_kernel)
        p.kern = fill_kernel;
    else
        p.func = fill;
    p.gridDimX = p.gridDimY = p.gridDimZ = 1;
    p.blockDimX = p.blockDimY = p.blockDimZ = 1;
    args[0] = &buf;
    args[1] = value;
    p.kernelParams = args;
    p.ctx = ctx_a;
    return p;
}

static CUDA_MEMSET_NODE_PARAMS mparams(unsigned value) {
    CUDA_MEMSET_NODE_PARAMS p;
    memset(&p, 0, sizeof p);
    p.dst = buf;
    p.value = value;
    p.elementSize = 4;
    p.width = 1;
    p.height = 1;
    return p;
}

static CUDA_MEMCPY3D cparams(size_t bytes) {
    CUDA_MEMCPY3D p;
    memset(&p, 0, sizeof p);
    p.srcMemoryType = CU_MEMORYTYPE_DEVICE;
    p.srcDevice = src;
    p.dstMemoryType = CU_MEMORYTYPE_DEVICE;
    p.dstDevice = buf;
    p.WidthInBytes = bytes;
    p.Height = 1;
    p.Depth = 1;
    return p;
}

/* One case: returns the driver's result of the call under test; *ok says what the launch did. */
static CUresult run_case(const char *c, const char *state, int *ok) {
    CUgraph g;
    CUgraphNode n;
    CUgraphExec e;
    CUresult r = CUDA_ERROR_UNKNOWN;
    unsigned v1 = 1, v2 = 2;
    void *a1[2], *a2[2];
    int use_kernel = c[0] == 'l';
    CK(cuCtxSetCurrent(ctx_a));
    CK(cuMemsetD32(buf, 0, 16));
    CK(cuGraphCreate(&g, 0));
    int exec_level = strstr(c, "exec") != NULL;
    int generic = strstr(c, "generic") != NULL;
    switch (c[0]) {
    case 'k':
    case 'l': {
        CUDA_KERNEL_NODE_PARAMS p = kparams(&v1, a1, use_kernel);
        CK(cuGraphAddKernelNode(&n, g, NULL, 0, &p));
        if (exec_level)
            CK(cuGraphInstantiate(&e, g, 0));
        CUDA_KERNEL_NODE_PARAMS q = kparams(&v2, a2, use_kernel);
        q.gridDimX = 2; /* both blocks write the same value */
        set_state(state);
        if (generic) {
            CUgraphNodeParams gp;
            memset(&gp, 0, sizeof gp);
            gp.type = CU_GRAPH_NODE_TYPE_KERNEL;
            gp.kernel.func = q.func;
            gp.kernel.kern = q.kern;
            gp.kernel.gridDimX = q.gridDimX;
            gp.kernel.gridDimY = gp.kernel.gridDimZ = 1;
            gp.kernel.blockDimX = gp.kernel.blockDimY = gp.kernel.blockDimZ = 1;
            gp.kernel.kernelParams = a2;
            gp.kernel.ctx = ctx_a;
            r = exec_level ? cuGraphExecNodeSetParams(e, n, &gp) : cuGraphNodeSetParams(n, &gp);
        } else {
            r = exec_level ? cuGraphExecKernelNodeSetParams(e, n, &q)
                           : cuGraphKernelNodeSetParams(n, &q);
        }
        break;
    }
    case 'm': {
        CUDA_MEMSET_NODE_PARAMS p = mparams(5);
        CK(cuGraphAddMemsetNode(&n, g, NULL, 0, &p, ctx_a));
        if (exec_level)
            CK(cuGraphInstantiate(&e, g, 0));
        CUDA_MEMSET_NODE_PARAMS q = mparams(2);
        set_state(state);
        if (generic) {
            CUgraphNodeParams gp;
            memset(&gp, 0, sizeof gp);
            gp.type = CU_GRAPH_NODE_TYPE_MEMSET;
            gp.memset.dst = q.dst;
            gp.memset.value = q.value;
            gp.memset.elementSize = q.elementSize;
            gp.memset.width = q.width;
            gp.memset.height = q.height;
            gp.memset.ctx = ctx_a;
            r = exec_level ? cuGraphExecNodeSetParams(e, n, &gp) : cuGraphNodeSetParams(n, &gp);
        } else {
            r = exec_level ? cuGraphExecMemsetNodeSetParams(e, n, &q, ctx_a)
                           : cuGraphMemsetNodeSetParams(n, &q);
        }
        break;
    }
    case 'c': {
        CK(cuMemsetD32(src, 2, 16));
        CUDA_MEMCPY3D p = cparams(16);
        CK(cuGraphAddMemcpyNode(&n, g, NULL, 0, &p, ctx_a));
        if (exec_level)
            CK(cuGraphInstantiate(&e, g, 0));
        CUDA_MEMCPY3D q = cparams(4);
        set_state(state);
        if (generic) {
            CUgraphNodeParams gp;
            memset(&gp, 0, sizeof gp);
            gp.type = CU_GRAPH_NODE_TYPE_MEMCPY;
            gp.memcpy.copyParams = q;
            gp.memcpy.copyCtx = ctx_a;
            r = exec_level ? cuGraphExecNodeSetParams(e, n, &gp) : cuGraphNodeSetParams(n, &gp);
        } else {
            r = exec_level ? cuGraphExecMemcpyNodeSetParams(e, n, &q, ctx_a)
                           : cuGraphMemcpyNodeSetParams(n, &q);
        }
        break;
    }
    case 'h': {
        CUDA_HOST_NODE_PARAMS p = {host_fn_1, NULL};
        CK(cuGraphAddHostNode(&n, g, NULL, 0, &p));
        if (exec_level)
            CK(cuGraphInstantiate(&e, g, 0));
        CUDA_HOST_NODE_PARAMS q = {host_fn_2, NULL};
        set_state(state);
        r = exec_level ? cuGraphExecHostNodeSetParams(e, n, &q) : cuGraphHostNodeSetParams(n, &q);
        break;
    }
    case 'w': {
        CUevent ev1, ev2;
        CK(cuEventCreate(&ev1, 0));
        CK(cuEventCreate(&ev2, 0));
        CK(cuGraphAddEventWaitNode(&n, g, NULL, 0, ev1));
        if (exec_level)
            CK(cuGraphInstantiate(&e, g, 0));
        set_state(state);
        r = exec_level ? cuGraphExecEventWaitNodeSetEvent(e, n, ev2)
                       : cuGraphEventWaitNodeSetEvent(n, ev2);
        CUcontext now = (CUcontext)1;
        cuCtxGetCurrent(&now);
        *ok = now == expected_ctx(state) ? 1 : -1;
        if (strcmp(state, "gone") == 0)
            CK(cuCtxDestroy(ctx_b));
        CK(cuCtxSetCurrent(ctx_a));
        if (!exec_level)
            CK(cuGraphInstantiate(&e, g, 0));
        CK(cuGraphLaunch(e, NULL));
        *ok = *ok > 0 && cuStreamSynchronize(NULL) == CUDA_SUCCESS ? 1 : 0;
        return r;
    }
    case 'e': {
        CUevent ev1, ev2;
        CK(cuEventCreate(&ev1, 0));
        CK(cuEventCreate(&ev2, 0));
        CK(cuGraphAddEventRecordNode(&n, g, NULL, 0, ev1));
        if (exec_level)
            CK(cuGraphInstantiate(&e, g, 0));
        set_state(state);
        r = exec_level ? cuGraphExecEventRecordNodeSetEvent(e, n, ev2)
                       : cuGraphEventRecordNodeSetEvent(n, ev2);
        CUcontext now = (CUcontext)1;
        cuCtxGetCurrent(&now);
        *ok = now == expected_ctx(state) ? 1 : -1;
        if (strcmp(state, "gone") == 0)
            CK(cuCtxDestroy(ctx_b));
        CK(cuCtxSetCurrent(ctx_a));
        if (!exec_level)
            CK(cuGraphInstantiate(&e, g, 0));
        launch(e);
        /* the new event was recorded: it completes (an unrecorded event also reports success,
         * so this only checks that the launch works) */
        CUresult q = cuEventQuery(ev2);
        *ok = *ok > 0 && q == CUDA_SUCCESS ? 1 : 0;
        return r;
    }
    default:
        printf("unknown case %s\n", c);
        exit(2);
    }
    CUcontext now = (CUcontext)1;
    cuCtxGetCurrent(&now);
    int ctx_kept = now == expected_ctx(state);
    if (strcmp(state, "gone") == 0) /* a node bound to the caller's context would fail now */
        CK(cuCtxDestroy(ctx_b));
    CK(cuCtxSetCurrent(ctx_a));
    if (!exec_level && r == CUDA_SUCCESS)
        CK(cuGraphInstantiate(&e, g, 0));
    else if (!exec_level)
        CK(cuGraphInstantiate(&e, g, 0));
    host_seen = 0;
    launch(e);
    unsigned got = c[0] == 'h' ? host_seen : read_buf();
    *ok = ctx_kept ? (got == 2 ? 1 : 0) : -1;
    if (*ok == 0)
        printf("# %s %s: launch saw %u (wanted 2)\n", c, state, got);
    return r;
}

static double now_ns(void) {
    struct timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    return t.tv_sec * 1e9 + t.tv_nsec;
}

static int cmp_d(const void *a, const void *b) {
    double x = *(const double *)a, y = *(const double *)b;
    return x < y ? -1 : x > y;
}

#define BATCHES 7
#define CALLS 20000
#define TIME(label, stmt)                                                                          \
    do {                                                                                           \
        double t[BATCHES];                                                                         \
        for (int b_ = 0; b_ < BATCHES; b_++) {                                                     \
            double t0 = now_ns();                                                                  \
            for (int i = 0; i < CALLS; i++) {                                                      \
                stmt;                                                                              \
            }                                                                                      \
            t[b_] = (now_ns() - t0) / CALLS;                                                       \
        }                                                                                          \
        qsort(t, BATCHES, sizeof t[0], cmp_d);                                                     \
        printf("TIME %-58s %8.1f ns\n", label, t[BATCHES / 2]);                                    \
    } while (0)

static void timings(void) {
    CK(cuCtxSetCurrent(ctx_a));
    CUgraph g;
    CUgraphNode kn, mn, hn, en;
    CUgraphExec e;
    unsigned v[2] = {1, 2};
    void *a[2][2];
    CK(cuGraphCreate(&g, 0));
    CUDA_KERNEL_NODE_PARAMS kp[2] = {kparams(&v[0], a[0], 0), kparams(&v[1], a[1], 0)};
    CK(cuGraphAddKernelNode(&kn, g, NULL, 0, &kp[0]));
    CUDA_MEMSET_NODE_PARAMS mp[2] = {mparams(1), mparams(2)};
    CK(cuGraphAddMemsetNode(&mn, g, NULL, 0, &mp[0], ctx_a));
    CUDA_HOST_NODE_PARAMS hp[2] = {{host_fn_1, NULL}, {host_fn_2, NULL}};
    CK(cuGraphAddHostNode(&hn, g, NULL, 0, &hp[0]));
    CUevent ev[2];
    CK(cuEventCreate(&ev[0], 0));
    CK(cuEventCreate(&ev[1], 0));
    CK(cuGraphAddEventRecordNode(&en, g, NULL, 0, ev[0]));
    CK(cuGraphInstantiate(&e, g, 0));
    CUgraphNodeParams gk[2], gm[2], gh[2], ge[2];
    for (int i = 0; i < 2; i++) {
        memset(&gk[i], 0, sizeof gk[i]);
        gk[i].type = CU_GRAPH_NODE_TYPE_KERNEL;
        gk[i].kernel.func = fill;
        gk[i].kernel.gridDimX = (unsigned)i + 1;
        gk[i].kernel.gridDimY = gk[i].kernel.gridDimZ = 1;
        gk[i].kernel.blockDimX = gk[i].kernel.blockDimY = gk[i].kernel.blockDimZ = 1;
        gk[i].kernel.kernelParams = a[i];
        gk[i].kernel.ctx = ctx_a;
        memset(&gm[i], 0, sizeof gm[i]);
        gm[i].type = CU_GRAPH_NODE_TYPE_MEMSET;
        gm[i].memset.dst = buf;
        gm[i].memset.value = (unsigned)i;
        gm[i].memset.elementSize = 4;
        gm[i].memset.width = gm[i].memset.height = 1;
        gm[i].memset.ctx = ctx_a;
        memset(&gh[i], 0, sizeof gh[i]);
        gh[i].type = CU_GRAPH_NODE_TYPE_HOST;
        gh[i].host.fn = i ? host_fn_2 : host_fn_1;
        memset(&ge[i], 0, sizeof ge[i]);
        ge[i].type = CU_GRAPH_NODE_TYPE_EVENT_RECORD;
        ge[i].eventRecord.event = ev[i];
        kp[i].gridDimX = (unsigned)i + 1;
    }
    CUcontext cur;
    for (int round = 0; round < 2; round++) {
        printf("# round %d\n", round);
        TIME("cuCtxGetCurrent", cuCtxGetCurrent(&cur));
        TIME("kernel def: cuGraphNodeSetParams (grid)", cuGraphNodeSetParams(kn, &gk[i & 1]));
        TIME("kernel def: cuGraphKernelNodeSetParams (grid)",
             cuGraphKernelNodeSetParams(kn, &kp[i & 1]));
        TIME("kernel exec: cuGraphExecNodeSetParams (grid)",
             cuGraphExecNodeSetParams(e, kn, &gk[i & 1]));
        TIME("kernel exec: cuGraphExecKernelNodeSetParams (grid)",
             cuGraphExecKernelNodeSetParams(e, kn, &kp[i & 1]));
        TIME("memset def: cuGraphNodeSetParams", cuGraphNodeSetParams(mn, &gm[i & 1]));
        TIME("memset def: cuGraphMemsetNodeSetParams", cuGraphMemsetNodeSetParams(mn, &mp[i & 1]));
        TIME("memset exec: cuGraphExecNodeSetParams", cuGraphExecNodeSetParams(e, mn, &gm[i & 1]));
        TIME("memset exec: cuGraphExecMemsetNodeSetParams",
             cuGraphExecMemsetNodeSetParams(e, mn, &mp[i & 1], ctx_a));
        TIME("host def: cuGraphNodeSetParams", cuGraphNodeSetParams(hn, &gh[i & 1]));
        TIME("host def: cuGraphHostNodeSetParams", cuGraphHostNodeSetParams(hn, &hp[i & 1]));
        TIME("host exec: cuGraphExecNodeSetParams", cuGraphExecNodeSetParams(e, hn, &gh[i & 1]));
        TIME("host exec: cuGraphExecHostNodeSetParams",
             cuGraphExecHostNodeSetParams(e, hn, &hp[i & 1]));
        TIME("event def: cuGraphNodeSetParams", cuGraphNodeSetParams(en, &ge[i & 1]));
        TIME("event def: cuGraphEventRecordNodeSetEvent", cuGraphEventRecordNodeSetEvent(en, ev[i & 1]));
        TIME("event exec: cuGraphExecNodeSetParams", cuGraphExecNodeSetParams(e, en, &ge[i & 1]));
        TIME("event exec: cuGraphExecEventRecordNodeSetEvent",
             cuGraphExecEventRecordNodeSetEvent(e, en, ev[i & 1]));
        /* No CUfunction kernel update with no context current: the driver crashes (case
         * kdef-typed none). */
    }
}

int main(int argc, char **argv) {
    if (argc < 3) {
        fprintf(stderr, "usage: %s FATBIN CASE STATE | FATBIN time\n", argv[0]);
        return 2;
    }
    setvbuf(stdout, NULL, _IOLBF, 0);
    CK(cuInit(0));
    CUdevice dev;
    CK(cuDeviceGet(&dev, 0));
    CK(cuDevicePrimaryCtxRetain(&ctx_a, dev));
    CK(cuCtxCreate(&ctx_b, NULL, 0, dev));
    CK(cuCtxSetCurrent(ctx_a));
    CK(cuModuleLoad(&mod, argv[1]));
    CK(cuModuleGetFunction(&fill, mod, "fill_u32"));
    CUlibrary lib;
    CK(cuLibraryLoadFromFile(&lib, argv[1], NULL, NULL, 0, NULL, NULL, 0));
    CK(cuLibraryGetKernel(&fill_kernel, lib, "fill_u32"));
    CK(cuMemAlloc(&buf, 64));
    CK(cuMemAlloc(&src, 64));
    if (strcmp(argv[2], "time") == 0) {
        timings();
        return 0;
    }
    if (argc < 4)
        return 2;
    int ok = 0;
    CUresult r = run_case(argv[2], argv[3], &ok);
    const char *name = NULL;
    cuGetErrorName(r, &name);
    printf("CASE %-14s %-6s %-26s %s\n", argv[2], argv[3], name ? name : "?",
           ok > 0 ? "ok" : ok < 0 ? "CONTEXT-CHANGED" : "WRONG-RESULT");
    return 0;
}
