/* Generated from spec/ by codegen; do not edit. */
/* Per-node-type facts the runtime needs, from the spec. */
#include <stddef.h>
#include <string.h>

#include "runtime.h"

cgn_status cgn__batch_mem_op_exec_check(const void *cur, const void *d, CUcontext ctx,
                                        const char *where);
cgn_status cgn__batch_mem_op_read(cgn__reader *rd, const CUgraphNodeParams *p, void *desc,
                                  const void *prev, const char *where);
cgn_status cgn__child_graph_exec_check(const void *cur, const void *d, CUcontext ctx,
                                       const char *where);
cgn_status cgn__child_graph_read(cgn__reader *rd, const CUgraphNodeParams *p, void *desc,
                                 const void *prev, const char *where);
cgn_status cgn__conditional_exec_check(const void *cur, const void *d, CUcontext ctx,
                                       const char *where);
cgn_status cgn__event_record_exec_check(const void *cur, const void *d, CUcontext ctx,
                                        const char *where);
cgn_status cgn__event_record_read(cgn__reader *rd, const CUgraphNodeParams *p, void *desc,
                                  const void *prev, const char *where);
cgn_status cgn__event_wait_exec_check(const void *cur, const void *d, CUcontext ctx,
                                      const char *where);
cgn_status cgn__event_wait_read(cgn__reader *rd, const CUgraphNodeParams *p, void *desc,
                                const void *prev, const char *where);
cgn_status cgn__ext_sem_signal_exec_check(const void *cur, const void *d, CUcontext ctx,
                                          const char *where);
cgn_status cgn__ext_sem_signal_read(cgn__reader *rd, const CUgraphNodeParams *p, void *desc,
                                    const void *prev, const char *where);
cgn_status cgn__ext_sem_wait_exec_check(const void *cur, const void *d, CUcontext ctx,
                                        const char *where);
cgn_status cgn__ext_sem_wait_read(cgn__reader *rd, const CUgraphNodeParams *p, void *desc,
                                  const void *prev, const char *where);
cgn_status cgn__host_callback_exec_check(const void *cur, const void *d, CUcontext ctx,
                                         const char *where);
cgn_status cgn__host_callback_read(cgn__reader *rd, const CUgraphNodeParams *p, void *desc,
                                   const void *prev, const char *where);
cgn_status cgn__kernel_exec_check(const void *cur, const void *d, CUcontext ctx,
                                  const char *where);
cgn_status cgn__kernel_read(cgn__reader *rd, const CUgraphNodeParams *p, void *desc,
                            const void *prev, const char *where);
cgn_status cgn__mem_alloc_exec_check(const void *cur, const void *d, CUcontext ctx,
                                     const char *where);
cgn_status cgn__mem_alloc_read(cgn__reader *rd, const CUgraphNodeParams *p, void *desc,
                               const void *prev, const char *where);
cgn_status cgn__mem_free_exec_check(const void *cur, const void *d, CUcontext ctx,
                                    const char *where);
cgn_status cgn__mem_free_read(cgn__reader *rd, const CUgraphNodeParams *p, void *desc,
                              const void *prev, const char *where);
cgn_status cgn__memcpy_exec_check(const void *cur, const void *d, CUcontext ctx,
                                  const char *where);
cgn_status cgn__memcpy_read(cgn__reader *rd, const CUgraphNodeParams *p, void *desc,
                            const void *prev, const char *where);
cgn_status cgn__memcpy_3d_exec_check(const void *cur, const void *d, CUcontext ctx,
                                     const char *where);
cgn_status cgn__memcpy_3d_read(cgn__reader *rd, const CUgraphNodeParams *p, void *desc,
                               const void *prev, const char *where);
cgn_status cgn__memset_exec_check(const void *cur, const void *d, CUcontext ctx,
                                  const char *where);
cgn_status cgn__memset_read(cgn__reader *rd, const CUgraphNodeParams *p, void *desc,
                            const void *prev, const char *where);

/* The typed adders and getters (spec: cuda.add, cuda.get). */

