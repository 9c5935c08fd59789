/* Kernels with more parameters than cgn asks the driver about on the stack (CGN__STACK_PARAMS,
 * 64, in runtime/codecs.c), on the fake driver: cgn__query_layout asks
 * cu{Func,Kernel}GetParamInfo once into stack arrays, then again into heap arrays of 2 * count
 * sizes (sizes, then offsets), checks the count did not change, and frees them. Every path
 * that asks: adding a node (cgn__stage_args_for_new_kernel), an update or an executable update
 * that sets another kernel, adoption (cgn__layout_of, with its per-adoption cache) and a
 * refresh (cgn__layout_of without one). Arguments have mixed sizes (4, 8 and 16 bytes), so
 * the kernel's offsets are not a multiple of one size and a wrong size or offset array shows
 * as a wrong value, a refused argument or (under ASan and valgrind) a bad access or a leak.
 *
 * The driver's answers are checked argument by argument: what cgn returns (get), what the fake
 * driver holds for the node (cgn_fake_node_params, cgn_fake_exec_node_params) and what a fake
 * kernel sees when an executable runs. Failures of the second (heap) query, and a parameter
 * count that changes between the two queries, go through a driver table that wraps the fake's
 * two param-info entries (param_hook below). */
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
#include "fake_driver.h"
#include "runtime.h"

#define CU_OK(call) assert_int_equal((call), CUDA_SUCCESS)

enum { STACK_PARAMS = 64, MAX_KERNEL_PARAMS = 32764, MAX_ARG_BYTES = 16 };

static const cgn_driver_table *drv(void) {
    return cgn__driver;
}

/* ---- kernels and argument lists ------------------------------------------------------------ */

/* Argument i's size: 4, 8 and 16 bytes in an irregular cycle (so offsets are neither packed
 * nor uniform: the fake aligns each to min(8, its size)). */
static size_t mixed_size(uint32_t i) {
    static const size_t cycle[] = {8, 4, 16, 4, 4, 8, 16, 16, 4};
    return cycle[i % (sizeof cycle / sizeof cycle[0])];
}

/* Byte b of argument i in generation gen: an argument differs from its value in any other
 * generation below 256 at every byte (0x3b is odd, so 0x3b * (g1 - g2) is not 0 mod 256). */
static unsigned char arg_byte(unsigned gen, uint32_t i, size_t b) {
    return (unsigned char)(0x3bu * gen + 0x1du * i + 0x07u * (unsigned)b + 0x5au + (i >> 8));
}

/* A kernel's argument list: values and the cgn_arg array pointing at them. */
typedef struct argset {
    uint32_t n;
    size_t *size;
    unsigned char (*v)[MAX_ARG_BYTES];
    cgn_arg *a;
} argset;

static void argset_fill(argset *s, uint32_t i, unsigned gen) {
    for (size_t b = 0; b < s->size[i]; b++)
        s->v[i][b] = arg_byte(gen, i, b);
}

static argset *argset_new(const size_t *sizes, uint32_t n, unsigned gen) {
    argset *s = calloc(1, sizeof *s);
    assert_non_null(s);
    s->n = n;
    s->size = calloc(n ? n : 1, sizeof *s->size);
    s->v = calloc(n ? n : 1, sizeof *s->v);
    s->a = calloc(n ? n : 1, sizeof *s->a);
    assert_non_null(s->size);
    assert_non_null(s->v);
    assert_non_null(s->a);
    for (uint32_t i = 0; i < n; i++) {
        s->size[i] = sizes[i];
        argset_fill(s, i, gen);
        s->a[i] = (cgn_arg){s->v[i], s->size[i], NULL};
    }
    return s;
}

static argset *argset_copy(const argset *from) {
    argset *s = argset_new(from->size, from->n, 0);
    memcpy(s->v, from->v, from->n * sizeof *s->v);
    return s;
}

static void argset_free(argset *s) {
    if (s == NULL)
        return;
    free(s->size);
    free(s->v);
    free(s->a);
    free(s);
}

/* What the fake kernels saw at their last launch: runs, and arguments that differed from the
 * argset in `expected_at_launch`. */
static const argset *expected_at_launch;
static int launch_runs, launch_mismatches, launch_first_bad = -1;

static void check_at_launch(void **args, const CUDA_KERNEL_NODE_PARAMS_v2 *launch, void *user) {
    (void)launch;
    (void)user;
    launch_runs++;
    const argset *want = expected_at_launch;
    if (want == NULL)
        return;
    for (uint32_t i = 0; i < want->n; i++)
        if (memcmp(args[i], want->v[i], want->size[i]) != 0) {
            if (launch_mismatches++ == 0)
                launch_first_bad = (int)i;
        }
}

/* A fake kernel named `name` taking n parameters of mixed_size(i) bytes. */
typedef struct wide_kernel {
    CUfunction f;
    uint32_t n;
    size_t *sizes;
} wide_kernel;

static wide_kernel wide_register(const char *name, uint32_t n) {
    wide_kernel k = {NULL, n, calloc(n ? n : 1, sizeof(size_t))};
    assert_non_null(k.sizes);
    for (uint32_t i = 0; i < n; i++)
        k.sizes[i] = mixed_size(i);
    k.f = cgn_fake_register_kernel(name, n, k.sizes, check_at_launch, NULL);
    assert_non_null(k.f);
    return k;
}

static void wide_free(wide_kernel *k) {
    free(k->sizes);
    k->sizes = NULL;
}

static cgn_kernel as_function(const wide_kernel *k) {
    return CGN_FUNCTION(k->f);
}

static cgn_kernel as_kernel(const wide_kernel *k) {
    return CGN_KERNEL(cgn_fake_kernel_of(k->f));
}

static cgn_kernel_desc wide_desc(cgn_kernel kernel, const argset *s) {
    cgn_kernel_desc d = CGN_KERNEL_DESC_INIT;
    d.kernel = kernel;
    d.grid = d.block = CGN_DIM3(1, 1, 1);
    d.args = s->a;
    d.num_args = s->n;
    return d;
}

/* ---- checks ----------------------------------------------------------------------------------- */

static int same_kernel(cgn_kernel a, cgn_kernel b) {
    return a.function == b.function && a.kernel == b.kernel;
}

/* cgn's copy: the kernel, the count, every size and value. */
static void expect_desc(const cgn_kernel_desc *d, cgn_kernel kernel, const argset *want,
                        const char *what) {
    if (!same_kernel(d->kernel, kernel))
        fail_msg("%s: cgn has another kernel", what);
    if (d->num_args != want->n)
        fail_msg("%s: cgn has %u arguments, %u wanted", what, d->num_args, want->n);
    for (uint32_t i = 0; i < want->n; i++) {
        if (d->args[i].size != want->size[i])
            fail_msg("%s: cgn's argument %u is %zu bytes, %zu wanted", what, i, d->args[i].size,
                     want->size[i]);
        if (memcmp(d->args[i].value, want->v[i], want->size[i]) != 0)
            fail_msg("%s: cgn's argument %u differs", what, i);
    }
}

