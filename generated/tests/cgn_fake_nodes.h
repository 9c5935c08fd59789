/* Generated from spec/ by codegen; do not edit. */
/* What the fake driver (tests/support/fake_driver.c) needs per node type that the spec already
 * says, so a new node type costs it no code of its own. */
#ifndef CGN_FAKE_NODES_H
#define CGN_FAKE_NODES_H

#include <stddef.h>

#include <cuda.h>

/* X(adder, getter, CUgraphNodeType, CUgraphNodeParams member, adder's params, getter's params)
 * for each typed adder and getter taking a prefix of the whole member (spec cuda.add and
 * cuda.get `params:` without `at` or `context`, and no output field). */
#define CGN_FAKE_TYPED_ENTRIES(X) \
    X(cuGraphAddBatchMemOpNode, cuGraphBatchMemOpNodeGetParams, CU_GRAPH_NODE_TYPE_BATCH_MEM_OP, memOp, CUDA_BATCH_MEM_OP_NODE_PARAMS_v1, CUDA_BATCH_MEM_OP_NODE_PARAMS_v1) \
    X(cuGraphAddExternalSemaphoresSignalNode, cuGraphExternalSemaphoresSignalNodeGetParams, CU_GRAPH_NODE_TYPE_EXT_SEMAS_SIGNAL, extSemSignal, CUDA_EXT_SEM_SIGNAL_NODE_PARAMS_v1, CUDA_EXT_SEM_SIGNAL_NODE_PARAMS_v1) \
    X(cuGraphAddExternalSemaphoresWaitNode, cuGraphExternalSemaphoresWaitNodeGetParams, CU_GRAPH_NODE_TYPE_EXT_SEMAS_WAIT, extSemWait, CUDA_EXT_SEM_WAIT_NODE_PARAMS_v1, CUDA_EXT_SEM_WAIT_NODE_PARAMS_v1) \
    X(cuGraphAddHostNode, cuGraphHostNodeGetParams, CU_GRAPH_NODE_TYPE_HOST, host, CUDA_HOST_NODE_PARAMS_v1, CUDA_HOST_NODE_PARAMS_v1) \
    X(cuGraphAddKernelNode, cuGraphKernelNodeGetParams, CU_GRAPH_NODE_TYPE_KERNEL, kernel, CUDA_KERNEL_NODE_PARAMS_v2, CUDA_KERNEL_NODE_PARAMS_v2) \
    /* end */

/* X(setter, (its parameters), executable level, the executable (e) or NULL, CUgraphNodeType,
 * offset of the member its argument fills, the argument's address, its size, offset of the
 * member its context argument fills or 0, that argument or NULL) for each typed setter the specs
 * name (cuda.set, cuda.exec_set): the fake places the argument in CUgraphNodeParams and runs its
 * generic setter of that level. cgn_fault.c counts these entries as setters. */
#define CGN_FAKE_TYPED_SETTERS(X) \
    X(cuGraphEventRecordNodeSetEvent, \
      (CUgraphNode n, CUevent in), \
      0, NULL, CU_GRAPH_NODE_TYPE_EVENT_RECORD, offsetof(CUgraphNodeParams, eventRecord.event), \
      &in, sizeof in, 0, NULL) \
    X(cuGraphExecEventRecordNodeSetEvent, \
      (CUgraphExec e, CUgraphNode n, CUevent in), \
      1, e, CU_GRAPH_NODE_TYPE_EVENT_RECORD, offsetof(CUgraphNodeParams, eventRecord.event), \
      &in, sizeof in, 0, NULL) \
    X(cuGraphEventWaitNodeSetEvent, \
      (CUgraphNode n, CUevent in), \
      0, NULL, CU_GRAPH_NODE_TYPE_WAIT_EVENT, offsetof(CUgraphNodeParams, eventWait.event), \
      &in, sizeof in, 0, NULL) \
    X(cuGraphExecEventWaitNodeSetEvent, \
      (CUgraphExec e, CUgraphNode n, CUevent in), \
      1, e, CU_GRAPH_NODE_TYPE_WAIT_EVENT, offsetof(CUgraphNodeParams, eventWait.event), \
      &in, sizeof in, 0, NULL) \
    X(cuGraphHostNodeSetParams, \
      (CUgraphNode n, const CUDA_HOST_NODE_PARAMS_v1 *in), \
      0, NULL, CU_GRAPH_NODE_TYPE_HOST, offsetof(CUgraphNodeParams, host), \
      in, sizeof *in, 0, NULL) \
    X(cuGraphExecHostNodeSetParams, \
      (CUgraphExec e, CUgraphNode n, const CUDA_HOST_NODE_PARAMS_v1 *in), \
      1, e, CU_GRAPH_NODE_TYPE_HOST, offsetof(CUgraphNodeParams, host), \
      in, sizeof *in, 0, NULL) \
    X(cuGraphKernelNodeSetParams, \
      (CUgraphNode n, const CUDA_KERNEL_NODE_PARAMS_v2 *in), \
      0, NULL, CU_GRAPH_NODE_TYPE_KERNEL, offsetof(CUgraphNodeParams, kernel), \
      in, sizeof *in, 0, NULL) \
    X(cuGraphExecKernelNodeSetParams, \
      (CUgraphExec e, CUgraphNode n, const CUDA_KERNEL_NODE_PARAMS_v2 *in), \
      1, e, CU_GRAPH_NODE_TYPE_KERNEL, offsetof(CUgraphNodeParams, kernel), \
      in, sizeof *in, 0, NULL) \
    X(cuGraphExecMemcpyNodeSetParams, \
      (CUgraphExec e, CUgraphNode n, const CUDA_MEMCPY3D_v2 *in, CUcontext c), \
      1, e, CU_GRAPH_NODE_TYPE_MEMCPY, offsetof(CUgraphNodeParams, memcpy.copyParams), \
      in, sizeof *in, offsetof(CUgraphNodeParams, memcpy.copyCtx), c) \
    X(cuGraphExecMemsetNodeSetParams, \
      (CUgraphExec e, CUgraphNode n, const CUDA_MEMSET_NODE_PARAMS_v1 *in, CUcontext c), \
      1, e, CU_GRAPH_NODE_TYPE_MEMSET, offsetof(CUgraphNodeParams, memset), \
      in, sizeof *in, offsetof(CUgraphNodeParams, memset.ctx), c) \
    /* end */