static CUresult cgn__batch_mem_op_add_raw(const cgn_driver_table *drv, CUgraphNode *out, CUgraph g,
                                          const CUgraphNode *deps, size_t num_deps,
                                          CUgraphNodeParams *p) {
    CUDA_BATCH_MEM_OP_NODE_PARAMS_v1 a;
    _Static_assert(sizeof a <= sizeof ((CUgraphNodeParams *)0)->memOp,
                   "CUDA_BATCH_MEM_OP_NODE_PARAMS_v1 is a prefix of the params");
    memcpy(&a, &p->memOp, sizeof a);
    return drv->cuGraphAddBatchMemOpNode(out, g, deps, num_deps, &a);
}

static CUresult cgn__batch_mem_op_get_raw(const cgn_driver_table *drv, CUgraphNode raw,
                                          CUgraphNodeParams *p) {
    CUDA_BATCH_MEM_OP_NODE_PARAMS_v1 *a = (void *)&p->memOp;
    _Static_assert(sizeof *a <= sizeof p->memOp,
                   "CUDA_BATCH_MEM_OP_NODE_PARAMS_v1 is a prefix of the params");
    memset(a, 0, sizeof *a);
    return drv->cuGraphBatchMemOpNodeGetParams(raw, a);
}

static CUresult cgn__child_graph_add_raw(const cgn_driver_table *drv, CUgraphNode *out, CUgraph g,
                                         const CUgraphNode *deps, size_t num_deps,
                                         CUgraphNodeParams *p) {
    return drv->cuGraphAddChildGraphNode(out, g, deps, num_deps, p->graph.graph);
}

static CUresult cgn__child_graph_get_raw(const cgn_driver_table *drv, CUgraphNode raw,
                                         CUgraphNodeParams *p) {
    return drv->cuGraphChildGraphNodeGetGraph(raw, &p->graph.graph);
}

static CUresult cgn__conditional_add_raw(const cgn_driver_table *drv, CUgraphNode *out, CUgraph g,
                                         const CUgraphNode *deps, size_t num_deps,
                                         CUgraphNodeParams *p) {
    return drv->cuGraphAddNode(out, g, deps, num_deps, p);
}

static CUresult cgn__event_record_add_raw(const cgn_driver_table *drv, CUgraphNode *out, CUgraph g,
                                          const CUgraphNode *deps, size_t num_deps,
                                          CUgraphNodeParams *p) {
    return drv->cuGraphAddEventRecordNode(out, g, deps, num_deps, p->eventRecord.event);
}

static CUresult cgn__event_record_get_raw(const cgn_driver_table *drv, CUgraphNode raw,
                                          CUgraphNodeParams *p) {
    return drv->cuGraphEventRecordNodeGetEvent(raw, &p->eventRecord.event);
}

static CUresult cgn__event_wait_add_raw(const cgn_driver_table *drv, CUgraphNode *out, CUgraph g,
                                        const CUgraphNode *deps, size_t num_deps,
                                        CUgraphNodeParams *p) {
    return drv->cuGraphAddEventWaitNode(out, g, deps, num_deps, p->eventWait.event);
}

static CUresult cgn__event_wait_get_raw(const cgn_driver_table *drv, CUgraphNode raw,
                                        CUgraphNodeParams *p) {
    return drv->cuGraphEventWaitNodeGetEvent(raw, &p->eventWait.event);
}

static CUresult cgn__ext_sem_signal_add_raw(const cgn_driver_table *drv, CUgraphNode *out,
                                            CUgraph g, const CUgraphNode *deps, size_t num_deps,
                                            CUgraphNodeParams *p) {
    CUDA_EXT_SEM_SIGNAL_NODE_PARAMS_v1 a;
    _Static_assert(sizeof a <= sizeof ((CUgraphNodeParams *)0)->extSemSignal,
                   "CUDA_EXT_SEM_SIGNAL_NODE_PARAMS_v1 is a prefix of the params");
    memcpy(&a, &p->extSemSignal, sizeof a);
    return drv->cuGraphAddExternalSemaphoresSignalNode(out, g, deps, num_deps, &a);
}

