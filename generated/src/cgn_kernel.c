/* Generated from spec/kernel.yaml by codegen; do not edit. */
#include <string.h>

#include "runtime.h"

/* Field rules from the spec, checked on the complete (merged) parameters. */
CGN__ALWAYS_INLINE static inline cgn_status kernel_check_rules(const cgn_kernel_desc *d,
                                                               uint64_t changed,
                                                               const char *where) {
    if ((changed & (CGN_KERNEL_SET_GRID)) && (d->grid.x == 0 || d->grid.y == 0 || d->grid.z == 0))
        return cgn__fail(CGN_ERROR_INVALID_VALUE,
                         "%s: grid dimensions must be at least 1, not (%u, %u, %u)", where,
                         d->grid.x, d->grid.y, d->grid.z);
    if ((changed & (CGN_KERNEL_SET_BLOCK)) &&
        (d->block.x == 0 || d->block.y == 0 || d->block.z == 0))
        return cgn__fail(CGN_ERROR_INVALID_VALUE,
                         "%s: block dimensions must be at least 1, not (%u, %u, %u)", where,
                         d->block.x, d->block.y, d->block.z);
    return CGN_OK;
}

/* Checks of field kinds that need more than a rule (kernel handles, argument lists). */
CGN__ALWAYS_INLINE static inline cgn_status kernel_check_kinds(const cgn_kernel_desc *d,
                                                               uint64_t changed,
                                                               const char *where) {
    (void)d;
    (void)changed;
    (void)where;
    return CGN_OK;
}

/* Stages cgn-owned copies of borrowed fields (checking them where that needs the driver);
 * *d is rewritten to point at the copies. */
CGN__ALWAYS_INLINE static inline cgn_status kernel_stage(cgn__txn *txn, cgn_kernel_desc *d,
                                                         const cgn_kernel_update *u,
                                                         uint64_t changed, CUgraphNodeParams *p,
                                                         const char *where) {
    if (changed & (CGN_KERNEL_SET_KERNEL | CGN_KERNEL_SET_ARGS)) {
        cgn_status st = cgn__stage_kernel_args(txn, d->kernel, d->args, d->num_args, &d->args,
                                               &p->kernel.kernelParams, where);
        if (st != CGN_OK)
            return st;
    } else if (!(changed & CGN_KERNEL_SET_ARG)) {
        cgn_status st = cgn__keep_kernel_args(txn, &p->kernel.kernelParams, where);
        if (st != CGN_OK)
            return st;
    }
    if (changed & CGN_KERNEL_SET_ARG) {
        cgn_status st = cgn__stage_arg_edits(txn, &u->arg_edits, &d->args, &p->kernel.kernelParams,
                                             where);
        if (st != CGN_OK)
            return st;
    }
    return CGN_OK;
}

/* The owners of the new version, in the spec's `owners` order. */
CGN__ALWAYS_INLINE static inline cgn_status kernel_stage_owners(cgn__txn *txn,
                                                                const cgn_kernel_desc *d) {
    cgn_owner *const owners[] = {d->kernel_owner};
    return cgn__txn_stage_owners(txn, owners, sizeof owners / sizeof owners[0], d->args,
                                 d->num_args);
}

/* Fills the driver params from the merged fields; fields staged by kernel_stage are kept. */
CGN__ALWAYS_INLINE static inline void kernel_build(const cgn_kernel_desc *d, CUcontext ctx,
                                                   CUgraphNodeParams *p) {
    p->type = CU_GRAPH_NODE_TYPE_KERNEL;
    cgn__set_kernel_handle(&p->kernel, d->kernel);
    p->kernel.gridDimX = d->grid.x;
    p->kernel.gridDimY = d->grid.y;
    p->kernel.gridDimZ = d->grid.z;
    p->kernel.blockDimX = d->block.x;
    p->kernel.blockDimY = d->block.y;
    p->kernel.blockDimZ = d->block.z;
    p->kernel.sharedMemBytes = d->shared_mem_bytes;
    p->kernel.ctx = ctx;
}

cgn_status cgn_graph_add_kernel(cgn_graph *graph, cgn_node *const *deps, size_t num_deps,
                                const cgn_kernel_desc *desc, cgn_node **node_out) {
    static const char where[] = "cgn_graph_add_kernel";
    if (desc == NULL || node_out == NULL)
        return cgn__fail(CGN_ERROR_INVALID_ARGUMENT, "%s: desc and node_out must not be NULL",
                         where);
    cgn_kernel_desc d = *desc;
    cgn_status st = kernel_check_rules(&d, (CGN_KERNEL_SET_ALL & ~CGN_KERNEL_SET_ARG), where);
    if (st == CGN_OK)
        st = kernel_check_kinds(&d, (CGN_KERNEL_SET_ALL & ~CGN_KERNEL_SET_ARG), where);
    if (st != CGN_OK)
        return st;
    cgn__txn txn;
    st = cgn__add_begin(&txn, graph, deps, num_deps, CGN_NODE_KERNEL, sizeof d, 1, where);
    if (st != CGN_OK)
        return st;
    CUgraphNodeParams p;
    memset(&p, 0, sizeof p);
    st = kernel_stage(&txn, &d, NULL, (CGN_KERNEL_SET_ALL & ~CGN_KERNEL_SET_ARG), &p, where);
    if (st == CGN_OK)
        st = kernel_stage_owners(&txn, &d);
    if (st != CGN_OK)
        return cgn__txn_fail(&txn, st);
    kernel_build(&d, cgn__txn_context(&txn), &p);
    st = cgn__txn_apply(&txn, &p, where);
    if (st != CGN_OK)
        return st;
    cgn__txn_commit(&txn, &d, sizeof d, node_out);
    return CGN_OK;
}

/* The executable-update rules: may an executable's version `cur` become `d`? */
cgn_status cgn__kernel_exec_check(const void *cur_, const void *d_, CUcontext ctx,
                                  const char *where) {
    const cgn_kernel_desc *cur = cur_;
    const cgn_kernel_desc *d = d_;
    (void)cur;
    (void)d;
    (void)ctx;
    (void)where;
    return CGN_OK;
}

/* The definition-level mutation through the typed setter (spec: cuda.set). */
CGN__ALWAYS_INLINE static inline CUresult kernel_set_raw(CUgraphNode node,
                                                         const CUgraphNodeParams *p) {
    const CUDA_KERNEL_NODE_PARAMS_v2 *a = (const void *)&p->kernel;
    _Static_assert(sizeof *a <= sizeof p->kernel,
                   "CUDA_KERNEL_NODE_PARAMS_v2 is a prefix of the params");
    return cgn__driver->cuGraphKernelNodeSetParams(node, a);
}

