/* Hostile-input tests of cgn on a real GPU: NULL, garbage, stale and wrong-kind handles, sizes
 * that overflow, operands that point nowhere, kernels that were unloaded or never existed, with
 * no context or another context current. Each input must be refused with the status
 * docs/errors.md documents (or, where the docs leave it open, with some failing status and a
 * message), and afterwards the node, the executable (launched: its GPU result is checked) and
 * the calling thread's current context must be as they were, and the process alive.
 *
 * Each case runs in a forked child, so that a crash (in cgn or in the CUDA driver, which
 * segfaults on some bad parameters cgn must refuse first) is that case's failure: the parent
 * never initialises CUDA or cgn (CUDA is not fork-safe after cuInit); each child opens the
 * driver itself, runs its case under alarm(60) and exits 0 (passed) or 1 (a check failed, with
 * the input, the expected and the actual status and cgn_last_error() printed). The parent first
 * checks in a child whether a GPU is usable and exits 77 when not.
 *
 * Cases named probe_* report their outcome and are never counted as failures: one calls the raw
 * driver with an input cgn cannot see through (a destroyed or garbage stream), and a crash of
 * the cgn case paired with it is reported as a driver limitation when the raw call crashed too;
 * the others try inputs whose handling the docs leave open (owners are pointers, not handles).
 * Inputs the docs do not give a status for are asserted to fail with a message and no crash
 * ("any failing status"), or only not to crash (an acceptance is printed as a NOTE).
 *
 * Usage: test_hostile_gpu [case...]; exit status 0 when every case run passed, 1 otherwise, 77
 * when skipped. A crash prints the last cgn call traced before it. */
#define _GNU_SOURCE
#include <signal.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cudaTypedefs.h>

#include "cgn/cgn.h"
#include "cgn_cuda.h"

extern const unsigned char cgn_test_kernels_fatbin[];
extern const size_t cgn_test_kernels_fatbin_size;

/* ---- driver state of the child ------------------------------------------------------------ */

static cgn_cuda cu;
static struct {
    PFN_cuCtxGetCurrent_v4000 cuCtxGetCurrent;
    PFN_cuCtxCreate_v12050 cuCtxCreate;
    PFN_cuCtxDestroy_v4000 cuCtxDestroy;
    PFN_cuCtxPopCurrent_v4000 cuCtxPopCurrent;
    PFN_cuGraphCreate_v10000 cuGraphCreate;
    PFN_cuGraphDestroy_v10000 cuGraphDestroy;
    PFN_cuGraphAddEmptyNode_v10000 cuGraphAddEmptyNode;
    PFN_cuGraphInstantiateWithFlags_v11040 cuGraphInstantiateWithFlags;
    PFN_cuGraphExecDestroy_v10000 cuGraphExecDestroy;
    PFN_cuGraphLaunch_v10000 cuGraphLaunch;
} dx;

static CUlibrary lib;
static CUkernel k_fill, k_add, k_empty;
static CUfunction f_fill;
static CUcontext ctx_other;
static CUstream stream;
static const char *case_name = "?";
static int n_fail;

/* The cgn call under way, so that a crash names it (written from the signal handler). */
static const char *volatile cur_call = "(setup)";
static volatile int cur_line;
#define TRACE_AT(what, line)                                                                       \
    do {                                                                                           \
        cur_call = (what);                                                                         \
        cur_line = (line);                                                                         \
    } while (0)
#define TRACE(what) TRACE_AT(what, __LINE__)

static size_t put_str(char *buf, size_t at, size_t cap, const char *s) {
    while (*s && at + 1 < cap)
        buf[at++] = *s++;
    return at;
}

static size_t put_int(char *buf, size_t at, size_t cap, int v) {
    char tmp[16];
    size_t n = 0;
    unsigned u = v < 0 ? 0u - (unsigned)v : (unsigned)v;
    do
        tmp[n++] = (char)('0' + u % 10);
    while ((u /= 10) != 0 && n < sizeof tmp);
    if (v < 0 && at + 1 < cap)
        buf[at++] = '-';
    while (n > 0 && at + 1 < cap)
        buf[at++] = tmp[--n];
    return at;
}

static void crash_handler(int sig) {
    char buf[768];
    size_t n = 0;
    n = put_str(buf, n, sizeof buf, "  CRASH [");
    n = put_str(buf, n, sizeof buf, case_name);
    n = put_str(buf, n, sizeof buf, "]: signal ");
    n = put_int(buf, n, sizeof buf, sig);
    n = put_str(buf, n, sizeof buf, " at or after the last traced call ");
    n = put_str(buf, n, sizeof buf, cur_call);
    n = put_str(buf, n, sizeof buf, " (line ");
    n = put_int(buf, n, sizeof buf, cur_line);
    n = put_str(buf, n, sizeof buf, ")\n");
    ssize_t w = write(1, buf, n);
    (void)w;
    signal(sig, SIG_DFL);
    raise(sig);
}

/* ---- checks --------------------------------------------------------------------------------- */

