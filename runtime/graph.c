/* Graph and node records, handles and hierarchies. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "runtime.h"

/* ---- lookups --------------------------------------------------------------------------------- */

cgn_status cgn__graph_get(const cgn_graph *graph, const char *where, cgn__graph_rec **out) {
    void *rec = NULL;
    cgn__lookup r = cgn__handle_lookup(graph, CGN__KIND_GRAPH, &rec);
    if (r != CGN__LOOKUP_OK)
        return cgn__lookup_failed(r, graph, "graph", where);
    *out = rec;
    return CGN_OK;
}

cgn_status cgn__check_node(const cgn_node *node, cgn_node_type type, const char *where,
                           cgn__node_rec **out) {
    void *rec = NULL;
    cgn__lookup r = cgn__handle_lookup(node, CGN__KIND_NODE, &rec);
    if (r != CGN__LOOKUP_OK)
        return cgn__lookup_failed(r, node, "node", where);
    cgn__node_rec *n = rec;
    if (type != CGN_NODE_TYPE_COUNT_ && cgn__node_usable_as(n, type)) {
        *out = n;
        return CGN_OK;
    }
    if (n == NULL) /* kept only for executables made before its graph was destroyed */
        return cgn__fail(CGN_ERROR_DESTROYED,
                         "%s: the graph of node %p has been destroyed; only executables made "
                         "from it can still update the node",
                         where, (const void *)node);
    /* An adopted node cgn does not update: of a CUDA type it does not know (any typed call),
     * or of a known type in another form. */
    if (type != CGN_NODE_TYPE_COUNT_ && n->unsupported != NULL &&
        (n->type == type || n->type == CGN_NODE_OTHER))
        return cgn__unsupported(node, n->unsupported, where);
    if (type != CGN_NODE_TYPE_COUNT_ && n->type != type)
        return cgn__fail(CGN_ERROR_WRONG_NODE_TYPE, "%s: node %p is a %s node", where,
                         (const void *)node, cgn__node_type_name(n->type));
    if (n->raw == NULL)
        return cgn__fail(CGN_ERROR_DRIVER,
                         "%s: node %p of an embedded graph could not be located in the new "
                         "embedding (cuGraphNodeFindInClone failed after the replacement)",
                         where, (const void *)node);
    *out = n;
    return CGN_OK;
}

cgn__node_rec *cgn__node_record(const cgn_node *node) {
    void *rec = NULL;
    return cgn__handle_lookup(node, CGN__KIND_NODE, &rec) == CGN__LOOKUP_OK ? rec : NULL;
}

cgn__graph_rec *cgn__graph_record(const cgn_graph *graph) {
    void *rec = NULL;
    return cgn__handle_lookup(graph, CGN__KIND_GRAPH, &rec) == CGN__LOOKUP_OK ? rec : NULL;
}

const char *cgn__node_type_name(cgn_node_type type) {
    return (unsigned)type < CGN_NODE_TYPE_COUNT_ ? cgn__node_types[type].name : "unknown";
}

/* ---- hierarchies ------------------------------------------------------------------------------ */

uint64_t cgn__new_share_epoch(void) {
    static atomic_uint_fast64_t last;
    return atomic_fetch_add_explicit(&last, 1, memory_order_relaxed) + 1;
}

void cgn__hier_unref(cgn__hier *h) {
    if (atomic_fetch_sub_explicit(&h->refs, 1, memory_order_acq_rel) != 1)
        return;
    /* The root graph and every executable are gone: CUDA drops the graph's user-object
     * references with it (an adopted graph cgn borrowed stays its owner's). */
    if (!h->borrowed)
        (void)cgn__driver->cuGraphDestroy(h->raw);
    for (size_t i = 0; i < h->num_zombies; i++)
        cgn__handle_free(h->zombies[i]);
    free(h->zombies);
    free(h);
}

/* ---- graphs ---------------------------------------------------------------------------------- */

