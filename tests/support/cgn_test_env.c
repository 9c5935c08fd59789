/* The parts of the test environment that do not depend on the backend. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "cgn_test_env.h"
#include "runtime.h"

static void cgn_test_count_release(void *resource) {
    int *counter = resource;
    (*counter)++;
}

/* Release callbacks must run on a user thread, never inside a driver callback; the fake
 * driver can tell. */
int (*cgn_test_in_driver_callback)(void) = NULL;

static cgn_test_env *cgn_test_current_env;

static void cgn_test_owner_released(void *resource) {
    if (cgn_test_in_driver_callback && cgn_test_in_driver_callback() && cgn_test_current_env)
        cgn_test_current_env->released_in_driver++;
    cgn_test_count_release(resource);
}

int cgn_test_env_open(cgn_test_env *env) {
    memset(env, 0, sizeof *env);
    env->backend = &cgn_test_backend_selected;
    int rc = env->backend->open(env);
    if (rc != 0)
        return rc;
    cgn_test_current_env = env;
    for (int i = 0; i < CGN_TEST_NUM_BUFS; i++) {
        env->buf[i] = env->backend->alloc(env, CGN_TEST_BUF_SIZE);
        if (cgn_owner_create(&env->released[i], cgn_test_owner_released, &env->owner[i]) !=
            CGN_OK) {
            fprintf(stderr, "cgn_owner_create failed: %s\n", cgn_last_error());
            abort();
        }
        env->owner_held[i] = 1;
    }
    return 0;
}

void cgn_test_env_drop_owners(cgn_test_env *env) {
    for (int i = 0; i < CGN_TEST_NUM_BUFS; i++)
        if (env->owner_held[i]) {
            env->owner_held[i] = 0;
            cgn_owner_release(env->owner[i]);
        }
}

void cgn_test_env_close(cgn_test_env *env) {
    cgn_test_env_drop_owners(env);
    cgn_collect();
    for (int i = 0; i < CGN_TEST_NUM_BUFS; i++)
        env->backend->free(env, env->buf[i]);
    env->backend->close(env);
    cgn_test_current_env = NULL;
}

static double cgn_test_now(void) {
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + (double)ts.tv_nsec * 1e-9;
}

int cgn_test_settle(cgn_test_env *env) {
    double deadline = cgn_test_now() + env->backend->release_timeout;
    for (;;) {
        cgn_collect();
        int settled = 1;
        for (int i = 0; i < CGN_TEST_NUM_BUFS; i++)
            if (env->owner_held[i] && atomic_load(&env->owner[i]->refs) != 1)
                settled = 0;
        if (settled)
            return 1;
        if (cgn_test_now() > deadline)
            return 0;
        struct timespec pause = {0, 1000000};
        nanosleep(&pause, NULL);
    }
}

int cgn_test_wait_released(cgn_test_env *env, int i, int count) {
    double deadline = cgn_test_now() + env->backend->release_timeout;
    for (;;) {
        cgn_collect();
        if (env->released[i] >= count)
            return env->released[i] == count;
        if (cgn_test_now() > deadline)
            return 0;
        struct timespec pause = {0, 1000000};
        nanosleep(&pause, NULL);
    }
}

CUdeviceptr cgn_test_buf(cgn_test_env *env, int i) { return env->buf[i]; }

cgn_owner *cgn_test_owner(cgn_test_env *env, int i) { return env->owner[i]; }

cgn_kernel cgn_test_kernel(cgn_test_env *env, const char *name) {
    return env->backend->kernel(env, name);
}

static void *cgn_test_arena(cgn_test_env *env, const void *value, size_t size) {
    if (env->arena_used + size > CGN_TEST_ARENA)
        abort();
    void *p = env->arena + env->arena_used;
    memcpy(p, value, size);
    env->arena_used += (size + 15) / 16 * 16;
    return p;
}

cgn_arg cgn_test_arg_buf(cgn_test_env *env, int i, int owned) {
    return (cgn_arg){cgn_test_arena(env, &env->buf[i], sizeof env->buf[i]), sizeof env->buf[i],
                     owned ? env->owner[i] : NULL};
}

cgn_arg cgn_test_arg_u32(cgn_test_env *env, uint32_t value) {
    return (cgn_arg){cgn_test_arena(env, &value, sizeof value), sizeof value, NULL};
}

cgn_arg *cgn_test_args(cgn_test_env *env, size_t n) {
    if (env->args_used + n > CGN_TEST_MAX_ARGS)
        abort();
    cgn_arg *a = env->args + env->args_used;
    env->args_used += n;
    return a;
}

/* ---- the model: what each node type writes ------------------------------------------------ */

static int cgn_test_buffer_of(cgn_test_env *env, CUdeviceptr p, size_t *offset) {
    for (int i = 0; i < CGN_TEST_NUM_BUFS; i++)
        if (p >= env->buf[i] && p < env->buf[i] + CGN_TEST_BUF_SIZE) {
            *offset = (size_t)(p - env->buf[i]);
            return i;
        }
    fprintf(stderr, "test model: pointer 0x%llx is not in a test buffer\n",
            (unsigned long long)p);
    abort();
}

static void cgn_test_put(unsigned char expected[CGN_TEST_NUM_BUFS][CGN_TEST_BUF_SIZE], int b,
                         size_t at, const void *bytes, size_t n) {
    if (b < 0 || b >= CGN_TEST_NUM_BUFS || at + n > CGN_TEST_BUF_SIZE) {
        fprintf(stderr, "test model: write outside the test buffers\n");
        abort();
    }
    memcpy(&expected[b][at], bytes, n);
}

