/* The survivors of a fresh mutation spot check of the runtime and the generated sources
 * (tools/mutate over the .c files of runtime/ and generated/src/, --sample 4 --seed 16), on the
 * fake driver: a kernel's name in a message asked only of the driver entry that matches the
 * handle, and only when the driver has it; cgn_graph_add_ext_sem_wait checking its arrays
 * (NULL arrays, a NULL semaphore, none, too many) before anything is staged. Its memcpy 3-D
 * case (two slices whose rows do not fit size_t) is in test_strength_types, beside the other
 * memcpy 3-D bounds. (Issue 8: test strength.) */
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

/* ---- a kernel's name in a message ------------------------------------------------------------ */

/* Adds a node of k with two 8-byte arguments, which the kernel (one argument of 8 bytes)
 * refuses; checks the message, which names the kernel. */
static void expect_two_args_refused(cgn_graph *g, cgn_kernel k, const char *message) {
    uint64_t a = 1, b = 2;
    cgn_arg two[2] = {CGN_ARG(a), CGN_ARG(b)};
    cgn_kernel_desc kd = CGN_KERNEL_DESC_INIT;
    kd.kernel = k;
    kd.grid = kd.block = CGN_DIM3(1, 1, 1);
    kd.args = two;
    kd.num_args = 2;
    cgn_node *n = NULL;
    size_t before = cgn_test_count_nodes(g);
    assert_int_equal(cgn_graph_add_kernel(g, NULL, 0, &kd, &n), CGN_ERROR_INVALID_VALUE);
    cgn_test_assert_message(message);
    assert_null(n);
    assert_int_equal(cgn_test_count_nodes(g), before);
}

/* A message naming a kernel asks the name of the entry that matches the handle: cuFuncGetName
 * for a CUfunction, cuKernelGetName for a CUkernel, never the other one (for a CUfunction there
 * is no CUkernel to pass). An entry the driver lacks (cuGetProcAddress found no such symbol: the
 * table holds NULL) is not called: the kernel is "(unnamed)", and the other entry is not asked
 * in its place. */
static void test_kernel_name_asks_only_the_matching_entry(void **state) {
    cgn_test_env *env = *state;
    const size_t sizes[1] = {8};
    CUfunction f = cgn_fake_register_kernel("seed16_one", 1, sizes, NULL, NULL);
    assert_non_null(f);
    CUkernel k = cgn_fake_kernel_of(f);
    assert_non_null(k);
    cgn_graph *g;
    OK(cgn_graph_create(&g));

    /* Every entry there: each handle's own name entry, once. */
    cgn_fault_reset_counts();
    expect_two_args_refused(g, CGN_FUNCTION(f),
                            "cgn_graph_add_kernel: kernel seed16_one takes 1 argument (8 bytes); "
                            "2 given");
    assert_int_equal(cgn_fault_calls(CGN_FAULT_cuFuncGetName), 1);
    assert_int_equal(cgn_fault_calls(CGN_FAULT_cuKernelGetName), 0);
    cgn_fault_reset_counts();
    expect_two_args_refused(g, CGN_KERNEL(k),
                            "cgn_graph_add_kernel: kernel seed16_one takes 1 argument (8 bytes); "
                            "2 given");
    assert_int_equal(cgn_fault_calls(CGN_FAULT_cuKernelGetName), 1);
    assert_int_equal(cgn_fault_calls(CGN_FAULT_cuFuncGetName), 0);

    /* A driver without cuFuncGetName: a CUfunction is unnamed; cuKernelGetName is not asked. */
    static cgn_driver_table without;
    without = *env->backend->driver(env);
    without.cuFuncGetName = NULL;
    cgn_fault_install(&without);
    expect_two_args_refused(g, CGN_FUNCTION(f),
                            "cgn_graph_add_kernel: kernel (unnamed) takes 1 argument (8 bytes); "
                            "2 given");
    assert_int_equal(cgn_fault_calls(CGN_FAULT_cuKernelGetName), 0);
    assert_int_equal(cgn_fault_calls(CGN_FAULT_cuFuncGetName), 0);

    /* A driver without cuKernelGetName: a CUkernel is unnamed, and nothing calls through the
     * missing entry. */
    without = *env->backend->driver(env);
    without.cuKernelGetName = NULL;
    cgn_fault_install(&without);
    expect_two_args_refused(g, CGN_KERNEL(k),
                            "cgn_graph_add_kernel: kernel (unnamed) takes 1 argument (8 bytes); "
                            "2 given");
    assert_int_equal(cgn_fault_calls(CGN_FAULT_cuFuncGetName), 0);
    assert_int_equal(cgn_fault_calls(CGN_FAULT_cuKernelGetName), 0);

    cgn_fault_install(env->backend->driver(env));
    OK(cgn_graph_destroy(g));
}

