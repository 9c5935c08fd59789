/* Black-box tests, third round: graphs built elsewhere (docs/adopt.md, the adoption part of
 * include/cgn/cgn.h), on the fake driver. Areas the earlier rounds did not cover in depth: one raw
 * graph holding every node type the fake can build (conditional, batch memory operation,
 * external semaphores, memory allocation, a foreign type, child graphs nested two deep), its
 * adoption swept with every driver call failing in turn under CGN_ADOPT_TAKE_OWNERSHIP, lookups
 * and the count convention across nested embeddings, argument edits on nested adopted kernels,
 * borrowed graphs after cgn lets go, the documented order of pre-12.4 refusals, and the
 * "fields an update does not set keep cgn's value" rule for kernel arguments. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "cgn_fault.h"
#include "cgn_test_env.h"
#include "cgn_test_fixture.h"
#include "fake_driver.h"

#include "blackbox_common.h"

/* Fails unless cgn_last_error() contains `part`. */
#define EXPECT_MSG(part)                                                                           \
    do {                                                                                           \
        if (strstr(cgn_last_error(), (part)) == NULL)                                              \
            fail_msg("message \"%s\" does not contain \"%s\"", cgn_last_error(), (part));        \
    } while (0)

/* Raw graphs are built on the fake itself, not through the fault proxy, so that building them
 * neither counts as nor suffers an injected failure. */
static const cgn_driver_table *fk(void) {
    return cgn_fake_table();
}

/* A new empty raw graph, made on the fake. */
static CUgraph raw_graph(void) {
    CUgraph rg;
    CU_OK(fk()->cuGraphCreate(&rg, 0));
    return rg;
}

static CUcontext ctx0(void) {
    return cgn_fake_context(0);
}

static void kparams(CUDA_KERNEL_NODE_PARAMS_v2 *p, cgn_kernel k, void **params, void **extra) {
    memset(p, 0, sizeof *p);
    p->func = k.function;
    p->kern = k.kernel;
    p->gridDimX = p->gridDimY = p->gridDimZ = 1;
    p->blockDimX = p->blockDimY = p->blockDimZ = 1;
    p->kernelParams = params;
    p->extra = extra;
}

static CUgraphNode raw_kernel(CUgraph g, const CUgraphNode *deps, size_t nd, cgn_kernel k,
                              void **params, void **extra) {
    CUDA_KERNEL_NODE_PARAMS_v2 p;
    kparams(&p, k, params, extra);
    CUgraphNode n = NULL;
    CU_OK(fk()->cuGraphAddKernelNode(&n, g, deps, nd, &p));
    return n;
}

static CUgraphNode raw_memset(CUgraph g, const CUgraphNode *deps, size_t nd, CUdeviceptr dst,
                              unsigned value, size_t width) {
    CUDA_MEMSET_NODE_PARAMS_v1 m = {dst, 0, value, 1, width, 1};
    CUgraphNode n = NULL;
    CU_OK(fk()->cuGraphAddMemsetNode(&n, g, deps, nd, &m, ctx0()));
    return n;
}

static CUgraphNode raw_memcpy(CUgraph g, const CUgraphNode *deps, size_t nd, CUdeviceptr dst,
                              CUdeviceptr src, size_t size) {
    CUDA_MEMCPY3D c;
    memset(&c, 0, sizeof c);
    c.srcMemoryType = c.dstMemoryType = CU_MEMORYTYPE_DEVICE;
    c.srcDevice = src;
    c.dstDevice = dst;
    c.WidthInBytes = size;
    c.Height = c.Depth = 1;
    CUgraphNode n = NULL;
    CU_OK(fk()->cuGraphAddMemcpyNode(&n, g, deps, nd, &c, ctx0()));
    return n;
}

static CUgraphNode raw_generic(CUgraph g, const CUgraphNode *deps, size_t nd,
                               CUgraphNodeParams *p) {
    CUgraphNode n = NULL;
    CU_OK(fk()->cuGraphAddNode(&n, g, deps, nd, p));
    return n;
}

static CUgraphNode first_node(CUgraph g, size_t index) {
    CUgraphNode nodes[16];
    size_t n = 16;
    CU_OK(fk()->cuGraphGetNodes(g, nodes, &n));
    assert_true(index < n);
    return nodes[index];
}

static uint32_t u32_at_dev(cgn_test_env *env, CUdeviceptr p) {
    uint32_t v = 0;
    env->backend->read(env, p, &v, sizeof v);
    return v;
}

static void zero_bufs(cgn_test_env *env) {
    unsigned char z[CGN_TEST_BUF_SIZE] = {0};
    for (int i = 0; i < CGN_TEST_NUM_BUFS; i++)
        env->backend->write(env, env->buf[i], z, sizeof z);
}

/* The argument i of a kernel node's definition as the fake holds it. */
static void raw_arg(CUgraphNode n, size_t i, void *out, size_t size) {
    CUgraphNodeParams p;
    assert_int_equal(cgn_fake_node_params(n, &p), 1);
    assert_int_equal(p.type, CU_GRAPH_NODE_TYPE_KERNEL);
    memcpy(out, p.kernel.kernelParams[i], size);
}

/* ---- a raw graph with every node type the fake builds ------------------------------------- */

/* top:  kp   fill_u32(buf0, 7)  CUkernel, kernelParams
 *       kx   add_one(buf1)      CUfunction, packed through extra
 *       set  memset buf2[0..8) = 0x33
 *       copy buf3[0..4) = buf0[0..4)        after kp
 *       host record_a(&host_arg)            after copy
 *       rec, wait: event 0, event 1
 *       empty                               after set, kx
 *       alloc (256 bytes), fre              alloc after copy, fre after alloc
 *       sig, swait on sem 0
 *       memop: write 5 to buf2[16]
 *       foreign (a newer driver's type)     after empty
 *       cond: IF, body empty                after foreign
 *       child: inner                        after empty
 * inner: ik   fill_u32(buf1 + 8, 5) (CUfunction)
 *        ichild: grand                      after ik
 * grand: gset memset buf2[8..16) = 0x44
 *        gk   add_one(buf3 + 8)             after gset */
#define RICH_TOP 16
typedef struct rich {
    CUgraph g;
    CUgraphNode kp, kx, set, copy, host, rec, wait, empty, alloc, fre, sig, swait, memop, foreign,
        cond, child;
    CUgraphNode ik, ichild, gset, gk; /* the embedded copies' nodes */
    CUgraph inner_emb, grand_emb;
} rich;

static CUdeviceptr rich_ptrs[4];
static uint32_t rich_vals[2];
static size_t rich_packed_size;
static void *rich_kp_params[2];
static void *rich_ik_params[2];
static void *rich_gk_params[1];
static void *rich_extra[5];
static char host_arg = 'h';

