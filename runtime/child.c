/* Child-graph embeddings. CUDA embeds a *clone* of the source graph; cgn mirrors it with its own
 * records (state copied, storage blocks shared, attachments indexed, since CUDA copied the
 * user-object references into the clone) so nodes inside the embedding can be updated too.
 *
 * Everything that can fail is prepared before the driver mutation; afterwards cgn only
 * publishes. Locating the clone's raw handles needs driver calls (cuGraphChildGraphNodeGetGraph,
 * cuGraphNodeFindInClone); if one fails, that record reports CGN_ERROR_DRIVER when used
 * instead of undoing a replacement CUDA has already made (cuda.core throws there and leaves
 * its metadata half-published). */
#include <stdlib.h>
#include <string.h>

#include "runtime.h"

static size_t cgn__count_graphs(const cgn_graph *g) {
    size_t n = 1;
    for (size_t i = 0; i < g->num_nodes; i++)
        if (g->nodes[i]->alive && g->nodes[i]->embedded != NULL)
            n += cgn__count_graphs(g->nodes[i]->embedded);
    return n;
}

void cgn__discard_embedding(cgn_graph *plan) {
    if (plan == NULL)
        return;
    for (size_t i = 0; i < plan->num_nodes; i++) {
        cgn__discard_embedding(plan->nodes[i]->embedded);
        cgn__node_free(plan->nodes[i]);
    }
    free(plan->nodes);
    free(plan);
}

/* Records mirroring `src` (its live nodes, recursively), without raw handles yet. */
static cgn_graph *cgn__plan_copy(const cgn_graph *src, cgn_graph *root, cgn_node *owner) {
    cgn_graph *g = calloc(1, sizeof *g);
    if (g == NULL)
        return NULL;
    g->root = root;
    g->owner = owner;
    g->alive = 1;
    g->nodes = calloc(src->num_nodes ? src->num_nodes : 1, sizeof *g->nodes);
    if (g->nodes == NULL) {
        free(g);
        return NULL;
    }
    g->cap_nodes = src->num_nodes;
    for (size_t i = 0; i < src->num_nodes; i++) {
        const cgn_node *s = src->nodes[i];
        if (!s->alive)
            continue;
        cgn_node *n = calloc(1, sizeof *n);
        void *state = malloc(s->state_size ? s->state_size : 1);
        if (n == NULL || state == NULL) {
            free(n);
            free(state);
            cgn__discard_embedding(g);
            return NULL;
        }
        memcpy(state, s->state, s->state_size);
        n->graph = g;
        n->type = s->type;
        n->alive = 1;
        n->ctx = s->ctx;
        n->state = state;
        n->state_size = s->state_size;
        n->storage = s->storage;
        cgn__block_retain(n->storage);
        /* The clone holds CUDA's copy of the attachment's reference: an index, not a retain. */
        n->attachment = s->attachment;
        n->source = s;
        n->source_raw = s->raw;
        g->nodes[g->num_nodes++] = n;
        if (s->embedded != NULL) {
            n->embedded = cgn__plan_copy(s->embedded, root, n);
            if (n->embedded == NULL) {
                cgn__discard_embedding(g);
                return NULL;
            }
        }
    }
    return g;
}

cgn_status cgn__stage_child_graph(cgn__txn *txn, cgn_graph *source, CUgraph *raw_out,
                                  const char *where) {
    cgn_graph *parent = txn->node->graph;
    if (source == NULL)
        return cgn__fail(CGN_ERROR_INVALID_VALUE, "%s: graph must not be NULL", where);
    if (!source->alive || source->raw == NULL)
        return cgn__fail(CGN_ERROR_DESTROYED,
                         "%s: the source graph %p was replaced or its child node destroyed",
                         where, (void *)source);
    /* CUDA destroys the old embedded subtree during a replacement; a source from the same
     * hierarchy could be (or contain) it. */
    if (source->root == parent->root)
        return cgn__fail(CGN_ERROR_SAME_HIERARCHY,
                         "%s: graph %p belongs to the destination's hierarchy; embed a graph of "
                         "another hierarchy (or a copy of this one)",
                         where, (void *)source);
    if (txn->exec != NULL) {
        /* Executable-level: CUDA updates the executable's copy; the definition's records stay. */
        *raw_out = source->raw;
        return CGN_OK;
    }
    cgn_graph *root = parent->root;
    cgn_status st = cgn__reserve(&root->embedded, &root->cap_embedded,
                                 root->num_embedded + cgn__count_graphs(source),
                                 sizeof *root->embedded, 8, where);
    if (st != CGN_OK)
        return st;
    cgn_graph *plan = cgn__plan_copy(source, root, txn->node);
    if (plan == NULL)
        return cgn__fail(CGN_ERROR_OUT_OF_MEMORY, "%s: out of host memory", where);
    cgn__discard_embedding(txn->embed_plan);
    txn->embed_plan = plan;
    *raw_out = source->raw;
    return CGN_OK;
}

