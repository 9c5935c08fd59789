/* cgn: build CUDA graphs and update their nodes safely.
 *
 * Every fallible call returns a cgn_status; cgn_last_error() gives a thread-local message
 * naming the node, the field and the driver result of the last failure on this thread.
 * Handles are opaque values, not pointers: a NULL, foreign, destroyed or double-destroyed
 * handle is reported (CGN_ERROR_INVALID_ARGUMENT, CGN_ERROR_DESTROYED), never dereferenced.
 * Threading: like CUDA, one graph hierarchy (a graph with its nodes and embeddings) and each
 * executable need external synchronisation; a hierarchy and the executables made from it may
 * be used from different threads at once, except that destroying nodes or graphs and replacing
 * child graphs must not run while an executable made from that hierarchy is being updated.
 * Owners may be retained and released from any thread. docs/ownership.md says who retains what
 * and when release callbacks run. */
#ifndef CGN_CGN_H
#define CGN_CGN_H

#include <stddef.h>
#include <stdint.h>

#include <cuda.h>

#include "cgn/cgn_export.h"

#ifdef __cplusplus
extern "C" {
#endif

/* One table yields the enum, cgn_status_name() and the default descriptions. */
#define CGN_STATUS_TABLE(X)                                                                        \
    X(CGN_OK, 0, "success")                                                                        \
    X(CGN_ERROR_INVALID_ARGUMENT, 1, "a handle or pointer argument is NULL or malformed")          \
    X(CGN_ERROR_INVALID_VALUE, 2, "a field value breaks a rule of its node type")                  \
    X(CGN_ERROR_OUT_OF_RANGE, 3, "a field value does not fit its destination")                     \
    X(CGN_ERROR_MISSING_FIELD, 4, "a coupled field was not given with the field it belongs to")    \
    X(CGN_ERROR_WRONG_NODE_TYPE, 5, "the node is not of the type this call updates")               \
    X(CGN_ERROR_DESTROYED, 6, "the node or graph has been destroyed")                              \
    X(CGN_ERROR_NOT_SUPPORTED, 7, "the node's current form cannot be updated by cgn")              \
    X(CGN_ERROR_SAME_HIERARCHY, 8, "a child graph source belongs to the destination's hierarchy")  \
    X(CGN_ERROR_NO_CONTEXT, 9, "no CUDA context is current")                                       \
    X(CGN_ERROR_NO_DRIVER, 10, "the CUDA driver library libcuda.so.1 could not be loaded")         \
    X(CGN_ERROR_NO_DEVICE, 11, "the CUDA driver found no usable device")                           \
    X(CGN_ERROR_DRIVER_TOO_OLD, 12, "the installed CUDA driver is too old for this operation")     \
    X(CGN_ERROR_DRIVER, 13, "a CUDA driver call failed")                                           \
    X(CGN_ERROR_OUT_OF_MEMORY, 14, "host memory allocation failed")

typedef enum cgn_status {
#define CGN_STATUS_ENUM_(name, value, text) name = value,
    CGN_STATUS_TABLE(CGN_STATUS_ENUM_)
#undef CGN_STATUS_ENUM_
} cgn_status;

/* "CGN_ERROR_INVALID_VALUE" for a status; "CGN_UNKNOWN_STATUS" for anything else. */
CGN_API const char *cgn_status_name(cgn_status status);
/* The default one-line description of a status. */
CGN_API const char *cgn_status_description(cgn_status status);
/* The message of the last failing cgn call on this thread ("" when none failed yet). */
CGN_API const char *cgn_last_error(void);
/* The status of the last failing cgn call on this thread (CGN_OK when none failed yet). */
CGN_API cgn_status cgn_last_status(void);

/* ---- driver ------------------------------------------------------------------------------- */

/* Loads libcuda.so.1 and calls cuInit(0) once; every entry point calls it as needed.
 * CGN_ERROR_NO_DRIVER, CGN_ERROR_NO_DEVICE or CGN_ERROR_DRIVER_TOO_OLD say what is missing. */
CGN_API cgn_status cgn_init(void);
/* The driver's version as 1000*major + 10*minor (12020 for 12.2). */
CGN_API cgn_status cgn_driver_version(int *version_out);
/* Resolves a driver entry point at the ABI version the caller's typedef was written for
 * (e.g. "cuMemAlloc", 3020), so applications need not link libcuda either. */
CGN_API cgn_status cgn_driver_proc(const char *symbol, int cuda_version, void **pfn_out);

/* ---- owners --------------------------------------------------------------------------------- */

/* A refcounted handle to a user resource. The release callback runs once, when the last
 * reference goes, on a user thread (inside a cgn call or cgn_collect()), never on a CUDA thread;
 * it may call CUDA. */
typedef struct cgn_owner cgn_owner;
typedef void (*cgn_release_fn)(void *resource);

/* Creates an owner holding one reference (the caller's). release may be NULL. */
CGN_API cgn_status cgn_owner_create(void *resource, cgn_release_fn release, cgn_owner **owner_out);
CGN_API cgn_status cgn_owner_retain(cgn_owner *owner);
/* Drops a reference. Never runs the release callback itself (this may be a CUDA thread): when
 * the last reference goes, the callback runs at the next cgn call that may call CUDA, or in
 * cgn_collect(). */
CGN_API cgn_status cgn_owner_release(cgn_owner *owner);
CGN_API void *cgn_owner_resource(const cgn_owner *owner);
/* Runs the release callbacks of everything released since the last call: versions CUDA let
 * go of, owners whose last reference was dropped by cgn_owner_release, and executable-level
 * versions whose launches have completed. Returns how many were released: each version counts
 * once (the owners it held go with it), and each owner released by cgn_owner_release once.
 * Call it on a thread that may call CUDA (not from a host callback). */
CGN_API size_t cgn_collect(void);

/* ---- graphs, nodes, executables ----------------------------------------------------------- */

typedef struct cgn_graph cgn_graph;
typedef struct cgn_node cgn_node;
typedef struct cgn_exec cgn_exec;

typedef enum cgn_node_type {
    CGN_NODE_EMPTY = 0,
    CGN_NODE_KERNEL,
    CGN_NODE_MEMSET,
    CGN_NODE_MEMCPY,
    CGN_NODE_HOST,
    CGN_NODE_CHILD_GRAPH,
    CGN_NODE_EVENT_RECORD,
    CGN_NODE_EVENT_WAIT,
    /* A node of a CUDA type cgn does not build or update (conditional, or a type of a newer
     * driver): found in adopted graphs only; updates report CGN_ERROR_NOT_SUPPORTED naming the
     * CUDA node type. */
    CGN_NODE_OTHER,
    /* Appended after OTHER: the values are ABI. */
    CGN_NODE_MEMCPY_3D, /* a 2-D or 3-D copy, pitched memory and CUDA arrays included */
    /* Not updatable: added and read back only. */
    CGN_NODE_MEM_ALLOC,
    CGN_NODE_MEM_FREE,
    CGN_NODE_BATCH_MEM_OP,
    CGN_NODE_EXT_SEM_SIGNAL,
    CGN_NODE_EXT_SEM_WAIT,
    CGN_NODE_CONDITIONAL, /* IF / WHILE with a body graph (12.3+); not updatable itself */
    CGN_NODE_TYPE_COUNT_
} cgn_node_type;

CGN_API cgn_status cgn_graph_create(cgn_graph **graph_out);
/* Destroys the graph. Its node handles stay valid for executable-level calls on executables
 * made from it (which outlive it) and report CGN_ERROR_DESTROYED elsewhere. */
CGN_API cgn_status cgn_graph_destroy(cgn_graph *graph);
CGN_API cgn_status cgn_graph_raw(const cgn_graph *graph, CUgraph *raw_out);

CGN_API cgn_status cgn_graph_add_empty(cgn_graph *graph, cgn_node *const *deps, size_t num_deps,
                                       cgn_node **node_out);
/* Removes the node from its graph; its handle reports CGN_ERROR_DESTROYED from then on, also
 * in executables made before (they still run their copy, but CUDA can no longer address it).
 * CGN_ERROR_NOT_SUPPORTED for any node of a graph holding a memory allocation or free node
 * (CUDA cannot remove nodes from such a graph). */
CGN_API cgn_status cgn_node_destroy(cgn_node *node);
CGN_API cgn_status cgn_node_type_of(const cgn_node *node, cgn_node_type *type_out);
/* Whether the node is still part of its graph. */
CGN_API int cgn_node_is_alive(const cgn_node *node);
CGN_API cgn_status cgn_node_raw(const cgn_node *node, CUgraphNode *raw_out);
/* The graph the node belongs to (a root graph or an embedding). */
CGN_API cgn_status cgn_node_graph(const cgn_node *node, cgn_graph **graph_out);

/* Instantiates the graph. The executable keeps its own copy of every node's parameters (what
 * its exec-level updates start from) and references to their owners. */
CGN_API cgn_status cgn_graph_instantiate(cgn_graph *graph, cgn_exec **exec_out);
/* cgn_graph_instantiate with CUDA's instantiation flags (cuGraphInstantiateWithFlags):
 * CUDA_GRAPH_INSTANTIATE_FLAG_AUTO_FREE_ON_LAUNCH (a launch first frees what the previous
 * launch's allocation nodes left unfreed) and CUDA_GRAPH_INSTANTIATE_FLAG_USE_NODE_PRIORITY
 * (kernel nodes run at their priority attribute's priority). Refused: ..._UPLOAD, which needs a
 * stream (CGN_ERROR_INVALID_ARGUMENT: instantiate, then cgn_exec_upload); ..._DEVICE_LAUNCH
 * (CGN_ERROR_NOT_SUPPORTED: launches from the device are invisible to cgn, which could then
 * release a replaced version's owners while such a launch reads them); unknown bits. */
CGN_API cgn_status cgn_graph_instantiate_with_flags(cgn_graph *graph, unsigned long long flags,
                                                    cgn_exec **exec_out);
/* Launches on `stream` and counts the launch, so that versions replaced by executable-level
 * updates are released once no launch can read them (an event is recorded after a launch only
 * while such versions wait). Also releases what completed launches no longer need. */
CGN_API cgn_status cgn_exec_launch(cgn_exec *exec, CUstream stream);
/* Uploads the executable's work to the device on `stream` (cuGraphUpload), so that its next
 * launch does not pay for it. Not a launch: nothing is counted, released or waited for. */
CGN_API cgn_status cgn_exec_upload(cgn_exec *exec, CUstream stream);
/* Safe while a launch is in flight: CUDA frees the executable when it completes, and what the
 * executable held is released after that (at a later cgn call or cgn_collect). Does not block,
 * except for an executable that holds owners of executable-level updates and whose raw handle
 * was taken, that was adopted, or whose fence after a launch could not be recorded (out of
 * memory, a driver error): it waits for its context (cuCtxSynchronize) first. */
CGN_API cgn_status cgn_exec_destroy(cgn_exec *exec);
/* The raw executable. Launches through it are invisible to cgn, so from this call on nothing
 * the executable held is released before the executable is destroyed. */
CGN_API cgn_status cgn_exec_raw(const cgn_exec *exec, CUgraphExec *raw_out);

/* Makes the executable run the graph's current parameters (cuGraphExecUpdate), with the
 * graph's current owners held by the executable; its own copies of the nodes are re-taken.
 * `graph` must be the graph the executable was instantiated from. Refused before the driver
 * is asked when cgn can see why (nodes added or destroyed since the instantiation, a node's
 * executable-update rule), else when the driver refuses, with CGN_ERROR_DRIVER naming the
 * node and CUDA's reason; the executable is then unchanged. A child graph replaced since with
 * one of the same topology is neither: after the call the executable's copies of its nodes are
 * addressed through the new embedded nodes' handles. Use this, not cuGraphExecUpdate on the
 * raw handles: after the raw call cgn's copies of the nodes would be stale (docs/nodes.md). */
CGN_API cgn_status cgn_exec_update_from_graph(cgn_exec *exec, cgn_graph *graph);
/* Enables or disables a node in one executable (a disabled node does nothing when launched;
 * its parameters are kept). Kernel, memset and memcpy nodes only (CGN_ERROR_NOT_SUPPORTED
 * otherwise). */
CGN_API cgn_status cgn_exec_node_set_enabled(cgn_exec *exec, cgn_node *node, int enabled);
CGN_API cgn_status cgn_exec_node_get_enabled(cgn_exec *exec, cgn_node *node, int *enabled_out);

/* ---- child-graph embeddings ------------------------------------------------------------------ */

/* The graph embedded by a child-graph node: CUDA's clone of the graph given at add or update,
 * mirrored by cgn so its nodes can be updated too (updates there affect only this embedding).
 * It belongs to the parent's hierarchy: it cannot be destroyed on its own, and reports
 * CGN_ERROR_DESTROYED once the child is replaced or the node destroyed. */
CGN_API cgn_status cgn_child_graph_node_embedded(const cgn_node *node, cgn_graph **embedded_out);
/* The copy, inside the graph embedded by child-graph node `node`, of `source_node` (a node of
 * the graph that was embedded). source_node may have been destroyed since (with its graph): it
 * is compared by value, and a handle value is never reused. A node that was not in the graph
 * embedded is CGN_ERROR_INVALID_VALUE. */
CGN_API cgn_status cgn_child_graph_node_find(const cgn_node *node, const cgn_node *source_node,
                                             cgn_node **embedded_node_out);

/* ---- conditional bodies ------------------------------------------------------------------- */

/* Body `index` (below the node's `size`) of a conditional node: one of the graphs the driver
 * created with the node, as a cgn graph of the node's hierarchy. IF: body 0 runs when the
 * condition is non-zero, body 1 (size 2) when it is zero; WHILE: body 0; SWITCH: body i when
 * the condition is i (none when it is size or more). Nodes are added to it (and updated in it)
 * with the ordinary cgn_graph_add_* and update calls; it goes with the node (cannot be
 * destroyed on its own). */
CGN_API cgn_status cgn_conditional_node_body(const cgn_node *node, uint32_t index,
                                             cgn_graph **body_out);

/* ---- field types shared by node types --------------------------------------------------- */

/* Three launch dimensions; every component must be at least 1. */
typedef struct cgn_dim3 {
    uint32_t x, y, z;
} cgn_dim3;
#define CGN_DIM3(x_, y_, z_) ((cgn_dim3){(x_), (y_), (z_)})

/* A kernel, either a context-bound CUfunction or a context-independent CUkernel (one of the two
 * non-NULL). A CUkernel runs in the context that was current when its node was added. */
typedef struct cgn_kernel {
    CUfunction function;
    CUkernel kernel;
} cgn_kernel;
#define CGN_FUNCTION(f) ((cgn_kernel){(f), NULL})
#define CGN_KERNEL(k) ((cgn_kernel){NULL, (k)})

/* One kernel argument, given by value: CUDA (and cgn) copy the bytes, so `value` may be freed
 * after the call. `owner`, if any, is retained for what the value points at. The getters point
 * `value` at cgn's copy, 16-byte aligned (a float4 or double2 may be read in place). */
typedef struct cgn_arg {
    const void *value;
    size_t size;
    cgn_owner *owner;
} cgn_arg;
#define CGN_ARG(x) ((cgn_arg){&(x), sizeof(x), NULL})
#define CGN_ARG_OWNED(x, owner_) ((cgn_arg){&(x), sizeof(x), (owner_)})

/* Argument-level kernel updates (cgn_kernel_update_set_arg): arguments replaced by index, the
 * others kept as the node (or that executable) has them. The edits live in the update struct
 * itself, so an update needs no allocation and nothing outlives the call; CGN_MAX_ARG_EDITS
 * covers the arguments a decode step changes (a position, a pointer or two); replace the whole
 * list (cgn_kernel_update_set_kernel/_args) for more. */
#define CGN_MAX_ARG_EDITS 8
typedef struct cgn_arg_edit {
    const void *value; /* the new bytes: copied by the update, borrowed until it returns */
    cgn_owner *owner;  /* replaces the owner of the argument's previous value (NULL: none) */
    uint32_t index;
    uint32_t size;     /* bytes; UINT32_MAX stands for a size that did not fit (refused) */
} cgn_arg_edit;
typedef struct cgn_arg_edits {
    uint32_t count; /* edits made; more than CGN_MAX_ARG_EDITS is refused by the update */
    cgn_arg_edit edit[CGN_MAX_ARG_EDITS];
} cgn_arg_edits;

/* Conditional nodes (cgn_conditional_desc): at most this many bodies a node (cgn's bound:
 * CUDA sets none for SWITCH; each body is a driver graph and a cgn record). */
#define CGN_MAX_COND_BODIES 256u

/* Batch memory operation nodes (cgn_batch_mem_op_desc): at most this many operations a node,
 * as for cuStreamBatchMemOp ("less than 256"). The operations are CUDA's
 * CUstreamBatchMemOpParams, copied by cgn when set. */
#define CGN_MAX_MEM_OPS 255u

/* External semaphore signal and wait nodes: at most this many semaphores a node (cgn's bound;
 * CUDA states none). The semaphores and their parameters are copied by cgn when set. */
#define CGN_MAX_EXT_SEMS 64u

/* ---- finding nodes --------------------------------------------------------------------------- */

/* Lists follow CUDA's count convention: with out NULL, *count receives the number of entries;
 * otherwise up to *count entries are written and *count receives the number there are (more
 * than were written when the array was too small). */

/* The graph's nodes (not those of its embeddings) in a deterministic topological order: every
 * node after its dependencies, ties in the order the driver lists them (cuGraphGetNodes), which
 * for nodes cgn added is the order they were added. */
CGN_API cgn_status cgn_graph_nodes(const cgn_graph *graph, cgn_node **out, size_t *count);
/* The node whose raw handle is `raw`, in the graph or in a graph embedded in it. O(nodes). */
CGN_API cgn_status cgn_graph_find_raw(const cgn_graph *graph, CUgraphNode raw,
                                      cgn_node **node_out);
/* The kernel nodes launching `kernel`, in the graph and its embeddings (each embedding's nodes
 * right after its child node), in cgn_graph_nodes order. A CUkernel also matches nodes that
 * launch the CUfunction cuKernelGetFunction gives for it in the current context (or the
 * CUkernel itself cast to a CUfunction, as cuLaunchKernel allows), and a CUfunction nodes
 * launching a CUkernel whose function in the current context it is; other contexts'
 * functions of the same kernel are not matched. */
CGN_API cgn_status cgn_graph_find_kernel(const cgn_graph *graph, cgn_kernel kernel,
                                         cgn_node **out, size_t *count);
/* The node's dependencies, in the order they were recorded. */
CGN_API cgn_status cgn_node_dependencies(const cgn_node *node, cgn_node **out, size_t *count);
/* The nodes that depend on the node, in cgn_graph_nodes order. */
CGN_API cgn_status cgn_node_dependents(const cgn_node *node, cgn_node **out, size_t *count);

/* ---- graphs built elsewhere (docs/adopt.md) ------------------------------------------------- */

/* cgn destroys the raw graph (or executable) when it destroys its own handle. */
#define CGN_ADOPT_TAKE_OWNERSHIP 0x1u

/* Makes cgn records for every node of a graph built elsewhere (stream capture, raw driver
 * calls, another library), recursing into child graphs (as embeddings: see
 * cgn_child_graph_node_embedded), so its nodes can be found and updated like cgn's own. Each
 * node's parameters are read once with the driver's typed getters; kernel arguments are copied
 * into cgn storage (their sizes from cuFuncGetParamInfo/cuKernelGetParamInfo, 12.4+). Nodes
 * cgn cannot update are recorded and refused when updated (cgn_node_check_updatable says
 * why). Adopted nodes hold no owners: what they point at stays the caller's to keep alive;
 * owners given to later updates are held as for cgn's own nodes.
 * Ownership: by default cgn borrows `raw`: the caller keeps it alive while the cgn graph or any
 * executable made from it exists, and destroys it afterwards (cgn_graph_destroy does not);
 * with CGN_ADOPT_TAKE_OWNERSHIP cgn destroys it. Kernel, memset and memcpy nodes need the
 * context they run in current (CGN_ERROR_NO_CONTEXT otherwise), unless the driver reports a
 * kernel node's context. All or nothing: on failure nothing is recorded and `raw` is
 * untouched. After adopting, change the graph only through cgn (or call cgn_node_refresh for a
 * node changed behind cgn's back); docs/adopt.md lists what not to do. */
CGN_API cgn_status cgn_graph_adopt(CUgraph raw, unsigned flags, cgn_graph **graph_out);
/* An executable instantiated outside cgn from `graph` (an adopted graph, or one of cgn's),
 * for executable-level updates. The caller asserts that `raw` was instantiated from the
 * graph's current state and not changed since: its copies of the nodes are taken from
 * cgn's records. Launches through `raw` are invisible to cgn, so nothing cgn holds for
 * executable-level updates is released before cgn_exec_destroy, which waits for the
 * executable's context (cuCtxSynchronize) before releasing it. By default cgn borrows `raw`
 * (cgn_exec_destroy leaves it to the caller; launched again afterwards it still runs the
 * parameters cgn gave it, whose owners are no longer held); with CGN_ADOPT_TAKE_OWNERSHIP
 * cgn_exec_destroy destroys it. */
CGN_API cgn_status cgn_exec_adopt(CUgraphExec raw, cgn_graph *graph, unsigned flags,
                                  cgn_exec **exec_out);
/* Re-reads the node's parameters from the driver (its typed getter) into cgn's record of the
 * definition, for a node changed behind cgn's back (raw driver calls on cgn_node_raw). cgn
 * builds every update from its record: fields an update does not set keep cgn's value, so
 * without a refresh such an update silently reverts the outside change of those fields.
 * Owners are kept for values that did not change; a changed value has none (it is the
 * caller's). Executables keep their own copies (update them, or cgn_exec_update_from_graph).
 * A child-graph node whose embedded graph was replaced behind cgn's back re-adopts it. */
CGN_API cgn_status cgn_node_refresh(cgn_node *node);
/* CGN_OK when cgn can apply any update to the node; CGN_ERROR_NOT_SUPPORTED, with
 * cgn_last_error() saying why, for a node of a CUDA type cgn does not update, a node of a type
 * that is not updatable (memory allocation and free, conditional: the message names the type),
 * a memcpy node whose copy is not a form its type updates, or an adopted kernel node whose
 * arguments cgn could not copy (then only an update setting every argument is accepted). */
CGN_API cgn_status cgn_node_check_updatable(const cgn_node *node);

#ifdef __cplusplus
}
#endif

/* Generated from spec/: descriptor and update structs, add, get and update functions. */
#include "cgn/cgn_nodes.h"

#endif /* CGN_CGN_H */
