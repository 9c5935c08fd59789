/* The generated node API of every node type, on the fake driver, where the generated matrices do
 * not look: NULL pointers and empty or unknown `set` bits at both levels, the exact messages of
 * coupled fields, spec rules refused before any driver mutation (add, definition and executable
 * level), the CUgraphNodeParams cgn hands the driver (reserved and unused bytes zero, as CUDA
 * requires), every driver failure while adding or updating a node with owners (nothing left
 * behind, refcounts as before), owners of adopted nodes, and the few field codecs whose messages
 * name the function that failed. (Issue 8: test strength.) */
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
#include "runtime.h"

#include "strength_nodes.h"

/* ---- NULL pointers, empty and unknown `set` -------------------------------------------------- */

/* Every NULL desc, update or out pointer is CGN_ERROR_INVALID_ARGUMENT with a message naming the
 * function, before any driver call, and changes nothing. */
static void test_null_pointers_at_every_entry(void **state) {
    cgn_test_env *env = *state;
    all_nodes a;
    make_all(env, &a);
    char want[160];
    for (int t = 0; t < NUM_TYPES; t++) {
        const node_api *api = apis[t];
        any_desc before, after, d = valid_desc(env, t);
        OK(api->get(a.n[t], &before));
        cgn_fault_reset_counts();
        cgn_node *out = NULL;
        assert_int_equal(api->add_null_desc(a.g, &out), CGN_ERROR_INVALID_ARGUMENT);
        snprintf(want, sizeof want, "cgn_graph_add_%s: desc and node_out must not be NULL",
                 api->name);
        assert_message(want);
        assert_null(out);
        assert_int_equal(api->add_null_out(a.g, &d), CGN_ERROR_INVALID_ARGUMENT);
        assert_message(want);
        assert_int_equal(api->update_null(a.n[t]), CGN_ERROR_INVALID_ARGUMENT);
        snprintf(want, sizeof want, "cgn_%s_node_update: update must not be NULL", api->name);
        assert_message(want);
        assert_int_equal(api->get_null(a.n[t]), CGN_ERROR_INVALID_ARGUMENT);
        snprintf(want, sizeof want, "cgn_%s_node_get: desc_out must not be NULL", api->name);
        assert_message(want);
        assert_int_equal(api->exec_update_null(a.e, a.n[t]), CGN_ERROR_INVALID_ARGUMENT);
        snprintf(want, sizeof want, "cgn_%s_exec_update: update must not be NULL", api->name);
        assert_message(want);
        assert_int_equal(api->exec_get_null(a.e, a.n[t]), CGN_ERROR_INVALID_ARGUMENT);
        snprintf(want, sizeof want, "cgn_%s_exec_get: desc_out must not be NULL", api->name);
        assert_message(want);
        assert_int_equal(mutating_calls(), 0);
        OK(api->get(a.n[t], &after));
        assert_memory_equal(&before, &after, api->desc_size);
    }
    size_t count = 0;
    OK(cgn_graph_nodes(a.g, NULL, &count));
    assert_int_equal(count, NUM_TYPES);
    assert_int_equal(cgn_graph_add_empty(a.g, NULL, 0, NULL), CGN_ERROR_INVALID_ARGUMENT);
    assert_message("cgn_graph_add_empty: node_out is NULL");
    free_all(&a);
}

/* An update with nothing set returns CGN_OK without a driver call, at both levels; unknown bits
 * are refused with a message giving them. */
static void test_empty_and_unknown_set(void **state) {
    cgn_test_env *env = *state;
    all_nodes a;
    make_all(env, &a);
    char want[160];
    for (int t = 0; t < NUM_TYPES; t++) {
        const node_api *api = apis[t];
        any_desc before, after;
        OK(api->exec_get(a.e, a.n[t], &before));
        any_update u;
        memset(&u, 0, sizeof u);
        cgn_fault_reset_counts();
        OK(api->update(a.n[t], &u));
        OK(api->exec_update(a.e, a.n[t], &u));
        assert_int_equal(cgn_fault_total_calls(), 0);
        OK(api->exec_get(a.e, a.n[t], &after));
        assert_memory_equal(&before, &after, api->desc_size);

        u.set = UINT64_C(1) << 40;
        assert_int_equal(api->update(a.n[t], &u), CGN_ERROR_INVALID_ARGUMENT);
        snprintf(want, sizeof want, "cgn_%s_node_update: unknown bits 0x10000000000 in set",
                 api->name);
        assert_message(want);
        u.set = (UINT64_C(1) << 40) | 1;
        assert_int_equal(api->exec_update(a.e, a.n[t], &u), CGN_ERROR_INVALID_ARGUMENT);
        snprintf(want, sizeof want, "cgn_%s_exec_update: unknown bits 0x10000000000 in set",
                 api->name);
        assert_message(want);
        assert_int_equal(cgn_fault_total_calls(), 0);
    }
    free_all(&a);
}

