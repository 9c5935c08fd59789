/* The fake CUDA driver behind cgn's unit tests; fake_driver.h says what it models.
 *
 * Layout: one static state struct (S) holds the version, the table, the context stack, the
 * registry of live handles and the marked device ranges. Every object is a small heap struct
 * whose address is its handle; the registry (an open-addressing hash set of addresses) is
 * what makes a stale or foreign handle an error instead of a use-after-free.
 *
 * A node's parameters live in a fake_payload: the CUgraphNodeParams the node was given, with
 * its pointers (kernel arguments, child graph) redirected to storage the payload owns. Adding,
 * setting, cloning and instantiating all build a complete new payload first and only then
 * install it, so a failing call leaves every object as it was. */
#include "fake_driver.h"

#include <limits.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#define FAKE_DEFAULT_VERSION 13000
#define FAKE_NUM_CONTEXTS 4
#define FAKE_CTX_STACK_MAX 64
#define FAKE_MAX_PARAM_ALIGN 8

/* ---- objects --------------------------------------------------------------------------------- */

enum fake_kind {
    KIND_NONE = 0,
    KIND_GRAPH,
    KIND_NODE,
    KIND_EXEC,
    KIND_UOBJ,
    KIND_FUNC, /* a fake_kernel's CUfunction handle */
    KIND_KERN, /* a fake_kernel's CUkernel handle */
    KIND_EVENT
};

typedef struct fake_graph fake_graph;
typedef struct fake_node fake_node;
typedef struct fake_kernel fake_kernel;

/* CUfunction and CUkernel are the addresses of two of these inside one fake_kernel, so both
 * handle kinds are distinct registry keys that lead back to the same kernel. */
typedef struct fake_khandle {
    fake_kernel *kernel;
} fake_khandle;

struct fake_kernel {
    char *name;
    size_t num_params;
    size_t *sizes;
    size_t *offsets;
    size_t total_bytes; /* packed size of all arguments */
    cgn_fake_kernel_fn run;
    void *user;
    fake_khandle function, kernel;
};

typedef struct fake_payload {
    CUgraphNodeParams p;      /* as given, pointers redirected to the storage below */
    CUcontext ctx;            /* the context the node was added or last set with */
    fake_kernel *kernel;      /* kernel nodes */
    unsigned char *arg_bytes; /* kernel nodes: packed copies of the argument values */
    void **arg_ptrs;          /* kernel nodes: p.kernel.kernelParams, pointing into arg_bytes */
    fake_graph *child;        /* child graph nodes: the embedded graph, p.graph.graph */
} fake_payload;

struct fake_node {
    uint64_t id;      /* unique for the fake's lifetime, unlike addresses which get reused */
    uint64_t orig_id; /* id of the node this one was cloned from; 0 if none */
    fake_graph *graph;
    size_t index; /* position in graph->nodes */
    fake_node **deps;
    size_t num_deps;
    fake_payload pl;
};

typedef struct fake_uobj {
    void *ptr;
    CUhostFn destroy;
    size_t total;      /* every reference: callers' plus graph_refs */
    size_t graph_refs; /* references held by graphs (and so by executables' snapshots) */
} fake_uobj;

typedef struct fake_ref {
    fake_uobj *object;
    size_t count;
} fake_ref;

struct fake_graph {
    int snapshot;      /* part of an executable: never accepted as a CUgraph argument */
    fake_node *parent; /* the child graph node embedding this graph, or NULL */
    fake_node **nodes; /* insertion order, which is also a topological order */
    size_t num_nodes, cap_nodes;
    fake_ref *refs;
    size_t num_refs, cap_refs;
};

typedef struct fake_exec {
    fake_graph *snapshot;
    size_t launches;
} fake_exec;

typedef struct fake_event {
    int records;
} fake_event;

typedef struct fake_ctx {
    int unused; /* only the address matters */
} fake_ctx;

typedef struct fake_range {
    uintptr_t begin, end;
    unsigned int type; /* the CUmemorytype cuPointerGetAttribute reports */
} fake_range;

typedef struct fake_slot {
    void *key; /* NULL: empty */
    int kind;
} fake_slot;

/* ---- state ----------------------------------------------------------------------------------- */

static struct fake_state {
    int version;
    cgn_driver_table table;
    fake_ctx contexts[FAKE_NUM_CONTEXTS];
    CUcontext current;
    CUcontext saved[FAKE_CTX_STACK_MAX]; /* the stack below the current context */
    size_t depth;
    fake_slot *slots; /* registry; capacity is a power of two */
    size_t cap, count;
    fake_range *ranges;
    size_t num_ranges, cap_ranges;
    uint64_t next_id;
    int callback_depth;
} S = {.version = FAKE_DEFAULT_VERSION, .current = (CUcontext)&S.contexts[0], .next_id = 1};

/* ---- registry of live handles ---------------------------------------------------------------- */

static size_t reg_home(const void *key, size_t cap)
{
    uint64_t x = (uint64_t)(uintptr_t)key;
    x ^= x >> 33; /* murmur finaliser: heap addresses differ mostly in the middle bits */
    x *= 0xff51afd7ed558ccdULL;
    x ^= x >> 33;
    return (size_t)(x & (cap - 1));
}

static size_t reg_probe(const fake_slot *slots, size_t cap, const void *key)
{
    size_t i = reg_home(key, cap);
    while (slots[i].key && slots[i].key != key)
        i = (i + 1) & (cap - 1);
    return i;
}

static int reg_grow(void)
{
    size_t cap = S.cap ? S.cap * 2 : 64;
    fake_slot *slots = calloc(cap, sizeof *slots);
    if (!slots)
        return 0;
    for (size_t i = 0; i < S.cap; i++)
        if (S.slots[i].key)
            slots[reg_probe(slots, cap, S.slots[i].key)] = S.slots[i];
    free(S.slots);
    S.slots = slots;
    S.cap = cap;
    return 1;
}

static int reg_add(void *key, int kind)
{
    if ((S.count + 1) * 2 > S.cap && !reg_grow())
        return 0;
    size_t i = reg_probe(S.slots, S.cap, key);
    S.slots[i].key = key;
    S.slots[i].kind = kind;
    S.count++;
    return 1;
}

static int reg_kind(const void *key)
{
    if (!key || !S.cap)
        return KIND_NONE;
    return S.slots[reg_probe(S.slots, S.cap, key)].kind;
}

/* Linear-probing delete with backward shift (Knuth's algorithm R), so lookups never need
 * tombstones. */
static void reg_remove(const void *key)
{
    if (!key || !S.cap)
        return;
    size_t mask = S.cap - 1, i = reg_probe(S.slots, S.cap, key);
    if (!S.slots[i].key)
        return;
    S.slots[i].key = NULL;
    S.slots[i].kind = KIND_NONE;
    S.count--;
    for (size_t j = (i + 1) & mask; S.slots[j].key; j = (j + 1) & mask) {
        size_t home = reg_home(S.slots[j].key, S.cap);
        int stays = (i <= j) ? (i < home && home <= j) : (i < home || home <= j);
        if (stays)
            continue;
        S.slots[i] = S.slots[j];
        S.slots[j].key = NULL;
        S.slots[j].kind = KIND_NONE;
        i = j;
    }
}

/* ---- handle lookups: NULL for anything not live of the expected kind ------------------------- */

static fake_graph *lookup_graph(CUgraph h)
{
    if (reg_kind(h) != KIND_GRAPH)
        return NULL;
    fake_graph *g = (fake_graph *)h;
    return g->snapshot ? NULL : g;
}

static fake_node *lookup_node(CUgraphNode h)
{
    if (reg_kind(h) != KIND_NODE)
        return NULL;
    fake_node *n = (fake_node *)h;
    return n->graph->snapshot ? NULL : n;
}

static fake_exec *lookup_exec(CUgraphExec h)
{
    return reg_kind(h) == KIND_EXEC ? (fake_exec *)h : NULL;
}

