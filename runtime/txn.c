/* The update transaction: validate -> prepare -> apply (one driver mutation) -> commit, or
 * rollback. Everything that can fail happens before the mutation; commit only publishes.
 * The same transaction serves definition updates, adds and executable-level updates; the
 * latter read and write only the executable's own copy of the node (cgn__shadow). */
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
    size_t grown_cap = *cap ? *cap : first;
    while (grown_cap < need) {
        if (grown_cap > SIZE_MAX / 2)
            return cgn__fail(CGN_ERROR_OUT_OF_MEMORY, "%s: %zu elements do not fit in memory",
                             where, need);
        grown_cap *= 2;
    }
    size_t bytes;
    if (!cgn__mul_size(grown_cap, elem_size, &bytes))
        return cgn__fail(CGN_ERROR_OUT_OF_MEMORY, "%s: %zu elements do not fit in memory",
                         where, need);
    void **slot = array;
    void *grown = realloc(*slot, bytes);
    if (grown == NULL)
        return cgn__fail(CGN_ERROR_OUT_OF_MEMORY, "%s: out of host memory", where);
    *slot = grown;
    *cap = grown_cap;
    return CGN_OK;
}

/* ---- the caller's context -------------------------------------------------------------------- */

void cgn__restore_context(CUcontext saved) {
    const cgn_driver_table *drv = cgn__driver;
    /* Bounded: a driver call that left several contexts pushed (seen on the H200 after it
     * refused a CUfunction of another context) needs one pop each. */
    for (int i = 0; i < 8; i++) {
        CUcontext now = NULL;
        if (drv->cuCtxGetCurrent(&now) != CUDA_SUCCESS || now == saved)
            return;
        if (saved == NULL) {
            CUcontext popped;
            if (drv->cuCtxPopCurrent(&popped) != CUDA_SUCCESS)
                (void)drv->cuCtxSetCurrent(NULL);
        } else {
            (void)drv->cuCtxSetCurrent(saved);
        }
    }
}

/* Puts the caller's context back if a driver call (or a push of ours) changed it. Cannot fail
 * short of a broken driver: the update's outcome stands either way. */
static void cgn__txn_leave(cgn__txn *txn) {
    const cgn_driver_table *drv = cgn__driver;
    if (txn->ctx_pushed) {
        CUcontext popped;
        (void)drv->cuCtxPopCurrent(&popped);
        txn->ctx_pushed = 0;
    }
    if (txn->ctx_check) {
        cgn__restore_context(txn->saved_ctx);
        txn->ctx_check = 0;
    }
}

cgn_status cgn__lean_context_failed(CUresult r, const char *where) {
    char what[128];
    snprintf(what, sizeof what, "%s: cuCtxGetCurrent", where);
    return cgn__fail_driver(r, what);
}

cgn_status cgn__txn_enter(cgn__txn *txn, const char *where) {
    CUcontext node_ctx = txn->exec ? txn->shadow->ctx : txn->node->ctx;
    const cgn_driver_table *drv = cgn__driver;
    CUcontext current = NULL;
    if (txn->ctx_known) { /* a lean path asked, and nothing has called the driver since */
        current = txn->known_current;
    } else {
        CUresult r = drv->cuCtxGetCurrent(&current);
        if (r != CUDA_SUCCESS)
            return cgn__lean_context_failed(r, where);
    }
    txn->saved_ctx = current;
    /* With no context current, a driver call may make one current (seen on the H200): compare
     * at the end and put the caller's state back. */
    txn->ctx_check = current == NULL;
    if (node_ctx == NULL || node_ctx == current)
        return CGN_OK; /* the common case: one query, nothing to undo */
    CUresult r = drv->cuCtxPushCurrent(node_ctx);
    if (r != CUDA_SUCCESS) {
        char what[128];
        snprintf(what, sizeof what, "%s: cuCtxPushCurrent", where);
        return cgn__fail_driver(r, what);
    }
    txn->ctx_pushed = 1;
    txn->ctx_check = 1;
    return CGN_OK;
}

/* ---- add ------------------------------------------------------------------------------------ */

