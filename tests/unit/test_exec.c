/* The executable level beyond the generated matrices, on the fake driver (label unit) and on a
 * GPU (label gpu): executables' own copies of their nodes, bounded retention with launches in
 * flight, the raw-handle rule, destruction in flight, inputs that crash the driver, stale and
 * foreign handles, and bounded records. */
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
#include "runtime.h"

/* Unset fields keep what *that executable* has, not what the definition has now. */
static void test_partial_exec_update_reads_the_executable(void **state) {
    cgn_test_env *env = *state;
    cgn_graph *g;
    cgn_node *n;
    cgn_exec *e;
    cgn_test_fill_graph(env, &g, &n, &e);
    cgn_memset_update u = CGN_MEMSET_UPDATE_INIT;
    cgn_memset_update_set_value(&u, 0x22, 1);
    OK(cgn_memset_node_update(n, &u)); /* the definition moves on */
    cgn_memset_update w = CGN_MEMSET_UPDATE_INIT;
    cgn_memset_update_set_width(&w, 16);
    OK(cgn_memset_exec_update(e, n, &w));
    cgn_memset_desc got;
    OK(cgn_memset_exec_get(e, n, &got));
    assert_int_equal(got.value, 0x11); /* the executable's value, not the definition's 0x22 */
    assert_int_equal(got.width, 16);
    OK(cgn_memset_node_get(n, &got));
    assert_int_equal(got.value, 0x22);
    assert_int_equal(got.width, 8);
    unsigned char bytes[CGN_TEST_BUF_SIZE] = {0};
    env->backend->write(env, env->buf[0], bytes, sizeof bytes);
    OK(env->backend->launch(env, e));
    env->backend->read(env, env->buf[0], bytes, sizeof bytes);
    for (int i = 0; i < CGN_TEST_BUF_SIZE; i++)
        assert_int_equal(bytes[i], i < 16 ? 0x11 : 0);
    OK(cgn_exec_destroy(e));
    OK(cgn_graph_destroy(g));
}

/* A version replaced while launches that read it are in flight is released only once they
 * have completed. A launch records an event only while the executable holds something only
 * cgn holds (a version set at executable level, or a retired one). */
static void test_retired_version_waits_for_launches(void **state) {
    cgn_test_env *env = *state;
    cgn_graph *g;
    cgn_node *n;
    cgn_exec *e;
    cgn_test_fill_graph(env, &g, &n, &e);
    cgn_fault_reset_counts();
    OK(env->backend->launch(env, e)); /* the graph's versions only (CUDA holds them): no event */
    assert_int_equal(cgn_fault_calls(CGN_FAULT_cuEventRecord), 0);
    cgn_memset_update u = CGN_MEMSET_UPDATE_INIT;
    cgn_memset_update_set_dst(&u, env->buf[1], env->owner[1]);
    OK(cgn_memset_exec_update(e, n, &u)); /* the executable holds owner 1 now */
    cgn_test_env_drop_owners(env);
    assert_true(env->backend->hold(env));
    OK(env->backend->launch_async(env, e)); /* reads owner 1's buffer, in flight: fenced */
    assert_int_equal(cgn_fault_calls(CGN_FAULT_cuEventRecord), 1);
    cgn_memset_update back = CGN_MEMSET_UPDATE_INIT;
    cgn_memset_update_set_dst(&back, env->buf[2], NULL);
    OK(cgn_memset_exec_update(e, n, &back)); /* owner 1's version retires */
    OK(env->backend->launch_async(env, e)); /* fenced again: a version waits */
    assert_int_equal(cgn_fault_calls(CGN_FAULT_cuEventRecord), 2);
    cgn_collect();
    assert_int_equal(env->released[1], 0); /* its launch has not completed */
    env->backend->release(env);
    cgn_collect(); /* polls the fence: complete */
    assert_int_equal(env->released[1], 1);
    OK(cgn_exec_destroy(e));
    OK(cgn_graph_destroy(g));
}

/* Once the raw handle has been taken, launches cgn cannot see may exist: nothing is released
 * before the executable is destroyed. */
static void test_raw_handle_keeps_everything(void **state) {
    cgn_test_env *env = *state;
    cgn_graph *g;
    cgn_node *n;
    cgn_exec *e;
    cgn_test_fill_graph(env, &g, &n, &e);
    CUgraphExec raw;
    OK(cgn_exec_raw(e, &raw));
    cgn_memset_update u = CGN_MEMSET_UPDATE_INIT;
    cgn_memset_update_set_dst(&u, env->buf[1], env->owner[1]);
    OK(cgn_memset_exec_update(e, n, &u));
    cgn_test_env_drop_owners(env);
    cgn_memset_update back = CGN_MEMSET_UPDATE_INIT;
    cgn_memset_update_set_dst(&back, env->buf[0], NULL);
    OK(cgn_memset_exec_update(e, n, &back)); /* never launched through cgn, but maybe raw */
    for (int i = 0; i < 3; i++)
        OK(env->backend->launch(env, e));
    cgn_collect();
    assert_int_equal(env->released[1], 0);
    OK(cgn_exec_destroy(e));
    assert_true(cgn_test_wait_released(env, 1, 1));
    OK(cgn_graph_destroy(g));
}

