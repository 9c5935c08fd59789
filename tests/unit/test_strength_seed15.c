/* The survivors of a fresh mutation spot check of the runtime and the generated sources
 * (tools/mutate over the .c files of runtime/ and generated/src/, --sample 5 --seed 15), on the
 * fake driver: cgn_graph_nodes and the other listing calls refusing a NULL count; a failing
 * cuGraphNodeSetEnabled named in cgn_exec_node_set_enabled's message; cgn_graph_add_conditional
 * refusing a NULL node_out; a refresh of an event record node keeping the event's owner only
 * while the event is unchanged; and the out-of-memory message of an external semaphore node's
 * array copy naming the field. (Issue 8: test strength.)
 *
 * The test executable is linked with -Wl,--wrap=malloc, so cgn's malloc calls come here first:
 * the next one of at least a given size can be made to fail. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "cgn_fault.h"
#include "cgn_test_env.h"
#include "cgn_test_fixture.h"
#include "fake_driver.h"
#include "runtime.h"

#define CU_OK(call) assert_int_equal((call), CUDA_SUCCESS)

/* ---- failing one large allocation ------------------------------------------------------------ */

void *__real_malloc(size_t size);
void *__wrap_malloc(size_t size);

static struct {
    size_t at_least; /* 0: nothing fails; else the next malloc of at least this many bytes fails */
    int failed;      /* one did */
} fail_malloc;

void *__wrap_malloc(size_t size) {
    if (fail_malloc.at_least != 0 && size >= fail_malloc.at_least) {
        fail_malloc.at_least = 0;
        fail_malloc.failed = 1;
        return NULL;
    }
    return __real_malloc(size);
}

/* ---- listing calls and a NULL count ---------------------------------------------------------- */

/* Every listing call wants somewhere to put the count: NULL is CGN_ERROR_INVALID_ARGUMENT with
 * a message naming the call, whether or not an output array is given. */
static void test_listing_calls_refuse_null_count(void **state) {
    cgn_test_env *env = *state;
    cgn_graph *g;
    OK(cgn_graph_create(&g));
    cgn_memset_desc d = cgn_test_fill_desc(env, 0, 0x11, 0);
    cgn_node *a, *b;
    OK(cgn_graph_add_memset(g, NULL, 0, &d, &a));
    OK(cgn_graph_add_memset(g, &a, 1, &d, &b));
    cgn_node *out[4] = {NULL, NULL, NULL, NULL};

    assert_int_equal(cgn_graph_nodes(g, NULL, NULL), CGN_ERROR_INVALID_ARGUMENT);
    cgn_test_assert_message("cgn_graph_nodes: count must not be NULL");
    assert_int_equal(cgn_graph_nodes(g, out, NULL), CGN_ERROR_INVALID_ARGUMENT);
    cgn_test_assert_message("cgn_graph_nodes: count must not be NULL");
    assert_null(out[0]);

    assert_int_equal(cgn_node_dependencies(b, out, NULL), CGN_ERROR_INVALID_ARGUMENT);
    cgn_test_assert_message("cgn_node_dependencies: count must not be NULL");
    assert_int_equal(cgn_node_dependents(a, out, NULL), CGN_ERROR_INVALID_ARGUMENT);
    cgn_test_assert_message("cgn_node_dependents: count must not be NULL");
    assert_null(out[0]);

    /* With a count, the same calls list the nodes. */
    size_t count = 4;
    OK(cgn_graph_nodes(g, out, &count));
    assert_int_equal(count, 2);
    assert_ptr_equal(out[0], a);
    assert_ptr_equal(out[1], b);
    OK(cgn_graph_destroy(g));
}

/* ---- cgn_exec_node_set_enabled and a failing driver call ------------------------------------- */

/* cgn_exec_node_set_enabled with each driver call failing in turn: every failure is
 * CGN_ERROR_DRIVER whose message names the function and the failing call (cuGraphNodeSetEnabled
 * among them), the node keeps its enabled state, and the node's context is current again. */
