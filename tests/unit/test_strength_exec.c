/* Executables and handles where the other unit tests do not look, on the fake driver: whole-graph
 * refresh refusing each topology change cgn can see (a node of another type, a node destroyed
 * and another added in its slot, fewer nodes) before the driver is asked, with the message naming
 * the graph and the node; the same rules for an executable's child graph; a driver refusal of
 * cuGraphExecUpdate named by its result and its node; a version installed by a refresh and
 * replaced before any launch saw it (released at once: the next launch records no fence); and
 * the message for a pointer that is no cgn handle; child-graph sources with other dependencies or
 * a differing nested embedding; an embedding the driver could not locate; fences made and polled
 * in the executable's own context without touching the context stack, and cgn_collect()'s count;
 * NULL-argument messages. (Issue 8: test strength.) */
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
#include "fake_driver.h"
#include "runtime.h"

#define REFRESH_RULE                                                                               \
    "; rule: an executable keeps its topology (nodes added or destroyed after the instantiation "  \
    "need a new executable)"
#define CHILD_RULE                                                                                 \
    "; rule: an executable's child graph keeps its topology (same nodes in the same order, types " \
    "and dependencies)"

/* Refresh refuses a graph whose node at a position is of another type than the executable's,
 * names that node, and never asks the driver; the executable keeps running its version. */
static void test_refresh_refuses_node_of_another_type(void **state) {
    cgn_test_env *env = *state;
    cgn_graph *g;
    cgn_node *a, *other;
    cgn_exec *e;
    OK(cgn_graph_create(&g));
    cgn_memset_desc d = cgn_test_fill_desc(env, 0, 0x11, 0);
    OK(cgn_graph_add_memset(g, NULL, 0, &d, &a));
    OK(cgn_graph_instantiate(g, &e));
    OK(cgn_node_destroy(a));
    OK(cgn_graph_add_empty(g, NULL, 0, &other));
    cgn_fault_reset_counts();
    assert_int_equal(cgn_exec_update_from_graph(e, g), CGN_ERROR_INVALID_VALUE);
    char want[512];
    snprintf(want, sizeof want,
             "cgn_exec_update_from_graph: graph %p has a node of another type at this position "
             "(node %p)" REFRESH_RULE,
             (void *)g, (void *)other);
    cgn_test_assert_message(want);
    assert_int_equal(cgn_fault_calls(CGN_FAULT_cuGraphExecUpdate), 0);
    assert_int_equal(cgn_test_run_read(env, e, 0), 0x11);
    OK(cgn_exec_destroy(e));
    OK(cgn_graph_destroy(g));
}

/* A node destroyed and one of the same type added right after (it takes the freed handle slot,
 * a newer generation of it): refused, the executable still pairs its slot with the old node. */
static void test_refresh_refuses_node_added_in_a_destroyed_slot(void **state) {
    cgn_test_env *env = *state;
    cgn_graph *g;
    cgn_node *a, *c;
    cgn_exec *e;
    OK(cgn_graph_create(&g));
    cgn_memset_desc d = cgn_test_fill_desc(env, 0, 0x11, 0);
    OK(cgn_graph_add_memset(g, NULL, 0, &d, &a));
    OK(cgn_graph_instantiate(g, &e));
    OK(cgn_node_destroy(a));
    cgn_memset_desc d2 = cgn_test_fill_desc(env, 0, 0x22, 0);
    OK(cgn_graph_add_memset(g, NULL, 0, &d2, &c));
    assert_int_equal(cgn_node_is_alive(a), 0);
    cgn_fault_reset_counts();
    assert_int_equal(cgn_exec_update_from_graph(e, g), CGN_ERROR_INVALID_VALUE);
    char want[512];
    snprintf(want, sizeof want,
             "cgn_exec_update_from_graph: graph %p has a node the executable was not instantiated "
             "with at this position (nodes were destroyed and others added since) (node %p)"
             REFRESH_RULE,
             (void *)g, (void *)c);
    cgn_test_assert_message(want);
    assert_int_equal(cgn_fault_calls(CGN_FAULT_cuGraphExecUpdate), 0);
    assert_int_equal(cgn_test_run_read(env, e, 0), 0x11);
    OK(cgn_exec_destroy(e));
    OK(cgn_graph_destroy(g));
}

/* A graph with fewer nodes than the executable (its last node destroyed) is refused before the
 * driver is asked; the message names no node. */
static void test_refresh_refuses_fewer_nodes(void **state) {
    cgn_test_env *env = *state;
    cgn_graph *g;
    cgn_node *a, *b;
    cgn_exec *e;
    OK(cgn_graph_create(&g));
    cgn_memset_desc d = cgn_test_fill_desc(env, 0, 0x11, 0);
    OK(cgn_graph_add_memset(g, NULL, 0, &d, &a));
    cgn_memset_desc d2 = cgn_test_fill_desc(env, 1, 0x22, 0);
    OK(cgn_graph_add_memset(g, &a, 1, &d2, &b));
    OK(cgn_graph_instantiate(g, &e));
    OK(cgn_node_destroy(b));
    cgn_fault_reset_counts();
    assert_int_equal(cgn_exec_update_from_graph(e, g), CGN_ERROR_INVALID_VALUE);
    char want[512];
    snprintf(want, sizeof want,
             "cgn_exec_update_from_graph: graph %p has fewer nodes than the executable's copy"
             REFRESH_RULE,
             (void *)g);
    cgn_test_assert_message(want);
    assert_int_equal(cgn_fault_calls(CGN_FAULT_cuGraphExecUpdate), 0);
    assert_int_equal(cgn_test_run_read(env, e, 1), 0x22);
    OK(cgn_exec_destroy(e));
    OK(cgn_graph_destroy(g));
}

