/* The runtime contract between generated node code and the hand-written runtime.
 * Generated code validates fields and builds CUgraphNodeParams; the runtime owns records,
 * handles, refcounts, attachments, executables and the transaction. The runtime never knows
 * node-type field names: what it needs per node type comes from the generated registry. */
#ifndef CGN_RUNTIME_RUNTIME_H
#define CGN_RUNTIME_RUNTIME_H

#include <stdalign.h>
#include <stdarg.h>
#include <stdatomic.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>
#include <pthread.h>

#include "cgn/cgn.h"
#include "driver.h"

/* ---- errors -------------------------------------------------------------------------------- */

/* Marks a function only failures call (CGN__COLD in driver.h): compilers then lay the branches
 * that lead to it out of the update paths' straight line, which keeps those paths in fewer
 * instruction-cache lines; that matters right after a driver call, which evicts them
 * (docs/performance.md, "cgn's own time right after a driver call"). */

/* Records status and a printf-style message as this thread's last error; returns status. */
CGN__COLD cgn_status cgn__fail(cgn_status status, const char *fmt, ...)
#if defined(__GNUC__) || defined(__clang__)
    __attribute__((format(printf, 2, 3)))
#endif
    ;
/* Records a failed driver call: "<what>: cuX returned CUDA_ERROR_Y". */
CGN__COLD cgn_status cgn__fail_driver(CUresult r, const char *what);

/* After a refused executable-level mutation: names the fields the update set and the
 * executable-update rules only the driver can check for them (spec exec.driver_rules; NULL
 * where none), since the driver's own error names neither. A CUDA_ERROR_INVALID_VALUE for an
 * update that set such a field becomes CGN_ERROR_INVALID_VALUE. Returns the status. */
CGN__COLD cgn_status cgn__exec_refused(cgn_status st, uint64_t set, const char *const *field_names,
                                       const char *const *driver_rules, size_t num_fields);
/* The CUresult of this thread's last failed driver call (CUDA_SUCCESS when none). */
CUresult cgn__last_cu_result(void);

/* For the update paths' small steps, inlined into every generated update function (GCC would
 * otherwise keep one out-of-line copy: a call and a register spill per update). */
#if defined(__GNUC__) || defined(__clang__)
#define CGN__ALWAYS_INLINE __attribute__((always_inline))
#else
#define CGN__ALWAYS_INLINE
#endif
/* The transaction's path behind a lean path (generated code): a function of its own, so that
 * the lean path's function stays small (few registers saved, few cache lines) and ends in a
 * jump to it. */
#if defined(__GNUC__) || defined(__clang__)
#define CGN__NOINLINE __attribute__((noinline))
#else
#define CGN__NOINLINE
#endif

/* Size arithmetic on user input: 0 and *out untouched when the result would not fit. */
static inline int cgn__add_size(size_t a, size_t b, size_t *out) {
    if (a > SIZE_MAX - b)
        return 0;
    *out = a + b;
    return 1;
}
static inline int cgn__mul_size(size_t a, size_t b, size_t *out) {
    if (b != 0 && a > SIZE_MAX / b)
        return 0;
    *out = a * b;
    return 1;
}

/* ---- handles --------------------------------------------------------------------------------
 * Graph, node and executable handles are not pointers to records: a handle is a slot index and
 * the slot's generation, so a destroyed (or never valid) handle is reported instead of being
 * dereferenced, and a record's memory goes back as soon as its object is gone. Slots live in
 * chunks that are never freed; lookups are lock-free (two atomic loads). */
typedef uint64_t cgn__handle;

typedef enum cgn__kind {
    CGN__KIND_GRAPH = 1,
    CGN__KIND_NODE = 2,
    CGN__KIND_EXEC = 3
} cgn__kind;

/* Outcome of a lookup. */
typedef enum cgn__lookup {
    CGN__LOOKUP_OK = 0,
    CGN__LOOKUP_NULL,      /* the handle is NULL */
    CGN__LOOKUP_INVALID,   /* not a cgn handle at all */
    CGN__LOOKUP_WRONG_KIND,/* a handle of another kind (a node given as a graph...) */
    CGN__LOOKUP_STALE      /* the object was destroyed */
} cgn__lookup;

/* A new live slot for `record`. CGN_ERROR_OUT_OF_MEMORY (message naming `where`) on failure. */
cgn_status cgn__handle_new(cgn__kind kind, void *record, cgn__handle *out, const char *where);
/* `count` new live slots at once (one lock), out[i] pointing at the record at
 * records + i * stride (records NULL: at no record until cgn__handle_set_record). All or
 * nothing: CGN_ERROR_OUT_OF_MEMORY (message naming `where`) leaves no slot taken. */
cgn_status cgn__handles_new(cgn__kind kind, size_t count, cgn__handle *out, void *records,
                            size_t stride, const char *where);
/* Ends the handle: its slot is reused with a new generation; the old value reports STALE. */
void cgn__handle_free(cgn__handle h);
/* Points a live handle at another record (NULL: the handle stays valid without a record). */
void cgn__handle_set_record(cgn__handle h, void *record);
/* cgn__handle_free of `count` handles under one lock (0 entries are skipped). */
void cgn__handles_free(const cgn__handle *handles, size_t count);
/* Looks a handle up; *record_out is set (possibly NULL) only for CGN__LOOKUP_OK. */
/* The slot table (handle.c): fixed chunks, never freed or moved, so lookups from any thread
 * read only slot memory (two atomic loads) and need no lock; inline, as every call makes one. */
#define CGN__CHUNK_BITS 12u
#define CGN__CHUNK_SLOTS (1u << CGN__CHUNK_BITS)
#define CGN__MAX_CHUNKS 16384u /* 67 million live handles */
#define CGN__KIND_BITS 4u
typedef struct cgn__slot {
    atomic_uint tag;          /* generation << 4 | kind while live; generation << 4 when free */
    _Atomic(void *) record;
    uint32_t next_free;       /* index + 1 of the next free slot (under the mutex) */
} cgn__slot;
extern _Atomic(cgn__slot *) cgn__chunks[CGN__MAX_CHUNKS];

static inline cgn__slot *cgn__handle_slot(uint32_t index) {
    uint32_t chunk = index >> CGN__CHUNK_BITS;
    if (chunk >= CGN__MAX_CHUNKS)
        return NULL;
    cgn__slot *c = atomic_load_explicit(&cgn__chunks[chunk], memory_order_acquire);
    return c ? &c[index & (CGN__CHUNK_SLOTS - 1)] : NULL;
}

static inline cgn__lookup cgn__handle_lookup(const void *handle, cgn__kind kind,
                                            void **record_out) {
    uintptr_t h = (uintptr_t)handle;
    if (h == 0)
        return CGN__LOOKUP_NULL;
    uint32_t low = (uint32_t)(h & 0xffffffffu);
    unsigned tag = (unsigned)(h >> 32);
    if (low == 0 || (tag & ((1u << CGN__KIND_BITS) - 1)) == 0)
        return CGN__LOOKUP_INVALID;
    cgn__slot *s = cgn__handle_slot(low - 1);
    if (s == NULL)
        return CGN__LOOKUP_INVALID;
    if ((tag & ((1u << CGN__KIND_BITS) - 1)) != (unsigned)kind)
        return CGN__LOOKUP_WRONG_KIND;
    unsigned now = atomic_load_explicit(&s->tag, memory_order_acquire);
    if (now != tag)
        return (now >> CGN__KIND_BITS) > (tag >> CGN__KIND_BITS) ||
                       (now & ((1u << CGN__KIND_BITS) - 1)) == 0
                   ? CGN__LOOKUP_STALE
                   : CGN__LOOKUP_INVALID;
    *record_out = atomic_load_explicit(&s->record, memory_order_acquire);
    return CGN__LOOKUP_OK;
}

/* Records a failed lookup as the last error ("<where>: <what> ... has been destroyed"...) and
 * returns its status: INVALID_ARGUMENT for NULL/invalid/wrong kind, DESTROYED for stale. */
CGN__COLD cgn_status cgn__lookup_failed(cgn__lookup result, const void *handle, const char *what,
                                        const char *where);
/* Live slots, for tests of bounded memory. */
size_t cgn__handles_live(void);

static inline void *cgn__handle_ptr(cgn__handle h) { return (void *)(uintptr_t)h; }

/* ---- owners and attachments ------------------------------------------------------------ */

struct cgn_owner {
    atomic_long refs;
    void *resource;
    cgn_release_fn release;
    struct cgn_owner *next_released; /* link in the owner release queue */
};

/* The owners of one version of a node's parameters. Immutable once published. Refcounted by
 * cgn (refs): a definition version's CUDA user object holds one reference (dropped when CUDA
 * runs its destructor and cgn drains the queue), each executable's copy of the node holds one,
 * and so does each retired executable version waiting for its launches to complete. */
typedef struct cgn__attachment {
    struct cgn__attachment *next_released; /* link in the deferred-release queue */
    atomic_long refs;
    CUuserObject object; /* NULL for an executable-level version (no user object) */
    /* Definition level: the root graph's share_epoch when the attachment was made. While the
     * root's is the same, nothing but the graph holds the user object, so a later version of
     * the node may replace the owners in place (cgn__txn_stage_owners_list). */
    uint64_t share_epoch;
    size_t cap_owners; /* slots in owners[] */
    size_t num_owners;
    cgn_owner *owners[]; /* each retained once by this attachment */
} cgn__attachment;

