/* Conditional nodes (on the fake driver, label unit, and on a GPU, label gpu): an IF runs its
 * body when the condition is non-zero and its else body (size 2) or nothing otherwise, a WHILE
 * runs its body until a kernel in it clears the condition, a SWITCH runs the body the value
 * names (none past the last), a kernel before the node can set the value, nodes of every body
 * are updated at definition level (new instantiations and cgn_exec_update_from_graph take
 * them) and in one executable, refused descs and old drivers change nothing, and CUDA's
 * restrictions (no conditional node in a child graph) are refused up front. CUDA allows one
 * executable of such a graph at a time ("only one instantiation of the graph may exist"), so
 * every test destroys its executable before instantiating again. */
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

/* A conditional node of `type` (0 IF, 1 WHILE) whose launches start with `value`. */
static cgn_node *add_cond(cgn_graph *g, cgn_node *const *deps, size_t num_deps, uint32_t type,
                          uint32_t value, cgn_graph **body) {
    cgn_conditional_desc d = CGN_CONDITIONAL_DESC_INIT;
    d.type = type;
    d.handle_default = value;
    d.handle_assign = 1;
    cgn_node *node;
    OK(cgn_graph_add_conditional(g, deps, num_deps, &d, &node));
    OK(cgn_conditional_node_body(node, 0, body));
    return node;
}

/* A conditional node of `type` with `size` bodies (out: each body) whose launches start with
 * `value`. */
static cgn_node *add_cond_n(cgn_graph *g, cgn_node *const *deps, size_t num_deps, uint32_t type,
                            uint32_t size, uint32_t value, cgn_graph **bodies) {
    cgn_conditional_desc d = CGN_CONDITIONAL_DESC_INIT;
    d.type = type;
    d.size = size;
    d.handle_default = value;
    d.handle_assign = 1;
    cgn_node *node;
    OK(cgn_graph_add_conditional(g, deps, num_deps, &d, &node));
    for (uint32_t i = 0; i < size; i++)
        OK(cgn_conditional_node_body(node, i, &bodies[i]));
    return node;
}

/* A memset of `value` into test buffer `buf` (owner buf when owned), in `body`. */
static cgn_node *add_fill(cgn_test_env *env, cgn_graph *body, int buf, uint32_t value,
                          int owned) {
    cgn_memset_desc fill = cgn_test_fill_desc(env, buf, value, owned);
    cgn_node *node;
    OK(cgn_graph_add_memset(body, NULL, 0, &fill, &node));
    return node;
}

static void test_if_runs_body_only_when_set(void **state) {
    cgn_test_env *env = *state;
    for (uint32_t value = 0; value <= 2; value++) {
        cgn_graph *g, *body;
        OK(cgn_graph_create(&g));
        cgn_node *cond = add_cond(g, NULL, 0, 0, value, &body);
        cgn_memset_desc fill = cgn_test_fill_desc(env, 0, 0x11, 1);
        cgn_node *inner;
        OK(cgn_graph_add_memset(body, NULL, 0, &fill, &inner));
        assert_int_equal(cgn_test_count_nodes(g), 1); /* the body's node is not the parent's */
        assert_int_equal(cgn_test_count_nodes(body), 1);
        cgn_conditional_desc got;
        OK(cgn_conditional_node_get(cond, &got));
        assert_int_equal(got.type, 0);
        assert_int_equal(got.size, 1);
        assert_int_equal(got.handle_default, value);
        assert_int_equal(got.handle_assign, 1);
        assert_true(got.handle != 0);
        assert_int_equal(cgn_test_run_graph_read(env, g, 0), value != 0 ? 0x11 : 0);
        OK(cgn_graph_destroy(g));
    }
}

/* The body's node is updated in the definition; the next instantiation runs the new value. */
static void test_body_update_reaches_new_instantiation(void **state) {
    cgn_test_env *env = *state;
    cgn_graph *g, *body;
    OK(cgn_graph_create(&g));
    add_cond(g, NULL, 0, 0, 1, &body);
    cgn_memset_desc fill = cgn_test_fill_desc(env, 1, 0x11, 1);
    cgn_node *inner;
    OK(cgn_graph_add_memset(body, NULL, 0, &fill, &inner));
    assert_int_equal(cgn_test_run_graph_read(env, g, 1), 0x11);
    cgn_memset_update u = CGN_MEMSET_UPDATE_INIT;
    cgn_memset_update_set_value(&u, 0x22, 1);
    OK(cgn_memset_node_update(inner, &u));
    cgn_memset_desc now;
    OK(cgn_memset_node_get(inner, &now));
    assert_int_equal(now.value, 0x22);
    assert_int_equal(cgn_test_run_graph_read(env, g, 1), 0x22);
    OK(cgn_graph_destroy(g));
}

/* An executable keeps its copy of the body until cgn_exec_update_from_graph, which takes the
 * definition's (CUDA updates body nodes with the whole graph). */
