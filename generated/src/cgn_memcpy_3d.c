/* Generated from spec/memcpy_3d.yaml by codegen; do not edit. */
#include <string.h>

#include "runtime.h"

/* Field rules from the spec, checked on the complete (merged) parameters. */
CGN__ALWAYS_INLINE static inline cgn_status memcpy_3d_check_rules(const cgn_memcpy_3d_desc *d,
                                                                  uint64_t changed,
                                                                  const char *where) {
    if ((changed & (CGN_MEMCPY_3D_SET_WIDTH_IN_BYTES)) && (d->width_in_bytes == 0))
        return cgn__fail(CGN_ERROR_INVALID_VALUE, "%s: width_in_bytes must be at least 1", where);
    if ((changed & (CGN_MEMCPY_3D_SET_HEIGHT)) && (d->height == 0))
        return cgn__fail(CGN_ERROR_INVALID_VALUE, "%s: height must be at least 1", where);
    if ((changed & (CGN_MEMCPY_3D_SET_DEPTH)) && (d->depth == 0))
        return cgn__fail(CGN_ERROR_INVALID_VALUE, "%s: depth must be at least 1", where);
    if ((changed & (CGN_MEMCPY_3D_SET_DST | CGN_MEMCPY_3D_SET_DST_ARRAY)) &&
        (((d->dst == 0) == (d->dst_array == NULL))))
        return cgn__fail(CGN_ERROR_INVALID_VALUE,
                         "%s: exactly one of dst and dst_array must be set", where);
    if ((changed & (CGN_MEMCPY_3D_SET_DST_X_IN_BYTES | CGN_MEMCPY_3D_SET_WIDTH_IN_BYTES)) &&
        (d->dst_x_in_bytes > SIZE_MAX - d->width_in_bytes))
        return cgn__fail(CGN_ERROR_OUT_OF_RANGE,
                         "%s: dst_x_in_bytes %zu plus width_in_bytes %zu does not fit size_t",
                         where, d->dst_x_in_bytes, d->width_in_bytes);
    if ((changed & (CGN_MEMCPY_3D_SET_DST_Y | CGN_MEMCPY_3D_SET_HEIGHT)) &&
        (d->dst_y > SIZE_MAX - d->height))
        return cgn__fail(CGN_ERROR_OUT_OF_RANGE,
                         "%s: dst_y %zu plus height %zu does not fit size_t", where, d->dst_y,
                         d->height);
    if ((changed & (CGN_MEMCPY_3D_SET_DEPTH | CGN_MEMCPY_3D_SET_DST_Z)) &&
        (d->dst_z > SIZE_MAX - d->depth))
        return cgn__fail(CGN_ERROR_OUT_OF_RANGE, "%s: dst_z %zu plus depth %zu does not fit size_t",
                         where, d->dst_z, d->depth);
    if ((changed & (CGN_MEMCPY_3D_SET_DEPTH | CGN_MEMCPY_3D_SET_DST | CGN_MEMCPY_3D_SET_DST_PITCH |
                    CGN_MEMCPY_3D_SET_DST_X_IN_BYTES | CGN_MEMCPY_3D_SET_DST_Y |
                    CGN_MEMCPY_3D_SET_DST_Z | CGN_MEMCPY_3D_SET_HEIGHT |
                    CGN_MEMCPY_3D_SET_WIDTH_IN_BYTES)) &&
        (d->dst != 0 && (d->height > 1 || d->depth > 1 || d->dst_y > 0 || d->dst_z > 0) && d->dst_pitch < d->dst_x_in_bytes + d->width_in_bytes))
        return cgn__fail(CGN_ERROR_INVALID_VALUE,
                         "%s: dst_pitch %zu is less than dst_x_in_bytes + width_in_bytes = %zu",
                         where, d->dst_pitch, d->dst_x_in_bytes + d->width_in_bytes);
    if ((changed & (CGN_MEMCPY_3D_SET_DEPTH | CGN_MEMCPY_3D_SET_DST | CGN_MEMCPY_3D_SET_DST_HEIGHT |
                    CGN_MEMCPY_3D_SET_DST_Y | CGN_MEMCPY_3D_SET_DST_Z |
                    CGN_MEMCPY_3D_SET_HEIGHT)) &&
        (d->dst != 0 && (d->depth > 1 || d->dst_z > 0) && d->dst_height < d->dst_y + d->height))
        return cgn__fail(CGN_ERROR_INVALID_VALUE,
                         "%s: dst_height %zu is less than dst_y + height = %zu", where,
                         d->dst_height, d->dst_y + d->height);
    if ((changed & (CGN_MEMCPY_3D_SET_DEPTH | CGN_MEMCPY_3D_SET_DST | CGN_MEMCPY_3D_SET_DST_HEIGHT |
                    CGN_MEMCPY_3D_SET_DST_Y | CGN_MEMCPY_3D_SET_DST_Z |
                    CGN_MEMCPY_3D_SET_HEIGHT)) &&
        (d->dst != 0 && d->dst_z + d->depth > 1 && d->dst_z + d->depth - 1 > (SIZE_MAX - (d->dst_y + d->height - 1)) / d->dst_height))
        return cgn__fail(CGN_ERROR_OUT_OF_RANGE, "%s: %zu slices of %zu rows do not fit size_t",
                         where, d->dst_z + d->depth, d->dst_height);
    if ((changed & (CGN_MEMCPY_3D_SET_DEPTH | CGN_MEMCPY_3D_SET_DST | CGN_MEMCPY_3D_SET_DST_HEIGHT |
                    CGN_MEMCPY_3D_SET_DST_PITCH | CGN_MEMCPY_3D_SET_DST_X_IN_BYTES |
                    CGN_MEMCPY_3D_SET_DST_Y | CGN_MEMCPY_3D_SET_DST_Z | CGN_MEMCPY_3D_SET_HEIGHT |
                    CGN_MEMCPY_3D_SET_WIDTH_IN_BYTES)) &&
        (d->dst != 0 && (d->dst_z + d->depth - 1) * d->dst_height + d->dst_y + d->height - 1 > 0 && (d->dst_z + d->depth - 1) * d->dst_height + d->dst_y + d->height - 1 > (SIZE_MAX - (d->dst_x_in_bytes + d->width_in_bytes)) / d->dst_pitch))
        return cgn__fail(CGN_ERROR_OUT_OF_RANGE,
                         "%s: its last row (index %zu) at pitch %zu does not fit size_t", where,
                         (d->dst_z + d->depth - 1) * d->dst_height + d->dst_y + d->height - 1,
                         d->dst_pitch);
    if ((changed & (CGN_MEMCPY_3D_SET_SRC | CGN_MEMCPY_3D_SET_SRC_ARRAY)) &&
        (((d->src == 0) == (d->src_array == NULL))))
        return cgn__fail(CGN_ERROR_INVALID_VALUE,
                         "%s: exactly one of src and src_array must be set", where);
    if ((changed & (CGN_MEMCPY_3D_SET_SRC_X_IN_BYTES | CGN_MEMCPY_3D_SET_WIDTH_IN_BYTES)) &&
        (d->src_x_in_bytes > SIZE_MAX - d->width_in_bytes))
        return cgn__fail(CGN_ERROR_OUT_OF_RANGE,
                         "%s: src_x_in_bytes %zu plus width_in_bytes %zu does not fit size_t",
                         where, d->src_x_in_bytes, d->width_in_bytes);
    if ((changed & (CGN_MEMCPY_3D_SET_HEIGHT | CGN_MEMCPY_3D_SET_SRC_Y)) &&
        (d->src_y > SIZE_MAX - d->height))
        return cgn__fail(CGN_ERROR_OUT_OF_RANGE,
                         "%s: src_y %zu plus height %zu does not fit size_t", where, d->src_y,
                         d->height);
    if ((changed & (CGN_MEMCPY_3D_SET_DEPTH | CGN_MEMCPY_3D_SET_SRC_Z)) &&
        (d->src_z > SIZE_MAX - d->depth))
        return cgn__fail(CGN_ERROR_OUT_OF_RANGE, "%s: src_z %zu plus depth %zu does not fit size_t",
                         where, d->src_z, d->depth);
    if ((changed & (CGN_MEMCPY_3D_SET_DEPTH | CGN_MEMCPY_3D_SET_HEIGHT | CGN_MEMCPY_3D_SET_SRC |
                    CGN_MEMCPY_3D_SET_SRC_PITCH | CGN_MEMCPY_3D_SET_SRC_X_IN_BYTES |
                    CGN_MEMCPY_3D_SET_SRC_Y | CGN_MEMCPY_3D_SET_SRC_Z |
                    CGN_MEMCPY_3D_SET_WIDTH_IN_BYTES)) &&
        (d->src != 0 && (d->height > 1 || d->depth > 1 || d->src_y > 0 || d->src_z > 0) && d->src_pitch < d->src_x_in_bytes + d->width_in_bytes))
        return cgn__fail(CGN_ERROR_INVALID_VALUE,
                         "%s: src_pitch %zu is less than src_x_in_bytes + width_in_bytes = %zu",
                         where, d->src_pitch, d->src_x_in_bytes + d->width_in_bytes);
    if ((changed & (CGN_MEMCPY_3D_SET_DEPTH | CGN_MEMCPY_3D_SET_HEIGHT | CGN_MEMCPY_3D_SET_SRC |
                    CGN_MEMCPY_3D_SET_SRC_HEIGHT | CGN_MEMCPY_3D_SET_SRC_Y |
                    CGN_MEMCPY_3D_SET_SRC_Z)) &&
        (d->src != 0 && (d->depth > 1 || d->src_z > 0) && d->src_height < d->src_y + d->height))
        return cgn__fail(CGN_ERROR_INVALID_VALUE,
                         "%s: src_height %zu is less than src_y + height = %zu", where,
                         d->src_height, d->src_y + d->height);
    if ((changed & (CGN_MEMCPY_3D_SET_DEPTH | CGN_MEMCPY_3D_SET_HEIGHT | CGN_MEMCPY_3D_SET_SRC |
                    CGN_MEMCPY_3D_SET_SRC_HEIGHT | CGN_MEMCPY_3D_SET_SRC_Y |
                    CGN_MEMCPY_3D_SET_SRC_Z)) &&
        (d->src != 0 && d->src_z + d->depth > 1 && d->src_z + d->depth - 1 > (SIZE_MAX - (d->src_y + d->height - 1)) / d->src_height))
        return cgn__fail(CGN_ERROR_OUT_OF_RANGE, "%s: %zu slices of %zu rows do not fit size_t",
                         where, d->src_z + d->depth, d->src_height);
    if ((changed & (CGN_MEMCPY_3D_SET_DEPTH | CGN_MEMCPY_3D_SET_HEIGHT | CGN_MEMCPY_3D_SET_SRC |
                    CGN_MEMCPY_3D_SET_SRC_HEIGHT | CGN_MEMCPY_3D_SET_SRC_PITCH |
                    CGN_MEMCPY_3D_SET_SRC_X_IN_BYTES | CGN_MEMCPY_3D_SET_SRC_Y |
                    CGN_MEMCPY_3D_SET_SRC_Z | CGN_MEMCPY_3D_SET_WIDTH_IN_BYTES)) &&
        (d->src != 0 && (d->src_z + d->depth - 1) * d->src_height + d->src_y + d->height - 1 > 0 && (d->src_z + d->depth - 1) * d->src_height + d->src_y + d->height - 1 > (SIZE_MAX - (d->src_x_in_bytes + d->width_in_bytes)) / d->src_pitch))
        return cgn__fail(CGN_ERROR_OUT_OF_RANGE,
                         "%s: its last row (index %zu) at pitch %zu does not fit size_t", where,
                         (d->src_z + d->depth - 1) * d->src_height + d->src_y + d->height - 1,
                         d->src_pitch);
    return CGN_OK;
}