void cgn__owner_retain(cgn_owner *owner);
/* Drops a reference; the release callback runs now (user thread, inside cgn). */
void cgn__owner_release(cgn_owner *owner);
/* What may be waiting for a user thread: attachments CUDA released, owners whose last
 * reference another thread dropped (owner.c), executables' graves (exec.c). Read inline by
 * cgn__collect_pending, so that the common call (nothing pending) costs three loads, no call. */
typedef struct cgn__pending_work {
    _Atomic(cgn__attachment *) released_head;
    _Atomic(cgn_owner *) owners_head;
    atomic_size_t num_graves;
} cgn__pending_work;
/* In one cache line (owner.c): every update reads all three. */
extern cgn__pending_work cgn__pending;
/* Runs what is pending (out of line). */
void cgn__collect_pending_now(void);
/* Runs pending release callbacks when CUDA or another thread released something; three atomic
 * loads when nothing is pending. User threads only. Always inline: LTO kept it out of line. */
CGN__ALWAYS_INLINE static inline void cgn__collect_pending(void) {
    /* One test of the three, not three branches. */
    if (((uintptr_t)atomic_load_explicit(&cgn__pending.released_head, memory_order_relaxed) |
         (uintptr_t)atomic_load_explicit(&cgn__pending.owners_head, memory_order_relaxed) |
         (uintptr_t)atomic_load_explicit(&cgn__pending.num_graves, memory_order_relaxed)) != 0)
        cgn__collect_pending_now();
}
/* The user-object destructor given to CUDA: enqueues the attachment, nothing else. */
void cgn__attachment_released(void *attachment);
/* A new attachment of `count` owner slots (num_owners 0, refs 1, no user object). */
cgn__attachment *cgn__attachment_new(size_t count);
void cgn__attachment_ref(cgn__attachment *a);
/* Drops a reference; the last one releases the owners and frees it (user thread only). */
void cgn__attachment_unref(cgn__attachment *a);

/* ---- records ------------------------------------------------------------------------------- */

typedef struct cgn__graph_rec cgn__graph_rec;
typedef struct cgn__node_rec cgn__node_rec;
typedef struct cgn__exec_rec cgn__exec_rec;

/* What a hierarchy leaves behind for its executables: the root's raw graph (executables
 * address their nodes through that graph's node handles) and the handles of its nodes. Freed
 * when the root graph and every executable made from the hierarchy are gone. */
typedef struct cgn__hier {
    atomic_long refs; /* 1 while the root graph lives, plus one per executable */
    CUgraph raw;
    int borrowed;     /* an adopted raw graph the caller owns: cgn never destroys it */
    cgn__handle *zombies; /* node handles kept valid for executables after the graph went */
    size_t num_zombies;
} cgn__hier;

struct cgn__graph_rec {
    cgn__handle handle;
    CUgraph raw;
    cgn__node_rec **nodes; /* live nodes, in insertion order */
    size_t num_nodes, cap_nodes;
    cgn__graph_rec *root;  /* a graph made by cgn_graph_create is its own root */
    cgn__node_rec *owner;  /* the child-graph or conditional node embedding this graph; NULL
                              for a root */
    cgn__hier *hier;
    cgn__graph_rec *next_body; /* a conditional node's body i: body i + 1 (NULL after the
                                  last); NULL for every other graph */
    /* On a root: 1 once a raw handle of the hierarchy left cgn (cgn_graph_raw, cgn_node_raw)
     * or it was adopted; until then no code outside cgn can change its nodes. Never cleared. */
    atomic_int raw_exposed;
    /* On a root: a value no other root ever had, renewed (cgn__graph_shared) whenever the driver
     * may take references to the user objects of the hierarchy's attachments besides the
     * graphs' own: instantiation, refresh of an executable, embedding as a child's source. */
    uint64_t share_epoch;
};

struct cgn__node_rec {
    /* What structure and identity need: read by graph operations, not by updates. */
    cgn__handle handle;
    cgn__graph_rec *graph;
    size_t index; /* position in graph->nodes */
    size_t state_size;
    cgn__handle *deps; /* dependencies, as node handles of the same graph (shrunk in
                          place when one is destroyed, never reallocated) */
    size_t num_deps;
    cgn__graph_rec *embedded; /* child-graph node: its embedded graph's record; conditional
                                 node: body 0, the others chained through next_body */
    cgn__handle source;       /* node in an embedding: the node it was copied from */
    CUgraphNode source_raw;
    void *slab; /* CGN__PACKED_SLAB: the block holding the record */
    /* What every update reads: 64 bytes together, last, so that a state packed after the record
     * (nodes added by cgn and adopted ones) follows them in memory. An update runs right after
     * the previous driver call evicted much of cgn's data; fewer lines, fewer misses. */
    CUgraphNode raw;
    cgn_node_type type;
    unsigned packed;        /* CGN__PACKED_*: parts living in the record's own allocation */
    CUcontext ctx;          /* current when the node was added; made current for updates */
    void *state;            /* the node type's generated desc struct, cgn-owned copy; its size
                               never changes (updates copy into it, never replace it) */
    void *storage;          /* cgn-owned block the state and params point into; refcounted and
                               shared with copies in embeddings and executables */
    void *spare;            /* a previous block held by this node alone, for reuse */
    cgn__attachment *attachment; /* owners of the current version; NULL when none */
    const char *unsupported;     /* adopted in a form cgn does not update: why (static text) */
};

/* Whether code outside cgn may have changed node n behind cgn's back: only in a hierarchy whose
 * raw handles were handed out (or that was adopted). */
static inline int cgn__node_reachable_raw(const cgn__node_rec *n) {
    return atomic_load_explicit(&n->graph->root->raw_exposed, memory_order_relaxed);
}
/* A share epoch no root had before (graph.c). */
uint64_t cgn__new_share_epoch(void);
/* Graph g's hierarchy is being shared with the driver (instantiated, an executable refreshed
 * from it, embedded as a child's source): no attachment made before this is the graph's alone
 * any more. */
static inline void cgn__graph_shared(cgn__graph_rec *g) {
    g->root->share_epoch = cgn__new_share_epoch();
}
/* Marks graph g's hierarchy: a raw handle of it is leaving cgn. */
static inline void cgn__hier_expose(cgn__graph_rec *g) {
    atomic_store_explicit(&g->root->raw_exposed, 1, memory_order_relaxed);
}

/* Parts of a node record allocated with it (adoption makes a record, its dependencies and its
 * state in one block, and the records of one graph in one slab; cgn__add_begin a record and
 * its state): never freed or replaced on their own; cgn__node_free knows. A record copied into
 * an embedding (child.c) has none. */
#define CGN__PACKED_DEPS 1u
#define CGN__PACKED_STATE 2u
#define CGN__PACKED_SLAB 4u /* the record is in n->slab, freed with the last record in it */

/* Drops a slab's reference for one of its records; the last frees the slab (adopt.c). */
void cgn__slab_release(void *slab);
/* The same for `count` of its records at once. */
void cgn__slab_release_n(void *slab, size_t count);

/* An executable's own copy of one node: taken at instantiation (or refresh), changed only by
 * that executable's updates, never read from the definition afterwards. */
typedef struct cgn__shadow {
    cgn__handle node;       /* the definition node's handle (the key) */
    CUgraphNode raw;        /* that node's raw handle, which the driver pairs with the exec */
    cgn_node_type type;
    CUcontext ctx;
    size_t state_size;
    void *state;
    void *storage;          /* retained block */
    void *spare;
    cgn__attachment *attachment; /* one reference held; NULL when the version has no owners */
    uint64_t installed_at;  /* the executable's launch count when this version was installed */
    uint32_t parent;        /* index+1 of the child-graph or conditional shadow containing it;
                               0: top level */
    uint32_t num_deps;      /* dependencies, as shadow indices into deps_pool */
    uint32_t deps_at;
    uint32_t body;          /* inside a conditional node: the index of its body (else 0) */
    const char *unsupported; /* the node's, when the copy was taken */
} cgn__shadow;

/* A retired executable-level version, waiting until launch `seq` is known complete. */
typedef struct cgn__retired {
    cgn__attachment *attachment;
    uint64_t seq;
} cgn__retired;

/* An event recorded after launch `seq`. */
typedef struct cgn__fence {
    CUevent event;
    uint64_t seq;
} cgn__fence;

struct cgn__exec_rec {
    cgn__handle handle;
    CUgraphExec raw;
    CUcontext ctx;          /* current at instantiation: fence events are made in it */
    cgn__hier *hier;
    cgn__handle source;     /* the graph it was instantiated from */
    cgn__shadow *shadows;
    size_t num_shadows;
    uint32_t *deps_pool;
    size_t num_deps_pool;
    uint32_t *map;          /* open addressing: shadow index + 1, 0 = empty */
    size_t map_mask;
    size_t cgn_only;        /* shadows holding a version set at executable level (cgn's alone) */
    /* Retention state, shared with cgn_collect() on other threads: under `lock`. */
    pthread_mutex_t lock;
    uint64_t launches;      /* successful cgn_exec_launch calls */
    uint64_t completed;     /* every launch up to this one is known complete */
    uint64_t fenced;        /* the last launch a fence was recorded after */
    cgn__retired *retired;  /* FIFO */
    size_t retired_head, num_retired, cap_retired;
    cgn__fence *fences;     /* FIFO */
    size_t fence_head, num_fences, cap_fences;
    CUevent *idle_events;
    size_t num_idle, cap_idle;
    int raw_exposed;        /* cgn_exec_raw was called: launches cgn cannot see may exist */
    int fence_missed;       /* a launch that needed a fence got none (no event, no memory) */
    int borrowed;           /* adopted without ownership: cgn_exec_destroy leaves raw alone */
    int listed;             /* in the global list of executables with retired versions */
    cgn__exec_rec *next_listed, *prev_listed;
};