/* The executable-level mutation through the typed setter (spec: cuda.exec_set). */
CGN__ALWAYS_INLINE static inline CUresult kernel_exec_set_raw(CUgraphExec exec, CUgraphNode node,
                                                              const CUgraphNodeParams *p) {
    const CUDA_KERNEL_NODE_PARAMS_v2 *a = (const void *)&p->kernel;
    _Static_assert(sizeof *a <= sizeof p->kernel,
                   "CUDA_KERNEL_NODE_PARAMS_v2 is a prefix of the params");
    return cgn__driver->cuGraphExecKernelNodeSetParams(exec, node, a);
}

/* On the drivers that need no context for this node type (spec: context_free_from), whether an
 * update still does (spec: context_when), or cgn does not know the node's context. */
CGN__ALWAYS_INLINE static inline int kernel_needs_context(CUcontext ctx,
                                                          const cgn_kernel_desc *cur,
                                                          const cgn_kernel_desc *d) {
    return ctx == NULL ||
           (d->kernel.function != NULL || cur->kernel.function != NULL ||
            d->kernel.kernel != cur->kernel.kernel);
}

/* The body of the update functions, shared with the one-call forms (if any, below):
 * `known_set` 0 is an update as given (checked here), else the set of the one setter a one-call
 * form applied to `update`. Inlined into each caller, which keeps only the paths its updates can
 * take. */
CGN__ALWAYS_INLINE
static inline cgn_status kernel_node_update_body(cgn_node *node, const cgn_kernel_update *update,
                                                 uint64_t known_set, const cgn__lean *resolved,
                                                 const char *where) {
    cgn__txn txn;
    cgn_status st = CGN_OK;
    if (resolved != NULL) /* a lean path resolved the handles and declined: no second lookup */
        cgn__txn_start_lean(&txn, resolved);
    else
        st = cgn__update_begin(&txn, node, CGN_NODE_KERNEL, 12020, where);
    if (st != CGN_OK)
        return st;
    uint64_t set = known_set; /* not const: clang would warn on each test of a constant */
    if (set == 0) { /* the update as given */
        if (update == NULL)
            return cgn__fail(CGN_ERROR_INVALID_ARGUMENT, "%s: update must not be NULL", where);
        set = update->set;
        if (set & ~CGN_KERNEL_SET_ALL)
            return cgn__fail(CGN_ERROR_INVALID_ARGUMENT, "%s: unknown bits 0x%llx in set", where,
                             (unsigned long long)(set & ~CGN_KERNEL_SET_ALL));
        if (set == 0)
            return CGN_OK;
    }
    if (set == CGN_KERNEL_SET_ARGS && cgn__txn_current_attachment(&txn) == NULL) {
        /* An update loop's common case: new values for every argument of the same kernel, no
         * owner before or after, no context to make current.
         * Anything else, and every error, takes the general path below. */
        cgn_kernel_desc *cur = txn.cur_state;
        const cgn_arg *copies = cur->args;
        void **params = NULL;
        /* Not in place (the lean path above would have): a second block. */
        if (cgn__driver->version >= 13000 && !kernel_needs_context(txn.cur_ctx, cur, cur)) {
            params = cgn__stage_kernel_args_unowned(&txn, cur->kernel, update->args,
                                                    update->num_args, &copies);
        }
        if (params != NULL) {
            CUgraphNodeParams p;
            _Static_assert(sizeof p.kernel % 8 == 0, "zeroed in 8-byte words");
            cgn__zero_words(&p.kernel, sizeof p.kernel);
            p.kernel.kernelParams = params;
            kernel_build(cur, cgn__txn_context(&txn), &p);
            st = cgn__txn_applied(&txn, kernel_set_raw(txn.node->raw, &p),
                                  "cuGraphKernelNodeSetParams", where);
            if (st != CGN_OK)
                return st;
            if (txn.storage_set) { /* the commit: the state names the new block */
                cur->args = copies;
                cur->num_args = update->num_args;
                cgn__txn_publish_update_storage(&txn);
            }
            return CGN_OK;
        }
    }
    if ((set & CGN_KERNEL_SET_ARG) && cgn__driver->version < 12040)
        return cgn__require_driver(12040, 1, "kernel updates that set arg");
    if (set & (CGN_KERNEL_SET_KERNEL | CGN_KERNEL_SET_KERNEL_OWNER)) {
        if ((set & CGN_KERNEL_SET_KERNEL) && !(set & CGN_KERNEL_SET_ARGS))
            return cgn__fail(CGN_ERROR_MISSING_FIELD, "%s: kernel requires args", where);
        if ((set & CGN_KERNEL_SET_KERNEL_OWNER) && !(set & CGN_KERNEL_SET_KERNEL))
            return cgn__fail(CGN_ERROR_MISSING_FIELD, "%s: kernel_owner requires kernel", where);
    }
    if (set == CGN_KERNEL_SET_ARG && cgn__txn_current_attachment(&txn) == NULL &&
        update->arg_edits.count > 0 &&
        cgn__arg_edits_unowned(&update->arg_edits)) {
        /* An update loop's common case: arguments replaced by index, the others kept, no
         * owner before or after, no context to make current.
         * Anything else, and every error, takes the general path below. */
        cgn_kernel_desc *cur = txn.cur_state;
        const cgn_arg *copies = cur->args;
        void **params = NULL;
        /* Not in place (the lean path above would have): a second block. */
        if (cgn__driver->version >= 13000 && !kernel_needs_context(txn.cur_ctx, cur, cur)) {
            st = cgn__stage_arg_edits(&txn, &update->arg_edits, &copies, &params, where);
            if (st != CGN_OK)
                return cgn__txn_fail(&txn, st);
        }
        if (params != NULL) {
            CUgraphNodeParams p;
            _Static_assert(sizeof p.kernel % 8 == 0, "zeroed in 8-byte words");
            cgn__zero_words(&p.kernel, sizeof p.kernel);
            p.kernel.kernelParams = params;
            kernel_build(cur, cgn__txn_context(&txn), &p);
            st = cgn__txn_applied(&txn, kernel_set_raw(txn.node->raw, &p),
                                  "cuGraphKernelNodeSetParams", where);
            if (st != CGN_OK)
                return st;
            if (txn.storage_set) { /* the commit: the state names the new block */
                cur->args = copies;
                cgn__txn_publish_update_storage(&txn);
            }
            return CGN_OK;
        }
    }
    cgn_kernel_desc d; /* in 8-byte words: narrower reads of it below then forward (design.md) */
    cgn__copy_state(&d, cgn__txn_current_state(&txn), sizeof d);
    if (set & CGN_KERNEL_SET_KERNEL) {
        d.kernel = update->kernel;
        d.kernel_owner = (set & CGN_KERNEL_SET_KERNEL_OWNER) ? update->kernel_owner : NULL;
    }
    if (set & CGN_KERNEL_SET_GRID)
        d.grid = update->grid;
    if (set & CGN_KERNEL_SET_BLOCK)
        d.block = update->block;
    if (set & CGN_KERNEL_SET_SHARED_MEM_BYTES)
        d.shared_mem_bytes = update->shared_mem_bytes;
    if (set & CGN_KERNEL_SET_ARGS) {
        d.args = update->args;
        d.num_args = update->num_args;
    }
    st = kernel_check_rules(&d, set, where);
    if (st == CGN_OK)
        st = kernel_check_kinds(&d, set, where);
    if (st == CGN_OK &&
        (cgn__driver->version < 13000 || kernel_needs_context(txn.cur_ctx, txn.cur_state, &d)))
        st = cgn__txn_enter(&txn, where); /* the node's context, current from here on */
    if (st != CGN_OK)
        return st;
    CUgraphNodeParams p;
    /* Only the member reaches the typed setter: complete and zeroed, from the merged fields. */
    memset(&p.kernel, 0, sizeof p.kernel);
    st = kernel_stage(&txn, &d, update, set, &p, where);
    /* Without a change to an owner field (or what it follows) the owners are unchanged. */
    if (st == CGN_OK && (set & (CGN_KERNEL_SET_ARG | CGN_KERNEL_SET_ARGS | CGN_KERNEL_SET_KERNEL)))
        st = kernel_stage_owners(&txn, &d);
    if (st != CGN_OK)
        return cgn__txn_fail(&txn, st);
    kernel_build(&d, cgn__txn_context(&txn), &p);
    st = cgn__txn_applied(&txn, kernel_set_raw(txn.node->raw, &p), "cuGraphKernelNodeSetParams",
                          where);
    if (st != CGN_OK)
        return st;
    if (!(set & ~(CGN_KERNEL_SET_GRID | CGN_KERNEL_SET_BLOCK | CGN_KERNEL_SET_SHARED_MEM_BYTES)) &&
        cgn__txn_no_context_to_restore(&txn)) {
        /* Only fields kept as given: those set written back from the update, not the whole
         * merged descriptor (design.md). */
        cgn_kernel_desc *cur = txn.cur_state;
        if (set & CGN_KERNEL_SET_GRID)
            cur->grid = update->grid;
        if (set & CGN_KERNEL_SET_BLOCK)
            cur->block = update->block;
        if (set & CGN_KERNEL_SET_SHARED_MEM_BYTES)
            cur->shared_mem_bytes = update->shared_mem_bytes;
        return CGN_OK;
    }
    cgn__txn_commit_update(&txn, &d, sizeof d);
    return CGN_OK;
}

