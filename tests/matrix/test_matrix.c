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
    CMUnitTestFunction scenario;
    const cgn_test_type *type;
    const cgn_test_case *tc;
    cgn_test_env env;
    unsigned char original[512], replacement[512], update[512], got[512];
} matrix_param;

/* Fails with the status name and cgn_last_error() when `call` does not return CGN_OK. */
#define OK(call)                                                                                   \
    do {                                                                                           \
        cgn_status ok_st_ = (call);                                                                \
        if (ok_st_ != CGN_OK)                                                                      \
            fail_msg("%s: %s (%s)", #call, cgn_status_name(ok_st_), cgn_last_error());            \
    } while (0)

static int matrix_setup(void **state) {
    matrix_param *p = *state;
    if (cgn_test_env_open(&p->env) != 0)
        return -1;
    cgn_fault_install(p->env.backend->driver(&p->env));
    assert_true(p->type->desc_size <= sizeof p->original);
    assert_true(p->type->update_size <= sizeof p->update);
    p->tc->original(&p->env, p->original);
    if (p->tc->update != NULL) { /* NULL for node types that are not updatable */
        p->tc->replacement(&p->env, p->replacement);
        p->tc->update(&p->env, p->update);
    }
    return 0;
}

static int matrix_teardown(void **state) {
    matrix_param *p = *state;
    p->env.backend->set_context(&p->env, CGN_TEST_CTX_OWN); /* a failed test may have left it */
    cgn_test_env_close(&p->env);
    assert_int_equal(p->env.released_in_driver, 0);
    assert_int_equal(p->env.live_at_close, 0);
    assert_int_equal(p->env.unreleased_at_close, 0);
    assert_int_equal(p->env.crash_prone_calls, 0);
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
static int record_has(const cgn__node_rec *n, const cgn_owner *o) {
    const cgn__attachment *a = n->attachment;
    for (size_t i = 0; a && i < a->num_owners; i++)
        if (a->owners[i] == o)
            return 1;
    for (size_t i = 0; n->embedded && i < n->embedded->num_nodes; i++)
        if (record_has(n->embedded->nodes[i], o))
            return 1;
    return 0;
}

static int attachment_has(const cgn_node *node, const cgn_owner *o) {
    return record_has(cgn__node_record(node), o);
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
        const cgn__attachment *attachment = cgn__node_record(node)->attachment;
        cgn_fault_reset_counts();
        cgn_status st = p->type->update(node, bad);
        if (st != inv->status)
            fail_msg("%s[%s] invalid update %s: got %s (%s), expected %s", p->type->name,
                     p->tc->id, inv->text, cgn_status_name(st), cgn_last_error(),
                     cgn_status_name(inv->status));
        assert_int_equal(cgn_last_status(), inv->status);
        assert_true(strlen(cgn_last_error()) > 0);
        assert_int_equal(cgn_fault_setter_calls(), 0);
        assert_int_equal(cgn_fault_calls(CGN_FAULT_cuUserObjectCreate), 0);
        assert_ptr_equal(cgn__node_record(node)->attachment, attachment);
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
        const cgn__attachment *attachment = cgn__node_record(node)->attachment;
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
            assert_ptr_equal(cgn__node_record(node)->attachment, attachment);
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

/* ---- executable level ------------------------------------------------------------------ */

/* CUDA enables and disables kernel, memset and memcpy nodes only (its documentation). */
static int enable_supported(const matrix_param *p) {
    return p->type->type == CGN_NODE_KERNEL || p->type->type == CGN_NODE_MEMSET ||
           p->type->type == CGN_NODE_MEMCPY || p->type->type == CGN_NODE_MEMCPY_3D;
}

/* The executable's own copy of the node is `desc`. */
static void assert_exec_has(matrix_param *p, cgn_exec *exec, cgn_node *node, const void *desc) {
    OK(p->type->exec_get(exec, node, p->got));
    assert_true(p->type->desc_equal(p->got, desc));
}

/* Checks a pre-flight refusal: its status, a message naming the field and the rule, and not a
 * single driver mutation. */
static void assert_refused_for(cgn_status st, cgn_status want, const char *field) {
    if (st != want)
        fail_msg("expected %s naming field %s, got %s (%s)", cgn_status_name(want), field,
                 cgn_status_name(st), cgn_last_error());
    char needle[64];
    snprintf(needle, sizeof needle, "field %s:", field);
    if (strstr(cgn_last_error(), needle) == NULL || strstr(cgn_last_error(), "rule:") == NULL)
        fail_msg("message does not name field %s and its rule: %s", field, cgn_last_error());
    assert_int_equal(cgn_fault_setter_calls(), 0);
    assert_int_equal(cgn_fault_calls(CGN_FAULT_cuGraphExecUpdate), 0);
}

/* Owners the executable must keep: the original's and the replacement's (for a child graph:
 * those of the nodes inside the embedded copies). */
static void owners_of(matrix_param *p, const void *desc, int held[CGN_TEST_NUM_BUFS]) {
    cgn_graph *scratch;
    cgn_node *copy;
    OK(cgn_graph_create(&scratch));
    OK(p->type->add(scratch, desc, &copy));
    for (int i = 0; i < CGN_TEST_NUM_BUFS; i++)
        held[i] |= attachment_has(copy, p->env.owner[i]);
    OK(cgn_graph_destroy(scratch));
}

/* A partial executable-level update changes that executable only: unset fields keep what the
 * executable has, the definition and other executables are untouched, and the owners it
 * needs live exactly as long as that executable. A case whose update breaks an
 * executable-update rule is refused before any mutation, naming the field. */
static void test_exec_update_changes_that_exec_only(void **state) {
    matrix_param *p = *state;
    cgn_graph *g;
    cgn_exec *e1, *e2, *e3;
    cgn_node *node = add_original(p, &g);
    OK(cgn_graph_instantiate(g, &e1));
    OK(cgn_graph_instantiate(g, &e2));
    long refs[CGN_TEST_NUM_BUFS];
    snapshot_refs(p, refs);
    cgn_fault_reset_counts();
    cgn_status st = p->type->exec_update(e1, node, p->update);
    const void *now = p->replacement;
    if (p->tc->exec_refuses != NULL) {
        assert_refused_for(st, CGN_ERROR_INVALID_VALUE, p->tc->exec_refuses);
        assert_refs(p, refs);
        now = p->original;
    } else {
        OK(st);
    }
    assert_exec_has(p, e1, node, now);
    assert_exec_uses(p, e1, now, "updated exec");
    assert_exec_has(p, e2, node, p->original);
    assert_exec_uses(p, e2, p->original, "other exec");
    assert_node_is(p, node, p->original); /* the definition is untouched */
    OK(cgn_graph_instantiate(g, &e3));
    assert_exec_uses(p, e3, p->original, "exec made after the exec update");
    OK(cgn_exec_destroy(e3));
    int held[CGN_TEST_NUM_BUFS] = {0};
    owners_of(p, p->original, held);
    owners_of(p, now, held);
    cgn_test_env_drop_owners(&p->env);
    OK(cgn_graph_destroy(g));
    OK(cgn_exec_destroy(e2));
    cgn_collect();
    for (int i = 0; i < CGN_TEST_NUM_BUFS; i++)
        if (held[i] && now != p->original) /* the replacement's owners are e1's alone */
            assert_int_equal(p->env.released[i], 0);
    assert_exec_uses(p, e1, now, "updated exec after graph and other exec are gone");
    OK(cgn_exec_destroy(e1));
    for (int i = 0; i < CGN_TEST_NUM_BUFS; i++)
        assert_true(cgn_test_wait_released(&p->env, i, 1));
}

/* Each executable-update rule refuses its change before any mutation, naming the field, and
 * changes nothing; and the driver refuses the same change too (the rule is not stricter than
 * CUDA): made in the definition, a raw cuGraphExecUpdate of the executable fails. */
static void test_exec_rules_refuse_before_mutation(void **state) {
    matrix_param *p = *state;
    size_t n = p->tc->num_exec_invalid + (p->tc->exec_refuses != NULL);
    if (n == 0) {
        cgn_graph *g;
        cgn_node *node = add_original(p, &g);
        cgn_exec *e;
        OK(cgn_graph_instantiate(g, &e));
        OK(p->type->exec_update(e, node, p->update)); /* no rule refuses this case */
        OK(cgn_exec_destroy(e));
        OK(cgn_graph_destroy(g));
        return;
    }
    for (size_t k = 0; k < n; k++) {
        unsigned char bad[512];
        const char *field;
        cgn_status want;
        if (k < p->tc->num_exec_invalid) {
            p->tc->exec_invalid[k].update(&p->env, bad);
            field = p->tc->exec_invalid[k].field;
            want = p->tc->exec_invalid[k].status;
        } else {
            memcpy(bad, p->update, sizeof bad);
            field = p->tc->exec_refuses;
            want = CGN_ERROR_INVALID_VALUE;
        }
        assert_true(cgn_test_settle(&p->env));
        cgn_graph *g;
        cgn_exec *e;
        cgn_node *node = add_original(p, &g);
        OK(cgn_graph_instantiate(g, &e));
        long refs[CGN_TEST_NUM_BUFS];
        snapshot_refs(p, refs);
        cgn_fault_reset_counts();
        assert_refused_for(p->type->exec_update(e, node, bad), want, field);
        assert_refs(p, refs);
        assert_exec_has(p, e, node, p->original);
        assert_exec_uses(p, e, p->original, "exec after a refused update");
        /* The same change through the whole-graph refresh: refused the same way. */
        OK(p->type->update(node, bad));
        cgn_fault_reset_counts();
        assert_refused_for(cgn_exec_update_from_graph(e, g), want, field);
        assert_exec_has(p, e, node, p->original);
        assert_exec_uses(p, e, p->original, "exec after a refused refresh");
        /* Truth: CUDA refuses it as well. */
        CUgraph raw_graph;
        CUgraphExec raw_exec;
        OK(cgn_graph_raw(g, &raw_graph));
        OK(cgn_exec_raw(e, &raw_exec));
        CUgraphExecUpdateResultInfo info;
        memset(&info, 0, sizeof info);
        CUresult r = cgn__driver->cuGraphExecUpdate(raw_exec, raw_graph, &info);
        if (r == CUDA_SUCCESS)
            fail_msg("%s[%s]: the driver accepts what the rule for field %s refuses",
                     p->type->name, p->tc->id, field);
        OK(cgn_exec_destroy(e));
        OK(cgn_graph_destroy(g));
    }
}

/* Fails each driver call of an executable-level update in turn: the executable (its copy, what
 * it runs), the owners and the definition stay exactly as before. */
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
        cgn_fault_arm(k, CUDA_ERROR_OUT_OF_MEMORY);
        cgn_status st = p->type->exec_update(e, node, p->update);
        cgn_fault_disarm();
        cgn_fault_entry entry = CGN_FAULT_ENTRY_COUNT;
        int injected = cgn_fault_triggered(&entry);
        if (!injected && p->tc->exec_refuses == NULL) {
            OK(st);
            assert_exec_has(p, e, node, p->replacement);
            assert_exec_uses(p, e, p->replacement, "exec after its update");
        } else {
            assert_true(st != CGN_OK);
            if (injected && entry != CGN_FAULT_cuGetErrorName)
                assert_non_null(strstr(cgn_last_error(), cgn_fault_entry_name(entry)));
            assert_refs(p, refs);
            assert_exec_has(p, e, node, p->original);
            assert_exec_uses(p, e, p->original, "exec after a failed exec update");
        }
        assert_node_is(p, node, p->original);
        OK(cgn_exec_destroy(e));
        OK(cgn_graph_destroy(g));
        if (!injected)
            break;
    }
    /* An update the executable's rules refuse makes no driver call at all (the node types
     * whose updates need no context query); any other makes at least its setter call. */
    assert_true(k > 1 || p->tc->exec_refuses != NULL);
    assert_true(k < 64);
}

/* An executable outlives its graph, for updates too: the node handle stays valid for that
 * executable, and the owners live as long as the executable needs them. */
static void test_exec_update_after_graph_destroy(void **state) {
    matrix_param *p = *state;
    cgn_graph *g;
    cgn_exec *e;
    cgn_node *node = add_original(p, &g);
    OK(cgn_graph_instantiate(g, &e));
    OK(cgn_graph_destroy(g));
    assert_int_equal(p->type->update(node, p->update), CGN_ERROR_DESTROYED);
    assert_int_equal(p->type->get(node, p->got), CGN_ERROR_DESTROYED);
    assert_int_equal(cgn_graph_destroy(g), CGN_ERROR_DESTROYED);
    cgn_status st = p->type->exec_update(e, node, p->update);
    cgn_test_env_drop_owners(&p->env); /* the executable alone holds them now */
    const void *now = p->replacement;
    if (p->tc->exec_refuses != NULL) {
        assert_int_equal(st, CGN_ERROR_INVALID_VALUE);
        now = p->original;
    } else {
        OK(st);
    }
    assert_exec_has(p, e, node, now);
    assert_exec_uses(p, e, now, "exec updated after its graph was destroyed");
    if (enable_supported(p)) {
        OK(cgn_exec_node_set_enabled(e, node, 0));
        assert_true(cgn_test_exec_matches(&p->env, p->type->type, e, NULL, "disabled"));
        OK(cgn_exec_node_set_enabled(e, node, 1));
    }
    int held[CGN_TEST_NUM_BUFS] = {0};
    for (int i = 0; i < CGN_TEST_NUM_BUFS; i++)
        held[i] = p->env.released[i] == 0;
    cgn_collect();
    OK(cgn_exec_destroy(e));
    for (int i = 0; i < CGN_TEST_NUM_BUFS; i++)
        if (held[i])
            assert_true(cgn_test_wait_released(&p->env, i, 1));
    assert_int_equal(p->type->exec_update(e, node, p->update), CGN_ERROR_DESTROYED);
    assert_int_equal(cgn_exec_destroy(e), CGN_ERROR_DESTROYED);
}

/* Whole-graph refresh: the executable runs the definition's current parameters, holding its
 * owners; other executables keep theirs. */
static void test_exec_refresh_from_graph(void **state) {
    matrix_param *p = *state;
    cgn_graph *g;
    cgn_exec *e1, *e2;
    cgn_node *node = add_original(p, &g);
    OK(cgn_graph_instantiate(g, &e1));
    OK(cgn_graph_instantiate(g, &e2));
    OK(p->type->update(node, p->update));
    assert_exec_uses(p, e1, p->original, "exec before the refresh");
    cgn_fault_reset_counts();
    cgn_status st = cgn_exec_update_from_graph(e1, g);
    const void *now = p->replacement;
    if (p->tc->exec_refuses != NULL) {
        assert_refused_for(st, CGN_ERROR_INVALID_VALUE, p->tc->exec_refuses);
        now = p->original;
    } else {
        OK(st);
    }
    assert_exec_has(p, e1, node, now);
    assert_exec_uses(p, e1, now, "refreshed exec");
    assert_exec_uses(p, e2, p->original, "other exec");
    /* The refreshed executable holds the graph's owners after the graph is gone. */
    int held[CGN_TEST_NUM_BUFS] = {0};
    owners_of(p, now, held);
    cgn_test_env_drop_owners(&p->env);
    OK(cgn_graph_destroy(g));
    OK(cgn_exec_destroy(e2));
    cgn_collect();
    for (int i = 0; i < CGN_TEST_NUM_BUFS; i++)
        if (held[i])
            assert_int_equal(p->env.released[i], 0);
    assert_exec_uses(p, e1, now, "refreshed exec after its graph is gone");
    OK(cgn_exec_destroy(e1));
    for (int i = 0; i < CGN_TEST_NUM_BUFS; i++)
        assert_true(cgn_test_wait_released(&p->env, i, 1));
}

/* Fails each driver call of a refresh in turn: the executable is unchanged. */
static void test_exec_refresh_failure_preserves_state(void **state) {
    matrix_param *p = *state;
    if (p->tc->exec_refuses != NULL)
        return; /* refused before the driver: test_exec_refresh_from_graph covers it */
    long k;
    for (k = 1; k < 64; k++) {
        assert_true(cgn_test_settle(&p->env));
        cgn_graph *g;
        cgn_exec *e;
        cgn_node *node = add_original(p, &g);
        OK(cgn_graph_instantiate(g, &e));
        OK(p->type->update(node, p->update));
        long refs[CGN_TEST_NUM_BUFS];
        snapshot_refs(p, refs);
        cgn_fault_arm(k, CUDA_ERROR_OUT_OF_MEMORY);
        cgn_status st = cgn_exec_update_from_graph(e, g);
        cgn_fault_disarm();
        cgn_fault_entry entry = CGN_FAULT_ENTRY_COUNT;
        int injected = cgn_fault_triggered(&entry);
        if (!injected || st == CGN_OK) {
            OK(st);
            assert_exec_has(p, e, node, p->replacement);
            assert_exec_uses(p, e, p->replacement, "refreshed exec");
        } else {
            assert_int_equal(st, CGN_ERROR_DRIVER);
            if (entry != CGN_FAULT_cuGetErrorName)
                assert_non_null(strstr(cgn_last_error(), cgn_fault_entry_name(entry)));
            assert_refs(p, refs);
            assert_exec_has(p, e, node, p->original);
            assert_exec_uses(p, e, p->original, "exec after a failed refresh");
        }
        OK(cgn_exec_destroy(e));
        OK(cgn_graph_destroy(g));
        if (!injected)
            break;
    }
    assert_true(k > 1);
    assert_true(k < 64);
}

/* Bounded retention: in an update -> launch loop with owners changing every iteration, each
 * superseded version is released once the launches that could read it completed. */
static void test_exec_update_launch_loop_is_bounded(void **state) {
    matrix_param *p = *state;
    if (p->tc->exec_refuses != NULL)
        return;
    cgn_graph *g;
    cgn_exec *e;
    cgn_node *node = add_original(p, &g);
    OK(cgn_graph_instantiate(g, &e));
    unsigned char back[512], forth[512];
    p->type->update_from_desc(back, p->original);
    p->type->update_from_desc(forth, p->replacement);
    long base[CGN_TEST_NUM_BUFS];
    snapshot_refs(p, base);
    for (int i = 0; i < 200; i++) {
        OK(p->type->exec_update(e, node, (i & 1) ? back : forth));
        OK(p->env.backend->launch(&p->env, e));
        for (int b = 0; b < CGN_TEST_NUM_BUFS; b++)
            assert_true(owner_refs(p, b) <= base[b] + 3); /* the last few versions at most */
    }
    assert_exec_uses(p, e, p->original, "exec after 200 updates");
    OK(cgn_exec_destroy(e));
    OK(cgn_graph_destroy(g));
    assert_true(cgn_test_settle(&p->env));
}

/* A node destroyed in its graph can no longer be addressed in executables made before. */
static void test_exec_destroyed_node_rejected(void **state) {
    matrix_param *p = *state;
    cgn_graph *g;
    cgn_exec *e;
    cgn_node *node = add_original(p, &g);
    OK(cgn_graph_instantiate(g, &e));
    OK(cgn_node_destroy(node));
    assert_int_equal(p->type->exec_update(e, node, p->update), CGN_ERROR_DESTROYED);
    assert_non_null(strstr(cgn_last_error(), "destroyed"));
    assert_int_equal(p->type->exec_get(e, node, p->got), CGN_ERROR_DESTROYED);
    assert_exec_uses(p, e, p->original, "exec after its node was destroyed");
    OK(cgn_exec_destroy(e));
    OK(cgn_graph_destroy(g));
}

/* On a 12.1 driver executable-level updates are refused untouched. */
static void test_exec_old_driver_rejects_update(void **state) {
    matrix_param *p = *state;
    cgn_fault_set_version(12010);
    cgn_graph *g;
    cgn_exec *e;
    cgn_node *node = add_original(p, &g);
    OK(cgn_graph_instantiate(g, &e));
    cgn_fault_reset_counts();
    assert_int_equal(p->type->exec_update(e, node, p->update), CGN_ERROR_DRIVER_TOO_OLD);
    assert_int_equal(cgn_fault_total_calls(), 0);
    assert_non_null(strstr(cgn_last_error(), "12.2"));
    assert_exec_has(p, e, node, p->original);
    assert_exec_uses(p, e, p->original, "exec on 12.1");
    OK(cgn_exec_destroy(e));
    OK(cgn_graph_destroy(g));
}

/* Updates run with the node's context current whatever the caller has, and leave the
 * caller's current context (none, or a foreign one) exactly as it was: on success, on a
 * refusal and on every injected driver failure, at definition and executable level. */
static void test_update_restores_callers_context(void **state) {
    matrix_param *p = *state;
    static const int states[] = {CGN_TEST_CTX_NONE, CGN_TEST_CTX_FOREIGN};
    const cgn_test_backend *b = p->env.backend;
    for (size_t w = 0; w < sizeof states / sizeof states[0]; w++) {
        int which = states[w];
        assert_true(cgn_test_settle(&p->env));
        cgn_graph *g;
        cgn_exec *e;
        cgn_node *node = add_original(p, &g);
        OK(cgn_graph_instantiate(g, &e));
        cgn_status want = p->tc->exec_refuses ? CGN_ERROR_INVALID_VALUE : CGN_OK;
        b->set_context(&p->env, which);
        cgn_status got = p->type->exec_update(e, node, p->update);
        if (got != want)
            fail_msg("context %d: exec update %s (%s), expected %s", which, cgn_status_name(got),
                     cgn_last_error(), cgn_status_name(want));
        assert_int_equal(b->current_context(&p->env), which);
        OK(p->type->update(node, p->update));
        assert_int_equal(b->current_context(&p->env), which);
        assert_int_equal(cgn_exec_update_from_graph(e, g), want);
        assert_int_equal(b->current_context(&p->env), which);
        assert_int_equal(cgn_exec_node_set_enabled(e, node, 1),
                         enable_supported(p) ? CGN_OK : CGN_ERROR_NOT_SUPPORTED);
        assert_int_equal(b->current_context(&p->env), which);
        b->set_context(&p->env, CGN_TEST_CTX_OWN);
        assert_node_is(p, node, p->replacement);
        assert_exec_uses(p, e, p->tc->exec_refuses ? p->original : p->replacement,
                         "exec updated from another context");
        OK(cgn_exec_destroy(e));
        /* Failures leave it as it was too. */
        for (long k = 1; k < 64; k++) {
            OK(cgn_graph_instantiate(g, &e));
            unsigned char back[512];
            p->type->update_from_desc(back, p->original);
            b->set_context(&p->env, which);
            cgn_fault_arm(k, CUDA_ERROR_OUT_OF_MEMORY);
            cgn_status st = p->type->update(node, back);
            cgn_fault_disarm();
            cgn_fault_entry entry;
            int injected = cgn_fault_triggered(&entry);
            assert_int_equal(b->current_context(&p->env), which);
            b->set_context(&p->env, CGN_TEST_CTX_OWN);
            if (st == CGN_OK) /* back to the replacement for the next round */
                OK(p->type->update(node, p->update));
            OK(cgn_exec_destroy(e));
            if (!injected)
                break;
        }
        OK(cgn_graph_destroy(g));
    }
    b->set_context(&p->env, CGN_TEST_CTX_OWN);
}

/* Enable and disable: kernel, memset and memcpy nodes only; a disabled node does nothing. */
static void test_exec_enable_disable(void **state) {
    matrix_param *p = *state;
    cgn_graph *g;
    cgn_exec *e;
    cgn_node *node = add_original(p, &g);
    OK(cgn_graph_instantiate(g, &e));
    int on = -1;
    if (!enable_supported(p)) {
        assert_int_equal(cgn_exec_node_set_enabled(e, node, 0), CGN_ERROR_NOT_SUPPORTED);
        assert_int_equal(cgn_exec_node_get_enabled(e, node, &on), CGN_ERROR_NOT_SUPPORTED);
        assert_exec_uses(p, e, p->original, "exec after a refused disable");
        OK(p->type->exec_get(e, node, p->got)); /* outputs included */
        cgn_test_launched(&p->env, p->type->type, p->got);
    } else {
        OK(cgn_exec_node_get_enabled(e, node, &on));
        assert_int_equal(on, 1);
        OK(cgn_exec_node_set_enabled(e, node, 0));
        OK(cgn_exec_node_get_enabled(e, node, &on));
        assert_int_equal(on, 0);
        assert_true(cgn_test_exec_matches(&p->env, p->type->type, e, NULL, "disabled node"));
        /* Parameters change while disabled and apply once enabled again. */
        cgn_status st = p->type->exec_update(e, node, p->update);
        const void *now = st == CGN_OK ? p->replacement : p->original;
        assert_true(cgn_test_exec_matches(&p->env, p->type->type, e, NULL, "still disabled"));
        OK(cgn_exec_node_set_enabled(e, node, 1));
        assert_exec_uses(p, e, now, "enabled again");
        /* Each driver call failing in turn leaves the state as it was. */
        long k;
        for (k = 1; k < 16; k++) {
            cgn_fault_arm(k, CUDA_ERROR_OUT_OF_MEMORY);
            st = cgn_exec_node_set_enabled(e, node, 0);
            cgn_fault_disarm();
            cgn_fault_entry entry;
            if (!cgn_fault_triggered(&entry)) {
                OK(st);
                break;
            }
            assert_int_equal(st, CGN_ERROR_DRIVER);
            assert_exec_uses(p, e, now, "enabled after a failed disable");
        }
        assert_true(k > 1);
        OK(cgn_exec_node_set_enabled(e, node, 1));
    }
    assert_int_equal(cgn_exec_node_get_enabled(e, node, NULL), CGN_ERROR_INVALID_ARGUMENT);
    OK(cgn_exec_destroy(e));
    OK(cgn_graph_destroy(g));
}

/* Node types that are not updatable (spec: updatable: false; no update functions): added
 * and read back, refused by cgn_node_check_updatable naming the type, instantiated and
 * launched once (the model's effect), read back from the executable, refreshed and adopted
 * with the same parameters (outputs included), and destroyed without leaks. */
static void test_not_updatable_round_trip(void **state) {
    matrix_param *p = *state;
    cgn_graph *g;
    cgn_exec *e;
    cgn_node *node = add_original(p, &g);
    unsigned char added[512], again[512];
    assert_node_is(p, node, p->original);
    memcpy(added, p->got, p->type->desc_size); /* with what the driver chose */
    cgn_node_type t;
    OK(cgn_node_type_of(node, &t));
    assert_int_equal(t, p->type->type);
    assert_int_equal(cgn_node_check_updatable(node), CGN_ERROR_NOT_SUPPORTED);
    assert_non_null(strstr(cgn_last_error(), "not updatable"));
    char named[64];
    snprintf(named, sizeof named, "is a %s node", cgn__node_type_name(p->type->type));
    assert_non_null(strstr(cgn_last_error(), named));
    CUgraphNodeType cu = cgn__node_types[p->type->type].cu_type;
    if (cu == CU_GRAPH_NODE_TYPE_MEM_ALLOC || cu == CU_GRAPH_NODE_TYPE_MEM_FREE)
        assert_int_equal(cgn_node_destroy(node), CGN_ERROR_NOT_SUPPORTED); /* CUDA's rule */
    OK(cgn_graph_instantiate(g, &e));
    OK(p->type->exec_get(e, node, again));
    assert_true(p->type->desc_same(again, added));
    assert_exec_uses(p, e, p->original, "exec");
    cgn_test_launched(&p->env, p->type->type, added);
    /* A refresh reads the same parameters back. */
    OK(cgn_node_refresh(node));
    OK(p->type->get(node, again));
    assert_true(p->type->desc_same(again, added));
    /* Adopted (borrowed), the node is recorded as this type with the same parameters; a type
     * without a getter in the spec (conditional) as CGN_NODE_OTHER. */
    CUgraph raw;
    OK(cgn_graph_raw(g, &raw));
    cgn_graph *adopted;
    OK(cgn_graph_adopt(raw, 0, &adopted));
    cgn_node *nodes[2];
    size_t count = 2;
    OK(cgn_graph_nodes(adopted, nodes, &count));
    assert_int_equal(count, 1);
    OK(cgn_node_type_of(nodes[0], &t));
    if (cgn__node_types[p->type->type].get == NULL) {
        assert_int_equal(t, CGN_NODE_OTHER);
    } else {
        assert_int_equal(t, p->type->type);
        OK(p->type->get(nodes[0], again));
        assert_true(p->type->desc_same(again, added));
    }
    assert_int_equal(cgn_node_check_updatable(nodes[0]), CGN_ERROR_NOT_SUPPORTED);
    OK(cgn_graph_destroy(adopted));
    OK(cgn_exec_destroy(e));
    OK(cgn_graph_destroy(g));
}

/* Runs the scenario, unless its case names something this backend cannot make (external
 * semaphores on a GPU): cmocka then reports the test as skipped, not passed. */
static void run_scenario(void **state) {
    matrix_param *p = *state;
    if (p->env.unsupported != NULL) {
        print_message("[ SKIP ] %s[%s] on %s: %s\n", p->type->name, p->tc->id,
                      cgn_test_backend_selected.name, p->env.unsupported);
        skip();
    }
    p->scenario(state);
}

typedef struct scenario {
    const char *name;
    CMUnitTestFunction fn;
    int updates; /* 1: needs the node type's update functions (not registered otherwise) */
} scenario;

static const scenario scenarios[] = {
    {"update_changes_future_instantiations", test_update_changes_future_instantiations, 1},
    {"owners_released_after_last_user", test_owners_released_after_last_user, 1},
    {"invalid_update_preserves_state", test_invalid_update_preserves_state, 1},
    {"driver_failure_preserves_state", test_driver_failure_preserves_state, 1},
    {"destroyed_node_rejects_update", test_destroyed_node_rejects_update, 1},
    {"old_driver_rejects_update", test_old_driver_rejects_update, 1},
    {"empty_update_is_noop", test_empty_update_is_noop, 1},
    {"wrong_node_type_rejected", test_wrong_node_type_rejected, 1},
    {"exec_update_changes_that_exec_only", test_exec_update_changes_that_exec_only, 1},
    {"exec_rules_refuse_before_mutation", test_exec_rules_refuse_before_mutation, 1},
    {"exec_update_failure_preserves_state", test_exec_update_failure_preserves_state, 1},
    {"exec_update_after_graph_destroy", test_exec_update_after_graph_destroy, 1},
    {"exec_refresh_from_graph", test_exec_refresh_from_graph, 1},
    {"exec_refresh_failure_preserves_state", test_exec_refresh_failure_preserves_state, 1},
    {"exec_update_launch_loop_is_bounded", test_exec_update_launch_loop_is_bounded, 1},
    {"exec_destroyed_node_rejected", test_exec_destroyed_node_rejected, 1},
    {"exec_old_driver_rejects_update", test_exec_old_driver_rejects_update, 1},
    {"exec_enable_disable", test_exec_enable_disable, 0},
    {"update_restores_callers_context", test_update_restores_callers_context, 1},
    {"not_updatable_round_trip", test_not_updatable_round_trip, 0},
};

int main(void) {
    /* Probe once: a GPU run without a device skips with 77 instead of failing each test. */
    cgn_test_env probe;
    int rc = cgn_test_env_open(&probe);
    if (rc != 0)
        return rc;
    cgn_test_env_close(&probe);

    size_t nsc = sizeof scenarios / sizeof scenarios[0], n = 0, total = 0, left_out = 0;
    for (size_t t = 0; t < cgn_test_types_count; t++)
        total += cgn_test_types[t]->num_cases * nsc;
    struct CMUnitTest *tests = calloc(total, sizeof *tests);
    matrix_param *params = calloc(total, sizeof *params);
    char (*names)[128] = calloc(total, sizeof *names);
    if (!tests || !params || !names)
        return 1;
    for (size_t t = 0; t < cgn_test_types_count; t++)
        for (size_t c = 0; c < cgn_test_types[t]->num_cases; c++)
            for (size_t s = 0; s < nsc; s++) {
                /* Update scenarios for types without updates, and the round trip of types
                 * without it for the updatable ones, are not registered (counted below). */
                int updatable = cgn_test_types[t]->update != NULL;
                int round_trip = scenarios[s].fn == test_not_updatable_round_trip;
                if (round_trip ? updatable : scenarios[s].updates && !updatable) {
                    left_out += !round_trip;
                    continue;
                }
                params[n].scenario = scenarios[s].fn;
                params[n].type = cgn_test_types[t];
                params[n].tc = &cgn_test_types[t]->cases[c];
                snprintf(names[n], sizeof names[n], "%s[%s]", scenarios[s].name,
                         params[n].tc->id);
                tests[n] = (struct CMUnitTest){names[n], run_scenario, matrix_setup,
                                               matrix_teardown, &params[n]};
                n++;
            }
    if (left_out > 0)
        printf("[ NOTE ] %zu update scenario(s) not registered: their node types are not "
               "updatable (spec: updatable: false)\n", left_out);
    rc = _cmocka_run_group_tests(cgn_test_backend_selected.name, tests, n, NULL, NULL);
    free(tests);
    free(params);
    free(names);
    return rc;
}
