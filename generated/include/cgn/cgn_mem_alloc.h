/* Generated from spec/mem_alloc.yaml by codegen; do not edit. */
#ifndef CGN_CGN_MEM_ALLOC_H
#define CGN_CGN_MEM_ALLOC_H

/* Included by cgn/cgn.h (through cgn/cgn_nodes.h); standalone it includes cgn/cgn.h first. */
#include "cgn/cgn.h"

#ifdef __cplusplus
extern "C" {
#endif

/* Mem alloc node: Allocate device memory when the node runs, at an address chosen when it is
 * added.
 * Reference: cuda.core 1.2.0 GraphBuilder allocations (cudaGraphAddMemAllocNode); no node object */
typedef struct cgn_mem_alloc_desc {
    size_t bytesize;  /* Bytes to allocate, at least 1. */
    int32_t device;   /* The device (ordinal) whose memory is allocated; only it gets access. */
    CUdeviceptr dptr; /* Output: chosen by the driver at add, ignored on input. The allocation's address, chosen by the driver when the node is added. */
} cgn_mem_alloc_desc;

#define CGN_MEM_ALLOC_DESC_INIT {0}

/* Adds a mem alloc node after `deps`. The driver chooses `dptr` (the desc's value is ignored):
 * read it with cgn_mem_alloc_node_get.
 * Not updatable: CUDA cannot change a mem alloc node once added, so there is no update struct or
 * update function (cgn_node_check_updatable: CGN_ERROR_NOT_SUPPORTED). */
CGN_API cgn_status cgn_graph_add_mem_alloc(cgn_graph *graph, cgn_node *const *deps, size_t num_deps,
                                           const cgn_mem_alloc_desc *desc, cgn_node **node_out);

/* The node's current parameters. */
CGN_API cgn_status cgn_mem_alloc_node_get(const cgn_node *node, cgn_mem_alloc_desc *desc_out);

/* The node's parameters as that executable has them (its own copy). */
CGN_API cgn_status cgn_mem_alloc_exec_get(const cgn_exec *exec, const cgn_node *node,
                                          cgn_mem_alloc_desc *desc_out);

#ifdef __cplusplus
}
#endif

#endif /* CGN_CGN_MEM_ALLOC_H */