static void build_rich(cgn_test_env *env, rich *r) {
    memset(r, 0, sizeof *r);
    /* grand */
    CUgraph grand, inner;
    CU_OK(fk()->cuGraphCreate(&grand, 0));
    CUgraphNode gs = raw_memset(grand, NULL, 0, env->buf[2] + 8, 0x44, 8);
    rich_ptrs[3] = env->buf[3] + 8;
    rich_gk_params[0] = &rich_ptrs[3];
    (void)raw_kernel(grand, &gs, 1, cgn_test_kernel(env, "add_one"), rich_gk_params, NULL);
    /* inner */
    CU_OK(fk()->cuGraphCreate(&inner, 0));
    rich_ptrs[2] = env->buf[1] + 8;
    rich_vals[1] = 5;
    rich_ik_params[0] = &rich_ptrs[2];
    rich_ik_params[1] = &rich_vals[1];
    cgn_kernel fill_k = cgn_test_kernel(env, "fill_u32");
    CUfunction fill_f = NULL;
    CU_OK(fk()->cuKernelGetFunction(&fill_f, fill_k.kernel));
    CUgraphNode ik = raw_kernel(inner, NULL, 0, CGN_FUNCTION(fill_f), rich_ik_params, NULL);
    CUgraphNode ic;
    CU_OK(fk()->cuGraphAddChildGraphNode(&ic, inner, &ik, 1, grand));
    CU_OK(fk()->cuGraphDestroy(grand));
    /* top */
    CU_OK(fk()->cuGraphCreate(&r->g, 0));
    rich_ptrs[0] = env->buf[0];
    rich_vals[0] = 7;
    rich_kp_params[0] = &rich_ptrs[0];
    rich_kp_params[1] = &rich_vals[0];
    r->kp = raw_kernel(r->g, NULL, 0, fill_k, rich_kp_params, NULL);
    rich_ptrs[1] = env->buf[1];
    rich_packed_size = sizeof rich_ptrs[1];
    rich_extra[0] = CU_LAUNCH_PARAM_BUFFER_POINTER;
    rich_extra[1] = &rich_ptrs[1];
    rich_extra[2] = CU_LAUNCH_PARAM_BUFFER_SIZE;
    rich_extra[3] = &rich_packed_size;
    rich_extra[4] = CU_LAUNCH_PARAM_END;
    r->kx = raw_kernel(r->g, NULL, 0, cgn_test_kernel(env, "add_one"), NULL, rich_extra);
    r->set = raw_memset(r->g, NULL, 0, env->buf[2], 0x33, 8);
    r->copy = raw_memcpy(r->g, &r->kp, 1, env->buf[3], env->buf[0], 4);
    CUDA_HOST_NODE_PARAMS_v1 h = {cgn_test_callback(env, "record_a"), &host_arg};
    CU_OK(fk()->cuGraphAddHostNode(&r->host, r->g, &r->copy, 1, &h));
    CU_OK(fk()->cuGraphAddEventRecordNode(&r->rec, r->g, NULL, 0, env->event[0]));
    CU_OK(fk()->cuGraphAddEventWaitNode(&r->wait, r->g, NULL, 0, env->event[1]));
    CUgraphNode two[] = {r->set, r->kx};
    CU_OK(fk()->cuGraphAddEmptyNode(&r->empty, r->g, two, 2));
    CUgraphNodeParams p;
    memset(&p, 0, sizeof p);
    p.type = CU_GRAPH_NODE_TYPE_MEM_ALLOC;
    p.alloc.poolProps.allocType = CU_MEM_ALLOCATION_TYPE_PINNED;
    p.alloc.poolProps.location.type = CU_MEM_LOCATION_TYPE_DEVICE;
    p.alloc.poolProps.location.id = 0;
    p.alloc.bytesize = 256;
    r->alloc = raw_generic(r->g, &r->copy, 1, &p);
    CUdeviceptr dptr = p.alloc.dptr;
    memset(&p, 0, sizeof p);
    p.type = CU_GRAPH_NODE_TYPE_MEM_FREE;
    p.free.dptr = dptr;
    r->fre = raw_generic(r->g, &r->alloc, 1, &p);
    static CUexternalSemaphore sem;
    static CUDA_EXTERNAL_SEMAPHORE_SIGNAL_PARAMS sp;
    static CUDA_EXTERNAL_SEMAPHORE_WAIT_PARAMS wp;
    sem = cgn_test_sem(env, 0);
    memset(&sp, 0, sizeof sp);
    memset(&wp, 0, sizeof wp);
    sp.params.fence.value = 3;
    memset(&p, 0, sizeof p);
    p.type = CU_GRAPH_NODE_TYPE_EXT_SEMAS_SIGNAL;
    p.extSemSignal.extSemArray = &sem;
    p.extSemSignal.paramsArray = &sp;
    p.extSemSignal.numExtSems = 1;
    r->sig = raw_generic(r->g, NULL, 0, &p);
    memset(&p, 0, sizeof p);
    p.type = CU_GRAPH_NODE_TYPE_EXT_SEMAS_WAIT;
    p.extSemWait.extSemArray = &sem;
    p.extSemWait.paramsArray = &wp;
    p.extSemWait.numExtSems = 1;
    r->swait = raw_generic(r->g, NULL, 0, &p);
    static CUstreamBatchMemOpParams op;
    op = cgn_test_mem_op(env, CU_STREAM_MEM_OP_WRITE_VALUE_32, 2, 16, 5, 0);
    memset(&p, 0, sizeof p);
    p.type = CU_GRAPH_NODE_TYPE_BATCH_MEM_OP;
    p.memOp.ctx = ctx0();
    p.memOp.count = 1;
    p.memOp.paramArray = &op;
    r->memop = raw_generic(r->g, NULL, 0, &p);
    memset(&p, 0, sizeof p);
    p.type = CGN_FAKE_FOREIGN_NODE_TYPE;
    r->foreign = raw_generic(r->g, &r->empty, 1, &p);
    CUgraphConditionalHandle handle;
    CU_OK(fk()->cuGraphConditionalHandleCreate(&handle, r->g, ctx0(), 0, 0));
    CUgraph body[1] = {NULL};
    memset(&p, 0, sizeof p);
    p.type = CU_GRAPH_NODE_TYPE_CONDITIONAL;
    p.conditional.handle = handle;
    p.conditional.type = CU_GRAPH_COND_TYPE_IF;
    p.conditional.size = 1;
    p.conditional.phGraph_out = body;
    p.conditional.ctx = ctx0();
    r->cond = raw_generic(r->g, &r->foreign, 1, &p);
    CU_OK(fk()->cuGraphAddChildGraphNode(&r->child, r->g, &r->empty, 1, inner));
    CU_OK(fk()->cuGraphDestroy(inner));
    /* the embedded copies */
    CU_OK(fk()->cuGraphChildGraphNodeGetGraph(r->child, &r->inner_emb));
    r->ik = first_node(r->inner_emb, 0);
    r->ichild = first_node(r->inner_emb, 1);
    CU_OK(fk()->cuGraphChildGraphNodeGetGraph(r->ichild, &r->grand_emb));
    r->gset = first_node(r->grand_emb, 0);
    r->gk = first_node(r->grand_emb, 1);
    assert_int_equal(cgn_fake_graph_node_count(r->g), RICH_TOP);
}

/* build_rich, then the graph adopted borrowed (flags 0). */
static cgn_graph *adopt_rich(cgn_test_env *env, rich *r) {
    build_rich(env, r);
    cgn_graph *g = NULL;
    OK(cgn_graph_adopt(r->g, 0, &g));
    return g;
}

/* Destroys g, adopted borrowed from r's raw graph, and then that raw graph. */
static void destroy_rich(cgn_graph *g, rich *r) {
    OK(cgn_graph_destroy(g));
    CU_OK(fk()->cuGraphDestroy(r->g));
}

static cgn_node *at(cgn_graph *g, CUgraphNode raw) {
    cgn_node *n = NULL;
    OK(cgn_graph_find_raw(g, raw, &n));
    assert_non_null(n);
    return n;
}

static cgn_node_type type_of(cgn_node *n) {
    cgn_node_type t = CGN_NODE_TYPE_COUNT_;
    OK(cgn_node_type_of(n, &t));
    return t;
}

/* Every node of the rich graph is recorded with its type, in insertion order (every dependency
 * is an earlier node, so the topological order with ties in cuGraphGetNodes order is the
 * insertion order); updatable types pass cgn_node_check_updatable, the others are refused
 * naming the CUDA node type; the graph runs as built; borrowed, the raw graph outlives cgn's. */
