/* Generated from spec/event_wait.yaml by codegen; do not edit. */
#include <string.h>

#include "runtime.h"

/* Field rules from the spec, checked on the complete (merged) parameters. */
CGN__ALWAYS_INLINE static inline cgn_status event_wait_check_rules(const cgn_event_wait_desc *d,
                                                                   uint64_t changed,
                                                                   const char *where) {
    if ((changed & (CGN_EVENT_WAIT_SET_EVENT)) && (d->event == NULL))
        return cgn__fail(CGN_ERROR_INVALID_VALUE, "%s: event must not be NULL", where);
    return CGN_OK;
}

/* Checks of field kinds that need more than a rule (kernel handles, argument lists). */
CGN__ALWAYS_INLINE static inline cgn_status event_wait_check_kinds(const cgn_event_wait_desc *d,
                                                                   uint64_t changed,
                                                                   const char *where) {
    (void)d;
    (void)changed;
    (void)where;
    return CGN_OK;
}

/* Stages cgn-owned copies of borrowed fields (checking them where that needs the driver);
 * *d is rewritten to point at the copies. */
CGN__ALWAYS_INLINE static inline cgn_status event_wait_stage(cgn__txn *txn, cgn_event_wait_desc *d,
                                                             const cgn_event_wait_update *u,
                                                             uint64_t changed, CUgraphNodeParams *p,
                                                             const char *where) {
    (void)txn;
    (void)u;
    (void)p;
    if ((changed & CGN_EVENT_WAIT_SET_EVENT) && d->event != NULL) {
        cgn_status st =
            cgn__check_raw_handle((const void *)(uintptr_t)d->event, "event", where);
        if (st != CGN_OK)
            return st;
    }
    return CGN_OK;
}

/* The owners of the new version, in the spec's `owners` order. */
CGN__ALWAYS_INLINE static inline cgn_status event_wait_stage_owners(cgn__txn *txn,
                                                                    const cgn_event_wait_desc *d) {
    cgn_owner *const owners[] = {d->event_owner};
    return cgn__txn_stage_owners(txn, owners, sizeof owners / sizeof owners[0], NULL, 0);
}

/* Fills the driver params from the merged fields; fields staged by event_wait_stage are kept. */
CGN__ALWAYS_INLINE static inline void event_wait_build(const cgn_event_wait_desc *d, CUcontext ctx,
                                                       CUgraphNodeParams *p) {
    (void)ctx;
    p->type = CU_GRAPH_NODE_TYPE_WAIT_EVENT;
    p->eventWait.event = d->event;
}

cgn_status cgn_graph_add_event_wait(cgn_graph *graph, cgn_node *const *deps, size_t num_deps,
                                    const cgn_event_wait_desc *desc, cgn_node **node_out) {
    static const char where[] = "cgn_graph_add_event_wait";
    if (desc == NULL || node_out == NULL)
        return cgn__fail(CGN_ERROR_INVALID_ARGUMENT, "%s: desc and node_out must not be NULL",
                         where);
    cgn_event_wait_desc d = *desc;
    cgn_status st = event_wait_check_rules(&d, CGN_EVENT_WAIT_SET_ALL, where);
    if (st == CGN_OK)
        st = event_wait_check_kinds(&d, CGN_EVENT_WAIT_SET_ALL, where);
    if (st != CGN_OK)
        return st;
    cgn__txn txn;
    st = cgn__add_begin(&txn, graph, deps, num_deps, CGN_NODE_EVENT_WAIT, sizeof d, 0, where);
    if (st != CGN_OK)
        return st;
    CUgraphNodeParams p;
    memset(&p, 0, sizeof p);
    st = event_wait_stage(&txn, &d, NULL, CGN_EVENT_WAIT_SET_ALL, &p, where);
    if (st == CGN_OK)
        st = event_wait_stage_owners(&txn, &d);
    if (st != CGN_OK)
        return cgn__txn_fail(&txn, st);
    event_wait_build(&d, cgn__txn_context(&txn), &p);
    st = cgn__txn_apply(&txn, &p, where);
    if (st != CGN_OK)
        return st;
    cgn__txn_commit(&txn, &d, sizeof d, node_out);
    return CGN_OK;
}

