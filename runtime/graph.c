/* Graph, node and executable records. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "runtime.h"

cgn_status cgn_graph_create(cgn_graph **graph_out) {
    if (graph_out == NULL)
        return cgn__fail(CGN_ERROR_INVALID_ARGUMENT, "cgn_graph_create: graph_out is NULL");
    cgn_status st = cgn__driver_ready();
    if (st != CGN_OK)
        return st;
    cgn__collect_pending();
    cgn_graph *g = calloc(1, sizeof *g);
    if (g == NULL)
        return cgn__fail(CGN_ERROR_OUT_OF_MEMORY, "cgn_graph_create: out of host memory");
    CUresult r = cgn__driver->cuGraphCreate(&g->raw, 0);
    if (r != CUDA_SUCCESS) {
        free(g);
        return cgn__fail_driver(r, "cgn_graph_create: cuGraphCreate");
    }
    g->root = g;
    g->alive = 1;
    *graph_out = g;
    return CGN_OK;
}

void cgn__node_free(cgn_node *n) {
    cgn__block_release(n->storage);
    cgn__block_release(n->spare);
    free(n->state);
    free(n);
}

/* Frees a graph record and its node records (not the CUDA graph). */
static void cgn__graph_record_free(cgn_graph *g) {
    for (size_t i = 0; i < g->num_nodes; i++)
        cgn__node_free(g->nodes[i]);
    free(g->nodes);
    free(g->embedded);
    free(g);
}

cgn_status cgn_graph_destroy(cgn_graph *graph) {
    if (graph == NULL)
        return cgn__fail(CGN_ERROR_INVALID_ARGUMENT, "cgn_graph_destroy: graph is NULL");
    if (graph->root != graph)
        return cgn__fail(CGN_ERROR_INVALID_ARGUMENT,
                         "cgn_graph_destroy: graph %p is embedded in a child-graph node and goes "
                         "with its parent; destroy the child node or the root instead",
                         (void *)graph);
    /* CUDA drops the graph's user-object references; attachments still used by clones or
     * executables stay alive through theirs. */
    CUresult r = cgn__driver->cuGraphDestroy(graph->raw);
    if (r != CUDA_SUCCESS)
        return cgn__fail_driver(r, "cgn_graph_destroy: cuGraphDestroy");
    for (size_t i = 0; i < graph->num_embedded; i++)
        cgn__graph_record_free(graph->embedded[i]);
    cgn__graph_record_free(graph);
    cgn__collect_pending();
    return CGN_OK;
}

cgn_status cgn_graph_raw(const cgn_graph *graph, CUgraph *raw_out) {
    if (graph == NULL || raw_out == NULL)
        return cgn__fail(CGN_ERROR_INVALID_ARGUMENT, "cgn_graph_raw: graph and raw_out must not "
                                                     "be NULL");
    *raw_out = graph->raw;
    return CGN_OK;
}

cgn_status cgn_graph_add_empty(cgn_graph *graph, cgn_node *const *deps, size_t num_deps,
                               cgn_node **node_out) {
    if (node_out == NULL)
        return cgn__fail(CGN_ERROR_INVALID_ARGUMENT, "cgn_graph_add_empty: node_out is NULL");
    cgn__txn txn;
    cgn_status st = cgn__add_begin(&txn, graph, deps, num_deps, CGN_NODE_EMPTY, 1, 0);
    if (st != CGN_OK)
        return st;
    CUgraphNodeParams p;
    memset(&p, 0, sizeof p);
    p.type = CU_GRAPH_NODE_TYPE_EMPTY;
    st = cgn__txn_apply(&txn, &p, "cgn_graph_add_empty");
    if (st != CGN_OK)
        return st;
    cgn__txn_commit(&txn, NULL, 0, node_out);
    return CGN_OK;
}

cgn_status cgn__check_node(const cgn_node *node, cgn_node_type type, const char *where) {
    if (node == NULL)
        return cgn__fail(CGN_ERROR_INVALID_ARGUMENT, "%s: node is NULL", where);
    if (!node->alive)
        return cgn__fail(CGN_ERROR_DESTROYED, "%s: node %p has been destroyed", where,
                         (const void *)node);
    if (node->type != type)
        return cgn__fail(CGN_ERROR_WRONG_NODE_TYPE, "%s: node %p is a %s node", where,
                         (const void *)node, cgn__node_type_name(node->type));
    if (node->raw == NULL)
        return cgn__fail(CGN_ERROR_DRIVER,
                         "%s: node %p of an embedded graph could not be located in the new "
                         "embedding (cuGraphNodeFindInClone failed after the replacement)",
                         where, (const void *)node);
    return CGN_OK;
}

const char *cgn__node_type_name(cgn_node_type type) {
    static const char *const names[CGN_NODE_TYPE_COUNT_] = {
        "empty", "kernel", "memset", "memcpy", "host callback", "child graph", "event record",
        "event wait"};
    return (unsigned)type < CGN_NODE_TYPE_COUNT_ ? names[type] : "unknown";
}