static fake_uobj *lookup_uobj(CUuserObject h)
{
    return reg_kind(h) == KIND_UOBJ ? (fake_uobj *)h : NULL;
}

static fake_event *lookup_event(CUevent h)
{
    return reg_kind(h) == KIND_EVENT ? (fake_event *)h : NULL;
}

static fake_kernel *lookup_function(CUfunction h)
{
    return reg_kind(h) == KIND_FUNC ? ((fake_khandle *)h)->kernel : NULL;
}

static fake_kernel *lookup_kernel(CUkernel h)
{
    return reg_kind(h) == KIND_KERN ? ((fake_khandle *)h)->kernel : NULL;
}

static int context_valid(CUcontext c)
{
    for (int i = 0; i < FAKE_NUM_CONTEXTS; i++)
        if (c == (CUcontext)&S.contexts[i])
            return 1;
    return 0;
}

/* ---- user objects ---------------------------------------------------------------------------- */

/* Runs the destructor as CUDA would, on "its" thread: tests watch cgn_fake_in_driver_callback. */
static void uobj_destroy(fake_uobj *o)
{
    reg_remove(o);
    S.callback_depth++;
    o->destroy(o->ptr);
    S.callback_depth--;
    free(o);
}

static void uobj_drop(fake_uobj *o, size_t count)
{
    o->total -= count;
    if (o->total == 0)
        uobj_destroy(o);
}

static fake_ref *graph_find_ref(const fake_graph *g, const fake_uobj *o)
{
    for (size_t i = 0; i < g->num_refs; i++)
        if (g->refs[i].object == o)
            return &g->refs[i];
    return NULL;
}

/* Gives g `count` more references to o: new ones, or (move) ones the caller held. */
static CUresult graph_add_ref(fake_graph *g, fake_uobj *o, size_t count, int move)
{
    fake_ref *ref = graph_find_ref(g, o);
    if (!ref) {
        if (g->num_refs == g->cap_refs) {
            size_t cap = g->cap_refs ? g->cap_refs * 2 : 4;
            fake_ref *refs = realloc(g->refs, cap * sizeof *refs);
            if (!refs)
                return CUDA_ERROR_OUT_OF_MEMORY;
            g->refs = refs;
            g->cap_refs = cap;
        }
        ref = &g->refs[g->num_refs++];
        ref->object = o;
        ref->count = 0;
    }
    ref->count += count;
    o->graph_refs += count;
    if (!move)
        o->total += count;
    return CUDA_SUCCESS;
}

/* Drops every reference of a reference list; the list is detached from its graph before any
 * destructor can run. */
static void refs_release_all(fake_ref *refs, size_t num_refs)
{
    for (size_t i = 0; i < num_refs; i++) {
        refs[i].object->graph_refs -= refs[i].count;
        uobj_drop(refs[i].object, refs[i].count);
    }
    free(refs);
}

/* ---- graphs and nodes ------------------------------------------------------------------------ */

static void payload_free(fake_payload *pl);

static fake_graph *graph_new(int snapshot)
{
    fake_graph *g = calloc(1, sizeof *g);
    if (!g)
        return NULL;
    g->snapshot = snapshot;
    if (!reg_add(g, KIND_GRAPH)) {
        free(g);
        return NULL;
    }
    return g;
}

static void node_free(fake_node *n)
{
    reg_remove(n);
    payload_free(&n->pl);
    free(n->deps);
    free(n);
}

/* Destroys g, its nodes and their embedded graphs, then drops g's user-object references
 * (last, so destructors never see a half-destroyed graph). */
static void graph_destroy(fake_graph *g)
{
    for (size_t i = 0; i < g->num_nodes; i++)
        node_free(g->nodes[i]);
    fake_ref *refs = g->refs;
    size_t num_refs = g->num_refs;
    reg_remove(g);
    free(g->nodes);
    free(g);
    refs_release_all(refs, num_refs);
}

static CUresult graph_append(fake_graph *g, fake_node *n)
{
    if (g->num_nodes == g->cap_nodes) {
        size_t cap = g->cap_nodes ? g->cap_nodes * 2 : 8;
        fake_node **nodes = realloc(g->nodes, cap * sizeof *nodes);
        if (!nodes)
            return CUDA_ERROR_OUT_OF_MEMORY;
        g->nodes = nodes;
        g->cap_nodes = cap;
    }
    n->graph = g;
    n->index = g->num_nodes;
    g->nodes[g->num_nodes++] = n;
    return CUDA_SUCCESS;
}

/* Removes n and every edge into it from its graph, as cuGraphDestroyNode does. */
static void graph_unlink(fake_graph *g, fake_node *n)
{
    for (size_t i = 0; i < g->num_nodes; i++) {
        fake_node *m = g->nodes[i];
        size_t kept = 0;
        for (size_t d = 0; d < m->num_deps; d++)
            if (m->deps[d] != n)
                m->deps[kept++] = m->deps[d];
        m->num_deps = kept;
    }
    for (size_t i = n->index + 1; i < g->num_nodes; i++) {
        g->nodes[i - 1] = g->nodes[i];
        g->nodes[i - 1]->index = i - 1;
    }
    g->num_nodes--;
}

/* Dependencies must be distinct live nodes of g (the driver's rule). */
static CUresult check_deps(const fake_graph *g, const CUgraphNode *deps, size_t num_deps)
{
    if (num_deps && !deps)
        return CUDA_ERROR_INVALID_VALUE;
    for (size_t i = 0; i < num_deps; i++) {
        const fake_node *d = lookup_node(deps[i]);
        if (!d || d->graph != g)
            return CUDA_ERROR_INVALID_VALUE;
        for (size_t j = 0; j < i; j++)
            if (deps[j] == deps[i])
                return CUDA_ERROR_INVALID_VALUE;
    }
    return CUDA_SUCCESS;
}

/* Creates a node in g that takes over *pl on success; on failure *pl is left to the caller. */
static CUresult node_create(fake_graph *g, fake_payload *pl, const CUgraphNode *deps,
                            size_t num_deps, fake_node **out)
{
    fake_node *n = calloc(1, sizeof *n);
    if (!n)
        return CUDA_ERROR_OUT_OF_MEMORY;
    if (num_deps) {
        n->deps = malloc(num_deps * sizeof *n->deps);
        if (!n->deps) {
            free(n);
            return CUDA_ERROR_OUT_OF_MEMORY;
        }
        for (size_t i = 0; i < num_deps; i++)
            n->deps[i] = (fake_node *)deps[i];
        n->num_deps = num_deps;
    }
    if (!reg_add(n, KIND_NODE)) {
        free(n->deps);
        free(n);
        return CUDA_ERROR_OUT_OF_MEMORY;
    }
    if (graph_append(g, n) != CUDA_SUCCESS) {
        reg_remove(n);
        free(n->deps);
        free(n);
        return CUDA_ERROR_OUT_OF_MEMORY;
    }
    n->id = S.next_id++;
    n->pl = *pl;
    if (n->pl.child)
        n->pl.child->parent = n;
    *out = n;
    return CUDA_SUCCESS;
}

/* Installs a new payload in n and frees the old one (destroying a replaced child graph). */
static void node_replace_payload(fake_node *n, fake_payload *pl)
{
    fake_payload old = n->pl;
    n->pl = *pl;
    if (n->pl.child)
        n->pl.child->parent = n;
    payload_free(&old);
}

static CUresult payload_copy(const fake_payload *src, int snapshot, fake_payload *out);

/* Clones one node of src into g, mapping its dependencies by position (the clone keeps the
 * source's order, so g->nodes[k] is the copy of src->nodes[k]). */
