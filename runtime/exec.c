/* Executables: instantiation, each executable's own copy of its nodes (shadows), launches,
 * bounded retention of superseded executable-level versions, whole-graph refresh,
 * enable/disable and destruction.
 *
 * Retention. An executable-level update that changes a node's owners retires the previous
 * version: launches made before the update may still read it. Launches of one executable run
 * one after another (CUDA orders them), so a retired version can go once the last launch made
 * before it was retired has completed. cgn_exec_launch counts launches and, only while retired
 * versions wait, records an event after the launch (a fence). Fences are polled at the
 * executable's own cgn calls and in cgn_collect() (any thread), and completed versions are
 * released there, on a user thread. A launch through the raw handle (cgn_exec_raw) is invisible
 * to cgn, so once the raw handle has been taken nothing is released before the executable is
 * destroyed.
 *
 * Destruction. CUDA frees an executable, and drops the user-object references it holds (its
 * copies of the graph's versions), once its last launch has completed. What cgn alone holds
 * (executable-level and retired versions) is covered by fences: while any exists, every launch
 * is fenced, and a destroyed executable's versions go to a graveyard entry released when its
 * last fence completes. No user object of cgn's is held by an executable: one makes every
 * launch slower (docs/performance.md).
 *
 * Adopted executables (cgn_exec_adopt, instantiated outside cgn) and those whose raw handle was
 * taken have launches cgn cannot see (raw_exposed): cgn_exec_destroy waits for their context
 * before releasing versions only cgn holds (and leaves a borrowed raw executable alone). */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "runtime.h"

/* Executables with retired versions waiting, for cgn_collect(): under cgn__listed_mutex. */
static cgn__exec_rec *cgn__listed;
static pthread_mutex_t cgn__listed_mutex = PTHREAD_MUTEX_INITIALIZER;

cgn_status cgn__exec_get(const cgn_exec *exec, const char *where, cgn__exec_rec **out) {
    void *rec = NULL;
    cgn__lookup r = cgn__handle_lookup(exec, CGN__KIND_EXEC, &rec);
    if (r != CGN__LOOKUP_OK)
        return cgn__lookup_failed(r, exec, "exec", where);
    *out = rec;
    return CGN_OK;
}

cgn__exec_rec *cgn__exec_record(const cgn_exec *exec) {
    void *rec = NULL;
    return cgn__handle_lookup(exec, CGN__KIND_EXEC, &rec) == CGN__LOOKUP_OK ? rec : NULL;
}

/* ---- shadows -------------------------------------------------------------------------------- */


/* A set of shadows being built (instantiation, refresh): all memory taken before any
 * driver call, so building can fail without side effects. */
typedef struct cgn__shadow_set {
    cgn__shadow *shadows;
    size_t num_shadows;
    uint32_t *deps_pool;
    size_t num_deps_pool;
    uint32_t *map;
    size_t map_mask;
} cgn__shadow_set;

static void cgn__count_subtree(const cgn__graph_rec *g, size_t *nodes, size_t *deps) {
    for (size_t i = 0; i < g->num_nodes; i++) {
        *nodes += 1;
        *deps += g->nodes[i]->num_deps;
        CGN__FOR_EMBEDDED(inner, g->nodes[i])
            cgn__count_subtree(inner, nodes, deps);
    }
}

static void cgn__set_insert(cgn__shadow_set *set, uint32_t index) {
    cgn__handle key = set->shadows[index].node;
    size_t i = cgn__exec_hash(key) & set->map_mask;
    while (set->map[i] != 0)
        i = (i + 1) & set->map_mask;
    set->map[i] = index + 1;
}

static uint32_t cgn__set_index(const cgn__shadow_set *set, cgn__handle node) {
    for (size_t i = cgn__exec_hash(node) & set->map_mask;; i = (i + 1) & set->map_mask) {
        uint32_t at = set->map[i];
        if (at == 0 || set->shadows[at - 1].node == node)
            return at ? at - 1 : UINT32_MAX;
    }
}

/* One shadow per live node of g's subtree, depth first in insertion order (states were
 * allocated by the caller's sizing pass; here they are filled). */
static void cgn__fill_shadows(cgn__shadow_set *set, const cgn__graph_rec *g, uint32_t parent,
                              uint32_t body, uint64_t installed_at) {
    for (size_t i = 0; i < g->num_nodes; i++) {
        const cgn__node_rec *n = g->nodes[i];
        uint32_t index = (uint32_t)set->num_shadows++;
        cgn__shadow *s = &set->shadows[index];
        s->node = n->handle;
        s->raw = n->raw;
        s->type = n->type;
        s->ctx = n->ctx;
        s->state_size = n->state_size;
        memcpy(s->state, n->state, n->state_size);
        s->storage = n->storage;
        cgn__block_retain(s->storage);
        s->spare = NULL;
        s->attachment = n->attachment;
        if (s->attachment != NULL)
            cgn__attachment_ref(s->attachment);
        s->unsupported = n->unsupported;
        s->installed_at = installed_at;
        s->parent = parent;
        s->body = body;
        s->deps_at = (uint32_t)set->num_deps_pool;
        s->num_deps = (uint32_t)n->num_deps;
        cgn__set_insert(set, index);
        for (size_t k = 0; k < n->num_deps; k++) /* dependencies come first: already indexed */
            set->deps_pool[set->num_deps_pool++] = cgn__set_index(set, n->deps[k]);
        /* A conditional node's bodies follow one another, all with the node as parent. */
        uint32_t b = 0;
        CGN__FOR_EMBEDDED(inner, n)
            cgn__fill_shadows(set, inner, index + 1, b++, installed_at);
    }
}

static void cgn__set_free(cgn__shadow_set *set, size_t num_states) {
    for (size_t i = 0; i < set->num_shadows; i++) {
        cgn__shadow *s = &set->shadows[i];
        cgn__block_release(s->storage);
        cgn__block_release(s->spare);
        if (s->attachment != NULL)
            cgn__attachment_unref(s->attachment);
    }
    for (size_t i = 0; set->shadows != NULL && i < num_states; i++)
        free(set->shadows[i].state);
    free(set->shadows);
    free(set->deps_pool);
    free(set->map);
    memset(set, 0, sizeof *set);
}

static void cgn__size_states(const cgn__graph_rec *g, cgn__shadow *shadows, size_t *at) {
    for (size_t i = 0; i < g->num_nodes; i++) {
        shadows[(*at)++].state_size = g->nodes[i]->state_size;
        CGN__FOR_EMBEDDED(inner, g->nodes[i])
            cgn__size_states(inner, shadows, at);
    }
}

