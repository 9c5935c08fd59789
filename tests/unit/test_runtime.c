/* Runtime behaviour beyond the generated matrices, on the fake driver: statuses and messages,
 * owners, contexts, dependencies, driver-call counts of the hot paths, kernel argument checks. */
#include <pthread.h>
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

static cgn_memset_desc memset_desc(cgn_test_env *env, int buf) {
    cgn_memset_desc d = CGN_MEMSET_DESC_INIT;
    d.dst = env->buf[buf];
    d.value = 0x11;
    d.width = 4;
    return d;
}

/* ---- statuses and messages ---------------------------------------------------------------- */

static void test_status_names(void **state) {
    (void)state;
#define CHECK_NAME(name, value, text)                                                              \
    assert_string_equal(cgn_status_name(name), #name);                                             \
    assert_string_equal(cgn_status_description(name), text);
    CGN_STATUS_TABLE(CHECK_NAME)
#undef CHECK_NAME
    assert_string_equal(cgn_status_name((cgn_status)999), "CGN_UNKNOWN_STATUS");
}

/* pthread, not C11 thrd_create: ThreadSanitizer (clang 14, gcc 12) does not intercept the
 * latter, and .ci/tsan runs this test too. */
static void *other_thread_fails(void *arg) {
    *(int *)arg = cgn_graph_create(NULL) == CGN_ERROR_INVALID_ARGUMENT ? 0 : 1;
    return NULL;
}

static void test_last_error_is_per_thread(void **state) {
    (void)state;
    assert_int_equal(cgn_owner_create(NULL, NULL, NULL), CGN_ERROR_INVALID_ARGUMENT);
    char mine[256];
    snprintf(mine, sizeof mine, "%s", cgn_last_error());
    assert_non_null(strstr(mine, "owner_out"));
    pthread_t t;
    int rc = -1;
    assert_int_equal(pthread_create(&t, NULL, other_thread_fails, &rc), 0);
    assert_int_equal(pthread_join(t, NULL), 0);
    assert_int_equal(rc, 0);
    assert_string_equal(cgn_last_error(), mine);
    assert_int_equal(cgn_last_status(), CGN_ERROR_INVALID_ARGUMENT);
}

static void test_null_arguments_rejected(void **state) {
    cgn_test_env *env = *state;
    cgn_graph *g;
    cgn_node *n;
    cgn_exec *e;
    OK(cgn_graph_create(&g));
    cgn_memset_desc d = memset_desc(env, 0);
    assert_int_equal(cgn_graph_create(NULL), CGN_ERROR_INVALID_ARGUMENT);
    assert_int_equal(cgn_graph_destroy(NULL), CGN_ERROR_INVALID_ARGUMENT);
    assert_int_equal(cgn_graph_add_memset(NULL, NULL, 0, &d, &n), CGN_ERROR_INVALID_ARGUMENT);
    assert_int_equal(cgn_graph_add_memset(g, NULL, 0, NULL, &n), CGN_ERROR_INVALID_ARGUMENT);
    assert_int_equal(cgn_graph_add_memset(g, NULL, 0, &d, NULL), CGN_ERROR_INVALID_ARGUMENT);
    assert_int_equal(cgn_memset_node_update(NULL, NULL), CGN_ERROR_INVALID_ARGUMENT);
    OK(cgn_graph_add_memset(g, NULL, 0, &d, &n));
    assert_int_equal(cgn_memset_node_update(n, NULL), CGN_ERROR_INVALID_ARGUMENT);
    assert_int_equal(cgn_memset_node_get(n, NULL), CGN_ERROR_INVALID_ARGUMENT);
    assert_int_equal(cgn_graph_instantiate(g, NULL), CGN_ERROR_INVALID_ARGUMENT);
    assert_int_equal(cgn_graph_instantiate(NULL, &e), CGN_ERROR_INVALID_ARGUMENT);
    assert_int_equal(cgn_exec_launch(NULL, NULL), CGN_ERROR_INVALID_ARGUMENT);
    assert_int_equal(cgn_exec_destroy(NULL), CGN_ERROR_INVALID_ARGUMENT);
    assert_int_equal(cgn_node_destroy(NULL), CGN_ERROR_INVALID_ARGUMENT);
    assert_int_equal(cgn_owner_retain(NULL), CGN_ERROR_INVALID_ARGUMENT);
    assert_int_equal(cgn_owner_release(NULL), CGN_ERROR_INVALID_ARGUMENT);
    CUgraph raw_graph;
    CUgraphNode raw_node;
    CUgraphExec raw_exec;
    cgn_node_type type;
    void *pfn;
    assert_int_equal(cgn_graph_raw(NULL, &raw_graph), CGN_ERROR_INVALID_ARGUMENT);
    assert_int_equal(cgn_graph_raw(g, NULL), CGN_ERROR_INVALID_ARGUMENT);
    assert_int_equal(cgn_node_raw(n, NULL), CGN_ERROR_INVALID_ARGUMENT);
    assert_int_equal(cgn_node_type_of(NULL, &type), CGN_ERROR_INVALID_ARGUMENT);
    assert_int_equal(cgn_exec_raw(NULL, &raw_exec), CGN_ERROR_INVALID_ARGUMENT);
    assert_int_equal(cgn_driver_version(NULL), CGN_ERROR_INVALID_ARGUMENT);
    assert_int_equal(cgn_driver_proc(NULL, 2000, &pfn), CGN_ERROR_INVALID_ARGUMENT);
    assert_int_equal(cgn_driver_proc("cuInit", 2000, NULL), CGN_ERROR_INVALID_ARGUMENT);
    cgn_graph *embedded;
    cgn_node *found;
    assert_int_equal(cgn_child_graph_node_embedded(NULL, &embedded), CGN_ERROR_INVALID_ARGUMENT);
    assert_int_equal(cgn_child_graph_node_embedded(n, &embedded), CGN_ERROR_WRONG_NODE_TYPE);
    assert_int_equal(cgn_child_graph_node_find(n, n, &found), CGN_ERROR_WRONG_NODE_TYPE);
    OK(cgn_node_type_of(n, &type));
    assert_int_equal(type, CGN_NODE_MEMSET);
    OK(cgn_node_raw(n, &raw_node));
    OK(cgn_node_destroy(n));
    assert_int_equal(cgn_node_raw(n, &raw_node), CGN_ERROR_DESTROYED);
    OK(cgn_graph_destroy(g));
}

static void test_unknown_set_bits_rejected(void **state) {
    cgn_test_env *env = *state;
    cgn_graph *g;
    cgn_node *n;
    OK(cgn_graph_create(&g));
    cgn_memset_desc d = memset_desc(env, 0);
    OK(cgn_graph_add_memset(g, NULL, 0, &d, &n));
    cgn_memset_update u = CGN_MEMSET_UPDATE_INIT;
    u.set = UINT64_C(1) << 40;
    assert_int_equal(cgn_memset_node_update(n, &u), CGN_ERROR_INVALID_ARGUMENT);
    assert_non_null(strstr(cgn_last_error(), "unknown bits"));
    OK(cgn_graph_destroy(g));
}

/* ---- the real driver loader, wherever the tests run ---------------------------------------- */

static void test_real_driver_reports_what_is_missing(void **state) {
    (void)state;
    const cgn_driver_table *real = cgn_driver_real();
    if (real != NULL) {
        assert_true(real->version >= 12000);
        assert_non_null(real->cuGraphCreate);
        return;
    }
    cgn_status st = cgn_last_status();
    assert_true(st == CGN_ERROR_NO_DRIVER || st == CGN_ERROR_NO_DEVICE ||
                st == CGN_ERROR_DRIVER_TOO_OLD || st == CGN_ERROR_DRIVER);
    assert_true(strlen(cgn_last_error()) > 10);
    if (st == CGN_ERROR_NO_DRIVER)
        assert_non_null(strstr(cgn_last_error(), "libcuda.so.1"));
}

/* ---- owners ---------------------------------------------------------------------------------- */

static int released_count;
static void count_release(void *resource) {
    (void)resource;
    released_count++;
}

static void test_owner_released_once_at_last_reference(void **state) {
    (void)state;
    released_count = 0;
    cgn_owner *o;
    int payload = 5;
    OK(cgn_owner_create(&payload, count_release, &o));
    assert_ptr_equal(cgn_owner_resource(o), &payload);
    OK(cgn_owner_retain(o));
    OK(cgn_owner_release(o));
    assert_int_equal(released_count, 0);
    OK(cgn_owner_release(o));
    /* cgn_owner_release never runs a callback itself (it may be on a CUDA thread): the next
     * cgn call that may call CUDA, or cgn_collect(), does. */
    assert_int_equal(released_count, 0);
    assert_true(cgn_collect() >= 1);
    assert_int_equal(released_count, 1);
    assert_int_equal(cgn_collect(), 0);
    assert_int_equal(released_count, 1);
}

static void test_node_destroy_releases_owner_without_exec(void **state) {
    cgn_test_env *env = *state;
    cgn_graph *g;
    cgn_node *n;
    OK(cgn_graph_create(&g));
    cgn_memset_desc d = memset_desc(env, 1);
    d.dst_owner = env->owner[1];
    OK(cgn_graph_add_memset(g, NULL, 0, &d, &n));
    cgn_test_env_drop_owners(env);
    assert_int_equal(env->released[1], 0);
    OK(cgn_node_destroy(n));
    assert_true(cgn_test_wait_released(env, 1, 1));
    OK(cgn_graph_destroy(g));
    cgn_collect();
    assert_int_equal(env->released[1], 1);
}

/* A graph destroyed right after instantiation: the executable keeps the owners alive. */
static void test_exec_outlives_graph(void **state) {
    cgn_test_env *env = *state;
    cgn_graph *g;
    cgn_node *n;
    cgn_exec *e;
    OK(cgn_graph_create(&g));
    cgn_memset_desc d = memset_desc(env, 2);
    d.dst_owner = env->owner[2];
    OK(cgn_graph_add_memset(g, NULL, 0, &d, &n));
    OK(cgn_graph_instantiate(g, &e));
    cgn_test_env_drop_owners(env);
    OK(cgn_graph_destroy(g));
    cgn_collect();
    assert_int_equal(env->released[2], 0);
    assert_true(cgn_test_exec_matches(env, CGN_NODE_MEMSET, e, &d, "exec after graph destroy"));
    OK(cgn_exec_destroy(e));
    assert_true(cgn_test_wait_released(env, 2, 1));
}

/* ---- hot-path driver call counts --------------------------------------------------------- */

static void test_update_with_same_owners_makes_no_user_object(void **state) {
    cgn_test_env *env = *state;
    cgn_graph *g;
    cgn_node *n;
    OK(cgn_graph_create(&g));
    cgn_memset_desc d = memset_desc(env, 0);
    d.dst_owner = env->owner[0];
    OK(cgn_graph_add_memset(g, NULL, 0, &d, &n));
    cgn_fault_reset_counts();
    cgn_memset_update u = CGN_MEMSET_UPDATE_INIT;
    cgn_memset_update_set_value(&u, 0x33, 1);
    OK(cgn_memset_node_update(n, &u));
    assert_int_equal(cgn_fault_setter_calls(), 1);
    assert_int_equal(cgn_fault_calls(CGN_FAULT_cuUserObjectCreate), 0);
    assert_int_equal(cgn_fault_calls(CGN_FAULT_cuGraphRetainUserObject), 0);
    assert_int_equal(cgn_fault_calls(CGN_FAULT_cuGraphReleaseUserObject), 0);
    /* A new owner while only the graph holds the version's user object (never instantiated):
     * the owners are replaced in place, no user-object call. */
    cgn__attachment *a = cgn__node_record(n)->attachment;
    cgn_fault_reset_counts();
    cgn_memset_update v = CGN_MEMSET_UPDATE_INIT;
    cgn_memset_update_set_dst(&v, env->buf[1], env->owner[1]);
    OK(cgn_memset_node_update(n, &v));
    assert_int_equal(cgn_fault_setter_calls(), 1);
    assert_int_equal(cgn_fault_calls(CGN_FAULT_cuUserObjectCreate), 0);
    assert_int_equal(cgn_fault_calls(CGN_FAULT_cuGraphRetainUserObject), 0);
    assert_int_equal(cgn_fault_calls(CGN_FAULT_cuGraphReleaseUserObject), 0);
    assert_ptr_equal(cgn__node_record(n)->attachment, a);
    assert_int_equal(a->num_owners, 1);
    assert_ptr_equal(a->owners[0], env->owner[1]);
    /* Once an executable holds it: exactly one user object, retained by move, and the old one
     * released. */
    cgn_exec *e;
    OK(cgn_graph_instantiate(g, &e));
    cgn_fault_reset_counts();
    cgn_memset_update_set_dst(&v, env->buf[0], env->owner[0]);
    OK(cgn_memset_node_update(n, &v));
    assert_int_equal(cgn_fault_setter_calls(), 1);
    assert_int_equal(cgn_fault_calls(CGN_FAULT_cuUserObjectCreate), 1);
    assert_int_equal(cgn_fault_calls(CGN_FAULT_cuGraphRetainUserObject), 1);
    assert_int_equal(cgn_fault_calls(CGN_FAULT_cuGraphReleaseUserObject), 1);
    assert_ptr_not_equal(cgn__node_record(n)->attachment, a);
    OK(cgn_exec_destroy(e));
    /* Dropping the owner (raw pointer): no user object, the old one released. */
    cgn_fault_reset_counts();
    cgn_memset_update w = CGN_MEMSET_UPDATE_INIT;
    cgn_memset_update_set_dst(&w, env->buf[1], NULL);
    OK(cgn_memset_node_update(n, &w));
    assert_int_equal(cgn_fault_calls(CGN_FAULT_cuUserObjectCreate), 0);
    assert_int_equal(cgn_fault_calls(CGN_FAULT_cuGraphReleaseUserObject), 1);
    assert_null(cgn__node_record(n)->attachment);
    OK(cgn_graph_destroy(g));
}

/* ---- owners replaced in place (a graph that alone holds its versions' user objects) -------- */

/* A memset node on buffer `buf` held by owner `buf`, in a new graph. */
static cgn_node *owned_memset(cgn_test_env *env, cgn_graph *g, int buf) {
    cgn_memset_desc d = memset_desc(env, buf);
    d.dst_owner = env->owner[buf];
    cgn_node *n;
    OK(cgn_graph_add_memset(g, NULL, 0, &d, &n));
    return n;
}

static void set_owned_dst(cgn_test_env *env, cgn_node *n, int buf) {
    cgn_memset_update u = CGN_MEMSET_UPDATE_INIT;
    cgn_memset_update_set_dst(&u, env->buf[buf], env->owner[buf]);
    OK(cgn_memset_node_update(n, &u));
}

/* Nothing but the graph reads the old version: its owner goes at once, the new one stays. */
static void test_owners_replaced_in_place_release_the_old_at_once(void **state) {
    cgn_test_env *env = *state;
    cgn_graph *g;
    OK(cgn_graph_create(&g));
    cgn_node *n = owned_memset(env, g, 0);
    set_owned_dst(env, n, 1);
    cgn_test_env_drop_owners(env);
    assert_true(cgn_test_wait_released(env, 0, 1));
    assert_int_equal(env->released[1], 0);
    OK(cgn_graph_destroy(g));
    assert_true(cgn_test_wait_released(env, 1, 1));
    assert_int_equal(env->released[0], 1);
}

/* An embedding is CUDA's clone of the graph, holding the version's user object (cgn's copies
 * take no reference): the source's next owners need a user object of their own. */
static void test_embedded_version_keeps_its_owners(void **state) {
    cgn_test_env *env = *state;
    cgn_graph *g, *parent;
    OK(cgn_graph_create(&g));
    OK(cgn_graph_create(&parent));
    cgn_node *n = owned_memset(env, g, 0);
    cgn_child_graph_desc cd = CGN_CHILD_GRAPH_DESC_INIT;
    cd.graph = g;
    cgn_node *child;
    OK(cgn_graph_add_child_graph(parent, NULL, 0, &cd, &child));
    cgn_fault_reset_counts();
    set_owned_dst(env, n, 1);
    assert_int_equal(cgn_fault_calls(CGN_FAULT_cuUserObjectCreate), 1);
    cgn_test_env_drop_owners(env);
    cgn_collect();
    assert_int_equal(env->released[0], 0); /* the clone in parent still writes buffer 0 */
    OK(cgn_graph_destroy(g));
    cgn_collect();
    assert_int_equal(env->released[0], 0);
    OK(cgn_graph_destroy(parent));
    assert_true(cgn_test_wait_released(env, 0, 1));
    assert_true(cgn_test_wait_released(env, 1, 1));
}

/* A launch still in flight after its executable was destroyed holds the version's user object
 * (CUDA's reference): the next owners need one of their own, the old ones wait. */
static void test_version_of_a_launch_in_flight_keeps_its_owners(void **state) {
    cgn_test_env *env = *state;
    cgn_graph *g;
    cgn_exec *e;
    OK(cgn_graph_create(&g));
    cgn_node *n = owned_memset(env, g, 0);
    OK(cgn_graph_instantiate(g, &e));
    cgn_fake_hold_completion(1);
    OK(cgn_exec_launch(e, NULL));
    OK(cgn_exec_destroy(e));
    set_owned_dst(env, n, 1);
    cgn_test_env_drop_owners(env);
    cgn_collect();
    assert_int_equal(env->released[0], 0);
    assert_true(cgn_fake_complete_pending() > 0);
    cgn_fake_hold_completion(0);
    assert_true(cgn_test_wait_released(env, 0, 1));
    assert_int_equal(env->released[1], 0);
    OK(cgn_graph_destroy(g));
    assert_true(cgn_test_wait_released(env, 1, 1));
}

/* The same for a version an executable took from the graph when it was refreshed from it. */
static void test_refreshed_version_keeps_its_owners(void **state) {
    cgn_test_env *env = *state;
    cgn_graph *g;
    cgn_exec *e;
    OK(cgn_graph_create(&g));
    cgn_node *n = owned_memset(env, g, 0);
    OK(cgn_graph_instantiate(g, &e));
    set_owned_dst(env, n, 1);
    OK(cgn_exec_update_from_graph(e, g));
    cgn_fake_hold_completion(1);
    OK(cgn_exec_launch(e, NULL));
    OK(cgn_exec_destroy(e));
    set_owned_dst(env, n, 2);
    cgn_test_env_drop_owners(env);
    cgn_collect();
    assert_int_equal(env->released[1], 0); /* the launch in flight writes buffer 1 */
    assert_true(cgn_fake_complete_pending() > 0);
    cgn_fake_hold_completion(0);
    assert_true(cgn_test_wait_released(env, 1, 1));
    OK(cgn_graph_destroy(g));
    assert_true(cgn_test_wait_released(env, 2, 1));
    assert_true(cgn_test_wait_released(env, 0, 1));
}

/* With the graph's raw handle out, code outside cgn may instantiate it: a user object each. */
static void test_exposed_graph_gets_a_user_object_per_owner_change(void **state) {
    cgn_test_env *env = *state;
    cgn_graph *g;
    OK(cgn_graph_create(&g));
    cgn_node *n = owned_memset(env, g, 0);
    CUgraph raw;
    OK(cgn_graph_raw(g, &raw));
    cgn_fault_reset_counts();
    set_owned_dst(env, n, 1);
    assert_int_equal(cgn_fault_calls(CGN_FAULT_cuUserObjectCreate), 1);
    assert_int_equal(cgn_fault_calls(CGN_FAULT_cuGraphReleaseUserObject), 1);
    OK(cgn_graph_destroy(g));
}

/* A driver refusal leaves the current owners in place and drops the staged ones. */
static void test_refused_in_place_change_keeps_the_owners(void **state) {
    cgn_test_env *env = *state;
    cgn_graph *g;
    OK(cgn_graph_create(&g));
    cgn_node *n = owned_memset(env, g, 0);
    cgn__attachment *a = cgn__node_record(n)->attachment;
    cgn_memset_update u = CGN_MEMSET_UPDATE_INIT;
    cgn_memset_update_set_dst(&u, env->buf[1], env->owner[1]);
    cgn_fault_reset_counts();
    cgn_fault_arm(1, CUDA_ERROR_INVALID_VALUE); /* the update's one driver call: the setter */
    assert_int_equal(cgn_memset_node_update(n, &u), CGN_ERROR_DRIVER);
    cgn_fault_entry entry;
    assert_true(cgn_fault_triggered(&entry));
    assert_true(cgn_fault_is_setter(entry));
    cgn_fault_disarm();
    cgn_test_env_drop_owners(env);
    assert_ptr_equal(cgn__node_record(n)->attachment, a);
    assert_int_equal(a->num_owners, 1);
    assert_ptr_equal(a->owners[0], env->owner[0]);
    cgn_collect();
    assert_int_equal(env->released[1], 1); /* only the staged reference held it */
    assert_int_equal(env->released[0], 0);
    OK(cgn_graph_destroy(g));
    assert_true(cgn_test_wait_released(env, 0, 1));
}

/* Released in place, the old owners' callbacks run in the caller's context, as when a later
 * call drains them: on a driver before 13.0 the update made the node's context current. */
static CUcontext release_saw;
static void record_release_context(void *resource) {
    (void)resource;
    release_saw = (CUcontext)(uintptr_t)1; /* "no answer" unless the query below succeeds */
    CUcontext now = NULL;
    if (cgn_fake_table()->cuCtxGetCurrent(&now) == CUDA_SUCCESS)
        release_saw = now;
}

static void test_owners_replaced_in_place_release_in_the_callers_context(void **state) {
    cgn_test_env *env = *state;
    CUcontext c0 = cgn_fake_context(0), c1 = cgn_fake_context(1);
    cgn_fake_set_current_context(c0);
    cgn_graph *g;
    OK(cgn_graph_create(&g));
    cgn_owner *first, *second;
    OK(cgn_owner_create(NULL, record_release_context, &first));
    OK(cgn_owner_create(NULL, NULL, &second));
    cgn_memset_desc d = memset_desc(env, 0);
    d.dst_owner = first;
    cgn_node *n;
    OK(cgn_graph_add_memset(g, NULL, 0, &d, &n));
    OK(cgn_owner_release(first)); /* the node's version holds it alone now */
    cgn_fake_set_current_context(c1);
    int version;
    OK(cgn_driver_version(&version));
    cgn_fault_set_version(12080);
    cgn_fault_reset_counts();
    release_saw = NULL;
    cgn_memset_update u = CGN_MEMSET_UPDATE_INIT;
    cgn_memset_update_set_dst(&u, env->buf[1], second);
    OK(cgn_memset_node_update(n, &u));
    cgn_fault_set_version(version);
    assert_int_equal(cgn_fault_calls(CGN_FAULT_cuCtxPushCurrent), 1);
    assert_int_equal(cgn_fault_calls(CGN_FAULT_cuUserObjectCreate), 0); /* replaced in place */
    cgn_collect();
    assert_ptr_equal(release_saw, c1);
    OK(cgn_owner_release(second));
    OK(cgn_graph_destroy(g));
    cgn_collect();
    cgn_fake_set_current_context(c0);
}

/* ---- host callback and event nodes: the lean path of a function or event with no owners ---- */

/* Owner 1 given to the definition's version and owner 2 to executable e's: with the env's
 * references dropped, each is held until its graph or executable goes, and released once. */
static void expect_owners_held_until_destroyed(cgn_test_env *env, cgn_graph *g, cgn_exec *e) {
    cgn_test_env_drop_owners(env);
    cgn_collect();
    assert_int_equal(env->released[1], 0);
    assert_int_equal(env->released[2], 0);
    OK(cgn_exec_destroy(e));
    assert_true(cgn_test_wait_released(env, 2, 1));
    assert_int_equal(env->released[1], 0);
    OK(cgn_graph_destroy(g));
    assert_true(cgn_test_wait_released(env, 1, 1));
}

/* An update that gives the version an owner leaves that path: the owner is held, at both
 * levels, as long as the graph or the executable may run the version. */
static void test_host_update_gaining_an_owner_holds_it(void **state) {
    cgn_test_env *env = *state;
    cgn_graph *g;
    OK(cgn_graph_create(&g));
    cgn_host_callback_desc d = CGN_HOST_CALLBACK_DESC_INIT;
    d.fn = cgn_test_callback(env, "record_a");
    d.user_data = cgn_test_host_ptr(env, 0);
    cgn_node *n;
    OK(cgn_graph_add_host_callback(g, NULL, 0, &d, &n));
    cgn_exec *e;
    OK(cgn_graph_instantiate(g, &e));
    cgn_host_callback_update u = CGN_HOST_CALLBACK_UPDATE_INIT;
    cgn_host_callback_update_set_fn(&u, cgn_test_callback(env, "record_b"),
                                    cgn_test_host_ptr(env, 1), env->owner[1], NULL, 0);
    OK(cgn_host_callback_node_update(n, &u));
    cgn_host_callback_update_set_fn(&u, cgn_test_callback(env, "record_b"),
                                    cgn_test_host_ptr(env, 1), env->owner[2], NULL, 0);
    OK(cgn_host_callback_exec_update(e, n, &u));
    expect_owners_held_until_destroyed(env, g, e);
}

/* A field set without one it requires is refused even when its value is empty, at both
 * levels, and the version stays as it was. */
static void test_host_owner_without_user_data_refused_even_null(void **state) {
    cgn_test_env *env = *state;
    cgn_graph *g;
    OK(cgn_graph_create(&g));
    cgn_host_callback_desc d = CGN_HOST_CALLBACK_DESC_INIT;
    d.fn = cgn_test_callback(env, "record_a");
    d.user_data = cgn_test_host_ptr(env, 0);
    cgn_node *n;
    OK(cgn_graph_add_host_callback(g, NULL, 0, &d, &n));
    cgn_exec *e;
    OK(cgn_graph_instantiate(g, &e));
    cgn_host_callback_update u = CGN_HOST_CALLBACK_UPDATE_INIT;
    u.set = CGN_HOST_CALLBACK_SET_FN | CGN_HOST_CALLBACK_SET_USER_DATA_OWNER;
    u.fn = cgn_test_callback(env, "record_b");
    u.user_data_owner = NULL;
    assert_int_equal(cgn_host_callback_node_update(n, &u), CGN_ERROR_MISSING_FIELD);
    assert_non_null(strstr(cgn_last_error(), "user_data_owner requires user_data"));
    assert_int_equal(cgn_host_callback_exec_update(e, n, &u), CGN_ERROR_MISSING_FIELD);
    assert_non_null(strstr(cgn_last_error(), "user_data_owner requires user_data"));
    cgn_host_callback_desc got;
    OK(cgn_host_callback_node_get(n, &got));
    assert_ptr_equal(got.fn, d.fn);
    assert_ptr_equal(got.user_data, d.user_data);
    OK(cgn_host_callback_exec_get(e, n, &got));
    assert_ptr_equal(got.fn, d.fn);
    assert_ptr_equal(got.user_data, d.user_data);
    OK(cgn_exec_destroy(e));
    OK(cgn_graph_destroy(g));
}

/* The same for an event: an owner given with the new event is held by the version. */
static void test_event_update_gaining_an_owner_holds_it(void **state) {
    cgn_test_env *env = *state;
    cgn_graph *g;
    OK(cgn_graph_create(&g));
    cgn_event_record_desc d = CGN_EVENT_RECORD_DESC_INIT;
    d.event = cgn_test_event(env, 0);
    cgn_node *n;
    OK(cgn_graph_add_event_record(g, NULL, 0, &d, &n));
    cgn_exec *e;
    OK(cgn_graph_instantiate(g, &e));
    cgn_event_record_update u = CGN_EVENT_RECORD_UPDATE_INIT;
    cgn_event_record_update_set_event(&u, cgn_test_event(env, 1), env->owner[1]);
    OK(cgn_event_record_node_update(n, &u));
    cgn_event_record_update_set_event(&u, cgn_test_event(env, 1), env->owner[2]);
    OK(cgn_event_record_exec_update(e, n, &u));
    expect_owners_held_until_destroyed(env, g, e);
}

/* ---- contexts ------------------------------------------------------------------------------- */

static void test_update_runs_in_the_node_context(void **state) {
    cgn_test_env *env = *state;
    CUcontext c0 = cgn_fake_context(0), c1 = cgn_fake_context(1);
    cgn_fake_set_current_context(c0);
    cgn_graph *g;
    cgn_node *n;
    OK(cgn_graph_create(&g));
    cgn_memset_desc d = memset_desc(env, 0);
    OK(cgn_graph_add_memset(g, NULL, 0, &d, &n));
    CUgraphNode raw;
    OK(cgn_node_raw(n, &raw));
    assert_ptr_equal(cgn_fake_node_context(raw), c0);
    cgn_fake_set_current_context(c1);
    cgn_memset_update u = CGN_MEMSET_UPDATE_INIT;
    cgn_memset_update_set_value(&u, 0x44, 1);
    /* From 13.0 on (spec: context_free_from) the setter names the node's context itself: no
     * query, no push, and the node keeps its context. */
    cgn_fault_reset_counts();
    OK(cgn_memset_node_update(n, &u));
    assert_ptr_equal(cgn_fake_node_context(raw), c0);
    assert_int_equal(cgn_fault_calls(CGN_FAULT_cuCtxGetCurrent), 0);
    assert_int_equal(cgn_fault_calls(CGN_FAULT_cuCtxPushCurrent), 0);
    /* Older drivers: the node's context is made current around the update. */
    int version;
    OK(cgn_driver_version(&version));
    cgn_fault_set_version(12080);
    cgn_fault_reset_counts();
    cgn_memset_update_set_value(&u, 0x45, 1);
    OK(cgn_memset_node_update(n, &u));
    cgn_fault_set_version(version);
    assert_ptr_equal(cgn_fake_node_context(raw), c0);
    CUcontext now = NULL;
    assert_int_equal(cgn_fake_table()->cuCtxGetCurrent(&now), CUDA_SUCCESS);
    assert_ptr_equal(now, c1); /* the caller's context is restored */
    assert_int_equal(cgn_fault_calls(CGN_FAULT_cuCtxPushCurrent), 1);
    assert_int_equal(cgn_fault_calls(CGN_FAULT_cuCtxPopCurrent), 1);
    OK(cgn_graph_destroy(g));
    cgn_fake_set_current_context(c0);
}

static void test_add_without_context_rejected(void **state) {
    cgn_test_env *env = *state;
    cgn_graph *g;
    cgn_node *n;
    OK(cgn_graph_create(&g));
    cgn_fake_set_current_context(NULL);
    cgn_memset_desc d = memset_desc(env, 0);
    assert_int_equal(cgn_graph_add_memset(g, NULL, 0, &d, &n), CGN_ERROR_NO_CONTEXT);
    OK(cgn_graph_add_empty(g, NULL, 0, &n)); /* an empty node needs none */
    cgn_fake_set_current_context(cgn_fake_context(0));
    assert_int_equal(cgn_fake_graph_node_count(cgn__graph_record(g)->raw), 1);
    OK(cgn_graph_destroy(g));
}

/* ---- dependencies ----------------------------------------------------------------------- */

static void test_dependencies_checked(void **state) {
    cgn_test_env *env = *state;
    cgn_graph *g, *other;
    cgn_node *a, *b, *foreign, *n;
    OK(cgn_graph_create(&g));
    OK(cgn_graph_create(&other));
    OK(cgn_graph_add_empty(g, NULL, 0, &a));
    OK(cgn_graph_add_empty(g, NULL, 0, &b));
    OK(cgn_graph_add_empty(other, NULL, 0, &foreign));
    cgn_memset_desc d = memset_desc(env, 0);
    cgn_node *deps[2] = {a, b};
    OK(cgn_graph_add_memset(g, deps, 2, &d, &n));
    cgn_node *bad[2] = {a, foreign};
    assert_int_equal(cgn_graph_add_memset(g, bad, 2, &d, &n), CGN_ERROR_INVALID_ARGUMENT);
    assert_non_null(strstr(cgn_last_error(), "another graph"));
    assert_int_equal(cgn_graph_add_memset(g, NULL, 1, &d, &n), CGN_ERROR_INVALID_ARGUMENT);
    OK(cgn_node_destroy(b));
    assert_int_equal(cgn_graph_add_memset(g, deps, 2, &d, &n), CGN_ERROR_DESTROYED);
    assert_int_equal(cgn_fake_graph_node_count(cgn__graph_record(g)->raw), 2);
    OK(cgn_graph_destroy(other));
    OK(cgn_graph_destroy(g));
}

/* ---- kernels ------------------------------------------------------------------------------ */

static cgn_kernel_desc kernel_desc(cgn_test_env *env, const char *name, cgn_arg *args, uint32_t n) {
    cgn_kernel_desc d = CGN_KERNEL_DESC_INIT;
    d.kernel = cgn_test_kernel(env, name);
    d.grid = CGN_DIM3(1, 1, 1);
    d.block = CGN_DIM3(1, 1, 1);
    d.args = args;
    d.num_args = n;
    return d;
}

static void test_kernel_args_checked_against_kernel(void **state) {
    cgn_test_env *env = *state;
    cgn_graph *g;
    cgn_node *n;
    OK(cgn_graph_create(&g));
    CUdeviceptr p = env->buf[0];
    cgn_arg two[2] = {CGN_ARG(p), CGN_ARG(p)};
    cgn_kernel_desc d = kernel_desc(env, "add_one", two, 2);
    assert_int_equal(cgn_graph_add_kernel(g, NULL, 0, &d, &n), CGN_ERROR_INVALID_VALUE);
    assert_non_null(strstr(cgn_last_error(), "kernel add_one takes 1 argument (8 bytes); 2 given"));
    uint32_t small = 1;
    cgn_arg wrong_size[1] = {CGN_ARG(small)};
    d = kernel_desc(env, "add_one", wrong_size, 1);
    assert_int_equal(cgn_graph_add_kernel(g, NULL, 0, &d, &n), CGN_ERROR_INVALID_VALUE);
    assert_non_null(strstr(cgn_last_error(), "argument 0 is 8 bytes; 4 given"));
    d = kernel_desc(env, "add_one", two, 1);
    OK(cgn_graph_add_kernel(g, NULL, 0, &d, &n));
    /* Arguments alone: the cached parameter sizes are used, no driver query. */
    cgn_fault_reset_counts();
    CUdeviceptr q = env->buf[1];
    cgn_arg one[1] = {CGN_ARG(q)};
    cgn_kernel_update u = CGN_KERNEL_UPDATE_INIT;
    cgn_kernel_update_set_args(&u, one, 1);
    OK(cgn_kernel_node_update(n, &u));
    assert_int_equal(cgn_fault_calls(CGN_FAULT_cuFuncGetParamInfo), 0);
    assert_int_equal(cgn_fault_calls(CGN_FAULT_cuKernelGetParamInfo), 0);
    assert_int_equal(cgn_fault_calls(CGN_FAULT_cuGraphKernelNodeSetParams), 1);
    OK(cgn_graph_destroy(g));
}

/* From 13.0 on (spec: kernel context_free_from, context_when) a CUkernel node's update names
 * its context in ctx and skips the context query; a CUfunction node's (the driver crashes on one
 * with no context current), a kernel change, and every kernel update before 13.0 keep it. */
static void test_kernel_update_context_by_handle_kind(void **state) {
    cgn_test_env *env = *state;
    CUcontext c0 = cgn_fake_context(0);
    cgn_fake_set_current_context(c0);
    cgn_graph *g;
    cgn_node *by_kernel, *by_function;
    cgn_exec *e;
    OK(cgn_graph_create(&g));
    CUdeviceptr p = env->buf[0];
    cgn_arg one[1] = {CGN_ARG(p)};
    cgn_kernel_desc d = kernel_desc(env, "write_config", one, 1);
    assert_non_null(d.kernel.kernel); /* the fake backend gives write_config as a CUkernel */
    OK(cgn_graph_add_kernel(g, NULL, 0, &d, &by_kernel));
    d = kernel_desc(env, "add_one", one, 1);
    assert_non_null(d.kernel.function); /* ...and add_one as a CUfunction */
    OK(cgn_graph_add_kernel(g, NULL, 0, &d, &by_function));
    OK(cgn_graph_instantiate(g, &e));
    cgn_kernel_update u = CGN_KERNEL_UPDATE_INIT;
    cgn_kernel_update_set_grid(&u, CGN_DIM3(2, 1, 1));
    cgn_fake_set_current_context(NULL);
    const struct {
        cgn_node *node;
        int exec, version, in_context; /* 1: asked for the context and pushed the node's */
    } cases[] = {
        {by_kernel, 0, 13000, 0}, {by_kernel, 1, 13000, 0},  {by_function, 0, 13000, 1},
        {by_function, 1, 13000, 1}, {by_kernel, 0, 12080, 1}, {by_kernel, 1, 12080, 1},
    };
    int version;
    OK(cgn_driver_version(&version));
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        cgn_fault_set_version(cases[i].version);
        cgn_fault_reset_counts();
        u.grid.x = 3 + (unsigned)i;
        OK(cases[i].exec ? cgn_kernel_exec_update(e, cases[i].node, &u)
                         : cgn_kernel_node_update(cases[i].node, &u));
        cgn_fault_set_version(version);
        if ((cgn_fault_calls(CGN_FAULT_cuCtxGetCurrent) > 0) != cases[i].in_context ||
            cgn_fault_calls(CGN_FAULT_cuCtxPushCurrent) != cases[i].in_context)
            fail_msg("case %zu: %ld context queries and %ld pushes, expected %s", i,
                     cgn_fault_calls(CGN_FAULT_cuCtxGetCurrent),
                     cgn_fault_calls(CGN_FAULT_cuCtxPushCurrent),
                     cases[i].in_context ? "both" : "none");
        CUcontext now = c0;
        assert_int_equal(cgn_fake_table()->cuCtxGetCurrent(&now), CUDA_SUCCESS);
        assert_null(now); /* the caller had none, and has none */
    }
    /* A new kernel, even a CUkernel for a CUkernel, runs in the node's context. */
    cgn_kernel_update_set_kernel(&u, cgn_test_kernel(env, "write_config"), NULL, one, 1);
    cgn_fault_reset_counts();
    OK(cgn_kernel_node_update(by_kernel, &u)); /* the same CUkernel: no query */
    assert_int_equal(cgn_fault_calls(CGN_FAULT_cuCtxGetCurrent), 0);
    cgn_kernel_update_set_kernel(&u, cgn_test_kernel(env, "empty"), NULL, NULL, 0);
    cgn_fault_reset_counts();
    OK(cgn_kernel_node_update(by_kernel, &u));
    assert_int_equal(cgn_fault_calls(CGN_FAULT_cuCtxPushCurrent), 1);
    cgn_fake_set_current_context(c0);
    OK(cgn_exec_destroy(e));
    OK(cgn_graph_destroy(g));
}

