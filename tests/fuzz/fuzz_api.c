/* libFuzzer harness: the input bytes are a sequence of public cgn API calls on the fake driver,
 * with random fault injection (tests/support/cgn_fault.h), checked after every step against a
 * small model kept here. tests/fuzz/README.md says how to build and run it.
 *
 * Calls: graph create/destroy (double destroy and stale handles included); adds of empty,
 * memset, kernel (CUfunction in three contexts, CUkernel, malformed and unknown handles;
 * argument lists right and wrong), host callback (payload or user_data), event record and
 * child graph (embedding another fuzz graph, or an embedded one) nodes, with dependencies (of
 * the graph, of another, stale, NULL, duplicated, a count whose size wraps); definition
 * updates with random partial fields (set masks with unknown bits, coupled fields missing,
 * invalid values, argument-level kernel edits, one edit alone also through the one-call
 * cgn_kernel_node_set_arg / cgn_kernel_exec_set_arg), child replacement, node destroy; owners
 * (create, attach, retain, release, also from a host node while a launch runs); instantiate
 * (of roots and embedded graphs), executable-level partial updates (child graphs too),
 * enable/disable, cgn_exec_update_from_graph, cgn_exec_raw, launch (with and without the
 * fake's completion hold; completing some or all), exec destroy (in flight too), cgn_collect,
 * the current context, NULL out-parameters; and a fault armed before any call
 * (cgn_fault_arm(nth, result)).
 *
 * The node types added last (opcodes 240..253, op_x_*): memcpy_3d (device, host, array,
 * graph-allocation and unmapped operands; extents and offsets that overflow; both or neither
 * operand of a side), mem_alloc, mem_free (of an allocation of any graph, of none, of 0),
 * batch_mem_op (every operation type, misaligned or zero addresses, bad flags and types),
 * ext_sem_signal / ext_sem_wait (live, NULL and unknown semaphores), conditional (IF and WHILE
 * with one body; SWITCH and IF/else refused (old drivers, bad shapes); bad assign flags; nested
 * in bodies; in child embeddings),
 * with NULL descs, NULL arrays, zero and too large counts. Nodes are added to conditional bodies
 * (cgn_conditional_node_body) like to any graph, by the old ops too. Definition and executable
 * updates of the updatable ones (partial sets, coupled owners missing, unknown bits, NULL
 * updates, full replacements), the updates of other types on them (WRONG_NODE_TYPE),
 * cgn_node_check_updatable (NOT_SUPPORTED for memory and conditional nodes), and what CUDA
 * forbids around them: destroying any node of a graph holding a memory node, or a conditional
 * node (NOT_SUPPORTED); embedding a graph holding either in a child-graph node
 * (NOT_SUPPORTED); memory nodes outside root graphs and conditional nodes in child embeddings
 * (NOT_SUPPORTED); a second executable of such a graph, and a launch while the executable's
 * allocations of an earlier launch are not freed (the fake's CUDA_ERROR_INVALID_VALUE: the
 * model keeps the graph allocations launches made and freed). Refreshes and child
 * replacements apply the new types' executable-update rules (x_exec_rule); an executable
 * update that the fake refuses for a reason only the driver sees (an array copy out of bounds,
 * an unknown semaphore) must fail, with any status.
 *
 * What is checked after each step:
 * - the status of every call: documented (CGN_OK .. CGN_ERROR_OUT_OF_MEMORY), equal to
 *   cgn_last_status() with a message when it failed, and, when no fault was injected, the
 *   status the model predicts (the model follows the order of cgn's checks and, where only the
 *   driver decides, the fake's rules);
 * - a failed call changed nothing: the model is left as it was, and everything below must still
 *   match it; an injected fault a call reports OK (a driver call after the mutation whose
 *   failure cgn ignores) leaves the model's predictions only where they depend on it;
 * - for every node the model knows: cgn_node_is_alive, cgn_node_type_of, cgn_node_graph, the
 *   node's get function (all fields, payload bytes, argument bytes and owners), the fake's node
 *   parameters (cgn_fake_node_params), cgn_child_graph_node_embedded and _find; stale handles
 *   report CGN_ERROR_DESTROYED;
 * - for every executable and every node it holds: the exec_get function against the model's
 *   copy, and for the nodes the driver can address the fake's copy in the executable
 *   (cgn_fake_exec_node_params) and the enabled state;
 * - owners: an owner that something still needs (the fuzzer's own reference, a live node's
 *   current version, an executable's copies, a version a launch in flight may read, references
 *   CUDA keeps in executables and in a destroyed graph's hierarchy) has not been released; after
 *   a fault-free cgn_collect() with no launch in flight, every owner the model says nothing
 *   needs (and whose release the model can predict) has been released, exactly once; release
 *   callbacks never run inside a driver callback or a host node; host nodes get their payload
 *   bytes (a freed payload shows under ASan) or their user_data;
 * - the calling thread's context stack is exactly what it was (unless a fault hit a context
 *   call), cgn_fake_crash_prone_calls() stays 0, launches in flight match the model, and cgn's
 *   live handle count matches the model's live graphs, nodes and executables;
 * - at the end of each input everything is destroyed through the API; then every owner has
 *   been released exactly once, the fake holds no graph, executable or user object, cgn no
 *   handle, and LeakSanitizer finds no leak.
 *
 * Any mismatch aborts with a trace of the calls made (FUZZ_API_TRACE=1 prints them as they go).
 *
 * Executable destruction (docs/ownership.md): what cgn alone holds (versions set at executable
 * level, retired versions) stays until the launches that may read it have completed: at once
 * when cgn knows they have, through a graveyard entry released at a later cgn call once the last
 * launch's fence completed, or, when cgn cannot see the launches (raw handle taken, an unfenced
 * launch), after cuCtxSynchronize, which in the fake completes every launch in flight (the model
 * follows the fake there, and predicts a failed destroy when that wait cannot succeed).
 *
 * The fake's cuGraphExecUpdate always runs in mode COPY (it copies the graph's user-object
 * references into the executable, as seen on the H200): cgn relies on CUDA holding the graph's
 * versions for an executable and its launches (docs/design.md, "Retention"), so a driver that
 * takes no references on update (the fake's mode DROP) is outside what cgn supports.
 *
 * Input: byte 0 picks the driver version (13.0, 12.4, 12.3, 12.2, 12.0; bit 3 is unused); then
 * one opcode byte per step, each followed by the bytes its arguments use (missing bytes read as
 * 0). Opcodes 240..253 are the new node types' ops, 254 cgn_graph_instantiate_with_flags (a
 * graph, then a byte choosing the flags) and 255 cgn_exec_upload; every other opcode b means
 * b % 24. */
#include <stdarg.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cgn/cgn.h"
#include "cgn_fault.h"
#include "cgn_test_cases.h" /* the generated per-type adapters (generated/tests/) */
#include "fake_driver.h"
#include "runtime.h"

/* ---- limits ---------------------------------------------------------------------------------- */

#define MAXG 24      /* graphs (roots and embeddings) per input */
#define MAXN 128     /* nodes (including embedded copies) per input */
#define MAXE 8       /* executables per input */
#define MAXO 24      /* owners per input (bits of a uint64_t mask) */
#define MAXATT 4096  /* owner lists (attachments) per input */
#define MAXPEND 2048 /* versions waiting for launches */
#define MAXFIFO 1024 /* launches in flight */
#define MAXD 4       /* dependencies per add */
#define MAXA 5       /* kernel arguments */
#define ARGMAX 16    /* bytes per kernel argument value */
#define PMAX 48      /* host payload bytes */
#define MAXOPS 160
#define XOPS 6       /* batch memory operations a node (the model's; hostile counts go beyond) */
#define XSEMS 3      /* external semaphores a node (likewise) */
#define HOSTBUF 8192 /* host (pageable) memory that memcpy_3d operands may use */
#define ARENA_SIZE (1u << 16)
#define ARENA_SAFE (ARENA_SIZE - 4096u)

enum { ST_NONE = 0, ST_LIVE, ST_STALE, ST_ZOMBIE };
/* PRED_ANY: the model cannot say what the driver does (whether an executable's destroy must
 * drain with no context to do it in; what the fake makes of a node type cgn does not know); the
 * call may succeed or fail, and the model follows. */
enum { PRED_OK = 0, PRED_ANY_FAIL = -1, PRED_ANY = -2 };
enum { H_MODEL, H_NULL, H_BOGUS, H_WRONG };

/* ---- trace and failure ----------------------------------------------------------------------- */

static char trace_buf[1 << 16];
static size_t trace_len;
static int trace_live = -1;

static void trace(const char *fmt, ...) {
    char line[512];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(line, sizeof line, fmt, ap);
    va_end(ap);
    if (trace_live < 0) {
        const char *e = getenv("FUZZ_API_TRACE");
        trace_live = e != NULL && e[0] == '1';
    }
    if (trace_live)
        fprintf(stderr, "  %s\n", line);
    size_t n = strlen(line);
    if (trace_len + n + 2 >= sizeof trace_buf)
        trace_len = 0; /* keep the newest part */
    memcpy(trace_buf + trace_len, line, n);
    trace_buf[trace_len + n] = '\n';
    trace_len += n + 1;
    trace_buf[trace_len] = '\0';
}

#define FAIL(...)                                                                                  \
    do {                                                                                           \
        fprintf(stderr, "\n==== fuzz_api: model mismatch ====\ncalls so far:\n%s\n", trace_buf);   \
        fprintf(stderr, "mismatch: " __VA_ARGS__);                                                 \
        fprintf(stderr, "\ncgn_last_error: %s\n", cgn_last_error());                               \
        abort();                                                                                   \
    } while (0)

/* ---- input reader ---------------------------------------------------------------------------- */

typedef struct rd {
    const uint8_t *p;
    size_t n, at;
} rd;

static uint8_t u8(rd *r) {
    return r->at < r->n ? r->p[r->at++] : 0;
}
static uint32_t u32(rd *r) {
    uint32_t v = u8(r);
    v |= (uint32_t)u8(r) << 8;
    v |= (uint32_t)u8(r) << 16;
    v |= (uint32_t)u8(r) << 24;
    return v;
}

/* ---- the model ------------------------------------------------------------------------------- */

typedef struct margs {
    uint32_t n;
    int null_array;
    size_t size[MAXA];
    uint8_t val[MAXA][ARGMAX];
    int null_val[MAXA];
    int owner[MAXA];
} margs;

/* A node's fields, for every type; owner fields are owner indices, -1 for none. */
typedef struct mdesc {
    int type;
    /* memset */
    CUdeviceptr dst;
    int dst_owner;
    uint32_t value, elem;
    size_t width, height, pitch;
    /* kernel */
    int kh;
    int kowner;
    cgn_dim3 grid, block;
    uint32_t smem;
    margs a;
    /* host */
    int fn, ud, udowner;
    int has_payload; /* payload pointer given (the update's or the desc's) */
    size_t psize;
    uint8_t pbytes[PMAX];
    int pid; /* model id of cgn's copy (its internal owner); 0: none */
    /* event record */
    int ev, evowner;
    /* child graph */
    cgn_graph *child;
    /* memcpy_3d: operands (addresses, arrays), their owners, the extents, and the memory types
     * cgn detected (0: none, an array operand) */
    struct {
        CUdeviceptr dst, src;
        CUarray darr, sarr;
        int downer, daowner, sowner, saowner;
        unsigned dmt, smt;
        size_t dx, dy, dz, dp, dh, sx, sy, sz, sp, sh, w, h, depth;
    } c3;
    /* batch_mem_op: the operations (as cgn normalises them) */
    uint32_t nops;
    CUstreamBatchMemOpParams ops[XOPS];
    int opsowner;
    /* ext_sem_signal / ext_sem_wait: semaphore i is fsem_of(sem[i]) with fence value semval[i] */
    uint32_t nsems;
    int sem[XSEMS];
    uint64_t semval[XSEMS];
    int semsowner;
    /* mem_alloc (dptr: the driver's) and mem_free */
    size_t bytesize;
    int32_t device;
    CUdeviceptr dptr;
    /* conditional */
    uint32_t ctype, csize, cdef, cassign;
    CUgraphConditionalHandle chandle;
} mdesc;

typedef struct mnode {
    cgn_node *h;
    CUgraphNode raw;
    int graph, state, broken, ctx, type;
    mdesc d;
    int att;
    int deps[MAXD], ndeps;
    int embedded; /* child nodes: model graph, -1 */
    int source;   /* copies in embeddings: the node copied, -1 */
} mnode;

typedef struct mgraph {
    cgn_graph *h;
    CUgraph raw;
    int state, root, owner_node, broken;
    int nodes[MAXN], nnodes;
    /* roots */
    int hier_execs, destroyed;
    uint64_t hier_held;
} mgraph;

typedef struct mshadow {
    int node, type, att, parent, broken, ctx, top;
    int kctx;   /* kernels: the context the driver's copy runs in */
    int paired; /* the node whose raw handle the driver pairs with this position: the node at
                   instantiation (cuGraphExecUpdate keeps top-level pairings and takes new
                   ones inside child graphs; an executable-level child replacement pairs the
                   nodes inside with the source graph's) */
    mdesc d;
    uint64_t installed_at;
    int ndeps, dep_pos[MAXD];
    int enabled;
    int xl; /* its version was set at executable level: cgn alone holds it (cgn_only) */
} mshadow;

typedef struct mexec {
    cgn_exec *h;
    CUgraphExec raw;
    int state, source, root, ctx;
    mshadow sh[MAXN];
    int nsh;
    /* references CUDA keeps in the executable (copied from the graph): the attachment, the
     * shadow of the child node whose embedded graph holds it (-1: the top level), and the
     * launch count when it was taken (launches after it may read it) */
    int held_att[2 * MAXN], held_tag[2 * MAXN], nheld;
    uint64_t held_since[2 * MAXN];
    uint64_t launches;
    int raw_exposed;
    int auto_free; /* instantiated with CUDA_GRAPH_INSTANTIATE_FLAG_AUTO_FREE_ON_LAUNCH */
    /* versions retired (by cgn__exec_install) at any time, and after the raw handle was taken
     * (those cgn keeps until destruction) */
    int retired_any, retired_raw;
    /* the last launch surely got a fence: made with a version set at executable level installed
     * (cgn_only > 0), through cgn, with no fault, in a context of the executable's own */
    int last_fenced;
} mexec;

typedef struct mowner {
    cgn_owner *o;
    int refs;     /* the fuzzer's references */
    int released; /* release callbacks run */
} mowner;

typedef struct matt {
    int list[MAXA + 2], n;
    uint64_t mask;
} matt;

/* RET: retired by an executable-level change (cgn keeps it until a fence says its launches
 * completed); RAW: retired after cgn_exec_raw (kept until the executable is destroyed); DROP:
 * references CUDA gave up, or everything of a destroyed executable. */
enum { PEND_RET = 1, PEND_DROP = 2, PEND_RAW = 3 };
typedef struct mpend {
    uint64_t mask;
    int exec, kind, certain;
    uint64_t lo, hi; /* needed while a launch of exec numbered in (lo, hi] is in flight */
} mpend;

typedef struct mlaunch {
    int exec;
    uint64_t num;
} mlaunch;

static struct model {
    int version;
    mgraph g[MAXG];
    int ng;
    mnode n[MAXN];
    int nn;
    mexec *e[MAXE];
    int ne;
    mowner o[MAXO];
    int no;
    matt att[MAXATT];
    int natt;
    mpend pend[MAXPEND];
    int npend;
    mlaunch fifo[MAXFIFO];
    int nfifo;
    int hold;
    int ctx; /* current context index, -1: none */
    uint64_t uncertain;
    int perm_leak, event_leak;
    int next_pid;
    /* the op in progress */
    int armed;
    long fault_nth;
    CUresult fault_res;
    int fired;
    cgn_fault_entry fired_entry;
    int in_host;
    int host_release; /* owner a host node with user_data 2 releases at the next launch */
} M;

static mexec exec_pool[MAXE];

/* The new node types' part of the harness (defined before the destruction ops). */
static void x_fixtures(void);
static int x_type(int type);
static int x_exec_rule(int type, const mdesc *o, const mdesc *m);
static int x_graph_mem(int g);
static int x_graph_cond(int g);
static int x_launch_blocked(int ei);
static void x_launch_ran(int ei);
static void x_exec_gone(int ei);
static int x_instantiate_refused(int g);
static void x_cmp_desc(const char *what, int idx, const mdesc *m, const void *got_);
static void x_cmp_fake(const char *what, int idx, const mdesc *m, int ctx,
                       const CUgraphNodeParams *p);
static const cgn_test_type *type_adapter(int type);
static int owner_eq(cgn_owner *got, int want);
typedef struct href href;
static int check_node_pred(href nh, int type);

/* ---- fixtures: arena, kernels, events, host functions ---------------------------------------- */

static unsigned char *arena;
static CUevent events[2];

typedef struct kinfo {
    cgn_kernel k;
    int kernel; /* registered kernel 0..3; -1: bogus or malformed */
    int ctx;    /* CUfunction: its context; -1: CUkernel (the node's) */
    int malformed;
} kinfo;

#define NKH 15
static kinfo kh[NKH];
static const size_t k_np[4] = {2, 0, 3, 1};
static const size_t k_sizes[4][3] = {{8, 4, 0}, {0, 0, 0}, {16, 1, 8}, {4, 0, 0}};

static void kernel_reads(void **args, const CUDA_KERNEL_NODE_PARAMS_v2 *launch, void *user) {
    (void)user;
    if (launch->gridDimX == 0 || launch->blockDimX == 0)
        FAIL("a kernel was launched with a zero dimension");
    unsigned char sink[32];
    memcpy(sink, args[0], 8);
    memcpy(sink + 8, args[1], 4);
    (void)sink;
}

#define UD_MAGIC 0x55444154u
#define PL_MAGIC 0x504c4159u
static struct udata { uint32_t magic, which; } ud_objs[2] = {{UD_MAGIC, 1}, {UD_MAGIC, 2}};

static void host_verify(void *p) {
    M.in_host++;
    if (cgn_fake_in_driver_callback())
        FAIL("a host node runs inside a user-object destructor");
    if (p != NULL) {
        const unsigned char *b = p;
        uint32_t magic;
        memcpy(&magic, b, 4);
        if (magic == UD_MAGIC) {
            const struct udata *u = p;
            if (u != &ud_objs[0] && u != &ud_objs[1])
                FAIL("host node got a copy of user_data instead of the pointer");
            /* Owners may be released from any thread, CUDA's host-node threads included: the
             * release callback must not run here. */
            if (u == &ud_objs[1] && M.host_release >= 0) {
                int i = M.host_release;
                M.host_release = -1;
                trace("    owner_release owner %d from a host node", i);
                if (cgn_owner_release(M.o[i].o) != CGN_OK)
                    FAIL("cgn_owner_release from a host node failed");
                M.o[i].refs--;
            }
        } else if (magic == PL_MAGIC) {
            size_t len = (size_t)b[4] | (size_t)b[5] << 8;
            if (len < 8 || len > PMAX)
                FAIL("host node payload has a bad length %zu", len);
            for (size_t i = 7; i < len; i++)
                if (b[i] != (unsigned char)(b[6] + i * 29))
                    FAIL("host node payload byte %zu is wrong", i);
        } else {
            FAIL("host node got an argument that is neither its payload nor its user_data");
        }
    }
    M.in_host--;
}
static void host_fn_a(void *p) {
    host_verify(p);
}
static void host_fn_b(void *p) {
    host_verify(p);
}
static CUhostFn host_fns[3] = {NULL, host_fn_a, host_fn_b};

static void owner_released(void *resource) {
    int i = (int)(uintptr_t)resource - 1;
    if (i < 0 || i >= M.no)
        FAIL("release callback with an unknown resource");
    if (cgn_fake_in_driver_callback())
        FAIL("owner %d released inside a driver callback (CUDA's thread)", i);
    if (M.in_host)
        FAIL("owner %d released inside a host node", i);
    M.o[i].released++;
    if (M.o[i].released > 1)
        FAIL("owner %d released twice", i);
}

static void fixtures_setup(void) {
    if (arena == NULL)
        arena = calloc(1, ARENA_SIZE);
    cgn_fake_reset();
    cgn_fake_mark_device_memory(arena, ARENA_SIZE);
    CUfunction f[4];
    for (int i = 0; i < 4; i++) {
        f[i] = cgn_fake_register_kernel(i == 0   ? "k0"
                                        : i == 1 ? "k1"
                                        : i == 2 ? "k2"
                                                 : "k3",
                                        k_np[i], k_sizes[i], i == 0 ? kernel_reads : NULL, NULL);
        if (f[i] == NULL)
            abort();
    }
    int at = 0;
#define KH(fn_, kern_, kernel_, ctx_, bad_)                                                        \
    kh[at++] = (kinfo){{(fn_), (kern_)}, (kernel_), (ctx_), (bad_)}
    KH(f[0], NULL, 0, 0, 0);
    KH(cgn_fake_function_in_context(f[0], cgn_fake_context(1)), NULL, 0, 1, 0);
    KH(cgn_fake_function_in_context(f[0], cgn_fake_context(2)), NULL, 0, 2, 0);
    KH(NULL, cgn_fake_kernel_of(f[0]), 0, -1, 0);
    KH(f[1], NULL, 1, 0, 0);
    KH(NULL, cgn_fake_kernel_of(f[1]), 1, -1, 0);
    KH(f[2], NULL, 2, 0, 0);
    KH(NULL, cgn_fake_kernel_of(f[2]), 2, -1, 0);
    KH(cgn_fake_function_in_context(f[2], cgn_fake_context(2)), NULL, 2, 2, 0);
    KH(f[3], NULL, 3, 0, 0);
    KH(NULL, cgn_fake_kernel_of(f[3]), 3, -1, 0);
    KH(NULL, NULL, -1, 0, 1);                            /* neither */
    KH(f[0], cgn_fake_kernel_of(f[0]), -1, 0, 1);        /* both */
    KH((CUfunction)(uintptr_t)0xdead00, NULL, -1, 0, 0); /* unknown to the driver */
    KH(NULL, (CUkernel)(uintptr_t)0xbeef00, -1, -1, 0);  /* unknown to the driver */
#undef KH
    x_fixtures();
    events[0] = cgn_fake_event_create();
    events[1] = cgn_fake_event_create();
    cgn_fault_install(cgn_fake_table());
}

static CUevent event_of(int i) {
    return i == 0 ? NULL : i <= 2 ? events[i - 1] : (CUevent)(uintptr_t)0x515100;
}
static CUcontext ctx_of(int i) {
    return i < 0 ? NULL : cgn_fake_context(i);
}
static cgn_owner *owner_ptr(int i) {
    return i < 0 ? NULL : M.o[i].o;
}

/* ---- owner lists (attachments) and masks ----------------------------------------------------- */

static int owner_list(const mdesc *d, int *out) {
    int n = 0;
    switch (d->type) {
    case CGN_NODE_MEMSET:
        if (d->dst_owner >= 0)
            out[n++] = d->dst_owner;
        break;
    case CGN_NODE_KERNEL:
        if (d->kowner >= 0)
            out[n++] = d->kowner;
        for (uint32_t i = 0; i < d->a.n; i++)
            if (d->a.owner[i] >= 0)
                out[n++] = d->a.owner[i];
        break;
    case CGN_NODE_HOST:
        if (d->udowner >= 0)
            out[n++] = d->udowner;
        if (d->pid > 0)
            out[n++] = -d->pid; /* cgn's copy of the payload: an owner of its own */
        break;
    case CGN_NODE_EVENT_RECORD:
        if (d->evowner >= 0)
            out[n++] = d->evowner;
        break;
    case CGN_NODE_MEMCPY_3D: /* the spec's owners order */
        if (d->c3.downer >= 0)
            out[n++] = d->c3.downer;
        if (d->c3.daowner >= 0)
            out[n++] = d->c3.daowner;
        if (d->c3.sowner >= 0)
            out[n++] = d->c3.sowner;
        if (d->c3.saowner >= 0)
            out[n++] = d->c3.saowner;
        break;
    case CGN_NODE_BATCH_MEM_OP:
        if (d->opsowner >= 0)
            out[n++] = d->opsowner;
        break;
    case CGN_NODE_EXT_SEM_SIGNAL:
    case CGN_NODE_EXT_SEM_WAIT:
        if (d->semsowner >= 0)
            out[n++] = d->semsowner;
        break;
    default:
        break;
    }
    return n;
}

static uint64_t att_mask(int id) {
    return id > 0 ? M.att[id].mask : 0;
}

static int att_same(int id, const int *list, int n) {
    int have = id > 0 ? M.att[id].n : 0;
    if (have != n)
        return 0;
    for (int i = 0; i < n; i++)
        if (M.att[id].list[i] != list[i])
            return 0;
    return 1;
}

/* The attachment cgn ends up with for desc d when the current one is `cur`: the same one when the
 * owner lists are equal (cgn__same_owners), none for no owners, else a new one. */
static int att_next(int cur, const mdesc *d) {
    int list[MAXA + 2];
    int n = owner_list(d, list);
    if (att_same(cur, list, n))
        return cur;
    if (n == 0)
        return 0;
    if (M.natt >= MAXATT)
        FAIL("harness: out of attachment slots");
    int id = M.natt++;
    memcpy(M.att[id].list, list, sizeof(int) * (size_t)n);
    M.att[id].n = n;
    M.att[id].mask = 0;
    for (int i = 0; i < n; i++)
        if (list[i] >= 0)
            M.att[id].mask |= UINT64_C(1) << list[i];
    return id;
}

/* ---- handles --------------------------------------------------------------------------------- */

struct href {
    int kind, idx;
};

static void *bogus_handle(int kind) {
    return (void *)(uintptr_t)(((uint64_t)((1u << 4) | (unsigned)kind) << 32) | 0xFFFFFFF0u);
}

static cgn_graph *graph_h(href h) {
    switch (h.kind) {
    case H_MODEL:
        return M.g[h.idx].h;
    case H_BOGUS:
        return bogus_handle(CGN__KIND_GRAPH);
    case H_WRONG:
        return M.nn ? (cgn_graph *)(void *)M.n[h.idx % M.nn].h : bogus_handle(CGN__KIND_NODE);
    default:
        return NULL;
    }
}
static cgn_node *node_h(href h) {
    switch (h.kind) {
    case H_MODEL:
        return M.n[h.idx].h;
    case H_BOGUS:
        return bogus_handle(CGN__KIND_NODE);
    case H_WRONG:
        return M.ng ? (cgn_node *)(void *)M.g[h.idx % M.ng].h : bogus_handle(CGN__KIND_GRAPH);
    default:
        return NULL;
    }
}
static cgn_exec *exec_h(href h) {
    switch (h.kind) {
    case H_MODEL:
        return M.e[h.idx]->h;
    case H_BOGUS:
        return bogus_handle(CGN__KIND_EXEC);
    case H_WRONG:
        return M.ng ? (cgn_exec *)(void *)M.g[h.idx % M.ng].h : bogus_handle(CGN__KIND_GRAPH);
    default:
        return NULL;
    }
}

static int lookup_status(href h, int state) {
    if (h.kind != H_MODEL)
        return CGN_ERROR_INVALID_ARGUMENT;
    return state == ST_STALE ? CGN_ERROR_DESTROYED : CGN_OK;
}

/* Picks: mostly live objects, sometimes any (stale ones too), rarely NULL, bogus or another kind.
 */
static href pick_special(uint8_t b) {
    href h = {H_MODEL, 0};
    if (b == 0xff)
        h.kind = H_NULL;
    else if (b == 0xfe)
        h.kind = H_BOGUS;
    else if (b == 0xfd)
        h.kind = H_WRONG;
    return h;
}

static href pick_graph(rd *r) {
    uint8_t b = u8(r);
    href h = pick_special(b);
    if (h.kind != H_MODEL)
        return h;
    if (M.ng == 0) {
        h.kind = H_NULL;
        return h;
    }
    if (b & 0x80) {
        h.idx = (b & 0x7f) % M.ng;
        return h;
    }
    int live[MAXG], nl = 0;
    for (int i = 0; i < M.ng; i++)
        if (M.g[i].state == ST_LIVE)
            live[nl++] = i;
    h.idx = nl ? live[b % nl] : b % M.ng;
    return h;
}

static href pick_node(rd *r) {
    uint8_t b = u8(r);
    href h = pick_special(b);
    if (h.kind != H_MODEL)
        return h;
    if (M.nn == 0) {
        h.kind = H_NULL;
        return h;
    }
    if (b & 0x80) {
        h.idx = (b & 0x7f) % M.nn;
        return h;
    }
    int live[MAXN], nl = 0;
    for (int i = 0; i < M.nn; i++)
        if (M.n[i].state == ST_LIVE)
            live[nl++] = i;
    h.idx = nl ? live[b % nl] : b % M.nn;
    return h;
}

