/* Self-test of the fake driver, through its table only (plus the cgn_fake_* hooks), so that
 * cgn's tests can trust what it models. Exits nonzero when any check fails. */
#include "fake_driver.h"

#include <pthread.h>
#include <stdatomic.h>
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

/* Kernel that reports the context it ran in. */
static void record_ctx(void **args, const CUDA_KERNEL_NODE_PARAMS_v2 *launch, void *user)
{
    (void)args;
    *(CUcontext *)user = launch->ctx;
}

static CUgraphNodeParams kernel_update(CUfunction f, CUkernel k, CUcontext ctx, void **args)
{
    CUgraphNodeParams p;
    memset(&p, 0, sizeof p);
    p.type = CU_GRAPH_NODE_TYPE_KERNEL;
    p.kernel.func = f;
    p.kernel.kern = k;
    p.kernel.ctx = ctx;
    p.kernel.gridDimX = p.kernel.gridDimY = p.kernel.gridDimZ = 1;
    p.kernel.blockDimX = p.kernel.blockDimY = p.kernel.blockDimZ = 1;
    p.kernel.kernelParams = args;
    return p;
}

static CUgraphNodeParams child_update(CUgraph g)
{
    CUgraphNodeParams p;
    memset(&p, 0, sizeof p);
    p.type = CU_GRAPH_NODE_TYPE_GRAPH;
    p.graph.graph = g;
    p.graph.ownership = CU_GRAPH_CHILD_GRAPH_OWNERSHIP_CLONE;
    return p;
}

static CUDA_MEMCPY3D copy_1d(CUmemorytype src_type, void *src, CUmemorytype dst_type, void *dst,
                             size_t bytes)
{
    CUDA_MEMCPY3D c;
    memset(&c, 0, sizeof c);
    c.srcMemoryType = src_type;
    c.dstMemoryType = dst_type;
    if (src_type == CU_MEMORYTYPE_HOST)
        c.srcHost = src;
    else
        c.srcDevice = (CUdeviceptr)(uintptr_t)src;
    if (dst_type == CU_MEMORYTYPE_HOST)
        c.dstHost = dst;
    else
        c.dstDevice = (CUdeviceptr)(uintptr_t)dst;
    c.WidthInBytes = bytes;
    c.Height = c.Depth = 1;
    return c;
}

static CUuserObject new_object(CUhostFn destroy, void *ptr)
{
    CUuserObject o = NULL;
    CHECK_CU(T->cuUserObjectCreate(&o, ptr, destroy, 1, CU_USER_OBJECT_NO_DESTRUCTOR_SYNC), OK);
    return o;
}

/* Gives g the caller's one reference to a new object with destructor log_tag(tag). */
static CUuserObject retain_logged(CUgraph g, const char *tag)
{
    CUuserObject o = new_object(log_tag, (void *)(uintptr_t)tag);
    CHECK_CU(T->cuGraphRetainUserObject(g, o, 1, CU_GRAPH_USER_OBJECT_MOVE), OK);
    return o;
}

static CUgraphExec instantiate(CUgraph g)
{
    CUgraphExec e = NULL;
    CHECK_CU(T->cuGraphInstantiateWithFlags(&e, g, 0), OK);
    return e;
}

/* host "h" -> kernel fill(out, v) -> memset(dst, value), 4 bytes; nodes[0..2]. */
static CUgraph make_chain(CUfunction fill_f, unsigned *out, unsigned v, void *dst, unsigned value,
                          CUgraphNode nodes[3])
{
    CUgraph g = NULL;
    CHECK_CU(T->cuGraphCreate(&g, 0), OK);
    nodes[0] = add_host(g, NULL, 0, "h");
    void *args[] = {&out, &v};
    CUDA_KERNEL_NODE_PARAMS_v2 k = kernel_params(fill_f, NULL, args);
    CHECK_CU(T->cuGraphAddKernelNode(&nodes[1], g, &nodes[0], 1, &k), OK);
    CUDA_MEMSET_NODE_PARAMS_v1 m = memset_params(dst, value, 1, 4);
    CHECK_CU(T->cuGraphAddMemsetNode(&nodes[2], g, &nodes[1], 1, &m, NULL), OK);
    return g;
}

static void check_info(const CUgraphExecUpdateResultInfo *info, CUgraphExecUpdateResult result,
                       CUgraphNode node, CUgraphNode from, int line)
{
    if (info->result != result || info->errorNode != node || info->errorFromNode != from) {
        fprintf(stderr, "%s:%d: update info {%d, %p, %p}, expected {%d, %p, %p}\n", __FILE__,
                line, (int)info->result, (void *)info->errorNode, (void *)info->errorFromNode,
                (int)result, (void *)node, (void *)from);
        failures++;
    }
}
#define CHECK_INFO(info, result, node, from) check_info(&(info), (result), (node), (from), __LINE__)

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

/* ---- contexts: cuCtxSetCurrent, per-thread stacks, function contexts ------------------------ */

static void test_set_current(void)
{
    begin();
    CUcontext c = NULL, c0 = cgn_fake_context(0), c1 = cgn_fake_context(1);
    CUcontext c2 = cgn_fake_context(2), c3 = cgn_fake_context(3);
    /* Replaces the top, keeping what lies below. */
    CHECK_CU(T->cuCtxPushCurrent(c1), OK);
    CHECK_CU(T->cuCtxSetCurrent(c2), OK);
    CHECK_CU(T->cuCtxGetCurrent(&c), OK);
    CHECK(c == c2);
    CHECK_CU(T->cuCtxPopCurrent(&c), OK);
    CHECK(c == c2);
    CHECK_CU(T->cuCtxGetCurrent(&c), OK);
    CHECK(c == c0);
    /* NULL pops the top; on an empty stack it does nothing. */
    CHECK_CU(T->cuCtxPushCurrent(c1), OK);
    CHECK_CU(T->cuCtxSetCurrent(NULL), OK);
    CHECK_CU(T->cuCtxGetCurrent(&c), OK);
    CHECK(c == c0);
    CHECK_CU(T->cuCtxSetCurrent(NULL), OK);
    CHECK_CU(T->cuCtxGetCurrent(&c), OK);
    CHECK(c == NULL);
    CHECK_CU(T->cuCtxSetCurrent(NULL), OK);
    CHECK_CU(T->cuCtxPopCurrent(&c), CUDA_ERROR_INVALID_CONTEXT);
    /* On an empty stack it binds the context. */
    CHECK_CU(T->cuCtxSetCurrent(c3), OK);
    CHECK_CU(T->cuCtxGetCurrent(&c), OK);
    CHECK(c == c3);
    CHECK_CU(T->cuCtxSetCurrent((CUcontext)&c), CUDA_ERROR_INVALID_CONTEXT);
    CHECK_CU(T->cuCtxPopCurrent(&c), OK);
    CHECK(c == c3);
    CHECK_CU(T->cuCtxPopCurrent(&c), CUDA_ERROR_INVALID_CONTEXT);
}

/* What a thread saw; checked by the main thread after joining (CHECK is not thread-safe). */
typedef struct ctx_probe {
    CUcontext at_start, after_push, after_set, node_ctx;
    int errors;
} ctx_probe;

static void *probe_contexts(void *arg)
{
    ctx_probe *p = arg;
    CUgraph g = NULL;
    CUgraphNode n = NULL;
    unsigned char buf[4];
    CUDA_MEMSET_NODE_PARAMS_v1 m = memset_params(buf, 1, 1, 4);
    p->errors += T->cuCtxGetCurrent(&p->at_start) != OK;
    p->errors += T->cuCtxPushCurrent(cgn_fake_context(2)) != OK;
    p->errors += T->cuCtxGetCurrent(&p->after_push) != OK;
    cgn_fake_set_current_context(cgn_fake_context(3));
    p->errors += T->cuCtxGetCurrent(&p->after_set) != OK;
    p->errors += T->cuGraphCreate(&g, 0) != OK;
    p->errors += T->cuGraphAddMemsetNode(&n, g, NULL, 0, &m, NULL) != OK;
    p->node_ctx = cgn_fake_node_context(n);
    p->errors += T->cuGraphDestroy(g) != OK;
    return NULL;
}

static ctx_probe run_probe(void)
{
    ctx_probe p;
    memset(&p, 0, sizeof p);
    pthread_t t;
    if (pthread_create(&t, NULL, probe_contexts, &p) != 0) {
        p.errors = 1000;
        return p;
    }
    pthread_join(t, NULL);
    return p;
}

static void test_thread_contexts(void)
{
    begin();
    CUcontext c = NULL, c0 = cgn_fake_context(0), c1 = cgn_fake_context(1);
    CHECK_CU(T->cuCtxPushCurrent(c1), OK);
    /* A new thread has no current context, as in CUDA; its stack is its own. */
    ctx_probe p = run_probe();
    CHECK(p.errors == 0 && p.at_start == NULL);
    CHECK(p.after_push == cgn_fake_context(2) && p.after_set == cgn_fake_context(3));
    CHECK(p.node_ctx == cgn_fake_context(3));
    CHECK_CU(T->cuCtxGetCurrent(&c), OK);
    CHECK(c == c1);
    CHECK_CU(T->cuCtxPopCurrent(&c), OK);
    CHECK_CU(T->cuCtxGetCurrent(&c), OK);
    CHECK(c == c0);
    /* A start context may be set for new threads; a reset forgets it. */
    cgn_fake_set_thread_start_context(c1);
    p = run_probe();
    CHECK(p.errors == 0 && p.at_start == c1 && p.after_push == cgn_fake_context(2));
    cgn_fake_reset();
    p = run_probe();
    CHECK(p.errors == 0 && p.at_start == NULL);
    CHECK_CU(T->cuCtxGetCurrent(&c), OK);
    CHECK(c == c0); /* the thread that reset */
}

static void test_function_contexts(void)
{
    begin();
    CUcontext c0 = cgn_fake_context(0), c1 = cgn_fake_context(1), ran_in = NULL;
    CUfunction f = cgn_fake_register_kernel("where", 0, NULL, record_ctx, &ran_in);
    CUfunction f1 = cgn_fake_function_in_context(f, c1);
    CHECK(f1 != NULL && f1 != f && cgn_fake_function_in_context(f, c1) == f1);
    CHECK(cgn_fake_function_in_context(f1, c0) == f);
    CHECK(cgn_fake_function_in_context(f, NULL) == NULL);
    CHECK(cgn_fake_function_in_context(NULL, c1) == NULL);
    CHECK(cgn_fake_function_context(f) == c0 && cgn_fake_function_context(f1) == c1);
    CHECK(cgn_fake_kernel_of(f1) == cgn_fake_kernel_of(f));
    const char *name = NULL;
    CHECK_CU(T->cuFuncGetName(&name, f1), OK);
    CHECK(name && strcmp(name, "where") == 0);

    /* A kernel node runs in its function's context, whatever is current. */
    CUgraph g = NULL;
    CUgraphNode n = NULL;
    CHECK_CU(T->cuGraphCreate(&g, 0), OK);
    CUDA_KERNEL_NODE_PARAMS_v2 k = kernel_params(f1, NULL, NULL);
    CHECK_CU(T->cuGraphAddKernelNode(&n, g, NULL, 0, &k), OK);
    CHECK(cgn_fake_node_context(n) == c1);
    run_once(g);
    CHECK(ran_in == c1);
    CUgraphNodeParams p = kernel_update(f, NULL, NULL, NULL);
    CHECK_CU(T->cuGraphNodeSetParams(n, &p), OK);
    CHECK(cgn_fake_node_context(n) == c0);
    run_once(g);
    CHECK(ran_in == c0);
    CHECK_CU(T->cuGraphDestroy(g), OK);
}

/* ---- getters --------------------------------------------------------------------------------- */

