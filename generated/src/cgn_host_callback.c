/* Generated from spec/host_callback.yaml by codegen; do not edit. */
#include <string.h>

#include "runtime.h"

/* Field rules from the spec, checked on the complete (merged) parameters. */
CGN__ALWAYS_INLINE static inline cgn_status host_callback_check_rules(const cgn_host_callback_desc *d,
                                                                      uint64_t changed,
                                                                      const char *where) {
    if ((changed & (CGN_HOST_CALLBACK_SET_FN)) && (d->fn == NULL))
        return cgn__fail(CGN_ERROR_INVALID_VALUE, "%s: fn must not be NULL", where);
    if ((changed & (CGN_HOST_CALLBACK_SET_FN | CGN_HOST_CALLBACK_SET_PAYLOAD)) &&
        (d->payload == NULL && d->payload_size != 0))
        return cgn__fail(CGN_ERROR_INVALID_ARGUMENT, "%s: payload is NULL but payload_size is %zu",
                         where, d->payload_size);
    if ((changed & (CGN_HOST_CALLBACK_SET_FN | CGN_HOST_CALLBACK_SET_PAYLOAD |
                    CGN_HOST_CALLBACK_SET_USER_DATA)) &&
        (d->user_data != NULL && d->payload != NULL))
        return cgn__fail(CGN_ERROR_INVALID_VALUE,
                         "%s: user_data and payload are exclusive: give one of them", where);
    return CGN_OK;
}

/* Checks of field kinds that need more than a rule (kernel handles, argument lists). */
CGN__ALWAYS_INLINE static inline cgn_status host_callback_check_kinds(const cgn_host_callback_desc *d,
                                                                      uint64_t changed,
                                                                      const char *where) {
    (void)d;
    (void)changed;
    (void)where;
    return CGN_OK;
}

/* Stages cgn-owned copies of borrowed fields (checking them where that needs the driver);
 * *d is rewritten to point at the copies. */
CGN__ALWAYS_INLINE static inline cgn_status host_callback_stage(cgn__txn *txn,
                                                                cgn_host_callback_desc *d,
                                                                const cgn_host_callback_update *u,
                                                                uint64_t changed,
                                                                CUgraphNodeParams *p,
                                                                const char *where) {
    (void)txn;
    (void)u;
    (void)p;
    if ((changed & CGN_HOST_CALLBACK_SET_FN) && d->fn != NULL) {
        cgn_status st =
            cgn__check_raw_handle((const void *)(uintptr_t)d->fn, "fn", where);
        if (st != CGN_OK)
            return st;
    }
    if (changed & CGN_HOST_CALLBACK_SET_FN) {
        cgn_status st = cgn__stage_bytes(d->payload, d->payload_size, &d->payload,
                                         &d->payload_owner, "payload", where);
        if (st != CGN_OK)
            return st;
    }
    return CGN_OK;
}

/* The owners of the new version, in the spec's `owners` order. */
CGN__ALWAYS_INLINE static inline cgn_status host_callback_stage_owners(cgn__txn *txn,
                                                                       const cgn_host_callback_desc *d) {
    cgn_owner *const owners[] = {d->user_data_owner, d->payload_owner};
    return cgn__txn_stage_owners(txn, owners, sizeof owners / sizeof owners[0], NULL, 0);
}

/* Drops the references host_callback_stage created, once the owners are staged or staging
 * failed: the staged attachment, if any, holds its own, and a rollback releases that one. */
static void host_callback_settle(const cgn_host_callback_desc *d, uint64_t changed) {
    if (changed & CGN_HOST_CALLBACK_SET_FN)
        cgn__release_staged_copy(d->payload_owner);
}

/* Fills the driver params from the merged fields; fields staged by host_callback_stage are kept. */
CGN__ALWAYS_INLINE static inline void host_callback_build(const cgn_host_callback_desc *d,
                                                          CUcontext ctx, CUgraphNodeParams *p) {
    (void)ctx;
    p->type = CU_GRAPH_NODE_TYPE_HOST;
    p->host.fn = d->fn;
    if (d->user_data != NULL)
        p->host.userData = d->user_data;
    if (d->payload != NULL)
        p->host.userData = (void *)(uintptr_t)d->payload;
}