/* Argument-level updates rewrite only the arguments that differ from the spare block (the
 * version before the current one), not the whole block: a random sequence of argument edits,
 * whole-list updates and injected driver failures, at both levels, checked after every step
 * against a model of what the node holds (values and owners, through cgn and through the
 * driver's copy). */
enum { EDIT_ARGS = 6 };
static const size_t edit_sizes[EDIT_ARGS] = {8, 4, 8, 16, 4, 8};
typedef struct edit_model {
    unsigned char value[EDIT_ARGS][16];
    cgn_owner *owner[EDIT_ARGS];
} edit_model;

static void no_release(void *resource) { (void)resource; }
static void no_run(void **args, const CUDA_KERNEL_NODE_PARAMS_v2 *launch, void *user) {
    (void)args;
    (void)launch;
    (void)user;
}

static void edit_model_check(const edit_model *m, const cgn_kernel_desc *d,
                             const CUgraphNodeParams *raw, long step) {
    if (d->num_args != EDIT_ARGS)
        fail_msg("step %ld: %u arguments", step, d->num_args);
    for (int i = 0; i < EDIT_ARGS; i++) {
        if (d->args[i].size != edit_sizes[i] ||
            memcmp(d->args[i].value, m->value[i], edit_sizes[i]) != 0)
            fail_msg("step %ld: argument %d differs from the model in cgn's copy", step, i);
        if (d->args[i].owner != m->owner[i])
            fail_msg("step %ld: argument %d has another owner", step, i);
        if (memcmp(raw->kernel.kernelParams[i], m->value[i], edit_sizes[i]) != 0)
            fail_msg("step %ld: argument %d differs from the model in the driver", step, i);
    }
}

