/* More of what the other unit tests do not look at, on the fake driver (the survivors of the
 * fourth mutation sample): which node types need a current context to be added; an
 * executable-level child graph update re-taking its copies of the nodes inside; a refresh of an
 * event wait node whose event changed behind cgn's back; the messages of cgn_child_graph_node_find
 * and of a refresh from another graph; driver failures of cgn_exec_node_get_enabled; destroyed
 * executables' versions released as their own last launch completes, whatever the order of
 * destruction; and tens of thousands of live handles at once. From the fifth sample: the
 * same-hierarchy message, cgn_graph_find_kernel's arguments and a driver without
 * cuKernelGetFunction, the driver version in the refusal of argument-level updates, fence events
 * reused, destroying an executable launched only through its raw handle, cuGraphCreate and
 * cuGraphDestroy failing, and dependencies on a destroyed node. (Issue 8: test strength.) */
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
#include "strength_nodes.h"

static size_t node_count(cgn_graph *g) {
    size_t count = 0;
    OK(cgn_graph_nodes(g, NULL, &count));
    return count;
}

/* ---- adding without a current context -------------------------------------------------------- */

/* Kernel, memset and memcpy nodes run in a context: with none current their add is refused with
 * CGN_ERROR_NO_CONTEXT before the driver is asked to change anything, and leaves no node and no
 * owner reference. Host callback, event and child graph nodes need none: they are added. */
static void test_add_without_context_by_type(void **state) {
    cgn_test_env *env = *state;
    static const int needs[NUM_TYPES] = {[MEMSET] = 1, [MEMCPY] = 1, [KERNEL] = 1};
    for (int t = 0; t < NUM_TYPES; t++) {
        cgn_graph *g;
        OK(cgn_graph_create(&g));
        any_desc d = valid_desc(env, t); /* made first: the test graph needs a context */
        long refs[CGN_TEST_NUM_BUFS];
        for (int i = 0; i < CGN_TEST_NUM_BUFS; i++)
            refs[i] = owner_refs(env->owner[i]);
        size_t live = cgn__handles_live();
        cgn_node *n = NULL;
        env->backend->set_context(env, CGN_TEST_CTX_NONE);
        cgn_fault_reset_counts();
        cgn_status st = apis[t]->add(g, &d, &n);
        long mutations = mutating_calls();
        env->backend->set_context(env, CGN_TEST_CTX_OWN);
        if (!needs[t]) {
            if (st != CGN_OK)
                fail_msg("%s: %s (%s)", apis[t]->name, cgn_status_name(st), cgn_last_error());
            assert_non_null(n);
            assert_int_equal(node_count(g), 1);
            OK(cgn_graph_destroy(g));
            continue;
        }
        if (st != CGN_ERROR_NO_CONTEXT)
            fail_msg("%s: %s (%s), expected CGN_ERROR_NO_CONTEXT", apis[t]->name,
                     cgn_status_name(st), cgn_last_error());
        char want[256];
        snprintf(want, sizeof want,
                 "cgn_graph_add_%s: no CUDA context is current; make one current first (e.g. "
                 "cuDevicePrimaryCtxRetain + cuCtxSetCurrent)",
                 apis[t]->name);
        assert_message(want);
        assert_int_equal(mutations, 0);
        assert_null(n);
        assert_int_equal(node_count(g), 0);
        assert_int_equal(cgn__handles_live(), live);
        for (int i = 0; i < CGN_TEST_NUM_BUFS; i++)
            assert_int_equal(owner_refs(env->owner[i]), refs[i]);
        OK(cgn_graph_destroy(g));
    }
    assert_int_equal(cgn_fake_crash_prone_calls(), 0);
}

/* ---- child graphs ---------------------------------------------------------------------------- */

/* An executable-level child graph update: the executable's copies of the nodes inside follow the
 * new source (their params and owners, as the executable getters report them), and the
 * executable holds the new source's owner, after that source is destroyed, until it is destroyed
 * itself. The definition keeps its embedded graph. */
