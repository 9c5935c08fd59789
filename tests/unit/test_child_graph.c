/* Child-graph embeddings (on the fake driver, label unit, and on a GPU, label gpu): same-hierarchy
 * sources rejected untouched, nodes inside an embedding updatable, old embedded handles invalid
 * after a replacement, nested embeddings, and owners carried by the embedded copy. */
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
#include "runtime.h"

/* A graph with one memset of `value` into test buffer `buf`, owned by owner `buf`. */
static cgn_graph *fill_graph(cgn_test_env *env, int buf, uint32_t value, cgn_node **fill) {
    cgn_graph *g;
    OK(cgn_graph_create(&g));
    cgn_memset_desc d = CGN_MEMSET_DESC_INIT;
    d.dst = env->buf[buf];
    d.dst_owner = env->owner[buf];
    d.value = value;
    d.width = 8;
    OK(cgn_graph_add_memset(g, NULL, 0, &d, fill));
    return g;
}

static cgn_node *add_child(cgn_graph *parent, cgn_graph *source) {
    cgn_child_graph_desc d = CGN_CHILD_GRAPH_DESC_INIT;
    d.graph = source;
    cgn_node *node;
    OK(cgn_graph_add_child_graph(parent, NULL, 0, &d, &node));
    return node;
}

static void test_same_hierarchy_rejected_untouched(void **state) {
    cgn_test_env *env = *state;
    cgn_node *fill;
    cgn_graph *source = fill_graph(env, 0, 0x11, &fill);
    cgn_graph *parent;
    OK(cgn_graph_create(&parent));
    cgn_node *child = add_child(parent, source);
    cgn_graph *embedded;
    OK(cgn_child_graph_node_embedded(child, &embedded));
    cgn_child_graph_update u = CGN_CHILD_GRAPH_UPDATE_INIT;
    cgn_child_graph_update_set_graph(&u, embedded);
    cgn_fault_reset_counts();
    assert_int_equal(cgn_child_graph_node_update(child, &u), CGN_ERROR_SAME_HIERARCHY);
    cgn_child_graph_update_set_graph(&u, parent);
    assert_int_equal(cgn_child_graph_node_update(child, &u), CGN_ERROR_SAME_HIERARCHY);
    assert_int_equal(cgn_fault_setter_calls(), 0);
    cgn_graph *still;
    OK(cgn_child_graph_node_embedded(child, &still));
    assert_ptr_equal(still, embedded);
    assert_int_equal(cgn_test_run_graph_read(env, parent, 0), 0x11);
    /* Embedding the parent into a graph of its own hierarchy is refused at add too. */
    cgn_child_graph_desc d = CGN_CHILD_GRAPH_DESC_INIT;
    d.graph = parent;
    cgn_node *loop;
    assert_int_equal(cgn_graph_add_child_graph(embedded, NULL, 0, &d, &loop),
                     CGN_ERROR_SAME_HIERARCHY);
    assert_int_equal(cgn_graph_destroy(embedded), CGN_ERROR_INVALID_ARGUMENT);
    assert_int_equal(cgn_child_graph_node_embedded(child, NULL), CGN_ERROR_INVALID_ARGUMENT);
    assert_int_equal(cgn_child_graph_node_find(child, NULL, &loop), CGN_ERROR_INVALID_ARGUMENT);
    assert_int_equal(cgn_child_graph_node_find(child, fill, NULL), CGN_ERROR_INVALID_ARGUMENT);
    cgn_child_graph_desc null_graph = CGN_CHILD_GRAPH_DESC_INIT;
    assert_int_equal(cgn_graph_add_child_graph(parent, NULL, 0, &null_graph, &loop),
                     CGN_ERROR_INVALID_VALUE);
    OK(cgn_graph_destroy(parent));
    OK(cgn_graph_destroy(source));
}

static void test_update_inside_embedding(void **state) {
    cgn_test_env *env = *state;
    cgn_node *fill;
    cgn_graph *source = fill_graph(env, 0, 0x11, &fill);
    cgn_graph *parent;
    OK(cgn_graph_create(&parent));
    cgn_node *child = add_child(parent, source);
    cgn_node *inner;
    OK(cgn_child_graph_node_find(child, fill, &inner));
    assert_ptr_not_equal(inner, fill);
    cgn_memset_update u = CGN_MEMSET_UPDATE_INIT;
    cgn_memset_update_set_value(&u, 0x5a, 1);
    OK(cgn_memset_node_update(inner, &u));
    assert_int_equal(cgn_test_run_graph_read(env, parent, 0), 0x5a); /* the embedding changed */
    assert_int_equal(cgn_test_run_graph_read(env, source, 0), 0x11); /* the source did not */
    cgn_memset_desc got;
    OK(cgn_memset_node_get(fill, &got));
    assert_int_equal(got.value, 0x11);
    OK(cgn_graph_destroy(parent));
    OK(cgn_graph_destroy(source));
}

