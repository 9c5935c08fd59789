/* Host memory running out, on the fake driver: every allocation cgn makes during a call is made
 * to fail in turn (k = 1, 2, ... until the call goes through untouched). A call that meets a
 * failed allocation returns CGN_ERROR_OUT_OF_MEMORY with a message saying so, and changes
 * nothing: the graph's nodes, the node's desc (and the executable's copy), handles, owner
 * refcounts and driver objects are as before (docs/nodes.md: all or nothing).
 *
 * The test executable is linked with -Wl,--wrap=malloc,--wrap=calloc,--wrap=realloc, so every
 * call to them from cgn (and from the test support) comes here first. Allocations the fake
 * driver makes never fail: the driver table is wrapped so that the calls into it are known.
 * (Issue 8: test strength.) */
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

/* ---- failing allocations --------------------------------------------------------------------- */

static struct {
    long countdown;     /* 0: nothing fails; else the countdown-th allocation from now fails */
    int triggered;      /* it did */
    int in_driver;      /* inside a driver call: the fake's own allocations never fail */
    long chunk_callocs; /* calloc(4096, slot size) calls that succeeded: the handle table grew */
} oom;

void *__real_malloc(size_t size);
void *__real_calloc(size_t n, size_t size);
void *__real_realloc(void *p, size_t size);
void *__wrap_malloc(size_t size);
void *__wrap_calloc(size_t n, size_t size);
void *__wrap_realloc(void *p, size_t size);

static int oom_now(void) {
    if (oom.countdown == 0 || oom.in_driver)
        return 0;
    if (--oom.countdown != 0)
        return 0;
    oom.triggered = 1;
    return 1;
}

void *__wrap_malloc(size_t size) {
    return oom_now() ? NULL : __real_malloc(size);
}

void *__wrap_calloc(size_t n, size_t size) {
    if (oom_now())
        return NULL;
    void *p = __real_calloc(n, size);
    oom.chunk_callocs += p != NULL && n == 4096 && !oom.in_driver;
    return p;
}

void *__wrap_realloc(void *p, size_t size) {
    return oom_now() ? NULL : __real_realloc(p, size);
}

static void oom_arm(long k) {
    oom.countdown = k;
    oom.triggered = 0;
}

static int oom_disarm(void) {
    oom.countdown = 0;
    return oom.triggered;
}

/* The driver table, each entry marking its calls as the driver's. */
static struct {
    cgn_driver_table table;
    const cgn_driver_table *inner;
} guard;

#define GUARD_ENTRY_(name, abi, need, params, args)                                                \
    static CUresult guard_##name params {                                                          \
        oom.in_driver++;                                                                           \
        CUresult r = guard.inner->name args;                                                       \
        oom.in_driver--;                                                                           \
        return r;                                                                                  \
    }
CGN_DRIVER_ENTRIES(GUARD_ENTRY_)
#undef GUARD_ENTRY_

static int oom_setup(void **state) {
    if (cgn_test_fixture_setup(state) != 0)
        return -1;
    cgn_test_env *env = *state;
    memset(&oom, 0, sizeof oom);
    guard.inner = env->backend->driver(env);
    guard.table.version = guard.inner->version;
#define GUARD_SET_(name, abi, need, params, args)                                                  \
    guard.table.name = guard.inner->name != NULL ? guard_##name : NULL;
    CGN_DRIVER_ENTRIES(GUARD_SET_)
#undef GUARD_SET_
    cgn_fault_install(&guard.table);
    return 0;
}

/* ---- the sweep ------------------------------------------------------------------------------- */

/* One scenario: prepare (allocations may succeed), the call under test, and its undo. */
typedef struct scenario scenario;
struct scenario {
    const char *where; /* the function under test; its messages start with it */
    void (*prepare)(cgn_test_env *env, scenario *s);
    cgn_status (*call)(cgn_test_env *env, scenario *s);
    void (*check_unchanged)(cgn_test_env *env, scenario *s); /* after a failed call */
    void (*cleanup)(cgn_test_env *env, scenario *s);
    int type;              /* node type, for the generic node scenarios */
    int allocates_nothing; /* the call needs no allocation (an executable's child graph) */
    const char *must_see;  /* a message one of the failures must give exactly */
    all_nodes a;
    any_desc desc, before, exec_before;
    any_update update;
    CUgraph raw;
    cgn_graph *g;
    cgn_node *n;
    cgn_exec *e;
};