static void test_rich_adopt_types_and_order(void **state) {
    cgn_test_env *env = *state;
    rich r;
    cgn_graph *g = adopt_rich(env, &r);
    cgn_node *nodes[RICH_TOP + 1];
    size_t n = RICH_TOP + 1;
    OK(cgn_graph_nodes(g, nodes, &n));
    assert_int_equal(n, RICH_TOP);
    CUgraphNode order[RICH_TOP] = {r.kp,  r.kx,    r.set,  r.copy,   r.host,  r.rec,
                                   r.wait, r.empty, r.alloc, r.fre,   r.sig,   r.swait,
                                   r.memop, r.foreign, r.cond, r.child};
    for (size_t i = 0; i < RICH_TOP; i++) {
        CUgraphNode rn = NULL;
        OK(cgn_node_raw(nodes[i], &rn));
        if (rn != order[i])
            fail_msg("node %zu of cgn_graph_nodes is not the %zu-th added", i, i);
    }
    assert_int_equal(type_of(at(g, r.kp)), CGN_NODE_KERNEL);
    assert_int_equal(type_of(at(g, r.kx)), CGN_NODE_KERNEL);
    assert_int_equal(type_of(at(g, r.set)), CGN_NODE_MEMSET);
    assert_int_equal(type_of(at(g, r.copy)), CGN_NODE_MEMCPY);
    assert_int_equal(type_of(at(g, r.host)), CGN_NODE_HOST);
    assert_int_equal(type_of(at(g, r.rec)), CGN_NODE_EVENT_RECORD);
    assert_int_equal(type_of(at(g, r.wait)), CGN_NODE_EVENT_WAIT);
    assert_int_equal(type_of(at(g, r.empty)), CGN_NODE_EMPTY);
    assert_int_equal(type_of(at(g, r.alloc)), CGN_NODE_MEM_ALLOC);
    assert_int_equal(type_of(at(g, r.fre)), CGN_NODE_MEM_FREE);
    assert_int_equal(type_of(at(g, r.sig)), CGN_NODE_EXT_SEM_SIGNAL);
    assert_int_equal(type_of(at(g, r.swait)), CGN_NODE_EXT_SEM_WAIT);
    assert_int_equal(type_of(at(g, r.foreign)), CGN_NODE_OTHER);
    assert_int_equal(type_of(at(g, r.child)), CGN_NODE_CHILD_GRAPH);
    cgn_node_type ct = type_of(at(g, r.cond));
    assert_int_equal(ct, CGN_NODE_OTHER); /* "Node types cgn does not build (conditional ...)" */
    assert_int_equal(type_of(at(g, r.memop)), CGN_NODE_BATCH_MEM_OP);

    CUgraphNode updatable[] = {r.kp, r.kx, r.set, r.copy, r.host, r.rec, r.wait, r.child,
                               r.sig, r.swait, r.memop};
    for (size_t i = 0; i < sizeof updatable / sizeof *updatable; i++)
        OK(cgn_node_check_updatable(at(g, updatable[i])));
    EXPECT_ST(CGN_ERROR_NOT_SUPPORTED, cgn_node_check_updatable(at(g, r.alloc)));
    EXPECT_MSG("CU_GRAPH_NODE_TYPE_MEM_ALLOC");
    EXPECT_ST(CGN_ERROR_NOT_SUPPORTED, cgn_node_check_updatable(at(g, r.fre)));
    EXPECT_MSG("CU_GRAPH_NODE_TYPE_MEM_FREE");
    EXPECT_ST(CGN_ERROR_NOT_SUPPORTED, cgn_node_check_updatable(at(g, r.foreign)));
    EXPECT_MSG("a CUDA node type cgn does not know");
    EXPECT_ST(CGN_ERROR_NOT_SUPPORTED, cgn_node_check_updatable(at(g, r.cond)));
    EXPECT_MSG("CU_GRAPH_NODE_TYPE_CONDITIONAL");

    /* Typed gets and updates of a foreign node: NOT_SUPPORTED naming the type. */
    cgn_kernel_desc kd;
    EXPECT_ST(CGN_ERROR_NOT_SUPPORTED, cgn_kernel_node_get(at(g, r.foreign), &kd));
    EXPECT_MSG("a CUDA node type cgn does not know");
    cgn_event_record_update eu = CGN_EVENT_RECORD_UPDATE_INIT;
    cgn_event_record_update_set_event(&eu, env->event[1], NULL);
    EXPECT_ST(CGN_ERROR_NOT_SUPPORTED, cgn_event_record_node_update(at(g, r.foreign), &eu));
    EXPECT_MSG("a CUDA node type cgn does not know");
    if (ct == CGN_NODE_OTHER) {
        EXPECT_ST(CGN_ERROR_NOT_SUPPORTED, cgn_event_record_node_update(at(g, r.cond), &eu));
        EXPECT_MSG("CU_GRAPH_NODE_TYPE_CONDITIONAL");
    }

    /* Dependencies as built, for nodes cgn does not update too. */
    cgn_node *deps[4];
    size_t nd = 4;
    OK(cgn_node_dependencies(at(g, r.cond), deps, &nd));
    assert_int_equal(nd, 1);
    assert_ptr_equal(deps[0], at(g, r.foreign));
    nd = 4;
    OK(cgn_node_dependencies(at(g, r.empty), deps, &nd));
    assert_int_equal(nd, 2);
    assert_ptr_equal(deps[0], at(g, r.set));
    assert_ptr_equal(deps[1], at(g, r.kx));
    nd = 4;
    OK(cgn_node_dependents(at(g, r.empty), deps, &nd));
    assert_int_equal(nd, 2); /* foreign, child, in graph order */
    assert_ptr_equal(deps[0], at(g, r.foreign));
    assert_ptr_equal(deps[1], at(g, r.child));

    /* A host node's argument reads as user_data; a child node's graph reads NULL. */
    cgn_host_callback_desc hd;
    OK(cgn_host_callback_node_get(at(g, r.host), &hd));
    assert_ptr_equal(hd.user_data, &host_arg);
    assert_ptr_equal(hd.fn, cgn_test_callback(env, "record_a"));
    cgn_child_graph_desc cd;
    OK(cgn_child_graph_node_get(at(g, r.child), &cd));
    assert_null(cd.graph);

    /* It runs as built. */
    cgn_exec *x = NULL;
    OK(cgn_graph_instantiate(g, &x));
    zero_bufs(env);
    OK(env->backend->launch(env, x));
    assert_int_equal(u32_at_dev(env, env->buf[0]), 7);
    assert_int_equal(u32_at_dev(env, env->buf[1]), 1);
    assert_int_equal(u32_at_dev(env, env->buf[1] + 8), 5);
    assert_int_equal(u32_at_dev(env, env->buf[2]), 0x33333333u);
    assert_int_equal(u32_at_dev(env, env->buf[2] + 8), 0x44444444u);
    assert_int_equal(u32_at_dev(env, env->buf[2] + 16), 5);
    assert_int_equal(u32_at_dev(env, env->buf[3]), 7);
    assert_int_equal(u32_at_dev(env, env->buf[3] + 8), 1);
    OK(cgn_exec_destroy(x));

    /* Borrowed: cgn_graph_destroy leaves the raw graph alive and usable. */
    size_t live = cgn_fake_live_objects();
    OK(cgn_graph_destroy(g));
    assert_true(cgn_fake_live_objects() <= live);
    assert_int_equal(cgn_fake_graph_node_count(r.g), RICH_TOP);
    CUgraphExec rx;
    CU_OK(fk()->cuGraphInstantiateWithFlags(&rx, r.g, 0));
    zero_bufs(env);
    CU_OK(fk()->cuGraphLaunch(rx, NULL));
    assert_int_equal(u32_at_dev(env, env->buf[3] + 8), 1);
    CU_OK(fk()->cuGraphExecDestroy(rx));
    CU_OK(fk()->cuGraphDestroy(r.g));
}

/* Every driver call of adopting the rich graph with CGN_ADOPT_TAKE_OWNERSHIP failing in turn:
 * a failure leaves no handle, no driver object, and the raw graph alive (the caller's again)
 * with its nodes and parameters as they were; a success owns and destroys it. */
static void rich_fault_sweep(cgn_test_env *env, int version) {
    cgn_fault_set_version(version);
    size_t baseline = cgn_fake_live_objects();
    int failures = 0, done = 0;
    for (long k = 1; k < 400 && !done; k++) {
        rich r;
        build_rich(env, &r);
        size_t live = cgn_fake_live_objects();
        cgn_graph *g = NULL;
        bb_fault_arm(k, CUDA_ERROR_OUT_OF_MEMORY);
        cgn_status st = cgn_graph_adopt(r.g, CGN_ADOPT_TAKE_OWNERSHIP, &g);
        cgn_fault_entry which;
        int hit = bb_fault_done(&which);
        if (!hit) {
            OK(st);
            done = 1;
        }
        if (st == CGN_OK) {
            assert_non_null(g);
            size_t n = 0;
            OK(cgn_graph_nodes(g, NULL, &n));
            assert_int_equal(n, RICH_TOP);
            cgn_node *gk = at(g, r.gk);
            if (version >= 12040) {
                cgn_kernel_desc d;
                OK(cgn_kernel_node_get(gk, &d));
                assert_int_equal(d.num_args, 1);
            }
            OK(cgn_graph_destroy(g)); /* destroys r.g */
        } else {
            failures++;
            if (g != NULL)
                fail_msg("failed adopt (call %ld, %s) left a handle", k,
                         cgn_fault_entry_name(which));
            assert_int_equal(cgn_last_status(), st);
            assert_true(cgn_last_error()[0] != '\0');
            if (cgn_fake_live_objects() != live)
                fail_msg("failed adopt (call %ld, %s): %zu live objects, %zu before", k,
                         cgn_fault_entry_name(which), cgn_fake_live_objects(), live);
            assert_int_equal(cgn_fake_graph_node_count(r.g), RICH_TOP);
            uint32_t v = 0;
            raw_arg(r.kp, 1, &v, sizeof v);
            assert_int_equal(v, 7);
            CU_OK(fk()->cuGraphDestroy(r.g)); /* still the caller's */
        }
        assert_int_equal(cgn_fake_live_objects(), baseline);
    }
    assert_true(done);
    assert_true(failures > 10);
    cgn_fault_set_version(13000);
}

