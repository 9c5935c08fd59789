/* Black-box tests written from the public documentation alone (include/cgn/cgn.h, the docs/
 * pages and generated/docs/nodes.md), on the fake driver: bad input of every kind gets a specific
 * status and a message, a failed call (refused, or a driver failure injected by the fault proxy)
 * leaves the node, its owners, every executable and the calling thread's context as they were,
 * owners are released exactly once, and retention stays bounded in update loops. */
#define _DEFAULT_SOURCE 1 /* MAP_ANONYMOUS */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>

#include <cmocka.h>

#include "cgn_fault.h"
#include "cgn_test_env.h"
#include "cgn_test_fixture.h"
#include "fake_driver.h"

#include "blackbox_common.h"

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

static const cgn_driver_table *raw(void) {
    return cgn_fake_table();
}

/* ---- owners of our own that count their releases ------------------------------------------- */

#define NUM_MINE 64
static int mine_released[NUM_MINE];

static void mine_release(void *resource) {
    mine_released[(intptr_t)resource]++;
}

static cgn_owner *mine(int i) {
    cgn_owner *o = NULL;
    OK(cgn_owner_create((void *)(intptr_t)i, mine_release, &o));
    mine_released[i] = 0;
    return o;
}

/* After collect_all, mine(i) was released n times (and mine(j) nj times). */
static void expect_released(int i, int n) {
    collect_all();
    assert_int_equal(mine_released[i], n);
}

static void expect_released2(int i, int n, int j, int nj) {
    expect_released(i, n);
    assert_int_equal(mine_released[j], nj);
}

/* cgn_test_fill_graph, then an executable-level update that points the node at buf[1] under
 * mine(id), whose only reference the executable then holds. */
static void fill_exec_owned(cgn_test_env *env, int id, cgn_graph **g, cgn_node **n, cgn_exec **e) {
    cgn_owner *a = mine(id);
    cgn_test_fill_graph(env, g, n, e);
    cgn_memset_update u = bb_dst_update(env->buf[1], a);
    OK(cgn_memset_exec_update(*e, *n, &u));
    OK(cgn_owner_release(a));
}

/* ---- graphs --------------------------------------------------------------------------------- */

/* fill_u32(out, v) as a CUkernel (fill) or add_one(p) as a CUfunction: one node, no owners. */
static cgn_graph *fill_graph(cgn_test_env *env, int buf, uint32_t value, cgn_owner *owner,
                             cgn_node **node_out) {
    cgn_graph *g = bb_graph_new();
    cgn_arg args[2] = {cgn_test_arg_buf(env, buf, 0), cgn_test_arg_u32(env, value)};
    args[0].owner = owner;
    cgn_kernel_desc d = bb_kernel_desc(cgn_test_kernel(env, "fill_u32"), args, 2);
    OK(cgn_graph_add_kernel(g, NULL, 0, &d, node_out));
    return g;
}

static cgn_graph *add_one_graph(cgn_test_env *env, int buf, cgn_node **node_out) {
    cgn_graph *g = bb_graph_new();
    cgn_arg args[1] = {cgn_test_arg_buf(env, buf, 0)};
    cgn_kernel_desc d = bb_kernel_desc(cgn_test_kernel(env, "add_one"), args, 1);
    OK(cgn_graph_add_kernel(g, NULL, 0, &d, node_out));
    return g;
}

/* A new graph with one memset node: cgn_test_fill_desc(env, 0, value, 0) with `owner` as dst_owner.
 */
static cgn_graph *owned_fill_graph(cgn_test_env *env, uint32_t value, cgn_owner *owner,
                                   cgn_node **node_out) {
    cgn_graph *g = bb_graph_new();
    cgn_memset_desc d = cgn_test_fill_desc(env, 0, value, 0);
    d.dst_owner = owner;
    OK(cgn_graph_add_memset(g, NULL, 0, &d, node_out));
    return g;
}

/* fill_graph without an owner, and an executable of it. */
static cgn_graph *fill_exec(cgn_test_env *env, int buf, uint32_t value, cgn_node **node_out,
                            cgn_exec **exec_out) {
    cgn_graph *g = fill_graph(env, buf, value, NULL, node_out);
    OK(cgn_graph_instantiate(g, exec_out));
    return g;
}

/* A raw executable of g's raw graph, made on the fake directly (invisible to cgn). */
static CUgraphExec raw_exec_of(cgn_graph *g) {
    CUgraph rg;
    OK(cgn_graph_raw(g, &rg));
    CUgraphExec rx;
    CU_OK(raw()->cuGraphInstantiateWithFlags(&rx, rg, 0));
    return rx;
}

static uint32_t u32_arg(const cgn_kernel_desc *d, uint32_t i) {
    uint32_t v;
    assert_true(i < d->num_args);
    assert_int_equal(d->args[i].size, sizeof v);
    memcpy(&v, d->args[i].value, sizeof v);
    return v;
}

static CUdeviceptr ptr_arg(const cgn_kernel_desc *d, uint32_t i) {
    CUdeviceptr v;
    assert_true(i < d->num_args);
    assert_int_equal(d->args[i].size, sizeof v);
    memcpy(&v, d->args[i].value, sizeof v);
    return v;
}

static void kget(cgn_exec *e, cgn_node *n, cgn_kernel_desc *d) {
    OK(e ? cgn_kernel_exec_get(e, n, d) : cgn_kernel_node_get(n, d));
}

static cgn_status kupdate(cgn_exec *e, cgn_node *n, const cgn_kernel_update *u) {
    return e ? cgn_kernel_exec_update(e, n, u) : cgn_kernel_node_update(n, u);
}

/* A snapshot of a two-argument fill node: what a failed call must leave. */
typedef struct fill_snap {
    CUdeviceptr out;
    uint32_t value;
    cgn_owner *owner0;
    cgn_kernel kernel;
    cgn_dim3 grid;
} fill_snap;

static fill_snap fill_snapshot(cgn_exec *e, cgn_node *n) {
    cgn_kernel_desc d;
    kget(e, n, &d);
    fill_snap s = {ptr_arg(&d, 0), u32_arg(&d, 1), d.args[0].owner, d.kernel, d.grid};
    return s;
}

static void assert_fill_snap(const fill_snap *a, const fill_snap *b) {
    assert_int_equal(a->out, b->out);
    assert_int_equal(a->value, b->value);
    assert_ptr_equal(a->owner0, b->owner0);
    assert_ptr_equal(a->kernel.function, b->kernel.function);
    assert_ptr_equal(a->kernel.kernel, b->kernel.kernel);
    assert_int_equal(a->grid.x, b->grid.x);
}

static uint32_t run_u32(cgn_test_env *env, cgn_exec *e, cgn_graph *g, int buf) {
    unsigned char zeros[CGN_TEST_BUF_SIZE] = {0};
    uint32_t got;
    env->backend->write(env, env->buf[buf], zeros, sizeof zeros);
    if (e) {
        OK(env->backend->launch(env, e));
    } else {
        cgn_exec *x = bb_instantiate(g);
        OK(env->backend->launch(env, x));
        OK(cgn_exec_destroy(x));
    }
    env->backend->read(env, env->buf[buf], &got, sizeof got);
    return got;
}

static void memset_eq(const cgn_memset_desc *a, const cgn_memset_desc *b) {
    assert_int_equal(a->dst, b->dst);
    assert_ptr_equal(a->dst_owner, b->dst_owner);
    assert_int_equal(a->value, b->value);
    assert_int_equal(a->element_size, b->element_size);
    assert_int_equal(a->width, b->width);
    assert_int_equal(a->height, b->height);
}

/* ==== handles and pointers =====================================================================
 */

/* Every out pointer given as NULL is CGN_ERROR_INVALID_ARGUMENT with a message. */
static void test_null_out_pointers(void **state) {
    cgn_test_env *env = *state;
    cgn_graph *g;
    cgn_node *n;
    cgn_exec *e;
    cgn_test_fill_graph(env, &g, &n, &e);
    cgn_memset_desc d = cgn_test_fill_desc(env, 0, 1, 0);
    EXPECT_ST(CGN_ERROR_INVALID_ARGUMENT, cgn_graph_create(NULL));
    EXPECT_ST(CGN_ERROR_INVALID_ARGUMENT, cgn_owner_create(NULL, NULL, NULL));
    EXPECT_ST(CGN_ERROR_INVALID_ARGUMENT, cgn_driver_version(NULL));
    EXPECT_ST(CGN_ERROR_INVALID_ARGUMENT, cgn_graph_raw(g, NULL));
    EXPECT_ST(CGN_ERROR_INVALID_ARGUMENT, cgn_graph_add_empty(g, NULL, 0, NULL));
    EXPECT_ST(CGN_ERROR_INVALID_ARGUMENT, cgn_graph_add_memset(g, NULL, 0, &d, NULL));
    EXPECT_ST(CGN_ERROR_INVALID_ARGUMENT, cgn_graph_add_memset(g, NULL, 0, NULL, &n));
    EXPECT_ST(CGN_ERROR_INVALID_ARGUMENT, cgn_node_type_of(n, NULL));
    EXPECT_ST(CGN_ERROR_INVALID_ARGUMENT, cgn_node_raw(n, NULL));
    EXPECT_ST(CGN_ERROR_INVALID_ARGUMENT, cgn_node_graph(n, NULL));
    EXPECT_ST(CGN_ERROR_INVALID_ARGUMENT, cgn_graph_instantiate(g, NULL));
    EXPECT_ST(CGN_ERROR_INVALID_ARGUMENT, cgn_graph_instantiate_with_flags(g, 0, NULL));
    EXPECT_ST(CGN_ERROR_INVALID_ARGUMENT, cgn_exec_raw(e, NULL));
    EXPECT_ST(CGN_ERROR_INVALID_ARGUMENT, cgn_exec_node_get_enabled(e, n, NULL));
    EXPECT_ST(CGN_ERROR_INVALID_ARGUMENT, cgn_memset_node_get(n, NULL));
    EXPECT_ST(CGN_ERROR_INVALID_ARGUMENT, cgn_memset_exec_get(e, n, NULL));
    EXPECT_ST(CGN_ERROR_INVALID_ARGUMENT, cgn_memset_node_update(n, NULL));
    EXPECT_ST(CGN_ERROR_INVALID_ARGUMENT, cgn_memset_exec_update(e, n, NULL));
    EXPECT_ST(CGN_ERROR_INVALID_ARGUMENT, cgn_graph_nodes(g, NULL, NULL));
    EXPECT_ST(CGN_ERROR_INVALID_ARGUMENT, cgn_node_dependencies(n, NULL, NULL));
    EXPECT_ST(CGN_ERROR_INVALID_ARGUMENT, cgn_node_dependents(n, NULL, NULL));
    EXPECT_ST(CGN_ERROR_INVALID_ARGUMENT, cgn_graph_find_raw(g, NULL, NULL));
    EXPECT_ST(CGN_ERROR_INVALID_ARGUMENT,
              cgn_graph_find_kernel(g, cgn_test_kernel(env, "fill_u32"), NULL, NULL));
    EXPECT_ST(CGN_ERROR_INVALID_ARGUMENT, cgn_graph_adopt(NULL, 0, NULL));
    EXPECT_ST(CGN_ERROR_INVALID_ARGUMENT, cgn_driver_proc("cuMemAlloc", 3020, NULL));
    EXPECT_ST(CGN_ERROR_INVALID_ARGUMENT, cgn_driver_proc(NULL, 3020, NULL));
    assert_int_equal(cgn_test_count_nodes(g), 1);
    destroy_exec_graph(e, g);
}

/* NULL handles, values that were never handles and handles of another kind are reported, never
 * dereferenced. */
static void test_null_and_foreign_handles(void **state) {
    cgn_test_env *env = *state;
    cgn_graph *g;
    cgn_node *n;
    cgn_exec *e;
    cgn_test_fill_graph(env, &g, &n, &e);
    cgn_memset_update u = bb_value_update(2);
    cgn_memset_desc d;
    cgn_node_type t;
    int en;
    cgn_node *bogus_node = (cgn_node *)(uintptr_t)0x1234;
    cgn_graph *bogus_graph = (cgn_graph *)(uintptr_t)0x5678;
    cgn_exec *bogus_exec = (cgn_exec *)(uintptr_t)0x9abc;
    EXPECT_ST(CGN_ERROR_INVALID_ARGUMENT, cgn_graph_destroy(NULL));
    EXPECT_ST(CGN_ERROR_INVALID_ARGUMENT, cgn_node_destroy(NULL));
    EXPECT_ST(CGN_ERROR_INVALID_ARGUMENT, cgn_exec_destroy(NULL));
    EXPECT_ST(CGN_ERROR_INVALID_ARGUMENT, cgn_memset_node_update(NULL, &u));
    EXPECT_ST(CGN_ERROR_INVALID_ARGUMENT, cgn_memset_exec_update(NULL, n, &u));
    EXPECT_ST(CGN_ERROR_INVALID_ARGUMENT, cgn_memset_exec_update(e, NULL, &u));
    EXPECT_ST(CGN_ERROR_INVALID_ARGUMENT, cgn_exec_launch(NULL, NULL));
    EXPECT_ST(CGN_ERROR_INVALID_ARGUMENT, cgn_exec_update_from_graph(NULL, g));
    EXPECT_ST(CGN_ERROR_INVALID_ARGUMENT, cgn_exec_update_from_graph(e, NULL));
    EXPECT_ST(CGN_ERROR_INVALID_ARGUMENT, cgn_node_refresh(NULL));
    EXPECT_ST(CGN_ERROR_INVALID_ARGUMENT, cgn_node_check_updatable(NULL));
    EXPECT_ST(CGN_ERROR_INVALID_ARGUMENT, cgn_owner_retain(NULL));
    EXPECT_ST(CGN_ERROR_INVALID_ARGUMENT, cgn_owner_release(NULL));
    assert_int_equal(cgn_node_is_alive(NULL), 0);
    /* Garbage. */
    EXPECT_ST(CGN_ERROR_INVALID_ARGUMENT, cgn_memset_node_update(bogus_node, &u));
    EXPECT_ST(CGN_ERROR_INVALID_ARGUMENT, cgn_memset_node_get(bogus_node, &d));
    EXPECT_ST(CGN_ERROR_INVALID_ARGUMENT, cgn_node_destroy(bogus_node));
    EXPECT_ST(CGN_ERROR_INVALID_ARGUMENT, cgn_node_type_of(bogus_node, &t));
    EXPECT_ST(CGN_ERROR_INVALID_ARGUMENT, cgn_graph_destroy(bogus_graph));
    EXPECT_ST(CGN_ERROR_INVALID_ARGUMENT, cgn_graph_instantiate(bogus_graph, &e));
    EXPECT_ST(CGN_ERROR_INVALID_ARGUMENT, cgn_exec_destroy(bogus_exec));
    EXPECT_ST(CGN_ERROR_INVALID_ARGUMENT, cgn_exec_launch(bogus_exec, NULL));
    EXPECT_ST(CGN_ERROR_INVALID_ARGUMENT, cgn_exec_node_get_enabled(bogus_exec, n, &en));
    EXPECT_ST(CGN_ERROR_INVALID_ARGUMENT, cgn_memset_exec_update(e, bogus_node, &u));
    assert_int_equal(cgn_node_is_alive(bogus_node), 0);
    /* Wrong kinds: a graph as a node, a node as a graph, an executable as a graph, ... */
    EXPECT_ST(CGN_ERROR_INVALID_ARGUMENT, cgn_memset_node_update((cgn_node *)(void *)g, &u));
    EXPECT_ST(CGN_ERROR_INVALID_ARGUMENT, cgn_node_destroy((cgn_node *)(void *)e));
    EXPECT_ST(CGN_ERROR_INVALID_ARGUMENT, cgn_graph_destroy((cgn_graph *)(void *)n));
    EXPECT_ST(CGN_ERROR_INVALID_ARGUMENT, cgn_graph_destroy((cgn_graph *)(void *)e));
    EXPECT_ST(CGN_ERROR_INVALID_ARGUMENT, cgn_exec_destroy((cgn_exec *)(void *)g));
    EXPECT_ST(CGN_ERROR_INVALID_ARGUMENT, cgn_exec_launch((cgn_exec *)(void *)n, NULL));
    EXPECT_ST(CGN_ERROR_INVALID_ARGUMENT,
              cgn_memset_exec_update((cgn_exec *)(void *)g, n, &u));
    EXPECT_ST(CGN_ERROR_INVALID_ARGUMENT, cgn_graph_add_empty((cgn_graph *)(void *)n, NULL, 0,
                                                              &n));
    assert_int_equal(cgn_node_is_alive((cgn_node *)(void *)g), 0);
    /* Nothing changed. */
    assert_true(cgn_node_is_alive(n));
    OK(cgn_memset_node_get(n, &d));
    assert_int_equal(d.value, 0x11);
    OK(cgn_memset_exec_get(e, n, &d));
    assert_int_equal(d.value, 0x11);
    assert_int_equal(cgn_test_count_nodes(g), 1);
    assert_int_equal(cgn_test_run_read(env, e, 0), 0x11);
    destroy_exec_graph(e, g);
}

/* A second destroy of anything is CGN_ERROR_DESTROYED; so is every later use of the handle. */
static void test_double_destroy(void **state) {
    cgn_test_env *env = *state;
    cgn_graph *g;
    cgn_node *n, *m;
    cgn_exec *e;
    cgn_test_fill_graph(env, &g, &n, &e);
    OK(cgn_graph_add_empty(g, NULL, 0, &m));
    OK(cgn_node_destroy(m));
    EXPECT_ST(CGN_ERROR_DESTROYED, cgn_node_destroy(m));
    cgn_node_type t;
    EXPECT_ST(CGN_ERROR_DESTROYED, cgn_node_type_of(m, &t));
    CUgraphNode rn;
    EXPECT_ST(CGN_ERROR_DESTROYED, cgn_node_raw(m, &rn));
    assert_int_equal(cgn_node_is_alive(m), 0);
    OK(cgn_exec_destroy(e));
    EXPECT_ST(CGN_ERROR_DESTROYED, cgn_exec_destroy(e));
    EXPECT_ST(CGN_ERROR_DESTROYED, cgn_exec_launch(e, NULL));
    cgn_memset_desc d;
    EXPECT_ST(CGN_ERROR_DESTROYED, cgn_memset_exec_get(e, n, &d));
    cgn_memset_update u = bb_value_update(3);
    EXPECT_ST(CGN_ERROR_DESTROYED, cgn_memset_exec_update(e, n, &u));
    OK(cgn_graph_destroy(g));
    EXPECT_ST(CGN_ERROR_DESTROYED, cgn_graph_destroy(g));
    EXPECT_ST(CGN_ERROR_DESTROYED, cgn_graph_add_empty(g, NULL, 0, &m));
    EXPECT_ST(CGN_ERROR_DESTROYED, cgn_graph_instantiate(g, &e));
    size_t count = 0;
    EXPECT_ST(CGN_ERROR_DESTROYED, cgn_graph_nodes(g, NULL, &count));
    /* A node of the destroyed graph: definition calls report it destroyed. */
    EXPECT_ST(CGN_ERROR_DESTROYED, cgn_memset_node_update(n, &u));
    EXPECT_ST(CGN_ERROR_DESTROYED, cgn_memset_node_get(n, &d));
    EXPECT_ST(CGN_ERROR_DESTROYED, cgn_node_destroy(n));
    EXPECT_ST(CGN_ERROR_DESTROYED, cgn_node_refresh(n));
}

/* A dependency of another graph, a destroyed one, NULL, or deps NULL with a count: refused, and
 * the graph is as it was. */
static void test_bad_dependencies(void **state) {
    cgn_test_env *env = *state;
    cgn_graph *g, *h;
    cgn_node *a, *b, *x, *out = NULL;
    OK(cgn_graph_create(&g));
    OK(cgn_graph_create(&h));
    OK(cgn_graph_add_empty(g, NULL, 0, &a));
    OK(cgn_graph_add_empty(h, NULL, 0, &b));
    OK(cgn_graph_add_empty(g, NULL, 0, &x));
    OK(cgn_node_destroy(x));
    cgn_memset_desc d = cgn_test_fill_desc(env, 0, 1, 1);
    cgn_node *other[1] = {b}, *mixed[2] = {a, b}, *nulls[2] = {a, NULL}, *dead[1] = {x};
    EXPECT_ST(CGN_ERROR_INVALID_ARGUMENT, cgn_graph_add_empty(g, other, 1, &out));
    EXPECT_ST(CGN_ERROR_INVALID_ARGUMENT, cgn_graph_add_memset(g, mixed, 2, &d, &out));
    EXPECT_ST(CGN_ERROR_INVALID_ARGUMENT, cgn_graph_add_memset(g, nulls, 2, &d, &out));
    EXPECT_ST(CGN_ERROR_INVALID_ARGUMENT, cgn_graph_add_memset(g, NULL, 1, &d, &out));
    EXPECT_ST(CGN_ERROR_DESTROYED, cgn_graph_add_memset(g, dead, 1, &d, &out));
    /* num_deps too large: refused before the array is read (it holds one entry). */
    EXPECT_ST(CGN_ERROR_OUT_OF_RANGE, cgn_graph_add_empty(g, other, SIZE_MAX, &out));
    EXPECT_ST(CGN_ERROR_OUT_OF_RANGE,
              cgn_graph_add_memset(g, other, SIZE_MAX / sizeof(cgn_node *) + 1, &d, &out));
    assert_null(out);
    assert_int_equal(cgn_test_count_nodes(g), 1);
    assert_int_equal(cgn_test_count_nodes(h), 1);
    CUgraph rg;
    OK(cgn_graph_raw(g, &rg));
    assert_int_equal(cgn_fake_graph_node_count(rg), 1);
    size_t deps = 5;
    OK(cgn_node_dependents(a, NULL, &deps));
    assert_int_equal(deps, 0);
    /* A node of a destroyed graph as a dependency elsewhere. */
    OK(cgn_graph_destroy(h));
    cgn_status st = cgn_graph_add_empty(g, other, 1, &out);
    assert_true(st == CGN_ERROR_DESTROYED || st == CGN_ERROR_INVALID_ARGUMENT);
    assert_null(out);
    assert_int_equal(cgn_test_count_nodes(g), 1);
    OK(cgn_graph_destroy(g));
    /* The owner given to the refused adds was never retained. */
    cgn_test_env_drop_owners(env);
    collect_all();
    assert_int_equal(env->released[0], 1);
}

/* Typed calls on a node of another type: CGN_ERROR_WRONG_NODE_TYPE, at both levels. */
static void test_wrong_node_type(void **state) {
    cgn_test_env *env = *state;
    cgn_graph *g;
    cgn_node *n, *empty;
    cgn_exec *e;
    cgn_test_fill_graph(env, &g, &n, &e);
    OK(cgn_graph_add_empty(g, NULL, 0, &empty));
    cgn_kernel_update u = CGN_KERNEL_UPDATE_INIT;
    cgn_kernel_update_set_grid(&u, CGN_DIM3(2, 1, 1));
    cgn_kernel_desc kd;
    EXPECT_ST(CGN_ERROR_WRONG_NODE_TYPE, cgn_kernel_node_update(n, &u));
    EXPECT_ST(CGN_ERROR_WRONG_NODE_TYPE, cgn_kernel_node_get(n, &kd));
    EXPECT_ST(CGN_ERROR_WRONG_NODE_TYPE, cgn_kernel_exec_update(e, n, &u));
    EXPECT_ST(CGN_ERROR_WRONG_NODE_TYPE, cgn_kernel_exec_get(e, n, &kd));
    cgn_graph *emb;
    EXPECT_ST(CGN_ERROR_WRONG_NODE_TYPE, cgn_child_graph_node_embedded(n, &emb));
    cgn_memset_update mu = bb_value_update(1);
    EXPECT_ST(CGN_ERROR_WRONG_NODE_TYPE, cgn_memset_node_update(empty, &mu));
    cgn_memset_desc d;
    OK(cgn_memset_node_get(n, &d));
    assert_int_equal(d.value, 0x11);
    destroy_exec_graph(e, g);
}

/* Bits of `set` that name no field are refused; an update with nothing set changes nothing and
 * makes no driver call. */