static void test_exec_child_update_retakes_inner_nodes(void **state) {
    cgn_test_env *env = *state;
    cgn_graph *src, *parent, *next;
    cgn_node *m, *m2, *k, *inner;
    cgn_exec *e;
    OK(cgn_graph_create(&src));
    cgn_memset_desc d0 = cgn_test_fill_desc(env, 0, 0x11, 1);
    OK(cgn_graph_add_memset(src, NULL, 0, &d0, &m));
    OK(cgn_graph_create(&parent));
    cgn_child_graph_desc cd = CGN_CHILD_GRAPH_DESC_INIT;
    cd.graph = src;
    OK(cgn_graph_add_child_graph(parent, NULL, 0, &cd, &k));
    OK(cgn_graph_instantiate(parent, &e));
    OK(cgn_child_graph_node_find(k, m, &inner));

    long refs2 = owner_refs(env->owner[2]);
    OK(cgn_graph_create(&next));
    cgn_memset_desc d1 = cgn_test_fill_desc(env, 2, 0x22, 1);
    OK(cgn_graph_add_memset(next, NULL, 0, &d1, &m2));
    OK(cgn_graph_destroy(src));
    cgn_child_graph_update u = CGN_CHILD_GRAPH_UPDATE_INIT;
    u.set = CGN_CHILD_GRAPH_SET_GRAPH;
    u.graph = next;
    OK(cgn_child_graph_exec_update(e, k, &u));

    cgn_memset_desc got;
    OK(cgn_memset_exec_get(e, inner, &got));
    assert_int_equal(got.dst, env->buf[2]);
    assert_int_equal(got.value, 0x22);
    assert_ptr_equal(got.dst_owner, env->owner[2]);
    OK(cgn_memset_node_get(inner, &got)); /* the definition's copy is unchanged */
    assert_int_equal(got.dst, env->buf[0]);
    assert_int_equal(got.value, 0x11);
    assert_ptr_equal(got.dst_owner, env->owner[0]);
    assert_int_equal(cgn_test_run_read(env, e, 2), 0x22);

    OK(cgn_graph_destroy(next));
    (void)cgn_collect();
    assert_true(owner_refs(env->owner[2]) > refs2); /* still the executable's */
    OK(cgn_exec_destroy(e));
    OK(cgn_graph_destroy(parent));
    (void)cgn_collect();
    assert_int_equal(owner_refs(env->owner[2]), refs2);
}

/* A node that is no source of the embedded graph: refused with a message naming both nodes. */
static void test_child_find_message(void **state) {
    cgn_test_env *env = *state;
    cgn_graph *src, *parent;
    cgn_node *m, *k, *stranger, *found = NULL;
    OK(cgn_graph_create(&src));
    cgn_memset_desc d = cgn_test_fill_desc(env, 0, 0x11, 0);
    OK(cgn_graph_add_memset(src, NULL, 0, &d, &m));
    OK(cgn_graph_create(&parent));
    cgn_child_graph_desc cd = CGN_CHILD_GRAPH_DESC_INIT;
    cd.graph = src;
    OK(cgn_graph_add_child_graph(parent, NULL, 0, &cd, &k));
    OK(cgn_graph_add_empty(src, NULL, 0, &stranger)); /* added after the embedding */
    assert_int_equal(cgn_child_graph_node_find(k, stranger, &found), CGN_ERROR_INVALID_VALUE);
    char want[256];
    snprintf(want, sizeof want,
             "cgn_child_graph_node_find: node %p was not part of the graph embedded by child "
             "node %p",
             (void *)stranger, (void *)k);
    assert_message(want);
    assert_null(found);
    OK(cgn_child_graph_node_find(k, m, &found));
    assert_non_null(found);
    OK(cgn_graph_destroy(parent));
    OK(cgn_graph_destroy(src));
}