static href pick_exec(rd *r) {
    uint8_t b = u8(r);
    href h = pick_special(b);
    if (h.kind != H_MODEL)
        return h;
    if (M.ne == 0) {
        h.kind = H_NULL;
        return h;
    }
    if (b & 0x80) {
        h.idx = (b & 0x7f) % M.ne;
        return h;
    }
    int live[MAXE], nl = 0;
    for (int i = 0; i < M.ne; i++)
        if (M.e[i]->state == ST_LIVE)
            live[nl++] = i;
    h.idx = nl ? live[b % nl] : b % M.ne;
    return h;
}

/* An owner the fuzzer holds a reference to, or none. */
static int pick_owner(rd *r) {
    uint8_t b = u8(r);
    if (b < 96)
        return -1;
    int held[MAXO], nh = 0;
    for (int i = 0; i < M.no; i++)
        if (M.o[i].refs > 0)
            held[nh++] = i;
    return nh ? held[b % nh] : -1;
}

/* ---- fault injection ------------------------------------------------------------------------- */

static const CUresult fault_results[8] = {CUDA_ERROR_OUT_OF_MEMORY,   CUDA_ERROR_INVALID_VALUE,
                                          CUDA_ERROR_UNKNOWN,         CUDA_ERROR_NOT_PERMITTED,
                                          CUDA_ERROR_INVALID_CONTEXT, CUDA_ERROR_NOT_READY,
                                          CUDA_ERROR_INVALID_HANDLE,  CUDA_ERROR_NOT_SUPPORTED};

/* avoid_invalid_value: a kernel argument list that does not fit the kernel: an injected
 * CUDA_ERROR_INVALID_VALUE from cu*GetParamInfo would read as the end of the parameter list and
 * could make the list look right to cgn, and the fake would then read arguments that are not
 * there. The real driver does not fail that way. */
static void fault_begin(int avoid_invalid_value) {
    M.fired = 0;
    if (!M.armed)
        return;
    CUresult res = M.fault_res;
    if (avoid_invalid_value && res == CUDA_ERROR_INVALID_VALUE)
        res = CUDA_ERROR_UNKNOWN;
    cgn_fault_arm(M.fault_nth, res);
}

static void fault_end(void) {
    if (M.armed) {
        cgn_fault_entry e = CGN_FAULT_ENTRY_COUNT;
        M.fired = cgn_fault_triggered(&e);
        M.fired_entry = e;
        cgn_fault_disarm();
        if (M.fired)
            trace("    fault injected into %s", cgn_fault_entry_name(e));
        /* cgn ignores a failing cuEventDestroy (a fence event): the event stays. */
        if (M.fired && e == CGN_FAULT_cuEventDestroy)
            M.event_leak = 1;
    }
    M.armed = 0;
}

static int fired_in(cgn_fault_entry e) {
    return M.fired && M.fired_entry == e;
}

/* ---- status checks --------------------------------------------------------------------------- */

static const char *sname(int st) {
    return st == PRED_ANY_FAIL ? "(any failure)"
           : st == PRED_ANY    ? "(any)"
                               : cgn_status_name((cgn_status)st);
}

/* Returns 1 when the call succeeded. pred: the model's status (or PRED_ANY_FAIL). */
static int check_status(const char *what, cgn_status st, int pred) {
    if ((unsigned)st > CGN_ERROR_OUT_OF_MEMORY)
        FAIL("%s returned an undocumented status %d", what, (int)st);
    if (st != CGN_OK) {
        if (cgn_last_status() != st)
            FAIL("%s returned %s but cgn_last_status() is %s", what, sname(st),
                 sname(cgn_last_status()));
        if (cgn_last_error()[0] == '\0')
            FAIL("%s returned %s with an empty cgn_last_error()", what, sname(st));
    }
    trace("    -> %s%s%s%.300s", sname(st), M.fired ? " (fault fired)" : "",
          st != CGN_OK ? ": " : "", st != CGN_OK ? cgn_last_error() : "");
    if (M.fired) {
        /* a failing cuGraphDestroy cgn could not report: the raw graph and what it holds stay */
        if (st == CGN_OK && M.fired_entry == CGN_FAULT_cuGraphDestroy)
            M.perm_leak = 1;
        if (st == CGN_OK && pred != CGN_OK && pred != PRED_ANY)
            FAIL("%s succeeded (fault injected and swallowed) but the model expected %s", what,
                 sname(pred));
        return st == CGN_OK;
    }
    if (pred == PRED_ANY)
        return st == CGN_OK;
    if (pred == PRED_ANY_FAIL) {
        if (st == CGN_OK)
            FAIL("%s succeeded; the model expected a failure", what);
    } else if ((int)st != pred) {
        FAIL("%s returned %s; the model expected %s", what, sname(st), sname(pred));
    }
    return st == CGN_OK;
}

/* ---- model helpers --------------------------------------------------------------------------- */

static int total_graph_nodes(int g) {
    int c = 0;
    for (int i = 0; i < M.g[g].nnodes; i++) {
        const mnode *n = &M.n[M.g[g].nodes[i]];
        c++;
        if (n->embedded >= 0)
            c += total_graph_nodes(n->embedded);
    }
    return c;
}
static int total_graph_graphs(int g) {
    int c = 1;
    for (int i = 0; i < M.g[g].nnodes; i++) {
        const mnode *n = &M.n[M.g[g].nodes[i]];
        if (n->embedded >= 0)
            c += total_graph_graphs(n->embedded);
    }
    return c;
}

static int pos_in_graph(int g, int node) {
    for (int i = 0; i < M.g[g].nnodes; i++)
        if (M.g[g].nodes[i] == node)
            return i;
    return -1;
}

/* Marks a graph's subtree (nodes and embedded graphs) with `state`. */
static void mark_tree(int g, int node_state) {
    M.g[g].state = ST_STALE;
    for (int i = 0; i < M.g[g].nnodes; i++) {
        mnode *n = &M.n[M.g[g].nodes[i]];
        n->state = node_state;
        if (n->embedded >= 0)
            mark_tree(n->embedded, node_state);
    }
}

static uint64_t tree_mask(int g) {
    uint64_t m = 0;
    for (int i = 0; i < M.g[g].nnodes; i++) {
        const mnode *n = &M.n[M.g[g].nodes[i]];
        m |= att_mask(n->att);
        if (n->embedded >= 0)
            m |= tree_mask(n->embedded);
    }
    return m;
}

static int exec_inflight_range(int e, uint64_t lo, uint64_t hi) {
    for (int i = 0; i < M.nfifo; i++)
        if (M.fifo[i].exec == e && M.fifo[i].num > lo && M.fifo[i].num <= hi)
            return 1;
    return 0;
}
static int exec_inflight(int e) {
    return exec_inflight_range(e, 0, UINT64_MAX);
}

static void pend_add(uint64_t mask, int e, int kind, uint64_t lo, uint64_t hi, int certain) {
    if (mask == 0)
        return;
    for (int i = 0; i < M.npend; i++) {
        mpend *p = &M.pend[i];
        if (p->exec == e && p->kind == kind && p->lo == lo && p->hi == hi &&
            p->certain == certain) {
            p->mask |= mask;
            return;
        }
    }
    if (M.npend >= MAXPEND) { /* compact: drop entries that cannot matter any more */
        int k = 0;
        for (int i = 0; i < M.npend; i++)
            if (M.pend[i].mask != 0)
                M.pend[k++] = M.pend[i];
        M.npend = k;
        if (M.npend >= MAXPEND)
            FAIL("harness: out of pending slots");
    }
    M.pend[M.npend++] = (mpend){mask, e, kind, certain, lo, hi};
}

/* cgn__exec_install: the shadow's current version retires (or goes at once when no launch has
 * seen it) and `next` is installed. */
static void shadow_install(int ei, mshadow *s, int next) {
    mexec *e = M.e[ei];
    if (s->att > 0) {
        if (e->raw_exposed || e->launches != s->installed_at) {
            pend_add(att_mask(s->att), ei, e->raw_exposed ? PEND_RAW : PEND_RET, s->installed_at,
                     e->launches, 0);
            e->retired_any = 1;
            if (e->raw_exposed)
                e->retired_raw = 1;
        }
    }
    s->att = next;
    s->xl = 0; /* callers making an executable-level version set it */
    s->installed_at = e->launches;
}

/* ---- descriptor generation ------------------------------------------------------------------- */

static const size_t widths[8] = {1, 3, 16, 255, 1024, 0, SIZE_MAX, ((size_t)1 << 40)};
static const size_t heights[8] = {1, 2, 3, 7, 1, 0, SIZE_MAX, ((size_t)1 << 33)};
static const size_t pitches[8] = {0, 1, 17, 256, 4096, 8192, SIZE_MAX, 3};
static const uint32_t elems[8] = {1, 2, 4, 1, 4, 0, 3, 8};

static void gen_memset_fields(rd *r, mdesc *d) {
    uint8_t b = u8(r);
    d->dst =
        (b & 0x0f) == 0x0f ? 0 : (CUdeviceptr)(uintptr_t)(arena + (size_t)(b >> 4) * 256 + (b & 7));
    d->dst_owner = pick_owner(r);
    uint8_t v = u8(r);
    d->elem = elems[v & 7];
    d->value = (v & 0x80) ? u32(r) : (uint32_t)(v >> 3);
    uint8_t w = u8(r);
    d->width = widths[w & 7];
    d->height = heights[(w >> 3) & 7];
    d->pitch = pitches[(w >> 6) | ((u8(r) & 1) << 2)];
}

/* Argument lists: mostly right for the kernel, sometimes one of the ways they can be wrong.
 * Below 12.4 cgn cannot check them and the driver would read what the kernel expects, so only
 * lists the fake can read safely are made there (no fewer arguments than parameters). */
static void gen_args(rd *r, int khi, margs *a, int *mismatch) {
    memset(a, 0, sizeof *a);
    *mismatch = 0;
    const kinfo *k = &kh[khi];
    int np = k->kernel >= 0 ? (int)k_np[k->kernel] : 1;
    const size_t *sz = k->kernel >= 0 ? k_sizes[k->kernel] : (const size_t[]){8};
    int checked = M.version >= 12040;
    uint8_t v = u8(r);
    int variant = v % 20;
    int n = np;
    if (variant == 10 && checked && np > 0)
        n = np - 1;
    else if (variant == 11 && np < MAXA)
        n = np + 1;
    a->n = (uint32_t)n;
    for (int i = 0; i < n; i++) {
        a->size[i] = i < np ? sz[i] : (size_t)(1 + u8(r) % ARGMAX);
        for (size_t j = 0; j < ARGMAX; j++)
            a->val[i][j] = (uint8_t)(v * 7 + i * 13 + j);
        a->owner[i] = pick_owner(r);
    }
    int j = n > 0 ? (int)(u8(r) % (uint32_t)n) : 0;
    if (variant == 12 && checked && n > 0)
        a->size[j] = a->size[j] == 1 ? 2 : a->size[j] - 1;
    else if (variant == 13 && n > 0)
        a->null_val[j] = 1;
    else if (variant == 14 && n > 0)
        a->size[j] = 0;
    else if (variant == 15 && n > 0) /* sizes whose sum would wrap */
        a->size[j] = (v & 0x40) ? SIZE_MAX : (v & 0x20) ? ((size_t)1 << 63) : (size_t)2 << 20;
    else if (variant == 16 && n > 0)
        a->null_array = 1;
    if (k->kernel >= 0 && checked) {
        if ((int)a->n != np)
            *mismatch = 1;
        for (int i = 0; i < n && i < np; i++)
            if (a->size[i] != sz[i])
                *mismatch = 1;
    }
    if (k->kernel < 0)
        *mismatch = 1;
}

/* args_kh: the kernel the arguments are for when the update keeps the node's kernel (-1: the
 * kernel generated here). */
static void gen_kernel_fields(rd *r, mdesc *d, int *mismatch, int args_kh) {
    uint8_t b = u8(r);
    d->kh = (b & 0xf0) == 0xf0 ? 11 + (b & 3) : (b % 11);
    d->kowner = pick_owner(r);
    uint8_t g = u8(r);
    d->grid = CGN_DIM3((g & 0x80) ? 0 : 1u + (g & 3), 1u + ((g >> 2) & 1), 1);
    d->block = CGN_DIM3((g & 0x40) ? 0 : 1u + ((g >> 3) & 7), 1, 1u + ((g >> 4) & 1));
    d->smem = (g & 0x20) ? u32(r) : 0;
    gen_args(r, args_kh >= 0 ? args_kh : d->kh, &d->a, mismatch);
}

static void gen_host_fields(rd *r, mdesc *d) {
    uint8_t b = u8(r);
    d->fn = (b & 7) == 7 ? 0 : 1 + (b & 1);
    d->ud = (b >> 3) & 3;
    if (d->ud == 3)
        d->ud = 0;
    d->udowner = pick_owner(r);
    uint8_t p = u8(r);
    d->has_payload = (p & 3) != 0;
    d->psize = (p & 0x40) ? 0 : 8 + (size_t)((p >> 2) & 15) * 2;
    if (!d->has_payload)
        d->psize = (p & 0x80) ? 8 : 0; /* a size with a NULL payload is refused */
    if (d->psize > PMAX)
        d->psize = PMAX;
    uint8_t seed = u8(r);
    d->pbytes[0] = (uint8_t)(PL_MAGIC & 0xff);
    d->pbytes[1] = (uint8_t)((PL_MAGIC >> 8) & 0xff);
    d->pbytes[2] = (uint8_t)((PL_MAGIC >> 16) & 0xff);
    d->pbytes[3] = (uint8_t)(PL_MAGIC >> 24);
    d->pbytes[4] = (uint8_t)d->psize;
    d->pbytes[5] = 0;
    d->pbytes[6] = seed;
    for (size_t i = 7; i < PMAX; i++)
        d->pbytes[i] = (uint8_t)(seed + i * 29);
    d->pid = 0;
}

static void gen_event_fields(rd *r, mdesc *d) {
    uint8_t b = u8(r);
    d->ev = (b & 0x1f) == 0x1f ? 3 : (b & 0x1f) == 0x1e ? 0 : 1 + (b & 1);
    d->evowner = pick_owner(r);
}

/* ---- building cgn structs -------------------------------------------------------------------- */

/* Heap copies of what a call points at, freed right after the call, so that cgn keeping a pointer
 * into them shows up under ASan. */
typedef struct callbuf {
    cgn_arg *args;
    void *vals[MAXA];
    void *edit_vals[CGN_MAX_ARG_EDITS];
    void *payload;
} callbuf;

static void callbuf_free(callbuf *cb) {
    free(cb->args);
    for (int i = 0; i < MAXA; i++)
        free(cb->vals[i]);
    for (int i = 0; i < CGN_MAX_ARG_EDITS; i++)
        free(cb->edit_vals[i]);
    free(cb->payload);
    memset(cb, 0, sizeof *cb);
}

static const cgn_arg *build_args(const margs *a, callbuf *cb) {
    if (a->null_array || a->n == 0)
        return NULL;
    cb->args = calloc(a->n, sizeof *cb->args);
    for (uint32_t i = 0; i < a->n; i++) {
        if (!a->null_val[i]) {
            cb->vals[i] = malloc(ARGMAX);
            memcpy(cb->vals[i], a->val[i], ARGMAX);
        }
        cb->args[i] = (cgn_arg){cb->vals[i], a->size[i], owner_ptr(a->owner[i])};
    }
    return cb->args;
}

static const void *build_payload(const mdesc *d, callbuf *cb) {
    if (!d->has_payload)
        return NULL;
    cb->payload = malloc(PMAX);
    memcpy(cb->payload, d->pbytes, PMAX);
    return cb->payload;
}

/* ---- validation, as cgn orders it ------------------------------------------------------------ */

static int memset_rules(const mdesc *d) {
    if (d->dst == 0)
        return CGN_ERROR_INVALID_VALUE;
    if (d->elem != 1 && d->elem != 2 && d->elem != 4)
        return CGN_ERROR_INVALID_VALUE;
    if (d->elem < 4 && d->value >= (1u << (8u * d->elem)))
        return CGN_ERROR_OUT_OF_RANGE;
    if (d->width == 0 || d->height == 0)
        return CGN_ERROR_INVALID_VALUE;
    if (d->width > SIZE_MAX / d->elem)
        return CGN_ERROR_OUT_OF_RANGE;
    if (d->height > 1 && d->pitch < d->width * d->elem)
        return CGN_ERROR_INVALID_VALUE;
    if (d->height > 1 && (d->height - 1) > (SIZE_MAX - d->width * d->elem) / d->pitch)
        return CGN_ERROR_OUT_OF_RANGE;
    return CGN_OK;
}

/* Bytes a valid memset writes from dst (the fake runs it on the host). */
static size_t memset_extent(const mdesc *d) {
    size_t row = d->width * d->elem;
    if (d->height <= 1)
        return row;
    size_t rows = d->height - 1;
    if (rows > SIZE_MAX / d->pitch || rows * d->pitch > SIZE_MAX - row)
        return SIZE_MAX;
    return rows * d->pitch + row;
}

static int memset_safe(const mdesc *d) {
    if (memset_rules(d) != CGN_OK)
        return 1; /* refused before it reaches the driver */
    size_t off = (size_t)((unsigned char *)(uintptr_t)d->dst - arena);
    size_t ext = memset_extent(d);
    return off < 4096 && ext <= ARENA_SAFE;
}

static int kernel_rules(const mdesc *d) {
    if (d->grid.x == 0 || d->grid.y == 0 || d->grid.z == 0 || d->block.x == 0 || d->block.y == 0 ||
        d->block.z == 0)
        return CGN_ERROR_INVALID_VALUE;
    return CGN_OK;
}

static int host_rules(const mdesc *d) {
    if (d->fn == 0)
        return CGN_ERROR_INVALID_VALUE;
    if (!d->has_payload && d->psize != 0)
        return CGN_ERROR_INVALID_ARGUMENT;
    if (d->ud != 0 && d->has_payload)
        return CGN_ERROR_INVALID_VALUE;
    return CGN_OK;
}

/* cgn__stage_kernel_args: `cur_kh` is the kernel of the block the node (or the executable's
 * copy) has now; -1 when there is none (adding). */
static int kernel_stage_pred(const mdesc *d, int cur_kh) {
    const kinfo *k = &kh[d->kh];
    if (k->malformed)
        return CGN_ERROR_INVALID_VALUE;
    int checked = M.version >= 12040;
    int same =
        cur_kh >= 0 && kh[cur_kh].k.function == k->k.function && kh[cur_kh].k.kernel == k->k.kernel;
    if (!same && k->kernel < 0)
        return CGN_ERROR_INVALID_VALUE; /* a new kernel handle that is not mapped memory */
    const margs *a = &d->a;
    if (a->n > 0 && a->null_array)
        return CGN_ERROR_INVALID_ARGUMENT;
    int np = k->kernel >= 0 ? (int)k_np[k->kernel] : 0;
    const size_t *sz = k->kernel >= 0 ? k_sizes[k->kernel] : NULL;
    if (checked && np != (int)a->n)
        return CGN_ERROR_INVALID_VALUE;
    for (uint32_t i = 0; i < a->n; i++) {
        if (a->null_val[i] || a->size[i] == 0)
            return CGN_ERROR_INVALID_ARGUMENT;
        if (checked && sz != NULL && a->size[i] != sz[i])
            return CGN_ERROR_INVALID_VALUE;
        if (a->size[i] > ((size_t)1 << 20))
            return CGN_ERROR_OUT_OF_RANGE;
    }
    return CGN_OK;
}

/* The context a kernel node runs in, as the fake (and the driver) see it. */
static int kernel_ctx(const mdesc *d, int node_ctx) {
    return kh[d->kh].ctx >= 0 ? kh[d->kh].ctx : node_ctx;
}

/* The executable-update rules of the fake (and cgn's generated exec checks for memsets). */
static int memset_exec_ok(const mdesc *cur, const mdesc *d) {
    if (cur->height == 1)
        return d->height == 1;
    return d->height == cur->height && d->width == cur->width && d->pitch == cur->pitch &&
           d->elem == cur->elem;
}

/* ---- graphs ---------------------------------------------------------------------------------- */

/* Whether root graph g's raw handles are taken through the public API (see op_graph_create). */
static int exposed_root(int g) {
    return g % 2 == 0;
}

static int new_graph_slot(void) {
    if (M.ng >= MAXG)
        return -1;
    int g = M.ng++;
    memset(&M.g[g], 0, sizeof M.g[g]);
    M.g[g].owner_node = -1;
    return g;
}

static void op_graph_create(void) {
    if (M.ng >= MAXG)
        return;
    trace("graph_create -> graph %d", M.ng);
    cgn_graph *h = NULL;
    fault_begin(0);
    cgn_status st = cgn_graph_create(&h);
    fault_end();
    if (!check_status("cgn_graph_create", st, CGN_OK))
        return;
    int g = new_graph_slot();
    M.g[g].h = h;
    M.g[g].state = ST_LIVE;
    M.g[g].root = g;
    /* Every other hierarchy's raw handles leave cgn through the API (cgn_graph_raw,
     * cgn_node_raw), which turns on the memcpy form check's read-back there; the harness reads
     * the others' from cgn's records, leaving them unexposed as most users' graphs are. */
    if (!exposed_root(g))
        M.g[g].raw = cgn__graph_record(h)->raw;
    else if (cgn_graph_raw(h, &M.g[g].raw) != CGN_OK)
        FAIL("cgn_graph_raw of a new graph failed");
}

/* Mirrors a new embedding: the records cgn made for child node `ni`, copied from model graph
 * `src` (cgn copies live nodes in order, so copy i is the copy of source node i). */
static int build_embedding(int ni, int src, const cgn__graph_rec *eg) {
    int g = new_graph_slot();
    if (g < 0)
        FAIL("harness: out of graph slots while mirroring an embedding");
    M.g[g].h = (cgn_graph *)cgn__handle_ptr(eg->handle);
    M.g[g].raw = eg->raw;
    M.g[g].state = ST_LIVE;
    M.g[g].root = M.g[M.n[ni].graph].root;
    M.g[g].owner_node = ni;
    M.g[g].broken = eg->raw == NULL;
    if ((int)eg->num_nodes != M.g[src].nnodes)
        FAIL("embedding of graph %d has %zu nodes; its source has %d", src, eg->num_nodes,
             M.g[src].nnodes);
    for (int i = 0; i < M.g[src].nnodes; i++) {
        const mnode *s = &M.n[M.g[src].nodes[i]];
        const cgn__node_rec *rn = eg->nodes[i];
        if (M.nn >= MAXN)
            FAIL("harness: out of node slots while mirroring an embedding");
        int k = M.nn++;
        mnode *n = &M.n[k];
        memset(n, 0, sizeof *n);
        n->h = cgn__node_handle(rn);
        n->raw = rn->raw;
        n->graph = g;
        n->state = ST_LIVE;
        n->broken = rn->raw == NULL;
        n->ctx = s->ctx;
        n->type = s->type;
        n->d = s->d;
        n->att = s->att;
        n->ndeps = s->ndeps;
        for (int j = 0; j < s->ndeps; j++)
            n->deps[j] = M.g[g].nodes[pos_in_graph(src, s->deps[j])];
        n->source = M.g[src].nodes[i];
        n->embedded = -1;
        M.g[g].nodes[M.g[g].nnodes++] = k;
        if (s->embedded >= 0) {
            if (rn->embedded == NULL)
                FAIL("embedded copy of a child node has no embedding");
            n->embedded = build_embedding(k, s->embedded, rn->embedded);
        }
    }
    return g;
}

/* Records cgn could not locate in a new embedding: without a fault, exactly the copies of
 * records that were not located in the source (and everything inside an embedding that was not
 * located); with one, possibly more. */
static void note_broken(int g, int graph_expected) {
    if (M.g[g].broken != graph_expected && !(M.fired && M.g[g].broken))
        FAIL("embedding graph %d located %d; the model expected %d", g, !M.g[g].broken,
             !graph_expected);
    for (int i = 0; i < M.g[g].nnodes; i++) {
        const mnode *n = &M.n[M.g[g].nodes[i]];
        int expected = M.g[g].broken || (n->source >= 0 && M.n[n->source].broken);
        if (n->broken != expected && !(M.fired && n->broken))
            FAIL("node %d of a new embedding located %d; the model expected %d", M.g[g].nodes[i],
                 !n->broken, !expected);
        if (n->embedded >= 0)
            note_broken(n->embedded, n->broken);
    }
}

/* The status the child-graph field's staging gives (cgn__stage_child_graph), definition level. */
static int child_source_pred(href src, int dest_graph) {
    if (src.kind == H_NULL)
        return CGN_ERROR_INVALID_VALUE;
    int st = lookup_status(src, src.kind == H_MODEL ? M.g[src.idx].state : 0);
    if (st != CGN_OK)
        return st;
    /* CUDA cannot clone a graph holding memory or conditional nodes (cgn refuses up front) */
    if (x_graph_mem(src.idx) || x_graph_cond(src.idx))
        return CGN_ERROR_NOT_SUPPORTED;
    if (M.g[src.idx].root == M.g[dest_graph].root)
        return CGN_ERROR_SAME_HIERARCHY;
    return CGN_OK;
}

/* ---- add ------------------------------------------------------------------------------------- */

static const int add_types[6] = {CGN_NODE_EMPTY, CGN_NODE_MEMSET,       CGN_NODE_KERNEL,
                                 CGN_NODE_HOST,  CGN_NODE_EVENT_RECORD, CGN_NODE_CHILD_GRAPH};

