/* The survivors of a fresh mutation spot check of the runtime and the generated sources
 * (tools/mutate over the .c files of runtime/ and generated/src/, --sample 3 --seed 18), on the
 * fake driver: the messages of cgn_exec_raw and cgn_conditional_node_get refusing a NULL output
 * (and the latter a node of another type); an executable-level memset update on a driver before
 * 13.0 made in the node's context; refreshes of an external semaphore wait node the driver
 * reports waiting on no semaphore at all. (Issue 8: test strength.) */
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

#define CU_OK(call) assert_int_equal((call), CUDA_SUCCESS)

/* ---- NULL outputs ---------------------------------------------------------------------------- */

/* cgn_exec_raw without somewhere to write the handle is refused with its message, and the
 * executable is not taken to have been exposed: it still gives its raw handle afterwards. */
static void test_exec_raw_null_output(void **state) {
    cgn_test_env *env = *state;
    cgn_graph *g;
    cgn_node *n;
    cgn_exec *e;
    cgn_test_fill_graph(env, &g, &n, &e);
    assert_int_equal(cgn_exec_raw(e, NULL), CGN_ERROR_INVALID_ARGUMENT);
    cgn_test_assert_message("cgn_exec_raw: raw_out is NULL");
    assert_int_equal(cgn__exec_record(e)->raw_exposed, 0);
    CUgraphExec raw = NULL;
    OK(cgn_exec_raw(e, &raw));
    assert_ptr_equal(raw, cgn__exec_record(e)->raw);
    OK(cgn_exec_destroy(e));
    OK(cgn_graph_destroy(g));
}

/* cgn_conditional_node_get names itself when it refuses a NULL desc_out, and when it is given a
 * node of another type; the node's desc is still there to read afterwards. */
static void test_conditional_get_messages(void **state) {
    cgn_test_env *env = *state;
    cgn_graph *g;
    cgn_node *cond, *fill;
    OK(cgn_graph_create(&g));
    cgn_conditional_desc d = CGN_CONDITIONAL_DESC_INIT;
    d.type = 2; /* SWITCH */
    d.size = 2;
    OK(cgn_graph_add_conditional(g, NULL, 0, &d, &cond));
    cgn_memset_desc md = cgn_test_fill_desc(env, 0, 0x21, 0);
    OK(cgn_graph_add_memset(g, NULL, 0, &md, &fill));

    assert_int_equal(cgn_conditional_node_get(cond, NULL), CGN_ERROR_INVALID_ARGUMENT);
    cgn_test_assert_message("cgn_conditional_node_get: desc_out must not be NULL");
    cgn_conditional_desc got;
    assert_int_equal(cgn_conditional_node_get(fill, &got), CGN_ERROR_WRONG_NODE_TYPE);
    char want[256];
    snprintf(want, sizeof want, "cgn_conditional_node_get: node %p is a memset node",
             (void *)fill);
    cgn_test_assert_message(want);
    OK(cgn_conditional_node_get(cond, &got));
    assert_int_equal(got.type, 2);
    assert_int_equal(got.size, 2);
    OK(cgn_graph_destroy(g));
}

/* ---- an executable-level memset update on a driver before 13.0 ------------------------------- */

/* The context current when the driver's executable memset setter runs. */
static struct {
    cgn_driver_table table;
    const cgn_driver_table *inner;
    CUcontext at_set_params;
    int calls;
} memset_spy;

static CUresult memset_spy_exec_set(CUgraphExec exec, CUgraphNode node,
                                    const CUDA_MEMSET_NODE_PARAMS_v1 *p, CUcontext ctx) {
    memset_spy.calls++;
    memset_spy.at_set_params = NULL;
    CU_OK(memset_spy.inner->cuCtxGetCurrent(&memset_spy.at_set_params));
    return memset_spy.inner->cuGraphExecMemsetNodeSetParams(exec, node, p, ctx);
}

/* On a driver before 13.0 (spec: memset context_free_from) cgn_memset_exec_update makes the
 * node's context current for the driver's setter, whether no context or another one is current,
 * and leaves the caller's state as it was. The executable then fills with the new value. */