/* ---- refresh --------------------------------------------------------------------------------- */

/* An event wait node whose event was changed through its raw handle: a refresh reads the new
 * event and drops the owner, which went with the old one; an unchanged event keeps its owner. */
static void test_refresh_event_wait_changed_event(void **state) {
    cgn_test_env *env = *state;
    cgn_graph *g;
    cgn_node *n;
    OK(cgn_graph_create(&g));
    cgn_event_wait_desc d = CGN_EVENT_WAIT_DESC_INIT;
    d.event = env->event[1];
    d.event_owner = env->owner[2];
    OK(cgn_graph_add_event_wait(g, NULL, 0, &d, &n));
    OK(cgn_node_refresh(n));
    cgn_event_wait_desc got;
    OK(cgn_event_wait_node_get(n, &got));
    assert_ptr_equal(got.event, env->event[1]);
    assert_ptr_equal(got.event_owner, env->owner[2]);

    CUgraphNode raw;
    OK(cgn_node_raw(n, &raw));
    CUgraphNodeParams p;
    memset(&p, 0, sizeof p);
    p.type = CU_GRAPH_NODE_TYPE_WAIT_EVENT;
    p.eventWait.event = env->event[0];
    CU_OK(cgn_fake_table()->cuGraphNodeSetParams(raw, &p));
    OK(cgn_node_refresh(n));
    OK(cgn_event_wait_node_get(n, &got));
    assert_ptr_equal(got.event, env->event[0]);
    assert_null(got.event_owner);
    OK(cgn_graph_destroy(g));
}

/* A refresh from a graph other than the executable's own: refused, naming both. */
static void test_refresh_from_another_graph_message(void **state) {
    cgn_test_env *env = *state;
    cgn_graph *g, *other;
    cgn_node *n;
    cgn_exec *e;
    OK(cgn_graph_create(&g));
    OK(cgn_graph_create(&other));
    cgn_memset_desc d = cgn_test_fill_desc(env, 0, 0x11, 0);
    OK(cgn_graph_add_memset(g, NULL, 0, &d, &n));
    OK(cgn_graph_add_memset(other, NULL, 0, &d, &n));
    OK(cgn_graph_instantiate(g, &e));
    cgn_fault_reset_counts();
    assert_int_equal(cgn_exec_update_from_graph(e, other), CGN_ERROR_INVALID_ARGUMENT);
    char want[256];
    snprintf(want, sizeof want,
             "cgn_exec_update_from_graph: graph %p is not the graph executable %p was "
             "instantiated from; cgn refreshes an executable from its own graph",
             (void *)other, (void *)e);
    assert_message(want);
    assert_int_equal(cgn_fault_calls(CGN_FAULT_cuGraphExecUpdate), 0);
    OK(cgn_exec_update_from_graph(e, g));
    OK(cgn_exec_destroy(e));
    OK(cgn_graph_destroy(g));
    OK(cgn_graph_destroy(other));
}

/* ---- enabling -------------------------------------------------------------------------------- */

/* cgn_exec_node_get_enabled with each driver call failing in turn: every failure is
 * CGN_ERROR_DRIVER naming the call, and *enabled_out is left alone; the node's context is
 * current again afterwards. */