/* Checks of field kinds that need more than a rule (kernel handles, argument lists). */
CGN__ALWAYS_INLINE static inline cgn_status memcpy_3d_check_kinds(const cgn_memcpy_3d_desc *d,
                                                                  uint64_t changed,
                                                                  const char *where) {
    (void)d;
    (void)changed;
    (void)where;
    return CGN_OK;
}

/* Stages cgn-owned copies of borrowed fields (checking them where that needs the driver);
 * *d is rewritten to point at the copies. */
CGN__ALWAYS_INLINE static inline cgn_status memcpy_3d_stage(cgn__txn *txn, cgn_memcpy_3d_desc *d,
                                                            const cgn_memcpy_3d_update *u,
                                                            uint64_t changed, CUgraphNodeParams *p,
                                                            const char *where) {
    (void)u;
    (void)p;
    if ((changed & CGN_MEMCPY_3D_SET_DST) && d->dst != 0) {
        cgn_status st = cgn__detect_memory_type(txn, d->dst, &d->dst_memory_type, "dst", where);
        if (st != CGN_OK)
            return st;
    }
    if (d->dst_memory_type == CU_MEMORYTYPE_HOST && d->dst != 0 &&
        (changed & (CGN_MEMCPY_3D_SET_DEPTH | CGN_MEMCPY_3D_SET_DST | CGN_MEMCPY_3D_SET_DST_HEIGHT |
                    CGN_MEMCPY_3D_SET_DST_PITCH | CGN_MEMCPY_3D_SET_DST_X_IN_BYTES |
                    CGN_MEMCPY_3D_SET_DST_Y | CGN_MEMCPY_3D_SET_DST_Z | CGN_MEMCPY_3D_SET_HEIGHT |
                    CGN_MEMCPY_3D_SET_WIDTH_IN_BYTES))) {
        cgn_status st = cgn__check_host_extent(d->dst,
                                               (size_t)((d->dst_z * d->dst_height + d->dst_y) * d->dst_pitch + d->dst_x_in_bytes),
                                               (size_t)(((d->dst_z + d->depth - 1) * d->dst_height + d->dst_y + d->height - 1) * d->dst_pitch + d->dst_x_in_bytes + d->width_in_bytes - 1),
                                               1, "dst", where);
        if (st != CGN_OK)
            return st;
    }
    if ((changed & CGN_MEMCPY_3D_SET_DST_ARRAY) && d->dst_array != NULL) {
        cgn_status st =
            cgn__check_raw_handle((const void *)(uintptr_t)d->dst_array, "dst_array", where);
        if (st != CGN_OK)
            return st;
    }
    if ((changed & CGN_MEMCPY_3D_SET_SRC) && d->src != 0) {
        cgn_status st = cgn__detect_memory_type(txn, d->src, &d->src_memory_type, "src", where);
        if (st != CGN_OK)
            return st;
    }
    if (d->src_memory_type == CU_MEMORYTYPE_HOST && d->src != 0 &&
        (changed & (CGN_MEMCPY_3D_SET_DEPTH | CGN_MEMCPY_3D_SET_HEIGHT | CGN_MEMCPY_3D_SET_SRC |
                    CGN_MEMCPY_3D_SET_SRC_HEIGHT | CGN_MEMCPY_3D_SET_SRC_PITCH |
                    CGN_MEMCPY_3D_SET_SRC_X_IN_BYTES | CGN_MEMCPY_3D_SET_SRC_Y |
                    CGN_MEMCPY_3D_SET_SRC_Z | CGN_MEMCPY_3D_SET_WIDTH_IN_BYTES))) {
        cgn_status st = cgn__check_host_extent(d->src,
                                               (size_t)((d->src_z * d->src_height + d->src_y) * d->src_pitch + d->src_x_in_bytes),
                                               (size_t)(((d->src_z + d->depth - 1) * d->src_height + d->src_y + d->height - 1) * d->src_pitch + d->src_x_in_bytes + d->width_in_bytes - 1),
                                               0, "src", where);
        if (st != CGN_OK)
            return st;
    }
    if ((changed & CGN_MEMCPY_3D_SET_SRC_ARRAY) && d->src_array != NULL) {
        cgn_status st =
            cgn__check_raw_handle((const void *)(uintptr_t)d->src_array, "src_array", where);
        if (st != CGN_OK)
            return st;
    }
    return CGN_OK;
}