/* cgn_kernel_node_update's path when its lean paths do not apply. */
static CGN__NOINLINE cgn_status kernel_node_update_txn(cgn_node *node,
                                                       const cgn_kernel_update *update,
                                                       const cgn__lean *resolved,
                                                       const char *where) {
    return kernel_node_update_body(node, update, 0, resolved, where);
}

/* cgn_kernel_node_update's lean path for every argument when the version has owners (runtime.h,
 * cgn__args_in_place_owned): written in place too where the version's attachment is the graph's
 * alone, its owners replaced after the driver call; anything else, and every error, takes the
 * transaction's path, from the lookups made. */
static CGN__NOINLINE cgn_status kernel_node_update_owned(cgn_node *node,
                                                         const cgn_kernel_update *update,
                                                         cgn__lean *lean, const char *where) {
    const cgn_kernel_desc *cur = lean->state;
    void **params = NULL;
    cgn__args_undo undo; /* what the in-place writes replaced */
    undo.count = 0;
    cgn__owner_swap swap; /* the owners they staged */
    cgn_status failed = CGN_OK;
    int context_free = cgn__driver->version >= 13000 &&
                       !kernel_needs_context(lean->ctx, cur, cur);
    if (cgn__lean_context(lean, context_free, &failed, where)) {
        cgn_owner *const fixed[] = {cur->kernel_owner};
        params = cgn__args_in_place_owned(lean, cur->kernel, update->args, update->num_args,
                                          fixed, 1, &undo, &swap);
    }
    if (failed != CGN_OK)
        return failed;
    if (params != NULL) {
        CUgraphNodeParams p;
        _Static_assert(sizeof p.kernel % 8 == 0, "zeroed in 8-byte words");
        cgn__zero_words(&p.kernel, sizeof p.kernel);
        p.kernel.kernelParams = params;
        kernel_build(cur, lean->ctx, &p);
        CUresult r = kernel_set_raw(lean->raw, &p);
        if (r != CUDA_SUCCESS) {
            cgn__lean_owners_undo(&swap, &undo);
            return cgn__lean_apply_failed(r, where, "cuGraphKernelNodeSetParams");
        }
        cgn__lean_owners_commit(&swap);
        return CGN_OK;
    }
    return kernel_node_update_txn(node, update, lean, where);
}

