/* The runtime (runtime/) where the other unit tests do not look, on the fake driver: kernel
 * argument blocks of many arguments and of more parameters than cgn asks for on the stack,
 * kernel nodes read back from the driver in unusual forms, the NO_CONTEXT message, driver
 * failures while adding, instantiating, adopting and refreshing (messages name the function and
 * the call; nothing is left behind), the raw-handle rule for versions already retired, whole-graph
 * refresh refusals, child graphs of destroyed sources, and a driver listing edges of unknown
 * nodes. (Issue 8: test strength.) */
#define _DEFAULT_SOURCE 1 /* alarm */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <cmocka.h>

#include "cgn_fault.h"
#include "cgn_test_env.h"
#include "cgn_test_fixture.h"
#include "fake_driver.h"
#include "runtime.h"

#define CU_OK(call) assert_int_equal((call), CUDA_SUCCESS)

static const cgn_driver_table *drv(void) {
    return cgn__driver;
}

static void assert_message_starts(const char *prefix) {
    if (strncmp(cgn_last_error(), prefix, strlen(prefix)) != 0)
        fail_msg("message \"%s\" does not start with \"%s\"", cgn_last_error(), prefix);
}

static long owner_refs(const cgn_owner *o) {
    return atomic_load(&((cgn_owner *)(uintptr_t)o)->refs);
}

static size_t node_count(const cgn_graph *g) {
    size_t n = 0;
    OK(cgn_graph_nodes(g, NULL, &n));
    return n;
}

/* ---- kernels: argument blocks ---------------------------------------------------------------- */

/* A kernel whose first parameter is a device pointer; it writes every other argument's bytes
 * there, one after another. */
static void run_concat(void **args, const CUDA_KERNEL_NODE_PARAMS_v2 *launch, void *user) {
    (void)launch;
    const size_t *sizes = user;
    CUdeviceptr out;
    memcpy(&out, args[0], sizeof out);
    unsigned char *p = (unsigned char *)(uintptr_t)out;
    for (size_t i = 1; sizes[i] != 0; i++) {
        memcpy(p, args[i], sizes[i]);
        p += sizes[i];
    }
}

/* FNV-1a over bytes, continuing from h. */
static uint64_t fnv(uint64_t h, const void *p, size_t n) {
    const unsigned char *b = p;
    for (size_t i = 0; i < n; i++)
        h = (h ^ b[i]) * 0x100000001b3ull;
    return h;
}

/* Like run_concat, but writes one 8-byte hash of the other arguments' bytes. */
static void run_hash(void **args, const CUDA_KERNEL_NODE_PARAMS_v2 *launch, void *user) {
    (void)launch;
    const size_t *sizes = user;
    CUdeviceptr out;
    memcpy(&out, args[0], sizeof out);
    uint64_t h = 0xcbf29ce484222325ull;
    for (size_t i = 1; sizes[i] != 0; i++)
        h = fnv(h, args[i], sizes[i]);
    memcpy((void *)(uintptr_t)out, &h, sizeof h);
}

/* Parameter sizes, 0-terminated (the first is the output pointer). */
static const size_t five_sizes[] = {8, 4, 16, 2, 8, 0};
static const size_t wide_count = 70; /* more than cgn asks the driver for on the stack (64) */
static size_t wide_sizes[71];

static cgn_kernel register_concat(const char *name, const size_t *sizes, size_t n) {
    CUfunction f = cgn_fake_register_kernel(name, n, sizes, n > 8 ? run_hash : run_concat,
                                            (void *)(uintptr_t)sizes);
    assert_non_null(f);
    return CGN_KERNEL(cgn_fake_kernel_of(f));
}

/* Runs exec from a zeroed buffer 0 and checks that it holds `want`. */
static void assert_run_writes(cgn_test_env *env, cgn_exec *e, const void *want, size_t size) {
    unsigned char got[CGN_TEST_BUF_SIZE] = {0};
    assert_true(size <= sizeof got);
    env->backend->write(env, env->buf[0], got, sizeof got);
    OK(env->backend->launch(env, e));
    env->backend->read(env, env->buf[0], got, sizeof got);
    assert_memory_equal(got, want, size);
}

/* A node's arguments as cgn reports them: each value its own copy of the given bytes, in order,
 * with its size and owner. */
static void assert_args(const cgn_arg *got, uint32_t num_got, const cgn_arg *want, uint32_t n) {
    assert_int_equal(num_got, n);
    for (uint32_t i = 0; i < n; i++) {
        assert_int_equal(got[i].size, want[i].size);
        assert_memory_equal(got[i].value, want[i].value, want[i].size);
        assert_ptr_not_equal(got[i].value, want[i].value);
        assert_ptr_equal(got[i].owner, want[i].owner);
    }
}

/* Five arguments of mixed sizes: the node's desc, the executable's copy and the launch all see
 * each argument's own bytes, after adding, after replacing them all and after editing one. */
static void test_many_arguments_keep_their_values(void **state) {
    cgn_test_env *env = *state;
    cgn_kernel k = register_concat("concat5", five_sizes, 5);
    CUdeviceptr out = env->buf[0];
    uint32_t a = 0x11223344;
    unsigned char b[16];
    for (int i = 0; i < 16; i++)
        b[i] = (unsigned char)(0xa0 + i);
    uint16_t c = 0x5566;
    uint64_t d = 0x0102030405060708ull;
    cgn_arg args[5] = {CGN_ARG_OWNED(out, env->owner[0]),
                       CGN_ARG(a),
                       {b, sizeof b, env->owner[1]},
                       CGN_ARG(c),
                       CGN_ARG_OWNED(d, env->owner[2])};
    cgn_kernel_desc kd = CGN_KERNEL_DESC_INIT;
    kd.kernel = k;
    kd.grid = kd.block = CGN_DIM3(1, 1, 1);
    kd.args = args;
    kd.num_args = 5;
    cgn_graph *g;
    cgn_node *n;
    cgn_exec *e;
    OK(cgn_graph_create(&g));
    OK(cgn_graph_add_kernel(g, NULL, 0, &kd, &n));
    OK(cgn_graph_instantiate(g, &e));
    cgn_kernel_desc got;
    OK(cgn_kernel_node_get(n, &got));
    assert_args(got.args, got.num_args, args, 5);
    OK(cgn_kernel_exec_get(e, n, &got));
    assert_args(got.args, got.num_args, args, 5);
    unsigned char want[4 + 16 + 2 + 8];
    memcpy(want, &a, 4);
    memcpy(want + 4, b, 16);
    memcpy(want + 20, &c, 2);
    memcpy(want + 22, &d, 8);
    assert_run_writes(env, e, want, sizeof want);

    /* Every argument replaced, at both levels. */
    a = 0x99887766;
    b[15] = 0x01;
    c = 0x7788;
    cgn_kernel_update u = CGN_KERNEL_UPDATE_INIT;
    cgn_kernel_update_set_args(&u, args, 5);
    OK(cgn_kernel_node_update(n, &u));
    OK(cgn_kernel_exec_update(e, n, &u));
    OK(cgn_kernel_node_get(n, &got));
    assert_args(got.args, got.num_args, args, 5);
    OK(cgn_kernel_exec_get(e, n, &got));
    assert_args(got.args, got.num_args, args, 5);
    memcpy(want, &a, 4);
    memcpy(want + 4, b, 16);
    memcpy(want + 20, &c, 2);
    assert_run_writes(env, e, want, sizeof want);

    /* One argument edited: the others keep their bytes and owners. */
    uint16_t c2 = 0x1234;
    cgn_kernel_update one = CGN_KERNEL_UPDATE_INIT;
    cgn_kernel_update_set_arg(&one, 3, &c2, sizeof c2, env->owner[3]);
    OK(cgn_kernel_exec_update(e, n, &one));
    OK(cgn_kernel_node_update(n, &one));
    args[3] = (cgn_arg){&c2, sizeof c2, env->owner[3]};
    OK(cgn_kernel_node_get(n, &got));
    assert_args(got.args, got.num_args, args, 5);
    OK(cgn_kernel_exec_get(e, n, &got));
    assert_args(got.args, got.num_args, args, 5);
    memcpy(want + 20, &c2, 2);
    assert_run_writes(env, e, want, sizeof want);
    OK(cgn_exec_destroy(e));
    OK(cgn_graph_destroy(g));
}

