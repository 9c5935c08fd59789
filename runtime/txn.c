/* The update transaction: validate -> prepare -> apply (one driver mutation) -> commit, or
 * rollback. Everything that can fail happens before the mutation; commit only publishes. */
#include <stdalign.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "runtime.h"

cgn_status cgn__reserve(void *array, size_t *cap, size_t need, size_t elem_size, size_t first,
                        const char *where) {
    if (need <= *cap)
        return CGN_OK;
    size_t grown_cap = *cap ? 2 * *cap : first;
    while (grown_cap < need)
        grown_cap *= 2;
    void **slot = array;
    void *grown = realloc(*slot, grown_cap * elem_size);
    if (grown == NULL)
        return cgn__fail(CGN_ERROR_OUT_OF_MEMORY, "%s: out of host memory", where);
    *slot = grown;
    *cap = grown_cap;
    return CGN_OK;
}

static cgn_status cgn__collect_deps(cgn__txn *txn, cgn_graph *graph, cgn_node *const *deps,
                                    size_t num_deps) {
    if (num_deps == 0)
        return CGN_OK;
    if (deps == NULL)
        return cgn__fail(CGN_ERROR_INVALID_ARGUMENT, "adding a node: deps is NULL but num_deps "
                                                     "is %zu",
                         num_deps);
    txn->deps_buf = malloc(num_deps * sizeof *txn->deps_buf);
    if (txn->deps_buf == NULL)
        return cgn__fail(CGN_ERROR_OUT_OF_MEMORY, "adding a node: out of host memory");
    for (size_t i = 0; i < num_deps; i++) {
        const cgn_node *d = deps[i];
        if (d == NULL)
            return cgn__fail(CGN_ERROR_INVALID_ARGUMENT, "adding a node: dependency %zu is NULL",
                             i);
        if (!d->alive)
            return cgn__fail(CGN_ERROR_DESTROYED,
                             "adding a node: dependency %zu (node %p) has been destroyed", i,
                             (const void *)d);
        if (d->graph != graph)
            return cgn__fail(CGN_ERROR_INVALID_ARGUMENT,
                             "adding a node: dependency %zu (node %p) belongs to another graph", i,
                             (const void *)d);
        txn->deps_buf[i] = d->raw;
    }
    txn->deps = txn->deps_buf;
    txn->num_deps = num_deps;
    return CGN_OK;
}

cgn_status cgn__add_begin(cgn__txn *txn, cgn_graph *graph, cgn_node *const *deps, size_t num_deps,
                          cgn_node_type type, size_t state_size, int needs_context) {
    memset(txn, 0, sizeof *txn);
    txn->adding = 1;
    if (graph == NULL)
        return cgn__fail(CGN_ERROR_INVALID_ARGUMENT, "adding a %s node: graph is NULL",
                         cgn__node_type_name(type));
    if (!graph->alive)
        return cgn__fail(CGN_ERROR_DESTROYED,
                         "adding a %s node: the embedded graph %p was replaced or its child "
                         "node destroyed",
                         cgn__node_type_name(type), (void *)graph);
    cgn__collect_pending();
    CUcontext ctx = NULL;
    CUresult r = cgn__driver->cuCtxGetCurrent(&ctx);
    if (r != CUDA_SUCCESS)
        return cgn__fail_driver(r, "adding a node: cuCtxGetCurrent");
    if (needs_context && ctx == NULL)
        return cgn__fail(CGN_ERROR_NO_CONTEXT,
                         "adding a %s node: no CUDA context is current; make one current first "
                         "(e.g. cuDevicePrimaryCtxRetain + cuCtxSetCurrent)",
                         cgn__node_type_name(type));
    cgn_status st = cgn__reserve(&graph->nodes, &graph->cap_nodes, graph->num_nodes + 1,
                                 sizeof *graph->nodes, 16, "adding a node");
    if (st == CGN_OK)
        st = cgn__collect_deps(txn, graph, deps, num_deps);
    if (st == CGN_OK) {
        txn->node = calloc(1, sizeof *txn->node);
        txn->state = malloc(state_size ? state_size : 1);
        if (txn->node == NULL || txn->state == NULL)
            st = cgn__fail(CGN_ERROR_OUT_OF_MEMORY, "adding a node: out of host memory");
    }
    if (st != CGN_OK) {
        cgn__txn_rollback(txn);
        return st;
    }
    txn->node->graph = graph;
    txn->node->type = type;
    txn->node->ctx = ctx;
    txn->node->state_size = state_size;
    return CGN_OK;
}

