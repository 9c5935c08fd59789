/* Behaviour of the memcpy, memcpy_3d, host callback and event node types beyond the generated
 * matrices, on the fake driver: memory-type detection, the memcpy form check, array operands,
 * multidimensional copies in executables, payload copies and their lifetime, exclusive and
 * zero-length arguments, and the driver calls each path makes. */
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
 * query (only the update itself; no form check's read-back while no raw handle of the graph
 * has left cgn). */
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
    assert_int_equal(cgn_fault_calls(CGN_FAULT_cuGraphMemcpyNodeGetParams), 0);
    assert_int_equal(cgn_fault_setter_calls(), 1);
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
        assert_int_equal(cgn_fault_setter_calls(), 0);
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

/* The form check reads the node back only where code outside cgn could have changed it: in a
 * hierarchy a raw handle of which was handed out, through any of its graphs or nodes, or that
 * was adopted. A node cgn alone reaches was changed only through the forms cgn builds. */
static void test_memcpy_form_check_only_when_reachable(void **state) {
    cgn_test_env *env = *state;
    cgn_memcpy_desc d = copy_desc(env->buf[1], env->buf[0], 4);
    cgn_memcpy_update u = CGN_MEMCPY_UPDATE_INIT;
    cgn_memcpy_update_set_size(&u, 3);
    for (int how = 0; how < 4; how++) {
        /* A parent with a child graph holding the copy, and a root beside it. */
        cgn_graph *parent, *source, *other;
        cgn_node *copy_src, *child, *lone;
        OK(cgn_graph_create(&parent));
        OK(cgn_graph_create(&source));
        OK(cgn_graph_create(&other));
        OK(cgn_graph_add_memcpy(source, NULL, 0, &d, &copy_src));
        cgn_child_graph_desc cd = CGN_CHILD_GRAPH_DESC_INIT;
        cd.graph = source;
        OK(cgn_graph_add_child_graph(parent, NULL, 0, &cd, &child));
        cgn_graph *embedded;
        OK(cgn_child_graph_node_embedded(child, &embedded));
        cgn_node *copy = NULL;
        size_t count = 1;
        OK(cgn_graph_nodes(embedded, &copy, &count));
        assert_int_equal(count, 1);
        OK(cgn_graph_add_memcpy(other, NULL, 0, &d, &lone));
        CUgraph raw_graph;
        CUgraphNode raw_node;
        if (how == 1)
            OK(cgn_graph_raw(parent, &raw_graph));
        else if (how == 2)
            OK(cgn_graph_raw(embedded, &raw_graph));
        else if (how == 3)
            OK(cgn_node_raw(child, &raw_node)); /* another node of the hierarchy */
        cgn_fault_reset_counts();
        OK(cgn_memcpy_node_update(copy, &u));
        assert_int_equal(cgn_fault_calls(CGN_FAULT_cuGraphMemcpyNodeGetParams), how != 0);
        /* The other hierarchy and the source were never handed out. */
        cgn_fault_reset_counts();
        OK(cgn_memcpy_node_update(lone, &u));
        OK(cgn_memcpy_node_update(copy_src, &u));
        assert_int_equal(cgn_fault_calls(CGN_FAULT_cuGraphMemcpyNodeGetParams), 0);
        OK(cgn_graph_destroy(parent));
        OK(cgn_graph_destroy(source));
        OK(cgn_graph_destroy(other));
    }
    /* Adopted: built elsewhere, so always read back. */
    cgn_graph *g;
    cgn_node *n;
    OK(cgn_graph_create(&g));
    OK(cgn_graph_add_memcpy(g, NULL, 0, &d, &n));
    CUgraph raw;
    OK(cgn_graph_raw(g, &raw));
    CUgraph clone;
    assert_int_equal(cgn__driver->cuGraphClone(&clone, raw), CUDA_SUCCESS);
    OK(cgn_graph_destroy(g));
    OK(cgn_graph_adopt(clone, CGN_ADOPT_TAKE_OWNERSHIP, &g));
    n = NULL;
    size_t count = 1;
    OK(cgn_graph_nodes(g, &n, &count));
    cgn_fault_reset_counts();
    OK(cgn_memcpy_node_update(n, &u));
    assert_int_equal(cgn_fault_calls(CGN_FAULT_cuGraphMemcpyNodeGetParams), 1);
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
    CUgraph raw; /* handed out: the node could be changed behind cgn's back */
    OK(cgn_graph_raw(g, &raw));
    cgn_fault_reset_counts();
    cgn_fault_arm(1, CUDA_ERROR_INVALID_VALUE); /* the update's first call (13.0: no context
                                                  * query before it) */
    cgn_memcpy_update u = CGN_MEMCPY_UPDATE_INIT;
    cgn_memcpy_update_set_size(&u, 3);
    assert_int_equal(cgn_memcpy_node_update(n, &u), CGN_ERROR_DRIVER);
    cgn_fault_disarm();
    assert_non_null(strstr(cgn_last_error(), "cuGraphMemcpyNodeGetParams"));
    assert_int_equal(cgn_fault_setter_calls(), 0);
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

/* ---- memory allocation and free nodes ---------------------------------------------------- */

static size_t node_count(cgn_graph *g) {
    size_t n = 0;
    OK(cgn_graph_nodes(g, NULL, &n));
    return n;
}

/* Invalid descs are refused before any driver call, naming the field; the address is the
 * driver's (the desc's is ignored), read back by get and exec_get. */
static void test_mem_alloc_rules_and_output(void **state) {
    cgn_test_env *env = *state;
    (void)env;
    cgn_graph *g;
    cgn_node *n = NULL;
    OK(cgn_graph_create(&g));
    cgn_mem_alloc_desc d = CGN_MEM_ALLOC_DESC_INIT;
    cgn_fault_reset_counts();
    assert_int_equal(cgn_graph_add_mem_alloc(g, NULL, 0, &d, &n), CGN_ERROR_INVALID_VALUE);
    assert_string_equal(cgn_last_error(), "cgn_graph_add_mem_alloc: bytesize must be at least 1");
    d.bytesize = 64;
    d.device = -1;
    assert_int_equal(cgn_graph_add_mem_alloc(g, NULL, 0, &d, &n), CGN_ERROR_INVALID_VALUE);
    assert_string_equal(cgn_last_error(),
                        "cgn_graph_add_mem_alloc: device -1 is not a device ordinal");
    assert_int_equal(cgn_graph_add_mem_alloc(g, NULL, 0, NULL, &n), CGN_ERROR_INVALID_ARGUMENT);
    assert_int_equal(cgn_fault_calls(CGN_FAULT_cuGraphAddMemAllocNode), 0);
    assert_null(n);
    assert_int_equal(node_count(g), 0);
    d.device = 0;
    d.dptr = 0x1234; /* ignored */
    OK(cgn_graph_add_mem_alloc(g, NULL, 0, &d, &n));
    cgn_mem_alloc_desc got;
    OK(cgn_mem_alloc_node_get(n, &got));
    assert_int_equal(got.bytesize, 64);
    assert_int_equal(got.device, 0);
    assert_true(got.dptr != 0 && got.dptr != 0x1234);
    CUgraphNode raw;
    OK(cgn_node_raw(n, &raw));
    CUgraphNodeParams p;
    assert_int_equal(cgn_fake_node_params(raw, &p), 1);
    assert_true(p.alloc.dptr == got.dptr);
    assert_int_equal(p.alloc.poolProps.allocType, CU_MEM_ALLOCATION_TYPE_PINNED);
    assert_int_equal(p.alloc.poolProps.location.type, CU_MEM_LOCATION_TYPE_DEVICE);
    /* A second allocation gets another address. */
    cgn_node *n2;
    OK(cgn_graph_add_mem_alloc(g, &n, 1, &d, &n2));
    cgn_mem_alloc_desc got2;
    OK(cgn_mem_alloc_node_get(n2, &got2));
    assert_true(got2.dptr != got.dptr);
    cgn_exec *e;
    OK(cgn_graph_instantiate(g, &e));
    OK(cgn_mem_alloc_exec_get(e, n2, &got));
    assert_true(got.dptr == got2.dptr);
    cgn_mem_free_desc wrong;
    assert_int_equal(cgn_mem_free_node_get(n, &wrong), CGN_ERROR_WRONG_NODE_TYPE);
    /* The driver failing the add leaves nothing behind. */
    cgn_fault_arm(1, CUDA_ERROR_OUT_OF_MEMORY);
    assert_int_equal(cgn_graph_add_mem_alloc(g, NULL, 0, &d, &n2), CGN_ERROR_DRIVER);
    cgn_fault_disarm();
    assert_int_equal(node_count(g), 2);
    OK(cgn_exec_destroy(e));
    OK(cgn_graph_destroy(g));
}

/* A free node takes a graph allocation; 0 is refused by cgn, any other address by the driver. */
static void test_mem_free_rules(void **state) {
    cgn_test_env *env = *state;
    cgn_graph *g;
    cgn_node *alloc, *release;
    OK(cgn_graph_create(&g));
    cgn_mem_free_desc f = CGN_MEM_FREE_DESC_INIT;
    assert_int_equal(cgn_graph_add_mem_free(g, NULL, 0, &f, &release), CGN_ERROR_INVALID_VALUE);
    assert_string_equal(cgn_last_error(), "cgn_graph_add_mem_free: dptr must not be 0");
    f.dptr = env->buf[0]; /* not a graph allocation */
    assert_int_equal(cgn_graph_add_mem_free(g, NULL, 0, &f, &release), CGN_ERROR_DRIVER);
    assert_non_null(strstr(cgn_last_error(), "cuGraphAddMemFreeNode"));
    assert_int_equal(node_count(g), 0);
    cgn_mem_alloc_desc a = CGN_MEM_ALLOC_DESC_INIT;
    a.bytesize = 256;
    OK(cgn_graph_add_mem_alloc(g, NULL, 0, &a, &alloc));
    OK(cgn_mem_alloc_node_get(alloc, &a));
    f.dptr = a.dptr;
    OK(cgn_graph_add_mem_free(g, &alloc, 1, &f, &release));
    cgn_mem_free_desc got;
    OK(cgn_mem_free_node_get(release, &got));
    assert_true(got.dptr == a.dptr);
    assert_int_equal(cgn_node_check_updatable(release), CGN_ERROR_NOT_SUPPORTED);
    assert_non_null(strstr(cgn_last_error(), " is a mem free node (CU_GRAPH_NODE_TYPE_MEM_FREE), "
                                             "which is not updatable: CUDA cannot change its "
                                             "parameters once it is added"));
    cgn_exec *e;
    OK(cgn_graph_instantiate(g, &e));
    assert_int_equal(cgn_exec_node_set_enabled(e, release, 0), CGN_ERROR_NOT_SUPPORTED);
    assert_non_null(strstr(cgn_last_error(), " is a mem free node; CUDA enables and disables"));
    OK(cgn_exec_update_from_graph(e, g)); /* nothing changed: the same memory nodes */
    OK(cgn_mem_free_exec_get(e, release, &got));
    assert_true(got.dptr == a.dptr);
    OK(cgn_test_backend_selected.launch(env, e));
    OK(cgn_exec_destroy(e));
    OK(cgn_graph_destroy(g));
}

/* CUDA's restrictions on graphs holding memory nodes that cgn refuses up front: their nodes
 * cannot be destroyed, and they cannot be embedded in a child-graph node. */
static void test_mem_nodes_graph_restrictions(void **state) {
    cgn_test_env *env = *state;
    cgn_graph *g, *parent;
    cgn_node *empty, *alloc, *child;
    OK(cgn_graph_create(&g));
    OK(cgn_graph_create(&parent));
    OK(cgn_graph_add_empty(g, NULL, 0, &empty));
    cgn_child_graph_desc cd = {.graph = g}; /* no memory nodes yet */
    OK(cgn_graph_add_child_graph(parent, NULL, 0, &cd, &child));
    cgn_mem_alloc_desc a = CGN_MEM_ALLOC_DESC_INIT;
    a.bytesize = 64;
    OK(cgn_graph_add_mem_alloc(g, &empty, 1, &a, &alloc));
    cgn_fault_reset_counts();
    assert_int_equal(cgn_node_destroy(empty), CGN_ERROR_NOT_SUPPORTED);
    assert_non_null(strstr(cgn_last_error(), "belongs to a graph holding a mem alloc node"));
    assert_int_equal(cgn_node_destroy(alloc), CGN_ERROR_NOT_SUPPORTED);
    assert_int_equal(cgn_fault_calls(CGN_FAULT_cuGraphDestroyNode), 0);
    assert_true(cgn_node_is_alive(empty) && cgn_node_is_alive(alloc));
    cgn_node *child2 = NULL;
    assert_int_equal(cgn_graph_add_child_graph(parent, NULL, 0, &cd, &child2),
                     CGN_ERROR_NOT_SUPPORTED);
    assert_non_null(strstr(cgn_last_error(), "holds a mem alloc node"));
    assert_null(child2);
    cgn_child_graph_update u = CGN_CHILD_GRAPH_UPDATE_INIT;
    cgn_child_graph_update_set_graph(&u, g);
    assert_int_equal(cgn_child_graph_node_update(child, &u), CGN_ERROR_NOT_SUPPORTED);
    assert_int_equal(cgn_fault_calls(CGN_FAULT_cuGraphAddChildGraphNode), 0);
    assert_int_equal(cgn_fault_setter_calls(), 0);
    /* Nor can memory nodes be added to a graph embedded in a child-graph node. */
    cgn_graph *embedded;
    OK(cgn_child_graph_node_embedded(child, &embedded));
    size_t before = node_count(embedded);
    cgn_node *inside = NULL;
    assert_int_equal(cgn_graph_add_mem_alloc(embedded, NULL, 0, &a, &inside),
                     CGN_ERROR_NOT_SUPPORTED);
    assert_non_null(strstr(cgn_last_error(), "is embedded in a child-graph node, and CUDA does "
                                             "not allow mem alloc nodes in a child graph"));
    cgn_mem_free_desc f = {.dptr = 0x1000};
    assert_int_equal(cgn_graph_add_mem_free(embedded, NULL, 0, &f, &inside),
                     CGN_ERROR_NOT_SUPPORTED);
    assert_non_null(strstr(cgn_last_error(), "not allow mem free nodes in a child graph"));
    assert_null(inside);
    assert_int_equal(node_count(embedded), before);
    assert_int_equal(cgn_fault_calls(CGN_FAULT_cuGraphAddMemAllocNode), 0);
    /* The driver's own refusals, modelled by the fake: cloning, and a raw child-graph add. */
    CUgraph raw, clone;
    OK(cgn_graph_raw(g, &raw));
    assert_int_equal(env->backend->driver(env)->cuGraphClone(&clone, raw),
                     CUDA_ERROR_NOT_SUPPORTED);
    OK(cgn_graph_destroy(parent));
    OK(cgn_graph_destroy(g));
}

/* memcpy_3d: an array operand writes CU_MEMORYTYPE_ARRAY and asks the driver nothing; an
 * address operand's memory type is asked when it is set, and 0 (no address) asks nothing; a
 * switch from address to array rewrites the operand's members. */
static void test_memcpy_3d_operands(void **state) {
    cgn_test_env *env = *state;
    cgn_graph *g;
    cgn_node *n;
    OK(cgn_graph_create(&g));
    cgn_memcpy_3d_desc d = CGN_MEMCPY_3D_DESC_INIT;
    d.dst_array = env->array[1];
    d.src = env->buf[0];
    d.src_pitch = 8;
    d.width_in_bytes = 8;
    d.height = 2;
    cgn_fault_reset_counts();
    OK(cgn_graph_add_memcpy_3d(g, NULL, 0, &d, &n));
    assert_int_equal(cgn_fault_calls(CGN_FAULT_cuPointerGetAttribute), 1); /* src only */
    CUDA_MEMCPY3D c = node_copy_params(n);
    assert_int_equal(c.dstMemoryType, CU_MEMORYTYPE_ARRAY);
    assert_ptr_equal(c.dstArray, env->array[1]);
    assert_int_equal(c.dstDevice, 0);
    assert_null(c.dstHost);
    assert_int_equal(c.srcMemoryType, CU_MEMORYTYPE_DEVICE);
    assert_int_equal(c.Height, 2);
    assert_int_equal(c.Depth, 1); /* the default */
    /* To an address: the array goes, the address's memory type is asked once. */
    cgn_memcpy_3d_update u = CGN_MEMCPY_3D_UPDATE_INIT;
    cgn_memcpy_3d_update_set_dst(&u, addr(env->host[0]), NULL);
    cgn_memcpy_3d_update_set_dst_array(&u, NULL, NULL);
    cgn_memcpy_3d_update_set_dst_pitch(&u, 16);
    cgn_fault_reset_counts();
    OK(cgn_memcpy_3d_node_update(n, &u));
    assert_int_equal(cgn_fault_calls(CGN_FAULT_cuPointerGetAttribute), 1);
    c = node_copy_params(n);
    assert_int_equal(c.dstMemoryType, CU_MEMORYTYPE_HOST);
    assert_ptr_equal(c.dstHost, env->host[0]);
    assert_null(c.dstArray);
    assert_int_equal(c.dstPitch, 16);
    cgn_memcpy_3d_desc got;
    OK(cgn_memcpy_3d_node_get(n, &got));
    assert_int_equal(got.dst_memory_type, CU_MEMORYTYPE_HOST);
    assert_null(got.dst_array);
    /* Both operands, or none, are refused before any driver call; nothing changes. */
    cgn_memcpy_3d_update both = CGN_MEMCPY_3D_UPDATE_INIT;
    cgn_memcpy_3d_update_set_dst_array(&both, env->array[0], NULL);
    cgn_fault_reset_counts();
    assert_int_equal(cgn_memcpy_3d_node_update(n, &both), CGN_ERROR_INVALID_VALUE);
    assert_non_null(strstr(cgn_last_error(), "exactly one of dst and dst_array"));
    assert_int_equal(cgn_fault_total_calls(), 0);
    cgn_memcpy_3d_update none = CGN_MEMCPY_3D_UPDATE_INIT;
    cgn_memcpy_3d_update_set_src(&none, 0, NULL);
    assert_int_equal(cgn_memcpy_3d_node_update(n, &none), CGN_ERROR_INVALID_VALUE);
    assert_non_null(strstr(cgn_last_error(), "exactly one of src and src_array"));
    c = node_copy_params(n);
    assert_ptr_equal(c.dstHost, env->host[0]);
    assert_int_equal(c.srcDevice, env->buf[0]);
    OK(cgn_graph_destroy(g));
}

/* In an executable a multidimensional memcpy_3d changes nothing, but an update that leaves the
 * copy as it is (an owner only) is accepted, and so is refreshing a graph where it is
 * unchanged while another node changed. */
static void test_memcpy_3d_multidimensional_executable(void **state) {
    cgn_test_env *env = *state;
    cgn_graph *g;
    cgn_node *copy, *fill;
    OK(cgn_graph_create(&g));
    cgn_memcpy_3d_desc d = CGN_MEMCPY_3D_DESC_INIT;
    d.dst = env->buf[1];
    d.dst_pitch = 8;
    d.src = env->buf[0];
    d.src_pitch = 8;
    d.width_in_bytes = 4;
    d.height = 2;
    OK(cgn_graph_add_memcpy_3d(g, NULL, 0, &d, &copy));
    cgn_memset_desc m = CGN_MEMSET_DESC_INIT;
    m.dst = env->buf[2];
    m.value = 1;
    m.width = 4;
    OK(cgn_graph_add_memset(g, &copy, 1, &m, &fill));
    cgn_exec *e;
    OK(cgn_graph_instantiate(g, &e));
    cgn_memcpy_3d_update same = CGN_MEMCPY_3D_UPDATE_INIT;
    cgn_memcpy_3d_update_set_dst(&same, env->buf[1], env->owner[1]);
    OK(cgn_memcpy_3d_exec_update(e, copy, &same));
    cgn_memcpy_3d_desc got;
    OK(cgn_memcpy_3d_exec_get(e, copy, &got));
    assert_ptr_equal(got.dst_owner, env->owner[1]);
    cgn_memcpy_3d_update moved = CGN_MEMCPY_3D_UPDATE_INIT;
    cgn_memcpy_3d_update_set_src_x_in_bytes(&moved, 2);
    cgn_fault_reset_counts();
    assert_int_equal(cgn_memcpy_3d_exec_update(e, copy, &moved), CGN_ERROR_INVALID_VALUE);
    assert_non_null(strstr(cgn_last_error(), "field height:"));
    assert_int_equal(cgn_fault_setter_calls(), 0);
    cgn_memset_update mu = CGN_MEMSET_UPDATE_INIT;
    cgn_memset_update_set_value(&mu, 2, 1);
    OK(cgn_memset_node_update(fill, &mu));
    OK(cgn_exec_update_from_graph(e, g));
    cgn_memset_desc em;
    OK(cgn_memset_exec_get(e, fill, &em));
    assert_int_equal(em.value, 2);
    /* The copy changed in the definition: the refresh refuses it, naming the rule. */
    OK(cgn_memcpy_3d_node_update(copy, &moved));
    assert_int_equal(cgn_exec_update_from_graph(e, g), CGN_ERROR_INVALID_VALUE);
    assert_non_null(strstr(cgn_last_error(), "field height:"));
    OK(cgn_memcpy_3d_exec_get(e, copy, &got));
    assert_int_equal(got.src_x_in_bytes, 0);
    OK(cgn_exec_destroy(e));
    OK(cgn_graph_destroy(g));
}

/* ---- batch memory operations ------------------------------------------------------------------
 */

static CUstreamBatchMemOpParams write32(CUdeviceptr at, uint32_t value) {
    CUstreamBatchMemOpParams op;
    memset(&op, 0xEE, sizeof op); /* bytes the type does not use: cgn zeroes them in its copy */
    op.writeValue.operation = CU_STREAM_MEM_OP_WRITE_VALUE_32;
    op.writeValue.address = at;
    op.writeValue.value = value;
    op.writeValue.flags = 0;
    return op;
}

static uint32_t read32(cgn_test_env *env, int buf, size_t offset) {
    unsigned char got[CGN_TEST_BUF_SIZE];
    env->backend->read(env, env->buf[buf], got, sizeof got);
    uint32_t v;
    memcpy(&v, got + offset, 4);
    return v;
}

static void assert_last_error(const char *want) {
    if (strcmp(cgn_last_error(), want) != 0)
        fail_msg("last error:\n  %s\nwanted:\n  %s", cgn_last_error(), want);
}

/* The operations are copied (normalised: the bytes a type does not use are zero) when set, so
 * the caller's array may change or go at once; the node, the driver and the executable keep
 * cgn's copy, and get returns it. */
static void test_batch_mem_ops_are_copied(void **state) {
    cgn_test_env *env = *state;
    cgn_graph *g;
    cgn_node *n;
    cgn_exec *e;
    OK(cgn_graph_create(&g));
    CUstreamBatchMemOpParams ops[2] = {write32(env->buf[0], 0x11111111u),
                                       write32(env->buf[0] + 4, 0x22222222u)};
    cgn_batch_mem_op_desc d = CGN_BATCH_MEM_OP_DESC_INIT;
    d.ops = ops;
    d.num_ops = 2;
    OK(cgn_graph_add_batch_mem_op(g, NULL, 0, &d, &n));
    ops[0].writeValue.value = 0x99999999u; /* the caller's array is theirs again */
    cgn_batch_mem_op_desc got;
    OK(cgn_batch_mem_op_node_get(n, &got));
    assert_ptr_not_equal(got.ops, ops);
    assert_int_equal(got.num_ops, 2);
    CUstreamBatchMemOpParams want = write32(env->buf[0], 0x11111111u);
    memset(&want, 0, sizeof want);
    want.writeValue.operation = CU_STREAM_MEM_OP_WRITE_VALUE_32;
    want.writeValue.address = env->buf[0];
    want.writeValue.value = 0x11111111u;
    assert_memory_equal(&got.ops[0], &want, sizeof want); /* alias, upper half, pad: zero */
    CUgraphNode raw;
    OK(cgn_node_raw(n, &raw));
    CUgraphNodeParams p;
    assert_int_equal(cgn_fake_node_params(raw, &p), 1);
    assert_int_equal(p.memOp.count, 2);
    assert_memory_equal(p.memOp.paramArray, got.ops, 2 * sizeof *got.ops);
    OK(cgn_graph_instantiate(g, &e));
    OK(env->backend->launch(env, e));
    assert_int_equal(read32(env, 0, 0), 0x11111111u);
    assert_int_equal(read32(env, 0, 4), 0x22222222u);

    /* An update copies again; the executable keeps its own version until updated itself. */
    CUstreamBatchMemOpParams next[2] = {write32(env->buf[1], 0x33333333u),
                                        write32(env->buf[1] + 8, 0x44444444u)};
    cgn_batch_mem_op_update u = CGN_BATCH_MEM_OP_UPDATE_INIT;
    cgn_batch_mem_op_update_set_ops(&u, next, 2, env->owner[1]);
    OK(cgn_batch_mem_op_node_update(n, &u));
    next[0].writeValue.value = 0;
    OK(cgn_batch_mem_op_exec_get(e, n, &got));
    assert_int_equal(got.ops[0].writeValue.address, env->buf[0]);
    OK(cgn_batch_mem_op_exec_update(e, n, &u));
    OK(cgn_batch_mem_op_exec_get(e, n, &got));
    assert_int_equal(got.ops[0].writeValue.value, 0); /* next[0] as it is now */
    assert_ptr_equal(got.ops_owner, env->owner[1]);
    OK(env->backend->launch(env, e));
    assert_int_equal(read32(env, 1, 8), 0x44444444u);
    OK(cgn_exec_destroy(e));
    OK(cgn_graph_destroy(g));
}

/* External semaphores and their parameters are copied when set (the caller's arrays may
 * change or go at once); the checks name the field; an executable keeps its number of
 * semaphores; a raw node adopts as the cgn type with cgn's own copies. */
static void test_ext_sems_are_copied(void **state) {
    cgn_test_env *env = *state;
    cgn_graph *g;
    cgn_node *n;
    cgn_exec *e;
    OK(cgn_graph_create(&g));
    CUexternalSemaphore sems[2] = {cgn_test_sem(env, 0), cgn_test_sem(env, 1)};
    CUDA_EXTERNAL_SEMAPHORE_SIGNAL_PARAMS sig[2];
    memset(sig, 0, sizeof sig);
    sig[0].params.fence.value = 10;
    sig[1].params.fence.value = 11;
    cgn_ext_sem_signal_desc d = CGN_EXT_SEM_SIGNAL_DESC_INIT;
    d.sems = sems;
    d.sems_params = sig;
    d.num_sems = 2;
    d.sems = NULL;
    assert_int_equal(cgn_graph_add_ext_sem_signal(g, NULL, 0, &d, &n), CGN_ERROR_INVALID_ARGUMENT);
    assert_last_error("cgn_graph_add_ext_sem_signal: sems is NULL (2 semaphores)");
    CUexternalSemaphore holes[2] = {sems[0], NULL};
    d.sems = holes;
    assert_int_equal(cgn_graph_add_ext_sem_signal(g, NULL, 0, &d, &n), CGN_ERROR_INVALID_VALUE);
    assert_last_error("cgn_graph_add_ext_sem_signal: sems[1] is NULL");
    d.sems = sems;
    d.num_sems = CGN_MAX_EXT_SEMS + 1;
    assert_int_equal(cgn_graph_add_ext_sem_signal(g, NULL, 0, &d, &n), CGN_ERROR_OUT_OF_RANGE);
    assert_last_error("cgn_graph_add_ext_sem_signal: 65 semaphores in sems, at most 64 "
                      "(CGN_MAX_EXT_SEMS)");
    assert_int_equal(cgn_fake_graph_node_count(cgn__graph_record(g)->raw), 0);
    d.num_sems = 2;
    OK(cgn_graph_add_ext_sem_signal(g, NULL, 0, &d, &n));
    sems[0] = sems[1]; /* the caller's arrays are theirs again */
    sig[0].params.fence.value = 99;
    cgn_ext_sem_signal_desc got;
    OK(cgn_ext_sem_signal_node_get(n, &got));
    assert_ptr_not_equal(got.sems, sems);
    assert_ptr_not_equal(got.sems_params, sig);
    assert_int_equal(got.num_sems, 2);
    assert_ptr_equal(got.sems[0], env->sem[0]);
    assert_int_equal(got.sems_params[0].params.fence.value, 10);
    CUgraphNode raw;
    OK(cgn_node_raw(n, &raw));
    CUgraphNodeParams p;
    assert_int_equal(cgn_fake_node_params(raw, &p), 1);
    assert_int_equal(p.extSemSignal.numExtSems, 2);
    assert_int_equal(p.extSemSignal.paramsArray[1].params.fence.value, 11);

    /* The executable keeps its number of semaphores; the definition may change it. */
    OK(cgn_graph_instantiate(g, &e));
    cgn_ext_sem_signal_update u = CGN_EXT_SEM_SIGNAL_UPDATE_INIT;
    cgn_ext_sem_signal_update_set_sems(&u, sems, sig, 1, NULL);
    assert_int_equal(cgn_ext_sem_signal_exec_update(e, n, &u), CGN_ERROR_INVALID_VALUE);
    assert_last_error("cgn_ext_sem_signal_exec_update: field sems: 1 semaphores, the executable "
                      "has 2; rule: an executable's external semaphore signal node keeps its "
                      "number of semaphores");
    OK(cgn_ext_sem_signal_node_update(n, &u));
    OK(cgn_ext_sem_signal_exec_get(e, n, &got));
    assert_int_equal(got.num_sems, 2);
    OK(cgn_exec_destroy(e));

    /* Adopted: the cgn type, read into cgn's own copies. */
    CUgraph other;
    const cgn_driver_table *drv = env->backend->driver(env);
    assert_int_equal(drv->cuGraphCreate(&other, 0), CUDA_SUCCESS);
    CUDA_EXTERNAL_SEMAPHORE_WAIT_PARAMS wp[1];
    memset(wp, 0, sizeof wp);
    wp[0].params.fence.value = 4;
    CUDA_EXT_SEM_WAIT_NODE_PARAMS_v1 wn = {&sems[1], wp, 1};
    CUgraphNode wraw;
    assert_int_equal(drv->cuGraphAddExternalSemaphoresWaitNode(&wraw, other, NULL, 0, &wn),
                     CUDA_SUCCESS);
    cgn_graph *adopted;
    OK(cgn_graph_adopt(other, CGN_ADOPT_TAKE_OWNERSHIP, &adopted));
    cgn_node *w = NULL;
    size_t count = 1;
    OK(cgn_graph_nodes(adopted, &w, &count));
    cgn_node_type t;
    OK(cgn_node_type_of(w, &t));
    assert_int_equal(t, CGN_NODE_EXT_SEM_WAIT);
    cgn_ext_sem_wait_desc wd;
    OK(cgn_ext_sem_wait_node_get(w, &wd));
    assert_int_equal(wd.num_sems, 1);
    assert_ptr_equal(wd.sems[0], env->sem[1]);
    assert_ptr_not_equal(wd.sems_params, wp);
    assert_int_equal(wd.sems_params[0].params.fence.value, 4);
    OK(cgn_graph_destroy(adopted));
    OK(cgn_graph_destroy(g));
}

/* What the checks and the executable rules say, naming the operation. */
static void test_batch_mem_op_messages(void **state) {
    cgn_test_env *env = *state;
    cgn_graph *g;
    cgn_node *n;
    cgn_exec *e;
    OK(cgn_graph_create(&g));
    CUstreamBatchMemOpParams ops[2] = {write32(env->buf[0], 1), write32(env->buf[0] + 2, 2)};
    cgn_batch_mem_op_desc d = CGN_BATCH_MEM_OP_DESC_INIT;
    d.ops = ops;
    d.num_ops = 2;
    assert_int_equal(cgn_graph_add_batch_mem_op(g, NULL, 0, &d, &n), CGN_ERROR_INVALID_VALUE);
    assert_last_error("cgn_graph_add_batch_mem_op: ops[1] (type 2): its address is not 4-byte "
                      "aligned");
    d.ops = NULL;
    assert_int_equal(cgn_graph_add_batch_mem_op(g, NULL, 0, &d, &n), CGN_ERROR_INVALID_ARGUMENT);
    assert_last_error("cgn_graph_add_batch_mem_op: ops is NULL (2 operations)");
    d.ops = ops;
    d.num_ops = CGN_MAX_MEM_OPS + 1;
    assert_int_equal(cgn_graph_add_batch_mem_op(g, NULL, 0, &d, &n), CGN_ERROR_OUT_OF_RANGE);
    assert_last_error("cgn_graph_add_batch_mem_op: 256 operations in ops, at most 255 "
                      "(CGN_MAX_MEM_OPS)");
    assert_int_equal(cgn_fake_graph_node_count(cgn__graph_record(g)->raw), 0);

    ops[1] = write32(env->buf[0] + 8, 2);
    d.num_ops = 2;
    OK(cgn_graph_add_batch_mem_op(g, NULL, 0, &d, &n));
    OK(cgn_graph_instantiate(g, &e));
    ops[1].writeValue.operation = CU_STREAM_MEM_OP_WRITE_VALUE_64;
    ops[1].writeValue.value64 = 2;
    cgn_batch_mem_op_update u = CGN_BATCH_MEM_OP_UPDATE_INIT;
    cgn_batch_mem_op_update_set_ops(&u, ops, 2, NULL);
    assert_int_equal(cgn_batch_mem_op_exec_update(e, n, &u), CGN_ERROR_INVALID_VALUE);
    assert_last_error("cgn_batch_mem_op_exec_update: field ops: operation 1 is a write64, the "
                      "executable has a write32; rule: an executable's operations keep their "
                      "types");
    OK(cgn_batch_mem_op_node_update(n, &u)); /* the definition may change types */
    ops[1] = write32(env->buf[0] + 8, 2);
    cgn_batch_mem_op_update_set_ops(&u, ops, 1, NULL);
    assert_int_equal(cgn_batch_mem_op_exec_update(e, n, &u), CGN_ERROR_INVALID_VALUE);
    assert_last_error("cgn_batch_mem_op_exec_update: field ops: 1 operations, the executable has "
                      "2; rule: an executable's batch memory operation node keeps its number of "
                      "operations");
    cgn_batch_mem_op_update_set_ops(&u, ops, 2, NULL);
    ops[1].writeValue.flags = 1;
    assert_int_equal(cgn_batch_mem_op_node_update(n, &u), CGN_ERROR_INVALID_VALUE);
    assert_last_error("cgn_batch_mem_op_node_update: ops[1] (type 2): a write's flags must be 0 "
                      "(CU_STREAM_WRITE_VALUE_NO_MEMORY_BARRIER is not supported by batch "
                      "operations)");
    OK(cgn_exec_destroy(e));
    OK(cgn_graph_destroy(g));
}

/* An executable keeps a wait's CU_STREAM_WAIT_VALUE_FLUSH bit (not in the matrix cases: the
 * H200 cannot flush remote writes and its driver refuses the bit even in a definition). */
static void test_batch_mem_op_wait_flush_bit_is_fixed(void **state) {
    cgn_test_env *env = *state;
    cgn_graph *g;
    cgn_node *n;
    cgn_exec *e;
    OK(cgn_graph_create(&g));
    CUstreamBatchMemOpParams ops[2] = {write32(env->buf[0], 5), write32(env->buf[0], 5)};
    ops[1].waitValue.operation = CU_STREAM_MEM_OP_WAIT_VALUE_32;
    ops[1].waitValue.flags = CU_STREAM_WAIT_VALUE_EQ;
    cgn_batch_mem_op_desc d = CGN_BATCH_MEM_OP_DESC_INIT;
    d.ops = ops;
    d.num_ops = 2;
    OK(cgn_graph_add_batch_mem_op(g, NULL, 0, &d, &n));
    OK(cgn_graph_instantiate(g, &e));
    ops[1].waitValue.flags = CU_STREAM_WAIT_VALUE_EQ | CU_STREAM_WAIT_VALUE_FLUSH;
    cgn_batch_mem_op_update u = CGN_BATCH_MEM_OP_UPDATE_INIT;
    cgn_batch_mem_op_update_set_ops(&u, ops, 2, NULL);
    cgn_fault_reset_counts();
    assert_int_equal(cgn_batch_mem_op_exec_update(e, n, &u), CGN_ERROR_INVALID_VALUE);
    assert_last_error("cgn_batch_mem_op_exec_update: field ops: operation 1 (a wait32) changes "
                      "its flags; rule: an executable may change only the addresses and values "
                      "of writes and waits and the comparison of waits (not a write's flags, a "
                      "wait's CU_STREAM_WAIT_VALUE_FLUSH bit, or a flush or barrier)");
    assert_int_equal(cgn_fault_setter_calls(), 0);
    ops[1].waitValue.flags = CU_STREAM_WAIT_VALUE_GEQ; /* another comparison: allowed */
    cgn_batch_mem_op_update_set_ops(&u, ops, 2, NULL);
    OK(cgn_batch_mem_op_exec_update(e, n, &u));
    OK(cgn_exec_destroy(e));
    OK(cgn_graph_destroy(g));
}

/* A node built with the raw driver is adopted with a copy of the driver's array (normalised),
 * then updated through cgn; a refresh reads what a raw update set. */
static void test_batch_mem_op_adopted(void **state) {
    cgn_test_env *env = *state;
    const cgn_driver_table *drv = cgn__driver;
    CUgraph raw;
    CUgraphNode rn;
    assert_int_equal(drv->cuGraphCreate(&raw, 0), CUDA_SUCCESS);
    CUstreamBatchMemOpParams ops[1] = {write32(env->buf[2], 0x5A5A5A5Au)};
    CUcontext ctx = NULL;
    assert_int_equal(drv->cuCtxGetCurrent(&ctx), CUDA_SUCCESS);
    CUDA_BATCH_MEM_OP_NODE_PARAMS_v1 m = {ctx, 1, ops, 0};
    assert_int_equal(drv->cuGraphAddBatchMemOpNode(&rn, raw, NULL, 0, &m), CUDA_SUCCESS);
    cgn_graph *g;
    OK(cgn_graph_adopt(raw, CGN_ADOPT_TAKE_OWNERSHIP, &g));
    cgn_node *nodes[1];
    size_t count = 1;
    OK(cgn_graph_nodes(g, nodes, &count));
    assert_int_equal(count, 1);
    cgn_node_type t;
    OK(cgn_node_type_of(nodes[0], &t));
    assert_int_equal(t, CGN_NODE_BATCH_MEM_OP);
    OK(cgn_node_check_updatable(nodes[0]));
    cgn_batch_mem_op_desc got;
    OK(cgn_batch_mem_op_node_get(nodes[0], &got));
    CUDA_BATCH_MEM_OP_NODE_PARAMS_v1 driver;
    assert_int_equal(drv->cuGraphBatchMemOpNodeGetParams(rn, &driver), CUDA_SUCCESS);
    assert_ptr_not_equal(got.ops, driver.paramArray); /* cgn's copy, not the driver's */
    assert_int_equal(got.num_ops, 1);
    assert_int_equal(got.ops[0].writeValue.value, 0x5A5A5A5Au);
    assert_int_equal(got.ops[0].writeValue.alias, 0);
    assert_null(got.ops_owner);

    CUstreamBatchMemOpParams next[1] = {write32(env->buf[3] + 12, 0xA5A5A5A5u)};
    cgn_batch_mem_op_update u = CGN_BATCH_MEM_OP_UPDATE_INIT;
    cgn_batch_mem_op_update_set_ops(&u, next, 1, NULL);
    OK(cgn_batch_mem_op_node_update(nodes[0], &u));
    cgn_exec *e;
    OK(cgn_graph_instantiate(g, &e));
    OK(env->backend->launch(env, e));
    assert_int_equal(read32(env, 3, 12), 0xA5A5A5A5u);

    /* Changed behind cgn's back, then refreshed. */
    next[0] = write32(env->buf[1], 7);
    CUgraphNodeParams p;
    memset(&p, 0, sizeof p);
    p.type = CU_GRAPH_NODE_TYPE_BATCH_MEM_OP;
    p.memOp.ctx = ctx;
    p.memOp.count = 1;
    p.memOp.paramArray = next;
    assert_int_equal(drv->cuGraphNodeSetParams(rn, &p), CUDA_SUCCESS);
    OK(cgn_node_refresh(nodes[0]));
    OK(cgn_batch_mem_op_node_get(nodes[0], &got));
    assert_int_equal(got.ops[0].writeValue.address, env->buf[1]);
    assert_int_equal(got.ops[0].writeValue.value, 7);
    OK(cgn_exec_destroy(e));
    OK(cgn_graph_destroy(g));
}

int main(void) {
#define T(fn) cmocka_unit_test_setup_teardown(fn, cgn_test_fixture_setup, cgn_test_fixture_teardown)
    const struct CMUnitTest tests[] = {
        T(test_memcpy_detects_memory_types),
        T(test_memcpy_queries_memory_type_only_for_new_operands),
        T(test_memcpy_memory_type_errors),
        T(test_memcpy_rejects_unsupported_descriptor),
        T(test_memcpy_form_check_only_when_reachable),
        T(test_memcpy_form_check_failure),
        T(test_host_payload_is_copied_and_owned),
        T(test_host_payload_lives_as_long_as_its_version),
        T(test_host_argument_rules),
        T(test_host_payload_add_failures_release_the_copy),
        T(test_event_nodes_reject_null_event),
        T(test_mem_alloc_rules_and_output),
        T(test_mem_free_rules),
        T(test_mem_nodes_graph_restrictions),
        T(test_memcpy_3d_operands),
        T(test_memcpy_3d_multidimensional_executable),
        T(test_batch_mem_ops_are_copied),
        T(test_batch_mem_op_messages),
        T(test_ext_sems_are_copied),
        T(test_batch_mem_op_wait_flush_bit_is_fixed),
        T(test_batch_mem_op_adopted),
    };
#undef T
    return cmocka_run_group_tests(tests, NULL, NULL);
}