static void test_replacement_invalidates_old_embedding(void **state) {
    cgn_test_env *env = *state;
    cgn_node *fill0, *fill1;
    cgn_graph *g0 = fill_graph(env, 0, 0x11, &fill0);
    cgn_graph *g1 = fill_graph(env, 1, 0x22, &fill1);
    cgn_graph *parent;
    OK(cgn_graph_create(&parent));
    cgn_node *child = add_child(parent, g0);
    cgn_graph *old_embedded;
    cgn_node *old_inner;
    OK(cgn_child_graph_node_embedded(child, &old_embedded));
    OK(cgn_child_graph_node_find(child, fill0, &old_inner));
    cgn_exec *old_exec;
    OK(cgn_graph_instantiate(parent, &old_exec));
    cgn_child_graph_update u = CGN_CHILD_GRAPH_UPDATE_INIT;
    cgn_child_graph_update_set_graph(&u, g1);
    OK(cgn_child_graph_node_update(child, &u));
    /* Old handles report it; they do not crash. */
    assert_false(cgn_node_is_alive(old_inner));
    cgn_memset_update mu = CGN_MEMSET_UPDATE_INIT;
    cgn_memset_update_set_value(&mu, 0x33, 1);
    assert_int_equal(cgn_memset_node_update(old_inner, &mu), CGN_ERROR_DESTROYED);
    cgn_exec *e;
    assert_int_equal(cgn_graph_instantiate(old_embedded, &e), CGN_ERROR_DESTROYED);
    cgn_node *n;
    assert_int_equal(cgn_graph_add_empty(old_embedded, NULL, 0, &n), CGN_ERROR_DESTROYED);
    assert_int_equal(cgn_child_graph_node_find(child, fill0, &n), CGN_ERROR_INVALID_VALUE);
    cgn_node *new_inner;
    OK(cgn_child_graph_node_find(child, fill1, &new_inner));
    OK(cgn_memset_node_update(new_inner, &mu));
    /* The old executable still runs the old child. */
    unsigned char zeros[CGN_TEST_BUF_SIZE] = {0}, got[CGN_TEST_BUF_SIZE];
    env->backend->write(env, env->buf[0], zeros, sizeof zeros);
    OK(env->backend->launch(env, old_exec));
    env->backend->read(env, env->buf[0], got, sizeof got);
    assert_int_equal(got[0], 0x11);
    assert_int_equal(cgn_test_run_graph_read(env, parent, 1), 0x33);
    OK(cgn_exec_destroy(old_exec));
    OK(cgn_graph_destroy(parent));
    OK(cgn_graph_destroy(g0));
    OK(cgn_graph_destroy(g1));
}

static void test_nested_embedding(void **state) {
    cgn_test_env *env = *state;
    cgn_node *fill;
    cgn_graph *inner = fill_graph(env, 2, 0x44, &fill);
    cgn_graph *middle, *parent;
    OK(cgn_graph_create(&middle));
    cgn_node *middle_child = add_child(middle, inner);
    OK(cgn_graph_create(&parent));
    cgn_node *top_child = add_child(parent, middle);
    cgn_node *copy_of_middle_child, *deep;
    OK(cgn_child_graph_node_find(top_child, middle_child, &copy_of_middle_child));
    cgn_node *middle_fill;
    OK(cgn_child_graph_node_find(middle_child, fill, &middle_fill));
    OK(cgn_child_graph_node_find(copy_of_middle_child, middle_fill, &deep));
    cgn_memset_update u = CGN_MEMSET_UPDATE_INIT;
    cgn_memset_update_set_value(&u, 0x66, 1);
    OK(cgn_memset_node_update(deep, &u));
    assert_int_equal(cgn_test_run_graph_read(env, parent, 2), 0x66);
    assert_int_equal(cgn_test_run_graph_read(env, middle, 2), 0x44);
    /* Destroying the top child node retires everything below it. */
    OK(cgn_node_destroy(top_child));
    assert_false(cgn_node_is_alive(copy_of_middle_child));
    assert_false(cgn_node_is_alive(deep));
    assert_int_equal(cgn_memset_node_update(deep, &u), CGN_ERROR_DESTROYED);
    OK(cgn_graph_destroy(parent));
    OK(cgn_graph_destroy(middle));
    OK(cgn_graph_destroy(inner));
}