static void test_whole_graph_update_takes_body_changes(void **state) {
    cgn_test_env *env = *state;
    cgn_graph *g, *body;
    OK(cgn_graph_create(&g));
    add_cond(g, NULL, 0, 0, 1, &body);
    cgn_memset_desc fill = cgn_test_fill_desc(env, 1, 0x61, 1);
    cgn_node *inner;
    OK(cgn_graph_add_memset(body, NULL, 0, &fill, &inner));
    cgn_exec *e;
    OK(cgn_graph_instantiate(g, &e));
    cgn_memset_update u = CGN_MEMSET_UPDATE_INIT;
    cgn_memset_update_set_value(&u, 0x62, 1);
    OK(cgn_memset_node_update(inner, &u));
    assert_int_equal(cgn_test_run_read(env, e, 1), 0x61); /* its own copy */
    OK(cgn_exec_update_from_graph(e, g));
    cgn_memset_desc in_exec;
    OK(cgn_memset_exec_get(e, inner, &in_exec));
    assert_int_equal(in_exec.value, 0x62);
    assert_int_equal(cgn_test_run_read(env, e, 1), 0x62);
    OK(cgn_exec_destroy(e));
    OK(cgn_graph_destroy(g));
}

/* Executable level: a body node is updated in one executable like any node (the H200's driver
 * takes cuGraphExecNodeSetParams on it, and the launch runs the new value); the definition and
 * new executables keep the definition's. */
static void test_exec_update_of_body_node(void **state) {
    cgn_test_env *env = *state;
    cgn_graph *g, *body;
    OK(cgn_graph_create(&g));
    cgn_node *cond = add_cond(g, NULL, 0, 0, 1, &body);
    cgn_memset_desc fill = cgn_test_fill_desc(env, 2, 0x31, 1);
    cgn_node *inner;
    OK(cgn_graph_add_memset(body, NULL, 0, &fill, &inner));
    cgn_exec *e;
    OK(cgn_graph_instantiate(g, &e));
    cgn_memset_update u = CGN_MEMSET_UPDATE_INIT;
    cgn_memset_update_set_value(&u, 0x32, 1);
    OK(cgn_memset_exec_update(e, inner, &u)); /* seen working on the H200 (driver 580) */
    cgn_memset_desc in_exec;
    OK(cgn_memset_exec_get(e, inner, &in_exec));
    assert_int_equal(in_exec.value, 0x32);
    cgn_memset_desc in_graph;
    OK(cgn_memset_node_get(inner, &in_graph));
    assert_int_equal(in_graph.value, 0x31); /* the definition keeps its own */
    cgn_conditional_desc c;
    OK(cgn_conditional_exec_get(e, cond, &c));
    assert_int_equal(c.handle_default, 1);
    assert_int_equal(cgn_test_run_read(env, e, 2), 0x32);
    /* A new executable runs the definition's value. */
    OK(cgn_exec_destroy(e));
    OK(cgn_graph_instantiate(g, &e));
    assert_int_equal(cgn_test_run_read(env, e, 2), 0x31);
    OK(cgn_exec_destroy(e));
    OK(cgn_graph_destroy(g));
}

/* WHILE with default 1: countdown (in the body) decrements buf 0 and clears the condition at
 * 0; add_one (after it in the body) counts the rounds in buf 1. */
static void test_while_runs_until_body_clears(void **state) {
    cgn_test_env *env = *state;
    cgn_graph *g, *body;
    OK(cgn_graph_create(&g));
    cgn_node *cond = add_cond(g, NULL, 0, 1, 1, &body);
    cgn_conditional_desc c;
    OK(cgn_conditional_node_get(cond, &c));
    CUdeviceptr counter = env->buf[0], rounds = env->buf[1];
    CUgraphConditionalHandle h = c.handle;
    cgn_arg args[2] = {CGN_ARG(counter), CGN_ARG(h)};
    cgn_kernel_desc k = CGN_KERNEL_DESC_INIT;
    k.kernel = env->backend->kernel(env, "countdown");
    k.grid = CGN_DIM3(1, 1, 1);
    k.block = CGN_DIM3(1, 1, 1);
    k.args = args;
    k.num_args = 2;
    cgn_node *step, *count;
    OK(cgn_graph_add_kernel(body, NULL, 0, &k, &step));
    cgn_arg count_arg[1] = {CGN_ARG(rounds)};
    k.kernel = env->backend->kernel(env, "add_one");
    k.args = count_arg;
    k.num_args = 1;
    OK(cgn_graph_add_kernel(body, &step, 1, &k, &count));
    cgn_exec *e;
    OK(cgn_graph_instantiate(g, &e));
    for (uint32_t start = 1; start <= 5; start += 4) {
        uint32_t zero = 0, got_counter = 99, got_rounds = 99;
        env->backend->write(env, counter, &start, sizeof start);
        env->backend->write(env, rounds, &zero, sizeof zero);
        OK(env->backend->launch(env, e));
        env->backend->read(env, counter, &got_counter, sizeof got_counter);
        env->backend->read(env, rounds, &got_rounds, sizeof got_rounds);
        assert_int_equal(got_counter, 0);
        assert_int_equal(got_rounds, start);
    }
    OK(cgn_exec_destroy(e));
    OK(cgn_graph_destroy(g));
}

/* A kernel that runs before the node sets the condition its launches start with 0: IF `first`
 * (default 1) holds set_condition(second's handle, value), and `second` depends on it (nodes
 * are added to first's body once second's handle exists). */
