/* The survivors of a fresh mutation spot check of the runtime and the generated sources
 * (tools/mutate over the .c files of runtime/ and generated/src/, --sample 3 --seed 22), on the
 * fake driver: a refresh of a host callback whose user data changed behind cgn's back drops the
 * owner of the old user data; the message of a refused cgn_mem_free_exec_get names it; a
 * whole-graph refresh with the executable's context already current pushes no context; a refresh
 * of an external-semaphore signal node that runs out of host memory changes nothing; an adoption
 * refused because the handle table cannot grow frees every block it allocated. (Issue 8: test
 * strength.)
 *
 * The test executable is linked with -Wl,--wrap=malloc,--wrap=calloc,--wrap=realloc,--wrap=free:
 * the handle table's chunks can be made to fail, the nth allocation from a point on can be made
 * to fail, and the blocks allocated while tracking are counted until freed. */
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

/* ---- allocations seen through the wrappers ----------------------------------------------------
 */

void *__real_malloc(size_t size);
void *__wrap_malloc(size_t size);
void *__real_calloc(size_t n, size_t size);
void *__wrap_calloc(size_t n, size_t size);
void *__real_realloc(void *p, size_t size);
void *__wrap_realloc(void *p, size_t size);
void __real_free(void *p);
void __wrap_free(void *p);

#define LIVE_MAX 4096
static struct {
    int track;            /* count blocks allocated from now on until freed */
    void *live[LIVE_MAX]; /* the tracked blocks not freed yet */
    size_t overflow;      /* tracked blocks that found no room (the test then fails) */
    long fail_nth;        /* > 0: the fail_nth-th allocation from now fails (once) */
    long seen;            /* allocations since fail_nth was set */
    int fail_chunks;      /* handle-table chunks fail */
    long chunks_grown;    /* chunks allocated */
} al;

static void live_add(void *p) {
    if (p == NULL || !al.track)
        return;
    for (size_t i = 0; i < LIVE_MAX; i++)
        if (al.live[i] == NULL) {
            al.live[i] = p;
            return;
        }
    al.overflow++;
}

static void live_remove(void *p) {
    if (p == NULL)
        return;
    for (size_t i = 0; i < LIVE_MAX; i++)
        if (al.live[i] == p) {
            al.live[i] = NULL;
            return;
        }
}

static size_t live_count(void) {
    size_t n = 0;
    for (size_t i = 0; i < LIVE_MAX; i++)
        n += al.live[i] != NULL;
    return n;
}

/* Whether this allocation is the one made to fail. */
static int fail_now(void) {
    return al.fail_nth > 0 && ++al.seen == al.fail_nth;
}

void *__wrap_malloc(size_t size) {
    if (fail_now())
        return NULL;
    void *p = __real_malloc(size);
    live_add(p);
    return p;
}

void *__wrap_calloc(size_t n, size_t size) {
    const int chunk = n == CGN__CHUNK_SLOTS && size == sizeof(cgn__slot);
    if ((chunk && al.fail_chunks) || fail_now())
        return NULL;
    void *p = __real_calloc(n, size);
    al.chunks_grown += chunk && p != NULL;
    live_add(p);
    return p;
}

void *__wrap_realloc(void *old, size_t size) {
    if (fail_now())
        return NULL;
    void *p = __real_realloc(old, size);
    if (p != NULL) {
        live_remove(old);
        live_add(p);
    }
    return p;
}

void __wrap_free(void *p) {
    live_remove(p);
    __real_free(p);
}

static void tracking_start(void) {
    memset(al.live, 0, sizeof al.live);
    al.overflow = 0;
    al.track = 1;
}

static size_t tracking_stop(void) {
    al.track = 0;
    assert_int_equal(al.overflow, 0);
    return live_count();
}

/* ---- refreshes ---------------------------------------------------------------------------------
 */

/* A refresh keeps the owner of a value only while the value is unchanged (cgn.h,
 * cgn_node_refresh): the host callback's user data changed behind cgn's back, so its owner goes. */
