/* Black-box tests, fourth round, written from the public documentation (include/cgn/cgn.h, the
 * generated/include/cgn/ headers, docs/ and generated/docs/nodes.md), on the fake driver. Areas
 * the earlier rounds did not cover in depth:
 * - the executable level as a production update -> launch loop: retention bounded by the
 *   launches in flight (each retired version released right after the launches that read it,
 *   not before), versions no launch saw released at once, several executables of one graph
 *   counted and updated independently, uploads that are not launches, raw handles that stop
 *   early releases, executables and graphs destroyed in either order with launches in flight,
 *   whole-graph refreshes against executable-level copies, enabled state per executable, and
 *   release callbacks (exactly once, on a user thread, never inside a host callback);
 * - docs/errors.md as a contract: every status reachable through the executable level (and the
 *   others the page lists) provoked through the public API, asserting the status and that the
 *   message names what the page says it names;
 * - hostile input at the executable level, each refusal checked to leave the definition, every
 *   executable, enabled states, owners, driver objects and the calling thread's context as they
 *   were, with no driver setter called for refusals the docs call pre-flight;
 * - a random walk over the loop's operations checked against a model of when each owner must
 *   (and may) be released, and the loop, cgn_collect() and definition updates on three threads.
 * The last two tests found where cgn contradicted its docs (fixed since; see their comments). */
#define _DEFAULT_SOURCE 1
#include <pthread.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stdatomic.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>

#include <cmocka.h>

#include "cgn_fault.h"
#include "cgn_test_env.h"
#include "cgn_test_fixture.h"
#include "fake_driver.h"

#include "blackbox_common.h" /* EXPECT_ST, collect_all */

/* ASan and TSan abort on a malloc of 2^62 bytes by default (allocator_may_return_null=0). */
#if defined(__SANITIZE_ADDRESS__) || defined(__SANITIZE_THREAD__)
#define BB_SANITIZED 1
#elif defined(__has_feature)
#if __has_feature(address_sanitizer) || __has_feature(thread_sanitizer)
#define BB_SANITIZED 1
#endif
#endif
#ifndef BB_SANITIZED
#define BB_SANITIZED 0
#endif

/* Fails unless cgn_last_error() contains `part`. */
static void expect_msg(const char *part) {
    if (strstr(cgn_last_error(), part) == NULL)
        fail_msg("message \"%s\" does not contain \"%s\"", cgn_last_error(), part);
}

/* Fails unless cgn_last_error() contains the printf-formatted text. */
static void expect_msgf(const char *fmt, ...) {
    char want[512];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(want, sizeof want, fmt, ap);
    va_end(ap);
    expect_msg(want);
}

/* Fails unless cgn_last_error() starts with `prefix` (the function that failed). */
static void expect_prefix(const char *prefix) {
    if (strncmp(cgn_last_error(), prefix, strlen(prefix)) != 0)
        fail_msg("message \"%s\" does not start with \"%s\"", cgn_last_error(), prefix);
}

/* ---- owners that count their releases and where they ran ---------------------------------- */

#define NUM_MINE 512
static atomic_int mine_released[NUM_MINE];
static pthread_t main_thread;
static atomic_int in_host_callback;       /* 1 while a test host callback runs */
static atomic_int released_off_main;      /* release callbacks run on another thread */
static atomic_int released_in_host;       /* ... inside a host callback */
static atomic_int released_in_driver_cb;  /* ... inside a driver (user-object) callback */
static atomic_int released_unowned_calls; /* release callbacks with a resource out of range */
static pthread_t collector_thread;        /* a user thread allowed to run them (its collect) */
static atomic_int collector_active;
static atomic_int any_user_thread; /* a test whose own threads all may run them */

static void mine_release(void *resource) {
    intptr_t i = (intptr_t)resource;
    if (i < 0 || i >= NUM_MINE) {
        atomic_fetch_add(&released_unowned_calls, 1);
        return;
    }
    if (!pthread_equal(pthread_self(), main_thread) && !atomic_load(&any_user_thread) &&
        !(atomic_load(&collector_active) && pthread_equal(pthread_self(), collector_thread)))
        atomic_fetch_add(&released_off_main, 1);
    if (atomic_load(&in_host_callback))
        atomic_fetch_add(&released_in_host, 1);
    if (cgn_fake_in_driver_callback())
        atomic_fetch_add(&released_in_driver_cb, 1);
    atomic_fetch_add(&mine_released[i], 1);
}

static cgn_owner *mine(int i) {
    cgn_owner *o = NULL;
    atomic_store(&mine_released[i], 0);
    OK(cgn_owner_create((void *)(intptr_t)i, mine_release, &o));
    return o;
}

static int released(int i) {
    return atomic_load(&mine_released[i]);
}

/* Drops our reference: from then on only what cgn holds keeps the owner alive. */
static void drop(cgn_owner *o) {
    OK(cgn_owner_release(o));
}

/* How many of owners [from, to) have not been released yet; fails if any went twice. */
static int unreleased(int from, int to) {
    int live = 0;
    for (int i = from; i < to; i++) {
        assert_true(released(i) <= 1);
        live += released(i) == 0;
    }
    return live;
}

static int setup4(void **state) {
    main_thread = pthread_self();
    atomic_store(&in_host_callback, 0);
    atomic_store(&released_off_main, 0);
    atomic_store(&released_in_host, 0);
    atomic_store(&released_in_driver_cb, 0);
    atomic_store(&released_unowned_calls, 0);
    atomic_store(&collector_active, 0);
    atomic_store(&any_user_thread, 0);
    return cgn_test_fixture_setup(state);
}

/* The fixture's checks, and where our release callbacks ran: always on a user thread (this one,
 * or the collector thread of test_collect_on_another_thread while it collects), never inside a
 * host callback or a driver callback (docs/ownership.md, "Threads"). */
static int teardown4(void **state) {
    int rc = cgn_test_fixture_teardown(state);
    assert_int_equal(atomic_load(&released_off_main), 0);
    assert_int_equal(atomic_load(&released_in_host), 0);
    assert_int_equal(atomic_load(&released_in_driver_cb), 0);
    assert_int_equal(atomic_load(&released_unowned_calls), 0);
    return rc;
}

/* OK(cgn_exec_destroy(e)), then OK(cgn_graph_destroy(g)); a failure names the caller's line and
 * its names for them. */
static void destroy_exec_graph_at(cgn_exec *e, cgn_graph *g, const char *e_name, const char *g_name,
                                  int line) {
    cgn_status st = cgn_exec_destroy(e);
    if (st != CGN_OK)
        fail_msg("line %d: cgn_exec_destroy(%s): %s (%s)", line, e_name, cgn_status_name(st),
                 cgn_last_error());
    st = cgn_graph_destroy(g);
    if (st != CGN_OK)
        fail_msg("line %d: cgn_graph_destroy(%s): %s (%s)", line, g_name, cgn_status_name(st),
                 cgn_last_error());
}
#define DESTROY_EXEC_GRAPH(e, g) destroy_exec_graph_at((e), (g), #e, #g, __LINE__)

/* ---- graphs and what they run ------------------------------------------------------------- */

/* Adds fill_u32(buffer `buf`, value) to g after deps, the pointer held by `owner`. */
static cgn_node *add_fill(cgn_test_env *env, cgn_graph *g, cgn_node *const *deps, size_t num_deps,
                          int buf, uint32_t value, cgn_owner *owner) {
    CUdeviceptr p = env->buf[buf];
    cgn_arg args[2] = {{&p, sizeof p, owner}, CGN_ARG(value)};
    cgn_kernel_desc d = CGN_KERNEL_DESC_INIT;
    d.kernel = cgn_test_kernel(env, "fill_u32");
    d.grid = CGN_DIM3(1, 1, 1);
    d.block = CGN_DIM3(1, 1, 1);
    d.args = args;
    d.num_args = 2;
    cgn_node *n = NULL;
    OK(cgn_graph_add_kernel(g, deps, num_deps, &d, &n));
    return n;
}

/* A graph with one kernel node, fill_u32(buffer `buf`, value), the pointer held by `owner`. */
static cgn_graph *fill_graph(cgn_test_env *env, int buf, uint32_t value, cgn_owner *owner,
                             cgn_node **node_out) {
    cgn_graph *g;
    OK(cgn_graph_create(&g));
    *node_out = add_fill(env, g, NULL, 0, buf, value, owner);
    return g;
}

/* fill_graph(env, 0, 5, NULL, node_out) and an executable of it. */
static cgn_graph *fill_graph_exec(cgn_test_env *env, cgn_node **node_out, cgn_exec **exec_out) {
    cgn_graph *g = fill_graph(env, 0, 5, NULL, node_out);
    OK(cgn_graph_instantiate(g, exec_out));
    return g;
}

/* A graph with a memset (0x11 into buffer 0, no owner) and, after it, fill_u32(buffer `buf`,
 * value). */
static cgn_graph *mixed_graph(cgn_test_env *env, int buf, uint32_t value, cgn_node **memset_out,
                              cgn_node **kernel_out) {
    cgn_graph *g;
    OK(cgn_graph_create(&g));
    cgn_memset_desc md = cgn_test_fill_desc(env, 0, 0x11, 0);
    OK(cgn_graph_add_memset(g, NULL, 0, &md, memset_out));
    *kernel_out = add_fill(env, g, memset_out, 1, buf, value, NULL);
    return g;
}

/* A graph with one memcpy node of 8 bytes from `src` into buffer 1. */
static cgn_graph *memcpy_graph(cgn_test_env *env, CUdeviceptr src, cgn_node **node_out) {
    cgn_graph *g;
    OK(cgn_graph_create(&g));
    cgn_memcpy_desc d = CGN_MEMCPY_DESC_INIT;
    d.dst = env->buf[1];
    d.src = src;
    d.size = 8;
    OK(cgn_graph_add_memcpy(g, NULL, 0, &d, node_out));
    return g;
}

static void zero_buf(cgn_test_env *env, int buf) {
    unsigned char z[CGN_TEST_BUF_SIZE] = {0};
    env->backend->write(env, env->buf[buf], z, sizeof z);
}

static uint32_t read_u32(cgn_test_env *env, int buf) {
    uint32_t v = 0;
    env->backend->read(env, env->buf[buf], &v, sizeof v);
    return v;
}

/* Launches e once (to completion) from a zeroed buffer `buf`; its first 32 bits afterwards. */
static uint32_t run_u32(cgn_test_env *env, cgn_exec *e, int buf) {
    zero_buf(env, buf);
    OK(env->backend->launch(env, e));
    return read_u32(env, buf);
}

/* Both arguments of a fill_u32 node by index (argument-level edits): in executable e, or in
 * the definition for e NULL. */
static cgn_status fill_edit(cgn_exec *e, cgn_node *n, const cgn_test_env *env, int buf,
                            uint32_t value, cgn_owner *owner) {
    CUdeviceptr p = env->buf[buf];
    cgn_kernel_update u = CGN_KERNEL_UPDATE_INIT;
    cgn_kernel_update_set_arg(&u, 0, &p, sizeof p, owner);
    cgn_kernel_update_set_arg(&u, 1, &value, sizeof value, NULL);
    return e ? cgn_kernel_exec_update(e, n, &u) : cgn_kernel_node_update(n, &u);
}

/* The fill_u32 node's two arguments as executable e (or the definition, e NULL) has them. */
typedef struct fill_args {
    CUdeviceptr p;
    uint32_t value;
    cgn_owner *owner;
} fill_args;

static fill_args fill_get(const cgn_exec *e, const cgn_node *n) {
    cgn_kernel_desc d;
    if (e)
        OK(cgn_kernel_exec_get(e, n, &d));
    else
        OK(cgn_kernel_node_get(n, &d));
    assert_int_equal(d.num_args, 2);
    assert_int_equal(d.args[0].size, sizeof(CUdeviceptr));
    assert_int_equal(d.args[1].size, sizeof(uint32_t));
    fill_args a;
    memcpy(&a.p, d.args[0].value, sizeof a.p);
    memcpy(&a.value, d.args[1].value, sizeof a.value);
    a.owner = d.args[0].owner;
    return a;
}

static void assert_fill(const cgn_exec *e, const cgn_node *n, const cgn_test_env *env, int buf,
                        uint32_t value) {
    fill_args a = fill_get(e, n);
    assert_int_equal(a.p, env->buf[buf]);
    assert_int_equal(a.value, value);
}

/* A memset update of dst (with its owner) and value, in executable e or the definition. */
static cgn_status mset(cgn_exec *e, cgn_node *n, const cgn_test_env *env, int buf, uint32_t value,
                       cgn_owner *owner) {
    cgn_memset_update u = CGN_MEMSET_UPDATE_INIT;
    cgn_memset_update_set_dst(&u, env->buf[buf], owner);
    cgn_memset_update_set_value(&u, value, 1);
    return e ? cgn_memset_exec_update(e, n, &u) : cgn_memset_node_update(n, &u);
}

/* OK(mset(e, n, env, buf, value, owner)), then drop(owner): the update alone holds the owner.
 * A failure names the caller's line and the update. */
static void mset_drop_at(cgn_exec *e, cgn_node *n, const cgn_test_env *env, int buf, uint32_t value,
                         cgn_owner *owner, int line) {
    cgn_status st = mset(e, n, env, buf, value, owner);
    if (st != CGN_OK)
        fail_msg("line %d: mset(%s, buffer %d, value 0x%x, owner %p): %s (%s)", line,
                 e ? "executable" : "definition", buf, (unsigned)value, (void *)owner,
                 cgn_status_name(st), cgn_last_error());
    drop(owner);
}
#define MSET_DROP(e, n, env, buf, value, owner)                                                    \
    mset_drop_at((e), (n), (env), (buf), (value), (owner), __LINE__)

static cgn_memset_desc mget(const cgn_exec *e, const cgn_node *n) {
    cgn_memset_desc d;
    memset(&d, 0, sizeof d);
    if (e)
        OK(cgn_memset_exec_get(e, n, &d));
    else
        OK(cgn_memset_node_get(n, &d));
    return d;
}

static void assert_mset(const cgn_exec *e, const cgn_node *n, const cgn_test_env *env, int buf,
                        uint32_t value, const cgn_owner *owner) {
    cgn_memset_desc d = mget(e, n);
    assert_int_equal(d.dst, env->buf[buf]);
    assert_int_equal(d.value, value);
    assert_ptr_equal(d.dst_owner, owner);
}

static int enabled_in(cgn_exec *e, cgn_node *n) {
    int en = -1;
    OK(cgn_exec_node_get_enabled(e, n, &en));
    return en;
}

/* Byte 0 of every device buffer after one launch of e from zeroed buffers. */
static void run_all(cgn_test_env *env, cgn_exec *e, uint8_t out[CGN_TEST_NUM_BUFS]) {
    for (int b = 0; b < CGN_TEST_NUM_BUFS; b++)
        zero_buf(env, b);
    OK(env->backend->launch(env, e));
    for (int b = 0; b < CGN_TEST_NUM_BUFS; b++) {
        unsigned char got[CGN_TEST_BUF_SIZE];
        env->backend->read(env, env->buf[b], got, sizeof got);
        out[b] = got[0];
    }
}

static void hold(void) {
    cgn_fake_hold_completion(1);
}

static void unhold(void) {
    cgn_fake_complete_pending();
    cgn_fake_hold_completion(0);
}

/* Makes the k-th driver call from now fail with `result` (counts reset). */
static void arm_fault(long k, CUresult result) {
    cgn_fault_reset_counts();
    cgn_fault_arm(k, result);
}

/* Disarms; whether the armed failure was injected. */
static int disarm_fault(void) {
    int hit = cgn_fault_triggered(NULL);
    cgn_fault_disarm();
    return hit;
}

/* ==== the update -> launch loop ============================================================ */

/* An executable-level loop with a new owner every step and every launch held in flight: no
 * version a launch in flight may read is released; completing launches oldest first releases
 * exactly the versions retired before them, one per completed launch; the current version
 * stays until the executable goes (docs/ownership.md, "Retired versions are released once no
 * launch can read them"). Effects happen at launch on the fake, so each launch's own arguments
 * are visible at once. */
static void test_loop_retention_follows_completions(void **state) {
    cgn_test_env *env = *state;
    cgn_node *n;
    cgn_graph *g = fill_graph(env, 0, 1, NULL, &n);
    cgn_exec *e;
    OK(cgn_graph_instantiate(g, &e));
    hold();
    for (int i = 0; i < 10; i++) {
        cgn_owner *o = mine(i);
        zero_buf(env, i % 2);
        OK(fill_edit(e, n, env, i % 2, 100u + (uint32_t)i, o));
        drop(o);
        OK(env->backend->launch_async(env, e));
        assert_int_equal(read_u32(env, i % 2), 100u + (uint32_t)i);
    }
    assert_int_equal(cgn_fake_in_flight(NULL), 10);
    collect_all();
    assert_int_equal(unreleased(0, 10), 10);
    assert_int_equal(cgn_fake_complete_launches(1), 1);
    collect_all();
    assert_int_equal(released(0), 1);
    assert_int_equal(unreleased(1, 10), 9);
    assert_int_equal(cgn_fake_complete_launches(3), 3);
    collect_all();
    assert_int_equal(unreleased(0, 4), 0);
    assert_int_equal(unreleased(4, 10), 6);
    unhold();
    collect_all();
    assert_int_equal(unreleased(0, 9), 0);
    assert_int_equal(released(9), 0); /* what the executable runs now */
    assert_int_equal(run_u32(env, e, 1), 109);
    assert_fill(e, n, env, 1, 109);
    assert_fill(NULL, n, env, 0, 1); /* the definition never moved */
    OK(cgn_exec_destroy(e));
    collect_all();
    assert_int_equal(released(9), 1);
    OK(cgn_graph_destroy(g));
}

/* A version no launch has seen (updated twice between launches) is released at once, while the
 * one a launch in flight reads stays until that launch completes. */
static void test_unseen_versions_released_at_once(void **state) {
    cgn_test_env *env = *state;
    cgn_graph *g;
    cgn_node *n;
    cgn_exec *e;
    cgn_test_fill_graph(env, &g, &n, &e);
    cgn_owner *a = mine(0), *b = mine(1), *c = mine(2);
    hold();
    MSET_DROP(e, n, env, 1, 0x21, a);
    OK(env->backend->launch_async(env, e));
    MSET_DROP(e, n, env, 2, 0x22, b);
    MSET_DROP(e, n, env, 3, 0x23, c);
    collect_all();
    assert_int_equal(released(1), 1); /* never launched */
    assert_int_equal(released(0), 0); /* read by the launch in flight */
    assert_int_equal(released(2), 0); /* current */
    unhold();
    collect_all();
    assert_int_equal(released(0), 1);
    assert_int_equal(released(2), 0);
    assert_mset(e, n, env, 3, 0x23, c);
    OK(cgn_exec_destroy(e));
    collect_all();
    assert_int_equal(released(2), 1);
    assert_int_equal(released(1), 1);
    OK(cgn_graph_destroy(g));
}