static void test_getters(void)
{
    begin();
    static const size_t sizes[] = {sizeof(void *), 4};
    CUfunction fill_f = cgn_fake_register_kernel("fill", 2, sizes, fill, NULL);
    unsigned out = 0;
    unsigned char buf[8];
    CUevent ev = NULL;
    CHECK_CU(T->cuEventCreate(&ev, 0), OK);
    CUgraph g = NULL;
    CUgraphNode n[6] = {NULL}, got[8];
    CHECK_CU(T->cuGraphCreate(&g, 0), OK);
    n[0] = add_host(g, NULL, 0, "a");
    unsigned *outp = &out;
    unsigned value = 42;
    void *args[] = {&outp, &value};
    CUDA_KERNEL_NODE_PARAMS_v2 k = kernel_params(fill_f, NULL, args);
    k.gridDimX = 3;
    k.sharedMemBytes = 16;
    CHECK_CU(T->cuGraphAddKernelNode(&n[1], g, &n[0], 1, &k), OK);
    CUDA_MEMSET_NODE_PARAMS_v1 m = memset_params(buf, 7, 2, 2);
    m.height = 2;
    m.pitch = 4;
    CHECK_CU(T->cuGraphAddMemsetNode(&n[2], g, &n[0], 1, &m, NULL), OK);
    CUgraphNode both[] = {n[2], n[1]};
    CHECK_CU(T->cuGraphAddEventRecordNode(&n[3], g, both, 2, ev), OK);
    CHECK_CU(T->cuGraphAddEventWaitNode(&n[4], g, NULL, 0, ev), OK);
    CHECK_CU(T->cuGraphAddEmptyNode(&n[5], g, &n[1], 1), OK);

    /* cuGraphGetNodes: the count, then up to *num in insertion order, NULL after the last. */
    size_t num = 0;
    CHECK_CU(T->cuGraphGetNodes(g, NULL, &num), OK);
    CHECK(num == 6);
    num = 8;
    memset(got, 0xff, sizeof got);
    CHECK_CU(T->cuGraphGetNodes(g, got, &num), OK);
    CHECK(num == 6 && memcmp(got, n, sizeof n) == 0 && got[6] == NULL && got[7] == NULL);
    num = 2;
    got[2] = (CUgraphNode)buf;
    CHECK_CU(T->cuGraphGetNodes(g, got, &num), OK);
    CHECK(num == 6 && got[0] == n[0] && got[1] == n[1] && got[2] == (CUgraphNode)buf);
    CHECK_CU(T->cuGraphGetNodes(g, got, NULL), BAD);
    CHECK_CU(T->cuGraphGetNodes((CUgraph)buf, NULL, &num), BAD);

    static const CUgraphNodeType types[] = {
        CU_GRAPH_NODE_TYPE_HOST,         CU_GRAPH_NODE_TYPE_KERNEL,     CU_GRAPH_NODE_TYPE_MEMSET,
        CU_GRAPH_NODE_TYPE_EVENT_RECORD, CU_GRAPH_NODE_TYPE_WAIT_EVENT, CU_GRAPH_NODE_TYPE_EMPTY};
    for (size_t i = 0; i < 6; i++) {
        CUgraphNodeType t = CU_GRAPH_NODE_TYPE_GRAPH;
        CHECK_CU(T->cuGraphNodeGetType(n[i], &t), OK);
        CHECK(t == types[i]);
    }
    CHECK_CU(T->cuGraphNodeGetType(n[0], NULL), BAD);
    CHECK_CU(T->cuGraphNodeGetType((CUgraphNode)buf, NULL), BAD);

    /* Dependencies in the order given; dependents in insertion order. */
    num = 0;
    CHECK_CU(T->cuGraphNodeGetDependencies(n[3], NULL, &num), OK);
    CHECK(num == 2);
    num = 3;
    CHECK_CU(T->cuGraphNodeGetDependencies(n[3], got, &num), OK);
    CHECK(num == 2 && got[0] == n[2] && got[1] == n[1] && got[2] == NULL);
    num = 1;
    CHECK_CU(T->cuGraphNodeGetDependencies(n[3], got, &num), OK);
    CHECK(num == 2 && got[0] == n[2]);
    num = 4;
    CHECK_CU(T->cuGraphNodeGetDependencies(n[4], got, &num), OK);
    CHECK(num == 0 && got[0] == NULL);
    num = 0;
    CHECK_CU(T->cuGraphNodeGetDependentNodes(n[1], NULL, &num), OK);
    CHECK(num == 2);
    num = 3;
    CHECK_CU(T->cuGraphNodeGetDependentNodes(n[1], got, &num), OK);
    CHECK(num == 2 && got[0] == n[3] && got[1] == n[5] && got[2] == NULL);
    num = 8;
    CHECK_CU(T->cuGraphNodeGetDependentNodes(n[0], got, &num), OK);
    CHECK(num == 2 && got[0] == n[1] && got[1] == n[2]);
    CHECK_CU(T->cuGraphNodeGetDependentNodes(n[0], got, NULL), BAD);
    CHECK_CU(T->cuGraphNodeGetDependencies((CUgraphNode)buf, got, &num), BAD);
    /* Destroying a node removes its edges. */
    CHECK_CU(T->cuGraphDestroyNode(n[2]), OK);
    num = 3;
    CHECK_CU(T->cuGraphNodeGetDependencies(n[3], got, &num), OK);
    CHECK(num == 1 && got[0] == n[1]);

    /* Kernel params: the node's own copy of the arguments (driver-owned memory). */
    CUDA_KERNEL_NODE_PARAMS_v2 kp;
    memset(&kp, 0, sizeof kp);
    value = 1;
    CHECK_CU(T->cuGraphKernelNodeGetParams(n[1], &kp), OK);
    CHECK(kp.func == fill_f && kp.gridDimX == 3 && kp.blockDimZ == 1 && kp.sharedMemBytes == 16);
    CHECK(kp.kernelParams != NULL && kp.kernelParams != args && kp.extra == NULL);
    CHECK(kp.kernelParams[1] != (void *)&value && *(unsigned *)kp.kernelParams[1] == 42);
    unsigned *stored = NULL;
    memcpy(&stored, kp.kernelParams[0], sizeof stored);
    CHECK(stored == &out);
    CHECK_CU(T->cuGraphKernelNodeGetParams(n[0], &kp), BAD);
    CHECK_CU(T->cuGraphKernelNodeGetParams(n[1], NULL), BAD);

    CUDA_HOST_NODE_PARAMS_v1 hp = {NULL, NULL};
    CHECK_CU(T->cuGraphHostNodeGetParams(n[0], &hp), OK);
    CHECK(hp.fn == log_tag && strcmp((const char *)hp.userData, "a") == 0);
    CHECK_CU(T->cuGraphHostNodeGetParams(n[1], &hp), BAD);
    CUevent e = NULL;
    CHECK_CU(T->cuGraphEventRecordNodeGetEvent(n[3], &e), OK);
    CHECK(e == ev);
    e = NULL;
    CHECK_CU(T->cuGraphEventWaitNodeGetEvent(n[4], &e), OK);
    CHECK(e == ev);
    CHECK_CU(T->cuGraphEventRecordNodeGetEvent(n[4], &e), BAD);
    CHECK_CU(T->cuGraphEventWaitNodeGetEvent(n[3], &e), BAD);
    CHECK_CU(T->cuGraphEventWaitNodeGetEvent(n[4], NULL), BAD);

    CUgraphNode ms = NULL;
    CHECK_CU(T->cuGraphAddMemsetNode(&ms, g, NULL, 0, &m, cgn_fake_context(1)), OK);
    CUDA_MEMSET_NODE_PARAMS_v1 mp;
    memset(&mp, 0, sizeof mp);
    CHECK_CU(T->cuGraphMemsetNodeGetParams(ms, &mp), OK);
    CHECK(memcmp(&mp, &m, sizeof m) == 0);
    CHECK_CU(T->cuGraphMemsetNodeGetParams(n[0], &mp), BAD);
    CHECK_CU(T->cuGraphMemsetNodeGetParams(ms, NULL), BAD);
    CHECK_CU(T->cuGraphDestroy(g), OK);
    CHECK_CU(T->cuEventDestroy(ev), OK);
}

/* ---- events, deferred completion ------------------------------------------------------------- */

static void test_events_through_driver(void)
{
    begin();
    CUevent a = NULL, b = NULL, c = NULL;
    CHECK(cgn_fake_live_events() == 0);
    CHECK_CU(T->cuEventCreate(&a, 0), OK);
    CHECK_CU(T->cuEventCreate(&b, CU_EVENT_DISABLE_TIMING | CU_EVENT_BLOCKING_SYNC), OK);
    CHECK_CU(T->cuEventCreate(&c, CU_EVENT_INTERPROCESS), BAD);
    CHECK_CU(T->cuEventCreate(&c, 0x100), BAD);
    CHECK_CU(T->cuEventCreate(NULL, 0), BAD);
    c = cgn_fake_event_create();
    CHECK(a && b && c && a != b && cgn_fake_live_events() == 3 && cgn_fake_live_objects() == 0);
    CHECK_CU(T->cuEventQuery(a), OK); /* never recorded */
    CHECK_CU(T->cuEventRecord(a, NULL), OK);
    CHECK_CU(T->cuEventQuery(a), OK); /* nothing in flight */

    /* A node may outlive its event: launching records nothing then. */
    CUgraph g = NULL;
    CUgraphNode rec = NULL;
    CHECK_CU(T->cuGraphCreate(&g, 0), OK);
    CHECK_CU(T->cuGraphAddEventRecordNode(&rec, g, NULL, 0, c), OK);
    CUgraphExec e = instantiate(g);
    CHECK_CU(T->cuGraphLaunch(e, NULL), OK);
    CHECK(cgn_fake_event_record_count(c) == 1);
    CHECK_CU(T->cuEventDestroy(c), OK);
    CHECK_CU(T->cuEventDestroy(c), BAD);
    CHECK_CU(T->cuEventQuery(c), BAD);
    CHECK_CU(T->cuEventRecord(c, NULL), BAD);
    CHECK_CU(T->cuGraphLaunch(e, NULL), OK);
    CHECK(cgn_fake_event_record_count(c) == -1 && cgn_fake_live_events() == 2);
    CHECK_CU(T->cuGraphExecDestroy(e), OK);
    CHECK_CU(T->cuGraphDestroy(g), OK);
    CHECK_CU(T->cuEventDestroy(a), OK);
    CHECK(cgn_fake_live_events() == 1);
    cgn_fake_reset();
    CHECK(cgn_fake_live_events() == 0);
}

static void test_deferred_completion(void)
{
    begin();
    unsigned char a[4] = {0}, b[4] = {0};
    CUgraph ga = NULL, gb = NULL, gr = NULL;
    CUgraphNode na = NULL, nb = NULL, rec = NULL;
    CUDA_MEMSET_NODE_PARAMS_v1 m = memset_params(a, 1, 1, 4);
    CHECK_CU(T->cuGraphCreate(&ga, 0), OK);
    CHECK_CU(T->cuGraphAddMemsetNode(&na, ga, NULL, 0, &m, NULL), OK);
    m = memset_params(b, 2, 1, 4);
    CHECK_CU(T->cuGraphCreate(&gb, 0), OK);
    CHECK_CU(T->cuGraphAddMemsetNode(&nb, gb, NULL, 0, &m, NULL), OK);
    CUgraphExec ea = instantiate(ga), eb = instantiate(gb);
    CUevent ev_a = NULL, ev_b = NULL, ev_other = NULL, ev_all = NULL, ev_node = NULL;
    CHECK_CU(T->cuEventCreate(&ev_a, 0), OK);
    CHECK_CU(T->cuEventCreate(&ev_b, 0), OK);
    CHECK_CU(T->cuEventCreate(&ev_other, 0), OK);
    CHECK_CU(T->cuEventCreate(&ev_all, 0), OK);
    CHECK_CU(T->cuEventCreate(&ev_node, 0), OK);
    CUstream s1 = (CUstream)(uintptr_t)0x1000, s2 = (CUstream)(uintptr_t)0x2000;

    cgn_fake_hold_completion(1);
    CHECK_CU(T->cuGraphLaunch(ea, s1), OK);
    CHECK(a[0] == 1 && a[3] == 1); /* the effects happen at launch */
    CHECK_CU(T->cuEventRecord(ev_a, s1), OK);
    CHECK_CU(T->cuEventRecord(ev_other, s2), OK); /* nothing before it on s2 */
    CHECK_CU(T->cuGraphLaunch(eb, s2), OK);
    CHECK_CU(T->cuEventRecord(ev_b, s2), OK);
    CHECK_CU(T->cuEventRecord(ev_all, NULL), OK); /* the legacy stream waits for all */
    CHECK_CU(T->cuEventQuery(ev_a), CUDA_ERROR_NOT_READY);
    CHECK_CU(T->cuEventQuery(ev_other), OK);
    CHECK_CU(T->cuEventQuery(ev_b), CUDA_ERROR_NOT_READY);
    CHECK_CU(T->cuEventQuery(ev_all), CUDA_ERROR_NOT_READY);
    CHECK(cgn_fake_in_flight(ea) == 1 && cgn_fake_in_flight(eb) == 1);
    CHECK(cgn_fake_in_flight(NULL) == 2 && cgn_fake_exec_launches(ea) == 1);

    /* Later updates do not change what a launch did. */
    CUgraphNodeParams p = memset_update(a, 7, NULL);
    CHECK_CU(T->cuGraphExecNodeSetParams(ea, na, &p), OK);
    CHECK(a[0] == 1);

    /* Completion in launch order. */
    CHECK(cgn_fake_complete_launches(1) == 1);
    CHECK_CU(T->cuEventQuery(ev_a), OK);
    CHECK_CU(T->cuEventQuery(ev_b), CUDA_ERROR_NOT_READY);
    CHECK_CU(T->cuEventQuery(ev_all), CUDA_ERROR_NOT_READY);
    CHECK(cgn_fake_in_flight(ea) == 0 && cgn_fake_in_flight(eb) == 1);
    CHECK(cgn_fake_complete_pending() == 1);
    CHECK_CU(T->cuEventQuery(ev_b), OK);
    CHECK_CU(T->cuEventQuery(ev_all), OK);
    CHECK(cgn_fake_complete_pending() == 0 && cgn_fake_in_flight(NULL) == 0);

    /* An event record node's event is pending until its launch completes. */
    CHECK_CU(T->cuGraphCreate(&gr, 0), OK);
    CHECK_CU(T->cuGraphAddEventRecordNode(&rec, gr, NULL, 0, ev_node), OK);
    CUgraphExec er = instantiate(gr);
    CHECK_CU(T->cuGraphLaunch(er, s2), OK);
    CHECK(cgn_fake_event_record_count(ev_node) == 1);
    CHECK_CU(T->cuEventQuery(ev_node), CUDA_ERROR_NOT_READY);
    CHECK_CU(T->cuEventRecord(ev_other, s1), OK);
    CHECK_CU(T->cuEventQuery(ev_other), OK);

    /* Turning hold off completes nothing, and a launch cannot overtake one in flight. */
    CHECK_CU(T->cuGraphLaunch(ea, s1), OK);
    CHECK(a[0] == 7);
    cgn_fake_hold_completion(0);
    CHECK(cgn_fake_in_flight(NULL) == 2);
    CHECK_CU(T->cuGraphLaunch(eb, s1), OK);
    CHECK(cgn_fake_in_flight(NULL) == 3 && cgn_fake_in_flight(eb) == 1);
    CHECK_CU(T->cuEventQuery(ev_node), CUDA_ERROR_NOT_READY);
    CHECK(cgn_fake_complete_pending() == 3);
    CHECK_CU(T->cuEventQuery(ev_node), OK);
    CHECK_CU(T->cuGraphLaunch(ea, s1), OK); /* nothing in flight: completes at once */
    CHECK(cgn_fake_in_flight(NULL) == 0 && cgn_fake_exec_launches(ea) == 3);
    CHECK_CU(T->cuEventRecord(ev_a, s1), OK);
    CHECK_CU(T->cuEventQuery(ev_a), OK);

    CHECK_CU(T->cuGraphExecDestroy(ea), OK);
    CHECK_CU(T->cuGraphExecDestroy(eb), OK);
    CHECK_CU(T->cuGraphExecDestroy(er), OK);
    CHECK_CU(T->cuGraphDestroy(ga), OK);
    CHECK_CU(T->cuGraphDestroy(gb), OK);
    CHECK_CU(T->cuGraphDestroy(gr), OK);
    CHECK(cgn_fake_live_objects() == 0);

    /* A reset drops launches in flight without running anything. */
    CHECK_CU(T->cuGraphCreate(&ga, 0), OK);
    CHECK_CU(T->cuGraphAddEmptyNode(&na, ga, NULL, 0), OK);
    retain_logged(ga, "x");
    ea = instantiate(ga);
    cgn_fake_hold_completion(1);
    CHECK_CU(T->cuGraphLaunch(ea, NULL), OK);
    CHECK_CU(T->cuGraphExecDestroy(ea), OK);
    CHECK_CU(T->cuGraphDestroy(ga), OK);
    clear_log();
    cgn_fake_reset();
    CHECK(cgn_fake_in_flight(NULL) == 0 && cgn_fake_live_objects() == 0 && order_len == 0);
    CHECK_CU(T->cuGraphCreate(&ga, 0), OK);
    CHECK_CU(T->cuGraphAddEmptyNode(&na, ga, NULL, 0), OK);
    ea = instantiate(ga);
    CHECK_CU(T->cuGraphLaunch(ea, NULL), OK); /* hold is off again */
    CHECK(cgn_fake_in_flight(NULL) == 0);
    CHECK_CU(T->cuGraphExecDestroy(ea), OK);
    CHECK_CU(T->cuGraphDestroy(ga), OK);
}

/* An executable destroyed in flight is freed when its launches complete: its user objects'
 * destructors run then, in completion order. */
static void test_exec_destroyed_in_flight(void)
{
    begin();
    clear_log();
    CUgraph ga = NULL, gb = NULL;
    CUgraphNode n = NULL;
    CHECK_CU(T->cuGraphCreate(&ga, 0), OK);
    CHECK_CU(T->cuGraphCreate(&gb, 0), OK);
    CHECK_CU(T->cuGraphAddEmptyNode(&n, ga, NULL, 0), OK);
    CHECK_CU(T->cuGraphAddEmptyNode(&n, gb, NULL, 0), OK);
    CUuserObject oa = retain_logged(ga, "a"), ob = retain_logged(gb, "b");
    CUgraphExec ea = instantiate(ga), eb = instantiate(gb);
    CHECK_CU(T->cuGraphDestroy(ga), OK);
    CHECK_CU(T->cuGraphDestroy(gb), OK);

    cgn_fake_hold_completion(1);
    CHECK_CU(T->cuGraphLaunch(eb, NULL), OK);
    CHECK_CU(T->cuGraphLaunch(ea, NULL), OK);
    CHECK_CU(T->cuGraphLaunch(eb, NULL), OK);
    CHECK_CU(T->cuGraphExecDestroy(ea), OK);
    CHECK_CU(T->cuGraphExecDestroy(eb), OK);
    CHECK(order_len == 0);
    CHECK_CU(T->cuGraphLaunch(ea, NULL), BAD); /* the handle is gone at once */
    CHECK_CU(T->cuGraphExecDestroy(ea), BAD);
    CHECK(cgn_fake_exec_launches(ea) == 0 && cgn_fake_exec_user_object_refs(ea, oa) == 0);
    CHECK(cgn_fake_in_flight(ea) == 1 && cgn_fake_in_flight(eb) == 2);
    CHECK(cgn_fake_live_objects() == 6); /* two executables, their snapshots, two objects */
    CHECK(cgn_fake_user_object_refs(oa) == 1 && cgn_fake_in_flight_user_object_refs(oa) == 1);
    CHECK(cgn_fake_in_flight_user_object_refs(ob) == 1);

    CHECK(cgn_fake_complete_launches(1) == 1); /* eb's first: eb still in flight */
    CHECK(order_len == 0 && cgn_fake_in_flight(eb) == 1);
    CHECK(cgn_fake_complete_launches(1) == 1);
    CHECK(strcmp(order_log, "a") == 0 && cgn_fake_user_object_refs(oa) == 0);
    CHECK(cgn_fake_live_objects() == 3);
    CHECK(cgn_fake_complete_pending() == 1);
    CHECK(strcmp(order_log, "ab") == 0);
    CHECK(cgn_fake_live_objects() == 0 && cgn_fake_in_flight(NULL) == 0);
    cgn_fake_hold_completion(0);
}