/* The executable-update rules: may an executable's version `cur` become `d`? */
cgn_status cgn__event_wait_exec_check(const void *cur_, const void *d_, CUcontext ctx,
                                      const char *where) {
    const cgn_event_wait_desc *cur = cur_;
    const cgn_event_wait_desc *d = d_;
    (void)cur;
    (void)d;
    (void)ctx;
    (void)where;
    return CGN_OK;
}

/* The definition-level mutation through the typed setter (spec: cuda.set). */
CGN__ALWAYS_INLINE static inline CUresult event_wait_set_raw(CUgraphNode node,
                                                             const CUgraphNodeParams *p) {
    return cgn__driver->cuGraphEventWaitNodeSetEvent(node, p->eventWait.event);
}

/* The executable-level mutation through the typed setter (spec: cuda.exec_set). */
CGN__ALWAYS_INLINE static inline CUresult event_wait_exec_set_raw(CUgraphExec exec,
                                                                  CUgraphNode node,
                                                                  const CUgraphNodeParams *p) {
    return cgn__driver->cuGraphExecEventWaitNodeSetEvent(exec, node, p->eventWait.event);
}

/* The body of the update functions, shared with the one-call forms (if any, below):
 * `known_set` 0 is an update as given (checked here), else the set of the one setter a one-call
 * form applied to `update`. Inlined into each caller, which keeps only the paths its updates can
 * take. */
CGN__ALWAYS_INLINE
static inline cgn_status event_wait_node_update_body(cgn_node *node,
                                                     const cgn_event_wait_update *update,
                                                     uint64_t known_set, const cgn__lean *resolved,
                                                     const char *where) {
    cgn__txn txn;
    cgn_status st = CGN_OK;
    if (resolved != NULL) /* a lean path resolved the handles and declined: no second lookup */
        cgn__txn_start_lean(&txn, resolved);
    else
        st = cgn__update_begin(&txn, node, CGN_NODE_EVENT_WAIT, 12020, where);
    if (st != CGN_OK)
        return st;
    uint64_t set = known_set; /* not const: clang would warn on each test of a constant */
    if (set == 0) { /* the update as given */
        if (update == NULL)
            return cgn__fail(CGN_ERROR_INVALID_ARGUMENT, "%s: update must not be NULL", where);
        set = update->set;
        if (set & ~CGN_EVENT_WAIT_SET_ALL)
            return cgn__fail(CGN_ERROR_INVALID_ARGUMENT, "%s: unknown bits 0x%llx in set", where,
                             (unsigned long long)(set & ~CGN_EVENT_WAIT_SET_ALL));
        if (set == 0)
            return CGN_OK;
    }
    if ((set & CGN_EVENT_WAIT_SET_EVENT_OWNER) && !(set & CGN_EVENT_WAIT_SET_EVENT))
        return cgn__fail(CGN_ERROR_MISSING_FIELD, "%s: event_owner requires event", where);
    cgn_event_wait_desc d = *(const cgn_event_wait_desc *)cgn__txn_current_state(&txn);
    if (set & CGN_EVENT_WAIT_SET_EVENT) {
        d.event = update->event;
        d.event_owner = (set & CGN_EVENT_WAIT_SET_EVENT_OWNER) ? update->event_owner : NULL;
    }
    st = event_wait_check_rules(&d, set, where);
    if (st == CGN_OK)
        st = event_wait_check_kinds(&d, set, where);
    if (st == CGN_OK && cgn__driver->version < 13000)
        st = cgn__txn_enter(&txn, where); /* the node's context, current from here on */
    if (st != CGN_OK)
        return st;
    CUgraphNodeParams p;
    /* Only the member reaches the typed setter: complete and zeroed, from the merged fields. */
    memset(&p.eventWait, 0, sizeof p.eventWait);
    st = event_wait_stage(&txn, &d, update, set, &p, where);
    /* Without a change to an owner field (or what it follows) the owners are unchanged. */
    if (st == CGN_OK && (set & (CGN_EVENT_WAIT_SET_EVENT)))
        st = event_wait_stage_owners(&txn, &d);
    if (st != CGN_OK)
        return cgn__txn_fail(&txn, st);
    event_wait_build(&d, cgn__txn_context(&txn), &p);
    st = cgn__txn_applied(&txn, event_wait_set_raw(txn.node->raw, &p),
                          "cuGraphEventWaitNodeSetEvent", where);
    if (st != CGN_OK)
        return st;
    cgn__txn_commit_update(&txn, &d, sizeof d);
    return CGN_OK;
}