/* Coupled fields: each `A requires B` at both levels, with its exact message, nothing changed. */
static void test_missing_field_messages(void **state) {
    cgn_test_env *env = *state;
    all_nodes a;
    make_all(env, &a);
    static const struct {
        int type;
        uint64_t set;
        const char *what;
    } cases[] = {
        {MEMSET, CGN_MEMSET_SET_DST_OWNER, "dst_owner requires dst"},
        {MEMSET, CGN_MEMSET_SET_VALUE, "value requires element_size"},
        {MEMSET, CGN_MEMSET_SET_ELEMENT_SIZE, "element_size requires value"},
        {MEMCPY, CGN_MEMCPY_SET_DST_OWNER, "dst_owner requires dst"},
        {MEMCPY, CGN_MEMCPY_SET_SRC_OWNER | CGN_MEMCPY_SET_DST, "src_owner requires src"},
        {KERNEL, CGN_KERNEL_SET_KERNEL, "kernel requires args"},
        {KERNEL, CGN_KERNEL_SET_KERNEL_OWNER | CGN_KERNEL_SET_ARGS, "kernel_owner requires kernel"},
        {HOST, CGN_HOST_CALLBACK_SET_USER_DATA, "user_data requires fn"},
        {HOST, CGN_HOST_CALLBACK_SET_USER_DATA_OWNER, "user_data_owner requires fn"},
        {HOST, CGN_HOST_CALLBACK_SET_USER_DATA_OWNER | CGN_HOST_CALLBACK_SET_FN,
         "user_data_owner requires user_data"},
        {HOST, CGN_HOST_CALLBACK_SET_PAYLOAD, "payload requires fn"},
        {RECORD, CGN_EVENT_RECORD_SET_EVENT_OWNER, "event_owner requires event"},
        {WAIT, CGN_EVENT_WAIT_SET_EVENT_OWNER, "event_owner requires event"},
    };
    char want[160];
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        const node_api *api = apis[cases[i].type];
        cgn_node *n = a.n[cases[i].type];
        any_desc before, after;
        OK(api->get(n, &before));
        any_update u;
        memset(&u, 0, sizeof u);
        u.set = cases[i].set;
        cgn_fault_reset_counts();
        assert_int_equal(api->update(n, &u), CGN_ERROR_MISSING_FIELD);
        snprintf(want, sizeof want, "cgn_%s_node_update: %s", api->name, cases[i].what);
        assert_message(want);
        assert_int_equal(api->exec_update(a.e, n, &u), CGN_ERROR_MISSING_FIELD);
        snprintf(want, sizeof want, "cgn_%s_exec_update: %s", api->name, cases[i].what);
        assert_message(want);
        assert_int_equal(cgn_fault_total_calls(), 0);
        OK(api->get(n, &after));
        assert_memory_equal(&before, &after, api->desc_size);
    }
    free_all(&a);
}

/* ---- spec rules before any mutation ---------------------------------------------------------- */

/* A desc (t, which) breaking one rule, and the message's text after "<function>: ". */
static const char *bad_desc(cgn_test_env *env, int t, int which, any_desc *d) {
    *d = valid_desc(env, t);
    switch (t) {
    case MEMSET:
        if (which == 0) {
            d->memset.width = 0;
            return "width must be at least 1";
        }
        d->memset.element_size = 3;
        return "element_size must be 1, 2 or 4, not 3";
    case MEMCPY:
        if (which == 0) {
            d->memcpy.size = 0;
            return "size must be at least 1";
        }
        d->memcpy.src = 0;
        return "src must not be 0";
    case KERNEL:
        if (which == 0) {
            d->kernel.grid.y = 0;
            return "grid dimensions must be at least 1, not (1, 0, 1)";
        }
        d->kernel.block.z = 0;
        return "block dimensions must be at least 1, not (1, 1, 0)";
    case HOST:
        if (which == 0) {
            d->host.fn = NULL;
            return "fn must not be NULL";
        }
        d->host.user_data = env->host[0];
        return "user_data and payload are exclusive: give one of them";
    case RECORD:
        d->record.event = NULL;
        return "event must not be NULL";
    case WAIT:
        d->wait.event = NULL;
        return "event must not be NULL";
    default:
        d->child.graph = NULL;
        return "graph must not be NULL";
    }
}

/* A rule broken at add, in a definition update or in an executable update is refused with its
 * status and a message naming the field, before any driver mutation; the graph, the node, the
 * executable's copy and every owner refcount are as before. */
