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

/* At definition level (e NULL) or in executable e. */
static cgn_status update_at(cgn_exec *e, cgn_node *n, const cgn_kernel_update *u) {
    return e ? cgn_kernel_exec_update(e, n, u) : cgn_kernel_node_update(n, u);
}

static void get_at(cgn_exec *e, cgn_node *n, cgn_kernel_desc *got) {
    OK(e ? cgn_kernel_exec_get(e, n, got) : cgn_kernel_node_get(n, got));
}

static uint8_t run_at(cgn_test_env *env, cgn_exec *e, cgn_graph *g, int buf) {
    return e ? cgn_test_run_read(env, e, buf) : cgn_test_run_graph_read(env, g, buf);
}

static uint32_t value_of(const cgn_kernel_desc *d) {
    uint32_t v;
    assert_int_equal(d->num_args, 2);
    assert_int_equal(d->args[1].size, sizeof v);
    memcpy(&v, d->args[1].value, sizeof v);
    return v;
}

/* The pointer argument a node holds (argument 0 of fill_u32). */
static CUdeviceptr pointer_of(const cgn_kernel_desc *d) {
    CUdeviceptr p;
    assert_int_equal(d->args[0].size, sizeof p);
    memcpy(&p, d->args[0].value, sizeof p);
    return p;
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
        cgn_exec *x = level ? e : NULL;
        for (uint32_t v = 2; v < 5; v++) /* the steady state: a spare block of this layout */
            OK(update_at(x, n, set_args(env, &a, 0, v)));
        cgn_fault_reset_counts();
        cgn_fault_arm(1, CUDA_ERROR_INVALID_VALUE);
        cgn_status st = update_at(x, n, set_args(env, &a, 0, 9));
        cgn_fault_entry which;
        assert_true(cgn_fault_triggered(&which));
        assert_true(cgn_fault_is_setter(which));
        cgn_fault_disarm();
        assert_int_not_equal(st, CGN_OK);
        assert_non_null(strstr(cgn_last_error(), "CUDA_ERROR_INVALID_VALUE"));
        get_at(x, n, &got);
        assert_int_equal(value_of(&got), 4);
        assert_int_equal(run_at(env, x, g, 0), 4);
        for (uint32_t v = 20; v < 24; v++) {
            OK(update_at(x, n, set_args(env, &a, 0, v)));
            get_at(x, n, &got);
            assert_int_equal(value_of(&got), v);
            assert_int_equal(run_at(env, x, g, 0), v);
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

/* 1: edit() goes through the one-call form (cgn_kernel_node_set_arg / cgn_kernel_exec_set_arg)
 * instead of an update with one cgn_kernel_update_set_arg; every test that edits runs both ways
 * (main), and must see the same. */
static int edit_direct;

static cgn_status edit(cgn_exec *e, cgn_node *n, uint32_t index, const void *value, size_t size,
                       cgn_owner *owner) {
    if (edit_direct)
        return e ? cgn_kernel_exec_set_arg(e, n, index, value, size, owner)
                 : cgn_kernel_node_set_arg(n, index, value, size, owner);
    cgn_kernel_update u = CGN_KERNEL_UPDATE_INIT;
    cgn_kernel_update_set_arg(&u, index, value, size, owner);
    return update_at(e, n, &u);
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
            get_at(x, n, &got);
            assert_int_equal(value_of(&got), base + v);
            assert_int_equal(run_at(env, x, g, 0), base + v);
        }
        /* The pointer alone: the value stays. */
        OK(edit(x, n, 0, &env->buf[1], sizeof env->buf[1], NULL));
        assert_int_equal(run_at(env, x, g, 1), base + 11);
        /* Both in one update. */
        uint32_t both = base + 50;
        cgn_kernel_update u = CGN_KERNEL_UPDATE_INIT;
        cgn_kernel_update_set_arg(&u, 0, &env->buf[0], sizeof env->buf[0], NULL);
        cgn_kernel_update_set_arg(&u, 1, &both, sizeof both, NULL);
        OK(update_at(x, n, &u));
        assert_int_equal(run_at(env, x, g, 0), base + 50);
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
        get_at(x, n, &got);
        assert_int_equal(value_of(&got), base + 50);
        assert_int_equal(run_at(env, x, g, 0), base + 50);
        for (uint32_t v = 70; v < 74; v++) {
            uint32_t value = base + v;
            OK(edit(x, n, 1, &value, sizeof value, NULL));
            assert_int_equal(run_at(env, x, g, 0), base + v);
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

/* Updates in the loop's steady state whose `set` is not exactly the loop's: every field set
 * is applied, and a field whose bit is not set is never read, though a reused update still
 * holds a valid value for it (cgn_kernel_update_reset). */
static void test_loop_reads_only_the_fields_set(void **state) {
    cgn_test_env *env = *state;
    cgn_node *n;
    cgn_graph *g = fill_graph(env, 0, 1, &n);
    cgn_exec *e;
    OK(cgn_graph_instantiate(g, &e));
    args_update a;
    cgn_kernel_desc got;
    for (int level = 0; level < 2; level++) {
        cgn_exec *x = level ? e : NULL;
        uint32_t base = level ? 100 : 0;
        for (uint32_t v = 2; v < 5; v++) /* the steady state: a spare block of this layout */
            OK(update_at(x, n, set_args(env, &a, 0, base + v)));
        /* Every argument and the grid in one update: both apply. */
        set_args(env, &a, 0, base + 5);
        cgn_kernel_update_set_grid(&a.u, CGN_DIM3(2, 1, 1));
        OK(update_at(x, n, &a.u));
        get_at(x, n, &got);
        assert_int_equal(value_of(&got), base + 5);
        assert_int_equal(got.grid.x, 2);
        /* The grid alone, from the reused update whose args now read base + 6: not applied. */
        cgn_kernel_update_reset(&a.u);
        a.value = base + 6;
        cgn_kernel_update_set_grid(&a.u, CGN_DIM3(3, 1, 1));
        OK(update_at(x, n, &a.u));
        get_at(x, n, &got);
        assert_int_equal(value_of(&got), base + 5);
        assert_int_equal(got.grid.x, 3);
        /* An edit the caller took back by clearing its bit: the grid alone again. */
        uint32_t dropped = base + 7;
        cgn_kernel_update u = CGN_KERNEL_UPDATE_INIT;
        cgn_kernel_update_set_arg(&u, 1, &dropped, sizeof dropped, NULL);
        u.set = CGN_KERNEL_SET_GRID;
        u.grid = CGN_DIM3(1, 1, 1);
        OK(update_at(x, n, &u));
        get_at(x, n, &got);
        assert_int_equal(value_of(&got), base + 5);
        assert_int_equal(got.grid.x, 1);
        assert_int_equal(run_at(env, x, g, 0), base + 5);
        /* An edit and the grid in one update: both apply. */
        uint32_t edited = base + 9;
        u = (cgn_kernel_update)CGN_KERNEL_UPDATE_INIT;
        cgn_kernel_update_set_arg(&u, 1, &edited, sizeof edited, NULL);
        cgn_kernel_update_set_grid(&u, CGN_DIM3(2, 1, 1));
        OK(update_at(x, n, &u));
        get_at(x, n, &got);
        assert_int_equal(value_of(&got), base + 9);
        assert_int_equal(got.grid.x, 2);
        /* Two arguments announced, no array: refused before any driver call. */
        set_args(env, &a, 0, base + 10);
        a.u.args = NULL;
        cgn_fault_reset_counts();
        assert_int_equal(update_at(x, n, &a.u), CGN_ERROR_INVALID_ARGUMENT);
        assert_int_equal(cgn_fault_setter_calls(), 0);
        /* The kernel alone, with valid args and edits left in the update: refused before any
         * driver call (kernel requires args), nothing changed. */
        set_args(env, &a, 0, base + 8);
        cgn_kernel_update_set_arg(&a.u, 1, &dropped, sizeof dropped, NULL);
        a.u.set = CGN_KERNEL_SET_KERNEL;
        a.u.kernel = cgn_test_kernel(env, "fill_u32");
        cgn_fault_reset_counts();
        assert_int_equal(update_at(x, n, &a.u), CGN_ERROR_MISSING_FIELD);
        assert_int_equal(cgn_fault_setter_calls(), 0);
        get_at(x, n, &got);
        assert_int_equal(value_of(&got), base + 9);
        assert_int_equal(run_at(env, x, g, 0), base + 9);
    }
    OK(cgn_exec_destroy(e));
    OK(cgn_graph_destroy(g));
}

/* Before 13.0 the setter needs the node's context current (spec: context_free_from): the
 * loop's updates at both levels, whole-list and by index, make it current around the call
 * and put the caller's state back. */
static void test_loop_before_13_makes_the_context_current(void **state) {
    cgn_test_env *env = *state;
    cgn_node *n;
    cgn_graph *g = fill_graph(env, 0, 1, &n);
    cgn_exec *e;
    OK(cgn_graph_instantiate(g, &e));
    int version;
    OK(cgn_driver_version(&version));
    cgn_fault_set_version(12080);
    args_update a;
    for (int level = 0; level < 2; level++) {
        cgn_exec *x = level ? e : NULL;
        for (uint32_t v = 2; v < 8; v++) {
            env->backend->set_context(env, CGN_TEST_CTX_NONE);
            cgn_fault_reset_counts();
            cgn_status st;
            if (v % 2) {
                st = update_at(x, n, set_args(env, &a, 0, v));
            } else {
                st = edit(x, n, 1, &v, sizeof v, NULL);
            }
            long pushed = cgn_fault_calls(CGN_FAULT_cuCtxPushCurrent);
            int now = env->backend->current_context(env);
            env->backend->set_context(env, CGN_TEST_CTX_OWN);
            OK(st);
            assert_int_equal(pushed, 1);
            assert_int_equal(now, CGN_TEST_CTX_NONE);
            assert_int_equal(run_at(env, x, g, 0), v);
        }
    }
    cgn_fault_set_version(version);
    OK(cgn_exec_destroy(e));
    OK(cgn_graph_destroy(g));
}

/* Each loop update, whole-list or by index, is one setter call (not the loop's path and then
 * the general one), and a failed one names that setter. */
static void test_loop_update_is_one_setter_call(void **state) {
    cgn_test_env *env = *state;
    cgn_node *n;
    cgn_graph *g = fill_graph(env, 0, 1, &n);
    cgn_exec *e;
    OK(cgn_graph_instantiate(g, &e));
    args_update a;
    for (int level = 0; level < 2; level++) {
        cgn_exec *x = level ? e : NULL;
        for (uint32_t v = 2; v < 10; v++) {
            cgn_kernel_update u = CGN_KERNEL_UPDATE_INIT;
            if (v % 2)
                set_args(env, &a, 0, v);
            else
                cgn_kernel_update_set_arg(&u, 1, &v, sizeof v, NULL);
            cgn_fault_reset_counts();
            OK(update_at(x, n, v % 2 ? &a.u : &u));
            assert_int_equal(cgn_fault_setter_calls(), 1);
            assert_int_equal(run_at(env, x, g, 0), v);
        }
        for (int by_index = 0; by_index < 2; by_index++) {
            uint32_t lost = 60;
            cgn_kernel_update u = CGN_KERNEL_UPDATE_INIT;
            cgn_kernel_update_set_arg(&u, 1, &lost, sizeof lost, NULL);
            cgn_fault_arm(1, CUDA_ERROR_INVALID_VALUE);
            assert_int_equal(update_at(x, n, by_index ? &u : set_args(env, &a, 0, lost)),
                             CGN_ERROR_DRIVER);
            cgn_fault_disarm();
            const char *msg = cgn_last_error();
            assert_non_null(strstr(msg, x ? "cuGraphExecKernelNodeSetParams"
                                          : "cuGraphKernelNodeSetParams"));
            /* An executable says which fields it refused. */
            if (x)
                assert_non_null(strstr(msg, by_index ? "(fields set: arg); nothing changed"
                                                     : "(fields set: args); nothing changed"));
            assert_int_equal(run_at(env, x, g, 0), 9);
        }
    }
    OK(cgn_exec_destroy(e));
    OK(cgn_graph_destroy(g));
}

/* Owned arguments, at either level, take the general path: every owner of a whole list is
 * retained, a version with an owner leaves the loop's path to the general one, and a
 * whole-list update or an edit that drops the owned argument releases the owner while an edit
 * of another argument keeps it. */
static void test_owned_version_then_loop_at_both_levels(void **state) {
    cgn_test_env *env = *state;
    cgn_node *n;
    cgn_graph *g = fill_graph(env, 0, 1, &n);
    cgn_exec *e;
    OK(cgn_graph_instantiate(g, &e));
    args_update a;
    long refs = atomic_load(&env->owner[1]->refs), refs2 = atomic_load(&env->owner[2]->refs);
    for (int level = 0; level < 2; level++) {
        cgn_exec *x = level ? e : NULL;
        for (uint32_t v = 2; v < 5; v++)
            OK(update_at(x, n, set_args(env, &a, 0, v)));
        set_args(env, &a, 1, 6); /* every argument owned */
        a.args[0].owner = env->owner[1];
        a.args[1].owner = env->owner[2];
        OK(update_at(x, n, &a.u));
        assert_int_equal(atomic_load(&env->owner[1]->refs), refs + 1);
        assert_int_equal(atomic_load(&env->owner[2]->refs), refs2 + 1);
        OK(update_at(x, n, set_args(env, &a, 1, 7))); /* unowned: the owners go */
        assert_true(cgn_test_settle(env));
        assert_int_equal(atomic_load(&env->owner[1]->refs), refs);
        assert_int_equal(atomic_load(&env->owner[2]->refs), refs2);
        assert_int_equal(run_at(env, x, g, 1), 7);
        set_args(env, &a, 1, 8);
        a.args[0].owner = env->owner[1];
        OK(update_at(x, n, &a.u));
        uint32_t value = 9;
        OK(edit(x, n, 1, &value, sizeof value, NULL)); /* the owned pointer stays */
        cgn_collect();
        assert_int_equal(atomic_load(&env->owner[1]->refs), refs + 1);
        OK(edit(x, n, 0, &env->buf[0], sizeof env->buf[0], NULL)); /* and goes */
        assert_true(cgn_test_settle(env));
        assert_int_equal(atomic_load(&env->owner[1]->refs), refs);
        assert_int_equal(run_at(env, x, g, 0), 9);
        /* Two edits in one update, only the second owned: retained all the same. */
        cgn_kernel_update u = CGN_KERNEL_UPDATE_INIT;
        value = 10;
        cgn_kernel_update_set_arg(&u, 1, &value, sizeof value, NULL);
        cgn_kernel_update_set_arg(&u, 0, &env->buf[1], sizeof env->buf[1], env->owner[1]);
        OK(update_at(x, n, &u));
        assert_int_equal(atomic_load(&env->owner[1]->refs), refs + 1);
        assert_int_equal(run_at(env, x, g, 1), 10);
        OK(edit(x, n, 0, &env->buf[0], sizeof env->buf[0], NULL));
        assert_true(cgn_test_settle(env));
        assert_int_equal(atomic_load(&env->owner[1]->refs), refs);
    }
    OK(cgn_exec_destroy(e));
    OK(cgn_graph_destroy(g));
}

/* add_one(p) as a CUfunction: every update of its node, at either level, whole-list or by
 * index, makes the node's context current around the setter (the loop's path never runs
 * then) and puts the caller's state back. */
static void test_function_node_loop_makes_its_context_current(void **state) {
    cgn_test_env *env = *state;
    cgn_graph *g;
    cgn_node *n;
    OK(cgn_graph_create(&g));
    cgn_arg one[1] = {cgn_test_arg_buf(env, 0, 0)};
    cgn_kernel_desc d = CGN_KERNEL_DESC_INIT;
    d.kernel = cgn_test_kernel(env, "add_one");
    d.grid = d.block = CGN_DIM3(1, 1, 1);
    d.args = one;
    d.num_args = 1;
    OK(cgn_graph_add_kernel(g, NULL, 0, &d, &n));
    cgn_exec *e;
    OK(cgn_graph_instantiate(g, &e));
    CUdeviceptr target = 0;
    cgn_arg moved[1] = {CGN_ARG(target)};
    for (int level = 0; level < 2; level++) {
        cgn_exec *x = level ? e : NULL;
        for (int i = 0; i < 6; i++) {
            target = env->buf[i & 1];
            cgn_kernel_update u = CGN_KERNEL_UPDATE_INIT;
            if (i < 3)
                cgn_kernel_update_set_args(&u, moved, 1);
            else
                cgn_kernel_update_set_arg(&u, 0, &target, sizeof target, NULL);
            env->backend->set_context(env, CGN_TEST_CTX_NONE);
            cgn_fault_reset_counts();
            cgn_status st = update_at(x, n, &u);
            long pushed = cgn_fault_calls(CGN_FAULT_cuCtxPushCurrent);
            int now = env->backend->current_context(env);
            env->backend->set_context(env, CGN_TEST_CTX_OWN);
            OK(st);
            assert_int_equal(pushed, 1);
            assert_int_equal(now, CGN_TEST_CTX_NONE);
            assert_int_equal(run_at(env, x, g, i & 1), 1);
        }
    }
    OK(cgn_exec_destroy(e));
    OK(cgn_graph_destroy(g));
}

/* The same CUfunction node with its own context current (the usual case): the loop's lean paths
 * take its updates, whole-list, by index and a new grid, at both levels, with one context query
 * each, no push, and the arguments written in place; with another context current they are left
 * to the transaction's path, which pushes the node's context without asking the driver again. */
static void test_function_node_loop_in_its_context(void **state) {
    cgn_test_env *env = *state;
    cgn_graph *g;
    cgn_node *n;
    OK(cgn_graph_create(&g));
    cgn_arg one[1] = {cgn_test_arg_buf(env, 0, 0)};
    cgn_kernel_desc d = CGN_KERNEL_DESC_INIT;
    d.kernel = cgn_test_kernel(env, "add_one");
    assert_non_null(d.kernel.function);
    d.grid = d.block = CGN_DIM3(1, 1, 1);
    d.args = one;
    d.num_args = 1;
    OK(cgn_graph_add_kernel(g, NULL, 0, &d, &n));
    cgn_exec *e;
    OK(cgn_graph_instantiate(g, &e));
    CUdeviceptr target = 0;
    cgn_arg moved[1] = {CGN_ARG(target)};
    for (int level = 0; level < 2; level++) {
        cgn_exec *x = level ? e : NULL;
        const void *copy = NULL;
        for (int i = 0; i < 12; i++) {
            target = env->buf[i & 1];
            cgn_kernel_update u = CGN_KERNEL_UPDATE_INIT;
            if (i % 3 == 0)
                cgn_kernel_update_set_args(&u, moved, 1);
            else if (i % 3 == 1)
                cgn_kernel_update_set_arg(&u, 0, &target, sizeof target, NULL);
            else
                cgn_kernel_update_set_grid(&u, CGN_DIM3(2 - (unsigned)(i & 1), 1, 1));
            int foreign = i >= 9;
            if (foreign)
                env->backend->set_context(env, CGN_TEST_CTX_FOREIGN);
            cgn_fault_reset_counts();
            cgn_status st = update_at(x, n, &u);
            long asked = cgn_fault_calls(CGN_FAULT_cuCtxGetCurrent);
            long pushed = cgn_fault_calls(CGN_FAULT_cuCtxPushCurrent);
            long setters = cgn_fault_setter_calls();
            int now = env->backend->current_context(env);
            env->backend->set_context(env, CGN_TEST_CTX_OWN);
            OK(st);
            assert_int_equal(asked, foreign ? 2 : 1); /* foreign: and the check after the pop */
            assert_int_equal(pushed, foreign);
            assert_int_equal(setters, 1);
            assert_int_equal(now, foreign ? CGN_TEST_CTX_FOREIGN : CGN_TEST_CTX_OWN);
            cgn_kernel_desc got;
            get_at(x, n, &got);
            if (i == 3) /* the steady state: the node's own block, written in place */
                copy = got.args[0].value;
            if (i > 3 && !foreign)
                assert_ptr_equal(got.args[0].value, copy);
            if (i % 3 == 2)
                assert_int_equal(got.grid.x, 2 - (unsigned)(i & 1));
            else
                assert_int_equal(pointer_of(&got), env->buf[i & 1]);
        }
        /* The last argument was buffer 0, the last grid 1. */
        assert_int_equal(run_at(env, x, g, 0), 1);
        assert_int_equal(run_at(env, x, g, 1), 0);
    }
    OK(cgn_exec_destroy(e));
    OK(cgn_graph_destroy(g));
}

/* An update loop allocates nothing (docs/design.md): once the block of cgn's copies of the
 * arguments is the node's alone (the executable shared the definition's first one), small
 * unowned arguments are written into it in place, at either level, whole-list or by index, so
 * the copies stay where they are however long the loop runs. */
static void test_loop_writes_in_place(void **state) {
    cgn_test_env *env = *state;
    cgn_node *n;
    cgn_graph *g = fill_graph(env, 0, 1, &n);
    cgn_exec *e;
    OK(cgn_graph_instantiate(g, &e));
    args_update a;
    cgn_kernel_desc got;
    for (int level = 0; level < 2; level++) {
        cgn_exec *x = level ? e : NULL;
        for (int by_index = 0; by_index < 2; by_index++) {
            const cgn_arg *seen = NULL;
            for (uint32_t v = 2; v < 16; v++) {
                if (by_index)
                    OK(edit(x, n, 1, &v, sizeof v, NULL));
                else
                    OK(update_at(x, n, set_args(env, &a, 0, v)));
                get_at(x, n, &got);
                assert_int_equal(value_of(&got), v);
                if (v < 4)
                    continue; /* the block the executable shared with the definition goes */
                if (seen == NULL)
                    seen = got.args;
                assert_ptr_equal(got.args, seen);
            }
        }
    }
    assert_int_equal(run_at(env, e, g, 0), 15);
    assert_int_equal(cgn_test_run_graph_read(env, g, 0), 15);
    OK(cgn_exec_destroy(e));
    OK(cgn_graph_destroy(g));
}

/* A write in place leaves the block no longer "its base plus its edits": an owned edit after it
 * (the general path, which copies only a base's edited arguments into the spare when the spare is
 * that base) must copy the whole block, else it would bring back an argument the in-place write
 * replaced. For an in-place edit by index and for a whole list, at both levels. */
static void test_owned_edit_after_in_place_writes(void **state) {
    cgn_test_env *env = *state;
    cgn_node *n;
    cgn_graph *g = fill_graph(env, 0, 1, &n);
    cgn_exec *e;
    OK(cgn_graph_instantiate(g, &e));
    cgn_kernel_desc got;
    args_update a;
    for (int level = 0; level < 2; level++) {
        cgn_exec *x = level ? e : NULL;
        for (int whole = 0; whole < 2; whole++) {
            uint32_t v1 = 10, v2 = 20, v3 = 30;
            OK(edit(x, n, 0, &env->buf[0], sizeof env->buf[0], NULL));
            /* An owned edit, then an unowned one: the current block is the spare plus edits. */
            OK(edit(x, n, 1, &v1, sizeof v1, env->owner[0]));
            OK(edit(x, n, 1, &v2, sizeof v2, NULL));
            /* In place: the pointer changes. */
            if (whole)
                OK(update_at(x, n, set_args(env, &a, 1, 25)));
            else
                OK(edit(x, n, 0, &env->buf[1], sizeof env->buf[1], NULL));
            get_at(x, n, &got);
            assert_int_equal(pointer_of(&got), env->buf[1]);
            /* The owned edit keeps the pointer written in place. */
            OK(edit(x, n, 1, &v3, sizeof v3, env->owner[0]));
            get_at(x, n, &got);
            assert_int_equal(pointer_of(&got), env->buf[1]);
            assert_int_equal(value_of(&got), 30);
            assert_int_equal(run_at(env, x, g, 1), 30);
            OK(edit(x, n, 1, &v3, sizeof v3, NULL)); /* the owner goes */
        }
    }
    OK(cgn_exec_destroy(e));
    OK(cgn_graph_destroy(g));
}

/* Values that point into cgn's own copies (from _get) are read as they were when the update
 * was called, though the update replaces those copies: an edit reading an argument an earlier
 * edit of the same update wrote, and a whole list whose value reads another argument's bytes. */
static void test_values_from_the_nodes_own_copies(void **state) {
    cgn_test_env *env = *state;
    cgn_node *n;
    cgn_graph *g = fill_graph(env, 0, 7, &n);
    cgn_exec *e;
    OK(cgn_graph_instantiate(g, &e));
    cgn_kernel_desc got;
    for (int level = 0; level < 2; level++) {
        cgn_exec *x = level ? e : NULL;
        uint32_t v = 8;
        for (int i = 0; i < 3; i++) /* the block is the node's alone: the loop's steady state */
            OK(edit(x, n, 1, &v, sizeof v, NULL));
        get_at(x, n, &got);
        uint32_t five = 5;
        cgn_kernel_update u = CGN_KERNEL_UPDATE_INIT;
        cgn_kernel_update_set_arg(&u, 1, &five, sizeof five, NULL);
        cgn_kernel_update_set_arg(&u, 1, got.args[1].value, sizeof five, NULL);
        OK(update_at(x, n, &u));
        get_at(x, n, &got);
        assert_int_equal(value_of(&got), 8); /* the copy's value when the update was called */
        /* A new pointer, and a value read from the old pointer's first bytes. */
        CUdeviceptr old = pointer_of(&got);
        uint32_t low;
        memcpy(&low, got.args[0].value, sizeof low);
        cgn_arg both[2] = {CGN_ARG(env->buf[1]), {got.args[0].value, sizeof low, NULL}};
        cgn_kernel_update w = CGN_KERNEL_UPDATE_INIT;
        cgn_kernel_update_set_args(&w, both, 2);
        OK(update_at(x, n, &w));
        get_at(x, n, &got);
        assert_int_equal(pointer_of(&got), env->buf[1]);
        assert_int_equal(value_of(&got), low);
        assert_int_not_equal(old, env->buf[1]);
        OK(edit(x, n, 0, &env->buf[0], sizeof env->buf[0], NULL));
    }
    OK(cgn_exec_destroy(e));
    OK(cgn_graph_destroy(g));
}

/* A kernel change to one with a larger argument block leaves the old, smaller block as the
 * spare; the next edit cannot use it and writes a fresh block, and the small spare must then be
 * freed, not dropped (the leak checks of the ASan and valgrind builds see it), at both levels. */
static void test_edit_after_a_larger_kernel_frees_the_spare(void **state) {
    cgn_test_env *env = *state;
    cgn_graph *g;
    OK(cgn_graph_create(&g));
    cgn_arg one[1] = {cgn_test_arg_buf(env, 0, 0)};
    cgn_kernel_desc d = CGN_KERNEL_DESC_INIT;
    d.kernel = cgn_test_kernel(env, "write_config");
    d.grid = d.block = CGN_DIM3(1, 1, 1);
    d.args = one;
    d.num_args = 1;
    cgn_node *n;
    OK(cgn_graph_add_kernel(g, NULL, 0, &d, &n));
    cgn_exec *e;
    OK(cgn_graph_instantiate(g, &e));
    for (int level = 0; level < 2; level++) {
        cgn_exec *x = level ? e : NULL;
        for (int i = 0; i < 2; i++) { /* a block of write_config's layout as the spare */
            cgn_kernel_update u = CGN_KERNEL_UPDATE_INIT;
            cgn_kernel_update_set_args(&u, one, 1);
            OK(update_at(x, n, &u));
        }
        args_update a;
        set_args(env, &a, 0, 5);
        cgn_kernel_update_set_kernel(&a.u, cgn_test_kernel(env, "fill_u32"), NULL, a.args, 2);
        OK(update_at(x, n, &a.u));
        for (uint32_t v = 6; v < 9; v++) {
            OK(edit(x, n, 1, &v, sizeof v, NULL));
            cgn_kernel_desc got;
            get_at(x, n, &got);
            assert_int_equal(value_of(&got), v);
        }
        assert_int_equal(run_at(env, x, g, 0), 8);
    }
    OK(cgn_exec_destroy(e));
    OK(cgn_graph_destroy(g));
}

/* The gates between the loop's two paths, at both levels: argument-level edits need 12.4
 * (exactly 12.4 is enough), and kernel_owner without kernel is refused as such. */
static void test_gates_between_the_loop_paths(void **state) {
    cgn_test_env *env = *state;
    cgn_node *n;
    cgn_graph *g = fill_graph(env, 0, 1, &n);
    cgn_exec *e;
    OK(cgn_graph_instantiate(g, &e));
    int version;
    OK(cgn_driver_version(&version));
    for (int level = 0; level < 2; level++) {
        cgn_exec *x = level ? e : NULL;
        uint32_t value = 5 + (uint32_t)level;
        cgn_fault_set_version(12030);
        cgn_fault_reset_counts();
        assert_int_equal(edit(x, n, 1, &value, sizeof value, NULL), CGN_ERROR_DRIVER_TOO_OLD);
        assert_non_null(strstr(cgn_last_error(), "kernel updates that set arg need CUDA driver "
                                                 "12.4 or newer; this driver is 12.3"));
        assert_int_equal(cgn_fault_setter_calls(), 0);
        cgn_fault_set_version(12040);
        OK(edit(x, n, 1, &value, sizeof value, NULL));
        cgn_fault_set_version(version);
        assert_int_equal(run_at(env, x, g, 0), value);
        cgn_kernel_update u = CGN_KERNEL_UPDATE_INIT;
        u.set = CGN_KERNEL_SET_KERNEL_OWNER;
        assert_int_equal(update_at(x, n, &u), CGN_ERROR_MISSING_FIELD);
        assert_non_null(strstr(cgn_last_error(), "kernel_owner requires kernel"));
    }
    OK(cgn_exec_destroy(e));
    OK(cgn_graph_destroy(g));
}

/* Argument lists the kernel cannot take, each right after the loop's steady state (a spare of
 * the layout): refused before any driver call, at either level, whatever is wrong with every
 * argument or with one of them, and nothing changes. */
static void test_loop_refuses_bad_argument_lists(void **state) {
    cgn_test_env *env = *state;
    cgn_node *n;
    cgn_graph *g = fill_graph(env, 0, 1, &n);
    cgn_exec *e;
    OK(cgn_graph_instantiate(g, &e));
    args_update a;
    cgn_kernel_desc got;
    uint64_t wide[2] = {0, 0};
    uint32_t narrow = 0;
    uint16_t tiny = 0;
    const struct {
        int bad_value;            /* arguments with a NULL value, from the first */
        size_t size0, size1;      /* the sizes given: the kernel takes 8 and 4 */
        cgn_status status;
    } cases[] = {
        {0, sizeof wide, sizeof wide[0], CGN_ERROR_INVALID_VALUE}, /* both too large */
        {0, sizeof narrow, sizeof tiny, CGN_ERROR_INVALID_VALUE},  /* both too small */
        {0, 8, sizeof wide[0], CGN_ERROR_INVALID_VALUE},           /* the second too large */
        {0, 0, 0, CGN_ERROR_INVALID_ARGUMENT},                      /* no bytes at all */
        {2, 8, 4, CGN_ERROR_INVALID_ARGUMENT},                      /* no values at all */
        {1, 8, 4, CGN_ERROR_INVALID_ARGUMENT},                      /* the first has none */
    };
    for (int level = 0; level < 2; level++) {
        cgn_exec *x = level ? e : NULL;
        for (size_t c = 0; c < sizeof cases / sizeof cases[0]; c++) {
            uint32_t v = 10 * (uint32_t)c + (uint32_t)level;
            for (uint32_t i = 0; i < 3; i++)
                OK(update_at(x, n, set_args(env, &a, 0, v + i)));
            set_args(env, &a, 0, 99);
            a.args[0].value = cases[c].bad_value >= 1 ? NULL : (const void *)wide;
            a.args[0].size = cases[c].size0;
            a.args[1].value = cases[c].bad_value >= 2 ? NULL : (const void *)wide;
            a.args[1].size = cases[c].size1;
            cgn_fault_reset_counts();
            assert_int_equal(update_at(x, n, &a.u), cases[c].status);
            assert_int_equal(cgn_fault_setter_calls(), 0);
            get_at(x, n, &got);
            assert_int_equal(value_of(&got), v + 2);
            assert_int_equal(run_at(env, x, g, 0), v + 2);
        }
    }
    OK(cgn_exec_destroy(e));
    OK(cgn_graph_destroy(g));
}

/* An update whose `set` was written by hand, leaving a setter's field outside it: what is not
 * in `set` is never read. A whole list with a wrong size is refused although an edit left in
 * the update would apply; a valid list applies as given, not the edit; and an edit alone
 * ignores a list left in the update. */
static void test_fields_outside_set_are_never_read(void **state) {
    cgn_test_env *env = *state;
    cgn_node *n;
    cgn_graph *g = fill_graph(env, 0, 1, &n);
    cgn_exec *e;
    OK(cgn_graph_instantiate(g, &e));
    args_update a;
    cgn_kernel_desc got;
    uint16_t tiny = 5;
    for (int level = 0; level < 2; level++) {
        cgn_exec *x = level ? e : NULL;
        uint32_t v = 30 + 10 * (uint32_t)level;
        for (uint32_t i = 0; i < 3; i++) /* the steady state: in place */
            OK(update_at(x, n, set_args(env, &a, 0, v + i)));
        uint32_t left = 77; /* an edit left in the update, outside its set */
        set_args(env, &a, 0, 99);
        a.args[1].value = &tiny;
        a.args[1].size = sizeof tiny;
        cgn_kernel_update_set_arg(&a.u, 1, &left, sizeof left, NULL);
        a.u.set = CGN_KERNEL_SET_ARGS;
        cgn_fault_reset_counts();
        assert_int_equal(update_at(x, n, &a.u), CGN_ERROR_INVALID_VALUE);
        assert_int_equal(cgn_fault_setter_calls(), 0);
        get_at(x, n, &got);
        assert_int_equal(value_of(&got), v + 2);
        assert_int_equal(run_at(env, x, g, 0), v + 2);

        set_args(env, &a, 0, v + 5);
        cgn_kernel_update_set_arg(&a.u, 1, &left, sizeof left, NULL);
        a.u.set = CGN_KERNEL_SET_ARGS;
        OK(update_at(x, n, &a.u));
        get_at(x, n, &got);
        assert_int_equal(value_of(&got), v + 5);
        assert_int_equal(run_at(env, x, g, 0), v + 5);

        uint32_t edit = v + 6; /* and a list left in an update of one edit */
        set_args(env, &a, 0, 98);
        cgn_kernel_update_set_arg(&a.u, 1, &edit, sizeof edit, NULL);
        a.u.set = CGN_KERNEL_SET_ARG;
        OK(update_at(x, n, &a.u));
        get_at(x, n, &got);
        assert_int_equal(value_of(&got), v + 6);
        assert_int_equal(run_at(env, x, g, 0), v + 6);
    }
    OK(cgn_exec_destroy(e));
    OK(cgn_graph_destroy(g));
}

/* The loop's lean paths take nothing the transaction's start would refuse: a driver table
 * without the generic setters (which cgn's update gate asks for, 13.0 or not) refuses the loop's
 * updates at both levels, whole-list and by index, in the steady state where the lean paths
 * would write in place, and changes nothing. */
static void test_lean_paths_keep_the_gate(void **state) {
    cgn_test_env *env = *state;
    cgn_node *n;
    cgn_graph *g = fill_graph(env, 0, 1, &n);
    cgn_exec *e;
    OK(cgn_graph_instantiate(g, &e));
    args_update a;
    for (int level = 0; level < 2; level++)
        for (uint32_t v = 2; v < 5; v++)
            OK(update_at(level ? e : NULL, n, set_args(env, &a, 0, v + 10 * (uint32_t)level)));
    static cgn_driver_table gated;
    gated = *env->backend->driver(env);
    gated.cuGraphNodeSetParams = NULL;
    gated.cuGraphExecNodeSetParams = NULL;
    if (gated.version < 13000)
        gated.version = 13000;
    cgn_driver_install(&gated);
    for (int level = 0; level < 2; level++) {
        cgn_exec *x = level ? e : NULL;
        uint32_t v = 99;
        assert_int_equal(update_at(x, n, set_args(env, &a, 0, v)), CGN_ERROR_DRIVER_TOO_OLD);
        assert_int_equal(edit(x, n, 1, &v, sizeof v, NULL), CGN_ERROR_DRIVER_TOO_OLD);
    }
    cgn_fault_install(env->backend->driver(env));
    cgn_kernel_desc got;
    for (int level = 0; level < 2; level++) {
        cgn_exec *x = level ? e : NULL;
        get_at(x, n, &got);
        assert_int_equal(value_of(&got), 4 + 10 * (uint32_t)level);
        assert_int_equal(run_at(env, x, g, 0), 4 + 10 * level);
    }
    OK(cgn_exec_destroy(e));
    OK(cgn_graph_destroy(g));
}

/* The one-call form's own refusals: each names the function, has the status the update form
 * gives, and changes nothing; no driver setter is called. */
static void test_direct_form_refusals(void **state) {
    cgn_test_env *env = *state;
    cgn_node *n;
    cgn_graph *g = fill_graph(env, 0, 5, &n);
    cgn_exec *e;
    OK(cgn_graph_instantiate(g, &e));
    cgn_graph *other;
    OK(cgn_graph_create(&other));
    cgn_memset_desc md = CGN_MEMSET_DESC_INIT;
    md.dst = env->buf[2];
    md.element_size = 1;
    md.width = 4;
    md.height = 1;
    cgn_node *memset_node;
    OK(cgn_graph_add_memset(other, NULL, 0, &md, &memset_node));
    cgn_node *gone;
    cgn_graph *g2 = fill_graph(env, 1, 1, &gone);
    OK(cgn_node_destroy(gone));
    uint32_t v = 9;
    uint64_t wide = 9;
    cgn_fault_reset_counts();
    for (int level = 0; level < 2; level++) {
        cgn_exec *x = level ? e : NULL;
        const char *fn = level ? "cgn_kernel_exec_set_arg" : "cgn_kernel_node_set_arg";
        const struct {
            cgn_node *node;
            uint32_t index;
            const void *value;
            size_t size;
            cgn_status want;
        } bad[] = {
            {NULL, 1, &v, sizeof v, CGN_ERROR_INVALID_ARGUMENT},
            {gone, 1, &v, sizeof v, CGN_ERROR_DESTROYED},
            /* not in the executable at all (its graph's executables were never made) */
            {memset_node, 1, &v, sizeof v,
             level ? CGN_ERROR_INVALID_ARGUMENT : CGN_ERROR_WRONG_NODE_TYPE},
            {n, 2, &v, sizeof v, CGN_ERROR_INVALID_VALUE},
            {n, UINT32_MAX, &v, sizeof v, CGN_ERROR_INVALID_VALUE},
            {n, 1, &wide, sizeof wide, CGN_ERROR_INVALID_VALUE},
            {n, 1, NULL, sizeof v, CGN_ERROR_INVALID_ARGUMENT},
            {n, 1, &v, (size_t)UINT32_MAX + 5, CGN_ERROR_INVALID_VALUE},
        };
        for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++) {
            cgn_status st = x ? cgn_kernel_exec_set_arg(x, bad[i].node, bad[i].index, bad[i].value,
                                                        bad[i].size, NULL)
                              : cgn_kernel_node_set_arg(bad[i].node, bad[i].index, bad[i].value,
                                                        bad[i].size, NULL);
            cgn_kernel_update u = CGN_KERNEL_UPDATE_INIT;
            cgn_kernel_update_set_arg(&u, bad[i].index, bad[i].value, bad[i].size, NULL);
            cgn_status via_update = update_at(x, bad[i].node, &u);
            if (st != bad[i].want || via_update != st)
                print_error("case %zu at level %d: %d, the update form %d, want %d (%s)\n", i,
                            level, (int)st, (int)via_update, (int)bad[i].want, cgn_last_error());
            assert_int_equal(st, bad[i].want);
            assert_int_equal(via_update, st);
            if (bad[i].node == n) /* the update form's message names its own function */
                assert_non_null(strstr(cgn_last_error(), level ? "cgn_kernel_exec_update"
                                                               : "cgn_kernel_node_update"));
            st = x ? cgn_kernel_exec_set_arg(x, bad[i].node, bad[i].index, bad[i].value,
                                             bad[i].size, NULL)
                   : cgn_kernel_node_set_arg(bad[i].node, bad[i].index, bad[i].value, bad[i].size,
                                             NULL);
            assert_int_equal(st, bad[i].want);
            assert_non_null(strstr(cgn_last_error(), fn));
        }
        /* An executable that does not hold the node. */
        if (x != NULL) {
            assert_int_equal(cgn_kernel_exec_set_arg(NULL, n, 1, &v, sizeof v, NULL),
                             CGN_ERROR_INVALID_ARGUMENT);
            cgn_node *stranger;
            OK(cgn_graph_add_kernel(
                other, NULL, 0,
                &(cgn_kernel_desc){
                    .kernel = cgn_test_kernel(env, "fill_u32"),
                    .grid = CGN_DIM3(1, 1, 1),
                    .block = CGN_DIM3(1, 1, 1),
                    .args = (cgn_arg[]){cgn_test_arg_buf(env, 3, 0), cgn_test_arg_u32(env, 1)},
                    .num_args = 2},
                &stranger));
            cgn_kernel_update u = CGN_KERNEL_UPDATE_INIT;
            cgn_kernel_update_set_arg(&u, 1, &v, sizeof v, NULL);
            cgn_status via_update = cgn_kernel_exec_update(x, stranger, &u);
            assert_int_not_equal(via_update, CGN_OK);
            assert_int_equal(cgn_kernel_exec_set_arg(x, stranger, 1, &v, sizeof v, NULL),
                             via_update);
            assert_non_null(strstr(cgn_last_error(), fn));
        }
    }
    assert_int_equal(cgn_fault_setter_calls(), 0);
    cgn_kernel_desc got;
    get_at(NULL, n, &got);
    assert_int_equal(value_of(&got), 5);
    get_at(e, n, &got);
    assert_int_equal(value_of(&got), 5);
    assert_int_equal(cgn_test_run_read(env, e, 0), 5);
    /* And the same calls succeed once the input is right. */
    OK(cgn_kernel_node_set_arg(n, 1, &v, sizeof v, NULL));
    uint32_t w = 10;
    OK(cgn_kernel_exec_set_arg(e, n, 1, &w, sizeof w, NULL));
    assert_int_equal(cgn_test_run_graph_read(env, g, 0), 9);
    assert_int_equal(cgn_test_run_read(env, e, 0), 10);
    OK(cgn_exec_destroy(e));
    OK(cgn_graph_destroy(g));
    OK(cgn_graph_destroy(g2));
    OK(cgn_graph_destroy(other));
}

static int direct_setup(void **state) {
    edit_direct = 1;
    return cgn_test_fixture_setup(state);
}

static int direct_teardown(void **state) {
    edit_direct = 0;
    return cgn_test_fixture_teardown(state);
}

/* The tests that edit arguments, run again through the one-call form. */
#define DIRECT_TOO(test)                                                                           \
    cmocka_unit_test_setup_teardown(test, cgn_test_fixture_setup, cgn_test_fixture_teardown),      \
        (struct CMUnitTest) {                                                                      \
        "direct: " #test, test, direct_setup, direct_teardown, NULL                                \
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
        DIRECT_TOO(test_shared_blocks_keep_their_values),
        cmocka_unit_test_setup_teardown(test_other_updates_between, cgn_test_fixture_setup,
                                        cgn_test_fixture_teardown),
        DIRECT_TOO(test_edit_loop_at_both_levels),
        DIRECT_TOO(test_edit_after_a_larger_kernel_frees_the_spare),
        cmocka_unit_test_setup_teardown(test_loop_reads_only_the_fields_set, cgn_test_fixture_setup,
                                        cgn_test_fixture_teardown),
        DIRECT_TOO(test_loop_before_13_makes_the_context_current),
        cmocka_unit_test_setup_teardown(test_loop_update_is_one_setter_call, cgn_test_fixture_setup,
                                        cgn_test_fixture_teardown),
        DIRECT_TOO(test_owned_version_then_loop_at_both_levels),
        cmocka_unit_test_setup_teardown(test_function_node_loop_in_its_context,
                                        cgn_test_fixture_setup, cgn_test_fixture_teardown),
        cmocka_unit_test_setup_teardown(test_function_node_loop_makes_its_context_current,
                                        cgn_test_fixture_setup, cgn_test_fixture_teardown),
        DIRECT_TOO(test_owned_edit_after_in_place_writes),
        DIRECT_TOO(test_values_from_the_nodes_own_copies),
        DIRECT_TOO(test_loop_writes_in_place),
        DIRECT_TOO(test_gates_between_the_loop_paths),
        cmocka_unit_test_setup_teardown(test_loop_refuses_bad_argument_lists,
                                        cgn_test_fixture_setup, cgn_test_fixture_teardown),
        DIRECT_TOO(test_lean_paths_keep_the_gate),
        cmocka_unit_test_setup_teardown(test_fields_outside_set_are_never_read,
                                        cgn_test_fixture_setup, cgn_test_fixture_teardown),
        cmocka_unit_test_setup_teardown(test_direct_form_refusals, cgn_test_fixture_setup,
                                        cgn_test_fixture_teardown),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
