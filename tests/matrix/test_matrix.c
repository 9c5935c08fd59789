/* The generated case matrices through every scenario. The same source runs on the fake driver
 * (label unit) and on a GPU (label gpu); cases prove their effect by what old and new
 * executables write into the test buffers. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "cgn_fault.h"
#include "cgn_test_cases.h"
#include "runtime.h"

typedef struct matrix_param {
    const cgn_test_type *type;
    const cgn_test_case *tc;
    cgn_test_env env;
    unsigned char original[512], replacement[512], update[512], got[512];
} matrix_param;

#define OK(call) assert_int_equal((call), CGN_OK)

static int matrix_setup(void **state) {
    matrix_param *p = *state;
    if (cgn_test_env_open(&p->env) != 0)
        return -1;
    cgn_fault_install(p->env.backend->driver(&p->env));
    assert_true(p->type->desc_size <= sizeof p->original);
    assert_true(p->type->update_size <= sizeof p->update);
    p->tc->original(&p->env, p->original);
    p->tc->replacement(&p->env, p->replacement);
    p->tc->update(&p->env, p->update);
    return 0;
}

static int matrix_teardown(void **state) {
    matrix_param *p = *state;
    cgn_test_env_close(&p->env);
    assert_int_equal(p->env.released_in_driver, 0);
    assert_int_equal(p->env.live_at_close, 0);
    return 0;
}

static long owner_refs(matrix_param *p, int i) { return atomic_load(&p->env.owner[i]->refs); }

static void snapshot_refs(matrix_param *p, long refs[CGN_TEST_NUM_BUFS]) {
    for (int i = 0; i < CGN_TEST_NUM_BUFS; i++)
        refs[i] = owner_refs(p, i);
}

static void assert_refs(matrix_param *p, const long refs[CGN_TEST_NUM_BUFS]) {
    for (int i = 0; i < CGN_TEST_NUM_BUFS; i++)
        assert_int_equal(owner_refs(p, i), refs[i]);
}

static void assert_node_is(matrix_param *p, cgn_node *node, const void *desc) {
    OK(p->type->get(node, p->got));
    assert_true(p->type->desc_equal(p->got, desc));
}

static void assert_exec_uses(matrix_param *p, cgn_exec *exec, const void *desc, const char *what) {
    char label[160];
    snprintf(label, sizeof label, "%s[%s] %s", p->type->name, p->tc->id, what);
    assert_true(cgn_test_exec_matches(&p->env, p->type->type, exec, desc, label));
}

static cgn_node *add_original(matrix_param *p, cgn_graph **graph) {
    cgn_node *node = NULL;
    OK(cgn_graph_create(graph));
    OK(p->type->add(*graph, p->original, &node));
    return node;
}

/* An update changes future instantiations only; existing executables keep the original. */
static void test_update_changes_future_instantiations(void **state) {
    matrix_param *p = *state;
    cgn_graph *g;
    cgn_exec *old_exec, *new_exec;
    cgn_node *node = add_original(p, &g);
    assert_node_is(p, node, p->original);
    OK(cgn_graph_instantiate(g, &old_exec));
    OK(p->type->update(node, p->update));
    assert_node_is(p, node, p->replacement);
    OK(cgn_graph_instantiate(g, &new_exec));
    assert_exec_uses(p, old_exec, p->original, "old exec");
    assert_exec_uses(p, new_exec, p->replacement, "new exec");
    OK(cgn_exec_destroy(old_exec));
    OK(cgn_exec_destroy(new_exec));
    OK(cgn_graph_destroy(g));
}

/* Whether the node's current version holds the owner: through its attachment, or for a
 * child-graph node through the attachments of the nodes of its embedded copy. */
static int attachment_has(const cgn_node *node, const cgn_owner *o) {
    const cgn__attachment *a = node->attachment;
    for (size_t i = 0; a && i < a->num_owners; i++)
        if (a->owners[i] == o)
            return 1;
    for (size_t i = 0; node->embedded && i < node->embedded->num_nodes; i++)
        if (node->embedded->nodes[i]->alive && attachment_has(node->embedded->nodes[i], o))
            return 1;
    return 0;
}