cgn_status cgn__update_begin(cgn__txn *txn, cgn_node *node, int since, int switch_context) {
    /* The generated caller has checked the node; this is the hot path, so no second check
     * and only the fields an update uses are set. */
    txn->node = node;
    txn->adding = 0;
    txn->new_attachment = 0;
    txn->storage_set = 0;
    txn->embed_plan = NULL;
    txn->exec = NULL;
    txn->num_pending = 0;
    txn->switch_context = switch_context;
    txn->attachment = node->attachment;
    cgn__collect_pending();
    const cgn_driver_table *drv = cgn__driver;
    if (drv->version < since || drv->cuGraphNodeSetParams == NULL)
        return cgn__require_driver(since, drv->cuGraphNodeSetParams != NULL,
                                   "graph node updates");
    return CGN_OK;
}

cgn_status cgn__exec_update_begin(cgn__txn *txn, cgn_exec *exec, cgn_node *node, int since,
                                  int switch_context) {
    memset(txn, 0, sizeof *txn);
    txn->node = node;
    txn->exec = exec;
    txn->switch_context = switch_context;
    txn->attachment = NULL;
    cgn__collect_pending();
    const cgn_driver_table *drv = cgn__driver;
    if (drv->version < since || drv->cuGraphExecNodeSetParams == NULL)
        return cgn__require_driver(since, drv->cuGraphExecNodeSetParams != NULL,
                                   "executable node updates");
    return CGN_OK;
}

CUcontext cgn__txn_context(const cgn__txn *txn) { return txn->node->ctx; }

const void *cgn__txn_current_state(const cgn__txn *txn) { return txn->node->state; }

const void *cgn__txn_current_storage(const cgn__txn *txn) {
    return txn->adding ? NULL : txn->node->storage;
}

/* A storage block: this header, then the payload the node points at. */
typedef struct cgn__block_header {
    atomic_long refs;
    size_t size;
    alignas(16) unsigned char payload[];
} cgn__block_header;

static cgn__block_header *cgn__block_of(void *payload) {
    return (cgn__block_header *)((unsigned char *)payload - offsetof(cgn__block_header, payload));
}

void cgn__block_retain(void *block) {
    if (block)
        atomic_fetch_add_explicit(&cgn__block_of(block)->refs, 1, memory_order_relaxed);
}

void cgn__block_release(void *block) {
    if (block && atomic_fetch_sub_explicit(&cgn__block_of(block)->refs, 1,
                                           memory_order_acq_rel) == 1)
        free(cgn__block_of(block));
}

static int cgn__block_exclusive(void *block) {
    return atomic_load_explicit(&cgn__block_of(block)->refs, memory_order_acquire) == 1;
}

void *cgn__txn_storage(cgn__txn *txn, size_t size) {
    cgn_node *n = txn->node;
    /* An executable-level update needs the block only during the driver call, which copies it;
     * it leaves the node's blocks alone. */
    if (txn->exec == NULL && n->spare != NULL && cgn__block_of(n->spare)->size >= size) {
        txn->storage = n->spare;
        n->spare = NULL; /* given back at rollback */
    } else {
        cgn__block_header *h = malloc(sizeof *h + (size ? size : 1));
        if (h == NULL) {
            cgn__fail(CGN_ERROR_OUT_OF_MEMORY, "staging node parameters: out of host memory");
            return NULL;
        }
        atomic_init(&h->refs, 1);
        h->size = size;
        txn->storage = h->payload;
    }
    txn->storage_set = 1;
    return txn->storage;
}

static int cgn__same_owners(const cgn__attachment *a, cgn_owner *const *owners, size_t n,
                            const cgn_arg *args, size_t num_args) {
    size_t k = 0;
    size_t have = a ? a->num_owners : 0;
    for (size_t i = 0; i < n; i++)
        if (owners[i] != NULL && (k >= have || a->owners[k++] != owners[i]))
            return 0;
    for (size_t i = 0; i < num_args; i++)
        if (args[i].owner != NULL && (k >= have || a->owners[k++] != args[i].owner))
            return 0;
    return k == have;
}