static void test_condition_set_before_the_node(void **state) {
    cgn_test_env *env = *state;
    for (uint32_t value = 0; value <= 3; value += 3) {
        cgn_graph *g, *first_body, *second_body;
        OK(cgn_graph_create(&g));
        cgn_node *first = add_cond(g, NULL, 0, 0, 1, &first_body);
        cgn_node *second = add_cond(g, &first, 1, 0, 0, &second_body);
        cgn_conditional_desc c;
        OK(cgn_conditional_node_get(second, &c));
        CUgraphConditionalHandle h = c.handle;
        cgn_arg args[2] = {CGN_ARG(h), CGN_ARG(value)};
        cgn_kernel_desc k = CGN_KERNEL_DESC_INIT;
        k.kernel = env->backend->kernel(env, "set_condition");
        k.grid = CGN_DIM3(1, 1, 1);
        k.block = CGN_DIM3(1, 1, 1);
        k.args = args;
        k.num_args = 2;
        cgn_node *set, *inner;
        OK(cgn_graph_add_kernel(first_body, NULL, 0, &k, &set));
        cgn_memset_desc fill = cgn_test_fill_desc(env, 3, 0x41, 1);
        OK(cgn_graph_add_memset(second_body, NULL, 0, &fill, &inner));
        assert_int_equal(cgn_test_run_graph_read(env, g, 3), value != 0 ? 0x41 : 0);
        OK(cgn_graph_destroy(g));
    }
}

static void test_refused_descs_change_nothing(void **state) {
    cgn_test_env *env = *state;
    (void)env;
    cgn_graph *g;
    OK(cgn_graph_create(&g));
    static const struct {
        uint32_t type, size, assign;
        cgn_status status;
        const char *says;
    } bad[] = {
        {3, 1, 1, CGN_ERROR_INVALID_VALUE, "type 3"},
        {0, 3, 1, CGN_ERROR_INVALID_VALUE, "size 3: an IF node has one body, or two"},
        {1, 2, 1, CGN_ERROR_INVALID_VALUE, "size 2: a WHILE node has exactly one body"},
        {0, 0, 1, CGN_ERROR_INVALID_VALUE, "size 0"},
        {1, 0, 1, CGN_ERROR_INVALID_VALUE, "size 0"},
        {2, 0, 1, CGN_ERROR_INVALID_VALUE, "size 0"},
        {2, CGN_MAX_COND_BODIES + 1, 1, CGN_ERROR_OUT_OF_RANGE, "CGN_MAX_COND_BODIES"},
        {2, UINT32_MAX, 1, CGN_ERROR_OUT_OF_RANGE, "at most 256 bodies"},
        {0, 1, 2, CGN_ERROR_INVALID_VALUE, "handle_assign"},
        {2, 3, 2, CGN_ERROR_INVALID_VALUE, "handle_assign"},
    };
    size_t live = cgn__handles_live();
    cgn_fault_reset_counts();
    for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++) {
        cgn_conditional_desc d = CGN_CONDITIONAL_DESC_INIT;
        d.type = bad[i].type;
        d.size = bad[i].size;
        d.handle_assign = bad[i].assign;
        cgn_node *node = (cgn_node *)(uintptr_t)0x1;
        assert_int_equal(cgn_graph_add_conditional(g, NULL, 0, &d, &node), bad[i].status);
        assert_non_null(strstr(cgn_last_error(), bad[i].says));
        assert_ptr_equal(node, (cgn_node *)(uintptr_t)0x1);
    }
    assert_int_equal(cgn_fault_total_calls(), 0); /* refused before any driver call */
    assert_int_equal(cgn__handles_live(), live);
    assert_int_equal(cgn_test_count_nodes(g), 0);
    cgn_conditional_desc d = CGN_CONDITIONAL_DESC_INIT;
    assert_int_equal(d.size, 1); /* one body by default */
    assert_int_equal(cgn_graph_add_conditional(g, NULL, 0, NULL, NULL), CGN_ERROR_INVALID_ARGUMENT);
    OK(cgn_graph_destroy(g));
}

/* Drivers before 12.3 cannot create handles: refused before the handle, nothing added. */
static void test_old_driver_refused(void **state) {
    cgn_test_env *env = *state;
    (void)env;
    cgn_graph *g;
    OK(cgn_graph_create(&g));
    int version;
    OK(cgn_driver_version(&version));
    cgn_fault_set_version(12020);
    cgn_fault_reset_counts();
    cgn_conditional_desc d = CGN_CONDITIONAL_DESC_INIT;
    cgn_node *node;
    assert_int_equal(cgn_graph_add_conditional(g, NULL, 0, &d, &node), CGN_ERROR_DRIVER_TOO_OLD);
    assert_non_null(strstr(cgn_last_error(), "12.3"));
    assert_int_equal(cgn_fault_calls(CGN_FAULT_cuGraphConditionalHandleCreate), 0);
    assert_int_equal(cgn_fault_calls(CGN_FAULT_cuGraphAddNode), 0);
    cgn_fault_set_version(version);
    assert_int_equal(cgn_test_count_nodes(g), 0);
    OK(cgn_graph_destroy(g));
}

