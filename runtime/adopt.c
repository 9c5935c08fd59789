/* Graphs built elsewhere (docs/adopt.md): adoption of a raw graph and of an executable made
 * from it, finding nodes, and re-reading a node changed behind cgn's back.
 *
 * Adoption reads; it never mutates the graph. Each node's parameters come from its typed getter
 * (the only Get calls cgn makes besides the memcpy form check) and go through the node type's
 * generated read function (the inverse of its build) into the same records cgn keeps for its
 * own nodes, so updates afterwards take the same path. Everything is allocated and read before
 * anything is published: a failure frees what was made and leaves no handle behind.
 *
 * Records are kept in topological order (a node after its dependencies, ties in the order
 * cuGraphGetNodes lists them), the order cgn's own graphs have, which instantiation and child
 * embedding rely on. Edges come from one cuGraphGetEdges per graph. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "runtime.h"

cgn_status cgn__unsupported(const void *node, const char *why, const char *where) {
    return cgn__fail(CGN_ERROR_NOT_SUPPORTED, "%s: node %p cannot be updated by cgn: it is %s",
                     where, node, why);
}

/* Why an adopted node of a CUDA type cgn does not build cannot be updated. */
static const char *cgn__other_reason(CUgraphNodeType t) {
    switch (t) {
    case CU_GRAPH_NODE_TYPE_CONDITIONAL:
        return "a CU_GRAPH_NODE_TYPE_CONDITIONAL node (conditional), whose parameters CUDA "
               "cannot change in an executable; cgn does not adopt its body graphs";
    default:
        return "a node of a CUDA node type cgn does not know";
    }
}

/* The node type recording CUDA type t: CGN_NODE_OTHER for the types cgn does not build. */
static cgn_node_type cgn__type_of(CUgraphNodeType t) {
    if (t == CU_GRAPH_NODE_TYPE_EMPTY)
        return CGN_NODE_EMPTY;
    for (int i = 0; i < CGN_NODE_TYPE_COUNT_; i++)
        if (cgn__node_types[i].read != NULL && cgn__node_types[i].cu_type == t)
            return (cgn_node_type)i;
    return CGN_NODE_OTHER;
}

/* The node's parameters through its typed getter (spec: cuda.get; they exist from 10.0 to 12.0,
 * unlike the generic cuGraphNodeGetParams of 13.2), in the CUgraphNodeParams form builds
 * produce. Pointers in them (kernel arguments) are the driver's: read, never written, never
 * kept. Empty nodes and the types cgn records without reading have nothing to read. */
static CUresult cgn__get_params(CUgraphNode raw, CUgraphNodeType t, CUgraphNodeParams *p,
                                const char **entry) {
    memset(p, 0, sizeof *p);
    p->type = t;
    const cgn__node_type_info *info = &cgn__node_types[cgn__type_of(t)];
    if (info->get == NULL)
        return CUDA_SUCCESS;
    *entry = info->get_entry;
    return info->get(cgn__driver, raw, p);
}

/* The context the params name for a node type that runs in one; NULL when none is named. */
static CUcontext cgn__params_context(const cgn__node_type_info *info, const CUgraphNodeParams *p) {
    CUcontext ctx = NULL;
    if (info->context_offset != 0)
        memcpy(&ctx, (const unsigned char *)p + info->context_offset, sizeof ctx);
    return ctx;
}

static cgn_status cgn__driver_failed(CUresult r, const char *entry, const char *where) {
    char what[128];
    snprintf(what, sizeof what, "%s: %s", where, entry);
    return cgn__fail_driver(r, what);
}

/* ---- one graph: nodes, edges, topological order -------------------------------------------- */

/* A raw graph's nodes and edges as the driver lists them, with a map from raw handle to index.
 * Every array, the sort's scratch included, lives in one allocation (`block`); only what is
 * used is written (the map, the dependency starts and the sort's counters when needed). */
typedef struct cgn__listing {
    void *block;
    CUgraphNode *nodes;
    size_t num_nodes;
    CUgraphNode *from, *to;
    size_t num_edges;
    size_t *slots; /* open addressing: index + 1, 0 = empty; filled on the first lookup the
                      listing's own order does not answer (cgn__listing_hash) */
    size_t mask;
    int hashed;
    size_t *order;              /* topological order, ties in listing order; NULL when it is
                                   the listing's own (cgn__sort) */
    size_t *in_start, *in_list; /* each node's dependencies, in edge order: in_start by index,
                                   in_list holding positions in `order` */
    cgn__handle *handles;       /* each node's handle, by position in order (cgn__adopt_graph) */
    /* cgn__sort's scratch */
    size_t *from_i, *to_i, *out_start, *out_list, *missing, *heap;
} cgn__listing;

static void cgn__listing_free(cgn__listing *l) {
    free(l->block);
    memset(l, 0, sizeof *l);
}

static size_t cgn__raw_hash(CUgraphNode n) {
    return (size_t)(((uint64_t)(uintptr_t)n * 0x9E3779B97F4A7C15ull) >> 32);
}

/* The map from raw handle to index, made once. */
static void cgn__listing_hash(cgn__listing *l) {
    memset(l->slots, 0, (l->mask + 1) * sizeof *l->slots);
    for (size_t i = 0; i < l->num_nodes; i++) {
        size_t s = cgn__raw_hash(l->nodes[i]) & l->mask;
        while (l->slots[s] != 0)
            s = (s + 1) & l->mask;
        l->slots[s] = i + 1;
    }
    l->hashed = 1;
}

/* Index of raw in the listing; SIZE_MAX when it is not one of the graph's nodes. */
static size_t cgn__listing_index(cgn__listing *l, CUgraphNode raw) {
    if (!l->hashed)
        cgn__listing_hash(l);
    for (size_t i = cgn__raw_hash(raw) & l->mask;; i = (i + 1) & l->mask) {
        size_t at = l->slots[i];
        if (at == 0)
            return SIZE_MAX;
        if (l->nodes[at - 1] == raw)
            return at - 1;
    }
}