static void test_arg_edits_track_the_spare(void **state) {
    (void)state;
    CUfunction f = cgn_fake_register_kernel("six_args", EDIT_ARGS, edit_sizes, no_run, NULL);
    cgn_owner *owners[3] = {NULL, NULL, NULL};
    static int payload[2];
    OK(cgn_owner_create(&payload[0], no_release, &owners[1]));
    OK(cgn_owner_create(&payload[1], no_release, &owners[2]));
    edit_model def, ex;
    memset(&def, 0, sizeof def);
    uint64_t rng = 0x9E3779B97F4A7C15ull;
#define EDIT_RAND() (rng = rng * 6364136223846793005ull + 1442695040888963407ull, rng >> 33)
    cgn_arg args[EDIT_ARGS];
    for (int i = 0; i < EDIT_ARGS; i++) {
        for (size_t b = 0; b < edit_sizes[i]; b++)
            def.value[i][b] = (unsigned char)EDIT_RAND();
        args[i] = (cgn_arg){def.value[i], edit_sizes[i], NULL};
    }
    cgn_kernel_desc d = CGN_KERNEL_DESC_INIT;
    d.kernel = CGN_KERNEL(cgn_fake_kernel_of(f));
    d.grid = d.block = CGN_DIM3(1, 1, 1);
    d.args = args;
    d.num_args = EDIT_ARGS;
    cgn_graph *g;
    cgn_node *n;
    cgn_exec *e;
    OK(cgn_graph_create(&g));
    OK(cgn_graph_add_kernel(g, NULL, 0, &d, &n));
    OK(cgn_graph_instantiate(g, &e));
    ex = def;
    CUgraphNode raw;
    OK(cgn_node_raw(n, &raw));
    CUgraphExec raw_exec;
    OK(cgn_exec_raw(e, &raw_exec));
    unsigned char values[CGN_MAX_ARG_EDITS][16];
    for (long step = 0; step < 600; step++) {
        int at_exec = EDIT_RAND() % 2;
        edit_model *m = at_exec ? &ex : &def, next = *m;
        unsigned kind = (unsigned)(EDIT_RAND() % 10); /* 0-6 edits, 7 whole list, 8-9 fail */
        cgn_kernel_update u = CGN_KERNEL_UPDATE_INIT;
        cgn_arg whole[EDIT_ARGS];
        if (kind == 7) {
            for (int i = 0; i < EDIT_ARGS; i++) {
                for (size_t b = 0; b < edit_sizes[i]; b++)
                    next.value[i][b] = (unsigned char)EDIT_RAND();
                next.owner[i] = owners[EDIT_RAND() % 3];
                whole[i] = (cgn_arg){next.value[i], edit_sizes[i], next.owner[i]};
            }
            cgn_kernel_update_set_args(&u, whole, EDIT_ARGS);
        } else {
            unsigned count = 1 + (unsigned)(EDIT_RAND() % 3);
            for (unsigned k = 0; k < count; k++) {
                unsigned i = (unsigned)(EDIT_RAND() % EDIT_ARGS);
                for (size_t b = 0; b < edit_sizes[i]; b++)
                    values[k][b] = next.value[i][b] = (unsigned char)EDIT_RAND();
                next.owner[i] = owners[EDIT_RAND() % 3];
                cgn_kernel_update_set_arg(&u, i, values[k], (uint32_t)edit_sizes[i],
                                          next.owner[i]);
            }
        }
        int fail = kind >= 8;
        if (fail)
            cgn_fault_arm(1 + (long)(EDIT_RAND() % 3), CUDA_ERROR_INVALID_VALUE);
        cgn_status st = at_exec ? cgn_kernel_exec_update(e, n, &u) : cgn_kernel_node_update(n, &u);
        int injected = fail && cgn_fault_triggered(NULL);
        cgn_fault_disarm();
        if (injected ? st == CGN_OK : st != CGN_OK)
            fail_msg("step %ld: %s (%s), injected failure: %d", step, cgn_status_name(st),
                     cgn_last_error(), injected);
        if (st == CGN_OK)
            *m = next;
        cgn_kernel_desc got;
        CUgraphNodeParams p;
        OK(cgn_kernel_node_get(n, &got));
        assert_true(cgn_fake_node_params(raw, &p));
        edit_model_check(&def, &got, &p, step);
        OK(cgn_kernel_exec_get(e, n, &got));
        assert_true(cgn_fake_exec_node_params(raw_exec, raw, &p));
        edit_model_check(&ex, &got, &p, step);
    }
#undef EDIT_RAND
    OK(cgn_exec_destroy(e));
    OK(cgn_graph_destroy(g));
    cgn_collect();
    OK(cgn_owner_release(owners[1]));
    OK(cgn_owner_release(owners[2]));
}