static void test_rich_adopt_fault_sweep(void **state) {
    rich_fault_sweep(*state, 13000);
}

/* The same on a 12.3 driver, where kernels' argument sizes are unknown. */
static void test_rich_adopt_fault_sweep_12_3(void **state) {
    rich_fault_sweep(*state, 12030);
}

/* Lookups across two levels of embeddings, the count convention, and an argument edit of a
 * kernel two embeddings down at executable level (the definition keeps its value). */
static void test_nested_lookups_and_edits(void **state) {
    cgn_test_env *env = *state;
    rich r;
    cgn_graph *g = adopt_rich(env, &r);
    cgn_node *gk = at(g, r.gk), *ik = at(g, r.ik), *ichild = at(g, r.ichild);
    cgn_graph *inner = NULL, *grand = NULL, *owner_graph = NULL;
    OK(cgn_child_graph_node_embedded(at(g, r.child), &inner));
    OK(cgn_child_graph_node_embedded(ichild, &grand));
    OK(cgn_node_graph(gk, &owner_graph));
    assert_ptr_equal(owner_graph, grand);
    OK(cgn_node_graph(ik, &owner_graph));
    assert_ptr_equal(owner_graph, inner);
    /* the embedded graphs find their own nodes, not their parent's */
    cgn_node *found = NULL;
    OK(cgn_graph_find_raw(inner, r.gk, &found));
    assert_ptr_equal(found, gk);
    found = NULL;
    assert_int_not_equal(cgn_graph_find_raw(grand, r.kp, &found), CGN_OK);
    assert_true(cgn_last_error()[0] != '\0');
    assert_null(found);
    size_t n = 0;
    OK(cgn_graph_nodes(inner, NULL, &n));
    assert_int_equal(n, 2);
    OK(cgn_graph_nodes(grand, NULL, &n));
    assert_int_equal(n, 2);

    /* add_one: kx at top, gk two levels down, in that order; with out too small, one written
     * and the count of all. */
    cgn_kernel add_one = cgn_test_kernel(env, "add_one");
    cgn_node *list[3] = {NULL, NULL, NULL};
    size_t cnt = 0;
    OK(cgn_graph_find_kernel(g, add_one, NULL, &cnt));
    assert_int_equal(cnt, 2);
    cnt = 3;
    OK(cgn_graph_find_kernel(g, add_one, list, &cnt));
    assert_int_equal(cnt, 2);
    assert_ptr_equal(list[0], at(g, r.kx));
    assert_ptr_equal(list[1], gk);
    cgn_node *sentinel = (cgn_node *)&cnt;
    list[0] = list[1] = list[2] = sentinel;
    cnt = 1;
    OK(cgn_graph_find_kernel(g, add_one, list, &cnt));
    assert_int_equal(cnt, 2);
    assert_ptr_equal(list[0], at(g, r.kx));
    assert_ptr_equal(list[1], sentinel);
    /* the CUkernel of add_one finds the CUfunction launches */
    cnt = 3;
    OK(cgn_graph_find_kernel(g, CGN_KERNEL(cgn_fake_kernel_of(add_one.function)), list, &cnt));
    assert_int_equal(cnt, 2);
    /* fill_u32: kp (CUkernel) at top, ik (its CUfunction) in inner */
    cnt = 3;
    OK(cgn_graph_find_kernel(g, cgn_test_kernel(env, "fill_u32"), list, &cnt));
    assert_int_equal(cnt, 2);
    assert_ptr_equal(list[0], at(g, r.kp));
    assert_ptr_equal(list[1], ik);
    cnt = 3;
    OK(cgn_graph_find_kernel(grand, cgn_test_kernel(env, "fill_u32"), list, &cnt));
    assert_int_equal(cnt, 0);

    /* dependencies and dependents inside embeddings, with out too small */
    cgn_node *d[2] = {sentinel, sentinel};
    size_t nd = 0;
    OK(cgn_node_dependencies(gk, d, &nd));
    assert_int_equal(nd, 1);
    assert_ptr_equal(d[0], sentinel);
    nd = 2;
    OK(cgn_node_dependencies(gk, d, &nd));
    assert_int_equal(nd, 1);
    assert_ptr_equal(d[0], at(g, r.gset));
    nd = 2;
    OK(cgn_node_dependents(ik, d, &nd));
    assert_int_equal(nd, 1);
    assert_ptr_equal(d[0], ichild);

    /* an argument edit of gk at executable level */
    cgn_exec *x = NULL;
    OK(cgn_graph_instantiate(g, &x));
    CUdeviceptr elsewhere = env->buf[0] + 32;
    cgn_kernel_update u = CGN_KERNEL_UPDATE_INIT;
    cgn_kernel_update_set_arg(&u, 0, &elsewhere, sizeof elsewhere, NULL);
    OK(cgn_kernel_exec_update(x, gk, &u));
    zero_bufs(env);
    OK(env->backend->launch(env, x));
    assert_int_equal(u32_at_dev(env, env->buf[3] + 8), 0);
    assert_int_equal(u32_at_dev(env, env->buf[0] + 32), 1);
    cgn_kernel_desc kd;
    OK(cgn_kernel_node_get(gk, &kd));
    CUdeviceptr defp;
    memcpy(&defp, kd.args[0].value, sizeof defp);
    assert_true(defp == env->buf[3] + 8);
    OK(cgn_kernel_exec_get(x, gk, &kd));
    memcpy(&defp, kd.args[0].value, sizeof defp);
    assert_true(defp == elsewhere);
    /* refusals change nothing and call no setter */
    cgn_fault_reset_counts();
    uint32_t small = 1;
    cgn_kernel_update bad = CGN_KERNEL_UPDATE_INIT;
    cgn_kernel_update_set_arg(&bad, 0, &small, sizeof small, NULL);
    EXPECT_ST(CGN_ERROR_INVALID_VALUE, cgn_kernel_exec_update(x, gk, &bad));
    cgn_kernel_update_reset(&bad);
    cgn_kernel_update_set_arg(&bad, 1, &elsewhere, sizeof elsewhere, NULL);
    EXPECT_ST(CGN_ERROR_INVALID_VALUE, cgn_kernel_exec_update(x, gk, &bad));
    cgn_kernel_update_reset(&bad);
    for (uint32_t i = 0; i <= CGN_MAX_ARG_EDITS; i++)
        cgn_kernel_update_set_arg(&bad, 0, &elsewhere, sizeof elsewhere, NULL);
    EXPECT_ST(CGN_ERROR_INVALID_ARGUMENT, cgn_kernel_exec_update(x, gk, &bad));
    EXPECT_ST(CGN_ERROR_INVALID_ARGUMENT, cgn_kernel_node_update(gk, &bad));
    assert_int_equal(cgn_fault_setter_calls(), 0);
    OK(cgn_kernel_exec_get(x, gk, &kd));
    memcpy(&defp, kd.args[0].value, sizeof defp);
    assert_true(defp == elsewhere);
    destroy_exec_graph(x, g);
    CU_OK(fk()->cuGraphDestroy(r.g));
}