cgn_status cgn_graph_add_host_callback(cgn_graph *graph, cgn_node *const *deps, size_t num_deps,
                                       const cgn_host_callback_desc *desc, cgn_node **node_out) {
    static const char where[] = "cgn_graph_add_host_callback";
    if (desc == NULL || node_out == NULL)
        return cgn__fail(CGN_ERROR_INVALID_ARGUMENT, "%s: desc and node_out must not be NULL",
                         where);
    cgn_host_callback_desc d = *desc;
    /* Members set by cgn are ignored on input. */
    d.payload_owner = NULL;
    cgn_status st = host_callback_check_rules(&d, CGN_HOST_CALLBACK_SET_ALL, where);
    if (st == CGN_OK)
        st = host_callback_check_kinds(&d, CGN_HOST_CALLBACK_SET_ALL, where);
    if (st != CGN_OK)
        return st;
    cgn__txn txn;
    st = cgn__add_begin(&txn, graph, deps, num_deps, CGN_NODE_HOST, sizeof d, 0, where);
    if (st != CGN_OK)
        return st;
    CUgraphNodeParams p;
    memset(&p, 0, sizeof p);
    st = host_callback_stage(&txn, &d, NULL, CGN_HOST_CALLBACK_SET_ALL, &p, where);
    if (st == CGN_OK)
        st = host_callback_stage_owners(&txn, &d);
    host_callback_settle(&d, CGN_HOST_CALLBACK_SET_ALL);
    if (st != CGN_OK)
        return cgn__txn_fail(&txn, st);
    host_callback_build(&d, cgn__txn_context(&txn), &p);
    st = cgn__txn_apply(&txn, &p, where);
    if (st != CGN_OK)
        return st;
    cgn__txn_commit(&txn, &d, sizeof d, node_out);
    return CGN_OK;
}

/* The executable-update rules: may an executable's version `cur` become `d`? */
cgn_status cgn__host_callback_exec_check(const void *cur_, const void *d_, CUcontext ctx,
                                         const char *where) {
    const cgn_host_callback_desc *cur = cur_;
    const cgn_host_callback_desc *d = d_;
    (void)cur;
    (void)d;
    (void)ctx;
    (void)where;
    return CGN_OK;
}

/* The definition-level mutation through the typed setter (spec: cuda.set). */
CGN__ALWAYS_INLINE static inline CUresult host_callback_set_raw(CUgraphNode node,
                                                                const CUgraphNodeParams *p) {
    const CUDA_HOST_NODE_PARAMS_v1 *a = (const void *)&p->host;
    _Static_assert(sizeof *a <= sizeof p->host,
                   "CUDA_HOST_NODE_PARAMS_v1 is a prefix of the params");
    return cgn__driver->cuGraphHostNodeSetParams(node, a);
}

/* The executable-level mutation through the typed setter (spec: cuda.exec_set). */
CGN__ALWAYS_INLINE static inline CUresult host_callback_exec_set_raw(CUgraphExec exec,
                                                                     CUgraphNode node,
                                                                     const CUgraphNodeParams *p) {
    const CUDA_HOST_NODE_PARAMS_v1 *a = (const void *)&p->host;
    _Static_assert(sizeof *a <= sizeof p->host,
                   "CUDA_HOST_NODE_PARAMS_v1 is a prefix of the params");
    return cgn__driver->cuGraphExecHostNodeSetParams(exec, node, a);
}

/* The body of the update functions, shared with the one-call forms (if any, below):
 * `known_set` 0 is an update as given (checked here), else the set of the one setter a one-call
 * form applied to `update`. Inlined into each caller, which keeps only the paths its updates can
 * take. */
