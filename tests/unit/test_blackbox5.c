/* A fifth black-box round, written from the documentation alone (cgn.h, cgn_kernel.h,
 * docs/nodes.md, docs/ownership.md, docs/design.md, docs/adopt.md, generated/docs/nodes.md):
 * kernel-argument updates in an update loop, at the definition and the executable level, now
 * that small unowned arguments are written into the node's own argument block. Every test
 * checks what cgn reports (cgn_kernel_node_get / cgn_kernel_exec_get) and what each launch
 * passes to the kernel (fake kernels of the test's own layouts record their arguments) against
 * a model the test keeps: executables made during a loop and refreshed from it, nodes changed
 * behind cgn's back, child-graph embeddings (replaced too), conditional bodies, executables
 * without their graph, adopted graphs whose argument copies share storage, refused setters at
 * every position of a loop, pointers a get returned used as values, blocks two versions shared
 * and the spares they leave, owned and unowned updates interleaved (owners released once),
 * updates refused before the driver, the kernel's owner and grid mixed in, kernel changes of
 * layout mid-loop, and the two levels in one loop and on two threads. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>
#include <pthread.h>

#include <cmocka.h>

#include "blackbox_common.h"
#include "cgn_test_env.h"
#include "fake_driver.h"
#include "runtime.h"

#include "blackbox_layouts.h"

/* ---- the test's own layouts (blackbox_layouts.h: what each launch passes) -------------------- */

/* Every size the brief names, the 24-byte one too large to be written in place. */
static layout wide = {"bb5_wide", 7, {1, 2, 4, 8, 12, 16, 24}, {0}, NULL};
/* Only arguments of at most 16 bytes: a whole list may be written in place. */
static layout small = {"bb5_small", 6, {1, 2, 4, 8, 12, 16}, {0}, NULL};
/* Same-sized arguments, so that values can move between indices. */
static layout pairs = {"bb5_pairs", 8, {8, 8, 8, 4, 4, 16, 16, 2}, {0}, NULL};
/* Another layout to switch kernels to. */
static layout other = {"bb5_other", 3, {4, 8, 16}, {0}, NULL};
/* Two pointers (owned in places) and a scalar. */
static layout ptrs = {"bb5_ptrs", 3, {8, 8, 4}, {0}, NULL};

static void register_layouts(void) {
    register_layout(&wide);
    register_layout(&small);
    register_layout(&pairs);
    register_layout(&other);
    register_layout(&ptrs);
}

/* ---- values ---------------------------------------------------------------------------------- */

static uint32_t seed_next = 1;

/* A seed no earlier update used (edits of one update use seed + 0..7). */
static uint32_t fresh_seed(void) {
    seed_next += CGN_MAX_ARG_EDITS + 1;
    return seed_next;
}

static void vals_args(const vals *v, const layout *l, cgn_arg *out) {
    for (uint32_t i = 0; i < l->n; i++)
        out[i] = (cgn_arg){v->b[i], l->sizes[i], NULL};
}

/* ---- a node at one level, with the values the test expects it to have ------------------------ */

typedef struct target {
    cgn_test_env *env;
    cgn_graph *g; /* launched (through a fresh executable) to see the definition run */
    cgn_exec *x;  /* NULL: the definition */
    cgn_node *n;
    const layout *l;
    const layout *alt; /* the layout K_SWITCH moves to (and back) */
    uint32_t grid_x;   /* the grid's x dimension (the others stay 1) */
    vals model;
} target;

static target make_target(cgn_test_env *env, cgn_graph *g, cgn_exec *x, cgn_node *n,
                          const layout *l, const vals *model) {
    target t = {env, g, x, n, l, &other, 1, *model};
    return t;
}

static cgn_node *add_kernel(cgn_graph *g, const layout *l, const vals *v, cgn_owner *kernel_owner) {
    cgn_arg args[MAXA];
    vals_args(v, l, args);
    cgn_kernel_desc d = bb_kernel_desc(l->k, args, l->n);
    d.kernel_owner = kernel_owner;
    cgn_node *n;
    OK(cgn_graph_add_kernel(g, NULL, 0, &d, &n));
    return n;
}

/* A graph with one kernel node of layout l (its kernel's owner kernel_owner), its
 * definition-level target in *t. */
static cgn_graph *owned_kernel_graph(cgn_test_env *env, const layout *l, cgn_owner *kernel_owner,
                                     target *t) {
    cgn_graph *g = bb_graph_new();
    vals v;
    fill_vals(&v, l, fresh_seed());
    cgn_node *n = add_kernel(g, l, &v, kernel_owner);
    *t = make_target(env, g, NULL, n, l, &v);
    return g;
}

static cgn_graph *one_node_graph(cgn_test_env *env, const layout *l, target *t) {
    return owned_kernel_graph(env, l, NULL, t);
}

/* The same node in executable x, which must have the values t has now. */
static target at_exec(const target *t, cgn_exec *x) {
    target e = *t;
    e.x = x;
    return e;
}

static cgn_status update_at(cgn_exec *x, cgn_node *n, const cgn_kernel_update *u) {
    return x ? cgn_kernel_exec_update(x, n, u) : cgn_kernel_node_update(n, u);
}

static void get_at(cgn_exec *x, cgn_node *n, cgn_kernel_desc *d) {
    OK(x ? cgn_kernel_exec_get(x, n, d) : cgn_kernel_node_get(n, d));
}

/* What the get of the target's level reports is the model. */
static void check_get(const target *t) {
    cgn_kernel_desc d;
    get_at(t->x, t->n, &d);
    /* The kernel as given, or (adopted) as the driver reports it: its function. */
    if (d.kernel.kernel != t->l->k.kernel &&
        (d.kernel.kernel != NULL || d.kernel.function != t->l->f))
        fail_msg("%s get: the node does not launch %s", t->x ? "exec" : "definition", t->l->name);
    assert_int_equal(d.grid.x, t->grid_x);
    assert_int_equal(d.num_args, t->l->n);
    for (uint32_t i = 0; i < t->l->n; i++) {
        if (d.args[i].size != t->l->sizes[i] ||
            memcmp(d.args[i].value, t->model.b[i], t->l->sizes[i]) != 0)
            fail_msg("%s get: argument %u (%zu bytes) is not the expected value",
                     t->x ? "exec" : "definition", i, t->l->sizes[i]);
    }
}

/* Launches x, or g through an executable made for it, with an empty log. */
static void run(cgn_test_env *env, cgn_exec *x, cgn_graph *g) {
    launch_count = 0;
    if (x) {
        OK(env->backend->launch(env, x));
        return;
    }
    cgn_exec *e = bb_instantiate(g);
    OK(env->backend->launch(env, e));
    OK(cgn_exec_destroy(e));
}

/* The last run launched ts[0..count) in this order, each with its model's values. */
static void expect_log(const target *const *ts, size_t count) {
    assert_int_equal(launch_count, count);
    for (size_t k = 0; k < count; k++) {
        const launch_rec *r = &launch_log[k];
        assert_ptr_equal(r->who, ts[k]->l);
        assert_int_equal(r->grid_x, ts[k]->grid_x);
        for (uint32_t i = 0; i < ts[k]->l->n; i++)
            if (memcmp(r->v.b[i], ts[k]->model.b[i], ts[k]->l->sizes[i]) != 0)
                fail_msg("launch %zu (%s): argument %u (%zu bytes) is not the expected value", k,
                         ts[k]->x ? "exec" : "definition", i, ts[k]->l->sizes[i]);
    }
}

/* A launch of the target's level (a graph of that one kernel node) passes its values. */
static void check_run(const target *t) {
    run(t->env, t->x, t->g);
    expect_log(&t, 1);
}

/* The target's get and a launch of its level agree with it. */
static void check(const target *t) {
    check_get(t);
    check_run(t);
}

/* ---- updates of the loop --------------------------------------------------------------------- */

enum {
    K_WHOLE, /* cgn_kernel_update_set_args, every argument */
    K_ONE,   /* one edit, index base */
    K_TWO,   /* two edits, base and base + 1 */
    K_TWICE, /* index base edited twice: the later edit wins */
    K_EIGHT, /* CGN_MAX_ARG_EDITS edits from base on, the last one base again */
    K_COUNT,
    K_SWITCH = K_COUNT, /* a kernel of t->alt's layout, with one edit of the new list */
};

/* Applies update `kind` to t at its level, built from seed; *next is what t should have
 * afterwards. Deterministic, so a refused update can be tried again as it was. */
static cgn_status loop_update(const target *t, int kind, uint32_t base, uint32_t seed, vals *next) {
    static const uint32_t edit_counts[K_COUNT + 1] = {0, 1, 2, 2, CGN_MAX_ARG_EDITS, 1};
    const layout *l = kind == K_SWITCH ? t->alt : t->l;
    vals src[CGN_MAX_ARG_EDITS];
    cgn_arg args[MAXA];
    cgn_kernel_update u = CGN_KERNEL_UPDATE_INIT;
    *next = t->model;
    if (kind == K_WHOLE || kind == K_SWITCH) {
        fill_vals(next, l, seed);
        vals_args(next, l, args);
        if (kind == K_WHOLE)
            cgn_kernel_update_set_args(&u, args, l->n);
        else
            cgn_kernel_update_set_kernel(&u, l->k, NULL, args, l->n);
    }
    uint32_t count = edit_counts[kind];
    for (uint32_t k = 0; k < count; k++) {
        uint32_t i = (base + k) % l->n;
        if (kind == K_TWICE || (kind == K_EIGHT && k == count - 1))
            i = base % l->n;
        fill_vals(&src[k], l, seed + 1 + k);
        cgn_kernel_update_set_arg(&u, i, src[k].b[i], l->sizes[i], NULL);
        memcpy(next->b[i], src[k].b[i], ASZ);
    }
    return update_at(t->x, t->n, &u);
}

