/* The survivors of the sixth fresh mutation sample (tools/mutate --sample 20 --seed 8), on the
 * fake driver: adoption of a graph the driver does not list in topological order (the order
 * cgn_graph_adopt gives its nodes), retired versions released by an executable-level update
 * while host memory is short, destroying an executable launched through its raw handle with no
 * context current, node handles of a destroyed graph going with its last executable, the count
 * cgn_collect() returns for versions CUDA released, a refresh of a kernel node whose kernel
 * changed, and an executable-level memcpy update with no context current. (Issue 8: test
 * strength.)
 *
 * The test executable is linked with -Wl,--wrap=malloc, so cgn's malloc calls come here first:
 * one of a given size can be made to fail. */
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

/* ---- failing one allocation ------------------------------------------------------------------ */

void *__real_malloc(size_t size);
void *__wrap_malloc(size_t size);

static struct {
    size_t size; /* 0: nothing fails; else the next malloc of exactly this many bytes fails */
    size_t calls; /* mallocs seen: proves the library's calls come here (see below) */
} fail_malloc;

void *__wrap_malloc(size_t size) {
    fail_malloc.calls++;
    if (fail_malloc.size != 0 && size == fail_malloc.size) {
        fail_malloc.size = 0;
        return NULL;
    }
    return __real_malloc(size);
}

/* ---- adopting a graph listed out of topological order ---------------------------------------- */

/* cuGraphGetNodes through a permutation: the node added j-th is listed at listed_at[j]. CUDA
 * makes no promise about the order of its listing; the fake lists nodes as they were added,
 * which is always topological. */
static struct {
    cgn_driver_table table;
    const cgn_driver_table *inner;
    const size_t *listed_at;
    size_t num;
} perm;

static CUresult permuted_get_nodes(CUgraph g, CUgraphNode *nodes, size_t *n) {
    CUgraphNode added[16];
    size_t count = 16;
    CUresult r = perm.inner->cuGraphGetNodes(g, added, &count);
    if (r != CUDA_SUCCESS || nodes == NULL || count != perm.num || *n < count)
        return perm.inner->cuGraphGetNodes(g, nodes, n);
    for (size_t j = 0; j < count; j++)
        nodes[perm.listed_at[j]] = added[j];
    *n = count;
    return CUDA_SUCCESS;
}

/* Adopts `raw` (nodes[j] added j-th) listed through listed_at, and checks the adopted order
 * against `want` (indices into nodes), and each node's dependencies against the raw graph's. */
static void adopt_permuted(cgn_test_env *env, CUgraph raw, const CUgraphNode *nodes, size_t num,
                           const size_t *listed_at, const size_t *want) {
    perm.inner = env->backend->driver(env);
    perm.table = *perm.inner;
    perm.table.cuGraphGetNodes = permuted_get_nodes;
    perm.listed_at = listed_at;
    perm.num = num;
    cgn_fault_install(&perm.table);
    CUgraphNode listed[16];
    size_t count = 16;
    CU_OK(perm.table.cuGraphGetNodes(raw, listed, &count));
    assert_int_equal(count, num);
    for (size_t j = 0; j < num; j++)
        assert_ptr_equal(listed[listed_at[j]], nodes[j]); /* the spy lists as intended */
    cgn_graph *g;
    OK(cgn_graph_adopt(raw, 0, &g));
    cgn_fault_install(perm.inner);
    cgn_node *adopted[16];
    count = 16;
    OK(cgn_graph_nodes(g, adopted, &count));
    assert_int_equal(count, num);
    for (size_t k = 0; k < num; k++) {
        CUgraphNode rn;
        OK(cgn_node_raw(adopted[k], &rn));
        if (rn != nodes[want[k]]) {
            size_t added = 0;
            while (added < num && nodes[added] != rn)
                added++;
            fail_msg("adopted node %zu is n%zu, expected n%zu", k, added, want[k]);
        }
    }
    /* Every node's dependencies are the raw graph's, in the driver's order. */
    for (size_t k = 0; k < num; k++) {
        CUgraphNode rn, raw_deps[16];
        OK(cgn_node_raw(adopted[k], &rn));
        size_t nd = 16;
        CU_OK(perm.inner->cuGraphNodeGetDependencies(rn, raw_deps, &nd));
        cgn_node *deps[16];
        size_t got = 16;
        OK(cgn_node_dependencies(adopted[k], deps, &got));
        assert_int_equal(got, nd);
        for (size_t d = 0; d < nd; d++) {
            CUgraphNode rd;
            OK(cgn_node_raw(deps[d], &rd));
            assert_ptr_equal(rd, raw_deps[d]);
        }
    }
    OK(cgn_graph_destroy(g));
}