/* Record lookups for generated code and tests. Each returns CGN_OK and the record, or records
 * the failure (NULL, not a handle, wrong kind, destroyed) naming `where`. */
cgn_status cgn__graph_get(const cgn_graph *graph, const char *where, cgn__graph_rec **out);
cgn_status cgn__exec_get(const cgn_exec *exec, const char *where, cgn__exec_rec **out);
/* A live node of `type` (CGN_NODE_TYPE_COUNT_: any type). */
cgn_status cgn__check_node(const cgn_node *node, cgn_node_type type, const char *where,
                           cgn__node_rec **out);
/* Whether cgn__check_node accepts the record n (a handle's, possibly NULL) as a node of `type`:
 * the one definition, shared with the inline update path. */
static inline int cgn__node_usable_as(const cgn__node_rec *n, cgn_node_type type) {
    return n != NULL && n->type == type && n->unsupported == NULL && n->raw != NULL;
}
/* Tests: the record behind a handle, or NULL. */
cgn__node_rec *cgn__node_record(const cgn_node *node);
/* The record of raw node `raw` in g or a graph embedded in it (depth first), or NULL (also for a
 * NULL raw): cgn_graph_find_raw, and the node a refused cuGraphExecUpdate names. */
const cgn__node_rec *cgn__find_raw_in(const cgn__graph_rec *g, CUgraphNode raw);
cgn__graph_rec *cgn__graph_record(const cgn_graph *graph);
cgn__exec_rec *cgn__exec_record(const cgn_exec *exec);

static inline cgn_node *cgn__node_handle(const cgn__node_rec *n) {
    return (cgn_node *)cgn__handle_ptr(n->handle);
}
static inline cgn_graph *cgn__graph_handle(const cgn__graph_rec *g) {
    return (cgn_graph *)cgn__handle_ptr(g->handle);
}

/* Every graph node n embeds, in order: a child-graph node's copy, a conditional node's bodies
 * (chained, so that one pointer holds them all and freeing the first frees the rest). */
#define CGN__FOR_EMBEDDED(g, n)                                                                \
    for (cgn__graph_rec *g = (n)->embedded; g != NULL; g = g->next_body)

/* ---- per-node-type facts, generated from the spec (generated/src/cgn_registry.c) ---------- */

/* The executable-update rules of a node type (spec `exec_rules:` and field kinds): may the
 * executable's current version `cur` become `next`? ctx: the node's context, current. */
typedef cgn_status (*cgn__exec_check_fn)(const void *cur, const void *next, CUcontext ctx,
                                         const char *where);

/* Adoption and refresh (adopt.c): reading a node's driver params into its desc. */
typedef struct cgn__layouts cgn__layouts; /* kernels' parameter layouts seen by one adoption */
/* A fresh storage block of `size` payload bytes (reference count 1), not tied to a transaction;
 * NULL with the error set when out of memory. Released with cgn__block_release. */
void *cgn__block_new(size_t size);
/* Storage blocks cut from shared allocations (txn.c): adoption makes one argument block per
 * kernel node without one allocation each. */
typedef struct cgn__arena cgn__arena;
/* A block of `size` payload bytes from *arena (a new arena when it is full or NULL); NULL with
 * the error set when out of memory. The block is released like any other. */
void *cgn__arena_block(cgn__arena **arena, size_t size);
/* The maker is done cutting blocks: the arena goes with its last block. NULL: nothing. */
void cgn__arena_done(cgn__arena *arena);

typedef struct cgn__reader {
    cgn__layouts *layouts;   /* NULL: ask the driver for each kernel */
    void *storage;           /* out: the storage block the desc points into, if any */
    const char *unsupported; /* out: why cgn cannot update the node in this form, or NULL */
    cgn__arena **arena;      /* adoption: where argument blocks come from; NULL: own allocations */
} cgn__reader;

/* The inverse of a node type's build: fills `desc` (zeroed first) from params read with the
 * node type's typed getter. `prev` (a refresh: the node's desc until now; NULL when adopting)
 * keeps the owners of values that did not change. Out of memory or a failed driver query is a
 * failure; a form cgn does not update is not (rd->unsupported). */
typedef cgn_status (*cgn__read_fn)(cgn__reader *rd, const CUgraphNodeParams *params, void *desc,
                                   const void *prev, const char *where);

typedef struct cgn__node_type_info {
    const char *name;        /* "memset", "host callback", ... for messages */
    int exec_enable;         /* cuGraphNodeSetEnabled supports it */
    cgn__exec_check_fn exec_check; /* NULL: no rules */
    CUgraphNodeType cu_type; /* the CUDA node type it records */
    size_t desc_size;        /* its desc struct (0: none) */
    cgn__read_fn read;       /* NULL: nothing to read (empty nodes) or not adoptable */
    /* Runs in a recorded context: where CUgraphNodeParams names it (the spec's context_field;
     * a getter may leave it NULL); 0 for node types without one. */
    size_t context_offset;
    /* The typed adder (spec: cuda.add) and getter (cuda.get), with their entry names for
     * messages; NULL for empty nodes (added in txn.c) and CUDA-only types. The adder writes
     * back what the driver chose (spec: output fields, e.g. an allocation's dptr) into *p. */
    CUresult (*add)(const cgn_driver_table *drv, CUgraphNode *out, CUgraph graph,
                    const CUgraphNode *deps, size_t num_deps, CUgraphNodeParams *p);
    const char *add_entry;
    CUresult (*get)(const cgn_driver_table *drv, CUgraphNode raw, CUgraphNodeParams *p);
    const char *get_entry;
    int updatable; /* spec: updatable; 0 for empty and CUDA-only nodes too */
    /* The spec's form check on read params (cuda.update_check's read): NULL when the node
     * type records them, else why not. Adoption records a node as the first node type of its
     * CUDA type (enum order) whose check accepts it. NULL: accepts every form. */
    const char *(*form)(const CUgraphNodeParams *p);
    /* The state an adopted node of this CUDA type gets: the largest desc among the node types
     * recording the same CUDA type (told apart by `form` only once the params are read); 1 for
     * empty, CUDA-only and unread types. */
    size_t adopt_size;
    const char *cu_type_name; /* "CU_GRAPH_NODE_TYPE_KERNEL", ... (spec: cuda.node_type) */
} cgn__node_type_info;

#define CGN__MAX_SIZE(a, b) ((a) > (b) ? (a) : (b))

extern const cgn__node_type_info cgn__node_types[CGN_NODE_TYPE_COUNT_];
/* Whether nodes of type t are memory allocation or free nodes: CUDA forbids destroying the
 * nodes of a graph holding one, cloning it, embedding it in a child-graph node, and adding one
 * to a child graph. */
static inline int cgn__is_memory_node_type(cgn_node_type t) {
    CUgraphNodeType cu = cgn__node_types[t].cu_type;
    return t != CGN_NODE_EMPTY && (cu == CU_GRAPH_NODE_TYPE_MEM_ALLOC ||
                                   cu == CU_GRAPH_NODE_TYPE_MEM_FREE);
}
/* A memory allocation or free node of g (see cgn__is_memory_node_type), or NULL. */
const cgn__node_rec *cgn__graph_mem_node(const cgn__graph_rec *g);
/* "memset", "host callback", ... for messages; "unknown" out of range. */
const char *cgn__node_type_name(cgn_node_type type);

/* ---- transactions ------------------------------------------------------------------------- */

/* validate -> prepare -> apply (one driver mutation) -> commit | rollback.
 * After a failing call the node's params, state, attachment, every executable, every owner
 * refcount and the calling thread's current context are exactly as before. */
/* The most owners a definition update may replace in place in the current attachment. */
#define CGN__REUSE_OWNERS 8
typedef struct cgn__txn {
    cgn__node_rec *node;            /* the node updated, or the record prepared for a new node */
    int adding;                     /* 1: the node is being added */
    cgn__exec_rec *exec;            /* executable-level update: the executable; else NULL */
    cgn__shadow *shadow;            /* executable-level: the executable's copy of the node */
    /* The version the transaction replaces (the node's, or the executable's copy), read once at
     * the start so that the accessors below are one load each, not a branch on exec; all NULL
     * for a node being added. */
    CUcontext cur_ctx;
    void *cur_state;
    void *cur_storage;
    void **storage_slot;
    void **spare_slot;
    cgn__attachment *cur_attachment;
    cgn__attachment *attachment;    /* attachment for the new version (may equal the current) */
    int new_attachment;             /* 1: attachment was created by this txn; 2: it is the
                                       current one, its owners replaced at commit by reuse[] */
    size_t num_reuse;
    cgn_owner *reuse[CGN__REUSE_OWNERS]; /* new_attachment 2: the new version's owners */
    void *storage;                  /* replaces the current block at commit when storage_set */
    int storage_set;
    cgn__graph_rec *embed_plan;     /* child-graph node: records prepared for the new child */
    CUgraph **bodies;               /* conditional node being added: where the driver writes
                                       its body graphs (the embed_plan is body 0, the others
                                       chained through next_body) */
    void *state;                    /* preallocated state block for a new node */
    CUcontext saved_ctx;            /* the caller's current context, restored at the end */
    int ctx_pushed;                 /* the node's context was pushed for this transaction */
    int ctx_check;                  /* compare the current context with saved_ctx at the end */
    int ctx_known;                  /* a lean path asked for the current context: known_current */
    CUcontext known_current;
    const CUgraphNode *deps;        /* raw dependencies of a new node */
    CUgraphNode *deps_buf;
    cgn__handle *dep_handles;
    size_t num_deps;
} cgn__txn;

