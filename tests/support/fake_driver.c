/* The fake CUDA driver behind cgn's unit tests; fake_driver.h says what it models.
 *
 * Layout: one static state struct (S) holds the version, the registry of live handles, the
 * marked device ranges, the queue of launches in flight and the test switches. The context
 * stack is per thread (T_CTX), set up again after each reset. The table is a static of its own
 * that is only ever written where an entry changes, so threads reading it through cgn never
 * race with a reset. Every object is a small heap struct whose address is its handle; the
 * registry (an open-addressing hash set of addresses) is what makes a stale or foreign handle
 * an error instead of a use-after-free.
 *
 * Locking: every table entry is a generated wrapper (FAKE_LOCKED_ENTRY) that holds one global
 * recursive mutex around impl_<name>, and every cgn_fake_* function holds it too, so the fake
 * is a serialized model. Callbacks (user-object destructors, host nodes, fake kernels) run with
 * it held; being recursive, it lets them call back into the fake from the same thread.
 *
 * A node's parameters live in a fake_payload: the CUgraphNodeParams the node was given, with
 * its pointers (kernel arguments, child graph) redirected to storage the payload owns. Adding,
 * setting, cloning, instantiating and updating executables all build complete new payloads
 * first and only then install them, so a failing call leaves every object as it was.
 *
 * Launches run their nodes at once, on the host. A launch that cannot complete at once (the
 * hold switch, or earlier launches still in flight) joins a FIFO queue with a sequence number;
 * completing pops the queue in order. An event is pending while its wait_seq (the newest
 * launch it was recorded behind) is above completed_seq. References an executable gives up
 * while launches of it are in flight move to its newest launch, which drops them when it
 * completes; an executable destroyed in flight stays registered, flagged destroyed, until its
 * last launch completes. */
#define _DEFAULT_SOURCE 1 /* MAP_ANONYMOUS, MAP_NORESERVE */

#include "fake_driver.h"
#include "../../generated/tests/cgn_fake_nodes.h" /* per-type rows from spec/ */

#include <limits.h>
#include <pthread.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>

#define FAKE_DEFAULT_VERSION 13000
#define FAKE_NUM_CONTEXTS 4
#define FAKE_CTX_STACK_MAX 64
#define FAKE_MAX_PARAM_ALIGN 8
#define FAKE_MAX_WHILE 4096 /* rounds of a WHILE body before the fake gives up */
#define FAKE_MAX_BODIES 1024 /* bodies of a SWITCH node (above cgn's CGN_MAX_COND_BODIES) */
/* Addresses memory allocation nodes hand out (alloc.dptr): FAKE_ALLOC_STRIDE apart in one
 * range reserved without access (as a graph allocation is before its first launch), so host
 * code probing them gets EFAULT, also under sanitizers; allocation FAKE_ALLOC_MAX + 1 fails. */
#define FAKE_ALLOC_BASE fake_alloc_base()
#define FAKE_ALLOC_STRIDE ((CUdeviceptr)0x100000)
#define FAKE_ALLOC_MAX 1023u

static CUdeviceptr fake_alloc_range;
static pthread_once_t fake_alloc_once = PTHREAD_ONCE_INIT;

static void fake_alloc_reserve(void)
{
    void *p = mmap(NULL, (size_t)FAKE_ALLOC_STRIDE * (FAKE_ALLOC_MAX + 1), PROT_NONE,
                   MAP_PRIVATE | MAP_ANONYMOUS | MAP_NORESERVE, -1, 0);
    if (p == MAP_FAILED)
        abort(); /* the fake cannot model allocations without address space */
    fake_alloc_range = (CUdeviceptr)(uintptr_t)p;
}

static CUdeviceptr fake_alloc_base(void)
{
    pthread_once(&fake_alloc_once, fake_alloc_reserve);
    return fake_alloc_range;
}

/* ---- objects --------------------------------------------------------------------------------- */

enum fake_kind {
    KIND_NONE = 0,
    KIND_GRAPH,
    KIND_NODE,
    KIND_EXEC,
    KIND_UOBJ,
    KIND_FUNC, /* one of a fake_kernel's CUfunction handles */
    KIND_KERN, /* a fake_kernel's CUkernel handle */
    KIND_EVENT,
    KIND_ARRAY, /* a CUDA array (cgn_fake_array_create) */
    KIND_COND,  /* a conditional handle (freed at reset only: executables may outlive graphs) */
    KIND_EXTSEM /* an external semaphore (cgn_fake_ext_sem_create) */
};

/* A conditional handle: its value, and what each launch starts it with. */
typedef struct fake_cond {
    unsigned int default_value;
    unsigned int flags; /* CU_GRAPH_COND_ASSIGN_DEFAULT or 0 */
    unsigned int value;
    CUcontext ctx;
} fake_cond;

typedef struct fake_graph fake_graph;
typedef struct fake_node fake_node;
typedef struct fake_kernel fake_kernel;

/* CUfunction and CUkernel handles are addresses of these inside one fake_kernel, so every
 * handle is a distinct registry key that leads back to the same kernel. A CUfunction belongs
 * to one context; the CUkernel handle to none. */
typedef struct fake_khandle {
    fake_kernel *kernel;
    CUcontext ctx;
} fake_khandle;

struct fake_kernel {
    char *name;
    size_t num_params;
    size_t *sizes;
    size_t *offsets;
    size_t total_bytes; /* packed size of all arguments */
    cgn_fake_kernel_fn run;
    void *user;
    fake_khandle functions[FAKE_NUM_CONTEXTS]; /* [i]: the function in context i, registered
                                                  when first asked for ([0] at registration) */
    fake_khandle kernel;
};

typedef struct fake_payload {
    CUgraphNodeParams p;      /* as given, pointers redirected to the storage below */
    CUcontext ctx;            /* the context the node runs in (kernels, memsets, memcpys) */
    fake_kernel *kernel;      /* kernel nodes */
    unsigned char *arg_bytes; /* kernel nodes: packed copies of the argument values */
    void **arg_ptrs;          /* kernel nodes: p.kernel.kernelParams, pointing into arg_bytes */
    int via_extra;            /* kernel nodes given their arguments packed through `extra`:
                                 the getter answers in that form, as the driver does */
    size_t extra_size;        /* the getter's CU_LAUNCH_PARAM_BUFFER_SIZE value */
    void *extra_form[5];      /* the getter's extra array, pointing at arg_bytes */
    fake_graph *child;        /* child graph nodes: the embedded graph, p.graph.graph;
                                 conditional nodes: body 0, the others chained (next_body) */
    CUstreamBatchMemOpParams *mem_ops; /* batch mem op nodes: p.memOp.paramArray, owned */
    CUgraph *bodies;          /* conditional nodes added by cuGraphAddNode: the phGraph_out
                                 array, p.conditional.size entries, owned (NULL in copies) */
    void *array_copy; /* copied_arrays node types: their arrays in one block, owned */
} fake_payload;

struct fake_node {
    uint64_t id;      /* unique for the fake's lifetime, unlike addresses which get reused */
    uint64_t orig_id; /* id of the node this one was cloned from; 0 if none */
    fake_graph *graph;
    size_t index; /* position in graph->nodes */
    fake_node **deps;
    size_t num_deps;
    int disabled; /* executable nodes: cuGraphNodeSetEnabled(0) */
    fake_payload pl;
};

typedef struct fake_uobj {
    void *ptr;
    CUhostFn destroy;
    size_t total;      /* every reference: callers' plus graph_refs */
    size_t graph_refs; /* references held by graphs, executables and launches in flight */
} fake_uobj;

typedef struct fake_ref {
    fake_uobj *object;
    size_t count;
} fake_ref;

typedef struct fake_ref_list {
    fake_ref *items;
    size_t num, cap;
} fake_ref_list;

struct fake_graph {
    uint64_t id;       /* unique for the fake's lifetime (executables name their source by it) */
    int snapshot;      /* part of an executable: never accepted as a CUgraph argument */
    fake_node *parent; /* the child graph or conditional node embedding this graph, or NULL */
    fake_graph *next_body; /* a conditional node's body i: body i + 1; NULL otherwise */
    fake_node **nodes; /* insertion order, which is also a topological order */
    size_t num_nodes, cap_nodes;
    fake_ref_list refs;
};

/* Every graph a node's payload embeds: a child graph, or each body of a conditional node. */
#define FOR_EMBEDDED(g, pl) for (fake_graph *g = (pl)->child; g; g = g->next_body)

typedef struct fake_exec {
    fake_graph *snapshot;
    size_t launches;  /* cuGraphLaunch calls */
    size_t in_flight; /* of those, not completed yet */
    size_t running;   /* launches whose nodes are running now (host nodes may call back in) */
    int destroyed;    /* cuGraphExecDestroy ran while launches were in flight or running */
    uint64_t source_id;        /* the graph it was instantiated from */
    unsigned long long flags;  /* its instantiation flags */
} fake_exec;

/* A graph allocation not freed yet: made by a launch of `exec` (NULL once it is destroyed). */
typedef struct fake_unfreed {
    CUdeviceptr dptr;
    const fake_exec *exec;
} fake_unfreed;

typedef struct fake_event {
    int records;       /* event record nodes run */
    unsigned int flags;
    uint64_t wait_seq; /* pending while above S.completed_seq */
} fake_event;

typedef struct fake_launch {
    uint64_t seq;
    fake_exec *exec;
    CUstream stream;
    fake_ref_list held; /* references the executable gave up while this launch was in flight */
} fake_launch;

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
    fake_ctx contexts[FAKE_NUM_CONTEXTS];
    uint64_t epoch;             /* bumped by each reset: threads set their context stack up again */
    CUcontext thread_start_ctx; /* current in a thread that has not touched the stack since */
    fake_slot *slots;           /* registry; capacity is a power of two */
    size_t cap, count;
    fake_range *ranges;
    size_t num_ranges, cap_ranges;
    uint64_t next_id;
    int callback_depth;
    int hold;             /* cgn_fake_hold_completion */
    int exec_update_refs; /* cgn_fake_set_exec_update_refs */
    size_t crash_prone;   /* cgn_fake_crash_prone_calls */
    size_t unsatisfied_waits; /* cgn_fake_unsatisfied_waits */
    fake_launch *launches; /* in flight, oldest first (so in increasing seq) */
    size_t num_launches, cap_launches;
    uint64_t next_seq, completed_seq; /* every launch up to completed_seq has completed */
    uint64_t next_alloc;  /* memory allocation nodes: addresses handed out so far */
    fake_unfreed *unfreed; /* graph allocations launched and not freed since */
    size_t num_unfreed, cap_unfreed;
    const fake_exec *running_exec; /* the executable cuGraphLaunch is running */
    size_t conds_created;  /* cuGraphConditionalHandleCreate successes */
    size_t runaway_loops;  /* WHILE nodes stopped after FAKE_MAX_WHILE rounds */
} S = {.version = FAKE_DEFAULT_VERSION, .epoch = 1, .next_id = 1};

static cgn_driver_table TABLE;

/* A thread's context stack: stack[depth - 1] is current; never holds NULL. */
typedef struct fake_thread {
    uint64_t epoch; /* S.epoch when this state was set up; 0: never */
    size_t depth;
    CUcontext stack[FAKE_CTX_STACK_MAX];
} fake_thread;

static _Thread_local fake_thread T_CTX;

/* ---- the lock -------------------------------------------------------------------------------- */

static pthread_mutex_t fake_mutex;
static pthread_once_t fake_mutex_once = PTHREAD_ONCE_INIT;

static void fake_mutex_init(void)
{
    pthread_mutexattr_t attr;
    if (pthread_mutexattr_init(&attr) != 0)
        abort();
    if (pthread_mutexattr_settype(&attr, PTHREAD_MUTEX_RECURSIVE) != 0 ||
        pthread_mutex_init(&fake_mutex, &attr) != 0)
        abort();
    pthread_mutexattr_destroy(&attr);
}

static void fake_lock(void)
{
    if (pthread_once(&fake_mutex_once, fake_mutex_init) != 0 ||
        pthread_mutex_lock(&fake_mutex) != 0)
        abort();
}

static void fake_unlock(void)
{
    pthread_mutex_unlock(&fake_mutex);
}

/* The body of a test API function that returns `call`'s value, under the lock. */
#define FAKE_LOCKED_RETURN(type, call)                                                            \
    do {                                                                                           \
        fake_lock();                                                                               \
        type locked_result_ = (call);                                                              \
        fake_unlock();                                                                             \
        return locked_result_;                                                                     \
    } while (0)

/* ---- per-thread context stack ---------------------------------------------------------------- */

static fake_thread *thread_ctx(void)
{
    fake_thread *t = &T_CTX;
    if (t->epoch != S.epoch) {
        t->epoch = S.epoch;
        t->depth = 0;
        if (S.thread_start_ctx)
            t->stack[t->depth++] = S.thread_start_ctx;
    }
    return t;
}

static CUcontext current_ctx(void)
{
    const fake_thread *t = thread_ctx();
    return t->depth ? t->stack[t->depth - 1] : NULL;
}

static int context_index(CUcontext c)
{
    for (int i = 0; i < FAKE_NUM_CONTEXTS; i++)
        if (c == (CUcontext)&S.contexts[i])
            return i;
    return -1;
}

static int context_valid(CUcontext c)
{
    return context_index(c) >= 0;
}

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

