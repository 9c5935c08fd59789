/* The survivors of a fresh mutation spot check of the runtime and the generated sources
 * (tools/mutate over the .c files of runtime/ and generated/src/, --sample 3 --seed 23) that a
 * test can tell, on the fake driver: a 3-D copy whose source row alone moves so that its last
 * row's offset no longer fits size_t is refused (the rule runs when src_y changes). The other
 * gap, a host callback's executable-level update before 13.0 in the node's context, is tested
 * with its definition-level twin in test_strength_seed21.c. Two more survivors are equivalent
 * (tests/mutation/equivalent.txt); one is left open (docs/testing.md). (Issue 8: test
 * strength.) */
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
        cmocka_unit_test_setup_teardown(test_memcpy_3d_src_y_alone_rechecks_the_row_offset,
                                        cgn_test_fixture_setup, cgn_test_fixture_teardown),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