static void test_set_enabled_driver_failures(void **state) {
    cgn_test_env *env = *state;
    cgn_graph *g;
    cgn_node *n;
    cgn_exec *e;
    cgn_test_fill_graph(env, &g, &n, &e);
    int seen_set = 0;
    long k;
    for (k = 1; k < 20; k++) {
        cgn_fault_arm(k, CUDA_ERROR_UNKNOWN);
        cgn_status st = cgn_exec_node_set_enabled(e, n, 0);
        cgn_fault_disarm();
        cgn_fault_entry entry;
        if (!cgn_fault_triggered(&entry)) {
            OK(st);
            break;
        }
        assert_int_equal(st, CGN_ERROR_DRIVER);
        char want[160];
        snprintf(want, sizeof want,
                 "cgn_exec_node_set_enabled: %s returned CUDA_ERROR_UNKNOWN (999)",
                 cgn_fault_entry_name(entry));
        cgn_test_assert_message(want);
        assert_int_equal(env->backend->current_context(env), CGN_TEST_CTX_OWN);
        int enabled = 7;
        OK(cgn_exec_node_get_enabled(e, n, &enabled));
        assert_int_equal(enabled, 1); /* still enabled */
        seen_set += entry == CGN_FAULT_cuGraphNodeSetEnabled;
    }
    assert_true(k < 20);
    assert_int_equal(seen_set, 1);
    int enabled = 7;
    OK(cgn_exec_node_get_enabled(e, n, &enabled));
    assert_int_equal(enabled, 0);
    OK(cgn_exec_destroy(e));
    OK(cgn_graph_destroy(g));
}

/* ---- cgn_graph_add_conditional and a NULL node_out ------------------------------------------- */

/* A NULL node_out is CGN_ERROR_INVALID_ARGUMENT, as a NULL desc is: nothing is added, and no
 * conditional handle is created. */
static void test_add_conditional_refuses_null_node_out(void **state) {
    (void)state;
    cgn_graph *g;
    OK(cgn_graph_create(&g));
    cgn_conditional_desc d = CGN_CONDITIONAL_DESC_INIT;
    d.type = 2; /* SWITCH */
    d.size = 2;
    size_t handles = cgn_fake_conditional_handles();
    assert_int_equal(cgn_graph_add_conditional(g, NULL, 0, &d, NULL), CGN_ERROR_INVALID_ARGUMENT);
    cgn_test_assert_message("cgn_graph_add_conditional: desc and node_out must not be NULL");
    assert_int_equal(cgn_test_count_nodes(g), 0);
    assert_int_equal(cgn_fake_conditional_handles(), handles);
    cgn_node *node = NULL;
    assert_int_equal(cgn_graph_add_conditional(g, NULL, 0, NULL, &node),
                     CGN_ERROR_INVALID_ARGUMENT);
    cgn_test_assert_message("cgn_graph_add_conditional: desc and node_out must not be NULL");
    assert_null(node);
    assert_int_equal(cgn_test_count_nodes(g), 0);
    /* The same desc with a node_out is added. */
    OK(cgn_graph_add_conditional(g, NULL, 0, &d, &node));
    assert_non_null(node);
    assert_int_equal(cgn_test_count_nodes(g), 1);
    OK(cgn_graph_destroy(g));
}

/* ---- a refreshed event record node and its event's owner ------------------------------------- */

/* Records `event` with `owner` in a new node of g. */
static cgn_node *add_record(cgn_graph *g, CUevent event, cgn_owner *owner) {
    cgn_event_record_desc d = CGN_EVENT_RECORD_DESC_INIT;
    d.event = event;
    d.event_owner = owner;
    cgn_node *n;
    OK(cgn_graph_add_event_record(g, NULL, 0, &d, &n));
    return n;
}

/* A refresh reads the node back from the driver: while it records the same event, the event's
 * owner stays with the node (and keeps its reference); once the event was changed behind cgn's
 * back, the owner no longer applies and is dropped. Both orders of the two events' handles. */
