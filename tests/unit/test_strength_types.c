/* The survivors of mutation samples of this session's node types (memcpy_3d, mem_alloc,
 * mem_free, batch_mem_op, conditional) and runtime/codecs.c (tools/mutate ... --sample 20
 * --seed 9, --sample 25 --seed 10 and --sample 25 --seed 11), on the fake driver: messages of
 * refused calls and of changes the driver refuses in an executable, NULL arguments, the device
 * of an allocation node (to the driver, and back by adoption), the checks of a 3D copy (size_t
 * overflows, source heights, the row bound, executable rules), its owners and memory types, a
 * driver failure while one is added, kernel argument blocks (their size, adoption cutting them
 * from its arena, a parameter the driver reports as 0 bytes), and the conditional node's handle
 * (flags, entry points, its creation failing, exec_get nested in a body). (Issue 8: test
 * strength.) *
 * The test executable is linked with -Wl,--wrap=malloc: cgn's mallocs are counted, and the
 * bytes of each fresh allocation poisoned. */
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

/* ---- counting mallocs ------------------------------------------------------------------------ */

void *__real_malloc(size_t size);
void *__wrap_malloc(size_t size);

static size_t malloc_calls;

/* Fresh allocations are filled with 0xA5, so bytes cgn never wrote cannot pass for zeros or for
 * a previous block's contents. */
void *__wrap_malloc(size_t size) {
    malloc_calls++;
    void *p = __real_malloc(size);
    if (p != NULL)
        memset(p, 0xA5, size);
    return p;
}

static void ignore_release(void *resource) { (void)resource; }

/* ---- messages -------------------------------------------------------------------------------- */

/* NULL arguments of the batch_mem_op adder and updater, and an owner without its memcpy_3d
 * operand, are refused with messages that say what is wrong. */
static void test_types_argument_messages(void **state) {
    cgn_test_env *env = *state;
    cgn_graph *g;
    cgn_node *n = NULL;
    OK(cgn_graph_create(&g));
    cgn_batch_mem_op_desc b = CGN_BATCH_MEM_OP_DESC_INIT;
    assert_int_equal(cgn_graph_add_batch_mem_op(g, NULL, 0, NULL, &n),
                     CGN_ERROR_INVALID_ARGUMENT);
    assert_message("cgn_graph_add_batch_mem_op: desc and node_out must not be NULL");
    assert_int_equal(cgn_graph_add_batch_mem_op(g, NULL, 0, &b, NULL),
                     CGN_ERROR_INVALID_ARGUMENT);
    assert_message("cgn_graph_add_batch_mem_op: desc and node_out must not be NULL");
    assert_null(n);
    CUstreamBatchMemOpParams op;
    memset(&op, 0, sizeof op);
    op.writeValue.operation = CU_STREAM_MEM_OP_WRITE_VALUE_32;
    op.writeValue.address = env->buf[0];
    op.writeValue.value = 7;
    b.ops = &op;
    b.num_ops = 1;
    OK(cgn_graph_add_batch_mem_op(g, NULL, 0, &b, &n));
    assert_int_equal(cgn_batch_mem_op_node_update(n, NULL), CGN_ERROR_INVALID_ARGUMENT);
    assert_message("cgn_batch_mem_op_node_update: update must not be NULL");

    cgn_memcpy_3d_desc d = CGN_MEMCPY_3D_DESC_INIT;
    d.dst = env->buf[1];
    d.src = env->buf[0];
    d.width_in_bytes = 4;
    cgn_node *copy;
    OK(cgn_graph_add_memcpy_3d(g, NULL, 0, &d, &copy));
    cgn_memcpy_3d_update u = CGN_MEMCPY_3D_UPDATE_INIT;
    u.set = CGN_MEMCPY_3D_SET_DST_OWNER;
    u.dst_owner = env->owner[1];
    long refs = owner_refs(env->owner[1]);
    assert_int_equal(cgn_memcpy_3d_node_update(copy, &u), CGN_ERROR_MISSING_FIELD);
    assert_message("cgn_memcpy_3d_node_update: dst_owner requires dst");
    assert_int_equal(owner_refs(env->owner[1]), refs);
    OK(cgn_graph_destroy(g));
}

/* ---- memcpy_3d: sizes that do not fit size_t --------------------------------------------------- */

static void expect_3d_refused(cgn_graph *g, const cgn_memcpy_3d_desc *d, cgn_status want,
                              const char *message) {
    size_t before = cgn_test_count_nodes(g);
    cgn_node *n = NULL;
    cgn_fault_reset_counts();
    assert_int_equal(cgn_graph_add_memcpy_3d(g, NULL, 0, d, &n), want);
    assert_message(message);
    assert_null(n);
    assert_int_equal(cgn_fault_total_calls(), 0);
    assert_int_equal(cgn_test_count_nodes(g), before);
}

/* Each check names its own numbers: a destination of 2^30 slices of 2^40 rows overflows at the
 * slice count; 2 slices of 2^20 rows at a pitch of 2^50 overflow at the row count; a source
 * pitch below src_x_in_bytes + width_in_bytes says the sum. */