static void test_get_enabled_driver_failures(void **state) {
    cgn_test_env *env = *state;
    cgn_graph *g;
    cgn_node *n;
    cgn_exec *e;
    cgn_test_fill_graph(env, &g, &n, &e);
    OK(cgn_exec_node_set_enabled(e, n, 0));
    int seen_get = 0;
    long k;
    for (k = 1; k < 20; k++) {
        int enabled = 7;
        cgn_fault_arm(k, CUDA_ERROR_UNKNOWN);
        cgn_status st = cgn_exec_node_get_enabled(e, n, &enabled);
        cgn_fault_disarm();
        cgn_fault_entry entry;
        if (!cgn_fault_triggered(&entry)) {
            OK(st);
            assert_int_equal(enabled, 0);
            break;
        }
        assert_int_equal(st, CGN_ERROR_DRIVER);
        char want[160];
        snprintf(want, sizeof want,
                 "cgn_exec_node_get_enabled: %s returned CUDA_ERROR_UNKNOWN (999)",
                 cgn_fault_entry_name(entry));
        assert_message(want);
        assert_int_equal(enabled, 7);
        assert_int_equal(env->backend->current_context(env), CGN_TEST_CTX_OWN);
        seen_get += entry == CGN_FAULT_cuGraphNodeGetEnabled;
    }
    assert_true(k < 20);
    assert_int_equal(seen_get, 1);
    OK(cgn_exec_destroy(e));
    OK(cgn_graph_destroy(g));
}

/* ---- destroyed executables ------------------------------------------------------------------- */

static int released[2];

static void count_release(void *resource) {
    released[(int *)resource - released]++;
}

/* An executable whose only node has an executable-level version with an owner of its own
 * (counting into released[i]): what cgn alone holds for its launches. */
static void exec_with_own_version(cgn_test_env *env, int i, cgn_graph **g, cgn_exec **e) {
    cgn_owner *o;
    cgn_node *n;
    OK(cgn_owner_create(&released[i], count_release, &o));
    OK(cgn_graph_create(g));
    cgn_memset_desc d = cgn_test_fill_desc(env, i, 0x11, 0);
    OK(cgn_graph_add_memset(*g, NULL, 0, &d, &n));
    OK(cgn_graph_instantiate(*g, e));
    cgn_memset_update u = CGN_MEMSET_UPDATE_INIT;
    cgn_memset_update_set_dst(&u, env->buf[i], o);
    OK(cgn_memset_exec_update(*e, n, &u));
    OK(cgn_owner_release(o));
}

/* Two executables destroyed while their launches are in flight: the one destroyed first whose
 * launch completes first is released by cgn_collect() even though the other, destroyed later,
 * is still in flight; the other follows once its launch completes. */
static void test_destroyed_in_flight_released_in_completion_order(void **state) {
    cgn_test_env *env = *state;
    cgn_graph *g0, *g1;
    cgn_exec *e0, *e1;
    released[0] = released[1] = 0;
    exec_with_own_version(env, 0, &g0, &e0);
    exec_with_own_version(env, 1, &g1, &e1);
    cgn_fake_hold_completion(1);
    OK(cgn_exec_launch(e0, NULL));
    OK(cgn_exec_launch(e1, NULL));
    OK(cgn_exec_destroy(e0));
    OK(cgn_exec_destroy(e1));
    assert_int_equal(cgn_collect(), 0);
    assert_int_equal(released[0], 0);
    assert_int_equal(released[1], 0);
    assert_int_equal(cgn_fake_complete_launches(1), 1); /* e0's launch */
    assert_true(cgn_collect() >= 1);                    /* e0's version */
    assert_int_equal(released[0], 1);
    assert_int_equal(released[1], 0);
    assert_int_equal(cgn_collect(), 0);
    assert_int_equal(cgn_fake_complete_launches(1), 1);
    assert_true(cgn_collect() >= 1);
    assert_int_equal(released[0], 1);
    assert_int_equal(released[1], 1);
    cgn_fake_hold_completion(0);
    OK(cgn_graph_destroy(g0));
    OK(cgn_graph_destroy(g1));
}

/* ---- handles --------------------------------------------------------------------------------- */

/* Tens of thousands of objects alive at once (several chunks of the handle table): each gets a
 * distinct valid handle, and each is destroyed by it. */