/* cgn_<node>_update_reset makes an update reusable, and is all a fresh one needs: cgn reads
 * only the fields whose bit is set (an uninitialised struct reset once is fine under
 * valgrind and MSan). */
static void test_update_reset_reuses_an_update(void **state) {
    cgn_test_env *env = *state;
    uint32_t seven = 7, nine = 9;
    cgn_arg args[2] = {CGN_ARG(env->buf[0]), CGN_ARG(seven)};
    cgn_kernel_desc d = kernel_desc(env, "fill_u32", args, 2);
    cgn_graph *g;
    cgn_node *n;
    OK(cgn_graph_create(&g));
    OK(cgn_graph_add_kernel(g, NULL, 0, &d, &n));
    cgn_kernel_update u; /* deliberately not initialised */
    cgn_kernel_update_reset(&u);
    assert_int_equal(u.set, 0);
    assert_int_equal(u.arg_edits.count, 0);
    cgn_kernel_update_set_grid(&u, CGN_DIM3(3, 1, 1));
    for (int i = 0; i < CGN_MAX_ARG_EDITS; i++) /* a full edit list */
        cgn_kernel_update_set_arg(&u, 1, &nine, sizeof nine, NULL);
    OK(cgn_kernel_node_update(n, &u));
    cgn_kernel_update_reset(&u); /* reused: the grid and the edits are gone */
    cgn_kernel_update_set_block(&u, CGN_DIM3(2, 1, 1));
    cgn_kernel_update_set_arg(&u, 1, &seven, sizeof seven, NULL);
    assert_int_equal(u.arg_edits.count, 1);
    OK(cgn_kernel_node_update(n, &u));
    cgn_kernel_desc got;
    OK(cgn_kernel_node_get(n, &got));
    assert_int_equal(got.grid.x, 3); /* kept from the first update */
    assert_int_equal(got.block.x, 2);
    uint32_t v;
    memcpy(&v, got.args[1].value, sizeof v);
    assert_int_equal(v, 7);
    cgn_memset_update mu; /* every node type has one */
    cgn_memset_update_reset(&mu);
    assert_int_equal(mu.set, 0);
    OK(cgn_graph_destroy(g));
}