CGN__ALWAYS_INLINE
static inline cgn_status host_callback_node_update_body(cgn_node *node,
                                                        const cgn_host_callback_update *update,
                                                        uint64_t known_set,
                                                        const cgn__lean *resolved,
                                                        const char *where) {
    cgn__txn txn;
    cgn_status st = CGN_OK;
    if (resolved != NULL) /* a lean path resolved the handles and declined: no second lookup */
        cgn__txn_start_lean(&txn, resolved);
    else
        st = cgn__update_begin(&txn, node, CGN_NODE_HOST, 12020, where);
    if (st != CGN_OK)
        return st;
    uint64_t set = known_set; /* not const: clang would warn on each test of a constant */
    if (set == 0) { /* the update as given */
        if (update == NULL)
            return cgn__fail(CGN_ERROR_INVALID_ARGUMENT, "%s: update must not be NULL", where);
        set = update->set;
        if (set & ~CGN_HOST_CALLBACK_SET_ALL)
            return cgn__fail(CGN_ERROR_INVALID_ARGUMENT, "%s: unknown bits 0x%llx in set", where,
                             (unsigned long long)(set & ~CGN_HOST_CALLBACK_SET_ALL));
        if (set == 0)
            return CGN_OK;
    }
    if (set & (CGN_HOST_CALLBACK_SET_USER_DATA | CGN_HOST_CALLBACK_SET_USER_DATA_OWNER |
            CGN_HOST_CALLBACK_SET_PAYLOAD)) {
        if ((set & CGN_HOST_CALLBACK_SET_USER_DATA) && !(set & CGN_HOST_CALLBACK_SET_FN))
            return cgn__fail(CGN_ERROR_MISSING_FIELD, "%s: user_data requires fn", where);
        if ((set & CGN_HOST_CALLBACK_SET_USER_DATA_OWNER) && !(set & CGN_HOST_CALLBACK_SET_FN))
            return cgn__fail(CGN_ERROR_MISSING_FIELD, "%s: user_data_owner requires fn", where);
        if ((set & CGN_HOST_CALLBACK_SET_USER_DATA_OWNER) &&
            !(set & CGN_HOST_CALLBACK_SET_USER_DATA))
            return cgn__fail(CGN_ERROR_MISSING_FIELD, "%s: user_data_owner requires user_data",
                             where);
        if ((set & CGN_HOST_CALLBACK_SET_PAYLOAD) && !(set & CGN_HOST_CALLBACK_SET_FN))
            return cgn__fail(CGN_ERROR_MISSING_FIELD, "%s: payload requires fn", where);
    }
    cgn_host_callback_desc d = *(const cgn_host_callback_desc *)cgn__txn_current_state(&txn);
    if (set & CGN_HOST_CALLBACK_SET_FN) {
        d.fn = update->fn;
        d.user_data = (set & CGN_HOST_CALLBACK_SET_USER_DATA) ? update->user_data : NULL;
        d.user_data_owner =
            (set & CGN_HOST_CALLBACK_SET_USER_DATA_OWNER) ? update->user_data_owner : NULL;
        d.payload = (set & CGN_HOST_CALLBACK_SET_PAYLOAD) ? update->payload : NULL;
        d.payload_size = (set & CGN_HOST_CALLBACK_SET_PAYLOAD) ? update->payload_size : 0;
        d.payload_owner = NULL; /* set by cgn */
    }
    st = host_callback_check_rules(&d, set, where);
    if (st == CGN_OK)
        st = host_callback_check_kinds(&d, set, where);
    if (st == CGN_OK && cgn__driver->version < 13000)
        st = cgn__txn_enter(&txn, where); /* the node's context, current from here on */
    if (st != CGN_OK)
        return st;
    CUgraphNodeParams p;
    /* Only the member reaches the typed setter: complete and zeroed, from the merged fields. */
    memset(&p.host, 0, sizeof p.host);
    st = host_callback_stage(&txn, &d, update, set, &p, where);
    /* Without a change to an owner field (or what it follows) the owners are unchanged. */
    if (st == CGN_OK && (set & (CGN_HOST_CALLBACK_SET_FN)))
        st = host_callback_stage_owners(&txn, &d);
    host_callback_settle(&d, set);
    if (st != CGN_OK)
        return cgn__txn_fail(&txn, st);
    host_callback_build(&d, cgn__txn_context(&txn), &p);
    st = cgn__txn_applied(&txn, host_callback_set_raw(txn.node->raw, &p),
                          "cuGraphHostNodeSetParams", where);
    if (st != CGN_OK)
        return st;
    cgn__txn_commit_update(&txn, &d, sizeof d);
    return CGN_OK;
}