/* A kernel of 70 parameters (cgn asks the driver for up to 64 on the stack, more on the heap):
 * its arguments are checked against the sizes the driver reports and copied; each one reaches
 * the launch. */
static void test_kernel_with_more_parameters_than_the_stack_holds(void **state) {
    cgn_test_env *env = *state;
    wide_sizes[0] = sizeof(CUdeviceptr);
    for (size_t i = 1; i < wide_count; i++)
        wide_sizes[i] = 1 + (i % 3 == 0); /* 1 or 2 bytes: packed offsets of every alignment */
    wide_sizes[wide_count] = 0;
    cgn_kernel k = register_concat("wide", wide_sizes, wide_count);
    CUdeviceptr out = env->buf[0];
    uint16_t vals[70];
    cgn_arg args[70];
    args[0] = CGN_ARG(out);
    uint64_t want = 0xcbf29ce484222325ull;
    for (size_t i = 1; i < wide_count; i++) {
        vals[i] = (uint16_t)(0x0103 * i);
        args[i] = (cgn_arg){&vals[i], wide_sizes[i], NULL};
        want = fnv(want, &vals[i], wide_sizes[i]);
    }
    cgn_kernel_desc kd = CGN_KERNEL_DESC_INIT;
    kd.kernel = k;
    kd.grid = kd.block = CGN_DIM3(1, 1, 1);
    kd.args = args;
    kd.num_args = (uint32_t)wide_count;
    cgn_graph *g;
    cgn_node *n;
    cgn_exec *e;
    OK(cgn_graph_create(&g));
    /* A wrong size past the 64th parameter is found: the sizes of all 70 were asked. */
    uint32_t wrong = 0;
    args[66] = CGN_ARG(wrong);
    assert_int_equal(cgn_graph_add_kernel(g, NULL, 0, &kd, &n), CGN_ERROR_INVALID_VALUE);
    cgn_test_assert_message("cgn_graph_add_kernel: kernel wide argument 66 is 2 bytes; 4 given");
    args[66] = (cgn_arg){&vals[66], wide_sizes[66], NULL};
    assert_int_equal(node_count(g), 0);
    kd.num_args = 69;
    assert_int_equal(cgn_graph_add_kernel(g, NULL, 0, &kd, &n), CGN_ERROR_INVALID_VALUE);
    assert_message_starts("cgn_graph_add_kernel: kernel wide takes 70 arguments");
    kd.num_args = (uint32_t)wide_count;
    OK(cgn_graph_add_kernel(g, NULL, 0, &kd, &n));
    cgn_kernel_desc got;
    OK(cgn_kernel_node_get(n, &got));
    assert_args(got.args, got.num_args, args, (uint32_t)wide_count);
    OK(cgn_graph_instantiate(g, &e));
    assert_run_writes(env, e, &want, sizeof want);
    OK(cgn_exec_destroy(e));

    /* A failure of any parameter query fails the add with a message naming the function and the
     * query, and adds nothing. */
    long param_calls[2 * 71 + 8];
    size_t num_param_calls = 0;
    long k_at;
    for (k_at = 1; k_at < 400; k_at++) {
        cgn_node *m = NULL;
        cgn_fault_arm(k_at, CUDA_ERROR_UNKNOWN);
        cgn_status st = cgn_graph_add_kernel(g, NULL, 0, &kd, &m);
        cgn_fault_disarm();
        cgn_fault_entry entry;
        if (!cgn_fault_triggered(&entry)) {
            OK(st);
            OK(cgn_node_destroy(m));
            break;
        }
        if (entry == CGN_FAULT_cuKernelGetParamInfo) {
            assert_true(num_param_calls < sizeof param_calls / sizeof param_calls[0]);
            param_calls[num_param_calls++] = k_at;
            assert_int_equal(st, CGN_ERROR_DRIVER);
            assert_message_starts("cgn_graph_add_kernel: cuKernelGetParamInfo returned "
                                  "CUDA_ERROR_UNKNOWN");
        }
        if (st == CGN_OK)
            OK(cgn_node_destroy(m));
        else
            assert_null(m);
        assert_int_equal(node_count(g), 1);
    }
    assert_true(k_at < 400);
    /* Two queries of 71 calls each (70 parameters, then the end): the count, then the layout. */
    assert_int_equal(num_param_calls, 2 * 71);
    /* The driver reporting fewer parameters the second time is a driver error too. */
    for (size_t j = 71; j < 2 * 71 - 1; j += 23) {
        cgn_node *m = NULL;
        cgn_fault_arm(param_calls[j], CUDA_ERROR_INVALID_VALUE);
        assert_int_equal(cgn_graph_add_kernel(g, NULL, 0, &kd, &m), CGN_ERROR_DRIVER);
        cgn_fault_disarm();
        char want_msg[120];
        snprintf(want_msg, sizeof want_msg,
                 "cgn_graph_add_kernel: the driver reported 70 parameters, then %zu", j - 71);
        cgn_test_assert_message(want_msg);
        assert_null(m);
        assert_int_equal(node_count(g), 1);
    }
    OK(cgn_graph_destroy(g));
}

/* ---- kernels read back from the driver ------------------------------------------------------- */

static CUgraphNode raw_kernel(CUgraph g, cgn_kernel k, void **params) {
    CUDA_KERNEL_NODE_PARAMS_v2 p;
    memset(&p, 0, sizeof p);
    p.func = k.function;
    p.kern = k.kernel;
    p.gridDimX = p.gridDimY = p.gridDimZ = 1;
    p.blockDimX = p.blockDimY = p.blockDimZ = 1;
    p.kernelParams = params;
    CUgraphNode n = NULL;
    CU_OK(drv()->cuGraphAddKernelNode(&n, g, NULL, 0, &p));
    return n;
}

/* A kernel of no parameters, made without kernelParams (nothing to point at): adopted with no
 * arguments and updatable like any other. */