/* Bad input to the adoption calls: a specific status and a message, nothing created. */
static void test_adopt_bad_input(void **state) {
    cgn_test_env *env = *state;
    CUgraph rg = raw_graph();
    CUgraphNode set = raw_memset(rg, NULL, 0, env->buf[0], 1, 4);
    size_t live = cgn_fake_live_objects();
    cgn_graph *g = NULL;
    /* a raw graph that was destroyed */
    CUgraph dead = raw_graph();
    CU_OK(fk()->cuGraphDestroy(dead));
    cgn_status st = cgn_graph_adopt(dead, 0, &g);
    assert_int_not_equal(st, CGN_OK);
    assert_int_equal(cgn_last_status(), st);
    assert_true(cgn_last_error()[0] != '\0');
    assert_null(g);
    assert_int_equal(cgn_fake_live_objects(), live);
    OK(cgn_graph_adopt(rg, 0, &g));
    /* find_raw: a NULL raw node, one of another graph */
    cgn_node *found = NULL;
    st = cgn_graph_find_raw(g, NULL, &found);
    assert_int_not_equal(st, CGN_OK);
    assert_true(cgn_last_error()[0] != '\0');
    CUgraph other = raw_graph();
    CUgraphNode stranger = raw_memset(other, NULL, 0, env->buf[1], 1, 4);
    st = cgn_graph_find_raw(g, stranger, &found);
    assert_int_not_equal(st, CGN_OK);
    assert_true(cgn_last_error()[0] != '\0');
    assert_null(found);
    EXPECT_ST(CGN_ERROR_INVALID_ARGUMENT, cgn_graph_find_raw(g, set, NULL));
    EXPECT_ST(CGN_ERROR_INVALID_ARGUMENT, cgn_graph_find_raw(NULL, set, &found));
    size_t cnt = 0;
    EXPECT_ST(CGN_ERROR_INVALID_ARGUMENT,
              cgn_graph_find_kernel(g, cgn_test_kernel(env, "add_one"), NULL, NULL));
    cgn_kernel neither = {NULL, NULL};
    st = cgn_graph_find_kernel(g, neither, NULL, &cnt);
    assert_int_not_equal(st, CGN_OK);
    assert_true(cgn_last_error()[0] != '\0');
    /* refresh: NULL, and a destroyed adopted node */
    EXPECT_ST(CGN_ERROR_INVALID_ARGUMENT, cgn_node_refresh(NULL));
    EXPECT_ST(CGN_ERROR_INVALID_ARGUMENT, cgn_node_check_updatable(NULL));
    cgn_node *n = at(g, set);
    OK(cgn_node_destroy(n));
    EXPECT_ST(CGN_ERROR_DESTROYED, cgn_node_refresh(n));
    EXPECT_ST(CGN_ERROR_DESTROYED, cgn_node_check_updatable(n));
    /* exec_adopt of a destroyed raw executable */
    CUgraphExec rx;
    CU_OK(fk()->cuGraphInstantiateWithFlags(&rx, rg, 0));
    CU_OK(fk()->cuGraphExecDestroy(rx));
    cgn_exec *x = NULL;
    (void)cgn_exec_adopt(rx, g, 0, &x); /* may not be detectable; must not crash */
    if (x != NULL)
        OK(cgn_exec_destroy(x));
    OK(cgn_graph_destroy(g));
    /* exec_adopt with a destroyed cgn graph */
    CU_OK(fk()->cuGraphInstantiateWithFlags(&rx, rg, 0));
    x = NULL;
    EXPECT_ST(CGN_ERROR_DESTROYED, cgn_exec_adopt(rx, g, 0, &x));
    assert_null(x);
    CU_OK(fk()->cuGraphExecDestroy(rx));
    CU_OK(fk()->cuGraphDestroy(other));
    CU_OK(fk()->cuGraphDestroy(rg));
}

/* Unknown adoption flags are bad input: refused, nothing adopted, the raw graph untouched. */
static void test_adopt_unknown_flags(void **state) {
    cgn_test_env *env = *state;
    CUgraph rg = raw_graph();
    (void)raw_memset(rg, NULL, 0, env->buf[0], 1, 4);
    size_t live = cgn_fake_live_objects();
    cgn_graph *g = NULL;
    cgn_status st = cgn_graph_adopt(rg, 0x2u, &g);
    if (st == CGN_OK) {
        OK(cgn_graph_destroy(g));
        CU_OK(fk()->cuGraphDestroy(rg));
        fail_msg("%s", "cgn_graph_adopt accepted the unknown flag 0x2");
    }
    assert_true(st == CGN_ERROR_INVALID_ARGUMENT || st == CGN_ERROR_INVALID_VALUE);
    assert_null(g);
    assert_int_equal(cgn_fake_live_objects(), live);
    OK(cgn_graph_adopt(rg, 0, &g));
    CUgraphExec rx;
    CU_OK(fk()->cuGraphInstantiateWithFlags(&rx, rg, 0));
    cgn_exec *x = NULL;
    st = cgn_exec_adopt(rx, g, 0x80000000u, &x);
    if (st == CGN_OK)
        OK(cgn_exec_destroy(x));
    CU_OK(fk()->cuGraphExecDestroy(rx));
    OK(cgn_graph_destroy(g));
    CU_OK(fk()->cuGraphDestroy(rg));
    assert_int_not_equal(st, CGN_OK);
}

/* Borrowed: what cgn's definition-level updates wrote stays in the raw graph after
 * cgn_graph_destroy, and adopting it again reads it back; a node added through cgn stays too. */
static void test_borrowed_graph_keeps_updates(void **state) {
    cgn_test_env *env = *state;
    CUgraph rg = raw_graph();
    CUgraphNode set = raw_memset(rg, NULL, 0, env->buf[0], 0x11, 8);
    cgn_graph *g = NULL;
    OK(cgn_graph_adopt(rg, 0, &g));
    cgn_memset_update u = bb_value_update(0x22);
    OK(cgn_memset_node_update(at(g, set), &u));
    cgn_node *e = NULL;
    cgn_node *dep = at(g, set);
    OK(cgn_graph_add_empty(g, &dep, 1, &e));
    OK(cgn_graph_destroy(g));
    assert_int_equal(cgn_fake_graph_node_count(rg), 2);
    CUgraphNodeParams p;
    assert_int_equal(cgn_fake_node_params(set, &p), 1);
    assert_int_equal(p.memset.value, 0x22);
    g = NULL;
    OK(cgn_graph_adopt(rg, CGN_ADOPT_TAKE_OWNERSHIP, &g));
    cgn_memset_desc d;
    OK(cgn_memset_node_get(at(g, set), &d));
    assert_int_equal(d.value, 0x22);
    assert_int_equal(cgn_test_count_nodes(g), 2);
    assert_int_equal(cgn_test_run_graph_read(env, g, 0), 0x22);
    OK(cgn_graph_destroy(g)); /* owned now: destroys rg */
    assert_int_equal(cgn_fake_graph_node_count(rg), 0);
}

/* Before 12.4, argument edits are DRIVER_TOO_OLD "before anything else is checked" (a bad index
 * and size included), naming both versions; a node adopted on 12.3 still refuses them on a
 * newer driver, until an update sets every argument. An adopted `extra` kernel whose sizes are
 * unknown still runs as built. */
static void test_old_driver_edit_order(void **state) {
    cgn_test_env *env = *state;
    CUgraph rg = raw_graph();
    CUdeviceptr target = env->buf[1];
    size_t packed = sizeof target;
    void *extra[] = {CU_LAUNCH_PARAM_BUFFER_POINTER, &target, CU_LAUNCH_PARAM_BUFFER_SIZE,
                     &packed, CU_LAUNCH_PARAM_END};
    CUgraphNode kn = raw_kernel(rg, NULL, 0, cgn_test_kernel(env, "add_one"), NULL, extra);
    cgn_fault_set_version(12030);
    cgn_graph *g = NULL;
    OK(cgn_graph_adopt(rg, CGN_ADOPT_TAKE_OWNERSHIP, &g));
    cgn_node *k = at(g, kn);
    uint8_t one_byte = 0;
    cgn_kernel_update u = CGN_KERNEL_UPDATE_INIT;
    cgn_kernel_update_set_arg(&u, 99, &one_byte, sizeof one_byte, NULL);
    EXPECT_ST(CGN_ERROR_DRIVER_TOO_OLD, cgn_kernel_node_update(k, &u));
    EXPECT_MSG("12.4");
    EXPECT_MSG("12.3");
    cgn_exec *x = NULL;
    OK(cgn_graph_instantiate(g, &x));
    EXPECT_ST(CGN_ERROR_DRIVER_TOO_OLD, cgn_kernel_exec_update(x, k, &u));
    zero_bufs(env);
    OK(env->backend->launch(env, x));
    assert_int_equal(u32_at_dev(env, env->buf[1]), 1);
    /* a newer driver: the node still has no sizes */
    cgn_fault_set_version(13000);
    CUdeviceptr other = env->buf[2];
    cgn_kernel_update v = CGN_KERNEL_UPDATE_INIT;
    cgn_kernel_update_set_arg(&v, 0, &other, sizeof other, NULL);
    /* docs/adopt.md: unknown arguments, CGN_ERROR_NOT_SUPPORTED naming the driver version */
    EXPECT_ST(CGN_ERROR_NOT_SUPPORTED, cgn_kernel_node_update(k, &v));
    EXPECT_MSG("12.4");
    EXPECT_ST(CGN_ERROR_NOT_SUPPORTED, cgn_kernel_exec_update(x, k, &v));
    EXPECT_MSG("12.4");
    cgn_arg all[1] = {CGN_ARG(other)};
    cgn_kernel_update w = CGN_KERNEL_UPDATE_INIT;
    cgn_kernel_update_set_args(&w, all, 1);
    OK(cgn_kernel_exec_update(x, k, &w));
    zero_bufs(env);
    OK(env->backend->launch(env, x));
    assert_int_equal(u32_at_dev(env, env->buf[1]), 0);
    assert_int_equal(u32_at_dev(env, env->buf[2]), 1);
    /* after setting every argument the node is like any other (docs/adopt.md): edits work at
     * the level that was set, and at the other one once it is set there too */
    CUdeviceptr third = env->buf[3];
    cgn_kernel_update_reset(&v);
    cgn_kernel_update_set_arg(&v, 0, &third, sizeof third, NULL);
    OK(cgn_kernel_exec_update(x, k, &v));
    EXPECT_ST(CGN_ERROR_NOT_SUPPORTED, cgn_kernel_node_update(k, &v));
    OK(cgn_kernel_node_update(k, &w));
    OK(cgn_kernel_node_update(k, &v));
    zero_bufs(env);
    OK(env->backend->launch(env, x));
    assert_int_equal(u32_at_dev(env, env->buf[3]), 1);
    destroy_exec_graph(x, g);
}

