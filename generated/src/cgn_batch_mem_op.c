/* Generated from spec/batch_mem_op.yaml by codegen; do not edit. */
#include <string.h>

#include "runtime.h"

/* Field rules from the spec, checked on the complete (merged) parameters. */
CGN__ALWAYS_INLINE static inline cgn_status batch_mem_op_check_rules(const cgn_batch_mem_op_desc *d,
                                                                     uint64_t changed,
                                                                     const char *where) {
    (void)d;
    (void)changed;
    (void)where;
    return CGN_OK;
}

/* Checks of field kinds that need more than a rule (kernel handles, argument lists). */
CGN__ALWAYS_INLINE static inline cgn_status batch_mem_op_check_kinds(const cgn_batch_mem_op_desc *d,
                                                                     uint64_t changed,
                                                                     const char *where) {
    if (changed & CGN_BATCH_MEM_OP_SET_OPS) {
        cgn_status st = cgn__check_mem_ops(d->ops, d->num_ops, "ops", where);
        if (st != CGN_OK)
            return st;
    }
    return CGN_OK;
}

/* Stages cgn-owned copies of borrowed fields (checking them where that needs the driver);
 * *d is rewritten to point at the copies. */
CGN__ALWAYS_INLINE static inline cgn_status batch_mem_op_stage(cgn__txn *txn,
                                                               cgn_batch_mem_op_desc *d,
                                                               const cgn_batch_mem_op_update *u,
                                                               uint64_t changed,
                                                               CUgraphNodeParams *p,
                                                               const char *where) {
    (void)u;
    (void)p;
    if (changed & CGN_BATCH_MEM_OP_SET_OPS) {
        cgn_status st = cgn__stage_mem_ops(txn, d->ops, d->num_ops, &d->ops, "ops", where);
        if (st != CGN_OK)
            return st;
    }
    return CGN_OK;
}

/* The owners of the new version, in the spec's `owners` order. */
CGN__ALWAYS_INLINE static inline cgn_status batch_mem_op_stage_owners(cgn__txn *txn,
                                                                      const cgn_batch_mem_op_desc *d) {
    cgn_owner *const owners[] = {d->ops_owner};
    return cgn__txn_stage_owners(txn, owners, sizeof owners / sizeof owners[0], NULL, 0);
}

/* Fills the driver params from the merged fields; fields staged by batch_mem_op_stage are kept. */
CGN__ALWAYS_INLINE static inline void batch_mem_op_build(const cgn_batch_mem_op_desc *d,
                                                         CUcontext ctx, CUgraphNodeParams *p) {
    p->type = CU_GRAPH_NODE_TYPE_BATCH_MEM_OP;
    p->memOp.paramArray = (CUstreamBatchMemOpParams *)(uintptr_t)d->ops;
    p->memOp.count = d->num_ops;
    p->memOp.ctx = ctx;
}

cgn_status cgn_graph_add_batch_mem_op(cgn_graph *graph, cgn_node *const *deps, size_t num_deps,
                                      const cgn_batch_mem_op_desc *desc, cgn_node **node_out) {
    static const char where[] = "cgn_graph_add_batch_mem_op";
    if (desc == NULL || node_out == NULL)
        return cgn__fail(CGN_ERROR_INVALID_ARGUMENT, "%s: desc and node_out must not be NULL",
                         where);
    cgn_batch_mem_op_desc d = *desc;
    cgn_status st = batch_mem_op_check_rules(&d, CGN_BATCH_MEM_OP_SET_ALL, where);
    if (st == CGN_OK)
        st = batch_mem_op_check_kinds(&d, CGN_BATCH_MEM_OP_SET_ALL, where);
    if (st != CGN_OK)
        return st;
    cgn__txn txn;
    st = cgn__add_begin(&txn, graph, deps, num_deps, CGN_NODE_BATCH_MEM_OP, sizeof d, 1, where);
    if (st != CGN_OK)
        return st;
    CUgraphNodeParams p;
    memset(&p, 0, sizeof p);
    st = batch_mem_op_stage(&txn, &d, NULL, CGN_BATCH_MEM_OP_SET_ALL, &p, where);
    if (st == CGN_OK)
        st = batch_mem_op_stage_owners(&txn, &d);
    if (st != CGN_OK)
        return cgn__txn_fail(&txn, st);
    batch_mem_op_build(&d, cgn__txn_context(&txn), &p);
    st = cgn__txn_apply(&txn, &p, where);
    if (st != CGN_OK)
        return st;
    cgn__txn_commit(&txn, &d, sizeof d, node_out);
    return CGN_OK;
}

