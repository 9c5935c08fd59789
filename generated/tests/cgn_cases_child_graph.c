/* Generated from spec/child_graph.yaml by codegen; do not edit. */
#include <string.h>

#include "cgn_test_env.h"
#include "cgn_test_cases.h"

extern const cgn_test_case cgn_test_cases_child_graph[];
extern const size_t cgn_test_cases_child_graph_count;
extern const cgn_test_type cgn_test_type_child_graph;

/* ---- cases: each fill function writes a full desc or an update ---- */

static void case_child_graph_original(cgn_test_env *env, void *out) {
    cgn_child_graph_desc *d = out;
    *d = (cgn_child_graph_desc)CGN_CHILD_GRAPH_DESC_INIT;
    d->graph = cgn_test_graph(env, 0);
}

static void case_child_graph_update(cgn_test_env *env, void *out) {
    cgn_child_graph_update *u = out;
    *u = (cgn_child_graph_update)CGN_CHILD_GRAPH_UPDATE_INIT;
    u->set = CGN_CHILD_GRAPH_SET_GRAPH;
    u->graph = cgn_test_graph(env, 1);
}

static void case_child_graph_replacement(cgn_test_env *env, void *out) {
    cgn_child_graph_desc *d = out;
    *d = (cgn_child_graph_desc)CGN_CHILD_GRAPH_DESC_INIT;
    d->graph = cgn_test_graph(env, 1);
}

static void case_child_graph_invalid_0(cgn_test_env *env, void *out) {
    (void)env;
    cgn_child_graph_update *u = out;
    *u = (cgn_child_graph_update)CGN_CHILD_GRAPH_UPDATE_INIT;
    u->set = CGN_CHILD_GRAPH_SET_GRAPH;
    u->graph = NULL;
}

static const cgn_test_invalid case_child_graph_invalid[] = {
    {case_child_graph_invalid_0, CGN_ERROR_INVALID_VALUE, "{graph: null}"},
};

const cgn_test_case cgn_test_cases_child_graph[] = {
    {"child-graph", case_child_graph_original, case_child_graph_update,
     case_child_graph_replacement, case_child_graph_invalid, 1, NULL, 0, NULL},
};
const size_t cgn_test_cases_child_graph_count = 1;

/* ---- type adapter: lets scenario runners treat every node type alike ---- */

static cgn_status type_child_graph_add(cgn_graph *g, const void *desc, cgn_node **out) {
    return cgn_graph_add_child_graph(g, NULL, 0, desc, out);
}

static cgn_status type_child_graph_update(cgn_node *n, const void *u) {
    return cgn_child_graph_node_update(n, u);
}

static cgn_status type_child_graph_get(const cgn_node *n, void *desc) {
    return cgn_child_graph_node_get(n, desc);
}

static cgn_status type_child_graph_exec_update(cgn_exec *e, cgn_node *n, const void *u) {
    return cgn_child_graph_exec_update(e, n, u);
}

static cgn_status type_child_graph_exec_get(const cgn_exec *e, const cgn_node *n, void *desc) {
    return cgn_child_graph_exec_get(e, n, desc);
}

static void type_child_graph_update_from_desc(void *u, const void *desc) {
    cgn_child_graph_update_from_desc(u, desc);
}

static int type_child_graph_desc_equal(const void *a_, const void *b_) {
    const cgn_child_graph_desc *a = a_;
    const cgn_child_graph_desc *b = b_;
    return a->graph == b->graph;
}

/* desc_equal and the output fields (what the driver chose at add) too. */
static int type_child_graph_desc_same(const void *a_, const void *b_) {
    return type_child_graph_desc_equal(a_, b_);
}

const cgn_test_type cgn_test_type_child_graph = {
    "child_graph", CGN_NODE_CHILD_GRAPH, sizeof(cgn_child_graph_desc),
    sizeof(cgn_child_graph_update), type_child_graph_add, type_child_graph_update,
    type_child_graph_get, type_child_graph_exec_update, type_child_graph_exec_get,
    type_child_graph_update_from_desc, type_child_graph_desc_equal, type_child_graph_desc_same,
    cgn_test_cases_child_graph, 1
};