/* Messages of staging helpers, shared by every function, start with what they staged. */
static int starts_with(const char *s, const char *prefix) {
    return strncmp(s, prefix, strlen(prefix)) == 0;
}

static void sweep(cgn_test_env *env, scenario *s) {
    long k;
    int failures = 0, seen = 0;
    for (k = 1; k < 2000; k++) {
        memset(&s->a, 0, sizeof s->a);
        s->g = NULL;
        s->n = NULL;
        s->e = NULL;
        s->raw = NULL;
        s->prepare(env, s);
        long refs[CGN_TEST_NUM_BUFS];
        for (int i = 0; i < CGN_TEST_NUM_BUFS; i++)
            refs[i] = owner_refs(env->owner[i]);
        size_t live = cgn__handles_live();
        cgn_collect();
        size_t objects = cgn_fake_live_objects();
        oom_arm(k);
        cgn_status st = s->call(env, s);
        int failed_alloc = oom_disarm();
        if (!failed_alloc) {
            if (st != CGN_OK)
                fail_msg("%s: %s (%s) with no allocation failed", s->where, cgn_status_name(st),
                         cgn_last_error());
            s->cleanup(env, s);
            break;
        }
        if (st == CGN_OK)
            fail_msg("%s succeeded although allocation %ld failed", s->where, k);
        failures++;
        if (st != CGN_ERROR_OUT_OF_MEMORY)
            fail_msg("%s, allocation %ld failed: %s (%s)", s->where, k, cgn_status_name(st),
                     cgn_last_error());
        const char *msg = cgn_last_error();
        char prefix[96];
        snprintf(prefix, sizeof prefix, "%s: ", s->where);
        if (strstr(msg, "memory") == NULL ||
            !(starts_with(msg, prefix) || starts_with(msg, "staging owners: ") ||
              starts_with(msg, "staging node parameters: ") ||
              starts_with(msg, "cgn_owner_create: ")))
            fail_msg("%s, allocation %ld failed: unexpected message \"%s\"", s->where, k, msg);
        seen |= s->must_see != NULL && strcmp(msg, s->must_see) == 0;
        assert_int_equal(cgn__handles_live(), live);
        for (int i = 0; i < CGN_TEST_NUM_BUFS; i++)
            assert_int_equal(owner_refs(env->owner[i]), refs[i]);
        cgn_collect();
        assert_int_equal(cgn_fake_live_objects(), objects);
        if (s->check_unchanged != NULL)
            s->check_unchanged(env, s);
        s->cleanup(env, s);
    }
    assert_true(k < 2000);
    if (failures == 0 && !s->allocates_nothing)
        fail_msg("%s (node type %d) allocated nothing", s->where, s->type);
    if (s->must_see != NULL && !seen)
        fail_msg("%s: no failure said \"%s\"", s->where, s->must_see);
}

/* ---- nodes: add, update at both levels ------------------------------------------------------- */

/* Descs and updates are made before the call: test graphs come into being on first use. */
static void prepare_graph(cgn_test_env *env, scenario *s) {
    OK(cgn_graph_create(&s->g));
    s->desc = valid_desc(env, s->type);
}

static cgn_status call_add(cgn_test_env *env, scenario *s) {
    (void)env;
    s->n = NULL;
    cgn_status st = apis[s->type]->add(s->g, &s->desc, &s->n);
    if (st != CGN_OK)
        assert_null(s->n);
    return st;
}

static void check_no_node(cgn_test_env *env, scenario *s) {
    (void)env;
    size_t count = 1;
    OK(cgn_graph_nodes(s->g, NULL, &count));
    assert_int_equal(count, 0);
    CUgraph raw;
    OK(cgn_graph_raw(s->g, &raw));
    assert_int_equal(cgn_fake_graph_node_count(raw), 0);
}

static void cleanup_graph(cgn_test_env *env, scenario *s) {
    (void)env;
    if (s->e != NULL)
        OK(cgn_exec_destroy(s->e));
    if (s->g != NULL)
        OK(cgn_graph_destroy(s->g));
}

static void prepare_all(cgn_test_env *env, scenario *s) {
    make_all(env, &s->a);
    s->update = owner_update(env, s->type);
    OK(apis[s->type]->get(s->a.n[s->type], &s->before));
    OK(apis[s->type]->exec_get(s->a.e, s->a.n[s->type], &s->exec_before));
}