static void test_adopted_kernel_without_parameters(void **state) {
    cgn_test_env *env = *state;
    CUgraph raw;
    CU_OK(drv()->cuGraphCreate(&raw, 0));
    CUgraphNode rn = raw_kernel(raw, cgn_test_kernel(env, "empty"), NULL);
    cgn_graph *g;
    OK(cgn_graph_adopt(raw, CGN_ADOPT_TAKE_OWNERSHIP, &g));
    cgn_node *n;
    OK(cgn_graph_find_raw(g, rn, &n));
    OK(cgn_node_check_updatable(n));
    cgn_kernel_desc got;
    OK(cgn_kernel_node_get(n, &got));
    assert_int_equal(got.num_args, 0);
    assert_null(got.args);
    cgn_kernel_update u = CGN_KERNEL_UPDATE_INIT;
    cgn_kernel_update_set_grid(&u, CGN_DIM3(3, 1, 1));
    OK(cgn_kernel_node_update(n, &u));
    CUgraphNodeParams p;
    assert_int_equal(cgn_fake_node_params(rn, &p), 1);
    assert_int_equal(p.kernel.gridDimX, 3);
    OK(cgn_graph_destroy(g));
}

static struct {
    cgn_driver_table table;
    const cgn_driver_table *inner;
    CUgraphNode target; /* kernel node whose argument pointers are reported with a hole */
    void *with_hole[2];
    int bogus_edge; /* cuGraphGetEdges names a node the graph does not have */
    int self_edge;  /* cuGraphGetEdges lists one edge from a node to itself */
    /* Listing orders (test_adopt_listing_orders): 0 as the driver lists, 1 reversed, 2 a
     * shuffle of seed `seed`; edges separately. */
    int node_order, edge_order;
    unsigned seed;
} spy;

/* A permutation of n (order 0: none, 1: reversed, 2: shuffled from seed) applied to count
 * items of size bytes at base. */
static void spy_permute(void *base, size_t count, size_t size, int order, unsigned seed) {
    if (order == 0 || count < 2)
        return;
    unsigned char *a = base, tmp[16];
    assert_true(size <= sizeof tmp);
    for (size_t i = count - 1; i > 0; i--) {
        size_t j = 0;
        if (order == 1) {
            if (i < count - 1 - i)
                break;
            j = count - 1 - i;
        } else {
            seed = seed * 1103515245u + 12345u;
            j = (seed >> 8) % (i + 1);
        }
        memcpy(tmp, a + i * size, size);
        memcpy(a + i * size, a + j * size, size);
        memcpy(a + j * size, tmp, size);
    }
}

static CUresult spy_nodes(CUgraph g, CUgraphNode *nodes, size_t *count) {
    CUresult r = spy.inner->cuGraphGetNodes(g, nodes, count);
    if (r == CUDA_SUCCESS && nodes != NULL)
        spy_permute(nodes, *count, sizeof *nodes, spy.node_order, spy.seed);
    return r;
}

static CUresult spy_kernel_get(CUgraphNode n, CUDA_KERNEL_NODE_PARAMS_v2 *p) {
    CUresult r = spy.inner->cuGraphKernelNodeGetParams(n, p);
    if (r == CUDA_SUCCESS && n == spy.target) {
        spy.with_hole[0] = p->kernelParams[0];
        spy.with_hole[1] = NULL;
        p->kernelParams = spy.with_hole;
    }
    return r;
}

static CUresult spy_edges(CUgraph g, CUgraphNode *from, CUgraphNode *to, size_t *count) {
    CUresult r = spy.inner->cuGraphGetEdges(g, from, to, count);
    if (r == CUDA_SUCCESS && spy.bogus_edge && to != NULL && *count > 0)
        to[0] = (CUgraphNode)(uintptr_t)0x5eed0; /* never dereferenced by cgn: a lookup key */
    if (r == CUDA_SUCCESS && spy.self_edge && to != NULL && *count > 0)
        from[*count / 2] = to[*count / 2];
    if (r == CUDA_SUCCESS && to != NULL && spy.edge_order != 0) {
        /* One permutation for both arrays: pairs, permuted together. */
        CUgraphNode(*pairs)[2] = malloc((*count ? *count : 1) * sizeof *pairs);
        assert_non_null(pairs);
        for (size_t k = 0; k < *count; k++) {
            pairs[k][0] = from[k];
            pairs[k][1] = to[k];
        }
        spy_permute(pairs, *count, sizeof *pairs, spy.edge_order, spy.seed + 1);
        for (size_t k = 0; k < *count; k++) {
            from[k] = pairs[k][0];
            to[k] = pairs[k][1];
        }
        free(pairs);
    }
    return r;
}

static void spy_install(cgn_test_env *env) {
    memset(&spy, 0, sizeof spy);
    spy.inner = env->backend->driver(env);
    spy.table = *spy.inner;
    spy.table.cuGraphKernelNodeGetParams = spy_kernel_get;
    spy.table.cuGraphGetEdges = spy_edges;
    spy.table.cuGraphGetNodes = spy_nodes;
    cgn_fault_install(&spy.table);
}

/* A driver reporting a NULL argument pointer: the node is adopted, but its arguments are not
 * copied; it says why, and accepts only updates that set every argument. */
static void test_adopted_kernel_with_a_null_argument_pointer(void **state) {
    cgn_test_env *env = *state;
    spy_install(env);
    CUgraph raw;
    CU_OK(drv()->cuGraphCreate(&raw, 0));
    CUdeviceptr out = env->buf[0];
    uint32_t seven = 7;
    void *params[] = {&out, &seven};
    cgn_kernel k = cgn_test_kernel(env, "fill_u32");
    spy.target = raw_kernel(raw, k, params);
    cgn_graph *g;
    OK(cgn_graph_adopt(raw, CGN_ADOPT_TAKE_OWNERSHIP, &g));
    cgn_node *n;
    OK(cgn_graph_find_raw(g, spy.target, &n));
    assert_int_equal(cgn_node_check_updatable(n), CGN_ERROR_NOT_SUPPORTED);
    assert_non_null(strstr(cgn_last_error(), "the driver reported a NULL argument pointer"));
    cgn_kernel_desc got;
    OK(cgn_kernel_node_get(n, &got));
    assert_int_equal(got.num_args, 0);
    cgn_kernel_update u = CGN_KERNEL_UPDATE_INIT;
    cgn_kernel_update_set_grid(&u, CGN_DIM3(2, 1, 1));
    assert_int_equal(cgn_kernel_node_update(n, &u), CGN_ERROR_NOT_SUPPORTED);
    assert_non_null(strstr(cgn_last_error(), "the driver reported a NULL argument pointer"));
    uint32_t eight = 8;
    cgn_arg args[2] = {CGN_ARG(out), CGN_ARG(eight)};
    cgn_kernel_update_set_args(&u, args, 2);
    OK(cgn_kernel_node_update(n, &u));
    OK(cgn_node_check_updatable(n));
    OK(cgn_graph_destroy(g));
    cgn_fault_install(spy.inner);
}

/* Adopting a graph of many kernels asks the driver for each distinct kernel's parameters once
 * (docs/adopt.md), however large the layout cache grows; every node gets its arguments. */