/* An executable's child graph: sources with fewer nodes, or a node of another type, are refused
 * by cgn (the message names the source and the node) and the driver is not asked; a source of
 * the same topology is accepted and runs. */
static void test_exec_child_graph_topology_is_checked(void **state) {
    cgn_test_env *env = *state;
    cgn_graph *src, *parent, *fewer, *typed, *same;
    cgn_node *m1, *m2, *k, *x, *y;
    cgn_exec *e;
    OK(cgn_graph_create(&src));
    cgn_memset_desc d0 = cgn_test_fill_desc(env, 0, 0x11, 0), d1 = cgn_test_fill_desc(env, 1, 0x12, 0);
    OK(cgn_graph_add_memset(src, NULL, 0, &d0, &m1));
    OK(cgn_graph_add_memset(src, &m1, 1, &d1, &m2));
    OK(cgn_graph_create(&parent));
    cgn_child_graph_desc cd = CGN_CHILD_GRAPH_DESC_INIT;
    cd.graph = src;
    OK(cgn_graph_add_child_graph(parent, NULL, 0, &cd, &k));
    OK(cgn_graph_instantiate(parent, &e));

    OK(cgn_graph_create(&fewer));
    cgn_memset_desc f0 = cgn_test_fill_desc(env, 0, 0x21, 0);
    OK(cgn_graph_add_memset(fewer, NULL, 0, &f0, &x));
    cgn_child_graph_update u = CGN_CHILD_GRAPH_UPDATE_INIT;
    u.set = CGN_CHILD_GRAPH_SET_GRAPH;
    u.graph = fewer;
    char want[512];
    cgn_fault_reset_counts();
    assert_int_equal(cgn_child_graph_exec_update(e, k, &u), CGN_ERROR_INVALID_VALUE);
    snprintf(want, sizeof want,
             "cgn_child_graph_exec_update: field graph: graph %p has fewer nodes than the "
             "executable's copy" CHILD_RULE,
             (void *)fewer);
    cgn_test_assert_message(want);
    assert_int_equal(cgn_fault_setter_calls(), 0);

    OK(cgn_graph_create(&typed));
    OK(cgn_graph_add_empty(typed, NULL, 0, &y));
    cgn_memset_desc t1 = cgn_test_fill_desc(env, 1, 0x22, 0);
    OK(cgn_graph_add_memset(typed, &y, 1, &t1, &x));
    u.graph = typed;
    cgn_fault_reset_counts();
    assert_int_equal(cgn_child_graph_exec_update(e, k, &u), CGN_ERROR_INVALID_VALUE);
    snprintf(want, sizeof want,
             "cgn_child_graph_exec_update: field graph: graph %p has a node of another type at "
             "this position (node %p)" CHILD_RULE,
             (void *)typed, (void *)y);
    cgn_test_assert_message(want);
    assert_int_equal(cgn_fault_setter_calls(), 0);
    assert_int_equal(cgn_test_run_read(env, e, 0), 0x11);

    OK(cgn_graph_create(&same));
    cgn_memset_desc s0 = cgn_test_fill_desc(env, 0, 0x31, 0), s1 = cgn_test_fill_desc(env, 1, 0x32, 0);
    OK(cgn_graph_add_memset(same, NULL, 0, &s0, &x));
    OK(cgn_graph_add_memset(same, &x, 1, &s1, &y));
    u.graph = same;
    OK(cgn_child_graph_exec_update(e, k, &u));
    assert_int_equal(cgn_test_run_read(env, e, 0), 0x31);
    assert_int_equal(cgn_test_run_read(env, e, 1), 0x32);

    OK(cgn_exec_destroy(e));
    OK(cgn_graph_destroy(parent));
    OK(cgn_graph_destroy(src));
    OK(cgn_graph_destroy(fewer));
    OK(cgn_graph_destroy(typed));
    OK(cgn_graph_destroy(same));
}

/* ---- cuGraphExecUpdate refusals the fake never makes: a table that refuses every refresh ---- */

static const cgn_driver_table *refusing_inner;
static cgn_driver_table refusing_table;
static CUgraphExecUpdateResult refusing_result;
static CUgraphNode refusing_node;

static CUresult refusing_exec_update(CUgraphExec exec, CUgraph graph,
                                     CUgraphExecUpdateResultInfo *info) {
    (void)exec;
    (void)graph;
    info->result = refusing_result;
    info->errorNode = refusing_node;
    info->errorFromNode = NULL;
    return CUDA_ERROR_GRAPH_EXEC_UPDATE_FAILURE;
}

