/* The survivors of a mutation spot check of the hot-path changes (tools/mutate --sample 20
 * --seed 12 over runtime/txn.c, runtime/owner.c and runtime/codecs.c), on the fake driver: a
 * spare block that was never taken before (a refreshed node's block) reused by the next update
 * rather than replaced by a fresh one; a refresh of a node added with a CUfunction asking the
 * driver nothing about CUkernels; the whole-list fast path of an unchanged kernel refilling
 * a spare only when it was written with the kernel's checked sizes; and (runtime/runtime.h, which
 * tools/mutate does not take, mutated by hand) an owner released by cgn_owner_release run by the
 * next call that checks the queues inline. (Issue 8: test strength.) */
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

/* A kernel node of `f` with the given arguments, in a new graph. */
static cgn_node *add_kernel_node(cgn_graph **g, cgn_kernel k, const cgn_arg *args,
                                 uint32_t num_args) {
    cgn_node *n;
    OK(cgn_graph_create(g));
    cgn_kernel_desc kd = CGN_KERNEL_DESC_INIT;
    kd.kernel = k;
    kd.grid = kd.block = CGN_DIM3(1, 1, 1);
    kd.args = args;
    kd.num_args = num_args;
    OK(cgn_graph_add_kernel(*g, NULL, 0, &kd, &n));
    return n;
}

/* A fake kernel taking one uint32_t. */
static CUfunction u32_kernel(const char *name) {
    static const size_t sizes[] = {sizeof(uint32_t)};
    CUfunction f = cgn_fake_register_kernel(name, 1, sizes, NULL, NULL);
    assert_non_null(f);
    return f;
}

/* Where cgn keeps argument 0 of the node now (inside its current storage block). */
static const void *arg0_copy(const cgn_node *n) {
    cgn_kernel_desc got;
    OK(cgn_kernel_node_get(n, &got));
    assert_int_equal(got.num_args, 1);
    return got.args[0].value;
}

/* The u32 the fake driver holds as argument 0 of the node. */
static uint32_t fake_arg0(const cgn_node *n) {
    CUgraphNode raw;
    OK(cgn_node_raw(n, &raw));
    CUgraphNodeParams p;
    assert_int_equal(cgn_fake_node_params(raw, &p), 1);
    assert_non_null(p.kernel.kernelParams);
    uint32_t v;
    memcpy(&v, p.kernel.kernelParams[0], sizeof v);
    return v;
}

/* ---- a spare that was never taken ------------------------------------------------------------ */

/* A refresh writes the node's arguments into a block of its own, which no update has taken yet
 * (its serial is 0). The next update takes a fresh block and leaves the refreshed one as the
 * spare; the update after that must take that spare (the inline fast path leaves a never-taken
 * spare to cgn__txn_storage_slow), not allocate a third block: from then on the node alternates
 * between the same two blocks. The updates run with no context current: a CUfunction node's
 * context is then made current around each, on the transaction's path, which is the two-block
 * one (with the node's context current, the loop's lean path writes in place instead). */
static void test_refreshed_block_becomes_the_reused_spare(void **state) {
    (void)state;
    CUfunction f = u32_kernel("seed12_one");
    uint32_t v = 1;
    cgn_arg args[1] = {CGN_ARG(v)};
    cgn_graph *g;
    cgn_node *n = add_kernel_node(&g, CGN_FUNCTION(f), args, 1);
    OK(cgn_node_refresh(n));
    CUcontext own = NULL;
    assert_int_equal(cgn__driver->cuCtxGetCurrent(&own), CUDA_SUCCESS);
    assert_int_equal(cgn__driver->cuCtxSetCurrent(NULL), CUDA_SUCCESS);
    const void *refreshed = arg0_copy(n);
    cgn_kernel_update u = CGN_KERNEL_UPDATE_INIT;
    cgn_kernel_update_set_args(&u, args, 1);
    v = 2;
    OK(cgn_kernel_node_update(n, &u));
    const void *fresh = arg0_copy(n);
    assert_ptr_not_equal(fresh, refreshed);
    assert_int_equal(fake_arg0(n), 2);
    for (uint32_t i = 3; i < 9; i++) {
        v = i;
        OK(cgn_kernel_node_update(n, &u));
        const void *want = i % 2 ? refreshed : fresh;
        if (arg0_copy(n) != want)
            fail_msg("update %u: argument 0 copied to %p, expected the %s block's %p", i,
                     arg0_copy(n), i % 2 ? "refreshed" : "first fresh", want);
        assert_int_equal(*(const uint32_t *)arg0_copy(n), i);
        assert_int_equal(fake_arg0(n), i);
    }
    /* The same through argument-level updates (cgn__stage_arg_edits, not the whole-list path). */
    for (uint32_t i = 9; i < 13; i++) {
        cgn_kernel_update e = CGN_KERNEL_UPDATE_INIT;
        cgn_kernel_update_set_arg(&e, 0, &i, sizeof i, NULL);
        OK(cgn_kernel_node_update(n, &e));
        assert_ptr_equal(arg0_copy(n), i % 2 ? refreshed : fresh);
        assert_int_equal(fake_arg0(n), i);
    }
    assert_int_equal(cgn__driver->cuCtxSetCurrent(own), CUDA_SUCCESS);
    OK(cgn_graph_destroy(g));
}