/* A host node updating or destroying the executable it runs in: updates are refused (the
 * driver forbids CUDA calls from callbacks, and they would free what is running); the
 * executable is freed after the launch, not during it. */
static CUgraphExec self_destroying_exec;
static CUgraph self_destroying_graph;
static CUgraphNode self_destroying_node; /* NULL: only destroy */

static void destroy_running_exec(void *tag)
{
    CUgraphExecUpdateResultInfo info;
    CUgraphNodeParams p;
    log_tag(tag);
    memset(&p, 0, sizeof p);
    p.type = CU_GRAPH_NODE_TYPE_HOST;
    p.host.fn = log_tag;
    p.host.userData = tag;
    if (self_destroying_node &&
        (T->cuGraphExecNodeSetParams(self_destroying_exec, self_destroying_node, &p) !=
             CUDA_ERROR_NOT_PERMITTED ||
         T->cuGraphExecUpdate(self_destroying_exec, self_destroying_graph, &info) !=
             CUDA_ERROR_NOT_PERMITTED))
        failures++;
    if (T->cuGraphExecDestroy(self_destroying_exec) != OK)
        failures++;
}

static void test_exec_destroyed_while_running(void)
{
    begin();
    clear_log();
    CUgraph g = NULL;
    CUgraphNode first = NULL;
    CHECK_CU(T->cuGraphCreate(&g, 0), OK);
    CUDA_HOST_NODE_PARAMS_v1 h = {destroy_running_exec, (void *)(uintptr_t) "d"};
    CHECK_CU(T->cuGraphAddHostNode(&first, g, NULL, 0, &h), OK);
    add_host(g, &first, 1, "e");
    retain_logged(g, "o");
    CHECK_CU(T->cuGraphCreate(&self_destroying_graph, 0), OK); /* any graph: refused first */
    self_destroying_exec = instantiate(g);
    self_destroying_node = first;
    clear_log();
    CHECK_CU(T->cuGraphLaunch(self_destroying_exec, NULL), OK);
    CHECK(strcmp(order_log, "de") == 0 && cgn_fake_live_objects() == 3); /* 2 graphs, 1 object */
    self_destroying_exec = instantiate(g);
    self_destroying_node = NULL;
    clear_log();
    CHECK_CU(T->cuGraphDestroy(g), OK);
    CHECK_CU(T->cuGraphLaunch(self_destroying_exec, NULL), OK);
    CHECK(strcmp(order_log, "deo") == 0 && cgn_fake_live_objects() == 1);
    CHECK_CU(T->cuGraphDestroy(self_destroying_graph), OK);
}

/* ---- cuGraphExecUpdate ----------------------------------------------------------------------- */

static void test_exec_update(void)
{
    begin();
    static const size_t sizes[] = {sizeof(void *), 4};
    CUfunction fill_f = cgn_fake_register_kernel("fill", 2, sizes, fill, NULL);
    unsigned out0 = 0, out1 = 0;
    unsigned char a[4] = {0}, b[4] = {0};
    CUgraphNode n0[3], n1[3], nx[3];
    CUgraph g0 = make_chain(fill_f, &out0, 10, a, 1, n0);
    CUgraphExec e = instantiate(g0);
    CUgraphExecUpdateResultInfo info;

    /* Success: the executable takes the new parameters. */
    CUgraph g1 = make_chain(fill_f, &out1, 11, b, 2, n1);
    memset(&info, 0xff, sizeof info);
    CHECK_CU(T->cuGraphExecUpdate(e, g1, &info), OK);
    CHECK_INFO(info, CU_GRAPH_EXEC_UPDATE_SUCCESS, NULL, NULL);
    clear_log();
    CHECK_CU(T->cuGraphLaunch(e, NULL), OK);
    CHECK(out0 == 0 && out1 == 11 && a[0] == 0 && b[0] == 2 && strcmp(order_log, "h") == 0);
    /* The executable still pairs with the nodes it was instantiated from, not g1's. */
    CUgraphNodeParams p = memset_update(a, 9, NULL);
    CHECK_CU(T->cuGraphExecNodeSetParams(e, n0[2], &p), OK);
    CHECK_CU(T->cuGraphExecNodeSetParams(e, n1[2], &p), BAD);
    unsigned int on = 0;
    CHECK_CU(T->cuGraphNodeGetEnabled(e, n0[1], &on), OK);
    CHECK_CU(T->cuGraphNodeGetEnabled(e, n1[1], &on), BAD);
    CUgraphNodeParams got;
    CHECK(cgn_fake_exec_node_params(e, n0[1], &got));
    CHECK(*(unsigned *)got.kernel.kernelParams[1] == 11);
    CHECK(cgn_fake_node_params(n0[1], &got) && *(unsigned *)got.kernel.kernelParams[1] == 10);
    CHECK_CU(T->cuGraphLaunch(e, NULL), OK);
    CHECK(a[0] == 9);
    /* The graph used for the update is the caller's to destroy. */
    CHECK_CU(T->cuGraphDestroy(g1), OK);
    CHECK_CU(T->cuGraphLaunch(e, NULL), OK);

    /* Node count differs: TOPOLOGY_CHANGED, no node. */
    CUgraph gx = make_chain(fill_f, &out1, 12, b, 3, nx);
    CUgraphNode extra = NULL;
    CHECK_CU(T->cuGraphAddEmptyNode(&extra, gx, NULL, 0), OK);
    CHECK_CU(T->cuGraphExecUpdate(e, gx, &info), CUDA_ERROR_GRAPH_EXEC_UPDATE_FAILURE);
    CHECK_INFO(info, CU_GRAPH_EXEC_UPDATE_ERROR_TOPOLOGY_CHANGED, NULL, NULL);
    CHECK_CU(T->cuGraphDestroy(gx), OK);

    /* A dependency differs: the node and the dependency that does not match. */
    CUgraph gd = NULL;
    CUgraphNode nd[3];
    CHECK_CU(T->cuGraphCreate(&gd, 0), OK);
    nd[0] = add_host(gd, NULL, 0, "h");
    unsigned *outp = &out1;
    unsigned v = 13;
    void *args[] = {&outp, &v};
    CUDA_KERNEL_NODE_PARAMS_v2 k = kernel_params(fill_f, NULL, args);
    CHECK_CU(T->cuGraphAddKernelNode(&nd[1], gd, NULL, 0, &k), OK);
    CUDA_MEMSET_NODE_PARAMS_v1 m = memset_params(b, 4, 1, 4);
    CHECK_CU(T->cuGraphAddMemsetNode(&nd[2], gd, &nd[0], 1, &m, NULL), OK);
    CHECK_CU(T->cuGraphExecUpdate(e, gd, &info), CUDA_ERROR_GRAPH_EXEC_UPDATE_FAILURE);
    CHECK_INFO(info, CU_GRAPH_EXEC_UPDATE_ERROR_TOPOLOGY_CHANGED, nd[1], NULL); /* 0 deps, not 1 */
    CHECK_CU(T->cuGraphDestroy(gd), OK);
    CHECK_CU(T->cuGraphCreate(&gd, 0), OK);
    nd[0] = add_host(gd, NULL, 0, "h");
    CHECK_CU(T->cuGraphAddKernelNode(&nd[1], gd, &nd[0], 1, &k), OK);
    CHECK_CU(T->cuGraphAddMemsetNode(&nd[2], gd, &nd[0], 1, &m, NULL), OK);
    CHECK_CU(T->cuGraphExecUpdate(e, gd, &info), CUDA_ERROR_GRAPH_EXEC_UPDATE_FAILURE);
    CHECK_INFO(info, CU_GRAPH_EXEC_UPDATE_ERROR_TOPOLOGY_CHANGED, nd[2], nd[0]);
    CHECK_CU(T->cuGraphDestroy(gd), OK);

    /* A node type differs. */
    CHECK_CU(T->cuGraphCreate(&gd, 0), OK);
    nd[0] = add_host(gd, NULL, 0, "h");
    CHECK_CU(T->cuGraphAddKernelNode(&nd[1], gd, &nd[0], 1, &k), OK);
    CHECK_CU(T->cuGraphAddEmptyNode(&nd[2], gd, &nd[1], 1), OK);
    CHECK_CU(T->cuGraphExecUpdate(e, gd, &info), CUDA_ERROR_GRAPH_EXEC_UPDATE_FAILURE);
    CHECK_INFO(info, CU_GRAPH_EXEC_UPDATE_ERROR_NODE_TYPE_CHANGED, nd[2], NULL);
    CHECK_CU(T->cuGraphDestroy(gd), OK);

    /* A kernel's function owned by another context. */
    CUfunction fill_c1 = cgn_fake_function_in_context(fill_f, cgn_fake_context(1));
    gx = make_chain(fill_c1, &out1, 14, b, 5, nx);
    CHECK_CU(T->cuGraphExecUpdate(e, gx, &info), CUDA_ERROR_GRAPH_EXEC_UPDATE_FAILURE);
    CHECK_INFO(info, CU_GRAPH_EXEC_UPDATE_ERROR_UNSUPPORTED_FUNCTION_CHANGE, nx[1], NULL);
    CHECK_CU(T->cuGraphDestroy(gx), OK);

    /* A 1-D memset made 2-D. */
    gx = make_chain(fill_f, &out1, 15, b, 6, nx);
    p = memset_update(b, 6, NULL);
    p.memset.width = 2;
    p.memset.height = 2;
    p.memset.pitch = 2;
    CHECK_CU(T->cuGraphNodeSetParams(nx[2], &p), OK);
    CHECK_CU(T->cuGraphExecUpdate(e, gx, &info), CUDA_ERROR_GRAPH_EXEC_UPDATE_FAILURE);
    CHECK_INFO(info, CU_GRAPH_EXEC_UPDATE_ERROR_PARAMETERS_CHANGED, nx[2], NULL);
    CHECK_CU(T->cuGraphDestroy(gx), OK);

    /* None of the failures changed the executable. */
    CHECK(cgn_fake_exec_node_params(e, n0[1], &got));
    CHECK(*(unsigned *)got.kernel.kernelParams[1] == 11);
    CHECK(cgn_fake_exec_node_params(e, n0[2], &got) && got.memset.value == 9);
    CHECK(got.memset.dst == (CUdeviceptr)(uintptr_t)a);

    /* Bad arguments. */
    CHECK_CU(T->cuGraphExecUpdate(e, g0, NULL), BAD);
    CHECK_CU(T->cuGraphExecUpdate(NULL, g0, &info), BAD);
    CHECK(info.result == CU_GRAPH_EXEC_UPDATE_ERROR);
    CHECK_CU(T->cuGraphExecUpdate(e, (CUgraph)a, &info), BAD);
    CHECK_CU(T->cuGraphExecUpdate(e, g0, &info), OK); /* back to the original */
    CHECK_CU(T->cuGraphLaunch(e, NULL), OK);
    CHECK(out0 == 10 && a[0] == 1);
    CHECK_CU(T->cuGraphExecDestroy(e), OK);
    CHECK_CU(T->cuGraphDestroy(g0), OK);
    CHECK(cgn_fake_live_objects() == 0);
}

