/* The update loop's in-place argument writes (docs/design.md, "The loop's arguments written in
 * place"), on the fake driver with kernels of this file's own layouts: a 16-byte argument
 * refused by the driver gets both of its words back, at both levels and by either path (and a
 * 24-byte one, written the two-block way, all of its bytes); an
 * argument edit of a kernel without arguments and whole lists the kernel cannot take are
 * refused in the loop's steady state as before it, with no driver call; and kernels with
 * CGN_MAX_ARG_EDITS arguments and one more keep correct values through a loop and a refusal.
 * What each launch passed is recorded by the kernel body. */
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
#include "fake_driver.h"

/* What the last launch of a recording kernel passed: argument i's first 16 bytes. */
#define MAX_RECORDED 9
static unsigned char launched[MAX_RECORDED][16];
static size_t launched_sizes[MAX_RECORDED];
static uint32_t launched_count;

static void record_args(void **args, const CUDA_KERNEL_NODE_PARAMS_v2 *launch, void *user) {
    (void)launch;
    const size_t *sizes = user;
    memset(launched, 0, sizeof launched);
    for (uint32_t i = 0; i < launched_count; i++)
        memcpy(launched[i], args[i], sizes[i] < 16 ? sizes[i] : 16);
}

/* A CUkernel (the loop's paths need no context for one on 13.0+) taking `count` arguments of
 * `sizes` bytes, recorded at launch. */
static cgn_kernel recording_kernel(const char *name, uint32_t count, const size_t *sizes) {
    assert_true(count <= MAX_RECORDED);
    for (uint32_t i = 0; i < count; i++)
        launched_sizes[i] = sizes[i];
    launched_count = count;
    CUfunction f = cgn_fake_register_kernel(name, count, sizes, record_args, launched_sizes);
    assert_non_null(f);
    return CGN_KERNEL(cgn_fake_kernel_of(f));
}

/* A graph of one node launching k with args, and an executable of it. */
static cgn_graph *one_kernel_graph(cgn_kernel k, const cgn_arg *args, uint32_t count,
                                   cgn_node **node_out, cgn_exec **exec_out) {
    cgn_kernel_desc d = CGN_KERNEL_DESC_INIT;
    d.kernel = k;
    d.grid = d.block = CGN_DIM3(1, 1, 1);
    d.args = args;
    d.num_args = count;
    cgn_graph *g;
    OK(cgn_graph_create(&g));
    OK(cgn_graph_add_kernel(g, NULL, 0, &d, node_out));
    OK(cgn_graph_instantiate(g, exec_out));
    return g;
}

static cgn_status update_at(cgn_exec *e, cgn_node *n, const cgn_kernel_update *u) {
    return e ? cgn_kernel_exec_update(e, n, u) : cgn_kernel_node_update(n, u);
}

static void get_at(cgn_exec *e, cgn_node *n, cgn_kernel_desc *got) {
    OK(e ? cgn_kernel_exec_get(e, n, got) : cgn_kernel_node_get(n, got));
}

/* Launches the executable, or the graph through a fresh one, so record_args sees its args. */
static void launch_at(cgn_test_env *env, cgn_exec *e, cgn_graph *g) {
    if (e)
        (void)cgn_test_run_read(env, e, 0);
    else
        (void)cgn_test_run_graph_read(env, g, 0);
}

static cgn_status edit_at(cgn_exec *e, cgn_node *n, uint32_t index, const void *value,
                          size_t size) {
    cgn_kernel_update u = CGN_KERNEL_UPDATE_INIT;
    cgn_kernel_update_set_arg(&u, index, value, size, NULL);
    return update_at(e, n, &u);
}

static cgn_status whole_at(cgn_exec *e, cgn_node *n, const cgn_arg *args, uint32_t count) {
    cgn_kernel_update u = CGN_KERNEL_UPDATE_INIT;
    cgn_kernel_update_set_args(&u, args, count);
    return update_at(e, n, &u);
}

/* The driver refuses the next setter call; the update must fail through it. */
static void refuse_next_setter(void) {
    cgn_fault_reset_counts();
    cgn_fault_arm(1, CUDA_ERROR_INVALID_VALUE);
}
static void assert_setter_refused(cgn_status st) {
    cgn_fault_entry which;
    assert_true(cgn_fault_triggered(&which));
    assert_true(cgn_fault_is_setter(which));
    cgn_fault_disarm();
    assert_int_not_equal(st, CGN_OK);
}

