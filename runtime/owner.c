/* Owners (refcounted user resources) and the deferred-release queue.
 *
 * CUDA runs user-object destructors on an internal thread where CUDA calls are forbidden, so
 * the destructor only pushes the attachment onto a lock-free stack; the owners' release
 * callbacks run later, on a user thread, when a cgn call or cgn_collect() drains it. */
#include <stdlib.h>

#include "runtime.h"

/* The release queue: the runtime's second documented piece of global mutable state.
 * Multi-producer (CUDA's threads) push; consumers take the whole list with one exchange. */
static _Atomic(cgn__attachment *) cgn__released_head;

cgn_status cgn_owner_create(void *resource, cgn_release_fn release, cgn_owner **owner_out) {
    if (owner_out == NULL)
        return cgn__fail(CGN_ERROR_INVALID_ARGUMENT, "cgn_owner_create: owner_out is NULL");
    cgn_owner *o = malloc(sizeof *o);
    if (o == NULL)
        return cgn__fail(CGN_ERROR_OUT_OF_MEMORY, "cgn_owner_create: out of host memory");
    atomic_init(&o->refs, 1);
    o->resource = resource;
    o->release = release;
    *owner_out = o;
    return CGN_OK;
}

void cgn__owner_retain(cgn_owner *owner) {
    atomic_fetch_add_explicit(&owner->refs, 1, memory_order_relaxed);
}

void cgn__owner_release(cgn_owner *owner) {
    if (atomic_fetch_sub_explicit(&owner->refs, 1, memory_order_acq_rel) != 1)
        return;
    if (owner->release)
        owner->release(owner->resource);
    free(owner);
}

cgn_status cgn_owner_retain(cgn_owner *owner) {
    if (owner == NULL)
        return cgn__fail(CGN_ERROR_INVALID_ARGUMENT, "cgn_owner_retain: owner is NULL");
    cgn__owner_retain(owner);
    return CGN_OK;
}

cgn_status cgn_owner_release(cgn_owner *owner) {
    if (owner == NULL)
        return cgn__fail(CGN_ERROR_INVALID_ARGUMENT, "cgn_owner_release: owner is NULL");
    cgn__collect_pending();
    cgn__owner_release(owner);
    return CGN_OK;
}

void *cgn_owner_resource(const cgn_owner *owner) { return owner ? owner->resource : NULL; }

/* CUDA's user-object destructor: runs on a CUDA thread (or inline in the releasing call), so it
 * only enqueues. */
void cgn__attachment_released(void *attachment) {
    cgn__attachment *a = attachment;
    cgn__attachment *head = atomic_load_explicit(&cgn__released_head, memory_order_relaxed);
    do
        a->next_released = head;
    while (!atomic_compare_exchange_weak_explicit(&cgn__released_head, &head, a,
                                                  memory_order_release, memory_order_relaxed));
}

void cgn__attachment_free(cgn__attachment *a) {
    for (size_t i = 0; i < a->num_owners; i++)
        cgn__owner_release(a->owners[i]);
    for (size_t i = 0; i < a->num_more; i++)
        cgn__owner_release(a->more[i]);
    free(a->more);
    free(a);
}

static size_t cgn__drain(void) {
    cgn__attachment *a = atomic_exchange_explicit(&cgn__released_head, NULL, memory_order_acquire);
    size_t n = 0;
    while (a != NULL) {
        cgn__attachment *next = a->next_released;
        cgn__attachment_free(a);
        a = next;
        n++;
    }
    return n;
}

void cgn__collect_pending(void) {
    if (atomic_load_explicit(&cgn__released_head, memory_order_relaxed) != NULL)
        cgn__drain();
}

size_t cgn_collect(void) { return cgn__drain(); }