/* Add path. Checks the graph and every dependency, records the current context, and allocates
 * the node record, its handle and its state block (state_size bytes), all before any mutation.
 * needs_context: fail with CGN_ERROR_NO_CONTEXT when no context is current. */
cgn_status cgn__add_begin(cgn__txn *txn, cgn_graph *graph, cgn_node *const *deps, size_t num_deps,
                          cgn_node_type type, size_t state_size, int needs_context,
                          const char *where);

/* An update starts, of node n (definition level: exec and s NULL) or of the executable e's
 * copy s: only the fields an update uses are set (the hot path), the current owners are those
 * of the version updated, then pending releases are collected. */
static inline void cgn__txn_start_update(cgn__txn *txn, cgn__node_rec *n, cgn__exec_rec *e,
                                         cgn__shadow *s) {
    txn->node = n;
    txn->adding = 0;
    txn->exec = e;
    txn->shadow = s;
    txn->new_attachment = 0;
    txn->storage_set = 0;
    txn->embed_plan = NULL;
    txn->bodies = NULL;
    txn->ctx_pushed = 0;
    txn->ctx_check = 0;
    txn->ctx_known = 0;
    if (s != NULL) {
        txn->cur_ctx = s->ctx;
        txn->cur_state = s->state;
        txn->cur_storage = s->storage;
        txn->storage_slot = &s->storage;
        txn->spare_slot = &s->spare;
        txn->cur_attachment = s->attachment;
    } else {
        txn->cur_ctx = n->ctx;
        txn->cur_state = n->state;
        txn->cur_storage = n->storage;
        txn->storage_slot = &n->storage;
        txn->spare_slot = &n->spare;
        txn->cur_attachment = n->attachment;
    }
    txn->attachment = txn->cur_attachment;
    cgn__collect_pending();
}
/* Definition update: resolves and checks the node (live, of `type`) and the driver gate
 * (cuGraphNodeSetParams, since `since`). Nothing to undo on failure. */
CGN__COLD cgn_status cgn__update_begin_checked(cgn__txn *txn, cgn_node *node, cgn_node_type type,
                                               int since, const char *where);
/* The common case of a definition update's start, inline: the live node of `type` behind
 * `node`, with a driver past the gate (cuGraphNodeSetParams, since `since`); NULL for anything
 * else, which the caller leaves to cgn__update_begin_checked (nothing reported here). */
CGN__ALWAYS_INLINE
static inline cgn__node_rec *cgn__update_node(cgn_node *node, cgn_node_type type, int since) {
    void *rec = NULL;
    const cgn_driver_table *drv = cgn__driver;
    if (cgn__handle_lookup(node, CGN__KIND_NODE, &rec) != CGN__LOOKUP_OK)
        return NULL;
    cgn__node_rec *n = rec;
    if (!cgn__node_usable_as(n, type) || drv->version < since || drv->cuGraphNodeSetParams == NULL)
        return NULL;
    return n;
}
/* cgn__update_begin_checked with that common case inline; the rest, and every message, out of
 * line. */
CGN__ALWAYS_INLINE
static inline cgn_status cgn__update_begin(cgn__txn *txn, cgn_node *node, cgn_node_type type,
                                           int since, const char *where) {
    cgn__node_rec *n = cgn__update_node(node, type, since);
    if (n == NULL)
        return cgn__update_begin_checked(txn, node, type, since, where);
    cgn__txn_start_update(txn, n, NULL, NULL);
    return CGN_OK;
}

/* The version an update replaces, for the update loop's lean paths, which need no transaction:
 * the in-place argument writes (generated code, spec: a kernel's args and arg_edits). They take
 * only a version with no owners, write nothing but the current argument block (undone when the
 * driver refuses) and make one driver call; anything else, and every error, is left to the
 * transaction's path, which says what is wrong. */
typedef struct cgn__lean {
    CUcontext ctx;
    void *state;
    const void *storage;
    CUgraphNode raw;     /* the node's raw handle (the executable's node at executable level) */
    CUgraphExec exec;    /* executable level: the raw executable; else NULL */
    /* What the transaction's start needs when the lean path declines (cgn__txn_start_lean). */
    cgn__node_rec *rec;
    cgn__exec_rec *exec_rec;
    cgn__shadow *shadow;
    int current_known; /* cgn__lean_context asked the driver: the calling thread's context */
    CUcontext current;
} cgn__lean;
/* Definition level: 1, with *l filled in and pending work collected, when `node` is a live
 * node of `type` with no owners (any owners: with_owners 1, for an update that cannot change
 * them) and the driver is past the gate; else 0 (nothing reported). With with_owners 2, a node
 * that has owners gives 2 (*l filled in), for a path of its own. */
CGN__ALWAYS_INLINE
static inline int cgn__lean_node(cgn__lean *l, cgn_node *node, cgn_node_type type, int since,
                                 int with_owners) {
    cgn__node_rec *n = cgn__update_node(node, type, since); /* as the transaction's start */
    if (n == NULL || (!with_owners && n->attachment != NULL))
        return 0;
    int found = with_owners == 2 && n->attachment != NULL ? 2 : 1;
    l->ctx = n->ctx;
    l->state = n->state;
    l->storage = n->storage;
    l->raw = n->raw;
    l->exec = NULL;
    l->rec = n;
    l->exec_rec = NULL;
    l->shadow = NULL;
    l->current_known = 0;
    cgn__collect_pending();
    return found;
}
/* The failure of a lean path's one driver call (nothing else to undo): reports `entry`'s result
 * as the transaction's path does. */
CGN__COLD cgn_status cgn__lean_apply_failed(CUresult r, const char *what, const char *entry);
/* Whether a lean path may make its driver call in the calling thread's context as it is: 1 when
 * the update needs none (`context_free`), or when the version's context is the one current
 * (asked once, the answer kept for the transaction's path, which then makes no second query);
 * else 0, the update left to the transaction's path, which makes the context current around it.
 * A failed query sets *failed as the transaction's path would report it (cgn__txn_enter). */
CGN__COLD cgn_status cgn__lean_context_failed(CUresult r, const char *where);
CGN__ALWAYS_INLINE
static inline int cgn__lean_context(cgn__lean *l, int context_free, cgn_status *failed,
                                    const char *where) {
    if (context_free)
        return 1;
    CUcontext current = NULL;
    CUresult r = cgn__driver->cuCtxGetCurrent(&current);
    if (r != CUDA_SUCCESS) {
        *failed = cgn__lean_context_failed(r, where);
        return 0;
    }
    l->current_known = 1;
    l->current = current;
    return current != NULL && current == l->ctx;
}

/* Executable-level update of `node` in `exec`: resolves both, finds the executable's copy of
 * the node and checks the gate (cuGraphExecNodeSetParams). Nothing to undo on failure. */
CGN__COLD cgn_status cgn__exec_update_begin_checked(cgn__txn *txn, cgn_exec *exec, cgn_node *node,
                                                    cgn_node_type type, int since,
                                                    const char *where);

/* Makes `saved` the calling thread's current context again if driver calls changed it. */
void cgn__restore_context(CUcontext saved);

/* Makes the node's context current for the rest of the transaction when the caller has none or
 * another one (undone by commit or rollback). Call after validation, before the first driver
 * call of an update. On failure nothing is left to undo. */
cgn_status cgn__txn_enter(cgn__txn *txn, const char *where);

/* The node's context (recorded at add); for a new node, the current one. */
static inline CUcontext cgn__txn_context(const cgn__txn *txn) {
    return txn->cur_ctx;
}
/* The current state: the definition's, or for an executable-level update that executable's. */
static inline const void *cgn__txn_current_state(const cgn__txn *txn) {
    return txn->cur_state;
}

/* A storage block: this header, then the payload the node points at. */
typedef struct cgn__block_header {
    atomic_long refs;
    size_t size;
    cgn__arena *arena; /* the arena it was cut from, or NULL: an allocation of its own */
    /* Which block, and which write of it: serial is unique among all blocks ever (0 until the
     * first take), takes counts the takes. Only the block's holder writes them. */
    uint64_t serial, takes;
    alignas(16) unsigned char payload[];
} cgn__block_header;
static inline cgn__block_header *cgn__block_of(void *payload) {
    return (cgn__block_header *)((unsigned char *)payload - offsetof(cgn__block_header, payload));
}
/* 1 when only one reference exists (the block may be written for reuse). */
static inline int cgn__block_exclusive(void *block) {
    return atomic_load_explicit(&cgn__block_of(block)->refs, memory_order_acquire) == 1;
}

/* A cgn-owned block of `size` bytes for the new version (copies of kernel arguments),
 * reusing the spare block when it is large enough. At commit it replaces the current block
 * (the old one becomes the spare); at rollback it goes back. NULL (with last error set) when
 * out of memory. One block per transaction. */
void *cgn__txn_storage_slow(cgn__txn *txn, size_t size);
/* cgn__txn_storage_slow with the steady state of an update loop inline: the spare fits and was
 * taken before (its serial is set), so taking it is a pointer move and a take count. */
