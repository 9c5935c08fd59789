/* Generated from spec/conditional.yaml by codegen; do not edit. */
#include <string.h>

#include "runtime.h"

/* One bit per field (the node type has no update struct: these stay private). */
#define CGN_CONDITIONAL_SET_TYPE UINT64_C(0x1)
#define CGN_CONDITIONAL_SET_SIZE UINT64_C(0x2)
#define CGN_CONDITIONAL_SET_HANDLE UINT64_C(0x4)
#define CGN_CONDITIONAL_SET_ALL UINT64_C(0x7)

/* Field rules from the spec, checked on the complete (merged) parameters. */
CGN__ALWAYS_INLINE static inline cgn_status conditional_check_rules(const cgn_conditional_desc *d,
                                                                    uint64_t changed,
                                                                    const char *where) {
    if ((changed & (CGN_CONDITIONAL_SET_TYPE)) && (d->type > 2))
        return cgn__fail(CGN_ERROR_INVALID_VALUE,
                         "%s: type %u is not a conditional node type (0: IF, 1: WHILE, 2: SWITCH)",
                         where, d->type);
    if ((changed & (CGN_CONDITIONAL_SET_SIZE)) && (d->size == 0))
        return cgn__fail(CGN_ERROR_INVALID_VALUE,
                         "%s: size 0: a conditional node has at least one body", where);
    if ((changed & (CGN_CONDITIONAL_SET_SIZE | CGN_CONDITIONAL_SET_TYPE)) &&
        (d->type == 1 && d->size != 1))
        return cgn__fail(CGN_ERROR_INVALID_VALUE, "%s: size %u: a WHILE node has exactly one body",
                         where, d->size);
    if ((changed & (CGN_CONDITIONAL_SET_SIZE | CGN_CONDITIONAL_SET_TYPE)) &&
        (d->type == 0 && d->size > 2))
        return cgn__fail(CGN_ERROR_INVALID_VALUE,
                         "%s: size %u: an IF node has one body, or two with an else body", where,
                         d->size);
    if ((changed & (CGN_CONDITIONAL_SET_SIZE)) && (d->size > CGN_MAX_COND_BODIES))
        return cgn__fail(CGN_ERROR_OUT_OF_RANGE,
                         "%s: size %u: cgn adds at most %u bodies to a SWITCH node (CGN_MAX_COND_BODIES)",
                         where, d->size, CGN_MAX_COND_BODIES);
    if ((changed & (CGN_CONDITIONAL_SET_TYPE)) && (d->type == 2 && cgn__driver_version() < 12080))
        return cgn__fail(CGN_ERROR_DRIVER_TOO_OLD,
                         "%s: SWITCH conditional nodes (type 2) need CUDA driver 12.8 or newer; this driver is %d.%d",
                         where, cgn__driver_version() / 1000, cgn__driver_version() % 1000 / 10);
    if ((changed & (CGN_CONDITIONAL_SET_SIZE | CGN_CONDITIONAL_SET_TYPE)) &&
        (d->type == 0 && d->size == 2 && cgn__driver_version() < 12080))
        return cgn__fail(CGN_ERROR_DRIVER_TOO_OLD,
                         "%s: IF conditional nodes with an else body (size 2) need CUDA driver 12.8 or newer; this driver is %d.%d",
                         where, cgn__driver_version() / 1000, cgn__driver_version() % 1000 / 10);
    if ((changed & (CGN_CONDITIONAL_SET_HANDLE)) && (d->handle_assign > 1))
        return cgn__fail(CGN_ERROR_INVALID_VALUE,
                         "%s: handle_assign must be 0 or 1 (CU_GRAPH_COND_ASSIGN_DEFAULT), not %u",
                         where, d->handle_assign);
    return CGN_OK;
}

/* Checks of field kinds that need more than a rule (kernel handles, argument lists). */
CGN__ALWAYS_INLINE static inline cgn_status conditional_check_kinds(const cgn_conditional_desc *d,
                                                                    uint64_t changed,
                                                                    const char *where) {
    (void)d;
    (void)changed;
    (void)where;
    return CGN_OK;
}

/* Stages cgn-owned copies of borrowed fields (checking them where that needs the driver);
 * *d is rewritten to point at the copies. */
CGN__ALWAYS_INLINE static inline cgn_status conditional_stage(cgn__txn *txn,
                                                              cgn_conditional_desc *d,
                                                              const void *u, uint64_t changed,
                                                              CUgraphNodeParams *p,
                                                              const char *where) {
    (void)changed;
    if (u == NULL) {
        cgn_status st = cgn__stage_cond_bodies(txn, d->size, &p->conditional.phGraph_out, where);
        if (st != CGN_OK)
            return st;
    }
    if (u == NULL) {
        cgn_status st = cgn__stage_cond_handle(txn, d->handle_default, d->handle_assign, &d->handle,
                                               where);
        if (st != CGN_OK)
            return st;
    }
    return CGN_OK;
}