static void op_add(rd *r) {
    href gh = pick_graph(r);
    int type = add_types[u8(r) % 6];
    mdesc d;
    memset(&d, 0, sizeof d);
    d.type = type;
    d.dst_owner = d.kowner = d.udowner = d.evowner = -1;
    for (int i = 0; i < MAXA; i++)
        d.a.owner[i] = -1;
    int mismatch = 0;
    href src = {H_NULL, 0};
    switch (type) {
    case CGN_NODE_MEMSET:
        gen_memset_fields(r, &d);
        if (!memset_safe(&d)) { /* keep what the fake would write inside the arena */
            d.width = 1;
            d.height = 1;
        }
        break;
    case CGN_NODE_KERNEL:
        gen_kernel_fields(r, &d, &mismatch, -1);
        break;
    case CGN_NODE_HOST:
        gen_host_fields(r, &d);
        break;
    case CGN_NODE_EVENT_RECORD:
        gen_event_fields(r, &d);
        break;
    case CGN_NODE_CHILD_GRAPH:
        src = pick_graph(r);
        break;
    default:
        break;
    }
    /* dependencies */
    uint8_t db = u8(r);
    int nd = db & 3;
    int deps_null = (db & 0xfc) == 0xfc && nd > 0;
    int deps_huge = (db & 0xfc) == 0xf8 && nd > 0; /* a count whose byte size wraps */
    href deps[MAXD];
    cgn_node *dh[MAXD];
    for (int i = 0; i < nd; i++) {
        uint8_t b = u8(r);
        deps[i] = pick_special(b);
        if (deps[i].kind == H_MODEL) {
            if (M.nn == 0) {
                deps[i].kind = H_NULL;
            } else if ((b & 0xc0) == 0xc0 || gh.kind != H_MODEL || M.g[gh.idx].nnodes == 0) {
                deps[i].idx = b % M.nn; /* any node: maybe of another graph, maybe stale */
            } else {
                deps[i].idx = M.g[gh.idx].nodes[b % M.g[gh.idx].nnodes];
            }
        }
        dh[i] = node_h(deps[i]);
    }
    if (src.kind == H_MODEL && M.g[src.idx].state == ST_LIVE &&
        (M.nn + total_graph_nodes(src.idx) + 1 > MAXN || M.ng + total_graph_graphs(src.idx) > MAXG))
        return; /* the model has no room for the copy */
    if (M.nn >= MAXN)
        return;

    /* the model's status, in cgn's order */
    int pred = CGN_OK;
    switch (type) {
    case CGN_NODE_MEMSET:
        pred = memset_rules(&d);
        break;
    case CGN_NODE_KERNEL:
        pred = kernel_rules(&d);
        break;
    case CGN_NODE_HOST:
        pred = host_rules(&d);
        break;
    case CGN_NODE_EVENT_RECORD:
        pred = d.ev == 0 ? CGN_ERROR_INVALID_VALUE : CGN_OK;
        break;
    default:
        break;
    }
    if (pred == CGN_OK)
        pred = lookup_status(gh, gh.kind == H_MODEL ? M.g[gh.idx].state : 0);
    if (pred == CGN_OK && (type == CGN_NODE_MEMSET || type == CGN_NODE_KERNEL) && M.ctx < 0)
        pred = CGN_ERROR_NO_CONTEXT;
    if (pred == CGN_OK && nd > 0 && deps_null)
        pred = CGN_ERROR_INVALID_ARGUMENT;
    if (pred == CGN_OK && deps_huge)
        pred = CGN_ERROR_OUT_OF_RANGE;
    for (int i = 0; pred == CGN_OK && !deps_null && i < nd; i++) {
        if (deps[i].kind != H_MODEL) {
            pred = CGN_ERROR_INVALID_ARGUMENT;
            break;
        }
        const mnode *dn = &M.n[deps[i].idx];
        if (dn->state == ST_STALE)
            pred = CGN_ERROR_DESTROYED;
        else if (dn->state == ST_ZOMBIE || dn->graph != gh.idx)
            pred = CGN_ERROR_INVALID_ARGUMENT;
    }
    if (pred == CGN_OK && type == CGN_NODE_KERNEL)
        pred = kernel_stage_pred(&d, -1);
    if (pred == CGN_OK && type == CGN_NODE_CHILD_GRAPH)
        pred = child_source_pred(src, gh.idx);
    if (pred == CGN_OK) { /* what only the driver refuses */
        int dup = 0;
        for (int i = 0; i < nd; i++)
            for (int j = 0; j < i; j++)
                if (deps[i].idx == deps[j].idx)
                    dup = 1;
        if (dup || M.g[gh.idx].broken || (type == CGN_NODE_KERNEL && kh[d.kh].kernel < 0) ||
            (type == CGN_NODE_CHILD_GRAPH && M.g[src.idx].broken))
            pred = CGN_ERROR_DRIVER;
        for (int i = 0; i < nd; i++)
            if (M.n[deps[i].idx].broken)
                pred = CGN_ERROR_DRIVER;
        /* An event handle that is not mapped memory: refused while staging, before the driver
         * sees the dependencies or the graph. */
        if (type == CGN_NODE_EVENT_RECORD && d.ev == 3)
            pred = CGN_ERROR_INVALID_VALUE;
    }

    trace("add %s to graph %d (kind %d) deps %d%s source graph %d -> node %d, pred %s",
          cgn__node_type_name(type), gh.kind == H_MODEL ? gh.idx : -1, gh.kind, nd,
          deps_null ? " (NULL array)" : "", src.kind == H_MODEL ? src.idx : -1, M.nn, sname(pred));
    /* Adding to an embedded graph cgn could not locate fails in the driver, after which cgn
     * releases the staged user object: a fault injected there (a second failure) would leak it
     * for good, and the real driver does not fail that way. */
    if (gh.kind == H_MODEL && M.g[gh.idx].broken)
        M.armed = 0;
    callbuf cb = {0};
    cgn_node *out = NULL;
    cgn_status st;
    cgn_graph *g = graph_h(gh);
    cgn_node *const *dp = deps_null ? NULL : dh;
    size_t nd_call = deps_huge ? SIZE_MAX / 4 : (size_t)nd;
    fault_begin(type == CGN_NODE_KERNEL && mismatch);
    switch (type) {
    case CGN_NODE_MEMSET: {
        cgn_memset_desc c = {d.dst,  owner_ptr(d.dst_owner), d.value, d.elem, d.width, d.height,
                             d.pitch};
        st = cgn_graph_add_memset(g, dp, nd_call, &c, &out);
        break;
    }
    case CGN_NODE_KERNEL: {
        cgn_kernel_desc c = {kh[d.kh].k, owner_ptr(d.kowner),   d.grid, d.block,
                             d.smem,     build_args(&d.a, &cb), d.a.n};
        st = cgn_graph_add_kernel(g, dp, nd_call, &c, &out);
        break;
    }
    case CGN_NODE_HOST: {
        cgn_host_callback_desc c = {host_fns[d.fn],
                                    d.ud ? &ud_objs[d.ud - 1] : NULL,
                                    owner_ptr(d.udowner),
                                    build_payload(&d, &cb),
                                    d.psize,
                                    (cgn_owner *)(uintptr_t)0x1}; /* ignored on input */
        st = cgn_graph_add_host_callback(g, dp, nd_call, &c, &out);
        break;
    }
    case CGN_NODE_EVENT_RECORD: {
        cgn_event_record_desc c = {event_of(d.ev), owner_ptr(d.evowner)};
        st = cgn_graph_add_event_record(g, dp, nd_call, &c, &out);
        break;
    }
    case CGN_NODE_CHILD_GRAPH: {
        cgn_child_graph_desc c = {graph_h(src)};
        d.child = c.graph;
        st = cgn_graph_add_child_graph(g, dp, nd_call, &c, &out);
        break;
    }
    default:
        st = cgn_graph_add_empty(g, dp, nd_call, &out);
        break;
    }
    fault_end();
    callbuf_free(&cb);
    if (!check_status("add", st, pred))
        return;
    int k = M.nn++;
    mnode *n = &M.n[k];
    memset(n, 0, sizeof *n);
    n->h = out;
    n->graph = gh.idx;
    n->state = ST_LIVE;
    n->ctx = M.ctx;
    n->type = type;
    if (type == CGN_NODE_HOST && d.psize > 0)
        d.pid = ++M.next_pid;
    if (type == CGN_NODE_HOST && d.psize == 0)
        d.has_payload = 0;
    n->d = d;
    n->att = att_next(0, &d);
    n->ndeps = nd;
    for (int i = 0; i < nd; i++)
        n->deps[i] = deps[i].idx;
    n->embedded = -1;
    n->source = -1;
    if (!exposed_root(M.g[gh.idx].root))
        n->raw = cgn__node_record(out)->raw;
    else if (cgn_node_raw(out, &n->raw) != CGN_OK)
        FAIL("cgn_node_raw of a new node failed");
    M.g[gh.idx].nodes[M.g[gh.idx].nnodes++] = k;
    if (type == CGN_NODE_CHILD_GRAPH) {
        const cgn__node_rec *rec = cgn__node_record(out);
        n->embedded = build_embedding(k, src.idx, rec->embedded);
        note_broken(n->embedded, 0);
    }
}

/* ---- definition updates ---------------------------------------------------------------------- */

/* An update of `type` in the model's terms: the set mask and the fields (an mdesc). */
/* An argument-level edit (cgn_arg_edit). */
typedef struct medit {
    uint32_t index, size;
    int null_val, owner;
    uint8_t val[ARGMAX];
} medit;

typedef struct mupd {
    uint64_t set;
    int null_update;
    mdesc f;
    href src; /* child graph */
    int mismatch;
    uint32_t nedits; /* kernels: the edits' count (more than CGN_MAX_ARG_EDITS is refused) */
    medit edit[CGN_MAX_ARG_EDITS];
    int direct; /* one edit alone: through cgn_kernel_node_set_arg / _exec_set_arg */
} mupd;

static uint64_t type_all(int type) {
    switch (type) {
    case CGN_NODE_MEMSET:
        return CGN_MEMSET_SET_ALL;
    case CGN_NODE_KERNEL:
        return CGN_KERNEL_SET_ALL;
    case CGN_NODE_HOST:
        return CGN_HOST_CALLBACK_SET_ALL;
    case CGN_NODE_EVENT_RECORD:
        return CGN_EVENT_RECORD_SET_ALL;
    case CGN_NODE_CHILD_GRAPH:
        return CGN_CHILD_GRAPH_SET_ALL;
    default:
        return 0;
    }
}

/* Argument edits for the arguments of kernel handle `khi` (-1: unknown): mostly right (an index
 * the kernel has, its size), sometimes an index past the end, a wrong size, a size that did not
 * fit 32 bits, a NULL value, or more edits than an update holds. */
static void gen_edits(rd *r, int khi, mupd *u) {
    uint8_t c = u8(r);
    u->nedits = (c & 3) + ((c & 0x80) ? 6u : 1u); /* 1..4 or 7..9 */
    /* One edit alone, through the one-call form (an eighth of the updates that edit). */
    u->direct = (c & 0x44) == 0x44;
    if (u->direct) {
        u->nedits = 1;
        u->set = CGN_KERNEL_SET_ARG;
    }
    int k = khi >= 0 ? kh[khi].kernel : -1;
    int np = k >= 0 ? (int)k_np[k] : 0;
    for (uint32_t i = 0; i < u->nedits && i < CGN_MAX_ARG_EDITS; i++) {
        medit *e = &u->edit[i];
        uint8_t b = u8(r);
        e->index = np > 0 ? (uint32_t)(b & 7) % (uint32_t)np : (uint32_t)(b & 3);
        if (b & 0x80)
            e->index = (uint32_t)np + (b & 1);
        e->size = e->index < (uint32_t)np ? (uint32_t)k_sizes[k][e->index] : 8;
        if ((b & 0x18) == 0x18)
            e->size = (b & 0x20) ? UINT32_MAX : e->size + 1;
        e->null_val = (b & 0x60) == 0x60 && (b & 0x18) != 0x18;
        e->owner = pick_owner(r);
        for (int j = 0; j < ARGMAX; j++)
            e->val[j] = (uint8_t)(b * 11 + i * 5 + j);
    }
}

/* Set masks: usually whole coupled groups (as the set_* helpers make them), sometimes raw bits,
 * coupled fields missing or unknown bits. */
static void gen_update(rd *r, int type, int cur_kh, mupd *u) {
    memset(u, 0, sizeof *u);
    u->f.type = type;
    u->f.dst_owner = u->f.kowner = u->f.udowner = u->f.evowner = -1;
    for (int i = 0; i < MAXA; i++)
        u->f.a.owner[i] = -1;
    uint8_t m = u8(r);
    uint64_t all = type_all(type);
    uint64_t set;
    if ((m & 0xe0) == 0xe0) {
        set = (uint64_t)u8(r) & all; /* raw bits: couplings may be missing */
        if (m & 1)
            set |= UINT64_C(1) << (6 + (m >> 1) % 50); /* unknown bits */
    } else {
        set = 0;
        switch (type) {
        case CGN_NODE_MEMSET:
            if (m & 1)
                set |= CGN_MEMSET_SET_DST | ((m & 0x10) ? 0 : CGN_MEMSET_SET_DST_OWNER);
            if (m & 2)
                set |= CGN_MEMSET_SET_VALUE | CGN_MEMSET_SET_ELEMENT_SIZE;
            if (m & 4)
                set |= CGN_MEMSET_SET_WIDTH;
            if (m & 8)
                set |= CGN_MEMSET_SET_HEIGHT | ((m & 0x20) ? CGN_MEMSET_SET_PITCH : 0);
            break;
        case CGN_NODE_KERNEL:
            if (m & 1)
                set |= CGN_KERNEL_SET_KERNEL | CGN_KERNEL_SET_ARGS |
                       ((m & 0x10) ? 0 : CGN_KERNEL_SET_KERNEL_OWNER);
            if (m & 2)
                set |= CGN_KERNEL_SET_GRID;
            if (m & 4)
                set |= CGN_KERNEL_SET_BLOCK;
            if (m & 8)
                set |= CGN_KERNEL_SET_SHARED_MEM_BYTES;
            if (m & 0x20)
                set |= CGN_KERNEL_SET_ARGS;
            if (m & 0x40)
                set |= CGN_KERNEL_SET_ARG;
            break;
        case CGN_NODE_HOST:
            if (m & 1)
                set |= CGN_HOST_CALLBACK_SET_FN | ((m & 2) ? CGN_HOST_CALLBACK_SET_USER_DATA : 0) |
                       ((m & 6) == 6 ? CGN_HOST_CALLBACK_SET_USER_DATA_OWNER : 0) |
                       ((m & 8) ? CGN_HOST_CALLBACK_SET_PAYLOAD : 0);
            break;
        case CGN_NODE_EVENT_RECORD:
            if (m & 1)
                set |=
                    CGN_EVENT_RECORD_SET_EVENT | ((m & 2) ? CGN_EVENT_RECORD_SET_EVENT_OWNER : 0);
            break;
        case CGN_NODE_CHILD_GRAPH:
            if (m & 1)
                set |= CGN_CHILD_GRAPH_SET_GRAPH;
            break;
        default:
            break;
        }
    }
    u->set = set;
    u->null_update = m == 0xdf;
    switch (type) {
    case CGN_NODE_MEMSET:
        gen_memset_fields(r, &u->f);
        break;
    case CGN_NODE_KERNEL:
        gen_kernel_fields(r, &u->f, &u->mismatch, (set & CGN_KERNEL_SET_KERNEL) ? -1 : cur_kh);
        if (set & CGN_KERNEL_SET_ARG)
            gen_edits(r, (set & CGN_KERNEL_SET_KERNEL) ? u->f.kh : cur_kh, u);
        break;
    case CGN_NODE_HOST:
        gen_host_fields(r, &u->f);
        break;
    case CGN_NODE_EVENT_RECORD:
        gen_event_fields(r, &u->f);
        break;
    case CGN_NODE_CHILD_GRAPH:
        u->src = pick_graph(r);
        u->f.child = graph_h(u->src);
        break;
    default:
        break;
    }
}

/* The coupling check of the generated update functions, in their order. */
static int coupling_pred(int type, uint64_t set) {
    switch (type) {
    case CGN_NODE_MEMSET:
        if ((set & CGN_MEMSET_SET_DST_OWNER) && !(set & CGN_MEMSET_SET_DST))
            return CGN_ERROR_MISSING_FIELD;
        if ((set & CGN_MEMSET_SET_VALUE) && !(set & CGN_MEMSET_SET_ELEMENT_SIZE))
            return CGN_ERROR_MISSING_FIELD;
        if ((set & CGN_MEMSET_SET_ELEMENT_SIZE) && !(set & CGN_MEMSET_SET_VALUE))
            return CGN_ERROR_MISSING_FIELD;
        break;
    case CGN_NODE_KERNEL:
        if ((set & CGN_KERNEL_SET_KERNEL) && !(set & CGN_KERNEL_SET_ARGS))
            return CGN_ERROR_MISSING_FIELD;
        if ((set & CGN_KERNEL_SET_KERNEL_OWNER) && !(set & CGN_KERNEL_SET_KERNEL))
            return CGN_ERROR_MISSING_FIELD;
        break;
    case CGN_NODE_HOST:
        if ((set & (CGN_HOST_CALLBACK_SET_USER_DATA | CGN_HOST_CALLBACK_SET_USER_DATA_OWNER |
                    CGN_HOST_CALLBACK_SET_PAYLOAD)) &&
            !(set & CGN_HOST_CALLBACK_SET_FN))
            return CGN_ERROR_MISSING_FIELD;
        if ((set & CGN_HOST_CALLBACK_SET_USER_DATA_OWNER) &&
            !(set & CGN_HOST_CALLBACK_SET_USER_DATA))
            return CGN_ERROR_MISSING_FIELD;
        break;
    case CGN_NODE_EVENT_RECORD:
        if ((set & CGN_EVENT_RECORD_SET_EVENT_OWNER) && !(set & CGN_EVENT_RECORD_SET_EVENT))
            return CGN_ERROR_MISSING_FIELD;
        break;
    default:
        break;
    }
    return CGN_OK;
}

/* The merged fields: the current ones with the update's set fields. */
static mdesc merge(const mdesc *cur, const mupd *u) {
    mdesc d = *cur;
    uint64_t s = u->set;
    const mdesc *f = &u->f;
    switch (cur->type) {
    case CGN_NODE_MEMSET:
        if (s & CGN_MEMSET_SET_DST) {
            d.dst = f->dst;
            d.dst_owner = (s & CGN_MEMSET_SET_DST_OWNER) ? f->dst_owner : -1;
        }
        if (s & CGN_MEMSET_SET_VALUE)
            d.value = f->value;
        if (s & CGN_MEMSET_SET_ELEMENT_SIZE)
            d.elem = f->elem;
        if (s & CGN_MEMSET_SET_WIDTH)
            d.width = f->width;
        if (s & CGN_MEMSET_SET_HEIGHT)
            d.height = f->height;
        if (s & CGN_MEMSET_SET_PITCH)
            d.pitch = f->pitch;
        break;
    case CGN_NODE_KERNEL:
        if (s & CGN_KERNEL_SET_KERNEL) {
            d.kh = f->kh;
            d.kowner = (s & CGN_KERNEL_SET_KERNEL_OWNER) ? f->kowner : -1;
        }
        if (s & CGN_KERNEL_SET_GRID)
            d.grid = f->grid;
        if (s & CGN_KERNEL_SET_BLOCK)
            d.block = f->block;
        if (s & CGN_KERNEL_SET_SHARED_MEM_BYTES)
            d.smem = f->smem;
        if (s & CGN_KERNEL_SET_ARGS)
            d.a = f->a;
        for (uint32_t i = 0; (s & CGN_KERNEL_SET_ARG) && i < u->nedits && i < CGN_MAX_ARG_EDITS;
             i++) { /* only what cgn would accept; anything else fails the update */
            const medit *e = &u->edit[i];
            if (e->index < d.a.n && !e->null_val && e->size == d.a.size[e->index]) {
                memcpy(d.a.val[e->index], e->val, d.a.size[e->index]);
                d.a.owner[e->index] = e->owner;
            }
        }
        break;
    case CGN_NODE_HOST:
        if (s & CGN_HOST_CALLBACK_SET_FN) {
            d.fn = f->fn;
            d.ud = (s & CGN_HOST_CALLBACK_SET_USER_DATA) ? f->ud : 0;
            d.udowner = (s & CGN_HOST_CALLBACK_SET_USER_DATA_OWNER) ? f->udowner : -1;
            if (s & CGN_HOST_CALLBACK_SET_PAYLOAD) {
                d.has_payload = f->has_payload;
                d.psize = f->psize;
                memcpy(d.pbytes, f->pbytes, PMAX);
            } else {
                d.has_payload = 0;
                d.psize = 0;
            }
            d.pid = 0;
        }
        break;
    case CGN_NODE_EVENT_RECORD:
        if (s & CGN_EVENT_RECORD_SET_EVENT) {
            d.ev = f->ev;
            d.evowner = (s & CGN_EVENT_RECORD_SET_EVENT_OWNER) ? f->evowner : -1;
        }
        break;
    case CGN_NODE_CHILD_GRAPH:
        if (s & CGN_CHILD_GRAPH_SET_GRAPH)
            d.child = f->child;
        break;
    default:
        break;
    }
    return d;
}

static int merged_rules(const mdesc *d) {
    switch (d->type) {
    case CGN_NODE_MEMSET:
        return memset_rules(d);
    case CGN_NODE_KERNEL:
        return kernel_rules(d);
    case CGN_NODE_HOST:
        return host_rules(d);
    case CGN_NODE_EVENT_RECORD:
        return d->ev == 0 ? CGN_ERROR_INVALID_VALUE : CGN_OK;
    default:
        return CGN_OK;
    }
}

/* Calls the update (definition or executable level) of `type` with the model's update: the
 * typed update built here, the call through the type's generated adapter. */
static cgn_status call_update(int type, int at_exec, cgn_exec *exec, cgn_node *node,
                              const mupd *u) {
    callbuf cb = {0};
    const mdesc *f = &u->f;
    union {
        cgn_memset_update m;
        cgn_kernel_update k;
        cgn_host_callback_update h;
        cgn_event_record_update e;
        cgn_child_graph_update c;
    } up;
    switch (type) {
    case CGN_NODE_MEMSET:
        up.m = (cgn_memset_update){u->set,    f->dst,  owner_ptr(f->dst_owner),
                                   f->value,  f->elem, f->width,
                                   f->height, f->pitch};
        break;
    case CGN_NODE_KERNEL: {
        if (u->direct && !u->null_update) {
            /* The one-call form: the same statuses as the update below (a size that did not
             * fit 32 bits is given as one past it). */
            const medit *e = &u->edit[0];
            if (!e->null_val) {
                cb.edit_vals[0] = malloc(ARGMAX);
                memcpy(cb.edit_vals[0], e->val, ARGMAX);
            }
            size_t size = e->size == UINT32_MAX ? (size_t)UINT32_MAX + 1 : e->size;
            cgn_status st = at_exec ? cgn_kernel_exec_set_arg(exec, node, e->index, cb.edit_vals[0],
                                                              size, owner_ptr(e->owner))
                                    : cgn_kernel_node_set_arg(node, e->index, cb.edit_vals[0], size,
                                                              owner_ptr(e->owner));
            callbuf_free(&cb);
            return st;
        }
        cgn_kernel_update *c = &up.k;
        *c = (cgn_kernel_update){u->set,    kh[f->kh].k, owner_ptr(f->kowner),   f->grid,
                                 f->block,  f->smem,     build_args(&f->a, &cb), f->a.n,
                                 {0, {{0}}}};
        c->arg_edits.count = u->nedits;
        for (uint32_t i = 0; i < u->nedits && i < CGN_MAX_ARG_EDITS; i++) {
            const medit *e = &u->edit[i];
            if (!e->null_val) {
                cb.edit_vals[i] = malloc(ARGMAX);
                memcpy(cb.edit_vals[i], e->val, ARGMAX);
            }
            c->arg_edits.edit[i] =
                (cgn_arg_edit){cb.edit_vals[i], owner_ptr(e->owner), e->index, e->size};
        }
        break;
    }
    case CGN_NODE_HOST:
        up.h = (cgn_host_callback_update){u->set,
                                          host_fns[f->fn],
                                          f->ud ? &ud_objs[f->ud - 1] : NULL,
                                          owner_ptr(f->udowner),
                                          build_payload(f, &cb),
                                          f->psize};
        break;
    case CGN_NODE_EVENT_RECORD:
        up.e = (cgn_event_record_update){u->set, event_of(f->ev), owner_ptr(f->evowner)};
        break;
    case CGN_NODE_CHILD_GRAPH:
        up.c = (cgn_child_graph_update){u->set, f->child};
        break;
    default: /* empty nodes have no update */
        return CGN_OK;
    }
    const cgn_test_type *a = type_adapter(type);
    const void *p = u->null_update ? NULL : (const void *)&up;
    cgn_status st = at_exec ? a->exec_update(exec, node, p) : a->update(node, p);
    callbuf_free(&cb);
    return st;
}

/* Whether stage_owners runs for this set (the generated "owner field changed" test). */
static int owners_staged(int type, uint64_t set) {
    switch (type) {
    case CGN_NODE_MEMSET:
        return (set & CGN_MEMSET_SET_DST) != 0;
    case CGN_NODE_KERNEL:
        return (set & (CGN_KERNEL_SET_ARG | CGN_KERNEL_SET_ARGS | CGN_KERNEL_SET_KERNEL)) != 0;
    case CGN_NODE_HOST:
        return (set & CGN_HOST_CALLBACK_SET_FN) != 0;
    case CGN_NODE_EVENT_RECORD:
        return (set & CGN_EVENT_RECORD_SET_EVENT) != 0;
    default:
        return 0;
    }
}

static const int upd_types[5] = {CGN_NODE_MEMSET, CGN_NODE_KERNEL, CGN_NODE_HOST,
                                 CGN_NODE_EVENT_RECORD, CGN_NODE_CHILD_GRAPH};

/* The checks shared by both levels after the node is resolved: version gate, NULL update,
 * unknown bits, empty set, couplings, merged rules, staging. cur_kh: the kernel of the current
 * block. Returns PRED_OK with *merged filled, or a status. *noop: set == 0. */
static int update_pred(int type, const mdesc *cur, int cur_kh, const mupd *u, mdesc *merged,
                       int *noop) {
    *noop = 0;
    if (M.version < 12020)
        return CGN_ERROR_DRIVER_TOO_OLD;
    if (u->null_update)
        return CGN_ERROR_INVALID_ARGUMENT;
    if (u->set & ~type_all(type))
        return CGN_ERROR_INVALID_ARGUMENT;
    if (u->set == 0) {
        *noop = 1;
        return CGN_OK;
    }
    /* spec: the arg field's since (12.4), before every other check */
    if (type == CGN_NODE_KERNEL && (u->set & CGN_KERNEL_SET_ARG) && M.version < 12040)
        return CGN_ERROR_DRIVER_TOO_OLD;
    int st = coupling_pred(type, u->set);
    if (st != CGN_OK)
        return st;
    *merged = merge(cur, u);
    st = merged_rules(merged);
    if (st != CGN_OK)
        return st;
    if (type == CGN_NODE_KERNEL && (u->set & (CGN_KERNEL_SET_KERNEL | CGN_KERNEL_SET_ARGS)))
        st = kernel_stage_pred(merged, cur_kh);
    if (st == CGN_OK && type == CGN_NODE_KERNEL && (u->set & CGN_KERNEL_SET_ARG)) {
        /* cgn__check_arg_edits, against the block this update builds or the current one */
        if (u->nedits > CGN_MAX_ARG_EDITS)
            return CGN_ERROR_INVALID_ARGUMENT;
        const size_t *sizes = k_sizes[kh[merged->kh].kernel];
        for (uint32_t i = 0; i < u->nedits; i++) {
            const medit *e = &u->edit[i];
            if (e->index >= merged->a.n)
                return CGN_ERROR_INVALID_VALUE;
            if (e->null_val)
                return CGN_ERROR_INVALID_ARGUMENT;
            if (e->size != sizes[e->index])
                return CGN_ERROR_INVALID_VALUE;
        }
    }
    return st;
}

static void op_node_update(rd *r) {
    href nh = pick_node(r);
    uint8_t tb = u8(r);
    int type;
    if (nh.kind == H_MODEL && tb < 224 && M.n[nh.idx].type != CGN_NODE_EMPTY &&
        !x_type(M.n[nh.idx].type))
        type = M.n[nh.idx].type;
    else
        type = upd_types[tb % 5];
    mnode *n = nh.kind == H_MODEL ? &M.n[nh.idx] : NULL;
    mupd u;
    gen_update(r, type, n && n->type == CGN_NODE_KERNEL ? n->d.kh : -1, &u);
    if (n != NULL && type == CGN_NODE_MEMSET && n->type == CGN_NODE_MEMSET) {
        mdesc m = merge(&n->d, &u);
        if (!memset_safe(&m)) {
            u.set |= CGN_MEMSET_SET_WIDTH | CGN_MEMSET_SET_HEIGHT;
            u.f.width = 1;
            u.f.height = 1;
        }
    }
    if (type == CGN_NODE_CHILD_GRAPH && u.src.kind == H_MODEL && M.g[u.src.idx].state == ST_LIVE &&
        (M.nn + total_graph_nodes(u.src.idx) > MAXN || M.ng + total_graph_graphs(u.src.idx) > MAXG))
        return;

    int pred = lookup_status(nh, n ? n->state : 0);
    if (pred == CGN_OK && n->state == ST_ZOMBIE)
        pred = CGN_ERROR_DESTROYED;
    if (pred == CGN_OK && n->type != type)
        pred = CGN_ERROR_WRONG_NODE_TYPE;
    if (pred == CGN_OK && n->broken)
        pred = CGN_ERROR_DRIVER;
    mdesc merged;
    int noop = 0;
    if (pred == CGN_OK)
        pred = update_pred(type, &n->d, type == CGN_NODE_KERNEL ? n->d.kh : -1, &u, &merged, &noop);
    if (pred == CGN_OK && !noop && type == CGN_NODE_CHILD_GRAPH &&
        (u.set & CGN_CHILD_GRAPH_SET_GRAPH))
        pred = child_source_pred(u.src, n->graph);
    if (pred == CGN_OK && !noop) { /* what only the driver refuses */
        if (type == CGN_NODE_KERNEL && kh[merged.kh].kernel < 0)
            pred = CGN_ERROR_DRIVER;
        if (type == CGN_NODE_EVENT_RECORD && merged.ev == 3)
            pred = CGN_ERROR_INVALID_VALUE; /* not mapped memory: refused before the driver */
        if (type == CGN_NODE_CHILD_GRAPH && M.g[u.src.idx].broken)
            pred = CGN_ERROR_DRIVER;
    }
    trace("node_update node %d (kind %d) as %s set 0x%llx%s source graph %d, pred %s",
          nh.kind == H_MODEL ? nh.idx : -1, nh.kind, cgn__node_type_name(type),
          (unsigned long long)u.set, u.null_update ? " (NULL update)" : "",
          u.src.kind == H_MODEL && type == CGN_NODE_CHILD_GRAPH ? u.src.idx : -1, sname(pred));
    if (type == CGN_NODE_EMPTY)
        return;
    fault_begin(type == CGN_NODE_KERNEL && u.mismatch);
    cgn_status st = call_update(type, 0, NULL, node_h(nh), &u);
    fault_end();
    if (!check_status("node update", st, pred) || noop)
        return;
    int old_att = n->att;
    if (type == CGN_NODE_HOST && (u.set & CGN_HOST_CALLBACK_SET_FN)) {
        merged.pid = merged.psize > 0 ? ++M.next_pid : 0;
        if (merged.psize == 0)
            merged.has_payload = 0;
    }
    n->d = merged;
    if (owners_staged(type, u.set))
        n->att = att_next(n->att, &merged);
    if (fired_in(CGN_FAULT_cuGraphReleaseUserObject))
        M.uncertain |= att_mask(old_att); /* the graph may keep the old version */
    if (type == CGN_NODE_CHILD_GRAPH && (u.set & CGN_CHILD_GRAPH_SET_GRAPH)) {
        if (n->embedded >= 0)
            mark_tree(n->embedded, ST_STALE);
        const cgn__node_rec *rec = cgn__node_record(n->h);
        n->embedded = build_embedding(nh.idx, u.src.idx, rec->embedded);
        note_broken(n->embedded, 0);
    }
}