/* Builds the shadows of g's subtree. On failure (out of memory) nothing is left allocated. */
static cgn_status cgn__set_build(cgn__shadow_set *set, const cgn__graph_rec *g,
                                 uint64_t installed_at, const char *where) {
    memset(set, 0, sizeof *set);
    size_t nodes = 0, deps = 0;
    cgn__count_subtree(g, &nodes, &deps);
    if (nodes >= UINT32_MAX / 4 || deps >= UINT32_MAX)
        return cgn__fail(CGN_ERROR_OUT_OF_RANGE, "%s: %zu nodes is more than cgn supports in "
                                                 "one executable", where, nodes);
    size_t cap = 4;
    while (cap < 2 * nodes)
        cap *= 2;
    set->shadows = calloc(nodes ? nodes : 1, sizeof *set->shadows);
    set->deps_pool = malloc((deps ? deps : 1) * sizeof *set->deps_pool);
    set->map = calloc(cap, sizeof *set->map);
    set->map_mask = cap - 1;
    size_t states = 0;
    int ok = set->shadows != NULL && set->deps_pool != NULL && set->map != NULL;
    if (ok) {
        size_t at = 0;
        cgn__size_states(g, set->shadows, &at);
        for (; states < nodes; states++) {
            size_t size = set->shadows[states].state_size;
            set->shadows[states].state = malloc(size ? size : 1);
            if (set->shadows[states].state == NULL) {
                ok = 0;
                break;
            }
        }
    }
    if (!ok) {
        cgn__set_free(set, states);
        return cgn__fail(CGN_ERROR_OUT_OF_MEMORY, "%s: out of host memory", where);
    }
    cgn__fill_shadows(set, g, 0, 0, installed_at);
    return CGN_OK;
}

/* ---- retention --------------------------------------------------------------------------- */

/* Moves the executable onto or off the list cgn_collect() polls. Under e->lock. */
static void cgn__exec_relist(cgn__exec_rec *e) {
    int want = e->num_retired > 0 && !e->raw_exposed;
    if (want == e->listed)
        return;
    pthread_mutex_lock(&cgn__listed_mutex);
    if (want) {
        e->prev_listed = NULL;
        e->next_listed = cgn__listed;
        if (cgn__listed)
            cgn__listed->prev_listed = e;
        cgn__listed = e;
    } else {
        if (e->prev_listed)
            e->prev_listed->next_listed = e->next_listed;
        else
            cgn__listed = e->next_listed;
        if (e->next_listed)
            e->next_listed->prev_listed = e->prev_listed;
        e->next_listed = e->prev_listed = NULL;
    }
    e->listed = want;
    pthread_mutex_unlock(&cgn__listed_mutex);
}

/* Polls the fences in order; returns the newest launch known complete. Under e->lock. */
static void cgn__exec_poll(cgn__exec_rec *e) {
    const cgn_driver_table *drv = cgn__driver;
    while (e->num_fences > 0) {
        cgn__fence *f = &e->fences[e->fence_head];
        if (drv->cuEventQuery(f->event) != CUDA_SUCCESS)
            break; /* not ready (or unknown): not known complete */
        e->completed = f->seq;
        if (e->num_idle < e->cap_idle ||
            cgn__reserve(&e->idle_events, &e->cap_idle, e->num_idle + 1, sizeof *e->idle_events,
                         8, "polling fences") == CGN_OK)
            e->idle_events[e->num_idle++] = f->event; /* reused by the next fence */
        else
            (void)drv->cuEventDestroy(f->event);
        e->fence_head = (e->fence_head + 1) % e->cap_fences;
        e->num_fences--;
    }
}

/* Retired versions whose launches completed, moved to `out` (room for num_retired). Under
 * e->lock; the caller unrefs them after unlocking (release callbacks run user code). */
static size_t cgn__exec_take_completed(cgn__exec_rec *e, cgn__attachment **out) {
    size_t n = 0;
    while (e->num_retired > 0 && e->retired[e->retired_head].seq <= e->completed) {
        out[n++] = e->retired[e->retired_head].attachment;
        e->retired_head = (e->retired_head + 1) % e->cap_retired;
        e->num_retired--;
    }
    cgn__exec_relist(e);
    return n;
}

/* Appends to a ring buffer of `elem` bytes per entry, growing it (unrolled to the front). */
static int cgn__ring_push(void **ring, size_t *head, size_t *count, size_t *cap, size_t elem,
                          const void *value) {
    if (*count == *cap) {
        size_t ncap = *cap ? 2 * *cap : 8;
        unsigned char *grown = malloc(ncap * elem);
        if (grown == NULL)
            return 0;
        for (size_t i = 0; i < *count; i++)
            memcpy(grown + i * elem, (unsigned char *)*ring + ((*head + i) % *cap) * elem, elem);
        free(*ring);
        *ring = grown;
        *head = 0;
        *cap = ncap;
    }
    memcpy((unsigned char *)*ring + ((*head + *count) % *cap) * elem, value, elem);
    (*count)++;
    return 1;
}

/* Releases what completed launches no longer need; user thread. */
static void cgn__exec_release_completed(cgn__exec_rec *e) {
    pthread_mutex_lock(&e->lock);
    cgn__attachment *stack[16];
    cgn__attachment **out = e->num_retired <= 16 ? stack : malloc(e->num_retired * sizeof *out);
    if (out == NULL) {
        pthread_mutex_unlock(&e->lock);
        return; /* try again at the next call */
    }
    cgn__exec_poll(e);
    size_t done = cgn__exec_take_completed(e, out);
    pthread_mutex_unlock(&e->lock);
    for (size_t i = 0; i < done; i++)
        cgn__attachment_unref(out[i]);
    if (out != stack)
        free(out);
}

void cgn__exec_install(cgn__exec_rec *e, cgn__shadow *s, cgn__attachment *next) {
    cgn__attachment *old = s->attachment;
    s->attachment = next;
    pthread_mutex_lock(&e->lock);
    /* Versions set at executable level are held by cgn alone (CUDA holds copies of the
     * graph's): while one is installed, every launch is fenced (see cgn_exec_launch). */
    e->cgn_only += (next != NULL && next->object == NULL) - (old != NULL && old->object == NULL);
    uint64_t seen_from = s->installed_at;
    s->installed_at = e->launches;
    if (old == NULL || (!e->raw_exposed && e->launches == seen_from)) {
        size_t waiting = e->num_retired;
        pthread_mutex_unlock(&e->lock); /* no launch has seen the old version */
        if (old != NULL)
            cgn__attachment_unref(old);
        if (waiting > 0)
            cgn__exec_release_completed(e); /* as every call that installs a version does */
        return;
    }
    /* Launches up to now may read the old version: it waits for them. */
    cgn__retired r = {old, e->raw_exposed ? UINT64_MAX : e->launches};
    if (!cgn__ring_push((void **)&e->retired, &e->retired_head, &e->num_retired,
                        &e->cap_retired, sizeof r, &r)) {
        /* No memory to track it: keep it for good rather than release it early. */
        pthread_mutex_unlock(&e->lock);
        return;
    }
    cgn__exec_relist(e);
    pthread_mutex_unlock(&e->lock);
    cgn__exec_release_completed(e);
}