static void test_host_refresh_drops_the_owner_of_changed_user_data(void **state) {
    cgn_test_env *env = *state;
    cgn_graph *g;
    OK(cgn_graph_create(&g));
    static int old_data, new_data;
    cgn_host_callback_desc d = CGN_HOST_CALLBACK_DESC_INIT;
    d.fn = cgn_test_callback(env, "record_a");
    d.user_data = &old_data;
    d.user_data_owner = cgn_test_owner(env, 0);
    cgn_node *n;
    OK(cgn_graph_add_host_callback(g, NULL, 0, &d, &n));
    cgn_host_callback_desc got;
    OK(cgn_node_refresh(n)); /* unchanged: the owner stays */
    OK(cgn_host_callback_node_get(n, &got));
    assert_ptr_equal(got.user_data_owner, d.user_data_owner);

    CUgraphNode raw;
    OK(cgn_node_raw(n, &raw));
    CUDA_HOST_NODE_PARAMS_v1 hp = {d.fn, &new_data};
    CU_OK(env->backend->driver(env)->cuGraphHostNodeSetParams(raw, &hp));
    OK(cgn_node_refresh(n));
    OK(cgn_host_callback_node_get(n, &got));
    assert_ptr_equal(got.user_data, &new_data);
    assert_null(got.user_data_owner);
    OK(cgn_graph_destroy(g));
}

/* A refresh that runs out of host memory while copying an external-semaphore signal node's
 * arrays is refused with CGN_ERROR_OUT_OF_MEMORY and leaves the node as it was: each allocation
 * of the refresh made to fail in turn. */
static void test_sem_signal_refresh_out_of_memory(void **state) {
    cgn_test_env *env = *state;
    cgn_graph *g;
    OK(cgn_graph_create(&g));
    CUexternalSemaphore sem = cgn_test_sem(env, 0);
    CUDA_EXTERNAL_SEMAPHORE_SIGNAL_PARAMS sp;
    memset(&sp, 0, sizeof sp);
    sp.params.fence.value = 7;
    cgn_ext_sem_signal_desc d = CGN_EXT_SEM_SIGNAL_DESC_INIT;
    d.sems = &sem;
    d.sems_params = &sp;
    d.num_sems = 1;
    cgn_node *n;
    OK(cgn_graph_add_ext_sem_signal(g, NULL, 0, &d, &n));
    int refused = 0;
    long k;
    for (k = 1; k < 64; k++) {
        al.seen = 0;
        al.fail_nth = k;
        cgn_status st = cgn_node_refresh(n);
        const int failed = al.seen >= k;
        al.fail_nth = 0;
        if (!failed) {
            OK(st);
            break;
        }
        if (st != CGN_ERROR_OUT_OF_MEMORY)
            fail_msg("allocation %ld failing: cgn_node_refresh gave %s (%s)", k,
                     cgn_status_name(st), cgn_last_error());
        refused++;
        cgn_ext_sem_signal_desc now;
        OK(cgn_ext_sem_signal_node_get(n, &now));
        assert_int_equal(now.num_sems, 1);
        assert_non_null(now.sems);
        assert_non_null(now.sems_params);
        assert_ptr_equal(now.sems[0], sem);
        assert_int_equal(now.sems_params[0].params.fence.value, 7);
    }
    assert_true(refused > 0);
    assert_true(k < 64);
    OK(cgn_graph_destroy(g));
}

/* ---- messages and contexts ---------------------------------------------------------------------
 */

/* Every refused call's message starts with the function that failed (errors.md). */
static void test_mem_free_exec_get_message(void **state) {
    cgn_test_env *env = *state;
    cgn_graph *g;
    cgn_node *n;
    cgn_exec *e;
    cgn_test_fill_graph(env, &g, &n, &e);
    cgn_mem_free_desc out;
    assert_int_equal(cgn_mem_free_exec_get(e, n, &out), CGN_ERROR_WRONG_NODE_TYPE);
    if (strncmp(cgn_last_error(), "cgn_mem_free_exec_get: ", 23) != 0)
        fail_msg("message \"%s\" does not start with the function", cgn_last_error());
    OK(cgn_exec_destroy(e));
    OK(cgn_graph_destroy(g));
}