/* The whole-list fast path (the spare already has the layout) checks what the full path
 * checks: a wrong size or a missing value is refused there too, at both levels, with nothing
 * changed. */
static void test_whole_list_fast_path_still_checks(void **state) {
    cgn_test_env *env = *state;
    uint32_t vals[3] = {1, 2, 3};
    uint64_t wide = 4;
    cgn_arg args[2] = {CGN_ARG(env->buf[0]), CGN_ARG(vals[0])};
    cgn_kernel_desc d = kernel_desc(env, "fill_u32", args, 2);
    cgn_graph *g;
    cgn_node *n;
    cgn_exec *e;
    OK(cgn_graph_create(&g));
    OK(cgn_graph_add_kernel(g, NULL, 0, &d, &n));
    OK(cgn_graph_instantiate(g, &e));
    for (int level = 0; level < 2; level++) {
        for (int k = 0; k < 3; k++) { /* until the spare has been written with this layout */
            cgn_arg good[2] = {CGN_ARG(env->buf[0]), CGN_ARG(vals[k])};
            cgn_kernel_update u = CGN_KERNEL_UPDATE_INIT;
            cgn_kernel_update_set_args(&u, good, 2);
            OK(level ? cgn_kernel_exec_update(e, n, &u) : cgn_kernel_node_update(n, &u));
        }
        cgn_arg bad_size[2] = {CGN_ARG(env->buf[0]), CGN_ARG(wide)};
        cgn_arg no_value[2] = {CGN_ARG(env->buf[0]), {NULL, sizeof(uint32_t), NULL}};
        const struct {
            const cgn_arg *args;
            cgn_status want;
        } cases[] = {{bad_size, CGN_ERROR_INVALID_VALUE}, {no_value, CGN_ERROR_INVALID_ARGUMENT}};
        for (size_t c = 0; c < 2; c++) {
            cgn_kernel_update u = CGN_KERNEL_UPDATE_INIT;
            cgn_kernel_update_set_args(&u, cases[c].args, 2);
            cgn_status st = level ? cgn_kernel_exec_update(e, n, &u) : cgn_kernel_node_update(n, &u);
            if (st != cases[c].want)
                fail_msg("level %d case %zu: %s (%s)", level, c, cgn_status_name(st),
                         cgn_last_error());
            cgn_kernel_desc got;
            OK(level ? cgn_kernel_exec_get(e, n, &got) : cgn_kernel_node_get(n, &got));
            uint32_t v;
            memcpy(&v, got.args[1].value, sizeof v);
            assert_int_equal(v, 3); /* the last good update's */
        }
    }
    OK(cgn_exec_destroy(e));
    OK(cgn_graph_destroy(g));
}

