/* Generated from spec/mem_free.yaml by codegen; do not edit. */
#include <string.h>

#include "runtime.h"

/* One bit per field (the node type has no update struct: these stay private). */
#define CGN_MEM_FREE_SET_DPTR UINT64_C(0x1)
#define CGN_MEM_FREE_SET_ALL UINT64_C(0x1)

/* Field rules from the spec, checked on the complete (merged) parameters. */
CGN__ALWAYS_INLINE static inline cgn_status mem_free_check_rules(const cgn_mem_free_desc *d,
                                                                 uint64_t changed,
                                                                 const char *where) {
    if ((changed & (CGN_MEM_FREE_SET_DPTR)) && (d->dptr == 0))
        return cgn__fail(CGN_ERROR_INVALID_VALUE, "%s: dptr must not be 0", where);
    return CGN_OK;
}

/* Checks of field kinds that need more than a rule (kernel handles, argument lists). */
CGN__ALWAYS_INLINE static inline cgn_status mem_free_check_kinds(const cgn_mem_free_desc *d,
                                                                 uint64_t changed,
                                                                 const char *where) {
    (void)d;
    (void)changed;
    (void)where;
    return CGN_OK;
}

/* Stages cgn-owned copies of borrowed fields (checking them where that needs the driver);
 * *d is rewritten to point at the copies. */
CGN__ALWAYS_INLINE static inline cgn_status mem_free_stage(cgn__txn *txn, cgn_mem_free_desc *d,
                                                           const void *u, uint64_t changed,
                                                           CUgraphNodeParams *p,
                                                           const char *where) {
    (void)txn;
    (void)d;
    (void)u;
    (void)changed;
    (void)p;
    (void)where;
    return CGN_OK;
}

/* The owners of the new version, in the spec's `owners` order. */
CGN__ALWAYS_INLINE static inline cgn_status mem_free_stage_owners(cgn__txn *txn,
                                                                  const cgn_mem_free_desc *d) {
(void)d;
    return cgn__txn_stage_owners(txn, NULL, 0, NULL, 0);
}

/* Fills the driver params from the merged fields; fields staged by mem_free_stage are kept. */
CGN__ALWAYS_INLINE static inline void mem_free_build(const cgn_mem_free_desc *d, CUcontext ctx,
                                                     CUgraphNodeParams *p) {
    (void)ctx;
    p->type = CU_GRAPH_NODE_TYPE_MEM_FREE;
    p->free.dptr = d->dptr;
}

cgn_status cgn_graph_add_mem_free(cgn_graph *graph, cgn_node *const *deps, size_t num_deps,
                                  const cgn_mem_free_desc *desc, cgn_node **node_out) {
    static const char where[] = "cgn_graph_add_mem_free";
    if (desc == NULL || node_out == NULL)
        return cgn__fail(CGN_ERROR_INVALID_ARGUMENT, "%s: desc and node_out must not be NULL",
                         where);
    cgn_mem_free_desc d = *desc;
    cgn_status st = mem_free_check_rules(&d, CGN_MEM_FREE_SET_ALL, where);
    if (st == CGN_OK)
        st = mem_free_check_kinds(&d, CGN_MEM_FREE_SET_ALL, where);
    if (st != CGN_OK)
        return st;
    cgn__txn txn;
    st = cgn__add_begin(&txn, graph, deps, num_deps, CGN_NODE_MEM_FREE, sizeof d, 0, where);
    if (st != CGN_OK)
        return st;
    CUgraphNodeParams p;
    memset(&p, 0, sizeof p);
    st = mem_free_stage(&txn, &d, NULL, CGN_MEM_FREE_SET_ALL, &p, where);
    if (st == CGN_OK)
        st = mem_free_stage_owners(&txn, &d);
    if (st != CGN_OK)
        return cgn__txn_fail(&txn, st);
    mem_free_build(&d, cgn__txn_context(&txn), &p);
    st = cgn__txn_apply(&txn, &p, where);
    if (st != CGN_OK)
        return st;
    cgn__txn_commit(&txn, &d, sizeof d, node_out);
    return CGN_OK;
}

/* The executable-update rules: may an executable's version `cur` become `d`? */
cgn_status cgn__mem_free_exec_check(const void *cur_, const void *d_, CUcontext ctx,
                                    const char *where) {
    const cgn_mem_free_desc *cur = cur_;
    const cgn_mem_free_desc *d = d_;
    (void)cur;
    (void)d;
    (void)ctx;
    (void)where;
    return CGN_OK;
}

cgn_status cgn_mem_free_node_get(const cgn_node *node, cgn_mem_free_desc *desc_out) {
    static const char where[] = "cgn_mem_free_node_get";
    cgn__node_rec *n;
    cgn_status st = cgn__check_node(node, CGN_NODE_MEM_FREE, where, &n);
    if (st != CGN_OK)
        return st;
    if (desc_out == NULL)
        return cgn__fail(CGN_ERROR_INVALID_ARGUMENT, "%s: desc_out must not be NULL", where);
    memcpy(desc_out, n->state, sizeof *desc_out);
    return CGN_OK;
}

cgn_status cgn_mem_free_exec_get(const cgn_exec *exec, const cgn_node *node,
                                 cgn_mem_free_desc *desc_out) {
    static const char where[] = "cgn_mem_free_exec_get";
    cgn__txn txn;
    cgn_status st = cgn__exec_update_begin(&txn, (cgn_exec *)(uintptr_t)exec,
                                           (cgn_node *)(uintptr_t)node, CGN_NODE_MEM_FREE, 0,
                                           where);
    if (st != CGN_OK)
        return st;
    if (desc_out == NULL)
        return cgn__fail(CGN_ERROR_INVALID_ARGUMENT, "%s: desc_out must not be NULL", where);
    memcpy(desc_out, cgn__txn_current_state(&txn), sizeof *desc_out);
    return CGN_OK;
}

/* Reads an adopted (or refreshed) node's params into its desc: the inverse of mem_free_build.
 * Owners are never read (what the node points at is the caller's), except that a refresh keeps
 * those of unchanged values (prev). */
cgn_status cgn__mem_free_read(cgn__reader *rd, const CUgraphNodeParams *p, void *desc_,
                              const void *prev_, const char *where) {
    cgn_mem_free_desc *d = desc_;
    const cgn_mem_free_desc *prev = prev_;
    (void)rd;
    (void)prev;
    (void)where;
    memset(d, 0, sizeof *d);
    d->dptr = p->free.dptr;
    return CGN_OK;
}