/* t after update `kind` was accepted, with values next. */
static void applied(target *t, int kind, const vals *next) {
    t->model = *next;
    if (kind == K_SWITCH) {
        const layout *was = t->l;
        t->l = t->alt;
        t->alt = was;
    }
}

static void advance(target *t, int kind, uint32_t base) {
    vals next;
    cgn_status st = loop_update(t, kind, base, fresh_seed(), &next);
    if (st != CGN_OK)
        fail_msg("update kind %d base %u (%s): %s (%s)", kind, base, t->x ? "exec" : "definition",
                 cgn_status_name(st), cgn_last_error());
    applied(t, kind, &next);
}

/* A parameter-info query: cgn probes indices until the driver refuses one, so a failure
 * injected into the probe past the last argument is the driver's own answer. */
static int is_param_probe(cgn_fault_entry which) {
    return which == CGN_FAULT_cuKernelGetParamInfo || which == CGN_FAULT_cuFuncGetParamInfo;
}

/* The same update refused by the driver: the nth driver call fails, n = 1, 2, ... until the
 * failure lands on the setter. After each refusal the node's get shows the model (all or
 * nothing); the caller checks launches. A failure injected into cgn's probe past a kernel's
 * last argument is the driver's own answer, so that update applies; a kernel switch then runs
 * the other way, and each direction goes on from the call after its last try. */
static void refuse(target *t, int kind, uint32_t base) {
    uint32_t seed = fresh_seed();
    const layout *first = t->l;
    long nth_for[2] = {1, 1};
    for (int tries = 0; tries < 48; tries++) {
        long nth = nth_for[t->l != first]++;
        vals next;
        bb_fault_arm(nth, CUDA_ERROR_INVALID_VALUE);
        cgn_status st = loop_update(t, kind, base, seed, &next);
        cgn_fault_entry which;
        int hit = bb_fault_done(&which);
        if (!hit)
            fail_msg("update kind %d succeeded before driver call %ld failed", kind, nth);
        if (st == CGN_OK && is_param_probe(which)) {
            applied(t, kind, &next);
            check_get(t);
            continue;
        }
        if (st == CGN_OK)
            fail_msg("update kind %d returned CGN_OK though driver call %ld (%s) failed", kind, nth,
                     cgn_fault_entry_name(which));
        check_get(t);
        if (cgn_fault_is_setter(which))
            return;
    }
    fail_msg("update kind %d: no try reached the setter", kind);
}

/* Both levels' targets (any NULL skipped) are checked. */
static void check_all(const target *const *ts, size_t count) {
    for (size_t i = 0; i < count; i++)
        if (ts[i])
            check(ts[i]);
}

/* ---- executables made during a definition loop, refreshed, and the loop going on ------------- */

/* Executables instantiated at several points of a definition-level loop keep the values of their
 * instantiation (cgn.h: "The executable keeps its own copy of every node's parameters";
 * cgn_kernel_node_update: "existing executables keep their parameters"). cgn_exec_update_from_graph
 * gives one the definition's current values; after it, updates at either level stay on their
 * side, whichever side updates first; cgn_node_refresh mid-loop reads back what cgn set. */
static void test_execs_made_in_a_loop_keep_their_values(void **state) {
    cgn_test_env *env = *state;
    register_layouts();
    const layout *ls[2] = {&wide, &small};
    for (int li = 0; li < 2; li++) {
        target d;
        cgn_graph *g = one_node_graph(env, ls[li], &d);
        target e[4];
        for (uint32_t i = 0; i < 16; i++) {
            advance(&d, (int)(i % K_COUNT), i);
            if (i % 4 == 3)
                e[i / 4] = at_exec(&d, bb_instantiate(g));
        }
        check(&d);
        for (int k = 0; k < 4; k++)
            check(&e[k]);

        /* e[0]: refreshed, then both sides go on; the definition first. */
        OK(cgn_exec_update_from_graph(e[0].x, g));
        e[0].model = d.model;
        check(&e[0]);
        for (uint32_t i = 0; i < 10; i++) {
            advance(&d, (int)(i % K_COUNT), i + 1);
            advance(&e[0], (int)((i + 2) % K_COUNT), i);
            check(&d);
            check(&e[0]);
        }

        /* e[1]: a block of its own first (exec updates), refreshed (the definition's again), then
         * exec updates alone: the definition must not see them. */
        for (uint32_t i = 0; i < 3; i++)
            advance(&e[1], K_ONE + (int)i, i);
        OK(cgn_exec_update_from_graph(e[1].x, g));
        e[1].model = d.model;
        for (uint32_t i = 0; i < 10; i++) {
            advance(&e[1], (int)(i % K_COUNT), i + 3);
            check_get(&d);
            check(&e[1]);
        }
        check(&d);

        /* e[2]: refreshed, then definition updates alone: e[2] must not see them. */
        OK(cgn_exec_update_from_graph(e[2].x, g));
        e[2].model = d.model;
        for (uint32_t i = 0; i < 10; i++) {
            advance(&d, (int)(i % K_COUNT), i + 5);
            check_get(&e[2]);
            check(&d);
        }
        check(&e[2]);

        /* A refresh of the node mid-loop reads back what cgn gave the driver. */
        OK(cgn_node_refresh(d.n));
        check(&d);
        for (uint32_t i = 0; i < 6; i++) {
            advance(&d, (int)(i % K_COUNT), i);
            if (i == 2)
                OK(cgn_node_refresh(d.n));
            check(&d);
        }

        /* Nothing leaked across: every executable still has its own values. */
        for (int k = 0; k < 4; k++) {
            check(&e[k]);
            OK(cgn_exec_destroy(e[k].x));
        }
        check(&d);
        OK(cgn_graph_destroy(g));
    }
}

/* ---- nodes changed behind cgn's back --------------------------------------------------------- */

/* Sets every argument of t's node to `v` with a raw driver call on cgn_node_raw, behind cgn's
 * back (the same kernel, grid and block). */
static void raw_set_args(const target *t, const vals *v) {
    CUgraphNode raw;
    OK(cgn_node_raw(t->n, &raw));
    void *params[MAXA];
    for (uint32_t i = 0; i < t->l->n; i++)
        params[i] = (void *)v->b[i];
    CUDA_KERNEL_NODE_PARAMS_v2 p;
    memset(&p, 0, sizeof p);
    p.kern = t->l->k.kernel;
    p.gridDimX = t->grid_x;
    p.gridDimY = p.gridDimZ = 1;
    p.blockDimX = p.blockDimY = p.blockDimZ = 1;
    p.kernelParams = params;
    CU_OK(t->env->backend->driver(t->env)->cuGraphKernelNodeSetParams(raw, &p));
}

/* A node changed with a raw driver call in the loop's steady state (adopt.md: "fields an update
 * does not set keep cgn's value", so an argument edit without a refresh brings cgn's values of
 * the other arguments back; after cgn_node_refresh "cgn's record follows the driver again", so
 * they keep the raw values): both, at every kind of loop update, with refusals. */
static void test_raw_change_then_loop(void **state) {
    cgn_test_env *env = *state;
    register_layouts();
    const layout *ls[2] = {&wide, &small};
    for (int li = 0; li < 2; li++) {
        target d;
        cgn_graph *g = one_node_graph(env, ls[li], &d);
        for (int kind = 0; kind < K_COUNT; kind++) {
            advance(&d, (int)((kind + 1) % K_COUNT), 0); /* the steady state */
            advance(&d, K_ONE, 1);
            vals raw;
            fill_vals(&raw, d.l, fresh_seed());
            raw_set_args(&d, &raw);
            advance(&d, kind, 2); /* no refresh: cgn's values of the rest come back */
            check(&d);
            raw_set_args(&d, &raw);
            OK(cgn_node_refresh(d.n));
            d.model = raw;
            check(&d);
            refuse(&d, kind, 3);
            check(&d);
            advance(&d, kind, 4); /* after the refresh: the raw values of the rest stay */
            check(&d);
        }
        OK(cgn_graph_destroy(g));
    }
}

/* ---- child-graph embeddings ------------------------------------------------------------------ */

/* Runs the parent at a level (x NULL: the definition) and expects its two embedded copies. */
static void check_parent(const target *a, const target *b) {
    const target *ts[2] = {a, b};
    check_get(a);
    check_get(b);
    run(a->env, a->x, a->g);
    expect_log(ts, 2);
}

/* A graph embedded twice (cgn.h: "CUDA's clone of the graph given at add ... updates there affect
 * only this embedding"; nodes.md: "the source graph is not affected"). The source's node, each
 * embedded copy and an executable of the parent are updated in loops, with refusals: every other
 * copy keeps its values. */
