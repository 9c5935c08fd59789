/* Generated from spec/event_wait.yaml by codegen; do not edit. */
#ifndef CGN_CGN_EVENT_WAIT_H
#define CGN_CGN_EVENT_WAIT_H

/* Included by cgn/cgn.h (through cgn/cgn_nodes.h); standalone it includes cgn/cgn.h first. */
#include "cgn/cgn.h"

#ifdef __cplusplus
extern "C" {
#endif

/* Event wait node: Wait for the most recent record of an event before the nodes after it run.
 * Reference: cuda.core 1.2.0 EventWaitNode.update(event) */
typedef struct cgn_event_wait_desc {
    CUevent event;          /* The event to wait for; must not be NULL. It may belong to another context or device. */
    cgn_owner *event_owner; /* Optional owner of the event, retained while any graph or executable may wait for it. */
} cgn_event_wait_desc;

#define CGN_EVENT_WAIT_DESC_INIT {0}

/* One bit per field of cgn_event_wait_update; a field is applied only when its bit is set. */
#define CGN_EVENT_WAIT_SET_EVENT UINT64_C(0x1)
#define CGN_EVENT_WAIT_SET_EVENT_OWNER UINT64_C(0x2)
#define CGN_EVENT_WAIT_SET_ALL UINT64_C(0x3)

/* A partial update: fields whose bit is not in `set` keep their current value.
 * Coupled: event_owner requires event (event without event_owner resets event_owner to NULL). */
typedef struct cgn_event_wait_update {
    uint64_t set;
    CUevent event;
    cgn_owner *event_owner;
} cgn_event_wait_update;

#define CGN_EVENT_WAIT_UPDATE_INIT {.set = 0}

/* Clears the update for reuse: no field set. In a loop this is cheaper than
 * CGN_EVENT_WAIT_UPDATE_INIT, which zeroes the whole struct; fields not set are never read. */
static inline void cgn_event_wait_update_reset(cgn_event_wait_update *update) {
    update->set = 0;
}

/* Sets event and event_owner together. */
static inline void cgn_event_wait_update_set_event(cgn_event_wait_update *update, CUevent event,
                                                   cgn_owner *event_owner) {
    update->event = event;
    update->event_owner = event_owner;
    update->set |= CGN_EVENT_WAIT_SET_EVENT | CGN_EVENT_WAIT_SET_EVENT_OWNER;
}

/* Sets every field from a complete desc (a full replacement, e.g. at executable level). */
static inline void cgn_event_wait_update_from_desc(cgn_event_wait_update *update,
                                                   const cgn_event_wait_desc *desc) {
    update->event = desc->event;
    update->event_owner = desc->event_owner;
    update->set = CGN_EVENT_WAIT_SET_ALL;
}

/* Adds a event wait node after `deps`. */
CGN_API cgn_status cgn_graph_add_event_wait(cgn_graph *graph, cgn_node *const *deps,
                                            size_t num_deps, const cgn_event_wait_desc *desc,
                                            cgn_node **node_out);

/* Applies a partial update with one cuGraphNodeSetParams, all or nothing; future instantiations
 * see it, existing executables keep their parameters and owners. Needs driver 12.2.
 * An update with nothing set returns CGN_OK without touching the driver. */
CGN_API cgn_status cgn_event_wait_node_update(cgn_node *node, const cgn_event_wait_update *update);

/* The node's current parameters. */
CGN_API cgn_status cgn_event_wait_node_get(const cgn_node *node, cgn_event_wait_desc *desc_out);

/* Applies a partial update to the node in one executable, with one cuGraphExecNodeSetParams, all
 * or nothing: unset fields keep what *that executable* has (its own copy, taken at
 * instantiation; the definition is never read), with the same coupling rules as the definition.
 * The definition and other executables are not touched. Owners of the new version are held until
 * no launch of the executable can read that version any more (docs/ownership.md). Needs driver
 * 12.2.
 * Another change the driver refuses is CGN_ERROR_DRIVER naming the fields set; nothing changes. */
CGN_API cgn_status cgn_event_wait_exec_update(cgn_exec *exec, cgn_node *node,
                                              const cgn_event_wait_update *update);

/* The node's parameters as that executable has them (its own copy). */
CGN_API cgn_status cgn_event_wait_exec_get(const cgn_exec *exec, const cgn_node *node,
                                           cgn_event_wait_desc *desc_out);

#ifdef __cplusplus
}
#endif

#endif /* CGN_CGN_EVENT_WAIT_H */
