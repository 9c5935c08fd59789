/* Behaviour of the memcpy, host callback and event node types beyond the generated matrices, on
 * the fake driver: memory-type detection, the memcpy form check, payload copies and their
 * lifetime, exclusive and zero-length arguments, and the driver calls each path makes. */
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

static CUdeviceptr addr(const void *p) {
    return (CUdeviceptr)(uintptr_t)p;
}

static cgn_memcpy_desc copy_desc(CUdeviceptr dst, CUdeviceptr src, size_t size) {
    cgn_memcpy_desc d = CGN_MEMCPY_DESC_INIT;
    d.dst = dst;
    d.src = src;
    d.size = size;
    return d;
}

static CUDA_MEMCPY3D node_copy_params(cgn_node *n) {
    CUgraphNode raw;
    OK(cgn_node_raw(n, &raw));
    CUgraphNodeParams p;
    assert_int_equal(cgn_fake_node_params(raw, &p), 1);
    assert_int_equal(p.type, CU_GRAPH_NODE_TYPE_MEMCPY);
    return p.memcpy.copyParams;
}

/* ---- memcpy: memory types ---------------------------------------------------------------------
 */

/* Device and managed memory are copied as device memory, pinned host memory and memory the driver
 * does not know (pageable: CUDA_ERROR_INVALID_VALUE) as host memory; members set by cgn given on
 * input are ignored. */
static void test_memcpy_detects_memory_types(void **state) {
    cgn_test_env *env = *state;
    static unsigned char pinned[16], managed[16];
    unsigned char *pageable = env->host[0]; /* plain malloc on the fake */
    cgn_fake_mark_memory(pinned, sizeof pinned, CU_MEMORYTYPE_HOST);
    cgn_fake_mark_memory(managed, sizeof managed, CU_MEMORYTYPE_UNIFIED);
    cgn_graph *g;
    cgn_node *n;
    OK(cgn_graph_create(&g));
    cgn_memcpy_desc d = copy_desc(env->buf[1], addr(pageable), 8);
    d.dst_memory_type = CU_MEMORYTYPE_ARRAY; /* set by cgn, ignored on input */
    d.src_memory_type = CU_MEMORYTYPE_DEVICE;
    OK(cgn_graph_add_memcpy(g, NULL, 0, &d, &n));
    CUDA_MEMCPY3D c = node_copy_params(n);
    assert_int_equal(c.dstMemoryType, CU_MEMORYTYPE_DEVICE);
    assert_int_equal(c.dstDevice, env->buf[1]);
    assert_int_equal(c.srcMemoryType, CU_MEMORYTYPE_HOST);
    assert_ptr_equal(c.srcHost, pageable);
    assert_int_equal(c.srcDevice, 0);
    assert_int_equal(c.WidthInBytes, 8);
    assert_int_equal(c.Height, 1);
    assert_int_equal(c.Depth, 1);
    cgn_memcpy_desc got;
    OK(cgn_memcpy_node_get(n, &got));
    assert_int_equal(got.dst_memory_type, CU_MEMORYTYPE_DEVICE);
    assert_int_equal(got.src_memory_type, CU_MEMORYTYPE_HOST);

    cgn_memcpy_update u = CGN_MEMCPY_UPDATE_INIT;
    cgn_memcpy_update_set_src(&u, addr(managed), NULL);
    cgn_memcpy_update_set_dst(&u, addr(pinned), NULL);
    OK(cgn_memcpy_node_update(n, &u));
    c = node_copy_params(n);
    assert_int_equal(c.srcMemoryType, CU_MEMORYTYPE_DEVICE); /* managed: device memory */
    assert_int_equal(c.srcDevice, addr(managed));
    assert_null(c.srcHost);
    assert_int_equal(c.dstMemoryType, CU_MEMORYTYPE_HOST);
    assert_ptr_equal(c.dstHost, pinned);
    assert_int_equal(c.dstDevice, 0);
    OK(cgn_memcpy_node_get(n, &got));
    assert_int_equal(got.src_memory_type, CU_MEMORYTYPE_DEVICE);
    assert_int_equal(got.dst_memory_type, CU_MEMORYTYPE_HOST);
    OK(cgn_graph_destroy(g));
}

/* The memory type is asked once, when the operand is set: an update of size alone makes no
 * query (only the form check's read-back and the update itself). */
