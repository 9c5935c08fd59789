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
    atomic_init(&env->num_calls, 0);
    env->backend = &cgn_test_backend_selected;
    int rc = env->backend->open(env);
    if (rc != 0)
        return rc;
    cgn_test_current_env = env;
    for (int i = 0; i < CGN_TEST_NUM_HOST_BUFS; i++)
        env->host[i] = env->backend->alloc_host(env, CGN_TEST_BUF_SIZE);
    for (int i = 0; i < CGN_TEST_NUM_ARRAYS; i++)
        env->array[i] = env->backend->array_create(env);
    for (int i = 0; i < CGN_TEST_NUM_EVENTS; i++)
        env->event[i] = env->backend->event_create(env);
    for (int i = 0; i < CGN_TEST_NUM_SEMS && env->backend->sem_create; i++)
        env->sem[i] = env->backend->sem_create(env);
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

static cgn_memset_desc cgn_test_graph_fill(cgn_test_env *env, int i) {
    cgn_memset_desc d = CGN_MEMSET_DESC_INIT;
    d.dst = env->buf[i];
    d.dst_owner = env->owner[i];
    d.value = 0x40u + (uint32_t)i;
    d.width = 8;
    return d;
}

cgn_graph *cgn_test_graph(cgn_test_env *env, int i) {
    if (env->graph[i] == NULL) {
        cgn_node *fill;
        cgn_memset_desc d = cgn_test_graph_fill(env, i);
        if (cgn_graph_create(&env->graph[i]) != CGN_OK ||
            cgn_graph_add_memset(env->graph[i], NULL, 0, &d, &fill) != CGN_OK) {
            fprintf(stderr, "test graph %d: %s\n", i, cgn_last_error());
            abort();
        }
        env->graph_id[i] = env->graph[i];
    }
    return env->graph[i];
}

void cgn_test_env_drop_owners(cgn_test_env *env) {
    for (int i = 0; i < CGN_TEST_NUM_BUFS; i++)
        if (env->graph[i] != NULL) {
            cgn_graph_destroy(env->graph[i]);
            env->graph[i] = NULL;
        }
    for (int i = 0; i < CGN_TEST_NUM_BUFS; i++)
        if (env->owner_held[i]) {
            env->owner_held[i] = 0;
            cgn_owner_release(env->owner[i]);
        }
}

static void cgn_test_check(cgn_status st, const char *what) {
    if (st != CGN_OK) {
        fprintf(stderr, "test env: %s: %s (%s)\n", what, cgn_status_name(st), cgn_last_error());
        abort();
    }
}

/* Instantiates g, launches it once (waiting for it) and destroys both. */
static void cgn_test_run_once(cgn_test_env *env, cgn_graph *g, const char *what) {
    cgn_exec *e;
    cgn_test_check(cgn_graph_instantiate(g, &e), what);
    cgn_test_check(env->backend->launch(env, e), what);
    cgn_test_check(cgn_exec_destroy(e), what);
    cgn_test_check(cgn_graph_destroy(g), what);
}

CUdeviceptr cgn_test_graph_alloc(cgn_test_env *env, int i) {
    if (env->galloc[i] == 0) {
        cgn_graph *g;
        cgn_node *n;
        cgn_mem_alloc_desc d = CGN_MEM_ALLOC_DESC_INIT;
        d.bytesize = CGN_TEST_BUF_SIZE;
        cgn_test_check(cgn_graph_create(&g), "graph allocation");
        cgn_test_check(cgn_graph_add_mem_alloc(g, NULL, 0, &d, &n), "graph allocation");
        cgn_test_check(cgn_mem_alloc_node_get(n, &d), "graph allocation");
        cgn_test_run_once(env, g, "graph allocation");
        env->galloc[i] = d.dptr;
        env->galloc_freed[i] = 0;
    }
    return env->galloc[i];
}

