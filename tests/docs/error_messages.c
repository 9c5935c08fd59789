/* Real messages for docs/errors.md: makes cgn fail with every status it reports and prints
 * each case as one line, `id<TAB>STATUS<TAB>what was done<TAB>cgn_last_error()`. tools/gen-errors
 * turns the lines into the examples of docs/errors.md (and --check, a CTest test, fails when
 * the page no longer matches what cgn says). A case that ends with another status than
 * expected is an error (exit 1), so this is also a test of the statuses.
 *
 * Everything runs on the fake driver (tests/support/fake_driver.h), in a fixed order, so the
 * handle values in messages are the same on every run, except the driver loader's failures:
 * those run first, each in a forked child, against stand-in libcuda.so.1 builds
 * (stub_libcuda.c, loaded by path so that cgn's dlopen("libcuda.so.1") finds them by soname),
 * and once against the system's real libcuda.so.1: where that loads, the "no driver" case
 * prints `-` as its status and tools/gen-errors keeps the message docs/errors.md has. */
#include <dlfcn.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#include "cgn/cgn.h"
#include "cgn_fault.h"
#include "fake_driver.h"

static int failures;

static void report(const char *id, cgn_status expected, cgn_status got, const char *what) {
    if (got != expected) {
        fprintf(stderr, "case %s (%s): expected %s, got %s: %s\n", id, what,
                cgn_status_name(expected), cgn_status_name(got), cgn_last_error());
        failures++;
        return;
    }
    if (cgn_last_status() != got) {
        fprintf(stderr, "case %s: cgn_last_status() is %s, the call returned %s\n", id,
                cgn_status_name(cgn_last_status()), cgn_status_name(got));
        failures++;
        return;
    }
    printf("%s\t%s\t%s\t%s\n", id, cgn_status_name(got), what, cgn_last_error());
}