/* SWITCH and IF with an else body need 12.8: drivers 12.3 to 12.7 (and older) refuse them
 * before any driver call, naming both versions; the one-body forms still work there. */
static void test_multi_body_forms_need_12_8(void **state) {
    cgn_test_env *env = *state;
    (void)env;
    cgn_graph *g;
    OK(cgn_graph_create(&g));
    int version;
    OK(cgn_driver_version(&version));
    static const int old[] = {12020, 12030, 12050, 12070};
    static const struct {
        uint32_t type, size;
        const char *says;
    } forms[] = {{2, 1, "SWITCH"}, {2, 3, "SWITCH"}, {0, 2, "else body"}};
    size_t live = cgn__handles_live();
    for (size_t v = 0; v < sizeof old / sizeof old[0]; v++) {
        cgn_fault_set_version(old[v]);
        char now[32];
        snprintf(now, sizeof now, "this driver is %d.%d", old[v] / 1000, (old[v] % 1000) / 10);
        for (size_t f = 0; f < sizeof forms / sizeof forms[0]; f++) {
            cgn_conditional_desc d = CGN_CONDITIONAL_DESC_INIT;
            d.type = forms[f].type;
            d.size = forms[f].size;
            cgn_node *node = NULL;
            cgn_fault_reset_counts();
            assert_int_equal(cgn_graph_add_conditional(g, NULL, 0, &d, &node),
                             CGN_ERROR_DRIVER_TOO_OLD);
            assert_non_null(strstr(cgn_last_error(), forms[f].says));
            assert_non_null(strstr(cgn_last_error(), "12.8 or newer"));
            assert_non_null(strstr(cgn_last_error(), now));
            assert_int_equal(cgn_fault_total_calls(), 0);
            assert_null(node);
        }
    }
    assert_int_equal(cgn__handles_live(), live);
    assert_int_equal(cgn_test_count_nodes(g), 0);
    /* 12.7: IF with one body and WHILE are added as before. */
    cgn_fault_set_version(12070);
    cgn_graph *body;
    add_cond(g, NULL, 0, 0, 0, &body);
    add_cond(g, NULL, 0, 1, 0, &body);
    cgn_fault_set_version(version);
    assert_int_equal(cgn_test_count_nodes(g), 2);
    OK(cgn_graph_destroy(g));
}

/* SWITCH with three bodies, each filling buf 0 with its own value: the handle's value picks the
 * body; a value past the last runs none. */
static void test_switch_runs_body_of_value(void **state) {
    cgn_test_env *env = *state;
    for (uint32_t value = 0; value <= 3; value++) {
        cgn_graph *g, *bodies[3];
        OK(cgn_graph_create(&g));
        cgn_node *sw = add_cond_n(g, NULL, 0, 2, 3, value, bodies);
        for (int i = 0; i < 3; i++)
            add_fill(env, bodies[i], 0, 0x10 + (uint32_t)i, 0);
        assert_true(bodies[0] != bodies[1] && bodies[1] != bodies[2] && bodies[0] != bodies[2]);
        for (int i = 0; i < 3; i++)
            assert_int_equal(cgn_test_count_nodes(bodies[i]), 1);
        assert_int_equal(cgn_test_count_nodes(g), 1);
        cgn_conditional_desc got;
        OK(cgn_conditional_node_get(sw, &got));
        assert_int_equal(got.type, 2);
        assert_int_equal(got.size, 3);
        assert_int_equal(got.handle_default, value);
        assert_int_equal(cgn_test_run_graph_read(env, g, 0), value < 3 ? 0x10 + value : 0);
        OK(cgn_graph_destroy(g));
    }
}

/* IF with an else body: body 0 on a non-zero value, body 1 on 0; a definition update of the else
 * body's node reaches the next instantiation. */
static void test_if_else_runs_else_on_zero(void **state) {
    cgn_test_env *env = *state;
    for (uint32_t value = 0; value <= 1; value++) {
        cgn_graph *g, *bodies[2];
        OK(cgn_graph_create(&g));
        cgn_node *cond = add_cond_n(g, NULL, 0, 0, 2, value, bodies);
        add_fill(env, bodies[0], 1, 0x21, 0);
        cgn_node *else_fill = add_fill(env, bodies[1], 1, 0x20, 0);
        cgn_conditional_desc got;
        OK(cgn_conditional_node_get(cond, &got));
        assert_int_equal(got.type, 0);
        assert_int_equal(got.size, 2);
        assert_int_equal(cgn_test_run_graph_read(env, g, 1), value != 0 ? 0x21 : 0x20);
        cgn_memset_update u = CGN_MEMSET_UPDATE_INIT;
        cgn_memset_update_set_value(&u, 0x2e, 1);
        OK(cgn_memset_node_update(else_fill, &u));
        assert_int_equal(cgn_test_run_graph_read(env, g, 1), value != 0 ? 0x21 : 0x2e);
        OK(cgn_graph_destroy(g));
    }
}

/* A kernel before the SWITCH sets its value (the default, 0, is assigned at each launch start
 * first): set_condition(handle, 2) makes body 2 run. The handle exists once the node does, and
 * the kernel must come first: it is added with handle 0 and its argument set afterwards (a
 * definition update), then its value argument is changed to pick body 1. */
