/* The cmocka fixture the hand-written unit tests share: a fresh test env per test, the
 * fault-injecting proxy over the backend's driver, and the checks every test must pass at the
 * end (no release callback inside a driver callback, no driver object left alive). */
#ifndef CGN_TESTS_CGN_TEST_FIXTURE_H
#define CGN_TESTS_CGN_TEST_FIXTURE_H

#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>

#include <cmocka.h>

#include "cgn_test_env.h"

/* Fails with the status name and cgn_last_error() when `call` does not return CGN_OK. */
#define OK(call)                                                                                   \
    do {                                                                                           \
        cgn_status ok_st_ = (call);                                                                \
        if (ok_st_ != CGN_OK)                                                                      \
            fail_msg("%s: %s (%s)", #call, cgn_status_name(ok_st_), cgn_last_error());            \
    } while (0)

/* *state becomes the cgn_test_env. */
int cgn_test_fixture_setup(void **state);
int cgn_test_fixture_teardown(void **state);

#endif /* CGN_TESTS_CGN_TEST_FIXTURE_H */
