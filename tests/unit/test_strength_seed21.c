/* The survivor of a fresh mutation spot check of the runtime and the generated sources
 * (tools/mutate over the .c files of runtime/ and generated/src/, --sample 3 --seed 21) that a
 * test can tell: a host callback's definition-level update on a driver before 13.0 (spec
 * host_callback: context_current, context_free_from 13000) runs the driver's setter with the
 * node's context current, whatever the caller has current, and gives the caller's state back.
 * The other three survivors are equivalent (tests/mutation/equivalent.txt). On the fake driver,
 * through a copy of its table that reports 12.8 and spies on cuGraphHostNodeSetParams.
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

/* The context current when the driver's host-node setter runs. */
static struct {
    cgn_driver_table table;
    const cgn_driver_table *inner;
    CUcontext at_set_params;
    int calls;
} host_spy;

static CUresult host_spy_set(CUgraphNode node, const CUDA_HOST_NODE_PARAMS_v1 *p) {
    host_spy.calls++;
    host_spy.at_set_params = NULL;
    CU_OK(host_spy.inner->cuCtxGetCurrent(&host_spy.at_set_params));
    return host_spy.inner->cuGraphHostNodeSetParams(node, p);
}

static void test_host_callback_update_in_node_context_before_13(void **state) {
    cgn_test_env *env = *state;
    memset(&host_spy, 0, sizeof host_spy);
    host_spy.inner = env->backend->driver(env);
    host_spy.table = *host_spy.inner;
    host_spy.table.version = 12080;
    host_spy.table.cuGraphHostNodeSetParams = host_spy_set;
    CUcontext own = NULL;
    CU_OK(host_spy.inner->cuCtxGetCurrent(&own));
    assert_non_null(own);
    cgn_graph *g;
    OK(cgn_graph_create(&g));
    cgn_host_callback_desc d = CGN_HOST_CALLBACK_DESC_INIT;
    d.fn = cgn_test_callback(env, "record_a");
    cgn_node *n;
    OK(cgn_graph_add_host_callback(g, NULL, 0, &d, &n));

    const int callers[] = {CGN_TEST_CTX_NONE, CGN_TEST_CTX_FOREIGN};
    const char *const fns[] = {"record_b", "record_a"};
    for (int i = 0; i < 2; i++) {
        host_spy.calls = 0;
        cgn_fault_install(&host_spy.table);
        cgn_host_callback_update u = CGN_HOST_CALLBACK_UPDATE_INIT;
        cgn_host_callback_update_set_fn(&u, cgn_test_callback(env, fns[i]), NULL, NULL, NULL, 0);
        env->backend->set_context(env, callers[i]);
        cgn_status st = cgn_host_callback_node_update(n, &u);
        int current = env->backend->current_context(env);
        env->backend->set_context(env, CGN_TEST_CTX_OWN);
        cgn_fault_install(host_spy.inner);
        if (st != CGN_OK)
            fail_msg("caller context %d: cgn_host_callback_node_update: %s (%s)", callers[i],
                     cgn_status_name(st), cgn_last_error());
        assert_int_equal(host_spy.calls, 1);
        if (host_spy.at_set_params != own)
            fail_msg("caller context %d: the setter ran in context %p, not the node's %p",
                     callers[i], (void *)host_spy.at_set_params, (void *)own);
        assert_int_equal(current, callers[i]); /* the caller's state is back */
        cgn_host_callback_desc got;
        OK(cgn_host_callback_node_get(n, &got));
        assert_ptr_equal(got.fn, cgn_test_callback(env, fns[i]));
    }
    OK(cgn_graph_destroy(g));
}

int main(void) {
    const struct CMUnitTest tests[] = {
        cmocka_unit_test_setup_teardown(test_host_callback_update_in_node_context_before_13,
                                        cgn_test_fixture_setup, cgn_test_fixture_teardown),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