#define EXPECT_OK(call)                                                                            \
    do {                                                                                           \
        if ((call) != CGN_OK) {                                                                    \
            fprintf(stderr, "%s:%d: %s: %s\n", __FILE__, __LINE__, #call, cgn_last_error());       \
            exit(1);                                                                               \
        }                                                                                          \
    } while (0)

/* ---- the driver loader, each case in a child process (cgn loads the driver once) ------------ */

static void loader_case(const char *id, const char *stub, cgn_status expected, const char *what) {
    fflush(stdout);
    pid_t pid = fork();
    if (pid < 0) {
        perror("fork");
        exit(1);
    }
    if (pid == 0) {
        if (stub != NULL && dlopen(stub, RTLD_NOW | RTLD_GLOBAL) == NULL) {
            fprintf(stderr, "case %s: %s\n", id, dlerror());
            _exit(1);
        }
        cgn_status st = cgn_init();
        if (stub == NULL && st != expected) /* a driver (or another failure) here */
            printf("%s\t-\t%s\t\n", id, what);
        else
            report(id, expected, st, what);
        fflush(stdout);
        _exit(failures ? 1 : 0);
    }
    int status = 0;
    if (waitpid(pid, &status, 0) != pid || !WIFEXITED(status) || WEXITSTATUS(status) != 0)
        failures++;
}

/* ---- cases on the fake driver ------------------------------------------------------------- */

static uint32_t out_word, in_word[4];

static void fill_u32(void **args, const CUDA_KERNEL_NODE_PARAMS_v2 *launch, void *user) {
    (void)args;
    (void)launch;
    (void)user;
}

static void CUDA_CB host_fn(void *arg) {
    (void)arg;
}

static cgn_node *add_memset(cgn_graph *g, void *dst, uint32_t value) {
    cgn_memset_desc d = CGN_MEMSET_DESC_INIT;
    d.dst = (CUdeviceptr)(uintptr_t)dst;
    d.value = value;
    d.width = 4;
    cgn_node *n;
    EXPECT_OK(cgn_graph_add_memset(g, NULL, 0, &d, &n));
    return n;
}

static void fake_cases(void) {
    cgn_fake_reset(); /* context 0 current, driver 13.0 */
    cgn_fault_install(cgn_fake_table());
    cgn_fake_mark_device_memory(&out_word, sizeof out_word);
    cgn_fake_mark_device_memory(in_word, sizeof in_word);
    static const size_t fill_sizes[] = {sizeof(CUdeviceptr), sizeof(uint32_t)};
    CUfunction fill = cgn_fake_register_kernel("fill_u32", 2, fill_sizes, fill_u32, NULL);
    cgn_status st;

    cgn_graph *g;
    EXPECT_OK(cgn_graph_create(&g));
    cgn_node *ms = add_memset(g, &out_word, 0x11);
    cgn_exec *e;
    EXPECT_OK(cgn_graph_instantiate(g, &e));

    /* CGN_ERROR_INVALID_ARGUMENT */
    cgn_node *n;
    st = cgn_graph_add_memset(g, NULL, 0, NULL, &n);
    report("null_desc", CGN_ERROR_INVALID_ARGUMENT, st, "`cgn_graph_add_memset` with `desc` NULL");
    cgn_memset_update u = CGN_MEMSET_UPDATE_INIT;
    cgn_memset_update_set_value(&u, 0x22, 1);
    int local = 0;
    st = cgn_memset_node_update((cgn_node *)(uintptr_t)0x1234, &u); /* never dereferenced */
    report("not_a_handle", CGN_ERROR_INVALID_ARGUMENT, st,
           "`cgn_memset_node_update` given a pointer that is not a cgn handle");
    st = cgn_memset_node_update((cgn_node *)(void *)g, &u);
    report("wrong_kind", CGN_ERROR_INVALID_ARGUMENT, st,
           "`cgn_memset_node_update` given a graph handle as the node");
    cgn_memset_update bits = CGN_MEMSET_UPDATE_INIT;
    bits.set = UINT64_C(1) << 40;
    st = cgn_memset_node_update(ms, &bits);
    report("unknown_bits", CGN_ERROR_INVALID_ARGUMENT, st,
           "an update with an unknown bit in `set`");
    cgn_node *later = add_memset(g, &out_word, 0x33);
    st = cgn_memset_exec_update(e, later, &u);
    report("not_in_exec", CGN_ERROR_INVALID_ARGUMENT, st,
           "`cgn_memset_exec_update` of a node added after the instantiation");
    EXPECT_OK(cgn_node_destroy(later));

    /* CGN_ERROR_INVALID_VALUE */
    cgn_memset_desc zero = CGN_MEMSET_DESC_INIT;
    zero.dst = (CUdeviceptr)(uintptr_t)&out_word;
    zero.value = 1;
    st = cgn_graph_add_memset(g, NULL, 0, &zero, &n);
    report("rule", CGN_ERROR_INVALID_VALUE, st, "`cgn_graph_add_memset` with `width` 0");
    cgn_memset_update taller = CGN_MEMSET_UPDATE_INIT;
    cgn_memset_update_set_height(&taller, 2);
    cgn_memset_update_set_pitch(&taller, 4);
    st = cgn_memset_exec_update(e, ms, &taller);
    report("exec_rule", CGN_ERROR_INVALID_VALUE, st,
           "`cgn_memset_exec_update` making a 1-D memset 2-D in an executable");
    cgn_kernel_desc kd = CGN_KERNEL_DESC_INIT;
    CUdeviceptr out = (CUdeviceptr)(uintptr_t)&out_word;
    uint32_t seven = 7;
    cgn_arg args[2] = {CGN_ARG(out), CGN_ARG(seven)};
    kd.kernel = CGN_KERNEL(cgn_fake_kernel_of(fill));
    kd.grid = kd.block = CGN_DIM3(1, 1, 1);
    kd.args = args;
    kd.num_args = 1;
    st = cgn_graph_add_kernel(g, NULL, 0, &kd, &n);
    report("kernel_args", CGN_ERROR_INVALID_VALUE, st,
           "`cgn_graph_add_kernel` with one argument for a kernel taking two (driver 12.4+)");
    kd.num_args = 2;
    kd.kernel = CGN_FUNCTION(fill);
    cgn_graph *kg;
    cgn_node *kn;
    cgn_exec *ke;
    EXPECT_OK(cgn_graph_create(&kg));
    EXPECT_OK(cgn_graph_add_kernel(kg, NULL, 0, &kd, &kn));
    EXPECT_OK(cgn_graph_instantiate(kg, &ke));
    cgn_kernel_update ku = CGN_KERNEL_UPDATE_INIT;
    CUfunction foreign = cgn_fake_function_in_context(fill, cgn_fake_context(1));
    cgn_kernel_update_set_kernel(&ku, CGN_FUNCTION(foreign), NULL, args, 2);
    st = cgn_kernel_exec_update(ke, kn, &ku);
    report("driver_rule", CGN_ERROR_INVALID_VALUE, st,
           "`cgn_kernel_exec_update` to a `CUfunction` of another context (refused by the driver)");
    cgn_memcpy_desc cd = CGN_MEMCPY_DESC_INIT;
    cd.dst = (CUdeviceptr)(uintptr_t)&out_word;
    cd.src = (CUdeviceptr)(uintptr_t)in_word;
    cd.size = 4;
    cgn_node *copy;
    EXPECT_OK(cgn_graph_add_memcpy(g, NULL, 0, &cd, &copy));
    cgn_memcpy_update cu = CGN_MEMCPY_UPDATE_INIT;
    cgn_memcpy_update_set_src(&cu, 0x10, NULL);
    st = cgn_memcpy_node_update(copy, &cu);
    report("unmapped", CGN_ERROR_INVALID_VALUE, st,
           "`cgn_memcpy_node_update` to a source address nothing is mapped at");
    st = cgn_exec_update_from_graph(e, g);
    report("refresh_topology", CGN_ERROR_INVALID_VALUE, st,
           "`cgn_exec_update_from_graph` after a node was added to the graph");
    EXPECT_OK(cgn_node_destroy(copy));

    /* CGN_ERROR_OUT_OF_RANGE */
    cgn_memset_update wide = CGN_MEMSET_UPDATE_INIT;
    cgn_memset_update_set_value(&wide, 0x1234, 1);
    st = cgn_memset_node_update(ms, &wide);
    report("value_range", CGN_ERROR_OUT_OF_RANGE, st,
           "`cgn_memset_node_update` with `value` 0x1234 and `element_size` 1");

    /* CGN_ERROR_MISSING_FIELD */
    cgn_kernel_update lone = CGN_KERNEL_UPDATE_INIT;
    lone.kernel = CGN_FUNCTION(fill);
    lone.set = CGN_KERNEL_SET_KERNEL;
    st = cgn_kernel_node_update(kn, &lone);
    report("missing", CGN_ERROR_MISSING_FIELD, st,
           "`cgn_kernel_node_update` setting `kernel` without `args`");

    /* CGN_ERROR_WRONG_NODE_TYPE */
    cgn_kernel_update grid = CGN_KERNEL_UPDATE_INIT;
    cgn_kernel_update_set_grid(&grid, CGN_DIM3(2, 1, 1));
    st = cgn_kernel_node_update(ms, &grid);
    report("wrong_type", CGN_ERROR_WRONG_NODE_TYPE, st,
           "`cgn_kernel_node_update` of a memset node");

    /* CGN_ERROR_NOT_SUPPORTED */
    cgn_host_callback_desc hd = CGN_HOST_CALLBACK_DESC_INIT;
    hd.fn = host_fn;
    cgn_graph *hg;
    cgn_node *host;
    EXPECT_OK(cgn_graph_create(&hg));
    EXPECT_OK(cgn_graph_add_host_callback(hg, NULL, 0, &hd, &host));
    cgn_exec *he;
    EXPECT_OK(cgn_graph_instantiate(hg, &he));
    st = cgn_exec_node_set_enabled(he, host, 0);
    report("enable", CGN_ERROR_NOT_SUPPORTED, st,
           "`cgn_exec_node_set_enabled` on a host callback node");
    EXPECT_OK(cgn_exec_destroy(he));
    EXPECT_OK(cgn_graph_add_memcpy(g, NULL, 0, &cd, &copy));
    CUgraphNode raw_copy;
    EXPECT_OK(cgn_node_raw(copy, &raw_copy));
    CUgraphNodeParams p;
    memset(&p, 0, sizeof p);
    EXPECT_OK(cgn_fake_node_params(raw_copy, &p) ? CGN_OK : CGN_ERROR_DRIVER);
    p.memcpy.copyParams.srcXInBytes = 1; /* an offset copy, made behind cgn's back */
    if (cgn_fake_table()->cuGraphNodeSetParams(raw_copy, &p) != CUDA_SUCCESS) {
        fprintf(stderr, "the fake refused the raw memcpy change\n");
        exit(1);
    }
    cgn_memcpy_update size = CGN_MEMCPY_UPDATE_INIT;
    cgn_memcpy_update_set_size(&size, 2);
    st = cgn_memcpy_node_update(copy, &size);
    report("memcpy_form", CGN_ERROR_NOT_SUPPORTED, st,
           "`cgn_memcpy_node_update` of a memcpy node made an offset copy with raw driver calls");
    EXPECT_OK(cgn_node_destroy(copy));

    /* CGN_ERROR_SAME_HIERARCHY */
    cgn_graph *source, *parent;
    EXPECT_OK(cgn_graph_create(&source));
    cgn_node *source_fill = add_memset(source, &out_word, 0x44);
    EXPECT_OK(cgn_graph_create(&parent));
    cgn_child_graph_desc chd = CGN_CHILD_GRAPH_DESC_INIT;
    chd.graph = source;
    cgn_node *child;
    EXPECT_OK(cgn_graph_add_child_graph(parent, NULL, 0, &chd, &child));
    cgn_child_graph_update self = CGN_CHILD_GRAPH_UPDATE_INIT;
    cgn_child_graph_update_set_graph(&self, parent);
    st = cgn_child_graph_node_update(child, &self);
    report("same_hierarchy", CGN_ERROR_SAME_HIERARCHY, st,
           "`cgn_child_graph_node_update` to the graph the child node is in");

    /* CGN_ERROR_DESTROYED */
    cgn_node *gone = add_memset(g, &out_word, 0x55);
    EXPECT_OK(cgn_node_destroy(gone));
    st = cgn_memset_node_update(gone, &u);
    report("destroyed_node", CGN_ERROR_DESTROYED, st,
           "`cgn_memset_node_update` of a destroyed node");
    cgn_graph *embedded;
    cgn_node *inner;
    EXPECT_OK(cgn_child_graph_node_embedded(child, &embedded));
    EXPECT_OK(cgn_child_graph_node_find(child, source_fill, &inner));
    cgn_exec *pe;
    EXPECT_OK(cgn_graph_instantiate(parent, &pe));
    cgn_graph *other;
    EXPECT_OK(cgn_graph_create(&other));
    add_memset(other, &out_word, 0x66);
    cgn_child_graph_update swap = CGN_CHILD_GRAPH_UPDATE_INIT;
    cgn_child_graph_update_set_graph(&swap, other);
    EXPECT_OK(cgn_child_graph_node_update(child, &swap));
    cgn_node *nn;
    st = cgn_graph_add_empty(embedded, NULL, 0, &nn);
    report("replaced_embedding", CGN_ERROR_DESTROYED, st,
           "`cgn_graph_add_empty` to an embedded graph after its child node was replaced");
    st = cgn_exec_node_set_enabled(pe, inner, 0);
    report("exec_node_gone", CGN_ERROR_DESTROYED, st,
           "`cgn_exec_node_set_enabled` of a node of a replaced embedding, in an executable made "
           "before");
    EXPECT_OK(cgn_graph_destroy(g)); /* e outlives it */
    st = cgn_memset_node_update(ms, &u);
    report("graph_gone", CGN_ERROR_DESTROYED, st,
           "`cgn_memset_node_update` after the node's graph was destroyed");
    EXPECT_OK(cgn_memset_exec_update(e, ms, &u)); /* executable-level calls still work */

    /* CGN_ERROR_NO_CONTEXT */
    cgn_graph *ng;
    EXPECT_OK(cgn_graph_create(&ng));
    cgn_fake_set_current_context(NULL);
    cgn_memset_desc md = CGN_MEMSET_DESC_INIT;
    md.dst = (CUdeviceptr)(uintptr_t)&out_word;
    md.width = 4;
    st = cgn_graph_add_memset(ng, NULL, 0, &md, &n);
    report("no_context", CGN_ERROR_NO_CONTEXT, st,
           "`cgn_graph_add_memset` with no CUDA context current");
    cgn_fake_set_current_context(cgn_fake_context(0));

    /* CGN_ERROR_DRIVER_TOO_OLD (an update: graphs still build and run before 12.2) */
    cgn_fault_set_version(12010);
    st = cgn_memset_exec_update(e, ms, &u);
    report("update_gate", CGN_ERROR_DRIVER_TOO_OLD, st,
           "`cgn_memset_exec_update` on a 12.1 driver");
    cgn_fault_set_version(13000);

    /* CGN_ERROR_DRIVER */
    cgn_fault_arm(1, CUDA_ERROR_OUT_OF_MEMORY);
    cgn_graph *failed;
    st = cgn_graph_create(&failed);
    report("driver_call", CGN_ERROR_DRIVER, st,
           "`cgn_graph_create` when `cuGraphCreate` fails (device memory ran out)");
    cgn_fault_disarm();
    CUevent ev = cgn_fake_event_create(), dead = cgn_fake_event_create();
    cgn_event_record_desc rd = CGN_EVENT_RECORD_DESC_INIT;
    rd.event = ev;
    cgn_node *rec;
    EXPECT_OK(cgn_graph_add_event_record(ng, NULL, 0, &rd, &rec));
    cgn_exec *re;
    EXPECT_OK(cgn_graph_instantiate(ng, &re));
    (void)cgn_fake_table()->cuEventDestroy(dead);
    cgn_event_record_update eu = CGN_EVENT_RECORD_UPDATE_INIT;
    cgn_event_record_update_set_event(&eu, dead, NULL);
    st = cgn_event_record_exec_update(re, rec, &eu);
    report("exec_refused", CGN_ERROR_DRIVER, st,
           "`cgn_event_record_exec_update` to an event that was destroyed");
    cgn_kernel_update moved = CGN_KERNEL_UPDATE_INIT;
    cgn_kernel_update_set_kernel(&moved, CGN_FUNCTION(foreign), NULL, args, 2);
    EXPECT_OK(cgn_kernel_node_update(kn, &moved));
    st = cgn_exec_update_from_graph(ke, kg);
    report("refresh_refused", CGN_ERROR_DRIVER, st,
           "`cgn_exec_update_from_graph` after the kernel node moved to a `CUfunction` of another "
           "context");

    /* CGN_ERROR_OUT_OF_MEMORY */
    cgn_host_callback_update huge = CGN_HOST_CALLBACK_UPDATE_INIT;
    cgn_host_callback_update_set_fn(&huge, host_fn, NULL, NULL, &local, (size_t)1 << 62);
    st = cgn_host_callback_node_update(host, &huge);
    report("host_memory", CGN_ERROR_OUT_OF_MEMORY, st,
           "`cgn_host_callback_node_update` with a payload larger than the host's memory");

    EXPECT_OK(cgn_exec_destroy(re));
    EXPECT_OK(cgn_graph_destroy(ng));
    (void)cgn_fake_table()->cuEventDestroy(ev);
    EXPECT_OK(cgn_exec_destroy(pe));
    EXPECT_OK(cgn_exec_destroy(ke));
    EXPECT_OK(cgn_exec_destroy(e));
    EXPECT_OK(cgn_graph_destroy(kg));
    EXPECT_OK(cgn_graph_destroy(hg));
    EXPECT_OK(cgn_graph_destroy(parent));
    EXPECT_OK(cgn_graph_destroy(source));
    EXPECT_OK(cgn_graph_destroy(other));
    cgn_collect();
    if (cgn_fake_live_objects() != 0) {
        fprintf(stderr, "%zu driver objects left alive\n", cgn_fake_live_objects());
        failures++;
    }
}

int main(void) {
    /* Before anything installs the fake: a child inherits the parent's driver table. */
    loader_case("no_driver", NULL, CGN_ERROR_NO_DRIVER,
                "`cgn_init()` on a machine without the NVIDIA driver");
    loader_case("old_driver", CGN_STUB_OLD_DRIVER, CGN_ERROR_DRIVER_TOO_OLD,
                "`cgn_init()` with an 11.8 driver");
    loader_case("no_device", CGN_STUB_NO_DEVICE, CGN_ERROR_NO_DEVICE,
                "`cgn_init()` where the driver is installed but finds no GPU");
    fake_cases();
    fflush(stdout);
    return failures ? 1 : 0;
}