static inline void *cgn__txn_storage(cgn__txn *txn, size_t size) {
    void **slot = txn->spare_slot;
    void *spare = slot != NULL ? *slot : NULL;
    if (spare != NULL) {
        cgn__block_header *h = cgn__block_of(spare);
        if (h->size >= size && h->serial != 0) {
            txn->storage = spare;
            *slot = NULL; /* given back at rollback */
            h->takes++;   /* before any write: see cgn__txn_storage_slow */
            txn->storage_set = 1;
            return spare;
        }
    }
    return cgn__txn_storage_slow(txn, size);
}
/* The current storage block (NULL on the add path or when none). */
static inline const void *cgn__txn_current_storage(const cgn__txn *txn) {
    return txn->cur_storage;
}
/* Where the spare block of the version updated is kept (NULL on the add path). */
static inline void **cgn__txn_spare_slot(const cgn__txn *txn) {
    return txn->spare_slot;
}
/* The spare block cgn__txn_storage would reuse (NULL when none), not taken. */
static inline const void *cgn__txn_spare(const cgn__txn *txn) {
    void **slot = cgn__txn_spare_slot(txn);
    return slot ? *slot : NULL;
}
/* A storage block's identity and write count: equal stamps mean the same block, not written
 * by a transaction in between (each cgn__txn_storage take counts as a write). */
typedef struct cgn__block_stamp {
    uint64_t serial, takes;
} cgn__block_stamp;
cgn__block_stamp cgn__block_stamp_of(const void *block);
/* Whether block has `stamp` (never for a block not yet taken: serial 0). */
int cgn__block_stamped(const void *block, cgn__block_stamp stamp);

/* Stages the owners of the new version: `owners` then each argument's owner. NULL entries are
 * skipped. When the list equals the current attachment's owners, in order, the current
 * attachment is reused (no user object, no allocation). */
cgn_status cgn__txn_stage_owners_list(cgn__txn *txn, cgn_owner *const *owners,
                                      size_t num_owners, const cgn_arg *args, size_t num_args);
/* The owners of the version the transaction replaces (none for a node being added). */
static inline cgn__attachment *cgn__txn_current_attachment(const cgn__txn *txn) {
    return txn->cur_attachment;
}
/* cgn__txn_stage_owners_list, with the common case inline: no owners before and none now (a
 * new grid, scalar, event...) needs no comparison and no call. */
static inline cgn_status cgn__txn_stage_owners(cgn__txn *txn, cgn_owner *const *owners,
                                               size_t num_owners, const cgn_arg *args,
                                               size_t num_args) {
    if (cgn__txn_current_attachment(txn) != NULL)
        return cgn__txn_stage_owners_list(txn, owners, num_owners, args, num_args);
    for (size_t i = 0; i < num_owners; i++)
        if (owners[i] != NULL)
            return cgn__txn_stage_owners_list(txn, owners, num_owners, args, num_args);
    for (size_t i = 0; i < num_args; i++)
        if (args[i].owner != NULL)
            return cgn__txn_stage_owners_list(txn, owners, num_owners, args, num_args);
    txn->attachment = NULL;
    return CGN_OK;
}

/* All zero: CUDA requires a CUgraphNodeParams' unused bytes to be zero. */
extern const CUgraphNodeParams cgn__zero_params;
/* Zeroes *p by copying cgn__zero_params: compilers turn a memset of these 256 bytes into
 * `rep stos`, whose start-up cost was a third of a memset update's own time; a copy is 16
 * vector moves. */
static inline void cgn__params_zeroed(CUgraphNodeParams *p) {
    *p = cgn__zero_params;
}

/* The one driver mutation: cuGraphAdd*Node for a new node, cuGraphNodeSetParams for an update,
 * cuGraphExecNodeSetParams at executable level. On failure the transaction is rolled back. */
cgn_status cgn__txn_apply(cgn__txn *txn, CUgraphNodeParams *params, const char *what);
/* The failure path of the mutation: rolls back and reports `entry`'s result. */
CGN__COLD cgn_status cgn__txn_apply_failed(cgn__txn *txn, CUresult r, const char *what,
                                           const char *entry);
/* The mutation made by a typed setter the generated code called (spec: cuda.set, exec_set):
 * its result r, with the same rollback as cgn__txn_apply. */
static inline cgn_status cgn__txn_applied(cgn__txn *txn, CUresult r, const char *entry,
                                          const char *what) {
    return r == CUDA_SUCCESS ? CGN_OK : cgn__txn_apply_failed(txn, r, what, entry);
}

/* Publishes state (state_size bytes copied), storage and attachment, then releases what the
 * previous version no longer needs. Cannot fail. *node_out receives the node (add path). */
void cgn__txn_commit(cgn__txn *txn, const void *state, size_t state_size, cgn_node **node_out);
/* The new storage block replaces the current one (which becomes the spare when nothing else
 * holds it): cgn__txn_commit's step, also taken by the inline commit below. */
void cgn__txn_publish_storage(cgn__txn *txn);
/* cgn__txn_publish_storage for an update, with an update loop's steady state inline: the
 * replaced block is cgn's alone and the spare slot empty (the spare was just taken), so the
 * replaced block becomes the spare. */
CGN__ALWAYS_INLINE static inline void cgn__txn_publish_update_storage(cgn__txn *txn) {
    void *old = *txn->storage_slot;
    if (old != NULL && *txn->spare_slot == NULL && cgn__block_exclusive(old)) {
        *txn->storage_slot = txn->storage;
        *txn->spare_slot = old;
        return;
    }
    cgn__txn_publish_storage(txn);
}
/* A state copy in 8-byte words: for these sizes (a desc, 16-100 bytes) GCC may expand memcpy
 * into `rep movs`, whose start-up cost was a third of a kernel update's own time. */
static inline void cgn__copy_state(void *to, const void *from, size_t size) {
    unsigned char *d = to;
    const unsigned char *s = from;
    size_t i = 0;
#if defined(__GNUC__) && !defined(__clang__)
#pragma GCC unroll 32
#elif defined(__clang__)
#pragma unroll
#endif
    for (; i + 8 <= size; i += 8) {
        uint64_t w;
        memcpy(&w, s + i, 8);
        memcpy(d + i, &w, 8);
    }
    for (; i < size; i++)
        d[i] = s[i];
}
/* Zeroes `size` bytes (a multiple of 8) in 8-byte words: a memset or a copy from a zeroed
 * struct of a kernel member's size became `rep stos` / `rep movs` (see cgn__copy_state). */
CGN__ALWAYS_INLINE static inline void cgn__zero_words(void *to, size_t size) {
    unsigned char *d = to;
#if defined(__GNUC__) && !defined(__clang__)
#pragma GCC unroll 32
#elif defined(__clang__)
#pragma unroll
#endif
    for (size_t i = 0; i + 8 <= size; i += 8) {
        const uint64_t zero = 0;
        memcpy(d + i, &zero, 8);
    }
}
/* Whether committing has no context to put back (none was pushed, none has to be compared).
 * Then an update that set only fields kept as given (no owners, argument block or embedding can
 * change with them) commits by writing those fields back alone (docs/design.md, "Commits that
 * write back only the fields set"); cgn__txn_commit_update's inline case also asks it. */
static inline int cgn__txn_no_context_to_restore(const cgn__txn *txn) {
    return !txn->ctx_pushed && !txn->ctx_check;
}
/* cgn__txn_commit of an update, with the common case inline: the state and perhaps the
 * argument block change (no new owners or embedding, no context to restore), so publishing is
 * one copy and perhaps a block swap. */
static inline void cgn__txn_commit_update(cgn__txn *txn, const void *state, size_t state_size) {
    if (txn->embed_plan == NULL && !txn->new_attachment && cgn__txn_no_context_to_restore(txn) &&
        txn->attachment == cgn__txn_current_attachment(txn)) {
        cgn__copy_state(txn->cur_state, state, state_size);
        if (txn->storage_set)
            cgn__txn_publish_storage(txn);
        return;
    }
    cgn__txn_commit(txn, state, state_size, NULL);
}

/* Releases what the transaction prepared and restores the caller's context. Safe to call
 * after a failed apply (no-op then). */
CGN__COLD void cgn__txn_rollback(cgn__txn *txn);

/* Rollback for a failure found by generated code after cgn__txn_enter; returns st. */
static inline cgn_status cgn__txn_fail(cgn__txn *txn, cgn_status st) {
    cgn__txn_rollback(txn);
    return st;
}

/* ---- executables ---------------------------------------------------------------------------- */

/* Executable-level: retires the shadow's current attachment (the version launches up to now
 * may still read) and installs `next` (reference transferred). Under the exec's lock. */
void cgn__exec_install(cgn__exec_rec *e, cgn__shadow *s, cgn__attachment *next);
/* Resolves (exec, node) for executable-level calls: the executable's record, its copy of the
 * node and the node's record (NULL once the graph is gone: executable-level code never reads
 * it). A node destroyed in its graph is CGN_ERROR_DESTROYED; one not in the executable
 * CGN_ERROR_INVALID_ARGUMENT. */
cgn_status cgn__exec_node(cgn_exec *exec, cgn_node *node, const char *where,
                          cgn__exec_rec **e_out, cgn__shadow **s_out, void **record_out);
/* The shadow of `node` in the executable; NULL when the node is not part of it. Inline: every
 * executable-level update makes one lookup (open addressing, shadow index + 1, 0 empty). */