static void test_rules_are_checked_before_the_driver(void **state) {
    cgn_test_env *env = *state;
    all_nodes a;
    make_all(env, &a);
    CUgraph raw;
    OK(cgn_graph_raw(a.g, &raw));
    long refs[CGN_TEST_NUM_BUFS];
    for (int i = 0; i < CGN_TEST_NUM_BUFS; i++)
        refs[i] = owner_refs(env->owner[i]);
    size_t live = cgn__handles_live();
    char want[200];
    for (int t = 0; t < NUM_TYPES; t++) {
        const node_api *api = apis[t];
        for (int which = 0; which < 2; which++) {
            any_desc bad, before, exec_before, after;
            const char *what = bad_desc(env, t, which, &bad);
            const cgn_status status = CGN_ERROR_INVALID_VALUE;
            OK(api->get(a.n[t], &before));
            OK(api->exec_get(a.e, a.n[t], &exec_before));
            cgn_fault_reset_counts();
            cgn_node *out = NULL;
            assert_int_equal(api->add(a.g, &bad, &out), status);
            snprintf(want, sizeof want, "cgn_graph_add_%s: %s", api->name, what);
            assert_message(want);
            assert_null(out);
            any_update u = update_from(t, &bad);
            assert_int_equal(api->update(a.n[t], &u), status);
            snprintf(want, sizeof want, "cgn_%s_node_update: %s", api->name, what);
            assert_message(want);
            assert_int_equal(api->exec_update(a.e, a.n[t], &u), status);
            snprintf(want, sizeof want, "cgn_%s_exec_update: %s", api->name, what);
            assert_message(want);
            assert_int_equal(mutating_calls(), 0);
            OK(api->get(a.n[t], &after));
            assert_memory_equal(&before, &after, api->desc_size);
            OK(api->exec_get(a.e, a.n[t], &after));
            assert_memory_equal(&exec_before, &after, api->desc_size);
        }
    }
    size_t count = 0;
    OK(cgn_graph_nodes(a.g, NULL, &count));
    assert_int_equal(count, NUM_TYPES);
    assert_int_equal(cgn_fake_graph_node_count(raw), NUM_TYPES);
    assert_int_equal(cgn__handles_live(), live);
    for (int i = 0; i < CGN_TEST_NUM_BUFS; i++)
        assert_int_equal(owner_refs(env->owner[i]), refs[i]);
    free_all(&a);
}

/* A 2-D memset whose last row would end past SIZE_MAX is refused; one row less fits. The bound
 * uses the row's bytes (width * element_size), not its elements. */
static void test_memset_rows_must_fit_size_t(void **state) {
    cgn_test_env *env = *state;
    cgn_graph *g;
    cgn_node *n;
    OK(cgn_graph_create(&g));
    cgn_memset_desc d = CGN_MEMSET_DESC_INIT;
    d.dst = env->buf[0];
    d.element_size = 4;
    d.width = (size_t)1 << 40;
    d.pitch = (size_t)1 << 42;  /* exactly one row of width * element_size bytes */
    d.height = (size_t)1 << 22; /* rows start at 0 .. (2^22 - 1) * 2^42 = 2^64 - 2^42 */
    cgn_fault_reset_counts();
    assert_int_equal(cgn_graph_add_memset(g, NULL, 0, &d, &n), CGN_ERROR_OUT_OF_RANGE);
    assert_message("cgn_graph_add_memset: 4194304 rows of pitch 4398046511104 do not fit size_t");
    assert_int_equal(mutating_calls(), 0);
    cgn_memset_desc small = CGN_MEMSET_DESC_INIT;
    small.dst = env->buf[0];
    small.width = 8;
    OK(cgn_graph_add_memset(g, NULL, 0, &small, &n));
    cgn_memset_update u = CGN_MEMSET_UPDATE_INIT;
    u.set = CGN_MEMSET_SET_VALUE | CGN_MEMSET_SET_ELEMENT_SIZE | CGN_MEMSET_SET_WIDTH |
            CGN_MEMSET_SET_HEIGHT | CGN_MEMSET_SET_PITCH;
    u.value = 0;
    u.element_size = 4;
    u.width = d.width;
    u.pitch = d.pitch;
    u.height = (size_t)1 << 22;
    cgn_fault_reset_counts();
    assert_int_equal(cgn_memset_node_update(n, &u), CGN_ERROR_OUT_OF_RANGE);
    assert_message("cgn_memset_node_update: 4194304 rows of pitch 4398046511104 do not fit size_t");
    assert_int_equal(mutating_calls(), 0);
    OK(cgn_graph_destroy(g));
}

/* ---- what cgn hands the driver --------------------------------------------------------------- */

static struct {
    cgn_driver_table table;
    const cgn_driver_table *inner;
    int seen, bad;
    char why[200];
} spy;

