/* The survivors of a fresh mutation spot check of the runtime and the generated sources
 * (tools/mutate over the .c files of runtime/ and generated/src/, --sample 3 --seed 19), on the
 * fake driver: refreshes of an external semaphore wait node whose driver-side semaphores or
 * their params changed (same count) dropping the owner; a memory allocation node added with no
 * context current (docs/nodes.md: only kernel, memset, memcpy and batch memory operation nodes
 * need one); an adopted 3-D copy into device memory whose driver params still carry a
 * destination array CUDA ignores; host memory running out while adoption writes a kernel
 * node's opaque argument block. (Issue 8: test strength.)
 *
 * The test executable is linked with -Wl,--wrap=malloc, so cgn's allocations come here first
 * and can be made to fail (never the fake driver's: its calls are marked). */
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

#define CU_OK(call) assert_int_equal((call), CUDA_SUCCESS)

static CUgraphNode raw_of(const cgn_node *n) {
    CUgraphNode raw;
    OK(cgn_node_raw(n, &raw));
    return raw;
}

static size_t raw_node_count(const cgn_driver_table *drv, CUgraph raw) {
    size_t count = 0;
    CU_OK(drv->cuGraphGetNodes(raw, NULL, &count));
    return count;
}

/* ---- failing allocations --------------------------------------------------------------------- */

void *__real_malloc(size_t size);
void *__wrap_malloc(size_t size);

static struct {
    long countdown; /* 0: nothing fails; else the countdown-th malloc from now fails */
    int triggered;  /* it did */
    int in_driver;  /* inside a driver call: the fake's own allocations never fail */
} oom;

void *__wrap_malloc(size_t size) {
    if (oom.countdown != 0 && !oom.in_driver && --oom.countdown == 0) {
        oom.triggered = 1;
        return NULL;
    }
    return __real_malloc(size);
}

/* ---- refreshes of an external semaphore wait node -------------------------------------------- */

/* A wait node on sems[0] and sems[1] (fence values 50 and 51) with owner 2. */
static cgn_node *owned_wait_node(cgn_test_env *env, cgn_graph *g) {
    CUexternalSemaphore sems[2] = {cgn_test_sem(env, 0), cgn_test_sem(env, 1)};
    CUDA_EXTERNAL_SEMAPHORE_WAIT_PARAMS wp[2];
    memset(wp, 0, sizeof wp);
    wp[0].params.fence.value = 50;
    wp[1].params.fence.value = 51;
    cgn_ext_sem_wait_desc d = CGN_EXT_SEM_WAIT_DESC_INIT;
    d.sems = sems;
    d.sems_params = wp;
    d.num_sems = 2;
    d.sems_owner = env->owner[2];
    cgn_node *n;
    OK(cgn_graph_add_ext_sem_wait(g, NULL, 0, &d, &n));
    return n;
}

/* The driver's node is changed behind cgn's back to wait on two semaphores still, but others:
 * first the same two in the other order, then (another node) the same two with another fence
 * value. Each refresh reads the new semaphores without the owner (a changed value is the
 * caller's, docs/adopt.md); both nodes keep their attachment, so owner 2 is released once,
 * with the graph. */