static void test_memcpy_3d_overflow_messages(void **state) {
    cgn_test_env *env = *state;
    cgn_graph *g;
    OK(cgn_graph_create(&g));
    cgn_memcpy_3d_desc d = CGN_MEMCPY_3D_DESC_INIT;
    d.dst = env->buf[1];
    d.dst_pitch = 4;
    d.dst_height = (size_t)1 << 40;
    d.src = env->buf[0];
    d.src_pitch = 4;
    d.src_height = 1;
    d.width_in_bytes = 4;
    d.depth = (size_t)1 << 30;
    expect_3d_refused(g, &d, CGN_ERROR_OUT_OF_RANGE,
                      "cgn_graph_add_memcpy_3d: 1073741824 slices of 1099511627776 rows do not "
                      "fit size_t");

    d.depth = 2;
    d.dst_height = (size_t)1 << 20;
    d.dst_pitch = (size_t)1 << 50;
    expect_3d_refused(g, &d, CGN_ERROR_OUT_OF_RANGE,
                      "cgn_graph_add_memcpy_3d: its last row (index 1048576) at pitch "
                      "1125899906842624 does not fit size_t");

    d.depth = 1;
    d.dst_height = 0;
    d.dst_pitch = 8;
    d.height = 2;
    d.src_x_in_bytes = 4;
    d.src_pitch = 6;
    expect_3d_refused(g, &d, CGN_ERROR_INVALID_VALUE,
                      "cgn_graph_add_memcpy_3d: src_pitch 6 is less than src_x_in_bytes + "
                      "width_in_bytes = 8");
    OK(cgn_graph_destroy(g));
}

/* The driver failing any call of cgn_graph_add_memcpy_3d fails the add with nothing left: no
 * node, no owner reference, the graph's raw node count unchanged. */
static void test_memcpy_3d_add_driver_failures(void **state) {
    cgn_test_env *env = *state;
    cgn_graph *g;
    OK(cgn_graph_create(&g));
    CUgraph raw;
    OK(cgn_graph_raw(g, &raw));
    cgn_memcpy_3d_desc d = CGN_MEMCPY_3D_DESC_INIT;
    d.dst = env->buf[1];
    d.dst_owner = env->owner[1];
    d.src = env->buf[0];
    d.src_owner = env->owner[0];
    d.width_in_bytes = 8;
    long refs0 = owner_refs(env->owner[0]), refs1 = owner_refs(env->owner[1]);
    int failed = 0;
    for (long nth = 1;; nth++) {
        cgn_node *n = NULL;
        cgn_fault_arm(nth, CUDA_ERROR_OUT_OF_MEMORY);
        cgn_status st = cgn_graph_add_memcpy_3d(g, NULL, 0, &d, &n);
        int triggered = cgn_fault_triggered(NULL);
        cgn_fault_disarm();
        if (!triggered) {
            OK(st);
            assert_non_null(n);
            break;
        }
        failed++;
        assert_int_not_equal(st, CGN_OK);
        assert_null(n);
        assert_int_equal(cgn_test_count_nodes(g), 0);
        size_t raw_count = 0;
        CU_OK(env->backend->driver(env)->cuGraphGetNodes(raw, NULL, &raw_count));
        assert_int_equal(raw_count, 0);
        assert_int_equal(owner_refs(env->owner[0]), refs0);
        assert_int_equal(owner_refs(env->owner[1]), refs1);
    }
    assert_true(failed >= 2); /* at least the memory-type queries and the add */
    assert_int_equal(cgn_test_count_nodes(g), 1);
    OK(cgn_graph_destroy(g));
}

/* ---- mem_alloc: the device ------------------------------------------------------------------- */

/* The desc's device goes to the driver as the pool's location (the fake, like a one-GPU machine,
 * has device 0 only, so its allocation adder refuses device 1), and adoption reads it back from
 * a raw graph (the fake's generic cuGraphAddNode takes any ordinal). */
static void test_mem_alloc_device_round_trip(void **state) {
    cgn_test_env *env = *state;
    cgn_graph *g;
    cgn_node *n = NULL;
    OK(cgn_graph_create(&g));
    cgn_mem_alloc_desc d = CGN_MEM_ALLOC_DESC_INIT;
    d.bytesize = 128;
    d.device = 1;
    assert_int_equal(cgn_graph_add_mem_alloc(g, NULL, 0, &d, &n), CGN_ERROR_DRIVER);
    assert_non_null(strstr(cgn_last_error(), "cuGraphAddMemAllocNode"));
    assert_null(n);
    assert_int_equal(cgn_test_count_nodes(g), 0);
    d.device = 0;
    OK(cgn_graph_add_mem_alloc(g, NULL, 0, &d, &n));
    cgn_mem_alloc_desc got;
    OK(cgn_mem_alloc_node_get(n, &got));
    assert_int_equal(got.device, 0);
    assert_int_equal(got.bytesize, 128);

    /* A raw graph holding the same allocation, adopted. */
    const cgn_driver_table *drv = env->backend->driver(env);
    CUgraph raw;
    CU_OK(drv->cuGraphCreate(&raw, 0));
    CUgraphNode rn;
    CUgraphNodeParams ap;
    memset(&ap, 0, sizeof ap);
    ap.type = CU_GRAPH_NODE_TYPE_MEM_ALLOC;
    ap.alloc.bytesize = 96;
    ap.alloc.poolProps.allocType = CU_MEM_ALLOCATION_TYPE_PINNED;
    ap.alloc.poolProps.location.type = CU_MEM_LOCATION_TYPE_DEVICE;
    ap.alloc.poolProps.location.id = 2;
    CU_OK(drv->cuGraphAddNode(&rn, raw, NULL, 0, &ap));
    cgn_graph *adopted;
    OK(cgn_graph_adopt(raw, 0, &adopted));
    cgn_node *an;
    size_t count = 1;
    OK(cgn_graph_nodes(adopted, &an, &count));
    assert_int_equal(count, 1);
    OK(cgn_mem_alloc_node_get(an, &got));
    assert_int_equal(got.device, 2);
    assert_int_equal(got.bytesize, 96);
    assert_true(got.dptr == ap.alloc.dptr && got.dptr != 0);
    OK(cgn_graph_destroy(adopted));
    CU_OK(drv->cuGraphDestroy(raw));
    OK(cgn_graph_destroy(g));
}