void cgn_test_graph_free(cgn_test_env *env, CUdeviceptr dptr) {
    cgn_graph *g;
    cgn_node *n;
    cgn_mem_free_desc d = CGN_MEM_FREE_DESC_INIT;
    d.dptr = dptr;
    cgn_test_check(cgn_graph_create(&g), "graph free");
    cgn_test_check(cgn_graph_add_mem_free(g, NULL, 0, &d, &n), "graph free");
    cgn_test_run_once(env, g, "graph free");
}

void cgn_test_launched(cgn_test_env *env, cgn_node_type type, const void *desc) {
    if (type == CGN_NODE_MEM_ALLOC) {
        cgn_test_graph_free(env, ((const cgn_mem_alloc_desc *)desc)->dptr);
    } else if (type == CGN_NODE_MEM_FREE) {
        for (int i = 0; i < CGN_TEST_NUM_BUFS; i++)
            if (env->galloc[i] == ((const cgn_mem_free_desc *)desc)->dptr)
                env->galloc_freed[i] = 1;
    }
}

static double cgn_test_now(void);

/* Waits (up to the backend's release timeout) until every owner the environment made has been
 * released. Where an executable or graph held the last reference, the real driver runs the
 * user-object destructor after the destroy call returns, and cgn releases at its next call: on
 * the H200 that can be after this test's last call, and a release callback that ran in the next
 * test would count into a freed environment (seen: a heap use-after-free that crashed the
 * driver in cuMemFree). */
static void cgn_test_env_await_releases(cgn_test_env *env) {
    double deadline = cgn_test_now() + env->backend->release_timeout;
    for (;;) {
        cgn_collect();
        int waiting = 0;
        for (int i = 0; i < CGN_TEST_NUM_BUFS; i++)
            waiting += env->released[i] == 0;
        if (waiting == 0 || cgn_test_now() > deadline) {
            env->unreleased_at_close = (size_t)waiting;
            return;
        }
        struct timespec pause = {0, 1000000};
        nanosleep(&pause, NULL);
    }
}

