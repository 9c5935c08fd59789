/* Concurrency, on the fake driver (label unit; CI also runs it under ThreadSanitizer, .ci/tsan):
 * exactly what cgn.h and docs/ownership.md allow, on real threads released together by a
 * barrier, thousands of iterations each, with the results checked afterwards:
 * 1. a hierarchy's definition updated (and added to, instantiated, refreshed into that thread's
 *    own executable) on one thread while an executable made from it is updated (partial,
 *    owners changing or not, its child graph replaced), enabled/disabled and launched on
 *    another; cgn_exec_update_from_graph reads the definition, so only the definition's thread
 *    calls it;
 * 2. owners retained and released from many threads while updates, instantiations, launches
 *    and cgn_collect() run on others: every release callback runs once, after the last
 *    reference, never inside cgn_owner_retain/release or a driver callback;
 * 3. separate hierarchies on separate threads, each through the whole cycle;
 * 4. cgn_collect() on one thread while executables with retired versions are launched on
 *    others, with launches held in flight: no version goes before its launches completed.
 * Worker threads never call cmocka (it longjmps): they record the first failure, and the test
 * thread asserts on it after joining them. */
#include <pthread.h>
#include <sched.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stdatomic.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include <cmocka.h>

#include "cgn_test_env.h"
#include "cgn_test_fixture.h"
#include "fake_driver.h"
#include "runtime.h"

/* ---- failures from any thread ---------------------------------------------------------------- */

static atomic_int failures;
static char first_failure[512];
static pthread_mutex_t failure_lock = PTHREAD_MUTEX_INITIALIZER;

static void fail_at(int line, const char *what, const char *detail) {
    pthread_mutex_lock(&failure_lock);
    if (atomic_fetch_add(&failures, 1) == 0)
        snprintf(first_failure, sizeof first_failure, "test_threads.c:%d: %s%s%s", line, what,
                 detail ? ": " : "", detail ? detail : "");
    pthread_mutex_unlock(&failure_lock);
}

