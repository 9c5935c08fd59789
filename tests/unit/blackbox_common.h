/* Helpers shared by the black-box tests (test_blackbox.c, test_blackbox2.c, test_blackbox3.c):
 * status checks, small builders, and the arm/check steps of the fault sweeps (every driver call
 * failing in turn). Include after <cmocka.h> and the headers it needs. */
#ifndef CGN_TESTS_BLACKBOX_COMMON_H
#define CGN_TESTS_BLACKBOX_COMMON_H

#include "cgn_fault.h"
#include "cgn_test_fixture.h"

#define CU_OK(call) assert_int_equal((call), CUDA_SUCCESS)

/* Fails unless `call` returns `want` and leaves a non-empty message and that status. */
#define EXPECT_ST(want, call)                                                                      \
    do {                                                                                           \
        cgn_status st_ = (call);                                                                   \
        if (st_ != (want))                                                                         \
            fail_msg("%s: got %s (%s), want %s", #call, cgn_status_name(st_), cgn_last_error(),    \
                     cgn_status_name(want));                                                       \
        assert_int_equal(cgn_last_status(), (want));                                               \
        assert_true(cgn_last_error()[0] != '\0');                                                  \
    } while (0)

/* Eight rounds of cgn_collect. */
static inline void collect_all(void) {
    for (int i = 0; i < 8; i++)
        cgn_collect();
}

/* A one-thread launch (grid and block 1x1x1) of `kernel` with args[0..num_args). */
static inline cgn_kernel_desc bb_kernel_desc(cgn_kernel kernel, const cgn_arg *args,
                                             uint32_t num_args) {
    cgn_kernel_desc d = CGN_KERNEL_DESC_INIT;
    d.kernel = kernel;
    d.grid = d.block = CGN_DIM3(1, 1, 1);
    d.args = args;
    d.num_args = num_args;
    return d;
}

/* A memset update that sets only the value (element size 1). */
static inline cgn_memset_update bb_value_update(uint32_t value) {
    cgn_memset_update u = CGN_MEMSET_UPDATE_INIT;
    cgn_memset_update_set_value(&u, value, 1);
    return u;
}

/* A memset update that sets only the destination and its owner. */
static inline cgn_memset_update bb_dst_update(CUdeviceptr dst, cgn_owner *owner) {
    cgn_memset_update u = CGN_MEMSET_UPDATE_INIT;
    cgn_memset_update_set_dst(&u, dst, owner);
    return u;
}

/* A new empty graph. */
static inline cgn_graph *bb_graph_new(void) {
    cgn_graph *g;
    OK(cgn_graph_create(&g));
    return g;
}

/* An executable of g. */
static inline cgn_exec *bb_instantiate(cgn_graph *g) {
    cgn_exec *e;
    OK(cgn_graph_instantiate(g, &e));
    return e;
}

/* A child graph node of `source` in parent, without dependencies. */
static inline cgn_node *add_child(cgn_graph *parent, cgn_graph *source) {
    cgn_child_graph_desc d = CGN_CHILD_GRAPH_DESC_INIT;
    d.graph = source;
    cgn_node *n;
    OK(cgn_graph_add_child_graph(parent, NULL, 0, &d, &n));
    return n;
}

/* The node of child graph node `child` that stands for `node` of the graph it embeds. */
static inline cgn_node *bb_find(cgn_node *child, cgn_node *node) {
    cgn_node *n;
    OK(cgn_child_graph_node_find(child, node, &n));
    return n;
}

/* The graph child graph node `child` embeds. */
static inline cgn_graph *bb_embedded(cgn_node *child) {
    cgn_graph *g;
    OK(cgn_child_graph_node_embedded(child, &g));
    return g;
}

/* Destroys an executable and then its graph. */
static inline void destroy_exec_graph(cgn_exec *e, cgn_graph *g) {
    OK(cgn_exec_destroy(e));
    OK(cgn_graph_destroy(g));
}

/* Clears the call counts and makes the nth driver call from now fail with `result`. */
static inline void bb_fault_arm(long nth, CUresult result) {
    cgn_fault_reset_counts();
    cgn_fault_arm(nth, result);
}

/* Whether the armed failure was injected (and into which entry, when `which` is not NULL);
 * disarms it. */
static inline int bb_fault_done(cgn_fault_entry *which) {
    int hit = cgn_fault_triggered(which);
    cgn_fault_disarm();
    return hit;
}

#endif /* CGN_TESTS_BLACKBOX_COMMON_H */