/* ---- adoption: kernel arguments cut from the arena ------------------------------------------- */

/* A raw graph of `num` nodes: kernels fill_u32(buf0, i) when `kernels`, else empty nodes. */
static CUgraph raw_graph_of(cgn_test_env *env, int kernels, size_t num) {
    const cgn_driver_table *drv = env->backend->driver(env);
    CUgraph raw;
    CU_OK(drv->cuGraphCreate(&raw, 0));
    cgn_kernel k = cgn_test_kernel(env, "fill_u32");
    for (size_t i = 0; i < num; i++) {
        CUgraphNode n;
        if (!kernels) {
            CU_OK(drv->cuGraphAddEmptyNode(&n, raw, NULL, 0));
            continue;
        }
        CUdeviceptr out = env->buf[0];
        unsigned value = (unsigned)i;
        void *params[] = {&out, &value};
        CUDA_KERNEL_NODE_PARAMS_v2 p;
        memset(&p, 0, sizeof p);
        p.func = k.function;
        p.kern = k.kernel;
        p.gridDimX = p.gridDimY = p.gridDimZ = 1;
        p.blockDimX = p.blockDimY = p.blockDimZ = 1;
        p.kernelParams = params;
        CU_OK(drv->cuGraphAddKernelNode(&n, raw, NULL, 0, &p));
    }
    return raw;
}

/* Mallocs made by adopting `raw` (the adopted graph is kept in *g_out). */
static size_t adoption_mallocs(CUgraph raw, cgn_graph **g_out) {
    size_t before = malloc_calls;
    OK(cgn_graph_adopt(raw, 0, g_out));
    return malloc_calls - before;
}

/* Adoption copies each kernel node's arguments into blocks cut from one arena, so 48 kernel nodes
 * of one kernel cost hardly more mallocs than 48 empty nodes (a layout query and a few arena
 * chunks), not one more each; and every node's arguments are its own. */
static void test_adopt_kernel_args_from_arena(void **state) {
    cgn_test_env *env = *state;
    enum { NUM = 48 };
    /* The wrapper must see libcgn's own mallocs, else this test checks nothing. */
    size_t seen = malloc_calls;
    cgn_owner *probe;
    OK(cgn_owner_create(NULL, ignore_release, &probe));
    assert_true(malloc_calls > seen);
    OK(cgn_owner_release(probe));
    cgn_collect();
    CUgraph empty_raw = raw_graph_of(env, 0, NUM), kernel_raw = raw_graph_of(env, 1, NUM);
    cgn_graph *ge, *gk;
    size_t empties = adoption_mallocs(empty_raw, &ge);
    size_t kernels = adoption_mallocs(kernel_raw, &gk);
    if (kernels > empties + 8)
        fail_msg("adopting %d kernel nodes made %zu mallocs, %d empty nodes %zu", NUM, kernels,
                 NUM, empties);
    cgn_node *nodes[NUM];
    size_t count = NUM;
    OK(cgn_graph_nodes(gk, nodes, &count));
    assert_int_equal(count, NUM);
    for (size_t i = 0; i < NUM; i++) {
        cgn_kernel_desc d;
        OK(cgn_kernel_node_get(nodes[i], &d));
        assert_int_equal(d.num_args, 2);
        assert_int_equal(d.args[1].size, sizeof(unsigned));
        unsigned v;
        memcpy(&v, d.args[1].value, sizeof v);
        assert_int_equal(v, i);
    }
    OK(cgn_graph_destroy(ge));
    OK(cgn_graph_destroy(gk));
    const cgn_driver_table *drv = env->backend->driver(env);
    CU_OK(drv->cuGraphDestroy(empty_raw));
    CU_OK(drv->cuGraphDestroy(kernel_raw));
}

/* ---- more messages and NULL arguments ------------------------------------------------------- */

/* cgn_graph_add_mem_free refuses a NULL desc or node_out (each alone), and the getters of an
 * allocation node report the node and executable lookups' failures, writing nothing. */