/* ---- executables ----------------------------------------------------------------------------- */

static void held_add(mexec *e, int att, int tag) {
    if (att <= 0)
        return;
    if (e->nheld >= 2 * MAXN)
        FAIL("harness: out of held-reference slots");
    e->held_att[e->nheld] = att;
    e->held_since[e->nheld] = e->launches;
    e->held_tag[e->nheld++] = tag;
}

/* The executable's copies of graph g's subtree (instantiation, refresh), depth first in insertion
 * order as cgn__fill_shadows; take_held: CUDA copies the graph's references too. */
static void fill_shadows(mexec *e, int g, int parent, int take_held) {
    for (int i = 0; i < M.g[g].nnodes; i++) {
        int ni = M.g[g].nodes[i];
        const mnode *n = &M.n[ni];
        int si = e->nsh++;
        mshadow *s = &e->sh[si];
        memset(s, 0, sizeof *s);
        s->node = ni;
        s->type = n->type;
        s->d = n->d;
        s->att = n->att;
        s->parent = parent;
        s->top = parent < 0;
        s->broken = n->broken;
        s->ctx = n->ctx;
        s->kctx = n->type == CGN_NODE_KERNEL ? kernel_ctx(&n->d, n->ctx) : -1;
        s->installed_at = e->launches;
        s->enabled = 1;
        s->paired = ni;
        s->ndeps = n->ndeps;
        for (int k = 0; k < n->ndeps; k++)
            s->dep_pos[k] = pos_in_graph(g, n->deps[k]);
        if (take_held)
            held_add(e, n->att, parent);
        if (n->embedded >= 0)
            fill_shadows(e, n->embedded, si, take_held);
    }
}

/* Instantiation flags: mostly none; those cgn passes on; those it refuses, before any check of
 * the graph itself (an unknown bit when the byte is 255). */
static const unsigned long long instantiate_flags[8] = {
    0, 0, 0, 0, CUDA_GRAPH_INSTANTIATE_FLAG_AUTO_FREE_ON_LAUNCH,
    CUDA_GRAPH_INSTANTIATE_FLAG_AUTO_FREE_ON_LAUNCH | CUDA_GRAPH_INSTANTIATE_FLAG_USE_NODE_PRIORITY,
    CUDA_GRAPH_INSTANTIATE_FLAG_DEVICE_LAUNCH, CUDA_GRAPH_INSTANTIATE_FLAG_UPLOAD};

static void instantiate(href gh, unsigned long long flags) {
    if (M.ne >= MAXE)
        return;
    int pred = lookup_status(gh, gh.kind == H_MODEL ? M.g[gh.idx].state : 0);
    if (pred == CGN_OK && (flags & CUDA_GRAPH_INSTANTIATE_FLAG_DEVICE_LAUNCH))
        pred = CGN_ERROR_NOT_SUPPORTED;
    else if (pred == CGN_OK && (flags & ~(unsigned long long)(
                                             CUDA_GRAPH_INSTANTIATE_FLAG_AUTO_FREE_ON_LAUNCH |
                                             CUDA_GRAPH_INSTANTIATE_FLAG_USE_NODE_PRIORITY)))
        pred = CGN_ERROR_INVALID_ARGUMENT; /* UPLOAD (needs a stream) or an unknown bit */
    if (pred == CGN_OK && M.g[gh.idx].broken)
        pred = CGN_ERROR_DRIVER;
    if (pred == CGN_OK && x_instantiate_refused(gh.idx))
        pred = CGN_ERROR_DRIVER; /* one executable at a time (memory or conditional nodes) */
    trace("instantiate graph %d (kind %d) flags 0x%llx pred %s",
          gh.kind == H_MODEL ? gh.idx : -1, gh.kind, flags, sname(pred));
    cgn_exec *out = NULL;
    fault_begin(0);
    cgn_status st = cgn_graph_instantiate_with_flags(graph_h(gh), flags, &out);
    fault_end();
    if (!check_status("cgn_graph_instantiate_with_flags", st, pred))
        return;
    int ei = M.ne++;
    mexec *e = &exec_pool[ei];
    memset(e, 0, sizeof *e);
    M.e[ei] = e;
    e->h = out;
    e->raw = cgn__exec_record(out)->raw;
    e->state = ST_LIVE;
    e->source = gh.idx;
    e->auto_free = (flags & CUDA_GRAPH_INSTANTIATE_FLAG_AUTO_FREE_ON_LAUNCH) != 0;
    e->root = M.g[gh.idx].root;
    e->ctx = M.ctx;
    fill_shadows(e, gh.idx, -1, 1);
    M.g[e->root].hier_execs++;
}

static void op_instantiate(rd *r) {
    instantiate(pick_graph(r), 0);
}

/* Opcode 254: a graph, then the flags' byte. */
static void op_instantiate_flags(rd *r) {
    href gh = pick_graph(r);
    uint8_t fb = u8(r);
    instantiate(gh, fb == 255 ? 1ull << 40 : instantiate_flags[fb & 7]);
}

/* Opcode 255: cgn_exec_upload, which is not a launch (nothing counted, fenced or released). */
static void op_upload(rd *r) {
    href eh = pick_exec(r);
    int pred = lookup_status(eh, eh.kind == H_MODEL ? M.e[eh.idx]->state : 0);
    trace("upload exec %d (kind %d) pred %s", eh.kind == H_MODEL ? eh.idx : -1, eh.kind,
          sname(pred));
    fault_begin(0);
    cgn_status st = cgn_exec_upload(exec_h(eh), NULL);
    fault_end();
    check_status("cgn_exec_upload", st, pred); /* (a fault fired: any status) */
}

/* The executable's copy of node ni, or -1. */
static int shadow_of(const mexec *e, int ni) {
    for (int i = 0; i < e->nsh; i++)
        if (e->sh[i].node == ni)
            return i;
    return -1;
}

/* cgn__exec_update_begin (and cgn__exec_node): resolves exec and node. */
static int exec_node_pred(href eh, href nh, int *si_out) {
    *si_out = -1;
    int st = lookup_status(eh, eh.kind == H_MODEL ? M.e[eh.idx]->state : 0);
    if (st != CGN_OK)
        return st;
    if (nh.kind != H_MODEL)
        return CGN_ERROR_INVALID_ARGUMENT;
    if (M.n[nh.idx].state == ST_STALE)
        return CGN_ERROR_DESTROYED;
    int si = shadow_of(M.e[eh.idx], nh.idx);
    if (si < 0)
        return CGN_ERROR_INVALID_ARGUMENT;
    *si_out = si;
    return CGN_OK;
}

/* The position among the top-level shadows of top-level shadow si. */
static int pos_of_top(const mexec *e, int si) {
    int pos = 0;
    for (int i = 0; i < si; i++)
        pos += e->sh[i].top;
    return pos;
}

/* Same structure (cgn__same_structure): the shadows under `parent` against graph g's tree. */
static int same_structure(const mexec *e, int parent, int g) {
    int kids[MAXN], nk = 0;
    for (int i = 0; i < e->nsh; i++)
        if (e->sh[i].parent == parent)
            kids[nk++] = i;
    if (nk != M.g[g].nnodes)
        return 0;
    for (int i = 0; i < nk; i++) {
        const mshadow *s = &e->sh[kids[i]];
        const mnode *n = &M.n[M.g[g].nodes[i]];
        if (s->type != n->type || s->ndeps != n->ndeps)
            return 0;
        for (int k = 0; k < n->ndeps; k++)
            if (s->dep_pos[k] != pos_in_graph(g, n->deps[k]))
                return 0;
        if (n->embedded >= 0 && !same_structure(e, kids[i], n->embedded))
            return 0;
    }
    return 1;
}

/* The fake's rules (cuGraphExecUpdate / child graphs) for every pair of the shadows under
 * `parent` and graph g's tree, which has the same structure. Returns 0 when one fails. */
static int fake_rules_ok(const mexec *e, int parent, int g) {
    int at = 0;
    for (int i = 0; i < e->nsh; i++) {
        if (e->sh[i].parent != parent)
            continue;
        const mshadow *s = &e->sh[i];
        const mnode *n = &M.n[M.g[g].nodes[at++]];
        if (s->type == CGN_NODE_KERNEL && s->kctx != kernel_ctx(&n->d, n->ctx))
            return 0;
        if (s->type == CGN_NODE_MEMSET && !memset_exec_ok(&s->d, &n->d))
            return 0;
        if (x_exec_rule(s->type, &s->d, &n->d) != CGN_OK ||
            (s->type == CGN_NODE_BATCH_MEM_OP && s->ctx != n->ctx))
            return 0;
        if (n->embedded >= 0 && !fake_rules_ok(e, i, n->embedded))
            return 0;
    }
    return 1;
}

/* cgn__refresh_preflight: cgn's own memset rules for nodes it can pair by handle. */
static int preflight_ok(const mexec *e, int g) {
    for (int i = 0; i < M.g[g].nnodes; i++) {
        int ni = M.g[g].nodes[i];
        const mnode *n = &M.n[ni];
        int si = shadow_of(e, ni);
        if (si >= 0 && e->sh[si].type == n->type && n->type == CGN_NODE_MEMSET &&
            !memset_exec_ok(&e->sh[si].d, &n->d))
            return 0;
        if (si >= 0 && e->sh[si].type == n->type && x_exec_rule(n->type, &e->sh[si].d, &n->d))
            return 0; /* the generated exec checks of the new types */
        if (n->embedded >= 0 && !preflight_ok(e, n->embedded))
            return 0;
    }
    return 1;
}

/* Whether the driver can address the executable's copy of the node through the node's raw
 * handle (cuGraphExecNodeSetParams, cuGraphNodeSetEnabled). */
static int addressable(const mshadow *s) {
    return !s->broken && s->node == s->paired;
}

/* Whether shadow si lies inside child shadow c's subtree (or is c). */
static int in_subtree(const mexec *e, int si, int c) {
    while (si >= 0 && si != c)
        si = e->sh[si].parent;
    return si == c;
}

static uint64_t ruled_bits(int type) {
    switch (type) {
    case CGN_NODE_MEMSET:
        return CGN_MEMSET_SET_DST | CGN_MEMSET_SET_WIDTH;
    case CGN_NODE_KERNEL:
        return CGN_KERNEL_SET_KERNEL;
    default:
        return 0;
    }
}

/* CUDA drops the references the executable holds inside child shadow c (-1: all of them); they
 * stay with launches in flight. */
static void drop_held(int ei, int c) {
    mexec *e = M.e[ei];
    int k = 0;
    for (int i = 0; i < e->nheld; i++) {
        if (c < 0 || in_subtree(e, e->held_tag[i], c)) {
            pend_add(att_mask(e->held_att[i]), ei, PEND_DROP, e->held_since[i], e->launches, 1);
        } else {
            e->held_att[k] = e->held_att[i];
            e->held_since[k] = e->held_since[i];
            e->held_tag[k++] = e->held_tag[i];
        }
    }
    e->nheld = k;
}

/* cgn__retake: the shadows of a child's subtree take the source graph's nodes' parameters; the
 * driver's executable now has a clone of the source there (enabled, holding the source's
 * references), whose nodes stay paired with the definition's copies, as on the H200 (the fake
 * does the same since test_exec_update_inside_after_exec_replacement). */
static void retake(int ei, int *at, int g) {
    mexec *e = M.e[ei];
    for (int i = 0; i < M.g[g].nnodes; i++) {
        int ni = M.g[g].nodes[i];
        const mnode *n = &M.n[ni];
        int si = (*at)++;
        mshadow *s = &e->sh[si];
        s->d = n->d;
        if (n->type == CGN_NODE_KERNEL)
            s->kctx = kernel_ctx(&n->d, n->ctx);
        if (n->att != s->att)
            shadow_install(ei, s, n->att);
        s->enabled = 1;
        held_add(e, n->att, s->parent);
        if (n->embedded >= 0)
            retake(ei, at, n->embedded);
    }
}

static void op_exec_update(rd *r) {
    href eh = pick_exec(r);
    href nh = pick_node(r);
    uint8_t tb = u8(r);
    /* prefer a node of this executable */
    if (eh.kind == H_MODEL && (tb & 0x80) && M.e[eh.idx]->nsh > 0) {
        nh.kind = H_MODEL;
        nh.idx = M.e[eh.idx]->sh[tb % M.e[eh.idx]->nsh].node;
    }
    int si = -1;
    int pred = exec_node_pred(eh, nh, &si);
    mexec *e = si >= 0 ? M.e[eh.idx] : NULL;
    mshadow *s = e ? &e->sh[si] : NULL;
    int type = s && (tb & 0x40) == 0 && s->type != CGN_NODE_EMPTY && !x_type(s->type)
                   ? s->type
                   : upd_types[tb % 5];
    mupd u;
    gen_update(r, type, s && s->type == CGN_NODE_KERNEL ? s->d.kh : -1, &u);
    if (s != NULL && type == CGN_NODE_MEMSET && s->type == CGN_NODE_MEMSET) {
        mdesc m = merge(&s->d, &u);
        if (!memset_safe(&m)) {
            u.set |= CGN_MEMSET_SET_WIDTH | CGN_MEMSET_SET_HEIGHT;
            u.f.width = 1;
            u.f.height = 1;
        }
    }
    if (pred == CGN_OK && s->type != type)
        pred = CGN_ERROR_WRONG_NODE_TYPE;
    mdesc merged;
    int noop = 0;
    if (pred == CGN_OK)
        pred = update_pred(type, &s->d, type == CGN_NODE_KERNEL ? s->d.kh : -1, &u, &merged, &noop);
    int src_ok = 0;
    if (pred == CGN_OK && !noop && type == CGN_NODE_CHILD_GRAPH &&
        (u.set & CGN_CHILD_GRAPH_SET_GRAPH)) {
        if (u.src.kind == H_NULL)
            pred = CGN_ERROR_INVALID_VALUE;
        else
            pred = lookup_status(u.src, u.src.kind == H_MODEL ? M.g[u.src.idx].state : 0);
        if (pred == CGN_OK && M.g[u.src.idx].root == e->root)
            pred = CGN_ERROR_SAME_HIERARCHY; /* one source rule at both levels */
        if (pred == CGN_OK && !same_structure(e, si, u.src.idx))
            pred = CGN_ERROR_INVALID_VALUE;
        src_ok = pred == CGN_OK;
    }
    if (pred == CGN_OK && !noop && type == CGN_NODE_MEMSET && !memset_exec_ok(&s->d, &merged))
        pred = CGN_ERROR_INVALID_VALUE;
    if (pred == CGN_OK && !noop) { /* the fake's cuGraphExecNodeSetParams */
        uint64_t ruled = u.set & ruled_bits(type);
        if (type == CGN_NODE_EVENT_RECORD && merged.ev == 3) {
            pred = CGN_ERROR_INVALID_VALUE; /* not mapped memory: refused while staging */
        } else if (!addressable(s)) {
            pred = ruled ? CGN_ERROR_INVALID_VALUE : CGN_ERROR_DRIVER;
        } else if (type == CGN_NODE_KERNEL && kh[merged.kh].kernel < 0) {
            pred = CGN_ERROR_DRIVER; /* CUDA_ERROR_INVALID_HANDLE */
        } else if (type == CGN_NODE_KERNEL && kernel_ctx(&merged, s->ctx) != s->kctx) {
            pred = ruled ? CGN_ERROR_INVALID_VALUE : CGN_ERROR_DRIVER;
        } else if (src_ok && (M.g[u.src.idx].broken || !fake_rules_ok(e, si, u.src.idx))) {
            pred = CGN_ERROR_DRIVER;
        }
    }
    trace("exec_update exec %d (kind %d) node %d (kind %d) as %s set 0x%llx%s source graph %d, "
          "pred %s",
          eh.kind == H_MODEL ? eh.idx : -1, eh.kind, nh.kind == H_MODEL ? nh.idx : -1, nh.kind,
          cgn__node_type_name(type), (unsigned long long)u.set,
          u.null_update ? " (NULL update)" : "",
          u.src.kind == H_MODEL && type == CGN_NODE_CHILD_GRAPH ? u.src.idx : -1, sname(pred));
    fault_begin(type == CGN_NODE_KERNEL && u.mismatch);
    cgn_status st = call_update(type, 1, exec_h(eh), node_h(nh), &u);
    fault_end();
    if (!check_status("exec update", st, pred) || noop)
        return;
    if (type == CGN_NODE_HOST && (u.set & CGN_HOST_CALLBACK_SET_FN)) {
        merged.pid = merged.psize > 0 ? ++M.next_pid : 0;
        if (merged.psize == 0)
            merged.has_payload = 0;
    }
    s->d = merged;
    if (type == CGN_NODE_KERNEL)
        s->kctx = kernel_ctx(&merged, s->ctx);
    if (owners_staged(type, u.set)) {
        int next = att_next(s->att, &merged);
        if (next != s->att) {
            shadow_install(eh.idx, s, next);
            s->xl = next > 0; /* a new attachment of cgn's, no user object */
        }
    }
    if (type == CGN_NODE_CHILD_GRAPH && (u.set & CGN_CHILD_GRAPH_SET_GRAPH)) {
        drop_held(eh.idx, si);
        int at = si + 1;
        retake(eh.idx, &at, u.src.idx);
    }
}

static void op_exec_refresh(rd *r) {
    href eh = pick_exec(r);
    uint8_t b = u8(r);
    href gh;
    if (eh.kind == H_MODEL && b < 200) {
        gh.kind = H_MODEL;
        gh.idx = M.e[eh.idx]->source;
    } else {
        gh = pick_graph(r);
    }
    int pred = lookup_status(eh, eh.kind == H_MODEL ? M.e[eh.idx]->state : 0);
    if (pred == CGN_OK)
        pred = lookup_status(gh, gh.kind == H_MODEL ? M.g[gh.idx].state : 0);
    mexec *e = pred == CGN_OK ? M.e[eh.idx] : NULL;
    if (pred == CGN_OK && gh.idx != e->source)
        pred = CGN_ERROR_INVALID_ARGUMENT;
    if (pred == CGN_OK && !same_structure(e, -1, gh.idx))
        pred = CGN_ERROR_INVALID_VALUE;
    /* A top-level node destroyed and another of the same type added in its place keeps the
     * shape, but the driver pairs the executable's nodes with the ones it was instantiated
     * from: cgn refuses before the driver (cgn.h: nodes added or destroyed since the
     * instantiation). */
    for (int i = 0; pred == CGN_OK && i < e->nsh; i++)
        if (e->sh[i].top && e->sh[i].paired != M.g[gh.idx].nodes[pos_of_top(e, i)])
            pred = CGN_ERROR_INVALID_VALUE;
    if (pred == CGN_OK && !preflight_ok(e, gh.idx))
        pred = CGN_ERROR_INVALID_VALUE;
    if (pred == CGN_OK && (M.g[gh.idx].broken || !fake_rules_ok(e, -1, gh.idx)))
        pred = CGN_ERROR_DRIVER;
    trace("exec_update_from_graph exec %d (kind %d) graph %d (kind %d) pred %s",
          eh.kind == H_MODEL ? eh.idx : -1, eh.kind, gh.kind == H_MODEL ? gh.idx : -1, gh.kind,
          sname(pred));
    fault_begin(0);
    cgn_status st = cgn_exec_update_from_graph(exec_h(eh), graph_h(gh));
    fault_end();
    if (!check_status("cgn_exec_update_from_graph", st, pred))
        return;
    int enabled[MAXN], paired[MAXN];
    for (int i = 0; i < e->nsh; i++) {
        enabled[i] = e->sh[i].enabled;
        paired[i] = e->sh[i].paired;
        shadow_install(eh.idx, &e->sh[i], 0);
    }
    int old = e->nsh;
    drop_held(eh.idx, -1);
    e->nsh = 0;
    fill_shadows(e, gh.idx, -1, 1);
    if (e->nsh != old)
        FAIL("harness: refresh changed the number of nodes");
    /* The driver keeps its top-level nodes (their pairing and enabled state) and takes fresh
     * clones of the child graphs. */
    for (int i = 0; i < e->nsh; i++)
        if (e->sh[i].top) {
            e->sh[i].enabled = enabled[i];
            e->sh[i].paired = paired[i];
        }
}

static void op_enable(rd *r) {
    href eh = pick_exec(r);
    href nh = pick_node(r);
    uint8_t b = u8(r);
    if (eh.kind == H_MODEL && (b & 0x80) && M.e[eh.idx]->nsh > 0) {
        nh.kind = H_MODEL;
        nh.idx = M.e[eh.idx]->sh[b % M.e[eh.idx]->nsh].node;
    }
    if (eh.kind == H_MODEL && (b & 0xc0) == 0xc0) { /* a node the driver can enable */
        const mexec *e = M.e[eh.idx];
        int can[MAXN], nc = 0;
        for (int i = 0; i < e->nsh; i++)
            if (addressable(&e->sh[i]) &&
                (e->sh[i].type == CGN_NODE_KERNEL || e->sh[i].type == CGN_NODE_MEMSET ||
                 e->sh[i].type == CGN_NODE_MEMCPY_3D))
                can[nc++] = e->sh[i].node;
        if (nc > 0) {
            nh.kind = H_MODEL;
            nh.idx = can[(b >> 2) % nc];
        }
    }
    int get = b & 1, on = (b >> 1) & 1, null_out = (b & 0x7c) == 0x7c;
    int si = -1;
    int pred = get && null_out ? CGN_ERROR_INVALID_ARGUMENT : exec_node_pred(eh, nh, &si);
    mshadow *s = si >= 0 ? &M.e[eh.idx]->sh[si] : NULL;
    if (pred == CGN_OK && s->type != CGN_NODE_KERNEL && s->type != CGN_NODE_MEMSET &&
        s->type != CGN_NODE_MEMCPY_3D)
        pred = CGN_ERROR_NOT_SUPPORTED;
    if (pred == CGN_OK && !addressable(s))
        pred = CGN_ERROR_DRIVER;
    trace("%s exec %d node %d on %d pred %s", get ? "get_enabled" : "set_enabled",
          eh.kind == H_MODEL ? eh.idx : -1, nh.kind == H_MODEL ? nh.idx : -1, on, sname(pred));
    int got = -1;
    fault_begin(0);
    cgn_status st = get ? cgn_exec_node_get_enabled(exec_h(eh), node_h(nh), null_out ? NULL : &got)
                        : cgn_exec_node_set_enabled(exec_h(eh), node_h(nh), on);
    fault_end();
    if (!check_status(get ? "cgn_exec_node_get_enabled" : "cgn_exec_node_set_enabled", st, pred))
        return;
    if (get && got != s->enabled)
        FAIL("cgn_exec_node_get_enabled says %d; the model says %d", got, s->enabled);
    if (!get)
        s->enabled = on;
}

static void op_launch(rd *r) {
    href eh = pick_exec(r);
    uint8_t b = u8(r);
    M.host_release = -1;
    if (b & 1) { /* a host node with user_data 2 (if the launch runs one) releases this owner */
        int held[MAXO], nh = 0;
        for (int i = 0; i < M.no; i++)
            if (M.o[i].refs > 0)
                held[nh++] = i;
        if (nh > 0)
            M.host_release = held[(b >> 1) % nh];
    }
    int pred = lookup_status(eh, eh.kind == H_MODEL ? M.e[eh.idx]->state : 0);
    if (pred == CGN_OK && x_launch_blocked(eh.idx))
        pred = CGN_ERROR_DRIVER; /* its allocations of an earlier launch are not freed */
    trace("launch exec %d (kind %d) pred %s", eh.kind == H_MODEL ? eh.idx : -1, eh.kind,
          sname(pred));
    int was_idle = eh.kind == H_MODEL && !exec_inflight(eh.idx);
    fault_begin(0);
    cgn_status st = cgn_exec_launch(exec_h(eh), NULL);
    fault_end();
    M.host_release = -1;
    int fired = M.fired;
    if (!check_status("cgn_exec_launch", st, pred))
        return;
    mexec *e = M.e[eh.idx];
    x_launch_ran(eh.idx);
    e->launches++;
    int xl = 0;
    for (int i = 0; i < e->nsh; i++)
        xl |= e->sh[i].xl;
    e->last_fenced = xl && !fired && !e->raw_exposed && e->ctx >= 0;
    if (M.hold || M.nfifo > 0) {
        if (M.nfifo >= MAXFIFO)
            FAIL("harness: out of launch slots");
        M.fifo[M.nfifo++] = (mlaunch){eh.idx, e->launches};
    }
    /* A fence is recorded at this launch for every version retired before it: once it completes,
     * a collect releases them (see the header). */
    if (was_idle && !fired && !e->raw_exposed)
        for (int i = 0; i < M.npend; i++)
            if (M.pend[i].exec == eh.idx && M.pend[i].kind == PEND_RET &&
                M.pend[i].hi < e->launches)
                M.pend[i].certain = 1;
}

static void complete(size_t k) {
    size_t want = k < (size_t)M.nfifo ? k : (size_t)M.nfifo;
    size_t got = k == SIZE_MAX ? cgn_fake_complete_pending() : cgn_fake_complete_launches(k);
    if (got != want)
        FAIL("the fake completed %zu launches; the model has %zu to complete", got, want);
    memmove(M.fifo, M.fifo + want, (size_t)(M.nfifo - (int)want) * sizeof *M.fifo);
    M.nfifo -= (int)want;
}

static void op_complete(rd *r) {
    uint8_t b = u8(r);
    trace("complete %s", (b & 1) ? "all" : "some");
    complete((b & 1) ? SIZE_MAX : (size_t)(b >> 1) % 4);
}

static void op_hold(rd *r) {
    M.hold = u8(r) & 1;
    trace("hold_completion %d", M.hold);
    cgn_fake_hold_completion(M.hold);
}

static void hier_release(int root) {
    /* the last executable of a destroyed hierarchy: the raw graph goes */
    mgraph *g = &M.g[root];
    g->hier_held = 0;
    for (int i = 0; i < M.nn; i++)
        if (M.n[i].state == ST_ZOMBIE && M.g[M.n[i].graph].root == root)
            M.n[i].state = ST_STALE;
}