/* cgn_host_callback_node_update's path when its lean paths do not apply. */
static CGN__NOINLINE cgn_status host_callback_node_update_txn(cgn_node *node,
                                                              const cgn_host_callback_update *update,
                                                              const cgn__lean *resolved,
                                                              const char *where) {
    return host_callback_node_update_body(node, update, 0, resolved, where);
}

/* What host_callback_stage does for the fields of the lead path below: checks alone. */
CGN__ALWAYS_INLINE static inline cgn_status host_callback_lean_checks(const cgn_host_callback_desc *d,
                                                                      uint64_t changed,
                                                                      const char *where) {
    if ((changed & CGN_HOST_CALLBACK_SET_FN) && d->fn != NULL) {
        cgn_status st =
            cgn__check_raw_handle((const void *)(uintptr_t)d->fn, "fn", where);
        if (st != CGN_OK)
            return st;
    }
    return CGN_OK;
}

/* cgn_host_callback_node_update's lean path for updates of fn (and what follows it) with no
 * owners. */
static CGN__NOINLINE cgn_status host_callback_node_update_lead(cgn_node *node,
                                                               const cgn_host_callback_update *update,
                                                               const char *where) {
    uint64_t set = update->set;
    /* A field set without one it requires: the transaction's path says which. */
    if ((set & CGN_HOST_CALLBACK_SET_USER_DATA_OWNER) &&
        !(set & CGN_HOST_CALLBACK_SET_USER_DATA))
        return host_callback_node_update_txn(node, update, NULL, where);
    cgn__lean lean; /* no owners: the current version has none, and the update gives none */
    int found = cgn__lean_node(&lean, node, CGN_NODE_HOST, 12020, 0);
    if (found) {
        cgn_host_callback_desc d;
        d = *(const cgn_host_callback_desc *)lean.state;
        d.fn = update->fn;
        d.user_data = (set & CGN_HOST_CALLBACK_SET_USER_DATA) ? update->user_data : NULL;
        d.user_data_owner =
            (set & CGN_HOST_CALLBACK_SET_USER_DATA_OWNER) ? update->user_data_owner : NULL;
        d.payload = (set & CGN_HOST_CALLBACK_SET_PAYLOAD) ? update->payload : NULL;
        d.payload_size = (set & CGN_HOST_CALLBACK_SET_PAYLOAD) ? update->payload_size : 0;
        d.payload_owner = NULL; /* set by cgn */
        /* A refused update leaves it to the transaction's path, which says why. */
        cgn_status checked = host_callback_check_rules(&d, set, where);
        if (checked == CGN_OK)
            checked = host_callback_check_kinds(&d, set, where);
        if (checked == CGN_OK)
            checked = host_callback_lean_checks(&d, set, where);
        cgn_status failed = CGN_OK;
        int context_free = cgn__driver->version >= 13000;
        if (checked == CGN_OK && cgn__lean_context(&lean, context_free, &failed, where)) {
            CUgraphNodeParams p;
            _Static_assert(sizeof p.host % 8 == 0, "zeroed in 8-byte words");
            cgn__zero_words(&p.host, sizeof p.host);
            int lean_ok = 1;
            if (!(d.user_data_owner == NULL && d.payload_size == 0))
                lean_ok = 0; /* owners or copies: the transaction's */
            d.payload = NULL;
            if (lean_ok) {
                host_callback_build(&d, lean.ctx, &p);
                CUresult r = host_callback_set_raw(lean.raw, &p);
                if (r != CUDA_SUCCESS) {
                    return cgn__lean_apply_failed(r, where, "cuGraphHostNodeSetParams");
                }
                *(cgn_host_callback_desc *)lean.state = d;
                return CGN_OK;
            }
        }
        if (failed != CGN_OK)
            return failed;
    }
    cgn__lean kept; /* declined after the lookups: the transaction starts from what they found */
    if (found)
        kept = lean;
    return host_callback_node_update_txn(node, update, found ? &kept : NULL, where);
}