/* A driver listing a graph's nodes in reverse, dependents first: the adopted graph still has its
 * nodes in a topological order, the one that takes, of the nodes whose dependencies are all
 * ordered, the one listed first (docs/adopt.md, "Order"). Three empty nodes a, b, c with c depending on
 * b, listed c, b, a: b (listed second, ready) comes first, then c (listed first, ready once b is
 * ordered), then a. */
static void test_adopt_reverse_listing(void **state) {
    cgn_test_env *env = *state;
    const cgn_driver_table *drv = env->backend->driver(env);
    CUgraph raw;
    CU_OK(drv->cuGraphCreate(&raw, 0));
    CUgraphNode n[3];
    CU_OK(drv->cuGraphAddEmptyNode(&n[0], raw, NULL, 0));
    CU_OK(drv->cuGraphAddEmptyNode(&n[1], raw, NULL, 0));
    CU_OK(drv->cuGraphAddEmptyNode(&n[2], raw, &n[1], 1));
    static const size_t listed_at[] = {2, 1, 0};
    static const size_t want[] = {1, 2, 0};
    adopt_permuted(env, raw, n, 3, listed_at, want);
    CU_OK(drv->cuGraphDestroy(raw));
}

/* Seven empty nodes, n2, n3 and n6 depending on n1, listed n2 n3 n1 n0 n4 n6 n5: first n1 (the
 * ready node listed first), then n2 and n3 (now ready, listed before n0), then n0, n4, n6, n5 in
 * listing order; with several nodes ready at once. */
static void test_adopt_shuffled_listing(void **state) {
    cgn_test_env *env = *state;
    const cgn_driver_table *drv = env->backend->driver(env);
    CUgraph raw;
    CU_OK(drv->cuGraphCreate(&raw, 0));
    CUgraphNode n[7];
    CU_OK(drv->cuGraphAddEmptyNode(&n[0], raw, NULL, 0));
    CU_OK(drv->cuGraphAddEmptyNode(&n[1], raw, NULL, 0));
    CU_OK(drv->cuGraphAddEmptyNode(&n[2], raw, &n[1], 1));
    CU_OK(drv->cuGraphAddEmptyNode(&n[3], raw, &n[1], 1));
    CU_OK(drv->cuGraphAddEmptyNode(&n[4], raw, NULL, 0));
    CU_OK(drv->cuGraphAddEmptyNode(&n[5], raw, NULL, 0));
    CU_OK(drv->cuGraphAddEmptyNode(&n[6], raw, &n[1], 1));
    static const size_t listed_at[] = {3, 2, 0, 1, 4, 6, 5};
    static const size_t want[] = {1, 2, 3, 0, 4, 6, 5};
    adopt_permuted(env, raw, n, 7, listed_at, want);
    CU_OK(drv->cuGraphDestroy(raw));
}

/* ---- retired versions ------------------------------------------------------------------------ */

static int released;

static void ignore_release(void *resource) { (void)resource; }

static void count_release(void *resource) {
    (void)resource;
    released++;
}

/* An executable-level update that makes 16 retired versions waiting for launches releases,
 * before it returns, every one whose launches completed, even when host memory is short: up to
 * 16 are gathered on the stack, and no malloc is needed. */