/* cgn_event_wait_node_update's path when its lean paths do not apply. */
static CGN__NOINLINE cgn_status event_wait_node_update_txn(cgn_node *node,
                                                           const cgn_event_wait_update *update,
                                                           const cgn__lean *resolved,
                                                           const char *where) {
    return event_wait_node_update_body(node, update, 0, resolved, where);
}

/* What event_wait_stage does for the fields of the lead path below: checks alone. */
CGN__ALWAYS_INLINE static inline cgn_status event_wait_lean_checks(const cgn_event_wait_desc *d,
                                                                   uint64_t changed,
                                                                   const char *where) {
    if ((changed & CGN_EVENT_WAIT_SET_EVENT) && d->event != NULL) {
        cgn_status st =
            cgn__check_raw_handle((const void *)(uintptr_t)d->event, "event", where);
        if (st != CGN_OK)
            return st;
    }
    return CGN_OK;
}

/* cgn_event_wait_node_update's lean path for updates of event (and what follows it) with no
 * owners. */
static CGN__NOINLINE cgn_status event_wait_node_update_lead(cgn_node *node,
                                                            const cgn_event_wait_update *update,
                                                            const char *where) {
    uint64_t set = update->set;
    cgn__lean lean; /* no owners: the current version has none, and the update gives none */
    int found = cgn__lean_node(&lean, node, CGN_NODE_EVENT_WAIT, 12020, 0);
    if (found) {
        cgn_event_wait_desc d;
        d = *(const cgn_event_wait_desc *)lean.state;
        d.event = update->event;
        d.event_owner = (set & CGN_EVENT_WAIT_SET_EVENT_OWNER) ? update->event_owner : NULL;
        /* A refused update leaves it to the transaction's path, which says why. */
        cgn_status checked = event_wait_check_rules(&d, set, where);
        if (checked == CGN_OK)
            checked = event_wait_check_kinds(&d, set, where);
        if (checked == CGN_OK)
            checked = event_wait_lean_checks(&d, set, where);
        cgn_status failed = CGN_OK;
        int context_free = cgn__driver->version >= 13000;
        if (checked == CGN_OK && cgn__lean_context(&lean, context_free, &failed, where)) {
            CUgraphNodeParams p;
            _Static_assert(sizeof p.eventWait % 8 == 0, "zeroed in 8-byte words");
            cgn__zero_words(&p.eventWait, sizeof p.eventWait);
            int lean_ok = 1;
            if (!(d.event_owner == NULL))
                lean_ok = 0; /* owners or copies: the transaction's */
            if (lean_ok) {
                event_wait_build(&d, lean.ctx, &p);
                CUresult r = event_wait_set_raw(lean.raw, &p);
                if (r != CUDA_SUCCESS) {
                    return cgn__lean_apply_failed(r, where, "cuGraphEventWaitNodeSetEvent");
                }
                *(cgn_event_wait_desc *)lean.state = d;
                return CGN_OK;
            }
        }
        if (failed != CGN_OK)
            return failed;
    }
    cgn__lean kept; /* declined after the lookups: the transaction starts from what they found */
    if (found)
        kept = lean;
    return event_wait_node_update_txn(node, update, found ? &kept : NULL, where);
}

cgn_status cgn_event_wait_node_update(cgn_node *node, const cgn_event_wait_update *update) {
    static const char where[] = "cgn_event_wait_node_update";
    if (update != NULL && (update->set & CGN_EVENT_WAIT_SET_EVENT) &&
            !(update->set & ~(CGN_EVENT_WAIT_SET_EVENT | CGN_EVENT_WAIT_SET_EVENT_OWNER)))
        return event_wait_node_update_lead(node, update, where);
    return event_wait_node_update_txn(node, update, NULL, where);
}

cgn_status cgn_event_wait_node_get(const cgn_node *node, cgn_event_wait_desc *desc_out) {
    static const char where[] = "cgn_event_wait_node_get";
    cgn__node_rec *n;
    cgn_status st = cgn__check_node(node, CGN_NODE_EVENT_WAIT, where, &n);
    if (st != CGN_OK)
        return st;
    if (desc_out == NULL)
        return cgn__fail(CGN_ERROR_INVALID_ARGUMENT, "%s: desc_out must not be NULL", where);
    memcpy(desc_out, n->state, sizeof *desc_out);
    return CGN_OK;
}

/* Field names by bit, and the executable-update rules only the driver checks, for messages
 * about what an executable refused. */