/* Memcpy types, 2-D memsets and child graphs under cuGraphExecUpdate. */
static void test_exec_update_rules(void)
{
    begin();
    static unsigned char dev[16], host[16];
    cgn_fake_mark_device_memory(dev, sizeof dev);
    cgn_fake_mark_memory(host, sizeof host, CU_MEMORYTYPE_HOST);
    CUgraphExecUpdateResultInfo info;
    CUgraph g = NULL, g2 = NULL;
    CUgraphNode n = NULL, n2 = NULL;

    /* memcpy: the memory types stay. */
    CUDA_MEMCPY3D c = copy_1d(CU_MEMORYTYPE_DEVICE, dev, CU_MEMORYTYPE_HOST, host, 4);
    CHECK_CU(T->cuGraphCreate(&g, 0), OK);
    CHECK_CU(T->cuGraphAddMemcpyNode(&n, g, NULL, 0, &c, NULL), OK);
    CUgraphExec e = instantiate(g);
    c = copy_1d(CU_MEMORYTYPE_HOST, host + 8, CU_MEMORYTYPE_HOST, host, 4);
    CHECK_CU(T->cuGraphCreate(&g2, 0), OK);
    CHECK_CU(T->cuGraphAddMemcpyNode(&n2, g2, NULL, 0, &c, NULL), OK);
    CHECK_CU(T->cuGraphExecUpdate(e, g2, &info), CUDA_ERROR_GRAPH_EXEC_UPDATE_FAILURE);
    CHECK_INFO(info, CU_GRAPH_EXEC_UPDATE_ERROR_PARAMETERS_CHANGED, n2, NULL);
    c = copy_1d(CU_MEMORYTYPE_DEVICE, dev + 8, CU_MEMORYTYPE_HOST, host + 4, 4);
    CUgraphNodeParams p;
    memset(&p, 0, sizeof p);
    p.type = CU_GRAPH_NODE_TYPE_MEMCPY;
    p.memcpy.copyParams = c;
    CHECK_CU(T->cuGraphNodeSetParams(n2, &p), OK);
    CHECK_CU(T->cuGraphExecUpdate(e, g2, &info), OK);
    dev[8] = 0x42;
    CHECK_CU(T->cuGraphLaunch(e, NULL), OK);
    CHECK(host[4] == 0x42);
    CHECK_CU(T->cuGraphExecDestroy(e), OK);
    CHECK_CU(T->cuGraphDestroy(g), OK);
    CHECK_CU(T->cuGraphDestroy(g2), OK);

    /* 2-D memset: only dst and value may change. */
    CUDA_MEMSET_NODE_PARAMS_v1 m = memset_params(dev, 1, 1, 2);
    m.height = 2;
    m.pitch = 4;
    CHECK_CU(T->cuGraphCreate(&g, 0), OK);
    CHECK_CU(T->cuGraphAddMemsetNode(&n, g, NULL, 0, &m, NULL), OK);
    e = instantiate(g);
    CHECK_CU(T->cuGraphClone(&g2, g), OK);
    CHECK_CU(T->cuGraphNodeFindInClone(&n2, n, g2), OK);
    p = memset_update(dev + 8, 3, NULL);
    p.memset.width = 2;
    p.memset.height = 2;
    p.memset.pitch = 5;
    CHECK_CU(T->cuGraphNodeSetParams(n2, &p), OK);
    CHECK_CU(T->cuGraphExecUpdate(e, g2, &info), CUDA_ERROR_GRAPH_EXEC_UPDATE_FAILURE);
    CHECK_INFO(info, CU_GRAPH_EXEC_UPDATE_ERROR_PARAMETERS_CHANGED, n2, NULL);
    p.memset.pitch = 4;
    CHECK_CU(T->cuGraphNodeSetParams(n2, &p), OK);
    CHECK_CU(T->cuGraphExecUpdate(e, g2, &info), OK);
    memset(dev, 0, sizeof dev);
    CHECK_CU(T->cuGraphLaunch(e, NULL), OK);
    CHECK(dev[0] == 0 && dev[8] == 3 && dev[9] == 3 && dev[10] == 0 && dev[12] == 3);
    CHECK_CU(T->cuGraphExecDestroy(e), OK);
    CHECK_CU(T->cuGraphDestroy(g), OK);
    CHECK_CU(T->cuGraphDestroy(g2), OK);

    /* Child graphs are compared recursively. */
    CUgraph child = NULL, parent = NULL, child2 = NULL, parent2 = NULL;
    CUgraphNode cn = NULL, cn2 = NULL, inner[3];
    CHECK_CU(T->cuGraphCreate(&child, 0), OK);
    inner[0] = add_host(child, NULL, 0, "a");
    add_host(child, &inner[0], 1, "b");
    CHECK_CU(T->cuGraphCreate(&parent, 0), OK);
    CHECK_CU(T->cuGraphAddChildGraphNode(&cn, parent, NULL, 0, child), OK);
    e = instantiate(parent);
    CHECK_CU(T->cuGraphCreate(&child2, 0), OK);
    inner[0] = add_host(child2, NULL, 0, "c");
    add_host(child2, &inner[0], 1, "d");
    add_host(child2, NULL, 0, "e");
    CHECK_CU(T->cuGraphCreate(&parent2, 0), OK);
    CHECK_CU(T->cuGraphAddChildGraphNode(&cn2, parent2, NULL, 0, child2), OK);
    CHECK_CU(T->cuGraphExecUpdate(e, parent2, &info), CUDA_ERROR_GRAPH_EXEC_UPDATE_FAILURE);
    CHECK_INFO(info, CU_GRAPH_EXEC_UPDATE_ERROR_TOPOLOGY_CHANGED, cn2, NULL);
    CHECK_CU(T->cuGraphDestroy(parent2), OK);
    CHECK_CU(T->cuGraphDestroy(child2), OK);
    /* Same shape, an inner node of another type: the embedded graph's node is reported. */
    CHECK_CU(T->cuGraphCreate(&child2, 0), OK);
    inner[0] = add_host(child2, NULL, 0, "c");
    CHECK_CU(T->cuGraphAddEmptyNode(&inner[1], child2, &inner[0], 1), OK);
    CHECK_CU(T->cuGraphCreate(&parent2, 0), OK);
    CHECK_CU(T->cuGraphAddChildGraphNode(&cn2, parent2, NULL, 0, child2), OK);
    CUgraph embedded = NULL;
    CUgraphNode emb[2];
    size_t num = 2;
    CHECK_CU(T->cuGraphChildGraphNodeGetGraph(cn2, &embedded), OK);
    CHECK_CU(T->cuGraphGetNodes(embedded, emb, &num), OK);
    CHECK_CU(T->cuGraphExecUpdate(e, parent2, &info), CUDA_ERROR_GRAPH_EXEC_UPDATE_FAILURE);
    CHECK_INFO(info, CU_GRAPH_EXEC_UPDATE_ERROR_NODE_TYPE_CHANGED, emb[1], NULL);
    CHECK_CU(T->cuGraphDestroy(parent2), OK);
    CHECK_CU(T->cuGraphDestroy(child2), OK);
    /* Identical: the new child's nodes run. */
    CHECK_CU(T->cuGraphCreate(&child2, 0), OK);
    inner[0] = add_host(child2, NULL, 0, "c");
    add_host(child2, &inner[0], 1, "d");
    CHECK_CU(T->cuGraphCreate(&parent2, 0), OK);
    CHECK_CU(T->cuGraphAddChildGraphNode(&cn2, parent2, NULL, 0, child2), OK);
    CHECK_CU(T->cuGraphExecUpdate(e, parent2, &info), OK);
    clear_log();
    CHECK_CU(T->cuGraphLaunch(e, NULL), OK);
    CHECK(strcmp(order_log, "cd") == 0);
    CHECK_CU(T->cuGraphExecDestroy(e), OK);
    CHECK_CU(T->cuGraphDestroy(parent2), OK);
    CHECK_CU(T->cuGraphDestroy(child2), OK);
    CHECK_CU(T->cuGraphDestroy(parent), OK);
    CHECK_CU(T->cuGraphDestroy(child), OK);
    CHECK(cgn_fake_live_objects() == 0);
}

/* User-object references across cuGraphExecUpdate, in both modes and in flight. */
static void test_exec_update_refs(void)
{
    begin();
    clear_log();
    CUgraph g_old = NULL, g_new = NULL, g_none = NULL;
    CUgraphNode n = NULL;
    CUgraphExecUpdateResultInfo info;
    CHECK_CU(T->cuGraphCreate(&g_old, 0), OK);
    CHECK_CU(T->cuGraphCreate(&g_new, 0), OK);
    CHECK_CU(T->cuGraphCreate(&g_none, 0), OK);
    CHECK_CU(T->cuGraphAddEmptyNode(&n, g_old, NULL, 0), OK);
    CHECK_CU(T->cuGraphAddEmptyNode(&n, g_new, NULL, 0), OK);
    CHECK_CU(T->cuGraphAddEmptyNode(&n, g_none, NULL, 0), OK);
    CUuserObject o_old = retain_logged(g_old, "o"), o_new = retain_logged(g_new, "n");
    CUgraphExec e = instantiate(g_old);
    CHECK(cgn_fake_exec_user_object_refs(e, o_old) == 1 && cgn_fake_user_object_refs(o_old) == 2);
    CHECK_CU(T->cuGraphDestroy(g_old), OK);

    /* Mode COPY (the default): the old references go, copies of the new graph's come. */
    CHECK_CU(T->cuGraphExecUpdate(e, g_new, &info), OK);
    CHECK(strcmp(order_log, "o") == 0);
    CHECK(cgn_fake_exec_user_object_refs(e, o_new) == 1 && cgn_fake_user_object_refs(o_new) == 2);

    /* Mode DROP: the old go, none come. */
    cgn_fake_set_exec_update_refs(CGN_FAKE_EXEC_UPDATE_REFS_DROP);
    CUgraphExec e2 = instantiate(g_new);
    CHECK(cgn_fake_user_object_refs(o_new) == 3);
    CHECK_CU(T->cuGraphExecUpdate(e2, g_new, &info), OK);
    CHECK(cgn_fake_exec_user_object_refs(e2, o_new) == 0 && cgn_fake_user_object_refs(o_new) == 2);
    CHECK_CU(T->cuGraphExecDestroy(e2), OK);
    cgn_fake_set_exec_update_refs(CGN_FAKE_EXEC_UPDATE_REFS_COPY);

    /* In flight, the old references are dropped when the launch completes. */
    cgn_fake_hold_completion(1);
    CHECK_CU(T->cuGraphLaunch(e, NULL), OK);
    CHECK_CU(T->cuGraphExecUpdate(e, g_none, &info), OK);
    CHECK(cgn_fake_exec_user_object_refs(e, o_new) == 0);
    CHECK(cgn_fake_in_flight_user_object_refs(o_new) == 1 && cgn_fake_user_object_refs(o_new) == 2);
    CHECK_CU(T->cuGraphDestroy(g_new), OK);
    CHECK(cgn_fake_user_object_refs(o_new) == 1 && strcmp(order_log, "o") == 0);
    CHECK(cgn_fake_complete_pending() == 1);
    CHECK(strcmp(order_log, "on") == 0);

    /* Embedded graphs' references count as the executable's too, and are given up in flight
     * both by cuGraphExecUpdate and by replacing the child graph (cuGraphExecNodeSetParams). */
    CUgraph child = NULL, parent = NULL, parent2 = NULL, child_copy = NULL;
    CUgraphNode cn = NULL;
    CHECK_CU(T->cuGraphCreate(&child, 0), OK);
    CHECK_CU(T->cuGraphAddEmptyNode(&n, child, NULL, 0), OK);
    CHECK_CU(T->cuGraphClone(&child_copy, child), OK); /* same shape, no references */
    CUuserObject o_child = retain_logged(child, "c");
    CHECK_CU(T->cuGraphCreate(&parent, 0), OK);
    CHECK_CU(T->cuGraphAddChildGraphNode(&cn, parent, NULL, 0, child), OK);
    CUgraphExec ep = instantiate(parent), eq = instantiate(parent);
    CHECK(cgn_fake_exec_user_object_refs(ep, o_child) == 1);
    CHECK_CU(T->cuGraphDestroy(parent), OK);
    CHECK_CU(T->cuGraphDestroy(child), OK);
    CHECK(cgn_fake_user_object_refs(o_child) == 2); /* ep's and eq's */
    CHECK_CU(T->cuGraphCreate(&parent2, 0), OK);
    CHECK_CU(T->cuGraphAddChildGraphNode(&n, parent2, NULL, 0, child_copy), OK);
    CHECK_CU(T->cuGraphLaunch(ep, NULL), OK);
    CHECK_CU(T->cuGraphLaunch(eq, NULL), OK);
    CHECK_CU(T->cuGraphExecUpdate(ep, parent2, &info), OK);
    CUgraphNodeParams p = child_update(child_copy);
    CHECK_CU(T->cuGraphExecNodeSetParams(eq, cn, &p), BAD); /* cn was destroyed with parent */
    CHECK_CU(T->cuGraphExecDestroy(eq), OK);                  /* in flight: kept */
    CHECK(cgn_fake_exec_user_object_refs(ep, o_child) == 0);
    CHECK(cgn_fake_in_flight_user_object_refs(o_child) == 2 && strcmp(order_log, "on") == 0);
    CHECK(cgn_fake_complete_launches(1) == 1);
    CHECK(cgn_fake_user_object_refs(o_child) == 1 && strcmp(order_log, "on") == 0);
    CHECK(cgn_fake_complete_pending() == 1);
    CHECK(strcmp(order_log, "onc") == 0);

    CHECK_CU(T->cuGraphCreate(&child, 0), OK);
    CHECK_CU(T->cuGraphAddEmptyNode(&n, child, NULL, 0), OK);
    o_child = retain_logged(child, "d");
    CHECK_CU(T->cuGraphCreate(&parent, 0), OK);
    CHECK_CU(T->cuGraphAddChildGraphNode(&cn, parent, NULL, 0, child), OK);
    CHECK_CU(T->cuGraphDestroy(child), OK);
    eq = instantiate(parent);
    CHECK_CU(T->cuGraphLaunch(eq, NULL), OK);
    CHECK_CU(T->cuGraphExecNodeSetParams(eq, cn, &p), OK);
    CHECK(cgn_fake_exec_user_object_refs(eq, o_child) == 0);
    CHECK(cgn_fake_in_flight_user_object_refs(o_child) == 1);
    CHECK_CU(T->cuGraphDestroy(parent), OK);
    CHECK(cgn_fake_user_object_refs(o_child) == 1 && strcmp(order_log, "onc") == 0);
    CHECK(cgn_fake_complete_pending() == 1);
    CHECK(strcmp(order_log, "oncd") == 0);

    cgn_fake_hold_completion(0);
    CHECK_CU(T->cuGraphExecDestroy(eq), OK);
    CHECK_CU(T->cuGraphExecDestroy(ep), OK);
    CHECK_CU(T->cuGraphExecDestroy(e), OK);
    CHECK_CU(T->cuGraphDestroy(parent2), OK);
    CHECK_CU(T->cuGraphDestroy(child_copy), OK);
    CHECK_CU(T->cuGraphDestroy(g_none), OK);
    CHECK(cgn_fake_live_objects() == 0);
}

/* ---- enable/disable, executable-node rules, crash-prone calls -------------------------------- */

static void test_enable(void)
{
    begin();
    static const size_t one_ptr[] = {sizeof(void *)};
    CUfunction add_f = cgn_fake_register_kernel("add_one", 1, one_ptr, add_one, NULL);
    static unsigned char dev[8], host[8];
    cgn_fake_mark_device_memory(dev, sizeof dev);
    int x = 0;
    int *xp = &x;
    void *args[] = {&xp};
    CUgraph g = NULL;
    CUgraphNode kn = NULL, ms = NULL, cp = NULL, hn = NULL, en = NULL, late = NULL;
    CHECK_CU(T->cuGraphCreate(&g, 0), OK);
    CUDA_KERNEL_NODE_PARAMS_v2 k = kernel_params(add_f, NULL, args);
    CHECK_CU(T->cuGraphAddKernelNode(&kn, g, NULL, 0, &k), OK);
    CUDA_MEMSET_NODE_PARAMS_v1 m = memset_params(dev, 5, 1, 4);
    CHECK_CU(T->cuGraphAddMemsetNode(&ms, g, &kn, 1, &m, NULL), OK);
    CUDA_MEMCPY3D c = copy_1d(CU_MEMORYTYPE_DEVICE, dev, CU_MEMORYTYPE_HOST, host, 4);
    CHECK_CU(T->cuGraphAddMemcpyNode(&cp, g, &ms, 1, &c, NULL), OK);
    hn = add_host(g, &cp, 1, "h");
    CHECK_CU(T->cuGraphAddEmptyNode(&en, g, NULL, 0), OK);
    CUgraphExec e = instantiate(g);

    unsigned int on = 7;
    CHECK_CU(T->cuGraphNodeGetEnabled(e, kn, &on), OK);
    CHECK(on == 1);
    CHECK_CU(T->cuGraphNodeSetEnabled(e, kn, 0), OK);
    CHECK_CU(T->cuGraphNodeSetEnabled(e, ms, 0), OK);
    CHECK_CU(T->cuGraphNodeSetEnabled(e, cp, 0), OK);
    CHECK_CU(T->cuGraphNodeGetEnabled(e, kn, &on), OK);
    CHECK(on == 0);
    /* Other node types, nodes not in the executable and bad arguments are refused. */
    CHECK_CU(T->cuGraphNodeSetEnabled(e, hn, 0), BAD);
    CHECK_CU(T->cuGraphNodeGetEnabled(e, hn, &on), BAD);
    CHECK_CU(T->cuGraphNodeSetEnabled(e, en, 0), BAD);
    CHECK_CU(T->cuGraphAddEmptyNode(&late, g, NULL, 0), OK);
    CHECK_CU(T->cuGraphNodeSetEnabled(e, late, 1), BAD);
    CHECK_CU(T->cuGraphNodeGetEnabled(e, kn, NULL), BAD);
    CHECK_CU(T->cuGraphNodeSetEnabled(NULL, kn, 1), BAD);
    CHECK_CU(T->cuGraphDestroyNode(late), OK);

    /* Disabled nodes do nothing; the rest runs. */
    clear_log();
    CHECK_CU(T->cuGraphLaunch(e, NULL), OK);
    CHECK(x == 0 && dev[0] == 0 && host[0] == 0 && strcmp(order_log, "h") == 0);
    CHECK_CU(T->cuGraphNodeSetEnabled(e, ms, 1), OK);
    CHECK_CU(T->cuGraphLaunch(e, NULL), OK);
    CHECK(x == 0 && dev[0] == 5 && host[0] == 0);
    /* The enabled state is the executable's: it survives parameter updates and
     * cuGraphExecUpdate. */
    CUgraph clone = NULL;
    CUgraphExecUpdateResultInfo info;
    CHECK_CU(T->cuGraphClone(&clone, g), OK);
    CHECK_CU(T->cuGraphExecUpdate(e, clone, &info), OK);
    CHECK_CU(T->cuGraphNodeGetEnabled(e, kn, &on), OK);
    CHECK(on == 0);
    CHECK_CU(T->cuGraphLaunch(e, NULL), OK);
    CHECK(x == 0);
    CHECK_CU(T->cuGraphNodeSetEnabled(e, kn, 1), OK);
    CHECK_CU(T->cuGraphNodeSetEnabled(e, cp, 2), OK);
    CHECK_CU(T->cuGraphLaunch(e, NULL), OK);
    CHECK(x == 1 && host[0] == 5);
    /* Another executable of the same graph has its own state. */
    CUgraphExec e2 = instantiate(g);
    CHECK_CU(T->cuGraphNodeSetEnabled(e2, kn, 0), OK);
    CHECK_CU(T->cuGraphNodeGetEnabled(e, kn, &on), OK);
    CHECK(on == 1);
    CHECK_CU(T->cuGraphExecDestroy(e2), OK);
    CHECK_CU(T->cuGraphExecDestroy(e), OK);
    CHECK_CU(T->cuGraphDestroy(clone), OK);
    CHECK_CU(T->cuGraphDestroy(g), OK);
}