static void test_many_live_handles(void **state) {
    (void)state;
    enum { N = 40000 };
    cgn_graph **g = malloc(N * sizeof *g);
    assert_non_null(g);
    size_t live = cgn__handles_live();
    for (size_t i = 0; i < N; i++) {
        cgn_status st = cgn_graph_create(&g[i]);
        if (st != CGN_OK)
            fail_msg("graph %zu: %s (%s)", i, cgn_status_name(st), cgn_last_error());
    }
    assert_int_equal(cgn__handles_live(), live + N);
    for (size_t i = 0; i < N; i++)
        assert_true(i == 0 || g[i] != g[i - 1]);
    for (size_t i = 0; i < N; i++)
        OK(cgn_graph_destroy(g[i]));
    assert_int_equal(cgn__handles_live(), live);
    assert_int_equal(cgn_graph_destroy(g[0]), CGN_ERROR_DESTROYED);
    free(g);
}

/* ---- survivors of mutation sample seed 7 ----------------------------------------------------- */

/* A graph embedded in a node of its own hierarchy is refused, and the message says what to do. */
static void test_same_hierarchy_message(void **state) {
    (void)state;
    cgn_graph *g;
    cgn_node *n = NULL;
    OK(cgn_graph_create(&g));
    cgn_child_graph_desc cd = CGN_CHILD_GRAPH_DESC_INIT;
    cd.graph = g;
    assert_int_equal(cgn_graph_add_child_graph(g, NULL, 0, &cd, &n), CGN_ERROR_SAME_HIERARCHY);
    char want[256];
    snprintf(want, sizeof want,
             "cgn_graph_add_child_graph: graph %p belongs to the destination's hierarchy; embed a "
             "graph of another hierarchy (or a copy of this one)",
             (void *)g);
    assert_message(want);
    assert_null(n);
    assert_int_equal(node_count(g), 0);
    OK(cgn_graph_destroy(g));
}

/* cgn_graph_find_kernel needs count. */
static void test_find_kernel_null_count(void **state) {
    cgn_test_env *env = *state;
    cgn_graph *g;
    cgn_node *hits[1];
    OK(cgn_graph_create(&g));
    assert_int_equal(cgn_graph_find_kernel(g, cgn_test_kernel(env, "fill_u32"), hits, NULL),
                     CGN_ERROR_INVALID_ARGUMENT);
    assert_message("cgn_graph_find_kernel: count must not be NULL");
    OK(cgn_graph_destroy(g));
}

/* With a driver that has no cuKernelGetFunction (older than 12.0), a search by CUfunction cannot
 * match a node added with a CUkernel: it finds nothing, and asks nothing it lacks. */
static void test_find_kernel_without_kernel_get_function(void **state) {
    cgn_test_env *env = *state;
    cgn_graph *g;
    cgn_node *n, *hits[2];
    OK(cgn_graph_create(&g));
    any_desc d = valid_desc(env, KERNEL); /* fill_u32, a CUkernel */
    assert_non_null(d.kernel.kernel.kernel);
    CUfunction f = NULL;
    CU_OK(cgn_fake_table()->cuKernelGetFunction(&f, d.kernel.kernel.kernel));
    OK(cgn_graph_add_kernel(g, NULL, 0, &d.kernel, &n));
    size_t count = 2;
    OK(cgn_graph_find_kernel(g, CGN_FUNCTION(f), hits, &count));
    assert_int_equal(count, 1); /* found through cuKernelGetFunction */
    cgn_fault_set_version(11080);
    assert_null(cgn__driver->cuKernelGetFunction);
    count = 2;
    OK(cgn_graph_find_kernel(g, CGN_FUNCTION(f), hits, &count));
    assert_int_equal(count, 0);
    cgn_fault_install(env->backend->driver(env));
    OK(cgn_graph_destroy(g));
}

/* A driver that cannot report parameter sizes refuses argument-level updates, naming its own
 * version as major.minor (12.9: 1000*major + 10*minor). */
static cgn_driver_table no_param_info;