/* "Fields an update does not set keep cgn's value": a kernel argument and the grid changed
 * behind cgn's back are reverted by an argument edit of another argument without a refresh,
 * and kept with one. */
static void test_refresh_kernel_fields_kept(void **state) {
    cgn_test_env *env = *state;
    CUgraph rg = raw_graph();
    CUdeviceptr out = env->buf[0];
    uint32_t seven = 7;
    void *params[] = {&out, &seven};
    cgn_kernel fill = cgn_test_kernel(env, "fill_u32");
    CUgraphNode kn = raw_kernel(rg, NULL, 0, fill, params, NULL);
    cgn_graph *g = NULL;
    OK(cgn_graph_adopt(rg, CGN_ADOPT_TAKE_OWNERSHIP, &g));
    cgn_node *k = at(g, kn);
    for (int refresh = 0; refresh < 2; refresh++) {
        uint32_t nine = 9;
        void *params2[] = {&out, &nine};
        CUDA_KERNEL_NODE_PARAMS_v2 p;
        kparams(&p, fill, params2, NULL);
        p.gridDimX = 3;
        CU_OK(fk()->cuGraphKernelNodeSetParams(kn, &p)); /* behind cgn's back */
        if (refresh)
            OK(cgn_node_refresh(k));
        CUdeviceptr dst = env->buf[1];
        cgn_kernel_update u = CGN_KERNEL_UPDATE_INIT;
        cgn_kernel_update_set_arg(&u, 0, &dst, sizeof dst, NULL);
        OK(cgn_kernel_node_update(k, &u));
        uint32_t v = 0;
        raw_arg(kn, 1, &v, sizeof v);
        assert_int_equal(v, refresh ? 9 : 7);
        CUgraphNodeParams np;
        assert_int_equal(cgn_fake_node_params(kn, &np), 1);
        assert_int_equal(np.kernel.gridDimX, refresh ? 3 : 1);
        CUdeviceptr d0 = 0;
        raw_arg(kn, 0, &d0, sizeof d0);
        assert_true(d0 == dst);
        cgn_kernel_desc kd;
        OK(cgn_kernel_node_get(k, &kd));
        memcpy(&v, kd.args[1].value, sizeof v);
        assert_int_equal(v, refresh ? 9 : 7);
        assert_int_equal(kd.grid.x, refresh ? 3 : 1);
        /* back to the start for the next round */
        cgn_kernel_update r0 = CGN_KERNEL_UPDATE_INIT;
        cgn_kernel_update_set_arg(&r0, 0, &out, sizeof out, NULL);
        cgn_kernel_update_set_arg(&r0, 1, &seven, sizeof seven, NULL);
        cgn_kernel_update_set_grid(&r0, CGN_DIM3(1, 1, 1));
        OK(cgn_kernel_node_update(k, &r0));
    }
    OK(cgn_graph_destroy(g));
}

/* cgn's own graph lists nodes in the order they were added, even when a later root comes after
 * a dependent (docs/adopt.md "Order"); its adopted raw graph lists them the same way. */
static void test_order_is_add_order(void **state) {
    cgn_test_env *env = *state;
    CUgraph rg = raw_graph();
    CUgraphNode a = raw_memset(rg, NULL, 0, env->buf[0], 1, 4);
    CUgraphNode b = raw_memset(rg, &a, 1, env->buf[0], 2, 4);
    CUgraphNode c = raw_memset(rg, NULL, 0, env->buf[1], 3, 4);
    CUgraphNode d = raw_memset(rg, &b, 1, env->buf[1], 4, 4);
    CUgraphNode want[] = {a, b, c, d};
    cgn_graph *g = NULL;
    OK(cgn_graph_adopt(rg, CGN_ADOPT_TAKE_OWNERSHIP, &g));
    cgn_node *nodes[4];
    size_t n = 4;
    OK(cgn_graph_nodes(g, nodes, &n));
    assert_int_equal(n, 4);
    for (size_t i = 0; i < 4; i++) {
        CUgraphNode rn;
        OK(cgn_node_raw(nodes[i], &rn));
        if (rn != want[i])
            fail_msg("adopted: position %zu is not the %zu-th node added", i, i);
    }
    OK(cgn_graph_destroy(g));
    /* the same through cgn */
    cgn_graph *own = NULL;
    OK(cgn_graph_create(&own));
    cgn_node *an, *bn, *cn, *dn;
    OK(cgn_graph_add_empty(own, NULL, 0, &an));
    OK(cgn_graph_add_empty(own, &an, 1, &bn));
    OK(cgn_graph_add_empty(own, NULL, 0, &cn));
    OK(cgn_graph_add_empty(own, &bn, 1, &dn));
    cgn_node *own_want[] = {an, bn, cn, dn};
    n = 4;
    OK(cgn_graph_nodes(own, nodes, &n));
    assert_int_equal(n, 4);
    for (size_t i = 0; i < 4; i++)
        if (nodes[i] != own_want[i])
            fail_msg("cgn's own: position %zu is not the %zu-th node added", i, i);
    OK(cgn_graph_destroy(own));
}

/* Every driver call of cgn_exec_adopt failing in turn (with CGN_ADOPT_TAKE_OWNERSHIP): no handle,
 * no driver object made or destroyed, the raw executable still the caller's and launchable. */
static void test_exec_adopt_fault_sweep(void **state) {
    cgn_test_env *env = *state;
    rich r;
    cgn_graph *g = adopt_rich(env, &r);
    int failures = 0, done = 0;
    for (long k = 1; k < 200 && !done; k++) {
        CUgraphExec rx;
        CU_OK(fk()->cuGraphInstantiateWithFlags(&rx, r.g, 0));
        size_t live = cgn_fake_live_objects();
        cgn_exec *x = NULL;
        bb_fault_arm(k, CUDA_ERROR_OUT_OF_MEMORY);
        cgn_status st = cgn_exec_adopt(rx, g, CGN_ADOPT_TAKE_OWNERSHIP, &x);
        cgn_fault_entry which;
        int hit = bb_fault_done(&which);
        if (!hit) {
            OK(st);
            done = 1;
        }
        if (st == CGN_OK) {
            /* an executable-level edit two embeddings down, then cgn lets go of rx */
            CUdeviceptr elsewhere = env->buf[0] + 32;
            cgn_kernel_update u = CGN_KERNEL_UPDATE_INIT;
            cgn_kernel_update_set_arg(&u, 0, &elsewhere, sizeof elsewhere, NULL);
            OK(cgn_kernel_exec_update(x, at(g, r.gk), &u));
            zero_bufs(env);
            OK(env->backend->launch(env, x));
            assert_int_equal(u32_at_dev(env, env->buf[0] + 32), 1);
            assert_int_equal(u32_at_dev(env, env->buf[3] + 8), 0);
            OK(cgn_exec_destroy(x)); /* owned: destroys rx */
            assert_true(cgn_fake_live_objects() < live);
        } else {
            failures++;
            if (x != NULL)
                fail_msg("failed exec adopt (call %ld, %s) left a handle", k,
                         cgn_fault_entry_name(which));
            assert_true(cgn_last_error()[0] != '\0');
            if (cgn_fake_live_objects() != live)
                fail_msg("failed exec adopt (call %ld, %s): %zu live objects, %zu before", k,
                         cgn_fault_entry_name(which), cgn_fake_live_objects(), live);
            zero_bufs(env);
            CU_OK(fk()->cuGraphLaunch(rx, NULL)); /* still the caller's, unchanged */
            assert_int_equal(u32_at_dev(env, env->buf[3] + 8), 1);
            CU_OK(fk()->cuGraphExecDestroy(rx));
        }
    }
    assert_true(done);
    (void)failures; /* cgn_exec_adopt may make no driver call at all */
    destroy_rich(g, &r);
}

