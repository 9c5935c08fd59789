/* Generated from spec/conditional.yaml by codegen; do not edit. */
#include <string.h>

#include "cgn_test_env.h"
#include "cgn_test_cases.h"

extern const cgn_test_case cgn_test_cases_conditional[];
extern const size_t cgn_test_cases_conditional_count;
extern const cgn_test_type cgn_test_type_conditional;

/* ---- cases: each fill function writes a full desc or an update ---- */

static void case_conditional_if_original(cgn_test_env *env, void *out) {
    (void)env;
    cgn_conditional_desc *d = out;
    *d = (cgn_conditional_desc)CGN_CONDITIONAL_DESC_INIT;
    d->type = 0;
    d->size = 1;
    d->handle_default = 0u;
    d->handle_assign = 1u;
}

static void case_conditional_while_original(cgn_test_env *env, void *out) {
    (void)env;
    cgn_conditional_desc *d = out;
    *d = (cgn_conditional_desc)CGN_CONDITIONAL_DESC_INIT;
    d->type = 1;
    d->size = 1;
    d->handle_default = 0u;
    d->handle_assign = 1u;
}

static void case_conditional_if_else_original(cgn_test_env *env, void *out) {
    (void)env;
    cgn_conditional_desc *d = out;
    *d = (cgn_conditional_desc)CGN_CONDITIONAL_DESC_INIT;
    d->type = 0;
    d->size = 2;
    d->handle_default = 0u;
    d->handle_assign = 1u;
}

static void case_conditional_switch_original(cgn_test_env *env, void *out) {
    (void)env;
    cgn_conditional_desc *d = out;
    *d = (cgn_conditional_desc)CGN_CONDITIONAL_DESC_INIT;
    d->type = 2;
    d->size = 3;
    d->handle_default = 1u;
    d->handle_assign = 1u;
}

const cgn_test_case cgn_test_cases_conditional[] = {
    {"conditional-if", case_conditional_if_original, NULL, NULL, NULL, 0, NULL, 0, NULL},
    {"conditional-while", case_conditional_while_original, NULL, NULL, NULL, 0, NULL, 0, NULL},
    {"conditional-if-else", case_conditional_if_else_original, NULL, NULL, NULL, 0, NULL, 0, NULL},
    {"conditional-switch", case_conditional_switch_original, NULL, NULL, NULL, 0, NULL, 0, NULL},
};
const size_t cgn_test_cases_conditional_count = 4;

/* ---- type adapter: lets scenario runners treat every node type alike ---- */

static cgn_status type_conditional_add(cgn_graph *g, const void *desc, cgn_node **out) {
    return cgn_graph_add_conditional(g, NULL, 0, desc, out);
}

static cgn_status type_conditional_get(const cgn_node *n, void *desc) {
    return cgn_conditional_node_get(n, desc);
}

static cgn_status type_conditional_exec_get(const cgn_exec *e, const cgn_node *n, void *desc) {
    return cgn_conditional_exec_get(e, n, desc);
}

static int type_conditional_desc_equal(const void *a_, const void *b_) {
    const cgn_conditional_desc *a = a_;
    const cgn_conditional_desc *b = b_;
    return a->type == b->type && a->size == b->size &&
           a->handle_default == b->handle_default && a->handle_assign == b->handle_assign;
}

/* desc_equal and the output fields (what the driver chose at add) too. */
static int type_conditional_desc_same(const void *a_, const void *b_) {
    return type_conditional_desc_equal(a_, b_);
}

const cgn_test_type cgn_test_type_conditional = {
    "conditional", CGN_NODE_CONDITIONAL, sizeof(cgn_conditional_desc), 0, type_conditional_add,
    NULL, type_conditional_get, NULL, type_conditional_exec_get, NULL, type_conditional_desc_equal,
    type_conditional_desc_same, cgn_test_cases_conditional, 4
};
