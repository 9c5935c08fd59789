/* Conditional nodes (spec/conditional.yaml): the two field kinds' codecs and the bodies.
 * The driver creates a conditional node's body graphs itself (phGraph_out, `size` of them) and
 * destroys them with the node; cgn records each body as an embedded graph record of the node's
 * hierarchy, with no nodes at first, so nodes are added to and updated in it like in any cgn
 * graph, and executables take copies of them. Body 0 is node->embedded and body i + 1 hangs off
 * body i (next_body): one pointer holds every body, so the transaction's embed_plan, discarding
 * and retiring need nothing new, and every walk of an embedding (CGN__FOR_EMBEDDED) sees all. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "runtime.h"

/* A graph that cannot hold a conditional node: one embedded (at any depth) in a child-graph
 * node, which CUDA made by cloning (graphs with conditional nodes cannot be cloned or used in a
 * child node). NULL when g can. */
static const cgn__node_rec *cgn__cloned_ancestor(const cgn__graph_rec *g) {
    for (; g != NULL && g->owner != NULL; g = g->owner->graph)
        if (g->owner->type == CGN_NODE_CHILD_GRAPH)
            return g->owner;
    return NULL;
}

cgn_status cgn__stage_cond_bodies(cgn__txn *txn, uint32_t count, CUgraph **bodies_out,
                                  const char *where) {
    cgn__graph_rec *parent = txn->node->graph;
    const cgn__node_rec *child = cgn__cloned_ancestor(parent);
    if (child != NULL)
        return cgn__fail(CGN_ERROR_NOT_SUPPORTED,
                         "%s: the graph is embedded in child-graph node %p; CUDA does not allow "
                         "conditional nodes in a child graph",
                         where, cgn__handle_ptr(child->handle));
    if (count == 0 || count > CGN_MAX_COND_BODIES) /* the spec's rules refuse it first */
        return cgn__fail(CGN_ERROR_OUT_OF_RANGE, "%s: %u bodies; cgn records 1 to %u", where,
                         count, CGN_MAX_COND_BODIES);
    cgn__graph_rec *first = NULL, **tail = &first;
    for (uint32_t i = 0; i < count; i++) {
        cgn__graph_rec *body = calloc(1, sizeof *body);
        if (body == NULL) {
            cgn__discard_embedding(first);
            return cgn__fail(CGN_ERROR_OUT_OF_MEMORY, "%s: out of host memory", where);
        }
        cgn_status st = cgn__handle_new(CGN__KIND_GRAPH, NULL, &body->handle, where);
        if (st != CGN_OK) {
            free(body);
            cgn__discard_embedding(first);
            return st;
        }
        body->root = parent->root;
        body->owner = txn->node;
        body->hier = parent->root->hier;
        *tail = body;
        tail = &body->next_body;
    }
    cgn__discard_embedding(txn->embed_plan);
    txn->embed_plan = first;
    txn->bodies = bodies_out; /* the driver writes the array there; read at commit */
    return CGN_OK;
}

cgn_status cgn__stage_cond_handle(cgn__txn *txn, uint32_t default_value, uint32_t assign,
                                  CUgraphConditionalHandle *handle_out, const char *where) {
    const cgn_driver_table *drv = cgn__driver;
    cgn_status st = cgn__require_driver(
        12030, drv->cuGraphConditionalHandleCreate != NULL && drv->cuGraphAddNode != NULL,
        "conditional nodes (cuGraphConditionalHandleCreate)");
    if (st != CGN_OK)
        return st;
    /* Last before the add: CUDA cannot destroy a handle, so nothing that can fail but the add
     * itself comes after it (the spec stages the bodies first; no owners follow). */
    CUgraphConditionalHandle h = 0;
    CUresult r = drv->cuGraphConditionalHandleCreate(&h, txn->node->graph->raw, txn->node->ctx,
                                                     default_value,
                                                     assign ? CU_GRAPH_COND_ASSIGN_DEFAULT : 0);
    if (r != CUDA_SUCCESS) {
        char what[160];
        snprintf(what, sizeof what, "%s: cuGraphConditionalHandleCreate", where);
        return cgn__fail_driver(r, what);
    }
    *handle_out = h;
    return CGN_OK;
}

CUgraph cgn__committed_body(const cgn__txn *txn, uint32_t index) {
    CUgraph *array = *txn->bodies;
    return array != NULL ? array[index] : NULL;
}

cgn_status cgn_conditional_node_body(const cgn_node *node, uint32_t index, cgn_graph **body_out) {
    static const char where[] = "cgn_conditional_node_body";
    cgn__node_rec *n = NULL;
    cgn_status st = cgn__check_node(node, CGN_NODE_CONDITIONAL, where, &n);
    if (st != CGN_OK)
        return st;
    if (body_out == NULL)
        return cgn__fail(CGN_ERROR_INVALID_ARGUMENT, "%s: body_out is NULL", where);
    uint32_t count = 0;
    CGN__FOR_EMBEDDED(body, n) {
        if (count++ == index) {
            *body_out = cgn__graph_handle(body);
            return CGN_OK;
        }
    }
    return cgn__fail(CGN_ERROR_INVALID_VALUE,
                     "%s: conditional node %p has no body %u (it has %u, from index 0; its desc's "
                     "size)",
                     where, (const void *)node, index, count);
}
