/* Raw CUDA handles the driver dereferences, and host functions a CUDA thread calls: a value
 * whose address is not mapped memory (a garbage value, a cgn handle passed as a CUDA one) is
 * refused with CGN_ERROR_INVALID_VALUE naming the field, before any driver call, at add and at
 * both update levels; the node, the executable and errno stay as they were. On the H200 each of
 * these inputs crashed the process inside the driver (tests/unit/test_hostile_gpu.c). On the
 * fake driver and on a GPU. */
#include <errno.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>

#include <cmocka.h>

#include "cgn_fault.h"
#include "cgn_test_env.h"
#include "cgn_test_fixture.h"

/* Values that are no CUDA object: a small integer, an address in the unmapped top half of the
 * user address space, and a cgn handle (a slot and a generation, not a pointer). */
static const void *garbage_values(size_t i, const void *cgn_handle) {
    switch (i) {
    case 0:
        return (const void *)(uintptr_t)0x1234;
    case 1:
        return (const void *)(uintptr_t)0x7ffffffff000ull;
    default:
        return cgn_handle;
    }
}
#define NUM_GARBAGE 3

/* Driver calls since the counts were reset, context queries and switches aside. */
static long calls_besides_context(void) {
    return cgn_fault_total_calls() - cgn_fault_calls(CGN_FAULT_cuCtxGetCurrent) -
           cgn_fault_calls(CGN_FAULT_cuCtxPushCurrent) - cgn_fault_calls(CGN_FAULT_cuCtxPopCurrent);
}

/* The call was refused for `field`, errno untouched, and before any driver call but the
 * context's (`strict`) or before any call that changes a node (memcpy_3d: the operands before
 * the array are asked their memory type first). */
#define EXPECT_REFUSED(call, field) EXPECT_REFUSED_(call, field, 1)
#define EXPECT_REFUSED_(call, field, strict)                                                       \
    do {                                                                                           \
        cgn_fault_reset_counts();                                                                  \
        errno = 321;                                                                               \
        cgn_status st_ = (call);                                                                   \
        if (st_ != CGN_ERROR_INVALID_VALUE)                                                        \
            fail_msg("%s: got %s (%s), want CGN_ERROR_INVALID_VALUE", #call, cgn_status_name(st_), \
                     cgn_last_error());                                                            \
        assert_int_equal(errno, 321);                                                              \
        if (strstr(cgn_last_error(), field) == NULL ||                                             \
            strstr(cgn_last_error(), "no memory is mapped at that address") == NULL)               \
            fail_msg("%s: message \"%s\" does not name %s as unmapped", #call, cgn_last_error(),   \
                     field);                                                                       \
        assert_int_equal((strict) ? calls_besides_context() : cgn_fault_setter_calls(), 0);        \
    } while (0)

static void test_event_handles(void **state) {
    cgn_test_env *env = *state;
    cgn_graph *g;
    OK(cgn_graph_create(&g));
    cgn_event_record_desc rd = CGN_EVENT_RECORD_DESC_INIT;
    rd.event = cgn_test_event(env, 0);
    cgn_node *rec;
    OK(cgn_graph_add_event_record(g, NULL, 0, &rd, &rec));
    cgn_event_wait_desc wd = CGN_EVENT_WAIT_DESC_INIT;
    wd.event = cgn_test_event(env, 1);
    cgn_node *wait;
    OK(cgn_graph_add_event_wait(g, NULL, 0, &wd, &wait));
    cgn_exec *e;
    OK(cgn_graph_instantiate(g, &e));
    for (size_t i = 0; i < NUM_GARBAGE; i++) {
        CUevent bad = (CUevent)garbage_values(i, g);
        cgn_event_record_desc r = rd;
        r.event = bad;
        cgn_node *n = NULL;
        EXPECT_REFUSED(cgn_graph_add_event_record(g, NULL, 0, &r, &n), "event");
        assert_null(n);
        cgn_event_wait_desc w = wd;
        w.event = bad;
        EXPECT_REFUSED(cgn_graph_add_event_wait(g, NULL, 0, &w, &n), "event");
        cgn_event_record_update ru = CGN_EVENT_RECORD_UPDATE_INIT;
        cgn_event_record_update_set_event(&ru, bad, NULL);
        EXPECT_REFUSED(cgn_event_record_node_update(rec, &ru), "event");
        EXPECT_REFUSED(cgn_event_record_exec_update(e, rec, &ru), "event");
        cgn_event_wait_update wu = CGN_EVENT_WAIT_UPDATE_INIT;
        cgn_event_wait_update_set_event(&wu, bad, NULL);
        EXPECT_REFUSED(cgn_event_wait_node_update(wait, &wu), "event");
        EXPECT_REFUSED(cgn_event_wait_exec_update(e, wait, &wu), "event");
    }
    cgn_event_record_desc now;
    OK(cgn_event_record_node_get(rec, &now));
    assert_ptr_equal(now.event, rd.event);
    OK(cgn_event_record_exec_get(e, rec, &now));
    assert_ptr_equal(now.event, rd.event);
    /* A real event after the refusals: accepted, at both levels, again and again (cached). */
    cgn_event_record_update ru = CGN_EVENT_RECORD_UPDATE_INIT;
    for (int i = 0; i < 8; i++) {
        cgn_event_record_update_set_event(&ru, cgn_test_event(env, i & 1), NULL);
        OK(cgn_event_record_node_update(rec, &ru));
        OK(cgn_event_record_exec_update(e, rec, &ru));
    }
    assert_int_equal(cgn_test_count_nodes(g), 2);
    OK(env->backend->launch(env, e));
    OK(cgn_exec_destroy(e));
    OK(cgn_graph_destroy(g));
}