static size_t member_size(CUgraphNodeType type) {
    switch (type) {
    case CU_GRAPH_NODE_TYPE_KERNEL:
        return sizeof(CUDA_KERNEL_NODE_PARAMS_v3);
    case CU_GRAPH_NODE_TYPE_MEMCPY:
        return sizeof(CUDA_MEMCPY_NODE_PARAMS);
    case CU_GRAPH_NODE_TYPE_MEMSET:
        return sizeof(CUDA_MEMSET_NODE_PARAMS_v2);
    case CU_GRAPH_NODE_TYPE_HOST:
        return sizeof(CUDA_HOST_NODE_PARAMS_v2);
    case CU_GRAPH_NODE_TYPE_GRAPH:
        return sizeof(CUDA_CHILD_GRAPH_NODE_PARAMS);
    case CU_GRAPH_NODE_TYPE_EVENT_RECORD:
        return sizeof(CUDA_EVENT_RECORD_NODE_PARAMS);
    case CU_GRAPH_NODE_TYPE_WAIT_EVENT:
        return sizeof(CUDA_EVENT_WAIT_NODE_PARAMS);
    default:
        return 0;
    }
}

static void spy_bad(const char *why) {
    if (!spy.bad)
        snprintf(spy.why, sizeof spy.why, "%s", why);
    spy.bad++;
}

/* The parts of a copy descriptor cgn never sets (it builds 1-D copies only) must be zero. */
static void spy_check_copy(const CUDA_MEMCPY3D *c) {
    CUDA_MEMCPY3D z;
    memcpy(&z, c, sizeof z);
    z.srcMemoryType = z.dstMemoryType = (CUmemorytype)0;
    z.srcHost = z.dstHost = NULL;
    z.srcDevice = z.dstDevice = 0;
    z.WidthInBytes = 0;
    if (c->Height != 1 || c->Depth != 1)
        spy_bad("a copy of Height or Depth other than 1");
    z.Height = z.Depth = 0;
    static const CUDA_MEMCPY3D zero;
    if (memcmp(&z, &zero, sizeof z) != 0)
        spy_bad("a copy descriptor with fields cgn does not set not zero");
}

static void spy_check(const CUgraphNodeParams *p) {
    spy.seen++;
    if (p->reserved0[0] || p->reserved0[1] || p->reserved0[2] || p->reserved2)
        spy_bad("reserved0/reserved2 not zero");
    size_t used = member_size(p->type);
    if (used == 0) {
        spy_bad("an unexpected node type");
        return;
    }
    const unsigned char *u = (const unsigned char *)&p->reserved1;
    for (size_t i = used; i < sizeof p->reserved1; i++)
        if (u[i] != 0) {
            spy_bad("unused bytes of the parameter union not zero");
            break;
        }
    switch (p->type) {
    case CU_GRAPH_NODE_TYPE_KERNEL:
        if (p->kernel.extra != NULL)
            spy_bad("a kernel with extra");
        if ((p->kernel.func == NULL) == (p->kernel.kern == NULL))
            spy_bad("a kernel without exactly one of func and kern");
        break;
    case CU_GRAPH_NODE_TYPE_MEMCPY:
        if (p->memcpy.flags != 0 || p->memcpy.reserved != 0)
            spy_bad("memcpy flags/reserved not zero");
        spy_check_copy(&p->memcpy.copyParams);
        break;
    case CU_GRAPH_NODE_TYPE_GRAPH:
        if (p->graph.ownership != 0)
            spy_bad("a child graph with an ownership other than clone");
        break;
    default:
        break;
    }
}

static CUresult spy_set(CUgraphNode n, CUgraphNodeParams *p) {
    spy_check(p);
    return spy.inner->cuGraphNodeSetParams(n, p);
}

static CUresult spy_exec_set(CUgraphExec e, CUgraphNode n, CUgraphNodeParams *p) {
    spy_check(p);
    return spy.inner->cuGraphExecNodeSetParams(e, n, p);
}

/* The typed setters the specs name (cuda.set, cuda.exec_set): the same checks on what they
 * take. */
static void spy_check_kernel(const CUDA_KERNEL_NODE_PARAMS_v2 *k) {
    spy.seen++;
    if (k->extra != NULL)
        spy_bad("a kernel with extra");
    if ((k->func == NULL) == (k->kern == NULL))
        spy_bad("a kernel without exactly one of func and kern");
}

static CUresult spy_kernel_set(CUgraphNode n, const CUDA_KERNEL_NODE_PARAMS_v2 *k) {
    spy_check_kernel(k);
    return spy.inner->cuGraphKernelNodeSetParams(n, k);
}