static cgn_status call_update(cgn_test_env *env, scenario *s) {
    (void)env;
    return apis[s->type]->update(s->a.n[s->type], &s->update);
}

static cgn_status call_exec_update(cgn_test_env *env, scenario *s) {
    (void)env;
    return apis[s->type]->exec_update(s->a.e, s->a.n[s->type], &s->update);
}

static void check_all_unchanged(cgn_test_env *env, scenario *s) {
    (void)env;
    const node_api *api = apis[s->type];
    any_desc now;
    OK(api->get(s->a.n[s->type], &now));
    assert_memory_equal(&now, &s->before, api->desc_size);
    OK(api->exec_get(s->a.e, s->a.n[s->type], &now));
    assert_memory_equal(&now, &s->exec_before, api->desc_size);
    size_t count = 0;
    OK(cgn_graph_nodes(s->a.g, NULL, &count));
    assert_int_equal(count, NUM_TYPES);
    if (s->type == CHILD) { /* the old embedding is still there, and updatable */
        cgn_graph *embedded;
        OK(cgn_child_graph_node_embedded(s->a.n[CHILD], &embedded));
        count = 0;
        OK(cgn_graph_nodes(embedded, NULL, &count));
        assert_int_equal(count, 1);
    }
}

static void cleanup_all(cgn_test_env *env, scenario *s) {
    (void)env;
    free_all(&s->a);
}

static void test_adding_nodes(void **state) {
    static const char *const where[NUM_TYPES] = {
        "cgn_graph_add_memset",        "cgn_graph_add_memcpy",       "cgn_graph_add_kernel",
        "cgn_graph_add_host_callback", "cgn_graph_add_event_record", "cgn_graph_add_event_wait",
        "cgn_graph_add_child_graph"};
    for (int t = 0; t < NUM_TYPES; t++) {
        scenario s = {.where = where[t],
                      .prepare = prepare_graph,
                      .call = call_add,
                      .check_unchanged = check_no_node,
                      .cleanup = cleanup_graph,
                      .type = t};
        if (t == HOST) /* the payload copy names its field */
            s.must_see = "cgn_graph_add_host_callback: no host memory for a copy of payload "
                         "(8 bytes)";
        sweep(*state, &s);
    }
}

static void test_updating_nodes(void **state) {
    static const char *const where[NUM_TYPES] = {
        "cgn_memset_node_update",       "cgn_memcpy_node_update",
        "cgn_kernel_node_update",       "cgn_host_callback_node_update",
        "cgn_event_record_node_update", "cgn_event_wait_node_update",
        "cgn_child_graph_node_update"};
    for (int t = 0; t < NUM_TYPES; t++) {
        scenario s = {.where = where[t],
                      .prepare = prepare_all,
                      .call = call_update,
                      .check_unchanged = check_all_unchanged,
                      .cleanup = cleanup_all,
                      .type = t};
        sweep(*state, &s);
    }
}

static void test_updating_executables(void **state) {
    static const char *const where[NUM_TYPES] = {
        "cgn_memset_exec_update",       "cgn_memcpy_exec_update",
        "cgn_kernel_exec_update",       "cgn_host_callback_exec_update",
        "cgn_event_record_exec_update", "cgn_event_wait_exec_update",
        "cgn_child_graph_exec_update"};
    for (int t = 0; t < NUM_TYPES; t++) {
        scenario s = {.where = where[t],
                      .prepare = prepare_all,
                      .call = call_exec_update,
                      .check_unchanged = check_all_unchanged,
                      .cleanup = cleanup_all,
                      .type = t};
        s.allocates_nothing = t == CHILD; /* it re-takes the copies the executable holds */
        sweep(*state, &s);
    }
}

/* Argument-level kernel updates copy the current block. */
static cgn_status call_arg_edit(cgn_test_env *env, scenario *s) {
    cgn_kernel_update u = CGN_KERNEL_UPDATE_INIT;
    cgn_kernel_update_set_arg(&u, 0, &env->buf[1], sizeof env->buf[1], env->owner[1]);
    return cgn_kernel_node_update(s->a.n[KERNEL], &u);
}

