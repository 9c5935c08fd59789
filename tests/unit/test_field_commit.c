/* Commits that write back only the fields set (docs/design.md): an update setting some of the
 * fields cgn keeps as given (a kernel's grid, block and shared memory; a memset's value and
 * shape; a 3-D copy's offsets, pitches and extent) changes exactly those, at both levels, and
 * every other field keeps its value, as _get and _exec_get report it. */
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

/* The same fields on a node whose argument has an owner: such updates cannot change the owners
 * (their lean path takes versions with owners too), so the owner stays held by the definition
 * and the executable, unreleased, through config updates at both levels, and goes once both
 * are gone; what runs is the new configuration with the owned argument. */
static void test_kernel_config_keeps_the_owners(void **state) {
    cgn_test_env *env = *state;
    cgn_arg args[2] = {cgn_test_arg_buf(env, 1, 1), cgn_test_arg_u32(env, 9)};
    cgn_kernel_desc d = CGN_KERNEL_DESC_INIT;
    d.kernel = cgn_test_kernel(env, "fill_u32");
    d.grid = d.block = CGN_DIM3(1, 1, 1);
    d.args = args;
    d.num_args = 2;
    cgn_graph *g;
    OK(cgn_graph_create(&g));
    cgn_node *n;
    OK(cgn_graph_add_kernel(g, NULL, 0, &d, &n));
    cgn_exec *e;
    OK(cgn_graph_instantiate(g, &e));
    cgn_test_env_drop_owners(env); /* from here only the graph and the executable hold it */
    for (int level = 0; level < 2; level++) {
        cgn_exec *x = level ? e : NULL;
        for (unsigned k = 0; k < 6; k++) {
            cgn_kernel_update u = CGN_KERNEL_UPDATE_INIT;
            if (k % 3 != 1)
                cgn_kernel_update_set_grid(&u, CGN_DIM3(1 + k % 2, 1, 1));
            if (k % 3 != 0)
                cgn_kernel_update_set_block(&u, CGN_DIM3(1, 1 + k % 2, 1));
            OK(kernel_update_at(x, n, &u));
        }
        cgn_kernel_desc got = kernel_get_at(x, n);
        assert_int_equal(got.args[1].size, 4);
        assert_ptr_equal(got.args[0].owner, cgn_test_owner(env, 1));
        assert_int_equal(x ? cgn_test_run_read(env, x, 1) : cgn_test_run_graph_read(env, g, 1), 9);
        assert_int_equal(env->released[1], 0);
    }
    OK(cgn_exec_destroy(e));
    cgn_collect();
    assert_int_equal(env->released[1], 0); /* the definition still holds it */
    OK(cgn_graph_destroy(g));
    assert_int_equal(cgn_test_wait_released(env, 1, 1), 1);
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

/* The 3-D copy's offsets, pitches and extent: each alone set to another value, then back, at both
 * levels (height and depth at definition level only: an executable's copy stays 1-D); every one
 * of the thirteen reads back as the model has it, and the operands stay. */
typedef void (*memcpy_3d_setter)(cgn_memcpy_3d_update *update, size_t value);

static void test_memcpy_3d_fields_alone(void **state) {
    cgn_test_env *env = *state;
    /* One row of 2 bytes at offset (1, 1, 1) of rows of 8 bytes in slices of 3 rows, every
     * field non-zero (a field written back from an update that did not set it reads 0): every
     * change below stays in the 64-byte buffers and keeps the copy's rules. */
    cgn_memcpy_3d_desc d = CGN_MEMCPY_3D_DESC_INIT;
    d.dst = env->buf[1];
    d.src = env->buf[0];
    d.dst_x_in_bytes = d.dst_y = d.dst_z = d.src_x_in_bytes = d.src_y = d.src_z = 1;
    d.dst_pitch = d.src_pitch = 8;
    d.dst_height = d.src_height = 3;
    d.width_in_bytes = 2;
    d.height = 1;
    d.depth = 1;
    static const struct {
        memcpy_3d_setter set;
        size_t offset, value;
        int definition_only;
    } fields[] = {
#define FIELD(name, value, definition_only)                                                        \
    {cgn_memcpy_3d_update_set_##name, offsetof(cgn_memcpy_3d_desc, name), value, definition_only}
        FIELD(dst_x_in_bytes, 4, 0), FIELD(dst_y, 2, 0),          FIELD(dst_z, 0, 0),
        FIELD(dst_pitch, 10, 0),     FIELD(dst_height, 4, 0),     FIELD(src_x_in_bytes, 4, 0),
        FIELD(src_y, 2, 0),          FIELD(src_z, 0, 0),          FIELD(src_pitch, 12, 0),
        FIELD(src_height, 5, 0),     FIELD(width_in_bytes, 3, 0), FIELD(height, 2, 1),
        FIELD(depth, 2, 1),
#undef FIELD
    };
    const size_t num_fields = sizeof fields / sizeof fields[0];
    cgn_graph *g;
    OK(cgn_graph_create(&g));
    cgn_node *n;
    OK(cgn_graph_add_memcpy_3d(g, NULL, 0, &d, &n));
    cgn_exec *e;
    OK(cgn_graph_instantiate(g, &e));
    for (int level = 0; level < 2; level++) {
        cgn_exec *x = level ? e : NULL;
        cgn_memcpy_3d_desc model = d;
        for (size_t f = 0; f < num_fields; f++) {
            if (x != NULL && fields[f].definition_only)
                continue;
            size_t *slot = (size_t *)(void *)((unsigned char *)&model + fields[f].offset);
            size_t original = *slot;
            for (int step = 0; step < 2; step++) { /* to the new value, then back */
                *slot = step ? original : fields[f].value;
                cgn_memcpy_3d_update u = CGN_MEMCPY_3D_UPDATE_INIT;
                fields[f].set(&u, *slot);
                OK(x ? cgn_memcpy_3d_exec_update(x, n, &u) : cgn_memcpy_3d_node_update(n, &u));
                cgn_memcpy_3d_desc got;
                OK(x ? cgn_memcpy_3d_exec_get(x, n, &got) : cgn_memcpy_3d_node_get(n, &got));
                for (size_t k = 0; k < num_fields; k++) {
                    size_t want, have;
                    memcpy(&want, (const unsigned char *)&model + fields[k].offset, sizeof want);
                    memcpy(&have, (const unsigned char *)&got + fields[k].offset, sizeof have);
                    if (want != have)
                        print_error("level %d, field %zu set to %zu: field %zu is %zu, not %zu\n",
                                    level, f, *slot, k, have, want);
                    assert_int_equal(have, want);
                }
                assert_int_equal(got.dst, d.dst);
                assert_int_equal(got.src, d.src);
            }
        }
    }
    OK(cgn_exec_destroy(e));
    OK(cgn_graph_destroy(g));
}

int main(void) {
    const struct CMUnitTest tests[] = {
        cmocka_unit_test_setup_teardown(test_kernel_config_fields_alone, cgn_test_fixture_setup,
                                        cgn_test_fixture_teardown),
        cmocka_unit_test_setup_teardown(test_kernel_config_keeps_the_owners, cgn_test_fixture_setup,
                                        cgn_test_fixture_teardown),
        cmocka_unit_test_setup_teardown(test_memset_fields_alone, cgn_test_fixture_setup,
                                        cgn_test_fixture_teardown),
        cmocka_unit_test_setup_teardown(test_memcpy_3d_fields_alone, cgn_test_fixture_setup,
                                        cgn_test_fixture_teardown),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