/* cgn_kernel_node_update's lean paths, for the sets they take. */
static CGN__NOINLINE cgn_status kernel_node_update_lean(cgn_node *node,
                                                        const cgn_kernel_update *update,
                                                        const char *where) {
    cgn__lean lean, kept;
    int found = 0; /* a lean path resolved the handles, then declined */
    if (update->set == CGN_KERNEL_SET_ARGS) {
        /* The update loop's steady state: new values for every argument of the same kernel,
         * no owner before or after. Written in place, one driver call, no transaction
         * (runtime.h, cgn__lean); anything else, and every error, takes the paths below. */
        int lean_found = cgn__lean_node(&lean, node, CGN_NODE_KERNEL, 12020, 2);
        if (lean_found == 2) /* a version with owners: a path of its own */
            return kernel_node_update_owned(node, update, &lean, where);
        if (lean_found) {
            const cgn_kernel_desc *cur = lean.state;
            void **params = NULL;
            cgn__args_undo undo; /* what the in-place writes replaced */
            undo.count = 0;
            cgn_status failed = CGN_OK;
            int context_free = cgn__driver->version >= 13000 &&
                               !kernel_needs_context(lean.ctx, cur, cur);
            if (cgn__lean_context(&lean, context_free, &failed, where))
                params = cgn__args_in_place(lean.storage, cur->kernel, update->args,
                                            update->num_args, &undo);
            if (failed != CGN_OK)
                return failed;
            if (params != NULL) {
                CUgraphNodeParams p;
                _Static_assert(sizeof p.kernel % 8 == 0, "zeroed in 8-byte words");
                cgn__zero_words(&p.kernel, sizeof p.kernel);
                p.kernel.kernelParams = params;
                kernel_build(cur, lean.ctx, &p);
                CUresult r = kernel_set_raw(lean.raw, &p);
                if (r != CUDA_SUCCESS) {
                    cgn__args_undo_apply(&undo);
                    return cgn__lean_apply_failed(r, where, "cuGraphKernelNodeSetParams");
                }
                return CGN_OK;
            }
            kept = lean; /* declined: the transaction starts from what the lookups found */
            found = 1;
        }
    }
    if (update->set == CGN_KERNEL_SET_ARG &&
        update->arg_edits.count > 0 &&
        cgn__arg_edits_unowned(&update->arg_edits)) {
        /* The update loop's steady state: arguments replaced by index, the others kept,
         * no owner before or after. Written in place, one driver call, no transaction
         * (runtime.h, cgn__lean); anything else, and every error, takes the paths below. */
        if (cgn__lean_node(&lean, node, CGN_NODE_KERNEL, 12040, 0)) {
            const cgn_kernel_desc *cur = lean.state;
            void **params = NULL;
            cgn__args_undo undo; /* what the in-place writes replaced */
            undo.count = 0;
            cgn_status failed = CGN_OK;
            int context_free = cgn__driver->version >= 13000 &&
                               !kernel_needs_context(lean.ctx, cur, cur);
            if (cgn__lean_context(&lean, context_free, &failed, where))
                params = cgn__arg_edits_in_place(lean.storage, &update->arg_edits, &undo);
            if (failed != CGN_OK)
                return failed;
            if (params != NULL) {
                CUgraphNodeParams p;
                _Static_assert(sizeof p.kernel % 8 == 0, "zeroed in 8-byte words");
                cgn__zero_words(&p.kernel, sizeof p.kernel);
                p.kernel.kernelParams = params;
                kernel_build(cur, lean.ctx, &p);
                CUresult r = kernel_set_raw(lean.raw, &p);
                if (r != CUDA_SUCCESS) {
                    cgn__args_undo_apply(&undo);
                    return cgn__lean_apply_failed(r, where, "cuGraphKernelNodeSetParams");
                }
                return CGN_OK;
            }
            kept = lean; /* declined: the transaction starts from what the lookups found */
            found = 1;
        }
    }
    return kernel_node_update_txn(node, update, found ? &kept : NULL, where);
}

/* cgn_kernel_node_update's lean path for updates of fields kept as given alone. */
static CGN__NOINLINE cgn_status kernel_node_update_plain(cgn_node *node,
                                                         const cgn_kernel_update *update,
                                                         const char *where) {
    uint64_t set = update->set;
    cgn__lean lean; /* any owners: these fields never change them */
    int found = cgn__lean_node(&lean, node, CGN_NODE_KERNEL, 12020, 1);
    if (found) {
        cgn_kernel_desc d;
        cgn__copy_state(&d, lean.state, sizeof d);
        if (set & CGN_KERNEL_SET_GRID)
            d.grid = update->grid;
        if (set & CGN_KERNEL_SET_BLOCK)
            d.block = update->block;
        if (set & CGN_KERNEL_SET_SHARED_MEM_BYTES)
            d.shared_mem_bytes = update->shared_mem_bytes;
        /* A refused update leaves it to the transaction's path, which says why. */
        cgn_status checked = kernel_check_rules(&d, set, where);
        if (checked == CGN_OK)
            checked = kernel_check_kinds(&d, set, where);
        cgn_status failed = CGN_OK;
        int context_free = cgn__driver->version >= 13000 &&
                           !kernel_needs_context(lean.ctx, lean.state, lean.state);
        if (checked == CGN_OK && cgn__lean_context(&lean, context_free, &failed, where)) {
            CUgraphNodeParams p;
            _Static_assert(sizeof p.kernel % 8 == 0, "zeroed in 8-byte words");
            cgn__zero_words(&p.kernel, sizeof p.kernel);
            int lean_ok = 1;
            if (!cgn__keep_kernel_args_lean(lean.storage, &p.kernel.kernelParams))
                lean_ok = 0;
            if (lean_ok) {
                kernel_build(&d, lean.ctx, &p);
                CUresult r = kernel_set_raw(lean.raw, &p);
                if (r != CUDA_SUCCESS) {
                    return cgn__lean_apply_failed(r, where, "cuGraphKernelNodeSetParams");
                }
                cgn_kernel_desc *cur = lean.state;
                if (set & CGN_KERNEL_SET_GRID)
                    cur->grid = update->grid;
                if (set & CGN_KERNEL_SET_BLOCK)
                    cur->block = update->block;
                if (set & CGN_KERNEL_SET_SHARED_MEM_BYTES)
                    cur->shared_mem_bytes = update->shared_mem_bytes;
                return CGN_OK;
            }
        }
        if (failed != CGN_OK)
            return failed;
    }
    cgn__lean kept; /* declined after the lookups: the transaction starts from what they found */
    if (found)
        kept = lean;
    return kernel_node_update_txn(node, update, found ? &kept : NULL, where);
}

cgn_status cgn_kernel_node_update(cgn_node *node, const cgn_kernel_update *update) {
    static const char where[] = "cgn_kernel_node_update";
    if (update != NULL && (update->set == CGN_KERNEL_SET_ARGS ||
                           update->set == CGN_KERNEL_SET_ARG))
        return kernel_node_update_lean(node, update, where);
    if (update != NULL && update->set != 0 && !(update->set & ~(CGN_KERNEL_SET_GRID |
            CGN_KERNEL_SET_BLOCK | CGN_KERNEL_SET_SHARED_MEM_BYTES)))
        return kernel_node_update_plain(node, update, where);
    return kernel_node_update_txn(node, update, NULL, where);
}