cgn_status cgn_host_callback_node_update(cgn_node *node, const cgn_host_callback_update *update) {
    static const char where[] = "cgn_host_callback_node_update";
    if (update != NULL && (update->set & CGN_HOST_CALLBACK_SET_FN) &&
            !(update->set & ~(CGN_HOST_CALLBACK_SET_FN | CGN_HOST_CALLBACK_SET_USER_DATA |
            CGN_HOST_CALLBACK_SET_USER_DATA_OWNER | CGN_HOST_CALLBACK_SET_PAYLOAD)))
        return host_callback_node_update_lead(node, update, where);
    return host_callback_node_update_txn(node, update, NULL, where);
}

cgn_status cgn_host_callback_node_get(const cgn_node *node, cgn_host_callback_desc *desc_out) {
    static const char where[] = "cgn_host_callback_node_get";
    cgn__node_rec *n;
    cgn_status st = cgn__check_node(node, CGN_NODE_HOST, where, &n);
    if (st != CGN_OK)
        return st;
    if (desc_out == NULL)
        return cgn__fail(CGN_ERROR_INVALID_ARGUMENT, "%s: desc_out must not be NULL", where);
    memcpy(desc_out, n->state, sizeof *desc_out);
    return CGN_OK;
}

/* Field names by bit, and the executable-update rules only the driver checks, for messages
 * about what an executable refused. */
static const char *const host_callback_field_names[] = {
    "fn", "user_data", "user_data_owner", "payload"
};
static const char *const host_callback_driver_rules[] = {
    NULL,
    NULL,
    NULL,
    NULL,
};

CGN__ALWAYS_INLINE
static inline cgn_status host_callback_exec_update_body(cgn_exec *exec, cgn_node *node,
                                                        const cgn_host_callback_update *update,
                                                        uint64_t known_set,
                                                        const cgn__lean *resolved,
                                                        const char *where) {
    cgn__txn txn;
    cgn_status st = CGN_OK;
    if (resolved != NULL) /* a lean path resolved the handles and declined: no second lookup */
        cgn__txn_start_lean(&txn, resolved);
    else
        st = cgn__exec_update_begin(&txn, exec, node, CGN_NODE_HOST, 12020, where);
    if (st != CGN_OK)
        return st;
    uint64_t set = known_set; /* not const: clang would warn on each test of a constant */
    if (set == 0) { /* the update as given */
        if (update == NULL)
            return cgn__fail(CGN_ERROR_INVALID_ARGUMENT, "%s: update must not be NULL", where);
        set = update->set;
        if (set & ~CGN_HOST_CALLBACK_SET_ALL)
            return cgn__fail(CGN_ERROR_INVALID_ARGUMENT, "%s: unknown bits 0x%llx in set", where,
                             (unsigned long long)(set & ~CGN_HOST_CALLBACK_SET_ALL));
        if (set == 0)
            return CGN_OK;
    }
    if (set & (CGN_HOST_CALLBACK_SET_USER_DATA | CGN_HOST_CALLBACK_SET_USER_DATA_OWNER |
            CGN_HOST_CALLBACK_SET_PAYLOAD)) {
        if ((set & CGN_HOST_CALLBACK_SET_USER_DATA) && !(set & CGN_HOST_CALLBACK_SET_FN))
            return cgn__fail(CGN_ERROR_MISSING_FIELD, "%s: user_data requires fn", where);
        if ((set & CGN_HOST_CALLBACK_SET_USER_DATA_OWNER) && !(set & CGN_HOST_CALLBACK_SET_FN))
            return cgn__fail(CGN_ERROR_MISSING_FIELD, "%s: user_data_owner requires fn", where);
        if ((set & CGN_HOST_CALLBACK_SET_USER_DATA_OWNER) &&
            !(set & CGN_HOST_CALLBACK_SET_USER_DATA))
            return cgn__fail(CGN_ERROR_MISSING_FIELD, "%s: user_data_owner requires user_data",
                             where);
        if ((set & CGN_HOST_CALLBACK_SET_PAYLOAD) && !(set & CGN_HOST_CALLBACK_SET_FN))
            return cgn__fail(CGN_ERROR_MISSING_FIELD, "%s: payload requires fn", where);
    }
    cgn_host_callback_desc d = *(const cgn_host_callback_desc *)cgn__txn_current_state(&txn);
    if (set & CGN_HOST_CALLBACK_SET_FN) {
        d.fn = update->fn;
        d.user_data = (set & CGN_HOST_CALLBACK_SET_USER_DATA) ? update->user_data : NULL;
        d.user_data_owner =
            (set & CGN_HOST_CALLBACK_SET_USER_DATA_OWNER) ? update->user_data_owner : NULL;
        d.payload = (set & CGN_HOST_CALLBACK_SET_PAYLOAD) ? update->payload : NULL;
        d.payload_size = (set & CGN_HOST_CALLBACK_SET_PAYLOAD) ? update->payload_size : 0;
        d.payload_owner = NULL; /* set by cgn */
    }
    st = host_callback_check_rules(&d, set, where);
    if (st == CGN_OK)
        st = host_callback_check_kinds(&d, set, where);
    if (st == CGN_OK && cgn__driver->version < 13000)
        st = cgn__txn_enter(&txn, where); /* the node's context, current from here on */
    if (st != CGN_OK)
        return st;
    CUgraphNodeParams p;
    /* Only the member reaches the typed setter: complete and zeroed, from the merged fields. */
    memset(&p.host, 0, sizeof p.host);
    st = host_callback_stage(&txn, &d, update, set, &p, where);
    /* Without a change to an owner field (or what it follows) the owners are unchanged. */
    if (st == CGN_OK && (set & (CGN_HOST_CALLBACK_SET_FN)))
        st = host_callback_stage_owners(&txn, &d);
    host_callback_settle(&d, set);
    /* The executable-update rules, on the merged fields against the executable's own. */
    if (st == CGN_OK)
        st = cgn__host_callback_exec_check(cgn__txn_current_state(&txn), &d, cgn__txn_context(&txn),
                                           where);
    if (st != CGN_OK)
        return cgn__txn_fail(&txn, st);
    host_callback_build(&d, cgn__txn_context(&txn), &p);
    st = cgn__txn_applied(&txn, host_callback_exec_set_raw(txn.exec->raw, txn.shadow->raw, &p),
                          "cuGraphExecHostNodeSetParams", where);
    if (st != CGN_OK)
        return cgn__exec_refused(st, set, host_callback_field_names, host_callback_driver_rules,
                                 4);
    cgn__txn_commit_update(&txn, &d, sizeof d);
    return CGN_OK;
}