static CUresult spy_kernel_exec_set(CUgraphExec e, CUgraphNode n,
                                    const CUDA_KERNEL_NODE_PARAMS_v2 *k) {
    spy_check_kernel(k);
    return spy.inner->cuGraphExecKernelNodeSetParams(e, n, k);
}

static CUresult spy_memcpy_exec_set(CUgraphExec e, CUgraphNode n, const CUDA_MEMCPY3D *c,
                                    CUcontext ctx) {
    spy.seen++;
    spy_check_copy(c);
    return spy.inner->cuGraphExecMemcpyNodeSetParams(e, n, c, ctx);
}

static CUresult spy_memset_exec_set(CUgraphExec e, CUgraphNode n,
                                    const CUDA_MEMSET_NODE_PARAMS_v1 *m, CUcontext ctx) {
    spy.seen++;
    return spy.inner->cuGraphExecMemsetNodeSetParams(e, n, m, ctx);
}

static CUresult spy_host_set(CUgraphNode n, const CUDA_HOST_NODE_PARAMS_v1 *h) {
    spy.seen++;
    return spy.inner->cuGraphHostNodeSetParams(n, h);
}

static CUresult spy_host_exec_set(CUgraphExec e, CUgraphNode n, const CUDA_HOST_NODE_PARAMS_v1 *h) {
    spy.seen++;
    return spy.inner->cuGraphExecHostNodeSetParams(e, n, h);
}

static CUresult spy_record_set(CUgraphNode n, CUevent ev) {
    spy.seen++;
    return spy.inner->cuGraphEventRecordNodeSetEvent(n, ev);
}

static CUresult spy_record_exec_set(CUgraphExec e, CUgraphNode n, CUevent ev) {
    spy.seen++;
    return spy.inner->cuGraphExecEventRecordNodeSetEvent(e, n, ev);
}

static CUresult spy_wait_set(CUgraphNode n, CUevent ev) {
    spy.seen++;
    return spy.inner->cuGraphEventWaitNodeSetEvent(n, ev);
}

static CUresult spy_wait_exec_set(CUgraphExec e, CUgraphNode n, CUevent ev) {
    spy.seen++;
    return spy.inner->cuGraphExecEventWaitNodeSetEvent(e, n, ev);
}

static CUresult spy_add_kernel(CUgraphNode *out, CUgraph g, const CUgraphNode *deps, size_t nd,
                               const CUDA_KERNEL_NODE_PARAMS_v2 *p) {
    spy.seen++;
    if (p->extra != NULL)
        spy_bad("a kernel added with extra");
    return spy.inner->cuGraphAddKernelNode(out, g, deps, nd, p);
}

static CUresult spy_add_memcpy(CUgraphNode *out, CUgraph g, const CUgraphNode *deps, size_t nd,
                               const CUDA_MEMCPY3D *c, CUcontext ctx) {
    spy.seen++;
    spy_check_copy(c);
    return spy.inner->cuGraphAddMemcpyNode(out, g, deps, nd, c, ctx);
}

/* Every CUgraphNodeParams cgn passes has zero reserved fields and zero bytes past the node
 * type's member (CUDA: "Unused bytes must be zero"); kernels never carry `extra`, copies only
 * the 1-D fields; adds pass the same clean descriptors. */