static void test_child_embeddings_keep_their_values(void **state) {
    cgn_test_env *env = *state;
    register_layouts();
    const layout *ls[2] = {&wide, &small};
    for (int li = 0; li < 2; li++) {
        target s;
        cgn_graph *src = one_node_graph(env, ls[li], &s);
        for (uint32_t i = 0; i < 4; i++) /* the source's node in the loop's steady state */
            advance(&s, (int)(i % K_COUNT), i);
        cgn_graph *parent = bb_graph_new();
        cgn_node *c1 = add_child(parent, src), *c2 = add_child(parent, src);
        target p1 = make_target(env, parent, NULL, bb_find(c1, s.n), s.l, &s.model);
        target p2 = make_target(env, parent, NULL, bb_find(c2, s.n), s.l, &s.model);
        cgn_exec *pe = bb_instantiate(parent);
        target e1 = at_exec(&p1, pe), e2 = at_exec(&p2, pe);
        check_parent(&p1, &p2);

        for (uint32_t i = 0; i < 10; i++) { /* the source */
            advance(&s, (int)(i % K_COUNT), i);
            if (i % 3 == 1)
                refuse(&s, (int)((i + 1) % K_COUNT), i);
            check(&s);
            check_parent(&p1, &p2);
        }
        for (uint32_t i = 0; i < 10; i++) { /* the first embedding */
            advance(&p1, (int)(i % K_COUNT), i + 1);
            if (i % 3 == 2)
                refuse(&p1, (int)((i + 3) % K_COUNT), i);
            check_parent(&p1, &p2);
            check(&s);
        }
        for (uint32_t i = 0; i < 10; i++) { /* the second embedding in the parent's executable */
            advance(&e2, (int)(i % K_COUNT), i + 2);
            if (i % 3 == 0)
                refuse(&e2, (int)((i + 4) % K_COUNT), i);
            check_parent(&e1, &e2);
            check_parent(&p1, &p2);
        }
        for (uint32_t i = 0; i < 6; i++) { /* both levels of the parent in one loop */
            advance(&p2, (int)(i % K_COUNT), i);
            advance(&e1, (int)((i + 1) % K_COUNT), i);
            check_parent(&p1, &p2);
            check_parent(&e1, &e2);
        }
        check(&s);
        OK(cgn_exec_destroy(pe));
        OK(cgn_graph_destroy(parent));
        check(&s);
        OK(cgn_graph_destroy(src));
    }
}

/* A child graph replaced mid-loop, in one executable (cgn_child_graph_exec_update: the
 * executable "takes the new source's current versions for every node of that executable's
 * embedding ... the source may be changed or destroyed afterwards", ownership.md) and in the
 * definition (nodes.md: "updating the node replaces the copy with a copy of another graph"):
 * loops on the new source, on the executable's copy and on the new embedding each leave the
 * others as they were; then a whole-graph refresh and the loops again. */
static void test_child_replaced_mid_loop(void **state) {
    cgn_test_env *env = *state;
    register_layouts();
    const layout *ls[2] = {&wide, &small};
    for (int li = 0; li < 2; li++) {
        target s1, s2;
        cgn_graph *src1 = one_node_graph(env, ls[li], &s1);
        cgn_graph *src2 = one_node_graph(env, ls[li], &s2);
        for (uint32_t i = 0; i < 3; i++) {
            advance(&s1, (int)(i % K_COUNT), i);
            advance(&s2, (int)((i + 1) % K_COUNT), i);
        }
        cgn_graph *parent = bb_graph_new();
        cgn_node *c = add_child(parent, src1);
        target p = make_target(env, parent, NULL, bb_find(c, s1.n), s1.l, &s1.model);
        cgn_exec *pe = bb_instantiate(parent);
        target e = at_exec(&p, pe);
        for (uint32_t i = 0; i < 3; i++)
            advance(&e, (int)(i % K_COUNT), i); /* a block of the executable's own */

        cgn_child_graph_update cu = CGN_CHILD_GRAPH_UPDATE_INIT;
        cgn_child_graph_update_set_graph(&cu, src2);
        OK(cgn_child_graph_exec_update(pe, c, &cu));
        e.model = s2.model;
        const target *all[4] = {&s1, &s2, &p, &e};
        check_all(all, 4);
        for (uint32_t i = 0; i < 10; i++) {
            advance(&s2, (int)(i % K_COUNT), i);      /* the source the executable took from */
            advance(&e, (int)((i + 2) % K_COUNT), i); /* the executable's copy of it */
            if (i % 4 == 1)
                refuse(i % 8 == 1 ? &s2 : &e, (int)((i + 3) % K_COUNT), i);
            check_all(all, 4);
        }

        /* The definition embeds src2 too. The executable's node handle was the old
         * embedding's: no longer addressable (nodes.md), but the executable runs its copy. */
        OK(cgn_child_graph_node_update(c, &cu));
        p = make_target(env, parent, NULL, bb_find(c, s2.n), s2.l, &s2.model);
        const target *defs[3] = {&s1, &s2, &p};
        for (uint32_t i = 0; i < 10; i++) {
            advance(&p, (int)(i % K_COUNT), i);
            advance(&s2, (int)((i + 3) % K_COUNT), i);
            if (i % 4 == 2)
                refuse(i % 8 == 2 ? &p : &s2, (int)((i + 1) % K_COUNT), i);
            check_all(defs, 3);
            check_run(&e);
        }

        /* A whole-graph refresh: the executable runs the new embedding's values, and its copy
         * of the new embedded node is updated through that node's handle. */
        OK(cgn_exec_update_from_graph(pe, parent));
        e = at_exec(&p, pe);
        check_all(all, 4);
        for (uint32_t i = 0; i < 8; i++) {
            advance(i % 2 ? &p : &e, (int)(i % K_COUNT), i);
            check_all(all, 4);
        }
        OK(cgn_exec_destroy(pe));
        OK(cgn_graph_destroy(parent));
        OK(cgn_graph_destroy(src1));
        OK(cgn_graph_destroy(src2));
    }
}

/* A whole-graph refresh the driver refuses, at each of its driver calls in turn (cgn.h: "the
 * executable is then unchanged"), between loops at both levels: the executable keeps its own
 * values and goes on updating them without touching the definition, until a refresh succeeds. */
static void test_refused_refresh_mid_loop(void **state) {
    cgn_test_env *env = *state;
    register_layouts();
    target d;
    cgn_graph *g = one_node_graph(env, &small, &d);
    cgn_exec *x = bb_instantiate(g);
    target e = at_exec(&d, x);
    for (uint32_t i = 0; i < 3; i++) {
        advance(&d, (int)(i % K_COUNT), i);
        advance(&e, (int)((i + 1) % K_COUNT), i);
    }
    for (long nth = 1;; nth++) {
        assert_true(nth < 64);
        bb_fault_arm(nth, CUDA_ERROR_INVALID_VALUE);
        cgn_status st = cgn_exec_update_from_graph(x, g);
        int hit = bb_fault_done(NULL);
        if (!hit) {
            OK(st);
            e.model = d.model;
            break;
        }
        assert_int_not_equal(st, CGN_OK);
        check(&e);
        check(&d);
        advance(&e, (int)(nth % K_COUNT), (uint32_t)nth);
        advance(&d, (int)((nth + 2) % K_COUNT), (uint32_t)nth);
        check(&e);
        check(&d);
    }
    for (uint32_t i = 0; i < 6; i++) {
        advance(i % 2 ? &d : &e, (int)(i % K_COUNT), i);
        check(&d);
        check(&e);
    }
    destroy_exec_graph(x, g);
}

/* ---- conditional bodies and sibling executables ---------------------------------------------- */

/* Kernel nodes in the body of an IF node whose condition is 1 at every launch (nodes.md: body
 * nodes are "updated at the definition level ... a new instantiation ... runs them", and "in
 * one executable like any other node"; "An executable copies every body's nodes at
 * instantiation"): loops at both levels, with refusals, each run their own values. */
static void test_conditional_body_loops(void **state) {
    cgn_test_env *env = *state;
    register_layouts();
    const layout *ls[2] = {&wide, &small};
    for (int li = 0; li < 2; li++) {
        cgn_graph *g = bb_graph_new();
        cgn_conditional_desc c = CGN_CONDITIONAL_DESC_INIT;
        c.type = 0; /* IF */
        c.handle_default = 1;
        c.handle_assign = 1;
        cgn_node *cond;
        OK(cgn_graph_add_conditional(g, NULL, 0, &c, &cond));
        cgn_graph *body;
        OK(cgn_conditional_node_body(cond, 0, &body));
        vals v;
        fill_vals(&v, ls[li], fresh_seed());
        target d = make_target(env, g, NULL, add_kernel(body, ls[li], &v, NULL), ls[li], &v);
        for (uint32_t i = 0; i < 4; i++)
            advance(&d, (int)(i % K_COUNT), i);
        check(&d);
        /* A graph with a conditional node has one executable at a time (nodes.md). */
        target e = at_exec(&d, bb_instantiate(g));
        for (uint32_t i = 0; i < 12; i++) {
            advance(&d, (int)(i % K_COUNT), i);
            advance(&e, (int)((i + 2) % K_COUNT), i);
            if (i % 3 == 1)
                refuse(i % 2 ? &d : &e, (int)((i + 1) % K_COUNT), i);
            check_get(&d);
            check(&e);
        }
        OK(cgn_exec_destroy(e.x));
        check(&d);
        OK(cgn_graph_destroy(g));
    }
}

/* Two executables made from one version, the graph then destroyed: their copies start out as
 * one block that only they share, and each one's loop leaves the other's values alone (cgn.h:
 * the executable keeps "its own copy of every node's parameters"). */