/* cgn_host_callback_exec_update's path when its lean paths do not apply. */
static CGN__NOINLINE cgn_status host_callback_exec_update_txn(cgn_exec *exec, cgn_node *node,
                                                              const cgn_host_callback_update *update,
                                                              const cgn__lean *resolved,
                                                              const char *where) {
    return host_callback_exec_update_body(exec, node, update, 0, resolved, where);
}

/* cgn_host_callback_exec_update's lean path for updates of fn (and what follows it) with no
 * owners. */
static CGN__NOINLINE cgn_status host_callback_exec_update_lead(cgn_exec *exec, cgn_node *node,
                                                               const cgn_host_callback_update *update,
                                                               const char *where) {
    uint64_t set = update->set;
    /* A field set without one it requires: the transaction's path says which. */
    if ((set & CGN_HOST_CALLBACK_SET_USER_DATA_OWNER) &&
        !(set & CGN_HOST_CALLBACK_SET_USER_DATA))
        return host_callback_exec_update_txn(exec, node, update, NULL, where);
    cgn__lean lean; /* no owners: the current version has none, and the update gives none */
    int found = cgn__lean_shadow(&lean, exec, node, CGN_NODE_HOST, 12020, 0);
    if (found) {
        cgn_host_callback_desc d;
        d = *(const cgn_host_callback_desc *)lean.state;
        d.fn = update->fn;
        d.user_data = (set & CGN_HOST_CALLBACK_SET_USER_DATA) ? update->user_data : NULL;
        d.user_data_owner =
            (set & CGN_HOST_CALLBACK_SET_USER_DATA_OWNER) ? update->user_data_owner : NULL;
        d.payload = (set & CGN_HOST_CALLBACK_SET_PAYLOAD) ? update->payload : NULL;
        d.payload_size = (set & CGN_HOST_CALLBACK_SET_PAYLOAD) ? update->payload_size : 0;
        d.payload_owner = NULL; /* set by cgn */
        /* A refused update leaves it to the transaction's path, which says why. */
        cgn_status checked = host_callback_check_rules(&d, set, where);
        if (checked == CGN_OK)
            checked = host_callback_check_kinds(&d, set, where);
        if (checked == CGN_OK)
            checked = host_callback_lean_checks(&d, set, where);
        cgn_status failed = CGN_OK;
        int context_free = cgn__driver->version >= 13000;
        if (checked == CGN_OK && cgn__lean_context(&lean, context_free, &failed, where)) {
            CUgraphNodeParams p;
            _Static_assert(sizeof p.host % 8 == 0, "zeroed in 8-byte words");
            cgn__zero_words(&p.host, sizeof p.host);
            int lean_ok = 1;
            if (!(d.user_data_owner == NULL && d.payload_size == 0))
                lean_ok = 0; /* owners or copies: the transaction's */
            d.payload = NULL;
            if (lean_ok) {
                host_callback_build(&d, lean.ctx, &p);
                CUresult r = host_callback_exec_set_raw(lean.exec, lean.raw, &p);
                if (r != CUDA_SUCCESS) {
                    cgn_status st = cgn__lean_apply_failed(r, where,
                                                           "cuGraphExecHostNodeSetParams");
                    return cgn__exec_refused(st, set, host_callback_field_names,
                                             host_callback_driver_rules, 4);
                }
                *(cgn_host_callback_desc *)lean.state = d;
                return CGN_OK;
            }
        }
        if (failed != CGN_OK)
            return failed;
    }
    cgn__lean kept; /* declined after the lookups: the transaction starts from what they found */
    if (found)
        kept = lean;
    return host_callback_exec_update_txn(exec, node, update, found ? &kept : NULL, where);
}