/* What the driver holds: the kernel and every argument's bytes. */
static void expect_params(const CUgraphNodeParams *p, cgn_kernel kernel, const argset *want,
                          const char *what) {
    assert_int_equal(p->type, CU_GRAPH_NODE_TYPE_KERNEL);
    if (p->kernel.func != kernel.function || p->kernel.kern != kernel.kernel)
        fail_msg("%s: the driver has another kernel", what);
    if (want->n == 0)
        return;
    assert_non_null(p->kernel.kernelParams);
    for (uint32_t i = 0; i < want->n; i++)
        if (memcmp(p->kernel.kernelParams[i], want->v[i], want->size[i]) != 0)
            fail_msg("%s: the driver's argument %u differs", what, i);
}

static void expect_node(cgn_node *node, cgn_kernel kernel, const argset *want, const char *what) {
    cgn_kernel_desc got;
    OK(cgn_kernel_node_get(node, &got));
    expect_desc(&got, kernel, want, what);
    CUgraphNode raw;
    OK(cgn_node_raw(node, &raw));
    CUgraphNodeParams p;
    assert_int_equal(cgn_fake_node_params(raw, &p), 1);
    expect_params(&p, kernel, want, what);
}

static void expect_exec(cgn_exec *e, cgn_node *node, cgn_kernel kernel, const argset *want,
                        const char *what) {
    cgn_kernel_desc got;
    OK(cgn_kernel_exec_get(e, node, &got));
    expect_desc(&got, kernel, want, what);
    CUgraphNode raw;
    CUgraphExec raw_exec;
    OK(cgn_node_raw(node, &raw));
    OK(cgn_exec_raw(e, &raw_exec));
    CUgraphNodeParams p;
    assert_int_equal(cgn_fake_exec_node_params(raw_exec, raw, &p), 1);
    expect_params(&p, kernel, want, what);
}

/* Launches e (one kernel node) and checks what the kernel saw. */
static void expect_launch(cgn_test_env *env, cgn_exec *e, const argset *want) {
    expected_at_launch = want;
    launch_runs = launch_mismatches = 0;
    launch_first_bad = -1;
    OK(env->backend->launch(env, e));
    expected_at_launch = NULL;
    assert_int_equal(launch_runs, 1);
    if (launch_mismatches != 0)
        fail_msg("the launch saw %d arguments differ, the first %d", launch_mismatches,
                 launch_first_bad);
}

static void expect_error_has(const char *part) {
    if (strstr(cgn_last_error(), part) == NULL)
        fail_msg("last error:\n  %s\nwanted it to contain:\n  %s", cgn_last_error(), part);
}

static void expect_error_is(const char *want) {
    if (strcmp(cgn_last_error(), want) != 0)
        fail_msg("last error:\n  %s\nwanted:\n  %s", cgn_last_error(), want);
}

/* A size argument i does not have. */
static size_t wrong_size(uint32_t i) {
    return mixed_size(i) == 4 ? 8 : 4;
}

/* "<where>: kernel <name> argument <i> is <its size> bytes; <wrong_size(i)> given" */
static void expect_size_refused(const char *where, const char *name, uint32_t i) {
    char want[160];
    snprintf(want, sizeof want, "%s: kernel %s argument %u is %zu bytes; %zu given", where, name,
             i, mixed_size(i), wrong_size(i));
    expect_error_is(want);
}

static long param_info_calls(void) {
    return cgn_fault_calls(CGN_FAULT_cuFuncGetParamInfo) +
           cgn_fault_calls(CGN_FAULT_cuKernelGetParamInfo);
}

static size_t graph_nodes(cgn_graph *g) {
    size_t count = 0;
    OK(cgn_graph_nodes(g, NULL, &count));
    CUgraph raw;
    OK(cgn_graph_raw(g, &raw));
    assert_int_equal(cgn_fake_graph_node_count(raw), count);
    return count;
}

/* ---- adding ------------------------------------------------------------------------------------ */

/* A node of a kernel with n parameters, as a CUfunction and as a CUkernel (cuFuncGetParamInfo,
 * cuKernelGetParamInfo): every argument reaches cgn's copy, the driver and the launch. Up to 64
 * parameters the driver is asked once (n + 1 calls: the last one finds the end); above, twice. */
static void test_wide_add_passes_every_argument(void **state) {
    cgn_test_env *env = *state;
    static const uint32_t counts[] = {63, 64, 65, 70, 200};
    for (size_t c = 0; c < sizeof counts / sizeof counts[0]; c++) {
        uint32_t n = counts[c];
        char name[32];
        snprintf(name, sizeof name, "wide%u", n);
        wide_kernel k = wide_register(name, n);
        for (int as = 0; as < 2; as++) {
            cgn_kernel kernel = as ? as_kernel(&k) : as_function(&k);
            argset *s = argset_new(k.sizes, n, 1 + (unsigned)as);
            cgn_kernel_desc d = wide_desc(kernel, s);
            cgn_graph *g;
            cgn_node *node;
            cgn_exec *e;
            OK(cgn_graph_create(&g));
            cgn_fault_reset_counts();
            OK(cgn_graph_add_kernel(g, NULL, 0, &d, &node));
            long expected_calls = n <= STACK_PARAMS ? n + 1 : 2 * ((long)n + 1);
            if (param_info_calls() != expected_calls)
                fail_msg("%u parameters: %ld param-info calls, %ld wanted", n, param_info_calls(),
                         expected_calls);
            assert_int_equal(cgn_fault_calls(as ? CGN_FAULT_cuFuncGetParamInfo
                                                : CGN_FAULT_cuKernelGetParamInfo),
                             0);
            /* The caller's values may go at once: scribbled over, they must not show. */
            argset *want = argset_copy(s);
            memset(s->v, 0xee, n * sizeof *s->v);
            expect_node(node, kernel, want, name);
            OK(cgn_graph_instantiate(g, &e));
            expect_exec(e, node, kernel, want, name);
            expect_launch(env, e, want);
            OK(cgn_exec_destroy(e));
            OK(cgn_graph_destroy(g));
            argset_free(want);
            argset_free(s);
        }
        wide_free(&k);
    }
}

/* The cap: a kernel of CGN__MAX_KERNEL_PARAMS (32,764, the most CUDA's 32,764 bytes of
 * parameters allow) parameters takes the heap path like any other above 64; its last argument
 * arrives, and can be edited. */
static void test_wide_add_at_the_cap(void **state) {
    cgn_test_env *env = *state;
    wide_kernel k = wide_register("wide_cap", MAX_KERNEL_PARAMS);
    argset *s = argset_new(k.sizes, MAX_KERNEL_PARAMS, 3);
    cgn_kernel_desc d = wide_desc(as_kernel(&k), s);
    cgn_graph *g;
    cgn_node *node;
    cgn_exec *e;
    OK(cgn_graph_create(&g));
    OK(cgn_graph_add_kernel(g, NULL, 0, &d, &node));
    expect_node(node, as_kernel(&k), s, "32764 parameters");
    cgn_kernel_update u = CGN_KERNEL_UPDATE_INIT;
    argset_fill(s, MAX_KERNEL_PARAMS - 1, 9);
    argset_fill(s, 64, 9);
    cgn_kernel_update_set_arg(&u, MAX_KERNEL_PARAMS - 1, s->v[MAX_KERNEL_PARAMS - 1],
                              s->size[MAX_KERNEL_PARAMS - 1], NULL);
    cgn_kernel_update_set_arg(&u, 64, s->v[64], s->size[64], NULL);
    OK(cgn_kernel_node_update(node, &u));
    expect_node(node, as_kernel(&k), s, "32764 parameters, edited");
    OK(cgn_graph_instantiate(g, &e));
    expect_launch(env, e, s);
    OK(cgn_exec_destroy(e));
    OK(cgn_graph_destroy(g));
    argset_free(s);
    wide_free(&k);
}