/* The message of a refused refresh names the driver's result (every documented one, and one it
 * does not know) and, when the driver names a node of the graph, that node and its type. */
static void test_refresh_refusal_names_result_and_node(void **state) {
    cgn_test_env *env = *state;
    cgn_graph *g;
    cgn_node *a, *b;
    cgn_exec *e;
    OK(cgn_graph_create(&g));
    cgn_memset_desc d = cgn_test_fill_desc(env, 0, 0x11, 0);
    OK(cgn_graph_add_memset(g, NULL, 0, &d, &a));
    OK(cgn_graph_add_empty(g, &a, 1, &b));
    OK(cgn_graph_instantiate(g, &e));
    CUgraphNode raw_a, raw_b;
    OK(cgn_node_raw(a, &raw_a));
    OK(cgn_node_raw(b, &raw_b));

    refusing_inner = cgn__driver;
    refusing_table = *refusing_inner;
    refusing_table.cuGraphExecUpdate = refusing_exec_update;
    cgn_driver_install(&refusing_table);

    static const struct {
        CUgraphExecUpdateResult result;
        const char *name;
    } results[] = {
        {CU_GRAPH_EXEC_UPDATE_SUCCESS, "CU_GRAPH_EXEC_UPDATE_SUCCESS"},
        {CU_GRAPH_EXEC_UPDATE_ERROR, "CU_GRAPH_EXEC_UPDATE_ERROR"},
        {CU_GRAPH_EXEC_UPDATE_ERROR_TOPOLOGY_CHANGED,
         "CU_GRAPH_EXEC_UPDATE_ERROR_TOPOLOGY_CHANGED (the graph's topology changed)"},
        {CU_GRAPH_EXEC_UPDATE_ERROR_NODE_TYPE_CHANGED,
         "CU_GRAPH_EXEC_UPDATE_ERROR_NODE_TYPE_CHANGED (a node's type changed)"},
        {CU_GRAPH_EXEC_UPDATE_ERROR_FUNCTION_CHANGED, "CU_GRAPH_EXEC_UPDATE_ERROR_FUNCTION_CHANGED"},
        {CU_GRAPH_EXEC_UPDATE_ERROR_PARAMETERS_CHANGED,
         "CU_GRAPH_EXEC_UPDATE_ERROR_PARAMETERS_CHANGED (a node's parameters changed in a way an "
         "executable cannot follow)"},
        {CU_GRAPH_EXEC_UPDATE_ERROR_NOT_SUPPORTED, "CU_GRAPH_EXEC_UPDATE_ERROR_NOT_SUPPORTED"},
        {CU_GRAPH_EXEC_UPDATE_ERROR_UNSUPPORTED_FUNCTION_CHANGE,
         "CU_GRAPH_EXEC_UPDATE_ERROR_UNSUPPORTED_FUNCTION_CHANGE (a kernel changed in a way an "
         "executable cannot follow, e.g. to another context)"},
        {CU_GRAPH_EXEC_UPDATE_ERROR_ATTRIBUTES_CHANGED,
         "CU_GRAPH_EXEC_UPDATE_ERROR_ATTRIBUTES_CHANGED"},
        {(CUgraphExecUpdateResult)0x7777, "an unknown CUgraphExecUpdateResult"},
    };
    char want[512];
    for (size_t i = 0; i < sizeof results / sizeof results[0]; i++) {
        refusing_result = results[i].result;
        refusing_node = NULL;
        assert_int_equal(cgn_exec_update_from_graph(e, g), CGN_ERROR_DRIVER);
        snprintf(want, sizeof want,
                 "cgn_exec_update_from_graph: cuGraphExecUpdate returned "
                 "CUDA_ERROR_GRAPH_EXEC_UPDATE_FAILURE: %s; the executable is unchanged",
                 results[i].name);
        cgn_test_assert_message(want);
    }
    refusing_result = CU_GRAPH_EXEC_UPDATE_ERROR_ATTRIBUTES_CHANGED;
    refusing_node = raw_a;
    assert_int_equal(cgn_exec_update_from_graph(e, g), CGN_ERROR_DRIVER);
    snprintf(want, sizeof want,
             "cgn_exec_update_from_graph: cuGraphExecUpdate returned "
             "CUDA_ERROR_GRAPH_EXEC_UPDATE_FAILURE: CU_GRAPH_EXEC_UPDATE_ERROR_ATTRIBUTES_CHANGED "
             "at node %p (memset); the executable is unchanged",
             (void *)a);
    cgn_test_assert_message(want);
    refusing_node = raw_b;
    assert_int_equal(cgn_exec_update_from_graph(e, g), CGN_ERROR_DRIVER);
    snprintf(want, sizeof want,
             "cgn_exec_update_from_graph: cuGraphExecUpdate returned "
             "CUDA_ERROR_GRAPH_EXEC_UPDATE_FAILURE: CU_GRAPH_EXEC_UPDATE_ERROR_ATTRIBUTES_CHANGED "
             "at node %p (empty); the executable is unchanged",
             (void *)b);
    cgn_test_assert_message(want);

    cgn_driver_install(refusing_inner);
    assert_int_equal(cgn_test_run_read(env, e, 0), 0x11);
    OK(cgn_exec_destroy(e));
    OK(cgn_graph_destroy(g));
}

