/* Generated from spec/mem_alloc.yaml by codegen; do not edit. */
#include <string.h>

#include "cgn_test_env.h"
#include "cgn_test_cases.h"

extern const cgn_test_case cgn_test_cases_mem_alloc[];
extern const size_t cgn_test_cases_mem_alloc_count;
extern const cgn_test_type cgn_test_type_mem_alloc;

/* ---- cases: each fill function writes a full desc or an update ---- */

static void case_mem_alloc_64_original(cgn_test_env *env, void *out) {
    (void)env;
    cgn_mem_alloc_desc *d = out;
    *d = (cgn_mem_alloc_desc)CGN_MEM_ALLOC_DESC_INIT;
    d->bytesize = 64;
    d->device = 0;
}

static void case_mem_alloc_1m_original(cgn_test_env *env, void *out) {
    (void)env;
    cgn_mem_alloc_desc *d = out;
    *d = (cgn_mem_alloc_desc)CGN_MEM_ALLOC_DESC_INIT;
    d->bytesize = 1048576;
    d->device = 0;
}

const cgn_test_case cgn_test_cases_mem_alloc[] = {
    {"mem-alloc-64", case_mem_alloc_64_original, NULL, NULL, NULL, 0, NULL, 0, NULL},
    {"mem-alloc-1m", case_mem_alloc_1m_original, NULL, NULL, NULL, 0, NULL, 0, NULL},
};
const size_t cgn_test_cases_mem_alloc_count = 2;

/* ---- type adapter: lets scenario runners treat every node type alike ---- */

static cgn_status type_mem_alloc_add(cgn_graph *g, const void *desc, cgn_node **out) {
    return cgn_graph_add_mem_alloc(g, NULL, 0, desc, out);
}

static cgn_status type_mem_alloc_get(const cgn_node *n, void *desc) {
    return cgn_mem_alloc_node_get(n, desc);
}

static cgn_status type_mem_alloc_exec_get(const cgn_exec *e, const cgn_node *n, void *desc) {
    return cgn_mem_alloc_exec_get(e, n, desc);
}

static int type_mem_alloc_desc_equal(const void *a_, const void *b_) {
    const cgn_mem_alloc_desc *a = a_;
    const cgn_mem_alloc_desc *b = b_;
    return a->bytesize == b->bytesize && a->device == b->device;
}

/* desc_equal and the output fields (what the driver chose at add) too. */
static int type_mem_alloc_desc_same(const void *a_, const void *b_) {
    const cgn_mem_alloc_desc *a = a_;
    const cgn_mem_alloc_desc *b = b_;
    return type_mem_alloc_desc_equal(a_, b_) && a->dptr == b->dptr;
}

const cgn_test_type cgn_test_type_mem_alloc = {
    "mem_alloc", CGN_NODE_MEM_ALLOC, sizeof(cgn_mem_alloc_desc), 0, type_mem_alloc_add, NULL,
    type_mem_alloc_get, NULL, type_mem_alloc_exec_get, NULL, type_mem_alloc_desc_equal,
    type_mem_alloc_desc_same, cgn_test_cases_mem_alloc, 2
};