/* ---- cgn_graph_add_ext_sem_wait and its arrays ----------------------------------------------- */

static void expect_wait_refused(cgn_graph *g, const cgn_ext_sem_wait_desc *d, cgn_status want,
                                const char *message) {
    size_t before = cgn_test_count_nodes(g);
    cgn_node *n = NULL;
    cgn_fault_reset_counts();
    assert_int_equal(cgn_graph_add_ext_sem_wait(g, NULL, 0, d, &n), want);
    cgn_test_assert_message(message);
    assert_null(n);
    assert_int_equal(cgn_fault_total_calls(), 0);
    assert_int_equal(cgn_test_count_nodes(g), before);
    assert_int_equal(cgn_fake_graph_node_count(cgn__graph_record(g)->raw), before);
}

/* The add checks the arrays of a wait node before it copies them or asks the driver anything:
 * a NULL array (sems or sems_params), a NULL semaphore among them, no semaphores, or more than
 * CGN_MAX_EXT_SEMS are refused with a message naming the field, and no node is added. */
static void test_ext_sem_wait_add_checks_arrays(void **state) {
    cgn_test_env *env = *state;
    cgn_graph *g;
    OK(cgn_graph_create(&g));
    CUexternalSemaphore sems[2] = {cgn_test_sem(env, 0), cgn_test_sem(env, 1)};
    CUDA_EXTERNAL_SEMAPHORE_WAIT_PARAMS wp[2];
    memset(wp, 0, sizeof wp);
    wp[0].params.fence.value = 20;
    wp[1].params.fence.value = 21;
    cgn_ext_sem_wait_desc d = CGN_EXT_SEM_WAIT_DESC_INIT;
    d.sems_params = wp;
    d.num_sems = 2;
    CUexternalSemaphore holes[2] = {sems[0], NULL};
    d.sems = holes;
    expect_wait_refused(g, &d, CGN_ERROR_INVALID_VALUE,
                        "cgn_graph_add_ext_sem_wait: sems[1] is NULL");
    d.sems = NULL;
    expect_wait_refused(g, &d, CGN_ERROR_INVALID_ARGUMENT,
                        "cgn_graph_add_ext_sem_wait: sems is NULL (2 semaphores)");
    d.sems = sems;
    d.sems_params = NULL;
    expect_wait_refused(g, &d, CGN_ERROR_INVALID_ARGUMENT,
                        "cgn_graph_add_ext_sem_wait: sems is NULL (2 semaphores)");
    d.sems_params = wp;
    d.num_sems = 0;
    expect_wait_refused(g, &d, CGN_ERROR_INVALID_VALUE,
                        "cgn_graph_add_ext_sem_wait: sems must hold at least one semaphore");
    d.num_sems = CGN_MAX_EXT_SEMS + 1;
    expect_wait_refused(g, &d, CGN_ERROR_OUT_OF_RANGE,
                        "cgn_graph_add_ext_sem_wait: 65 semaphores in sems, at most 64 "
                        "(CGN_MAX_EXT_SEMS)");

    /* The same desc with its two semaphores goes through, with cgn's copies. */
    d.num_sems = 2;
    cgn_node *n = NULL;
    OK(cgn_graph_add_ext_sem_wait(g, NULL, 0, &d, &n));
    assert_int_equal(cgn_test_count_nodes(g), 1);
    cgn_ext_sem_wait_desc got;
    OK(cgn_ext_sem_wait_node_get(n, &got));
    assert_int_equal(got.num_sems, 2);
    assert_ptr_not_equal(got.sems, sems);
    assert_ptr_equal(got.sems[1], env->sem[1]);
    assert_int_equal(got.sems_params[1].params.fence.value, 21);
    OK(cgn_graph_destroy(g));
}

int main(void) {
#define T(fn) cmocka_unit_test_setup_teardown(fn, cgn_test_fixture_setup, cgn_test_fixture_teardown)
    const struct CMUnitTest tests[] = {
        T(test_kernel_name_asks_only_the_matching_entry),
        T(test_ext_sem_wait_add_checks_arrays),
    };
#undef T
    return cmocka_run_group_tests(tests, NULL, NULL);
}