cgn_status cgn_node_destroy(cgn_node *node) {
    static const char where[] = "cgn_node_destroy";
    if (node == NULL)
        return cgn__fail(CGN_ERROR_INVALID_ARGUMENT, "%s: node is NULL", where);
    if (!node->alive)
        return cgn__fail(CGN_ERROR_DESTROYED, "%s: node %p has been destroyed", where,
                         (void *)node);
    cgn__collect_pending();
    CUresult r = cgn__driver->cuGraphDestroyNode(node->raw);
    if (r != CUDA_SUCCESS)
        return cgn__fail_driver(r, "cgn_node_destroy: cuGraphDestroyNode");
    node->alive = 0;
    /* Publish the removal, then drop the graph's reference; executables keep theirs. */
    cgn__attachment *a = node->attachment;
    node->attachment = NULL;
    if (a != NULL)
        (void)cgn__driver->cuGraphReleaseUserObject(node->graph->raw, a->object, 1);
    cgn__block_release(node->storage);
    cgn__block_release(node->spare);
    node->storage = node->spare = NULL;
    if (node->embedded != NULL)
        cgn__retire_embedded(node->embedded); /* CUDA destroyed the embedded graph with it */
    cgn__collect_pending();
    return CGN_OK;
}

cgn_status cgn_node_type_of(const cgn_node *node, cgn_node_type *type_out) {
    if (node == NULL || type_out == NULL)
        return cgn__fail(CGN_ERROR_INVALID_ARGUMENT, "cgn_node_type_of: node and type_out must "
                                                     "not be NULL");
    *type_out = node->type;
    return CGN_OK;
}

int cgn_node_is_alive(const cgn_node *node) { return node != NULL && node->alive; }

cgn_status cgn_node_raw(const cgn_node *node, CUgraphNode *raw_out) {
    if (node == NULL || raw_out == NULL)
        return cgn__fail(CGN_ERROR_INVALID_ARGUMENT, "cgn_node_raw: node and raw_out must not be "
                                                     "NULL");
    if (!node->alive)
        return cgn__fail(CGN_ERROR_DESTROYED, "cgn_node_raw: node %p has been destroyed",
                         (const void *)node);
    *raw_out = node->raw;
    return CGN_OK;
}

cgn_status cgn_graph_instantiate(cgn_graph *graph, cgn_exec **exec_out) {
    if (graph == NULL || exec_out == NULL)
        return cgn__fail(CGN_ERROR_INVALID_ARGUMENT, "cgn_graph_instantiate: graph and exec_out "
                                                     "must not be NULL");
    if (!graph->alive || graph->raw == NULL)
        return cgn__fail(CGN_ERROR_DESTROYED,
                         "cgn_graph_instantiate: the embedded graph %p was replaced or its child "
                         "node destroyed",
                         (void *)graph);
    cgn__collect_pending();
    cgn_exec *e = calloc(1, sizeof *e);
    cgn__attachment *acc = calloc(1, sizeof *acc);
    if (e == NULL || acc == NULL) {
        free(e);
        free(acc);
        return cgn__fail(CGN_ERROR_OUT_OF_MEMORY, "cgn_graph_instantiate: out of host memory");
    }
    /* The accumulator's user object is retained on the graph only around the instantiation:
     * CUDA copies every user-object reference of the graph into the executable, so the
     * executable ends up its sole holder. */
    const cgn_driver_table *drv = cgn__driver;
    CUresult r = drv->cuUserObjectCreate(&acc->object, acc, cgn__attachment_released, 1,
                                         CU_USER_OBJECT_NO_DESTRUCTOR_SYNC);
    if (r != CUDA_SUCCESS) {
        free(acc);
        free(e);
        return cgn__fail_driver(r, "cgn_graph_instantiate: cuUserObjectCreate");
    }
    r = drv->cuGraphRetainUserObject(graph->raw, acc->object, 1, CU_GRAPH_USER_OBJECT_MOVE);
    if (r != CUDA_SUCCESS) {
        (void)drv->cuUserObjectRelease(acc->object, 1); /* frees the empty accumulator */
        free(e);
        return cgn__fail_driver(r, "cgn_graph_instantiate: cuGraphRetainUserObject");
    }
    r = drv->cuGraphInstantiateWithFlags(&e->raw, graph->raw, 0);
    /* Drop the graph's reference on every path: after success the executable holds it. */
    (void)drv->cuGraphReleaseUserObject(graph->raw, acc->object, 1);
    if (r != CUDA_SUCCESS) {
        free(e);
        return cgn__fail_driver(r, "cgn_graph_instantiate: cuGraphInstantiateWithFlags");
    }
    e->accum = acc;
    *exec_out = e;
    return CGN_OK;
}

cgn_status cgn_exec_launch(cgn_exec *exec, CUstream stream) {
    if (exec == NULL)
        return cgn__fail(CGN_ERROR_INVALID_ARGUMENT, "cgn_exec_launch: exec is NULL");
    cgn__collect_pending();
    CUresult r = cgn__driver->cuGraphLaunch(exec->raw, stream);
    if (r != CUDA_SUCCESS)
        return cgn__fail_driver(r, "cgn_exec_launch: cuGraphLaunch");
    return CGN_OK;
}

cgn_status cgn_exec_destroy(cgn_exec *exec) {
    if (exec == NULL)
        return cgn__fail(CGN_ERROR_INVALID_ARGUMENT, "cgn_exec_destroy: exec is NULL");
    CUresult r = cgn__driver->cuGraphExecDestroy(exec->raw);
    if (r != CUDA_SUCCESS)
        return cgn__fail_driver(r, "cgn_exec_destroy: cuGraphExecDestroy");
    free(exec);
    cgn__collect_pending();
    return CGN_OK;
}

cgn_status cgn_exec_raw(const cgn_exec *exec, CUgraphExec *raw_out) {
    if (exec == NULL || raw_out == NULL)
        return cgn__fail(CGN_ERROR_INVALID_ARGUMENT, "cgn_exec_raw: exec and raw_out must not be "
                                                     "NULL");
    *raw_out = exec->raw;
    return CGN_OK;
}