#define CGN__NEAR 8 /* listing positions tried after a guess before the map */

/* cgn__listing_index, trying first the CGN__NEAR positions from `near` (cgn__sort has tried
 * its exact guess): the driver lists edges much as it lists nodes (a capture's edges follow
 * its nodes), so the last edge's ends predict the next one's, and most graphs never need the
 * map. The guesses are only compared, never trusted: any value works. */
static size_t cgn__listing_find(cgn__listing *l, CUgraphNode raw, size_t near) {
    size_t n = l->num_nodes;
    size_t end = near < n && n - near > CGN__NEAR ? near + CGN__NEAR : n;
    for (size_t i = near; i < end; i++)
        if (l->nodes[i] == raw)
            return i;
    return cgn__listing_index(l, raw);
}

/* The listing's arrays for n nodes and e edges, carved from one block of size_t words (cap +
 * 2 (n + 1) + 5 max(n, 1) + 6 max(e, 1) of them). None is zeroed here. */
static void cgn__listing_carve(cgn__listing *l, size_t n, size_t e, size_t cap, void *block) {
    _Static_assert(sizeof(CUgraphNode) == sizeof(size_t) && sizeof(cgn__handle) == sizeof(size_t),
                   "the listing's arrays share one block of size_t words");
    size_t n1 = n ? n : 1, e1 = e ? e : 1;
    size_t *w = block;
    l->slots = w;
    w += cap;
    l->in_start = w;
    w += n + 1;
    l->out_start = w;
    w += n + 1;
    l->missing = w;
    w += n1;
    l->nodes = (CUgraphNode *)w;
    w += n1;
    l->order = w;
    w += n1;
    l->heap = w;
    w += n1;
    l->handles = (cgn__handle *)w;
    w += n1;
    l->from = (CUgraphNode *)w;
    w += e1;
    l->to = (CUgraphNode *)w;
    w += e1;
    l->in_list = w;
    w += e1;
    l->from_i = w;
    w += e1;
    l->to_i = w;
    w += e1;
    l->out_list = w;
}

/* The driver's count-then-fill convention; the graph must not change in between. */
static cgn_status cgn__list(CUgraph raw, cgn__listing *l, const char *where) {
    const cgn_driver_table *drv = cgn__driver;
    size_t n = 0, e = 0;
    CUresult r = drv->cuGraphGetNodes(raw, NULL, &n);
    if (r != CUDA_SUCCESS)
        return cgn__driver_failed(r, "cuGraphGetNodes", where);
    r = drv->cuGraphGetEdges(raw, NULL, NULL, &e);
    if (r != CUDA_SUCCESS)
        return cgn__driver_failed(r, "cuGraphGetEdges", where);
    if (n > SIZE_MAX / 4 / sizeof(size_t) || e > SIZE_MAX / sizeof(CUgraphNode))
        return cgn__fail(CGN_ERROR_OUT_OF_MEMORY, "%s: %zu nodes do not fit in memory", where, n);
    size_t cap = 4;
    while (cap < 2 * n)
        cap *= 2;
    /* Words: the slots, 2 (n + 1) starts, 5 arrays of n, 6 of e (n, e at least 1 each). */
    size_t n1 = n ? n : 1, e1 = e ? e : 1, per_n, per_e, words, bytes;
    if (!cgn__mul_size(n1, 7, &per_n) || !cgn__mul_size(e1, 6, &per_e) ||
        !cgn__add_size(per_n, per_e, &words) || !cgn__add_size(words, cap + 2, &words) ||
        !cgn__mul_size(words, sizeof(size_t), &bytes))
        return cgn__fail(CGN_ERROR_OUT_OF_MEMORY, "%s: %zu nodes do not fit in memory", where, n);
    l->block = malloc(bytes);
    if (l->block == NULL)
        return cgn__fail(CGN_ERROR_OUT_OF_MEMORY, "%s: out of host memory", where);
    cgn__listing_carve(l, n, e, cap, l->block);
    l->mask = cap - 1;
    /* The H200's driver refuses arrays with a count of zero (CUDA_ERROR_INVALID_VALUE): list
     * only what exists. */
    size_t got_n = n, got_e = e;
    r = n > 0 ? drv->cuGraphGetNodes(raw, l->nodes, &got_n) : CUDA_SUCCESS;
    if (r != CUDA_SUCCESS)
        return cgn__driver_failed(r, "cuGraphGetNodes", where);
    r = e > 0 ? drv->cuGraphGetEdges(raw, l->from, l->to, &got_e) : CUDA_SUCCESS;
    if (r != CUDA_SUCCESS)
        return cgn__driver_failed(r, "cuGraphGetEdges", where);
    if (got_n != n || got_e != e)
        return cgn__fail(CGN_ERROR_INVALID_ARGUMENT,
                         "%s: graph %p changed while it was being adopted", where, (void *)raw);
    l->num_nodes = n;
    l->num_edges = e;
    return CGN_OK;
}

/* Dependencies per node (in edge order) and a topological order: Kahn's algorithm taking the
 * ready node listed first, so a listing already in topological order (a capture, a graph built
 * node by node) is kept as it is. Allocates nothing. */