static CUresult clone_node(fake_graph *g, const fake_node *s, int snapshot)
{
    CUgraphNode *deps = NULL;
    if (s->num_deps) {
        deps = malloc(s->num_deps * sizeof *deps);
        if (!deps)
            return CUDA_ERROR_OUT_OF_MEMORY;
        for (size_t d = 0; d < s->num_deps; d++)
            deps[d] = (CUgraphNode)g->nodes[s->deps[d]->index];
    }
    fake_payload pl;
    fake_node *n = NULL;
    CUresult r = payload_copy(&s->pl, snapshot, &pl);
    if (r == CUDA_SUCCESS) {
        r = node_create(g, &pl, deps, s->num_deps, &n);
        if (r != CUDA_SUCCESS)
            payload_free(&pl);
        else
            n->orig_id = s->id;
    }
    free(deps);
    return r;
}

/* Deep copy: nodes, params, edges, embedded graphs, and one more reference per reference the
 * source holds to each user object. NULL (and *err) on failure, with nothing leaked. */
static fake_graph *graph_clone(const fake_graph *src, int snapshot, CUresult *err)
{
    fake_graph *g = graph_new(snapshot);
    CUresult r = g ? CUDA_SUCCESS : CUDA_ERROR_OUT_OF_MEMORY;
    for (size_t i = 0; g && r == CUDA_SUCCESS && i < src->num_nodes; i++)
        r = clone_node(g, src->nodes[i], snapshot);
    for (size_t i = 0; g && r == CUDA_SUCCESS && i < src->num_refs; i++)
        r = graph_add_ref(g, src->refs[i].object, src->refs[i].count, 0);
    if (r != CUDA_SUCCESS) {
        if (g)
            graph_destroy(g);
        *err = r;
        return NULL;
    }
    return g;
}

/* ---- kernels --------------------------------------------------------------------------------- */

/* Natural alignment of an argument of `size` bytes: the largest power of two dividing it,
 * capped at 8 (what a 12-byte struct of ints or a 16-byte struct of doubles would get). */
static size_t param_align(size_t size)
{
    size_t a = FAKE_MAX_PARAM_ALIGN;
    while (size % a)
        a /= 2;
    return a;
}

static void kernel_free(fake_kernel *k)
{
    free(k->name);
    free(k->sizes);
    free(k->offsets);
    free(k);
}

static int kernel_layout(fake_kernel *k, const size_t *sizes)
{
    if (k->num_params == 0)
        return 1; /* malloc(0) may return NULL: keep the arrays NULL instead */
    k->sizes = malloc(k->num_params * sizeof *k->sizes);
    k->offsets = malloc(k->num_params * sizeof *k->offsets);
    if (!k->sizes || !k->offsets)
        return 0;
    size_t off = 0;
    for (size_t i = 0; i < k->num_params; i++) {
        size_t a = param_align(sizes[i]);
        off = (off + a - 1) / a * a;
        k->sizes[i] = sizes[i];
        k->offsets[i] = off;
        off += sizes[i];
    }
    k->total_bytes = off;
    return 1;
}

/* Copies the argument values a kernel node was given, as the driver does: the caller may free
 * or reuse them as soon as the call returns. */
static CUresult copy_args(const fake_kernel *k, void *const *params, unsigned char **bytes_out,
                          void ***ptrs_out)
{
    *bytes_out = NULL;
    *ptrs_out = NULL;
    if (k->num_params == 0)
        return CUDA_SUCCESS;
    if (!params)
        return CUDA_ERROR_INVALID_VALUE;
    for (size_t i = 0; i < k->num_params; i++)
        if (!params[i])
            return CUDA_ERROR_INVALID_VALUE;
    unsigned char *bytes = malloc(k->total_bytes);
    void **ptrs = malloc(k->num_params * sizeof *ptrs);
    if (!bytes || !ptrs) {
        free(bytes);
        free(ptrs);
        return CUDA_ERROR_OUT_OF_MEMORY;
    }
    for (size_t i = 0; i < k->num_params; i++) {
        ptrs[i] = bytes + k->offsets[i];
        memcpy(ptrs[i], params[i], k->sizes[i]);
    }
    *bytes_out = bytes;
    *ptrs_out = ptrs;
    return CUDA_SUCCESS;
}

/* ---- payloads: validation and deep copies of node parameters --------------------------------- */

static void payload_free_storage(fake_payload *pl)
{
    free(pl->arg_bytes);
    free(pl->arg_ptrs);
    pl->arg_bytes = NULL;
    pl->arg_ptrs = NULL;
}

static void payload_free(fake_payload *pl)
{
    payload_free_storage(pl);
    if (pl->child)
        graph_destroy(pl->child);
    pl->child = NULL;
}

static CUresult build_kernel(const CUDA_KERNEL_NODE_PARAMS_v3 *in, fake_payload *out)
{
    if (!in->func && !in->kern)
        return CUDA_ERROR_INVALID_VALUE;
    /* The driver only looks at kern when func is NULL. */
    fake_kernel *k = in->func ? lookup_function(in->func) : lookup_kernel(in->kern);
    if (!k)
        return CUDA_ERROR_INVALID_HANDLE;
    if (in->kernelParams && in->extra)
        return CUDA_ERROR_INVALID_VALUE;
    if (in->extra)
        return CUDA_ERROR_NOT_SUPPORTED; /* the fake only takes kernelParams */
    if (!in->gridDimX || !in->gridDimY || !in->gridDimZ || !in->blockDimX || !in->blockDimY ||
        !in->blockDimZ)
        return CUDA_ERROR_INVALID_VALUE;
    /* A CUkernel runs in ctx (NULL: the current one); a CUfunction is bound to its own. */
    CUcontext ctx = (!in->func && in->ctx) ? in->ctx : S.current;
    if (!in->func && !context_valid(ctx))
        return CUDA_ERROR_INVALID_CONTEXT;
    CUresult r = copy_args(k, in->kernelParams, &out->arg_bytes, &out->arg_ptrs);
    if (r != CUDA_SUCCESS)
        return r;
    out->p.kernel = *in;
    out->p.kernel.kernelParams = out->arg_ptrs;
    if (!in->func)
        out->p.kernel.ctx = ctx;
    out->kernel = k;
    out->ctx = ctx;
    return CUDA_SUCCESS;
}

static CUresult build_memset(const CUDA_MEMSET_NODE_PARAMS_v2 *in, fake_payload *out)
{
    if (in->elementSize != 1 && in->elementSize != 2 && in->elementSize != 4)
        return CUDA_ERROR_INVALID_VALUE;
    if (in->width == 0 || in->height == 0 || in->dst == 0)
        return CUDA_ERROR_INVALID_VALUE;
    if (in->height > 1 && in->pitch < in->width * in->elementSize)
        return CUDA_ERROR_INVALID_VALUE; /* rows would overlap */
    CUcontext ctx = in->ctx ? in->ctx : S.current;
    if (!context_valid(ctx))
        return CUDA_ERROR_INVALID_CONTEXT;
    out->p.memset = *in;
    out->p.memset.ctx = ctx;
    out->ctx = ctx;
    return CUDA_SUCCESS;
}

static int memtype_supported(CUmemorytype t)
{
    return t == CU_MEMORYTYPE_HOST || t == CU_MEMORYTYPE_DEVICE || t == CU_MEMORYTYPE_UNIFIED;
}

/* The fake's address for one side of a copy: every CUdeviceptr is a host address. */
static unsigned char *memcpy_side(CUmemorytype t, const void *host, CUdeviceptr device)
{
    uintptr_t address = t == CU_MEMORYTYPE_HOST ? (uintptr_t)host : (uintptr_t)device;
    return (unsigned char *)address;
}

static int memcpy_shape_ok(size_t x, size_t y, size_t pitch, size_t height,
                           const CUDA_MEMCPY3D *c)
{
    if ((c->Height > 1 || c->Depth > 1) && pitch < x + c->WidthInBytes)
        return 0;
    if (c->Depth > 1 && height < y + c->Height)
        return 0;
    return 1;
}

/* The memory type marked for an address (the latest mark wins); 0 when the fake does not know
 * it, as the driver does not know pageable host memory. */
static unsigned int memory_type_of(uintptr_t p)
{
    for (size_t i = S.num_ranges; i-- > 0;)
        if (S.ranges[i].begin <= p && p < S.ranges[i].end)
            return S.ranges[i].type;
    return 0;
}