/* The two kernels the update and refusal tests use (200 and 70 parameters), and a graph with
 * one node of the first (arguments `*def`, seed 1, as a CUfunction) instantiated once. */
static void wide_open_200_70(wide_kernel *a, wide_kernel *b, argset **def, cgn_graph **g,
                             cgn_node **node, cgn_exec **e) {
    *a = wide_register("wide_a", 200);
    *b = wide_register("wide_b", 70);
    *def = argset_new(a->sizes, 200, 1);
    cgn_kernel_desc d = wide_desc(as_function(a), *def);
    OK(cgn_graph_create(g));
    OK(cgn_graph_add_kernel(*g, NULL, 0, &d, node));
    OK(cgn_graph_instantiate(*g, e));
}

/* ---- updating ---------------------------------------------------------------------------------- */

/* A 200-parameter node: a whole new list (the kernel unchanged: sizes from cgn's block), edits
 * of single arguments on both sides of index 64, another kernel of 70 parameters (asked of the
 * driver: the heap path), the first kernel again as a CUkernel, and the same at executable
 * level; the definition and the executable keep apart. */
static void test_wide_updates(void **state) {
    cgn_test_env *env = *state;
    wide_kernel a, b;
    argset *def;
    cgn_graph *g;
    cgn_node *node;
    cgn_exec *e;
    wide_open_200_70(&a, &b, &def, &g, &node, &e);
    argset *ex = argset_copy(def);

    /* A whole new list. */
    argset *next = argset_new(a.sizes, 200, 2);
    cgn_kernel_update u = CGN_KERNEL_UPDATE_INIT;
    cgn_kernel_update_set_args(&u, next->a, next->n);
    OK(cgn_kernel_node_update(node, &u));
    argset_free(def);
    def = argset_copy(next);
    memset(next->v, 0xee, next->n * sizeof *next->v); /* copied by the update */
    expect_node(node, as_function(&a), def, "whole list");
    expect_exec(e, node, as_function(&a), ex, "exec after a definition update");

    /* Single arguments: below, at and beyond 64, and the last. */
    static const uint32_t edited[] = {0, 63, 64, 65, 130, 199};
    for (size_t i = 0; i < sizeof edited / sizeof edited[0]; i++) {
        uint32_t at = edited[i];
        argset_fill(def, at, 10 + (unsigned)i);
        cgn_kernel_update_reset(&u);
        cgn_kernel_update_set_arg(&u, at, def->v[at], def->size[at], NULL);
        OK(cgn_kernel_node_update(node, &u));
        expect_node(node, as_function(&a), def, "one argument edited");
    }
    /* Several in one update, one of them twice (the later wins). */
    unsigned char scratch[MAX_ARG_BYTES];
    memset(scratch, 0x77, sizeof scratch);
    argset_fill(def, 66, 20);
    argset_fill(def, 198, 21);
    cgn_kernel_update_reset(&u);
    cgn_kernel_update_set_arg(&u, 198, scratch, def->size[198], NULL);
    cgn_kernel_update_set_arg(&u, 66, def->v[66], def->size[66], NULL);
    cgn_kernel_update_set_arg(&u, 198, def->v[198], def->size[198], NULL);
    OK(cgn_kernel_node_update(node, &u));
    expect_node(node, as_function(&a), def, "two arguments edited");

    /* Another kernel (70 parameters): its sizes come from the driver. */
    argset *bargs = argset_new(b.sizes, 70, 3);
    cgn_kernel_update_reset(&u);
    cgn_kernel_update_set_kernel(&u, as_function(&b), NULL, bargs->a, bargs->n);
    cgn_fault_reset_counts();
    OK(cgn_kernel_node_update(node, &u));
    assert_int_equal(param_info_calls(), 2 * (70 + 1));
    expect_node(node, as_function(&b), bargs, "another kernel");
    argset_fill(bargs, 69, 4);
    cgn_kernel_update_reset(&u);
    cgn_kernel_update_set_arg(&u, 69, bargs->v[69], bargs->size[69], NULL);
    OK(cgn_kernel_node_update(node, &u));
    expect_node(node, as_function(&b), bargs, "another kernel, edited");

    /* The first kernel again, as a CUkernel: cuKernelGetParamInfo's heap path. */
    argset_free(def);
    def = argset_new(a.sizes, 200, 5);
    cgn_kernel_update_reset(&u);
    cgn_kernel_update_set_kernel(&u, as_kernel(&a), NULL, def->a, def->n);
    cgn_fault_reset_counts();
    OK(cgn_kernel_node_update(node, &u));
    assert_int_equal(cgn_fault_calls(CGN_FAULT_cuKernelGetParamInfo), 2 * (200 + 1));
    expect_node(node, as_kernel(&a), def, "the first kernel as a CUkernel");

    /* The executable: still the first list; then its own updates. */
    expect_exec(e, node, as_function(&a), ex, "exec after definition updates");
    expect_launch(env, e, ex);
    argset_fill(ex, 100, 6);
    argset_fill(ex, 7, 6);
    cgn_kernel_update_reset(&u);
    cgn_kernel_update_set_arg(&u, 100, ex->v[100], ex->size[100], NULL);
    cgn_kernel_update_set_arg(&u, 7, ex->v[7], ex->size[7], NULL);
    OK(cgn_kernel_exec_update(e, node, &u));
    expect_exec(e, node, as_function(&a), ex, "exec, two arguments edited");
    expect_launch(env, e, ex);
    argset *exb = argset_new(b.sizes, 70, 7);
    cgn_kernel_update_reset(&u);
    cgn_kernel_update_set_kernel(&u, as_function(&b), NULL, exb->a, exb->n);
    OK(cgn_kernel_exec_update(e, node, &u));
    expect_exec(e, node, as_function(&b), exb, "exec, another kernel");
    expect_launch(env, e, exb);
    argset *exa = argset_new(a.sizes, 200, 8);
    cgn_kernel_update_reset(&u);
    cgn_kernel_update_set_kernel(&u, as_function(&a), NULL, exa->a, exa->n);
    OK(cgn_kernel_exec_update(e, node, &u));
    argset_fill(exa, 150, 9);
    cgn_kernel_update_reset(&u);
    cgn_kernel_update_set_arg(&u, 150, exa->v[150], exa->size[150], NULL);
    OK(cgn_kernel_exec_update(e, node, &u));
    expect_exec(e, node, as_function(&a), exa, "exec, the first kernel again, edited");
    expect_launch(env, e, exa);
    expect_node(node, as_kernel(&a), def, "definition after exec updates");

    OK(cgn_exec_destroy(e));
    OK(cgn_graph_destroy(g));
    argset_free(def);
    argset_free(ex);
    argset_free(next);
    argset_free(bargs);
    argset_free(exb);
    argset_free(exa);
    wide_free(&a);
    wide_free(&b);
}