static void test_mem_nodes_null_arguments(void **state) {
    cgn_test_env *env = *state;
    (void)env;
    cgn_graph *g;
    cgn_node *alloc, *fill, *n = NULL;
    OK(cgn_graph_create(&g));
    cgn_mem_alloc_desc a = CGN_MEM_ALLOC_DESC_INIT;
    a.bytesize = 64;
    OK(cgn_graph_add_mem_alloc(g, NULL, 0, &a, &alloc));
    OK(cgn_mem_alloc_node_get(alloc, &a));
    cgn_mem_free_desc f = {.dptr = a.dptr};
    cgn_fault_reset_counts();
    assert_int_equal(cgn_graph_add_mem_free(g, &alloc, 1, &f, NULL), CGN_ERROR_INVALID_ARGUMENT);
    assert_message("cgn_graph_add_mem_free: desc and node_out must not be NULL");
    assert_int_equal(cgn_graph_add_mem_free(g, &alloc, 1, NULL, &n), CGN_ERROR_INVALID_ARGUMENT);
    assert_message("cgn_graph_add_mem_free: desc and node_out must not be NULL");
    assert_null(n);
    assert_int_equal(cgn_fault_total_calls(), 0);
    assert_int_equal(cgn_test_count_nodes(g), 1);

    cgn_memset_desc m = cgn_test_fill_desc(env, 0, 0x11, 0);
    OK(cgn_graph_add_memset(g, &alloc, 1, &m, &fill));
    cgn_exec *e;
    OK(cgn_graph_instantiate(g, &e));
    cgn_mem_alloc_desc got;
    memset(&got, 0x5A, sizeof got);
    cgn_mem_alloc_desc untouched = got;
    assert_int_equal(cgn_mem_alloc_node_get(NULL, &got), CGN_ERROR_INVALID_ARGUMENT);
    assert_int_equal(cgn_mem_alloc_node_get(fill, &got), CGN_ERROR_WRONG_NODE_TYPE);
    assert_non_null(strstr(cgn_last_error(), "cgn_mem_alloc_node_get: "));
    assert_memory_equal(&got, &untouched, sizeof got);
    assert_int_equal(cgn_mem_alloc_exec_get(NULL, alloc, &got), CGN_ERROR_INVALID_ARGUMENT);
    assert_int_equal(cgn_mem_alloc_exec_get(e, fill, &got), CGN_ERROR_WRONG_NODE_TYPE);
    assert_non_null(strstr(cgn_last_error(), "cgn_mem_alloc_exec_get: "));
    assert_memory_equal(&got, &untouched, sizeof got);
    OK(cgn_mem_alloc_exec_get(e, alloc, &got));
    assert_true(got.dptr == a.dptr);
    OK(cgn_exec_destroy(e));
    OK(cgn_graph_destroy(g));
}

/* A driver whose next cuGraphExecNodeSetParams fails with a given result (installed over the
 * fixture's driver until refuse_done). */
static struct {
    cgn_driver_table table;
    const cgn_driver_table *inner;
    CUresult result;
    int armed;
} refuse;

static CUresult refusing_exec_set(CUgraphExec e, CUgraphNode n, CUgraphNodeParams *p) {
    if (refuse.armed) {
        refuse.armed = 0;
        return refuse.result;
    }
    return refuse.inner->cuGraphExecNodeSetParams(e, n, p);
}

/* The memcpy node types' typed setter (spec: cuda.exec_set), refused the same way. */
static CUresult refusing_memcpy_exec_set(CUgraphExec e, CUgraphNode n, const CUDA_MEMCPY3D *c,
                                         CUcontext ctx) {
    if (refuse.armed) {
        refuse.armed = 0;
        return refuse.result;
    }
    return refuse.inner->cuGraphExecMemcpyNodeSetParams(e, n, c, ctx);
}

static void refuse_next_exec_set(cgn_test_env *env, CUresult r) {
    refuse.inner = env->backend->driver(env);
    refuse.table = *refuse.inner;
    refuse.table.cuGraphExecNodeSetParams = refusing_exec_set;
    refuse.table.cuGraphExecMemcpyNodeSetParams = refusing_memcpy_exec_set;
    refuse.result = r;
    refuse.armed = 1;
    cgn_fault_install(&refuse.table);
}

/* Restores the fixture's driver; the refusal must have been used. */
static void refuse_done(void) {
    cgn_fault_install(refuse.inner);
    assert_int_equal(refuse.armed, 0);
}

/* ---- memcpy_3d: more of the checks --------------------------------------------------------- */

static cgn_memcpy_3d_desc plain_3d(cgn_test_env *env) {
    cgn_memcpy_3d_desc d = CGN_MEMCPY_3D_DESC_INIT;
    d.dst = env->buf[1];
    d.dst_pitch = 4;
    d.dst_height = 1;
    d.src = env->buf[0];
    d.src_pitch = 4;
    d.src_height = 1;
    d.width_in_bytes = 4;
    return d;
}

/* dst_z + depth overflowing; a source of 2 slices whose src_height is below src_y + height; the
 * source's rows at a pitch of 2^50 (its message gives the last row's index,
 * (src_z + depth - 1) * src_height + src_y + height - 1). */
static void test_memcpy_3d_source_checks(void **state) {
    cgn_test_env *env = *state;
    cgn_graph *g;
    OK(cgn_graph_create(&g));
    cgn_memcpy_3d_desc d = plain_3d(env);
    d.dst_z = SIZE_MAX;
    expect_3d_refused(g, &d, CGN_ERROR_OUT_OF_RANGE,
                      "cgn_graph_add_memcpy_3d: dst_z 18446744073709551615 plus depth 1 does not "
                      "fit size_t");

    d = plain_3d(env);
    d.dst_pitch = 4;
    d.dst_height = 2;
    d.height = 2;
    d.depth = 2;
    d.src_height = 1;
    expect_3d_refused(g, &d, CGN_ERROR_INVALID_VALUE,
                      "cgn_graph_add_memcpy_3d: src_height 1 is less than src_y + height = 2");

    d = plain_3d(env);
    d.depth = 2;
    d.dst_height = 1;
    d.src_height = (size_t)1 << 20;
    d.src_pitch = (size_t)1 << 50;
    expect_3d_refused(g, &d, CGN_ERROR_OUT_OF_RANGE,
                      "cgn_graph_add_memcpy_3d: its last row (index 1048576) at pitch "
                      "1125899906842624 does not fit size_t");
    OK(cgn_graph_destroy(g));
}

/* The destination's last row lies at (dst_z + depth - 1) * dst_height + dst_y + height - 1:
 * with two slices (dst_z + depth == 2, either way round) of SIZE_MAX rows and a copy of two rows,
 * that is SIZE_MAX + 1, which does not fit size_t: refused at the slice count, as for more
 * slices. */
