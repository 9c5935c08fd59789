/* The survivors of the seventh fresh mutation sample (tools/mutate --sample 20 --seed 9, over
 * every file of runtime/ and generated/src/), on the fake driver: adoption of an empty graph
 * while slab-sized allocations fail, the copy of a source graph whose child-graph node comes
 * before other nodes, messages of refused calls (cgn_driver_version(NULL), a conditional node in
 * a child embedding, an embedded node the driver could not locate), the handle table running out
 * inside one adoption (growing, or rolled back when it cannot), refreshes keeping the owners of
 * unchanged values only (memcpy, external semaphore signal, batch memory operations) and
 * recording a replaced embedding whatever its handle, updates that set nothing or only an owner,
 * a memcpy update refused below 13.0, a 3D copy's executable update and its field names, and a
 * single destroyed-in-flight executable released by the next call. (Issue 8: test strength.)
 *
 * The test executable is linked with -Wl,--wrap=malloc,--wrap=calloc, so cgn's malloc and calloc
 * calls come here first: mallocs of a given size, and the handle table's chunks, can be made to
 * fail. */
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

/* ---- failing allocations of one size --------------------------------------------------------- */

void *__real_malloc(size_t size);
void *__wrap_malloc(size_t size);
void *__real_calloc(size_t n, size_t size);
void *__wrap_calloc(size_t n, size_t size);

static struct {
    size_t size;   /* 0: nothing fails; else every malloc of exactly this many bytes fails */
    size_t calls;  /* mallocs seen: proves the library's calls come here */
    size_t failed; /* mallocs made to fail */
} fail_malloc;

void *__wrap_malloc(size_t size) {
    fail_malloc.calls++;
    if (fail_malloc.size != 0 && size == fail_malloc.size) {
        fail_malloc.failed++;
        return NULL;
    }
    return __real_malloc(size);
}

/* Chunks of the handle table: calloc(CGN__CHUNK_SLOTS, sizeof(cgn__slot)). */
static struct {
    int fail;    /* the next chunk allocations fail */
    long grown;  /* chunk allocations that succeeded: the table grew */
    long failed; /* chunk allocations made to fail */
} chunks;

void *__wrap_calloc(size_t n, size_t size) {
    int chunk = n == CGN__CHUNK_SLOTS && size == sizeof(cgn__slot);
    if (chunk && chunks.fail) {
        chunks.failed++;
        return NULL;
    }
    void *p = __real_calloc(n, size);
    chunks.grown += chunk && p != NULL;
    return p;
}

/* ---- adopting an empty graph ----------------------------------------------------------------- */

/* The records of an adopted graph live in one slab: a 16-byte header (an atomic count rounded up
 * to 16) and the records. An empty graph has no records, so it needs no slab, and its adoption
 * must not fail because an allocation of the header's size does. */
static void test_adopt_empty_graph_without_slab(void **state) {
    cgn_test_env *env = *state;
    const cgn_driver_table *drv = env->backend->driver(env);
    CUgraph raw;
    CU_OK(drv->cuGraphCreate(&raw, 0));
    /* The wrapper sees cgn's allocations, and fails those of 16 bytes. */
    fail_malloc.calls = 0;
    fail_malloc.failed = 0;
    fail_malloc.size = 16;
    cgn_graph *g = NULL;
    cgn_status st = cgn_graph_adopt(raw, 0, &g);
    fail_malloc.size = 0;
    if (st != CGN_OK)
        fail_msg("cgn_graph_adopt: %s (%s)", cgn_status_name(st), cgn_last_error());
    assert_true(fail_malloc.calls > 0);
    size_t count = 4;
    cgn_node *nodes[4];
    OK(cgn_graph_nodes(g, nodes, &count));
    assert_int_equal(count, 0);
    /* The adopted graph is usable: a node added to it runs. */
    cgn_node *fill;
    cgn_memset_desc d = cgn_test_fill_desc(env, 0, 0x5c, 0);
    OK(cgn_graph_add_memset(g, NULL, 0, &d, &fill));
    cgn_exec *e;
    OK(cgn_graph_instantiate(g, &e));
    assert_int_equal(cgn_test_run_read(env, e, 0), 0x5c);
    OK(cgn_exec_destroy(e));
    OK(cgn_graph_destroy(g));
    CU_OK(drv->cuGraphDestroy(raw));
}

/* ---- copying a source whose child-graph node comes first ------------------------------------- */

/* A graph with one memset of `value` into test buffer `buf`. */
static cgn_graph *fill_graph(cgn_test_env *env, int buf, uint32_t value, cgn_node **fill) {
    cgn_graph *g;
    OK(cgn_graph_create(&g));
    cgn_memset_desc d = cgn_test_fill_desc(env, buf, value, 1);
    OK(cgn_graph_add_memset(g, NULL, 0, &d, fill));
    return g;
}