size_t cgn__exec_collect_all(void) {
    cgn__attachment **out = NULL;
    size_t num_out = 0, cap_out = 0;
    pthread_mutex_lock(&cgn__listed_mutex);
    cgn__exec_rec *e = cgn__listed;
    while (e != NULL) {
        cgn__exec_rec *next = e->next_listed;
        /* Never wait for an executable another thread is using: it releases its own. */
        if (pthread_mutex_trylock(&e->lock) == 0) {
            if (cgn__reserve(&out, &cap_out, num_out + e->num_retired, sizeof *out, 16,
                             "cgn_collect") == CGN_OK) {
                cgn__exec_poll(e);
                /* relist below would take the list mutex we hold: unlink by hand */
                while (e->num_retired > 0 &&
                       e->retired[e->retired_head].seq <= e->completed) {
                    out[num_out++] = e->retired[e->retired_head].attachment;
                    e->retired_head = (e->retired_head + 1) % e->cap_retired;
                    e->num_retired--;
                }
                if (e->num_retired == 0) {
                    if (e->prev_listed)
                        e->prev_listed->next_listed = e->next_listed;
                    else
                        cgn__listed = e->next_listed;
                    if (e->next_listed)
                        e->next_listed->prev_listed = e->prev_listed;
                    e->next_listed = e->prev_listed = NULL;
                    e->listed = 0;
                }
            }
            pthread_mutex_unlock(&e->lock);
        }
        e = next;
    }
    pthread_mutex_unlock(&cgn__listed_mutex);
    for (size_t i = 0; i < num_out; i++)
        cgn__attachment_unref(out[i]);
    free(out);
    return num_out;
}

/* ---- instantiation ------------------------------------------------------------------------- */


/* The last step of making an executable record (cannot fail): it takes the shadows, refers
 * to the hierarchy and the graph it was made from, and its handle goes out. */
static void cgn__exec_publish(cgn__exec_rec *e, cgn__graph_rec *g, cgn__shadow_set *set,
                              cgn_exec **exec_out) {
    e->hier = g->hier;
    atomic_fetch_add_explicit(&e->hier->refs, 1, memory_order_relaxed);
    e->source = g->handle;
    e->shadows = set->shadows;
    e->num_shadows = set->num_shadows;
    e->deps_pool = set->deps_pool;
    e->num_deps_pool = set->num_deps_pool;
    e->map = set->map;
    e->map_mask = set->map_mask;
    *exec_out = (cgn_exec *)cgn__handle_ptr(e->handle);
}

/* The instantiation flags cgn passes on: neither changes what a launch reads, nor when. */
#define CGN__INSTANTIATE_FLAGS                                                                     \
    ((unsigned long long)CUDA_GRAPH_INSTANTIATE_FLAG_AUTO_FREE_ON_LAUNCH |                         \
     (unsigned long long)CUDA_GRAPH_INSTANTIATE_FLAG_USE_NODE_PRIORITY)

static cgn_status cgn__instantiate(cgn_graph *graph, unsigned long long flags, cgn_exec **exec_out,
                                   const char *where) {
    cgn__graph_rec *g = NULL;
    cgn_status st = cgn__graph_get(graph, where, &g);
    if (st != CGN_OK)
        return st;
    if (exec_out == NULL)
        return cgn__fail(CGN_ERROR_INVALID_ARGUMENT, "%s: exec_out is NULL", where);
    if (flags & (unsigned long long)CUDA_GRAPH_INSTANTIATE_FLAG_DEVICE_LAUNCH)
        return cgn__fail(CGN_ERROR_NOT_SUPPORTED,
                         "%s: CUDA_GRAPH_INSTANTIATE_FLAG_DEVICE_LAUNCH: launches from the device "
                         "are invisible to cgn, which could then release the owners of a replaced "
                         "version while such a launch still reads them",
                         where);
    if (flags & (unsigned long long)CUDA_GRAPH_INSTANTIATE_FLAG_UPLOAD)
        return cgn__fail(CGN_ERROR_INVALID_ARGUMENT,
                         "%s: CUDA_GRAPH_INSTANTIATE_FLAG_UPLOAD needs a stream: instantiate, "
                         "then cgn_exec_upload",
                         where);
    if (flags & ~CGN__INSTANTIATE_FLAGS)
        return cgn__fail(CGN_ERROR_INVALID_ARGUMENT, "%s: unknown bits 0x%llx in flags", where,
                         flags & ~CGN__INSTANTIATE_FLAGS);
    if (g->raw == NULL)
        return cgn__fail(CGN_ERROR_DRIVER,
                         "%s: embedded graph %p could not be located after its child node was "
                         "replaced",
                         where, (void *)graph);
    cgn__collect_pending();
    const cgn_driver_table *drv = cgn__driver;
    CUcontext ctx = NULL;
    CUresult r = drv->cuCtxGetCurrent(&ctx);
    if (r != CUDA_SUCCESS)
        return cgn__fail_driver(r, "cgn_graph_instantiate: cuCtxGetCurrent");
    cgn__exec_rec *e = calloc(1, sizeof *e);
    if (e == NULL || pthread_mutex_init(&e->lock, NULL) != 0) {
        free(e);
        return cgn__fail(CGN_ERROR_OUT_OF_MEMORY, "%s: out of host memory", where);
    }
    cgn__shadow_set set;
    st = cgn__set_build(&set, g, 0, where);
    if (st == CGN_OK) {
        st = cgn__handle_new(CGN__KIND_EXEC, e, &e->handle, where);
        if (st != CGN_OK)
            cgn__set_free(&set, set.num_shadows);
    }
    if (st != CGN_OK) {
        pthread_mutex_destroy(&e->lock);
        free(e);
        return st;
    }
    cgn__graph_shared(g); /* the executable holds the attachments' user objects too */
    r = drv->cuGraphInstantiateWithFlags(&e->raw, g->raw, flags);
    if (r != CUDA_SUCCESS) {
        char what[96];
        snprintf(what, sizeof what, "%s: cuGraphInstantiateWithFlags", where);
        st = cgn__fail_driver(r, what);
    }
    /* The calling thread's context is left as it was (a driver call may have made one). */
    cgn__restore_context(ctx);
    if (st != CGN_OK) {
        cgn__handle_free(e->handle);
        cgn__set_free(&set, set.num_shadows);
        pthread_mutex_destroy(&e->lock);
        free(e);
        cgn__collect_pending();
        return st;
    }
    e->ctx = ctx;
    cgn__exec_publish(e, g, &set, exec_out);
    return CGN_OK;
}