static void test_unknown_set_bits_and_empty_update(void **state) {
    cgn_test_env *env = *state;
    cgn_graph *g;
    cgn_node *n;
    cgn_exec *e;
    cgn_test_fill_graph(env, &g, &n, &e);
    cgn_memset_update u = bb_value_update(0x22);
    u.set |= UINT64_C(1) << 40;
    EXPECT_ST(CGN_ERROR_INVALID_ARGUMENT, cgn_memset_node_update(n, &u));
    EXPECT_ST(CGN_ERROR_INVALID_ARGUMENT, cgn_memset_exec_update(e, n, &u));
    cgn_kernel_update ku = CGN_KERNEL_UPDATE_INIT;
    ku.set = ~CGN_KERNEL_SET_ALL;
    cgn_node *k;
    cgn_graph *kg = fill_graph(env, 0, 1, NULL, &k);
    EXPECT_ST(CGN_ERROR_INVALID_ARGUMENT, cgn_kernel_node_update(k, &ku));
    cgn_memset_update none = CGN_MEMSET_UPDATE_INIT;
    cgn_fault_reset_counts();
    OK(cgn_memset_node_update(n, &none));
    OK(cgn_memset_exec_update(e, n, &none));
    assert_int_equal(cgn_fault_setter_calls(), 0);
    cgn_memset_desc d;
    OK(cgn_memset_node_get(n, &d));
    assert_int_equal(d.value, 0x11);
    assert_int_equal(cgn_test_run_read(env, e, 0), 0x11);
    OK(cgn_graph_destroy(kg));
    destroy_exec_graph(e, g);
}

/* ==== argument-level edits ======================================================================
 */

/* An index past the kernel's arguments: CGN_ERROR_INVALID_VALUE, at both levels, on a CUkernel
 * node (fill_u32) and a CUfunction node (add_one); nothing changes. */
static void test_arg_edit_index_out_of_range(void **state) {
    cgn_test_env *env = *state;
    cgn_node *f, *a;
    cgn_graph *fg = fill_graph(env, 0, 5, NULL, &f);
    cgn_graph *ag = add_one_graph(env, 1, &a);
    cgn_exec *fe, *ae;
    OK(cgn_graph_instantiate(fg, &fe));
    OK(cgn_graph_instantiate(ag, &ae));
    uint32_t v = 9;
    CUdeviceptr p = env->buf[2];
    for (int level = 0; level < 2; level++) {
        cgn_exec *x = level ? fe : NULL;
        fill_snap before = fill_snapshot(x, f);
        uint32_t bad_index[] = {2, 3, 1000, UINT32_MAX};
        for (size_t i = 0; i < sizeof bad_index / sizeof bad_index[0]; i++) {
            cgn_kernel_update u = CGN_KERNEL_UPDATE_INIT;
            cgn_kernel_update_set_arg(&u, bad_index[i], &v, sizeof v, NULL);
            EXPECT_ST(CGN_ERROR_INVALID_VALUE, kupdate(x, f, &u));
            /* a valid edit in the same update does not go through either */
            cgn_kernel_update_set_arg(&u, 1, &v, sizeof v, NULL);
            EXPECT_ST(CGN_ERROR_INVALID_VALUE, kupdate(x, f, &u));
        }
        fill_snap after = fill_snapshot(x, f);
        assert_fill_snap(&before, &after);
        cgn_kernel_update u = CGN_KERNEL_UPDATE_INIT;
        cgn_kernel_update_set_arg(&u, 1, &p, sizeof p, NULL);
        cgn_exec *y = level ? ae : NULL;
        EXPECT_ST(CGN_ERROR_INVALID_VALUE, kupdate(y, a, &u));
        cgn_kernel_desc d;
        kget(y, a, &d);
        assert_int_equal(d.num_args, 1);
        assert_int_equal(ptr_arg(&d, 0), env->buf[1]);
    }
    assert_int_equal(run_u32(env, fe, NULL, 0), 5);
    OK(cgn_exec_destroy(fe));
    destroy_exec_graph(ae, fg);
    OK(cgn_graph_destroy(ag));
}

/* An edit whose size is not the kernel's size for that argument: CGN_ERROR_INVALID_VALUE; a size
 * that does not fit 32 bits (stored as UINT32_MAX) is refused too. */
static void test_arg_edit_wrong_size(void **state) {
    cgn_test_env *env = *state;
    cgn_node *f;
    cgn_exec *fe;
    cgn_graph *fg = fill_exec(env, 0, 5, &f, &fe);
    uint64_t big = 9;
    unsigned char bytes[16] = {0};
    for (int level = 0; level < 2; level++) {
        cgn_exec *x = level ? fe : NULL;
        fill_snap before = fill_snapshot(x, f);
        size_t sizes[] = {0, 1, 2, 8, 16};
        for (size_t i = 0; i < sizeof sizes / sizeof sizes[0]; i++) {
            cgn_kernel_update u = CGN_KERNEL_UPDATE_INIT;
            cgn_kernel_update_set_arg(&u, 1, bytes, sizes[i], NULL);
            EXPECT_ST(CGN_ERROR_INVALID_VALUE, kupdate(x, f, &u));
        }
        cgn_kernel_update u = CGN_KERNEL_UPDATE_INIT;
        cgn_kernel_update_set_arg(&u, 0, &big, 4, NULL); /* a pointer given 4 bytes */
        EXPECT_ST(CGN_ERROR_INVALID_VALUE, kupdate(x, f, &u));
        cgn_kernel_update w = CGN_KERNEL_UPDATE_INIT;
        cgn_kernel_update_set_arg(&w, 1, bytes, SIZE_MAX, NULL);
        assert_int_equal(w.arg_edits.edit[0].size, UINT32_MAX);
        cgn_status st = kupdate(x, f, &w);
        assert_int_not_equal(st, CGN_OK);
        assert_true(st == CGN_ERROR_INVALID_VALUE || st == CGN_ERROR_OUT_OF_RANGE);
        fill_snap after = fill_snapshot(x, f);
        assert_fill_snap(&before, &after);
    }
    assert_int_equal(run_u32(env, fe, NULL, 0), 5);
    assert_int_equal(run_u32(env, NULL, fg, 0), 5);
    destroy_exec_graph(fe, fg);
}

/* More than CGN_MAX_ARG_EDITS edits, or an edit without a value: CGN_ERROR_INVALID_ARGUMENT;
 * owners given to the refused edits are not retained. */
static void test_arg_edit_too_many_or_null(void **state) {
    cgn_test_env *env = *state;
    cgn_node *f;
    cgn_exec *fe;
    cgn_graph *fg = fill_exec(env, 0, 5, &f, &fe);
    cgn_owner *o = mine(1);
    CUdeviceptr p = env->buf[1];
    uint32_t v = 3;
    for (int level = 0; level < 2; level++) {
        cgn_exec *x = level ? fe : NULL;
        fill_snap before = fill_snapshot(x, f);
        cgn_kernel_update u = CGN_KERNEL_UPDATE_INIT;
        for (int i = 0; i < CGN_MAX_ARG_EDITS + 1; i++)
            cgn_kernel_update_set_arg(&u, 0, &p, sizeof p, o);
        assert_int_equal(u.arg_edits.count, CGN_MAX_ARG_EDITS + 1);
        EXPECT_ST(CGN_ERROR_INVALID_ARGUMENT, kupdate(x, f, &u));
        u.arg_edits.count = UINT32_MAX;
        EXPECT_ST(CGN_ERROR_INVALID_ARGUMENT, kupdate(x, f, &u));
        cgn_kernel_update w = CGN_KERNEL_UPDATE_INIT;
        cgn_kernel_update_set_arg(&w, 1, &v, sizeof v, NULL);
        cgn_kernel_update_set_arg(&w, 0, NULL, sizeof p, o);
        EXPECT_ST(CGN_ERROR_INVALID_ARGUMENT, kupdate(x, f, &w));
        fill_snap after = fill_snapshot(x, f);
        assert_fill_snap(&before, &after);
        /* exactly the bound is fine */
        cgn_kernel_update ok = CGN_KERNEL_UPDATE_INIT;
        for (uint32_t i = 0; i < CGN_MAX_ARG_EDITS; i++) {
            uint32_t *val = (uint32_t *)(uintptr_t)cgn_test_bytes(env, &i, sizeof i);
            cgn_kernel_update_set_arg(&ok, 1, val, sizeof *val, NULL);
        }
        OK(kupdate(x, f, &ok));
        assert_int_equal(fill_snapshot(x, f).value, CGN_MAX_ARG_EDITS - 1);
    }
    OK(cgn_owner_release(o));
    collect_all();
    assert_int_equal(mine_released[1], 1); /* no refused update kept it */
    destroy_exec_graph(fe, fg);
}

/* The same index edited twice in one update: the later edit wins, value and owner; the earlier
 * edit's owner is not held by anything. */
static void test_arg_edit_repeated_index(void **state) {
    cgn_test_env *env = *state;
    for (int level = 0; level < 2; level++) {
        cgn_node *f;
        cgn_exec *fe;
        cgn_graph *fg = fill_exec(env, 0, 5, &f, &fe);
        cgn_exec *x = level ? fe : NULL;
        cgn_owner *first = mine(2), *second = mine(3);
        CUdeviceptr p1 = env->buf[1], p2 = env->buf[2];
        uint32_t a = 40, b = 41;
        cgn_kernel_update u = CGN_KERNEL_UPDATE_INIT;
        cgn_kernel_update_set_arg(&u, 0, &p1, sizeof p1, first);
        cgn_kernel_update_set_arg(&u, 1, &a, sizeof a, NULL);
        cgn_kernel_update_set_arg(&u, 0, &p2, sizeof p2, second);
        cgn_kernel_update_set_arg(&u, 1, &b, sizeof b, NULL);
        OK(kupdate(x, f, &u));
        cgn_kernel_desc d;
        kget(x, f, &d);
        assert_int_equal(ptr_arg(&d, 0), env->buf[2]);
        assert_int_equal(u32_arg(&d, 1), 41);
        assert_ptr_equal(d.args[0].owner, second);
        assert_int_equal(run_u32(env, x, fg, 2), 41);
        OK(cgn_owner_release(first));
        OK(cgn_owner_release(second));
        expect_released2(2, 1, 3, 0);
        destroy_exec_graph(fe, fg);
        expect_released2(2, 1, 3, 1);
    }
}

/* Edits combined with set_args apply to the new list; with set_kernel they index the new
 * kernel's arguments (an index valid only for the old kernel is refused). */
static void test_arg_edit_with_args_and_kernel(void **state) {
    cgn_test_env *env = *state;
    for (int level = 0; level < 2; level++) {
        cgn_node *f;
        cgn_exec *fe;
        cgn_graph *fg = fill_exec(env, 0, 5, &f, &fe);
        cgn_exec *x = level ? fe : NULL;
        cgn_arg args[2] = {cgn_test_arg_buf(env, 1, 0), cgn_test_arg_u32(env, 60)};
        uint32_t v = 61;
        cgn_kernel_update u = CGN_KERNEL_UPDATE_INIT;
        cgn_kernel_update_set_arg(&u, 1, &v, sizeof v, NULL); /* before set_args: still after */
        cgn_kernel_update_set_args(&u, args, 2);
        OK(kupdate(x, f, &u));
        cgn_kernel_desc d;
        kget(x, f, &d);
        assert_int_equal(ptr_arg(&d, 0), env->buf[1]);
        assert_int_equal(u32_arg(&d, 1), 61);
        assert_int_equal(run_u32(env, x, fg, 1), 61);
        /* A new kernel, fill_u32 -> write_config(p): only index 0 exists now. */
        if (level == 0) {
            cgn_arg one[1] = {cgn_test_arg_buf(env, 3, 0)};
            CUdeviceptr p = env->buf[2];
            cgn_kernel_update k = CGN_KERNEL_UPDATE_INIT;
            cgn_kernel_update_set_kernel(&k, cgn_test_kernel(env, "write_config"), NULL, one, 1);
            cgn_kernel_update_set_arg(&k, 1, &v, sizeof v, NULL);
            EXPECT_ST(CGN_ERROR_INVALID_VALUE, kupdate(x, f, &k));
            kget(x, f, &d);
            assert_int_equal(d.num_args, 2);
            assert_int_equal(u32_arg(&d, 1), 61);
            cgn_kernel_update_reset(&k);
            cgn_kernel_update_set_kernel(&k, cgn_test_kernel(env, "write_config"), NULL, one, 1);
            cgn_kernel_update_set_arg(&k, 0, &p, sizeof p, NULL);
            OK(kupdate(x, f, &k));
            kget(x, f, &d);
            assert_int_equal(d.num_args, 1);
            assert_int_equal(ptr_arg(&d, 0), env->buf[2]);
        }
        /* An edit index past a shorter args list given in the same update. */
        cgn_arg few[1] = {cgn_test_arg_buf(env, 1, 0)};
        cgn_kernel_update s = CGN_KERNEL_UPDATE_INIT;
        cgn_kernel_update_set_args(&s, few, 1);
        cgn_kernel_update_set_arg(&s, 1, &v, sizeof v, NULL);
        cgn_status st = kupdate(x, f, &s);
        assert_int_not_equal(st, CGN_OK);
        destroy_exec_graph(fe, fg);
    }
}

/* The edited argument's owner replaces the owner of the value it replaces: the old owner goes
 * once nothing holds it, the new one is held until the node and executables let go. */
static void test_arg_edit_owner_replaces_old(void **state) {
    cgn_test_env *env = *state;
    cgn_owner *old_owner = mine(4), *new_owner = mine(5), *exec_owner = mine(6);
    cgn_node *f;
    cgn_graph *fg = fill_graph(env, 0, 5, old_owner, &f);
    OK(cgn_owner_release(old_owner)); /* the graph holds it */
    CUdeviceptr p = env->buf[1];
    cgn_kernel_update u = CGN_KERNEL_UPDATE_INIT;
    cgn_kernel_update_set_arg(&u, 0, &p, sizeof p, new_owner);
    OK(cgn_kernel_node_update(f, &u));
    OK(cgn_owner_release(new_owner));
    expect_released2(4, 1, 5, 0);
    /* A scalar edit keeps the pointer's owner. */
    uint32_t v = 7;
    cgn_kernel_update w = CGN_KERNEL_UPDATE_INIT;
    cgn_kernel_update_set_arg(&w, 1, &v, sizeof v, NULL);
    OK(cgn_kernel_node_update(f, &w));
    expect_released(5, 0);
    cgn_kernel_desc d;
    OK(cgn_kernel_node_get(f, &d));
    assert_ptr_equal(d.args[0].owner, new_owner);
    /* At executable level: the executable's own owner replaces what it had. */
    cgn_exec *e = bb_instantiate(fg);
    CUdeviceptr q = env->buf[3];
    cgn_kernel_update x = CGN_KERNEL_UPDATE_INIT;
    cgn_kernel_update_set_arg(&x, 0, &q, sizeof q, exec_owner);
    OK(cgn_kernel_exec_update(e, f, &x));
    OK(cgn_owner_release(exec_owner));
    assert_int_equal(run_u32(env, e, NULL, 3), 7);
    expect_released(6, 0);
    /* An edit of the pointer without owner drops the executable's owner (after its launch). */
    cgn_kernel_update y = CGN_KERNEL_UPDATE_INIT;
    cgn_kernel_update_set_arg(&y, 0, &p, sizeof p, NULL);
    OK(cgn_kernel_exec_update(e, f, &y));
    assert_int_equal(run_u32(env, e, NULL, 1), 7);
    expect_released(6, 1);
    assert_int_equal(mine_released[5], 0); /* still the definition's */
    destroy_exec_graph(e, fg);
    expect_released2(4, 1, 5, 1);
    assert_int_equal(mine_released[6], 1);
}

/* Every driver call of an argument-level update (definition and executable level, with and
 * without a new owner, CUkernel and CUfunction nodes) made to fail in turn: the call fails, the
 * node or executable is as before, the new owner is not kept, the old one not released, and the
 * calling thread's context is unchanged. */
static void test_arg_edit_driver_faults(void **state) {
    cgn_test_env *env = *state;
    for (int variant = 0; variant < 8; variant++) {
        int level = variant & 1, owned = (variant >> 1) & 1, ctx_none = (variant >> 2) & 1;
        int failures = 0;
        for (long k = 1; k < 64; k++) {
            cgn_owner *held = mine(7), *given = mine(8);
            cgn_node *f;
            cgn_graph *fg = fill_graph(env, 0, 5, held, &f);
            OK(cgn_owner_release(held));
            cgn_exec *fe = bb_instantiate(fg);
            cgn_exec *x = level ? fe : NULL;
            fill_snap before = fill_snapshot(x, f);
            fill_snap other = fill_snapshot(level ? NULL : fe, f);
            CUdeviceptr p = env->buf[1];
            uint32_t v = 99;
            cgn_kernel_update u = CGN_KERNEL_UPDATE_INIT;
            cgn_kernel_update_set_arg(&u, 0, &p, sizeof p, owned ? given : NULL);
            cgn_kernel_update_set_arg(&u, 1, &v, sizeof v, NULL);
            if (ctx_none)
                env->backend->set_context(env, CGN_TEST_CTX_NONE);
            bb_fault_arm(k, CUDA_ERROR_OUT_OF_MEMORY);
            cgn_status st = kupdate(x, f, &u);
            int hit = bb_fault_done(NULL);
            int ctx = env->backend->current_context(env);
            env->backend->set_context(env, CGN_TEST_CTX_OWN);
            assert_int_equal(ctx, ctx_none ? CGN_TEST_CTX_NONE : CGN_TEST_CTX_OWN);
            fill_snap after_other = fill_snapshot(level ? NULL : fe, f);
            assert_fill_snap(&other, &after_other);
            if (st != CGN_OK) {
                assert_true(hit);
                failures++;
                assert_true(cgn_last_error()[0] != '\0');
                fill_snap after = fill_snapshot(x, f);
                assert_fill_snap(&before, &after);
                assert_int_equal(run_u32(env, x, fg, 0), 5);
            } else {
                assert_int_equal(run_u32(env, x, fg, 1), 99);
            }
            OK(cgn_owner_release(given));
            collect_all();
            /* A failed update kept nothing of what it was given. */
            if (st != CGN_OK && owned)
                assert_int_equal(mine_released[8], 1);
            if (st != CGN_OK)
                assert_int_equal(mine_released[7], 0);
            destroy_exec_graph(fe, fg);
            expect_released2(7, 1, 8, 1);
            if (!hit)
                break;
        }
        assert_true(failures > 0);
    }
}

/* Driver gates: node updates before 12.2 and argument edits before 12.4 are
 * CGN_ERROR_DRIVER_TOO_OLD, with no setter call; setting every argument works on 12.2. */
static void test_driver_too_old(void **state) {
    cgn_test_env *env = *state;
    cgn_node *f;
    cgn_exec *fe;
    cgn_graph *fg = fill_exec(env, 0, 5, &f, &fe);
    uint32_t v = 6;
    cgn_kernel_update u = CGN_KERNEL_UPDATE_INIT;
    cgn_kernel_update_set_arg(&u, 1, &v, sizeof v, NULL);
    cgn_fault_set_version(12030);
    cgn_fault_reset_counts();
    EXPECT_ST(CGN_ERROR_DRIVER_TOO_OLD, cgn_kernel_node_update(f, &u));
    EXPECT_ST(CGN_ERROR_DRIVER_TOO_OLD, cgn_kernel_exec_update(fe, f, &u));
    /* refused before the other checks: an invalid index is still "too old" */
    cgn_kernel_update bad = CGN_KERNEL_UPDATE_INIT;
    cgn_kernel_update_set_arg(&bad, 9, &v, sizeof v, NULL);
    EXPECT_ST(CGN_ERROR_DRIVER_TOO_OLD, cgn_kernel_node_update(f, &bad));
    assert_int_equal(cgn_fault_setter_calls(), 0);
    cgn_arg args[2] = {cgn_test_arg_buf(env, 0, 0), cgn_test_arg_u32(env, 8)};
    cgn_kernel_update all = CGN_KERNEL_UPDATE_INIT;
    cgn_kernel_update_set_args(&all, args, 2);
    OK(cgn_kernel_exec_update(fe, f, &all));
    cgn_fault_set_version(12010);
    cgn_fault_reset_counts();
    EXPECT_ST(CGN_ERROR_DRIVER_TOO_OLD, cgn_kernel_exec_update(fe, f, &all));
    EXPECT_ST(CGN_ERROR_DRIVER_TOO_OLD, cgn_kernel_node_update(f, &all));
    assert_int_equal(cgn_fault_setter_calls(), 0);
    cgn_fault_set_version(13000);
    assert_int_equal(fill_snapshot(fe, f).value, 8);
    assert_int_equal(fill_snapshot(NULL, f).value, 5);
    destroy_exec_graph(fe, fg);
}

/* ==== executables ================================================================================
 */

/* After cgn_graph_destroy, executable-level calls on its nodes keep working (updates, edits,
 * enable/disable, gets), definition calls report CGN_ERROR_DESTROYED. */
static void test_exec_outlives_graph(void **state) {
    cgn_test_env *env = *state;
    cgn_owner *o = mine(9);
    cgn_node *f;
    cgn_exec *fe;
    cgn_graph *fg = fill_exec(env, 0, 5, &f, &fe);
    OK(cgn_graph_destroy(fg));
    uint32_t v = 77;
    CUdeviceptr p = env->buf[2];
    cgn_kernel_update u = CGN_KERNEL_UPDATE_INIT;
    cgn_kernel_update_set_arg(&u, 1, &v, sizeof v, NULL);
    cgn_kernel_update_set_arg(&u, 0, &p, sizeof p, o);
    OK(cgn_kernel_exec_update(fe, f, &u));
    OK(cgn_owner_release(o));
    assert_int_equal(run_u32(env, fe, NULL, 2), 77);
    EXPECT_ST(CGN_ERROR_DESTROYED, cgn_kernel_node_update(f, &u));
    cgn_kernel_desc d;
    EXPECT_ST(CGN_ERROR_DESTROYED, cgn_kernel_node_get(f, &d));
    OK(cgn_exec_node_set_enabled(fe, f, 0));
    int en = 1;
    OK(cgn_exec_node_get_enabled(fe, f, &en));
    assert_int_equal(en, 0);
    assert_int_equal(run_u32(env, fe, NULL, 2), 0);
    OK(cgn_exec_node_set_enabled(fe, f, 1));
    assert_int_equal(run_u32(env, fe, NULL, 2), 77);
    EXPECT_ST(CGN_ERROR_DESTROYED, cgn_exec_update_from_graph(fe, fg));
    assert_int_equal(run_u32(env, fe, NULL, 2), 77);
    expect_released(9, 0);
    OK(cgn_exec_destroy(fe));
    expect_released(9, 1);
}

/* cgn_exec_update_from_graph refusals: another graph, nodes added or destroyed since the
 * instantiation; the executable is unchanged each time. */
static void test_update_from_graph_refusals(void **state) {
    cgn_test_env *env = *state;
    cgn_graph *g, *h;
    cgn_node *n, *m, *extra;
    cgn_exec *e, *he;
    cgn_test_fill_graph(env, &g, &n, &e);
    cgn_test_fill_graph(env, &h, &m, &he);
    cgn_memset_update u = bb_value_update(0x22);
    OK(cgn_memset_node_update(n, &u));
    EXPECT_ST(CGN_ERROR_INVALID_ARGUMENT, cgn_exec_update_from_graph(e, h));
    EXPECT_ST(CGN_ERROR_INVALID_ARGUMENT, cgn_exec_update_from_graph(he, g));
    OK(cgn_graph_add_empty(g, NULL, 0, &extra));
    EXPECT_ST(CGN_ERROR_INVALID_VALUE, cgn_exec_update_from_graph(e, g));
    cgn_memset_desc d;
    OK(cgn_memset_exec_get(e, n, &d));
    assert_int_equal(d.value, 0x11);
    assert_int_equal(cgn_test_run_read(env, e, 0), 0x11);
    /* Node added to an executable-less point: not part of the executable. */
    int en;
    EXPECT_ST(CGN_ERROR_INVALID_ARGUMENT, cgn_exec_node_get_enabled(e, extra, &en));
    OK(cgn_node_destroy(extra));
    OK(cgn_exec_update_from_graph(e, g)); /* same topology again */
    OK(cgn_memset_exec_get(e, n, &d));
    assert_int_equal(d.value, 0x22);
    /* A destroyed node: refused, and the executable cannot address it any more. */
    cgn_node *second;
    cgn_memset_desc sd = cgn_test_fill_desc(env, 1, 0x33, 0);
    OK(cgn_graph_add_memset(h, NULL, 0, &sd, &second));
    cgn_exec *he2 = bb_instantiate(h);
    OK(cgn_node_destroy(second));
    EXPECT_ST(CGN_ERROR_INVALID_VALUE, cgn_exec_update_from_graph(he2, h));
    EXPECT_ST(CGN_ERROR_DESTROYED, cgn_memset_exec_get(he2, second, &d));
    EXPECT_ST(CGN_ERROR_DESTROYED, cgn_exec_node_set_enabled(he2, second, 0));
    assert_int_equal(cgn_test_run_read(env, he2, 1), 0x33); /* still runs its copy */
    /* A node of another graph is not part of the executable. */
    EXPECT_ST(CGN_ERROR_INVALID_ARGUMENT, cgn_memset_exec_update(e, m, &u));
    OK(cgn_exec_destroy(he2));
    OK(cgn_exec_destroy(e));
    destroy_exec_graph(he, g);
    OK(cgn_graph_destroy(h));
}

