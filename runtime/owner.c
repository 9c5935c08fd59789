/* Owners (refcounted user resources), attachments (the owners of one version) and the
 * deferred-release queues.
 *
 * Release callbacks may call CUDA, so they run only on user threads inside cgn calls that are
 * allowed to call CUDA, or in cgn_collect(). Two places hand work to such a call instead of
 * doing it themselves:
 * - CUDA runs user-object destructors on an internal thread where CUDA calls are forbidden; the
 *   destructor only pushes the attachment onto a lock-free stack;
 * - cgn_owner_release() may be called from any thread, CUDA's host-node threads included; when
 *   it drops the last reference it pushes the owner onto a second stack.
 * Both stacks are drained by the next cgn call that may call CUDA, or by cgn_collect(). */
#include <stdalign.h>
#include <stdlib.h>

#include "runtime.h"

/* The release queues: multi-producer (any thread) push; a consumer takes a whole list with one
 * exchange. With the driver table, the handle table and the list of executables waiting on
 * launches (exec.c), the runtime's global state. */
alignas(64) cgn__pending_work cgn__pending;

cgn_status cgn_owner_create(void *resource, cgn_release_fn release, cgn_owner **owner_out) {
    if (owner_out == NULL)
        return cgn__fail(CGN_ERROR_INVALID_ARGUMENT, "cgn_owner_create: owner_out is NULL");
    cgn_owner *o = malloc(sizeof *o);
    if (o == NULL)
        return cgn__fail(CGN_ERROR_OUT_OF_MEMORY, "cgn_owner_create: out of host memory");
    atomic_init(&o->refs, 1);
    o->resource = resource;
    o->release = release;
    o->next_released = NULL;
    *owner_out = o;
    return CGN_OK;
}

void cgn__owner_retain(cgn_owner *owner) {
    atomic_fetch_add_explicit(&owner->refs, 1, memory_order_relaxed);
}

static void cgn__owner_finish(cgn_owner *owner) {
    if (owner->release)
        owner->release(owner->resource);
    free(owner);
}

void cgn__owner_release(cgn_owner *owner) {
    if (atomic_fetch_sub_explicit(&owner->refs, 1, memory_order_acq_rel) == 1)
        cgn__owner_finish(owner);
}

cgn_status cgn_owner_retain(cgn_owner *owner) {
    if (owner == NULL)
        return cgn__fail(CGN_ERROR_INVALID_ARGUMENT, "cgn_owner_retain: owner is NULL");
    cgn__owner_retain(owner);
    return CGN_OK;
}

/* Any thread: never runs a callback here, since this may be a CUDA thread. */
cgn_status cgn_owner_release(cgn_owner *owner) {
    if (owner == NULL)
        return cgn__fail(CGN_ERROR_INVALID_ARGUMENT, "cgn_owner_release: owner is NULL");
    if (atomic_fetch_sub_explicit(&owner->refs, 1, memory_order_acq_rel) != 1)
        return CGN_OK;
    cgn_owner *head = atomic_load_explicit(&cgn__pending.owners_head, memory_order_relaxed);
    do
        owner->next_released = head;
    while (!atomic_compare_exchange_weak_explicit(&cgn__pending.owners_head, &head, owner,
                                                  memory_order_release, memory_order_relaxed));
    return CGN_OK;
}

void *cgn_owner_resource(const cgn_owner *owner) { return owner ? owner->resource : NULL; }

/* ---- attachments ------------------------------------------------------------------------- */

cgn__attachment *cgn__attachment_new(size_t count) {
    size_t bytes;
    if (!cgn__mul_size(count, sizeof(cgn_owner *), &bytes) ||
        !cgn__add_size(bytes, sizeof(cgn__attachment), &bytes))
        return NULL;
    cgn__attachment *a = malloc(bytes);
    if (a == NULL)
        return NULL;
    a->next_released = NULL;
    atomic_init(&a->refs, 1);
    a->object = NULL;
    a->share_epoch = 0;
    a->cap_owners = count;
    a->num_owners = 0;
    return a;
}

void cgn__attachment_ref(cgn__attachment *a) {
    atomic_fetch_add_explicit(&a->refs, 1, memory_order_relaxed);
}

void cgn__attachment_unref(cgn__attachment *a) {
    if (atomic_fetch_sub_explicit(&a->refs, 1, memory_order_acq_rel) != 1)
        return;
    for (size_t i = 0; i < a->num_owners; i++)
        cgn__owner_release(a->owners[i]);
    free(a);
}

/* CUDA's user-object destructor: runs on a CUDA thread (or inline in the releasing call), so it
 * only enqueues; the drain drops the user object's reference. */
void cgn__attachment_released(void *attachment) {
    cgn__attachment *a = attachment;
    cgn__attachment *head = atomic_load_explicit(&cgn__pending.released_head, memory_order_relaxed);
    do
        a->next_released = head;
    while (!atomic_compare_exchange_weak_explicit(&cgn__pending.released_head, &head, a,
                                                  memory_order_release, memory_order_relaxed));
}

static size_t cgn__drain(void) {
    size_t n = 0;
    for (;;) {
        cgn__attachment *a =
            atomic_exchange_explicit(&cgn__pending.released_head, NULL, memory_order_acquire);
        cgn_owner *o =
            atomic_exchange_explicit(&cgn__pending.owners_head, NULL, memory_order_acquire);
        if (a == NULL && o == NULL)
            return n;
        while (a != NULL) {
            cgn__attachment *next = a->next_released;
            cgn__attachment_unref(a);
            a = next;
            n++;
        }
        while (o != NULL) { /* a callback may release more: the loop drains those too */
            cgn_owner *next = o->next_released;
            cgn__owner_finish(o);
            o = next;
            n++;
        }
    }
}

void cgn__collect_pending_now(void) {
    if (atomic_load_explicit(&cgn__pending.released_head, memory_order_relaxed) != NULL ||
        atomic_load_explicit(&cgn__pending.owners_head, memory_order_relaxed) != NULL)
        cgn__drain();
    if (atomic_load_explicit(&cgn__pending.num_graves, memory_order_relaxed) != 0)
        cgn__graves_collect();
}

/* Declared in exec.c: releases executable-level versions whose launches have completed. */
size_t cgn__exec_collect_all(void);

size_t cgn_collect(void) {
    size_t n = cgn__exec_collect_all();
    n += cgn__graves_collect();
    return n + cgn__drain();
}
