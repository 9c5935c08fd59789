/* The update loop's common cases, new values for every argument of the same kernel and
 * arguments replaced by index, with no owner (the generated paths of their own), on the fake
 * driver (label unit) and on a GPU (label gpu): what each executable and the definition run
 * after many such updates, a failed setter in the middle of the loop, blocks shared with
 * executables and embeddings, and the updates those paths leave to the general one. */
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
#include "runtime.h"

/* fill_u32(out, v) writes v to out[0]: a node with out = buffer `buf` and v = `value`. */
static cgn_graph *fill_graph(cgn_test_env *env, int buf, uint32_t value, cgn_node **node_out) {
    cgn_graph *g;
    OK(cgn_graph_create(&g));
    cgn_arg args[2] = {cgn_test_arg_buf(env, buf, 0), cgn_test_arg_u32(env, value)};
    cgn_kernel_desc d = CGN_KERNEL_DESC_INIT;
    d.kernel = cgn_test_kernel(env, "fill_u32");
    d.grid = d.block = CGN_DIM3(1, 1, 1);
    d.args = args;
    d.num_args = 2;
    OK(cgn_graph_add_kernel(g, NULL, 0, &d, node_out));
    return g;
}

/* An update of both arguments: buffer `buf`, value `value` (the caller's storage, reused). */
typedef struct args_update {
    CUdeviceptr out;
    uint32_t value;
    cgn_arg args[2];
    cgn_kernel_update u;
} args_update;

static cgn_kernel_update *set_args(cgn_test_env *env, args_update *a, int buf, uint32_t value) {
    a->out = env->buf[buf];
    a->value = value;
    a->args[0] = CGN_ARG(a->out);
    a->args[1] = CGN_ARG(a->value);
    a->u = (cgn_kernel_update)CGN_KERNEL_UPDATE_INIT;
    cgn_kernel_update_set_args(&a->u, a->args, 2);
    return &a->u;
}

static uint32_t value_of(const cgn_kernel_desc *d) {
    uint32_t v;
    assert_int_equal(d->num_args, 2);
    assert_int_equal(d->args[1].size, sizeof v);
    memcpy(&v, d->args[1].value, sizeof v);
    return v;
}

/* Twelve updates in a row at each level: after every one, the node's parameters and what the
 * definition and the executable run are the latest values, and neither level sees the other's. */
static void test_loop_at_both_levels(void **state) {
    cgn_test_env *env = *state;
    cgn_node *n;
    cgn_graph *g = fill_graph(env, 0, 1, &n);
    cgn_exec *e;
    OK(cgn_graph_instantiate(g, &e));
    args_update a;
    cgn_kernel_desc got;
    for (uint32_t v = 2; v < 14; v++) {
        OK(cgn_kernel_node_update(n, set_args(env, &a, 0, v)));
        OK(cgn_kernel_node_get(n, &got));
        assert_int_equal(value_of(&got), v);
        assert_ptr_not_equal(got.args, a.args); /* cgn's copy, not the caller's array */
        assert_int_equal(cgn_test_run_graph_read(env, g, 0), v);
        OK(cgn_kernel_exec_update(e, n, set_args(env, &a, 0, 100 + v)));
        OK(cgn_kernel_exec_get(e, n, &got));
        assert_int_equal(value_of(&got), 100 + v);
        assert_int_equal(cgn_test_run_read(env, e, 0), 100 + v);
        OK(cgn_kernel_node_get(n, &got));
        assert_int_equal(value_of(&got), v);
    }
    /* The pointer argument moves too: buffer 1 is written, buffer 0 no longer. */
    OK(cgn_kernel_exec_update(e, n, set_args(env, &a, 1, 77)));
    OK(cgn_kernel_exec_update(e, n, set_args(env, &a, 1, 78)));
    assert_int_equal(cgn_test_run_read(env, e, 1), 78);
    assert_int_equal(cgn_test_run_read(env, e, 0), 0);
    OK(cgn_exec_destroy(e));
    OK(cgn_graph_destroy(g));
}