static void test_refresh_ext_sem_wait_changed_same_count(void **state) {
    cgn_test_env *env = *state;
    const cgn_driver_table *drv = env->backend->driver(env);
    cgn_graph *g;
    OK(cgn_graph_create(&g));
    cgn_node *swapped = owned_wait_node(env, g);
    cgn_node *revalued = owned_wait_node(env, g);
    cgn_test_env_drop_owners(env);

    CUexternalSemaphore other_order[2] = {cgn_test_sem(env, 1), cgn_test_sem(env, 0)};
    CUDA_EXTERNAL_SEMAPHORE_WAIT_PARAMS wp[2];
    memset(wp, 0, sizeof wp);
    wp[0].params.fence.value = 51;
    wp[1].params.fence.value = 50;
    CUgraphNodeParams p;
    assert_int_equal(cgn_fake_node_params(raw_of(swapped), &p), 1);
    p.extSemWait.extSemArray = other_order;
    p.extSemWait.paramsArray = wp;
    p.extSemWait.numExtSems = 2;
    CU_OK(drv->cuGraphNodeSetParams(raw_of(swapped), &p));

    CUexternalSemaphore same[2] = {cgn_test_sem(env, 0), cgn_test_sem(env, 1)};
    CUDA_EXTERNAL_SEMAPHORE_WAIT_PARAMS wp2[2];
    memset(wp2, 0, sizeof wp2);
    wp2[0].params.fence.value = 50;
    wp2[1].params.fence.value = 52; /* was 51 */
    assert_int_equal(cgn_fake_node_params(raw_of(revalued), &p), 1);
    p.extSemWait.extSemArray = same;
    p.extSemWait.paramsArray = wp2;
    p.extSemWait.numExtSems = 2;
    CU_OK(drv->cuGraphNodeSetParams(raw_of(revalued), &p));

    OK(cgn_node_refresh(swapped));
    cgn_ext_sem_wait_desc got;
    OK(cgn_ext_sem_wait_node_get(swapped, &got));
    assert_int_equal(got.num_sems, 2);
    assert_ptr_equal(got.sems[0], other_order[0]);
    assert_ptr_equal(got.sems[1], other_order[1]);
    assert_true(got.sems_params[0].params.fence.value == 51);
    assert_null(got.sems_owner);

    OK(cgn_node_refresh(revalued));
    OK(cgn_ext_sem_wait_node_get(revalued, &got));
    assert_int_equal(got.num_sems, 2);
    assert_ptr_equal(got.sems[0], same[0]);
    assert_ptr_equal(got.sems[1], same[1]);
    assert_true(got.sems_params[1].params.fence.value == 52);
    assert_null(got.sems_owner);

    (void)cgn_collect();
    assert_int_equal(env->released[2], 0); /* the attachments still hold it */
    OK(cgn_graph_destroy(g));
    assert_true(cgn_test_wait_released(env, 2, 1));
    (void)cgn_collect();
    assert_int_equal(env->released[2], 1);
}

/* ---- a memory allocation node with no context current ---------------------------------------- */

/* docs/nodes.md: CGN_ERROR_NO_CONTEXT is for adding a kernel, memset, memcpy or batch memory
 * operation node with no current context. An allocation node names its device and is added
 * with none current; the driver chooses its address, and it instantiates and launches. */
static void test_mem_alloc_added_without_context(void **state) {
    cgn_test_env *env = *state;
    cgn_graph *g;
    OK(cgn_graph_create(&g));
    cgn_mem_alloc_desc a = CGN_MEM_ALLOC_DESC_INIT;
    a.bytesize = CGN_TEST_BUF_SIZE;
    cgn_node *alloc = NULL, *release = NULL;
    env->backend->set_context(env, CGN_TEST_CTX_NONE);
    cgn_status st = cgn_graph_add_mem_alloc(g, NULL, 0, &a, &alloc);
    int current = env->backend->current_context(env);
    env->backend->set_context(env, CGN_TEST_CTX_OWN);
    if (st != CGN_OK)
        fail_msg("cgn_graph_add_mem_alloc with no context: %s (%s)", cgn_status_name(st),
                 cgn_last_error());
    assert_int_equal(current, CGN_TEST_CTX_NONE); /* still none */
    assert_non_null(alloc);
    cgn_mem_alloc_desc got;
    OK(cgn_mem_alloc_node_get(alloc, &got));
    assert_true(got.dptr != 0);
    assert_int_equal(got.bytesize, CGN_TEST_BUF_SIZE);
    size_t count = 0;
    OK(cgn_graph_nodes(g, NULL, &count));
    assert_int_equal(count, 1);
    /* Freed in the graph, so the executable can run. */
    cgn_mem_free_desc f = CGN_MEM_FREE_DESC_INIT;
    f.dptr = got.dptr;
    OK(cgn_graph_add_mem_free(g, &alloc, 1, &f, &release));
    cgn_exec *e;
    OK(cgn_graph_instantiate(g, &e));
    OK(env->backend->launch(env, e));
    OK(cgn_exec_destroy(e));
    OK(cgn_graph_destroy(g));
}

/* ---- an adopted 3-D copy whose driver params carry an ignored array -------------------------- */

/* A 2-D copy between device buffers, built through the raw table with dstArray and srcArray
 * left holding values that are not arrays: CUDA reads them only for CU_MEMORYTYPE_ARRAY
 * operands. Adopted as memcpy_3d, the node reports its device operands and no array (the desc:
 * "NULL when dst is the destination"), and takes an update of its source. */