static cgn_status call_exec_arg_edit(cgn_test_env *env, scenario *s) {
    cgn_kernel_update u = CGN_KERNEL_UPDATE_INIT;
    cgn_kernel_update_set_arg(&u, 0, &env->buf[1], sizeof env->buf[1], env->owner[1]);
    return cgn_kernel_exec_update(s->a.e, s->a.n[KERNEL], &u);
}

static void test_argument_edits(void **state) {
    scenario s = {.where = "cgn_kernel_node_update",
                  .prepare = prepare_all,
                  .call = call_arg_edit,
                  .check_unchanged = check_all_unchanged,
                  .cleanup = cleanup_all,
                  .type = KERNEL};
    sweep(*state, &s);
    scenario x = {.where = "cgn_kernel_exec_update",
                  .prepare = prepare_all,
                  .call = call_exec_arg_edit,
                  .check_unchanged = check_all_unchanged,
                  .cleanup = cleanup_all,
                  .type = KERNEL};
    sweep(*state, &x);
}

/* ---- graphs and executables ------------------------------------------------------------------ */

static void prepare_nothing(cgn_test_env *env, scenario *s) {
    (void)env;
    (void)s;
}

static cgn_status call_graph_create(cgn_test_env *env, scenario *s) {
    (void)env;
    cgn_status st = cgn_graph_create(&s->g);
    if (st != CGN_OK)
        s->g = NULL;
    return st;
}

static cgn_status call_empty(cgn_test_env *env, scenario *s) {
    (void)env;
    return cgn_graph_add_empty(s->g, NULL, 0, &s->n);
}

/* A node with a dependency: the graph keeps only the node it depends on. */
static void prepare_graph_with_node(cgn_test_env *env, scenario *s) {
    prepare_graph(env, s);
    OK(cgn_graph_add_empty(s->g, NULL, 0, &s->n));
}

static cgn_status call_empty_after(cgn_test_env *env, scenario *s) {
    (void)env;
    cgn_node *n = NULL;
    cgn_status st = cgn_graph_add_empty(s->g, &s->n, 1, &n);
    if (st != CGN_OK)
        assert_null(n);
    return st;
}

static void check_one_node(cgn_test_env *env, scenario *s) {
    (void)env;
    size_t count = 0;
    OK(cgn_graph_nodes(s->g, NULL, &count));
    assert_int_equal(count, 1);
    CUgraph raw;
    OK(cgn_graph_raw(s->g, &raw));
    assert_int_equal(cgn_fake_graph_node_count(raw), 1);
}

static void prepare_all_nodes_graph(cgn_test_env *env, scenario *s) {
    make_all(env, &s->a);
    OK(cgn_exec_destroy(s->a.e));
    s->a.e = NULL;
    s->g = s->a.g;
}

static cgn_status call_instantiate(cgn_test_env *env, scenario *s) {
    (void)env;
    s->e = NULL;
    cgn_status st = cgn_graph_instantiate(s->g, &s->e);
    if (st != CGN_OK)
        assert_null(s->e);
    return st;
}

static void test_graphs_and_instantiation(void **state) {
    scenario create = {.where = "cgn_graph_create",
                       .prepare = prepare_nothing,
                       .call = call_graph_create,
                       .check_unchanged = NULL,
                       .cleanup = cleanup_graph};
    sweep(*state, &create);
    scenario empty = {.where = "cgn_graph_add_empty",
                      .prepare = prepare_graph,
                      .call = call_empty,
                      .check_unchanged = check_no_node,
                      .cleanup = cleanup_graph};
    sweep(*state, &empty);
    scenario dependent = {.where = "cgn_graph_add_empty",
                          .prepare = prepare_graph_with_node,
                          .call = call_empty_after,
                          .check_unchanged = check_one_node,
                          .cleanup = cleanup_graph,
                          .must_see = "cgn_graph_add_empty: out of host memory"};
    sweep(*state, &dependent);
    scenario inst = {.where = "cgn_graph_instantiate",
                     .prepare = prepare_all_nodes_graph,
                     .call = call_instantiate,
                     .check_unchanged = NULL,
                     .cleanup = cleanup_graph};
    sweep(*state, &inst);
}

/* Whole-graph refresh after every node changed. */
static void prepare_changed(cgn_test_env *env, scenario *s) {
    make_all(env, &s->a);
    for (int t = 0; t < NUM_TYPES; t++)
        if (t != CHILD) { /* a replaced child graph cannot be refreshed into an executable */
            any_update u = owner_update(env, t);
            OK(apis[t]->update(s->a.n[t], &u));
        }
    OK(apis[MEMSET]->exec_get(s->a.e, s->a.n[MEMSET], &s->exec_before));
}