/* A setter that fails in the middle of a loop (at either level) changes nothing, and the loop
 * goes on with correct values afterwards: the block taken for the failed update went back. */
static void test_failed_setter_mid_loop(void **state) {
    cgn_test_env *env = *state;
    cgn_node *n;
    cgn_graph *g = fill_graph(env, 0, 1, &n);
    cgn_exec *e;
    OK(cgn_graph_instantiate(g, &e));
    args_update a;
    cgn_kernel_desc got;
    for (int level = 0; level < 2; level++) {
        for (uint32_t v = 2; v < 5; v++) /* the steady state: a spare block of this layout */
            OK(level ? cgn_kernel_exec_update(e, n, set_args(env, &a, 0, v))
                     : cgn_kernel_node_update(n, set_args(env, &a, 0, v)));
        cgn_fault_reset_counts();
        cgn_fault_arm(1, CUDA_ERROR_INVALID_VALUE);
        cgn_status st = level ? cgn_kernel_exec_update(e, n, set_args(env, &a, 0, 9))
                              : cgn_kernel_node_update(n, set_args(env, &a, 0, 9));
        cgn_fault_entry which;
        assert_true(cgn_fault_triggered(&which));
        assert_true(cgn_fault_is_setter(which));
        cgn_fault_disarm();
        assert_int_not_equal(st, CGN_OK);
        assert_non_null(strstr(cgn_last_error(), "CUDA_ERROR_INVALID_VALUE"));
        OK(level ? cgn_kernel_exec_get(e, n, &got) : cgn_kernel_node_get(n, &got));
        assert_int_equal(value_of(&got), 4);
        assert_int_equal(level ? cgn_test_run_read(env, e, 0) : cgn_test_run_graph_read(env, g, 0),
                         4);
        for (uint32_t v = 20; v < 24; v++) {
            OK(level ? cgn_kernel_exec_update(e, n, set_args(env, &a, 0, v))
                     : cgn_kernel_node_update(n, set_args(env, &a, 0, v)));
            OK(level ? cgn_kernel_exec_get(e, n, &got) : cgn_kernel_node_get(n, &got));
            assert_int_equal(value_of(&got), v);
            assert_int_equal(
                level ? cgn_test_run_read(env, e, 0) : cgn_test_run_graph_read(env, g, 0), v);
        }
    }
    OK(cgn_exec_destroy(e));
    OK(cgn_graph_destroy(g));
}

/* The definition's argument block is shared with an executable made from it and with an
 * embedded copy: the loop never writes a block they read, so each keeps its own values. */
static void test_shared_blocks_keep_their_values(void **state) {
    cgn_test_env *env = *state;
    cgn_node *n;
    cgn_graph *g = fill_graph(env, 0, 1, &n);
    args_update a;
    for (uint32_t v = 2; v < 5; v++)
        OK(cgn_kernel_node_update(n, set_args(env, &a, 0, v)));
    cgn_exec *e4;
    OK(cgn_graph_instantiate(g, &e4)); /* holds the block of 4 */
    cgn_graph *parent;
    OK(cgn_graph_create(&parent));
    cgn_child_graph_desc cd = CGN_CHILD_GRAPH_DESC_INIT;
    cd.graph = g;
    cgn_node *child;
    OK(cgn_graph_add_child_graph(parent, NULL, 0, &cd, &child)); /* a copy of 4 */
    cgn_exec *e5 = NULL;
    for (uint32_t v = 5; v < 11; v++) {
        OK(cgn_kernel_node_update(n, set_args(env, &a, 0, v)));
        if (v == 5)
            OK(cgn_graph_instantiate(g, &e5));
    }
    assert_int_equal(cgn_test_run_read(env, e4, 0), 4);
    assert_int_equal(cgn_test_run_read(env, e5, 0), 5);
    assert_int_equal(cgn_test_run_graph_read(env, parent, 0), 4);
    assert_int_equal(cgn_test_run_graph_read(env, g, 0), 10);
    /* The same with the executable's own loop: e5's updates leave e4 and the definition. */
    for (uint32_t v = 30; v < 36; v++)
        OK(cgn_kernel_exec_update(e5, n, set_args(env, &a, 0, v)));
    assert_int_equal(cgn_test_run_read(env, e5, 0), 35);
    assert_int_equal(cgn_test_run_read(env, e4, 0), 4);
    assert_int_equal(cgn_test_run_graph_read(env, g, 0), 10);
    /* The embedded copy's node loops on its own blocks. */
    cgn_node *inner;
    OK(cgn_child_graph_node_find(child, n, &inner));
    for (uint32_t v = 40; v < 44; v++)
        OK(cgn_kernel_node_update(inner, set_args(env, &a, 0, v)));
    assert_int_equal(cgn_test_run_graph_read(env, parent, 0), 43);
    assert_int_equal(cgn_test_run_graph_read(env, g, 0), 10);
    OK(cgn_exec_destroy(e4));
    OK(cgn_exec_destroy(e5));
    OK(cgn_graph_destroy(parent));
    OK(cgn_graph_destroy(g));
}

