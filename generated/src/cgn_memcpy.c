/* Generated from spec/memcpy.yaml by codegen; do not edit. */
#include <string.h>

#include "runtime.h"

/* Field rules from the spec, checked on the complete (merged) parameters. */
CGN__ALWAYS_INLINE static inline cgn_status memcpy_check_rules(const cgn_memcpy_desc *d,
                                                               uint64_t changed,
                                                               const char *where) {
    if ((changed & (CGN_MEMCPY_SET_DST)) && (d->dst == 0))
        return cgn__fail(CGN_ERROR_INVALID_VALUE, "%s: dst must not be 0", where);
    if ((changed & (CGN_MEMCPY_SET_SRC)) && (d->src == 0))
        return cgn__fail(CGN_ERROR_INVALID_VALUE, "%s: src must not be 0", where);
    if ((changed & (CGN_MEMCPY_SET_SIZE)) && (d->size == 0))
        return cgn__fail(CGN_ERROR_INVALID_VALUE, "%s: size must be at least 1", where);
    return CGN_OK;
}

/* Checks of field kinds that need more than a rule (kernel handles, argument lists). */
CGN__ALWAYS_INLINE static inline cgn_status memcpy_check_kinds(const cgn_memcpy_desc *d,
                                                               uint64_t changed,
                                                               const char *where) {
    (void)d;
    (void)changed;
    (void)where;
    return CGN_OK;
}

/* Stages cgn-owned copies of borrowed fields (checking them where that needs the driver);
 * *d is rewritten to point at the copies. */
CGN__ALWAYS_INLINE static inline cgn_status memcpy_stage(cgn__txn *txn, cgn_memcpy_desc *d,
                                                         const cgn_memcpy_update *u,
                                                         uint64_t changed, CUgraphNodeParams *p,
                                                         const char *where) {
    (void)u;
    (void)p;
    if ((changed & CGN_MEMCPY_SET_DST) && d->dst != 0) {
        cgn_status st = cgn__detect_memory_type(txn, d->dst, &d->dst_memory_type, "dst", where);
        if (st != CGN_OK)
            return st;
    }
    if (d->dst_memory_type == CU_MEMORYTYPE_HOST && d->dst != 0 &&
        (changed & (CGN_MEMCPY_SET_DST | CGN_MEMCPY_SET_SIZE))) {
        cgn_status st = cgn__check_host_extent(d->dst, 0, (size_t)(d->size - 1), 1, "dst", where);
        if (st != CGN_OK)
            return st;
    }
    if ((changed & CGN_MEMCPY_SET_SRC) && d->src != 0) {
        cgn_status st = cgn__detect_memory_type(txn, d->src, &d->src_memory_type, "src", where);
        if (st != CGN_OK)
            return st;
    }
    if (d->src_memory_type == CU_MEMORYTYPE_HOST && d->src != 0 &&
        (changed & (CGN_MEMCPY_SET_SIZE | CGN_MEMCPY_SET_SRC))) {
        cgn_status st = cgn__check_host_extent(d->src, 0, (size_t)(d->size - 1), 0, "src", where);
        if (st != CGN_OK)
            return st;
    }
    return CGN_OK;
}

/* The owners of the new version, in the spec's `owners` order. */
CGN__ALWAYS_INLINE static inline cgn_status memcpy_stage_owners(cgn__txn *txn,
                                                                const cgn_memcpy_desc *d) {
    cgn_owner *const owners[] = {d->dst_owner, d->src_owner};
    return cgn__txn_stage_owners(txn, owners, sizeof owners / sizeof owners[0], NULL, 0);
}

/* Fills the driver params from the merged fields; fields staged by memcpy_stage are kept. */
CGN__ALWAYS_INLINE static inline void memcpy_build(const cgn_memcpy_desc *d, CUcontext ctx,
                                                   CUgraphNodeParams *p) {
    p->type = CU_GRAPH_NODE_TYPE_MEMCPY;
    if (d->dst != 0) {
        p->memcpy.copyParams.dstMemoryType = d->dst_memory_type;
        if (d->dst_memory_type == CU_MEMORYTYPE_HOST)
            p->memcpy.copyParams.dstHost = (void *)(uintptr_t)d->dst;
        else
            p->memcpy.copyParams.dstDevice = d->dst;
    }
    if (d->src != 0) {
        p->memcpy.copyParams.srcMemoryType = d->src_memory_type;
        if (d->src_memory_type == CU_MEMORYTYPE_HOST)
            p->memcpy.copyParams.srcHost = (void *)(uintptr_t)d->src;
        else
            p->memcpy.copyParams.srcDevice = d->src;
    }
    p->memcpy.copyParams.WidthInBytes = d->size;
    p->memcpy.copyParams.Height = 1;
    p->memcpy.copyParams.Depth = 1;
    p->memcpy.copyCtx = ctx;
}