static void test_adopted_copy_ignores_stale_arrays(void **state) {
    cgn_test_env *env = *state;
    const cgn_driver_table *drv = env->backend->driver(env);
    CUcontext ctx = NULL;
    CU_OK(drv->cuCtxGetCurrent(&ctx));
    CUgraph raw;
    CU_OK(drv->cuGraphCreate(&raw, 0));
    CUDA_MEMCPY3D c;
    memset(&c, 0, sizeof c);
    c.srcMemoryType = c.dstMemoryType = CU_MEMORYTYPE_DEVICE;
    c.srcDevice = env->buf[0];
    c.dstDevice = env->buf[1];
    c.srcArray = (CUarray)(uintptr_t)0x5a11;
    c.dstArray = (CUarray)(uintptr_t)0xd571;
    c.srcPitch = c.dstPitch = 16;
    c.WidthInBytes = 8;
    c.Height = 2;
    c.Depth = 1;
    CUgraphNode rn;
    CU_OK(drv->cuGraphAddMemcpyNode(&rn, raw, NULL, 0, &c, ctx));
    /* What the driver gives back still has them (else this case tests nothing). */
    CUgraphNodeParams p;
    assert_int_equal(cgn_fake_node_params(rn, &p), 1);
    assert_true(p.memcpy.copyParams.dstArray == c.dstArray);
    assert_true(p.memcpy.copyParams.srcArray == c.srcArray);

    cgn_graph *g;
    OK(cgn_graph_adopt(raw, CGN_ADOPT_TAKE_OWNERSHIP, &g));
    cgn_node *n;
    OK(cgn_graph_find_raw(g, rn, &n));
    cgn_node_type type;
    OK(cgn_node_type_of(n, &type));
    assert_int_equal(type, CGN_NODE_MEMCPY_3D);
    cgn_memcpy_3d_desc got;
    OK(cgn_memcpy_3d_node_get(n, &got));
    assert_true(got.dst == env->buf[1]);
    assert_int_equal(got.dst_memory_type, CU_MEMORYTYPE_DEVICE);
    assert_null(got.dst_array);
    assert_true(got.src == env->buf[0]);
    assert_int_equal(got.src_memory_type, CU_MEMORYTYPE_DEVICE);
    assert_null(got.src_array);
    assert_int_equal(got.height, 2);
    OK(cgn_node_check_updatable(n));

    cgn_memcpy_3d_update u = CGN_MEMCPY_3D_UPDATE_INIT;
    cgn_memcpy_3d_update_set_src(&u, env->buf[2], NULL);
    cgn_status st = cgn_memcpy_3d_node_update(n, &u);
    if (st != CGN_OK)
        fail_msg("cgn_memcpy_3d_node_update: %s (%s)", cgn_status_name(st), cgn_last_error());
    OK(cgn_memcpy_3d_node_get(n, &got));
    assert_true(got.src == env->buf[2]);
    assert_null(got.dst_array);
    assert_int_equal(cgn_fake_node_params(rn, &p), 1);
    assert_true(p.memcpy.copyParams.srcDevice == env->buf[2]);
    assert_true(p.memcpy.copyParams.dstDevice == env->buf[1]);
    OK(cgn_graph_destroy(g));
}

/* ---- host memory running out while an opaque argument block is written ----------------------- */

/* The driver table, every entry marking its calls as the driver's; the kernel getter reports a
 * NULL argument pointer for `target` (arguments cgn cannot copy: an opaque block). */