/* ---- refusals ---------------------------------------------------------------------------------- */

/* Wrong counts and wrong sizes beyond index 64 are refused with CGN_ERROR_INVALID_VALUE and a
 * message naming the argument (or the counts), with no driver call that sets anything and the
 * node, the executable and the graph as they were: on the kernel's own sizes (cached in cgn's
 * block), on a new kernel's (asked of the driver: the heap path) and when adding. */
static void test_wide_wrong_arguments_refused(void **state) {
    cgn_test_env *env = *state;
    wide_kernel a, b;
    argset *def;
    cgn_graph *g;
    cgn_node *node;
    cgn_exec *e;
    wide_open_200_70(&a, &b, &def, &g, &node, &e);
    argset *bad = argset_new(a.sizes, 200, 2);
    unsigned char big[MAX_ARG_BYTES] = {0};
    cgn_kernel_update u = CGN_KERNEL_UPDATE_INIT;
    cgn_fault_reset_counts();

    /* The same kernel, a whole list: one argument short, one of the wrong size (beyond 64, and
     * the last), at both levels. */
    cgn_kernel_update_set_args(&u, bad->a, 199);
    assert_int_equal(cgn_kernel_node_update(node, &u), CGN_ERROR_INVALID_VALUE);
    expect_error_has("cgn_kernel_node_update: kernel wide_a takes 200 arguments (");
    expect_error_has("); 199 given");
    static const uint32_t wrong_at[] = {64, 150, 199};
    for (size_t w = 0; w < sizeof wrong_at / sizeof wrong_at[0]; w++) {
        uint32_t at = wrong_at[w];
        bad->a[at].size = wrong_size(at);
        cgn_kernel_update_reset(&u);
        cgn_kernel_update_set_args(&u, bad->a, 200);
        assert_int_equal(cgn_kernel_node_update(node, &u), CGN_ERROR_INVALID_VALUE);
        expect_size_refused("cgn_kernel_node_update", "wide_a", at);
        assert_int_equal(cgn_kernel_exec_update(e, node, &u), CGN_ERROR_INVALID_VALUE);
        expect_size_refused("cgn_kernel_exec_update", "wide_a", at);
        bad->a[at].size = mixed_size(at);
    }

    /* Single edits: a wrong size beyond 64 (after a good edit), an index past the last. */
    static const uint32_t edit_at[] = {65, 97, 199};
    for (size_t w = 0; w < sizeof edit_at / sizeof edit_at[0]; w++) {
        uint32_t at = edit_at[w];
        cgn_kernel_update_reset(&u);
        cgn_kernel_update_set_arg(&u, 66, big, mixed_size(66), NULL);
        cgn_kernel_update_set_arg(&u, at, big, wrong_size(at), NULL);
        assert_int_equal(cgn_kernel_node_update(node, &u), CGN_ERROR_INVALID_VALUE);
        expect_size_refused("cgn_kernel_node_update", "wide_a", at);
        assert_int_equal(cgn_kernel_exec_update(e, node, &u), CGN_ERROR_INVALID_VALUE);
        expect_size_refused("cgn_kernel_exec_update", "wide_a", at);
    }
    cgn_kernel_update_reset(&u);
    cgn_kernel_update_set_arg(&u, 66, big, mixed_size(66), NULL);
    cgn_kernel_update_set_arg(&u, 200, big, 4, NULL);
    assert_int_equal(cgn_kernel_node_update(node, &u), CGN_ERROR_INVALID_VALUE);
    expect_error_is("cgn_kernel_node_update: argument 200: kernel wide_a takes 200 arguments");

    /* Another kernel (70 parameters, asked of the driver): short, long, a wrong size at 66 and
     * at 69, as a CUfunction and as a CUkernel. */
    argset *bargs = argset_new(b.sizes, 70, 3);
    cgn_kernel_update_reset(&u);
    cgn_kernel_update_set_kernel(&u, as_function(&b), NULL, bargs->a, 69);
    assert_int_equal(cgn_kernel_node_update(node, &u), CGN_ERROR_INVALID_VALUE);
    expect_error_has("cgn_kernel_node_update: kernel wide_b takes 70 arguments (");
    expect_error_has("); 69 given");
    argset *bargs71 = argset_new(a.sizes, 71, 3) /* wide_b's sizes, one more */;
    cgn_kernel_update_set_kernel(&u, as_kernel(&b), NULL, bargs71->a, 71);
    assert_int_equal(cgn_kernel_node_update(node, &u), CGN_ERROR_INVALID_VALUE);
    expect_error_has("cgn_kernel_node_update: kernel wide_b takes 70 arguments (");
    expect_error_has("); 71 given");
    argset_free(bargs71);
    static const uint32_t b_wrong_at[] = {66, 69};
    for (size_t w = 0; w < sizeof b_wrong_at / sizeof b_wrong_at[0]; w++) {
        uint32_t at = b_wrong_at[w];
        bargs->a[at].size = wrong_size(at);
        for (int as = 0; as < 2; as++) {
            cgn_kernel_update_set_kernel(&u, as ? as_kernel(&b) : as_function(&b), NULL,
                                         bargs->a, 70);
            assert_int_equal(cgn_kernel_node_update(node, &u), CGN_ERROR_INVALID_VALUE);
            expect_size_refused("cgn_kernel_node_update", "wide_b", at);
            assert_int_equal(cgn_kernel_exec_update(e, node, &u), CGN_ERROR_INVALID_VALUE);
            expect_size_refused("cgn_kernel_exec_update", "wide_b", at);
        }
        bargs->a[at].size = mixed_size(at);
    }

    /* Adding: a wrong size at 100, a count off by one. */
    bad->a[100].size = wrong_size(100);
    cgn_kernel_desc bd = wide_desc(as_function(&a), bad);
    cgn_node *none = NULL;
    assert_int_equal(cgn_graph_add_kernel(g, NULL, 0, &bd, &none), CGN_ERROR_INVALID_VALUE);
    expect_size_refused("cgn_graph_add_kernel", "wide_a", 100);
    assert_null(none);
    bad->a[100].size = mixed_size(100);
    bd.num_args = 199;
    assert_int_equal(cgn_graph_add_kernel(g, NULL, 0, &bd, &none), CGN_ERROR_INVALID_VALUE);
    expect_error_has("cgn_graph_add_kernel: kernel wide_a takes 200 arguments (");
    expect_error_has("); 199 given");
    assert_null(none);

    /* Nothing reached the driver; nothing changed. */
    assert_int_equal(cgn_fault_setter_calls(), 0);
    assert_int_equal(cgn_fault_calls(CGN_FAULT_cuGraphAddKernelNode), 0);
    assert_int_equal(graph_nodes(g), 1);
    expect_node(node, as_function(&a), def, "after refusals");
    expect_exec(e, node, as_function(&a), def, "exec after refusals");
    expect_launch(env, e, def);
    /* And the node still takes a good update. */
    cgn_kernel_update_reset(&u);
    cgn_kernel_update_set_kernel(&u, as_function(&b), NULL, bargs->a, 70);
    OK(cgn_kernel_node_update(node, &u));
    expect_node(node, as_function(&b), bargs, "a good update after refusals");

    OK(cgn_exec_destroy(e));
    OK(cgn_graph_destroy(g));
    argset_free(def);
    argset_free(bad);
    argset_free(bargs);
    wide_free(&a);
    wide_free(&b);
}