static cgn_status call_refresh(cgn_test_env *env, scenario *s) {
    (void)env;
    return cgn_exec_update_from_graph(s->a.e, s->a.g);
}

static void check_exec_unchanged(cgn_test_env *env, scenario *s) {
    (void)env;
    any_desc now;
    OK(apis[MEMSET]->exec_get(s->a.e, s->a.n[MEMSET], &now));
    assert_memory_equal(&now, &s->exec_before, sizeof(cgn_memset_desc));
}

static void test_whole_graph_refresh(void **state) {
    scenario s = {.where = "cgn_exec_update_from_graph",
                  .prepare = prepare_changed,
                  .call = call_refresh,
                  .check_unchanged = check_exec_unchanged,
                  .cleanup = cleanup_all};
    sweep(*state, &s);
}

/* ---- adoption -------------------------------------------------------------------------------- */

/* A raw graph of two kernels (arguments to copy), a memset and a child graph holding a
 * memset. One kernel takes more parameters than cgn asks the driver about on the stack (64),
 * the other two: both layout paths of adoption see every allocation fail in turn (with two,
 * a failed heap copy once freed a stack array in cgn__layout_of). */
enum { WIDE = 65 };
static size_t wide_sizes[WIDE];
static uint32_t wide_values[WIDE];
static void *wide_params[WIDE];

static void prepare_raw(cgn_test_env *env, scenario *s) {
    const cgn_driver_table *drv = cgn__driver;
    static CUfunction wide, narrow;
    static CUdeviceptr out;
    if (wide == NULL || cgn_fake_kernel_of(wide) == NULL) { /* registered again after a reset */
        for (int i = 0; i < WIDE; i++) {
            wide_sizes[i] = sizeof(uint32_t);
            wide_values[i] = (uint32_t)i;
            wide_params[i] = &wide_values[i];
        }
        wide_sizes[0] = sizeof out;
        wide_params[0] = &out;
        wide = cgn_fake_register_kernel("wide", WIDE, wide_sizes, NULL, NULL);
        assert_non_null(wide);
        narrow = cgn_fake_register_kernel("narrow", 2, wide_sizes, NULL, NULL);
        assert_non_null(narrow);
    }
    out = env->buf[0];
    CU_OK(drv->cuGraphCreate(&s->raw, 0));
    CUgraph inner;
    CU_OK(drv->cuGraphCreate(&inner, 0));
    CUcontext ctx = NULL;
    CU_OK(drv->cuCtxGetCurrent(&ctx));
    CUDA_MEMSET_NODE_PARAMS_v1 m = {env->buf[2], 0, 0x33, 1, 8, 1};
    CUgraphNode a, b, c;
    CU_OK(drv->cuGraphAddMemsetNode(&a, inner, NULL, 0, &m, ctx));
    CUDA_KERNEL_NODE_PARAMS_v2 k;
    memset(&k, 0, sizeof k);
    k.func = wide;
    k.gridDimX = k.gridDimY = k.gridDimZ = k.blockDimX = k.blockDimY = k.blockDimZ = 1;
    k.kernelParams = wide_params;
    CU_OK(drv->cuGraphAddKernelNode(&a, s->raw, NULL, 0, &k));
    k.func = narrow;
    CU_OK(drv->cuGraphAddKernelNode(&b, s->raw, &a, 1, &k));
    a = b;
    CU_OK(drv->cuGraphAddMemsetNode(&b, s->raw, &a, 1, &m, ctx));
    CU_OK(drv->cuGraphAddChildGraphNode(&c, s->raw, &b, 1, inner));
    CU_OK(drv->cuGraphDestroy(inner));
}

static cgn_status call_adopt(cgn_test_env *env, scenario *s) {
    (void)env;
    s->g = NULL;
    cgn_status st = cgn_graph_adopt(s->raw, 0, &s->g);
    if (st != CGN_OK)
        assert_null(s->g);
    return st;
}

static void cleanup_raw(cgn_test_env *env, scenario *s) {
    cleanup_graph(env, s);
    if (s->raw != NULL)
        CU_OK(cgn__driver->cuGraphDestroy(s->raw));
}