static cgn_status cgn__collect_deps(cgn__txn *txn, cgn__graph_rec *graph, cgn_node *const *deps,
                                    size_t num_deps, const char *where) {
    if (num_deps == 0)
        return CGN_OK;
    if (deps == NULL)
        return cgn__fail(CGN_ERROR_INVALID_ARGUMENT, "%s: deps is NULL but num_deps is %zu",
                         where, num_deps);
    if (num_deps > SIZE_MAX / sizeof(CUgraphNode) || num_deps > SIZE_MAX / sizeof(cgn__handle))
        return cgn__fail(CGN_ERROR_OUT_OF_RANGE, "%s: num_deps %zu is too large", where,
                         num_deps);
    txn->deps_buf = malloc(num_deps * sizeof *txn->deps_buf);
    txn->dep_handles = malloc(num_deps * sizeof *txn->dep_handles);
    if (txn->deps_buf == NULL || txn->dep_handles == NULL)
        return cgn__fail(CGN_ERROR_OUT_OF_MEMORY, "%s: out of host memory", where);
    for (size_t i = 0; i < num_deps; i++) {
        void *rec = NULL;
        cgn__lookup r = cgn__handle_lookup(deps[i], CGN__KIND_NODE, &rec);
        if (r != CGN__LOOKUP_OK) {
            char what[48];
            snprintf(what, sizeof what, "dependency %zu", i);
            return cgn__lookup_failed(r, deps[i], what, where);
        }
        const cgn__node_rec *d = rec;
        if (d == NULL || d->graph != graph)
            return cgn__fail(CGN_ERROR_INVALID_ARGUMENT,
                             "%s: dependency %zu (node %p) belongs to another graph", where, i,
                             (const void *)deps[i]);
        txn->deps_buf[i] = d->raw;
        txn->dep_handles[i] = d->handle;
    }
    txn->deps = txn->deps_buf;
    txn->num_deps = num_deps;
    return CGN_OK;
}

cgn_status cgn__add_begin(cgn__txn *txn, cgn_graph *graph, cgn_node *const *deps, size_t num_deps,
                          cgn_node_type type, size_t state_size, int needs_context,
                          const char *where) {
    memset(txn, 0, sizeof *txn);
    txn->adding = 1;
    cgn__graph_rec *g = NULL;
    cgn_status st = cgn__graph_get(graph, where, &g);
    if (st != CGN_OK)
        return st;
    if (g->root != g && cgn__is_memory_node_type(type))
        return cgn__fail(CGN_ERROR_NOT_SUPPORTED,
                         "%s: graph %p is embedded in a child-graph node, and CUDA does not allow "
                         "%s nodes in a child graph",
                         where, (void *)graph, cgn__node_type_name(type));
    cgn__collect_pending();
    CUcontext ctx = NULL;
    CUresult r = cgn__driver->cuCtxGetCurrent(&ctx);
    if (r != CUDA_SUCCESS) {
        char what[128];
        snprintf(what, sizeof what, "%s: cuCtxGetCurrent", where);
        return cgn__fail_driver(r, what);
    }
    if (needs_context && ctx == NULL)
        return cgn__fail(CGN_ERROR_NO_CONTEXT,
                         "%s: no CUDA context is current; make one current first (e.g. "
                         "cuDevicePrimaryCtxRetain + cuCtxSetCurrent)",
                         where);
    st = cgn__reserve(&g->nodes, &g->cap_nodes, g->num_nodes + 1, sizeof *g->nodes, 16, where);
    if (st == CGN_OK)
        st = cgn__collect_deps(txn, g, deps, num_deps, where);
    if (st == CGN_OK) {
        /* The state right after the record, next to the fields updates read (runtime.h). */
        _Static_assert(sizeof(cgn__node_rec) % 16 == 0, "the state after it is aligned");
        txn->node = calloc(1, sizeof *txn->node + (state_size ? state_size : 1));
        if (txn->node == NULL) {
            st = cgn__fail(CGN_ERROR_OUT_OF_MEMORY, "%s: out of host memory", where);
        } else {
            txn->node->packed = CGN__PACKED_STATE;
            txn->state = txn->node + 1;
        }
    }
    if (st == CGN_OK)
        st = cgn__handle_new(CGN__KIND_NODE, NULL, &txn->node->handle, where);
    if (st != CGN_OK) {
        cgn__txn_rollback(txn);
        return st;
    }
    txn->node->graph = g;
    txn->node->type = type;
    txn->node->ctx = ctx;
    txn->cur_ctx = ctx; /* the context a new node is added in (cgn__txn_context) */
    txn->node->state_size = state_size;
    txn->saved_ctx = ctx;
    txn->ctx_check = ctx == NULL; /* see cgn__txn_enter */
    return CGN_OK;
}