/* X(CUgraphNodeType) for each CUDA node type a spec records: a node of such a type whose params
 * point at nothing the fake must copy is accepted as given unless the fake checks more. */
#define CGN_FAKE_SPEC_TYPES(X) \
    X(CU_GRAPH_NODE_TYPE_BATCH_MEM_OP) \
    X(CU_GRAPH_NODE_TYPE_CONDITIONAL) \
    X(CU_GRAPH_NODE_TYPE_EVENT_RECORD) \
    X(CU_GRAPH_NODE_TYPE_EXT_SEMAS_SIGNAL) \
    X(CU_GRAPH_NODE_TYPE_EXT_SEMAS_WAIT) \
    X(CU_GRAPH_NODE_TYPE_GRAPH) \
    X(CU_GRAPH_NODE_TYPE_HOST) \
    X(CU_GRAPH_NODE_TYPE_KERNEL) \
    X(CU_GRAPH_NODE_TYPE_MEMCPY) \
    X(CU_GRAPH_NODE_TYPE_MEMSET) \
    X(CU_GRAPH_NODE_TYPE_MEM_ALLOC) \
    X(CU_GRAPH_NODE_TYPE_MEM_FREE) \
    X(CU_GRAPH_NODE_TYPE_WAIT_EVENT) \
    /* end */

/* Parallel arrays sharing one count that a node's params point at (copied_arrays fields): the
 * driver copies them when the node is added or set, and an executable cannot change the count. */
#define CGN_FAKE_MAX_ARRAY_PARTS 4
typedef struct cgn_fake_array_layout {
    CUgraphNodeType type;
    size_t count_at;  /* offset of the unsigned int count in CUgraphNodeParams */
    size_t num_parts;
    size_t at[CGN_FAKE_MAX_ARRAY_PARTS];   /* offsets of the array pointers */
    size_t size[CGN_FAKE_MAX_ARRAY_PARTS]; /* their element sizes */
} cgn_fake_array_layout;

static const cgn_fake_array_layout cgn_fake_array_layouts[] = {
    /* ext_sem_signal.sems */
    {CU_GRAPH_NODE_TYPE_EXT_SEMAS_SIGNAL, offsetof(CUgraphNodeParams, extSemSignal.numExtSems), 2,
     {offsetof(CUgraphNodeParams, extSemSignal.extSemArray), offsetof(CUgraphNodeParams, extSemSignal.paramsArray)},
     {sizeof(CUexternalSemaphore), sizeof(CUDA_EXTERNAL_SEMAPHORE_SIGNAL_PARAMS)}},
    /* ext_sem_wait.sems */
    {CU_GRAPH_NODE_TYPE_EXT_SEMAS_WAIT, offsetof(CUgraphNodeParams, extSemWait.numExtSems), 2,
     {offsetof(CUgraphNodeParams, extSemWait.extSemArray), offsetof(CUgraphNodeParams, extSemWait.paramsArray)},
     {sizeof(CUexternalSemaphore), sizeof(CUDA_EXTERNAL_SEMAPHORE_WAIT_PARAMS)}},
    {CU_GRAPH_NODE_TYPE_EMPTY, 0, 0, {0}, {0}}, /* end */
};

#endif /* CGN_FAKE_NODES_H */