cgn_status cgn_graph_add_memcpy(cgn_graph *graph, cgn_node *const *deps, size_t num_deps,
                                const cgn_memcpy_desc *desc, cgn_node **node_out) {
    static const char where[] = "cgn_graph_add_memcpy";
    if (desc == NULL || node_out == NULL)
        return cgn__fail(CGN_ERROR_INVALID_ARGUMENT, "%s: desc and node_out must not be NULL",
                         where);
    cgn_memcpy_desc d = *desc;
    /* Members set by cgn are ignored on input. */
    d.dst_memory_type = (CUmemorytype)0;
    d.src_memory_type = (CUmemorytype)0;
    cgn_status st = memcpy_check_rules(&d, CGN_MEMCPY_SET_ALL, where);
    if (st == CGN_OK)
        st = memcpy_check_kinds(&d, CGN_MEMCPY_SET_ALL, where);
    if (st != CGN_OK)
        return st;
    cgn__txn txn;
    st = cgn__add_begin(&txn, graph, deps, num_deps, CGN_NODE_MEMCPY, sizeof d, 1, where);
    if (st != CGN_OK)
        return st;
    CUgraphNodeParams p;
    memset(&p, 0, sizeof p);
    st = memcpy_stage(&txn, &d, NULL, CGN_MEMCPY_SET_ALL, &p, where);
    if (st == CGN_OK)
        st = memcpy_stage_owners(&txn, &d);
    if (st != CGN_OK)
        return cgn__txn_fail(&txn, st);
    memcpy_build(&d, cgn__txn_context(&txn), &p);
    st = cgn__txn_apply(&txn, &p, where);
    if (st != CGN_OK)
        return st;
    cgn__txn_commit(&txn, &d, sizeof d, node_out);
    return CGN_OK;
}

/* The executable-update rules: may an executable's version `cur` become `d`? */
cgn_status cgn__memcpy_exec_check(const void *cur_, const void *d_, CUcontext ctx,
                                  const char *where) {
    const cgn_memcpy_desc *cur = cur_;
    const cgn_memcpy_desc *d = d_;
    (void)ctx;
    if (d->dst_memory_type != cur->dst_memory_type)
        return cgn__fail(CGN_ERROR_INVALID_VALUE,
                         "%s: field dst: dst moves between device and host memory; rule: an executable's copy keeps the memory types (device or host) of its operands",
                         where);
    if (d->src_memory_type != cur->src_memory_type)
        return cgn__fail(CGN_ERROR_INVALID_VALUE,
                         "%s: field src: src moves between device and host memory; rule: an executable's copy keeps the memory types (device or host) of its operands",
                         where);
    return CGN_OK;
}

/* The executable-level mutation through the typed setter (spec: cuda.exec_set). */
CGN__ALWAYS_INLINE static inline CUresult memcpy_exec_set_raw(CUgraphExec exec, CUgraphNode node,
                                                              const CUgraphNodeParams *p) {
    const CUDA_MEMCPY3D_v2 *a = (const void *)&p->memcpy.copyParams;
    _Static_assert(sizeof *a <= sizeof p->memcpy.copyParams,
                   "CUDA_MEMCPY3D_v2 is a prefix of the params");
    return cgn__driver->cuGraphExecMemcpyNodeSetParams(exec, node, a, p->memcpy.copyCtx);
}

/* The body of the update functions, shared with the one-call forms (if any, below):
 * `known_set` 0 is an update as given (checked here), else the set of the one setter a one-call
 * form applied to `update`. Inlined into each caller, which keeps only the paths its updates can
 * take. */
