/* The survivors of a fresh mutation spot check of the runtime (tools/mutate over runtime's .c
 * files, --sample 8 --seed 14), on the fake driver: cgn_graph_find_kernel asking the driver about
 * no CUkernel but the ones it compares; the message of a conditional node's missing body (its
 * loader case, a libcuda.so.1 without cuGetProcAddress_v2, runs with the other loader cases in
 * test_strength_messages); a refused refresh naming a node listed after a child-graph node;
 * cgn__handles_live
 * waiting for the handle table's lock; and a rollback after a failed apply being a no-op, as
 * runtime.h says. (Issue 8: test strength.) */
#include <setjmp.h>
#include <stdarg.h>
#include <stdatomic.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <pthread.h>
#include <time.h>
#include <unistd.h>

#include <cmocka.h>

#include "cgn_fault.h"
#include "cgn_test_env.h"
#include "cgn_test_fixture.h"
#include "fake_driver.h"
#include "runtime.h"

/* A kernel node of `k` (no arguments) in g. */
static cgn_node *add_kernel(cgn_graph *g, cgn_kernel k) {
    cgn_kernel_desc kd = CGN_KERNEL_DESC_INIT;
    kd.kernel = k;
    kd.grid = kd.block = CGN_DIM3(1, 1, 1);
    cgn_node *n;
    OK(cgn_graph_add_kernel(g, NULL, 0, &kd, &n));
    return n;
}

/* ---- cgn_graph_find_kernel and cuKernelGetFunction ------------------------------------------- */

/* cgn_graph_find_kernel asks the driver for a node's CUkernel's function only to compare it with
 * a CUfunction it was given: never for a node set with a CUfunction (it has no CUkernel: the call
 * would pass NULL); and given a CUkernel, it asks once, for that kernel's own function, never
 * for other kernels' (which may load them into the context for nothing). */
static void test_find_kernel_asks_only_what_it_compares(void **state) {
    (void)state;
    CUfunction f1 = cgn_fake_register_kernel("seed14_f1", 0, NULL, NULL, NULL);
    CUfunction f2 = cgn_fake_register_kernel("seed14_f2", 0, NULL, NULL, NULL);
    CUfunction f3 = cgn_fake_register_kernel("seed14_f3", 0, NULL, NULL, NULL);
    assert_non_null(f1);
    assert_non_null(f2);
    assert_non_null(f3);
    CUkernel k1 = cgn_fake_kernel_of(f1), k2 = cgn_fake_kernel_of(f2);
    assert_non_null(k1);
    assert_non_null(k2);

    /* CUfunction nodes only: nothing to ask. */
    cgn_graph *g;
    OK(cgn_graph_create(&g));
    cgn_node *a = add_kernel(g, CGN_FUNCTION(f1));
    (void)add_kernel(g, CGN_FUNCTION(f2));
    (void)add_kernel(g, CGN_FUNCTION(f3));
    cgn_node *hits[4];
    size_t count = 4;
    cgn_fault_reset_counts();
    OK(cgn_graph_find_kernel(g, CGN_FUNCTION(f1), hits, &count));
    assert_int_equal(count, 1);
    assert_ptr_equal(hits[0], a);
    assert_int_equal(cgn_fault_calls(CGN_FAULT_cuKernelGetFunction), 0);
    OK(cgn_graph_destroy(g));

    /* By CUkernel: one call, for k1's function; the k2 node and the CUfunction node are not
     * asked about. */
    OK(cgn_graph_create(&g));
    cgn_node *b = add_kernel(g, CGN_KERNEL(k1));
    (void)add_kernel(g, CGN_KERNEL(k2));
    (void)add_kernel(g, CGN_FUNCTION(f3));
    count = 4;
    cgn_fault_reset_counts();
    OK(cgn_graph_find_kernel(g, CGN_KERNEL(k1), hits, &count));
    assert_int_equal(count, 1);
    assert_ptr_equal(hits[0], b);
    assert_int_equal(cgn_fault_calls(CGN_FAULT_cuKernelGetFunction), 1);
    OK(cgn_graph_destroy(g));
}

/* ---- a conditional node's missing body ------------------------------------------------------- */

/* Asking for a body past the last is CGN_ERROR_INVALID_VALUE, body_out untouched; the message
 * names the index, how many bodies the node has, and how they are numbered (from 0, up to its
 * desc's size). */