static CUresult cgn__ext_sem_signal_get_raw(const cgn_driver_table *drv, CUgraphNode raw,
                                            CUgraphNodeParams *p) {
    CUDA_EXT_SEM_SIGNAL_NODE_PARAMS_v1 *a = (void *)&p->extSemSignal;
    _Static_assert(sizeof *a <= sizeof p->extSemSignal,
                   "CUDA_EXT_SEM_SIGNAL_NODE_PARAMS_v1 is a prefix of the params");
    memset(a, 0, sizeof *a);
    return drv->cuGraphExternalSemaphoresSignalNodeGetParams(raw, a);
}

static CUresult cgn__ext_sem_wait_add_raw(const cgn_driver_table *drv, CUgraphNode *out, CUgraph g,
                                          const CUgraphNode *deps, size_t num_deps,
                                          CUgraphNodeParams *p) {
    CUDA_EXT_SEM_WAIT_NODE_PARAMS_v1 a;
    _Static_assert(sizeof a <= sizeof ((CUgraphNodeParams *)0)->extSemWait,
                   "CUDA_EXT_SEM_WAIT_NODE_PARAMS_v1 is a prefix of the params");
    memcpy(&a, &p->extSemWait, sizeof a);
    return drv->cuGraphAddExternalSemaphoresWaitNode(out, g, deps, num_deps, &a);
}

static CUresult cgn__ext_sem_wait_get_raw(const cgn_driver_table *drv, CUgraphNode raw,
                                          CUgraphNodeParams *p) {
    CUDA_EXT_SEM_WAIT_NODE_PARAMS_v1 *a = (void *)&p->extSemWait;
    _Static_assert(sizeof *a <= sizeof p->extSemWait,
                   "CUDA_EXT_SEM_WAIT_NODE_PARAMS_v1 is a prefix of the params");
    memset(a, 0, sizeof *a);
    return drv->cuGraphExternalSemaphoresWaitNodeGetParams(raw, a);
}

static CUresult cgn__host_callback_add_raw(const cgn_driver_table *drv, CUgraphNode *out, CUgraph g,
                                           const CUgraphNode *deps, size_t num_deps,
                                           CUgraphNodeParams *p) {
    CUDA_HOST_NODE_PARAMS_v1 a;
    _Static_assert(sizeof a <= sizeof ((CUgraphNodeParams *)0)->host,
                   "CUDA_HOST_NODE_PARAMS_v1 is a prefix of the params");
    memcpy(&a, &p->host, sizeof a);
    return drv->cuGraphAddHostNode(out, g, deps, num_deps, &a);
}

static CUresult cgn__host_callback_get_raw(const cgn_driver_table *drv, CUgraphNode raw,
                                           CUgraphNodeParams *p) {
    CUDA_HOST_NODE_PARAMS_v1 *a = (void *)&p->host;
    _Static_assert(sizeof *a <= sizeof p->host,
                   "CUDA_HOST_NODE_PARAMS_v1 is a prefix of the params");
    memset(a, 0, sizeof *a);
    return drv->cuGraphHostNodeGetParams(raw, a);
}

static CUresult cgn__kernel_add_raw(const cgn_driver_table *drv, CUgraphNode *out, CUgraph g,
                                    const CUgraphNode *deps, size_t num_deps,
                                    CUgraphNodeParams *p) {
    CUDA_KERNEL_NODE_PARAMS_v2 a;
    _Static_assert(sizeof a <= sizeof ((CUgraphNodeParams *)0)->kernel,
                   "CUDA_KERNEL_NODE_PARAMS_v2 is a prefix of the params");
    memcpy(&a, &p->kernel, sizeof a);
    return drv->cuGraphAddKernelNode(out, g, deps, num_deps, &a);
}

