/* Generated from spec/ext_sem_signal.yaml by codegen; do not edit. */
#include <string.h>

#include "runtime.h"

/* Field rules from the spec, checked on the complete (merged) parameters. */
CGN__ALWAYS_INLINE static inline cgn_status ext_sem_signal_check_rules(const cgn_ext_sem_signal_desc *d,
                                                                       uint64_t changed,
                                                                       const char *where) {
    (void)d;
    (void)changed;
    (void)where;
    return CGN_OK;
}

/* Checks of field kinds that need more than a rule (kernel handles, argument lists). */
CGN__ALWAYS_INLINE static inline cgn_status ext_sem_signal_check_kinds(const cgn_ext_sem_signal_desc *d,
                                                                       uint64_t changed,
                                                                       const char *where) {
    if (changed & CGN_EXT_SEM_SIGNAL_SET_SEMS) {
        const void *const parts_[] = {d->sems, d->sems_params};
        cgn_status st = cgn__check_arrays(parts_, 2, d->num_sems, CGN_MAX_EXT_SEMS,
                                          "CGN_MAX_EXT_SEMS", "sems", "semaphore", where);
        if (st == CGN_OK)
            st = cgn__check_handles(d->sems, sizeof *d->sems, d->num_sems, "sems", where);
        if (st != CGN_OK)
            return st;
    }
    return CGN_OK;
}

/* Stages cgn-owned copies of borrowed fields (checking them where that needs the driver);
 * *d is rewritten to point at the copies. */
CGN__ALWAYS_INLINE static inline cgn_status ext_sem_signal_stage(cgn__txn *txn,
                                                                 cgn_ext_sem_signal_desc *d,
                                                                 const cgn_ext_sem_signal_update *u,
                                                                 uint64_t changed,
                                                                 CUgraphNodeParams *p,
                                                                 const char *where) {
    (void)u;
    (void)p;
    if (changed & CGN_EXT_SEM_SIGNAL_SET_SEMS) {
        const void *const src_[] = {d->sems, d->sems_params};
        const size_t size_[] = {sizeof *d->sems, sizeof *d->sems_params};
        void *out_[2] = {NULL}; /* gcc 13 -O3 cannot see that a success sets it */
        cgn_status st = cgn__stage_arrays(txn, d->num_sems, 2, src_, size_, out_, "sems", where);
        if (st != CGN_OK)
            return st;
        d->sems = out_[0];
        d->sems_params = out_[1];
    }
    return CGN_OK;
}

/* The owners of the new version, in the spec's `owners` order. */
CGN__ALWAYS_INLINE static inline cgn_status ext_sem_signal_stage_owners(cgn__txn *txn,
                                                                        const cgn_ext_sem_signal_desc *d) {
    cgn_owner *const owners[] = {d->sems_owner};
    return cgn__txn_stage_owners(txn, owners, sizeof owners / sizeof owners[0], NULL, 0);
}

/* Fills the driver params from the merged fields; fields staged by ext_sem_signal_stage are kept. */
CGN__ALWAYS_INLINE static inline void ext_sem_signal_build(const cgn_ext_sem_signal_desc *d,
                                                           CUcontext ctx, CUgraphNodeParams *p) {
    (void)ctx;
    p->type = CU_GRAPH_NODE_TYPE_EXT_SEMAS_SIGNAL;
    p->extSemSignal.extSemArray = (CUexternalSemaphore *)(uintptr_t)d->sems;
    p->extSemSignal.paramsArray = (CUDA_EXTERNAL_SEMAPHORE_SIGNAL_PARAMS *)(uintptr_t)d->sems_params;
    p->extSemSignal.numExtSems = d->num_sems;
}