/* The executable-update rules: may an executable's version `cur` become `d`? */
cgn_status cgn__batch_mem_op_exec_check(const void *cur_, const void *d_, CUcontext ctx,
                                        const char *where) {
    const cgn_batch_mem_op_desc *cur = cur_;
    const cgn_batch_mem_op_desc *d = d_;
    (void)ctx;
    if (d->num_ops != cur->num_ops)
        return cgn__fail(CGN_ERROR_INVALID_VALUE,
                         "%s: field ops: %u operations, the executable has %u; rule: an executable's batch memory operation node keeps its number of operations",
                         where, d->num_ops, cur->num_ops);
    if (cgn__mem_ops_type_change(d->ops, cur->ops, d->num_ops) < d->num_ops)
        return cgn__fail(CGN_ERROR_INVALID_VALUE,
                         "%s: field ops: operation %u is a %s, the executable has a %s; rule: an executable's operations keep their types",
                         where, cgn__mem_ops_type_change(d->ops, cur->ops, d->num_ops),
                         cgn__mem_op_name(d->ops[cgn__mem_ops_type_change(d->ops, cur->ops, d->num_ops)].operation),
                         cgn__mem_op_name(cur->ops[cgn__mem_ops_type_change(d->ops, cur->ops, d->num_ops)].operation));
    if (cgn__mem_ops_fixed_change(d->ops, cur->ops, d->num_ops) < d->num_ops)
        return cgn__fail(CGN_ERROR_INVALID_VALUE,
                         "%s: field ops: operation %u (a %s) changes its flags; rule: an executable may change only the addresses and values of writes and waits and the comparison of waits (not a write's flags, a wait's CU_STREAM_WAIT_VALUE_FLUSH bit, or a flush or barrier)",
                         where, cgn__mem_ops_fixed_change(d->ops, cur->ops, d->num_ops),
                         cgn__mem_op_name(d->ops[cgn__mem_ops_fixed_change(d->ops, cur->ops, d->num_ops)].operation));
    return CGN_OK;
}

/* The body of the update functions, shared with the one-call forms (if any, below):
 * `known_set` 0 is an update as given (checked here), else the set of the one setter a one-call
 * form applied to `update`. Inlined into each caller, which keeps only the paths its updates can
 * take. */
CGN__ALWAYS_INLINE
static inline cgn_status batch_mem_op_node_update_body(cgn_node *node,
                                                       const cgn_batch_mem_op_update *update,
                                                       uint64_t known_set,
                                                       const cgn__lean *resolved,
                                                       const char *where) {
    cgn__txn txn;
    cgn_status st = CGN_OK;
    if (resolved != NULL) /* a lean path resolved the handles and declined: no second lookup */
        cgn__txn_start_lean(&txn, resolved);
    else
        st = cgn__update_begin(&txn, node, CGN_NODE_BATCH_MEM_OP, 12020, where);
    if (st != CGN_OK)
        return st;
    uint64_t set = known_set; /* not const: clang would warn on each test of a constant */
    if (set == 0) { /* the update as given */
        if (update == NULL)
            return cgn__fail(CGN_ERROR_INVALID_ARGUMENT, "%s: update must not be NULL", where);
        set = update->set;
        if (set & ~CGN_BATCH_MEM_OP_SET_ALL)
            return cgn__fail(CGN_ERROR_INVALID_ARGUMENT, "%s: unknown bits 0x%llx in set", where,
                             (unsigned long long)(set & ~CGN_BATCH_MEM_OP_SET_ALL));
        if (set == 0)
            return CGN_OK;
    }
    if ((set & CGN_BATCH_MEM_OP_SET_OPS_OWNER) && !(set & CGN_BATCH_MEM_OP_SET_OPS))
        return cgn__fail(CGN_ERROR_MISSING_FIELD, "%s: ops_owner requires ops", where);
    cgn_batch_mem_op_desc d = *(const cgn_batch_mem_op_desc *)cgn__txn_current_state(&txn);
    if (set & CGN_BATCH_MEM_OP_SET_OPS) {
        d.ops = update->ops;
        d.num_ops = update->num_ops;
        d.ops_owner = (set & CGN_BATCH_MEM_OP_SET_OPS_OWNER) ? update->ops_owner : NULL;
    }
    st = batch_mem_op_check_rules(&d, set, where);
    if (st == CGN_OK)
        st = batch_mem_op_check_kinds(&d, set, where);
    if (st == CGN_OK)
        st = cgn__txn_enter(&txn, where); /* the node's context, current from here on */
    if (st != CGN_OK)
        return st;
    CUgraphNodeParams p;
    cgn__params_zeroed(&p); /* complete and zeroed: built from the merged fields alone */
    st = batch_mem_op_stage(&txn, &d, update, set, &p, where);
    /* Without a change to an owner field (or what it follows) the owners are unchanged. */
    if (st == CGN_OK && (set & (CGN_BATCH_MEM_OP_SET_OPS)))
        st = batch_mem_op_stage_owners(&txn, &d);
    if (st != CGN_OK)
        return cgn__txn_fail(&txn, st);
    batch_mem_op_build(&d, cgn__txn_context(&txn), &p);
    st = cgn__txn_apply(&txn, &p, where);
    if (st != CGN_OK)
        return st;
    cgn__txn_commit_update(&txn, &d, sizeof d);
    return CGN_OK;
}