static cgn_status cgn__sort(cgn__listing *l, const char *where) {
    size_t n = l->num_nodes, e = l->num_edges;
    size_t *from_i = l->from_i, *to_i = l->to_i, *in_start = l->in_start;
    const CUgraphNode *nodes = l->nodes, *from = l->from, *to = l->to;
    int forward = 1; /* every edge goes to a node listed later */
    int grouped = 1; /* the edges come in the order of the nodes they go to */
    size_t last_to = 0, last_from = 0; /* the last edge's ends: the next edge's guesses */
    size_t started = 0; /* grouped: in_start[0, started) are set */
    for (size_t k = 0; k < e; k++) {
        /* Guessed first: the nodes after the last edge's ends (chains, as a capture lists
         * them); after a forward edge such an edge is forward too, and grouped. */
        size_t nt = last_to + 1, nf = last_from + 1;
        if (!(nf < nt && nt < n && nodes[nt] == to[k] && nodes[nf] == from[k])) {
            if (nt >= n || nodes[nt] != to[k])
                nt = cgn__listing_find(l, to[k], last_to);
            nf = nt - (last_to - last_from); /* as far before it as the last edge's */
            if (nf >= n || nodes[nf] != from[k])
                nf = cgn__listing_find(l, from[k], last_from);
            if (nt == SIZE_MAX || nf == SIZE_MAX)
                return cgn__fail(CGN_ERROR_DRIVER,
                                 "%s: cuGraphGetEdges named a node cuGraphGetNodes did not list",
                                 where);
            forward &= nf < nt;
            grouped &= nt >= last_to;
        }
        for (; started <= nt; started++) /* grouped so far: node nt's run starts here */
            in_start[started] = k;
        from_i[k] = nf;
        to_i[k] = nt;
        last_to = nt;
        last_from = nf;
    }
    if (grouped) { /* each node's dependencies are a run of from_i: no copy, no counting */
        l->in_list = from_i;
        for (; started <= n; started++)
            in_start[started] = e;
    } else {
        memset(in_start, 0, (n + 1) * sizeof *in_start);
        for (size_t k = 0; k < e; k++)
            in_start[to_i[k] + 1]++;
        for (size_t i = 0; i < n; i++)
            in_start[i + 1] += in_start[i];
        /* Filled in edge order, in_start[i] serving as node i's cursor (ending as node i + 1's
         * start), then moved back one place. */
        for (size_t k = 0; k < e; k++)
            l->in_list[in_start[to_i[k]]++] = from_i[k];
        for (size_t i = n; i > 0; i--)
            in_start[i] = in_start[i - 1];
        in_start[0] = 0;
    }
    if (forward) { /* the listing is an order already, the one Kahn's algorithm would take */
        l->order = NULL; /* position k is index k */
        return CGN_OK;
    }
    size_t *out_start = l->out_start, *out_list = l->out_list, *heap = l->heap;
    size_t *missing = l->missing; /* dependencies not yet ordered */
    for (size_t i = 0; i < n; i++)
        missing[i] = in_start[i + 1] - in_start[i];
    memset(out_start, 0, (n + 1) * sizeof *out_start);
    for (size_t k = 0; k < e; k++)
        out_start[from_i[k] + 1]++;
    for (size_t i = 0; i < n; i++)
        out_start[i + 1] += out_start[i];
    size_t *cursor = heap; /* borrowed as the out-edge cursor before the heap is used */
    for (size_t i = 0; i < n; i++)
        cursor[i] = 0;
    for (size_t k = 0; k < e; k++)
        out_list[out_start[from_i[k]] + cursor[from_i[k]]++] = to_i[k];
    /* A min-heap of ready nodes by listing index. */
    size_t num_heap = 0, num_order = 0;
    for (size_t i = 0; i < n; i++)
        if (missing[i] == 0)
            heap[num_heap++] = i; /* increasing: already a heap */
    while (num_heap > 0) {
        size_t next = heap[0];
        heap[0] = heap[--num_heap];
        for (size_t i = 0;;) { /* sift down */
            size_t c = 2 * i + 1;
            if (c >= num_heap)
                break;
            if (c + 1 < num_heap && heap[c + 1] < heap[c])
                c++;
            if (heap[i] <= heap[c])
                break;
            size_t t = heap[i];
            heap[i] = heap[c];
            heap[c] = t;
            i = c;
        }
        l->order[num_order++] = next;
        for (size_t k = out_start[next]; k < out_start[next + 1]; k++) {
            size_t m = out_list[k];
            if (--missing[m] != 0)
                continue;
            size_t i = num_heap++; /* sift up */
            heap[i] = m;
            while (i > 0 && heap[(i - 1) / 2] > heap[i]) {
                size_t t = heap[i];
                heap[i] = heap[(i - 1) / 2];
                heap[(i - 1) / 2] = t;
                i = (i - 1) / 2;
            }
        }
    }
    if (num_order != n)
        return cgn__fail(CGN_ERROR_DRIVER, "%s: the graph's edges form a cycle", where);
    /* The dependencies as positions in the order (in a forward listing they are already). */
    size_t *pos = missing; /* done with */
    for (size_t k = 0; k < n; k++)
        pos[l->order[k]] = k;
    for (size_t k = 0; k < e; k++)
        l->in_list[k] = pos[l->in_list[k]];
    return CGN_OK;
}

/* ---- records --------------------------------------------------------------------------------- */

#define CGN__TYPE_MEMO 32 /* CUDA node types remembered by an adoption (those below 32) */

typedef struct cgn__adoption {
    cgn__graph_rec *root;
    CUcontext current;     /* the caller's context: the node's context unless params say */
    cgn__layouts *layouts; /* kernels' parameter layouts, asked once per kernel */
    cgn__arena *arena;     /* kernels' argument blocks are cut from it (txn.c) */
    const char *where;
    signed char types[CGN__TYPE_MEMO]; /* cgn node type + 1 by CUDA type; 0: not seen yet */
    const cgn__node_type_info *infos[CGN__TYPE_MEMO]; /* its info, once seen */
    /* The params nodes of CUDA type t < CGN__TYPE_MEMO are read into: one per CUDA type for
     * the whole adoption, zeroed (its type set) when the type is first seen instead of for
     * every node. That reads the same as a zeroed CUgraphNodeParams per node: a typed getter
     * (generated/src/cgn_registry.c) writes the same bytes of its member on every success (a
     * whole struct read into a zeroed local, or one handle), no other getter writes this one,
     * and reads never write params. */
    CUgraphNodeParams *params;
    size_t max_state; /* the largest adopt_size of the node types */
    cgn__reader reader; /* the reader of every node (storage and unsupported reset for each) */
} cgn__adoption;

/* What an adoption made for itself: the layout cache, the params it read into, and its hold
 * on the arena (the blocks cut from it keep it alive). */