/* What a get returns, passed straight back into an update (docs/nodes.md): the whole list,
 * and its arguments swapped through argument edits whose values point into cgn's current
 * block. cgn reads them before it writes anything they point into, at both levels, over enough
 * rounds that the spare block is reused. */
static void test_get_args_passed_back(void **state) {
    (void)state;
    static const size_t sizes[2] = {sizeof(uint64_t), sizeof(uint64_t)};
    CUfunction f = cgn_fake_register_kernel("two_u64", 2, sizes, no_run, NULL);
    uint64_t v[2] = {11, 22};
    cgn_arg args[2] = {CGN_ARG(v[0]), CGN_ARG(v[1])};
    cgn_kernel_desc d = CGN_KERNEL_DESC_INIT;
    d.kernel = CGN_FUNCTION(f);
    d.grid = CGN_DIM3(1, 1, 1);
    d.block = CGN_DIM3(1, 1, 1);
    d.args = args;
    d.num_args = 2;
    cgn_graph *g;
    cgn_node *n;
    cgn_exec *e;
    OK(cgn_graph_create(&g));
    OK(cgn_graph_add_kernel(g, NULL, 0, &d, &n));
    OK(cgn_graph_instantiate(g, &e));
    CUgraphNode raw;
    CUgraphExec raw_exec;
    OK(cgn_node_raw(n, &raw));
    OK(cgn_exec_raw(e, &raw_exec));
    for (int level = 0; level < 2; level++) {
        uint64_t want[2] = {11, 22};
        for (int round = 0; round < 4; round++) {
            cgn_kernel_desc got;
            OK(level ? cgn_kernel_exec_get(e, n, &got) : cgn_kernel_node_get(n, &got));
            cgn_kernel_update u = CGN_KERNEL_UPDATE_INIT;
            if (round % 2 == 0) { /* the list as it is: nothing changes */
                cgn_kernel_update_set_args(&u, got.args, got.num_args);
            } else { /* swapped, each value read from the other argument's copy */
                cgn_kernel_update_set_arg(&u, 0, got.args[1].value, sizeof(uint64_t), NULL);
                cgn_kernel_update_set_arg(&u, 1, got.args[0].value, sizeof(uint64_t), NULL);
                uint64_t t = want[0];
                want[0] = want[1];
                want[1] = t;
            }
            OK(level ? cgn_kernel_exec_update(e, n, &u) : cgn_kernel_node_update(n, &u));
            CUgraphNodeParams p;
            assert_true(level ? cgn_fake_exec_node_params(raw_exec, raw, &p)
                              : cgn_fake_node_params(raw, &p));
            OK(level ? cgn_kernel_exec_get(e, n, &got) : cgn_kernel_node_get(n, &got));
            for (int i = 0; i < 2; i++) {
                uint64_t in_cgn, in_driver;
                memcpy(&in_cgn, got.args[i].value, sizeof in_cgn);
                memcpy(&in_driver, p.kernel.kernelParams[i], sizeof in_driver);
                if (in_cgn != want[i] || in_driver != want[i])
                    fail_msg("level %d round %d argument %d: cgn %llu, driver %llu, want %llu",
                             level, round, i, (unsigned long long)in_cgn,
                             (unsigned long long)in_driver, (unsigned long long)want[i]);
            }
        }
    }
    OK(cgn_exec_destroy(e));
    OK(cgn_graph_destroy(g));
}

/* A node added before 12.4 (its kernel's sizes unknown) and refreshed on a newer driver has
 * a block with the sizes as its current one and the old, size-less block as its spare: a
 * whole-list update must not reuse that spare as if it had the current layout (argument-level
 * updates, which need the sizes, must keep working). */
static void test_sizeless_spare_not_refilled(void **state) {
    cgn_test_env *env = *state;
    int version;
    OK(cgn_driver_version(&version));
    cgn_fault_set_version(12030);
    uint32_t vals[4] = {1, 2, 3, 4};
    cgn_arg args[2] = {CGN_ARG(env->buf[0]), CGN_ARG(vals[0])};
    cgn_kernel_desc d = kernel_desc(env, "fill_u32", args, 2);
    cgn_graph *g;
    cgn_node *n;
    OK(cgn_graph_create(&g));
    OK(cgn_graph_add_kernel(g, NULL, 0, &d, &n));
    for (int k = 1; k < 3; k++) { /* a size-less spare */
        cgn_arg a[2] = {CGN_ARG(env->buf[0]), CGN_ARG(vals[k])};
        cgn_kernel_update u = CGN_KERNEL_UPDATE_INIT;
        cgn_kernel_update_set_args(&u, a, 2);
        OK(cgn_kernel_node_update(n, &u));
    }
    cgn_fault_set_version(version);
    OK(cgn_node_refresh(n)); /* the current block now has the kernel's sizes */
    cgn_arg a[2] = {CGN_ARG(env->buf[0]), CGN_ARG(vals[3])};
    cgn_kernel_update u = CGN_KERNEL_UPDATE_INIT;
    cgn_kernel_update_set_args(&u, a, 2);
    OK(cgn_kernel_node_update(n, &u));
    uint32_t nine = 9;
    cgn_kernel_update e = CGN_KERNEL_UPDATE_INIT;
    cgn_kernel_update_set_arg(&e, 1, &nine, sizeof nine, NULL);
    OK(cgn_kernel_node_update(n, &e)); /* needs the sizes */
    cgn_kernel_desc got;
    OK(cgn_kernel_node_get(n, &got));
    uint32_t v;
    memcpy(&v, got.args[1].value, sizeof v);
    assert_int_equal(v, 9);
    OK(cgn_graph_destroy(g));
}

static void test_kernel_arg_check_skipped_before_12_4(void **state) {
    cgn_test_env *env = *state;
    cgn_fault_set_version(12030);
    cgn_graph *g;
    cgn_node *n;
    OK(cgn_graph_create(&g));
    CUdeviceptr p = env->buf[0];
    cgn_arg two[2] = {CGN_ARG(p), CGN_ARG(p)};
    cgn_kernel_desc d = kernel_desc(env, "add_one", two, 2);
    /* Documented: without cuFuncGetParamInfo the count cannot be checked. */
    OK(cgn_graph_add_kernel(g, NULL, 0, &d, &n));
    assert_int_equal(cgn_fault_calls(CGN_FAULT_cuFuncGetParamInfo), 0);
    OK(cgn_graph_destroy(g));
}

static void test_kernel_args_are_copied(void **state) {
    cgn_test_env *env = *state;
    cgn_graph *g;
    cgn_node *n;
    cgn_exec *e;
    OK(cgn_graph_create(&g));
    CUdeviceptr p = env->buf[0];
    uint32_t value = 7;
    cgn_arg args[2] = {CGN_ARG(p), CGN_ARG(value)};
    cgn_kernel_desc d = kernel_desc(env, "fill_u32", args, 2);
    OK(cgn_graph_add_kernel(g, NULL, 0, &d, &n));
    value = 99; /* the caller's storage may change or go away after the call */
    memset(args, 0, sizeof args);
    cgn_kernel_desc got;
    OK(cgn_kernel_node_get(n, &got));
    assert_int_equal(got.num_args, 2);
    uint32_t stored;
    memcpy(&stored, got.args[1].value, sizeof stored);
    assert_int_equal(stored, 7);
    OK(cgn_graph_instantiate(g, &e));
    OK(cgn_exec_launch(e, NULL));
    uint32_t out;
    memcpy(&out, (void *)(uintptr_t)env->buf[0], sizeof out);
    assert_int_equal(out, 7);
    OK(cgn_exec_destroy(e));
    OK(cgn_graph_destroy(g));
}