/* ---- a refresh of a CUfunction node ---------------------------------------------------------- */

/* A refresh maps the CUfunction the driver reports back to the node's CUkernel only when the
 * node was set with a CUkernel: for a node set with a CUfunction there is no CUkernel to ask
 * about, and cuKernelGetFunction must not be called (with a NULL CUkernel). A node set with a
 * CUkernel does ask, and keeps its CUkernel. */
static void test_refresh_of_function_node_asks_no_kernel(void **state) {
    (void)state;
    CUfunction f = u32_kernel("seed12_fn");
    uint32_t v = 5;
    cgn_arg args[1] = {CGN_ARG(v)};
    cgn_graph *g;
    cgn_node *n = add_kernel_node(&g, CGN_FUNCTION(f), args, 1);
    cgn_fault_reset_counts();
    OK(cgn_node_refresh(n));
    assert_int_equal(cgn_fault_calls(CGN_FAULT_cuKernelGetFunction), 0);
    cgn_kernel_desc got;
    OK(cgn_kernel_node_get(n, &got));
    assert_ptr_equal(got.kernel.function, f);
    assert_null(got.kernel.kernel);
    OK(cgn_graph_destroy(g));

    /* The control: a CUkernel node's refresh asks, and keeps the CUkernel. */
    CUkernel k = cgn_fake_kernel_of(f);
    n = add_kernel_node(&g, CGN_KERNEL(k), args, 1);
    cgn_fault_reset_counts();
    OK(cgn_node_refresh(n));
    assert_true(cgn_fault_calls(CGN_FAULT_cuKernelGetFunction) >= 1);
    OK(cgn_kernel_node_get(n, &got));
    assert_null(got.kernel.function);
    assert_ptr_equal(got.kernel.kernel, k);
    OK(cgn_graph_destroy(g));
}

/* ---- the whole-list fast path and a spare of unchecked sizes --------------------------------- */

/* The whole-list fast path of an unchanged kernel refills the spare only when the spare was
 * written for the same layout with the kernel's sizes checked (cur->checked). A node added and
 * updated on a driver without cuFuncGetParamInfo (posed as 12.3) has blocks of unchecked sizes;
 * refreshed on 12.4+, its current block has the kernel's (checked) sizes while its spare still
 * has unchecked ones. For a kernel of no parameters the two layouts are otherwise the same, so
 * an update must rewrite the spare as checked: after it, an update of the wrong count is refused
 * as before, not accepted as on a driver that cannot tell. */
