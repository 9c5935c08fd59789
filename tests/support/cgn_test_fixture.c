/* The shared cmocka fixture (see cgn_test_fixture.h). */
#include <stdlib.h>
#include <string.h>

#include "cgn_fault.h"
#include "cgn_test_fixture.h"

int cgn_test_fixture_setup(void **state) {
    cgn_test_env *env = calloc(1, sizeof *env);
    if (env == NULL || cgn_test_env_open(env) != 0) {
        free(env);
        return -1;
    }
    cgn_fault_install(env->backend->driver(env));
    *state = env;
    return 0;
}

int cgn_test_fixture_teardown(void **state) {
    cgn_test_env *env = *state;
    env->backend->set_context(env, CGN_TEST_CTX_OWN); /* a failed test may have left it */
    cgn_test_env_close(env);
    int in_driver = env->released_in_driver;
    size_t live = env->live_at_close, crash_prone = env->crash_prone_calls;
    size_t unreleased = env->unreleased_at_close;
    if (unreleased == 0)
        free(env); /* else a late release callback would still write into it: left allocated */
    assert_int_equal(in_driver, 0);
    assert_int_equal(unreleased, 0);
    assert_int_equal(live, 0);
    assert_int_equal(crash_prone, 0);
    return 0;
}

cgn_memset_desc cgn_test_fill_desc(cgn_test_env *env, int buf, uint32_t value, int owned) {
    cgn_memset_desc d = CGN_MEMSET_DESC_INIT;
    d.dst = env->buf[buf];
    d.dst_owner = owned ? env->owner[buf] : NULL;
    d.value = value;
    d.width = 8;
    return d;
}

void cgn_test_fill_graph(cgn_test_env *env, cgn_graph **graph_out, cgn_node **node_out,
                         cgn_exec **exec_out) {
    OK(cgn_graph_create(graph_out));
    cgn_memset_desc d = cgn_test_fill_desc(env, 0, 0x11, 0);
    OK(cgn_graph_add_memset(*graph_out, NULL, 0, &d, node_out));
    OK(cgn_graph_instantiate(*graph_out, exec_out));
}

uint8_t cgn_test_run_read(cgn_test_env *env, cgn_exec *e, int buf) {
    unsigned char zeros[CGN_TEST_BUF_SIZE] = {0}, got[CGN_TEST_BUF_SIZE];
    env->backend->write(env, env->buf[buf], zeros, sizeof zeros);
    OK(env->backend->launch(env, e));
    env->backend->read(env, env->buf[buf], got, sizeof got);
    return got[0];
}

uint8_t cgn_test_run_graph_read(cgn_test_env *env, cgn_graph *g, int buf) {
    cgn_exec *e;
    OK(cgn_graph_instantiate(g, &e));
    uint8_t got = cgn_test_run_read(env, e, buf);
    OK(cgn_exec_destroy(e));
    return got;
}

void cgn_test_assert_message(const char *want) {
    if (strcmp(cgn_last_error(), want) != 0)
        fail_msg("message \"%s\", expected \"%s\"", cgn_last_error(), want);
}

size_t cgn_test_count_nodes(const cgn_graph *g) {
    size_t count = 0;
    OK(cgn_graph_nodes(g, NULL, &count));
    return count;
}
