/* Generated from spec/batch_mem_op.yaml by codegen; do not edit. */
#ifndef CGN_CGN_BATCH_MEM_OP_H
#define CGN_CGN_BATCH_MEM_OP_H

/* Included by cgn/cgn.h (through cgn/cgn_nodes.h); standalone it includes cgn/cgn.h first. */
#include "cgn/cgn.h"

#ifdef __cplusplus
extern "C" {
#endif

/* Batch mem op node: Write or wait on 32- and 64-bit values in memory, flush remote writes, or
 * fence, in order.
 * Reference: CUDA driver cuGraphBatchMemOpNodeSetParams / cuGraphExecBatchMemOpNodeSetParams
 * (cuda.core 1.2.0 offers no update of batch memory operation nodes) */
typedef struct cgn_batch_mem_op_desc {
    const CUstreamBatchMemOpParams *ops; /* The operations (CUstreamBatchMemOpParams), run in order; cgn copies them. */
    uint32_t num_ops;                    /* Number of operations in ops, 1 to CGN_MAX_MEM_OPS. */
    cgn_owner *ops_owner;                /* Optional owner of the memory the operations write and wait on, retained while any graph or executable may run them. */
} cgn_batch_mem_op_desc;

#define CGN_BATCH_MEM_OP_DESC_INIT {0}

/* One bit per field of cgn_batch_mem_op_update; a field is applied only when its bit is set. */
#define CGN_BATCH_MEM_OP_SET_OPS UINT64_C(0x1)
#define CGN_BATCH_MEM_OP_SET_OPS_OWNER UINT64_C(0x2)
#define CGN_BATCH_MEM_OP_SET_ALL UINT64_C(0x3)

/* A partial update: fields whose bit is not in `set` keep their current value.
 * Coupled: ops_owner requires ops (ops without ops_owner resets ops_owner to NULL). */
typedef struct cgn_batch_mem_op_update {
    uint64_t set;
    const CUstreamBatchMemOpParams *ops;
    uint32_t num_ops;
    cgn_owner *ops_owner;
} cgn_batch_mem_op_update;

#define CGN_BATCH_MEM_OP_UPDATE_INIT {.set = 0}

/* Clears the update for reuse: no field set. In a loop this is cheaper than
 * CGN_BATCH_MEM_OP_UPDATE_INIT, which zeroes the whole struct; fields not set are never read. */
static inline void cgn_batch_mem_op_update_reset(cgn_batch_mem_op_update *update) {
    update->set = 0;
}

/* Sets ops and ops_owner together. */
static inline void cgn_batch_mem_op_update_set_ops(cgn_batch_mem_op_update *update,
                                                   const CUstreamBatchMemOpParams *ops,
                                                   uint32_t num_ops, cgn_owner *ops_owner) {
    update->ops = ops;
    update->num_ops = num_ops;
    update->ops_owner = ops_owner;
    update->set |= CGN_BATCH_MEM_OP_SET_OPS | CGN_BATCH_MEM_OP_SET_OPS_OWNER;
}

/* Sets every field from a complete desc (a full replacement, e.g. at executable level). */
static inline void cgn_batch_mem_op_update_from_desc(cgn_batch_mem_op_update *update,
                                                     const cgn_batch_mem_op_desc *desc) {
    update->ops = desc->ops;
    update->num_ops = desc->num_ops;
    update->ops_owner = desc->ops_owner;
    update->set = CGN_BATCH_MEM_OP_SET_ALL;
}

/* Adds a batch mem op node after `deps`. The current context becomes the node's context. */
CGN_API cgn_status cgn_graph_add_batch_mem_op(cgn_graph *graph, cgn_node *const *deps,
                                              size_t num_deps, const cgn_batch_mem_op_desc *desc,
                                              cgn_node **node_out);

/* Applies a partial update with one cuGraphNodeSetParams, all or nothing; future instantiations
 * see it, existing executables keep their parameters and owners. Needs driver 12.2.
 * An update with nothing set returns CGN_OK without touching the driver. */
CGN_API cgn_status cgn_batch_mem_op_node_update(cgn_node *node,
                                                const cgn_batch_mem_op_update *update);

/* The node's current parameters. `ops` points into cgn's copies, valid until the node's next
 * update or its destroy: copy what you keep longer. */
CGN_API cgn_status cgn_batch_mem_op_node_get(const cgn_node *node, cgn_batch_mem_op_desc *desc_out);

/* Applies a partial update to the node in one executable, with one cuGraphExecNodeSetParams, all
 * or nothing: unset fields keep what *that executable* has (its own copy, taken at
 * instantiation; the definition is never read), with the same coupling rules as the definition.
 * The definition and other executables are not touched. Owners of the new version are held until
 * no launch of the executable can read that version any more (docs/ownership.md). Needs driver
 * 12.2.
 * Refused before any mutation (the driver's executable-update rules): ops: an executable's batch
 * memory operation node keeps its number of operations; ops: an executable's operations keep
 * their types; ops: an executable may change only the addresses and values of writes and waits
 * and the comparison of waits (not a write's flags, a wait's CU_STREAM_WAIT_VALUE_FLUSH bit, or
 * a flush or barrier).
 * Checked by the driver only (cgn cannot see what they depend on), CGN_ERROR_INVALID_VALUE
 * naming the rule when refused: ops: an executable's operations must stay on memory of the
 * context it was instantiated with.
 * Another change the driver refuses is CGN_ERROR_DRIVER naming the fields set; nothing changes. */
CGN_API cgn_status cgn_batch_mem_op_exec_update(cgn_exec *exec, cgn_node *node,
                                                const cgn_batch_mem_op_update *update);

/* The node's parameters as that executable has them (its own copy). `ops` points into cgn's
 * copies, valid until that executable's next update of the node or its destroy: copy what you
 * keep longer. */
CGN_API cgn_status cgn_batch_mem_op_exec_get(const cgn_exec *exec, const cgn_node *node,
                                             cgn_batch_mem_op_desc *desc_out);

#ifdef __cplusplus
}
#endif

#endif /* CGN_CGN_BATCH_MEM_OP_H */