cgn_status cgn_graph_add_ext_sem_signal(cgn_graph *graph, cgn_node *const *deps, size_t num_deps,
                                        const cgn_ext_sem_signal_desc *desc, cgn_node **node_out) {
    static const char where[] = "cgn_graph_add_ext_sem_signal";
    if (desc == NULL || node_out == NULL)
        return cgn__fail(CGN_ERROR_INVALID_ARGUMENT, "%s: desc and node_out must not be NULL",
                         where);
    cgn_ext_sem_signal_desc d = *desc;
    cgn_status st = ext_sem_signal_check_rules(&d, CGN_EXT_SEM_SIGNAL_SET_ALL, where);
    if (st == CGN_OK)
        st = ext_sem_signal_check_kinds(&d, CGN_EXT_SEM_SIGNAL_SET_ALL, where);
    if (st != CGN_OK)
        return st;
    cgn__txn txn;
    st = cgn__add_begin(&txn, graph, deps, num_deps, CGN_NODE_EXT_SEM_SIGNAL, sizeof d, 0, where);
    if (st != CGN_OK)
        return st;
    CUgraphNodeParams p;
    memset(&p, 0, sizeof p);
    st = ext_sem_signal_stage(&txn, &d, NULL, CGN_EXT_SEM_SIGNAL_SET_ALL, &p, where);
    if (st == CGN_OK)
        st = ext_sem_signal_stage_owners(&txn, &d);
    if (st != CGN_OK)
        return cgn__txn_fail(&txn, st);
    ext_sem_signal_build(&d, cgn__txn_context(&txn), &p);
    st = cgn__txn_apply(&txn, &p, where);
    if (st != CGN_OK)
        return st;
    cgn__txn_commit(&txn, &d, sizeof d, node_out);
    return CGN_OK;
}

/* The executable-update rules: may an executable's version `cur` become `d`? */
cgn_status cgn__ext_sem_signal_exec_check(const void *cur_, const void *d_, CUcontext ctx,
                                          const char *where) {
    const cgn_ext_sem_signal_desc *cur = cur_;
    const cgn_ext_sem_signal_desc *d = d_;
    (void)ctx;
    if (d->num_sems != cur->num_sems)
        return cgn__fail(CGN_ERROR_INVALID_VALUE,
                         "%s: field sems: %u semaphores, the executable has %u; rule: an executable's external semaphore signal node keeps its number of semaphores",
                         where, d->num_sems, cur->num_sems);
    return CGN_OK;
}

/* The body of the update functions, shared with the one-call forms (if any, below):
 * `known_set` 0 is an update as given (checked here), else the set of the one setter a one-call
 * form applied to `update`. Inlined into each caller, which keeps only the paths its updates can
 * take. */
CGN__ALWAYS_INLINE
static inline cgn_status ext_sem_signal_node_update_body(cgn_node *node,
                                                         const cgn_ext_sem_signal_update *update,
                                                         uint64_t known_set,
                                                         const cgn__lean *resolved,
                                                         const char *where) {
    cgn__txn txn;
    cgn_status st = CGN_OK;
    if (resolved != NULL) /* a lean path resolved the handles and declined: no second lookup */
        cgn__txn_start_lean(&txn, resolved);
    else
        st = cgn__update_begin(&txn, node, CGN_NODE_EXT_SEM_SIGNAL, 12020, where);
    if (st != CGN_OK)
        return st;
    uint64_t set = known_set; /* not const: clang would warn on each test of a constant */
    if (set == 0) { /* the update as given */
        if (update == NULL)
            return cgn__fail(CGN_ERROR_INVALID_ARGUMENT, "%s: update must not be NULL", where);
        set = update->set;
        if (set & ~CGN_EXT_SEM_SIGNAL_SET_ALL)
            return cgn__fail(CGN_ERROR_INVALID_ARGUMENT, "%s: unknown bits 0x%llx in set", where,
                             (unsigned long long)(set & ~CGN_EXT_SEM_SIGNAL_SET_ALL));
        if (set == 0)
            return CGN_OK;
    }
    if ((set & CGN_EXT_SEM_SIGNAL_SET_SEMS_OWNER) && !(set & CGN_EXT_SEM_SIGNAL_SET_SEMS))
        return cgn__fail(CGN_ERROR_MISSING_FIELD, "%s: sems_owner requires sems", where);
    cgn_ext_sem_signal_desc d = *(const cgn_ext_sem_signal_desc *)cgn__txn_current_state(&txn);
    if (set & CGN_EXT_SEM_SIGNAL_SET_SEMS) {
        d.sems = update->sems;
        d.sems_params = update->sems_params;
        d.num_sems = update->num_sems;
        d.sems_owner = (set & CGN_EXT_SEM_SIGNAL_SET_SEMS_OWNER) ? update->sems_owner : NULL;
    }
    st = ext_sem_signal_check_rules(&d, set, where);
    if (st == CGN_OK)
        st = ext_sem_signal_check_kinds(&d, set, where);
    if (st == CGN_OK)
        st = cgn__txn_enter(&txn, where); /* the node's context, current from here on */
    if (st != CGN_OK)
        return st;
    CUgraphNodeParams p;
    cgn__params_zeroed(&p); /* complete and zeroed: built from the merged fields alone */
    st = ext_sem_signal_stage(&txn, &d, update, set, &p, where);
    /* Without a change to an owner field (or what it follows) the owners are unchanged. */
    if (st == CGN_OK && (set & (CGN_EXT_SEM_SIGNAL_SET_SEMS)))
        st = ext_sem_signal_stage_owners(&txn, &d);
    if (st != CGN_OK)
        return cgn__txn_fail(&txn, st);
    ext_sem_signal_build(&d, cgn__txn_context(&txn), &p);
    st = cgn__txn_apply(&txn, &p, where);
    if (st != CGN_OK)
        return st;
    cgn__txn_commit_update(&txn, &d, sizeof d);
    return CGN_OK;
}