/* In an adopted graph holding memory allocation nodes, cgn_node_destroy is NOT_SUPPORTED for
 * every node (cgn.h), and the node stays; refreshing nodes cgn does not update is harmless, and
 * refreshing a child node whose embedded graph was not replaced keeps the embedding's handles. */
static void test_rich_destroy_and_refresh(void **state) {
    cgn_test_env *env = *state;
    rich r;
    cgn_graph *g = adopt_rich(env, &r);
    cgn_node *kp = at(g, r.kp), *gk = at(g, r.gk), *ik = at(g, r.ik);
    EXPECT_ST(CGN_ERROR_NOT_SUPPORTED, cgn_node_destroy(kp));
    assert_true(cgn_node_is_alive(kp));
    EXPECT_ST(CGN_ERROR_NOT_SUPPORTED, cgn_node_destroy(at(g, r.child)));
    EXPECT_ST(CGN_ERROR_NOT_SUPPORTED, cgn_node_destroy(at(g, r.foreign)));
    /* (a node of an embedding is of a graph without allocation nodes: not covered by the rule) */
    assert_int_equal(cgn_test_count_nodes(g), RICH_TOP);
    CUgraphNode untouched[] = {r.foreign, r.cond, r.alloc, r.fre, r.memop, r.sig, r.swait,
                               r.host, r.rec, r.wait, r.empty, r.kx, r.set, r.copy};
    for (size_t i = 0; i < sizeof untouched / sizeof *untouched; i++)
        OK(cgn_node_refresh(at(g, untouched[i])));
    OK(cgn_node_refresh(at(g, r.child)));
    OK(cgn_node_refresh(at(g, r.ichild)));
    assert_true(cgn_node_is_alive(gk));
    assert_true(cgn_node_is_alive(ik));
    cgn_kernel_desc kd;
    OK(cgn_kernel_node_get(gk, &kd));
    /* the packed kernel's arguments survive a refresh */
    OK(cgn_kernel_node_get(at(g, r.kx), &kd));
    assert_int_equal(kd.num_args, 1);
    CUdeviceptr p0;
    memcpy(&p0, kd.args[0].value, sizeof p0);
    assert_true(p0 == env->buf[1]);
    cgn_host_callback_desc hd;
    OK(cgn_host_callback_node_get(at(g, r.host), &hd));
    assert_ptr_equal(hd.user_data, &host_arg);
    cgn_exec *x = NULL;
    OK(cgn_graph_instantiate(g, &x));
    zero_bufs(env);
    OK(env->backend->launch(env, x));
    assert_int_equal(u32_at_dev(env, env->buf[3] + 8), 1);
    assert_int_equal(u32_at_dev(env, env->buf[1]), 1);
    destroy_exec_graph(x, g);
    CU_OK(fk()->cuGraphDestroy(r.g));
}

/* Argument edits combined with a new argument list apply to the new list, on an adopted kernel;
 * an edit without a value is INVALID_ARGUMENT and changes nothing; the other adopted types read
 * back what was built (event, semaphore arrays, batch operations) and follow a refresh. */
static void test_adopted_edits_and_readback(void **state) {
    cgn_test_env *env = *state;
    rich r;
    cgn_graph *g = adopt_rich(env, &r);
    cgn_node *kp = at(g, r.kp);
    CUdeviceptr b1 = env->buf[1];
    uint32_t three = 3, nine = 9;
    cgn_arg args[2] = {CGN_ARG(b1), CGN_ARG(three)};
    cgn_kernel_update u = CGN_KERNEL_UPDATE_INIT;
    cgn_kernel_update_set_args(&u, args, 2);
    cgn_kernel_update_set_arg(&u, 1, &nine, sizeof nine, NULL);
    OK(cgn_kernel_node_update(kp, &u));
    uint32_t v = 0;
    raw_arg(r.kp, 1, &v, sizeof v);
    assert_int_equal(v, 9);
    CUdeviceptr d0 = 0;
    raw_arg(r.kp, 0, &d0, sizeof d0);
    assert_true(d0 == b1);
    /* an edit without a value */
    cgn_fault_reset_counts();
    cgn_kernel_update bad = CGN_KERNEL_UPDATE_INIT;
    cgn_kernel_update_set_arg(&bad, 1, NULL, sizeof nine, NULL);
    EXPECT_ST(CGN_ERROR_INVALID_ARGUMENT, cgn_kernel_node_update(kp, &bad));
    assert_int_equal(cgn_fault_setter_calls(), 0);
    raw_arg(r.kp, 1, &v, sizeof v);
    assert_int_equal(v, 9);

    cgn_event_record_desc ed;
    OK(cgn_event_record_node_get(at(g, r.rec), &ed));
    assert_ptr_equal(ed.event, env->event[0]);
    cgn_ext_sem_signal_desc sd;
    OK(cgn_ext_sem_signal_node_get(at(g, r.sig), &sd));
    assert_int_equal(sd.num_sems, 1);
    assert_ptr_equal(sd.sems[0], cgn_test_sem(env, 0));
    assert_int_equal(sd.sems_params[0].params.fence.value, 3);
    cgn_batch_mem_op_desc bd;
    OK(cgn_batch_mem_op_node_get(at(g, r.memop), &bd));
    assert_int_equal(bd.num_ops, 1);
    assert_int_equal(bd.ops[0].operation, CU_STREAM_MEM_OP_WRITE_VALUE_32);
    assert_int_equal(bd.ops[0].writeValue.value, 5);
    /* behind cgn's back, then refreshed */
    CU_OK(fk()->cuGraphEventRecordNodeSetEvent(r.rec, env->event[1]));
    OK(cgn_node_refresh(at(g, r.rec)));
    OK(cgn_event_record_node_get(at(g, r.rec), &ed));
    assert_ptr_equal(ed.event, env->event[1]);
    destroy_rich(g, &r);
}

/* A kernel node given another kernel behind cgn's back (and through kernelParams where it was
 * packed): after a refresh, argument edits follow the new kernel's parameters, at both levels. */
static void test_refresh_kernel_changed_kernel(void **state) {
    cgn_test_env *env = *state;
    rich r;
    cgn_graph *g = adopt_rich(env, &r);
    cgn_node *kx = at(g, r.kx);
    CUdeviceptr out = env->buf[2] + 32;
    uint32_t four = 4;
    void *params[] = {&out, &four};
    CUDA_KERNEL_NODE_PARAMS_v2 p;
    kparams(&p, cgn_test_kernel(env, "fill_u32"), params, NULL);
    CU_OK(fk()->cuGraphKernelNodeSetParams(r.kx, &p));
    OK(cgn_node_refresh(kx));
    cgn_kernel_desc kd;
    OK(cgn_kernel_node_get(kx, &kd));
    assert_int_equal(kd.num_args, 2);
    uint32_t v = 0;
    memcpy(&v, kd.args[1].value, sizeof v);
    assert_int_equal(v, 4);
    uint32_t six = 6;
    cgn_kernel_update u = CGN_KERNEL_UPDATE_INIT;
    cgn_kernel_update_set_arg(&u, 1, &six, sizeof six, NULL);
    OK(cgn_kernel_node_update(kx, &u));
    raw_arg(r.kx, 1, &v, sizeof v);
    assert_int_equal(v, 6);
    cgn_exec *x = NULL;
    OK(cgn_graph_instantiate(g, &x));
    uint32_t eight = 8;
    cgn_kernel_update w = CGN_KERNEL_UPDATE_INIT;
    cgn_kernel_update_set_arg(&w, 1, &eight, sizeof eight, NULL);
    OK(cgn_kernel_exec_update(x, kx, &w));
    zero_bufs(env);
    OK(env->backend->launch(env, x));
    assert_int_equal(u32_at_dev(env, env->buf[2] + 32), 8);
    assert_int_equal(u32_at_dev(env, env->buf[1]), 0); /* add_one no longer runs */
    destroy_exec_graph(x, g);
    CU_OK(fk()->cuGraphDestroy(r.g));
}