/* A whole-graph refresh makes the executable's context current only when it is not: with it
 * current already, no context is pushed (or popped). */
static void test_refresh_in_current_context_pushes_none(void **state) {
    cgn_test_env *env = *state;
    cgn_graph *g;
    cgn_node *n;
    cgn_exec *e;
    cgn_test_fill_graph(env, &g, &n, &e);
    env->backend->set_context(env, CGN_TEST_CTX_OWN);
    cgn_fault_reset_counts();
    OK(cgn_exec_update_from_graph(e, g));
    assert_int_equal(cgn_fault_calls(CGN_FAULT_cuCtxPushCurrent), 0);
    assert_int_equal(cgn_fault_calls(CGN_FAULT_cuCtxPopCurrent), 0);
    env->backend->set_context(env, CGN_TEST_CTX_NONE);
    cgn_fault_reset_counts();
    OK(cgn_exec_update_from_graph(e, g)); /* none current: pushed and popped once */
    assert_int_equal(cgn_fault_calls(CGN_FAULT_cuCtxPushCurrent), 1);
    assert_int_equal(cgn_fault_calls(CGN_FAULT_cuCtxPopCurrent), 1);
    env->backend->set_context(env, CGN_TEST_CTX_OWN);
    OK(cgn_exec_destroy(e));
    OK(cgn_graph_destroy(g));
}

/* ---- an adoption the handle table cannot hold ----------------------------------------------- */

/* A raw graph of `num` empty nodes, built on the fake directly. */
static CUgraph raw_empty_nodes(const cgn_driver_table *drv, size_t num) {
    CUgraph raw;
    CU_OK(drv->cuGraphCreate(&raw, 0));
    for (size_t i = 0; i < num; i++) {
        CUgraphNode node;
        CU_OK(drv->cuGraphAddEmptyNode(&node, raw, NULL, 0));
    }
    return raw;
}

/* An adoption needing more handles than the table has while it cannot grow is refused with
 * CGN_ERROR_OUT_OF_MEMORY before any record is made, and frees every block it allocated (the
 * records' slab among them). */
static void test_refused_adoption_frees_its_blocks(void **state) {
    cgn_test_env *env = *state;
    const cgn_driver_table *drv = env->backend->driver(env);
    assert_true(al.chunks_grown > 0);
    size_t capacity = (size_t)al.chunks_grown * CGN__CHUNK_SLOTS;
    size_t free_slots = capacity - cgn__handles_live();
    CUgraph raw = raw_empty_nodes(drv, free_slots + 10);
    cgn_graph *g = NULL;
    tracking_start();
    al.fail_chunks = 1;
    cgn_status st = cgn_graph_adopt(raw, 0, &g);
    al.fail_chunks = 0;
    size_t leaked = tracking_stop();
    assert_int_equal(st, CGN_ERROR_OUT_OF_MEMORY);
    assert_null(g);
    if (leaked != 0)
        fail_msg("the refused adoption left %zu block(s) allocated", leaked);
    CU_OK(drv->cuGraphDestroy(raw));
}

int main(void) {
    const struct CMUnitTest tests[] = {
        cmocka_unit_test_setup_teardown(test_host_refresh_drops_the_owner_of_changed_user_data,
                                        cgn_test_fixture_setup, cgn_test_fixture_teardown),
        cmocka_unit_test_setup_teardown(test_sem_signal_refresh_out_of_memory,
                                        cgn_test_fixture_setup, cgn_test_fixture_teardown),
        cmocka_unit_test_setup_teardown(test_mem_free_exec_get_message, cgn_test_fixture_setup,
                                        cgn_test_fixture_teardown),
        cmocka_unit_test_setup_teardown(test_refresh_in_current_context_pushes_none,
                                        cgn_test_fixture_setup, cgn_test_fixture_teardown),
        cmocka_unit_test_setup_teardown(test_refused_adoption_frees_its_blocks,
                                        cgn_test_fixture_setup, cgn_test_fixture_teardown),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