/* The owners of the new version, in the spec's `owners` order. */
CGN__ALWAYS_INLINE static inline cgn_status conditional_stage_owners(cgn__txn *txn,
                                                                     const cgn_conditional_desc *d) {
(void)d;
    return cgn__txn_stage_owners(txn, NULL, 0, NULL, 0);
}

/* Fills the driver params from the merged fields; fields staged by conditional_stage are kept. */
CGN__ALWAYS_INLINE static inline void conditional_build(const cgn_conditional_desc *d,
                                                        CUcontext ctx, CUgraphNodeParams *p) {
    p->type = CU_GRAPH_NODE_TYPE_CONDITIONAL;
    p->conditional.type = d->type;
    p->conditional.size = d->size;
    p->conditional.handle = d->handle;
    p->conditional.ctx = ctx;
}

cgn_status cgn_graph_add_conditional(cgn_graph *graph, cgn_node *const *deps, size_t num_deps,
                                     const cgn_conditional_desc *desc, cgn_node **node_out) {
    static const char where[] = "cgn_graph_add_conditional";
    if (desc == NULL || node_out == NULL)
        return cgn__fail(CGN_ERROR_INVALID_ARGUMENT, "%s: desc and node_out must not be NULL",
                         where);
    cgn_conditional_desc d = *desc;
    /* Members set by cgn are ignored on input. */
    d.handle = 0;
    cgn_status st = conditional_check_rules(&d, CGN_CONDITIONAL_SET_ALL, where);
    if (st == CGN_OK)
        st = conditional_check_kinds(&d, CGN_CONDITIONAL_SET_ALL, where);
    if (st != CGN_OK)
        return st;
    cgn__txn txn;
    st = cgn__add_begin(&txn, graph, deps, num_deps, CGN_NODE_CONDITIONAL, sizeof d, 1, where);
    if (st != CGN_OK)
        return st;
    CUgraphNodeParams p;
    memset(&p, 0, sizeof p);
    st = conditional_stage(&txn, &d, NULL, CGN_CONDITIONAL_SET_ALL, &p, where);
    if (st == CGN_OK)
        st = conditional_stage_owners(&txn, &d);
    if (st != CGN_OK)
        return cgn__txn_fail(&txn, st);
    conditional_build(&d, cgn__txn_context(&txn), &p);
    st = cgn__txn_apply(&txn, &p, where);
    if (st != CGN_OK)
        return st;
    cgn__txn_commit(&txn, &d, sizeof d, node_out);
    return CGN_OK;
}

/* The executable-update rules: may an executable's version `cur` become `d`? */
cgn_status cgn__conditional_exec_check(const void *cur_, const void *d_, CUcontext ctx,
                                       const char *where) {
    const cgn_conditional_desc *cur = cur_;
    const cgn_conditional_desc *d = d_;
    (void)cur;
    (void)d;
    (void)ctx;
    (void)where;
    return CGN_OK;
}

cgn_status cgn_conditional_node_get(const cgn_node *node, cgn_conditional_desc *desc_out) {
    static const char where[] = "cgn_conditional_node_get";
    cgn__node_rec *n;
    cgn_status st = cgn__check_node(node, CGN_NODE_CONDITIONAL, where, &n);
    if (st != CGN_OK)
        return st;
    if (desc_out == NULL)
        return cgn__fail(CGN_ERROR_INVALID_ARGUMENT, "%s: desc_out must not be NULL", where);
    memcpy(desc_out, n->state, sizeof *desc_out);
    return CGN_OK;
}

cgn_status cgn_conditional_exec_get(const cgn_exec *exec, const cgn_node *node,
                                    cgn_conditional_desc *desc_out) {
    static const char where[] = "cgn_conditional_exec_get";
    cgn__txn txn;
    cgn_status st = cgn__exec_update_begin(&txn, (cgn_exec *)(uintptr_t)exec,
                                           (cgn_node *)(uintptr_t)node, CGN_NODE_CONDITIONAL, 0,
                                           where);
    if (st != CGN_OK)
        return st;
    if (desc_out == NULL)
        return cgn__fail(CGN_ERROR_INVALID_ARGUMENT, "%s: desc_out must not be NULL", where);
    memcpy(desc_out, cgn__txn_current_state(&txn), sizeof *desc_out);
    return CGN_OK;
}