static void test_adoption_asks_once_per_kernel(void **state) {
    (void)state;
    enum { KERNELS = 600 };
    static const size_t one_size[] = {sizeof(uint32_t)};
    static uint32_t values[KERNELS];
    static void *params[KERNELS][1];
    static CUgraphNode nodes[2 * KERNELS];
    cgn_kernel k[KERNELS];
    for (int i = 0; i < KERNELS; i++) {
        char name[16];
        snprintf(name, sizeof name, "k%d", i);
        CUfunction f = cgn_fake_register_kernel(name, 1, one_size, NULL, NULL);
        assert_non_null(f);
        k[i] = i % 2 ? CGN_FUNCTION(f) : CGN_KERNEL(cgn_fake_kernel_of(f));
        values[i] = (uint32_t)i;
        params[i][0] = &values[i];
    }
    CUgraph raw;
    CU_OK(drv()->cuGraphCreate(&raw, 0));
    for (int pass = 0; pass < 2; pass++) /* every kernel twice, the second time after growth */
        for (int i = 0; i < KERNELS; i++)
            nodes[pass * KERNELS + i] = raw_kernel(raw, k[i], params[i]);
    cgn_fault_reset_counts();
    cgn_graph *g;
    OK(cgn_graph_adopt(raw, CGN_ADOPT_TAKE_OWNERSHIP, &g));
    assert_int_equal(cgn_fault_calls(CGN_FAULT_cuKernelGetParamInfo) +
                         cgn_fault_calls(CGN_FAULT_cuFuncGetParamInfo),
                     2 * KERNELS); /* one parameter, then the end */
    for (int i = 0; i < 2 * KERNELS; i += 7) {
        cgn_node *n;
        OK(cgn_graph_find_raw(g, nodes[i], &n));
        cgn_kernel_desc d;
        OK(cgn_kernel_node_get(n, &d));
        assert_int_equal(d.num_args, 1);
        assert_int_equal(*(const uint32_t *)d.args[0].value, (uint32_t)(i % KERNELS));
    }
    OK(cgn_graph_destroy(g));
}

/* ---- adoption: what the driver lists, messages ----------------------------------------------- */

/* An edge naming a node the driver did not list is a driver error, found in bounded time; the
 * adoption leaves nothing behind. */
static void test_adopt_edge_to_an_unlisted_node(void **state) {
    cgn_test_env *env = *state;
    spy_install(env);
    CUgraph raw;
    CU_OK(drv()->cuGraphCreate(&raw, 0));
    CUgraphNode a, b;
    CU_OK(drv()->cuGraphAddEmptyNode(&a, raw, NULL, 0));
    CU_OK(drv()->cuGraphAddEmptyNode(&b, raw, &a, 1));
    size_t live = cgn__handles_live();
    spy.bogus_edge = 1;
    cgn_graph *g = NULL;
    alarm(30); /* a lookup that never ends fails the test instead of hanging it */
    cgn_status st = cgn_graph_adopt(raw, 0, &g);
    alarm(0);
    assert_int_equal(st, CGN_ERROR_DRIVER);
    cgn_test_assert_message(
        "cgn_graph_adopt: cuGraphGetEdges named a node cuGraphGetNodes did not list");
    assert_null(g);
    assert_int_equal(cgn__handles_live(), live);
    spy.bogus_edge = 0;
    OK(cgn_graph_adopt(raw, 0, &g));
    assert_int_equal(node_count(g), 2);
    OK(cgn_graph_destroy(g));
    CU_OK(drv()->cuGraphDestroy(raw));
    cgn_fault_install(spy.inner);
}

/* Whatever order the driver lists nodes and edges in: the records come in topological order,
 * ties in the order the nodes are listed (Kahn's algorithm taking the ready node listed first),
 * each node's dependencies in the order the edges are listed; checked against that algorithm
 * run here, on random graphs (chains, fan-in, fan-out) in every listing order. A self-edge is
 * a cycle: refused, nothing left behind. */
#define ORDER_NODES 300
static void test_adopt_listing_orders(void **state) {
    cgn_test_env *env = *state;
    spy_install(env);
    const cgn_driver_table *d = spy.inner;
    for (unsigned shape = 0; shape < 3; shape++) {
        CUgraph raw;
        CU_OK(d->cuGraphCreate(&raw, 0));
        static CUgraphNode added[ORDER_NODES];
        unsigned rnd = 7 + shape;
        for (size_t i = 0; i < ORDER_NODES; i++) {
            CUgraphNode deps[4];
            size_t nd = 0;
            if (shape == 0 && i >= 4) /* four chains */
                deps[nd++] = added[i - 4];
            for (int t = 0; shape != 0 && t < 4 && i > 0; t++) {
                rnd = rnd * 1103515245u + 12345u;
                if ((rnd >> 16) % (shape == 1 ? 3 : 5) != 0)
                    continue;
                CUgraphNode dep = added[(rnd >> 4) % i];
                int dup = 0;
                for (size_t k = 0; k < nd; k++)
                    dup |= deps[k] == dep;
                if (!dup)
                    deps[nd++] = dep;
            }
            CU_OK(d->cuGraphAddEmptyNode(&added[i], raw, nd ? deps : NULL, nd));
        }
        for (int order = 0; order < 9; order++) {
            spy.node_order = order % 3;
            spy.edge_order = order / 3;
            spy.seed = 1000u * shape + (unsigned)order;
            /* The listing as cgn will see it, and the order it must give. */
            size_t n = 0, e = 0;
            CU_OK(spy.table.cuGraphGetNodes(raw, NULL, &n));
            CU_OK(spy.table.cuGraphGetEdges(raw, NULL, NULL, &e));
            assert_int_equal(n, ORDER_NODES);
            CUgraphNode *listed = malloc(n * sizeof *listed);
            CUgraphNode *from = malloc((e ? e : 1) * sizeof *from);
            CUgraphNode *to = malloc((e ? e : 1) * sizeof *to);
            size_t *missing = calloc(n, sizeof *missing);
            int *done = calloc(n, sizeof *done);
            assert_true(listed && from && to && missing && done);
            CU_OK(spy.table.cuGraphGetNodes(raw, listed, &n));
            if (e > 0)
                CU_OK(spy.table.cuGraphGetEdges(raw, from, to, &e));
            size_t index[ORDER_NODES]; /* edge ends as listing indices */
            for (size_t k = 0; k < e; k++)
                for (size_t i = 0; i < n; i++)
                    if (listed[i] == to[k])
                        missing[i]++;
            cgn_graph *g = NULL;
            OK(cgn_graph_adopt(raw, 0, &g));
            cgn_node *nodes[ORDER_NODES];
            size_t count = ORDER_NODES;
            OK(cgn_graph_nodes(g, nodes, &count));
            assert_int_equal(count, n);
            for (size_t k = 0; k < n; k++) {
                size_t next = n; /* the ready node listed first */
                for (size_t i = 0; i < n && next == n; i++)
                    if (!done[i] && missing[i] == 0)
                        next = i;
                assert_true(next < n);
                done[next] = 1;
                CUgraphNode r = NULL;
                OK(cgn_node_raw(nodes[k], &r));
                if (r != listed[next])
                    fail_msg("shape %u, order %d: position %zu is not the node Kahn's algorithm "
                             "takes", shape, order, k);
                size_t num_deps = 0;
                for (size_t j = 0; j < e; j++)
                    if (from[j] == listed[next]) {
                        for (size_t i = 0; i < n; i++)
                            if (listed[i] == to[j])
                                missing[i]--;
                    } else if (to[j] == listed[next]) {
                        index[num_deps++] = j;
                    }
                cgn_node *deps[ORDER_NODES];
                size_t nd = ORDER_NODES;
                OK(cgn_node_dependencies(nodes[k], deps, &nd));
                assert_int_equal(nd, num_deps);
                for (size_t j = 0; j < nd; j++) {
                    OK(cgn_node_raw(deps[j], &r));
                    if (r != from[index[j]])
                        fail_msg("shape %u, order %d: dependency %zu of position %zu is not the "
                                 "edge listed %zu-th", shape, order, j, k, j);
                }
            }
            OK(cgn_graph_destroy(g));
            free(listed);
            free(from);
            free(to);
            free(missing);
            free(done);
        }
        /* A cycle (an edge from a node to itself) in any listing order. */
        size_t live = cgn__handles_live();
        spy.self_edge = 1;
        for (int order = 0; order < 3; order++) {
            spy.node_order = spy.edge_order = order;
            cgn_graph *g = NULL;
            assert_int_equal(cgn_graph_adopt(raw, 0, &g), CGN_ERROR_DRIVER);
            cgn_test_assert_message("cgn_graph_adopt: the graph's edges form a cycle");
            assert_null(g);
            assert_int_equal(cgn__handles_live(), live);
        }
        spy.self_edge = 0;
        spy.node_order = spy.edge_order = 0;
        CU_OK(d->cuGraphDestroy(raw));
    }
    cgn_fault_install(spy.inner);
}

