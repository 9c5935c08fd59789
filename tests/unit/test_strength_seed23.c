/* The survivors of a fresh mutation spot check of the runtime and the generated sources
 * (tools/mutate over the .c files of runtime/ and generated/src/, --sample 3 --seed 23) that a
 * test can tell, on the fake driver: a host callback's executable-level update on a driver
 * before 13.0 runs the driver's setter with the node's context current (spec host_callback:
 * context_current, context_free_from 13000); a 3-D copy whose source row alone moves so that its
 * last row's offset no longer fits size_t is refused (the rule runs when src_y changes). Two
 * more survivors are equivalent (tests/mutation/equivalent.txt); one is left open
 * (docs/testing.md). (Issue 8: test strength.) */
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

/* The context current when the driver's executable host-node setter runs. */
static struct {
    cgn_driver_table table;
    const cgn_driver_table *inner;
    CUcontext at_set_params;
    int calls;
} host_spy;

static CUresult host_spy_exec_set(CUgraphExec exec, CUgraphNode node,
                                  const CUDA_HOST_NODE_PARAMS_v1 *p) {
    host_spy.calls++;
    host_spy.at_set_params = NULL;
    CU_OK(host_spy.inner->cuCtxGetCurrent(&host_spy.at_set_params));
    return host_spy.inner->cuGraphExecHostNodeSetParams(exec, node, p);
}

static void test_host_callback_exec_update_in_node_context_before_13(void **state) {
    cgn_test_env *env = *state;
    memset(&host_spy, 0, sizeof host_spy);
    host_spy.inner = env->backend->driver(env);
    host_spy.table = *host_spy.inner;
    host_spy.table.version = 12080;
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
    cgn_exec *e;
    OK(cgn_graph_instantiate(g, &e));

    const int callers[] = {CGN_TEST_CTX_NONE, CGN_TEST_CTX_FOREIGN};
    const char *const fns[] = {"record_b", "record_a"};
    for (int i = 0; i < 2; i++) {
        host_spy.calls = 0;
        cgn_fault_install(&host_spy.table);
        cgn_host_callback_update u = CGN_HOST_CALLBACK_UPDATE_INIT;
        cgn_host_callback_update_set_fn(&u, cgn_test_callback(env, fns[i]), NULL, NULL, NULL, 0);
        env->backend->set_context(env, callers[i]);
        cgn_status st = cgn_host_callback_exec_update(e, n, &u);
        int current = env->backend->current_context(env);
        env->backend->set_context(env, CGN_TEST_CTX_OWN);
        cgn_fault_install(host_spy.inner);
        if (st != CGN_OK)
            fail_msg("caller context %d: cgn_host_callback_exec_update: %s (%s)", callers[i],
                     cgn_status_name(st), cgn_last_error());
        assert_int_equal(host_spy.calls, 1);
        if (host_spy.at_set_params != own)
            fail_msg("caller context %d: the setter ran in context %p, not the node's %p",
                     callers[i], (void *)host_spy.at_set_params, (void *)own);
        assert_int_equal(current, callers[i]);
        cgn_host_callback_desc got;
        OK(cgn_host_callback_exec_get(e, n, &got));
        assert_ptr_equal(got.fn, cgn_test_callback(env, fns[i]));
    }
    OK(cgn_exec_destroy(e));
    OK(cgn_graph_destroy(g));
}

/* A 3-D copy from device memory with a 4 GiB pitch: moving only its source row to 2^33 puts the
 * last row's offset past size_t (row 2^33 times pitch 2^32), refused with
 * CGN_ERROR_OUT_OF_RANGE at both levels, and the node and executable keep their row 0. */
static void test_memcpy_3d_src_y_alone_rechecks_the_row_offset(void **state) {
    cgn_test_env *env = *state;
    cgn_graph *g;
    OK(cgn_graph_create(&g));
    cgn_memcpy_3d_desc d = CGN_MEMCPY_3D_DESC_INIT;
    d.dst = env->buf[0];
    d.dst_pitch = 16;
    d.src = env->buf[1];
    d.src_pitch = (size_t)1 << 32;
    d.src_height = (size_t)1 << 40;
    d.width_in_bytes = 8;
    d.height = 1;
    cgn_node *n;
    OK(cgn_graph_add_memcpy_3d(g, NULL, 0, &d, &n));
    cgn_exec *e;
    OK(cgn_graph_instantiate(g, &e));
    cgn_memcpy_3d_update u = CGN_MEMCPY_3D_UPDATE_INIT;
    cgn_memcpy_3d_update_set_src_y(&u, (size_t)1 << 33);
    assert_int_equal(cgn_memcpy_3d_node_update(n, &u), CGN_ERROR_OUT_OF_RANGE);
    assert_non_null(strstr(cgn_last_error(), "does not fit size_t"));
    assert_int_equal(cgn_memcpy_3d_exec_update(e, n, &u), CGN_ERROR_OUT_OF_RANGE);
    cgn_memcpy_3d_desc got;
    OK(cgn_memcpy_3d_node_get(n, &got));
    assert_int_equal(got.src_y, 0);
    OK(cgn_memcpy_3d_exec_get(e, n, &got));
    assert_int_equal(got.src_y, 0);
    OK(cgn_exec_destroy(e));
    OK(cgn_graph_destroy(g));
}

int main(void) {
    const struct CMUnitTest tests[] = {
        cmocka_unit_test_setup_teardown(test_host_callback_exec_update_in_node_context_before_13,
                                        cgn_test_fixture_setup, cgn_test_fixture_teardown),
        cmocka_unit_test_setup_teardown(test_memcpy_3d_src_y_alone_rechecks_the_row_offset,
                                        cgn_test_fixture_setup, cgn_test_fixture_teardown),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