/* Executable-level: the owners go into free slots of the executable's accumulator, retained
 * now (so a codec may drop its own reference), and count as appended only at commit. */
static cgn_status cgn__stage_exec_owners(cgn__txn *txn, cgn_owner *const *owners,
                                         size_t num_owners, const cgn_arg *args,
                                         size_t num_args) {
    cgn__attachment *acc = txn->exec->accum;
    size_t count = 0;
    for (size_t i = 0; i < num_owners; i++)
        count += owners[i] != NULL;
    for (size_t i = 0; i < num_args; i++)
        count += args[i].owner != NULL;
    txn->num_pending = 0;
    if (count == 0)
        return CGN_OK;
    cgn_status st = cgn__reserve(&acc->more, &acc->cap_more, acc->num_more + count,
                                 sizeof *acc->more, 8, "staging owners");
    if (st != CGN_OK)
        return st;
    cgn_owner **slot = acc->more + acc->num_more;
    for (size_t i = 0; i < num_owners; i++)
        if (owners[i] != NULL)
            *slot++ = owners[i];
    for (size_t i = 0; i < num_args; i++)
        if (args[i].owner != NULL)
            *slot++ = args[i].owner;
    for (size_t i = 0; i < count; i++)
        cgn__owner_retain(acc->more[acc->num_more + i]);
    txn->num_pending = count;
    return CGN_OK;
}

cgn_status cgn__txn_stage_owners(cgn__txn *txn, cgn_owner *const *owners, size_t num_owners,
                                 const cgn_arg *args, size_t num_args) {
    if (txn->exec != NULL)
        return cgn__stage_exec_owners(txn, owners, num_owners, args, num_args);
    cgn__attachment *current = txn->adding ? NULL : txn->node->attachment;
    /* The common update (new grid, new scalar) keeps its owners: no user object at all. */
    if (cgn__same_owners(current, owners, num_owners, args, num_args)) {
        txn->attachment = current;
        return CGN_OK;
    }
    size_t count = 0;
    for (size_t i = 0; i < num_owners; i++)
        count += owners[i] != NULL;
    for (size_t i = 0; i < num_args; i++)
        count += args[i].owner != NULL;
    if (count == 0) { /* no owners: no user object; commit drops the current one, if any */
        txn->attachment = NULL;
        return CGN_OK;
    }
    cgn__attachment *a = malloc(sizeof *a + count * sizeof a->owners[0]);
    if (a == NULL)
        return cgn__fail(CGN_ERROR_OUT_OF_MEMORY, "staging owners: out of host memory");
    a->next_released = NULL;
    a->more = NULL;
    a->num_more = a->cap_more = 0;
    a->num_owners = 0;
    for (size_t i = 0; i < num_owners; i++)
        if (owners[i] != NULL)
            a->owners[a->num_owners++] = owners[i];
    for (size_t i = 0; i < num_args; i++)
        if (args[i].owner != NULL)
            a->owners[a->num_owners++] = args[i].owner;
    const cgn_driver_table *drv = cgn__driver;
    CUresult r = drv->cuUserObjectCreate(&a->object, a, cgn__attachment_released, 1,
                                         CU_USER_OBJECT_NO_DESTRUCTOR_SYNC);
    if (r != CUDA_SUCCESS) {
        free(a);
        return cgn__fail_driver(r, "staging owners: cuUserObjectCreate");
    }
    /* Owners are retained only once the user object exists, so every failure path below
     * releases exactly what it took. */
    for (size_t i = 0; i < a->num_owners; i++)
        cgn__owner_retain(a->owners[i]);
    r = drv->cuGraphRetainUserObject(txn->node->graph->raw, a->object, 1,
                                     CU_GRAPH_USER_OBJECT_MOVE);
    if (r != CUDA_SUCCESS) {
        for (size_t i = 0; i < a->num_owners; i++)
            cgn__owner_release(a->owners[i]);
        a->num_owners = 0; /* the destructor frees an empty shell whenever it runs */
        (void)drv->cuUserObjectRelease(a->object, 1);
        return cgn__fail_driver(r, "staging owners: cuGraphRetainUserObject");
    }
    txn->attachment = a;
    txn->new_attachment = 1;
    return CGN_OK;
}