CGN__ALWAYS_INLINE
static inline cgn_status memcpy_node_update_body(cgn_node *node, const cgn_memcpy_update *update,
                                                 uint64_t known_set, const cgn__lean *resolved,
                                                 const char *where) {
    cgn__txn txn;
    cgn_status st = CGN_OK;
    if (resolved != NULL) /* a lean path resolved the handles and declined: no second lookup */
        cgn__txn_start_lean(&txn, resolved);
    else
        st = cgn__update_begin(&txn, node, CGN_NODE_MEMCPY, 12020, where);
    if (st != CGN_OK)
        return st;
    uint64_t set = known_set; /* not const: clang would warn on each test of a constant */
    if (set == 0) { /* the update as given */
        if (update == NULL)
            return cgn__fail(CGN_ERROR_INVALID_ARGUMENT, "%s: update must not be NULL", where);
        set = update->set;
        if (set & ~CGN_MEMCPY_SET_ALL)
            return cgn__fail(CGN_ERROR_INVALID_ARGUMENT, "%s: unknown bits 0x%llx in set", where,
                             (unsigned long long)(set & ~CGN_MEMCPY_SET_ALL));
        if (set == 0)
            return CGN_OK;
    }
    if (set & (CGN_MEMCPY_SET_DST_OWNER | CGN_MEMCPY_SET_SRC_OWNER)) {
        if ((set & CGN_MEMCPY_SET_DST_OWNER) && !(set & CGN_MEMCPY_SET_DST))
            return cgn__fail(CGN_ERROR_MISSING_FIELD, "%s: dst_owner requires dst", where);
        if ((set & CGN_MEMCPY_SET_SRC_OWNER) && !(set & CGN_MEMCPY_SET_SRC))
            return cgn__fail(CGN_ERROR_MISSING_FIELD, "%s: src_owner requires src", where);
    }
    cgn_memcpy_desc d = *(const cgn_memcpy_desc *)cgn__txn_current_state(&txn);
    if (set & CGN_MEMCPY_SET_DST) {
        d.dst = update->dst;
        d.dst_owner = (set & CGN_MEMCPY_SET_DST_OWNER) ? update->dst_owner : NULL;
        d.dst_memory_type = (CUmemorytype)0; /* set by cgn */
    }
    if (set & CGN_MEMCPY_SET_SRC) {
        d.src = update->src;
        d.src_owner = (set & CGN_MEMCPY_SET_SRC_OWNER) ? update->src_owner : NULL;
        d.src_memory_type = (CUmemorytype)0; /* set by cgn */
    }
    if (set & CGN_MEMCPY_SET_SIZE)
        d.size = update->size;
    st = memcpy_check_rules(&d, set, where);
    if (st == CGN_OK)
        st = memcpy_check_kinds(&d, set, where);
    if (st == CGN_OK && cgn__driver->version < 13000)
        st = cgn__txn_enter(&txn, where); /* the node's context, current from here on */
    if (st != CGN_OK)
        return st;
    st = cgn__check_memcpy_1d(&txn, where);
    if (st != CGN_OK)
        return cgn__txn_fail(&txn, st);
    CUgraphNodeParams p;
    cgn__params_zeroed(&p); /* complete and zeroed: built from the merged fields alone */
    st = memcpy_stage(&txn, &d, update, set, &p, where);
    /* Without a change to an owner field (or what it follows) the owners are unchanged. */
    if (st == CGN_OK && (set & (CGN_MEMCPY_SET_DST | CGN_MEMCPY_SET_SRC)))
        st = memcpy_stage_owners(&txn, &d);
    if (st != CGN_OK)
        return cgn__txn_fail(&txn, st);
    memcpy_build(&d, cgn__txn_context(&txn), &p);
    st = cgn__txn_apply(&txn, &p, where);
    if (st != CGN_OK)
        return st;
    if (!(set & ~(CGN_MEMCPY_SET_SIZE)) &&
        cgn__txn_no_context_to_restore(&txn)) {
        /* Only fields kept as given: those set written back from the update, not the whole
         * merged descriptor (design.md). */
        cgn_memcpy_desc *cur = txn.cur_state;
        if (set & CGN_MEMCPY_SET_SIZE)
            cur->size = update->size;
        return CGN_OK;
    }
    cgn__txn_commit_update(&txn, &d, sizeof d);
    return CGN_OK;
}

cgn_status cgn_memcpy_node_update(cgn_node *node, const cgn_memcpy_update *update) {
    return memcpy_node_update_body(node, update, 0, NULL, "cgn_memcpy_node_update");
}

