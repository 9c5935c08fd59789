/* The runtime contract between generated node code and the hand-written runtime.
 * Generated code validates fields and builds CUgraphNodeParams; the runtime owns records,
 * refcounts, attachments and the transaction. The runtime never knows node-type field names. */
#ifndef CGN_RUNTIME_RUNTIME_H
#define CGN_RUNTIME_RUNTIME_H

#include <stdarg.h>
#include <stdatomic.h>
#include <stddef.h>
#include <stdint.h>

#include "cgn/cgn.h"
#include "driver.h"

/* ---- errors -------------------------------------------------------------------------------- */

/* Records status and a printf-style message as this thread's last error; returns status. */
cgn_status cgn__fail(cgn_status status, const char *fmt, ...)
#if defined(__GNUC__) || defined(__clang__)
    __attribute__((format(printf, 2, 3)))
#endif
    ;
/* Records a failed driver call: "<what>: cuX returned CUDA_ERROR_Y". */
cgn_status cgn__fail_driver(CUresult r, const char *what);

/* ---- owners and attachments ------------------------------------------------------------ */

struct cgn_owner {
    atomic_long refs;
    void *resource;
    cgn_release_fn release;
};

/* The owners of one version of a node's parameters. Immutable once published; held by one CUDA
 * user object retained on the node's graph. CUDA copies that reference into clones, child
 * embeddings and executables, and drops it when the last of them is gone. */
typedef struct cgn__attachment {
    struct cgn__attachment *next_released; /* link in the deferred-release queue */
    CUuserObject object;
    /* An executable's accumulator (see cgn_exec) grows here: owners of executable-level
     * updates, each retained once, appended and never removed. */
    cgn_owner **more;
    size_t num_more, cap_more;
    size_t num_owners;
    cgn_owner *owners[]; /* each retained once by this attachment */
} cgn__attachment;

void cgn__owner_retain(cgn_owner *owner);
void cgn__owner_release(cgn_owner *owner);
/* Runs pending release callbacks when CUDA has released attachments; one atomic load if not. */
void cgn__collect_pending(void);
/* The user-object destructor given to CUDA: enqueues the attachment, nothing else. */
void cgn__attachment_released(void *attachment);
/* Releases the attachment's owners and frees it (user thread only). */
void cgn__attachment_free(cgn__attachment *a);

/* ---- records ------------------------------------------------------------------------------- */

struct cgn_graph {
    CUgraph raw;
    cgn_node **nodes; /* every node record added to this graph, alive or destroyed */
    size_t num_nodes, cap_nodes;
    /* Hierarchy: a graph made by cgn_graph_create is its own root; a graph embedded by a
     * child-graph node belongs to that node's root, which owns its record. */
    cgn_graph *root;
    cgn_node *owner;       /* the child-graph node embedding this graph; NULL for a root */
    int alive;             /* 0 once replaced or its child node destroyed (records stay) */
    cgn_graph **embedded;  /* root only: every embedded graph record of the hierarchy */
    size_t num_embedded, cap_embedded;
};

struct cgn_node {
    cgn_graph *graph;
    CUgraphNode raw;
    cgn_node_type type;
    int alive;
    CUcontext ctx;                   /* current when the node was added; used for every update */
    void *state;                     /* the node type's generated desc struct, cgn-owned copy */
    size_t state_size;
    void *storage;                   /* cgn-owned block the state and params point into; shared
                                        (refcounted) with copies of this node in embeddings */
    void *spare;                     /* a previous block held by this node alone, for reuse */
    cgn_graph *embedded;             /* child-graph node: its embedded graph's record */
    const cgn_node *source;          /* node in an embedding: the node it was copied from */
    CUgraphNode source_raw;
    cgn__attachment *attachment;     /* owners of the current version; NULL when none */
};

struct cgn_exec {
    CUgraphExec raw;
    /* Executables cannot hold user objects, so at instantiation cgn retains this accumulator's
     * user object on the graph just long enough for CUDA to copy the reference into the
     * executable; owners of executable-level updates are appended to it, and CUDA drops it when
     * the executable is destroyed and its last launch has finished. */
    cgn__attachment *accum;
};

/* ---- transactions ------------------------------------------------------------------------- */

/* validate -> prepare -> apply (one driver mutation) -> commit | rollback.
 * After a failing call the node's params, state, attachment, every executable and every owner
 * refcount are exactly as before. */
