/* Generated from spec/memset.yaml by codegen; do not edit. */
#ifndef CGN_CGN_MEMSET_H
#define CGN_CGN_MEMSET_H

/* Included by cgn/cgn.h (through cgn/cgn_nodes.h); standalone it includes cgn/cgn.h first. */
#include "cgn/cgn.h"

#ifdef __cplusplus
extern "C" {
#endif

/* Memset node: Fill a 1-D or 2-D device region with a 1-, 2- or 4-byte value.
 * Reference: cuda.core 1.2.0 MemsetNode.update(dst=, value=, width=, height=, pitch=,
 * dst_owner=) */
typedef struct cgn_memset_desc {
    CUdeviceptr dst;       /* Destination device pointer. */
    cgn_owner *dst_owner;  /* Optional owner of dst, retained while any graph or executable may write dst. */
    uint32_t value;        /* Fill value; must fit element_size bytes. */
    uint32_t element_size; /* Bytes per element, 1, 2 or 4. */
    size_t width;          /* Elements per row, at least 1. */
    size_t height;         /* Rows, at least 1. */
    size_t pitch;          /* Bytes between rows; at least width*element_size when height > 1, unused otherwise. */
} cgn_memset_desc;

#define CGN_MEMSET_DESC_INIT {.element_size = 1, .height = 1, .pitch = 0}

/* One bit per field of cgn_memset_update; a field is applied only when its bit is set. */
#define CGN_MEMSET_SET_DST UINT64_C(0x1)
#define CGN_MEMSET_SET_DST_OWNER UINT64_C(0x2)
#define CGN_MEMSET_SET_VALUE UINT64_C(0x4)
#define CGN_MEMSET_SET_ELEMENT_SIZE UINT64_C(0x8)
#define CGN_MEMSET_SET_WIDTH UINT64_C(0x10)
#define CGN_MEMSET_SET_HEIGHT UINT64_C(0x20)
#define CGN_MEMSET_SET_PITCH UINT64_C(0x40)
#define CGN_MEMSET_SET_ALL UINT64_C(0x7f)

/* A partial update: fields whose bit is not in `set` keep their current value.
 * Coupled: dst_owner requires dst (dst without dst_owner resets dst_owner to NULL); value
 * requires element_size; element_size requires value. */
typedef struct cgn_memset_update {
    uint64_t set;
    CUdeviceptr dst;
    cgn_owner *dst_owner;
    uint32_t value;
    uint32_t element_size;
    size_t width;
    size_t height;
    size_t pitch;
} cgn_memset_update;

#define CGN_MEMSET_UPDATE_INIT {.set = 0}

/* Clears the update for reuse: no field set. In a loop this is cheaper than
 * CGN_MEMSET_UPDATE_INIT, which zeroes the whole struct; fields not set are never read. */
static inline void cgn_memset_update_reset(cgn_memset_update *update) {
    update->set = 0;
}

/* Sets dst and dst_owner together. */
static inline void cgn_memset_update_set_dst(cgn_memset_update *update, CUdeviceptr dst,
                                             cgn_owner *dst_owner) {
    update->dst = dst;
    update->dst_owner = dst_owner;
    update->set |= CGN_MEMSET_SET_DST | CGN_MEMSET_SET_DST_OWNER;
}

/* Sets value and element_size together. */
static inline void cgn_memset_update_set_value(cgn_memset_update *update, uint32_t value,
                                               uint32_t element_size) {
    update->value = value;
    update->element_size = element_size;
    update->set |= CGN_MEMSET_SET_VALUE | CGN_MEMSET_SET_ELEMENT_SIZE;
}

/* Sets width. */
static inline void cgn_memset_update_set_width(cgn_memset_update *update, size_t width) {
    update->width = width;
    update->set |= CGN_MEMSET_SET_WIDTH;
}

/* Sets height. */
static inline void cgn_memset_update_set_height(cgn_memset_update *update, size_t height) {
    update->height = height;
    update->set |= CGN_MEMSET_SET_HEIGHT;
}

/* Sets pitch. */
static inline void cgn_memset_update_set_pitch(cgn_memset_update *update, size_t pitch) {
    update->pitch = pitch;
    update->set |= CGN_MEMSET_SET_PITCH;
}

/* Sets every field from a complete desc (a full replacement, e.g. at executable level). */
static inline void cgn_memset_update_from_desc(cgn_memset_update *update,
                                               const cgn_memset_desc *desc) {
    update->dst = desc->dst;
    update->dst_owner = desc->dst_owner;
    update->value = desc->value;
    update->element_size = desc->element_size;
    update->width = desc->width;
    update->height = desc->height;
    update->pitch = desc->pitch;
    update->set = CGN_MEMSET_SET_ALL;
}

/* Adds a memset node after `deps`. The current context becomes the node's context. */
CGN_API cgn_status cgn_graph_add_memset(cgn_graph *graph, cgn_node *const *deps, size_t num_deps,
                                        const cgn_memset_desc *desc, cgn_node **node_out);

/* Applies a partial update with one cuGraphNodeSetParams, all or nothing; future instantiations
 * see it, existing executables keep their parameters and owners. Needs driver 12.2.
 * An update with nothing set returns CGN_OK without touching the driver. */
CGN_API cgn_status cgn_memset_node_update(cgn_node *node, const cgn_memset_update *update);

/* The node's current parameters. */
CGN_API cgn_status cgn_memset_node_get(const cgn_node *node, cgn_memset_desc *desc_out);

/* Applies a partial update to the node in one executable, with one cuGraphExecNodeSetParams, all
 * or nothing: unset fields keep what *that executable* has (its own copy, taken at
 * instantiation; the definition is never read), with the same coupling rules as the definition.
 * The definition and other executables are not touched. Owners of the new version are held until
 * no launch of the executable can read that version any more (docs/ownership.md). Needs driver
 * 12.2.
 * Refused before any mutation (the driver's executable-update rules): height: a 1-D memset
 * (height 1) stays 1-D in an executable; height: a 2-D memset in an executable may change only
 * dst and value; width: a 2-D memset in an executable may change only dst and value; pitch: a
 * 2-D memset in an executable may change only dst and value; element_size: a 2-D memset in an
 * executable may change only dst and value.
 * Checked by the driver only (cgn cannot see what they depend on), CGN_ERROR_INVALID_VALUE
 * naming the rule when refused: dst: an executable's memset writes memory of the context it was
 * instantiated with; width: a 1-D memset may change its width only while it fits the work the
 * executable set up for it.
 * Another change the driver refuses is CGN_ERROR_DRIVER naming the fields set; nothing changes. */
CGN_API cgn_status cgn_memset_exec_update(cgn_exec *exec, cgn_node *node,
                                          const cgn_memset_update *update);

/* The node's parameters as that executable has them (its own copy). */
CGN_API cgn_status cgn_memset_exec_get(const cgn_exec *exec, const cgn_node *node,
                                       cgn_memset_desc *desc_out);

#ifdef __cplusplus
}
#endif

#endif /* CGN_CGN_MEMSET_H */