/* Fails each driver call of op in turn (k = 1, 2, ... until none is left to fail): a failure
 * that fails op gives CGN_ERROR_DRIVER with a message that starts with "<where>: <the call>"
 * (or, for calls made on op's behalf, names the call) and leaves every handle as it was. */
typedef cgn_status (*op_fn)(cgn_test_env *env, void *ctx);

static void sweep(cgn_test_env *env, op_fn op, void *ctx, const char *where,
                  const cgn_fault_entry *must_prefix, size_t num_prefix, op_fn undo) {
    long k;
    int failed = 0;
    for (k = 1; k < 300; k++) {
        size_t live = cgn__handles_live();
        cgn_fault_arm(k, CUDA_ERROR_UNKNOWN);
        cgn_status st = op(env, ctx);
        cgn_fault_disarm();
        cgn_fault_entry entry;
        int injected = cgn_fault_triggered(&entry);
        if (st == CGN_OK) {
            if (undo != NULL)
                OK(undo(env, ctx));
            if (!injected)
                break;
            continue;
        }
        assert_true(injected);
        failed++;
        if (st != CGN_ERROR_DRIVER)
            fail_msg("%s, failing call %ld (%s): %s (%s)", where, k, cgn_fault_entry_name(entry),
                     cgn_status_name(st), cgn_last_error());
        assert_non_null(strstr(cgn_last_error(), cgn_fault_entry_name(entry)));
        for (size_t i = 0; i < num_prefix; i++)
            if (entry == must_prefix[i]) {
                char prefix[160];
                snprintf(prefix, sizeof prefix, "%s: %s returned CUDA_ERROR_UNKNOWN", where,
                         cgn_fault_entry_name(entry));
                assert_message_starts(prefix);
            }
        assert_int_equal(cgn__handles_live(), live);
    }
    assert_true(k < 300);
    assert_true(failed > 0);
}

typedef struct adopt_ctx {
    CUgraph raw;
    cgn_graph *g;
    cgn_exec *e;
    cgn_node *child;
} adopt_ctx;

static cgn_status do_adopt(cgn_test_env *env, void *p) {
    (void)env;
    adopt_ctx *c = p;
    c->g = NULL;
    return cgn_graph_adopt(c->raw, 0, &c->g);
}

static cgn_status undo_adopt(cgn_test_env *env, void *p) {
    (void)env;
    return cgn_graph_destroy(((adopt_ctx *)p)->g);
}

static cgn_status do_exec_adopt(cgn_test_env *env, void *p) {
    (void)env;
    adopt_ctx *c = p;
    CUgraphExec raw;
    CUresult r = drv()->cuGraphInstantiateWithFlags(&raw, c->raw, 0);
    if (r != CUDA_SUCCESS) /* made by the caller: not cgn's failure */
        return CGN_ERROR_NO_DEVICE;
    cgn_status st = cgn_exec_adopt(raw, c->g, CGN_ADOPT_TAKE_OWNERSHIP, &c->e);
    if (st != CGN_OK)
        (void)drv()->cuGraphExecDestroy(raw);
    return st;
}

/* The entry whose failure may only be reported with the caller's name first. */
static const cgn_fault_entry ctx_query[] = {CGN_FAULT_cuCtxGetCurrent};

/* Adopting a graph (with a child graph) and an executable: every failing call is named after the
 * function that failed. */
static void test_adopt_failures_name_the_function(void **state) {
    cgn_test_env *env = *state;
    adopt_ctx c;
    memset(&c, 0, sizeof c);
    CU_OK(drv()->cuGraphCreate(&c.raw, 0));
    CUgraph inner;
    CU_OK(drv()->cuGraphCreate(&inner, 0));
    CUgraphNode a, child;
    CU_OK(drv()->cuGraphAddEmptyNode(&a, inner, NULL, 0));
    CU_OK(drv()->cuGraphAddEmptyNode(&a, c.raw, NULL, 0));
    CU_OK(drv()->cuGraphAddChildGraphNode(&child, c.raw, &a, 1, inner));
    CU_OK(drv()->cuGraphDestroy(inner));
    sweep(env, do_adopt, &c, "cgn_graph_adopt", ctx_query, 1, undo_adopt);
    OK(cgn_graph_adopt(c.raw, 0, &c.g));
    /* The raw instantiation is the test's own call: failing it is not a cgn failure. */
    long k;
    for (k = 1; k < 100; k++) {
        cgn_fault_arm(k, CUDA_ERROR_UNKNOWN);
        cgn_status st = do_exec_adopt(env, &c);
        cgn_fault_disarm();
        cgn_fault_entry entry;
        int injected = cgn_fault_triggered(&entry);
        if (st == CGN_ERROR_NO_DEVICE)
            continue;
        if (st == CGN_OK) {
            OK(cgn_exec_destroy(c.e));
            if (!injected)
                break;
            continue;
        }
        assert_int_equal(st, CGN_ERROR_DRIVER);
        assert_non_null(strstr(cgn_last_error(), cgn_fault_entry_name(entry)));
        if (entry == CGN_FAULT_cuCtxGetCurrent)
            assert_message_starts("cgn_exec_adopt: cuCtxGetCurrent returned CUDA_ERROR_UNKNOWN");
    }
    assert_true(k < 100);
    OK(cgn_graph_destroy(c.g));
    CU_OK(drv()->cuGraphDestroy(c.raw));
}