typedef struct cgn__txn {
    cgn_node *node;                 /* the node updated, or the record prepared for a new node */
    int adding;                     /* 1: the node is being added */
    cgn__attachment *attachment;    /* attachment for the new version (may equal the current) */
    int new_attachment;             /* 1: attachment was created by this txn */
    void *storage;                  /* replaces node->storage at commit when storage_set */
    int storage_set;
    cgn_graph *embed_plan;          /* child-graph node: records prepared for the new child */
    void *state;                    /* preallocated state block for a new node */
    int switch_context;             /* make the node's context current around the update */
    cgn_exec *exec;                 /* executable-level update: the executable; else NULL */
    size_t num_pending;             /* executable-level: owners staged past accum->num_more */
    const CUgraphNode *deps;        /* raw dependencies of a new node */
    CUgraphNode *deps_buf;
    size_t num_deps;
} cgn__txn;

/* Add path. Checks the graph and every dependency, records the current context, and allocates
 * the node record and its state block (state_size bytes), all before any mutation.
 * needs_context: fail with CGN_ERROR_NO_CONTEXT when no context is current. */
cgn_status cgn__add_begin(cgn__txn *txn, cgn_graph *graph, cgn_node *const *deps, size_t num_deps,
                          cgn_node_type type, size_t state_size, int needs_context);

/* Update path; the caller has checked the node with cgn__check_node. Checks the driver gate
 * (cuGraphNodeSetParams, since 12.2 unless the spec says otherwise). switch_context: the
 * driver needs the node's context current during the update (memset, memcpy). */
cgn_status cgn__update_begin(cgn__txn *txn, cgn_node *node, int since, int switch_context);

/* Executable-level update of `node` in `exec`: a complete replacement applied with
 * cuGraphExecNodeSetParams. The definition is not touched; the new version's owners are
 * appended to the executable's accumulator at commit. The caller has checked the node. */
cgn_status cgn__exec_update_begin(cgn__txn *txn, cgn_exec *exec, cgn_node *node, int since,
                                  int switch_context);

/* The node's context (recorded at add); for a new node, the current one. */
CUcontext cgn__txn_context(const cgn__txn *txn);
/* The node's current state (update path only). */
const void *cgn__txn_current_state(const cgn__txn *txn);

/* A cgn-owned block of `size` bytes for the new version (copies of kernel arguments, payloads),
 * reusing the node's spare block when it is large enough. At commit it replaces node->storage
 * (the old block becomes the spare); at rollback it goes back. NULL (with last error set) when
 * out of memory. One block per transaction. */
void *cgn__txn_storage(cgn__txn *txn, size_t size);
/* The node's current storage block (NULL on the add path or when none). */
const void *cgn__txn_current_storage(const cgn__txn *txn);

/* Stages the owners of the new version: `owners` then each argument's owner. NULL entries are
 * skipped. When the list equals the current attachment's owners, in order, the current
 * attachment is reused and no user object is made. */
cgn_status cgn__txn_stage_owners(cgn__txn *txn, cgn_owner *const *owners, size_t num_owners,
                                 const cgn_arg *args, size_t num_args);

/* The one driver mutation: cuGraphAdd*Node for a new node, cuGraphNodeSetParams for an update,
 * with the node's context current. On failure the transaction is rolled back. */
cgn_status cgn__txn_apply(cgn__txn *txn, CUgraphNodeParams *params, const char *what);

/* Publishes state (state_size bytes copied), storage and attachment, then releases the
 * previous attachment's graph reference. Cannot fail. *node_out receives the node (add path).
 * The driver params are not cached: they are rebuilt from the state on each update. */
void cgn__txn_commit(cgn__txn *txn, const void *state, size_t state_size, cgn_node **node_out);

/* Releases what the transaction prepared. Safe to call after a failed apply (no-op then). */
void cgn__txn_rollback(cgn__txn *txn);

/* ---- growable arrays ------------------------------------------------------------------------ */

/* Makes room for `need` elements of elem_size in *array (capacity *cap, doubling from `first`),
 * before a mutation so that commit never allocates. CGN_ERROR_OUT_OF_MEMORY with a message
 * naming `where` when realloc fails; *array and *cap are then unchanged. */
cgn_status cgn__reserve(void *array, size_t *cap, size_t need, size_t elem_size, size_t first,
                        const char *where);

/* ---- storage blocks and embeddings --------------------------------------------------------- */

/* Storage blocks are refcounted so that a node copied into an embedded graph shares them. */
void cgn__block_retain(void *block);
void cgn__block_release(void *block);

/* Child-graph field codec: checks the source (alive, another hierarchy) and prepares, before
 * the mutation, the records of the embedded copy (every allocation happens here). */