static void test_sixteen_retired_versions_released_without_memory(void **state) {
    cgn_test_env *env = *state;
    enum { UPDATES = 17, RETIRED = UPDATES - 1 };
    /* The wrapper must see libcgn's own mallocs (an owner record), else this test checks
     * nothing (link-time optimisation can bind calls before --wrap applies). */
    size_t seen = fail_malloc.calls;
    cgn_owner *probe;
    OK(cgn_owner_create(NULL, ignore_release, &probe));
    assert_true(fail_malloc.calls > seen);
    OK(cgn_owner_release(probe));
    cgn_collect();
    cgn_graph *g;
    cgn_node *n;
    cgn_exec *e;
    OK(cgn_graph_create(&g));
    cgn_memset_desc d = cgn_test_fill_desc(env, 0, 0x11, 0); /* no owner: nothing to retire */
    OK(cgn_graph_add_memset(g, NULL, 0, &d, &n));
    OK(cgn_graph_instantiate(g, &e));
    released = 0;
    cgn_fake_hold_completion(1);
    for (int v = 0; v < UPDATES; v++) {
        OK(cgn_exec_launch(e, NULL)); /* the version installed now is in use: retired next */
        int last = v == UPDATES - 1;
        if (last) {
            assert_int_equal(cgn_fake_complete_pending(), UPDATES);
            fail_malloc.size = RETIRED * sizeof(void *); /* room for the 16 retired versions */
        }
        cgn_owner *o;
        OK(cgn_owner_create(&released, count_release, &o));
        cgn_memset_update u = CGN_MEMSET_UPDATE_INIT;
        cgn_memset_update_set_dst(&u, env->buf[v % CGN_TEST_NUM_BUFS], o);
        OK(cgn_memset_exec_update(e, n, &u));
        fail_malloc.size = 0;
        OK(cgn_owner_release(o));
        /* Versions 0..v-1 are retired; at the last update every launch has completed. */
        assert_int_equal(released, last ? RETIRED : 0);
    }
    cgn_fake_hold_completion(0);
    OK(cgn_exec_destroy(e));
    assert_int_equal(released, UPDATES);
    OK(cgn_graph_destroy(g));
}

/* ---- destroying an executable launched through its raw handle -------------------------------- */

/* Launched only through its raw handle (invisible to cgn), with a version cgn alone holds:
 * cgn_exec_destroy waits for the executable's context before releasing it, making that context
 * current for the wait when the caller has none current, and leaving the caller's as it was. */
static void test_destroy_after_raw_launch_without_context(void **state) {
    cgn_test_env *env = *state;
    cgn_graph *g;
    cgn_node *n;
    cgn_exec *e;
    cgn_owner *o;
    released = 0;
    OK(cgn_owner_create(&released, count_release, &o));
    cgn_test_fill_graph(env, &g, &n, &e);
    cgn_memset_update u = CGN_MEMSET_UPDATE_INIT;
    cgn_memset_update_set_dst(&u, env->buf[1], o);
    OK(cgn_memset_exec_update(e, n, &u)); /* held by cgn alone */
    OK(cgn_owner_release(o));
    CUgraphExec raw;
    OK(cgn_exec_raw(e, &raw));
    cgn_fake_hold_completion(1);
    CU_OK(cgn_fake_table()->cuGraphLaunch(raw, NULL));
    assert_int_equal(cgn_fake_in_flight(NULL), 1);
    env->backend->set_context(env, CGN_TEST_CTX_NONE);
    cgn_fault_reset_counts();
    cgn_status st = cgn_exec_destroy(e);
    int current = env->backend->current_context(env);
    env->backend->set_context(env, CGN_TEST_CTX_OWN);
    if (st != CGN_OK)
        fail_msg("cgn_exec_destroy: %s (%s)", cgn_status_name(st), cgn_last_error());
    assert_int_equal(current, CGN_TEST_CTX_NONE);
    assert_int_equal(cgn_fault_calls(CGN_FAULT_cuCtxPushCurrent), 1);
    assert_int_equal(cgn_fault_calls(CGN_FAULT_cuCtxPopCurrent), 1);
    assert_int_equal(cgn_fault_calls(CGN_FAULT_cuCtxSynchronize), 1);
    assert_int_equal(cgn_fake_in_flight(NULL), 0);
    assert_int_equal(released, 1);
    cgn_fake_hold_completion(0);
    OK(cgn_graph_destroy(g));
}

/* ---- a graph destroyed before its executables ----------------------------------------------- */