static void cgn__adoption_done(cgn__adoption *a) {
    cgn__layouts_free(a->layouts);
    free(a->params);
    cgn__arena_done(a->arena);
}

/* cgn__type_of, remembered for the adoption; the first sight of a CUDA type also readies the
 * params its nodes are read into (cgn__read_node). */
static cgn_node_type cgn__adopted_type(cgn__adoption *a, CUgraphNodeType t) {
    if ((unsigned)t >= CGN__TYPE_MEMO)
        return cgn__type_of(t);
    if (a->types[t] == 0) {
        a->types[t] = (signed char)(cgn__type_of(t) + 1);
        a->infos[t] = &cgn__node_types[a->types[t] - 1];
        memset(&a->params[t], 0, sizeof a->params[t]);
        a->params[t].type = t;
    }
    return (cgn_node_type)(a->types[t] - 1);
}

/* An adoption's own allocations (cgn__adoption_done frees them). */
static cgn_status cgn__adoption_init(cgn__adoption *a) {
    for (int i = 0; i < CGN_NODE_TYPE_COUNT_; i++)
        if (cgn__node_types[i].adopt_size > a->max_state)
            a->max_state = cgn__node_types[i].adopt_size;
    a->layouts = cgn__layouts_new();
    a->params = malloc(CGN__TYPE_MEMO * sizeof *a->params);
    a->reader = (cgn__reader){a->layouts, NULL, NULL, &a->arena};
    if (a->layouts == NULL || a->params == NULL)
        return cgn__fail(CGN_ERROR_OUT_OF_MEMORY, "%s: out of host memory", a->where);
    return CGN_OK;
}

static cgn_status cgn__adopt_graph(cgn__adoption *a, cgn__graph_rec *g, CUgraph raw);

/* A graph record embedded by child-graph node n (its nodes follow). */
static cgn_status cgn__embedded_rec(cgn__adoption *a, cgn__node_rec *n, CUgraph raw) {
    cgn__graph_rec *g = calloc(1, sizeof *g);
    if (g == NULL)
        return cgn__fail(CGN_ERROR_OUT_OF_MEMORY, "%s: out of host memory", a->where);
    cgn_status st = cgn__handle_new(CGN__KIND_GRAPH, g, &g->handle, a->where);
    if (st != CGN_OK) {
        free(g);
        return st;
    }
    g->root = a->root;
    g->owner = n;
    g->hier = a->root->hier;
    n->embedded = g; /* freed with n from here on */
    return cgn__adopt_graph(a, g, raw);
}

#define CGN__ALIGN16(x) (((x) + 15) / 16 * 16)

/* The records of one adopted graph: one block, this header, then the records in topological
 * order (a fixed stride, CGN__REC_BYTES), then every record's dependencies' handles, one run
 * after another; the records' states in a block of their own (`states`), freed with the slab.
 * Each record holds a reference; the last one freed frees both, so records are still
 * destroyed one by one (CGN__PACKED_*). */
typedef struct cgn__slab {
    atomic_size_t live;
    void *states;
} cgn__slab;
#define CGN__SLAB_HEADER CGN__ALIGN16(sizeof(cgn__slab))
#define CGN__REC_BYTES CGN__ALIGN16(sizeof(cgn__node_rec))

void cgn__slab_release(void *slab) { cgn__slab_release_n(slab, 1); }

void cgn__slab_release_n(void *slab, size_t count) {
    cgn__slab *s = slab;
    if (atomic_fetch_sub_explicit(&s->live, count, memory_order_acq_rel) == count) {
        free(s->states);
        free(s);
    }
}

/* Among the node types recording the same CUDA type as `first` (the first of them), the first
 * in enum order whose form check accepts the params; `first` when none does (it then records
 * the node as one it does not update, saying why). */
static cgn_node_type cgn__type_for_params(cgn_node_type first, const CUgraphNodeParams *p) {
    const cgn__node_type_info *f = &cgn__node_types[first];
    for (int i = (int)first; i < CGN_NODE_TYPE_COUNT_; i++) {
        const cgn__node_type_info *o = &cgn__node_types[i];
        if (o->read != NULL && o->cu_type == f->cu_type && (o->form == NULL || o->form(p) == NULL))
            return (cgn_node_type)i;
    }
    return first;
}

/* The record of the graph's k-th node in topological order, made at its place in the slab
 * (its handle points there already) from the node's type, with its dependencies; its state
 * is the offset of its room in the slab's states until cgn__read_node. Once made it is g's,
 * its handle with it (the caller discards g on failure). *deps_at moves past its
 * dependencies, *state_bytes past its state's room. */
static cgn_status cgn__make_node(cgn__adoption *a, cgn__graph_rec *g, const cgn__listing *l,
                                 size_t k, cgn__slab *slab, cgn__handle **deps_at,
                                 size_t *state_bytes) {
    size_t i = l->order != NULL ? l->order[k] : k;
    CUgraphNode raw = l->nodes[i];
    CUgraphNodeType t;
    CUresult r = cgn__driver->cuGraphNodeGetType(raw, &t);
    if (r != CUDA_SUCCESS)
        return cgn__driver_failed(r, "cuGraphNodeGetType", a->where);
    cgn_node_type type;
    const cgn__node_type_info *info;
    if ((unsigned)t < CGN__TYPE_MEMO && a->types[t] != 0) { /* seen: no lookup */
        type = (cgn_node_type)(a->types[t] - 1);
        info = a->infos[t];
    } else {
        type = cgn__adopted_type(a, t);
        info = &cgn__node_types[type];
    }
    cgn__node_rec *n =
        (cgn__node_rec *)(void *)((unsigned char *)slab + CGN__SLAB_HEADER + k * CGN__REC_BYTES);
    const size_t *dep = l->in_list + l->in_start[i]; /* positions in topological order */
    size_t num_deps = l->in_start[i + 1] - l->in_start[i];
    cgn__handle *deps = *deps_at;
    for (size_t d = 0; d < num_deps; d++) /* ordered before: handles made for all */
        deps[d] = l->handles[dep[d]];
    *deps_at = deps + num_deps;
    /* Every field set, one store each (no memset of the record first). */
    _Static_assert(sizeof(cgn__node_rec) == 144,
                   "cgn__node_rec changed: set the new fields in cgn__make_node");
    n->handle = l->handles[k];
    n->graph = g;
    n->index = k;
    n->raw = raw;
    n->type = type;
    n->packed = CGN__PACKED_SLAB | CGN__PACKED_STATE | (num_deps > 0 ? CGN__PACKED_DEPS : 0);
    n->ctx = a->current;
    n->state = (void *)(uintptr_t)*state_bytes; /* an offset until cgn__read_node */
    n->state_size = info->adopt_size;
    n->storage = NULL;
    n->spare = NULL;
    n->deps = num_deps > 0 ? deps : NULL;
    n->num_deps = num_deps;
    n->embedded = NULL;
    n->source = 0;
    n->source_raw = NULL;
    n->attachment = NULL;
    n->unsupported = type == CGN_NODE_OTHER ? cgn__other_reason(t) : NULL;
    n->slab = slab;
    *state_bytes += CGN__ALIGN16(info->adopt_size);
    g->nodes[g->num_nodes++] = n; /* discarded with g from here on (slab->live counts it) */
    return CGN_OK;
}