/* Destroyed with a launch in flight: what it held goes only after the launch completed. */
static void test_destroy_in_flight_keeps_owners_until_done(void **state) {
    cgn_test_env *env = *state;
    cgn_graph *g;
    cgn_node *n;
    cgn_exec *e;
    cgn_test_fill_graph(env, &g, &n, &e);
    OK(cgn_graph_destroy(g));
    cgn_memset_update u = CGN_MEMSET_UPDATE_INIT;
    cgn_memset_update_set_dst(&u, env->buf[3], env->owner[3]);
    OK(cgn_memset_exec_update(e, n, &u));
    cgn_test_env_drop_owners(env);
    assert_true(env->backend->hold(env));
    OK(env->backend->launch_async(env, e));
    OK(cgn_exec_destroy(e));
    cgn_collect();
    assert_int_equal(env->released[3], 0);
    env->backend->release(env);
    assert_true(cgn_test_wait_released(env, 3, 1));
}

/* Destroyed while retired versions still wait for a launch: they go with everything else,
 * once that launch completed, exactly once. */
static void test_destroy_with_retired_versions_waiting(void **state) {
    cgn_test_env *env = *state;
    cgn_graph *g;
    cgn_node *n;
    cgn_exec *e;
    cgn_test_fill_graph(env, &g, &n, &e);
    cgn_memset_update u = CGN_MEMSET_UPDATE_INIT;
    cgn_memset_update_set_dst(&u, env->buf[1], env->owner[1]);
    OK(cgn_memset_exec_update(e, n, &u));
    cgn_test_env_drop_owners(env);
    assert_true(env->backend->hold(env));
    OK(env->backend->launch_async(env, e));
    cgn_memset_update u2 = CGN_MEMSET_UPDATE_INIT;
    cgn_memset_update_set_dst(&u2, env->buf[2], NULL);
    OK(cgn_memset_exec_update(e, n, &u2)); /* owner 1's version retires, waiting */
    OK(cgn_exec_destroy(e));
    cgn_collect();
    assert_int_equal(env->released[1], 0);
    env->backend->release(env);
    assert_true(cgn_test_wait_released(env, 1, 1));
    OK(cgn_graph_destroy(g));
}

/* A host callback (on a GPU it runs on a CUDA thread) that drops the last reference of an
 * owner: the release callback runs later on a user thread, never inside the callback. */
static cgn_owner *owner_to_drop;
static void CUDA_CB drop_owner(void *arg) {
    (void)arg;
    cgn_owner_release(owner_to_drop);
}

static void test_owner_released_from_callback_runs_later(void **state) {
    cgn_test_env *env = *state;
    cgn_graph *g;
    cgn_node *n;
    cgn_exec *e;
    OK(cgn_graph_create(&g));
    cgn_host_callback_desc d = CGN_HOST_CALLBACK_DESC_INIT;
    d.fn = drop_owner;
    OK(cgn_graph_add_host_callback(g, NULL, 0, &d, &n));
    OK(cgn_graph_instantiate(g, &e));
    owner_to_drop = env->owner[2];
    env->owner_held[2] = 0; /* the callback drops the env's reference */
    OK(env->backend->launch(env, e));
    assert_int_equal(env->released[2], 0); /* not inside the callback */
    assert_int_equal(env->released_in_driver, 0);
    cgn_collect();
    assert_int_equal(env->released[2], 1);
    OK(cgn_exec_destroy(e));
    OK(cgn_graph_destroy(g));
}

/* Issue 13: an executable's kernel node given a CUfunction of another context. The driver
 * crashes on that call with no context current; cgn makes the node's context current, so it
 * is refused cleanly, naming the field and the rule, with the caller's context as it was. */