static void test_switch_set_by_kernel(void **state) {
    cgn_test_env *env = *state;
    cgn_graph *g, *bodies[3];
    OK(cgn_graph_create(&g));
    CUgraphConditionalHandle h = 0;
    uint32_t value = 2;
    cgn_arg args[2] = {CGN_ARG(h), CGN_ARG(value)};
    cgn_kernel_desc k = CGN_KERNEL_DESC_INIT;
    k.kernel = env->backend->kernel(env, "set_condition");
    k.grid = CGN_DIM3(1, 1, 1);
    k.block = CGN_DIM3(1, 1, 1);
    k.args = args;
    k.num_args = 2;
    cgn_node *set;
    OK(cgn_graph_add_kernel(g, NULL, 0, &k, &set));
    cgn_node *sw = add_cond_n(g, &set, 1, 2, 3, 0, bodies);
    for (int i = 0; i < 3; i++)
        add_fill(env, bodies[i], 2, 0x50 + (uint32_t)i, 0);
    cgn_conditional_desc c;
    OK(cgn_conditional_node_get(sw, &c));
    h = c.handle;
    cgn_kernel_update ku = CGN_KERNEL_UPDATE_INIT;
    cgn_kernel_update_set_arg(&ku, 0, &h, sizeof h, NULL);
    OK(cgn_kernel_node_update(set, &ku));
    assert_int_equal(cgn_test_run_graph_read(env, g, 2), 0x52);
    ku = (cgn_kernel_update)CGN_KERNEL_UPDATE_INIT;
    uint32_t one = 1;
    cgn_kernel_update_set_arg(&ku, 1, &one, sizeof one, NULL);
    OK(cgn_kernel_node_update(set, &ku));
    assert_int_equal(cgn_test_run_graph_read(env, g, 2), 0x51);
    OK(cgn_graph_destroy(g));
}

/* Executable level, body 2 of a SWITCH (default 2): the executable writes its own value, the
 * definition keeps its own, cgn_exec_update_from_graph takes the definition's back, and the
 * executable made after it (CUDA allows one at a time) runs the definition's. Every body's
 * nodes have copies in the executable. */
static void test_exec_update_in_body_2(void **state) {
    cgn_test_env *env = *state;
    cgn_graph *g, *bodies[3];
    OK(cgn_graph_create(&g));
    add_cond_n(g, NULL, 0, 2, 3, 2, bodies);
    cgn_node *fills[3];
    for (int i = 0; i < 3; i++)
        fills[i] = add_fill(env, bodies[i], 3, 0x31 + (uint32_t)i, 0);
    cgn_exec *e;
    OK(cgn_graph_instantiate(g, &e));
    for (int i = 0; i < 3; i++) {
        cgn_memset_desc in_exec;
        OK(cgn_memset_exec_get(e, fills[i], &in_exec));
        assert_int_equal(in_exec.value, 0x31 + (uint32_t)i);
    }
    assert_int_equal(cgn_test_run_read(env, e, 3), 0x33);
    cgn_memset_update u = CGN_MEMSET_UPDATE_INIT;
    cgn_memset_update_set_value(&u, 0x77, 1);
    OK(cgn_memset_exec_update(e, fills[2], &u));
    cgn_memset_desc in_exec, in_graph;
    OK(cgn_memset_exec_get(e, fills[2], &in_exec));
    assert_int_equal(in_exec.value, 0x77);
    OK(cgn_memset_node_get(fills[2], &in_graph));
    assert_int_equal(in_graph.value, 0x33);
    assert_int_equal(cgn_test_run_read(env, e, 3), 0x77);
    /* Body 0's node in the executable too: body 2 still runs, with its own value. */
    cgn_memset_update_set_value(&u, 0x70, 1);
    OK(cgn_memset_exec_update(e, fills[0], &u));
    assert_int_equal(cgn_test_run_read(env, e, 3), 0x77);
    OK(cgn_exec_update_from_graph(e, g));
    OK(cgn_memset_exec_get(e, fills[2], &in_exec));
    assert_int_equal(in_exec.value, 0x33);
    assert_int_equal(cgn_test_run_read(env, e, 3), 0x33);
    OK(cgn_memset_exec_update(e, fills[2], &u));
    assert_int_equal(cgn_test_run_read(env, e, 3), 0x70);
    OK(cgn_exec_destroy(e));
    OK(cgn_graph_instantiate(g, &e));
    assert_int_equal(cgn_test_run_read(env, e, 3), 0x33);
    OK(cgn_exec_destroy(e));
    OK(cgn_graph_destroy(g));
}

/* An executable outlives its graph: the nodes of every body stay addressable (their handles
 * are kept for it) and owners of body nodes go with the last of graph and executable. */