/* A refresh installs the graph's versions as seen by no launch yet: replacing one of them at
 * executable level before the next launch releases it at once, so with nothing waiting the
 * next launch records no fence (docs/ownership.md: "A version no launch has seen ... is released
 * at once"; "With no version waiting, a launch records nothing"). Every node of the executable
 * is checked, the first one included. */
static void test_version_from_refresh_unseen_is_released_at_once(void **state) {
    cgn_test_env *env = *state;
    for (int which = 0; which < 2; which++) {
        cgn_graph *g;
        cgn_node *n[2];
        cgn_exec *e;
        OK(cgn_graph_create(&g));
        cgn_memset_desc d0 = cgn_test_fill_desc(env, 0, 0x11, 0), d1 = cgn_test_fill_desc(env, 1, 0x12, 0);
        OK(cgn_graph_add_memset(g, NULL, 0, &d0, &n[0]));
        OK(cgn_graph_add_memset(g, NULL, 0, &d1, &n[1]));
        OK(cgn_graph_instantiate(g, &e));
        OK(cgn_exec_launch(e, NULL));
        OK(cgn_exec_launch(e, NULL));
        /* The graph's node gets an owner the executable's copy does not have yet. */
        cgn_memset_update gu = CGN_MEMSET_UPDATE_INIT;
        cgn_memset_update_set_dst(&gu, env->buf[which], env->owner[which]);
        OK(cgn_memset_node_update(n[which], &gu));
        OK(cgn_exec_update_from_graph(e, g));
        /* Replaced at executable level (no owner) before any launch saw the refreshed copy. */
        cgn_memset_update eu = CGN_MEMSET_UPDATE_INIT;
        cgn_memset_update_set_dst(&eu, env->buf[2 + which], NULL);
        OK(cgn_memset_exec_update(e, n[which], &eu));
        cgn_fault_reset_counts();
        OK(cgn_exec_launch(e, NULL));
        assert_int_equal(cgn_fault_calls(CGN_FAULT_cuEventRecord), 0);
        assert_int_equal(cgn_fault_calls(CGN_FAULT_cuEventCreate), 0);
        assert_int_equal(cgn_test_run_read(env, e, 2 + which), 0x11 + which);
        OK(cgn_exec_destroy(e));
        OK(cgn_graph_destroy(g));
    }
}

/* ---- handles ----------------------------------------------------------------------------------- */

/* A pointer that is no cgn handle (small integers, whatever the kind bits of its upper half) is
 * reported as such, naming the call and the argument. */
static void test_not_a_handle_message(void **state) {
    (void)state;
    cgn_graph *g; /* makes sure handle slots exist */
    OK(cgn_graph_create(&g));
    static const uintptr_t values[] = {0x1, 0x10, 0x2a, 0x100000000u};
    char want[256];
    for (size_t i = 0; i < sizeof values / sizeof values[0]; i++) {
        void *p = (void *)values[i];
        assert_int_equal(cgn_graph_destroy((cgn_graph *)p), CGN_ERROR_INVALID_ARGUMENT);
        snprintf(want, sizeof want, "cgn_graph_destroy: graph %p is not a cgn handle", p);
        cgn_test_assert_message(want);
        assert_int_equal(cgn_exec_launch((cgn_exec *)p, NULL), CGN_ERROR_INVALID_ARGUMENT);
        snprintf(want, sizeof want, "cgn_exec_launch: exec %p is not a cgn handle", p);
        cgn_test_assert_message(want);
        assert_int_equal(cgn_node_destroy((cgn_node *)p), CGN_ERROR_INVALID_ARGUMENT);
        snprintf(want, sizeof want, "cgn_node_destroy: node %p is not a cgn handle", p);
        cgn_test_assert_message(want);
    }
    OK(cgn_graph_destroy(g));
}

/* ---- child graphs: dependencies and nested embeddings ----------------------------------------- */

/* A source of the same node types and dependency counts whose dependency points at another node
 * than the executable's copy is refused, naming the node; the driver is not asked. */
