/* The survivors of a fresh mutation spot check of the runtime and the generated sources
 * (tools/mutate over the .c files of runtime/ and generated/src/, --sample 3 --seed 20), on the
 * fake driver: a rule that fails on a driver older than 13.0 (where the update makes the node's
 * context current next) keeps its status instead of being overwritten by that step; the message
 * for a handle of the wrong kind names the kind it is; a conditional node whose body graphs get
 * no handle (the handle table full and unable to grow) frees the bodies it made; argument copies
 * cut from an adoption's arena are 16-byte aligned like the others. (Issue 8: test strength.)
 *
 * The test executable is linked with -Wl,--wrap=calloc,--wrap=free, so cgn's calloc and free
 * calls come here first: the handle table's chunks can be made to fail, and the records of
 * embedded graphs are counted while they live. */
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

/* ---- allocations seen through the wrappers ---------------------------------------------------- */

void *__real_calloc(size_t n, size_t size);
void *__wrap_calloc(size_t n, size_t size);
void __real_free(void *p);
void __wrap_free(void *p);

/* Graph records (calloc(1, sizeof(cgn__graph_rec)): a conditional node's bodies) made while
 * `track` is set and not freed yet, and the handle table's chunks, which can be made to fail. */
#define TRACKED_MAX 64
static struct {
    int track;
    void *live[TRACKED_MAX];
    size_t made;       /* graph records made while tracking */
    int fail_chunks;   /* the next chunk allocations fail */
    long chunks_grown; /* chunk allocations that succeeded */
    long chunks_failed;
} alloc;

void *__wrap_calloc(size_t n, size_t size) {
    if (n == CGN__CHUNK_SLOTS && size == sizeof(cgn__slot)) {
        if (alloc.fail_chunks) {
            alloc.chunks_failed++;
            return NULL;
        }
        void *p = __real_calloc(n, size);
        alloc.chunks_grown += p != NULL;
        return p;
    }
    void *p = __real_calloc(n, size);
    if (p != NULL && alloc.track && n == 1 && size == sizeof(cgn__graph_rec)) {
        for (size_t i = 0; i < TRACKED_MAX; i++)
            if (alloc.live[i] == NULL) {
                alloc.live[i] = p;
                alloc.made++;
                break;
            }
    }
    return p;
}

void __wrap_free(void *p) {
    if (p != NULL)
        for (size_t i = 0; i < TRACKED_MAX; i++)
            if (alloc.live[i] == p)
                alloc.live[i] = NULL;
    __real_free(p);
}

static size_t tracked_live(void) {
    size_t n = 0;
    for (size_t i = 0; i < TRACKED_MAX; i++)
        n += alloc.live[i] != NULL;
    return n;
}

/* ---- a rule that fails below 13.0 --------------------------------------------------------------- */

/* Below 13.0 a definition-level update makes the node's context current after the rules ran
 * (cgn__txn_enter). A rule that failed must stay the call's status: the driver's setter is never
 * called and the node keeps its parameters (memset: width 0; kernel: a grid of 0). */
static void test_rule_failure_below_13_is_kept(void **state) {
    cgn_test_env *env = *state;
    int version = 0;
    OK(cgn_driver_version(&version));
    cgn_graph *g;
    OK(cgn_graph_create(&g));
    cgn_memset_desc md = cgn_test_fill_desc(env, 0, 0x11, 0);
    cgn_node *mset;
    OK(cgn_graph_add_memset(g, NULL, 0, &md, &mset));
    uint32_t value = 7;
    cgn_arg args[2] = {CGN_ARG(env->buf[1]), CGN_ARG(value)};
    cgn_kernel_desc kd = CGN_KERNEL_DESC_INIT;
    kd.kernel = cgn_test_kernel(env, "fill_u32");
    kd.grid = kd.block = CGN_DIM3(1, 1, 1);
    kd.args = args;
    kd.num_args = 2;
    cgn_node *kern;
    OK(cgn_graph_add_kernel(g, NULL, 0, &kd, &kern));

    cgn_fault_set_version(12080);
    cgn_memset_update mu = CGN_MEMSET_UPDATE_INIT;
    cgn_memset_update_set_width(&mu, 0);
    cgn_fault_reset_counts();
    assert_int_equal(cgn_memset_node_update(mset, &mu), CGN_ERROR_INVALID_VALUE);
    assert_non_null(strstr(cgn_last_error(), "width"));
    assert_int_equal(cgn_fault_calls(CGN_FAULT_cuGraphNodeSetParams), 0);
    cgn_memset_desc mnow;
    OK(cgn_memset_node_get(mset, &mnow));
    assert_int_equal(mnow.width, md.width);

    cgn_kernel_update ku = CGN_KERNEL_UPDATE_INIT;
    cgn_kernel_update_set_grid(&ku, CGN_DIM3(0, 1, 1));
    cgn_fault_reset_counts();
    assert_int_equal(cgn_kernel_node_update(kern, &ku), CGN_ERROR_INVALID_VALUE);
    assert_non_null(strstr(cgn_last_error(), "grid"));
    assert_int_equal(cgn_fault_calls(CGN_FAULT_cuGraphKernelNodeSetParams), 0);
    assert_int_equal(cgn_fault_calls(CGN_FAULT_cuGraphNodeSetParams), 0);
    cgn_kernel_desc know;
    OK(cgn_kernel_node_get(kern, &know));
    assert_int_equal(know.grid.x, 1);
    cgn_fault_set_version(version);
    OK(cgn_graph_destroy(g));
}