/* ---- adoption and refresh ------------------------------------------------------------------------ */

/* A raw kernel node; args through kernelParams, or packed at the kernel's offsets (asked of the
 * driver) into *packed through `extra`. */
static CUgraphNode raw_wide_node(CUgraph raw, cgn_kernel kernel, const argset *s, int pack,
                                 unsigned char **packed) {
    CUDA_KERNEL_NODE_PARAMS_v2 k;
    memset(&k, 0, sizeof k);
    k.func = kernel.function;
    k.kern = kernel.kernel;
    k.gridDimX = k.gridDimY = k.gridDimZ = k.blockDimX = k.blockDimY = k.blockDimZ = 1;
    void **params = calloc(s->n, sizeof *params);
    assert_non_null(params);
    for (uint32_t i = 0; i < s->n; i++)
        params[i] = s->v[i];
    static size_t packed_size;
    void *extra[] = {CU_LAUNCH_PARAM_BUFFER_POINTER, NULL, CU_LAUNCH_PARAM_BUFFER_SIZE,
                     &packed_size, CU_LAUNCH_PARAM_END};
    if (pack) {
        size_t offsets[256], end = 0;
        assert_true(s->n <= 256);
        for (uint32_t i = 0; i < s->n; i++) {
            size_t size = 0;
            CU_OK(kernel.function ? drv()->cuFuncGetParamInfo(kernel.function, i, &offsets[i], &size)
                                  : drv()->cuKernelGetParamInfo(kernel.kernel, i, &offsets[i],
                                                                &size));
            assert_int_equal(size, s->size[i]);
            end = offsets[i] + size;
        }
        *packed = calloc(1, end);
        assert_non_null(*packed);
        for (uint32_t i = 0; i < s->n; i++)
            memcpy(*packed + offsets[i], s->v[i], s->size[i]);
        packed_size = end;
        extra[1] = *packed;
        k.extra = extra;
    } else {
        k.kernelParams = params;
    }
    CUgraphNode node;
    CU_OK(drv()->cuGraphAddKernelNode(&node, raw, NULL, 0, &k));
    free(params);
    return node;
}

static cgn_node *find(cgn_graph *g, CUgraphNode raw) {
    cgn_node *n = NULL;
    OK(cgn_graph_find_raw(g, raw, &n));
    assert_non_null(n);
    return n;
}

/* Adoption reads every argument of wide kernel nodes: through kernelParams and packed through
 * `extra` (read at the offsets of the heap arrays), two nodes of one kernel (the second from
 * the adoption's layout cache), as a CUfunction and as a CUkernel. The adopted nodes then take
 * edits beyond 64, launch with what was read, and a refresh (asking the driver again, without
 * a cache) reads what changed behind cgn's back. */
static void test_wide_adoption_and_refresh(void **state) {
    cgn_test_env *env = *state;
    wide_kernel a = wide_register("wide_a", 200), b = wide_register("wide_b", 70);
    argset *s1 = argset_new(a.sizes, 200, 1), *s2 = argset_new(a.sizes, 200, 2);
    argset *s3 = argset_new(b.sizes, 70, 3), *s4 = argset_new(a.sizes, 200, 4);
    unsigned char *packed3 = NULL, *packed4 = NULL;
    CUgraph raw;
    CU_OK(drv()->cuGraphCreate(&raw, 0));
    CUgraphNode r1 = raw_wide_node(raw, as_function(&a), s1, 0, NULL);
    CUgraphNode r2 = raw_wide_node(raw, as_function(&a), s2, 0, NULL);
    CUgraphNode r3 = raw_wide_node(raw, as_kernel(&b), s3, 1, &packed3);
    CUgraphNode r4 = raw_wide_node(raw, as_function(&a), s4, 1, &packed4);
    free(packed3);
    free(packed4);
    cgn_graph *g = NULL;
    cgn_fault_reset_counts();
    OK(cgn_graph_adopt(raw, CGN_ADOPT_TAKE_OWNERSHIP, &g));
    /* Each kernel asked twice over (201 + 201, 71 + 71 calls), once per adoption: the node given
     * a CUkernel reads back with its CUfunction (as on an H200), so both through
     * cuFuncGetParamInfo. */
    assert_int_equal(cgn_fault_calls(CGN_FAULT_cuFuncGetParamInfo), 2 * 201 + 2 * 71);
    assert_int_equal(cgn_fault_calls(CGN_FAULT_cuKernelGetParamInfo), 0);
    cgn_node *n1 = find(g, r1), *n2 = find(g, r2), *n3 = find(g, r3), *n4 = find(g, r4);
    cgn_kernel_desc got;
    expect_node(n1, as_function(&a), s1, "adopted, kernelParams");
    expect_node(n2, as_function(&a), s2, "adopted, kernelParams, cached layout");
    /* cgn records the CUfunction the driver reports; the driver's node keeps the CUkernel. */
    OK(cgn_kernel_node_get(n3, &got));
    expect_desc(&got, as_function(&b), s3, "adopted, packed, given a CUkernel");
    CUgraphNodeParams p3;
    assert_int_equal(cgn_fake_node_params(r3, &p3), 1);
    expect_params(&p3, as_kernel(&b), s3, "adopted, packed, given a CUkernel");
    OK(cgn_node_check_updatable(n3));
    OK(cgn_kernel_node_get(n4, &got));
    expect_desc(&got, as_function(&a), s4, "adopted, packed, cached layout");

    /* Edits beyond 64 on what was read. */
    argset_fill(s1, 180, 11);
    argset_fill(s3, 67, 11);
    cgn_kernel_update u = CGN_KERNEL_UPDATE_INIT;
    cgn_kernel_update_set_arg(&u, 180, s1->v[180], s1->size[180], NULL);
    OK(cgn_kernel_node_update(n1, &u));
    expect_node(n1, as_function(&a), s1, "adopted, edited");
    cgn_kernel_update_reset(&u);
    cgn_kernel_update_set_arg(&u, 67, s3->v[67], s3->size[67], NULL);
    OK(cgn_kernel_node_update(n3, &u));
    expect_node(n3, as_function(&b), s3, "adopted packed, edited");
    OK(cgn_node_destroy(n2));
    OK(cgn_node_destroy(n4));
    cgn_exec *e;
    OK(cgn_graph_instantiate(g, &e));
    expect_exec(e, n3, as_function(&b), s3, "exec of the adopted");
    OK(cgn_exec_destroy(e));
    OK(cgn_node_destroy(n3));
    OK(cgn_graph_instantiate(g, &e));
    expect_launch(env, e, s1);
    OK(cgn_exec_destroy(e));

    /* Behind cgn's back, then refreshed: the driver is asked again (no cache), heap path. */
    argset *s5 = argset_new(a.sizes, 200, 5);
    CUDA_KERNEL_NODE_PARAMS_v2 k;
    memset(&k, 0, sizeof k);
    k.func = a.f;
    k.gridDimX = k.gridDimY = k.gridDimZ = k.blockDimX = k.blockDimY = k.blockDimZ = 1;
    void **params = calloc(200, sizeof *params);
    assert_non_null(params);
    for (uint32_t i = 0; i < 200; i++)
        params[i] = s5->v[i];
    k.kernelParams = params;
    CU_OK(drv()->cuGraphKernelNodeSetParams(r1, &k));
    free(params);
    cgn_fault_reset_counts();
    OK(cgn_node_refresh(n1));
    assert_int_equal(cgn_fault_calls(CGN_FAULT_cuFuncGetParamInfo), 2 * 201);
    expect_node(n1, as_function(&a), s5, "refreshed");

    /* A node cgn added with a CUkernel, refreshed: cgn keeps the CUkernel, and asks
     * cuKernelGetParamInfo (heap path) for its layout. */
    cgn_node *n6;
    argset *s6 = argset_new(a.sizes, 200, 6);
    cgn_kernel_desc d6 = wide_desc(as_kernel(&a), s6);
    OK(cgn_graph_add_kernel(g, NULL, 0, &d6, &n6));
    CUgraphNode r6;
    OK(cgn_node_raw(n6, &r6));
    argset_fill(s6, 77, 12);
    argset_fill(s6, 3, 12);
    params = calloc(200, sizeof *params);
    assert_non_null(params);
    for (uint32_t i = 0; i < 200; i++)
        params[i] = s6->v[i];
    k.func = NULL;
    k.kern = cgn_fake_kernel_of(a.f);
    k.kernelParams = params;
    CU_OK(drv()->cuGraphKernelNodeSetParams(r6, &k));
    free(params);
    cgn_fault_reset_counts();
    OK(cgn_node_refresh(n6));
    assert_int_equal(cgn_fault_calls(CGN_FAULT_cuKernelGetParamInfo), 2 * 201);
    cgn_kernel_desc got6;
    OK(cgn_kernel_node_get(n6, &got6));
    expect_desc(&got6, as_kernel(&a), s6, "refreshed, a CUkernel");
    argset_free(s6);

    OK(cgn_graph_destroy(g));
    argset_free(s1);
    argset_free(s2);
    argset_free(s3);
    argset_free(s4);
    argset_free(s5);
    wide_free(&a);
    wide_free(&b);
}