/* cgn_exec_upload is not a launch: "nothing is counted, released or waited for", so a version
 * that was only uploaded has been seen by no launch and goes at once when replaced. */
static void test_upload_is_not_a_launch(void **state) {
    cgn_test_env *env = *state;
    cgn_graph *g;
    cgn_node *n;
    cgn_exec *e;
    cgn_test_fill_graph(env, &g, &n, &e);
    cgn_owner *a = mine(0), *b = mine(1), *c = mine(2);
    hold();
    MSET_DROP(e, n, env, 1, 0x21, a);
    cgn_fault_reset_counts();
    OK(cgn_exec_upload(e, NULL));
    assert_int_equal(cgn_fault_calls(CGN_FAULT_cuGraphUpload), 1);
    assert_int_equal(cgn_fault_calls(CGN_FAULT_cuGraphLaunch), 0);
    MSET_DROP(e, n, env, 2, 0x22, b);
    collect_all();
    assert_int_equal(released(0), 1);
    OK(env->backend->launch_async(env, e));
    MSET_DROP(e, n, env, 3, 0x23, c);
    collect_all();
    assert_int_equal(released(1), 0); /* b was launched: in flight */
    unhold();
    collect_all();
    assert_int_equal(released(1), 1);
    assert_int_equal(cgn_test_run_read(env, e, 3), 0x23);
    DESTROY_EXEC_GRAPH(e, g);
    collect_all();
    assert_int_equal(released(2), 1);
}

/* Two executables of one graph count their launches apart: completing the first executable's
 * launch releases only what it retired. */
static void test_two_execs_counted_apart(void **state) {
    cgn_test_env *env = *state;
    cgn_graph *g;
    cgn_node *n;
    cgn_exec *e1, *e2;
    cgn_test_fill_graph(env, &g, &n, &e1);
    OK(cgn_graph_instantiate(g, &e2));
    cgn_owner *a1 = mine(0), *a2 = mine(1), *b1 = mine(2), *b2 = mine(3);
    hold();
    OK(mset(e1, n, env, 1, 0x21, a1));
    OK(env->backend->launch_async(env, e1));
    OK(mset(e2, n, env, 2, 0x22, a2));
    OK(env->backend->launch_async(env, e2));
    OK(mset(e1, n, env, 1, 0x31, b1));
    OK(mset(e2, n, env, 2, 0x32, b2));
    for (int i = 0; i < 4; i++)
        drop(i == 0 ? a1 : i == 1 ? a2 : i == 2 ? b1 : b2);
    collect_all();
    assert_int_equal(unreleased(0, 4), 4);
    assert_int_equal(cgn_fake_complete_launches(1), 1); /* e1's */
    collect_all();
    assert_int_equal(released(0), 1);
    assert_int_equal(released(1), 0);
    assert_int_equal(cgn_fake_complete_launches(1), 1); /* e2's */
    collect_all();
    assert_int_equal(released(1), 1);
    assert_int_equal(unreleased(2, 4), 2);
    unhold();
    assert_mset(e1, n, env, 1, 0x31, b1);
    assert_mset(e2, n, env, 2, 0x32, b2);
    assert_mset(NULL, n, env, 0, 0x11, NULL);
    OK(cgn_exec_destroy(e2));
    collect_all();
    assert_int_equal(released(3), 1);
    assert_int_equal(released(2), 0);
    DESTROY_EXEC_GRAPH(e1, g);
    collect_all();
    assert_int_equal(released(2), 1);
}

/* Executable, then graph destroyed with a launch in flight that reads a definition version
 * (owner d) and an executable-level one (owner x): neither goes before the launch completes;
 * both go exactly once after; cgn_exec_destroy never blocks for cgn's own launches
 * (no cuCtxSynchronize). */
static void test_destroy_exec_then_graph_in_flight(void **state) {
    cgn_test_env *env = *state;
    cgn_owner *d = mine(0), *x = mine(1);
    cgn_graph *g;
    OK(cgn_graph_create(&g));
    cgn_memset_desc md = cgn_test_fill_desc(env, 0, 0x11, 0);
    md.dst_owner = d;
    cgn_node *a, *b;
    OK(cgn_graph_add_memset(g, NULL, 0, &md, &a));
    md = cgn_test_fill_desc(env, 1, 0x12, 0);
    OK(cgn_graph_add_memset(g, NULL, 0, &md, &b));
    cgn_exec *e;
    OK(cgn_graph_instantiate(g, &e));
    OK(mset(e, b, env, 2, 0x22, x));
    drop(d);
    drop(x);
    hold();
    OK(env->backend->launch_async(env, e));
    cgn_fault_reset_counts();
    OK(cgn_exec_destroy(e));
    assert_int_equal(cgn_fault_calls(CGN_FAULT_cuCtxSynchronize), 0);
    collect_all();
    assert_int_equal(unreleased(0, 2), 2);
    OK(cgn_graph_destroy(g));
    collect_all();
    assert_int_equal(unreleased(0, 2), 2);
    assert_true(cgn_fake_in_flight(NULL) == 1);
    unhold();
    collect_all();
    assert_int_equal(released(0), 1);
    assert_int_equal(released(1), 1);
    assert_int_equal(cgn_fake_live_objects(), 0);
}

/* The graph goes first; two executables keep updating independently; the definition's owner
 * stays until the last executable is gone, each executable's own owners go with it. */
static void test_graph_first_execs_in_either_order(void **state) {
    cgn_test_env *env = *state;
    for (int order = 0; order < 2; order++) {
        cgn_owner *d = mine(0), *x1 = mine(1), *x2 = mine(2);
        cgn_graph *g;
        OK(cgn_graph_create(&g));
        cgn_memset_desc md = cgn_test_fill_desc(env, 0, 0x11, 0);
        md.dst_owner = d;
        cgn_node *n;
        OK(cgn_graph_add_memset(g, NULL, 0, &md, &n));
        cgn_node *k;
        cgn_graph *kg = fill_graph(env, 3, 9, NULL, &k); /* another hierarchy, left alone */
        cgn_exec *e[2];
        OK(cgn_graph_instantiate(g, &e[0]));
        OK(cgn_graph_instantiate(g, &e[1]));
        drop(d);
        OK(cgn_graph_destroy(g));
        OK(mset(e[0], n, env, 1, 0x21, x1));
        OK(mset(e[1], n, env, 2, 0x22, x2));
        drop(x1);
        drop(x2);
        assert_mset(e[0], n, env, 1, 0x21, x1);
        assert_mset(e[1], n, env, 2, 0x22, x2);
        EXPECT_ST(CGN_ERROR_DESTROYED, cgn_memset_node_get(n, &md));
        hold();
        OK(env->backend->launch_async(env, e[order]));
        OK(cgn_exec_destroy(e[order]));
        collect_all();
        assert_int_equal(unreleased(0, 3), 3); /* in flight */
        unhold();
        collect_all();
        assert_int_equal(released(1 + order), 1);
        assert_int_equal(released(2 - order), 0);
        assert_int_equal(released(0), 0); /* the other executable still runs d's version */
        cgn_exec *left = e[1 - order];
        assert_int_equal(cgn_test_run_read(env, left, 2 - order), 0x22 - order);
        OK(mset(left, n, env, 3, 0x33, NULL));
        collect_all();
        assert_int_equal(released(2 - order), 1);
        OK(cgn_exec_destroy(left));
        collect_all();
        assert_int_equal(released(0), 1);
        assert_int_equal(cgn_test_run_graph_read(env, kg, 3), 9);
        OK(cgn_graph_destroy(kg));
    }
}

/* Each executable has its own copy of every node (a shadow): exec-level gets return that
 * executable's parameters, argument edits merge into that copy, definition updates after the
 * instantiation reach only later instantiations. */
static void test_shadows_per_exec(void **state) {
    cgn_test_env *env = *state;
    cgn_node *n;
    cgn_graph *g = fill_graph(env, 0, 5, NULL, &n);
    cgn_exec *e1, *e2;
    OK(cgn_graph_instantiate(g, &e1));
    OK(cgn_graph_instantiate(g, &e2));
    uint32_t v = 61;
    CUdeviceptr p = env->buf[2];
    cgn_kernel_update u = CGN_KERNEL_UPDATE_INIT;
    cgn_kernel_update_set_arg(&u, 1, &v, sizeof v, NULL);
    OK(cgn_kernel_exec_update(e1, n, &u)); /* e1: buf 0, 61 */
    cgn_kernel_update_reset(&u);
    cgn_kernel_update_set_arg(&u, 0, &p, sizeof p, NULL);
    OK(cgn_kernel_exec_update(e2, n, &u));    /* e2: buf 2, 5 */
    OK(fill_edit(NULL, n, env, 1, 77, NULL)); /* definition: buf 1, 77 */
    cgn_kernel_update grid = CGN_KERNEL_UPDATE_INIT;
    cgn_kernel_update_set_grid(&grid, CGN_DIM3(3, 1, 1));
    OK(cgn_kernel_node_update(n, &grid));
    assert_fill(e1, n, env, 0, 61);
    assert_fill(e2, n, env, 2, 5);
    assert_fill(NULL, n, env, 1, 77);
    cgn_kernel_desc d;
    OK(cgn_kernel_exec_get(e1, n, &d));
    assert_int_equal(d.grid.x, 1);
    OK(cgn_kernel_node_get(n, &d));
    assert_int_equal(d.grid.x, 3);
    assert_int_equal(run_u32(env, e1, 0), 61);
    assert_int_equal(run_u32(env, e2, 2), 5);
    cgn_exec *e3;
    OK(cgn_graph_instantiate(g, &e3));
    assert_fill(e3, n, env, 1, 77);
    assert_int_equal(run_u32(env, e3, 1), 77);
    /* args from one executable's get stay valid across another executable's update */
    cgn_kernel_desc in1;
    OK(cgn_kernel_exec_get(e1, n, &in1));
    OK(fill_edit(e2, n, env, 3, 99, NULL));
    OK(fill_edit(e3, n, env, 3, 98, NULL));
    uint32_t still;
    memcpy(&still, in1.args[1].value, sizeof still);
    assert_int_equal(still, 61);
    OK(cgn_exec_destroy(e1));
    OK(cgn_exec_destroy(e2));
    DESTROY_EXEC_GRAPH(e3, g);
}

/* A definition update with a new owner after the instantiation: the executable keeps running the
 * version it was made from and holds its owner; the definition holds the new one; both go, once
 * each, when the executable (the last holder of the raw graph) goes. */
static void test_definition_owner_changes_stay_out_of_execs(void **state) {
    cgn_test_env *env = *state;
    cgn_owner *a = mine(0), *b = mine(1);
    cgn_graph *g;
    OK(cgn_graph_create(&g));
    cgn_memset_desc md = cgn_test_fill_desc(env, 0, 0x11, 0);
    md.dst_owner = a;
    cgn_node *n;
    OK(cgn_graph_add_memset(g, NULL, 0, &md, &n));
    cgn_exec *e;
    OK(cgn_graph_instantiate(g, &e));
    OK(mset(NULL, n, env, 1, 0x21, b));
    drop(a);
    drop(b);
    collect_all();
    assert_int_equal(unreleased(0, 2), 2);
    assert_mset(e, n, env, 0, 0x11, a);
    assert_mset(NULL, n, env, 1, 0x21, b);
    assert_int_equal(cgn_test_run_read(env, e, 0), 0x11);
    /* The graph's own references go with the raw graph, which cgn keeps until the last
     * executable is destroyed (docs/ownership.md, "The graph may go first"): b may stay. */
    OK(cgn_graph_destroy(g));
    collect_all();
    assert_int_equal(released(0), 0);
    assert_int_equal(cgn_test_run_read(env, e, 0), 0x11);
    OK(cgn_exec_destroy(e));
    collect_all();
    assert_int_equal(released(0), 1);
    assert_int_equal(released(1), 1);
}

/* A whole-graph refresh re-takes every node's copy from the definition, also of nodes the
 * definition never changed but the executable did; a partial executable update afterwards merges
 * into the refreshed copy; the executable-level owners go (no launch reads them). */
static void test_refresh_retakes_every_node(void **state) {
    cgn_test_env *env = *state;
    cgn_owner *x = mine(0), *y = mine(1);
    cgn_node *m, *k;
    cgn_graph *g = mixed_graph(env, 1, 5, &m, &k);
    cgn_exec *e;
    OK(cgn_graph_instantiate(g, &e));
    OK(mset(e, m, env, 2, 0x21, x));
    OK(fill_edit(e, k, env, 3, 7, y));
    drop(x);
    drop(y);
    uint8_t got[CGN_TEST_NUM_BUFS];
    run_all(env, e, got);
    assert_int_equal(got[2], 0x21);
    assert_int_equal(got[3], 7);
    cgn_memset_update v = CGN_MEMSET_UPDATE_INIT;
    cgn_memset_update_set_value(&v, 0x31, 1);
    OK(cgn_memset_node_update(m, &v));
    OK(cgn_exec_update_from_graph(e, g));
    collect_all();
    assert_int_equal(released(0), 1);
    assert_int_equal(released(1), 1);
    assert_mset(e, m, env, 0, 0x31, NULL);
    fill_args fa = fill_get(e, k);
    assert_int_equal(fa.p, env->buf[1]);
    assert_int_equal(fa.value, 5);
    assert_null(fa.owner);
    run_all(env, e, got);
    assert_int_equal(got[0], 0x31);
    assert_int_equal(got[1], 5);
    assert_int_equal(got[2], 0);
    assert_int_equal(got[3], 0);
    cgn_memset_update w = CGN_MEMSET_UPDATE_INIT;
    cgn_memset_update_set_value(&w, 0x41, 1);
    OK(cgn_memset_exec_update(e, m, &w)); /* dst stays the refreshed one: buf 0 */
    assert_mset(e, m, env, 0, 0x41, NULL);
    run_all(env, e, got);
    assert_int_equal(got[0], 0x41);
    assert_int_equal(got[2], 0);
    DESTROY_EXEC_GRAPH(e, g);
}

/* Enabled state belongs to one executable: other executables, the definition and new
 * instantiations are not affected; exec-level and definition updates keep it; after a refresh
 * what cgn reports is what the launch does. */
static void test_enabled_state_per_exec(void **state) {
    cgn_test_env *env = *state;
    cgn_graph *g;
    cgn_node *n;
    cgn_exec *e1, *e2;
    cgn_test_fill_graph(env, &g, &n, &e1);
    OK(cgn_graph_instantiate(g, &e2));
    OK(cgn_exec_node_set_enabled(e1, n, 0));
    assert_int_equal(enabled_in(e1, n), 0);
    assert_int_equal(enabled_in(e2, n), 1);
    assert_int_equal(cgn_test_run_read(env, e1, 0), 0);
    assert_int_equal(cgn_test_run_read(env, e2, 0), 0x11);
    OK(mset(e1, n, env, 0, 0x21, NULL));
    assert_int_equal(enabled_in(e1, n), 0);
    OK(mset(NULL, n, env, 0, 0x31, NULL));
    assert_int_equal(enabled_in(e1, n), 0);
    assert_int_equal(cgn_test_run_read(env, e1, 0), 0);
    cgn_exec *e3;
    OK(cgn_graph_instantiate(g, &e3));
    assert_int_equal(enabled_in(e3, n), 1);
    assert_int_equal(cgn_test_run_read(env, e3, 0), 0x31);
    OK(cgn_exec_update_from_graph(e1, g));
    int en = enabled_in(e1, n);
    assert_int_equal(cgn_test_run_read(env, e1, 0), en ? 0x31 : 0);
    OK(cgn_exec_node_set_enabled(e1, n, 1));
    assert_int_equal(cgn_test_run_read(env, e1, 0), 0x31);
    assert_int_equal(cgn_test_run_read(env, e2, 0), 0x11);
    OK(cgn_exec_destroy(e1));
    OK(cgn_exec_destroy(e2));
    DESTROY_EXEC_GRAPH(e3, g);
}

/* Enable/disable per type: kernel, memset and memcpy nodes can be disabled; others are
 * CGN_ERROR_NOT_SUPPORTED with the message errors.md shows, and nothing changes. */
static void test_enable_types_and_messages(void **state) {
    cgn_test_env *env = *state;
    cgn_node *m, *k, *c, *h, *r;
    cgn_graph *g = mixed_graph(env, 1, 5, &m, &k);
    cgn_memcpy_desc cd = CGN_MEMCPY_DESC_INIT;
    cd.dst = env->buf[3];
    cd.src = env->buf[0];
    cd.size = 4;
    OK(cgn_graph_add_memcpy(g, &m, 1, &cd, &c));
    cgn_host_callback_desc hd = CGN_HOST_CALLBACK_DESC_INIT;
    hd.fn = cgn_test_callback(env, "record_a");
    OK(cgn_graph_add_host_callback(g, NULL, 0, &hd, &h));
    cgn_event_record_desc rd = CGN_EVENT_RECORD_DESC_INIT;
    rd.event = env->event[0];
    OK(cgn_graph_add_event_record(g, NULL, 0, &rd, &r));
    cgn_exec *e;
    OK(cgn_graph_instantiate(g, &e));
    uint8_t got[CGN_TEST_NUM_BUFS];
    run_all(env, e, got);
    assert_int_equal(got[0], 0x11);
    assert_int_equal(got[1], 5);
    assert_int_equal(got[3], 0x11);
    OK(cgn_exec_node_set_enabled(e, k, 0));
    OK(cgn_exec_node_set_enabled(e, c, 0));
    run_all(env, e, got);
    assert_int_equal(got[0], 0x11);
    assert_int_equal(got[1], 0);
    assert_int_equal(got[3], 0);
    int en = -7;
    EXPECT_ST(CGN_ERROR_NOT_SUPPORTED, cgn_exec_node_set_enabled(e, h, 0));
    expect_msgf("cgn_exec_node_set_enabled: node %p is a host callback node; CUDA enables and "
                "disables kernel, memset and memcpy nodes only",
                (void *)h);
    EXPECT_ST(CGN_ERROR_NOT_SUPPORTED, cgn_exec_node_get_enabled(e, r, &en));
    expect_prefix("cgn_exec_node_get_enabled: ");
    expect_msg("event record node");
    expect_msg("CUDA enables and disables kernel, memset and memcpy nodes only");
    assert_int_equal(en, -7);
    assert_int_equal(enabled_in(e, k), 0);
    assert_int_equal(enabled_in(e, c), 0);
    assert_int_equal(enabled_in(e, m), 1);
    OK(cgn_exec_node_set_enabled(e, k, 1));
    OK(cgn_exec_node_set_enabled(e, c, 1));
    run_all(env, e, got);
    assert_int_equal(got[1], 5);
    assert_int_equal(got[3], 0x11);
    DESTROY_EXEC_GRAPH(e, g);
}