static void test_memset_exec_update_in_node_context_before_13(void **state) {
    cgn_test_env *env = *state;
    memset(&memset_spy, 0, sizeof memset_spy);
    memset_spy.inner = env->backend->driver(env);
    memset_spy.table = *memset_spy.inner;
    memset_spy.table.version = 12080;
    memset_spy.table.cuGraphExecMemsetNodeSetParams = memset_spy_exec_set;
    CUcontext own = NULL;
    CU_OK(memset_spy.inner->cuCtxGetCurrent(&own));
    assert_non_null(own);
    cgn_graph *g;
    cgn_node *n;
    cgn_exec *e;
    cgn_test_fill_graph(env, &g, &n, &e);

    const int callers[] = {CGN_TEST_CTX_NONE, CGN_TEST_CTX_FOREIGN};
    for (int i = 0; i < 2; i++) {
        const uint32_t value = 0x40u + (uint32_t)i;
        memset_spy.calls = 0;
        cgn_fault_install(&memset_spy.table);
        cgn_memset_update u = CGN_MEMSET_UPDATE_INIT;
        cgn_memset_update_set_value(&u, value, 1);
        env->backend->set_context(env, callers[i]);
        cgn_status st = cgn_memset_exec_update(e, n, &u);
        int current = env->backend->current_context(env);
        env->backend->set_context(env, CGN_TEST_CTX_OWN);
        cgn_fault_install(memset_spy.inner);
        if (st != CGN_OK)
            fail_msg("caller context %d: cgn_memset_exec_update: %s (%s)", callers[i],
                     cgn_status_name(st), cgn_last_error());
        assert_int_equal(memset_spy.calls, 1);
        if (memset_spy.at_set_params != own)
            fail_msg("caller context %d: the setter ran in context %p, not the node's %p",
                     callers[i], (void *)memset_spy.at_set_params, (void *)own);
        assert_int_equal(current, callers[i]); /* the caller's state is back */
        cgn_memset_desc got;
        OK(cgn_memset_exec_get(e, n, &got));
        assert_int_equal(got.value, value);
        assert_int_equal(cgn_test_run_read(env, e, 0), value);
    }
    OK(cgn_exec_destroy(e));
    OK(cgn_graph_destroy(g));
}

/* ---- a wait node the driver reports waiting on nothing --------------------------------------- */

static const cgn_driver_table *none_inner;
static cgn_driver_table none_table;

/* cuGraphExternalSemaphoresWaitNodeGetParams answering that the node waits on no semaphore
 * (numExtSems 0, its arrays as the driver gave them). The fake, like CUDA's add and set
 * functions, refuses to make such a node, but nothing in CUDA's API says a getter cannot
 * report one, and cgn's reader takes a count of 0 as an empty wait list. */
static CUresult wait_get_reports_none(CUgraphNode node, CUDA_EXT_SEM_WAIT_NODE_PARAMS_v1 *out) {
    CUresult r = none_inner->cuGraphExternalSemaphoresWaitNodeGetParams(node, out);
    if (r == CUDA_SUCCESS)
        out->numExtSems = 0;
    return r;
}

/* A wait node on two semaphores with an owner, refreshed while the driver reports it waiting on
 * none: the refresh reads no semaphores (no arrays) and no owner; a second refresh, from that
 * empty state, reads the same. The node's attachment still holds the owner (a refresh keeps
 * it), which is released exactly once when the graph is destroyed. */
static void test_refresh_ext_sem_wait_to_none(void **state) {
    cgn_test_env *env = *state;
    cgn_graph *g;
    cgn_node *n;
    OK(cgn_graph_create(&g));
    CUexternalSemaphore sems[2] = {cgn_test_sem(env, 0), cgn_test_sem(env, 1)};
    CUDA_EXTERNAL_SEMAPHORE_WAIT_PARAMS wp[2];
    memset(wp, 0, sizeof wp);
    wp[0].params.fence.value = 40;
    wp[1].params.fence.value = 41;
    cgn_ext_sem_wait_desc d = CGN_EXT_SEM_WAIT_DESC_INIT;
    d.sems = sems;
    d.sems_params = wp;
    d.num_sems = 2;
    d.sems_owner = env->owner[1];
    OK(cgn_graph_add_ext_sem_wait(g, NULL, 0, &d, &n));
    cgn_test_env_drop_owners(env);

    none_inner = env->backend->driver(env);
    none_table = *none_inner;
    none_table.cuGraphExternalSemaphoresWaitNodeGetParams = wait_get_reports_none;
    cgn_fault_install(&none_table);
    cgn_status st[2];
    cgn_ext_sem_wait_desc got[2];
    for (int round = 0; round < 2; round++) {
        st[round] = cgn_node_refresh(n);
        memset(&got[round], 0xff, sizeof got[round]);
        if (st[round] == CGN_OK)
            st[round] = cgn_ext_sem_wait_node_get(n, &got[round]);
    }
    cgn_fault_install(none_inner);
    for (int round = 0; round < 2; round++) {
        if (st[round] != CGN_OK)
            fail_msg("round %d: %s (%s)", round, cgn_status_name(st[round]), cgn_last_error());
        assert_int_equal(got[round].num_sems, 0);
        assert_null(got[round].sems);
        assert_null(got[round].sems_params);
        assert_null(got[round].sems_owner);
    }
    /* The node's attachment stays until the node goes: the owner is released with the graph,
     * once. */
    (void)cgn_collect();
    assert_int_equal(env->released[1], 0);
    OK(cgn_graph_destroy(g));
    assert_true(cgn_test_wait_released(env, 1, 1));
    (void)cgn_collect();
    assert_int_equal(env->released[1], 1);
}

int main(void) {
#define T(fn) cmocka_unit_test_setup_teardown(fn, cgn_test_fixture_setup, cgn_test_fixture_teardown)
    const struct CMUnitTest tests[] = {
        T(test_exec_raw_null_output),
        T(test_conditional_get_messages),
        T(test_memset_exec_update_in_node_context_before_13),
        T(test_refresh_ext_sem_wait_to_none),
    };
#undef T
    return cmocka_run_group_tests(tests, NULL, NULL);
}