static void test_memcpy_3d_two_slices_do_not_fit(void **state) {
    cgn_test_env *env = *state;
    cgn_graph *g;
    OK(cgn_graph_create(&g));
    cgn_memcpy_3d_desc d = plain_3d(env);
    d.dst_height = SIZE_MAX;
    d.src_height = 2;
    d.height = 2;
    d.depth = 2;
    expect_3d_refused(g, &d, CGN_ERROR_OUT_OF_RANGE,
                      "cgn_graph_add_memcpy_3d: 2 slices of 18446744073709551615 rows do not "
                      "fit size_t");
    d.depth = 1;
    d.dst_z = 1;
    expect_3d_refused(g, &d, CGN_ERROR_OUT_OF_RANGE,
                      "cgn_graph_add_memcpy_3d: 2 slices of 18446744073709551615 rows do not "
                      "fit size_t");
    /* One slice of them is no overflow: its rows 0 and 1 fit, and the copy goes through. */
    d.dst_z = 0;
    d.depth = 1;
    cgn_node *n = NULL;
    OK(cgn_graph_add_memcpy_3d(g, NULL, 0, &d, &n));
    assert_int_equal(cgn_test_count_nodes(g), 1);
    OK(cgn_graph_destroy(g));
}

/* A row count that wraps: the last row's index is SIZE_MAX (it fits, so the slices rule passes),
 * the count one more, 0. The check compares the index, so the copy is refused, not accepted
 * (seed-16 review: it was accepted and the driver asked). Both operands. */
static void test_memcpy_3d_row_count_wraps(void **state) {
    cgn_test_env *env = *state;
    cgn_graph *g;
    OK(cgn_graph_create(&g));
    for (int side = 0; side < 2; side++) {
        cgn_memcpy_3d_desc d = plain_3d(env);
        d.depth = 2;
        d.height = 2;
        d.width_in_bytes = 4;
        d.dst_height = d.src_height = 2; /* the other operand: two slices of two rows */
        if (side == 0)
            d.dst_height = SIZE_MAX - 1;
        else
            d.src_height = SIZE_MAX - 1;
        cgn_fault_reset_counts();
        char want[160];
        snprintf(want, sizeof want,
                 "cgn_graph_add_memcpy_3d: its last row (index %zu) at pitch 4 does not fit "
                 "size_t",
                 SIZE_MAX);
        expect_3d_refused(g, &d, CGN_ERROR_OUT_OF_RANGE, want);
        assert_int_equal(cgn_fault_total_calls(), 0);
    }
    OK(cgn_graph_destroy(g));
}

/* The source's last row at exactly the largest offset size_t holds passes cgn's checks (the
 * driver is asked); one row more does not. Pitch 2^62 and 4 bytes a row: (SIZE_MAX - 4) / 2^62
 * is 3, so row 3 is the last that fits. */
static void test_memcpy_3d_row_bound(void **state) {
    cgn_test_env *env = *state;
    cgn_graph *g;
    OK(cgn_graph_create(&g));
    cgn_memcpy_3d_desc d = plain_3d(env);
    d.src_pitch = (size_t)1 << 62;
    d.src_y = 4;
    expect_3d_refused(g, &d, CGN_ERROR_OUT_OF_RANGE,
                      "cgn_graph_add_memcpy_3d: its last row (index 4) at pitch "
                      "4611686018427387904 does not fit size_t");
    d.src_y = 3;
    cgn_node *n = NULL;
    cgn_fault_reset_counts();
    cgn_status st = cgn_graph_add_memcpy_3d(g, NULL, 0, &d, &n);
    assert_int_not_equal(st, CGN_ERROR_OUT_OF_RANGE);
    assert_int_equal(cgn_fault_calls(CGN_FAULT_cuGraphAddMemcpyNode), 1);
    OK(cgn_graph_destroy(g));
}

/* The owners of a 3D copy are retained by the add, and released with the graph; the memory type
 * of each address operand is the driver's. */
static void test_memcpy_3d_add_retains_owners(void **state) {
    cgn_test_env *env = *state;
    cgn_graph *g;
    cgn_node *n;
    OK(cgn_graph_create(&g));
    cgn_memcpy_3d_desc d = plain_3d(env);
    d.dst_owner = env->owner[1];
    d.src_owner = env->owner[0];
    long refs0 = owner_refs(env->owner[0]), refs1 = owner_refs(env->owner[1]);
    OK(cgn_graph_add_memcpy_3d(g, NULL, 0, &d, &n));
    assert_int_equal(owner_refs(env->owner[0]), refs0 + 1);
    assert_int_equal(owner_refs(env->owner[1]), refs1 + 1);
    cgn_memcpy_3d_desc got;
    OK(cgn_memcpy_3d_node_get(n, &got));
    /* Both operands are addresses: each one's memory type is asked of the driver. */
    assert_int_equal(got.dst_memory_type, CU_MEMORYTYPE_DEVICE);
    assert_int_equal(got.src_memory_type, CU_MEMORYTYPE_DEVICE);
    assert_ptr_equal(got.dst_owner, env->owner[1]);
    assert_ptr_equal(got.src_owner, env->owner[0]);
    OK(cgn_graph_destroy(g));
    cgn_collect();
    assert_int_equal(owner_refs(env->owner[0]), refs0);
    assert_int_equal(owner_refs(env->owner[1]), refs1);
}

/* An executable's 2D copy refuses a change of width alone, its 1D copy a height of 2; a change
 * the driver refuses is reported with the fields set; the 1D copy takes a new src_pitch
 * (exec_get reads it back). */
