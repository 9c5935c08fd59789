/* Self-test of the fake driver, through its table only (plus the cgn_fake_* hooks), so that
 * cgn's tests can trust what it models. Exits nonzero when any check fails. */
#include "fake_driver.h"

#include <stdint.h>
#include <stdio.h>
#include <string.h>

static int failures;

#define CHECK(cond)                                                                                \
    do {                                                                                           \
        if (!(cond)) {                                                                             \
            fprintf(stderr, "%s:%d: check failed: %s\n", __FILE__, __LINE__, #cond);               \
            failures++;                                                                            \
        }                                                                                          \
    } while (0)

/* A driver call and the CUresult it must return. */
#define CHECK_CU(call, expected)                                                                   \
    do {                                                                                           \
        CUresult r_ = (call);                                                                      \
        if (r_ != (expected)) {                                                                    \
            fprintf(stderr, "%s:%d: %s returned %d, expected %d\n", __FILE__, __LINE__, #call,     \
                    (int)r_, (int)(expected));                                                     \
            failures++;                                                                            \
        }                                                                                          \
    } while (0)

#define OK CUDA_SUCCESS
#define BAD CUDA_ERROR_INVALID_VALUE

static const cgn_driver_table *T;

/* ---- helpers --------------------------------------------------------------------------------- */

static void begin(void)
{
    cgn_fake_reset();
    T = cgn_fake_table();
}

/* Host nodes append their tag to a log, so tests see the order nodes ran in. */
static char order_log[64];
static size_t order_len;

static void log_tag(void *tag)
{
    if (order_len + 1 < sizeof order_log)
        order_log[order_len++] = *(const char *)tag;
    order_log[order_len] = '\0';
}

static void clear_log(void)
{
    order_len = 0;
    order_log[0] = '\0';
}

static CUgraphNode add_host(CUgraph g, const CUgraphNode *deps, size_t nd, const char *tag)
{
    CUDA_HOST_NODE_PARAMS_v1 h = {log_tag, (void *)(uintptr_t)tag};
    CUgraphNode n = NULL;
    CHECK_CU(T->cuGraphAddHostNode(&n, g, deps, nd, &h), OK);
    return n;
}

static CUDA_MEMSET_NODE_PARAMS_v1 memset_params(void *dst, unsigned value, unsigned size,
                                                size_t width)
{
    CUDA_MEMSET_NODE_PARAMS_v1 m;
    memset(&m, 0, sizeof m);
    m.dst = (CUdeviceptr)(uintptr_t)dst;
    m.value = value;
    m.elementSize = size;
    m.width = width;
    m.height = 1;
    return m;
}

static CUgraphNodeParams memset_update(void *dst, unsigned value, CUcontext ctx)
{
    CUgraphNodeParams p;
    memset(&p, 0, sizeof p);
    p.type = CU_GRAPH_NODE_TYPE_MEMSET;
    p.memset.dst = (CUdeviceptr)(uintptr_t)dst;
    p.memset.value = value;
    p.memset.elementSize = 1;
    p.memset.width = 4;
    p.memset.height = 1;
    p.memset.ctx = ctx;
    return p;
}

static void run_once(CUgraph g)
{
    CUgraphExec e = NULL;
    CHECK_CU(T->cuGraphInstantiateWithFlags(&e, g, 0), OK);
    CHECK_CU(T->cuGraphLaunch(e, NULL), OK);
    CHECK_CU(T->cuGraphExecDestroy(e), OK);
}

/* Kernels: add_one(int *p) adds 1 to *p; fill(unsigned *out, unsigned v) writes v to *out;
 * config(unsigned *out) writes grid, block and shared memory size. */
static void add_one(void **args, const CUDA_KERNEL_NODE_PARAMS_v2 *launch, void *user)
{
    (void)launch;
    (void)user;
    int *p;
    memcpy(&p, args[0], sizeof p);
    (*p)++;
}

static void fill(void **args, const CUDA_KERNEL_NODE_PARAMS_v2 *launch, void *user)
{
    (void)launch;
    (void)user;
    unsigned *out;
    unsigned v;
    memcpy(&out, args[0], sizeof out);
    memcpy(&v, args[1], sizeof v);
    *out = v;
}

static void config(void **args, const CUDA_KERNEL_NODE_PARAMS_v2 *launch, void *user)
{
    unsigned *out;
    memcpy(&out, args[0], sizeof out);
    out[0] = launch->gridDimX;
    out[1] = launch->gridDimY;
    out[2] = launch->gridDimZ;
    out[3] = launch->blockDimX;
    out[4] = launch->blockDimY;
    out[5] = launch->blockDimZ;
    out[6] = launch->sharedMemBytes;
    *(int *)user += 1;
}

static CUDA_KERNEL_NODE_PARAMS_v2 kernel_params(CUfunction f, CUkernel k, void **args)
{
    CUDA_KERNEL_NODE_PARAMS_v2 p;
    memset(&p, 0, sizeof p);
    p.func = f;
    p.kern = k;
    p.gridDimX = p.gridDimY = p.gridDimZ = 1;
    p.blockDimX = p.blockDimY = p.blockDimZ = 1;
    p.kernelParams = args;
    return p;
}

/* User object destructor: counts runs and whether it ran "on the CUDA thread". */
static int destroyed, destroyed_in_callback;

static void count_destroy(void *p)
{
    (void)p;
    destroyed++;
    destroyed_in_callback += cgn_fake_in_driver_callback();
}

/* ---- tests ----------------------------------------------------------------------------------- */

static void test_table_and_version(void)
{
    begin();
    int v = 0;
    CHECK(T->version == 13000);
    CHECK_CU(T->cuDriverGetVersion(&v), OK);
    CHECK(v == 13000);
#define CHECK_PRESENT(name, abi, need, params, args) CHECK(T->name != NULL);
    CGN_DRIVER_ENTRIES(CHECK_PRESENT)
#undef CHECK_PRESENT

    static const int versions[] = {12000, 12010, 12020, 12030, 12040};
    for (size_t i = 0; i < sizeof versions / sizeof versions[0]; i++) {
        cgn_fake_set_version(versions[i]);
        T = cgn_fake_table();
        CHECK(T->version == versions[i]);
        CHECK_CU(T->cuDriverGetVersion(&v), OK);
        CHECK(v == versions[i]);
#define CHECK_GATED(name, abi, need, params, args)                                                 \
    CHECK((T->name != NULL) == ((abi) <= versions[i]));
        CGN_DRIVER_ENTRIES(CHECK_GATED)
#undef CHECK_GATED
    }
    cgn_fake_set_version(12010);
    T = cgn_fake_table();
    CHECK(T->cuGraphNodeSetParams == NULL);
    CHECK(T->cuGraphAddKernelNode != NULL);

    cgn_fake_reset();
    CHECK(T->version == 13000 && T->cuGraphNodeSetParams != NULL); /* same table, rewritten */

    const char *name = NULL;
    CHECK_CU(T->cuInit(0), OK);
    CHECK_CU(T->cuGetErrorName(CUDA_ERROR_INVALID_VALUE, &name), OK);
    CHECK(name && strcmp(name, "CUDA_ERROR_INVALID_VALUE") == 0);
    CHECK_CU(T->cuGetErrorName((CUresult)12345, &name), OK);
    CHECK(name && strcmp(name, "CUDA_ERROR_UNKNOWN") == 0);
}

static void test_contexts(void)
{
    begin();
    CUcontext c = NULL, c0 = cgn_fake_context(0), c1 = cgn_fake_context(1);
    CHECK(c0 && c1 && c0 != c1 && cgn_fake_context(2) != cgn_fake_context(3));
    CHECK(cgn_fake_context(4) == NULL);
    CHECK_CU(T->cuCtxGetCurrent(&c), OK);
    CHECK(c == c0);
    CHECK_CU(T->cuCtxPushCurrent(c1), OK);
    CHECK_CU(T->cuCtxGetCurrent(&c), OK);
    CHECK(c == c1);
    CHECK_CU(T->cuCtxPopCurrent(&c), OK);
    CHECK(c == c1);
    CHECK_CU(T->cuCtxGetCurrent(&c), OK);
    CHECK(c == c0);
    CHECK(T->cuCtxPushCurrent(NULL) != OK);
    cgn_fake_set_current_context(NULL);
    CHECK_CU(T->cuCtxGetCurrent(&c), OK);
    CHECK(c == NULL);

    /* With no current context, a memset node needs an explicit one. */
    CUgraph g = NULL;
    CUgraphNode n = NULL;
    unsigned char buf[4];
    CUDA_MEMSET_NODE_PARAMS_v1 m = memset_params(buf, 1, 1, 4);
    CHECK_CU(T->cuGraphCreate(&g, 0), OK);
    CHECK_CU(T->cuGraphAddMemsetNode(&n, g, NULL, 0, &m, NULL), CUDA_ERROR_INVALID_CONTEXT);
    CHECK_CU(T->cuGraphAddMemsetNode(&n, g, NULL, 0, &m, cgn_fake_context(2)), OK);
    CHECK(cgn_fake_node_context(n) == cgn_fake_context(2));
    CHECK_CU(T->cuGraphDestroy(g), OK);
}

static void test_kernel_registry(void)
{
    begin();
    static const size_t sizes[] = {8, 4, 4, 8, 12, 1, 2};
    static const size_t offsets[] = {0, 8, 12, 16, 24, 36, 38};
    CUfunction f = cgn_fake_register_kernel("mixed", 7, sizes, NULL, NULL);
    CUkernel k = cgn_fake_kernel_of(f);
    CHECK(f != NULL && k != NULL);
    for (size_t i = 0; i < 7; i++) {
        size_t off = 99, size = 99;
        CHECK_CU(T->cuFuncGetParamInfo(f, i, &off, &size), OK);
        CHECK(off == offsets[i] && size == sizes[i]);
        off = size = 99;
        CHECK_CU(T->cuKernelGetParamInfo(k, i, &off, &size), OK);
        CHECK(off == offsets[i] && size == sizes[i]);
    }
    size_t off, size;
    CHECK_CU(T->cuFuncGetParamInfo(f, 7, &off, &size), BAD);
    CHECK_CU(T->cuKernelGetParamInfo(k, 7, &off, &size), BAD);
    const char *name = NULL;
    CHECK_CU(T->cuFuncGetName(&name, f), OK);
    CHECK(name && strcmp(name, "mixed") == 0);
    name = NULL;
    CHECK_CU(T->cuKernelGetName(&name, k), OK);
    CHECK(name && strcmp(name, "mixed") == 0);
    /* A CUkernel is not a CUfunction, and unknown handles are refused. */
    CHECK_CU(T->cuFuncGetName(&name, (CUfunction)k), CUDA_ERROR_INVALID_HANDLE);
    CHECK_CU(T->cuKernelGetParamInfo((CUkernel)f, 0, &off, &size), CUDA_ERROR_INVALID_HANDLE);
    CUfunction none = cgn_fake_register_kernel("none", 0, NULL, NULL, NULL);
    CHECK(none != NULL);
    CHECK_CU(T->cuFuncGetParamInfo(none, 0, &off, &size), BAD);
}

/* Memsets, a memcpy, kernels and host nodes run in dependency order on the host. */
static void test_launch(void)
{
    begin();
    static const size_t sizes[] = {sizeof(void *), 4};
    CUfunction fill_f = cgn_fake_register_kernel("fill", 2, sizes, fill, NULL);
    unsigned char a[8] = {0}, b[8] = {0};
    uint16_t wide[6] = {0};
    unsigned out = 0;
    CUgraph g = NULL;
    CUgraphNode set_a = NULL, copy = NULL, set_wide = NULL, kern = NULL;
    CHECK_CU(T->cuGraphCreate(&g, 0), OK);

    CUgraphNode first = add_host(g, NULL, 0, "1");
    CUDA_MEMSET_NODE_PARAMS_v1 m = memset_params(a, 0x5a, 1, 8);
    CHECK_CU(T->cuGraphAddMemsetNode(&set_a, g, &first, 1, &m, cgn_fake_context(0)), OK);

    CUDA_MEMCPY3D c;
    memset(&c, 0, sizeof c);
    c.srcMemoryType = CU_MEMORYTYPE_DEVICE;
    c.srcDevice = (CUdeviceptr)(uintptr_t)(a + 2);
    c.dstMemoryType = CU_MEMORYTYPE_HOST;
    c.dstHost = b;
    c.WidthInBytes = 4;
    c.Height = c.Depth = 1;
    /* A device operand must be memory the driver knows, a host operand must not be device
     * memory: a copy typed by the wrong kind of memory is refused. */
    CHECK_CU(T->cuGraphAddMemcpyNode(&copy, g, &set_a, 1, &c, cgn_fake_context(1)), BAD);
    cgn_fake_mark_device_memory(a, sizeof a);
    CUDA_MEMCPY3D wrong = c;
    wrong.dstMemoryType = CU_MEMORYTYPE_HOST;
    wrong.dstHost = a;
    CHECK_CU(T->cuGraphAddMemcpyNode(&copy, g, &set_a, 1, &wrong, cgn_fake_context(1)), BAD);
    CHECK_CU(T->cuGraphAddMemcpyNode(&copy, g, &set_a, 1, &c, cgn_fake_context(1)), OK);
    CHECK(cgn_fake_node_context(copy) == cgn_fake_context(1));

    /* 2 rows of 2 uint16_t elements, 3 elements apart. */
    CUDA_MEMSET_NODE_PARAMS_v1 w = memset_params(wide, 0xbeef, 2, 2);
    w.height = 2;
    w.pitch = 3 * sizeof(uint16_t);
    CHECK_CU(T->cuGraphAddMemsetNode(&set_wide, g, NULL, 0, &w, NULL), OK);

    unsigned *outp = &out;
    unsigned value = 77;
    void *args[] = {&outp, &value};
    CUDA_KERNEL_NODE_PARAMS_v2 k = kernel_params(fill_f, NULL, args);
    CHECK_CU(T->cuGraphAddKernelNode(&kern, g, &copy, 1, &k), OK);
    value = 5; /* the node keeps the value it was given */
    CUgraphNode deps[] = {kern, set_wide};
    add_host(g, deps, 2, "2");
    CHECK(cgn_fake_graph_node_count(g) == 6);

    clear_log();
    CUgraphExec e = NULL;
    CHECK_CU(T->cuGraphInstantiateWithFlags(&e, g, 0), OK);
    CHECK_CU(T->cuGraphLaunch(e, NULL), OK);
    CHECK(strcmp(order_log, "12") == 0);
    CHECK(a[0] == 0x5a && a[7] == 0x5a);
    CHECK(b[0] == 0x5a && b[3] == 0x5a && b[4] == 0);
    CHECK(wide[0] == 0xbeef && wide[1] == 0xbeef && wide[2] == 0);
    CHECK(wide[3] == 0xbeef && wide[4] == 0xbeef && wide[5] == 0);
    CHECK(out == 77);
    CHECK_CU(T->cuGraphLaunch(e, NULL), OK);
    CHECK(cgn_fake_exec_launches(e) == 2);

    /* The stored copies are what kernelParams reports. */
    CUgraphNodeParams p;
    CHECK(cgn_fake_node_params(kern, &p) == 1);
    CHECK(p.type == CU_GRAPH_NODE_TYPE_KERNEL && p.kernel.kernelParams != args);
    CHECK(*(unsigned *)p.kernel.kernelParams[1] == 77);

    CHECK_CU(T->cuGraphExecDestroy(e), OK);
    CHECK_CU(T->cuGraphLaunch(e, NULL), BAD);
    CHECK_CU(T->cuGraphDestroy(g), OK);
    CHECK_CU(T->cuGraphDestroy(g), BAD);
    CHECK(cgn_fake_live_objects() == 0);
}

static void test_validation(void)
{
    begin();
    static const size_t sizes[] = {sizeof(void *)};
    CUfunction f = cgn_fake_register_kernel("add_one", 1, sizes, add_one, NULL);
    unsigned char buf[16];
    int x = 0;
    int *xp = &x;
    void *args[] = {&xp};
    void *extra[] = {NULL};
    CUgraph g = NULL, other = NULL;
    CUgraphNode n = NULL, foreign = NULL;
    CHECK_CU(T->cuGraphCreate(&g, 0), OK);
    CHECK_CU(T->cuGraphCreate(&other, 0), OK);
    CHECK_CU(T->cuGraphAddEmptyNode(&foreign, other, NULL, 0), OK);

    CUDA_MEMSET_NODE_PARAMS_v1 m = memset_params(buf, 1, 3, 4);
    CHECK_CU(T->cuGraphAddMemsetNode(&n, g, NULL, 0, &m, NULL), BAD);
    m = memset_params(buf, 1, 1, 0);
    CHECK_CU(T->cuGraphAddMemsetNode(&n, g, NULL, 0, &m, NULL), BAD);
    m = memset_params(buf, 1, 1, 4);
    m.height = 0;
    CHECK_CU(T->cuGraphAddMemsetNode(&n, g, NULL, 0, &m, NULL), BAD);

    CUDA_KERNEL_NODE_PARAMS_v2 k = kernel_params(f, NULL, args);
    k.extra = extra;
    CHECK_CU(T->cuGraphAddKernelNode(&n, g, NULL, 0, &k), BAD);
    k = kernel_params(NULL, NULL, args);
    CHECK_CU(T->cuGraphAddKernelNode(&n, g, NULL, 0, &k), BAD);
    k = kernel_params((CUfunction)buf, NULL, args);
    CHECK(T->cuGraphAddKernelNode(&n, g, NULL, 0, &k) != OK);
    k = kernel_params(f, NULL, NULL);
    CHECK_CU(T->cuGraphAddKernelNode(&n, g, NULL, 0, &k), BAD);

    /* Dependencies: only distinct nodes of the same graph. */
    CHECK_CU(T->cuGraphAddEmptyNode(&n, g, &foreign, 1), BAD);
    CUgraphNode e1 = NULL;
    CHECK_CU(T->cuGraphAddEmptyNode(&e1, g, NULL, 0), OK);
    CUgraphNode twice[] = {e1, e1};
    CHECK_CU(T->cuGraphAddEmptyNode(&n, g, twice, 2), BAD);

    CUDA_HOST_NODE_PARAMS_v1 h = {NULL, NULL};
    CHECK_CU(T->cuGraphAddHostNode(&n, g, NULL, 0, &h), BAD);
    CHECK_CU(T->cuGraphAddEventRecordNode(&n, g, NULL, 0, (CUevent)buf), BAD);
    CHECK_CU(T->cuGraphAddChildGraphNode(&n, g, NULL, 0, (CUgraph)buf), BAD);
    CHECK(cgn_fake_graph_node_count(g) == 1); /* failed adds left nothing behind */

    /* Stale and foreign handles are errors, not crashes. */
    CHECK_CU(T->cuGraphDestroyNode(foreign), OK);
    CHECK_CU(T->cuGraphDestroyNode(foreign), BAD);
    CHECK_CU(T->cuGraphAddEmptyNode(&n, (CUgraph)buf, NULL, 0), BAD);
    CHECK_CU(T->cuGraphDestroy(g), OK);
    CHECK_CU(T->cuGraphDestroy(other), OK);
    CHECK_CU(T->cuGraphAddEmptyNode(&n, g, NULL, 0), BAD);
}

/* Definition updates leave executables alone; executable updates leave the definition alone. */
static void test_set_params(void)
{
    begin();
    unsigned char a[4] = {0}, b[4] = {0};
    CUgraph g = NULL;
    CUgraphNode n = NULL, empty = NULL;
    CUgraphExec e = NULL;
    CHECK_CU(T->cuGraphCreate(&g, 0), OK);
    CUDA_MEMSET_NODE_PARAMS_v1 m = memset_params(a, 1, 1, 4);
    CHECK_CU(T->cuGraphAddMemsetNode(&n, g, NULL, 0, &m, cgn_fake_context(0)), OK);
    CHECK_CU(T->cuGraphAddEmptyNode(&empty, g, NULL, 0), OK);
    CHECK_CU(T->cuGraphInstantiateWithFlags(&e, g, 0), OK);

    CUgraphNodeParams p = memset_update(b, 2, cgn_fake_context(3));
    CHECK_CU(T->cuGraphNodeSetParams(empty, &p), BAD); /* wrong type */
    p.memset.elementSize = 3;
    CHECK_CU(T->cuGraphNodeSetParams(n, &p), BAD);
    p = memset_update(b, 2, cgn_fake_context(3));
    p.reserved0[1] = 1;
    CHECK_CU(T->cuGraphNodeSetParams(n, &p), BAD);
    p = memset_update(b, 2, cgn_fake_context(3));
    CHECK_CU(T->cuGraphNodeSetParams(n, &p), OK);
    CHECK(cgn_fake_node_context(n) == cgn_fake_context(3));

    CUgraphNodeParams got;
    CHECK(cgn_fake_node_params(n, &got) && got.memset.value == 2);
    CHECK(got.memset.ctx == cgn_fake_context(3));
    CHECK(cgn_fake_exec_node_params(e, n, &got) && got.memset.value == 1);
    CHECK_CU(T->cuGraphLaunch(e, NULL), OK);
    CHECK(a[0] == 1 && b[0] == 0);
    run_once(g);
    CHECK(b[3] == 2);

    /* Executable update. */
    p = memset_update(b, 9, NULL);
    CHECK_CU(T->cuGraphExecNodeSetParams(e, n, &p), OK);
    CHECK_CU(T->cuGraphLaunch(e, NULL), OK);
    CHECK(b[0] == 9);
    CHECK(cgn_fake_node_params(n, &got) && got.memset.value == 2);

    CUgraph other = NULL;
    CUgraphNode foreign = NULL;
    CHECK_CU(T->cuGraphCreate(&other, 0), OK);
    CHECK_CU(T->cuGraphAddMemsetNode(&foreign, other, NULL, 0, &m, NULL), OK);
    CHECK_CU(T->cuGraphExecNodeSetParams(e, foreign, &p), BAD);
    /* A node added after instantiation is not in the executable. */
    CUgraphNode late = NULL;
    CHECK_CU(T->cuGraphAddMemsetNode(&late, g, NULL, 0, &m, NULL), OK);
    CHECK_CU(T->cuGraphExecNodeSetParams(e, late, &p), BAD);

    CHECK_CU(T->cuGraphExecDestroy(e), OK);
    CHECK_CU(T->cuGraphDestroy(g), OK);
    CHECK_CU(T->cuGraphDestroy(other), OK);
}

/* Kernel nodes: both handle kinds, arguments copied again on update, contexts recorded. */
static void test_kernel_nodes(void)
{
    begin();
    static const size_t one_ptr[] = {sizeof(void *)};
    int calls = 0;
    CUfunction cfg_f = cgn_fake_register_kernel("config", 1, one_ptr, config, &calls);
    CUfunction add_f = cgn_fake_register_kernel("add_one", 1, one_ptr, add_one, NULL);
    unsigned cfg[7] = {0};
    unsigned *cfgp = cfg;
    void *cfg_args[] = {&cfgp};
    CUgraph g = NULL;
    CUgraphNode n = NULL;
    CHECK_CU(T->cuGraphCreate(&g, 0), OK);

    cgn_fake_set_current_context(cgn_fake_context(1));
    CUDA_KERNEL_NODE_PARAMS_v2 k = kernel_params(NULL, cgn_fake_kernel_of(cfg_f), cfg_args);
    k.gridDimX = 2;
    k.blockDimY = 3;
    k.sharedMemBytes = 64;
    CHECK_CU(T->cuGraphAddKernelNode(&n, g, NULL, 0, &k), OK);
    CHECK(cgn_fake_node_context(n) == cgn_fake_context(1));
    run_once(g);
    CHECK(calls == 1 && cfg[0] == 2 && cfg[4] == 3 && cfg[6] == 64);

    /* Switch to another kernel through a CUfunction, with a fresh argument copy. */
    int x = 10;
    int *xp = &x;
    CUgraphNodeParams p;
    memset(&p, 0, sizeof p);
    p.type = CU_GRAPH_NODE_TYPE_KERNEL;
    p.kernel.func = add_f;
    p.kernel.gridDimX = p.kernel.gridDimY = p.kernel.gridDimZ = 1;
    p.kernel.blockDimX = p.kernel.blockDimY = p.kernel.blockDimZ = 1;
    void *add_args[] = {&xp};
    p.kernel.kernelParams = add_args;
    CHECK_CU(T->cuGraphNodeSetParams(n, &p), OK);
    xp = NULL; /* must not matter: the fake copied the pointer value */
    run_once(g);
    CHECK(x == 11 && calls == 1);

    /* CUkernel with an explicit context. */
    p.kernel.func = NULL;
    p.kernel.kern = cgn_fake_kernel_of(add_f);
    p.kernel.ctx = cgn_fake_context(2);
    xp = &x;
    CHECK_CU(T->cuGraphNodeSetParams(n, &p), OK);
    CHECK(cgn_fake_node_context(n) == cgn_fake_context(2));
    p.kernel.blockDimZ = 0;
    CHECK_CU(T->cuGraphNodeSetParams(n, &p), BAD);
    CHECK(cgn_fake_node_context(n) == cgn_fake_context(2)); /* failed update changed nothing */
    run_once(g);
    CHECK(x == 12);
    CHECK_CU(T->cuGraphDestroy(g), OK);
}

static void test_child_graphs_and_clones(void)
{
    begin();
    CUgraph child = NULL, g = NULL, clone = NULL, embedded = NULL, embedded2 = NULL;
    CUgraphNode cn = NULL, found = NULL, first = NULL;
    CHECK_CU(T->cuGraphCreate(&child, 0), OK);
    add_host(child, NULL, 0, "c");
    CHECK_CU(T->cuGraphCreate(&g, 0), OK);
    first = add_host(g, NULL, 0, "a");
    CHECK_CU(T->cuGraphAddChildGraphNode(&cn, g, &first, 1, child), OK);
    add_host(g, &cn, 1, "b");
    add_host(child, NULL, 0, "x"); /* after embedding: not in the node's copy */

    CHECK_CU(T->cuGraphChildGraphNodeGetGraph(cn, &embedded), OK);
    CHECK(embedded != child && cgn_fake_graph_node_count(embedded) == 1);
    CHECK_CU(T->cuGraphDestroy(embedded), BAD); /* owned by its node */
    CHECK_CU(T->cuGraphChildGraphNodeGetGraph(first, &embedded2), BAD);
    clear_log();
    run_once(g);
    CHECK(strcmp(order_log, "acb") == 0);

    /* Clones are deep and keep the order and edges. */
    CHECK_CU(T->cuGraphClone(&clone, g), OK);
    CHECK_CU(T->cuGraphNodeFindInClone(&found, cn, clone), OK);
    CHECK(found != NULL && found != cn);
    CHECK_CU(T->cuGraphChildGraphNodeGetGraph(found, &embedded2), OK);
    CHECK(embedded2 != embedded && cgn_fake_graph_node_count(embedded2) == 1);
    CHECK_CU(T->cuGraphNodeFindInClone(&found, cn, child), BAD);
    clear_log();
    run_once(clone);
    CHECK(strcmp(order_log, "acb") == 0);

    /* Replacing the child graph destroys the old embedded graph. */
    CUgraphNodeParams p;
    memset(&p, 0, sizeof p);
    p.type = CU_GRAPH_NODE_TYPE_GRAPH;
    p.graph.graph = child;
    p.graph.ownership = CU_GRAPH_CHILD_GRAPH_OWNERSHIP_MOVE;
    CHECK_CU(T->cuGraphNodeSetParams(cn, &p), BAD);
    p.graph.ownership = CU_GRAPH_CHILD_GRAPH_OWNERSHIP_CLONE;
    CHECK_CU(T->cuGraphNodeSetParams(cn, &p), OK);
    CHECK(cgn_fake_graph_node_count(embedded) == 0);
    CHECK_CU(T->cuGraphAddEmptyNode(&found, embedded, NULL, 0), BAD);
    clear_log();
    run_once(g);
    CHECK(strcmp(order_log, "acxb") == 0);

    /* Destroying a node drops its edges; the rest still runs. */
    CHECK_CU(T->cuGraphDestroyNode(cn), OK);
    CHECK(cgn_fake_graph_node_count(g) == 2);
    clear_log();
    run_once(g);
    CHECK(strcmp(order_log, "ab") == 0);

    CHECK_CU(T->cuGraphDestroy(clone), OK);
    CHECK_CU(T->cuGraphDestroy(g), OK);
    CHECK_CU(T->cuGraphDestroy(child), OK);
    CHECK(cgn_fake_live_objects() == 0);
}

static void test_user_objects(void)
{
    begin();
    destroyed = destroyed_in_callback = 0;
    CUuserObject o = NULL;
    CUgraph g = NULL, clone = NULL, parent = NULL;
    CUgraphNode cn = NULL;
    CUgraphExec e = NULL;
    CHECK_CU(T->cuUserObjectCreate(&o, NULL, count_destroy, 1, 0), BAD);
    CHECK_CU(T->cuUserObjectCreate(&o, NULL, count_destroy, 2, CU_USER_OBJECT_NO_DESTRUCTOR_SYNC),
             OK);
    CHECK(cgn_fake_user_object_refs(o) == 2);
    CHECK_CU(T->cuGraphCreate(&g, 0), OK);
    CHECK_CU(T->cuGraphRetainUserObject(g, o, 1, CU_GRAPH_USER_OBJECT_MOVE), OK);
    CHECK_CU(T->cuGraphRetainUserObject(g, o, 1, 0), OK);
    CHECK_CU(T->cuGraphRetainUserObject(g, o, 1, 7), BAD);
    CHECK_CU(T->cuGraphRetainUserObject(g, o, 5, CU_GRAPH_USER_OBJECT_MOVE), BAD);
    CHECK(cgn_fake_user_object_refs(o) == 3 && cgn_fake_graph_user_object_refs(g, o) == 2);

    CHECK_CU(T->cuGraphClone(&clone, g), OK);
    CHECK(cgn_fake_graph_user_object_refs(clone, o) == 2 && cgn_fake_user_object_refs(o) == 5);
    CHECK_CU(T->cuGraphCreate(&parent, 0), OK);
    CHECK_CU(T->cuGraphAddChildGraphNode(&cn, parent, NULL, 0, g), OK);
    CHECK(cgn_fake_user_object_refs(o) == 7 && cgn_fake_graph_user_object_refs(parent, o) == 0);
    CHECK_CU(T->cuGraphInstantiateWithFlags(&e, parent, 0), OK);
    CHECK(cgn_fake_exec_user_object_refs(e, o) == 2 && cgn_fake_user_object_refs(o) == 9);

    CHECK_CU(T->cuGraphReleaseUserObject(g, o, 3), BAD);
    CHECK_CU(T->cuUserObjectRelease(o, 2), BAD); /* the caller holds only one */
    CHECK_CU(T->cuUserObjectRelease(o, 1), OK);
    CHECK_CU(T->cuGraphReleaseUserObject(g, o, 2), OK);
    CHECK_CU(T->cuGraphDestroy(g), OK);
    CHECK_CU(T->cuGraphDestroy(clone), OK);
    CHECK_CU(T->cuGraphDestroyNode(cn), OK); /* the embedded copy's references go */
    CHECK(cgn_fake_user_object_refs(o) == 2 && destroyed == 0);
    CHECK_CU(T->cuGraphLaunch(e, NULL), OK);
    CHECK_CU(T->cuGraphDestroy(parent), OK);
    CHECK(destroyed == 0);
    CHECK_CU(T->cuGraphExecDestroy(e), OK); /* the last references */
    CHECK(destroyed == 1 && destroyed_in_callback == 1 && cgn_fake_in_driver_callback() == 0);
    CHECK(cgn_fake_user_object_refs(o) == 0);
    CHECK_CU(T->cuUserObjectRelease(o, 1), BAD);
    CHECK(cgn_fake_live_objects() == 0);

    /* Replacing a child graph releases the old embedded graph's references. */
    CUuserObject o2 = NULL;
    CUgraph empty = NULL;
    destroyed = 0;
    CHECK_CU(T->cuUserObjectCreate(&o2, NULL, count_destroy, 1, CU_USER_OBJECT_NO_DESTRUCTOR_SYNC),
             OK);
    CHECK_CU(T->cuGraphCreate(&g, 0), OK);
    CHECK_CU(T->cuGraphCreate(&empty, 0), OK);
    CHECK_CU(T->cuGraphCreate(&parent, 0), OK);
    CHECK_CU(T->cuGraphRetainUserObject(g, o2, 1, CU_GRAPH_USER_OBJECT_MOVE), OK);
    CHECK_CU(T->cuGraphAddChildGraphNode(&cn, parent, NULL, 0, g), OK);
    CHECK_CU(T->cuGraphDestroy(g), OK);
    CHECK(destroyed == 0 && cgn_fake_user_object_refs(o2) == 1);
    CUgraphNodeParams p;
    memset(&p, 0, sizeof p);
    p.type = CU_GRAPH_NODE_TYPE_GRAPH;
    p.graph.graph = empty;
    CHECK_CU(T->cuGraphNodeSetParams(cn, &p), OK);
    CHECK(destroyed == 1);
    CHECK_CU(T->cuGraphDestroy(parent), OK);
    CHECK_CU(T->cuGraphDestroy(empty), OK);
    CHECK(cgn_fake_live_objects() == 0);
}

static void test_events_and_pointers(void)
{
    begin();
    CUevent ev = cgn_fake_event_create();
    CUgraph g = NULL;
    CUgraphNode rec = NULL, wait = NULL;
    CHECK_CU(T->cuGraphCreate(&g, 0), OK);
    CHECK_CU(T->cuGraphAddEventRecordNode(&rec, g, NULL, 0, ev), OK);
    CHECK_CU(T->cuGraphAddEventWaitNode(&wait, g, &rec, 1, ev), OK);
    CHECK(cgn_fake_event_record_count(ev) == 0);
    run_once(g);
    run_once(g);
    CHECK(cgn_fake_event_record_count(ev) == 2);
    CHECK(cgn_fake_event_record_count(NULL) == -1);
    CHECK_CU(T->cuGraphDestroy(g), OK);

    static unsigned char dev[32];
    unsigned char host[4];
    unsigned int type = 0;
    cgn_fake_mark_device_memory(dev, sizeof dev);
    CHECK_CU(T->cuPointerGetAttribute(&type, CU_POINTER_ATTRIBUTE_MEMORY_TYPE,
                                      (CUdeviceptr)(uintptr_t)(dev + 31)),
             OK);
    CHECK(type == CU_MEMORYTYPE_DEVICE);
    /* Unknown (pageable) memory is an error, as on the driver; marked host memory is HOST. */
    CHECK_CU(T->cuPointerGetAttribute(&type, CU_POINTER_ATTRIBUTE_MEMORY_TYPE,
                                      (CUdeviceptr)(uintptr_t)host),
             BAD);
    cgn_fake_mark_memory(host, sizeof host, CU_MEMORYTYPE_HOST);
    CHECK_CU(T->cuPointerGetAttribute(&type, CU_POINTER_ATTRIBUTE_MEMORY_TYPE,
                                      (CUdeviceptr)(uintptr_t)(host + 3)),
             OK);
    CHECK(type == CU_MEMORYTYPE_HOST);
    cgn_fake_mark_memory(dev, 4, CU_MEMORYTYPE_UNIFIED); /* the latest mark wins */
    CHECK_CU(T->cuPointerGetAttribute(&type, CU_POINTER_ATTRIBUTE_MEMORY_TYPE,
                                      (CUdeviceptr)(uintptr_t)dev),
             OK);
    CHECK(type == CU_MEMORYTYPE_UNIFIED);
    CHECK_CU(T->cuPointerGetAttribute(&type, CU_POINTER_ATTRIBUTE_MEMORY_TYPE,
                                      (CUdeviceptr)(uintptr_t)(dev + 4)),
             OK);
    CHECK(type == CU_MEMORYTYPE_DEVICE);

    /* The memcpy getter returns the descriptor as set; other node types are refused. */
    CUDA_MEMCPY3D c, got;
    memset(&c, 0, sizeof c);
    c.srcMemoryType = CU_MEMORYTYPE_HOST;
    c.srcHost = host;
    c.dstMemoryType = CU_MEMORYTYPE_DEVICE;
    c.dstDevice = (CUdeviceptr)(uintptr_t)dev;
    c.WidthInBytes = sizeof host;
    c.Height = c.Depth = 1;
    CUgraphNode copy = NULL;
    CHECK_CU(T->cuGraphCreate(&g, 0), OK);
    CHECK_CU(T->cuGraphAddMemcpyNode(&copy, g, NULL, 0, &c, cgn_fake_context(0)), OK);
    CHECK_CU(T->cuGraphAddEventWaitNode(&wait, g, NULL, 0, ev), OK);
    memset(&got, 0xff, sizeof got);
    CHECK_CU(T->cuGraphMemcpyNodeGetParams(copy, &got), OK);
    CHECK(memcmp(&got, &c, sizeof c) == 0);
    CHECK_CU(T->cuGraphMemcpyNodeGetParams(wait, &got), BAD);
    CHECK_CU(T->cuGraphMemcpyNodeGetParams(copy, NULL), BAD);
    /* Executables report the wait nodes of their snapshot. */
    CUgraphExec e = NULL;
    CHECK_CU(T->cuGraphInstantiateWithFlags(&e, g, 0), OK);
    CHECK(cgn_fake_exec_event_waits(e, ev) == 1);
    CHECK(cgn_fake_exec_event_waits(e, NULL) == 0);
    CHECK(cgn_fake_exec_event_waits(NULL, ev) == 0);
    CHECK_CU(T->cuGraphExecDestroy(e), OK);
    CHECK_CU(T->cuGraphDestroy(g), OK);
}

/* Many handles: the registry grows, and removals keep every other handle findable. */
static void test_many_handles(void)
{
    begin();
    enum { COUNT = 3000 };
    static CUgraphNode nodes[COUNT];
    CUgraph g = NULL;
    CHECK_CU(T->cuGraphCreate(&g, 0), OK);
    for (size_t i = 0; i < COUNT; i++)
        CHECK_CU(T->cuGraphAddEmptyNode(&nodes[i], g, i ? &nodes[i - 1] : NULL, i ? 1 : 0), OK);
    for (size_t i = 0; i < COUNT; i += 3)
        CHECK_CU(T->cuGraphDestroyNode(nodes[i]), OK);
    size_t alive = 0;
    CUgraphNodeParams p;
    for (size_t i = 0; i < COUNT; i++) {
        int known = cgn_fake_node_params(nodes[i], &p);
        CHECK(known == (i % 3 != 0));
        alive += (size_t)known;
    }
    CHECK(alive == cgn_fake_graph_node_count(g));
    CUgraph clone = NULL;
    CHECK_CU(T->cuGraphClone(&clone, g), OK);
    CHECK(cgn_fake_graph_node_count(clone) == alive);
    run_once(clone);
    CHECK_CU(T->cuGraphDestroy(g), OK);
    CHECK_CU(T->cuGraphDestroy(clone), OK);
    for (size_t i = 0; i < COUNT; i++)
        CHECK(cgn_fake_node_params(nodes[i], &p) == 0);
    CHECK(cgn_fake_live_objects() == 0);
}

/* Reset frees live objects without running their destructors (LeakSanitizer checks the rest). */
static void test_reset_frees_everything(void)
{
    begin();
    destroyed = 0;
    static const size_t sizes[] = {4};
    CUfunction f = cgn_fake_register_kernel("k", 1, sizes, NULL, NULL);
    unsigned v = 1;
    void *args[] = {&v};
    CUuserObject o = NULL;
    CUgraph g = NULL, child = NULL;
    CUgraphNode n = NULL;
    CUgraphExec e = NULL;
    CHECK_CU(T->cuUserObjectCreate(&o, NULL, count_destroy, 1, CU_USER_OBJECT_NO_DESTRUCTOR_SYNC),
             OK);
    CHECK_CU(T->cuGraphCreate(&child, 0), OK);
    CHECK_CU(T->cuGraphRetainUserObject(child, o, 1, 0), OK);
    CUDA_KERNEL_NODE_PARAMS_v2 k = kernel_params(f, NULL, args);
    CHECK_CU(T->cuGraphAddKernelNode(&n, child, NULL, 0, &k), OK);
    CHECK_CU(T->cuGraphCreate(&g, 0), OK);
    CHECK_CU(T->cuGraphAddChildGraphNode(&n, g, NULL, 0, child), OK);
    CHECK_CU(T->cuGraphInstantiateWithFlags(&e, g, 0), OK);
    cgn_fake_event_create();
    cgn_fake_mark_device_memory(&v, sizeof v);
    /* child, g, g's embedded copy, the snapshot and its embedded copy; the exec; the object. */
    CHECK(cgn_fake_live_objects() == 7);
    cgn_fake_set_version(12000);
    cgn_fake_reset();
    CHECK(cgn_fake_live_objects() == 0 && destroyed == 0);
    CHECK(cgn_fake_user_object_refs(o) == 0 && cgn_fake_table()->version == 13000);
}

int main(void)
{
    test_table_and_version();
    test_contexts();
    test_kernel_registry();
    test_launch();
    test_validation();
    test_set_params();
    test_kernel_nodes();
    test_child_graphs_and_clones();
    test_user_objects();
    test_events_and_pointers();
    test_many_handles();
    test_reset_frees_everything();
    cgn_fake_reset();
    if (failures) {
        fprintf(stderr, "fake_selftest: %d check(s) failed\n", failures);
        return 1;
    }
    printf("fake_selftest: all checks passed\n");
    return 0;
}