/* cgn_collect returns the number of owners it released; callbacks of owners whose last reference
 * went on another thread run on the thread that collects, never on the releasing one. */
static void *release_three(void *arg) {
    cgn_owner **o = arg;
    for (int i = 0; i < 3; i++)
        if (cgn_owner_release(o[i]) != CGN_OK)
            return NULL;
    return arg;
}

static void test_collect_count_and_thread(void **state) {
    (void)state;
    collect_all();
    cgn_owner *o[3] = {mine(0), mine(1), mine(2)};
    pthread_t t;
    void *ret = NULL;
    assert_int_equal(pthread_create(&t, NULL, release_three, o), 0);
    assert_int_equal(pthread_join(t, &ret), 0);
    assert_ptr_equal(ret, o);
    assert_int_equal(unreleased(0, 3), 3); /* cgn_owner_release never runs a callback */
    assert_int_equal(cgn_collect(), 3);
    assert_int_equal(unreleased(0, 3), 0);
    assert_int_equal(cgn_collect(), 0);
    assert_int_equal(released(0) + released(1) + released(2), 3);
}

/* A host callback that drops the last reference to an owner: the release callback never runs
 * inside the host callback; it runs once, later, on a user thread. */
static void CUDA_CB drop_in_callback(void *user_data) {
    atomic_store(&in_host_callback, 1);
    (void)cgn_owner_release(user_data);
    atomic_store(&in_host_callback, 0);
}

static void test_release_never_inside_host_callback(void **state) {
    (void)state;
    cgn_owner *o = mine(0);
    OK(cgn_owner_retain(o)); /* two references: each launch drops one */
    cgn_graph *g;
    OK(cgn_graph_create(&g));
    cgn_host_callback_desc hd = CGN_HOST_CALLBACK_DESC_INIT;
    hd.fn = drop_in_callback;
    hd.user_data = o;
    cgn_node *h;
    OK(cgn_graph_add_host_callback(g, NULL, 0, &hd, &h));
    cgn_exec *e;
    OK(cgn_graph_instantiate(g, &e));
    OK(cgn_exec_launch(e, NULL));
    assert_int_equal(released(0), 0);
    OK(cgn_exec_launch(e, NULL));
    DESTROY_EXEC_GRAPH(e, g);
    collect_all();
    assert_int_equal(released(0), 1);
}

/* Fences are recorded only while versions wait: none for an executable running what its graph
 * gave it; some once it holds an executable-level version with an owner; none again once a
 * refresh made it run the graph's versions and the retired ones were released. */
static size_t fences_of_launches(cgn_test_env *env, cgn_exec *e, int launches) {
    cgn_fault_reset_counts();
    for (int i = 0; i < launches; i++)
        OK(env->backend->launch(env, e));
    return (size_t)cgn_fault_calls(CGN_FAULT_cuEventRecord);
}

static void test_fences_only_while_versions_wait(void **state) {
    cgn_test_env *env = *state;
    cgn_graph *g;
    cgn_node *n;
    cgn_exec *e;
    cgn_test_fill_graph(env, &g, &n, &e);
    assert_int_equal(fences_of_launches(env, e, 3), 0);
    cgn_owner *x = mine(0);
    MSET_DROP(e, n, env, 1, 0x21, x);
    assert_true(fences_of_launches(env, e, 2) >= 1);
    OK(cgn_exec_update_from_graph(e, g));
    OK(env->backend->launch(env, e));
    collect_all();
    assert_int_equal(released(0), 1);
    assert_int_equal(fences_of_launches(env, e, 3), 0);
    DESTROY_EXEC_GRAPH(e, g);
}

/* From cgn_exec_raw on, nothing the executable held is released before it is destroyed, even
 * after its launches completed; cgn_exec_destroy then waits for the context and releases all,
 * each exactly once. It waits only when the executable holds owners of executable-level
 * updates (cgn.h). */
static void test_raw_handle_stops_early_release(void **state) {
    cgn_test_env *env = *state;
    cgn_graph *g;
    cgn_node *n;
    cgn_exec *e;
    cgn_test_fill_graph(env, &g, &n, &e);
    cgn_owner *first = mine(0);
    MSET_DROP(e, n, env, 1, 0x20, first);
    CUgraphExec raw = NULL;
    OK(cgn_exec_raw(e, &raw));
    assert_non_null(raw);
    for (int i = 1; i < 6; i++) {
        cgn_owner *o = mine(i);
        MSET_DROP(e, n, env, i % 4, 0x20u + (uint32_t)i, o);
        assert_int_equal(cgn_test_run_read(env, e, i % 4), 0x20 + i);
        collect_all();
    }
    assert_int_equal(unreleased(0, 6), 6);
    cgn_fault_reset_counts();
    OK(cgn_exec_destroy(e));
    assert_true(cgn_fault_calls(CGN_FAULT_cuCtxSynchronize) >= 1);
    collect_all();
    assert_int_equal(unreleased(0, 6), 0);
    /* a raw handle taken, but no owner of an executable-level update: no wait */
    cgn_exec *plain;
    OK(cgn_graph_instantiate(g, &plain));
    OK(cgn_exec_raw(plain, &raw));
    hold();
    OK(env->backend->launch_async(env, plain));
    cgn_fault_reset_counts();
    OK(cgn_exec_destroy(plain));
    assert_int_equal(cgn_fault_calls(CGN_FAULT_cuCtxSynchronize), 0);
    assert_int_equal(cgn_fake_in_flight(NULL), 1);
    unhold();
    OK(cgn_graph_destroy(g));
}

/* ==== refusals leave everything as it was (docs/errors.md causes, executable level) ========= */

/* One graph (memset m, kernel k, host callback h) with two executables, one of them holding an
 * executable-level owner; another graph; a node added after the instantiation, one destroyed
 * after it, and a destroyed executable. Owners: 0 held by the definition (m), 1 by e1 at
 * executable level (k), 2 offered to refused updates (never to be retained). */
typedef struct world {
    cgn_test_env *env;
    cgn_graph *g, *other;
    cgn_node *m, *k, *h, *late, *gone, *foreign;
    cgn_exec *e1, *e2, *dead, *oe;
    cgn_owner *spare;
} world;

static void world_build(cgn_test_env *env, world *w) {
    memset(w, 0, sizeof *w);
    w->env = env;
    cgn_owner *d = mine(0), *x = mine(1);
    w->spare = mine(2);
    w->g = fill_graph(env, 1, 5, NULL, &w->k);
    cgn_memset_desc md = cgn_test_fill_desc(env, 0, 0x11, 0);
    md.dst_owner = d;
    OK(cgn_graph_add_memset(w->g, NULL, 0, &md, &w->m));
    cgn_host_callback_desc hd = CGN_HOST_CALLBACK_DESC_INIT;
    hd.fn = cgn_test_callback(env, "record_a");
    OK(cgn_graph_add_host_callback(w->g, NULL, 0, &hd, &w->h));
    md = cgn_test_fill_desc(env, 3, 0x13, 0);
    OK(cgn_graph_add_memset(w->g, NULL, 0, &md, &w->gone));
    OK(cgn_graph_instantiate(w->g, &w->e1));
    OK(cgn_graph_instantiate(w->g, &w->e2));
    OK(cgn_graph_instantiate(w->g, &w->dead));
    OK(cgn_exec_destroy(w->dead));
    OK(fill_edit(w->e1, w->k, env, 2, 42, x));
    OK(cgn_exec_node_set_enabled(w->e2, w->m, 0));
    OK(cgn_node_destroy(w->gone));
    OK(cgn_graph_add_empty(w->g, NULL, 0, &w->late));
    cgn_test_fill_graph(env, &w->other, &w->foreign, &w->oe);
    drop(d);
    drop(x);
}

static void world_destroy(world *w) {
    OK(cgn_exec_destroy(w->e1));
    OK(cgn_exec_destroy(w->e2));
    OK(cgn_exec_destroy(w->oe));
    OK(cgn_graph_destroy(w->g));
    OK(cgn_graph_destroy(w->other));
    drop(w->spare);
    collect_all();
    assert_int_equal(unreleased(0, 3), 0);
}

/* What a failed call must not change. */
typedef struct world_state {
    cgn_memset_desc m[3]; /* definition, e1, e2 */
    fill_args k[3];
    int enabled[2];
    int released[3];
    int context;
    size_t live, nodes;
} world_state;

static world_state world_state_of(const world *w) {
    world_state s;
    memset(&s, 0, sizeof s);
    const cgn_exec *at[3] = {NULL, w->e1, w->e2};
    for (int i = 0; i < 3; i++) {
        s.m[i] = mget(at[i], w->m);
        s.k[i] = fill_get(at[i], w->k);
    }
    s.enabled[0] = enabled_in(w->e1, w->m);
    s.enabled[1] = enabled_in(w->e2, w->m);
    for (int i = 0; i < 3; i++)
        s.released[i] = released(i);
    s.context = w->env->backend->current_context(w->env);
    s.live = cgn_fake_live_objects();
    s.nodes = cgn_test_count_nodes(w->g);
    return s;
}

static void assert_same_memset(const cgn_memset_desc *a, const cgn_memset_desc *b) {
    assert_int_equal(a->dst, b->dst);
    assert_ptr_equal(a->dst_owner, b->dst_owner);
    assert_int_equal(a->value, b->value);
    assert_int_equal(a->element_size, b->element_size);
    assert_int_equal(a->width, b->width);
    assert_int_equal(a->height, b->height);
    assert_int_equal(a->pitch, b->pitch);
}

static void assert_world_state(const world_state *a, const world_state *b) {
    for (int i = 0; i < 3; i++) {
        assert_same_memset(&a->m[i], &b->m[i]);
        assert_int_equal(a->k[i].p, b->k[i].p);
        assert_int_equal(a->k[i].value, b->k[i].value);
        assert_ptr_equal(a->k[i].owner, b->k[i].owner);
        assert_int_equal(a->released[i], b->released[i]);
    }
    assert_int_equal(a->enabled[0], b->enabled[0]);
    assert_int_equal(a->enabled[1], b->enabled[1]);
    assert_int_equal(a->context, b->context);
    assert_int_equal(a->live, b->live);
    assert_int_equal(a->nodes, b->nodes);
}

/* A refused call: writes into `want` (size WANT) the text the message must contain. */
#define WANT 512
typedef cgn_status (*refusal_fn)(world *w, char *want);

typedef struct refusal {
    const char *name;
    cgn_status status;
    refusal_fn call;
} refusal;

static cgn_status r_unknown_bits_memset(world *w, char *want) {
    cgn_memset_update u = CGN_MEMSET_UPDATE_INIT;
    cgn_memset_update_set_value(&u, 0x22, 1);
    u.set |= UINT64_C(1) << 40;
    snprintf(want, WANT, "cgn_memset_exec_update: unknown bits 0x10000000000 in set");
    return cgn_memset_exec_update(w->e1, w->m, &u);
}

static cgn_status r_unknown_bits_kernel(world *w, char *want) {
    cgn_kernel_update u = CGN_KERNEL_UPDATE_INIT;
    cgn_kernel_update_set_grid(&u, CGN_DIM3(2, 1, 1));
    u.set |= UINT64_C(1) << 63;
    snprintf(want, WANT, "cgn_kernel_exec_update: unknown bits 0x8000000000000000 in set");
    return cgn_kernel_exec_update(w->e1, w->k, &u);
}

static cgn_status r_null_update(world *w, char *want) {
    snprintf(want, WANT, "cgn_memset_exec_update: ");
    return cgn_memset_exec_update(w->e1, w->m, NULL);
}

static cgn_status r_null_desc_out(world *w, char *want) {
    snprintf(want, WANT, "cgn_kernel_exec_get: ");
    return cgn_kernel_exec_get(w->e1, w->k, NULL);
}

static cgn_status r_null_exec(world *w, char *want) {
    cgn_memset_update u = CGN_MEMSET_UPDATE_INIT;
    cgn_memset_update_set_value(&u, 0x22, 1);
    snprintf(want, WANT, "cgn_memset_exec_update: exec is NULL");
    return cgn_memset_exec_update(NULL, w->m, &u);
}

static cgn_status r_garbage_exec(world *w, char *want) {
    cgn_memset_update u = CGN_MEMSET_UPDATE_INIT;
    cgn_memset_update_set_value(&u, 0x22, 1);
    cgn_exec *bogus = (cgn_exec *)(uintptr_t)0x9abc;
    snprintf(want, WANT, "cgn_memset_exec_update: exec %p is not a cgn handle", (void *)bogus);
    return cgn_memset_exec_update(bogus, w->m, &u);
}

static cgn_status r_node_as_exec(world *w, char *want) {
    int en;
    snprintf(want, WANT, "cgn_exec_node_get_enabled: exec %p is a cgn node handle, not a",
             (void *)w->m);
    return cgn_exec_node_get_enabled((cgn_exec *)(void *)w->m, w->m, &en);
}

static cgn_status r_exec_as_node(world *w, char *want) {
    cgn_memset_desc d;
    snprintf(want, WANT, "cgn_memset_exec_get: node %p is a cgn executable handle, not a node",
             (void *)w->e2);
    return cgn_memset_exec_get(w->e1, (cgn_node *)(void *)w->e2, &d);
}

static cgn_status r_graph_as_exec(world *w, char *want) {
    snprintf(want, WANT, "cgn_exec_update_from_graph: exec %p is a cgn graph handle", (void *)w->g);
    return cgn_exec_update_from_graph((cgn_exec *)(void *)w->g, w->g);
}

static void not_part(char *want, const char *fn, const cgn_node *n, const cgn_exec *e) {
    snprintf(want, WANT,
             "%s: node %p is not part of executable %p (added after the instantiation, or a node "
             "of another graph)",
             fn, (const void *)n, (const void *)e);
}

static cgn_status r_foreign_node(world *w, char *want) {
    cgn_memset_update u = CGN_MEMSET_UPDATE_INIT;
    cgn_memset_update_set_dst(&u, w->env->buf[2], w->spare);
    not_part(want, "cgn_memset_exec_update", w->foreign, w->e1);
    return cgn_memset_exec_update(w->e1, w->foreign, &u);
}

static cgn_status r_late_node(world *w, char *want) {
    not_part(want, "cgn_exec_node_set_enabled", w->late, w->e2);
    return cgn_exec_node_set_enabled(w->e2, w->late, 0);
}

static cgn_status r_node_of_e_in_oe(world *w, char *want) {
    cgn_memset_desc d;
    not_part(want, "cgn_memset_exec_get", w->m, w->oe);
    return cgn_memset_exec_get(w->oe, w->m, &d);
}

static cgn_status r_gone_node(world *w, char *want) {
    cgn_memset_update u = CGN_MEMSET_UPDATE_INIT;
    cgn_memset_update_set_dst(&u, w->env->buf[2], w->spare);
    snprintf(want, WANT,
             "cgn_memset_exec_update: node %p was destroyed in its graph (or its embedding "
             "replaced); the executable still runs its copy, but CUDA can no longer address it",
             (void *)w->gone);
    return cgn_memset_exec_update(w->e1, w->gone, &u);
}

static cgn_status r_dead_exec(world *w, char *want) {
    snprintf(want, WANT, "cgn_exec_launch: exec %p has been destroyed", (void *)w->dead);
    return cgn_exec_launch(w->dead, NULL);
}

static cgn_status r_dead_exec_destroy(world *w, char *want) {
    snprintf(want, WANT, "cgn_exec_destroy: exec %p has been destroyed", (void *)w->dead);
    return cgn_exec_destroy(w->dead);
}

static cgn_status r_wrong_type_update(world *w, char *want) {
    cgn_kernel_update u = CGN_KERNEL_UPDATE_INIT;
    cgn_kernel_update_set_grid(&u, CGN_DIM3(2, 1, 1));
    snprintf(want, WANT, "cgn_kernel_exec_update: node %p is a memset node", (void *)w->m);
    return cgn_kernel_exec_update(w->e1, w->m, &u);
}

static cgn_status r_wrong_type_get(world *w, char *want) {
    cgn_memset_desc d;
    snprintf(want, WANT, "cgn_memset_exec_get: node %p is a kernel node", (void *)w->k);
    return cgn_memset_exec_get(w->e1, w->k, &d);
}

static cgn_status r_missing_args(world *w, char *want) {
    cgn_kernel_update u = CGN_KERNEL_UPDATE_INIT;
    u.kernel = cgn_test_kernel(w->env, "fill_u32");
    u.set = CGN_KERNEL_SET_KERNEL;
    snprintf(want, WANT, "cgn_kernel_exec_update: kernel requires args");
    return cgn_kernel_exec_update(w->e1, w->k, &u);
}

static cgn_status r_missing_kernel(world *w, char *want) {
    cgn_kernel_update u = CGN_KERNEL_UPDATE_INIT;
    u.kernel_owner = w->spare;
    u.set = CGN_KERNEL_SET_KERNEL_OWNER;
    snprintf(want, WANT, "cgn_kernel_exec_update: kernel_owner requires kernel");
    return cgn_kernel_exec_update(w->e1, w->k, &u);
}

static cgn_status r_missing_element_size(world *w, char *want) {
    cgn_memset_update u = CGN_MEMSET_UPDATE_INIT;
    u.value = 1;
    u.set = CGN_MEMSET_SET_VALUE;
    snprintf(want, WANT, "cgn_memset_exec_update: value requires element_size");
    return cgn_memset_exec_update(w->e2, w->m, &u);
}

static cgn_status r_missing_dst(world *w, char *want) {
    cgn_memset_update u = CGN_MEMSET_UPDATE_INIT;
    u.dst_owner = w->spare;
    u.set = CGN_MEMSET_SET_DST_OWNER;
    snprintf(want, WANT, "cgn_memset_exec_update: dst_owner requires dst");
    return cgn_memset_exec_update(w->e1, w->m, &u);
}

static cgn_status r_missing_fn(world *w, char *want) {
    cgn_host_callback_update u = CGN_HOST_CALLBACK_UPDATE_INIT;
    u.user_data = w;
    u.set = CGN_HOST_CALLBACK_SET_USER_DATA;
    snprintf(want, WANT, "cgn_host_callback_exec_update: user_data requires fn");
    return cgn_host_callback_exec_update(w->e1, w->h, &u);
}

static cgn_status r_value_range(world *w, char *want) {
    cgn_memset_update u = CGN_MEMSET_UPDATE_INIT;
    cgn_memset_update_set_dst(&u, w->env->buf[2], w->spare);
    cgn_memset_update_set_value(&u, 0x1234, 1);
    snprintf(want, WANT, "cgn_memset_exec_update: value 0x1234 does not fit 1 byte(s)");
    return cgn_memset_exec_update(w->e1, w->m, &u);
}