static void prepare_adopted(cgn_test_env *env, scenario *s) {
    prepare_raw(env, s);
    OK(cgn_graph_adopt(s->raw, 0, &s->g));
}

static cgn_status call_exec_adopt(cgn_test_env *env, scenario *s) {
    (void)env;
    CUgraphExec raw;
    CU_OK(cgn__driver->cuGraphInstantiateWithFlags(&raw, s->raw, 0));
    s->e = NULL;
    cgn_status st = cgn_exec_adopt(raw, s->g, CGN_ADOPT_TAKE_OWNERSHIP, &s->e);
    if (st != CGN_OK) {
        assert_null(s->e);
        CU_OK(cgn__driver->cuGraphExecDestroy(raw));
    }
    return st;
}

/* Refresh of every node of an adopted graph whose child graph was replaced behind cgn's back. */
static void prepare_replaced_child(cgn_test_env *env, scenario *s) {
    prepare_adopted(env, s);
    const cgn_driver_table *drv = cgn__driver;
    CUgraph other;
    CU_OK(drv->cuGraphCreate(&other, 0));
    CUgraphNode x;
    CU_OK(drv->cuGraphAddEmptyNode(&x, other, NULL, 0));
    CU_OK(drv->cuGraphAddEmptyNode(&x, other, &x, 1));
    size_t count = 4;
    cgn_node *nodes[4];
    OK(cgn_graph_nodes(s->g, nodes, &count));
    s->n = nodes[3]; /* the child graph, last in order */
    CUgraphNode raw_child;
    OK(cgn_node_raw(s->n, &raw_child));
    CUgraphNodeParams p;
    memset(&p, 0, sizeof p);
    p.type = CU_GRAPH_NODE_TYPE_GRAPH;
    p.graph.graph = other;
    CU_OK(drv->cuGraphNodeSetParams(raw_child, &p));
    CU_OK(drv->cuGraphDestroy(other));
}

static cgn_status call_refresh_nodes(cgn_test_env *env, scenario *s) {
    (void)env;
    size_t count = 4;
    cgn_node *nodes[4];
    OK(cgn_graph_nodes(s->g, nodes, &count));
    for (size_t i = 0; i < count; i++) {
        cgn_status st = cgn_node_refresh(nodes[i]);
        if (st != CGN_OK)
            return st;
    }
    return CGN_OK;
}

static void check_old_embedding(cgn_test_env *env, scenario *s) {
    (void)env;
    cgn_graph *embedded;
    OK(cgn_child_graph_node_embedded(s->n, &embedded));
    size_t count = 0;
    OK(cgn_graph_nodes(embedded, NULL, &count));
    assert_true(count == 1 || count == 2); /* refreshed before the failure, or not */
}

static void test_adoption(void **state) {
    scenario adopt = {.where = "cgn_graph_adopt",
                      .prepare = prepare_raw,
                      .call = call_adopt,
                      .check_unchanged = NULL,
                      .cleanup = cleanup_raw};
    sweep(*state, &adopt);
    scenario exec = {.where = "cgn_exec_adopt",
                     .prepare = prepare_adopted,
                     .call = call_exec_adopt,
                     .check_unchanged = NULL,
                     .cleanup = cleanup_raw};
    sweep(*state, &exec);
    scenario refresh = {.where = "cgn_node_refresh",
                        .prepare = prepare_replaced_child,
                        .call = call_refresh_nodes,
                        .check_unchanged = check_old_embedding,
                        .cleanup = cleanup_raw};
    sweep(*state, &refresh);
}

/* ---- destroying an executable with a launch in flight ------------------------------------- */

/* The executable holds a version only cgn holds (an executable-level update), and a launch that
 * may read it is in flight: destroy must keep that version until the launch completed. */
static void prepare_in_flight(cgn_test_env *env, scenario *s) {
    make_all(env, &s->a);
    s->update = owner_update(env, MEMSET);
    OK(apis[MEMSET]->exec_update(s->a.e, s->a.n[MEMSET], &s->update));
    OK(apis[MEMSET]->exec_get(s->a.e, s->a.n[MEMSET], &s->exec_before));
    assert_true(env->backend->hold(env));
    OK(env->backend->launch_async(env, s->a.e));
}

static cgn_status call_destroy(cgn_test_env *env, scenario *s) {
    (void)env;
    cgn_status st = cgn_exec_destroy(s->a.e);
    if (st == CGN_OK)
        s->a.e = NULL;
    return st;
}