/* The owners of the new version, in the spec's `owners` order. */
CGN__ALWAYS_INLINE static inline cgn_status memcpy_3d_stage_owners(cgn__txn *txn,
                                                                   const cgn_memcpy_3d_desc *d) {
    cgn_owner *const owners[] = {d->dst_owner, d->dst_array_owner, d->src_owner,
                                 d->src_array_owner};
    return cgn__txn_stage_owners(txn, owners, sizeof owners / sizeof owners[0], NULL, 0);
}

/* Fills the driver params from the merged fields; fields staged by memcpy_3d_stage are kept. */
CGN__ALWAYS_INLINE static inline void memcpy_3d_build(const cgn_memcpy_3d_desc *d, CUcontext ctx,
                                                      CUgraphNodeParams *p) {
    p->type = CU_GRAPH_NODE_TYPE_MEMCPY;
    if (d->dst != 0) {
        p->memcpy.copyParams.dstMemoryType = d->dst_memory_type;
        if (d->dst_memory_type == CU_MEMORYTYPE_HOST)
            p->memcpy.copyParams.dstHost = (void *)(uintptr_t)d->dst;
        else
            p->memcpy.copyParams.dstDevice = d->dst;
    }
    if (d->dst_array != NULL) {
        p->memcpy.copyParams.dstMemoryType = CU_MEMORYTYPE_ARRAY;
        p->memcpy.copyParams.dstArray = d->dst_array;
    }
    p->memcpy.copyParams.dstXInBytes = d->dst_x_in_bytes;
    p->memcpy.copyParams.dstY = d->dst_y;
    p->memcpy.copyParams.dstZ = d->dst_z;
    p->memcpy.copyParams.dstPitch = d->dst_pitch;
    p->memcpy.copyParams.dstHeight = d->dst_height;
    if (d->src != 0) {
        p->memcpy.copyParams.srcMemoryType = d->src_memory_type;
        if (d->src_memory_type == CU_MEMORYTYPE_HOST)
            p->memcpy.copyParams.srcHost = (void *)(uintptr_t)d->src;
        else
            p->memcpy.copyParams.srcDevice = d->src;
    }
    if (d->src_array != NULL) {
        p->memcpy.copyParams.srcMemoryType = CU_MEMORYTYPE_ARRAY;
        p->memcpy.copyParams.srcArray = d->src_array;
    }
    p->memcpy.copyParams.srcXInBytes = d->src_x_in_bytes;
    p->memcpy.copyParams.srcY = d->src_y;
    p->memcpy.copyParams.srcZ = d->src_z;
    p->memcpy.copyParams.srcPitch = d->src_pitch;
    p->memcpy.copyParams.srcHeight = d->src_height;
    p->memcpy.copyParams.WidthInBytes = d->width_in_bytes;
    p->memcpy.copyParams.Height = d->height;
    p->memcpy.copyParams.Depth = d->depth;
    p->memcpy.copyCtx = ctx;
}