static void test_bodies_outlive_graph_in_exec(void **state) {
    cgn_test_env *env = *state;
    cgn_graph *g, *bodies[3];
    OK(cgn_graph_create(&g));
    add_cond_n(g, NULL, 0, 2, 3, 1, bodies);
    add_fill(env, bodies[0], 0, 0x61, 1);
    cgn_node *mid = add_fill(env, bodies[1], 1, 0x62, 1);
    add_fill(env, bodies[2], 2, 0x63, 1);
    CUgraphNode raw;
    OK(cgn_node_raw(mid, &raw));
    cgn_node *found;
    OK(cgn_graph_find_raw(g, raw, &found)); /* looked for in every body */
    assert_ptr_equal(found, mid);
    cgn_exec *e;
    OK(cgn_graph_instantiate(g, &e));
    cgn_test_env_drop_owners(env);
    OK(cgn_graph_destroy(g));
    cgn_collect();
    for (int i = 0; i < 3; i++)
        assert_int_equal(env->released[i], 0); /* the executable holds them */
    cgn_memset_update u = CGN_MEMSET_UPDATE_INIT;
    cgn_memset_update_set_value(&u, 0x6f, 1);
    OK(cgn_memset_exec_update(e, mid, &u));
    assert_int_equal(cgn_test_run_read(env, e, 1), 0x6f);
    assert_int_equal(cgn_memset_node_update(mid, &u), CGN_ERROR_DESTROYED);
    OK(cgn_exec_destroy(e));
    for (int i = 0; i < 3; i++)
        assert_true(cgn_test_wait_released(env, i, 1));
    assert_int_equal(cgn_graph_add_empty(bodies[2], NULL, 0, &found), CGN_ERROR_DESTROYED);
}

/* Body handles: one per index below size, each its own graph; NULL and out-of-range
 * arguments are refused; CGN_MAX_COND_BODIES bodies are accepted and every handle goes with
 * the graph. */
static void test_body_index_and_bound(void **state) {
    cgn_test_env *env = *state;
    (void)env;
    size_t live = cgn__handles_live();
    cgn_graph *g, *bodies[3], *b;
    OK(cgn_graph_create(&g));
    cgn_node *sw = add_cond_n(g, NULL, 0, 2, 3, 0, bodies);
    OK(cgn_conditional_node_body(sw, 2, &b));
    assert_ptr_equal(b, bodies[2]);
    b = (cgn_graph *)(uintptr_t)0x1;
    assert_int_equal(cgn_conditional_node_body(sw, 3, &b), CGN_ERROR_INVALID_VALUE);
    assert_non_null(strstr(cgn_last_error(), "no body 3 (it has 3"));
    assert_int_equal(cgn_conditional_node_body(sw, UINT32_MAX, &b), CGN_ERROR_INVALID_VALUE);
    assert_ptr_equal(b, (cgn_graph *)(uintptr_t)0x1);
    assert_int_equal(cgn_conditional_node_body(sw, 1, NULL), CGN_ERROR_INVALID_ARGUMENT);
    assert_int_equal(cgn_conditional_node_body(NULL, 0, &b), CGN_ERROR_INVALID_ARGUMENT);
    for (int i = 0; i < 3; i++) {
        assert_int_equal(cgn_graph_destroy(bodies[i]), CGN_ERROR_INVALID_ARGUMENT);
        cgn_graph *owner_graph;
        cgn_node *e;
        OK(cgn_graph_add_empty(bodies[i], NULL, 0, &e));
        OK(cgn_node_graph(e, &owner_graph));
        assert_ptr_equal(owner_graph, bodies[i]);
    }
    cgn_conditional_desc d = CGN_CONDITIONAL_DESC_INIT;
    d.type = 2;
    d.size = CGN_MAX_COND_BODIES;
    cgn_node *wide;
    OK(cgn_graph_add_conditional(g, &sw, 1, &d, &wide));
    OK(cgn_conditional_node_body(wide, CGN_MAX_COND_BODIES - 1, &b));
    assert_int_equal(cgn_conditional_node_body(wide, CGN_MAX_COND_BODIES, &b),
                     CGN_ERROR_INVALID_VALUE);
    OK(cgn_graph_destroy(g));
    assert_int_equal(cgn__handles_live(), live);
    cgn_node *x;
    assert_int_equal(cgn_graph_add_empty(b, NULL, 0, &x), CGN_ERROR_DESTROYED);
}

/* Each driver call of a SWITCH's add failing in turn: no node, and none of the three bodies'
 * records or handles left behind. */
static void test_switch_driver_failures(void **state) {
    cgn_test_env *env = *state;
    (void)env;
    size_t live = cgn__handles_live();
    for (long k = 1;; k++) {
        cgn_graph *g;
        OK(cgn_graph_create(&g));
        size_t before = cgn__handles_live();
        cgn_fault_arm(k, CUDA_ERROR_INVALID_VALUE);
        cgn_conditional_desc d = CGN_CONDITIONAL_DESC_INIT;
        d.type = 2;
        d.size = 3;
        cgn_node *node = NULL;
        cgn_status st = cgn_graph_add_conditional(g, NULL, 0, &d, &node);
        cgn_fault_entry entry;
        int triggered = cgn_fault_triggered(&entry);
        cgn_fault_disarm();
        if (!triggered) {
            OK(st);
            assert_int_equal(cgn__handles_live(), before + 4); /* the node and 3 bodies */
            OK(cgn_graph_destroy(g));
            assert_true(k > 2);
            break;
        }
        assert_int_equal(st, CGN_ERROR_DRIVER);
        assert_null(node);
        assert_int_equal(cgn_test_count_nodes(g), 0);
        assert_int_equal(cgn__handles_live(), before);
        OK(cgn_graph_destroy(g));
    }
    assert_int_equal(cgn__handles_live(), live);
}