static cgn_node *add_child(cgn_graph *parent, cgn_graph *source, cgn_node *const *deps,
                           size_t num_deps) {
    cgn_child_graph_desc d = CGN_CHILD_GRAPH_DESC_INIT;
    d.graph = source;
    cgn_node *node;
    OK(cgn_graph_add_child_graph(parent, deps, num_deps, &d, &node));
    return node;
}

static void zero_buffers(cgn_test_env *env, int a, int b) {
    unsigned char zeros[CGN_TEST_BUF_SIZE] = {0};
    env->backend->write(env, env->buf[a], zeros, sizeof zeros);
    env->backend->write(env, env->buf[b], zeros, sizeof zeros);
}

static uint8_t read_byte(cgn_test_env *env, int buf) {
    unsigned char got[CGN_TEST_BUF_SIZE];
    env->backend->read(env, env->buf[buf], got, sizeof got);
    return got[0];
}

/* Source graph: child node c (embedding a memset into buffer 0), then a memset x into buffer 1
 * depending on c, then an empty node after x. Embedded in a parent, every one of the three has
 * its copy, with its dependencies, and the copy of x can be updated. */
static void test_copy_of_source_with_child_first(void **state) {
    cgn_test_env *env = *state;
    cgn_node *inner_fill;
    cgn_graph *inner = fill_graph(env, 0, 0x21, &inner_fill);
    cgn_graph *source;
    OK(cgn_graph_create(&source));
    cgn_node *c = add_child(source, inner, NULL, 0);
    cgn_node *x, *last;
    cgn_memset_desc d = cgn_test_fill_desc(env, 1, 0x43, 1);
    OK(cgn_graph_add_memset(source, &c, 1, &d, &x));
    OK(cgn_graph_add_empty(source, &x, 1, &last));

    cgn_graph *parent;
    OK(cgn_graph_create(&parent));
    cgn_node *top = add_child(parent, source, NULL, 0);
    cgn_graph *embedded;
    OK(cgn_child_graph_node_embedded(top, &embedded));
    cgn_node *copies[8];
    size_t count = 8;
    OK(cgn_graph_nodes(embedded, copies, &count));
    assert_int_equal(count, 3);
    cgn_node *copy_c, *copy_x, *copy_last;
    OK(cgn_child_graph_node_find(top, c, &copy_c));
    OK(cgn_child_graph_node_find(top, x, &copy_x));
    OK(cgn_child_graph_node_find(top, last, &copy_last));
    assert_ptr_equal(copies[0], copy_c);
    assert_ptr_equal(copies[1], copy_x);
    assert_ptr_equal(copies[2], copy_last);
    cgn_node *deps[2];
    size_t nd = 2;
    OK(cgn_node_dependencies(copy_x, deps, &nd));
    assert_int_equal(nd, 1);
    assert_ptr_equal(deps[0], copy_c);
    nd = 2;
    OK(cgn_node_dependencies(copy_last, deps, &nd));
    assert_int_equal(nd, 1);
    assert_ptr_equal(deps[0], copy_x);
    /* The nested copy is there too (copied from c's embedding). */
    cgn_node *c_fill, *copy_c_fill;
    OK(cgn_child_graph_node_find(c, inner_fill, &c_fill));
    OK(cgn_child_graph_node_find(copy_c, c_fill, &copy_c_fill));

    /* The copy of x is the embedding's: updating it changes what the parent writes. */
    cgn_memset_update u = CGN_MEMSET_UPDATE_INIT;
    cgn_memset_update_set_value(&u, 0x65, 1);
    OK(cgn_memset_node_update(copy_x, &u));
    cgn_exec *e;
    OK(cgn_graph_instantiate(parent, &e));
    zero_buffers(env, 0, 1);
    OK(env->backend->launch(env, e));
    assert_int_equal(read_byte(env, 0), 0x21);
    assert_int_equal(read_byte(env, 1), 0x65);
    OK(cgn_exec_destroy(e));
    /* The source is unchanged. */
    OK(cgn_graph_instantiate(source, &e));
    zero_buffers(env, 0, 1);
    OK(env->backend->launch(env, e));
    assert_int_equal(read_byte(env, 1), 0x43);
    OK(cgn_exec_destroy(e));
    OK(cgn_graph_destroy(parent));
    OK(cgn_graph_destroy(source));
    OK(cgn_graph_destroy(inner));
}

/* ---- messages of refused calls --------------------------------------------------------------- */

/* cgn_driver_version(NULL): CGN_ERROR_INVALID_ARGUMENT, naming the argument. */
static void test_driver_version_null_message(void **state) {
    (void)state;
    assert_int_equal(cgn_driver_version(NULL), CGN_ERROR_INVALID_ARGUMENT);
    assert_message("cgn_driver_version: version_out is NULL");
}