typedef struct wide_arg {
    uint64_t word[3];
} wide_arg;

/* A 16-byte argument is saved whole: a refused write, by index or as a whole list, puts back
 * both of its words, in cgn's copy and in what the next launch passes. A 24-byte one (too large
 * to save) takes the two-block path, and a refusal leaves all of it too. */
static void test_wide_arguments_restored_after_refusal(void **state) {
    cgn_test_env *env = *state;
    for (size_t width = 16; width <= 24; width += 8) {
        const size_t sizes[2] = {width, sizeof(CUdeviceptr)};
        cgn_kernel k = recording_kernel(width == 16 ? "wide16" : "wide24", 2, sizes);
        wide_arg value = {{0x1111111111111111u, 0x2222222222222222u, 0x2323232323232323u}};
        cgn_arg args[2] = {{&value, width, NULL}, CGN_ARG(env->buf[0])};
        cgn_node *n;
        cgn_exec *e;
        cgn_graph *g = one_kernel_graph(k, args, 2, &n, &e);
        cgn_kernel_desc got;
        for (int level = 0; level < 2; level++) {
            cgn_exec *x = level ? e : NULL;
            wide_arg kept = {{0x3333333333333333u + (uint64_t)level, 0x4444444444444444u,
                              0x4545454545454545u}};
            for (int i = 0; i < 3; i++) /* the loop's steady state: the block is the node's */
                OK(edit_at(x, n, 0, &kept, width));
            for (int whole = 0; whole < 2; whole++) {
                wide_arg lost = {{0x5555555555555555u, 0x6666666666666666u, 0x6767676767676767u}};
                cgn_arg lost_args[2] = {{&lost, width, NULL}, CGN_ARG(env->buf[1])};
                refuse_next_setter();
                assert_setter_refused(whole ? whole_at(x, n, lost_args, 2)
                                            : edit_at(x, n, 0, &lost, width));
                get_at(x, n, &got);
                assert_int_equal(got.args[0].size, width);
                assert_memory_equal(got.args[0].value, &kept, width);
                launch_at(env, x, g);
                assert_memory_equal(launched[0], &kept, 16);
                CUdeviceptr out;
                memcpy(&out, launched[1], sizeof out);
                assert_int_equal(out, env->buf[0]);
            }
            /* And the loop goes on. */
            wide_arg next = {{0x7777777777777777u, 0x8888888888888888u, 0x8989898989898989u}};
            OK(edit_at(x, n, 0, &next, width));
            get_at(x, n, &got);
            assert_memory_equal(got.args[0].value, &next, width);
            launch_at(env, x, g);
            assert_memory_equal(launched[0], &next, 16);
        }
        OK(cgn_exec_destroy(e));
        OK(cgn_graph_destroy(g));
    }
}

/* An argument edit of a kernel that takes none is refused (CGN_ERROR_INVALID_VALUE, "takes 0
 * arguments") before any driver call, at both levels, though the node takes the loop's path. */
static void test_edit_of_a_kernel_without_arguments(void **state) {
    cgn_test_env *env = *state;
    (void)env;
    cgn_kernel k = recording_kernel("no_args", 0, NULL);
    cgn_node *n;
    cgn_exec *e;
    cgn_graph *g = one_kernel_graph(k, NULL, 0, &n, &e);
    for (int level = 0; level < 2; level++) {
        cgn_exec *x = level ? e : NULL;
        OK(whole_at(x, n, NULL, 0)); /* an empty list is the kernel's own */
        uint32_t v = 3;
        cgn_fault_reset_counts();
        assert_int_equal(edit_at(x, n, 0, &v, sizeof v), CGN_ERROR_INVALID_VALUE);
        assert_non_null(strstr(cgn_last_error(), "takes 0 arguments"));
        assert_int_equal(cgn_fault_setter_calls(), 0);
    }
    OK(cgn_exec_destroy(e));
    OK(cgn_graph_destroy(g));
}

/* In the loop's steady state, whole lists the kernel cannot take are refused as before it, with
 * no driver call and nothing changed: no list behind a count, one argument short, one too many. */
