/* Generated from spec/memcpy.yaml by codegen; do not edit. */
#ifndef CGN_CGN_MEMCPY_H
#define CGN_CGN_MEMCPY_H

/* Included by cgn/cgn.h (through cgn/cgn_nodes.h); standalone it includes cgn/cgn.h first. */
#include "cgn/cgn.h"

#ifdef __cplusplus
extern "C" {
#endif

/* Memcpy node: Copy size bytes from src to dst; each is device (or managed) memory or host
 * memory.
 * Reference: cuda.core 1.2.0 MemcpyNode.update(dst=, src=, size=, dst_owner=, src_owner=) */
typedef struct cgn_memcpy_desc {
    CUdeviceptr dst;              /* Destination address, device or host memory. */
    CUmemorytype dst_memory_type; /* Set by cgn, ignored on input. Memory type of dst as cgn detected it: CU_MEMORYTYPE_DEVICE (device or managed) or CU_MEMORYTYPE_HOST; 0 while dst is 0. */
    cgn_owner *dst_owner;         /* Optional owner of dst, retained while any graph or executable may write dst. */
    CUdeviceptr src;              /* Source address, device or host memory. */
    CUmemorytype src_memory_type; /* Set by cgn, ignored on input. Memory type of src as cgn detected it: CU_MEMORYTYPE_DEVICE (device or managed) or CU_MEMORYTYPE_HOST; 0 while src is 0. */
    cgn_owner *src_owner;         /* Optional owner of src, retained while any graph or executable may read src. */
    size_t size;                  /* Bytes to copy, at least 1. */
} cgn_memcpy_desc;

#define CGN_MEMCPY_DESC_INIT {0}

/* One bit per field of cgn_memcpy_update; a field is applied only when its bit is set. */
#define CGN_MEMCPY_SET_DST UINT64_C(0x1)
#define CGN_MEMCPY_SET_DST_OWNER UINT64_C(0x2)
#define CGN_MEMCPY_SET_SRC UINT64_C(0x4)
#define CGN_MEMCPY_SET_SRC_OWNER UINT64_C(0x8)
#define CGN_MEMCPY_SET_SIZE UINT64_C(0x10)
#define CGN_MEMCPY_SET_ALL UINT64_C(0x1f)

/* A partial update: fields whose bit is not in `set` keep their current value.
 * Coupled: dst_owner requires dst (dst without dst_owner resets dst_owner to NULL); src_owner
 * requires src (src without src_owner resets src_owner to NULL). */
typedef struct cgn_memcpy_update {
    uint64_t set;
    CUdeviceptr dst;
    cgn_owner *dst_owner;
    CUdeviceptr src;
    cgn_owner *src_owner;
    size_t size;
} cgn_memcpy_update;

#define CGN_MEMCPY_UPDATE_INIT {.set = 0}

/* Clears the update for reuse: no field set. In a loop this is cheaper than
 * CGN_MEMCPY_UPDATE_INIT, which zeroes the whole struct; fields not set are never read. */
static inline void cgn_memcpy_update_reset(cgn_memcpy_update *update) {
    update->set = 0;
}

/* Sets dst and dst_owner together. */
static inline void cgn_memcpy_update_set_dst(cgn_memcpy_update *update, CUdeviceptr dst,
                                             cgn_owner *dst_owner) {
    update->dst = dst;
    update->dst_owner = dst_owner;
    update->set |= CGN_MEMCPY_SET_DST | CGN_MEMCPY_SET_DST_OWNER;
}

/* Sets src and src_owner together. */
static inline void cgn_memcpy_update_set_src(cgn_memcpy_update *update, CUdeviceptr src,
                                             cgn_owner *src_owner) {
    update->src = src;
    update->src_owner = src_owner;
    update->set |= CGN_MEMCPY_SET_SRC | CGN_MEMCPY_SET_SRC_OWNER;
}

/* Sets size. */
static inline void cgn_memcpy_update_set_size(cgn_memcpy_update *update, size_t size) {
    update->size = size;
    update->set |= CGN_MEMCPY_SET_SIZE;
}

/* Sets every field from a complete desc (a full replacement, e.g. at executable level). */
static inline void cgn_memcpy_update_from_desc(cgn_memcpy_update *update,
                                               const cgn_memcpy_desc *desc) {
    update->dst = desc->dst;
    update->dst_owner = desc->dst_owner;
    update->src = desc->src;
    update->src_owner = desc->src_owner;
    update->size = desc->size;
    update->set = CGN_MEMCPY_SET_ALL;
}

/* Adds a memcpy node after `deps`. The current context becomes the node's context. */
CGN_API cgn_status cgn_graph_add_memcpy(cgn_graph *graph, cgn_node *const *deps, size_t num_deps,
                                        const cgn_memcpy_desc *desc, cgn_node **node_out);

/* Applies a partial update with one cuGraphNodeSetParams, all or nothing; future instantiations
 * see it, existing executables keep their parameters and owners. Needs driver 12.2.
 * An update with nothing set returns CGN_OK without touching the driver.
 * CGN_ERROR_NOT_SUPPORTED when the node's descriptor, read back with cuGraphMemcpyNodeGetParams,
 * is multidimensional, pitched, offset, array-backed or of a memory type other than host or
 * device (changed outside cgn); the node is left unchanged. */
CGN_API cgn_status cgn_memcpy_node_update(cgn_node *node, const cgn_memcpy_update *update);

/* The node's current parameters. */
CGN_API cgn_status cgn_memcpy_node_get(const cgn_node *node, cgn_memcpy_desc *desc_out);

/* Applies a partial update to the node in one executable, with one cuGraphExecNodeSetParams, all
 * or nothing: unset fields keep what *that executable* has (its own copy, taken at
 * instantiation; the definition is never read), with the same coupling rules as the definition.
 * The definition and other executables are not touched. Owners of the new version are held until
 * no launch of the executable can read that version any more (docs/ownership.md). Needs driver
 * 12.2.
 * Refused before any mutation (the driver's executable-update rules): dst: an executable's copy
 * keeps the memory types (device or host) of its operands; src: an executable's copy keeps the
 * memory types (device or host) of its operands.
 * Checked by the driver only (cgn cannot see what they depend on), CGN_ERROR_INVALID_VALUE
 * naming the rule when refused: dst: an executable's copy keeps its operands on the devices and
 * contexts they were allocated in; src: an executable's copy keeps its operands on the devices
 * and contexts they were allocated in.
 * Another change the driver refuses is CGN_ERROR_DRIVER naming the fields set; nothing changes. */
CGN_API cgn_status cgn_memcpy_exec_update(cgn_exec *exec, cgn_node *node,
                                          const cgn_memcpy_update *update);

/* The node's parameters as that executable has them (its own copy). */
CGN_API cgn_status cgn_memcpy_exec_get(const cgn_exec *exec, const cgn_node *node,
                                       cgn_memcpy_desc *desc_out);

#ifdef __cplusplus
}
#endif

#endif /* CGN_CGN_MEMCPY_H */