cgn_status cgn_graph_add_memcpy_3d(cgn_graph *graph, cgn_node *const *deps, size_t num_deps,
                                   const cgn_memcpy_3d_desc *desc, cgn_node **node_out) {
    static const char where[] = "cgn_graph_add_memcpy_3d";
    if (desc == NULL || node_out == NULL)
        return cgn__fail(CGN_ERROR_INVALID_ARGUMENT, "%s: desc and node_out must not be NULL",
                         where);
    cgn_memcpy_3d_desc d = *desc;
    /* Members set by cgn are ignored on input. */
    d.dst_memory_type = (CUmemorytype)0;
    d.src_memory_type = (CUmemorytype)0;
    cgn_status st = memcpy_3d_check_rules(&d, CGN_MEMCPY_3D_SET_ALL, where);
    if (st == CGN_OK)
        st = memcpy_3d_check_kinds(&d, CGN_MEMCPY_3D_SET_ALL, where);
    if (st != CGN_OK)
        return st;
    cgn__txn txn;
    st = cgn__add_begin(&txn, graph, deps, num_deps, CGN_NODE_MEMCPY_3D, sizeof d, 1, where);
    if (st != CGN_OK)
        return st;
    CUgraphNodeParams p;
    memset(&p, 0, sizeof p);
    st = memcpy_3d_stage(&txn, &d, NULL, CGN_MEMCPY_3D_SET_ALL, &p, where);
    if (st == CGN_OK)
        st = memcpy_3d_stage_owners(&txn, &d);
    if (st != CGN_OK)
        return cgn__txn_fail(&txn, st);
    memcpy_3d_build(&d, cgn__txn_context(&txn), &p);
    st = cgn__txn_apply(&txn, &p, where);
    if (st != CGN_OK)
        return st;
    cgn__txn_commit(&txn, &d, sizeof d, node_out);
    return CGN_OK;
}

/* The executable-update rules: may an executable's version `cur` become `d`? */
cgn_status cgn__memcpy_3d_exec_check(const void *cur_, const void *d_, CUcontext ctx,
                                     const char *where) {
    const cgn_memcpy_3d_desc *cur = cur_;
    const cgn_memcpy_3d_desc *d = d_;
    (void)ctx;
    if (d->dst_memory_type != cur->dst_memory_type)
        return cgn__fail(CGN_ERROR_INVALID_VALUE,
                         "%s: field dst: dst changes memory type (%u, the executable has %u; 0 is an array operand); rule: an executable's copy keeps the memory type (device, host or array) of each operand",
                         where, d->dst_memory_type, cur->dst_memory_type);
    if (d->src_memory_type != cur->src_memory_type)
        return cgn__fail(CGN_ERROR_INVALID_VALUE,
                         "%s: field src: src changes memory type (%u, the executable has %u; 0 is an array operand); rule: an executable's copy keeps the memory type (device, host or array) of each operand",
                         where, d->src_memory_type, cur->src_memory_type);
    if ((cur->height != 1 || cur->depth != 1) && (d->dst != cur->dst || d->dst_array != cur->dst_array || d->dst_x_in_bytes != cur->dst_x_in_bytes || d->dst_y != cur->dst_y || d->dst_z != cur->dst_z || d->dst_pitch != cur->dst_pitch || d->dst_height != cur->dst_height || d->src != cur->src || d->src_array != cur->src_array || d->src_x_in_bytes != cur->src_x_in_bytes || d->src_y != cur->src_y || d->src_z != cur->src_z || d->src_pitch != cur->src_pitch || d->src_height != cur->src_height || d->width_in_bytes != cur->width_in_bytes || d->height != cur->height || d->depth != cur->depth))
        return cgn__fail(CGN_ERROR_INVALID_VALUE,
                         "%s: field height: the executable's copy is %zu rows by %zu slices; rule: CUDA changes an executable's copy only when it was instantiated 1-dimensional (height and depth 1) and stays so",
                         where, cur->height, cur->depth);
    if (cur->height == 1 && cur->depth == 1 && (d->height != 1 || d->depth != 1))
        return cgn__fail(CGN_ERROR_INVALID_VALUE,
                         "%s: field height: height %zu, depth %zu; rule: CUDA changes an executable's copy only when it was instantiated 1-dimensional (height and depth 1) and stays so",
                         where, d->height, d->depth);
    return CGN_OK;
}