static cgn_status edit(cgn_exec *e, cgn_node *n, uint32_t index, const void *value, size_t size,
                       cgn_owner *owner) {
    cgn_kernel_update u = CGN_KERNEL_UPDATE_INIT;
    cgn_kernel_update_set_arg(&u, index, value, size, owner);
    return e ? cgn_kernel_exec_update(e, n, &u) : cgn_kernel_node_update(n, &u);
}

/* Argument-level edits in a loop at each level: one argument, then the other, then both in one
 * update; a failed setter and refused edits in between change nothing. */
static void test_edit_loop_at_both_levels(void **state) {
    cgn_test_env *env = *state;
    cgn_node *n;
    cgn_graph *g = fill_graph(env, 0, 1, &n);
    cgn_exec *e;
    OK(cgn_graph_instantiate(g, &e));
    cgn_kernel_desc got;
    for (int level = 0; level < 2; level++) {
        cgn_exec *x = level ? e : NULL;
        uint32_t base = level ? 100 : 0;
        for (uint32_t v = 2; v < 12; v++) {
            uint32_t value = base + v;
            OK(edit(x, n, 1, &value, sizeof value, NULL));
            OK(x ? cgn_kernel_exec_get(x, n, &got) : cgn_kernel_node_get(n, &got));
            assert_int_equal(value_of(&got), base + v);
            assert_int_equal(x ? cgn_test_run_read(env, x, 0) : cgn_test_run_graph_read(env, g, 0),
                             base + v);
        }
        /* The pointer alone: the value stays. */
        OK(edit(x, n, 0, &env->buf[1], sizeof env->buf[1], NULL));
        assert_int_equal(x ? cgn_test_run_read(env, x, 1) : cgn_test_run_graph_read(env, g, 1),
                         base + 11);
        /* Both in one update. */
        uint32_t both = base + 50;
        cgn_kernel_update u = CGN_KERNEL_UPDATE_INIT;
        cgn_kernel_update_set_arg(&u, 0, &env->buf[0], sizeof env->buf[0], NULL);
        cgn_kernel_update_set_arg(&u, 1, &both, sizeof both, NULL);
        OK(x ? cgn_kernel_exec_update(x, n, &u) : cgn_kernel_node_update(n, &u));
        assert_int_equal(x ? cgn_test_run_read(env, x, 0) : cgn_test_run_graph_read(env, g, 0),
                         base + 50);
        /* Refused before any driver call: an index past the kernel's, a size not its own. */
        uint32_t bad = 9;
        uint64_t wide = 9;
        cgn_fault_reset_counts();
        assert_int_equal(edit(x, n, 2, &bad, sizeof bad, NULL), CGN_ERROR_INVALID_VALUE);
        assert_int_equal(edit(x, n, 1, &wide, sizeof wide, NULL), CGN_ERROR_INVALID_VALUE);
        assert_int_equal(cgn_fault_setter_calls(), 0);
        /* A failed setter. */
        uint32_t lost = base + 60;
        cgn_fault_arm(1, CUDA_ERROR_INVALID_VALUE);
        assert_int_not_equal(edit(x, n, 1, &lost, sizeof lost, NULL), CGN_OK);
        cgn_fault_entry which;
        assert_true(cgn_fault_triggered(&which));
        assert_true(cgn_fault_is_setter(which));
        cgn_fault_disarm();
        OK(x ? cgn_kernel_exec_get(x, n, &got) : cgn_kernel_node_get(n, &got));
        assert_int_equal(value_of(&got), base + 50);
        assert_int_equal(x ? cgn_test_run_read(env, x, 0) : cgn_test_run_graph_read(env, g, 0),
                         base + 50);
        for (uint32_t v = 70; v < 74; v++) {
            uint32_t value = base + v;
            OK(edit(x, n, 1, &value, sizeof value, NULL));
            assert_int_equal(x ? cgn_test_run_read(env, x, 0) : cgn_test_run_graph_read(env, g, 0),
                             base + v);
        }
    }
    /* The definition was never changed by the executable's loop, nor the other way round. */
    OK(cgn_kernel_node_get(n, &got));
    assert_int_equal(value_of(&got), 73);
    OK(cgn_kernel_exec_get(e, n, &got));
    assert_int_equal(value_of(&got), 173);
    /* An edit with an owner: retained while the version lives, released after. */
    long refs = atomic_load(&env->owner[1]->refs);
    OK(edit(NULL, n, 0, &env->buf[1], sizeof env->buf[1], env->owner[1]));
    assert_int_equal(atomic_load(&env->owner[1]->refs), refs + 1);
    assert_int_equal(cgn_test_run_graph_read(env, g, 1), 73);
    uint32_t after = 74;
    OK(edit(NULL, n, 1, &after, sizeof after, NULL)); /* the owned pointer stays */
    assert_int_equal(atomic_load(&env->owner[1]->refs), refs + 1);
    OK(edit(NULL, n, 0, &env->buf[0], sizeof env->buf[0], NULL));
    OK(cgn_exec_destroy(e));
    assert_true(cgn_test_settle(env));
    assert_int_equal(atomic_load(&env->owner[1]->refs), refs);
    assert_int_equal(cgn_test_run_graph_read(env, g, 0), 74);
    OK(cgn_graph_destroy(g));
}