static void test_memcpy_queries_memory_type_only_for_new_operands(void **state) {
    cgn_test_env *env = *state;
    cgn_graph *g;
    cgn_node *n;
    OK(cgn_graph_create(&g));
    cgn_fault_reset_counts();
    cgn_memcpy_desc d = copy_desc(env->buf[1], addr(env->host[1]), 4);
    OK(cgn_graph_add_memcpy(g, NULL, 0, &d, &n));
    assert_int_equal(cgn_fault_calls(CGN_FAULT_cuPointerGetAttribute), 2);
    cgn_fault_reset_counts();
    cgn_memcpy_update u = CGN_MEMCPY_UPDATE_INIT;
    cgn_memcpy_update_set_size(&u, 12);
    OK(cgn_memcpy_node_update(n, &u));
    assert_int_equal(cgn_fault_calls(CGN_FAULT_cuPointerGetAttribute), 0);
    assert_int_equal(cgn_fault_calls(CGN_FAULT_cuGraphMemcpyNodeGetParams), 1);
    assert_int_equal(cgn_fault_calls(CGN_FAULT_cuGraphNodeSetParams), 1);
    assert_int_equal(cgn_fault_calls(CGN_FAULT_cuUserObjectCreate), 0);
    CUDA_MEMCPY3D c = node_copy_params(n);
    assert_int_equal(c.srcMemoryType, CU_MEMORYTYPE_HOST); /* kept from the add */
    assert_ptr_equal(c.srcHost, env->host[1]);
    assert_int_equal(c.WidthInBytes, 12);
    cgn_fault_reset_counts();
    cgn_memcpy_update v = CGN_MEMCPY_UPDATE_INIT;
    cgn_memcpy_update_set_src(&v, env->buf[0], NULL);
    OK(cgn_memcpy_node_update(n, &v));
    assert_int_equal(cgn_fault_calls(CGN_FAULT_cuPointerGetAttribute), 1);
    c = node_copy_params(n);
    assert_int_equal(c.srcMemoryType, CU_MEMORYTYPE_DEVICE);
    assert_int_equal(c.srcDevice, env->buf[0]);
    assert_null(c.srcHost);
    OK(cgn_graph_destroy(g));
}

/* A driver error other than "unknown address" fails the call; an array is not a copy operand. */
static void test_memcpy_memory_type_errors(void **state) {
    cgn_test_env *env = *state;
    static unsigned char array_like[8];
    cgn_graph *g;
    cgn_node *n;
    OK(cgn_graph_create(&g));
    cgn_memcpy_desc d = copy_desc(env->buf[1], env->buf[0], 4);
    cgn_fault_arm(3, CUDA_ERROR_NOT_INITIALIZED); /* cuCtxGetCurrent, dst, then src */
    assert_int_equal(cgn_graph_add_memcpy(g, NULL, 0, &d, &n), CGN_ERROR_DRIVER);
    cgn_fault_disarm();
    assert_non_null(strstr(cgn_last_error(), "cuPointerGetAttribute"));
    assert_non_null(strstr(cgn_last_error(), "of src"));
    assert_int_equal(cgn_fake_graph_node_count(cgn__graph_record(g)->raw), 0);
    cgn_fake_mark_memory(array_like, sizeof array_like, CU_MEMORYTYPE_ARRAY);
    d.src = addr(array_like);
    assert_int_equal(cgn_graph_add_memcpy(g, NULL, 0, &d, &n), CGN_ERROR_NOT_SUPPORTED);
    assert_non_null(strstr(cgn_last_error(), "src"));
    OK(cgn_graph_destroy(g));
}

/* ---- memcpy: the form check --------------------------------------------------------------- */

/* A node whose descriptor was changed outside cgn into another form is refused, unchanged:
 * nothing is set and nothing is staged. Back in plain 1-D form it updates again. */