/* cuGraphExecNodeSetParams refuses what the driver refuses, and changes nothing then. */
static void test_exec_set_params_rules(void)
{
    begin();
    static unsigned char dev[32], host[8];
    cgn_fake_mark_device_memory(dev, sizeof dev);
    CUcontext c0 = cgn_fake_context(0), c1 = cgn_fake_context(1), c2 = cgn_fake_context(2);
    static const size_t one_ptr[] = {sizeof(void *)};
    CUfunction f = cgn_fake_register_kernel("add_one", 1, one_ptr, add_one, NULL);
    int x = 0;
    int *xp = &x;
    void *args[] = {&xp};
    CUgraph g = NULL, child = NULL, bigger = NULL, other_type = NULL;
    CUgraphNode m1 = NULL, m2 = NULL, cp = NULL, kn = NULL, cn = NULL, tmp = NULL;
    CHECK_CU(T->cuGraphCreate(&g, 0), OK);
    CUDA_MEMSET_NODE_PARAMS_v1 m = memset_params(dev, 1, 1, 4);
    CHECK_CU(T->cuGraphAddMemsetNode(&m1, g, NULL, 0, &m, NULL), OK);
    m = memset_params(dev + 8, 2, 1, 2);
    m.height = 2;
    m.pitch = 4;
    CHECK_CU(T->cuGraphAddMemsetNode(&m2, g, NULL, 0, &m, NULL), OK);
    CUDA_MEMCPY3D c = copy_1d(CU_MEMORYTYPE_DEVICE, dev, CU_MEMORYTYPE_HOST, host, 4);
    CHECK_CU(T->cuGraphAddMemcpyNode(&cp, g, NULL, 0, &c, NULL), OK);
    CUDA_KERNEL_NODE_PARAMS_v2 k = kernel_params(f, NULL, args);
    CHECK_CU(T->cuGraphAddKernelNode(&kn, g, NULL, 0, &k), OK);
    CHECK_CU(T->cuGraphCreate(&child, 0), OK);
    tmp = add_host(child, NULL, 0, "a");
    CHECK_CU(T->cuGraphAddChildGraphNode(&cn, g, NULL, 0, child), OK);
    CUgraphExec e = instantiate(g);
    CUgraphNodeParams p, got;

    /* 1-D memset: dimensions may change, but it stays 1-D. */
    p = memset_update(dev + 16, 3, NULL);
    p.memset.width = 2;
    CHECK_CU(T->cuGraphExecNodeSetParams(e, m1, &p), OK);
    p.memset.height = 2;
    p.memset.pitch = 4;
    CHECK_CU(T->cuGraphExecNodeSetParams(e, m1, &p), BAD);
    CHECK(cgn_fake_exec_node_params(e, m1, &got));
    CHECK(got.memset.height == 1 && got.memset.width == 2);
    /* 2-D memset: only dst and value. */
    p = memset_update(dev + 16, 4, NULL);
    p.memset.width = 2;
    p.memset.height = 2;
    p.memset.pitch = 4;
    CHECK_CU(T->cuGraphExecNodeSetParams(e, m2, &p), OK);
    p.memset.pitch = 8;
    CHECK_CU(T->cuGraphExecNodeSetParams(e, m2, &p), BAD);
    p.memset.pitch = 4;
    p.memset.width = 1;
    CHECK_CU(T->cuGraphExecNodeSetParams(e, m2, &p), BAD);
    p.memset.width = 2;
    p.memset.height = 3;
    CHECK_CU(T->cuGraphExecNodeSetParams(e, m2, &p), BAD);
    p.memset.height = 2;
    p.memset.elementSize = 2;
    p.memset.width = 1;
    CHECK_CU(T->cuGraphExecNodeSetParams(e, m2, &p), BAD);
    CHECK(cgn_fake_exec_node_params(e, m2, &got) && got.memset.value == 4 && got.memset.pitch == 4);
    CHECK(got.memset.elementSize == 1 && got.memset.width == 2);

    /* memcpy: the memory types stay. */
    memset(&p, 0, sizeof p);
    p.type = CU_GRAPH_NODE_TYPE_MEMCPY;
    p.memcpy.copyParams = copy_1d(CU_MEMORYTYPE_DEVICE, dev + 4, CU_MEMORYTYPE_HOST, host + 4, 4);
    CHECK_CU(T->cuGraphExecNodeSetParams(e, cp, &p), OK);
    p.memcpy.copyParams = copy_1d(CU_MEMORYTYPE_DEVICE, dev + 4, CU_MEMORYTYPE_DEVICE, dev, 4);
    CHECK_CU(T->cuGraphExecNodeSetParams(e, cp, &p), BAD);
    p.memcpy.copyParams = copy_1d(CU_MEMORYTYPE_UNIFIED, dev + 4, CU_MEMORYTYPE_HOST, host, 4);
    CHECK_CU(T->cuGraphExecNodeSetParams(e, cp, &p), BAD);
    CHECK(cgn_fake_exec_node_params(e, cp, &got) && got.memcpy.copyParams.dstHost == host + 4);

    /* kernel: the context stays. */
    p = kernel_update(cgn_fake_function_in_context(f, c1), NULL, NULL, args);
    CHECK_CU(T->cuGraphExecNodeSetParams(e, kn, &p), BAD);
    p = kernel_update(NULL, cgn_fake_kernel_of(f), c2, args);
    CHECK_CU(T->cuGraphExecNodeSetParams(e, kn, &p), BAD);
    p = kernel_update(NULL, cgn_fake_kernel_of(f), NULL, args); /* the current one: c0 */
    CHECK_CU(T->cuGraphExecNodeSetParams(e, kn, &p), OK);
    p = kernel_update(NULL, cgn_fake_kernel_of(f), c0, args);
    CHECK_CU(T->cuGraphExecNodeSetParams(e, kn, &p), OK);
    /* The definition itself may move to another context. */
    p = kernel_update(cgn_fake_function_in_context(f, c1), NULL, NULL, args);
    CHECK_CU(T->cuGraphNodeSetParams(kn, &p), OK);
    CHECK(cgn_fake_node_context(kn) == c1);

    /* child graph: only a topologically identical graph. */
    CHECK_CU(T->cuGraphCreate(&bigger, 0), OK);
    tmp = add_host(bigger, NULL, 0, "b");
    add_host(bigger, &tmp, 1, "c");
    p = child_update(bigger);
    CHECK_CU(T->cuGraphExecNodeSetParams(e, cn, &p), BAD);
    CHECK_CU(T->cuGraphCreate(&other_type, 0), OK);
    CHECK_CU(T->cuGraphAddEmptyNode(&tmp, other_type, NULL, 0), OK);
    p = child_update(other_type);
    CHECK_CU(T->cuGraphExecNodeSetParams(e, cn, &p), BAD);
    clear_log();
    CHECK_CU(T->cuGraphLaunch(e, NULL), OK);
    CHECK(strcmp(order_log, "a") == 0 && x == 1);
    CHECK_CU(T->cuGraphDestroyNode(tmp), OK);
    add_host(other_type, NULL, 0, "z");
    p = child_update(other_type);
    CHECK_CU(T->cuGraphExecNodeSetParams(e, cn, &p), OK);
    clear_log();
    CHECK_CU(T->cuGraphLaunch(e, NULL), OK);
    CHECK(strcmp(order_log, "z") == 0 && x == 2);

    CHECK_CU(T->cuGraphExecDestroy(e), OK);
    CHECK_CU(T->cuGraphDestroy(g), OK);
    CHECK_CU(T->cuGraphDestroy(child), OK);
    CHECK_CU(T->cuGraphDestroy(bigger), OK);
    CHECK_CU(T->cuGraphDestroy(other_type), OK);
    CHECK(cgn_fake_live_objects() == 0);
}

static void test_crash_prone_calls(void)
{
    begin();
    CUcontext c0 = cgn_fake_context(0), c1 = cgn_fake_context(1);
    static const size_t one_ptr[] = {sizeof(void *)};
    CUfunction f0 = cgn_fake_register_kernel("add_one", 1, one_ptr, add_one, NULL);
    CUfunction f1 = cgn_fake_function_in_context(f0, c1);
    int x = 0;
    int *xp = &x;
    void *args[] = {&xp};
    CUgraph g = NULL;
    CUgraphNode kn = NULL, n = NULL;
    CHECK_CU(T->cuGraphCreate(&g, 0), OK);
    CUDA_KERNEL_NODE_PARAMS_v2 k = kernel_params(f0, NULL, args);
    CHECK_CU(T->cuGraphAddKernelNode(&kn, g, NULL, 0, &k), OK);
    CUgraphExec e = instantiate(g);
    CHECK(cgn_fake_crash_prone_calls() == 0);

    /* No context current, a function of another context than the node's: the real driver
     * segfaults; the fake refuses, counts, and changes nothing. */
    cgn_fake_set_current_context(NULL);
    CUgraphNodeParams p = kernel_update(f1, NULL, NULL, args), got;
    CHECK_CU(T->cuGraphExecNodeSetParams(e, kn, &p), CUDA_ERROR_UNKNOWN);
    CHECK(cgn_fake_crash_prone_calls() == 1);
    CHECK(cgn_fake_exec_node_params(e, kn, &got) && got.kernel.func == f0);
    CHECK_CU(T->cuGraphNodeSetParams(kn, &p), CUDA_ERROR_UNKNOWN);
    CHECK(cgn_fake_crash_prone_calls() == 2 && cgn_fake_node_context(kn) == c0);
    k = kernel_params(f1, NULL, args);
    k.ctx = c0;
    CHECK_CU(T->cuGraphAddKernelNode(&n, g, NULL, 0, &k), CUDA_ERROR_UNKNOWN);
    CHECK(cgn_fake_crash_prone_calls() == 3 && cgn_fake_graph_node_count(g) == 1);
    /* Crash-prone too (the H200's context probe): an update to the node's own function, still
     * with no context current, at either level. */
    p = kernel_update(f0, NULL, NULL, args);
    CHECK_CU(T->cuGraphExecNodeSetParams(e, kn, &p), CUDA_ERROR_UNKNOWN);
    CHECK_CU(T->cuGraphNodeSetParams(kn, &p), CUDA_ERROR_UNKNOWN);
    CHECK(cgn_fake_crash_prone_calls() == 5);
    /* Not crash-prone: an add that names no other context. */
    k.ctx = NULL;
    CHECK_CU(T->cuGraphAddKernelNode(&n, g, NULL, 0, &k), OK);
    CHECK(cgn_fake_node_context(n) == c1);
    /* The node's own function with its context current: an ordinary update. */
    cgn_fake_set_current_context(c0);
    CHECK_CU(T->cuGraphExecNodeSetParams(e, kn, &p), OK);
    /* With a context current the same change is an ordinary refusal (executable) or allowed
     * (definition). */
    cgn_fake_set_current_context(c0);
    p = kernel_update(f1, NULL, NULL, args);
    CHECK_CU(T->cuGraphExecNodeSetParams(e, kn, &p), BAD);
    CHECK_CU(T->cuGraphNodeSetParams(kn, &p), OK);
    CHECK(cgn_fake_crash_prone_calls() == 5 && cgn_fake_node_context(kn) == c1);
    CHECK_CU(T->cuGraphExecDestroy(e), OK);
    CHECK_CU(T->cuGraphDestroy(g), OK);
    cgn_fake_reset();
    CHECK(cgn_fake_crash_prone_calls() == 0);
}

/* ---- threads --------------------------------------------------------------------------------- */

enum { WORKERS = 4, ROUNDS = 40 };

typedef struct worker {
    int index;
    int errors;           /* written by the worker thread only */
    int destroyed;        /* destructor runs of this worker's objects; written by destructors */
    int callback_errors;  /* written by destructors only */
    int host_runs;  /* host node runs */
    unsigned char buf[8];
} worker;

static atomic_int workers_done;

static void worker_destroy(void *p)
{
    /* Runs with the fake's lock held, possibly on another thread (the completer): the lock
     * orders it. It may call back into the fake. */
    worker *w = p;
    CUgraph g = NULL;
    w->destroyed++;
    if (T->cuGraphCreate(&g, 0) != OK || T->cuGraphDestroy(g) != OK)
        w->callback_errors++;
    w->callback_errors += cgn_fake_in_driver_callback() != 1;
}

static void worker_host(void *p)
{
    ((worker *)p)->host_runs++;
}

static void *work(void *arg)
{
    worker *w = arg;
    CUcontext ctx = cgn_fake_context(w->index % 4);
    cgn_fake_set_current_context(ctx);
    for (int r = 0; r < ROUNDS; r++) {
        CUgraph g = NULL;
        CUgraphNode ms = NULL, hn = NULL;
        CUgraphExec e = NULL;
        CUuserObject o = NULL;
        CUDA_MEMSET_NODE_PARAMS_v1 m = memset_params(w->buf, (unsigned)r, 1, 8);
        CUDA_HOST_NODE_PARAMS_v1 h = {worker_host, w};
        CUgraphExecUpdateResultInfo info;
        size_t num = 0;
        w->errors += T->cuGraphCreate(&g, 0) != OK;
        w->errors += T->cuUserObjectCreate(&o, w, worker_destroy, 1,
                                           CU_USER_OBJECT_NO_DESTRUCTOR_SYNC) != OK;
        w->errors += T->cuGraphRetainUserObject(g, o, 1, CU_GRAPH_USER_OBJECT_MOVE) != OK;
        w->errors += T->cuGraphAddMemsetNode(&ms, g, NULL, 0, &m, NULL) != OK;
        w->errors += T->cuGraphAddHostNode(&hn, g, &ms, 1, &h) != OK;
        w->errors += cgn_fake_node_context(ms) != ctx;
        w->errors += T->cuGraphInstantiateWithFlags(&e, g, 0) != OK;
        w->errors += T->cuGraphLaunch(e, NULL) != OK;
        CUgraphNodeParams p = memset_update(w->buf, 0xee, NULL);
        w->errors += T->cuGraphExecNodeSetParams(e, ms, &p) != OK;
        w->errors += T->cuGraphExecUpdate(e, g, &info) != OK;
        w->errors += T->cuGraphLaunch(e, NULL) != OK;
        w->errors += T->cuGraphGetNodes(g, NULL, &num) != OK || num != 2;
        w->errors += T->cuGraphExecDestroy(e) != OK;
        w->errors += T->cuGraphDestroy(g) != OK;
    }
    atomic_fetch_add(&workers_done, 1);
    return NULL;
}