static cgn_status r_width_overflow(world *w, char *want) {
    cgn_memset_update u = CGN_MEMSET_UPDATE_INIT;
    cgn_memset_update_set_value(&u, 7, 4);
    cgn_memset_update_set_width(&u, SIZE_MAX / 2);
    snprintf(want, WANT, "width");
    return cgn_memset_exec_update(w->e1, w->m, &u);
}

static cgn_status r_width_zero(world *w, char *want) {
    cgn_memset_update u = CGN_MEMSET_UPDATE_INIT;
    cgn_memset_update_set_width(&u, 0);
    snprintf(want, WANT, "cgn_memset_exec_update: width must be at least 1");
    return cgn_memset_exec_update(w->e2, w->m, &u);
}

static cgn_status r_exec_rule_height(world *w, char *want) {
    cgn_memset_update u = CGN_MEMSET_UPDATE_INIT;
    cgn_memset_update_set_dst(&u, w->env->buf[2], w->spare);
    cgn_memset_update_set_height(&u, 2);
    cgn_memset_update_set_pitch(&u, 16);
    snprintf(want, WANT,
             "cgn_memset_exec_update: field height: height 2; rule: a 1-D memset (height 1) "
             "stays 1-D in an executable");
    return cgn_memset_exec_update(w->e1, w->m, &u);
}

static cgn_status r_grid_zero(world *w, char *want) {
    cgn_kernel_update u = CGN_KERNEL_UPDATE_INIT;
    cgn_kernel_update_set_grid(&u, CGN_DIM3(1, 0, 1));
    snprintf(want, WANT, "grid");
    return cgn_kernel_exec_update(w->e1, w->k, &u);
}

static cgn_status r_arg_count(world *w, char *want) {
    CUdeviceptr p = w->env->buf[2];
    cgn_arg one[1] = {{&p, sizeof p, w->spare}};
    cgn_kernel_update u = CGN_KERNEL_UPDATE_INIT;
    cgn_kernel_update_set_args(&u, one, 1);
    snprintf(want, WANT,
             "cgn_kernel_exec_update: kernel fill_u32 takes 2 arguments (12 bytes); 1 "
             "given");
    return cgn_kernel_exec_update(w->e2, w->k, &u);
}

static cgn_status r_args_null(world *w, char *want) {
    cgn_kernel_update u = CGN_KERNEL_UPDATE_INIT;
    cgn_kernel_update_set_args(&u, NULL, 2);
    snprintf(want, WANT, "cgn_kernel_exec_update: ");
    return cgn_kernel_exec_update(w->e1, w->k, &u);
}

static cgn_status r_arg_value_null(world *w, char *want) {
    uint32_t v = 3;
    cgn_arg args[2] = {{NULL, sizeof(CUdeviceptr), w->spare}, CGN_ARG(v)};
    cgn_kernel_update u = CGN_KERNEL_UPDATE_INIT;
    cgn_kernel_update_set_args(&u, args, 2);
    snprintf(want, WANT, "cgn_kernel_exec_update: ");
    return cgn_kernel_exec_update(w->e1, w->k, &u);
}

/* Over 1 MiB: on a driver that reports the kernel's parameters (12.4+) the kernel's own size
 * refuses it first (errors.md lists the 1 MiB bound under CGN_ERROR_OUT_OF_RANGE; see
 * test_arg_bound_without_param_info). */
static cgn_status r_arg_too_large(world *w, char *want) {
    static unsigned char big[(1u << 20) + 8];
    uint32_t v = 3;
    cgn_arg args[2] = {{big, sizeof big, w->spare}, CGN_ARG(v)};
    cgn_kernel_update u = CGN_KERNEL_UPDATE_INIT;
    cgn_kernel_update_set_args(&u, args, 2);
    snprintf(want, WANT, "cgn_kernel_exec_update: kernel fill_u32 argument 0 is 8 bytes; %zu given",
             sizeof big);
    return cgn_kernel_exec_update(w->e1, w->k, &u);
}

static cgn_status r_edit_index(world *w, char *want) {
    uint32_t v = 3;
    cgn_kernel_update u = CGN_KERNEL_UPDATE_INIT;
    cgn_kernel_update_set_arg(&u, 1, &v, sizeof v, NULL);
    cgn_kernel_update_set_arg(&u, 2, &v, sizeof v, w->spare);
    snprintf(want, WANT, "cgn_kernel_exec_update: ");
    return cgn_kernel_exec_update(w->e1, w->k, &u);
}

static cgn_status r_edit_size(world *w, char *want) {
    uint64_t v = 3;
    cgn_kernel_update u = CGN_KERNEL_UPDATE_INIT;
    cgn_kernel_update_set_arg(&u, 1, &v, sizeof v, w->spare);
    snprintf(want, WANT, "cgn_kernel_exec_update: ");
    return cgn_kernel_exec_update(w->e2, w->k, &u);
}

static cgn_status r_edit_huge_size(world *w, char *want) {
    uint32_t v = 3;
    cgn_kernel_update u = CGN_KERNEL_UPDATE_INIT;
    cgn_kernel_update_set_arg(&u, 1, &v, (size_t)UINT32_MAX + 5, w->spare);
    snprintf(want, WANT, "cgn_kernel_exec_update: ");
    return cgn_kernel_exec_update(w->e1, w->k, &u);
}

static cgn_status r_host_both(world *w, char *want) {
    unsigned char payload[4] = {1, 2, 3, 4};
    cgn_host_callback_update u = CGN_HOST_CALLBACK_UPDATE_INIT;
    cgn_host_callback_update_set_fn(&u, cgn_test_callback(w->env, "record_b"), w, w->spare, payload,
                                    sizeof payload);
    snprintf(want, WANT, "cgn_host_callback_exec_update: ");
    return cgn_host_callback_exec_update(w->e1, w->h, &u);
}

static cgn_status r_host_payload_null(world *w, char *want) {
    cgn_host_callback_update u = CGN_HOST_CALLBACK_UPDATE_INIT;
    cgn_host_callback_update_set_fn(&u, cgn_test_callback(w->env, "record_b"), NULL, NULL, NULL,
                                    16);
    snprintf(want, WANT, "cgn_host_callback_exec_update: ");
    return cgn_host_callback_exec_update(w->e2, w->h, &u);
}

static cgn_status r_host_fn_null(world *w, char *want) {
    cgn_host_callback_update u = CGN_HOST_CALLBACK_UPDATE_INIT;
    cgn_host_callback_update_set_fn(&u, NULL, w, w->spare, NULL, 0);
    snprintf(want, WANT, "cgn_host_callback_exec_update: ");
    return cgn_host_callback_exec_update(w->e1, w->h, &u);
}

static cgn_status r_enable_host(world *w, char *want) {
    snprintf(want, WANT, "cgn_exec_node_set_enabled: node %p is a host callback node",
             (void *)w->h);
    return cgn_exec_node_set_enabled(w->e1, w->h, 0);
}

static cgn_status r_refresh_other_graph(world *w, char *want) {
    snprintf(want, WANT, "cgn_exec_update_from_graph: ");
    return cgn_exec_update_from_graph(w->e1, w->other);
}

static cgn_status r_refresh_topology(world *w, char *want) {
    snprintf(want, WANT, "rule: an executable keeps its topology");
    return cgn_exec_update_from_graph(w->e2, w->g);
}

static cgn_status r_old_driver(world *w, char *want) {
    cgn_memset_update u = CGN_MEMSET_UPDATE_INIT;
    cgn_memset_update_set_dst(&u, w->env->buf[2], w->spare);
    snprintf(want, WANT,
             "executable node updates need CUDA driver 12.2 or newer; this driver is "
             "12.1");
    cgn_fault_set_version(12010);
    cgn_status st = cgn_memset_exec_update(w->e1, w->m, &u);
    cgn_fault_set_version(13000);
    return st;
}

static const refusal refusals[] = {
    {"unknown bits (memset)", CGN_ERROR_INVALID_ARGUMENT, r_unknown_bits_memset},
    {"unknown bits (kernel)", CGN_ERROR_INVALID_ARGUMENT, r_unknown_bits_kernel},
    {"NULL update", CGN_ERROR_INVALID_ARGUMENT, r_null_update},
    {"NULL desc_out", CGN_ERROR_INVALID_ARGUMENT, r_null_desc_out},
    {"NULL exec", CGN_ERROR_INVALID_ARGUMENT, r_null_exec},
    {"garbage exec", CGN_ERROR_INVALID_ARGUMENT, r_garbage_exec},
    {"node as exec", CGN_ERROR_INVALID_ARGUMENT, r_node_as_exec},
    {"exec as node", CGN_ERROR_INVALID_ARGUMENT, r_exec_as_node},
    {"graph as exec", CGN_ERROR_INVALID_ARGUMENT, r_graph_as_exec},
    {"node of another graph", CGN_ERROR_INVALID_ARGUMENT, r_foreign_node},
    {"node added later", CGN_ERROR_INVALID_ARGUMENT, r_late_node},
    {"node of e in another graph's exec", CGN_ERROR_INVALID_ARGUMENT, r_node_of_e_in_oe},
    {"node destroyed after instantiation", CGN_ERROR_DESTROYED, r_gone_node},
    {"destroyed exec", CGN_ERROR_DESTROYED, r_dead_exec},
    {"destroyed exec destroyed again", CGN_ERROR_DESTROYED, r_dead_exec_destroy},
    {"wrong type (update)", CGN_ERROR_WRONG_NODE_TYPE, r_wrong_type_update},
    {"wrong type (get)", CGN_ERROR_WRONG_NODE_TYPE, r_wrong_type_get},
    {"kernel without args", CGN_ERROR_MISSING_FIELD, r_missing_args},
    {"kernel_owner without kernel", CGN_ERROR_MISSING_FIELD, r_missing_kernel},
    {"value without element_size", CGN_ERROR_MISSING_FIELD, r_missing_element_size},
    {"dst_owner without dst", CGN_ERROR_MISSING_FIELD, r_missing_dst},
    {"user_data without fn", CGN_ERROR_MISSING_FIELD, r_missing_fn},
    {"value does not fit", CGN_ERROR_OUT_OF_RANGE, r_value_range},
    {"width * element_size overflows", CGN_ERROR_OUT_OF_RANGE, r_width_overflow},
    {"width 0", CGN_ERROR_INVALID_VALUE, r_width_zero},
    {"1-D memset made 2-D", CGN_ERROR_INVALID_VALUE, r_exec_rule_height},
    {"grid component 0", CGN_ERROR_INVALID_VALUE, r_grid_zero},
    {"argument count", CGN_ERROR_INVALID_VALUE, r_arg_count},
    {"args NULL with num_args", CGN_ERROR_INVALID_ARGUMENT, r_args_null},
    {"argument without value", CGN_ERROR_INVALID_ARGUMENT, r_arg_value_null},
    {"argument over 1 MiB", CGN_ERROR_INVALID_VALUE, r_arg_too_large},
    {"edit index out of range", CGN_ERROR_INVALID_VALUE, r_edit_index},
    {"edit size mismatch", CGN_ERROR_INVALID_VALUE, r_edit_size},
    {"edit size over 32 bits", CGN_ERROR_INVALID_VALUE, r_edit_huge_size},
    {"user_data and payload", CGN_ERROR_INVALID_VALUE, r_host_both},
    {"payload NULL with size", CGN_ERROR_INVALID_ARGUMENT, r_host_payload_null},
    {"fn NULL", CGN_ERROR_INVALID_VALUE, r_host_fn_null},
    {"enable a host node", CGN_ERROR_NOT_SUPPORTED, r_enable_host},
    {"refresh from another graph", CGN_ERROR_INVALID_ARGUMENT, r_refresh_other_graph},
    {"refresh after topology changes", CGN_ERROR_INVALID_VALUE, r_refresh_topology},
    {"driver 12.1", CGN_ERROR_DRIVER_TOO_OLD, r_old_driver},
};

/* Every refusal: the status errors.md gives, a message naming what it says, no driver setter
 * called (all are checked before the driver is asked), and the definition, both executables,
 * enabled states, owners (the offered one never retained), driver objects and the calling
 * thread's context (a foreign one) exactly as before; both executables still run what they ran. */
static void test_refusals_change_nothing(void **state) {
    cgn_test_env *env = *state;
    world w;
    world_build(env, &w);
    uint8_t ran1[CGN_TEST_NUM_BUFS], ran2[CGN_TEST_NUM_BUFS];
    run_all(env, w.e1, ran1);
    run_all(env, w.e2, ran2);
    collect_all();
    for (size_t i = 0; i < sizeof refusals / sizeof refusals[0]; i++) {
        env->backend->set_context(env, CGN_TEST_CTX_FOREIGN);
        world_state before = world_state_of(&w);
        char want[WANT] = "";
        cgn_fault_reset_counts();
        cgn_status st = refusals[i].call(&w, want);
        long setters = cgn_fault_setter_calls();
        if (st != refusals[i].status)
            fail_msg("%s: got %s (%s), want %s", refusals[i].name, cgn_status_name(st),
                     cgn_last_error(), cgn_status_name(refusals[i].status));
        assert_int_equal(cgn_last_status(), refusals[i].status);
        if (strstr(cgn_last_error(), want) == NULL)
            fail_msg("%s: message \"%s\" does not contain \"%s\"", refusals[i].name,
                     cgn_last_error(), want);
        if (setters != 0)
            fail_msg("%s: %ld driver setter calls", refusals[i].name, setters);
        collect_all();
        world_state after = world_state_of(&w);
        assert_world_state(&before, &after);
        env->backend->set_context(env, CGN_TEST_CTX_OWN);
    }
    uint8_t again[CGN_TEST_NUM_BUFS];
    run_all(env, w.e1, again);
    assert_memory_equal(again, ran1, sizeof again);
    run_all(env, w.e2, again);
    assert_memory_equal(again, ran2, sizeof again);
    world_destroy(&w);
}

/* ==== docs/errors.md, status by status, beyond the refusal table ============================ */

/* CGN_ERROR_INVALID_VALUE, "refresh_topology": the exact message of errors.md after a node was
 * added; after a node was destroyed, the same rule; no cuGraphExecUpdate either time, and the
 * executable runs as before. */
static void test_refresh_topology_messages(void **state) {
    cgn_test_env *env = *state;
    cgn_graph *g;
    cgn_node *n, *extra, *second;
    cgn_exec *e;
    cgn_test_fill_graph(env, &g, &n, &e);
    OK(cgn_graph_add_empty(g, NULL, 0, &extra));
    cgn_fault_reset_counts();
    EXPECT_ST(CGN_ERROR_INVALID_VALUE, cgn_exec_update_from_graph(e, g));
    expect_msgf("cgn_exec_update_from_graph: graph %p has more nodes than the executable's copy "
                "(node %p); rule: an executable keeps its topology (nodes added or destroyed "
                "after the instantiation need a new executable)",
                (void *)g, (void *)extra);
    assert_int_equal(cgn_fault_calls(CGN_FAULT_cuGraphExecUpdate), 0);
    OK(cgn_node_destroy(extra));
    cgn_memset_desc sd = cgn_test_fill_desc(env, 1, 0x33, 0);
    OK(cgn_graph_add_memset(g, NULL, 0, &sd, &second));
    cgn_exec *e2;
    OK(cgn_graph_instantiate(g, &e2));
    OK(cgn_node_destroy(second));
    cgn_fault_reset_counts();
    EXPECT_ST(CGN_ERROR_INVALID_VALUE, cgn_exec_update_from_graph(e2, g));
    expect_prefix("cgn_exec_update_from_graph: ");
    expect_msg("rule: an executable keeps its topology");
    assert_int_equal(cgn_fault_calls(CGN_FAULT_cuGraphExecUpdate), 0);
    uint8_t got[CGN_TEST_NUM_BUFS];
    run_all(env, e2, got);
    assert_int_equal(got[0], 0x11);
    assert_int_equal(got[1], 0x33); /* still runs its copy of the destroyed node */
    OK(cgn_exec_destroy(e2));
    DESTROY_EXEC_GRAPH(e, g);
}

/* A refresh whose new parameters break a node's executable-update rule is refused before the
 * driver is asked, "the message names the node and the field"; the executable is unchanged. */
static void test_refresh_rule_refused_before_driver(void **state) {
    cgn_test_env *env = *state;
    cgn_owner *x = mine(0);
    cgn_graph *g;
    cgn_node *n;
    cgn_exec *e;
    cgn_test_fill_graph(env, &g, &n, &e);
    MSET_DROP(e, n, env, 2, 0x22, x);
    cgn_memset_update taller = CGN_MEMSET_UPDATE_INIT;
    cgn_memset_update_set_height(&taller, 2);
    cgn_memset_update_set_pitch(&taller, 16);
    OK(cgn_memset_node_update(n, &taller)); /* fine in the definition */
    cgn_fault_reset_counts();
    EXPECT_ST(CGN_ERROR_INVALID_VALUE, cgn_exec_update_from_graph(e, g));
    assert_int_equal(cgn_fault_calls(CGN_FAULT_cuGraphExecUpdate), 0);
    assert_int_equal(cgn_fault_setter_calls(), 0);
    expect_msgf("%p", (void *)n);
    expect_msg("height");
    assert_mset(e, n, env, 2, 0x22, x);
    assert_int_equal(mget(e, n).height, 1);
    collect_all();
    assert_int_equal(released(0), 0);
    assert_int_equal(cgn_test_run_read(env, e, 2), 0x22);
    DESTROY_EXEC_GRAPH(e, g);
    collect_all();
    assert_int_equal(released(0), 1);
}

/* 2-D memsets in an executable change only dst and value: each other field is refused before the
 * driver with the rule errors.md and the header give; dst and value go through. */
static void test_memset_2d_exec_rules(void **state) {
    cgn_test_env *env = *state;
    cgn_graph *g;
    OK(cgn_graph_create(&g));
    cgn_memset_desc d = cgn_test_fill_desc(env, 0, 0x11, 0);
    d.width = 4;
    d.height = 2;
    d.pitch = 16;
    cgn_node *n;
    OK(cgn_graph_add_memset(g, NULL, 0, &d, &n));
    cgn_exec *e;
    OK(cgn_graph_instantiate(g, &e));
    static const char *const fields[] = {"width", "height", "pitch", "element_size"};
    for (int f = 0; f < 4; f++) {
        cgn_memset_update u = CGN_MEMSET_UPDATE_INIT;
        if (f == 0)
            cgn_memset_update_set_width(&u, 2);
        else if (f == 1)
            cgn_memset_update_set_height(&u, 3);
        else if (f == 2)
            cgn_memset_update_set_pitch(&u, 32);
        else
            cgn_memset_update_set_value(&u, 0x11, 2);
        cgn_fault_reset_counts();
        EXPECT_ST(CGN_ERROR_INVALID_VALUE, cgn_memset_exec_update(e, n, &u));
        assert_int_equal(cgn_fault_setter_calls(), 0);
        expect_prefix("cgn_memset_exec_update: field ");
        expect_msgf("field %s", fields[f]);
        expect_msg("rule: a 2-D memset in an executable may change only dst and value");
        cgn_memset_desc now = mget(e, n);
        assert_same_memset(&now, &d);
    }
    OK(mset(e, n, env, 1, 0x5a, NULL));
    unsigned char got[CGN_TEST_BUF_SIZE];
    zero_buf(env, 1);
    OK(env->backend->launch(env, e));
    env->backend->read(env, env->buf[1], got, sizeof got);
    assert_int_equal(got[0], 0x5a);
    assert_int_equal(got[3], 0x5a);
    assert_int_equal(got[4], 0); /* width 4 */
    assert_int_equal(got[16], 0x5a);
    assert_int_equal(got[20], 0);
    DESTROY_EXEC_GRAPH(e, g);
}