/* A graph destroyed while an executable made from it lives: its node handles stay valid for the
 * executable (no longer alive as nodes), and go with the last executable; nothing is left. Also
 * for a graph with no node. */
static void test_node_handles_go_with_last_executable(void **state) {
    cgn_test_env *env = *state;
    size_t live = cgn__handles_live();
    cgn_graph *g;
    cgn_node *n[2];
    cgn_exec *e[2];
    OK(cgn_graph_create(&g));
    cgn_memset_desc d = cgn_test_fill_desc(env, 0, 0x11, 0);
    OK(cgn_graph_add_memset(g, NULL, 0, &d, &n[0]));
    OK(cgn_graph_add_empty(g, &n[0], 1, &n[1]));
    OK(cgn_graph_instantiate(g, &e[0]));
    OK(cgn_graph_instantiate(g, &e[1]));
    OK(cgn_graph_destroy(g));
    assert_int_equal(cgn_node_is_alive(n[0]), 0);
    assert_int_equal(cgn_node_is_alive(n[1]), 0);
    assert_int_equal(cgn__handles_live(), live + 4); /* the two nodes and executables */
    OK(cgn_exec_destroy(e[0]));
    assert_int_equal(cgn__handles_live(), live + 3);
    OK(cgn_exec_destroy(e[1]));
    assert_int_equal(cgn__handles_live(), live);
    OK(cgn_graph_create(&g));
    OK(cgn_graph_instantiate(g, &e[0]));
    OK(cgn_graph_destroy(g));
    assert_int_equal(cgn__handles_live(), live + 1);
    OK(cgn_exec_destroy(e[0]));
    assert_int_equal(cgn__handles_live(), live);
}

/* ---- what cgn_collect() counts --------------------------------------------------------------- */

/* A graph's version (with an owner) that CUDA released on its own thread, after the last launch
 * of a destroyed executable completed, waits for cgn_collect(): which releases it and counts it,
 * exactly once. */
static void test_collect_counts_versions_released_by_cuda(void **state) {
    cgn_test_env *env = *state;
    cgn_graph *g;
    cgn_node *n;
    cgn_exec *e;
    cgn_owner *o;
    released = 0;
    OK(cgn_owner_create(&released, count_release, &o));
    OK(cgn_graph_create(&g));
    cgn_memset_desc d = cgn_test_fill_desc(env, 0, 0x11, 0);
    d.dst_owner = o;
    OK(cgn_graph_add_memset(g, NULL, 0, &d, &n));
    OK(cgn_owner_release(o)); /* the graph's version holds it now */
    OK(cgn_graph_instantiate(g, &e));
    OK(cgn_graph_destroy(g)); /* the executable's copy of the graph keeps the version */
    cgn_fake_hold_completion(1);
    OK(cgn_exec_launch(e, NULL));
    OK(cgn_exec_destroy(e)); /* CUDA keeps the version until the launch completes */
    assert_int_equal(cgn_collect(), 0);
    assert_int_equal(released, 0);
    assert_int_equal(cgn_fake_complete_pending(), 1); /* CUDA lets go of it: queued for cgn */
    assert_int_equal(released, 0);
    assert_int_equal(env->released_in_driver, 0);
    assert_int_equal(cgn_collect(), 1);
    assert_int_equal(released, 1);
    assert_int_equal(cgn_collect(), 0);
    cgn_fake_hold_completion(0);
}

/* ---- refreshing a kernel node ---------------------------------------------------------------- */

/* A driver that reads a kernel node given a CUkernel back as that CUkernel (func NULL), where
 * the fake, as the H200, reads back the CUkernel's CUfunction in the node's context. */
static struct {
    cgn_driver_table table;
    const cgn_driver_table *inner;
} kern_back;

static CUresult kern_back_get(CUgraphNode n, CUDA_KERNEL_NODE_PARAMS_v2 *p) {
    CUresult r = kern_back.inner->cuGraphKernelNodeGetParams(n, p);
    if (r == CUDA_SUCCESS && p->kern != NULL)
        p->func = NULL;
    return r;
}