/* Node n's state in the slab's states (at the offset cgn__make_node left), filled from the
 * driver: its params through its typed getter, then its node type's read. */
static cgn_status cgn__read_node(cgn__adoption *a, cgn__node_rec *n, unsigned char *states) {
    const char *where = a->where;
    n->state = states + (uintptr_t)n->state;
    const cgn__node_type_info *info = &cgn__node_types[n->type];
    if (info->read == NULL) { /* empty, or a type cgn does not update: nothing to read */
        memset(n->state, 0, n->state_size);
        return CGN_OK;
    }
    /* As cgn__get_params, into the adoption's params for the node's CUDA type (the node
     * type's: a type with a read records exactly one CUDA type). */
    CUgraphNodeType t = info->cu_type;
    CUgraphNodeParams local, *p = &local;
    if ((unsigned)t < CGN__TYPE_MEMO) {
        p = &a->params[t]; /* readied by cgn__adopted_type */
    } else {
        memset(&local, 0, sizeof local);
        local.type = t;
    }
    if (info->get != NULL) {
        CUresult r = info->get(cgn__driver, n->raw, p);
        if (r != CUDA_SUCCESS)
            return cgn__driver_failed(r, info->get_entry, where);
    }
    if (info->form != NULL) { /* a node type with another of the same CUDA type: which one */
        n->type = cgn__type_for_params(n->type, p);
        info = &cgn__node_types[n->type];
    }
    n->state_size = info->desc_size; /* within the room made (adopt_size) */
    /* The context the node runs in, which every update makes current: the one the driver
     * reports (a kernel's ctx, 12.0+), else the caller's. The driver crashes on some kernel
     * updates with none current (txn.c), so cgn refuses to record a node without one. */
    CUcontext ctx = cgn__params_context(info, p);
    if (ctx != NULL)
        n->ctx = ctx;
    if (info->context_offset != 0 && n->ctx == NULL)
        return cgn__fail(CGN_ERROR_NO_CONTEXT,
                         "%s: %s node %p (raw %p) runs in a context the driver does not report, "
                         "and none is current: make the context the graph was built in current "
                         "(cuCtxSetCurrent) before adopting it",
                         where, info->name, cgn__handle_ptr(n->handle), (void *)n->raw);
    cgn__reader *rd = &a->reader; /* {a->layouts, NULL, NULL, &a->arena} */
    rd->storage = NULL;
    rd->unsupported = NULL;
    cgn_status st = info->read(rd, p, n->state, NULL, where);
    n->storage = rd->storage; /* freed with the record on failure */
    if (st != CGN_OK)
        return st;
    n->unsupported = rd->unsupported;
    if (n->type == CGN_NODE_CHILD_GRAPH)
        return cgn__embedded_rec(a, n, p->graph.graph);
    return CGN_OK;
}

/* Records for every node of raw in g: the slab and the handles made in one go (each pointing
 * at its record's place), every node's record made from its type (the states' size counted),
 * then every state read. On failure the records made so far stay in g for the caller to
 * discard (with their handles); the handles of nodes not recorded yet are freed here, and the
 * slab when no record was made in it. */
