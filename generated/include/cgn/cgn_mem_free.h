/* Generated from spec/mem_free.yaml by codegen; do not edit. */
#ifndef CGN_CGN_MEM_FREE_H
#define CGN_CGN_MEM_FREE_H

/* Included by cgn/cgn.h (through cgn/cgn_nodes.h); standalone it includes cgn/cgn.h first. */
#include "cgn/cgn.h"

#ifdef __cplusplus
extern "C" {
#endif

/* Mem free node: Free memory allocated by a graph allocation node when the node runs.
 * Reference: cuda.core 1.2.0 GraphBuilder frees (cudaGraphAddMemFreeNode); no node object */
typedef struct cgn_mem_free_desc {
    CUdeviceptr dptr; /* The address to free, one an allocation node returned (of this graph or another). */
} cgn_mem_free_desc;

#define CGN_MEM_FREE_DESC_INIT {0}

/* Adds a mem free node after `deps`.
 * Not updatable: CUDA cannot change a mem free node once added, so there is no update struct or
 * update function (cgn_node_check_updatable: CGN_ERROR_NOT_SUPPORTED). */
CGN_API cgn_status cgn_graph_add_mem_free(cgn_graph *graph, cgn_node *const *deps, size_t num_deps,
                                          const cgn_mem_free_desc *desc, cgn_node **node_out);

/* The node's current parameters. */
CGN_API cgn_status cgn_mem_free_node_get(const cgn_node *node, cgn_mem_free_desc *desc_out);

/* The node's parameters as that executable has them (its own copy). */
CGN_API cgn_status cgn_mem_free_exec_get(const cgn_exec *exec, const cgn_node *node,
                                         cgn_mem_free_desc *desc_out);

#ifdef __cplusplus
}
#endif

#endif /* CGN_CGN_MEM_FREE_H */