static void test_exec_child_graph_other_dependencies_refused(void **state) {
    cgn_test_env *env = *state;
    cgn_graph *src, *parent, *other;
    cgn_node *a, *b, *c, *x, *y, *z, *k;
    cgn_exec *e;
    OK(cgn_graph_create(&src));
    cgn_memset_desc d0 = cgn_test_fill_desc(env, 0, 0x11, 0), d1 = cgn_test_fill_desc(env, 1, 0x12, 0),
                    d2 = cgn_test_fill_desc(env, 2, 0x13, 0);
    OK(cgn_graph_add_memset(src, NULL, 0, &d0, &a));
    OK(cgn_graph_add_memset(src, NULL, 0, &d1, &b));
    OK(cgn_graph_add_memset(src, &a, 1, &d2, &c));
    OK(cgn_graph_create(&parent));
    cgn_child_graph_desc cd = CGN_CHILD_GRAPH_DESC_INIT;
    cd.graph = src;
    OK(cgn_graph_add_child_graph(parent, NULL, 0, &cd, &k));
    OK(cgn_graph_instantiate(parent, &e));

    OK(cgn_graph_create(&other));
    cgn_memset_desc o0 = cgn_test_fill_desc(env, 0, 0x21, 0), o1 = cgn_test_fill_desc(env, 1, 0x22, 0),
                    o2 = cgn_test_fill_desc(env, 2, 0x23, 0);
    OK(cgn_graph_add_memset(other, NULL, 0, &o0, &x));
    OK(cgn_graph_add_memset(other, NULL, 0, &o1, &y));
    OK(cgn_graph_add_memset(other, &y, 1, &o2, &z)); /* depends on the second node, not the first */
    cgn_child_graph_update u = CGN_CHILD_GRAPH_UPDATE_INIT;
    u.set = CGN_CHILD_GRAPH_SET_GRAPH;
    u.graph = other;
    cgn_fault_reset_counts();
    assert_int_equal(cgn_child_graph_exec_update(e, k, &u), CGN_ERROR_INVALID_VALUE);
    char want[512];
    snprintf(want, sizeof want,
             "cgn_child_graph_exec_update: field graph: graph %p has different dependencies "
             "(node %p)" CHILD_RULE,
             (void *)other, (void *)z);
    cgn_test_assert_message(want);
    assert_int_equal(cgn_fault_setter_calls(), 0);
    assert_int_equal(cgn_test_run_read(env, e, 2), 0x13);

    OK(cgn_exec_destroy(e));
    OK(cgn_graph_destroy(parent));
    OK(cgn_graph_destroy(src));
    OK(cgn_graph_destroy(other));
}

/* A source whose own child graph differs in topology (one level down) is refused like a
 * difference at the top: the message names the source; the driver is not asked. */
static void test_exec_child_graph_nested_topology_is_checked(void **state) {
    cgn_test_env *env = *state;
    cgn_graph *inner, *src, *parent, *inner2, *other;
    cgn_node *m1, *m2, *c, *k, *x, *c2;
    cgn_exec *e;
    OK(cgn_graph_create(&inner));
    cgn_memset_desc d0 = cgn_test_fill_desc(env, 0, 0x11, 0), d1 = cgn_test_fill_desc(env, 1, 0x12, 0);
    OK(cgn_graph_add_memset(inner, NULL, 0, &d0, &m1));
    OK(cgn_graph_add_memset(inner, &m1, 1, &d1, &m2));
    OK(cgn_graph_create(&src));
    cgn_child_graph_desc cd = CGN_CHILD_GRAPH_DESC_INIT;
    cd.graph = inner;
    OK(cgn_graph_add_child_graph(src, NULL, 0, &cd, &c));
    OK(cgn_graph_create(&parent));
    cd.graph = src;
    OK(cgn_graph_add_child_graph(parent, NULL, 0, &cd, &k));
    OK(cgn_graph_instantiate(parent, &e));

    OK(cgn_graph_create(&inner2));
    cgn_memset_desc f0 = cgn_test_fill_desc(env, 0, 0x21, 0);
    OK(cgn_graph_add_memset(inner2, NULL, 0, &f0, &x));
    OK(cgn_graph_create(&other));
    cd.graph = inner2;
    OK(cgn_graph_add_child_graph(other, NULL, 0, &cd, &c2));
    cgn_child_graph_update u = CGN_CHILD_GRAPH_UPDATE_INIT;
    u.set = CGN_CHILD_GRAPH_SET_GRAPH;
    u.graph = other;
    cgn_fault_reset_counts();
    assert_int_equal(cgn_child_graph_exec_update(e, k, &u), CGN_ERROR_INVALID_VALUE);
    char want[512];
    snprintf(want, sizeof want,
             "cgn_child_graph_exec_update: field graph: graph %p has fewer nodes than the "
             "executable's copy" CHILD_RULE,
             (void *)other);
    cgn_test_assert_message(want);
    assert_int_equal(cgn_fault_setter_calls(), 0);
    assert_int_equal(cgn_test_run_read(env, e, 1), 0x12);

    OK(cgn_exec_destroy(e));
    OK(cgn_graph_destroy(parent));
    OK(cgn_graph_destroy(src));
    OK(cgn_graph_destroy(inner));
    OK(cgn_graph_destroy(other));
    OK(cgn_graph_destroy(inner2));
}

/* ---- an embedding that could not be located ----------------------------------------------- */

static cgn_driver_table lost_table;

static CUresult lost_child_graph(CUgraphNode node, CUgraph *graph_out) {
    (void)node;
    (void)graph_out;
    return CUDA_ERROR_INVALID_VALUE;
}

/* When the driver cannot give the new embedding after a child node's graph was replaced, the
 * embedded graph handle reports it when instantiated (docs/errors.md, CGN_ERROR_DRIVER). */