/* A conditional node added to the embedding of a child-graph node is refused before its handle
 * is created, naming that child node: CUDA made the embedding by cloning, and a cloned graph
 * cannot hold conditional nodes. */
static void test_conditional_in_child_embedding_message(void **state) {
    cgn_test_env *env = *state;
    cgn_node *fill;
    cgn_graph *source = fill_graph(env, 0, 0x11, &fill);
    cgn_graph *parent;
    OK(cgn_graph_create(&parent));
    cgn_node *child = add_child(parent, source, NULL, 0);
    cgn_graph *embedded;
    OK(cgn_child_graph_node_embedded(child, &embedded));
    cgn_conditional_desc d = CGN_CONDITIONAL_DESC_INIT;
    cgn_node *node = NULL;
    cgn_fault_reset_counts();
    assert_int_equal(cgn_graph_add_conditional(embedded, NULL, 0, &d, &node),
                     CGN_ERROR_NOT_SUPPORTED);
    assert_int_equal(cgn_fault_calls(CGN_FAULT_cuGraphConditionalHandleCreate), 0);
    assert_int_equal(cgn_fault_calls(CGN_FAULT_cuGraphAddNode), 0);
    char want[256];
    snprintf(want, sizeof want,
             "cgn_graph_add_conditional: the graph is embedded in child-graph node %p; CUDA does "
             "not allow conditional nodes in a child graph",
             (void *)child);
    assert_message(want);
    OK(cgn_graph_destroy(parent));
    OK(cgn_graph_destroy(source));
}

/* ---- the handle table growing inside one adoption -------------------------------------------- */

/* A raw graph of `num` empty nodes, no edges. */
static CUgraph raw_empty_nodes(const cgn_driver_table *drv, size_t num) {
    CUgraph raw;
    CU_OK(drv->cuGraphCreate(&raw, 0));
    for (size_t i = 0; i < num; i++) {
        CUgraphNode n;
        CU_OK(drv->cuGraphAddEmptyNode(&n, raw, NULL, 0));
    }
    return raw;
}

/* Free slots in the handle table: every chunk cgn allocated (all of them through the wrapper,
 * since the process began) less the live handles. */
static size_t free_slots(void) {
    assert_true(chunks.grown > 0);
    size_t capacity = (size_t)chunks.grown * CGN__CHUNK_SLOTS;
    assert_true(capacity > cgn__handles_live());
    return capacity - cgn__handles_live();
}

/* Sorts handles by value and checks no two are equal. */
static void assert_distinct(cgn_node **nodes, size_t count) {
    for (size_t i = 1; i < count; i++)
        for (size_t j = i; j > 0 && (uintptr_t)nodes[j - 1] > (uintptr_t)nodes[j]; j--) {
            cgn_node *t = nodes[j];
            nodes[j] = nodes[j - 1];
            nodes[j - 1] = t;
        }
    for (size_t i = 1; i < count; i++)
        assert_true(nodes[i - 1] != nodes[i]);
}

/* More nodes than the handle table has free slots, by a chunk and one (so it grows twice): their
 * handles are taken in one go, and the table grows part-way through, once its free list is
 * empty. Every node gets a live, distinct handle. */
static void adopt_grows_handle_table(cgn_test_env *env) {
    const cgn_driver_table *drv = env->backend->driver(env);
    size_t num = free_slots() + CGN__CHUNK_SLOTS + 1;
    CUgraph raw = raw_empty_nodes(drv, num);
    size_t live = cgn__handles_live();
    long grown = chunks.grown;
    cgn_graph *g;
    OK(cgn_graph_adopt(raw, 0, &g));
    assert_int_equal(chunks.grown, grown + 2);
    assert_int_equal(cgn__handles_live(), live + 1 + num);
    cgn_node **nodes = malloc(num * sizeof *nodes);
    assert_non_null(nodes);
    size_t count = num;
    OK(cgn_graph_nodes(g, nodes, &count));
    assert_int_equal(count, num);
    for (size_t i = 0; i < count; i++) {
        assert_true(cgn_node_is_alive(nodes[i]));
        CUgraphNode rn;
        OK(cgn_node_raw(nodes[i], &rn));
        assert_non_null(rn);
    }
    assert_distinct(nodes, count);
    free(nodes);
    OK(cgn_graph_destroy(g));
    assert_int_equal(cgn__handles_live(), live);
    CU_OK(drv->cuGraphDestroy(raw));
}

/* An adoption needing more slots than are free while the table cannot grow (its chunk
 * allocation fails): refused with CGN_ERROR_OUT_OF_MEMORY and the handle table's message, and the
 * slots taken before it ran out are put back: no handle is left live, and the next handles come
 * from the same free list. */
