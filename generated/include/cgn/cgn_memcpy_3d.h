/* Generated from spec/memcpy_3d.yaml by codegen; do not edit. */
#ifndef CGN_CGN_MEMCPY_3D_H
#define CGN_CGN_MEMCPY_3D_H

/* Included by cgn/cgn.h (through cgn/cgn_nodes.h); standalone it includes cgn/cgn.h first. */
#include "cgn/cgn.h"

#ifdef __cplusplus
extern "C" {
#endif

/* Memcpy 3d node: Copy a 2-D or 3-D block between pitched device or host memory and CUDA arrays.
 * Reference: CUDA driver cuGraphAddMemcpyNode with CUDA_MEMCPY3D (cuda.core 1.2.0 has no 2-D or
 * 3-D copy node) */
typedef struct cgn_memcpy_3d_desc {
    CUdeviceptr dst;              /* Destination address, device or host memory; 0 when dst_array is the destination. */
    CUmemorytype dst_memory_type; /* Set by cgn, ignored on input. Memory type of dst as cgn detected it: CU_MEMORYTYPE_DEVICE (device or managed) or CU_MEMORYTYPE_HOST; 0 while dst is 0. */
    cgn_owner *dst_owner;         /* Optional owner of dst, retained while any graph or executable may write dst. */
    CUarray dst_array;            /* Destination CUDA array; NULL when dst is the destination. */
    cgn_owner *dst_array_owner;   /* Optional owner of dst_array, retained while any graph or executable may write it. */
    size_t dst_x_in_bytes;        /* Offset in bytes into each row of the destination (for arrays a multiple of the element size). */
    size_t dst_y;                 /* First row of the destination. */
    size_t dst_z;                 /* First slice of the destination. */
    size_t dst_pitch;             /* Bytes between rows of a destination address; at least dst_x_in_bytes + width_in_bytes when rows are used (unused for arrays). */
    size_t dst_height;            /* Rows per slice of a destination address; at least dst_y + height when slices are used (unused for arrays). */
    CUdeviceptr src;              /* Source address, device or host memory; 0 when src_array is the source. */
    CUmemorytype src_memory_type; /* Set by cgn, ignored on input. Memory type of src as cgn detected it: CU_MEMORYTYPE_DEVICE (device or managed) or CU_MEMORYTYPE_HOST; 0 while src is 0. */
    cgn_owner *src_owner;         /* Optional owner of src, retained while any graph or executable may read src. */
    CUarray src_array;            /* Source CUDA array; NULL when src is the source. */
    cgn_owner *src_array_owner;   /* Optional owner of src_array, retained while any graph or executable may read it. */
    size_t src_x_in_bytes;        /* Offset in bytes into each row of the source (for arrays a multiple of the element size). */
    size_t src_y;                 /* First row of the source. */
    size_t src_z;                 /* First slice of the source. */
    size_t src_pitch;             /* Bytes between rows of a source address; at least src_x_in_bytes + width_in_bytes when rows are used (unused for arrays). */
    size_t src_height;            /* Rows per slice of a source address; at least src_y + height when slices are used (unused for arrays). */
    size_t width_in_bytes;        /* Bytes per row, at least 1. */
    size_t height;                /* Rows per slice, at least 1. */
    size_t depth;                 /* Slices, at least 1. */
} cgn_memcpy_3d_desc;

#define CGN_MEMCPY_3D_DESC_INIT {.height = 1, .depth = 1}

/* One bit per field of cgn_memcpy_3d_update; a field is applied only when its bit is set. */
#define CGN_MEMCPY_3D_SET_DST UINT64_C(0x1)
#define CGN_MEMCPY_3D_SET_DST_OWNER UINT64_C(0x2)
#define CGN_MEMCPY_3D_SET_DST_ARRAY UINT64_C(0x4)
#define CGN_MEMCPY_3D_SET_DST_ARRAY_OWNER UINT64_C(0x8)
#define CGN_MEMCPY_3D_SET_DST_X_IN_BYTES UINT64_C(0x10)
#define CGN_MEMCPY_3D_SET_DST_Y UINT64_C(0x20)
#define CGN_MEMCPY_3D_SET_DST_Z UINT64_C(0x40)
#define CGN_MEMCPY_3D_SET_DST_PITCH UINT64_C(0x80)
#define CGN_MEMCPY_3D_SET_DST_HEIGHT UINT64_C(0x100)
#define CGN_MEMCPY_3D_SET_SRC UINT64_C(0x200)
#define CGN_MEMCPY_3D_SET_SRC_OWNER UINT64_C(0x400)
#define CGN_MEMCPY_3D_SET_SRC_ARRAY UINT64_C(0x800)
#define CGN_MEMCPY_3D_SET_SRC_ARRAY_OWNER UINT64_C(0x1000)
#define CGN_MEMCPY_3D_SET_SRC_X_IN_BYTES UINT64_C(0x2000)
#define CGN_MEMCPY_3D_SET_SRC_Y UINT64_C(0x4000)
#define CGN_MEMCPY_3D_SET_SRC_Z UINT64_C(0x8000)
#define CGN_MEMCPY_3D_SET_SRC_PITCH UINT64_C(0x10000)
#define CGN_MEMCPY_3D_SET_SRC_HEIGHT UINT64_C(0x20000)
#define CGN_MEMCPY_3D_SET_WIDTH_IN_BYTES UINT64_C(0x40000)
#define CGN_MEMCPY_3D_SET_HEIGHT UINT64_C(0x80000)
#define CGN_MEMCPY_3D_SET_DEPTH UINT64_C(0x100000)
#define CGN_MEMCPY_3D_SET_ALL UINT64_C(0x1fffff)

/* A partial update: fields whose bit is not in `set` keep their current value.
 * Coupled: dst_owner requires dst (dst without dst_owner resets dst_owner to NULL);
 * dst_array_owner requires dst_array (dst_array without dst_array_owner resets dst_array_owner
 * to NULL); src_owner requires src (src without src_owner resets src_owner to NULL);
 * src_array_owner requires src_array (src_array without src_array_owner resets src_array_owner
 * to NULL). */
typedef struct cgn_memcpy_3d_update {
    uint64_t set;
    CUdeviceptr dst;
    cgn_owner *dst_owner;
    CUarray dst_array;
    cgn_owner *dst_array_owner;
    size_t dst_x_in_bytes;
    size_t dst_y;
    size_t dst_z;
    size_t dst_pitch;
    size_t dst_height;
    CUdeviceptr src;
    cgn_owner *src_owner;
    CUarray src_array;
    cgn_owner *src_array_owner;
    size_t src_x_in_bytes;
    size_t src_y;
    size_t src_z;
    size_t src_pitch;
    size_t src_height;
    size_t width_in_bytes;
    size_t height;
    size_t depth;
} cgn_memcpy_3d_update;

#define CGN_MEMCPY_3D_UPDATE_INIT {.set = 0}

/* Clears the update for reuse: no field set. In a loop this is cheaper than
 * CGN_MEMCPY_3D_UPDATE_INIT, which zeroes the whole struct; fields not set are never read. */
static inline void cgn_memcpy_3d_update_reset(cgn_memcpy_3d_update *update) {
    update->set = 0;
}

/* Sets dst and dst_owner together. */
static inline void cgn_memcpy_3d_update_set_dst(cgn_memcpy_3d_update *update, CUdeviceptr dst,
                                                cgn_owner *dst_owner) {
    update->dst = dst;
    update->dst_owner = dst_owner;
    update->set |= CGN_MEMCPY_3D_SET_DST | CGN_MEMCPY_3D_SET_DST_OWNER;
}

/* Sets dst_array and dst_array_owner together. */
static inline void cgn_memcpy_3d_update_set_dst_array(cgn_memcpy_3d_update *update,
                                                      CUarray dst_array,
                                                      cgn_owner *dst_array_owner) {
    update->dst_array = dst_array;
    update->dst_array_owner = dst_array_owner;
    update->set |= CGN_MEMCPY_3D_SET_DST_ARRAY | CGN_MEMCPY_3D_SET_DST_ARRAY_OWNER;
}

/* Sets dst_x_in_bytes. */
static inline void cgn_memcpy_3d_update_set_dst_x_in_bytes(cgn_memcpy_3d_update *update,
                                                           size_t dst_x_in_bytes) {
    update->dst_x_in_bytes = dst_x_in_bytes;
    update->set |= CGN_MEMCPY_3D_SET_DST_X_IN_BYTES;
}

/* Sets dst_y. */
static inline void cgn_memcpy_3d_update_set_dst_y(cgn_memcpy_3d_update *update, size_t dst_y) {
    update->dst_y = dst_y;
    update->set |= CGN_MEMCPY_3D_SET_DST_Y;
}

/* Sets dst_z. */
static inline void cgn_memcpy_3d_update_set_dst_z(cgn_memcpy_3d_update *update, size_t dst_z) {
    update->dst_z = dst_z;
    update->set |= CGN_MEMCPY_3D_SET_DST_Z;
}

/* Sets dst_pitch. */
static inline void cgn_memcpy_3d_update_set_dst_pitch(cgn_memcpy_3d_update *update,
                                                      size_t dst_pitch) {
    update->dst_pitch = dst_pitch;
    update->set |= CGN_MEMCPY_3D_SET_DST_PITCH;
}

/* Sets dst_height. */
static inline void cgn_memcpy_3d_update_set_dst_height(cgn_memcpy_3d_update *update,
                                                       size_t dst_height) {
    update->dst_height = dst_height;
    update->set |= CGN_MEMCPY_3D_SET_DST_HEIGHT;
}

/* Sets src and src_owner together. */
static inline void cgn_memcpy_3d_update_set_src(cgn_memcpy_3d_update *update, CUdeviceptr src,
                                                cgn_owner *src_owner) {
    update->src = src;
    update->src_owner = src_owner;
    update->set |= CGN_MEMCPY_3D_SET_SRC | CGN_MEMCPY_3D_SET_SRC_OWNER;
}

/* Sets src_array and src_array_owner together. */
static inline void cgn_memcpy_3d_update_set_src_array(cgn_memcpy_3d_update *update,
                                                      CUarray src_array,
                                                      cgn_owner *src_array_owner) {
    update->src_array = src_array;
    update->src_array_owner = src_array_owner;
    update->set |= CGN_MEMCPY_3D_SET_SRC_ARRAY | CGN_MEMCPY_3D_SET_SRC_ARRAY_OWNER;
}

/* Sets src_x_in_bytes. */
static inline void cgn_memcpy_3d_update_set_src_x_in_bytes(cgn_memcpy_3d_update *update,
                                                           size_t src_x_in_bytes) {
    update->src_x_in_bytes = src_x_in_bytes;
    update->set |= CGN_MEMCPY_3D_SET_SRC_X_IN_BYTES;
}

/* Sets src_y. */
static inline void cgn_memcpy_3d_update_set_src_y(cgn_memcpy_3d_update *update, size_t src_y) {
    update->src_y = src_y;
    update->set |= CGN_MEMCPY_3D_SET_SRC_Y;
}

/* Sets src_z. */
static inline void cgn_memcpy_3d_update_set_src_z(cgn_memcpy_3d_update *update, size_t src_z) {
    update->src_z = src_z;
    update->set |= CGN_MEMCPY_3D_SET_SRC_Z;
}

/* Sets src_pitch. */
static inline void cgn_memcpy_3d_update_set_src_pitch(cgn_memcpy_3d_update *update,
                                                      size_t src_pitch) {
    update->src_pitch = src_pitch;
    update->set |= CGN_MEMCPY_3D_SET_SRC_PITCH;
}

/* Sets src_height. */
static inline void cgn_memcpy_3d_update_set_src_height(cgn_memcpy_3d_update *update,
                                                       size_t src_height) {
    update->src_height = src_height;
    update->set |= CGN_MEMCPY_3D_SET_SRC_HEIGHT;
}

/* Sets width_in_bytes. */
static inline void cgn_memcpy_3d_update_set_width_in_bytes(cgn_memcpy_3d_update *update,
                                                           size_t width_in_bytes) {
    update->width_in_bytes = width_in_bytes;
    update->set |= CGN_MEMCPY_3D_SET_WIDTH_IN_BYTES;
}

/* Sets height. */
static inline void cgn_memcpy_3d_update_set_height(cgn_memcpy_3d_update *update, size_t height) {
    update->height = height;
    update->set |= CGN_MEMCPY_3D_SET_HEIGHT;
}

/* Sets depth. */
static inline void cgn_memcpy_3d_update_set_depth(cgn_memcpy_3d_update *update, size_t depth) {
    update->depth = depth;
    update->set |= CGN_MEMCPY_3D_SET_DEPTH;
}

/* Sets every field from a complete desc (a full replacement, e.g. at executable level). */
static inline void cgn_memcpy_3d_update_from_desc(cgn_memcpy_3d_update *update,
                                                  const cgn_memcpy_3d_desc *desc) {
    update->dst = desc->dst;
    update->dst_owner = desc->dst_owner;
    update->dst_array = desc->dst_array;
    update->dst_array_owner = desc->dst_array_owner;
    update->dst_x_in_bytes = desc->dst_x_in_bytes;
    update->dst_y = desc->dst_y;
    update->dst_z = desc->dst_z;
    update->dst_pitch = desc->dst_pitch;
    update->dst_height = desc->dst_height;
    update->src = desc->src;
    update->src_owner = desc->src_owner;
    update->src_array = desc->src_array;
    update->src_array_owner = desc->src_array_owner;
    update->src_x_in_bytes = desc->src_x_in_bytes;
    update->src_y = desc->src_y;
    update->src_z = desc->src_z;
    update->src_pitch = desc->src_pitch;
    update->src_height = desc->src_height;
    update->width_in_bytes = desc->width_in_bytes;
    update->height = desc->height;
    update->depth = desc->depth;
    update->set = CGN_MEMCPY_3D_SET_ALL;
}

/* Adds a memcpy 3d node after `deps`. The current context becomes the node's context. */
CGN_API cgn_status cgn_graph_add_memcpy_3d(cgn_graph *graph, cgn_node *const *deps, size_t num_deps,
                                           const cgn_memcpy_3d_desc *desc, cgn_node **node_out);

/* Applies a partial update with one cuGraphNodeSetParams, all or nothing; future instantiations
 * see it, existing executables keep their parameters and owners. Needs driver 12.2.
 * An update with nothing set returns CGN_OK without touching the driver.
 * CGN_ERROR_NOT_SUPPORTED when the node's descriptor, read back with cuGraphMemcpyNodeGetParams,
 * uses a mipmap level (LOD), reserved fields, or a memory type other than host, device or array
 * (changed outside cgn); the node is left unchanged. */
CGN_API cgn_status cgn_memcpy_3d_node_update(cgn_node *node, const cgn_memcpy_3d_update *update);

/* The node's current parameters. */
CGN_API cgn_status cgn_memcpy_3d_node_get(const cgn_node *node, cgn_memcpy_3d_desc *desc_out);

/* Applies a partial update to the node in one executable, with one cuGraphExecNodeSetParams, all
 * or nothing: unset fields keep what *that executable* has (its own copy, taken at
 * instantiation; the definition is never read), with the same coupling rules as the definition.
 * The definition and other executables are not touched. Owners of the new version are held until
 * no launch of the executable can read that version any more (docs/ownership.md). Needs driver
 * 12.2.
 * Refused before any mutation (the driver's executable-update rules): dst: an executable's copy
 * keeps the memory type (device, host or array) of each operand; src: an executable's copy keeps
 * the memory type (device, host or array) of each operand; height: CUDA changes an executable's
 * copy only when it was instantiated 1-dimensional (height and depth 1) and stays so; height:
 * CUDA changes an executable's copy only when it was instantiated 1-dimensional (height and
 * depth 1) and stays so.
 * Checked by the driver only (cgn cannot see what they depend on), CGN_ERROR_INVALID_VALUE
 * naming the rule when refused: dst: an executable's copy keeps its operands on the devices and
 * contexts they were allocated in; src: an executable's copy keeps its operands on the devices
 * and contexts they were allocated in.
 * Another change the driver refuses is CGN_ERROR_DRIVER naming the fields set; nothing changes. */
CGN_API cgn_status cgn_memcpy_3d_exec_update(cgn_exec *exec, cgn_node *node,
                                             const cgn_memcpy_3d_update *update);

/* The node's parameters as that executable has them (its own copy). */
CGN_API cgn_status cgn_memcpy_3d_exec_get(const cgn_exec *exec, const cgn_node *node,
                                          cgn_memcpy_3d_desc *desc_out);

#ifdef __cplusplus
}
#endif

#endif /* CGN_CGN_MEMCPY_3D_H */
