/* Generated from spec/ by codegen; do not edit. */
/* Per-node-type facts the runtime needs, from the spec. */
#include "runtime.h"

cgn_status cgn__child_graph_exec_check(const void *cur, const void *d, CUcontext ctx,
                                       const char *where);
cgn_status cgn__event_record_exec_check(const void *cur, const void *d, CUcontext ctx,
                                        const char *where);
cgn_status cgn__event_wait_exec_check(const void *cur, const void *d, CUcontext ctx,
                                      const char *where);
cgn_status cgn__host_callback_exec_check(const void *cur, const void *d, CUcontext ctx,
                                         const char *where);
cgn_status cgn__kernel_exec_check(const void *cur, const void *d, CUcontext ctx,
                                  const char *where);
cgn_status cgn__memcpy_exec_check(const void *cur, const void *d, CUcontext ctx,
                                  const char *where);
cgn_status cgn__memset_exec_check(const void *cur, const void *d, CUcontext ctx,
                                  const char *where);

const cgn__node_type_info cgn__node_types[CGN_NODE_TYPE_COUNT_] = {
    [CGN_NODE_EMPTY] = {"empty", 0, NULL},
    [CGN_NODE_CHILD_GRAPH] = {"child graph", 0, cgn__child_graph_exec_check},
    [CGN_NODE_EVENT_RECORD] = {"event record", 0, cgn__event_record_exec_check},
    [CGN_NODE_EVENT_WAIT] = {"event wait", 0, cgn__event_wait_exec_check},
    [CGN_NODE_HOST] = {"host callback", 0, cgn__host_callback_exec_check},
    [CGN_NODE_KERNEL] = {"kernel", 1, cgn__kernel_exec_check},
    [CGN_NODE_MEMCPY] = {"memcpy", 1, cgn__memcpy_exec_check},
    [CGN_NODE_MEMSET] = {"memset", 1, cgn__memset_exec_check},
};