/* ---- the second query failing, or counting differently ----------------------------------------- */

/* A driver table over the fake whose cu{Func,Kernel}GetParamInfo count their calls (from
 * param_hook_start) and, at call fail_at, fail with CUDA_ERROR_UNKNOWN; from call
 * changed_from on they report a kernel of changed_count parameters (the real ones below
 * real_count, 4-byte ones above). */
static struct {
    cgn_driver_table table;
    const cgn_driver_table *inner;
    long calls, fail_at, changed_from;
    uint32_t real_count, changed_count;
    long zero_size_at; /* >= 0: parameter zero_size_at reported as 0 bytes (-1: none) */
    int injected;
} hook;

static CUresult param_hook(CUfunction f, CUkernel k, size_t i, size_t *off, size_t *size) {
    long call = ++hook.calls;
    if (call == hook.fail_at) {
        hook.injected = 1;
        return CUDA_ERROR_UNKNOWN;
    }
    if (hook.changed_from != 0 && call >= hook.changed_from) {
        if (i >= hook.changed_count)
            return CUDA_ERROR_INVALID_VALUE;
        if (i >= hook.real_count) {
            *off = 16 * i;
            *size = 4;
            return CUDA_SUCCESS;
        }
    }
    CUresult r = f ? hook.inner->cuFuncGetParamInfo(f, i, off, size)
                   : hook.inner->cuKernelGetParamInfo(k, i, off, size);
    if (r == CUDA_SUCCESS && hook.zero_size_at >= 0 && i == (size_t)hook.zero_size_at)
        *size = 0;
    return r;
}

static CUresult hook_func(CUfunction f, size_t i, size_t *off, size_t *size) {
    return param_hook(f, NULL, i, off, size);
}

static CUresult hook_kernel(CUkernel k, size_t i, size_t *off, size_t *size) {
    return param_hook(NULL, k, i, off, size);
}

static void hook_install(cgn_test_env *env) {
    memset(&hook, 0, sizeof hook);
    hook.inner = env->backend->driver(env);
    hook.table = *hook.inner;
    hook.table.cuFuncGetParamInfo = hook_func;
    hook.table.cuKernelGetParamInfo = hook_kernel;
    hook.zero_size_at = -1;
    cgn_fault_install(&hook.table);
}

static void hook_start(long fail_at, long changed_from, uint32_t real_count,
                       uint32_t changed_count) {
    hook.calls = 0;
    hook.injected = 0;
    hook.fail_at = fail_at;
    hook.changed_from = changed_from;
    hook.real_count = real_count;
    hook.changed_count = changed_count;
    hook.zero_size_at = -1;
}

static void hook_stop(void) {
    hook_start(0, 0, 0, 0);
}

/* The calls that ask the driver about a 200-parameter kernel, each set up on fresh objects,
 * made with the hook armed, then checked to have changed nothing. */
enum {
    OP_ADD_FUNCTION,    /* cgn_graph_add_kernel, a CUfunction */
    OP_ADD_KERNEL,      /* cgn_graph_add_kernel, a CUkernel */
    OP_SET_KERNEL,      /* cgn_kernel_node_update to the wide kernel from a 70-parameter one */
    OP_EXEC_SET_KERNEL, /* the same at executable level */
    OP_ADOPT,           /* cgn_graph_adopt of a raw graph holding the wide node */
    OP_REFRESH,         /* cgn_node_refresh after the arguments changed behind cgn's back */
    OP_COUNT
};
static const char *const op_names[OP_COUNT] = {"add (CUfunction)", "add (CUkernel)",
                                               "update to the wide kernel",
                                               "exec update to the wide kernel", "adopt",
                                               "refresh"};
static const char *const op_where[OP_COUNT] = {"cgn_graph_add_kernel", "cgn_graph_add_kernel",
                                               "cgn_kernel_node_update", "cgn_kernel_exec_update",
                                               "cgn_graph_adopt", "cgn_node_refresh"};

typedef struct op_state {
    wide_kernel wide, narrow;
    argset *cur;  /* what the node (or the raw node) has */
    argset *next; /* what the call would give it */
    cgn_graph *g;
    cgn_node *node;
    cgn_exec *e;
    CUgraph raw;
    CUgraphNode raw_node;
} op_state;

