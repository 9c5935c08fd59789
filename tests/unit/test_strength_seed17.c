/* The survivors of a fresh mutation spot check of the runtime and the generated sources
 * (tools/mutate over the .c files of runtime/ and generated/src/, --sample 2 --seed 17), on the
 * fake driver: a refresh of an external semaphore wait node keeping its owner only while the
 * driver's semaphores are the same; a nested embedding whose graph the driver could not give
 * left unlocated, whatever the failed call wrote; a conditional add whose body handles run out
 * part-way refused, with nothing added. (Issue 8: test strength.)
 *
 * The test executable is linked with -Wl,--wrap=calloc, so the handle table's chunk
 * allocations come here first and can be made to fail. */
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

/* ---- the handle table's chunks ---------------------------------------------------------------- */

void *__real_calloc(size_t n, size_t size);
void *__wrap_calloc(size_t n, size_t size);

/* While set, every chunk allocation of the handle table (calloc(CGN__CHUNK_SLOTS,
 * sizeof(cgn__slot))) fails; failed counts them. */
static struct {
    int fail;
    long failed;
} chunks;

void *__wrap_calloc(size_t n, size_t size) {
    if (chunks.fail && n == CGN__CHUNK_SLOTS && size == sizeof(cgn__slot)) {
        chunks.failed++;
        return NULL;
    }
    return __real_calloc(n, size);
}

/* ---- a refresh of an external semaphore wait node and its owner ------------------------------ */

/* A wait node on two semaphores with an owner. A refresh of the unchanged node keeps the owner
 * (the semaphores the driver reports are the ones it covers), and the node still holds it when
 * the caller lets go of its own reference. Once the driver's node waits on only the first of
 * them (same prefix, one fewer), the refresh reads that without the owner. */
static void test_refresh_ext_sem_wait_owner(void **state) {
    cgn_test_env *env = *state;
    const cgn_driver_table *drv = env->backend->driver(env);
    cgn_graph *g;
    cgn_node *n;
    OK(cgn_graph_create(&g));
    CUexternalSemaphore sems[2] = {cgn_test_sem(env, 0), cgn_test_sem(env, 1)};
    CUDA_EXTERNAL_SEMAPHORE_WAIT_PARAMS wp[2];
    memset(wp, 0, sizeof wp);
    wp[0].params.fence.value = 30;
    wp[1].params.fence.value = 31;
    cgn_ext_sem_wait_desc d = CGN_EXT_SEM_WAIT_DESC_INIT;
    d.sems = sems;
    d.sems_params = wp;
    d.num_sems = 2;
    d.sems_owner = env->owner[0];
    OK(cgn_graph_add_ext_sem_wait(g, NULL, 0, &d, &n));

    OK(cgn_node_refresh(n));
    cgn_ext_sem_wait_desc got;
    OK(cgn_ext_sem_wait_node_get(n, &got));
    assert_int_equal(got.num_sems, 2);
    assert_ptr_equal(got.sems_owner, env->owner[0]);
    /* The node's reference is the only one left: nothing is released yet. */
    cgn_test_env_drop_owners(env);
    cgn_collect();
    assert_int_equal(env->released[0], 0);

    /* The driver's node now waits on sems[0] alone, with the same params. */
    CUgraphNodeParams p;
    assert_int_equal(cgn_fake_node_params(raw_of(n), &p), 1);
    p.extSemWait.numExtSems = 1;
    CU_OK(drv->cuGraphNodeSetParams(raw_of(n), &p));
    OK(cgn_node_refresh(n));
    OK(cgn_ext_sem_wait_node_get(n, &got));
    assert_int_equal(got.num_sems, 1);
    assert_ptr_equal(got.sems[0], sems[0]);
    assert_null(got.sems_owner);
    OK(cgn_graph_destroy(g));
    assert_true(cgn_test_wait_released(env, 0, 1));
}

/* ---- a nested embedding the driver could not give ------------------------------------------- */

static const cgn_driver_table *real_table;
static cgn_driver_table writing_table;
static CUgraphNode outer_raw; /* the one node the stand-in answers for */
static CUgraph decoy;         /* what it writes before failing for any other node */

/* cuGraphChildGraphNodeGetGraph answering for outer_raw only; for any other node it writes
 * decoy into the output and fails (nothing in CUDA's API says a failed call leaves it alone). */
static CUresult child_graph_writes_then_fails(CUgraphNode node, CUgraph *graph_out) {
    if (node == outer_raw)
        return real_table->cuGraphChildGraphNodeGetGraph(node, graph_out);
    *graph_out = decoy;
    return CUDA_ERROR_INVALID_VALUE;
}

/* Child node k of a parent embeds a graph that itself has a child node (of a graph with one
 * memset). k's graph is replaced while the driver cannot give the nested child node's graph:
 * the nested embedding is left unlocated (its instantiation reports it), not pointed at what
 * the failed call wrote. */