cgn_status cgn__stage_child_graph(cgn__txn *txn, cgn_graph *source, CUgraph *raw_out,
                                  const char *where);
/* After the mutation (cannot fail): retires the old embedded records, publishes the new ones
 * and locates their raw handles. Called by cgn__txn_commit. */
void cgn__commit_embedding(cgn__txn *txn);
/* Frees prepared records (rollback). */
void cgn__discard_embedding(cgn_graph *plan);
/* Marks an embedded graph and everything below it destroyed (records stay until the root
 * goes). */
void cgn__retire_embedded(cgn_graph *graph);
/* Frees a node record and drops its storage references. */
void cgn__node_free(cgn_node *node);

/* ---- node checks shared by generated getters ---------------------------------------------- */

/* CGN_ERROR_INVALID_ARGUMENT for NULL, CGN_ERROR_DESTROYED when destroyed,
 * CGN_ERROR_WRONG_NODE_TYPE when of another type. */
cgn_status cgn__check_node(const cgn_node *node, cgn_node_type type, const char *where);
/* "memset", "host callback", ... for messages. */
const char *cgn__node_type_name(cgn_node_type type);

/* ---- field codecs: work on one field kind, never on a node type's names ------------------- */

/* Checks a kernel handle (exactly one of function/kernel) and its arguments (non-NULL values of
 * non-zero size; where the driver has cu{Func,Kernel}GetParamInfo, 12.4+, their count and sizes
 * against the kernel), then copies the arguments into the txn's storage block: *args_copy_out
 * points at a copy of the cgn_arg array whose values point into the block, *params_out at the
 * kernelParams pointer array (NULL for zero arguments). The kernel's parameter sizes are cached
 * in the block, so an update of arguments alone makes no driver call here. */
cgn_status cgn__stage_kernel_args(cgn__txn *txn, cgn_kernel kernel, const cgn_arg *args,
                                  uint32_t num_args, const cgn_arg **args_copy_out,
                                  void ***params_out, const char *where);

/* The kernelParams array of the node's current argument block (update path; NULL if none). */
void **cgn__current_kernel_params(const cgn__txn *txn);

/* Fills func/kern of a kernel node's params for a kernel handle (ctx comes from the node's
 * recorded context, the spec's context_field; the driver ignores it for a CUfunction). */
void cgn__set_kernel_handle(CUDA_KERNEL_NODE_PARAMS_v3 *params, cgn_kernel kernel);

/* The memory type a copy operand is read or written as, asked of the driver once when the
 * operand is set: CU_MEMORYTYPE_DEVICE for device and managed memory, CU_MEMORYTYPE_HOST for
 * pinned host memory and for addresses the driver does not know (CUDA_ERROR_INVALID_VALUE:
 * pageable host memory). Another driver error is CGN_ERROR_DRIVER; another memory type (an
 * array) CGN_ERROR_NOT_SUPPORTED. `field` names the operand in messages. */
cgn_status cgn__detect_memory_type(CUdeviceptr address, CUmemorytype *type_out, const char *field,
                                   const char *where);

/* Copies `size` bytes into a new cgn-owned block held by a new owner (release: free), for a
 * field whose bytes must outlive the call (a host callback's payload): *copy_out points at the
 * copy, *owner_out holds the one reference, the caller's, to drop with cgn__release_staged_copy
 * once the staged attachment retains the owner (or staging failed). size 0 gives NULL and NULL,
 * whatever `bytes` is. Nothing is allocated on failure. */
cgn_status cgn__stage_bytes(const void *bytes, size_t size, const void **copy_out,
                            cgn_owner **owner_out, const char *field, const char *where);
/* Drops the reference cgn__stage_bytes gave its caller. With the owner retained by a staged
 * attachment the copy lives on with that version; otherwise it is freed now. NULL: no-op. */
void cgn__release_staged_copy(cgn_owner *owner);

/* The node check before every memcpy update: reads the node's descriptor back with
 * cuGraphMemcpyNodeGetParams and fails with CGN_ERROR_NOT_SUPPORTED, changing nothing, unless
 * it is a plain 1-D copy between host and device memory (no offsets, pitches, arrays or LOD;
 * Height = Depth = 1), the only form cgn builds. A node changed behind cgn's back into another
 * form is refused rather than silently flattened. */
cgn_status cgn__check_memcpy_1d(const cgn__txn *txn, const char *where);

#endif /* CGN_RUNTIME_RUNTIME_H */