static void test_sibling_executables_without_their_graph(void **state) {
    cgn_test_env *env = *state;
    register_layouts();
    const layout *ls[2] = {&wide, &small};
    for (int li = 0; li < 2; li++)
        for (int who = 0; who < 2; who++) {
            target d;
            cgn_graph *g = one_node_graph(env, ls[li], &d);
            for (uint32_t i = 0; i < 3; i++)
                advance(&d, (int)(i % K_COUNT), i);
            target e[2] = {at_exec(&d, bb_instantiate(g)), at_exec(&d, bb_instantiate(g))};
            OK(cgn_graph_destroy(g));
            for (uint32_t i = 0; i < 10; i++) {
                advance(&e[(uint32_t)who ^ (i / 5)], (int)(i % K_COUNT), i);
                if (i % 3 == 2)
                    refuse(&e[(uint32_t)who ^ 1u ^ (i / 5)], (int)((i + 1) % K_COUNT), i);
                check(&e[0]);
                check(&e[1]);
            }
            OK(cgn_exec_destroy(e[0].x));
            for (uint32_t i = 0; i < 4; i++) {
                advance(&e[1], (int)(i % K_COUNT), i);
                check(&e[1]);
            }
            OK(cgn_exec_destroy(e[1].x));
        }
}

/* ---- adopted graphs -------------------------------------------------------------------------- */

#define ADOPTED 6

/* Runs a graph of several kernel nodes at a level and expects ts[0..count)'s values, in this
 * order. */
static void check_nodes(target *const *ts, size_t count) {
    for (size_t j = 0; j < count; j++)
        check_get(ts[j]);
    run(ts[0]->env, ts[0]->x, ts[0]->g);
    expect_log((const target *const *)ts, count);
}

/* The same for the ADOPTED nodes of an adopted chain. */
static void check_chain(target *const *ts) {
    check_nodes(ts, ADOPTED);
}

/* A raw graph of `count` kernel nodes of layout l in a chain, built through the driver table
 * with the values v[j], adopted (borrowed: the caller destroys *raw_out after the cgn graph);
 * t[j] is node j at the definition level. */
static cgn_graph *adopted_chain(cgn_test_env *env, const layout *l, size_t count, target *t,
                                CUgraph *raw_out) {
    const cgn_driver_table *drv = env->backend->driver(env);
    CU_OK(drv->cuGraphCreate(raw_out, 0));
    vals v[ADOPTED];
    assert_true(count <= ADOPTED);
    CUgraphNode prev = NULL;
    for (size_t j = 0; j < count; j++) {
        fill_vals(&v[j], l, fresh_seed());
        void *params[MAXA];
        for (uint32_t i = 0; i < l->n; i++)
            params[i] = v[j].b[i];
        CUDA_KERNEL_NODE_PARAMS_v2 p;
        memset(&p, 0, sizeof p);
        p.kern = l->k.kernel;
        p.gridDimX = p.gridDimY = p.gridDimZ = 1;
        p.blockDimX = p.blockDimY = p.blockDimZ = 1;
        p.kernelParams = params;
        CUgraphNode node;
        CU_OK(drv->cuGraphAddKernelNode(&node, *raw_out, prev ? &prev : NULL, prev ? 1 : 0, &p));
        prev = node;
    }
    cgn_graph *g;
    OK(cgn_graph_adopt(*raw_out, 0, &g));
    cgn_node *nodes[ADOPTED];
    size_t listed = ADOPTED;
    OK(cgn_graph_nodes(g, nodes, &listed));
    assert_int_equal(listed, count);
    for (size_t j = 0; j < count; j++)
        t[j] = make_target(env, g, NULL, nodes[j], l, &v[j]);
    return g;
}

/* A chain of ADOPTED kernel nodes built through the driver table and adopted (adopt.md: "the
 * kernel nodes' argument copies are cut from a few shared blocks ... each copy
 * reference-counted on its own"). Each node is updated in a loop at both levels, right after
 * adoption, after an executable was made, and in an executable instantiated outside cgn and
 * adopted (cgn_exec_adopt), with refusals: every other node, at every level, keeps its values. */
static void test_adopted_nodes_sharing_storage(void **state) {
    cgn_test_env *env = *state;
    register_layouts();
    const cgn_driver_table *drv = env->backend->driver(env);
    const layout *ls[2] = {&wide, &small};
    for (int li = 0; li < 2; li++) {
        CUgraph raw;
        target d[ADOPTED], e[ADOPTED], a[ADOPTED];
        target *dp[ADOPTED], *ep[ADOPTED], *ap[ADOPTED];
        cgn_graph *g = adopted_chain(env, ls[li], ADOPTED, d, &raw);
        for (size_t j = 0; j < ADOPTED; j++)
            dp[j] = &d[j];
        check_chain(dp);
        for (uint32_t i = 0; i < 12; i++) { /* before any executable shares the copies */
            advance(&d[i % ADOPTED], (int)(i % K_COUNT), i);
            if (i % 4 == 1)
                refuse(&d[(i + 2) % ADOPTED], (int)((i + 1) % K_COUNT), i);
            check_chain(dp);
        }
        cgn_exec *x = bb_instantiate(g);
        /* The raw graph has what cgn gave the driver: an executable made from it and adopted. */
        CUgraphExec rx;
        CU_OK(drv->cuGraphInstantiateWithFlags(&rx, raw, 0));
        cgn_exec *ax;
        OK(cgn_exec_adopt(rx, g, 0, &ax));
        for (size_t j = 0; j < ADOPTED; j++) {
            e[j] = at_exec(&d[j], x);
            a[j] = at_exec(&d[j], ax);
            ep[j] = &e[j];
            ap[j] = &a[j];
        }
        check_chain(ap);
        for (uint32_t i = 0; i < 24; i++) { /* every level, different nodes and kinds */
            advance(&d[i % ADOPTED], (int)(i % K_COUNT), i);
            advance(&e[(i + 1) % ADOPTED], (int)((i + 2) % K_COUNT), i);
            advance(&a[(i + 2) % ADOPTED], (int)((i + 3) % K_COUNT), i);
            if (i % 5 == 2)
                refuse(&d[(i + 3) % ADOPTED], (int)((i + 4) % K_COUNT), i);
            if (i % 7 == 3)
                refuse(&e[(i + 2) % ADOPTED], (int)((i + 1) % K_COUNT), i);
            if (i % 6 == 4)
                refuse(&a[(i + 1) % ADOPTED], (int)(i % K_COUNT), i);
            check_chain(dp);
            check_chain(ep);
            check_chain(ap);
        }
        OK(cgn_exec_destroy(ax));
        CU_OK(drv->cuGraphExecDestroy(rx));
        OK(cgn_exec_destroy(x));
        OK(cgn_graph_destroy(g));
        CU_OK(drv->cuGraphDestroy(raw));
    }
}

/* Nodes of an adopted graph destroyed mid-loop (adopt.md: "cgn_node_destroy of an adopted node
 * releases its copy and record at once"; cgn.h: executables made before "still run their
 * copy"): the other nodes' loops at both levels go on with their own values, and the
 * executable still runs its copy of the node destroyed after it was made. */
static void test_adopted_nodes_destroyed_mid_loop(void **state) {
    cgn_test_env *env = *state;
    register_layouts();
    CUgraph raw;
    target d[4];
    cgn_graph *g = adopted_chain(env, &small, 4, d, &raw);
    for (uint32_t i = 0; i < 8; i++)
        advance(&d[i % 4], (int)(i % K_COUNT), i);
    OK(cgn_node_destroy(d[1].n));
    target *left[3] = {&d[0], &d[2], &d[3]};
    for (uint32_t i = 0; i < 9; i++) {
        advance(left[i % 3], (int)(i % K_COUNT), i);
        if (i % 3 == 1)
            refuse(left[(i + 1) % 3], (int)((i + 2) % K_COUNT), i);
        check_nodes(left, 3);
    }
    cgn_exec *x = bb_instantiate(g);
    target e[3];
    target *ex[3];
    for (int j = 0; j < 3; j++) {
        e[j] = at_exec(left[j], x);
        ex[j] = &e[j];
    }
    OK(cgn_node_destroy(d[3].n)); /* the executable keeps running its copy */
    target *still[2] = {&d[0], &d[2]};
    for (uint32_t i = 0; i < 10; i++) {
        advance(still[i % 2], (int)(i % K_COUNT), i);
        advance(ex[i % 2], (int)((i + 1) % K_COUNT), i);
        if (i % 4 == 3)
            refuse(ex[(i + 1) % 2], (int)(i % K_COUNT), i);
        check_nodes(still, 2);
        check_get(ex[0]);
        check_get(ex[1]);
        run(env, x, NULL);
        expect_log((const target *const *)ex, 3);
    }
    destroy_exec_graph(x, g);
    CU_OK(env->backend->driver(env)->cuGraphDestroy(raw));
}

/* ---- refused setters at every position of a loop --------------------------------------------- */

/* A setter the driver refuses (nodes.md: "After any failing call the node's parameters, its
 * owners, every executable and every owner refcount are exactly as before"; design.md: "a failed
 * call still leaves the node as it was") after 0, 1 and 2 good updates, for every kind of loop
 * update (every argument; 1, 2 and 8 edits; one index edited twice), every argument size
 * (1, 2, 4, 8, 12, 16, 24 bytes) and both levels: get and the next launch show the values from
 * before, and the loop goes on. */