static inline size_t cgn__exec_hash(cgn__handle h) {
    return (size_t)((h * 0x9E3779B97F4A7C15ull) >> 32);
}
static inline cgn__shadow *cgn__exec_find(const cgn__exec_rec *e, cgn__handle node) {
    for (size_t i = cgn__exec_hash(node) & e->map_mask;; i = (i + 1) & e->map_mask) {
        uint32_t at = e->map[i];
        if (at == 0)
            return NULL;
        if (e->shadows[at - 1].node == node)
            return &e->shadows[at - 1];
    }
}
/* The common case of an executable-level update's start, inline: both handles live, the driver
 * past the gate (cuGraphExecNodeSetParams, since `since`; none when `since` <= 0) and the node an
 * updatable part of the executable, of `type`: its copy, with *e_out and *rec_out (the node's
 * record, NULL once the graph is gone); NULL for anything else, which the caller leaves to
 * cgn__exec_update_begin_checked (nothing reported here). */
CGN__ALWAYS_INLINE
static inline cgn__shadow *cgn__exec_update_shadow(cgn_exec *exec, cgn_node *node,
                                                   cgn_node_type type, int since,
                                                   cgn__exec_rec **e_out, void **rec_out) {
    void *e = NULL, *n = NULL;
    const cgn_driver_table *drv = cgn__driver;
    if (cgn__handle_lookup(exec, CGN__KIND_EXEC, &e) != CGN__LOOKUP_OK || e == NULL ||
        cgn__handle_lookup(node, CGN__KIND_NODE, &n) != CGN__LOOKUP_OK ||
        (since > 0 && (drv->version < since || drv->cuGraphExecNodeSetParams == NULL)))
        return NULL;
    cgn__shadow *s = cgn__exec_find(e, (cgn__handle)(uintptr_t)node);
    if (s == NULL || s->type != type || s->unsupported != NULL)
        return NULL;
    *e_out = e;
    *rec_out = n;
    return s;
}
/* Executable level, as cgn__lean_node: the executable's copy of `node`, of `type`, with no
 * owners, both handles live and the driver past the gate. */
CGN__ALWAYS_INLINE
static inline int cgn__lean_shadow(cgn__lean *l, cgn_exec *exec, cgn_node *node,
                                   cgn_node_type type, int since, int with_owners) {
    cgn__exec_rec *e = NULL;
    void *n = NULL;
    cgn__shadow *s = cgn__exec_update_shadow(exec, node, type, since, &e, &n);
    if (s == NULL || (!with_owners && s->attachment != NULL))
        return 0;
    l->ctx = s->ctx;
    l->state = s->state;
    l->storage = s->storage;
    l->raw = s->raw;
    l->exec = e->raw;
    l->rec = n;
    l->exec_rec = e;
    l->shadow = s;
    l->current_known = 0;
    cgn__collect_pending();
    return 1;
}
/* The transaction's start for the version a lean path resolved and then declined: what
 * cgn__update_begin / cgn__exec_update_begin do after their lookups (those the lean path made,
 * with the same checks). */
static inline void cgn__txn_start_lean(cgn__txn *txn, const cgn__lean *l) {
    cgn__txn_start_update(txn, l->rec, l->exec_rec, l->shadow);
    txn->ctx_known = l->current_known; /* asked once per update, as before */
    txn->known_current = l->current;
}
/* cgn__exec_update_begin_checked with the common case inline (both handles live, the node an
 * updatable part of the executable of `type`, a driver past the gate); the rest, and every
 * message, out of line. */
CGN__ALWAYS_INLINE
static inline cgn_status cgn__exec_update_begin(cgn__txn *txn, cgn_exec *exec, cgn_node *node,
                                                cgn_node_type type, int since,
                                                const char *where) {
    cgn__exec_rec *e = NULL;
    void *n = NULL;
    cgn__shadow *s = cgn__exec_update_shadow(exec, node, type, since, &e, &n);
    if (s == NULL)
        return cgn__exec_update_begin_checked(txn, exec, node, type, since, where);
    cgn__txn_start_update(txn, n, e, s);
    return CGN_OK;
}
/* After an exec-level child-graph update: re-takes the shadows of the nodes inside child
 * `s` from `source` (paired in insertion order). Cannot fail (prepared by the check below). */
void cgn__exec_retake_child(cgn__exec_rec *e, cgn__shadow *s, const cgn__graph_rec *source);
/* Executable-level child-graph rule: `source` must have the topology of the executable's copy
 * of child `s` (same live nodes in order, same types, same dependencies). */
cgn_status cgn__exec_check_child_topology(const cgn__exec_rec *e, const cgn__shadow *s,
                                          const cgn__graph_rec *source, const char *where);

/* Destroyed executables' versions waiting for their last launch (exec.c): released by
 * cgn__graves_collect once its fence completed; returns how many were released. */
size_t cgn__graves_collect(void);

/* ---- growable arrays ------------------------------------------------------------------------ */

/* Makes room for `need` elements of elem_size in *array (capacity *cap, doubling from `first`),
 * before a mutation so that commit never allocates. CGN_ERROR_OUT_OF_MEMORY with a message
 * naming `where` when realloc fails or the size overflows; *array and *cap are then unchanged. */
cgn_status cgn__reserve(void *array, size_t *cap, size_t need, size_t elem_size, size_t first,
                        const char *where);

/* ---- storage blocks and embeddings --------------------------------------------------------- */

/* Storage blocks are refcounted so that copies in embeddings and executables share them. */
void cgn__block_retain(void *block);
void cgn__block_release(void *block);

/* Child-graph field codec: checks the source (alive, another hierarchy) and prepares, before
 * the mutation, the records of the embedded copy (every allocation happens here). At
 * executable level it checks the executable-update rule instead. */
cgn_status cgn__stage_child_graph(cgn__txn *txn, cgn_graph *source, CUgraph *raw_out,
                                  const char *where);
/* After the mutation (cannot fail): retires the old embedded records, publishes the new ones
 * and locates their raw handles. Called by cgn__txn_commit. */
void cgn__commit_embedding(cgn__txn *txn);
/* Conditional nodes (conditional.c). Bodies (field kind cond_bodies): refuses a graph CUDA
 * cloned into a child-graph node, then prepares the records of `count` bodies (txn->embed_plan,
 * chained; the spec's rules bound count) and where the driver returns the bodies
 * (txn->bodies). Handle (cond_handle): gates to 12.3 and creates the handle in the node's graph
 * and context; CUDA cannot destroy one, so it is the last step that can fail before the add. */
cgn_status cgn__stage_cond_bodies(cgn__txn *txn, uint32_t count, CUgraph **bodies_out,
                                  const char *where);
cgn_status cgn__stage_cond_handle(cgn__txn *txn, uint32_t default_value, uint32_t assign,
                                  CUgraphConditionalHandle *handle_out, const char *where);
/* Body `index` as the driver returned it after the add (NULL if it returned none). */
CUgraph cgn__committed_body(const cgn__txn *txn, uint32_t index);
/* A conditional node in g or in any graph embedded in it, or NULL (CUDA cannot clone them). */
const cgn__node_rec *cgn__graph_conditional_node(const cgn__graph_rec *g);
/* Frees prepared records (rollback). */
void cgn__discard_embedding(cgn__graph_rec *plan);
/* Frees an embedded graph's records and handles (CUDA destroyed the clone). */
void cgn__retire_embedded(cgn__graph_rec *graph);
/* Frees a node record (not its handle) and drops its storage references. */
void cgn__node_free(cgn__node_rec *node);
/* Frees a graph record, its nodes and embeddings; with keep_handles the node handles stay
 * valid (appended to *kept) for executables that outlive the graph. */
void cgn__graph_free_records(cgn__graph_rec *g, cgn__handle **kept, size_t *num_kept);

/* Hierarchy references (graph.c). */
void cgn__hier_unref(cgn__hier *h);

/* ---- field codecs: work on one field kind, never on a node type's names ------------------- */

/* Checks a kernel handle (exactly one of function/kernel) and its arguments (non-NULL values of
 * non-zero size, sizes that fit; where the driver has cu{Func,Kernel}GetParamInfo, 12.4+, their
 * count and sizes against the kernel), then copies the arguments into the txn's storage block:
 * *args_copy_out points at a copy of the cgn_arg array whose values point into the block,
 * *params_out at the kernelParams pointer array (NULL for zero arguments). The kernel's
 * parameter sizes are cached in the block, so an update of arguments alone makes no driver
 * call here. */
cgn_status cgn__stage_kernel_args(cgn__txn *txn, cgn_kernel kernel, const cgn_arg *args,
                                  uint32_t num_args, const cgn_arg **args_copy_out,
                                  void ***params_out, const char *where);

/* The steady state of a loop that sets every argument of an unchanged kernel, none of them
 * owned: when every argument has the kernel's size (cached in the current block, 12.4+), has a
 * value and no owner, and the spare block was written for this same layout, takes the spare,
 * writes the values into it and returns its kernelParams array (*copies_out: the cgn_arg
 * copies). NULL, with nothing taken, when any of that does not hold: the caller then takes the
 * general path (cgn__stage_kernel_args), which says what is wrong. */
void **cgn__stage_kernel_args_unowned(cgn__txn *txn, cgn_kernel kernel, const cgn_arg *args,
                                      uint32_t num_args, const cgn_arg **copies_out);

/* Whether an update's argument-level edits, within the bound, leave every argument they
 * replace without an owner (the edits' own path needs no owner staging). */
static inline int cgn__arg_edits_unowned(const cgn_arg_edits *edits) {
    if (edits->count > CGN_MAX_ARG_EDITS)
        return 0;
    for (uint32_t i = 0; i < edits->count; i++)
        if (edits->edit[i].owner != NULL)
            return 0;
    return 1;
}