static CUresult cgn__add_raw(const cgn_driver_table *drv, cgn__txn *txn,
                             const CUgraphNodeParams *p, const char **entry) {
    CUgraphNode *out = &txn->node->raw;
    CUgraph g = txn->node->graph->raw;
    const CUgraphNode *d = txn->deps;
    size_t nd = txn->num_deps;
    /* The typed adders exist from 12.0 on, so graph building works on drivers without the
     * generic cuGraphAddNode (12.2). */
    switch (p->type) {
    case CU_GRAPH_NODE_TYPE_KERNEL:
        *entry = "cuGraphAddKernelNode";
        return drv->cuGraphAddKernelNode(out, g, d, nd,
                                         (const CUDA_KERNEL_NODE_PARAMS_v2 *)&p->kernel);
    case CU_GRAPH_NODE_TYPE_MEMSET: {
        CUDA_MEMSET_NODE_PARAMS_v1 m = {p->memset.dst,         p->memset.pitch,
                                        p->memset.value,       p->memset.elementSize,
                                        p->memset.width,       p->memset.height};
        *entry = "cuGraphAddMemsetNode";
        return drv->cuGraphAddMemsetNode(out, g, d, nd, &m, p->memset.ctx);
    }
    case CU_GRAPH_NODE_TYPE_MEMCPY:
        *entry = "cuGraphAddMemcpyNode";
        return drv->cuGraphAddMemcpyNode(out, g, d, nd, &p->memcpy.copyParams,
                                         p->memcpy.copyCtx);
    case CU_GRAPH_NODE_TYPE_HOST: {
        CUDA_HOST_NODE_PARAMS_v1 h = {p->host.fn, p->host.userData};
        *entry = "cuGraphAddHostNode";
        return drv->cuGraphAddHostNode(out, g, d, nd, &h);
    }
    case CU_GRAPH_NODE_TYPE_GRAPH:
        *entry = "cuGraphAddChildGraphNode";
        return drv->cuGraphAddChildGraphNode(out, g, d, nd, p->graph.graph);
    case CU_GRAPH_NODE_TYPE_EVENT_RECORD:
        *entry = "cuGraphAddEventRecordNode";
        return drv->cuGraphAddEventRecordNode(out, g, d, nd, p->eventRecord.event);
    case CU_GRAPH_NODE_TYPE_WAIT_EVENT:
        *entry = "cuGraphAddEventWaitNode";
        return drv->cuGraphAddEventWaitNode(out, g, d, nd, p->eventWait.event);
    case CU_GRAPH_NODE_TYPE_EMPTY:
        *entry = "cuGraphAddEmptyNode";
        return drv->cuGraphAddEmptyNode(out, g, d, nd);
    default:
        *entry = "adding a node";
        return CUDA_ERROR_NOT_SUPPORTED;
    }
}

static CUresult cgn__set_raw(const cgn_driver_table *drv, cgn__txn *txn, CUgraphNodeParams *p,
                             const char **entry) {
    cgn_node *n = txn->node;
    CUresult r;
    /* Updates run in the node's own context whatever the caller has current. Node types whose
     * params carry their context (kernels) skip the query on this hot path. */
    int switch_ctx = 0;
    if (txn->switch_context && n->ctx != NULL) {
        CUcontext current = NULL;
        *entry = "cuCtxGetCurrent";
        r = drv->cuCtxGetCurrent(&current);
        if (r != CUDA_SUCCESS)
            return r;
        switch_ctx = current != n->ctx;
    }
    if (switch_ctx) {
        *entry = "cuCtxPushCurrent";
        r = drv->cuCtxPushCurrent(n->ctx);
        if (r != CUDA_SUCCESS)
            return r;
    }
    if (txn->exec != NULL) {
        *entry = "cuGraphExecNodeSetParams";
        r = drv->cuGraphExecNodeSetParams(txn->exec->raw, n->raw, p);
    } else {
        *entry = "cuGraphNodeSetParams";
        r = drv->cuGraphNodeSetParams(n->raw, p);
    }
    if (switch_ctx) {
        /* Popping what this thread just pushed cannot fail short of a corrupted stack. */
        CUcontext popped;
        (void)drv->cuCtxPopCurrent(&popped);
    }
    return r;
}