static void test_memcpy_rejects_unsupported_descriptor(void **state) {
    cgn_test_env *env = *state;
    static const struct {
        const char *why;
        size_t height, src_x, src_pitch, dst_pitch;
    } forms[] = {
        {"multidimensional", 2, 0, 8, 8}, /* 2 rows of 4 bytes, 8 apart */
        {"offset", 1, 1, 0, 0},           /* srcXInBytes = 1, as cuda.core's test */
        {"pitched", 1, 0, 32, 0},
    };
    cgn_graph *g;
    cgn_node *n;
    OK(cgn_graph_create(&g));
    cgn_memcpy_desc d = copy_desc(env->buf[1], env->buf[0], 4);
    d.dst_owner = env->owner[1];
    OK(cgn_graph_add_memcpy(g, NULL, 0, &d, &n));
    CUgraphNode raw;
    OK(cgn_node_raw(n, &raw));
    const cgn_driver_table *drv = cgn_fake_table(); /* behind cgn's back */
    for (size_t i = 0; i < sizeof forms / sizeof forms[0]; i++) {
        CUgraphNodeParams p;
        memset(&p, 0, sizeof p);
        p.type = CU_GRAPH_NODE_TYPE_MEMCPY;
        p.memcpy.copyCtx = cgn_fake_context(0);
        CUDA_MEMCPY3D *c = &p.memcpy.copyParams;
        c->srcMemoryType = c->dstMemoryType = CU_MEMORYTYPE_DEVICE;
        c->srcDevice = env->buf[0];
        c->dstDevice = env->buf[1];
        c->WidthInBytes = 4;
        c->Height = forms[i].height;
        c->Depth = 1;
        c->srcXInBytes = forms[i].src_x;
        c->srcPitch = forms[i].src_pitch;
        c->dstPitch = forms[i].dst_pitch;
        assert_int_equal(drv->cuGraphNodeSetParams(raw, &p), CUDA_SUCCESS);
        const cgn__attachment *attachment = cgn__node_record(n)->attachment;
        long refs = atomic_load(&env->owner[2]->refs);
        cgn_fault_reset_counts();
        cgn_memcpy_update u = CGN_MEMCPY_UPDATE_INIT;
        cgn_memcpy_update_set_size(&u, 3);
        cgn_memcpy_update_set_dst(&u, env->buf[2], env->owner[2]);
        assert_int_equal(cgn_memcpy_node_update(n, &u), CGN_ERROR_NOT_SUPPORTED);
        assert_non_null(strstr(cgn_last_error(), forms[i].why));
        assert_int_equal(cgn_fault_calls(CGN_FAULT_cuGraphMemcpyNodeGetParams), 1);
        assert_int_equal(cgn_fault_calls(CGN_FAULT_cuGraphNodeSetParams), 0);
        assert_int_equal(cgn_fault_calls(CGN_FAULT_cuPointerGetAttribute), 0);
        assert_int_equal(cgn_fault_calls(CGN_FAULT_cuUserObjectCreate), 0);
        assert_ptr_equal(cgn__node_record(n)->attachment, attachment);
        assert_int_equal(atomic_load(&env->owner[2]->refs), refs);
        CUDA_MEMCPY3D now;
        memset(&now, 0, sizeof now);
        assert_int_equal(drv->cuGraphMemcpyNodeGetParams(raw, &now), CUDA_SUCCESS);
        assert_memory_equal(&now, c, sizeof now);
        cgn_memcpy_desc got;
        OK(cgn_memcpy_node_get(n, &got));
        assert_int_equal(got.size, 4);
        assert_int_equal(got.dst, env->buf[1]);
    }
    /* A plain 1-D descriptor set outside cgn is accepted again. */
    CUgraphNodeParams p;
    memset(&p, 0, sizeof p);
    p.type = CU_GRAPH_NODE_TYPE_MEMCPY;
    p.memcpy.copyParams.srcMemoryType = p.memcpy.copyParams.dstMemoryType = CU_MEMORYTYPE_DEVICE;
    p.memcpy.copyParams.srcDevice = env->buf[0];
    p.memcpy.copyParams.dstDevice = env->buf[1];
    p.memcpy.copyParams.WidthInBytes = 4;
    p.memcpy.copyParams.Height = p.memcpy.copyParams.Depth = 1;
    assert_int_equal(drv->cuGraphNodeSetParams(raw, &p), CUDA_SUCCESS);
    cgn_memcpy_update u = CGN_MEMCPY_UPDATE_INIT;
    cgn_memcpy_update_set_size(&u, 3);
    OK(cgn_memcpy_node_update(n, &u));
    assert_int_equal(node_copy_params(n).WidthInBytes, 3);
    OK(cgn_graph_destroy(g));
}