/* In worker threads: record and leave the loop (label `out`). */
#define CHECK(cond)                                                                                \
    do {                                                                                           \
        if (!(cond)) {                                                                             \
            fail_at(__LINE__, #cond, NULL);                                                        \
            goto out;                                                                              \
        }                                                                                          \
    } while (0)
#define CHECK_OK(call)                                                                             \
    do {                                                                                           \
        cgn_status check_st_ = (call);                                                             \
        if (check_st_ != CGN_OK) {                                                                 \
            fail_at(__LINE__, #call, cgn_last_error());                                            \
            goto out;                                                                              \
        }                                                                                          \
    } while (0)
/* In release callbacks: record only. */
#define VIOLATION(cond, what)                                                                      \
    do {                                                                                           \
        if (cond)                                                                                  \
            fail_at(__LINE__, what, NULL);                                                         \
    } while (0)

static int failed(void) {
    return atomic_load_explicit(&failures, memory_order_relaxed) != 0;
}

static void assert_no_failures(void) {
    int n = atomic_load(&failures);
    if (n != 0)
        fprintf(stderr, "%d failure(s); first: %s\n", n, first_failure);
    assert_int_equal(n, 0);
}

/* ---- threads --------------------------------------------------------------------------------- */

static pthread_barrier_t start_line;
static atomic_int stop_helpers;

typedef struct thread_spec {
    void *(*fn)(void *);
    void *arg;
} thread_spec;

/* Every thread starts with fake context 0 current (a new thread has none) and waits at the
 * barrier, so they all start at once. */
static void thread_context(void) {
    cgn_fake_set_current_context(cgn_fake_context(0));
}
static void thread_begin(void) {
    thread_context();
    pthread_barrier_wait(&start_line);
}

/* Runs the workers and the helpers (which loop until stop_helpers) together; returns once the
 * workers have finished and the helpers have stopped. */
static void run_threads(const thread_spec *workers, size_t num_workers, const thread_spec *helpers,
                        size_t num_helpers) {
    size_t n = num_workers + num_helpers;
    pthread_t *t = calloc(n, sizeof *t);
    assert_non_null(t);
    atomic_store(&stop_helpers, 0);
    assert_int_equal(pthread_barrier_init(&start_line, NULL, (unsigned)n), 0);
    for (size_t i = 0; i < n; i++) {
        const thread_spec *s = i < num_workers ? &workers[i] : &helpers[i - num_workers];
        assert_int_equal(pthread_create(&t[i], NULL, s->fn, s->arg), 0);
    }
    for (size_t i = 0; i < num_workers; i++)
        pthread_join(t[i], NULL);
    atomic_store(&stop_helpers, 1);
    for (size_t i = num_workers; i < n; i++)
        pthread_join(t[i], NULL);
    pthread_barrier_destroy(&start_line);
    free(t);
}

static uint32_t next_random(uint32_t *state) {
    uint32_t x = *state;
    x ^= x << 13;
    x ^= x >> 17;
    x ^= x << 5;
    return *state = x;
}

/* ---- owners the tests can watch -------------------------------------------------------------- */

#define BUF_BYTES 64

static _Thread_local int tl_in_owner_call; /* inside cgn_owner_retain or cgn_owner_release */
static atomic_long callbacks_run;

/* An owner whose resource is this record: a buffer (freed by the release callback) and what
 * the callback checks. */
typedef struct tracked {
    cgn_owner *owner;
    unsigned char *buf;
    atomic_int released;   /* release callback runs */
    atomic_int user_holds; /* references test threads hold (between retain and release) */
    /* Executable-level versions (test 4): the executable whose launches may read this owner's
     * version, and its launch count after the last launch that did. */
    CUgraphExec raw;
    size_t last_launch;
    atomic_int exec_gone;        /* that executable was destroyed */
    atomic_size_t gone_launches; /* its launches then */
} tracked;

static void tracked_released(void *resource) {
    tracked *t = resource;
    atomic_fetch_add(&callbacks_run, 1);
    VIOLATION(atomic_fetch_add(&t->released, 1) != 0, "a release callback ran twice");
    VIOLATION(cgn_fake_in_driver_callback(), "a release callback ran inside a driver callback");
    VIOLATION(tl_in_owner_call, "a release callback ran inside cgn_owner_retain/release");
    VIOLATION(atomic_load(&t->user_holds) != 0,
              "a release callback ran while a thread still held a reference");
    if (t->raw != NULL) {
        /* Launches in flight first: launches made meanwhile (on another thread) can only make
         * the count of completed ones look larger, never smaller. The fake forgets the launch
         * count of a destroyed executable (in flight or freed), so that comes from the test. */
        size_t flying = cgn_fake_in_flight(t->raw);
        size_t launched = cgn_fake_exec_launches(t->raw);
        if (launched == 0 && atomic_load(&t->exec_gone))
            launched = atomic_load(&t->gone_launches);
        VIOLATION(launched < flying || launched - flying < t->last_launch,
                  "an executable-level version was released before a launch that read it "
                  "completed");
    }
    if (t->buf != NULL) {
        memset(t->buf, 0xdd, BUF_BYTES); /* a launch writing it later is a use after free */
        free(t->buf);
    }
}

/* A new owner holding one reference, the calling thread's (counted in user_holds). */
static int tracked_init(tracked *t, int with_buf) {
    memset(t, 0, sizeof *t);
    atomic_init(&t->released, 0);
    atomic_init(&t->user_holds, 1);
    atomic_init(&t->exec_gone, 0);
    atomic_init(&t->gone_launches, 0);
    t->buf = with_buf ? calloc(1, BUF_BYTES) : NULL;
    if (with_buf && t->buf == NULL)
        return 0;
    return cgn_owner_create(t, tracked_released, &t->owner) == CGN_OK;
}

static cgn_status user_retain(tracked *t) {
    tl_in_owner_call = 1;
    cgn_status st = cgn_owner_retain(t->owner);
    tl_in_owner_call = 0;
    if (st == CGN_OK)
        atomic_fetch_add(&t->user_holds, 1);
    return st;
}

static cgn_status user_release(tracked *t) {
    atomic_fetch_sub(&t->user_holds, 1);
    tl_in_owner_call = 1;
    cgn_status st = cgn_owner_release(t->owner);
    tl_in_owner_call = 0;
    return st;
}

/* Collects until every owner has been released or a second has passed; then every owner must
 * have been released exactly once. */
static void assert_all_released_once(tracked *t, size_t n, const char *what) {
    for (int round = 0; round < 1000; round++) {
        cgn_collect();
        size_t done = 0;
        for (size_t i = 0; i < n; i++)
            done += atomic_load(&t[i].released) != 0;
        if (done == n)
            break;
        struct timespec ms = {0, 1000000};
        nanosleep(&ms, NULL);
    }
    for (size_t i = 0; i < n; i++) {
        int r = atomic_load(&t[i].released);
        if (r != 1)
            fprintf(stderr, "%s owner %zu of %zu: released %d times\n", what, i, n, r);
        assert_int_equal(r, 1);
    }
}

/* The host callback: records the first four bytes of its argument on the launching thread
 * (the fake runs host nodes inside cuGraphLaunch, on the caller's thread). */
static _Thread_local uint32_t tl_host_seen;
static void CUDA_CB host_record(void *data) {
    uint32_t v = 0;
    if (data != NULL)
        memcpy(&v, data, sizeof v);
    tl_host_seen = v;
}

static uint32_t read_u32(const unsigned char *p) {
    uint32_t v;
    memcpy(&v, p, sizeof v);
    return v;
}

static int all_bytes(const unsigned char *p, size_t n, unsigned char v) {
    for (size_t i = 0; i < n; i++)
        if (p[i] != v)
            return 0;
    return 1;
}

static unsigned char *buffer(cgn_test_env *env) {
    /* Marked as device memory: copies may write it. */
    return (unsigned char *)(uintptr_t)env->backend->alloc(env, BUF_BYTES);
}

static int setup(void **state) {
    int rc = cgn_test_fixture_setup(state);
    if (rc != 0)
        return rc;
    /* The fault-injecting proxy counts calls in plain globals: single-threaded tests only. */
    cgn_driver_install(cgn_fake_table());
    atomic_store(&failures, 0);
    atomic_store(&callbacks_run, 0);
    first_failure[0] = '\0';
    return 0;
}

/* ---- 1. definition and executable on different threads --------------------------------------- */

enum { DX_ITERS = 10000, DX_EXEC_OWNERS = DX_ITERS / 4 + 1, DX_MAX_ADDED = 8 };

typedef struct dx_shared {
    cgn_test_env *env;
    cgn_kernel fill, add_one;
    cgn_graph *g;
    /* memset, fill_u32 kernel, add_one kernel, child graph, memset inside the child's
     * embedding, host callback with payload, memcpy */
    cgn_node *m, *k, *a, *ch, *cm, *h, *c;
    cgn_exec *e; /* the executable thread's */
    /* The executable thread's own graph, topologically like the child's embedding. The fake
     * driver refuses cuGraphExecNodeSetParams for a node inside a child graph (cm), so that
     * thread changes the executable's child by replacing it with this graph. */
    cgn_graph *xchild;
    cgn_node *xchild_fill;
    tracked xc_owner;
    /* the definition thread's buffers and owners */
    unsigned char *dm[2], *dk, *da, *dc, *dsrc, *ddst;
    tracked dm_owner[2];
    /* the executable thread's */
    unsigned char *xk, *xa, *xc, *xsrc, *xdst;
    tracked xm[DX_EXEC_OWNERS];
    size_t xm_used;
    int exec_enabled_launches, def_launches;
} dx_shared;

static void *dx_exec_thread(void *arg) {
    dx_shared *s = arg;
    thread_begin();
    cgn_exec *e = s->e;
    CUdeviceptr xk = (CUdeviceptr)(uintptr_t)s->xk, xa = (CUdeviceptr)(uintptr_t)s->xa;
    tracked *cur = NULL;
    uint32_t host_expect = 0;
    /* Point every node of this executable at this thread's buffers. */
    {
        cgn_arg a_args[1] = {CGN_ARG(xa)};
        cgn_kernel_update ku = CGN_KERNEL_UPDATE_INIT;
        cgn_kernel_update_set_args(&ku, a_args, 1);
        CHECK_OK(cgn_kernel_exec_update(e, s->a, &ku));
        cgn_memcpy_update pu = CGN_MEMCPY_UPDATE_INIT;
        cgn_memcpy_update_set_src(&pu, (CUdeviceptr)(uintptr_t)s->xsrc, NULL);
        cgn_memcpy_update_set_dst(&pu, (CUdeviceptr)(uintptr_t)s->xdst, NULL);
        CHECK_OK(cgn_memcpy_exec_update(e, s->c, &pu));
    }
    for (int i = 0; i < DX_ITERS && !failed(); i++) {
        /* memset: value every time (owners unchanged), a new dst with a new owner every 4th */
        unsigned char v = (unsigned char)(i * 7 + 1);
        cgn_memset_update mu = CGN_MEMSET_UPDATE_INIT;
        tracked *fresh = NULL;
        if (i % 4 == 0) {
            fresh = &s->xm[s->xm_used++];
            CHECK(tracked_init(fresh, 1));
            cgn_memset_update_set_dst(&mu, (CUdeviceptr)(uintptr_t)fresh->buf, fresh->owner);
        }
        cgn_memset_update_set_value(&mu, v, 1);
        if (i % 64 == 0)
            cgn_memset_update_set_width(&mu, 16);
        CHECK_OK(cgn_memset_exec_update(e, s->m, &mu));
        if (fresh != NULL) {
            cur = fresh;
            CHECK_OK(user_release(fresh)); /* the executable holds it now */
        }
        /* fill_u32: new arguments (the kernel's sizes come from the shared argument block) */
        uint32_t kv = (uint32_t)i;
        cgn_arg k_args[2] = {CGN_ARG(xk), CGN_ARG(kv)};
        cgn_kernel_update ku = CGN_KERNEL_UPDATE_INIT;
        cgn_kernel_update_set_args(&ku, k_args, 2);
        if (i % 8 == 0)
            cgn_kernel_update_set_grid(&ku, CGN_DIM3(1 + (uint32_t)i % 3, 1, 1));
        CHECK_OK(cgn_kernel_exec_update(e, s->k, &ku));
        /* add_one: enabled on odd iterations */
        int enabled = i % 2;
        CHECK_OK(cgn_exec_node_set_enabled(e, s->a, enabled));
        s->exec_enabled_launches += enabled;
        /* the child: this thread's graph, changed, replaces the executable's copy */
        unsigned char cv = (unsigned char)(v ^ 0x55);
        cgn_memset_update cu = CGN_MEMSET_UPDATE_INIT;
        cgn_memset_update_set_value(&cu, cv, 1);
        CHECK_OK(cgn_memset_node_update(s->xchild_fill, &cu));
        cgn_child_graph_update chu = CGN_CHILD_GRAPH_UPDATE_INIT;
        cgn_child_graph_update_set_graph(&chu, s->xchild);
        CHECK_OK(cgn_child_graph_exec_update(e, s->ch, &chu));
        /* host callback: a new payload every 16th (cgn copies it) */
        if (i % 16 == 0) {
            uint32_t pv = 0xC0000000u | (uint32_t)i;
            cgn_host_callback_update hu = CGN_HOST_CALLBACK_UPDATE_INIT;
            cgn_host_callback_update_set_fn(&hu, host_record, NULL, NULL, &pv, sizeof pv);
            CHECK_OK(cgn_host_callback_exec_update(e, s->h, &hu));
            host_expect = pv;
        }
        /* memcpy: a new size */
        size_t size = 1 + (size_t)i % 8;
        cgn_memcpy_update pu = CGN_MEMCPY_UPDATE_INIT;
        cgn_memcpy_update_set_size(&pu, size);
        CHECK_OK(cgn_memcpy_exec_update(e, s->c, &pu));
        memset(s->xsrc, (unsigned char)(i + 3), BUF_BYTES);
        memset(s->xdst, 0, BUF_BYTES);
        tl_host_seen = 0;
        CHECK_OK(cgn_exec_launch(e, NULL));
        /* What ran is what this thread set, whatever the definition has meanwhile. */
        CHECK(all_bytes(cur->buf, 16, v));
        CHECK(read_u32(s->xk) == kv);
        CHECK((int)read_u32(s->xa) == s->exec_enabled_launches);
        CHECK(all_bytes(s->xc, 8, cv));
        CHECK(tl_host_seen == host_expect);
        CHECK(all_bytes(s->xdst, size, (unsigned char)(i + 3)));
        CHECK(all_bytes(s->xdst + size, BUF_BYTES - size, 0));
        if (i % 8 == 0) {
            cgn_memset_desc d;
            CHECK_OK(cgn_memset_exec_get(e, s->m, &d));
            CHECK(d.value == v && d.dst == (CUdeviceptr)(uintptr_t)cur->buf &&
                  d.dst_owner == cur->owner && d.width == 16);
            int on = -1;
            CHECK_OK(cgn_exec_node_get_enabled(e, s->a, &on));
            CHECK(on == enabled);
        }
    }
out:
    return NULL;
}

static void *dx_definition_thread(void *arg) {
    dx_shared *s = arg;
    thread_begin();
    CUdeviceptr dk = (CUdeviceptr)(uintptr_t)s->dk;
    cgn_exec *e2 = NULL; /* this thread's executable, refreshed from the definition */
    int added = 0, topology_changed = 0;
    unsigned char *dm_cur = s->dm[0];
    uint32_t host_expect = 0x0D0D0D0Du;
    CHECK_OK(cgn_graph_instantiate(s->g, &e2));
    for (int j = 0; j < DX_ITERS && !failed(); j++) {
        unsigned char v = (unsigned char)(j * 3 + 2);
        cgn_memset_update mu = CGN_MEMSET_UPDATE_INIT;
        if (j % 4 == 0) { /* owners change: a new attachment, the old one released by CUDA */
            int w = (j / 4) % 2;
            dm_cur = s->dm[w];
            cgn_memset_update_set_dst(&mu, (CUdeviceptr)(uintptr_t)s->dm[w], s->dm_owner[w].owner);
        }
        cgn_memset_update_set_value(&mu, v, 1);
        CHECK_OK(cgn_memset_node_update(s->m, &mu));
        uint32_t kv = 0x1000000u + (uint32_t)j;
        cgn_arg k_args[2] = {CGN_ARG(dk), CGN_ARG(kv)};
        cgn_kernel_update ku = CGN_KERNEL_UPDATE_INIT;
        cgn_kernel_update_set_args(&ku, k_args, 2);
        CHECK_OK(cgn_kernel_node_update(s->k, &ku));
        unsigned char cv = (unsigned char)(v ^ 0xAA);
        cgn_memset_update cu = CGN_MEMSET_UPDATE_INIT;
        cgn_memset_update_set_value(&cu, cv, 1);
        CHECK_OK(cgn_memset_node_update(s->cm, &cu));
        if (j % 8 == 0) {
            uint32_t pv = 0xD0000000u | (uint32_t)j;
            cgn_host_callback_update hu = CGN_HOST_CALLBACK_UPDATE_INIT;
            cgn_host_callback_update_set_fn(&hu, host_record, NULL, NULL, &pv, sizeof pv);
            CHECK_OK(cgn_host_callback_node_update(s->h, &hu));
            host_expect = pv;
        }
        size_t size = 1 + (size_t)(j * 5) % 8;
        cgn_memcpy_update pu = CGN_MEMCPY_UPDATE_INIT;
        cgn_memcpy_update_set_size(&pu, size);
        CHECK_OK(cgn_memcpy_node_update(s->c, &pu)); /* reads the node back from the driver */
        /* Adding nodes is a hierarchy operation allowed while the executable is updated. */
        if (j % 97 == 50 && added < DX_MAX_ADDED) {
            cgn_node *extra = NULL;
            CHECK_OK(cgn_graph_add_empty(s->g, &s->m, 1, &extra));
            added++;
            topology_changed = 1;
        }
        if (j % 16 == 15) {
            /* A refresh reads the definition: a hierarchy operation, on this thread. */
            cgn_status st = cgn_exec_update_from_graph(e2, s->g);
            if (topology_changed) {
                CHECK(st == CGN_ERROR_INVALID_VALUE);
                CHECK_OK(cgn_exec_destroy(e2));
                e2 = NULL;
                CHECK_OK(cgn_graph_instantiate(s->g, &e2));
                topology_changed = 0;
            } else {
                CHECK_OK(st);
            }
            memset(s->dsrc, (unsigned char)(j + 9), BUF_BYTES);
            memset(s->ddst, 0, BUF_BYTES);
            tl_host_seen = 0;
            CHECK_OK(cgn_exec_launch(e2, NULL));
            s->def_launches++;
            CHECK(all_bytes(dm_cur, 16, v));
            CHECK(read_u32(s->dk) == kv);
            CHECK((int)read_u32(s->da) == s->def_launches);
            CHECK(all_bytes(s->dc, 8, cv));
            CHECK(tl_host_seen == host_expect);
            CHECK(all_bytes(s->ddst, size, (unsigned char)(j + 9)));
            CHECK(all_bytes(s->ddst + size, BUF_BYTES - size, 0));
        }
        if (j % 8 == 0) {
            cgn_memset_desc d;
            CHECK_OK(cgn_memset_node_get(s->m, &d));
            CHECK(d.value == v && d.dst == (CUdeviceptr)(uintptr_t)dm_cur);
        }
    }
out:
    if (e2 != NULL && cgn_exec_destroy(e2) != CGN_OK)
        fail_at(__LINE__, "cgn_exec_destroy(e2)", cgn_last_error());
    return NULL;
}

static void test_definition_and_executable_on_two_threads(void **state) {
    cgn_test_env *env = *state;
    dx_shared *s = calloc(1, sizeof *s);
    assert_non_null(s);
    s->env = env;
    s->fill = cgn_test_kernel(env, "fill_u32");
    s->add_one = cgn_test_kernel(env, "add_one");
    for (int w = 0; w < 2; w++) {
        s->dm[w] = buffer(env);
        assert_true(tracked_init(&s->dm_owner[w], 0));
    }
    s->dk = buffer(env);
    s->da = buffer(env);
    s->dc = buffer(env);
    s->dsrc = calloc(1, BUF_BYTES); /* pageable host memory */
    s->ddst = buffer(env);
    s->xk = buffer(env);
    s->xa = buffer(env);
    s->xc = buffer(env);
    s->xsrc = calloc(1, BUF_BYTES);
    s->xdst = buffer(env);
    assert_true(s->dsrc != NULL && s->xsrc != NULL);

    OK(cgn_graph_create(&s->g));
    cgn_memset_desc md = CGN_MEMSET_DESC_INIT;
    md.dst = (CUdeviceptr)(uintptr_t)s->dm[0];
    md.dst_owner = s->dm_owner[0].owner;
    md.value = 2;
    md.width = 16;
    OK(cgn_graph_add_memset(s->g, NULL, 0, &md, &s->m));
    CUdeviceptr dk = (CUdeviceptr)(uintptr_t)s->dk, da = (CUdeviceptr)(uintptr_t)s->da;
    uint32_t zero = 0;
    cgn_arg k_args[2] = {CGN_ARG(dk), CGN_ARG(zero)};
    cgn_kernel_desc kd = CGN_KERNEL_DESC_INIT;
    kd.kernel = s->fill;
    kd.grid = kd.block = CGN_DIM3(1, 1, 1);
    kd.args = k_args;
    kd.num_args = 2;
    OK(cgn_graph_add_kernel(s->g, &s->m, 1, &kd, &s->k));
    cgn_arg a_args[1] = {CGN_ARG(da)};
    kd.kernel = s->add_one;
    kd.args = a_args;
    kd.num_args = 1;
    OK(cgn_graph_add_kernel(s->g, NULL, 0, &kd, &s->a));
    cgn_graph *child;
    cgn_node *child_fill;
    OK(cgn_graph_create(&child));
    cgn_memset_desc cd = CGN_MEMSET_DESC_INIT;
    cd.dst = (CUdeviceptr)(uintptr_t)s->dc;
    cd.value = 0x20;
    cd.width = 8;
    OK(cgn_graph_add_memset(child, NULL, 0, &cd, &child_fill));
    cgn_child_graph_desc chd = CGN_CHILD_GRAPH_DESC_INIT;
    chd.graph = child;
    OK(cgn_graph_add_child_graph(s->g, &s->k, 1, &chd, &s->ch));
    OK(cgn_child_graph_node_find(s->ch, child_fill, &s->cm));
    OK(cgn_graph_destroy(child));
    uint32_t payload = 0x0D0D0D0Du;
    cgn_host_callback_desc hd = CGN_HOST_CALLBACK_DESC_INIT;
    hd.fn = host_record;
    hd.payload = &payload;
    hd.payload_size = sizeof payload;
    OK(cgn_graph_add_host_callback(s->g, NULL, 0, &hd, &s->h));
    cgn_memcpy_desc pd = CGN_MEMCPY_DESC_INIT;
    pd.src = (CUdeviceptr)(uintptr_t)s->dsrc;
    pd.dst = (CUdeviceptr)(uintptr_t)s->ddst;
    pd.size = 8;
    OK(cgn_graph_add_memcpy(s->g, NULL, 0, &pd, &s->c));
    OK(cgn_graph_instantiate(s->g, &s->e));
    assert_true(tracked_init(&s->xc_owner, 0));
    OK(cgn_graph_create(&s->xchild));
    cd.dst = (CUdeviceptr)(uintptr_t)s->xc;
    cd.dst_owner = s->xc_owner.owner;
    OK(cgn_graph_add_memset(s->xchild, NULL, 0, &cd, &s->xchild_fill));

    thread_spec workers[2] = {{dx_exec_thread, s}, {dx_definition_thread, s}};
    run_threads(workers, 2, NULL, 0);
    assert_no_failures();

    /* The executable kept what its thread set last, whatever the definition did meanwhile. */
    cgn_memset_desc got;
    OK(cgn_memset_exec_get(s->e, s->m, &got));
    assert_int_equal(got.value, (unsigned char)((DX_ITERS - 1) * 7 + 1));
    OK(cgn_memset_node_get(s->m, &got));
    assert_int_equal(got.value, (unsigned char)((DX_ITERS - 1) * 3 + 2));
    assert_int_equal((int)read_u32(s->xa), DX_ITERS / 2);
    OK(cgn_exec_destroy(s->e));
    OK(cgn_graph_destroy(s->g));
    OK(cgn_graph_destroy(s->xchild));
    for (int w = 0; w < 2; w++)
        OK(user_release(&s->dm_owner[w]));
    OK(user_release(&s->xc_owner));
    assert_all_released_once(s->dm_owner, 2, "definition");
    assert_all_released_once(&s->xc_owner, 1, "child");
    assert_all_released_once(s->xm, s->xm_used, "executable");
    assert_no_failures();
    unsigned char *bufs[] = {s->dk, s->da, s->dc,   s->ddst,  s->xk,
                             s->xa, s->xc, s->xdst, s->dm[0], s->dm[1]};
    for (size_t i = 0; i < sizeof bufs / sizeof bufs[0]; i++)
        free(bufs[i]);
    free(s->dsrc);
    free(s->xsrc);
    free(s);
}

/* ---- 2. owners retained and released from many threads ------------------------------------- */

enum {
    OW_OWNERS = 32,
    OW_RETAINERS = 3,
    OW_RETAIN_ITERS = 50000,
    OW_UPDATE_ITERS = 8000,
    OW_INSTANTIATE_ITERS = 4000,
    OW_HOLDERS = OW_RETAINERS + 2 /* retainers, updater, instantiator */
};

typedef struct ow_shared {
    tracked owners[OW_OWNERS];
    uint32_t seed[OW_RETAINERS];
    atomic_int retainer_index;
} ow_shared;

/* Drops the reference this thread held on every owner since the start. */
static void ow_drop_base(ow_shared *s) {
    for (int i = 0; i < OW_OWNERS; i++)
        if (user_release(&s->owners[i]) != CGN_OK)
            fail_at(__LINE__, "user_release", cgn_last_error());
}

static void *ow_retainer(void *arg) {
    ow_shared *s = arg;
    int me = atomic_fetch_add(&s->retainer_index, 1);
    uint32_t rnd = 0x9E3779B9u * (uint32_t)(me + 1);
    thread_begin();
    for (int i = 0; i < OW_RETAIN_ITERS && !failed(); i++) {
        tracked *t = &s->owners[next_random(&rnd) % OW_OWNERS];
        int extra = 1 + (int)(next_random(&rnd) % 3);
        for (int k = 0; k < extra; k++)
            CHECK_OK(user_retain(t));
        /* The resource is alive while this thread holds a reference. */
        CHECK(cgn_owner_resource(t->owner) == t);
        CHECK(atomic_load(&t->released) == 0);
        for (int k = 0; k < extra; k++)
            CHECK_OK(user_release(t));
        if (i % 1024 == 0)
            sched_yield();
    }
out:
    ow_drop_base(s);
    return NULL;
}

/* Definition and executable updates moving the owners around, with launches and refreshes. */
static void *ow_updater(void *arg) {
    ow_shared *s = arg;
    thread_begin();
    cgn_graph *g = NULL;
    cgn_node *m = NULL;
    cgn_exec *e = NULL;
    CHECK_OK(cgn_graph_create(&g));
    cgn_memset_desc d = CGN_MEMSET_DESC_INIT;
    d.dst = (CUdeviceptr)(uintptr_t)s->owners[0].buf;
    d.dst_owner = s->owners[0].owner;
    d.value = 1;
    d.width = 8;
    CHECK_OK(cgn_graph_add_memset(g, NULL, 0, &d, &m));
    CHECK_OK(cgn_graph_instantiate(g, &e));
    for (int i = 0; i < OW_UPDATE_ITERS && !failed(); i++) {
        tracked *def = &s->owners[i % OW_OWNERS];
        tracked *ex = &s->owners[(i * 7 + 3) % OW_OWNERS];
        unsigned char v = (unsigned char)(i | 1);
        cgn_memset_update u = CGN_MEMSET_UPDATE_INIT;
        cgn_memset_update_set_dst(&u, (CUdeviceptr)(uintptr_t)def->buf, def->owner);
        CHECK_OK(cgn_memset_node_update(m, &u));
        cgn_memset_update x = CGN_MEMSET_UPDATE_INIT;
        cgn_memset_update_set_dst(&x, (CUdeviceptr)(uintptr_t)ex->buf, ex->owner);
        cgn_memset_update_set_value(&x, v, 1);
        CHECK_OK(cgn_memset_exec_update(e, m, &x));
        CHECK_OK(cgn_exec_launch(e, NULL));
        (void)v; /* other threads' launches write the same buffers: values are not checked */
        if (i % 16 == 15) {
            CHECK_OK(cgn_exec_update_from_graph(e, g)); /* the definition's owner now */
            CHECK_OK(cgn_exec_launch(e, NULL));
        }
    }
out:
    if (e != NULL && cgn_exec_destroy(e) != CGN_OK)
        fail_at(__LINE__, "cgn_exec_destroy", cgn_last_error());
    if (g != NULL && cgn_graph_destroy(g) != CGN_OK)
        fail_at(__LINE__, "cgn_graph_destroy", cgn_last_error());
    ow_drop_base(s);
    return NULL;
}

/* Instantiations: each executable takes the graph's owners, and gives them up when destroyed. */
static void *ow_instantiator(void *arg) {
    ow_shared *s = arg;
    thread_begin();
    cgn_graph *g = NULL;
    cgn_node *m[2] = {NULL, NULL};
    CHECK_OK(cgn_graph_create(&g));
    for (int k = 0; k < 2; k++) {
        cgn_memset_desc d = CGN_MEMSET_DESC_INIT;
        d.dst = (CUdeviceptr)(uintptr_t)s->owners[k].buf;
        d.dst_owner = s->owners[k].owner;
        d.value = 1;
        d.width = 4;
        CHECK_OK(cgn_graph_add_memset(g, NULL, 0, &d, &m[k]));
    }
    for (int i = 0; i < OW_INSTANTIATE_ITERS && !failed(); i++) {
        tracked *t = &s->owners[(i * 5 + 1) % OW_OWNERS];
        cgn_memset_update u = CGN_MEMSET_UPDATE_INIT;
        cgn_memset_update_set_dst(&u, (CUdeviceptr)(uintptr_t)t->buf, t->owner);
        CHECK_OK(cgn_memset_node_update(m[i % 2], &u));
        cgn_exec *e = NULL;
        CHECK_OK(cgn_graph_instantiate(g, &e));
        cgn_status st = cgn_exec_launch(e, NULL);
        if (i % 3 == 0) { /* an executable-level owner change on this one too */
            tracked *x = &s->owners[(i * 11 + 2) % OW_OWNERS];
            cgn_memset_update xu = CGN_MEMSET_UPDATE_INIT;
            cgn_memset_update_set_dst(&xu, (CUdeviceptr)(uintptr_t)x->buf, x->owner);
            if (st == CGN_OK)
                st = cgn_memset_exec_update(e, m[0], &xu);
            if (st == CGN_OK)
                st = cgn_exec_launch(e, NULL);
        }
        cgn_status dst = cgn_exec_destroy(e);
        CHECK_OK(st);
        CHECK_OK(dst);
    }
out:
    if (g != NULL && cgn_graph_destroy(g) != CGN_OK)
        fail_at(__LINE__, "cgn_graph_destroy", cgn_last_error());
    ow_drop_base(s);
    return NULL;
}

static atomic_long collections;

static void *collector(void *arg) {
    (void)arg;
    thread_begin();
    do {
        cgn_collect();
        atomic_fetch_add(&collections, 1);
        sched_yield();
    } while (!atomic_load(&stop_helpers));
    return NULL;
}

static void test_owners_from_many_threads(void **state) {
    (void)state;
    ow_shared *s = calloc(1, sizeof *s);
    assert_non_null(s);
    for (int i = 0; i < OW_OWNERS; i++) {
        assert_true(tracked_init(&s->owners[i], 1));
        /* One reference per thread that uses it (the creator's is the first). */
        for (int k = 1; k < OW_HOLDERS; k++)
            OK(user_retain(&s->owners[i]));
    }
    thread_spec workers[OW_HOLDERS];
    for (int i = 0; i < OW_RETAINERS; i++)
        workers[i] = (thread_spec){ow_retainer, s};
    workers[OW_RETAINERS] = (thread_spec){ow_updater, s};
    workers[OW_RETAINERS + 1] = (thread_spec){ow_instantiator, s};
    thread_spec helpers[1] = {{collector, NULL}};
    atomic_store(&collections, 0);
    run_threads(workers, OW_HOLDERS, helpers, 1);
    assert_no_failures();
    assert_true(atomic_load(&collections) > 0);
    assert_all_released_once(s->owners, OW_OWNERS, "shared");
    assert_no_failures();
    free(s);
}

/* ---- 3. separate hierarchies on separate threads ------------------------------------------- */

enum { SEP_THREADS = 4, SEP_CYCLES = 1000 };

typedef struct sep_thread {
    cgn_kernel fill;
    unsigned char *k_buf, *c_buf;
    tracked owners[SEP_CYCLES];
    int used;
} sep_thread;

static void *sep_cycle_thread(void *arg) {
    sep_thread *s = arg;
    thread_begin();
    CUdeviceptr kb = (CUdeviceptr)(uintptr_t)s->k_buf;
    for (int i = 0; i < SEP_CYCLES && !failed(); i++) {
        cgn_graph *g = NULL, *child = NULL;
        cgn_exec *e = NULL;
        cgn_node *m, *k, *h, *ch, *child_fill, *cm;
        tracked *t = &s->owners[s->used++];
        CHECK(tracked_init(t, 1));
        /* add */
        CHECK_OK(cgn_graph_create(&g));
        cgn_memset_desc md = CGN_MEMSET_DESC_INIT;
        md.dst = (CUdeviceptr)(uintptr_t)t->buf;
        md.dst_owner = t->owner;
        md.value = 1;
        md.width = 16;
        CHECK_OK(cgn_graph_add_memset(g, NULL, 0, &md, &m));
        CHECK_OK(user_release(t)); /* the graph holds it */
        uint32_t kv = 1;
        cgn_arg args[2] = {CGN_ARG_OWNED(kb, NULL), CGN_ARG(kv)};
        cgn_kernel_desc kd = CGN_KERNEL_DESC_INIT;
        kd.kernel = s->fill;
        kd.grid = kd.block = CGN_DIM3(1, 1, 1);
        kd.args = args;
        kd.num_args = 2;
        CHECK_OK(cgn_graph_add_kernel(g, &m, 1, &kd, &k));
        uint32_t payload = 7;
        cgn_host_callback_desc hd = CGN_HOST_CALLBACK_DESC_INIT;
        hd.fn = host_record;
        hd.payload = &payload;
        hd.payload_size = sizeof payload;
        CHECK_OK(cgn_graph_add_host_callback(g, &k, 1, &hd, &h));
        CHECK_OK(cgn_graph_create(&child));
        cgn_memset_desc cd = CGN_MEMSET_DESC_INIT;
        cd.dst = (CUdeviceptr)(uintptr_t)s->c_buf;
        cd.value = 3;
        cd.width = 8;
        CHECK_OK(cgn_graph_add_memset(child, NULL, 0, &cd, &child_fill));
        cgn_child_graph_desc chd = CGN_CHILD_GRAPH_DESC_INIT;
        chd.graph = child;
        CHECK_OK(cgn_graph_add_child_graph(g, &h, 1, &chd, &ch));
        CHECK_OK(cgn_child_graph_node_find(ch, child_fill, &cm));
        CHECK_OK(cgn_graph_destroy(child));
        child = NULL;
        /* update the definition */
        unsigned char v = (unsigned char)(i * 13 + 5);
        cgn_memset_update mu = CGN_MEMSET_UPDATE_INIT;
        cgn_memset_update_set_value(&mu, v, 1);
        CHECK_OK(cgn_memset_node_update(m, &mu));
        kv = 0x2000000u + (uint32_t)i;
        cgn_kernel_update ku = CGN_KERNEL_UPDATE_INIT;
        cgn_kernel_update_set_args(&ku, args, 2);
        CHECK_OK(cgn_kernel_node_update(k, &ku));
        payload = 0xE0000000u | (uint32_t)i;
        cgn_host_callback_update hu = CGN_HOST_CALLBACK_UPDATE_INIT;
        cgn_host_callback_update_set_fn(&hu, host_record, NULL, NULL, &payload, sizeof payload);
        CHECK_OK(cgn_host_callback_node_update(h, &hu));
        unsigned char cv = (unsigned char)(v + 1);
        cgn_memset_update cu = CGN_MEMSET_UPDATE_INIT;
        cgn_memset_update_set_value(&cu, cv, 1);
        CHECK_OK(cgn_memset_node_update(cm, &cu));
        /* instantiate, update the executable, launch */
        CHECK_OK(cgn_graph_instantiate(g, &e));
        unsigned char xv = (unsigned char)(v ^ 0xFF);
        cgn_memset_update xu = CGN_MEMSET_UPDATE_INIT;
        cgn_memset_update_set_value(&xu, xv, 1);
        CHECK_OK(cgn_memset_exec_update(e, m, &xu));
        uint32_t xk = kv + 1;
        cgn_arg xargs[2] = {CGN_ARG(kb), CGN_ARG(xk)};
        cgn_kernel_update xku = CGN_KERNEL_UPDATE_INIT;
        cgn_kernel_update_set_args(&xku, xargs, 2);
        CHECK_OK(cgn_kernel_exec_update(e, k, &xku));
        tl_host_seen = 0;
        CHECK_OK(cgn_exec_launch(e, NULL));
        CHECK(all_bytes(t->buf, 16, xv));
        CHECK(read_u32(s->k_buf) == xk);
        CHECK(tl_host_seen == payload);
        CHECK(all_bytes(s->c_buf, 8, cv));
        /* the definition moves on; a refresh brings the executable to it */
        unsigned char v2 = (unsigned char)(v + 77);
        cgn_memset_update mu2 = CGN_MEMSET_UPDATE_INIT;
        cgn_memset_update_set_value(&mu2, v2, 1);
        CHECK_OK(cgn_memset_node_update(m, &mu2));
        CHECK_OK(cgn_exec_launch(e, NULL));
        CHECK(all_bytes(t->buf, 16, xv)); /* not yet */
        CHECK_OK(cgn_exec_update_from_graph(e, g));
        CHECK_OK(cgn_exec_node_set_enabled(e, k, 0));
        memset(s->k_buf, 0, 4);
        CHECK_OK(cgn_exec_launch(e, NULL));
        CHECK(all_bytes(t->buf, 16, v2));
        CHECK(read_u32(s->k_buf) == 0); /* disabled */
        /* destroy, in either order */
        if (i % 2) {
            CHECK_OK(cgn_graph_destroy(g));
            g = NULL;
            CHECK_OK(cgn_exec_launch(e, NULL)); /* the executable outlives its graph */
            CHECK_OK(cgn_memset_exec_update(e, m, &xu));
            CHECK_OK(cgn_exec_launch(e, NULL));
            CHECK(all_bytes(t->buf, 16, xv));
        }
        CHECK_OK(cgn_exec_destroy(e));
        e = NULL;
        if (g != NULL)
            CHECK_OK(cgn_graph_destroy(g));
        g = NULL;
        continue;
    out:
        if (e != NULL)
            (void)cgn_exec_destroy(e);
        if (g != NULL)
            (void)cgn_graph_destroy(g);
        if (child != NULL)
            (void)cgn_graph_destroy(child);
        break;
    }
    return NULL;
}

static void test_separate_hierarchies_on_separate_threads(void **state) {
    cgn_test_env *env = *state;
    sep_thread *s = calloc(SEP_THREADS, sizeof *s);
    assert_non_null(s);
    thread_spec workers[SEP_THREADS];
    for (int i = 0; i < SEP_THREADS; i++) {
        s[i].fill = cgn_test_kernel(env, "fill_u32");
        s[i].k_buf = buffer(env);
        s[i].c_buf = buffer(env);
        workers[i] = (thread_spec){sep_cycle_thread, &s[i]};
    }
    thread_spec helpers[1] = {{collector, NULL}};
    run_threads(workers, SEP_THREADS, helpers, 1);
    assert_no_failures();
    for (int i = 0; i < SEP_THREADS; i++) {
        assert_int_equal(s[i].used, SEP_CYCLES);
        assert_all_released_once(s[i].owners, (size_t)s[i].used, "cycle");
        free(s[i].k_buf);
        free(s[i].c_buf);
    }
    assert_no_failures();
    free(s);
}

/* ---- 4. cgn_collect() while executables with retired versions are launched ------------------ */

enum { RET_LAUNCHERS = 3, RET_ITERS = 6000 };

typedef struct ret_thread {
    tracked owners[RET_ITERS + 1];
    int used;
    uint64_t launches;
} ret_thread;

static void *ret_launcher(void *arg) {
    ret_thread *s = arg;
    thread_context();
    cgn_graph *g = NULL;
    cgn_node *m = NULL;
    cgn_exec *e = NULL;
    CUgraphExec raw = NULL;
    int waited = 0;
    tracked *first = &s->owners[s->used++];
    CHECK(tracked_init(first, 1));
    CHECK_OK(cgn_graph_create(&g));
    cgn_memset_desc d = CGN_MEMSET_DESC_INIT;
    d.dst = (CUdeviceptr)(uintptr_t)first->buf;
    d.dst_owner = first->owner;
    d.value = 1;
    d.width = 32;
    CHECK_OK(cgn_graph_add_memset(g, NULL, 0, &d, &m));
    CHECK_OK(user_release(first));
    CHECK_OK(cgn_graph_instantiate(g, &e));
    CHECK_OK(cgn_graph_destroy(g)); /* the executable alone holds the first owner now */
    g = NULL;
    /* The raw handle from the record: cgn_exec_raw would stop all releases. Every launcher
     * instantiates before the start, so no executable is made after one was destroyed (the
     * fake could reuse its address, and the release check asks the fake by address). */
    raw = cgn__exec_record(e)->raw;
    pthread_barrier_wait(&start_line);
    waited = 1;
    for (int i = 0; i < RET_ITERS && !failed(); i++) {
        tracked *t = &s->owners[s->used++];
        CHECK(tracked_init(t, 1));
        t->raw = raw;
        unsigned char v = (unsigned char)(i * 11 + 3);
        cgn_memset_update u = CGN_MEMSET_UPDATE_INIT;
        cgn_memset_update_set_dst(&u, (CUdeviceptr)(uintptr_t)t->buf, t->owner);
        cgn_memset_update_set_value(&u, v, 1);
        /* the previous version retires: launches in flight may still read it */
        CHECK_OK(cgn_memset_exec_update(e, m, &u));
        CHECK_OK(user_release(t));
        int launches = 1 + i % 2;
        for (int k = 0; k < launches; k++) {
            CHECK_OK(cgn_exec_launch(e, NULL));
            s->launches++;
            t->last_launch = cgn_fake_exec_launches(raw);
            CHECK(all_bytes(t->buf, 32, v));
        }
        if (i % 64 == 0)
            sched_yield();
    }
out:
    if (!waited)
        pthread_barrier_wait(&start_line); /* the others wait for this thread */
    if (e != NULL) {
        /* Launches may be in flight: what the executable held goes after they complete. */
        for (int i = 0; i < s->used; i++) {
            atomic_store(&s->owners[i].gone_launches, (size_t)s->launches);
            atomic_store(&s->owners[i].exec_gone, 1);
        }
        if (cgn_exec_destroy(e) != CGN_OK)
            fail_at(__LINE__, "cgn_exec_destroy", cgn_last_error());
    }
    if (g != NULL)
        (void)cgn_graph_destroy(g);
    return NULL;
}

/* Completes launches a few at a time, oldest first, as a GPU would. */
static void *completer(void *arg) {
    (void)arg;
    uint32_t rnd = 12345;
    thread_begin();
    while (!atomic_load(&stop_helpers)) {
        cgn_fake_complete_launches(1 + next_random(&rnd) % 4);
        sched_yield();
    }
    return NULL;
}

static void test_collect_while_retired_versions_launch(void **state) {
    (void)state;
    ret_thread *s = calloc(RET_LAUNCHERS, sizeof *s);
    assert_non_null(s);
    cgn_fake_hold_completion(1); /* global: every launch stays in flight until completed */
    thread_spec workers[RET_LAUNCHERS];
    for (int i = 0; i < RET_LAUNCHERS; i++)
        workers[i] = (thread_spec){ret_launcher, &s[i]};
    thread_spec helpers[2] = {{collector, NULL}, {completer, NULL}};
    atomic_store(&collections, 0);
    run_threads(workers, RET_LAUNCHERS, helpers, 2);
    cgn_fake_hold_completion(0);
    cgn_fake_complete_pending();
    assert_no_failures();
    assert_true(atomic_load(&collections) > 0);
    for (int i = 0; i < RET_LAUNCHERS; i++) {
        assert_int_equal(s[i].used, RET_ITERS + 1);
        assert_int_equal(s[i].launches, RET_ITERS / 2 * 3);
        assert_all_released_once(s[i].owners, (size_t)s[i].used, "retired");
    }
    assert_int_equal(cgn_fake_in_flight(NULL), 0);
    assert_no_failures();
    free(s);
}

int main(void) {
#define T(fn) cmocka_unit_test_setup_teardown(fn, setup, cgn_test_fixture_teardown)
    const struct CMUnitTest tests[] = {
        T(test_definition_and_executable_on_two_threads),
        T(test_owners_from_many_threads),
        T(test_separate_hierarchies_on_separate_threads),
        T(test_collect_while_retired_versions_launch),
    };
#undef T
    return cmocka_run_group_tests(tests, NULL, NULL);
}
