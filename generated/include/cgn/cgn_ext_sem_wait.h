/* Generated from spec/ext_sem_wait.yaml by codegen; do not edit. */
#ifndef CGN_CGN_EXT_SEM_WAIT_H
#define CGN_CGN_EXT_SEM_WAIT_H

/* Included by cgn/cgn.h (through cgn/cgn_nodes.h); standalone it includes cgn/cgn.h first. */
#include "cgn/cgn.h"

#ifdef __cplusplus
extern "C" {
#endif

/* Ext sem wait node: Wait for external semaphores (imported with cuImportExternalSemaphore)
 * before the nodes after it run.
 * Reference: CUDA driver cuGraphExternalSemaphoresWaitNodeSetParams /
 * cuGraphExecExternalSemaphoresWaitNodeSetParams (cuda.core 1.2.0 has no external semaphore
 * nodes) */
typedef struct cgn_ext_sem_wait_desc {
    const CUexternalSemaphore *sems;                        /* The semaphores to wait for (with sems_params, one CUDA_EXTERNAL_SEMAPHORE_WAIT_PARAMS each); cgn copies both arrays. */
    const CUDA_EXTERNAL_SEMAPHORE_WAIT_PARAMS *sems_params; /* Per element of sems: CUDA_EXTERNAL_SEMAPHORE_WAIT_PARAMS. */
    uint32_t num_sems;                                      /* Number of elements of each, 1 to CGN_MAX_EXT_SEMS. */
    cgn_owner *sems_owner;                                  /* Optional owner of the semaphores, retained while any graph or executable may wait for them. */
} cgn_ext_sem_wait_desc;

#define CGN_EXT_SEM_WAIT_DESC_INIT {0}

/* One bit per field of cgn_ext_sem_wait_update; a field is applied only when its bit is set. */
#define CGN_EXT_SEM_WAIT_SET_SEMS UINT64_C(0x1)
#define CGN_EXT_SEM_WAIT_SET_SEMS_OWNER UINT64_C(0x2)
#define CGN_EXT_SEM_WAIT_SET_ALL UINT64_C(0x3)

/* A partial update: fields whose bit is not in `set` keep their current value.
 * Coupled: sems_owner requires sems (sems without sems_owner resets sems_owner to NULL). */
typedef struct cgn_ext_sem_wait_update {
    uint64_t set;
    const CUexternalSemaphore *sems;
    const CUDA_EXTERNAL_SEMAPHORE_WAIT_PARAMS *sems_params;
    uint32_t num_sems;
    cgn_owner *sems_owner;
} cgn_ext_sem_wait_update;

#define CGN_EXT_SEM_WAIT_UPDATE_INIT {.set = 0}

/* Clears the update for reuse: no field set. In a loop this is cheaper than
 * CGN_EXT_SEM_WAIT_UPDATE_INIT, which zeroes the whole struct; fields not set are never read. */
static inline void cgn_ext_sem_wait_update_reset(cgn_ext_sem_wait_update *update) {
    update->set = 0;
}

/* Sets sems and sems_owner together. */
static inline void cgn_ext_sem_wait_update_set_sems(cgn_ext_sem_wait_update *update,
                                                    const CUexternalSemaphore *sems,
                                                    const CUDA_EXTERNAL_SEMAPHORE_WAIT_PARAMS *sems_params,
                                                    uint32_t num_sems, cgn_owner *sems_owner) {
    update->sems = sems;
    update->sems_params = sems_params;
    update->num_sems = num_sems;
    update->sems_owner = sems_owner;
    update->set |= CGN_EXT_SEM_WAIT_SET_SEMS | CGN_EXT_SEM_WAIT_SET_SEMS_OWNER;
}

/* Sets every field from a complete desc (a full replacement, e.g. at executable level). */
static inline void cgn_ext_sem_wait_update_from_desc(cgn_ext_sem_wait_update *update,
                                                     const cgn_ext_sem_wait_desc *desc) {
    update->sems = desc->sems;
    update->sems_params = desc->sems_params;
    update->num_sems = desc->num_sems;
    update->sems_owner = desc->sems_owner;
    update->set = CGN_EXT_SEM_WAIT_SET_ALL;
}

/* Adds a ext sem wait node after `deps`. */
CGN_API cgn_status cgn_graph_add_ext_sem_wait(cgn_graph *graph, cgn_node *const *deps,
                                              size_t num_deps, const cgn_ext_sem_wait_desc *desc,
                                              cgn_node **node_out);

/* Applies a partial update with one cuGraphNodeSetParams, all or nothing; future instantiations
 * see it, existing executables keep their parameters and owners. Needs driver 12.2.
 * An update with nothing set returns CGN_OK without touching the driver. */
CGN_API cgn_status cgn_ext_sem_wait_node_update(cgn_node *node,
                                                const cgn_ext_sem_wait_update *update);

/* The node's current parameters. `sems` points into cgn's copies, valid until the node's next
 * update or its destroy: copy what you keep longer. */
CGN_API cgn_status cgn_ext_sem_wait_node_get(const cgn_node *node, cgn_ext_sem_wait_desc *desc_out);

/* Applies a partial update to the node in one executable, with one cuGraphExecNodeSetParams, all
 * or nothing: unset fields keep what *that executable* has (its own copy, taken at
 * instantiation; the definition is never read), with the same coupling rules as the definition.
 * The definition and other executables are not touched. Owners of the new version are held until
 * no launch of the executable can read that version any more (docs/ownership.md). Needs driver
 * 12.2.
 * Refused before any mutation (the driver's executable-update rules): sems: an executable's
 * external semaphore wait node keeps its number of semaphores.
 * Checked by the driver only (cgn cannot see what they depend on), CGN_ERROR_INVALID_VALUE
 * naming the rule when refused: sems: an executable's semaphores must be of the types it was
 * instantiated with.
 * Another change the driver refuses is CGN_ERROR_DRIVER naming the fields set; nothing changes. */
CGN_API cgn_status cgn_ext_sem_wait_exec_update(cgn_exec *exec, cgn_node *node,
                                                const cgn_ext_sem_wait_update *update);

/* The node's parameters as that executable has them (its own copy). `sems` points into cgn's
 * copies, valid until that executable's next update of the node or its destroy: copy what you
 * keep longer. */
CGN_API cgn_status cgn_ext_sem_wait_exec_get(const cgn_exec *exec, const cgn_node *node,
                                             cgn_ext_sem_wait_desc *desc_out);

#ifdef __cplusplus
}
#endif

#endif /* CGN_CGN_EXT_SEM_WAIT_H */
