/* Messages and statuses that are part of cgn's contract (docs/errors.md), where the other unit
 * tests do not look: the driver loader against stand-in libcuda.so.1 builds (each case in a
 * forked child, since cgn loads the driver once per process), the driver version gates of
 * updates and of enabling, executable-level changes the driver refuses (the fields set, the
 * rules only the driver checks, the status), and node types in adopted graphs (nodes that run in
 * no context adopt with none current; CUDA-only nodes are named so), the node's context around
 * executable updates, the kernel grid rule, adoption order and limits, unsupported nodes in
 * embedded copies, and driver failures without cuGetErrorName. (Issue 8: test strength.) */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <dlfcn.h>
#include <sys/wait.h>
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

/* ---- the driver loader ----------------------------------------------------------------------- */

/* What a child saw; plain data, written back through a pipe. */
typedef struct loader_result {
    int loaded; /* the stub could be loaded by path (no stub: no libcuda.so.1 could be loaded) */
    char no_driver[256]; /* no stub: dlerror() of dlopen("libcuda.so.1") */
    cgn_status init, init_last, init_again, version_st, proc_old, proc_new;
    int version;
    int proc_old_found, proc_new_null;
    char init_message[512], init_again_message[512], version_message[512], proc_new_message[512];
} loader_result;

static void copy_message(char *to) {
    snprintf(to, 512, "%s", cgn_last_error());
}

/* In a fresh child: loads `stub` (its soname is libcuda.so.1, so cgn's dlopen finds it), then
 * asks cgn_init, cgn_init again (the result is kept), cgn_driver_version and cgn_driver_proc.
 * With no stub, the same where no libcuda.so.1 can be loaded at all (loaded says so). */
static void run_loader(const char *stub, loader_result *out) {
    int fds[2];
    assert_int_equal(pipe(fds), 0);
    fflush(stdout);
    fflush(stderr);
    pid_t pid = fork();
    assert_true(pid >= 0);
    if (pid == 0) {
        loader_result r;
        memset(&r, 0, sizeof r);
        close(fds[0]);
        if (stub != NULL) {
            r.loaded = dlopen(stub, RTLD_NOW | RTLD_GLOBAL) != NULL;
        } else {
            r.loaded = dlopen("libcuda.so.1", RTLD_NOW | RTLD_LOCAL) == NULL;
            if (r.loaded)
                snprintf(r.no_driver, sizeof r.no_driver, "%s", dlerror());
        }
        if (r.loaded) {
            cgn_driver_install(NULL); /* the real driver: the stub */
            r.init = cgn_init();
            r.init_last = cgn_last_status();
            copy_message(r.init_message);
            r.init_again = cgn_init();
            copy_message(r.init_again_message);
            r.version = -1;
            r.version_st = cgn_driver_version(&r.version);
            copy_message(r.version_message);
            void *pfn = NULL;
            r.proc_old = cgn_driver_proc("cuInit", 2000, &pfn);
            r.proc_old_found = pfn != NULL;
            pfn = &r; /* must come back NULL */
            r.proc_new = cgn_driver_proc("cuGraphCreate", 13000, &pfn);
            r.proc_new_null = pfn == NULL;
            copy_message(r.proc_new_message);
        }
        ssize_t w = write(fds[1], &r, sizeof r);
        _exit(w == (ssize_t)sizeof r ? 0 : 3);
    }
    close(fds[1]);
    size_t got = 0;
    while (got < sizeof *out) {
        ssize_t n = read(fds[0], (char *)out + got, sizeof *out - got);
        if (n <= 0)
            break;
        got += (size_t)n;
    }
    close(fds[0]);
    int status = 0;
    assert_int_equal(waitpid(pid, &status, 0), pid);
    if (!WIFEXITED(status) || WEXITSTATUS(status) != 0)
        fail_msg("the loader child for %s did not exit cleanly (wait status 0x%x)",
                 stub ? stub : "no driver", status);
    assert_int_equal(got, sizeof *out);
    if (stub == NULL && !out->loaded)
        skip(); /* this machine has a libcuda.so.1 */
    assert_true(out->loaded);
}

/* A failed load fails every call that needs the driver the same way, with the same message. */
static void assert_load_failed(const loader_result *r, cgn_status st, const char *message) {
    assert_int_equal(r->init, st);
    assert_int_equal(r->init_last, st);
    if (strcmp(r->init_message, message) != 0)
        fail_msg("message \"%s\", expected \"%s\"", r->init_message, message);
    assert_int_equal(r->init_again, st);
    assert_string_equal(r->init_again_message, message);
    assert_int_equal(r->version_st, st);
    assert_int_equal(r->version, -1);
    assert_string_equal(r->version_message, message);
    assert_int_equal(r->proc_old, st);
    assert_false(r->proc_old_found);
    assert_int_equal(r->proc_new, st);
    assert_true(r->proc_new_null);
}

/* No libcuda.so.1 at all: CGN_ERROR_NO_DRIVER, with the loader's reason (docs/errors.md). */
static void test_loader_no_driver(void **state) {
    (void)state;
    loader_result r;
    run_loader(NULL, &r);
    char want[512];
    snprintf(want, sizeof want,
             "the CUDA driver library libcuda.so.1 could not be loaded (%s); install the NVIDIA "
             "driver to run graphs",
             r.no_driver);
    assert_load_failed(&r, CGN_ERROR_NO_DRIVER, want);
}

/* The version as major.minor: a minor version of 9 is 9 (the version is 1000*major + 10*minor). */
static void test_loader_minor_version_nine(void **state) {
    (void)state;
    loader_result r;
    run_loader(CGN_STUB_MINOR_NINE, &r);
    assert_load_failed(&r, CGN_ERROR_DRIVER_TOO_OLD,
                       "cgn needs CUDA driver 12.0 or newer; this driver is 11.9, which lacks "
                       "cuGraphAddKernelNode");
}

/* 11.8 lacks entry points cgn needs: the first is named (docs/errors.md, example old_driver). */
static void test_loader_driver_too_old(void **state) {
    (void)state;
    loader_result r;
    run_loader(CGN_STUB_OLD_DRIVER, &r);
    assert_load_failed(&r, CGN_ERROR_DRIVER_TOO_OLD,
                       "cgn needs CUDA driver 12.0 or newer; this driver is 11.8, which lacks "
                       "cuGraphAddKernelNode");
}

/* A driver before 12.0 without cuGetProcAddress_v2 (11.3 to 11.8 export only the first
 * cuGetProcAddress) is refused on the missing symbol, before anything is called through it
 * (seed-14 spot check: without the check cgn called through NULL). */