static void test_whole_list_refusals_in_the_steady_state(void **state) {
    cgn_test_env *env = *state;
    static const size_t sizes[2] = {sizeof(CUdeviceptr), sizeof(uint32_t)};
    cgn_kernel k = recording_kernel("ptr_u32", 2, sizes);
    uint32_t v = 1;
    cgn_arg args[2] = {CGN_ARG(env->buf[0]), CGN_ARG(v)};
    cgn_node *n;
    cgn_exec *e;
    cgn_graph *g = one_kernel_graph(k, args, 2, &n, &e);
    cgn_kernel_desc got;
    for (int level = 0; level < 2; level++) {
        cgn_exec *x = level ? e : NULL;
        uint32_t values[3] = {5, 6, 7};
        for (int i = 0; i < 3; i++) {
            cgn_arg now[2] = {CGN_ARG(env->buf[1]), CGN_ARG(values[i])};
            OK(whole_at(x, n, now, 2));
        }
        uint32_t extra = 9;
        cgn_arg three[3] = {CGN_ARG(env->buf[0]), CGN_ARG(extra), CGN_ARG(extra)};
        cgn_fault_reset_counts();
        assert_int_not_equal(whole_at(x, n, NULL, 2), CGN_OK);
        assert_int_equal(whole_at(x, n, three, 1), CGN_ERROR_INVALID_VALUE);
        assert_non_null(strstr(cgn_last_error(), "argument"));
        assert_int_equal(whole_at(x, n, three, 3), CGN_ERROR_INVALID_VALUE);
        assert_non_null(strstr(cgn_last_error(), "argument"));
        assert_int_equal(cgn_fault_setter_calls(), 0);
        get_at(x, n, &got);
        assert_int_equal(got.num_args, 2);
        uint32_t held;
        memcpy(&held, got.args[1].value, sizeof held);
        assert_int_equal(held, 7);
        launch_at(env, x, g);
        memcpy(&held, launched[1], sizeof held);
        assert_int_equal(held, 7);
    }
    OK(cgn_exec_destroy(e));
    OK(cgn_graph_destroy(g));
}

/* Kernels of CGN_MAX_ARG_EDITS arguments (the most the in-place write saves) and one more (the
 * two-block path): a whole-list loop and a refused update keep every argument right. */
static void test_lists_at_and_past_the_in_place_bound(void **state) {
    cgn_test_env *env = *state;
    (void)env;
    for (uint32_t count = CGN_MAX_ARG_EDITS; count <= CGN_MAX_ARG_EDITS + 1; count++) {
        size_t sizes[MAX_RECORDED];
        for (uint32_t i = 0; i < count; i++)
            sizes[i] = sizeof(uint32_t);
        char name[32];
        snprintf(name, sizeof name, "u32_x%u", count);
        cgn_kernel k = recording_kernel(name, count, sizes);
        uint32_t values[MAX_RECORDED];
        cgn_arg args[MAX_RECORDED];
        for (uint32_t i = 0; i < count; i++) {
            values[i] = i;
            args[i] = CGN_ARG(values[i]);
        }
        cgn_node *n;
        cgn_exec *e;
        cgn_graph *g = one_kernel_graph(k, args, count, &n, &e);
        for (int level = 0; level < 2; level++) {
            cgn_exec *x = level ? e : NULL;
            for (uint32_t round = 1; round <= 4; round++) {
                for (uint32_t i = 0; i < count; i++)
                    values[i] = 100 * round + i;
                if (round == 4) { /* refused: round 3's values stay */
                    refuse_next_setter();
                    assert_setter_refused(whole_at(x, n, args, count));
                } else {
                    OK(whole_at(x, n, args, count));
                }
                launch_at(env, x, g);
                uint32_t want_round = round == 4 ? 3 : round;
                for (uint32_t i = 0; i < count; i++) {
                    uint32_t got_value;
                    memcpy(&got_value, launched[i], sizeof got_value);
                    assert_int_equal(got_value, 100 * want_round + i);
                }
            }
        }
        OK(cgn_exec_destroy(e));
        OK(cgn_graph_destroy(g));
    }
}

int main(void) {
    const struct CMUnitTest tests[] = {
        cmocka_unit_test_setup_teardown(test_wide_arguments_restored_after_refusal,
                                        cgn_test_fixture_setup, cgn_test_fixture_teardown),
        cmocka_unit_test_setup_teardown(test_edit_of_a_kernel_without_arguments,
                                        cgn_test_fixture_setup, cgn_test_fixture_teardown),
        cmocka_unit_test_setup_teardown(test_whole_list_refusals_in_the_steady_state,
                                        cgn_test_fixture_setup, cgn_test_fixture_teardown),
        cmocka_unit_test_setup_teardown(test_lists_at_and_past_the_in_place_bound,
                                        cgn_test_fixture_setup, cgn_test_fixture_teardown),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