/* What the loop's path leaves to the general one, mixed into a loop: arguments with an owner
 * (retained while the version lives, released after), a size the kernel does not take (refused,
 * nothing changed), an argument-level edit, a new grid, and a CUfunction node (its context). */
static void test_other_updates_between(void **state) {
    cgn_test_env *env = *state;
    cgn_node *n;
    cgn_graph *g = fill_graph(env, 0, 1, &n);
    args_update a;
    cgn_kernel_desc got;
    for (uint32_t v = 2; v < 5; v++)
        OK(cgn_kernel_node_update(n, set_args(env, &a, 0, v)));
    /* Owned: the owner is held by the node's version. */
    long refs = atomic_load(&env->owner[1]->refs);
    set_args(env, &a, 1, 6);
    a.args[0].owner = env->owner[1];
    OK(cgn_kernel_node_update(n, &a.u));
    assert_int_equal(atomic_load(&env->owner[1]->refs), refs + 1);
    assert_int_equal(cgn_test_run_graph_read(env, g, 1), 6);
    for (uint32_t v = 7; v < 10; v++) /* unowned again: the owned version is replaced */
        OK(cgn_kernel_node_update(n, set_args(env, &a, 1, v)));
    assert_true(cgn_test_settle(env));
    assert_int_equal(atomic_load(&env->owner[1]->refs), refs);
    assert_int_equal(cgn_test_run_graph_read(env, g, 1), 9);
    /* A size the kernel does not take: refused before any driver call. */
    uint64_t wide = 11;
    set_args(env, &a, 1, 0);
    a.args[1] = CGN_ARG(wide);
    cgn_fault_reset_counts();
    assert_int_equal(cgn_kernel_node_update(n, &a.u), CGN_ERROR_INVALID_VALUE);
    assert_int_equal(cgn_fault_setter_calls(), 0);
    OK(cgn_kernel_node_get(n, &got));
    assert_int_equal(value_of(&got), 9);
    /* An argument-level edit after the loop, then the loop again. */
    uint32_t edited = 12;
    cgn_kernel_update edit = CGN_KERNEL_UPDATE_INIT;
    cgn_kernel_update_set_arg(&edit, 1, &edited, sizeof edited, NULL);
    OK(cgn_kernel_node_update(n, &edit));
    assert_int_equal(cgn_test_run_graph_read(env, g, 1), 12);
    for (uint32_t v = 13; v < 16; v++) {
        OK(cgn_kernel_node_update(n, set_args(env, &a, 1, v)));
        OK(cgn_kernel_node_update(n, &edit));
        assert_int_equal(cgn_test_run_graph_read(env, g, 1), 12);
    }
    OK(cgn_kernel_node_update(n, set_args(env, &a, 1, 16)));
    cgn_kernel_update grid = CGN_KERNEL_UPDATE_INIT;
    cgn_kernel_update_set_grid(&grid, CGN_DIM3(2, 1, 1));
    OK(cgn_kernel_node_update(n, &grid));
    OK(cgn_kernel_node_get(n, &got));
    assert_int_equal(value_of(&got), 16);
    assert_int_equal(got.grid.x, 2);
    assert_int_equal(cgn_test_run_graph_read(env, g, 1), 16);
    OK(cgn_graph_destroy(g));

    /* add_one(p) comes as a CUfunction: its updates make the node's context current. */
    OK(cgn_graph_create(&g));
    cgn_arg one[1] = {cgn_test_arg_buf(env, 0, 0)};
    cgn_kernel_desc d = CGN_KERNEL_DESC_INIT;
    d.kernel = cgn_test_kernel(env, "add_one");
    d.grid = d.block = CGN_DIM3(1, 1, 1);
    d.args = one;
    d.num_args = 1;
    OK(cgn_graph_add_kernel(g, NULL, 0, &d, &n));
    CUdeviceptr target = 0;
    cgn_arg moved[1] = {CGN_ARG(target)};
    cgn_kernel_update u = CGN_KERNEL_UPDATE_INIT;
    cgn_kernel_update_set_args(&u, moved, 1);
    for (int i = 0; i < 4; i++) {
        target = env->buf[i & 1];
        env->backend->set_context(env, CGN_TEST_CTX_NONE);
        cgn_status st = cgn_kernel_node_update(n, &u);
        assert_int_equal(env->backend->current_context(env), CGN_TEST_CTX_NONE);
        env->backend->set_context(env, CGN_TEST_CTX_OWN);
        OK(st);
        assert_int_equal(cgn_test_run_graph_read(env, g, i & 1), 1);
    }
    OK(cgn_graph_destroy(g));
}

int main(void) {
    cgn_test_env probe; /* a GPU build without a device skips (77) */
    int rc = cgn_test_env_open(&probe);
    if (rc != 0)
        return rc;
    cgn_test_env_close(&probe);
    const struct CMUnitTest tests[] = {
        cmocka_unit_test_setup_teardown(test_loop_at_both_levels, cgn_test_fixture_setup,
                                        cgn_test_fixture_teardown),
        cmocka_unit_test_setup_teardown(test_failed_setter_mid_loop, cgn_test_fixture_setup,
                                        cgn_test_fixture_teardown),
        cmocka_unit_test_setup_teardown(test_shared_blocks_keep_their_values,
                                        cgn_test_fixture_setup, cgn_test_fixture_teardown),
        cmocka_unit_test_setup_teardown(test_other_updates_between, cgn_test_fixture_setup,
                                        cgn_test_fixture_teardown),
        cmocka_unit_test_setup_teardown(test_edit_loop_at_both_levels, cgn_test_fixture_setup,
                                        cgn_test_fixture_teardown),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