static void test_loader_without_get_proc_address_v2(void **state) {
    (void)state;
    loader_result r;
    run_loader(CGN_STUB_NO_PROC, &r);
    assert_load_failed(&r, CGN_ERROR_DRIVER_TOO_OLD,
                       "cgn needs CUDA driver 12.0 or newer; this libcuda.so.1 has no "
                       "cuGetProcAddress_v2");
}

/* A driver older than 12.0 is refused by its version alone, even one that resolves every
 * entry point; the message gives the version as major.minor. */
static void test_loader_version_gate(void **state) {
    (void)state;
    loader_result r;
    run_loader(CGN_STUB_OLD_VERSION, &r);
    assert_load_failed(&r, CGN_ERROR_DRIVER_TOO_OLD,
                       "cgn needs CUDA driver 12.0 or newer; this driver is 11.0");
}

/* cuInit(0) returning CUDA_ERROR_NO_DEVICE (docs/errors.md, example no_device). */
static void test_loader_no_device(void **state) {
    (void)state;
    loader_result r;
    run_loader(CGN_STUB_NO_DEVICE, &r);
    assert_load_failed(&r, CGN_ERROR_NO_DEVICE,
                       "the CUDA driver is installed but found no device (cuInit returned "
                       "CUDA_ERROR_NO_DEVICE)");
}

/* cuInit(0) failing otherwise is CGN_ERROR_DRIVER, naming the result. */
static void test_loader_init_fails(void **state) {
    (void)state;
    loader_result r;
    run_loader(CGN_STUB_INIT_ERROR, &r);
    assert_load_failed(&r, CGN_ERROR_DRIVER, "cuInit(0) returned CUDA_ERROR_UNKNOWN (999)");
}

/* ... and a result the driver cannot name (cuGetErrorName refuses it) is still reported, by
 * number. */
static void test_loader_init_fails_unnamed(void **state) {
    (void)state;
    loader_result r;
    run_loader(CGN_STUB_INIT_UNNAMED, &r);
    assert_load_failed(&r, CGN_ERROR_DRIVER, "cuInit(0) returned an unknown error (12345)");
}

/* An entry point the driver returns an error for is missing, even if the driver also reports it
 * found and gives an address: here cuGetErrorName, which cgn needs, so the load fails. */
static void test_loader_proc_error(void **state) {
    (void)state;
    loader_result r;
    run_loader(CGN_STUB_PROC_ERROR, &r);
    assert_load_failed(&r, CGN_ERROR_DRIVER_TOO_OLD,
                       "cgn needs CUDA driver 12.0 or newer; this driver is 12.8, which lacks "
                       "cuGetErrorName");
}

/* A 12.8 driver loads: cgn_init succeeds, the version is the driver's, and cgn_driver_proc
 * resolves what the driver has at the requested ABI version and refuses what it has not. */
static void test_loader_working_driver(void **state) {
    (void)state;
    loader_result r;
    run_loader(CGN_STUB_WORKING, &r);
    assert_int_equal(r.init, CGN_OK);
    assert_int_equal(r.init_again, CGN_OK);
    assert_int_equal(r.version_st, CGN_OK);
    assert_int_equal(r.version, 12080);
    assert_int_equal(r.proc_old, CGN_OK);
    assert_true(r.proc_old_found);
    assert_int_equal(r.proc_new, CGN_ERROR_DRIVER_TOO_OLD);
    assert_true(r.proc_new_null);
    assert_string_equal(r.proc_new_message,
                        "cgn_driver_proc: the driver (12.8) has no cuGraphCreate at CUDA version "
                        "13000");
}

/* ---- version gates --------------------------------------------------------------------------- */

/* Updates need 12.2 at both levels, enabling needs 11.6: older drivers are refused before
 * anything changes, with both versions as major.minor (docs/errors.md, example update_gate). */
static void test_version_gates(void **state) {
    cgn_test_env *env = *state;
    cgn_graph *g;
    cgn_node *n;
    cgn_exec *e;
    cgn_test_fill_graph(env, &g, &n, &e);
    cgn_memset_update u = CGN_MEMSET_UPDATE_INIT;
    cgn_memset_update_set_width(&u, 4);

    cgn_fault_set_version(12010); /* as a real 12.1: the 12.2 entry points are missing */
    assert_int_equal(cgn_memset_node_update(n, &u), CGN_ERROR_DRIVER_TOO_OLD);
    cgn_test_assert_message(
        "graph node updates need CUDA driver 12.2 or newer; this driver is 12.1");
    assert_int_equal(cgn_memset_exec_update(e, n, &u), CGN_ERROR_DRIVER_TOO_OLD);
    cgn_test_assert_message(
        "executable node updates need CUDA driver 12.2 or newer; this driver is 12.1");
    cgn_fault_set_version(11050);
    assert_int_equal(cgn_exec_node_set_enabled(e, n, 0), CGN_ERROR_DRIVER_TOO_OLD);
    cgn_test_assert_message(
        "enabling and disabling nodes need CUDA driver 11.6 or newer; this driver is "
        "11.5");
    int enabled = -1;
    assert_int_equal(cgn_exec_node_get_enabled(e, n, &enabled), CGN_ERROR_DRIVER_TOO_OLD);
    cgn_fault_set_version(13000);

    /* The version alone is gated: a table reporting 12.1 that has the entry points anyway. */
    static cgn_driver_table old;
    old = *cgn_fake_table();
    assert_non_null(old.cuGraphNodeSetParams);
    assert_non_null(old.cuGraphExecNodeSetParams);
    old.version = 12010;
    cgn_driver_install(&old);
    assert_int_equal(cgn_memset_node_update(n, &u), CGN_ERROR_DRIVER_TOO_OLD);
    cgn_test_assert_message(
        "graph node updates need CUDA driver 12.2 or newer; this driver is 12.1");
    assert_int_equal(cgn_memset_exec_update(e, n, &u), CGN_ERROR_DRIVER_TOO_OLD);
    cgn_test_assert_message(
        "executable node updates need CUDA driver 12.2 or newer; this driver is 12.1");
    old.version = 12020; /* and 12.2 is enough */
    OK(cgn_memset_node_update(n, &u));
    OK(cgn_memset_exec_update(e, n, &u));
    cgn_fault_install(env->backend->driver(env));

    /* Nothing changed while refused; the updates made at 12.2 did. */
    cgn_memset_desc got;
    OK(cgn_memset_node_get(n, &got));
    assert_int_equal(got.width, 4);
    OK(cgn_memset_exec_get(e, n, &got));
    assert_int_equal(got.width, 4);
    OK(cgn_exec_node_get_enabled(e, n, &enabled));
    assert_int_equal(enabled, 1);
    OK(cgn_exec_destroy(e));
    OK(cgn_graph_destroy(g));
}