static void op_exec_destroy(rd *r) {
    href eh = pick_exec(r);
    int pred = lookup_status(eh, eh.kind == H_MODEL ? M.e[eh.idx]->state : 0);
    /* Whether cgn_exec_destroy may wait for the context (cgn__exec_drain_context): it holds
     * something only cgn holds (a version set at executable level, or a retired one cgn may
     * still have) and a launch cgn cannot rule out may be in flight (the raw handle was taken,
     * or a launch it has not seen complete). It must wait when the raw handle was taken and it
     * surely holds such a version. The fake's cuCtxSynchronize completes every launch in
     * flight; with no context current and none recorded at instantiation it fails. An
     * executable whose last launch was fenced never waits. */
    int may_drain = 0, must_drain = 0;
    if (pred == CGN_OK) {
        const mexec *e = M.e[eh.idx];
        int xl = 0;
        for (int i = 0; i < e->nsh; i++)
            xl |= e->sh[i].xl;
        may_drain = (xl || e->retired_any) && (e->raw_exposed || e->launches > 0);
        /* cgn never waits for launches it fenced (the graveyard covers them) */
        if (!e->raw_exposed && e->last_fenced)
            may_drain = 0;
        must_drain = e->raw_exposed && (xl || e->retired_raw);
        if (may_drain && e->ctx < 0 && M.ctx < 0)
            pred = must_drain ? CGN_ERROR_DRIVER : PRED_ANY;
    }
    trace("exec_destroy exec %d (kind %d) pred %s%s", eh.kind == H_MODEL ? eh.idx : -1, eh.kind,
          sname(pred), must_drain ? " (waits for the context)" : may_drain ? " (may wait)" : "");
    fault_begin(0);
    cgn_status st = cgn_exec_destroy(exec_h(eh));
    fault_end();
    /* A wait completes the fake's launches even when the destroy then fails. */
    size_t in_flight = cgn_fake_in_flight(NULL);
    if (in_flight != (size_t)M.nfifo) {
        if (in_flight != 0 || !may_drain)
            FAIL("cgn_exec_destroy left %zu launches in flight; the model has %d%s", in_flight,
                 M.nfifo, may_drain ? "" : " (and no wait for the context)");
        trace("    waited for the context: %d launches completed", M.nfifo);
        M.nfifo = 0;
    }
    if (st == CGN_OK && must_drain && !M.fired && M.nfifo != 0)
        FAIL("cgn_exec_destroy of an executable whose raw handle was taken, holding versions "
             "only cgn holds, returned with %d launches in flight", M.nfifo);
    if (!check_status("cgn_exec_destroy", st, pred))
        return;
    mexec *e = M.e[eh.idx];
    e->state = ST_STALE;
    x_exec_gone(eh.idx);
    /* Everything the executable held is needed while a launch that may read it is in flight
     * (CUDA's references until the last launch completes; cgn's own in the graveyard, or after
     * the wait), and released once they have completed. */
    for (int i = 0; i < e->nsh; i++)
        pend_add(att_mask(e->sh[i].att), eh.idx, PEND_DROP, e->sh[i].installed_at, e->launches,
                 1);
    for (int i = 0; i < e->nheld; i++)
        pend_add(att_mask(e->held_att[i]), eh.idx, PEND_DROP, e->held_since[i], e->launches, 1);
    for (int i = 0; i < M.npend; i++)
        if (M.pend[i].exec == eh.idx && M.pend[i].kind != PEND_DROP) {
            M.pend[i].kind = PEND_DROP;
            M.pend[i].certain = 1;
        }
    e->nsh = 0;
    e->nheld = 0;
    mgraph *root = &M.g[e->root];
    root->hier_execs--;
    if (root->destroyed && root->hier_execs == 0) {
        /* The raw graph goes now; an injected cuGraphDestroy failure (which cgn cannot report)
         * keeps it, and what it holds, until the cleanup destroys it. */
        if (fired_in(CGN_FAULT_cuGraphDestroy))
            M.uncertain |= root->hier_held;
        hier_release(e->root);
    }
}

static void op_exec_raw(rd *r) {
    href eh = pick_exec(r);
    int pred = lookup_status(eh, eh.kind == H_MODEL ? M.e[eh.idx]->state : 0);
    trace("exec_raw exec %d (kind %d) pred %s", eh.kind == H_MODEL ? eh.idx : -1, eh.kind,
          sname(pred));
    CUgraphExec raw = NULL;
    fault_begin(0);
    cgn_status st = cgn_exec_raw(exec_h(eh), &raw);
    fault_end();
    if (!check_status("cgn_exec_raw", st, pred))
        return;
    mexec *e = M.e[eh.idx];
    if (raw != e->raw)
        FAIL("cgn_exec_raw gave another raw executable");
    e->raw_exposed = 1;
    /* Versions retired before: kept from now on if cgn still had them, but it may have
     * released them already. */
    for (int i = 0; i < M.npend; i++)
        if (M.pend[i].exec == eh.idx && M.pend[i].kind == PEND_RET)
            M.pend[i].certain = 0;
}

/* ---- node types of the last session: memcpy_3d, mem_alloc, mem_free, batch_mem_op,
 * ext_sem_signal, ext_sem_wait, conditional ---------------------------------------------------- */

/* Fixtures of their own (made again for each input: cgn_fake_reset frees them): host memory
 * for memcpy_3d operands, two fake CUDA arrays, two fake external semaphores. */
static unsigned char hostbuf[HOSTBUF];
static CUarray farrays[2];
static const size_t farr_dims[2][3] = {{64, 4, 2}, {32, 1, 1}};
static CUexternalSemaphore fsems[2];
/* Every address a memory allocation node got this input (the fake accepts any as a free). */
static CUdeviceptr allocs_seen[MAXN];
static int nallocs_seen;
/* Graph allocations a launch made and no launch freed yet (the fake's list): the executable
 * that made each, -1 once it was destroyed. */
static struct {
    CUdeviceptr dptr;
    int exec;
} unfreed[4 * MAXN];
static int nunfreed;

#define BOGUS_ARRAY ((CUarray)(uintptr_t)0xa77a00)
#define BOGUS_SEM ((CUexternalSemaphore)(uintptr_t)0x5e5e00)
#define UNMAPPED ((CUdeviceptr)0x1000) /* neither memory the driver knows nor host memory */

static void x_fixtures(void) {
    for (int i = 0; i < 2; i++) {
        farrays[i] = cgn_fake_array_create(farr_dims[i][0], farr_dims[i][1], farr_dims[i][2]);
        fsems[i] = cgn_fake_ext_sem_create();
        if (farrays[i] == NULL || fsems[i] == NULL)
            abort();
    }
    nallocs_seen = 0;
    nunfreed = 0;
}

static int x_type(int type) {
    return type >= CGN_NODE_MEMCPY_3D && type < CGN_NODE_TYPE_COUNT_;
}
static int x_updatable(int type) {
    return type == CGN_NODE_MEMCPY_3D || type == CGN_NODE_BATCH_MEM_OP ||
           type == CGN_NODE_EXT_SEM_SIGNAL || type == CGN_NODE_EXT_SEM_WAIT;
}
static int x_mem(int type) {
    return type == CGN_NODE_MEM_ALLOC || type == CGN_NODE_MEM_FREE;
}

static CUexternalSemaphore fsem_of(int i) {
    return i == 0 ? NULL : i <= 2 ? fsems[i - 1] : BOGUS_SEM;
}

/* A memory allocation or free node among graph g's own nodes (cgn__graph_mem_node). */
static int x_graph_mem(int g) {
    for (int i = 0; i < M.g[g].nnodes; i++)
        if (x_mem(M.n[M.g[g].nodes[i]].type))
            return 1;
    return 0;
}
/* A conditional node in g's tree (cgn__graph_conditional_node). */
static int x_graph_cond(int g) {
    for (int i = 0; i < M.g[g].nnodes; i++) {
        const mnode *n = &M.n[M.g[g].nodes[i]];
        if (n->type == CGN_NODE_CONDITIONAL)
            return 1;
        if (n->embedded >= 0 && x_graph_cond(n->embedded))
            return 1;
    }
    return 0;
}
/* A graph made by cloning: embedded (at any depth) in a child-graph node (cgn__cloned_ancestor). */
static int x_cloned(int g) {
    for (; g >= 0 && M.g[g].owner_node >= 0; g = M.n[M.g[g].owner_node].graph)
        if (M.n[M.g[g].owner_node].type == CGN_NODE_CHILD_GRAPH)
            return 1;
    return 0;
}

/* ---- memcpy_3d --------------------------------------------------------------------------- */

static const size_t c3_ext[8] = {1, 2, 3, 4, 16, 0, SIZE_MAX, (size_t)1 << 62};
static const size_t c3_off[8] = {0, 1, 2, 0, 3, 17, SIZE_MAX - 1, (size_t)1 << 61};
static const size_t c3_pitch[8] = {64, 128, 16, 0, 1, 256, SIZE_MAX, (size_t)1 << 40};
static const size_t c3_rows[8] = {4, 8, 2, 0, 1, 16, SIZE_MAX, (size_t)1 << 40};

/* The memory type cgn detects for an address (cgn__detect_memory_type): DEVICE for the arena
 * (marked device memory) and, at definition level, an allocation of a memory allocation node of
 * the node's root graph; HOST for readable host memory; 0: refused (CGN_ERROR_INVALID_VALUE). */
static unsigned x_memtype(CUdeviceptr a, int at_exec, int g) {
    if (a >= (CUdeviceptr)(uintptr_t)arena && a < (CUdeviceptr)(uintptr_t)arena + ARENA_SIZE)
        return CU_MEMORYTYPE_DEVICE;
    if (a >= (CUdeviceptr)(uintptr_t)hostbuf && a < (CUdeviceptr)(uintptr_t)hostbuf + HOSTBUF)
        return CU_MEMORYTYPE_HOST;
    if (!at_exec && g >= 0) {
        int root = M.g[g].root;
        for (int i = 0; i < M.g[root].nnodes; i++) {
            const mnode *n = &M.n[M.g[root].nodes[i]];
            if (n->type == CGN_NODE_MEM_ALLOC && a >= n->d.dptr && a - n->d.dptr < n->d.bytesize)
                return CU_MEMORYTYPE_DEVICE;
        }
    }
    return 0;
}

static int x_in_graph_alloc(CUdeviceptr a) {
    for (int i = 0; i < nallocs_seen; i++)
        if (a >= allocs_seen[i] && a - allocs_seen[i] < ((size_t)1 << 20))
            return 1;
    return 0;
}

static CUdeviceptr gen_c3_addr(uint8_t b) {
    switch (b & 7) {
    case 0:
    case 5:
        return 0;
    case 1:
    case 2:
    case 6:
        return (CUdeviceptr)(uintptr_t)(arena + (size_t)(b >> 3) * 128);
    case 3:
        return (CUdeviceptr)(uintptr_t)(hostbuf + (size_t)(b >> 3) * 128);
    case 4:
        if (nallocs_seen > 0)
            return allocs_seen[(b >> 3) % nallocs_seen] + ((b & 0x80) ? 64 : 0);
        return (CUdeviceptr)(uintptr_t)(arena + 64);
    default:
        return UNMAPPED;
    }
}
static CUarray gen_c3_array(uint8_t b) {
    return (b & 3) == 0 ? NULL : (b & 3) == 3 ? ((b & 4) ? BOGUS_ARRAY : NULL) : farrays[(b & 3) - 1];
}

/* One side of a fresh memcpy_3d desc: an address or an array (sometimes both, or neither). */
static void gen_c3_side(rd *r, CUdeviceptr *addr, CUarray *arr, int *owner, int *aowner) {
    uint8_t b = u8(r);
    if (b & 0x40) {
        *addr = 0;
        *arr = gen_c3_array(b);
        if (*arr == NULL && (b & 0x80))
            *arr = farrays[0];
    } else {
        *addr = gen_c3_addr(u8(r));
        *arr = (b & 0x3c) == 0x3c ? farrays[1] : NULL; /* both: refused */
    }
    *owner = pick_owner(r);
    *aowner = pick_owner(r);
    if (*addr == 0)
        *owner = -1; /* keep some owners with their operand */
    if (*arr == NULL)
        *aowner = (b & 0x20) ? *aowner : -1;
}

static void gen_c3_extents(rd *r, mdesc *d, int hostile) {
    uint8_t a = u8(r), b = u8(r), c = u8(r);
    if (!hostile) {
        d->c3.w = 1 + (a & 15);
        d->c3.h = 1 + ((a >> 4) & 3);
        d->c3.depth = 1 + ((a >> 6) & 1);
        d->c3.dx = b & 7;
        d->c3.dy = (b >> 3) & 1;
        d->c3.dz = (b >> 4) & 1;
        d->c3.sx = c & 7;
        d->c3.sy = (c >> 3) & 1;
        d->c3.sz = (c >> 4) & 1;
        d->c3.dp = d->c3.sp = 64;
        d->c3.dh = d->c3.sh = 4;
        if (b & 0x80)
            d->c3.dp = 8; /* too small for wide rows */
        if (c & 0x80)
            d->c3.sh = 1; /* too few rows for slices */
        return;
    }
    d->c3.w = c3_ext[a & 7];
    d->c3.h = c3_ext[(a >> 3) & 7];
    d->c3.depth = c3_ext[(a >> 6) | ((b & 1) << 2)];
    d->c3.dx = c3_off[(b >> 1) & 7];
    d->c3.dy = c3_off[(b >> 4) & 7];
    d->c3.dz = c3_off[c & 7];
    d->c3.sx = c3_off[(c >> 3) & 7];
    d->c3.sy = (c & 0x40) ? c3_off[b & 7] : 0;
    d->c3.sz = (c & 0x80) ? 1 : 0;
    uint8_t e = u8(r);
    d->c3.dp = c3_pitch[e & 7];
    d->c3.sp = c3_pitch[(e >> 3) & 7];
    d->c3.dh = c3_rows[(e >> 5) & 7];
    d->c3.sh = c3_rows[(e + 3) & 7];
}

static void gen_c3(rd *r, mdesc *d) {
    gen_c3_side(r, &d->c3.dst, &d->c3.darr, &d->c3.downer, &d->c3.daowner);
    gen_c3_side(r, &d->c3.src, &d->c3.sarr, &d->c3.sowner, &d->c3.saowner);
    gen_c3_extents(r, d, (u8(r) & 0xe0) == 0xe0);
}

/* spec/memcpy_3d.yaml's rules, in order. */
static int c3_rules(const mdesc *m) {
    size_t w = m->c3.w, h = m->c3.h, dd = m->c3.depth;
    if (w == 0 || h == 0 || dd == 0)
        return CGN_ERROR_INVALID_VALUE;
    for (int side = 0; side < 2; side++) {
        CUdeviceptr a = side ? m->c3.src : m->c3.dst;
        CUarray arr = side ? m->c3.sarr : m->c3.darr;
        size_t x = side ? m->c3.sx : m->c3.dx, y = side ? m->c3.sy : m->c3.dy;
        size_t z = side ? m->c3.sz : m->c3.dz, p = side ? m->c3.sp : m->c3.dp;
        size_t hh = side ? m->c3.sh : m->c3.dh;
        if ((a == 0) == (arr == NULL))
            return CGN_ERROR_INVALID_VALUE;
        if (x > SIZE_MAX - w || y > SIZE_MAX - h || z > SIZE_MAX - dd)
            return CGN_ERROR_OUT_OF_RANGE;
        if (a != 0 && (h > 1 || dd > 1 || y > 0 || z > 0) && p < x + w)
            return CGN_ERROR_INVALID_VALUE;
        if (a != 0 && (dd > 1 || z > 0) && hh < y + h)
            return CGN_ERROR_INVALID_VALUE;
        if (a != 0 && z + dd > 1 && z + dd - 1 > (SIZE_MAX - (y + h - 1)) / hh)
            return CGN_ERROR_OUT_OF_RANGE;
        /* the last row's index, as the spec: the row count (one more) can wrap to 0 */
        if (a != 0 && (z + dd - 1) * hh + y + h - 1 > 0 &&
            (z + dd - 1) * hh + y + h - 1 > (SIZE_MAX - (x + w)) / p)
            return CGN_ERROR_OUT_OF_RANGE;
    }
    return CGN_OK;
}

/* Whether the fake's copy (at launch, on the host) stays inside the arena or hostbuf; copies
 * touching a graph allocation are skipped by the fake. Only asked of descs that pass c3_rules. */
static int c3_safe(const mdesc *m) {
    for (int side = 0; side < 2; side++) {
        CUdeviceptr a = side ? m->c3.src : m->c3.dst;
        if (a != 0 && x_in_graph_alloc(a))
            return 1;
    }
    for (int side = 0; side < 2; side++) {
        CUdeviceptr a = side ? m->c3.src : m->c3.dst;
        if (a == 0 || a == UNMAPPED)
            continue;
        size_t x = side ? m->c3.sx : m->c3.dx, y = side ? m->c3.sy : m->c3.dy;
        size_t z = side ? m->c3.sz : m->c3.dz, p = side ? m->c3.sp : m->c3.dp;
        size_t hh = side ? m->c3.sh : m->c3.dh;
        size_t rows, end;
        if (__builtin_mul_overflow(z + m->c3.depth - 1, hh, &rows) ||
            __builtin_add_overflow(rows, y + m->c3.h - 1, &rows) ||
            __builtin_mul_overflow(rows, p, &end) || __builtin_add_overflow(end, x + m->c3.w, &end))
            return 0;
        uintptr_t base = (uintptr_t)a;
        int in_arena = base >= (uintptr_t)arena && base < (uintptr_t)arena + ARENA_SIZE;
        size_t room = in_arena ? (uintptr_t)arena + ARENA_SAFE - base
                               : (uintptr_t)hostbuf + HOSTBUF - base;
        if (in_arena && base - (uintptr_t)arena >= ARENA_SAFE)
            return 0;
        if (end > room)
            return 0;
    }
    return 1;
}

static void c3_clamp(mdesc *m) {
    m->c3.w = m->c3.h = m->c3.depth = 1;
    m->c3.dx = m->c3.dy = m->c3.dz = m->c3.sx = m->c3.sy = m->c3.sz = 0;
}

static int c3_array_ok(CUarray arr, int which, size_t x, size_t y, size_t z, const mdesc *m) {
    if (arr == NULL)
        return 1;
    int i = arr == farrays[0] ? 0 : arr == farrays[1] ? 1 : -1;
    if (i < 0)
        return 0;
    const size_t *dim = farr_dims[i];
    (void)which;
    return x <= dim[0] && m->c3.w <= dim[0] - x && y <= dim[1] && m->c3.h <= dim[1] - y &&
           z <= dim[2] && m->c3.depth <= dim[2] - z;
}

/* What the fake's build_memcpy refuses of a copy that passed cgn's checks. */
static int c3_fake_ok(const mdesc *m) {
    return c3_array_ok(m->c3.darr, 0, m->c3.dx, m->c3.dy, m->c3.dz, m) &&
           c3_array_ok(m->c3.sarr, 1, m->c3.sx, m->c3.sy, m->c3.sz, m);
}

/* ---- batch memory operations ------------------------------------------------------------- */

static const CUstreamBatchMemOpType op_types[8] = {
    CU_STREAM_MEM_OP_WRITE_VALUE_32, CU_STREAM_MEM_OP_WRITE_VALUE_64,
    CU_STREAM_MEM_OP_WAIT_VALUE_32,  CU_STREAM_MEM_OP_WAIT_VALUE_64,
    CU_STREAM_MEM_OP_WRITE_VALUE_32, CU_STREAM_MEM_OP_FLUSH_REMOTE_WRITES,
    CU_STREAM_MEM_OP_BARRIER,        (CUstreamBatchMemOpType)99};

/* One operation, normalised as cgn stores it (unused bytes zero). *bad: cgn refuses it. */
static void gen_op(rd *r, CUstreamBatchMemOpParams *op, int hostile, int *bad) {
    memset(op, 0, sizeof *op);
    uint8_t t = u8(r), a = u8(r);
    CUstreamBatchMemOpType type = op_types[hostile ? (t & 7) : (t % 7)];
    op->operation = type;
    int bits = type == CU_STREAM_MEM_OP_WRITE_VALUE_32 || type == CU_STREAM_MEM_OP_WAIT_VALUE_32
                   ? 32
               : type == CU_STREAM_MEM_OP_WRITE_VALUE_64 || type == CU_STREAM_MEM_OP_WAIT_VALUE_64
                   ? 64
                   : 0;
    int wait = type == CU_STREAM_MEM_OP_WAIT_VALUE_32 || type == CU_STREAM_MEM_OP_WAIT_VALUE_64;
    if (type == (CUstreamBatchMemOpType)99) {
        *bad = 1;
        return;
    }
    if (bits) {
        CUdeviceptr addr = (CUdeviceptr)(uintptr_t)(arena + 4096 + (size_t)(a & 0x3f) * 8);
        if (hostile && (a & 0xc0) == 0xc0)
            addr = 0;
        else if (hostile && (a & 0xc0) == 0x80)
            addr += 2; /* misaligned */
        op->writeValue.address = addr;
        if (bits == 32)
            op->writeValue.value = (cuuint32_t)(t * 0x01010101u);
        else
            op->writeValue.value64 = (cuuint64_t)t * 0x0101010101010101ull;
        unsigned flags = wait ? (unsigned)((t >> 3) & 3) | ((t & 0x20) ? CU_STREAM_WAIT_VALUE_FLUSH : 0)
                              : 0;
        if (hostile && (a & 0xc0) == 0x40)
            flags = wait ? 7u : 1u;
        op->writeValue.flags = flags;
        if (addr == 0 || addr % (CUdeviceptr)(bits / 8) != 0 ||
            (wait && (flags & ~(unsigned)CU_STREAM_WAIT_VALUE_FLUSH) > CU_STREAM_WAIT_VALUE_NOR) ||
            (!wait && flags != 0))
            *bad = 1;
    } else if (type == CU_STREAM_MEM_OP_FLUSH_REMOTE_WRITES) {
        op->flushRemoteWrites.flags = hostile && (a & 0xc0) == 0x40 ? 1u : 0u;
        *bad |= op->flushRemoteWrites.flags != 0;
    } else {
        unsigned f = (a & 1) ? CU_STREAM_MEMORY_BARRIER_TYPE_GPU : CU_STREAM_MEMORY_BARRIER_TYPE_SYS;
        if (hostile && (a & 0xc0) == 0x40)
            f = 5;
        op->memoryBarrier.flags = f;
        *bad |= f != CU_STREAM_MEMORY_BARRIER_TYPE_SYS && f != CU_STREAM_MEMORY_BARRIER_TYPE_GPU;
    }
}

/* An array field (ops, or sems with sems_params): how the call passes it. */
typedef struct xarr {
    int null_a, null_b; /* NULL array(s) */
    uint32_t count;     /* what the call says (may exceed what the model holds) */
    int bad;            /* an element cgn refuses (INVALID_VALUE) */
    int null_handle;    /* sems: a NULL semaphore (INVALID_VALUE) */
} xarr;

/* The status cgn__check_arrays (and the element checks) give. */
static int xarr_pred(const xarr *x, uint32_t max) {
    if (x->null_a || x->null_b)
        return CGN_ERROR_INVALID_ARGUMENT;
    if (x->count == 0)
        return CGN_ERROR_INVALID_VALUE;
    if (x->count > max)
        return CGN_ERROR_OUT_OF_RANGE;
    if (x->bad || x->null_handle)
        return CGN_ERROR_INVALID_VALUE;
    return CGN_OK;
}

static void gen_count(rd *r, xarr *x, uint32_t *n, int model_max, int *hostile) {
    uint8_t c = u8(r);
    memset(x, 0, sizeof *x);
    *hostile = (c & 0xc0) == 0xc0;
    *n = 1 + (uint32_t)(c % (uint32_t)model_max);
    x->count = *n;
    if (*hostile) {
        switch ((c >> 3) & 7) {
        case 0:
            x->count = 0;
            *n = 0;
            break;
        case 1:
            x->null_a = 1;
            break;
        case 2:
            x->null_b = 1;
            break;
        case 3:
            x->count = model_max == XOPS ? CGN_MAX_MEM_OPS + 1 : CGN_MAX_EXT_SEMS + 1;
            break;
        case 4:
            x->count = UINT32_MAX;
            break;
        default:
            break; /* a hostile element below */
        }
    }
}

static void gen_batch(rd *r, mdesc *d, xarr *x) {
    int hostile;
    gen_count(r, x, &d->nops, XOPS, &hostile);
    x->null_b = 0;
    for (uint32_t i = 0; i < d->nops; i++) {
        int bad = 0;
        gen_op(r, &d->ops[i], hostile, &bad);
        x->bad |= bad;
    }
    d->opsowner = pick_owner(r);
}

static void gen_sems(rd *r, mdesc *d, xarr *x) {
    int hostile;
    gen_count(r, x, &d->nsems, XSEMS, &hostile);
    for (uint32_t i = 0; i < d->nsems; i++) {
        uint8_t b = u8(r);
        d->sem[i] = 1 + (b & 1);
        if (hostile && (b & 0x0e) == 0x0e)
            d->sem[i] = 0; /* NULL handle */
        else if (hostile && (b & 0x0e) == 0x0c)
            d->sem[i] = 3; /* a handle the driver does not know */
        d->semval[i] = (uint64_t)b * 977u + i;
        x->null_handle |= d->sem[i] == 0;
    }
    d->semsowner = pick_owner(r);
}

/* Heap arrays built from the model for one call (freed right after it, so a pointer cgn kept
 * shows under ASan). */
typedef struct xbuf {
    CUstreamBatchMemOpParams *ops;
    CUexternalSemaphore *sems;
    void *params;
} xbuf;

static void xbuf_free(xbuf *b) {
    free(b->ops);
    free(b->sems);
    free(b->params);
    memset(b, 0, sizeof *b);
}

static const CUstreamBatchMemOpParams *build_ops(const mdesc *d, const xarr *x, xbuf *b) {
    if (x->null_a)
        return NULL;
    b->ops = calloc(XOPS, sizeof *b->ops);
    memcpy(b->ops, d->ops, sizeof d->ops);
    return b->ops;
}

static void build_sems(const mdesc *d, const xarr *x, int wait, xbuf *b) {
    if (!x->null_a) {
        b->sems = calloc(XSEMS, sizeof *b->sems);
        for (uint32_t i = 0; i < d->nsems && i < XSEMS; i++)
            b->sems[i] = fsem_of(d->sem[i]);
    }
    if (!x->null_b) {
        if (wait) {
            CUDA_EXTERNAL_SEMAPHORE_WAIT_PARAMS *p = calloc(XSEMS, sizeof *p);
            for (uint32_t i = 0; i < d->nsems && i < XSEMS; i++)
                p[i].params.fence.value = d->semval[i];
            b->params = p;
        } else {
            CUDA_EXTERNAL_SEMAPHORE_SIGNAL_PARAMS *p = calloc(XSEMS, sizeof *p);
            for (uint32_t i = 0; i < d->nsems && i < XSEMS; i++)
                p[i].params.fence.value = d->semval[i];
            b->params = p;
        }
    }
}

static cgn_memcpy_3d_desc c3_desc(const mdesc *d) {
    cgn_memcpy_3d_desc c = CGN_MEMCPY_3D_DESC_INIT;
    c.dst = d->c3.dst;
    c.dst_memory_type = (CUmemorytype)7; /* ignored on input */
    c.dst_owner = owner_ptr(d->c3.downer);
    c.dst_array = d->c3.darr;
    c.dst_array_owner = owner_ptr(d->c3.daowner);
    c.dst_x_in_bytes = d->c3.dx;
    c.dst_y = d->c3.dy;
    c.dst_z = d->c3.dz;
    c.dst_pitch = d->c3.dp;
    c.dst_height = d->c3.dh;
    c.src = d->c3.src;
    c.src_memory_type = (CUmemorytype)7;
    c.src_owner = owner_ptr(d->c3.sowner);
    c.src_array = d->c3.sarr;
    c.src_array_owner = owner_ptr(d->c3.saowner);
    c.src_x_in_bytes = d->c3.sx;
    c.src_y = d->c3.sy;
    c.src_z = d->c3.sz;
    c.src_pitch = d->c3.sp;
    c.src_height = d->c3.sh;
    c.width_in_bytes = d->c3.w;
    c.height = d->c3.h;
    c.depth = d->c3.depth;
    return c;
}

/* ---- adds -------------------------------------------------------------------------------- */

static const int x_add_types[8] = {CGN_NODE_MEMCPY_3D,     CGN_NODE_MEM_ALLOC,
                                   CGN_NODE_MEM_FREE,      CGN_NODE_BATCH_MEM_OP,
                                   CGN_NODE_EXT_SEM_SIGNAL, CGN_NODE_EXT_SEM_WAIT,
                                   CGN_NODE_CONDITIONAL,   CGN_NODE_CONDITIONAL};

static void x_desc_init(mdesc *d, int type) {
    memset(d, 0, sizeof *d);
    d->type = type;
    d->dst_owner = d->kowner = d->udowner = d->evowner = -1;
    for (int i = 0; i < MAXA; i++)
        d->a.owner[i] = -1;
    d->c3.downer = d->c3.daowner = d->c3.sowner = d->c3.saowner = -1;
    d->opsowner = d->semsowner = -1;
}