cgn_status cgn_memcpy_node_get(const cgn_node *node, cgn_memcpy_desc *desc_out) {
    static const char where[] = "cgn_memcpy_node_get";
    cgn__node_rec *n;
    cgn_status st = cgn__check_node(node, CGN_NODE_MEMCPY, where, &n);
    if (st != CGN_OK)
        return st;
    if (desc_out == NULL)
        return cgn__fail(CGN_ERROR_INVALID_ARGUMENT, "%s: desc_out must not be NULL", where);
    memcpy(desc_out, n->state, sizeof *desc_out);
    return CGN_OK;
}

/* Field names by bit, and the executable-update rules only the driver checks, for messages
 * about what an executable refused. */
static const char *const memcpy_field_names[] = {
    "dst", "dst_owner", "src", "src_owner", "size"
};
static const char *const memcpy_driver_rules[] = {
    "an executable's copy keeps its operands on the devices and contexts they were allocated in",
    NULL,
    "an executable's copy keeps its operands on the devices and contexts they were allocated in",
    NULL,
    NULL,
};

CGN__ALWAYS_INLINE
static inline cgn_status memcpy_exec_update_body(cgn_exec *exec, cgn_node *node,
                                                 const cgn_memcpy_update *update,
                                                 uint64_t known_set, const cgn__lean *resolved,
                                                 const char *where) {
    cgn__txn txn;
    cgn_status st = CGN_OK;
    if (resolved != NULL) /* a lean path resolved the handles and declined: no second lookup */
        cgn__txn_start_lean(&txn, resolved);
    else
        st = cgn__exec_update_begin(&txn, exec, node, CGN_NODE_MEMCPY, 12020, where);
    if (st != CGN_OK)
        return st;
    uint64_t set = known_set; /* not const: clang would warn on each test of a constant */
    if (set == 0) { /* the update as given */
        if (update == NULL)
            return cgn__fail(CGN_ERROR_INVALID_ARGUMENT, "%s: update must not be NULL", where);
        set = update->set;
        if (set & ~CGN_MEMCPY_SET_ALL)
            return cgn__fail(CGN_ERROR_INVALID_ARGUMENT, "%s: unknown bits 0x%llx in set", where,
                             (unsigned long long)(set & ~CGN_MEMCPY_SET_ALL));
        if (set == 0)
            return CGN_OK;
    }
    if (set & (CGN_MEMCPY_SET_DST_OWNER | CGN_MEMCPY_SET_SRC_OWNER)) {
        if ((set & CGN_MEMCPY_SET_DST_OWNER) && !(set & CGN_MEMCPY_SET_DST))
            return cgn__fail(CGN_ERROR_MISSING_FIELD, "%s: dst_owner requires dst", where);
        if ((set & CGN_MEMCPY_SET_SRC_OWNER) && !(set & CGN_MEMCPY_SET_SRC))
            return cgn__fail(CGN_ERROR_MISSING_FIELD, "%s: src_owner requires src", where);
    }
    cgn_memcpy_desc d = *(const cgn_memcpy_desc *)cgn__txn_current_state(&txn);
    if (set & CGN_MEMCPY_SET_DST) {
        d.dst = update->dst;
        d.dst_owner = (set & CGN_MEMCPY_SET_DST_OWNER) ? update->dst_owner : NULL;
        d.dst_memory_type = (CUmemorytype)0; /* set by cgn */
    }
    if (set & CGN_MEMCPY_SET_SRC) {
        d.src = update->src;
        d.src_owner = (set & CGN_MEMCPY_SET_SRC_OWNER) ? update->src_owner : NULL;
        d.src_memory_type = (CUmemorytype)0; /* set by cgn */
    }
    if (set & CGN_MEMCPY_SET_SIZE)
        d.size = update->size;
    st = memcpy_check_rules(&d, set, where);
    if (st == CGN_OK)
        st = memcpy_check_kinds(&d, set, where);
    if (st == CGN_OK && cgn__driver->version < 13000)
        st = cgn__txn_enter(&txn, where); /* the node's context, current from here on */
    if (st != CGN_OK)
        return st;
    CUgraphNodeParams p;
    /* Only the member reaches the typed setter: complete and zeroed, from the merged fields. */
    memset(&p.memcpy, 0, sizeof p.memcpy);
    st = memcpy_stage(&txn, &d, update, set, &p, where);
    /* Without a change to an owner field (or what it follows) the owners are unchanged. */
    if (st == CGN_OK && (set & (CGN_MEMCPY_SET_DST | CGN_MEMCPY_SET_SRC)))
        st = memcpy_stage_owners(&txn, &d);
    /* The executable-update rules, on the merged fields against the executable's own. */
    if (st == CGN_OK)
        st = cgn__memcpy_exec_check(cgn__txn_current_state(&txn), &d, cgn__txn_context(&txn),
                                    where);
    if (st != CGN_OK)
        return cgn__txn_fail(&txn, st);
    memcpy_build(&d, cgn__txn_context(&txn), &p);
    st = cgn__txn_applied(&txn, memcpy_exec_set_raw(txn.exec->raw, txn.shadow->raw, &p),
                          "cuGraphExecMemcpyNodeSetParams", where);
    if (st != CGN_OK)
        return cgn__exec_refused(st, set, memcpy_field_names, memcpy_driver_rules,
                                 5);
    if (!(set & ~(CGN_MEMCPY_SET_SIZE)) &&
        cgn__txn_no_context_to_restore(&txn)) {
        /* Only fields kept as given: those set written back from the update, not the whole
         * merged descriptor (design.md). */
        cgn_memcpy_desc *cur = txn.cur_state;
        if (set & CGN_MEMCPY_SET_SIZE)
            cur->size = update->size;
        return CGN_OK;
    }
    cgn__txn_commit_update(&txn, &d, sizeof d);
    return CGN_OK;
}

