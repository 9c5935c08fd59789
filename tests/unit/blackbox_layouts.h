/* Fake kernels of a black-box test's own argument layouts (test_blackbox5.c, test_blackbox6.c):
 * each launch of one records the grid and the bytes of every argument it was given, so a test can
 * compare what a node really passes with the values it expects. Include after <cmocka.h>,
 * fake_driver.h and runtime.h. */
#ifndef CGN_TESTS_BLACKBOX_LAYOUTS_H
#define CGN_TESTS_BLACKBOX_LAYOUTS_H

#define MAXA 8     /* arguments of the widest layout */
#define ASZ 24     /* bytes of the widest argument */
#define LOG_MAX 16 /* launches recorded between two resets of launch_count */

typedef struct layout {
    char name[24];
    uint32_t n;
    size_t sizes[MAXA];
    cgn_kernel k; /* registered per test (the fake is reset between tests): the CUkernel */
    CUfunction f; /* and its CUfunction in fake context 0 */
} layout;

typedef struct vals {
    unsigned char b[MAXA][ASZ];
} vals;

typedef struct launch_rec {
    const layout *who;
    uint32_t grid_x;
    vals v;
} launch_rec;

static launch_rec launch_log[LOG_MAX];
static size_t launch_count;

static void record(void **args, const CUDA_KERNEL_NODE_PARAMS_v2 *launch, void *user) {
    const layout *l = user;
    size_t at = launch_count++;
    if (at >= LOG_MAX)
        return;
    memset(&launch_log[at], 0, sizeof launch_log[at]);
    launch_log[at].who = l;
    launch_log[at].grid_x = launch->gridDimX;
    for (uint32_t i = 0; i < l->n; i++)
        memcpy(launch_log[at].v.b[i], args[i], l->sizes[i]);
}

static void register_layout(layout *l) {
    CUfunction f = cgn_fake_register_kernel(l->name, l->n, l->sizes, record, l);
    assert_non_null(f);
    l->f = f;
    l->k = CGN_KERNEL(cgn_fake_kernel_of(f));
    assert_non_null(l->k.kernel);
}

/* Argument i of layout l: bytes derived from the seed, the rest of its slot zero. */
static void fill_arg(vals *v, const layout *l, uint32_t i, uint32_t seed) {
    memset(v->b[i], 0, ASZ);
    for (size_t j = 0; j < l->sizes[i]; j++)
        v->b[i][j] = (unsigned char)(seed * 37u + i * 11u + j * 3u + 1u);
}

static void fill_vals(vals *v, const layout *l, uint32_t seed) {
    memset(v, 0, sizeof *v);
    for (uint32_t i = 0; i < l->n; i++)
        fill_arg(v, l, i, seed);
}

#endif /* CGN_TESTS_BLACKBOX_LAYOUTS_H */