static void op_x_add(rd *r) {
    uint8_t gb = u8(r);
    href gh;
    /* mostly a live graph, often a conditional body */
    if ((gb & 0xc0) == 0xc0) {
        int bodies[MAXG], nb = 0;
        for (int i = 0; i < M.ng; i++)
            if (M.g[i].state == ST_LIVE && M.g[i].owner_node >= 0 &&
                M.n[M.g[i].owner_node].type == CGN_NODE_CONDITIONAL)
                bodies[nb++] = i;
        if (nb > 0) {
            gh = (href){H_MODEL, bodies[gb % nb]};
        } else {
            r->at--;
            gh = pick_graph(r);
        }
    } else {
        r->at--;
        gh = pick_graph(r);
    }
    int type = x_add_types[u8(r) & 7];
    mdesc d;
    x_desc_init(&d, type);
    xarr x;
    memset(&x, 0, sizeof x);
    int null_desc = 0;
    uint8_t f = u8(r);
    if (f == 0xff)
        null_desc = 1;
    switch (type) {
    case CGN_NODE_MEMCPY_3D:
        gen_c3(r, &d);
        if (c3_rules(&d) == CGN_OK && !c3_safe(&d))
            c3_clamp(&d);
        break;
    case CGN_NODE_MEM_ALLOC: {
        static const size_t sizes[8] = {64, 1, 4096, 0, 1 << 20, 64, 256, 0};
        d.bytesize = sizes[f & 7];
        d.device = (f & 0x38) == 0x38 ? -1 : (f & 0x38) == 0x30 ? INT32_MIN : 0;
        break;
    }
    case CGN_NODE_MEM_FREE: {
        uint8_t b = f & 7;
        if (b < 4 && nallocs_seen > 0)
            d.dptr = allocs_seen[(f >> 3) % nallocs_seen];
        else if (b == 4)
            d.dptr = 0;
        else if (b == 5)
            d.dptr = (CUdeviceptr)(uintptr_t)arena; /* not a graph allocation */
        else if (b == 6 && nallocs_seen > 0)
            d.dptr = allocs_seen[0] + 8; /* inside one, not its start */
        else
            d.dptr = nallocs_seen > 0 ? allocs_seen[nallocs_seen - 1] : 0;
        break;
    }
    case CGN_NODE_BATCH_MEM_OP:
        gen_batch(r, &d, &x);
        break;
    case CGN_NODE_EXT_SEM_SIGNAL:
    case CGN_NODE_EXT_SEM_WAIT:
        gen_sems(r, &d, &x);
        break;
    case CGN_NODE_CONDITIONAL: {
        uint8_t b = u8(r);
        static const uint32_t ctypes[8] = {0, 1, 0, 1, 0, 2, 3, 0xffffffffu};
        static const uint32_t csizes[8] = {1, 1, 1, 1, 1, 1, 0, 2};
        d.ctype = ctypes[f & 7];
        d.csize = csizes[(f >> 3) & 7];
        d.cassign = (b & 3) == 3 ? 2 + (b >> 6) : (b & 1);
        /* a WHILE whose condition stays non-zero would loop 4096 times at every launch */
        d.cdef = d.ctype == 1 ? 0 : (b >> 2) & 1;
        break;
    }
    default:
        break;
    }
    /* dependencies: 0..2 of the graph's nodes, sometimes another graph's or a stale one */
    uint8_t db = u8(r);
    int nd = db & 3;
    if (nd == 3)
        nd = 1;
    href deps[MAXD];
    cgn_node *dh[MAXD];
    for (int i = 0; i < nd; i++) {
        uint8_t b = u8(r);
        deps[i] = pick_special(b);
        if (deps[i].kind == H_MODEL) {
            if (M.nn == 0)
                deps[i].kind = H_NULL;
            else if ((b & 0xc0) == 0xc0 || gh.kind != H_MODEL || M.g[gh.idx].nnodes == 0)
                deps[i].idx = b % M.nn;
            else
                deps[i].idx = M.g[gh.idx].nodes[b % M.g[gh.idx].nnodes];
        }
        dh[i] = node_h(deps[i]);
    }
    if (M.nn >= MAXN || (type == CGN_NODE_CONDITIONAL && M.ng >= MAXG))
        return;

    /* the model's status, in cgn's order */
    int pred = CGN_OK;
    int needs_ctx = type == CGN_NODE_MEMCPY_3D || type == CGN_NODE_BATCH_MEM_OP ||
                    type == CGN_NODE_CONDITIONAL;
    if (null_desc) {
        pred = CGN_ERROR_INVALID_ARGUMENT;
    } else {
        switch (type) {
        case CGN_NODE_MEMCPY_3D:
            pred = c3_rules(&d);
            break;
        case CGN_NODE_MEM_ALLOC:
            pred = d.bytesize == 0 || d.device < 0 ? CGN_ERROR_INVALID_VALUE : CGN_OK;
            break;
        case CGN_NODE_MEM_FREE:
            pred = d.dptr == 0 ? CGN_ERROR_INVALID_VALUE : CGN_OK;
            break;
        case CGN_NODE_BATCH_MEM_OP:
            pred = xarr_pred(&x, CGN_MAX_MEM_OPS);
            break;
        case CGN_NODE_EXT_SEM_SIGNAL:
        case CGN_NODE_EXT_SEM_WAIT:
            pred = xarr_pred(&x, CGN_MAX_EXT_SEMS);
            break;
        case CGN_NODE_CONDITIONAL:
            /* spec/conditional.yaml's rules, in order */
            pred = d.ctype > 2                                  ? CGN_ERROR_INVALID_VALUE
                   : d.csize == 0                               ? CGN_ERROR_INVALID_VALUE
                   : d.ctype == 1 && d.csize != 1               ? CGN_ERROR_INVALID_VALUE
                   : d.ctype == 0 && d.csize > 2                ? CGN_ERROR_INVALID_VALUE
                   : d.csize > CGN_MAX_COND_BODIES              ? CGN_ERROR_OUT_OF_RANGE
                   : d.ctype == 2 && M.version < 12080          ? CGN_ERROR_DRIVER_TOO_OLD
                   : d.ctype == 0 && d.csize == 2 && M.version < 12080 ? CGN_ERROR_DRIVER_TOO_OLD
                   : d.cassign > 1                              ? CGN_ERROR_INVALID_VALUE
                                                                : CGN_OK;
            /* The model knows one IF or WHILE body: a SWITCH or an IF with an else body that
             * cgn would accept is not made here (tests/unit/test_conditional.c covers them). */
            if (pred == CGN_OK && (d.ctype == 2 || d.csize != 1))
                return;
            break;
        default:
            break;
        }
    }
    if (pred == CGN_OK)
        pred = lookup_status(gh, gh.kind == H_MODEL ? M.g[gh.idx].state : 0);
    if (pred == CGN_OK && x_mem(type) && M.g[gh.idx].root != gh.idx)
        pred = CGN_ERROR_NOT_SUPPORTED; /* memory nodes in a child or body graph */
    if (pred == CGN_OK && needs_ctx && M.ctx < 0)
        pred = CGN_ERROR_NO_CONTEXT;
    for (int i = 0; pred == CGN_OK && i < nd; i++) {
        if (deps[i].kind != H_MODEL) {
            pred = CGN_ERROR_INVALID_ARGUMENT;
            break;
        }
        const mnode *dn = &M.n[deps[i].idx];
        if (dn->state == ST_STALE)
            pred = CGN_ERROR_DESTROYED;
        else if (dn->state == ST_ZOMBIE || dn->graph != gh.idx)
            pred = CGN_ERROR_INVALID_ARGUMENT;
    }
    /* staging */
    if (pred == CGN_OK && type == CGN_NODE_MEMCPY_3D) {
        if ((d.c3.dst != 0 && x_memtype(d.c3.dst, 0, gh.idx) == 0) ||
            (d.c3.src != 0 && x_memtype(d.c3.src, 0, gh.idx) == 0) ||
            d.c3.darr == BOGUS_ARRAY || d.c3.sarr == BOGUS_ARRAY) /* not mapped memory */
            pred = CGN_ERROR_INVALID_VALUE;
    }
    if (pred == CGN_OK && type == CGN_NODE_CONDITIONAL) {
        if (x_cloned(gh.idx))
            pred = CGN_ERROR_NOT_SUPPORTED;
        else if (M.version < 12030)
            pred = CGN_ERROR_DRIVER_TOO_OLD;
    }
    if (pred == CGN_OK) { /* what only the driver refuses */
        int dup = 0;
        for (int i = 0; i < nd; i++)
            for (int j = 0; j < i; j++)
                if (deps[i].idx == deps[j].idx)
                    dup = 1;
        if (dup || M.g[gh.idx].broken)
            pred = CGN_ERROR_DRIVER;
        for (int i = 0; i < nd; i++)
            if (M.n[deps[i].idx].broken)
                pred = CGN_ERROR_DRIVER;
        if (type == CGN_NODE_MEMCPY_3D && !c3_fake_ok(&d))
            pred = CGN_ERROR_DRIVER;
        if ((type == CGN_NODE_EXT_SEM_SIGNAL || type == CGN_NODE_EXT_SEM_WAIT))
            for (uint32_t i = 0; i < d.nsems; i++)
                if (d.sem[i] == 3)
                    pred = CGN_ERROR_DRIVER;
        if (type == CGN_NODE_MEM_FREE) {
            int known = 0;
            for (int i = 0; i < nallocs_seen; i++)
                known |= allocs_seen[i] == d.dptr;
            if (!known)
                pred = CGN_ERROR_DRIVER;
        }
    }
    trace("x_add %s to graph %d (kind %d) deps %d%s -> node %d, pred %s",
          cgn__node_type_name(type), gh.kind == H_MODEL ? gh.idx : -1, gh.kind, nd,
          null_desc ? " (NULL desc)" : "", M.nn, sname(pred));
    if (gh.kind == H_MODEL && M.g[gh.idx].broken)
        M.armed = 0;
    xbuf xb = {0};
    cgn_node *out = NULL;
    cgn_status st = CGN_OK;
    cgn_graph *g = graph_h(gh);
    cgn_node *const *dp = nd ? dh : NULL;
    fault_begin(0);
    switch (type) {
    case CGN_NODE_MEMCPY_3D: {
        cgn_memcpy_3d_desc c = c3_desc(&d);
        st = cgn_graph_add_memcpy_3d(g, dp, (size_t)nd, null_desc ? NULL : &c, &out);
        break;
    }
    case CGN_NODE_MEM_ALLOC: {
        cgn_mem_alloc_desc c = {d.bytesize, d.device, (CUdeviceptr)0x77};
        st = cgn_graph_add_mem_alloc(g, dp, (size_t)nd, null_desc ? NULL : &c, &out);
        break;
    }
    case CGN_NODE_MEM_FREE: {
        cgn_mem_free_desc c = {d.dptr};
        st = cgn_graph_add_mem_free(g, dp, (size_t)nd, null_desc ? NULL : &c, &out);
        break;
    }
    case CGN_NODE_BATCH_MEM_OP: {
        cgn_batch_mem_op_desc c = {build_ops(&d, &x, &xb), x.count, owner_ptr(d.opsowner)};
        st = cgn_graph_add_batch_mem_op(g, dp, (size_t)nd, null_desc ? NULL : &c, &out);
        break;
    }
    case CGN_NODE_EXT_SEM_SIGNAL: {
        build_sems(&d, &x, 0, &xb);
        cgn_ext_sem_signal_desc c = {xb.sems, xb.params, x.count, owner_ptr(d.semsowner)};
        st = cgn_graph_add_ext_sem_signal(g, dp, (size_t)nd, null_desc ? NULL : &c, &out);
        break;
    }
    case CGN_NODE_EXT_SEM_WAIT: {
        build_sems(&d, &x, 1, &xb);
        cgn_ext_sem_wait_desc c = {xb.sems, xb.params, x.count, owner_ptr(d.semsowner)};
        st = cgn_graph_add_ext_sem_wait(g, dp, (size_t)nd, null_desc ? NULL : &c, &out);
        break;
    }
    case CGN_NODE_CONDITIONAL: {
        cgn_conditional_desc c = {d.ctype, d.csize, (CUgraphConditionalHandle)0x99, d.cdef,
                                  d.cassign};
        st = cgn_graph_add_conditional(g, dp, (size_t)nd, null_desc ? NULL : &c, &out);
        break;
    }
    default:
        break;
    }
    fault_end();
    xbuf_free(&xb);
    if (!check_status("x_add", st, pred))
        return;
    int k = M.nn++;
    mnode *n = &M.n[k];
    memset(n, 0, sizeof *n);
    n->h = out;
    n->graph = gh.idx;
    n->state = ST_LIVE;
    n->ctx = M.ctx;
    n->type = type;
    n->embedded = -1;
    n->source = -1;
    if (type == CGN_NODE_MEMCPY_3D) {
        d.c3.dmt = d.c3.dst ? x_memtype(d.c3.dst, 0, gh.idx) : 0;
        d.c3.smt = d.c3.src ? x_memtype(d.c3.src, 0, gh.idx) : 0;
    }
    if (type == CGN_NODE_MEM_ALLOC) { /* the address the driver chose */
        cgn_mem_alloc_desc got;
        if (cgn_mem_alloc_node_get(out, &got) != CGN_OK || got.dptr == 0)
            FAIL("mem_alloc node %d: no address after the add", k);
        for (int i = 0; i < nallocs_seen; i++)
            if (allocs_seen[i] == got.dptr)
                FAIL("mem_alloc node %d got the address of an earlier allocation", k);
        d.dptr = got.dptr;
        allocs_seen[nallocs_seen++] = got.dptr;
    }
    if (type == CGN_NODE_CONDITIONAL) {
        cgn_conditional_desc got;
        if (cgn_conditional_node_get(out, &got) != CGN_OK || got.handle == 0 ||
            got.handle == (CUgraphConditionalHandle)0x99)
            FAIL("conditional node %d: no handle of cgn's after the add", k);
        d.chandle = got.handle;
    }
    n->d = d;
    n->att = att_next(0, &d);
    n->ndeps = nd;
    for (int i = 0; i < nd; i++)
        n->deps[i] = deps[i].idx;
    if (!exposed_root(M.g[gh.idx].root))
        n->raw = cgn__node_record(out)->raw;
    else if (cgn_node_raw(out, &n->raw) != CGN_OK)
        FAIL("cgn_node_raw of a new node failed");
    M.g[gh.idx].nodes[M.g[gh.idx].nnodes++] = k;
    if (type == CGN_NODE_CONDITIONAL) { /* the body: a graph of the node's hierarchy */
        cgn_graph *body = NULL;
        if (cgn_conditional_node_body(out, 0, &body) != CGN_OK || body == NULL)
            FAIL("conditional node %d: cgn_conditional_node_body(0) failed", k);
        int bg = new_graph_slot();
        M.g[bg].h = body;
        M.g[bg].state = ST_LIVE;
        M.g[bg].root = M.g[gh.idx].root;
        M.g[bg].owner_node = k;
        if (!exposed_root(M.g[bg].root))
            M.g[bg].raw = cgn__graph_record(body)->raw;
        else if (cgn_graph_raw(body, &M.g[bg].raw) != CGN_OK)
            FAIL("conditional node %d: cgn_graph_raw of its body failed", k);
        if (M.g[bg].raw == NULL)
            FAIL("conditional node %d: its body has no raw graph", k);
        n->embedded = bg;
    }
}

/* cgn_conditional_node_body with any node and index; cgn_node_check_updatable on any node. */
static void op_x_query(rd *r) {
    href nh = pick_node(r);
    uint8_t b = u8(r);
    const mnode *n = nh.kind == H_MODEL ? &M.n[nh.idx] : NULL;
    if (b & 1) {
        int pred = check_node_pred(nh, CGN_NODE_TYPE_COUNT_);
        if (pred == CGN_OK) {
            if (x_updatable(n->type) || n->type == CGN_NODE_MEMSET || n->type == CGN_NODE_KERNEL ||
                n->type == CGN_NODE_HOST || n->type == CGN_NODE_EVENT_RECORD ||
                n->type == CGN_NODE_CHILD_GRAPH)
                pred = CGN_OK;
            else if (x_mem(n->type) || n->type == CGN_NODE_CONDITIONAL)
                pred = CGN_ERROR_NOT_SUPPORTED;
            else
                pred = PRED_ANY;
        }
        trace("check_updatable node %d (kind %d) pred %s", n ? nh.idx : -1, nh.kind, sname(pred));
        fault_begin(0);
        cgn_status st = cgn_node_check_updatable(node_h(nh));
        fault_end();
        check_status("cgn_node_check_updatable", st, pred);
        return;
    }
    uint32_t index = (b & 0x06) == 0x06 ? 1 + (b >> 5) : 0;
    int null_out = (b & 0x18) == 0x18;
    int pred = check_node_pred(nh, CGN_NODE_CONDITIONAL);
    if (pred == CGN_OK && null_out)
        pred = CGN_ERROR_INVALID_ARGUMENT;
    if (pred == CGN_OK && index != 0)
        pred = CGN_ERROR_INVALID_VALUE;
    trace("conditional_node_body node %d (kind %d) index %u%s pred %s", n ? nh.idx : -1, nh.kind,
          index, null_out ? " (NULL out)" : "", sname(pred));
    cgn_graph *body = NULL;
    fault_begin(0);
    cgn_status st = cgn_conditional_node_body(node_h(nh), index, null_out ? NULL : &body);
    fault_end();
    if (check_status("cgn_conditional_node_body", st, pred) && body != M.g[n->embedded].h)
        FAIL("cgn_conditional_node_body of node %d is not the body the model has", nh.idx);
}

/* ---- updates ----------------------------------------------------------------------------- */

typedef struct xupd {
    uint64_t set;
    int null_update;
    mdesc f;
    xarr x;
} xupd;

static uint64_t x_all(int type) {
    switch (type) {
    case CGN_NODE_MEMCPY_3D:
        return CGN_MEMCPY_3D_SET_ALL;
    case CGN_NODE_BATCH_MEM_OP:
        return CGN_BATCH_MEM_OP_SET_ALL;
    case CGN_NODE_EXT_SEM_SIGNAL:
        return CGN_EXT_SEM_SIGNAL_SET_ALL;
    case CGN_NODE_EXT_SEM_WAIT:
        return CGN_EXT_SEM_WAIT_SET_ALL;
    default:
        return 0;
    }
}

/* The field bits whose driver rules make a refused executable update CGN_ERROR_INVALID_VALUE. */
static uint64_t x_ruled(int type) {
    switch (type) {
    case CGN_NODE_MEMCPY_3D:
        return CGN_MEMCPY_3D_SET_DST | CGN_MEMCPY_3D_SET_SRC;
    case CGN_NODE_BATCH_MEM_OP:
        return CGN_BATCH_MEM_OP_SET_OPS;
    default:
        return CGN_EXT_SEM_SIGNAL_SET_SEMS; /* same bit for wait */
    }
}

static void gen_xupd(rd *r, int type, xupd *u) {
    memset(u, 0, sizeof *u);
    x_desc_init(&u->f, type);
    uint8_t m = u8(r);
    uint64_t all = x_all(type);
    if (m == 0xff) {
        u->null_update = 1;
        return;
    }
    if (type == CGN_NODE_MEMCPY_3D) {
        if ((m & 0xe0) == 0xe0) {
            u->set = (u32(r) & all); /* raw bits: couplings may be missing */
            if (m & 1)
                u->set |= UINT64_C(1) << (21 + (m >> 1) % 40);
        } else {
            /* whole groups: operands with their owners, offsets, extents */
            if (m & 1)
                u->set |= CGN_MEMCPY_3D_SET_DST | CGN_MEMCPY_3D_SET_DST_OWNER;
            if (m & 2)
                u->set |= CGN_MEMCPY_3D_SET_SRC | CGN_MEMCPY_3D_SET_SRC_OWNER;
            if ((m & 0x0c) == 0x0c)
                u->set |= CGN_MEMCPY_3D_SET_DST_ARRAY | CGN_MEMCPY_3D_SET_DST_ARRAY_OWNER |
                          CGN_MEMCPY_3D_SET_DST;
            if ((m & 0x0c) == 0x08)
                u->set |= CGN_MEMCPY_3D_SET_SRC_ARRAY | CGN_MEMCPY_3D_SET_SRC_ARRAY_OWNER |
                          CGN_MEMCPY_3D_SET_SRC;
            if (m & 0x10)
                u->set |= CGN_MEMCPY_3D_SET_WIDTH_IN_BYTES | CGN_MEMCPY_3D_SET_DST_X_IN_BYTES |
                          CGN_MEMCPY_3D_SET_SRC_X_IN_BYTES;
            if (m & 0x20)
                u->set |= CGN_MEMCPY_3D_SET_HEIGHT | CGN_MEMCPY_3D_SET_DEPTH |
                          CGN_MEMCPY_3D_SET_DST_Y | CGN_MEMCPY_3D_SET_DST_Z |
                          CGN_MEMCPY_3D_SET_SRC_Y | CGN_MEMCPY_3D_SET_SRC_Z |
                          CGN_MEMCPY_3D_SET_DST_PITCH | CGN_MEMCPY_3D_SET_SRC_PITCH |
                          CGN_MEMCPY_3D_SET_DST_HEIGHT | CGN_MEMCPY_3D_SET_SRC_HEIGHT;
            if ((m & 0xc0) == 0xc0)
                u->set = all; /* a full replacement (cgn_memcpy_3d_update_from_desc) */
        }
        gen_c3(r, &u->f);
        /* an operand set to an address drops the array, and the other way round, mostly */
        if ((u->set & CGN_MEMCPY_3D_SET_DST_ARRAY) && u->f.c3.darr == NULL && !(m & 0x40))
            u->f.c3.darr = farrays[0];
        if ((u->set & CGN_MEMCPY_3D_SET_DST_ARRAY) && u->f.c3.darr != NULL)
            u->f.c3.dst = 0;
        if ((u->set & CGN_MEMCPY_3D_SET_SRC_ARRAY) && u->f.c3.sarr == NULL && !(m & 0x40))
            u->f.c3.sarr = farrays[1];
        if ((u->set & CGN_MEMCPY_3D_SET_SRC_ARRAY) && u->f.c3.sarr != NULL)
            u->f.c3.src = 0;
        return;
    }
    switch (m & 7) {
    case 0:
    case 1:
    case 2:
        u->set = all;
        break;
    case 3:
        u->set = 1; /* the array without its owner: the owner resets */
        break;
    case 4:
        u->set = 2; /* the owner alone: MISSING_FIELD */
        break;
    case 5:
        u->set = 0; /* nothing: OK, no driver call */
        break;
    case 6:
        u->set = all | (UINT64_C(1) << (2 + (m >> 3))); /* an unknown bit */
        break;
    default:
        u->set = all;
        break;
    }
    if (type == CGN_NODE_BATCH_MEM_OP)
        gen_batch(r, &u->f, &u->x);
    else
        gen_sems(r, &u->f, &u->x);
}

static int x_coupling(int type, uint64_t set) {
    if (type == CGN_NODE_MEMCPY_3D) {
        if (((set & CGN_MEMCPY_3D_SET_DST_OWNER) && !(set & CGN_MEMCPY_3D_SET_DST)) ||
            ((set & CGN_MEMCPY_3D_SET_DST_ARRAY_OWNER) && !(set & CGN_MEMCPY_3D_SET_DST_ARRAY)) ||
            ((set & CGN_MEMCPY_3D_SET_SRC_OWNER) && !(set & CGN_MEMCPY_3D_SET_SRC)) ||
            ((set & CGN_MEMCPY_3D_SET_SRC_ARRAY_OWNER) && !(set & CGN_MEMCPY_3D_SET_SRC_ARRAY)))
            return CGN_ERROR_MISSING_FIELD;
        return CGN_OK;
    }
    return (set & 2) && !(set & 1) ? CGN_ERROR_MISSING_FIELD : CGN_OK;
}