/* Refreshing a child graph node whose embedded graph was replaced behind cgn's back: every
 * failing call is named after cgn_node_refresh, and the node keeps its records. */
static cgn_status do_refresh(cgn_test_env *env, void *p) {
    (void)env;
    return cgn_node_refresh(((adopt_ctx *)p)->child);
}

static void test_refresh_failures_name_the_function(void **state) {
    cgn_test_env *env = *state;
    adopt_ctx c;
    memset(&c, 0, sizeof c);
    OK(cgn_graph_create(&c.g));
    cgn_child_graph_desc d = CGN_CHILD_GRAPH_DESC_INIT;
    d.graph = cgn_test_graph(env, 0);
    OK(cgn_graph_add_child_graph(c.g, NULL, 0, &d, &c.child));
    CUgraphNode raw_child;
    OK(cgn_node_raw(c.child, &raw_child));
    /* Behind cgn's back: another graph of two nodes embedded by the raw node. */
    CUgraph other;
    CU_OK(drv()->cuGraphCreate(&other, 0));
    CUgraphNode x;
    CU_OK(drv()->cuGraphAddEmptyNode(&x, other, NULL, 0));
    CU_OK(drv()->cuGraphAddEmptyNode(&x, other, &x, 1));
    CUgraphNodeParams p;
    memset(&p, 0, sizeof p);
    p.type = CU_GRAPH_NODE_TYPE_GRAPH;
    p.graph.graph = other;
    CU_OK(drv()->cuGraphNodeSetParams(raw_child, &p));
    CU_OK(drv()->cuGraphDestroy(other));
    cgn_graph *embedded;
    OK(cgn_child_graph_node_embedded(c.child, &embedded));
    assert_int_equal(node_count(embedded), 1); /* cgn's record: the old copy */
    long k;
    int failed = 0;
    for (k = 1; k < 100; k++) {
        size_t live = cgn__handles_live();
        cgn_fault_arm(k, CUDA_ERROR_UNKNOWN);
        cgn_status st = do_refresh(env, &c);
        cgn_fault_disarm();
        cgn_fault_entry entry;
        int injected = cgn_fault_triggered(&entry);
        if (st == CGN_OK) {
            assert_false(injected && entry != CGN_FAULT_cuGraphNodeGetType);
            break; /* refreshed: nothing left to fail */
        }
        failed++;
        assert_int_equal(st, CGN_ERROR_DRIVER);
        char prefix[160];
        snprintf(prefix, sizeof prefix, "cgn_node_refresh: %s returned CUDA_ERROR_UNKNOWN",
                 cgn_fault_entry_name(entry));
        assert_message_starts(prefix);
        assert_int_equal(cgn__handles_live(), live);
        OK(cgn_child_graph_node_embedded(c.child, &embedded));
        assert_int_equal(node_count(embedded), 1);
    }
    assert_true(failed >= 3);
    OK(cgn_child_graph_node_embedded(c.child, &embedded));
    assert_int_equal(node_count(embedded), 2);
    OK(cgn_graph_destroy(c.g));
}

/* ---- adding, instantiating ------------------------------------------------------------------- */

/* Adding a node that runs in a context with none current: the message says which function and
 * how to make one current; nothing is asked of the driver beyond the query. */
static void test_no_context_message(void **state) {
    cgn_test_env *env = *state;
    cgn_graph *g;
    cgn_node *n = NULL;
    OK(cgn_graph_create(&g));
    cgn_memset_desc d = cgn_test_fill_desc(env, 0, 0x11, 1);
    long refs = owner_refs(env->owner[0]);
    size_t live = cgn__handles_live();
    env->backend->set_context(env, CGN_TEST_CTX_NONE);
    cgn_fault_reset_counts();
    cgn_status st = cgn_graph_add_memset(g, NULL, 0, &d, &n);
    long calls = cgn_fault_total_calls();
    env->backend->set_context(env, CGN_TEST_CTX_OWN);
    assert_int_equal(st, CGN_ERROR_NO_CONTEXT);
    cgn_test_assert_message(
        "cgn_graph_add_memset: no CUDA context is current; make one current first "
        "(e.g. cuDevicePrimaryCtxRetain + cuCtxSetCurrent)");
    assert_int_equal(calls, 1);
    assert_null(n);
    assert_int_equal(node_count(g), 0);
    assert_int_equal(owner_refs(env->owner[0]), refs);
    assert_int_equal(cgn__handles_live(), live);
    OK(cgn_graph_destroy(g));
}

static cgn_status do_add_empty(cgn_test_env *env, void *p) {
    (void)env;
    adopt_ctx *c = p;
    cgn_node *n = NULL;
    cgn_status st = cgn_graph_add_empty(c->g, NULL, 0, &n);
    if (st != CGN_OK) {
        assert_null(n);
        assert_int_equal(node_count(c->g), 0);
    }
    c->child = n;
    return st;
}

static cgn_status undo_add_empty(cgn_test_env *env, void *p) {
    (void)env;
    return cgn_node_destroy(((adopt_ctx *)p)->child);
}

/* Empty nodes too: a failed add is reported and leaves nothing. */
static void test_add_empty_failures(void **state) {
    adopt_ctx c;
    memset(&c, 0, sizeof c);
    OK(cgn_graph_create(&c.g));
    sweep(*state, do_add_empty, &c, "cgn_graph_add_empty", NULL, 0, undo_add_empty);
    assert_int_equal(node_count(c.g), 0);
    OK(cgn_graph_destroy(c.g));
}

typedef struct inst_ctx {
    cgn_graph *g;
    cgn_exec *e;
    long refs[CGN_TEST_NUM_BUFS];
} inst_ctx;

static cgn_status do_instantiate(cgn_test_env *env, void *p) {
    inst_ctx *c = p;
    size_t live_objects = cgn_fake_live_objects();
    c->e = NULL;
    cgn_status st = cgn_graph_instantiate(c->g, &c->e);
    if (st != CGN_OK) {
        assert_null(c->e);
        cgn_collect();
        assert_int_equal(cgn_fake_live_objects(), live_objects);
        for (int i = 0; i < CGN_TEST_NUM_BUFS; i++)
            assert_int_equal(owner_refs(env->owner[i]), c->refs[i]);
    }
    return st;
}

static cgn_status undo_instantiate(cgn_test_env *env, void *p) {
    (void)env;
    return cgn_exec_destroy(((inst_ctx *)p)->e);
}