static void test_host_functions(void **state) {
    cgn_test_env *env = *state;
    cgn_graph *g;
    OK(cgn_graph_create(&g));
    cgn_host_callback_desc d = CGN_HOST_CALLBACK_DESC_INIT;
    d.fn = cgn_test_callback(env, "record_a");
    cgn_node *n;
    OK(cgn_graph_add_host_callback(g, NULL, 0, &d, &n));
    cgn_exec *e;
    OK(cgn_graph_instantiate(g, &e));
    for (size_t i = 0; i < NUM_GARBAGE; i++) {
        CUhostFn bad;
        const void *v = garbage_values(i, n);
        memcpy(&bad, &v, sizeof bad);
        cgn_host_callback_desc b = d;
        b.fn = bad;
        cgn_node *m = NULL;
        EXPECT_REFUSED(cgn_graph_add_host_callback(g, NULL, 0, &b, &m), "fn");
        cgn_host_callback_update u = CGN_HOST_CALLBACK_UPDATE_INIT;
        cgn_host_callback_update_set_fn(&u, bad, NULL, NULL, NULL, 0);
        EXPECT_REFUSED(cgn_host_callback_node_update(n, &u), "fn");
        EXPECT_REFUSED(cgn_host_callback_exec_update(e, n, &u), "fn");
    }
    cgn_host_callback_desc now;
    OK(cgn_host_callback_exec_get(e, n, &now));
    assert_ptr_equal(now.fn, d.fn);
    OK(cgn_host_callback_node_get(n, &now));
    assert_ptr_equal(now.fn, d.fn);
    OK(cgn_exec_destroy(e));
    OK(cgn_graph_destroy(g));
}

static void test_array_operands(void **state) {
    cgn_test_env *env = *state;
    cgn_graph *g;
    OK(cgn_graph_create(&g));
    cgn_memcpy_3d_desc d = CGN_MEMCPY_3D_DESC_INIT;
    d.dst = env->buf[0];
    d.dst_pitch = CGN_TEST_ARRAY_WIDTH;
    d.src_array = cgn_test_array(env, 0);
    d.width_in_bytes = CGN_TEST_ARRAY_WIDTH;
    d.height = 1;
    cgn_node *n;
    OK(cgn_graph_add_memcpy_3d(g, NULL, 0, &d, &n));
    cgn_exec *e;
    OK(cgn_graph_instantiate(g, &e));
    for (size_t i = 0; i < NUM_GARBAGE; i++) {
        CUarray bad = (CUarray)garbage_values(i, e);
        cgn_memcpy_3d_desc b = d;
        b.src_array = bad;
        cgn_node *m = NULL;
        EXPECT_REFUSED_(cgn_graph_add_memcpy_3d(g, NULL, 0, &b, &m), "src_array", 0);
        assert_null(m);
        assert_int_equal(cgn_test_count_nodes(g), 1);
        cgn_memcpy_3d_update u = CGN_MEMCPY_3D_UPDATE_INIT;
        cgn_memcpy_3d_update_set_src_array(&u, bad, NULL);
        EXPECT_REFUSED(cgn_memcpy_3d_node_update(n, &u), "src_array");
        EXPECT_REFUSED(cgn_memcpy_3d_exec_update(e, n, &u), "src_array");
    }
    cgn_memcpy_3d_desc now;
    OK(cgn_memcpy_3d_node_get(n, &now));
    assert_ptr_equal(now.src_array, d.src_array);
    OK(cgn_memcpy_3d_exec_get(e, n, &now));
    assert_ptr_equal(now.src_array, d.src_array);
    OK(cgn_exec_destroy(e));
    OK(cgn_graph_destroy(g));
}