static void adopt_handle_table_cannot_grow(cgn_test_env *env) {
    const cgn_driver_table *drv = env->backend->driver(env);
    size_t num = free_slots() + 10; /* the graph's own handle takes one more */
    CUgraph raw = raw_empty_nodes(drv, num);
    size_t live = cgn__handles_live();
    /* The handle the next graph gets, before the failed adoption... */
    cgn_graph *probe;
    OK(cgn_graph_create(&probe));
    OK(cgn_graph_destroy(probe));
    cgn_graph *g = NULL;
    chunks.fail = 1;
    chunks.failed = 0;
    cgn_status st = cgn_graph_adopt(raw, 0, &g);
    chunks.fail = 0;
    assert_true(chunks.failed > 0);
    assert_int_equal(st, CGN_ERROR_OUT_OF_MEMORY);
    assert_message("cgn_graph_adopt: out of host memory for handles");
    assert_int_equal(cgn__handles_live(), live);
    /* ... and after it: the slot freed last is reused first either way, so a free list put back
     * exactly gives the probe's slot again (a newer generation of it). */
    cgn_graph *again;
    OK(cgn_graph_create(&again));
    assert_int_equal((uintptr_t)again & 0xffffffffu, (uintptr_t)probe & 0xffffffffu);
    OK(cgn_graph_destroy(again));
    /* With memory back, the same adoption works. */
    OK(cgn_graph_adopt(raw, 0, &g));
    cgn_node **nodes = malloc(num * sizeof *nodes);
    assert_non_null(nodes);
    size_t count = num;
    OK(cgn_graph_nodes(g, nodes, &count));
    assert_int_equal(count, num);
    assert_distinct(nodes, count);
    free(nodes);
    OK(cgn_graph_destroy(g));
    assert_int_equal(cgn__handles_live(), live);
    CU_OK(drv->cuGraphDestroy(raw));
}

/* Whether the table's first slot (index 0, handle low bits 1) holds a live handle. */
static int first_slot_live(void) {
    cgn__slot *s = cgn__handle_slot(0);
    assert_non_null(s);
    return (atomic_load(&s->tag) & ((1u << CGN__KIND_BITS) - 1)) != 0;
}

/* Makes the first slot live, as it is in a program whose first object lives on: graphs are
 * created until one gets it (returned; NULL when it was live already), the others destroyed.
 * The free list then ends at no slot (0) rather than passing through the first one. */
static cgn_graph *hold_first_slot(void) {
    if (first_slot_live())
        return NULL;
    size_t cap = free_slots();
    cgn_graph **made = malloc(cap * sizeof *made);
    assert_non_null(made);
    cgn_graph *holder = NULL;
    size_t n = 0;
    while (holder == NULL && n < cap) {
        cgn_graph *g;
        OK(cgn_graph_create(&g));
        if (((uintptr_t)g & 0xffffffffu) == 1)
            holder = g;
        else
            made[n++] = g;
    }
    assert_non_null(holder);
    while (n > 0)
        OK(cgn_graph_destroy(made[--n]));
    free(made);
    assert_true(first_slot_live());
    return holder;
}

/* Both, in one test and last: a table that does not grow or roll back right crashes with its
 * mutex held, which would hang any test after it. */
static void test_adopt_handle_table_runs_out(void **state) {
    cgn_graph *holder = hold_first_slot();
    adopt_handle_table_cannot_grow(*state);
    adopt_grows_handle_table(*state);
    if (holder != NULL)
        OK(cgn_graph_destroy(holder));
}

/* ---- a node of a new embedding the driver could not locate ----------------------------------- */

static cgn_driver_table unfound_table;

static CUresult unfound_in_clone(CUgraphNode *out, CUgraphNode original, CUgraph clone) {
    (void)original;
    (void)clone;
    *out = NULL;
    return CUDA_ERROR_INVALID_VALUE;
}

/* When cuGraphNodeFindInClone fails after a child node's graph was replaced, the replacement
 * stands, and the new embedding's node reports it, by name, when updated or read: nothing is
 * asked of the driver with a node it never gave. */