/* ---- the kind a wrong handle is ------------------------------------------------------------------ */

/* A handle of another kind is refused with a message naming the kind it is (errors.md: "a graph
 * passed as a node"). */
static void test_wrong_kind_message_names_its_kind(void **state) {
    cgn_test_env *env = *state;
    cgn_graph *g;
    cgn_node *n;
    cgn_exec *e;
    cgn_test_fill_graph(env, &g, &n, &e);
    char want[192];

    assert_int_equal(cgn_graph_destroy((cgn_graph *)n), CGN_ERROR_INVALID_ARGUMENT);
    snprintf(want, sizeof want, "cgn_graph_destroy: graph %p is a cgn node handle, not a graph",
             (void *)n);
    cgn_test_assert_message(want);

    assert_int_equal(cgn_node_destroy((cgn_node *)g), CGN_ERROR_INVALID_ARGUMENT);
    snprintf(want, sizeof want, "cgn_node_destroy: node %p is a cgn graph handle, not a node",
             (void *)g);
    cgn_test_assert_message(want);

    assert_int_equal(cgn_graph_destroy((cgn_graph *)e), CGN_ERROR_INVALID_ARGUMENT);
    snprintf(want, sizeof want,
             "cgn_graph_destroy: graph %p is a cgn executable handle, not a graph", (void *)e);
    cgn_test_assert_message(want);

    OK(cgn_exec_destroy(e));
    OK(cgn_graph_destroy(g));
}

/* ---- where argument copies lie ----------------------------------------------------------------- */

static void assert_args_aligned(const cgn_kernel_desc *d, const char *what) {
    for (uint32_t i = 0; i < d->num_args; i++)
        if (((uintptr_t)d->args[i].value & 15u) != 0)
            fail_msg("%s: argument %u's copy at %p is not 16-byte aligned", what, i,
                     d->args[i].value);
}

/* cgn's copy of each kernel argument, which the getters point `value` at, is 16-byte aligned
 * (cgn.h, cgn_arg: a float4 or double2 may be read in place): in a node cgn added, after an
 * argument edit, and in a node adopted from a raw graph, whose blocks are cut from one arena. */
static void test_argument_copies_are_16_byte_aligned(void **state) {
    cgn_test_env *env = *state;
    cgn_kernel k = cgn_test_kernel(env, "fill_u32");
    CUdeviceptr out = env->buf[1];
    uint32_t value = 9;
    cgn_arg args[2] = {CGN_ARG(out), CGN_ARG(value)};
    cgn_kernel_desc kd = CGN_KERNEL_DESC_INIT;
    kd.kernel = k;
    kd.grid = kd.block = CGN_DIM3(1, 1, 1);
    kd.args = args;
    kd.num_args = 2;
    cgn_graph *g;
    OK(cgn_graph_create(&g));
    cgn_node *n;
    OK(cgn_graph_add_kernel(g, NULL, 0, &kd, &n));
    cgn_kernel_desc got;
    OK(cgn_kernel_node_get(n, &got));
    assert_args_aligned(&got, "added");
    cgn_kernel_update u = CGN_KERNEL_UPDATE_INIT;
    uint32_t ten = 10;
    cgn_kernel_update_set_arg(&u, 1, &ten, sizeof ten, NULL);
    OK(cgn_kernel_node_update(n, &u));
    OK(cgn_kernel_node_get(n, &got));
    assert_args_aligned(&got, "after set_arg");
    OK(cgn_graph_destroy(g));

    /* Adopted: three kernel nodes, so that blocks after the first are cut too. */
    const cgn_driver_table *drv = env->backend->driver(env);
    CUgraph raw;
    assert_int_equal(drv->cuGraphCreate(&raw, 0), CUDA_SUCCESS);
    void *params[2] = {&out, &value};
    CUDA_KERNEL_NODE_PARAMS_v2 p;
    memset(&p, 0, sizeof p);
    p.func = k.function;
    p.kern = k.kernel;
    p.gridDimX = p.gridDimY = p.gridDimZ = 1;
    p.blockDimX = p.blockDimY = p.blockDimZ = 1;
    p.kernelParams = params;
    for (int i = 0; i < 3; i++) {
        CUgraphNode rn;
        assert_int_equal(drv->cuGraphAddKernelNode(&rn, raw, NULL, 0, &p), CUDA_SUCCESS);
    }
    cgn_graph *adopted;
    OK(cgn_graph_adopt(raw, 0, &adopted));
    cgn_node *nodes[3];
    size_t count = 3;
    OK(cgn_graph_nodes(adopted, nodes, &count));
    assert_int_equal(count, 3);
    for (size_t i = 0; i < count; i++) {
        OK(cgn_kernel_node_get(nodes[i], &got));
        assert_int_equal(got.num_args, 2);
        assert_args_aligned(&got, "adopted");
    }
    OK(cgn_graph_destroy(adopted));
    assert_int_equal(drv->cuGraphDestroy(raw), CUDA_SUCCESS);
}

