/* Shared by the issue-8 strength tests: one generic view of the seven generated node types
 * (wrappers taking any desc or update), a valid desc of each with owners, an owner-changing
 * update of each, and small assertions. Include after cmocka.h and the test support headers. */
#ifndef CGN_TESTS_STRENGTH_NODES_H
#define CGN_TESTS_STRENGTH_NODES_H

#include <stdio.h>
#include <string.h>

#include "cgn_fault.h"
#include "cgn_test_env.h"
#include "cgn_test_fixture.h"
#include "runtime.h"

#define CU_OK(call) assert_int_equal((call), CUDA_SUCCESS)

/* Fails unless cgn_last_error() is exactly `want`. */
static inline void assert_message(const char *want) {
    if (strcmp(cgn_last_error(), want) != 0)
        fail_msg("message \"%s\", expected \"%s\"", cgn_last_error(), want);
}

/* Fails unless cgn_last_error() starts with `prefix`. */
static inline void assert_message_starts(const char *prefix) {
    if (strncmp(cgn_last_error(), prefix, strlen(prefix)) != 0)
        fail_msg("message \"%s\" does not start with \"%s\"", cgn_last_error(), prefix);
}

static inline long owner_refs(const cgn_owner *o) {
    return atomic_load(&((cgn_owner *)(uintptr_t)o)->refs);
}

/* Driver calls that change a graph, an executable or the user objects cgn attaches. */
static inline long mutating_calls(void) {
    static const cgn_fault_entry entries[] = {
        CGN_FAULT_cuGraphAddEmptyNode,       CGN_FAULT_cuGraphAddKernelNode,
        CGN_FAULT_cuGraphAddMemsetNode,      CGN_FAULT_cuGraphAddMemcpyNode,
        CGN_FAULT_cuGraphAddHostNode,        CGN_FAULT_cuGraphAddChildGraphNode,
        CGN_FAULT_cuGraphAddEventRecordNode, CGN_FAULT_cuGraphAddEventWaitNode,
        CGN_FAULT_cuGraphNodeSetParams,      CGN_FAULT_cuGraphExecNodeSetParams,
        CGN_FAULT_cuUserObjectCreate,        CGN_FAULT_cuGraphRetainUserObject,
    };
    long n = 0;
    for (size_t i = 0; i < sizeof entries / sizeof entries[0]; i++)
        n += cgn_fault_calls(entries[i]);
    return n;
}

/* ---- one generic view of the seven node types ------------------------------------------------ */

typedef union any_desc {
    cgn_memset_desc memset;
    cgn_memcpy_desc memcpy;
    cgn_kernel_desc kernel;
    cgn_host_callback_desc host;
    cgn_event_record_desc record;
    cgn_event_wait_desc wait;
    cgn_child_graph_desc child;
} any_desc;

/* Every update struct starts with `uint64_t set`. */
typedef union any_update {
    uint64_t set;
    cgn_memset_update memset;
    cgn_memcpy_update memcpy;
    cgn_kernel_update kernel;
    cgn_host_callback_update host;
    cgn_event_record_update record;
    cgn_event_wait_update wait;
    cgn_child_graph_update child;
} any_update;

typedef struct node_api {
    const char *name; /* as in the function names: cgn_<name>_node_update */
    cgn_node_type type;
    size_t desc_size;
    cgn_status (*add)(cgn_graph *, const any_desc *, cgn_node **);
    cgn_status (*update)(cgn_node *, const any_update *);
    cgn_status (*get)(const cgn_node *, any_desc *);
    cgn_status (*exec_update)(cgn_exec *, cgn_node *, const any_update *);
    cgn_status (*exec_get)(const cgn_exec *, const cgn_node *, any_desc *);
    cgn_status (*add_null_desc)(cgn_graph *, cgn_node **);
    cgn_status (*add_null_out)(cgn_graph *, const any_desc *);
    cgn_status (*update_null)(cgn_node *);
    cgn_status (*get_null)(const cgn_node *);
    cgn_status (*exec_update_null)(cgn_exec *, cgn_node *);
    cgn_status (*exec_get_null)(const cgn_exec *, const cgn_node *);
} node_api;