static void test_params_given_to_the_driver_are_clean(void **state) {
    cgn_test_env *env = *state;
    memset(&spy, 0, sizeof spy);
    spy.inner = env->backend->driver(env);
    spy.table = *spy.inner;
    spy.table.cuGraphNodeSetParams = spy_set;
    spy.table.cuGraphExecNodeSetParams = spy_exec_set;
    spy.table.cuGraphAddKernelNode = spy_add_kernel;
    spy.table.cuGraphAddMemcpyNode = spy_add_memcpy;
    spy.table.cuGraphKernelNodeSetParams = spy_kernel_set;
    spy.table.cuGraphExecKernelNodeSetParams = spy_kernel_exec_set;
    spy.table.cuGraphExecMemcpyNodeSetParams = spy_memcpy_exec_set;
    spy.table.cuGraphExecMemsetNodeSetParams = spy_memset_exec_set;
    spy.table.cuGraphHostNodeSetParams = spy_host_set;
    spy.table.cuGraphExecHostNodeSetParams = spy_host_exec_set;
    spy.table.cuGraphEventRecordNodeSetEvent = spy_record_set;
    spy.table.cuGraphExecEventRecordNodeSetEvent = spy_record_exec_set;
    spy.table.cuGraphEventWaitNodeSetEvent = spy_wait_set;
    spy.table.cuGraphExecEventWaitNodeSetEvent = spy_wait_exec_set;
    cgn_fault_install(&spy.table);
    all_nodes a;
    make_all(env, &a);
    for (int t = 0; t < NUM_TYPES; t++) {
        any_update u = owner_update(env, t);
        OK(apis[t]->update(a.n[t], &u));
        OK(apis[t]->exec_update(a.e, a.n[t], &u));
        any_desc d = valid_desc(env, t);
        u = update_from(t, &d);
        if (t == CHILD)
            u.child.graph = cgn_test_graph(env, 2);
        OK(apis[t]->update(a.n[t], &u));
        OK(apis[t]->exec_update(a.e, a.n[t], &u));
    }
    /* Kernel updates that keep or edit arguments, and a memset of the other form. */
    cgn_kernel_update k = CGN_KERNEL_UPDATE_INIT;
    cgn_kernel_update_set_grid(&k, CGN_DIM3(2, 1, 1));
    OK(cgn_kernel_node_update(a.n[KERNEL], &k));
    OK(cgn_kernel_exec_update(a.e, a.n[KERNEL], &k));
    cgn_kernel_update one = CGN_KERNEL_UPDATE_INIT;
    uint32_t eight = 8;
    cgn_kernel_update_set_arg(&one, 1, &eight, sizeof eight, NULL);
    OK(cgn_kernel_node_update(a.n[KERNEL], &one));
    OK(cgn_kernel_exec_update(a.e, a.n[KERNEL], &one));
    cgn_memset_update m = CGN_MEMSET_UPDATE_INIT;
    cgn_memset_update_set_value(&m, 0x7, 1);
    OK(cgn_memset_node_update(a.n[MEMSET], &m));
    OK(cgn_memset_exec_update(a.e, a.n[MEMSET], &m));
    if (spy.bad)
        fail_msg("%d bad parameter block(s) given to the driver, first: %s", spy.bad, spy.why);
    assert_true(spy.seen >= 4 * NUM_TYPES + 6);
    free_all(&a);
    cgn_fault_install(spy.inner);
}

/* ---- driver failures while adding and updating ----------------------------------------------- */

/* Fails call k (k = 1, 2, ... until a call goes through untouched) of `op` on a fresh node of
 * type t each time. A failed call is CGN_ERROR_DRIVER naming the driver entry and changes
 * nothing: node count, handles, owner refcounts, the node's desc (and the executable's copy). A
 * call that succeeds although a failure was injected may only have lost a context restore. */
enum { OP_ADD, OP_UPDATE, OP_EXEC_UPDATE };

static void sweep_driver_failures(cgn_test_env *env, int t, int op) {
    const node_api *api = apis[t];
    long k;
    for (k = 1; k < 100; k++) {
        cgn_graph *g;
        cgn_node *n = NULL;
        cgn_exec *e = NULL;
        OK(cgn_graph_create(&g));
        any_desc d = valid_desc(env, t);
        if (op != OP_ADD)
            OK(api->add(g, &d, &n));
        if (op == OP_EXEC_UPDATE)
            OK(cgn_graph_instantiate(g, &e));
        any_update u = owner_update(env, t);
        long refs[CGN_TEST_NUM_BUFS];
        for (int i = 0; i < CGN_TEST_NUM_BUFS; i++)
            refs[i] = owner_refs(env->owner[i]);
        any_desc before, after;
        if (n != NULL)
            OK(e ? api->exec_get(e, n, &before) : api->get(n, &before));
        size_t live = cgn__handles_live();
        cgn_node *added = NULL;
        cgn_fault_arm(k, CUDA_ERROR_OUT_OF_MEMORY);
        cgn_status st = op == OP_ADD      ? api->add(g, &d, &added)
                        : op == OP_UPDATE ? api->update(n, &u)
                                          : api->exec_update(e, n, &u);
        cgn_fault_disarm();
        cgn_fault_entry entry = CGN_FAULT_ENTRY_COUNT;
        int injected = cgn_fault_triggered(&entry);
        if (injected && st != CGN_OK) {
            if (st != CGN_ERROR_DRIVER)
                fail_msg("%s op %d, failing call %ld (%s): %s (%s)", api->name, op, k,
                         cgn_fault_entry_name(entry), cgn_status_name(st), cgn_last_error());
            if (strstr(cgn_last_error(), cgn_fault_entry_name(entry)) == NULL)
                fail_msg("%s op %d: message does not name %s: %s", api->name, op,
                         cgn_fault_entry_name(entry), cgn_last_error());
            assert_null(added);
            assert_int_equal(cgn__handles_live(), live);
            for (int i = 0; i < CGN_TEST_NUM_BUFS; i++)
                assert_int_equal(owner_refs(env->owner[i]), refs[i]);
            size_t count = 0;
            OK(cgn_graph_nodes(g, NULL, &count));
            assert_int_equal(count, op == OP_ADD ? 0 : 1);
            if (n != NULL) {
                OK(e ? api->exec_get(e, n, &after) : api->get(n, &after));
                assert_memory_equal(&before, &after, api->desc_size);
            }
        } else {
            if (st != CGN_OK)
                fail_msg("%s op %d without a failure: %s (%s)", api->name, op, cgn_status_name(st),
                         cgn_last_error());
            /* Besides restoring contexts and dropping a reference, locating a new embedded
             * copy's raw handles may fail after the replacement: documented in nodes.md. */
            if (injected && entry != CGN_FAULT_cuCtxGetCurrent &&
                entry != CGN_FAULT_cuCtxSetCurrent && entry != CGN_FAULT_cuCtxPopCurrent &&
                entry != CGN_FAULT_cuGraphReleaseUserObject &&
                !(t == CHILD && (entry == CGN_FAULT_cuGraphChildGraphNodeGetGraph ||
                                 entry == CGN_FAULT_cuGraphNodeFindInClone)))
                fail_msg("%s op %d succeeded although %s failed", api->name, op,
                         cgn_fault_entry_name(entry));
        }
        if (e != NULL)
            OK(cgn_exec_destroy(e));
        OK(cgn_graph_destroy(g));
        if (!injected)
            break;
    }
    assert_true(k < 100);
}