/* A SWITCH nested in the else body of an IF: both values must lead there. */
static void test_switch_nested_in_else(void **state) {
    cgn_test_env *env = *state;
    for (uint32_t value = 0; value <= 1; value++) {
        cgn_graph *g, *ifb[2], *swb[2];
        OK(cgn_graph_create(&g));
        add_cond_n(g, NULL, 0, 0, 2, 0, ifb);
        add_fill(env, ifb[0], 0, 0x7a, 0);
        add_cond_n(ifb[1], NULL, 0, 2, 2, value, swb);
        add_fill(env, swb[0], 0, 0x70, 0);
        add_fill(env, swb[1], 0, 0x71, 0);
        assert_int_equal(cgn_test_run_graph_read(env, g, 0), 0x70 + value);
        OK(cgn_graph_destroy(g));
    }
}

/* Each driver call of the add failing in turn: CGN_ERROR_DRIVER, no node, no record. Once the
 * handle exists only cuGraphAddNode can fail (CUDA cannot destroy a handle, so it stays in the
 * graph: CUDA may then refuse to instantiate the graph, which is not checked here). */
static void test_driver_failures(void **state) {
    cgn_test_env *env = *state;
    (void)env;
    size_t live = cgn__handles_live();
    for (long k = 1;; k++) {
        cgn_graph *g;
        OK(cgn_graph_create(&g));
        size_t before = cgn__handles_live();
        cgn_fault_arm(k, CUDA_ERROR_INVALID_VALUE);
        cgn_conditional_desc d = CGN_CONDITIONAL_DESC_INIT;
        cgn_node *node = NULL;
        cgn_status st = cgn_graph_add_conditional(g, NULL, 0, &d, &node);
        cgn_fault_entry entry;
        int triggered = cgn_fault_triggered(&entry);
        cgn_fault_disarm();
        if (!triggered) {
            OK(st);
            cgn_graph *body;
            OK(cgn_conditional_node_body(node, 0, &body));
            OK(cgn_graph_destroy(g));
            assert_true(k > 2); /* cuCtxGetCurrent, the handle, the add at least */
            break;
        }
        assert_int_equal(st, CGN_ERROR_DRIVER);
        assert_null(node);
        assert_int_equal(cgn_test_count_nodes(g), 0);
        assert_int_equal(cgn__handles_live(), before);
        OK(cgn_graph_destroy(g));
    }
    assert_int_equal(cgn__handles_live(), live);
}

/* CUDA cannot clone a graph with a conditional node into a child-graph node, nor add one to a
 * graph embedded in a child-graph node: both refused before any driver call. */
static void test_child_graph_restrictions(void **state) {
    cgn_test_env *env = *state;
    cgn_graph *src, *body;
    OK(cgn_graph_create(&src));
    add_cond(src, NULL, 0, 0, 1, &body);
    cgn_graph *parent;
    OK(cgn_graph_create(&parent));
    cgn_child_graph_desc cd = CGN_CHILD_GRAPH_DESC_INIT;
    cd.graph = src;
    cgn_node *child;
    cgn_fault_reset_counts();
    assert_int_equal(cgn_graph_add_child_graph(parent, NULL, 0, &cd, &child),
                     CGN_ERROR_NOT_SUPPORTED);
    assert_non_null(strstr(cgn_last_error(), "conditional"));
    assert_int_equal(cgn_fault_calls(CGN_FAULT_cuGraphAddChildGraphNode), 0);
    /* A plain child graph: no conditional node may be added inside its embedding. */
    cgn_graph *plain;
    OK(cgn_graph_create(&plain));
    cgn_memset_desc fill = cgn_test_fill_desc(env, 0, 0x11, 0);
    cgn_node *m;
    OK(cgn_graph_add_memset(plain, NULL, 0, &fill, &m));
    cd.graph = plain;
    OK(cgn_graph_add_child_graph(parent, NULL, 0, &cd, &child));
    cgn_graph *embedded;
    OK(cgn_child_graph_node_embedded(child, &embedded));
    cgn_conditional_desc d = CGN_CONDITIONAL_DESC_INIT;
    cgn_node *node;
    cgn_fault_reset_counts();
    assert_int_equal(cgn_graph_add_conditional(embedded, NULL, 0, &d, &node),
                     CGN_ERROR_NOT_SUPPORTED);
    assert_int_equal(cgn_fault_calls(CGN_FAULT_cuGraphConditionalHandleCreate), 0);
    assert_int_equal(cgn_test_count_nodes(embedded), 1);
    OK(cgn_graph_destroy(parent));
    OK(cgn_graph_destroy(plain));
    OK(cgn_graph_destroy(src));
}

/* The body handle: index 0 only, only of conditional nodes, not destroyable on its own, gone
 * with its node (with the owners of the nodes inside); a conditional node nested in a body
 * runs when both conditions hold. */