static CUresult cgn__kernel_get_raw(const cgn_driver_table *drv, CUgraphNode raw,
                                    CUgraphNodeParams *p) {
    CUDA_KERNEL_NODE_PARAMS_v2 *a = (void *)&p->kernel;
    _Static_assert(sizeof *a <= sizeof p->kernel,
                   "CUDA_KERNEL_NODE_PARAMS_v2 is a prefix of the params");
    memset(a, 0, sizeof *a);
    return drv->cuGraphKernelNodeGetParams(raw, a);
}

static CUresult cgn__mem_alloc_add_raw(const cgn_driver_table *drv, CUgraphNode *out, CUgraph g,
                                       const CUgraphNode *deps, size_t num_deps,
                                       CUgraphNodeParams *p) {
    CUDA_MEM_ALLOC_NODE_PARAMS_v1 a;
    _Static_assert(sizeof a <= sizeof ((CUgraphNodeParams *)0)->alloc,
                   "CUDA_MEM_ALLOC_NODE_PARAMS_v1 is a prefix of the params");
    memcpy(&a, &p->alloc, sizeof a);
    CUresult r = drv->cuGraphAddMemAllocNode(out, g, deps, num_deps, &a);
    if (r == CUDA_SUCCESS)
        memcpy(&p->alloc, &a, sizeof a);
    return r;
}

static CUresult cgn__mem_alloc_get_raw(const cgn_driver_table *drv, CUgraphNode raw,
                                       CUgraphNodeParams *p) {
    CUDA_MEM_ALLOC_NODE_PARAMS_v1 *a = (void *)&p->alloc;
    _Static_assert(sizeof *a <= sizeof p->alloc,
                   "CUDA_MEM_ALLOC_NODE_PARAMS_v1 is a prefix of the params");
    memset(a, 0, sizeof *a);
    return drv->cuGraphMemAllocNodeGetParams(raw, a);
}

static CUresult cgn__mem_free_add_raw(const cgn_driver_table *drv, CUgraphNode *out, CUgraph g,
                                      const CUgraphNode *deps, size_t num_deps,
                                      CUgraphNodeParams *p) {
    return drv->cuGraphAddMemFreeNode(out, g, deps, num_deps, p->free.dptr);
}

static CUresult cgn__mem_free_get_raw(const cgn_driver_table *drv, CUgraphNode raw,
                                      CUgraphNodeParams *p) {
    return drv->cuGraphMemFreeNodeGetParams(raw, &p->free.dptr);
}

static CUresult cgn__memcpy_add_raw(const cgn_driver_table *drv, CUgraphNode *out, CUgraph g,
                                    const CUgraphNode *deps, size_t num_deps,
                                    CUgraphNodeParams *p) {
    CUDA_MEMCPY3D_v2 a;
    _Static_assert(sizeof a <= sizeof ((CUgraphNodeParams *)0)->memcpy.copyParams,
                   "CUDA_MEMCPY3D_v2 is a prefix of the params");
    memcpy(&a, &p->memcpy.copyParams, sizeof a);
    return drv->cuGraphAddMemcpyNode(out, g, deps, num_deps, &a, p->memcpy.copyCtx);
}

static CUresult cgn__memcpy_get_raw(const cgn_driver_table *drv, CUgraphNode raw,
                                    CUgraphNodeParams *p) {
    CUDA_MEMCPY3D_v2 *a = (void *)&p->memcpy.copyParams;
    _Static_assert(sizeof *a <= sizeof p->memcpy.copyParams,
                   "CUDA_MEMCPY3D_v2 is a prefix of the params");
    memset(a, 0, sizeof *a);
    return drv->cuGraphMemcpyNodeGetParams(raw, a);
}

static CUresult cgn__memcpy_3d_add_raw(const cgn_driver_table *drv, CUgraphNode *out, CUgraph g,
                                       const CUgraphNode *deps, size_t num_deps,
                                       CUgraphNodeParams *p) {
    CUDA_MEMCPY3D_v2 a;
    _Static_assert(sizeof a <= sizeof ((CUgraphNodeParams *)0)->memcpy.copyParams,
                   "CUDA_MEMCPY3D_v2 is a prefix of the params");
    memcpy(&a, &p->memcpy.copyParams, sizeof a);
    return drv->cuGraphAddMemcpyNode(out, g, deps, num_deps, &a, p->memcpy.copyCtx);
}