static void test_driver_failures_while_adding(void **state) {
    for (int t = 0; t < NUM_TYPES; t++)
        sweep_driver_failures(*state, t, OP_ADD);
}

static void test_driver_failures_while_updating(void **state) {
    for (int t = 0; t < NUM_TYPES; t++)
        sweep_driver_failures(*state, t, OP_UPDATE);
}

static void test_driver_failures_while_updating_executables(void **state) {
    for (int t = 0; t < NUM_TYPES; t++)
        sweep_driver_failures(*state, t, OP_EXEC_UPDATE);
}

/* ---- field codecs: messages name the function ------------------------------------------------ */

/* A copy operand that is neither driver memory nor mapped host memory is refused with a
 * message naming the function and the operand, at add and at both update levels. */
static void test_memcpy_operand_messages_name_the_function(void **state) {
    cgn_test_env *env = *state;
    all_nodes a;
    make_all(env, &a);
    cgn_memcpy_desc d = valid_desc(env, MEMCPY).memcpy;
    d.dst = 0x10; /* the first page is never mapped */
    cgn_node *n;
    assert_int_equal(cgn_graph_add_memcpy(a.g, NULL, 0, &d, &n), CGN_ERROR_INVALID_VALUE);
    assert_message_starts("cgn_graph_add_memcpy: dst 0x10 is neither");
    cgn_memcpy_update u = CGN_MEMCPY_UPDATE_INIT;
    cgn_memcpy_update_set_src(&u, 0x20, NULL);
    assert_int_equal(cgn_memcpy_node_update(a.n[MEMCPY], &u), CGN_ERROR_INVALID_VALUE);
    assert_message_starts("cgn_memcpy_node_update: src 0x20 is neither");
    assert_int_equal(cgn_memcpy_exec_update(a.e, a.n[MEMCPY], &u), CGN_ERROR_INVALID_VALUE);
    assert_message_starts("cgn_memcpy_exec_update: src 0x20 is neither");
    /* A driver failure of the query names the function and the operand too. */
    cgn_fault_reset_counts();
    d = valid_desc(env, MEMCPY).memcpy;
    for (long k = 1; k < 10; k++) {
        cgn_fault_arm(k, CUDA_ERROR_UNKNOWN);
        cgn_status st = cgn_graph_add_memcpy(a.g, NULL, 0, &d, &n);
        cgn_fault_disarm();
        cgn_fault_entry entry;
        assert_true(cgn_fault_triggered(&entry));
        if (entry != CGN_FAULT_cuPointerGetAttribute) {
            assert_int_not_equal(st, CGN_OK);
            continue;
        }
        assert_int_equal(st, CGN_ERROR_DRIVER);
        assert_message_starts("cgn_graph_add_memcpy: cuPointerGetAttribute(MEMORY_TYPE) of dst");
        break;
    }
    free_all(&a);
}

/* ---- adopted nodes carry no owners ----------------------------------------------------------- */

/* Owners are never read from the driver: every node of an adopted graph, and the executable's
 * copy of it, has no owner, whatever memory its record was made in. */