/* cgn_exec_update_from_graph with each driver call failing in turn: refused, the executable's
 * copy, what it runs and the owners it holds are as before. */
static void test_update_from_graph_driver_faults(void **state) {
    cgn_test_env *env = *state;
    int failures = 0;
    for (long k = 1; k < 64; k++) {
        cgn_owner *a = mine(10), *b = mine(11);
        cgn_node *n;
        cgn_graph *g = owned_fill_graph(env, 0x11, a, &n);
        cgn_exec *e = bb_instantiate(g);
        cgn_memset_update u = bb_dst_update(env->buf[1], b);
        cgn_memset_update_set_value(&u, 0x22, 1);
        OK(cgn_memset_node_update(n, &u));
        OK(cgn_owner_release(a));
        OK(cgn_owner_release(b));
        collect_all();
        bb_fault_arm(k, CUDA_ERROR_OUT_OF_MEMORY);
        cgn_status st = cgn_exec_update_from_graph(e, g);
        int hit = bb_fault_done(NULL);
        cgn_memset_desc got;
        OK(cgn_memset_exec_get(e, n, &got));
        if (st != CGN_OK) {
            assert_true(hit);
            failures++;
            assert_int_equal(got.dst, env->buf[0]);
            assert_ptr_equal(got.dst_owner, a);
            assert_int_equal(got.value, 0x11);
            assert_int_equal(cgn_test_run_read(env, e, 0), 0x11);
        } else {
            assert_int_equal(got.dst, env->buf[1]);
            assert_int_equal(got.value, 0x22);
            assert_int_equal(cgn_test_run_read(env, e, 1), 0x22);
        }
        OK(cgn_graph_destroy(g));
        collect_all();
        /* the executable still holds what it runs */
        assert_int_equal(mine_released[st != CGN_OK ? 10 : 11], 0);
        OK(cgn_exec_destroy(e));
        expect_released2(10, 1, 11, 1);
        if (!hit)
            break;
    }
    assert_true(failures > 0);
}

/* Enable/disable: kernel, memset and memcpy nodes only; other types CGN_ERROR_NOT_SUPPORTED with
 * the state unchanged; a disabled node keeps its parameters and takes updates. */
static void test_enable_disable(void **state) {
    cgn_test_env *env = *state;
    cgn_graph *g;
    cgn_node *n, *empty, *host;
    OK(cgn_graph_create(&g));
    cgn_memset_desc d = cgn_test_fill_desc(env, 0, 0x11, 0);
    OK(cgn_graph_add_memset(g, NULL, 0, &d, &n));
    OK(cgn_graph_add_empty(g, NULL, 0, &empty));
    cgn_host_callback_desc hd = CGN_HOST_CALLBACK_DESC_INIT;
    hd.fn = cgn_test_callback(env, "record_a");
    OK(cgn_graph_add_host_callback(g, NULL, 0, &hd, &host));
    cgn_exec *e = bb_instantiate(g);
    int en = -1;
    EXPECT_ST(CGN_ERROR_NOT_SUPPORTED, cgn_exec_node_set_enabled(e, empty, 0));
    EXPECT_ST(CGN_ERROR_NOT_SUPPORTED, cgn_exec_node_set_enabled(e, host, 0));
    EXPECT_ST(CGN_ERROR_NOT_SUPPORTED, cgn_exec_node_get_enabled(e, host, &en));
    assert_int_equal(en, -1);
    OK(cgn_exec_node_get_enabled(e, n, &en));
    assert_int_equal(en, 1);
    OK(cgn_exec_node_set_enabled(e, n, 0));
    OK(cgn_exec_node_get_enabled(e, n, &en));
    assert_int_equal(en, 0);
    assert_int_equal(cgn_test_run_read(env, e, 0), 0);
    assert_int_equal(atomic_load(&env->num_calls), 1); /* the host node still ran */
    cgn_memset_update u = bb_value_update(0x5a);
    OK(cgn_memset_exec_update(e, n, &u));
    OK(cgn_exec_node_get_enabled(e, n, &en));
    assert_int_equal(en, 0);
    assert_int_equal(cgn_test_run_read(env, e, 0), 0);
    OK(cgn_exec_node_set_enabled(e, n, 1));
    assert_int_equal(cgn_test_run_read(env, e, 0), 0x5a);
    /* A failing driver call leaves the enabled state as it was. */
    for (long k = 1; k < 16; k++) {
        bb_fault_arm(k, CUDA_ERROR_INVALID_VALUE);
        cgn_status st = cgn_exec_node_set_enabled(e, n, 0);
        int hit = bb_fault_done(NULL);
        OK(cgn_exec_node_get_enabled(e, n, &en));
        if (!hit) {
            OK(st);
            assert_int_equal(en, 0);
            break;
        }
        assert_int_not_equal(st, CGN_OK);
        assert_int_equal(en, 1);
        assert_int_equal(cgn_test_run_read(env, e, 0), 0x5a);
    }
    destroy_exec_graph(e, g);
}

/* Instantiation flags cgn refuses, and what a refused instantiation leaves: no executable. */
static void test_instantiate_flags(void **state) {
    cgn_test_env *env = *state;
    cgn_graph *g;
    cgn_node *n;
    cgn_exec *e;
    cgn_test_fill_graph(env, &g, &n, &e);
    size_t live = cgn_fake_live_objects();
    cgn_exec *x = NULL;
    EXPECT_ST(CGN_ERROR_INVALID_ARGUMENT,
              cgn_graph_instantiate_with_flags(g, CUDA_GRAPH_INSTANTIATE_FLAG_UPLOAD, &x));
    EXPECT_ST(CGN_ERROR_NOT_SUPPORTED,
              cgn_graph_instantiate_with_flags(g, CUDA_GRAPH_INSTANTIATE_FLAG_DEVICE_LAUNCH, &x));
    cgn_status st = cgn_graph_instantiate_with_flags(g, 1ull << 40, &x);
    assert_int_not_equal(st, CGN_OK);
    assert_null(x);
    assert_int_equal(cgn_fake_live_objects(), live);
    OK(cgn_graph_instantiate_with_flags(g, CUDA_GRAPH_INSTANTIATE_FLAG_AUTO_FREE_ON_LAUNCH, &x));
    assert_int_equal(cgn_test_run_read(env, x, 0), 0x11);
    OK(cgn_exec_destroy(x));
    /* Under every failure of the driver, instantiation leaves nothing behind. */
    for (long k = 1; k < 32; k++) {
        x = NULL;
        bb_fault_arm(k, CUDA_ERROR_OUT_OF_MEMORY);
        st = cgn_graph_instantiate(g, &x);
        int hit = bb_fault_done(NULL);
        if (st == CGN_OK) {
            assert_int_equal(cgn_test_run_read(env, x, 0), 0x11);
            OK(cgn_exec_destroy(x));
        } else {
            assert_true(hit);
            assert_null(x);
        }
        collect_all();
        assert_int_equal(cgn_fake_live_objects(), live);
        if (!hit)
            break;
    }
    destroy_exec_graph(e, g);
}

/* ==== memory and owner bounds
 * ===================================================================== */

/* An update -> launch loop at executable level with a new owner each step: every owner but the
 * last one or two is released as the loop goes (bounded), each exactly once in the end. */
static void test_exec_loop_bounded(void **state) {
    cgn_test_env *env = *state;
    cgn_node *f;
    cgn_exec *fe;
    cgn_graph *fg = fill_exec(env, 0, 5, &f, &fe);
    for (int i = 0; i < 40; i++) {
        cgn_owner *o = mine(12 + i);
        CUdeviceptr p = env->buf[i % 2];
        uint32_t v = (uint32_t)i;
        cgn_kernel_update u = CGN_KERNEL_UPDATE_INIT;
        cgn_kernel_update_set_arg(&u, 0, &p, sizeof p, o);
        cgn_kernel_update_set_arg(&u, 1, &v, sizeof v, NULL);
        OK(cgn_kernel_exec_update(fe, f, &u));
        OK(cgn_owner_release(o));
        assert_int_equal(run_u32(env, fe, NULL, i % 2), (uint32_t)i);
        collect_all();
        int live = 0;
        for (int j = 0; j <= i; j++) {
            assert_true(mine_released[12 + j] <= 1);
            live += mine_released[12 + j] == 0;
        }
        assert_true(live <= 2);
        assert_int_equal(mine_released[12 + i], 0);
    }
    destroy_exec_graph(fe, fg);
    collect_all();
    for (int j = 0; j < 40; j++)
        assert_int_equal(mine_released[12 + j], 1);
}

/* The same at definition level, with memset dst owners, and nodes added and destroyed: every
 * replaced owner goes, each exactly once. */
static void test_definition_loop_bounded(void **state) {
    cgn_test_env *env = *state;
    cgn_graph *g = bb_graph_new();
    cgn_memset_desc d = cgn_test_fill_desc(env, 0, 0x11, 0);
    cgn_node *n;
    OK(cgn_graph_add_memset(g, NULL, 0, &d, &n));
    for (int i = 0; i < 40; i++) {
        cgn_owner *o = mine(12 + i);
        cgn_memset_update u = bb_dst_update(env->buf[i % 3], o);
        OK(cgn_memset_node_update(n, &u));
        OK(cgn_owner_release(o));
        cgn_node *tmp;
        cgn_memset_desc td = cgn_test_fill_desc(env, 3, 1, 0);
        td.dst_owner = o; /* our reference is gone: the graph still holds one */
        OK(cgn_graph_add_memset(g, &n, 1, &td, &tmp));
        OK(cgn_node_destroy(tmp));
        collect_all();
        int live = 0;
        for (int j = 0; j <= i; j++) {
            assert_true(mine_released[12 + j] <= 1);
            live += mine_released[12 + j] == 0;
        }
        assert_int_equal(live, 1);
    }
    assert_int_equal(cgn_test_count_nodes(g), 1);
    OK(cgn_graph_destroy(g));
    collect_all();
    for (int j = 0; j < 40; j++)
        assert_int_equal(mine_released[12 + j], 1);
}

/* Owners: the callback never runs inside cgn_owner_release, runs once, at the next collect. */
static void test_owner_release_deferred(void **state) {
    (void)state;
    cgn_owner *o = mine(60);
    assert_int_equal((intptr_t)cgn_owner_resource(o), 60);
    OK(cgn_owner_retain(o));
    OK(cgn_owner_release(o));
    OK(cgn_owner_release(o));
    assert_int_equal(mine_released[60], 0);
    expect_released(60, 1);
    expect_released(60, 1);
    cgn_owner *nofn;
    OK(cgn_owner_create(NULL, NULL, &nofn));
    OK(cgn_owner_release(nofn));
    collect_all();
}

/* A failed definition update (refused or a driver failure) never retains the new owner nor
 * releases the current one. */
static void test_failed_update_keeps_owner_counts(void **state) {
    cgn_test_env *env = *state;
    int failures = 0;
    for (long k = 1; k < 64; k++) {
        cgn_owner *held = mine(61), *given = mine(62);
        cgn_node *n;
        cgn_graph *g = owned_fill_graph(env, 0x11, held, &n);
        OK(cgn_owner_release(held));
        cgn_exec *e = bb_instantiate(g);
        cgn_memset_desc before, ebefore;
        OK(cgn_memset_node_get(n, &before));
        OK(cgn_memset_exec_get(e, n, &ebefore));
        cgn_memset_update u = bb_dst_update(env->buf[1], given);
        cgn_memset_update_set_value(&u, 0x22, 1);
        bb_fault_arm(k, CUDA_ERROR_OUT_OF_MEMORY);
        cgn_status st = (k & 1) ? cgn_memset_node_update(n, &u) : cgn_memset_exec_update(e, n, &u);
        int hit = bb_fault_done(NULL);
        OK(cgn_owner_release(given));
        collect_all();
        if (st != CGN_OK) {
            failures++;
            assert_true(hit);
            cgn_memset_desc after, eafter;
            OK(cgn_memset_node_get(n, &after));
            OK(cgn_memset_exec_get(e, n, &eafter));
            memset_eq(&before, &after);
            memset_eq(&ebefore, &eafter);
            assert_int_equal(mine_released[62], 1);
            assert_int_equal(mine_released[61], 0);
        }
        destroy_exec_graph(e, g);
        expect_released2(61, 1, 62, 1);
        if (!hit && k > 8)
            break;
    }
    assert_true(failures > 0);
}

/* Sizes that overflow, zero sizes, missing values. */
static void test_sizes(void **state) {
    cgn_test_env *env = *state;
    cgn_graph *g;
    cgn_node *n, *out = NULL;
    cgn_exec *e;
    cgn_test_fill_graph(env, &g, &n, &e);
    cgn_memset_desc d = cgn_test_fill_desc(env, 0, 0x11, 0);
    d.width = 0;
    EXPECT_ST(CGN_ERROR_INVALID_VALUE, cgn_graph_add_memset(g, NULL, 0, &d, &out));
    d = cgn_test_fill_desc(env, 0, 0x11, 0);
    d.element_size = 4;
    d.width = SIZE_MAX / 2;
    EXPECT_ST(CGN_ERROR_OUT_OF_RANGE, cgn_graph_add_memset(g, NULL, 0, &d, &out));
    d = cgn_test_fill_desc(env, 0, 0x11, 0);
    d.height = SIZE_MAX;
    d.pitch = 16;
    EXPECT_ST(CGN_ERROR_OUT_OF_RANGE, cgn_graph_add_memset(g, NULL, 0, &d, &out));
    d = cgn_test_fill_desc(env, 0, 0x11, 0);
    d.element_size = 3;
    EXPECT_ST(CGN_ERROR_INVALID_VALUE, cgn_graph_add_memset(g, NULL, 0, &d, &out));
    cgn_memset_update u = CGN_MEMSET_UPDATE_INIT;
    cgn_memset_update_set_width(&u, SIZE_MAX);
    cgn_memset_update_set_value(&u, 0, 4);
    EXPECT_ST(CGN_ERROR_OUT_OF_RANGE, cgn_memset_node_update(n, &u));
    EXPECT_ST(CGN_ERROR_OUT_OF_RANGE, cgn_memset_exec_update(e, n, &u));
    /* Host callback payload: NULL with a size; a size no host can copy. */
    cgn_host_callback_desc hd = CGN_HOST_CALLBACK_DESC_INIT;
    hd.fn = cgn_test_callback(env, "record_a");
    hd.payload_size = 8;
    EXPECT_ST(CGN_ERROR_INVALID_ARGUMENT, cgn_graph_add_host_callback(g, NULL, 0, &hd, &out));
    char byte = 1;
    hd.payload = &byte;
    hd.payload_size = (size_t)1 << 62; /* as in docs/errors.md */
#if !BB_SANITIZED
    EXPECT_ST(CGN_ERROR_OUT_OF_MEMORY, cgn_graph_add_host_callback(g, NULL, 0, &hd, &out));
#endif
    /* Kernel arguments: NULL list with a count, an argument without a value, more than 1 MiB. */
    cgn_kernel_desc kd = CGN_KERNEL_DESC_INIT;
    kd.kernel = cgn_test_kernel(env, "fill_u32");
    kd.grid = kd.block = CGN_DIM3(1, 1, 1);
    kd.num_args = 2;
    EXPECT_ST(CGN_ERROR_INVALID_ARGUMENT, cgn_graph_add_kernel(g, NULL, 0, &kd, &out));
    cgn_arg args[2] = {cgn_test_arg_buf(env, 0, 0), {NULL, 4, NULL}};
    kd.args = args;
    EXPECT_ST(CGN_ERROR_INVALID_ARGUMENT, cgn_graph_add_kernel(g, NULL, 0, &kd, &out));
    static unsigned char huge[(1u << 20) + 8];
    args[1] = (cgn_arg){huge, sizeof huge, NULL};
    /* 12.4+: the size check against the kernel may come first (INVALID_VALUE); on 12.2, where
     * sizes are unknown, only the 1 MiB bound can refuse it: CGN_ERROR_OUT_OF_RANGE. */
    cgn_status hs = cgn_graph_add_kernel(g, NULL, 0, &kd, &out);
    assert_true(hs == CGN_ERROR_OUT_OF_RANGE || hs == CGN_ERROR_INVALID_VALUE);
    cgn_fault_set_version(12020);
    EXPECT_ST(CGN_ERROR_OUT_OF_RANGE, cgn_graph_add_kernel(g, NULL, 0, &kd, &out));
    args[1] = (cgn_arg){huge, SIZE_MAX, NULL};
    EXPECT_ST(CGN_ERROR_OUT_OF_RANGE, cgn_graph_add_kernel(g, NULL, 0, &kd, &out));
    cgn_fault_set_version(13000);
    hs = cgn_graph_add_kernel(g, NULL, 0, &kd, &out);
    assert_true(hs == CGN_ERROR_OUT_OF_RANGE || hs == CGN_ERROR_INVALID_VALUE);
    kd.num_args = UINT32_MAX;
    cgn_status st = cgn_graph_add_kernel(g, NULL, 0, &kd, &out);
    assert_true(st == CGN_ERROR_OUT_OF_RANGE || st == CGN_ERROR_INVALID_VALUE);
    kd.num_args = 2;
    kd.grid = CGN_DIM3(1, 0, 1);
    args[1] = cgn_test_arg_u32(env, 1);
    EXPECT_ST(CGN_ERROR_INVALID_VALUE, cgn_graph_add_kernel(g, NULL, 0, &kd, &out));
    assert_null(out);
    assert_int_equal(cgn_test_count_nodes(g), 1);
    cgn_memset_desc got;
    OK(cgn_memset_node_get(n, &got));
    assert_int_equal(got.width, 8);
    OK(cgn_memset_exec_get(e, n, &got));
    assert_int_equal(got.width, 8);
    destroy_exec_graph(e, g);
}

/* Lists follow CUDA's count convention: at most *count written, *count gets the total. */
static void test_list_count_convention(void **state) {
    (void)state;
    cgn_graph *g = bb_graph_new();
    cgn_node *a, *b, *c;
    OK(cgn_graph_add_empty(g, NULL, 0, &a));
    OK(cgn_graph_add_empty(g, &a, 1, &b));
    cgn_node *ab[2] = {a, b};
    OK(cgn_graph_add_empty(g, ab, 2, &c));
    cgn_node *out[4] = {NULL, NULL, NULL, NULL};
    cgn_node *sentinel = (cgn_node *)(uintptr_t)0x77;
    out[1] = sentinel;
    size_t count = 1;
    OK(cgn_graph_nodes(g, out, &count));
    assert_int_equal(count, 3);
    assert_ptr_equal(out[0], a);
    assert_ptr_equal(out[1], sentinel);
    count = 0;
    OK(cgn_graph_nodes(g, out, &count));
    assert_int_equal(count, 3);
    count = 4;
    OK(cgn_graph_nodes(g, out, &count));
    assert_int_equal(count, 3);
    assert_ptr_equal(out[2], c);
    count = 1;
    out[1] = sentinel;
    OK(cgn_node_dependencies(c, out, &count));
    assert_int_equal(count, 2);
    assert_ptr_equal(out[0], a);
    assert_ptr_equal(out[1], sentinel);
    count = 8;
    OK(cgn_node_dependents(a, out, &count));
    assert_int_equal(count, 2);
    OK(cgn_node_destroy(b));
    count = 0;
    OK(cgn_node_dependencies(c, NULL, &count));
    assert_int_equal(count, 1);
    EXPECT_ST(CGN_ERROR_DESTROYED, cgn_node_dependencies(b, NULL, &count));
    OK(cgn_graph_destroy(g));
}

/* ==== contexts
 * ===================================================================================== */

/* Updates need no current context and leave the caller's as it was, also on failure; adds with
 * none current are CGN_ERROR_NO_CONTEXT. */
static void test_context_preserved(void **state) {
    cgn_test_env *env = *state;
    cgn_node *a;
    cgn_graph *ag = add_one_graph(env, 0, &a); /* a CUfunction node */
    cgn_exec *ae = bb_instantiate(ag);
    int which[2] = {CGN_TEST_CTX_NONE, CGN_TEST_CTX_FOREIGN};
    for (int i = 0; i < 2; i++) {
        env->backend->set_context(env, which[i]);
        CUdeviceptr p = env->buf[1];
        cgn_kernel_update u = CGN_KERNEL_UPDATE_INIT;
        cgn_kernel_update_set_arg(&u, 0, &p, sizeof p, NULL);
        OK(cgn_kernel_node_update(a, &u));
        assert_int_equal(env->backend->current_context(env), which[i]);
        OK(cgn_kernel_exec_update(ae, a, &u));
        assert_int_equal(env->backend->current_context(env), which[i]);
        cgn_kernel_update bad = CGN_KERNEL_UPDATE_INIT;
        cgn_kernel_update_set_arg(&bad, 0, &p, 3, NULL);
        EXPECT_ST(CGN_ERROR_INVALID_VALUE, cgn_kernel_node_update(a, &bad));
        assert_int_equal(env->backend->current_context(env), which[i]);
        cgn_kernel_update_set_grid(&u, CGN_DIM3(2, 1, 1));
        bb_fault_arm(2, CUDA_ERROR_INVALID_VALUE);
        (void)cgn_kernel_exec_update(ae, a, &u);
        cgn_fault_disarm();
        assert_int_equal(env->backend->current_context(env), which[i]);
    }
    env->backend->set_context(env, CGN_TEST_CTX_NONE);
    cgn_graph *g = bb_graph_new();
    cgn_memset_desc d = cgn_test_fill_desc(env, 0, 1, 0);
    cgn_node *n = NULL;
    EXPECT_ST(CGN_ERROR_NO_CONTEXT, cgn_graph_add_memset(g, NULL, 0, &d, &n));
    assert_null(n);
    assert_int_equal(env->backend->current_context(env), CGN_TEST_CTX_NONE);
    env->backend->set_context(env, CGN_TEST_CTX_OWN);
    assert_int_equal(cgn_fake_crash_prone_calls(), 0);
    OK(cgn_graph_destroy(g));
    destroy_exec_graph(ae, ag);
}

/* ==== child graphs
 * ================================================================================= */

static void test_child_graph_handles(void **state) {
    cgn_test_env *env = *state;
    cgn_graph *src, *src2, *parent;
    cgn_node *sn, *sn2;
    src = owned_fill_graph(env, 0x11, NULL, &sn);
    src2 = owned_fill_graph(env, 0x22, NULL, &sn2);
    OK(cgn_graph_create(&parent));
    cgn_node *child = add_child(parent, src);
    cgn_graph *emb = bb_embedded(child);
    EXPECT_ST(CGN_ERROR_INVALID_ARGUMENT, cgn_graph_destroy(emb));
    cgn_node *inner = bb_find(child, sn);
    cgn_node *nope;
    EXPECT_ST(CGN_ERROR_INVALID_VALUE, cgn_child_graph_node_find(child, sn2, &nope));
    /* Same hierarchy: the parent, the embedding. */
    cgn_child_graph_update r = CGN_CHILD_GRAPH_UPDATE_INIT;
    cgn_child_graph_update_set_graph(&r, parent);
    EXPECT_ST(CGN_ERROR_SAME_HIERARCHY, cgn_child_graph_node_update(child, &r));
    cgn_child_graph_update_set_graph(&r, emb);
    EXPECT_ST(CGN_ERROR_SAME_HIERARCHY, cgn_child_graph_node_update(child, &r));
    cgn_child_graph_update_set_graph(&r, NULL);
    EXPECT_ST(CGN_ERROR_INVALID_VALUE, cgn_child_graph_node_update(child, &r));
    assert_true(cgn_node_is_alive(inner));
    cgn_exec *before = bb_instantiate(parent);
    cgn_child_graph_update_set_graph(&r, src2);
    OK(cgn_child_graph_node_update(child, &r));
    assert_false(cgn_node_is_alive(inner));
    cgn_memset_update u = bb_value_update(0x33);
    EXPECT_ST(CGN_ERROR_DESTROYED, cgn_memset_node_update(inner, &u));
    EXPECT_ST(CGN_ERROR_DESTROYED, cgn_memset_exec_update(before, inner, &u));
    cgn_node *x;
    EXPECT_ST(CGN_ERROR_DESTROYED, cgn_graph_add_empty(emb, NULL, 0, &x));
    assert_int_equal(cgn_test_run_read(env, before, 0), 0x11);
    assert_int_equal(cgn_test_run_graph_read(env, parent, 0), 0x22);
    /* A source graph destroyed after the embedding: the copy is unaffected. */
    OK(cgn_graph_destroy(src2));
    assert_int_equal(cgn_test_run_graph_read(env, parent, 0), 0x22);
    destroy_exec_graph(before, parent);
    OK(cgn_graph_destroy(src));
}

/* ==== adopted graphs
 * =================================================================================== */