cgn_status cgn_graph_instantiate(cgn_graph *graph, cgn_exec **exec_out) {
    return cgn__instantiate(graph, 0, exec_out, "cgn_graph_instantiate");
}

cgn_status cgn_graph_instantiate_with_flags(cgn_graph *graph, unsigned long long flags,
                                            cgn_exec **exec_out) {
    return cgn__instantiate(graph, flags, exec_out, "cgn_graph_instantiate_with_flags");
}

cgn_status cgn__exec_wrap(cgn__graph_rec *g, CUgraphExec raw, int borrowed, cgn_exec **exec_out,
                          const char *where) {
    CUcontext ctx = NULL;
    CUresult r = cgn__driver->cuCtxGetCurrent(&ctx);
    if (r != CUDA_SUCCESS) {
        char what[96];
        snprintf(what, sizeof what, "%s: cuCtxGetCurrent", where);
        return cgn__fail_driver(r, what);
    }
    cgn__exec_rec *e = calloc(1, sizeof *e);
    if (e == NULL || pthread_mutex_init(&e->lock, NULL) != 0) {
        free(e);
        return cgn__fail(CGN_ERROR_OUT_OF_MEMORY, "%s: out of host memory", where);
    }
    cgn__shadow_set set;
    cgn_status st = cgn__set_build(&set, g, 0, where);
    if (st == CGN_OK) {
        st = cgn__handle_new(CGN__KIND_EXEC, e, &e->handle, where);
        if (st != CGN_OK)
            cgn__set_free(&set, set.num_shadows);
    }
    if (st != CGN_OK) {
        pthread_mutex_destroy(&e->lock);
        free(e);
        return st;
    }
    e->raw = raw;
    e->ctx = ctx;
    e->borrowed = borrowed;
    e->raw_exposed = 1; /* its owner launches it as well */
    cgn__exec_publish(e, g, &set, exec_out);
    return CGN_OK;
}

/* ---- launch ---------------------------------------------------------------------------------- */

/* An event for a fence, made in the executable's context. NULL when none can be made. */
static CUevent cgn__exec_event(cgn__exec_rec *e) {
    if (e->num_idle > 0)
        return e->idle_events[--e->num_idle];
    const cgn_driver_table *drv = cgn__driver;
    CUcontext current = NULL;
    if (drv->cuCtxGetCurrent(&current) != CUDA_SUCCESS)
        return NULL;
    int pushed = current != e->ctx && e->ctx != NULL &&
                 drv->cuCtxPushCurrent(e->ctx) == CUDA_SUCCESS;
    CUevent ev = NULL;
    if (drv->cuEventCreate(&ev, CU_EVENT_DISABLE_TIMING) != CUDA_SUCCESS)
        ev = NULL;
    if (pushed) {
        CUcontext popped;
        (void)drv->cuCtxPopCurrent(&popped);
    }
    return ev;
}

cgn_status cgn_exec_launch(cgn_exec *exec, CUstream stream) {
    static const char where[] = "cgn_exec_launch";
    cgn__exec_rec *e = NULL;
    cgn_status st = cgn__exec_get(exec, where, &e);
    if (st != CGN_OK)
        return st;
    cgn__collect_pending();
    const cgn_driver_table *drv = cgn__driver;
    CUresult r = drv->cuGraphLaunch(e->raw, stream);
    if (r != CUDA_SUCCESS)
        return cgn__fail_driver(r, "cgn_exec_launch: cuGraphLaunch");
    pthread_mutex_lock(&e->lock);
    e->launches++;
    if (e->num_retired == 0 && e->cgn_only == 0) {
        /* The common case: CUDA holds everything this launch reads; no event. */
        pthread_mutex_unlock(&e->lock);
        return CGN_OK;
    }
    cgn__exec_poll(e);
    cgn__attachment *stack[16];
    cgn__attachment **done = e->num_retired <= 16 ? stack : malloc(e->num_retired * sizeof *done);
    size_t num_done = done != NULL ? cgn__exec_take_completed(e, done) : 0;
    if ((e->num_retired > 0 || e->cgn_only > 0) && !e->raw_exposed) {
        /* A fence after this launch: its completion means every earlier launch completed
         * (CUDA runs one executable's launches in order), so retired versions can go, and a
         * destroyed executable knows when its last launch is done. */
        CUevent ev = cgn__exec_event(e);
        if (ev != NULL) {
            cgn__fence f = {ev, e->launches};
            if (drv->cuEventRecord(ev, stream) == CUDA_SUCCESS &&
                cgn__ring_push((void **)&e->fences, &e->fence_head, &e->num_fences,
                               &e->cap_fences, sizeof f, &f))
                e->fenced = e->launches;
            else
                (void)drv->cuEventDestroy(ev);
        }
        if (e->fenced != e->launches)
            e->fence_missed = 1; /* its destroy waits for the context (sticky: rare) */
    }
    pthread_mutex_unlock(&e->lock);
    for (size_t i = 0; i < num_done; i++)
        cgn__attachment_unref(done[i]);
    if (done != stack)
        free(done);
    return CGN_OK;
}

/* Not a launch: an upload runs nothing, so nothing is counted and nothing waits for it. */
cgn_status cgn_exec_upload(cgn_exec *exec, CUstream stream) {
    cgn__exec_rec *e = NULL;
    cgn_status st = cgn__exec_get(exec, "cgn_exec_upload", &e);
    if (st != CGN_OK)
        return st;
    cgn__collect_pending();
    CUresult r = cgn__driver->cuGraphUpload(e->raw, stream);
    if (r != CUDA_SUCCESS)
        return cgn__fail_driver(r, "cgn_exec_upload: cuGraphUpload");
    return CGN_OK;
}

/* ---- destruction ----------------------------------------------------------------------------- */

static void cgn__shadows_free(cgn__shadow *shadows, size_t n) {
    for (size_t i = 0; i < n; i++) {
        cgn__block_release(shadows[i].storage);
        cgn__block_release(shadows[i].spare);
        free(shadows[i].state);
    }
    free(shadows);
}

/* ---- the graveyard: what destroyed executables held, until their last launch completed ---- */

typedef struct cgn__grave {
    struct cgn__grave *next;
    CUevent event;        /* recorded after the executable's last launch */
    CUcontext ctx;
    size_t num;
    cgn__attachment *held[];
} cgn__grave;