/* An adopted kernel of another context than the one current at adoption runs in its function's
 * context; updates made later with no context current (or another one) make the node's context
 * current for the call, never crash the driver, and leave the caller's context as it was. */
static void test_adopted_context_for_updates(void **state) {
    cgn_test_env *env = *state;
    CUcontext c1 = cgn_fake_context(1), c2 = cgn_fake_context(2);
    CUfunction f1 = cgn_fake_function_in_context(cgn_test_kernel(env, "add_one").function, c1);
    assert_non_null(f1);
    CUgraph rg = raw_graph();
    CUdeviceptr out = env->buf[0];
    void *params[] = {&out};
    CUgraphNode kn = raw_kernel(rg, NULL, 0, CGN_FUNCTION(f1), params, NULL);
    CUgraphNode sn = raw_memset(rg, NULL, 0, env->buf[1], 0x11, 8);
    cgn_fake_set_current_context(ctx0());
    cgn_graph *g = NULL;
    OK(cgn_graph_adopt(rg, CGN_ADOPT_TAKE_OWNERSHIP, &g));
    cgn_node *k = at(g, kn), *m = at(g, sn);
    cgn_exec *x = NULL;
    OK(cgn_graph_instantiate(g, &x));
    CUcontext currents[] = {NULL, c2};
    for (int i = 0; i < 2; i++) {
        cgn_fake_set_current_context(currents[i]);
        CUdeviceptr other = env->buf[2 + i];
        cgn_kernel_update u = CGN_KERNEL_UPDATE_INIT;
        cgn_kernel_update_set_arg(&u, 0, &other, sizeof other, NULL);
        OK(cgn_kernel_node_update(k, &u));
        OK(cgn_kernel_exec_update(x, k, &u));
        cgn_kernel_update grid = CGN_KERNEL_UPDATE_INIT;
        cgn_kernel_update_set_grid(&grid, CGN_DIM3(2, 1, 1));
        OK(cgn_kernel_exec_update(x, k, &grid));
        cgn_memset_update mu = bb_value_update(0x22 + (unsigned)i);
        OK(cgn_memset_node_update(m, &mu));
        OK(cgn_memset_exec_update(x, m, &mu));
        CUcontext now = (CUcontext)&now;
        CU_OK(fk()->cuCtxGetCurrent(&now));
        assert_ptr_equal(now, currents[i]);
        assert_int_equal(cgn_fake_crash_prone_calls(), 0);
        assert_ptr_equal(cgn_fake_node_context(kn), c1);
    }
    cgn_fake_set_current_context(ctx0());
    destroy_exec_graph(x, g);
}

/* A borrowed adopted executable: executable-level updates reach the raw executable, which
 * cgn_exec_destroy leaves alive and launchable with the parameters cgn gave it;
 * cgn_exec_update_from_graph brings a definition change into it. */
static void test_borrowed_exec_after_destroy(void **state) {
    cgn_test_env *env = *state;
    rich r;
    cgn_graph *g = adopt_rich(env, &r);
    CUgraphExec rx;
    CU_OK(fk()->cuGraphInstantiateWithFlags(&rx, r.g, 0));
    cgn_exec *x = NULL;
    OK(cgn_exec_adopt(rx, g, 0, &x));
    CUgraphExec back = NULL;
    OK(cgn_exec_raw(x, &back));
    assert_ptr_equal(back, rx);
    /* definition change of the nested memset, brought in from the graph */
    cgn_memset_update mu = bb_value_update(0x55);
    OK(cgn_memset_node_update(at(g, r.gset), &mu));
    OK(cgn_exec_update_from_graph(x, g));
    /* executable-level edit of the top packed kernel */
    CUdeviceptr elsewhere = env->buf[0] + 40;
    cgn_kernel_update u = CGN_KERNEL_UPDATE_INIT;
    cgn_kernel_update_set_arg(&u, 0, &elsewhere, sizeof elsewhere, NULL);
    OK(cgn_kernel_exec_update(x, at(g, r.kx), &u));
    OK(cgn_exec_destroy(x));
    zero_bufs(env);
    CU_OK(fk()->cuGraphLaunch(rx, NULL));
    assert_int_equal(u32_at_dev(env, env->buf[2] + 8), 0x55555555u);
    assert_int_equal(u32_at_dev(env, env->buf[0] + 40), 1);
    assert_int_equal(u32_at_dev(env, env->buf[1]), 0);
    CU_OK(fk()->cuGraphExecDestroy(rx));
    destroy_rich(g, &r);
}

/* An adopted conditional node: its body is not adopted, so asking for it is refused with a
 * message (never a crash or a half-made graph), and so is a typed get of another type. */
static void test_adopted_conditional_body(void **state) {
    cgn_test_env *env = *state;
    rich r;
    cgn_graph *g = adopt_rich(env, &r);
    cgn_node *c = at(g, r.cond);
    cgn_graph *body = NULL;
    assert_int_equal(type_of(c), CGN_NODE_OTHER); /* docs/adopt.md: conditional is OTHER */
    EXPECT_ST(CGN_ERROR_NOT_SUPPORTED, cgn_conditional_node_body(c, 0, &body));
    EXPECT_MSG("CU_GRAPH_NODE_TYPE_CONDITIONAL");
    assert_null(body);
    cgn_conditional_desc cd;
    EXPECT_ST(CGN_ERROR_NOT_SUPPORTED, cgn_conditional_node_get(c, &cd));
    EXPECT_MSG("CU_GRAPH_NODE_TYPE_CONDITIONAL");
    cgn_memset_desc md;
    EXPECT_ST(CGN_ERROR_NOT_SUPPORTED, cgn_memset_node_get(c, &md));
    EXPECT_MSG("CU_GRAPH_NODE_TYPE_CONDITIONAL");
    destroy_rich(g, &r);
}

/* Adopting on 12.0 and 12.1 drivers (cgn loads from 12.0; updates need 12.2; cuGraphAddNode
 * and the generic getters are missing): a status and a message, never a crash; no handle on
 * failure; on success lookups work and updates are DRIVER_TOO_OLD. (Older versions cannot be
 * posed: cgn_init refuses them, so the proxy's table would be one cgn never runs on.) */
static void test_adopt_on_old_drivers(void **state) {
    cgn_test_env *env = *state;
    rich r;
    build_rich(env, &r);
    size_t live = cgn_fake_live_objects();
    int versions[] = {12000, 12010};
    for (size_t i = 0; i < sizeof versions / sizeof *versions; i++) {
        cgn_fault_set_version(versions[i]);
        cgn_graph *g = NULL;
        cgn_status st = cgn_graph_adopt(r.g, 0, &g);
        if (st != CGN_OK) {
            assert_null(g);
            assert_true(cgn_last_error()[0] != '\0');
            assert_int_equal(cgn_fake_live_objects(), live);
            continue;
        }
        assert_int_equal(cgn_test_count_nodes(g), RICH_TOP);
        cgn_memset_update mu = bb_value_update(1);
        EXPECT_ST(CGN_ERROR_DRIVER_TOO_OLD, cgn_memset_node_update(at(g, r.set), &mu));
        OK(cgn_graph_destroy(g));
    }
    cgn_fault_set_version(13000);
    CU_OK(fk()->cuGraphDestroy(r.g));
}

int main(void) {
#define T(fn) cmocka_unit_test_setup_teardown(fn, cgn_test_fixture_setup, cgn_test_fixture_teardown)
    const struct CMUnitTest tests[] = {
        T(test_rich_adopt_types_and_order),
        T(test_rich_adopt_fault_sweep),
        T(test_rich_adopt_fault_sweep_12_3),
        T(test_nested_lookups_and_edits),
        T(test_adopt_bad_input),
        T(test_adopt_unknown_flags),
        T(test_borrowed_graph_keeps_updates),
        T(test_old_driver_edit_order),
        T(test_refresh_kernel_fields_kept),
        T(test_order_is_add_order),
        T(test_exec_adopt_fault_sweep),
        T(test_rich_destroy_and_refresh),
        T(test_adopted_edits_and_readback),
        T(test_refresh_kernel_changed_kernel),
        T(test_adopted_context_for_updates),
        T(test_borrowed_exec_after_destroy),
        T(test_adopted_conditional_body),
        T(test_adopt_on_old_drivers),
    };
#undef T
    return cmocka_run_group_tests(tests, NULL, NULL);
}