static void test_instantiate_lost_embedding_message(void **state) {
    cgn_test_env *env = *state;
    cgn_graph *src, *parent, *repl, *embedded;
    cgn_node *m, *k, *r;
    cgn_exec *e = NULL;
    OK(cgn_graph_create(&src));
    cgn_memset_desc d0 = cgn_test_fill_desc(env, 0, 0x11, 0);
    OK(cgn_graph_add_memset(src, NULL, 0, &d0, &m));
    OK(cgn_graph_create(&parent));
    cgn_child_graph_desc cd = CGN_CHILD_GRAPH_DESC_INIT;
    cd.graph = src;
    OK(cgn_graph_add_child_graph(parent, NULL, 0, &cd, &k));
    OK(cgn_graph_create(&repl));
    cgn_memset_desc r0 = cgn_test_fill_desc(env, 0, 0x21, 0);
    OK(cgn_graph_add_memset(repl, NULL, 0, &r0, &r));

    const cgn_driver_table *inner = cgn__driver;
    lost_table = *inner;
    lost_table.cuGraphChildGraphNodeGetGraph = lost_child_graph;
    cgn_driver_install(&lost_table);
    cgn_child_graph_update u = CGN_CHILD_GRAPH_UPDATE_INIT;
    u.set = CGN_CHILD_GRAPH_SET_GRAPH;
    u.graph = repl;
    cgn_status st = cgn_child_graph_node_update(k, &u);
    cgn_driver_install(inner);
    OK(st);

    OK(cgn_child_graph_node_embedded(k, &embedded));
    assert_int_equal(cgn_graph_instantiate(embedded, &e), CGN_ERROR_DRIVER);
    char want[512];
    snprintf(want, sizeof want,
             "cgn_graph_instantiate: embedded graph %p could not be located after its child "
             "node was replaced",
             (void *)embedded);
    cgn_test_assert_message(want);
    assert_null(e);

    OK(cgn_graph_destroy(parent));
    OK(cgn_graph_destroy(src));
    OK(cgn_graph_destroy(repl));
}

/* ---- fences: contexts and cgn_collect ------------------------------------------------------- */

/* From context 0: a memset executable whose exec-level version alone holds owner 1 (the
 * caller's references are dropped), with launch completion held back. Returns context 0. */
static CUcontext exec_holding_owner_1(cgn_test_env *env, cgn_graph **g, cgn_node **n,
                                      cgn_exec **e) {
    CUcontext c0 = cgn_fake_context(0);
    cgn_fake_set_current_context(c0);
    OK(cgn_graph_create(g));
    cgn_memset_desc d = cgn_test_fill_desc(env, 0, 0x11, 0);
    OK(cgn_graph_add_memset(*g, NULL, 0, &d, n));
    OK(cgn_graph_instantiate(*g, e));
    cgn_memset_update u = CGN_MEMSET_UPDATE_INIT;
    cgn_memset_update_set_dst(&u, env->buf[1], env->owner[1]);
    OK(cgn_memset_exec_update(*e, *n, &u));
    cgn_test_env_drop_owners(env);
    cgn_collect(); /* the owners nothing holds any more */
    cgn_fake_hold_completion(1);
    return c0;
}

/* A launch from the executable's own context makes its fence event there without touching the
 * context stack, and cgn_collect() polls it the same way; cgn_collect() returns the number of
 * releases it ran: the retired version and its owner. */
static void test_fence_in_own_context_and_collect_count(void **state) {
    cgn_test_env *env = *state;
    cgn_graph *g;
    cgn_node *n;
    cgn_exec *e;
    CUcontext c0 = exec_holding_owner_1(env, &g, &n, &e);
    cgn_fault_reset_counts();
    OK(cgn_exec_launch(e, NULL)); /* in flight, reading owner 1's buffer: fenced */
    assert_int_equal(cgn_fault_calls(CGN_FAULT_cuEventCreate), 1);
    assert_int_equal(cgn_fault_calls(CGN_FAULT_cuEventRecord), 1);
    assert_int_equal(cgn_fault_calls(CGN_FAULT_cuCtxPushCurrent), 0);
    assert_int_equal(cgn_fault_calls(CGN_FAULT_cuCtxPopCurrent), 0);
    cgn_memset_update back = CGN_MEMSET_UPDATE_INIT;
    cgn_memset_update_set_dst(&back, env->buf[2], NULL);
    OK(cgn_memset_exec_update(e, n, &back)); /* owner 1's version retires, waiting on the fence */
    cgn_fault_reset_counts();
    assert_int_equal(cgn_collect(), 0); /* its launch has not completed */
    assert_true(cgn_fault_calls(CGN_FAULT_cuEventQuery) >= 1);
    assert_int_equal(cgn_fault_calls(CGN_FAULT_cuCtxPushCurrent), 0);
    assert_int_equal(cgn_fault_calls(CGN_FAULT_cuCtxPopCurrent), 0);
    assert_int_equal(env->released[1], 0);
    cgn_fake_hold_completion(0);
    assert_int_equal(cgn_fake_complete_pending(), 1);
    cgn_fault_reset_counts();
    assert_int_equal(cgn_collect(), 1); /* the retired version (owner 1 goes with it) */
    assert_int_equal(cgn_fault_calls(CGN_FAULT_cuCtxPushCurrent), 0);
    assert_int_equal(env->released[1], 1);
    assert_int_equal(cgn_collect(), 0);
    CUcontext now = NULL;
    assert_int_equal(cgn_fake_table()->cuCtxGetCurrent(&now), CUDA_SUCCESS);
    assert_ptr_equal(now, c0);
    OK(cgn_exec_destroy(e));
    OK(cgn_graph_destroy(g));
}