static cgn__grave *cgn__graves;
static pthread_mutex_t cgn__graves_mutex = PTHREAD_MUTEX_INITIALIZER;

/* Whether `event` has completed, asked with `ctx` current (events belong to a context). */
static int cgn__event_done(CUevent event, CUcontext ctx) {
    const cgn_driver_table *drv = cgn__driver;
    CUcontext current = NULL;
    if (drv->cuCtxGetCurrent(&current) != CUDA_SUCCESS)
        return 0;
    int push = ctx != NULL && ctx != current && drv->cuCtxPushCurrent(ctx) == CUDA_SUCCESS;
    int done = drv->cuEventQuery(event) == CUDA_SUCCESS;
    if (push) {
        CUcontext popped;
        (void)drv->cuCtxPopCurrent(&popped);
    }
    return done;
}

size_t cgn__graves_collect(void) {
    if (atomic_load_explicit(&cgn__pending.num_graves, memory_order_acquire) == 0)
        return 0;
    cgn__grave *done = NULL;
    pthread_mutex_lock(&cgn__graves_mutex);
    for (cgn__grave **at = &cgn__graves; *at != NULL;) {
        cgn__grave *g = *at;
        if (cgn__event_done(g->event, g->ctx)) {
            *at = g->next;
            g->next = done;
            done = g;
            atomic_fetch_sub_explicit(&cgn__pending.num_graves, 1, memory_order_release);
        } else {
            at = &g->next;
        }
    }
    pthread_mutex_unlock(&cgn__graves_mutex);
    size_t n = 0;
    while (done != NULL) { /* outside the lock: release callbacks run user code */
        cgn__grave *next = done->next;
        (void)cgn__driver->cuEventDestroy(done->event);
        for (size_t i = 0; i < done->num; i++)
            cgn__attachment_unref(done->held[i]);
        n += done->num;
        free(done);
        done = next;
    }
    return n;
}

/* Blocks until the executable's context has finished all its work: for an executable whose
 * launches cgn cannot see (raw handle, adopted) or did not fence. 0 when that failed. */
static int cgn__exec_drain_context(const cgn__exec_rec *e) {
    const cgn_driver_table *drv = cgn__driver;
    if (drv->cuCtxSynchronize == NULL)
        return 0;
    CUcontext current = NULL;
    if (drv->cuCtxGetCurrent(&current) != CUDA_SUCCESS)
        return 0;
    int push = e->ctx != NULL && e->ctx != current;
    if (push && drv->cuCtxPushCurrent(e->ctx) != CUDA_SUCCESS)
        return 0;
    CUresult r = drv->cuCtxSynchronize();
    if (push) {
        CUcontext popped;
        (void)drv->cuCtxPopCurrent(&popped);
    }
    return r == CUDA_SUCCESS;
}

cgn_status cgn_exec_destroy(cgn_exec *exec) {
    static const char where[] = "cgn_exec_destroy";
    cgn__exec_rec *e = NULL;
    cgn_status st = cgn__exec_get(exec, where, &e);
    if (st != CGN_OK)
        return st;
    cgn__collect_pending();
    const cgn_driver_table *drv = cgn__driver;
    pthread_mutex_lock(&e->lock);
    cgn__exec_poll(e);
    /* What a launch still in flight may read and only cgn holds: versions set at executable
     * level, and retired ones (CUDA holds copies of the graph's versions itself, until the
     * executable and its launches are gone). */
    int held_by_cgn = e->cgn_only > 0 || e->num_retired > 0;
    int in_flight = e->raw_exposed || e->completed < e->launches;
    size_t count = e->num_retired;
    for (size_t i = 0; i < e->num_shadows; i++)
        count += e->shadows[i].attachment != NULL;
    cgn__grave *grave = NULL;
    int drain = 0;
    if (held_by_cgn && in_flight) {
        if (!e->raw_exposed && e->fenced == e->launches && e->num_fences > 0) {
            /* The last launch is fenced: everything waits for that fence, on a user thread. */
            grave = malloc(sizeof *grave + count * sizeof grave->held[0]);
            if (grave == NULL) {
                pthread_mutex_unlock(&e->lock);
                return cgn__fail(CGN_ERROR_OUT_OF_MEMORY, "%s: out of host memory", where);
            }
        } else if (e->raw_exposed || e->fence_missed) {
            drain = 1; /* launches cgn cannot see: wait for the context, then release */
        }
        /* Otherwise the last launch needed no fence: when it was made, cgn alone held nothing
         * (a launch then is always fenced, or fence_missed is set). What cgn alone holds now
         * was installed after it, so no launch can read it; versions retired since came from
         * the graph, and CUDA keeps its own references to those until the launches that read
         * them have completed. All of it goes at once. */
    }
    if (drain && !cgn__exec_drain_context(e)) {
        pthread_mutex_unlock(&e->lock);
        return cgn__fail(CGN_ERROR_DRIVER,
                         "%s: executable %p holds owners a launch made outside cgn may still "
                         "read, and waiting for its context failed; nothing was destroyed",
                         where, (void *)exec);
    }
    /* A borrowed executable stays its owner's. */
    CUresult r = e->borrowed ? CUDA_SUCCESS : drv->cuGraphExecDestroy(e->raw);
    if (r != CUDA_SUCCESS) {
        pthread_mutex_unlock(&e->lock);
        free(grave);
        return cgn__fail_driver(r, "cgn_exec_destroy: cuGraphExecDestroy");
    }
    size_t num_retired = e->num_retired;
    if (e->listed) {
        e->num_retired = 0; /* handed over below; off the list first */
        cgn__exec_relist(e);
    }
    pthread_mutex_unlock(&e->lock);
    cgn__handle_free(e->handle);
    cgn__attachment **held = grave != NULL ? grave->held : NULL;
    size_t num_held = 0;
    for (size_t i = 0; i < e->num_shadows + num_retired; i++) {
        cgn__attachment *a = i < e->num_shadows
                                 ? e->shadows[i].attachment
                                 : e->retired[(e->retired_head + i - e->num_shadows) %
                                              e->cap_retired]
                                       .attachment;
        if (a == NULL)
            continue;
        if (held != NULL)
            held[num_held++] = a;
        else
            cgn__attachment_unref(a);
    }
    /* The last fence's event goes with the grave; the others may go now (CUDA defers the
     * release of a pending event). */
    for (size_t i = 0; i < e->num_fences; i++) {
        cgn__fence *f = &e->fences[(e->fence_head + i) % e->cap_fences];
        if (grave != NULL && i + 1 == e->num_fences)
            grave->event = f->event;
        else
            (void)drv->cuEventDestroy(f->event);
    }
    for (size_t i = 0; i < e->num_idle; i++)
        (void)drv->cuEventDestroy(e->idle_events[i]);
    if (grave != NULL) {
        grave->ctx = e->ctx;
        grave->num = num_held;
        pthread_mutex_lock(&cgn__graves_mutex);
        grave->next = cgn__graves;
        cgn__graves = grave;
        atomic_fetch_add_explicit(&cgn__pending.num_graves, 1, memory_order_release);
        pthread_mutex_unlock(&cgn__graves_mutex);
    }
    cgn__shadows_free(e->shadows, e->num_shadows);
    free(e->deps_pool);
    free(e->map);
    free(e->retired);
    free(e->fences);
    free(e->idle_events);
    cgn__hier_unref(e->hier);
    pthread_mutex_destroy(&e->lock);
    free(e);
    cgn__collect_pending();
    return CGN_OK;
}