static void failf(int line, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
static void failf(int line, const char *fmt, ...) {
    va_list ap;
    va_start(ap, fmt);
    printf("  FAIL [%s] line %d: ", case_name, line);
    vprintf(fmt, ap);
    putchar('\n');
    fflush(stdout);
    va_end(ap);
    n_fail++;
}

static void note(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
static void note(const char *fmt, ...) {
    va_list ap;
    va_start(ap, fmt);
    printf("  NOTE [%s]: ", case_name);
    vprintf(fmt, ap);
    putchar('\n');
    fflush(stdout);
    va_end(ap);
}

/* `want` values besides a cgn_status. */
#define ANY_ERR (-1)   /* any failing status (the docs leave the status open) */
#define ERR_OR_OK (-2) /* not crashing is all that is asserted; CGN_OK is noted */

static const char *want_name(int want) {
    if (want == ANY_ERR)
        return "any failing status";
    if (want == ERR_OR_OK)
        return "anything but a crash";
    return cgn_status_name((cgn_status)want);
}

/* Checks a status against `want`; for a failure also cgn_last_status() and a non-empty
 * cgn_last_error(). Returns 1 when it matched. */
static int check_status(cgn_status got, int want, const char *call, const char *ctx, int line) {
    const char *msg = cgn_last_error();
    if (want == ERR_OR_OK) {
        if (got == CGN_OK)
            note("line %d: %s [%s] was accepted (CGN_OK)", line, call, ctx);
        else if (msg == NULL || msg[0] == '\0' || cgn_last_status() != got) {
            failf(line, "%s [%s]: %s with an empty message or a wrong cgn_last_status() %s", call,
                  ctx, cgn_status_name(got), cgn_status_name(cgn_last_status()));
            return 0;
        }
        return 1;
    }
    if (want == CGN_OK) {
        if (got != CGN_OK) {
            failf(line, "%s [%s]: expected CGN_OK, got %s (%s)", call, ctx, cgn_status_name(got),
                  msg);
            return 0;
        }
        return 1;
    }
    if (got == CGN_OK || (want != ANY_ERR && got != (cgn_status)want)) {
        failf(line, "%s [%s]: expected %s, got %s (%s)", call, ctx, want_name(want),
              cgn_status_name(got), got == CGN_OK ? "" : msg);
        return 0;
    }
    if (cgn_last_status() != got) {
        failf(line, "%s [%s]: returned %s but cgn_last_status() is %s", call, ctx,
              cgn_status_name(got), cgn_status_name(cgn_last_status()));
        return 0;
    }
    if (msg == NULL || msg[0] == '\0') {
        failf(line, "%s [%s]: %s with an empty cgn_last_error()", call, ctx, cgn_status_name(got));
        return 0;
    }
    return 1;
}

#define CU(call)                                                                                   \
    do {                                                                                           \
        CUresult cu_r_ = (call);                                                                   \
        if (cu_r_ != CUDA_SUCCESS) {                                                               \
            failf(__LINE__, "setup: %s returned CUresult %d", #call, (int)cu_r_);                  \
            return;                                                                                \
        }                                                                                          \
    } while (0)

/* A cgn call made for setup: on failure the case stops. */
#define OK(call)                                                                                   \
    do {                                                                                           \
        cgn_status ok_st_ = (call);                                                                \
        if (ok_st_ != CGN_OK) {                                                                    \
            failf(__LINE__, "setup: %s -> %s: %s", #call, cgn_status_name(ok_st_),                 \
                  cgn_last_error());                                                               \
            return;                                                                                \
        }                                                                                          \
    } while (0)

static CUcontext current_ctx(void) {
    CUcontext c = NULL;
    if (dx.cuCtxGetCurrent(&c) != CUDA_SUCCESS)
        return (CUcontext)(uintptr_t)1; /* never a context */
    return c;
}

static void set_ctx(CUcontext c) {
    cu.cuCtxSetCurrent(c);
}

enum { CTX_PRIMARY, CTX_NONE, CTX_OTHER, CTX_STATES };
static const char *const ctx_names[CTX_STATES] = {"primary context current", "no context current",
                                                  "other context current"};
static CUcontext ctx_of(int w) {
    return w == CTX_PRIMARY ? cu.context : w == CTX_NONE ? NULL : ctx_other;
}

static void expect_ctx_at(CUcontext want, const char *what, int line) {
    CUcontext got = current_ctx();
    if (got != want)
        failf(line, "%s: current context changed: expected %p, got %p", what, (void *)want,
              (void *)got);
}

/* One call, primary context current. */
#define EXPECT(call, want)                                                                         \
    do {                                                                                           \
        set_ctx(cu.context);                                                                       \
        TRACE(#call);                                                                              \
        check_status((call), (want), #call, ctx_names[CTX_PRIMARY], __LINE__);                     \
        expect_ctx_at(cu.context, #call, __LINE__);                                                \
    } while (0)

/* The call made three times: with the primary context, no context and another context current;
 * the context current before must be current after. `noctx_ok`: adds need a context, so with
 * none current CGN_ERROR_NO_CONTEXT is accepted as well. */
#define IN_CTXS_AT_(call, want, noctx_ok, line)                                                    \
    do {                                                                                           \
        for (int w_ = 0; w_ < CTX_STATES; w_++) {                                                  \
            set_ctx(ctx_of(w_));                                                                   \
            TRACE_AT(#call, (line));                                                               \
            cgn_status s_ = (call);                                                                \
            if (!((noctx_ok) && w_ == CTX_NONE && s_ == CGN_ERROR_NO_CONTEXT))                     \
                check_status(s_, (want), #call, ctx_names[w_], (line));                            \
            expect_ctx_at(ctx_of(w_), #call, (line));                                              \
        }                                                                                          \
        set_ctx(cu.context);                                                                       \
    } while (0)
#define IN_CTXS_(call, want, noctx_ok) IN_CTXS_AT_(call, want, noctx_ok, __LINE__)
#define IN_CTXS(call, want) IN_CTXS_(call, want, 0)
#define ADD_IN_CTXS(call, want) IN_CTXS_(call, want, 1)

/* An anonymous private mapping of `bytes` with `prot`, or NULL after a setup failure reported at
 * the caller's `line`. */
static void *setup_mmap(size_t bytes, int prot, int line) {
    void *p = mmap(NULL, bytes, prot, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
    if (p == MAP_FAILED) {
        failf(line, "setup: mmap");
        return NULL;
    }
    return p;
}

/* ---- device helpers ------------------------------------------------------------------------- */

static CUdeviceptr dalloc(size_t bytes) {
    CUdeviceptr p = 0;
    if (cu.cuMemAlloc(&p, bytes) != CUDA_SUCCESS || cu.cuMemsetD8(p, 0, bytes) != CUDA_SUCCESS)
        failf(__LINE__, "setup: cuMemAlloc/cuMemsetD8 of %zu bytes failed", bytes);
    return p;
}

static unsigned read_u32(CUdeviceptr p) {
    unsigned v = 0xFFFFFFFFu;
    if (cu.cuMemcpyDtoH(&v, p, sizeof v) != CUDA_SUCCESS)
        failf(__LINE__, "cuMemcpyDtoH failed (sticky error from an earlier launch?)");
    return v;
}

static volatile int host_calls;
static void CUDA_CB host_count(void *p) {
    (void)p;
    host_calls++;
}

static cgn_kernel_desc kdesc(cgn_kernel k, const cgn_arg *args, uint32_t num_args) {
    cgn_kernel_desc d = CGN_KERNEL_DESC_INIT;
    d.kernel = k;
    d.grid = CGN_DIM3(1, 1, 1);
    d.block = CGN_DIM3(1, 1, 1);
    d.args = args;
    d.num_args = num_args;
    return d;
}

/* ---- the fixture: a graph of four nodes and its executable ------------------------------- */

#define FX_VALUE 0x1111u
#define FX_BYTE 0x5Au
#define FX_BYTES 64u

typedef struct fixture {
    cgn_graph *g;
    cgn_node *k, *ms, *cp, *host; /* fill_u32(a, FX_VALUE); memset b; copy b -> c; host count */
    cgn_exec *e;
    CUdeviceptr a, b, c;
    unsigned kval;
    cgn_arg kargs[2];
} fixture;

static fixture fx;

static int fx_make(void) {
    memset(&fx, 0, sizeof fx);
    fx.a = dalloc(4);
    fx.b = dalloc(FX_BYTES);
    fx.c = dalloc(FX_BYTES);
    fx.kval = FX_VALUE;
    fx.kargs[0] = CGN_ARG(fx.a);
    fx.kargs[1] = CGN_ARG(fx.kval);
    if (cgn_graph_create(&fx.g) != CGN_OK)
        return 0;
    cgn_kernel_desc kd = kdesc(CGN_KERNEL(k_fill), fx.kargs, 2);
    cgn_memset_desc md = CGN_MEMSET_DESC_INIT;
    md.dst = fx.b;
    md.value = FX_BYTE;
    md.element_size = 1;
    md.width = FX_BYTES;
    cgn_memcpy_desc cd = CGN_MEMCPY_DESC_INIT;
    cd.dst = fx.c;
    cd.src = fx.b;
    cd.size = FX_BYTES;
    cgn_host_callback_desc hd = CGN_HOST_CALLBACK_DESC_INIT;
    hd.fn = host_count;
    if (cgn_graph_add_kernel(fx.g, NULL, 0, &kd, &fx.k) != CGN_OK ||
        cgn_graph_add_memset(fx.g, NULL, 0, &md, &fx.ms) != CGN_OK ||
        cgn_graph_add_memcpy(fx.g, &fx.ms, 1, &cd, &fx.cp) != CGN_OK ||
        cgn_graph_add_host_callback(fx.g, NULL, 0, &hd, &fx.host) != CGN_OK ||
        cgn_graph_instantiate(fx.g, &fx.e) != CGN_OK) {
        failf(__LINE__, "setup: fixture: %s", cgn_last_error());
        return 0;
    }
    return 1;
}

static void check_kernel_desc(const cgn_kernel_desc *d, const char *level, int line) {
    CUdeviceptr a = 0;
    unsigned v = 0;
    if (d->kernel.kernel != k_fill || d->kernel.function != NULL || d->grid.x != 1 ||
        d->grid.y != 1 || d->grid.z != 1 || d->block.x != 1 || d->block.y != 1 || d->block.z != 1 ||
        d->shared_mem_bytes != 0 || d->num_args != 2 || d->args == NULL ||
        d->args[0].size != sizeof a || d->args[1].size != sizeof v) {
        failf(line,
              "%s kernel node changed: kernel %p/%p grid (%u,%u,%u) block (%u,%u,%u) smem %u "
              "num_args %u",
              level, (void *)d->kernel.function, (void *)d->kernel.kernel, d->grid.x, d->grid.y,
              d->grid.z, d->block.x, d->block.y, d->block.z, d->shared_mem_bytes, d->num_args);
        return;
    }
    memcpy(&a, d->args[0].value, sizeof a);
    memcpy(&v, d->args[1].value, sizeof v);
    if (a != fx.a || v != FX_VALUE)
        failf(line, "%s kernel node arguments changed: (0x%llx, 0x%x)", level,
              (unsigned long long)a, v);
}

static void check_memset_desc(const cgn_memset_desc *d, const char *level, int line) {
    if (d->dst != fx.b || d->value != FX_BYTE || d->element_size != 1 || d->width != FX_BYTES ||
        d->height != 1 || d->dst_owner != NULL)
        failf(line,
              "%s memset node changed: dst 0x%llx value 0x%x element_size %u width %zu "
              "height %zu pitch %zu",
              level, (unsigned long long)d->dst, d->value, d->element_size, d->width, d->height,
              d->pitch);
}

static void check_memcpy_desc(const cgn_memcpy_desc *d, const char *level, int line) {
    if (d->dst != fx.c || d->src != fx.b || d->size != FX_BYTES || d->dst_owner || d->src_owner)
        failf(line, "%s memcpy node changed: dst 0x%llx src 0x%llx size %zu", level,
              (unsigned long long)d->dst, (unsigned long long)d->src, d->size);
}

static void check_host_desc(const cgn_host_callback_desc *d, const char *level, int line) {
    if (d->fn != host_count || d->user_data != NULL || d->payload_size != 0)
        failf(line, "%s host callback node changed: fn %s user_data %p payload_size %zu", level,
              d->fn == host_count ? "host_count" : "other", d->user_data, d->payload_size);
}

/* A descriptor read's status: CGN_OK, or a failure naming the call, its status and the last error
 * (reported at the caller's line). */
static int got_desc(cgn_status st, const char *call, int line) {
    if (st == CGN_OK)
        return 1;
    failf(line, "%s -> %s: %s", call, cgn_status_name(st), cgn_last_error());
    return 0;
}

/* The fixture's nodes, in the definition and the executable, as made; the executable launched
 * does what it did; the primary context is current. */
static void fx_check_at(int line) {
    set_ctx(cu.context);
    size_t count = 0;
    cgn_status st = cgn_graph_nodes(fx.g, NULL, &count);
    if (st != CGN_OK || count != 4)
        failf(line, "fixture graph: cgn_graph_nodes -> %s, %zu nodes (expected 4)",
              cgn_status_name(st), count);
    cgn_kernel_desc kd;
    cgn_memset_desc md;
    cgn_memcpy_desc cd;
    cgn_host_callback_desc hd;
    if (got_desc(cgn_kernel_node_get(fx.k, &kd), "cgn_kernel_node_get", line))
        check_kernel_desc(&kd, "definition", line);
    if (got_desc(cgn_kernel_exec_get(fx.e, fx.k, &kd), "cgn_kernel_exec_get", line))
        check_kernel_desc(&kd, "executable", line);
    if (got_desc(cgn_memset_node_get(fx.ms, &md), "cgn_memset_node_get", line))
        check_memset_desc(&md, "definition", line);
    if (got_desc(cgn_memset_exec_get(fx.e, fx.ms, &md), "cgn_memset_exec_get", line))
        check_memset_desc(&md, "executable", line);
    if (got_desc(cgn_memcpy_node_get(fx.cp, &cd), "cgn_memcpy_node_get", line))
        check_memcpy_desc(&cd, "definition", line);
    if (got_desc(cgn_memcpy_exec_get(fx.e, fx.cp, &cd), "cgn_memcpy_exec_get", line))
        check_memcpy_desc(&cd, "executable", line);
    if (got_desc(cgn_host_callback_node_get(fx.host, &hd), "cgn_host_callback_node_get", line))
        check_host_desc(&hd, "definition", line);
    if (got_desc(cgn_host_callback_exec_get(fx.e, fx.host, &hd), "cgn_host_callback_exec_get",
                 line))
        check_host_desc(&hd, "executable", line);
    /* launch and check what the GPU did */
    if (cu.cuMemsetD8(fx.a, 0, 4) != CUDA_SUCCESS || cu.cuMemsetD8(fx.b, 0, FX_BYTES) ||
        cu.cuMemsetD8(fx.c, 0, FX_BYTES) != CUDA_SUCCESS) {
        failf(line, "cuMemsetD8 of the fixture buffers failed");
        return;
    }
    int calls = host_calls;
    if ((st = cgn_exec_launch(fx.e, stream)) != CGN_OK) {
        failf(line, "cgn_exec_launch of the fixture -> %s: %s", cgn_status_name(st),
              cgn_last_error());
        return;
    }
    CUresult r = cu.cuStreamSynchronize(stream);
    if (r != CUDA_SUCCESS) {
        failf(line, "cuStreamSynchronize after the fixture's launch returned %d", (int)r);
        return;
    }
    unsigned av = read_u32(fx.a);
    unsigned char cbytes[FX_BYTES];
    if (cu.cuMemcpyDtoH(cbytes, fx.c, FX_BYTES) != CUDA_SUCCESS)
        failf(line, "cuMemcpyDtoH of c failed");
    if (av != FX_VALUE)
        failf(line, "launch: a is 0x%x, expected 0x%x", av, FX_VALUE);
    for (unsigned i = 0; i < FX_BYTES; i++)
        if (cbytes[i] != FX_BYTE) {
            failf(line, "launch: c[%u] is 0x%x, expected 0x%x", i, cbytes[i], FX_BYTE);
            break;
        }
    if (host_calls != calls + 1)
        failf(line, "launch: host callback ran %d times, expected 1", host_calls - calls);
    expect_ctx_at(cu.context, "fixture check", line);
}
#define FX_CHECK() fx_check_at(__LINE__)

/* The kernel update `u` made to the fixture's kernel node in the definition and then in the
 * executable, each with every context current (IN_CTXS); both must give `want`. Failures are
 * reported at the caller's `line`. */
static void kernel_update_in_ctxs(const cgn_kernel_update *u, int want, int line) {
    IN_CTXS_AT_(cgn_kernel_node_update(fx.k, u), want, 0, line);
    IN_CTXS_AT_(cgn_kernel_exec_update(fx.e, fx.k, u), want, 0, line);
}

/* A k_fill kernel node with `args` added to the fixture's graph (ADD_IN_CTXS), then `u` given
 * those arguments and made to the fixture's kernel node (kernel_update_in_ctxs); each must give
 * `want`. Failures are reported at the caller's `line`. */
static void kernel_args_in_ctxs(const cgn_arg *args, uint32_t num_args, cgn_kernel_update *u,
                                int want, int line) {
    cgn_node *n = NULL;
    cgn_kernel_desc d = kdesc(CGN_KERNEL(k_fill), args, num_args);
    IN_CTXS_AT_(cgn_graph_add_kernel(fx.g, NULL, 0, &d, &n), want, 1, line);
    cgn_kernel_update_set_args(u, args, num_args);
    kernel_update_in_ctxs(u, want, line);
}

/* ---- kernel cases ------------------------------------------------------------------------ */

static void case_kernel_args_null(void) {
    if (!fx_make())
        return;
    cgn_node *n = NULL;
    cgn_kernel_desc d = kdesc(CGN_KERNEL(k_fill), NULL, 2);
    ADD_IN_CTXS(cgn_graph_add_kernel(fx.g, NULL, 0, &d, &n), CGN_ERROR_INVALID_ARGUMENT);
    d.num_args = UINT32_MAX;
    ADD_IN_CTXS(cgn_graph_add_kernel(fx.g, NULL, 0, &d, &n), CGN_ERROR_INVALID_ARGUMENT);
    cgn_kernel_update u = CGN_KERNEL_UPDATE_INIT;
    cgn_kernel_update_set_args(&u, NULL, 2);
    kernel_update_in_ctxs(&u, CGN_ERROR_INVALID_ARGUMENT, __LINE__);
    if (n != NULL)
        failf(__LINE__, "node_out was written by a refused add");
    FX_CHECK();
}

static void case_kernel_arg_value_null(void) {
    if (!fx_make())
        return;
    unsigned v = 7;
    cgn_arg args[2] = {{NULL, sizeof(CUdeviceptr), NULL}, CGN_ARG(v)};
    cgn_kernel_update u = CGN_KERNEL_UPDATE_INIT;
    kernel_args_in_ctxs(args, 2, &u, CGN_ERROR_INVALID_ARGUMENT, __LINE__);
    /* an argument edit without a value */
    cgn_kernel_update_reset(&u);
    cgn_kernel_update_set_arg(&u, 1, NULL, sizeof v, NULL);
    kernel_update_in_ctxs(&u, CGN_ERROR_INVALID_ARGUMENT, __LINE__);
    FX_CHECK();
}

/* An argument whose value points nowhere (0x10, a PROT_NONE page): the docs name only a NULL
 * value; cgn copies the bytes, so an unreadable value must be refused rather than read (cgn
 * probes host operands of memcpy nodes the same way). Expected: refused, no crash. */
static void case_kernel_arg_value_garbage(void) {
    if (!fx_make())
        return;
    size_t pg = (size_t)sysconf(_SC_PAGESIZE);
    void *none = setup_mmap(pg, PROT_NONE, __LINE__);
    if (none == NULL)
        return;
    const void *bad[2] = {(const void *)(uintptr_t)0x10, none};
    const char *names[2] = {"0x10", "a PROT_NONE page"};
    for (int i = 0; i < 2; i++) {
        printf("  input: argument 1's value at %s\n", names[i]);
        CUdeviceptr p = fx.a;
        cgn_arg args[2] = {CGN_ARG(p), {bad[i], sizeof(unsigned), NULL}};
        cgn_kernel_update u = CGN_KERNEL_UPDATE_INIT;
        kernel_args_in_ctxs(args, 2, &u, ANY_ERR, __LINE__);
        cgn_kernel_update_reset(&u);
        cgn_kernel_update_set_arg(&u, 1, bad[i], sizeof(unsigned), NULL);
        kernel_update_in_ctxs(&u, ANY_ERR, __LINE__);
    }
    munmap(none, pg);
    FX_CHECK();
}

static void case_kernel_arg_size_zero(void) {
    if (!fx_make())
        return;
    unsigned v = 7;
    CUdeviceptr p = fx.a;
    cgn_arg args[2] = {CGN_ARG(p), {&v, 0, NULL}};
    cgn_kernel_update u = CGN_KERNEL_UPDATE_INIT;
    kernel_args_in_ctxs(args, 2, &u, CGN_ERROR_INVALID_ARGUMENT, __LINE__);
    /* an edit of size 0: the kernel's argument 1 is 4 bytes */
    cgn_kernel_update_reset(&u);
    cgn_kernel_update_set_arg(&u, 1, &v, 0, NULL);
    kernel_update_in_ctxs(&u, ANY_ERR, __LINE__);
    FX_CHECK();
}

static void case_kernel_wrong_count_and_sizes(void) {
    if (!fx_make())
        return;
    CUdeviceptr p = fx.a;
    unsigned v = 7;
    uint16_t small = 7;
    uint64_t big = 7;
    cgn_arg one[1] = {CGN_ARG(p)};
    cgn_arg three[3] = {CGN_ARG(p), CGN_ARG(v), CGN_ARG(v)};
    cgn_arg small_arg[2] = {CGN_ARG(p), CGN_ARG(small)};
    cgn_arg big_arg[2] = {CGN_ARG(p), CGN_ARG(big)};
    cgn_arg ptr_small[2] = {CGN_ARG(v), CGN_ARG(v)};
    static unsigned char huge_tail[16];
    /* a size far beyond the value's storage: refused on the size, never read */
    cgn_arg huge[2] = {CGN_ARG(p), {huge_tail, (size_t)1 << 30, NULL}};
    const struct {
        const cgn_arg *args;
        uint32_t n;
        const char *what;
    } bad[] = {{one, 1, "1 argument for 2"},
               {three, 3, "3 arguments for 2"},
               {small_arg, 2, "argument 1 of 2 bytes for 4"},
               {big_arg, 2, "argument 1 of 8 bytes for 4"},
               {ptr_small, 2, "argument 0 of 4 bytes for 8"},
               {huge, 2, "argument 1 of 1 GiB"},
               {three, 0, "no argument for 2"}};
    for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++) {
        printf("  input: %s\n", bad[i].what);
        cgn_node *n = NULL;
        cgn_kernel_desc d = kdesc(CGN_KERNEL(k_fill), bad[i].args, bad[i].n);
        ADD_IN_CTXS(cgn_graph_add_kernel(fx.g, NULL, 0, &d, &n), CGN_ERROR_INVALID_VALUE);
        d.kernel = CGN_FUNCTION(f_fill);
        EXPECT(cgn_graph_add_kernel(fx.g, NULL, 0, &d, &n), CGN_ERROR_INVALID_VALUE);
        cgn_kernel_update u = CGN_KERNEL_UPDATE_INIT;
        cgn_kernel_update_set_args(&u, bad[i].args, bad[i].n);
        kernel_update_in_ctxs(&u, CGN_ERROR_INVALID_VALUE, __LINE__);
    }
    FX_CHECK();
}

static void case_kernel_num_args_huge(void) {
    if (!fx_make())
        return;
    CUdeviceptr p = fx.a;
    unsigned v = 7;
    cgn_arg args[2] = {CGN_ARG(p), CGN_ARG(v)};
    const uint32_t counts[] = {UINT32_MAX, UINT32_MAX / 2, 32765u, 1u << 20};
    for (size_t i = 0; i < sizeof counts / sizeof counts[0]; i++) {
        printf("  input: 2 real arguments, num_args %u\n", counts[i]);
        cgn_kernel_update u = CGN_KERNEL_UPDATE_INIT;
        kernel_args_in_ctxs(args, counts[i], &u, CGN_ERROR_INVALID_VALUE, __LINE__);
    }
    FX_CHECK();
}

static void case_kernel_set_arg_out_of_range(void) {
    if (!fx_make())
        return;
    unsigned v = 0x2222;
    uint64_t wide = 0x2222;
    const struct {
        uint32_t index;
        const void *value;
        size_t size;
        int want;
        const char *what;
    } bad[] = {
        {2, &v, sizeof v, CGN_ERROR_INVALID_VALUE, "index 2 of 2"},
        {UINT32_MAX, &v, sizeof v, CGN_ERROR_INVALID_VALUE, "index UINT32_MAX"},
        {32764, &v, sizeof v, CGN_ERROR_INVALID_VALUE, "index 32764"},
        {1, &wide, sizeof wide, CGN_ERROR_INVALID_VALUE, "size 8 for 4"},
        {1, &v, SIZE_MAX, CGN_ERROR_INVALID_VALUE, "size SIZE_MAX"},
        {1, &v, (size_t)UINT32_MAX - 1, CGN_ERROR_INVALID_VALUE, "size UINT32_MAX-1"},
        {1, NULL, sizeof v, CGN_ERROR_INVALID_ARGUMENT, "value NULL"},
    };
    for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++) {
        printf("  input: set_arg %s\n", bad[i].what);
        cgn_kernel_update u = CGN_KERNEL_UPDATE_INIT;
        cgn_kernel_update_set_arg(&u, bad[i].index, bad[i].value, bad[i].size, NULL);
        kernel_update_in_ctxs(&u, bad[i].want, __LINE__);
    }
    /* more edits than CGN_MAX_ARG_EDITS; count forged past the array too */
    cgn_kernel_update u = CGN_KERNEL_UPDATE_INIT;
    for (int i = 0; i < CGN_MAX_ARG_EDITS + 1; i++)
        cgn_kernel_update_set_arg(&u, 1, &v, sizeof v, NULL);
    kernel_update_in_ctxs(&u, CGN_ERROR_INVALID_ARGUMENT, __LINE__);
    u.arg_edits.count = UINT32_MAX;
    IN_CTXS(cgn_kernel_node_update(fx.k, &u), CGN_ERROR_INVALID_ARGUMENT);
    /* a valid edit followed by a bad one: all or nothing */
    cgn_kernel_update_reset(&u);
    cgn_kernel_update_set_arg(&u, 1, &v, sizeof v, NULL);
    cgn_kernel_update_set_arg(&u, 5, &v, sizeof v, NULL);
    kernel_update_in_ctxs(&u, CGN_ERROR_INVALID_VALUE, __LINE__);
    /* unknown bits in set */
    cgn_kernel_update_reset(&u);
    u.set = UINT64_C(1) << 40;
    kernel_update_in_ctxs(&u, CGN_ERROR_INVALID_ARGUMENT, __LINE__);
    FX_CHECK();
}

/* A CUfunction and a CUkernel of a library that was unloaded. */
static int dangling_kernel(CUfunction *f_out, CUkernel *k_out) {
    CUlibrary l2 = NULL;
    if (cu.cuLibraryLoadData(&l2, cgn_test_kernels_fatbin, NULL, NULL, 0, NULL, NULL, 0) !=
            CUDA_SUCCESS ||
        cu.cuLibraryGetKernel(k_out, l2, "fill_u32") != CUDA_SUCCESS ||
        cu.cuKernelGetFunction(f_out, *k_out) != CUDA_SUCCESS ||
        cu.cuLibraryUnload(l2) != CUDA_SUCCESS) {
        failf(__LINE__, "setup: loading and unloading a second library failed");
        return 0;
    }
    return 1;
}

static void kernel_bad_handle_battery(cgn_kernel bad, const char *what, int line) {
    printf("  input: kernel %s (line %d)\n", what, line);
    CUdeviceptr p = fx.a;
    unsigned v = 7;
    cgn_arg args[2] = {CGN_ARG(p), CGN_ARG(v)};
    cgn_node *n = NULL;
    cgn_kernel_desc d = kdesc(bad, args, 2);
    ADD_IN_CTXS(cgn_graph_add_kernel(fx.g, NULL, 0, &d, &n), ANY_ERR);
    cgn_kernel_update u = CGN_KERNEL_UPDATE_INIT;
    cgn_kernel_update_set_kernel(&u, bad, NULL, args, 2);
    kernel_update_in_ctxs(&u, ANY_ERR, __LINE__);
    /* lookups by a bad kernel must not crash either */
    size_t count = 0;
    cgn_status st = cgn_graph_find_kernel(fx.g, bad, NULL, &count);
    if (st == CGN_OK && count != 0)
        failf(line, "cgn_graph_find_kernel(%s) found %zu nodes", what, count);
}

/* kernel_bad_handle_battery with the CUfunction (use_function) or the CUkernel of an unloaded
 * library, then the fixture checked; reported at the caller's `line`. */
static void dangling_kernel_case(int use_function, int line) {
    if (!fx_make())
        return;
    CUfunction f = NULL;
    CUkernel k = NULL;
    if (!dangling_kernel(&f, &k))
        return;
    if (use_function)
        kernel_bad_handle_battery(CGN_FUNCTION(f), "CUfunction of an unloaded library", line);
    else
        kernel_bad_handle_battery(CGN_KERNEL(k), "CUkernel of an unloaded library", line);
    fx_check_at(line);
}

static void case_kernel_dangling_function(void) {
    dangling_kernel_case(1, __LINE__);
}

static void case_kernel_dangling_kernel(void) {
    dangling_kernel_case(0, __LINE__);
}

static unsigned char zero_page[4096];

static void case_kernel_garbage_kernel(void) {
    if (fx_make())
        kernel_bad_handle_battery(CGN_KERNEL((CUkernel)(uintptr_t)0x1234), "CUkernel 0x1234",
                                  __LINE__);
    FX_CHECK();
}

static void case_kernel_garbage_function(void) {
    if (fx_make())
        kernel_bad_handle_battery(CGN_FUNCTION((CUfunction)(uintptr_t)0x1234), "CUfunction 0x1234",
                                  __LINE__);
    FX_CHECK();
}

static void case_kernel_zeroed_memory_kernel(void) {
    if (fx_make())
        kernel_bad_handle_battery(CGN_KERNEL((CUkernel)(void *)zero_page),
                                  "CUkernel pointing at zeroed host memory", __LINE__);
    FX_CHECK();
}

static void case_kernel_handle_as_function(void) {
    if (fx_make())
        kernel_bad_handle_battery(CGN_FUNCTION((CUfunction)(void *)fx.g),
                                  "a cgn graph handle as CUfunction", __LINE__);
    FX_CHECK();
}

/* A CUfunction of a context that was destroyed: dangling. */
static void case_kernel_function_of_destroyed_context(void) {
    if (!fx_make())
        return;
    CUcontext c3 = NULL, popped = NULL;
    CUfunction f3 = NULL;
    CU(dx.cuCtxCreate(&c3, NULL, 0, cu.device));
    CU(cu.cuKernelGetFunction(&f3, k_fill));
    CU(dx.cuCtxPopCurrent(&popped));
    CU(dx.cuCtxDestroy(c3));
    set_ctx(cu.context);
    kernel_bad_handle_battery(CGN_FUNCTION(f3), "CUfunction of a destroyed context", __LINE__);
    FX_CHECK();
}

/* A CUfunction of another (live) context: added with the primary context current, and a
 * definition update to it with no context current (the H200's driver segfaults on a kernel
 * update to a CUfunction while no context is current, tests/support/fake_driver.c). The docs
 * do not say whether the definition may move; no crash is asserted, a refusal must leave the
 * node, and the executable (INVALID_VALUE: it cannot move) is checked as well. */
static void case_kernel_foreign_context_definition(void) {
    if (!fx_make())
        return;
    CUfunction f_other = NULL;
    set_ctx(ctx_other);
    CU(cu.cuKernelGetFunction(&f_other, k_fill));
    set_ctx(cu.context);
    cgn_graph *g = NULL;
    cgn_node *n = NULL, *m = NULL;
    OK(cgn_graph_create(&g));
    cgn_kernel_desc d = kdesc(CGN_FUNCTION(f_fill), fx.kargs, 2);
    OK(cgn_graph_add_kernel(g, NULL, 0, &d, &n));
    d.kernel = CGN_FUNCTION(f_other);
    EXPECT(cgn_graph_add_kernel(g, NULL, 0, &d, &m), ERR_OR_OK);
    cgn_kernel_update u = CGN_KERNEL_UPDATE_INIT;
    cgn_kernel_update_set_kernel(&u, CGN_FUNCTION(f_other), NULL, fx.kargs, 2);
    for (int w = 0; w < CTX_STATES; w++) {
        set_ctx(ctx_of(w));
        TRACE("cgn_kernel_node_update to another context's CUfunction");
        cgn_status st = cgn_kernel_node_update(n, &u);
        check_status(st, ERR_OR_OK, "definition update to another context's CUfunction",
                     ctx_names[w], __LINE__);
        expect_ctx_at(ctx_of(w), "definition update to another context's CUfunction", __LINE__);
        set_ctx(cu.context);
        cgn_kernel_desc got;
        OK(cgn_kernel_node_get(n, &got));
        if (st != CGN_OK && got.kernel.function != f_fill)
            failf(__LINE__, "a refused definition update changed the kernel");
        if (st == CGN_OK) {
            /* back to f_fill, from the same context state */
            cgn_kernel_update b = CGN_KERNEL_UPDATE_INIT;
            cgn_kernel_update_set_kernel(&b, CGN_FUNCTION(f_fill), NULL, fx.kargs, 2);
            set_ctx(ctx_of(w));
            TRACE("cgn_kernel_node_update back to f_fill");
            st = cgn_kernel_node_update(n, &b);
            check_status(st, ERR_OR_OK, "definition update back", ctx_names[w], __LINE__);
            set_ctx(cu.context);
        }
    }
    /* the fixture's executable: INVALID_VALUE (documented), in every context state */
    IN_CTXS(cgn_kernel_exec_update(fx.e, fx.k, &u), CGN_ERROR_INVALID_VALUE);
    cgn_graph_destroy(g);
    FX_CHECK();
}

static void case_kernel_neither_or_both(void) {
    if (!fx_make())
        return;
    CUdeviceptr p = fx.a;
    unsigned v = 7;
    cgn_arg args[2] = {CGN_ARG(p), CGN_ARG(v)};
    cgn_kernel none = {NULL, NULL};
    cgn_kernel both = {f_fill, k_fill};
    cgn_node *n = NULL;
    cgn_kernel_desc d = kdesc(none, args, 2);
    ADD_IN_CTXS(cgn_graph_add_kernel(fx.g, NULL, 0, &d, &n), CGN_ERROR_INVALID_VALUE);
    d.kernel = both;
    ADD_IN_CTXS(cgn_graph_add_kernel(fx.g, NULL, 0, &d, &n), CGN_ERROR_INVALID_VALUE);
    cgn_kernel_update u = CGN_KERNEL_UPDATE_INIT;
    cgn_kernel_update_set_kernel(&u, none, NULL, args, 2);
    kernel_update_in_ctxs(&u, CGN_ERROR_INVALID_VALUE, __LINE__);
    cgn_kernel_update_set_kernel(&u, both, NULL, args, 2);
    kernel_update_in_ctxs(&u, CGN_ERROR_INVALID_VALUE, __LINE__);
    /* kernel set without args (coupling) */
    cgn_kernel_update_reset(&u);
    u.kernel = CGN_KERNEL(k_add);
    u.set = CGN_KERNEL_SET_KERNEL;
    kernel_update_in_ctxs(&u, CGN_ERROR_MISSING_FIELD, __LINE__);
    FX_CHECK();
}

static void case_kernel_dims_zero(void) {
    if (!fx_make())
        return;
    const cgn_dim3 zeros[] = {CGN_DIM3(0, 1, 1), CGN_DIM3(1, 0, 1), CGN_DIM3(1, 1, 0),
                              CGN_DIM3(0, 0, 0)};
    for (size_t i = 0; i < sizeof zeros / sizeof zeros[0]; i++) {
        printf("  input: grid/block (%u,%u,%u)\n", zeros[i].x, zeros[i].y, zeros[i].z);
        cgn_node *n = NULL;
        cgn_kernel_desc d = kdesc(CGN_KERNEL(k_fill), fx.kargs, 2);
        d.grid = zeros[i];
        ADD_IN_CTXS(cgn_graph_add_kernel(fx.g, NULL, 0, &d, &n), CGN_ERROR_INVALID_VALUE);
        d.grid = CGN_DIM3(1, 1, 1);
        d.block = zeros[i];
        ADD_IN_CTXS(cgn_graph_add_kernel(fx.g, NULL, 0, &d, &n), CGN_ERROR_INVALID_VALUE);
        cgn_kernel_update u = CGN_KERNEL_UPDATE_INIT;
        cgn_kernel_update_set_grid(&u, zeros[i]);
        kernel_update_in_ctxs(&u, CGN_ERROR_INVALID_VALUE, __LINE__);
        cgn_kernel_update_reset(&u);
        cgn_kernel_update_set_block(&u, zeros[i]);
        kernel_update_in_ctxs(&u, CGN_ERROR_INVALID_VALUE, __LINE__);
    }
    FX_CHECK();
}

/* Launch limits cgn does not state it checks: a refusal must leave everything as it was; an
 * acceptance is noted, and then instantiating and launching must fail cleanly (or run). */
static void limit_try(const char *what, cgn_dim3 grid, cgn_dim3 block, uint32_t smem, int line) {
    printf("  input: %s\n", what);
    cgn_graph *g = NULL;
    if (cgn_graph_create(&g) != CGN_OK) {
        failf(line, "setup: cgn_graph_create: %s", cgn_last_error());
        return;
    }
    cgn_kernel_desc d = kdesc(CGN_KERNEL(k_fill), fx.kargs, 2);
    d.grid = grid;
    d.block = block;
    d.shared_mem_bytes = smem;
    cgn_node *n = NULL;
    cgn_status st = cgn_graph_add_kernel(g, NULL, 0, &d, &n);
    check_status(st, ERR_OR_OK, what, "add", line);
    expect_ctx_at(cu.context, what, line);
    if (st == CGN_OK) {
        cgn_exec *e = NULL;
        st = cgn_graph_instantiate(g, &e);
        note("line %d: %s: add accepted; instantiate -> %s (%s)", line, what, cgn_status_name(st),
             st == CGN_OK ? "" : cgn_last_error());
        if (st == CGN_OK) {
            st = cgn_exec_launch(e, stream);
            CUresult r = cu.cuStreamSynchronize(stream);
            note("line %d: %s: launch -> %s (%s), sync -> %d", line, what, cgn_status_name(st),
                 st == CGN_OK ? "" : cgn_last_error(), (int)r);
            cgn_exec_destroy(e);
        }
    }
    cgn_graph_destroy(g);
    /* the same as an update of the fixture's node, at both levels */
    cgn_kernel_update u = CGN_KERNEL_UPDATE_INIT;
    cgn_kernel_update_set_grid(&u, grid);
    cgn_kernel_update_set_block(&u, block);
    cgn_kernel_update_set_shared_mem_bytes(&u, smem);
    st = cgn_kernel_node_update(fx.k, &u);
    check_status(st, ERR_OR_OK, what, "definition update", line);
    if (st == CGN_OK) {
        note("line %d: %s: definition update accepted; restoring", line, what);
        cgn_kernel_update back = CGN_KERNEL_UPDATE_INIT;
        cgn_kernel_update_set_grid(&back, CGN_DIM3(1, 1, 1));
        cgn_kernel_update_set_block(&back, CGN_DIM3(1, 1, 1));
        cgn_kernel_update_set_shared_mem_bytes(&back, 0);
        if (cgn_kernel_node_update(fx.k, &back) != CGN_OK)
            failf(line, "restoring the definition failed: %s", cgn_last_error());
    }
    st = cgn_kernel_exec_update(fx.e, fx.k, &u);
    check_status(st, ERR_OR_OK, what, "executable update", line);
    if (st == CGN_OK) {
        st = cgn_exec_launch(fx.e, stream);
        CUresult r = cu.cuStreamSynchronize(stream);
        note("line %d: %s: executable update accepted; launch -> %s, sync -> %d", line, what,
             cgn_status_name(st), (int)r);
        cgn_kernel_update back = CGN_KERNEL_UPDATE_INIT;
        cgn_kernel_update_set_grid(&back, CGN_DIM3(1, 1, 1));
        cgn_kernel_update_set_block(&back, CGN_DIM3(1, 1, 1));
        cgn_kernel_update_set_shared_mem_bytes(&back, 0);
        if (cgn_kernel_exec_update(fx.e, fx.k, &back) != CGN_OK)
            failf(line, "restoring the executable failed: %s", cgn_last_error());
    }
    expect_ctx_at(cu.context, what, line);
}

static void case_kernel_launch_limits(void) {
    if (!fx_make())
        return;
    limit_try("block 2048 threads", CGN_DIM3(1, 1, 1), CGN_DIM3(2048, 1, 1), 0, __LINE__);
    limit_try("block (1024,1,65)", CGN_DIM3(1, 1, 1), CGN_DIM3(1024, 1, 65), 0, __LINE__);
    limit_try("block UINT32_MAX", CGN_DIM3(1, 1, 1), CGN_DIM3(UINT32_MAX, 1, 1), 0, __LINE__);
    limit_try("grid.y 70000", CGN_DIM3(1, 70000, 1), CGN_DIM3(1, 1, 1), 0, __LINE__);
    limit_try("grid.x UINT32_MAX", CGN_DIM3(UINT32_MAX, 1, 1), CGN_DIM3(1, 1, 1), 0, __LINE__);
    limit_try("grid all UINT32_MAX", CGN_DIM3(UINT32_MAX, UINT32_MAX, UINT32_MAX),
              CGN_DIM3(1, 1, 1), 0, __LINE__);
    limit_try("shared mem UINT32_MAX", CGN_DIM3(1, 1, 1), CGN_DIM3(1, 1, 1), UINT32_MAX, __LINE__);
    limit_try("shared mem 1 MiB", CGN_DIM3(1, 1, 1), CGN_DIM3(1, 1, 1), 1u << 20, __LINE__);
    FX_CHECK();
}

/* ---- memset cases ---------------------------------------------------------------------------- */

static void memset_battery(const cgn_memset_desc *bad, int want, const char *what, int line) {
    printf("  input: memset %s (line %d)\n", what, line);
    cgn_node *n = NULL;
    ADD_IN_CTXS(cgn_graph_add_memset(fx.g, NULL, 0, bad, &n), want);
    cgn_memset_update u = CGN_MEMSET_UPDATE_INIT;
    cgn_memset_update_from_desc(&u, bad);
    IN_CTXS(cgn_memset_node_update(fx.ms, &u), want);
    /* the executable's memset is 1-D: a 2-D desc breaks its rules first */
    IN_CTXS(cgn_memset_exec_update(fx.e, fx.ms, &u), bad->height > 1 ? ANY_ERR : want);
}

static cgn_memset_desc ms_ok(void) {
    cgn_memset_desc d = CGN_MEMSET_DESC_INIT;
    d.dst = fx.b;
    d.value = 1;
    d.element_size = 1;
    d.width = 16;
    return d;
}

static void case_memset_dst_zero_and_freed(void) {
    if (!fx_make())
        return;
    cgn_memset_desc d = ms_ok();
    d.dst = 0;
    memset_battery(&d, CGN_ERROR_INVALID_VALUE, "dst 0", __LINE__);
    CUdeviceptr freed = dalloc(4096);
    if (cu.cuMemFree(freed) != CUDA_SUCCESS)
        failf(__LINE__, "setup: cuMemFree");
    d = ms_ok();
    d.dst = freed;
    /* the docs give no cgn rule: the driver must refuse it (CGN_ERROR_DRIVER), unchecked */
    memset_battery(&d, ANY_ERR, "dst freed device memory", __LINE__);
    static unsigned char host_buf[64];
    d.dst = (CUdeviceptr)(uintptr_t)host_buf;
    memset_battery(&d, ANY_ERR, "dst pageable host memory", __LINE__);
    d.dst = (CUdeviceptr)0x10;
    memset_battery(&d, ANY_ERR, "dst 0x10", __LINE__);
    FX_CHECK();
}

static void case_memset_element_size(void) {
    if (!fx_make())
        return;
    const uint32_t sizes[] = {0, 3, 8, UINT32_MAX};
    for (size_t i = 0; i < sizeof sizes / sizeof sizes[0]; i++) {
        cgn_memset_desc d = ms_ok();
        d.element_size = sizes[i];
        d.value = 0;
        char what[64];
        snprintf(what, sizeof what, "element_size %u", sizes[i]);
        memset_battery(&d, CGN_ERROR_INVALID_VALUE, what, __LINE__);
    }
    FX_CHECK();
}

static void case_memset_width_height(void) {
    if (!fx_make())
        return;
    cgn_memset_desc d = ms_ok();
    d.width = 0;
    memset_battery(&d, CGN_ERROR_INVALID_VALUE, "width 0", __LINE__);
    d = ms_ok();
    d.height = 0;
    memset_battery(&d, CGN_ERROR_INVALID_VALUE, "height 0", __LINE__);
    d = ms_ok();
    d.width = SIZE_MAX;
    d.element_size = 4;
    memset_battery(&d, CGN_ERROR_OUT_OF_RANGE, "width SIZE_MAX x 4 bytes", __LINE__);
    d = ms_ok();
    d.width = SIZE_MAX / 2 + 1;
    d.element_size = 2;
    memset_battery(&d, CGN_ERROR_OUT_OF_RANGE, "width 2^63 x 2 bytes", __LINE__);
    d = ms_ok();
    d.height = SIZE_MAX / 2;
    d.pitch = 4096;
    memset_battery(&d, CGN_ERROR_OUT_OF_RANGE, "height 2^63 rows of pitch 4096", __LINE__);
    d = ms_ok();
    d.height = SIZE_MAX;
    d.pitch = SIZE_MAX;
    memset_battery(&d, CGN_ERROR_OUT_OF_RANGE, "height SIZE_MAX, pitch SIZE_MAX", __LINE__);
    d = ms_ok();
    d.height = 2;
    d.width = 16;
    d.element_size = 4;
    d.pitch = 63;
    memset_battery(&d, CGN_ERROR_INVALID_VALUE, "pitch 63 < width*element_size 64", __LINE__);
    d.pitch = 0;
    memset_battery(&d, CGN_ERROR_INVALID_VALUE, "pitch 0 with height 2", __LINE__);
    FX_CHECK();
}

static void case_memset_value_range(void) {
    if (!fx_make())
        return;
    cgn_memset_desc d = ms_ok();
    d.value = 0x100;
    memset_battery(&d, CGN_ERROR_OUT_OF_RANGE, "value 0x100, element_size 1", __LINE__);
    d.value = UINT32_MAX;
    memset_battery(&d, CGN_ERROR_OUT_OF_RANGE, "value 0xffffffff, element_size 1", __LINE__);
    d.value = 0x10000;
    d.element_size = 2;
    memset_battery(&d, CGN_ERROR_OUT_OF_RANGE, "value 0x10000, element_size 2", __LINE__);
    /* coupling: value without element_size, and unknown bits */
    cgn_memset_update u = CGN_MEMSET_UPDATE_INIT;
    u.value = 3;
    u.set = CGN_MEMSET_SET_VALUE;
    IN_CTXS(cgn_memset_node_update(fx.ms, &u), CGN_ERROR_MISSING_FIELD);
    IN_CTXS(cgn_memset_exec_update(fx.e, fx.ms, &u), CGN_ERROR_MISSING_FIELD);
    u.set = ~UINT64_C(0);
    IN_CTXS(cgn_memset_node_update(fx.ms, &u), CGN_ERROR_INVALID_ARGUMENT);
    IN_CTXS(cgn_memset_exec_update(fx.e, fx.ms, &u), CGN_ERROR_INVALID_ARGUMENT);
    FX_CHECK();
}

/* ---- memcpy cases ---------------------------------------------------------------------------- */

static void memcpy_battery(CUdeviceptr dst, CUdeviceptr src, size_t size, int want,
                           const char *what, int line) {
    printf("  input: memcpy %s (line %d)\n", what, line);
    cgn_memcpy_desc d = CGN_MEMCPY_DESC_INIT;
    d.dst = dst;
    d.src = src;
    d.size = size;
    cgn_node *n = NULL;
    ADD_IN_CTXS(cgn_graph_add_memcpy(fx.g, NULL, 0, &d, &n), want);
    cgn_memcpy_update u = CGN_MEMCPY_UPDATE_INIT;
    cgn_memcpy_update_from_desc(&u, &d);
    IN_CTXS(cgn_memcpy_node_update(fx.cp, &u), want);
    /* the executable's copy is device to device: a host operand breaks its rule first */
    IN_CTXS(cgn_memcpy_exec_update(fx.e, fx.cp, &u), ANY_ERR);
    /* each field alone, over the node's valid ones */
    cgn_memcpy_update_reset(&u);
    if (dst != fx.c) {
        cgn_memcpy_update_set_dst(&u, dst, NULL);
        if (size != FX_BYTES)
            cgn_memcpy_update_set_size(&u, size);
        IN_CTXS(cgn_memcpy_node_update(fx.cp, &u), ANY_ERR);
        IN_CTXS(cgn_memcpy_exec_update(fx.e, fx.cp, &u), ANY_ERR);
        cgn_memcpy_update_reset(&u);
    }
    if (src != fx.b) {
        cgn_memcpy_update_set_src(&u, src, NULL);
        if (size != FX_BYTES)
            cgn_memcpy_update_set_size(&u, size);
        IN_CTXS(cgn_memcpy_node_update(fx.cp, &u), ANY_ERR);
        IN_CTXS(cgn_memcpy_exec_update(fx.e, fx.cp, &u), ANY_ERR);
    }
}

static void case_memcpy_size(void) {
    if (!fx_make())
        return;
    static unsigned char host[64];
    CUdeviceptr h = (CUdeviceptr)(uintptr_t)host;
    memcpy_battery(fx.c, fx.b, 0, CGN_ERROR_INVALID_VALUE, "size 0", __LINE__);
    memcpy_battery(fx.c, h, SIZE_MAX, CGN_ERROR_OUT_OF_RANGE, "host src, size SIZE_MAX", __LINE__);
    memcpy_battery(h, fx.b, SIZE_MAX - 8, CGN_ERROR_OUT_OF_RANGE, "host dst, size SIZE_MAX-8",
                   __LINE__);
    /* device to device past the allocations: no cgn rule; the driver must refuse */
    memcpy_battery(fx.c, fx.b, SIZE_MAX, ANY_ERR, "device operands, size SIZE_MAX", __LINE__);
    memcpy_battery(fx.c, fx.b, (size_t)1 << 40, ANY_ERR, "device operands, size 1 TiB", __LINE__);
    FX_CHECK();
}

static void case_memcpy_freed_and_garbage(void) {
    if (!fx_make())
        return;
    CUdeviceptr freed = dalloc(4096);
    if (cu.cuMemFree(freed) != CUDA_SUCCESS)
        failf(__LINE__, "setup: cuMemFree");
    memcpy_battery(fx.c, freed, 64, CGN_ERROR_INVALID_VALUE, "src freed device memory", __LINE__);
    memcpy_battery(freed, fx.b, 64, CGN_ERROR_INVALID_VALUE, "dst freed device memory", __LINE__);
    memcpy_battery(fx.c, 0x10, 64, CGN_ERROR_INVALID_VALUE, "src 0x10", __LINE__);
    memcpy_battery(0x10, fx.b, 64, CGN_ERROR_INVALID_VALUE, "dst 0x10", __LINE__);
    memcpy_battery(fx.c, 0, 64, CGN_ERROR_INVALID_VALUE, "src 0", __LINE__);
    memcpy_battery(0, fx.b, 64, CGN_ERROR_INVALID_VALUE, "dst 0", __LINE__);
    memcpy_battery(fx.c, (CUdeviceptr)UINT64_MAX - 63, 64, ANY_ERR, "src at the top of memory",
                   __LINE__);
    memcpy_battery(fx.c, (CUdeviceptr)0x00007ffffffff000ull, 64, ANY_ERR,
                   "src unmapped canonical host address", __LINE__);
    FX_CHECK();
}

static void case_memcpy_readonly_dst(void) {
    if (!fx_make())
        return;
    static const char literal[] = "a string literal that cgn must not let the GPU overwrite.....";
    memcpy_battery((CUdeviceptr)(uintptr_t)literal, fx.b, 32, CGN_ERROR_INVALID_VALUE,
                   "dst a string literal (read-only)", __LINE__);
    long pg = sysconf(_SC_PAGESIZE);
    void *ro = setup_mmap((size_t)pg, PROT_READ, __LINE__);
    if (ro == NULL)
        return;
    memcpy_battery((CUdeviceptr)(uintptr_t)ro, fx.b, 64, CGN_ERROR_INVALID_VALUE,
                   "dst an mmap PROT_READ page", __LINE__);
    /* a PROT_NONE page as source */
    void *none = mmap(NULL, (size_t)pg, PROT_NONE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
    if (none != MAP_FAILED) {
        memcpy_battery(fx.c, (CUdeviceptr)(uintptr_t)none, 64, ANY_ERR,
                       "src an mmap PROT_NONE page", __LINE__);
        munmap(none, (size_t)pg);
    }
    /* the function's own code as a destination */
    memcpy_battery((CUdeviceptr)(uintptr_t)&case_memcpy_readonly_dst, fx.b, 16,
                   CGN_ERROR_INVALID_VALUE, "dst the program's code", __LINE__);
    munmap(ro, (size_t)pg);
    FX_CHECK();
}

static void case_memcpy_host_hole(void) {
    if (!fx_make())
        return;
    size_t pg = (size_t)sysconf(_SC_PAGESIZE);
    unsigned char *base = setup_mmap(3 * pg, PROT_READ | PROT_WRITE, __LINE__);
    if (base == NULL)
        return;
    memset(base, 1, 3 * pg);
    munmap(base + pg, pg);
    CUdeviceptr big = dalloc(3 * pg);
    memcpy_battery(big, (CUdeviceptr)(uintptr_t)base, 3 * pg, CGN_ERROR_INVALID_VALUE,
                   "host src spanning an unmapped page", __LINE__);
    memcpy_battery((CUdeviceptr)(uintptr_t)base, big, 3 * pg, CGN_ERROR_INVALID_VALUE,
                   "host dst spanning an unmapped page", __LINE__);
    /* dst is the fixture's own (a device buffer): only the source runs into the hole. */
    memcpy_battery(fx.c, (CUdeviceptr)(uintptr_t)(base + pg - 8), 16, CGN_ERROR_INVALID_VALUE,
                   "host src running into the hole", __LINE__);
    munmap(base, pg);
    munmap(base + 2 * pg, pg);
    cu.cuMemFree(big);
    FX_CHECK();
}

/* Overlapping device operands: the docs neither allow nor refuse them (CUDA leaves the result
 * undefined); no crash is asserted, and an accepted copy is launched. */
static void case_memcpy_overlap(void) {
    if (!fx_make())
        return;
    cgn_graph *g = NULL;
    cgn_node *n = NULL;
    OK(cgn_graph_create(&g));
    cgn_memcpy_desc d = CGN_MEMCPY_DESC_INIT;
    d.dst = fx.b + 8;
    d.src = fx.b;
    d.size = 32;
    TRACE("cgn_graph_add_memcpy (overlapping)");
    cgn_status st = cgn_graph_add_memcpy(g, NULL, 0, &d, &n);
    check_status(st, ERR_OR_OK, "cgn_graph_add_memcpy with overlapping operands", "primary",
                 __LINE__);
    d.dst = fx.b;
    st = cgn_graph_add_memcpy(g, NULL, 0, &d, &n);
    check_status(st, ERR_OR_OK, "cgn_graph_add_memcpy with src == dst", "primary", __LINE__);
    cgn_exec *e = NULL;
    if (cgn_graph_instantiate(g, &e) == CGN_OK) {
        st = cgn_exec_launch(e, stream);
        CUresult r = cu.cuStreamSynchronize(stream);
        if (r != CUDA_SUCCESS)
            failf(__LINE__, "overlapping copy: launch %s, sync returned %d", cgn_status_name(st),
                  (int)r);
        cgn_exec_destroy(e);
    }
    cgn_graph_destroy(g);
    FX_CHECK();
}

/* ---- memcpy_3d cases --------------------------------------------------------------------------
 */

static cgn_memcpy_3d_desc m3_ok(void) {
    cgn_memcpy_3d_desc d = CGN_MEMCPY_3D_DESC_INIT;
    d.dst = fx.c;
    d.src = fx.b;
    d.width_in_bytes = FX_BYTES;
    return d;
}

static void m3_battery(cgn_node *node, const cgn_memcpy_3d_desc *bad, int want, const char *what,
                       int line) {
    printf("  input: memcpy_3d %s (line %d)\n", what, line);
    cgn_node *n = NULL;
    ADD_IN_CTXS(cgn_graph_add_memcpy_3d(fx.g, NULL, 0, bad, &n), want);
    cgn_memcpy_3d_update u = CGN_MEMCPY_3D_UPDATE_INIT;
    cgn_memcpy_3d_update_from_desc(&u, bad);
    IN_CTXS(cgn_memcpy_3d_node_update(node, &u), want);
}

static void case_memcpy_3d_hostile(void) {
    if (!fx_make())
        return;
    cgn_graph *g = NULL;
    cgn_node *node = NULL;
    cgn_exec *e = NULL;
    cgn_memcpy_3d_desc ok = m3_ok();
    OK(cgn_graph_create(&g));
    OK(cgn_graph_add_memcpy_3d(g, NULL, 0, &ok, &node));
    OK(cgn_graph_instantiate(g, &e));
    cgn_memcpy_3d_desc d = m3_ok();
    d.depth = SIZE_MAX / 2;
    d.height = 2;
    d.src_pitch = d.dst_pitch = FX_BYTES;
    d.src_height = d.dst_height = 2;
    m3_battery(node, &d, CGN_ERROR_OUT_OF_RANGE, "depth 2^63 slices", __LINE__);
    d = m3_ok();
    d.height = SIZE_MAX / 4;
    d.src_pitch = d.dst_pitch = 4096;
    m3_battery(node, &d, CGN_ERROR_OUT_OF_RANGE, "height 2^62 rows of pitch 4096", __LINE__);
    d = m3_ok();
    d.dst_x_in_bytes = SIZE_MAX;
    m3_battery(node, &d, CGN_ERROR_OUT_OF_RANGE, "dst_x_in_bytes SIZE_MAX", __LINE__);
    d = m3_ok();
    d.src_y = SIZE_MAX;
    m3_battery(node, &d, ANY_ERR, "src_y SIZE_MAX", __LINE__);
    d = m3_ok();
    d.src_z = SIZE_MAX - 1;
    d.src_height = 1;
    d.src_pitch = FX_BYTES;
    m3_battery(node, &d, ANY_ERR, "src_z SIZE_MAX-1", __LINE__);
    d = m3_ok();
    d.width_in_bytes = 0;
    m3_battery(node, &d, CGN_ERROR_INVALID_VALUE, "width 0", __LINE__);
    d = m3_ok();
    d.depth = 0;
    m3_battery(node, &d, CGN_ERROR_INVALID_VALUE, "depth 0", __LINE__);
    d = m3_ok();
    d.src = 0;
    m3_battery(node, &d, CGN_ERROR_INVALID_VALUE, "src 0 and src_array NULL", __LINE__);
    d = m3_ok();
    d.dst = 0;
    d.dst_array = NULL;
    m3_battery(node, &d, CGN_ERROR_INVALID_VALUE, "dst 0 and dst_array NULL", __LINE__);
    d = m3_ok();
    d.src_array = (CUarray)(uintptr_t)0x1234;
    m3_battery(node, &d, CGN_ERROR_INVALID_VALUE, "both src and src_array", __LINE__);
    d = m3_ok();
    d.height = 2;
    d.src_pitch = d.dst_pitch = FX_BYTES - 1;
    m3_battery(node, &d, CGN_ERROR_INVALID_VALUE, "pitch < width", __LINE__);
    /* host rows skipping over an unmapped hole */
    size_t pg = (size_t)sysconf(_SC_PAGESIZE);
    unsigned char *base =
        mmap(NULL, 3 * pg, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
    if (base != MAP_FAILED) {
        munmap(base + pg, pg);
        CUdeviceptr big = dalloc(4 * pg);
        d = m3_ok();
        d.src = (CUdeviceptr)(uintptr_t)base;
        d.src_pitch = 2 * pg;
        d.dst = big;
        d.dst_pitch = 2 * pg;
        d.width_in_bytes = 16;
        d.height = 2;
        m3_battery(node, &d, CGN_ERROR_INVALID_VALUE, "host src rows skipping an unmapped page",
                   __LINE__);
        d.src_pitch = pg;
        d.height = 3;
        d.dst_pitch = pg;
        m3_battery(node, &d, CGN_ERROR_INVALID_VALUE, "host src row inside an unmapped page",
                   __LINE__);
        munmap(base, pg);
        munmap(base + 2 * pg, pg);
        cu.cuMemFree(big);
    }
    /* exec level: 3-D changes and garbage */
    cgn_memcpy_3d_update u = CGN_MEMCPY_3D_UPDATE_INIT;
    cgn_memcpy_3d_update_set_src(&u, (CUdeviceptr)0x10, NULL);
    IN_CTXS(cgn_memcpy_3d_exec_update(e, node, &u), ANY_ERR);
    cgn_memcpy_3d_update_reset(&u);
    cgn_memcpy_3d_update_set_depth(&u, SIZE_MAX);
    IN_CTXS(cgn_memcpy_3d_exec_update(e, node, &u), ANY_ERR);
    /* the node and the executable are as made */
    cgn_memcpy_3d_desc got;
    OK(cgn_memcpy_3d_node_get(node, &got));
    if (got.dst != fx.c || got.src != fx.b || got.width_in_bytes != FX_BYTES || got.height != 1 ||
        got.depth != 1 || got.src_array || got.dst_array || got.dst_x_in_bytes || got.src_y ||
        got.src_z)
        failf(__LINE__, "memcpy_3d node changed by refused updates");
    OK(cgn_memcpy_3d_exec_get(e, node, &got));
    if (got.dst != fx.c || got.src != fx.b || got.width_in_bytes != FX_BYTES || got.depth != 1)
        failf(__LINE__, "memcpy_3d executable changed by refused updates");
    OK(cu.cuMemsetD8(fx.c, 0, FX_BYTES) == CUDA_SUCCESS ? CGN_OK : CGN_ERROR_DRIVER);
    OK(cu.cuMemsetD8(fx.b, 0x33, FX_BYTES) == CUDA_SUCCESS ? CGN_OK : CGN_ERROR_DRIVER);
    OK(cgn_exec_launch(e, stream));
    CU(cu.cuStreamSynchronize(stream));
    if (read_u32(fx.c) != 0x33333333u)
        failf(__LINE__, "memcpy_3d executable did not copy after refused updates");
    cgn_exec_destroy(e);
    cgn_graph_destroy(g);
    FX_CHECK();
}

static void case_memcpy_3d_garbage_array(void) {
    if (!fx_make())
        return;
    cgn_graph *g = NULL;
    cgn_node *node = NULL;
    cgn_memcpy_3d_desc ok = m3_ok();
    OK(cgn_graph_create(&g));
    OK(cgn_graph_add_memcpy_3d(g, NULL, 0, &ok, &node));
    cgn_memcpy_3d_desc d = m3_ok();
    d.src = 0;
    d.src_array = (CUarray)(uintptr_t)0x1234;
    m3_battery(node, &d, ANY_ERR, "src_array garbage 0x1234", __LINE__);
    d = m3_ok();
    d.dst = 0;
    d.dst_array = (CUarray)(uintptr_t)0xdeadbeef;
    m3_battery(node, &d, ANY_ERR, "dst_array garbage 0xdeadbeef", __LINE__);
    cgn_memcpy_3d_desc got;
    OK(cgn_memcpy_3d_node_get(node, &got));
    if (got.src != fx.b || got.src_array != NULL || got.dst != fx.c || got.dst_array != NULL)
        failf(__LINE__, "memcpy_3d node changed by refused updates");
    cgn_graph_destroy(g);
    FX_CHECK();
}

/* ---- host callback cases -----------------------------------------------------------------------
 */

static void host_battery(const cgn_host_callback_desc *bad, int want, const char *what, int line) {
    printf("  input: host callback %s (line %d)\n", what, line);
    cgn_node *n = NULL;
    IN_CTXS(cgn_graph_add_host_callback(fx.g, NULL, 0, bad, &n), want);
    cgn_host_callback_update u = CGN_HOST_CALLBACK_UPDATE_INIT;
    cgn_host_callback_update_set_fn(&u, bad->fn, bad->user_data, bad->user_data_owner, bad->payload,
                                    bad->payload_size);
    IN_CTXS(cgn_host_callback_node_update(fx.host, &u), want);
    IN_CTXS(cgn_host_callback_exec_update(fx.e, fx.host, &u), want);
}

static void case_host_callback_hostile(void) {
    if (!fx_make())
        return;
    static int payload[4] = {1, 2, 3, 4};
    static int user;
    cgn_host_callback_desc d = CGN_HOST_CALLBACK_DESC_INIT;
    host_battery(&d, CGN_ERROR_INVALID_VALUE, "fn NULL", __LINE__);
    d.user_data = &user;
    host_battery(&d, CGN_ERROR_INVALID_VALUE, "fn NULL with user_data", __LINE__);
    d.fn = host_count;
    d.payload = payload;
    d.payload_size = sizeof payload;
    host_battery(&d, CGN_ERROR_INVALID_VALUE, "both user_data and payload", __LINE__);
    d.user_data = NULL;
    d.payload = NULL;
    d.payload_size = 16;
    host_battery(&d, CGN_ERROR_INVALID_ARGUMENT, "payload NULL, payload_size 16", __LINE__);
    d.payload = payload;
    d.payload_size = (size_t)1 << 62;
    host_battery(&d, CGN_ERROR_OUT_OF_MEMORY, "payload_size 2^62", __LINE__);
    d.payload_size = SIZE_MAX;
    host_battery(&d, ANY_ERR, "payload_size SIZE_MAX", __LINE__);
    /* coupling: user_data without fn */
    cgn_host_callback_update u = CGN_HOST_CALLBACK_UPDATE_INIT;
    u.user_data = &user;
    u.set = CGN_HOST_CALLBACK_SET_USER_DATA;
    IN_CTXS(cgn_host_callback_node_update(fx.host, &u), CGN_ERROR_MISSING_FIELD);
    IN_CTXS(cgn_host_callback_exec_update(fx.e, fx.host, &u), CGN_ERROR_MISSING_FIELD);
    FX_CHECK();
}

/* A payload whose size runs past its mapping: cgn copies payload_size bytes; the docs name
 * only a NULL payload, but "never a crash" asks for a refusal (as for memcpy host operands,
 * which cgn probes). Expected: refused, no crash. */
static void case_host_payload_past_mapping(void) {
    if (!fx_make())
        return;
    size_t pg = (size_t)sysconf(_SC_PAGESIZE);
    unsigned char *base = setup_mmap(2 * pg, PROT_READ | PROT_WRITE, __LINE__);
    if (base == NULL)
        return;
    munmap(base + pg, pg);
    cgn_host_callback_desc d = CGN_HOST_CALLBACK_DESC_INIT;
    d.fn = host_count;
    d.payload = base;
    d.payload_size = 2 * pg;
    host_battery(&d, ANY_ERR, "payload of 2 pages, the second unmapped", __LINE__);
    d.payload = (const void *)(uintptr_t)0x10;
    d.payload_size = 64;
    host_battery(&d, ANY_ERR, "payload at 0x10", __LINE__);
    munmap(base, pg);
    FX_CHECK();
}

/* ---- event cases ------------------------------------------------------------------------------
 */

/* A setup call's status: CGN_OK, or a setup failure naming the call (as OK does), reported at
 * the caller's `line`. */
static int setup_ok(cgn_status st, const char *call, int line) {
    if (st == CGN_OK)
        return 1;
    failf(line, "setup: %s -> %s: %s", call, cgn_status_name(st), cgn_last_error());
    return 0;
}

/* A new graph with an event record node and, after it, an event wait node, both of `ev`, and an
 * executable of it. Returns 0 after a setup failure (reported at the caller's `line`). */
static int event_graph_at(CUevent ev, cgn_graph **g, cgn_node **rec, cgn_node **wait, cgn_exec **e,
                          int line) {
    cgn_event_record_desc rd = {.event = ev};
    cgn_event_wait_desc wd = {.event = ev};
    return setup_ok(cgn_graph_create(g), "cgn_graph_create(g)", line) &&
           setup_ok(cgn_graph_add_event_record(*g, NULL, 0, &rd, rec),
                    "cgn_graph_add_event_record(*g, NULL, 0, &rd, rec)", line) &&
           setup_ok(cgn_graph_add_event_wait(*g, rec, 1, &wd, wait),
                    "cgn_graph_add_event_wait(*g, rec, 1, &wd, wait)", line) &&
           setup_ok(cgn_graph_instantiate(*g, e), "cgn_graph_instantiate(*g, e)", line);
}

static void case_event_hostile(void) {
    if (!fx_make())
        return;
    CUevent ev = NULL, dead = NULL;
    CU(cu.cuEventCreate(&ev, 0));
    CU(cu.cuEventCreate(&dead, 0));
    CU(cu.cuEventDestroy(dead));
    cgn_graph *g = NULL;
    cgn_node *rec = NULL, *wait = NULL;
    cgn_exec *e = NULL;
    if (!event_graph_at(ev, &g, &rec, &wait, &e, __LINE__))
        return;
    /* NULL events */
    cgn_node *n = NULL;
    cgn_event_record_desc rnull = {.event = NULL};
    cgn_event_wait_desc wnull = {.event = NULL};
    IN_CTXS(cgn_graph_add_event_record(g, NULL, 0, &rnull, &n), CGN_ERROR_INVALID_VALUE);
    IN_CTXS(cgn_graph_add_event_wait(g, NULL, 0, &wnull, &n), CGN_ERROR_INVALID_VALUE);
    cgn_event_record_update ru = CGN_EVENT_RECORD_UPDATE_INIT;
    cgn_event_record_update_set_event(&ru, NULL, NULL);
    IN_CTXS(cgn_event_record_node_update(rec, &ru), CGN_ERROR_INVALID_VALUE);
    IN_CTXS(cgn_event_record_exec_update(e, rec, &ru), CGN_ERROR_INVALID_VALUE);
    cgn_event_wait_update wu = CGN_EVENT_WAIT_UPDATE_INIT;
    cgn_event_wait_update_set_event(&wu, NULL, NULL);
    IN_CTXS(cgn_event_wait_node_update(wait, &wu), CGN_ERROR_INVALID_VALUE);
    IN_CTXS(cgn_event_wait_exec_update(e, wait, &wu), CGN_ERROR_INVALID_VALUE);
    /* owner without event */
    cgn_event_record_update_reset(&ru);
    ru.set = CGN_EVENT_RECORD_SET_EVENT_OWNER;
    IN_CTXS(cgn_event_record_node_update(rec, &ru), CGN_ERROR_MISSING_FIELD);
    /* a destroyed event: the docs say cgn cannot tell (the driver refuses it or uses a recycled
     * handle); no crash is asserted, and a refusal must leave the node as it was */
    cgn_event_record_desc rdead = {.event = dead};
    cgn_event_wait_desc wdead = {.event = dead};
    cgn_graph *g2 = NULL;
    OK(cgn_graph_create(&g2));
    EXPECT(cgn_graph_add_event_record(g2, NULL, 0, &rdead, &n), ERR_OR_OK);
    EXPECT(cgn_graph_add_event_wait(g2, NULL, 0, &wdead, &n), ERR_OR_OK);
    cgn_graph_destroy(g2);
    cgn_event_record_update_set_event(&ru, dead, NULL);
    cgn_status st = cgn_event_record_node_update(rec, &ru);
    check_status(st, ERR_OR_OK, "record node update to a destroyed event", "primary", __LINE__);
    if (st != CGN_OK) {
        cgn_event_record_desc got;
        OK(cgn_event_record_node_get(rec, &got));
        if (got.event != ev)
            failf(__LINE__, "refused record update changed the node's event");
    }
    st = cgn_event_record_exec_update(e, rec, &ru);
    check_status(st, ERR_OR_OK, "record exec update to a destroyed event", "primary", __LINE__);
    cgn_event_wait_update_set_event(&wu, dead, NULL);
    st = cgn_event_wait_exec_update(e, wait, &wu);
    check_status(st, ERR_OR_OK, "wait exec update to a destroyed event", "primary", __LINE__);
    expect_ctx_at(cu.context, "event cases", __LINE__);
    /* not launched: an executable accepted with a dead event could crash the driver at launch */
    cgn_exec_destroy(e);
    cgn_graph_destroy(g);
    cu.cuEventDestroy(ev);
    FX_CHECK();
}

static void case_event_garbage(void) {
    if (!fx_make())
        return;
    CUevent ev = NULL;
    CU(cu.cuEventCreate(&ev, 0));
    cgn_graph *g = NULL;
    cgn_node *rec = NULL, *wait = NULL, *n = NULL;
    cgn_exec *e = NULL;
    if (!event_graph_at(ev, &g, &rec, &wait, &e, __LINE__))
        return;
    /* docs: cgn cannot tell a dead event; a garbage value must at least not crash */
    CUevent bad = (CUevent)(uintptr_t)0x1234;
    cgn_event_record_desc rbad = {.event = bad};
    EXPECT(cgn_graph_add_event_record(g, NULL, 0, &rbad, &n), ERR_OR_OK);
    cgn_event_record_update ru = CGN_EVENT_RECORD_UPDATE_INIT;
    cgn_event_record_update_set_event(&ru, bad, NULL);
    EXPECT(cgn_event_record_node_update(rec, &ru), ERR_OR_OK);
    EXPECT(cgn_event_record_exec_update(e, rec, &ru), ERR_OR_OK);
    cgn_event_wait_update wu = CGN_EVENT_WAIT_UPDATE_INIT;
    cgn_event_wait_update_set_event(&wu, bad, NULL);
    EXPECT(cgn_event_wait_node_update(wait, &wu), ERR_OR_OK);
    EXPECT(cgn_event_wait_exec_update(e, wait, &wu), ERR_OR_OK);
    cgn_exec_destroy(e);
    cgn_graph_destroy(g);
    cu.cuEventDestroy(ev);
    FX_CHECK();
}

/* ---- child graph cases ------------------------------------------------------------------------
 */

static void case_child_graph_hostile(void) {
    if (!fx_make())
        return;
    cgn_graph *a = NULL, *b = NULL, *dead = NULL;
    cgn_node *child = NULL, *n = NULL;
    OK(cgn_graph_create(&a));
    OK(cgn_graph_create(&b));
    OK(cgn_graph_create(&dead));
    OK(cgn_graph_add_empty(b, NULL, 0, &n));
    OK(cgn_graph_destroy(dead));
    cgn_child_graph_desc d = {.graph = b};
    OK(cgn_graph_add_child_graph(a, NULL, 0, &d, &child));
    cgn_graph *emb = NULL;
    OK(cgn_child_graph_node_embedded(child, &emb));
    const struct {
        cgn_graph *src;
        int want;
        const char *what;
    } bad[] = {
        {NULL, CGN_ERROR_INVALID_VALUE, "graph NULL"},
        {dead, CGN_ERROR_DESTROYED, "a destroyed graph"},
        {a, CGN_ERROR_SAME_HIERARCHY, "the node's own graph"},
        {emb, CGN_ERROR_SAME_HIERARCHY, "the graph embedded by the node"},
        {(cgn_graph *)(uintptr_t)0xdeadbeef, CGN_ERROR_INVALID_ARGUMENT, "graph 0xdeadbeef"},
        {(cgn_graph *)(uintptr_t)1, CGN_ERROR_INVALID_ARGUMENT, "graph 1"},
        {(cgn_graph *)(void *)fx.e, CGN_ERROR_INVALID_ARGUMENT, "an executable as graph"},
        {(cgn_graph *)(void *)fx.k, CGN_ERROR_INVALID_ARGUMENT, "a node as graph"},
    };
    for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++) {
        printf("  input: child graph %s\n", bad[i].what);
        cgn_child_graph_desc bd = {.graph = bad[i].src};
        cgn_node *m = NULL;
        IN_CTXS(cgn_graph_add_child_graph(a, NULL, 0, &bd, &m), bad[i].want);
        cgn_child_graph_update u = CGN_CHILD_GRAPH_UPDATE_INIT;
        cgn_child_graph_update_set_graph(&u, bad[i].src);
        IN_CTXS(cgn_child_graph_node_update(child, &u), bad[i].want);
    }
    /* cycles: the parent (and the root) as a child of its own embedding */
    cgn_child_graph_desc up = {.graph = a};
    IN_CTXS(cgn_graph_add_child_graph(emb, NULL, 0, &up, &n), CGN_ERROR_SAME_HIERARCHY);
    IN_CTXS(cgn_graph_add_child_graph(a, NULL, 0, &up, &n), CGN_ERROR_SAME_HIERARCHY);
    /* the hierarchy is intact and runs */
    size_t count = 0;
    OK(cgn_graph_nodes(a, NULL, &count));
    if (count != 1)
        failf(__LINE__, "parent graph has %zu nodes after refused adds, expected 1", count);
    OK(cgn_graph_nodes(emb, NULL, &count));
    if (count != 1)
        failf(__LINE__, "embedded graph has %zu nodes after refused adds, expected 1", count);
    cgn_child_graph_desc got;
    OK(cgn_child_graph_node_get(child, &got));
    cgn_exec *e = NULL;
    OK(cgn_graph_instantiate(a, &e));
    /* executable level: its own hierarchy, NULL, destroyed */
    cgn_child_graph_update u = CGN_CHILD_GRAPH_UPDATE_INIT;
    cgn_child_graph_update_set_graph(&u, a);
    IN_CTXS(cgn_child_graph_exec_update(e, child, &u), CGN_ERROR_SAME_HIERARCHY);
    cgn_child_graph_update_set_graph(&u, NULL);
    IN_CTXS(cgn_child_graph_exec_update(e, child, &u), CGN_ERROR_INVALID_VALUE);
    cgn_child_graph_update_set_graph(&u, dead);
    IN_CTXS(cgn_child_graph_exec_update(e, child, &u), CGN_ERROR_DESTROYED);
    OK(cgn_exec_launch(e, stream));
    CU(cu.cuStreamSynchronize(stream));
    /* the parent embedded in the original b (another hierarchy): allowed, a copy, no cycle */
    cgn_node *back = NULL;
    EXPECT(cgn_graph_add_child_graph(b, NULL, 0, &up, &back), CGN_OK);
    cgn_exec_destroy(e);
    cgn_graph_destroy(a);
    cgn_graph_destroy(b);
    /* the embedding went with its root */
    EXPECT(cgn_graph_add_empty(emb, NULL, 0, &n), CGN_ERROR_DESTROYED);
    FX_CHECK();
}

static void case_child_graph_deep_nesting(void) {
    if (!fx_make())
        return;
    enum { DEPTH = 64 };
    cgn_graph *level[DEPTH];
    memset(level, 0, sizeof level);
    CUdeviceptr out = dalloc(4);
    unsigned v = 0x64;
    cgn_arg args[2] = {CGN_ARG(out), CGN_ARG(v)};
    cgn_kernel_desc kd = kdesc(CGN_KERNEL(k_fill), args, 2);
    cgn_node *n = NULL;
    OK(cgn_graph_create(&level[DEPTH - 1]));
    OK(cgn_graph_add_kernel(level[DEPTH - 1], NULL, 0, &kd, &n));
    /* level i embeds level i+1; a driver limit on nesting is a clean refusal, not a failure */
    int top = DEPTH - 1;
    for (int i = DEPTH - 2; i >= 0; i--) {
        OK(cgn_graph_create(&level[i]));
        cgn_child_graph_desc cd = {.graph = level[i + 1]};
        TRACE("cgn_graph_add_child_graph (deep nesting)");
        cgn_status st = cgn_graph_add_child_graph(level[i], NULL, 0, &cd, &n);
        if (st != CGN_OK) {
            check_status(st, ERR_OR_OK, "cgn_graph_add_child_graph (deep nesting)", "primary",
                         __LINE__);
            note("nesting stopped at depth %d: %s", DEPTH - 1 - i, cgn_last_error());
            cgn_graph_destroy(level[i]);
            level[i] = NULL;
            break;
        }
        top = i;
    }
    int depth = DEPTH - top;
    printf("  built %d nested levels\n", depth);
    /* recursive walks over every level */
    size_t count = 0;
    OK(cgn_graph_find_kernel(level[top], CGN_KERNEL(k_fill), NULL, &count));
    if (count != 1)
        failf(__LINE__, "find_kernel over %d levels found %zu nodes, expected 1", depth, count);
    cgn_exec *e = NULL;
    TRACE("cgn_graph_instantiate (deep nesting)");
    cgn_status st = cgn_graph_instantiate(level[top], &e);
    check_status(st, ERR_OR_OK, "cgn_graph_instantiate (deep nesting)", "primary", __LINE__);
    if (st == CGN_OK) {
        OK(cgn_exec_launch(e, stream));
        CU(cu.cuStreamSynchronize(stream));
        if (read_u32(out) != 0x64)
            failf(__LINE__, "the kernel %d levels deep did not run", depth);
        /* the innermost node, reached through the embeddings, updated in the executable */
        cgn_node *inner = NULL;
        count = 1;
        OK(cgn_graph_find_kernel(level[top], CGN_KERNEL(k_fill), &inner, &count));
        unsigned v2 = 0x65;
        cgn_kernel_update u = CGN_KERNEL_UPDATE_INIT;
        cgn_kernel_update_set_arg(&u, 1, &v2, sizeof v2, NULL);
        OK(cgn_kernel_exec_update(e, inner, &u));
        OK(cgn_exec_launch(e, stream));
        CU(cu.cuStreamSynchronize(stream));
        if (read_u32(out) != 0x65)
            failf(__LINE__, "exec update of the node %d levels deep did not take", depth);
        /* a bad update deep down is refused and leaves it */
        cgn_kernel_update_reset(&u);
        cgn_kernel_update_set_arg(&u, 7, &v2, sizeof v2, NULL);
        IN_CTXS(cgn_kernel_exec_update(e, inner, &u), CGN_ERROR_INVALID_VALUE);
        OK(cgn_exec_destroy(e));
        /* every level destroyed, the top first: the deep handle then reports DESTROYED */
        for (int i = top; i < DEPTH; i++)
            OK(cgn_graph_destroy(level[i]));
        cgn_kernel_desc got;
        EXPECT(cgn_kernel_node_get(inner, &got), CGN_ERROR_DESTROYED);
    } else {
        for (int i = top; i < DEPTH; i++)
            cgn_graph_destroy(level[i]);
    }
    cu.cuMemFree(out);
    FX_CHECK();
}

/* ---- handle cases -------------------------------------------------------------------------- */

static void case_handles_null(void) {
    if (!fx_make())
        return;
    cgn_node *n = NULL;
    cgn_graph *g = NULL;
    cgn_exec *e = NULL;
    cgn_kernel_desc kd;
    cgn_node_type t;
    CUgraph rg = NULL;
    IN_CTXS(cgn_graph_create(NULL), CGN_ERROR_INVALID_ARGUMENT);
    IN_CTXS(cgn_graph_destroy(NULL), CGN_ERROR_INVALID_ARGUMENT);
    IN_CTXS(cgn_node_destroy(NULL), CGN_ERROR_INVALID_ARGUMENT);
    IN_CTXS(cgn_exec_destroy(NULL), CGN_ERROR_INVALID_ARGUMENT);
    IN_CTXS(cgn_exec_launch(NULL, stream), CGN_ERROR_INVALID_ARGUMENT);
    IN_CTXS(cgn_exec_upload(NULL, stream), CGN_ERROR_INVALID_ARGUMENT);
    IN_CTXS(cgn_graph_instantiate(NULL, &e), CGN_ERROR_INVALID_ARGUMENT);
    IN_CTXS(cgn_graph_instantiate(fx.g, NULL), CGN_ERROR_INVALID_ARGUMENT);
    IN_CTXS(cgn_graph_add_empty(NULL, NULL, 0, &n), CGN_ERROR_INVALID_ARGUMENT);
    IN_CTXS(cgn_graph_add_empty(fx.g, NULL, 0, NULL), CGN_ERROR_INVALID_ARGUMENT);
    IN_CTXS(cgn_graph_add_kernel(fx.g, NULL, 0, NULL, &n), CGN_ERROR_INVALID_ARGUMENT);
    IN_CTXS(cgn_kernel_node_update(fx.k, NULL), CGN_ERROR_INVALID_ARGUMENT);
    IN_CTXS(cgn_kernel_node_get(fx.k, NULL), CGN_ERROR_INVALID_ARGUMENT);
    IN_CTXS(cgn_kernel_node_get(NULL, &kd), CGN_ERROR_INVALID_ARGUMENT);
    IN_CTXS(cgn_kernel_exec_update(NULL, fx.k, NULL), CGN_ERROR_INVALID_ARGUMENT);
    IN_CTXS(cgn_kernel_exec_get(fx.e, NULL, &kd), CGN_ERROR_INVALID_ARGUMENT);
    IN_CTXS(cgn_node_type_of(NULL, &t), CGN_ERROR_INVALID_ARGUMENT);
    IN_CTXS(cgn_node_type_of(fx.k, NULL), CGN_ERROR_INVALID_ARGUMENT);
    IN_CTXS(cgn_graph_raw(fx.g, NULL), CGN_ERROR_INVALID_ARGUMENT);
    IN_CTXS(cgn_graph_raw(NULL, &rg), CGN_ERROR_INVALID_ARGUMENT);
    IN_CTXS(cgn_graph_nodes(fx.g, NULL, NULL), CGN_ERROR_INVALID_ARGUMENT);
    IN_CTXS(cgn_node_graph(fx.k, NULL), CGN_ERROR_INVALID_ARGUMENT);
    IN_CTXS(cgn_exec_update_from_graph(fx.e, NULL), CGN_ERROR_INVALID_ARGUMENT);
    IN_CTXS(cgn_exec_node_get_enabled(fx.e, fx.k, NULL), CGN_ERROR_INVALID_ARGUMENT);
    IN_CTXS(cgn_child_graph_node_embedded(NULL, &g), CGN_ERROR_INVALID_ARGUMENT);
    IN_CTXS(cgn_owner_retain(NULL), CGN_ERROR_INVALID_ARGUMENT);
    IN_CTXS(cgn_owner_release(NULL), CGN_ERROR_INVALID_ARGUMENT);
    IN_CTXS(cgn_owner_create(NULL, NULL, NULL), CGN_ERROR_INVALID_ARGUMENT);
    IN_CTXS(cgn_driver_version(NULL), CGN_ERROR_INVALID_ARGUMENT);
    void *pfn = NULL;
    IN_CTXS(cgn_driver_proc(NULL, 3020, &pfn), CGN_ERROR_INVALID_ARGUMENT);
    IN_CTXS(cgn_driver_proc("cuMemAlloc", 3020, NULL), CGN_ERROR_INVALID_ARGUMENT);
    IN_CTXS(cgn_driver_proc("cuNoSuchEntryPoint", 3020, &pfn), CGN_ERROR_DRIVER_TOO_OLD);
    IN_CTXS(cgn_driver_proc("cuMemAlloc", -1, &pfn), ERR_OR_OK);
    if (cgn_node_is_alive(NULL) != 0)
        failf(__LINE__, "cgn_node_is_alive(NULL) is not 0");
    if (strcmp(cgn_status_name((cgn_status)999), "CGN_UNKNOWN_STATUS") != 0)
        failf(__LINE__, "cgn_status_name(999) is %s", cgn_status_name((cgn_status)999));
    if (cgn_status_description((cgn_status)-5) == NULL)
        failf(__LINE__, "cgn_status_description(-5) is NULL");
    if (n != NULL || g != NULL || e != NULL)
        failf(__LINE__, "an out pointer was written by a refused call");
    FX_CHECK();
}

/* Every call taking a node, given `bad`. */
static void node_battery(cgn_node *bad, int want, const char *what, int line) {
    printf("  input: node %s (line %d)\n", what, line);
    cgn_node_type t;
    CUgraphNode raw;
    cgn_graph *g = NULL;
    cgn_kernel_desc kd;
    cgn_memset_desc md;
    int en = 0;
    size_t count = 0;
    cgn_kernel_update ku = CGN_KERNEL_UPDATE_INIT;
    cgn_kernel_update_set_grid(&ku, CGN_DIM3(2, 1, 1));
    cgn_memset_update mu = CGN_MEMSET_UPDATE_INIT;
    cgn_memset_update_set_value(&mu, 1, 1);
    IN_CTXS(cgn_node_destroy(bad), want);
    IN_CTXS(cgn_node_type_of(bad, &t), want);
    IN_CTXS(cgn_node_raw(bad, &raw), want);
    IN_CTXS(cgn_node_graph(bad, &g), want);
    IN_CTXS(cgn_kernel_node_update(bad, &ku), want);
    IN_CTXS(cgn_kernel_node_get(bad, &kd), want);
    IN_CTXS(cgn_memset_node_update(bad, &mu), want);
    IN_CTXS(cgn_memset_node_get(bad, &md), want);
    IN_CTXS(cgn_kernel_exec_update(fx.e, bad, &ku), want);
    IN_CTXS(cgn_kernel_exec_get(fx.e, bad, &kd), want);
    IN_CTXS(cgn_exec_node_set_enabled(fx.e, bad, 0), want);
    IN_CTXS(cgn_exec_node_get_enabled(fx.e, bad, &en), want);
    IN_CTXS(cgn_node_dependencies(bad, NULL, &count), want);
    IN_CTXS(cgn_node_dependents(bad, NULL, &count), want);
    IN_CTXS(cgn_node_refresh(bad), want);
    IN_CTXS(cgn_node_check_updatable(bad), want);
    IN_CTXS(cgn_child_graph_node_embedded(bad, &g), want);
    IN_CTXS(cgn_conditional_node_body(bad, 0, &g), want);
    cgn_node *deps[1] = {bad};
    cgn_node *n = NULL;
    IN_CTXS(cgn_graph_add_empty(fx.g, deps, 1, &n), want);
    if (cgn_node_is_alive(bad) != 0)
        failf(line, "cgn_node_is_alive(%s) is not 0", what);
}

static void graph_battery(cgn_graph *bad, int want, const char *what, int line) {
    printf("  input: graph %s (line %d)\n", what, line);
    cgn_node *n = NULL;
    cgn_exec *e = NULL;
    CUgraph raw;
    size_t count = 0;
    IN_CTXS(cgn_graph_destroy(bad), want);
    IN_CTXS(cgn_graph_raw(bad, &raw), want);
    IN_CTXS(cgn_graph_add_empty(bad, NULL, 0, &n), want);
    cgn_kernel_desc kd = kdesc(CGN_KERNEL(k_fill), fx.kargs, 2);
    ADD_IN_CTXS(cgn_graph_add_kernel(bad, NULL, 0, &kd, &n), want);
    IN_CTXS(cgn_graph_instantiate(bad, &e), want);
    IN_CTXS(cgn_graph_nodes(bad, NULL, &count), want);
    IN_CTXS(cgn_graph_find_raw(bad, (CUgraphNode)(uintptr_t)0x1234, &n), want);
    IN_CTXS(cgn_graph_find_kernel(bad, CGN_KERNEL(k_fill), NULL, &count), want);
    IN_CTXS(cgn_exec_update_from_graph(fx.e, bad), want);
    IN_CTXS(cgn_exec_adopt((CUgraphExec)(uintptr_t)0x1234, bad, 0, &e), want);
    if (n != NULL || e != NULL)
        failf(line, "an out pointer was written for graph %s", what);
}

static void exec_battery(cgn_exec *bad, int want, const char *what, int line) {
    printf("  input: executable %s (line %d)\n", what, line);
    CUgraphExec raw;
    cgn_kernel_desc kd;
    int en = 0;
    cgn_kernel_update ku = CGN_KERNEL_UPDATE_INIT;
    cgn_kernel_update_set_grid(&ku, CGN_DIM3(2, 1, 1));
    IN_CTXS(cgn_exec_launch(bad, stream), want);
    IN_CTXS(cgn_exec_upload(bad, stream), want);
    IN_CTXS(cgn_exec_raw(bad, &raw), want);
    IN_CTXS(cgn_exec_update_from_graph(bad, fx.g), want);
    IN_CTXS(cgn_exec_node_set_enabled(bad, fx.k, 0), want);
    IN_CTXS(cgn_exec_node_get_enabled(bad, fx.k, &en), want);
    IN_CTXS(cgn_kernel_exec_update(bad, fx.k, &ku), want);
    IN_CTXS(cgn_kernel_exec_get(bad, fx.k, &kd), want);
    IN_CTXS(cgn_exec_destroy(bad), want);
}

static void case_handles_garbage(void) {
    if (!fx_make())
        return;
    static unsigned char heap_like[256];
    uintptr_t kh = (uintptr_t)(void *)fx.k;
    /* forged node handles: a real one with another generation, an index past every slot */
    uintptr_t other_gen = kh + ((uintptr_t)1 << 36);
    uintptr_t far_index = (kh & ~(uintptr_t)0xffffffffu) | 0xfffffff0u;
    node_battery((cgn_node *)(uintptr_t)0xdeadbeef, CGN_ERROR_INVALID_ARGUMENT, "0xdeadbeef",
                 __LINE__);
    node_battery((cgn_node *)(uintptr_t)1, CGN_ERROR_INVALID_ARGUMENT, "1", __LINE__);
    node_battery((cgn_node *)UINTPTR_MAX, CGN_ERROR_INVALID_ARGUMENT, "UINTPTR_MAX", __LINE__);
    node_battery((cgn_node *)(void *)heap_like, CGN_ERROR_INVALID_ARGUMENT,
                 "a pointer to real memory", __LINE__);
    node_battery((cgn_node *)other_gen, ANY_ERR, "a real handle with another generation", __LINE__);
    node_battery((cgn_node *)far_index, ANY_ERR, "a handle with an index past every slot",
                 __LINE__);
    graph_battery((cgn_graph *)(uintptr_t)1, CGN_ERROR_INVALID_ARGUMENT, "1", __LINE__);
    graph_battery((cgn_graph *)(uintptr_t)0xdeadbeef, CGN_ERROR_INVALID_ARGUMENT, "0xdeadbeef",
                  __LINE__);
    graph_battery((cgn_graph *)(void *)heap_like, CGN_ERROR_INVALID_ARGUMENT,
                  "a pointer to real memory", __LINE__);
    exec_battery((cgn_exec *)(uintptr_t)0xdeadbeef, CGN_ERROR_INVALID_ARGUMENT, "0xdeadbeef",
                 __LINE__);
    exec_battery((cgn_exec *)(void *)heap_like, CGN_ERROR_INVALID_ARGUMENT,
                 "a pointer to real memory", __LINE__);
    /* raw handles cgn only compares: a garbage CUgraphNode is not found, not dereferenced */
    cgn_node *found = NULL;
    IN_CTXS(cgn_graph_find_raw(fx.g, (CUgraphNode)(uintptr_t)0x1234, &found), ANY_ERR);
    IN_CTXS(cgn_graph_find_raw(fx.g, NULL, &found), ANY_ERR);
    if (found != NULL)
        failf(__LINE__, "cgn_graph_find_raw found a node for a garbage raw handle");
    FX_CHECK();
}

static void case_handles_wrong_kind(void) {
    if (!fx_make())
        return;
    node_battery((cgn_node *)(void *)fx.g, CGN_ERROR_INVALID_ARGUMENT, "a graph handle", __LINE__);
    node_battery((cgn_node *)(void *)fx.e, CGN_ERROR_INVALID_ARGUMENT, "an exec handle", __LINE__);
    graph_battery((cgn_graph *)(void *)fx.e, CGN_ERROR_INVALID_ARGUMENT, "an exec handle",
                  __LINE__);
    graph_battery((cgn_graph *)(void *)fx.k, CGN_ERROR_INVALID_ARGUMENT, "a node handle", __LINE__);
    exec_battery((cgn_exec *)(void *)fx.g, CGN_ERROR_INVALID_ARGUMENT, "a graph handle", __LINE__);
    exec_battery((cgn_exec *)(void *)fx.k, CGN_ERROR_INVALID_ARGUMENT, "a node handle", __LINE__);
    /* wrong node types */
    cgn_kernel_update ku = CGN_KERNEL_UPDATE_INIT;
    cgn_kernel_update_set_grid(&ku, CGN_DIM3(2, 1, 1));
    IN_CTXS(cgn_kernel_node_update(fx.ms, &ku), CGN_ERROR_WRONG_NODE_TYPE);
    IN_CTXS(cgn_kernel_exec_update(fx.e, fx.host, &ku), CGN_ERROR_WRONG_NODE_TYPE);
    cgn_memset_desc md;
    IN_CTXS(cgn_memset_node_get(fx.k, &md), CGN_ERROR_WRONG_NODE_TYPE);
    cgn_graph *g = NULL;
    IN_CTXS(cgn_child_graph_node_embedded(fx.k, &g), CGN_ERROR_WRONG_NODE_TYPE);
    IN_CTXS(cgn_conditional_node_body(fx.k, UINT32_MAX, &g), ANY_ERR);
    cgn_node *found = NULL;
    IN_CTXS(cgn_child_graph_node_find(fx.k, fx.ms, &found), CGN_ERROR_WRONG_NODE_TYPE);
    IN_CTXS(cgn_exec_node_set_enabled(fx.e, fx.host, 0), CGN_ERROR_NOT_SUPPORTED);
    FX_CHECK();
}

static void case_handles_destroyed(void) {
    if (!fx_make())
        return;
    cgn_graph *g = NULL;
    cgn_node *n = NULL, *k = NULL;
    cgn_exec *e = NULL;
    OK(cgn_graph_create(&g));
    OK(cgn_graph_add_empty(g, NULL, 0, &n));
    cgn_kernel_desc kd = kdesc(CGN_KERNEL(k_fill), fx.kargs, 2);
    OK(cgn_graph_add_kernel(g, NULL, 0, &kd, &k));
    OK(cgn_graph_instantiate(g, &e));
    OK(cgn_node_destroy(n));
    node_battery(n, CGN_ERROR_DESTROYED, "destroyed", __LINE__);
    IN_CTXS(cgn_node_destroy(n), CGN_ERROR_DESTROYED);
    OK(cgn_exec_destroy(e));
    exec_battery(e, CGN_ERROR_DESTROYED, "destroyed", __LINE__);
    OK(cgn_graph_destroy(g));
    graph_battery(g, CGN_ERROR_DESTROYED, "destroyed", __LINE__);
    /* a node whose graph was destroyed */
    cgn_kernel_update ku = CGN_KERNEL_UPDATE_INIT;
    cgn_kernel_update_set_grid(&ku, CGN_DIM3(2, 1, 1));
    IN_CTXS(cgn_kernel_node_update(k, &ku), CGN_ERROR_DESTROYED);
    IN_CTXS(cgn_node_destroy(k), CGN_ERROR_DESTROYED);
    FX_CHECK();
}

static void case_deps_hostile(void) {
    if (!fx_make())
        return;
    cgn_graph *other = NULL;
    cgn_node *foreign = NULL, *n = NULL, *dead = NULL;
    OK(cgn_graph_create(&other));
    OK(cgn_graph_add_empty(other, NULL, 0, &foreign));
    OK(cgn_graph_add_empty(other, NULL, 0, &dead));
    OK(cgn_node_destroy(dead));
    cgn_node *deps_foreign[2] = {fx.k, foreign};
    cgn_node *deps_null[2] = {fx.k, NULL};
    cgn_node *deps_dead[1] = {dead};
    cgn_node *deps_garbage[1] = {(cgn_node *)(uintptr_t)0xdeadbeef};
    cgn_node *deps_graph[1] = {(cgn_node *)(void *)fx.g};
    cgn_kernel_desc kd = kdesc(CGN_KERNEL(k_fill), fx.kargs, 2);
    IN_CTXS(cgn_graph_add_empty(fx.g, deps_foreign, 2, &n), CGN_ERROR_INVALID_ARGUMENT);
    ADD_IN_CTXS(cgn_graph_add_kernel(fx.g, deps_foreign, 2, &kd, &n), CGN_ERROR_INVALID_ARGUMENT);
    IN_CTXS(cgn_graph_add_empty(fx.g, deps_null, 2, &n), CGN_ERROR_INVALID_ARGUMENT);
    IN_CTXS(cgn_graph_add_empty(fx.g, deps_dead, 1, &n), CGN_ERROR_DESTROYED);
    IN_CTXS(cgn_graph_add_empty(fx.g, deps_garbage, 1, &n), CGN_ERROR_INVALID_ARGUMENT);
    IN_CTXS(cgn_graph_add_empty(fx.g, deps_graph, 1, &n), CGN_ERROR_INVALID_ARGUMENT);
    IN_CTXS(cgn_graph_add_empty(fx.g, NULL, 5, &n), CGN_ERROR_INVALID_ARGUMENT);
    IN_CTXS(cgn_graph_add_empty(fx.g, NULL, SIZE_MAX, &n), CGN_ERROR_INVALID_ARGUMENT);
    ADD_IN_CTXS(cgn_graph_add_kernel(fx.g, NULL, SIZE_MAX, &kd, &n), CGN_ERROR_INVALID_ARGUMENT);
    IN_CTXS(cgn_graph_add_empty(fx.g, deps_null, SIZE_MAX, &n), CGN_ERROR_OUT_OF_RANGE);
    IN_CTXS(cgn_graph_add_empty(fx.g, deps_null, SIZE_MAX / 8 + 1, &n), CGN_ERROR_OUT_OF_RANGE);
    /* duplicates: no documented status; a refusal must add nothing, an acceptance one node */
    cgn_graph *dup = NULL;
    cgn_node *d0 = NULL, *d1 = NULL;
    OK(cgn_graph_create(&dup));
    OK(cgn_graph_add_empty(dup, NULL, 0, &d0));
    cgn_node *deps_dup[3] = {d0, d0, d0};
    cgn_status st = cgn_graph_add_empty(dup, deps_dup, 3, &d1);
    check_status(st, ERR_OR_OK, "cgn_graph_add_empty with a dependency given 3 times", "primary",
                 __LINE__);
    size_t count = 0;
    OK(cgn_graph_nodes(dup, NULL, &count));
    if (count != (st == CGN_OK ? 2u : 1u))
        failf(__LINE__, "graph has %zu nodes after add with duplicate deps (%s)", count,
              cgn_status_name(st));
    if (st == CGN_OK) {
        OK(cgn_node_dependencies(d1, NULL, &count));
        note("duplicate deps accepted: the node lists %zu dependencies", count);
        cgn_exec *e = NULL;
        st = cgn_graph_instantiate(dup, &e);
        check_status(st, ERR_OR_OK, "instantiate after duplicate deps", "primary", __LINE__);
        if (st == CGN_OK) {
            OK(cgn_exec_launch(e, stream));
            CU(cu.cuStreamSynchronize(stream));
            cgn_exec_destroy(e);
        }
    }
    cgn_graph_destroy(dup);
    cgn_graph_destroy(other);
    FX_CHECK();
}

/* ---- owners ---------------------------------------------------------------------------------- */

static void case_owner_garbage(void) {
    if (!fx_make())
        return;
    /* cgn.h calls owners handles, and its promise covers garbage handles: a forged owner must be
     * refused, not retained through. */
    cgn_owner *bad = (cgn_owner *)(uintptr_t)0xdeadbeef;
    EXPECT(cgn_owner_retain(bad), CGN_ERROR_INVALID_ARGUMENT);
    EXPECT(cgn_owner_release(bad), CGN_ERROR_INVALID_ARGUMENT);
    cgn_memset_update u = CGN_MEMSET_UPDATE_INIT;
    cgn_memset_update_set_dst(&u, fx.b, bad);
    IN_CTXS(cgn_memset_node_update(fx.ms, &u), CGN_ERROR_INVALID_ARGUMENT);
    FX_CHECK();
}

static void case_owner_double_release(void) {
    if (!fx_make())
        return;
    /* a destroyed (released) owner used again: the docs are silent; no crash asserted */
    cgn_owner *o = NULL;
    static int res;
    OK(cgn_owner_create(&res, NULL, &o));
    OK(cgn_owner_release(o));
    cgn_collect();
    EXPECT(cgn_owner_release(o), ANY_ERR);
    FX_CHECK();
}

/* ---- adopt cases --------------------------------------------------------------------------- */

/* A refused adopt must leave graph_out (set to NULL before) alone. */
static void expect_no_graph_out(const cgn_graph *g, int line) {
    if (g != NULL)
        failf(line, "graph_out written by a refused adopt");
}

static void case_adopt_hostile(void) {
    if (!fx_make())
        return;
    cgn_graph *g = NULL;
    IN_CTXS(cgn_graph_adopt(NULL, 0, &g), CGN_ERROR_INVALID_ARGUMENT);
    CUgraph raw = NULL;
    CU(dx.cuGraphCreate(&raw, 0));
    IN_CTXS(cgn_graph_adopt(raw, 0, NULL), CGN_ERROR_INVALID_ARGUMENT);
    IN_CTXS(cgn_graph_adopt(raw, 0x80, &g), CGN_ERROR_INVALID_ARGUMENT);
    CU(dx.cuGraphDestroy(raw));
    expect_no_graph_out(g, __LINE__);
    FX_CHECK();
}

/* A destroyed or garbage raw graph must be refused, not walked. */
static void case_adopt_destroyed_raw(void) {
    if (!fx_make())
        return;
    cgn_graph *g = NULL;
    CUgraph raw = NULL;
    CUgraphNode rn = NULL;
    CU(dx.cuGraphCreate(&raw, 0));
    CU(dx.cuGraphAddEmptyNode(&rn, raw, NULL, 0));
    CU(dx.cuGraphDestroy(raw));
    IN_CTXS(cgn_graph_adopt(raw, 0, &g), ANY_ERR);
    expect_no_graph_out(g, __LINE__);
    FX_CHECK();
}

static void case_adopt_garbage_raw(void) {
    if (!fx_make())
        return;
    cgn_graph *g = NULL;
    IN_CTXS(cgn_graph_adopt((CUgraph)(uintptr_t)0x1234, 0, &g), ANY_ERR);
    IN_CTXS(cgn_graph_adopt((CUgraph)(uintptr_t)0x1234, CGN_ADOPT_TAKE_OWNERSHIP, &g), ANY_ERR);
    expect_no_graph_out(g, __LINE__);
    FX_CHECK();
}

static void case_adopt_zeroed_memory_raw(void) {
    if (!fx_make())
        return;
    cgn_graph *g = NULL;
    IN_CTXS(cgn_graph_adopt((CUgraph)(void *)zero_page, 0, &g), ANY_ERR);
    /* a cgn graph handle passed as a raw CUgraph */
    IN_CTXS(cgn_graph_adopt((CUgraph)(void *)fx.g, 0, &g), ANY_ERR);
    expect_no_graph_out(g, __LINE__);
    FX_CHECK();
}

static void case_exec_adopt_foreign(void) {
    if (!fx_make())
        return;
    /* a raw executable of another graph: cgn takes the caller's word (documented); exec-level
     * calls through it must still fail cleanly, not crash */
    cgn_graph *other = NULL;
    cgn_node *on = NULL;
    cgn_memset_desc md = CGN_MEMSET_DESC_INIT;
    md.dst = fx.b;
    md.value = 7;
    md.width = 4;
    OK(cgn_graph_create(&other));
    OK(cgn_graph_add_memset(other, NULL, 0, &md, &on));
    CUgraph oraw = NULL;
    OK(cgn_graph_raw(other, &oraw));
    CUgraphExec rexec = NULL;
    CU(dx.cuGraphInstantiateWithFlags(&rexec, oraw, 0));
    cgn_exec *e = NULL;
    cgn_status st = cgn_exec_adopt(rexec, fx.g, 0, &e);
    check_status(st, ERR_OR_OK, "cgn_exec_adopt of another graph's executable", "primary",
                 __LINE__);
    if (st == CGN_OK) {
        cgn_kernel_update ku = CGN_KERNEL_UPDATE_INIT;
        unsigned v = 0x3333;
        cgn_kernel_update_set_arg(&ku, 1, &v, sizeof v, NULL);
        st = cgn_kernel_exec_update(e, fx.k, &ku);
        check_status(st, ERR_OR_OK, "kernel exec update through the foreign executable", "primary",
                     __LINE__);
        cgn_memset_update mu = CGN_MEMSET_UPDATE_INIT;
        cgn_memset_update_set_value(&mu, 9, 1);
        st = cgn_memset_exec_update(e, fx.ms, &mu);
        check_status(st, ERR_OR_OK, "memset exec update through the foreign executable", "primary",
                     __LINE__);
        st = cgn_exec_update_from_graph(e, fx.g);
        check_status(st, ERR_OR_OK, "update_from_graph through the foreign executable", "primary",
                     __LINE__);
        OK(cgn_exec_destroy(e));
    }
    IN_CTXS(cgn_exec_adopt(NULL, fx.g, 0, &e), CGN_ERROR_INVALID_ARGUMENT);
    IN_CTXS(cgn_exec_adopt(rexec, fx.g, 0x40, &e), CGN_ERROR_INVALID_ARGUMENT);
    IN_CTXS(cgn_exec_adopt(rexec, fx.g, 0, NULL), CGN_ERROR_INVALID_ARGUMENT);
    dx.cuGraphExecDestroy(rexec);
    cgn_graph_destroy(other);
    FX_CHECK();
}

/* ---- executable cases --------------------------------------------------------------------------
 */

static void case_exec_empty_graph(void) {
    if (!fx_make())
        return;
    cgn_graph *g = NULL;
    cgn_exec *e = NULL;
    OK(cgn_graph_create(&g));
    cgn_status st = cgn_graph_instantiate(g, &e);
    check_status(st, ERR_OR_OK, "instantiate an empty graph", "primary", __LINE__);
    if (st == CGN_OK) {
        for (int i = 0; i < 3; i++)
            EXPECT(cgn_exec_launch(e, stream), CGN_OK);
        CU(cu.cuStreamSynchronize(stream));
        EXPECT(cgn_exec_update_from_graph(e, g), ERR_OR_OK);
        OK(cgn_exec_destroy(e));
    }
    OK(cgn_graph_destroy(g));
    FX_CHECK();
}

static void case_exec_update_destroyed_and_foreign_node(void) {
    if (!fx_make())
        return;
    cgn_graph *g = NULL, *other = NULL;
    cgn_node *k = NULL, *m = NULL, *ok2 = NULL;
    cgn_exec *e = NULL;
    CUdeviceptr out = dalloc(4);
    unsigned v = 0x4444;
    cgn_arg args[2] = {CGN_ARG(out), CGN_ARG(v)};
    cgn_kernel_desc kd = kdesc(CGN_KERNEL(k_fill), args, 2);
    cgn_memset_desc md = CGN_MEMSET_DESC_INIT;
    md.dst = fx.b;
    md.value = 1;
    md.width = 4;
    OK(cgn_graph_create(&g));
    OK(cgn_graph_add_kernel(g, NULL, 0, &kd, &k));
    OK(cgn_graph_add_memset(g, NULL, 0, &md, &m));
    OK(cgn_graph_instantiate(g, &e));
    OK(cgn_node_destroy(m));
    OK(cgn_graph_create(&other));
    OK(cgn_graph_add_kernel(other, NULL, 0, &kd, &ok2));
    cgn_memset_update mu = CGN_MEMSET_UPDATE_INIT;
    cgn_memset_update_set_value(&mu, 2, 1);
    IN_CTXS(cgn_memset_exec_update(e, m, &mu), CGN_ERROR_DESTROYED);
    IN_CTXS(cgn_exec_node_set_enabled(e, m, 0), CGN_ERROR_DESTROYED);
    cgn_kernel_update ku = CGN_KERNEL_UPDATE_INIT;
    unsigned v2 = 0x5555;
    cgn_kernel_update_set_arg(&ku, 1, &v2, sizeof v2, NULL);
    IN_CTXS(cgn_kernel_exec_update(e, ok2, &ku), CGN_ERROR_INVALID_ARGUMENT);
    IN_CTXS(cgn_kernel_exec_update(e, fx.k, &ku), CGN_ERROR_INVALID_ARGUMENT);
    IN_CTXS(cgn_kernel_exec_update(fx.e, k, &ku), CGN_ERROR_INVALID_ARGUMENT);
    IN_CTXS(cgn_exec_node_set_enabled(e, ok2, 0), CGN_ERROR_INVALID_ARGUMENT);
    IN_CTXS(cgn_exec_update_from_graph(e, other), CGN_ERROR_INVALID_ARGUMENT);
    IN_CTXS(cgn_exec_update_from_graph(e, fx.g), CGN_ERROR_INVALID_ARGUMENT);
    /* the topology changed (a node destroyed): refused */
    IN_CTXS(cgn_exec_update_from_graph(e, g), CGN_ERROR_INVALID_VALUE);
    /* the executable still runs its own copy */
    cgn_kernel_desc got;
    OK(cgn_kernel_exec_get(e, k, &got));
    unsigned gv = 0;
    memcpy(&gv, got.args[1].value, sizeof gv);
    if (gv != 0x4444)
        failf(__LINE__, "executable's kernel argument is 0x%x after refused updates", gv);
    OK(cgn_exec_launch(e, stream));
    CU(cu.cuStreamSynchronize(stream));
    if (read_u32(out) != 0x4444)
        failf(__LINE__, "executable wrote 0x%x, expected 0x4444", read_u32(out));
    /* instantiate flags */
    cgn_exec *e2 = NULL;
    ADD_IN_CTXS(cgn_graph_instantiate_with_flags(g, 1ull << 40, &e2), CGN_ERROR_INVALID_ARGUMENT);
    ADD_IN_CTXS(cgn_graph_instantiate_with_flags(g, CUDA_GRAPH_INSTANTIATE_FLAG_UPLOAD, &e2),
                CGN_ERROR_INVALID_ARGUMENT);
    ADD_IN_CTXS(cgn_graph_instantiate_with_flags(g, CUDA_GRAPH_INSTANTIATE_FLAG_DEVICE_LAUNCH, &e2),
                CGN_ERROR_NOT_SUPPORTED);
    cgn_exec_destroy(e);
    cgn_graph_destroy(g);
    cgn_graph_destroy(other);
    cu.cuMemFree(out);
    FX_CHECK();
}

/* Streams: the raw driver first (a probe: its outcome is reported, not judged), then cgn. */
static CUstream dead_stream(void) {
    CUstream s = NULL;
    if (cu.cuStreamCreate(&s, 0) != CUDA_SUCCESS || cu.cuStreamDestroy(s) != CUDA_SUCCESS)
        failf(__LINE__, "setup: cuStreamCreate/cuStreamDestroy");
    return s;
}

static void case_probe_raw_launch_dead_stream(void) {
    if (!fx_make())
        return;
    CUgraphExec raw = NULL;
    OK(cgn_exec_raw(fx.e, &raw));
    CUresult r = dx.cuGraphLaunch(raw, dead_stream());
    note("raw cuGraphLaunch on a destroyed stream returned %d", (int)r);
    r = dx.cuGraphLaunch(raw, (CUstream)(uintptr_t)0x1234);
    note("raw cuGraphLaunch on stream 0x1234 returned %d", (int)r);
}

static void case_launch_dead_stream(void) {
    if (!fx_make())
        return;
    CUstream s = dead_stream();
    EXPECT(cgn_exec_launch(fx.e, s), ERR_OR_OK);
    EXPECT(cgn_exec_upload(fx.e, s), ERR_OR_OK);
    EXPECT(cgn_exec_launch(fx.e, (CUstream)(uintptr_t)0x1234), ERR_OR_OK);
    cu.cuCtxSetCurrent(cu.context);
    FX_CHECK();
}

/* ---- contexts ------------------------------------------------------------------------------- */

static void case_context_refusals_keep_context(void) {
    if (!fx_make())
        return;
    /* a launch on a stream of another context: no documented status; no crash, and the
     * executable and the current context as they were */
    CUstream s_other = NULL;
    set_ctx(ctx_other);
    CU(cu.cuStreamCreate(&s_other, CU_STREAM_DEFAULT));
    set_ctx(cu.context);
    for (int w = 0; w < CTX_STATES; w++) {
        set_ctx(ctx_of(w));
        TRACE("cgn_exec_launch on another context's stream");
        cgn_status ls = cgn_exec_launch(fx.e, s_other);
        check_status(ls, ERR_OR_OK, "cgn_exec_launch on another context's stream", ctx_names[w],
                     __LINE__);
        expect_ctx_at(ctx_of(w), "cgn_exec_launch on another context's stream", __LINE__);
        set_ctx(ctx_other);
        CUresult r = cu.cuStreamSynchronize(s_other);
        if (r != CUDA_SUCCESS)
            failf(__LINE__, "cuStreamSynchronize of the other context's stream returned %d",
                  (int)r);
    }
    set_ctx(ctx_other);
    cu.cuStreamDestroy(s_other);
    set_ctx(cu.context);
    /* every refusal of the fixture's nodes, from a thread with no context and with another
     * context current: that context stays, and the node keeps its own context */
    const CUcontext states[2] = {NULL, ctx_other};
    for (int s = 0; s < 2; s++) {
        set_ctx(states[s]);
        cgn_kernel_update ku = CGN_KERNEL_UPDATE_INIT;
        cgn_kernel_update_set_grid(&ku, CGN_DIM3(0, 1, 1));
        check_status(cgn_kernel_node_update(fx.k, &ku), CGN_ERROR_INVALID_VALUE, "grid 0",
                     ctx_names[s + 1], __LINE__);
        expect_ctx_at(states[s], "grid 0", __LINE__);
        cgn_memset_update mu = CGN_MEMSET_UPDATE_INIT;
        cgn_memset_update_set_dst(&mu, (CUdeviceptr)0x10, NULL);
        check_status(cgn_memset_node_update(fx.ms, &mu), ANY_ERR, "memset dst 0x10",
                     ctx_names[s + 1], __LINE__);
        expect_ctx_at(states[s], "memset dst 0x10", __LINE__);
        check_status(cgn_memset_exec_update(fx.e, fx.ms, &mu), ANY_ERR, "exec memset dst 0x10",
                     ctx_names[s + 1], __LINE__);
        expect_ctx_at(states[s], "exec memset dst 0x10", __LINE__);
        cgn_memcpy_update cu2 = CGN_MEMCPY_UPDATE_INIT;
        cgn_memcpy_update_set_src(&cu2, (CUdeviceptr)0x10, NULL);
        check_status(cgn_memcpy_node_update(fx.cp, &cu2), CGN_ERROR_INVALID_VALUE,
                     "memcpy src 0x10", ctx_names[s + 1], __LINE__);
        expect_ctx_at(states[s], "memcpy src 0x10", __LINE__);
        /* a valid update made from here runs in the node's context */
        unsigned v = 0x7777;
        cgn_kernel_update_reset(&ku);
        cgn_kernel_update_set_arg(&ku, 1, &v, sizeof v, NULL);
        check_status(cgn_kernel_exec_update(fx.e, fx.k, &ku), CGN_OK, "valid exec update",
                     ctx_names[s + 1], __LINE__);
        expect_ctx_at(states[s], "valid exec update", __LINE__);
        v = FX_VALUE;
        check_status(cgn_kernel_exec_update(fx.e, fx.k, &ku), CGN_OK, "exec update back",
                     ctx_names[s + 1], __LINE__);
        expect_ctx_at(states[s], "exec update back", __LINE__);
        /* a launch refused with no context or in another context's stream must not switch */
        check_status(cgn_exec_launch((cgn_exec *)(uintptr_t)0x99, NULL), CGN_ERROR_INVALID_ARGUMENT,
                     "launch of garbage", ctx_names[s + 1], __LINE__);
        expect_ctx_at(states[s], "launch of garbage", __LINE__);
    }
    set_ctx(cu.context);
    FX_CHECK();
}

/* ---- the runner ------------------------------------------------------------------------------ */

typedef struct hcase {
    const char *name;
    void (*fn)(void);
    const char *expect; /* one line: input -> expected */
    int probe;          /* a driver probe: outcome reported, never a failure */
    const char *twin;   /* a probe whose crash excuses this case's crash (the driver's own) */
} hcase;

static const hcase cases[] = {
    {"kernel_args_null", case_kernel_args_null,
     "args NULL, num_args 2/UINT32_MAX -> INVALID_ARGUMENT", 0, NULL},
    {"kernel_arg_value_null", case_kernel_arg_value_null,
     "an argument's value NULL -> INVALID_ARGUMENT", 0, NULL},
    {"limit_kernel_arg_value_garbage", case_kernel_arg_value_garbage,
     "(documented limit, nodes.md: cgn reads an argument's bytes like memcpy) value at 0x10 / "
     "PROT_NONE",
     1, NULL},
    {"kernel_arg_size_zero", case_kernel_arg_size_zero, "an argument of size 0 -> INVALID_ARGUMENT",
     0, NULL},
    {"kernel_wrong_count_and_sizes", case_kernel_wrong_count_and_sizes,
     "count/sizes not the kernel's (1 GiB too) -> INVALID_VALUE", 0, NULL},
    {"kernel_num_args_huge", case_kernel_num_args_huge,
     "num_args UINT32_MAX over 2 real args -> INVALID_VALUE", 0, NULL},
    {"kernel_set_arg_out_of_range", case_kernel_set_arg_out_of_range,
     "set_arg index/size out of range -> INVALID_VALUE; 9 edits -> INVALID_ARGUMENT", 0, NULL},
    {"limit_kernel_dangling_kernel", case_kernel_dangling_kernel,
     "(documented limit, nodes.md: a CUkernel of an unloaded library cannot be told) outcome", 1,
     NULL},
    {"kernel_dangling_function", case_kernel_dangling_function,
     "CUfunction of an unloaded library -> refused, no crash", 0, NULL},
    {"kernel_garbage_kernel", case_kernel_garbage_kernel, "CUkernel 0x1234 -> refused, no crash", 0,
     NULL},
    {"kernel_garbage_function", case_kernel_garbage_function,
     "CUfunction 0x1234 -> refused, no crash", 0, NULL},
    {"kernel_zeroed_memory_kernel", case_kernel_zeroed_memory_kernel,
     "CUkernel pointing at zeroed memory -> refused, no crash", 0, NULL},
    {"kernel_handle_as_function", case_kernel_handle_as_function,
     "a cgn graph handle as CUfunction -> refused, no crash", 0, NULL},
    {"kernel_function_of_destroyed_context", case_kernel_function_of_destroyed_context,
     "CUfunction of a cuCtxDestroy'd context -> refused, no crash", 0, NULL},
    {"kernel_foreign_context_definition", case_kernel_foreign_context_definition,
     "another context's CUfunction: add/definition update no crash; exec -> INVALID_VALUE", 0,
     NULL},
    {"kernel_neither_or_both", case_kernel_neither_or_both,
     "no kernel / function+kernel -> INVALID_VALUE; kernel w/o args -> MISSING_FIELD", 0, NULL},
    {"kernel_dims_zero", case_kernel_dims_zero, "grid/block component 0 -> INVALID_VALUE", 0, NULL},
    {"kernel_launch_limits", case_kernel_launch_limits,
     "block 2048, grid.y 70000, smem huge -> refused or clean launch failure", 0, NULL},
    {"memset_dst_zero_and_freed", case_memset_dst_zero_and_freed,
     "dst 0 -> INVALID_VALUE; freed/host/0x10 -> refused", 0, NULL},
    {"memset_element_size", case_memset_element_size,
     "element_size 0/3/8/UINT32_MAX -> INVALID_VALUE", 0, NULL},
    {"memset_width_height", case_memset_width_height,
     "width/height 0 -> INVALID_VALUE; overflow -> OUT_OF_RANGE; pitch small -> INVALID_VALUE", 0,
     NULL},
    {"memset_value_range", case_memset_value_range,
     "value too big -> OUT_OF_RANGE; coupling -> MISSING_FIELD; bits -> INVALID_ARGUMENT", 0, NULL},
    {"memcpy_size", case_memcpy_size,
     "size 0 -> INVALID_VALUE; host SIZE_MAX -> OUT_OF_RANGE; device huge -> refused", 0, NULL},
    {"memcpy_freed_and_garbage", case_memcpy_freed_and_garbage,
     "freed device/0x10/0 operands -> INVALID_VALUE", 0, NULL},
    {"memcpy_readonly_dst", case_memcpy_readonly_dst,
     "read-only host dst (literal, PROT_READ, code) -> INVALID_VALUE", 0, NULL},
    {"memcpy_host_hole", case_memcpy_host_hole, "host range with an unmapped page -> INVALID_VALUE",
     0, NULL},
    {"memcpy_overlap", case_memcpy_overlap,
     "overlapping / identical device operands -> no crash (undocumented)", 0, NULL},
    {"memcpy_3d_hostile", case_memcpy_3d_hostile,
     "3-D overflow -> OUT_OF_RANGE; no/both operands, pitch < width, host rows over a hole -> "
     "INVALID_VALUE",
     0, NULL},
    {"memcpy_3d_garbage_array", case_memcpy_3d_garbage_array,
     "CUarray 0x1234/0xdeadbeef -> refused, no crash", 0, NULL},
    {"host_callback_hostile", case_host_callback_hostile,
     "fn NULL/both -> INVALID_VALUE; payload NULL -> INVALID_ARGUMENT; 2^62 -> OUT_OF_MEMORY", 0,
     NULL},
    {"limit_host_payload_past_mapping", case_host_payload_past_mapping,
     "(documented limit, nodes.md: cgn copies a payload like memcpy) payload into an unmapped "
     "page / at 0x10",
     1, NULL},
    {"event_hostile", case_event_hostile,
     "event NULL -> INVALID_VALUE; destroyed/garbage event -> no crash", 0, NULL},
    {"event_garbage", case_event_garbage, "CUevent 0x1234 -> refused (not mapped), no crash", 0,
     NULL},
    {"child_graph_hostile", case_child_graph_hostile,
     "NULL -> INVALID_VALUE; destroyed -> DESTROYED; self/cycle -> SAME_HIERARCHY", 0, NULL},
    {"child_graph_deep_nesting", case_child_graph_deep_nesting,
     "64 nested child graphs -> OK, run, update, no stack overflow", 0, NULL},
    {"handles_null", case_handles_null, "NULL handles and out pointers -> INVALID_ARGUMENT", 0,
     NULL},
    {"handles_garbage", case_handles_garbage,
     "0xdeadbeef, 1, real memory, forged handles -> INVALID_ARGUMENT/refused", 0, NULL},
    {"handles_wrong_kind", case_handles_wrong_kind,
     "graph/exec/node confused -> INVALID_ARGUMENT; wrong type -> WRONG_NODE_TYPE", 0, NULL},
    {"handles_destroyed", case_handles_destroyed,
     "destroyed/double-destroyed node, graph, exec -> DESTROYED", 0, NULL},
    {"deps_hostile", case_deps_hostile,
     "foreign/NULL/garbage deps -> INVALID_ARGUMENT; num_deps huge -> "
     "INVALID_ARGUMENT/OUT_OF_RANGE",
     0, NULL},
    {"probe_owner_garbage", case_owner_garbage,
     "(probe) owner 0xdeadbeef -> INVALID_ARGUMENT if owners are handles", 1, NULL},
    {"probe_owner_double_release", case_owner_double_release,
     "(probe) owner released twice -> refused, no crash", 1, NULL},
    {"adopt_hostile", case_adopt_hostile, "adopt NULL raw/out, unknown flags -> INVALID_ARGUMENT",
     0, NULL},
    {"adopt_destroyed_raw", case_adopt_destroyed_raw,
     "adopt a cuGraphDestroy'd CUgraph -> refused, no crash", 0, NULL},
    {"adopt_garbage_raw", case_adopt_garbage_raw, "adopt CUgraph 0x1234 -> refused, no crash", 0,
     NULL},
    {"adopt_zeroed_memory_raw", case_adopt_zeroed_memory_raw,
     "adopt CUgraph at zeroed memory / a cgn handle -> refused, no crash", 0, NULL},
    {"exec_adopt_foreign", case_exec_adopt_foreign,
     "raw exec of another graph -> no crash in later exec updates", 0, NULL},
    {"exec_empty_graph", case_exec_empty_graph, "instantiate and launch an empty graph -> OK", 0,
     NULL},
    {"exec_update_destroyed_and_foreign_node", case_exec_update_destroyed_and_foreign_node,
     "destroyed node -> DESTROYED; foreign node/graph -> INVALID_ARGUMENT; flags", 0, NULL},
    {"probe_raw_launch_dead_stream", case_probe_raw_launch_dead_stream,
     "(driver probe) raw cuGraphLaunch on a destroyed/garbage stream", 1, NULL},
    {"launch_dead_stream", case_launch_dead_stream,
     "cgn_exec_launch on a destroyed/garbage stream -> no crash", 0,
     "probe_raw_launch_dead_stream"},
    {"context_refusals_keep_context", case_context_refusals_keep_context,
     "refusals with no/other context current keep it current; launch on another context's stream "
     "-> no crash",
     0, NULL},
};
#define NUM_CASES (sizeof cases / sizeof cases[0])

/* The child's setup: 0 ready, 77 no usable device, 1 setup failure. */
static int resolve(void *slot, const char *name, int version) {
    void *pfn = NULL;
    if (cgn_driver_proc(name, version, &pfn) != CGN_OK) {
        printf("cannot resolve %s: %s\n", name, cgn_last_error());
        return 0;
    }
    memcpy(slot, &pfn, sizeof pfn);
    return 1;
}

static int child_setup(void) {
    cgn_status st = cgn_cuda_open(&cu);
    if (st != CGN_OK) {
        printf("no usable GPU: %s (%s)\n", cgn_last_error(), cgn_status_name(st));
        return 77;
    }
    int version = 0;
    if (cgn_driver_version(&version) != CGN_OK || version < 12040) {
        printf("driver %d is older than 12.4 (argument checks need it)\n", version);
        return 77;
    }
    if (cgn_test_kernels_fatbin_size == 0) {
        printf("built without nvcc: the test kernels are missing\n");
        return 77;
    }
    if (!resolve(&dx.cuCtxGetCurrent, "cuCtxGetCurrent", 4000) ||
        !resolve(&dx.cuCtxCreate, "cuCtxCreate", 12050) ||
        !resolve(&dx.cuCtxDestroy, "cuCtxDestroy", 4000) ||
        !resolve(&dx.cuCtxPopCurrent, "cuCtxPopCurrent", 4000) ||
        !resolve(&dx.cuGraphCreate, "cuGraphCreate", 10000) ||
        !resolve(&dx.cuGraphDestroy, "cuGraphDestroy", 10000) ||
        !resolve(&dx.cuGraphAddEmptyNode, "cuGraphAddEmptyNode", 10000) ||
        !resolve(&dx.cuGraphInstantiateWithFlags, "cuGraphInstantiateWithFlags", 11040) ||
        !resolve(&dx.cuGraphExecDestroy, "cuGraphExecDestroy", 10000) ||
        !resolve(&dx.cuGraphLaunch, "cuGraphLaunch", 10000))
        return 1;
    if (cu.cuLibraryLoadData(&lib, cgn_test_kernels_fatbin, NULL, NULL, 0, NULL, NULL, 0) ||
        cu.cuLibraryGetKernel(&k_fill, lib, "fill_u32") ||
        cu.cuLibraryGetKernel(&k_add, lib, "add_one") ||
        cu.cuLibraryGetKernel(&k_empty, lib, "empty") || cu.cuKernelGetFunction(&f_fill, k_fill) ||
        cu.cuStreamCreate(&stream, CU_STREAM_DEFAULT)) {
        printf("setup: loading the test kernels failed\n");
        return 1;
    }
    /* a second context, then pop it so that the stack holds the primary context alone */
    CUcontext popped = NULL, now = NULL;
    if (dx.cuCtxCreate(&ctx_other, NULL, 0, cu.device) || dx.cuCtxPopCurrent(&popped) ||
        dx.cuCtxGetCurrent(&now) || popped != ctx_other || now != cu.context) {
        printf("setup: the second context could not be made\n");
        return 1;
    }
    return 0;
}

static void run_child(const hcase *c) {
    alarm(60);
    const int sigs[] = {SIGSEGV, SIGBUS, SIGABRT, SIGFPE, SIGILL, SIGALRM};
    for (size_t i = 0; i < sizeof sigs / sizeof sigs[0]; i++)
        signal(sigs[i], crash_handler);
    case_name = c->name;
    int rc = child_setup();
    if (rc != 0) {
        fflush(stdout);
        _exit(rc);
    }
    cur_call = "(the case's own code)";
    c->fn();
    fflush(stdout);
    fflush(stderr);
    /* no teardown: the process ends here, and a failed case may have left anything behind */
    _exit(n_fail ? 1 : 0);
}

/* Runs `fn` in a child; returns its wait status (or -1). */
static int fork_run(const hcase *c) {
    fflush(stdout);
    fflush(stderr);
    pid_t pid = fork();
    if (pid < 0) {
        perror("fork");
        return -1;
    }
    if (pid == 0)
        run_child(c);
    int status = 0;
    while (waitpid(pid, &status, 0) < 0)
        ;
    return status;
}

static void probe_device(void) {
    printf("[probe] checking for a usable GPU\n");
}

static const hcase probe_case = {"gpu_probe", probe_device, "a usable GPU", 0, NULL};

/* Whether case `name` was asked for: every case without arguments, else those named. */
static int wanted(const char *name, int argc, char **argv) {
    if (argc < 2)
        return 1;
    for (int i = 1; i < argc; i++)
        if (strcmp(argv[i], name) == 0)
            return 1;
    return 0;
}

/* Usage: test_hostile_gpu [case...] (no arguments: every case). */
int main(int argc, char **argv) {
    setvbuf(stdout, NULL, _IOLBF, 0);
    /* the parent never touches CUDA or cgn: the probe runs in a child too */
    int st = fork_run(&probe_case);
    if (st < 0 || !WIFEXITED(st) || WEXITSTATUS(st) != 0) {
        if (st >= 0 && WIFEXITED(st) && WEXITSTATUS(st) == 77) {
            printf("test_hostile_gpu skipped: no usable GPU\n");
            return 77;
        }
        if (st >= 0 && WIFSIGNALED(st))
            printf("test_hostile_gpu: the GPU probe died of signal %d (%s)\n", WTERMSIG(st),
                   strsignal(WTERMSIG(st)));
        else
            printf("test_hostile_gpu: the GPU probe failed (status %d)\n", st);
        return 1;
    }
    int failed = 0, passed = 0, notes = 0;
    int crashed[NUM_CASES];
    memset(crashed, 0, sizeof crashed);
    size_t run = 0;
    for (size_t i = 0; i < NUM_CASES; i++) {
        const hcase *c = &cases[i];
        if (!wanted(c->name, argc, argv))
            continue;
        run++;
        printf("[ RUN  ] %s: %s\n", c->name, c->expect);
        int s = fork_run(c);
        const char *verdict = "FAILED";
        char why[160] = "";
        int ok = 0;
        if (s >= 0 && WIFEXITED(s) && WEXITSTATUS(s) == 0) {
            ok = 1;
            verdict = "  OK  ";
        } else if (s >= 0 && WIFSIGNALED(s)) {
            int sig = WTERMSIG(s);
            crashed[i] = 1;
            snprintf(why, sizeof why, "killed by signal %d (%s)%s", sig, strsignal(sig),
                     sig == SIGALRM ? ": timed out after 60 s" : "");
        } else if (s >= 0 && WIFEXITED(s)) {
            snprintf(why, sizeof why, "exit status %d%s", WEXITSTATUS(s),
                     WEXITSTATUS(s) == 77 ? " (setup found no device)" : "");
        } else
            snprintf(why, sizeof why, "could not run");
        int noted = 0;
        if (!ok && c->probe) {
            printf("  NOTE [%s]: %s (a driver probe or a documented limit)\n", c->name, why);
            noted = 1;
            verdict = " NOTE ";
        } else if (!ok && crashed[i] && c->twin) {
            for (size_t j = 0; j < i; j++)
                if (strcmp(cases[j].name, c->twin) == 0 && crashed[j]) {
                    printf("  NOTE [%s]: %s, as did the raw driver (%s): a driver limitation\n",
                           c->name, why, c->twin);
                    noted = 1;
                    verdict = " NOTE ";
                }
        }
        if (ok)
            passed++;
        else if (noted)
            notes++; /* neither passed nor failed: reported */
        else
            failed++;
        printf("[%s] %s%s%s\n", verdict, c->name, why[0] ? ": " : "", why);
    }
    printf("test_hostile_gpu: %d passed, %d failed, %d noted (driver probes and documented "
           "limits that did not pass, not counted), of %zu cases run\n",
           passed, failed, notes, run);
    if (run == 0) {
        printf("test_hostile_gpu: no case of that name\n");
        return 1;
    }
    return failed ? 1 : 0;
}