/* The failure path, kept out of line so the hot path carries no message buffer. */
#if defined(__GNUC__) || defined(__clang__)
__attribute__((noinline, cold))
#endif
static cgn_status cgn__txn_apply_failed(cgn__txn *txn, CUresult r, const char *what,
                                        const char *entry) {
    cgn__txn_rollback(txn);
    char buf[128];
    snprintf(buf, sizeof buf, "%s: %s", what, entry);
    return cgn__fail_driver(r, buf);
}

cgn_status cgn__txn_apply(cgn__txn *txn, CUgraphNodeParams *params, const char *what) {
    const cgn_driver_table *drv = cgn__driver;
    const char *entry = "";
    CUresult r = txn->adding ? cgn__add_raw(drv, txn, params, &entry)
                             : cgn__set_raw(drv, txn, params, &entry);
    if (r == CUDA_SUCCESS)
        return CGN_OK;
    return cgn__txn_apply_failed(txn, r, what, entry);
}

void cgn__txn_commit(cgn__txn *txn, const void *state, size_t state_size, cgn_node **node_out) {
    cgn_node *n = txn->node;
    if (txn->exec != NULL) { /* the definition is not touched */
        txn->exec->accum->num_more += txn->num_pending;
        if (txn->storage_set)
            cgn__block_release(txn->storage);
        return;
    }
    if (txn->adding) {
        n->state = txn->state;
        n->alive = 1;
        n->graph->nodes[n->graph->num_nodes++] = n; /* slot reserved in cgn__add_begin */
        free(txn->deps_buf);
    }
    if (state_size)
        memcpy(n->state, state, state_size);
    if (txn->storage_set) {
        void *old = n->storage;
        n->storage = txn->storage;
        if (old != NULL && cgn__block_exclusive(old)) {
            cgn__block_release(n->spare);
            n->spare = old; /* reused by the next update */
        } else {
            cgn__block_release(old); /* still shared with an embedded copy */
        }
    }
    if (txn->embed_plan != NULL)
        cgn__commit_embedding(txn);
    if (txn->new_attachment) {
        /* Publish the new version before dropping the graph's reference to the old one: that
         * release can make the old owners eligible for release. */
        cgn__attachment *old = n->attachment;
        n->attachment = txn->attachment;
        if (old != NULL)
            (void)cgn__driver->cuGraphReleaseUserObject(n->graph->raw, old->object, 1);
    } else if (txn->attachment == NULL && n->attachment != NULL) {
        /* The new version has no owners at all. */
        cgn__attachment *old = n->attachment;
        n->attachment = NULL;
        (void)cgn__driver->cuGraphReleaseUserObject(n->graph->raw, old->object, 1);
    }
    if (node_out)
        *node_out = n;
}

void cgn__txn_rollback(cgn__txn *txn) {
    cgn_node *n = txn->node;
    if (txn->exec != NULL) {
        cgn__attachment *acc = txn->exec->accum;
        for (size_t i = 0; i < txn->num_pending; i++)
            cgn__owner_release(acc->more[acc->num_more + i]);
        if (txn->storage_set)
            cgn__block_release(txn->storage);
        memset(txn, 0, sizeof *txn);
        return;
    }
    if (txn->new_attachment) {
        cgn__attachment *a = txn->attachment;
        for (size_t i = 0; i < a->num_owners; i++)
            cgn__owner_release(a->owners[i]);
        a->num_owners = 0; /* the destructor frees an empty shell whenever it runs */
        (void)cgn__driver->cuGraphReleaseUserObject(n->graph->raw, a->object, 1);
    }
    if (txn->storage_set) {
        if (n != NULL && n->spare == NULL && !txn->adding)
            n->spare = txn->storage;
        else
            cgn__block_release(txn->storage);
    }
    if (txn->embed_plan != NULL)
        cgn__discard_embedding(txn->embed_plan);
    if (txn->adding) {
        free(txn->deps_buf);
        free(txn->state);
        free(n);
    }
    memset(txn, 0, sizeof *txn);
}