static void test_kernel_handles(void **state) {
    cgn_test_env *env = *state;
    cgn_graph *g;
    OK(cgn_graph_create(&g));
    uint32_t value = 5;
    cgn_arg args[2] = {CGN_ARG(env->buf[0]), CGN_ARG(value)};
    cgn_kernel_desc d = CGN_KERNEL_DESC_INIT;
    d.kernel = cgn_test_kernel(env, "fill_u32");
    d.grid = d.block = CGN_DIM3(1, 1, 1);
    d.args = args;
    d.num_args = 2;
    cgn_node *n;
    OK(cgn_graph_add_kernel(g, NULL, 0, &d, &n));
    cgn_exec *e;
    OK(cgn_graph_instantiate(g, &e));
    for (size_t i = 0; i < NUM_GARBAGE; i++) {
        const void *v = garbage_values(i, g);
        cgn_kernel kernels[2] = {CGN_FUNCTION((CUfunction)v), CGN_KERNEL((CUkernel)v)};
        for (int k = 0; k < 2; k++) {
            cgn_kernel_desc b = d;
            b.kernel = kernels[k];
            cgn_node *m = NULL;
            EXPECT_REFUSED(cgn_graph_add_kernel(g, NULL, 0, &b, &m), "kernel");
            cgn_kernel_update u = CGN_KERNEL_UPDATE_INIT;
            cgn_kernel_update_set_kernel(&u, kernels[k], NULL, args, 2);
            EXPECT_REFUSED(cgn_kernel_node_update(n, &u), "kernel");
            EXPECT_REFUSED(cgn_kernel_exec_update(e, n, &u), "kernel");
        }
        size_t count = 0;
        EXPECT_REFUSED(cgn_graph_find_kernel(g, CGN_KERNEL((CUkernel)v), NULL, &count), "kernel");
    }
    cgn_kernel_desc now;
    OK(cgn_kernel_node_get(n, &now));
    assert_true(now.kernel.function == d.kernel.function && now.kernel.kernel == d.kernel.kernel);
    OK(cgn_kernel_exec_get(e, n, &now));
    assert_true(now.kernel.function == d.kernel.function && now.kernel.kernel == d.kernel.kernel);
    OK(cgn_exec_destroy(e));
    OK(cgn_graph_destroy(g));
}

static void test_adopted_raw_handles(void **state) {
    cgn_test_env *env = *state;
    cgn_graph *g;
    OK(cgn_graph_create(&g));
    for (size_t i = 0; i < NUM_GARBAGE; i++) {
        const void *v = garbage_values(i, g);
        cgn_graph *adopted = NULL;
        EXPECT_REFUSED(cgn_graph_adopt((CUgraph)v, 0, &adopted), "raw graph");
        assert_null(adopted);
        cgn_exec *x = NULL;
        EXPECT_REFUSED(cgn_exec_adopt((CUgraphExec)v, g, 0, &x), "raw executable");
        assert_null(x);
    }
    (void)env;
    OK(cgn_graph_destroy(g));
}

int main(void) {
    cgn_test_env probe; /* a GPU build without a device skips (77) */
    int rc = cgn_test_env_open(&probe);
    if (rc != 0)
        return rc;
    cgn_test_env_close(&probe);
    const struct CMUnitTest tests[] = {
        cmocka_unit_test_setup_teardown(test_event_handles, cgn_test_fixture_setup,
                                        cgn_test_fixture_teardown),
        cmocka_unit_test_setup_teardown(test_host_functions, cgn_test_fixture_setup,
                                        cgn_test_fixture_teardown),
        cmocka_unit_test_setup_teardown(test_array_operands, cgn_test_fixture_setup,
                                        cgn_test_fixture_teardown),
        cmocka_unit_test_setup_teardown(test_kernel_handles, cgn_test_fixture_setup,
                                        cgn_test_fixture_teardown),
        cmocka_unit_test_setup_teardown(test_adopted_raw_handles, cgn_test_fixture_setup,
                                        cgn_test_fixture_teardown),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