/* Every owner is released exactly once, after the last graph or executable holding it. */
static void test_owners_released_after_last_user(void **state) {
    matrix_param *p = *state;
    cgn_graph *g;
    cgn_exec *old_exec, *new_exec;
    cgn_node *node = add_original(p, &g);
    int in_old[CGN_TEST_NUM_BUFS], in_new[CGN_TEST_NUM_BUFS];
    for (int i = 0; i < CGN_TEST_NUM_BUFS; i++)
        in_old[i] = attachment_has(node, p->env.owner[i]);
    OK(cgn_graph_instantiate(g, &old_exec));
    OK(p->type->update(node, p->update));
    for (int i = 0; i < CGN_TEST_NUM_BUFS; i++)
        in_new[i] = attachment_has(node, p->env.owner[i]);
    OK(cgn_graph_instantiate(g, &new_exec));
    cgn_test_env_drop_owners(&p->env);
    OK(cgn_graph_destroy(g));
    for (int i = 0; i < CGN_TEST_NUM_BUFS; i++)
        if (!in_old[i] && !in_new[i])
            assert_true(cgn_test_wait_released(&p->env, i, 1));
    cgn_collect();
    for (int i = 0; i < CGN_TEST_NUM_BUFS; i++)
        if (in_old[i] || in_new[i])
            assert_int_equal(p->env.released[i], 0);
    assert_exec_uses(p, old_exec, p->original, "old exec after graph destroy");
    OK(cgn_exec_destroy(old_exec));
    for (int i = 0; i < CGN_TEST_NUM_BUFS; i++)
        if (in_old[i] && !in_new[i])
            assert_true(cgn_test_wait_released(&p->env, i, 1));
    cgn_collect();
    for (int i = 0; i < CGN_TEST_NUM_BUFS; i++)
        if (in_new[i])
            assert_int_equal(p->env.released[i], 0);
    assert_exec_uses(p, new_exec, p->replacement, "new exec after old exec destroy");
    OK(cgn_exec_destroy(new_exec));
    for (int i = 0; i < CGN_TEST_NUM_BUFS; i++)
        assert_true(cgn_test_wait_released(&p->env, i, 1));
}

/* Each invalid update fails with its status before any mutation and changes nothing. */
static void test_invalid_update_preserves_state(void **state) {
    matrix_param *p = *state;
    assert_true(p->tc->num_invalid > 0);
    for (size_t k = 0; k < p->tc->num_invalid; k++) {
        const cgn_test_invalid *inv = &p->tc->invalid[k];
        unsigned char bad[512];
        inv->update(&p->env, bad);
        assert_true(cgn_test_settle(&p->env)); /* earlier iterations' releases are done */
        cgn_graph *g;
        cgn_exec *old_exec, *new_exec;
        cgn_node *node = add_original(p, &g);
        OK(cgn_graph_instantiate(g, &old_exec));
        long refs[CGN_TEST_NUM_BUFS];
        snapshot_refs(p, refs);
        const cgn__attachment *attachment = node->attachment;
        cgn_fault_reset_counts();
        cgn_status st = p->type->update(node, bad);
        if (st != inv->status)
            fail_msg("%s[%s] invalid update %s: got %s (%s), expected %s", p->type->name,
                     p->tc->id, inv->text, cgn_status_name(st), cgn_last_error(),
                     cgn_status_name(inv->status));
        assert_int_equal(cgn_last_status(), inv->status);
        assert_true(strlen(cgn_last_error()) > 0);
        assert_int_equal(cgn_fault_calls(CGN_FAULT_cuGraphNodeSetParams), 0);
        assert_int_equal(cgn_fault_calls(CGN_FAULT_cuUserObjectCreate), 0);
        assert_ptr_equal(node->attachment, attachment);
        assert_refs(p, refs);
        assert_node_is(p, node, p->original);
        OK(cgn_graph_instantiate(g, &new_exec));
        assert_exec_uses(p, old_exec, p->original, "old exec after failed update");
        assert_exec_uses(p, new_exec, p->original, "new exec after failed update");
        OK(cgn_exec_destroy(old_exec));
        OK(cgn_exec_destroy(new_exec));
        OK(cgn_graph_destroy(g));
    }
}

/* Fails each driver call of the update in turn: every failure leaves params, owners and
 * executables exactly as before. */