static cgn_status cgn__adopt_graph(cgn__adoption *a, cgn__graph_rec *g, CUgraph raw) {
    const char *where = a->where;
    g->raw = raw;
    cgn__listing l;
    memset(&l, 0, sizeof l);
    cgn_status st = cgn__list(raw, &l, where);
    if (st == CGN_OK)
        st = cgn__sort(&l, where);
    size_t n = l.num_nodes, bytes = 0;
    if (st == CGN_OK) {
        g->nodes = malloc((n ? n : 1) * sizeof *g->nodes);
        if (g->nodes == NULL)
            st = cgn__fail(CGN_ERROR_OUT_OF_MEMORY, "%s: out of host memory", where);
        g->cap_nodes = g->nodes ? n : 0;
    }
    /* The slab: the header, n records, e dependencies (e fits: the listing held 6 e words);
     * and the states fit (at most the largest state, 16-aligned, per node). */
    size_t states_bound;
    if (st == CGN_OK && n > 0 &&
        (!cgn__mul_size(n, CGN__REC_BYTES, &bytes) ||
         !cgn__add_size(bytes, CGN__SLAB_HEADER + l.num_edges * sizeof(cgn__handle), &bytes) ||
         !cgn__mul_size(n, CGN__ALIGN16(a->max_state), &states_bound)))
        st = cgn__fail(CGN_ERROR_OUT_OF_MEMORY, "%s: %zu nodes do not fit in memory", where, n);
    cgn__slab *slab = NULL;
    if (st == CGN_OK && n > 0) {
        slab = malloc(bytes);
        if (slab == NULL)
            st = cgn__fail(CGN_ERROR_OUT_OF_MEMORY, "%s: out of host memory", where);
        else
            slab->states = NULL;
    }
    size_t made = 0; /* handles made (by topological position; each for the record there) */
    if (slab != NULL) {
        st = cgn__handles_new(CGN__KIND_NODE, n, l.handles,
                              (unsigned char *)slab + CGN__SLAB_HEADER, CGN__REC_BYTES, where);
        if (st == CGN_OK)
            made = n;
    }
    cgn__handle *deps_at =
        slab != NULL ? (cgn__handle *)(void *)((unsigned char *)slab + CGN__SLAB_HEADER +
                                               n * CGN__REC_BYTES)
                     : NULL;
    size_t state_bytes = 0; /* <= states_bound */
    for (size_t k = 0; st == CGN_OK && k < n; k++)
        if ((st = cgn__make_node(a, g, &l, k, slab, &deps_at, &state_bytes)) != CGN_OK)
            break;
    /* One reference per record made in the slab (none is freed before this returns). */
    if (slab != NULL && g->num_nodes == 0) {
        free(slab);
        slab = NULL;
    } else if (slab != NULL) {
        atomic_init(&slab->live, g->num_nodes);
    }
    for (size_t k = g->num_nodes; k < made; k++) /* nodes left without a record */
        cgn__handle_free(l.handles[k]);
    cgn__listing_free(&l);
    if (st == CGN_OK && slab != NULL) {
        slab->states = malloc(state_bytes);
        if (slab->states == NULL)
            st = cgn__fail(CGN_ERROR_OUT_OF_MEMORY, "%s: out of host memory", where);
    }
    if (st == CGN_OK)
        for (size_t k = 0; k < n; k++)
            if ((st = cgn__read_node(a, g->nodes[k], slab->states)) != CGN_OK)
                break;
    return st;
}

cgn_status cgn_graph_adopt(CUgraph raw, unsigned flags, cgn_graph **graph_out) {
    static const char where[] = "cgn_graph_adopt";
    if (graph_out == NULL || raw == NULL)
        return cgn__fail(CGN_ERROR_INVALID_ARGUMENT, "%s: raw and graph_out must not be NULL",
                         where);
    if (flags & ~CGN_ADOPT_TAKE_OWNERSHIP)
        return cgn__fail(CGN_ERROR_INVALID_ARGUMENT, "%s: unknown flags 0x%x", where,
                         flags & ~CGN_ADOPT_TAKE_OWNERSHIP);
    cgn_status st = cgn__driver_ready();
    if (st == CGN_OK)
        st = cgn__check_raw_handle(raw, "raw graph", where);
    if (st != CGN_OK)
        return st;
    cgn__collect_pending();
    const cgn_driver_table *drv = cgn__driver;
    cgn__adoption a = {.where = where};
    CUresult r = drv->cuCtxGetCurrent(&a.current);
    if (r != CUDA_SUCCESS)
        return cgn__driver_failed(r, "cuCtxGetCurrent", where);
    cgn__graph_rec *g = calloc(1, sizeof *g);
    cgn__hier *h = calloc(1, sizeof *h);
    if (cgn__adoption_init(&a) != CGN_OK || g == NULL || h == NULL) {
        free(g);
        free(h);
        cgn__adoption_done(&a);
        return cgn__fail(CGN_ERROR_OUT_OF_MEMORY, "%s: out of host memory", where);
    }
    st = cgn__handle_new(CGN__KIND_GRAPH, g, &g->handle, where);
    if (st != CGN_OK) {
        free(g);
        free(h);
        cgn__adoption_done(&a);
        return st;
    }
    atomic_init(&h->refs, 1);
    h->raw = raw;
    h->borrowed = !(flags & CGN_ADOPT_TAKE_OWNERSHIP);
    g->root = g;
    atomic_init(&g->raw_exposed, 1); /* built elsewhere: its raw handles are out there */
    g->share_epoch = cgn__new_share_epoch();
    g->hier = h;
    a.root = g;
    st = cgn__adopt_graph(&a, g, raw);
    cgn__adoption_done(&a);
    /* The caller's context as it was (a driver call may have made one current). */
    cgn__restore_context(a.current);
    if (st != CGN_OK) {
        cgn__discard_embedding(g); /* every record, embedded ones too, and their handles */
        free(h);
        return st;
    }
    *graph_out = cgn__graph_handle(g);
    return CGN_OK;
}

cgn_status cgn_exec_adopt(CUgraphExec raw, cgn_graph *graph, unsigned flags, cgn_exec **exec_out) {
    static const char where[] = "cgn_exec_adopt";
    cgn__graph_rec *g = NULL;
    cgn_status st = cgn__graph_get(graph, where, &g);
    if (st != CGN_OK)
        return st;
    if (raw == NULL || exec_out == NULL)
        return cgn__fail(CGN_ERROR_INVALID_ARGUMENT, "%s: raw and exec_out must not be NULL",
                         where);
    if (flags & ~CGN_ADOPT_TAKE_OWNERSHIP)
        return cgn__fail(CGN_ERROR_INVALID_ARGUMENT, "%s: unknown flags 0x%x", where,
                         flags & ~CGN_ADOPT_TAKE_OWNERSHIP);
    st = cgn__check_raw_handle(raw, "raw executable", where);
    if (st != CGN_OK)
        return st;
    if (g->raw == NULL)
        return cgn__fail(CGN_ERROR_DRIVER,
                         "%s: embedded graph %p could not be located after its child node was "
                         "replaced",
                         where, (void *)graph);
    cgn__collect_pending();
    return cgn__exec_wrap(g, raw, !(flags & CGN_ADOPT_TAKE_OWNERSHIP), exec_out, where);
}

/* ---- finding nodes --------------------------------------------------------------------------- */

/* CUDA's count convention: *count in, the room in out (ignored when out is NULL); out, the
 * total. Entries go in through `put`, called with the running total. */
