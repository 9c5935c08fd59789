/* The test environment shared by the fake-driver and GPU runs of the same scenarios: test
 * buffers (device and host) with owners, test events, test kernels and host callbacks by name,
 * and a model of what each node type must do when an executable runs. */
#ifndef CGN_TESTS_CGN_TEST_ENV_H
#define CGN_TESTS_CGN_TEST_ENV_H

#include <stdatomic.h>
#include <stddef.h>
#include <stdint.h>

#include "cgn/cgn.h"
#include "driver.h"

#define CGN_TEST_NUM_BUFS 4      /* device buffers, "buf:N"; owner N goes with buffer N */
#define CGN_TEST_NUM_HOST_BUFS 2 /* host buffers, "host:N" */
/* CUDA arrays, "array:N": unsigned bytes, ARRAY_WIDTH wide, ARRAY_HEIGHT rows, ARRAY_DEPTH
 * slices (CGN_TEST_BUF_SIZE bytes in all). */
#define CGN_TEST_NUM_ARRAYS 2
#define CGN_TEST_ARRAY_WIDTH 8
#define CGN_TEST_ARRAY_HEIGHT 4
#define CGN_TEST_ARRAY_DEPTH 2
/* Every buffer a launch may read or write: the device buffers, the host buffers, then the
 * arrays (their bytes row by row, slice by slice). */
#define CGN_TEST_NUM_REGIONS (CGN_TEST_NUM_BUFS + CGN_TEST_NUM_HOST_BUFS + CGN_TEST_NUM_ARRAYS)
#define CGN_TEST_BUF_SIZE 64
#define CGN_TEST_NUM_EVENTS 2 /* "event:N" */
#define CGN_TEST_NUM_SEMS 2   /* external semaphores, "sem:N" (fake driver only) */
#define CGN_TEST_MAX_CALLS 8  /* host callback runs logged per launch */
#define CGN_TEST_ARENA 4096
#define CGN_TEST_MAX_ARGS 64

typedef struct cgn_test_env cgn_test_env;

enum { CGN_TEST_CTX_NONE = 0, CGN_TEST_CTX_OWN = 1, CGN_TEST_CTX_FOREIGN = 2 };

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
    /* Host memory copies may use: pinned on a GPU, plain malloc (pageable) on the fake. */
    void *(*alloc_host)(cgn_test_env *env, size_t size);
    void (*free_host)(cgn_test_env *env, void *p);
    CUevent (*event_create)(cgn_test_env *env);
    void (*event_destroy)(cgn_test_env *env, CUevent event);
    /* A kernel by name: add_one, write_config, fill_u32, empty, set_condition (a conditional
     * handle, a value), countdown (a counter, a handle: tests/kernels/cgn_test_kernels.cu). */
    cgn_kernel (*kernel)(cgn_test_env *env, const char *name);
    /* Launches and waits for completion. */
    cgn_status (*launch)(cgn_test_env *env, cgn_exec *exec);
    /* Holds the stream launches go to: work queued from now on stays in flight until
     * release(). hold returns 0 when it could not. */
    int (*hold)(cgn_test_env *env);
    void (*release)(cgn_test_env *env);
    /* Launches without waiting (in flight while held). */
    cgn_status (*launch_async)(cgn_test_env *env, cgn_exec *exec);
    /* Waits until everything launched has completed. */
    void (*sync)(cgn_test_env *env);
    /* Launches, waits for completion and tells which test events the launch recorded:
     * recorded[i] = 1 for env->event[i]. */
    cgn_status (*launch_observe_records)(cgn_test_env *env, cgn_exec *exec,
                                         int recorded[CGN_TEST_NUM_EVENTS]);
    /* Launches (on a GPU, once per test event) and tells which test events a launch waits for:
     * waited[i] = 1 for env->event[i]. */
    cgn_status (*launch_observe_waits)(cgn_test_env *env, cgn_exec *exec,
                                       int waited[CGN_TEST_NUM_EVENTS]);
    /* The calling thread's current context: CGN_TEST_CTX_NONE, _OWN (the one every test
     * node is added in) or _FOREIGN (a second context on the same device). */
    void (*set_context)(cgn_test_env *env, int which);
    /* Which of those is current; -1 for any other. */
    int (*current_context)(cgn_test_env *env);
    /* Kernel `name` as a CUfunction owned by the foreign context. */
    cgn_kernel (*foreign_kernel)(cgn_test_env *env, const char *name);
    /* A CUfunction of a module that has been unloaded since (a dangling handle). */
    cgn_kernel (*unloaded_kernel)(cgn_test_env *env);
    /* The raw driver table the backend runs on (wrapped by the fault proxy in tests). */
    const cgn_driver_table *(*driver)(cgn_test_env *env);
    /* Seconds to wait for CUDA's asynchronous user-object destructors. */
    double release_timeout;
    /* A test array (CGN_TEST_ARRAY_*), its destruction, and all its bytes read or written
     * (CGN_TEST_BUF_SIZE, row by row, slice by slice). */
    CUarray (*array_create)(cgn_test_env *env);
    void (*array_destroy)(cgn_test_env *env, CUarray array);
    void (*array_read)(cgn_test_env *env, CUarray array, void *out);
    void (*array_write)(cgn_test_env *env, CUarray array, const void *data);
    /* External semaphores, NULL where the backend cannot make one (a GPU without Vulkan,
     * D3D12 or NvSciSync to import from): cases naming "sem:N" are then skipped. sem_state
     * gives the signal and wait nodes run on it so far and its value (the latest signal's
     * fence value). */
    CUexternalSemaphore (*sem_create)(cgn_test_env *env);
    void (*sem_destroy)(cgn_test_env *env, CUexternalSemaphore sem);
    void (*sem_state)(cgn_test_env *env, CUexternalSemaphore sem, size_t *signals, size_t *waits,
                      uint64_t *value);
} cgn_test_backend;