static void test_memcpy_3d_exec_fields(void **state) {
    cgn_test_env *env = *state;
    cgn_graph *g;
    cgn_node *flat, *rows;
    OK(cgn_graph_create(&g));
    cgn_memcpy_3d_desc d = plain_3d(env);
    OK(cgn_graph_add_memcpy_3d(g, NULL, 0, &d, &flat));
    d = plain_3d(env);
    d.dst = env->buf[2];
    d.dst_pitch = 8;
    d.src_pitch = 8;
    d.height = 2;
    OK(cgn_graph_add_memcpy_3d(g, &flat, 1, &d, &rows));
    cgn_exec *e;
    OK(cgn_graph_instantiate(g, &e));
    cgn_memcpy_3d_update u = CGN_MEMCPY_3D_UPDATE_INIT;
    cgn_memcpy_3d_update_set_width_in_bytes(&u, 8);
    cgn_fault_reset_counts();
    assert_int_equal(cgn_memcpy_3d_exec_update(e, rows, &u), CGN_ERROR_INVALID_VALUE);
    assert_non_null(strstr(cgn_last_error(), "field height: the executable's copy is 2 rows by 1 "
                                             "slices"));
    assert_int_equal(cgn_fault_setter_calls(), 0);
    cgn_memcpy_3d_desc got;
    OK(cgn_memcpy_3d_exec_get(e, rows, &got));
    assert_int_equal(got.width_in_bytes, 4);

    cgn_memcpy_3d_update tall = CGN_MEMCPY_3D_UPDATE_INIT;
    cgn_memcpy_3d_update_set_height(&tall, 2);
    assert_int_equal(cgn_memcpy_3d_exec_update(e, flat, &tall), CGN_ERROR_INVALID_VALUE);
    assert_message("cgn_memcpy_3d_exec_update: field height: height 2, depth 1; rule: CUDA changes "
                   "an executable's copy only when it was instantiated 1-dimensional (height and "
                   "depth 1) and stays so");
    assert_int_equal(cgn_fault_setter_calls(), 0);

    /* The driver refusing a change names the fields set, and the rules only it checks. */
    cgn_memcpy_3d_update moved = CGN_MEMCPY_3D_UPDATE_INIT;
    cgn_memcpy_3d_update_set_dst(&moved, env->buf[3], NULL);
    refuse_next_exec_set(env, CUDA_ERROR_INVALID_VALUE);
    cgn_status st = cgn_memcpy_3d_exec_update(e, flat, &moved);
    refuse_done();
    assert_int_equal(st, CGN_ERROR_INVALID_VALUE);
    assert_non_null(strstr(cgn_last_error(),
                           "; the driver refused this change in the executable (fields set: dst "
                           "dst_owner); rules only the driver checks: field dst: rule: an "
                           "executable's copy keeps its operands on the devices and contexts they "
                           "were allocated in; nothing changed"));
    OK(cgn_memcpy_3d_exec_get(e, flat, &got));
    assert_true(got.dst == env->buf[1]);

    cgn_memcpy_3d_update p = CGN_MEMCPY_3D_UPDATE_INIT;
    cgn_memcpy_3d_update_set_src_pitch(&p, 16);
    OK(cgn_memcpy_3d_exec_update(e, flat, &p));
    OK(cgn_memcpy_3d_exec_get(e, flat, &got));
    assert_int_equal(got.src_pitch, 16);
    OK(cgn_memcpy_3d_node_get(flat, &got));
    assert_int_equal(got.src_pitch, 4); /* the definition keeps its own */
    OK(cgn_exec_destroy(e));
    OK(cgn_graph_destroy(g));
}

/* The driver refusing an executable's new batch operations: the message names the fields set
 * and the rule only the driver checks. */
static void test_batch_mem_op_exec_refused_message(void **state) {
    cgn_test_env *env = *state;
    cgn_graph *g;
    cgn_node *n;
    OK(cgn_graph_create(&g));
    CUstreamBatchMemOpParams op;
    memset(&op, 0, sizeof op);
    op.writeValue.operation = CU_STREAM_MEM_OP_WRITE_VALUE_32;
    op.writeValue.address = env->buf[0];
    op.writeValue.value = 7;
    cgn_batch_mem_op_desc d = CGN_BATCH_MEM_OP_DESC_INIT;
    d.ops = &op;
    d.num_ops = 1;
    OK(cgn_graph_add_batch_mem_op(g, NULL, 0, &d, &n));
    cgn_exec *e;
    OK(cgn_graph_instantiate(g, &e));
    CUstreamBatchMemOpParams next = op;
    next.writeValue.value = 9;
    cgn_batch_mem_op_update u = CGN_BATCH_MEM_OP_UPDATE_INIT;
    cgn_batch_mem_op_update_set_ops(&u, &next, 1, NULL);
    refuse_next_exec_set(env, CUDA_ERROR_INVALID_VALUE);
    cgn_status st = cgn_batch_mem_op_exec_update(e, n, &u);
    refuse_done();
    assert_int_equal(st, CGN_ERROR_INVALID_VALUE);
    assert_non_null(strstr(cgn_last_error(),
                           "; the driver refused this change in the executable (fields set: ops "
                           "ops_owner); rules only the driver checks: field ops: rule: an "
                           "executable's operations must stay on memory of the context it was "
                           "instantiated with; nothing changed"));
    cgn_batch_mem_op_desc got;
    OK(cgn_batch_mem_op_exec_get(e, n, &got));
    assert_int_equal(got.ops[0].writeValue.value, 7);
    OK(cgn_exec_destroy(e));
    OK(cgn_graph_destroy(g));
}

/* ---- kernel argument blocks ------------------------------------------------------------------ */