static void test_kernel_handle_must_be_one_kind(void **state) {
    cgn_test_env *env = *state;
    cgn_graph *g;
    cgn_node *n;
    OK(cgn_graph_create(&g));
    cgn_kernel_desc d = kernel_desc(env, "empty", NULL, 0);
    d.kernel.function = (CUfunction)(uintptr_t)1;
    assert_int_equal(cgn_graph_add_kernel(g, NULL, 0, &d, &n), CGN_ERROR_INVALID_VALUE);
    d.kernel = (cgn_kernel){NULL, NULL};
    assert_int_equal(cgn_graph_add_kernel(g, NULL, 0, &d, &n), CGN_ERROR_INVALID_VALUE);
    assert_non_null(strstr(cgn_last_error(), "exactly one"));
    OK(cgn_graph_destroy(g));
}

/* ---- every kernel argument with its owner, written in place (the graph's own attachment) ---- */

/* fill_u32(buf[b], value) with the buffer's owner as its argument's. */
static void owned_fill_args(cgn_test_env *env, cgn_arg args[2], int b, const uint32_t *value) {
    args[0] = CGN_ARG_OWNED(env->buf[b], env->owner[b]);
    args[1] = CGN_ARG(*value);
}

static const uint32_t fill_one = 1, fill_two = 2;

/* A fill_u32 node of g writing 1 to buffer b, whose owner holds it, with the kernel's own owner
 * (or none). */
static cgn_node *owned_fill_node(cgn_test_env *env, cgn_graph *g, int b, cgn_owner *kernel_owner) {
    cgn_arg args[2];
    owned_fill_args(env, args, b, &fill_one);
    cgn_kernel_desc d = kernel_desc(env, "fill_u32", args, 2);
    d.kernel_owner = kernel_owner;
    cgn_node *n;
    OK(cgn_graph_add_kernel(g, NULL, 0, &d, &n));
    return n;
}

/* The update of every argument to fill_u32(buf[b], 2) with buffer b's owner; it points into
 * args, which must outlive it. */
static cgn_kernel_update owned_fill_update(cgn_test_env *env, cgn_arg args[2], int b) {
    owned_fill_args(env, args, b, &fill_two);
    cgn_kernel_update u = CGN_KERNEL_UPDATE_INIT;
    cgn_kernel_update_set_args(&u, args, 2);
    return u;
}

/* Nothing but the graph holds the version: new arguments and owners in place, one driver call,
 * the old owner's reference dropped at once, the kernel's own owner kept first. */
static void test_owned_arguments_written_in_place(void **state) {
    cgn_test_env *env = *state;
    cgn_graph *g;
    OK(cgn_graph_create(&g));
    cgn_node *n = owned_fill_node(env, g, 0, env->owner[3]);
    cgn__attachment *a = cgn__node_record(n)->attachment;
    const void *block = cgn__node_record(n)->storage;
    cgn_arg args[2];
    cgn_kernel_update u = owned_fill_update(env, args, 1);
    cgn_fault_reset_counts();
    OK(cgn_kernel_node_update(n, &u));
    assert_int_equal(cgn_fault_total_calls(), 1);
    assert_int_equal(cgn_fault_setter_calls(), 1);
    assert_ptr_equal(cgn__node_record(n)->storage, block); /* the same block, in place */
    assert_ptr_equal(cgn__node_record(n)->attachment, a);
    assert_int_equal(a->num_owners, 2);
    assert_ptr_equal(a->owners[0], env->owner[3]);
    assert_ptr_equal(a->owners[1], env->owner[1]);
    cgn_kernel_desc got;
    OK(cgn_kernel_node_get(n, &got));
    assert_ptr_equal(got.args[0].owner, env->owner[1]);
    CUdeviceptr dst;
    memcpy(&dst, got.args[0].value, sizeof dst);
    assert_true(dst == env->buf[1]);
    cgn_test_env_drop_owners(env);
    assert_true(cgn_test_wait_released(env, 0, 1));
    assert_int_equal(env->released[1], 0);
    assert_int_equal(env->released[3], 0);
    cgn_exec *e;
    OK(cgn_graph_instantiate(g, &e));
    OK(cgn_exec_launch(e, NULL));
    uint32_t out;
    memcpy(&out, (void *)(uintptr_t)env->buf[1], sizeof out);
    assert_int_equal(out, 2);
    OK(cgn_exec_destroy(e));
    OK(cgn_graph_destroy(g));
    assert_true(cgn_test_wait_released(env, 1, 1));
    assert_true(cgn_test_wait_released(env, 3, 1));
}

/* The driver refuses: the bytes and the owners in the block go back, the attachment keeps its
 * owners, and the staged owner's reference is dropped. */
static void test_owned_arguments_refused_put_back(void **state) {
    cgn_test_env *env = *state;
    cgn_graph *g;
    OK(cgn_graph_create(&g));
    cgn_node *n = owned_fill_node(env, g, 0, NULL);
    cgn__attachment *a = cgn__node_record(n)->attachment;
    cgn_arg args[2];
    cgn_kernel_update u = owned_fill_update(env, args, 1);
    cgn_fault_reset_counts();
    cgn_fault_arm(1, CUDA_ERROR_INVALID_VALUE); /* its one driver call: the setter */
    assert_int_equal(cgn_kernel_node_update(n, &u), CGN_ERROR_DRIVER);
    cgn_fault_entry entry;
    assert_true(cgn_fault_triggered(&entry));
    assert_true(cgn_fault_is_setter(entry));
    cgn_fault_disarm();
    cgn_kernel_desc got;
    OK(cgn_kernel_node_get(n, &got));
    CUdeviceptr dst;
    uint32_t value;
    memcpy(&dst, got.args[0].value, sizeof dst);
    memcpy(&value, got.args[1].value, sizeof value);
    assert_true(dst == env->buf[0]);
    assert_int_equal(value, 1);
    assert_ptr_equal(got.args[0].owner, env->owner[0]);
    assert_ptr_equal(cgn__node_record(n)->attachment, a);
    assert_int_equal(a->num_owners, 1);
    assert_ptr_equal(a->owners[0], env->owner[0]);
    cgn_test_env_drop_owners(env);
    assert_true(cgn_test_wait_released(env, 1, 1)); /* only the staged reference held it */
    assert_int_equal(env->released[0], 0);
    OK(cgn_graph_destroy(g));
    assert_true(cgn_test_wait_released(env, 0, 1));
}

/* Once an executable holds the version, the owners go to a new attachment (a user object),
 * and the executable keeps writing the old buffer with the old owner alive. */
static void test_owned_arguments_of_a_shared_version_get_a_new_attachment(void **state) {
    cgn_test_env *env = *state;
    cgn_graph *g;
    OK(cgn_graph_create(&g));
    cgn_node *n = owned_fill_node(env, g, 0, NULL);
    cgn__attachment *a = cgn__node_record(n)->attachment;
    cgn_exec *e;
    OK(cgn_graph_instantiate(g, &e));
    cgn_arg args[2];
    cgn_kernel_update u = owned_fill_update(env, args, 1);
    cgn_fault_reset_counts();
    OK(cgn_kernel_node_update(n, &u));
    assert_int_equal(cgn_fault_calls(CGN_FAULT_cuUserObjectCreate), 1);
    assert_ptr_not_equal(cgn__node_record(n)->attachment, a);
    cgn_test_env_drop_owners(env);
    cgn_collect();
    assert_int_equal(env->released[0], 0);
    OK(cgn_exec_launch(e, NULL));
    uint32_t out;
    memcpy(&out, (void *)(uintptr_t)env->buf[0], sizeof out);
    assert_int_equal(out, 1);
    OK(cgn_exec_destroy(e));
    assert_true(cgn_test_wait_released(env, 0, 1));
    OK(cgn_graph_destroy(g));
    assert_true(cgn_test_wait_released(env, 1, 1));
}

/* Arguments without owners on a version with some: the attachment goes (one release). */
static void test_owned_version_dropping_its_owners(void **state) {
    cgn_test_env *env = *state;
    cgn_graph *g;
    OK(cgn_graph_create(&g));
    cgn_node *n = owned_fill_node(env, g, 0, NULL);
    cgn_arg args[2] = {CGN_ARG(env->buf[1]), CGN_ARG(fill_one)};
    cgn_kernel_update u = CGN_KERNEL_UPDATE_INIT;
    cgn_kernel_update_set_args(&u, args, 2);
    cgn_fault_reset_counts();
    OK(cgn_kernel_node_update(n, &u));
    assert_int_equal(cgn_fault_calls(CGN_FAULT_cuGraphReleaseUserObject), 1);
    assert_null(cgn__node_record(n)->attachment);
    cgn_test_env_drop_owners(env);
    assert_true(cgn_test_wait_released(env, 0, 1));
    OK(cgn_graph_destroy(g));
}

/* A launch in flight after its executable was destroyed still writes the old buffer: its owner
 * stays until the launch completes, though the version's block is the node's alone again. */