cgn_status cgn_graph_create(cgn_graph **graph_out) {
    static const char where[] = "cgn_graph_create";
    if (graph_out == NULL)
        return cgn__fail(CGN_ERROR_INVALID_ARGUMENT, "%s: graph_out is NULL", where);
    cgn_status st = cgn__driver_ready();
    if (st != CGN_OK)
        return st;
    cgn__collect_pending();
    cgn__graph_rec *g = calloc(1, sizeof *g);
    cgn__hier *h = calloc(1, sizeof *h);
    if (g == NULL || h == NULL) {
        free(g);
        free(h);
        return cgn__fail(CGN_ERROR_OUT_OF_MEMORY, "%s: out of host memory", where);
    }
    st = cgn__handle_new(CGN__KIND_GRAPH, g, &g->handle, where);
    if (st != CGN_OK) {
        free(g);
        free(h);
        return st;
    }
    CUresult r = cgn__driver->cuGraphCreate(&g->raw, 0);
    if (r != CUDA_SUCCESS) {
        cgn__handle_free(g->handle);
        free(g);
        free(h);
        return cgn__fail_driver(r, "cgn_graph_create: cuGraphCreate");
    }
    atomic_init(&h->refs, 1);
    h->raw = g->raw;
    g->root = g;
    g->share_epoch = cgn__new_share_epoch();
    g->hier = h;
    *graph_out = cgn__graph_handle(g);
    return CGN_OK;
}

/* What a node record holds, not the record itself. */
static void cgn__node_free_parts(cgn__node_rec *n) {
    if (n->storage != NULL)
        cgn__block_release(n->storage);
    if (n->spare != NULL)
        cgn__block_release(n->spare);
    if (!(n->packed & CGN__PACKED_DEPS))
        free(n->deps);
    if (!(n->packed & CGN__PACKED_STATE))
        free(n->state);
}

void cgn__node_free(cgn__node_rec *n) {
    cgn__node_free_parts(n);
    if (n->packed & CGN__PACKED_SLAB)
        cgn__slab_release(n->slab);
    else
        free(n);
}

static size_t cgn__count_nodes(const cgn__graph_rec *g) {
    size_t n = g->num_nodes;
    for (size_t i = 0; i < g->num_nodes; i++)
        CGN__FOR_EMBEDDED(inner, g->nodes[i])
            n += cgn__count_nodes(inner);
    return n;
}

#define CGN__FREE_BATCH 256 /* node handles freed under one lock */

void cgn__graph_free_records(cgn__graph_rec *g, cgn__handle **kept, size_t *num_kept) {
    /* By batches of nodes: embedded graphs, then the handles (none is left naming a freed
     * record), then the records, a slab's references dropped together for records side by
     * side in it (adoption makes them so). */
    cgn__handle batch[CGN__FREE_BATCH];
    for (size_t i0 = 0; i0 < g->num_nodes; i0 += CGN__FREE_BATCH) {
        size_t i1 = g->num_nodes - i0 > CGN__FREE_BATCH ? i0 + CGN__FREE_BATCH : g->num_nodes;
        size_t num_batch = 0;
        for (size_t i = i0; i < i1; i++) {
            cgn__node_rec *n = g->nodes[i];
            for (cgn__graph_rec *inner = n->embedded, *next; inner != NULL; inner = next) {
                next = inner->next_body; /* read before inner is freed */
                cgn__graph_free_records(inner, kept, num_kept);
            }
            if (kept != NULL) {
                cgn__handle_set_record(n->handle, NULL);
                (*kept)[(*num_kept)++] = n->handle;
            } else {
                batch[num_batch++] = n->handle;
            }
        }
        cgn__handles_free(batch, num_batch);
        void *slab = NULL;
        size_t in_slab = 0;
        for (size_t i = i0; i < i1; i++) {
            cgn__node_rec *n = g->nodes[i];
            cgn__node_free_parts(n);
            if (!(n->packed & CGN__PACKED_SLAB)) {
                free(n);
                continue;
            }
            if (n->slab != slab) {
                if (in_slab > 0)
                    cgn__slab_release_n(slab, in_slab);
                slab = n->slab;
                in_slab = 0;
            }
            in_slab++;
        }
        if (in_slab > 0)
            cgn__slab_release_n(slab, in_slab);
    }
    cgn__handle_free(g->handle);
    free(g->nodes);
    free(g);
}