cgn_status cgn_ext_sem_signal_node_update(cgn_node *node, const cgn_ext_sem_signal_update *update) {
    return ext_sem_signal_node_update_body(node, update, 0, NULL, "cgn_ext_sem_signal_node_update");
}

cgn_status cgn_ext_sem_signal_node_get(const cgn_node *node, cgn_ext_sem_signal_desc *desc_out) {
    static const char where[] = "cgn_ext_sem_signal_node_get";
    cgn__node_rec *n;
    cgn_status st = cgn__check_node(node, CGN_NODE_EXT_SEM_SIGNAL, where, &n);
    if (st != CGN_OK)
        return st;
    if (desc_out == NULL)
        return cgn__fail(CGN_ERROR_INVALID_ARGUMENT, "%s: desc_out must not be NULL", where);
    memcpy(desc_out, n->state, sizeof *desc_out);
    return CGN_OK;
}

/* Field names by bit, and the executable-update rules only the driver checks, for messages
 * about what an executable refused. */
static const char *const ext_sem_signal_field_names[] = {
    "sems", "sems_owner"
};
static const char *const ext_sem_signal_driver_rules[] = {
    "an executable's semaphores must be of the types it was instantiated with",
    NULL,
};

CGN__ALWAYS_INLINE
static inline cgn_status ext_sem_signal_exec_update_body(cgn_exec *exec, cgn_node *node,
                                                         const cgn_ext_sem_signal_update *update,
                                                         uint64_t known_set,
                                                         const cgn__lean *resolved,
                                                         const char *where) {
    cgn__txn txn;
    cgn_status st = CGN_OK;
    if (resolved != NULL) /* a lean path resolved the handles and declined: no second lookup */
        cgn__txn_start_lean(&txn, resolved);
    else
        st = cgn__exec_update_begin(&txn, exec, node, CGN_NODE_EXT_SEM_SIGNAL, 12020, where);
    if (st != CGN_OK)
        return st;
    uint64_t set = known_set; /* not const: clang would warn on each test of a constant */
    if (set == 0) { /* the update as given */
        if (update == NULL)
            return cgn__fail(CGN_ERROR_INVALID_ARGUMENT, "%s: update must not be NULL", where);
        set = update->set;
        if (set & ~CGN_EXT_SEM_SIGNAL_SET_ALL)
            return cgn__fail(CGN_ERROR_INVALID_ARGUMENT, "%s: unknown bits 0x%llx in set", where,
                             (unsigned long long)(set & ~CGN_EXT_SEM_SIGNAL_SET_ALL));
        if (set == 0)
            return CGN_OK;
    }
    if ((set & CGN_EXT_SEM_SIGNAL_SET_SEMS_OWNER) && !(set & CGN_EXT_SEM_SIGNAL_SET_SEMS))
        return cgn__fail(CGN_ERROR_MISSING_FIELD, "%s: sems_owner requires sems", where);
    cgn_ext_sem_signal_desc d = *(const cgn_ext_sem_signal_desc *)cgn__txn_current_state(&txn);
    if (set & CGN_EXT_SEM_SIGNAL_SET_SEMS) {
        d.sems = update->sems;
        d.sems_params = update->sems_params;
        d.num_sems = update->num_sems;
        d.sems_owner = (set & CGN_EXT_SEM_SIGNAL_SET_SEMS_OWNER) ? update->sems_owner : NULL;
    }
    st = ext_sem_signal_check_rules(&d, set, where);
    if (st == CGN_OK)
        st = ext_sem_signal_check_kinds(&d, set, where);
    if (st == CGN_OK)
        st = cgn__txn_enter(&txn, where); /* the node's context, current from here on */
    if (st != CGN_OK)
        return st;
    CUgraphNodeParams p;
    cgn__params_zeroed(&p); /* complete and zeroed: built from the merged fields alone */
    st = ext_sem_signal_stage(&txn, &d, update, set, &p, where);
    /* Without a change to an owner field (or what it follows) the owners are unchanged. */
    if (st == CGN_OK && (set & (CGN_EXT_SEM_SIGNAL_SET_SEMS)))
        st = ext_sem_signal_stage_owners(&txn, &d);
    /* The executable-update rules, on the merged fields against the executable's own. */
    if (st == CGN_OK)
        st = cgn__ext_sem_signal_exec_check(cgn__txn_current_state(&txn), &d,
                                            cgn__txn_context(&txn), where);
    if (st != CGN_OK)
        return cgn__txn_fail(&txn, st);
    ext_sem_signal_build(&d, cgn__txn_context(&txn), &p);
    st = cgn__txn_apply(&txn, &p, where);
    if (st != CGN_OK)
        return cgn__exec_refused(st, set, ext_sem_signal_field_names, ext_sem_signal_driver_rules,
                                 2);
    cgn__txn_commit_update(&txn, &d, sizeof d);
    return CGN_OK;
}