/* A kernel of 17 parameters of 4 bytes each (registered with the fake): each argument takes 16
 * bytes of cgn's block, so the last one ends 16 * 16 + 4 bytes in. An argument-level update
 * copies the whole block, so every argument reads back intact. */
static void test_kernel_args_block_size(void **state) {
    cgn_test_env *env = *state;
    (void)env;
    enum { NUM = 17 };
    static CUfunction f;
    if (f == NULL) {
        size_t sizes[NUM];
        for (size_t i = 0; i < NUM; i++)
            sizes[i] = 4;
        f = cgn_fake_register_kernel("seventeen_u32", NUM, sizes, NULL, NULL);
        assert_non_null(f);
    }
    uint32_t values[NUM];
    cgn_arg args[NUM];
    for (uint32_t i = 0; i < NUM; i++) {
        values[i] = 0x01010101u * (i + 1);
        args[i] = (cgn_arg){&values[i], sizeof values[i], NULL};
    }
    cgn_graph *g;
    cgn_node *n;
    OK(cgn_graph_create(&g));
    cgn_kernel_desc d = CGN_KERNEL_DESC_INIT;
    d.kernel = (cgn_kernel){f, NULL};
    d.grid = (cgn_dim3){1, 1, 1};
    d.block = (cgn_dim3){1, 1, 1};
    d.args = args;
    d.num_args = NUM;
    OK(cgn_graph_add_kernel(g, NULL, 0, &d, &n));
    uint32_t first = 0xdeadbeefu;
    cgn_kernel_update u = CGN_KERNEL_UPDATE_INIT;
    cgn_kernel_update_set_arg(&u, 0, &first, sizeof first, NULL);
    OK(cgn_kernel_node_update(n, &u));
    cgn_kernel_desc got;
    OK(cgn_kernel_node_get(n, &got));
    assert_int_equal(got.num_args, NUM);
    for (uint32_t i = 0; i < NUM; i++) {
        uint32_t v;
        assert_int_equal(got.args[i].size, 4);
        memcpy(&v, got.args[i].value, 4);
        assert_int_equal(v, i == 0 ? first : values[i]);
    }
    OK(cgn_graph_destroy(g));
}

/* A driver reporting a kernel parameter of 0 bytes: adoption cannot copy the node's arguments;
 * it fails, naming the argument, and leaves nothing. */
static struct {
    cgn_driver_table table;
    const cgn_driver_table *inner;
} zero;

static CUresult zero_func_param(CUfunction f, size_t i, size_t *offset, size_t *size) {
    CUresult r = zero.inner->cuFuncGetParamInfo(f, i, offset, size);
    if (r == CUDA_SUCCESS && i == 1)
        *size = 0;
    return r;
}

static CUresult zero_kernel_param(CUkernel k, size_t i, size_t *offset, size_t *size) {
    CUresult r = zero.inner->cuKernelGetParamInfo(k, i, offset, size);
    if (r == CUDA_SUCCESS && i == 1)
        *size = 0;
    return r;
}

static void test_adopt_kernel_zero_size_param(void **state) {
    cgn_test_env *env = *state;
    CUgraph raw = raw_graph_of(env, 1, 1);
    zero.inner = env->backend->driver(env);
    zero.table = *zero.inner;
    zero.table.cuFuncGetParamInfo = zero_func_param;
    zero.table.cuKernelGetParamInfo = zero_kernel_param;
    cgn_fault_install(&zero.table);
    size_t live = cgn__handles_live();
    cgn_graph *g = NULL;
    cgn_status st = cgn_graph_adopt(raw, 0, &g);
    cgn_fault_install(zero.inner);
    assert_int_equal(st, CGN_ERROR_INVALID_ARGUMENT);
    assert_non_null(strstr(cgn_last_error(), "argument 1 has no value"));
    assert_null(g);
    assert_int_equal(cgn__handles_live(), live);
    CU_OK(zero.inner->cuGraphDestroy(raw));
}

/* ---- conditional nodes: the handle --------------------------------------------------------- */

static struct {
    cgn_driver_table table;
    const cgn_driver_table *inner;
    unsigned flags;
    unsigned default_value;
    int calls;
} spy;

static CUresult spy_handle_create(CUgraphConditionalHandle *h, CUgraph g, CUcontext ctx,
                                  unsigned default_value, unsigned flags) {
    spy.calls++;
    spy.flags = flags;
    spy.default_value = default_value;
    return spy.inner->cuGraphConditionalHandleCreate(h, g, ctx, default_value, flags);
}

static void spy_install(cgn_test_env *env) {
    memset(&spy, 0, sizeof spy);
    spy.inner = env->backend->driver(env);
    spy.table = *spy.inner;
    spy.table.cuGraphConditionalHandleCreate = spy_handle_create;
    cgn_fault_install(&spy.table);
}

/* handle_assign 1 creates the handle with CU_GRAPH_COND_ASSIGN_DEFAULT, 0 with no flag. */
static void test_conditional_handle_flags(void **state) {
    cgn_test_env *env = *state;
    cgn_graph *g;
    cgn_node *n;
    OK(cgn_graph_create(&g));
    spy_install(env);
    for (uint32_t assign = 0; assign <= 1; assign++) {
        cgn_conditional_desc d = CGN_CONDITIONAL_DESC_INIT;
        d.handle_default = 5;
        d.handle_assign = assign;
        OK(cgn_graph_add_conditional(g, NULL, 0, &d, &n));
        assert_int_equal(spy.calls, (int)assign + 1);
        assert_int_equal(spy.flags, assign ? CU_GRAPH_COND_ASSIGN_DEFAULT : 0);
        assert_int_equal(spy.default_value, 5);
    }
    cgn_fault_install(spy.inner);
    OK(cgn_graph_destroy(g));
}