static void op_prepare(int op, op_state *s) {
    memset(s, 0, sizeof *s);
    s->wide = wide_register("wide_a", 200);
    s->narrow = wide_register("wide_b", 70);
    const wide_kernel *from = op == OP_SET_KERNEL || op == OP_EXEC_SET_KERNEL || op <= OP_ADD_KERNEL
                                  ? &s->narrow
                                  : &s->wide;
    s->cur = argset_new(from->sizes, from->n, 1);
    s->next = argset_new(s->wide.sizes, s->wide.n, 2);
    if (op == OP_ADOPT) {
        CU_OK(drv()->cuGraphCreate(&s->raw, 0));
        s->raw_node = raw_wide_node(s->raw, as_function(&s->wide), s->cur, 0, NULL);
        return;
    }
    OK(cgn_graph_create(&s->g));
    cgn_kernel_desc d = wide_desc(as_function(from), s->cur);
    OK(cgn_graph_add_kernel(s->g, NULL, 0, &d, &s->node));
    if (op == OP_EXEC_SET_KERNEL)
        OK(cgn_graph_instantiate(s->g, &s->e));
    if (op == OP_REFRESH) { /* the driver's node gets `next` behind cgn's back */
        CUDA_KERNEL_NODE_PARAMS_v2 k;
        memset(&k, 0, sizeof k);
        k.func = s->wide.f;
        k.gridDimX = k.gridDimY = k.gridDimZ = k.blockDimX = k.blockDimY = k.blockDimZ = 1;
        void **params = calloc(200, sizeof *params);
        assert_non_null(params);
        for (uint32_t i = 0; i < 200; i++)
            params[i] = s->next->v[i];
        k.kernelParams = params;
        OK(cgn_node_raw(s->node, &s->raw_node));
        CU_OK(drv()->cuGraphKernelNodeSetParams(s->raw_node, &k));
        free(params);
    }
}

static cgn_status op_call(int op, op_state *s) {
    cgn_kernel_desc d = wide_desc(op == OP_ADD_KERNEL ? as_kernel(&s->wide)
                                                      : as_function(&s->wide),
                                  s->next);
    cgn_kernel_update u = CGN_KERNEL_UPDATE_INIT;
    cgn_kernel_update_set_kernel(&u, as_function(&s->wide), NULL, s->next->a, s->next->n);
    cgn_node *added = NULL;
    cgn_graph *adopted = NULL;
    cgn_status st;
    switch (op) {
    case OP_ADD_FUNCTION:
    case OP_ADD_KERNEL:
        st = cgn_graph_add_kernel(s->g, NULL, 0, &d, &added);
        if (st != CGN_OK)
            assert_null(added);
        return st;
    case OP_SET_KERNEL:
        return cgn_kernel_node_update(s->node, &u);
    case OP_EXEC_SET_KERNEL:
        return cgn_kernel_exec_update(s->e, s->node, &u);
    case OP_ADOPT:
        st = cgn_graph_adopt(s->raw, 0, &adopted);
        if (st != CGN_OK)
            assert_null(adopted);
        else
            OK(cgn_graph_destroy(adopted));
        return st;
    default:
        return cgn_node_refresh(s->node);
    }
}

/* After a failed call: everything as op_prepare left it. */
static void op_check_unchanged(int op, op_state *s) {
    assert_int_equal(cgn_fault_setter_calls(), 0);
    assert_int_equal(cgn_fault_calls(CGN_FAULT_cuGraphAddKernelNode), 0);
    if (op == OP_ADOPT) {
        assert_int_equal(cgn_fake_graph_node_count(s->raw), 1);
        CUgraphNodeParams p;
        assert_int_equal(cgn_fake_node_params(s->raw_node, &p), 1);
        expect_params(&p, as_function(&s->wide), s->cur, "raw node after a failed adoption");
        return;
    }
    assert_int_equal(graph_nodes(s->g), 1);
    const wide_kernel *k = op == OP_REFRESH ? &s->wide : &s->narrow;
    cgn_kernel_desc got;
    OK(cgn_kernel_node_get(s->node, &got));
    expect_desc(&got, as_function(k), s->cur, "the node after a failed call");
    CUgraphNodeParams p;
    CUgraphNode raw;
    OK(cgn_node_raw(s->node, &raw));
    assert_int_equal(cgn_fake_node_params(raw, &p), 1);
    /* A refresh's driver node has the arguments set behind cgn's back. */
    expect_params(&p, as_function(k), op == OP_REFRESH ? s->next : s->cur,
                  "the driver's node after a failed call");
    if (s->e != NULL)
        expect_exec(s->e, s->node, as_function(k), s->cur, "the executable after a failed call");
}

/* After a call that succeeded: the wide kernel with `next` wherever the call puts it. */
static void op_check_done(int op, op_state *s) {
    if (op == OP_ADOPT)
        return; /* checked in op_call's adoption: destroyed there */
    if (op == OP_EXEC_SET_KERNEL) {
        expect_exec(s->e, s->node, as_function(&s->wide), s->next, "exec update");
        return;
    }
    if (op == OP_ADD_FUNCTION || op == OP_ADD_KERNEL) {
        assert_int_equal(graph_nodes(s->g), 2);
        return;
    }
    expect_node(s->node, as_function(&s->wide), s->next, op_names[op]);
}

static void op_cleanup(op_state *s) {
    if (s->e != NULL)
        OK(cgn_exec_destroy(s->e));
    if (s->g != NULL)
        OK(cgn_graph_destroy(s->g));
    if (s->raw != NULL)
        CU_OK(drv()->cuGraphDestroy(s->raw));
    argset_free(s->cur);
    argset_free(s->next);
    wide_free(&s->wide);
    wide_free(&s->narrow);
}

/* cu{Func,Kernel}GetParamInfo failing at any point of either query of a 200-parameter kernel
 * (the first into the stack arrays, the second into the heap arrays: its first call is 202):
 * CGN_ERROR_DRIVER naming the entry and its result, no further query, nothing changed, the
 * heap arrays freed (ASan and valgrind see a leak otherwise). The same calls unarmed succeed. */
static void test_wide_param_info_failure(void **state) {
    cgn_test_env *env = *state;
    hook_install(env);
    static const long first[] = {1, 65, 200, 201};
    static const long second[] = {0, 1, 63, 64, 65, 199, 200};
    enum { FIRST = sizeof first / sizeof first[0], SECOND = sizeof second / sizeof second[0] };
    for (int op = 0; op < OP_COUNT; op++) {
        for (size_t c = 0; c <= FIRST + SECOND; c++) {
            op_state s;
            op_prepare(op, &s);
            long at = c < FIRST ? first[c] : c < FIRST + SECOND ? 201 + 1 + second[c - FIRST] : 0;
            cgn_fault_reset_counts();
            hook_start(at, 0, 0, 0);
            cgn_status st = op_call(op, &s);
            long calls = hook.calls;
            int injected = hook.injected;
            hook_stop();
            if (at == 0) { /* unarmed: both queries, in full */
                if (st != CGN_OK)
                    fail_msg("%s, unarmed: %s (%s)", op_names[op], cgn_status_name(st),
                             cgn_last_error());
                assert_int_equal(calls, 2 * 201);
                op_check_done(op, &s);
                op_cleanup(&s);
                continue;
            }
            if (!injected || st != CGN_ERROR_DRIVER)
                fail_msg("%s, failing call %ld: injected %d, %s (%s)", op_names[op], at, injected,
                         cgn_status_name(st), cgn_last_error());
            if (calls != at)
                fail_msg("%s, failing call %ld: %ld calls made", op_names[op], at, calls);
            char want[160];
            snprintf(want, sizeof want, "%s: %s returned CUDA_ERROR_UNKNOWN (999)", op_where[op],
                     op == OP_ADD_KERNEL ? "cuKernelGetParamInfo" : "cuFuncGetParamInfo");
            expect_error_has(want);
            op_check_unchanged(op, &s);
            op_cleanup(&s);
        }
    }
    cgn_fault_install(env->backend->driver(env));
}