/* What the driver accepts: a DEVICE operand must be memory it knows (device, managed, or pinned
 * host memory, which unified addressing maps), and a HOST operand must not be device memory. */
static int memcpy_operand_ok(CUmemorytype t, const void *host, CUdeviceptr device)
{
    if (t == CU_MEMORYTYPE_DEVICE)
        return memory_type_of((uintptr_t)device) != 0;
    if (t == CU_MEMORYTYPE_HOST)
        return memory_type_of((uintptr_t)host) != CU_MEMORYTYPE_DEVICE;
    return 1;
}

static CUresult build_memcpy(const CUDA_MEMCPY_NODE_PARAMS *in, fake_payload *out)
{
    const CUDA_MEMCPY3D *c = &in->copyParams;
    if (in->flags || in->reserved || c->reserved0 || c->reserved1)
        return CUDA_ERROR_INVALID_VALUE;
    if (!memtype_supported(c->srcMemoryType) || !memtype_supported(c->dstMemoryType))
        return CUDA_ERROR_INVALID_VALUE; /* arrays are not modelled */
    if (c->Height == 0 || c->Depth == 0)
        return CUDA_ERROR_INVALID_VALUE; /* a 1-D copy has Height = Depth = 1 */
    if (!memcpy_shape_ok(c->srcXInBytes, c->srcY, c->srcPitch, c->srcHeight, c) ||
        !memcpy_shape_ok(c->dstXInBytes, c->dstY, c->dstPitch, c->dstHeight, c))
        return CUDA_ERROR_INVALID_VALUE;
    if (c->WidthInBytes && (!memcpy_side(c->srcMemoryType, c->srcHost, c->srcDevice) ||
                            !memcpy_side(c->dstMemoryType, c->dstHost, c->dstDevice)))
        return CUDA_ERROR_INVALID_VALUE;
    if (c->WidthInBytes && (!memcpy_operand_ok(c->srcMemoryType, c->srcHost, c->srcDevice) ||
                            !memcpy_operand_ok(c->dstMemoryType, c->dstHost, c->dstDevice)))
        return CUDA_ERROR_INVALID_VALUE;
    CUcontext ctx = in->copyCtx ? in->copyCtx : S.current;
    if (!context_valid(ctx))
        return CUDA_ERROR_INVALID_CONTEXT;
    out->p.memcpy = *in;
    out->p.memcpy.copyCtx = ctx;
    out->ctx = ctx;
    return CUDA_SUCCESS;
}

static CUresult build_child(const CUDA_CHILD_GRAPH_NODE_PARAMS *in, int snapshot,
                            fake_payload *out)
{
    if (in->ownership != CU_GRAPH_CHILD_GRAPH_OWNERSHIP_CLONE)
        return CUDA_ERROR_INVALID_VALUE; /* moved child graphs are not modelled */
    const fake_graph *src = lookup_graph(in->graph);
    if (!src)
        return CUDA_ERROR_INVALID_VALUE;
    CUresult r = CUDA_SUCCESS;
    fake_graph *child = graph_clone(src, snapshot, &r);
    if (!child)
        return r;
    out->child = child;
    out->p.graph.graph = (CUgraph)child;
    out->p.graph.ownership = CU_GRAPH_CHILD_GRAPH_OWNERSHIP_CLONE;
    return CUDA_SUCCESS;
}

static CUresult build_by_type(const CUgraphNodeParams *in, int snapshot, fake_payload *out)
{
    switch (in->type) {
    case CU_GRAPH_NODE_TYPE_EMPTY:
        return CUDA_SUCCESS;
    case CU_GRAPH_NODE_TYPE_KERNEL:
        return build_kernel(&in->kernel, out);
    case CU_GRAPH_NODE_TYPE_MEMSET:
        return build_memset(&in->memset, out);
    case CU_GRAPH_NODE_TYPE_MEMCPY:
        return build_memcpy(&in->memcpy, out);
    case CU_GRAPH_NODE_TYPE_HOST:
        if (!in->host.fn)
            return CUDA_ERROR_INVALID_VALUE;
        out->p.host = in->host;
        return CUDA_SUCCESS;
    case CU_GRAPH_NODE_TYPE_GRAPH:
        return build_child(&in->graph, snapshot, out);
    case CU_GRAPH_NODE_TYPE_EVENT_RECORD:
        if (!lookup_event(in->eventRecord.event))
            return CUDA_ERROR_INVALID_VALUE;
        out->p.eventRecord = in->eventRecord;
        return CUDA_SUCCESS;
    case CU_GRAPH_NODE_TYPE_WAIT_EVENT:
        if (!lookup_event(in->eventWait.event))
            return CUDA_ERROR_INVALID_VALUE;
        out->p.eventWait = in->eventWait;
        return CUDA_SUCCESS;
    default:
        return CUDA_ERROR_INVALID_VALUE; /* node types cgn does not build */
    }
}

/* Validates params and builds a payload owning copies of everything they point at. Child
 * graphs cloned for an executable are flagged snapshot. */
static CUresult payload_build(const CUgraphNodeParams *in, int snapshot, fake_payload *out)
{
    memset(out, 0, sizeof *out);
    if (in->reserved0[0] || in->reserved0[1] || in->reserved0[2] || in->reserved2)
        return CUDA_ERROR_INVALID_VALUE; /* "must be zero" */
    out->p.type = in->type;
    out->ctx = S.current; /* types without a context field record the current one */
    CUresult r = build_by_type(in, snapshot, out);
    if (r != CUDA_SUCCESS)
        payload_free(out);
    return r;
}

static CUresult payload_copy(const fake_payload *src, int snapshot, fake_payload *out)
{
    *out = *src;
    out->arg_bytes = NULL;
    out->arg_ptrs = NULL;
    out->child = NULL;
    if (src->kernel) {
        CUresult r = copy_args(src->kernel, src->arg_ptrs, &out->arg_bytes, &out->arg_ptrs);
        if (r != CUDA_SUCCESS)
            return r;
        out->p.kernel.kernelParams = out->arg_ptrs;
    }
    if (src->child) {
        CUresult r = CUDA_SUCCESS;
        out->child = graph_clone(src->child, snapshot, &r);
        if (!out->child) {
            payload_free_storage(out);
            return r;
        }
        out->p.graph.graph = (CUgraph)out->child;
    }
    return CUDA_SUCCESS;
}

static CUgraphNodeParams params_of_type(CUgraphNodeType type)
{
    CUgraphNodeParams p;
    memset(&p, 0, sizeof p);
    p.type = type;
    return p;
}

/* The common path of every cuGraphAdd*Node: all checks and copies before any mutation. */
static CUresult add_node(CUgraphNode *out, CUgraph graph, const CUgraphNode *deps,
                         size_t num_deps, const CUgraphNodeParams *params)
{
    fake_graph *g = lookup_graph(graph);
    if (!out || !g)
        return CUDA_ERROR_INVALID_VALUE;
    CUresult r = check_deps(g, deps, num_deps);
    if (r != CUDA_SUCCESS)
        return r;
    fake_payload pl;
    r = payload_build(params, 0, &pl);
    if (r != CUDA_SUCCESS)
        return r;
    fake_node *n = NULL;
    r = node_create(g, &pl, deps, num_deps, &n);
    if (r != CUDA_SUCCESS) {
        payload_free(&pl);
        return r;
    }
    *out = (CUgraphNode)n;
    return CUDA_SUCCESS;
}

/* ---- execution on the host ------------------------------------------------------------------- */

static void run_graph(const fake_graph *g);

static void store_element(unsigned char *p, unsigned int value, unsigned int size)
{
    if (size == 1) {
        uint8_t v = (uint8_t)value;
        memcpy(p, &v, 1);
    } else if (size == 2) {
        uint16_t v = (uint16_t)value;
        memcpy(p, &v, 2);
    } else {
        uint32_t v = (uint32_t)value;
        memcpy(p, &v, 4);
    }
}