static void test_foreign_function_refused_cleanly(void **state) {
    cgn_test_env *env = *state;
    static const int states[] = {CGN_TEST_CTX_NONE, CGN_TEST_CTX_FOREIGN, CGN_TEST_CTX_OWN};
    for (size_t w = 0; w < sizeof states / sizeof states[0]; w++) {
        cgn_graph *g;
        cgn_node *n;
        cgn_exec *e;
        OK(cgn_graph_create(&g));
        cgn_kernel_desc d = CGN_KERNEL_DESC_INIT;
        cgn_arg args[1] = {cgn_test_arg_buf(env, 0, 0)};
        d.kernel = cgn_test_kernel(env, "add_one");
        d.grid = d.block = CGN_DIM3(1, 1, 1);
        d.args = args;
        d.num_args = 1;
        OK(cgn_graph_add_kernel(g, NULL, 0, &d, &n));
        OK(cgn_graph_instantiate(g, &e));
        cgn_kernel_update u = CGN_KERNEL_UPDATE_INIT;
        cgn_kernel_update_set_kernel(&u, env->backend->foreign_kernel(env, "add_one"), NULL, args,
                                     1);
        env->backend->set_context(env, states[w]);
        cgn_status st = cgn_kernel_exec_update(e, n, &u);
        assert_int_equal(env->backend->current_context(env), states[w]);
        env->backend->set_context(env, CGN_TEST_CTX_OWN);
        if (st != CGN_ERROR_INVALID_VALUE)
            fail_msg("context %d: %s (%s)", states[w], cgn_status_name(st), cgn_last_error());
        assert_non_null(strstr(cgn_last_error(), "field kernel: rule:"));
        assert_non_null(strstr(cgn_last_error(), "another context"));
        cgn_kernel_desc got;
        OK(cgn_kernel_exec_get(e, n, &got));
        assert_ptr_equal(got.kernel.function, d.kernel.function);
        unsigned char zero[CGN_TEST_BUF_SIZE] = {0}, out[CGN_TEST_BUF_SIZE];
        env->backend->write(env, env->buf[0], zero, sizeof zero);
        OK(env->backend->launch(env, e)); /* still adds one with its own function */
        env->backend->read(env, env->buf[0], out, sizeof out);
        assert_int_equal(out[0], 1);
        OK(cgn_exec_destroy(e));
        OK(cgn_graph_destroy(g));
    }
}

/* A CUfunction whose module was unloaded: the driver answers CUDA_ERROR_INVALID_HANDLE (H200
 * probe); refused at both levels, nothing changes, the caller's context as it was. */
static void test_unloaded_function_refused(void **state) {
    cgn_test_env *env = *state;
    static const int states[] = {CGN_TEST_CTX_NONE, CGN_TEST_CTX_FOREIGN, CGN_TEST_CTX_OWN};
    cgn_graph *g;
    cgn_node *n;
    cgn_exec *e;
    OK(cgn_graph_create(&g));
    cgn_kernel_desc d = CGN_KERNEL_DESC_INIT;
    cgn_arg args[1] = {cgn_test_arg_buf(env, 0, 0)};
    d.kernel = cgn_test_kernel(env, "add_one");
    d.grid = d.block = CGN_DIM3(1, 1, 1);
    d.args = args;
    d.num_args = 1;
    OK(cgn_graph_add_kernel(g, NULL, 0, &d, &n));
    OK(cgn_graph_instantiate(g, &e));
    cgn_kernel_update u = CGN_KERNEL_UPDATE_INIT;
    cgn_kernel_update_set_kernel(&u, env->backend->unloaded_kernel(env), NULL, args, 1);
    for (size_t w = 0; w < sizeof states / sizeof states[0]; w++) {
        env->backend->set_context(env, states[w]);
        cgn_status def = cgn_kernel_node_update(n, &u);
        assert_int_equal(env->backend->current_context(env), states[w]);
        cgn_status exe = cgn_kernel_exec_update(e, n, &u);
        assert_int_equal(env->backend->current_context(env), states[w]);
        env->backend->set_context(env, CGN_TEST_CTX_OWN);
        assert_true(def == CGN_ERROR_DRIVER || def == CGN_ERROR_INVALID_VALUE);
        assert_true(exe == CGN_ERROR_DRIVER || exe == CGN_ERROR_INVALID_VALUE);
        cgn_kernel_desc got;
        OK(cgn_kernel_node_get(n, &got));
        assert_ptr_equal(got.kernel.function, d.kernel.function);
        OK(cgn_kernel_exec_get(e, n, &got));
        assert_ptr_equal(got.kernel.function, d.kernel.function);
    }
    unsigned char zero[CGN_TEST_BUF_SIZE] = {0}, out[CGN_TEST_BUF_SIZE];
    env->backend->write(env, env->buf[0], zero, sizeof zero);
    OK(env->backend->launch(env, e));
    env->backend->read(env, env->buf[0], out, sizeof out);
    assert_int_equal(out[0], 1);
    OK(cgn_exec_destroy(e));
    OK(cgn_graph_destroy(g));
}

/* Handles: NULL, foreign, of another kind, destroyed, destroyed twice: a status, never a
 * dereference. */