/* A driver without cuGraphConditionalHandleCreate (or without cuGraphAddNode) has no conditional
 * nodes: refused as too old before any call, nothing added. */
static void test_conditional_needs_both_entries(void **state) {
    cgn_test_env *env = *state;
    cgn_graph *g;
    OK(cgn_graph_create(&g));
    for (int which = 0; which < 2; which++) {
        spy_install(env);
        if (which == 0)
            spy.table.cuGraphConditionalHandleCreate = NULL;
        else
            spy.table.cuGraphAddNode = NULL;
        cgn_fault_install(&spy.table);
        cgn_conditional_desc d = CGN_CONDITIONAL_DESC_INIT;
        cgn_node *n = NULL;
        cgn_status st = cgn_graph_add_conditional(g, NULL, 0, &d, &n);
        cgn_fault_install(spy.inner);
        assert_int_equal(st, CGN_ERROR_DRIVER_TOO_OLD);
        assert_non_null(strstr(cgn_last_error(), "conditional nodes (cuGraphConditionalHandleCreate) "
                                                 "need CUDA driver 12.3 or newer"));
        assert_null(n);
        assert_int_equal(spy.calls, 0);
        assert_int_equal(cgn_test_count_nodes(g), 0);
    }
    OK(cgn_graph_destroy(g));
}

/* The driver failing cuGraphConditionalHandleCreate fails the add, naming the call. */
static void test_conditional_handle_create_fails(void **state) {
    cgn_test_env *env = *state;
    (void)env;
    cgn_graph *g;
    OK(cgn_graph_create(&g));
    int seen = 0;
    for (long nth = 1; nth < 64; nth++) {
        cgn_conditional_desc d = CGN_CONDITIONAL_DESC_INIT;
        cgn_node *n = NULL;
        cgn_fault_arm(nth, CUDA_ERROR_OUT_OF_MEMORY);
        cgn_status st = cgn_graph_add_conditional(g, NULL, 0, &d, &n);
        cgn_fault_entry entry;
        int triggered = cgn_fault_triggered(&entry);
        cgn_fault_disarm();
        if (!triggered) {
            OK(st);
            break;
        }
        assert_int_not_equal(st, CGN_OK);
        assert_null(n);
        assert_int_equal(cgn_test_count_nodes(g), 0);
        if (entry == CGN_FAULT_cuGraphConditionalHandleCreate) {
            seen = 1;
            assert_int_equal(st, CGN_ERROR_DRIVER);
            assert_non_null(
                strstr(cgn_last_error(), "cgn_graph_add_conditional: cuGraphConditionalHandleCreate"));
        }
    }
    assert_true(seen);
    assert_int_equal(cgn_test_count_nodes(g), 1);
    OK(cgn_graph_destroy(g));
}

/* exec_get of a conditional node nested in another's body reads it (only updates of body nodes
 * are refused at executable level). */
static void test_conditional_exec_get_nested(void **state) {
    cgn_test_env *env = *state;
    (void)env;
    cgn_graph *g, *body, *inner_body;
    cgn_node *outer, *nested;
    OK(cgn_graph_create(&g));
    cgn_conditional_desc d = CGN_CONDITIONAL_DESC_INIT;
    d.handle_assign = 1;
    OK(cgn_graph_add_conditional(g, NULL, 0, &d, &outer));
    OK(cgn_conditional_node_body(outer, 0, &body));
    d.type = 1;
    d.handle_default = 0;
    OK(cgn_graph_add_conditional(body, NULL, 0, &d, &nested));
    OK(cgn_conditional_node_body(nested, 0, &inner_body));
    cgn_exec *e;
    OK(cgn_graph_instantiate(g, &e));
    cgn_conditional_desc got;
    OK(cgn_conditional_exec_get(e, nested, &got));
    assert_int_equal(got.type, 1);
    cgn_conditional_desc def;
    OK(cgn_conditional_node_get(nested, &def));
    assert_true(got.handle == def.handle && got.handle != 0);
    OK(cgn_conditional_exec_get(e, outer, &got));
    assert_int_equal(got.type, 0);
    OK(cgn_exec_destroy(e));
    OK(cgn_graph_destroy(g));
}

int main(void) {
#define T(fn) cmocka_unit_test_setup_teardown(fn, cgn_test_fixture_setup, cgn_test_fixture_teardown)
    const struct CMUnitTest tests[] = {
        T(test_types_argument_messages),
        T(test_memcpy_3d_overflow_messages),
        T(test_memcpy_3d_add_driver_failures),
        T(test_mem_alloc_device_round_trip),
        T(test_adopt_kernel_args_from_arena),
        T(test_mem_nodes_null_arguments),
        T(test_memcpy_3d_source_checks),
        T(test_memcpy_3d_row_bound),
        T(test_memcpy_3d_row_count_wraps),
        T(test_memcpy_3d_two_slices_do_not_fit),
        T(test_memcpy_3d_add_retains_owners),
        T(test_memcpy_3d_exec_fields),
        T(test_batch_mem_op_exec_refused_message),
        T(test_kernel_args_block_size),
        T(test_adopt_kernel_zero_size_param),
        T(test_conditional_handle_flags),
        T(test_conditional_needs_both_entries),
        T(test_conditional_handle_create_fails),
        T(test_conditional_exec_get_nested),
    };
#undef T
    return cmocka_run_group_tests(tests, NULL, NULL);
}