/* The kernelParams array of the current argument block, for an update that keeps the
 * arguments (NULL if none). CGN_ERROR_NOT_SUPPORTED when the node was adopted with arguments
 * cgn could not copy: only an update setting every argument is accepted then. */
cgn_status cgn__keep_kernel_args(const cgn__txn *txn, void ***params_out, const char *where);

/* The bytes in-place argument writes replaced, to put back when the driver refuses the update
 * (cgn__args_undo_apply): each argument written is at most CGN__IN_PLACE_MAX_SIZE bytes, so its
 * slot in the block is 16 bytes, 16-aligned, saved whole. */
#define CGN__IN_PLACE_MAX_SIZE 16u
typedef struct cgn__args_undo {
    uint32_t count; /* slots saved (0: nothing written in place) */
    uint64_t *slot[CGN_MAX_ARG_EDITS];
    uint64_t bytes[CGN_MAX_ARG_EDITS][2];
} cgn__args_undo;

/* An update loop's argument writes into the current block itself, without a second block: only
 * where that block is cgn's alone (no executable or embedding shares it), the kernel's sizes are
 * known, every argument written is at most CGN__IN_PLACE_MAX_SIZE bytes with the kernel's size,
 * a value that does not point into the block, and no owner (the node has none either: the
 * caller checks). The bytes replaced go into *undo, which must be empty (count 0). Returns the
 * block's kernelParams array; NULL, with nothing changed, when any of that does not hold: the
 * caller then takes the two-block path, which says what is wrong. Whole argument list of the
 * unchanged kernel: */
void **cgn__args_in_place(const void *storage, cgn_kernel kernel, const cgn_arg *args,
                          uint32_t num_args, cgn__args_undo *undo);
/* ... argument-level edits (the other arguments kept): */
void **cgn__arg_edits_in_place(const void *storage, const cgn_arg_edits *edits,
                               cgn__args_undo *undo);
/* ... and one argument (the one-call form's edit). */
void **cgn__arg_in_place(const void *storage, uint32_t index, const void *value, size_t size,
                         const cgn_owner *owner, cgn__args_undo *undo);
/* The lean path's kernelParams for an update that keeps the arguments: 1 with *params_out the
 * block's array (NULL without arguments); 0 for adopted arguments cgn could not copy (the
 * transaction's path refuses the update then, with its message). */
int cgn__keep_kernel_args_lean(const void *storage, void ***params_out);
/* Puts back what an in-place write replaced (the driver refused the update). */
void cgn__args_undo_apply(const cgn__args_undo *undo);

/* A version's owners in the spec's `owners` order: the owner fields given that are set, then
 * the arguments' that are set. Written to out (unless NULL); returns how many there are. */
static inline size_t cgn__owner_list(cgn_owner **out, cgn_owner *const *owners, size_t num_owners,
                                     const cgn_arg *args, size_t num_args) {
    size_t k = 0;
    for (size_t i = 0; i < num_owners; i++)
        if (owners[i] != NULL) {
            if (out != NULL)
                out[k] = owners[i];
            k++;
        }
    for (size_t i = 0; i < num_args; i++)
        if (args[i].owner != NULL) {
            if (out != NULL)
                out[k] = args[i].owner;
            k++;
        }
    return k;
}
/* Replaces attachment a's owners with the `count` given (already retained), in place; the
 * ones replaced go to released[] (CGN__REUSE_OWNERS slots), for the caller to release. Returns
 * how many. */
static inline size_t cgn__attachment_replace_owners(cgn__attachment *a, cgn_owner *const *owners,
                                                    size_t count, cgn_owner **released) {
    size_t old = a->num_owners;
    memcpy(released, a->owners, old * sizeof *released);
    memcpy(a->owners, owners, count * sizeof *owners);
    a->num_owners = count;
    return old;
}

/* Whether definition version attachment `a` of node n is the graph's alone, so that the next
 * version may take it over with `count` owners, replacing them in place: no executable, clone
 * or embedding can hold its user object (the hierarchy was not shared with the driver since it
 * was made: share_epoch), no code outside cgn can have instantiated the graph (no raw handle
 * left cgn), no cgn record but the node refers to it, and it has the room. */
static inline int cgn__attachment_graphs_alone(const cgn__node_rec *n, const cgn__attachment *a,
                                               size_t count) {
    return a != NULL && a->object != NULL && count <= a->cap_owners && count <= CGN__REUSE_OWNERS &&
           a->num_owners <= CGN__REUSE_OWNERS && a->share_epoch == n->graph->root->share_epoch &&
           !cgn__node_reachable_raw(n) && atomic_load_explicit(&a->refs, memory_order_acquire) == 1;
}

/* The owners an in-place argument write with owners stages for the version's attachment
 * (cgn__args_in_place_owned): the new list, retained; the arguments' owners it replaced in the
 * block, to put back. */
typedef struct cgn__owner_swap {
    cgn__attachment *attachment;
    size_t count; /* owners staged; 0: none (nothing to commit or drop) */
    cgn_owner *owners[CGN__REUSE_OWNERS];
    cgn_arg *copies; /* the block's argument copies written */
    uint32_t num_args;
    cgn_owner *replaced[CGN_MAX_ARG_EDITS];
} cgn__owner_swap;
/* The definition's whole-argument lean path when the version has owners (generated code): the
 * arguments written in place as cgn__args_in_place does, owners allowed, when the version's
 * attachment is the graph's alone (cgn__attachment_graphs_alone) and the new version has
 * owners: `fixed` (the node type's other owner fields, in the spec's order) and then the
 * arguments'. Returns the block's kernelParams with the new owners retained into *swap; NULL,
 * nothing changed, otherwise (the transaction's path then takes the update). */
void **cgn__args_in_place_owned(const cgn__lean *l, cgn_kernel kernel, const cgn_arg *args,
                                uint32_t num_args, cgn_owner *const *fixed, size_t num_fixed,
                                cgn__args_undo *undo, cgn__owner_swap *swap);
/* After the driver accepted the arguments: the attachment takes the staged owners, and the ones
 * they replace are released. */
void cgn__lean_owners_commit(cgn__owner_swap *swap);
/* After the driver refused them: the bytes and owners written go back, the staged owners are
 * released. */
void cgn__lean_owners_undo(cgn__owner_swap *swap, const cgn__args_undo *undo);

/* Argument-level update: the argument block this update builds (when kernel or args were set
 * too) or a copy of the current one (one memcpy of the block, never the driver's or a shared
 * block), with each edit's bytes and owner replacing its argument's. Sizes must match the
 * kernel's (cached from the driver, 12.4+). *args_inout and *params_out then point into the
 * new block. */
cgn_status cgn__stage_arg_edits(cgn__txn *txn, const cgn_arg_edits *edits,
                                const cgn_arg **args_inout, void ***params_out,
                                const char *where);

/* Reading a kernel node (adoption, refresh). */
/* The kernel a node read back from the driver launches: func, else kern (the driver uses kern
 * only when func is NULL). `prev` (a refresh; NULL on adopt): when the node still launches
 * the same kernel in another form (the H200 reads a CUkernel node back as the CUkernel's
 * CUfunction in the node's context), prev's form is kept, so its owner is kept too. */
cgn_kernel cgn__read_kernel_handle(const CUDA_KERNEL_NODE_PARAMS_v3 *params,
                                   const cgn_kernel *prev);
/* Copies the arguments of a kernel node read from the driver (its kernelParams, or the buffer
 * packed through `extra`) into a new storage block (rd->storage), using the kernel's parameter
 * sizes and offsets (12.4+; cached in rd->layouts). Without them, or with an `extra` cgn cannot
 * parse, the block records why and *num_out is 0: updates must then set every argument.
 * prev/num_prev (a refresh): arguments whose bytes did not change keep their owners. */
cgn_status cgn__read_kernel_args(cgn__reader *rd, cgn_kernel kernel,
                                 const CUDA_KERNEL_NODE_PARAMS_v3 *params, const cgn_arg *prev,
                                 uint32_t num_prev, const cgn_arg **args_out, uint32_t *num_out,
                                 const char *where);
/* A reader's layout cache: new (NULL when out of memory) and free. */
cgn__layouts *cgn__layouts_new(void);
void cgn__layouts_free(cgn__layouts *layouts);
/* The kernel a kernel node's storage block is for; 0 when storage is NULL. */
int cgn__storage_kernel(const void *storage, cgn_kernel *kernel_out);
/* Why an adopted kernel node's arguments could not be copied; NULL when they were. */
const char *cgn__storage_opaque(const void *storage);

/* Fills func/kern of a kernel node's params for a kernel handle (ctx comes from the node's
 * recorded context, the spec's context_field; the driver ignores it for a CUfunction). */
void cgn__set_kernel_handle(CUDA_KERNEL_NODE_PARAMS_v3 *params, cgn_kernel kernel);

/* The memory type a copy operand is read or written as, asked of the driver once when the
 * operand is set: CU_MEMORYTYPE_DEVICE for device and managed memory, CU_MEMORYTYPE_HOST for
 * pinned host memory and for addresses the driver does not know (CUDA_ERROR_INVALID_VALUE:
 * pageable host memory). Another driver error is CGN_ERROR_DRIVER; another memory type (an
 * array) CGN_ERROR_NOT_SUPPORTED. An address the driver does not know that lies in a memory
 * allocation node of the node's graph (definition level) is device memory: the driver maps a
 * graph allocation at its first launch only. `field` names the operand in messages. */