static void test_refused_setter_at_every_position(void **state) {
    cgn_test_env *env = *state;
    register_layouts();
    const layout *ls[2] = {&wide, &small};
    for (int li = 0; li < 2; li++) {
        target d;
        cgn_graph *g = one_node_graph(env, ls[li], &d);
        cgn_exec *x = bb_instantiate(g);
        target e = at_exec(&d, x);
        target *ts[2] = {&d, &e};
        for (int level = 0; level < 2; level++) {
            target *t = ts[level];
            for (int kind = 0; kind < K_COUNT; kind++)
                for (uint32_t base = 0; base < t->l->n; base++) {
                    for (uint32_t k = 0; k < base % 3; k++)
                        advance(t, (int)((kind + k) % K_COUNT), base + k);
                    refuse(t, kind, base);
                    check(t);
                    refuse(t, (kind + 1) % K_COUNT, base + 1); /* two in a row */
                    check(t);
                    advance(t, kind, base);
                    check(t);
                }
        }
        check(&d);
        check(&e);
        destroy_exec_graph(x, g);
    }
}

/* ---- pointers a get returned, as values of the next update ----------------------------------- */

/* The update the pointers of a get feed: edits of every (index, source index) pair given, in
 * order, each value the get's pointer of the source, with `off` bytes skipped. */
typedef struct pin_edit {
    uint32_t index, from, off;
} pin_edit;

enum { FROM_GET_EDITS, FROM_GET_WHOLE, FROM_GET_BOTH };

/* Adds pe's edits to u, each value the get's pointer of the source argument (plus its offset),
 * and what they write to *next (from t's model: the bytes those pointers show now). */
static void edits_from_get(cgn_kernel_update *u, const target *t, const cgn_kernel_desc *got,
                           const pin_edit *pe, uint32_t count, vals *next) {
    for (uint32_t k = 0; k < count; k++) {
        const pin_edit *p = &pe[k];
        assert_true(p->off + t->l->sizes[p->index] <= t->l->sizes[p->from]);
        memcpy(next->b[p->index], t->model.b[p->from] + p->off, t->l->sizes[p->index]);
        if (u)
            cgn_kernel_update_set_arg(u, p->index,
                                      (const unsigned char *)got->args[p->from].value + p->off,
                                      t->l->sizes[p->index], NULL);
    }
}

/* The update, built from a fresh get: FROM_GET_EDITS edits as pe says; FROM_GET_WHOLE the
 * whole list of the get, moved as pe says; FROM_GET_BOTH the get's list unchanged plus pe's
 * edits (which apply to the new list). *next: what t should have afterwards. */
static cgn_status apply_from_get(const target *t, const pin_edit *pe, uint32_t count, int form,
                                 vals *next) {
    cgn_kernel_desc got;
    get_at(t->x, t->n, &got);
    *next = t->model;
    cgn_kernel_update u = CGN_KERNEL_UPDATE_INIT;
    cgn_arg args[MAXA];
    if (form != FROM_GET_EDITS) {
        for (uint32_t i = 0; i < t->l->n; i++)
            args[i] = got.args[i];
        for (uint32_t k = 0; k < count && form == FROM_GET_WHOLE; k++)
            args[pe[k].index] =
                (cgn_arg){(const unsigned char *)got.args[pe[k].from].value + pe[k].off,
                          t->l->sizes[pe[k].index], NULL};
        cgn_kernel_update_set_args(&u, args, t->l->n);
    }
    edits_from_get(form == FROM_GET_WHOLE ? NULL : &u, t, &got, pe, count, next);
    return update_at(t->x, t->n, &u);
}

static void update_from_get(target *t, const pin_edit *pe, uint32_t count, int form) {
    vals next;
    cgn_status st = apply_from_get(t, pe, count, form, &next);
    if (st != CGN_OK)
        fail_msg("update from the get's pointers: %s (%s)", cgn_status_name(st), cgn_last_error());
    t->model = next;
    check(t);
}

/* The same refused by the setter (the nth driver call failing, n = 1, 2, ... until the setter
 * is hit): nothing changes. */
static void refuse_from_get(target *t, const pin_edit *pe, uint32_t count, int form) {
    for (long nth = 1; nth < 8; nth++) {
        vals next;
        bb_fault_arm(nth, CUDA_ERROR_INVALID_VALUE);
        cgn_status st = apply_from_get(t, pe, count, form, &next);
        cgn_fault_entry which;
        int hit = bb_fault_done(&which);
        assert_true(hit);
        assert_int_not_equal(st, CGN_OK);
        check(t);
        if (cgn_fault_is_setter(which))
            return;
    }
    fail_msg("%s", "no setter call");
}

/* An edit of a fresh value of index i, then edits from the get (a write before the read). */
static void update_mixed(target *t, uint32_t i, const pin_edit *pe, uint32_t count) {
    cgn_kernel_desc got;
    get_at(t->x, t->n, &got);
    vals next = t->model, src;
    fill_vals(&src, t->l, fresh_seed());
    cgn_kernel_update u = CGN_KERNEL_UPDATE_INIT;
    cgn_kernel_update_set_arg(&u, i, src.b[i], t->l->sizes[i], NULL);
    memcpy(next.b[i], src.b[i], ASZ);
    edits_from_get(&u, t, &got, pe, count, &next);
    OK(update_at(t->x, t->n, &u));
    t->model = next;
    check(t);
}

/* Values read from the get's own records: the list it returned and its whole desc
 * (cgn_kernel_update_from_desc), passed back as they are, and edits whose bytes are a record's
 * pointer and size (nodes.md: what a get returns is valid until the next update; an edit's
 * bytes are "copied by the update"). */
static void update_from_records(target *t) {
    cgn_kernel_desc got;
    get_at(t->x, t->n, &got);
    cgn_kernel_update u = CGN_KERNEL_UPDATE_INIT;
    cgn_kernel_update_set_args(&u, got.args, got.num_args);
    OK(update_at(t->x, t->n, &u));
    check(t);

    /* The whole desc as the get returned it (nodes.md's executable-level example). */
    get_at(t->x, t->n, &got);
    cgn_kernel_update_from_desc(&u, &got);
    OK(update_at(t->x, t->n, &u));
    check(t);

    get_at(t->x, t->n, &got);
    assert_int_equal(t->l->sizes[0], sizeof got.args[1].value);
    assert_int_equal(t->l->sizes[1], sizeof got.args[0].size);
    vals next = t->model;
    memcpy(next.b[0], &got.args[1].value, sizeof got.args[1].value);
    memcpy(next.b[1], &got.args[0].size, sizeof got.args[0].size);
    cgn_kernel_update_reset(&u);
    cgn_kernel_update_set_arg(&u, 0, &got.args[1].value, sizeof got.args[1].value, NULL);
    cgn_kernel_update_set_arg(&u, 1, &got.args[0].size, sizeof got.args[0].size, NULL);
    OK(update_at(t->x, t->n, &u));
    t->model = next;
    check(t);
}

/* Every combination of test_get_pointers_as_values, for definition target d and executable
 * target e of one node of layout `pairs`. */
static void get_pointer_rounds(target *d, target *e) {
    target *ts[2] = {d, e};
    static const pin_edit same[8] = {{0, 0, 0}, {1, 1, 0}, {2, 2, 0}, {3, 3, 0},
                                     {4, 4, 0}, {5, 5, 0}, {6, 6, 0}, {7, 7, 0}};
    static const pin_edit swap[6] = {{0, 1, 0}, {1, 0, 0}, {3, 4, 0},
                                     {4, 3, 0}, {5, 6, 0}, {6, 5, 0}};
    static const pin_edit rotate[3] = {{0, 1, 0}, {1, 2, 0}, {2, 0, 0}};
    static const pin_edit inner[4] = {{0, 5, 8}, {3, 6, 12}, {4, 0, 4}, {7, 2, 6}};
    static const pin_edit dup[3] = {{0, 1, 0}, {0, 2, 0}, {1, 0, 0}};
    for (int level = 0; level < 2; level++) {
        target *t = ts[level];
        for (int round = 0; round < 3; round++) {
            advance(t, K_EIGHT, (uint32_t)round); /* fresh values, the loop's steady state */
            update_from_get(t, same, 1, FROM_GET_EDITS);
            update_from_get(t, same, 8, FROM_GET_EDITS);
            update_from_get(t, swap, 2, FROM_GET_EDITS);
            update_from_get(t, swap, 6, FROM_GET_EDITS);
            update_from_get(t, rotate, 3, FROM_GET_EDITS);
            update_from_get(t, inner, 4, FROM_GET_EDITS);
            update_from_get(t, dup, 3, FROM_GET_EDITS);  /* 0 edited twice, then 1 <- old 0 */
            update_from_get(t, same, 0, FROM_GET_WHOLE); /* the list as the get returned it */
            update_from_get(t, swap, 6, FROM_GET_WHOLE);
            update_from_get(t, rotate, 3, FROM_GET_WHOLE);
            update_from_get(t, inner, 4, FROM_GET_WHOLE);
            update_from_get(t, rotate, 3, FROM_GET_BOTH);
            update_from_get(t, dup, 3, FROM_GET_BOTH);
            refuse_from_get(t, swap, 6, FROM_GET_EDITS);
            refuse_from_get(t, rotate, 3, FROM_GET_WHOLE);
            refuse_from_get(t, same, 8, FROM_GET_EDITS);
            update_mixed(t, 5, inner, 1);  /* arg 5 written, then arg 0 from arg 5's old bytes */
            update_mixed(t, 1, rotate, 1); /* arg 1 written, then arg 0 from arg 1's old value */
            update_mixed(t, 0, swap, 2);   /* arg 0 written, then 0 <- old 1 and 1 <- old 0 */
            update_from_records(t);
        }
    }
    /* One level's pointers into the other's update. */
    for (int level = 0; level < 2; level++) {
        target *to = ts[level], *from = ts[1 - level];
        cgn_kernel_desc got;
        get_at(from->x, from->n, &got);
        cgn_kernel_update u = CGN_KERNEL_UPDATE_INIT;
        cgn_kernel_update_set_args(&u, got.args, got.num_args);
        OK(update_at(to->x, to->n, &u));
        to->model = from->model;
        check(to);
        check(from);
        advance(from, K_TWO, 4);
        check(to);
        check(from);
    }
}