/* The memcpy rule: an executable's copy keeps its operands' memory types, refused before any
 * driver setter with the header's rule; the same change is fine in the definition, and then a
 * refresh is refused before the driver too. */
static void test_memcpy_exec_memory_type_rule(void **state) {
    cgn_test_env *env = *state;
    cgn_node *c;
    cgn_graph *g = memcpy_graph(env, env->buf[0], &c);
    cgn_exec *e;
    OK(cgn_graph_instantiate(g, &e));
    cgn_memcpy_update u = CGN_MEMCPY_UPDATE_INIT;
    cgn_memcpy_update_set_dst(&u, cgn_test_host(env, 0), NULL);
    cgn_fault_reset_counts();
    EXPECT_ST(CGN_ERROR_INVALID_VALUE, cgn_memcpy_exec_update(e, c, &u));
    assert_int_equal(cgn_fault_setter_calls(), 0);
    expect_msg("field dst");
    expect_msg("rule: an executable's copy keeps the memory types (device or host) of its "
               "operands");
    cgn_memcpy_desc now;
    OK(cgn_memcpy_exec_get(e, c, &now));
    assert_int_equal(now.dst, env->buf[1]);
    assert_int_equal(now.dst_memory_type, CU_MEMORYTYPE_DEVICE);
    OK(cgn_memcpy_node_update(c, &u));
    cgn_fault_reset_counts();
    EXPECT_ST(CGN_ERROR_INVALID_VALUE, cgn_exec_update_from_graph(e, g));
    assert_int_equal(cgn_fault_calls(CGN_FAULT_cuGraphExecUpdate), 0);
    expect_msgf("%p", (void *)c);
    expect_msg("dst");
    OK(cgn_memcpy_exec_get(e, c, &now));
    assert_int_equal(now.dst, env->buf[1]);
    unsigned char pattern[8] = {1, 2, 3, 4, 5, 6, 7, 8}, got[8];
    env->backend->write(env, env->buf[0], pattern, sizeof pattern);
    zero_buf(env, 1);
    OK(env->backend->launch(env, e));
    env->backend->read(env, env->buf[1], got, sizeof got);
    assert_memory_equal(got, pattern, sizeof got);
    DESTROY_EXEC_GRAPH(e, g);
}

/* "driver_rule": a kernel node of an executable moved to a CUfunction of another context is
 * refused by the driver, reported as CGN_ERROR_INVALID_VALUE naming the fields set and the rule;
 * "refresh_refused": the same move in the definition makes a refresh CGN_ERROR_DRIVER naming
 * CUDA's reason and the node. Nothing changes, the owner offered is not kept. */
static void test_kernel_context_messages(void **state) {
    cgn_test_env *env = *state;
    cgn_node *n;
    cgn_exec *e;
    cgn_graph *g = fill_graph_exec(env, &n, &e);
    cgn_owner *o = mine(0);
    cgn_kernel foreign = env->backend->foreign_kernel(env, "fill_u32");
    CUdeviceptr p = env->buf[1];
    uint32_t v = 6;
    cgn_arg args[2] = {CGN_ARG(p), CGN_ARG(v)};
    cgn_kernel_update u = CGN_KERNEL_UPDATE_INIT;
    cgn_kernel_update_set_kernel(&u, foreign, o, args, 2);
    env->backend->set_context(env, CGN_TEST_CTX_NONE);
    EXPECT_ST(CGN_ERROR_INVALID_VALUE, cgn_kernel_exec_update(e, n, &u));
    assert_int_equal(env->backend->current_context(env), CGN_TEST_CTX_NONE);
    env->backend->set_context(env, CGN_TEST_CTX_OWN);
    expect_prefix("cgn_kernel_exec_update: ");
    expect_msg("returned CUDA_ERROR_INVALID_VALUE (1)");
    expect_msg("(fields set: kernel kernel_owner args)");
    expect_msg("field kernel: rule: an executable's kernel node cannot move to another context");
    expect_msg("nothing changed");
    assert_fill(e, n, env, 0, 5);
    OK(cgn_kernel_node_update(n, &u));
    cgn_fault_reset_counts();
    EXPECT_ST(CGN_ERROR_DRIVER, cgn_exec_update_from_graph(e, g));
    expect_msg("cgn_exec_update_from_graph: cuGraphExecUpdate returned "
               "CUDA_ERROR_GRAPH_EXEC_UPDATE_FAILURE");
    expect_msg("CU_GRAPH_EXEC_UPDATE_ERROR_UNSUPPORTED_FUNCTION_CHANGE");
    expect_msgf("at node %p (kernel); the executable is unchanged", (void *)n);
    assert_fill(e, n, env, 0, 5);
    assert_int_equal(run_u32(env, e, 0), 5);
    drop(o);
    collect_all();
    assert_int_equal(released(0), 0); /* the definition holds it */
    OK(cgn_graph_destroy(g));
    OK(cgn_exec_destroy(e));
    collect_all();
    assert_int_equal(released(0), 1);
}

/* CGN_ERROR_DRIVER, "exec_refused": an executable-level event record update to a destroyed event
 * names the driver call's result and the fields set; the event's owner offered is not kept and
 * the executable records the old event. */
static void test_event_exec_refused_message(void **state) {
    cgn_test_env *env = *state;
    cgn_graph *g;
    OK(cgn_graph_create(&g));
    cgn_event_record_desc d = CGN_EVENT_RECORD_DESC_INIT;
    d.event = env->event[0];
    cgn_node *r;
    OK(cgn_graph_add_event_record(g, NULL, 0, &d, &r));
    cgn_exec *e;
    OK(cgn_graph_instantiate(g, &e));
    CUevent gone = env->backend->event_create(env);
    env->backend->event_destroy(env, gone);
    cgn_owner *o = mine(0);
    cgn_event_record_update u = CGN_EVENT_RECORD_UPDATE_INIT;
    cgn_event_record_update_set_event(&u, gone, o);
    EXPECT_ST(CGN_ERROR_DRIVER, cgn_event_record_exec_update(e, r, &u));
    expect_prefix("cgn_event_record_exec_update: ");
    expect_msg("returned CUDA_ERROR_INVALID_VALUE (1); the driver refused this change in the "
               "executable (fields set: event event_owner); nothing changed");
    cgn_event_record_desc now;
    OK(cgn_event_record_exec_get(e, r, &now));
    assert_ptr_equal(now.event, env->event[0]);
    assert_null(now.event_owner);
    drop(o);
    collect_all();
    assert_int_equal(released(0), 1);
    int rec[CGN_TEST_NUM_EVENTS] = {0};
    OK(env->backend->launch_observe_records(env, e, rec));
    assert_int_equal(rec[0], 1);
    assert_int_equal(rec[1], 0);
    DESTROY_EXEC_GRAPH(e, g);
}

/* Messages of errors.md outside the executable level: NO_CONTEXT, the graph_gone DESTROYED,
 * driver_call DRIVER; and CGN_OK: a later success keeps the last failure's message and status. */
static void test_definition_level_messages(void **state) {
    cgn_test_env *env = *state;
    cgn_graph *g;
    OK(cgn_graph_create(&g));
    cgn_memset_desc d = cgn_test_fill_desc(env, 0, 0x11, 0);
    cgn_node *n = NULL;
    env->backend->set_context(env, CGN_TEST_CTX_NONE);
    EXPECT_ST(CGN_ERROR_NO_CONTEXT, cgn_graph_add_memset(g, NULL, 0, &d, &n));
    env->backend->set_context(env, CGN_TEST_CTX_OWN);
    cgn_test_assert_message("cgn_graph_add_memset: no CUDA context is current; make one current "
                            "first (e.g. cuDevicePrimaryCtxRetain + cuCtxSetCurrent)");
    assert_null(n);
    assert_int_equal(cgn_test_count_nodes(g), 0);
    OK(cgn_graph_add_memset(g, NULL, 0, &d, &n));
    /* a later success keeps describing the failure */
    assert_int_equal(cgn_last_status(), CGN_ERROR_NO_CONTEXT);
    expect_msg("no CUDA context is current");
    cgn_exec *e;
    OK(cgn_graph_instantiate(g, &e));
    OK(cgn_graph_destroy(g));
    EXPECT_ST(CGN_ERROR_DESTROYED, mset(NULL, n, env, 1, 0x22, NULL));
    char want[WANT];
    snprintf(want, sizeof want,
             "cgn_memset_node_update: the graph of node %p has been destroyed; only executables "
             "made from it can still update the node",
             (void *)n);
    cgn_test_assert_message(want);
    OK(mset(e, n, env, 1, 0x22, NULL));
    assert_int_equal(cgn_test_run_read(env, e, 1), 0x22);
    cgn_graph *h = NULL;
    arm_fault(1, CUDA_ERROR_OUT_OF_MEMORY);
    EXPECT_ST(CGN_ERROR_DRIVER, cgn_graph_create(&h));
    assert_true(disarm_fault());
    cgn_test_assert_message(
        "cgn_graph_create: cuGraphCreate returned CUDA_ERROR_OUT_OF_MEMORY (2)");
    assert_null(h);
    OK(cgn_exec_destroy(e));
}

/* "Updates need no current context": executable-level updates of memset, CUkernel and CUfunction
 * nodes with none current succeed, run, and leave none current; with a foreign context current
 * they leave that one current. */
static void test_exec_updates_without_context(void **state) {
    cgn_test_env *env = *state;
    cgn_node *m, *f, *a;
    cgn_graph *g = mixed_graph(env, 1, 5, &m, &f);
    CUdeviceptr p2 = env->buf[2];
    cgn_arg aargs[1] = {CGN_ARG(p2)};
    cgn_kernel_desc kd = CGN_KERNEL_DESC_INIT;
    kd.grid = kd.block = CGN_DIM3(1, 1, 1);
    kd.kernel = cgn_test_kernel(env, "add_one");
    kd.args = aargs;
    kd.num_args = 1;
    OK(cgn_graph_add_kernel(g, NULL, 0, &kd, &a));
    cgn_exec *e;
    OK(cgn_graph_instantiate(g, &e));
    static const int contexts[] = {CGN_TEST_CTX_NONE, CGN_TEST_CTX_FOREIGN};
    for (int i = 0; i < 2; i++) {
        env->backend->set_context(env, contexts[i]);
        OK(mset(e, m, env, 0, 0x40u + (uint32_t)i, NULL));
        OK(fill_edit(e, f, env, 1, 50u + (uint32_t)i, NULL));
        CUdeviceptr p3 = env->buf[3];
        cgn_kernel_update u = CGN_KERNEL_UPDATE_INIT;
        cgn_kernel_update_set_arg(&u, 0, &p3, sizeof p3, NULL);
        OK(cgn_kernel_exec_update(e, a, &u));
        cgn_kernel_update grid = CGN_KERNEL_UPDATE_INIT;
        cgn_kernel_update_set_grid(&grid, CGN_DIM3(1, 1, 1));
        OK(cgn_kernel_exec_update(e, a, &grid));
        OK(cgn_exec_node_set_enabled(e, a, 1));
        assert_int_equal(env->backend->current_context(env), contexts[i]);
        env->backend->set_context(env, CGN_TEST_CTX_OWN);
        uint8_t got[CGN_TEST_NUM_BUFS];
        run_all(env, e, got);
        assert_int_equal(got[0], 0x40 + i);
        assert_int_equal(got[1], 50 + i);
        assert_int_equal(got[3], 1);
    }
    DESTROY_EXEC_GRAPH(e, g);
}

/* ==== a model-checked walk of the executable-level loop ===================================== */

/* Owners 0..WALK_DEF-1 are given to definition updates, the rest to executable-level updates.
 * The model knows when an executable-level owner must go: once it is no executable's current
 * version and every launch that read it has completed (a version no launch saw goes at once);
 * when its executable is destroyed, what the executable held may instead wait for the fence of
 * its last launch (docs/ownership.md, "Destruction"). For definition owners (whose lifetime
 * CUDA's references decide) only that none goes while a graph, executable or launch in flight
 * uses it. Each step is followed by a collect and the check of every owner, and of every
 * executable's copy against the model. */
#define WALK_EXECS 2
#define WALK_DEF 128
#define WALK_FLIGHT 64

typedef struct walk {
    cgn_test_env *env;
    cgn_graph *g;
    cgn_node *n;
    cgn_exec *e[WALK_EXECS];
    int exec_id[WALK_EXECS]; /* a new id for each executable made */
    int current[WALK_EXECS]; /* owner the executable's copy names; -1: none */
    int def_current;
    /* launches in flight, oldest first: executable id, owner read, launch number */
    int flight_exec[WALK_FLIGHT], flight_owner[WALK_FLIGHT];
    long flight_seq[WALK_FLIGHT];
    int flights;
    long launched;
    long grave_seq[NUM_MINE]; /* may wait for launch number ... (its executable's last) */
    int next_def, next_exec, next_exec_id;
    uint32_t seed, first_seed;
} walk;

static uint32_t walk_rand(walk *w, uint32_t n) {
    w->seed = w->seed * 1103515245u + 12345u;
    return ((w->seed >> 8) & 0xffffff) % n;
}

static cgn_owner *walk_owner(walk *w, int def) {
    int id = def ? w->next_def++ : w->next_exec++;
    assert_true(def ? id < WALK_DEF : id < NUM_MINE);
    return mine(id);
}

/* Launches the fake completed (cgn_fake_complete_launches, or a cuCtxSynchronize cgn made)
 * leave the model, oldest first. */
static void walk_sync_flights(walk *w) {
    size_t now = cgn_fake_in_flight(NULL);
    assert_true(now <= (size_t)w->flights);
    int done = w->flights - (int)now;
    size_t left = (size_t)(w->flights - done);
    memmove(w->flight_exec, w->flight_exec + done, left * sizeof w->flight_exec[0]);
    memmove(w->flight_owner, w->flight_owner + done, left * sizeof w->flight_owner[0]);
    memmove(w->flight_seq, w->flight_seq + done, left * sizeof w->flight_seq[0]);
    w->flights = (int)left;
}

/* 1 when a launch in flight read owner id; 2 when it may wait for the last launch of its
 * destroyed executable, still in flight; 0 otherwise. */
static int walk_in_flight(const walk *w, int id) {
    for (int f = 0; f < w->flights; f++)
        if (w->flight_owner[f] == id)
            return 1;
    for (int f = 0; f < w->flights; f++)
        if (w->flight_seq[f] == w->grave_seq[id])
            return 2;
    return 0;
}

static int walk_current_anywhere(const walk *w, int id) {
    for (int j = 0; j < WALK_EXECS; j++)
        if (w->e[j] != NULL && w->current[j] == id)
            return 1;
    return 0;
}

static void walk_check(walk *w, int step) {
    walk_sync_flights(w);
    collect_all();
    for (int id = 0; id < w->next_def; id++) {
        int needed =
            id == w->def_current || walk_current_anywhere(w, id) || walk_in_flight(w, id) == 1;
        if (released(id) > 1 || (needed && released(id) != 0))
            fail_msg("seed %u step %d: definition owner %d released %d times while needed",
                     w->first_seed, step, id, released(id));
    }
    for (int id = WALK_DEF; id < w->next_exec; id++) {
        int in_flight = walk_in_flight(w, id);
        int needed = walk_current_anywhere(w, id) || in_flight == 1;
        if (!needed && in_flight == 2 && released(id) <= 1)
            continue;
        if (released(id) != !needed)
            fail_msg("seed %u step %d: executable owner %d released %d times, needed %d",
                     w->first_seed, step, id, released(id), needed);
    }
    for (int j = 0; j < WALK_EXECS; j++) {
        cgn_memset_desc d = mget(w->e[j], w->n);
        if ((w->current[j] < 0) != (d.dst_owner == NULL))
            fail_msg("seed %u step %d: executable %d names owner %p, model %d", w->first_seed, step,
                     j, (const void *)d.dst_owner, w->current[j]);
        assert_int_equal(d.dst, w->env->buf[w->current[j] < 0 ? 0 : 1 + w->current[j] % 3]);
    }
}

static void walk_launch(walk *w, int j) {
    assert_true(w->flights < WALK_FLIGHT);
    OK(cgn_exec_launch(w->e[j], NULL));
    w->flight_exec[w->flights] = w->exec_id[j];
    w->flight_owner[w->flights] = w->current[j];
    w->flight_seq[w->flights] = w->launched++;
    w->flights++;
}

/* Executable j goes: what it held may wait for its last launch in flight. */
static void walk_destroy(walk *w, int j) {
    long last = -1;
    for (int f = 0; f < w->flights; f++)
        if (w->flight_exec[f] == w->exec_id[j])
            last = w->flight_seq[f];
    for (int f = 0; last >= 0 && f < w->flights; f++)
        if (w->flight_exec[f] == w->exec_id[j] && w->flight_owner[f] >= WALK_DEF)
            w->grave_seq[w->flight_owner[f]] = last;
    if (last >= 0 && w->current[j] >= WALK_DEF)
        w->grave_seq[w->current[j]] = last;
    OK(cgn_exec_destroy(w->e[j]));
    w->e[j] = NULL;
}

static void walk_instantiate(walk *w, int j) {
    OK(cgn_graph_instantiate(w->g, &w->e[j]));
    w->exec_id[j] = w->next_exec_id++;
    w->current[j] = w->def_current;
}

static void walk_step(walk *w) {
    int j = (int)walk_rand(w, WALK_EXECS);
    switch (walk_rand(w, 9)) {
    case 0:
    case 1: { /* executable-level update with a new owner (or none) */
        int none = walk_rand(w, 5) == 0;
        cgn_owner *o = none ? NULL : walk_owner(w, 0);
        int id = none ? -1 : w->next_exec - 1;
        OK(mset(w->e[j], w->n, w->env, none ? 0 : 1 + id % 3, 0x40u + walk_rand(w, 64), o));
        if (o)
            drop(o);
        w->current[j] = id;
        break;
    }
    case 2:
    case 3:
        if (w->flights < WALK_FLIGHT - 1)
            walk_launch(w, j);
        break;
    case 4:
        (void)cgn_fake_complete_launches(1 + walk_rand(w, 3));
        break;
    case 5: { /* definition update with a new owner */
        if (w->next_def >= WALK_DEF - 1)
            break;
        cgn_owner *o = walk_owner(w, 1);
        int id = w->next_def - 1;
        MSET_DROP(NULL, w->n, w->env, 1 + id % 3, 0x11, o);
        w->def_current = id;
        break;
    }
    case 6: /* whole-graph refresh */
        OK(cgn_exec_update_from_graph(w->e[j], w->g));
        w->current[j] = w->def_current;
        break;
    case 7: /* a new executable in place of the old one (destroyed in flight, maybe) */
        walk_destroy(w, j);
        walk_instantiate(w, j);
        break;
    default:
        OK(cgn_exec_node_set_enabled(w->e[j], w->n, (int)walk_rand(w, 2)));
        break;
    }
}