static CUgraph raw_graph_with_memset(cgn_test_env *env, CUgraphNode *memset_out) {
    CUgraph rg;
    CU_OK(raw()->cuGraphCreate(&rg, 0));
    CUDA_MEMSET_NODE_PARAMS_v1 m = {env->buf[0], 0, 0x44, 1, 8, 1};
    CU_OK(raw()->cuGraphAddMemsetNode(memset_out, rg, NULL, 0, &m, cgn_fake_context(0)));
    return rg;
}

/* Borrowed: cgn_graph_destroy leaves the raw graph; owned: cgn destroys it (after the last
 * executable). */
static void test_adopt_borrowed_and_owned(void **state) {
    cgn_test_env *env = *state;
    CUgraphNode rn;
    CUgraph rg = raw_graph_with_memset(env, &rn);
    cgn_graph *g;
    OK(cgn_graph_adopt(rg, 0, &g));
    CUgraph back;
    OK(cgn_graph_raw(g, &back));
    assert_ptr_equal(back, rg);
    cgn_node *n;
    OK(cgn_graph_find_raw(g, rn, &n));
    cgn_node_type t;
    OK(cgn_node_type_of(n, &t));
    assert_int_equal(t, CGN_NODE_MEMSET);
    cgn_exec *e = bb_instantiate(g);
    OK(cgn_graph_destroy(g));
    assert_int_equal(cgn_fake_graph_node_count(rg), 1); /* still the caller's */
    OK(cgn_exec_destroy(e));
    collect_all();
    assert_int_equal(cgn_fake_graph_node_count(rg), 1);
    CU_OK(raw()->cuGraphDestroy(rg));
    /* Owned. */
    rg = raw_graph_with_memset(env, &rn);
    OK(cgn_graph_adopt(rg, CGN_ADOPT_TAKE_OWNERSHIP, &g));
    OK(cgn_graph_find_raw(g, rn, &n));
    OK(cgn_graph_instantiate(g, &e));
    OK(cgn_graph_destroy(g));
    assert_int_equal(cgn_test_run_read(env, e, 0), 0x44);
    cgn_memset_update u = bb_value_update(0x45);
    OK(cgn_memset_exec_update(e, n, &u));
    assert_int_equal(cgn_test_run_read(env, e, 0), 0x45);
    OK(cgn_exec_destroy(e));
    collect_all();
    assert_int_equal(cgn_fake_graph_node_count(rg), 0); /* gone */
    /* Bad input. */
    cgn_graph *none = NULL;
    EXPECT_ST(CGN_ERROR_INVALID_ARGUMENT, cgn_graph_adopt(NULL, 0, &none));
    assert_null(none);
}

/* A node of a type cgn does not know: recorded as CGN_NODE_OTHER, refused by updates and gets
 * with CGN_ERROR_NOT_SUPPORTED, and by enable/disable; the rest of the graph works. */
static void test_adopt_unknown_node_type(void **state) {
    cgn_test_env *env = *state;
    CUgraphNode rn, fn;
    CUgraph rg = raw_graph_with_memset(env, &rn);
    CUgraphNodeParams p;
    memset(&p, 0, sizeof p);
    p.type = CGN_FAKE_FOREIGN_NODE_TYPE;
    CU_OK(raw()->cuGraphAddNode(&fn, rg, &rn, 1, &p));
    cgn_graph *g;
    OK(cgn_graph_adopt(rg, CGN_ADOPT_TAKE_OWNERSHIP, &g));
    cgn_node *other, *n;
    OK(cgn_graph_find_raw(g, fn, &other));
    OK(cgn_graph_find_raw(g, rn, &n));
    cgn_node_type t;
    OK(cgn_node_type_of(other, &t));
    assert_int_equal(t, CGN_NODE_OTHER);
    EXPECT_ST(CGN_ERROR_NOT_SUPPORTED, cgn_node_check_updatable(other));
    OK(cgn_node_check_updatable(n));
    cgn_memset_update u = bb_value_update(1);
    EXPECT_ST(CGN_ERROR_NOT_SUPPORTED, cgn_memset_node_update(other, &u));
    cgn_memset_desc d;
    EXPECT_ST(CGN_ERROR_NOT_SUPPORTED, cgn_memset_node_get(other, &d));
    (void)cgn_node_refresh(other); /* undocumented for OTHER: must not crash or change type */
    OK(cgn_node_type_of(other, &t));
    assert_int_equal(t, CGN_NODE_OTHER);
    cgn_exec *e = bb_instantiate(g);
    EXPECT_ST(CGN_ERROR_NOT_SUPPORTED, cgn_memset_exec_update(e, other, &u));
    EXPECT_ST(CGN_ERROR_NOT_SUPPORTED, cgn_exec_node_set_enabled(e, other, 0));
    size_t deps = 0;
    OK(cgn_node_dependencies(other, NULL, &deps));
    assert_int_equal(deps, 1);
    OK(cgn_memset_exec_update(e, n, &u));
    assert_int_equal(cgn_test_run_read(env, e, 0), 1);
    OK(cgn_exec_update_from_graph(e, g));
    assert_int_equal(cgn_test_run_read(env, e, 0), 0x44);
    destroy_exec_graph(e, g);
}

/* Adoption is all or nothing under every driver failure: no handle, the raw graph as it was. */
static void test_adopt_driver_faults(void **state) {
    cgn_test_env *env = *state;
    CUgraphNode rn, kn;
    CUgraph rg = raw_graph_with_memset(env, &rn);
    CUDA_KERNEL_NODE_PARAMS_v2 kp;
    memset(&kp, 0, sizeof kp);
    cgn_kernel k = cgn_test_kernel(env, "fill_u32");
    kp.kern = k.kernel;
    kp.gridDimX = kp.gridDimY = kp.gridDimZ = kp.blockDimX = kp.blockDimY = kp.blockDimZ = 1;
    CUdeviceptr out = env->buf[1];
    unsigned seven = 7;
    void *params[] = {&out, &seven};
    kp.kernelParams = params;
    CU_OK(raw()->cuGraphAddKernelNode(&kn, rg, &rn, 1, &kp));
    size_t live = cgn_fake_live_objects();
    int failures = 0;
    for (long k2 = 1; k2 < 128; k2++) {
        cgn_graph *g = NULL;
        bb_fault_arm(k2, CUDA_ERROR_OUT_OF_MEMORY);
        cgn_status st = cgn_graph_adopt(rg, 0, &g);
        int hit = bb_fault_done(NULL);
        assert_int_equal(cgn_fake_graph_node_count(rg), 2);
        if (st == CGN_OK) {
            cgn_node *n;
            OK(cgn_graph_find_raw(g, kn, &n));
            cgn_kernel_desc d;
            OK(cgn_kernel_node_get(n, &d));
            assert_int_equal(u32_arg(&d, 1), 7);
            OK(cgn_graph_destroy(g));
        } else {
            failures++;
            assert_true(hit);
            assert_null(g);
        }
        collect_all();
        assert_int_equal(cgn_fake_live_objects(), live);
        if (!hit)
            break;
    }
    assert_true(failures > 0);
    CU_OK(raw()->cuGraphDestroy(rg));
}

/* cgn_node_refresh after a raw change: the record follows the driver, later partial updates keep
 * the new fields, a changed dst drops its owner; a failed refresh changes nothing. */
static void test_refresh(void **state) {
    cgn_test_env *env = *state;
    cgn_owner *o = mine(63);
    cgn_node *n;
    cgn_graph *g = owned_fill_graph(env, 0x11, o, &n);
    OK(cgn_owner_release(o));
    CUgraphNode rn;
    OK(cgn_node_raw(n, &rn));
    /* value only: the owner stays */
    CUgraphNodeParams m;
    memset(&m, 0, sizeof m);
    m.type = CU_GRAPH_NODE_TYPE_MEMSET;
    m.memset = (CUDA_MEMSET_NODE_PARAMS_v2){env->buf[0], 0, 0x66, 1, 8, 1, cgn_fake_context(0)};
    CU_OK(raw()->cuGraphNodeSetParams(rn, &m));
    /* every driver failure: the record is unchanged */
    for (long k = 1; k < 16; k++) {
        bb_fault_arm(k, CUDA_ERROR_INVALID_VALUE);
        cgn_status st = cgn_node_refresh(n);
        int hit = bb_fault_done(NULL);
        cgn_memset_desc got;
        OK(cgn_memset_node_get(n, &got));
        if (!hit) {
            OK(st);
            assert_int_equal(got.value, 0x66);
            break;
        }
        assert_int_not_equal(st, CGN_OK);
        assert_int_equal(got.value, 0x11);
    }
    cgn_memset_desc got;
    OK(cgn_memset_node_get(n, &got));
    assert_ptr_equal(got.dst_owner, o);
    cgn_memset_update u = CGN_MEMSET_UPDATE_INIT;
    cgn_memset_update_set_width(&u, 4);
    OK(cgn_memset_node_update(n, &u));
    assert_int_equal(cgn_test_run_graph_read(env, g, 0), 0x66);
    /* dst changed behind cgn's back: the owner is dropped */
    m.memset.dst = env->buf[1];
    CU_OK(raw()->cuGraphNodeSetParams(rn, &m));
    OK(cgn_node_refresh(n));
    OK(cgn_memset_node_get(n, &got));
    assert_int_equal(got.dst, env->buf[1]);
    assert_null(got.dst_owner);
    assert_int_equal(got.width, 8);
    OK(cgn_graph_destroy(g));
    expect_released(63, 1);
    EXPECT_ST(CGN_ERROR_DESTROYED, cgn_node_refresh(n));
}

/* An adopted executable (borrowed): executable-level updates work, cgn_exec_destroy leaves the
 * raw executable to the caller. */
static void test_exec_adopt(void **state) {
    cgn_test_env *env = *state;
    cgn_graph *g;
    cgn_node *n;
    cgn_exec *e0;
    cgn_test_fill_graph(env, &g, &n, &e0);
    CUgraphExec rx = raw_exec_of(g);
    cgn_exec *e;
    EXPECT_ST(CGN_ERROR_INVALID_ARGUMENT, cgn_exec_adopt(NULL, g, 0, &e));
    EXPECT_ST(CGN_ERROR_INVALID_ARGUMENT, cgn_exec_adopt(rx, NULL, 0, &e));
    EXPECT_ST(CGN_ERROR_INVALID_ARGUMENT, cgn_exec_adopt(rx, g, 0, NULL));
    OK(cgn_exec_adopt(rx, g, 0, &e));
    cgn_memset_update u = bb_dst_update(env->buf[1], env->owner[1]);
    OK(cgn_memset_exec_update(e, n, &u));
    CUgraphExec back;
    OK(cgn_exec_raw(e, &back));
    assert_ptr_equal(back, rx);
    assert_int_equal(cgn_test_run_read(env, e, 1), 0x11);
    OK(cgn_exec_destroy(e));
    EXPECT_ST(CGN_ERROR_DESTROYED, cgn_exec_destroy(e));
    /* still the caller's */
    CU_OK(raw()->cuGraphExecDestroy(rx));
    destroy_exec_graph(e0, g);
}

/* ==== launches, destroys and exotic node types under faults ======================================
 */

/* A launch that fails (any of its driver calls) must not let a version that a launch in flight
 * reads be released early: with launches held in flight, an executable-level owner is replaced
 * after launches whose calls failed in turn; the owner goes only once every launch completed. */
static void test_launch_faults_keep_in_flight_owners(void **state) {
    cgn_test_env *env = *state;
    for (long k = 1; k < 16; k++) {
        cgn_graph *g;
        cgn_node *n;
        cgn_exec *e;
        fill_exec_owned(env, 20, &g, &n, &e);
        cgn_fake_hold_completion(1);
        OK(env->backend->launch_async(env, e)); /* surely in flight, reading a's buffer */
        bb_fault_arm(k, CUDA_ERROR_LAUNCH_OUT_OF_RESOURCES);
        cgn_status st = cgn_exec_launch(e, NULL);
        int hit = bb_fault_done(NULL);
        if (st != CGN_OK)
            assert_true(cgn_last_error()[0] != '\0');
        cgn_memset_update back = bb_dst_update(env->buf[2], NULL);
        OK(cgn_memset_exec_update(e, n, &back)); /* a's version retires */
        collect_all();
        assert_int_equal(mine_released[20], 0); /* launches in flight read it */
        cgn_fake_complete_pending();
        cgn_fake_hold_completion(0);
        collect_all();
        /* A launch whose fence could not be made may keep it until a later fenced launch has
         * completed (never early): one more launch must let it go. */
        if (mine_released[20] == 0) {
            OK(env->backend->launch(env, e));
            collect_all();
        }
        assert_int_equal(mine_released[20], 1);
        destroy_exec_graph(e, g);
        expect_released(20, 1);
        if (!hit)
            break;
    }
}

/* cgn_node_destroy, cgn_graph_destroy and cgn_exec_destroy with each driver call failing: either
 * the object is gone, or it is fully usable as before; owners are released exactly once. */
static void test_destroy_driver_faults(void **state) {
    cgn_test_env *env = *state;
    for (int what = 0; what < 3; what++) {
        for (long k = 1; k < 16; k++) {
            cgn_owner *a = mine(21);
            cgn_node *n, *m;
            cgn_graph *g = owned_fill_graph(env, 0x11, a, &n);
            OK(cgn_graph_add_empty(g, &n, 1, &m));
            OK(cgn_owner_release(a));
            cgn_exec *e = bb_instantiate(g);
            cgn_memset_update u = bb_value_update(0x12);
            OK(cgn_memset_exec_update(e, n, &u));
            bb_fault_arm(k, CUDA_ERROR_INVALID_VALUE);
            cgn_status st = what == 0   ? cgn_node_destroy(n)
                            : what == 1 ? cgn_graph_destroy(g)
                                        : cgn_exec_destroy(e);
            int hit = bb_fault_done(NULL);
            if (st != CGN_OK) {
                assert_true(hit);
                assert_true(cgn_last_error()[0] != '\0');
                /* as before */
                assert_true(cgn_node_is_alive(n));
                cgn_memset_desc got;
                OK(cgn_memset_node_get(n, &got));
                assert_int_equal(got.value, 0x11);
                OK(cgn_memset_exec_get(e, n, &got));
                assert_int_equal(got.value, 0x12);
                assert_int_equal(cgn_test_count_nodes(g), 2);
                assert_int_equal(cgn_test_run_read(env, e, 0), 0x12);
                destroy_exec_graph(e, g);
            } else {
                if (what == 0) {
                    assert_false(cgn_node_is_alive(n));
                    assert_int_equal(cgn_test_count_nodes(g), 1);
                    size_t deps = 9;
                    OK(cgn_node_dependencies(m, NULL, &deps));
                    assert_int_equal(deps, 0);
                    destroy_exec_graph(e, g);
                } else if (what == 1) {
                    assert_int_equal(cgn_test_run_read(env, e, 0), 0x12);
                    OK(cgn_exec_destroy(e));
                } else {
                    EXPECT_ST(CGN_ERROR_DESTROYED, cgn_exec_launch(e, NULL));
                    OK(cgn_graph_destroy(g));
                }
            }
            expect_released(21, 1);
            if (!hit)
                break;
        }
    }
}

/* Conditional nodes: the documented refusals (before any driver call), bodies by index, not
 * destroyable, and their bodies go with the graph. */
static void test_conditional_refusals(void **state) {
    cgn_test_env *env = *state;
    cgn_graph *g = bb_graph_new();
    cgn_node *c = NULL;
    cgn_conditional_desc d = CGN_CONDITIONAL_DESC_INIT;
    cgn_fault_reset_counts();
    d.type = 3;
    EXPECT_ST(CGN_ERROR_INVALID_VALUE, cgn_graph_add_conditional(g, NULL, 0, &d, &c));
    d.type = 0;
    d.size = 0;
    EXPECT_ST(CGN_ERROR_INVALID_VALUE, cgn_graph_add_conditional(g, NULL, 0, &d, &c));
    d.type = 1;
    d.size = 2;
    EXPECT_ST(CGN_ERROR_INVALID_VALUE, cgn_graph_add_conditional(g, NULL, 0, &d, &c));
    d.type = 0;
    d.size = 3;
    EXPECT_ST(CGN_ERROR_INVALID_VALUE, cgn_graph_add_conditional(g, NULL, 0, &d, &c));
    d.type = 2;
    d.size = CGN_MAX_COND_BODIES + 1;
    EXPECT_ST(CGN_ERROR_OUT_OF_RANGE, cgn_graph_add_conditional(g, NULL, 0, &d, &c));
    d.size = UINT32_MAX;
    EXPECT_ST(CGN_ERROR_OUT_OF_RANGE, cgn_graph_add_conditional(g, NULL, 0, &d, &c));
    d.type = 1;
    d.size = 1;
    d.handle_assign = 2;
    EXPECT_ST(CGN_ERROR_INVALID_VALUE, cgn_graph_add_conditional(g, NULL, 0, &d, &c));
    assert_int_equal(cgn_fault_total_calls(), 0);
    d.handle_assign = 1;
    d.handle_default = 2; /* the SWITCH below runs body 2 */
    cgn_fault_set_version(12020);
    EXPECT_ST(CGN_ERROR_DRIVER_TOO_OLD, cgn_graph_add_conditional(g, NULL, 0, &d, &c));
    cgn_fault_set_version(12060);
    d.type = 2;
    d.size = 3;
    EXPECT_ST(CGN_ERROR_DRIVER_TOO_OLD, cgn_graph_add_conditional(g, NULL, 0, &d, &c));
    cgn_fault_set_version(13000);
    assert_null(c);
    assert_int_equal(cgn_test_count_nodes(g), 0);
    OK(cgn_graph_add_conditional(g, NULL, 0, &d, &c));
    cgn_graph *body;
    EXPECT_ST(CGN_ERROR_INVALID_VALUE, cgn_conditional_node_body(c, 3, &body));
    EXPECT_ST(CGN_ERROR_INVALID_VALUE, cgn_conditional_node_body(c, UINT32_MAX, &body));
    EXPECT_ST(CGN_ERROR_INVALID_ARGUMENT, cgn_conditional_node_body(c, 0, NULL));
    OK(cgn_conditional_node_body(c, 2, &body));
    EXPECT_ST(CGN_ERROR_INVALID_ARGUMENT, cgn_graph_destroy(body));
    EXPECT_ST(CGN_ERROR_NOT_SUPPORTED, cgn_node_destroy(c));
    EXPECT_ST(CGN_ERROR_NOT_SUPPORTED, cgn_node_check_updatable(c));
    cgn_memset_desc md = cgn_test_fill_desc(env, 0, 0x21, 0);
    cgn_node *inner;
    OK(cgn_graph_add_memset(body, NULL, 0, &md, &inner));
    cgn_exec *e = bb_instantiate(g);
    assert_true(cgn_node_is_alive(c));
    /* A graph with a conditional node cannot be embedded. */
    cgn_graph *parent = bb_graph_new();
    cgn_child_graph_desc cd = CGN_CHILD_GRAPH_DESC_INIT;
    cd.graph = g;
    cgn_node *child = NULL;
    EXPECT_ST(CGN_ERROR_NOT_SUPPORTED, cgn_graph_add_child_graph(parent, NULL, 0, &cd, &child));
    assert_null(child);
    OK(cgn_graph_destroy(g));
    cgn_memset_update u = bb_value_update(0x22);
    EXPECT_ST(CGN_ERROR_DESTROYED, cgn_memset_node_update(inner, &u));
    cgn_node *x;
    EXPECT_ST(CGN_ERROR_DESTROYED, cgn_graph_add_empty(body, NULL, 0, &x));
    OK(cgn_memset_exec_update(e, inner, &u)); /* the executable still updates its copy */
    assert_int_equal(cgn_test_run_read(env, e, 0), 0x22);
    destroy_exec_graph(e, parent);
}

/* Memory allocation nodes: their graph refuses node destroys and embedding, before any driver
 * call; they are not updatable. */
static void test_mem_alloc_refusals(void **state) {
    (void)state;
    cgn_graph *g = bb_graph_new();
    cgn_node *e0, *a;
    OK(cgn_graph_add_empty(g, NULL, 0, &e0));
    cgn_mem_alloc_desc ad = CGN_MEM_ALLOC_DESC_INIT;
    ad.bytesize = 64;
    OK(cgn_graph_add_mem_alloc(g, &e0, 1, &ad, &a));
    OK(cgn_mem_alloc_node_get(a, &ad));
    assert_true(ad.dptr != 0);
    cgn_fault_reset_counts();
    EXPECT_ST(CGN_ERROR_NOT_SUPPORTED, cgn_node_destroy(e0));
    EXPECT_ST(CGN_ERROR_NOT_SUPPORTED, cgn_node_destroy(a));
    EXPECT_ST(CGN_ERROR_NOT_SUPPORTED, cgn_node_check_updatable(a));
    cgn_graph *parent = bb_graph_new();
    cgn_child_graph_desc cd = CGN_CHILD_GRAPH_DESC_INIT;
    cd.graph = g;
    cgn_node *child = NULL;
    EXPECT_ST(CGN_ERROR_NOT_SUPPORTED, cgn_graph_add_child_graph(parent, NULL, 0, &cd, &child));
    assert_int_equal(cgn_fault_setter_calls(), 0);
    assert_true(cgn_node_is_alive(e0));
    assert_int_equal(cgn_test_count_nodes(g), 2);
    cgn_mem_free_desc fd = {.dptr = ad.dptr};
    cgn_node *fr;
    OK(cgn_graph_add_mem_free(g, &a, 1, &fd, &fr));
    cgn_exec *e = bb_instantiate(g);
    EXPECT_ST(CGN_ERROR_NOT_SUPPORTED, cgn_exec_node_set_enabled(e, a, 0));
    destroy_exec_graph(e, parent);
    OK(cgn_graph_destroy(g));
}

/* Nodes inside an embedding, at executable level: updated in that executable only; after a
 * definition-level replacement of the child the old handles report CGN_ERROR_DESTROYED there
 * too, and an executable-level replacement of another topology is refused. */
static void test_embedded_nodes_in_executables(void **state) {
    cgn_test_env *env = *state;
    cgn_graph *src, *other, *parent;
    cgn_node *sn, *on, *on2;
    src = owned_fill_graph(env, 0x11, NULL, &sn);
    other = owned_fill_graph(env, 0x22, NULL, &on);
    OK(cgn_graph_add_empty(other, &on, 1, &on2));
    OK(cgn_graph_create(&parent));
    cgn_node *inner;
    cgn_node *child = add_child(parent, src);
    OK(cgn_child_graph_node_find(child, sn, &inner));
    cgn_exec *e = bb_instantiate(parent);
    cgn_memset_update u = bb_dst_update(env->buf[1], env->owner[1]);
    OK(cgn_memset_exec_update(e, inner, &u));
    cgn_memset_desc got;
    OK(cgn_memset_node_get(inner, &got));
    assert_int_equal(got.dst, env->buf[0]);
    assert_int_equal(cgn_test_run_read(env, e, 1), 0x11);
    /* another topology at executable level: refused, unchanged */
    cgn_child_graph_update r = CGN_CHILD_GRAPH_UPDATE_INIT;
    cgn_child_graph_update_set_graph(&r, other);
    EXPECT_ST(CGN_ERROR_INVALID_VALUE, cgn_child_graph_exec_update(e, child, &r));
    OK(cgn_memset_exec_get(e, inner, &got));
    assert_int_equal(got.dst, env->buf[1]);
    assert_int_equal(cgn_test_run_read(env, e, 1), 0x11);
    /* definition-level replacement: old handles are stale in the executable too */
    OK(cgn_child_graph_node_update(child, &r));
    EXPECT_ST(CGN_ERROR_DESTROYED, cgn_memset_exec_update(e, inner, &u));
    EXPECT_ST(CGN_ERROR_DESTROYED, cgn_memset_exec_get(e, inner, &got));
    assert_int_equal(cgn_test_run_read(env, e, 1), 0x11); /* still runs its copy */
    cgn_test_env_drop_owners(env);
    collect_all();
    assert_int_equal(env->released[1], 0);
    OK(cgn_exec_destroy(e));
    collect_all();
    assert_int_equal(env->released[1], 1);
    OK(cgn_graph_destroy(parent));
    OK(cgn_graph_destroy(src));
    OK(cgn_graph_destroy(other));
}

/* A whole-graph refresh after executable-level updates with owners: the executable runs the
 * definition again and the versions it set itself go once no launch reads them. */
static void test_refresh_retires_exec_versions(void **state) {
    cgn_test_env *env = *state;
    cgn_graph *g;
    cgn_node *n;
    cgn_exec *e;
    fill_exec_owned(env, 22, &g, &n, &e);
    cgn_fake_hold_completion(1);
    OK(env->backend->launch_async(env, e));
    OK(cgn_exec_update_from_graph(e, g));
    expect_released(22, 0);
    cgn_fake_complete_pending();
    cgn_fake_hold_completion(0);
    expect_released(22, 1);
    assert_int_equal(cgn_test_run_read(env, e, 0), 0x11);
    destroy_exec_graph(e, g);
    expect_released(22, 1);
}