static struct {
    cgn_driver_table table;
    const cgn_driver_table *inner;
    CUgraphNode target;
    void *with_hole[2];
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

static CUresult guard_kernel_get_with_hole(CUgraphNode n, CUDA_KERNEL_NODE_PARAMS_v2 *p) {
    CUresult r = guard_cuGraphKernelNodeGetParams(n, p);
    if (r == CUDA_SUCCESS && n == guard.target) {
        guard.with_hole[0] = p->kernelParams[0];
        guard.with_hole[1] = NULL;
        p->kernelParams = guard.with_hole;
    }
    return r;
}

/* Adoption of a graph whose kernel node's arguments cgn cannot copy, with every malloc cgn makes
 * failing in turn (k = 1, 2, ... until adoption goes through): docs/adopt.md, "All or nothing":
 * each failure is CGN_ERROR_OUT_OF_MEMORY saying so, with no graph handed out, the raw graph as
 * it was and nothing leaked (the ASan build checks). The adoption that goes through records the
 * node with opaque arguments, saying why. */
static void test_adopt_opaque_args_out_of_memory(void **state) {
    cgn_test_env *env = *state;
    memset(&guard, 0, sizeof guard);
    guard.inner = env->backend->driver(env);
    guard.table.version = guard.inner->version;
#define GUARD_SET_(name, abi, need, params, args)                                                  \
    guard.table.name = guard.inner->name != NULL ? guard_##name : NULL;
    CGN_DRIVER_ENTRIES(GUARD_SET_)
#undef GUARD_SET_
    guard.table.cuGraphKernelNodeGetParams = guard_kernel_get_with_hole;

    const cgn_driver_table *drv = guard.inner;
    CUgraph raw;
    CU_OK(drv->cuGraphCreate(&raw, 0));
    CUdeviceptr out = env->buf[0];
    uint32_t seven = 7;
    void *params[] = {&out, &seven};
    cgn_kernel k = cgn_test_kernel(env, "fill_u32");
    CUDA_KERNEL_NODE_PARAMS_v2 kp;
    memset(&kp, 0, sizeof kp);
    kp.func = k.function;
    kp.kern = k.kernel;
    kp.gridDimX = kp.gridDimY = kp.gridDimZ = 1;
    kp.blockDimX = kp.blockDimY = kp.blockDimZ = 1;
    kp.kernelParams = params;
    CU_OK(drv->cuGraphAddKernelNode(&guard.target, raw, NULL, 0, &kp));
    size_t live = cgn__handles_live();

    cgn_fault_install(&guard.table);
    cgn_graph *g = NULL;
    cgn_status st = CGN_OK;
    long k_fail, failures = 0;
    for (k_fail = 1; k_fail < 10000; k_fail++) {
        g = NULL;
        oom.countdown = k_fail;
        oom.triggered = 0;
        st = cgn_graph_adopt(raw, 0, &g);
        oom.countdown = 0;
        if (!oom.triggered)
            break;
        if (st == CGN_OK) /* a failure cgn got past (none is expected): drop it and go on */
            OK(cgn_graph_destroy(g));
        else {
            failures++;
            if (st != CGN_ERROR_OUT_OF_MEMORY)
                fail_msg("malloc %ld failing: %s (%s), not out of memory", k_fail,
                         cgn_status_name(st), cgn_last_error());
            assert_non_null(strstr(cgn_last_error(), "out of host memory"));
            assert_null(g);
            assert_int_equal(cgn__handles_live(), live);
            assert_int_equal(raw_node_count(drv, raw), 1);
        }
    }
    if (st != CGN_OK)
        fail_msg("adoption with no failing malloc: %s (%s)", cgn_status_name(st), cgn_last_error());
    assert_true(failures > 0);
    cgn_node *n;
    OK(cgn_graph_find_raw(g, guard.target, &n));
    assert_int_equal(cgn_node_check_updatable(n), CGN_ERROR_NOT_SUPPORTED);
    assert_non_null(strstr(cgn_last_error(), "the driver reported a NULL argument pointer"));
    cgn_kernel_desc got;
    OK(cgn_kernel_node_get(n, &got));
    assert_int_equal(got.num_args, 0);
    OK(cgn_graph_destroy(g));
    cgn_fault_install(guard.inner);
    assert_int_equal(raw_node_count(drv, raw), 1);
    CU_OK(drv->cuGraphDestroy(raw));
}

int main(void) {
#define T(fn) cmocka_unit_test_setup_teardown(fn, cgn_test_fixture_setup, cgn_test_fixture_teardown)
    const struct CMUnitTest tests[] = {
        T(test_refresh_ext_sem_wait_changed_same_count),
        T(test_mem_alloc_added_without_context),
        T(test_adopted_copy_ignores_stale_arrays),
        T(test_adopt_opaque_args_out_of_memory),
    };
#undef T
    return cmocka_run_group_tests(tests, NULL, NULL);
}
