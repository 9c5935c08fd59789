/* The cmocka fixture the hand-written unit tests share: a fresh test env per test, the
 * fault-injecting proxy over the backend's driver, and the checks every test must pass at the
 * end (no release callback inside a driver callback, no driver object left alive). */
#ifndef CGN_TESTS_CGN_TEST_FIXTURE_H
#define CGN_TESTS_CGN_TEST_FIXTURE_H

#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>

#include <cmocka.h>

#include "cgn_test_env.h"

/* Fails with the status name and cgn_last_error() when `call` does not return CGN_OK. */
#define OK(call)                                                                                   \
    do {                                                                                           \
        cgn_status ok_st_ = (call);                                                                \
        if (ok_st_ != CGN_OK)                                                                      \
            fail_msg("%s: %s (%s)", #call, cgn_status_name(ok_st_), cgn_last_error());            \
    } while (0)

/* Fails unless cgn_last_error() is exactly `want`, showing both. */
void cgn_test_assert_message(const char *want);
/* The number of live nodes of g (cgn_graph_nodes). */
size_t cgn_test_count_nodes(const cgn_graph *g);

/* *state becomes the cgn_test_env. */
int cgn_test_fixture_setup(void **state);
int cgn_test_fixture_teardown(void **state);

/* A memset of 8 bytes of `value` into buffer `buf`, with that buffer's owner when `owned`. */
cgn_memset_desc cgn_test_fill_desc(cgn_test_env *env, int buf, uint32_t value, int owned);
/* The fixture most executable-level tests start from: a new graph with one memset node (0x11
 * into buffer 0, no owner: cgn_test_fill_desc(env, 0, 0x11, 0)) and an executable of it. */
void cgn_test_fill_graph(cgn_test_env *env, cgn_graph **graph_out, cgn_node **node_out,
                         cgn_exec **exec_out);
/* Runs exec once from zeroed buffers and returns byte 0 of buffer `buf`. */
uint8_t cgn_test_run_read(cgn_test_env *env, cgn_exec *e, int buf);
/* The same with an executable of g made for the run and destroyed after it. */
uint8_t cgn_test_run_graph_read(cgn_test_env *env, cgn_graph *g, int buf);

#endif /* CGN_TESTS_CGN_TEST_FIXTURE_H */