static void test_driver_failure_preserves_state(void **state) {
    matrix_param *p = *state;
    long k;
    for (k = 1; k < 64; k++) {
        assert_true(cgn_test_settle(&p->env)); /* earlier iterations' releases are done */
        cgn_graph *g;
        cgn_exec *old_exec, *new_exec;
        cgn_node *node = add_original(p, &g);
        OK(cgn_graph_instantiate(g, &old_exec));
        long refs[CGN_TEST_NUM_BUFS];
        snapshot_refs(p, refs);
        const cgn__attachment *attachment = node->attachment;
        cgn_fault_arm(k, CUDA_ERROR_OUT_OF_MEMORY);
        cgn_status st = p->type->update(node, p->update);
        cgn_fault_disarm();
        cgn_fault_entry entry = CGN_FAULT_ENTRY_COUNT;
        int injected = cgn_fault_triggered(&entry);
        if (!injected) {
            OK(st);
            assert_node_is(p, node, p->replacement);
        } else if (st == CGN_OK) {
            /* Only calls after the mutation may fail without failing the update, since they
             * cannot undo it: the release of the superseded version's graph reference, and
             * locating a new child embedding's handles (those records then report it). */
            assert_true(entry == CGN_FAULT_cuGraphReleaseUserObject ||
                        entry == CGN_FAULT_cuGraphChildGraphNodeGetGraph ||
                        entry == CGN_FAULT_cuGraphNodeFindInClone);
            assert_node_is(p, node, p->replacement);
        } else {
            assert_int_equal(st, CGN_ERROR_DRIVER);
            assert_non_null(strstr(cgn_last_error(), cgn_fault_entry_name(entry)));
            assert_ptr_equal(node->attachment, attachment);
            assert_refs(p, refs);
            assert_node_is(p, node, p->original);
            OK(cgn_graph_instantiate(g, &new_exec));
            assert_exec_uses(p, new_exec, p->original, "new exec after driver failure");
            OK(cgn_exec_destroy(new_exec));
        }
        assert_exec_uses(p, old_exec, p->original, "old exec after driver failure");
        OK(cgn_exec_destroy(old_exec));
        OK(cgn_graph_destroy(g));
        if (!injected)
            break;
    }
    assert_true(k > 1);  /* at least one driver call was failed */
    assert_true(k < 64); /* and the update finished */
}

/* A destroyed node rejects updates and reads; executables made before keep running it. */
static void test_destroyed_node_rejects_update(void **state) {
    matrix_param *p = *state;
    cgn_graph *g;
    cgn_exec *old_exec;
    cgn_node *node = add_original(p, &g);
    OK(cgn_graph_instantiate(g, &old_exec));
    OK(cgn_node_destroy(node));
    assert_false(cgn_node_is_alive(node));
    assert_int_equal(p->type->update(node, p->update), CGN_ERROR_DESTROYED);
    assert_non_null(strstr(cgn_last_error(), "destroyed"));
    assert_int_equal(p->type->get(node, p->got), CGN_ERROR_DESTROYED);
    assert_int_equal(cgn_node_destroy(node), CGN_ERROR_DESTROYED);
    assert_exec_uses(p, old_exec, p->original, "exec made before the node was destroyed");
    OK(cgn_exec_destroy(old_exec));
    OK(cgn_graph_destroy(g));
}

/* On a 12.1 driver graphs still build and run, and updates are refused untouched. */
static void test_old_driver_rejects_update(void **state) {
    matrix_param *p = *state;
    cgn_fault_set_version(12010);
    cgn_graph *g;
    cgn_exec *old_exec, *new_exec;
    cgn_node *node = add_original(p, &g);
    OK(cgn_graph_instantiate(g, &old_exec));
    long refs[CGN_TEST_NUM_BUFS];
    snapshot_refs(p, refs);
    cgn_fault_reset_counts();
    assert_int_equal(p->type->update(node, p->update), CGN_ERROR_DRIVER_TOO_OLD);
    assert_int_equal(cgn_fault_total_calls(), 0);
    assert_non_null(strstr(cgn_last_error(), "12.2"));
    assert_non_null(strstr(cgn_last_error(), "12.1"));
    assert_refs(p, refs);
    assert_node_is(p, node, p->original);
    OK(cgn_graph_instantiate(g, &new_exec));
    assert_exec_uses(p, old_exec, p->original, "old exec on 12.1");
    assert_exec_uses(p, new_exec, p->original, "new exec on 12.1");
    OK(cgn_exec_destroy(old_exec));
    OK(cgn_exec_destroy(new_exec));
    OK(cgn_graph_destroy(g));
}