static void test_conditional_missing_body_message(void **state) {
    (void)state;
    cgn_graph *g;
    OK(cgn_graph_create(&g));
    cgn_conditional_desc d = CGN_CONDITIONAL_DESC_INIT;
    d.type = 2; /* SWITCH */
    d.size = 3;
    cgn_node *node;
    OK(cgn_graph_add_conditional(g, NULL, 0, &d, &node));
    cgn_graph *body = NULL;
    for (uint32_t i = 0; i < 3; i++) {
        OK(cgn_conditional_node_body(node, i, &body));
        assert_non_null(body);
    }
    static const uint32_t missing[] = {3, 7, UINT32_MAX};
    for (size_t i = 0; i < sizeof missing / sizeof missing[0]; i++) {
        cgn_graph *untouched = (cgn_graph *)&body;
        body = untouched;
        assert_int_equal(cgn_conditional_node_body(node, missing[i], &body),
                         CGN_ERROR_INVALID_VALUE);
        assert_ptr_equal(body, untouched);
        char want[256];
        snprintf(want, sizeof want,
                 "cgn_conditional_node_body: conditional node %p has no body %u (it has 3, from "
                 "index 0; its desc's size)",
                 (void *)node, missing[i]);
        cgn_test_assert_message(want);
    }
    OK(cgn_graph_destroy(g));
}

/* ---- a refused refresh naming a node after a child graph ------------------------------------- */

static cgn_driver_table refusing_table;
static CUgraphNode refusing_node;

static CUresult refusing_exec_update(CUgraphExec exec, CUgraph graph,
                                     CUgraphExecUpdateResultInfo *info) {
    (void)exec;
    (void)graph;
    info->result = CU_GRAPH_EXEC_UPDATE_ERROR_ATTRIBUTES_CHANGED;
    info->errorNode = refusing_node;
    info->errorFromNode = NULL;
    return CUDA_ERROR_GRAPH_EXEC_UPDATE_FAILURE;
}

/* The node the driver names is looked for through the whole graph, embedded graphs included: a
 * node listed after a child-graph node (not in its embedded copy) is named, and so is the node
 * inside the copy. */
static void test_refresh_refusal_names_node_after_child_graph(void **state) {
    (void)state;
    cgn_graph *src, *g;
    cgn_node *inner_src, *child, *after;
    OK(cgn_graph_create(&src));
    OK(cgn_graph_add_empty(src, NULL, 0, &inner_src));
    OK(cgn_graph_create(&g));
    cgn_child_graph_desc cd = CGN_CHILD_GRAPH_DESC_INIT;
    cd.graph = src;
    OK(cgn_graph_add_child_graph(g, NULL, 0, &cd, &child));
    OK(cgn_graph_add_empty(g, &child, 1, &after));
    cgn_exec *e;
    OK(cgn_graph_instantiate(g, &e));
    CUgraphNode raw_child, raw_after, raw_inner;
    OK(cgn_node_raw(child, &raw_child));
    OK(cgn_node_raw(after, &raw_after));
    CUgraph inner_graph = NULL;
    assert_int_equal(cgn__driver->cuGraphChildGraphNodeGetGraph(raw_child, &inner_graph),
                     CUDA_SUCCESS);
    size_t one = 1;
    assert_int_equal(cgn__driver->cuGraphGetNodes(inner_graph, &raw_inner, &one), CUDA_SUCCESS);
    assert_int_equal(one, 1);
    cgn_node *inner;
    OK(cgn_graph_find_raw(g, raw_inner, &inner));
    assert_ptr_not_equal(inner, inner_src); /* the embedded copy's node */

    const cgn_driver_table *inner_table = cgn__driver;
    refusing_table = *inner_table;
    refusing_table.cuGraphExecUpdate = refusing_exec_update;
    cgn_driver_install(&refusing_table);
    const struct {
        CUgraphNode raw;
        cgn_node *node;
    } cases[] = {{raw_after, after}, {raw_inner, inner}};
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        refusing_node = cases[i].raw;
        assert_int_equal(cgn_exec_update_from_graph(e, g), CGN_ERROR_DRIVER);
        char want[512];
        snprintf(want, sizeof want,
                 "cgn_exec_update_from_graph: cuGraphExecUpdate returned "
                 "CUDA_ERROR_GRAPH_EXEC_UPDATE_FAILURE: CU_GRAPH_EXEC_UPDATE_ERROR_ATTRIBUTES_"
                 "CHANGED at node %p (empty); the executable is unchanged",
                 (void *)cases[i].node);
        cgn_test_assert_message(want);
    }
    cgn_driver_install(inner_table);
    OK(cgn_exec_update_from_graph(e, g));
    OK(cgn_exec_destroy(e));
    OK(cgn_graph_destroy(g));
    OK(cgn_graph_destroy(src));
}

/* ---- cgn__handles_live and the handle table's lock ------------------------------------------- */

void *__real_calloc(size_t nmemb, size_t size);
void *__wrap_calloc(size_t nmemb, size_t size);

static int calloc_armed;         /* the next handle-chunk calloc runs the probe */
static atomic_int probe_done;    /* the probe thread's cgn__handles_live returned */
static int probe_done_in_calloc; /* ... while the allocating thread was still in the calloc */
static size_t probe_live;        /* what it returned */
static pthread_t probe_thread;
static int probe_started;