/* An executable destroyed with a launch in flight, from its own context: cgn_collect() polls the
 * launch's fence without touching the context stack, and once the launch completed releases what
 * the executable held, returning the number released. */
static void test_destroyed_in_flight_polled_in_own_context(void **state) {
    cgn_test_env *env = *state;
    cgn_graph *g;
    cgn_node *n;
    cgn_exec *e;
    CUcontext c0 = exec_holding_owner_1(env, &g, &n, &e);
    OK(cgn_exec_launch(e, NULL));
    OK(cgn_exec_destroy(e)); /* in flight: owner 1 waits for the launch */
    cgn_fault_reset_counts();
    assert_int_equal(cgn_collect(), 0);
    assert_true(cgn_fault_calls(CGN_FAULT_cuEventQuery) >= 1);
    assert_int_equal(cgn_fault_calls(CGN_FAULT_cuCtxPushCurrent), 0);
    assert_int_equal(cgn_fault_calls(CGN_FAULT_cuCtxPopCurrent), 0);
    assert_int_equal(env->released[1], 0);
    cgn_fake_hold_completion(0);
    assert_int_equal(cgn_fake_complete_pending(), 1);
    cgn_fault_reset_counts();
    assert_int_equal(cgn_collect(), 1); /* the executable's version (owner 1 goes with it) */
    assert_int_equal(cgn_fault_calls(CGN_FAULT_cuCtxPushCurrent), 0);
    assert_int_equal(cgn_fault_calls(CGN_FAULT_cuCtxPopCurrent), 0);
    assert_int_equal(env->released[1], 1);
    CUcontext now = NULL;
    assert_int_equal(cgn_fake_table()->cuCtxGetCurrent(&now), CUDA_SUCCESS);
    assert_ptr_equal(now, c0);
    OK(cgn_graph_destroy(g));
}

/* ---- version gate, driver failures, contexts (seed-5 survivors) ----------------------------- */

/* Executable node updates need cuGraphExecNodeSetParams (CUDA 12.2): a driver of exactly 12.2 is
 * accepted, 12.1 refused with the documented message and nothing changed. */
static void test_exec_update_version_gate_boundary(void **state) {
    cgn_test_env *env = *state;
    cgn_graph *g;
    cgn_node *n;
    cgn_exec *e;
    cgn_test_fill_graph(env, &g, &n, &e);
    cgn_fault_set_version(12010);
    cgn_memset_update u = CGN_MEMSET_UPDATE_INIT;
    cgn_memset_update_set_value(&u, 0x22, 1);
    assert_int_equal(cgn_memset_exec_update(e, n, &u), CGN_ERROR_DRIVER_TOO_OLD);
    cgn_test_assert_message(
        "executable node updates need CUDA driver 12.2 or newer; this driver is 12.1");
    cgn_fault_set_version(12020);
    assert_int_equal(cgn_test_run_read(env, e, 0), 0x11);
    OK(cgn_memset_exec_update(e, n, &u));
    assert_int_equal(cgn_test_run_read(env, e, 0), 0x22);
    OK(cgn_exec_destroy(e));
    OK(cgn_graph_destroy(g));
}

/* cuGraphDestroyNode failing: the status and message name the driver's result, the node stays
 * alive and in the graph. */
static void test_node_destroy_driver_failure(void **state) {
    cgn_test_env *env = *state;
    cgn_graph *g;
    cgn_node *n;
    cgn_exec *e;
    OK(cgn_graph_create(&g));
    cgn_memset_desc d = cgn_test_fill_desc(env, 0, 0x11, 0);
    OK(cgn_graph_add_memset(g, NULL, 0, &d, &n));
    cgn_fault_arm(1, CUDA_ERROR_INVALID_VALUE);
    assert_int_equal(cgn_node_destroy(n), CGN_ERROR_DRIVER);
    cgn_fault_entry which;
    assert_true(cgn_fault_triggered(&which));
    assert_int_equal(which, CGN_FAULT_cuGraphDestroyNode);
    cgn_test_assert_message(
        "cgn_node_destroy: cuGraphDestroyNode returned CUDA_ERROR_INVALID_VALUE (1)");
    assert_int_equal(cgn_node_is_alive(n), 1);
    OK(cgn_graph_instantiate(g, &e));
    assert_int_equal(cgn_test_run_read(env, e, 0), 0x11);
    OK(cgn_exec_destroy(e));
    OK(cgn_node_destroy(n));
    OK(cgn_graph_destroy(g));
}

/* Enabling a node of another context than the current one pushes the node's context for the
 * call and pops it: one push, one pop, the caller's context current after. */