cgn_status cgn_batch_mem_op_node_update(cgn_node *node, const cgn_batch_mem_op_update *update) {
    return batch_mem_op_node_update_body(node, update, 0, NULL, "cgn_batch_mem_op_node_update");
}

cgn_status cgn_batch_mem_op_node_get(const cgn_node *node, cgn_batch_mem_op_desc *desc_out) {
    static const char where[] = "cgn_batch_mem_op_node_get";
    cgn__node_rec *n;
    cgn_status st = cgn__check_node(node, CGN_NODE_BATCH_MEM_OP, where, &n);
    if (st != CGN_OK)
        return st;
    if (desc_out == NULL)
        return cgn__fail(CGN_ERROR_INVALID_ARGUMENT, "%s: desc_out must not be NULL", where);
    memcpy(desc_out, n->state, sizeof *desc_out);
    return CGN_OK;
}

/* Field names by bit, and the executable-update rules only the driver checks, for messages
 * about what an executable refused. */
static const char *const batch_mem_op_field_names[] = {
    "ops", "ops_owner"
};
static const char *const batch_mem_op_driver_rules[] = {
    "an executable's operations must stay on memory of the context it was instantiated with",
    NULL,
};

CGN__ALWAYS_INLINE
static inline cgn_status batch_mem_op_exec_update_body(cgn_exec *exec, cgn_node *node,
                                                       const cgn_batch_mem_op_update *update,
                                                       uint64_t known_set,
                                                       const cgn__lean *resolved,
                                                       const char *where) {
    cgn__txn txn;
    cgn_status st = CGN_OK;
    if (resolved != NULL) /* a lean path resolved the handles and declined: no second lookup */
        cgn__txn_start_lean(&txn, resolved);
    else
        st = cgn__exec_update_begin(&txn, exec, node, CGN_NODE_BATCH_MEM_OP, 12020, where);
    if (st != CGN_OK)
        return st;
    uint64_t set = known_set; /* not const: clang would warn on each test of a constant */
    if (set == 0) { /* the update as given */
        if (update == NULL)
            return cgn__fail(CGN_ERROR_INVALID_ARGUMENT, "%s: update must not be NULL", where);
        set = update->set;
        if (set & ~CGN_BATCH_MEM_OP_SET_ALL)
            return cgn__fail(CGN_ERROR_INVALID_ARGUMENT, "%s: unknown bits 0x%llx in set", where,
                             (unsigned long long)(set & ~CGN_BATCH_MEM_OP_SET_ALL));
        if (set == 0)
            return CGN_OK;
    }
    if ((set & CGN_BATCH_MEM_OP_SET_OPS_OWNER) && !(set & CGN_BATCH_MEM_OP_SET_OPS))
        return cgn__fail(CGN_ERROR_MISSING_FIELD, "%s: ops_owner requires ops", where);
    cgn_batch_mem_op_desc d = *(const cgn_batch_mem_op_desc *)cgn__txn_current_state(&txn);
    if (set & CGN_BATCH_MEM_OP_SET_OPS) {
        d.ops = update->ops;
        d.num_ops = update->num_ops;
        d.ops_owner = (set & CGN_BATCH_MEM_OP_SET_OPS_OWNER) ? update->ops_owner : NULL;
    }
    st = batch_mem_op_check_rules(&d, set, where);
    if (st == CGN_OK)
        st = batch_mem_op_check_kinds(&d, set, where);
    if (st == CGN_OK)
        st = cgn__txn_enter(&txn, where); /* the node's context, current from here on */
    if (st != CGN_OK)
        return st;
    CUgraphNodeParams p;
    cgn__params_zeroed(&p); /* complete and zeroed: built from the merged fields alone */
    st = batch_mem_op_stage(&txn, &d, update, set, &p, where);
    /* Without a change to an owner field (or what it follows) the owners are unchanged. */
    if (st == CGN_OK && (set & (CGN_BATCH_MEM_OP_SET_OPS)))
        st = batch_mem_op_stage_owners(&txn, &d);
    /* The executable-update rules, on the merged fields against the executable's own. */
    if (st == CGN_OK)
        st = cgn__batch_mem_op_exec_check(cgn__txn_current_state(&txn), &d, cgn__txn_context(&txn),
                                          where);
    if (st != CGN_OK)
        return cgn__txn_fail(&txn, st);
    batch_mem_op_build(&d, cgn__txn_context(&txn), &p);
    st = cgn__txn_apply(&txn, &p, where);
    if (st != CGN_OK)
        return cgn__exec_refused(st, set, batch_mem_op_field_names, batch_mem_op_driver_rules,
                                 2);
    cgn__txn_commit_update(&txn, &d, sizeof d);
    return CGN_OK;
}