cgn_status cgn_kernel_node_get(const cgn_node *node, cgn_kernel_desc *desc_out) {
    static const char where[] = "cgn_kernel_node_get";
    cgn__node_rec *n;
    cgn_status st = cgn__check_node(node, CGN_NODE_KERNEL, where, &n);
    if (st != CGN_OK)
        return st;
    if (desc_out == NULL)
        return cgn__fail(CGN_ERROR_INVALID_ARGUMENT, "%s: desc_out must not be NULL", where);
    memcpy(desc_out, n->state, sizeof *desc_out);
    return CGN_OK;
}

/* Field names by bit, and the executable-update rules only the driver checks, for messages
 * about what an executable refused. */
static const char *const kernel_field_names[] = {
    "kernel", "kernel_owner", "grid", "block", "shared_mem_bytes", "args", "arg"
};
static const char *const kernel_driver_rules[] = {
    "an executable's kernel node cannot move to another context (a CUfunction owned by another context, or a function that newly uses dynamic parallelism or device-side graph launch)",
    NULL,
    NULL,
    NULL,
    NULL,
    NULL,
    NULL,
};

CGN__ALWAYS_INLINE
static inline cgn_status kernel_exec_update_body(cgn_exec *exec, cgn_node *node,
                                                 const cgn_kernel_update *update,
                                                 uint64_t known_set, const cgn__lean *resolved,
                                                 const char *where) {
    cgn__txn txn;
    cgn_status st = CGN_OK;
    if (resolved != NULL) /* a lean path resolved the handles and declined: no second lookup */
        cgn__txn_start_lean(&txn, resolved);
    else
        st = cgn__exec_update_begin(&txn, exec, node, CGN_NODE_KERNEL, 12020, where);
    if (st != CGN_OK)
        return st;
    uint64_t set = known_set; /* not const: clang would warn on each test of a constant */
    if (set == 0) { /* the update as given */
        if (update == NULL)
            return cgn__fail(CGN_ERROR_INVALID_ARGUMENT, "%s: update must not be NULL", where);
        set = update->set;
        if (set & ~CGN_KERNEL_SET_ALL)
            return cgn__fail(CGN_ERROR_INVALID_ARGUMENT, "%s: unknown bits 0x%llx in set", where,
                             (unsigned long long)(set & ~CGN_KERNEL_SET_ALL));
        if (set == 0)
            return CGN_OK;
    }
    if (set == CGN_KERNEL_SET_ARGS && cgn__txn_current_attachment(&txn) == NULL) {
        /* An update loop's common case: new values for every argument of the same kernel, no
         * owner before or after, no context to make current.
         * Anything else, and every error, takes the general path below. */
        cgn_kernel_desc *cur = txn.cur_state;
        const cgn_arg *copies = cur->args;
        void **params = NULL;
        /* Not in place (the lean path above would have): a second block. */
        if (cgn__driver->version >= 13000 && !kernel_needs_context(txn.cur_ctx, cur, cur)) {
            params = cgn__stage_kernel_args_unowned(&txn, cur->kernel, update->args,
                                                    update->num_args, &copies);
        }
        if (params != NULL) {
            CUgraphNodeParams p;
            _Static_assert(sizeof p.kernel % 8 == 0, "zeroed in 8-byte words");
            cgn__zero_words(&p.kernel, sizeof p.kernel);
            p.kernel.kernelParams = params;
            kernel_build(cur, cgn__txn_context(&txn), &p);
            st = cgn__txn_applied(&txn, kernel_exec_set_raw(txn.exec->raw, txn.shadow->raw, &p),
                                  "cuGraphExecKernelNodeSetParams", where);
            if (st != CGN_OK)
                return cgn__exec_refused(st, set, kernel_field_names,
                                         kernel_driver_rules, 7);
            if (txn.storage_set) { /* the commit: the state names the new block */
                cur->args = copies;
                cur->num_args = update->num_args;
                cgn__txn_publish_update_storage(&txn);
            }
            return CGN_OK;
        }
    }
    if ((set & CGN_KERNEL_SET_ARG) && cgn__driver->version < 12040)
        return cgn__require_driver(12040, 1, "kernel updates that set arg");
    if (set & (CGN_KERNEL_SET_KERNEL | CGN_KERNEL_SET_KERNEL_OWNER)) {
        if ((set & CGN_KERNEL_SET_KERNEL) && !(set & CGN_KERNEL_SET_ARGS))
            return cgn__fail(CGN_ERROR_MISSING_FIELD, "%s: kernel requires args", where);
        if ((set & CGN_KERNEL_SET_KERNEL_OWNER) && !(set & CGN_KERNEL_SET_KERNEL))
            return cgn__fail(CGN_ERROR_MISSING_FIELD, "%s: kernel_owner requires kernel", where);
    }
    if (set == CGN_KERNEL_SET_ARG && cgn__txn_current_attachment(&txn) == NULL &&
        update->arg_edits.count > 0 &&
        cgn__arg_edits_unowned(&update->arg_edits)) {
        /* An update loop's common case: arguments replaced by index, the others kept, no
         * owner before or after, no context to make current.
         * Anything else, and every error, takes the general path below. */
        cgn_kernel_desc *cur = txn.cur_state;
        const cgn_arg *copies = cur->args;
        void **params = NULL;
        /* Not in place (the lean path above would have): a second block. */
        if (cgn__driver->version >= 13000 && !kernel_needs_context(txn.cur_ctx, cur, cur)) {
            st = cgn__stage_arg_edits(&txn, &update->arg_edits, &copies, &params, where);
            if (st != CGN_OK)
                return cgn__txn_fail(&txn, st);
        }
        if (params != NULL) {
            CUgraphNodeParams p;
            _Static_assert(sizeof p.kernel % 8 == 0, "zeroed in 8-byte words");
            cgn__zero_words(&p.kernel, sizeof p.kernel);
            p.kernel.kernelParams = params;
            kernel_build(cur, cgn__txn_context(&txn), &p);
            st = cgn__txn_applied(&txn, kernel_exec_set_raw(txn.exec->raw, txn.shadow->raw, &p),
                                  "cuGraphExecKernelNodeSetParams", where);
            if (st != CGN_OK)
                return cgn__exec_refused(st, set, kernel_field_names,
                                         kernel_driver_rules, 7);
            if (txn.storage_set) { /* the commit: the state names the new block */
                cur->args = copies;
                cgn__txn_publish_update_storage(&txn);
            }
            return CGN_OK;
        }
    }
    cgn_kernel_desc d; /* in 8-byte words: narrower reads of it below then forward (design.md) */
    cgn__copy_state(&d, cgn__txn_current_state(&txn), sizeof d);
    if (set & CGN_KERNEL_SET_KERNEL) {
        d.kernel = update->kernel;
        d.kernel_owner = (set & CGN_KERNEL_SET_KERNEL_OWNER) ? update->kernel_owner : NULL;
    }
    if (set & CGN_KERNEL_SET_GRID)
        d.grid = update->grid;
    if (set & CGN_KERNEL_SET_BLOCK)
        d.block = update->block;
    if (set & CGN_KERNEL_SET_SHARED_MEM_BYTES)
        d.shared_mem_bytes = update->shared_mem_bytes;
    if (set & CGN_KERNEL_SET_ARGS) {
        d.args = update->args;
        d.num_args = update->num_args;
    }
    st = kernel_check_rules(&d, set, where);
    if (st == CGN_OK)
        st = kernel_check_kinds(&d, set, where);
    if (st == CGN_OK &&
        (cgn__driver->version < 13000 || kernel_needs_context(txn.cur_ctx, txn.cur_state, &d)))
        st = cgn__txn_enter(&txn, where); /* the node's context, current from here on */
    if (st != CGN_OK)
        return st;
    CUgraphNodeParams p;
    /* Only the member reaches the typed setter: complete and zeroed, from the merged fields. */
    memset(&p.kernel, 0, sizeof p.kernel);
    st = kernel_stage(&txn, &d, update, set, &p, where);
    /* Without a change to an owner field (or what it follows) the owners are unchanged. */
    if (st == CGN_OK && (set & (CGN_KERNEL_SET_ARG | CGN_KERNEL_SET_ARGS | CGN_KERNEL_SET_KERNEL)))
        st = kernel_stage_owners(&txn, &d);
    /* The executable-update rules, on the merged fields against the executable's own. */
    if (st == CGN_OK)
        st = cgn__kernel_exec_check(cgn__txn_current_state(&txn), &d, cgn__txn_context(&txn),
                                    where);
    if (st != CGN_OK)
        return cgn__txn_fail(&txn, st);
    kernel_build(&d, cgn__txn_context(&txn), &p);
    st = cgn__txn_applied(&txn, kernel_exec_set_raw(txn.exec->raw, txn.shadow->raw, &p),
                          "cuGraphExecKernelNodeSetParams", where);
    if (st != CGN_OK)
        return cgn__exec_refused(st, set, kernel_field_names, kernel_driver_rules,
                                 7);
    if (!(set & ~(CGN_KERNEL_SET_GRID | CGN_KERNEL_SET_BLOCK | CGN_KERNEL_SET_SHARED_MEM_BYTES)) &&
        cgn__txn_no_context_to_restore(&txn)) {
        /* Only fields kept as given: those set written back from the update, not the whole
         * merged descriptor (design.md). */
        cgn_kernel_desc *cur = txn.cur_state;
        if (set & CGN_KERNEL_SET_GRID)
            cur->grid = update->grid;
        if (set & CGN_KERNEL_SET_BLOCK)
            cur->block = update->block;
        if (set & CGN_KERNEL_SET_SHARED_MEM_BYTES)
            cur->shared_mem_bytes = update->shared_mem_bytes;
        return CGN_OK;
    }
    cgn__txn_commit_update(&txn, &d, sizeof d);
    return CGN_OK;
}