static void test_refresh_keeps_event_owner_only_for_same_event(void **state) {
    cgn_test_env *env = *state;
    const cgn_driver_table *drv = cgn__driver;
    for (int from = 0; from < 2; from++) {
        CUevent before = env->event[from], after = env->event[1 - from];
        assert_non_null(before);
        assert_non_null(after);
        cgn_graph *g;
        OK(cgn_graph_create(&g));
        cgn_node *n = add_record(g, before, env->owner[2]);
        OK(cgn_node_refresh(n));
        cgn_event_record_desc got;
        OK(cgn_event_record_node_get(n, &got));
        assert_ptr_equal(got.event, before);
        assert_ptr_equal(got.event_owner, env->owner[2]); /* same event: owner kept */
        OK(cgn_node_refresh(n));                          /* and kept again */
        OK(cgn_event_record_node_get(n, &got));
        assert_ptr_equal(got.event_owner, env->owner[2]);

        CUgraphNode raw;
        OK(cgn_node_raw(n, &raw));
        CU_OK(drv->cuGraphEventRecordNodeSetEvent(raw, after)); /* behind cgn's back */
        OK(cgn_node_refresh(n));
        OK(cgn_event_record_node_get(n, &got));
        assert_ptr_equal(got.event, after);
        assert_null(got.event_owner); /* another event: not the owner's */
        OK(cgn_graph_destroy(g));
    }
}

/* ---- an external semaphore node's arrays and host memory ------------------------------------- */

/* Adding an external semaphore wait (and signal) node copies its two arrays into one block:
 * when that allocation fails, the add is CGN_ERROR_OUT_OF_MEMORY, the message names the field
 * and the count, and nothing is added. */
static void test_ext_sem_array_copy_out_of_memory(void **state) {
    cgn_test_env *env = *state;
    assert_non_null(env->sem[0]);
    enum { N = 48 };
    CUexternalSemaphore sems[N];
    for (int i = 0; i < N; i++)
        sems[i] = env->sem[i % CGN_TEST_NUM_SEMS];
    cgn_graph *g;
    OK(cgn_graph_create(&g));

    static CUDA_EXTERNAL_SEMAPHORE_WAIT_PARAMS wait_params[N];
    cgn_ext_sem_wait_desc w = CGN_EXT_SEM_WAIT_DESC_INIT;
    w.sems = sems;
    w.sems_params = wait_params;
    w.num_sems = N;
    cgn_node *n = NULL;
    fail_malloc.failed = 0;
    fail_malloc.at_least = N * (sizeof sems[0] + sizeof wait_params[0]);
    cgn_status st = cgn_graph_add_ext_sem_wait(g, NULL, 0, &w, &n);
    fail_malloc.at_least = 0;
    assert_true(fail_malloc.failed);
    assert_int_equal(st, CGN_ERROR_OUT_OF_MEMORY);
    cgn_test_assert_message(
        "cgn_graph_add_ext_sem_wait: no host memory for a copy of sems (48 elements)");
    assert_null(n);
    assert_int_equal(cgn_test_count_nodes(g), 0);
    OK(cgn_graph_add_ext_sem_wait(g, NULL, 0, &w, &n)); /* with memory it goes through */
    assert_int_equal(cgn_test_count_nodes(g), 1);

    static CUDA_EXTERNAL_SEMAPHORE_SIGNAL_PARAMS signal_params[N];
    cgn_ext_sem_signal_desc s = CGN_EXT_SEM_SIGNAL_DESC_INIT;
    s.sems = sems;
    s.sems_params = signal_params;
    s.num_sems = N;
    cgn_node *m = NULL;
    fail_malloc.failed = 0;
    fail_malloc.at_least = N * (sizeof sems[0] + sizeof signal_params[0]);
    st = cgn_graph_add_ext_sem_signal(g, NULL, 0, &s, &m);
    fail_malloc.at_least = 0;
    assert_true(fail_malloc.failed);
    assert_int_equal(st, CGN_ERROR_OUT_OF_MEMORY);
    cgn_test_assert_message(
        "cgn_graph_add_ext_sem_signal: no host memory for a copy of sems (48 elements)");
    assert_null(m);
    assert_int_equal(cgn_test_count_nodes(g), 1);
    OK(cgn_graph_destroy(g));
}

int main(void) {
#define T(fn) cmocka_unit_test_setup_teardown(fn, cgn_test_fixture_setup, cgn_test_fixture_teardown)
    const struct CMUnitTest tests[] = {
        T(test_listing_calls_refuse_null_count),
        T(test_set_enabled_driver_failures),
        T(test_add_conditional_refuses_null_node_out),
        T(test_refresh_keeps_event_owner_only_for_same_event),
        T(test_ext_sem_array_copy_out_of_memory),
    };
#undef T
    return cmocka_run_group_tests(tests, NULL, NULL);
}