/* ---- update ------------------------------------------------------------------------------- */

cgn_status cgn__update_begin_checked(cgn__txn *txn, cgn_node *node, cgn_node_type type,
                                     int since, const char *where) {
    cgn__node_rec *n = NULL;
    cgn_status st = cgn__check_node(node, type, where, &n);
    if (st != CGN_OK)
        return st;
    cgn__txn_start_update(txn, n, NULL, NULL);
    const cgn_driver_table *drv = cgn__driver;
    if (drv->version < since || drv->cuGraphNodeSetParams == NULL)
        return cgn__require_driver(since, drv->cuGraphNodeSetParams != NULL,
                                   "graph node updates");
    return CGN_OK;
}

cgn_status cgn__exec_update_begin_checked(cgn__txn *txn, cgn_exec *exec, cgn_node *node,
                                          cgn_node_type type, int since, const char *where) {
    cgn__exec_rec *e = NULL;
    cgn__shadow *s = NULL;
    void *rec = NULL;
    cgn_status st = cgn__exec_node(exec, node, where, &e, &s, &rec);
    if (st != CGN_OK)
        return st;
    if (s->unsupported != NULL && (s->type == type || s->type == CGN_NODE_OTHER))
        return cgn__unsupported(node, s->unsupported, where); /* adopted, not updatable */
    if (s->type != type)
        return cgn__fail(CGN_ERROR_WRONG_NODE_TYPE, "%s: node %p is a %s node", where,
                         (const void *)node, cgn__node_type_name(s->type));
    /* rec is NULL once the graph is gone: exec-level code never reads txn->node */
    cgn__txn_start_update(txn, rec, e, s);
    const cgn_driver_table *drv = cgn__driver;
    if (since > 0 && (drv->version < since || drv->cuGraphExecNodeSetParams == NULL))
        return cgn__require_driver(since, drv->cuGraphExecNodeSetParams != NULL,
                                   "executable node updates");
    return CGN_OK;
}


/* ---- storage blocks -------------------------------------------------------------------------- */

/* Many storage blocks cut from one allocation (adoption: a kernel's argument block per node):
 * freed when its last block and its maker are done with it. */
struct cgn__arena {
    atomic_long live; /* blocks not yet released, plus one while the maker cuts from it */
    size_t used, cap;
    alignas(16) unsigned char data[];
};

static void cgn__arena_unref(cgn__arena *a) {
    if (atomic_fetch_sub_explicit(&a->live, 1, memory_order_acq_rel) == 1)
        free(a);
}

void cgn__arena_done(cgn__arena *a) {
    if (a != NULL)
        cgn__arena_unref(a);
}

#define CGN__ARENA_BYTES ((size_t)64 * 1024)

void *cgn__arena_block(cgn__arena **arena, size_t size) {
    size_t bytes;
    if (!cgn__add_size(size ? size : 1, sizeof(cgn__block_header) + 15, &bytes)) {
        cgn__fail(CGN_ERROR_OUT_OF_RANGE, "staging node parameters: %zu bytes is too large", size);
        return NULL;
    }
    bytes &= ~(size_t)15; /* the next block's header stays 16-aligned */
    cgn__arena *a = *arena;
    if (a == NULL || a->cap - a->used < bytes) {
        /* 4 KiB first, doubling to 64 KiB: a small graph holds little, a big one allocates
         * rarely. */
        size_t cap = a == NULL ? 4096 : a->cap < CGN__ARENA_BYTES / 2 ? 2 * a->cap
                                                                       : CGN__ARENA_BYTES;
        if (cap < bytes)
            cap = bytes;
        cgn__arena *fresh = malloc(sizeof *fresh + cap);
        if (fresh == NULL) {
            cgn__fail(CGN_ERROR_OUT_OF_MEMORY, "staging node parameters: out of host memory");
            return NULL;
        }
        atomic_init(&fresh->live, 1); /* the maker's */
        fresh->used = 0;
        fresh->cap = cap;
        cgn__arena_done(a); /* the full one lives on through its blocks */
        *arena = a = fresh;
    }
    cgn__block_header *h = (cgn__block_header *)(void *)(a->data + a->used);
    a->used += bytes;
    atomic_fetch_add_explicit(&a->live, 1, memory_order_relaxed);
    atomic_init(&h->refs, 1);
    h->size = size;
    h->arena = a;
    h->serial = h->takes = 0;
    return h->payload;
}