static CUresult cgn__memcpy_3d_get_raw(const cgn_driver_table *drv, CUgraphNode raw,
                                       CUgraphNodeParams *p) {
    CUDA_MEMCPY3D_v2 *a = (void *)&p->memcpy.copyParams;
    _Static_assert(sizeof *a <= sizeof p->memcpy.copyParams,
                   "CUDA_MEMCPY3D_v2 is a prefix of the params");
    memset(a, 0, sizeof *a);
    return drv->cuGraphMemcpyNodeGetParams(raw, a);
}

static CUresult cgn__memset_add_raw(const cgn_driver_table *drv, CUgraphNode *out, CUgraph g,
                                    const CUgraphNode *deps, size_t num_deps,
                                    CUgraphNodeParams *p) {
    CUDA_MEMSET_NODE_PARAMS_v1 a;
    _Static_assert(sizeof a <= sizeof ((CUgraphNodeParams *)0)->memset,
                   "CUDA_MEMSET_NODE_PARAMS_v1 is a prefix of the params");
    memcpy(&a, &p->memset, sizeof a);
    return drv->cuGraphAddMemsetNode(out, g, deps, num_deps, &a, p->memset.ctx);
}

static CUresult cgn__memset_get_raw(const cgn_driver_table *drv, CUgraphNode raw,
                                    CUgraphNodeParams *p) {
    CUDA_MEMSET_NODE_PARAMS_v1 *a = (void *)&p->memset;
    _Static_assert(sizeof *a <= sizeof p->memset,
                   "CUDA_MEMSET_NODE_PARAMS_v1 is a prefix of the params");
    memset(a, 0, sizeof *a);
    return drv->cuGraphMemsetNodeGetParams(raw, a);
}

/* Every enumerator of cgn_node_type (include/cgn/cgn.h) but EMPTY and OTHER has a spec, and
 * every spec an enumerator: a row left out would be a NULL name at run time. */
_Static_assert(CGN_NODE_TYPE_COUNT_ == 2 + 14,
               "cgn_node_type and spec/ disagree: each enumerator needs a spec/<node>.yaml");