static void test_unlocated_embedded_node_message(void **state) {
    cgn_test_env *env = *state;
    cgn_node *fill0, *fill1;
    cgn_graph *g0 = fill_graph(env, 0, 0x11, &fill0);
    cgn_graph *g1 = fill_graph(env, 1, 0x22, &fill1);
    cgn_graph *parent;
    OK(cgn_graph_create(&parent));
    cgn_node *child = add_child(parent, g0, NULL, 0);

    const cgn_driver_table *inner = cgn__driver;
    unfound_table = *inner;
    unfound_table.cuGraphNodeFindInClone = unfound_in_clone;
    cgn_driver_install(&unfound_table);
    cgn_child_graph_update u = CGN_CHILD_GRAPH_UPDATE_INIT;
    cgn_child_graph_update_set_graph(&u, g1);
    cgn_status st = cgn_child_graph_node_update(child, &u);
    cgn_driver_install(inner);
    OK(st);

    cgn_node *lost;
    OK(cgn_child_graph_node_find(child, fill1, &lost));
    char want[512];
    snprintf(want, sizeof want,
             "cgn_memset_node_update: node %p of an embedded graph could not be located in the "
             "new embedding (cuGraphNodeFindInClone failed after the replacement)",
             (void *)lost);
    cgn_memset_update mu = CGN_MEMSET_UPDATE_INIT;
    cgn_memset_update_set_value(&mu, 0x33, 1);
    cgn_fault_reset_counts();
    assert_int_equal(cgn_memset_node_update(lost, &mu), CGN_ERROR_DRIVER);
    assert_message(want);
    assert_int_equal(cgn_fault_setter_calls(), 0);
    snprintf(want, sizeof want,
             "cgn_memset_node_get: node %p of an embedded graph could not be located in the new "
             "embedding (cuGraphNodeFindInClone failed after the replacement)",
             (void *)lost);
    cgn_memset_desc got;
    assert_int_equal(cgn_memset_node_get(lost, &got), CGN_ERROR_DRIVER);
    assert_message(want);
    OK(cgn_graph_destroy(parent));
    OK(cgn_graph_destroy(g0));
    OK(cgn_graph_destroy(g1));
}

/* ---- refreshes: owners kept for unchanged values, dropped for changed ones ------------------ */

static CUgraphNode raw_of(cgn_node *n) {
    CUgraphNode raw;
    OK(cgn_node_raw(n, &raw));
    return raw;
}

/* A memcpy with both owners: a refresh of the unchanged node keeps both; after the raw node's
 * source changed through the driver, the refresh reads the new source without its owner and
 * keeps the destination's. */
static void test_refresh_memcpy_owners(void **state) {
    cgn_test_env *env = *state;
    const cgn_driver_table *drv = env->backend->driver(env);
    cgn_graph *g;
    cgn_node *n;
    OK(cgn_graph_create(&g));
    cgn_memcpy_desc d = CGN_MEMCPY_DESC_INIT;
    d.dst = env->buf[1];
    d.dst_owner = env->owner[1];
    d.src = env->buf[0];
    d.src_owner = env->owner[0];
    d.size = 8;
    OK(cgn_graph_add_memcpy(g, NULL, 0, &d, &n));
    OK(cgn_node_refresh(n));
    cgn_memcpy_desc got;
    OK(cgn_memcpy_node_get(n, &got));
    assert_ptr_equal(got.src_owner, env->owner[0]);
    assert_ptr_equal(got.dst_owner, env->owner[1]);

    CUgraphNodeParams p;
    assert_int_equal(cgn_fake_node_params(raw_of(n), &p), 1);
    p.memcpy.copyParams.srcDevice = env->buf[2];
    CU_OK(drv->cuGraphNodeSetParams(raw_of(n), &p));
    OK(cgn_node_refresh(n));
    OK(cgn_memcpy_node_get(n, &got));
    assert_int_equal(got.src, env->buf[2]);
    assert_null(got.src_owner);
    assert_int_equal(got.dst, env->buf[1]);
    assert_ptr_equal(got.dst_owner, env->owner[1]);
    OK(cgn_graph_destroy(g));
}

/* An external semaphore signal node of three semaphores with an owner: kept by a refresh of the
 * unchanged node, dropped once the driver's node signals another semaphore last (the same count,
 * only the third entry differs). */
static void test_refresh_ext_sem_signal_owner(void **state) {
    cgn_test_env *env = *state;
    const cgn_driver_table *drv = env->backend->driver(env);
    cgn_graph *g;
    cgn_node *n;
    OK(cgn_graph_create(&g));
    CUexternalSemaphore sems[3] = {cgn_test_sem(env, 0), cgn_test_sem(env, 1),
                                   cgn_test_sem(env, 0)};
    assert_ptr_not_equal(sems[0], sems[1]);
    CUDA_EXTERNAL_SEMAPHORE_SIGNAL_PARAMS sig[3];
    memset(sig, 0, sizeof sig);
    for (int i = 0; i < 3; i++)
        sig[i].params.fence.value = 10 + (unsigned)i;
    cgn_ext_sem_signal_desc d = CGN_EXT_SEM_SIGNAL_DESC_INIT;
    d.sems = sems;
    d.sems_params = sig;
    d.num_sems = 3;
    d.sems_owner = env->owner[0];
    OK(cgn_graph_add_ext_sem_signal(g, NULL, 0, &d, &n));
    OK(cgn_node_refresh(n));
    cgn_ext_sem_signal_desc got;
    OK(cgn_ext_sem_signal_node_get(n, &got));
    assert_ptr_equal(got.sems_owner, env->owner[0]);

    CUgraphNodeParams p;
    assert_int_equal(cgn_fake_node_params(raw_of(n), &p), 1);
    CUexternalSemaphore other[3] = {sems[0], sems[1], sems[1]};
    CUDA_EXTERNAL_SEMAPHORE_SIGNAL_PARAMS same[3];
    memcpy(same, sig, sizeof same);
    p.extSemSignal.extSemArray = other;
    p.extSemSignal.paramsArray = same;
    CU_OK(drv->cuGraphNodeSetParams(raw_of(n), &p));
    OK(cgn_node_refresh(n));
    OK(cgn_ext_sem_signal_node_get(n, &got));
    assert_int_equal(got.num_sems, 3);
    assert_ptr_equal(got.sems[2], sems[1]);
    assert_null(got.sems_owner);
    OK(cgn_graph_destroy(g));
}