/* ---- a conditional node whose bodies get no handle ---------------------------------------------- */

/* Free slots in the handle table: every chunk allocated through the wrapper less the live
 * handles. */
static size_t free_slots(void) {
    assert_true(alloc.chunks_grown > 0);
    size_t capacity = (size_t)alloc.chunks_grown * CGN__CHUNK_SLOTS;
    assert_true(capacity >= cgn__handles_live());
    return capacity - cgn__handles_live();
}

/* With the handle table full and unable to grow, a conditional add whose node got a handle but
 * whose body graphs cannot is refused with CGN_ERROR_OUT_OF_MEMORY, and every body record it made
 * is freed. Tried with 0 to 2 slots left, so that the slot the node takes comes before or after
 * the bodies' whatever the order. */
static void test_conditional_bodies_freed_without_handles(void **state) {
    cgn_test_env *env = *state;
    (void)env;
    size_t reached_bodies = 0;
    for (size_t left = 0; left <= 2; left++) {
        cgn_graph *g;
        OK(cgn_graph_create(&g));
        /* Take every free slot but `left` with empty graphs. */
        size_t fill = free_slots() > left ? free_slots() - left : 0;
        cgn_graph **fillers = malloc((fill ? fill : 1) * sizeof *fillers);
        assert_non_null(fillers);
        for (size_t i = 0; i < fill; i++)
            OK(cgn_graph_create(&fillers[i]));
        assert_int_equal(free_slots(), left);

        cgn_conditional_desc d = CGN_CONDITIONAL_DESC_INIT;
        d.type = CU_GRAPH_COND_TYPE_SWITCH;
        d.size = 3; /* three bodies: more handles than are left */
        cgn_node *node = NULL;
        size_t live_handles = cgn__handles_live();
        alloc.made = 0;
        alloc.track = 1;
        alloc.fail_chunks = 1;
        alloc.chunks_failed = 0;
        cgn_status st = cgn_graph_add_conditional(g, NULL, 0, &d, &node);
        alloc.fail_chunks = 0;
        alloc.track = 0;
        assert_int_equal(st, CGN_ERROR_OUT_OF_MEMORY);
        assert_null(node);
        assert_true(alloc.chunks_failed > 0);
        if (tracked_live() != 0)
            fail_msg("%zu slot(s) left: %zu of %zu body records made were not freed", left,
                     tracked_live(), alloc.made);
        reached_bodies += alloc.made > 0;
        assert_int_equal(cgn__handles_live(), live_handles);
        assert_int_equal(cgn_test_count_nodes(g), 0);

        for (size_t i = 0; i < fill; i++)
            OK(cgn_graph_destroy(fillers[i]));
        free(fillers);
        OK(cgn_graph_destroy(g));
    }
    assert_true(reached_bodies > 0); /* some run made bodies and then ran out of handles */
}

int main(void) {
    const struct CMUnitTest tests[] = {
        cmocka_unit_test_setup_teardown(test_rule_failure_below_13_is_kept, cgn_test_fixture_setup,
                                        cgn_test_fixture_teardown),
        cmocka_unit_test_setup_teardown(test_wrong_kind_message_names_its_kind,
                                        cgn_test_fixture_setup, cgn_test_fixture_teardown),
        cmocka_unit_test_setup_teardown(test_conditional_bodies_freed_without_handles,
                                        cgn_test_fixture_setup, cgn_test_fixture_teardown),
        cmocka_unit_test_setup_teardown(test_argument_copies_are_16_byte_aligned,
                                        cgn_test_fixture_setup, cgn_test_fixture_teardown),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