/* cgn_kernel_exec_update's path when its lean paths do not apply. */
static CGN__NOINLINE cgn_status kernel_exec_update_txn(cgn_exec *exec, cgn_node *node,
                                                       const cgn_kernel_update *update,
                                                       const cgn__lean *resolved,
                                                       const char *where) {
    return kernel_exec_update_body(exec, node, update, 0, resolved, where);
}

/* cgn_kernel_exec_update's lean paths, for the sets they take. */
static CGN__NOINLINE cgn_status kernel_exec_update_lean(cgn_exec *exec, cgn_node *node,
                                                        const cgn_kernel_update *update,
                                                        const char *where) {
    cgn__lean lean, kept;
    int found = 0; /* a lean path resolved the handles, then declined */
    if (update->set == CGN_KERNEL_SET_ARGS) {
        /* The update loop's steady state: new values for every argument of the same kernel,
         * no owner before or after. Written in place, one driver call, no transaction
         * (runtime.h, cgn__lean); anything else, and every error, takes the paths below. */
        if (cgn__lean_shadow(&lean, exec, node, CGN_NODE_KERNEL, 12020, 0)) {
            const cgn_kernel_desc *cur = lean.state;
            void **params = NULL;
            cgn__args_undo undo; /* what the in-place writes replaced */
            undo.count = 0;
            cgn_status failed = CGN_OK;
            int context_free = cgn__driver->version >= 13000 &&
                               !kernel_needs_context(lean.ctx, cur, cur);
            if (cgn__lean_context(&lean, context_free, &failed, where))
                params = cgn__args_in_place(lean.storage, cur->kernel, update->args,
                                            update->num_args, &undo);
            if (failed != CGN_OK)
                return failed;
            if (params != NULL) {
                CUgraphNodeParams p;
                _Static_assert(sizeof p.kernel % 8 == 0, "zeroed in 8-byte words");
                cgn__zero_words(&p.kernel, sizeof p.kernel);
                p.kernel.kernelParams = params;
                kernel_build(cur, lean.ctx, &p);
                CUresult r = kernel_exec_set_raw(lean.exec, lean.raw, &p);
                if (r != CUDA_SUCCESS) {
                    cgn__args_undo_apply(&undo);
                    cgn_status st = cgn__lean_apply_failed(r, where,
                                                           "cuGraphExecKernelNodeSetParams");
                    return cgn__exec_refused(st, CGN_KERNEL_SET_ARGS, kernel_field_names,
                                             kernel_driver_rules, 7);
                }
                return CGN_OK;
            }
            kept = lean; /* declined: the transaction starts from what the lookups found */
            found = 1;
        }
    }
    if (update->set == CGN_KERNEL_SET_ARG &&
        update->arg_edits.count > 0 &&
        cgn__arg_edits_unowned(&update->arg_edits)) {
        /* The update loop's steady state: arguments replaced by index, the others kept,
         * no owner before or after. Written in place, one driver call, no transaction
         * (runtime.h, cgn__lean); anything else, and every error, takes the paths below. */
        if (cgn__lean_shadow(&lean, exec, node, CGN_NODE_KERNEL, 12040, 0)) {
            const cgn_kernel_desc *cur = lean.state;
            void **params = NULL;
            cgn__args_undo undo; /* what the in-place writes replaced */
            undo.count = 0;
            cgn_status failed = CGN_OK;
            int context_free = cgn__driver->version >= 13000 &&
                               !kernel_needs_context(lean.ctx, cur, cur);
            if (cgn__lean_context(&lean, context_free, &failed, where))
                params = cgn__arg_edits_in_place(lean.storage, &update->arg_edits, &undo);
            if (failed != CGN_OK)
                return failed;
            if (params != NULL) {
                CUgraphNodeParams p;
                _Static_assert(sizeof p.kernel % 8 == 0, "zeroed in 8-byte words");
                cgn__zero_words(&p.kernel, sizeof p.kernel);
                p.kernel.kernelParams = params;
                kernel_build(cur, lean.ctx, &p);
                CUresult r = kernel_exec_set_raw(lean.exec, lean.raw, &p);
                if (r != CUDA_SUCCESS) {
                    cgn__args_undo_apply(&undo);
                    cgn_status st = cgn__lean_apply_failed(r, where,
                                                           "cuGraphExecKernelNodeSetParams");
                    return cgn__exec_refused(st, CGN_KERNEL_SET_ARG, kernel_field_names,
                                             kernel_driver_rules, 7);
                }
                return CGN_OK;
            }
            kept = lean; /* declined: the transaction starts from what the lookups found */
            found = 1;
        }
    }
    return kernel_exec_update_txn(exec, node, update, found ? &kept : NULL, where);
}

