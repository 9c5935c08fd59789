/* Every CUDA driver entry point cgn calls, with the ABI version its PFN typedef was written for.
 * X(name, abi, need, (params), (args)). need = CGN__NEED_BASE: cgn refuses drivers that lack it
 * (graph building must work from 12.0 on); CGN__NEED_FEATURE: optional, gated where used.
 * The fake driver and the fault-injecting proxy in tests/support are built from this list.
 * cuGraphAddNode (12.2) is called by cgn only for conditional nodes (which have no typed adder;
 * gated to 12.3 with cuGraphConditionalHandleCreate); tests also build graphs "made elsewhere"
 * through it, including node types cgn never adds; tests read an executable's instantiation
 * flags through cuGraphExecGetFlags, which cgn does not call. */
#ifndef CGN_RUNTIME_DRIVER_ENTRIES_H
#define CGN_RUNTIME_DRIVER_ENTRIES_H

#define CGN__NEED_BASE 1
#define CGN__NEED_FEATURE 0

#define CGN_DRIVER_ENTRIES(X)                                                                       \
    X(cuDriverGetVersion, 2020, CGN__NEED_BASE, (int *v), (v))                                      \
    X(cuInit, 2000, CGN__NEED_BASE, (unsigned int flags), (flags))                                  \
    X(cuGetErrorName, 6000, CGN__NEED_BASE, (CUresult e, const char **s), (e, s))                   \
    X(cuCtxGetCurrent, 4000, CGN__NEED_BASE, (CUcontext * c), (c))                                  \
    X(cuCtxPushCurrent, 4000, CGN__NEED_BASE, (CUcontext c), (c))                                   \
    X(cuCtxPopCurrent, 4000, CGN__NEED_BASE, (CUcontext * c), (c))                                  \
    X(cuCtxSetCurrent, 4000, CGN__NEED_BASE, (CUcontext c), (c))                                    \
    X(cuCtxSynchronize, 2000, CGN__NEED_BASE, (void), ())                                           \
    X(cuEventCreate, 2000, CGN__NEED_BASE, (CUevent * e, unsigned int flags), (e, flags))           \
    X(cuEventRecord, 2000, CGN__NEED_BASE, (CUevent e, CUstream s), (e, s))                         \
    X(cuEventQuery, 2000, CGN__NEED_BASE, (CUevent e), (e))                                         \
    X(cuEventDestroy, 4000, CGN__NEED_BASE, (CUevent e), (e))                                       \
    X(cuGraphCreate, 10000, CGN__NEED_BASE, (CUgraph * g, unsigned int flags), (g, flags))          \
    X(cuGraphDestroy, 10000, CGN__NEED_BASE, (CUgraph g), (g))                                      \
    X(cuGraphClone, 10000, CGN__NEED_BASE, (CUgraph * out, CUgraph g), (out, g))                    \
    X(cuGraphNodeFindInClone, 10000, CGN__NEED_BASE,                                                \
      (CUgraphNode * out, CUgraphNode orig, CUgraph clone), (out, orig, clone))                     \
    X(cuGraphAddEmptyNode, 10000, CGN__NEED_BASE,                                                   \
      (CUgraphNode * n, CUgraph g, const CUgraphNode *d, size_t nd), (n, g, d, nd))                 \
    X(cuGraphAddKernelNode, 12000, CGN__NEED_BASE,                                                  \
      (CUgraphNode * n, CUgraph g, const CUgraphNode *d, size_t nd,                                 \
       const CUDA_KERNEL_NODE_PARAMS_v2 *p),                                                        \
      (n, g, d, nd, p))                                                                             \
    X(cuGraphAddMemsetNode, 10000, CGN__NEED_BASE,                                                  \
      (CUgraphNode * n, CUgraph g, const CUgraphNode *d, size_t nd,                                 \
       const CUDA_MEMSET_NODE_PARAMS_v1 *p, CUcontext c),                                           \
      (n, g, d, nd, p, c))                                                                          \
    X(cuGraphAddMemcpyNode, 10000, CGN__NEED_BASE,                                                  \
      (CUgraphNode * n, CUgraph g, const CUgraphNode *d, size_t nd, const CUDA_MEMCPY3D_v2 *p,      \
       CUcontext c),                                                                                \
      (n, g, d, nd, p, c))                                                                          \
    X(cuGraphAddHostNode, 10000, CGN__NEED_BASE,                                                    \
      (CUgraphNode * n, CUgraph g, const CUgraphNode *d, size_t nd,                                 \
       const CUDA_HOST_NODE_PARAMS_v1 *p),                                                          \
      (n, g, d, nd, p))                                                                             \
    X(cuGraphAddChildGraphNode, 10000, CGN__NEED_BASE,                                              \
      (CUgraphNode * n, CUgraph g, const CUgraphNode *d, size_t nd, CUgraph child),                 \
      (n, g, d, nd, child))                                                                         \
    X(cuGraphAddEventRecordNode, 11010, CGN__NEED_BASE,                                             \
      (CUgraphNode * n, CUgraph g, const CUgraphNode *d, size_t nd, CUevent e), (n, g, d, nd, e))   \
    X(cuGraphAddEventWaitNode, 11010, CGN__NEED_BASE,                                               \
      (CUgraphNode * n, CUgraph g, const CUgraphNode *d, size_t nd, CUevent e), (n, g, d, nd, e))   \
    X(cuGraphChildGraphNodeGetGraph, 10000, CGN__NEED_BASE, (CUgraphNode n, CUgraph * g), (n, g))   \
    X(cuGraphDestroyNode, 10000, CGN__NEED_BASE, (CUgraphNode n), (n))                              \
    X(cuGraphInstantiateWithFlags, 11040, CGN__NEED_BASE,                                           \
      (CUgraphExec * e, CUgraph g, unsigned long long flags), (e, g, flags))                        \
    X(cuGraphExecDestroy, 10000, CGN__NEED_BASE, (CUgraphExec e), (e))                              \
    X(cuGraphExecUpdate, 12000, CGN__NEED_BASE,                                                     \
      (CUgraphExec e, CUgraph g, CUgraphExecUpdateResultInfo * info), (e, g, info))                 \
    X(cuGraphNodeSetEnabled, 11060, CGN__NEED_BASE,                                                 \
      (CUgraphExec e, CUgraphNode n, unsigned int on), (e, n, on))                                  \
    X(cuGraphNodeGetEnabled, 11060, CGN__NEED_BASE,                                                 \
      (CUgraphExec e, CUgraphNode n, unsigned int *on), (e, n, on))                                 \
    X(cuGraphGetNodes, 10000, CGN__NEED_BASE, (CUgraph g, CUgraphNode * nodes, size_t *n),          \
      (g, nodes, n))                                                                                \
    X(cuGraphNodeGetType, 10000, CGN__NEED_BASE, (CUgraphNode n, CUgraphNodeType * t), (n, t))      \
    X(cuGraphGetEdges, 10000, CGN__NEED_BASE,                                                       \
      (CUgraph g, CUgraphNode * from, CUgraphNode * to, size_t *n), (g, from, to, n))               \
    X(cuGraphNodeGetDependencies, 10000, CGN__NEED_BASE,                                            \
      (CUgraphNode n, CUgraphNode * deps, size_t *num), (n, deps, num))                             \
    X(cuGraphNodeGetDependentNodes, 10000, CGN__NEED_BASE,                                          \
      (CUgraphNode n, CUgraphNode * deps, size_t *num), (n, deps, num))                             \
    X(cuGraphKernelNodeGetParams, 12000, CGN__NEED_BASE,                                            \
      (CUgraphNode n, CUDA_KERNEL_NODE_PARAMS_v2 * p), (n, p))                                      \
    X(cuGraphMemsetNodeGetParams, 10000, CGN__NEED_BASE,                                            \
      (CUgraphNode n, CUDA_MEMSET_NODE_PARAMS_v1 * p), (n, p))                                      \
    X(cuGraphHostNodeGetParams, 10000, CGN__NEED_BASE,                                              \
      (CUgraphNode n, CUDA_HOST_NODE_PARAMS_v1 * p), (n, p))                                        \
    X(cuGraphEventRecordNodeGetEvent, 11010, CGN__NEED_BASE, (CUgraphNode n, CUevent * e),         \
      (n, e))                                                                                       \
    X(cuGraphEventWaitNodeGetEvent, 11010, CGN__NEED_BASE, (CUgraphNode n, CUevent * e), (n, e))    \
    X(cuGraphLaunch, 10000, CGN__NEED_BASE, (CUgraphExec e, CUstream s), (e, s))                    \
    X(cuGraphUpload, 11010, CGN__NEED_BASE, (CUgraphExec e, CUstream s), (e, s))                    \
    X(cuGraphExecGetFlags, 12000, CGN__NEED_FEATURE, (CUgraphExec e, cuuint64_t * f), (e, f))       \
    X(cuUserObjectCreate, 11030, CGN__NEED_BASE,                                                    \
      (CUuserObject * o, void *ptr, CUhostFn destroy, unsigned int refs, unsigned int flags),       \
      (o, ptr, destroy, refs, flags))                                                               \
    X(cuUserObjectRelease, 11030, CGN__NEED_BASE, (CUuserObject o, unsigned int n), (o, n))         \
    X(cuGraphRetainUserObject, 11030, CGN__NEED_BASE,                                               \
      (CUgraph g, CUuserObject o, unsigned int n, unsigned int flags), (g, o, n, flags))            \
    X(cuGraphReleaseUserObject, 11030, CGN__NEED_BASE,                                              \
      (CUgraph g, CUuserObject o, unsigned int n), (g, o, n))                                       \
    X(cuPointerGetAttribute, 4000, CGN__NEED_BASE,                                                  \
      (void *data, CUpointer_attribute a, CUdeviceptr p), (data, a, p))                             \
    X(cuGraphMemcpyNodeGetParams, 10000, CGN__NEED_BASE, (CUgraphNode n, CUDA_MEMCPY3D_v2 * p),     \
      (n, p))                                                                                       \
    X(cuGraphNodeSetParams, 12020, CGN__NEED_FEATURE, (CUgraphNode n, CUgraphNodeParams * p),       \
      (n, p))                                                                                       \
    X(cuGraphExecNodeSetParams, 12020, CGN__NEED_FEATURE,                                           \
      (CUgraphExec e, CUgraphNode n, CUgraphNodeParams * p), (e, n, p))                             \
    /* The typed setters (spec: cuda.set, cuda.exec_set): faster than the generic ones. */    \
    X(cuGraphKernelNodeSetParams, 12000, CGN__NEED_BASE,                                            \
      (CUgraphNode n, const CUDA_KERNEL_NODE_PARAMS_v2 *p), (n, p))                                 \
    X(cuGraphExecKernelNodeSetParams, 12000, CGN__NEED_BASE,                                        \
      (CUgraphExec e, CUgraphNode n, const CUDA_KERNEL_NODE_PARAMS_v2 *p), (e, n, p))               \
    X(cuGraphExecMemsetNodeSetParams, 10020, CGN__NEED_BASE,                                        \
      (CUgraphExec e, CUgraphNode n, const CUDA_MEMSET_NODE_PARAMS_v1 *p, CUcontext c),             \
      (e, n, p, c))                                                                                 \
    X(cuGraphExecMemcpyNodeSetParams, 10020, CGN__NEED_BASE,                                        \
      (CUgraphExec e, CUgraphNode n, const CUDA_MEMCPY3D_v2 *p, CUcontext c), (e, n, p, c))         \
    X(cuGraphHostNodeSetParams, 10000, CGN__NEED_BASE,                                              \
      (CUgraphNode n, const CUDA_HOST_NODE_PARAMS_v1 *p), (n, p))                                   \
    X(cuGraphExecHostNodeSetParams, 10020, CGN__NEED_BASE,                                          \
      (CUgraphExec e, CUgraphNode n, const CUDA_HOST_NODE_PARAMS_v1 *p), (e, n, p))                 \
    X(cuGraphEventRecordNodeSetEvent, 11010, CGN__NEED_BASE, (CUgraphNode n, CUevent ev), (n, ev))  \
    X(cuGraphExecEventRecordNodeSetEvent, 11010, CGN__NEED_BASE,                                    \
      (CUgraphExec e, CUgraphNode n, CUevent ev), (e, n, ev))                                       \
    X(cuGraphEventWaitNodeSetEvent, 11010, CGN__NEED_BASE, (CUgraphNode n, CUevent ev), (n, ev))    \
    X(cuGraphExecEventWaitNodeSetEvent, 11010, CGN__NEED_BASE,                                      \
      (CUgraphExec e, CUgraphNode n, CUevent ev), (e, n, ev))                                       \
    X(cuKernelGetParamInfo, 12040, CGN__NEED_FEATURE,                                               \
      (CUkernel k, size_t i, size_t *off, size_t *size), (k, i, off, size))                         \
    X(cuFuncGetParamInfo, 12040, CGN__NEED_FEATURE,                                                 \
      (CUfunction f, size_t i, size_t *off, size_t *size), (f, i, off, size))                       \
    X(cuKernelGetName, 12030, CGN__NEED_FEATURE, (const char **name, CUkernel k), (name, k))        \
    X(cuFuncGetName, 12030, CGN__NEED_FEATURE, (const char **name, CUfunction f), (name, f))      \
    X(cuKernelGetFunction, 12000, CGN__NEED_FEATURE, (CUfunction * f, CUkernel k), (f, k))          \
    X(cuGraphAddNode, 12020, CGN__NEED_FEATURE,                                                     \
      (CUgraphNode * n, CUgraph g, const CUgraphNode *d, size_t nd, CUgraphNodeParams *p),          \
      (n, g, d, nd, p))                                                                             \
    X(cuGraphAddMemAllocNode, 11040, CGN__NEED_BASE,                                                \
      (CUgraphNode * n, CUgraph g, const CUgraphNode *d, size_t nd,                                 \
       CUDA_MEM_ALLOC_NODE_PARAMS_v1 *p),                                                           \
      (n, g, d, nd, p))                                                                             \
    X(cuGraphMemAllocNodeGetParams, 11040, CGN__NEED_BASE,                                          \
      (CUgraphNode n, CUDA_MEM_ALLOC_NODE_PARAMS_v1 * p), (n, p))                                   \
    X(cuGraphAddMemFreeNode, 11040, CGN__NEED_BASE,                                                 \
      (CUgraphNode * n, CUgraph g, const CUgraphNode *d, size_t nd, CUdeviceptr dptr),              \
      (n, g, d, nd, dptr))                                                                          \
    X(cuGraphMemFreeNodeGetParams, 11040, CGN__NEED_BASE, (CUgraphNode n, CUdeviceptr * dptr),      \
      (n, dptr))                                                                                   \
    X(cuGraphAddBatchMemOpNode, 11070, CGN__NEED_BASE,                                              \
      (CUgraphNode * n, CUgraph g, const CUgraphNode *d, size_t nd,                                 \
       const CUDA_BATCH_MEM_OP_NODE_PARAMS_v1 *p),                                                  \
      (n, g, d, nd, p))                                                                             \
    X(cuGraphBatchMemOpNodeGetParams, 11070, CGN__NEED_BASE,                                        \
      (CUgraphNode n, CUDA_BATCH_MEM_OP_NODE_PARAMS_v1 * p), (n, p))                                \
    X(cuGraphAddExternalSemaphoresSignalNode, 11020, CGN__NEED_BASE,                                \
      (CUgraphNode * n, CUgraph g, const CUgraphNode *d, size_t nd,                                 \
       const CUDA_EXT_SEM_SIGNAL_NODE_PARAMS_v1 *p), (n, g, d, nd, p))                              \
    X(cuGraphExternalSemaphoresSignalNodeGetParams, 11020, CGN__NEED_BASE,                          \
      (CUgraphNode n, CUDA_EXT_SEM_SIGNAL_NODE_PARAMS_v1 * p), (n, p))                              \
    X(cuGraphAddExternalSemaphoresWaitNode, 11020, CGN__NEED_BASE,                                  \
      (CUgraphNode * n, CUgraph g, const CUgraphNode *d, size_t nd,                                 \
       const CUDA_EXT_SEM_WAIT_NODE_PARAMS_v1 *p), (n, g, d, nd, p))                                \
    X(cuGraphExternalSemaphoresWaitNodeGetParams, 11020, CGN__NEED_BASE,                            \
      (CUgraphNode n, CUDA_EXT_SEM_WAIT_NODE_PARAMS_v1 * p), (n, p))                                \
    X(cuGraphConditionalHandleCreate, 12030, CGN__NEED_FEATURE,                                     \
      (CUgraphConditionalHandle * h, CUgraph g, CUcontext c, unsigned int v, unsigned int f),       \
      (h, g, c, v, f))

#endif /* CGN_RUNTIME_DRIVER_ENTRIES_H */
