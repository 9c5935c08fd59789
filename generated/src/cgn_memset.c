/* Generated from spec/memset.yaml by codegen; do not edit. */
#include <string.h>

#include "runtime.h"

/* Field rules from the spec, checked on the complete (merged) parameters. */
CGN__ALWAYS_INLINE static inline cgn_status memset_check_rules(const cgn_memset_desc *d,
                                                               uint64_t changed,
                                                               const char *where) {
    if ((changed & (CGN_MEMSET_SET_DST)) && (d->dst == 0))
        return cgn__fail(CGN_ERROR_INVALID_VALUE, "%s: dst must not be 0", where);
    if ((changed & (CGN_MEMSET_SET_ELEMENT_SIZE)) &&
        (d->element_size != 1 && d->element_size != 2 && d->element_size != 4))
        return cgn__fail(CGN_ERROR_INVALID_VALUE, "%s: element_size must be 1, 2 or 4, not %u",
                         where, d->element_size);
    if ((changed & (CGN_MEMSET_SET_ELEMENT_SIZE | CGN_MEMSET_SET_VALUE)) &&
        (d->element_size < 4 && d->value >= (1u << (8u * d->element_size))))
        return cgn__fail(CGN_ERROR_OUT_OF_RANGE, "%s: value 0x%x does not fit %u byte(s)", where,
                         d->value, d->element_size);
    if ((changed & (CGN_MEMSET_SET_WIDTH)) && (d->width == 0))
        return cgn__fail(CGN_ERROR_INVALID_VALUE, "%s: width must be at least 1", where);
    if ((changed & (CGN_MEMSET_SET_HEIGHT)) && (d->height == 0))
        return cgn__fail(CGN_ERROR_INVALID_VALUE, "%s: height must be at least 1", where);
    if ((changed & (CGN_MEMSET_SET_ELEMENT_SIZE | CGN_MEMSET_SET_WIDTH)) &&
        (d->width > SIZE_MAX / d->element_size))
        return cgn__fail(CGN_ERROR_OUT_OF_RANGE,
                         "%s: width %zu times element_size %u does not fit size_t", where, d->width,
                         d->element_size);
    if ((changed & (CGN_MEMSET_SET_ELEMENT_SIZE | CGN_MEMSET_SET_HEIGHT | CGN_MEMSET_SET_PITCH |
                    CGN_MEMSET_SET_WIDTH)) &&
        (d->height > 1 && d->pitch < d->width * d->element_size))
        return cgn__fail(CGN_ERROR_INVALID_VALUE,
                         "%s: pitch %zu is less than width*element_size = %zu", where, d->pitch,
                         d->width * d->element_size);
    if ((changed & (CGN_MEMSET_SET_ELEMENT_SIZE | CGN_MEMSET_SET_HEIGHT | CGN_MEMSET_SET_PITCH |
                    CGN_MEMSET_SET_WIDTH)) &&
        (d->height > 1 && (d->height - 1) > (SIZE_MAX - d->width * d->element_size) / d->pitch))
        return cgn__fail(CGN_ERROR_OUT_OF_RANGE, "%s: %zu rows of pitch %zu do not fit size_t",
                         where, d->height, d->pitch);
    return CGN_OK;
}

/* Checks of field kinds that need more than a rule (kernel handles, argument lists). */
CGN__ALWAYS_INLINE static inline cgn_status memset_check_kinds(const cgn_memset_desc *d,
                                                               uint64_t changed,
                                                               const char *where) {
    (void)d;
    (void)changed;
    (void)where;
    return CGN_OK;
}

/* Stages cgn-owned copies of borrowed fields (checking them where that needs the driver);
 * *d is rewritten to point at the copies. */