/* A failing read-back fails the update before anything is staged. */
static void test_memcpy_form_check_failure(void **state) {
    cgn_test_env *env = *state;
    cgn_graph *g;
    cgn_node *n;
    OK(cgn_graph_create(&g));
    cgn_memcpy_desc d = copy_desc(env->buf[1], env->buf[0], 4);
    OK(cgn_graph_add_memcpy(g, NULL, 0, &d, &n));
    cgn_fault_reset_counts();
    cgn_fault_arm(2, CUDA_ERROR_INVALID_VALUE); /* after the update's cuCtxGetCurrent */
    cgn_memcpy_update u = CGN_MEMCPY_UPDATE_INIT;
    cgn_memcpy_update_set_size(&u, 3);
    assert_int_equal(cgn_memcpy_node_update(n, &u), CGN_ERROR_DRIVER);
    cgn_fault_disarm();
    assert_non_null(strstr(cgn_last_error(), "cuGraphMemcpyNodeGetParams"));
    assert_int_equal(cgn_fault_calls(CGN_FAULT_cuGraphNodeSetParams), 0);
    assert_int_equal(node_copy_params(n).WidthInBytes, 4);
    OK(cgn_graph_destroy(g));
}

/* ---- host callbacks ----------------------------------------------------------------------------
 */

static int seen_runs;
static unsigned char seen_first;
static void *seen_argument;

static void CUDA_CB see(void *argument) {
    seen_runs++;
    seen_argument = argument;
    seen_first = argument ? *(const unsigned char *)argument : 0;
}

static void CUDA_CB see_other(void *argument) {
    see(argument);
}

static void seen_reset(void) {
    seen_runs = 0;
    seen_first = 0;
    seen_argument = NULL;
}

static int attachment_has(const cgn__attachment *a, const cgn_owner *o) {
    for (size_t i = 0; a != NULL && i < a->num_owners; i++)
        if (a->owners[i] == o)
            return 1;
    return 0;
}

/* The payload is copied at add: the caller's bytes may change or go; the driver, get and the
 * callback see cgn's copy, which the node's attachment owns. Input payload_owner is ignored. */
static void test_host_payload_is_copied_and_owned(void **state) {
    cgn_test_env *env = *state;
    cgn_graph *g;
    cgn_node *n;
    cgn_exec *e;
    OK(cgn_graph_create(&g));
    unsigned char bytes[3] = {0xA1, 0x02, 0x03};
    cgn_host_callback_desc d = CGN_HOST_CALLBACK_DESC_INIT;
    d.fn = see;
    d.payload = bytes;
    d.payload_size = sizeof bytes;
    d.payload_owner = env->owner[0]; /* set by cgn, ignored on input */
    long refs = atomic_load(&env->owner[0]->refs);
    OK(cgn_graph_add_host_callback(g, NULL, 0, &d, &n));
    assert_int_equal(atomic_load(&env->owner[0]->refs), refs);
    bytes[0] = 0xEE;
    cgn_host_callback_desc got;
    OK(cgn_host_callback_node_get(n, &got));
    assert_ptr_not_equal(got.payload, bytes);
    assert_int_equal(got.payload_size, 3);
    assert_memory_equal(got.payload, "\xA1\x02\x03", 3);
    assert_non_null(got.payload_owner);
    assert_ptr_not_equal(got.payload_owner, env->owner[0]);
    assert_true(attachment_has(cgn__node_record(n)->attachment, got.payload_owner));
    assert_int_equal(atomic_load(&got.payload_owner->refs), 1); /* the attachment's alone */
    CUgraphNode raw;
    OK(cgn_node_raw(n, &raw));
    CUgraphNodeParams p;
    assert_int_equal(cgn_fake_node_params(raw, &p), 1);
    assert_ptr_equal(p.host.fn, see);
    assert_ptr_equal(p.host.userData, got.payload);
    OK(cgn_graph_instantiate(g, &e));
    seen_reset();
    OK(cgn_exec_launch(e, NULL));
    assert_int_equal(seen_runs, 1);
    assert_int_equal(seen_first, 0xA1);
    OK(cgn_exec_destroy(e));
    OK(cgn_graph_destroy(g));
}

/* Each version keeps its own copy for as long as an executable may run it: after an update, the
 * graph's destruction and a collect, the old executable still runs the old payload (ASan and
 * valgrind would see a use after free), and its copy goes with the executable. */