/* Makes the kernel node `n` run `to` (same parameters) behind cgn's back, then refreshes it:
 * returns what cgn_kernel_node_get then says. */
static cgn_kernel_desc change_kernel_and_refresh(cgn_node *n, cgn_kernel to) {
    CUgraphNode raw;
    OK(cgn_node_raw(n, &raw));
    CUgraphNodeParams p;
    assert_int_equal(cgn_fake_node_params(raw, &p), 1);
    p.kernel.func = to.function;
    p.kernel.kern = to.kernel;
    CU_OK(cgn_fake_table()->cuGraphNodeSetParams(raw, &p));
    OK(cgn_node_refresh(n));
    cgn_kernel_desc got;
    OK(cgn_kernel_node_get(n, &got));
    return got;
}

/* A refresh keeps the kernel's owner only while the node runs the same kernel: changed behind
 * cgn's back to another CUkernel, or to another CUfunction, the owner goes (it went with the old
 * kernel), and the desc names the new one. On a driver that reads CUkernels back as such. */
static void test_refresh_kernel_changed_drops_owner(void **state) {
    cgn_test_env *env = *state;
    static const size_t sizes[] = {sizeof(uint32_t)};
    CUfunction fa = cgn_fake_register_kernel("seed8_a", 1, sizes, NULL, NULL);
    CUfunction fb = cgn_fake_register_kernel("seed8_b", 1, sizes, NULL, NULL);
    assert_non_null(fa);
    assert_non_null(fb);
    const cgn_kernel by_kernel[2] = {CGN_KERNEL(cgn_fake_kernel_of(fa)),
                                     CGN_KERNEL(cgn_fake_kernel_of(fb))};
    const cgn_kernel by_function[2] = {CGN_FUNCTION(fa), CGN_FUNCTION(fb)};
    const cgn_kernel *kinds[2] = {by_kernel, by_function};
    kern_back.inner = env->backend->driver(env);
    kern_back.table = *kern_back.inner;
    kern_back.table.cuGraphKernelNodeGetParams = kern_back_get;
    cgn_fault_install(&kern_back.table);
    for (int kind = 0; kind < 2; kind++) {
        const cgn_kernel *k = kinds[kind];
        cgn_graph *g;
        cgn_node *n;
        OK(cgn_graph_create(&g));
        uint32_t value = 7;
        cgn_arg args[1] = {CGN_ARG(value)};
        cgn_kernel_desc kd = CGN_KERNEL_DESC_INIT;
        kd.kernel = k[0];
        kd.kernel_owner = env->owner[3];
        kd.grid = kd.block = CGN_DIM3(1, 1, 1);
        kd.args = args;
        kd.num_args = 1;
        OK(cgn_graph_add_kernel(g, NULL, 0, &kd, &n));
        long refs = owner_refs(env->owner[3]);
        cgn_kernel_desc got = change_kernel_and_refresh(n, k[0]); /* unchanged: kept */
        assert_ptr_equal(got.kernel.function, k[0].function);
        assert_ptr_equal(got.kernel.kernel, k[0].kernel);
        assert_ptr_equal(got.kernel_owner, env->owner[3]);
        got = change_kernel_and_refresh(n, k[1]);
        if (got.kernel.function != k[1].function || got.kernel.kernel != k[1].kernel)
            fail_msg("kind %d: refreshed kernel {%p, %p}, expected {%p, %p}", kind,
                     (void *)got.kernel.function, (void *)got.kernel.kernel,
                     (void *)k[1].function, (void *)k[1].kernel);
        if (got.kernel_owner != NULL)
            fail_msg("kind %d: the kernel changed, yet the refresh kept its owner", kind);
        assert_int_equal(*(const uint32_t *)got.args[0].value, 7);
        OK(cgn_graph_destroy(g));
        (void)cgn_collect();
        assert_true(owner_refs(env->owner[3]) < refs);
    }
    cgn_fault_install(kern_back.inner);
}

/* ---- an executable-level memcpy update in the node's context ------------------------------- */

/* The context current at the driver calls an update makes. */
static struct {
    cgn_driver_table table;
    const cgn_driver_table *inner;
    CUcontext at_pointer_query, at_set_params;
} ctx_spy;