void cgn__retire_embedded(cgn_graph *g) {
    g->alive = 0;
    g->raw = NULL;
    for (size_t i = 0; i < g->num_nodes; i++) {
        cgn_node *n = g->nodes[i];
        if (n->embedded != NULL)
            cgn__retire_embedded(n->embedded);
        n->alive = 0;
        n->attachment = NULL; /* CUDA dropped the clone's references with the clone */
        cgn__block_release(n->storage);
        cgn__block_release(n->spare);
        n->storage = n->spare = NULL;
    }
}

/* Locates the clone's raw handles; a failed lookup leaves that record's raw NULL. */
static void cgn__locate(cgn_graph *g, CUgraph raw) {
    const cgn_driver_table *drv = cgn__driver;
    g->raw = raw;
    for (size_t i = 0; i < g->num_nodes; i++) {
        cgn_node *n = g->nodes[i];
        if (raw == NULL ||
            drv->cuGraphNodeFindInClone(&n->raw, n->source_raw, raw) != CUDA_SUCCESS)
            n->raw = NULL;
        if (n->embedded != NULL) {
            CUgraph inner = NULL;
            if (n->raw == NULL ||
                drv->cuGraphChildGraphNodeGetGraph(n->raw, &inner) != CUDA_SUCCESS)
                inner = NULL;
            cgn__locate(n->embedded, inner);
        }
    }
}

static void cgn__register(cgn_graph *root, cgn_graph *g) {
    root->embedded[root->num_embedded++] = g; /* capacity reserved when staged */
    for (size_t i = 0; i < g->num_nodes; i++)
        if (g->nodes[i]->embedded != NULL)
            cgn__register(root, g->nodes[i]->embedded);
}

void cgn__commit_embedding(cgn__txn *txn) {
    cgn_node *n = txn->node;
    if (n->embedded != NULL)
        cgn__retire_embedded(n->embedded); /* CUDA destroyed the old clone */
    n->embedded = txn->embed_plan;
    txn->embed_plan = NULL;
    CUgraph raw = NULL;
    if (cgn__driver->cuGraphChildGraphNodeGetGraph(n->raw, &raw) != CUDA_SUCCESS)
        raw = NULL;
    cgn__locate(n->embedded, raw);
    cgn__register(n->graph->root, n->embedded);
}

cgn_status cgn_child_graph_node_embedded(const cgn_node *node, cgn_graph **embedded_out) {
    static const char where[] = "cgn_child_graph_node_embedded";
    cgn_status st = cgn__check_node(node, CGN_NODE_CHILD_GRAPH, where);
    if (st != CGN_OK)
        return st;
    if (embedded_out == NULL)
        return cgn__fail(CGN_ERROR_INVALID_ARGUMENT, "%s: embedded_out is NULL", where);
    *embedded_out = node->embedded;
    return CGN_OK;
}

cgn_status cgn_child_graph_node_find(const cgn_node *node, const cgn_node *source_node,
                                     cgn_node **embedded_node_out) {
    static const char where[] = "cgn_child_graph_node_find";
    cgn_status st = cgn__check_node(node, CGN_NODE_CHILD_GRAPH, where);
    if (st != CGN_OK)
        return st;
    if (source_node == NULL || embedded_node_out == NULL)
        return cgn__fail(CGN_ERROR_INVALID_ARGUMENT,
                         "%s: source_node and embedded_node_out must not be NULL", where);
    const cgn_graph *g = node->embedded;
    for (size_t i = 0; g != NULL && i < g->num_nodes; i++)
        if (g->nodes[i]->source == source_node && g->nodes[i]->alive) {
            *embedded_node_out = g->nodes[i];
            return CGN_OK;
        }
    return cgn__fail(CGN_ERROR_INVALID_VALUE,
                     "%s: node %p was not part of the graph embedded by child node %p", where,
                     (const void *)source_node, (const void *)node);
}