static void *complete_until_done(void *arg)
{
    (void)arg;
    while (atomic_load(&workers_done) < WORKERS)
        cgn_fake_complete_pending();
    return NULL;
}

/* Several threads drive the fake at once, while another completes held launches: every call
 * is serialized (ThreadSanitizer builds check it), destructors call back in. */
static void test_threads(void)
{
    begin();
    static worker w[WORKERS];
    pthread_t t[WORKERS], completer;
    memset(w, 0, sizeof w);
    atomic_store(&workers_done, 0);
    cgn_fake_hold_completion(1);
    int started = 0;
    for (int i = 0; i < WORKERS; i++) {
        w[i].index = i;
        started += pthread_create(&t[i], NULL, work, &w[i]) == 0;
    }
    CHECK(started == WORKERS);
    int completer_started = pthread_create(&completer, NULL, complete_until_done, NULL) == 0;
    CHECK(completer_started);
    for (int i = 0; i < started; i++)
        pthread_join(t[i], NULL);
    if (completer_started)
        pthread_join(completer, NULL);
    cgn_fake_complete_pending();
    cgn_fake_hold_completion(0);
    for (int i = 0; i < WORKERS; i++) {
        CHECK(w[i].errors == 0 && w[i].callback_errors == 0);
        CHECK(w[i].destroyed == ROUNDS && w[i].host_runs == 2 * ROUNDS);
        CHECK(w[i].buf[0] == ROUNDS - 1); /* the update put the graph's value back */
    }
    CHECK(cgn_fake_live_objects() == 0 && cgn_fake_in_flight(NULL) == 0);
}

/* Graphs "built elsewhere": arguments packed through `extra` come back in that form; edges in
 * one list; memory allocation and free nodes through the generic adder, their parameters not
 * settable; a CUkernel's function in the current context. */
static void test_built_elsewhere(void)
{
    begin();
    static const size_t sizes[] = {sizeof(void *), 4};
    CUfunction fill_f = cgn_fake_register_kernel("fill", 2, sizes, fill, NULL);
    unsigned out = 0;
    struct {
        unsigned *p;
        unsigned v;
    } packed = {&out, 5};
    size_t size = sizeof packed;
    void *extra[] = {CU_LAUNCH_PARAM_BUFFER_POINTER, &packed, CU_LAUNCH_PARAM_BUFFER_SIZE, &size,
                     CU_LAUNCH_PARAM_END};
    CUgraph g = NULL;
    CUgraphNode k = NULL, a = NULL, f = NULL;
    CHECK_CU(T->cuGraphCreate(&g, 0), OK);
    CUDA_KERNEL_NODE_PARAMS_v2 kp;
    memset(&kp, 0, sizeof kp);
    kp.func = fill_f;
    kp.gridDimX = kp.gridDimY = kp.gridDimZ = kp.blockDimX = kp.blockDimY = kp.blockDimZ = 1;
    kp.extra = extra;
    CHECK_CU(T->cuGraphAddKernelNode(&k, g, NULL, 0, &kp), OK);
    size_t small = 4;
    void *too_small[] = {CU_LAUNCH_PARAM_BUFFER_POINTER, &packed, CU_LAUNCH_PARAM_BUFFER_SIZE,
                         &small, CU_LAUNCH_PARAM_END};
    kp.extra = too_small;
    CUgraphNode bad = NULL;
    CHECK_CU(T->cuGraphAddKernelNode(&bad, g, NULL, 0, &kp), BAD);
    packed.v = 9; /* copied at add: the node keeps 5 */
    CUDA_KERNEL_NODE_PARAMS_v2 got;
    memset(&got, 0, sizeof got);
    CHECK_CU(T->cuGraphKernelNodeGetParams(k, &got), OK);
    CHECK(got.kernelParams == NULL && got.extra != NULL);
    CHECK(got.extra[0] == CU_LAUNCH_PARAM_BUFFER_POINTER && got.extra[4] == CU_LAUNCH_PARAM_END);
    CHECK(*(const size_t *)got.extra[3] >= 12);
    unsigned value = 0;
    memcpy(&value, (const unsigned char *)got.extra[1] + 8, sizeof value);
    CHECK(value == 5);
    CUgraphNodeParams p;
    memset(&p, 0, sizeof p);
    p.type = CU_GRAPH_NODE_TYPE_MEM_ALLOC;
    CHECK_CU(T->cuGraphAddNode(&a, g, &k, 1, &p), BAD); /* no size */
    p.alloc.bytesize = 64;
    CHECK_CU(T->cuGraphAddNode(&a, g, &k, 1, &p), OK);
    CHECK(p.alloc.dptr != 0);
    CUdeviceptr dptr = p.alloc.dptr;
    memset(&p, 0, sizeof p);
    p.type = CU_GRAPH_NODE_TYPE_MEM_FREE;
    p.free.dptr = dptr;
    CHECK_CU(T->cuGraphAddNode(&f, g, &a, 1, &p), OK);
    CHECK_CU(T->cuGraphNodeSetParams(f, &p), CUDA_ERROR_NOT_SUPPORTED);
    CUgraphNodeType t;
    CHECK_CU(T->cuGraphNodeGetType(a, &t), OK);
    CHECK(t == CU_GRAPH_NODE_TYPE_MEM_ALLOC);
    CUgraphNode from[3], to[3];
    size_t num = 0;
    CHECK_CU(T->cuGraphGetEdges(g, NULL, NULL, &num), OK);
    CHECK(num == 2);
    num = 3;
    CHECK_CU(T->cuGraphGetEdges(g, from, to, &num), OK);
    CHECK(num == 2 && from[0] == k && to[0] == a && from[1] == a && to[1] == f);
    CHECK(from[2] == NULL && to[2] == NULL);
    CHECK_CU(T->cuGraphGetEdges(g, from, NULL, &num), BAD);
    CUgraphExec e = NULL;
    CHECK_CU(T->cuGraphInstantiateWithFlags(&e, g, 0), OK);
    CHECK_CU(T->cuGraphLaunch(e, NULL), OK); /* the kernel ran from its packed arguments */
    CHECK(out == 5);
    CHECK_CU(T->cuGraphExecDestroy(e), OK);
    CUfunction fn = NULL;
    CUkernel kern = cgn_fake_kernel_of(fill_f);
    CHECK_CU(T->cuKernelGetFunction(&fn, kern), OK);
    CHECK(fn == fill_f); /* context 0 is current */
    cgn_fake_set_current_context(cgn_fake_context(1));
    CHECK_CU(T->cuKernelGetFunction(&fn, kern), OK);
    CHECK(fn == cgn_fake_function_in_context(fill_f, cgn_fake_context(1)));
    cgn_fake_set_current_context(NULL);
    CHECK_CU(T->cuKernelGetFunction(&fn, kern), CUDA_ERROR_INVALID_CONTEXT);
    cgn_fake_set_current_context(cgn_fake_context(0));
    CHECK_CU(T->cuGraphDestroy(g), OK);
    CHECK(cgn_fake_live_objects() == 0);
}

/* Memory nodes through their typed calls, and the graph-level restrictions CUDA documents for
 * graphs that hold them (cuGraphAddMemAllocNode, cuGraphLaunch). */
static void test_memory_nodes(void)
{
    begin();
    CUgraph g = NULL, other = NULL, clone = NULL, parent = NULL;
    CUgraphNode e0 = NULL, a = NULL, f = NULL, bad = NULL, child = NULL;
    CHECK_CU(T->cuGraphCreate(&g, 0), OK);
    CHECK_CU(T->cuGraphAddEmptyNode(&e0, g, NULL, 0), OK);
    CHECK_CU(T->cuGraphCreate(&parent, 0), OK);
    CHECK_CU(T->cuGraphAddChildGraphNode(&child, parent, NULL, 0, g), OK); /* no memory nodes */
    CUDA_MEM_ALLOC_NODE_PARAMS_v1 ap;
    memset(&ap, 0, sizeof ap);
    ap.poolProps.allocType = CU_MEM_ALLOCATION_TYPE_PINNED;
    ap.poolProps.location.type = CU_MEM_LOCATION_TYPE_DEVICE;
    CHECK_CU(T->cuGraphAddMemAllocNode(&a, g, &e0, 1, &ap), BAD); /* no size */
    ap.bytesize = 64;
    ap.poolProps.location.id = 1; /* the fake has one device */
    CHECK_CU(T->cuGraphAddMemAllocNode(&a, g, &e0, 1, &ap), BAD);
    ap.poolProps.location.id = 0;
    CHECK_CU(T->cuGraphAddMemAllocNode(&a, g, &e0, 1, &ap), OK);
    CHECK(ap.dptr != 0);
    CUDA_MEM_ALLOC_NODE_PARAMS_v1 got;
    CHECK_CU(T->cuGraphMemAllocNodeGetParams(a, &got), OK);
    CHECK(got.dptr == ap.dptr && got.bytesize == 64 && got.poolProps.location.id == 0);
    CHECK_CU(T->cuGraphMemAllocNodeGetParams(e0, &got), BAD); /* not an allocation node */
    CHECK_CU(T->cuGraphAddMemFreeNode(&bad, g, NULL, 0, ap.dptr + 8), BAD); /* not returned */
    CHECK_CU(T->cuGraphAddMemFreeNode(&bad, g, NULL, 0, 0), BAD);
    CHECK_CU(T->cuGraphAddMemFreeNode(&f, g, &a, 1, ap.dptr), OK);
    CUdeviceptr freed = 0;
    CHECK_CU(T->cuGraphMemFreeNodeGetParams(f, &freed), OK);
    CHECK(freed == ap.dptr);
    /* No clone, no child graph, no node destroyed. */
    CHECK_CU(T->cuGraphClone(&clone, g), CUDA_ERROR_NOT_SUPPORTED);
    CHECK_CU(T->cuGraphAddChildGraphNode(&bad, parent, NULL, 0, g), BAD);
    CHECK_CU(T->cuGraphDestroyNode(e0), CUDA_ERROR_NOT_SUPPORTED);
    /* One executable at a time; freed in the graph, it relaunches. */
    CUgraphExec x = NULL, y = NULL;
    CHECK_CU(T->cuGraphInstantiateWithFlags(&x, g, 0), OK);
    CHECK_CU(T->cuGraphInstantiateWithFlags(&y, g, 0), BAD);
    CHECK_CU(T->cuGraphLaunch(x, NULL), OK);
    CHECK_CU(T->cuGraphLaunch(x, NULL), OK);
    CHECK_CU(T->cuGraphExecDestroy(x), OK);
    CHECK_CU(T->cuGraphInstantiateWithFlags(&y, g, 0), OK);
    CHECK_CU(T->cuGraphExecDestroy(y), OK);
    /* An allocation left unfreed: no relaunch until a free node (of another graph) runs, or
     * with auto-free. */
    CUgraphNode a2 = NULL, f2 = NULL;
    CHECK_CU(T->cuGraphCreate(&other, 0), OK);
    ap.dptr = 0;
    CHECK_CU(T->cuGraphAddMemAllocNode(&a2, other, NULL, 0, &ap), OK);
    CHECK_CU(T->cuGraphInstantiateWithFlags(&x, other, 0), OK);
    CHECK_CU(T->cuGraphLaunch(x, NULL), OK);
    CHECK_CU(T->cuGraphLaunch(x, NULL), BAD);
    CUgraph releaser = NULL;
    CHECK_CU(T->cuGraphCreate(&releaser, 0), OK);
    CHECK_CU(T->cuGraphAddMemFreeNode(&f2, releaser, NULL, 0, ap.dptr), OK);
    CHECK_CU(T->cuGraphInstantiateWithFlags(&y, releaser, 0), OK);
    CHECK_CU(T->cuGraphLaunch(y, NULL), OK);
    CHECK_CU(T->cuGraphLaunch(x, NULL), OK);
    CHECK_CU(T->cuGraphExecDestroy(x), OK); /* the allocation outlives the executable */
    CHECK_CU(T->cuGraphLaunch(y, NULL), OK);
    CHECK_CU(T->cuGraphInstantiateWithFlags(&x, other,
                                            CUDA_GRAPH_INSTANTIATE_FLAG_AUTO_FREE_ON_LAUNCH), OK);
    CHECK_CU(T->cuGraphLaunch(x, NULL), OK);
    CHECK_CU(T->cuGraphLaunch(x, NULL), OK);
    CHECK_CU(T->cuGraphExecDestroy(x), OK);
    CHECK_CU(T->cuGraphExecDestroy(y), OK);
    CHECK_CU(T->cuGraphDestroy(releaser), OK);
    CHECK_CU(T->cuGraphDestroy(other), OK);
    CHECK_CU(T->cuGraphDestroy(parent), OK);
    CHECK_CU(T->cuGraphDestroy(g), OK);
    CHECK(cgn_fake_live_objects() == 0);
}

/* CUDA arrays: 2-D and 3-D copies into and out of them (and between pitched buffers) run row by
 * row, slice by slice; a copy outside an array or of a destroyed one is refused; an
 * executable's multidimensional copy keeps its parameters, a 1-D one may change its operands. */