static void run_memset(const CUDA_MEMSET_NODE_PARAMS_v2 *m)
{
    unsigned char *base = (unsigned char *)(uintptr_t)m->dst;
    for (size_t row = 0; row < m->height; row++) {
        unsigned char *p = base + row * m->pitch; /* pitch is unused when height is 1 */
        for (size_t i = 0; i < m->width; i++)
            store_element(p + i * m->elementSize, m->value, m->elementSize);
    }
}

static void run_memcpy(const CUDA_MEMCPY3D *c)
{
    const unsigned char *src = memcpy_side(c->srcMemoryType, c->srcHost, c->srcDevice);
    unsigned char *dst = memcpy_side(c->dstMemoryType, c->dstHost, c->dstDevice);
    if (!c->WidthInBytes)
        return;
    for (size_t z = 0; z < c->Depth; z++) {
        for (size_t y = 0; y < c->Height; y++) {
            size_t s = c->srcXInBytes + ((c->srcZ + z) * c->srcHeight + c->srcY + y) * c->srcPitch;
            size_t d = c->dstXInBytes + ((c->dstZ + z) * c->dstHeight + c->dstY + y) * c->dstPitch;
            memcpy(dst + d, src + s, c->WidthInBytes);
        }
    }
}

static void run_kernel(const fake_payload *pl)
{
    const CUDA_KERNEL_NODE_PARAMS_v3 *k = &pl->p.kernel;
    CUDA_KERNEL_NODE_PARAMS_v2 launch = {
        .func = k->func,
        .gridDimX = k->gridDimX,
        .gridDimY = k->gridDimY,
        .gridDimZ = k->gridDimZ,
        .blockDimX = k->blockDimX,
        .blockDimY = k->blockDimY,
        .blockDimZ = k->blockDimZ,
        .sharedMemBytes = k->sharedMemBytes,
        .kernelParams = pl->arg_ptrs,
        .extra = NULL,
        .kern = k->kern,
        .ctx = pl->ctx,
    };
    if (pl->kernel->run)
        pl->kernel->run(pl->arg_ptrs, &launch, pl->kernel->user);
}

static void run_node(const fake_node *n)
{
    const fake_payload *pl = &n->pl;
    switch (pl->p.type) {
    case CU_GRAPH_NODE_TYPE_KERNEL:
        run_kernel(pl);
        break;
    case CU_GRAPH_NODE_TYPE_MEMSET:
        run_memset(&pl->p.memset);
        break;
    case CU_GRAPH_NODE_TYPE_MEMCPY:
        run_memcpy(&pl->p.memcpy.copyParams);
        break;
    case CU_GRAPH_NODE_TYPE_HOST:
        pl->p.host.fn(pl->p.host.userData);
        break;
    case CU_GRAPH_NODE_TYPE_GRAPH:
        run_graph(pl->child);
        break;
    case CU_GRAPH_NODE_TYPE_EVENT_RECORD:
        ((fake_event *)pl->p.eventRecord.event)->records++; /* events live until reset */
        break;
    default: /* empty and event wait nodes do nothing on the host */
        break;
    }
}

/* Insertion order is topological: a node can only depend on nodes added before it (there is
 * no cuGraphAddDependencies in the table), and clones keep the order. */
static void run_graph(const fake_graph *g)
{
    for (size_t i = 0; i < g->num_nodes; i++)
        run_node(g->nodes[i]);
}

/* ---- entry points: misc ---------------------------------------------------------------------- */

#define FAKE_DECLARE(name, abi, need, params, args) static CUresult fake_##name params;
CGN_DRIVER_ENTRIES(FAKE_DECLARE)
#undef FAKE_DECLARE

#define FAKE_ERROR_NAMES(X)                                                                        \
    X(CUDA_SUCCESS)                                                                                \
    X(CUDA_ERROR_INVALID_VALUE)                                                                    \
    X(CUDA_ERROR_OUT_OF_MEMORY)                                                                    \
    X(CUDA_ERROR_NOT_INITIALIZED)                                                                  \
    X(CUDA_ERROR_DEINITIALIZED)                                                                    \
    X(CUDA_ERROR_STUB_LIBRARY)                                                                     \
    X(CUDA_ERROR_NO_DEVICE)                                                                        \
    X(CUDA_ERROR_INVALID_DEVICE)                                                                   \
    X(CUDA_ERROR_INVALID_CONTEXT)                                                                  \
    X(CUDA_ERROR_INVALID_HANDLE)                                                                   \
    X(CUDA_ERROR_ILLEGAL_STATE)                                                                    \
    X(CUDA_ERROR_NOT_FOUND)                                                                        \
    X(CUDA_ERROR_NOT_READY)                                                                        \
    X(CUDA_ERROR_ILLEGAL_ADDRESS)                                                                  \
    X(CUDA_ERROR_LAUNCH_FAILED)                                                                    \
    X(CUDA_ERROR_NOT_PERMITTED)                                                                    \
    X(CUDA_ERROR_NOT_SUPPORTED)                                                                    \
    X(CUDA_ERROR_SYSTEM_DRIVER_MISMATCH)                                                           \
    X(CUDA_ERROR_GRAPH_EXEC_UPDATE_FAILURE)                                                        \
    X(CUDA_ERROR_UNKNOWN)

static CUresult fake_cuDriverGetVersion(int *v)
{
    if (!v)
        return CUDA_ERROR_INVALID_VALUE;
    *v = S.version;
    return CUDA_SUCCESS;
}

static CUresult fake_cuInit(unsigned int flags)
{
    return flags ? CUDA_ERROR_INVALID_VALUE : CUDA_SUCCESS;
}

static CUresult fake_cuGetErrorName(CUresult e, const char **s)
{
    if (!s)
        return CUDA_ERROR_INVALID_VALUE;
    switch (e) {
#define FAKE_NAME_CASE(code)                                                                       \
    case code:                                                                                     \
        *s = #code;                                                                                \
        break;
        FAKE_ERROR_NAMES(FAKE_NAME_CASE)
#undef FAKE_NAME_CASE
    default:
        *s = "CUDA_ERROR_UNKNOWN";
        break;
    }
    return CUDA_SUCCESS;
}

/* Like the driver: marked ranges report their type (the latest mark wins), and an address the
 * driver does not know (pageable host memory) is CUDA_ERROR_INVALID_VALUE. */
static CUresult fake_cuPointerGetAttribute(void *data, CUpointer_attribute a, CUdeviceptr p)
{
    if (!data || !p)
        return CUDA_ERROR_INVALID_VALUE;
    if (a != CU_POINTER_ATTRIBUTE_MEMORY_TYPE)
        return CUDA_ERROR_NOT_SUPPORTED;
    for (size_t i = S.num_ranges; i-- > 0;)
        if (S.ranges[i].begin <= (uintptr_t)p && (uintptr_t)p < S.ranges[i].end) {
            unsigned int type = S.ranges[i].type;
            memcpy(data, &type, sizeof type);
            return CUDA_SUCCESS;
        }
    return CUDA_ERROR_INVALID_VALUE;
}

/* ---- entry points: contexts ------------------------------------------------------------------ */

/* The stack is saved[0..depth) with S.current on top; the current context may be NULL. */
static CUresult fake_cuCtxGetCurrent(CUcontext *c)
{
    if (!c)
        return CUDA_ERROR_INVALID_VALUE;
    *c = S.current;
    return CUDA_SUCCESS;
}

static CUresult fake_cuCtxPushCurrent(CUcontext c)
{
    if (!context_valid(c))
        return CUDA_ERROR_INVALID_CONTEXT;
    if (S.depth == FAKE_CTX_STACK_MAX)
        return CUDA_ERROR_OUT_OF_MEMORY;
    S.saved[S.depth++] = S.current;
    S.current = c;
    return CUDA_SUCCESS;
}