/* A failed instantiation leaves no executable, no handle, no user object and no reference. */
static void test_instantiate_failures(void **state) {
    cgn_test_env *env = *state;
    inst_ctx c;
    OK(cgn_graph_create(&c.g));
    cgn_node *n;
    cgn_memset_desc d = cgn_test_fill_desc(env, 0, 0x11, 1);
    OK(cgn_graph_add_memset(c.g, NULL, 0, &d, &n));
    cgn_child_graph_desc cd = CGN_CHILD_GRAPH_DESC_INIT;
    cd.graph = cgn_test_graph(env, 1);
    OK(cgn_graph_add_child_graph(c.g, &n, 1, &cd, &n));
    for (int i = 0; i < CGN_TEST_NUM_BUFS; i++)
        c.refs[i] = owner_refs(env->owner[i]);
    static const cgn_fault_entry prefixed[] = {CGN_FAULT_cuCtxGetCurrent,
                                               CGN_FAULT_cuGraphInstantiateWithFlags};
    sweep(env, do_instantiate, &c, "cgn_graph_instantiate", prefixed, 2, undo_instantiate);
    OK(cgn_graph_destroy(c.g));
}

/* ---- executables ----------------------------------------------------------------------------- */

/* Versions retired before the raw handle was taken wait for the executable's destruction too:
 * launches through the raw handle may read them, whatever cgn's own launches did. */
static void test_raw_handle_keeps_versions_retired_before(void **state) {
    cgn_test_env *env = *state;
    cgn_graph *g;
    cgn_node *n;
    cgn_exec *e;
    cgn_test_fill_graph(env, &g, &n, &e);
    cgn_memset_update u = CGN_MEMSET_UPDATE_INIT;
    cgn_memset_update_set_dst(&u, env->buf[1], env->owner[1]);
    OK(cgn_memset_exec_update(e, n, &u)); /* the executable holds owner 1 */
    cgn_test_env_drop_owners(env);
    assert_true(env->backend->hold(env));
    OK(env->backend->launch_async(env, e)); /* reads owner 1's buffer, in flight */
    cgn_memset_update back = CGN_MEMSET_UPDATE_INIT;
    cgn_memset_update_set_dst(&back, env->buf[2], NULL);
    OK(cgn_memset_exec_update(e, n, &back)); /* owner 1's version retires after launch 1 */
    CUgraphExec raw;
    OK(cgn_exec_raw(e, &raw)); /* from now on launches cgn cannot see may exist */
    env->backend->release(env);
    OK(env->backend->launch(env, e));
    cgn_collect();
    assert_int_equal(env->released[1], 0);
    OK(cgn_exec_destroy(e));
    assert_true(cgn_test_wait_released(env, 1, 1));
    OK(cgn_graph_destroy(g));
}

/* A refresh the driver refuses without saying why (no result info): the message gives the
 * CUresult and no made-up reason or node; the executable is unchanged. */
static void test_refresh_refused_without_result_info(void **state) {
    cgn_test_env *env = *state;
    cgn_graph *g;
    cgn_node *n;
    cgn_exec *e;
    cgn_test_fill_graph(env, &g, &n, &e);
    cgn_memset_update u = CGN_MEMSET_UPDATE_INIT;
    cgn_memset_update_set_value(&u, 0x22, 1);
    OK(cgn_memset_node_update(n, &u));
    int refused = 0;
    for (long k = 1; k < 50; k++) {
        cgn_fault_arm(k, CUDA_ERROR_UNKNOWN);
        cgn_status st = cgn_exec_update_from_graph(e, g);
        cgn_fault_disarm();
        cgn_fault_entry entry;
        if (!cgn_fault_triggered(&entry)) {
            OK(st);
            break;
        }
        if (entry != CGN_FAULT_cuGraphExecUpdate)
            continue;
        assert_int_equal(st, CGN_ERROR_DRIVER);
        assert_message_starts("cgn_exec_update_from_graph: cuGraphExecUpdate returned "
                              "CUDA_ERROR_UNKNOWN");
        assert_null(strstr(cgn_last_error(), "unknown CUgraphExecUpdateResult"));
        assert_null(strstr(cgn_last_error(), " at node "));
        cgn_memset_desc got;
        OK(cgn_memset_exec_get(e, n, &got));
        assert_int_equal(got.value, 0x11);
        refused++;
    }
    assert_int_equal(refused, 1);
    cgn_memset_desc got;
    OK(cgn_memset_exec_get(e, n, &got));
    assert_int_equal(got.value, 0x22);
    OK(cgn_exec_destroy(e));
    OK(cgn_graph_destroy(g));
}

/* An owner of nothing that counts its releases. */
static int releases;
static void count_release(void *resource) {
    (void)resource;
    releases++;
}

/* An executable holding a version only cgn holds: set at executable level, with a new owner
 * that only the executable holds. */
static void exec_with_cgn_only_version(cgn_test_env *env, cgn_graph **g, cgn_node **n,
                                       cgn_exec **e) {
    cgn_owner *o;
    OK(cgn_owner_create(NULL, count_release, &o));
    releases = 0;
    OK(cgn_graph_create(g));
    cgn_memset_desc d = cgn_test_fill_desc(env, 0, 0x11, 0);
    OK(cgn_graph_add_memset(*g, NULL, 0, &d, n));
    OK(cgn_graph_instantiate(*g, e));
    cgn_memset_update u = CGN_MEMSET_UPDATE_INIT;
    cgn_memset_update_set_dst(&u, env->buf[1], o);
    OK(cgn_memset_exec_update(*e, *n, &u));
    OK(cgn_owner_release(o));
}

/* Destroying an executable whose last launch is fenced and in flight, each driver call failing
 * in turn: a failure that fails the destroy gives a message naming it, and the executable and
 * its owner stay; once destroyed, the owner goes only after that launch completed. */
static void test_destroy_in_flight_failures(void **state) {
    cgn_test_env *env = *state;
    long k;
    int failed = 0;
    for (k = 1; k < 50; k++) {
        cgn_graph *g;
        cgn_node *n;
        cgn_exec *e;
        exec_with_cgn_only_version(env, &g, &n, &e);
        assert_true(env->backend->hold(env));
        cgn_fault_reset_counts();
        OK(env->backend->launch_async(env, e));
        assert_int_equal(cgn_fault_calls(CGN_FAULT_cuEventRecord), 1); /* fenced */
        cgn_fault_arm(k, CUDA_ERROR_UNKNOWN);
        cgn_status st = cgn_exec_destroy(e);
        cgn_fault_disarm();
        cgn_fault_entry entry;
        int injected = cgn_fault_triggered(&entry);
        if (st != CGN_OK) {
            assert_true(injected);
            failed++;
            assert_int_equal(st, CGN_ERROR_DRIVER);
            char prefix[120];
            snprintf(prefix, sizeof prefix, "cgn_exec_destroy: %s returned CUDA_ERROR_UNKNOWN",
                     cgn_fault_entry_name(entry));
            assert_message_starts(prefix);
            cgn_memset_desc got; /* still alive, unchanged */
            OK(cgn_memset_exec_get(e, n, &got));
            assert_int_equal(got.dst, env->buf[1]);
            assert_int_equal(releases, 0);
            OK(cgn_exec_destroy(e));
        }
        cgn_memset_desc gone;
        assert_int_equal(cgn_memset_exec_get(e, n, &gone), CGN_ERROR_DESTROYED);
        cgn_collect();
        assert_int_equal(releases, 0); /* its launch is in flight */
        env->backend->release(env);
        cgn_collect();
        assert_int_equal(releases, 1);
        OK(cgn_graph_destroy(g));
        if (!injected)
            break;
    }
    assert_true(k < 50);
    assert_true(failed >= 1);
}

