/* Generated from spec/mem_free.yaml by codegen; do not edit. */
#include <string.h>

#include "cgn_test_env.h"
#include "cgn_test_cases.h"

extern const cgn_test_case cgn_test_cases_mem_free[];
extern const size_t cgn_test_cases_mem_free_count;
extern const cgn_test_type cgn_test_type_mem_free;

/* ---- cases: each fill function writes a full desc or an update ---- */

static void case_mem_free_original(cgn_test_env *env, void *out) {
    cgn_mem_free_desc *d = out;
    *d = (cgn_mem_free_desc)CGN_MEM_FREE_DESC_INIT;
    d->dptr = cgn_test_graph_alloc(env, 0);
}

const cgn_test_case cgn_test_cases_mem_free[] = {
    {"mem-free", case_mem_free_original, NULL, NULL, NULL, 0, NULL, 0, NULL},
};
const size_t cgn_test_cases_mem_free_count = 1;

/* ---- type adapter: lets scenario runners treat every node type alike ---- */

static cgn_status type_mem_free_add(cgn_graph *g, const void *desc, cgn_node **out) {
    return cgn_graph_add_mem_free(g, NULL, 0, desc, out);
}

static cgn_status type_mem_free_get(const cgn_node *n, void *desc) {
    return cgn_mem_free_node_get(n, desc);
}

static cgn_status type_mem_free_exec_get(const cgn_exec *e, const cgn_node *n, void *desc) {
    return cgn_mem_free_exec_get(e, n, desc);
}

static int type_mem_free_desc_equal(const void *a_, const void *b_) {
    const cgn_mem_free_desc *a = a_;
    const cgn_mem_free_desc *b = b_;
    return a->dptr == b->dptr;
}

/* desc_equal and the output fields (what the driver chose at add) too. */
static int type_mem_free_desc_same(const void *a_, const void *b_) {
    return type_mem_free_desc_equal(a_, b_);
}

const cgn_test_type cgn_test_type_mem_free = {
    "mem_free", CGN_NODE_MEM_FREE, sizeof(cgn_mem_free_desc), 0, type_mem_free_add, NULL,
    type_mem_free_get, NULL, type_mem_free_exec_get, NULL, type_mem_free_desc_equal,
    type_mem_free_desc_same, cgn_test_cases_mem_free, 1
};