/* A batch of memory operations with an owner: a refresh of the unchanged node keeps it. */
static void test_refresh_batch_mem_op_owner(void **state) {
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
    d.ops_owner = env->owner[0];
    OK(cgn_graph_add_batch_mem_op(g, NULL, 0, &d, &n));
    OK(cgn_node_refresh(n));
    cgn_batch_mem_op_desc got;
    OK(cgn_batch_mem_op_node_get(n, &got));
    assert_int_equal(got.num_ops, 1);
    assert_int_equal(got.ops[0].writeValue.value, 7);
    assert_ptr_equal(got.ops_owner, env->owner[0]);
    OK(cgn_graph_destroy(g));
}

/* ---- updates --------------------------------------------------------------------------------- */

/* An executable-level batch update that sets nothing succeeds without a driver call and changes
 * nothing. */
static void test_batch_exec_update_of_nothing(void **state) {
    cgn_test_env *env = *state;
    cgn_graph *g;
    cgn_node *n;
    cgn_exec *e;
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
    OK(cgn_graph_instantiate(g, &e));
    cgn_batch_mem_op_update u = CGN_BATCH_MEM_OP_UPDATE_INIT;
    cgn_fault_reset_counts();
    OK(cgn_batch_mem_op_exec_update(e, n, &u));
    assert_int_equal(cgn_fault_total_calls(), 0);
    cgn_batch_mem_op_desc got;
    OK(cgn_batch_mem_op_exec_get(e, n, &got));
    assert_int_equal(got.num_ops, 1);
    assert_int_equal(got.ops[0].writeValue.value, 7);
    OK(cgn_exec_destroy(e));
    OK(cgn_graph_destroy(g));
}

/* sems_owner without sems is refused at both levels, naming the call. */
static void test_ext_sem_wait_owner_without_sems(void **state) {
    cgn_test_env *env = *state;
    cgn_graph *g;
    cgn_node *n;
    cgn_exec *e;
    OK(cgn_graph_create(&g));
    CUexternalSemaphore sems[1] = {cgn_test_sem(env, 0)};
    CUDA_EXTERNAL_SEMAPHORE_WAIT_PARAMS wp[1];
    memset(wp, 0, sizeof wp);
    cgn_ext_sem_wait_desc d = CGN_EXT_SEM_WAIT_DESC_INIT;
    d.sems = sems;
    d.sems_params = wp;
    d.num_sems = 1;
    OK(cgn_graph_add_ext_sem_wait(g, NULL, 0, &d, &n));
    OK(cgn_graph_instantiate(g, &e));
    cgn_ext_sem_wait_update u = CGN_EXT_SEM_WAIT_UPDATE_INIT;
    u.set = CGN_EXT_SEM_WAIT_SET_SEMS_OWNER;
    u.sems_owner = env->owner[0];
    long refs = owner_refs(env->owner[0]);
    cgn_fault_reset_counts();
    assert_int_equal(cgn_ext_sem_wait_node_update(n, &u), CGN_ERROR_MISSING_FIELD);
    assert_message("cgn_ext_sem_wait_node_update: sems_owner requires sems");
    assert_int_equal(cgn_ext_sem_wait_exec_update(e, n, &u), CGN_ERROR_MISSING_FIELD);
    assert_message("cgn_ext_sem_wait_exec_update: sems_owner requires sems");
    assert_int_equal(cgn_fault_setter_calls(), 0);
    assert_int_equal(owner_refs(env->owner[0]), refs);
    cgn_ext_sem_wait_desc got;
    OK(cgn_ext_sem_wait_exec_get(e, n, &got));
    assert_null(got.sems_owner);
    OK(cgn_exec_destroy(e));
    OK(cgn_graph_destroy(g));
}

/* On a driver older than 13.0 (where a memcpy update runs in the node's context), a memcpy
 * update the rules refuse stays refused: size 0. */