/* An update with nothing set succeeds without a single driver call. */
static void test_empty_update_is_noop(void **state) {
    matrix_param *p = *state;
    cgn_graph *g;
    cgn_node *node = add_original(p, &g);
    unsigned char nothing[512];
    memset(nothing, 0, sizeof nothing);
    cgn_fault_reset_counts();
    OK(p->type->update(node, nothing));
    assert_int_equal(cgn_fault_total_calls(), 0);
    assert_node_is(p, node, p->original);
    OK(cgn_graph_destroy(g));
}

/* Updating a node of another type is refused. */
static void test_wrong_node_type_rejected(void **state) {
    matrix_param *p = *state;
    cgn_graph *g;
    cgn_node *empty;
    OK(cgn_graph_create(&g));
    OK(cgn_graph_add_empty(g, NULL, 0, &empty));
    assert_int_equal(p->type->update(empty, p->update), CGN_ERROR_WRONG_NODE_TYPE);
    assert_int_equal(p->type->get(empty, p->got), CGN_ERROR_WRONG_NODE_TYPE);
    OK(cgn_graph_destroy(g));
}

/* Whether the driver refused an executable-level update it does not allow (a copy's memory
 * type, a 1-D memset's height, ...): only a real GPU does; the fake accepts every change. */
static int exec_update_refused(matrix_param *p, cgn_status st) {
    if (st == CGN_OK)
        return 0;
    assert_int_equal(st, CGN_ERROR_DRIVER);
    assert_non_null(strstr(cgn_last_error(), "cuGraphExecNodeSetParams"));
    assert_string_equal(p->env.backend->name, "gpu");
    printf("      note: %s[%s]: the driver refuses this change in an executable: %s\n",
           p->type->name, p->tc->id, cgn_last_error());
    return 1;
}

/* An executable-level update changes that executable only, and its owners live as long as
 * that executable. */
static void test_exec_update_changes_that_exec_only(void **state) {
    matrix_param *p = *state;
    cgn_graph *g;
    cgn_exec *e1, *e2, *e3;
    cgn_node *node = add_original(p, &g);
    OK(cgn_graph_instantiate(g, &e1));
    OK(cgn_graph_instantiate(g, &e2));
    long refs[CGN_TEST_NUM_BUFS];
    snapshot_refs(p, refs);
    size_t appended = e1->accum->num_more;
    cgn_status st = p->type->exec_update(e1, node, p->replacement);
    if (exec_update_refused(p, st)) {
        assert_refs(p, refs);
        assert_int_equal(e1->accum->num_more, appended);
        assert_exec_uses(p, e1, p->original, "exec after a refused exec update");
    } else {
        assert_exec_uses(p, e1, p->replacement, "updated exec");
    }
    assert_exec_uses(p, e2, p->original, "other exec");
    assert_node_is(p, node, p->original); /* the definition is untouched */
    OK(cgn_graph_instantiate(g, &e3));
    assert_exec_uses(p, e3, p->original, "exec made after the exec update");
    OK(cgn_exec_destroy(e3));
    /* Every owner the executable's version references stays until that executable goes: the
     * replacement's (for a child graph CUDA copies them into the executable, and drops the old
     * child's), and the original's it was instantiated with. */
    int held[CGN_TEST_NUM_BUFS];
    cgn_graph *scratch;
    cgn_node *copy;
    OK(cgn_graph_create(&scratch));
    OK(p->type->add(scratch, st == CGN_OK ? p->replacement : p->original, &copy));
    for (int i = 0; i < CGN_TEST_NUM_BUFS; i++) {
        held[i] = attachment_has(copy, p->env.owner[i]);
        if (p->type->type != CGN_NODE_CHILD_GRAPH || st != CGN_OK)
            held[i] |= attachment_has(node, p->env.owner[i]);
        for (size_t k = 0; k < e1->accum->num_more; k++)
            assert_true(held[i] || e1->accum->more[k] != p->env.owner[i]);
    }
    OK(cgn_graph_destroy(scratch));
    cgn_test_env_drop_owners(&p->env);
    OK(cgn_graph_destroy(g));
    OK(cgn_exec_destroy(e2));
    cgn_collect();
    for (int i = 0; i < CGN_TEST_NUM_BUFS; i++)
        if (held[i])
            assert_int_equal(p->env.released[i], 0);
    OK(cgn_exec_destroy(e1));
    for (int i = 0; i < CGN_TEST_NUM_BUFS; i++)
        assert_true(cgn_test_wait_released(&p->env, i, 1));
}