static void test_host_payload_lives_as_long_as_its_version(void **state) {
    (void)state;
    cgn_graph *g;
    cgn_node *n;
    cgn_exec *old_exec, *new_exec;
    OK(cgn_graph_create(&g));
    unsigned char a = 0xA1, b = 0xB2;
    cgn_host_callback_desc d = CGN_HOST_CALLBACK_DESC_INIT;
    d.fn = see;
    d.payload = &a;
    d.payload_size = 1;
    OK(cgn_graph_add_host_callback(g, NULL, 0, &d, &n));
    const cgn__attachment *first = cgn__node_record(n)->attachment;
    OK(cgn_graph_instantiate(g, &old_exec));
    cgn_host_callback_update u = CGN_HOST_CALLBACK_UPDATE_INIT;
    cgn_host_callback_update_set_fn(&u, see_other, NULL, NULL, &b, 1);
    OK(cgn_host_callback_node_update(n, &u));
    assert_ptr_not_equal(cgn__node_record(n)->attachment, first);
    OK(cgn_graph_instantiate(g, &new_exec));
    OK(cgn_graph_destroy(g));
    assert_int_equal(cgn_collect(), 0); /* both executables still hold their versions */
    seen_reset();
    OK(cgn_exec_launch(old_exec, NULL));
    assert_int_equal(seen_first, 0xA1);
    OK(cgn_exec_destroy(old_exec));
    seen_reset();
    OK(cgn_exec_launch(new_exec, NULL));
    assert_int_equal(seen_first, 0xB2);
    OK(cgn_exec_destroy(new_exec));
    cgn_collect();
}

/* user_data and payload are exclusive; a NULL payload with a size is a bad argument; a
 * zero-length payload is no payload (NULL to the driver, no copy, no user object). */
static void test_host_argument_rules(void **state) {
    cgn_test_env *env = *state;
    cgn_graph *g;
    cgn_node *n;
    OK(cgn_graph_create(&g));
    unsigned char byte = 0x5A;
    cgn_host_callback_desc d = CGN_HOST_CALLBACK_DESC_INIT;
    d.fn = see;
    d.user_data = env->host[0];
    d.payload = &byte;
    d.payload_size = 1;
    cgn_fault_reset_counts();
    assert_int_equal(cgn_graph_add_host_callback(g, NULL, 0, &d, &n), CGN_ERROR_INVALID_VALUE);
    assert_non_null(strstr(cgn_last_error(), "exclusive"));
    d.user_data = NULL;
    d.payload = NULL;
    assert_int_equal(cgn_graph_add_host_callback(g, NULL, 0, &d, &n), CGN_ERROR_INVALID_ARGUMENT);
    d.fn = NULL;
    d.payload_size = 0;
    assert_int_equal(cgn_graph_add_host_callback(g, NULL, 0, &d, &n), CGN_ERROR_INVALID_VALUE);
    assert_int_equal(cgn_fault_total_calls(), 0);

    d.fn = see;
    d.payload = &byte; /* zero-length */
    OK(cgn_graph_add_host_callback(g, NULL, 0, &d, &n));
    assert_int_equal(cgn_fault_calls(CGN_FAULT_cuUserObjectCreate), 0);
    assert_null(cgn__node_record(n)->attachment);
    cgn_host_callback_desc got;
    OK(cgn_host_callback_node_get(n, &got));
    assert_null(got.payload);
    assert_int_equal(got.payload_size, 0);
    assert_null(got.payload_owner);
    CUgraphNode raw;
    OK(cgn_node_raw(n, &raw));
    CUgraphNodeParams p;
    assert_int_equal(cgn_fake_node_params(raw, &p), 1);
    assert_null(p.host.userData);

    /* An update with fn alone drops whatever argument the node had. */
    cgn_host_callback_update u = CGN_HOST_CALLBACK_UPDATE_INIT;
    cgn_host_callback_update_set_fn(&u, see, env->host[1], env->owner[1], NULL, 0);
    OK(cgn_host_callback_node_update(n, &u));
    assert_int_equal(cgn_fake_node_params(raw, &p), 1);
    assert_ptr_equal(p.host.userData, env->host[1]);
    assert_true(attachment_has(cgn__node_record(n)->attachment, env->owner[1]));
    cgn_host_callback_update v = CGN_HOST_CALLBACK_UPDATE_INIT;
    v.set = CGN_HOST_CALLBACK_SET_FN;
    v.fn = see_other;
    OK(cgn_host_callback_node_update(n, &v));
    assert_int_equal(cgn_fake_node_params(raw, &p), 1);
    assert_ptr_equal(p.host.fn, see_other);
    assert_null(p.host.userData);
    assert_null(cgn__node_record(n)->attachment);
    OK(cgn_host_callback_node_get(n, &got));
    assert_null(got.user_data);
    assert_null(got.user_data_owner);
    OK(cgn_graph_destroy(g));
}