const cgn__node_type_info cgn__node_types[CGN_NODE_TYPE_COUNT_] = {
    [CGN_NODE_EMPTY] = {"empty", 0, NULL, CU_GRAPH_NODE_TYPE_EMPTY, 0, NULL, 0, NULL, NULL, NULL,
                        NULL, 0, NULL, 1, "CU_GRAPH_NODE_TYPE_EMPTY"},
    [CGN_NODE_OTHER] = {"CUDA-only", 0, NULL, CU_GRAPH_NODE_TYPE_EMPTY, 0, NULL, 0, NULL, NULL,
                        NULL, NULL, 0, NULL, 1, NULL},
    [CGN_NODE_BATCH_MEM_OP] = {"batch mem op", 0, cgn__batch_mem_op_exec_check,
                               CU_GRAPH_NODE_TYPE_BATCH_MEM_OP, sizeof(cgn_batch_mem_op_desc),
                               cgn__batch_mem_op_read, offsetof(CUgraphNodeParams, memOp.ctx),
                               cgn__batch_mem_op_add_raw, "cuGraphAddBatchMemOpNode",
                               cgn__batch_mem_op_get_raw, "cuGraphBatchMemOpNodeGetParams", 1, NULL,
                               sizeof(cgn_batch_mem_op_desc), "CU_GRAPH_NODE_TYPE_BATCH_MEM_OP"},
    [CGN_NODE_CHILD_GRAPH] = {"child graph", 0, cgn__child_graph_exec_check,
                              CU_GRAPH_NODE_TYPE_GRAPH, sizeof(cgn_child_graph_desc),
                              cgn__child_graph_read, 0, cgn__child_graph_add_raw,
                              "cuGraphAddChildGraphNode", cgn__child_graph_get_raw,
                              "cuGraphChildGraphNodeGetGraph", 1, NULL,
                              sizeof(cgn_child_graph_desc), "CU_GRAPH_NODE_TYPE_GRAPH"},
    [CGN_NODE_CONDITIONAL] = {"conditional", 0, cgn__conditional_exec_check,
                              CU_GRAPH_NODE_TYPE_CONDITIONAL, sizeof(cgn_conditional_desc), NULL,
                              offsetof(CUgraphNodeParams, conditional.ctx),
                              cgn__conditional_add_raw, "cuGraphAddNode", NULL, NULL, 0, NULL, 1,
                              "CU_GRAPH_NODE_TYPE_CONDITIONAL"},
    [CGN_NODE_EVENT_RECORD] = {"event record", 0, cgn__event_record_exec_check,
                               CU_GRAPH_NODE_TYPE_EVENT_RECORD, sizeof(cgn_event_record_desc),
                               cgn__event_record_read, 0, cgn__event_record_add_raw,
                               "cuGraphAddEventRecordNode", cgn__event_record_get_raw,
                               "cuGraphEventRecordNodeGetEvent", 1, NULL,
                               sizeof(cgn_event_record_desc), "CU_GRAPH_NODE_TYPE_EVENT_RECORD"},
    [CGN_NODE_EVENT_WAIT] = {"event wait", 0, cgn__event_wait_exec_check,
                             CU_GRAPH_NODE_TYPE_WAIT_EVENT, sizeof(cgn_event_wait_desc),
                             cgn__event_wait_read, 0, cgn__event_wait_add_raw,
                             "cuGraphAddEventWaitNode", cgn__event_wait_get_raw,
                             "cuGraphEventWaitNodeGetEvent", 1, NULL, sizeof(cgn_event_wait_desc),
                             "CU_GRAPH_NODE_TYPE_WAIT_EVENT"},
    [CGN_NODE_EXT_SEM_SIGNAL] = {"ext sem signal", 0, cgn__ext_sem_signal_exec_check,
                                 CU_GRAPH_NODE_TYPE_EXT_SEMAS_SIGNAL,
                                 sizeof(cgn_ext_sem_signal_desc), cgn__ext_sem_signal_read, 0,
                                 cgn__ext_sem_signal_add_raw,
                                 "cuGraphAddExternalSemaphoresSignalNode",
                                 cgn__ext_sem_signal_get_raw,
                                 "cuGraphExternalSemaphoresSignalNodeGetParams", 1, NULL,
                                 sizeof(cgn_ext_sem_signal_desc),
                                 "CU_GRAPH_NODE_TYPE_EXT_SEMAS_SIGNAL"},
    [CGN_NODE_EXT_SEM_WAIT] = {"ext sem wait", 0, cgn__ext_sem_wait_exec_check,
                               CU_GRAPH_NODE_TYPE_EXT_SEMAS_WAIT, sizeof(cgn_ext_sem_wait_desc),
                               cgn__ext_sem_wait_read, 0, cgn__ext_sem_wait_add_raw,
                               "cuGraphAddExternalSemaphoresWaitNode", cgn__ext_sem_wait_get_raw,
                               "cuGraphExternalSemaphoresWaitNodeGetParams", 1, NULL,
                               sizeof(cgn_ext_sem_wait_desc), "CU_GRAPH_NODE_TYPE_EXT_SEMAS_WAIT"},
    [CGN_NODE_HOST] = {"host callback", 0, cgn__host_callback_exec_check, CU_GRAPH_NODE_TYPE_HOST,
                       sizeof(cgn_host_callback_desc), cgn__host_callback_read, 0,
                       cgn__host_callback_add_raw, "cuGraphAddHostNode", cgn__host_callback_get_raw,
                       "cuGraphHostNodeGetParams", 1, NULL, sizeof(cgn_host_callback_desc),
                       "CU_GRAPH_NODE_TYPE_HOST"},
    [CGN_NODE_KERNEL] = {"kernel", 1, cgn__kernel_exec_check, CU_GRAPH_NODE_TYPE_KERNEL,
                         sizeof(cgn_kernel_desc), cgn__kernel_read,
                         offsetof(CUgraphNodeParams, kernel.ctx), cgn__kernel_add_raw,
                         "cuGraphAddKernelNode", cgn__kernel_get_raw, "cuGraphKernelNodeGetParams",
                         1, NULL, sizeof(cgn_kernel_desc), "CU_GRAPH_NODE_TYPE_KERNEL"},
    [CGN_NODE_MEM_ALLOC] = {"mem alloc", 0, cgn__mem_alloc_exec_check, CU_GRAPH_NODE_TYPE_MEM_ALLOC,
                            sizeof(cgn_mem_alloc_desc), cgn__mem_alloc_read, 0,
                            cgn__mem_alloc_add_raw, "cuGraphAddMemAllocNode",
                            cgn__mem_alloc_get_raw, "cuGraphMemAllocNodeGetParams", 0, NULL,
                            sizeof(cgn_mem_alloc_desc), "CU_GRAPH_NODE_TYPE_MEM_ALLOC"},
    [CGN_NODE_MEM_FREE] = {"mem free", 0, cgn__mem_free_exec_check, CU_GRAPH_NODE_TYPE_MEM_FREE,
                           sizeof(cgn_mem_free_desc), cgn__mem_free_read, 0, cgn__mem_free_add_raw,
                           "cuGraphAddMemFreeNode", cgn__mem_free_get_raw,
                           "cuGraphMemFreeNodeGetParams", 0, NULL, sizeof(cgn_mem_free_desc),
                           "CU_GRAPH_NODE_TYPE_MEM_FREE"},
    [CGN_NODE_MEMCPY] = {"memcpy", 1, cgn__memcpy_exec_check, CU_GRAPH_NODE_TYPE_MEMCPY,
                         sizeof(cgn_memcpy_desc), cgn__memcpy_read,
                         offsetof(CUgraphNodeParams, memcpy.copyCtx), cgn__memcpy_add_raw,
                         "cuGraphAddMemcpyNode", cgn__memcpy_get_raw, "cuGraphMemcpyNodeGetParams",
                         1, cgn__memcpy_1d_form,
                         CGN__MAX_SIZE(sizeof(cgn_memcpy_desc), sizeof(cgn_memcpy_3d_desc)),
                         "CU_GRAPH_NODE_TYPE_MEMCPY"},
    [CGN_NODE_MEMCPY_3D] = {"memcpy 3d", 1, cgn__memcpy_3d_exec_check, CU_GRAPH_NODE_TYPE_MEMCPY,
                            sizeof(cgn_memcpy_3d_desc), cgn__memcpy_3d_read,
                            offsetof(CUgraphNodeParams, memcpy.copyCtx), cgn__memcpy_3d_add_raw,
                            "cuGraphAddMemcpyNode", cgn__memcpy_3d_get_raw,
                            "cuGraphMemcpyNodeGetParams", 1, cgn__memcpy_3d_form,
                            CGN__MAX_SIZE(sizeof(cgn_memcpy_desc), sizeof(cgn_memcpy_3d_desc)),
                            "CU_GRAPH_NODE_TYPE_MEMCPY"},
    [CGN_NODE_MEMSET] = {"memset", 1, cgn__memset_exec_check, CU_GRAPH_NODE_TYPE_MEMSET,
                         sizeof(cgn_memset_desc), cgn__memset_read,
                         offsetof(CUgraphNodeParams, memset.ctx), cgn__memset_add_raw,
                         "cuGraphAddMemsetNode", cgn__memset_get_raw, "cuGraphMemsetNodeGetParams",
                         1, NULL, sizeof(cgn_memset_desc), "CU_GRAPH_NODE_TYPE_MEMSET"},
};