static void walk_run(cgn_test_env *env, uint32_t seed) {
    walk w;
    memset(&w, 0, sizeof w);
    w.env = env;
    w.seed = w.first_seed = seed;
    w.next_exec = WALK_DEF;
    for (int i = 0; i < NUM_MINE; i++)
        w.grave_seq[i] = -1;
    OK(cgn_graph_create(&w.g));
    cgn_owner *first = walk_owner(&w, 1);
    cgn_memset_desc d = cgn_test_fill_desc(env, 1, 0x11, 0);
    d.dst_owner = first;
    OK(cgn_graph_add_memset(w.g, NULL, 0, &d, &w.n));
    drop(first);
    w.def_current = 0;
    for (int j = 0; j < WALK_EXECS; j++)
        walk_instantiate(&w, j);
    hold();
    for (int step = 0; step < 160 && w.next_exec < NUM_MINE - 1; step++) {
        walk_step(&w);
        walk_check(&w, step);
    }
    (void)cgn_fake_complete_pending();
    walk_check(&w, -1);
    cgn_fake_hold_completion(0);
    for (int j = 0; j < WALK_EXECS; j++)
        walk_destroy(&w, j);
    OK(cgn_graph_destroy(w.g));
    collect_all();
    for (int id = 0; id < w.next_def; id++)
        assert_int_equal(released(id), 1);
    for (int id = WALK_DEF; id < w.next_exec; id++)
        assert_int_equal(released(id), 1);
}

static void test_model_walk_exec_loop(void **state) {
    static const uint32_t seeds[] = {1, 2, 3, 42, 1234, 99991};
    for (size_t i = 0; i < sizeof seeds / sizeof seeds[0]; i++)
        walk_run(*state, seeds[i]);
}

/* A whole-graph refresh while a launch of the executable is in flight, with the definition's
 * owner changed in between: the version the launch reads (the definition's old one, owner a)
 * must stay until that launch completes, even once no graph or other executable holds it, and
 * go after the next launch at the latest. */
static void test_refresh_in_flight_keeps_old_definition_version(void **state) {
    cgn_test_env *env = *state;
    for (int variant = 0; variant < 2; variant++) {
        cgn_owner *a = mine(0), *b = mine(1);
        cgn_graph *g;
        OK(cgn_graph_create(&g));
        cgn_memset_desc d = cgn_test_fill_desc(env, 1, 0x11, 0);
        d.dst_owner = a;
        cgn_node *n;
        OK(cgn_graph_add_memset(g, NULL, 0, &d, &n));
        drop(a);
        cgn_exec *e, *other;
        OK(cgn_graph_instantiate(g, &e));
        OK(cgn_graph_instantiate(g, &other));
        hold();
        OK(env->backend->launch_async(env, e)); /* reads a's version */
        MSET_DROP(NULL, n, env, 2, 0x22, b);
        OK(cgn_exec_update_from_graph(e, g));
        if (variant == 1)
            OK(cgn_graph_destroy(g));
        OK(cgn_exec_destroy(other)); /* the last holder of a's version but the launch */
        collect_all();
        if (released(0) != 0)
            fail_msg("variant %d: owner a released while a launch reading it is in flight",
                     variant);
        unhold();
        collect_all();
        /* that launch was not fenced (nothing waited when it was made): a may stay until a
         * later launch has completed, never longer */
        assert_true(released(0) <= 1);
        assert_int_equal(cgn_test_run_read(env, e, 2), 0x22);
        collect_all();
        assert_int_equal(released(0), 1);
        OK(cgn_exec_destroy(e));
        if (variant == 0)
            OK(cgn_graph_destroy(g));
        collect_all();
        assert_int_equal(released(1), 1);
    }
}

/* ==== owners of executable-level versions ================================================== */

/* Argument edits at executable level: an edit of argument 1 without an owner keeps argument 0's
 * owner; an edit of argument 0 without one drops it, once the launch in flight that read it has
 * completed; exec_get reports each argument's owner. */
static void test_exec_arg_edit_owners(void **state) {
    cgn_test_env *env = *state;
    cgn_node *n;
    cgn_exec *e;
    cgn_graph *g = fill_graph_exec(env, &n, &e);
    cgn_owner *o = mine(0);
    CUdeviceptr p = env->buf[1];
    cgn_kernel_update u = CGN_KERNEL_UPDATE_INIT;
    cgn_kernel_update_set_arg(&u, 0, &p, sizeof p, o);
    OK(cgn_kernel_exec_update(e, n, &u));
    drop(o);
    hold();
    OK(env->backend->launch_async(env, e));
    for (uint32_t v = 10; v < 14; v++) {
        cgn_kernel_update_reset(&u);
        cgn_kernel_update_set_arg(&u, 1, &v, sizeof v, NULL);
        OK(cgn_kernel_exec_update(e, n, &u));
        OK(env->backend->launch_async(env, e));
        fill_args a = fill_get(e, n);
        assert_ptr_equal(a.owner, o);
        assert_int_equal(a.value, v);
    }
    unhold();
    collect_all();
    assert_int_equal(released(0), 0);
    hold();
    OK(env->backend->launch_async(env, e));
    CUdeviceptr q = env->buf[2];
    cgn_kernel_update_reset(&u);
    cgn_kernel_update_set_arg(&u, 0, &q, sizeof q, NULL);
    OK(cgn_kernel_exec_update(e, n, &u));
    assert_null(fill_get(e, n).owner);
    collect_all();
    assert_int_equal(released(0), 0); /* the launch in flight reads buffer 1 */
    unhold();
    collect_all();
    assert_int_equal(released(0), 1);
    assert_int_equal(run_u32(env, e, 2), 13);
    assert_null(fill_get(NULL, n).owner);
    DESTROY_EXEC_GRAPH(e, g);
}

/* A host callback payload set at executable level: that executable's copy (exec_get returns it,
 * with its owner), run by that executable only, kept after the caller's bytes change and after
 * the graph is destroyed; the definition and other executables keep theirs. */
static int host_run_first(cgn_test_env *env, cgn_exec *e) {
    atomic_store(&env->num_calls, 0);
    OK(env->backend->launch(env, e));
    assert_int_equal(atomic_load(&env->num_calls), 1);
    assert_true(env->calls[0].has_argument);
    return env->calls[0].first;
}

static void test_exec_payload_copies(void **state) {
    cgn_test_env *env = *state;
    cgn_graph *g;
    OK(cgn_graph_create(&g));
    unsigned char first[4] = {0x31, 0, 0, 0};
    cgn_host_callback_desc hd = CGN_HOST_CALLBACK_DESC_INIT;
    hd.fn = cgn_test_callback(env, "record_a");
    hd.payload = first;
    hd.payload_size = sizeof first;
    cgn_node *h;
    OK(cgn_graph_add_host_callback(g, NULL, 0, &hd, &h));
    cgn_exec *e1, *e2;
    OK(cgn_graph_instantiate(g, &e1));
    OK(cgn_graph_instantiate(g, &e2));
    unsigned char mine_bytes[4] = {0x52, 0, 0, 0};
    cgn_host_callback_update u = CGN_HOST_CALLBACK_UPDATE_INIT;
    cgn_host_callback_update_set_fn(&u, cgn_test_callback(env, "record_b"), NULL, NULL, mine_bytes,
                                    sizeof mine_bytes);
    OK(cgn_host_callback_exec_update(e1, h, &u));
    mine_bytes[0] = 0; /* cgn has its copy */
    cgn_host_callback_desc got;
    OK(cgn_host_callback_exec_get(e1, h, &got));
    assert_non_null(got.payload);
    assert_ptr_not_equal(got.payload, mine_bytes);
    assert_int_equal(got.payload_size, 4);
    assert_int_equal(((const unsigned char *)got.payload)[0], 0x52);
    assert_non_null(got.payload_owner);
    assert_null(got.user_data);
    cgn_host_callback_desc def;
    OK(cgn_host_callback_node_get(h, &def));
    assert_int_equal(((const unsigned char *)def.payload)[0], 0x31);
    assert_ptr_not_equal(def.payload_owner, got.payload_owner);
    assert_int_equal(host_run_first(env, e1), 0x52);
    assert_int_equal(env->calls[0].callback, 1);
    assert_int_equal(host_run_first(env, e2), 0x31);
    assert_int_equal(env->calls[0].callback, 0);
    OK(cgn_graph_destroy(g));
    assert_int_equal(host_run_first(env, e1), 0x52);
    /* a second executable-level payload: the first copy goes once no launch reads it */
    unsigned char next[2] = {0x63, 0};
    cgn_host_callback_update_set_fn(&u, cgn_test_callback(env, "record_a"), NULL, NULL, next,
                                    sizeof next);
    hold();
    OK(env->backend->launch_async(env, e1));
    OK(cgn_host_callback_exec_update(e1, h, &u));
    unhold();
    assert_int_equal(host_run_first(env, e1), 0x63);
    OK(cgn_exec_destroy(e1));
    assert_int_equal(host_run_first(env, e2), 0x31);
    OK(cgn_exec_destroy(e2));
}

/* ==== driver failures at the executable level ============================================== */

/* An executable-level update with each driver call failing in turn, a launch in flight reading
 * the current version (owner a) and a foreign context current: a failure names the driver
 * result, leaves the executable's copy, the context and a's lifetime as they were, and never
 * keeps the owner offered (b); a success retires a, released only after the launch. */
static void test_exec_update_faults_in_flight(void **state) {
    cgn_test_env *env = *state;
    int failures = 0;
    for (long k = 1; k < 32; k++) {
        cgn_owner *a = mine(0), *b = mine(1);
        cgn_node *n;
        cgn_exec *e;
        cgn_graph *g = fill_graph_exec(env, &n, &e);
        OK(fill_edit(e, n, env, 1, 6, a));
        drop(a);
        hold();
        OK(env->backend->launch_async(env, e));
        env->backend->set_context(env, CGN_TEST_CTX_FOREIGN);
        arm_fault(k, CUDA_ERROR_OUT_OF_MEMORY);
        cgn_status st = fill_edit(e, n, env, 2, 7, b);
        int hit = disarm_fault();
        assert_int_equal(env->backend->current_context(env), CGN_TEST_CTX_FOREIGN);
        env->backend->set_context(env, CGN_TEST_CTX_OWN);
        drop(b);
        collect_all();
        assert_int_equal(released(0), 0);
        if (st != CGN_OK) {
            assert_true(hit);
            failures++;
            expect_prefix("cgn_kernel_exec_update: ");
            expect_msg("CUDA_ERROR_OUT_OF_MEMORY (2)");
            assert_int_equal(released(1), 1);
            assert_fill(e, n, env, 1, 6);
            assert_ptr_equal(fill_get(e, n).owner, a);
        } else {
            assert_int_equal(released(1), 0);
            assert_fill(e, n, env, 2, 7);
        }
        unhold();
        collect_all();
        assert_int_equal(released(0), st == CGN_OK);
        assert_int_equal(run_u32(env, e, st == CGN_OK ? 2 : 1), st == CGN_OK ? 7 : 6);
        DESTROY_EXEC_GRAPH(e, g);
        collect_all();
        assert_int_equal(unreleased(0, 2), 0);
        if (!hit)
            break;
    }
    assert_true(failures > 0);
}

/* A whole-graph refresh with each driver call failing in turn while a launch in flight reads an
 * executable-level version (owner x) and the definition holds another (owner d): on failure the
 * executable keeps x's version (copy, run, lifetime); on success x goes after the launch. */
static void test_refresh_faults_in_flight(void **state) {
    cgn_test_env *env = *state;
    int failures = 0;
    for (long k = 1; k < 48; k++) {
        cgn_owner *x = mine(0), *d = mine(1);
        cgn_graph *g;
        cgn_node *n;
        cgn_exec *e;
        cgn_test_fill_graph(env, &g, &n, &e);
        OK(mset(e, n, env, 1, 0x21, x));
        OK(mset(NULL, n, env, 2, 0x22, d));
        drop(x);
        drop(d);
        hold();
        OK(env->backend->launch_async(env, e));
        arm_fault(k, CUDA_ERROR_INVALID_VALUE);
        cgn_status st = cgn_exec_update_from_graph(e, g);
        int hit = disarm_fault();
        collect_all();
        assert_int_equal(unreleased(0, 2), 2);
        if (st != CGN_OK) {
            assert_true(hit);
            failures++;
            expect_prefix("cgn_exec_update_from_graph: ");
            assert_mset(e, n, env, 1, 0x21, x);
        } else {
            assert_mset(e, n, env, 2, 0x22, d);
        }
        unhold();
        collect_all();
        assert_int_equal(released(0), st == CGN_OK);
        assert_int_equal(cgn_test_run_read(env, e, st == CGN_OK ? 2 : 1),
                         st == CGN_OK ? 0x22 : 0x21);
        DESTROY_EXEC_GRAPH(e, g);
        collect_all();
        assert_int_equal(unreleased(0, 2), 0);
        if (!hit)
            break;
    }
    assert_true(failures > 0);
}

/* ==== hostile handles ======================================================================== */

/* Handle values are never reused: a destroyed executable's or node's handle stays destroyed
 * after many new objects took its slot, and never reaches them. */
static void test_stale_handles_after_slot_reuse(void **state) {
    cgn_test_env *env = *state;
    cgn_graph *g;
    cgn_node *n;
    cgn_exec *e;
    cgn_test_fill_graph(env, &g, &n, &e);
    cgn_exec *old_exec = e;
    cgn_node *old_node;
    OK(cgn_graph_add_empty(g, NULL, 0, &old_node));
    OK(cgn_exec_destroy(e));
    OK(cgn_node_destroy(old_node));
    cgn_exec *fresh[8];
    cgn_node *fresh_nodes[8];
    for (int i = 0; i < 8; i++) {
        OK(cgn_graph_add_empty(g, NULL, 0, &fresh_nodes[i]));
        OK(cgn_graph_instantiate(g, &fresh[i]));
        assert_ptr_not_equal(fresh[i], old_exec);
        assert_ptr_not_equal(fresh_nodes[i], old_node);
    }
    EXPECT_ST(CGN_ERROR_DESTROYED, mset(old_exec, n, env, 1, 0x21, NULL));
    expect_msgf("exec %p has been destroyed", (void *)old_exec);
    EXPECT_ST(CGN_ERROR_DESTROYED, cgn_exec_destroy(old_exec));
    EXPECT_ST(CGN_ERROR_DESTROYED, cgn_exec_launch(old_exec, NULL));
    EXPECT_ST(CGN_ERROR_DESTROYED, cgn_exec_upload(old_exec, NULL));
    CUgraphExec raw = NULL;
    EXPECT_ST(CGN_ERROR_DESTROYED, cgn_exec_raw(old_exec, &raw));
    assert_null(raw);
    EXPECT_ST(CGN_ERROR_DESTROYED, cgn_exec_update_from_graph(old_exec, g));
    int en = -1;
    EXPECT_ST(CGN_ERROR_DESTROYED, cgn_exec_node_get_enabled(old_exec, n, &en));
    assert_int_equal(en, -1);
    EXPECT_ST(CGN_ERROR_DESTROYED, cgn_exec_node_get_enabled(fresh[7], old_node, &en));
    expect_msgf("node %p", (void *)old_node);
    assert_int_equal(en, -1);
    assert_int_equal(cgn_node_is_alive(old_node), 0);
    for (int i = 0; i < 8; i++) {
        assert_mset(fresh[i], n, env, 0, 0x11, NULL);
        assert_int_equal(cgn_test_run_read(env, fresh[i], 0), 0x11);
        OK(cgn_exec_destroy(fresh[i]));
    }
    OK(cgn_graph_destroy(g));
}

/* An executable-level child graph update given a graph of the executable's own hierarchy is
 * CGN_ERROR_SAME_HIERARCHY (the same rule at both levels), before any driver setter; graph NULL
 * and a graph of another topology are CGN_ERROR_INVALID_VALUE; the executable keeps its child. */
static void test_exec_child_refusals(void **state) {
    cgn_test_env *env = *state;
    cgn_graph *src, *parent;
    cgn_node *inner, *child;
    cgn_exec *se;
    cgn_test_fill_graph(env, &src, &inner, &se);
    OK(cgn_graph_create(&parent));
    cgn_child_graph_desc cd = CGN_CHILD_GRAPH_DESC_INIT;
    cd.graph = src;
    OK(cgn_graph_add_child_graph(parent, NULL, 0, &cd, &child));
    cgn_exec *e;
    OK(cgn_graph_instantiate(parent, &e));
    cgn_graph *embedded;
    OK(cgn_child_graph_node_embedded(child, &embedded));
    cgn_graph *own[2] = {parent, embedded};
    for (int i = 0; i < 2; i++) {
        cgn_child_graph_update u = CGN_CHILD_GRAPH_UPDATE_INIT;
        cgn_child_graph_update_set_graph(&u, own[i]);
        cgn_fault_reset_counts();
        EXPECT_ST(CGN_ERROR_SAME_HIERARCHY, cgn_child_graph_exec_update(e, child, &u));
        assert_int_equal(cgn_fault_setter_calls(), 0);
        /* errors.md's example is the definition level's ("the destination's hierarchy") */
        expect_msgf("cgn_child_graph_exec_update: graph %p belongs to the ", (void *)own[i]);
        expect_msg("hierarchy");
    }
    /* errors.md, CGN_ERROR_INVALID_ARGUMENT: a refresh from another graph than the one the
     * executable was made from, its own embedded graph included */
    EXPECT_ST(CGN_ERROR_INVALID_ARGUMENT, cgn_exec_update_from_graph(e, embedded));
    expect_prefix("cgn_exec_update_from_graph: ");
    EXPECT_ST(CGN_ERROR_INVALID_ARGUMENT, cgn_exec_update_from_graph(e, src));
    /* errors.md, CGN_ERROR_INVALID_VALUE: graph NULL; another topology at executable level */
    cgn_child_graph_update nul = CGN_CHILD_GRAPH_UPDATE_INIT;
    cgn_child_graph_update_set_graph(&nul, NULL);
    EXPECT_ST(CGN_ERROR_INVALID_VALUE, cgn_child_graph_exec_update(e, child, &nul));
    expect_prefix("cgn_child_graph_exec_update: ");
    cgn_graph *wider;
    OK(cgn_graph_create(&wider));
    cgn_memset_desc md = cgn_test_fill_desc(env, 1, 0x12, 0);
    cgn_node *w1, *w2;
    OK(cgn_graph_add_memset(wider, NULL, 0, &md, &w1));
    OK(cgn_graph_add_memset(wider, NULL, 0, &md, &w2));
    cgn_child_graph_update other = CGN_CHILD_GRAPH_UPDATE_INIT;
    cgn_child_graph_update_set_graph(&other, wider);
    EXPECT_ST(CGN_ERROR_INVALID_VALUE, cgn_child_graph_exec_update(e, child, &other));
    expect_prefix("cgn_child_graph_exec_update: ");
    uint8_t got[CGN_TEST_NUM_BUFS];
    run_all(env, e, got);
    assert_int_equal(got[0], 0x11);
    assert_int_equal(got[1], 0);
    OK(cgn_exec_destroy(e));
    DESTROY_EXEC_GRAPH(se, parent);
    OK(cgn_graph_destroy(src));
    OK(cgn_graph_destroy(wider));
}