static void test_fast_path_keeps_checked_sizes(void **state) {
    (void)state;
    int version;
    OK(cgn_driver_version(&version));
    assert_true(version >= 12040);
    CUfunction f = cgn_fake_register_kernel("seed12_none", 0, NULL, NULL, NULL);
    assert_non_null(f);
    uint32_t one = 1;
    cgn_arg none[1] = {CGN_ARG(one)}; /* never read: a list of 0 arguments */
    cgn_fault_set_version(12030);
    cgn_graph *g;
    cgn_node *n = add_kernel_node(&g, CGN_FUNCTION(f), NULL, 0);
    cgn_kernel_update u = CGN_KERNEL_UPDATE_INIT;
    cgn_kernel_update_set_args(&u, none, 0);
    cgn_kernel_update wrong = CGN_KERNEL_UPDATE_INIT;
    cgn_kernel_update_set_args(&wrong, none, 1);
    /* Unchecked: a wrong count goes through (the driver cannot tell cgn the kernel's). */
    OK(cgn_kernel_node_update(n, &wrong));
    /* Two updates of no arguments: both blocks (current and spare) now hold an unchecked list
     * of none. */
    OK(cgn_kernel_node_update(n, &u));
    OK(cgn_kernel_node_update(n, &u));
    cgn_fault_set_version(version);
    OK(cgn_node_refresh(n)); /* current: checked, 0 parameters; spare: unchecked */
    assert_int_equal(cgn_kernel_node_update(n, &wrong), CGN_ERROR_INVALID_VALUE);
    assert_non_null(strstr(cgn_last_error(), "takes 0 arguments"));
    for (int i = 0; i < 4; i++) {
        OK(cgn_kernel_node_update(n, &u));
        if (cgn_kernel_node_update(n, &wrong) != CGN_ERROR_INVALID_VALUE)
            fail_msg("update %d: 1 argument accepted for a kernel of none, whose sizes the "
                     "driver reports",
                     i);
        assert_non_null(strstr(cgn_last_error(), "takes 0 arguments"));
    }
    OK(cgn_graph_destroy(g));
}

/* ---- owners released by cgn_owner_release ---------------------------------------------------- */

static int releases;
static void count_release(void *resource) {
    (void)resource;
    releases++;
}

/* An owner whose last reference cgn_owner_release drops waits on its queue (that call never runs
 * a callback); the next cgn call that may call CUDA runs it, even when nothing else is pending
 * (no version released by CUDA, no executable in its grave): here a definition update, an
 * executable-level update and a launch, on the inline check of the three queues. */
static void test_owner_release_runs_at_next_call(void **state) {
    (void)state;
    CUfunction f = u32_kernel("seed12_owner");
    uint32_t v = 1;
    cgn_arg args[1] = {CGN_ARG(v)};
    cgn_graph *g;
    cgn_node *n = add_kernel_node(&g, CGN_FUNCTION(f), args, 1);
    cgn_exec *x;
    OK(cgn_graph_instantiate(g, &x));
    (void)cgn_collect();
    cgn_kernel_update u = CGN_KERNEL_UPDATE_INIT;
    cgn_kernel_update_set_args(&u, args, 1);
    for (int call = 0; call < 3; call++) {
        releases = 0;
        cgn_owner *o;
        OK(cgn_owner_create(NULL, count_release, &o));
        OK(cgn_owner_release(o));
        assert_int_equal(releases, 0); /* queued, not run */
        v = 10 + (uint32_t)call;
        if (call == 0)
            OK(cgn_kernel_node_update(n, &u));
        else if (call == 1)
            OK(cgn_kernel_exec_update(x, n, &u));
        else
            OK(cgn_exec_launch(x, NULL));
        if (releases != 1)
            fail_msg("call %d: %d release callbacks ran, expected the queued owner's", call,
                     releases);
    }
    OK(cgn_exec_destroy(x));
    OK(cgn_graph_destroy(g));
}

/* ---- the bound on argument bytes ------------------------------------------------------------ */

/* Without the kernel's sizes (a 12.3 driver) the caller's sizes are taken as given, and cgn
 * bounds their sum at 1 MiB, this argument included: two arguments of 512 KiB are accepted,
 * two of 1 MiB (or 1 MiB and one more byte) are refused naming the argument that crosses it,
 * nothing changed. The review of the seed-12 sample found the sum checked before the argument
 * was added, so the bound was 1 MiB plus the last argument. */