static void test_memcpy_update_refused_before_13(void **state) {
    cgn_test_env *env = *state;
    cgn_graph *g;
    cgn_node *n;
    OK(cgn_graph_create(&g));
    cgn_memcpy_desc d = CGN_MEMCPY_DESC_INIT;
    d.dst = env->buf[1];
    d.src = env->buf[0];
    d.size = 8;
    OK(cgn_graph_add_memcpy(g, NULL, 0, &d, &n));
    cgn_fault_set_version(12080);
    cgn_memcpy_update u = CGN_MEMCPY_UPDATE_INIT;
    cgn_memcpy_update_set_size(&u, 0);
    cgn_fault_reset_counts();
    cgn_status st = cgn_memcpy_node_update(n, &u);
    long setters = cgn_fault_setter_calls();
    cgn_fault_set_version(13000);
    assert_int_equal(st, CGN_ERROR_INVALID_VALUE);
    assert_message("cgn_memcpy_node_update: size must be at least 1");
    assert_int_equal(setters, 0);
    cgn_memcpy_desc got;
    OK(cgn_memcpy_node_get(n, &got));
    assert_int_equal(got.size, 8);
    OK(cgn_graph_destroy(g));
}

/* Makes the call fail at its node setter with `result` (arming each driver call in turn until
 * that one is hit); returns the call's status (as in test_strength_messages). */