/* Host callback payloads: a failed update (driver failure) frees its copy and keeps the old
 * payload; the executable's payload is its own. */
static void test_host_payload_faults(void **state) {
    cgn_test_env *env = *state;
    cgn_graph *g = bb_graph_new();
    unsigned char first[4] = {0x31, 0, 0, 0};
    cgn_host_callback_desc hd = CGN_HOST_CALLBACK_DESC_INIT;
    hd.fn = cgn_test_callback(env, "record_a");
    hd.payload = first;
    hd.payload_size = sizeof first;
    cgn_node *h;
    OK(cgn_graph_add_host_callback(g, NULL, 0, &hd, &h));
    first[0] = 0; /* cgn has its copy */
    cgn_exec *e = bb_instantiate(g);
    for (long k = 1; k < 16; k++) {
        unsigned char next[4] = {0x32, 0, 0, 0};
        cgn_host_callback_update u = CGN_HOST_CALLBACK_UPDATE_INIT;
        cgn_host_callback_update_set_fn(&u, cgn_test_callback(env, "record_b"), NULL, NULL, next,
                                        sizeof next);
        bb_fault_arm(k, CUDA_ERROR_INVALID_VALUE);
        cgn_status st = (k & 1) ? cgn_host_callback_exec_update(e, h, &u)
                                : cgn_host_callback_node_update(h, &u);
        int hit = bb_fault_done(NULL);
        cgn_host_callback_desc got;
        if (!hit) {
            OK(st);
            break;
        }
        assert_int_not_equal(st, CGN_OK);
        OK(cgn_host_callback_node_get(h, &got));
        assert_ptr_equal(got.fn, cgn_test_callback(env, "record_a"));
        assert_int_equal(((const unsigned char *)got.payload)[0], 0x31);
        OK(cgn_host_callback_exec_get(e, h, &got));
        assert_ptr_equal(got.fn, cgn_test_callback(env, "record_a"));
        atomic_store(&env->num_calls, 0);
        OK(env->backend->launch(env, e));
        assert_int_equal(atomic_load(&env->num_calls), 1);
        assert_int_equal(env->calls[0].callback, 0);
        assert_int_equal(env->calls[0].first, 0x31);
    }
    /* user_data and payload together: refused */
    cgn_host_callback_update both = CGN_HOST_CALLBACK_UPDATE_INIT;
    unsigned char one = 1;
    cgn_host_callback_update_set_fn(&both, cgn_test_callback(env, "record_a"), &one, NULL, &one,
                                    1);
    EXPECT_ST(CGN_ERROR_INVALID_VALUE, cgn_host_callback_node_update(h, &both));
    destroy_exec_graph(e, g);
}

/* cgn_last_error and cgn_last_status belong to the calling thread, and a success does not
 * clear them. */
static void test_status_names(void **state) {
    (void)state;
    assert_string_equal(cgn_status_name(CGN_ERROR_DESTROYED), "CGN_ERROR_DESTROYED");
    assert_string_equal(cgn_status_name((cgn_status)999), "CGN_UNKNOWN_STATUS");
    assert_string_equal(cgn_status_name((cgn_status)-1), "CGN_UNKNOWN_STATUS");
    assert_non_null(cgn_status_description((cgn_status)999));
    assert_non_null(cgn_status_description((cgn_status)-5));
    EXPECT_ST(CGN_ERROR_INVALID_ARGUMENT, cgn_graph_create(NULL));
    cgn_graph *g = bb_graph_new();
    assert_int_equal(cgn_last_status(), CGN_ERROR_INVALID_ARGUMENT);
    OK(cgn_graph_destroy(g));
}

/* ==== owners in kernel updates, coupled fields
 * ====================================================== */

/* Owners given in set_args that an edit of the same update replaces are not held; a scalar given
 * an owner holds it until an edit without one replaces that value. */
static void test_arg_edit_owners_with_set_args(void **state) {
    cgn_test_env *env = *state;
    for (int level = 0; level < 2; level++) {
        cgn_owner *a = mine(23), *b = mine(24), *c = mine(25);
        cgn_node *f;
        cgn_exec *fe;
        cgn_graph *fg = fill_exec(env, 0, 5, &f, &fe);
        cgn_exec *x = level ? fe : NULL;
        cgn_arg args[2] = {cgn_test_arg_buf(env, 0, 0), cgn_test_arg_u32(env, 6)};
        args[0].owner = a;
        CUdeviceptr p = env->buf[1];
        uint32_t v = 8;
        cgn_kernel_update u = CGN_KERNEL_UPDATE_INIT;
        cgn_kernel_update_set_args(&u, args, 2);
        cgn_kernel_update_set_arg(&u, 0, &p, sizeof p, b);
        cgn_kernel_update_set_arg(&u, 1, &v, sizeof v, c);
        OK(kupdate(x, f, &u));
        OK(cgn_owner_release(a));
        OK(cgn_owner_release(b));
        OK(cgn_owner_release(c));
        collect_all();
        assert_int_equal(mine_released[23], 1); /* replaced by the edit within the update */
        assert_int_equal(mine_released[24], 0);
        assert_int_equal(mine_released[25], 0);
        cgn_kernel_desc d;
        kget(x, f, &d);
        assert_ptr_equal(d.args[0].owner, b);
        assert_ptr_equal(d.args[1].owner, c);
        assert_int_equal(run_u32(env, x, fg, 1), 8);
        uint32_t w = 9;
        cgn_kernel_update y = CGN_KERNEL_UPDATE_INIT;
        cgn_kernel_update_set_arg(&y, 1, &w, sizeof w, NULL);
        OK(kupdate(x, f, &y));
        assert_int_equal(run_u32(env, x, fg, 1), 9);
        expect_released2(25, 1, 24, 0);
        destroy_exec_graph(fe, fg);
        expect_released2(23, 1, 24, 1);
        assert_int_equal(mine_released[25], 1);
    }
}

/* kernel_owner: set with the kernel; a kernel set without it resets it (the old one goes);
 * kernel_owner without kernel is CGN_ERROR_MISSING_FIELD, kernel without args too. */
static void test_kernel_owner_coupling(void **state) {
    cgn_test_env *env = *state;
    cgn_owner *ko = mine(26), *ko2 = mine(27);
    cgn_node *f;
    cgn_graph *fg = fill_graph(env, 0, 5, NULL, &f);
    cgn_arg args[2] = {cgn_test_arg_buf(env, 0, 0), cgn_test_arg_u32(env, 6)};
    cgn_kernel_update u = CGN_KERNEL_UPDATE_INIT;
    cgn_kernel_update_set_kernel(&u, cgn_test_kernel(env, "fill_u32"), ko, args, 2);
    OK(cgn_kernel_node_update(f, &u));
    OK(cgn_owner_release(ko));
    cgn_kernel_update m = CGN_KERNEL_UPDATE_INIT;
    m.set = CGN_KERNEL_SET_KERNEL_OWNER;
    m.kernel_owner = ko2;
    EXPECT_ST(CGN_ERROR_MISSING_FIELD, cgn_kernel_node_update(f, &m));
    m.set = CGN_KERNEL_SET_KERNEL;
    m.kernel = cgn_test_kernel(env, "fill_u32");
    EXPECT_ST(CGN_ERROR_MISSING_FIELD, cgn_kernel_node_update(f, &m));
    cgn_kernel_desc d;
    OK(cgn_kernel_node_get(f, &d));
    assert_ptr_equal(d.kernel_owner, ko);
    expect_released(26, 0);
    /* neither or both of CUfunction and CUkernel */
    cgn_kernel both = cgn_test_kernel(env, "fill_u32");
    both.function = cgn_test_kernel(env, "add_one").function;
    cgn_kernel_update_reset(&m);
    cgn_kernel_update_set_kernel(&m, both, ko2, args, 2);
    EXPECT_ST(CGN_ERROR_INVALID_VALUE, cgn_kernel_node_update(f, &m));
    cgn_kernel_update_reset(&m);
    cgn_kernel_update_set_kernel(&m, (cgn_kernel){NULL, NULL}, ko2, args, 2);
    EXPECT_ST(CGN_ERROR_INVALID_VALUE, cgn_kernel_node_update(f, &m));
    /* kernel and args without kernel_owner: reset to NULL, the old owner goes */
    cgn_kernel_update k = CGN_KERNEL_UPDATE_INIT;
    k.set = CGN_KERNEL_SET_KERNEL | CGN_KERNEL_SET_ARGS;
    k.kernel = cgn_test_kernel(env, "fill_u32");
    k.args = args;
    k.num_args = 2;
    OK(cgn_kernel_node_update(f, &k));
    OK(cgn_kernel_node_get(f, &d));
    assert_null(d.kernel_owner);
    expect_released(26, 1);
    OK(cgn_owner_release(ko2));
    expect_released(27, 1);
    OK(cgn_graph_destroy(fg));
}

/* Memset coupling: dst_owner without dst, value without element_size and the reverse are
 * CGN_ERROR_MISSING_FIELD; a new dst without owner drops the old owner. */
static void test_memset_coupling(void **state) {
    cgn_test_env *env = *state;
    cgn_owner *o = mine(28);
    cgn_node *n;
    cgn_graph *g = owned_fill_graph(env, 0x11, o, &n);
    OK(cgn_owner_release(o));
    cgn_memset_update u = CGN_MEMSET_UPDATE_INIT;
    u.set = CGN_MEMSET_SET_DST_OWNER;
    EXPECT_ST(CGN_ERROR_MISSING_FIELD, cgn_memset_node_update(n, &u));
    u.set = CGN_MEMSET_SET_VALUE;
    u.value = 1;
    EXPECT_ST(CGN_ERROR_MISSING_FIELD, cgn_memset_node_update(n, &u));
    u.set = CGN_MEMSET_SET_ELEMENT_SIZE;
    u.element_size = 1;
    EXPECT_ST(CGN_ERROR_MISSING_FIELD, cgn_memset_node_update(n, &u));
    cgn_memset_update_reset(&u);
    cgn_memset_update_set_value(&u, 0x100, 1);
    EXPECT_ST(CGN_ERROR_OUT_OF_RANGE, cgn_memset_node_update(n, &u));
    cgn_memset_update_reset(&u);
    cgn_memset_update_set_dst(&u, 0, NULL);
    EXPECT_ST(CGN_ERROR_INVALID_VALUE, cgn_memset_node_update(n, &u));
    expect_released(28, 0);
    cgn_memset_update_reset(&u);
    u.set = CGN_MEMSET_SET_DST;
    u.dst = env->buf[1];
    OK(cgn_memset_node_update(n, &u));
    cgn_memset_desc got;
    OK(cgn_memset_node_get(n, &got));
    assert_null(got.dst_owner);
    expect_released(28, 1);
    OK(cgn_graph_destroy(g));
}

/* Adds under every driver failure: the graph, and the owner's references, are as before. */
static void test_add_driver_faults(void **state) {
    cgn_test_env *env = *state;
    for (int what = 0; what < 4; what++) {
        int failures = 0;
        for (long k = 1; k < 32; k++) {
            cgn_owner *o = mine(29);
            cgn_graph *g, *src = NULL;
            OK(cgn_graph_create(&g));
            cgn_node *first, *n = NULL;
            OK(cgn_graph_add_empty(g, NULL, 0, &first));
            if (what == 3) {
                OK(cgn_graph_create(&src));
                cgn_memset_desc sd = cgn_test_fill_desc(env, 0, 0x11, 0);
                sd.dst_owner = o;
                cgn_node *sn;
                OK(cgn_graph_add_memset(src, NULL, 0, &sd, &sn));
            }
            bb_fault_arm(k, CUDA_ERROR_OUT_OF_MEMORY);
            cgn_status st;
            if (what == 0) {
                cgn_memset_desc d = cgn_test_fill_desc(env, 0, 0x11, 0);
                d.dst_owner = o;
                st = cgn_graph_add_memset(g, &first, 1, &d, &n);
            } else if (what == 1) {
                cgn_arg args[2] = {cgn_test_arg_buf(env, 0, 0), cgn_test_arg_u32(env, 4)};
                args[0].owner = o;
                cgn_kernel_desc kd = bb_kernel_desc(cgn_test_kernel(env, "add_one"), args, 1);
                st = cgn_graph_add_kernel(g, &first, 1, &kd, &n);
            } else if (what == 2) {
                unsigned char pl[3] = {1, 2, 3};
                cgn_host_callback_desc hd = CGN_HOST_CALLBACK_DESC_INIT;
                hd.fn = cgn_test_callback(env, "record_a");
                hd.payload = pl;
                hd.payload_size = sizeof pl;
                st = cgn_graph_add_host_callback(g, &first, 1, &hd, &n);
            } else {
                cgn_child_graph_desc cd = CGN_CHILD_GRAPH_DESC_INIT;
                cd.graph = src;
                st = cgn_graph_add_child_graph(g, &first, 1, &cd, &n);
            }
            int hit = bb_fault_done(NULL);
            if (src)
                OK(cgn_graph_destroy(src));
            OK(cgn_owner_release(o));
            collect_all();
            if (st != CGN_OK) {
                failures++;
                assert_true(hit);
                assert_null(n);
                assert_int_equal(cgn_test_count_nodes(g), 1);
                CUgraph rg;
                OK(cgn_graph_raw(g, &rg));
                assert_int_equal(cgn_fake_graph_node_count(rg), 1);
                size_t deps = 7;
                OK(cgn_node_dependents(first, NULL, &deps));
                assert_int_equal(deps, 0);
                assert_int_equal(mine_released[29], 1);
            } else {
                assert_int_equal(cgn_test_count_nodes(g), 2);
            }
            OK(cgn_graph_destroy(g));
            expect_released(29, 1);
            if (!hit)
                break;
        }
        assert_true(failures > 0);
    }
}

/* A child-graph replacement under every driver failure: the old embedding and its handles stay
 * valid, the new source's owners are not kept by it. */
static void test_child_replace_driver_faults(void **state) {
    cgn_test_env *env = *state;
    int failures = 0;
    for (long k = 1; k < 64; k++) {
        cgn_owner *o1 = mine(40), *o2 = mine(41);
        cgn_graph *s1, *s2, *parent;
        cgn_node *n1, *n2, *child, *inner;
        s1 = owned_fill_graph(env, 0x11, o1, &n1);
        s2 = owned_fill_graph(env, 0x22, o2, &n2);
        OK(cgn_owner_release(o1));
        OK(cgn_owner_release(o2));
        OK(cgn_graph_create(&parent));
        child = add_child(parent, s1);
        OK(cgn_child_graph_node_find(child, n1, &inner));
        OK(cgn_graph_destroy(s1));
        cgn_child_graph_update r = CGN_CHILD_GRAPH_UPDATE_INIT;
        cgn_child_graph_update_set_graph(&r, s2);
        bb_fault_arm(k, CUDA_ERROR_OUT_OF_MEMORY);
        cgn_status st = cgn_child_graph_node_update(child, &r);
        int hit = bb_fault_done(NULL);
        OK(cgn_graph_destroy(s2));
        collect_all();
        if (st != CGN_OK) {
            failures++;
            assert_true(hit);
            assert_true(cgn_node_is_alive(inner));
            cgn_memset_desc got;
            OK(cgn_memset_node_get(inner, &got));
            assert_int_equal(got.value, 0x11);
            assert_int_equal(cgn_test_run_graph_read(env, parent, 0), 0x11);
            assert_int_equal(mine_released[41], 1); /* s2 gone, nothing embedded it */
            assert_int_equal(mine_released[40], 0);
        } else {
            assert_false(cgn_node_is_alive(inner));
            assert_int_equal(cgn_test_run_graph_read(env, parent, 0), 0x22);
        }
        OK(cgn_graph_destroy(parent));
        expect_released2(40, 1, 41, 1);
        if (!hit)
            break;
    }
    assert_true(failures > 0);
}

/* An adopted kernel whose arguments came packed through `extra`: argument edits at both levels,
 * the driver's block is never written. */
static void test_adopted_packed_kernel_edits(void **state) {
    cgn_test_env *env = *state;
    CUgraph rg;
    CU_OK(raw()->cuGraphCreate(&rg, 0));
    CUdeviceptr out = env->buf[0];
    uint32_t value = 7;
    unsigned char packed[16];
    memcpy(packed, &out, 8);
    memcpy(packed + 8, &value, 4);
    memset(packed + 12, 0, 4);
    size_t packed_size = 12;
    void *extra[] = {CU_LAUNCH_PARAM_BUFFER_POINTER, packed, CU_LAUNCH_PARAM_BUFFER_SIZE,
                     &packed_size, CU_LAUNCH_PARAM_END};
    CUDA_KERNEL_NODE_PARAMS_v2 kp;
    memset(&kp, 0, sizeof kp);
    kp.kern = cgn_test_kernel(env, "fill_u32").kernel;
    kp.gridDimX = kp.gridDimY = kp.gridDimZ = kp.blockDimX = kp.blockDimY = kp.blockDimZ = 1;
    kp.extra = extra;
    CUgraphNode kn;
    CU_OK(raw()->cuGraphAddKernelNode(&kn, rg, NULL, 0, &kp));
    cgn_graph *g;
    OK(cgn_graph_adopt(rg, CGN_ADOPT_TAKE_OWNERSHIP, &g));
    cgn_node *f;
    OK(cgn_graph_find_raw(g, kn, &f));
    OK(cgn_node_check_updatable(f));
    cgn_kernel_desc d;
    OK(cgn_kernel_node_get(f, &d));
    assert_int_equal(d.num_args, 2);
    assert_int_equal(u32_arg(&d, 1), 7);
    cgn_exec *e = bb_instantiate(g);
    uint32_t v = 50;
    cgn_kernel_update u = CGN_KERNEL_UPDATE_INIT;
    cgn_kernel_update_set_arg(&u, 1, &v, sizeof v, NULL);
    OK(cgn_kernel_exec_update(e, f, &u));
    assert_int_equal(run_u32(env, e, NULL, 0), 50);
    cgn_kernel_update_set_arg(&u, 2, &v, sizeof v, NULL);
    EXPECT_ST(CGN_ERROR_INVALID_VALUE, cgn_kernel_exec_update(e, f, &u));
    assert_int_equal(run_u32(env, e, NULL, 0), 50);
    v = 51;
    cgn_kernel_update w = CGN_KERNEL_UPDATE_INIT;
    cgn_kernel_update_set_arg(&w, 1, &v, sizeof v, NULL);
    OK(cgn_kernel_node_update(f, &w));
    assert_int_equal(run_u32(env, NULL, g, 0), 51);
    assert_int_equal(run_u32(env, e, NULL, 0), 50);
    uint32_t still;
    memcpy(&still, packed + 8, 4);
    assert_int_equal(still, 7);
    /* exec refresh, then an edit applies on the refreshed copy */
    OK(cgn_exec_update_from_graph(e, g));
    CUdeviceptr p = env->buf[1];
    cgn_kernel_update x = CGN_KERNEL_UPDATE_INIT;
    cgn_kernel_update_set_arg(&x, 0, &p, sizeof p, NULL);
    OK(cgn_kernel_exec_update(e, f, &x));
    assert_int_equal(run_u32(env, e, NULL, 1), 51);
    destroy_exec_graph(e, g);
}

/* An adopted kernel on a 12.3 driver has unknown arguments: edits are refused, an update setting
 * every argument is accepted and makes it an ordinary node. */
static void test_adopted_kernel_unknown_args(void **state) {
    cgn_test_env *env = *state;
    CUgraph rg;
    CU_OK(raw()->cuGraphCreate(&rg, 0));
    CUdeviceptr out = env->buf[0];
    uint32_t value = 7;
    void *params[] = {&out, &value};
    CUDA_KERNEL_NODE_PARAMS_v2 kp;
    memset(&kp, 0, sizeof kp);
    kp.func = cgn_test_kernel(env, "add_one").function;
    kp.gridDimX = kp.gridDimY = kp.gridDimZ = kp.blockDimX = kp.blockDimY = kp.blockDimZ = 1;
    kp.kernelParams = params;
    CUgraphNode kn;
    CU_OK(raw()->cuGraphAddKernelNode(&kn, rg, NULL, 0, &kp));
    cgn_fault_set_version(12030);
    cgn_graph *g;
    OK(cgn_graph_adopt(rg, CGN_ADOPT_TAKE_OWNERSHIP, &g));
    cgn_node *f;
    OK(cgn_graph_find_raw(g, kn, &f));
    EXPECT_ST(CGN_ERROR_NOT_SUPPORTED, cgn_node_check_updatable(f));
    cgn_kernel_update g1 = CGN_KERNEL_UPDATE_INIT;
    cgn_kernel_update_set_grid(&g1, CGN_DIM3(2, 1, 1));
    EXPECT_ST(CGN_ERROR_NOT_SUPPORTED, cgn_kernel_node_update(f, &g1));
    cgn_exec *e = bb_instantiate(g);
    EXPECT_ST(CGN_ERROR_NOT_SUPPORTED, cgn_kernel_exec_update(e, f, &g1));
    CUdeviceptr p = env->buf[1];
    cgn_kernel_update a = CGN_KERNEL_UPDATE_INIT;
    cgn_kernel_update_set_arg(&a, 0, &p, sizeof p, NULL);
    EXPECT_ST(CGN_ERROR_DRIVER_TOO_OLD, cgn_kernel_node_update(f, &a));
    cgn_arg args[1] = {cgn_test_arg_buf(env, 2, 0)};
    cgn_kernel_update all = CGN_KERNEL_UPDATE_INIT;
    cgn_kernel_update_set_args(&all, args, 1);
    OK(cgn_kernel_node_update(f, &all));
    OK(cgn_node_check_updatable(f));
    OK(cgn_kernel_node_update(f, &g1));
    /* the executable's copy still has unknown arguments */
    EXPECT_ST(CGN_ERROR_NOT_SUPPORTED, cgn_kernel_exec_update(e, f, &g1));
    OK(cgn_kernel_exec_update(e, f, &all));
    OK(cgn_kernel_exec_update(e, f, &g1));
    cgn_fault_set_version(13000);
    destroy_exec_graph(e, g);
}

#include <pthread.h>

static void *other_thread(void *arg) {
    (void)arg;
    static char message[256];
    snprintf(message, sizeof message, "%s|%d", cgn_last_error(), (int)cgn_last_status());
    (void)cgn_graph_destroy(NULL);
    return message;
}

/* cgn_last_error and cgn_last_status belong to the calling thread. */
static void test_last_error_per_thread(void **state) {
    (void)state;
    EXPECT_ST(CGN_ERROR_INVALID_ARGUMENT, cgn_graph_create(NULL));
    char mine_msg[256];
    snprintf(mine_msg, sizeof mine_msg, "%s", cgn_last_error());
    pthread_t t;
    assert_int_equal(pthread_create(&t, NULL, other_thread, NULL), 0);
    void *ret;
    assert_int_equal(pthread_join(t, &ret), 0);
    assert_string_equal((const char *)ret, "|0");
    assert_string_equal(cgn_last_error(), mine_msg);
}

/* Upload: bad handles, and an upload is not a launch. */
static void test_upload(void **state) {
    cgn_test_env *env = *state;
    cgn_graph *g;
    cgn_node *n;
    cgn_exec *e;
    cgn_test_fill_graph(env, &g, &n, &e);
    EXPECT_ST(CGN_ERROR_INVALID_ARGUMENT, cgn_exec_upload(NULL, NULL));
    EXPECT_ST(CGN_ERROR_INVALID_ARGUMENT, cgn_exec_upload((cgn_exec *)(void *)g, NULL));
    OK(cgn_exec_upload(e, NULL));
    CUgraphExec rx;
    OK(cgn_exec_raw(e, &rx));
    assert_int_equal(cgn_fake_exec_launches(rx), 0);
    OK(cgn_exec_destroy(e));
    EXPECT_ST(CGN_ERROR_DESTROYED, cgn_exec_upload(e, NULL));
    OK(cgn_graph_destroy(g));
}

/* ==== argument layouts per executable
 * ================================================================ */

/* A kernel of layout (u32, u64): the same argument count as fill_u32 (u64 pointer, u32) with
 * other sizes, to tell which kernel's sizes an edit is checked against. */
static CUfunction swapped_kernel(void) {
    static const size_t sizes[] = {sizeof(uint32_t), sizeof(uint64_t)};
    return cgn_fake_register_kernel("swapped", 2, sizes, NULL, NULL);
}

/* Switches f to swapped_kernel() with the arguments (3, 4): at executable level when e is not
 * NULL, else in the definition. */
static cgn_status switch_to_swapped(cgn_exec *e, cgn_node *f) {
    uint32_t small = 3;
    uint64_t wide = 4;
    cgn_arg args[2] = {CGN_ARG(small), CGN_ARG(wide)};
    cgn_kernel_update k = CGN_KERNEL_UPDATE_INIT;
    cgn_kernel_update_set_kernel(&k, CGN_FUNCTION(swapped_kernel()), NULL, args, 2);
    return e ? cgn_kernel_exec_update(e, f, &k) : cgn_kernel_node_update(f, &k);
}