/* cgn_kernel_node_get's pointers are "valid until the node's next update" and "passing them back
 * into an update right away is fine" (nodes.md); design.md: a value pointing into the block "could
 * be overwritten by an earlier write of the same update, so such an update takes the two-block
 * path, which reads every value before it writes". Every combination: the same index, another
 * index (swaps and rotations of same-sized arguments), the whole list as returned and permuted,
 * a pointer into the middle of an argument's bytes, and an edit of a fresh value before an edit
 * reading the argument it overwrote, values read from the get's records, refusals of such
 * updates; both levels, one level's pointers into the other, on a cgn-built and an adopted node. */
static void test_get_pointers_as_values(void **state) {
    cgn_test_env *env = *state;
    register_layouts();
    target d;
    cgn_graph *g = one_node_graph(env, &pairs, &d);
    cgn_exec *x = bb_instantiate(g);
    target e = at_exec(&d, x);
    get_pointer_rounds(&d, &e);
    destroy_exec_graph(x, g);
    /* The same on an adopted node, whose copy is cut from a shared block. */
    CUgraph raw;
    g = adopted_chain(env, &pairs, 1, &d, &raw);
    x = bb_instantiate(g);
    e = at_exec(&d, x);
    get_pointer_rounds(&d, &e);
    destroy_exec_graph(x, g);
    CU_OK(env->backend->driver(env)->cuGraphDestroy(raw));
}

/* ---- blocks two versions shared, and the spares they leave ----------------------------------- */

/* a and b start with one version (an executable and its definition, an embedding and its source):
 * each side's first update moves it off the shared block, which may stay with it as a spare
 * (design.md: "the block it replaces is kept as a spare and reused by the next update"; the next
 * edit "writes them and its own, nothing else" when the spare is unwritten since). The other
 * side then loops, in place where its block looks like its own, and the first side edits again:
 * each keeps exactly its own values. */
static void spare_dance(target *a, target *b) {
    const target *both[2] = {a, b};
    for (int kind = 0; kind < K_COUNT; kind++) {
        advance(a, K_ONE, (uint32_t)kind);
        check_all(both, 2);
        for (uint32_t i = 0; i < 4; i++)
            advance(b, (int)((kind + (int)i) % K_COUNT), i);
        check_all(both, 2);
        advance(a, kind, 1);
        check_all(both, 2);
        advance(a, K_TWO, 2);
        check_all(both, 2);
        refuse(b, K_EIGHT, 3);
        advance(b, K_ONE, 4);
        check_all(both, 2);
    }
}

/* spare_dance for an executable and its definition (each side first), an embedding and its
 * source (each side first), and an adopted node and its executable. */
static void test_spares_of_shared_blocks(void **state) {
    cgn_test_env *env = *state;
    register_layouts();
    const layout *ls[2] = {&wide, &small};
    for (int li = 0; li < 2; li++) {
        for (int first = 0; first < 2; first++) {
            target d;
            cgn_graph *g = one_node_graph(env, ls[li], &d);
            advance(&d, K_WHOLE, 0);
            advance(&d, K_ONE, 1);
            target e = at_exec(&d, bb_instantiate(g));
            if (first)
                spare_dance(&e, &d);
            else
                spare_dance(&d, &e);
            destroy_exec_graph(e.x, g);

            target s;
            cgn_graph *src = one_node_graph(env, ls[li], &s);
            advance(&s, K_ONE, 1);
            cgn_graph *parent = bb_graph_new();
            cgn_node *c = add_child(parent, src);
            target p = make_target(env, parent, NULL, bb_find(c, s.n), s.l, &s.model);
            if (first)
                spare_dance(&p, &s);
            else
                spare_dance(&s, &p);
            OK(cgn_graph_destroy(parent));
            OK(cgn_graph_destroy(src));

            CUgraph raw;
            target a;
            g = adopted_chain(env, ls[li], 1, &a, &raw);
            advance(&a, K_ONE, 2);
            target ae = at_exec(&a, bb_instantiate(g));
            if (first)
                spare_dance(&ae, &a);
            else
                spare_dance(&a, &ae);
            destroy_exec_graph(ae.x, g);
            CU_OK(env->backend->driver(env)->cuGraphDestroy(raw));
        }
    }
}

/* ---- owned and unowned updates interleaved --------------------------------------------------- */

static long refs_of(const cgn_test_env *env, int i) {
    return atomic_load(&env->owner[i]->refs);
}

/* Argument `index` (a pointer) becomes test buffer `buf`, with its owner when `owned`. */
static void put_buffer(target *t, uint32_t index, int buf, int owned) {
    cgn_kernel_update u = CGN_KERNEL_UPDATE_INIT;
    cgn_kernel_update_set_arg(&u, index, &t->env->buf[buf], sizeof(CUdeviceptr),
                              owned ? t->env->owner[buf] : NULL);
    OK(update_at(t->x, t->n, &u));
    memset(t->model.b[index], 0, ASZ);
    memcpy(t->model.b[index], &t->env->buf[buf], sizeof(CUdeviceptr));
}

/* A few unowned updates of the scalar (index 2) alone: the loop's common case. */
static void scalar_loop(target *t, int rounds) {
    for (int r = 0; r < rounds; r++) {
        advance(t, r % 2 ? K_ONE : K_TWICE, 2);
        check(t);
    }
}

/* Owned updates (an owner on a pointer argument) between unowned loop updates, at both levels
 * (ownership.md: an attachment's owners are "each retained once"; "Update with unchanged owners
 * ... reuses the current attachment"; "Update to no owners drops the graph's reference"; a
 * retired executable version is released once no launch can read it): the values are right
 * throughout, unowned scalar updates of a node holding an owner take no further reference, and
 * after the executable and the graph are destroyed every owner is back to the references it had
 * and, once the test drops its own, released exactly once. */
static void test_owned_and_unowned_interleaved(void **state) {
    cgn_test_env *env = *state;
    register_layouts();
    const long base1 = refs_of(env, 1), base2 = refs_of(env, 2), base3 = refs_of(env, 3);
    target d;
    cgn_graph *g = one_node_graph(env, &ptrs, &d);
    scalar_loop(&d, 3);
    put_buffer(&d, 0, 1, 1);
    assert_int_equal(refs_of(env, 1), base1 + 1);
    scalar_loop(&d, 4);
    assert_int_equal(refs_of(env, 1), base1 + 1);
    advance(&d, K_WHOLE, 0); /* every argument, no owner: owner 1 goes */
    collect_all();
    assert_int_equal(refs_of(env, 1), base1);
    scalar_loop(&d, 3);
    put_buffer(&d, 1, 2, 1);
    scalar_loop(&d, 2);
    cgn_exec *x = bb_instantiate(g); /* shares the version holding owner 2 */
    target e = at_exec(&d, x);
    put_buffer(&d, 1, 3, 0); /* the definition drops owner 2; the executable keeps it */
    collect_all();
    assert_int_equal(refs_of(env, 2), base2 + 1);
    scalar_loop(&d, 3);
    scalar_loop(&e, 3);
    put_buffer(&e, 0, 3, 1); /* an owner of the executable's own */
    assert_int_equal(refs_of(env, 3), base3 + 1);
    scalar_loop(&e, 4);
    assert_int_equal(refs_of(env, 3), base3 + 1);
    put_buffer(&e, 0, 1, 0); /* owner 3 retired: released once no launch can read it */
    put_buffer(&e, 1, 1, 0); /* owner 2 leaves the executable's versions, but ... */
    scalar_loop(&e, 2);
    collect_all();
    assert_int_equal(refs_of(env, 3), base3);
    /* ... the version it was instantiated with came from the graph: CUDA keeps the graph's
     * user-object reference in the executable "until the executable and its last launch are
     * gone" (ownership.md), so that version still holds owner 2 once. */
    assert_int_equal(refs_of(env, 2), base2 + 1);
    put_buffer(&d, 0, 1, 1);
    put_buffer(&e, 1, 2, 1);
    scalar_loop(&d, 2);
    scalar_loop(&e, 2);
    check(&d);
    check(&e);
    assert_int_equal(refs_of(env, 1), base1 + 1);
    assert_int_equal(refs_of(env, 2), base2 + 2); /* the instantiated version's and e's own */
    OK(cgn_exec_destroy(x));
    OK(cgn_graph_destroy(g));
    collect_all();
    assert_int_equal(refs_of(env, 1), base1);
    assert_int_equal(refs_of(env, 2), base2);
    assert_int_equal(refs_of(env, 3), base3);
    for (int i = 1; i < 4; i++)
        assert_int_equal(env->released[i], 0);
    cgn_test_env_drop_owners(env);
    collect_all();
    for (int i = 1; i < 4; i++)
        assert_int_equal(env->released[i], 1);
}