CGN__ALWAYS_INLINE static inline cgn_status memset_stage(cgn__txn *txn, cgn_memset_desc *d,
                                                         const cgn_memset_update *u,
                                                         uint64_t changed, CUgraphNodeParams *p,
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
CGN__ALWAYS_INLINE static inline cgn_status memset_stage_owners(cgn__txn *txn,
                                                                const cgn_memset_desc *d) {
    cgn_owner *const owners[] = {d->dst_owner};
    return cgn__txn_stage_owners(txn, owners, sizeof owners / sizeof owners[0], NULL, 0);
}

/* Fills the driver params from the merged fields; fields staged by memset_stage are kept. */
CGN__ALWAYS_INLINE static inline void memset_build(const cgn_memset_desc *d, CUcontext ctx,
                                                   CUgraphNodeParams *p) {
    p->type = CU_GRAPH_NODE_TYPE_MEMSET;
    p->memset.dst = d->dst;
    p->memset.value = d->value;
    p->memset.elementSize = d->element_size;
    p->memset.width = d->width;
    p->memset.height = d->height;
    p->memset.pitch = d->pitch;
    p->memset.ctx = ctx;
}

cgn_status cgn_graph_add_memset(cgn_graph *graph, cgn_node *const *deps, size_t num_deps,
                                const cgn_memset_desc *desc, cgn_node **node_out) {
    static const char where[] = "cgn_graph_add_memset";
    if (desc == NULL || node_out == NULL)
        return cgn__fail(CGN_ERROR_INVALID_ARGUMENT, "%s: desc and node_out must not be NULL",
                         where);
    cgn_memset_desc d = *desc;
    cgn_status st = memset_check_rules(&d, CGN_MEMSET_SET_ALL, where);
    if (st == CGN_OK)
        st = memset_check_kinds(&d, CGN_MEMSET_SET_ALL, where);
    if (st != CGN_OK)
        return st;
    cgn__txn txn;
    st = cgn__add_begin(&txn, graph, deps, num_deps, CGN_NODE_MEMSET, sizeof d, 1, where);
    if (st != CGN_OK)
        return st;
    CUgraphNodeParams p;
    memset(&p, 0, sizeof p);
    st = memset_stage(&txn, &d, NULL, CGN_MEMSET_SET_ALL, &p, where);
    if (st == CGN_OK)
        st = memset_stage_owners(&txn, &d);
    if (st != CGN_OK)
        return cgn__txn_fail(&txn, st);
    memset_build(&d, cgn__txn_context(&txn), &p);
    st = cgn__txn_apply(&txn, &p, where);
    if (st != CGN_OK)
        return st;
    cgn__txn_commit(&txn, &d, sizeof d, node_out);
    return CGN_OK;
}

/* The executable-update rules: may an executable's version `cur` become `d`? */
cgn_status cgn__memset_exec_check(const void *cur_, const void *d_, CUcontext ctx,
                                  const char *where) {
    const cgn_memset_desc *cur = cur_;
    const cgn_memset_desc *d = d_;
    (void)ctx;
    if (cur->height == 1 && d->height != 1)
        return cgn__fail(CGN_ERROR_INVALID_VALUE,
                         "%s: field height: height %zu; rule: a 1-D memset (height 1) stays 1-D in an executable",
                         where, d->height);
    if (cur->height > 1 && d->height != cur->height)
        return cgn__fail(CGN_ERROR_INVALID_VALUE,
                         "%s: field height: height %zu, the executable has %zu; rule: a 2-D memset in an executable may change only dst and value",
                         where, d->height, cur->height);
    if (cur->height > 1 && d->width != cur->width)
        return cgn__fail(CGN_ERROR_INVALID_VALUE,
                         "%s: field width: width %zu, the executable has %zu; rule: a 2-D memset in an executable may change only dst and value",
                         where, d->width, cur->width);
    if (cur->height > 1 && d->pitch != cur->pitch)
        return cgn__fail(CGN_ERROR_INVALID_VALUE,
                         "%s: field pitch: pitch %zu, the executable has %zu; rule: a 2-D memset in an executable may change only dst and value",
                         where, d->pitch, cur->pitch);
    if (cur->height > 1 && d->element_size != cur->element_size)
        return cgn__fail(CGN_ERROR_INVALID_VALUE,
                         "%s: field element_size: element_size %u, the executable has %u; rule: a 2-D memset in an executable may change only dst and value",
                         where, d->element_size, cur->element_size);
    return CGN_OK;
}

/* The executable-level mutation through the typed setter (spec: cuda.exec_set). */
CGN__ALWAYS_INLINE static inline CUresult memset_exec_set_raw(CUgraphExec exec, CUgraphNode node,
                                                              const CUgraphNodeParams *p) {
    const CUDA_MEMSET_NODE_PARAMS_v1 *a = (const void *)&p->memset;
    _Static_assert(sizeof *a <= sizeof p->memset,
                   "CUDA_MEMSET_NODE_PARAMS_v1 is a prefix of the params");
    return cgn__driver->cuGraphExecMemsetNodeSetParams(exec, node, a, p->memset.ctx);
}

/* The body of the update functions, shared with the one-call forms (if any, below):
 * `known_set` 0 is an update as given (checked here), else the set of the one setter a one-call
 * form applied to `update`. Inlined into each caller, which keeps only the paths its updates can
 * take. */
CGN__ALWAYS_INLINE
static inline cgn_status memset_node_update_body(cgn_node *node, const cgn_memset_update *update,
                                                 uint64_t known_set, const cgn__lean *resolved,
                                                 const char *where) {
    cgn__txn txn;
    cgn_status st = CGN_OK;
    if (resolved != NULL) /* a lean path resolved the handles and declined: no second lookup */
        cgn__txn_start_lean(&txn, resolved);
    else
        st = cgn__update_begin(&txn, node, CGN_NODE_MEMSET, 12020, where);
    if (st != CGN_OK)
        return st;
    uint64_t set = known_set; /* not const: clang would warn on each test of a constant */
    if (set == 0) { /* the update as given */
        if (update == NULL)
            return cgn__fail(CGN_ERROR_INVALID_ARGUMENT, "%s: update must not be NULL", where);
        set = update->set;
        if (set & ~CGN_MEMSET_SET_ALL)
            return cgn__fail(CGN_ERROR_INVALID_ARGUMENT, "%s: unknown bits 0x%llx in set", where,
                             (unsigned long long)(set & ~CGN_MEMSET_SET_ALL));
        if (set == 0)
            return CGN_OK;
    }
    if (set & (CGN_MEMSET_SET_DST_OWNER | CGN_MEMSET_SET_VALUE | CGN_MEMSET_SET_ELEMENT_SIZE)) {
        if ((set & CGN_MEMSET_SET_DST_OWNER) && !(set & CGN_MEMSET_SET_DST))
            return cgn__fail(CGN_ERROR_MISSING_FIELD, "%s: dst_owner requires dst", where);
        if ((set & CGN_MEMSET_SET_VALUE) && !(set & CGN_MEMSET_SET_ELEMENT_SIZE))
            return cgn__fail(CGN_ERROR_MISSING_FIELD, "%s: value requires element_size", where);
        if ((set & CGN_MEMSET_SET_ELEMENT_SIZE) && !(set & CGN_MEMSET_SET_VALUE))
            return cgn__fail(CGN_ERROR_MISSING_FIELD, "%s: element_size requires value", where);
    }
    cgn_memset_desc d = *(const cgn_memset_desc *)cgn__txn_current_state(&txn);
    if (set & CGN_MEMSET_SET_DST) {
        d.dst = update->dst;
        d.dst_owner = (set & CGN_MEMSET_SET_DST_OWNER) ? update->dst_owner : NULL;
    }
    if (set & CGN_MEMSET_SET_VALUE)
        d.value = update->value;
    if (set & CGN_MEMSET_SET_ELEMENT_SIZE)
        d.element_size = update->element_size;
    if (set & CGN_MEMSET_SET_WIDTH)
        d.width = update->width;
    if (set & CGN_MEMSET_SET_HEIGHT)
        d.height = update->height;
    if (set & CGN_MEMSET_SET_PITCH)
        d.pitch = update->pitch;
    st = memset_check_rules(&d, set, where);
    if (st == CGN_OK)
        st = memset_check_kinds(&d, set, where);
    if (st == CGN_OK && cgn__driver->version < 13000)
        st = cgn__txn_enter(&txn, where); /* the node's context, current from here on */
    if (st != CGN_OK)
        return st;
    CUgraphNodeParams p;
    cgn__params_zeroed(&p); /* complete and zeroed: built from the merged fields alone */
    st = memset_stage(&txn, &d, update, set, &p, where);
    /* Without a change to an owner field (or what it follows) the owners are unchanged. */
    if (st == CGN_OK && (set & (CGN_MEMSET_SET_DST)))
        st = memset_stage_owners(&txn, &d);
    if (st != CGN_OK)
        return cgn__txn_fail(&txn, st);
    memset_build(&d, cgn__txn_context(&txn), &p);
    st = cgn__txn_apply(&txn, &p, where);
    if (st != CGN_OK)
        return st;
    if (!(set & ~(CGN_MEMSET_SET_VALUE | CGN_MEMSET_SET_ELEMENT_SIZE | CGN_MEMSET_SET_WIDTH |
            CGN_MEMSET_SET_HEIGHT | CGN_MEMSET_SET_PITCH)) &&
        cgn__txn_no_context_to_restore(&txn)) {
        /* Only fields kept as given: those set written back from the update, not the whole
         * merged descriptor (design.md). */
        cgn_memset_desc *cur = txn.cur_state;
        if (set & CGN_MEMSET_SET_VALUE)
            cur->value = update->value;
        if (set & CGN_MEMSET_SET_ELEMENT_SIZE)
            cur->element_size = update->element_size;
        if (set & CGN_MEMSET_SET_WIDTH)
            cur->width = update->width;
        if (set & CGN_MEMSET_SET_HEIGHT)
            cur->height = update->height;
        if (set & CGN_MEMSET_SET_PITCH)
            cur->pitch = update->pitch;
        return CGN_OK;
    }
    cgn__txn_commit_update(&txn, &d, sizeof d);
    return CGN_OK;
}

cgn_status cgn_memset_node_update(cgn_node *node, const cgn_memset_update *update) {
    return memset_node_update_body(node, update, 0, NULL, "cgn_memset_node_update");
}

cgn_status cgn_memset_node_get(const cgn_node *node, cgn_memset_desc *desc_out) {
    static const char where[] = "cgn_memset_node_get";
    cgn__node_rec *n;
    cgn_status st = cgn__check_node(node, CGN_NODE_MEMSET, where, &n);
    if (st != CGN_OK)
        return st;
    if (desc_out == NULL)
        return cgn__fail(CGN_ERROR_INVALID_ARGUMENT, "%s: desc_out must not be NULL", where);
    memcpy(desc_out, n->state, sizeof *desc_out);
    return CGN_OK;
}

/* Field names by bit, and the executable-update rules only the driver checks, for messages
 * about what an executable refused. */
static const char *const memset_field_names[] = {
    "dst", "dst_owner", "value", "element_size", "width", "height", "pitch"
};
static const char *const memset_driver_rules[] = {
    "an executable's memset writes memory of the context it was instantiated with",
    NULL,
    NULL,
    NULL,
    "a 1-D memset may change its width only while it fits the work the executable set up for it",
    NULL,
    NULL,
};

CGN__ALWAYS_INLINE
static inline cgn_status memset_exec_update_body(cgn_exec *exec, cgn_node *node,
                                                 const cgn_memset_update *update,
                                                 uint64_t known_set, const cgn__lean *resolved,
                                                 const char *where) {
    cgn__txn txn;
    cgn_status st = CGN_OK;
    if (resolved != NULL) /* a lean path resolved the handles and declined: no second lookup */
        cgn__txn_start_lean(&txn, resolved);
    else
        st = cgn__exec_update_begin(&txn, exec, node, CGN_NODE_MEMSET, 12020, where);
    if (st != CGN_OK)
        return st;
    uint64_t set = known_set; /* not const: clang would warn on each test of a constant */
    if (set == 0) { /* the update as given */
        if (update == NULL)
            return cgn__fail(CGN_ERROR_INVALID_ARGUMENT, "%s: update must not be NULL", where);
        set = update->set;
        if (set & ~CGN_MEMSET_SET_ALL)
            return cgn__fail(CGN_ERROR_INVALID_ARGUMENT, "%s: unknown bits 0x%llx in set", where,
                             (unsigned long long)(set & ~CGN_MEMSET_SET_ALL));
        if (set == 0)
            return CGN_OK;
    }
    if (set & (CGN_MEMSET_SET_DST_OWNER | CGN_MEMSET_SET_VALUE | CGN_MEMSET_SET_ELEMENT_SIZE)) {
        if ((set & CGN_MEMSET_SET_DST_OWNER) && !(set & CGN_MEMSET_SET_DST))
            return cgn__fail(CGN_ERROR_MISSING_FIELD, "%s: dst_owner requires dst", where);
        if ((set & CGN_MEMSET_SET_VALUE) && !(set & CGN_MEMSET_SET_ELEMENT_SIZE))
            return cgn__fail(CGN_ERROR_MISSING_FIELD, "%s: value requires element_size", where);
        if ((set & CGN_MEMSET_SET_ELEMENT_SIZE) && !(set & CGN_MEMSET_SET_VALUE))
            return cgn__fail(CGN_ERROR_MISSING_FIELD, "%s: element_size requires value", where);
    }
    cgn_memset_desc d = *(const cgn_memset_desc *)cgn__txn_current_state(&txn);
    if (set & CGN_MEMSET_SET_DST) {
        d.dst = update->dst;
        d.dst_owner = (set & CGN_MEMSET_SET_DST_OWNER) ? update->dst_owner : NULL;
    }
    if (set & CGN_MEMSET_SET_VALUE)
        d.value = update->value;
    if (set & CGN_MEMSET_SET_ELEMENT_SIZE)
        d.element_size = update->element_size;
    if (set & CGN_MEMSET_SET_WIDTH)
        d.width = update->width;
    if (set & CGN_MEMSET_SET_HEIGHT)
        d.height = update->height;
    if (set & CGN_MEMSET_SET_PITCH)
        d.pitch = update->pitch;
    st = memset_check_rules(&d, set, where);
    if (st == CGN_OK)
        st = memset_check_kinds(&d, set, where);
    if (st == CGN_OK && cgn__driver->version < 13000)
        st = cgn__txn_enter(&txn, where); /* the node's context, current from here on */
    if (st != CGN_OK)
        return st;
    CUgraphNodeParams p;
    /* Only the member reaches the typed setter: complete and zeroed, from the merged fields. */
    memset(&p.memset, 0, sizeof p.memset);
    st = memset_stage(&txn, &d, update, set, &p, where);
    /* Without a change to an owner field (or what it follows) the owners are unchanged. */
    if (st == CGN_OK && (set & (CGN_MEMSET_SET_DST)))
        st = memset_stage_owners(&txn, &d);
    /* The executable-update rules, on the merged fields against the executable's own. */
    if (st == CGN_OK)
        st = cgn__memset_exec_check(cgn__txn_current_state(&txn), &d, cgn__txn_context(&txn),
                                    where);
    if (st != CGN_OK)
        return cgn__txn_fail(&txn, st);
    memset_build(&d, cgn__txn_context(&txn), &p);
    st = cgn__txn_applied(&txn, memset_exec_set_raw(txn.exec->raw, txn.shadow->raw, &p),
                          "cuGraphExecMemsetNodeSetParams", where);
    if (st != CGN_OK)
        return cgn__exec_refused(st, set, memset_field_names, memset_driver_rules,
                                 7);
    if (!(set & ~(CGN_MEMSET_SET_VALUE | CGN_MEMSET_SET_ELEMENT_SIZE | CGN_MEMSET_SET_WIDTH |
            CGN_MEMSET_SET_HEIGHT | CGN_MEMSET_SET_PITCH)) &&
        cgn__txn_no_context_to_restore(&txn)) {
        /* Only fields kept as given: those set written back from the update, not the whole
         * merged descriptor (design.md). */
        cgn_memset_desc *cur = txn.cur_state;
        if (set & CGN_MEMSET_SET_VALUE)
            cur->value = update->value;
        if (set & CGN_MEMSET_SET_ELEMENT_SIZE)
            cur->element_size = update->element_size;
        if (set & CGN_MEMSET_SET_WIDTH)
            cur->width = update->width;
        if (set & CGN_MEMSET_SET_HEIGHT)
            cur->height = update->height;
        if (set & CGN_MEMSET_SET_PITCH)
            cur->pitch = update->pitch;
        return CGN_OK;
    }
    cgn__txn_commit_update(&txn, &d, sizeof d);
    return CGN_OK;
}

cgn_status cgn_memset_exec_update(cgn_exec *exec, cgn_node *node, const cgn_memset_update *update) {
    static const char where[] = "cgn_memset_exec_update";
    return memset_exec_update_body(exec, node, update, 0, NULL, where);
}

cgn_status cgn_memset_exec_get(const cgn_exec *exec, const cgn_node *node,
                               cgn_memset_desc *desc_out) {
    static const char where[] = "cgn_memset_exec_get";
    cgn__txn txn;
    cgn_status st = cgn__exec_update_begin(&txn, (cgn_exec *)(uintptr_t)exec,
                                           (cgn_node *)(uintptr_t)node, CGN_NODE_MEMSET, 0, where);
    if (st != CGN_OK)
        return st;
    if (desc_out == NULL)
        return cgn__fail(CGN_ERROR_INVALID_ARGUMENT, "%s: desc_out must not be NULL", where);
    memcpy(desc_out, cgn__txn_current_state(&txn), sizeof *desc_out);
    return CGN_OK;
}

/* Reads an adopted (or refreshed) node's params into its desc: the inverse of memset_build.
 * Owners are never read (what the node points at is the caller's), except that a refresh keeps
 * those of unchanged values (prev). */
cgn_status cgn__memset_read(cgn__reader *rd, const CUgraphNodeParams *p, void *desc_,
                            const void *prev_, const char *where) {
    cgn_memset_desc *d = desc_;
    const cgn_memset_desc *prev = prev_;
    (void)rd;
    (void)where;
    memset(d, 0, sizeof *d);
    d->dst = p->memset.dst;
    d->value = p->memset.value;
    d->element_size = p->memset.elementSize;
    d->width = p->memset.width;
    d->height = p->memset.height;
    d->pitch = p->memset.pitch;
    if (prev != NULL && d->dst == prev->dst)
        d->dst_owner = prev->dst_owner;
    return CGN_OK;
}