static void test_arg_update_refused_names_version(void **state) {
    cgn_test_env *env = *state;
    no_param_info = *env->backend->driver(env);
    no_param_info.version = 12090;
    no_param_info.cuFuncGetParamInfo = NULL;
    no_param_info.cuKernelGetParamInfo = NULL;
    cgn_fault_install(&no_param_info);
    cgn_graph *g;
    cgn_node *n;
    OK(cgn_graph_create(&g));
    any_desc d = valid_desc(env, KERNEL);
    OK(cgn_graph_add_kernel(g, NULL, 0, &d.kernel, &n));
    cgn_kernel_update u = CGN_KERNEL_UPDATE_INIT;
    uint32_t eight = 8;
    cgn_kernel_update_set_arg(&u, 1, &eight, sizeof eight, NULL);
    assert_int_equal(cgn_kernel_node_update(n, &u), CGN_ERROR_DRIVER_TOO_OLD);
    assert_message_starts("cgn_kernel_node_update");
    if (strstr(cgn_last_error(), "(cuFuncGetParamInfo); this driver is 12.9: set every argument "
                                 "instead") == NULL)
        fail_msg("message \"%s\"", cgn_last_error());
    OK(cgn_graph_destroy(g));
    cgn_fault_install(env->backend->driver(env));
}

/* The second fence of an executable reuses the event of the first, once that one completed. */
static void test_fence_event_reused(void **state) {
    cgn_test_env *env = *state;
    cgn_graph *g;
    cgn_exec *e;
    released[0] = 0;
    exec_with_own_version(env, 0, &g, &e);
    cgn_fault_reset_counts();
    OK(cgn_exec_launch(e, NULL));
    assert_int_equal(cgn_fault_calls(CGN_FAULT_cuEventCreate), 1);
    assert_int_equal(cgn_fault_calls(CGN_FAULT_cuEventRecord), 1);
    (void)cgn_collect(); /* polls the fence: completed */
    cgn_fault_reset_counts();
    OK(cgn_exec_launch(e, NULL));
    assert_int_equal(cgn_fault_calls(CGN_FAULT_cuEventCreate), 0);
    assert_int_equal(cgn_fault_calls(CGN_FAULT_cuEventRecord), 1);
    OK(cgn_exec_destroy(e));
    OK(cgn_graph_destroy(g));
    assert_int_equal(released[0], 1);
}

/* An executable whose raw handle was taken and launched through it (never through cgn): destroy
 * waits for its context before releasing what cgn alone held for it. */
static void test_destroy_after_raw_launch_only(void **state) {
    cgn_test_env *env = *state;
    cgn_graph *g;
    cgn_exec *e;
    released[0] = 0;
    exec_with_own_version(env, 0, &g, &e);
    CUgraphExec raw;
    OK(cgn_exec_raw(e, &raw));
    cgn_fake_hold_completion(1);
    CU_OK(cgn_fake_table()->cuGraphLaunch(raw, NULL));
    assert_int_equal(cgn_fake_in_flight(NULL), 1);
    cgn_fault_reset_counts();
    OK(cgn_exec_destroy(e));
    assert_int_equal(cgn_fault_calls(CGN_FAULT_cuCtxSynchronize), 1);
    assert_int_equal(cgn_fake_in_flight(NULL), 0);
    assert_int_equal(released[0], 1);
    cgn_fake_hold_completion(0);
    OK(cgn_graph_destroy(g));
}