/* CGN_ERROR_OUT_OF_MEMORY at the executable level: a payload larger than the host's memory; the
 * message of errors.md with the executable-level function; nothing changes. */
static void test_exec_payload_out_of_memory(void **state) {
    cgn_test_env *env = *state;
    if (BB_SANITIZED)
        skip();
    cgn_graph *g;
    OK(cgn_graph_create(&g));
    cgn_host_callback_desc hd = CGN_HOST_CALLBACK_DESC_INIT;
    hd.fn = cgn_test_callback(env, "record_a");
    unsigned char one = 0x71;
    hd.payload = &one;
    hd.payload_size = 1;
    cgn_node *h;
    OK(cgn_graph_add_host_callback(g, NULL, 0, &hd, &h));
    cgn_exec *e;
    OK(cgn_graph_instantiate(g, &e));
    cgn_host_callback_update u = CGN_HOST_CALLBACK_UPDATE_INIT;
    cgn_host_callback_update_set_fn(&u, cgn_test_callback(env, "record_b"), NULL, NULL, &one,
                                    (size_t)1 << 62);
    EXPECT_ST(CGN_ERROR_OUT_OF_MEMORY, cgn_host_callback_exec_update(e, h, &u));
    cgn_test_assert_message("cgn_host_callback_exec_update: no host memory for a copy of payload "
                            "(4611686018427387904 bytes)");
    assert_int_equal(host_run_first(env, e), 0x71);
    assert_int_equal(env->calls[0].callback, 0);
    DESTROY_EXEC_GRAPH(e, g);
}

/* ==== release callbacks that use cgn ======================================================= */

/* A release callback may call cgn on another hierarchy: here it updates and launches an
 * executable of another graph (and that update's own retired owner goes, once). */
static cgn_exec *cb_exec;
static cgn_node *cb_node;
static cgn_test_env *cb_env;
static cgn_status cb_status = CGN_ERROR_INVALID_ARGUMENT;

static void release_and_update(void *resource) {
    mine_release(resource);
    cgn_owner *o = NULL;
    cgn_status st = cgn_owner_create((void *)(intptr_t)3, mine_release, &o);
    if (st == CGN_OK)
        st = mset(cb_exec, cb_node, cb_env, 2, 0x66, o);
    if (o != NULL)
        (void)cgn_owner_release(o);
    if (st == CGN_OK)
        st = cgn_exec_launch(cb_exec, NULL);
    cb_status = st;
}

static void test_release_callback_updates_other_exec(void **state) {
    cgn_test_env *env = *state;
    cgn_graph *g, *other;
    cgn_node *n;
    cgn_exec *e;
    cgn_test_fill_graph(env, &other, &cb_node, &cb_exec);
    cb_env = env;
    cb_status = CGN_ERROR_INVALID_ARGUMENT;
    cgn_owner *prev = mine(2);
    MSET_DROP(cb_exec, cb_node, env, 1, 0x55, prev);
    atomic_store(&mine_released[3], 0);
    cgn_owner *trigger = NULL;
    atomic_store(&mine_released[0], 0);
    OK(cgn_owner_create((void *)(intptr_t)0, release_and_update, &trigger));
    cgn_test_fill_graph(env, &g, &n, &e);
    MSET_DROP(e, n, env, 1, 0x44, trigger);
    zero_buf(env, 2);
    OK(cgn_exec_destroy(e)); /* the trigger's last holder */
    collect_all();
    assert_int_equal(released(0), 1);
    OK(cb_status);
    assert_int_equal(read_u32(env, 2) & 0xff, 0x66);
    assert_int_equal(released(2), 1); /* replaced in the callback, its launch done */
    assert_int_equal(released(3), 0);
    cgn_memset_desc now = mget(cb_exec, cb_node);
    assert_int_equal(now.dst, env->buf[2]);
    assert_int_equal(now.value, 0x66);
    assert_non_null(now.dst_owner);
    DESTROY_EXEC_GRAPH(cb_exec, g);
    OK(cgn_graph_destroy(other));
    collect_all();
    assert_int_equal(released(3), 1);
}

/* ==== where and when releases run =========================================================== */

/* "Also releases what completed launches no longer need" (cgn_exec_launch); "Executable-level
 * versions whose launches completed are released by the executable's own cgn calls and by
 * cgn_collect()" (docs/ownership.md): after the launch that read a retired version completed,
 * one call of the executable's own (then, for a callback left pending, any cgn call that may call
 * CUDA) releases it, with no cgn_collect. Returns how many times it was released. */
static int own_call_releases(cgn_test_env *env, int call) {
    cgn_graph *g;
    cgn_node *n;
    cgn_exec *e;
    cgn_test_fill_graph(env, &g, &n, &e);
    cgn_owner *a = mine(0), *b = mine(1), *c = mine(2);
    MSET_DROP(e, n, env, 1, 0x21, a);
    hold();
    OK(env->backend->launch_async(env, e));
    OK(mset(e, n, env, 2, 0x22, b)); /* a retires, read by the launch in flight */
    drop(b);
    OK(env->backend->launch_async(env, e));
    if (call == 5)
        OK(mset(e, n, env, 3, 0x25, c)); /* b retires; c is seen by no launch */
    unhold();                            /* completes both: nothing polled yet */
    if (call == 0) {
        OK(cgn_exec_launch(e, NULL));
    } else if (call == 1) {
        OK(mset(e, n, env, 3, 0x23, c)); /* a new owner: b retires too */
    } else if (call == 2) {
        cgn_memset_update u = CGN_MEMSET_UPDATE_INIT;
        cgn_memset_update_set_value(&u, 0x24, 1); /* the same owners */
        OK(cgn_memset_exec_update(e, n, &u));
    } else if (call == 3) {
        OK(cgn_exec_node_set_enabled(e, n, 0));
    } else if (call == 5) {
        OK(mset(e, n, env, 0, 0x26, NULL)); /* replaces the unseen version c */
    } else {
        OK(cgn_exec_update_from_graph(e, g));
    }
    cgn_graph *spare; /* a call that may call CUDA, not of this executable */
    OK(cgn_graph_create(&spare));
    OK(cgn_graph_destroy(spare));
    int got = released(0);
    drop(c);
    DESTROY_EXEC_GRAPH(e, g);
    collect_all();
    assert_int_equal(unreleased(0, 3), 0);
    return got;
}

static void test_own_calls_release_completed_versions(void **state) {
    static const int calls[] = {0, 1, 4};
    for (size_t i = 0; i < sizeof calls / sizeof calls[0]; i++)
        if (own_call_releases(*state, calls[i]) != 1)
            fail_msg("own call %d did not release the completed launch's retired owner", calls[i]);
}

/* cgn_collect from another user thread releases what a destroyed executable held once its
 * launch completed: the callbacks run there, once, never on the thread that completed it. */
static void *collect_on_thread(void *arg) {
    size_t *count = arg;
    collector_thread = pthread_self();
    atomic_store(&collector_active, 1);
    for (int i = 0; i < 4; i++)
        *count += cgn_collect();
    return NULL;
}

static void test_collect_on_another_thread(void **state) {
    cgn_test_env *env = *state;
    cgn_graph *g;
    cgn_node *n;
    cgn_exec *e;
    cgn_test_fill_graph(env, &g, &n, &e);
    cgn_owner *x = mine(0);
    MSET_DROP(e, n, env, 1, 0x21, x);
    OK(cgn_graph_destroy(g));
    hold();
    OK(env->backend->launch_async(env, e));
    OK(cgn_exec_destroy(e));
    (void)cgn_collect();
    assert_int_equal(released(0), 0);
    unhold();
    size_t count = 0;
    pthread_t t;
    assert_int_equal(pthread_create(&t, NULL, collect_on_thread, &count), 0);
    assert_int_equal(pthread_join(t, NULL), 0);
    atomic_store(&collector_active, 0);
    assert_int_equal(released(0), 1);
    assert_true(count >= 1);
    collect_all();
    assert_int_equal(released(0), 1);
}

/* The raw handle's conservative rule covers whole-graph refreshes too: the executable-level
 * versions a refresh retires stay until the executable is destroyed. */
static void test_raw_handle_and_refresh(void **state) {
    cgn_test_env *env = *state;
    cgn_graph *g;
    cgn_node *n;
    cgn_exec *e;
    cgn_test_fill_graph(env, &g, &n, &e);
    CUgraphExec raw = NULL;
    OK(cgn_exec_raw(e, &raw));
    for (int i = 0; i < 4; i++) {
        cgn_owner *x = mine(i);
        MSET_DROP(e, n, env, 1 + i % 3, 0x21, x);
        OK(env->backend->launch(env, e));
        OK(cgn_exec_update_from_graph(e, g));
        OK(env->backend->launch(env, e));
        collect_all();
    }
    assert_int_equal(unreleased(0, 4), 4);
    assert_mset(e, n, env, 0, 0x11, NULL);
    OK(cgn_exec_destroy(e));
    collect_all();
    assert_int_equal(unreleased(0, 4), 0);
    OK(cgn_graph_destroy(g));
}

/* ==== descs read from one executable given to another ====================================== */

/* A desc read with _exec_get from one executable (its args point into that executable's copy)
 * replayed into another executable and into the definition: each takes its own copy and its own
 * reference to the owners; destroying the first executable changes nothing for the others. */
static void test_cross_exec_desc_copies(void **state) {
    cgn_test_env *env = *state;
    cgn_node *n;
    cgn_graph *g = fill_graph(env, 0, 5, NULL, &n);
    cgn_exec *e1, *e2;
    OK(cgn_graph_instantiate(g, &e1));
    OK(cgn_graph_instantiate(g, &e2));
    cgn_owner *o = mine(0), *k = mine(1);
    OK(fill_edit(e2, n, env, 2, 77, o));
    cgn_kernel_desc d;
    OK(cgn_kernel_exec_get(e2, n, &d));
    d.kernel_owner = k;
    cgn_kernel_update u = CGN_KERNEL_UPDATE_INIT;
    cgn_kernel_update_from_desc(&u, &d);
    OK(cgn_kernel_exec_update(e1, n, &u));
    OK(cgn_kernel_node_update(n, &u));
    drop(o);
    drop(k);
    OK(cgn_exec_destroy(e2));
    collect_all();
    assert_int_equal(unreleased(0, 2), 2);
    fill_args a = fill_get(e1, n);
    assert_int_equal(a.p, env->buf[2]);
    assert_int_equal(a.value, 77);
    assert_ptr_equal(a.owner, o);
    cgn_kernel_desc now;
    OK(cgn_kernel_exec_get(e1, n, &now));
    assert_ptr_equal(now.kernel_owner, k);
    assert_fill(NULL, n, env, 2, 77);
    assert_int_equal(run_u32(env, e1, 2), 77);
    OK(cgn_exec_destroy(e1));
    collect_all();
    assert_int_equal(unreleased(0, 2), 2); /* the definition holds both */
    cgn_exec *e3;
    OK(cgn_graph_instantiate(g, &e3));
    assert_int_equal(run_u32(env, e3, 2), 77);
    DESTROY_EXEC_GRAPH(e3, g);
    collect_all();
    assert_int_equal(unreleased(0, 2), 0);
}

/* Host callback arguments at executable level: a payload read back from an executable given back
 * to the same executable (and to another, and to the definition) with another function, many
 * times; user data with an owner replaced by a payload retires the owner, released once the
 * launch that passed it completed. */
static void test_exec_host_arguments(void **state) {
    cgn_test_env *env = *state;
    cgn_graph *g;
    OK(cgn_graph_create(&g));
    unsigned char bytes[8] = {0x41, 1, 2, 3, 4, 5, 6, 7};
    cgn_host_callback_desc hd = CGN_HOST_CALLBACK_DESC_INIT;
    hd.fn = cgn_test_callback(env, "record_a");
    hd.payload = bytes;
    hd.payload_size = sizeof bytes;
    cgn_node *h;
    OK(cgn_graph_add_host_callback(g, NULL, 0, &hd, &h));
    cgn_exec *e1, *e2;
    OK(cgn_graph_instantiate(g, &e1));
    OK(cgn_graph_instantiate(g, &e2));
    for (int i = 0; i < 6; i++) {
        cgn_host_callback_desc got;
        OK(cgn_host_callback_exec_get(e1, h, &got));
        cgn_host_callback_update u = CGN_HOST_CALLBACK_UPDATE_INIT;
        cgn_host_callback_update_set_fn(&u, cgn_test_callback(env, i % 2 ? "record_a" : "record_b"),
                                        NULL, NULL, got.payload, got.payload_size);
        /* got.payload is valid until e1's next update of the node: e1 last */
        OK(cgn_host_callback_exec_update(e2, h, &u));
        OK(cgn_host_callback_node_update(h, &u));
        OK(cgn_host_callback_exec_update(e1, h, &u));
        OK(cgn_host_callback_exec_get(e1, h, &got));
        assert_int_equal(got.payload_size, sizeof bytes);
        assert_memory_equal(got.payload, bytes, sizeof bytes);
        assert_int_equal(host_run_first(env, e1), 0x41);
        assert_int_equal(env->calls[0].callback, i % 2 ? 0 : 1);
    }
    cgn_owner *ud = mine(0);
    unsigned char user_bytes[1] = {0x5c};
    cgn_host_callback_update u = CGN_HOST_CALLBACK_UPDATE_INIT;
    cgn_host_callback_update_set_fn(&u, cgn_test_callback(env, "record_a"), user_bytes, ud, NULL,
                                    0);
    OK(cgn_host_callback_exec_update(e1, h, &u));
    drop(ud);
    cgn_host_callback_desc got;
    OK(cgn_host_callback_exec_get(e1, h, &got));
    assert_ptr_equal(got.user_data, user_bytes);
    assert_ptr_equal(got.user_data_owner, ud);
    assert_null(got.payload);
    hold();
    atomic_store(&env->num_calls, 0);
    OK(env->backend->launch_async(env, e1));
    assert_int_equal(env->calls[0].first, 0x5c);
    cgn_host_callback_update_set_fn(&u, cgn_test_callback(env, "record_b"), NULL, NULL, bytes, 1);
    OK(cgn_host_callback_exec_update(e1, h, &u));
    collect_all();
    assert_int_equal(released(0), 0);
    unhold();
    collect_all();
    assert_int_equal(released(0), 1);
    assert_int_equal(host_run_first(env, e1), 0x41);
    assert_int_equal(host_run_first(env, e2), 0x41);
    OK(cgn_exec_destroy(e1));
    DESTROY_EXEC_GRAPH(e2, g);
}

/* Memcpy operands and sizes at the executable level: CGN_ERROR_OUT_OF_RANGE for a copy from host
 * memory that would run past the end of the address space; CGN_ERROR_INVALID_VALUE for size 0,
 * an address nothing is mapped at, and a host copy running past its mapping; nothing changes. */