static void test_set_enabled_in_node_context(void **state) {
    cgn_test_env *env = *state;
    CUcontext c0 = cgn_fake_context(0), c1 = cgn_fake_context(1);
    cgn_fake_set_current_context(c1);
    cgn_graph *g;
    cgn_node *n;
    cgn_exec *e;
    cgn_test_fill_graph(env, &g, &n, &e);
    cgn_fake_set_current_context(c0);
    cgn_fault_reset_counts();
    OK(cgn_exec_node_set_enabled(e, n, 0));
    assert_int_equal(cgn_fault_calls(CGN_FAULT_cuCtxPushCurrent), 1);
    assert_int_equal(cgn_fault_calls(CGN_FAULT_cuCtxPopCurrent), 1);
    CUcontext now = NULL;
    assert_int_equal(cgn_fake_table()->cuCtxGetCurrent(&now), CUDA_SUCCESS);
    assert_ptr_equal(now, c0);
    int enabled = -1;
    OK(cgn_exec_node_get_enabled(e, n, &enabled));
    assert_int_equal(enabled, 0);
    OK(cgn_exec_destroy(e));
    OK(cgn_graph_destroy(g));
}

/* A driver whose cuGraphExecNodeSetParams makes a context current when none was (seen on the
 * H200): cgn puts the caller's state back, none current after the update. */
static cgn_driver_table sneaky_table;
static CUresult sneaky_exec_set_params(CUgraphExec x, CUgraphNode node, CUgraphNodeParams *p) {
    cgn_fake_set_current_context(cgn_fake_context(2));
    return cgn_fake_table()->cuGraphExecNodeSetParams(x, node, p);
}

static int host_calls;
static void count_host_call(void *data) {
    (void)data;
    host_calls++;
}
static void count_host_call_twice(void *data) {
    (void)data;
    host_calls += 2;
}

static void test_exec_update_restores_no_context(void **state) {
    cgn_test_env *env = *state;
    sneaky_table = *cgn_fake_table();
    sneaky_table.cuGraphExecNodeSetParams = sneaky_exec_set_params;
    cgn_fault_install(&sneaky_table);
    cgn_fake_set_current_context(NULL);
    cgn_graph *g;
    cgn_node *n;
    cgn_exec *e;
    OK(cgn_graph_create(&g));
    cgn_host_callback_desc d = CGN_HOST_CALLBACK_DESC_INIT;
    d.fn = count_host_call;
    OK(cgn_graph_add_host_callback(g, NULL, 0, &d, &n));
    OK(cgn_graph_instantiate(g, &e));
    cgn_host_callback_update u = CGN_HOST_CALLBACK_UPDATE_INIT;
    cgn_host_callback_update_set_fn(&u, count_host_call_twice, NULL, NULL, NULL, 0);
    OK(cgn_host_callback_exec_update(e, n, &u));
    CUcontext now = cgn_fake_context(3);
    assert_int_equal(cgn_fake_table()->cuCtxGetCurrent(&now), CUDA_SUCCESS);
    assert_null(now);
    cgn_fake_set_current_context(cgn_fake_context(0));
    host_calls = 0;
    OK(env->backend->launch(env, e));
    assert_int_equal(host_calls, 2);
    OK(cgn_exec_destroy(e));
    OK(cgn_graph_destroy(g));
}

/* ---- NULL arguments ------------------------------------------------------------------------ */

static void test_null_argument_messages(void **state) {
    (void)state;
    cgn_graph *g, *out = NULL;
    cgn_node *n;
    OK(cgn_graph_create(&g));
    OK(cgn_graph_add_empty(g, NULL, 0, &n));
    assert_int_equal(cgn_graph_raw(g, NULL), CGN_ERROR_INVALID_ARGUMENT);
    cgn_test_assert_message("cgn_graph_raw: raw_out is NULL");
    assert_int_equal(cgn_node_graph(n, NULL), CGN_ERROR_INVALID_ARGUMENT);
    cgn_test_assert_message("cgn_node_graph: graph_out is NULL");
    assert_int_equal(cgn_node_graph(NULL, &out), CGN_ERROR_INVALID_ARGUMENT);
    cgn_test_assert_message("cgn_node_graph: node is NULL");
    assert_null(out);
    assert_int_equal(cgn_graph_destroy(NULL), CGN_ERROR_INVALID_ARGUMENT);
    cgn_test_assert_message("cgn_graph_destroy: graph is NULL");
    OK(cgn_node_graph(n, &out));
    assert_ptr_equal(out, g);
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
        T(test_refresh_refuses_node_of_another_type),
        T(test_refresh_refuses_node_added_in_a_destroyed_slot),
        T(test_refresh_refuses_fewer_nodes),
        T(test_exec_child_graph_topology_is_checked),
        T(test_refresh_refusal_names_result_and_node),
        T(test_version_from_refresh_unseen_is_released_at_once),
        T(test_not_a_handle_message),
        T(test_exec_child_graph_other_dependencies_refused),
        T(test_exec_child_graph_nested_topology_is_checked),
        T(test_instantiate_lost_embedding_message),
        T(test_fence_in_own_context_and_collect_count),
        T(test_destroyed_in_flight_polled_in_own_context),
        T(test_null_argument_messages),
        T(test_exec_update_version_gate_boundary),
        T(test_node_destroy_driver_failure),
        T(test_set_enabled_in_node_context),
        T(test_exec_update_restores_no_context),
    };
#undef T
    return cmocka_run_group_tests(tests, NULL, NULL);
}