/* cuGraphCreate failing: reported, and nothing is left (no handle; ASan sees no leak). */
static void test_graph_create_driver_failure(void **state) {
    (void)state;
    size_t live = cgn__handles_live();
    cgn_graph *g = NULL;
    long k;
    int failed = 0;
    for (k = 1; k < 10; k++) {
        cgn_fault_arm(k, CUDA_ERROR_OUT_OF_MEMORY);
        cgn_status st = cgn_graph_create(&g);
        cgn_fault_disarm();
        cgn_fault_entry entry;
        if (!cgn_fault_triggered(&entry)) {
            OK(st);
            break;
        }
        assert_int_equal(st, CGN_ERROR_DRIVER);
        char want[160];
        snprintf(want, sizeof want, "cgn_graph_create: %s returned CUDA_ERROR_OUT_OF_MEMORY (2)",
                 cgn_fault_entry_name(entry));
        assert_message(want);
        assert_int_equal(cgn__handles_live(), live);
        failed += entry == CGN_FAULT_cuGraphCreate;
    }
    assert_true(k < 10);
    assert_int_equal(failed, 1);
    assert_int_equal(cgn__handles_live(), live + 1);
    OK(cgn_graph_destroy(g));
}

/* cuGraphDestroy failing for a graph no executable uses: reported, and the graph stays whole. */
static void test_graph_destroy_driver_failure(void **state) {
    (void)state;
    cgn_graph *g;
    cgn_node *n;
    OK(cgn_graph_create(&g));
    OK(cgn_graph_add_empty(g, NULL, 0, &n));
    int failed = 0;
    long k;
    for (k = 1; k < 10; k++) {
        cgn_fault_arm(k, CUDA_ERROR_UNKNOWN);
        cgn_status st = cgn_graph_destroy(g);
        cgn_fault_disarm();
        cgn_fault_entry entry;
        if (!cgn_fault_triggered(&entry)) {
            OK(st);
            break;
        }
        assert_int_equal(st, CGN_ERROR_DRIVER);
        char want[160];
        snprintf(want, sizeof want, "cgn_graph_destroy: %s returned CUDA_ERROR_UNKNOWN (999)",
                 cgn_fault_entry_name(entry));
        assert_message(want);
        assert_int_equal(node_count(g), 1);
        assert_int_equal(cgn_node_is_alive(n), 1);
        failed += entry == CGN_FAULT_cuGraphDestroy;
    }
    assert_true(k < 10);
    assert_int_equal(failed, 1);
    assert_int_equal(cgn_node_is_alive(n), 0);
}

/* Destroying a node removes it from its dependents' dependency lists (CUDA removed the edges). */
static void test_destroyed_dependency_dropped(void **state) {
    (void)state;
    cgn_graph *g;
    cgn_node *a, *b, *c, *deps[2];
    OK(cgn_graph_create(&g));
    OK(cgn_graph_add_empty(g, NULL, 0, &a));
    OK(cgn_graph_add_empty(g, NULL, 0, &b));
    cgn_node *ab[2] = {a, b};
    OK(cgn_graph_add_empty(g, ab, 2, &c));
    OK(cgn_node_destroy(a));
    size_t count = 2;
    OK(cgn_node_dependencies(c, deps, &count));
    assert_int_equal(count, 1);
    assert_ptr_equal(deps[0], b);
    OK(cgn_graph_destroy(g));
}

int main(void) {
#define T(fn) cmocka_unit_test_setup_teardown(fn, cgn_test_fixture_setup, cgn_test_fixture_teardown)
    const struct CMUnitTest tests[] = {
        T(test_add_without_context_by_type),
        T(test_exec_child_update_retakes_inner_nodes),
        T(test_child_find_message),
        T(test_refresh_event_wait_changed_event),
        T(test_refresh_from_another_graph_message),
        T(test_get_enabled_driver_failures),
        T(test_destroyed_in_flight_released_in_completion_order),
        T(test_many_live_handles),
        T(test_same_hierarchy_message),
        T(test_find_kernel_null_count),
        T(test_find_kernel_without_kernel_get_function),
        T(test_arg_update_refused_names_version),
        T(test_fence_event_reused),
        T(test_destroy_after_raw_launch_only),
        T(test_graph_create_driver_failure),
        T(test_graph_destroy_driver_failure),
        T(test_destroyed_dependency_dropped),
    };
#undef T
    return cmocka_run_group_tests(tests, NULL, NULL);
}