static void test_arrays_and_3d_copies(void)
{
    begin();
    static unsigned char dev[64], out[64];
    cgn_fake_mark_device_memory(dev, sizeof dev);
    cgn_fake_mark_device_memory(out, sizeof out);
    for (int i = 0; i < 64; i++)
        dev[i] = (unsigned char)i;
    CHECK(cgn_fake_array_create(0, 1, 1) == NULL);
    CUarray a = cgn_fake_array_create(4, 3, 2); /* 4 bytes a row, 3 rows, 2 slices */
    size_t size = 0;
    unsigned char *bytes = cgn_fake_array_data(a, &size);
    CHECK(a != NULL && bytes != NULL && size == 24);
    /* dev (pitch 8, 4 rows a slice) -> the array at x 1, y 1: 2 bytes, 2 rows, 2 slices. */
    CUDA_MEMCPY3D c;
    memset(&c, 0, sizeof c);
    c.srcMemoryType = CU_MEMORYTYPE_DEVICE;
    c.srcDevice = (CUdeviceptr)(uintptr_t)dev;
    c.srcXInBytes = 3;
    c.srcPitch = 8;
    c.srcHeight = 4;
    c.dstMemoryType = CU_MEMORYTYPE_ARRAY;
    c.dstArray = a;
    c.dstXInBytes = 1;
    c.dstY = 1;
    c.WidthInBytes = 2;
    c.Height = 2;
    c.Depth = 2;
    CUgraph g = NULL;
    CUgraphNode to_array = NULL, from_array = NULL, bad = NULL;
    CHECK_CU(T->cuGraphCreate(&g, 0), OK);
    CHECK_CU(T->cuGraphAddMemcpyNode(&to_array, g, NULL, 0, &c, NULL), OK);
    /* The array back into `out` (pitch 5, 3 rows a slice), whole. */
    CUDA_MEMCPY3D r;
    memset(&r, 0, sizeof r);
    r.srcMemoryType = CU_MEMORYTYPE_ARRAY;
    r.srcArray = a;
    r.dstMemoryType = CU_MEMORYTYPE_DEVICE;
    r.dstDevice = (CUdeviceptr)(uintptr_t)out;
    r.dstPitch = 5;
    r.dstHeight = 3;
    r.WidthInBytes = 4;
    r.Height = 3;
    r.Depth = 2;
    CHECK_CU(T->cuGraphAddMemcpyNode(&from_array, g, &to_array, 1, &r, NULL), OK);
    /* Outside the array (x 1 + 4 bytes > 4), and a handle that is no array: refused. */
    CUDA_MEMCPY3D wide = r;
    wide.srcXInBytes = 1;
    CHECK_CU(T->cuGraphAddMemcpyNode(&bad, g, NULL, 0, &wide, NULL), BAD);
    wide = r;
    wide.srcArray = (CUarray)(void *)dev;
    CHECK_CU(T->cuGraphAddMemcpyNode(&bad, g, NULL, 0, &wide, NULL), BAD);
    CUgraphExec e = NULL;
    CHECK_CU(T->cuGraphInstantiateWithFlags(&e, g, 0), OK);
    CHECK_CU(T->cuGraphLaunch(e, NULL), OK);
    for (size_t z = 0; z < 2; z++)
        for (size_t y = 0; y < 3; y++)
            for (size_t x = 0; x < 4; x++) {
                int copied = x >= 1 && x < 3 && y >= 1;
                unsigned char want =
                    copied ? dev[3 + (x - 1) + (z * 4 + (y - 1)) * 8] : 0; /* zeroed array */
                CHECK(bytes[x + (z * 3 + y) * 4] == want);
                CHECK(out[x + (z * 3 + y) * 5] == want);
            }
    /* Executable level: the 3-D copy refuses any change, keeps its own; unchanged is fine. */
    CUgraphNodeParams p;
    memset(&p, 0, sizeof p);
    p.type = CU_GRAPH_NODE_TYPE_MEMCPY;
    p.memcpy.copyParams = c;
    CHECK_CU(T->cuGraphExecNodeSetParams(e, to_array, &p), OK);
    p.memcpy.copyParams.srcXInBytes = 2;
    CHECK_CU(T->cuGraphExecNodeSetParams(e, to_array, &p), BAD);
    CUgraphNodeParams got;
    CHECK(cgn_fake_exec_node_params(e, to_array, &got) &&
          got.memcpy.copyParams.srcXInBytes == 3);
    /* The same change in the definition: the whole-graph update refuses it too. */
    CHECK_CU(T->cuGraphNodeSetParams(to_array, &p), OK);
    CUgraphExecUpdateResultInfo info;
    memset(&info, 0, sizeof info);
    CHECK_CU(T->cuGraphExecUpdate(e, g, &info), CUDA_ERROR_GRAPH_EXEC_UPDATE_FAILURE);
    CHECK(info.result == CU_GRAPH_EXEC_UPDATE_ERROR_PARAMETERS_CHANGED);
    /* A 1-D array copy may change its offsets in an executable. */
    CUDA_MEMCPY3D one = r;
    one.Height = one.Depth = 1;
    one.WidthInBytes = 2;
    CUgraphNode flat = NULL;
    CUgraph g1 = NULL;
    CUgraphExec e1 = NULL;
    CHECK_CU(T->cuGraphCreate(&g1, 0), OK);
    CHECK_CU(T->cuGraphAddMemcpyNode(&flat, g1, NULL, 0, &one, NULL), OK);
    CHECK_CU(T->cuGraphInstantiateWithFlags(&e1, g1, 0), OK);
    one.srcXInBytes = 2;
    one.srcZ = 1;
    p.memcpy.copyParams = one;
    CHECK_CU(T->cuGraphExecNodeSetParams(e1, flat, &p), OK);
    one.srcXInBytes = 3; /* 3 + 2 > 4: outside the array */
    p.memcpy.copyParams = one;
    CHECK_CU(T->cuGraphExecNodeSetParams(e1, flat, &p), BAD);
    CHECK_CU(T->cuGraphExecDestroy(e1), OK);
    CHECK_CU(T->cuGraphDestroy(g1), OK);
    CHECK_CU(T->cuGraphExecDestroy(e), OK);
    CHECK_CU(T->cuGraphDestroy(g), OK);
    /* A destroyed array is no operand any more. */
    CHECK(cgn_fake_array_destroy(a) == 1);
    CHECK(cgn_fake_array_destroy(a) == 0);
    CHECK(cgn_fake_array_data(a, &size) == NULL);
    CHECK_CU(T->cuGraphCreate(&g, 0), OK);
    CHECK_CU(T->cuGraphAddMemcpyNode(&bad, g, NULL, 0, &r, NULL), BAD);
    CHECK_CU(T->cuGraphDestroy(g), OK);
    CHECK(cgn_fake_array_create(2, 2, 2) != NULL); /* freed by the reset */
}

/* Batch memory operation nodes: added and read back (the getter answers with the node's own
 * copy), checked as the driver checks them, run in order on the host (writes store, a wait
 * that does not hold is counted), and updated by the executable-update rules of
 * cuGraphExecBatchMemOpNodeSetParams. */
static CUstreamBatchMemOpParams mem_op(CUstreamBatchMemOpType type, void *at, uint64_t value,
                                       unsigned flags)
{
    CUstreamBatchMemOpParams op;
    memset(&op, 0, sizeof op);
    op.operation = type;
    if (type == CU_STREAM_MEM_OP_BARRIER) {
        op.memoryBarrier.flags = flags;
        return op;
    }
    op.writeValue.address = (CUdeviceptr)(uintptr_t)at;
    if (type == CU_STREAM_MEM_OP_WRITE_VALUE_64 || type == CU_STREAM_MEM_OP_WAIT_VALUE_64)
        op.writeValue.value64 = value;
    else
        op.writeValue.value = (cuuint32_t)value;
    op.writeValue.flags = flags;
    return op;
}

static void test_batch_mem_ops(void)
{
    begin();
    _Alignas(8) unsigned char buf[32] = {0};
    cgn_fake_mark_device_memory(buf, sizeof buf);
    CUstreamBatchMemOpParams ops[4] = {
        mem_op(CU_STREAM_MEM_OP_WRITE_VALUE_32, buf, 0x11223344u, 0),
        mem_op(CU_STREAM_MEM_OP_WAIT_VALUE_32, buf, 0x11223344u, CU_STREAM_WAIT_VALUE_EQ),
        mem_op(CU_STREAM_MEM_OP_BARRIER, NULL, 0, CU_STREAM_MEMORY_BARRIER_TYPE_GPU),
        mem_op(CU_STREAM_MEM_OP_WRITE_VALUE_64, buf + 8, 0x0102030405060708ull, 0),
    };
    CUDA_BATCH_MEM_OP_NODE_PARAMS_v1 m = {cgn_fake_context(0), 4, ops, 0};
    CUgraph g = NULL;
    CUgraphNode n = NULL;
    CHECK_CU(T->cuGraphCreate(&g, 0), OK);
    /* What the driver refuses: no operations, too many, a misaligned or unknown address,
     * flags an operation does not take, an unknown type. */
    CUDA_BATCH_MEM_OP_NODE_PARAMS_v1 bad = m;
    bad.count = 0;
    CHECK_CU(T->cuGraphAddBatchMemOpNode(&n, g, NULL, 0, &bad), BAD);
    bad.count = 256;
    CHECK_CU(T->cuGraphAddBatchMemOpNode(&n, g, NULL, 0, &bad), BAD);
    bad = m;
    bad.paramArray = NULL;
    CHECK_CU(T->cuGraphAddBatchMemOpNode(&n, g, NULL, 0, &bad), BAD);
    CUstreamBatchMemOpParams one[1] = {mem_op(CU_STREAM_MEM_OP_WRITE_VALUE_32, buf + 2, 1, 0)};
    bad.count = 1;
    bad.paramArray = one;
    CHECK_CU(T->cuGraphAddBatchMemOpNode(&n, g, NULL, 0, &bad), BAD); /* misaligned */
    unsigned char unknown[8];
    one[0] = mem_op(CU_STREAM_MEM_OP_WRITE_VALUE_32, unknown, 1, 0);
    CHECK_CU(T->cuGraphAddBatchMemOpNode(&n, g, NULL, 0, &bad), BAD); /* not device memory */
    one[0] = mem_op(CU_STREAM_MEM_OP_WRITE_VALUE_32, buf, 1, 1);
    CHECK_CU(T->cuGraphAddBatchMemOpNode(&n, g, NULL, 0, &bad), BAD); /* write flags */
    one[0] = mem_op(CU_STREAM_MEM_OP_BARRIER, NULL, 0, 2);
    CHECK_CU(T->cuGraphAddBatchMemOpNode(&n, g, NULL, 0, &bad), BAD);
    one[0] = mem_op((CUstreamBatchMemOpType)9, buf, 1, 0);
    CHECK_CU(T->cuGraphAddBatchMemOpNode(&n, g, NULL, 0, &bad), BAD);
    CHECK(cgn_fake_graph_node_count(g) == 0);

    CHECK_CU(T->cuGraphAddBatchMemOpNode(&n, g, NULL, 0, &m), OK);
    ops[0].writeValue.value = 0; /* the node keeps its own copy */
    CUDA_BATCH_MEM_OP_NODE_PARAMS_v1 got;
    CHECK_CU(T->cuGraphBatchMemOpNodeGetParams(n, &got), OK);
    CHECK(got.count == 4 && got.ctx == cgn_fake_context(0) && got.paramArray != ops);
    CHECK(got.paramArray[0].writeValue.value == 0x11223344u);
    CHECK(got.paramArray[3].writeValue.value64 == 0x0102030405060708ull);
    CHECK(cgn_fake_node_context(n) == cgn_fake_context(0));
    CUgraphExec e = NULL;
    CHECK_CU(T->cuGraphInstantiateWithFlags(&e, g, 0), OK);
    size_t waits = cgn_fake_unsatisfied_waits();
    CHECK_CU(T->cuGraphLaunch(e, NULL), OK);
    uint32_t v32;
    uint64_t v64;
    memcpy(&v32, buf, 4);
    memcpy(&v64, buf + 8, 8);
    CHECK(v32 == 0x11223344u && v64 == 0x0102030405060708ull);
    CHECK(cgn_fake_unsatisfied_waits() == waits); /* written, then waited for */

    /* The executable may change addresses, values and a wait's comparison... */
    CUstreamBatchMemOpParams next[4];
    memcpy(next, got.paramArray, sizeof next);
    next[0].writeValue.address = (CUdeviceptr)(uintptr_t)(buf + 16);
    next[0].writeValue.value = 7;
    next[1].waitValue.address = (CUdeviceptr)(uintptr_t)(buf + 16);
    next[1].waitValue.value = 8; /* 7 >= 8 does not hold */
    next[1].waitValue.flags = CU_STREAM_WAIT_VALUE_GEQ;
    CUgraphNodeParams p;
    memset(&p, 0, sizeof p);
    p.type = CU_GRAPH_NODE_TYPE_BATCH_MEM_OP;
    p.memOp.ctx = cgn_fake_context(0);
    p.memOp.count = 4;
    p.memOp.paramArray = next;
    CHECK_CU(T->cuGraphExecNodeSetParams(e, n, &p), OK);
    CHECK_CU(T->cuGraphLaunch(e, NULL), OK);
    memcpy(&v32, buf + 16, 4);
    CHECK(v32 == 7);
    CHECK(cgn_fake_unsatisfied_waits() == waits + 1);
    /* ...but not the count, a type, a wait's flush bit, a barrier or the context. */
    p.memOp.count = 3;
    CHECK_CU(T->cuGraphExecNodeSetParams(e, n, &p), BAD);
    p.memOp.count = 4;
    next[3].operation = CU_STREAM_MEM_OP_WRITE_VALUE_32;
    CHECK_CU(T->cuGraphExecNodeSetParams(e, n, &p), BAD);
    next[3].operation = CU_STREAM_MEM_OP_WRITE_VALUE_64;
    next[1].waitValue.flags = CU_STREAM_WAIT_VALUE_FLUSH;
    CHECK_CU(T->cuGraphExecNodeSetParams(e, n, &p), BAD);
    next[1].waitValue.flags = CU_STREAM_WAIT_VALUE_EQ;
    next[2].memoryBarrier.flags = CU_STREAM_MEMORY_BARRIER_TYPE_SYS;
    CHECK_CU(T->cuGraphExecNodeSetParams(e, n, &p), BAD);
    next[2].memoryBarrier.flags = CU_STREAM_MEMORY_BARRIER_TYPE_GPU;
    p.memOp.ctx = cgn_fake_context(1);
    CHECK_CU(T->cuGraphExecNodeSetParams(e, n, &p), BAD);
    /* The definition takes any valid change; the executable kept its own. */
    CHECK_CU(T->cuGraphNodeSetParams(n, &p), OK);
    CHECK(cgn_fake_node_context(n) == cgn_fake_context(1));
    CHECK_CU(T->cuGraphExecDestroy(e), OK);
    CHECK_CU(T->cuGraphDestroy(g), OK);
    CHECK(cgn_fake_live_objects() == 0);
}

/* Conditional nodes: handles (graph, valid context, flags 0 or ASSIGN_DEFAULT), IF and WHILE
 * with one body created by the add and returned in phGraph_out, the body running by the
 * handle's value (assigned at each launch start with ASSIGN_DEFAULT), no parameter changes, no
 * clone or child embedding, one executable at a time. */