static void test_body_handles_and_nesting(void **state) {
    cgn_test_env *env = *state;
    cgn_graph *g, *body, *inner_body;
    OK(cgn_graph_create(&g));
    cgn_node *cond = add_cond(g, NULL, 0, 0, 1, &body);
    cgn_graph *again;
    assert_int_equal(cgn_conditional_node_body(cond, 1, &again), CGN_ERROR_INVALID_VALUE);
    assert_int_equal(cgn_conditional_node_body(cond, 0, NULL), CGN_ERROR_INVALID_ARGUMENT);
    OK(cgn_conditional_node_body(cond, 0, &again));
    assert_ptr_equal(again, body);
    cgn_node *empty;
    OK(cgn_graph_add_empty(g, NULL, 0, &empty));
    assert_int_equal(cgn_conditional_node_body(empty, 0, &again), CGN_ERROR_WRONG_NODE_TYPE);
    assert_int_equal(cgn_graph_destroy(body), CGN_ERROR_INVALID_ARGUMENT);
    assert_non_null(strstr(cgn_last_error(), "embedded in a conditional node"));
    assert_int_equal(cgn_node_check_updatable(cond), CGN_ERROR_NOT_SUPPORTED);
    cgn_node *nested = add_cond(body, NULL, 0, 0, 1, &inner_body);
    cgn_memset_desc fill = cgn_test_fill_desc(env, 2, 0x51, 1);
    cgn_node *m;
    OK(cgn_graph_add_memset(inner_body, NULL, 0, &fill, &m));
    assert_int_equal(cgn_test_run_graph_read(env, g, 2), 0x51);
    cgn_test_env_drop_owners(env);
    cgn_collect();
    assert_int_equal(env->released[2], 0); /* the nested body's memset holds owner 2 */
    /* A conditional node cannot be destroyed: its handle would stay in the graph unused, and
     * the H200's driver then refuses to instantiate the graph. Nothing changes. */
    assert_int_equal(cgn_node_destroy(cond), CGN_ERROR_NOT_SUPPORTED);
    assert_non_null(strstr(cgn_last_error(), "CUDA cannot destroy its conditional handle"));
    assert_int_equal(cgn_node_destroy(nested), CGN_ERROR_NOT_SUPPORTED);
    assert_true(cgn_node_is_alive(cond) && cgn_node_is_alive(nested) && cgn_node_is_alive(m));
    assert_int_equal(cgn_test_run_graph_read(env, g, 2), 0x51);
    OK(cgn_graph_destroy(g)); /* the bodies go with it, and their nodes' owners */
    assert_true(cgn_test_wait_released(env, 2, 1));
    cgn_node *x;
    assert_int_equal(cgn_graph_add_empty(body, NULL, 0, &x), CGN_ERROR_DESTROYED);
    assert_int_equal(cgn_graph_add_empty(inner_body, NULL, 0, &x), CGN_ERROR_DESTROYED);
    assert_false(cgn_node_is_alive(m));
}

/* Adopted, a conditional node is CGN_NODE_OTHER (no driver cgn builds with reads it back). */
static void test_adopted_as_other(void **state) {
    cgn_test_env *env = *state;
    (void)env;
    cgn_graph *g, *body;
    OK(cgn_graph_create(&g));
    add_cond(g, NULL, 0, 1, 0, &body);
    CUgraph raw;
    OK(cgn_graph_raw(g, &raw));
    cgn_graph *adopted;
    OK(cgn_graph_adopt(raw, 0, &adopted));
    cgn_node *nodes[1];
    size_t count = 1;
    OK(cgn_graph_nodes(adopted, nodes, &count));
    assert_int_equal(count, 1);
    cgn_node_type t;
    OK(cgn_node_type_of(nodes[0], &t));
    assert_int_equal(t, CGN_NODE_OTHER);
    assert_int_equal(cgn_node_check_updatable(nodes[0]), CGN_ERROR_NOT_SUPPORTED);
    assert_non_null(strstr(cgn_last_error(), "CONDITIONAL"));
    OK(cgn_graph_destroy(adopted));
    OK(cgn_graph_destroy(g));
}

int main(void) {
    cgn_test_env probe; /* a GPU build without a device skips (77) */
    int rc = cgn_test_env_open(&probe);
    if (rc != 0)
        return rc;
    cgn_test_env_close(&probe);
#define T(fn) cmocka_unit_test_setup_teardown(fn, cgn_test_fixture_setup, cgn_test_fixture_teardown)
    const struct CMUnitTest tests[] = {
        T(test_if_runs_body_only_when_set),
        T(test_body_update_reaches_new_instantiation),
        T(test_whole_graph_update_takes_body_changes),
        T(test_exec_update_of_body_node),
        T(test_while_runs_until_body_clears),
        T(test_condition_set_before_the_node),
        T(test_refused_descs_change_nothing),
        T(test_old_driver_refused),
        T(test_driver_failures),
        T(test_child_graph_restrictions),
        T(test_body_handles_and_nesting),
        T(test_adopted_as_other),
        T(test_multi_body_forms_need_12_8),
        T(test_switch_runs_body_of_value),
        T(test_if_else_runs_else_on_zero),
        T(test_switch_set_by_kernel),
        T(test_exec_update_in_body_2),
        T(test_bodies_outlive_graph_in_exec),
        T(test_body_index_and_bound),
        T(test_switch_driver_failures),
        T(test_switch_nested_in_else),
    };
#undef T
    return cmocka_run_group_tests(tests, NULL, NULL);
}