static void cgn_test_predict_memset(cgn_test_env *env, const cgn_memset_desc *d,
                                    unsigned char expected[CGN_TEST_NUM_BUFS][CGN_TEST_BUF_SIZE]) {
    size_t base = 0;
    int b = cgn_test_buffer_of(env, d->dst, &base);
    unsigned char elem[4];
    for (uint32_t k = 0; k < d->element_size; k++)
        elem[k] = (unsigned char)(d->value >> (8 * k)); /* little-endian, as on the GPU */
    for (size_t r = 0; r < d->height; r++)
        for (size_t e = 0; e < d->width; e++)
            cgn_test_put(expected, b, base + r * d->pitch + e * d->element_size, elem,
                         d->element_size);
}

static int cgn_test_is_kernel(cgn_test_env *env, cgn_kernel k, const char *name) {
    cgn_kernel t = cgn_test_kernel(env, name);
    return t.function == k.function && t.kernel == k.kernel;
}

static int cgn_test_arg_buffer(cgn_test_env *env, const cgn_kernel_desc *d, uint32_t i,
                               size_t *offset) {
    CUdeviceptr p;
    if (i >= d->num_args || d->args[i].size != sizeof p) {
        fprintf(stderr, "test model: argument %u is not a buffer pointer\n", i);
        abort();
    }
    memcpy(&p, d->args[i].value, sizeof p);
    return cgn_test_buffer_of(env, p, offset);
}

static void cgn_test_predict_kernel(cgn_test_env *env, const cgn_kernel_desc *d,
                                    unsigned char expected[CGN_TEST_NUM_BUFS][CGN_TEST_BUF_SIZE]) {
    size_t at = 0;
    if (cgn_test_is_kernel(env, d->kernel, "add_one")) {
        int b = cgn_test_arg_buffer(env, d, 0, &at);
        int32_t v;
        memcpy(&v, &expected[b][at], sizeof v);
        v += 1;
        cgn_test_put(expected, b, at, &v, sizeof v);
    } else if (cgn_test_is_kernel(env, d->kernel, "write_config")) {
        int b = cgn_test_arg_buffer(env, d, 0, &at);
        uint32_t cfg[7] = {d->grid.x,  d->grid.y,  d->grid.z,          d->block.x,
                           d->block.y, d->block.z, d->shared_mem_bytes};
        cgn_test_put(expected, b, at, cfg, sizeof cfg);
    } else if (cgn_test_is_kernel(env, d->kernel, "fill_u32")) {
        int b = cgn_test_arg_buffer(env, d, 0, &at);
        uint32_t v;
        memcpy(&v, d->args[1].value, sizeof v);
        cgn_test_put(expected, b, at, &v, sizeof v);
    } else if (!cgn_test_is_kernel(env, d->kernel, "empty")) {
        fprintf(stderr, "test model: unknown kernel\n");
        abort();
    }
}

void cgn_test_predict(cgn_test_env *env, cgn_node_type type, const void *desc,
                      unsigned char expected[CGN_TEST_NUM_BUFS][CGN_TEST_BUF_SIZE]) {
    switch (type) {
    case CGN_NODE_MEMSET:
        cgn_test_predict_memset(env, desc, expected);
        break;
    case CGN_NODE_KERNEL:
        cgn_test_predict_kernel(env, desc, expected);
        break;
    default:
        fprintf(stderr, "test model: no model for node type %d\n", (int)type);
        abort();
    }
}

void cgn_test_initial_contents(unsigned char contents[CGN_TEST_NUM_BUFS][CGN_TEST_BUF_SIZE]) {
    for (int i = 0; i < CGN_TEST_NUM_BUFS; i++)
        for (int k = 0; k < CGN_TEST_BUF_SIZE; k++)
            contents[i][k] = (unsigned char)(0x80 + i * CGN_TEST_BUF_SIZE + k);
}

int cgn_test_exec_matches(cgn_test_env *env, cgn_node_type type, cgn_exec *exec, const void *desc,
                          const char *label) {
    unsigned char initial[CGN_TEST_NUM_BUFS][CGN_TEST_BUF_SIZE];
    unsigned char expected[CGN_TEST_NUM_BUFS][CGN_TEST_BUF_SIZE];
    cgn_test_initial_contents(initial);
    memcpy(expected, initial, sizeof expected);
    cgn_test_predict(env, type, desc, expected);
    for (int i = 0; i < CGN_TEST_NUM_BUFS; i++)
        env->backend->write(env, env->buf[i], initial[i], CGN_TEST_BUF_SIZE);
    cgn_status st = env->backend->launch(env, exec);
    if (st != CGN_OK) {
        fprintf(stderr, "%s: launch failed: %s\n", label, cgn_last_error());
        return 0;
    }
    for (int i = 0; i < CGN_TEST_NUM_BUFS; i++) {
        unsigned char got[CGN_TEST_BUF_SIZE];
        env->backend->read(env, env->buf[i], got, sizeof got);
        for (int k = 0; k < CGN_TEST_BUF_SIZE; k++)
            if (got[k] != expected[i][k]) {
                fprintf(stderr, "%s: buffer %d byte %d is 0x%02x, expected 0x%02x\n", label, i, k,
                        got[k], expected[i][k]);
                return 0;
            }
    }
    return 1;
}