static CUresult fake_cuCtxPopCurrent(CUcontext *c)
{
    if (!S.current && S.depth == 0)
        return CUDA_ERROR_INVALID_CONTEXT;
    if (c)
        *c = S.current;
    S.current = S.depth ? S.saved[--S.depth] : NULL;
    return CUDA_SUCCESS;
}

/* ---- entry points: graphs -------------------------------------------------------------------- */

static CUresult fake_cuGraphCreate(CUgraph *g, unsigned int flags)
{
    if (!g || flags)
        return CUDA_ERROR_INVALID_VALUE;
    fake_graph *graph = graph_new(0);
    if (!graph)
        return CUDA_ERROR_OUT_OF_MEMORY;
    *g = (CUgraph)graph;
    return CUDA_SUCCESS;
}

static CUresult fake_cuGraphDestroy(CUgraph g)
{
    fake_graph *graph = lookup_graph(g);
    if (!graph || graph->parent) /* an embedded graph belongs to its node */
        return CUDA_ERROR_INVALID_VALUE;
    graph_destroy(graph);
    return CUDA_SUCCESS;
}

static CUresult fake_cuGraphClone(CUgraph *out, CUgraph g)
{
    const fake_graph *src = lookup_graph(g);
    if (!out || !src)
        return CUDA_ERROR_INVALID_VALUE;
    CUresult r = CUDA_SUCCESS;
    fake_graph *clone = graph_clone(src, 0, &r);
    if (!clone)
        return r;
    *out = (CUgraph)clone;
    return CUDA_SUCCESS;
}

static CUresult fake_cuGraphNodeFindInClone(CUgraphNode *out, CUgraphNode orig, CUgraph clone)
{
    const fake_node *o = lookup_node(orig);
    const fake_graph *c = lookup_graph(clone);
    if (!out || !o || !c)
        return CUDA_ERROR_INVALID_VALUE;
    for (size_t i = 0; i < c->num_nodes; i++) {
        if (c->nodes[i]->orig_id == o->id) {
            *out = (CUgraphNode)c->nodes[i];
            return CUDA_SUCCESS;
        }
    }
    return CUDA_ERROR_INVALID_VALUE;
}

/* ---- entry points: adding and destroying nodes ----------------------------------------------- */

static CUresult fake_cuGraphAddEmptyNode(CUgraphNode *n, CUgraph g, const CUgraphNode *d,
                                         size_t nd)
{
    CUgraphNodeParams p = params_of_type(CU_GRAPH_NODE_TYPE_EMPTY);
    return add_node(n, g, d, nd, &p);
}

static CUresult fake_cuGraphAddKernelNode(CUgraphNode *n, CUgraph g, const CUgraphNode *d,
                                          size_t nd, const CUDA_KERNEL_NODE_PARAMS_v2 *k)
{
    if (!k)
        return CUDA_ERROR_INVALID_VALUE;
    CUgraphNodeParams p = params_of_type(CU_GRAPH_NODE_TYPE_KERNEL);
    p.kernel.func = k->func;
    p.kernel.gridDimX = k->gridDimX;
    p.kernel.gridDimY = k->gridDimY;
    p.kernel.gridDimZ = k->gridDimZ;
    p.kernel.blockDimX = k->blockDimX;
    p.kernel.blockDimY = k->blockDimY;
    p.kernel.blockDimZ = k->blockDimZ;
    p.kernel.sharedMemBytes = k->sharedMemBytes;
    p.kernel.kernelParams = k->kernelParams;
    p.kernel.extra = k->extra;
    p.kernel.kern = k->kern;
    p.kernel.ctx = k->ctx;
    return add_node(n, g, d, nd, &p);
}

static CUresult fake_cuGraphAddMemsetNode(CUgraphNode *n, CUgraph g, const CUgraphNode *d,
                                          size_t nd, const CUDA_MEMSET_NODE_PARAMS_v1 *m,
                                          CUcontext c)
{
    if (!m)
        return CUDA_ERROR_INVALID_VALUE;
    CUgraphNodeParams p = params_of_type(CU_GRAPH_NODE_TYPE_MEMSET);
    p.memset.dst = m->dst;
    p.memset.pitch = m->pitch;
    p.memset.value = m->value;
    p.memset.elementSize = m->elementSize;
    p.memset.width = m->width;
    p.memset.height = m->height;
    p.memset.ctx = c;
    return add_node(n, g, d, nd, &p);
}

static CUresult fake_cuGraphAddMemcpyNode(CUgraphNode *n, CUgraph g, const CUgraphNode *d,
                                          size_t nd, const CUDA_MEMCPY3D_v2 *m, CUcontext c)
{
    if (!m)
        return CUDA_ERROR_INVALID_VALUE;
    CUgraphNodeParams p = params_of_type(CU_GRAPH_NODE_TYPE_MEMCPY);
    p.memcpy.copyCtx = c;
    p.memcpy.copyParams = *m;
    return add_node(n, g, d, nd, &p);
}

static CUresult fake_cuGraphAddHostNode(CUgraphNode *n, CUgraph g, const CUgraphNode *d,
                                        size_t nd, const CUDA_HOST_NODE_PARAMS_v1 *h)
{
    if (!h)
        return CUDA_ERROR_INVALID_VALUE;
    CUgraphNodeParams p = params_of_type(CU_GRAPH_NODE_TYPE_HOST);
    p.host.fn = h->fn;
    p.host.userData = h->userData;
    return add_node(n, g, d, nd, &p);
}

static CUresult fake_cuGraphAddChildGraphNode(CUgraphNode *n, CUgraph g, const CUgraphNode *d,
                                              size_t nd, CUgraph child)
{
    CUgraphNodeParams p = params_of_type(CU_GRAPH_NODE_TYPE_GRAPH);
    p.graph.graph = child;
    p.graph.ownership = CU_GRAPH_CHILD_GRAPH_OWNERSHIP_CLONE;
    return add_node(n, g, d, nd, &p);
}

static CUresult fake_cuGraphAddEventRecordNode(CUgraphNode *n, CUgraph g, const CUgraphNode *d,
                                               size_t nd, CUevent e)
{
    CUgraphNodeParams p = params_of_type(CU_GRAPH_NODE_TYPE_EVENT_RECORD);
    p.eventRecord.event = e;
    return add_node(n, g, d, nd, &p);
}

static CUresult fake_cuGraphAddEventWaitNode(CUgraphNode *n, CUgraph g, const CUgraphNode *d,
                                             size_t nd, CUevent e)
{
    CUgraphNodeParams p = params_of_type(CU_GRAPH_NODE_TYPE_WAIT_EVENT);
    p.eventWait.event = e;
    return add_node(n, g, d, nd, &p);
}

static CUresult fake_cuGraphChildGraphNodeGetGraph(CUgraphNode n, CUgraph *g)
{
    const fake_node *node = lookup_node(n);
    if (!g || !node || !node->pl.child)
        return CUDA_ERROR_INVALID_VALUE;
    *g = (CUgraph)node->pl.child;
    return CUDA_SUCCESS;
}

static CUresult fake_cuGraphMemcpyNodeGetParams(CUgraphNode n, CUDA_MEMCPY3D *p)
{
    const fake_node *node = lookup_node(n);
    if (!p || !node || node->pl.p.type != CU_GRAPH_NODE_TYPE_MEMCPY)
        return CUDA_ERROR_INVALID_VALUE;
    *p = node->pl.p.memcpy.copyParams;
    return CUDA_SUCCESS;
}

static CUresult fake_cuGraphDestroyNode(CUgraphNode n)
{
    fake_node *node = lookup_node(n);
    if (!node)
        return CUDA_ERROR_INVALID_VALUE;
    graph_unlink(node->graph, node);
    node_free(node);
    return CUDA_SUCCESS;
}

/* ---- entry points: updating node parameters -------------------------------------------------- */