/* Failing each driver call of an add with a payload, in turn: the add fails, the graph is
 * unchanged, and the copy is freed exactly once (ASan/valgrind check both). */
static void test_host_payload_add_failures_release_the_copy(void **state) {
    (void)state;
    cgn_graph *g;
    cgn_node *n;
    OK(cgn_graph_create(&g));
    unsigned char byte = 0xC3;
    cgn_host_callback_desc d = CGN_HOST_CALLBACK_DESC_INIT;
    d.fn = see;
    d.payload = &byte;
    d.payload_size = 1;
    long k;
    for (k = 1; k < 32; k++) {
        cgn_fault_arm(k, CUDA_ERROR_OUT_OF_MEMORY);
        cgn_status st = cgn_graph_add_host_callback(g, NULL, 0, &d, &n);
        cgn_fault_disarm();
        cgn_fault_entry entry;
        if (!cgn_fault_triggered(&entry)) {
            OK(st);
            break;
        }
        assert_int_equal(st, CGN_ERROR_DRIVER);
        assert_non_null(strstr(cgn_last_error(), cgn_fault_entry_name(entry)));
        assert_int_equal(cgn_fake_graph_node_count(cgn__graph_record(g)->raw), 0);
        cgn_collect();
    }
    assert_true(k > 3); /* cuCtxGetCurrent, cuUserObjectCreate, cuGraphRetainUserObject, add */
    assert_int_equal(cgn_fake_graph_node_count(cgn__graph_record(g)->raw), 1);
    OK(cgn_graph_destroy(g));
}

/* ---- events ------------------------------------------------------------------------------------
 */

static void test_event_nodes_reject_null_event(void **state) {
    cgn_test_env *env = *state;
    cgn_graph *g;
    cgn_node *rec, *wait;
    OK(cgn_graph_create(&g));
    cgn_event_record_desc r = CGN_EVENT_RECORD_DESC_INIT;
    cgn_event_wait_desc w = CGN_EVENT_WAIT_DESC_INIT;
    cgn_fault_reset_counts();
    assert_int_equal(cgn_graph_add_event_record(g, NULL, 0, &r, &rec), CGN_ERROR_INVALID_VALUE);
    assert_int_equal(cgn_graph_add_event_wait(g, NULL, 0, &w, &wait), CGN_ERROR_INVALID_VALUE);
    assert_non_null(strstr(cgn_last_error(), "event must not be NULL"));
    assert_int_equal(cgn_fault_total_calls(), 0);
    r.event = env->event[0];
    r.event_owner = env->owner[0];
    w.event = env->event[0];
    OK(cgn_graph_add_event_record(g, NULL, 0, &r, &rec));
    OK(cgn_graph_add_event_wait(g, &rec, 1, &w, &wait));
    assert_true(attachment_has(cgn__node_record(rec)->attachment, env->owner[0]));
    assert_null(cgn__node_record(wait)->attachment);
    /* The two types do not mix. */
    cgn_event_record_update u = CGN_EVENT_RECORD_UPDATE_INIT;
    cgn_event_record_update_set_event(&u, env->event[1], NULL);
    assert_int_equal(cgn_event_record_node_update(wait, &u), CGN_ERROR_WRONG_NODE_TYPE);
    OK(cgn_event_record_node_update(rec, &u));
    assert_null(cgn__node_record(rec)->attachment);
    CUgraphNode raw;
    OK(cgn_node_raw(rec, &raw));
    CUgraphNodeParams p;
    assert_int_equal(cgn_fake_node_params(raw, &p), 1);
    assert_ptr_equal(p.eventRecord.event, env->event[1]);
    OK(cgn_graph_destroy(g));
}

int main(void) {
#define T(fn) cmocka_unit_test_setup_teardown(fn, cgn_test_fixture_setup, cgn_test_fixture_teardown)
    const struct CMUnitTest tests[] = {
        T(test_memcpy_detects_memory_types),
        T(test_memcpy_queries_memory_type_only_for_new_operands),
        T(test_memcpy_memory_type_errors),
        T(test_memcpy_rejects_unsupported_descriptor),
        T(test_memcpy_form_check_failure),
        T(test_host_payload_is_copied_and_owned),
        T(test_host_payload_lives_as_long_as_its_version),
        T(test_host_argument_rules),
        T(test_host_payload_add_failures_release_the_copy),
        T(test_event_nodes_reject_null_event),
    };
#undef T
    return cmocka_run_group_tests(tests, NULL, NULL);
}
