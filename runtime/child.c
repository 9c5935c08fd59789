/* Child-graph embeddings. CUDA embeds a *clone* of the source graph; cgn mirrors it with its own
 * records (state copied, storage blocks shared, attachments indexed, since CUDA copied the
 * user-object references into the clone) so nodes inside the embedding can be updated too.
 *
 * Everything that can fail is prepared before the driver mutation; afterwards cgn only
 * publishes. Locating the clone's raw handles needs driver calls (cuGraphChildGraphNodeGetGraph,
 * cuGraphNodeFindInClone); if one fails, that record reports CGN_ERROR_DRIVER when used
 * instead of undoing a replacement CUDA has already made (cuda.core throws there and leaves
 * its metadata half-published). A replaced embedding's records and handles are freed at once:
 * stale handles report CGN_ERROR_DESTROYED, and memory stays bounded however often a child is
 * replaced. */
#include <stdlib.h>
#include <string.h>

#include "runtime.h"

/* Frees plan and the bodies chained after it (a conditional node's). */
void cgn__discard_embedding(cgn__graph_rec *plan) {
    while (plan != NULL) {
        cgn__graph_rec *next = plan->next_body;
        for (size_t i = 0; i < plan->num_nodes; i++) {
            cgn__node_rec *n = plan->nodes[i];
            cgn__discard_embedding(n->embedded);
            if (n->handle != 0)
                cgn__handle_free(n->handle);
            cgn__node_free(n);
        }
        if (plan->handle != 0)
            cgn__handle_free(plan->handle);
        free(plan->nodes);
        free(plan);
        plan = next;
    }
}

/* The handle in the copy of the dependency `dep` of a node of `src`: nodes are copied in order,
 * so the copy of src->nodes[i] is copy->nodes[i]. */
static cgn__handle cgn__copied_handle(const cgn__graph_rec *src, const cgn__graph_rec *copy,
                                      cgn__handle dep) {
    for (size_t i = 0; i < src->num_nodes; i++)
        if (src->nodes[i]->handle == dep)
            return copy->nodes[i]->handle;
    return 0;
}

/* Records mirroring `src` (its live nodes, recursively), with handles but no raw handles yet;
 * the handles point at no record until the embedding is committed. NULL when out of memory. */