/* ---- updates refused before the driver, in the loop's steady state --------------------------- */

enum { BAD_SIZE, BAD_INDEX, BAD_NULL };

/* `count` fresh edits (indices from base on) of which edit `bad` is broken as `how` says; or,
 * with whole, a fresh list whose argument `bad` is. Must be refused with `want` before any
 * driver call, leaving t as it was. */
static void refuse_invalid(target *t, int whole, uint32_t count, uint32_t base, uint32_t bad,
                           int how, cgn_status want) {
    vals src;
    fill_vals(&src, t->l, fresh_seed());
    uint64_t spare[4] = {0};
    cgn_kernel_update u = CGN_KERNEL_UPDATE_INIT;
    cgn_arg args[MAXA];
    if (whole) {
        vals_args(&src, t->l, args);
        if (how == BAD_SIZE)
            args[bad].size = t->l->sizes[bad] == 8 ? 4 : 8;
        else
            args[bad].value = NULL;
        cgn_kernel_update_set_args(&u, args, t->l->n);
    }
    for (uint32_t k = 0; k < count && !whole; k++) {
        uint32_t i = (base + k) % t->l->n;
        const void *value = src.b[i];
        size_t size = t->l->sizes[i];
        if (k == bad && how == BAD_SIZE)
            size = size == 8 ? 4 : 8;
        if (k == bad && how == BAD_INDEX)
            i = t->l->n + k;
        if (k == bad && how == BAD_NULL)
            value = NULL;
        cgn_kernel_update_set_arg(&u, i, k == bad && how == BAD_INDEX ? spare : value,
                                  k == bad && how == BAD_INDEX ? t->l->sizes[0] : size, NULL);
    }
    cgn_fault_reset_counts();
    EXPECT_ST(want, update_at(t->x, t->n, &u));
    assert_int_equal(cgn_fault_setter_calls(), 0);
    check(t);
}

/* Edits and lists refused before any driver call (adopt.md: "An index past the kernel's
 * arguments or a wrong size is CGN_ERROR_INVALID_VALUE; more than 8 edits, or an edit without a
 * value, CGN_ERROR_INVALID_ARGUMENT"; generated/docs/nodes.md: `args` "an argument has no
 * value" is CGN_ERROR_INVALID_ARGUMENT, "a size does not match the kernel"
 * CGN_ERROR_INVALID_VALUE; nodes.md: "All or nothing"), with the broken edit at every position
 * of 2 and of 8 edits (the edits before it valid and small enough to be written in place), a
 * broken argument at every position of a whole list, one edit too many, and valid edits with a
 * grid of 0, in the loop's steady state at both levels: nothing changes, and the loop goes on. */
static void test_invalid_edit_at_every_position(void **state) {
    cgn_test_env *env = *state;
    register_layouts();
    target d;
    cgn_graph *g = one_node_graph(env, &small, &d);
    cgn_exec *x = bb_instantiate(g);
    target e = at_exec(&d, x);
    target *ts[2] = {&d, &e};
    static const cgn_status want[3] = {CGN_ERROR_INVALID_VALUE, CGN_ERROR_INVALID_VALUE,
                                       CGN_ERROR_INVALID_ARGUMENT};
    for (int level = 0; level < 2; level++) {
        target *t = ts[level];
        for (int how = BAD_SIZE; how <= BAD_NULL; how++) {
            static const uint32_t counts[2] = {2, CGN_MAX_ARG_EDITS};
            for (int c = 0; c < 2; c++)
                for (uint32_t bad = 0; bad < counts[c]; bad++) {
                    advance(t, (int)(bad % K_COUNT), bad); /* the steady state */
                    refuse_invalid(t, 0, counts[c], bad, bad, how, want[how]);
                }
            for (uint32_t bad = 0; bad < t->l->n && how != BAD_INDEX; bad++) {
                advance(t, (int)(bad % K_COUNT), bad);
                refuse_invalid(t, 1, 0, 0, bad, how,
                               how == BAD_SIZE ? CGN_ERROR_INVALID_VALUE
                                               : CGN_ERROR_INVALID_ARGUMENT);
            }
        }
        /* One edit more than CGN_MAX_ARG_EDITS: the update counts it and is refused. */
        advance(t, K_ONE, 0);
        vals src;
        fill_vals(&src, t->l, fresh_seed());
        cgn_kernel_update u = CGN_KERNEL_UPDATE_INIT;
        for (uint32_t k = 0; k <= CGN_MAX_ARG_EDITS; k++)
            cgn_kernel_update_set_arg(&u, k % t->l->n, src.b[k % t->l->n], t->l->sizes[k % t->l->n],
                                      NULL);
        cgn_fault_reset_counts();
        EXPECT_ST(CGN_ERROR_INVALID_ARGUMENT, update_at(t->x, t->n, &u));
        assert_int_equal(cgn_fault_setter_calls(), 0);
        check(t);
        /* Valid edits with a grid the rules refuse. */
        cgn_kernel_update_reset(&u);
        for (uint32_t k = 0; k < CGN_MAX_ARG_EDITS; k++)
            cgn_kernel_update_set_arg(&u, k % t->l->n, src.b[k % t->l->n], t->l->sizes[k % t->l->n],
                                      NULL);
        cgn_kernel_update_set_grid(&u, CGN_DIM3(0, 1, 1));
        cgn_fault_reset_counts();
        EXPECT_ST(CGN_ERROR_INVALID_VALUE, update_at(t->x, t->n, &u));
        assert_int_equal(cgn_fault_setter_calls(), 0);
        check(t);
        advance(t, K_EIGHT, 1);
        check(t);
    }
    check(&d);
    check(&e);
    destroy_exec_graph(x, g);
}

/* ---- the kernel's owner and the other fields, mixed into the loop ---------------------------- */

/* A grid change together with an edit (the general path) in the middle of the loop. */
static void grid_and_edit(target *t, uint32_t grid_x, uint32_t index) {
    vals src;
    fill_vals(&src, t->l, fresh_seed());
    uint32_t i = index % t->l->n;
    cgn_kernel_update u = CGN_KERNEL_UPDATE_INIT;
    cgn_kernel_update_set_grid(&u, CGN_DIM3(grid_x, 1, 1));
    cgn_kernel_update_set_arg(&u, i, src.b[i], t->l->sizes[i], NULL);
    OK(update_at(t->x, t->n, &u));
    t->grid_x = grid_x;
    memcpy(t->model.b[i], src.b[i], ASZ);
}

static void expect_kernel_owner(const target *t, const cgn_owner *owner) {
    cgn_kernel_desc d;
    get_at(t->x, t->n, &d);
    assert_ptr_equal(d.kernel_owner, owner);
}

/* Loop updates of a node whose kernel has an owner, with grid changes mixed in (design.md: the
 * in-place writes need "no owner (nor has the node)"; cgn_kernel_desc: the kernel's owner is
 * "retained while the node may run it"; "Update with unchanged owners ... reuses the current
 * attachment"), at both levels: values and grid right, the kernel's owner reported and held
 * exactly once until a kernel change without an owner drops it (coupling: "kernel without
 * kernel_owner resets kernel_owner to NULL"), and released once at the end. */
static void test_kernel_owner_through_the_loop(void **state) {
    cgn_test_env *env = *state;
    register_layouts();
    const long base = refs_of(env, 0);
    target d;
    cgn_graph *g = owned_kernel_graph(env, &small, env->owner[0], &d);
    assert_int_equal(refs_of(env, 0), base + 1);
    cgn_exec *x = bb_instantiate(g);
    target e = at_exec(&d, x);
    target *ts[2] = {&d, &e};
    for (int level = 0; level < 2; level++) {
        target *t = ts[level];
        for (uint32_t i = 0; i < 12; i++) {
            advance(t, (int)(i % K_COUNT), i);
            if (i % 4 == 1)
                refuse(t, (int)((i + 2) % K_COUNT), i);
            if (i % 5 == 3)
                grid_and_edit(t, 2 + i, i);
            check(t);
            expect_kernel_owner(t, env->owner[0]);
            assert_int_equal(refs_of(env, 0), base + 1);
        }
    }
    check(&d);
    advance(&d, K_SWITCH, 0); /* no kernel owner from here on in the definition */
    collect_all();
    expect_kernel_owner(&d, NULL);
    expect_kernel_owner(&e, env->owner[0]);
    assert_int_equal(refs_of(env, 0), base + 1); /* the executable's version */
    for (uint32_t i = 0; i < 6; i++) {
        advance(i % 2 ? &d : &e, (int)(i % K_COUNT), i);
        check(&d);
        check(&e);
    }
    destroy_exec_graph(x, g);
    collect_all();
    assert_int_equal(refs_of(env, 0), base);
    assert_int_equal(env->released[0], 0);
    cgn_test_env_drop_owners(env);
    collect_all();
    assert_int_equal(env->released[0], 1);
}

/* ---- kernel changes mid-loop ----------------------------------------------------------------- */

/* cgn_kernel_update_set_kernel to a kernel of another layout in the middle of a loop and back
 * (cgn_kernel.h: "Sets kernel, kernel_owner and args together"; edits "applied after args"), at
 * both levels, with refusals of the switch and of the loop around it, and an edit the new
 * layout cannot take (adopt.md: "An index past the kernel's arguments or a wrong size is
 * CGN_ERROR_INVALID_VALUE"): values and the kernel launched follow. */