/* After the definition switches kernels, an executable made before still runs the old kernel:
 * its edits are checked against the old kernel's layout, the definition's against the new one;
 * after cgn_exec_update_from_graph the executable takes the new layout. */
static void test_edit_layout_follows_each_copy(void **state) {
    cgn_test_env *env = *state;
    cgn_node *f;
    cgn_exec *e;
    cgn_graph *fg = fill_exec(env, 0, 5, &f, &e);
    OK(switch_to_swapped(NULL, f));
    /* definition: (u32, u64) */
    uint64_t w2 = 44;
    uint32_t s2 = 33;
    cgn_kernel_update d1 = CGN_KERNEL_UPDATE_INIT;
    cgn_kernel_update_set_arg(&d1, 1, &w2, sizeof w2, NULL);
    cgn_kernel_update_set_arg(&d1, 0, &s2, sizeof s2, NULL);
    OK(cgn_kernel_node_update(f, &d1));
    cgn_kernel_update d2 = CGN_KERNEL_UPDATE_INIT;
    cgn_kernel_update_set_arg(&d2, 1, &s2, sizeof s2, NULL);
    EXPECT_ST(CGN_ERROR_INVALID_VALUE, cgn_kernel_node_update(f, &d2));
    /* executable: still fill_u32 (u64, u32) */
    uint32_t v = 66;
    cgn_kernel_update x1 = CGN_KERNEL_UPDATE_INIT;
    cgn_kernel_update_set_arg(&x1, 1, &v, sizeof v, NULL);
    OK(cgn_kernel_exec_update(e, f, &x1));
    assert_int_equal(run_u32(env, e, NULL, 0), 66);
    cgn_kernel_update x2 = CGN_KERNEL_UPDATE_INIT;
    cgn_kernel_update_set_arg(&x2, 1, &w2, sizeof w2, NULL);
    EXPECT_ST(CGN_ERROR_INVALID_VALUE, cgn_kernel_exec_update(e, f, &x2));
    assert_int_equal(run_u32(env, e, NULL, 0), 66);
    /* refresh: the executable now runs (u32, u64) */
    OK(cgn_exec_update_from_graph(e, fg));
    OK(cgn_kernel_exec_update(e, f, &x2));
    EXPECT_ST(CGN_ERROR_INVALID_VALUE, cgn_kernel_exec_update(e, f, &x1));
    cgn_kernel_desc got;
    OK(cgn_kernel_exec_get(e, f, &got));
    assert_int_equal(got.args[0].size, 4);
    assert_int_equal(got.args[1].size, 8);
    destroy_exec_graph(e, fg);
}

/* The same when the executable itself switches kernels: its later edits use the new layout,
 * the definition keeps the old one. */
static void test_edit_layout_after_exec_kernel_switch(void **state) {
    cgn_test_env *env = *state;
    cgn_node *f;
    cgn_exec *e;
    cgn_graph *fg = fill_exec(env, 0, 5, &f, &e);
    cgn_status st = switch_to_swapped(e, f);
    if (st != CGN_OK) /* a CUkernel node moving to a CUfunction of the same context */
        fail_msg("exec kernel switch: %s (%s)", cgn_status_name(st), cgn_last_error());
    uint64_t w2 = 44;
    cgn_kernel_update x = CGN_KERNEL_UPDATE_INIT;
    cgn_kernel_update_set_arg(&x, 1, &w2, sizeof w2, NULL);
    OK(cgn_kernel_exec_update(e, f, &x));
    uint32_t v = 9;
    cgn_kernel_update y = CGN_KERNEL_UPDATE_INIT;
    cgn_kernel_update_set_arg(&y, 1, &v, sizeof v, NULL);
    EXPECT_ST(CGN_ERROR_INVALID_VALUE, cgn_kernel_exec_update(e, f, &y));
    OK(cgn_kernel_node_update(f, &y)); /* the definition is still fill_u32 */
    EXPECT_ST(CGN_ERROR_INVALID_VALUE, cgn_kernel_node_update(f, &x));
    assert_int_equal(run_u32(env, NULL, fg, 0), 9);
    destroy_exec_graph(e, fg);
}

/* Updates whose values point into cgn's own copies (a desc read back with _get, replayed with
 * update_from_desc, or an edit taking another argument's current bytes), many times in a row so
 * that spare blocks are reused: the values stay right. */
static void test_update_from_own_copies(void **state) {
    cgn_test_env *env = *state;
    cgn_node *f;
    cgn_exec *e;
    cgn_graph *fg = fill_exec(env, 0, 5, &f, &e);
    for (int level = 0; level < 2; level++) {
        cgn_exec *x = level ? e : NULL;
        for (uint32_t i = 0; i < 6; i++) {
            cgn_kernel_desc d;
            kget(x, f, &d);
            cgn_kernel_update u = CGN_KERNEL_UPDATE_INIT;
            cgn_kernel_update_from_desc(&u, &d);
            u.grid = CGN_DIM3(1 + i % 2, 1, 1);
            OK(kupdate(x, f, &u));
            kget(x, f, &d);
            assert_int_equal(u32_arg(&d, 1), 5);
            assert_int_equal(ptr_arg(&d, 0), env->buf[i == 0 ? 0 : (i - 1) % 2]);
            /* an edit of arg 1 from arg 1's current bytes, plus a real change of arg 0 */
            cgn_kernel_update w = CGN_KERNEL_UPDATE_INIT;
            CUdeviceptr p = env->buf[i % 2];
            cgn_kernel_update_set_arg(&w, 1, d.args[1].value, d.args[1].size, NULL);
            cgn_kernel_update_set_arg(&w, 0, &p, sizeof p, NULL);
            OK(kupdate(x, f, &w));
            kget(x, f, &d);
            assert_int_equal(u32_arg(&d, 1), 5);
            assert_int_equal(ptr_arg(&d, 0), env->buf[i % 2]);
            /* set_args from the copy's own array */
            cgn_kernel_update a = CGN_KERNEL_UPDATE_INIT;
            cgn_kernel_update_set_args(&a, d.args, d.num_args);
            OK(kupdate(x, f, &a));
            kget(x, f, &d);
            assert_int_equal(u32_arg(&d, 1), 5);
            assert_int_equal(ptr_arg(&d, 0), env->buf[i % 2]);
        }
        assert_int_equal(run_u32(env, x, fg, 1), 5);
    }
    destroy_exec_graph(e, fg);
}

/* ==== boundary values in descriptors
 * ================================================================== */

static uint64_t lcg_state = 12345;
static uint64_t lcg(void) {
    lcg_state = lcg_state * 6364136223846793005ull + 1442695040888963407ull;
    return lcg_state >> 17;
}

static size_t boundary(void) {
    static const size_t v[] = {0, 1, 2, 3, 7, 8, 16, 64, SIZE_MAX, SIZE_MAX - 1, SIZE_MAX / 2,
                               SIZE_MAX / 2 + 1, (size_t)1 << 32, ((size_t)1 << 32) - 1};
    return v[lcg() % (sizeof v / sizeof v[0])];
}

static int status_in(cgn_status st, const cgn_status *allowed, size_t n) {
    for (size_t i = 0; i < n; i++)
        if (st == allowed[i])
            return 1;
    return 0;
}

/* Random boundary values for every size field of memcpy_3d and memset descs, at add and at both
 * update levels: a documented status, never a crash (run under ASan/UBSan); what is accepted
 * leaves the node as read back, what is refused leaves it as it was. No launches: accepted
 * copies may be out of the test buffers' bounds. */
static void test_boundary_values(void **state) {
    cgn_test_env *env = *state;
    static const cgn_status ok_or_refused[] = {CGN_OK, CGN_ERROR_INVALID_VALUE,
                                               CGN_ERROR_OUT_OF_RANGE, CGN_ERROR_DRIVER,
                                               CGN_ERROR_NOT_SUPPORTED};
    cgn_graph *g = bb_graph_new();
    cgn_memcpy_3d_desc base = CGN_MEMCPY_3D_DESC_INIT;
    base.dst = env->buf[0];
    base.src = env->buf[1];
    base.width_in_bytes = 4;
    base.height = base.depth = 1;
    cgn_node *keep;
    OK(cgn_graph_add_memcpy_3d(g, NULL, 0, &base, &keep));
    cgn_exec *e = bb_instantiate(g);
    for (int i = 0; i < 4000; i++) {
        cgn_memcpy_3d_desc d = base;
        if (lcg() % 4 == 0) {
            d.dst = 0;
            d.dst_array = env->array[0];
        }
        if (lcg() % 4 == 0) {
            d.src = 0;
            d.src_array = env->array[1];
        }
        size_t *fields[] = {&d.dst_x_in_bytes, &d.dst_y, &d.dst_z, &d.dst_pitch, &d.dst_height,
                            &d.src_x_in_bytes, &d.src_y, &d.src_z, &d.src_pitch, &d.src_height,
                            &d.width_in_bytes, &d.height, &d.depth};
        for (size_t f = 0; f < sizeof fields / sizeof fields[0]; f++)
            if (lcg() % 3 == 0)
                *fields[f] = boundary();
        cgn_node *n = NULL;
        cgn_status st = cgn_graph_add_memcpy_3d(g, NULL, 0, &d, &n);
        if (!status_in(st, ok_or_refused, 5))
            fail_msg("add %d: %s (%s)", i, cgn_status_name(st), cgn_last_error());
        if (st == CGN_OK)
            OK(cgn_node_destroy(n));
        else
            assert_null(n);
        cgn_memcpy_3d_update u = CGN_MEMCPY_3D_UPDATE_INIT;
        cgn_memcpy_3d_update_from_desc(&u, &d);
        cgn_memcpy_3d_desc before, after;
        OK(cgn_memcpy_3d_node_get(keep, &before));
        st = cgn_memcpy_3d_node_update(keep, &u);
        if (!status_in(st, ok_or_refused, 5))
            fail_msg("update %d: %s (%s)", i, cgn_status_name(st), cgn_last_error());
        OK(cgn_memcpy_3d_node_get(keep, &after));
        if (st != CGN_OK)
            assert_memory_equal(&before, &after, sizeof before);
        OK(cgn_memcpy_3d_exec_get(e, keep, &before));
        st = cgn_memcpy_3d_exec_update(e, keep, &u);
        if (!status_in(st, ok_or_refused, 5))
            fail_msg("exec update %d: %s (%s)", i, cgn_status_name(st), cgn_last_error());
        OK(cgn_memcpy_3d_exec_get(e, keep, &after));
        if (st != CGN_OK)
            assert_memory_equal(&before, &after, sizeof before);
    }
    /* memset */
    cgn_memset_desc mb = cgn_test_fill_desc(env, 0, 1, 0);
    cgn_node *ms;
    OK(cgn_graph_add_memset(g, NULL, 0, &mb, &ms));
    for (int i = 0; i < 2000; i++) {
        cgn_memset_desc d = mb;
        size_t *fields[] = {&d.width, &d.height, &d.pitch};
        for (size_t f = 0; f < 3; f++)
            if (lcg() % 2 == 0)
                *fields[f] = boundary();
        static const uint32_t es[] = {0, 1, 2, 3, 4, 8, UINT32_MAX};
        if (lcg() % 3 == 0)
            d.element_size = es[lcg() % 7];
        if (lcg() % 3 == 0)
            d.value = (uint32_t)boundary();
        cgn_node *n = NULL;
        cgn_status st = cgn_graph_add_memset(g, NULL, 0, &d, &n);
        if (!status_in(st, ok_or_refused, 5))
            fail_msg("memset add %d: %s (%s)", i, cgn_status_name(st), cgn_last_error());
        if (st == CGN_OK)
            OK(cgn_node_destroy(n));
        cgn_memset_update u = CGN_MEMSET_UPDATE_INIT;
        cgn_memset_update_from_desc(&u, &d);
        cgn_memset_desc before, after;
        OK(cgn_memset_node_get(ms, &before));
        st = cgn_memset_node_update(ms, &u);
        if (!status_in(st, ok_or_refused, 5))
            fail_msg("memset update %d: %s (%s)", i, cgn_status_name(st), cgn_last_error());
        OK(cgn_memset_node_get(ms, &after));
        if (st != CGN_OK)
            memset_eq(&before, &after);
    }
    destroy_exec_graph(e, g);
}

/* Batch memory operations and external semaphores: counts past their bounds, NULL arrays. */
static void test_array_bounds(void **state) {
    cgn_test_env *env = *state;
    cgn_graph *g = bb_graph_new();
    cgn_node *n = NULL;
    CUstreamBatchMemOpParams *ops = cgn_test_mem_ops(env, CGN_MAX_MEM_OPS + 1);
    cgn_batch_mem_op_desc bd = CGN_BATCH_MEM_OP_DESC_INIT;
    bd.ops = ops;
    bd.num_ops = CGN_MAX_MEM_OPS + 1;
    EXPECT_ST(CGN_ERROR_OUT_OF_RANGE, cgn_graph_add_batch_mem_op(g, NULL, 0, &bd, &n));
    bd.num_ops = UINT32_MAX;
    EXPECT_ST(CGN_ERROR_OUT_OF_RANGE, cgn_graph_add_batch_mem_op(g, NULL, 0, &bd, &n));
    bd.num_ops = 0;
    EXPECT_ST(CGN_ERROR_INVALID_VALUE, cgn_graph_add_batch_mem_op(g, NULL, 0, &bd, &n));
    bd.ops = NULL;
    bd.num_ops = 1;
    EXPECT_ST(CGN_ERROR_INVALID_ARGUMENT, cgn_graph_add_batch_mem_op(g, NULL, 0, &bd, &n));
    bd.ops = ops;
    bd.num_ops = CGN_MAX_MEM_OPS;
    OK(cgn_graph_add_batch_mem_op(g, NULL, 0, &bd, &n));
    cgn_batch_mem_op_update bu = CGN_BATCH_MEM_OP_UPDATE_INIT;
    cgn_batch_mem_op_update_set_ops(&bu, ops, CGN_MAX_MEM_OPS + 1, NULL);
    EXPECT_ST(CGN_ERROR_OUT_OF_RANGE, cgn_batch_mem_op_node_update(n, &bu));
    cgn_batch_mem_op_desc got;
    OK(cgn_batch_mem_op_node_get(n, &got));
    assert_int_equal(got.num_ops, CGN_MAX_MEM_OPS);
    cgn_node *s = NULL;
    CUexternalSemaphore sems[CGN_MAX_EXT_SEMS + 1];
    CUDA_EXTERNAL_SEMAPHORE_SIGNAL_PARAMS params[CGN_MAX_EXT_SEMS + 1];
    memset(params, 0, sizeof params);
    for (size_t i = 0; i <= CGN_MAX_EXT_SEMS; i++)
        sems[i] = cgn_test_sem(env, (int)(i % 2));
    cgn_ext_sem_signal_desc sd = CGN_EXT_SEM_SIGNAL_DESC_INIT;
    sd.sems = sems;
    sd.sems_params = params;
    sd.num_sems = CGN_MAX_EXT_SEMS + 1;
    EXPECT_ST(CGN_ERROR_OUT_OF_RANGE, cgn_graph_add_ext_sem_signal(g, NULL, 0, &sd, &s));
    sd.num_sems = 2;
    sd.sems_params = NULL;
    EXPECT_ST(CGN_ERROR_INVALID_ARGUMENT, cgn_graph_add_ext_sem_signal(g, NULL, 0, &sd, &s));
    assert_null(s);
    assert_int_equal(cgn_test_count_nodes(g), 1);
    OK(cgn_graph_destroy(g));
}

/* ==== in-flight launches and failing fences
 * ============================================================ */

/* An executable-level version retired while a launch that reads it is in flight: polling the
 * launch's fence with each driver call failing in turn (cuEventQuery returning an error) must
 * not release it before the launch completes. */
static void test_fence_poll_faults_never_release_early(void **state) {
    cgn_test_env *env = *state;
    CUresult results[] = {CUDA_ERROR_INVALID_VALUE, CUDA_ERROR_LAUNCH_FAILED,
                          CUDA_ERROR_INVALID_HANDLE};
    int polls_failed = 0;
    for (size_t r = 0; r < sizeof results / sizeof results[0]; r++) {
        for (long k = 1; k < 8; k++) {
            cgn_graph *g;
            cgn_node *n;
            cgn_exec *e;
            fill_exec_owned(env, 42, &g, &n, &e);
            cgn_fake_hold_completion(1);
            OK(cgn_exec_launch(e, NULL));
            cgn_memset_update back = bb_dst_update(env->buf[2], NULL);
            OK(cgn_memset_exec_update(e, n, &back));
            bb_fault_arm(k, results[r]);
            (void)cgn_collect();
            cgn_fault_entry which;
            int hit = bb_fault_done(&which);
            polls_failed += hit && which == CGN_FAULT_cuEventQuery;
            /* still in flight: the retired version must still be held */
            assert_true(cgn_fake_in_flight(NULL) > 0);
            if (mine_released[42] != 0)
                fail_msg("released while its launch is in flight (fault %ld: %s returned %d)", k,
                         hit ? cgn_fault_entry_name(which) : "-", (int)results[r]);
            expect_released(42, 0);
            cgn_fake_complete_pending();
            cgn_fake_hold_completion(0);
            destroy_exec_graph(e, g);
            expect_released(42, 1);
            if (!hit)
                break;
        }
    }
    assert_true(polls_failed > 0);
}

/* cgn_exec_destroy with a launch in flight that reads an executable-level version, each driver
 * call failing in turn: the version is released only once the launch has completed. */
static void test_destroy_in_flight_faults(void **state) {
    cgn_test_env *env = *state;
    for (long k = 1; k < 16; k++) {
        cgn_graph *g;
        cgn_node *n;
        cgn_exec *e;
        fill_exec_owned(env, 43, &g, &n, &e);
        cgn_fake_hold_completion(1);
        OK(cgn_exec_launch(e, NULL));
        bb_fault_arm(k, CUDA_ERROR_INVALID_VALUE);
        cgn_status st = cgn_exec_destroy(e);
        cgn_fault_entry which;
        int hit = bb_fault_done(&which);
        collect_all();
        if (mine_released[43] != 0 && cgn_fake_in_flight(NULL) > 0)
            fail_msg("released while its launch is in flight (fault %ld: %s; destroy %s)", k,
                     hit ? cgn_fault_entry_name(which) : "-", cgn_status_name(st));
        cgn_fake_complete_pending();
        cgn_fake_hold_completion(0);
        if (st != CGN_OK) {
            assert_true(hit);
            assert_int_equal(cgn_test_run_read(env, e, 1), 0x11); /* still usable */
            OK(cgn_exec_destroy(e));
        }
        OK(cgn_graph_destroy(g));
        expect_released(43, 1);
        if (!hit)
            break;
    }
}

/* A release callback that releases another owner: both go, each once. */
static cgn_owner *chained;
static void release_and_chain(void *resource) {
    mine_released[(intptr_t)resource]++;
    if (chained) {
        cgn_owner *c = chained;
        chained = NULL;
        (void)cgn_owner_release(c);
    }
}

static void test_release_chain(void **state) {
    cgn_test_env *env = *state;
    cgn_owner *inner = mine(44), *outer;
    OK(cgn_owner_create((void *)(intptr_t)45, release_and_chain, &outer));
    mine_released[45] = 0;
    chained = inner;
    cgn_node *n;
    cgn_graph *g = owned_fill_graph(env, 1, outer, &n);
    OK(cgn_owner_release(outer));
    OK(cgn_graph_destroy(g));
    expect_released2(45, 1, 44, 1);
}

/* A child replaced at definition level by a graph of the same topology, then a whole refresh:
 * the executable runs the new embedding, handles into the old one report CGN_ERROR_DESTROYED
 * there, the new embedding's nodes are the ones the executable's copies now follow. */
static void test_refresh_after_child_replacement(void **state) {
    cgn_test_env *env = *state;
    cgn_graph *s1, *s2, *parent;
    cgn_node *n1, *n2, *child, *inner1, *inner2;
    s1 = owned_fill_graph(env, 0x11, NULL, &n1);
    s2 = owned_fill_graph(env, 0x22, NULL, &n2);
    OK(cgn_graph_create(&parent));
    child = add_child(parent, s1);
    OK(cgn_child_graph_node_find(child, n1, &inner1));
    cgn_exec *e = bb_instantiate(parent);
    cgn_child_graph_update r = CGN_CHILD_GRAPH_UPDATE_INIT;
    cgn_child_graph_update_set_graph(&r, s2);
    OK(cgn_child_graph_node_update(child, &r));
    OK(cgn_child_graph_node_find(child, n2, &inner2));
    assert_int_equal(cgn_test_run_read(env, e, 0), 0x11);
    OK(cgn_exec_update_from_graph(e, parent));
    assert_int_equal(cgn_test_run_read(env, e, 0), 0x22);
    cgn_memset_desc got;
    EXPECT_ST(CGN_ERROR_DESTROYED, cgn_memset_exec_get(e, inner1, &got));
    OK(cgn_memset_exec_get(e, inner2, &got));
    assert_int_equal(got.value, 0x22);
    cgn_memset_update u = bb_value_update(0x33);
    OK(cgn_memset_exec_update(e, inner2, &u));
    assert_int_equal(cgn_test_run_read(env, e, 0), 0x33);
    OK(cgn_memset_node_get(inner2, &got));
    assert_int_equal(got.value, 0x22);
    destroy_exec_graph(e, parent);
    OK(cgn_graph_destroy(s1));
    OK(cgn_graph_destroy(s2));
}

/* An adopted executable holding an executable-level owner, launched outside cgn and destroyed
 * with each driver call failing in turn: a failed destroy destroys nothing, and the owner goes
 * only after the wait. */
static void test_adopted_exec_destroy_faults(void **state) {
    cgn_test_env *env = *state;
    int failures = 0;
    for (long k = 1; k < 16; k++) {
        cgn_owner *a = mine(46);
        cgn_graph *g;
        cgn_node *n;
        cgn_exec *e0;
        cgn_test_fill_graph(env, &g, &n, &e0);
        CUgraphExec rx = raw_exec_of(g);
        cgn_exec *x;
        OK(cgn_exec_adopt(rx, g, CGN_ADOPT_TAKE_OWNERSHIP, &x));
        cgn_memset_update v = bb_dst_update(env->buf[1], a);
        OK(cgn_memset_exec_update(x, n, &v));
        OK(cgn_owner_release(a));
        cgn_fake_hold_completion(1);
        CU_OK(raw()->cuGraphLaunch(rx, NULL)); /* invisible to cgn */
        bb_fault_arm(k, CUDA_ERROR_LAUNCH_FAILED);
        cgn_status st = cgn_exec_destroy(x);
        int hit = bb_fault_done(NULL);
        collect_all();
        if (cgn_fake_in_flight(NULL) > 0)
            assert_int_equal(mine_released[46], 0);
        cgn_fake_complete_pending();
        cgn_fake_hold_completion(0);
        if (st != CGN_OK) {
            failures++;
            assert_true(hit);
            expect_released(46, 0);
            assert_int_equal(cgn_test_run_read(env, x, 1), 0x11); /* nothing was destroyed */
            OK(cgn_exec_destroy(x));
        }
        destroy_exec_graph(e0, g);
        expect_released(46, 1);
        if (!hit)
            break;
    }
    assert_true(failures > 0);
}

/* The driver's version and entry points. */
static void test_driver_queries(void **state) {
    (void)state;
    int v = 0;
    OK(cgn_init());
    OK(cgn_init());
    OK(cgn_driver_version(&v));
    assert_int_equal(v, 13000);
    void *pfn = (void *)(uintptr_t)1;
    /* cgn_driver_proc resolves through the real libcuda.so.1 (none here: CGN_ERROR_NO_DRIVER;
     * with one, an unknown entry point is CGN_ERROR_DRIVER_TOO_OLD); *pfn_out is cleared. */
    cgn_status st = cgn_driver_proc("cuDefinitelyNotAnEntryPoint", 12000, &pfn);
    assert_true(st == CGN_ERROR_NO_DRIVER || st == CGN_ERROR_DRIVER_TOO_OLD);
    assert_null(pfn);
    char longname[4096];
    memset(longname, 'x', sizeof longname - 1);
    longname[sizeof longname - 1] = '\0';
    pfn = (void *)(uintptr_t)1;
    st = cgn_driver_proc(longname, 12000, &pfn);
    assert_true(st == CGN_ERROR_NO_DRIVER || st == CGN_ERROR_DRIVER_TOO_OLD);
    assert_null(pfn);
    assert_true(cgn_last_error()[0] != '\0');
    assert_null(cgn_owner_resource(NULL));
}

