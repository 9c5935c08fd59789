/* Conditional nodes (on the fake driver, label unit, and on a GPU, label gpu): an IF runs its
 * body when the condition is non-zero and skips it otherwise, a WHILE runs its body until a
 * kernel in it clears the condition, a kernel before the node can set it, nodes of a body are
 * updated at definition level (new instantiations and cgn_exec_update_from_graph take them)
 * and refused at executable level, refused descs and old drivers change nothing, and CUDA's
 * restrictions (no conditional node in a child graph) are refused up front. CUDA allows one
 * executable of such a graph at a time, so every test destroys its executable before
 * instantiating again. */
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

static size_t count_nodes(const cgn_graph *g) {
    size_t count = 0;
    OK(cgn_graph_nodes(g, NULL, &count));
    return count;
}

/* Instantiates g, runs it once from zeroed buffers, destroys the executable: byte 0 of buf. */
static uint8_t run_once(cgn_test_env *env, cgn_graph *g, int buf) {
    cgn_exec *e;
    OK(cgn_graph_instantiate(g, &e));
    uint8_t got = cgn_test_run_read(env, e, buf);
    OK(cgn_exec_destroy(e));
    return got;
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
        assert_int_equal(count_nodes(g), 1); /* the body's node is not the parent's */
        assert_int_equal(count_nodes(body), 1);
        cgn_conditional_desc got;
        OK(cgn_conditional_node_get(cond, &got));
        assert_int_equal(got.type, 0);
        assert_int_equal(got.size, 1);
        assert_int_equal(got.handle_default, value);
        assert_int_equal(got.handle_assign, 1);
        assert_true(got.handle != 0);
        assert_int_equal(run_once(env, g, 0), value != 0 ? 0x11 : 0);
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
    assert_int_equal(run_once(env, g, 1), 0x11);
    cgn_memset_update u = CGN_MEMSET_UPDATE_INIT;
    cgn_memset_update_set_value(&u, 0x22, 1);
    OK(cgn_memset_node_update(inner, &u));
    cgn_memset_desc now;
    OK(cgn_memset_node_get(inner, &now));
    assert_int_equal(now.value, 0x22);
    assert_int_equal(run_once(env, g, 1), 0x22);
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
        assert_int_equal(run_once(env, g, 3), value != 0 ? 0x41 : 0);
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
        {2, 1, 1, CGN_ERROR_NOT_SUPPORTED, "SWITCH"},
        {3, 1, 1, CGN_ERROR_INVALID_VALUE, "type 3"},
        {0, 2, 1, CGN_ERROR_NOT_SUPPORTED, "size 2"},
        {1, 0, 1, CGN_ERROR_NOT_SUPPORTED, "size 0"},
        {0, 1, 2, CGN_ERROR_INVALID_VALUE, "handle_assign"},
    };
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
    assert_int_equal(count_nodes(g), 0);
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
    assert_int_equal(count_nodes(g), 0);
    OK(cgn_graph_destroy(g));
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
        assert_int_equal(count_nodes(g), 0);
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
    assert_int_equal(count_nodes(embedded), 1);
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
    assert_int_equal(run_once(env, g, 2), 0x51);
    cgn_test_env_drop_owners(env);
    cgn_collect();
    assert_int_equal(env->released[2], 0); /* the nested body's memset holds owner 2 */
    /* A conditional node cannot be destroyed: its handle would stay in the graph unused, and
     * the H200's driver then refuses to instantiate the graph. Nothing changes. */
    assert_int_equal(cgn_node_destroy(cond), CGN_ERROR_NOT_SUPPORTED);
    assert_non_null(strstr(cgn_last_error(), "CUDA cannot destroy its conditional handle"));
    assert_int_equal(cgn_node_destroy(nested), CGN_ERROR_NOT_SUPPORTED);
    assert_true(cgn_node_is_alive(cond) && cgn_node_is_alive(nested) && cgn_node_is_alive(m));
    assert_int_equal(run_once(env, g, 2), 0x51);
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
    };
#undef T
    return cmocka_run_group_tests(tests, NULL, NULL);
}