/* Fails each driver call of an executable-level update in turn: the executable, the owners and
 * the accumulator stay exactly as before. */
static void test_exec_update_failure_preserves_state(void **state) {
    matrix_param *p = *state;
    long k;
    for (k = 1; k < 64; k++) {
        assert_true(cgn_test_settle(&p->env));
        cgn_graph *g;
        cgn_exec *e;
        cgn_node *node = add_original(p, &g);
        OK(cgn_graph_instantiate(g, &e));
        long refs[CGN_TEST_NUM_BUFS];
        snapshot_refs(p, refs);
        size_t appended = e->accum->num_more;
        cgn_fault_arm(k, CUDA_ERROR_OUT_OF_MEMORY);
        cgn_status st = p->type->exec_update(e, node, p->replacement);
        cgn_fault_disarm();
        cgn_fault_entry entry = CGN_FAULT_ENTRY_COUNT;
        int injected = cgn_fault_triggered(&entry);
        if (!injected && !exec_update_refused(p, st)) {
            assert_exec_uses(p, e, p->replacement, "exec after its update");
        } else {
            /* When the driver refuses the change itself, the next call is cuGetErrorName for
             * the message; failing that one leaves the refusal as the reported cause. */
            if (injected && entry != CGN_FAULT_cuGetErrorName)
                assert_non_null(strstr(cgn_last_error(), cgn_fault_entry_name(entry)));
            assert_true(st != CGN_OK);
            assert_refs(p, refs);
            assert_int_equal(e->accum->num_more, appended);
            assert_exec_uses(p, e, p->original, "exec after a failed exec update");
        }
        OK(cgn_exec_destroy(e));
        OK(cgn_graph_destroy(g));
        if (!injected)
            break;
    }
    assert_true(k > 1);
    assert_true(k < 64);
}

typedef struct scenario {
    const char *name;
    CMUnitTestFunction fn;
} scenario;

static const scenario scenarios[] = {
    {"update_changes_future_instantiations", test_update_changes_future_instantiations},
    {"owners_released_after_last_user", test_owners_released_after_last_user},
    {"invalid_update_preserves_state", test_invalid_update_preserves_state},
    {"driver_failure_preserves_state", test_driver_failure_preserves_state},
    {"destroyed_node_rejects_update", test_destroyed_node_rejects_update},
    {"old_driver_rejects_update", test_old_driver_rejects_update},
    {"empty_update_is_noop", test_empty_update_is_noop},
    {"wrong_node_type_rejected", test_wrong_node_type_rejected},
    {"exec_update_changes_that_exec_only", test_exec_update_changes_that_exec_only},
    {"exec_update_failure_preserves_state", test_exec_update_failure_preserves_state},
};

int main(void) {
    /* Probe once: a GPU run without a device skips with 77 instead of failing each test. */
    cgn_test_env probe;
    int rc = cgn_test_env_open(&probe);
    if (rc != 0)
        return rc;
    cgn_test_env_close(&probe);

    size_t nsc = sizeof scenarios / sizeof scenarios[0], n = 0, total = 0;
    for (size_t t = 0; t < cgn_test_types_count; t++)
        total += cgn_test_types[t]->num_cases * nsc;
    struct CMUnitTest *tests = calloc(total, sizeof *tests);
    matrix_param *params = calloc(total, sizeof *params);
    char (*names)[128] = calloc(total, sizeof *names);
    if (!tests || !params || !names)
        return 1;
    for (size_t t = 0; t < cgn_test_types_count; t++)
        for (size_t c = 0; c < cgn_test_types[t]->num_cases; c++)
            for (size_t s = 0; s < nsc; s++, n++) {
                params[n].type = cgn_test_types[t];
                params[n].tc = &cgn_test_types[t]->cases[c];
                snprintf(names[n], sizeof names[n], "%s[%s]", scenarios[s].name,
                         params[n].tc->id);
                tests[n] = (struct CMUnitTest){names[n], scenarios[s].fn, matrix_setup,
                                               matrix_teardown, &params[n]};
            }
    rc = _cmocka_run_group_tests(cgn_test_backend_selected.name, tests, n, NULL, NULL);
    free(tests);
    free(params);
    free(names);
    return rc;
}
