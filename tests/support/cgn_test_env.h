/* The test environment shared by the fake-driver and GPU runs of the same scenarios: test
 * buffers with owners, test kernels by name, and a model of what each node type must write. */
#ifndef CGN_TESTS_CGN_TEST_ENV_H
#define CGN_TESTS_CGN_TEST_ENV_H

#include <stddef.h>
#include <stdint.h>

#include "cgn/cgn.h"
#include "driver.h"

#define CGN_TEST_NUM_BUFS 4
#define CGN_TEST_BUF_SIZE 64
#define CGN_TEST_ARENA 4096
#define CGN_TEST_MAX_ARGS 64

typedef struct cgn_test_env cgn_test_env;

/* A backend runs the graphs: the fake driver on the host, or the real driver on a GPU. */
typedef struct cgn_test_backend {
    const char *name;
    /* 0 when ready; 77 (skip) when the backend cannot run here, after printing why. */
    int (*open)(cgn_test_env *env);
    void (*close)(cgn_test_env *env);
    CUdeviceptr (*alloc)(cgn_test_env *env, size_t size);
    void (*free)(cgn_test_env *env, CUdeviceptr p);
    void (*read)(cgn_test_env *env, CUdeviceptr p, void *out, size_t size);
    void (*write)(cgn_test_env *env, CUdeviceptr p, const void *data, size_t size);
    /* A kernel by name: add_one, write_config, fill_u32, empty. */
    cgn_kernel (*kernel)(cgn_test_env *env, const char *name);
    /* Launches and waits for completion. */
    cgn_status (*launch)(cgn_test_env *env, cgn_exec *exec);
    /* The raw driver table the backend runs on (wrapped by the fault proxy in tests). */
    const cgn_driver_table *(*driver)(cgn_test_env *env);
    /* Seconds to wait for CUDA's asynchronous user-object destructors. */
    double release_timeout;
} cgn_test_backend;

struct cgn_test_env {
    const cgn_test_backend *backend;
    void *backend_state;
    CUdeviceptr buf[CGN_TEST_NUM_BUFS];
    cgn_owner *owner[CGN_TEST_NUM_BUFS];
    int owner_held[CGN_TEST_NUM_BUFS]; /* 1 while the env holds its own reference */
    int released[CGN_TEST_NUM_BUFS];   /* release callback count per owner */
    int released_in_driver;            /* release callbacks run inside a driver callback */
    size_t live_at_close;              /* driver objects still alive when the env closed */
    unsigned char arena[CGN_TEST_ARENA];
    size_t arena_used;
    cgn_arg args[CGN_TEST_MAX_ARGS];
    size_t args_used;
};

extern const cgn_test_backend cgn_test_backend_selected;

/* Used by the generated case tables. */
CUdeviceptr cgn_test_buf(cgn_test_env *env, int i);
cgn_owner *cgn_test_owner(cgn_test_env *env, int i);
cgn_kernel cgn_test_kernel(cgn_test_env *env, const char *name);
cgn_arg cgn_test_arg_buf(cgn_test_env *env, int i, int owned);
cgn_arg cgn_test_arg_u32(cgn_test_env *env, uint32_t value);
cgn_arg *cgn_test_args(cgn_test_env *env, size_t n);

/* Env lifecycle: buffers, owners and the backend. 0, or 77 to skip. */
int cgn_test_env_open(cgn_test_env *env);
void cgn_test_env_close(cgn_test_env *env);
/* Drops the env's own owner references, so only graphs and executables hold them. */
void cgn_test_env_drop_owners(cgn_test_env *env);
/* Polls cgn_collect() until every owner the env still holds is referenced by the env alone,
 * i.e. CUDA has run every pending destructor of earlier graphs and executables (on a GPU they
 * may run asynchronously). Returns 0 on timeout. */
int cgn_test_settle(cgn_test_env *env);
/* Polls cgn_collect() until owner i has been released `count` times or the backend's timeout. */
int cgn_test_wait_released(cgn_test_env *env, int i, int count);

/* The contents every test buffer starts a launch with: distinct per buffer and byte, so any
 * write (zeros too) and any wrong source shows. */
void cgn_test_initial_contents(unsigned char contents[CGN_TEST_NUM_BUFS][CGN_TEST_BUF_SIZE]);
/* What the node described by desc must leave in the test buffers, starting from
 * cgn_test_initial_contents. */
void cgn_test_predict(cgn_test_env *env, cgn_node_type type, const void *desc,
                      unsigned char expected[CGN_TEST_NUM_BUFS][CGN_TEST_BUF_SIZE]);
/* Fills the buffers with their initial contents, launches exec, and compares every buffer with
 * the prediction for desc.
 * Returns 1 when they match, else prints the first difference and returns 0. */
int cgn_test_exec_matches(cgn_test_env *env, cgn_node_type type, cgn_exec *exec, const void *desc,
                          const char *label);

#endif /* CGN_TESTS_CGN_TEST_ENV_H */