/* The merged desc; memory types are filled in by the caller (staging). */
static mdesc x_merge(const mdesc *cur, const xupd *u, int type) {
    mdesc d = *cur;
    const mdesc *f = &u->f;
    uint64_t s = u->set;
    if (type == CGN_NODE_MEMCPY_3D) {
#define C3F(bit, field)                                                                            \
    if (s & CGN_MEMCPY_3D_SET_##bit)                                                               \
        d.c3.field = f->c3.field;
        if (s & CGN_MEMCPY_3D_SET_DST) {
            d.c3.dst = f->c3.dst;
            d.c3.downer = (s & CGN_MEMCPY_3D_SET_DST_OWNER) ? f->c3.downer : -1;
            d.c3.dmt = 0;
        }
        if (s & CGN_MEMCPY_3D_SET_DST_ARRAY) {
            d.c3.darr = f->c3.darr;
            d.c3.daowner = (s & CGN_MEMCPY_3D_SET_DST_ARRAY_OWNER) ? f->c3.daowner : -1;
        }
        C3F(DST_X_IN_BYTES, dx) C3F(DST_Y, dy) C3F(DST_Z, dz) C3F(DST_PITCH, dp)
        C3F(DST_HEIGHT, dh)
        if (s & CGN_MEMCPY_3D_SET_SRC) {
            d.c3.src = f->c3.src;
            d.c3.sowner = (s & CGN_MEMCPY_3D_SET_SRC_OWNER) ? f->c3.sowner : -1;
            d.c3.smt = 0;
        }
        if (s & CGN_MEMCPY_3D_SET_SRC_ARRAY) {
            d.c3.sarr = f->c3.sarr;
            d.c3.saowner = (s & CGN_MEMCPY_3D_SET_SRC_ARRAY_OWNER) ? f->c3.saowner : -1;
        }
        C3F(SRC_X_IN_BYTES, sx) C3F(SRC_Y, sy) C3F(SRC_Z, sz) C3F(SRC_PITCH, sp)
        C3F(SRC_HEIGHT, sh) C3F(WIDTH_IN_BYTES, w) C3F(HEIGHT, h) C3F(DEPTH, depth)
#undef C3F
    } else if (type == CGN_NODE_BATCH_MEM_OP) {
        if (s & 1) {
            d.nops = f->nops;
            memcpy(d.ops, f->ops, sizeof d.ops);
            d.opsowner = (s & 2) ? f->opsowner : -1;
        }
    } else if (s & 1) {
        d.nsems = f->nsems;
        memcpy(d.sem, f->sem, sizeof d.sem);
        memcpy(d.semval, f->semval, sizeof d.semval);
        d.semsowner = (s & 2) ? f->semsowner : -1;
    }
    return d;
}

/* The executable-update rules of the updatable new types (cgn's generated exec checks, which
 * its refresh pre-flight applies too; the fake's update_rule is equivalent for these types, but
 * for a batch node's context): may an executable's copy `o` become `m`? */
static int x_exec_rule(int type, const mdesc *o, const mdesc *m) {
    if (type == CGN_NODE_MEMCPY_3D) {
        if (m->c3.dmt != o->c3.dmt || m->c3.smt != o->c3.smt)
            return CGN_ERROR_INVALID_VALUE;
        int one = o->c3.h == 1 && o->c3.depth == 1;
        if (!one && (memcmp(&m->c3.dx, &o->c3.dx, sizeof(size_t) * 13) != 0 ||
                     m->c3.dst != o->c3.dst || m->c3.src != o->c3.src ||
                     m->c3.darr != o->c3.darr || m->c3.sarr != o->c3.sarr))
            return CGN_ERROR_INVALID_VALUE;
        if (one && (m->c3.h != 1 || m->c3.depth != 1))
            return CGN_ERROR_INVALID_VALUE;
        return CGN_OK;
    }
    if (type == CGN_NODE_BATCH_MEM_OP) {
        if (m->nops != o->nops)
            return CGN_ERROR_INVALID_VALUE;
        for (uint32_t i = 0; i < m->nops; i++)
            if (m->ops[i].operation != o->ops[i].operation)
                return CGN_ERROR_INVALID_VALUE;
        for (uint32_t i = 0; i < m->nops; i++) {
            const CUstreamBatchMemOpParams *a = &m->ops[i], *b = &o->ops[i];
            CUstreamBatchMemOpType t = a->operation;
            unsigned fa, fb;
            if (t == CU_STREAM_MEM_OP_WAIT_VALUE_32 || t == CU_STREAM_MEM_OP_WAIT_VALUE_64) {
                fa = a->waitValue.flags & CU_STREAM_WAIT_VALUE_FLUSH;
                fb = b->waitValue.flags & CU_STREAM_WAIT_VALUE_FLUSH;
            } else if (t == CU_STREAM_MEM_OP_WRITE_VALUE_32 ||
                       t == CU_STREAM_MEM_OP_WRITE_VALUE_64) {
                fa = a->writeValue.flags;
                fb = b->writeValue.flags;
            } else {
                fa = memcmp(a, b, sizeof *a) != 0;
                fb = 0;
            }
            if (fa != fb)
                return CGN_ERROR_INVALID_VALUE;
        }
        return CGN_OK;
    }
    if (type == CGN_NODE_EXT_SEM_SIGNAL || type == CGN_NODE_EXT_SEM_WAIT)
        return m->nsems != o->nsems ? CGN_ERROR_INVALID_VALUE : CGN_OK;
    return CGN_OK; /* memory and conditional nodes: nothing of theirs can change */
}

/* What cgn checks of an update once the node (or the executable's copy) is resolved: version,
 * NULL update, unknown bits, nothing set, couplings, rules, array kinds, staging (memory types),
 * and at executable level the generated exec rules. *merged: the new version. */
static int x_update_pred(int type, const mdesc *cur, const xupd *u, int at_exec, int g,
                         mdesc *merged, int *noop) {
    *noop = 0;
    if (M.version < 12020)
        return CGN_ERROR_DRIVER_TOO_OLD;
    if (u->null_update)
        return CGN_ERROR_INVALID_ARGUMENT;
    if (u->set & ~x_all(type))
        return CGN_ERROR_INVALID_ARGUMENT;
    if (u->set == 0) {
        *noop = 1;
        return CGN_OK;
    }
    int st = x_coupling(type, u->set);
    if (st != CGN_OK)
        return st;
    *merged = x_merge(cur, u, type);
    if (type == CGN_NODE_MEMCPY_3D) {
        st = c3_rules(merged);
        if (st != CGN_OK)
            return st;
        if ((u->set & CGN_MEMCPY_3D_SET_DST) && merged->c3.dst != 0) {
            merged->c3.dmt = x_memtype(merged->c3.dst, at_exec, g);
            if (merged->c3.dmt == 0)
                return CGN_ERROR_INVALID_VALUE;
        }
        if ((u->set & CGN_MEMCPY_3D_SET_SRC) && merged->c3.src != 0) {
            merged->c3.smt = x_memtype(merged->c3.src, at_exec, g);
            if (merged->c3.smt == 0)
                return CGN_ERROR_INVALID_VALUE;
        }
        /* An array handle that is not mapped memory, refused while staging. */
        if (((u->set & CGN_MEMCPY_3D_SET_DST_ARRAY) && merged->c3.darr == BOGUS_ARRAY) ||
            ((u->set & CGN_MEMCPY_3D_SET_SRC_ARRAY) && merged->c3.sarr == BOGUS_ARRAY)) {
            return CGN_ERROR_INVALID_VALUE;
        }
        return at_exec ? x_exec_rule(type, cur, merged) : CGN_OK;
    }
    if (u->set & 1) {
        st = xarr_pred(&u->x, type == CGN_NODE_BATCH_MEM_OP ? CGN_MAX_MEM_OPS : CGN_MAX_EXT_SEMS);
        if (st != CGN_OK)
            return st;
    }
    return at_exec ? x_exec_rule(type, cur, merged) : CGN_OK;
}

/* What the fake refuses of a merged version that passed cgn's checks. */
static int x_fake_ok(int type, const mdesc *m) {
    if (type == CGN_NODE_MEMCPY_3D)
        return c3_fake_ok(m);
    if (type == CGN_NODE_EXT_SEM_SIGNAL || type == CGN_NODE_EXT_SEM_WAIT)
        for (uint32_t i = 0; i < m->nsems; i++)
            if (m->sem[i] == 3)
                return 0;
    return 1;
}

/* The same for the updatable node types added last. */
static cgn_status x_call_update(int type, int at_exec, cgn_exec *exec, cgn_node *node,
                                const xupd *u) {
    xbuf xb = {0};
    const mdesc *f = &u->f;
    union {
        cgn_memcpy_3d_update c3;
        cgn_batch_mem_op_update b;
        cgn_ext_sem_signal_update ss;
        cgn_ext_sem_wait_update sw;
    } up;
    switch (type) {
    case CGN_NODE_MEMCPY_3D: {
        cgn_memcpy_3d_desc c = c3_desc(f);
        up.c3 = (cgn_memcpy_3d_update)CGN_MEMCPY_3D_UPDATE_INIT;
        cgn_memcpy_3d_update_from_desc(&up.c3, &c);
        up.c3.set = u->set;
        break;
    }
    case CGN_NODE_BATCH_MEM_OP:
        up.b = (cgn_batch_mem_op_update){u->set, build_ops(f, &u->x, &xb), u->x.count,
                                         owner_ptr(f->opsowner)};
        break;
    case CGN_NODE_EXT_SEM_SIGNAL:
        build_sems(f, &u->x, 0, &xb);
        up.ss = (cgn_ext_sem_signal_update){u->set, xb.sems, xb.params, u->x.count,
                                            owner_ptr(f->semsowner)};
        break;
    case CGN_NODE_EXT_SEM_WAIT:
        build_sems(f, &u->x, 1, &xb);
        up.sw = (cgn_ext_sem_wait_update){u->set, xb.sems, xb.params, u->x.count,
                                          owner_ptr(f->semsowner)};
        break;
    default:
        return CGN_OK;
    }
    const cgn_test_type *a = type_adapter(type);
    const void *p = u->null_update ? NULL : (const void *)&up;
    cgn_status st = at_exec ? a->exec_update(exec, node, p) : a->update(node, p);
    xbuf_free(&xb);
    return st;
}

static const int x_upd_types[4] = {CGN_NODE_MEMCPY_3D, CGN_NODE_BATCH_MEM_OP,
                                   CGN_NODE_EXT_SEM_SIGNAL, CGN_NODE_EXT_SEM_WAIT};

/* Picks a node of the new types when there is one (b: the choice). */
static href x_pick_node(rd *r) {
    uint8_t b = u8(r);
    int can[MAXN], nc = 0;
    for (int i = 0; i < M.nn; i++)
        if (M.n[i].state == ST_LIVE && x_type(M.n[i].type))
            can[nc++] = i;
    if ((b & 0xe0) == 0xe0 || nc == 0) {
        r->at--;
        return pick_node(r);
    }
    return (href){H_MODEL, can[b % nc]};
}

/* A definition-level update of a node of the new types (or, with the type byte, an update of
 * another type on it: WRONG_NODE_TYPE; the non-updatable ones get every update refused). */
static void op_x_node_update(rd *r) {
    href nh = x_pick_node(r);
    uint8_t tb = u8(r);
    mnode *n = nh.kind == H_MODEL ? &M.n[nh.idx] : NULL;
    int type = n && x_updatable(n->type) && tb < 224 ? n->type : x_upd_types[tb & 3];
    xupd u;
    gen_xupd(r, type, &u);
    int pred = lookup_status(nh, n ? n->state : 0);
    if (pred == CGN_OK && n->state == ST_ZOMBIE)
        pred = CGN_ERROR_DESTROYED;
    if (pred == CGN_OK && n->type != type)
        pred = CGN_ERROR_WRONG_NODE_TYPE;
    if (pred == CGN_OK && n->broken)
        pred = CGN_ERROR_DRIVER;
    mdesc merged;
    int noop = 0;
    if (pred == CGN_OK && type == CGN_NODE_MEMCPY_3D) { /* keep the fake's copy in bounds */
        mdesc m = x_merge(&n->d, &u, type);
        if (!u.null_update && c3_rules(&m) == CGN_OK && !c3_safe(&m)) {
            u.set |= CGN_MEMCPY_3D_SET_WIDTH_IN_BYTES | CGN_MEMCPY_3D_SET_HEIGHT |
                     CGN_MEMCPY_3D_SET_DEPTH | CGN_MEMCPY_3D_SET_DST_X_IN_BYTES |
                     CGN_MEMCPY_3D_SET_DST_Y | CGN_MEMCPY_3D_SET_DST_Z |
                     CGN_MEMCPY_3D_SET_SRC_X_IN_BYTES | CGN_MEMCPY_3D_SET_SRC_Y |
                     CGN_MEMCPY_3D_SET_SRC_Z;
            c3_clamp(&u.f);
        }
    }
    if (pred == CGN_OK)
        pred = x_update_pred(type, &n->d, &u, 0, n->graph, &merged, &noop);
    if (pred == CGN_OK && !noop && !x_fake_ok(type, &merged))
        pred = CGN_ERROR_DRIVER;
    trace("x_node_update node %d (kind %d) as %s set 0x%llx%s pred %s",
          nh.kind == H_MODEL ? nh.idx : -1, nh.kind, cgn__node_type_name(type),
          (unsigned long long)u.set, u.null_update ? " (NULL update)" : "", sname(pred));
    fault_begin(0);
    cgn_status st = x_call_update(type, 0, NULL, node_h(nh), &u);
    fault_end();
    if (!check_status("x node update", st, pred) || noop)
        return;
    int old_att = n->att;
    n->d = merged;
    uint64_t owner_bits = type == CGN_NODE_MEMCPY_3D
                              ? (CGN_MEMCPY_3D_SET_DST | CGN_MEMCPY_3D_SET_DST_ARRAY |
                                 CGN_MEMCPY_3D_SET_SRC | CGN_MEMCPY_3D_SET_SRC_ARRAY)
                              : 1;
    if (u.set & owner_bits)
        n->att = att_next(n->att, &merged);
    if (fired_in(CGN_FAULT_cuGraphReleaseUserObject))
        M.uncertain |= att_mask(old_att);
}

/* An executable-level update of a node of the new types. */
static void op_x_exec_update(rd *r) {
    href eh = pick_exec(r);
    href nh = x_pick_node(r);
    uint8_t tb = u8(r);
    if (eh.kind == H_MODEL && (tb & 0x80) && M.e[eh.idx]->nsh > 0) { /* a node of this exec */
        const mexec *e = M.e[eh.idx];
        int can[MAXN], nc = 0;
        for (int i = 0; i < e->nsh; i++)
            if (x_type(e->sh[i].type))
                can[nc++] = e->sh[i].node;
        if (nc > 0)
            nh = (href){H_MODEL, can[tb % nc]};
    }
    int si = -1;
    int pred = exec_node_pred(eh, nh, &si);
    mexec *e = si >= 0 ? M.e[eh.idx] : NULL;
    mshadow *s = e ? &e->sh[si] : NULL;
    int type = s && x_updatable(s->type) && (tb & 0x40) == 0 ? s->type : x_upd_types[tb & 3];
    xupd u;
    gen_xupd(r, type, &u);
    if (pred == CGN_OK && s->type != type)
        pred = CGN_ERROR_WRONG_NODE_TYPE;
    if (pred == CGN_OK && type == CGN_NODE_MEMCPY_3D) {
        mdesc m = x_merge(&s->d, &u, type);
        if (!u.null_update && c3_rules(&m) == CGN_OK && !c3_safe(&m)) {
            u.set |= CGN_MEMCPY_3D_SET_WIDTH_IN_BYTES | CGN_MEMCPY_3D_SET_HEIGHT |
                     CGN_MEMCPY_3D_SET_DEPTH | CGN_MEMCPY_3D_SET_DST_X_IN_BYTES |
                     CGN_MEMCPY_3D_SET_DST_Y | CGN_MEMCPY_3D_SET_DST_Z |
                     CGN_MEMCPY_3D_SET_SRC_X_IN_BYTES | CGN_MEMCPY_3D_SET_SRC_Y |
                     CGN_MEMCPY_3D_SET_SRC_Z;
            c3_clamp(&u.f);
        }
    }
    mdesc merged;
    int noop = 0;
    if (pred == CGN_OK)
        pred = x_update_pred(type, &s->d, &u, 1, -1, &merged, &noop);
    if (pred == CGN_OK && !noop) { /* the fake's cuGraphExecNodeSetParams */
        uint64_t ruled = u.set & x_ruled(type);
        if (!addressable(s))
            pred = ruled ? CGN_ERROR_INVALID_VALUE : CGN_ERROR_DRIVER;
        else if (!x_fake_ok(type, &merged))
            pred = PRED_ANY_FAIL; /* INVALID_VALUE or a bad handle, as the driver says */
    }
    trace("x_exec_update exec %d (kind %d) node %d (kind %d) as %s set 0x%llx%s pred %s",
          eh.kind == H_MODEL ? eh.idx : -1, eh.kind, nh.kind == H_MODEL ? nh.idx : -1, nh.kind,
          cgn__node_type_name(type), (unsigned long long)u.set,
          u.null_update ? " (NULL update)" : "", sname(pred));
    fault_begin(0);
    cgn_status st = x_call_update(type, 1, exec_h(eh), node_h(nh), &u);
    fault_end();
    if (!check_status("x exec update", st, pred) || noop)
        return;
    s->d = merged;
    uint64_t owner_bits = type == CGN_NODE_MEMCPY_3D
                              ? (CGN_MEMCPY_3D_SET_DST | CGN_MEMCPY_3D_SET_DST_ARRAY |
                                 CGN_MEMCPY_3D_SET_SRC | CGN_MEMCPY_3D_SET_SRC_ARRAY)
                              : 1;
    if (u.set & owner_bits) {
        int next = att_next(s->att, &merged);
        if (next != s->att) {
            shadow_install(eh.idx, s, next);
            s->xl = next > 0;
        }
    }
}

/* ---- launches of executables holding memory nodes ------------------------------------------- */

/* cuGraphLaunch refuses an executable whose allocations from an earlier launch are unfreed. */
static int x_launch_blocked(int ei) {
    if (M.e[ei]->auto_free)
        return 0; /* the launch frees them first */
    for (int i = 0; i < nunfreed; i++)
        if (unfreed[i].exec == ei)
            return 1;
    return 0;
}

/* What a launch of ei does to the graph allocations (its nodes run in insertion order; memory
 * nodes are top-level nodes of root graphs and cannot be disabled). */
static void x_launch_ran(int ei) {
    const mexec *e = M.e[ei];
    if (e->auto_free) /* cuGraphLaunch frees what this executable's last launch left first */
        for (int k = nunfreed; k-- > 0;)
            if (unfreed[k].exec == ei)
                unfreed[k] = unfreed[--nunfreed];
    for (int i = 0; i < e->nsh; i++) {
        const mshadow *s = &e->sh[i];
        if (s->type == CGN_NODE_MEM_ALLOC && nunfreed < (int)(sizeof unfreed / sizeof *unfreed)) {
            unfreed[nunfreed].dptr = s->d.dptr;
            unfreed[nunfreed++].exec = ei;
        } else if (s->type == CGN_NODE_MEM_FREE) {
            for (int k = 0; k < nunfreed; k++)
                if (unfreed[k].dptr == s->d.dptr) {
                    unfreed[k] = unfreed[--nunfreed];
                    break;
                }
        }
    }
}

static void x_exec_gone(int ei) {
    for (int i = 0; i < nunfreed; i++)
        if (unfreed[i].exec == ei)
            unfreed[i].exec = -1;
}

/* A graph holding memory nodes or (at any depth) a conditional node has one executable at a
 * time (the driver refuses another). */
static int x_instantiate_refused(int g) {
    if (!x_graph_mem(g) && !x_graph_cond(g))
        return 0;
    for (int i = 0; i < M.ne; i++)
        if (M.e[i]->state == ST_LIVE && M.e[i]->source == g)
            return 1;
    return 0;
}

/* ---- read back --------------------------------------------------------------------------- */

static void x_cmp_desc(const char *what, int idx, const mdesc *m, const void *got_) {
    switch (m->type) {
    case CGN_NODE_MEMCPY_3D: {
        const cgn_memcpy_3d_desc *c = got_;
        cgn_memcpy_3d_desc w = c3_desc(m);
        w.dst_memory_type = (CUmemorytype)m->c3.dmt;
        w.src_memory_type = (CUmemorytype)m->c3.smt;
        if (memcmp(c, &w, sizeof w) != 0)
            FAIL("%s of node %d: memcpy_3d fields differ from the model (dst %llx/%llx type %u/%u "
                 "src %llx/%llx type %u/%u w %zu/%zu h %zu/%zu d %zu/%zu)",
                 what, idx, (unsigned long long)c->dst, (unsigned long long)w.dst,
                 (unsigned)c->dst_memory_type, (unsigned)w.dst_memory_type,
                 (unsigned long long)c->src, (unsigned long long)w.src,
                 (unsigned)c->src_memory_type, (unsigned)w.src_memory_type, c->width_in_bytes,
                 w.width_in_bytes, c->height, w.height, c->depth, w.depth);
        break;
    }
    case CGN_NODE_MEM_ALLOC: {
        const cgn_mem_alloc_desc *c = got_;
        if (c->bytesize != m->bytesize || c->device != m->device || c->dptr != m->dptr)
            FAIL("%s of node %d: mem_alloc fields differ from the model", what, idx);
        break;
    }
    case CGN_NODE_MEM_FREE: {
        const cgn_mem_free_desc *c = got_;
        if (c->dptr != m->dptr)
            FAIL("%s of node %d: mem_free dptr differs from the model", what, idx);
        break;
    }
    case CGN_NODE_BATCH_MEM_OP: {
        const cgn_batch_mem_op_desc *c = got_;
        if (c->num_ops != m->nops || c->ops == NULL || !owner_eq(c->ops_owner, m->opsowner) ||
            memcmp(c->ops, m->ops, m->nops * sizeof *m->ops) != 0)
            FAIL("%s of node %d: batch_mem_op fields differ from the model (%u/%u ops)", what, idx,
                 c->num_ops, m->nops);
        break;
    }
    case CGN_NODE_EXT_SEM_SIGNAL:
    case CGN_NODE_EXT_SEM_WAIT: {
        /* the signal and wait descs have the same layout */
        const cgn_ext_sem_signal_desc *c = got_;
        if (c->num_sems != m->nsems || c->sems == NULL || c->sems_params == NULL ||
            !owner_eq(c->sems_owner, m->semsowner))
            FAIL("%s of node %d: ext_sem fields differ from the model (%u/%u semaphores)", what,
                 idx, c->num_sems, m->nsems);
        for (uint32_t i = 0; i < m->nsems; i++) {
            uint64_t v = m->type == CGN_NODE_EXT_SEM_WAIT
                             ? ((const CUDA_EXTERNAL_SEMAPHORE_WAIT_PARAMS *)(const void *)
                                    c->sems_params)[i]
                                   .params.fence.value
                             : c->sems_params[i].params.fence.value;
            if (c->sems[i] != fsem_of(m->sem[i]) || v != m->semval[i])
                FAIL("%s of node %d: ext_sem semaphore %u differs from the model", what, idx, i);
        }
        break;
    }
    case CGN_NODE_CONDITIONAL: {
        const cgn_conditional_desc *c = got_;
        if (c->type != m->ctype || c->size != m->csize || c->handle != m->chandle ||
            c->handle_default != m->cdef || c->handle_assign != m->cassign)
            FAIL("%s of node %d: conditional fields differ from the model", what, idx);
        break;
    }
    default:
        break;
    }
}

static void x_cmp_fake(const char *what, int idx, const mdesc *m, int ctx,
                       const CUgraphNodeParams *p) {
    switch (m->type) {
    case CGN_NODE_MEMCPY_3D: {
        const CUDA_MEMCPY3D *c = &p->memcpy.copyParams;
        unsigned dt = m->c3.darr ? CU_MEMORYTYPE_ARRAY : m->c3.dmt;
        unsigned st = m->c3.sarr ? CU_MEMORYTYPE_ARRAY : m->c3.smt;
        CUdeviceptr da = dt == CU_MEMORYTYPE_HOST ? (CUdeviceptr)(uintptr_t)c->dstHost
                                                  : c->dstDevice;
        CUdeviceptr sa = st == CU_MEMORYTYPE_HOST ? (CUdeviceptr)(uintptr_t)c->srcHost
                                                  : c->srcDevice;
        if (c->dstMemoryType != dt || c->srcMemoryType != st ||
            (m->c3.darr ? c->dstArray != m->c3.darr : da != m->c3.dst) ||
            (m->c3.sarr ? c->srcArray != m->c3.sarr : sa != m->c3.src) ||
            c->dstXInBytes != m->c3.dx || c->dstY != m->c3.dy || c->dstZ != m->c3.dz ||
            c->dstPitch != m->c3.dp || c->dstHeight != m->c3.dh || c->srcXInBytes != m->c3.sx ||
            c->srcY != m->c3.sy || c->srcZ != m->c3.sz || c->srcPitch != m->c3.sp ||
            c->srcHeight != m->c3.sh || c->WidthInBytes != m->c3.w || c->Height != m->c3.h ||
            c->Depth != m->c3.depth || p->memcpy.copyCtx != ctx_of(ctx))
            FAIL("%s of node %d: the driver's memcpy_3d differs from the model", what, idx);
        break;
    }
    case CGN_NODE_MEM_ALLOC:
        if (p->alloc.bytesize != m->bytesize || p->alloc.dptr != m->dptr ||
            p->alloc.poolProps.location.id != m->device)
            FAIL("%s of node %d: the driver's mem_alloc differs from the model", what, idx);
        break;
    case CGN_NODE_MEM_FREE:
        if (p->free.dptr != m->dptr)
            FAIL("%s of node %d: the driver's mem_free differs from the model", what, idx);
        break;
    case CGN_NODE_BATCH_MEM_OP:
        if (p->memOp.count != m->nops || p->memOp.ctx != ctx_of(ctx))
            FAIL("%s of node %d: the driver's batch_mem_op differs from the model", what, idx);
        for (uint32_t i = 0; i < m->nops; i++)
            if (p->memOp.paramArray[i].operation != m->ops[i].operation ||
                (m->ops[i].operation != CU_STREAM_MEM_OP_FLUSH_REMOTE_WRITES &&
                 m->ops[i].operation != CU_STREAM_MEM_OP_BARRIER &&
                 (p->memOp.paramArray[i].writeValue.address != m->ops[i].writeValue.address ||
                  p->memOp.paramArray[i].writeValue.flags != m->ops[i].writeValue.flags)))
                FAIL("%s of node %d: the driver's operation %u differs from the model", what, idx,
                     i);
        break;
    case CGN_NODE_EXT_SEM_SIGNAL:
        if (p->extSemSignal.numExtSems != m->nsems)
            FAIL("%s of node %d: the driver's ext_sem_signal differs from the model", what, idx);
        for (uint32_t i = 0; i < m->nsems; i++)
            if (p->extSemSignal.extSemArray[i] != fsem_of(m->sem[i]) ||
                p->extSemSignal.paramsArray[i].params.fence.value != m->semval[i])
                FAIL("%s of node %d: the driver's semaphore %u differs from the model", what, idx,
                     i);
        break;
    case CGN_NODE_EXT_SEM_WAIT:
        if (p->extSemWait.numExtSems != m->nsems)
            FAIL("%s of node %d: the driver's ext_sem_wait differs from the model", what, idx);
        for (uint32_t i = 0; i < m->nsems; i++)
            if (p->extSemWait.extSemArray[i] != fsem_of(m->sem[i]) ||
                p->extSemWait.paramsArray[i].params.fence.value != m->semval[i])
                FAIL("%s of node %d: the driver's semaphore %u differs from the model", what, idx,
                     i);
        break;
    case CGN_NODE_CONDITIONAL:
        if (p->conditional.handle != m->chandle || p->conditional.type != m->ctype ||
            p->conditional.size != m->csize)
            FAIL("%s of node %d: the driver's conditional node differs from the model", what,
                 idx);
        break;
    default:
        break;
    }
}

/* ---- destruction ----------------------------------------------------------------------------- */

static void op_node_destroy(rd *r) {
    href nh = pick_node(r);
    mnode *n = nh.kind == H_MODEL ? &M.n[nh.idx] : NULL;
    int pred = lookup_status(nh, n ? n->state : 0);
    if (pred == CGN_OK && n->state == ST_ZOMBIE)
        pred = CGN_ERROR_DESTROYED;
    if (pred == CGN_OK && n->broken)
        pred = CGN_ERROR_DRIVER;
    /* CUDA cannot destroy nodes of a graph holding memory nodes, nor a conditional node */
    if (pred == CGN_OK && (x_graph_mem(n->graph) || n->type == CGN_NODE_CONDITIONAL))
        pred = CGN_ERROR_NOT_SUPPORTED;
    trace("node_destroy node %d (kind %d) pred %s", n ? nh.idx : -1, nh.kind, sname(pred));
    fault_begin(0);
    cgn_status st = cgn_node_destroy(node_h(nh));
    fault_end();
    if (!check_status("cgn_node_destroy", st, pred))
        return;
    if (fired_in(CGN_FAULT_cuGraphReleaseUserObject))
        M.uncertain |= att_mask(n->att);
    n->state = ST_STALE;
    mgraph *g = &M.g[n->graph];
    int k = 0;
    for (int i = 0; i < g->nnodes; i++)
        if (g->nodes[i] != nh.idx)
            g->nodes[k++] = g->nodes[i];
    g->nnodes = k;
    for (int i = 0; i < g->nnodes; i++) {
        mnode *m = &M.n[g->nodes[i]];
        int kk = 0;
        for (int j = 0; j < m->ndeps; j++)
            if (m->deps[j] != nh.idx)
                m->deps[kk++] = m->deps[j];
        m->ndeps = kk;
    }
    if (n->embedded >= 0)
        mark_tree(n->embedded, ST_STALE);
}

static void op_graph_destroy(rd *r) {
    href gh = pick_graph(r);
    mgraph *g = gh.kind == H_MODEL ? &M.g[gh.idx] : NULL;
    int pred = lookup_status(gh, g ? g->state : 0);
    if (pred == CGN_OK && g->root != gh.idx)
        pred = CGN_ERROR_INVALID_ARGUMENT;
    trace("graph_destroy graph %d (kind %d) pred %s", g ? gh.idx : -1, gh.kind, sname(pred));
    fault_begin(0);
    cgn_status st = cgn_graph_destroy(graph_h(gh));
    fault_end();
    if (!check_status("cgn_graph_destroy", st, pred))
        return;
    g->destroyed = 1;
    if (g->hier_execs > 0) {
        g->hier_held = tree_mask(gh.idx);
        mark_tree(gh.idx, ST_ZOMBIE);
    } else {
        mark_tree(gh.idx, ST_STALE);
    }
}

/* ---- owners, collect, contexts --------------------------------------------------------------- */

static void op_owner_create(void) {
    if (M.no >= MAXO)
        return;
    trace("owner_create -> owner %d", M.no);
    cgn_owner *o = NULL;
    cgn_status st = cgn_owner_create((void *)(uintptr_t)(M.no + 1), owner_released, &o);
    if (!check_status("cgn_owner_create", st, CGN_OK))
        return;
    M.o[M.no].o = o;
    M.o[M.no].refs = 1;
    M.no++;
}

static void op_owner_ref(rd *r) {
    uint8_t b = u8(r);
    int held[MAXO], nh = 0;
    for (int i = 0; i < M.no; i++)
        if (M.o[i].refs > 0)
            held[nh++] = i;
    int retain = b & 1;
    if (nh == 0 || (b & 0xfe) == 0xfe) {
        trace("owner_%s NULL", retain ? "retain" : "release");
        cgn_status st = retain ? cgn_owner_retain(NULL) : cgn_owner_release(NULL);
        check_status("owner ref", st, CGN_ERROR_INVALID_ARGUMENT);
        return;
    }
    int i = held[(b >> 1) % nh];
    trace("owner_%s owner %d", retain ? "retain" : "release", i);
    cgn_status st = retain ? cgn_owner_retain(M.o[i].o) : cgn_owner_release(M.o[i].o);
    check_status("owner ref", st, CGN_OK);
    M.o[i].refs += retain ? 1 : -1;
}

static void set_ctx(int c) {
    cgn_fake_set_current_context(NULL); /* empties the stack */
    if (c >= 0)
        cgn_fake_set_current_context(ctx_of(c));
    M.ctx = c;
}

static void op_context(rd *r) {
    int c = (int)(u8(r) % 4) - 1;
    trace("set_context %d", c);
    set_ctx(c);
}

static void op_arm(rd *r) {
    uint8_t b = u8(r);
    M.armed = 1;
    M.fault_nth = 1 + (b & 15);
    M.fault_res = fault_results[(b >> 4) & 7];
    trace("arm fault: call %ld fails with %d", M.fault_nth, (int)M.fault_res);
}

/* ---- NULL and misplaced arguments ------------------------------------------------------------ */

static cgn_status node_get(int type, int at_exec, cgn_exec *exec, cgn_node *h, void *out);

/* cgn__check_node for a node handle (type CGN_NODE_TYPE_COUNT_: any). */
static int check_node_pred(href nh, int type) {
    const mnode *n = nh.kind == H_MODEL ? &M.n[nh.idx] : NULL;
    int st = lookup_status(nh, n ? n->state : 0);
    if (st == CGN_OK && n->state == ST_ZOMBIE)
        st = CGN_ERROR_DESTROYED;
    if (st == CGN_OK && type != CGN_NODE_TYPE_COUNT_ && n->type != type)
        st = CGN_ERROR_WRONG_NODE_TYPE;
    if (st == CGN_OK && n->broken)
        st = CGN_ERROR_DRIVER;
    return st;
}

static void op_misuse(rd *r) {
    uint8_t b = u8(r);
    href gh = pick_graph(r), nh = pick_node(r), eh = pick_exec(r), sh = pick_node(r);
    int gst = lookup_status(gh, gh.kind == H_MODEL ? M.g[gh.idx].state : 0);
    int est = lookup_status(eh, eh.kind == H_MODEL ? M.e[eh.idx]->state : 0);
    cgn_status st;
    int pred;
    const char *what;
    cgn_node *found = NULL;
    switch (b % 11) {
    case 0:
        what = "cgn_graph_create(NULL)";
        pred = CGN_ERROR_INVALID_ARGUMENT;
        st = cgn_graph_create(NULL);
        break;
    case 1:
        what = "cgn_owner_create(..., NULL)";
        pred = CGN_ERROR_INVALID_ARGUMENT;
        st = cgn_owner_create(NULL, owner_released, NULL);
        break;
    case 2:
        what = "cgn_graph_instantiate(graph, NULL)";
        pred = gst != CGN_OK ? gst : CGN_ERROR_INVALID_ARGUMENT;
        st = cgn_graph_instantiate(graph_h(gh), NULL);
        break;
    case 3: {
        what = "cgn_graph_add_memset(graph, NULL desc) / cgn_graph_add_empty(NULL node_out)";
        pred = CGN_ERROR_INVALID_ARGUMENT; /* checked before the graph */
        cgn_node *out = NULL;
        st = (b & 0x80) ? cgn_graph_add_memset(graph_h(gh), NULL, 0, NULL, &out)
                        : cgn_graph_add_empty(graph_h(gh), NULL, 0, NULL);
        break;
    }
    case 4:
        what = "cgn_node_type_of(node, NULL)";
        pred = check_node_pred(nh, CGN_NODE_TYPE_COUNT_);
        pred = pred != CGN_OK ? pred : CGN_ERROR_INVALID_ARGUMENT;
        st = cgn_node_type_of(node_h(nh), NULL);
        break;
    case 5:
        what = "cgn_node_raw(node, NULL) / cgn_node_graph(node, NULL)";
        pred = check_node_pred(nh, CGN_NODE_TYPE_COUNT_);
        pred = pred != CGN_OK ? pred : CGN_ERROR_INVALID_ARGUMENT;
        st = (b & 0x80) ? cgn_node_raw(node_h(nh), NULL) : cgn_node_graph(node_h(nh), NULL);
        break;
    case 6:
        what = "cgn_graph_raw(graph, NULL)";
        pred = gst != CGN_OK ? gst : CGN_ERROR_INVALID_ARGUMENT;
        st = cgn_graph_raw(graph_h(gh), NULL);
        break;
    case 7:
        what = "cgn_exec_raw(exec, NULL)"; /* must not expose the executable either */
        pred = est != CGN_OK ? est : CGN_ERROR_INVALID_ARGUMENT;
        st = cgn_exec_raw(exec_h(eh), NULL);
        break;
    case 8:
        what = "cgn_child_graph_node_embedded(node, NULL)";
        pred = check_node_pred(nh, CGN_NODE_CHILD_GRAPH);
        pred = pred != CGN_OK ? pred : CGN_ERROR_INVALID_ARGUMENT;
        st = cgn_child_graph_node_embedded(node_h(nh), NULL);
        break;
    case 9: {
        /* A source node that is not one of the embedding's, or NULL */
        what = "cgn_child_graph_node_find(child, node)";
        pred = check_node_pred(nh, CGN_NODE_CHILD_GRAPH);
        int want = -1;
        if (pred == CGN_OK && sh.kind != H_MODEL) {
            pred = CGN_ERROR_INVALID_ARGUMENT;
        } else if (pred == CGN_OK) {
            const mgraph *eg = &M.g[M.n[nh.idx].embedded];
            for (int i = 0; i < eg->nnodes; i++)
                if (M.n[eg->nodes[i]].source == sh.idx)
                    want = eg->nodes[i];
            pred = want >= 0 ? CGN_OK : CGN_ERROR_INVALID_VALUE;
        }
        st = cgn_child_graph_node_find(node_h(nh), sh.kind == H_MODEL ? node_h(sh) : NULL, &found);
        if (st == CGN_OK && pred == CGN_OK && found != M.n[want].h)
            FAIL("cgn_child_graph_node_find found another node");
        break;
    }
    default: {
        what = "exec_get(exec, node, NULL)";
        int si = -1;
        pred = exec_node_pred(eh, nh, &si);
        int type = si >= 0 ? M.e[eh.idx]->sh[si].type : CGN_NODE_MEMSET;
        if (type == CGN_NODE_EMPTY)
            type = CGN_NODE_MEMSET;
        if (pred == CGN_OK && M.e[eh.idx]->sh[si].type != type)
            pred = CGN_ERROR_WRONG_NODE_TYPE;
        pred = pred != CGN_OK ? pred : CGN_ERROR_INVALID_ARGUMENT;
        st = node_get(type, 1, exec_h(eh), node_h(nh), NULL);
        break;
    }
    }
    trace("%s pred %s", what, sname(pred));
    M.fired = 0;
    check_status(what, st, pred);
}

/* ---- the checks ------------------------------------------------------------------------------ */

static void needed_masks(uint64_t *needed, uint64_t *may) {
    uint64_t need = 0, maybe = M.uncertain;
    for (int i = 0; i < M.no; i++)
        if (M.o[i].refs > 0)
            need |= UINT64_C(1) << i;
    for (int i = 0; i < M.nn; i++)
        if (M.n[i].state == ST_LIVE)
            need |= att_mask(M.n[i].att);
    for (int g = 0; g < M.ng; g++)
        if (M.g[g].root == g && M.g[g].destroyed && M.g[g].hier_execs > 0)
            need |= M.g[g].hier_held;
    for (int ei = 0; ei < M.ne; ei++) {
        const mexec *e = M.e[ei];
        if (e->state != ST_LIVE)
            continue;
        for (int i = 0; i < e->nsh; i++)
            need |= att_mask(e->sh[i].att);
        for (int i = 0; i < e->nheld; i++)
            need |= att_mask(e->held_att[i]);
    }
    for (int i = 0; i < M.npend; i++) {
        const mpend *p = &M.pend[i];
        int alive = M.e[p->exec]->state == ST_LIVE;
        if ((p->kind == PEND_RAW && alive) || exec_inflight_range(p->exec, p->lo, p->hi))
            need |= p->mask;
        else if (!p->certain)
            maybe |= p->mask;
    }
    *needed = need;
    *may = maybe | need;
}

static void check_owners(int strict) {
    uint64_t need, may;
    needed_masks(&need, &may);
    for (int i = 0; i < M.no; i++) {
        uint64_t bit = UINT64_C(1) << i;
        if ((need & bit) && M.o[i].released)
            FAIL("owner %d was released while the model says it is still needed", i);
        if (strict && !(may & bit) && M.o[i].released != 1)
            FAIL("owner %d was not released after cgn_collect() although nothing needs it", i);
    }
    if (strict) { /* what was released has no further effect */
        int k = 0;
        for (int i = 0; i < M.npend; i++) {
            const mpend *p = &M.pend[i];
            if (p->certain && !exec_inflight_range(p->exec, p->lo, p->hi) &&
                !(p->kind == PEND_RAW && M.e[p->exec]->state == ST_LIVE))
                continue;
            M.pend[k++] = M.pend[i];
        }
        M.npend = k;
    }
}

static int owner_eq(cgn_owner *got, int want) {
    return got == owner_ptr(want);
}

static void cmp_desc(const char *what, int idx, const mdesc *m, const void *got_) {
    switch (m->type) {
    case CGN_NODE_MEMSET: {
        const cgn_memset_desc *c = got_;
        if (c->dst != m->dst || !owner_eq(c->dst_owner, m->dst_owner) || c->value != m->value ||
            c->element_size != m->elem || c->width != m->width || c->height != m->height ||
            c->pitch != m->pitch)
            FAIL("%s of node %d: memset fields differ from the model (value 0x%x/0x%x width "
                 "%zu/%zu height %zu/%zu owner %p/%p)",
                 what, idx, c->value, m->value, c->width, m->width, c->height, m->height,
                 (void *)c->dst_owner, (void *)owner_ptr(m->dst_owner));
        break;
    }
    case CGN_NODE_KERNEL: {
        const cgn_kernel_desc *c = got_;
        if (c->kernel.function != kh[m->kh].k.function || c->kernel.kernel != kh[m->kh].k.kernel ||
            !owner_eq(c->kernel_owner, m->kowner) || c->grid.x != m->grid.x ||
            c->grid.y != m->grid.y || c->grid.z != m->grid.z || c->block.x != m->block.x ||
            c->block.y != m->block.y || c->block.z != m->block.z ||
            c->shared_mem_bytes != m->smem || c->num_args != m->a.n ||
            (c->num_args > 0) != (c->args != NULL))
            FAIL("%s of node %d: kernel fields differ from the model", what, idx);
        for (uint32_t i = 0; i < m->a.n; i++) {
            if (c->args[i].size != m->a.size[i] || !owner_eq(c->args[i].owner, m->a.owner[i]) ||
                c->args[i].value == NULL ||
                memcmp(c->args[i].value, m->a.val[i], m->a.size[i]) != 0)
                FAIL("%s of node %d: kernel argument %u differs from the model", what, idx, i);
        }
        break;
    }
    case CGN_NODE_HOST: {
        const cgn_host_callback_desc *c = got_;
        void *ud = m->ud ? &ud_objs[m->ud - 1] : NULL;
        if (c->fn != host_fns[m->fn] || c->user_data != ud ||
            !owner_eq(c->user_data_owner, m->udowner) || c->payload_size != m->psize ||
            (m->psize > 0) != (c->payload != NULL) || (m->psize > 0) != (c->payload_owner != NULL))
            FAIL("%s of node %d: host callback fields differ from the model", what, idx);
        if (m->psize > 0 && memcmp(c->payload, m->pbytes, m->psize) != 0)
            FAIL("%s of node %d: host callback payload bytes differ from the model", what, idx);
        break;
    }
    case CGN_NODE_EVENT_RECORD: {
        const cgn_event_record_desc *c = got_;
        if (c->event != event_of(m->ev) || !owner_eq(c->event_owner, m->evowner))
            FAIL("%s of node %d: event record fields differ from the model", what, idx);
        break;
    }
    case CGN_NODE_CHILD_GRAPH: {
        const cgn_child_graph_desc *c = got_;
        if (c->graph != m->child)
            FAIL("%s of node %d: child graph field differs from the model", what, idx);
        break;
    }
    default:
        x_cmp_desc(what, idx, m, got_);
        break;
    }
}

/* The driver's view of a node (definition or executable) against the model. payload: cgn's copy
 * (from get), which the driver must have as userData. */
static void cmp_fake(const char *what, int idx, const mdesc *m, int ctx, const CUgraphNodeParams *p,
                     const void *payload) {
    static const CUgraphNodeType want_type[CGN_NODE_TYPE_COUNT_] = {
        CU_GRAPH_NODE_TYPE_EMPTY,        CU_GRAPH_NODE_TYPE_KERNEL,    CU_GRAPH_NODE_TYPE_MEMSET,
        CU_GRAPH_NODE_TYPE_MEMCPY,       CU_GRAPH_NODE_TYPE_HOST,      CU_GRAPH_NODE_TYPE_GRAPH,
        CU_GRAPH_NODE_TYPE_EVENT_RECORD, CU_GRAPH_NODE_TYPE_WAIT_EVENT, CU_GRAPH_NODE_TYPE_EMPTY,
        CU_GRAPH_NODE_TYPE_MEMCPY,       CU_GRAPH_NODE_TYPE_MEM_ALLOC, CU_GRAPH_NODE_TYPE_MEM_FREE,
        CU_GRAPH_NODE_TYPE_BATCH_MEM_OP, CU_GRAPH_NODE_TYPE_EXT_SEMAS_SIGNAL,
        CU_GRAPH_NODE_TYPE_EXT_SEMAS_WAIT, CU_GRAPH_NODE_TYPE_CONDITIONAL};
    if (p->type != want_type[m->type])
        FAIL("%s of node %d: the driver has node type %d", what, idx, (int)p->type);
    switch (m->type) {
    case CGN_NODE_MEMSET:
        if (p->memset.dst != m->dst || p->memset.value != m->value ||
            p->memset.elementSize != m->elem || p->memset.width != m->width ||
            p->memset.height != m->height || p->memset.pitch != m->pitch ||
            p->memset.ctx != ctx_of(ctx))
            FAIL("%s of node %d: the driver's memset differs from the model (value 0x%x/0x%x "
                 "width %zu/%zu height %zu/%zu)",
                 what, idx, p->memset.value, m->value, p->memset.width, m->width, p->memset.height,
                 m->height);
        break;
    case CGN_NODE_KERNEL: {
        const kinfo *k = &kh[m->kh];
        if (p->kernel.func != k->k.function ||
            (k->k.function == NULL && p->kernel.kern != k->k.kernel) ||
            p->kernel.gridDimX != m->grid.x || p->kernel.gridDimY != m->grid.y ||
            p->kernel.gridDimZ != m->grid.z || p->kernel.blockDimX != m->block.x ||
            p->kernel.blockDimY != m->block.y || p->kernel.blockDimZ != m->block.z ||
            p->kernel.sharedMemBytes != m->smem)
            FAIL("%s of node %d: the driver's kernel node differs from the model", what, idx);
        int np = (int)k_np[k->kernel];
        for (int i = 0; i < np && i < (int)m->a.n; i++)
            if (m->a.size[i] == k_sizes[k->kernel][i] &&
                memcmp(p->kernel.kernelParams[i], m->a.val[i], m->a.size[i]) != 0)
                FAIL("%s of node %d: the driver's kernel argument %d differs from the model", what,
                     idx, i);
        break;
    }
    case CGN_NODE_HOST: {
        void *want = m->psize > 0 ? (void *)(uintptr_t)payload
                     : m->ud      ? (void *)&ud_objs[m->ud - 1]
                                  : NULL;
        if (p->host.fn != host_fns[m->fn] || p->host.userData != want)
            FAIL("%s of node %d: the driver's host node differs from the model", what, idx);
        break;
    }
    case CGN_NODE_EVENT_RECORD:
        if (p->eventRecord.event != event_of(m->ev))
            FAIL("%s of node %d: the driver's event record differs from the model", what, idx);
        break;
    default:
        x_cmp_fake(what, idx, m, ctx, p);
        break;
    }
}

typedef union anydesc {
    cgn_memset_desc m;
    cgn_kernel_desc k;
    cgn_host_callback_desc h;
    cgn_event_record_desc e;
    cgn_child_graph_desc c;
    cgn_memcpy_3d_desc c3;
    cgn_mem_alloc_desc ma;
    cgn_mem_free_desc mf;
    cgn_batch_mem_op_desc b;
    cgn_ext_sem_signal_desc ss;
    cgn_ext_sem_wait_desc sw;
    cgn_conditional_desc cd;
    cgn_memcpy_desc mc;      /* not made by the harness: room for every type's get */
    cgn_event_wait_desc ew;
} anydesc;

/* Every node type's get, exec_get and update functions, from the generated test adapters
 * (cgn_test_types[], generated/tests/cgn_cases_all.c): NULL for a type with no spec (empty
 * nodes). */
static const cgn_test_type *type_adapter(int type) {
    static const cgn_test_type *by_type[CGN_NODE_TYPE_COUNT_];
    static int filled;
    if (!filled) {
        for (size_t t = 0; t < cgn_test_types_count; t++) {
            const cgn_test_type *a = cgn_test_types[t];
            if ((unsigned)a->type < CGN_NODE_TYPE_COUNT_)
                by_type[a->type] = a;
            if (a->desc_size > sizeof(anydesc)) {
                fprintf(stderr, "fuzz_api: anydesc has no room for a %s desc\n", a->name);
                abort();
            }
        }
        filled = 1;
    }
    return (unsigned)type < CGN_NODE_TYPE_COUNT_ ? by_type[type] : NULL;
}

/* The node's get function (its exec_get at executable level); CGN_OK for a type without one
 * (empty nodes). out is an anydesc (or NULL). */
static cgn_status node_get(int type, int at_exec, cgn_exec *exec, cgn_node *h, void *out) {
    const cgn_test_type *a = type_adapter(type);
    if (a == NULL)
        return CGN_OK;
    return at_exec ? a->exec_get(exec, h, out) : a->get(h, out);
}


static void check_all(int strict) {
    /* The calling thread's context stack: exactly what the harness left there (one context, or
     * none), so a push cgn did not pop shows too, not only a changed current context. */
    CUcontext seen[64];
    int depth = 0;
    while (depth < 64 && cgn_fake_table()->cuCtxPopCurrent(&seen[depth]) == CUDA_SUCCESS)
        depth++;
    if (!M.fired && (depth != (M.ctx >= 0) || (depth == 1 && seen[0] != ctx_of(M.ctx))))
        FAIL("the calling thread's context stack changed: depth %d, top %p; the model has "
             "context %d",
             depth, depth ? (void *)seen[0] : NULL, M.ctx);
    set_ctx(M.ctx); /* as it was (a fault may have hit a context call) */
    if (cgn_fake_crash_prone_calls() != 0)
        FAIL("cgn made a driver call that crashes the real driver");
    if (cgn_fake_in_flight(NULL) != (size_t)M.nfifo)
        FAIL("the fake has %zu launches in flight; the model %d", cgn_fake_in_flight(NULL),
             M.nfifo);
    size_t live_handles = 0;
    /* graphs */
    for (int gi = 0; gi < M.ng; gi++) {
        const mgraph *g = &M.g[gi];
        CUgraph raw = NULL;
        cgn_status st;
        if (g->state == ST_LIVE && !exposed_root(g->root)) { /* not through the API: see
                                                                 op_graph_create */
            const cgn__graph_rec *rec = cgn__graph_record(g->h);
            st = rec != NULL ? CGN_OK : CGN_ERROR_DESTROYED;
            raw = rec != NULL ? rec->raw : NULL;
        } else {
            st = cgn_graph_raw(g->h, &raw);
        }
        if (g->state == ST_LIVE) {
            live_handles++;
            if (st != CGN_OK || raw != g->raw)
                FAIL("graph %d: cgn_graph_raw %s", gi, sname(st));
            if (!g->broken && cgn_fake_graph_node_count(raw) != (size_t)g->nnodes)
                FAIL("graph %d: the driver's graph has %zu nodes; the model %d", gi,
                     cgn_fake_graph_node_count(raw), g->nnodes);
        } else if (st != CGN_ERROR_DESTROYED) {
            FAIL("graph %d is destroyed but cgn_graph_raw says %s", gi, sname(st));
        }
    }
    /* nodes */
    for (int ni = 0; ni < M.nn; ni++) {
        const mnode *n = &M.n[ni];
        cgn_node_type t;
        cgn_status st = cgn_node_type_of(n->h, &t);
        int alive = cgn_node_is_alive(n->h);
        if (n->state != ST_STALE)
            live_handles++;
        if (n->state != ST_LIVE) {
            if (st != CGN_ERROR_DESTROYED || alive)
                FAIL("node %d is %s but cgn_node_type_of says %s, alive %d", ni,
                     n->state == ST_ZOMBIE ? "in a destroyed graph" : "destroyed", sname(st),
                     alive);
            continue;
        }
        if (!alive)
            FAIL("node %d: cgn_node_is_alive says 0", ni);
        if (n->broken) {
            if (st != CGN_ERROR_DRIVER)
                FAIL("node %d could not be located; cgn_node_type_of says %s", ni, sname(st));
            continue;
        }
        if (st != CGN_OK || (int)t != n->type)
            FAIL("node %d: cgn_node_type_of %s type %d; the model %d", ni, sname(st), (int)t,
                 n->type);
        cgn_graph *gh = NULL;
        if (cgn_node_graph(n->h, &gh) != CGN_OK || gh != M.g[n->graph].h)
            FAIL("node %d: cgn_node_graph differs from the model", ni);
        anydesc got;
        memset(&got, 0, sizeof got);
        st = node_get(n->type, 0, NULL, n->h, &got);
        if (st != CGN_OK)
            FAIL("node %d: get failed with %s", ni, sname(st));
        cmp_desc("get", ni, &n->d, &got);
        CUgraphNodeParams p;
        if (!cgn_fake_node_params(n->raw, &p))
            FAIL("node %d: the driver does not know the node", ni);
        cmp_fake("the driver's node", ni, &n->d, n->ctx, &p, got.h.payload);
        if (n->type == CGN_NODE_CHILD_GRAPH) {
            cgn_graph *emb = NULL;
            if (cgn_child_graph_node_embedded(n->h, &emb) != CGN_OK || emb != M.g[n->embedded].h)
                FAIL("node %d: cgn_child_graph_node_embedded differs from the model", ni);
            const mgraph *eg = &M.g[n->embedded];
            for (int i = 0; i < eg->nnodes; i++) {
                const mnode *c = &M.n[eg->nodes[i]];
                if (c->source < 0)
                    continue; /* added to the embedding afterwards */
                cgn_node *found = NULL;
                st = cgn_child_graph_node_find(n->h, M.n[c->source].h, &found);
                if (st != CGN_OK || found != c->h)
                    FAIL("node %d: cgn_child_graph_node_find of source node %d gives %s", ni,
                         c->source, sname(st));
            }
        }
    }
    /* executables */
    for (int ei = 0; ei < M.ne; ei++) {
        const mexec *e = M.e[ei];
        anydesc got;
        if (e->state != ST_LIVE) {
            cgn_status st = cgn_memset_exec_get(e->h, NULL, &got.m);
            if (st != CGN_ERROR_DESTROYED)
                FAIL("exec %d is destroyed but exec_get says %s", ei, sname(st));
            continue;
        }
        live_handles++;
        for (int si = 0; si < e->nsh; si++) {
            const mshadow *s = &e->sh[si];
            const mnode *n = &M.n[s->node];
            memset(&got, 0, sizeof got);
            cgn_status st = node_get(s->type, 1, e->h, n->h, &got);
            if (s->type == CGN_NODE_EMPTY)
                continue;
            if (n->state == ST_STALE) {
                if (st != CGN_ERROR_DESTROYED)
                    FAIL("exec %d node %d: the node is destroyed but exec_get says %s", ei, s->node,
                         sname(st));
                continue;
            }
            if (st != CGN_OK)
                FAIL("exec %d node %d: exec_get failed with %s", ei, s->node, sname(st));
            cmp_desc("exec_get", s->node, &s->d, &got);
            if (!addressable(s))
                continue;
            CUgraphNodeParams p;
            if (!cgn_fake_exec_node_params(e->raw, n->raw, &p))
                FAIL("exec %d node %d: the driver's executable does not have the node", ei,
                     s->node);
            cmp_fake("the driver's executable node", s->node, &s->d, s->ctx, &p, got.h.payload);
        }
    }
    if (cgn__handles_live() != live_handles)
        FAIL("cgn has %zu live handles; the model %zu", cgn__handles_live(), live_handles);
    check_owners(strict);
}

static void op_collect(void) {
    trace("collect");
    fault_begin(0);
    (void)cgn_collect();
    fault_end();
    int strict = !M.fired && M.nfifo == 0;
    check_all(strict);
}

/* ---- one input ------------------------------------------------------------------------------- */

static const int versions[8] = {13000, 12040, 12030, 12020, 12000, 13000, 12040, 13000};

static void cleanup(void) {
    trace("cleanup");
    M.armed = 0;
    cgn_fake_hold_completion(0);
    M.hold = 0;
    complete(SIZE_MAX);
    set_ctx(0);
    for (int ei = 0; ei < M.ne; ei++)
        if (M.e[ei]->state == ST_LIVE) {
            cgn_status st = cgn_exec_destroy(M.e[ei]->h);
            if (st != CGN_OK)
                FAIL("cleanup: cgn_exec_destroy(exec %d) returned %s", ei, sname(st));
            M.e[ei]->state = ST_STALE;
        }
    for (int gi = 0; gi < M.ng; gi++)
        if (M.g[gi].state == ST_LIVE && M.g[gi].root == gi) {
            cgn_status st = cgn_graph_destroy(M.g[gi].h);
            if (st != CGN_OK)
                FAIL("cleanup: cgn_graph_destroy(graph %d) returned %s", gi, sname(st));
            mark_tree(gi, ST_STALE);
        }
    for (int i = 0; i < M.nn; i++)
        M.n[i].state = ST_STALE;
    for (int i = 0; i < M.no; i++)
        while (M.o[i].refs > 0) {
            if (cgn_owner_release(M.o[i].o) != CGN_OK)
                FAIL("cleanup: cgn_owner_release failed");
            M.o[i].refs--;
        }
    (void)cgn_collect();
    if (M.perm_leak) {
        /* An injected cuGraphDestroy failure cgn could not report left a root's raw graph
         * behind: destroy it the way cgn meant to, so its references go (every legitimate
         * graph is gone by now, so whatever still lives at such an address is one of those). */
        for (int gi = 0; gi < M.ng; gi++)
            if (M.g[gi].root == gi && M.g[gi].raw != NULL)
                (void)cgn_fake_table()->cuGraphDestroy(M.g[gi].raw);
        (void)cgn_collect();
    }
    for (int i = 0; i < M.no; i++)
        if (M.o[i].released != 1)
            FAIL("cleanup: owner %d released %d times after everything was destroyed", i,
                 M.o[i].released);
    if (cgn_fake_live_objects() != 0)
        FAIL("cleanup: the fake still has %zu graphs, executables or user objects",
             cgn_fake_live_objects());
    if (!M.event_leak && cgn_fake_live_events() != 2)
        FAIL("cleanup: %zu events live (2 are the harness's)", cgn_fake_live_events());
    if (cgn__handles_live() != 0)
        FAIL("cleanup: cgn still has %zu live handles", cgn__handles_live());
    cgn_fake_table()->cuEventDestroy(events[0]);
    cgn_fake_table()->cuEventDestroy(events[1]);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
    rd r = {data, size, 0};
    memset(&M, 0, sizeof M);
    trace_len = 0;
    trace_buf[0] = '\0';
    fixtures_setup();
    uint8_t cfg = u8(&r);
    M.version = versions[cfg & 7];
    M.ctx = 0;
    M.natt = 1; /* id 0: no attachment */
    cgn_fault_set_version(M.version);
    /* cgn relies on cuGraphExecUpdate copying the graph's references (see the header). */
    cgn_fake_set_exec_update_refs(CGN_FAKE_EXEC_UPDATE_REFS_COPY);
    trace("input: driver %d", M.version);
    for (int step = 0; step < MAXOPS && r.at < r.n; step++) {
        uint8_t op = u8(&r);
        int was_armed = M.armed;
        if (op >= 240 && op < 254) { /* the node types added last (see the header) */
            if (op < 244 || op == 249 || op == 250)
                op_x_add(&r);
            else if (op < 246 || op == 252)
                op_x_node_update(&r);
            else if (op < 248 || op == 253)
                op_x_exec_update(&r);
            else
                op_x_query(&r);
            if (was_armed)
                M.armed = 0;
            check_all(0);
            M.fired = 0;
            continue;
        }
        if (op >= 254) { /* instantiation flags and uploads (see the header) */
            if (op == 254)
                op_instantiate_flags(&r);
            else
                op_upload(&r);
            if (was_armed)
                M.armed = 0;
            check_all(0);
            M.fired = 0;
            continue;
        }
        switch (op % 24) {
        case 0:
            op_graph_create();
            break;
        case 1:
        case 23:
            op_arm(&r);
            continue; /* applies to the next call */
        case 2:
        case 3:
        case 4:
        case 5:
            op_add(&r);
            break;
        case 6:
        case 7:
            op_node_update(&r);
            break;
        case 8:
            op_owner_create();
            break;
        case 9:
            op_owner_ref(&r);
            break;
        case 10:
            op_instantiate(&r);
            break;
        case 11:
        case 12:
            op_exec_update(&r);
            break;
        case 13:
            op_exec_refresh(&r);
            break;
        case 14:
            op_enable(&r);
            break;
        case 15:
            op_launch(&r);
            break;
        case 16:
            op_hold(&r);
            break;
        case 17:
            op_complete(&r);
            break;
        case 18:
            op_node_destroy(&r);
            break;
        case 19:
            op_graph_destroy(&r);
            break;
        case 20:
            op_exec_destroy(&r);
            break;
        case 21:
            op_collect();
            M.fired = 0;
            continue; /* checked */
        default:
            if (op & 0x80)
                op_exec_raw(&r);
            else if (op & 0x40)
                op_misuse(&r);
            else
                op_context(&r);
            break;
        }
        if (was_armed)
            M.armed = 0; /* an op that made no call drops the fault too */
        check_all(0);
        M.fired = 0;
    }
    M.fired = 0;
    cleanup();
    cgn_fault_disarm();
    cgn_driver_install(NULL);
    cgn_fake_reset();
    return 0;
}