static void check_alive(cgn_test_env *env, scenario *s) {
    (void)env;
    any_desc now;
    OK(apis[MEMSET]->exec_get(s->a.e, s->a.n[MEMSET], &now));
    assert_memory_equal(&now, &s->exec_before, sizeof(cgn_memset_desc));
}

static void cleanup_in_flight(cgn_test_env *env, scenario *s) {
    env->backend->release(env);
    if (s->a.e != NULL)
        OK(cgn_exec_destroy(s->a.e));
    OK(cgn_graph_destroy(s->a.g));
    cgn_collect();
}

static void test_destroy_in_flight(void **state) {
    scenario s = {.where = "cgn_exec_destroy",
                  .prepare = prepare_in_flight,
                  .call = call_destroy,
                  .check_unchanged = check_alive,
                  .cleanup = cleanup_in_flight};
    sweep(*state, &s);
}

/* ---- owners ---------------------------------------------------------------------------------- */

static cgn_status call_owner_create(cgn_test_env *env, scenario *s) {
    (void)env;
    cgn_owner *o = NULL;
    cgn_status st = cgn_owner_create(s, NULL, &o);
    if (st == CGN_OK)
        OK(cgn_owner_release(o));
    return st;
}

static void cleanup_nothing(cgn_test_env *env, scenario *s) {
    (void)env;
    (void)s;
}

static void test_owners(void **state) {
    scenario owner = {.where = "cgn_owner_create",
                      .prepare = prepare_nothing,
                      .call = call_owner_create,
                      .check_unchanged = NULL,
                      .cleanup = cleanup_nothing};
    sweep(*state, &owner);
}

/* The handle table growing by a chunk (4096 slots) when host memory runs out: cgn_graph_create
 * fails with its own message and leaves nothing; the next one grows the table. The table is
 * first filled up to the last slot of its newest chunk. */
static void test_handle_table_growth(void **state) {
    (void)state;
    enum { MAX = 3 * 4096 };
    cgn_graph **g = malloc(MAX * sizeof *g);
    assert_non_null(g);
    size_t n = 0, capacity = 0;
    long chunks = oom.chunk_callocs;
    while (n < MAX && (capacity == 0 || cgn__handles_live() < capacity)) {
        OK(cgn_graph_create(&g[n++]));
        if (capacity == 0 && oom.chunk_callocs != chunks) /* it grew: all slots were live */
            capacity = cgn__handles_live() - 1 + 4096;
    }
    assert_int_not_equal(capacity, 0);
    assert_int_equal(cgn__handles_live(), capacity);
    chunks = oom.chunk_callocs;
    size_t live = cgn__handles_live(), objects = cgn_fake_live_objects();
    int seen = 0;
    long k;
    for (k = 1; k < 20; k++) {
        cgn_graph *extra = NULL;
        oom_arm(k);
        cgn_status st = cgn_graph_create(&extra);
        if (!oom_disarm()) {
            OK(st);
            g[n++] = extra;
            break;
        }
        assert_int_equal(st, CGN_ERROR_OUT_OF_MEMORY);
        seen |= strcmp(cgn_last_error(), "cgn_graph_create: out of host memory for handles") == 0;
        assert_int_equal(cgn__handles_live(), live);
        assert_int_equal(cgn_fake_live_objects(), objects);
        assert_int_equal(oom.chunk_callocs, chunks);
    }
    assert_true(k < 20);
    assert_true(seen);
    assert_int_equal(oom.chunk_callocs, chunks + 1);
    assert_int_equal(cgn__handles_live(), live + 1);
    for (size_t i = 0; i < n; i++)
        OK(cgn_graph_destroy(g[i]));
    free(g);
}

int main(void) {
#define T(fn) cmocka_unit_test_setup_teardown(fn, oom_setup, cgn_test_fixture_teardown)
    const struct CMUnitTest tests[] = {
        T(test_adding_nodes),
        T(test_updating_nodes),
        T(test_updating_executables),
        T(test_argument_edits),
        T(test_graphs_and_instantiation),
        T(test_whole_graph_refresh),
        T(test_adoption),
        T(test_destroy_in_flight),
        T(test_owners),
        T(test_handle_table_growth),
    };
#undef T
    return cmocka_run_group_tests(tests, NULL, NULL);
}
