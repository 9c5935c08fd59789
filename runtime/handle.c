/* Handles: slot index + generation, so a destroyed or foreign handle is reported, never
 * dereferenced, and records can be freed the moment their object goes.
 *
 * A handle value is (tag << 32) | (index + 1), where tag = generation << 4 | kind. Slots live
 * in fixed chunks that are never freed or moved, so a lookup from any thread reads only slot
 * memory (two atomic loads) and needs no lock; allocation and release take a mutex. */
#include <stdlib.h>

#include "runtime.h"

#define CGN__GEN_LIMIT (UINT32_MAX >> CGN__KIND_BITS)

_Static_assert(sizeof(void *) == 8, "cgn handles need 64-bit pointers");

_Atomic(cgn__slot *) cgn__chunks[CGN__MAX_CHUNKS];
static uint32_t cgn__num_chunks;   /* under the mutex */
static uint32_t cgn__free_head;    /* index + 1; 0: none (under the mutex) */
static size_t cgn__live;           /* under the mutex */
static pthread_mutex_t cgn__handles_mutex = PTHREAD_MUTEX_INITIALIZER;


/* Adds a chunk and threads its slots onto the free list. 0 when out of memory or slots. */
static int cgn__grow(void) {
    if (cgn__num_chunks == CGN__MAX_CHUNKS)
        return 0;
    cgn__slot *c = calloc(CGN__CHUNK_SLOTS, sizeof *c);
    if (c == NULL)
        return 0;
    uint32_t base = cgn__num_chunks << CGN__CHUNK_BITS;
    for (uint32_t i = 0; i < CGN__CHUNK_SLOTS; i++) {
        atomic_init(&c[i].tag, 1u << CGN__KIND_BITS); /* generation 1, free */
        atomic_init(&c[i].record, NULL);
        c[i].next_free = i + 1 < CGN__CHUNK_SLOTS ? base + i + 2 : cgn__free_head;
    }
    cgn__free_head = base + 1;
    atomic_store_explicit(&cgn__chunks[cgn__num_chunks], c, memory_order_release);
    cgn__num_chunks++;
    return 1;
}

cgn_status cgn__handle_new(cgn__kind kind, void *record, cgn__handle *out, const char *where) {
    return cgn__handles_new(kind, 1, out, record, 0, where);
}

cgn_status cgn__handles_new(cgn__kind kind, size_t count, cgn__handle *out, void *records,
                            size_t stride, const char *where) {
    if (count == 0)
        return CGN_OK;
    pthread_mutex_lock(&cgn__handles_mutex);
    /* Room for every slot first (a chunk added stays, free: nothing is published when running
     * out part-way), then one pass taking them. Every slot not live is on the free list. */
    size_t free_slots = (size_t)cgn__num_chunks * CGN__CHUNK_SLOTS - cgn__live;
    while (free_slots < count) {
        if (!cgn__grow()) {
            pthread_mutex_unlock(&cgn__handles_mutex);
            return cgn__fail(CGN_ERROR_OUT_OF_MEMORY, "%s: out of host memory for handles",
                             where);
        }
        free_slots += CGN__CHUNK_SLOTS;
    }
    for (size_t i = 0; i < count; i++) {
        uint32_t index = cgn__free_head - 1;
        cgn__slot *s = cgn__handle_slot(index);
        cgn__free_head = s->next_free;
        unsigned tag = (atomic_load_explicit(&s->tag, memory_order_relaxed) &
                        ~((1u << CGN__KIND_BITS) - 1)) |
                       (unsigned)kind;
        atomic_store_explicit(&s->record,
                              records ? (void *)((unsigned char *)records + i * stride) : NULL,
                              memory_order_relaxed);
        atomic_store_explicit(&s->tag, tag, memory_order_release);
        out[i] = ((cgn__handle)tag << 32) | ((cgn__handle)index + 1);
    }
    cgn__live += count;
    pthread_mutex_unlock(&cgn__handles_mutex);
    return CGN_OK;
}

void cgn__handle_free(cgn__handle h) { cgn__handles_free(&h, 1); }

void cgn__handles_free(const cgn__handle *handles, size_t count) {
    if (count == 0)
        return;
    pthread_mutex_lock(&cgn__handles_mutex);
    for (size_t i = 0; i < count; i++) {
        if (handles[i] == 0)
            continue;
        uint32_t index = (uint32_t)(handles[i] & 0xffffffffu) - 1;
        cgn__slot *s = cgn__handle_slot(index);
        if (s == NULL)
            continue;
        unsigned gen = (atomic_load_explicit(&s->tag, memory_order_relaxed) >> CGN__KIND_BITS) + 1;
        if (gen > CGN__GEN_LIMIT)
            gen = 1; /* after 268 million reuses of one slot a very old handle could match again */
        atomic_store_explicit(&s->record, NULL, memory_order_relaxed);
        atomic_store_explicit(&s->tag, gen << CGN__KIND_BITS, memory_order_release);
        s->next_free = cgn__free_head;
        cgn__free_head = index + 1;
        cgn__live--;
    }
    pthread_mutex_unlock(&cgn__handles_mutex);
}

void cgn__handle_set_record(cgn__handle h, void *record) {
    cgn__slot *s = cgn__handle_slot((uint32_t)(h & 0xffffffffu) - 1);
    if (s != NULL)
        atomic_store_explicit(&s->record, record, memory_order_release);
}

static const char *cgn__kind_name(cgn__kind kind) {
    switch (kind) {
    case CGN__KIND_GRAPH:
        return "graph";
    case CGN__KIND_NODE:
        return "node";
    case CGN__KIND_EXEC:
        return "executable";
    }
    return "handle";
}

cgn_status cgn__lookup_failed(cgn__lookup result, const void *handle, const char *what,
                              const char *where) {
    switch (result) {
    case CGN__LOOKUP_NULL:
        return cgn__fail(CGN_ERROR_INVALID_ARGUMENT, "%s: %s is NULL", where, what);
    case CGN__LOOKUP_STALE:
        return cgn__fail(CGN_ERROR_DESTROYED, "%s: %s %p has been destroyed", where, what,
                         handle);
    case CGN__LOOKUP_WRONG_KIND: {
        uintptr_t h = (uintptr_t)handle;
        return cgn__fail(CGN_ERROR_INVALID_ARGUMENT, "%s: %s %p is a cgn %s handle, not a %s",
                         where, what, handle,
                         cgn__kind_name((cgn__kind)((h >> 32) & ((1u << CGN__KIND_BITS) - 1))),
                         what);
    }
    case CGN__LOOKUP_INVALID:
    case CGN__LOOKUP_OK:
        break;
    }
    return cgn__fail(CGN_ERROR_INVALID_ARGUMENT, "%s: %s %p is not a cgn handle", where, what,
                     handle);
}

size_t cgn__handles_live(void) {
    pthread_mutex_lock(&cgn__handles_mutex);
    size_t n = cgn__live;
    pthread_mutex_unlock(&cgn__handles_mutex);
    return n;
}