cgn_status cgn_batch_mem_op_exec_update(cgn_exec *exec, cgn_node *node,
                                        const cgn_batch_mem_op_update *update) {
    static const char where[] = "cgn_batch_mem_op_exec_update";
    return batch_mem_op_exec_update_body(exec, node, update, 0, NULL, where);
}

cgn_status cgn_batch_mem_op_exec_get(const cgn_exec *exec, const cgn_node *node,
                                     cgn_batch_mem_op_desc *desc_out) {
    static const char where[] = "cgn_batch_mem_op_exec_get";
    cgn__txn txn;
    cgn_status st = cgn__exec_update_begin(&txn, (cgn_exec *)(uintptr_t)exec,
                                           (cgn_node *)(uintptr_t)node, CGN_NODE_BATCH_MEM_OP, 0,
                                           where);
    if (st != CGN_OK)
        return st;
    if (desc_out == NULL)
        return cgn__fail(CGN_ERROR_INVALID_ARGUMENT, "%s: desc_out must not be NULL", where);
    memcpy(desc_out, cgn__txn_current_state(&txn), sizeof *desc_out);
    return CGN_OK;
}

/* Reads an adopted (or refreshed) node's params into its desc: the inverse of
 * batch_mem_op_build. Owners are never read (what the node points at is the caller's), except
 * that a refresh keeps those of unchanged values (prev). */
cgn_status cgn__batch_mem_op_read(cgn__reader *rd, const CUgraphNodeParams *p, void *desc_,
                                  const void *prev_, const char *where) {
    cgn_batch_mem_op_desc *d = desc_;
    const cgn_batch_mem_op_desc *prev = prev_;
    memset(d, 0, sizeof *d);
    {
        cgn_status st = cgn__read_mem_ops(rd, p->memOp.paramArray, p->memOp.count, &d->ops,
                                          &d->num_ops, where);
        if (st != CGN_OK)
            return st;
    }
    if (prev != NULL &&
        d->num_ops == prev->num_ops && (d->num_ops == 0 || memcmp(d->ops, prev->ops, d->num_ops * sizeof *d->ops) == 0))
        d->ops_owner = prev->ops_owner;
    return CGN_OK;
}
