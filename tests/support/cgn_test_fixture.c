/* The shared cmocka fixture (see cgn_test_fixture.h). */
#include <stdlib.h>

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
    free(env);
    assert_int_equal(in_driver, 0);
    assert_int_equal(live, 0);
    assert_int_equal(crash_prone, 0);
    return 0;
}