static const char *const event_wait_field_names[] = {
    "event", "event_owner"
};
static const char *const event_wait_driver_rules[] = {
    NULL,
    NULL,
};

CGN__ALWAYS_INLINE
static inline cgn_status event_wait_exec_update_body(cgn_exec *exec, cgn_node *node,
                                                     const cgn_event_wait_update *update,
                                                     uint64_t known_set, const cgn__lean *resolved,
                                                     const char *where) {
    cgn__txn txn;
    cgn_status st = CGN_OK;
    if (resolved != NULL) /* a lean path resolved the handles and declined: no second lookup */
        cgn__txn_start_lean(&txn, resolved);
    else
        st = cgn__exec_update_begin(&txn, exec, node, CGN_NODE_EVENT_WAIT, 12020, where);
    if (st != CGN_OK)
        return st;
    uint64_t set = known_set; /* not const: clang would warn on each test of a constant */
    if (set == 0) { /* the update as given */
        if (update == NULL)
            return cgn__fail(CGN_ERROR_INVALID_ARGUMENT, "%s: update must not be NULL", where);
        set = update->set;
        if (set & ~CGN_EVENT_WAIT_SET_ALL)
            return cgn__fail(CGN_ERROR_INVALID_ARGUMENT, "%s: unknown bits 0x%llx in set", where,
                             (unsigned long long)(set & ~CGN_EVENT_WAIT_SET_ALL));
        if (set == 0)
            return CGN_OK;
    }
    if ((set & CGN_EVENT_WAIT_SET_EVENT_OWNER) && !(set & CGN_EVENT_WAIT_SET_EVENT))
        return cgn__fail(CGN_ERROR_MISSING_FIELD, "%s: event_owner requires event", where);
    cgn_event_wait_desc d = *(const cgn_event_wait_desc *)cgn__txn_current_state(&txn);
    if (set & CGN_EVENT_WAIT_SET_EVENT) {
        d.event = update->event;
        d.event_owner = (set & CGN_EVENT_WAIT_SET_EVENT_OWNER) ? update->event_owner : NULL;
    }
    st = event_wait_check_rules(&d, set, where);
    if (st == CGN_OK)
        st = event_wait_check_kinds(&d, set, where);
    if (st == CGN_OK && cgn__driver->version < 13000)
        st = cgn__txn_enter(&txn, where); /* the node's context, current from here on */
    if (st != CGN_OK)
        return st;
    CUgraphNodeParams p;
    /* Only the member reaches the typed setter: complete and zeroed, from the merged fields. */
    memset(&p.eventWait, 0, sizeof p.eventWait);
    st = event_wait_stage(&txn, &d, update, set, &p, where);
    /* Without a change to an owner field (or what it follows) the owners are unchanged. */
    if (st == CGN_OK && (set & (CGN_EVENT_WAIT_SET_EVENT)))
        st = event_wait_stage_owners(&txn, &d);
    /* The executable-update rules, on the merged fields against the executable's own. */
    if (st == CGN_OK)
        st = cgn__event_wait_exec_check(cgn__txn_current_state(&txn), &d, cgn__txn_context(&txn),
                                        where);
    if (st != CGN_OK)
        return cgn__txn_fail(&txn, st);
    event_wait_build(&d, cgn__txn_context(&txn), &p);
    st = cgn__txn_applied(&txn, event_wait_exec_set_raw(txn.exec->raw, txn.shadow->raw, &p),
                          "cuGraphExecEventWaitNodeSetEvent", where);
    if (st != CGN_OK)
        return cgn__exec_refused(st, set, event_wait_field_names, event_wait_driver_rules,
                                 2);
    cgn__txn_commit_update(&txn, &d, sizeof d);
    return CGN_OK;
}

/* cgn_event_wait_exec_update's path when its lean paths do not apply. */
static CGN__NOINLINE cgn_status event_wait_exec_update_txn(cgn_exec *exec, cgn_node *node,
                                                           const cgn_event_wait_update *update,
                                                           const cgn__lean *resolved,
                                                           const char *where) {
    return event_wait_exec_update_body(exec, node, update, 0, resolved, where);
}

/* cgn_event_wait_exec_update's lean path for updates of event (and what follows it) with no
 * owners. */