static CUresult fake_cuGraphNodeSetParams(CUgraphNode n, CUgraphNodeParams *p)
{
    fake_node *node = lookup_node(n);
    if (!p || !node || p->type != node->pl.p.type)
        return CUDA_ERROR_INVALID_VALUE;
    fake_payload pl;
    CUresult r = payload_build(p, 0, &pl);
    if (r != CUDA_SUCCESS)
        return r;
    node_replace_payload(node, &pl);
    return CUDA_SUCCESS;
}

/* The executable's copy of a definition node: matched by id, so a node destroyed and another
 * allocated at the same address can never alias. */
static fake_node *exec_node(const fake_exec *e, const fake_node *def)
{
    for (size_t i = 0; i < e->snapshot->num_nodes; i++)
        if (e->snapshot->nodes[i]->orig_id == def->id)
            return e->snapshot->nodes[i];
    return NULL;
}

static CUresult fake_cuGraphExecNodeSetParams(CUgraphExec e, CUgraphNode n, CUgraphNodeParams *p)
{
    const fake_exec *exec = lookup_exec(e);
    const fake_node *def = lookup_node(n);
    fake_node *node = (exec && def) ? exec_node(exec, def) : NULL;
    if (!p || !node || p->type != node->pl.p.type)
        return CUDA_ERROR_INVALID_VALUE;
    fake_payload pl;
    CUresult r = payload_build(p, 1, &pl);
    if (r != CUDA_SUCCESS)
        return r;
    node_replace_payload(node, &pl);
    return CUDA_SUCCESS;
}

/* ---- entry points: executables --------------------------------------------------------------- */

static CUresult fake_cuGraphInstantiateWithFlags(CUgraphExec *e, CUgraph g,
                                                 unsigned long long flags)
{
    (void)flags; /* upload, auto-free and priorities mean nothing on the host */
    const fake_graph *graph = lookup_graph(g);
    if (!e || !graph)
        return CUDA_ERROR_INVALID_VALUE;
    fake_exec *exec = calloc(1, sizeof *exec);
    if (!exec || !reg_add(exec, KIND_EXEC)) {
        free(exec);
        return CUDA_ERROR_OUT_OF_MEMORY;
    }
    CUresult r = CUDA_SUCCESS;
    exec->snapshot = graph_clone(graph, 1, &r);
    if (!exec->snapshot) {
        reg_remove(exec);
        free(exec);
        return r;
    }
    *e = (CUgraphExec)exec;
    return CUDA_SUCCESS;
}

static CUresult fake_cuGraphExecDestroy(CUgraphExec e)
{
    fake_exec *exec = lookup_exec(e);
    if (!exec)
        return CUDA_ERROR_INVALID_VALUE;
    fake_graph *snapshot = exec->snapshot;
    reg_remove(exec);
    free(exec);
    graph_destroy(snapshot); /* drops the executable's user-object references */
    return CUDA_SUCCESS;
}

static CUresult fake_cuGraphLaunch(CUgraphExec e, CUstream s)
{
    (void)s; /* launches complete before returning, so streams have nothing to order */
    fake_exec *exec = lookup_exec(e);
    if (!exec)
        return CUDA_ERROR_INVALID_VALUE;
    run_graph(exec->snapshot);
    exec->launches++;
    return CUDA_SUCCESS;
}

/* ---- entry points: user objects -------------------------------------------------------------- */

static CUresult fake_cuUserObjectCreate(CUuserObject *o, void *ptr, CUhostFn destroy,
                                        unsigned int refs, unsigned int flags)
{
    if (!o || !destroy || refs == 0 || refs > INT_MAX ||
        flags != CU_USER_OBJECT_NO_DESTRUCTOR_SYNC)
        return CUDA_ERROR_INVALID_VALUE;
    fake_uobj *obj = calloc(1, sizeof *obj);
    if (!obj || !reg_add(obj, KIND_UOBJ)) {
        free(obj);
        return CUDA_ERROR_OUT_OF_MEMORY;
    }
    obj->ptr = ptr;
    obj->destroy = destroy;
    obj->total = refs;
    *o = (CUuserObject)obj;
    return CUDA_SUCCESS;
}

/* The caller may only release references it holds, not ones graphs hold: releasing more is a
 * bug the real driver would punish later with a destructor running under a live graph. */
static CUresult fake_cuUserObjectRelease(CUuserObject o, unsigned int n)
{
    fake_uobj *obj = lookup_uobj(o);
    if (!obj || n == 0 || n > obj->total - obj->graph_refs)
        return CUDA_ERROR_INVALID_VALUE;
    uobj_drop(obj, n);
    return CUDA_SUCCESS;
}

static CUresult fake_cuGraphRetainUserObject(CUgraph g, CUuserObject o, unsigned int n,
                                             unsigned int flags)
{
    fake_graph *graph = lookup_graph(g);
    fake_uobj *obj = lookup_uobj(o);
    if (!graph || !obj || n == 0 || n > INT_MAX)
        return CUDA_ERROR_INVALID_VALUE;
    if (flags != 0 && flags != CU_GRAPH_USER_OBJECT_MOVE)
        return CUDA_ERROR_INVALID_VALUE;
    int move = flags == CU_GRAPH_USER_OBJECT_MOVE;
    if (move && n > obj->total - obj->graph_refs)
        return CUDA_ERROR_INVALID_VALUE; /* cannot move references the caller does not hold */
    return graph_add_ref(graph, obj, n, move);
}

static CUresult fake_cuGraphReleaseUserObject(CUgraph g, CUuserObject o, unsigned int n)
{
    fake_graph *graph = lookup_graph(g);
    fake_uobj *obj = lookup_uobj(o);
    fake_ref *ref = (graph && obj) ? graph_find_ref(graph, obj) : NULL;
    if (!ref || n == 0 || n > ref->count)
        return CUDA_ERROR_INVALID_VALUE;
    ref->count -= n;
    if (ref->count == 0)
        *ref = graph->refs[--graph->num_refs];
    obj->graph_refs -= n;
    uobj_drop(obj, n);
    return CUDA_SUCCESS;
}

/* ---- entry points: kernels ------------------------------------------------------------------- */

static CUresult param_info(const fake_kernel *k, size_t i, size_t *off, size_t *size)
{
    if (!k)
        return CUDA_ERROR_INVALID_HANDLE;
    if (i >= k->num_params)
        return CUDA_ERROR_INVALID_VALUE;
    if (off)
        *off = k->offsets[i];
    if (size)
        *size = k->sizes[i];
    return CUDA_SUCCESS;
}

static CUresult fake_cuKernelGetParamInfo(CUkernel k, size_t i, size_t *off, size_t *size)
{
    return param_info(lookup_kernel(k), i, off, size);
}

static CUresult fake_cuFuncGetParamInfo(CUfunction f, size_t i, size_t *off, size_t *size)
{
    return param_info(lookup_function(f), i, off, size);
}

static CUresult kernel_name(const fake_kernel *k, const char **name)
{
    if (!name)
        return CUDA_ERROR_INVALID_VALUE;
    if (!k)
        return CUDA_ERROR_INVALID_HANDLE;
    *name = k->name;
    return CUDA_SUCCESS;
}

static CUresult fake_cuKernelGetName(const char **name, CUkernel k)
{
    return kernel_name(lookup_kernel(k), name);
}

static CUresult fake_cuFuncGetName(const char **name, CUfunction f)
{
    return kernel_name(lookup_function(f), name);
}

/* ---- test API: table, version, reset --------------------------------------------------------- */

const cgn_driver_table *cgn_fake_table(void)
{
    S.table.version = S.version;
    /* An old driver has no entry point newer than itself: cgn must gate on NULL entries. */
#define FAKE_SET_ENTRY(name, abi, need, params, args)                                             \
    S.table.name = ((abi) <= S.version) ? fake_##name : NULL;
    CGN_DRIVER_ENTRIES(FAKE_SET_ENTRY)
#undef FAKE_SET_ENTRY
    return &S.table;
}

void cgn_fake_set_version(int version)
{
    S.version = version;
    (void)cgn_fake_table(); /* keep an installed table consistent with the version */
}