static void *probe(void *arg) {
    (void)arg;
    probe_live = cgn__handles_live();
    atomic_store(&probe_done, 1);
    return NULL;
}

/* A handle table chunk's calloc runs under the table's mutex (cgn__handles_new growing the
 * table): a thread asking cgn__handles_live meanwhile must wait for it. The calloc gives it
 * 200 ms to return: it cannot with the lock taken, so the test cannot fail spuriously (only a
 * probe thread not scheduled at all in that time could hide a missing lock). */
void *__wrap_calloc(size_t nmemb, size_t size) {
    if (calloc_armed && nmemb == CGN__CHUNK_SLOTS && size == sizeof(cgn__slot)) {
        calloc_armed = 0;
        if (pthread_create(&probe_thread, NULL, probe, NULL) == 0) {
            probe_started = 1;
            for (int i = 0; i < 20 && !atomic_load(&probe_done); i++) {
                struct timespec ts = {0, 10 * 1000 * 1000};
                nanosleep(&ts, NULL);
            }
            probe_done_in_calloc = atomic_load(&probe_done);
        }
    }
    return __real_calloc(nmemb, size);
}

static void test_handles_live_waits_for_the_table_lock(void **state) {
    (void)state;
    size_t chunks = 0;
    while (chunks < CGN__MAX_CHUNKS && atomic_load(&cgn__chunks[chunks]) != NULL)
        chunks++;
    size_t live = cgn__handles_live();
    size_t count = chunks * CGN__CHUNK_SLOTS - live + 1; /* one more than the free slots */
    cgn__handle *out = malloc(count * sizeof *out);
    assert_non_null(out);
    atomic_store(&probe_done, 0);
    probe_done_in_calloc = 0;
    probe_started = 0;
    calloc_armed = 1;
    OK(cgn__handles_new(CGN__KIND_NODE, count, out, NULL, 0, "seed14"));
    calloc_armed = 0;
    assert_true(probe_started);
    assert_int_equal(pthread_join(probe_thread, NULL), 0);
    if (probe_done_in_calloc)
        fail_msg("%s",
                 "cgn__handles_live returned while another thread held the handle table's lock");
    /* It ran after the allocation: it saw all of it. */
    assert_int_equal(probe_live, live + count);
    assert_int_equal(cgn__handles_live(), live + count);
    cgn__handles_free(out, count);
    free(out);
    assert_int_equal(cgn__handles_live(), live);
}

/* ---- a rollback after a failed apply --------------------------------------------------------- */

/* runtime.h: cgn__txn_rollback is "safe to call after a failed apply (no-op then)": the apply's
 * own rollback leaves nothing for a second one to release, restore or free; the node keeps its
 * parameters and updates as before. */
static void test_rollback_after_failed_apply_is_a_noop(void **state) {
    cgn_test_env *env = *state;
    cgn_graph *g;
    cgn_node *n;
    OK(cgn_graph_create(&g));
    cgn_memset_desc d = cgn_test_fill_desc(env, 0, 0x11, 1);
    OK(cgn_graph_add_memset(g, NULL, 0, &d, &n));
    for (int round = 0; round < 3; round++) {
        cgn__txn txn;
        OK(cgn__update_begin(&txn, n, CGN_NODE_MEMSET, 12020, "seed14"));
        OK(cgn__txn_enter(&txn, "seed14"));
        assert_int_equal(
            cgn__txn_apply_failed(&txn, CUDA_ERROR_UNKNOWN, "seed14", "cuGraphNodeSetParams"),
            CGN_ERROR_DRIVER);
        cgn__txn_rollback(&txn); /* the caller's own rollback: nothing left to undo */
        cgn__txn_rollback(&txn);
        cgn_memset_desc got;
        OK(cgn_memset_node_get(n, &got));
        assert_int_equal(got.value, 0x11);
        assert_ptr_equal(got.dst_owner, env->owner[0]);
    }
    cgn_memset_update u = CGN_MEMSET_UPDATE_INIT;
    cgn_memset_update_set_value(&u, 0x22, 1);
    OK(cgn_memset_node_update(n, &u));
    cgn_memset_desc got;
    OK(cgn_memset_node_get(n, &got));
    assert_int_equal(got.value, 0x22);
    OK(cgn_graph_destroy(g));
}

int main(void) {
#define T(fn) cmocka_unit_test_setup_teardown(fn, cgn_test_fixture_setup, cgn_test_fixture_teardown)
    const struct CMUnitTest tests[] = {
        T(test_find_kernel_asks_only_what_it_compares),
        T(test_conditional_missing_body_message),
        T(test_refresh_refusal_names_node_after_child_graph),
        T(test_handles_live_waits_for_the_table_lock),
        T(test_rollback_after_failed_apply_is_a_noop),
    };
#undef T
    return cmocka_run_group_tests(tests, NULL, NULL);
}