/* One run of a test host callback: which callback, and the first byte of its argument. */
typedef struct cgn_test_call {
    int callback;      /* index into the test callbacks: 0 record_a, 1 record_b */
    int has_argument;  /* the argument (userData) was not NULL */
    unsigned char first; /* its first byte, when it has one */
} cgn_test_call;

struct cgn_test_env {
    const cgn_test_backend *backend;
    void *backend_state;
    CUdeviceptr buf[CGN_TEST_NUM_BUFS];
    unsigned char *host[CGN_TEST_NUM_HOST_BUFS];
    CUarray array[CGN_TEST_NUM_ARRAYS];
    CUevent event[CGN_TEST_NUM_EVENTS];
    cgn_owner *owner[CGN_TEST_NUM_BUFS];
    int owner_held[CGN_TEST_NUM_BUFS]; /* 1 while the env holds its own reference */
    int released[CGN_TEST_NUM_BUFS];   /* release callback count per owner */
    int released_in_driver;            /* release callbacks run inside a driver callback */
    size_t live_at_close;              /* driver objects still alive when the env closed */
    size_t unreleased_at_close;        /* owners of the env not released when it closed */
    size_t crash_prone_calls;          /* calls that crash the real driver (the fake counts) */
    /* Host callback runs since the last launch began; on a GPU they run on a CUDA thread. */
    cgn_test_call calls[CGN_TEST_MAX_CALLS];
    atomic_int num_calls;
    unsigned char arena[CGN_TEST_ARENA];
    size_t arena_used;
    cgn_arg args[CGN_TEST_MAX_ARGS];
    size_t args_used;
    /* Test graphs for child-graph nodes, made on first use; graph_id keeps the pointer value
     * after the graph is destroyed, so the model can still tell which one a desc names. */
    cgn_graph *graph[CGN_TEST_NUM_BUFS];
    const cgn_graph *graph_id[CGN_TEST_NUM_BUFS];
    /* Test graph allocations ("galloc:N"), made on first use; freed at close unless a launch
     * freed them (cgn_test_launched). */
    CUdeviceptr galloc[CGN_TEST_NUM_BUFS];
    int galloc_freed[CGN_TEST_NUM_BUFS];
    void *mem_op_blocks; /* cgn_test_mem_ops arrays, a list freed when the env closes */
    CUexternalSemaphore sem[CGN_TEST_NUM_SEMS]; /* NULL without backend->sem_create */
    /* Why a case built in this env cannot run on this backend (a "sem:N" without
     * semaphores), or NULL: the matrix reports such tests as skipped. */
    const char *unsupported;
};

extern const cgn_test_backend cgn_test_backend_selected;

/* Used by the generated case tables. */
CUdeviceptr cgn_test_buf(cgn_test_env *env, int i);
/* Host buffer i as a copy operand address ("host:N" of an address field). */
CUdeviceptr cgn_test_host(cgn_test_env *env, int i);
/* Host buffer i as a pointer ("host:N" of a void * field). */
void *cgn_test_host_ptr(cgn_test_env *env, int i);
CUevent cgn_test_event(cgn_test_env *env, int i);
/* Test array i ("array:N" of a CUarray field). */
CUarray cgn_test_array(cgn_test_env *env, int i);
/* A test host callback by name: record_a or record_b. */
CUhostFn cgn_test_callback(cgn_test_env *env, const char *name);
/* A copy of `size` bytes in the env's arena (a non-NULL pointer even for size 0). */
const void *cgn_test_bytes(cgn_test_env *env, const void *bytes, size_t size);
cgn_owner *cgn_test_owner(cgn_test_env *env, int i);
/* Test graph i ("graph:N"): one memset filling test buffer i with 0x40 + i (8 bytes), with
 * owner i. cgn_test_env_drop_owners destroys it, so only embedded copies keep the owner. */
cgn_graph *cgn_test_graph(cgn_test_env *env, int i);
cgn_kernel cgn_test_kernel(cgn_test_env *env, const char *name);
/* Test graph allocation i ("galloc:N"): 64 bytes of device 0 allocated by the allocation node
 * of a helper graph, launched once and destroyed (the memory stays allocated). */