static void test_argument_bytes_bound_includes_the_argument(void **state) {
    (void)state;
    int version;
    OK(cgn_driver_version(&version));
    cgn_fault_set_version(12030);
    CUfunction f = u32_kernel("bound_u32");
    uint32_t v = 7;
    cgn_arg one = CGN_ARG(v);
    cgn_graph *g;
    cgn_node *n = add_kernel_node(&g, CGN_FUNCTION(f), &one, 1);
    const size_t mib = (size_t)1 << 20;
    unsigned char *big = calloc(1, mib + 1);
    assert_non_null(big);
    const struct {
        size_t a, b;
        cgn_status want;
    } cases[] = {
        {mib / 2, mib / 2, CGN_OK},
        {mib, mib, CGN_ERROR_OUT_OF_RANGE},
        {mib, 1, CGN_ERROR_OUT_OF_RANGE},
        {mib - 1, 1, CGN_OK},
        {mib + 1, 1, CGN_ERROR_OUT_OF_RANGE},
    };
    for (size_t c = 0; c < sizeof cases / sizeof cases[0]; c++) {
        cgn_arg two[2] = {{big, cases[c].a, NULL}, {big, cases[c].b, NULL}};
        cgn_kernel_update u = CGN_KERNEL_UPDATE_INIT;
        cgn_kernel_update_set_args(&u, two, 2);
        cgn_kernel_desc before, after;
        OK(cgn_kernel_node_get(n, &before));
        cgn_status st = cgn_kernel_node_update(n, &u);
        if (st != cases[c].want)
            fail_msg("case %zu (%zu + %zu bytes): %s (%s)", c, cases[c].a, cases[c].b,
                     cgn_status_name(st), cgn_last_error());
        OK(cgn_kernel_node_get(n, &after));
        if (st == CGN_OK) {
            assert_int_equal(after.num_args, 2);
            assert_int_equal(after.args[0].size, cases[c].a);
            assert_int_equal(after.args[1].size, cases[c].b);
        } else {
            char want[96];
            snprintf(want, sizeof want, "argument %d is %zu bytes; kernel arguments total at most",
                     cases[c].a > mib ? 0 : 1, cases[c].a > mib ? cases[c].a : cases[c].b);
            assert_non_null(strstr(cgn_last_error(), want));
            assert_int_equal(after.num_args, before.num_args);
            assert_ptr_equal(after.args, before.args);
        }
    }
    free(big);
    OK(cgn_graph_destroy(g));
    cgn_fault_set_version(version);
}

/* ---- runtime.h, mutated by tools/mutate (seed 13) --------------------------------------------- */

/* A handle whose generation is later than its slot's (forged, or corrupted: no handle cgn gave
 * out can be newer than its slot) is not a cgn handle: CGN_ERROR_INVALID_ARGUMENT, not
 * "destroyed", which is kept for a handle older than its slot or one whose slot is free. */
static void test_handle_from_the_future_is_invalid(void **state) {
    (void)state;
    cgn_graph *g;
    cgn_node *n;
    OK(cgn_graph_create(&g));
    OK(cgn_graph_add_empty(g, NULL, 0, &n));
    uint64_t h = (uint64_t)(uintptr_t)n;
    cgn_node *later = (cgn_node *)(uintptr_t)(h + ((uint64_t)1 << (32 + CGN__KIND_BITS)));
    CUgraphNode raw;
    assert_int_equal(cgn_node_raw(later, &raw), CGN_ERROR_INVALID_ARGUMENT);
    assert_non_null(strstr(cgn_last_error(), "is not a cgn handle"));
    OK(cgn_node_raw(n, &raw)); /* the real one still works */
    OK(cgn_node_destroy(n));
    assert_int_equal(cgn_node_raw(n, &raw), CGN_ERROR_DESTROYED);
    OK(cgn_graph_destroy(g));
}

/* cgn__add_size: refuses exactly the sums that do not fit a size_t, leaving *out alone. */
static void test_add_size_bounds(void **state) {
    (void)state;
    size_t out = 7;
    assert_int_equal(cgn__add_size(SIZE_MAX / 2, 16, &out), 1);
    assert_true(out == SIZE_MAX / 2 + 16);
    assert_int_equal(cgn__add_size(SIZE_MAX - 16, 16, &out), 1);
    assert_true(out == SIZE_MAX);
    out = 7;
    assert_int_equal(cgn__add_size(SIZE_MAX - 15, 16, &out), 0);
    assert_int_equal(cgn__add_size(SIZE_MAX, 1, &out), 0);
    assert_true(out == 7);
    assert_int_equal(cgn__add_size(3, 0, &out), 1);
    assert_true(out == 3);
}

int main(void) {
#define T(fn) cmocka_unit_test_setup_teardown(fn, cgn_test_fixture_setup, cgn_test_fixture_teardown)
    const struct CMUnitTest tests[] = {
        T(test_refreshed_block_becomes_the_reused_spare),
        T(test_refresh_of_function_node_asks_no_kernel),
        T(test_fast_path_keeps_checked_sizes),
        T(test_owner_release_runs_at_next_call),
        T(test_argument_bytes_bound_includes_the_argument),
        T(test_handle_from_the_future_is_invalid),
        T(test_add_size_bounds),
    };
#undef T
    return cmocka_run_group_tests(tests, NULL, NULL);
}