/* Runs operation `op` on fresh objects with the hook reporting `count` parameters from call
 * `changed_from` on (200 real ones below), and checks it fails with `want` and a message that
 * has "<the op's where>: <text>", having changed nothing. */
static void expect_op_refused(int op, long changed_from, uint32_t count, cgn_status want,
                              const char *text) {
    op_state s;
    op_prepare(op, &s);
    cgn_fault_reset_counts();
    hook_start(0, changed_from, 200, count);
    cgn_status st = op_call(op, &s);
    hook_stop();
    if (st != want)
        fail_msg("%s, %u parameters from call %ld: %s (%s)", op_names[op], count, changed_from,
                 cgn_status_name(st), cgn_last_error());
    char full[192];
    snprintf(full, sizeof full, "%s: %s", op_where[op], text);
    expect_error_has(full);
    op_check_unchanged(op, &s);
    op_cleanup(&s);
}

/* A kernel whose parameter count differs between the two queries (the first says 200, the
 * second fewer, more, or none): CGN_ERROR_DRIVER "the driver reported 200 parameters, then N",
 * nothing changed, the heap arrays freed. Without the check, fewer would leave the heap
 * arrays' tail unwritten and more would be taken as 200. */
static void test_wide_param_count_changes(void **state) {
    cgn_test_env *env = *state;
    hook_install(env);
    static const uint32_t changed[] = {199, 201, 65, 64, 10, 0, 4096, 5000, MAX_KERNEL_PARAMS};
    for (int op = 0; op < OP_COUNT; op++) {
        for (size_t c = 0; c < sizeof changed / sizeof changed[0]; c++) {
            char text[96];
            snprintf(text, sizeof text, "the driver reported 200 parameters, then %u", changed[c]);
            expect_op_refused(op, 201 + 1, changed[c], CGN_ERROR_DRIVER, text);
        }
    }
    cgn_fault_install(env->backend->driver(env));
}

/* A driver that reports more parameters than CUDA allows (a kernel of more than 32,764, each
 * at least a byte): CGN_ERROR_NOT_SUPPORTED naming the bound, on every call that asks, and
 * nothing changed. Before, cgn stopped asking at 4,096 and took the kernel to have 4,096. */
static void test_wide_param_count_beyond_cuda(void **state) {
    cgn_test_env *env = *state;
    hook_install(env);
    char text[96];
    snprintf(text, sizeof text, "the driver reports more than %u parameters for kernel",
             MAX_KERNEL_PARAMS);
    for (int op = 0; op < OP_COUNT; op++)
        expect_op_refused(op, 1, MAX_KERNEL_PARAMS + 2, CGN_ERROR_NOT_SUPPORTED, text);
    cgn_fault_install(env->backend->driver(env));
}

/* Adoption of a wide kernel whose reported sizes cgn's argument block does not take (a size
 * of 0 at 66, as no driver reports; one argument above 1 MiB at 67, beyond CUDA's 32 KiB of
 * parameters): the layout's plan refuses them, so adoption copies the arguments through a
 * cgn_arg list of the kernel's count, on the heap above 64 (cgn__read_kernel_args), and the
 * argument writer refuses them by index; nothing is adopted and nothing leaks. */
static void test_wide_adoption_of_sizes_refused(void **state) {
    cgn_test_env *env = *state;
    hook_install(env);
    for (int huge = 0; huge < 2; huge++) {
        size_t sizes[70];
        for (uint32_t i = 0; i < 70; i++)
            sizes[i] = mixed_size(i);
        if (huge)
            sizes[67] = ((size_t)1 << 20) + 16;
        CUfunction f = cgn_fake_register_kernel(huge ? "huge_arg" : "zero_arg", 70, sizes, NULL,
                                                NULL);
        assert_non_null(f);
        unsigned char *big = calloc(1, sizes[67]);
        assert_non_null(big);
        void *params[70];
        unsigned char small[70][MAX_ARG_BYTES];
        for (uint32_t i = 0; i < 70; i++) {
            memset(small[i], (int)i, sizeof small[i]);
            params[i] = i == 67 ? (void *)big : (void *)small[i];
        }
        CUDA_KERNEL_NODE_PARAMS_v2 k;
        memset(&k, 0, sizeof k);
        k.func = f;
        k.gridDimX = k.gridDimY = k.gridDimZ = k.blockDimX = k.blockDimY = k.blockDimZ = 1;
        k.kernelParams = params;
        CUgraph raw;
        CUgraphNode node;
        CU_OK(drv()->cuGraphCreate(&raw, 0));
        CU_OK(drv()->cuGraphAddKernelNode(&node, raw, NULL, 0, &k));
        free(big);
        hook_start(0, 0, 0, 0);
        if (!huge)
            hook.zero_size_at = 66;
        cgn_graph *g = NULL;
        cgn_status st = cgn_graph_adopt(raw, 0, &g);
        hook_stop();
        if (huge) {
            assert_int_equal(st, CGN_ERROR_OUT_OF_RANGE);
            expect_error_has(": argument 67 is 1048592 bytes; kernel arguments total at most "
                             "1048576 bytes");
        } else {
            assert_int_equal(st, CGN_ERROR_INVALID_ARGUMENT);
            expect_error_has(": argument 66 has no value (value NULL or size 0)");
        }
        assert_null(g);
        assert_int_equal(cgn_fake_graph_node_count(raw), 1);
        CU_OK(drv()->cuGraphDestroy(raw));
    }
    cgn_fault_install(env->backend->driver(env));
}

int main(void) {
#define T(fn) cmocka_unit_test_setup_teardown(fn, cgn_test_fixture_setup, cgn_test_fixture_teardown)
    const struct CMUnitTest tests[] = {
        T(test_wide_add_passes_every_argument),
        T(test_wide_add_at_the_cap),
        T(test_wide_updates),
        T(test_wide_wrong_arguments_refused),
        T(test_wide_adoption_and_refresh),
        T(test_wide_param_info_failure),
        T(test_wide_param_count_changes),
        T(test_wide_param_count_beyond_cuda),
        T(test_wide_adoption_of_sizes_refused),
    };
#undef T
    return cmocka_run_group_tests(tests, NULL, NULL);
}