#define REFUSE_EXEC_SET(result, call_expr, st_out)                                                 \
    do {                                                                                           \
        int hit_ = 0;                                                                              \
        for (long k_ = 1; k_ < 64 && !hit_; k_++) {                                                \
            cgn_fault_arm(k_, (result));                                                           \
            (st_out) = (call_expr);                                                                \
            cgn_fault_disarm();                                                                    \
            cgn_fault_entry entry_;                                                                \
            if (!cgn_fault_triggered(&entry_))                                                     \
                fail_msg("%s made no node setter call", #call_expr);                               \
            hit_ = cgn_fault_is_setter(entry_);                                                    \
        }                                                                                          \
        assert_true(hit_);                                                                         \
    } while (0)

/* A 3D copy with a source offset (src_x_in_bytes 4 in rows of 8 bytes). */
static cgn_memcpy_3d_desc offset_3d(cgn_test_env *env) {
    cgn_memcpy_3d_desc d = CGN_MEMCPY_3D_DESC_INIT;
    d.dst = env->buf[1];
    d.dst_pitch = 8;
    d.dst_height = 1;
    d.src = env->buf[0];
    d.src_pitch = 8;
    d.src_height = 1;
    d.src_x_in_bytes = 4;
    d.width_in_bytes = 4;
    return d;
}

/* An executable-level 3D copy update of the source address keeps the executable's other fields
 * (src_x_in_bytes among them); a change the driver refuses names the fields set. */
static void test_memcpy_3d_exec_update_fields(void **state) {
    cgn_test_env *env = *state;
    cgn_graph *g;
    cgn_node *n;
    cgn_exec *e;
    OK(cgn_graph_create(&g));
    cgn_memcpy_3d_desc d = offset_3d(env);
    OK(cgn_graph_add_memcpy_3d(g, NULL, 0, &d, &n));
    OK(cgn_graph_instantiate(g, &e));
    cgn_memcpy_3d_update u = CGN_MEMCPY_3D_UPDATE_INIT;
    cgn_memcpy_3d_update_set_src(&u, env->buf[2], NULL);
    OK(cgn_memcpy_3d_exec_update(e, n, &u));
    cgn_memcpy_3d_desc got;
    OK(cgn_memcpy_3d_exec_get(e, n, &got));
    assert_int_equal(got.src, env->buf[2]);
    assert_int_equal(got.src_x_in_bytes, 4);
    assert_int_equal(got.src_pitch, 8);
    assert_int_equal(got.width_in_bytes, 4);

    cgn_memcpy_3d_update both = CGN_MEMCPY_3D_UPDATE_INIT;
    cgn_memcpy_3d_update_set_src(&both, env->buf[0], NULL);
    cgn_memcpy_3d_update_set_dst_pitch(&both, 16);
    cgn_status st = CGN_OK;
    REFUSE_EXEC_SET(CUDA_ERROR_INVALID_VALUE, cgn_memcpy_3d_exec_update(e, n, &both), st);
    assert_int_equal(st, CGN_ERROR_INVALID_VALUE);
    assert_message("cgn_memcpy_3d_exec_update: cuGraphExecMemcpyNodeSetParams returned "
                   "CUDA_ERROR_INVALID_VALUE (1); the driver refused this change in the executable "
                   "(fields set: dst_pitch src src_owner); rules only the driver checks: field "
                   "src: rule: an executable's copy keeps its operands on the devices and contexts "
                   "they were allocated in; nothing changed");
    OK(cgn_memcpy_3d_exec_get(e, n, &got));
    assert_int_equal(got.src, env->buf[2]);
    assert_int_equal(got.dst_pitch, 8);
    OK(cgn_exec_destroy(e));
    OK(cgn_graph_destroy(g));
}

/* ---- the graveyard --------------------------------------------------------------------------- */

static int graveyard_releases;
static void count_graveyard_release(void *resource) {
    (void)resource;
    graveyard_releases++;
}

/* One executable destroyed while its launch is in flight holds its owner (one grave). Once the
 * launch completed, the next cgn calls release it (every call that starts with cgn's pending
 * work), without a cgn_collect(). */
static void test_single_grave_collected_by_next_call(void **state) {
    cgn_test_env *env = *state;
    cgn_owner *o;
    OK(cgn_owner_create(NULL, count_graveyard_release, &o));
    graveyard_releases = 0;
    cgn_graph *g;
    cgn_node *n;
    cgn_exec *e;
    cgn_test_fill_graph(env, &g, &n, &e);
    cgn_memset_update u = CGN_MEMSET_UPDATE_INIT;
    cgn_memset_update_set_dst(&u, env->buf[1], o);
    OK(cgn_memset_exec_update(e, n, &u));
    OK(cgn_owner_release(o));
    assert_true(env->backend->hold(env));
    OK(env->backend->launch_async(env, e));
    OK(cgn_exec_destroy(e));
    assert_int_equal(atomic_load(&cgn__pending.num_graves), 1);
    env->backend->release(env);
    assert_int_equal(graveyard_releases, 0);
    cgn_graph *a, *b;
    OK(cgn_graph_create(&a));
    OK(cgn_graph_create(&b));
    assert_int_equal(atomic_load(&cgn__pending.num_graves), 0);
    assert_int_equal(graveyard_releases, 1);
    OK(cgn_graph_destroy(a));
    OK(cgn_graph_destroy(b));
    OK(cgn_graph_destroy(g));
}

/* ---- refreshing a child node whose embedding was replaced behind cgn's back ------------------ */

/* The raw child node is made to embed graphs of 2, 3, ... empty nodes in turn (with
 * cuGraphNodeSetParams); after each, cgn_node_refresh records the new embedding, whatever the
 * order of the driver's handles: the embedded graph is a new one whenever its handle differs,
 * above or below the one recorded. (With glibc's allocator the fake's clones reuse freed memory,
 * so some replacement lands below; under ASan, which does not reuse it soon, none may.) */
static void test_refresh_replaced_embedding_any_handle(void **state) {
    cgn_test_env *env = *state;
    const cgn_driver_table *drv = env->backend->driver(env);
    cgn_graph *g;
    cgn_node *child;
    OK(cgn_graph_create(&g));
    cgn_child_graph_desc d = CGN_CHILD_GRAPH_DESC_INIT;
    d.graph = cgn_test_graph(env, 0);
    OK(cgn_graph_add_child_graph(g, NULL, 0, &d, &child));
    CUgraphNode raw_child = raw_of(child);
    CUgraph recorded;
    CU_OK(drv->cuGraphChildGraphNodeGetGraph(raw_child, &recorded));
    for (size_t i = 0; i < 8; i++) {
        size_t num = i + 2;
        CUgraph other = raw_empty_nodes(drv, num);
        CUgraphNodeParams p;
        memset(&p, 0, sizeof p);
        p.type = CU_GRAPH_NODE_TYPE_GRAPH;
        p.graph.graph = other;
        CU_OK(drv->cuGraphNodeSetParams(raw_child, &p));
        CU_OK(drv->cuGraphDestroy(other));
        CUgraph now;
        CU_OK(drv->cuGraphChildGraphNodeGetGraph(raw_child, &now));
        assert_ptr_not_equal(now, recorded);
        OK(cgn_node_refresh(child));
        cgn_graph *embedded;
        OK(cgn_child_graph_node_embedded(child, &embedded));
        assert_int_equal(cgn_test_count_nodes(embedded), num);
        recorded = now;
    }
    OK(cgn_graph_destroy(g));
}

int main(void) {
#define T(fn) cmocka_unit_test_setup_teardown(fn, cgn_test_fixture_setup, cgn_test_fixture_teardown)
    const struct CMUnitTest tests[] = {
        T(test_adopt_empty_graph_without_slab),
        T(test_copy_of_source_with_child_first),
        T(test_driver_version_null_message),
        T(test_conditional_in_child_embedding_message),
        T(test_unlocated_embedded_node_message),
        T(test_refresh_memcpy_owners),
        T(test_refresh_ext_sem_signal_owner),
        T(test_refresh_batch_mem_op_owner),
        T(test_batch_exec_update_of_nothing),
        T(test_ext_sem_wait_owner_without_sems),
        T(test_memcpy_update_refused_before_13),
        T(test_memcpy_3d_exec_update_fields),
        T(test_single_grave_collected_by_next_call),
        T(test_refresh_replaced_embedding_any_handle),
        T(test_adopt_handle_table_runs_out), /* last: see there */
    };
#undef T
    return cmocka_run_group_tests(tests, NULL, NULL);
}