static cgn_status cgn__check_list_args(void *out, const size_t *count, const char *where) {
    (void)out;
    if (count == NULL)
        return cgn__fail(CGN_ERROR_INVALID_ARGUMENT, "%s: count must not be NULL", where);
    return CGN_OK;
}

static void cgn__put(cgn_node **out, size_t cap, size_t *total, const cgn__node_rec *n) {
    if (out != NULL && *total < cap)
        out[*total] = cgn__node_handle(n);
    (*total)++;
}

cgn_status cgn_graph_nodes(const cgn_graph *graph, cgn_node **out, size_t *count) {
    static const char where[] = "cgn_graph_nodes";
    cgn__graph_rec *g = NULL;
    cgn_status st = cgn__graph_get(graph, where, &g);
    if (st == CGN_OK)
        st = cgn__check_list_args(out, count, where);
    if (st != CGN_OK)
        return st;
    size_t cap = out ? *count : 0, total = 0;
    for (size_t i = 0; i < g->num_nodes; i++)
        cgn__put(out, cap, &total, g->nodes[i]);
    *count = total;
    return CGN_OK;
}

const cgn__node_rec *cgn__find_raw_in(const cgn__graph_rec *g, CUgraphNode raw) {
    if (raw == NULL)
        return NULL;
    for (size_t i = 0; i < g->num_nodes; i++) {
        if (g->nodes[i]->raw == raw)
            return g->nodes[i];
        CGN__FOR_EMBEDDED(inner, g->nodes[i]) {
            const cgn__node_rec *n = cgn__find_raw_in(inner, raw);
            if (n != NULL)
                return n;
        }
    }
    return NULL;
}

cgn_status cgn_graph_find_raw(const cgn_graph *graph, CUgraphNode raw, cgn_node **node_out) {
    static const char where[] = "cgn_graph_find_raw";
    cgn__graph_rec *g = NULL;
    cgn_status st = cgn__graph_get(graph, where, &g);
    if (st != CGN_OK)
        return st;
    if (raw == NULL || node_out == NULL)
        return cgn__fail(CGN_ERROR_INVALID_ARGUMENT, "%s: raw and node_out must not be NULL",
                         where);
    const cgn__node_rec *n = cgn__find_raw_in(g, raw);
    if (n == NULL)
        return cgn__fail(CGN_ERROR_INVALID_VALUE,
                         "%s: raw node %p is not a node of graph %p or of a graph embedded in it",
                         where, (void *)raw, (const void *)graph);
    *node_out = cgn__node_handle(n);
    return CGN_OK;
}

/* What find_kernel looks for: the kernel, and its other handle where the driver can tell. */
typedef struct cgn__kernel_query {
    cgn_kernel want;
    CUfunction want_function; /* want.kernel's function in the current context, or NULL */
} cgn__kernel_query;

static int cgn__kernel_matches(const cgn__kernel_query *q, cgn_kernel k) {
    if (k.function == q->want.function && k.kernel == q->want.kernel)
        return 1;
    if (q->want_function != NULL && k.function == q->want_function)
        return 1;
    /* A CUkernel launched as a CUfunction (cuLaunchKernel allows the cast), if the driver
     * keeps the handle it was given. */
    if (q->want.kernel != NULL && (void *)k.function == (void *)q->want.kernel)
        return 1;
    if (q->want.function != NULL && k.kernel != NULL && cgn__driver->cuKernelGetFunction) {
        CUfunction f = NULL;
        return cgn__driver->cuKernelGetFunction(&f, k.kernel) == CUDA_SUCCESS &&
               f == q->want.function;
    }
    return 0;
}

static void cgn__find_kernel_in(const cgn__graph_rec *g, const cgn__kernel_query *q, cgn_node **out,
                                size_t cap, size_t *total) {
    for (size_t i = 0; i < g->num_nodes; i++) {
        const cgn__node_rec *n = g->nodes[i];
        cgn_kernel k;
        if (n->type == CGN_NODE_KERNEL && cgn__storage_kernel(n->storage, &k) &&
            cgn__kernel_matches(q, k))
            cgn__put(out, cap, total, n);
        CGN__FOR_EMBEDDED(inner, n)
            cgn__find_kernel_in(inner, q, out, cap, total);
    }
}

cgn_status cgn_graph_find_kernel(const cgn_graph *graph, cgn_kernel kernel, cgn_node **out,
                                 size_t *count) {
    static const char where[] = "cgn_graph_find_kernel";
    cgn__graph_rec *g = NULL;
    cgn_status st = cgn__graph_get(graph, where, &g);
    if (st == CGN_OK)
        st = cgn__check_list_args(out, count, where);
    if (st != CGN_OK)
        return st;
    if ((kernel.function == NULL) == (kernel.kernel == NULL))
        return cgn__fail(CGN_ERROR_INVALID_ARGUMENT,
                         "%s: kernel must name exactly one of a CUfunction and a CUkernel", where);
    if (kernel.kernel != NULL) { /* asked of the driver below */
        st = cgn__check_raw_handle(kernel.kernel, "kernel (CUkernel)", where);
        if (st != CGN_OK)
            return st;
    }
    cgn__collect_pending();
    cgn__kernel_query q = {kernel, NULL};
    const cgn_driver_table *drv = cgn__driver;
    if (kernel.kernel != NULL && drv->cuKernelGetFunction != NULL &&
        drv->cuKernelGetFunction(&q.want_function, kernel.kernel) != CUDA_SUCCESS)
        q.want_function = NULL; /* no context current: CUkernel handles match alone */
    size_t cap = out ? *count : 0, total = 0;
    cgn__find_kernel_in(g, &q, out, cap, &total);
    *count = total;
    return CGN_OK;
}

cgn_status cgn_node_dependencies(const cgn_node *node, cgn_node **out, size_t *count) {
    static const char where[] = "cgn_node_dependencies";
    cgn__node_rec *n = NULL;
    cgn_status st = cgn__check_node(node, CGN_NODE_TYPE_COUNT_, where, &n);
    if (st == CGN_OK)
        st = cgn__check_list_args(out, count, where);
    if (st != CGN_OK)
        return st;
    size_t cap = out ? *count : 0;
    for (size_t i = 0; out != NULL && i < n->num_deps && i < cap; i++)
        out[i] = (cgn_node *)cgn__handle_ptr(n->deps[i]);
    *count = n->num_deps;
    return CGN_OK;
}