static void test_nested_embedding_ignores_failed_output(void **state) {
    cgn_test_env *env = *state;
    const cgn_driver_table *drv = env->backend->driver(env);
    cgn_graph *leaf, *mid, *parent, *repl;
    cgn_node *fill, *leaf_node, *k, *repl_child, *nested;
    OK(cgn_graph_create(&leaf));
    cgn_memset_desc md = cgn_test_fill_desc(env, 0, 0x31, 0);
    OK(cgn_graph_add_memset(leaf, NULL, 0, &md, &fill));
    cgn_child_graph_desc cd = CGN_CHILD_GRAPH_DESC_INIT;
    cd.graph = leaf;
    OK(cgn_graph_create(&mid));
    OK(cgn_graph_add_child_graph(mid, NULL, 0, &cd, &leaf_node));
    OK(cgn_graph_create(&parent));
    cd.graph = mid;
    OK(cgn_graph_add_child_graph(parent, NULL, 0, &cd, &k));
    /* The replacement: a graph with a child node of leaf, too. */
    OK(cgn_graph_create(&repl));
    cd.graph = leaf;
    OK(cgn_graph_add_child_graph(repl, NULL, 0, &cd, &repl_child));

    CU_OK(drv->cuGraphCreate(&decoy, 0));
    outer_raw = raw_of(k);
    real_table = cgn__driver;
    writing_table = *real_table;
    writing_table.cuGraphChildGraphNodeGetGraph = child_graph_writes_then_fails;
    cgn_driver_install(&writing_table);
    cgn_child_graph_update u = CGN_CHILD_GRAPH_UPDATE_INIT;
    u.set = CGN_CHILD_GRAPH_SET_GRAPH;
    u.graph = repl;
    cgn_status st = cgn_child_graph_node_update(k, &u);
    cgn_driver_install(real_table);
    OK(st);

    /* The outer embedding was located; the nested child node too (cuGraphNodeFindInClone), but
     * not its graph. */
    cgn_graph *embedded, *nested_embedded;
    OK(cgn_child_graph_node_embedded(k, &embedded));
    assert_non_null(cgn__graph_record(embedded)->raw);
    OK(cgn_child_graph_node_find(k, repl_child, &nested));
    OK(cgn_child_graph_node_embedded(nested, &nested_embedded));
    assert_null(cgn__graph_record(nested_embedded)->raw);
    cgn_exec *e = NULL;
    assert_int_equal(cgn_graph_instantiate(nested_embedded, &e), CGN_ERROR_DRIVER);
    char want[512];
    snprintf(want, sizeof want,
             "cgn_graph_instantiate: embedded graph %p could not be located after its child "
             "node was replaced",
             (void *)nested_embedded);
    cgn_test_assert_message(want);
    assert_null(e);

    OK(cgn_graph_destroy(parent));
    OK(cgn_graph_destroy(repl));
    OK(cgn_graph_destroy(mid));
    OK(cgn_graph_destroy(leaf));
    CU_OK(drv->cuGraphDestroy(decoy));
}

/* ---- a conditional add whose body handles run out --------------------------------------------- */

/* Takes every free slot of the handle table (it cannot grow meanwhile); *count receives how
 * many were taken. */
static cgn__handle *fill_handle_table(size_t *count) {
    size_t cap = 1024, used = 0;
    cgn__handle *taken = malloc(cap * sizeof *taken);
    assert_non_null(taken);
    chunks.fail = 1;
    chunks.failed = 0;
    for (;;) {
        if (used == cap) {
            cap *= 2;
            taken = realloc(taken, cap * sizeof *taken);
            assert_non_null(taken);
        }
        if (cgn__handle_new(CGN__KIND_GRAPH, NULL, &taken[used], "fill") != CGN_OK)
            break;
        used++;
    }
    assert_int_equal(chunks.failed, 1); /* it stopped because the table was full */
    *count = used;
    return taken;
}

/* A SWITCH node of three bodies with room in the handle table for the node and its first body
 * only: the second body's handle cannot be had, so the add is refused with the handle table's
 * message. The first body is discarded, no node is added, no handle stays taken, and the driver
 * was not asked for a conditional handle (CUDA cannot destroy one). With memory back, the same
 * add works and has its three bodies. */
static void test_conditional_bodies_out_of_handles(void **state) {
    (void)state;
    cgn_graph *g;
    OK(cgn_graph_create(&g));
    cgn_conditional_desc d = CGN_CONDITIONAL_DESC_INIT;
    d.type = 2; /* SWITCH */
    d.size = 3;
    size_t num_taken;
    cgn__handle *taken = fill_handle_table(&num_taken);
    assert_true(num_taken >= 2);
    cgn__handles_free(&taken[num_taken - 2], 2); /* room for the node and one body */
    num_taken -= 2;
    size_t live = cgn__handles_live();

    cgn_fault_reset_counts();
    cgn_node *n = NULL;
    cgn_status st = cgn_graph_add_conditional(g, NULL, 0, &d, &n);
    chunks.fail = 0;
    assert_int_equal(st, CGN_ERROR_OUT_OF_MEMORY);
    cgn_test_assert_message("cgn_graph_add_conditional: out of host memory for handles");
    assert_null(n);
    assert_int_equal(cgn_test_count_nodes(g), 0);
    assert_int_equal(cgn__handles_live(), live);
    assert_int_equal(cgn_fault_calls(CGN_FAULT_cuGraphConditionalHandleCreate), 0);
    assert_int_equal(cgn_fake_graph_node_count(cgn__graph_record(g)->raw), 0);

    cgn__handles_free(taken, num_taken);
    free(taken);
    OK(cgn_graph_add_conditional(g, NULL, 0, &d, &n));
    for (uint32_t i = 0; i < 3; i++) {
        cgn_graph *body;
        OK(cgn_conditional_node_body(n, i, &body));
        assert_non_null(body);
    }
    OK(cgn_graph_destroy(g));
}

int main(void) {
#define T(fn) cmocka_unit_test_setup_teardown(fn, cgn_test_fixture_setup, cgn_test_fixture_teardown)
    const struct CMUnitTest tests[] = {
        T(test_refresh_ext_sem_wait_owner),
        T(test_nested_embedding_ignores_failed_output),
        T(test_conditional_bodies_out_of_handles),
    };
#undef T
    return cmocka_run_group_tests(tests, NULL, NULL);
}
