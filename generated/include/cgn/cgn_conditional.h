/* Generated from spec/conditional.yaml by codegen; do not edit. */
#ifndef CGN_CGN_CONDITIONAL_H
#define CGN_CGN_CONDITIONAL_H

/* Included by cgn/cgn.h (through cgn/cgn_nodes.h); standalone it includes cgn/cgn.h first. */
#include "cgn/cgn.h"

#ifdef __cplusplus
extern "C" {
#endif

/* Conditional node: Run a body graph if, while, or which a condition a kernel can set says.
 * Reference: cuda.core 1.2.0 GraphBuilder.if_cond / if_else / while_loop / switch
 * (cudaGraphConditionalHandleCreate) */
typedef struct cgn_conditional_desc {
    uint32_t type;                   /* CU_GRAPH_COND_TYPE_IF (0), CU_GRAPH_COND_TYPE_WHILE (1) or CU_GRAPH_COND_TYPE_SWITCH (2, 12.8+). */
    uint32_t size;                   /* Number of body graphs: 1 (IF, WHILE), 2 (IF with an else body, 12.8+), or 1 to CGN_MAX_COND_BODIES (SWITCH). */
    CUgraphConditionalHandle handle; /* Set by cgn, ignored on input. The handle cgn created for the node; a kernel sets the condition through it (cudaGraphSetConditional). */
    uint32_t handle_default;         /* Value of the condition at the start of each launch when handle_assign is 1. */
    uint32_t handle_assign;          /* 1: each launch starts with handle_default (CU_GRAPH_COND_ASSIGN_DEFAULT); 0: nothing is assigned at launch (a kernel must set the condition before the node reads it). */
} cgn_conditional_desc;

#define CGN_CONDITIONAL_DESC_INIT {.size = 1}

/* Adds a conditional node after `deps`. The current context becomes the node's context.
 * Not updatable: CUDA cannot change a conditional node once added, so there is no update struct
 * or update function (cgn_node_check_updatable: CGN_ERROR_NOT_SUPPORTED). */
CGN_API cgn_status cgn_graph_add_conditional(cgn_graph *graph, cgn_node *const *deps,
                                             size_t num_deps, const cgn_conditional_desc *desc,
                                             cgn_node **node_out);

/* The node's current parameters. */
CGN_API cgn_status cgn_conditional_node_get(const cgn_node *node, cgn_conditional_desc *desc_out);

/* The node's parameters as that executable has them (its own copy). */
CGN_API cgn_status cgn_conditional_exec_get(const cgn_exec *exec, const cgn_node *node,
                                            cgn_conditional_desc *desc_out);

#ifdef __cplusplus
}
#endif

#endif /* CGN_CGN_CONDITIONAL_H */