static void test_kernel_change_mid_loop(void **state) {
    cgn_test_env *env = *state;
    register_layouts();
    const layout *ls[2] = {&wide, &small};
    for (int li = 0; li < 2; li++) {
        target d;
        cgn_graph *g = one_node_graph(env, ls[li], &d);
        cgn_exec *x = bb_instantiate(g);
        target e = at_exec(&d, x);
        target *ts[2] = {&d, &e};
        for (int round = 0; round < 4; round++) {
            target *t = ts[round % 2];
            for (uint32_t i = 0; i < 5; i++)
                advance(t, (int)(i % K_COUNT), i);
            refuse(t, K_SWITCH, 1);
            check(t);
            advance(t, K_SWITCH, 1); /* to `other` */
            check(t);
            for (uint32_t i = 0; i < 5; i++) {
                advance(t, (int)(i % K_COUNT), i);
                if (i == 2)
                    refuse(t, K_ONE, i);
                check(t);
            }
            uint64_t big = 0;
            cgn_kernel_update u = CGN_KERNEL_UPDATE_INIT;
            cgn_kernel_update_set_arg(&u, 0, &big, sizeof big, NULL); /* arg 0 takes 4 bytes */
            EXPECT_ST(CGN_ERROR_INVALID_VALUE, update_at(t->x, t->n, &u));
            cgn_kernel_update_reset(&u);
            cgn_kernel_update_set_arg(&u, 5, &big, 4, NULL); /* past its three arguments */
            EXPECT_ST(CGN_ERROR_INVALID_VALUE, update_at(t->x, t->n, &u));
            check(t);
            refuse(t, K_SWITCH, 2);
            check(t);
            advance(t, K_SWITCH, 2); /* and back */
            check(t);
            for (uint32_t i = 0; i < 5; i++) {
                advance(t, (int)((i + 3) % K_COUNT), i);
                check(t);
            }
            check(ts[(round + 1) % 2]); /* the other level saw none of it */
        }
        destroy_exec_graph(x, g);
    }
}

/* ---- both levels in one loop ----------------------------------------------------------------- */

/* The definition and executables updated in the same loop (cgn_kernel_exec_update: "The
 * definition and other executables are not touched"; cgn_kernel_node_update: "existing
 * executables keep their parameters"), with executables made and destroyed along the way and
 * refusals on either side: each sees its own values only. */
static void test_both_levels_in_one_loop(void **state) {
    cgn_test_env *env = *state;
    register_layouts();
    const layout *ls[2] = {&wide, &small};
    for (int li = 0; li < 2; li++) {
        target d;
        cgn_graph *g = one_node_graph(env, ls[li], &d);
        target e1 = at_exec(&d, bb_instantiate(g));
        target e2 = at_exec(&d, bb_instantiate(g));
        for (uint32_t i = 0; i < 40; i++) {
            advance(&d, (int)(i % K_COUNT), i);
            advance(&e1, (int)((i + 2) % K_COUNT), i + 1);
            if (i % 3 != 0)
                advance(&e2, (int)((i + 4) % K_COUNT), i + 2);
            if (i % 7 == 3)
                refuse(i % 2 ? &d : &e1, (int)((i + 1) % K_COUNT), i);
            if (i % 10 == 9) { /* a new executable of the definition as it is now */
                OK(cgn_exec_destroy(e2.x));
                e2 = at_exec(&d, bb_instantiate(g));
            }
            const target *all[3] = {&d, &e1, &e2};
            check_all(all, 3);
        }
        /* cgn.h: the node handles "stay valid for executable-level calls on executables made
         * from it (which outlive it)": the loop goes on in both executables. */
        OK(cgn_graph_destroy(g));
        for (uint32_t i = 0; i < 12; i++) {
            advance(i % 2 ? &e1 : &e2, (int)(i % K_COUNT), i);
            if (i % 4 == 2)
                refuse(i % 8 == 2 ? &e1 : &e2, (int)((i + 1) % K_COUNT), i);
            check(&e1);
            check(&e2);
        }
        OK(cgn_exec_destroy(e1.x));
        OK(cgn_exec_destroy(e2.x));
    }
}

/* ---- the two levels on two threads ----------------------------------------------------------- */

enum { THREAD_ITERS = 3000 };

/* The definition's side of the loop, on its own thread: no cmocka calls there, only counts. */
typedef struct def_side {
    target *t;
    int failed_updates;
    int wrong_gets;
} def_side;

static void *definition_loop(void *arg) {
    def_side *side = arg;
    target *t = side->t;
    for (uint32_t i = 0; i < THREAD_ITERS; i++) {
        vals next;
        if (loop_update(t, (int)(i % K_COUNT), i, 500000u + i * (CGN_MAX_ARG_EDITS + 1), &next) !=
            CGN_OK) {
            side->failed_updates++;
            continue;
        }
        t->model = next;
        cgn_kernel_desc d;
        if (cgn_kernel_node_get(t->n, &d) != CGN_OK || d.num_args != t->l->n) {
            side->wrong_gets++;
            continue;
        }
        for (uint32_t a = 0; a < t->l->n; a++)
            if (memcmp(d.args[a].value, t->model.b[a], t->l->sizes[a]) != 0)
                side->wrong_gets++;
    }
    return NULL;
}

/* The definition updated on one thread while an executable made from it is updated and launched
 * on another (cgn.h: "a hierarchy and the executables made from it may be used from different
 * threads at once"; ownership.md: "executable-level calls never read the definition"): each
 * side sees its own values throughout and at the end. The plain fake is installed (the fault
 * proxy counts calls in plain globals). */
static void test_two_levels_on_two_threads(void **state) {
    cgn_test_env *env = *state;
    register_layouts();
    cgn_driver_install(cgn_fake_table());
    const layout *ls[2] = {&wide, &small};
    for (int li = 0; li < 2; li++) {
        target d;
        cgn_graph *g = one_node_graph(env, ls[li], &d);
        target e = at_exec(&d, bb_instantiate(g));
        def_side side = {&d, 0, 0};
        pthread_t th;
        assert_int_equal(pthread_create(&th, NULL, definition_loop, &side), 0);
        for (uint32_t i = 0; i < THREAD_ITERS; i++) {
            advance(&e, (int)((i + 3) % K_COUNT), i);
            if (i % 16 == 0)
                check(&e);
            else
                check_get(&e);
        }
        assert_int_equal(pthread_join(th, NULL), 0);
        assert_int_equal(side.failed_updates, 0);
        assert_int_equal(side.wrong_gets, 0);
        check(&d);
        check(&e);
        destroy_exec_graph(e.x, g);
    }
}

int main(void) {
    const struct CMUnitTest tests[] = {
        cmocka_unit_test_setup_teardown(test_execs_made_in_a_loop_keep_their_values,
                                        cgn_test_fixture_setup, cgn_test_fixture_teardown),
        cmocka_unit_test_setup_teardown(test_raw_change_then_loop, cgn_test_fixture_setup,
                                        cgn_test_fixture_teardown),
        cmocka_unit_test_setup_teardown(test_child_embeddings_keep_their_values,
                                        cgn_test_fixture_setup, cgn_test_fixture_teardown),
        cmocka_unit_test_setup_teardown(test_child_replaced_mid_loop, cgn_test_fixture_setup,
                                        cgn_test_fixture_teardown),
        cmocka_unit_test_setup_teardown(test_refused_refresh_mid_loop, cgn_test_fixture_setup,
                                        cgn_test_fixture_teardown),
        cmocka_unit_test_setup_teardown(test_conditional_body_loops, cgn_test_fixture_setup,
                                        cgn_test_fixture_teardown),
        cmocka_unit_test_setup_teardown(test_sibling_executables_without_their_graph,
                                        cgn_test_fixture_setup, cgn_test_fixture_teardown),
        cmocka_unit_test_setup_teardown(test_adopted_nodes_sharing_storage, cgn_test_fixture_setup,
                                        cgn_test_fixture_teardown),
        cmocka_unit_test_setup_teardown(test_refused_setter_at_every_position,
                                        cgn_test_fixture_setup, cgn_test_fixture_teardown),
        cmocka_unit_test_setup_teardown(test_get_pointers_as_values, cgn_test_fixture_setup,
                                        cgn_test_fixture_teardown),
        cmocka_unit_test_setup_teardown(test_spares_of_shared_blocks, cgn_test_fixture_setup,
                                        cgn_test_fixture_teardown),
        cmocka_unit_test_setup_teardown(test_owned_and_unowned_interleaved, cgn_test_fixture_setup,
                                        cgn_test_fixture_teardown),
        cmocka_unit_test_setup_teardown(test_invalid_edit_at_every_position, cgn_test_fixture_setup,
                                        cgn_test_fixture_teardown),
        cmocka_unit_test_setup_teardown(test_kernel_owner_through_the_loop, cgn_test_fixture_setup,
                                        cgn_test_fixture_teardown),
        cmocka_unit_test_setup_teardown(test_adopted_nodes_destroyed_mid_loop,
                                        cgn_test_fixture_setup, cgn_test_fixture_teardown),
        cmocka_unit_test_setup_teardown(test_kernel_change_mid_loop, cgn_test_fixture_setup,
                                        cgn_test_fixture_teardown),
        cmocka_unit_test_setup_teardown(test_both_levels_in_one_loop, cgn_test_fixture_setup,
                                        cgn_test_fixture_teardown),
        cmocka_unit_test_setup_teardown(test_two_levels_on_two_threads, cgn_test_fixture_setup,
                                        cgn_test_fixture_teardown),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