static size_t reg_count(int kind)
{
    size_t n = 0;
    for (size_t i = 0; i < S.cap; i++)
        n += S.slots[i].key && S.slots[i].kind == kind;
    return n;
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

/* Executables destroyed while in flight are not accepted: their handle is gone for the caller. */
static fake_exec *lookup_exec(CUgraphExec h)
{
    if (reg_kind(h) != KIND_EXEC)
        return NULL;
    fake_exec *e = (fake_exec *)h;
    return e->destroyed ? NULL : e;
}

static fake_uobj *lookup_uobj(CUuserObject h)
{
    return reg_kind(h) == KIND_UOBJ ? (fake_uobj *)h : NULL;
}

static fake_event *lookup_event(CUevent h)
{
    return reg_kind(h) == KIND_EVENT ? (fake_event *)h : NULL;
}

/* A CUDA array of bytes: `width` bytes a row, `height` rows a slice, `depth` slices. */
typedef struct fake_array {
    size_t width, height, depth;
    unsigned char data[];
} fake_array;

static fake_array *lookup_array(CUarray h)
{
    return reg_kind(h) == KIND_ARRAY ? (fake_array *)h : NULL;
}

/* An external semaphore: a timeline (fence) semaphore counting what nodes did to it. */
typedef struct fake_ext_sem {
    uint64_t value; /* the value of the latest signal */
    size_t signals, waits;
} fake_ext_sem;

static fake_ext_sem *lookup_ext_sem(CUexternalSemaphore h)
{
    return reg_kind(h) == KIND_EXTSEM ? (fake_ext_sem *)h : NULL;
}

static fake_khandle *lookup_fhandle(CUfunction h)
{
    return reg_kind(h) == KIND_FUNC ? (fake_khandle *)h : NULL;
}

static fake_kernel *lookup_function(CUfunction h)
{
    const fake_khandle *f = lookup_fhandle(h);
    return f ? f->kernel : NULL;
}

static fake_kernel *lookup_kernel(CUkernel h)
{
    return reg_kind(h) == KIND_KERN ? ((fake_khandle *)h)->kernel : NULL;
}

/* ---- user objects and reference lists -------------------------------------------------------- */

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

static fake_ref *reflist_find(const fake_ref_list *l, const fake_uobj *o)
{
    for (size_t i = 0; i < l->num; i++)
        if (l->items[i].object == o)
            return &l->items[i];
    return NULL;
}

/* Room for `extra` more entries. */
static int reflist_reserve(fake_ref_list *l, size_t extra)
{
    if (l->num + extra <= l->cap)
        return 1;
    size_t cap = l->cap ? l->cap : 4;
    while (cap < l->num + extra)
        cap *= 2;
    fake_ref *items = realloc(l->items, cap * sizeof *items);
    if (!items)
        return 0;
    l->items = items;
    l->cap = cap;
    return 1;
}

/* Adds `count` references to o's entry; needs room for one entry (reflist_reserve). Changes
 * no counts on the object. */
static void reflist_push(fake_ref_list *l, fake_uobj *o, size_t count)
{
    fake_ref *ref = reflist_find(l, o);
    if (!ref) {
        ref = &l->items[l->num++];
        ref->object = o;
        ref->count = 0;
    }
    ref->count += count;
}

/* Drops every reference of a list held by a graph or launch; the list is emptied before any
 * destructor can run. */
static void reflist_drop(fake_ref_list *l)
{
    fake_ref_list dropped = *l;
    memset(l, 0, sizeof *l);
    for (size_t i = 0; i < dropped.num; i++) {
        dropped.items[i].object->graph_refs -= dropped.items[i].count;
        uobj_drop(dropped.items[i].object, dropped.items[i].count);
    }
    free(dropped.items);
}

static fake_ref *graph_find_ref(const fake_graph *g, const fake_uobj *o)
{
    return reflist_find(&g->refs, o);
}

/* Gives g `count` more references to o: new ones, or (move) ones the caller held. */
static CUresult graph_add_ref(fake_graph *g, fake_uobj *o, size_t count, int move)
{
    if (!graph_find_ref(g, o) && !reflist_reserve(&g->refs, 1))
        return CUDA_ERROR_OUT_OF_MEMORY;
    reflist_push(&g->refs, o, count);
    o->graph_refs += count;
    if (!move)
        o->total += count;
    return CUDA_SUCCESS;
}

/* Entries in the reference lists of g and every graph embedded in it. */
static size_t graph_tree_ref_entries(const fake_graph *g)
{
    size_t n = g->refs.num;
    for (size_t i = 0; i < g->num_nodes; i++)
        FOR_EMBEDDED(inner, &g->nodes[i]->pl)
            n += graph_tree_ref_entries(inner);
    return n;
}

/* Moves the references of g and every graph embedded in it into `into`, which has room
 * (graph_tree_ref_entries). The references stay counted as held: whoever owns `into` drops
 * them. */
static void graph_tree_detach_refs(fake_graph *g, fake_ref_list *into)
{
    for (size_t i = 0; i < g->refs.num; i++)
        reflist_push(into, g->refs.items[i].object, g->refs.items[i].count);
    free(g->refs.items);
    memset(&g->refs, 0, sizeof g->refs);
    for (size_t i = 0; i < g->num_nodes; i++)
        FOR_EMBEDDED(inner, &g->nodes[i]->pl)
            graph_tree_detach_refs(inner, into);
}

static size_t graph_tree_refs(const fake_graph *g, const fake_uobj *o)
{
    const fake_ref *ref = graph_find_ref(g, o);
    size_t refs = ref ? ref->count : 0;
    for (size_t i = 0; i < g->num_nodes; i++)
        FOR_EMBEDDED(inner, &g->nodes[i]->pl)
            refs += graph_tree_refs(inner, o);
    return refs;
}

/* ---- graphs and nodes ------------------------------------------------------------------------ */

static void payload_free(fake_payload *pl);
static CUfunction function_in_context(CUfunction f, CUcontext ctx);

static fake_graph *graph_new(int snapshot)
{
    fake_graph *g = calloc(1, sizeof *g);
    if (!g)
        return NULL;
    g->snapshot = snapshot;
    g->id = S.next_id++;
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
    fake_ref_list refs = g->refs;
    reg_remove(g);
    free(g->nodes);
    free(g);
    reflist_drop(&refs);
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

/* Creates a node in g that takes over *pl on success; on failure *pl is left to the caller.
 * deps are nodes of g (already checked). */
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
    FOR_EMBEDDED(inner, &n->pl)
        inner->parent = n;
    *out = n;
    return CUDA_SUCCESS;
}

/* Installs a new payload in n and frees the old one (destroying a replaced child graph, which
 * drops whatever references it still holds). */
static void node_replace_payload(fake_node *n, fake_payload *pl)
{
    fake_payload old = n->pl;
    n->pl = *pl;
    FOR_EMBEDDED(inner, &n->pl)
        inner->parent = n;
    payload_free(&old);
}

static CUresult payload_copy(const fake_payload *src, int snapshot, int with_refs,
                             fake_payload *out);

/* Clones one node of src into g, mapping its dependencies by position (the clone keeps the
 * source's order, so g->nodes[k] is the copy of src->nodes[k]). */
static CUresult clone_node(fake_graph *g, const fake_node *s, int snapshot, int with_refs)
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
    CUresult r = payload_copy(&s->pl, snapshot, with_refs, &pl);
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

/* Deep copy: nodes, params, edges, embedded graphs, and (with_refs) one more reference per
 * reference the source holds to each user object. NULL (and *err) on failure, with nothing
 * leaked. */
static fake_graph *graph_clone(const fake_graph *src, int snapshot, int with_refs, CUresult *err)
{
    fake_graph *g = graph_new(snapshot);
    CUresult r = g ? CUDA_SUCCESS : CUDA_ERROR_OUT_OF_MEMORY;
    for (size_t i = 0; g && r == CUDA_SUCCESS && i < src->num_nodes; i++)
        r = clone_node(g, src->nodes[i], snapshot, with_refs);
    for (size_t i = 0; with_refs && g && r == CUDA_SUCCESS && i < src->refs.num; i++)
        r = graph_add_ref(g, src->refs.items[i].object, src->refs.items[i].count, 0);
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

/* The same for arguments packed into one buffer through `extra` ({CU_LAUNCH_PARAM_BUFFER_POINTER,
 * buf, CU_LAUNCH_PARAM_BUFFER_SIZE, &size, CU_LAUNCH_PARAM_END}): argument i sits at the
 * kernel's offset i, and the buffer must cover every argument. */
static CUresult copy_packed_args(const fake_kernel *k, void *const *extra,
                                 unsigned char **bytes_out, void ***ptrs_out)
{
    unsigned char *buf = NULL;
    const size_t *size = NULL;
    for (void *const *e = extra; *e != CU_LAUNCH_PARAM_END; e += 2) {
        if (*e == CU_LAUNCH_PARAM_BUFFER_POINTER)
            buf = e[1];
        else if (*e == CU_LAUNCH_PARAM_BUFFER_SIZE)
            size = e[1];
        else
            return CUDA_ERROR_INVALID_VALUE;
    }
    if (k->num_params == 0)
        return CUDA_SUCCESS;
    if (!buf || !size || *size < k->total_bytes)
        return CUDA_ERROR_INVALID_VALUE;
    void **params = malloc(k->num_params * sizeof *params);
    if (!params)
        return CUDA_ERROR_OUT_OF_MEMORY;
    for (size_t i = 0; i < k->num_params; i++)
        params[i] = buf + k->offsets[i];
    CUresult r = copy_args(k, params, bytes_out, ptrs_out);
    free(params);
    return r;
}

/* ---- payloads: validation and deep copies of node parameters --------------------------------- */

static void payload_free_storage(fake_payload *pl)
{
    free(pl->arg_bytes);
    free(pl->arg_ptrs);
    free(pl->mem_ops);
    free(pl->array_copy);
    free(pl->bodies);
    pl->bodies = NULL;
    pl->array_copy = NULL;
    pl->arg_bytes = NULL;
    pl->arg_ptrs = NULL;
    pl->mem_ops = NULL;
}

static void payload_free(fake_payload *pl)
{
    payload_free_storage(pl);
    for (fake_graph *g = pl->child, *next; g; g = next) {
        next = g->next_body; /* read before g goes */
        graph_destroy(g);
    }
    pl->child = NULL;
}

static CUresult build_kernel(const CUDA_KERNEL_NODE_PARAMS_v3 *in, fake_payload *out)
{
    if (!in->func && !in->kern)
        return CUDA_ERROR_INVALID_VALUE;
    /* The driver only looks at kern when func is NULL. */
    const fake_khandle *f = in->func ? lookup_fhandle(in->func) : NULL;
    fake_kernel *k = in->func ? (f ? f->kernel : NULL) : lookup_kernel(in->kern);
    if (!k)
        return CUDA_ERROR_INVALID_HANDLE;
    if (in->kernelParams && in->extra)
        return CUDA_ERROR_INVALID_VALUE;
    if (!in->gridDimX || !in->gridDimY || !in->gridDimZ || !in->blockDimX || !in->blockDimY ||
        !in->blockDimZ)
        return CUDA_ERROR_INVALID_VALUE;
    /* A CUfunction runs in the context that owns it; a CUkernel in ctx (NULL: the current
     * one). */
    CUcontext ctx = f ? f->ctx : (in->ctx ? in->ctx : current_ctx());
    if (!context_valid(ctx))
        return CUDA_ERROR_INVALID_CONTEXT;
    CUresult r = in->extra ? copy_packed_args(k, in->extra, &out->arg_bytes, &out->arg_ptrs)
                           : copy_args(k, in->kernelParams, &out->arg_bytes, &out->arg_ptrs);
    if (r != CUDA_SUCCESS)
        return r;
    out->p.kernel = *in;
    out->p.kernel.kernelParams = out->arg_ptrs;
    out->p.kernel.extra = NULL;
    out->via_extra = in->extra != NULL;
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
    CUcontext ctx = in->ctx ? in->ctx : current_ctx();
    if (!context_valid(ctx))
        return CUDA_ERROR_INVALID_CONTEXT;
    out->p.memset = *in;
    out->p.memset.ctx = ctx;
    out->ctx = ctx;
    return CUDA_SUCCESS;
}

static int memtype_supported(CUmemorytype t)
{
    return t == CU_MEMORYTYPE_HOST || t == CU_MEMORYTYPE_DEVICE || t == CU_MEMORYTYPE_UNIFIED ||
           t == CU_MEMORYTYPE_ARRAY;
}

/* An array operand must be a live array and the copy must stay inside it. */
static int memcpy_array_ok(CUarray h, size_t x, size_t y, size_t z, const CUDA_MEMCPY3D *c)
{
    const fake_array *a = lookup_array(h);
    return a && x <= a->width && c->WidthInBytes <= a->width - x && y <= a->height &&
           c->Height <= a->height - y && z <= a->depth && c->Depth <= a->depth - z;
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
/* An address an allocation node handed out. */
static int fake_is_graph_alloc(CUdeviceptr p)
{
    if (p < FAKE_ALLOC_BASE + FAKE_ALLOC_STRIDE || (p - FAKE_ALLOC_BASE) % FAKE_ALLOC_STRIDE)
        return 0;
    return (p - FAKE_ALLOC_BASE) / FAKE_ALLOC_STRIDE <= S.next_alloc;
}

/* An address inside the range reserved for an allocation the fake handed out: device memory
 * the driver accepts as a copy operand, although cuPointerGetAttribute does not know it (a
 * GPU maps a graph allocation at its first launch only) and the fake never backs it. */
static int fake_in_graph_alloc(CUdeviceptr p)
{
    if (p < FAKE_ALLOC_BASE + FAKE_ALLOC_STRIDE)
        return 0;
    return (p - FAKE_ALLOC_BASE) / FAKE_ALLOC_STRIDE <= S.next_alloc;
}

static int memcpy_operand_ok(CUmemorytype t, const void *host, CUdeviceptr device)
{
    if (t == CU_MEMORYTYPE_DEVICE)
        return memory_type_of((uintptr_t)device) != 0 || fake_in_graph_alloc(device);
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
    int src_array = c->srcMemoryType == CU_MEMORYTYPE_ARRAY;
    int dst_array = c->dstMemoryType == CU_MEMORYTYPE_ARRAY;
    if ((src_array && !memcpy_array_ok(c->srcArray, c->srcXInBytes, c->srcY, c->srcZ, c)) ||
        (dst_array && !memcpy_array_ok(c->dstArray, c->dstXInBytes, c->dstY, c->dstZ, c)))
        return CUDA_ERROR_INVALID_VALUE;
    if ((!src_array && !memcpy_shape_ok(c->srcXInBytes, c->srcY, c->srcPitch, c->srcHeight, c)) ||
        (!dst_array && !memcpy_shape_ok(c->dstXInBytes, c->dstY, c->dstPitch, c->dstHeight, c)))
        return CUDA_ERROR_INVALID_VALUE;
    if (c->WidthInBytes &&
        ((!src_array && !memcpy_side(c->srcMemoryType, c->srcHost, c->srcDevice)) ||
         (!dst_array && !memcpy_side(c->dstMemoryType, c->dstHost, c->dstDevice))))
        return CUDA_ERROR_INVALID_VALUE;
    if (c->WidthInBytes &&
        ((!src_array && !memcpy_operand_ok(c->srcMemoryType, c->srcHost, c->srcDevice)) ||
         (!dst_array && !memcpy_operand_ok(c->dstMemoryType, c->dstHost, c->dstDevice))))
        return CUDA_ERROR_INVALID_VALUE;
    CUcontext ctx = in->copyCtx ? in->copyCtx : current_ctx();
    if (!context_valid(ctx))
        return CUDA_ERROR_INVALID_CONTEXT;
    out->p.memcpy = *in;
    out->p.memcpy.copyCtx = ctx;
    out->ctx = ctx;
    return CUDA_SUCCESS;
}

/* Graphs holding allocation or free nodes "can only be used in a child node if the ownership is
 * moved to the parent" and "cannot be cloned" (cuGraphAddMemAllocNode). */
/* Conditional nodes, at any depth (CUDA cannot clone such a graph or embed it). */
static int graph_has_conditional(const fake_graph *g)
{
    for (size_t i = 0; i < g->num_nodes; i++) {
        const fake_payload *pl = &g->nodes[i]->pl;
        if (pl->p.type == CU_GRAPH_NODE_TYPE_CONDITIONAL ||
            (pl->child && graph_has_conditional(pl->child)))
            return 1;
    }
    return 0;
}

static int graph_has_mem_nodes(const fake_graph *g)
{
    for (size_t i = 0; i < g->num_nodes; i++) {
        CUgraphNodeType t = g->nodes[i]->pl.p.type;
        if (t == CU_GRAPH_NODE_TYPE_MEM_ALLOC || t == CU_GRAPH_NODE_TYPE_MEM_FREE)
            return 1;
    }
    return 0;
}

static CUresult build_child(const CUDA_CHILD_GRAPH_NODE_PARAMS *in, int snapshot,
                            fake_payload *out)
{
    if (in->ownership != CU_GRAPH_CHILD_GRAPH_OWNERSHIP_CLONE)
        return CUDA_ERROR_INVALID_VALUE; /* moved child graphs are not modelled */
    const fake_graph *src = lookup_graph(in->graph);
    if (!src || (!snapshot && (graph_has_mem_nodes(src) || graph_has_conditional(src))))
        return CUDA_ERROR_INVALID_VALUE;
    CUresult r = CUDA_SUCCESS;
    fake_graph *child = graph_clone(src, snapshot, 1, &r);
    if (!child)
        return r;
    out->child = child;
    out->p.graph.graph = (CUgraph)child;
    out->p.graph.ownership = CU_GRAPH_CHILD_GRAPH_OWNERSHIP_CLONE;
    return CUDA_SUCCESS;
}

/* Bits of a batch operation's value and address alignment: 32 or 64 for writes and waits, 0
 * for flushes and barriers, -1 for a type the fake does not know. */
static int mem_op_bits(CUstreamBatchMemOpType t)
{
    switch (t) {
    case CU_STREAM_MEM_OP_WRITE_VALUE_32:
    case CU_STREAM_MEM_OP_WAIT_VALUE_32:
        return 32;
    case CU_STREAM_MEM_OP_WRITE_VALUE_64:
    case CU_STREAM_MEM_OP_WAIT_VALUE_64:
        return 64;
    case CU_STREAM_MEM_OP_FLUSH_REMOTE_WRITES:
    case CU_STREAM_MEM_OP_BARRIER:
        return 0;
    default:
        return -1;
    }
}

static int mem_op_is_wait(CUstreamBatchMemOpType t)
{
    return t == CU_STREAM_MEM_OP_WAIT_VALUE_32 || t == CU_STREAM_MEM_OP_WAIT_VALUE_64;
}

/* What the driver accepts of one operation: a known type; writes and waits on device memory
 * it knows, aligned to their size; flags the type takes (a write's must be 0 in the v2 API). */
static int mem_op_ok(const CUstreamBatchMemOpParams *op)
{
    int bits = mem_op_bits(op->operation);
    if (bits < 0)
        return 0;
    if (bits > 0) {
        CUdeviceptr a = op->writeValue.address;
        if (!a || a % (CUdeviceptr)(bits / 8) || !memory_type_of((uintptr_t)a))
            return 0;
        if (mem_op_is_wait(op->operation))
            return (op->waitValue.flags & ~(unsigned)CU_STREAM_WAIT_VALUE_FLUSH) <=
                   CU_STREAM_WAIT_VALUE_NOR;
        return op->writeValue.flags == 0;
    }
    if (op->operation == CU_STREAM_MEM_OP_BARRIER)
        return op->memoryBarrier.flags <= CU_STREAM_MEMORY_BARRIER_TYPE_GPU;
    return op->flushRemoteWrites.flags == 0;
}

static CUresult build_batch_mem_op(const CUDA_BATCH_MEM_OP_NODE_PARAMS_v2 *in, fake_payload *out)
{
    if (in->count == 0 || in->count > 255 || !in->paramArray || in->flags)
        return CUDA_ERROR_INVALID_VALUE;
    for (unsigned int i = 0; i < in->count; i++)
        if (!mem_op_ok(&in->paramArray[i]))
            return CUDA_ERROR_INVALID_VALUE;
    CUcontext ctx = in->ctx ? in->ctx : current_ctx();
    if (!context_valid(ctx))
        return CUDA_ERROR_INVALID_CONTEXT;
    out->mem_ops = malloc(in->count * sizeof *out->mem_ops);
    if (!out->mem_ops)
        return CUDA_ERROR_OUT_OF_MEMORY;
    memcpy(out->mem_ops, in->paramArray, in->count * sizeof *out->mem_ops);
    out->p.memOp = *in;
    out->p.memOp.paramArray = out->mem_ops;
    out->p.memOp.ctx = ctx;
    out->ctx = ctx;
    return CUDA_SUCCESS;
}

static fake_cond *lookup_cond(CUgraphConditionalHandle h)
{
    void *key = (void *)(uintptr_t)h;
    return h && reg_kind(key) == KIND_COND ? (fake_cond *)key : NULL;
}

/* CUDA_CONDITIONAL_NODE_PARAMS: size 1 for WHILE, 1 or 2 (else body) for IF, 1 or more for
 * SWITCH; an else body and SWITCH need 12.8 (an older driver takes neither). The handle's
 * context must be the node's. The driver creates the (empty) bodies and the phGraph_out
 * array, FAKE_MAX_BODIES at most (the real driver states no bound; cgn's is lower). */
static CUresult build_conditional(const CUDA_CONDITIONAL_NODE_PARAMS *in, int snapshot,
                                  fake_payload *out)
{
    const fake_cond *c = lookup_cond(in->handle);
    unsigned int max = in->type == CU_GRAPH_COND_TYPE_WHILE ? 1
                       : in->type == CU_GRAPH_COND_TYPE_IF  ? 2
                       : in->type == 2                      ? FAKE_MAX_BODIES
                                                            : 0;
    if (S.version < 12080 && max > 1)
        max = in->type == CU_GRAPH_COND_TYPE_IF ? 1 : 0; /* no else body, no SWITCH */
    if (!c || in->ctx != c->ctx || in->size == 0 || in->size > max)
        return CUDA_ERROR_INVALID_VALUE;
    out->bodies = calloc(in->size, sizeof *out->bodies);
    if (!out->bodies)
        return CUDA_ERROR_OUT_OF_MEMORY;
    fake_graph **tail = &out->child;
    for (unsigned int i = 0; i < in->size; i++, tail = &(*tail)->next_body) {
        *tail = graph_new(snapshot);
        if (!*tail)
            return CUDA_ERROR_OUT_OF_MEMORY; /* the caller frees what was made */
    }
    out->p.conditional = *in;
    out->p.conditional.phGraph_out = NULL; /* set to the node's array once it exists */
    out->ctx = in->ctx;
    return CUDA_SUCCESS;
}

/* Body i of a conditional node's payload, or NULL. */
static fake_graph *payload_body(const fake_payload *pl, unsigned int i)
{
    fake_graph *g = pl->child;
    while (g && i-- > 0)
        g = g->next_body;
    return g;
}

/* The copied_arrays layout of node type t (generated/tests/cgn_fake_nodes.h), or NULL. */
static const cgn_fake_array_layout *array_layout(CUgraphNodeType t)
{
    for (const cgn_fake_array_layout *l = cgn_fake_array_layouts; l->num_parts; l++)
        if (l->type == t)
            return l;
    return NULL;
}

static unsigned int array_count(const cgn_fake_array_layout *l, const CUgraphNodeParams *p)
{
    unsigned int count;
    memcpy(&count, (const unsigned char *)p + l->count_at, sizeof count);
    return count;
}

static const void *array_part(const cgn_fake_array_layout *l, const CUgraphNodeParams *p,
                              size_t i)
{
    const void *a;
    memcpy(&a, (const unsigned char *)p + l->at[i], sizeof a);
    return a;
}

/* Copies the arrays `in` points at into one block `out` owns, and points out->p at it. */
static CUresult copy_arrays(const cgn_fake_array_layout *l, const CUgraphNodeParams *in,
                            fake_payload *out)
{
    size_t count = array_count(l, in), off[CGN_FAKE_MAX_ARRAY_PARTS], total = 0;
    for (size_t i = 0; i < l->num_parts; i++) {
        off[i] = (total + 15) & ~(size_t)15;
        total = off[i] + count * l->size[i];
    }
    unsigned char *copy = malloc(total ? total : 1);
    if (!copy)
        return CUDA_ERROR_OUT_OF_MEMORY;
    for (size_t i = 0; i < l->num_parts; i++) {
        memcpy(copy + off[i], array_part(l, in, i), count * l->size[i]);
        void *mine = copy + off[i];
        memcpy((unsigned char *)&out->p + l->at[i], &mine, sizeof mine);
    }
    out->array_copy = copy;
    return CUDA_SUCCESS;
}

/* A node type whose params are parallel arrays and a count: none NULL, at least one element,
 * copied as the driver copies them. */
static CUresult build_arrays(const cgn_fake_array_layout *l, const CUgraphNodeParams *in,
                             fake_payload *out)
{
    if (array_count(l, in) == 0)
        return CUDA_ERROR_INVALID_VALUE;
    for (size_t i = 0; i < l->num_parts; i++)
        if (!array_part(l, in, i))
            return CUDA_ERROR_INVALID_VALUE;
    out->p = *in;
    return copy_arrays(l, in, out);
}

/* External semaphore nodes take live semaphores only (the fake does not model semaphore types,
 * so any flags are accepted). Signal and wait params share the layout. */
static int ext_sems_live(const CUDA_EXT_SEM_SIGNAL_NODE_PARAMS_v2 *in)
{
    for (unsigned int i = 0; in->extSemArray && i < in->numExtSems; i++)
        if (!lookup_ext_sem(in->extSemArray[i]))
            return 0;
    return 1;
}

static CUresult build_by_type(const CUgraphNodeParams *in, int snapshot, fake_payload *out)
{
    if (in->type == CGN_FAKE_FOREIGN_NODE_TYPE) /* no parameters; a launch does nothing */
        return CUDA_SUCCESS;
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
        break;
    case CU_GRAPH_NODE_TYPE_GRAPH:
        return build_child(&in->graph, snapshot, out);
    case CU_GRAPH_NODE_TYPE_EVENT_RECORD:
        if (!lookup_event(in->eventRecord.event))
            return CUDA_ERROR_INVALID_VALUE;
        break;
    case CU_GRAPH_NODE_TYPE_WAIT_EVENT:
        if (!lookup_event(in->eventWait.event))
            return CUDA_ERROR_INVALID_VALUE;
        break;
    case CU_GRAPH_NODE_TYPE_MEM_ALLOC:
        /* Only the address is modelled: a fresh one, never dereferenced (launches do nothing). */
        if (in->alloc.bytesize == 0)
            return CUDA_ERROR_INVALID_VALUE;
        out->p.alloc.bytesize = in->alloc.bytesize;
        out->p.alloc.poolProps = in->alloc.poolProps;
        if (S.next_alloc == FAKE_ALLOC_MAX)
            return CUDA_ERROR_OUT_OF_MEMORY;
        out->p.alloc.dptr = FAKE_ALLOC_BASE + (CUdeviceptr)(++S.next_alloc) * FAKE_ALLOC_STRIDE;
        return CUDA_SUCCESS;
    case CU_GRAPH_NODE_TYPE_MEM_FREE:
        /* "an address that was not returned by an allocation node": CUDA_ERROR_INVALID_VALUE. */
        if (!fake_is_graph_alloc(in->free.dptr))
            return CUDA_ERROR_INVALID_VALUE;
        break;
    case CU_GRAPH_NODE_TYPE_EXT_SEMAS_SIGNAL:
    case CU_GRAPH_NODE_TYPE_EXT_SEMAS_WAIT:
        if (!ext_sems_live(&in->extSemSignal))
            return CUDA_ERROR_INVALID_HANDLE;
        break;
    case CU_GRAPH_NODE_TYPE_BATCH_MEM_OP:
        return build_batch_mem_op(&in->memOp, out);
    case CU_GRAPH_NODE_TYPE_CONDITIONAL:
        return build_conditional(&in->conditional, snapshot, out);
    default:
        break;
    }
    /* After the checks above, a node type of a spec: its arrays copied (copied_arrays fields,
     * generated/tests/cgn_fake_nodes.h), or its params as given. */
    const cgn_fake_array_layout *l = array_layout(in->type);
    if (l)
        return build_arrays(l, in, out);
#define FAKE_SPEC_TYPE(cu) || in->type == cu
    if (0 CGN_FAKE_SPEC_TYPES(FAKE_SPEC_TYPE)) {
        out->p = *in;
        return CUDA_SUCCESS;
    }
#undef FAKE_SPEC_TYPE
    return CUDA_ERROR_INVALID_VALUE; /* node types cgn does not build */
}

/* Validates params and builds a payload owning copies of everything they point at. Child
 * graphs cloned for an executable are flagged snapshot. */
static CUresult payload_build(const CUgraphNodeParams *in, int snapshot, fake_payload *out)
{
    memset(out, 0, sizeof *out);
    if (in->reserved0[0] || in->reserved0[1] || in->reserved0[2] || in->reserved2)
        return CUDA_ERROR_INVALID_VALUE; /* "must be zero" */
    out->p.type = in->type;
    out->ctx = current_ctx(); /* types without a context field record the current one */
    CUresult r = build_by_type(in, snapshot, out);
    if (r != CUDA_SUCCESS)
        payload_free(out);
    return r;
}

static CUresult payload_copy(const fake_payload *src, int snapshot, int with_refs,
                             fake_payload *out)
{
    *out = *src;
    out->arg_bytes = NULL;
    out->arg_ptrs = NULL;
    out->child = NULL;
    out->mem_ops = NULL;
    out->array_copy = NULL;
    out->bodies = NULL; /* a copy's array is not handed out */
    if (src->array_copy) {
        CUresult r = copy_arrays(array_layout(src->p.type), &src->p, out);
        if (r != CUDA_SUCCESS)
            return r;
    }
    if (src->mem_ops) {
        size_t size = src->p.memOp.count * sizeof *out->mem_ops;
        out->mem_ops = malloc(size);
        if (!out->mem_ops)
            return CUDA_ERROR_OUT_OF_MEMORY;
        memcpy(out->mem_ops, src->mem_ops, size);
        out->p.memOp.paramArray = out->mem_ops;
    }
    if (src->kernel) {
        CUresult r = copy_args(src->kernel, src->arg_ptrs, &out->arg_bytes, &out->arg_ptrs);
        if (r != CUDA_SUCCESS)
            return r;
        out->p.kernel.kernelParams = out->arg_ptrs;
    }
    fake_graph **tail = &out->child;
    FOR_EMBEDDED(inner, src) { /* a child graph, or every body of a conditional node */
        CUresult r = CUDA_SUCCESS;
        *tail = graph_clone(inner, snapshot, with_refs, &r);
        if (!*tail) {
            payload_free(out); /* the bodies cloned so far too */
            return r;
        }
        tail = &(*tail)->next_body;
    }
    if (src->p.type == CU_GRAPH_NODE_TYPE_CONDITIONAL)
        out->p.conditional.phGraph_out = NULL; /* a copy's array is not handed out */
    else if (src->child)
        out->p.graph.graph = (CUgraph)out->child;
    return CUDA_SUCCESS;
}

static CUgraphNodeParams params_of_type(CUgraphNodeType type)
{
    CUgraphNodeParams p;
    memset(&p, 0, sizeof p);
    p.type = type;
    return p;
}

/* ---- calls that crash the real driver -------------------------------------------------------- */

typedef enum fake_call {
    FAKE_CALL_ADD_NODE,       /* cuGraphAdd*Node */
    FAKE_CALL_SET_PARAMS,     /* cuGraphNodeSetParams */
    FAKE_CALL_EXEC_SET_PARAMS /* cuGraphExecNodeSetParams */
} fake_call;

/* The one place that decides which calls would crash the real driver instead of failing. The
 * fake refuses them with CUDA_ERROR_UNKNOWN and counts them (cgn_fake_crash_prone_calls), so
 * cgn's tests can assert it never makes one. `node` is the payload the call would replace
 * (NULL when adding); `in` the parameters given. Add cases here as they are found.
 *
 * 1. A kernel node given a CUfunction owned by another context than the node's, while no
 *    context is current on the calling thread: cuGraphExecNodeSetParams segfaults on an H200.
 *    Counted for every node-params call, the definition's and adds too (for an add, "the
 *    node's context" is the ctx field, when set).
 * 2. An update of a kernel node to a CUfunction, any CUfunction, while no context is current:
 *    crashes inside libcuda on the H200 (driver 580), the function unchanged too (spec
 *    kernel.yaml, context_current). Updates only: an add names the context in ctx. */
static int crash_prone(fake_call call, const fake_payload *node, const CUgraphNodeParams *in)
{
    if (in->type == CU_GRAPH_NODE_TYPE_KERNEL && in->kernel.func && !current_ctx()) {
        if (call != FAKE_CALL_ADD_NODE)
            return 1;
        const fake_khandle *f = lookup_fhandle(in->kernel.func);
        CUcontext node_ctx = node ? node->ctx : in->kernel.ctx;
        if (f && node_ctx && f->ctx != node_ctx)
            return 1;
    }
    return 0;
}

static CUresult crash_refused(void)
{
    S.crash_prone++;
    return CUDA_ERROR_UNKNOWN;
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
    if (crash_prone(FAKE_CALL_ADD_NODE, NULL, params))
        return crash_refused();
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

/* ---- executable-update rules ----------------------------------------------------------------- */

static CUgraphExecUpdateResult update_fail(CUgraphExecUpdateResultInfo *info,
                                           CUgraphExecUpdateResult why, const fake_node *node,
                                           const fake_node *from)
{
    info->result = why;
    info->errorNode = (CUgraphNode)node;
    info->errorFromNode = (CUgraphNode)from;
    return why;
}

static CUgraphExecUpdateResult graph_compare(const fake_graph *cur, const fake_graph *next,
                                             const fake_node *where,
                                             CUgraphExecUpdateResultInfo *info);

/* The same copy: every member of the descriptor but the padding. */
static int memcpy_same(const CUDA_MEMCPY3D *a, const CUDA_MEMCPY3D *b)
{
    return a->srcXInBytes == b->srcXInBytes && a->srcY == b->srcY && a->srcZ == b->srcZ &&
           a->srcLOD == b->srcLOD && a->srcMemoryType == b->srcMemoryType &&
           a->srcHost == b->srcHost && a->srcDevice == b->srcDevice &&
           a->srcArray == b->srcArray && a->srcPitch == b->srcPitch &&
           a->srcHeight == b->srcHeight && a->dstXInBytes == b->dstXInBytes &&
           a->dstY == b->dstY && a->dstZ == b->dstZ && a->dstLOD == b->dstLOD &&
           a->dstMemoryType == b->dstMemoryType && a->dstHost == b->dstHost &&
           a->dstDevice == b->dstDevice && a->dstArray == b->dstArray &&
           a->dstPitch == b->dstPitch && a->dstHeight == b->dstHeight &&
           a->WidthInBytes == b->WidthInBytes && a->Height == b->Height && a->Depth == b->Depth;
}

/* cuGraphExecBatchMemOpNodeSetParams: only the addresses and values of writes and waits, and
 * the comparison of waits (not their CU_STREAM_WAIT_VALUE_FLUSH bit), may change; not the
 * context, the count, the types, or anything of a flush or barrier. */
static int mem_ops_update_ok(const CUDA_BATCH_MEM_OP_NODE_PARAMS_v2 *a,
                             const CUDA_BATCH_MEM_OP_NODE_PARAMS_v2 *b)
{
    if (a->ctx != b->ctx || a->count != b->count)
        return 0;
    for (unsigned int i = 0; i < a->count; i++) {
        const CUstreamBatchMemOpParams *x = &a->paramArray[i], *y = &b->paramArray[i];
        if (x->operation != y->operation)
            return 0;
        if (mem_op_is_wait(x->operation)) {
            if ((x->waitValue.flags ^ y->waitValue.flags) & (unsigned)CU_STREAM_WAIT_VALUE_FLUSH)
                return 0;
        } else if (mem_op_bits(x->operation) > 0) {
            if (x->writeValue.flags != y->writeValue.flags)
                return 0;
        } else if (x->operation == CU_STREAM_MEM_OP_BARRIER) {
            if (x->memoryBarrier.flags != y->memoryBarrier.flags)
                return 0;
        } else if (x->flushRemoteWrites.flags != y->flushRemoteWrites.flags) {
            return 0;
        }
    }
    return 1;
}

/* Whether an executable node holding `cur` may take `next` (same type), by the rules the
 * driver enforces in cuGraphExecNodeSetParams and cuGraphExecUpdate; `node` is what a failure
 * reports. */
static CUgraphExecUpdateResult update_rule(const fake_payload *cur, const fake_payload *next,
                                           const fake_node *node,
                                           CUgraphExecUpdateResultInfo *info)
{
    /* Node types of arrays (spec copied_arrays) keep their count ("Changing numExtSems is not
     * supported", cuGraphExecExternalSemaphoresSignalNodeSetParams). */
    const cgn_fake_array_layout *l = array_layout(cur->p.type);
    if (l && array_count(l, &cur->p) != array_count(l, &next->p))
        return update_fail(info, CU_GRAPH_EXEC_UPDATE_ERROR_PARAMETERS_CHANGED, node, NULL);
    switch (cur->p.type) {
    case CU_GRAPH_NODE_TYPE_KERNEL:
        /* The owning context of the function cannot change. */
        if (cur->ctx != next->ctx)
            return update_fail(info, CU_GRAPH_EXEC_UPDATE_ERROR_UNSUPPORTED_FUNCTION_CHANGE, node,
                               NULL);
        break;
    case CU_GRAPH_NODE_TYPE_MEMSET: {
        const CUDA_MEMSET_NODE_PARAMS_v2 *a = &cur->p.memset, *b = &next->p.memset;
        /* 1-D stays 1-D; a 2-D memset may change only its address and value. */
        int ok = a->height == 1 ? b->height == 1
                                : (b->width == a->width && b->height == a->height &&
                                   b->pitch == a->pitch && b->elementSize == a->elementSize);
        if (!ok)
            return update_fail(info, CU_GRAPH_EXEC_UPDATE_ERROR_PARAMETERS_CHANGED, node, NULL);
        break;
    }
    case CU_GRAPH_NODE_TYPE_MEMCPY: {
        const CUDA_MEMCPY3D *a = &cur->p.memcpy.copyParams, *b = &next->p.memcpy.copyParams;
        if (a->srcMemoryType != b->srcMemoryType || a->dstMemoryType != b->dstMemoryType)
            return update_fail(info, CU_GRAPH_EXEC_UPDATE_ERROR_PARAMETERS_CHANGED, node, NULL);
        /* Operands of a changed copy are 1-dimensional before and after (the driver's
         * cuGraphExecMemcpyNodeSetParams; assumed of cuGraphExecUpdate too). */
        int flat = a->Height == 1 && a->Depth == 1 && b->Height == 1 && b->Depth == 1;
        if (!flat && !memcpy_same(a, b))
            return update_fail(info, CU_GRAPH_EXEC_UPDATE_ERROR_PARAMETERS_CHANGED, node, NULL);
        break;
    }
    case CU_GRAPH_NODE_TYPE_GRAPH:
        return graph_compare(cur->child, next->child, node, info);
    case CU_GRAPH_NODE_TYPE_CONDITIONAL:
        /* The node's parameters cannot change (its handle may: CUDA takes the new graph's
         * handle flags and default); its body is compared like a child graph. */
        if (cur->p.conditional.type != next->p.conditional.type ||
            cur->p.conditional.size != next->p.conditional.size)
            return update_fail(info, CU_GRAPH_EXEC_UPDATE_ERROR_PARAMETERS_CHANGED, node, NULL);
        for (unsigned int i = 0; i < cur->p.conditional.size; i++) {
            CUgraphExecUpdateResult r =
                graph_compare(payload_body(cur, i), payload_body(next, i), node, info);
            if (r != CU_GRAPH_EXEC_UPDATE_SUCCESS)
                return r;
        }
        return CU_GRAPH_EXEC_UPDATE_SUCCESS;
    case CU_GRAPH_NODE_TYPE_BATCH_MEM_OP:
        if (!mem_ops_update_ok(&cur->p.memOp, &next->p.memOp))
            return update_fail(info, CU_GRAPH_EXEC_UPDATE_ERROR_PARAMETERS_CHANGED, node, NULL);
        break;
    default:
        break;
    }
    return update_fail(info, CU_GRAPH_EXEC_UPDATE_SUCCESS, NULL, NULL);
}

static int has_dep_at(const fake_node *n, size_t index)
{
    for (size_t d = 0; d < n->num_deps; d++)
        if (n->deps[d]->index == index)
            return 1;
    return 0;
}

/* Whether `next` is topologically identical to `cur` (node i pairs with node i; same types;
 * same dependencies by index; embedded graphs alike) and every pair passes update_rule.
 * `where` is the child graph node of `next`'s parent graph (NULL at the top): what a
 * difference in node count reports. */
static CUgraphExecUpdateResult graph_compare(const fake_graph *cur, const fake_graph *next,
                                             const fake_node *where,
                                             CUgraphExecUpdateResultInfo *info)
{
    if (cur->num_nodes != next->num_nodes)
        return update_fail(info, CU_GRAPH_EXEC_UPDATE_ERROR_TOPOLOGY_CHANGED, where, NULL);
    for (size_t i = 0; i < cur->num_nodes; i++) {
        const fake_node *a = cur->nodes[i], *b = next->nodes[i];
        if (a->num_deps != b->num_deps)
            return update_fail(info, CU_GRAPH_EXEC_UPDATE_ERROR_TOPOLOGY_CHANGED, b, NULL);
        for (size_t d = 0; d < b->num_deps; d++)
            if (!has_dep_at(a, b->deps[d]->index))
                return update_fail(info, CU_GRAPH_EXEC_UPDATE_ERROR_TOPOLOGY_CHANGED, b,
                                   b->deps[d]);
    }
    for (size_t i = 0; i < cur->num_nodes; i++)
        if (cur->nodes[i]->pl.p.type != next->nodes[i]->pl.p.type)
            return update_fail(info, CU_GRAPH_EXEC_UPDATE_ERROR_NODE_TYPE_CHANGED,
                               next->nodes[i], NULL);
    for (size_t i = 0; i < cur->num_nodes; i++) {
        CUgraphExecUpdateResult r =
            update_rule(&cur->nodes[i]->pl, &next->nodes[i]->pl, next->nodes[i], info);
        if (r != CU_GRAPH_EXEC_UPDATE_SUCCESS)
            return r;
    }
    return update_fail(info, CU_GRAPH_EXEC_UPDATE_SUCCESS, NULL, NULL);
}

/* ---- executables, launches in flight --------------------------------------------------------- */

static void exec_free(fake_exec *e)
{
    for (size_t i = 0; i < S.num_unfreed; i++) /* its allocations outlive it */
        if (S.unfreed[i].exec == e)
            S.unfreed[i].exec = NULL;
    fake_graph *snapshot = e->snapshot;
    reg_remove(e);
    free(e);
    graph_destroy(snapshot); /* drops the executable's user-object references */
}

/* The newest launch of e still in flight, or NULL. */
static fake_launch *exec_newest_launch(const fake_exec *e)
{
    for (size_t i = S.num_launches; i-- > 0;)
        if (S.launches[i].exec == e)
            return &S.launches[i];
    return NULL;
}

/* Room to give up `entries` references of e: in *tmp, and in the launch that will hold them
 * if e is in flight. On failure nothing is allocated. */
static CUresult release_prepare(const fake_exec *e, fake_ref_list *tmp, size_t entries)
{
    memset(tmp, 0, sizeof *tmp);
    fake_launch *l = exec_newest_launch(e);
    if (!reflist_reserve(tmp, entries) || (l && !reflist_reserve(&l->held, entries))) {
        free(tmp->items);
        memset(tmp, 0, sizeof *tmp);
        return CUDA_ERROR_OUT_OF_MEMORY;
    }
    return CUDA_SUCCESS;
}

/* Drops the references e gave up (*tmp) now, or, while launches of e are in flight, hands them
 * to the newest, which drops them when it completes (release_prepare made room there). */
static void release_finish(const fake_exec *e, fake_ref_list *tmp)
{
    fake_launch *l = exec_newest_launch(e);
    if (!l) {
        reflist_drop(tmp);
        return;
    }
    for (size_t i = 0; i < tmp->num; i++)
        reflist_push(&l->held, tmp->items[i].object, tmp->items[i].count);
    free(tmp->items);
    memset(tmp, 0, sizeof *tmp);
}

/* Installs *pl in node n of e's snapshot; the references a replaced child graph held are given
 * up as release_finish says. On failure *pl is left to the caller. */
static CUresult exec_install_payload(fake_exec *e, fake_node *n, fake_payload *pl)
{
    fake_ref_list tmp;
    size_t entries = 0;
    FOR_EMBEDDED(inner, &n->pl)
        entries += graph_tree_ref_entries(inner);
    CUresult r = release_prepare(e, &tmp, entries);
    if (r != CUDA_SUCCESS)
        return r;
    FOR_EMBEDDED(inner, &n->pl)
        graph_tree_detach_refs(inner, &tmp);
    node_replace_payload(n, pl);
    release_finish(e, &tmp);
    return CUDA_SUCCESS;
}

/* cuGraphExecUpdate once the graphs matched: every snapshot node takes a copy of its pair's
 * payload (keeping its pairing with the graph e was instantiated from, and its enabled state);
 * the references e held are given up and, in S.exec_update_refs mode 0, replaced by copies of
 * the graph's. */
static CUresult exec_update_apply(fake_exec *e, const fake_graph *g)
{
    fake_graph *snap = e->snapshot;
    size_t n = snap->num_nodes, built = 0;
    int with_refs = S.exec_update_refs == CGN_FAKE_EXEC_UPDATE_REFS_COPY;
    fake_payload *next = n ? calloc(n, sizeof *next) : NULL;
    fake_ref_list top = {NULL, 0, 0}, tmp = {NULL, 0, 0};
    CUresult r = (n && !next) ? CUDA_ERROR_OUT_OF_MEMORY : CUDA_SUCCESS;
    for (; r == CUDA_SUCCESS && built < n; built++) {
        r = payload_copy(&g->nodes[built]->pl, 1, with_refs, &next[built]);
        if (r != CUDA_SUCCESS)
            break;
    }
    if (r == CUDA_SUCCESS && with_refs && !reflist_reserve(&top, g->refs.num))
        r = CUDA_ERROR_OUT_OF_MEMORY;
    if (r == CUDA_SUCCESS)
        r = release_prepare(e, &tmp, graph_tree_ref_entries(snap));
    if (r != CUDA_SUCCESS) {
        for (size_t i = 0; i < built; i++)
            payload_free(&next[i]);
        free(next);
        free(top.items);
        return r;
    }
    graph_tree_detach_refs(snap, &tmp); /* the old child graphs go without dropping anything */
    for (size_t i = 0; i < n; i++)
        node_replace_payload(snap->nodes[i], &next[i]);
    free(next);
    for (size_t i = 0; with_refs && i < g->refs.num; i++) {
        fake_uobj *o = g->refs.items[i].object;
        reflist_push(&top, o, g->refs.items[i].count);
        o->graph_refs += g->refs.items[i].count;
        o->total += g->refs.items[i].count;
    }
    snap->refs = top;
    release_finish(e, &tmp);
    return CUDA_SUCCESS;
}

static int launch_reserve(void)
{
    if (S.num_launches < S.cap_launches)
        return 1;
    size_t cap = S.cap_launches ? S.cap_launches * 2 : 8;
    fake_launch *launches = realloc(S.launches, cap * sizeof *launches);
    if (!launches)
        return 0;
    S.launches = launches;
    S.cap_launches = cap;
    return 1;
}

/* Completes up to `max` launches, oldest first: each drops the references it held, and an
 * executable destroyed in flight goes with its last launch. Destructors may call back in
 * (even to complete more): each launch leaves the queue before any runs. */
static size_t complete_launches(size_t max)
{
    size_t done = 0;
    while (done < max && S.num_launches) {
        fake_launch l = S.launches[0];
        memmove(&S.launches[0], &S.launches[1], (S.num_launches - 1) * sizeof *S.launches);
        S.num_launches--;
        if (l.seq > S.completed_seq)
            S.completed_seq = l.seq;
        done++;
        l.exec->in_flight--;
        fake_exec *dead =
            (l.exec->destroyed && !l.exec->in_flight && !l.exec->running) ? l.exec : NULL;
        reflist_drop(&l.held);
        if (dead)
            exec_free(dead);
    }
    return done;
}

/* Whether work on stream a is ordered before work recorded on stream b: the same stream, or
 * either is the legacy NULL stream, which synchronizes with every other (the fake cannot tell
 * non-blocking streams, and treats CU_STREAM_PER_THREAD as one more stream). */
static int streams_ordered(CUstream a, CUstream b)
{
    int a_legacy = a == NULL || a == CU_STREAM_LEGACY;
    int b_legacy = b == NULL || b == CU_STREAM_LEGACY;
    return a == b || a_legacy || b_legacy;
}

/* ---- execution on the host ------------------------------------------------------------------- */

static void run_graph(const fake_graph *g, uint64_t seq);

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

/* One side of a copy as bytes: an array's data with its row width and rows a slice, or the
 * address with the descriptor's pitch and height. */
static unsigned char *copy_base(CUmemorytype t, const void *host, CUdeviceptr device, CUarray h,
                                size_t *pitch, size_t *height)
{
    if (t != CU_MEMORYTYPE_ARRAY)
        return memcpy_side(t, host, device);
    fake_array *a = lookup_array(h);
    *pitch = a->width;
    *height = a->height;
    return a->data;
}

static void run_memcpy(const CUDA_MEMCPY3D *c)
{
    size_t sp = c->srcPitch, sh = c->srcHeight, dp = c->dstPitch, dh = c->dstHeight;
    const unsigned char *src =
        copy_base(c->srcMemoryType, c->srcHost, c->srcDevice, c->srcArray, &sp, &sh);
    unsigned char *dst = copy_base(c->dstMemoryType, c->dstHost, c->dstDevice, c->dstArray, &dp, &dh);
    if (!c->WidthInBytes)
        return;
    if ((c->srcMemoryType == CU_MEMORYTYPE_DEVICE && fake_in_graph_alloc(c->srcDevice)) ||
        (c->dstMemoryType == CU_MEMORYTYPE_DEVICE && fake_in_graph_alloc(c->dstDevice)))
        return; /* graph allocations are addresses only: nothing to copy */
    for (size_t z = 0; z < c->Depth; z++) {
        for (size_t y = 0; y < c->Height; y++) {
            size_t s = c->srcXInBytes + ((c->srcZ + z) * sh + c->srcY + y) * sp;
            size_t d = c->dstXInBytes + ((c->dstZ + z) * dh + c->dstY + y) * dp;
            memmove(dst + d, src + s, c->WidthInBytes);
        }
    }
}

/* Whether a wait's condition holds for the value at its address (cuStreamWaitValue32/64). */
static int wait_satisfied(const CUstreamBatchMemOpParams *op)
{
    const void *at = (const void *)(uintptr_t)op->waitValue.address;
    uint64_t have, want;
    int wide = op->operation == CU_STREAM_MEM_OP_WAIT_VALUE_64;
    if (wide) {
        memcpy(&have, at, 8);
        want = op->waitValue.value64;
    } else {
        uint32_t v;
        memcpy(&v, at, 4);
        have = v;
        want = op->waitValue.value;
    }
    switch (op->waitValue.flags & ~(unsigned)CU_STREAM_WAIT_VALUE_FLUSH) {
    case CU_STREAM_WAIT_VALUE_GEQ: /* cyclic: (int)(*addr - value) >= 0 */
        return wide ? (int64_t)(have - want) >= 0 : (int32_t)(uint32_t)(have - want) >= 0;
    case CU_STREAM_WAIT_VALUE_EQ:
        return have == want;
    case CU_STREAM_WAIT_VALUE_AND:
        return (have & want) != 0;
    default: /* NOR */
        return wide ? ~(have | want) != 0 : (uint32_t) ~(have | want) != 0;
    }
}

/* In order: writes store their value; a wait that does not hold would block the GPU forever,
 * so the fake counts it (cgn_fake_unsatisfied_waits) and goes on; flushes and barriers do
 * nothing on the host. */
static void run_batch_mem_op(const CUDA_BATCH_MEM_OP_NODE_PARAMS_v2 *m)
{
    for (unsigned int i = 0; i < m->count; i++) {
        const CUstreamBatchMemOpParams *op = &m->paramArray[i];
        void *at = (void *)(uintptr_t)op->writeValue.address;
        if (op->operation == CU_STREAM_MEM_OP_WRITE_VALUE_32)
            memcpy(at, &op->writeValue.value, 4);
        else if (op->operation == CU_STREAM_MEM_OP_WRITE_VALUE_64)
            memcpy(at, &op->writeValue.value64, 8);
        else if (mem_op_is_wait(op->operation) && !wait_satisfied(op))
            S.unsatisfied_waits++;
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

static void run_node(const fake_node *n, uint64_t seq)
{
    const fake_payload *pl = &n->pl;
    if (n->disabled)
        return; /* a disabled node is an empty node until enabled again */
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
        run_graph(pl->child, seq);
        break;
    case CU_GRAPH_NODE_TYPE_CONDITIONAL: {
        fake_cond *c = lookup_cond(pl->p.conditional.handle);
        if (!c)
            break;
        if (pl->p.conditional.type == CU_GRAPH_COND_TYPE_IF) {
            const fake_graph *body = payload_body(pl, c->value != 0 ? 0 : 1); /* 1: else */
            if (body)
                run_graph(body, seq);
            break;
        }
        if (pl->p.conditional.type == 2) { /* SWITCH: body `value`; none past the last */
            const fake_graph *body = payload_body(pl, c->value);
            if (body)
                run_graph(body, seq);
            break;
        }
        /* WHILE: a body that never clears the condition hangs a GPU; the fake gives up after
         * FAKE_MAX_WHILE rounds and counts it (cgn_fake_runaway_loops). */
        size_t rounds = 0;
        while (c->value != 0 && rounds++ < FAKE_MAX_WHILE)
            run_graph(pl->child, seq);
        if (c->value != 0)
            S.runaway_loops++;
        break;
    }
    case CU_GRAPH_NODE_TYPE_BATCH_MEM_OP:
        run_batch_mem_op(&pl->p.memOp);
        break;
    case CU_GRAPH_NODE_TYPE_EXT_SEMAS_SIGNAL: /* timeline semaphores take the fence value */
    case CU_GRAPH_NODE_TYPE_EXT_SEMAS_WAIT:   /* waits never block: counted */
        for (unsigned int i = 0; i < pl->p.extSemSignal.numExtSems; i++) {
            fake_ext_sem *sem = lookup_ext_sem(pl->p.extSemSignal.extSemArray[i]);
            if (sem && pl->p.type == CU_GRAPH_NODE_TYPE_EXT_SEMAS_WAIT)
                sem->waits++;
            else if (sem) {
                sem->signals++;
                sem->value = pl->p.extSemSignal.paramsArray[i].params.fence.value;
            }
        }
        break;
    case CU_GRAPH_NODE_TYPE_EVENT_RECORD: {
        fake_event *ev = lookup_event(pl->p.eventRecord.event); /* NULL: destroyed since */
        if (ev) {
            ev->records++;
            ev->wait_seq = seq; /* pending until this launch completes */
        }
        break;
    }
    case CU_GRAPH_NODE_TYPE_MEM_ALLOC: /* the address is recorded, no memory is behind it */
        if (S.num_unfreed < S.cap_unfreed)
            S.unfreed[S.num_unfreed++] = (fake_unfreed){pl->p.alloc.dptr, S.running_exec};
        break;
    case CU_GRAPH_NODE_TYPE_MEM_FREE:
        for (size_t i = 0; i < S.num_unfreed; i++)
            if (S.unfreed[i].dptr == pl->p.free.dptr) {
                S.unfreed[i] = S.unfreed[--S.num_unfreed];
                break;
            }
        break;
    default: /* empty and event wait nodes do nothing on the host */
        break;
    }
}

/* Insertion order is topological: a node can only depend on nodes added before it (there is
 * no cuGraphAddDependencies in the table), and clones keep the order. */
static void run_graph(const fake_graph *g, uint64_t seq)
{
    for (size_t i = 0; i < g->num_nodes; i++)
        run_node(g->nodes[i], seq);
}

/* At the start of a launch every conditional handle of the graph with
 * CU_GRAPH_COND_ASSIGN_DEFAULT takes its default value. */
static void assign_defaults(const fake_graph *g)
{
    for (size_t i = 0; i < g->num_nodes; i++) {
        const fake_payload *pl = &g->nodes[i]->pl;
        fake_cond *c = pl->p.type == CU_GRAPH_NODE_TYPE_CONDITIONAL
                           ? lookup_cond(pl->p.conditional.handle)
                           : NULL;
        if (c && (c->flags & CU_GRAPH_COND_ASSIGN_DEFAULT))
            c->value = c->default_value;
        FOR_EMBEDDED(inner, pl)
            assign_defaults(inner);
    }
}

/* ---- entry points: misc ---------------------------------------------------------------------- */

#define FAKE_DECLARE(name, abi, need, params, args) static CUresult impl_##name params;
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

static CUresult impl_cuDriverGetVersion(int *v)
{
    if (!v)
        return CUDA_ERROR_INVALID_VALUE;
    *v = S.version;
    return CUDA_SUCCESS;
}

static CUresult impl_cuInit(unsigned int flags)
{
    return flags ? CUDA_ERROR_INVALID_VALUE : CUDA_SUCCESS;
}

static CUresult impl_cuGetErrorName(CUresult e, const char **s)
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
static CUresult impl_cuPointerGetAttribute(void *data, CUpointer_attribute a, CUdeviceptr p)
{
    if (!data || !p)
        return CUDA_ERROR_INVALID_VALUE;
    if (a != CU_POINTER_ATTRIBUTE_MEMORY_TYPE)
        return CUDA_ERROR_NOT_SUPPORTED;
    unsigned int type = memory_type_of((uintptr_t)p);
    if (!type)
        return CUDA_ERROR_INVALID_VALUE;
    memcpy(data, &type, sizeof type);
    return CUDA_SUCCESS;
}

/* ---- entry points: contexts (the calling thread's stack) ------------------------------------- */

static CUresult impl_cuCtxGetCurrent(CUcontext *c)
{
    if (!c)
        return CUDA_ERROR_INVALID_VALUE;
    *c = current_ctx();
    return CUDA_SUCCESS;
}

static CUresult impl_cuCtxPushCurrent(CUcontext c)
{
    fake_thread *t = thread_ctx();
    if (!context_valid(c))
        return CUDA_ERROR_INVALID_CONTEXT;
    if (t->depth == FAKE_CTX_STACK_MAX)
        return CUDA_ERROR_OUT_OF_MEMORY;
    t->stack[t->depth++] = c;
    return CUDA_SUCCESS;
}

static CUresult impl_cuCtxPopCurrent(CUcontext *c)
{
    fake_thread *t = thread_ctx();
    if (t->depth == 0)
        return CUDA_ERROR_INVALID_CONTEXT;
    CUcontext top = t->stack[--t->depth];
    if (c)
        *c = top;
    return CUDA_SUCCESS;
}

/* Replaces the top of the stack (pushes onto an empty one); NULL pops the top, a no-op on an
 * empty stack. */
/* Waits for all work: here, completes every launch still in flight (in order). Needs a
 * current context, as the driver does. */
static CUresult impl_cuCtxSynchronize(void)
{
    if (current_ctx() == NULL)
        return CUDA_ERROR_INVALID_CONTEXT;
    complete_launches(SIZE_MAX);
    return CUDA_SUCCESS;
}

static CUresult impl_cuCtxSetCurrent(CUcontext c)
{
    fake_thread *t = thread_ctx();
    if (!c) {
        if (t->depth)
            t->depth--;
        return CUDA_SUCCESS;
    }
    if (!context_valid(c))
        return CUDA_ERROR_INVALID_CONTEXT;
    if (t->depth)
        t->stack[t->depth - 1] = c;
    else
        t->stack[t->depth++] = c;
    return CUDA_SUCCESS;
}

/* ---- entry points: events -------------------------------------------------------------------- */

static CUresult impl_cuEventCreate(CUevent *e, unsigned int flags)
{
    const unsigned int known = CU_EVENT_BLOCKING_SYNC | CU_EVENT_DISABLE_TIMING |
                               CU_EVENT_INTERPROCESS;
    if (!e || (flags & ~known))
        return CUDA_ERROR_INVALID_VALUE;
    if ((flags & CU_EVENT_INTERPROCESS) && !(flags & CU_EVENT_DISABLE_TIMING))
        return CUDA_ERROR_INVALID_VALUE; /* the driver's rule for interprocess events */
    fake_event *ev = calloc(1, sizeof *ev);
    if (!ev || !reg_add(ev, KIND_EVENT)) {
        free(ev);
        return CUDA_ERROR_OUT_OF_MEMORY;
    }
    ev->flags = flags;
    *e = (CUevent)ev;
    return CUDA_SUCCESS;
}

/* The event completes when every launch in flight on an ordered stream has. */
static CUresult impl_cuEventRecord(CUevent e, CUstream s)
{
    fake_event *ev = lookup_event(e);
    if (!ev)
        return CUDA_ERROR_INVALID_VALUE;
    ev->wait_seq = 0;
    for (size_t i = 0; i < S.num_launches; i++)
        if (streams_ordered(S.launches[i].stream, s))
            ev->wait_seq = S.launches[i].seq; /* the queue is in increasing seq */
    return CUDA_SUCCESS;
}

static CUresult impl_cuEventQuery(CUevent e)
{
    const fake_event *ev = lookup_event(e);
    if (!ev)
        return CUDA_ERROR_INVALID_VALUE;
    return ev->wait_seq > S.completed_seq ? CUDA_ERROR_NOT_READY : CUDA_SUCCESS;
}

/* As on the driver, a pending event may be destroyed; nodes still naming it record nothing. */
static CUresult impl_cuEventDestroy(CUevent e)
{
    fake_event *ev = lookup_event(e);
    if (!ev)
        return CUDA_ERROR_INVALID_VALUE;
    reg_remove(ev);
    free(ev);
    return CUDA_SUCCESS;
}

/* ---- entry points: graphs -------------------------------------------------------------------- */

static CUresult impl_cuGraphCreate(CUgraph *g, unsigned int flags)
{
    if (!g || flags)
        return CUDA_ERROR_INVALID_VALUE;
    fake_graph *graph = graph_new(0);
    if (!graph)
        return CUDA_ERROR_OUT_OF_MEMORY;
    *g = (CUgraph)graph;
    return CUDA_SUCCESS;
}

static CUresult impl_cuGraphDestroy(CUgraph g)
{
    fake_graph *graph = lookup_graph(g);
    if (!graph || graph->parent) /* an embedded graph belongs to its node */
        return CUDA_ERROR_INVALID_VALUE;
    graph_destroy(graph);
    return CUDA_SUCCESS;
}

static CUresult impl_cuGraphClone(CUgraph *out, CUgraph g)
{
    const fake_graph *src = lookup_graph(g);
    if (!out || !src)
        return CUDA_ERROR_INVALID_VALUE;
    if (graph_has_mem_nodes(src) || graph_has_conditional(src))
        return CUDA_ERROR_NOT_SUPPORTED;
    CUresult r = CUDA_SUCCESS;
    fake_graph *clone = graph_clone(src, 0, 1, &r);
    if (!clone)
        return r;
    *out = (CUgraph)clone;
    return CUDA_SUCCESS;
}

static CUresult impl_cuGraphNodeFindInClone(CUgraphNode *out, CUgraphNode orig, CUgraph clone)
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

/* ---- entry points: graph and node queries ---------------------------------------------------- */

/* The driver's getter convention: with out == NULL only the count; otherwise up to *num
 * entries are written (the rest of *num set to NULL) and *num becomes the count. */
static CUresult impl_cuGraphGetNodes(CUgraph g, CUgraphNode *nodes, size_t *n)
{
    const fake_graph *graph = lookup_graph(g);
    if (!graph || !n)
        return CUDA_ERROR_INVALID_VALUE;
    for (size_t i = 0; nodes && i < *n; i++)
        nodes[i] = i < graph->num_nodes ? (CUgraphNode)graph->nodes[i] : NULL;
    *n = graph->num_nodes;
    return CUDA_SUCCESS;
}

static CUresult impl_cuGraphNodeGetType(CUgraphNode n, CUgraphNodeType *t)
{
    const fake_node *node = lookup_node(n);
    if (!node || !t)
        return CUDA_ERROR_INVALID_VALUE;
    *t = node->pl.p.type;
    return CUDA_SUCCESS;
}

/* In the order they were given. */
static CUresult impl_cuGraphNodeGetDependencies(CUgraphNode n, CUgraphNode *deps, size_t *num)
{
    const fake_node *node = lookup_node(n);
    if (!node || !num)
        return CUDA_ERROR_INVALID_VALUE;
    for (size_t i = 0; deps && i < *num; i++)
        deps[i] = i < node->num_deps ? (CUgraphNode)node->deps[i] : NULL;
    *num = node->num_deps;
    return CUDA_SUCCESS;
}

/* In insertion order. */
static CUresult impl_cuGraphNodeGetDependentNodes(CUgraphNode n, CUgraphNode *deps, size_t *num)
{
    const fake_node *node = lookup_node(n);
    if (!node || !num)
        return CUDA_ERROR_INVALID_VALUE;
    const fake_graph *g = node->graph;
    size_t count = 0;
    for (size_t i = node->index + 1; i < g->num_nodes; i++) {
        const fake_node *m = g->nodes[i];
        for (size_t d = 0; d < m->num_deps; d++) {
            if (m->deps[d] == node) {
                if (deps && count < *num)
                    deps[count] = (CUgraphNode)m;
                count++;
                break;
            }
        }
    }
    for (size_t i = count; deps && i < *num; i++)
        deps[i] = NULL;
    *num = count;
    return CUDA_SUCCESS;
}

/* Every edge of the graph, by node in insertion order and then in dependency order. */
static CUresult impl_cuGraphGetEdges(CUgraph g, CUgraphNode *from, CUgraphNode *to, size_t *num)
{
    const fake_graph *graph = lookup_graph(g);
    if (!graph || !num || (!from) != (!to))
        return CUDA_ERROR_INVALID_VALUE;
    size_t count = 0;
    for (size_t i = 0; i < graph->num_nodes; i++) {
        const fake_node *n = graph->nodes[i];
        for (size_t d = 0; d < n->num_deps; d++, count++) {
            if (from && count < *num) {
                from[count] = (CUgraphNode)n->deps[d];
                to[count] = (CUgraphNode)n;
            }
        }
    }
    for (size_t i = count; from && i < *num; i++)
        from[i] = to[i] = NULL;
    *num = count;
    return CUDA_SUCCESS;
}

static const fake_node *lookup_typed(CUgraphNode n, CUgraphNodeType type)
{
    const fake_node *node = lookup_node(n);
    return (node && node->pl.p.type == type) ? node : NULL;
}

/* What a typed getter answers beyond the node's params (FAKE_TYPED_ENTRIES), by type. A
 * kernel's kernelParams points at the node's own copies of the arguments (driver-owned memory,
 * valid until the node is destroyed or its parameters change). */
static void get_fixup(const fake_node *node, void *out)
{
    if (node->pl.p.type != CU_GRAPH_NODE_TYPE_KERNEL)
        return;
    const CUDA_KERNEL_NODE_PARAMS_v3 *k = &node->pl.p.kernel;
    CUDA_KERNEL_NODE_PARAMS_v2 *p = out;
    p->kernelParams = node->pl.arg_ptrs;
    p->extra = NULL;
    if (k->func == NULL && k->kern != NULL && k->ctx != NULL) {
        /* Seen on the H200: a node given a CUkernel (and its ctx) reads back with func, the
         * CUkernel's CUfunction in that context. */
        fake_kernel *kernel = lookup_kernel(k->kern);
        CUfunction fn = kernel ? function_in_context((CUfunction)&kernel->functions[0], k->ctx)
                               : NULL;
        if (fn != NULL)
            p->func = fn;
    }
    if (node->pl.via_extra) {
        /* Given through `extra`, answered through `extra`: one packed buffer, owned by the
         * node like the driver's. */
        fake_payload *pl = (fake_payload *)&node->pl;
        pl->extra_size = pl->kernel->total_bytes;
        pl->extra_form[0] = CU_LAUNCH_PARAM_BUFFER_POINTER;
        pl->extra_form[1] = pl->arg_bytes;
        pl->extra_form[2] = CU_LAUNCH_PARAM_BUFFER_SIZE;
        pl->extra_form[3] = &pl->extra_size;
        pl->extra_form[4] = CU_LAUNCH_PARAM_END;
        p->kernelParams = NULL;
        p->extra = pl->extra_form;
    }
}

static CUresult impl_cuGraphMemsetNodeGetParams(CUgraphNode n, CUDA_MEMSET_NODE_PARAMS_v1 *p)
{
    const fake_node *node = lookup_typed(n, CU_GRAPH_NODE_TYPE_MEMSET);
    if (!node || !p)
        return CUDA_ERROR_INVALID_VALUE;
    const CUDA_MEMSET_NODE_PARAMS_v2 *m = &node->pl.p.memset;
    memset(p, 0, sizeof *p);
    p->dst = m->dst;
    p->pitch = m->pitch;
    p->value = m->value;
    p->elementSize = m->elementSize;
    p->width = m->width;
    p->height = m->height;
    return CUDA_SUCCESS;
}

/* Typed adders and getters whose params struct is a prefix of the CUgraphNodeParams member
 * (the rows generated from the specs' cuda.add and cuda.get): the adder copies it in and adds
 * through the generic path, the getter copies the node's out (its own arrays included, as the
 * driver answers with its own), then get_fixup. */
#define FAKE_TYPED_ENTRIES(add, get, type, member, T, G)                                           \
    static CUresult impl_##add(CUgraphNode *n, CUgraph g, const CUgraphNode *d, size_t nd,         \
                               const T *in) {                                                      \
        if (!in)                                                                                   \
            return CUDA_ERROR_INVALID_VALUE;                                                       \
        CUgraphNodeParams p = params_of_type(type);                                                \
        memcpy(&p.member, in, sizeof *in);                                                         \
        return add_node(n, g, d, nd, &p);                                                          \
    }                                                                                              \
    static CUresult impl_##get(CUgraphNode n, G *out) {                                            \
        const fake_node *node = lookup_typed(n, type);                                             \
        if (!node || !out)                                                                         \
            return CUDA_ERROR_INVALID_VALUE;                                                       \
        memcpy(out, &node->pl.p.member, sizeof *out);                                              \
        get_fixup(node, out);                                                                      \
        return CUDA_SUCCESS;                                                                       \
    }
CGN_FAKE_TYPED_ENTRIES(FAKE_TYPED_ENTRIES)

static CUresult impl_cuGraphEventRecordNodeGetEvent(CUgraphNode n, CUevent *e)
{
    const fake_node *node = lookup_typed(n, CU_GRAPH_NODE_TYPE_EVENT_RECORD);
    if (!node || !e)
        return CUDA_ERROR_INVALID_VALUE;
    *e = node->pl.p.eventRecord.event;
    return CUDA_SUCCESS;
}

static CUresult impl_cuGraphEventWaitNodeGetEvent(CUgraphNode n, CUevent *e)
{
    const fake_node *node = lookup_typed(n, CU_GRAPH_NODE_TYPE_WAIT_EVENT);
    if (!node || !e)
        return CUDA_ERROR_INVALID_VALUE;
    *e = node->pl.p.eventWait.event;
    return CUDA_SUCCESS;
}

static CUresult impl_cuGraphChildGraphNodeGetGraph(CUgraphNode n, CUgraph *g)
{
    const fake_node *node = lookup_node(n);
    if (!g || !node || !node->pl.child)
        return CUDA_ERROR_INVALID_VALUE;
    *g = (CUgraph)node->pl.child;
    return CUDA_SUCCESS;
}

static CUresult impl_cuGraphMemcpyNodeGetParams(CUgraphNode n, CUDA_MEMCPY3D *p)
{
    const fake_node *node = lookup_typed(n, CU_GRAPH_NODE_TYPE_MEMCPY);
    if (!p || !node)
        return CUDA_ERROR_INVALID_VALUE;
    *p = node->pl.p.memcpy.copyParams;
    return CUDA_SUCCESS;
}

/* ---- entry points: adding and destroying nodes ----------------------------------------------- */

static CUresult impl_cuGraphAddEmptyNode(CUgraphNode *n, CUgraph g, const CUgraphNode *d,
                                         size_t nd)
{
    CUgraphNodeParams p = params_of_type(CU_GRAPH_NODE_TYPE_EMPTY);
    return add_node(n, g, d, nd, &p);
}

/* The generic adder: every node type the fake models, memory allocation and free included;
 * an allocation node's address comes back in p->alloc.dptr. */
static CUresult impl_cuGraphAddNode(CUgraphNode *n, CUgraph g, const CUgraphNode *d, size_t nd,
                                    CUgraphNodeParams *p)
{
    if (!p)
        return CUDA_ERROR_INVALID_VALUE;
    CUresult r = add_node(n, g, d, nd, p);
    if (r == CUDA_SUCCESS && p->type == CU_GRAPH_NODE_TYPE_MEM_ALLOC)
        p->alloc.dptr = ((const fake_node *)*n)->pl.p.alloc.dptr;
    if (r == CUDA_SUCCESS && p->type == CU_GRAPH_NODE_TYPE_CONDITIONAL) {
        fake_node *node = (fake_node *)*n; /* the array lives as long as the node */
        unsigned int i = 0;
        FOR_EMBEDDED(body, &node->pl)
            node->pl.bodies[i++] = (CUgraph)body;
        node->pl.p.conditional.phGraph_out = node->pl.bodies;
        p->conditional.phGraph_out = node->pl.bodies;
    }
    return r;
}

static CUresult impl_cuGraphConditionalHandleCreate(CUgraphConditionalHandle *h, CUgraph g,
                                                    CUcontext c, unsigned int v, unsigned int f)
{
    const fake_graph *graph = lookup_graph(g);
    if (!h || !graph || graph->snapshot || !context_valid(c) ||
        (f & ~(unsigned int)CU_GRAPH_COND_ASSIGN_DEFAULT))
        return CUDA_ERROR_INVALID_VALUE;
    fake_cond *cond = calloc(1, sizeof *cond);
    if (!cond)
        return CUDA_ERROR_OUT_OF_MEMORY;
    if (!reg_add(cond, KIND_COND)) {
        free(cond);
        return CUDA_ERROR_OUT_OF_MEMORY;
    }
    cond->default_value = v;
    cond->flags = f;
    cond->value = (f & CU_GRAPH_COND_ASSIGN_DEFAULT) ? v : 0;
    cond->ctx = c;
    S.conds_created++;
    *h = (CUgraphConditionalHandle)(uintptr_t)cond;
    return CUDA_SUCCESS;
}

static CUresult impl_cuGraphAddMemsetNode(CUgraphNode *n, CUgraph g, const CUgraphNode *d,
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

static CUresult impl_cuGraphAddMemcpyNode(CUgraphNode *n, CUgraph g, const CUgraphNode *d,
                                          size_t nd, const CUDA_MEMCPY3D_v2 *m, CUcontext c)
{
    if (!m)
        return CUDA_ERROR_INVALID_VALUE;
    CUgraphNodeParams p = params_of_type(CU_GRAPH_NODE_TYPE_MEMCPY);
    p.memcpy.copyCtx = c;
    p.memcpy.copyParams = *m;
    return add_node(n, g, d, nd, &p);
}

static CUresult impl_cuGraphAddChildGraphNode(CUgraphNode *n, CUgraph g, const CUgraphNode *d,
                                              size_t nd, CUgraph child)
{
    CUgraphNodeParams p = params_of_type(CU_GRAPH_NODE_TYPE_GRAPH);
    p.graph.graph = child;
    p.graph.ownership = CU_GRAPH_CHILD_GRAPH_OWNERSHIP_CLONE;
    return add_node(n, g, d, nd, &p);
}

static CUresult impl_cuGraphAddEventRecordNode(CUgraphNode *n, CUgraph g, const CUgraphNode *d,
                                               size_t nd, CUevent e)
{
    CUgraphNodeParams p = params_of_type(CU_GRAPH_NODE_TYPE_EVENT_RECORD);
    p.eventRecord.event = e;
    return add_node(n, g, d, nd, &p);
}

static CUresult impl_cuGraphAddEventWaitNode(CUgraphNode *n, CUgraph g, const CUgraphNode *d,
                                             size_t nd, CUevent e)
{
    CUgraphNodeParams p = params_of_type(CU_GRAPH_NODE_TYPE_WAIT_EVENT);
    p.eventWait.event = e;
    return add_node(n, g, d, nd, &p);
}

static CUresult impl_cuGraphAddMemAllocNode(CUgraphNode *n, CUgraph g, const CUgraphNode *d,
                                            size_t nd, CUDA_MEM_ALLOC_NODE_PARAMS_v1 *a)
{
    if (!a)
        return CUDA_ERROR_INVALID_VALUE;
    /* Pinned device memory of the one fake device, without IPC handles or peer access. */
    if (a->poolProps.allocType != CU_MEM_ALLOCATION_TYPE_PINNED ||
        a->poolProps.location.type != CU_MEM_LOCATION_TYPE_DEVICE ||
        a->poolProps.location.id != 0 || a->poolProps.handleTypes != CU_MEM_HANDLE_TYPE_NONE ||
        a->accessDescCount != 0)
        return CUDA_ERROR_INVALID_VALUE;
    CUgraphNodeParams p = params_of_type(CU_GRAPH_NODE_TYPE_MEM_ALLOC);
    memcpy(&p.alloc, a, sizeof *a);
    CUresult r = add_node(n, g, d, nd, &p);
    if (r == CUDA_SUCCESS) /* "returns the address of the allocation in nodeParams.dptr" */
        a->dptr = ((const fake_node *)*n)->pl.p.alloc.dptr;
    return r;
}

static CUresult impl_cuGraphMemAllocNodeGetParams(CUgraphNode n, CUDA_MEM_ALLOC_NODE_PARAMS_v1 *a)
{
    const fake_node *node = lookup_typed(n, CU_GRAPH_NODE_TYPE_MEM_ALLOC);
    if (!a || !node)
        return CUDA_ERROR_INVALID_VALUE;
    memset(a, 0, sizeof *a);
    a->poolProps = node->pl.p.alloc.poolProps;
    a->bytesize = node->pl.p.alloc.bytesize;
    a->dptr = node->pl.p.alloc.dptr;
    return CUDA_SUCCESS;
}

static CUresult impl_cuGraphAddMemFreeNode(CUgraphNode *n, CUgraph g, const CUgraphNode *d,
                                           size_t nd, CUdeviceptr dptr)
{
    CUgraphNodeParams p = params_of_type(CU_GRAPH_NODE_TYPE_MEM_FREE);
    p.free.dptr = dptr;
    return add_node(n, g, d, nd, &p);
}

static CUresult impl_cuGraphMemFreeNodeGetParams(CUgraphNode n, CUdeviceptr *dptr)
{
    const fake_node *node = lookup_typed(n, CU_GRAPH_NODE_TYPE_MEM_FREE);
    if (!dptr || !node)
        return CUDA_ERROR_INVALID_VALUE;
    *dptr = node->pl.p.free.dptr;
    return CUDA_SUCCESS;
}

static CUresult impl_cuGraphDestroyNode(CUgraphNode n)
{
    fake_node *node = lookup_node(n);
    if (!node)
        return CUDA_ERROR_INVALID_VALUE;
    /* "Nodes and edges of the graph cannot be deleted" once it holds memory nodes. */
    if (graph_has_mem_nodes(node->graph))
        return CUDA_ERROR_NOT_SUPPORTED;
    graph_unlink(node->graph, node);
    node_free(node);
    return CUDA_SUCCESS;
}

/* ---- entry points: updating node parameters -------------------------------------------------- */

/* "Modifying parameters is not supported for node types CU_GRAPH_NODE_TYPE_MEM_ALLOC and
 * CU_GRAPH_NODE_TYPE_MEM_FREE." */
static int params_settable(CUgraphNodeType type)
{
    return type != CU_GRAPH_NODE_TYPE_MEM_ALLOC && type != CU_GRAPH_NODE_TYPE_MEM_FREE &&
           type != CU_GRAPH_NODE_TYPE_CONDITIONAL; /* "changing node parameters is not
                                                      supported" */
}

static CUresult impl_cuGraphNodeSetParams(CUgraphNode n, CUgraphNodeParams *p)
{
    fake_node *node = lookup_node(n);
    if (!p || !node || p->type != node->pl.p.type)
        return CUDA_ERROR_INVALID_VALUE;
    if (!params_settable(p->type))
        return CUDA_ERROR_NOT_SUPPORTED;
    if (crash_prone(FAKE_CALL_SET_PARAMS, &node->pl, p))
        return crash_refused();
    fake_payload pl;
    CUresult r = payload_build(p, 0, &pl);
    if (r != CUDA_SUCCESS)
        return r;
    node_replace_payload(node, &pl);
    return CUDA_SUCCESS;
}

/* The executable's copy of a definition node: matched by id, so a node destroyed and another
 * allocated at the same address can never alias. Only nodes of the graph the executable was
 * instantiated from pair, even after cuGraphExecUpdate. */
/* The snapshot node paired with a definition node: nodes inside child graphs are addressed
 * through the embedded graph's node handles, as on the real driver. */
static fake_node *snapshot_node(const fake_graph *g, const fake_node *def)
{
    for (size_t i = 0; i < g->num_nodes; i++) {
        fake_node *n = g->nodes[i];
        if (n->orig_id == def->id)
            return n;
        FOR_EMBEDDED(body, &n->pl) {
            fake_node *inner = snapshot_node(body, def);
            if (inner != NULL)
                return inner;
        }
    }
    return NULL;
}

static fake_node *exec_node(const fake_exec *e, const fake_node *def)
{
    return snapshot_node(e->snapshot, def);
}

static fake_node *exec_pair(CUgraphExec e, CUgraphNode n, fake_exec **exec_out)
{
    fake_exec *exec = lookup_exec(e);
    const fake_node *def = lookup_node(n);
    if (exec_out)
        *exec_out = exec;
    return (exec && def) ? exec_node(exec, def) : NULL;
}

/* An executable-level child-graph update keeps the executable's nodes inside paired with the
 * definition's embedded copies, as the real driver does (test_child_graph_gpu on the H200:
 * an executable-level update of such a node after the replacement reaches the executable): the
 * new snapshot takes the old one's pairing node by node (update_rule made sure the topology is
 * the same). */
static void carry_pairing(const fake_graph *from, fake_graph *to) {
    for (size_t i = 0; i < from->num_nodes && i < to->num_nodes; i++) {
        to->nodes[i]->orig_id = from->nodes[i]->orig_id;
        if (from->nodes[i]->pl.child && to->nodes[i]->pl.child)
            carry_pairing(from->nodes[i]->pl.child, to->nodes[i]->pl.child);
    }
}

static CUresult impl_cuGraphExecNodeSetParams(CUgraphExec e, CUgraphNode n, CUgraphNodeParams *p)
{
    fake_exec *exec = NULL;
    fake_node *node = exec_pair(e, n, &exec);
    if (!p || !node || p->type != node->pl.p.type)
        return CUDA_ERROR_INVALID_VALUE;
    if (!params_settable(p->type))
        return CUDA_ERROR_NOT_SUPPORTED;
    if (exec->running)
        return CUDA_ERROR_NOT_PERMITTED; /* from a callback of its own launch */
    if (crash_prone(FAKE_CALL_EXEC_SET_PARAMS, &node->pl, p))
        return crash_refused();
    fake_payload pl;
    CUresult r = payload_build(p, 1, &pl);
    if (r != CUDA_SUCCESS)
        return r;
    CUgraphExecUpdateResultInfo info;
    if (update_rule(&node->pl, &pl, NULL, &info) != CU_GRAPH_EXEC_UPDATE_SUCCESS) {
        r = CUDA_ERROR_INVALID_VALUE;
    } else {
        if (node->pl.child && pl.child)
            carry_pairing(node->pl.child, pl.child);
        r = exec_install_payload(exec, node, &pl);
    }
    if (r != CUDA_SUCCESS)
        payload_free(&pl);
    return r;
}

/* The typed setters the specs name (cuda.set, cuda.exec_set; rows generated in
 * cgn_fake_nodes.h): the struct or value given goes where CUgraphNodeParams has it (and the
 * context argument to its member), then the generic setter of that level runs, so both paths
 * share every check and effect. */
static CUresult typed_set(int exec_level, CUgraphExec e, CUgraphNode n, CUgraphNodeType type,
                          size_t at, const void *in, size_t size, size_t ctx_at, CUcontext ctx)
{
    if (!in || (exec_level && !e))
        return CUDA_ERROR_INVALID_VALUE;
    CUgraphNodeParams p = params_of_type(type);
    memcpy((char *)&p + at, in, size);
    if (ctx_at != 0)
        memcpy((char *)&p + ctx_at, &ctx, sizeof ctx);
    return exec_level ? impl_cuGraphExecNodeSetParams(e, n, &p) : impl_cuGraphNodeSetParams(n, &p);
}

#define FAKE_TYPED_SETTER(entry, params, exec_level, exec, type, at, src, size, ctx_at, ctx)    \
    static CUresult impl_##entry params                                                        \
    {                                                                                          \
        return typed_set(exec_level, exec, n, type, at, src, size, ctx_at, ctx);               \
    }
CGN_FAKE_TYPED_SETTERS(FAKE_TYPED_SETTER)

/* Only kernel, memset and memcpy nodes can be disabled (the driver's current limit). */
static fake_node *enable_target(CUgraphExec e, CUgraphNode n)
{
    fake_node *node = exec_pair(e, n, NULL);
    if (!node)
        return NULL;
    CUgraphNodeType t = node->pl.p.type;
    int supported = t == CU_GRAPH_NODE_TYPE_KERNEL || t == CU_GRAPH_NODE_TYPE_MEMSET ||
                    t == CU_GRAPH_NODE_TYPE_MEMCPY;
    return supported ? node : NULL;
}

static CUresult impl_cuGraphNodeSetEnabled(CUgraphExec e, CUgraphNode n, unsigned int on)
{
    fake_node *node = enable_target(e, n);
    if (!node)
        return CUDA_ERROR_INVALID_VALUE;
    node->disabled = !on;
    return CUDA_SUCCESS;
}

static CUresult impl_cuGraphNodeGetEnabled(CUgraphExec e, CUgraphNode n, unsigned int *on)
{
    const fake_node *node = enable_target(e, n);
    if (!node || !on)
        return CUDA_ERROR_INVALID_VALUE;
    *on = !node->disabled;
    return CUDA_SUCCESS;
}

/* ---- entry points: executables --------------------------------------------------------------- */

static CUresult impl_cuGraphInstantiateWithFlags(CUgraphExec *e, CUgraph g,
                                                 unsigned long long flags)
{
    const fake_graph *graph = lookup_graph(g);
    if (!e || !graph)
        return CUDA_ERROR_INVALID_VALUE;
    /* "Only one instantiation of the graph may exist at any point in time" once it holds
     * memory nodes (cuGraphAddMemAllocNode) or conditional nodes (CUgraphNodeType's doc). */
    if (graph_has_mem_nodes(graph) || graph_has_conditional(graph))
        for (size_t i = 0; i < S.cap; i++)
            if (S.slots[i].key && S.slots[i].kind == KIND_EXEC &&
                !((const fake_exec *)S.slots[i].key)->destroyed &&
                ((const fake_exec *)S.slots[i].key)->source_id == graph->id)
                return CUDA_ERROR_INVALID_VALUE;
    fake_exec *exec = calloc(1, sizeof *exec);
    if (!exec || !reg_add(exec, KIND_EXEC)) {
        free(exec);
        return CUDA_ERROR_OUT_OF_MEMORY;
    }
    CUresult r = CUDA_SUCCESS;
    exec->snapshot = graph_clone(graph, 1, 1, &r);
    if (!exec->snapshot) {
        reg_remove(exec);
        free(exec);
        return r;
    }
    exec->source_id = graph->id;
    exec->flags = flags;
    *e = (CUgraphExec)exec;
    return CUDA_SUCCESS;
}

/* In flight, the executable is freed asynchronously on completion, as the driver documents:
 * its handle is invalid at once, its references go with its last launch. */
static CUresult impl_cuGraphExecDestroy(CUgraphExec e)
{
    fake_exec *exec = lookup_exec(e);
    if (!exec)
        return CUDA_ERROR_INVALID_VALUE;
    if (exec->in_flight || exec->running)
        exec->destroyed = 1;
    else
        exec_free(exec);
    return CUDA_SUCCESS;
}

static CUresult impl_cuGraphExecUpdate(CUgraphExec e, CUgraph g, CUgraphExecUpdateResultInfo *info)
{
    fake_exec *exec = lookup_exec(e);
    const fake_graph *graph = lookup_graph(g);
    if (!info)
        return CUDA_ERROR_INVALID_VALUE;
    update_fail(info, CU_GRAPH_EXEC_UPDATE_ERROR, NULL, NULL);
    if (!exec || !graph)
        return CUDA_ERROR_INVALID_VALUE;
    if (exec->running)
        return CUDA_ERROR_NOT_PERMITTED; /* from a callback of its own launch */
    if (graph_compare(exec->snapshot, graph, NULL, info) != CU_GRAPH_EXEC_UPDATE_SUCCESS)
        return CUDA_ERROR_GRAPH_EXEC_UPDATE_FAILURE;
    CUresult r = exec_update_apply(exec, graph);
    if (r != CUDA_SUCCESS)
        update_fail(info, CU_GRAPH_EXEC_UPDATE_ERROR, NULL, NULL);
    return r;
}

/* The nodes run at once, with the parameters of this moment. The launch completes at once too,
 * unless completion is held or earlier launches are still in flight (it cannot overtake
 * them): then it joins the queue. */
static CUresult impl_cuGraphLaunch(CUgraphExec e, CUstream s)
{
    fake_exec *exec = lookup_exec(e);
    if (!exec)
        return CUDA_ERROR_INVALID_VALUE;
    /* cuGraphLaunch: "If any allocations created by hGraphExec remain unfreed (from a previous
     * launch) and hGraphExec was not instantiated with
     * CUDA_GRAPH_INSTANTIATE_FLAG_AUTO_FREE_ON_LAUNCH, the launch will fail with
     * CUDA_ERROR_INVALID_VALUE." With the flag, the launch frees them first. */
    size_t allocs = 0;
    for (size_t i = 0; i < exec->snapshot->num_nodes; i++)
        allocs += exec->snapshot->nodes[i]->pl.p.type == CU_GRAPH_NODE_TYPE_MEM_ALLOC;
    for (size_t i = S.num_unfreed; i-- > 0;)
        if (S.unfreed[i].exec == exec) {
            if (!(exec->flags & CUDA_GRAPH_INSTANTIATE_FLAG_AUTO_FREE_ON_LAUNCH))
                return CUDA_ERROR_INVALID_VALUE;
            S.unfreed[i] = S.unfreed[--S.num_unfreed];
        }
    if (S.num_unfreed + allocs > S.cap_unfreed) {
        size_t cap = (S.num_unfreed + allocs) * 2;
        fake_unfreed *u = realloc(S.unfreed, cap * sizeof *u);
        if (!u)
            return CUDA_ERROR_OUT_OF_MEMORY;
        S.unfreed = u;
        S.cap_unfreed = cap;
    }
    int queued = S.hold || S.num_launches > 0;
    if (queued && !launch_reserve())
        return CUDA_ERROR_OUT_OF_MEMORY;
    uint64_t seq = ++S.next_seq;
    if (queued) {
        fake_launch *l = &S.launches[S.num_launches++];
        memset(l, 0, sizeof *l);
        l->seq = seq;
        l->exec = exec;
        l->stream = s;
        exec->in_flight++;
    }
    exec->launches++;
    exec->running++;
    const fake_exec *outer = S.running_exec; /* a host node may launch another graph */
    S.running_exec = exec;
    assign_defaults(exec->snapshot);
    run_graph(exec->snapshot, seq);
    S.running_exec = outer;
    exec->running--;
    if (!queued && seq > S.completed_seq)
        S.completed_seq = seq;
    if (exec->destroyed && !exec->in_flight && !exec->running)
        exec_free(exec); /* a host node destroyed it while it ran */
    return CUDA_SUCCESS;
}

/* cuGraphUpload: the fake has no device to upload to; it checks the executable. */
static CUresult impl_cuGraphUpload(CUgraphExec e, CUstream s)
{
    (void)s;
    return lookup_exec(e) ? CUDA_SUCCESS : CUDA_ERROR_INVALID_VALUE;
}

/* cuGraphExecGetFlags (12.0): what cuGraphInstantiateWithFlags was given. */
static CUresult impl_cuGraphExecGetFlags(CUgraphExec e, cuuint64_t *flags)
{
    const fake_exec *exec = lookup_exec(e);
    if (!exec || !flags)
        return CUDA_ERROR_INVALID_VALUE;
    *flags = exec->flags;
    return CUDA_SUCCESS;
}

/* ---- entry points: user objects -------------------------------------------------------------- */

static CUresult impl_cuUserObjectCreate(CUuserObject *o, void *ptr, CUhostFn destroy,
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
static CUresult impl_cuUserObjectRelease(CUuserObject o, unsigned int n)
{
    fake_uobj *obj = lookup_uobj(o);
    if (!obj || n == 0 || n > obj->total - obj->graph_refs)
        return CUDA_ERROR_INVALID_VALUE;
    uobj_drop(obj, n);
    return CUDA_SUCCESS;
}

static CUresult impl_cuGraphRetainUserObject(CUgraph g, CUuserObject o, unsigned int n,
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

static CUresult impl_cuGraphReleaseUserObject(CUgraph g, CUuserObject o, unsigned int n)
{
    fake_graph *graph = lookup_graph(g);
    fake_uobj *obj = lookup_uobj(o);
    fake_ref *ref = (graph && obj) ? graph_find_ref(graph, obj) : NULL;
    if (!ref || n == 0 || n > ref->count)
        return CUDA_ERROR_INVALID_VALUE;
    ref->count -= n;
    if (ref->count == 0)
        *ref = graph->refs.items[--graph->refs.num];
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

static CUresult impl_cuKernelGetParamInfo(CUkernel k, size_t i, size_t *off, size_t *size)
{
    return param_info(lookup_kernel(k), i, off, size);
}

static CUresult impl_cuFuncGetParamInfo(CUfunction f, size_t i, size_t *off, size_t *size)
{
    return param_info(lookup_function(f), i, off, size);
}

/* The kernel's CUfunction in the current context (registered on first use). */
static CUresult impl_cuKernelGetFunction(CUfunction *f, CUkernel k)
{
    fake_kernel *kernel = lookup_kernel(k);
    if (!f || !kernel)
        return CUDA_ERROR_INVALID_VALUE;
    CUcontext ctx = current_ctx();
    if (!ctx)
        return CUDA_ERROR_INVALID_CONTEXT;
    CUfunction fn = function_in_context((CUfunction)&kernel->functions[0], ctx);
    if (!fn)
        return CUDA_ERROR_OUT_OF_MEMORY;
    *f = fn;
    return CUDA_SUCCESS;
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

static CUresult impl_cuKernelGetName(const char **name, CUkernel k)
{
    return kernel_name(lookup_kernel(k), name);
}

static CUresult impl_cuFuncGetName(const char **name, CUfunction f)
{
    return kernel_name(lookup_function(f), name);
}

/* ---- the table: every entry holds the lock around its impl_ ---------------------------------- */

#define FAKE_LOCKED_ENTRY(name, abi, need, params, args)                                          \
    static CUresult fake_##name params                                                             \
    {                                                                                              \
        fake_lock();                                                                               \
        CUresult r_ = impl_##name args;                                                            \
        fake_unlock();                                                                             \
        return r_;                                                                                 \
    }
CGN_DRIVER_ENTRIES(FAKE_LOCKED_ENTRY)
#undef FAKE_LOCKED_ENTRY

/* Writes only the fields that change, so a reset or a repeated cgn_fake_table() never writes
 * to what other threads may be reading. An old driver has no entry point newer than itself:
 * cgn must gate on NULL entries. */
static void table_sync(void)
{
    if (TABLE.version != S.version)
        TABLE.version = S.version;
#define FAKE_SET_ENTRY(name, abi, need, params, args)                                             \
    {                                                                                              \
        CUresult(*want_) params = ((abi) <= S.version) ? fake_##name : NULL;                       \
        if (TABLE.name != want_)                                                                   \
            TABLE.name = want_;                                                                    \
    }
    CGN_DRIVER_ENTRIES(FAKE_SET_ENTRY)
#undef FAKE_SET_ENTRY
}

/* ---- test API: table, version, reset --------------------------------------------------------- */

const cgn_driver_table *cgn_fake_table(void)
{
    fake_lock();
    table_sync();
    fake_unlock();
    return &TABLE;
}

void cgn_fake_set_version(int version)
{
    fake_lock();
    S.version = version;
    table_sync(); /* keep an installed table consistent with the version */
    fake_unlock();
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
        free(g->refs.items);
        free(g);
        break;
    }
    case KIND_KERN: /* one per kernel; its CUfunction handles live inside it */
        kernel_free(((fake_khandle *)key)->kernel);
        break;
    case KIND_EXEC:  /* its snapshot graph has its own entry; destroyed-in-flight ones too */
    case KIND_UOBJ:  /* pending destructors are dropped on purpose */
    case KIND_EVENT:
    case KIND_ARRAY:
    case KIND_COND:
    case KIND_EXTSEM:
        free(key);
        break;
    default: /* nodes are freed with their graph, CUfunction handles with their kernel */
        break;
    }
}

void cgn_fake_reset(void)
{
    fake_lock();
    for (size_t i = 0; i < S.cap; i++)
        if (S.slots[i].key)
            free_for_reset(S.slots[i].key, S.slots[i].kind);
    for (size_t i = 0; i < S.num_launches; i++)
        free(S.launches[i].held.items); /* the objects they name are freed above */
    free(S.launches);
    free(S.slots);
    free(S.ranges);
    free(S.unfreed);
    uint64_t epoch = S.epoch;
    memset(&S, 0, sizeof S);
    S.version = FAKE_DEFAULT_VERSION;
    S.epoch = epoch + 1; /* every thread's context stack is set up again */
    S.next_id = 1;
    fake_thread *t = thread_ctx(); /* the caller: context 0 current */
    t->stack[t->depth++] = (CUcontext)&S.contexts[0];
    table_sync(); /* a table installed before the reset must stay usable */
    fake_unlock();
}

void cgn_fake_set_conditional(CUgraphConditionalHandle handle, unsigned int value)
{
    fake_lock();
    fake_cond *c = lookup_cond(handle);
    if (c)
        c->value = value;
    fake_unlock();
}

size_t cgn_fake_conditional_handles(void)
{
    FAKE_LOCKED_RETURN(size_t, S.conds_created);
}

size_t cgn_fake_runaway_loops(void)
{
    FAKE_LOCKED_RETURN(size_t, S.runaway_loops);
}

size_t cgn_fake_live_objects(void)
{
    FAKE_LOCKED_RETURN(size_t, reg_count(KIND_GRAPH) + reg_count(KIND_EXEC) +
                                   reg_count(KIND_UOBJ));
}

size_t cgn_fake_live_events(void)
{
    FAKE_LOCKED_RETURN(size_t, reg_count(KIND_EVENT));
}

/* ---- test API: contexts ---------------------------------------------------------------------- */

CUcontext cgn_fake_context(int i)
{
    return (i >= 0 && i < FAKE_NUM_CONTEXTS) ? (CUcontext)&S.contexts[i] : NULL;
}

void cgn_fake_set_current_context(CUcontext ctx)
{
    fake_lock();
    fake_thread *t = thread_ctx();
    if (!ctx)
        t->depth = 0;
    else if (t->depth)
        t->stack[t->depth - 1] = ctx;
    else
        t->stack[t->depth++] = ctx;
    fake_unlock();
}

void cgn_fake_set_thread_start_context(CUcontext ctx)
{
    fake_lock();
    S.thread_start_ctx = ctx;
    fake_unlock();
}

CUcontext cgn_fake_node_context(CUgraphNode node)
{
    fake_lock();
    const fake_node *n = lookup_node(node);
    CUcontext ctx = n ? n->pl.ctx : NULL;
    fake_unlock();
    return ctx;
}

/* ---- test API: kernels, events, memory ------------------------------------------------------- */

static CUfunction register_kernel(const char *name, size_t num_params, const size_t *param_sizes,
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
    k->kernel.kernel = k;
    k->functions[0].kernel = k;
    k->functions[0].ctx = (CUcontext)&S.contexts[0];
    k->name = malloc(strlen(text) + 1);
    if (!k->name || !kernel_layout(k, param_sizes) || !reg_add(&k->kernel, KIND_KERN)) {
        kernel_free(k);
        return NULL;
    }
    if (!reg_add(&k->functions[0], KIND_FUNC)) {
        reg_remove(&k->kernel);
        kernel_free(k);
        return NULL;
    }
    strcpy(k->name, text);
    return (CUfunction)&k->functions[0];
}

CUfunction cgn_fake_register_kernel(const char *name, size_t num_params, const size_t *param_sizes,
                                    cgn_fake_kernel_fn run, void *user)
{
    FAKE_LOCKED_RETURN(CUfunction, register_kernel(name, num_params, param_sizes, run, user));
}

static CUfunction function_in_context(CUfunction f, CUcontext ctx)
{
    fake_kernel *k = lookup_function(f);
    int i = context_index(ctx);
    if (!k || i < 0)
        return NULL;
    fake_khandle *h = &k->functions[i];
    if (reg_kind(h) != KIND_FUNC) {
        h->kernel = k;
        h->ctx = ctx;
        if (!reg_add(h, KIND_FUNC))
            return NULL;
    }
    return (CUfunction)h;
}

CUfunction cgn_fake_function_in_context(CUfunction f, CUcontext ctx)
{
    FAKE_LOCKED_RETURN(CUfunction, function_in_context(f, ctx));
}

static CUcontext function_context(CUfunction f)
{
    const fake_khandle *h = lookup_fhandle(f);
    return h ? h->ctx : NULL;
}

CUcontext cgn_fake_function_context(CUfunction f)
{
    FAKE_LOCKED_RETURN(CUcontext, function_context(f));
}

static CUkernel kernel_of(CUfunction function)
{
    fake_kernel *k = lookup_function(function);
    return k ? (CUkernel)&k->kernel : NULL;
}

CUkernel cgn_fake_kernel_of(CUfunction function)
{
    FAKE_LOCKED_RETURN(CUkernel, kernel_of(function));
}

CUevent cgn_fake_event_create(void)
{
    CUevent e = NULL;
    fake_lock();
    if (impl_cuEventCreate(&e, 0) != CUDA_SUCCESS)
        e = NULL;
    fake_unlock();
    return e;
}

static int event_record_count(CUevent event)
{
    const fake_event *e = lookup_event(event);
    return e ? e->records : -1;
}

int cgn_fake_event_record_count(CUevent event)
{
    FAKE_LOCKED_RETURN(int, event_record_count(event));
}

void cgn_fake_mark_device_memory(void *p, size_t size)
{
    cgn_fake_mark_memory(p, size, CU_MEMORYTYPE_DEVICE);
}

void cgn_fake_mark_memory(void *p, size_t size, CUmemorytype type)
{
    fake_lock();
    if (S.num_ranges == S.cap_ranges) {
        size_t cap = S.cap_ranges ? S.cap_ranges * 2 : 8;
        fake_range *ranges = realloc(S.ranges, cap * sizeof *ranges);
        if (!ranges) {
            fake_unlock();
            return; /* the address keeps reporting host memory; tests will notice */
        }
        S.ranges = ranges;
        S.cap_ranges = cap;
    }
    S.ranges[S.num_ranges].begin = (uintptr_t)p;
    S.ranges[S.num_ranges].end = (uintptr_t)p + (size ? size : 1);
    S.ranges[S.num_ranges].type = (unsigned int)type;
    S.num_ranges++;
    fake_unlock();
}

/* ---- test API: completion -------------------------------------------------------------------- */

void cgn_fake_hold_completion(int on)
{
    fake_lock();
    S.hold = on != 0;
    fake_unlock();
}

size_t cgn_fake_complete_pending(void)
{
    FAKE_LOCKED_RETURN(size_t, complete_launches(SIZE_MAX));
}

size_t cgn_fake_complete_launches(size_t max)
{
    FAKE_LOCKED_RETURN(size_t, complete_launches(max));
}

static size_t in_flight(CUgraphExec exec)
{
    if (!exec)
        return S.num_launches;
    /* Destroyed executables count too: they live until their launches complete. */
    return reg_kind(exec) == KIND_EXEC ? ((const fake_exec *)exec)->in_flight : 0;
}

size_t cgn_fake_in_flight(CUgraphExec exec)
{
    FAKE_LOCKED_RETURN(size_t, in_flight(exec));
}

void cgn_fake_set_exec_update_refs(int mode)
{
    fake_lock();
    S.exec_update_refs = mode == CGN_FAKE_EXEC_UPDATE_REFS_DROP ? CGN_FAKE_EXEC_UPDATE_REFS_DROP
                                                                : CGN_FAKE_EXEC_UPDATE_REFS_COPY;
    fake_unlock();
}

size_t cgn_fake_crash_prone_calls(void)
{
    FAKE_LOCKED_RETURN(size_t, S.crash_prone);
}

size_t cgn_fake_unsatisfied_waits(void)
{
    FAKE_LOCKED_RETURN(size_t, S.unsatisfied_waits);
}

/* ---- test API: inspection -------------------------------------------------------------------- */

static int node_params(CUgraphNode node, CUgraphNodeParams *out)
{
    const fake_node *n = lookup_node(node);
    if (!n || !out)
        return 0;
    *out = n->pl.p;
    return 1;
}

int cgn_fake_node_params(CUgraphNode node, CUgraphNodeParams *out)
{
    FAKE_LOCKED_RETURN(int, node_params(node, out));
}

static int exec_node_params(CUgraphExec exec, CUgraphNode node, CUgraphNodeParams *out)
{
    const fake_node *n = exec_pair(exec, node, NULL);
    if (!n || !out)
        return 0;
    *out = n->pl.p;
    return 1;
}

int cgn_fake_exec_node_params(CUgraphExec exec, CUgraphNode node, CUgraphNodeParams *out)
{
    FAKE_LOCKED_RETURN(int, exec_node_params(exec, node, out));
}

static size_t graph_tree_event_waits(const fake_graph *g, CUevent event)
{
    size_t waits = 0;
    for (size_t i = 0; i < g->num_nodes; i++) {
        const fake_payload *pl = &g->nodes[i]->pl;
        if (pl->p.type == CU_GRAPH_NODE_TYPE_WAIT_EVENT && pl->p.eventWait.event == event)
            waits++;
        FOR_EMBEDDED(inner, pl)
            waits += graph_tree_event_waits(inner, event);
    }
    return waits;
}

static size_t exec_event_waits(CUgraphExec exec, CUevent event)
{
    const fake_exec *e = lookup_exec(exec);
    return e ? graph_tree_event_waits(e->snapshot, event) : 0;
}

size_t cgn_fake_exec_event_waits(CUgraphExec exec, CUevent event)
{
    FAKE_LOCKED_RETURN(size_t, exec_event_waits(exec, event));
}

static size_t graph_node_count(CUgraph graph)
{
    const fake_graph *g = lookup_graph(graph);
    return g ? g->num_nodes : 0;
}

size_t cgn_fake_graph_node_count(CUgraph graph)
{
    FAKE_LOCKED_RETURN(size_t, graph_node_count(graph));
}

static size_t exec_launches(CUgraphExec exec)
{
    const fake_exec *e = lookup_exec(exec);
    return e ? e->launches : 0;
}

size_t cgn_fake_exec_launches(CUgraphExec exec)
{
    FAKE_LOCKED_RETURN(size_t, exec_launches(exec));
}

/* ---- test API: user objects ------------------------------------------------------------------ */

static int user_object_refs(CUuserObject object)
{
    const fake_uobj *o = lookup_uobj(object);
    return o ? (int)o->total : 0;
}

int cgn_fake_user_object_refs(CUuserObject object)
{
    FAKE_LOCKED_RETURN(int, user_object_refs(object));
}

static size_t graph_user_object_refs(CUgraph graph, CUuserObject object)
{
    const fake_graph *g = lookup_graph(graph);
    const fake_uobj *o = lookup_uobj(object);
    const fake_ref *ref = (g && o) ? graph_find_ref(g, o) : NULL;
    return ref ? ref->count : 0;
}

size_t cgn_fake_graph_user_object_refs(CUgraph graph, CUuserObject object)
{
    FAKE_LOCKED_RETURN(size_t, graph_user_object_refs(graph, object));
}

static size_t exec_user_object_refs(CUgraphExec exec, CUuserObject object)
{
    const fake_exec *e = lookup_exec(exec);
    const fake_uobj *o = lookup_uobj(object);
    return (e && o) ? graph_tree_refs(e->snapshot, o) : 0;
}

size_t cgn_fake_exec_user_object_refs(CUgraphExec exec, CUuserObject object)
{
    FAKE_LOCKED_RETURN(size_t, exec_user_object_refs(exec, object));
}

/* References held for launches in flight: those executables gave up meanwhile, and those of
 * executables destroyed in flight (counted once, at their newest launch). */
static size_t in_flight_user_object_refs(CUuserObject object)
{
    const fake_uobj *o = lookup_uobj(object);
    size_t refs = 0;
    for (size_t i = 0; o && i < S.num_launches; i++) {
        const fake_launch *l = &S.launches[i];
        const fake_ref *ref = reflist_find(&l->held, o);
        refs += ref ? ref->count : 0;
        if (l->exec->destroyed && exec_newest_launch(l->exec) == l)
            refs += graph_tree_refs(l->exec->snapshot, o);
    }
    return refs;
}

size_t cgn_fake_in_flight_user_object_refs(CUuserObject object)
{
    FAKE_LOCKED_RETURN(size_t, in_flight_user_object_refs(object));
}

int cgn_fake_in_driver_callback(void)
{
    FAKE_LOCKED_RETURN(int, S.callback_depth > 0);
}

/* ---- test API: CUDA arrays ------------------------------------------------------------------- */

static CUarray array_create(size_t width, size_t height, size_t depth)
{
    if (width == 0 || height == 0 || depth == 0 || height > SIZE_MAX / depth ||
        width > (SIZE_MAX - sizeof(fake_array)) / (height * depth))
        return NULL;
    fake_array *a = calloc(1, sizeof *a + width * height * depth);
    if (!a || !reg_add(a, KIND_ARRAY)) {
        free(a);
        return NULL;
    }
    a->width = width;
    a->height = height;
    a->depth = depth;
    return (CUarray)(void *)a;
}

CUarray cgn_fake_array_create(size_t width, size_t height, size_t depth)
{
    FAKE_LOCKED_RETURN(CUarray, array_create(width, height, depth));
}

static int array_destroy(CUarray array)
{
    fake_array *a = lookup_array(array);
    if (!a)
        return 0;
    reg_remove(a);
    free(a);
    return 1;
}

int cgn_fake_array_destroy(CUarray array)
{
    FAKE_LOCKED_RETURN(int, array_destroy(array));
}

static unsigned char *array_data(CUarray array, size_t *size)
{
    fake_array *a = lookup_array(array);
    if (!a)
        return NULL;
    *size = a->width * a->height * a->depth;
    return a->data;
}

unsigned char *cgn_fake_array_data(CUarray array, size_t *size)
{
    FAKE_LOCKED_RETURN(unsigned char *, array_data(array, size));
}

/* ---- test API: external semaphores ---------------------------------------------------------- */

static CUexternalSemaphore ext_sem_create(void)
{
    fake_ext_sem *sem = calloc(1, sizeof *sem);
    if (!sem || !reg_add(sem, KIND_EXTSEM)) {
        free(sem);
        return NULL;
    }
    return (CUexternalSemaphore)(void *)sem;
}

CUexternalSemaphore cgn_fake_ext_sem_create(void)
{
    FAKE_LOCKED_RETURN(CUexternalSemaphore, ext_sem_create());
}

static int ext_sem_destroy(CUexternalSemaphore h)
{
    fake_ext_sem *sem = lookup_ext_sem(h);
    if (!sem)
        return 0;
    reg_remove(sem);
    free(sem);
    return 1;
}

int cgn_fake_ext_sem_destroy(CUexternalSemaphore sem)
{
    FAKE_LOCKED_RETURN(int, ext_sem_destroy(sem));
}

static int ext_sem_state(CUexternalSemaphore h, size_t *signals, size_t *waits, uint64_t *value)
{
    const fake_ext_sem *sem = lookup_ext_sem(h);
    if (!sem)
        return 0;
    *signals = sem->signals;
    *waits = sem->waits;
    *value = sem->value;
    return 1;
}

int cgn_fake_ext_sem_state(CUexternalSemaphore sem, size_t *signals, size_t *waits,
                           uint64_t *value)
{
    FAKE_LOCKED_RETURN(int, ext_sem_state(sem, signals, waits, value));
}