/* cgn_kernel_exec_update's lean path for updates of fields kept as given alone. */
static CGN__NOINLINE cgn_status kernel_exec_update_plain(cgn_exec *exec, cgn_node *node,
                                                         const cgn_kernel_update *update,
                                                         const char *where) {
    uint64_t set = update->set;
    cgn__lean lean; /* any owners: these fields never change them */
    int found = cgn__lean_shadow(&lean, exec, node, CGN_NODE_KERNEL, 12020, 1);
    if (found) {
        cgn_kernel_desc d;
        cgn__copy_state(&d, lean.state, sizeof d);
        if (set & CGN_KERNEL_SET_GRID)
            d.grid = update->grid;
        if (set & CGN_KERNEL_SET_BLOCK)
            d.block = update->block;
        if (set & CGN_KERNEL_SET_SHARED_MEM_BYTES)
            d.shared_mem_bytes = update->shared_mem_bytes;
        /* A refused update leaves it to the transaction's path, which says why. */
        cgn_status checked = kernel_check_rules(&d, set, where);
        if (checked == CGN_OK)
            checked = kernel_check_kinds(&d, set, where);
        cgn_status failed = CGN_OK;
        int context_free = cgn__driver->version >= 13000 &&
                           !kernel_needs_context(lean.ctx, lean.state, lean.state);
        if (checked == CGN_OK && cgn__lean_context(&lean, context_free, &failed, where)) {
            CUgraphNodeParams p;
            _Static_assert(sizeof p.kernel % 8 == 0, "zeroed in 8-byte words");
            cgn__zero_words(&p.kernel, sizeof p.kernel);
            int lean_ok = 1;
            if (!cgn__keep_kernel_args_lean(lean.storage, &p.kernel.kernelParams))
                lean_ok = 0;
            if (lean_ok) {
                kernel_build(&d, lean.ctx, &p);
                CUresult r = kernel_exec_set_raw(lean.exec, lean.raw, &p);
                if (r != CUDA_SUCCESS) {
                    cgn_status st = cgn__lean_apply_failed(r, where,
                                                           "cuGraphExecKernelNodeSetParams");
                    return cgn__exec_refused(st, set, kernel_field_names, kernel_driver_rules, 7);
                }
                cgn_kernel_desc *cur = lean.state;
                if (set & CGN_KERNEL_SET_GRID)
                    cur->grid = update->grid;
                if (set & CGN_KERNEL_SET_BLOCK)
                    cur->block = update->block;
                if (set & CGN_KERNEL_SET_SHARED_MEM_BYTES)
                    cur->shared_mem_bytes = update->shared_mem_bytes;
                return CGN_OK;
            }
        }
        if (failed != CGN_OK)
            return failed;
    }
    cgn__lean kept; /* declined after the lookups: the transaction starts from what they found */
    if (found)
        kept = lean;
    return kernel_exec_update_txn(exec, node, update, found ? &kept : NULL, where);
}

cgn_status cgn_kernel_exec_update(cgn_exec *exec, cgn_node *node, const cgn_kernel_update *update) {
    static const char where[] = "cgn_kernel_exec_update";
    if (update != NULL && (update->set == CGN_KERNEL_SET_ARGS ||
                           update->set == CGN_KERNEL_SET_ARG))
        return kernel_exec_update_lean(exec, node, update, where);
    if (update != NULL && update->set != 0 && !(update->set & ~(CGN_KERNEL_SET_GRID |
            CGN_KERNEL_SET_BLOCK | CGN_KERNEL_SET_SHARED_MEM_BYTES)))
        return kernel_exec_update_plain(exec, node, update, where);
    return kernel_exec_update_txn(exec, node, update, NULL, where);
}

/* cgn_kernel_node_set_arg's path when its lean path does not apply. */
static CGN__NOINLINE cgn_status kernel_node_set_arg_txn(cgn_node *node, uint32_t index,
                                                        const void *value, size_t size,
                                                        cgn_owner *owner, const cgn__lean *resolved,
                                                        const char *where) {
    cgn_kernel_update direct; /* this field alone: the others are never read */
    cgn_kernel_update_reset(&direct);
    cgn_kernel_update_set_arg(&direct, index, value, size, owner);
    return kernel_node_update_body(node, &direct, CGN_KERNEL_SET_ARG, resolved, where);
}