void cgn__block_retain(void *block) {
    if (block)
        atomic_fetch_add_explicit(&cgn__block_of(block)->refs, 1, memory_order_relaxed);
}

void cgn__block_release(void *block) {
    if (block && atomic_fetch_sub_explicit(&cgn__block_of(block)->refs, 1,
                                           memory_order_acq_rel) == 1) {
        cgn__block_header *h = cgn__block_of(block);
        if (h->arena != NULL)
            cgn__arena_unref(h->arena);
        else
            free(h);
    }
}

void *cgn__block_new(size_t size) {
    size_t bytes;
    if (!cgn__add_size(size ? size : 1, sizeof(cgn__block_header), &bytes)) {
        cgn__fail(CGN_ERROR_OUT_OF_RANGE, "staging node parameters: %zu bytes is too large", size);
        return NULL;
    }
    cgn__block_header *h = malloc(bytes);
    if (h == NULL) {
        cgn__fail(CGN_ERROR_OUT_OF_MEMORY, "staging node parameters: out of host memory");
        return NULL;
    }
    atomic_init(&h->refs, 1);
    h->size = size;
    h->arena = NULL;
    h->serial = h->takes = 0;
    return h->payload;
}

cgn__block_stamp cgn__block_stamp_of(const void *block) {
    const cgn__block_header *h = cgn__block_of((void *)(uintptr_t)block);
    return (cgn__block_stamp){h->serial, h->takes};
}

int cgn__block_stamped(const void *block, cgn__block_stamp stamp) {
    const cgn__block_header *h = cgn__block_of((void *)(uintptr_t)block);
    return stamp.serial != 0 && h->serial == stamp.serial && h->takes == stamp.takes;
}

const CUgraphNodeParams cgn__zero_params;

/* Block serials: unique for the process's life (2^64 takes of first blocks never wrap). */
static atomic_uint_fast64_t cgn__block_serials;

void *cgn__txn_storage_slow(cgn__txn *txn, size_t size) {
    void **spare = cgn__txn_spare_slot(txn);
    if (spare != NULL && *spare != NULL && cgn__block_of(*spare)->size >= size) {
        txn->storage = *spare;
        *spare = NULL; /* given back at rollback */
    } else {
        void *fresh = cgn__block_new(size);
        if (fresh == NULL)
            return NULL;
        txn->storage = fresh;
    }
    /* Counted before any write: a block given back at rollback no longer matches the stamp a
     * block derived from it recorded (cgn__kargs_header.base_stamp). */
    cgn__block_header *h = cgn__block_of(txn->storage);
    if (h->serial == 0) /* its first take: the steady state alternates two stamped blocks */
        h->serial = atomic_fetch_add_explicit(&cgn__block_serials, 1, memory_order_relaxed) + 1;
    h->takes++;
    txn->storage_set = 1;
    return txn->storage;
}

/* Swaps in the new block; the old one becomes the spare when nothing else holds it. In the
 * steady state of an update loop the spare was just taken, so this is two pointer moves. */
void cgn__txn_publish_storage(cgn__txn *txn) {
    if (txn->adding) { /* a new node has no block to replace */
        txn->node->storage = txn->storage;
        return;
    }
    void *old = *txn->storage_slot;
    *txn->storage_slot = txn->storage;
    if (old == NULL)
        return;
    if (cgn__block_exclusive(old)) {
        if (*txn->spare_slot != NULL) /* (no call in the steady state) */
            cgn__block_release(*txn->spare_slot);
        *txn->spare_slot = old; /* reused by the next update */
    } else {
        cgn__block_release(old); /* still shared with an embedding or another executable */
    }
}

/* ---- owners --------------------------------------------------------------------------------- */

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