static void test_exec_memcpy_sizes(void **state) {
    cgn_test_env *env = *state;
    cgn_node *c;
    cgn_graph *g = memcpy_graph(env, cgn_test_host(env, 0), &c);
    cgn_exec *e;
    OK(cgn_graph_instantiate(g, &e));
    cgn_memcpy_update u = CGN_MEMCPY_UPDATE_INIT;
    cgn_memcpy_update_set_size(&u, SIZE_MAX - 4);
    cgn_fault_reset_counts();
    EXPECT_ST(CGN_ERROR_OUT_OF_RANGE, cgn_memcpy_exec_update(e, c, &u));
    assert_int_equal(cgn_fault_setter_calls(), 0);
    expect_prefix("cgn_memcpy_exec_update: ");
    cgn_memcpy_update_set_size(&u, 0);
    EXPECT_ST(CGN_ERROR_INVALID_VALUE, cgn_memcpy_exec_update(e, c, &u));
    expect_msg("size");
    /* CGN_ERROR_INVALID_VALUE: an address nothing is mapped at; a host operand whose last byte
     * is past the end of its mapping (errors.md names the byte) */
    cgn_memcpy_update bad = CGN_MEMCPY_UPDATE_INIT;
    cgn_memcpy_update_set_src(&bad, (CUdeviceptr)0x10, NULL);
    EXPECT_ST(CGN_ERROR_INVALID_VALUE, cgn_memcpy_exec_update(e, c, &bad));
    expect_msg("cgn_memcpy_exec_update: src 0x10 is neither memory the CUDA driver knows nor "
               "mapped host memory");
    long page = sysconf(_SC_PAGESIZE);
    unsigned char *map =
        mmap(NULL, (size_t)page * 2, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
    assert_true(map != MAP_FAILED);
    assert_int_equal(munmap(map + page, (size_t)page), 0);
    cgn_memcpy_update_reset(&bad);
    cgn_memcpy_update_set_src(&bad, (CUdeviceptr)(uintptr_t)(map + page - 4), NULL);
    EXPECT_ST(CGN_ERROR_INVALID_VALUE, cgn_memcpy_exec_update(e, c, &bad));
    expect_msgf("is host memory, but byte 7 of the copy (%p) is not mapped",
                (void *)(map + page + 3));
    cgn_memcpy_update_set_size(&bad, 4); /* fits the mapping: fine */
    OK(cgn_memcpy_exec_update(e, c, &bad));
    cgn_memcpy_update_reset(&bad);
    cgn_memcpy_update_set_src(&bad, cgn_test_host(env, 0), NULL);
    cgn_memcpy_update_set_size(&bad, 8);
    OK(cgn_memcpy_exec_update(e, c, &bad));
    assert_int_equal(munmap(map, (size_t)page), 0);
    cgn_memcpy_desc now;
    OK(cgn_memcpy_exec_get(e, c, &now));
    assert_int_equal(now.size, 8);
    assert_int_equal(now.src, cgn_test_host(env, 0));
    assert_int_equal(now.src_memory_type, CU_MEMORYTYPE_HOST);
    memset(env->host[0], 0x3c, 8);
    zero_buf(env, 1);
    OK(env->backend->launch(env, e));
    assert_int_equal(read_u32(env, 1), 0x3c3c3c3cu);
    DESTROY_EXEC_GRAPH(e, g);
}

/* A node destroyed in the definition after an executable-level update gave it an owner: the
 * executable can no longer address it (CGN_ERROR_DESTROYED at every executable-level call on it)
 * but keeps running its copy, and the owner stays until the executable and its launches are
 * gone; the executable's other nodes stay updatable. */
static void test_destroyed_node_keeps_exec_copy(void **state) {
    cgn_test_env *env = *state;
    cgn_graph *g;
    cgn_node *n, *k;
    cgn_exec *e;
    cgn_test_fill_graph(env, &g, &n, &e);
    OK(cgn_exec_destroy(e));
    cgn_memset_desc md = cgn_test_fill_desc(env, 3, 0x13, 0);
    OK(cgn_graph_add_memset(g, NULL, 0, &md, &k));
    OK(cgn_graph_instantiate(g, &e));
    cgn_owner *x = mine(0);
    MSET_DROP(e, n, env, 1, 0x21, x);
    OK(cgn_node_destroy(n));
    cgn_memset_desc d;
    EXPECT_ST(CGN_ERROR_DESTROYED, cgn_memset_exec_get(e, n, &d));
    expect_msgf("node %p was destroyed in its graph", (void *)n);
    int en = -1;
    EXPECT_ST(CGN_ERROR_DESTROYED, cgn_exec_node_get_enabled(e, n, &en));
    EXPECT_ST(CGN_ERROR_DESTROYED, cgn_exec_node_set_enabled(e, n, 0));
    assert_int_equal(en, -1);
    OK(mset(e, k, env, 2, 0x22, NULL));
    uint8_t got[CGN_TEST_NUM_BUFS];
    run_all(env, e, got);
    assert_int_equal(got[1], 0x21);
    assert_int_equal(got[2], 0x22);
    collect_all();
    assert_int_equal(released(0), 0);
    cgn_exec *fresh;
    OK(cgn_graph_instantiate(g, &fresh));
    run_all(env, fresh, got);
    assert_int_equal(got[1], 0);
    assert_int_equal(got[3], 0x13);
    OK(cgn_exec_destroy(fresh));
    hold();
    OK(env->backend->launch_async(env, e));
    OK(cgn_exec_destroy(e));
    collect_all();
    assert_int_equal(released(0), 0);
    unhold();
    collect_all();
    assert_int_equal(released(0), 1);
    OK(cgn_graph_destroy(g));
}

/* The production loop with a window of launches in flight: each step updates two nodes of one
 * executable with new owners and launches; once more than WINDOW launches are in flight the
 * oldest completes. Live executable-level owners stay at two per launch in flight plus the two
 * current ones, and exactly those of the steps whose launches have not completed (and the
 * current step's) are alive. */
#define WINDOW 3
static void test_sliding_window_bound(void **state) {
    cgn_test_env *env = *state;
    cgn_node *m, *k;
    cgn_graph *g = mixed_graph(env, 1, 1, &m, &k);
    cgn_exec *e;
    OK(cgn_graph_instantiate(g, &e));
    hold();
    int completed_steps = 0;
    for (int step = 0; step < 40; step++) {
        cgn_owner *a = mine(2 * step), *b = mine(2 * step + 1);
        OK(mset(e, m, env, 2, (uint32_t)step, a));
        OK(fill_edit(e, k, env, 3, (uint32_t)step, b));
        drop(a);
        drop(b);
        OK(env->backend->launch_async(env, e));
        if (cgn_fake_in_flight(NULL) > WINDOW) {
            assert_int_equal(cgn_fake_complete_launches(1), 1);
            completed_steps++;
        }
        collect_all();
        for (int s2 = 0; s2 <= step; s2++) {
            int alive = s2 >= completed_steps;
            if (released(2 * s2) != !alive || released(2 * s2 + 1) != !alive)
                fail_msg("step %d: owners of step %d released %d/%d times, alive %d", step, s2,
                         released(2 * s2), released(2 * s2 + 1), alive);
        }
        assert_true(unreleased(0, 2 * step + 2) <= 2 * (WINDOW + 1));
    }
    unhold();
    collect_all();
    assert_int_equal(unreleased(0, 78), 0);
    assert_int_equal(unreleased(78, 80), 2);
    DESTROY_EXEC_GRAPH(e, g);
    collect_all();
    assert_int_equal(unreleased(0, 80), 0);
}

/* An executable-level update with nothing set is CGN_OK without a driver call and changes
 * nothing (docs/nodes.md, "Partial updates"); an owner named twice in one version (a kernel's
 * kernel_owner and an argument's owner) is held while either use may run and released once. */
static void test_empty_update_and_owner_twice(void **state) {
    cgn_test_env *env = *state;
    cgn_node *n;
    cgn_exec *e;
    cgn_graph *g = fill_graph_exec(env, &n, &e);
    cgn_kernel_update none = CGN_KERNEL_UPDATE_INIT;
    cgn_fault_reset_counts();
    OK(cgn_kernel_exec_update(e, n, &none));
    assert_int_equal(cgn_fault_setter_calls(), 0);
    cgn_memset_update mnone = CGN_MEMSET_UPDATE_INIT;
    cgn_graph *mg;
    cgn_node *m;
    cgn_exec *me;
    cgn_test_fill_graph(env, &mg, &m, &me);
    OK(cgn_memset_exec_update(me, m, &mnone));
    assert_int_equal(cgn_fault_setter_calls(), 0);
    assert_fill(e, n, env, 0, 5);
    cgn_owner *o = mine(0);
    CUdeviceptr p = env->buf[1];
    uint32_t v = 8;
    cgn_arg args[2] = {{&p, sizeof p, o}, CGN_ARG(v)};
    cgn_kernel_update u = CGN_KERNEL_UPDATE_INIT;
    cgn_kernel_update_set_kernel(&u, cgn_test_kernel(env, "fill_u32"), o, args, 2);
    OK(cgn_kernel_exec_update(e, n, &u));
    drop(o);
    hold();
    OK(env->backend->launch_async(env, e));
    OK(fill_edit(e, n, env, 2, 9, NULL)); /* the argument's use goes, kernel_owner stays */
    unhold();
    collect_all();
    assert_int_equal(released(0), 0);
    cgn_kernel_desc d;
    OK(cgn_kernel_exec_get(e, n, &d));
    assert_ptr_equal(d.kernel_owner, o);
    hold();
    OK(env->backend->launch_async(env, e));
    cgn_kernel_update k = CGN_KERNEL_UPDATE_INIT;
    cgn_kernel_update_set_kernel(&k, cgn_test_kernel(env, "fill_u32"), NULL, args, 2);
    args[0].owner = NULL;
    OK(cgn_kernel_exec_update(e, n, &k));
    collect_all();
    assert_int_equal(released(0), 0); /* the launch in flight runs the version naming it */
    unhold();
    collect_all();
    assert_int_equal(released(0), 1);
    assert_int_equal(run_u32(env, e, 1), 8);
    OK(cgn_exec_destroy(e));
    DESTROY_EXEC_GRAPH(me, g);
    OK(cgn_graph_destroy(mg));
    collect_all();
    assert_int_equal(released(0), 1);
}

/* docs/ownership.md, "Synchronisation rules": an executable's update -> launch loop on one
 * thread, cgn_collect() on another and definition updates with new executables of the same
 * hierarchy on a third, at once. Every owner is released exactly once, on one of these user
 * threads, and each executable runs its own last parameters. */
#define LOOP_STEPS 150
typedef struct loop_arg {
    cgn_test_env *env;
    cgn_exec *e;
    cgn_node *n;
    atomic_int *stop;
    cgn_status status;
} loop_arg;

static void *exec_loop(void *arg) {
    loop_arg *a = arg;
    a->status = CGN_OK;
    for (int i = 0; i < LOOP_STEPS && a->status == CGN_OK; i++) {
        cgn_owner *o = NULL;
        a->status = cgn_owner_create((void *)(intptr_t)(100 + i), mine_release, &o);
        if (a->status == CGN_OK)
            a->status = mset(a->e, a->n, a->env, 1 + i % 2, (uint32_t)i & 0xff, o);
        if (o != NULL)
            (void)cgn_owner_release(o);
        if (a->status == CGN_OK)
            a->status = cgn_exec_launch(a->e, NULL);
    }
    atomic_store(a->stop, 1);
    return NULL;
}

static void *collect_loop(void *arg) {
    atomic_int *stop = arg;
    while (!atomic_load(stop))
        (void)cgn_collect();
    return NULL;
}

static void test_threads_exec_loop_collect_definition(void **state) {
    cgn_test_env *env = *state;
    /* The fault proxy counts calls in plain globals (single-threaded tests only): this test runs
     * on the fake's own table, which is thread-safe (the next test's setup installs the proxy
     * again). */
    cgn_driver_install(cgn_fake_table());
    atomic_store(&any_user_thread, 1);
    for (int i = 0; i < LOOP_STEPS; i++)
        atomic_store(&mine_released[100 + i], 0);
    cgn_graph *g;
    cgn_node *n;
    cgn_exec *e;
    cgn_test_fill_graph(env, &g, &n, &e);
    atomic_int stop = 0;
    loop_arg la = {env, e, n, &stop, CGN_ERROR_INVALID_ARGUMENT};
    pthread_t t1, t2;
    assert_int_equal(pthread_create(&t1, NULL, exec_loop, &la), 0);
    assert_int_equal(pthread_create(&t2, NULL, collect_loop, &stop), 0);
    int def_owners = 0;
    while (!atomic_load(&stop) && def_owners < 60) {
        cgn_owner *o = mine(def_owners);
        MSET_DROP(NULL, n, env, 3, 0x33, o);
        def_owners++;
        cgn_exec *x;
        OK(cgn_graph_instantiate(g, &x));
        OK(cgn_memset_exec_get(x, n, &(cgn_memset_desc){0}));
        OK(cgn_exec_destroy(x));
    }
    assert_int_equal(pthread_join(t1, NULL), 0);
    atomic_store(&stop, 1);
    assert_int_equal(pthread_join(t2, NULL), 0);
    OK(la.status);
    cgn_memset_desc d = mget(e, n);
    assert_int_equal(d.dst, env->buf[1 + (LOOP_STEPS - 1) % 2]);
    assert_int_equal(d.value, (uint32_t)(LOOP_STEPS - 1) & 0xff);
    DESTROY_EXEC_GRAPH(e, g);
    collect_all();
    for (int i = 0; i < LOOP_STEPS; i++)
        assert_int_equal(released(100 + i), 1);
    for (int i = 0; i < def_owners; i++)
        assert_int_equal(released(i), 1);
}

/* docs/ownership.md, "Node destroy drops the graph's reference": the owner of a node no
 * executable ever held goes when the node is destroyed, while executables of the graph live on;
 * the owner of a node an executable holds stays with that executable. */
static void test_node_destroy_releases_with_execs_alive(void **state) {
    cgn_test_env *env = *state;
    cgn_graph *g;
    cgn_node *n, *held, *late;
    cgn_exec *e;
    cgn_test_fill_graph(env, &g, &n, &e);
    OK(cgn_exec_destroy(e));
    cgn_owner *h = mine(0), *l = mine(1);
    cgn_memset_desc md = cgn_test_fill_desc(env, 2, 0x22, 0);
    md.dst_owner = h;
    OK(cgn_graph_add_memset(g, NULL, 0, &md, &held));
    OK(cgn_graph_instantiate(g, &e));
    md = cgn_test_fill_desc(env, 3, 0x33, 0);
    md.dst_owner = l;
    OK(cgn_graph_add_memset(g, NULL, 0, &md, &late));
    drop(h);
    drop(l);
    OK(cgn_node_destroy(late));
    OK(cgn_node_destroy(held));
    collect_all();
    assert_int_equal(released(1), 1);
    assert_int_equal(released(0), 0);
    uint8_t got[CGN_TEST_NUM_BUFS];
    run_all(env, e, got);
    assert_int_equal(got[2], 0x22);
    assert_int_equal(got[3], 0);
    OK(cgn_exec_destroy(e));
    collect_all();
    assert_int_equal(released(0), 1);
    OK(cgn_graph_destroy(g));
}

/* An executable of a graph with no nodes: launches, uploads and refreshes work; a node added
 * later is refused by the refresh (the message names it) and cannot be addressed; once it is
 * destroyed again the refresh succeeds. */
static void test_empty_graph_exec(void **state) {
    cgn_test_env *env = *state;
    cgn_graph *g;
    OK(cgn_graph_create(&g));
    cgn_exec *e;
    OK(cgn_graph_instantiate(g, &e));
    OK(cgn_exec_launch(e, NULL));
    OK(cgn_exec_upload(e, NULL));
    OK(cgn_exec_update_from_graph(e, g));
    cgn_memset_desc md = cgn_test_fill_desc(env, 0, 0x11, 0);
    cgn_node *n;
    OK(cgn_graph_add_memset(g, NULL, 0, &md, &n));
    EXPECT_ST(CGN_ERROR_INVALID_VALUE, cgn_exec_update_from_graph(e, g));
    expect_msgf("(node %p)", (void *)n);
    EXPECT_ST(CGN_ERROR_INVALID_ARGUMENT, mset(e, n, env, 1, 0x21, NULL));
    OK(cgn_node_destroy(n));
    OK(cgn_exec_update_from_graph(e, g));
    assert_int_equal(cgn_test_run_read(env, e, 0), 0);
    DESTROY_EXEC_GRAPH(e, g);
}

/* ==== found by this round (fixed) ============================================================ */

/* cgn_exec_destroy "does not block, except for an executable whose raw handle was taken or that
 * was adopted" (cgn.h) and "never blocks for cgn's own launches" (docs/ownership.md). An
 * executable launched by cgn_exec_launch before it held any executable-level version (so that
 * launch was not fenced) and then updated at executable level with an owner was destroyed with
 * cuCtxSynchronize: the call waited for every launch of the context, other executables'
 * included, although the only version cgn alone held was never seen by a launch. Now it goes
 * at once. */
static void test_destroy_after_unfenced_launch_does_not_block(void **state) {
    cgn_test_env *env = *state;
    cgn_graph *g, *h;
    cgn_node *n, *m;
    cgn_exec *e, *bystander;
    cgn_test_fill_graph(env, &g, &n, &e);
    cgn_test_fill_graph(env, &h, &m, &bystander);
    hold();
    OK(env->backend->launch_async(env, e)); /* nothing waits yet: no fence */
    OK(env->backend->launch_async(env, bystander));
    cgn_owner *x = mine(0);
    MSET_DROP(e, n, env, 1, 0x21, x);
    cgn_fault_reset_counts();
    OK(cgn_exec_destroy(e));
    long syncs = cgn_fault_calls(CGN_FAULT_cuCtxSynchronize);
    size_t still = cgn_fake_in_flight(NULL);
    unhold();
    collect_all();
    assert_int_equal(released(0), 1);
    DESTROY_EXEC_GRAPH(bystander, g);
    OK(cgn_graph_destroy(h));
    if (syncs != 0 || still != 2)
        fail_msg("cgn_exec_destroy made %ld cuCtxSynchronize calls; launches in flight after it: "
                 "%zu of 2",
                 syncs, still);
}

/* An executable-level update that replaces a version no launch saw did not release the
 * executable's retired versions whose launches completed, although docs/ownership.md said the
 * executable's own calls do. Every update that installs a version now polls; the docs now name
 * the calls that do (an update that keeps the owners, the loop's hot path, and enable/disable
 * do not). */
static void test_own_updates_release_completed_versions(void **state) {
    static const char *const names[] = {"", "", "",
                                        "", "", "exec update replacing an unseen version"};
    static const int calls[] = {5};
    char failed[256] = "";
    for (size_t i = 0; i < sizeof calls / sizeof calls[0]; i++) {
        int got = own_call_releases(*state, calls[i]);
        if (got != 1)
            snprintf(failed + strlen(failed), sizeof failed - strlen(failed), "%s%s (%d)",
                     failed[0] ? ", " : "", names[calls[i]], got);
    }
    if (failed[0])
        fail_msg("retired owner not released after: %s", failed);
}

int main(void) {
#define T(fn) cmocka_unit_test_setup_teardown(fn, setup4, teardown4)
    const struct CMUnitTest tests[] = {
        /* First, while the process has one thread: tests/valgrind.supp matches cgn's host
         * readability probe (write(2) of an unmapped byte) in a single-threaded process only; once
         * a thread was made, glibc's write shows as __libc_write and the probe is reported. */
        T(test_exec_memcpy_sizes),
        T(test_loop_retention_follows_completions),
        T(test_unseen_versions_released_at_once),
        T(test_upload_is_not_a_launch),
        T(test_two_execs_counted_apart),
        T(test_destroy_exec_then_graph_in_flight),
        T(test_graph_first_execs_in_either_order),
        T(test_shadows_per_exec),
        T(test_definition_owner_changes_stay_out_of_execs),
        T(test_refresh_retakes_every_node),
        T(test_enabled_state_per_exec),
        T(test_enable_types_and_messages),
        T(test_collect_count_and_thread),
        T(test_release_never_inside_host_callback),
        T(test_fences_only_while_versions_wait),
        T(test_raw_handle_stops_early_release),
        T(test_refusals_change_nothing),
        T(test_refresh_topology_messages),
        T(test_refresh_rule_refused_before_driver),
        T(test_memset_2d_exec_rules),
        T(test_memcpy_exec_memory_type_rule),
        T(test_kernel_context_messages),
        T(test_event_exec_refused_message),
        T(test_definition_level_messages),
        T(test_exec_updates_without_context),
        T(test_model_walk_exec_loop),
        T(test_refresh_in_flight_keeps_old_definition_version),
        T(test_exec_arg_edit_owners),
        T(test_exec_payload_copies),
        T(test_exec_update_faults_in_flight),
        T(test_refresh_faults_in_flight),
        T(test_stale_handles_after_slot_reuse),
        T(test_exec_child_refusals),
        T(test_exec_payload_out_of_memory),
        T(test_release_callback_updates_other_exec),
        T(test_own_calls_release_completed_versions),
        T(test_collect_on_another_thread),
        T(test_raw_handle_and_refresh),
        T(test_cross_exec_desc_copies),
        T(test_exec_host_arguments),
        T(test_destroyed_node_keeps_exec_copy),
        T(test_sliding_window_bound),
        T(test_empty_update_and_owner_twice),
        T(test_threads_exec_loop_collect_definition),
        T(test_node_destroy_releases_with_execs_alive),
        T(test_empty_graph_exec),
        T(test_destroy_after_unfenced_launch_does_not_block),
        T(test_own_updates_release_completed_versions),
    };
#undef T
    return cmocka_run_group_tests(tests, NULL, NULL);
}
