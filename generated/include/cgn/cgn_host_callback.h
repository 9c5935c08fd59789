/* Generated from spec/host_callback.yaml by codegen; do not edit. */
#ifndef CGN_CGN_HOST_CALLBACK_H
#define CGN_CGN_HOST_CALLBACK_H

/* Included by cgn/cgn.h (through cgn/cgn_nodes.h); standalone it includes cgn/cgn.h first. */
#include "cgn/cgn.h"

#ifdef __cplusplus
extern "C" {
#endif

/* Host callback node: Call a host function with a pointer argument, either caller-owned or a
 * copy cgn owns.
 * Reference: cuda.core 1.2.0 HostCallbackNode.update(fn, user_data=) */
typedef struct cgn_host_callback_desc {
    CUhostFn fn;                /* The host function; must not be NULL and must make no CUDA calls. */
    void *user_data;            /* Caller-owned argument passed as is; exclusive with payload. */
    cgn_owner *user_data_owner; /* Optional owner of what user_data points at, retained while any version may run. */
    const void *payload;        /* Bytes cgn copies and passes to fn by pointer; the copy lives as long as any graph or executable may run that version. Exclusive with user_data. */
    size_t payload_size;        /* Bytes in payload; with 0 the driver gets NULL. */
    cgn_owner *payload_owner;   /* Set by cgn, ignored on input. Owner of cgn's copy of payload, held by the node's attachment. */
} cgn_host_callback_desc;

#define CGN_HOST_CALLBACK_DESC_INIT {0}

/* One bit per field of cgn_host_callback_update; a field is applied only when its bit is set. */
#define CGN_HOST_CALLBACK_SET_FN UINT64_C(0x1)
#define CGN_HOST_CALLBACK_SET_USER_DATA UINT64_C(0x2)
#define CGN_HOST_CALLBACK_SET_USER_DATA_OWNER UINT64_C(0x4)
#define CGN_HOST_CALLBACK_SET_PAYLOAD UINT64_C(0x8)
#define CGN_HOST_CALLBACK_SET_ALL UINT64_C(0xf)

/* A partial update: fields whose bit is not in `set` keep their current value.
 * Coupled: user_data requires fn (fn without user_data resets user_data to NULL);
 * user_data_owner requires fn and user_data (fn without user_data_owner resets user_data_owner
 * to NULL); payload requires fn (fn without payload resets payload to NULL). */
typedef struct cgn_host_callback_update {
    uint64_t set;
    CUhostFn fn;
    void *user_data;
    cgn_owner *user_data_owner;
    const void *payload;
    size_t payload_size;
} cgn_host_callback_update;

#define CGN_HOST_CALLBACK_UPDATE_INIT {.set = 0}

/* Clears the update for reuse: no field set. In a loop this is cheaper than
 * CGN_HOST_CALLBACK_UPDATE_INIT, which zeroes the whole struct; fields not set are never read. */
static inline void cgn_host_callback_update_reset(cgn_host_callback_update *update) {
    update->set = 0;
}

/* Sets fn, user_data, user_data_owner and payload together. */
static inline void cgn_host_callback_update_set_fn(cgn_host_callback_update *update, CUhostFn fn,
                                                   void *user_data, cgn_owner *user_data_owner,
                                                   const void *payload, size_t payload_size) {
    update->fn = fn;
    update->user_data = user_data;
    update->user_data_owner = user_data_owner;
    update->payload = payload;
    update->payload_size = payload_size;
    update->set |= CGN_HOST_CALLBACK_SET_FN | CGN_HOST_CALLBACK_SET_USER_DATA |
                   CGN_HOST_CALLBACK_SET_USER_DATA_OWNER | CGN_HOST_CALLBACK_SET_PAYLOAD;
}

/* Sets every field from a complete desc (a full replacement, e.g. at executable level). */
static inline void cgn_host_callback_update_from_desc(cgn_host_callback_update *update,
                                                      const cgn_host_callback_desc *desc) {
    update->fn = desc->fn;
    update->user_data = desc->user_data;
    update->user_data_owner = desc->user_data_owner;
    update->payload = desc->payload;
    update->payload_size = desc->payload_size;
    update->set = CGN_HOST_CALLBACK_SET_ALL;
}

/* Adds a host callback node after `deps`. */
CGN_API cgn_status cgn_graph_add_host_callback(cgn_graph *graph, cgn_node *const *deps,
                                               size_t num_deps, const cgn_host_callback_desc *desc,
                                               cgn_node **node_out);

/* Applies a partial update with one cuGraphNodeSetParams, all or nothing; future instantiations
 * see it, existing executables keep their parameters and owners. Needs driver 12.2.
 * An update with nothing set returns CGN_OK without touching the driver. */
CGN_API cgn_status cgn_host_callback_node_update(cgn_node *node,
                                                 const cgn_host_callback_update *update);

/* The node's current parameters. `payload` points into cgn's copies, valid until the node's next
 * update or its destroy: copy what you keep longer. */
CGN_API cgn_status cgn_host_callback_node_get(const cgn_node *node,
                                              cgn_host_callback_desc *desc_out);

/* Applies a partial update to the node in one executable, with one cuGraphExecNodeSetParams, all
 * or nothing: unset fields keep what *that executable* has (its own copy, taken at
 * instantiation; the definition is never read), with the same coupling rules as the definition.
 * The definition and other executables are not touched. Owners of the new version are held until
 * no launch of the executable can read that version any more (docs/ownership.md). Needs driver
 * 12.2.
 * Another change the driver refuses is CGN_ERROR_DRIVER naming the fields set; nothing changes. */
CGN_API cgn_status cgn_host_callback_exec_update(cgn_exec *exec, cgn_node *node,
                                                 const cgn_host_callback_update *update);

/* The node's parameters as that executable has them (its own copy). `payload` points into cgn's
 * copies, valid until that executable's next update of the node or its destroy: copy what you
 * keep longer. */
CGN_API cgn_status cgn_host_callback_exec_get(const cgn_exec *exec, const cgn_node *node,
                                              cgn_host_callback_desc *desc_out);

#ifdef __cplusplus
}
#endif

#endif /* CGN_CGN_HOST_CALLBACK_H */