static void test_adopted_nodes_have_no_owners(void **state) {
    cgn_test_env *env = *state;
    const cgn_driver_table *drv = cgn__driver;
    /* The same graph built by cgn (with owners), then read back by another adoption. */
    all_nodes a;
    make_all(env, &a);
    CUgraph raw, clone;
    OK(cgn_graph_raw(a.g, &raw));
    CU_OK(drv->cuGraphClone(&clone, raw));
    cgn_graph *g;
    OK(cgn_graph_adopt(clone, CGN_ADOPT_TAKE_OWNERSHIP, &g));
    size_t count = NUM_TYPES;
    cgn_node *nodes[NUM_TYPES];
    OK(cgn_graph_nodes(g, nodes, &count));
    assert_int_equal(count, NUM_TYPES);
    cgn_exec *e;
    OK(cgn_graph_instantiate(g, &e));
    int seen[NUM_TYPES] = {0};
    for (size_t i = 0; i < count; i++) {
        cgn_node_type type;
        OK(cgn_node_type_of(nodes[i], &type));
        any_desc d[2];
        for (int level = 0; level < 2; level++) {
            memset(&d[level], 0xa5, sizeof d[level]);
            cgn_status st = CGN_OK;
            switch (type) {
            case CGN_NODE_MEMSET:
                st = level ? cgn_memset_exec_get(e, nodes[i], &d[level].memset)
                           : cgn_memset_node_get(nodes[i], &d[level].memset);
                assert_null(d[level].memset.dst_owner);
                assert_int_equal(d[level].memset.dst, env->buf[0]);
                seen[MEMSET]++;
                break;
            case CGN_NODE_MEMCPY:
                st = level ? cgn_memcpy_exec_get(e, nodes[i], &d[level].memcpy)
                           : cgn_memcpy_node_get(nodes[i], &d[level].memcpy);
                assert_null(d[level].memcpy.dst_owner);
                assert_null(d[level].memcpy.src_owner);
                seen[MEMCPY]++;
                break;
            case CGN_NODE_KERNEL:
                st = level ? cgn_kernel_exec_get(e, nodes[i], &d[level].kernel)
                           : cgn_kernel_node_get(nodes[i], &d[level].kernel);
                assert_null(d[level].kernel.kernel_owner);
                assert_int_equal(d[level].kernel.num_args, 2);
                assert_null(d[level].kernel.args[0].owner);
                assert_null(d[level].kernel.args[1].owner);
                seen[KERNEL]++;
                break;
            case CGN_NODE_HOST:
                st = level ? cgn_host_callback_exec_get(e, nodes[i], &d[level].host)
                           : cgn_host_callback_node_get(nodes[i], &d[level].host);
                assert_null(d[level].host.user_data_owner);
                assert_null(d[level].host.payload_owner);
                assert_null(d[level].host.payload);
                assert_int_equal(d[level].host.payload_size, 0);
                seen[HOST]++;
                break;
            case CGN_NODE_EVENT_RECORD:
                st = level ? cgn_event_record_exec_get(e, nodes[i], &d[level].record)
                           : cgn_event_record_node_get(nodes[i], &d[level].record);
                assert_ptr_equal(d[level].record.event, env->event[0]);
                assert_null(d[level].record.event_owner);
                seen[RECORD]++;
                break;
            case CGN_NODE_EVENT_WAIT:
                st = level ? cgn_event_wait_exec_get(e, nodes[i], &d[level].wait)
                           : cgn_event_wait_node_get(nodes[i], &d[level].wait);
                assert_ptr_equal(d[level].wait.event, env->event[1]);
                assert_null(d[level].wait.event_owner);
                seen[WAIT]++;
                break;
            case CGN_NODE_CHILD_GRAPH:
                st = level ? cgn_child_graph_exec_get(e, nodes[i], &d[level].child)
                           : cgn_child_graph_node_get(nodes[i], &d[level].child);
                assert_null(d[level].child.graph); /* no source graph: CUDA's own copy */
                seen[CHILD]++;
                break;
            default:
                fail_msg("unexpected node type %d", (int)type);
            }
            OK(st);
        }
    }
    for (int t = 0; t < NUM_TYPES; t++)
        assert_int_equal(seen[t], 2);
    OK(cgn_exec_destroy(e));
    OK(cgn_graph_destroy(g));
    free_all(&a);
}

int main(void) {
#define T(fn) cmocka_unit_test_setup_teardown(fn, cgn_test_fixture_setup, cgn_test_fixture_teardown)
    const struct CMUnitTest tests[] = {
        T(test_null_pointers_at_every_entry),
        T(test_empty_and_unknown_set),
        T(test_missing_field_messages),
        T(test_rules_are_checked_before_the_driver),
        T(test_memset_rows_must_fit_size_t),
        T(test_params_given_to_the_driver_are_clean),
        T(test_driver_failures_while_adding),
        T(test_driver_failures_while_updating),
        T(test_driver_failures_while_updating_executables),
        T(test_memcpy_operand_messages_name_the_function),
        T(test_adopted_nodes_have_no_owners),
    };
#undef T
    return cmocka_run_group_tests(tests, NULL, NULL);
}