/* Memcpy operands: 0, size 0, unmapped memory refused; pageable host memory taken as host;
 * an executable keeps its operands' memory types. */
static void test_memcpy_operands(void **state) {
    cgn_test_env *env = *state;
    long page = 4096;
    unsigned char *gone = mmap(NULL, (size_t)page, PROT_READ | PROT_WRITE,
                               MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
    assert_true(gone != MAP_FAILED);
    assert_int_equal(munmap(gone, (size_t)page), 0);
    cgn_graph *g = bb_graph_new();
    cgn_memcpy_desc d = CGN_MEMCPY_DESC_INIT;
    d.dst = env->buf[0];
    d.src = env->buf[1];
    d.size = 0;
    cgn_node *n = NULL;
    EXPECT_ST(CGN_ERROR_INVALID_VALUE, cgn_graph_add_memcpy(g, NULL, 0, &d, &n));
    d.size = 8;
    d.src = 0;
    EXPECT_ST(CGN_ERROR_INVALID_VALUE, cgn_graph_add_memcpy(g, NULL, 0, &d, &n));
    d.src = (CUdeviceptr)(uintptr_t)gone;
    EXPECT_ST(CGN_ERROR_INVALID_VALUE, cgn_graph_add_memcpy(g, NULL, 0, &d, &n));
    d.src = (CUdeviceptr)UINT64_C(0xfffffffffffffff0);
    EXPECT_ST(CGN_ERROR_INVALID_VALUE, cgn_graph_add_memcpy(g, NULL, 0, &d, &n));
    assert_null(n);
    d.src = env->buf[1];
    OK(cgn_graph_add_memcpy(g, NULL, 0, &d, &n));
    cgn_exec *e = bb_instantiate(g);
    cgn_memcpy_update u = CGN_MEMCPY_UPDATE_INIT;
    cgn_memcpy_update_set_dst(&u, (CUdeviceptr)(uintptr_t)gone, NULL);
    EXPECT_ST(CGN_ERROR_INVALID_VALUE, cgn_memcpy_node_update(n, &u));
    EXPECT_ST(CGN_ERROR_INVALID_VALUE, cgn_memcpy_exec_update(e, n, &u));
    cgn_memcpy_update_reset(&u);
    cgn_memcpy_update_set_dst(&u, cgn_test_host(env, 0), NULL);
    EXPECT_ST(CGN_ERROR_INVALID_VALUE, cgn_memcpy_exec_update(e, n, &u)); /* device -> host */
    OK(cgn_memcpy_node_update(n, &u));
    cgn_memcpy_desc got;
    OK(cgn_memcpy_node_get(n, &got));
    assert_int_equal(got.dst_memory_type, CU_MEMORYTYPE_HOST);
    OK(cgn_memcpy_exec_get(e, n, &got));
    assert_int_equal(got.dst_memory_type, CU_MEMORYTYPE_DEVICE);
    assert_int_equal(got.dst, env->buf[0]);
    EXPECT_ST(CGN_ERROR_INVALID_VALUE, cgn_exec_update_from_graph(e, g));
    OK(cgn_memcpy_exec_get(e, n, &got));
    assert_int_equal(got.dst, env->buf[0]);
    destroy_exec_graph(e, g);
}

/* ==== bounded memory ===================================================================== */

#include <malloc.h>

/* Bytes of heap in use (glibc), after releasing what can be released. */
static size_t heap_used(void) {
    collect_all();
    struct mallinfo2 mi = mallinfo2();
    return mi.uordblks;
}

typedef void (*step_fn)(cgn_test_env *env, void *ctx, int i);

/* Heap growth over n more steps, after 2n steps of warm-up. */
static long growth(cgn_test_env *env, step_fn step, void *ctx, int n) {
    for (int i = 0; i < n; i++)
        step(env, ctx, i); /* warm-up */
    size_t a = heap_used();
    for (int i = 0; i < n; i++)
        step(env, ctx, i);
    size_t b = heap_used();
    for (int i = 0; i < n; i++)
        step(env, ctx, i);
    size_t c = heap_used();
    (void)a;
    return (long)c - (long)b;
}

typedef struct loop_ctx {
    cgn_graph *g, *src[2];
    cgn_node *n, *child;
    cgn_exec *e;
} loop_ctx;

static void step_add_destroy(cgn_test_env *env, void *ctx, int i) {
    loop_ctx *c = ctx;
    cgn_node *m;
    cgn_memset_desc d = cgn_test_fill_desc(env, 0, (uint32_t)i & 0xff, i & 1);
    OK(cgn_graph_add_memset(c->g, &c->n, 1, &d, &m));
    OK(cgn_node_destroy(m));
}
static void step_def_owner(cgn_test_env *env, void *ctx, int i) {
    loop_ctx *c = ctx;
    cgn_memset_update u = bb_dst_update(env->buf[i % 2], env->owner[i % 2]);
    OK(cgn_memset_node_update(c->n, &u));
}
static void step_exec_owner(cgn_test_env *env, void *ctx, int i) {
    loop_ctx *c = ctx;
    cgn_memset_update u = bb_dst_update(env->buf[i % 2], env->owner[i % 2]);
    OK(cgn_memset_exec_update(c->e, c->n, &u));
    OK(cgn_exec_launch(c->e, NULL));
}
static void step_exec_owner_nolaunch(cgn_test_env *env, void *ctx, int i) {
    loop_ctx *c = ctx;
    cgn_memset_update u = bb_dst_update(env->buf[i % 2], env->owner[i % 2]);
    OK(cgn_memset_exec_update(c->e, c->n, &u));
}
static void step_refresh(cgn_test_env *env, void *ctx, int i) {
    loop_ctx *c = ctx;
    step_def_owner(env, ctx, i);
    OK(cgn_exec_update_from_graph(c->e, c->g));
    OK(cgn_exec_launch(c->e, NULL));
}
static void step_child(cgn_test_env *env, void *ctx, int i) {
    loop_ctx *c = ctx;
    (void)env;
    cgn_child_graph_update r = CGN_CHILD_GRAPH_UPDATE_INIT;
    cgn_child_graph_update_set_graph(&r, c->src[i % 2]);
    OK(cgn_child_graph_node_update(c->child, &r));
}
static void step_child_exec(cgn_test_env *env, void *ctx, int i) {
    loop_ctx *c = ctx;
    (void)env;
    cgn_child_graph_update r = CGN_CHILD_GRAPH_UPDATE_INIT;
    cgn_child_graph_update_set_graph(&r, c->src[i % 2]);
    OK(cgn_child_graph_exec_update(c->e, c->child, &r));
    OK(cgn_exec_launch(c->e, NULL));
}
static void step_failed(cgn_test_env *env, void *ctx, int i) {
    loop_ctx *c = ctx;
    cgn_memset_update u = bb_dst_update(env->buf[i % 2], env->owner[i % 2]);
    bb_fault_arm(1 + i % 4, CUDA_ERROR_INVALID_VALUE);
    (void)((i & 1) ? cgn_memset_exec_update(c->e, c->n, &u) : cgn_memset_node_update(c->n, &u));
    cgn_fault_disarm();
}
static void step_exec_create(cgn_test_env *env, void *ctx, int i) {
    loop_ctx *c = ctx;
    (void)env; (void)i;
    cgn_exec *x = bb_instantiate(c->g);
    OK(cgn_exec_launch(x, NULL));
    OK(cgn_exec_destroy(x));
}
static void step_refresh_node(cgn_test_env *env, void *ctx, int i) {
    loop_ctx *c = ctx;
    (void)env; (void)i;
    OK(cgn_node_refresh(c->n));
}
static void step_host_payload(cgn_test_env *env, void *ctx, int i) {
    loop_ctx *c = ctx;
    unsigned char pl[32] = {(unsigned char)i};
    cgn_host_callback_update u = CGN_HOST_CALLBACK_UPDATE_INIT;
    cgn_host_callback_update_set_fn(&u, cgn_test_callback(env, "record_a"), NULL, NULL, pl,
                                    sizeof pl);
    OK((i & 1) ? cgn_host_callback_exec_update(c->e, c->child, &u)
               : cgn_host_callback_node_update(c->child, &u));
    OK(cgn_exec_launch(c->e, NULL));
}

static void step_kernel_edits(cgn_test_env *env, void *ctx, int i) {
    loop_ctx *c = ctx;
    CUdeviceptr p = env->buf[i % 2];
    uint32_t v = (uint32_t)i;
    cgn_kernel_update u = CGN_KERNEL_UPDATE_INIT;
    cgn_kernel_update_set_arg(&u, 0, &p, sizeof p, env->owner[i % 3]);
    cgn_kernel_update_set_arg(&u, 1, &v, sizeof v, NULL);
    OK((i & 1) ? cgn_kernel_exec_update(c->e, c->n, &u) : cgn_kernel_node_update(c->n, &u));
    if (i % 3 == 0)
        OK(cgn_exec_launch(c->e, NULL));
}
static void step_kernel_args_after_graph(cgn_test_env *env, void *ctx, int i) {
    loop_ctx *c = ctx;
    cgn_arg args[2] = {cgn_test_arg_buf(env, i % 2, i & 1), cgn_test_arg_u32(env, 1)};
    env->args_used = 0; /* the env's argument pool is reused */
    env->arena_used = 0;
    cgn_kernel_update u = CGN_KERNEL_UPDATE_INIT;
    cgn_kernel_update_set_args(&u, args, 2);
    OK(cgn_kernel_exec_update(c->e, c->n, &u));
    OK(cgn_exec_launch(c->e, NULL));
}

/* Every long-running loop the documentation promises bounded: the heap in use after 4000 more
 * iterations is what it was (records, versions, owners, argument blocks, payload copies, fences,
 * embedded copies all recycled or freed). */
static void test_memory_flat_in_loops(void **state) {
    cgn_test_env *env = *state;
    struct { const char *name; step_fn fn; int kind;
    } cases[] = {
        {"add_destroy", step_add_destroy, 0},
        {"def_owner", step_def_owner, 0},
        {"exec_owner", step_exec_owner, 0},
        {"exec_owner_nolaunch", step_exec_owner_nolaunch, 0},
        {"refresh", step_refresh, 0},
        {"failed", step_failed, 0},
        {"exec_create", step_exec_create, 0},
        {"refresh_node", step_refresh_node, 0},
        {"child", step_child, 1},
        {"child_exec", step_child_exec, 1},
        {"host_payload", step_host_payload, 2},
        {"kernel_edits", step_kernel_edits, 3},
        {"kernel_args_after_graph", step_kernel_args_after_graph, 4},
    };
    for (size_t k = 0; k < sizeof cases / sizeof cases[0]; k++) {
        loop_ctx c;
        memset(&c, 0, sizeof c);
        OK(cgn_graph_create(&c.g));
        if (cases[k].kind == 0) {
            cgn_memset_desc d = cgn_test_fill_desc(env, 0, 1, 0);
            OK(cgn_graph_add_memset(c.g, NULL, 0, &d, &c.n));
        } else if (cases[k].kind == 1) {
            for (int j = 0; j < 2; j++) {
                OK(cgn_graph_create(&c.src[j]));
                cgn_memset_desc d = cgn_test_fill_desc(env, j, 1, 1);
                cgn_node *sn;
                OK(cgn_graph_add_memset(c.src[j], NULL, 0, &d, &sn));
            }
            c.child = add_child(c.g, c.src[0]);
        } else if (cases[k].kind == 2) {
            cgn_host_callback_desc hd = CGN_HOST_CALLBACK_DESC_INIT;
            hd.fn = cgn_test_callback(env, "record_a");
            OK(cgn_graph_add_host_callback(c.g, NULL, 0, &hd, &c.child));
        } else {
            OK(cgn_graph_destroy(c.g));
            c.g = fill_graph(env, 0, 1, NULL, &c.n);
        }
        OK(cgn_graph_instantiate(c.g, &c.e));
        if (cases[k].kind == 4) {
            OK(cgn_graph_destroy(c.g));
            c.g = NULL;
        }
        long grown = growth(env, cases[k].fn, &c, 4000);
        if (grown > 256)
            fail_msg("%s: the heap grew by %ld bytes over 4000 iterations", cases[k].name, grown);
        OK(cgn_exec_destroy(c.e));
        if (c.g)
            OK(cgn_graph_destroy(c.g));
        for (int j = 0; j < 2; j++)
            if (c.src[j])
                OK(cgn_graph_destroy(c.src[j]));
    }
}

/* ==== refresh and adoption, more
 * ======================================================================= */

/* Adopting a memset node with no context current (none reported by the driver):
 * CGN_ERROR_NO_CONTEXT, nothing recorded, the raw graph untouched, the context still none. */
static void test_adopt_without_context(void **state) {
    cgn_test_env *env = *state;
    CUgraphNode rn;
    CUgraph rg = raw_graph_with_memset(env, &rn);
    size_t live = cgn_fake_live_objects();
    env->backend->set_context(env, CGN_TEST_CTX_NONE);
    cgn_graph *g = NULL;
    cgn_status st = cgn_graph_adopt(rg, CGN_ADOPT_TAKE_OWNERSHIP, &g);
    int ctx = env->backend->current_context(env);
    env->backend->set_context(env, CGN_TEST_CTX_OWN);
    assert_int_equal(st, CGN_ERROR_NO_CONTEXT);
    assert_int_equal(ctx, CGN_TEST_CTX_NONE);
    assert_null(g);
    assert_int_equal(cgn_fake_live_objects(), live);
    assert_int_equal(cgn_fake_graph_node_count(rg), 1);
    OK(cgn_graph_adopt(rg, CGN_ADOPT_TAKE_OWNERSHIP, &g));
    OK(cgn_graph_destroy(g));
}

/* A kernel node's arguments changed behind cgn's back: the refresh keeps the owner of the
 * argument whose value did not change and drops the changed one's. */
static void test_refresh_kernel_args_owners(void **state) {
    cgn_test_env *env = *state;
    cgn_owner *keep = mine(47), *lose = mine(48);
    cgn_graph *g = bb_graph_new();
    cgn_arg args[2] = {cgn_test_arg_buf(env, 0, 0), cgn_test_arg_u32(env, 5)};
    args[0].owner = keep;
    args[1].owner = lose;
    cgn_kernel_desc kd = bb_kernel_desc(cgn_test_kernel(env, "fill_u32"), args, 2);
    cgn_node *n;
    OK(cgn_graph_add_kernel(g, NULL, 0, &kd, &n));
    OK(cgn_owner_release(keep));
    OK(cgn_owner_release(lose));
    CUgraphNode rn;
    OK(cgn_node_raw(n, &rn));
    CUgraphNodeParams p;
    memset(&p, 0, sizeof p);
    assert_true(cgn_fake_node_params(rn, &p));
    CUdeviceptr out = env->buf[0];
    uint32_t v = 9;
    void *params[] = {&out, &v};
    p.kernel.kernelParams = params;
    p.kernel.extra = NULL;
    CU_OK(raw()->cuGraphNodeSetParams(rn, &p));
    OK(cgn_node_refresh(n));
    cgn_kernel_desc got;
    OK(cgn_kernel_node_get(n, &got));
    assert_int_equal(u32_arg(&got, 1), 9);
    assert_ptr_equal(got.args[0].owner, keep);
    assert_null(got.args[1].owner);
    collect_all();
    /* "the version's attachment is kept, so nothing is released early" (docs/adopt.md) */
    assert_int_equal(mine_released[47], 0);
    assert_true(mine_released[48] <= 1);
    assert_int_equal(run_u32(env, NULL, g, 0), 9);
    /* a later update with new owners: the dropped owner is not carried into it */
    cgn_owner *later = mine(49);
    uint32_t w = 10;
    cgn_kernel_update u = CGN_KERNEL_UPDATE_INIT;
    cgn_kernel_update_set_arg(&u, 1, &w, sizeof w, later);
    OK(cgn_kernel_node_update(n, &u));
    OK(cgn_owner_release(later));
    expect_released2(48, 1, 47, 0);
    assert_int_equal(mine_released[49], 0);
    OK(cgn_graph_destroy(g));
    expect_released2(47, 1, 48, 1);
    assert_int_equal(mine_released[49], 1);
}

/* A memcpy node reshaped behind cgn's back: definition updates are refused
 * (CGN_ERROR_NOT_SUPPORTED), the node is left as it is; reshaped back and refreshed, it is
 * updatable again. */
static void test_refresh_reshaped_memcpy(void **state) {
    cgn_test_env *env = *state;
    cgn_graph *g = bb_graph_new();
    cgn_memcpy_desc d = CGN_MEMCPY_DESC_INIT;
    d.dst = env->buf[0];
    d.src = env->buf[1];
    d.size = 8;
    cgn_node *n;
    OK(cgn_graph_add_memcpy(g, NULL, 0, &d, &n));
    CUgraphNode rn;
    OK(cgn_node_raw(n, &rn));
    CUgraphNodeParams p;
    memset(&p, 0, sizeof p);
    assert_true(cgn_fake_node_params(rn, &p));
    CUgraphNodeParams plain = p;
    p.memcpy.copyParams.srcXInBytes = 4; /* an offset copy */
    CU_OK(raw()->cuGraphNodeSetParams(rn, &p));
    cgn_memcpy_update u = CGN_MEMCPY_UPDATE_INIT;
    cgn_memcpy_update_set_size(&u, 4);
    EXPECT_ST(CGN_ERROR_NOT_SUPPORTED, cgn_memcpy_node_update(n, &u));
    CUgraphNodeParams now;
    assert_true(cgn_fake_node_params(rn, &now));
    assert_int_equal(now.memcpy.copyParams.srcXInBytes, 4);
    OK(cgn_node_refresh(n));
    EXPECT_ST(CGN_ERROR_NOT_SUPPORTED, cgn_node_check_updatable(n));
    EXPECT_ST(CGN_ERROR_NOT_SUPPORTED, cgn_memcpy_node_update(n, &u));
    CU_OK(raw()->cuGraphNodeSetParams(rn, &plain));
    OK(cgn_node_refresh(n));
    OK(cgn_node_check_updatable(n));
    OK(cgn_memcpy_node_update(n, &u));
    cgn_memcpy_desc got;
    OK(cgn_memcpy_node_get(n, &got));
    assert_int_equal(got.size, 4);
    OK(cgn_graph_destroy(g));
}

/* Every fallible call of a sweep, with the caller's context none or a foreign one, and each of
 * its driver calls failing in turn: the calling thread's context is what it was, and no call
 * the real driver crashes on was made. */
static void test_context_sweep_under_faults(void **state) {
    cgn_test_env *env = *state;
    for (int which = 0; which < 2; which++) {
        int ctx = which ? CGN_TEST_CTX_FOREIGN : CGN_TEST_CTX_NONE;
        for (int call = 0; call < 10; call++) {
            for (long k = 1; k < 40; k++) {
                env->args_used = 0; /* cgn copied what the pool held: reuse it */
                env->arena_used = 0;
                cgn_node *f, *a;
                cgn_graph *fg = fill_graph(env, 0, 5, env->owner[2], &f);
                cgn_graph *ag = add_one_graph(env, 1, &a);
                cgn_graph *src;
                cgn_node *sn, *child, *m;
                OK(cgn_graph_create(&src));
                cgn_memset_desc md = cgn_test_fill_desc(env, 3, 1, 1);
                OK(cgn_graph_add_memset(src, NULL, 0, &md, &sn));
                OK(cgn_graph_add_memset(fg, NULL, 0, &md, &m));
                child = add_child(ag, src);
                cgn_exec *fe, *ae;
                OK(cgn_graph_instantiate(fg, &fe));
                OK(cgn_graph_instantiate(ag, &ae));
                CUdeviceptr p = env->buf[2];
                uint32_t v = 8;
                cgn_kernel_update ku = CGN_KERNEL_UPDATE_INIT;
                cgn_kernel_update_set_arg(&ku, 0, &p, sizeof p, env->owner[1]);
                cgn_memset_update mu = bb_dst_update(env->buf[1], env->owner[1]);
                cgn_memset_update_set_value(&mu, 0x7, 1);
                cgn_child_graph_update cu = CGN_CHILD_GRAPH_UPDATE_INIT;
                cgn_child_graph_update_set_graph(&cu, src);
                cgn_exec *x = NULL;
                (void)v;
                env->backend->set_context(env, ctx);
                bb_fault_arm(k, CUDA_ERROR_INVALID_VALUE);
                cgn_status st = CGN_OK;
                switch (call) {
                case 0: st = cgn_kernel_node_update(a, &ku); break;
                case 1: st = cgn_kernel_exec_update(ae, a, &ku); break;
                case 2: st = cgn_kernel_exec_update(fe, f, &ku); break;
                case 3: st = cgn_memset_node_update(m, &mu); break;
                case 4: st = cgn_memset_exec_update(fe, m, &mu); break;
                case 5: st = cgn_exec_update_from_graph(fe, fg); break;
                case 6: st = cgn_exec_launch(ae, NULL); break;
                case 7: st = cgn_graph_instantiate(ag, &x); break;
                case 8: st = cgn_child_graph_node_update(child, &cu); break;
                default: st = cgn_node_refresh(a); break;
                }
                cgn_fault_entry hit_entry;
                int hit = cgn_fault_triggered(&hit_entry);
                cgn_fault_disarm();
                int now = env->backend->current_context(env);
                env->backend->set_context(env, CGN_TEST_CTX_OWN);
                if (now != ctx)
                    fail_msg("call %d, fault %ld (%s), status %s: context %d, was %d", call, k,
                             hit ? cgn_fault_entry_name(hit_entry) : "-", cgn_status_name(st), now,
                             ctx);
                assert_int_equal(cgn_fake_crash_prone_calls(), 0);
                if (x)
                    OK(cgn_exec_destroy(x));
                OK(cgn_exec_destroy(fe));
                destroy_exec_graph(ae, fg);
                OK(cgn_graph_destroy(ag));
                OK(cgn_graph_destroy(src));
                if (!hit)
                    break;
            }
        }
    }
}

/* Release callbacks that call back into cgn on other hierarchies: nested collects, destroying
 * another graph and another executable (each holding owners). */
static cgn_graph *reentrant_graph;
static cgn_exec *reentrant_exec;
static int reentrant_depth, reentrant_max_depth;
static void release_reentrant(void *resource) {
    reentrant_depth++;
    if (reentrant_depth > reentrant_max_depth)
        reentrant_max_depth = reentrant_depth;
    mine_released[(intptr_t)resource]++;
    (void)cgn_collect();
    if (reentrant_exec) {
        cgn_exec *e = reentrant_exec;
        reentrant_exec = NULL;
        (void)cgn_exec_destroy(e);
    }
    if (reentrant_graph) {
        cgn_graph *g = reentrant_graph;
        reentrant_graph = NULL;
        (void)cgn_graph_destroy(g);
    }
    (void)cgn_collect();
    reentrant_depth--;
}

static void test_reentrant_release_callbacks(void **state) {
    cgn_test_env *env = *state;
    cgn_owner *trigger, *o[4];
    OK(cgn_owner_create((void *)(intptr_t)50, release_reentrant, &trigger));
    mine_released[50] = 0;
    for (int i = 0; i < 4; i++) {
        OK(cgn_owner_create((void *)(intptr_t)(51 + i), release_reentrant, &o[i]));
        mine_released[51 + i] = 0;
    }
    /* another hierarchy whose node holds o[0] and o[1]; its executable holds o[2] at exec level */
    cgn_graph *other = bb_graph_new();
    cgn_memset_desc d = cgn_test_fill_desc(env, 0, 1, 0);
    d.dst_owner = o[0];
    cgn_node *n0, *n1;
    OK(cgn_graph_add_memset(other, NULL, 0, &d, &n0));
    d.dst_owner = o[1];
    OK(cgn_graph_add_memset(other, NULL, 0, &d, &n1));
    cgn_exec *oe = bb_instantiate(other);
    cgn_memset_update u = bb_dst_update(env->buf[2], o[2]);
    OK(cgn_memset_exec_update(oe, n0, &u));
    OK(cgn_exec_launch(oe, NULL));
    for (int i = 0; i < 3; i++)
        OK(cgn_owner_release(o[i]));
    reentrant_graph = other;
    reentrant_exec = oe;
    /* the trigger is held by a graph we destroy */
    cgn_graph *g = bb_graph_new();
    d.dst_owner = trigger;
    cgn_node *t;
    OK(cgn_graph_add_memset(g, NULL, 0, &d, &t));
    OK(cgn_owner_release(trigger));
    OK(cgn_owner_release(o[3]));
    OK(cgn_graph_destroy(g));
    collect_all();
    for (int i = 50; i < 55; i++)
        assert_int_equal(mine_released[i], 1);
    assert_null(reentrant_graph);
    assert_null(reentrant_exec);
    assert_true(reentrant_max_depth >= 1);
}

/* ==== old drivers ========================================================================== */

typedef struct all_nodes {
    cgn_graph *g, *src;
    cgn_node *n[16];
    size_t count;
} all_nodes;

/* One node of every type cgn builds (conditional aside), in g. */
static cgn_status add_all_nodes(cgn_test_env *env, all_nodes *a) {
    cgn_status st;
    memset(a, 0, sizeof *a);
    OK(cgn_graph_create(&a->g));
    OK(cgn_graph_create(&a->src));
    cgn_node *sn;
    cgn_memset_desc md = cgn_test_fill_desc(env, 3, 1, 0);
    OK(cgn_graph_add_memset(a->src, NULL, 0, &md, &sn));
#define ADD(call)                                                                                  \
    do {                                                                                           \
        st = (call);                                                                               \
        if (st != CGN_OK)                                                                          \
            return st;                                                                             \
        a->count++;                                                                                \
    } while (0)
    cgn_arg args2[2] = {cgn_test_arg_buf(env, 0, 0), cgn_test_arg_u32(env, 4)};
    cgn_kernel_desc kd = bb_kernel_desc(cgn_test_kernel(env, "fill_u32"), args2, 2);
    ADD(cgn_graph_add_kernel(a->g, NULL, 0, &kd, &a->n[a->count]));
    cgn_arg args1[1] = {cgn_test_arg_buf(env, 1, 0)};
    kd.kernel = cgn_test_kernel(env, "add_one");
    kd.args = args1;
    kd.num_args = 1;
    ADD(cgn_graph_add_kernel(a->g, NULL, 0, &kd, &a->n[a->count]));
    ADD(cgn_graph_add_memset(a->g, NULL, 0, &md, &a->n[a->count]));
    cgn_memcpy_desc cd = CGN_MEMCPY_DESC_INIT;
    cd.dst = env->buf[2];
    cd.src = env->buf[3];
    cd.size = 8;
    ADD(cgn_graph_add_memcpy(a->g, NULL, 0, &cd, &a->n[a->count]));
    cgn_memcpy_3d_desc c3 = CGN_MEMCPY_3D_DESC_INIT;
    c3.dst_array = env->array[0];
    c3.src = env->buf[3];
    c3.src_pitch = 8;
    c3.width_in_bytes = 8;
    c3.height = 2;
    ADD(cgn_graph_add_memcpy_3d(a->g, NULL, 0, &c3, &a->n[a->count]));
    cgn_host_callback_desc hd = CGN_HOST_CALLBACK_DESC_INIT;
    hd.fn = cgn_test_callback(env, "record_a");
    ADD(cgn_graph_add_host_callback(a->g, NULL, 0, &hd, &a->n[a->count]));
    cgn_event_record_desc er = CGN_EVENT_RECORD_DESC_INIT;
    er.event = env->event[0];
    ADD(cgn_graph_add_event_record(a->g, NULL, 0, &er, &a->n[a->count]));
    cgn_event_wait_desc ew = CGN_EVENT_WAIT_DESC_INIT;
    ew.event = env->event[1];
    ADD(cgn_graph_add_event_wait(a->g, NULL, 0, &ew, &a->n[a->count]));
    cgn_child_graph_desc ch = CGN_CHILD_GRAPH_DESC_INIT;
    ch.graph = a->src;
    ADD(cgn_graph_add_child_graph(a->g, NULL, 0, &ch, &a->n[a->count]));
    CUstreamBatchMemOpParams op = cgn_test_mem_op(env, CU_STREAM_MEM_OP_WRITE_VALUE_32, 2, 8, 5, 0);
    cgn_batch_mem_op_desc bd = CGN_BATCH_MEM_OP_DESC_INIT;
    bd.ops = &op;
    bd.num_ops = 1;
    ADD(cgn_graph_add_batch_mem_op(a->g, NULL, 0, &bd, &a->n[a->count]));
    CUexternalSemaphore sem = cgn_test_sem(env, 0);
    CUDA_EXTERNAL_SEMAPHORE_SIGNAL_PARAMS sp;
    memset(&sp, 0, sizeof sp);
    cgn_ext_sem_signal_desc ss = CGN_EXT_SEM_SIGNAL_DESC_INIT;
    ss.sems = &sem;
    ss.sems_params = &sp;
    ss.num_sems = 1;
    ADD(cgn_graph_add_ext_sem_signal(a->g, NULL, 0, &ss, &a->n[a->count]));
    ADD(cgn_graph_add_empty(a->g, NULL, 0, &a->n[a->count]));
#undef ADD
    return CGN_OK;
}

static void free_all_nodes(all_nodes *a) {
    if (a->g)
        OK(cgn_graph_destroy(a->g));
    if (a->src)
        OK(cgn_graph_destroy(a->src));
}

/* Building, instantiating, launching, refreshing, adopting and finding work from driver 12.0
 * (no call to an entry point the driver lacks: the proxy removes them, a call would crash);
 * updates are CGN_ERROR_DRIVER_TOO_OLD before 12.2; argument checks start at 12.4. */
static void test_old_drivers_full_cycle(void **state) {
    cgn_test_env *env = *state;
    int versions[] = {12000, 12010, 12020, 12030, 12040};
    for (size_t v = 0; v < sizeof versions / sizeof versions[0]; v++) {
        int ver = versions[v];
        env->args_used = 0;
        env->arena_used = 0;
        cgn_fault_set_version(ver);
        all_nodes a;
        OK(add_all_nodes(env, &a));
        cgn_exec *e = NULL;
        OK(cgn_graph_instantiate(a.g, &e));
        OK(cgn_exec_launch(e, NULL));
        for (size_t i = 0; i < a.count; i++) {
            OK(cgn_node_refresh(a.n[i]));
            cgn_node_type t;
            OK(cgn_node_type_of(a.n[i], &t));
            cgn_status c = cgn_node_check_updatable(a.n[i]);
            assert_true(c == CGN_OK || c == CGN_ERROR_NOT_SUPPORTED);
            int en = -1;
            cgn_status ge = cgn_exec_node_get_enabled(e, a.n[i], &en);
            int toggles = t == CGN_NODE_KERNEL || t == CGN_NODE_MEMSET || t == CGN_NODE_MEMCPY ||
                          t == CGN_NODE_MEMCPY_3D; /* a CUDA memcpy node too */
            if (toggles) {
                OK(ge);
                assert_int_equal(en, 1);
            } else {
                assert_int_equal(ge, CGN_ERROR_NOT_SUPPORTED);
            }
        }
        OK(cgn_exec_update_from_graph(e, a.g));
        /* updates: gated at 12.2 */
        cgn_memset_update mu = bb_value_update(9);
        cgn_status st = cgn_memset_node_update(a.n[2], &mu);
        assert_int_equal(st, ver < 12020 ? CGN_ERROR_DRIVER_TOO_OLD : CGN_OK);
        st = cgn_memset_exec_update(e, a.n[2], &mu);
        assert_int_equal(st, ver < 12020 ? CGN_ERROR_DRIVER_TOO_OLD : CGN_OK);
        uint32_t val = 6;
        cgn_kernel_update ku = CGN_KERNEL_UPDATE_INIT;
        cgn_kernel_update_set_arg(&ku, 1, &val, sizeof val, NULL);
        st = cgn_kernel_exec_update(e, a.n[0], &ku);
        assert_int_equal(st, ver < 12040 ? CGN_ERROR_DRIVER_TOO_OLD : CGN_OK);
        /* The one-call forms have the same gates; a definition kernel update from 12.2 (every
         * argument: after the refresh above a 12.2 or 12.3 driver left their sizes unknown). */
        st = cgn_kernel_exec_set_arg(e, a.n[0], 1, &val, sizeof val, NULL);
        assert_int_equal(st, ver < 12040 ? CGN_ERROR_DRIVER_TOO_OLD : CGN_OK);
        st = cgn_kernel_node_set_arg(a.n[0], 1, &val, sizeof val, NULL);
        assert_int_equal(st, ver < 12040 ? CGN_ERROR_DRIVER_TOO_OLD : CGN_OK);
        cgn_arg both[2] = {cgn_test_arg_buf(env, 0, 0), cgn_test_arg_u32(env, 7)};
        cgn_kernel_update whole = CGN_KERNEL_UPDATE_INIT;
        cgn_kernel_update_set_args(&whole, both, 2);
        st = cgn_kernel_node_update(a.n[0], &whole);
        assert_int_equal(st, ver < 12020 ? CGN_ERROR_DRIVER_TOO_OLD : CGN_OK);
        st = cgn_kernel_exec_update(e, a.n[0], &whole);
        assert_int_equal(st, ver < 12020 ? CGN_ERROR_DRIVER_TOO_OLD : CGN_OK);
        CUgraph rg;
        OK(cgn_graph_raw(a.g, &rg));
        cgn_graph *ad = NULL;
        OK(cgn_graph_adopt(rg, 0, &ad));
        size_t cnt = 0;
        OK(cgn_graph_find_kernel(ad, cgn_test_kernel(env, "fill_u32"), NULL, &cnt));
        assert_int_equal(cnt, 1);
        cgn_exec *ae = NULL;
        OK(cgn_graph_instantiate(ad, &ae));
        destroy_exec_graph(ae, ad);
        /* argument count checked against the kernel from 12.4 */
        cgn_arg one[1] = {cgn_test_arg_buf(env, 0, 0)};
        cgn_kernel_desc kd = bb_kernel_desc(cgn_test_kernel(env, "fill_u32"), one, 1);
        cgn_node *bad = NULL;
        st = cgn_graph_add_kernel(a.g, NULL, 0, &kd, &bad);
        assert_int_equal(st, ver < 12040 ? CGN_OK : CGN_ERROR_INVALID_VALUE);
        if (st == CGN_OK)
            OK(cgn_node_destroy(bad));
        OK(cgn_exec_destroy(e));
        free_all_nodes(&a);
        cgn_fault_set_version(13000);
        collect_all();
    }
}

/* ==== inputs that crash or are refused by the driver (docs/nodes.md table)
 * ======================== */

/* An executable kernel update to a CUfunction of another context, with no context or a foreign
 * one current: CGN_ERROR_INVALID_VALUE naming the kernel rule, no crash-prone call, nothing
 * changed; the same change in the definition, then a whole refresh: CGN_ERROR_DRIVER, the
 * executable unchanged. A dangling CUfunction: CGN_ERROR_DRIVER. */
static void test_driver_refusals(void **state) {
    cgn_test_env *env = *state;
    cgn_node *a;
    cgn_graph *ag = add_one_graph(env, 0, &a);
    cgn_exec *e = bb_instantiate(ag);
    cgn_arg args[1] = {cgn_test_arg_buf(env, 1, 0)};
    cgn_kernel_update k = CGN_KERNEL_UPDATE_INIT;
    cgn_kernel_update_set_kernel(&k, env->backend->foreign_kernel(env, "add_one"), NULL, args, 1);
    int ctxs[2] = {CGN_TEST_CTX_NONE, CGN_TEST_CTX_FOREIGN};
    for (int i = 0; i < 2; i++) {
        env->backend->set_context(env, ctxs[i]);
        cgn_status st = cgn_kernel_exec_update(e, a, &k);
        int now = env->backend->current_context(env);
        env->backend->set_context(env, CGN_TEST_CTX_OWN);
        assert_int_equal(now, ctxs[i]);
        assert_int_equal(st, CGN_ERROR_INVALID_VALUE);
        assert_non_null(strstr(cgn_last_error(), "kernel"));
        assert_int_equal(cgn_fake_crash_prone_calls(), 0);
        cgn_kernel_desc d;
        OK(cgn_kernel_exec_get(e, a, &d));
        assert_ptr_equal(d.kernel.function, cgn_test_kernel(env, "add_one").function);
        assert_int_equal(ptr_arg(&d, 0), env->buf[0]);
    }
    OK(cgn_kernel_node_update(a, &k)); /* the definition may move */
    EXPECT_ST(CGN_ERROR_DRIVER, cgn_exec_update_from_graph(e, ag));
    cgn_kernel_desc d;
    OK(cgn_kernel_exec_get(e, a, &d));
    assert_ptr_equal(d.kernel.function, cgn_test_kernel(env, "add_one").function);
    unsigned char zero[8] = {0};
    env->backend->write(env, env->buf[0], zero, sizeof zero);
    OK(env->backend->launch(env, e));
    uint32_t got;
    env->backend->read(env, env->buf[0], &got, sizeof got);
    assert_int_equal(got, 1); /* add_one still ran on buffer 0 */
    cgn_kernel_update u = CGN_KERNEL_UPDATE_INIT;
    cgn_kernel_update_set_kernel(&u, env->backend->unloaded_kernel(env), NULL, args, 1);
    cgn_status st = cgn_kernel_node_update(a, &u);
    assert_true(st == CGN_ERROR_DRIVER || st == CGN_ERROR_INVALID_VALUE);
    OK(cgn_kernel_node_get(a, &d));
    assert_ptr_equal(d.kernel.function, env->backend->foreign_kernel(env, "add_one").function);
    destroy_exec_graph(e, ag);
}

/* Event nodes: NULL event refused; an executable-level update to a destroyed event is refused
 * by the driver and changes nothing. */
static void test_event_refusals(void **state) {
    cgn_test_env *env = *state;
    cgn_graph *g = bb_graph_new();
    cgn_event_record_desc er = CGN_EVENT_RECORD_DESC_INIT;
    cgn_node *r = NULL;
    EXPECT_ST(CGN_ERROR_INVALID_VALUE, cgn_graph_add_event_record(g, NULL, 0, &er, &r));
    assert_null(r);
    er.event = env->event[0];
    OK(cgn_graph_add_event_record(g, NULL, 0, &er, &r));
    cgn_exec *e = bb_instantiate(g);
    CUevent dead = env->backend->event_create(env);
    env->backend->event_destroy(env, dead);
    cgn_event_record_update u = CGN_EVENT_RECORD_UPDATE_INIT;
    cgn_event_record_update_set_event(&u, dead, NULL);
    EXPECT_ST(CGN_ERROR_DRIVER, cgn_event_record_exec_update(e, r, &u));
    cgn_event_record_desc got;
    OK(cgn_event_record_exec_get(e, r, &got));
    assert_ptr_equal(got.event, env->event[0]);
    cgn_event_record_update_set_event(&u, NULL, NULL);
    EXPECT_ST(CGN_ERROR_INVALID_VALUE, cgn_event_record_node_update(r, &u));
    EXPECT_ST(CGN_ERROR_INVALID_VALUE, cgn_event_record_exec_update(e, r, &u));
    OK(cgn_event_record_node_get(r, &got));
    assert_ptr_equal(got.event, env->event[0]);
    destroy_exec_graph(e, g);
}

/* ==== documented costs: what a call does not do
 * ======================================================= */

/* Updates with unchanged owners make no user object; a version no launch has seen is released
 * at once; an upload records nothing; cgn_exec_destroy of an executable cgn sees every launch of
 * does not wait for its context; cgn_collect counts what it released. */
static void test_documented_costs(void **state) {
    cgn_test_env *env = *state;
    cgn_owner *a = mine(55), *b = mine(56);
    cgn_node *n;
    cgn_graph *g = owned_fill_graph(env, 0x11, a, &n);
    cgn_fault_reset_counts();
    cgn_memset_update v = bb_value_update(0x12);
    OK(cgn_memset_node_update(n, &v));
    assert_int_equal(cgn_fault_calls(CGN_FAULT_cuUserObjectCreate), 0);
    assert_int_equal(cgn_fault_calls(CGN_FAULT_cuGraphRetainUserObject), 0);
    cgn_exec *e = bb_instantiate(g);
    cgn_fault_reset_counts();
    OK(cgn_memset_exec_update(e, n, &v));
    OK(cgn_exec_launch(e, NULL));
    assert_int_equal(cgn_fault_calls(CGN_FAULT_cuUserObjectCreate), 0);
    assert_int_equal(cgn_fault_calls(CGN_FAULT_cuEventRecord), 0);
    /* b set at exec level, then replaced before any launch: released at once */
    cgn_memset_update vb = bb_dst_update(env->buf[1], b);
    OK(cgn_memset_exec_update(e, n, &vb));
    OK(cgn_owner_release(b));
    cgn_fake_hold_completion(1);
    cgn_memset_update back = bb_dst_update(env->buf[0], NULL);
    OK(cgn_memset_exec_update(e, n, &back));
    (void)cgn_collect(); /* (its callback may already have run inside the update) */
    assert_int_equal(mine_released[56], 1);
    assert_int_equal(cgn_collect(), 0);
    cgn_owner *c = mine(57);
    OK(cgn_owner_release(c));
    assert_int_equal(mine_released[57], 0);
    assert_int_equal(cgn_collect(), 1);
    assert_int_equal(mine_released[57], 1);
    /* upload: not a launch */
    cgn_memset_update_set_dst(&vb, env->buf[1], a);
    OK(cgn_memset_exec_update(e, n, &vb));
    cgn_fault_reset_counts();
    OK(cgn_exec_upload(e, NULL));
    assert_int_equal(cgn_fault_calls(CGN_FAULT_cuEventRecord), 0);
    assert_int_equal(cgn_fault_calls(CGN_FAULT_cuGraphLaunch), 0);
    /* destroy with a launch in flight: no wait, the owner goes after completion */
    OK(cgn_exec_launch(e, NULL));
    OK(cgn_owner_release(a));
    OK(cgn_graph_destroy(g));
    cgn_fault_reset_counts();
    OK(cgn_exec_destroy(e));
    assert_int_equal(cgn_fault_calls(CGN_FAULT_cuCtxSynchronize), 0);
    expect_released(55, 0);
    cgn_fake_complete_pending();
    cgn_fake_hold_completion(0);
    expect_released(55, 1);
}

/* ==== finding kernels
 * ====================================================================================== */

static cgn_node *add_fill_node(cgn_test_env *env, cgn_graph *g, cgn_kernel k) {
    cgn_arg args[2] = {cgn_test_arg_buf(env, 0, 0), cgn_test_arg_u32(env, 1)};
    cgn_kernel_desc kd = bb_kernel_desc(k, args, 2);
    cgn_node *n;
    OK(cgn_graph_add_kernel(g, NULL, 0, &kd, &n));
    return n;
}

/* cgn_graph_find_kernel: a CUkernel matches its CUfunction in the current context and back; other
 * contexts' functions do not match; embeddings' nodes come right after their child node; the
 * count convention holds. */
static void test_find_kernel(void **state) {
    cgn_test_env *env = *state;
    cgn_kernel k = cgn_test_kernel(env, "fill_u32"); /* a CUkernel */
    CUfunction f2 = env->backend->foreign_kernel(env, "fill_u32").function;
    CUfunction f0 = cgn_fake_function_in_context(f2, cgn_fake_context(0));
    assert_non_null(f0);
    cgn_graph *src, *g;
    OK(cgn_graph_create(&src));
    cgn_node *sn = add_fill_node(env, src, k);
    OK(cgn_graph_create(&g));
    cgn_node *first = add_fill_node(env, g, k);
    cgn_node *inner;
    cgn_node *child = add_child(g, src);
    OK(cgn_child_graph_node_find(child, sn, &inner));
    cgn_node *last = add_fill_node(env, g, CGN_FUNCTION(f0));
    cgn_node *other;
    cgn_arg one[1] = {cgn_test_arg_buf(env, 1, 0)};
    cgn_kernel_desc kd = bb_kernel_desc(cgn_test_kernel(env, "add_one"), one, 1);
    OK(cgn_graph_add_kernel(g, NULL, 0, &kd, &other));
    cgn_node *out[4] = {NULL, NULL, NULL, NULL};
    size_t count = 4;
    OK(cgn_graph_find_kernel(g, k, out, &count));
    assert_int_equal(count, 3);
    assert_ptr_equal(out[0], first);
    assert_ptr_equal(out[1], inner);
    assert_ptr_equal(out[2], last);
    count = 4;
    OK(cgn_graph_find_kernel(g, CGN_FUNCTION(f0), out, &count));
    assert_int_equal(count, 3);
    count = 1;
    out[1] = NULL;
    OK(cgn_graph_find_kernel(g, CGN_FUNCTION(f0), out, &count));
    assert_int_equal(count, 3);
    assert_ptr_equal(out[0], first);
    assert_null(out[1]);
    count = 4;
    OK(cgn_graph_find_kernel(g, CGN_FUNCTION(f2), out, &count));
    assert_int_equal(count, 0);
    count = 4;
    OK(cgn_graph_find_kernel(src, k, out, &count));
    assert_int_equal(count, 1);
    assert_ptr_equal(out[0], sn);
    cgn_kernel both = {f0, k.kernel};
    count = 4;
    cgn_status st = cgn_graph_find_kernel(g, both, out, &count);
    assert_true(st == CGN_ERROR_INVALID_ARGUMENT || st == CGN_ERROR_INVALID_VALUE);
    count = 4;
    st = cgn_graph_find_kernel(g, (cgn_kernel){NULL, NULL}, out, &count);
    assert_true(st == CGN_ERROR_INVALID_ARGUMENT || st == CGN_ERROR_INVALID_VALUE);
    /* find_raw finds embedded nodes too; a raw node of another graph is not found */
    CUgraphNode rin, rsn;
    OK(cgn_node_raw(inner, &rin));
    cgn_node *found = NULL;
    OK(cgn_graph_find_raw(g, rin, &found));
    assert_ptr_equal(found, inner);
    OK(cgn_node_raw(sn, &rsn));
    found = NULL;
    st = cgn_graph_find_raw(g, rsn, &found);
    assert_int_not_equal(st, CGN_OK);
    assert_null(found);
    OK(cgn_graph_destroy(g));
    OK(cgn_graph_destroy(src));
}

int main(void) {
#define T(name)                                                                                    \
    cmocka_unit_test_setup_teardown(name, cgn_test_fixture_setup, cgn_test_fixture_teardown)
    const struct CMUnitTest tests[] = {
        T(test_null_out_pointers),
        T(test_null_and_foreign_handles),
        T(test_double_destroy),
        T(test_bad_dependencies),
        T(test_wrong_node_type),
        T(test_unknown_set_bits_and_empty_update),
        T(test_arg_edit_index_out_of_range),
        T(test_arg_edit_wrong_size),
        T(test_arg_edit_too_many_or_null),
        T(test_arg_edit_repeated_index),
        T(test_arg_edit_with_args_and_kernel),
        T(test_arg_edit_owner_replaces_old),
        T(test_arg_edit_driver_faults),
        T(test_driver_too_old),
        T(test_exec_outlives_graph),
        T(test_update_from_graph_refusals),
        T(test_update_from_graph_driver_faults),
        T(test_enable_disable),
        T(test_instantiate_flags),
        T(test_exec_loop_bounded),
        T(test_definition_loop_bounded),
        T(test_owner_release_deferred),
        T(test_failed_update_keeps_owner_counts),
        T(test_sizes),
        T(test_list_count_convention),
        T(test_context_preserved),
        T(test_child_graph_handles),
        T(test_adopt_borrowed_and_owned),
        T(test_adopt_unknown_node_type),
        T(test_adopt_driver_faults),
        T(test_refresh),
        T(test_exec_adopt),
        T(test_launch_faults_keep_in_flight_owners),
        T(test_destroy_driver_faults),
        T(test_conditional_refusals),
        T(test_mem_alloc_refusals),
        T(test_embedded_nodes_in_executables),
        T(test_refresh_retires_exec_versions),
        T(test_host_payload_faults),
        T(test_status_names),
        T(test_arg_edit_owners_with_set_args),
        T(test_kernel_owner_coupling),
        T(test_memset_coupling),
        T(test_add_driver_faults),
        T(test_child_replace_driver_faults),
        T(test_adopted_packed_kernel_edits),
        T(test_adopted_kernel_unknown_args),
        T(test_upload),
        T(test_edit_layout_follows_each_copy),
        T(test_edit_layout_after_exec_kernel_switch),
        T(test_update_from_own_copies),
        T(test_boundary_values),
        T(test_array_bounds),
        T(test_fence_poll_faults_never_release_early),
        T(test_destroy_in_flight_faults),
        T(test_release_chain),
        T(test_refresh_after_child_replacement),
        T(test_adopted_exec_destroy_faults),
        T(test_driver_queries),
        T(test_memcpy_operands),
        T(test_memory_flat_in_loops),
        T(test_adopt_without_context),
        T(test_refresh_kernel_args_owners),
        T(test_refresh_reshaped_memcpy),
        T(test_context_sweep_under_faults),
        T(test_reentrant_release_callbacks),
        T(test_old_drivers_full_cycle),
        T(test_driver_refusals),
        T(test_event_refusals),
        T(test_documented_costs),
        T(test_find_kernel),
        /* Last: once a thread has been created, glibc's write(2) takes another path whose
         * frames tests/valgrind.supp's probe suppressions do not match (test_memcpy_operands
         * would then be flagged under the valgrind preset). */
        T(test_last_error_per_thread),
    };
#undef T
    return cmocka_run_group_tests(tests, NULL, NULL);
}