cgn_status cgn_host_callback_exec_update(cgn_exec *exec, cgn_node *node,
                                         const cgn_host_callback_update *update) {
    static const char where[] = "cgn_host_callback_exec_update";
    if (update != NULL && (update->set & CGN_HOST_CALLBACK_SET_FN) &&
            !(update->set & ~(CGN_HOST_CALLBACK_SET_FN | CGN_HOST_CALLBACK_SET_USER_DATA |
            CGN_HOST_CALLBACK_SET_USER_DATA_OWNER | CGN_HOST_CALLBACK_SET_PAYLOAD)))
        return host_callback_exec_update_lead(exec, node, update, where);
    return host_callback_exec_update_txn(exec, node, update, NULL, where);
}

cgn_status cgn_host_callback_exec_get(const cgn_exec *exec, const cgn_node *node,
                                      cgn_host_callback_desc *desc_out) {
    static const char where[] = "cgn_host_callback_exec_get";
    cgn__txn txn;
    cgn_status st = cgn__exec_update_begin(&txn, (cgn_exec *)(uintptr_t)exec,
                                           (cgn_node *)(uintptr_t)node, CGN_NODE_HOST, 0, where);
    if (st != CGN_OK)
        return st;
    if (desc_out == NULL)
        return cgn__fail(CGN_ERROR_INVALID_ARGUMENT, "%s: desc_out must not be NULL", where);
    memcpy(desc_out, cgn__txn_current_state(&txn), sizeof *desc_out);
    return CGN_OK;
}

/* Reads an adopted (or refreshed) node's params into its desc: the inverse of
 * host_callback_build. Owners are never read (what the node points at is the caller's), except
 * that a refresh keeps those of unchanged values (prev). */
cgn_status cgn__host_callback_read(cgn__reader *rd, const CUgraphNodeParams *p, void *desc_,
                                   const void *prev_, const char *where) {
    cgn_host_callback_desc *d = desc_;
    const cgn_host_callback_desc *prev = prev_;
    (void)rd;
    (void)where;
    memset(d, 0, sizeof *d);
    d->fn = p->host.fn;
    d->user_data = p->host.userData;
    if (prev != NULL && d->fn == prev->fn && d->user_data == prev->user_data)
        d->user_data_owner = prev->user_data_owner;
    return CGN_OK;
}