cgn_status cgn_graph_destroy(cgn_graph *graph) {
    static const char where[] = "cgn_graph_destroy";
    cgn__graph_rec *g = NULL;
    cgn_status st = cgn__graph_get(graph, where, &g);
    if (st != CGN_OK)
        return st;
    if (g->root != g)
        return cgn__fail(CGN_ERROR_INVALID_ARGUMENT,
                         "%s: graph %p is embedded in a %s node and goes with its parent; "
                         "destroy that node or the root instead",
                         where, (void *)graph, cgn__node_type_name(g->owner->type));
    cgn__collect_pending();
    cgn__hier *h = g->hier;
    if (atomic_load_explicit(&h->refs, memory_order_acquire) == 1) {
        /* No executable needs the raw graph: destroy it now, so a failure can be reported.
         * CUDA drops the graph's user-object references; attachments still used by clones or
         * executables stay alive through theirs. A borrowed (adopted) graph is its owner's to
         * destroy: what cgn's updates attached to it goes then. */
        CUresult r = h->borrowed ? CUDA_SUCCESS : cgn__driver->cuGraphDestroy(g->raw);
        if (r != CUDA_SUCCESS)
            return cgn__fail_driver(r, "cgn_graph_destroy: cuGraphDestroy");
        h->raw = NULL;
        cgn__graph_free_records(g, NULL, NULL);
        free(h->zombies);
        free(h);
        cgn__collect_pending();
        return CGN_OK;
    }
    /* Executables made from this hierarchy address their nodes through the raw graph's node
     * handles: the raw graph and the node handles stay until the last of them is gone. */
    size_t count = cgn__count_nodes(g);
    cgn__handle *kept = malloc((count ? count : 1) * sizeof *kept);
    if (kept == NULL)
        return cgn__fail(CGN_ERROR_OUT_OF_MEMORY, "%s: out of host memory", where);
    size_t num_kept = 0;
    cgn__graph_free_records(g, &kept, &num_kept);
    h->zombies = kept;
    h->num_zombies = num_kept;
    cgn__hier_unref(h);
    cgn__collect_pending();
    return CGN_OK;
}

cgn_status cgn_graph_raw(const cgn_graph *graph, CUgraph *raw_out) {
    static const char where[] = "cgn_graph_raw";
    cgn__graph_rec *g = NULL;
    cgn_status st = cgn__graph_get(graph, where, &g);
    if (st != CGN_OK)
        return st;
    if (raw_out == NULL)
        return cgn__fail(CGN_ERROR_INVALID_ARGUMENT, "%s: raw_out is NULL", where);
    cgn__hier_expose(g); /* its nodes can now be changed behind cgn's back */
    *raw_out = g->raw;
    return CGN_OK;
}

cgn_status cgn_graph_add_empty(cgn_graph *graph, cgn_node *const *deps, size_t num_deps,
                               cgn_node **node_out) {
    static const char where[] = "cgn_graph_add_empty";
    if (node_out == NULL)
        return cgn__fail(CGN_ERROR_INVALID_ARGUMENT, "%s: node_out is NULL", where);
    cgn__txn txn;
    cgn_status st = cgn__add_begin(&txn, graph, deps, num_deps, CGN_NODE_EMPTY, 1, 0, where);
    if (st != CGN_OK)
        return st;
    CUgraphNodeParams p;
    memset(&p, 0, sizeof p);
    p.type = CU_GRAPH_NODE_TYPE_EMPTY;
    st = cgn__txn_apply(&txn, &p, where);
    if (st != CGN_OK)
        return st;
    cgn__txn_commit(&txn, NULL, 0, node_out);
    return CGN_OK;
}

/* ---- nodes ----------------------------------------------------------------------------------- */

/* Takes a node out of its graph's list, keeping insertion order. */
static void cgn__graph_unlink(cgn__graph_rec *g, cgn__node_rec *n) {
    for (size_t i = n->index + 1; i < g->num_nodes; i++) {
        g->nodes[i - 1] = g->nodes[i];
        g->nodes[i - 1]->index = i - 1;
    }
    g->num_nodes--;
}

/* Drops `gone` from the dependency lists of the nodes after it (CUDA removed those edges). */
static void cgn__graph_drop_edges(cgn__graph_rec *g, cgn__handle gone) {
    for (size_t i = 0; i < g->num_nodes; i++) {
        cgn__node_rec *n = g->nodes[i];
        size_t k = 0;
        for (size_t j = 0; j < n->num_deps; j++)
            if (n->deps[j] != gone)
                n->deps[k++] = n->deps[j];
        n->num_deps = k;
    }
}