/* Frees one registry entry's object without touching any other object: every object is in
 * the registry, so freeing each on its own frees everything exactly once. */
static void free_for_reset(void *key, int kind)
{
    switch (kind) {
    case KIND_GRAPH: {
        fake_graph *g = (fake_graph *)key;
        for (size_t i = 0; i < g->num_nodes; i++) {
            payload_free_storage(&g->nodes[i]->pl); /* embedded graphs have their own entry */
            free(g->nodes[i]->deps);
            free(g->nodes[i]);
        }
        free(g->nodes);
        free(g->refs);
        free(g);
        break;
    }
    case KIND_FUNC:
        kernel_free(((fake_khandle *)key)->kernel);
        break;
    case KIND_EXEC:  /* its snapshot graph has its own entry */
    case KIND_UOBJ:  /* pending destructors are dropped on purpose */
    case KIND_EVENT:
        free(key);
        break;
    default: /* nodes are freed with their graph, CUkernel handles with their CUfunction */
        break;
    }
}

void cgn_fake_reset(void)
{
    for (size_t i = 0; i < S.cap; i++)
        if (S.slots[i].key)
            free_for_reset(S.slots[i].key, S.slots[i].kind);
    free(S.slots);
    free(S.ranges);
    memset(&S, 0, sizeof S);
    S.version = FAKE_DEFAULT_VERSION;
    S.current = (CUcontext)&S.contexts[0];
    S.next_id = 1;
    (void)cgn_fake_table(); /* a table installed before the reset must stay usable */
}

size_t cgn_fake_live_objects(void)
{
    size_t live = 0;
    for (size_t i = 0; i < S.cap; i++) {
        int kind = S.slots[i].key ? S.slots[i].kind : KIND_NONE;
        live += kind == KIND_GRAPH || kind == KIND_EXEC || kind == KIND_UOBJ;
    }
    return live;
}

/* ---- test API: contexts ---------------------------------------------------------------------- */

CUcontext cgn_fake_context(int i)
{
    return (i >= 0 && i < FAKE_NUM_CONTEXTS) ? (CUcontext)&S.contexts[i] : NULL;
}

void cgn_fake_set_current_context(CUcontext ctx)
{
    S.current = ctx;
}

CUcontext cgn_fake_node_context(CUgraphNode node)
{
    const fake_node *n = lookup_node(node);
    return n ? n->pl.ctx : NULL;
}

/* ---- test API: kernels, events, memory ------------------------------------------------------- */

CUfunction cgn_fake_register_kernel(const char *name, size_t num_params, const size_t *param_sizes,
                                    cgn_fake_kernel_fn run, void *user)
{
    if (num_params && !param_sizes)
        return NULL;
    for (size_t i = 0; i < num_params; i++)
        if (param_sizes[i] == 0)
            return NULL;
    const char *text = name ? name : "";
    fake_kernel *k = calloc(1, sizeof *k);
    if (!k)
        return NULL;
    k->num_params = num_params;
    k->run = run;
    k->user = user;
    k->function.kernel = k;
    k->kernel.kernel = k;
    k->name = malloc(strlen(text) + 1);
    if (!k->name || !kernel_layout(k, param_sizes) || !reg_add(&k->function, KIND_FUNC)) {
        kernel_free(k);
        return NULL;
    }
    if (!reg_add(&k->kernel, KIND_KERN)) {
        reg_remove(&k->function);
        kernel_free(k);
        return NULL;
    }
    strcpy(k->name, text);
    return (CUfunction)&k->function;
}

CUkernel cgn_fake_kernel_of(CUfunction function)
{
    fake_kernel *k = lookup_function(function);
    return k ? (CUkernel)&k->kernel : NULL;
}

CUevent cgn_fake_event_create(void)
{
    fake_event *e = calloc(1, sizeof *e);
    if (!e || !reg_add(e, KIND_EVENT)) {
        free(e);
        return NULL;
    }
    return (CUevent)e;
}

int cgn_fake_event_record_count(CUevent event)
{
    const fake_event *e = lookup_event(event);
    return e ? e->records : -1;
}

void cgn_fake_mark_device_memory(void *p, size_t size)
{
    cgn_fake_mark_memory(p, size, CU_MEMORYTYPE_DEVICE);
}

void cgn_fake_mark_memory(void *p, size_t size, CUmemorytype type)
{
    if (S.num_ranges == S.cap_ranges) {
        size_t cap = S.cap_ranges ? S.cap_ranges * 2 : 8;
        fake_range *ranges = realloc(S.ranges, cap * sizeof *ranges);
        if (!ranges)
            return; /* the address keeps reporting host memory; tests will notice */
        S.ranges = ranges;
        S.cap_ranges = cap;
    }
    S.ranges[S.num_ranges].begin = (uintptr_t)p;
    S.ranges[S.num_ranges].end = (uintptr_t)p + (size ? size : 1);
    S.ranges[S.num_ranges].type = (unsigned int)type;
    S.num_ranges++;
}

/* ---- test API: inspection -------------------------------------------------------------------- */

int cgn_fake_node_params(CUgraphNode node, CUgraphNodeParams *out)
{
    const fake_node *n = lookup_node(node);
    if (!n || !out)
        return 0;
    *out = n->pl.p;
    return 1;
}

int cgn_fake_exec_node_params(CUgraphExec exec, CUgraphNode node, CUgraphNodeParams *out)
{
    const fake_exec *e = lookup_exec(exec);
    const fake_node *def = lookup_node(node);
    const fake_node *n = (e && def) ? exec_node(e, def) : NULL;
    if (!n || !out)
        return 0;
    *out = n->pl.p;
    return 1;
}

static size_t graph_tree_event_waits(const fake_graph *g, CUevent event)
{
    size_t waits = 0;
    for (size_t i = 0; i < g->num_nodes; i++) {
        const fake_payload *pl = &g->nodes[i]->pl;
        if (pl->p.type == CU_GRAPH_NODE_TYPE_WAIT_EVENT && pl->p.eventWait.event == event)
            waits++;
        if (pl->child)
            waits += graph_tree_event_waits(pl->child, event);
    }
    return waits;
}

size_t cgn_fake_exec_event_waits(CUgraphExec exec, CUevent event)
{
    const fake_exec *e = lookup_exec(exec);
    return e ? graph_tree_event_waits(e->snapshot, event) : 0;
}

size_t cgn_fake_graph_node_count(CUgraph graph)
{
    const fake_graph *g = lookup_graph(graph);
    return g ? g->num_nodes : 0;
}

size_t cgn_fake_exec_launches(CUgraphExec exec)
{
    const fake_exec *e = lookup_exec(exec);
    return e ? e->launches : 0;
}

/* ---- test API: user objects ------------------------------------------------------------------ */

int cgn_fake_user_object_refs(CUuserObject object)
{
    const fake_uobj *o = lookup_uobj(object);
    return o ? (int)o->total : 0;
}

size_t cgn_fake_graph_user_object_refs(CUgraph graph, CUuserObject object)
{
    const fake_graph *g = lookup_graph(graph);
    const fake_uobj *o = lookup_uobj(object);
    const fake_ref *ref = (g && o) ? graph_find_ref(g, o) : NULL;
    return ref ? ref->count : 0;
}

static size_t graph_tree_refs(const fake_graph *g, const fake_uobj *o)
{
    const fake_ref *ref = graph_find_ref(g, o);
    size_t refs = ref ? ref->count : 0;
    for (size_t i = 0; i < g->num_nodes; i++)
        if (g->nodes[i]->pl.child)
            refs += graph_tree_refs(g->nodes[i]->pl.child, o);
    return refs;
}

size_t cgn_fake_exec_user_object_refs(CUgraphExec exec, CUuserObject object)
{
    const fake_exec *e = lookup_exec(exec);
    const fake_uobj *o = lookup_uobj(object);
    return (e && o) ? graph_tree_refs(e->snapshot, o) : 0;
}

int cgn_fake_in_driver_callback(void)
{
    return S.callback_depth > 0;
}