#define NODE_API(t, member, TYPE)                                                                  \
    static cgn_status t##_add_(cgn_graph *g, const any_desc *d, cgn_node **out) {                  \
        return cgn_graph_add_##t(g, NULL, 0, &d->member, out);                                     \
    }                                                                                              \
    static cgn_status t##_update_(cgn_node *n, const any_update *u) {                              \
        return cgn_##t##_node_update(n, &u->member);                                               \
    }                                                                                              \
    static cgn_status t##_get_(const cgn_node *n, any_desc *d) {                                   \
        return cgn_##t##_node_get(n, &d->member);                                                  \
    }                                                                                              \
    static cgn_status t##_exec_update_(cgn_exec *e, cgn_node *n, const any_update *u) {            \
        return cgn_##t##_exec_update(e, n, &u->member);                                            \
    }                                                                                              \
    static cgn_status t##_exec_get_(const cgn_exec *e, const cgn_node *n, any_desc *d) {           \
        return cgn_##t##_exec_get(e, n, &d->member);                                               \
    }                                                                                              \
    static cgn_status t##_add_null_desc_(cgn_graph *g, cgn_node **out) {                           \
        return cgn_graph_add_##t(g, NULL, 0, NULL, out);                                           \
    }                                                                                              \
    static cgn_status t##_add_null_out_(cgn_graph *g, const any_desc *d) {                         \
        return cgn_graph_add_##t(g, NULL, 0, &d->member, NULL);                                    \
    }                                                                                              \
    static cgn_status t##_update_null_(cgn_node *n) {                                              \
        return cgn_##t##_node_update(n, NULL);                                                     \
    }                                                                                              \
    static cgn_status t##_get_null_(const cgn_node *n) {                                           \
        return cgn_##t##_node_get(n, NULL);                                                        \
    }                                                                                              \
    static cgn_status t##_exec_update_null_(cgn_exec *e, cgn_node *n) {                            \
        return cgn_##t##_exec_update(e, n, NULL);                                                  \
    }                                                                                              \
    static cgn_status t##_exec_get_null_(const cgn_exec *e, const cgn_node *n) {                   \
        return cgn_##t##_exec_get(e, n, NULL);                                                     \
    }                                                                                              \
    static const node_api t##_api = {#t,                                                           \
                                     TYPE,                                                         \
                                     sizeof(cgn_##t##_desc),                                       \
                                     t##_add_,                                                     \
                                     t##_update_,                                                  \
                                     t##_get_,                                                     \
                                     t##_exec_update_,                                             \
                                     t##_exec_get_,                                                \
                                     t##_add_null_desc_,                                           \
                                     t##_add_null_out_,                                            \
                                     t##_update_null_,                                             \
                                     t##_get_null_,                                                \
                                     t##_exec_update_null_,                                        \
                                     t##_exec_get_null_};

NODE_API(memset, memset, CGN_NODE_MEMSET)
NODE_API(memcpy, memcpy, CGN_NODE_MEMCPY)
NODE_API(kernel, kernel, CGN_NODE_KERNEL)
NODE_API(host_callback, host, CGN_NODE_HOST)
NODE_API(event_record, record, CGN_NODE_EVENT_RECORD)
NODE_API(event_wait, wait, CGN_NODE_EVENT_WAIT)
NODE_API(child_graph, child, CGN_NODE_CHILD_GRAPH)

enum { MEMSET, MEMCPY, KERNEL, HOST, RECORD, WAIT, CHILD, NUM_TYPES };
static const node_api *const apis[NUM_TYPES] = {
    &memset_api,       &memcpy_api,     &kernel_api,     &host_callback_api,
    &event_record_api, &event_wait_api, &child_graph_api};

static uint32_t seven = 7;
static const char payload[] = "payload";
/* Kernel arguments: buffer 3 (owned) or 2 (owned), then 7. */
static cgn_arg desc_args[2], update_args[2];

/* A valid desc of each type, with owners where the type has any. */
static inline any_desc valid_desc(cgn_test_env *env, int t) {
    any_desc d;
    memset(&d, 0, sizeof d);
    switch (t) {
    case MEMSET:
        d.memset = (cgn_memset_desc)CGN_MEMSET_DESC_INIT;
        d.memset.dst = env->buf[0];
        d.memset.dst_owner = env->owner[0];
        d.memset.value = 0x11;
        d.memset.width = 8;
        break;
    case MEMCPY:
        d.memcpy = (cgn_memcpy_desc)CGN_MEMCPY_DESC_INIT;
        d.memcpy.dst = env->buf[1];
        d.memcpy.dst_owner = env->owner[1];
        d.memcpy.src = env->buf[2];
        d.memcpy.src_owner = env->owner[2];
        d.memcpy.size = 8;
        break;
    case KERNEL: {
        cgn_arg *args = desc_args;
        args[0] = CGN_ARG_OWNED(env->buf[3], env->owner[3]);
        args[1] = CGN_ARG(seven);
        d.kernel = (cgn_kernel_desc)CGN_KERNEL_DESC_INIT;
        d.kernel.kernel = cgn_test_kernel(env, "fill_u32");
        d.kernel.kernel_owner = env->owner[0];
        d.kernel.grid = d.kernel.block = CGN_DIM3(1, 1, 1);
        d.kernel.args = args;
        d.kernel.num_args = 2;
        break;
    }
    case HOST:
        d.host = (cgn_host_callback_desc)CGN_HOST_CALLBACK_DESC_INIT;
        d.host.fn = cgn_test_callback(env, "record_a");
        d.host.payload = payload;
        d.host.payload_size = sizeof payload;
        break;
    case RECORD:
        d.record = (cgn_event_record_desc)CGN_EVENT_RECORD_DESC_INIT;
        d.record.event = env->event[0];
        d.record.event_owner = env->owner[1];
        break;
    case WAIT:
        d.wait = (cgn_event_wait_desc)CGN_EVENT_WAIT_DESC_INIT;
        d.wait.event = env->event[1];
        d.wait.event_owner = env->owner[2];
        break;
    case CHILD:
        d.child = (cgn_child_graph_desc)CGN_CHILD_GRAPH_DESC_INIT;
        d.child.graph = cgn_test_graph(env, 2);
        break;
    }
    return d;
}

/* An update of each type that changes its owners (a new owner, or a new payload copy). */
static inline any_update owner_update(cgn_test_env *env, int t) {
    any_update u;
    memset(&u, 0, sizeof u);
    switch (t) {
    case MEMSET:
        cgn_memset_update_set_dst(&u.memset, env->buf[1], env->owner[1]);
        break;
    case MEMCPY:
        cgn_memcpy_update_set_dst(&u.memcpy, env->buf[3], env->owner[3]);
        break;
    case KERNEL: {
        cgn_arg *args = update_args;
        args[0] = CGN_ARG_OWNED(env->buf[2], env->owner[2]);
        args[1] = CGN_ARG(seven);
        cgn_kernel_update_set_args(&u.kernel, args, 2);
        break;
    }
    case HOST:
        u.host.set = CGN_HOST_CALLBACK_SET_FN | CGN_HOST_CALLBACK_SET_USER_DATA |
                     CGN_HOST_CALLBACK_SET_USER_DATA_OWNER;
        u.host.fn = cgn_test_callback(env, "record_b");
        u.host.user_data = env->host[0];
        u.host.user_data_owner = env->owner[3];
        break;
    case RECORD:
        cgn_event_record_update_set_event(&u.record, env->event[1], env->owner[3]);
        break;
    case WAIT:
        cgn_event_wait_update_set_event(&u.wait, env->event[0], env->owner[3]);
        break;
    case CHILD:
        u.child.set = CGN_CHILD_GRAPH_SET_GRAPH;
        u.child.graph = cgn_test_graph(env, 3);
        break;
    }
    return u;
}

typedef struct all_nodes {
    cgn_graph *g;
    cgn_node *n[NUM_TYPES];
    cgn_exec *e;
} all_nodes;

static inline void make_all(cgn_test_env *env, all_nodes *a) {
    OK(cgn_graph_create(&a->g));
    for (int t = 0; t < NUM_TYPES; t++) {
        any_desc d = valid_desc(env, t);
        OK(apis[t]->add(a->g, &d, &a->n[t]));
    }
    OK(cgn_graph_instantiate(a->g, &a->e));
}

static inline void free_all(all_nodes *a) {
    OK(cgn_exec_destroy(a->e));
    OK(cgn_graph_destroy(a->g));
}

/* An update replacing every field with those of a desc. */
static inline any_update update_from(int t, const any_desc *d) {
    any_update u;
    memset(&u, 0, sizeof u);
    switch (t) {
    case MEMSET:
        cgn_memset_update_from_desc(&u.memset, &d->memset);
        break;
    case MEMCPY:
        cgn_memcpy_update_from_desc(&u.memcpy, &d->memcpy);
        break;
    case KERNEL:
        cgn_kernel_update_from_desc(&u.kernel, &d->kernel);
        break;
    case HOST:
        cgn_host_callback_update_from_desc(&u.host, &d->host);
        break;
    case RECORD:
        cgn_event_record_update_from_desc(&u.record, &d->record);
        break;
    case WAIT:
        cgn_event_wait_update_from_desc(&u.wait, &d->wait);
        break;
    default:
        cgn_child_graph_update_from_desc(&u.child, &d->child);
        break;
    }
    return u;
}

#endif /* CGN_TESTS_STRENGTH_NODES_H */