cgn_status cgn_kernel_node_set_arg(cgn_node *node, uint32_t index, const void *value, size_t size,
                                   cgn_owner *owner) {
    static const char where[] = "cgn_kernel_node_set_arg";
    cgn__lean lean, kept;
    int found = 0; /* the lean path resolved the handles, then declined */
    {
        /* The update loop's steady state: arguments replaced by index, the others kept,
         * no owner before or after. Written in place, one driver call, no transaction
         * (runtime.h, cgn__lean); anything else, and every error, takes the paths below. */
        if (cgn__lean_node(&lean, node, CGN_NODE_KERNEL, 12040, 0)) {
            const cgn_kernel_desc *cur = lean.state;
            void **params = NULL;
            cgn__args_undo undo; /* what the in-place writes replaced */
            undo.count = 0;
            cgn_status failed = CGN_OK;
            int context_free = cgn__driver->version >= 13000 &&
                               !kernel_needs_context(lean.ctx, cur, cur);
            if (cgn__lean_context(&lean, context_free, &failed, where))
                params = cgn__arg_in_place(lean.storage, index, value, size, owner, &undo);
            if (failed != CGN_OK)
                return failed;
            if (params != NULL) {
                CUgraphNodeParams p;
                _Static_assert(sizeof p.kernel % 8 == 0, "zeroed in 8-byte words");
                cgn__zero_words(&p.kernel, sizeof p.kernel);
                p.kernel.kernelParams = params;
                kernel_build(cur, lean.ctx, &p);
                CUresult r = kernel_set_raw(lean.raw, &p);
                if (r != CUDA_SUCCESS) {
                    cgn__args_undo_apply(&undo);
                    return cgn__lean_apply_failed(r, where, "cuGraphKernelNodeSetParams");
                }
                return CGN_OK;
            }
            kept = lean; /* declined: the transaction starts from what the lookups found */
            found = 1;
        }
    }
    const cgn__lean *resolved = found ? &kept : NULL;
    return kernel_node_set_arg_txn(node, index, value, size, owner, resolved, where);
}

/* cgn_kernel_exec_set_arg's path when its lean path does not apply. */
static CGN__NOINLINE cgn_status kernel_exec_set_arg_txn(cgn_exec *exec, cgn_node *node,
                                                        uint32_t index, const void *value,
                                                        size_t size, cgn_owner *owner,
                                                        const cgn__lean *resolved,
                                                        const char *where) {
    cgn_kernel_update direct; /* this field alone: the others are never read */
    cgn_kernel_update_reset(&direct);
    cgn_kernel_update_set_arg(&direct, index, value, size, owner);
    return kernel_exec_update_body(exec, node, &direct, CGN_KERNEL_SET_ARG, resolved, where);
}

cgn_status cgn_kernel_exec_set_arg(cgn_exec *exec, cgn_node *node, uint32_t index,
                                   const void *value, size_t size, cgn_owner *owner) {
    static const char where[] = "cgn_kernel_exec_set_arg";
    cgn__lean lean, kept;
    int found = 0; /* the lean path resolved the handles, then declined */
    {
        /* The update loop's steady state: arguments replaced by index, the others kept,
         * no owner before or after. Written in place, one driver call, no transaction
         * (runtime.h, cgn__lean); anything else, and every error, takes the paths below. */
        if (cgn__lean_shadow(&lean, exec, node, CGN_NODE_KERNEL, 12040, 0)) {
            const cgn_kernel_desc *cur = lean.state;
            void **params = NULL;
            cgn__args_undo undo; /* what the in-place writes replaced */
            undo.count = 0;
            cgn_status failed = CGN_OK;
            int context_free = cgn__driver->version >= 13000 &&
                               !kernel_needs_context(lean.ctx, cur, cur);
            if (cgn__lean_context(&lean, context_free, &failed, where))
                params = cgn__arg_in_place(lean.storage, index, value, size, owner, &undo);
            if (failed != CGN_OK)
                return failed;
            if (params != NULL) {
                CUgraphNodeParams p;
                _Static_assert(sizeof p.kernel % 8 == 0, "zeroed in 8-byte words");
                cgn__zero_words(&p.kernel, sizeof p.kernel);
                p.kernel.kernelParams = params;
                kernel_build(cur, lean.ctx, &p);
                CUresult r = kernel_exec_set_raw(lean.exec, lean.raw, &p);
                if (r != CUDA_SUCCESS) {
                    cgn__args_undo_apply(&undo);
                    cgn_status st = cgn__lean_apply_failed(r, where,
                                                           "cuGraphExecKernelNodeSetParams");
                    return cgn__exec_refused(st, CGN_KERNEL_SET_ARG, kernel_field_names,
                                             kernel_driver_rules, 7);
                }
                return CGN_OK;
            }
            kept = lean; /* declined: the transaction starts from what the lookups found */
            found = 1;
        }
    }
    const cgn__lean *resolved = found ? &kept : NULL;
    return kernel_exec_set_arg_txn(exec, node, index, value, size, owner, resolved, where);
}

cgn_status cgn_kernel_exec_get(const cgn_exec *exec, const cgn_node *node,
                               cgn_kernel_desc *desc_out) {
    static const char where[] = "cgn_kernel_exec_get";
    cgn__txn txn;
    cgn_status st = cgn__exec_update_begin(&txn, (cgn_exec *)(uintptr_t)exec,
                                           (cgn_node *)(uintptr_t)node, CGN_NODE_KERNEL, 0, where);
    if (st != CGN_OK)
        return st;
    if (desc_out == NULL)
        return cgn__fail(CGN_ERROR_INVALID_ARGUMENT, "%s: desc_out must not be NULL", where);
    memcpy(desc_out, cgn__txn_current_state(&txn), sizeof *desc_out);
    return CGN_OK;
}

/* Reads an adopted (or refreshed) node's params into its desc: the inverse of kernel_build.
 * Owners are never read (what the node points at is the caller's), except that a refresh keeps
 * those of unchanged values (prev). */
cgn_status cgn__kernel_read(cgn__reader *rd, const CUgraphNodeParams *p, void *desc_,
                            const void *prev_, const char *where) {
    cgn_kernel_desc *d = desc_;
    const cgn_kernel_desc *prev = prev_;
    memset(d, 0, sizeof *d);
    d->kernel = cgn__read_kernel_handle(&p->kernel, prev ? &prev->kernel : NULL);
    d->grid.x = p->kernel.gridDimX;
    d->grid.y = p->kernel.gridDimY;
    d->grid.z = p->kernel.gridDimZ;
    d->block.x = p->kernel.blockDimX;
    d->block.y = p->kernel.blockDimY;
    d->block.z = p->kernel.blockDimZ;
    d->shared_mem_bytes = p->kernel.sharedMemBytes;
    {
        cgn_status st = cgn__read_kernel_args(rd, d->kernel, &p->kernel, prev ? prev->args : NULL,
                                              prev ? prev->num_args : 0, &d->args, &d->num_args,
                                              where);
        if (st != CGN_OK)
            return st;
    }
    if (prev != NULL &&
        d->kernel.function == prev->kernel.function && d->kernel.kernel == prev->kernel.kernel)
        d->kernel_owner = prev->kernel_owner;
    return CGN_OK;
}