cgn_status cgn__detect_memory_type(const cgn__txn *txn, CUdeviceptr address,
                                   CUmemorytype *type_out, const char *field, const char *where);
/* For a host operand (spec `host_extent`): the copy touches the bytes from address + first to
 * address + last; they must be mapped host memory, and writable where `writes` (a destination),
 * or the launch would fault in the driver's staging copy (CGN_ERROR_INVALID_VALUE, naming the
 * byte or the range), and address + last must not wrap (CGN_ERROR_OUT_OF_RANGE). Both ends are
 * probed; between them, only that every page is mapped (a PROT_NONE page inside the range is
 * not seen). Each thread remembers its last few checked extents, so a size that moves within
 * one makes no system call. */
cgn_status cgn__check_host_extent(CUdeviceptr address, size_t first, size_t last, int writes,
                                  const char *field, const char *where);

/* Raw CUDA handles the driver dereferences (events, arrays, kernels, raw graphs and executables)
 * and host functions a CUDA thread calls: one whose address is not mapped memory (a garbage
 * value, a cgn handle passed as a CUDA one) would crash the process in the driver, so it is
 * refused first (CGN_ERROR_INVALID_VALUE naming `field`). Each thread remembers the handles it
 * found mapped (64 slots, by address), so an update loop over a ring of events or kernels makes
 * no system call. A destroyed handle whose memory is still mapped is not seen (docs/nodes.md).
 * NULL is the caller's to refuse or allow. */
#define CGN__HANDLE_CACHE 64 /* direct-mapped: a ring of events or kernels stays cached */
extern _Thread_local const void *cgn__mapped_handles[CGN__HANDLE_CACHE];
CGN__ALWAYS_INLINE static inline size_t cgn__mapped_slot(const void *handle) {
    const uintptr_t v = (uintptr_t)handle; /* CUDA's handles are 16-byte aligned heap objects */
    return (size_t)((v >> 4) ^ (v >> 10)) & (CGN__HANDLE_CACHE - 1);
}
cgn_status cgn__probe_raw_handle(const void *handle, const char *field, const char *where);
CGN__ALWAYS_INLINE static inline cgn_status
cgn__check_raw_handle(const void *handle, const char *field, const char *where) {
    if (cgn__mapped_handles[cgn__mapped_slot(handle)] == handle)
        return CGN_OK;
    return cgn__probe_raw_handle(handle, field, where);
}

/* Copies `size` bytes into a new cgn-owned block held by a new owner (release: free), for a
 * field whose bytes must outlive the call (a host callback's payload): *copy_out points at the
 * copy, *owner_out holds the one reference, the caller's, to drop with cgn__release_staged_copy
 * once the staged attachment retains the owner (or staging failed). size 0 gives NULL and NULL,
 * whatever `bytes` is. Nothing is allocated on failure. */
cgn_status cgn__stage_bytes_copy(const void *bytes, size_t size, const void **copy_out,
                                 cgn_owner **owner_out, const char *field, const char *where);
/* cgn__stage_bytes_copy with "no bytes" inline: an update of a host function without a payload
 * makes no call here. */
static inline cgn_status cgn__stage_bytes(const void *bytes, size_t size, const void **copy_out,
                                          cgn_owner **owner_out, const char *field,
                                          const char *where) {
    if (size == 0) { /* a zero-length payload is no payload: the driver gets NULL */
        *copy_out = NULL;
        *owner_out = NULL;
        return CGN_OK;
    }
    return cgn__stage_bytes_copy(bytes, size, copy_out, owner_out, field, where);
}
/* Batch memory operations (field kind mem_ops). Check: ops not NULL (INVALID_ARGUMENT), 1 to
 * CGN_MAX_MEM_OPS of them (INVALID_VALUE, OUT_OF_RANGE), each a known type with an aligned
 * non-zero address (writes and waits) and flags it takes (INVALID_VALUE, naming the index).
 * Stage: copies checked operations into the txn's storage block, every byte a type does not
 * use zeroed; *copy_out points at the copy. Read (adoption, refresh): copies the driver's array
 * into a block of its own (rd->storage); an unknown type makes the node not updatable. */
cgn_status cgn__check_mem_ops(const CUstreamBatchMemOpParams *ops, uint32_t count,
                              const char *field, const char *where);
cgn_status cgn__stage_mem_ops(cgn__txn *txn, const CUstreamBatchMemOpParams *ops, uint32_t count,
                              const CUstreamBatchMemOpParams **copy_out, const char *field,
                              const char *where);
cgn_status cgn__read_mem_ops(cgn__reader *rd, const CUstreamBatchMemOpParams *ops,
                             unsigned int count, const CUstreamBatchMemOpParams **ops_out,
                             uint32_t *count_out, const char *where);
/* Copied arrays (field kinds made by fieldtypes.py's copied_arrays): `nparts` parallel arrays
 * of `count` elements each (the semaphores and their parameters of an external semaphore node),
 * part i of elements `size[i]` bytes. Check: no part NULL (INVALID_ARGUMENT), 1 to `max`
 * elements (INVALID_VALUE, OUT_OF_RANGE naming `max_name`); `noun` names one element (the
 * messages add an "s"). Batch memory operations (mem_ops) use them too. Stage:
 * copies every part into one txn storage block (*out[i] points at part i's copy; the sources
 * may lie in the block being reused). Read (adoption, refresh): the same into a block of its
 * own (rd->storage); a NULL part or count 0 gives NULLs and leaves rd->storage alone. */
cgn_status cgn__check_arrays(const void *const *parts, size_t nparts, uint32_t count, uint32_t max,
                             const char *max_name, const char *field, const char *noun,
                             const char *where);
cgn_status cgn__stage_arrays(cgn__txn *txn, uint32_t count, size_t nparts, const void *const *src,
                             const size_t *size, void **out, const char *field, const char *where);
cgn_status cgn__read_arrays(cgn__reader *rd, size_t count, size_t nparts, const void *const *src,
                            const size_t *size, void **out);
/* Element check of an array of `count` handles (CUexternalSemaphore...) of `size` bytes: none
 * NULL, i.e. all zero bytes (INVALID_VALUE, naming the index). */
cgn_status cgn__check_handles(const void *handles, size_t size, uint32_t count, const char *field,
                              const char *where);
/* Rule function: the installed driver's version (cuDriverGetVersion form: 12080 is 12.8), for
 * rules that gate a form of a node to a driver; INT_MAX before any driver is installed
 * (driver.c). */
int cgn__driver_version(void);
/* Rule functions (codegen/cgn_codegen/cexpr.py RULE_FUNCTIONS) for the executable rules: the
 * index of the first of n operations whose type differs, or that differs in something an
 * executable cannot change (a write's flags, a wait's flush bit, a flush or barrier); n when
 * none does. And a type's name for messages. */
uint32_t cgn__mem_ops_type_change(const CUstreamBatchMemOpParams *a,
                                  const CUstreamBatchMemOpParams *b, uint32_t n);
uint32_t cgn__mem_ops_fixed_change(const CUstreamBatchMemOpParams *a,
                                   const CUstreamBatchMemOpParams *b, uint32_t n);
const char *cgn__mem_op_name(CUstreamBatchMemOpType type);

/* Drops the reference cgn__stage_bytes gave its caller. With the owner retained by a staged
 * attachment the copy lives on with that version; otherwise it is freed now. NULL: no-op. */
static inline void cgn__release_staged_copy(cgn_owner *owner) {
    if (owner != NULL)
        cgn__owner_release(owner);
}

/* The node check before every definition-level memcpy update: reads the node's descriptor
 * back with cuGraphMemcpyNodeGetParams and fails with CGN_ERROR_NOT_SUPPORTED, changing
 * nothing, unless it is a plain 1-D copy between host and device memory (no offsets, pitches,
 * arrays or LOD; Height = Depth = 1), the only form cgn builds. A node changed behind cgn's
 * back into another form is refused rather than silently flattened. Executable-level updates
 * skip it: they never read the definition. */
cgn_status cgn__check_memcpy_1d(const cgn__txn *txn, const char *where);
/* The same check on params read for adoption: NULL for a plain 1-D host/device copy, else why
 * cgn cannot update the node (static text naming the form). */
const char *cgn__memcpy_1d_form(const CUgraphNodeParams *params);

/* The node check before every definition-level memcpy_3d update: reads the descriptor back
 * and fails with CGN_ERROR_NOT_SUPPORTED, changing nothing, unless each operand is host,
 * device or array memory, no mipmap level is named and the reserved fields are NULL (the
 * forms cgn builds). Executable-level updates skip it. */
cgn_status cgn__check_memcpy_3d(const cgn__txn *txn, const char *where);
/* The same check on params read for adoption: NULL when cgn records the copy as memcpy_3d,
 * else why not (static text). */
const char *cgn__memcpy_3d_form(const CUgraphNodeParams *params);

/* ---- graphs built elsewhere (adopt.c) ------------------------------------------------------- */

/* An executable record for `raw`, an executable instantiated outside cgn from g (exec.c):
 * copies of the nodes from g's records, launches through raw assumed (raw_exposed).
 * borrowed: cgn_exec_destroy leaves raw to the caller. */
cgn_status cgn__exec_wrap(cgn__graph_rec *g, CUgraphExec raw, int borrowed, cgn_exec **exec_out,
                          const char *where);
/* "cgn_memcpy_node_update: node 0x.. cannot be updated: it is ..." for an unsupported node. */
CGN__COLD cgn_status cgn__unsupported(const void *node, const char *why, const char *where);

#endif /* CGN_RUNTIME_RUNTIME_H */