cgn_status cgn_exec_raw(const cgn_exec *exec, CUgraphExec *raw_out) {
    static const char where[] = "cgn_exec_raw";
    cgn__exec_rec *e = NULL;
    cgn_status st = cgn__exec_get(exec, where, &e);
    if (st != CGN_OK)
        return st;
    if (raw_out == NULL)
        return cgn__fail(CGN_ERROR_INVALID_ARGUMENT, "%s: raw_out is NULL", where);
    /* Launches through the raw handle are invisible to cgn: from now on nothing the
     * executable held is released before it is destroyed. */
    pthread_mutex_lock(&e->lock);
    if (!e->raw_exposed) {
        e->raw_exposed = 1;
        for (size_t i = 0; i < e->num_retired; i++)
            e->retired[(e->retired_head + i) % e->cap_retired].seq = UINT64_MAX;
        cgn__exec_relist(e);
    }
    pthread_mutex_unlock(&e->lock);
    *raw_out = e->raw;
    return CGN_OK;
}

/* ---- enable / disable -------------------------------------------------------------------- */

cgn_status cgn__exec_node(cgn_exec *exec, cgn_node *node, const char *where,
                          cgn__exec_rec **e_out, cgn__shadow **s_out, void **record_out) {
    cgn_status st = cgn__exec_get(exec, where, e_out);
    if (st != CGN_OK)
        return st;
    void *rec = NULL;
    cgn__lookup lr = cgn__handle_lookup(node, CGN__KIND_NODE, &rec);
    if (lr == CGN__LOOKUP_STALE)
        return cgn__fail(CGN_ERROR_DESTROYED,
                         "%s: node %p was destroyed in its graph (or its embedding replaced); "
                         "the executable still runs its copy, but CUDA can no longer address it",
                         where, (const void *)node);
    if (lr != CGN__LOOKUP_OK)
        return cgn__lookup_failed(lr, node, "node", where);
    *s_out = cgn__exec_find(*e_out, (cgn__handle)(uintptr_t)node);
    if (*s_out == NULL)
        return cgn__fail(CGN_ERROR_INVALID_ARGUMENT,
                         "%s: node %p is not part of executable %p (added after the "
                         "instantiation, or a node of another graph)",
                         where, (const void *)node, (const void *)exec);
    if (record_out != NULL)
        *record_out = rec;
    return CGN_OK;
}

/* Runs `call` with the node's context current, leaving the caller's as it was. */
static CUresult cgn__in_context(CUcontext ctx, CUresult (*call)(void *), void *arg,
                                const char **entry) {
    const cgn_driver_table *drv = cgn__driver;
    CUcontext current = NULL;
    CUresult r = drv->cuCtxGetCurrent(&current);
    if (r != CUDA_SUCCESS) {
        *entry = "cuCtxGetCurrent";
        return r;
    }
    int push = ctx != NULL && ctx != current;
    if (push && (r = drv->cuCtxPushCurrent(ctx)) != CUDA_SUCCESS) {
        *entry = "cuCtxPushCurrent";
        return r;
    }
    r = call(arg);
    if (push) {
        CUcontext popped;
        (void)drv->cuCtxPopCurrent(&popped);
        cgn__restore_context(current);
    }
    return r;
}

typedef struct cgn__enable_call {
    cgn__exec_rec *e;
    cgn__shadow *s;
    unsigned int value;
} cgn__enable_call;

static CUresult cgn__set_enabled(void *arg) {
    cgn__enable_call *c = arg;
    return cgn__driver->cuGraphNodeSetEnabled(c->e->raw, c->s->raw, c->value);
}

static CUresult cgn__get_enabled(void *arg) {
    cgn__enable_call *c = arg;
    return cgn__driver->cuGraphNodeGetEnabled(c->e->raw, c->s->raw, &c->value);
}

static cgn_status cgn__enable_common(cgn_exec *exec, cgn_node *node, const char *where,
                                     cgn__enable_call *c) {
    cgn_status st = cgn__exec_node(exec, node, where, &c->e, &c->s, NULL);
    if (st != CGN_OK)
        return st;
    cgn__collect_pending();
    if (!cgn__node_types[c->s->type].exec_enable)
        return cgn__fail(CGN_ERROR_NOT_SUPPORTED,
                         "%s: node %p is a %s node; CUDA enables and disables kernel, memset and "
                         "memcpy nodes only",
                         where, (const void *)node, cgn__node_type_name(c->s->type));
    const cgn_driver_table *drv = cgn__driver;
    if (drv->version < 11060 || drv->cuGraphNodeSetEnabled == NULL ||
        drv->cuGraphNodeGetEnabled == NULL)
        return cgn__require_driver(11060, 0, "enabling and disabling nodes");
    return CGN_OK;
}

cgn_status cgn_exec_node_set_enabled(cgn_exec *exec, cgn_node *node, int enabled) {
    static const char where[] = "cgn_exec_node_set_enabled";
    cgn__enable_call c = {NULL, NULL, enabled != 0};
    cgn_status st = cgn__enable_common(exec, node, where, &c);
    if (st != CGN_OK)
        return st;
    const char *entry = "cuGraphNodeSetEnabled";
    CUresult r = cgn__in_context(c.s->ctx, cgn__set_enabled, &c, &entry);
    if (r != CUDA_SUCCESS) {
        char what[96];
        snprintf(what, sizeof what, "%s: %s", where, entry);
        return cgn__fail_driver(r, what);
    }
    return CGN_OK;
}