static CGN__NOINLINE cgn_status event_wait_exec_update_lead(cgn_exec *exec, cgn_node *node,
                                                            const cgn_event_wait_update *update,
                                                            const char *where) {
    uint64_t set = update->set;
    cgn__lean lean; /* no owners: the current version has none, and the update gives none */
    int found = cgn__lean_shadow(&lean, exec, node, CGN_NODE_EVENT_WAIT, 12020, 0);
    if (found) {
        cgn_event_wait_desc d;
        d = *(const cgn_event_wait_desc *)lean.state;
        d.event = update->event;
        d.event_owner = (set & CGN_EVENT_WAIT_SET_EVENT_OWNER) ? update->event_owner : NULL;
        /* A refused update leaves it to the transaction's path, which says why. */
        cgn_status checked = event_wait_check_rules(&d, set, where);
        if (checked == CGN_OK)
            checked = event_wait_check_kinds(&d, set, where);
        if (checked == CGN_OK)
            checked = event_wait_lean_checks(&d, set, where);
        cgn_status failed = CGN_OK;
        int context_free = cgn__driver->version >= 13000;
        if (checked == CGN_OK && cgn__lean_context(&lean, context_free, &failed, where)) {
            CUgraphNodeParams p;
            _Static_assert(sizeof p.eventWait % 8 == 0, "zeroed in 8-byte words");
            cgn__zero_words(&p.eventWait, sizeof p.eventWait);
            int lean_ok = 1;
            if (!(d.event_owner == NULL))
                lean_ok = 0; /* owners or copies: the transaction's */
            if (lean_ok) {
                event_wait_build(&d, lean.ctx, &p);
                CUresult r = event_wait_exec_set_raw(lean.exec, lean.raw, &p);
                if (r != CUDA_SUCCESS) {
                    cgn_status st = cgn__lean_apply_failed(r, where,
                                                           "cuGraphExecEventWaitNodeSetEvent");
                    return cgn__exec_refused(st, set, event_wait_field_names,
                                             event_wait_driver_rules, 2);
                }
                *(cgn_event_wait_desc *)lean.state = d;
                return CGN_OK;
            }
        }
        if (failed != CGN_OK)
            return failed;
    }
    cgn__lean kept; /* declined after the lookups: the transaction starts from what they found */
    if (found)
        kept = lean;
    return event_wait_exec_update_txn(exec, node, update, found ? &kept : NULL, where);
}

cgn_status cgn_event_wait_exec_update(cgn_exec *exec, cgn_node *node,
                                      const cgn_event_wait_update *update) {
    static const char where[] = "cgn_event_wait_exec_update";
    if (update != NULL && (update->set & CGN_EVENT_WAIT_SET_EVENT) &&
            !(update->set & ~(CGN_EVENT_WAIT_SET_EVENT | CGN_EVENT_WAIT_SET_EVENT_OWNER)))
        return event_wait_exec_update_lead(exec, node, update, where);
    return event_wait_exec_update_txn(exec, node, update, NULL, where);
}

cgn_status cgn_event_wait_exec_get(const cgn_exec *exec, const cgn_node *node,
                                   cgn_event_wait_desc *desc_out) {
    static const char where[] = "cgn_event_wait_exec_get";
    cgn__txn txn;
    cgn_status st = cgn__exec_update_begin(&txn, (cgn_exec *)(uintptr_t)exec,
                                           (cgn_node *)(uintptr_t)node, CGN_NODE_EVENT_WAIT, 0,
                                           where);
    if (st != CGN_OK)
        return st;
    if (desc_out == NULL)
        return cgn__fail(CGN_ERROR_INVALID_ARGUMENT, "%s: desc_out must not be NULL", where);
    memcpy(desc_out, cgn__txn_current_state(&txn), sizeof *desc_out);
    return CGN_OK;
}

/* Reads an adopted (or refreshed) node's params into its desc: the inverse of event_wait_build.
 * Owners are never read (what the node points at is the caller's), except that a refresh keeps
 * those of unchanged values (prev). */
cgn_status cgn__event_wait_read(cgn__reader *rd, const CUgraphNodeParams *p, void *desc_,
                                const void *prev_, const char *where) {
    cgn_event_wait_desc *d = desc_;
    const cgn_event_wait_desc *prev = prev_;
    (void)rd;
    (void)where;
    memset(d, 0, sizeof *d);
    d->event = p->eventWait.event;
    if (prev != NULL && d->event == prev->event)
        d->event_owner = prev->event_owner;
    return CGN_OK;
}