cgn_status cgn_node_dependents(const cgn_node *node, cgn_node **out, size_t *count) {
    static const char where[] = "cgn_node_dependents";
    cgn__node_rec *n = NULL;
    cgn_status st = cgn__check_node(node, CGN_NODE_TYPE_COUNT_, where, &n);
    if (st == CGN_OK)
        st = cgn__check_list_args(out, count, where);
    if (st != CGN_OK)
        return st;
    const cgn__graph_rec *g = n->graph;
    size_t cap = out ? *count : 0, total = 0;
    for (size_t i = n->index + 1; i < g->num_nodes; i++) /* dependents come later */
        for (size_t d = 0; d < g->nodes[i]->num_deps; d++)
            if (g->nodes[i]->deps[d] == n->handle) {
                cgn__put(out, cap, &total, g->nodes[i]);
                break;
            }
    *count = total;
    return CGN_OK;
}

/* ---- refresh and updatability -------------------------------------------------------------- */

/* A child-graph node whose embedded graph is no longer the one cgn recorded (replaced with raw
 * driver calls): its records are made again from the driver. */
static cgn_status cgn__refresh_embedding(cgn__node_rec *n, CUgraph raw, const char *where) {
    if (n->embedded != NULL && n->embedded->raw == raw)
        return CGN_OK; /* the same graph: its nodes refresh one by one */
    const cgn_driver_table *drv = cgn__driver;
    cgn__adoption a = {.root = n->graph->root, .where = where};
    if (cgn__adoption_init(&a) != CGN_OK) {
        cgn__adoption_done(&a);
        return cgn__fail(CGN_ERROR_OUT_OF_MEMORY, "%s: out of host memory", where);
    }
    CUresult r = drv->cuCtxGetCurrent(&a.current);
    if (r != CUDA_SUCCESS) {
        cgn__adoption_done(&a);
        return cgn__driver_failed(r, "cuCtxGetCurrent", where);
    }
    cgn__graph_rec *old = n->embedded;
    n->embedded = NULL;
    cgn_status st = cgn__embedded_rec(&a, n, raw);
    cgn__adoption_done(&a);
    if (st != CGN_OK) {
        cgn__discard_embedding(n->embedded);
        n->embedded = old;
        return st;
    }
    if (old != NULL)
        cgn__retire_embedded(old);      /* CUDA destroyed that copy when it was replaced */
    memset(n->state, 0, n->state_size); /* no source graph any more */
    return CGN_OK;
}

cgn_status cgn_node_refresh(cgn_node *node) {
    static const char where[] = "cgn_node_refresh";
    cgn__node_rec *n = NULL;
    cgn_status st = cgn__check_node(node, CGN_NODE_TYPE_COUNT_, where, &n);
    if (st != CGN_OK)
        return st;
    cgn__collect_pending();
    const cgn__node_type_info *info = &cgn__node_types[n->type];
    if (info->read == NULL)
        return CGN_OK; /* empty, or a type cgn records without reading */
    CUgraphNodeParams p;
    const char *entry = "";
    CUresult r = cgn__get_params(n->raw, info->cu_type, &p, &entry);
    if (r != CUDA_SUCCESS)
        return cgn__driver_failed(r, entry, where);
    if (n->type == CGN_NODE_CHILD_GRAPH)
        return cgn__refresh_embedding(n, p.graph.graph, where);
    void *state = malloc(n->state_size);
    if (state == NULL)
        return cgn__fail(CGN_ERROR_OUT_OF_MEMORY, "%s: out of host memory", where);
    cgn__reader rd = {NULL, NULL, NULL, NULL};
    st = info->read(&rd, &p, state, n->state, where);
    if (st != CGN_OK) {
        cgn__block_release(rd.storage);
        free(state);
        return st;
    }
    /* Publish. Executables keep their own copies; the attachment stays (it holds at least the
     * owners the new record names, which were kept only for unchanged values). */
    memcpy(n->state, state, n->state_size); /* the record's own block may hold n->state */
    free(state);
    if (rd.storage != NULL || n->storage != NULL) {
        cgn__block_release(n->storage);
        n->storage = rd.storage;
    }
    n->unsupported = rd.unsupported;
    CUcontext ctx = cgn__params_context(info, &p);
    if (ctx != NULL)
        n->ctx = ctx;
    return CGN_OK;
}

cgn_status cgn_node_check_updatable(const cgn_node *node) {
    static const char where[] = "cgn_node_check_updatable";
    cgn__node_rec *n = NULL;
    cgn_status st = cgn__check_node(node, CGN_NODE_TYPE_COUNT_, where, &n);
    if (st != CGN_OK)
        return st;
    if (n->unsupported != NULL)
        return cgn__unsupported(node, n->unsupported, where);
    if (!cgn__node_types[n->type].updatable && n->type != CGN_NODE_EMPTY)
        return cgn__fail(CGN_ERROR_NOT_SUPPORTED,
                         "%s: node %p is a %s node (%s), which is not updatable: CUDA cannot "
                         "change its parameters once it is added",
                         where, (const void *)node, cgn__node_type_name(n->type),
                         cgn__node_types[n->type].cu_type_name != NULL
                             ? cgn__node_types[n->type].cu_type_name
                             : "a type cgn does not record");
    const char *opaque = n->type == CGN_NODE_KERNEL ? cgn__storage_opaque(n->storage) : NULL;
    if (opaque != NULL)
        return cgn__fail(CGN_ERROR_NOT_SUPPORTED,
                         "%s: kernel node %p was adopted with arguments cgn could not copy: %s; "
                         "only an update setting every argument is accepted",
                         where, (const void *)node, opaque);
    return CGN_OK;
}