cgn_status cgn_exec_node_get_enabled(cgn_exec *exec, cgn_node *node, int *enabled_out) {
    static const char where[] = "cgn_exec_node_get_enabled";
    if (enabled_out == NULL)
        return cgn__fail(CGN_ERROR_INVALID_ARGUMENT, "%s: enabled_out is NULL", where);
    cgn__enable_call c = {NULL, NULL, 0};
    cgn_status st = cgn__enable_common(exec, node, where, &c);
    if (st != CGN_OK)
        return st;
    const char *entry = "cuGraphNodeGetEnabled";
    CUresult r = cgn__in_context(c.s->ctx, cgn__get_enabled, &c, &entry);
    if (r != CUDA_SUCCESS) {
        char what[96];
        snprintf(what, sizeof what, "%s: %s", where, entry);
        return cgn__fail_driver(r, what);
    }
    *enabled_out = c.value != 0;
    return CGN_OK;
}

/* ---- executable-level child graphs --------------------------------------------------------- */

/* Whether shadow s is a node of the graph `body` of shadow parent - 1 (0: the top level). */
static int cgn__shadow_in(const cgn__shadow *s, uint32_t parent, uint32_t body) {
    return s->parent == parent && s->body == body;
}

/* Whether src (the top level, a child graph, or body `body` of a conditional node, given as
 * the shadow index + 1 `parent`) has the topology of the executable's shadows from *at on,
 * which it advances past them (a node's subtree follows it directly). */
static int cgn__same_structure(const cgn__exec_rec *e, uint32_t parent, uint32_t body, size_t *at,
                               const cgn__graph_rec *src, const char **problem,
                               const cgn__node_rec **where_node) {
    size_t first = *at;
    for (size_t i = 0; i < src->num_nodes; i++) {
        const cgn__node_rec *n = src->nodes[i];
        if (*at >= e->num_shadows || !cgn__shadow_in(&e->shadows[*at], parent, body)) {
            *problem = "has more nodes than the executable's copy";
            *where_node = n;
            return 0;
        }
        const cgn__shadow *s = &e->shadows[*at];
        if (s->type != n->type) {
            *problem = "has a node of another type at this position";
            *where_node = n;
            return 0;
        }
        /* The executable's own nodes stay paired with the nodes it was instantiated from: a
         * node destroyed and another added in its place has the same shape, but the driver
         * would still pair the old slot with the old node. (Nodes of an embedding are
         * re-paired by the driver, and a child-graph update brings new ones.) */
        if (parent == 0 && s->node != n->handle) {
            *problem = "has a node the executable was not instantiated with at this position "
                       "(nodes were destroyed and others added since)";
            *where_node = n;
            return 0;
        }
        if (s->num_deps != n->num_deps) {
            *problem = "has a node with another number of dependencies";
            *where_node = n;
            return 0;
        }
        for (size_t k = 0; k < n->num_deps; k++) {
            /* The dependency's position among the child's nodes must match. */
            size_t pos_src = 0;
            while (pos_src < src->num_nodes && src->nodes[pos_src]->handle != n->deps[k])
                pos_src++;
            uint32_t dep = e->deps_pool[s->deps_at + k];
            size_t pos_exec = 0;
            for (size_t j = first; j < dep && j < e->num_shadows; j++)
                pos_exec += cgn__shadow_in(&e->shadows[j], parent, body);
            if (dep < first || pos_exec != pos_src) {
                *problem = "has different dependencies";
                *where_node = n;
                return 0;
            }
        }
        uint32_t self = (uint32_t)*at;
        (*at)++;
        uint32_t b = 0; /* a conditional node's bodies, each against its own shadows */
        CGN__FOR_EMBEDDED(inner, n)
            if (!cgn__same_structure(e, self + 1, b++, at, inner, problem, where_node))
                return 0;
    }
    if (*at < e->num_shadows && cgn__shadow_in(&e->shadows[*at], parent, body)) {
        *problem = "has fewer nodes than the executable's copy";
        *where_node = NULL;
        return 0;
    }
    return 1;
}

cgn_status cgn__exec_check_child_topology(const cgn__exec_rec *e, const cgn__shadow *s,
                                          const cgn__graph_rec *source, const char *where) {
    uint32_t self = (uint32_t)(s - e->shadows);
    size_t at = self + 1;
    const char *problem = NULL;
    const cgn__node_rec *n = NULL;
    if (cgn__same_structure(e, self + 1, 0, &at, source, &problem, &n))
        return CGN_OK;
    char node[64] = "";
    if (n != NULL)
        snprintf(node, sizeof node, " (node %p)", (void *)cgn__node_handle(n));
    return cgn__fail(CGN_ERROR_INVALID_VALUE,
                     "%s: field graph: graph %p %s%s; rule: an executable's child graph keeps "
                     "its topology (same nodes in the same order, types and dependencies)",
                     where, (void *)cgn__graph_handle(source), problem, node);
}

static void cgn__retake(cgn__exec_rec *e, size_t *at, const cgn__graph_rec *src) {
    for (size_t i = 0; i < src->num_nodes; i++) {
        const cgn__node_rec *n = src->nodes[i];
        cgn__shadow *s = &e->shadows[(*at)++];
        /* Same type, so the same state size: the state is copied in place. */
        memcpy(s->state, n->state, n->state_size);
        cgn__block_retain(n->storage);
        cgn__block_release(s->storage);
        s->storage = n->storage;
        if (n->attachment != NULL)
            cgn__attachment_ref(n->attachment);
        if (n->attachment != s->attachment)
            cgn__exec_install(e, s, n->attachment);
        else if (n->attachment != NULL)
            cgn__attachment_unref(n->attachment); /* unchanged: keep the one held */
        s->unsupported = n->unsupported;
        CGN__FOR_EMBEDDED(inner, n)
            cgn__retake(e, at, inner);
    }
}

void cgn__exec_retake_child(cgn__exec_rec *e, cgn__shadow *s, const cgn__graph_rec *source) {
    size_t at = (size_t)(s - e->shadows) + 1;
    cgn__retake(e, &at, source);
}

/* ---- whole-graph refresh ----------------------------------------------------------------- */