static void test_stale_and_foreign_handles(void **state) {
    cgn_test_env *env = *state;
    cgn_graph *g;
    cgn_node *n;
    cgn_exec *e;
    OK(cgn_graph_create(&g));
    cgn_memset_desc d = cgn_test_fill_desc(env, 0, 0x11, 1);
    OK(cgn_graph_add_memset(g, NULL, 0, &d, &n));
    OK(cgn_graph_instantiate(g, &e));
    cgn_memset_update u = CGN_MEMSET_UPDATE_INIT;
    cgn_memset_update_set_value(&u, 0x22, 1);
    int local = 0;
    cgn_node *garbage = (cgn_node *)&local;
    assert_int_equal(cgn_memset_node_update(garbage, &u), CGN_ERROR_INVALID_ARGUMENT);
    assert_non_null(strstr(cgn_last_error(), "not a cgn handle"));
    assert_int_equal(cgn_memset_node_update((cgn_node *)(void *)g, &u), CGN_ERROR_INVALID_ARGUMENT);
    assert_non_null(strstr(cgn_last_error(), "graph handle"));
    assert_int_equal(cgn_graph_destroy((cgn_graph *)(void *)e), CGN_ERROR_INVALID_ARGUMENT);
    assert_int_equal(cgn_exec_launch((cgn_exec *)(void *)n, NULL), CGN_ERROR_INVALID_ARGUMENT);
    assert_int_equal(cgn_memset_exec_update(NULL, n, &u), CGN_ERROR_INVALID_ARGUMENT);
    assert_int_equal(cgn_memset_exec_update(e, NULL, &u), CGN_ERROR_INVALID_ARGUMENT);
    assert_int_equal(cgn_memset_exec_update(e, n, NULL), CGN_ERROR_INVALID_ARGUMENT);
    OK(cgn_exec_destroy(e));
    assert_int_equal(cgn_exec_destroy(e), CGN_ERROR_DESTROYED);
    assert_int_equal(cgn_exec_launch(e, NULL), CGN_ERROR_DESTROYED);
    assert_int_equal(cgn_memset_exec_update(e, n, &u), CGN_ERROR_DESTROYED);
    CUgraphExec raw_exec;
    assert_int_equal(cgn_exec_raw(e, &raw_exec), CGN_ERROR_DESTROYED);
    OK(cgn_graph_destroy(g));
    assert_int_equal(cgn_graph_destroy(g), CGN_ERROR_DESTROYED);
    assert_non_null(strstr(cgn_last_error(), "destroyed"));
    assert_int_equal(cgn_memset_node_update(n, &u), CGN_ERROR_DESTROYED);
    assert_int_equal(cgn_node_destroy(n), CGN_ERROR_DESTROYED);
    cgn_exec *e2;
    assert_int_equal(cgn_graph_instantiate(g, &e2), CGN_ERROR_DESTROYED);
    assert_false(cgn_node_is_alive(n));
    /* A new graph reuses the slot; the old handle still reports destroyed. */
    cgn_graph *g2;
    OK(cgn_graph_create(&g2));
    assert_ptr_not_equal(g2, g);
    assert_int_equal(cgn_graph_destroy(g), CGN_ERROR_DESTROYED);
    OK(cgn_graph_destroy(g2));
}

/* An executable cannot address nodes added after its instantiation; whole-graph refresh
 * refuses a topology it can see has changed, naming the node; a node inside an embedding can
 * be enabled and disabled. */
static void test_topology_changes_are_named(void **state) {
    cgn_test_env *env = *state;
    cgn_graph *g;
    cgn_node *a, *b;
    cgn_exec *e;
    OK(cgn_graph_create(&g));
    cgn_memset_desc d = cgn_test_fill_desc(env, 0, 0x11, 0);
    OK(cgn_graph_add_memset(g, NULL, 0, &d, &a));
    OK(cgn_graph_instantiate(g, &e));
    cgn_memset_desc d2 = cgn_test_fill_desc(env, 1, 0x22, 0);
    OK(cgn_graph_add_memset(g, &a, 1, &d2, &b));
    cgn_memset_update u = CGN_MEMSET_UPDATE_INIT;
    cgn_memset_update_set_value(&u, 0x33, 1);
    assert_int_equal(cgn_memset_exec_update(e, b, &u), CGN_ERROR_INVALID_ARGUMENT);
    assert_non_null(strstr(cgn_last_error(), "not part of executable"));
    cgn_fault_reset_counts();
    assert_int_equal(cgn_exec_update_from_graph(e, g), CGN_ERROR_INVALID_VALUE);
    assert_non_null(strstr(cgn_last_error(), "more nodes"));
    assert_int_equal(cgn_fault_calls(CGN_FAULT_cuGraphExecUpdate), 0);
    assert_int_equal(cgn_test_run_read(env, e, 0), 0x11);
    OK(cgn_node_destroy(b));
    OK(cgn_memset_node_update(a, &u));
    OK(cgn_exec_update_from_graph(e, g));
    assert_int_equal(cgn_test_run_read(env, e, 0), 0x33);
    /* A node destroyed and another of the same type added in its place: the same shape, but
     * the executable still pairs its slot with the old node (found by fuzz_api). */
    cgn_node *c;
    cgn_memset_desc d3 = cgn_test_fill_desc(env, 0, 0x44, 0);
    OK(cgn_graph_add_memset(g, NULL, 0, &d3, &c));
    OK(cgn_node_destroy(a));
    cgn_fault_reset_counts();
    assert_int_equal(cgn_exec_update_from_graph(e, g), CGN_ERROR_INVALID_VALUE);
    assert_non_null(strstr(cgn_last_error(), "not instantiated with"));
    assert_int_equal(cgn_fault_calls(CGN_FAULT_cuGraphExecUpdate), 0);
    assert_int_equal(cgn_test_run_read(env, e, 0), 0x33);
    /* Refreshing from another graph is refused. */
    cgn_graph *other;
    OK(cgn_graph_create(&other));
    assert_int_equal(cgn_exec_update_from_graph(e, other), CGN_ERROR_INVALID_ARGUMENT);
    OK(cgn_graph_destroy(other));
    OK(cgn_exec_destroy(e));
    OK(cgn_graph_destroy(g));
}