/* The same with launches cgn cannot see (the raw handle was taken): destroy waits for the
 * executable's context; when that fails, nothing is destroyed and the message says why; once
 * destroyed, the owner goes at once. */
static void test_destroy_after_raw_launches(void **state) {
    cgn_test_env *env = *state;
    long k;
    int refused = 0;
    for (k = 1; k < 50; k++) {
        cgn_graph *g;
        cgn_node *n;
        cgn_exec *e;
        exec_with_cgn_only_version(env, &g, &n, &e);
        CUgraphExec raw;
        OK(cgn_exec_raw(e, &raw));
        OK(env->backend->launch(env, e));
        char want[200];
        snprintf(want, sizeof want,
                 "cgn_exec_destroy: executable %p holds owners a launch made outside cgn may "
                 "still read, and waiting for its context failed; nothing was destroyed",
                 (void *)e);
        cgn_fault_reset_counts();
        cgn_fault_arm(k, CUDA_ERROR_UNKNOWN);
        cgn_status st = cgn_exec_destroy(e);
        cgn_fault_disarm();
        cgn_fault_entry entry;
        int injected = cgn_fault_triggered(&entry);
        if (st != CGN_OK) {
            assert_true(injected);
            assert_int_equal(st, CGN_ERROR_DRIVER);
            if (entry == CGN_FAULT_cuGraphExecDestroy) {
                assert_message_starts("cgn_exec_destroy: cuGraphExecDestroy returned");
            } else {
                cgn_test_assert_message(want);
                refused++;
            }
            OK(cgn_exec_launch(e, NULL)); /* still alive */
            assert_int_equal(releases, 0);
            OK(cgn_exec_destroy(e));
        } else {
            assert_int_equal(cgn_fault_calls(CGN_FAULT_cuCtxSynchronize), 1);
        }
        assert_int_equal(releases, 1); /* waited for the context: released at once */
        OK(cgn_graph_destroy(g));
        if (!injected)
            break;
    }
    assert_true(k < 50);
    assert_true(refused >= 2); /* the context query and the synchronisation */
}

/* A destroyed executable's versions are released by cgn_collect() once its last launch
 * completed, whichever context is current then (the fence is asked in the executable's). */
static void test_graveyard_polls_in_the_executables_context(void **state) {
    cgn_test_env *env = *state;
    cgn_graph *g;
    cgn_node *n;
    cgn_exec *e;
    exec_with_cgn_only_version(env, &g, &n, &e);
    assert_true(env->backend->hold(env));
    OK(env->backend->launch_async(env, e));
    OK(cgn_exec_destroy(e));
    env->backend->set_context(env, CGN_TEST_CTX_FOREIGN);
    assert_int_equal(cgn_collect(), 0);
    assert_int_equal(releases, 0);
    env->backend->release(env);
    cgn_fault_reset_counts();
    assert_true(cgn_collect() >= 1); /* the version, released here */
    assert_int_equal(cgn_fault_calls(CGN_FAULT_cuCtxPushCurrent), 1);
    assert_int_equal(cgn_fault_calls(CGN_FAULT_cuCtxPopCurrent), 1);
    assert_int_equal(env->backend->current_context(env), CGN_TEST_CTX_FOREIGN);
    assert_int_equal(releases, 1);
    env->backend->set_context(env, CGN_TEST_CTX_OWN);
    OK(cgn_graph_destroy(g));
}

/* ---- child graphs ---------------------------------------------------------------------------- */

/* A destroyed source graph, or a value that is not a graph, is refused at add and at both update
 * levels before any mutation. */
static void test_child_graph_of_a_destroyed_source(void **state) {
    cgn_test_env *env = *state;
    cgn_graph *g, *gone;
    cgn_node *child, *n = NULL;
    cgn_exec *e;
    OK(cgn_graph_create(&g));
    cgn_child_graph_desc d = CGN_CHILD_GRAPH_DESC_INIT;
    d.graph = cgn_test_graph(env, 0);
    OK(cgn_graph_add_child_graph(g, NULL, 0, &d, &child));
    OK(cgn_graph_instantiate(g, &e));
    OK(cgn_graph_create(&gone));
    OK(cgn_graph_destroy(gone));
    cgn_fault_reset_counts();
    d.graph = gone;
    assert_int_equal(cgn_graph_add_child_graph(g, NULL, 0, &d, &n), CGN_ERROR_DESTROYED);
    assert_message_starts("cgn_graph_add_child_graph: ");
    assert_non_null(strstr(cgn_last_error(), "destroyed"));
    assert_null(n);
    cgn_child_graph_update u = CGN_CHILD_GRAPH_UPDATE_INIT;
    u.set = CGN_CHILD_GRAPH_SET_GRAPH;
    u.graph = gone;
    assert_int_equal(cgn_child_graph_node_update(child, &u), CGN_ERROR_DESTROYED);
    assert_message_starts("cgn_child_graph_node_update: ");
    assert_int_equal(cgn_child_graph_exec_update(e, child, &u), CGN_ERROR_DESTROYED);
    assert_message_starts("cgn_child_graph_exec_update: ");
    u.graph = (cgn_graph *)(uintptr_t)0x1234;
    assert_int_equal(cgn_child_graph_node_update(child, &u), CGN_ERROR_INVALID_ARGUMENT);
    assert_int_equal(cgn_child_graph_exec_update(e, child, &u), CGN_ERROR_INVALID_ARGUMENT);
    assert_int_equal(cgn_fault_calls(CGN_FAULT_cuGraphAddChildGraphNode), 0);
    assert_int_equal(cgn_fault_setter_calls(), 0);
    assert_int_equal(node_count(g), 1);
    cgn_child_graph_desc got;
    OK(cgn_child_graph_node_get(child, &got));
    assert_ptr_equal(got.graph, cgn_test_graph(env, 0));
    OK(cgn_exec_destroy(e));
    OK(cgn_graph_destroy(g));
}

int main(void) {
#define T(fn) cmocka_unit_test_setup_teardown(fn, cgn_test_fixture_setup, cgn_test_fixture_teardown)
    const struct CMUnitTest tests[] = {
        T(test_many_arguments_keep_their_values),
        T(test_kernel_with_more_parameters_than_the_stack_holds),
        T(test_adopted_kernel_without_parameters),
        T(test_adopted_kernel_with_a_null_argument_pointer),
        T(test_adoption_asks_once_per_kernel),
        T(test_adopt_edge_to_an_unlisted_node),
        T(test_adopt_listing_orders),
        T(test_adopt_failures_name_the_function),
        T(test_refresh_failures_name_the_function),
        T(test_no_context_message),
        T(test_add_empty_failures),
        T(test_instantiate_failures),
        T(test_raw_handle_keeps_versions_retired_before),
        T(test_refresh_refused_without_result_info),
        T(test_destroy_in_flight_failures),
        T(test_destroy_after_raw_launches),
        T(test_graveyard_polls_in_the_executables_context),
        T(test_child_graph_of_a_destroyed_source),
    };
#undef T
    return cmocka_run_group_tests(tests, NULL, NULL);
}