cgn_status cgn__txn_stage_owners_list(cgn__txn *txn, cgn_owner *const *owners,
                                      size_t num_owners, const cgn_arg *args, size_t num_args) {
    cgn__attachment *current = cgn__txn_current_attachment(txn);
    /* The common update (new grid, new scalar) keeps its owners: nothing to do. */
    if (cgn__same_owners(current, owners, num_owners, args, num_args)) {
        txn->attachment = current;
        return CGN_OK;
    }
    size_t count = cgn__owner_list(NULL, owners, num_owners, args, num_args);
    if (count == 0) { /* no owners: commit drops the current version's, if any */
        txn->attachment = NULL;
        return CGN_OK;
    }
    if (txn->exec == NULL && cgn__attachment_graphs_alone(txn->node, current, count)) {
        /* Only the graph holds the current version's user object, and only the graph reads
         * the version: commit replaces its owners in place, with no driver call. */
        size_t k = cgn__owner_list(txn->reuse, owners, num_owners, args, num_args);
        /* Retained now, as a new attachment's are: a copy cgn staged (a payload) is held by
         * its owner alone once the generated code settles it. */
        for (size_t i = 0; i < k; i++)
            cgn__owner_retain(txn->reuse[i]);
        txn->num_reuse = k;
        txn->attachment = current;
        txn->new_attachment = 2;
        return CGN_OK;
    }
    cgn__attachment *a = cgn__attachment_new(count);
    if (a == NULL)
        return cgn__fail(CGN_ERROR_OUT_OF_MEMORY, "staging owners: out of host memory");
    a->num_owners = cgn__owner_list(a->owners, owners, num_owners, args, num_args);
    if (txn->exec != NULL) {
        /* Executables cannot hold user objects: the executable's copy of the node holds this
         * version's reference, and retires it once no launch can read it (exec.c). */
        for (size_t i = 0; i < a->num_owners; i++)
            cgn__owner_retain(a->owners[i]);
        txn->attachment = a;
        txn->new_attachment = 1;
        return CGN_OK;
    }
    const cgn_driver_table *drv = cgn__driver;
    a->share_epoch = txn->node->graph->root->share_epoch;
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

/* ---- the mutation ---------------------------------------------------------------------------- */

static CUresult cgn__add_raw(const cgn_driver_table *drv, cgn__txn *txn, CUgraphNodeParams *p,
                             const char **entry) {
    CUgraphNode *out = &txn->node->raw;
    CUgraph g = txn->node->graph->raw;
    /* The typed adders (spec: cuda.add) exist from 12.0 on, so graph building works on
     * drivers without the generic cuGraphAddNode (12.2). Empty nodes have no spec. */
    const cgn__node_type_info *info = &cgn__node_types[txn->node->type];
    if (txn->node->type == CGN_NODE_EMPTY) {
        *entry = "cuGraphAddEmptyNode";
        return drv->cuGraphAddEmptyNode(out, g, txn->deps, txn->num_deps);
    }
    if (info->add == NULL || info->cu_type != p->type) {
        *entry = "adding a node";
        return CUDA_ERROR_NOT_SUPPORTED;
    }
    *entry = info->add_entry;
    return info->add(drv, out, g, txn->deps, txn->num_deps, p);
}

/* The failure path, kept out of line so the hot path carries no message buffer. */
#if defined(__GNUC__) || defined(__clang__)
__attribute__((noinline, cold))
#endif
cgn_status cgn__txn_apply_failed(cgn__txn *txn, CUresult r, const char *what,
                                 const char *entry) {
    cgn__txn_rollback(txn);
    return cgn__lean_apply_failed(r, what, entry);
}

cgn_status cgn__lean_apply_failed(CUresult r, const char *what, const char *entry) {
    char buf[128];
    snprintf(buf, sizeof buf, "%s: %s", what, entry);
    return cgn__fail_driver(r, buf);
}

cgn_status cgn__txn_apply(cgn__txn *txn, CUgraphNodeParams *params, const char *what) {
    const cgn_driver_table *drv = cgn__driver;
    const char *entry;
    CUresult r;
    if (txn->adding) {
        r = cgn__add_raw(drv, txn, params, &entry);
    } else if (txn->exec != NULL) {
        entry = "cuGraphExecNodeSetParams";
        r = drv->cuGraphExecNodeSetParams(txn->exec->raw, txn->shadow->raw, params);
    } else {
        entry = "cuGraphNodeSetParams";
        r = drv->cuGraphNodeSetParams(txn->node->raw, params);
    }
    if (r == CUDA_SUCCESS)
        return CGN_OK;
    return cgn__txn_apply_failed(txn, r, what, entry);
}

/* ---- commit and rollback --------------------------------------------------------------------- */

static void cgn__exec_commit(cgn__txn *txn, const void *state, size_t state_size) {
    cgn__shadow *s = txn->shadow;
    if (state_size)
        memcpy(s->state, state, state_size);
    if (txn->storage_set)
        cgn__txn_publish_storage(txn);
    if (txn->attachment != s->attachment)
        cgn__exec_install(txn->exec, s, txn->attachment);
    if (txn->embed_plan != NULL) /* exec-level child graph: the source graph's record */
        cgn__exec_retake_child(txn->exec, s, txn->embed_plan);
    txn->embed_plan = NULL;
}

void cgn__txn_commit(cgn__txn *txn, const void *state, size_t state_size, cgn_node **node_out) {
    cgn__node_rec *n = txn->node;
    if (txn->exec != NULL) {
        cgn__exec_commit(txn, state, state_size);
        cgn__txn_leave(txn);
        return;
    }
    if (txn->adding) {
        cgn__graph_rec *g = n->graph;
        n->state = txn->state;
        n->deps = txn->dep_handles;
        n->num_deps = txn->num_deps;
        n->index = g->num_nodes;
        g->nodes[g->num_nodes++] = n; /* slot reserved in cgn__add_begin */
        cgn__handle_set_record(n->handle, n);
        free(txn->deps_buf);
    }
    if (state_size)
        memcpy(n->state, state, state_size);
    if (txn->storage_set)
        cgn__txn_publish_storage(txn);
    if (txn->embed_plan != NULL)
        cgn__commit_embedding(txn);
    /* Owners replaced in place: released once the caller's context is back (their release
     * callbacks may call CUDA), as a drain would. */
    cgn_owner *released[CGN__REUSE_OWNERS] = {NULL}; /* initialised: gcc 13 -O3 cannot tell */
    size_t num_released = 0;
    if (txn->new_attachment == 2) { /* the new owners, retained when staged, replace the old */
        num_released =
            cgn__attachment_replace_owners(txn->attachment, txn->reuse, txn->num_reuse, released);
    } else if (txn->new_attachment || (txn->attachment == NULL && n->attachment != NULL)) {
        /* Publish the new version (or none) before dropping the graph's reference to the old
         * one: that release can make the old owners eligible for release. */
        cgn__attachment *old = n->attachment;
        n->attachment = txn->attachment;
        if (old != NULL)
            (void)cgn__driver->cuGraphReleaseUserObject(n->graph->raw, old->object, 1);
    }
    cgn__txn_leave(txn);
    for (size_t i = 0; i < num_released; i++)
        cgn__owner_release(released[i]);
    if (node_out)
        *node_out = cgn__node_handle(n);
}

void cgn__txn_rollback(cgn__txn *txn) {
    cgn__node_rec *n = txn->node;
    if (txn->new_attachment == 2) { /* owners staged for the current attachment */
        for (size_t i = 0; i < txn->num_reuse; i++)
            cgn__owner_release(txn->reuse[i]);
    } else if (txn->new_attachment) {
        cgn__attachment *a = txn->attachment;
        if (a->object == NULL) { /* executable-level: no user object */
            cgn__attachment_unref(a);
        } else {
            for (size_t i = 0; i < a->num_owners; i++)
                cgn__owner_release(a->owners[i]);
            a->num_owners = 0; /* the destructor frees an empty shell whenever it runs */
            (void)cgn__driver->cuGraphReleaseUserObject(n->graph->raw, a->object, 1);
        }
    }
    if (txn->storage_set) {
        void **spare = cgn__txn_spare_slot(txn);
        if (spare != NULL && *spare == NULL)
            *spare = txn->storage;
        else
            cgn__block_release(txn->storage);
    }
    if (txn->embed_plan != NULL && txn->exec == NULL)
        cgn__discard_embedding(txn->embed_plan);
    if (txn->adding) {
        free(txn->deps_buf);
        free(txn->dep_handles);
        if (n != NULL && n->handle != 0)
            cgn__handle_free(n->handle);
        free(n);
    }
    cgn__txn_leave(txn);
    memset(txn, 0, sizeof *txn);
}