cgn_status cgn_memcpy_exec_update(cgn_exec *exec, cgn_node *node, const cgn_memcpy_update *update) {
    static const char where[] = "cgn_memcpy_exec_update";
    return memcpy_exec_update_body(exec, node, update, 0, NULL, where);
}

cgn_status cgn_memcpy_exec_get(const cgn_exec *exec, const cgn_node *node,
                               cgn_memcpy_desc *desc_out) {
    static const char where[] = "cgn_memcpy_exec_get";
    cgn__txn txn;
    cgn_status st = cgn__exec_update_begin(&txn, (cgn_exec *)(uintptr_t)exec,
                                           (cgn_node *)(uintptr_t)node, CGN_NODE_MEMCPY, 0, where);
    if (st != CGN_OK)
        return st;
    if (desc_out == NULL)
        return cgn__fail(CGN_ERROR_INVALID_ARGUMENT, "%s: desc_out must not be NULL", where);
    memcpy(desc_out, cgn__txn_current_state(&txn), sizeof *desc_out);
    return CGN_OK;
}

/* Reads an adopted (or refreshed) node's params into its desc: the inverse of memcpy_build.
 * Owners are never read (what the node points at is the caller's), except that a refresh keeps
 * those of unchanged values (prev). */
cgn_status cgn__memcpy_read(cgn__reader *rd, const CUgraphNodeParams *p, void *desc_,
                            const void *prev_, const char *where) {
    cgn_memcpy_desc *d = desc_;
    const cgn_memcpy_desc *prev = prev_;
    (void)where;
    memset(d, 0, sizeof *d);
    rd->unsupported = cgn__memcpy_1d_form(p);
    if (rd->unsupported != NULL)
        return CGN_OK; /* recorded as a node cgn does not update */
    d->dst_memory_type = p->memcpy.copyParams.dstMemoryType;
    if (d->dst_memory_type == CU_MEMORYTYPE_HOST)
        d->dst = (CUdeviceptr)(uintptr_t)p->memcpy.copyParams.dstHost;
    else if (d->dst_memory_type == CU_MEMORYTYPE_DEVICE)
        d->dst = p->memcpy.copyParams.dstDevice;
    else
        d->dst_memory_type = (CUmemorytype)0; /* an array: not this field's */
    d->src_memory_type = p->memcpy.copyParams.srcMemoryType;
    if (d->src_memory_type == CU_MEMORYTYPE_HOST)
        d->src = (CUdeviceptr)(uintptr_t)p->memcpy.copyParams.srcHost;
    else if (d->src_memory_type == CU_MEMORYTYPE_DEVICE)
        d->src = p->memcpy.copyParams.srcDevice;
    else
        d->src_memory_type = (CUmemorytype)0; /* an array: not this field's */
    d->size = p->memcpy.copyParams.WidthInBytes;
    if (prev != NULL && d->dst == prev->dst)
        d->dst_owner = prev->dst_owner;
    if (prev != NULL && d->src == prev->src)
        d->src_owner = prev->src_owner;
    return CGN_OK;
}
