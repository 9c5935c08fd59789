/* Concurrency tests of cgn on a real GPU: only what docs/ownership.md and docs/guide.md allow
 * (each case quotes the sentence it relies on). Written from the documentation and the public
 * API; modelled on test_blackbox_gpu.c (context through examples/cgn_cuda.h, extra raw calls
 * through cgn_driver_proc, the embedded kernels cgn_test_kernels_fatbin).
 *
 * Worker threads never call cmocka's fail functions (they longjmp on the main thread's stack):
 * each records its first failure in its own message buffer, sets a global abort flag so the
 * other threads stop early, and returns; the main thread joins every thread and then fails.
 *
 * Release callbacks never call blocking CUDA functions: they count themselves, note whether they
 * run on a user thread (a thread-local flag every thread this program starts sets, which CUDA's
 * own threads never have), whether they run inside a host function, and, where a test gives
 * every launch an event, whether the last launch using the owner had completed
 * (cuEventQuery == CUDA_SUCCESS, asked again for up to about 1 s, since cgn's own fence precedes
 * the test's event in the stream). Buffers are freed by the tests once their streams are idle.
 *
 * Streams are non-blocking; every check synchronises its stream before the synchronous
 * cuMemcpyDtoH that reads the result. Without a usable device the program exits 77. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>

#include <cmocka.h>

#include <pthread.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include <cudaTypedefs.h>

#include "cgn/cgn.h"
#include "cgn_cuda.h"
#include "gpu_test_common.h" /* OK, CU, gpu_test_resolve */

static cgn_cuda cu;
static PFN_cuCtxGetCurrent_v4000 p_cuCtxGetCurrent;
static PFN_cuMemsetD32Async_v3020 p_cuMemsetD32Async;
static CUlibrary lib;
static CUkernel k_fill;
static int driver_version;

/* Set when any thread fails: the others stop their loops early. */
static atomic_int g_abort;

/* 1 on every thread this program runs cgn on (main included); CUDA's threads have 0. */
static _Thread_local int tls_user;
/* 1 while a host function of this program calls cgn_owner_release. */
static _Thread_local int tls_in_hostfn;
/* Which of this program's threads: 0 CUDA/unknown, 1 main, 2 worker, 3 collector. */
static _Thread_local int tls_kind;

/* ---- checks on the main thread --------------------------------------------------------------- */

/* ---- checks on worker threads: record, flag, leave through `out:` ------------------------- */

typedef struct werr {
    char msg[512];
} werr;

#define W_FAIL(w, ...)                                                                             \
    do {                                                                                           \
        if ((w)->msg[0] == '\0')                                                                   \
            snprintf((w)->msg, sizeof(w)->msg, __VA_ARGS__);                                       \
        atomic_store(&g_abort, 1);                                                                 \
        goto out;                                                                                  \
    } while (0)

#define W_OK(w, call)                                                                              \
    do {                                                                                           \
        cgn_status w_st_ = (call);                                                                 \
        if (w_st_ != CGN_OK)                                                                       \
            W_FAIL(w, "%s:%d: %s -> %s: %s", __FILE__, __LINE__, #call, cgn_status_name(w_st_),    \
                   cgn_last_error());                                                              \
    } while (0)