static CUcontext ctx_spy_current(void) {
    CUcontext c = NULL;
    CU_OK(ctx_spy.inner->cuCtxGetCurrent(&c));
    return c;
}

static CUresult ctx_spy_pointer(void *data, CUpointer_attribute attribute, CUdeviceptr ptr) {
    ctx_spy.at_pointer_query = ctx_spy_current();
    return ctx_spy.inner->cuPointerGetAttribute(data, attribute, ptr);
}

static CUresult ctx_spy_exec_set(CUgraphExec exec, CUgraphNode node, const CUDA_MEMCPY3D *c,
                                 CUcontext ctx) {
    ctx_spy.at_set_params = ctx_spy_current();
    return ctx_spy.inner->cuGraphExecMemcpyNodeSetParams(exec, node, c, ctx);
}

/* With no context current, cgn_memcpy_exec_update on a driver before 13.0 makes the node's
 * context current for the driver calls it makes (the address query and the update itself), and
 * leaves none current. (From 13.0 on it asks for no context: spec context_free_from.) */
static void test_memcpy_exec_update_in_node_context(void **state) {
    cgn_test_env *env = *state;
    memset(&ctx_spy, 0, sizeof ctx_spy);
    ctx_spy.inner = env->backend->driver(env);
    ctx_spy.table = *ctx_spy.inner;
    ctx_spy.table.version = 12080;
    ctx_spy.table.cuPointerGetAttribute = ctx_spy_pointer;
    ctx_spy.table.cuGraphExecMemcpyNodeSetParams = ctx_spy_exec_set;
    CUcontext own = ctx_spy_current();
    assert_non_null(own);
    cgn_graph *g;
    cgn_node *n;
    cgn_exec *e;
    OK(cgn_graph_create(&g));
    any_desc d = valid_desc(env, MEMCPY);
    OK(cgn_graph_add_memcpy(g, NULL, 0, &d.memcpy, &n));
    OK(cgn_graph_instantiate(g, &e));
    cgn_fault_install(&ctx_spy.table);
    cgn_memcpy_update u = CGN_MEMCPY_UPDATE_INIT;
    cgn_memcpy_update_set_dst(&u, env->buf[3], NULL);
    env->backend->set_context(env, CGN_TEST_CTX_NONE);
    cgn_status st = cgn_memcpy_exec_update(e, n, &u);
    int current = env->backend->current_context(env);
    env->backend->set_context(env, CGN_TEST_CTX_OWN);
    cgn_fault_install(ctx_spy.inner);
    if (st != CGN_OK)
        fail_msg("cgn_memcpy_exec_update: %s (%s)", cgn_status_name(st), cgn_last_error());
    assert_int_equal(current, CGN_TEST_CTX_NONE);
    assert_ptr_equal(ctx_spy.at_pointer_query, own);
    assert_ptr_equal(ctx_spy.at_set_params, own);
    CUgraphExec raw_exec;
    CUgraphNode raw_node;
    OK(cgn_exec_raw(e, &raw_exec));
    OK(cgn_node_raw(n, &raw_node));
    CUgraphNodeParams p;
    assert_int_equal(cgn_fake_exec_node_params(raw_exec, raw_node, &p), 1);
    assert_int_equal(p.memcpy.copyParams.dstDevice, env->buf[3]);
    OK(cgn_exec_destroy(e));
    OK(cgn_graph_destroy(g));
}

int main(void) {
#define T(fn) cmocka_unit_test_setup_teardown(fn, cgn_test_fixture_setup, cgn_test_fixture_teardown)
    const struct CMUnitTest tests[] = {
        T(test_adopt_reverse_listing),
        T(test_adopt_shuffled_listing),
        T(test_sixteen_retired_versions_released_without_memory),
        T(test_destroy_after_raw_launch_without_context),
        T(test_node_handles_go_with_last_executable),
        T(test_collect_counts_versions_released_by_cuda),
        T(test_refresh_kernel_changed_drops_owner),
        T(test_memcpy_exec_update_in_node_context),
    };
#undef T
    return cmocka_run_group_tests(tests, NULL, NULL);
}