static void test_owned_arguments_of_a_launch_in_flight_keep_their_owner(void **state) {
    cgn_test_env *env = *state;
    cgn_graph *g;
    OK(cgn_graph_create(&g));
    cgn_node *n = owned_fill_node(env, g, 0, NULL);
    cgn_exec *e;
    OK(cgn_graph_instantiate(g, &e));
    cgn_fake_hold_completion(1);
    OK(cgn_exec_launch(e, NULL));
    OK(cgn_exec_destroy(e));
    cgn_arg args[2];
    cgn_kernel_update u = owned_fill_update(env, args, 1);
    OK(cgn_kernel_node_update(n, &u));
    cgn_test_env_drop_owners(env);
    cgn_collect();
    assert_int_equal(env->released[0], 0);
    assert_true(cgn_fake_complete_pending() > 0);
    cgn_fake_hold_completion(0);
    assert_true(cgn_test_wait_released(env, 0, 1));
    assert_int_equal(env->released[1], 0);
    OK(cgn_graph_destroy(g));
    assert_true(cgn_test_wait_released(env, 1, 1));
}

/* The attachment has room for the owners it was made with: a version gaining one (the
 * kernel's own owner first, then an argument's) gets a new attachment, made by the
 * transaction's path, with both. */
static void test_owned_arguments_beyond_the_attachments_room(void **state) {
    cgn_test_env *env = *state;
    cgn_graph *g;
    OK(cgn_graph_create(&g));
    cgn_arg first[2] = {CGN_ARG(env->buf[0]), CGN_ARG(fill_one)}; /* no owner */
    cgn_kernel_desc d = kernel_desc(env, "fill_u32", first, 2);
    d.kernel_owner = env->owner[3];
    cgn_node *n;
    OK(cgn_graph_add_kernel(g, NULL, 0, &d, &n));
    cgn__attachment *a = cgn__node_record(n)->attachment;
    assert_int_equal(a->cap_owners, 1);
    cgn_arg args[2];
    cgn_kernel_update u = owned_fill_update(env, args, 1);
    cgn_fault_reset_counts();
    OK(cgn_kernel_node_update(n, &u));
    assert_int_equal(cgn_fault_calls(CGN_FAULT_cuUserObjectCreate), 1);
    cgn__attachment *b = cgn__node_record(n)->attachment;
    assert_ptr_not_equal(b, a);
    assert_int_equal(b->num_owners, 2);
    assert_ptr_equal(b->owners[0], env->owner[3]);
    assert_ptr_equal(b->owners[1], env->owner[1]);
    OK(cgn_graph_destroy(g));
}

/* Before 13.0 the update needs the node's context: with another one current, the version
 * with owners goes to the transaction's path, which makes it current around the call. */
static void test_owned_arguments_before_13_in_another_context(void **state) {
    cgn_test_env *env = *state;
    CUcontext c0 = cgn_fake_context(0), c1 = cgn_fake_context(1);
    cgn_fake_set_current_context(c0);
    cgn_graph *g;
    OK(cgn_graph_create(&g));
    cgn_node *n = owned_fill_node(env, g, 0, NULL);
    cgn_arg args[2];
    cgn_kernel_update u = owned_fill_update(env, args, 1);
    int version;
    OK(cgn_driver_version(&version));
    cgn_fault_set_version(12080);
    cgn_fake_set_current_context(c1);
    cgn_fault_reset_counts();
    OK(cgn_kernel_node_update(n, &u));
    cgn_fault_set_version(version);
    assert_int_equal(cgn_fault_calls(CGN_FAULT_cuCtxPushCurrent), 1);
    assert_int_equal(cgn_fault_calls(CGN_FAULT_cuCtxPopCurrent), 1);
    cgn_kernel_desc got;
    OK(cgn_kernel_node_get(n, &got));
    assert_ptr_equal(got.args[0].owner, env->owner[1]);
    cgn_fake_set_current_context(c0);
    OK(cgn_graph_destroy(g));
}

int main(void) {
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_status_names),
        cmocka_unit_test(test_last_error_is_per_thread),
        cmocka_unit_test(test_real_driver_reports_what_is_missing),
        cmocka_unit_test(test_owner_released_once_at_last_reference),
        cmocka_unit_test_setup_teardown(test_null_arguments_rejected, cgn_test_fixture_setup,
                                        cgn_test_fixture_teardown),
        cmocka_unit_test_setup_teardown(test_unknown_set_bits_rejected, cgn_test_fixture_setup,
                                        cgn_test_fixture_teardown),
        cmocka_unit_test_setup_teardown(test_node_destroy_releases_owner_without_exec,
                                        cgn_test_fixture_setup, cgn_test_fixture_teardown),
        cmocka_unit_test_setup_teardown(test_exec_outlives_graph, cgn_test_fixture_setup,
                                        cgn_test_fixture_teardown),
        cmocka_unit_test_setup_teardown(test_update_with_same_owners_makes_no_user_object,
                                        cgn_test_fixture_setup, cgn_test_fixture_teardown),
        cmocka_unit_test_setup_teardown(test_owners_replaced_in_place_release_the_old_at_once,
                                        cgn_test_fixture_setup, cgn_test_fixture_teardown),
        cmocka_unit_test_setup_teardown(test_embedded_version_keeps_its_owners,
                                        cgn_test_fixture_setup, cgn_test_fixture_teardown),
        cmocka_unit_test_setup_teardown(test_version_of_a_launch_in_flight_keeps_its_owners,
                                        cgn_test_fixture_setup, cgn_test_fixture_teardown),
        cmocka_unit_test_setup_teardown(test_refreshed_version_keeps_its_owners,
                                        cgn_test_fixture_setup, cgn_test_fixture_teardown),
        cmocka_unit_test_setup_teardown(test_exposed_graph_gets_a_user_object_per_owner_change,
                                        cgn_test_fixture_setup, cgn_test_fixture_teardown),
        cmocka_unit_test_setup_teardown(test_refused_in_place_change_keeps_the_owners,
                                        cgn_test_fixture_setup, cgn_test_fixture_teardown),
        cmocka_unit_test_setup_teardown(
            test_owners_replaced_in_place_release_in_the_callers_context, cgn_test_fixture_setup,
            cgn_test_fixture_teardown),
        cmocka_unit_test_setup_teardown(test_host_update_gaining_an_owner_holds_it,
                                        cgn_test_fixture_setup, cgn_test_fixture_teardown),
        cmocka_unit_test_setup_teardown(test_host_owner_without_user_data_refused_even_null,
                                        cgn_test_fixture_setup, cgn_test_fixture_teardown),
        cmocka_unit_test_setup_teardown(test_event_update_gaining_an_owner_holds_it,
                                        cgn_test_fixture_setup, cgn_test_fixture_teardown),
        cmocka_unit_test_setup_teardown(test_owned_arguments_written_in_place,
                                        cgn_test_fixture_setup, cgn_test_fixture_teardown),
        cmocka_unit_test_setup_teardown(test_owned_arguments_refused_put_back,
                                        cgn_test_fixture_setup, cgn_test_fixture_teardown),
        cmocka_unit_test_setup_teardown(
            test_owned_arguments_of_a_shared_version_get_a_new_attachment, cgn_test_fixture_setup,
            cgn_test_fixture_teardown),
        cmocka_unit_test_setup_teardown(test_owned_version_dropping_its_owners,
                                        cgn_test_fixture_setup, cgn_test_fixture_teardown),
        cmocka_unit_test_setup_teardown(test_owned_arguments_of_a_launch_in_flight_keep_their_owner,
                                        cgn_test_fixture_setup, cgn_test_fixture_teardown),
        cmocka_unit_test_setup_teardown(test_owned_arguments_beyond_the_attachments_room,
                                        cgn_test_fixture_setup, cgn_test_fixture_teardown),
        cmocka_unit_test_setup_teardown(test_owned_arguments_before_13_in_another_context,
                                        cgn_test_fixture_setup, cgn_test_fixture_teardown),
        cmocka_unit_test_setup_teardown(test_update_runs_in_the_node_context,
                                        cgn_test_fixture_setup, cgn_test_fixture_teardown),
        cmocka_unit_test_setup_teardown(test_kernel_update_context_by_handle_kind,
                                        cgn_test_fixture_setup, cgn_test_fixture_teardown),
        cmocka_unit_test_setup_teardown(test_arg_edits_track_the_spare, cgn_test_fixture_setup,
                                        cgn_test_fixture_teardown),
        cmocka_unit_test_setup_teardown(test_update_reset_reuses_an_update, cgn_test_fixture_setup,
                                        cgn_test_fixture_teardown),
        cmocka_unit_test_setup_teardown(test_whole_list_fast_path_still_checks,
                                        cgn_test_fixture_setup, cgn_test_fixture_teardown),
        cmocka_unit_test_setup_teardown(test_get_args_passed_back, cgn_test_fixture_setup,
                                        cgn_test_fixture_teardown),
        cmocka_unit_test_setup_teardown(test_sizeless_spare_not_refilled, cgn_test_fixture_setup,
                                        cgn_test_fixture_teardown),
        cmocka_unit_test_setup_teardown(test_add_without_context_rejected, cgn_test_fixture_setup,
                                        cgn_test_fixture_teardown),
        cmocka_unit_test_setup_teardown(test_dependencies_checked, cgn_test_fixture_setup,
                                        cgn_test_fixture_teardown),
        cmocka_unit_test_setup_teardown(test_kernel_args_checked_against_kernel,
                                        cgn_test_fixture_setup, cgn_test_fixture_teardown),
        cmocka_unit_test_setup_teardown(test_kernel_arg_check_skipped_before_12_4,
                                        cgn_test_fixture_setup, cgn_test_fixture_teardown),
        cmocka_unit_test_setup_teardown(test_kernel_args_are_copied, cgn_test_fixture_setup,
                                        cgn_test_fixture_teardown),
        cmocka_unit_test_setup_teardown(test_kernel_handle_must_be_one_kind, cgn_test_fixture_setup,
                                        cgn_test_fixture_teardown),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