#define W_CU(w, call)                                                                              \
    do {                                                                                           \
        CUresult w_r_ = (call);                                                                    \
        if (w_r_ != CUDA_SUCCESS)                                                                  \
            W_FAIL(w, "%s:%d: %s returned CUresult %d", __FILE__, __LINE__, #call, (int)w_r_);     \
    } while (0)

static void expect_no_werr(const werr *w, const char *who) {
    if (w->msg[0] != '\0')
        fail_msg("%s: %s", who, w->msg);
}

static void start_thread(pthread_t *t, void *(*fn)(void *), void *arg) {
    int rc = pthread_create(t, NULL, fn, arg);
    if (rc != 0)
        fail_msg("pthread_create failed: %s", strerror(rc));
}

static void join_thread(pthread_t t) {
    int rc = pthread_join(t, NULL);
    if (rc != 0)
        fail_msg("pthread_join failed: %s", strerror(rc));
}

static void sleep_ms(long ms) {
    struct timespec ts = {ms / 1000, (ms % 1000) * 1000000L};
    nanosleep(&ts, NULL);
}

/* At most 2,000 cycles a loop; CGN_TEST_LOOP_CYCLES asks for fewer (the compute-sanitizer run
 * in bench/run_device.sh sets 1000), never fewer than 64. */
static int loop_cycles(void) {
    const char *env = getenv("CGN_TEST_LOOP_CYCLES");
    long n = env != NULL ? strtol(env, NULL, 10) : 2000;
    return n < 64 ? 64 : n > 2000 ? 2000 : (int)n;
}

enum { SYNC_EVERY = 64 };

/* ---- release tracking ------------------------------------------------------------------------ */

typedef struct tracker tracker;
typedef struct slot {
    tracker *t;
    int idx;
} slot;

struct tracker {
    int n;                /* slots */
    slot *slots;          /* the resource of owner i is &slots[i] */
    atomic_int *released; /* per slot */
    CUevent *ev;          /* per slot, or NULL: recorded after each launch using owner i */
    atomic_int total, early, lagged, not_user, in_hostfn;
    atomic_int by_kind[4];
};

static void release_cb(void *resource) {
    slot *s = resource;
    tracker *t = s->t;
    if (!tls_user)
        atomic_fetch_add(&t->not_user, 1);
    if (tls_in_hostfn)
        atomic_fetch_add(&t->in_hostfn, 1);
    atomic_fetch_add(&t->by_kind[tls_kind & 3], 1);
    if (t->ev != NULL && t->ev[s->idx] != NULL) {
        /* Non-blocking: CUDA_SUCCESS once the last launch using this owner has completed (or
         * no launch used it). cgn's own fence is recorded inside cgn_exec_launch, before this
         * event, so the GPU may pass the fence a moment before it passes this event: a
         * NOT_READY answer is asked again (at most about 1 s) before it counts as early. */
        CUresult q = cu.cuEventQuery(t->ev[s->idx]);
        if (q == CUDA_ERROR_NOT_READY) {
            atomic_fetch_add(&t->lagged, 1);
            for (int k = 0; k < 10000 && q == CUDA_ERROR_NOT_READY; k++) {
                struct timespec ts = {0, 100000L};
                nanosleep(&ts, NULL);
                q = cu.cuEventQuery(t->ev[s->idx]);
            }
        }
        if (q != CUDA_SUCCESS)
            atomic_fetch_add(&t->early, 1);
    }
    atomic_fetch_add(&t->released[s->idx], 1);
    atomic_fetch_add(&t->total, 1);
}

/* Main thread, context current. */
static void tracker_init(tracker *t, int n, int with_events) {
    memset(t, 0, sizeof *t);
    t->n = n;
    t->slots = calloc((size_t)n, sizeof *t->slots);
    t->released = calloc((size_t)n, sizeof *t->released);
    assert_non_null(t->slots);
    assert_non_null(t->released);
    for (int i = 0; i < n; i++) {
        t->slots[i].t = t;
        t->slots[i].idx = i;
        atomic_init(&t->released[i], 0);
    }
    atomic_init(&t->total, 0);
    atomic_init(&t->early, 0);
    atomic_init(&t->lagged, 0);
    atomic_init(&t->not_user, 0);
    atomic_init(&t->in_hostfn, 0);
    for (int k = 0; k < 4; k++)
        atomic_init(&t->by_kind[k], 0);
    if (with_events) {
        t->ev = calloc((size_t)n, sizeof *t->ev);
        assert_non_null(t->ev);
        for (int i = 0; i < n; i++)
            CU(cu.cuEventCreate(&t->ev[i], CU_EVENT_DISABLE_TIMING));
    }
}

static void tracker_free(tracker *t) {
    if (t->ev != NULL) {
        for (int i = 0; i < t->n; i++)
            if (t->ev[i] != NULL)
                CU(cu.cuEventDestroy(t->ev[i]));
        free(t->ev);
    }
    free(t->slots);
    free((void *)t->released);
    memset(t, 0, sizeof *t);
}

/* guide.md: "at shutdown, after synchronising the streams, call cgn_collect() until what you
 * wait for has been released". At most about 10 s. */
static int collect_until(atomic_int *counter, int want) {
    for (int i = 0; i < 10000; i++) {
        if (atomic_load(counter) >= want)
            break;
        if (cgn_collect() == 0)
            sleep_ms(1);
    }
    cgn_collect();
    return atomic_load(counter);
}

/* Every one of the first `used` owners released exactly once, on a user thread, outside host
 * functions, and (with events) never before the last launch using it had completed. */
static void tracker_expect(tracker *t, int used, const char *what) {
    int total = collect_until(&t->total, used);
    if (total != used)
        fail_msg("%s: expected %d releases, got %d", what, used, total);
    for (int i = 0; i < t->n; i++) {
        int r = atomic_load(&t->released[i]);
        if (r != (i < used ? 1 : 0))
            fail_msg("%s: owner %d released %d times", what, i, r);
    }
    if (atomic_load(&t->not_user) != 0)
        fail_msg("%s: %d release callbacks ran on a thread that is not a user thread", what,
                 atomic_load(&t->not_user));
    if (atomic_load(&t->in_hostfn) != 0)
        fail_msg("%s: %d release callbacks ran inside a host function", what,
                 atomic_load(&t->in_hostfn));
    if (atomic_load(&t->early) != 0)
        fail_msg("%s: %d owners released while a launch using them had not completed "
                 "(its event still not complete about 1 s later)",
                 what, atomic_load(&t->early));
    if (atomic_load(&t->lagged) != 0)
        print_message("%s: %d releases saw their launch's event complete only a moment later\n",
                      what, atomic_load(&t->lagged));
}

/* ---- helpers -------------------------------------------------------------------------------- */

static CUdeviceptr dalloc(void) {
    CUdeviceptr p = 0;
    CU(cu.cuMemAlloc(&p, sizeof(unsigned)));
    CU(cu.cuMemsetD8(p, 0, sizeof(unsigned)));
    /* the memset may still be queued on the legacy stream, which does not order the tests'
     * non-blocking streams: wait for it */
    CU(cu.cuStreamSynchronize(NULL));
    return p;
}

static unsigned read_u32(CUdeviceptr p) {
    unsigned v = 0;
    CU(cu.cuMemcpyDtoH(&v, p, sizeof v));
    return v;
}

static CUstream new_stream(void) {
    CUstream s = NULL;
    CU(cu.cuStreamCreate(&s, CU_STREAM_NON_BLOCKING));
    return s;
}

static CUcontext current_ctx_main(void) {
    CUcontext c = NULL;
    CU(p_cuCtxGetCurrent(&c));
    return c;
}

/* fill_u32(out, value) as a CUkernel node of one thread. */
static cgn_kernel_desc fill_desc(const cgn_arg *args) {
    cgn_kernel_desc d = CGN_KERNEL_DESC_INIT;
    d.kernel = CGN_KERNEL(k_fill);
    d.grid = CGN_DIM3(1, 1, 1);
    d.block = CGN_DIM3(1, 1, 1);
    d.args = args;
    d.num_args = 2;
    return d;
}

/* Makes the primary context current on a worker thread and marks it a user thread. */
#define W_ENTER(w, kind)                                                                           \
    do {                                                                                           \
        tls_user = 1;                                                                              \
        tls_kind = (kind);                                                                         \
        W_CU(w, cu.cuCtxSetCurrent(cu.context));                                                   \
    } while (0)

static int teardown(void **state) {
    (void)state;
    cu.cuCtxSetCurrent(cu.context);
    cgn_collect();
    atomic_store(&g_abort, 0);
    return 0;
}

/* ===== 1: independent graphs, executables and streams on N threads ========================= */

/* ownership.md, Synchronisation rules: "Different hierarchies may be used from different
 * threads." ; "Retired versions are released once no launch can read them." ;
 * "When the last reference goes, release_fn(resource) runs once." */
enum { C1_THREADS = 4 };
typedef struct c1_worker {
    werr w;
    int cycles;
    CUstream s;
    CUdeviceptr buf[2];
    tracker t;
    int used; /* owners created */
} c1_worker;

static void *c1_main(void *arg) {
    c1_worker *c = arg;
    cgn_graph *g = NULL;
    cgn_node *n = NULL;
    cgn_exec *e = NULL;
    cgn_owner *o = NULL;
    W_ENTER(&c->w, 2);
    unsigned expect[2] = {0, 0};
    int cur = 0;    /* slot of the owner the executable's current version holds */
    int curbuf = 0; /* buffer it writes */
    W_OK(&c->w, cgn_owner_create(&c->t.slots[0], release_cb, &o));
    c->used = 1;
    W_OK(&c->w, cgn_graph_create(&g));
    unsigned zero = 0;
    cgn_arg args[2] = {CGN_ARG_OWNED(c->buf[0], o), CGN_ARG(zero)};
    cgn_kernel_desc d = fill_desc(args);
    W_OK(&c->w, cgn_graph_add_kernel(g, NULL, 0, &d, &n));
    cgn_owner *first = o;
    o = NULL;
    W_OK(&c->w, cgn_owner_release(first));
    W_OK(&c->w, cgn_graph_instantiate(g, &e));
    cgn_kernel_update u = CGN_KERNEL_UPDATE_INIT;
    for (unsigned i = 1; i <= (unsigned)c->cycles && !atomic_load(&g_abort); i++) {
        cgn_kernel_update_reset(&u);
        if (i % 2 == 0) { /* a new pointer with a new owner, and a new value */
            cur = c->used;
            W_OK(&c->w, cgn_owner_create(&c->t.slots[cur], release_cb, &o));
            c->used++;
            curbuf = (int)((i / 2) % 2);
            cgn_kernel_update_set_arg(&u, 0, &c->buf[curbuf], sizeof c->buf[curbuf], o);
        }
        cgn_kernel_update_set_arg(&u, 1, &i, sizeof i, NULL); /* a new scalar */
        W_OK(&c->w, cgn_kernel_exec_update(e, n, &u));
        if (o != NULL) {
            cgn_owner *mine = o;
            o = NULL;
            W_OK(&c->w, cgn_owner_release(mine)); /* the executable holds it now */
        }
        W_OK(&c->w, cgn_exec_launch(e, c->s));
        W_CU(&c->w, cu.cuEventRecord(c->t.ev[cur], c->s));
        expect[curbuf] = i;
        if (i % SYNC_EVERY == 0 || i == (unsigned)c->cycles) {
            W_CU(&c->w, cu.cuStreamSynchronize(c->s));
            for (int b = 0; b < 2; b++) {
                unsigned got = 0;
                W_CU(&c->w, cu.cuMemcpyDtoH(&got, c->buf[b], sizeof got));
                if (got != expect[b])
                    W_FAIL(&c->w, "cycle %u: buffer %d holds %u, expected %u", i, b, got,
                           expect[b]);
            }
        }
    }
out:
    if (o != NULL)
        cgn_owner_release(o);
    if (cu.context != NULL)
        cu.cuStreamSynchronize(c->s);
    if (e != NULL && cgn_exec_destroy(e) != CGN_OK && c->w.msg[0] == '\0')
        snprintf(c->w.msg, sizeof c->w.msg, "cgn_exec_destroy: %s", cgn_last_error());
    if (g != NULL && cgn_graph_destroy(g) != CGN_OK && c->w.msg[0] == '\0')
        snprintf(c->w.msg, sizeof c->w.msg, "cgn_graph_destroy: %s", cgn_last_error());
    return NULL;
}

static void test_independent_update_launch_loops(void **state) {
    (void)state;
    const int cycles = loop_cycles();
    static c1_worker c[C1_THREADS];
    pthread_t th[C1_THREADS];
    for (int k = 0; k < C1_THREADS; k++) {
        memset(&c[k], 0, sizeof c[k]);
        c[k].cycles = cycles;
        c[k].s = new_stream();
        c[k].buf[0] = dalloc();
        c[k].buf[1] = dalloc();
        tracker_init(&c[k].t, 2 + cycles / 2, 1);
    }
    for (int k = 0; k < C1_THREADS; k++)
        start_thread(&th[k], c1_main, &c[k]);
    for (int k = 0; k < C1_THREADS; k++)
        join_thread(th[k]);
    for (int k = 0; k < C1_THREADS; k++)
        expect_no_werr(&c[k].w, "update+launch worker");
    for (int k = 0; k < C1_THREADS; k++) {
        CU(cu.cuStreamSynchronize(c[k].s));
        tracker_expect(&c[k].t, c[k].used, "update+launch worker owners");
        if (c[k].used != 1 + cycles / 2)
            fail_msg("worker %d created %d owners, expected %d", k, c[k].used, 1 + cycles / 2);
    }
    for (int k = 0; k < C1_THREADS; k++) {
        tracker_free(&c[k].t);
        CU(cu.cuMemFree(c[k].buf[0]));
        CU(cu.cuMemFree(c[k].buf[1]));
        CU(cu.cuStreamDestroy(c[k].s));
    }
}

/* ===== 2: definition updates while executables of the graph launch ========================= */

/* ownership.md, Synchronisation rules: "A hierarchy and the executables made from it **may** be
 * used from different threads at once: executable-level calls never read the definition (they
 * use the executable's own copies)." kernel.h (cgn_kernel_node_update): "future instantiations
 * see it, existing executables keep their parameters and owners." */
enum { C2_EXECS = 3 };
typedef struct c2_launcher {
    werr w;
    cgn_exec *e;
    CUstream s;
    CUdeviceptr buf;
    unsigned want;
    int cycles;
} c2_launcher;

static void *c2_launch_main(void *arg) {
    c2_launcher *l = arg;
    W_ENTER(&l->w, 2);
    for (int i = 1; i <= l->cycles && !atomic_load(&g_abort); i++) {
        W_CU(&l->w, p_cuMemsetD32Async(l->buf, 0, 1, l->s));
        W_OK(&l->w, cgn_exec_launch(l->e, l->s));
        if (i % 16 == 0 || i == l->cycles) {
            W_CU(&l->w, cu.cuStreamSynchronize(l->s));
            unsigned got = 0;
            W_CU(&l->w, cu.cuMemcpyDtoH(&got, l->buf, sizeof got));
            if (got != l->want)
                W_FAIL(&l->w, "launch %d: the executable wrote %u, expected its own %u", i, got,
                       l->want);
        }
    }
out:
    return NULL;
}

typedef struct c2_updater {
    werr w;
    cgn_node *n;
    CUdeviceptr buf[2];
    tracker *t;
    int first_slot;
    int used;
    int updates;
    CUdeviceptr last_ptr;
    unsigned last_value;
} c2_updater;

static void *c2_update_main(void *arg) {
    c2_updater *up = arg;
    cgn_owner *o = NULL;
    W_ENTER(&up->w, 2);
    cgn_kernel_update u = CGN_KERNEL_UPDATE_INIT;
    for (int i = 0; i < up->updates && !atomic_load(&g_abort); i++) {
        unsigned v = 5000u + (unsigned)i;
        cgn_kernel_update_reset(&u);
        if (i % 2 == 0) {
            W_OK(&up->w,
                 cgn_owner_create(&up->t->slots[up->first_slot + up->used], release_cb, &o));
            up->used++;
            up->last_ptr = up->buf[(i / 2) % 2];
            cgn_kernel_update_set_arg(&u, 0, &up->last_ptr, sizeof up->last_ptr, o);
        }
        cgn_kernel_update_set_arg(&u, 1, &v, sizeof v, NULL);
        W_OK(&up->w, cgn_kernel_node_update(up->n, &u));
        up->last_value = v;
        if (o != NULL) {
            cgn_owner *mine = o;
            o = NULL;
            W_OK(&up->w, cgn_owner_release(mine));
        }
    }
out:
    if (o != NULL)
        cgn_owner_release(o);
    return NULL;
}

static void test_definition_updates_while_launching(void **state) {
    (void)state;
    const int cycles = loop_cycles();
    tracker t;
    tracker_init(&t, 1 + C2_EXECS + cycles / 2 + 1, 0);
    int used = 0;
    CUdeviceptr dbuf[2] = {dalloc(), dalloc()};
    static c2_launcher l[C2_EXECS];
    cgn_graph *g;
    cgn_node *n;
    cgn_owner *o;
    OK(cgn_graph_create(&g));
    OK(cgn_owner_create(&t.slots[used], release_cb, &o));
    used++;
    unsigned seven = 7;
    cgn_arg args[2] = {CGN_ARG_OWNED(dbuf[0], o), CGN_ARG(seven)};
    cgn_kernel_desc d = fill_desc(args);
    OK(cgn_graph_add_kernel(g, NULL, 0, &d, &n));
    OK(cgn_owner_release(o));
    for (int j = 0; j < C2_EXECS; j++) {
        memset(&l[j], 0, sizeof l[j]);
        l[j].s = new_stream();
        l[j].buf = dalloc();
        l[j].want = 100u + (unsigned)j;
        l[j].cycles = cycles;
        OK(cgn_owner_create(&t.slots[used], release_cb, &o));
        used++;
        cgn_kernel_update u = CGN_KERNEL_UPDATE_INIT;
        cgn_kernel_update_set_arg(&u, 0, &l[j].buf, sizeof l[j].buf, o);
        cgn_kernel_update_set_arg(&u, 1, &l[j].want, sizeof l[j].want, NULL);
        OK(cgn_kernel_node_update(n, &u));
        OK(cgn_owner_release(o));
        OK(cgn_graph_instantiate(g, &l[j].e));
    }
    c2_updater up;
    memset(&up, 0, sizeof up);
    up.n = n;
    up.buf[0] = dbuf[0];
    up.buf[1] = dbuf[1];
    up.t = &t;
    up.first_slot = used;
    up.updates = cycles;
    pthread_t th[C2_EXECS + 1];
    start_thread(&th[C2_EXECS], c2_update_main, &up);
    for (int j = 0; j < C2_EXECS; j++)
        start_thread(&th[j], c2_launch_main, &l[j]);
    for (int j = 0; j <= C2_EXECS; j++)
        join_thread(th[j]);
    expect_no_werr(&up.w, "definition updater");
    for (int j = 0; j < C2_EXECS; j++)
        expect_no_werr(&l[j].w, "launcher");
    used += up.used;
    /* the executables still hold the owners of their own versions (slots 1 .. C2_EXECS) */
    cgn_collect();
    for (int j = 0; j < C2_EXECS; j++)
        if (atomic_load(&t.released[1 + j]) != 0)
            fail_msg("the owner of executable %d's version was released while it exists", j);
    /* the definition ends with the last update */
    cgn_kernel_desc got;
    OK(cgn_kernel_node_get(n, &got));
    assert_int_equal(got.num_args, 2);
    CUdeviceptr gp;
    unsigned gv;
    memcpy(&gp, got.args[0].value, sizeof gp);
    memcpy(&gv, got.args[1].value, sizeof gv);
    assert_true(gp == up.last_ptr);
    assert_int_equal(gv, up.last_value);
    assert_int_equal(up.last_value, 5000u + (unsigned)cycles - 1u);
    /* and a new executable runs it */
    cgn_exec *fresh;
    OK(cgn_graph_instantiate(g, &fresh));
    OK(cgn_exec_launch(fresh, l[0].s));
    CU(cu.cuStreamSynchronize(l[0].s));
    assert_int_equal(read_u32(up.last_ptr), up.last_value);
    /* the old executables still run their own parameters */
    for (int j = 0; j < C2_EXECS; j++) {
        CU(cu.cuMemsetD8(l[j].buf, 0, sizeof(unsigned)));
        CU(cu.cuStreamSynchronize(NULL)); /* the legacy stream does not order l[j].s */
        OK(cgn_exec_launch(l[j].e, l[j].s));
        CU(cu.cuStreamSynchronize(l[j].s));
        assert_int_equal(read_u32(l[j].buf), l[j].want);
    }
    OK(cgn_exec_destroy(fresh));
    for (int j = 0; j < C2_EXECS; j++)
        OK(cgn_exec_destroy(l[j].e));
    OK(cgn_graph_destroy(g));
    tracker_expect(&t, used, "definition owners");
    tracker_free(&t);
    for (int j = 0; j < C2_EXECS; j++) {
        CU(cu.cuMemFree(l[j].buf));
        CU(cu.cuStreamDestroy(l[j].s));
    }
    CU(cu.cuMemFree(dbuf[0]));
    CU(cu.cuMemFree(dbuf[1]));
}

/* ===== 3: cgn_collect on a dedicated thread during an update+launch loop =================== */

/* guide.md: "`cgn_collect()` may run on any thread that may call CUDA (not in a host callback);
 * it never waits for an executable another thread is using." ownership.md: release callbacks
 * "only ever run **on a user thread inside a cgn call that may itself call CUDA, or in
 * `cgn_collect()`**". */
typedef struct c3_state {
    werr w;
    atomic_int stop;
    atomic_int collects;
    int cycles;
    CUstream s;
    CUdeviceptr buf;
    tracker t;
    int used;
} c3_state;

static void *c3_collector(void *arg) {
    c3_state *c = arg;
    tls_user = 1;
    tls_kind = 3;
    if (cu.cuCtxSetCurrent(cu.context) != CUDA_SUCCESS) {
        atomic_store(&g_abort, 1);
        return (void *)1;
    }
    while (!atomic_load(&c->stop)) {
        if (cgn_collect() == 0) {
            struct timespec ts = {0, 20000L}; /* nothing released: let the worker run */
            nanosleep(&ts, NULL);
        }
        atomic_fetch_add(&c->collects, 1);
    }
    return NULL;
}

static void *c3_worker(void *arg) {
    c3_state *c = arg;
    cgn_graph *g = NULL;
    cgn_node *n = NULL;
    cgn_exec *e = NULL;
    cgn_owner *o = NULL;
    W_ENTER(&c->w, 2);
    W_OK(&c->w, cgn_graph_create(&g));
    unsigned zero = 0;
    cgn_arg args[2] = {CGN_ARG(c->buf), CGN_ARG(zero)};
    cgn_kernel_desc d = fill_desc(args);
    W_OK(&c->w, cgn_graph_add_kernel(g, NULL, 0, &d, &n));
    W_OK(&c->w, cgn_graph_instantiate(g, &e));
    cgn_kernel_update u = CGN_KERNEL_UPDATE_INIT;
    for (unsigned i = 0; i < (unsigned)c->cycles && !atomic_load(&g_abort); i++) {
        int cur = c->used;
        W_OK(&c->w, cgn_owner_create(&c->t.slots[cur], release_cb, &o));
        c->used++;
        cgn_kernel_update_reset(&u);
        cgn_kernel_update_set_arg(&u, 0, &c->buf, sizeof c->buf, o);
        cgn_kernel_update_set_arg(&u, 1, &i, sizeof i, NULL);
        W_OK(&c->w, cgn_kernel_exec_update(e, n, &u));
        cgn_owner *mine = o;
        o = NULL;
        W_OK(&c->w, cgn_owner_release(mine));
        W_OK(&c->w, cgn_exec_launch(e, c->s));
        W_CU(&c->w, cu.cuEventRecord(c->t.ev[cur], c->s));
        if ((i + 1) % SYNC_EVERY == 0 || i + 1 == (unsigned)c->cycles) {
            W_CU(&c->w, cu.cuStreamSynchronize(c->s));
            unsigned got = 0;
            W_CU(&c->w, cu.cuMemcpyDtoH(&got, c->buf, sizeof got));
            if (got != i)
                W_FAIL(&c->w, "cycle %u: buffer holds %u", i, got);
        }
    }
out:
    if (o != NULL)
        cgn_owner_release(o);
    cu.cuStreamSynchronize(c->s);
    if (e != NULL && cgn_exec_destroy(e) != CGN_OK && c->w.msg[0] == '\0')
        snprintf(c->w.msg, sizeof c->w.msg, "cgn_exec_destroy: %s", cgn_last_error());
    if (g != NULL && cgn_graph_destroy(g) != CGN_OK && c->w.msg[0] == '\0')
        snprintf(c->w.msg, sizeof c->w.msg, "cgn_graph_destroy: %s", cgn_last_error());
    return NULL;
}

static void test_collect_thread_during_loop(void **state) {
    (void)state;
    static c3_state c;
    memset(&c, 0, sizeof c);
    atomic_init(&c.stop, 0);
    atomic_init(&c.collects, 0);
    c.cycles = loop_cycles();
    c.s = new_stream();
    c.buf = dalloc();
    tracker_init(&c.t, c.cycles, 1);
    pthread_t tc, tw;
    start_thread(&tc, c3_collector, &c);
    start_thread(&tw, c3_worker, &c);
    join_thread(tw);
    atomic_store(&c.stop, 1);
    void *crc = NULL;
    int rc = pthread_join(tc, &crc);
    if (rc != 0)
        fail_msg("pthread_join failed: %s", strerror(rc));
    if (crc != NULL)
        fail_msg("%s", "collector thread: cuCtxSetCurrent failed");
    expect_no_werr(&c.w, "update+launch worker");
    CU(cu.cuStreamSynchronize(c.s));
    tracker_expect(&c.t, c.cycles, "fresh owners with a collector thread");
    print_message("collector: %d cgn_collect calls; releases on main %d, worker %d, collector %d\n",
                  atomic_load(&c.collects), atomic_load(&c.t.by_kind[1]),
                  atomic_load(&c.t.by_kind[2]), atomic_load(&c.t.by_kind[3]));
    tracker_free(&c.t);
    CU(cu.cuMemFree(c.buf));
    CU(cu.cuStreamDestroy(c.s));
}

/* ===== 4: cgn_owner_release from a host function =========================================== */

/* ownership.md: "`cgn_owner_release` may be called from any thread, CUDA's host-callback
 * threads included. It never runs a callback itself: when it drops the last reference it pushes
 * the owner onto a second lock-free queue." ; "Both queues are drained at the start of cgn calls
 * that add, update, destroy, instantiate or launch, and by `cgn_collect()`." */
static atomic_int hc_runs, hc_errors, hc_null;

static void CUDA_CB hc_release(void *user_data) {
    if (user_data == NULL) {
        atomic_fetch_add(&hc_null, 1);
    } else {
        tls_in_hostfn = 1;
        if (cgn_owner_release(user_data) != CGN_OK)
            atomic_fetch_add(&hc_errors, 1);
        tls_in_hostfn = 0;
    }
    atomic_fetch_add(&hc_runs, 1);
}

typedef struct c4_state {
    werr w;
    int cycles;
    CUstream s;
    CUdeviceptr buf;
    tracker t;
    int used;
} c4_state;

static void *c4_worker(void *arg) {
    c4_state *c = arg;
    cgn_graph *g = NULL;
    cgn_node *kn = NULL, *hn = NULL;
    cgn_exec *e = NULL;
    cgn_owner *o = NULL;
    W_ENTER(&c->w, 2);
    W_OK(&c->w, cgn_graph_create(&g));
    unsigned zero = 0;
    cgn_arg args[2] = {CGN_ARG(c->buf), CGN_ARG(zero)};
    cgn_kernel_desc d = fill_desc(args);
    W_OK(&c->w, cgn_graph_add_kernel(g, NULL, 0, &d, &kn));
    cgn_host_callback_desc hd = CGN_HOST_CALLBACK_DESC_INIT;
    hd.fn = hc_release;
    hd.user_data = NULL;
    W_OK(&c->w, cgn_graph_add_host_callback(g, &kn, 1, &hd, &hn));
    W_OK(&c->w, cgn_graph_instantiate(g, &e));
    cgn_kernel_update ku = CGN_KERNEL_UPDATE_INIT;
    cgn_host_callback_update hu = CGN_HOST_CALLBACK_UPDATE_INIT;
    for (unsigned i = 0; i < (unsigned)c->cycles && !atomic_load(&g_abort); i++) {
        /* the launch's host function drops the only reference to owner i */
        W_OK(&c->w, cgn_owner_create(&c->t.slots[c->used], release_cb, &o));
        c->used++;
        cgn_host_callback_update_reset(&hu);
        cgn_host_callback_update_set_fn(&hu, hc_release, o, NULL, NULL, 0);
        W_OK(&c->w, cgn_host_callback_exec_update(e, hn, &hu));
        cgn_kernel_update_reset(&ku);
        cgn_kernel_update_set_arg(&ku, 1, &i, sizeof i, NULL);
        W_OK(&c->w, cgn_kernel_exec_update(e, kn, &ku));
        o = NULL; /* handed to the launch */
        W_OK(&c->w, cgn_exec_launch(e, c->s));
        if ((i + 1) % SYNC_EVERY == 0 || i + 1 == (unsigned)c->cycles) {
            W_CU(&c->w, cu.cuStreamSynchronize(c->s));
            unsigned got = 0;
            W_CU(&c->w, cu.cuMemcpyDtoH(&got, c->buf, sizeof got));
            if (got != i)
                W_FAIL(&c->w, "cycle %u: buffer holds %u", i, got);
            if (atomic_load(&hc_runs) != (int)i + 1)
                W_FAIL(&c->w, "cycle %u: the host function ran %d times, expected %u", i,
                       atomic_load(&hc_runs), i + 1);
        }
    }
out:
    if (o != NULL)
        cgn_owner_release(o);
    cu.cuStreamSynchronize(c->s);
    if (e != NULL && cgn_exec_destroy(e) != CGN_OK && c->w.msg[0] == '\0')
        snprintf(c->w.msg, sizeof c->w.msg, "cgn_exec_destroy: %s", cgn_last_error());
    if (g != NULL && cgn_graph_destroy(g) != CGN_OK && c->w.msg[0] == '\0')
        snprintf(c->w.msg, sizeof c->w.msg, "cgn_graph_destroy: %s", cgn_last_error());
    return NULL;
}

static void test_owner_release_from_host_function(void **state) {
    (void)state;
    static c4_state c;
    memset(&c, 0, sizeof c);
    atomic_store(&hc_runs, 0);
    atomic_store(&hc_errors, 0);
    atomic_store(&hc_null, 0);
    c.cycles = loop_cycles();
    c.s = new_stream();
    c.buf = dalloc();
    tracker_init(&c.t, c.cycles, 0);
    pthread_t tw;
    start_thread(&tw, c4_worker, &c);
    join_thread(tw);
    expect_no_werr(&c.w, "host-function worker");
    CU(cu.cuStreamSynchronize(c.s));
    assert_int_equal(atomic_load(&hc_errors), 0);
    assert_int_equal(atomic_load(&hc_null), 0);
    assert_int_equal(atomic_load(&hc_runs), c.cycles);
    tracker_expect(&c.t, c.cycles, "owners released in host functions");
    print_message("host function releases: callbacks ran on main %d, worker %d times\n",
                  atomic_load(&c.t.by_kind[1]), atomic_load(&c.t.by_kind[2]));
    tracker_free(&c.t);
    CU(cu.cuMemFree(c.buf));
    CU(cu.cuStreamDestroy(c.s));
}

/* ===== 5: executable updates of CUkernel nodes with no context current ===================== */

/* nodes.md: "A `CUkernel` node's update (its `ctx` names the context) works with none current
 * and skips the query on 13.0+". guide.md: "The node records its context: updates later run
 * with it current whatever the calling thread has current, and leave the caller's current
 * context as it was." Launching with no context current is not documented, so each launch
 * makes the primary context current around it and drops it again. */
enum { C5_THREADS = 2 };
typedef struct c5_worker {
    werr w;
    int cycles;
    cgn_exec *e;
    cgn_node *n;
    CUstream s;
    CUdeviceptr buf[2];
    unsigned expect[2];
    tracker t;
    int used;
} c5_worker;

static int ctx_is_null(void) {
    CUcontext c = (CUcontext)1;
    return p_cuCtxGetCurrent(&c) == CUDA_SUCCESS && c == NULL;
}

static void *c5_main(void *arg) {
    c5_worker *c = arg;
    cgn_owner *o = NULL;
    tls_user = 1;
    tls_kind = 2;
    if (!ctx_is_null())
        W_FAIL(&c->w, "a new thread has a context current");
    int curbuf = 0;
    cgn_kernel_update u = CGN_KERNEL_UPDATE_INIT;
    for (unsigned i = 1; i <= (unsigned)c->cycles && !atomic_load(&g_abort); i++) {
        cgn_kernel_update_reset(&u);
        if (i % 2 == 0) {
            W_OK(&c->w, cgn_owner_create(&c->t.slots[c->used], release_cb, &o));
            c->used++;
            curbuf = (int)((i / 2) % 2);
            cgn_kernel_update_set_arg(&u, 0, &c->buf[curbuf], sizeof c->buf[curbuf], o);
        }
        cgn_kernel_update_set_arg(&u, 1, &i, sizeof i, NULL);
        W_OK(&c->w, cgn_kernel_exec_update(c->e, c->n, &u));
        if (o != NULL) {
            cgn_owner *mine = o;
            o = NULL;
            W_OK(&c->w, cgn_owner_release(mine));
        }
        if (!ctx_is_null())
            W_FAIL(&c->w, "cycle %u: a context is current after the update", i);
        W_CU(&c->w, cu.cuCtxSetCurrent(cu.context));
        W_OK(&c->w, cgn_exec_launch(c->e, c->s));
        c->expect[curbuf] = i;
        if (i % SYNC_EVERY == 0 || i == (unsigned)c->cycles) {
            W_CU(&c->w, cu.cuStreamSynchronize(c->s));
            for (int b = 0; b < 2; b++) {
                unsigned got = 0;
                W_CU(&c->w, cu.cuMemcpyDtoH(&got, c->buf[b], sizeof got));
                if (got != c->expect[b])
                    W_FAIL(&c->w, "cycle %u: buffer %d holds %u, expected %u", i, b, got,
                           c->expect[b]);
            }
        }
        W_CU(&c->w, cu.cuCtxSetCurrent(NULL));
        if (!ctx_is_null())
            W_FAIL(&c->w, "cycle %u: cuCtxSetCurrent(NULL) left a context current", i);
    }
    if (!ctx_is_null())
        W_FAIL(&c->w, "a context is current at the end");
out:
    if (o != NULL)
        cgn_owner_release(o);
    return NULL;
}

static void test_no_context_exec_updates(void **state) {
    (void)state;
    if (driver_version < 13000) {
        print_message("driver %d.%d: context-free CUkernel updates need 13.0\n",
                      driver_version / 1000, (driver_version % 1000) / 10);
        skip();
    }
    const int cycles = loop_cycles();
    static c5_worker c[C5_THREADS];
    cgn_graph *g;
    cgn_node *n;
    OK(cgn_graph_create(&g));
    CUdeviceptr gbuf = dalloc();
    unsigned zero = 0;
    cgn_arg args[2] = {CGN_ARG(gbuf), CGN_ARG(zero)};
    cgn_kernel_desc d = fill_desc(args);
    OK(cgn_graph_add_kernel(g, NULL, 0, &d, &n));
    for (int k = 0; k < C5_THREADS; k++) {
        memset(&c[k], 0, sizeof c[k]);
        c[k].cycles = cycles;
        c[k].n = n;
        c[k].s = new_stream();
        c[k].buf[0] = dalloc();
        c[k].buf[1] = dalloc();
        tracker_init(&c[k].t, cycles / 2 + 1, 0);
        OK(cgn_graph_instantiate(g, &c[k].e));
        /* start from this worker's buffer 0 */
        cgn_kernel_update u = CGN_KERNEL_UPDATE_INIT;
        cgn_kernel_update_set_arg(&u, 0, &c[k].buf[0], sizeof c[k].buf[0], NULL);
        OK(cgn_kernel_exec_update(c[k].e, n, &u));
    }
    pthread_t th[C5_THREADS];
    for (int k = 0; k < C5_THREADS; k++)
        start_thread(&th[k], c5_main, &c[k]);
    for (int k = 0; k < C5_THREADS; k++)
        join_thread(th[k]);
    for (int k = 0; k < C5_THREADS; k++)
        expect_no_werr(&c[k].w, "no-context worker");
    assert_true(current_ctx_main() == cu.context);
    for (int k = 0; k < C5_THREADS; k++) {
        CU(cu.cuStreamSynchronize(c[k].s));
        for (int b = 0; b < 2; b++)
            assert_int_equal(read_u32(c[k].buf[b]), c[k].expect[b]);
        OK(cgn_exec_destroy(c[k].e));
    }
    OK(cgn_graph_destroy(g));
    assert_int_equal(read_u32(gbuf), 0); /* no executable kept the graph's buffer */
    for (int k = 0; k < C5_THREADS; k++) {
        tracker_expect(&c[k].t, c[k].used, "owners of no-context updates");
        tracker_free(&c[k].t);
        CU(cu.cuMemFree(c[k].buf[0]));
        CU(cu.cuMemFree(c[k].buf[1]));
        CU(cu.cuStreamDestroy(c[k].s));
    }
    CU(cu.cuMemFree(gbuf));
}

/* ===== 6: destroying one executable while another of the same graph launches ============== */

/* ownership.md: "one thread at a time per **executable**" (two executables: two threads);
 * the exceptions that must not overlap executable-level calls are "`cgn_node_destroy`,
 * replacing a child graph, `cgn_graph_destroy`" (not cgn_exec_destroy); "`cgn_exec_destroy`
 * is safe with launches in flight and never blocks for cgn's own launches." */
typedef struct c6_state {
    werr wa, wb;
    atomic_int a_done;
    int cycles;
    cgn_node *n;
    cgn_exec *ea, *eb;
    CUstream sa, sb;
    CUdeviceptr abuf[2], bbuf;
    unsigned aexpect[2];
    tracker t;
    int used;
    int b_launches;
} c6_state;

static void *c6_a(void *arg) {
    c6_state *c = arg;
    cgn_owner *o = NULL;
    W_ENTER(&c->wa, 2);
    cgn_kernel_update u = CGN_KERNEL_UPDATE_INIT;
    for (unsigned i = 0; i < (unsigned)c->cycles && !atomic_load(&g_abort); i++) {
        int cur = c->used;
        W_OK(&c->wa, cgn_owner_create(&c->t.slots[cur], release_cb, &o));
        c->used++;
        int b = (int)(i % 2);
        unsigned v = 9000u + i;
        cgn_kernel_update_reset(&u);
        cgn_kernel_update_set_arg(&u, 0, &c->abuf[b], sizeof c->abuf[b], o);
        cgn_kernel_update_set_arg(&u, 1, &v, sizeof v, NULL);
        W_OK(&c->wa, cgn_kernel_exec_update(c->ea, c->n, &u));
        cgn_owner *mine = o;
        o = NULL;
        W_OK(&c->wa, cgn_owner_release(mine));
        W_OK(&c->wa, cgn_exec_launch(c->ea, c->sa));
        W_CU(&c->wa, cu.cuEventRecord(c->t.ev[cur], c->sa));
        c->aexpect[b] = v;
    }
    /* launches may still be in flight */
    {
        cgn_exec *e = c->ea;
        c->ea = NULL;
        W_OK(&c->wa, cgn_exec_destroy(e));
    }
out:
    if (o != NULL)
        cgn_owner_release(o);
    atomic_store(&c->a_done, 1);
    return NULL;
}

static void *c6_b(void *arg) {
    c6_state *c = arg;
    W_ENTER(&c->wb, 2);
    cgn_kernel_update u = CGN_KERNEL_UPDATE_INIT;
    for (unsigned i = 1; !atomic_load(&g_abort); i++) {
        int last = atomic_load(&c->a_done) && i > (unsigned)c->cycles;
        cgn_kernel_update_reset(&u);
        cgn_kernel_update_set_arg(&u, 1, &i, sizeof i, NULL);
        W_OK(&c->wb, cgn_kernel_exec_update(c->eb, c->n, &u));
        W_OK(&c->wb, cgn_exec_launch(c->eb, c->sb));
        c->b_launches = (int)i;
        if (i % 32 == 0 || last) {
            W_CU(&c->wb, cu.cuStreamSynchronize(c->sb));
            unsigned got = 0;
            W_CU(&c->wb, cu.cuMemcpyDtoH(&got, c->bbuf, sizeof got));
            if (got != i)
                W_FAIL(&c->wb, "launch %u of B: buffer holds %u", i, got);
        }
        if (last)
            break;
    }
out:
    return NULL;
}

static void test_destroy_exec_while_other_launches(void **state) {
    (void)state;
    static c6_state c;
    memset(&c, 0, sizeof c);
    atomic_init(&c.a_done, 0);
    c.cycles = loop_cycles();
    c.sa = new_stream();
    c.sb = new_stream();
    c.abuf[0] = dalloc();
    c.abuf[1] = dalloc();
    c.bbuf = dalloc();
    tracker_init(&c.t, c.cycles, 1);
    cgn_graph *g;
    OK(cgn_graph_create(&g));
    unsigned zero = 0;
    cgn_arg args[2] = {CGN_ARG(c.abuf[0]), CGN_ARG(zero)};
    cgn_kernel_desc d = fill_desc(args);
    OK(cgn_graph_add_kernel(g, NULL, 0, &d, &c.n));
    OK(cgn_graph_instantiate(g, &c.ea));
    OK(cgn_graph_instantiate(g, &c.eb));
    cgn_kernel_update u = CGN_KERNEL_UPDATE_INIT;
    cgn_kernel_update_set_arg(&u, 0, &c.bbuf, sizeof c.bbuf, NULL);
    OK(cgn_kernel_exec_update(c.eb, c.n, &u));
    pthread_t ta, tb;
    start_thread(&tb, c6_b, &c);
    start_thread(&ta, c6_a, &c);
    join_thread(ta);
    join_thread(tb);
    expect_no_werr(&c.wa, "thread A (destroys its executable)");
    expect_no_werr(&c.wb, "thread B (keeps launching)");
    assert_null(c.ea);
    CU(cu.cuStreamSynchronize(c.sa));
    CU(cu.cuStreamSynchronize(c.sb));
    for (int b = 0; b < 2; b++)
        assert_int_equal(read_u32(c.abuf[b]), c.aexpect[b]);
    assert_int_equal(read_u32(c.bbuf), (unsigned)c.b_launches);
    tracker_expect(&c.t, c.used, "owners of the destroyed executable");
    assert_int_equal(c.used, c.cycles);
    OK(cgn_exec_destroy(c.eb));
    OK(cgn_graph_destroy(g));
    cgn_collect();
    tracker_free(&c.t);
    CU(cu.cuMemFree(c.abuf[0]));
    CU(cu.cuMemFree(c.abuf[1]));
    CU(cu.cuMemFree(c.bbuf));
    CU(cu.cuStreamDestroy(c.sa));
    CU(cu.cuStreamDestroy(c.sb));
}

/* ===== main ================================================================================== */

static int resolve(void *slot_, const char *name, int version) {
    return gpu_test_resolve(slot_, name, version, "test_threads_gpu");
}

/* 0 when ready, 77 after saying why this machine cannot run the tests, 1 on a setup failure. */
static int setup_device(void) {
    int rc = gpu_test_open(&cu, "test_threads_gpu", &driver_version);
    if (rc != 0)
        return rc;
    if (!resolve(&p_cuCtxGetCurrent, "cuCtxGetCurrent", 4000) ||
        !resolve(&p_cuMemsetD32Async, "cuMemsetD32Async", 3020))
        return 1;
    CUresult r = cu.cuLibraryLoadData(&lib, cgn_test_kernels_fatbin, NULL, NULL, 0, NULL, NULL, 0);
    if (r != CUDA_SUCCESS) {
        printf("test_threads_gpu: setup: cuLibraryLoadData returned %d\n", (int)r);
        return 1;
    }
    r = cu.cuLibraryGetKernel(&k_fill, lib, "fill_u32");
    if (r != CUDA_SUCCESS) {
        printf("test_threads_gpu: setup: cuLibraryGetKernel(fill_u32) returned %d\n", (int)r);
        return 1;
    }
    return 0;
}

static void teardown_device(void) {
    cu.cuCtxSetCurrent(cu.context);
    cgn_collect();
    if (lib)
        cu.cuLibraryUnload(lib);
    cgn_collect();
    cgn_cuda_close(&cu);
}

#define T(fn) cmocka_unit_test_teardown(fn, teardown)

int main(void) {
    tls_user = 1;
    tls_kind = 1;
    atomic_init(&g_abort, 0);
    int rc = setup_device();
    if (rc != 0) {
        if (rc != 77)
            teardown_device();
        return rc;
    }
    const struct CMUnitTest tests[] = {
        T(test_independent_update_launch_loops), T(test_definition_updates_while_launching),
        T(test_collect_thread_during_loop),      T(test_owner_release_from_host_function),
        T(test_no_context_exec_updates),         T(test_destroy_exec_while_other_launches),
    };
    rc = cmocka_run_group_tests_name("threads_gpu", tests, NULL, NULL);
    teardown_device();
    return rc;
}