static void test_conditional_nodes(void)
{
    begin();
    CUgraph g = NULL, parent = NULL, clone = NULL;
    CUgraphNode c = NULL, bad = NULL, m = NULL;
    CHECK_CU(T->cuGraphCreate(&g, 0), OK);
    CHECK_CU(T->cuGraphCreate(&parent, 0), OK);
    CUcontext ctx = cgn_fake_context(0);
    CUgraphConditionalHandle h = 0, h2 = 0;
    CHECK_CU(T->cuGraphConditionalHandleCreate(&h, g, ctx, 1, 2), BAD); /* unknown flag */
    CHECK_CU(T->cuGraphConditionalHandleCreate(&h, g, NULL, 1, 0), BAD); /* no context */
    CHECK_CU(T->cuGraphConditionalHandleCreate(&h, g, ctx, 1, CU_GRAPH_COND_ASSIGN_DEFAULT), OK);
    CHECK_CU(T->cuGraphConditionalHandleCreate(&h2, g, ctx, 0, 0), OK);
    CHECK(h != 0 && h2 != 0 && h != h2);
    CUgraphNodeParams p;
    memset(&p, 0, sizeof p);
    p.type = CU_GRAPH_NODE_TYPE_CONDITIONAL;
    p.conditional.handle = h;
    p.conditional.type = CU_GRAPH_COND_TYPE_IF;
    p.conditional.size = 3; /* an IF has one body, or two with an else body */
    p.conditional.ctx = ctx;
    CHECK_CU(T->cuGraphAddNode(&bad, g, NULL, 0, &p), BAD);
    p.conditional.size = 0;
    CHECK_CU(T->cuGraphAddNode(&bad, g, NULL, 0, &p), BAD);
    p.conditional.size = 1;
    p.conditional.ctx = cgn_fake_context(1); /* not the handle's */
    CHECK_CU(T->cuGraphAddNode(&bad, g, NULL, 0, &p), BAD);
    p.conditional.ctx = ctx;
    CHECK_CU(T->cuGraphAddNode(&c, g, NULL, 0, &p), OK);
    CHECK(p.conditional.phGraph_out != NULL && p.conditional.phGraph_out[0] != NULL);
    CUgraph body = p.conditional.phGraph_out[0];
    CHECK_CU(T->cuGraphDestroy(body), BAD); /* the node's */
    static unsigned char cell[4];
    cgn_fake_mark_device_memory(cell, sizeof cell);
    CUDA_MEMSET_NODE_PARAMS ms = {.dst = (CUdeviceptr)(uintptr_t)cell, .value = 7,
                                  .elementSize = 1, .width = 1, .height = 1};
    CHECK_CU(T->cuGraphAddMemsetNode(&m, body, NULL, 0, &ms, ctx), OK);
    CHECK_CU(T->cuGraphNodeSetParams(c, &p), CUDA_ERROR_NOT_SUPPORTED);
    CHECK_CU(T->cuGraphClone(&clone, g), CUDA_ERROR_NOT_SUPPORTED);
    CHECK_CU(T->cuGraphAddChildGraphNode(&bad, parent, NULL, 0, g), BAD);
    CUgraphExec x = NULL, y = NULL;
    CHECK_CU(T->cuGraphInstantiateWithFlags(&x, g, 0), OK);
    CHECK_CU(T->cuGraphInstantiateWithFlags(&y, g, 0), BAD); /* one at a time */
    CHECK_CU(T->cuGraphLaunch(x, NULL), OK); /* default 1: the body runs */
    CHECK(cell[0] == 7);
    cell[0] = 0;
    cgn_fake_set_conditional(h, 0); /* overwritten by the default at the next launch */
    CHECK_CU(T->cuGraphLaunch(x, NULL), OK);
    CHECK(cell[0] == 7);
    CHECK_CU(T->cuGraphExecNodeSetParams(x, c, &p), CUDA_ERROR_NOT_SUPPORTED);
    CHECK_CU(T->cuGraphExecDestroy(x), OK);
    /* Without ASSIGN_DEFAULT the value is kept: h2 starts 0 and stays what it was set to. */
    CUgraph g2 = NULL;
    CUgraphNode c2 = NULL, m2 = NULL;
    CHECK_CU(T->cuGraphCreate(&g2, 0), OK);
    CUgraphConditionalHandle h3 = 0;
    CHECK_CU(T->cuGraphConditionalHandleCreate(&h3, g2, ctx, 5, 0), OK);
    p.conditional.handle = h3;
    p.conditional.type = CU_GRAPH_COND_TYPE_WHILE;
    p.conditional.phGraph_out = NULL;
    CHECK_CU(T->cuGraphAddNode(&c2, g2, NULL, 0, &p), OK);
    CHECK_CU(T->cuGraphAddMemsetNode(&m2, p.conditional.phGraph_out[0], NULL, 0, &ms, ctx), OK);
    CHECK_CU(T->cuGraphInstantiateWithFlags(&y, g2, 0), OK);
    cell[0] = 0;
    CHECK_CU(T->cuGraphLaunch(y, NULL), OK); /* 0: the WHILE body never runs */
    CHECK(cell[0] == 0 && cgn_fake_runaway_loops() == 0);
    cgn_fake_set_conditional(h3, 1); /* nothing clears it: the fake gives up and counts */
    CHECK_CU(T->cuGraphLaunch(y, NULL), OK);
    CHECK(cell[0] == 7 && cgn_fake_runaway_loops() == 1);
    CHECK(cgn_fake_conditional_handles() == 3);
    CHECK_CU(T->cuGraphExecDestroy(y), OK);
    CHECK_CU(T->cuGraphDestroy(g2), OK);
    CHECK_CU(T->cuGraphDestroy(parent), OK);
    CHECK_CU(T->cuGraphDestroy(g), OK);
    CHECK(cgn_fake_live_objects() == 0);
}

/* IF with an else body and SWITCH (12.8+): `size` bodies created by the add, in phGraph_out;
 * the else body runs on 0, a SWITCH runs body `value` and none past the last; executables
 * copy every body, and a body node is updated in one executable only. Older drivers take
 * neither form; a WHILE takes one body only. */
static void test_conditional_bodies(void)
{
    begin();
    static unsigned char cell[4];
    cgn_fake_mark_device_memory(cell, sizeof cell);
    CUcontext ctx = cgn_fake_context(0);
    CUgraph g = NULL;
    CHECK_CU(T->cuGraphCreate(&g, 0), OK);
    CUgraphConditionalHandle h = 0, hs = 0;
    CHECK_CU(T->cuGraphConditionalHandleCreate(&h, g, ctx, 0, CU_GRAPH_COND_ASSIGN_DEFAULT), OK);
    CHECK_CU(T->cuGraphConditionalHandleCreate(&hs, g, ctx, 2, CU_GRAPH_COND_ASSIGN_DEFAULT), OK);
    CUgraphNodeParams p;
    memset(&p, 0, sizeof p);
    p.type = CU_GRAPH_NODE_TYPE_CONDITIONAL;
    p.conditional.handle = h;
    p.conditional.type = CU_GRAPH_COND_TYPE_WHILE;
    p.conditional.size = 2;
    p.conditional.ctx = ctx;
    CUgraphNode c = NULL, s = NULL, m = NULL;
    CHECK_CU(T->cuGraphAddNode(&c, g, NULL, 0, &p), BAD); /* WHILE: one body */
    cgn_fake_set_version(12070);
    T = cgn_fake_table();
    p.conditional.type = CU_GRAPH_COND_TYPE_IF;
    CHECK_CU(T->cuGraphAddNode(&c, g, NULL, 0, &p), BAD); /* else body: 12.8 */
    p.conditional.type = 2;
    p.conditional.size = 1;
    CHECK_CU(T->cuGraphAddNode(&c, g, NULL, 0, &p), BAD); /* SWITCH: 12.8 */
    cgn_fake_set_version(12080);
    T = cgn_fake_table();
    CHECK(cgn_fake_graph_node_count(g) == 0);
    p.conditional.type = CU_GRAPH_COND_TYPE_IF;
    p.conditional.size = 2;
    CHECK_CU(T->cuGraphAddNode(&c, g, NULL, 0, &p), OK);
    CUgraph *ifb = p.conditional.phGraph_out;
    CHECK(ifb != NULL && ifb[0] != NULL && ifb[1] != NULL && ifb[0] != ifb[1]);
    CUDA_MEMSET_NODE_PARAMS ms = {.dst = (CUdeviceptr)(uintptr_t)cell, .value = 1,
                                  .elementSize = 1, .width = 1, .height = 1};
    CHECK_CU(T->cuGraphAddMemsetNode(&m, ifb[0], NULL, 0, &ms, ctx), OK);
    ms.value = 2;
    CHECK_CU(T->cuGraphAddMemsetNode(&m, ifb[1], NULL, 0, &ms, ctx), OK);
    p.conditional.handle = hs;
    p.conditional.type = 2;
    p.conditional.size = 3;
    p.conditional.phGraph_out = NULL;
    CHECK_CU(T->cuGraphAddNode(&s, g, &c, 1, &p), OK);
    CUgraph *sw = p.conditional.phGraph_out;
    CUgraphNode sm[3] = {NULL, NULL, NULL};
    for (unsigned char i = 0; i < 3; i++) {
        CHECK(sw != NULL && sw[i] != NULL && cgn_fake_graph_node_count(sw[i]) == 0);
        ms.dst = (CUdeviceptr)(uintptr_t)&cell[1];
        ms.value = 10 + i;
        CHECK_CU(T->cuGraphAddMemsetNode(&sm[i], sw[i], NULL, 0, &ms, ctx), OK);
    }
    CHECK_CU(T->cuGraphDestroy(sw[2]), BAD); /* the node's */
    CUgraphExec x = NULL;
    CHECK_CU(T->cuGraphInstantiateWithFlags(&x, g, 0), OK);
    CHECK_CU(T->cuGraphLaunch(x, NULL), OK); /* IF default 0: the else body; SWITCH 2 */
    CHECK(cell[0] == 2 && cell[1] == 12);
    /* Body 2's memset in the executable only; the definition keeps its own. */
    CUgraphNodeParams mp;
    memset(&mp, 0, sizeof mp);
    mp.type = CU_GRAPH_NODE_TYPE_MEMSET;
    mp.memset.dst = ms.dst;
    mp.memset.value = 0x42;
    mp.memset.elementSize = 1;
    mp.memset.width = 1;
    mp.memset.height = 1;
    mp.memset.ctx = ctx;
    CHECK_CU(T->cuGraphExecNodeSetParams(x, sm[2], &mp), OK);
    CHECK_CU(T->cuGraphLaunch(x, NULL), OK);
    CHECK(cell[1] == 0x42);
    CHECK_CU(T->cuGraphExecDestroy(x), OK);
    CUgraphConditionalHandle hk = 0;
    CUgraph g2 = NULL;
    CHECK_CU(T->cuGraphCreate(&g2, 0), OK);
    CHECK_CU(T->cuGraphConditionalHandleCreate(&hk, g2, ctx, 7, CU_GRAPH_COND_ASSIGN_DEFAULT), OK);
    p.conditional.handle = hk;
    CHECK_CU(T->cuGraphAddNode(&s, g2, NULL, 0, &p), OK);
    ms.value = 0x55;
    CHECK_CU(T->cuGraphAddMemsetNode(&m, p.conditional.phGraph_out[0], NULL, 0, &ms, ctx), OK);
    CHECK_CU(T->cuGraphInstantiateWithFlags(&x, g2, 0), OK);
    cell[1] = 0;
    CHECK_CU(T->cuGraphLaunch(x, NULL), OK); /* value 7 of 3 bodies: nothing runs */
    CHECK(cell[1] == 0);
    CHECK_CU(T->cuGraphExecDestroy(x), OK);
    CHECK_CU(T->cuGraphDestroy(g2), OK);
    CHECK_CU(T->cuGraphDestroy(g), OK);
    CHECK(cgn_fake_live_objects() == 0);
}

/* External semaphores: nodes take live ones only and copy both arrays; a signal sets the
 * semaphore's value to its fence value, a wait is counted; executables keep their count. */
static void test_ext_sems(void)
{
    begin();
    CUexternalSemaphore sems[2] = {cgn_fake_ext_sem_create(), cgn_fake_ext_sem_create()};
    CHECK(sems[0] && sems[1] && sems[0] != sems[1]);
    CUDA_EXTERNAL_SEMAPHORE_SIGNAL_PARAMS sig[2];
    memset(sig, 0, sizeof sig);
    sig[0].params.fence.value = 5;
    sig[1].params.fence.value = 6;
    CUDA_EXT_SEM_SIGNAL_NODE_PARAMS_v1 sp = {sems, sig, 2};
    CUgraph g = NULL;
    CHECK_CU(T->cuGraphCreate(&g, 0), OK);
    CUgraphNode n = NULL, w = NULL;
    CUDA_EXT_SEM_SIGNAL_NODE_PARAMS_v1 bad = sp;
    bad.numExtSems = 0;
    CHECK_CU(T->cuGraphAddExternalSemaphoresSignalNode(&n, g, NULL, 0, &bad), BAD);
    bad = sp;
    bad.paramsArray = NULL;
    CHECK_CU(T->cuGraphAddExternalSemaphoresSignalNode(&n, g, NULL, 0, &bad), BAD);
    CUexternalSemaphore stale[1] = {(CUexternalSemaphore)(uintptr_t)0x5e3};
    bad = (CUDA_EXT_SEM_SIGNAL_NODE_PARAMS_v1){stale, sig, 1};
    CHECK_CU(T->cuGraphAddExternalSemaphoresSignalNode(&n, g, NULL, 0, &bad),
             CUDA_ERROR_INVALID_HANDLE);
    CHECK(cgn_fake_graph_node_count(g) == 0);
    CHECK_CU(T->cuGraphAddExternalSemaphoresSignalNode(&n, g, NULL, 0, &sp), OK);
    sig[0].params.fence.value = 99; /* the node keeps its own copy */
    CUDA_EXTERNAL_SEMAPHORE_WAIT_PARAMS wp[1];
    memset(wp, 0, sizeof wp);
    CUDA_EXT_SEM_WAIT_NODE_PARAMS_v1 wn = {&sems[1], wp, 1};
    CHECK_CU(T->cuGraphAddExternalSemaphoresWaitNode(&w, g, &n, 1, &wn), OK);
    CUDA_EXT_SEM_SIGNAL_NODE_PARAMS_v1 got;
    CHECK_CU(T->cuGraphExternalSemaphoresSignalNodeGetParams(n, &got), OK);
    CHECK(got.numExtSems == 2 && got.extSemArray != sems && got.paramsArray != sig);
    CHECK(got.extSemArray[1] == sems[1] && got.paramsArray[0].params.fence.value == 5);
    CUDA_EXT_SEM_WAIT_NODE_PARAMS_v1 wgot;
    CHECK_CU(T->cuGraphExternalSemaphoresSignalNodeGetParams(w, &got), BAD); /* wrong type */
    CHECK_CU(T->cuGraphExternalSemaphoresWaitNodeGetParams(w, &wgot), OK);
    CHECK(wgot.numExtSems == 1 && wgot.extSemArray[0] == sems[1]);
    CUgraphExec e = NULL;
    CHECK_CU(T->cuGraphInstantiateWithFlags(&e, g, 0), OK);
    CHECK_CU(T->cuGraphLaunch(e, NULL), OK);
    size_t signals = 0, waits = 0;
    uint64_t value = 0;
    CHECK(cgn_fake_ext_sem_state(sems[0], &signals, &waits, &value));
    CHECK(signals == 1 && waits == 0 && value == 5);
    CHECK(cgn_fake_ext_sem_state(sems[1], &signals, &waits, &value));
    CHECK(signals == 1 && waits == 1 && value == 6);
    /* The executable may change the semaphores and values, not their number. */
    CUgraphNodeParams p;
    memset(&p, 0, sizeof p);
    p.type = CU_GRAPH_NODE_TYPE_EXT_SEMAS_SIGNAL;
    CUexternalSemaphore swapped[2] = {sems[1], sems[0]};
    p.extSemSignal.extSemArray = swapped;
    p.extSemSignal.paramsArray = sig;
    p.extSemSignal.numExtSems = 2;
    CHECK_CU(T->cuGraphExecNodeSetParams(e, n, &p), OK);
    CHECK_CU(T->cuGraphLaunch(e, NULL), OK);
    CHECK(cgn_fake_ext_sem_state(sems[1], &signals, &waits, &value));
    CHECK(signals == 2 && waits == 2 && value == 99);
    p.extSemSignal.numExtSems = 1;
    CHECK_CU(T->cuGraphExecNodeSetParams(e, n, &p), BAD);
    CHECK_CU(T->cuGraphNodeSetParams(n, &p), OK); /* the definition takes any valid count */
    CHECK_CU(T->cuGraphExecDestroy(e), OK);
    CHECK_CU(T->cuGraphDestroy(g), OK);
    CHECK(cgn_fake_ext_sem_destroy(sems[0]) && cgn_fake_ext_sem_destroy(sems[1]));
    CHECK(!cgn_fake_ext_sem_destroy(sems[0]));
    CHECK(cgn_fake_live_objects() == 0);
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
    test_set_current();
    test_thread_contexts();
    test_function_contexts();
    test_getters();
    test_events_through_driver();
    test_deferred_completion();
    test_exec_destroyed_in_flight();
    test_exec_destroyed_while_running();
    test_exec_update();
    test_exec_update_rules();
    test_exec_update_refs();
    test_enable();
    test_exec_set_params_rules();
    test_crash_prone_calls();
    test_threads();
    test_built_elsewhere();
    test_memory_nodes();
    test_arrays_and_3d_copies();
    test_batch_mem_ops();
    test_conditional_nodes();
    test_conditional_bodies();
    test_ext_sems();
    cgn_fake_reset();
    if (failures) {
        fprintf(stderr, "fake_selftest: %d check(s) failed\n", failures);
        return 1;
    }
    printf("fake_selftest: all checks passed\n");
    return 0;
}
