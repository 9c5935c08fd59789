/* The survivor of a fresh mutation spot check of the runtime and the generated sources
 * (tools/mutate over the .c files of runtime/ and generated/src/, --sample 3 --seed 21) that a
 * test can tell: a host callback's definition-level update on a driver before 13.0 (spec
 * host_callback: context_current, context_free_from 13000) runs the driver's setter with the
 * node's context current, whatever the caller has current, and gives the caller's state back;
 * so does its executable-level update (seed 23's survivor of the same kind). The other three
 * survivors of seed 21 are equivalent (tests/mutation/equivalent.txt). On the fake driver,
 * through a copy of its table that reports 12.8 and spies on both host-node setters.
 * (Issue 8: test strength.) */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>

#include <cmocka.h>

#include "cgn_fault.h"
#include "cgn_test_env.h"
#include "cgn_test_fixture.h"

#define CU_OK(call) assert_int_equal((call), CUDA_SUCCESS)

/* The context current when the driver's host-node setters run (definition or executable). */
static struct {
    cgn_driver_table table;
    const cgn_driver_table *inner;
    CUcontext at_set_params;
    int calls;
} host_spy;

static void host_spy_saw(void) {
    host_spy.calls++;
    host_spy.at_set_params = NULL;
    CU_OK(host_spy.inner->cuCtxGetCurrent(&host_spy.at_set_params));
}

static CUresult host_spy_set(CUgraphNode node, const CUDA_HOST_NODE_PARAMS_v1 *p) {
    host_spy_saw();
    return host_spy.inner->cuGraphHostNodeSetParams(node, p);
}

static CUresult host_spy_exec_set(CUgraphExec exec, CUgraphNode node,
                                  const CUDA_HOST_NODE_PARAMS_v1 *p) {
    host_spy_saw();
    return host_spy.inner->cuGraphExecHostNodeSetParams(exec, node, p);
}

/* A host callback update (the definition's, or an executable's when `exec_level`) on a 12.8
 * table runs the driver's setter in the node's context whether no context or another one is
 * current, and gives the caller's state back. */
static void host_update_in_node_context_before_13(cgn_test_env *env, int exec_level) {
    memset(&host_spy, 0, sizeof host_spy);
    host_spy.inner = env->backend->driver(env);
    host_spy.table = *host_spy.inner;
    host_spy.table.version = 12080;
    host_spy.table.cuGraphHostNodeSetParams = host_spy_set;
    host_spy.table.cuGraphExecHostNodeSetParams = host_spy_exec_set;
    CUcontext own = NULL;
    CU_OK(host_spy.inner->cuCtxGetCurrent(&own));
    assert_non_null(own);
    cgn_graph *g;
    OK(cgn_graph_create(&g));
    cgn_host_callback_desc d = CGN_HOST_CALLBACK_DESC_INIT;
    d.fn = cgn_test_callback(env, "record_a");
    cgn_node *n;
    OK(cgn_graph_add_host_callback(g, NULL, 0, &d, &n));
    cgn_exec *e = NULL;
    if (exec_level)
        OK(cgn_graph_instantiate(g, &e));

    const int callers[] = {CGN_TEST_CTX_NONE, CGN_TEST_CTX_FOREIGN};
    const char *const fns[] = {"record_b", "record_a"};
    for (int i = 0; i < 2; i++) {
        host_spy.calls = 0;
        cgn_fault_install(&host_spy.table);
        cgn_host_callback_update u = CGN_HOST_CALLBACK_UPDATE_INIT;
        cgn_host_callback_update_set_fn(&u, cgn_test_callback(env, fns[i]), NULL, NULL, NULL, 0);
        env->backend->set_context(env, callers[i]);
        cgn_status st = exec_level ? cgn_host_callback_exec_update(e, n, &u)
                                   : cgn_host_callback_node_update(n, &u);
        int current = env->backend->current_context(env);
        env->backend->set_context(env, CGN_TEST_CTX_OWN);
        cgn_fault_install(host_spy.inner);
        if (st != CGN_OK)
            fail_msg("caller context %d, %s level: %s (%s)", callers[i],
                     exec_level ? "executable" : "definition", cgn_status_name(st),
                     cgn_last_error());
        assert_int_equal(host_spy.calls, 1);
        if (host_spy.at_set_params != own)
            fail_msg("caller context %d: the setter ran in context %p, not the node's %p",
                     callers[i], (void *)host_spy.at_set_params, (void *)own);
        assert_int_equal(current, callers[i]); /* the caller's state is back */
        cgn_host_callback_desc got;
        if (exec_level)
            OK(cgn_host_callback_exec_get(e, n, &got));
        else
            OK(cgn_host_callback_node_get(n, &got));
        assert_ptr_equal(got.fn, cgn_test_callback(env, fns[i]));
    }
    if (e != NULL)
        OK(cgn_exec_destroy(e));
    OK(cgn_graph_destroy(g));
}

static void test_host_callback_update_in_node_context_before_13(void **state) {
    host_update_in_node_context_before_13(*state, 0);
}

/* The same at executable level (seed 23's survivor). */
static void test_host_callback_exec_update_in_node_context_before_13(void **state) {
    host_update_in_node_context_before_13(*state, 1);
}

int main(void) {
    const struct CMUnitTest tests[] = {
        cmocka_unit_test_setup_teardown(test_host_callback_update_in_node_context_before_13,
                                        cgn_test_fixture_setup, cgn_test_fixture_teardown),
        cmocka_unit_test_setup_teardown(test_host_callback_exec_update_in_node_context_before_13,
                                        cgn_test_fixture_setup, cgn_test_fixture_teardown),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