/* Records stay bounded: replacing an 8-node child 2,000 times and adding and destroying nodes
 * leaves as many live handles as there are live objects. */
static void test_records_stay_bounded(void **state) {
    cgn_test_env *env = *state;
    cgn_graph *parent, *src[2];
    cgn_node *child;
    for (int k = 0; k < 2; k++) {
        OK(cgn_graph_create(&src[k]));
        cgn_node *prev = NULL;
        for (int i = 0; i < 8; i++) {
            cgn_memset_desc d = cgn_test_fill_desc(env, k, 0x10u + (uint32_t)i, 1);
            cgn_node *n;
            OK(cgn_graph_add_memset(src[k], prev ? &prev : NULL, prev ? 1 : 0, &d, &n));
            prev = n;
        }
    }
    OK(cgn_graph_create(&parent));
    cgn_child_graph_desc cd = CGN_CHILD_GRAPH_DESC_INIT;
    cd.graph = src[0];
    OK(cgn_graph_add_child_graph(parent, NULL, 0, &cd, &child));
    size_t live = cgn__handles_live();
    for (int i = 0; i < 2000; i++) {
        cgn_child_graph_update u = CGN_CHILD_GRAPH_UPDATE_INIT;
        cgn_child_graph_update_set_graph(&u, src[(i + 1) & 1]);
        OK(cgn_child_graph_node_update(child, &u));
        cgn_node *n;
        cgn_memset_desc d = cgn_test_fill_desc(env, 2, 1, 0);
        OK(cgn_graph_add_memset(parent, NULL, 0, &d, &n));
        OK(cgn_node_destroy(n));
        assert_int_equal(cgn__handles_live(), live);
    }
    cgn__graph_rec *p = cgn__graph_record(parent);
    assert_int_equal(p->num_nodes, 1);
    assert_true(p->cap_nodes <= 16);
    OK(cgn_graph_destroy(parent));
    OK(cgn_graph_destroy(src[0]));
    OK(cgn_graph_destroy(src[1]));
}

/* Sizes that would overflow are refused with a status before anything is allocated. */
static void test_sizes_that_overflow(void **state) {
    cgn_test_env *env = *state;
    cgn_graph *g;
    cgn_node *n;
    OK(cgn_graph_create(&g));
    cgn_memset_desc d = cgn_test_fill_desc(env, 0, 0x11, 0);
    OK(cgn_graph_add_memset(g, NULL, 0, &d, &n));
    cgn_node *deps[1] = {n};
    assert_int_equal(cgn_graph_add_memset(g, deps, SIZE_MAX / 2, &d, &n),
                     CGN_ERROR_OUT_OF_RANGE);
    cgn_kernel_desc k = CGN_KERNEL_DESC_INIT;
    static unsigned char big[16];
    cgn_arg args[2] = {{big, SIZE_MAX - 8, NULL}, {big, 16, NULL}};
    k.kernel = cgn_test_kernel(env, "empty");
    k.grid = k.block = CGN_DIM3(1, 1, 1);
    k.args = args;
    k.num_args = 2;
    int version;
    OK(cgn_driver_version(&version));
    cgn_fault_set_version(12030); /* no argument check against the kernel: sizes unchecked */
    cgn_node *kn;
    assert_int_equal(cgn_graph_add_kernel(g, NULL, 0, &k, &kn), CGN_ERROR_OUT_OF_RANGE);
    args[0].size = SIZE_MAX / 2 + 1;
    args[1].size = SIZE_MAX / 2 + 1;
    assert_int_equal(cgn_graph_add_kernel(g, NULL, 0, &k, &kn), CGN_ERROR_OUT_OF_RANGE);
    cgn_fault_set_version(version);
    CUgraph raw;
    OK(cgn_graph_raw(g, &raw));
    size_t count = 0;
    assert_int_equal(cgn__driver->cuGraphGetNodes(raw, NULL, &count), CUDA_SUCCESS);
    assert_int_equal(count, 1); /* nothing was added */
    OK(cgn_graph_destroy(g));
}