/* ---- executable-level changes the driver refuses ------------------------------------------- */

/* Makes the call fail at its cuGraphExecNodeSetParams with `result` (arming each driver call in
 * turn until that one is hit); returns the call's status. */
#define REFUSE_EXEC_SET(result, call_expr, st_out)                                                 \
    do {                                                                                           \
        int hit_ = 0;                                                                              \
        for (long k_ = 1; k_ < 64 && !hit_; k_++) {                                                \
            cgn_fault_arm(k_, (result));                                                           \
            (st_out) = (call_expr);                                                                \
            cgn_fault_disarm();                                                                    \
            cgn_fault_entry entry_;                                                                \
            if (!cgn_fault_triggered(&entry_))                                                     \
                fail_msg("%s made no cuGraphExecNodeSetParams call", #call_expr);                 \
            hit_ = cgn_fault_is_setter(entry_);                                   \
        }                                                                                          \
        assert_true(hit_);                                                                         \
    } while (0)

/* A kernel moving to a CUfunction of another context: the driver refuses with
 * CUDA_ERROR_INVALID_VALUE; the message lists the fields set and the rule only the driver
 * checks, and the status is CGN_ERROR_INVALID_VALUE (docs/errors.md, example driver_rule). */
static void test_exec_refused_names_driver_rule(void **state) {
    cgn_test_env *env = *state;
    cgn_graph *g;
    cgn_node *n;
    cgn_exec *e;
    OK(cgn_graph_create(&g));
    cgn_kernel_desc kd = CGN_KERNEL_DESC_INIT;
    kd.kernel = env->backend->kernel(env, "add_one");
    kd.grid = kd.block = CGN_DIM3(1, 1, 1);
    cgn_arg args[1] = {CGN_ARG(env->buf[0])};
    kd.args = args;
    kd.num_args = 1;
    OK(cgn_graph_add_kernel(g, NULL, 0, &kd, &n));
    OK(cgn_graph_instantiate(g, &e));
    cgn_kernel_update ku = CGN_KERNEL_UPDATE_INIT;
    cgn_kernel_update_set_kernel(&ku, env->backend->foreign_kernel(env, "add_one"), NULL, args, 1);
    assert_int_equal(cgn_kernel_exec_update(e, n, &ku), CGN_ERROR_INVALID_VALUE);
    assert_int_equal(cgn_last_status(), CGN_ERROR_INVALID_VALUE);
    cgn_test_assert_message(
        "cgn_kernel_exec_update: cuGraphExecKernelNodeSetParams returned "
        "CUDA_ERROR_INVALID_VALUE (1); the driver refused this change in the executable "
        "(fields set: kernel kernel_owner args); rules only the driver checks: field "
        "kernel: rule: an executable's kernel node cannot move to another context (a "
        "CUfunction owned by another context, or a function that newly uses dynamic "
        "parallelism or device-side graph launch); nothing changed");
    cgn_kernel_desc got;
    OK(cgn_kernel_exec_get(e, n, &got));
    assert_memory_equal(&got.kernel, &kd.kernel, sizeof kd.kernel);
    OK(cgn_exec_destroy(e));
    OK(cgn_graph_destroy(g));
}

/* Two fields with rules only the driver checks, both named, in field order, after the fields
 * set (the refusal injected: CUDA_ERROR_INVALID_VALUE from cuGraphExecNodeSetParams). Fields
 * without such a rule, refused the same way: only the fields are listed and the status stays
 * CGN_ERROR_DRIVER, as no rule explains the refusal. */
static void test_exec_refused_lists_fields_and_rules(void **state) {
    cgn_test_env *env = *state;
    cgn_graph *g;
    cgn_node *n;
    cgn_exec *e;
    cgn_test_fill_graph(env, &g, &n, &e);
    cgn_status st = CGN_OK;

    cgn_memset_update both = CGN_MEMSET_UPDATE_INIT;
    cgn_memset_update_set_dst(&both, env->buf[1], env->owner[1]);
    cgn_memset_update_set_width(&both, 4);
    REFUSE_EXEC_SET(CUDA_ERROR_INVALID_VALUE, cgn_memset_exec_update(e, n, &both), st);
    assert_int_equal(st, CGN_ERROR_INVALID_VALUE);
    assert_int_equal(cgn_last_status(), CGN_ERROR_INVALID_VALUE);
    cgn_test_assert_message(
        "cgn_memset_exec_update: cuGraphExecMemsetNodeSetParams returned "
        "CUDA_ERROR_INVALID_VALUE (1); the driver refused this change in the executable "
        "(fields set: dst dst_owner width); rules only the driver checks: field dst: "
        "rule: an executable's memset writes memory of the context it was instantiated "
        "with; field width: rule: a 1-D memset may change its width only while it fits "
        "the work the executable set up for it; nothing changed");

    cgn_memset_update one = CGN_MEMSET_UPDATE_INIT;
    cgn_memset_update_set_width(&one, 4);
    REFUSE_EXEC_SET(CUDA_ERROR_INVALID_VALUE, cgn_memset_exec_update(e, n, &one), st);
    assert_int_equal(st, CGN_ERROR_INVALID_VALUE);
    cgn_test_assert_message(
        "cgn_memset_exec_update: cuGraphExecMemsetNodeSetParams returned "
        "CUDA_ERROR_INVALID_VALUE (1); the driver refused this change in the executable "
        "(fields set: width); rules only the driver checks: field width: rule: a 1-D "
        "memset may change its width only while it fits the work the executable set up "
        "for it; nothing changed");

    cgn_memset_update value = CGN_MEMSET_UPDATE_INIT;
    cgn_memset_update_set_value(&value, 0x22, 1);
    REFUSE_EXEC_SET(CUDA_ERROR_INVALID_VALUE, cgn_memset_exec_update(e, n, &value), st);
    assert_int_equal(st, CGN_ERROR_DRIVER);
    assert_int_equal(cgn_last_status(), CGN_ERROR_DRIVER);
    cgn_test_assert_message(
        "cgn_memset_exec_update: cuGraphExecMemsetNodeSetParams returned "
        "CUDA_ERROR_INVALID_VALUE (1); the driver refused this change in the executable "
        "(fields set: value element_size); nothing changed");

    cgn_memset_desc got;
    OK(cgn_memset_exec_get(e, n, &got));
    assert_int_equal(got.dst, env->buf[0]);
    assert_int_equal(got.width, 8);
    assert_int_equal(got.value, 0x11);
    OK(cgn_exec_destroy(e));
    OK(cgn_graph_destroy(g));
}

/* An event record node's event destroyed meanwhile: the driver refuses the change for a reason
 * no rule names, so the status is CGN_ERROR_DRIVER (docs/errors.md, example exec_refused). */
static void test_exec_refused_without_rule(void **state) {
    (void)state;
    cgn_graph *g;
    cgn_node *n;
    cgn_exec *e;
    OK(cgn_graph_create(&g));
    CUevent ev = cgn_fake_event_create(), dead = cgn_fake_event_create();
    assert_non_null(ev);
    assert_non_null(dead);
    cgn_event_record_desc rd = CGN_EVENT_RECORD_DESC_INIT;
    rd.event = ev;
    OK(cgn_graph_add_event_record(g, NULL, 0, &rd, &n));
    OK(cgn_graph_instantiate(g, &e));
    CU_OK(drv()->cuEventDestroy(dead));
    cgn_event_record_update eu = CGN_EVENT_RECORD_UPDATE_INIT;
    cgn_event_record_update_set_event(&eu, dead, NULL);
    assert_int_equal(cgn_event_record_exec_update(e, n, &eu), CGN_ERROR_DRIVER);
    assert_int_equal(cgn_last_status(), CGN_ERROR_DRIVER);
    cgn_test_assert_message(
        "cgn_event_record_exec_update: cuGraphExecEventRecordNodeSetEvent returned "
        "CUDA_ERROR_INVALID_VALUE (1); the driver refused this change in the executable "
        "(fields set: event event_owner); nothing changed");
    cgn_event_record_desc got;
    OK(cgn_event_record_exec_get(e, n, &got));
    assert_ptr_equal(got.event, ev);
    OK(cgn_exec_destroy(e));
    OK(cgn_graph_destroy(g));
    CU_OK(drv()->cuEventDestroy(ev));
}

/* ---- adopted node types ---------------------------------------------------------------------- */

static cgn_node *find(cgn_graph *g, CUgraphNode raw) {
    cgn_node *nodes[8];
    size_t n = 8;
    OK(cgn_graph_nodes(g, nodes, &n));
    for (size_t i = 0; i < n; i++) {
        CUgraphNode r;
        OK(cgn_node_raw(nodes[i], &r));
        if (r == raw)
            return nodes[i];
    }
    fail_msg("raw node %p not adopted", (void *)raw);
    return NULL;
}

/* Child graph and event nodes run in no context: they adopt with none current (docs/adopt.md:
 * only kernel, memset and memcpy nodes need one), and update afterwards. */
static void test_adopt_contextless_nodes_without_context(void **state) {
    cgn_test_env *env = *state;
    CUgraph raw, child;
    CU_OK(drv()->cuGraphCreate(&raw, 0));
    CU_OK(drv()->cuGraphCreate(&child, 0));
    CUgraphNode empty, embed, wait, record;
    CU_OK(drv()->cuGraphAddEmptyNode(&empty, child, NULL, 0));
    CU_OK(drv()->cuGraphAddChildGraphNode(&embed, raw, NULL, 0, child));
    CU_OK(drv()->cuGraphAddEventWaitNode(&wait, raw, &embed, 1, env->event[0]));
    CU_OK(drv()->cuGraphAddEventRecordNode(&record, raw, &wait, 1, env->event[1]));
    CU_OK(drv()->cuGraphDestroy(child)); /* the node holds its own copy */
    env->backend->set_context(env, CGN_TEST_CTX_NONE);
    cgn_graph *g;
    OK(cgn_graph_adopt(raw, CGN_ADOPT_TAKE_OWNERSHIP, &g));
    cgn_node_type t;
    OK(cgn_node_type_of(find(g, embed), &t));
    assert_int_equal(t, CGN_NODE_CHILD_GRAPH);
    OK(cgn_node_type_of(find(g, wait), &t));
    assert_int_equal(t, CGN_NODE_EVENT_WAIT);
    OK(cgn_node_type_of(find(g, record), &t));
    assert_int_equal(t, CGN_NODE_EVENT_RECORD);
    cgn_event_wait_update wu = CGN_EVENT_WAIT_UPDATE_INIT;
    cgn_event_wait_update_set_event(&wu, env->event[1], NULL);
    OK(cgn_event_wait_node_update(find(g, wait), &wu));
    cgn_event_wait_desc wd;
    OK(cgn_event_wait_node_get(find(g, wait), &wd));
    assert_ptr_equal(wd.event, env->event[1]);
    env->backend->set_context(env, CGN_TEST_CTX_OWN);
    OK(cgn_graph_destroy(g));
}

/* A node of a type cgn does not build is a "CUDA-only" node in messages. */
static void test_cuda_only_node_named(void **state) {
    (void)state;
    if (drv()->cuGraphAddNode == NULL)
        skip();
    CUgraph raw;
    CU_OK(drv()->cuGraphCreate(&raw, 0));
    /* A type cgn does not build: one of a newer driver, which the fake makes on request. */
    CUgraphNodeParams p;
    memset(&p, 0, sizeof p);
    p.type = CGN_FAKE_FOREIGN_NODE_TYPE;
    CUgraphNode signal;
    CU_OK(drv()->cuGraphAddNode(&signal, raw, NULL, 0, &p));
    cgn_graph *g;
    OK(cgn_graph_adopt(raw, CGN_ADOPT_TAKE_OWNERSHIP, &g));
    cgn_exec *e;
    OK(cgn_graph_instantiate(g, &e));
    cgn_node *a = find(g, signal);
    assert_int_equal(cgn_exec_node_set_enabled(e, a, 0), CGN_ERROR_NOT_SUPPORTED);
    char want[256];
    snprintf(want, sizeof want,
             "cgn_exec_node_set_enabled: node %p is a CUDA-only node; CUDA enables and disables "
             "kernel, memset and memcpy nodes only",
             (void *)a);
    cgn_test_assert_message(want);
    OK(cgn_exec_destroy(e));
    OK(cgn_graph_destroy(g));
}

/* ---- the context of executable updates ------------------------------------------------------ */

/* The driver table in use, with cuGraphExecNodeSetParams recording the context current when it
 * is called. */
static cgn_driver_table recording_table;
static CUresult (*inner_exec_set)(CUgraphExec, CUgraphNode, CUgraphNodeParams *);
static CUresult (*inner_get_current)(CUcontext *);
static CUcontext ctx_at_exec_set;
static int exec_set_calls;

static CUresult recording_exec_set(CUgraphExec exec, CUgraphNode node, CUgraphNodeParams *p) {
    ctx_at_exec_set = (CUcontext)(uintptr_t)1; /* not a context: a failed query shows */
    (void)inner_get_current(&ctx_at_exec_set);
    exec_set_calls++;
    return inner_exec_set(exec, node, p);
}

/* The same for the event wait node's typed setter (spec: cuda.exec_set). */
static CUresult (*inner_wait_exec_set)(CUgraphExec, CUgraphNode, CUevent);

static CUresult recording_wait_exec_set(CUgraphExec exec, CUgraphNode node, CUevent ev) {
    ctx_at_exec_set = (CUcontext)(uintptr_t)1;
    (void)inner_get_current(&ctx_at_exec_set);
    exec_set_calls++;
    return inner_wait_exec_set(exec, node, ev);
}

/* Child graph nodes of an executable are updated with the node's context (the one current at
 * add) current, whatever the caller has current (none or another), and the caller's is left as
 * found (docs/design.md, docs/adopt.md "Context"); event wait nodes too on drivers before 13.0,
 * and from 13.0 on (spec: context_free_from) in whatever context the caller has. */
static void test_exec_update_runs_in_node_context(void **state) {
    cgn_test_env *env = *state;
    CUcontext own = NULL;
    CU_OK(drv()->cuCtxGetCurrent(&own));
    assert_non_null(own);
    cgn_graph *g, *src[2];
    cgn_node *child, *wait, *empty;
    cgn_exec *e;
    OK(cgn_graph_create(&g));
    for (int i = 0; i < 2; i++) {
        OK(cgn_graph_create(&src[i]));
        OK(cgn_graph_add_empty(src[i], NULL, 0, &empty));
    }
    cgn_child_graph_desc cd = CGN_CHILD_GRAPH_DESC_INIT;
    cd.graph = src[0];
    OK(cgn_graph_add_child_graph(g, NULL, 0, &cd, &child));
    cgn_event_wait_desc wd = CGN_EVENT_WAIT_DESC_INIT;
    wd.event = env->event[0];
    OK(cgn_graph_add_event_wait(g, &child, 1, &wd, &wait));
    OK(cgn_graph_instantiate(g, &e));

    recording_table = *drv();
    inner_exec_set = recording_table.cuGraphExecNodeSetParams;
    inner_get_current = recording_table.cuCtxGetCurrent;
    recording_table.cuGraphExecNodeSetParams = recording_exec_set;
    inner_wait_exec_set = recording_table.cuGraphExecEventWaitNodeSetEvent;
    recording_table.cuGraphExecEventWaitNodeSetEvent = recording_wait_exec_set;
    const int callers[] = {CGN_TEST_CTX_NONE, CGN_TEST_CTX_FOREIGN};
    for (int i = 0; i < 4; i++) {
        recording_table.version = i < 2 ? 12080 : 13000;
        cgn_driver_install(&recording_table);
        env->backend->set_context(env, callers[i % 2]);
        exec_set_calls = 0;
        ctx_at_exec_set = NULL;
        cgn_event_wait_update wu = CGN_EVENT_WAIT_UPDATE_INIT;
        cgn_event_wait_update_set_event(&wu, env->event[i % 2 ? 0 : 1], NULL);
        OK(cgn_event_wait_exec_update(e, wait, &wu));
        assert_int_equal(exec_set_calls, 1);
        if (i < 2)
            assert_ptr_equal(ctx_at_exec_set, own);
        else
            assert_true(ctx_at_exec_set != own && ctx_at_exec_set != (CUcontext)(uintptr_t)1);
        assert_int_equal(env->backend->current_context(env), callers[i % 2]);

        exec_set_calls = 0;
        ctx_at_exec_set = NULL;
        cgn_child_graph_update cu = CGN_CHILD_GRAPH_UPDATE_INIT;
        cgn_child_graph_update_set_graph(&cu, src[i % 2 ? 0 : 1]);
        OK(cgn_child_graph_exec_update(e, child, &cu));
        assert_int_equal(exec_set_calls, 1);
        assert_ptr_equal(ctx_at_exec_set, own);
        assert_int_equal(env->backend->current_context(env), callers[i % 2]);
    }
    env->backend->set_context(env, CGN_TEST_CTX_OWN);
    cgn_fault_install(env->backend->driver(env));

    cgn_event_wait_desc wgot;
    OK(cgn_event_wait_exec_get(e, wait, &wgot));
    assert_ptr_equal(wgot.event, env->event[0]);
    cgn_child_graph_desc cgot;
    OK(cgn_child_graph_exec_get(e, child, &cgot));
    assert_ptr_equal(cgot.graph, src[0]);
    OK(cgn_exec_destroy(e));
    OK(cgn_graph_destroy(g));
    for (int i = 0; i < 2; i++)
        OK(cgn_graph_destroy(src[i]));
}

/* ---- field rules ----------------------------------------------------------------------------- */

/* A grid of depth 0 is refused by cgn, before the driver, like a zero width or height. */
static void test_kernel_grid_depth_zero(void **state) {
    cgn_test_env *env = *state;
    cgn_graph *g;
    cgn_node *n = NULL;
    OK(cgn_graph_create(&g));
    cgn_kernel_desc kd = CGN_KERNEL_DESC_INIT;
    kd.kernel = env->backend->kernel(env, "add_one");
    kd.grid = CGN_DIM3(2, 3, 0);
    kd.block = CGN_DIM3(1, 1, 1);
    cgn_arg args[1] = {CGN_ARG(env->buf[0])};
    kd.args = args;
    kd.num_args = 1;
    assert_int_equal(cgn_graph_add_kernel(g, NULL, 0, &kd, &n), CGN_ERROR_INVALID_VALUE);
    assert_int_equal(cgn_last_status(), CGN_ERROR_INVALID_VALUE);
    cgn_test_assert_message(
        "cgn_graph_add_kernel: grid dimensions must be at least 1, not (2, 3, 0)");
    assert_null(n);
    CUgraph raw;
    OK(cgn_graph_raw(g, &raw));
    assert_int_equal(cgn_fake_graph_node_count(raw), 0);
    OK(cgn_graph_destroy(g));
}

/* ---- adoption -------------------------------------------------------------------------------- */

/* Nodes with no dependencies keep the order cuGraphGetNodes lists them in (docs/adopt.md
 * "Order"); five of them: with four left to pick from, the last is a second choice too. */
static void test_adopt_independent_nodes_keep_listing_order(void **state) {
    (void)state;
    enum { N = 5 };
    CUgraph raw;
    CU_OK(drv()->cuGraphCreate(&raw, 0));
    for (int i = 0; i < N; i++) {
        CUgraphNode node;
        CU_OK(drv()->cuGraphAddEmptyNode(&node, raw, NULL, 0));
    }
    CUgraphNode listed[N];
    size_t num = N;
    CU_OK(drv()->cuGraphGetNodes(raw, listed, &num));
    assert_int_equal(num, N);
    cgn_graph *g;
    OK(cgn_graph_adopt(raw, CGN_ADOPT_TAKE_OWNERSHIP, &g));
    cgn_node *nodes[N];
    size_t count = N;
    OK(cgn_graph_nodes(g, nodes, &count));
    assert_int_equal(count, N);
    for (size_t i = 0; i < N; i++) {
        CUgraphNode r;
        OK(cgn_node_raw(nodes[i], &r));
        size_t at = 0;
        while (at < N && listed[at] != r)
            at++;
        if (at != i)
            fail_msg("node %zu of the adopted graph is listed %zu", i, at);
    }
    OK(cgn_graph_destroy(g));
}

/* The driver's cuGraphGetNodes, reporting more nodes than any listing could hold. */
static CUresult (*inner_get_nodes)(CUgraph, CUgraphNode *, size_t *);
static size_t huge_count;
static CUresult huge_get_nodes(CUgraph g, CUgraphNode *nodes, size_t *n) {
    if (nodes == NULL) {
        *n = huge_count;
        return CUDA_SUCCESS;
    }
    return inner_get_nodes(g, nodes, n);
}

/* A node count too large for cgn's listing arrays is refused before allocating anything, with
 * CGN_ERROR_OUT_OF_MEMORY naming the count; the graph stays the caller's, untouched. */
static void test_adopt_node_count_too_large(void **state) {
    cgn_test_env *env = *state;
    CUgraph raw;
    CU_OK(drv()->cuGraphCreate(&raw, 0));
    CUgraphNode node;
    CU_OK(drv()->cuGraphAddEmptyNode(&node, raw, NULL, 0));
    recording_table = *drv();
    inner_get_nodes = recording_table.cuGraphGetNodes;
    recording_table.cuGraphGetNodes = huge_get_nodes;
    cgn_driver_install(&recording_table);
    /* The smallest count cgn's four size_t per node cannot address. */
    huge_count = SIZE_MAX / 4 / sizeof(size_t) + 1;
    cgn_graph *g = NULL;
    assert_int_equal(cgn_graph_adopt(raw, CGN_ADOPT_TAKE_OWNERSHIP, &g), CGN_ERROR_OUT_OF_MEMORY);
    char want[128];
    snprintf(want, sizeof want, "cgn_graph_adopt: %zu nodes do not fit in memory", huge_count);
    cgn_test_assert_message(want);
    assert_null(g);
    cgn_fault_install(env->backend->driver(env));
    assert_int_equal(cgn_fake_graph_node_count(raw), 1);
    OK(cgn_graph_adopt(raw, CGN_ADOPT_TAKE_OWNERSHIP, &g));
    OK(cgn_graph_destroy(g));
}

/* A node cgn cannot update stays so in the copy a child graph node embeds: the copy is refused
 * for the same reason as its source. */
static void test_embedded_copy_of_unsupported_node(void **state) {
    cgn_test_env *env = *state;
    CUgraph raw;
    CU_OK(drv()->cuGraphCreate(&raw, 0));
    CUDA_MEMCPY3D unified;
    memset(&unified, 0, sizeof unified);
    unified.srcMemoryType = unified.dstMemoryType = CU_MEMORYTYPE_DEVICE;
    unified.srcDevice = env->buf[0];
    unified.dstDevice = env->buf[1];
    unified.WidthInBytes = 4;
    unified.Height = 1;
    unified.Depth = 1;
    unified.srcMemoryType = CU_MEMORYTYPE_UNIFIED; /* neither memcpy nor memcpy_3d updates it */
    CUcontext own = NULL;
    CU_OK(drv()->cuCtxGetCurrent(&own));
    CUgraphNode copy;
    CU_OK(drv()->cuGraphAddMemcpyNode(&copy, raw, NULL, 0, &unified, own));
    cgn_graph *src;
    OK(cgn_graph_adopt(raw, CGN_ADOPT_TAKE_OWNERSHIP, &src));
    cgn_node *c = find(src, copy);
    assert_int_equal(cgn_node_check_updatable(c), CGN_ERROR_NOT_SUPPORTED);
    char want[512];
    const char *why = "a memcpy node of a memory type other than host or device "
                      "(CU_MEMORYTYPE_UNIFIED, as cudaMemcpyDefault captures); cgn updates plain "
                      "1-D copies between host and device memory";
    snprintf(want, sizeof want,
             "cgn_node_check_updatable: node %p cannot be updated by cgn: it is %s", (void *)c,
             why);
    cgn_test_assert_message(want);

    cgn_graph *g;
    cgn_node *child, *embedded;
    OK(cgn_graph_create(&g));
    cgn_child_graph_desc cd = CGN_CHILD_GRAPH_DESC_INIT;
    cd.graph = src;
    OK(cgn_graph_add_child_graph(g, NULL, 0, &cd, &child));
    OK(cgn_child_graph_node_find(child, c, &embedded));
    assert_ptr_not_equal(embedded, c);
    assert_int_equal(cgn_node_check_updatable(embedded), CGN_ERROR_NOT_SUPPORTED);
    snprintf(want, sizeof want,
             "cgn_node_check_updatable: node %p cannot be updated by cgn: it is %s",
             (void *)embedded, why);
    cgn_test_assert_message(want);
    cgn_memcpy_update u = CGN_MEMCPY_UPDATE_INIT;
    cgn_memcpy_update_set_size(&u, 2);
    assert_int_equal(cgn_memcpy_node_update(embedded, &u), CGN_ERROR_NOT_SUPPORTED);
    OK(cgn_graph_destroy(g));
    OK(cgn_graph_destroy(src));
}

/* ---- driver error names ---------------------------------------------------------------------- */

/* A driver table without cuGetErrorName: failures still report, naming the CUresult "an
 * unknown CUresult" with its number. */
static void test_driver_failure_without_error_names(void **state) {
    cgn_test_env *env = *state;
    cgn_graph *g;
    cgn_node *n;
    cgn_exec *e;
    OK(cgn_graph_create(&g));
    CUevent ev = cgn_fake_event_create(), dead = cgn_fake_event_create();
    assert_non_null(ev);
    assert_non_null(dead);
    cgn_event_record_desc rd = CGN_EVENT_RECORD_DESC_INIT;
    rd.event = ev;
    OK(cgn_graph_add_event_record(g, NULL, 0, &rd, &n));
    OK(cgn_graph_instantiate(g, &e));
    CU_OK(drv()->cuEventDestroy(dead));
    recording_table = *drv();
    recording_table.cuGetErrorName = NULL;
    cgn_driver_install(&recording_table);
    cgn_event_record_update eu = CGN_EVENT_RECORD_UPDATE_INIT;
    cgn_event_record_update_set_event(&eu, dead, NULL);
    assert_int_equal(cgn_event_record_exec_update(e, n, &eu), CGN_ERROR_DRIVER);
    cgn_test_assert_message(
        "cgn_event_record_exec_update: cuGraphExecEventRecordNodeSetEvent returned "
        "an unknown CUresult (1); the driver refused this change in the executable "
        "(fields set: event event_owner); nothing changed");
    cgn_fault_install(env->backend->driver(env));
    OK(cgn_exec_destroy(e));
    OK(cgn_graph_destroy(g));
    CU_OK(drv()->cuEventDestroy(ev));
}

/* ---- survivors of mutation sample seed 5 ------------------------------------------------------ */

static void noop_host_fn(void *user_data) {
    (void)user_data;
}

/* Host callback updates are gated at exactly 12.2: a table reporting 12.1 is refused, one
 * reporting 12.2 is accepted (node and executable level). */
static void test_host_callback_gate_at_12_2(void **state) {
    cgn_test_env *env = *state;
    cgn_graph *g;
    cgn_node *n;
    cgn_exec *e;
    OK(cgn_graph_create(&g));
    cgn_host_callback_desc d = CGN_HOST_CALLBACK_DESC_INIT;
    d.fn = noop_host_fn;
    OK(cgn_graph_add_host_callback(g, NULL, 0, &d, &n));
    OK(cgn_graph_instantiate(g, &e));
    int marker = 0;
    cgn_host_callback_update u = CGN_HOST_CALLBACK_UPDATE_INIT;
    cgn_host_callback_update_set_fn(&u, noop_host_fn, &marker, NULL, NULL, 0);
    static cgn_driver_table old;
    old = *cgn_fake_table();
    old.version = 12010;
    cgn_driver_install(&old);
    assert_int_equal(cgn_host_callback_node_update(n, &u), CGN_ERROR_DRIVER_TOO_OLD);
    cgn_test_assert_message(
        "graph node updates need CUDA driver 12.2 or newer; this driver is 12.1");
    assert_int_equal(cgn_host_callback_exec_update(e, n, &u), CGN_ERROR_DRIVER_TOO_OLD);
    cgn_test_assert_message(
        "executable node updates need CUDA driver 12.2 or newer; this driver is 12.1");
    old.version = 12020;
    OK(cgn_host_callback_node_update(n, &u));
    OK(cgn_host_callback_exec_update(e, n, &u));
    cgn_fault_install(env->backend->driver(env));
    cgn_host_callback_desc got;
    OK(cgn_host_callback_node_get(n, &got));
    assert_ptr_equal(got.user_data, &marker);
    OK(cgn_host_callback_exec_get(e, n, &got));
    assert_ptr_equal(got.user_data, &marker);
    OK(cgn_exec_destroy(e));
    OK(cgn_graph_destroy(g));
}

/* A host node runs in no context: adopting it with none current succeeds. */
static void test_adopt_host_node_without_context(void **state) {
    cgn_test_env *env = *state;
    CUgraph raw;
    CU_OK(drv()->cuGraphCreate(&raw, 0));
    CUDA_HOST_NODE_PARAMS hp;
    memset(&hp, 0, sizeof hp);
    hp.fn = noop_host_fn;
    CUgraphNode host;
    CU_OK(drv()->cuGraphAddHostNode(&host, raw, NULL, 0, &hp));
    env->backend->set_context(env, CGN_TEST_CTX_NONE);
    cgn_graph *g = NULL;
    cgn_status st = cgn_graph_adopt(raw, CGN_ADOPT_TAKE_OWNERSHIP, &g);
    env->backend->set_context(env, CGN_TEST_CTX_OWN);
    OK(st);
    cgn_node_type t;
    OK(cgn_node_type_of(find(g, host), &t));
    assert_int_equal(t, CGN_NODE_HOST);
    cgn_host_callback_desc got;
    OK(cgn_host_callback_node_get(find(g, host), &got));
    assert_ptr_equal(got.fn, noop_host_fn);
    OK(cgn_graph_destroy(g));
}

/* A refresh keeps the owner of a host callback whose fn and user_data did not change. */
static void test_refresh_keeps_host_callback_owner(void **state) {
    cgn_test_env *env = *state;
    cgn_graph *g;
    cgn_node *n;
    OK(cgn_graph_create(&g));
    int marker = 0;
    cgn_host_callback_desc d = CGN_HOST_CALLBACK_DESC_INIT;
    d.fn = noop_host_fn;
    d.user_data = &marker;
    d.user_data_owner = env->owner[0];
    OK(cgn_graph_add_host_callback(g, NULL, 0, &d, &n));
    OK(cgn_node_refresh(n));
    cgn_host_callback_desc got;
    OK(cgn_host_callback_node_get(n, &got));
    assert_ptr_equal(got.fn, noop_host_fn);
    assert_ptr_equal(got.user_data, &marker);
    assert_ptr_equal(got.user_data_owner, env->owner[0]);
    OK(cgn_graph_destroy(g));
    assert_int_equal(env->released[0], 0); /* the env still holds its own reference */
}

/* Adoption order is the topological order that always takes the ready node listed first:
 * listing 0..5 with edges 0->1->2 adopts as 0 1 2 3 4 5. */
static void test_adopt_order_with_chain(void **state) {
    (void)state;
    enum { N = 6 };
    CUgraph raw;
    CU_OK(drv()->cuGraphCreate(&raw, 0));
    CUgraphNode made[N];
    for (int i = 0; i < N; i++) {
        const CUgraphNode *dep = (i == 1 || i == 2) ? &made[i - 1] : NULL;
        CU_OK(drv()->cuGraphAddEmptyNode(&made[i], raw, dep, dep ? 1 : 0));
    }
    CUgraphNode listed[N];
    size_t num = N;
    CU_OK(drv()->cuGraphGetNodes(raw, listed, &num));
    assert_int_equal(num, N);
    for (int i = 0; i < N; i++)
        assert_ptr_equal(listed[i], made[i]); /* the fake lists in creation order */
    cgn_graph *g;
    OK(cgn_graph_adopt(raw, CGN_ADOPT_TAKE_OWNERSHIP, &g));
    cgn_node *nodes[N];
    size_t count = N;
    OK(cgn_graph_nodes(g, nodes, &count));
    assert_int_equal(count, N);
    for (size_t i = 0; i < N; i++) {
        CUgraphNode r;
        OK(cgn_node_raw(nodes[i], &r));
        if (r != listed[i])
            fail_msg("node %zu of the adopted graph is not listed node %zu", i, i);
    }
    OK(cgn_graph_destroy(g));
}

/* cgn_driver_proc without a symbol or an out pointer. */
static void test_driver_proc_null_arguments(void **state) {
    (void)state;
    void *pfn = NULL;
    assert_int_equal(cgn_driver_proc(NULL, 12000, &pfn), CGN_ERROR_INVALID_ARGUMENT);
    cgn_test_assert_message("cgn_driver_proc: symbol and pfn_out must not be NULL");
    assert_int_equal(cgn_driver_proc("cuInit", 2000, NULL), CGN_ERROR_INVALID_ARGUMENT);
    cgn_test_assert_message("cgn_driver_proc: symbol and pfn_out must not be NULL");
}

/* A node of a type cgn does not know (the driver's type reported for one raw node: one of a
 * newer driver) adopts as a CUDA-only node that cgn_node_check_updatable names. */
static CUresult (*inner_get_type)(CUgraphNode, CUgraphNodeType *);
static CUgraphNode semas_node;
static CUresult semas_get_type(CUgraphNode node, CUgraphNodeType *t) {
    if (node == semas_node) {
        *t = CGN_FAKE_FOREIGN_NODE_TYPE;
        return CUDA_SUCCESS;
    }
    return inner_get_type(node, t);
}

static void test_ext_semas_node_named(void **state) {
    cgn_test_env *env = *state;
    CUgraph raw;
    CU_OK(drv()->cuGraphCreate(&raw, 0));
    CU_OK(drv()->cuGraphAddEmptyNode(&semas_node, raw, NULL, 0));
    static cgn_driver_table table;
    table = *drv();
    inner_get_type = table.cuGraphNodeGetType;
    table.cuGraphNodeGetType = semas_get_type;
    cgn_driver_install(&table);
    cgn_graph *g = NULL;
    cgn_status st = cgn_graph_adopt(raw, CGN_ADOPT_TAKE_OWNERSHIP, &g);
    cgn_fault_install(env->backend->driver(env));
    OK(st);
    cgn_node *n = find(g, semas_node);
    cgn_node_type t;
    OK(cgn_node_type_of(n, &t));
    assert_int_equal(t, CGN_NODE_OTHER);
    assert_int_equal(cgn_node_check_updatable(n), CGN_ERROR_NOT_SUPPORTED);
    char want[400];
    snprintf(want, sizeof want,
             "cgn_node_check_updatable: node %p cannot be updated by cgn: it is a node of a CUDA "
             "node type cgn does not know",
             (void *)n);
    cgn_test_assert_message(want);
    OK(cgn_graph_destroy(g));
}

/* cgn_graph_find_kernel by CUfunction finds the nodes launching that function only. */
static void test_find_kernel_by_function_exact(void **state) {
    cgn_test_env *env = *state;
    cgn_kernel k1 = cgn_test_kernel(env, "add_one"), k2 = cgn_test_kernel(env, "write_config");
    if (k2.function == NULL && k2.kernel != NULL && drv()->cuKernelGetFunction != NULL) {
        CUfunction f = NULL; /* the CUkernel's function in the current context */
        CU_OK(drv()->cuKernelGetFunction(&f, k2.kernel));
        k2 = CGN_FUNCTION(f);
    }
    if (k1.function == NULL || k2.function == NULL || k1.kernel != NULL || k2.kernel != NULL)
        skip();
    /* big: the function whose handle compares higher */
    cgn_kernel big = (uintptr_t)k1.function > (uintptr_t)k2.function ? k1 : k2;
    cgn_kernel small = big.function == k1.function ? k2 : k1;
    cgn_graph *g;
    OK(cgn_graph_create(&g));
    CUdeviceptr ptr = 0;
    cgn_arg args[1] = {CGN_ARG(ptr)};
    cgn_kernel_desc d = CGN_KERNEL_DESC_INIT;
    d.grid = d.block = CGN_DIM3(1, 1, 1);
    d.args = args;
    d.num_args = 1;
    cgn_node *n_small, *n_big;
    d.kernel = small;
    OK(cgn_graph_add_kernel(g, NULL, 0, &d, &n_small));
    d.kernel = big;
    OK(cgn_graph_add_kernel(g, NULL, 0, &d, &n_big));
    cgn_node *found[4];
    size_t count = 4;
    OK(cgn_graph_find_kernel(g, big, found, &count));
    assert_int_equal(count, 1);
    assert_ptr_equal(found[0], n_big);
    count = 4;
    OK(cgn_graph_find_kernel(g, small, found, &count));
    assert_int_equal(count, 1);
    assert_ptr_equal(found[0], n_small);
    OK(cgn_graph_destroy(g));
}

int main(void) {
#define T(fn) cmocka_unit_test_setup_teardown(fn, cgn_test_fixture_setup, cgn_test_fixture_teardown)
    const struct CMUnitTest tests[] = {
        /* First, before anything in this process could have loaded a driver. */
        cmocka_unit_test(test_loader_no_driver),
        cmocka_unit_test(test_loader_minor_version_nine),
        cmocka_unit_test(test_loader_driver_too_old),
        cmocka_unit_test(test_loader_without_get_proc_address_v2),
        cmocka_unit_test(test_loader_version_gate),
        cmocka_unit_test(test_loader_no_device),
        cmocka_unit_test(test_loader_init_fails),
        cmocka_unit_test(test_loader_init_fails_unnamed),
        cmocka_unit_test(test_loader_proc_error),
        cmocka_unit_test(test_loader_working_driver),
        T(test_version_gates),
        T(test_exec_refused_names_driver_rule),
        T(test_exec_refused_lists_fields_and_rules),
        T(test_exec_refused_without_rule),
        T(test_adopt_contextless_nodes_without_context),
        T(test_cuda_only_node_named),
        T(test_exec_update_runs_in_node_context),
        T(test_kernel_grid_depth_zero),
        T(test_adopt_independent_nodes_keep_listing_order),
        T(test_adopt_node_count_too_large),
        T(test_embedded_copy_of_unsupported_node),
        T(test_driver_failure_without_error_names),
        T(test_host_callback_gate_at_12_2),
        T(test_adopt_host_node_without_context),
        T(test_refresh_keeps_host_callback_owner),
        T(test_adopt_order_with_chain),
        T(test_driver_proc_null_arguments),
        T(test_ext_semas_node_named),
        T(test_find_kernel_by_function_exact),
    };
#undef T
    return cmocka_run_group_tests(tests, NULL, NULL);
}
