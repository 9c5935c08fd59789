/* Generated from spec/child_graph.yaml by codegen; do not edit. */
#ifndef CGN_CGN_CHILD_GRAPH_H
#define CGN_CGN_CHILD_GRAPH_H

/* Included by cgn/cgn.h (through cgn/cgn_nodes.h); standalone it includes cgn/cgn.h first. */
#include "cgn/cgn.h"

#ifdef __cplusplus
extern "C" {
#endif

/* Child graph node: Embed a copy of another graph; replace it with a copy of a different one.
 * Reference: cuda.core 1.2.0 ChildGraphNode.update(child) */
typedef struct cgn_child_graph_desc {
    cgn_graph *graph; /* The graph to embed a copy of; it must belong to another hierarchy than the node's graph. The copy keeps the owners of its nodes alive; the source may be changed or destroyed afterwards. */
} cgn_child_graph_desc;

#define CGN_CHILD_GRAPH_DESC_INIT {0}

/* One bit per field of cgn_child_graph_update; a field is applied only when its bit is set. */
#define CGN_CHILD_GRAPH_SET_GRAPH UINT64_C(0x1)
#define CGN_CHILD_GRAPH_SET_ALL UINT64_C(0x1)

/* A partial update: fields whose bit is not in `set` keep their current value. */
typedef struct cgn_child_graph_update {
    uint64_t set;
    cgn_graph *graph;
} cgn_child_graph_update;

#define CGN_CHILD_GRAPH_UPDATE_INIT {.set = 0}

/* Clears the update for reuse: no field set. In a loop this is cheaper than
 * CGN_CHILD_GRAPH_UPDATE_INIT, which zeroes the whole struct; fields not set are never read. */
static inline void cgn_child_graph_update_reset(cgn_child_graph_update *update) {
    update->set = 0;
}

/* Sets graph. */
static inline void cgn_child_graph_update_set_graph(cgn_child_graph_update *update,
                                                    cgn_graph *graph) {
    update->graph = graph;
    update->set |= CGN_CHILD_GRAPH_SET_GRAPH;
}

/* Sets every field from a complete desc (a full replacement, e.g. at executable level). */
static inline void cgn_child_graph_update_from_desc(cgn_child_graph_update *update,
                                                    const cgn_child_graph_desc *desc) {
    update->graph = desc->graph;
    update->set = CGN_CHILD_GRAPH_SET_ALL;
}

/* Adds a child graph node after `deps`. */
CGN_API cgn_status cgn_graph_add_child_graph(cgn_graph *graph, cgn_node *const *deps,
                                             size_t num_deps, const cgn_child_graph_desc *desc,
                                             cgn_node **node_out);

/* Applies a partial update with one cuGraphNodeSetParams, all or nothing; future instantiations
 * see it, existing executables keep their parameters and owners. Needs driver 12.2.
 * An update with nothing set returns CGN_OK without touching the driver. */
CGN_API cgn_status cgn_child_graph_node_update(cgn_node *node,
                                               const cgn_child_graph_update *update);

/* The node's current parameters. */
CGN_API cgn_status cgn_child_graph_node_get(const cgn_node *node, cgn_child_graph_desc *desc_out);

/* Applies a partial update to the node in one executable, with one cuGraphExecNodeSetParams, all
 * or nothing: unset fields keep what *that executable* has (its own copy, taken at
 * instantiation; the definition is never read), with the same coupling rules as the definition.
 * The definition and other executables are not touched. Owners of the new version are held until
 * no launch of the executable can read that version any more (docs/ownership.md). Needs driver
 * 12.2.
 * Another change the driver refuses is CGN_ERROR_DRIVER naming the fields set; nothing changes. */
CGN_API cgn_status cgn_child_graph_exec_update(cgn_exec *exec, cgn_node *node,
                                               const cgn_child_graph_update *update);

/* The node's parameters as that executable has them (its own copy). */
CGN_API cgn_status cgn_child_graph_exec_get(const cgn_exec *exec, const cgn_node *node,
                                            cgn_child_graph_desc *desc_out);

#ifdef __cplusplus
}
#endif

#endif /* CGN_CGN_CHILD_GRAPH_H */