/* A copy operand the driver does not know and this process has not mapped (freed memory) is
 * refused: passed on as pageable host memory, the driver's host path would touch it at launch. */
static void test_unmapped_copy_operand_refused(void **state) {
    cgn_test_env *env = *state;
    cgn_graph *g;
    cgn_node *n;
    cgn_exec *e;
    OK(cgn_graph_create(&g));
    cgn_memcpy_desc d = CGN_MEMCPY_DESC_INIT;
    d.dst = env->buf[1];
    d.src = env->buf[0];
    d.size = 8;
    OK(cgn_graph_add_memcpy(g, NULL, 0, &d, &n));
    OK(cgn_graph_instantiate(g, &e));
    void *page = mmap(NULL, 4096, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
    assert_true(page != MAP_FAILED);
    assert_int_equal(munmap(page, 4096), 0);
    CUdeviceptr bad[2] = {(CUdeviceptr)(uintptr_t)page, 0};
    int num_bad = 1;
    if (strcmp(env->backend->name, "gpu") == 0) { /* a freed device allocation */
        bad[1] = env->backend->alloc(env, 64);
        env->backend->free(env, bad[1]);
        num_bad = 2;
    }
    for (int i = 0; i < num_bad; i++) {
        cgn_memcpy_update u = CGN_MEMCPY_UPDATE_INIT;
        cgn_memcpy_update_set_src(&u, bad[i], NULL);
        assert_int_equal(cgn_memcpy_node_update(n, &u), CGN_ERROR_INVALID_VALUE);
        assert_non_null(strstr(cgn_last_error(), "neither memory"));
        assert_int_equal(cgn_memcpy_exec_update(e, n, &u), CGN_ERROR_INVALID_VALUE);
        cgn_memcpy_update w = CGN_MEMCPY_UPDATE_INIT;
        cgn_memcpy_update_set_dst(&w, bad[i], NULL);
        assert_int_equal(cgn_memcpy_node_update(n, &w), CGN_ERROR_INVALID_VALUE);
    }
    unsigned char want[CGN_TEST_BUF_SIZE], got[CGN_TEST_BUF_SIZE];
    memset(want, 0x5a, sizeof want);
    env->backend->write(env, env->buf[0], want, sizeof want);
    memset(got, 0, sizeof got);
    env->backend->write(env, env->buf[1], got, sizeof got);
    OK(env->backend->launch(env, e));
    env->backend->read(env, env->buf[1], got, sizeof got);
    assert_int_equal(got[0], 0x5a);
    assert_int_equal(got[8], 0);
    OK(cgn_exec_destroy(e));
    OK(cgn_graph_destroy(g));
}

/* Graph allocations: memory an allocation node allocates is written by a memset and copied
 * into test buffer 0 by a memcpy, then freed by a free node, launch after launch. The driver
 * maps a graph allocation at its first launch only (cuPointerGetAttribute does not know it
 * before: seen on the H200), so the memcpy's memory-type detection finds it among the graph's
 * allocation nodes. The fake hands out addresses it never backs with memory, so only a GPU
 * launches the graph. */
static void test_graph_allocation_is_device_memory(void **state) {
    cgn_test_env *env = *state;
    int gpu = strcmp(env->backend->name, "gpu") == 0;
    cgn_graph *g;
    cgn_node *alloc, *fill, *copy, *release;
    cgn_exec *e;
    OK(cgn_graph_create(&g));
    cgn_mem_alloc_desc a = CGN_MEM_ALLOC_DESC_INIT;
    a.bytesize = CGN_TEST_BUF_SIZE;
    OK(cgn_graph_add_mem_alloc(g, NULL, 0, &a, &alloc));
    OK(cgn_mem_alloc_node_get(alloc, &a));
    assert_true(a.dptr != 0);
    cgn_memset_desc m = CGN_MEMSET_DESC_INIT;
    m.dst = a.dptr;
    m.value = 0x5a;
    m.width = 8;
    OK(cgn_graph_add_memset(g, &alloc, 1, &m, &fill));
    cgn_memcpy_desc c = CGN_MEMCPY_DESC_INIT;
    c.dst = env->buf[0];
    c.src = a.dptr;
    c.size = 8;
    if (!gpu) {
        /* Past the allocation's end: an address nobody knows, refused. */
        c.src = a.dptr + a.bytesize;
        assert_int_equal(cgn_graph_add_memcpy(g, &fill, 1, &c, &copy), CGN_ERROR_INVALID_VALUE);
        assert_non_null(strstr(cgn_last_error(), "is neither memory the CUDA driver knows"));
        c.src = a.dptr + a.bytesize - 8; /* its last 8 bytes */
        OK(cgn_graph_add_memcpy(g, &fill, 1, &c, &copy));
        cgn_memcpy_desc last;
        OK(cgn_memcpy_node_get(copy, &last));
        assert_int_equal(last.src_memory_type, CU_MEMORYTYPE_DEVICE);
        c.src = a.dptr;
    }
    OK(cgn_graph_add_memcpy(g, &fill, 1, &c, &copy));
    cgn_memcpy_desc got_copy;
    OK(cgn_memcpy_node_get(copy, &got_copy));
    assert_int_equal(got_copy.src_memory_type, CU_MEMORYTYPE_DEVICE);
    cgn_mem_free_desc f = CGN_MEM_FREE_DESC_INIT;
    f.dptr = a.dptr;
    OK(cgn_graph_add_mem_free(g, &copy, 1, &f, &release));
    if (gpu) {
        OK(cgn_graph_instantiate(g, &e));
        for (int launch = 0; launch < 2; launch++) /* freed in the graph: relaunchable */
            assert_int_equal(cgn_test_run_read(env, e, 0), 0x5a);
        OK(cgn_exec_destroy(e));
    }
    OK(cgn_graph_destroy(g));
}

/* The graph-level restrictions of memory nodes that only the driver enforces (the fake models
 * them as documented): a second executable of the graph while the first exists, and a launch
 * while the executable's previous allocation is unfreed, are refused (CGN_ERROR_DRIVER) and
 * change nothing. */
static void test_graph_allocation_driver_restrictions(void **state) {
    cgn_test_env *env = *state;
    cgn_graph *g;
    cgn_node *only;
    cgn_exec *e, *second = NULL;
    OK(cgn_graph_create(&g));
    cgn_mem_alloc_desc a = CGN_MEM_ALLOC_DESC_INIT;
    a.bytesize = CGN_TEST_BUF_SIZE;
    OK(cgn_graph_add_mem_alloc(g, NULL, 0, &a, &only));
    OK(cgn_mem_alloc_node_get(only, &a));
    OK(cgn_graph_instantiate(g, &e));
    assert_int_equal(cgn_graph_instantiate(g, &second), CGN_ERROR_DRIVER); /* one at a time */
    assert_non_null(strstr(cgn_last_error(), "cuGraphInstantiate"));
    assert_null(second);
    OK(env->backend->launch(env, e));
    /* Not freed: the next launch is refused until something frees it. */
    assert_int_equal(env->backend->launch(env, e), CGN_ERROR_DRIVER);
    assert_non_null(strstr(cgn_last_error(), "cuGraphLaunch"));
    cgn_test_graph_free(env, a.dptr);
    OK(env->backend->launch(env, e));
    cgn_test_graph_free(env, a.dptr);
    OK(cgn_exec_destroy(e));
    OK(cgn_graph_instantiate(g, &e)); /* the first one is gone */
    OK(cgn_exec_destroy(e));
    OK(cgn_graph_destroy(g));
}

/* Instantiation flags: those cgn passes on reach the driver (the executable reports them, and
 * AUTO_FREE_ON_LAUNCH lets an executable whose allocation is left unfreed launch again); those
 * it cannot honour are refused before the driver is asked, with nothing made; an upload is
 * not a launch, and a failed one is reported with the driver's entry named. */
static void test_instantiate_flags(void **state) {
    cgn_test_env *env = *state;
    cgn_graph *g;
    cgn_node *only;
    OK(cgn_graph_create(&g));
    cgn_mem_alloc_desc a = CGN_MEM_ALLOC_DESC_INIT;
    a.bytesize = CGN_TEST_BUF_SIZE;
    OK(cgn_graph_add_mem_alloc(g, NULL, 0, &a, &only));
    OK(cgn_mem_alloc_node_get(only, &a));
    static const struct {
        unsigned long long flags;
        cgn_status status;
        const char *says;
    } refused[] = {
        {CUDA_GRAPH_INSTANTIATE_FLAG_DEVICE_LAUNCH, CGN_ERROR_NOT_SUPPORTED, "DEVICE_LAUNCH"},
        {CUDA_GRAPH_INSTANTIATE_FLAG_UPLOAD, CGN_ERROR_INVALID_ARGUMENT, "cgn_exec_upload"},
        {CUDA_GRAPH_INSTANTIATE_FLAG_AUTO_FREE_ON_LAUNCH | (1ull << 40), CGN_ERROR_INVALID_ARGUMENT,
         "unknown bits 0x10000000000"},
    };
    cgn_fault_reset_counts();
    for (size_t i = 0; i < sizeof refused / sizeof refused[0]; i++) {
        cgn_exec *none = NULL;
        assert_int_equal(cgn_graph_instantiate_with_flags(g, refused[i].flags, &none),
                         refused[i].status);
        if (strstr(cgn_last_error(), refused[i].says) == NULL)
            fail_msg("flags 0x%llx: message does not say %s: %s", refused[i].flags,
                     refused[i].says, cgn_last_error());
        assert_null(none);
    }
    assert_int_equal(cgn_fault_calls(CGN_FAULT_cuGraphInstantiateWithFlags), 0);
    assert_int_equal(cgn_graph_instantiate_with_flags(g, 0, NULL), CGN_ERROR_INVALID_ARGUMENT);
    assert_int_equal(cgn_graph_instantiate_with_flags(NULL, 0, &(cgn_exec *){NULL}),
                     CGN_ERROR_INVALID_ARGUMENT);

    /* (A graph with an allocation node has one executable at a time: none was made above.) */
    const unsigned long long flags = CUDA_GRAPH_INSTANTIATE_FLAG_AUTO_FREE_ON_LAUNCH |
                                     CUDA_GRAPH_INSTANTIATE_FLAG_USE_NODE_PRIORITY;
    cgn_exec *e;
    OK(cgn_graph_instantiate_with_flags(g, flags, &e));
    if (cgn__driver->cuGraphExecGetFlags != NULL) {
        CUgraphExec raw;
        OK(cgn_exec_raw(e, &raw));
        cuuint64_t got = 0;
        assert_int_equal(cgn__driver->cuGraphExecGetFlags(raw, &got), CUDA_SUCCESS);
        /* What cgn gave the driver, as far as it reports it: the H200's driver (580.159)
         * reports 0x1 for 0x9 (USE_NODE_PRIORITY is not reported back); the fake all of it. */
        assert_true((got & CUDA_GRAPH_INSTANTIATE_FLAG_AUTO_FREE_ON_LAUNCH) != 0);
        assert_int_equal(got & ~flags, 0);
    }
    cgn_fault_reset_counts();
    OK(cgn_exec_upload(e, NULL));
    assert_int_equal(cgn_fault_calls(CGN_FAULT_cuGraphUpload), 1);
    assert_int_equal(cgn_fault_calls(CGN_FAULT_cuGraphLaunch), 0);
    cgn_fault_arm(1, CUDA_ERROR_INVALID_VALUE);
    assert_int_equal(cgn_exec_upload(e, NULL), CGN_ERROR_DRIVER);
    assert_non_null(strstr(cgn_last_error(), "cgn_exec_upload: cuGraphUpload"));
    cgn_fault_disarm();
    /* Never freed, and still launchable: each launch frees the previous one's allocation. */
    for (int launch = 0; launch < 3; launch++)
        OK(env->backend->launch(env, e));
    cgn_test_graph_free(env, a.dptr);
    OK(cgn_exec_destroy(e));
    assert_int_equal(cgn_exec_upload(e, NULL), CGN_ERROR_DESTROYED);
    assert_int_equal(cgn_exec_upload(NULL, NULL), CGN_ERROR_INVALID_ARGUMENT);
    OK(cgn_graph_instantiate(g, &e)); /* no flags: the same graph, the old rule */
    OK(env->backend->launch(env, e));
    assert_int_equal(env->backend->launch(env, e), CGN_ERROR_DRIVER);
    cgn_test_graph_free(env, a.dptr);
    OK(cgn_exec_destroy(e));
    OK(cgn_graph_destroy(g));
}

int main(void) {
    cgn_test_env probe; /* a GPU build without a device skips (77) */
    int rc = cgn_test_env_open(&probe);
    if (rc != 0)
        return rc;
    cgn_test_env_close(&probe);
#define T(fn) cmocka_unit_test_setup_teardown(fn, cgn_test_fixture_setup, cgn_test_fixture_teardown)
    const struct CMUnitTest tests[] = {
        T(test_partial_exec_update_reads_the_executable),
        T(test_graph_allocation_is_device_memory),
        T(test_graph_allocation_driver_restrictions),
        T(test_instantiate_flags),
        T(test_retired_version_waits_for_launches),
        T(test_raw_handle_keeps_everything),
        T(test_destroy_in_flight_keeps_owners_until_done),
        T(test_destroy_with_retired_versions_waiting),
        T(test_owner_released_from_callback_runs_later),
        T(test_foreign_function_refused_cleanly),
        T(test_unloaded_function_refused),
        T(test_stale_and_foreign_handles),
        T(test_topology_changes_are_named),
        T(test_records_stay_bounded),
        T(test_sizes_that_overflow),
        T(test_unmapped_copy_operand_refused),
    };
#undef T
    return cmocka_run_group_tests(tests, NULL, NULL);
}