static const char *cgn__update_result_name(CUgraphExecUpdateResult r) {
    switch (r) {
    case CU_GRAPH_EXEC_UPDATE_SUCCESS:
        return "CU_GRAPH_EXEC_UPDATE_SUCCESS";
    case CU_GRAPH_EXEC_UPDATE_ERROR:
        return "CU_GRAPH_EXEC_UPDATE_ERROR";
    case CU_GRAPH_EXEC_UPDATE_ERROR_TOPOLOGY_CHANGED:
        return "CU_GRAPH_EXEC_UPDATE_ERROR_TOPOLOGY_CHANGED (the graph's topology changed)";
    case CU_GRAPH_EXEC_UPDATE_ERROR_NODE_TYPE_CHANGED:
        return "CU_GRAPH_EXEC_UPDATE_ERROR_NODE_TYPE_CHANGED (a node's type changed)";
    case CU_GRAPH_EXEC_UPDATE_ERROR_FUNCTION_CHANGED:
        return "CU_GRAPH_EXEC_UPDATE_ERROR_FUNCTION_CHANGED";
    case CU_GRAPH_EXEC_UPDATE_ERROR_PARAMETERS_CHANGED:
        return "CU_GRAPH_EXEC_UPDATE_ERROR_PARAMETERS_CHANGED (a node's parameters changed in a "
               "way an executable cannot follow)";
    case CU_GRAPH_EXEC_UPDATE_ERROR_NOT_SUPPORTED:
        return "CU_GRAPH_EXEC_UPDATE_ERROR_NOT_SUPPORTED";
    case CU_GRAPH_EXEC_UPDATE_ERROR_UNSUPPORTED_FUNCTION_CHANGE:
        return "CU_GRAPH_EXEC_UPDATE_ERROR_UNSUPPORTED_FUNCTION_CHANGE (a kernel changed in a "
               "way an executable cannot follow, e.g. to another context)";
    case CU_GRAPH_EXEC_UPDATE_ERROR_ATTRIBUTES_CHANGED:
        return "CU_GRAPH_EXEC_UPDATE_ERROR_ATTRIBUTES_CHANGED";
    }
    return "an unknown CUgraphExecUpdateResult";
}

/* Pre-flight: the executable-update rules of every node, new state against the executable's. */
static cgn_status cgn__refresh_preflight(const cgn__exec_rec *e, const cgn__shadow_set *set,
                                         const char *where) {
    for (size_t i = 0; i < set->num_shadows; i++) {
        const cgn__shadow *next = &set->shadows[i];
        const cgn__shadow *cur = cgn__exec_find(e, next->node);
        if (cur == NULL || cur->type != next->type)
            continue; /* a replaced embedding: CUDA checks its topology */
        cgn__exec_check_fn check = cgn__node_types[next->type].exec_check;
        if (check == NULL)
            continue;
        char who[96];
        snprintf(who, sizeof who, "%s: node %p", where, cgn__handle_ptr(next->node));
        cgn_status st = check(cur->state, next->state, cur->ctx, who);
        if (st != CGN_OK)
            return st;
    }
    return CGN_OK;
}

cgn_status cgn_exec_update_from_graph(cgn_exec *exec, cgn_graph *graph) {
    static const char where[] = "cgn_exec_update_from_graph";
    cgn__exec_rec *e = NULL;
    cgn__graph_rec *g = NULL;
    cgn_status st = cgn__exec_get(exec, where, &e);
    if (st == CGN_OK)
        st = cgn__graph_get(graph, where, &g);
    if (st != CGN_OK)
        return st;
    if (g->handle != e->source)
        return cgn__fail(CGN_ERROR_INVALID_ARGUMENT,
                         "%s: graph %p is not the graph executable %p was instantiated from; cgn "
                         "refreshes an executable from its own graph",
                         where, (void *)graph, (void *)exec);
    cgn__collect_pending();
    const cgn_driver_table *drv = cgn__driver;
    CUcontext saved = NULL;
    CUresult r = drv->cuCtxGetCurrent(&saved);
    if (r != CUDA_SUCCESS)
        return cgn__fail_driver(r, "cgn_exec_update_from_graph: cuCtxGetCurrent");
    int pushed = 0;
    if (e->ctx != NULL && e->ctx != saved) {
        r = drv->cuCtxPushCurrent(e->ctx);
        if (r != CUDA_SUCCESS)
            return cgn__fail_driver(r, "cgn_exec_update_from_graph: cuCtxPushCurrent");
        pushed = 1;
    }
    cgn__shadow_set set;
    st = cgn__set_build(&set, g, 0, where);
    size_t num_states = set.num_shadows;
    if (st == CGN_OK) {
        /* A topology cgn can see (nodes added or destroyed since) is refused before the
         * driver is asked; CUDA checks the rest and names the node. */
        size_t at = 0;
        const char *problem = NULL;
        const cgn__node_rec *bad = NULL;
        if (!cgn__same_structure(e, 0, 0, &at, g, &problem, &bad)) {
            char node[64] = "";
            if (bad != NULL)
                snprintf(node, sizeof node, " (node %p)", (void *)cgn__node_handle(bad));
            st = cgn__fail(CGN_ERROR_INVALID_VALUE,
                           "%s: graph %p %s%s; rule: an executable keeps its topology (nodes "
                           "added or destroyed after the instantiation need a new executable)",
                           where, (void *)graph, problem, node);
        }
    }
    if (st == CGN_OK)
        st = cgn__refresh_preflight(e, &set, where);
    if (st == CGN_OK) {
        CUgraphExecUpdateResultInfo info;
        memset(&info, 0, sizeof info);
        cgn__graph_shared(g); /* the executable takes the graph's user objects */
        r = drv->cuGraphExecUpdate(e->raw, g->raw, &info);
        if (r != CUDA_SUCCESS) {
            const cgn__node_rec *n = cgn__find_raw_in(g, info.errorNode);
            char node[96] = "";
            if (n != NULL)
                snprintf(node, sizeof node, " at node %p (%s)", (void *)cgn__node_handle(n),
                         cgn__node_type_name(n->type));
            st = cgn__fail(CGN_ERROR_DRIVER,
                           "%s: cuGraphExecUpdate returned %s: %s%s; the executable is unchanged",
                           where, cgn__cu_name(r), cgn__update_result_name(info.result), node);
        }
    }
    if (pushed) {
        CUcontext popped;
        (void)drv->cuCtxPopCurrent(&popped);
        cgn__restore_context(saved);
    }
    if (st != CGN_OK) {
        if (set.shadows != NULL)
            cgn__set_free(&set, num_states);
        return st;
    }
    /* Commit: the executable now runs the graph's versions; the ones it ran before retire. */
    cgn__shadow *old = e->shadows;
    size_t num_old = e->num_shadows;
    e->shadows = set.shadows;
    e->num_shadows = set.num_shadows;
    free(e->deps_pool);
    free(e->map);
    e->deps_pool = set.deps_pool;
    e->num_deps_pool = set.num_deps_pool;
    e->map = set.map;
    e->map_mask = set.map_mask;
    for (size_t i = 0; i < e->num_shadows; i++)
        e->shadows[i].installed_at = e->launches;
    for (size_t i = 0; i < num_old; i++) /* retired with the launch count they were seen by */
        if (old[i].attachment != NULL)
            cgn__exec_install(e, &old[i], NULL);
    cgn__shadows_free(old, num_old);
    return CGN_OK;
}