const cgn__node_rec *cgn__graph_mem_node(const cgn__graph_rec *g) {
    for (size_t i = 0; i < g->num_nodes; i++)
        if (cgn__is_memory_node_type(g->nodes[i]->type))
            return g->nodes[i];
    return NULL;
}

cgn_status cgn_node_destroy(cgn_node *node) {
    static const char where[] = "cgn_node_destroy";
    cgn__node_rec *n = NULL;
    cgn_status st = cgn__check_node(node, CGN_NODE_TYPE_COUNT_, where, &n);
    if (st != CGN_OK)
        return st;
    const cgn__node_rec *mem = cgn__graph_mem_node(n->graph);
    if (mem != NULL)
        return cgn__fail(CGN_ERROR_NOT_SUPPORTED,
                         "%s: node %p belongs to a graph holding a %s node (%p), whose nodes "
                         "CUDA cannot destroy",
                         where, (void *)node, cgn__node_type_name(mem->type),
                         (void *)cgn__handle_ptr(mem->handle));
    if (n->type == CGN_NODE_CONDITIONAL)
        return cgn__fail(CGN_ERROR_NOT_SUPPORTED,
                         "%s: node %p is a conditional node: CUDA cannot destroy its conditional "
                         "handle, and a graph holding a handle no node uses does not instantiate "
                         "(seen on the H200); destroy the graph instead",
                         where, (void *)node);
    cgn__collect_pending();
    CUresult r = cgn__driver->cuGraphDestroyNode(n->raw);
    if (r != CUDA_SUCCESS)
        return cgn__fail_driver(r, "cgn_node_destroy: cuGraphDestroyNode");
    cgn__graph_rec *g = n->graph;
    cgn__graph_unlink(g, n);
    cgn__graph_drop_edges(g, n->handle);
    /* Executables keep their own references; drop the graph's. */
    if (n->attachment != NULL)
        (void)cgn__driver->cuGraphReleaseUserObject(g->raw, n->attachment->object, 1);
    if (n->embedded != NULL)
        cgn__retire_embedded(n->embedded); /* CUDA destroyed the embedded graphs with it */
    cgn__handle_free(n->handle);
    cgn__node_free(n);
    cgn__collect_pending();
    return CGN_OK;
}

cgn_status cgn_node_type_of(const cgn_node *node, cgn_node_type *type_out) {
    static const char where[] = "cgn_node_type_of";
    cgn__node_rec *n = NULL;
    cgn_status st = cgn__check_node(node, CGN_NODE_TYPE_COUNT_, where, &n);
    if (st != CGN_OK)
        return st;
    if (type_out == NULL)
        return cgn__fail(CGN_ERROR_INVALID_ARGUMENT, "%s: type_out is NULL", where);
    *type_out = n->type;
    return CGN_OK;
}

int cgn_node_is_alive(const cgn_node *node) { return cgn__node_record(node) != NULL; }

cgn_status cgn_node_raw(const cgn_node *node, CUgraphNode *raw_out) {
    static const char where[] = "cgn_node_raw";
    cgn__node_rec *n = NULL;
    cgn_status st = cgn__check_node(node, CGN_NODE_TYPE_COUNT_, where, &n);
    if (st != CGN_OK)
        return st;
    if (raw_out == NULL)
        return cgn__fail(CGN_ERROR_INVALID_ARGUMENT, "%s: raw_out is NULL", where);
    cgn__hier_expose(n->graph); /* from one raw node the driver reaches its graph's others */
    *raw_out = n->raw;
    return CGN_OK;
}

cgn_status cgn_node_graph(const cgn_node *node, cgn_graph **graph_out) {
    static const char where[] = "cgn_node_graph";
    cgn__node_rec *n = NULL;
    cgn_status st = cgn__check_node(node, CGN_NODE_TYPE_COUNT_, where, &n);
    if (st != CGN_OK)
        return st;
    if (graph_out == NULL)
        return cgn__fail(CGN_ERROR_INVALID_ARGUMENT, "%s: graph_out is NULL", where);
    *graph_out = cgn__graph_handle(n->graph);
    return CGN_OK;
}