/* The executable-level mutation through the typed setter (spec: cuda.exec_set). */
CGN__ALWAYS_INLINE static inline CUresult memcpy_3d_exec_set_raw(CUgraphExec exec, CUgraphNode node,
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
static inline cgn_status memcpy_3d_node_update_body(cgn_node *node,
                                                    const cgn_memcpy_3d_update *update,
                                                    uint64_t known_set, const cgn__lean *resolved,
                                                    const char *where) {
    cgn__txn txn;
    cgn_status st = CGN_OK;
    if (resolved != NULL) /* a lean path resolved the handles and declined: no second lookup */
        cgn__txn_start_lean(&txn, resolved);
    else
        st = cgn__update_begin(&txn, node, CGN_NODE_MEMCPY_3D, 12020, where);
    if (st != CGN_OK)
        return st;
    uint64_t set = known_set; /* not const: clang would warn on each test of a constant */
    if (set == 0) { /* the update as given */
        if (update == NULL)
            return cgn__fail(CGN_ERROR_INVALID_ARGUMENT, "%s: update must not be NULL", where);
        set = update->set;
        if (set & ~CGN_MEMCPY_3D_SET_ALL)
            return cgn__fail(CGN_ERROR_INVALID_ARGUMENT, "%s: unknown bits 0x%llx in set", where,
                             (unsigned long long)(set & ~CGN_MEMCPY_3D_SET_ALL));
        if (set == 0)
            return CGN_OK;
    }
    if (set & (CGN_MEMCPY_3D_SET_DST_OWNER | CGN_MEMCPY_3D_SET_DST_ARRAY_OWNER |
            CGN_MEMCPY_3D_SET_SRC_OWNER | CGN_MEMCPY_3D_SET_SRC_ARRAY_OWNER)) {
        if ((set & CGN_MEMCPY_3D_SET_DST_OWNER) && !(set & CGN_MEMCPY_3D_SET_DST))
            return cgn__fail(CGN_ERROR_MISSING_FIELD, "%s: dst_owner requires dst", where);
        if ((set & CGN_MEMCPY_3D_SET_DST_ARRAY_OWNER) && !(set & CGN_MEMCPY_3D_SET_DST_ARRAY))
            return cgn__fail(CGN_ERROR_MISSING_FIELD, "%s: dst_array_owner requires dst_array",
                             where);
        if ((set & CGN_MEMCPY_3D_SET_SRC_OWNER) && !(set & CGN_MEMCPY_3D_SET_SRC))
            return cgn__fail(CGN_ERROR_MISSING_FIELD, "%s: src_owner requires src", where);
        if ((set & CGN_MEMCPY_3D_SET_SRC_ARRAY_OWNER) && !(set & CGN_MEMCPY_3D_SET_SRC_ARRAY))
            return cgn__fail(CGN_ERROR_MISSING_FIELD, "%s: src_array_owner requires src_array",
                             where);
    }
    cgn_memcpy_3d_desc d = *(const cgn_memcpy_3d_desc *)cgn__txn_current_state(&txn);
    if (set & CGN_MEMCPY_3D_SET_DST) {
        d.dst = update->dst;
        d.dst_owner = (set & CGN_MEMCPY_3D_SET_DST_OWNER) ? update->dst_owner : NULL;
        d.dst_memory_type = (CUmemorytype)0; /* set by cgn */
    }
    if (set & CGN_MEMCPY_3D_SET_DST_ARRAY) {
        d.dst_array = update->dst_array;
        d.dst_array_owner =
            (set & CGN_MEMCPY_3D_SET_DST_ARRAY_OWNER) ? update->dst_array_owner : NULL;
    }
    if (set & CGN_MEMCPY_3D_SET_DST_X_IN_BYTES)
        d.dst_x_in_bytes = update->dst_x_in_bytes;
    if (set & CGN_MEMCPY_3D_SET_DST_Y)
        d.dst_y = update->dst_y;
    if (set & CGN_MEMCPY_3D_SET_DST_Z)
        d.dst_z = update->dst_z;
    if (set & CGN_MEMCPY_3D_SET_DST_PITCH)
        d.dst_pitch = update->dst_pitch;
    if (set & CGN_MEMCPY_3D_SET_DST_HEIGHT)
        d.dst_height = update->dst_height;
    if (set & CGN_MEMCPY_3D_SET_SRC) {
        d.src = update->src;
        d.src_owner = (set & CGN_MEMCPY_3D_SET_SRC_OWNER) ? update->src_owner : NULL;
        d.src_memory_type = (CUmemorytype)0; /* set by cgn */
    }
    if (set & CGN_MEMCPY_3D_SET_SRC_ARRAY) {
        d.src_array = update->src_array;
        d.src_array_owner =
            (set & CGN_MEMCPY_3D_SET_SRC_ARRAY_OWNER) ? update->src_array_owner : NULL;
    }
    if (set & CGN_MEMCPY_3D_SET_SRC_X_IN_BYTES)
        d.src_x_in_bytes = update->src_x_in_bytes;
    if (set & CGN_MEMCPY_3D_SET_SRC_Y)
        d.src_y = update->src_y;
    if (set & CGN_MEMCPY_3D_SET_SRC_Z)
        d.src_z = update->src_z;
    if (set & CGN_MEMCPY_3D_SET_SRC_PITCH)
        d.src_pitch = update->src_pitch;
    if (set & CGN_MEMCPY_3D_SET_SRC_HEIGHT)
        d.src_height = update->src_height;
    if (set & CGN_MEMCPY_3D_SET_WIDTH_IN_BYTES)
        d.width_in_bytes = update->width_in_bytes;
    if (set & CGN_MEMCPY_3D_SET_HEIGHT)
        d.height = update->height;
    if (set & CGN_MEMCPY_3D_SET_DEPTH)
        d.depth = update->depth;
    st = memcpy_3d_check_rules(&d, set, where);
    if (st == CGN_OK)
        st = memcpy_3d_check_kinds(&d, set, where);
    if (st == CGN_OK)
        st = cgn__txn_enter(&txn, where); /* the node's context, current from here on */
    if (st != CGN_OK)
        return st;
    st = cgn__check_memcpy_3d(&txn, where);
    if (st != CGN_OK)
        return cgn__txn_fail(&txn, st);
    CUgraphNodeParams p;
    cgn__params_zeroed(&p); /* complete and zeroed: built from the merged fields alone */
    st = memcpy_3d_stage(&txn, &d, update, set, &p, where);
    /* Without a change to an owner field (or what it follows) the owners are unchanged. */
    if (st == CGN_OK && (set & (CGN_MEMCPY_3D_SET_DST | CGN_MEMCPY_3D_SET_DST_ARRAY |
                                CGN_MEMCPY_3D_SET_SRC | CGN_MEMCPY_3D_SET_SRC_ARRAY)))
        st = memcpy_3d_stage_owners(&txn, &d);
    if (st != CGN_OK)
        return cgn__txn_fail(&txn, st);
    memcpy_3d_build(&d, cgn__txn_context(&txn), &p);
    st = cgn__txn_apply(&txn, &p, where);
    if (st != CGN_OK)
        return st;
    if (!(set & ~(CGN_MEMCPY_3D_SET_DST_X_IN_BYTES | CGN_MEMCPY_3D_SET_DST_Y |
            CGN_MEMCPY_3D_SET_DST_Z | CGN_MEMCPY_3D_SET_DST_PITCH | CGN_MEMCPY_3D_SET_DST_HEIGHT |
            CGN_MEMCPY_3D_SET_SRC_X_IN_BYTES | CGN_MEMCPY_3D_SET_SRC_Y | CGN_MEMCPY_3D_SET_SRC_Z |
            CGN_MEMCPY_3D_SET_SRC_PITCH | CGN_MEMCPY_3D_SET_SRC_HEIGHT |
            CGN_MEMCPY_3D_SET_WIDTH_IN_BYTES | CGN_MEMCPY_3D_SET_HEIGHT |
            CGN_MEMCPY_3D_SET_DEPTH)) &&
        cgn__txn_no_context_to_restore(&txn)) {
        /* Only fields kept as given: those set written back from the update, not the whole
         * merged descriptor (design.md). */
        cgn_memcpy_3d_desc *cur = txn.cur_state;
        if (set & CGN_MEMCPY_3D_SET_DST_X_IN_BYTES)
            cur->dst_x_in_bytes = update->dst_x_in_bytes;
        if (set & CGN_MEMCPY_3D_SET_DST_Y)
            cur->dst_y = update->dst_y;
        if (set & CGN_MEMCPY_3D_SET_DST_Z)
            cur->dst_z = update->dst_z;
        if (set & CGN_MEMCPY_3D_SET_DST_PITCH)
            cur->dst_pitch = update->dst_pitch;
        if (set & CGN_MEMCPY_3D_SET_DST_HEIGHT)
            cur->dst_height = update->dst_height;
        if (set & CGN_MEMCPY_3D_SET_SRC_X_IN_BYTES)
            cur->src_x_in_bytes = update->src_x_in_bytes;
        if (set & CGN_MEMCPY_3D_SET_SRC_Y)
            cur->src_y = update->src_y;
        if (set & CGN_MEMCPY_3D_SET_SRC_Z)
            cur->src_z = update->src_z;
        if (set & CGN_MEMCPY_3D_SET_SRC_PITCH)
            cur->src_pitch = update->src_pitch;
        if (set & CGN_MEMCPY_3D_SET_SRC_HEIGHT)
            cur->src_height = update->src_height;
        if (set & CGN_MEMCPY_3D_SET_WIDTH_IN_BYTES)
            cur->width_in_bytes = update->width_in_bytes;
        if (set & CGN_MEMCPY_3D_SET_HEIGHT)
            cur->height = update->height;
        if (set & CGN_MEMCPY_3D_SET_DEPTH)
            cur->depth = update->depth;
        return CGN_OK;
    }
    cgn__txn_commit_update(&txn, &d, sizeof d);
    return CGN_OK;
}

cgn_status cgn_memcpy_3d_node_update(cgn_node *node, const cgn_memcpy_3d_update *update) {
    return memcpy_3d_node_update_body(node, update, 0, NULL, "cgn_memcpy_3d_node_update");
}

cgn_status cgn_memcpy_3d_node_get(const cgn_node *node, cgn_memcpy_3d_desc *desc_out) {
    static const char where[] = "cgn_memcpy_3d_node_get";
    cgn__node_rec *n;
    cgn_status st = cgn__check_node(node, CGN_NODE_MEMCPY_3D, where, &n);
    if (st != CGN_OK)
        return st;
    if (desc_out == NULL)
        return cgn__fail(CGN_ERROR_INVALID_ARGUMENT, "%s: desc_out must not be NULL", where);
    memcpy(desc_out, n->state, sizeof *desc_out);
    return CGN_OK;
}

/* Field names by bit, and the executable-update rules only the driver checks, for messages
 * about what an executable refused. */
static const char *const memcpy_3d_field_names[] = {
    "dst", "dst_owner", "dst_array", "dst_array_owner", "dst_x_in_bytes", "dst_y", "dst_z",
    "dst_pitch", "dst_height", "src", "src_owner", "src_array", "src_array_owner", "src_x_in_bytes",
    "src_y", "src_z", "src_pitch", "src_height", "width_in_bytes", "height", "depth"
};
static const char *const memcpy_3d_driver_rules[] = {
    "an executable's copy keeps its operands on the devices and contexts they were allocated in",
    NULL,
    NULL,
    NULL,
    NULL,
    NULL,
    NULL,
    NULL,
    NULL,
    "an executable's copy keeps its operands on the devices and contexts they were allocated in",
    NULL,
    NULL,
    NULL,
    NULL,
    NULL,
    NULL,
    NULL,
    NULL,
    NULL,
    NULL,
    NULL,
};

CGN__ALWAYS_INLINE
static inline cgn_status memcpy_3d_exec_update_body(cgn_exec *exec, cgn_node *node,
                                                    const cgn_memcpy_3d_update *update,
                                                    uint64_t known_set, const cgn__lean *resolved,
                                                    const char *where) {
    cgn__txn txn;
    cgn_status st = CGN_OK;
    if (resolved != NULL) /* a lean path resolved the handles and declined: no second lookup */
        cgn__txn_start_lean(&txn, resolved);
    else
        st = cgn__exec_update_begin(&txn, exec, node, CGN_NODE_MEMCPY_3D, 12020, where);
    if (st != CGN_OK)
        return st;
    uint64_t set = known_set; /* not const: clang would warn on each test of a constant */
    if (set == 0) { /* the update as given */
        if (update == NULL)
            return cgn__fail(CGN_ERROR_INVALID_ARGUMENT, "%s: update must not be NULL", where);
        set = update->set;
        if (set & ~CGN_MEMCPY_3D_SET_ALL)
            return cgn__fail(CGN_ERROR_INVALID_ARGUMENT, "%s: unknown bits 0x%llx in set", where,
                             (unsigned long long)(set & ~CGN_MEMCPY_3D_SET_ALL));
        if (set == 0)
            return CGN_OK;
    }
    if (set & (CGN_MEMCPY_3D_SET_DST_OWNER | CGN_MEMCPY_3D_SET_DST_ARRAY_OWNER |
            CGN_MEMCPY_3D_SET_SRC_OWNER | CGN_MEMCPY_3D_SET_SRC_ARRAY_OWNER)) {
        if ((set & CGN_MEMCPY_3D_SET_DST_OWNER) && !(set & CGN_MEMCPY_3D_SET_DST))
            return cgn__fail(CGN_ERROR_MISSING_FIELD, "%s: dst_owner requires dst", where);
        if ((set & CGN_MEMCPY_3D_SET_DST_ARRAY_OWNER) && !(set & CGN_MEMCPY_3D_SET_DST_ARRAY))
            return cgn__fail(CGN_ERROR_MISSING_FIELD, "%s: dst_array_owner requires dst_array",
                             where);
        if ((set & CGN_MEMCPY_3D_SET_SRC_OWNER) && !(set & CGN_MEMCPY_3D_SET_SRC))
            return cgn__fail(CGN_ERROR_MISSING_FIELD, "%s: src_owner requires src", where);
        if ((set & CGN_MEMCPY_3D_SET_SRC_ARRAY_OWNER) && !(set & CGN_MEMCPY_3D_SET_SRC_ARRAY))
            return cgn__fail(CGN_ERROR_MISSING_FIELD, "%s: src_array_owner requires src_array",
                             where);
    }
    cgn_memcpy_3d_desc d = *(const cgn_memcpy_3d_desc *)cgn__txn_current_state(&txn);
    if (set & CGN_MEMCPY_3D_SET_DST) {
        d.dst = update->dst;
        d.dst_owner = (set & CGN_MEMCPY_3D_SET_DST_OWNER) ? update->dst_owner : NULL;
        d.dst_memory_type = (CUmemorytype)0; /* set by cgn */
    }
    if (set & CGN_MEMCPY_3D_SET_DST_ARRAY) {
        d.dst_array = update->dst_array;
        d.dst_array_owner =
            (set & CGN_MEMCPY_3D_SET_DST_ARRAY_OWNER) ? update->dst_array_owner : NULL;
    }
    if (set & CGN_MEMCPY_3D_SET_DST_X_IN_BYTES)
        d.dst_x_in_bytes = update->dst_x_in_bytes;
    if (set & CGN_MEMCPY_3D_SET_DST_Y)
        d.dst_y = update->dst_y;
    if (set & CGN_MEMCPY_3D_SET_DST_Z)
        d.dst_z = update->dst_z;
    if (set & CGN_MEMCPY_3D_SET_DST_PITCH)
        d.dst_pitch = update->dst_pitch;
    if (set & CGN_MEMCPY_3D_SET_DST_HEIGHT)
        d.dst_height = update->dst_height;
    if (set & CGN_MEMCPY_3D_SET_SRC) {
        d.src = update->src;
        d.src_owner = (set & CGN_MEMCPY_3D_SET_SRC_OWNER) ? update->src_owner : NULL;
        d.src_memory_type = (CUmemorytype)0; /* set by cgn */
    }
    if (set & CGN_MEMCPY_3D_SET_SRC_ARRAY) {
        d.src_array = update->src_array;
        d.src_array_owner =
            (set & CGN_MEMCPY_3D_SET_SRC_ARRAY_OWNER) ? update->src_array_owner : NULL;
    }
    if (set & CGN_MEMCPY_3D_SET_SRC_X_IN_BYTES)
        d.src_x_in_bytes = update->src_x_in_bytes;
    if (set & CGN_MEMCPY_3D_SET_SRC_Y)
        d.src_y = update->src_y;
    if (set & CGN_MEMCPY_3D_SET_SRC_Z)
        d.src_z = update->src_z;
    if (set & CGN_MEMCPY_3D_SET_SRC_PITCH)
        d.src_pitch = update->src_pitch;
    if (set & CGN_MEMCPY_3D_SET_SRC_HEIGHT)
        d.src_height = update->src_height;
    if (set & CGN_MEMCPY_3D_SET_WIDTH_IN_BYTES)
        d.width_in_bytes = update->width_in_bytes;
    if (set & CGN_MEMCPY_3D_SET_HEIGHT)
        d.height = update->height;
    if (set & CGN_MEMCPY_3D_SET_DEPTH)
        d.depth = update->depth;
    st = memcpy_3d_check_rules(&d, set, where);
    if (st == CGN_OK)
        st = memcpy_3d_check_kinds(&d, set, where);
    if (st == CGN_OK)
        st = cgn__txn_enter(&txn, where); /* the node's context, current from here on */
    if (st != CGN_OK)
        return st;
    CUgraphNodeParams p;
    /* Only the member reaches the typed setter: complete and zeroed, from the merged fields. */
    memset(&p.memcpy, 0, sizeof p.memcpy);
    st = memcpy_3d_stage(&txn, &d, update, set, &p, where);
    /* Without a change to an owner field (or what it follows) the owners are unchanged. */
    if (st == CGN_OK && (set & (CGN_MEMCPY_3D_SET_DST | CGN_MEMCPY_3D_SET_DST_ARRAY |
                                CGN_MEMCPY_3D_SET_SRC | CGN_MEMCPY_3D_SET_SRC_ARRAY)))
        st = memcpy_3d_stage_owners(&txn, &d);
    /* The executable-update rules, on the merged fields against the executable's own. */
    if (st == CGN_OK)
        st = cgn__memcpy_3d_exec_check(cgn__txn_current_state(&txn), &d, cgn__txn_context(&txn),
                                       where);
    if (st != CGN_OK)
        return cgn__txn_fail(&txn, st);
    memcpy_3d_build(&d, cgn__txn_context(&txn), &p);
    st = cgn__txn_applied(&txn, memcpy_3d_exec_set_raw(txn.exec->raw, txn.shadow->raw, &p),
                          "cuGraphExecMemcpyNodeSetParams", where);
    if (st != CGN_OK)
        return cgn__exec_refused(st, set, memcpy_3d_field_names, memcpy_3d_driver_rules,
                                 21);
    if (!(set & ~(CGN_MEMCPY_3D_SET_DST_X_IN_BYTES | CGN_MEMCPY_3D_SET_DST_Y |
            CGN_MEMCPY_3D_SET_DST_Z | CGN_MEMCPY_3D_SET_DST_PITCH | CGN_MEMCPY_3D_SET_DST_HEIGHT |
            CGN_MEMCPY_3D_SET_SRC_X_IN_BYTES | CGN_MEMCPY_3D_SET_SRC_Y | CGN_MEMCPY_3D_SET_SRC_Z |
            CGN_MEMCPY_3D_SET_SRC_PITCH | CGN_MEMCPY_3D_SET_SRC_HEIGHT |
            CGN_MEMCPY_3D_SET_WIDTH_IN_BYTES | CGN_MEMCPY_3D_SET_HEIGHT |
            CGN_MEMCPY_3D_SET_DEPTH)) &&
        cgn__txn_no_context_to_restore(&txn)) {
        /* Only fields kept as given: those set written back from the update, not the whole
         * merged descriptor (design.md). */
        cgn_memcpy_3d_desc *cur = txn.cur_state;
        if (set & CGN_MEMCPY_3D_SET_DST_X_IN_BYTES)
            cur->dst_x_in_bytes = update->dst_x_in_bytes;
        if (set & CGN_MEMCPY_3D_SET_DST_Y)
            cur->dst_y = update->dst_y;
        if (set & CGN_MEMCPY_3D_SET_DST_Z)
            cur->dst_z = update->dst_z;
        if (set & CGN_MEMCPY_3D_SET_DST_PITCH)
            cur->dst_pitch = update->dst_pitch;
        if (set & CGN_MEMCPY_3D_SET_DST_HEIGHT)
            cur->dst_height = update->dst_height;
        if (set & CGN_MEMCPY_3D_SET_SRC_X_IN_BYTES)
            cur->src_x_in_bytes = update->src_x_in_bytes;
        if (set & CGN_MEMCPY_3D_SET_SRC_Y)
            cur->src_y = update->src_y;
        if (set & CGN_MEMCPY_3D_SET_SRC_Z)
            cur->src_z = update->src_z;
        if (set & CGN_MEMCPY_3D_SET_SRC_PITCH)
            cur->src_pitch = update->src_pitch;
        if (set & CGN_MEMCPY_3D_SET_SRC_HEIGHT)
            cur->src_height = update->src_height;
        if (set & CGN_MEMCPY_3D_SET_WIDTH_IN_BYTES)
            cur->width_in_bytes = update->width_in_bytes;
        if (set & CGN_MEMCPY_3D_SET_HEIGHT)
            cur->height = update->height;
        if (set & CGN_MEMCPY_3D_SET_DEPTH)
            cur->depth = update->depth;
        return CGN_OK;
    }
    cgn__txn_commit_update(&txn, &d, sizeof d);
    return CGN_OK;
}

cgn_status cgn_memcpy_3d_exec_update(cgn_exec *exec, cgn_node *node,
                                     const cgn_memcpy_3d_update *update) {
    static const char where[] = "cgn_memcpy_3d_exec_update";
    return memcpy_3d_exec_update_body(exec, node, update, 0, NULL, where);
}

cgn_status cgn_memcpy_3d_exec_get(const cgn_exec *exec, const cgn_node *node,
                                  cgn_memcpy_3d_desc *desc_out) {
    static const char where[] = "cgn_memcpy_3d_exec_get";
    cgn__txn txn;
    cgn_status st = cgn__exec_update_begin(&txn, (cgn_exec *)(uintptr_t)exec,
                                           (cgn_node *)(uintptr_t)node, CGN_NODE_MEMCPY_3D, 0,
                                           where);
    if (st != CGN_OK)
        return st;
    if (desc_out == NULL)
        return cgn__fail(CGN_ERROR_INVALID_ARGUMENT, "%s: desc_out must not be NULL", where);
    memcpy(desc_out, cgn__txn_current_state(&txn), sizeof *desc_out);
    return CGN_OK;
}

/* Reads an adopted (or refreshed) node's params into its desc: the inverse of memcpy_3d_build.
 * Owners are never read (what the node points at is the caller's), except that a refresh keeps
 * those of unchanged values (prev). */
cgn_status cgn__memcpy_3d_read(cgn__reader *rd, const CUgraphNodeParams *p, void *desc_,
                               const void *prev_, const char *where) {
    cgn_memcpy_3d_desc *d = desc_;
    const cgn_memcpy_3d_desc *prev = prev_;
    (void)where;
    memset(d, 0, sizeof *d);
    rd->unsupported = cgn__memcpy_3d_form(p);
    if (rd->unsupported != NULL)
        return CGN_OK; /* recorded as a node cgn does not update */
    d->dst_memory_type = p->memcpy.copyParams.dstMemoryType;
    if (d->dst_memory_type == CU_MEMORYTYPE_HOST)
        d->dst = (CUdeviceptr)(uintptr_t)p->memcpy.copyParams.dstHost;
    else if (d->dst_memory_type == CU_MEMORYTYPE_DEVICE)
        d->dst = p->memcpy.copyParams.dstDevice;
    else
        d->dst_memory_type = (CUmemorytype)0; /* an array: not this field's */
    if (p->memcpy.copyParams.dstMemoryType == CU_MEMORYTYPE_ARRAY)
        d->dst_array = p->memcpy.copyParams.dstArray;
    d->dst_x_in_bytes = p->memcpy.copyParams.dstXInBytes;
    d->dst_y = p->memcpy.copyParams.dstY;
    d->dst_z = p->memcpy.copyParams.dstZ;
    d->dst_pitch = p->memcpy.copyParams.dstPitch;
    d->dst_height = p->memcpy.copyParams.dstHeight;
    d->src_memory_type = p->memcpy.copyParams.srcMemoryType;
    if (d->src_memory_type == CU_MEMORYTYPE_HOST)
        d->src = (CUdeviceptr)(uintptr_t)p->memcpy.copyParams.srcHost;
    else if (d->src_memory_type == CU_MEMORYTYPE_DEVICE)
        d->src = p->memcpy.copyParams.srcDevice;
    else
        d->src_memory_type = (CUmemorytype)0; /* an array: not this field's */
    if (p->memcpy.copyParams.srcMemoryType == CU_MEMORYTYPE_ARRAY)
        d->src_array = p->memcpy.copyParams.srcArray;
    d->src_x_in_bytes = p->memcpy.copyParams.srcXInBytes;
    d->src_y = p->memcpy.copyParams.srcY;
    d->src_z = p->memcpy.copyParams.srcZ;
    d->src_pitch = p->memcpy.copyParams.srcPitch;
    d->src_height = p->memcpy.copyParams.srcHeight;
    d->width_in_bytes = p->memcpy.copyParams.WidthInBytes;
    d->height = p->memcpy.copyParams.Height;
    d->depth = p->memcpy.copyParams.Depth;
    if (prev != NULL && d->dst == prev->dst)
        d->dst_owner = prev->dst_owner;
    if (prev != NULL && d->dst_array == prev->dst_array)
        d->dst_array_owner = prev->dst_array_owner;
    if (prev != NULL && d->src == prev->src)
        d->src_owner = prev->src_owner;
    if (prev != NULL && d->src_array == prev->src_array)
        d->src_array_owner = prev->src_array_owner;
    return CGN_OK;
}