static cgn__graph_rec *cgn__plan_copy(const cgn__graph_rec *src, cgn__graph_rec *root,
                                      cgn__node_rec *owner, const char *where) {
    cgn__graph_rec *g = calloc(1, sizeof *g);
    if (g == NULL)
        return NULL;
    g->root = root;
    g->owner = owner;
    g->hier = root->hier;
    g->nodes = calloc(src->num_nodes ? src->num_nodes : 1, sizeof *g->nodes);
    if (g->nodes == NULL || cgn__handle_new(CGN__KIND_GRAPH, NULL, &g->handle, where) != CGN_OK) {
        free(g->nodes);
        free(g);
        return NULL;
    }
    g->cap_nodes = src->num_nodes;
    for (size_t i = 0; i < src->num_nodes; i++) {
        const cgn__node_rec *s = src->nodes[i];
        cgn__node_rec *n = calloc(1, sizeof *n);
        void *state = malloc(s->state_size ? s->state_size : 1);
        cgn__handle *deps = malloc((s->num_deps ? s->num_deps : 1) * sizeof *deps);
        if (n == NULL || state == NULL || deps == NULL ||
            cgn__handle_new(CGN__KIND_NODE, NULL, &n->handle, where) != CGN_OK) {
            free(n);
            free(state);
            free(deps);
            cgn__discard_embedding(g);
            return NULL;
        }
        memcpy(state, s->state, s->state_size);
        n->graph = g;
        n->index = i;
        n->type = s->type;
        n->ctx = s->ctx;
        n->state = state;
        n->state_size = s->state_size;
        n->storage = s->storage;
        cgn__block_retain(n->storage);
        /* The clone holds CUDA's copy of the attachment's reference: an index, not a retain. */
        n->attachment = s->attachment;
        n->source = s->handle;
        n->source_raw = s->raw;
        n->unsupported = s->unsupported;
        n->deps = deps;
        for (size_t k = 0; k < s->num_deps; k++) /* dependencies come earlier: already copied */
            n->deps[n->num_deps++] = cgn__copied_handle(src, g, s->deps[k]);
        g->nodes[g->num_nodes++] = n;
        /* One embedded graph at most: a source holding a conditional node (whose bodies are
         * chained) is refused before this (CUDA cannot clone it). */
        if (s->embedded != NULL) {
            n->embedded = cgn__plan_copy(s->embedded, root, n, where);
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
    if (source == NULL)
        return cgn__fail(CGN_ERROR_INVALID_VALUE, "%s: graph must not be NULL", where);
    cgn__graph_rec *src;
    cgn_status st = cgn__graph_get(source, where, &src);
    if (st != CGN_OK)
        return st;
    cgn__graph_shared(src); /* a clone (or an executable's copy) holds its user objects too */
    if (txn->exec != NULL) {
        /* Executable-level: CUDA updates the executable's copy of the child, which keeps its
         * topology; cgn re-takes its copies of the nodes inside at commit. The source rule is
         * the definition's (one rule for both levels, as documented), though nothing is
         * destroyed here: cgn_exec_update_from_graph refreshes from the definition instead. */
        if (src->root->hier == txn->exec->hier)
            return cgn__fail(CGN_ERROR_SAME_HIERARCHY,
                             "%s: graph %p belongs to the executable's hierarchy; give a graph "
                             "of another hierarchy (cgn_exec_update_from_graph refreshes the "
                             "executable from its own)",
                             where, (void *)source);
        st = cgn__exec_check_child_topology(txn->exec, txn->shadow, src, where);
        if (st != CGN_OK)
            return st;
        txn->embed_plan = src;
        *raw_out = src->raw;
        return CGN_OK;
    }
    const cgn__node_rec *mem = cgn__graph_mem_node(src);
    if (mem != NULL)
        return cgn__fail(CGN_ERROR_NOT_SUPPORTED,
                         "%s: graph %p holds a %s node (%p); CUDA cannot embed a graph with "
                         "memory allocation or free nodes in a child-graph node (it would "
                         "clone it)",
                         where, (void *)source, cgn__node_type_name(mem->type),
                         (void *)cgn__handle_ptr(mem->handle));
    const cgn__node_rec *cond = cgn__graph_conditional_node(src);
    if (cond != NULL)
        return cgn__fail(CGN_ERROR_NOT_SUPPORTED,
                         "%s: graph %p holds a conditional node (%p); CUDA cannot embed a graph "
                         "with conditional nodes in a child-graph node (it would clone it)",
                         where, (void *)source, (void *)cgn__handle_ptr(cond->handle));
    cgn__graph_rec *parent = txn->node->graph;
    /* CUDA destroys the old embedded subtree during a replacement; a source from the same
     * hierarchy could be (or contain) it. */
    if (src->root == parent->root)
        return cgn__fail(CGN_ERROR_SAME_HIERARCHY,
                         "%s: graph %p belongs to the destination's hierarchy; embed a graph of "
                         "another hierarchy (or a copy of this one)",
                         where, (void *)source);
    cgn__graph_rec *plan = cgn__plan_copy(src, parent->root, txn->node, where);
    if (plan == NULL)
        return cgn__fail(CGN_ERROR_OUT_OF_MEMORY, "%s: out of host memory", where);
    cgn__discard_embedding(txn->embed_plan);
    txn->embed_plan = plan;
    *raw_out = src->raw;
    return CGN_OK;
}

void cgn__retire_embedded(cgn__graph_rec *g) {
    /* CUDA dropped the clone's (or the bodies') user-object references with it. */
    while (g != NULL) {
        cgn__graph_rec *next = g->next_body;
        cgn__graph_free_records(g, NULL, NULL);
        g = next;
    }
}

/* Locates the clone's raw handles and publishes the records behind the handles; a failed
 * lookup leaves that record's raw NULL. */
static void cgn__locate(cgn__graph_rec *g, CUgraph raw) {
    const cgn_driver_table *drv = cgn__driver;
    g->raw = raw;
    cgn__handle_set_record(g->handle, g);
    for (size_t i = 0; i < g->num_nodes; i++) {
        cgn__node_rec *n = g->nodes[i];
        if (raw == NULL ||
            drv->cuGraphNodeFindInClone(&n->raw, n->source_raw, raw) != CUDA_SUCCESS)
            n->raw = NULL;
        cgn__handle_set_record(n->handle, n);
        if (n->embedded != NULL) { /* a child graph's copy: cloned graphs hold no bodies */
            CUgraph inner = NULL;
            if (n->raw == NULL ||
                drv->cuGraphChildGraphNodeGetGraph(n->raw, &inner) != CUDA_SUCCESS)
                inner = NULL;
            cgn__locate(n->embedded, inner);
        }
    }
}

void cgn__commit_embedding(cgn__txn *txn) {
    cgn__node_rec *n = txn->node;
    if (n->embedded != NULL)
        cgn__retire_embedded(n->embedded); /* CUDA destroyed the old clone */
    n->embedded = txn->embed_plan;
    txn->embed_plan = NULL;
    if (txn->bodies != NULL) { /* a conditional node's bodies, created (empty) by the add */
        uint32_t i = 0;
        CGN__FOR_EMBEDDED(body, n)
            cgn__locate(body, cgn__committed_body(txn, i++));
        return;
    }
    CUgraph raw = NULL;
    if (cgn__driver->cuGraphChildGraphNodeGetGraph(n->raw, &raw) != CUDA_SUCCESS)
        raw = NULL;
    cgn__locate(n->embedded, raw);
}

cgn_status cgn_child_graph_node_embedded(const cgn_node *node, cgn_graph **embedded_out) {
    static const char where[] = "cgn_child_graph_node_embedded";
    cgn__node_rec *n = NULL;
    cgn_status st = cgn__check_node(node, CGN_NODE_CHILD_GRAPH, where, &n);
    if (st != CGN_OK)
        return st;
    if (embedded_out == NULL)
        return cgn__fail(CGN_ERROR_INVALID_ARGUMENT, "%s: embedded_out is NULL", where);
    *embedded_out = cgn__graph_handle(n->embedded);
    return CGN_OK;
}

cgn_status cgn_child_graph_node_find(const cgn_node *node, const cgn_node *source_node,
                                     cgn_node **embedded_node_out) {
    static const char where[] = "cgn_child_graph_node_find";
    cgn__node_rec *n = NULL;
    cgn_status st = cgn__check_node(node, CGN_NODE_CHILD_GRAPH, where, &n);
    if (st != CGN_OK)
        return st;
    if (source_node == NULL || embedded_node_out == NULL)
        return cgn__fail(CGN_ERROR_INVALID_ARGUMENT,
                         "%s: source_node and embedded_node_out must not be NULL", where);
    /* Compared by handle value: the source may have been destroyed since, which is fine. */
    cgn__handle want = (cgn__handle)(uintptr_t)source_node;
    const cgn__graph_rec *g = n->embedded;
    for (size_t i = 0; g != NULL && i < g->num_nodes; i++)
        if (g->nodes[i]->source == want) {
            *embedded_node_out = cgn__node_handle(g->nodes[i]);
            return CGN_OK;
        }
    return cgn__fail(CGN_ERROR_INVALID_VALUE,
                     "%s: node %p was not part of the graph embedded by child node %p", where,
                     (const void *)source_node, (const void *)node);
}

const cgn__node_rec *cgn__graph_conditional_node(const cgn__graph_rec *g) {
    for (size_t i = 0; i < g->num_nodes; i++) {
        const cgn__node_rec *n = g->nodes[i];
        if (n->type == CGN_NODE_CONDITIONAL)
            return n;
        CGN__FOR_EMBEDDED(inner_graph, n) {
            const cgn__node_rec *inner = cgn__graph_conditional_node(inner_graph);
            if (inner != NULL)
                return inner;
        }
    }
    return NULL;
}
