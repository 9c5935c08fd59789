/* Commits that write back only the fields set (docs/design.md): an update setting some of the
 * fields cgn keeps as given (a kernel's grid, block and shared memory; a memset's value and
 * shape) changes exactly those, at both levels, and every other field keeps its value, as
 * _get and _exec_get report it. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include <cmocka.h>

#include "cgn_test_env.h"
#include "cgn_test_fixture.h"

static int same_dim3(cgn_dim3 a, cgn_dim3 b) { return a.x == b.x && a.y == b.y && a.z == b.z; }

static cgn_status kernel_update_at(cgn_exec *e, cgn_node *n, const cgn_kernel_update *u) {
    return e ? cgn_kernel_exec_update(e, n, u) : cgn_kernel_node_update(n, u);
}

static cgn_kernel_desc kernel_get_at(cgn_exec *e, cgn_node *n) {
    cgn_kernel_desc d;
    OK(e ? cgn_kernel_exec_get(e, n, &d) : cgn_kernel_node_get(n, &d));
    return d;
}

/* Each of grid, block and shared memory alone, then two together: the others keep theirs. */
static void test_kernel_config_fields_alone(void **state) {
    cgn_test_env *env = *state;
    cgn_arg args[2] = {cgn_test_arg_buf(env, 0, 0), cgn_test_arg_u32(env, 5)};
    cgn_kernel_desc d = CGN_KERNEL_DESC_INIT;
    d.kernel = cgn_test_kernel(env, "fill_u32");
    d.grid = CGN_DIM3(2, 3, 4);
    d.block = CGN_DIM3(32, 2, 1);
    d.shared_mem_bytes = 64;
    d.args = args;
    d.num_args = 2;
    cgn_graph *g;
    OK(cgn_graph_create(&g));
    cgn_node *n;
    OK(cgn_graph_add_kernel(g, NULL, 0, &d, &n));
    cgn_exec *e;
    OK(cgn_graph_instantiate(g, &e));
    for (int level = 0; level < 2; level++) {
        cgn_exec *x = level ? e : NULL;
        cgn_dim3 grid = d.grid, block = d.block;
        unsigned shared = d.shared_mem_bytes;
        for (int round = 0; round < 4; round++) {
            cgn_kernel_update u = CGN_KERNEL_UPDATE_INIT;
            if (round == 0 || round == 3) {
                grid = CGN_DIM3(5 + (unsigned)level, 1, 2);
                cgn_kernel_update_set_grid(&u, grid);
            }
            if (round == 1 || round == 3) {
                block = CGN_DIM3(64, 1, 1 + (unsigned)level);
                cgn_kernel_update_set_block(&u, block);
            }
            if (round == 2) {
                shared = 128 + (unsigned)level;
                cgn_kernel_update_set_shared_mem_bytes(&u, shared);
            }
            OK(kernel_update_at(x, n, &u));
            cgn_kernel_desc got = kernel_get_at(x, n);
            assert_true(same_dim3(got.grid, grid));
            assert_true(same_dim3(got.block, block));
            assert_int_equal(got.shared_mem_bytes, shared);
            assert_int_equal(got.num_args, 2);
        }
    }
    /* Neither level saw the other's. */
    cgn_kernel_desc def = kernel_get_at(NULL, n), ex = kernel_get_at(e, n);
    assert_int_equal(def.grid.x, 5);
    assert_int_equal(ex.grid.x, 6);
    OK(cgn_exec_destroy(e));
    OK(cgn_graph_destroy(g));
}

static cgn_status memset_update_at(cgn_exec *e, cgn_node *n, const cgn_memset_update *u) {
    return e ? cgn_memset_exec_update(e, n, u) : cgn_memset_node_update(n, u);
}

static cgn_memset_desc memset_get_at(cgn_exec *e, cgn_node *n) {
    cgn_memset_desc d;
    OK(e ? cgn_memset_exec_get(e, n, &d) : cgn_memset_node_get(n, &d));
    return d;
}

/* A memset's value, then its width, then both: the other fields keep theirs. */
static void test_memset_fields_alone(void **state) {
    cgn_test_env *env = *state;
    cgn_memset_desc d = cgn_test_fill_desc(env, 0, 0x11, 0);
    cgn_graph *g;
    OK(cgn_graph_create(&g));
    cgn_node *n;
    OK(cgn_graph_add_memset(g, NULL, 0, &d, &n));
    cgn_exec *e;
    OK(cgn_graph_instantiate(g, &e));
    for (int level = 0; level < 2; level++) {
        cgn_exec *x = level ? e : NULL;
        uint32_t value = d.value;
        size_t width = d.width;
        for (int round = 0; round < 3; round++) {
            cgn_memset_update u = CGN_MEMSET_UPDATE_INIT;
            if (round != 1) {
                value = 0x20 + (uint32_t)(round + level);
                cgn_memset_update_set_value(&u, value, d.element_size);
            }
            if (round != 0) {
                width = d.width - 1 - (size_t)level;
                cgn_memset_update_set_width(&u, width);
            }
            OK(memset_update_at(x, n, &u));
            cgn_memset_desc got = memset_get_at(x, n);
            assert_int_equal(got.value, value);
            assert_int_equal(got.width, width);
            assert_int_equal(got.element_size, d.element_size);
            assert_int_equal(got.height, d.height);
            assert_int_equal(got.dst, d.dst);
        }
    }
    OK(cgn_exec_destroy(e));
    OK(cgn_graph_destroy(g));
}

int main(void) {
    const struct CMUnitTest tests[] = {
        cmocka_unit_test_setup_teardown(test_kernel_config_fields_alone, cgn_test_fixture_setup,
                                        cgn_test_fixture_teardown),
        cmocka_unit_test_setup_teardown(test_memset_fields_alone, cgn_test_fixture_setup,
                                        cgn_test_fixture_teardown),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