static void test_embedding_keeps_owners_of_its_copy(void **state) {
    cgn_test_env *env = *state;
    cgn_node *fill;
    cgn_graph *source = fill_graph(env, 3, 0x77, &fill);
    cgn_graph *parent;
    OK(cgn_graph_create(&parent));
    add_child(parent, source);
    cgn_test_env_drop_owners(env);
    OK(cgn_graph_destroy(source)); /* the embedded copy still holds owner 3 */
    cgn_collect();
    assert_int_equal(env->released[3], 0);
    assert_int_equal(cgn_test_run_graph_read(env, parent, 3), 0x77);
    OK(cgn_graph_destroy(parent));
    assert_true(cgn_test_wait_released(env, 3, 1));
}

/* Destroying the child node releases its copy's owners, once no executable holds them. */
static void test_child_node_destroy_releases_copy_owners(void **state) {
    cgn_test_env *env = *state;
    cgn_node *fill;
    cgn_graph *source = fill_graph(env, 1, 0x21, &fill);
    cgn_graph *parent;
    OK(cgn_graph_create(&parent));
    cgn_node *child = add_child(parent, source);
    cgn_exec *exec;
    OK(cgn_graph_instantiate(parent, &exec));
    cgn_test_env_drop_owners(env);
    OK(cgn_graph_destroy(source));
    OK(cgn_node_destroy(child));
    cgn_collect();
    assert_int_equal(env->released[1], 0); /* the executable still holds the copy */
    OK(cgn_exec_destroy(exec));
    assert_true(cgn_test_wait_released(env, 1, 1));
    assert_int_equal(cgn_test_run_graph_read(env, parent, 1),
                     0); /* the parent no longer fills it */
    OK(cgn_graph_destroy(parent));
}

/* After an executable-level replacement of the child's graph (same topology), the nodes inside
 * are still addressed through the definition's embedded copies: an executable-level update of
 * one reaches the executable, whose launch does the new work; the definition is unchanged. */
static void test_exec_update_inside_after_exec_replacement(void **state) {
    cgn_test_env *env = *state;
    cgn_node *fill, *other_fill;
    cgn_graph *source = fill_graph(env, 0, 0x11, &fill);
    cgn_graph *other = fill_graph(env, 0, 0x22, &other_fill);
    cgn_graph *parent;
    OK(cgn_graph_create(&parent));
    cgn_node *child = add_child(parent, source);
    cgn_node *inner;
    OK(cgn_child_graph_node_find(child, fill, &inner));
    cgn_exec *e;
    OK(cgn_graph_instantiate(parent, &e));
    cgn_child_graph_update r = CGN_CHILD_GRAPH_UPDATE_INIT;
    cgn_child_graph_update_set_graph(&r, other);
    OK(cgn_child_graph_exec_update(e, child, &r));
    assert_int_equal(cgn_test_run_read(env, e, 0), 0x22);
    cgn_memset_update u = CGN_MEMSET_UPDATE_INIT;
    cgn_memset_update_set_value(&u, 0x33, 1);
    OK(cgn_memset_exec_update(e, inner, &u));
    assert_int_equal(cgn_test_run_read(env, e, 0), 0x33);
    cgn_memset_desc got;
    OK(cgn_memset_node_get(inner, &got));
    assert_int_equal(got.value, 0x11);
    OK(cgn_exec_destroy(e));
    OK(cgn_graph_destroy(parent));
    OK(cgn_graph_destroy(source));
    OK(cgn_graph_destroy(other));
}

int main(void) {
    cgn_test_env probe; /* a GPU build without a device skips (77) */
    int rc = cgn_test_env_open(&probe);
    if (rc != 0)
        return rc;
    cgn_test_env_close(&probe);
    const struct CMUnitTest tests[] = {
        cmocka_unit_test_setup_teardown(test_same_hierarchy_rejected_untouched,
                                        cgn_test_fixture_setup, cgn_test_fixture_teardown),
        cmocka_unit_test_setup_teardown(test_update_inside_embedding, cgn_test_fixture_setup,
                                        cgn_test_fixture_teardown),
        cmocka_unit_test_setup_teardown(test_replacement_invalidates_old_embedding,
                                        cgn_test_fixture_setup, cgn_test_fixture_teardown),
        cmocka_unit_test_setup_teardown(test_nested_embedding, cgn_test_fixture_setup,
                                        cgn_test_fixture_teardown),
        cmocka_unit_test_setup_teardown(test_embedding_keeps_owners_of_its_copy,
                                        cgn_test_fixture_setup, cgn_test_fixture_teardown),
        cmocka_unit_test_setup_teardown(test_child_node_destroy_releases_copy_owners,
                                        cgn_test_fixture_setup, cgn_test_fixture_teardown),
        cmocka_unit_test_setup_teardown(test_exec_update_inside_after_exec_replacement,
                                        cgn_test_fixture_setup, cgn_test_fixture_teardown),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