cgn_status cgn_ext_sem_signal_exec_update(cgn_exec *exec, cgn_node *node,
                                          const cgn_ext_sem_signal_update *update) {
    static const char where[] = "cgn_ext_sem_signal_exec_update";
    return ext_sem_signal_exec_update_body(exec, node, update, 0, NULL, where);
}

cgn_status cgn_ext_sem_signal_exec_get(const cgn_exec *exec, const cgn_node *node,
                                       cgn_ext_sem_signal_desc *desc_out) {
    static const char where[] = "cgn_ext_sem_signal_exec_get";
    cgn__txn txn;
    cgn_status st = cgn__exec_update_begin(&txn, (cgn_exec *)(uintptr_t)exec,
                                           (cgn_node *)(uintptr_t)node, CGN_NODE_EXT_SEM_SIGNAL, 0,
                                           where);
    if (st != CGN_OK)
        return st;
    if (desc_out == NULL)
        return cgn__fail(CGN_ERROR_INVALID_ARGUMENT, "%s: desc_out must not be NULL", where);
    memcpy(desc_out, cgn__txn_current_state(&txn), sizeof *desc_out);
    return CGN_OK;
}

/* Reads an adopted (or refreshed) node's params into its desc: the inverse of
 * ext_sem_signal_build. Owners are never read (what the node points at is the caller's), except
 * that a refresh keeps those of unchanged values (prev). */
cgn_status cgn__ext_sem_signal_read(cgn__reader *rd, const CUgraphNodeParams *p, void *desc_,
                                    const void *prev_, const char *where) {
    cgn_ext_sem_signal_desc *d = desc_;
    const cgn_ext_sem_signal_desc *prev = prev_;
    (void)where;
    memset(d, 0, sizeof *d);
    {
        const void *const src_[] = {p->extSemSignal.extSemArray, p->extSemSignal.paramsArray};
        const size_t size_[] = {sizeof *d->sems, sizeof *d->sems_params};
        void *out_[2] = {NULL};
        cgn_status st = cgn__read_arrays(rd, p->extSemSignal.numExtSems, 2, src_, size_, out_);
        if (st != CGN_OK)
            return st;
        d->sems = out_[0];
        d->sems_params = out_[1];
        d->num_sems = out_[0] ? (uint32_t)p->extSemSignal.numExtSems : 0;
    }
    if (prev != NULL &&
        d->num_sems == prev->num_sems && (d->num_sems == 0 || (memcmp(d->sems, prev->sems, d->num_sems * sizeof *d->sems) == 0 && memcmp(d->sems_params, prev->sems_params, d->num_sems * sizeof *d->sems_params) == 0)))
        d->sems_owner = prev->sems_owner;
    return CGN_OK;
}