void cgn_test_env_close(cgn_test_env *env) {
    for (int i = 0; i < CGN_TEST_NUM_BUFS; i++)
        if (env->galloc[i] != 0 && !env->galloc_freed[i])
            cgn_test_graph_free(env, env->galloc[i]);
    cgn_test_env_drop_owners(env);
    cgn_test_env_await_releases(env);
    for (int i = 0; i < CGN_TEST_NUM_BUFS; i++)
        env->backend->free(env, env->buf[i]);
    for (int i = 0; i < CGN_TEST_NUM_HOST_BUFS; i++)
        env->backend->free_host(env, env->host[i]);
    for (int i = 0; i < CGN_TEST_NUM_ARRAYS; i++)
        env->backend->array_destroy(env, env->array[i]);
    for (int i = 0; i < CGN_TEST_NUM_EVENTS; i++)
        env->backend->event_destroy(env, env->event[i]);
    for (int i = 0; i < CGN_TEST_NUM_SEMS; i++)
        if (env->sem[i] != NULL)
            env->backend->sem_destroy(env, env->sem[i]);
    while (env->mem_op_blocks != NULL) {
        void *next = *(void **)env->mem_op_blocks;
        free(env->mem_op_blocks);
        env->mem_op_blocks = next;
    }
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
            if (env->owner_held[i] &&
                atomic_load(&env->owner[i]->refs) != 1 + (env->graph[i] != NULL))
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

CUdeviceptr cgn_test_host(cgn_test_env *env, int i) {
    return (CUdeviceptr)(uintptr_t)cgn_test_host_ptr(env, i);
}

void *cgn_test_host_ptr(cgn_test_env *env, int i) {
    if (i < 0 || i >= CGN_TEST_NUM_HOST_BUFS)
        abort();
    return env->host[i];
}

CUarray cgn_test_array(cgn_test_env *env, int i) {
    if (i < 0 || i >= CGN_TEST_NUM_ARRAYS)
        abort();
    return env->array[i];
}

CUevent cgn_test_event(cgn_test_env *env, int i) {
    if (i < 0 || i >= CGN_TEST_NUM_EVENTS)
        abort();
    return env->event[i];
}

/* ---- test host callbacks: each logs which one ran and the first byte of its argument ------ */

/* Runs on a CUDA thread on a GPU: it makes no CUDA call and publishes its entry before the
 * count (the launch's stream synchronisation orders it before the test reads the log). */
static void cgn_test_log_call(int callback, void *argument) {
    cgn_test_env *env = cgn_test_current_env;
    if (env == NULL)
        abort();
    int n = atomic_load_explicit(&env->num_calls, memory_order_relaxed);
    if (n < CGN_TEST_MAX_CALLS) {
        env->calls[n].callback = callback;
        env->calls[n].has_argument = argument != NULL;
        env->calls[n].first = argument != NULL ? *(const unsigned char *)argument : 0;
    }
    atomic_store_explicit(&env->num_calls, n + 1, memory_order_release);
}

static void CUDA_CB cgn_test_record_a(void *argument) { cgn_test_log_call(0, argument); }
static void CUDA_CB cgn_test_record_b(void *argument) { cgn_test_log_call(1, argument); }

static const struct {
    const char *name;
    CUhostFn fn;
} cgn_test_callbacks[] = {{"record_a", cgn_test_record_a}, {"record_b", cgn_test_record_b}};
#define CGN_TEST_NUM_CALLBACKS (sizeof cgn_test_callbacks / sizeof cgn_test_callbacks[0])

CUhostFn cgn_test_callback(cgn_test_env *env, const char *name) {
    (void)env;
    for (size_t i = 0; i < CGN_TEST_NUM_CALLBACKS; i++)
        if (strcmp(cgn_test_callbacks[i].name, name) == 0)
            return cgn_test_callbacks[i].fn;
    fprintf(stderr, "no test callback named %s\n", name);
    abort();
}

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

const void *cgn_test_bytes(cgn_test_env *env, const void *bytes, size_t size) {
    static const unsigned char none = 0;
    return cgn_test_arena(env, size ? bytes : &none, size ? size : 1);
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

/* Each block: the list link, then the operations (aligned as malloc aligns). */
typedef struct cgn_test_mem_op_block {
    void *next;
    CUstreamBatchMemOpParams ops[];
} cgn_test_mem_op_block;

CUstreamBatchMemOpParams *cgn_test_mem_ops(cgn_test_env *env, size_t n) {
    cgn_test_mem_op_block *b = malloc(sizeof *b + (n ? n : 1) * sizeof b->ops[0]);
    if (b == NULL)
        abort();
    b->next = env->mem_op_blocks;
    env->mem_op_blocks = b;
    for (size_t i = 0; i < n; i++)
        b->ops[i] = cgn_test_mem_op(env, CU_STREAM_MEM_OP_WRITE_VALUE_32, 0, 0, 0, 0);
    return b->ops;
}

typedef struct cgn_test_zeroed_block {
    void *next;
    max_align_t bytes[];
} cgn_test_zeroed_block;

void *cgn_test_zeroed(cgn_test_env *env, size_t size) {
    cgn_test_zeroed_block *b = calloc(1, sizeof *b + (size ? size : 1));
    if (b == NULL)
        abort();
    b->next = env->mem_op_blocks; /* the same list: every block starts with its link */
    env->mem_op_blocks = b;
    return b->bytes;
}

CUexternalSemaphore cgn_test_sem(cgn_test_env *env, int i) {
    if (env->sem[i] == NULL)
        env->unsupported = "no external semaphores on this backend (the test machine has no "
                           "Vulkan, D3D12 or NvSciSync to import one from)";
    return env->sem[i];
}

/* As cgn keeps them: every byte the type does not use zero. */
CUstreamBatchMemOpParams cgn_test_mem_op(cgn_test_env *env, CUstreamBatchMemOpType type, int buf,
                                         size_t offset, uint64_t value, unsigned flags) {
    CUstreamBatchMemOpParams op;
    memset(&op, 0, sizeof op);
    op.operation = type;
    if (type == CU_STREAM_MEM_OP_BARRIER) {
        op.memoryBarrier.flags = flags;
    } else if (type == CU_STREAM_MEM_OP_FLUSH_REMOTE_WRITES) {
        op.flushRemoteWrites.flags = flags;
    } else { /* writeValue and waitValue share the layout */
        op.writeValue.address = cgn_test_buf(env, buf) + offset;
        if (type == CU_STREAM_MEM_OP_WRITE_VALUE_64 || type == CU_STREAM_MEM_OP_WAIT_VALUE_64)
            op.writeValue.value64 = value;
        else
            op.writeValue.value = (cuuint32_t)value;
        op.writeValue.flags = flags;
    }
    return op;
}

/* ---- the model: what each node type does ------------------------------------------------- */

typedef unsigned char cgn_test_regions[CGN_TEST_NUM_REGIONS][CGN_TEST_BUF_SIZE];

/* The region (device buffers first, then host buffers) holding p, and p's offset in it. */
static int cgn_test_region_of(cgn_test_env *env, uintptr_t p, size_t *offset) {
    for (int i = 0; i < CGN_TEST_NUM_BUFS + CGN_TEST_NUM_HOST_BUFS; i++) {
        uintptr_t base = i < CGN_TEST_NUM_BUFS ? (uintptr_t)env->buf[i]
                                               : (uintptr_t)env->host[i - CGN_TEST_NUM_BUFS];
        if (p >= base && p < base + CGN_TEST_BUF_SIZE) {
            *offset = (size_t)(p - base);
            return i;
        }
    }
    fprintf(stderr, "test model: address 0x%llx is not in a test buffer\n",
            (unsigned long long)p);
    abort();
}

static int cgn_test_buffer_of(cgn_test_env *env, CUdeviceptr p, size_t *offset) {
    return cgn_test_region_of(env, (uintptr_t)p, offset);
}

static void cgn_test_put(cgn_test_regions expected, int b, size_t at, const void *bytes,
                         size_t n) {
    if (b < 0 || b >= CGN_TEST_NUM_REGIONS || at + n > CGN_TEST_BUF_SIZE) {
        fprintf(stderr, "test model: write outside the test buffers\n");
        abort();
    }
    memcpy(&expected[b][at], bytes, n);
}

static void cgn_test_predict_memset(cgn_test_env *env, const cgn_memset_desc *d,
                                    cgn_test_regions expected) {
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

static void cgn_test_predict_memcpy(cgn_test_env *env, const cgn_memcpy_desc *d,
                                    cgn_test_regions expected) {
    size_t src_at = 0, dst_at = 0;
    int src = cgn_test_buffer_of(env, d->src, &src_at);
    int dst = cgn_test_buffer_of(env, d->dst, &dst_at);
    if (src_at + d->size > CGN_TEST_BUF_SIZE) {
        fprintf(stderr, "test model: copy reads outside the test buffers\n");
        abort();
    }
    unsigned char bytes[CGN_TEST_BUF_SIZE];
    memcpy(bytes, &expected[src][src_at], d->size);
    cgn_test_put(expected, dst, dst_at, bytes, d->size);
}

/* One operand of a 2-D/3-D copy: its region, and where its first row and slice start. */
typedef struct cgn_test_operand {
    int region;
    size_t at, pitch, height;
} cgn_test_operand;

static cgn_test_operand cgn_test_copy_operand(cgn_test_env *env, CUdeviceptr address,
                                              CUarray array, size_t x, size_t y, size_t z,
                                              size_t pitch, size_t height,
                                              const cgn_memcpy_3d_desc *d) {
    cgn_test_operand o = {0, 0, pitch, height};
    if (array != NULL) {
        int i = 0;
        while (i < CGN_TEST_NUM_ARRAYS && env->array[i] != array)
            i++;
        if (i == CGN_TEST_NUM_ARRAYS || x + d->width_in_bytes > CGN_TEST_ARRAY_WIDTH ||
            y + d->height > CGN_TEST_ARRAY_HEIGHT || z + d->depth > CGN_TEST_ARRAY_DEPTH) {
            fprintf(stderr, "test model: not a test array, or a copy outside it\n");
            abort();
        }
        o.region = CGN_TEST_NUM_BUFS + CGN_TEST_NUM_HOST_BUFS + i;
        o.pitch = CGN_TEST_ARRAY_WIDTH;
        o.height = CGN_TEST_ARRAY_HEIGHT;
    } else {
        o.region = cgn_test_buffer_of(env, address, &o.at);
    }
    o.at += x + (z * o.height + y) * o.pitch;
    return o;
}

/* Row by row, slice by slice, as cuMemcpy3D addresses them. */
static void cgn_test_predict_memcpy_3d(cgn_test_env *env, const cgn_memcpy_3d_desc *d,
                                       cgn_test_regions expected) {
    cgn_test_operand s = cgn_test_copy_operand(env, d->src, d->src_array, d->src_x_in_bytes,
                                               d->src_y, d->src_z, d->src_pitch,
                                               d->src_height, d);
    cgn_test_operand t = cgn_test_copy_operand(env, d->dst, d->dst_array, d->dst_x_in_bytes,
                                               d->dst_y, d->dst_z, d->dst_pitch,
                                               d->dst_height, d);
    cgn_test_regions before;
    memcpy(before, expected, sizeof before); /* the copy reads what the launch started with */
    for (size_t z = 0; z < d->depth; z++)
        for (size_t y = 0; y < d->height; y++) {
            size_t from = s.at + (z * s.height + y) * s.pitch;
            size_t to = t.at + (z * t.height + y) * t.pitch;
            if (from + d->width_in_bytes > CGN_TEST_BUF_SIZE) {
                fprintf(stderr, "test model: copy reads outside the test buffers\n");
                abort();
            }
            cgn_test_put(expected, t.region, to, &before[s.region][from], d->width_in_bytes);
        }
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
                                    cgn_test_regions expected) {
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

static int cgn_test_event_index(cgn_test_env *env, CUevent e) {
    for (int i = 0; i < CGN_TEST_NUM_EVENTS; i++)
        if (env->event[i] == e)
            return i;
    fprintf(stderr, "test model: event %p is not a test event\n", (void *)e);
    abort();
}

/* One run of the callback, with the first byte of the payload or of what user_data points at
 * (a host test buffer, holding its initial contents while the launch runs). */
static void cgn_test_predict_host(cgn_test_env *env, const cgn_host_callback_desc *d,
                                  cgn_test_observation *expected) {
    cgn_test_call call = {-1, 0, 0};
    for (size_t i = 0; i < CGN_TEST_NUM_CALLBACKS; i++)
        if (cgn_test_callbacks[i].fn == d->fn)
            call.callback = (int)i;
    if (call.callback < 0) {
        fprintf(stderr, "test model: unknown host callback\n");
        abort();
    }
    if (d->payload != NULL && d->payload_size > 0) {
        call.has_argument = 1;
        call.first = *(const unsigned char *)d->payload;
    } else if (d->user_data != NULL) {
        size_t at = 0;
        int b = cgn_test_region_of(env, (uintptr_t)d->user_data, &at);
        call.has_argument = 1;
        call.first = expected->mem[b][at];
    }
    expected->calls[expected->num_calls++] = call;
}

/* ---- the models, one per node type of spec/ (named in generated/tests/cgn_cases_all.c) ---- */

void cgn_test_model_memset(cgn_test_env *env, const void *desc, cgn_test_observation *expected) {
    cgn_test_predict_memset(env, desc, expected->mem);
}

void cgn_test_model_kernel(cgn_test_env *env, const void *desc, cgn_test_observation *expected) {
    cgn_test_predict_kernel(env, desc, expected->mem);
}

void cgn_test_model_memcpy(cgn_test_env *env, const void *desc, cgn_test_observation *expected) {
    cgn_test_predict_memcpy(env, desc, expected->mem);
}

void cgn_test_model_memcpy_3d(cgn_test_env *env, const void *desc,
                              cgn_test_observation *expected) {
    cgn_test_predict_memcpy_3d(env, desc, expected->mem);
}

void cgn_test_model_host_callback(cgn_test_env *env, const void *desc,
                                  cgn_test_observation *expected) {
    cgn_test_predict_host(env, desc, expected);
}

void cgn_test_model_event_record(cgn_test_env *env, const void *desc,
                                 cgn_test_observation *expected) {
    expected->recorded[cgn_test_event_index(env, ((const cgn_event_record_desc *)desc)->event)] =
        1;
}

void cgn_test_model_event_wait(cgn_test_env *env, const void *desc,
                               cgn_test_observation *expected) {
    expected->waited[cgn_test_event_index(env, ((const cgn_event_wait_desc *)desc)->event)] = 1;
}

/* Writes store their values in order (little-endian, as on the host); waits, flushes and
 * barriers change no buffer (the cases make every wait hold). */
void cgn_test_model_batch_mem_op(cgn_test_env *env, const void *desc,
                                 cgn_test_observation *expected) {
    const cgn_batch_mem_op_desc *d = desc;
    for (uint32_t i = 0; i < d->num_ops; i++) {
        const CUstreamBatchMemOpParams *op = &d->ops[i];
        size_t at = 0;
        if (op->operation == CU_STREAM_MEM_OP_WRITE_VALUE_32) {
            int b = cgn_test_buffer_of(env, op->writeValue.address, &at);
            cgn_test_put(expected->mem, b, at, &op->writeValue.value, 4);
        } else if (op->operation == CU_STREAM_MEM_OP_WRITE_VALUE_64) {
            int b = cgn_test_buffer_of(env, op->writeValue.address, &at);
            cgn_test_put(expected->mem, b, at, &op->writeValue.value64, 8);
        }
    }
}

static int cgn_test_sem_index(cgn_test_env *env, CUexternalSemaphore sem) {
    for (int i = 0; i < CGN_TEST_NUM_SEMS; i++)
        if (env->sem[i] == sem)
            return i;
    fprintf(stderr, "test model: not a test semaphore\n");
    abort();
}

/* Each semaphore is signalled once, to its fence value. */
void cgn_test_model_ext_sem_signal(cgn_test_env *env, const void *desc,
                                   cgn_test_observation *expected) {
    const cgn_ext_sem_signal_desc *d = desc;
    for (uint32_t i = 0; i < d->num_sems; i++) {
        int k = cgn_test_sem_index(env, d->sems[i]);
        expected->sem_signals[k]++;
        expected->sem_value[k] = d->sems_params[i].params.fence.value;
    }
}

/* Each semaphore is waited for once (the fake's waits never block). */
void cgn_test_model_ext_sem_wait(cgn_test_env *env, const void *desc,
                                 cgn_test_observation *expected) {
    const cgn_ext_sem_wait_desc *d = desc;
    for (uint32_t i = 0; i < d->num_sems; i++)
        expected->sem_waits[cgn_test_sem_index(env, d->sems[i])]++;
}

/* A test child graph fills its buffer (cgn_test_graph_fill). */
void cgn_test_model_child_graph(cgn_test_env *env, const void *desc,
                                cgn_test_observation *expected) {
    const cgn_child_graph_desc *d = desc;
    int i = 0;
    while (i < CGN_TEST_NUM_BUFS && env->graph_id[i] != d->graph)
        i++;
    if (i == CGN_TEST_NUM_BUFS) {
        fprintf(stderr, "test model: not a test graph\n");
        abort();
    }
    cgn_memset_desc fill = cgn_test_graph_fill(env, i);
    cgn_test_predict_memset(env, &fill, expected->mem);
}

void cgn_test_predict(cgn_test_env *env, cgn_node_type type, const void *desc,
                      cgn_test_observation *expected) {
    /* Empty and CUDA-only nodes have no cases, so no model. */
    if ((unsigned)type >= CGN_NODE_TYPE_COUNT_ || cgn_test_models[type] == NULL) {
        fprintf(stderr, "test model: no model for node type %d\n", (int)type);
        abort();
    }
    cgn_test_models[type](env, desc, expected);
}

void cgn_test_initial_contents(unsigned char contents[CGN_TEST_NUM_REGIONS][CGN_TEST_BUF_SIZE]) {
    /* Region bases 0x80, 0xc0, 0x00, 0x40 (device), 0xa0, 0xe0 (host), 0x20, 0x60 (arrays):
     * distinct mod 256, so at every offset every region holds a different byte. */
    for (int i = 0; i < CGN_TEST_NUM_REGIONS; i++)
        for (int k = 0; k < CGN_TEST_BUF_SIZE; k++)
            contents[i][k] = (unsigned char)(0x80 + i * CGN_TEST_BUF_SIZE + k +
                                             (i >= CGN_TEST_NUM_BUFS ? 0x20 : 0));
}

static void cgn_test_fill_regions(cgn_test_env *env, cgn_test_regions contents) {
    for (int i = 0; i < CGN_TEST_NUM_BUFS; i++)
        env->backend->write(env, env->buf[i], contents[i], CGN_TEST_BUF_SIZE);
    for (int i = 0; i < CGN_TEST_NUM_HOST_BUFS; i++)
        memcpy(env->host[i], contents[CGN_TEST_NUM_BUFS + i], CGN_TEST_BUF_SIZE);
    for (int i = 0; i < CGN_TEST_NUM_ARRAYS; i++)
        env->backend->array_write(env, env->array[i],
                                  contents[CGN_TEST_NUM_BUFS + CGN_TEST_NUM_HOST_BUFS + i]);
}

static void cgn_test_read_regions(cgn_test_env *env, cgn_test_regions out) {
    for (int i = 0; i < CGN_TEST_NUM_BUFS; i++)
        env->backend->read(env, env->buf[i], out[i], CGN_TEST_BUF_SIZE);
    for (int i = 0; i < CGN_TEST_NUM_HOST_BUFS; i++)
        memcpy(out[CGN_TEST_NUM_BUFS + i], env->host[i], CGN_TEST_BUF_SIZE);
    for (int i = 0; i < CGN_TEST_NUM_ARRAYS; i++)
        env->backend->array_read(env, env->array[i],
                                 out[CGN_TEST_NUM_BUFS + CGN_TEST_NUM_HOST_BUFS + i]);
}

/* Prints the first difference; 1 when none. */
static int cgn_test_compare(const cgn_test_observation *got, const cgn_test_observation *want,
                            const char *label) {
    for (int i = 0; i < CGN_TEST_NUM_REGIONS; i++)
        for (int k = 0; k < CGN_TEST_BUF_SIZE; k++)
            if (got->mem[i][k] != want->mem[i][k]) {
                int host = i - CGN_TEST_NUM_BUFS, array = host - CGN_TEST_NUM_HOST_BUFS;
                fprintf(stderr, "%s: %s %d byte %d is 0x%02x, expected 0x%02x\n", label,
                        host < 0 ? "device buffer" : array < 0 ? "host buffer" : "array",
                        host < 0 ? i : array < 0 ? host : array, k, got->mem[i][k],
                        want->mem[i][k]);
                return 0;
            }
    for (int i = 0; i < CGN_TEST_NUM_EVENTS; i++) {
        if (got->recorded[i] != want->recorded[i]) {
            fprintf(stderr, "%s: event %d was %srecorded\n", label, i,
                    got->recorded[i] ? "" : "not ");
            return 0;
        }
        if (got->waited[i] != want->waited[i]) {
            fprintf(stderr, "%s: the launch %s for event %d\n", label,
                    got->waited[i] ? "waited" : "did not wait", i);
            return 0;
        }
    }
    for (int i = 0; i < CGN_TEST_NUM_SEMS; i++)
        if (got->sem_signals[i] != want->sem_signals[i] ||
            got->sem_waits[i] != want->sem_waits[i] || got->sem_value[i] != want->sem_value[i]) {
            fprintf(stderr,
                    "%s: semaphore %d: %zu signal(s), %zu wait(s), value %llu; expected "
                    "%zu, %zu, %llu\n",
                    label, i, got->sem_signals[i], got->sem_waits[i],
                    (unsigned long long)got->sem_value[i], want->sem_signals[i], want->sem_waits[i],
                    (unsigned long long)want->sem_value[i]);
            return 0;
        }
    if (got->num_calls != want->num_calls) {
        fprintf(stderr, "%s: %d host callback run(s), expected %d\n", label, got->num_calls,
                want->num_calls);
        return 0;
    }
    for (int i = 0; i < want->num_calls && i < CGN_TEST_MAX_CALLS; i++) {
        const cgn_test_call *g = &got->calls[i], *w = &want->calls[i];
        if (g->callback != w->callback || g->has_argument != w->has_argument ||
            g->first != w->first) {
            fprintf(stderr,
                    "%s: host callback run %d: %s with %s 0x%02x, expected %s with %s 0x%02x\n",
                    label, i, cgn_test_callbacks[g->callback].name,
                    g->has_argument ? "first byte" : "no argument", g->first,
                    cgn_test_callbacks[w->callback].name,
                    w->has_argument ? "first byte" : "no argument", w->first);
            return 0;
        }
    }
    return 1;
}

int cgn_test_exec_matches(cgn_test_env *env, cgn_node_type type, cgn_exec *exec, const void *desc,
                          const char *label) {
    cgn_test_observation want, got;
    memset(&want, 0, sizeof want);
    memset(&got, 0, sizeof got);
    cgn_test_initial_contents(want.mem);
    cgn_test_fill_regions(env, want.mem);
    size_t signals[CGN_TEST_NUM_SEMS] = {0}, waits[CGN_TEST_NUM_SEMS] = {0};
    for (int i = 0; i < CGN_TEST_NUM_SEMS && env->sem[i]; i++) /* counts before the launch */
        env->backend->sem_state(env, env->sem[i], &signals[i], &waits[i], &want.sem_value[i]);
    if (desc != NULL) /* NULL: the node must do nothing (disabled) */
        cgn_test_predict(env, type, desc, &want);
    atomic_store(&env->num_calls, 0);
    cgn_status st;
    if (type == CGN_NODE_EVENT_RECORD)
        st = env->backend->launch_observe_records(env, exec, got.recorded);
    else if (type == CGN_NODE_EVENT_WAIT)
        st = env->backend->launch_observe_waits(env, exec, got.waited);
    else
        st = env->backend->launch(env, exec);
    if (st != CGN_OK) {
        fprintf(stderr, "%s: launch failed: %s\n", label, cgn_last_error());
        return 0;
    }
    cgn_test_read_regions(env, got.mem);
    for (int i = 0; i < CGN_TEST_NUM_SEMS && env->sem[i]; i++) {
        env->backend->sem_state(env, env->sem[i], &got.sem_signals[i], &got.sem_waits[i],
                                &got.sem_value[i]);
        got.sem_signals[i] -= signals[i];
        got.sem_waits[i] -= waits[i];
    }
    got.num_calls = atomic_load(&env->num_calls);
    memcpy(got.calls, env->calls, sizeof got.calls);
    return cgn_test_compare(&got, &want, label);
}
