/* Generated from spec/ by codegen; do not edit. */
/* Per-node-type facts the runtime needs, from the spec. */
#include <stddef.h>

#include "runtime.h"

cgn_status cgn__child_graph_exec_check(const void *cur, const void *d, CUcontext ctx,
                                       const char *where);
cgn_status cgn__child_graph_read(cgn__reader *rd, const CUgraphNodeParams *p, void *desc,
                                 const void *prev, const char *where);
cgn_status cgn__event_record_exec_check(const void *cur, const void *d, CUcontext ctx,
                                        const char *where);
cgn_status cgn__event_record_read(cgn__reader *rd, const CUgraphNodeParams *p, void *desc,
                                  const void *prev, const char *where);
cgn_status cgn__event_wait_exec_check(const void *cur, const void *d, CUcontext ctx,
                                      const char *where);
cgn_status cgn__event_wait_read(cgn__reader *rd, const CUgraphNodeParams *p, void *desc,
                                const void *prev, const char *where);
cgn_status cgn__host_callback_exec_check(const void *cur, const void *d, CUcontext ctx,
                                         const char *where);
cgn_status cgn__host_callback_read(cgn__reader *rd, const CUgraphNodeParams *p, void *desc,
                                   const void *prev, const char *where);
cgn_status cgn__kernel_exec_check(const void *cur, const void *d, CUcontext ctx,
                                  const char *where);
cgn_status cgn__kernel_read(cgn__reader *rd, const CUgraphNodeParams *p, void *desc,
                            const void *prev, const char *where);
cgn_status cgn__memcpy_exec_check(const void *cur, const void *d, CUcontext ctx,
                                  const char *where);
cgn_status cgn__memcpy_read(cgn__reader *rd, const CUgraphNodeParams *p, void *desc,
                            const void *prev, const char *where);
cgn_status cgn__memset_exec_check(const void *cur, const void *d, CUcontext ctx,
                                  const char *where);
cgn_status cgn__memset_read(cgn__reader *rd, const CUgraphNodeParams *p, void *desc,
                            const void *prev, const char *where);

const cgn__node_type_info cgn__node_types[CGN_NODE_TYPE_COUNT_] = {
    [CGN_NODE_EMPTY] = {"empty", 0, NULL, CU_GRAPH_NODE_TYPE_EMPTY, 0, NULL, 0},
    [CGN_NODE_OTHER] = {"CUDA-only", 0, NULL, CU_GRAPH_NODE_TYPE_EMPTY, 0, NULL, 0},
    [CGN_NODE_CHILD_GRAPH] = {"child graph", 0, cgn__child_graph_exec_check,
                              CU_GRAPH_NODE_TYPE_GRAPH, sizeof(cgn_child_graph_desc),
                              cgn__child_graph_read, 0},
    [CGN_NODE_EVENT_RECORD] = {"event record", 0, cgn__event_record_exec_check,
                               CU_GRAPH_NODE_TYPE_EVENT_RECORD, sizeof(cgn_event_record_desc),
                               cgn__event_record_read, 0},
    [CGN_NODE_EVENT_WAIT] = {"event wait", 0, cgn__event_wait_exec_check,
                             CU_GRAPH_NODE_TYPE_WAIT_EVENT, sizeof(cgn_event_wait_desc),
                             cgn__event_wait_read, 0},
    [CGN_NODE_HOST] = {"host callback", 0, cgn__host_callback_exec_check, CU_GRAPH_NODE_TYPE_HOST,
                       sizeof(cgn_host_callback_desc), cgn__host_callback_read, 0},
    [CGN_NODE_KERNEL] = {"kernel", 1, cgn__kernel_exec_check, CU_GRAPH_NODE_TYPE_KERNEL,
                         sizeof(cgn_kernel_desc), cgn__kernel_read,
                         offsetof(CUgraphNodeParams, kernel.ctx)},
    [CGN_NODE_MEMCPY] = {"memcpy", 1, cgn__memcpy_exec_check, CU_GRAPH_NODE_TYPE_MEMCPY,
                         sizeof(cgn_memcpy_desc), cgn__memcpy_read,
                         offsetof(CUgraphNodeParams, memcpy.copyCtx)},
    [CGN_NODE_MEMSET] = {"memset", 1, cgn__memset_exec_check, CU_GRAPH_NODE_TYPE_MEMSET,
                         sizeof(cgn_memset_desc), cgn__memset_read,
                         offsetof(CUgraphNodeParams, memset.ctx)},
};