CUdeviceptr cgn_test_graph_alloc(cgn_test_env *env, int i);
/* Frees a graph allocation by launching a helper graph with one free node. */
void cgn_test_graph_free(cgn_test_env *env, CUdeviceptr dptr);
/* After one launch of an executable holding the node `desc` (as read back, outputs included)
 * describes: frees what an allocation node allocated, and records that a free node freed its
 * test graph allocation, so that the next launch (or the env's close) does not fail. */
void cgn_test_launched(cgn_test_env *env, cgn_node_type type, const void *desc);
cgn_arg cgn_test_arg_buf(cgn_test_env *env, int i, int owned);
cgn_arg cgn_test_arg_u32(cgn_test_env *env, uint32_t value);
cgn_arg *cgn_test_args(cgn_test_env *env, size_t n);
/* n batch memory operations (non-NULL for n = 0), kept until the env closes; each starts as
 * a 32-bit write of 0 to buf:0 (the form {many: N} gives n of). */
CUstreamBatchMemOpParams *cgn_test_mem_ops(cgn_test_env *env, size_t n);
/* One operation on test buffer `buf` (-1: none, for a flush or barrier), `offset` bytes in. */
CUstreamBatchMemOpParams cgn_test_mem_op(cgn_test_env *env, CUstreamBatchMemOpType type, int buf,
                                         size_t offset, uint64_t value, unsigned flags);

/* n zeroed bytes (a non-NULL pointer for 0) kept until the env closes: the arrays of
 * copied_arrays field kinds in generated cases. */
void *cgn_test_zeroed(cgn_test_env *env, size_t size);
/* Test external semaphore i ("sem:N"); NULL, with env->unsupported set, where the backend has
 * none. */
CUexternalSemaphore cgn_test_sem(cgn_test_env *env, int i);

/* Env lifecycle: buffers, events, owners and the backend. 0, or 77 to skip. */
int cgn_test_env_open(cgn_test_env *env);
void cgn_test_env_close(cgn_test_env *env);
/* Drops the env's own owner references, so only graphs and executables hold them. */
void cgn_test_env_drop_owners(cgn_test_env *env);
/* Polls cgn_collect() until every owner the env still holds is referenced by the env (and its
 * test graph, if made) alone,
 * i.e. CUDA has run every pending destructor of earlier graphs and executables (on a GPU they
 * may run asynchronously). Returns 0 on timeout. */
int cgn_test_settle(cgn_test_env *env);
/* Polls cgn_collect() until owner i has been released `count` times or the backend's timeout. */
int cgn_test_wait_released(cgn_test_env *env, int i, int count);

/* What one launch of an executable does, as far as the tests can see. */
typedef struct cgn_test_observation {
    unsigned char mem[CGN_TEST_NUM_REGIONS][CGN_TEST_BUF_SIZE]; /* every buffer afterwards */
    int recorded[CGN_TEST_NUM_EVENTS]; /* event record nodes: the launch recorded event i */
    int waited[CGN_TEST_NUM_EVENTS];   /* event wait nodes: the launch waited for event i */
    size_t sem_signals[CGN_TEST_NUM_SEMS]; /* signal nodes the launch ran on semaphore i */
    size_t sem_waits[CGN_TEST_NUM_SEMS];   /* wait nodes the launch ran on semaphore i */
    uint64_t sem_value[CGN_TEST_NUM_SEMS]; /* semaphore i's value afterwards */
    int num_calls;                     /* host callback runs, in order */
    cgn_test_call calls[CGN_TEST_MAX_CALLS];
} cgn_test_observation;

/* The contents every test buffer starts a launch with: distinct per buffer at every offset,
 * so any write (zeros too) and any wrong source shows. */
void cgn_test_initial_contents(unsigned char contents[CGN_TEST_NUM_REGIONS][CGN_TEST_BUF_SIZE]);
/* What the node described by desc must do when run alone, starting from *expected holding
 * the initial contents and nothing else. */
void cgn_test_predict(cgn_test_env *env, cgn_node_type type, const void *desc,
                      cgn_test_observation *expected);
/* The model of one node type (cgn_test_model_<node> in cgn_test_env.c), reached through the
 * table generated from spec/ (generated/tests/cgn_cases_all.c): a spec without its model is a
 * link error, not a failure at run time. */
typedef void (*cgn_test_model_fn)(cgn_test_env *env, const void *desc,
                                  cgn_test_observation *expected);
extern const cgn_test_model_fn cgn_test_models[CGN_NODE_TYPE_COUNT_];
/* Fills the buffers with their initial contents, launches exec (observing events as the node
 * type needs), and compares buffers, event records and waits, and host callback runs with the
 * prediction for desc (NULL: the launch must change nothing at all, a disabled node). Returns
 * 1 when they match, else prints the first difference and returns 0. */
int cgn_test_exec_matches(cgn_test_env *env, cgn_node_type type, cgn_exec *exec, const void *desc,
                          const char *label);

#endif /* CGN_TESTS_CGN_TEST_ENV_H */
