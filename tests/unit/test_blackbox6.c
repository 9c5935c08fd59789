/* A sixth black-box round, written from the documentation alone (cgn.h, cgn_kernel.h,
 * docs/nodes.md, docs/ownership.md, docs/adopt.md, docs/guide.md, generated/docs/nodes.md,
 * docs/design.md "One argument in one call, with no update struct"): the one-call argument
 * setters cgn_kernel_node_set_arg and cgn_kernel_exec_set_arg. They are documented as "the same
 * as" the update functions given an update made by one cgn_kernel_update_set_arg, "the same
 * checks, errors and guarantees", their messages naming them instead. So every test is
 * differential: two identical setups, one driven through the one-call form and one through the
 * update struct, compared at every step (status, cgn_last_status(), the message with the
 * function's name and handle values taken out, the driver calls made, what the gets report
 * including owners, what launches pass to fake kernels of the test's own layouts, owner
 * references and release callbacks), and both checked against a model the test keeps. Covered:
 * loops at both levels over arguments of 1 to 24 bytes and kernels of 1 to 8 arguments; owned
 * arguments replaced with none and with others, released once after the executable, its
 * launches and the graph are gone; every driver call failing in turn; hostile handles and
 * values; values pointing into what a get returned; adopted graphs, child-graph embeddings,
 * executables made and refreshed mid-loop; and two threads each looping on its own pair. */
#include <pthread.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stdatomic.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>

#include <cmocka.h>

#include "blackbox_common.h"
#include "cgn_test_env.h"
#include "fake_driver.h"
#include "runtime.h"

#include "blackbox_layouts.h"

/* ---- the test's own layouts (blackbox_layouts.h: what each launch passes) -------------------- */

#define NOWN 3 /* owners per side */
#define NGEN 8 /* kernels of 1..8 arguments */

/* Arguments of every size from 1 to 24 bytes. */
static layout mix = {"bb6_mix", 6, {1, 2, 4, 8, 16, 24}, {0}, NULL};
/* Eight arguments, same-sized pairs among them (values can move between indices). */
static layout eight = {"bb6_eight", 8, {8, 4, 2, 1, 16, 24, 8, 4}, {0}, NULL};
/* Two pointers (owned in places) and a scalar. */
static layout ptrs = {"bb6_ptrs", 3, {8, 8, 4}, {0}, NULL};
/* gen[k]: k + 1 arguments of cycling sizes. */
static layout gen[NGEN];

static void register_layouts(void) {
    static const size_t cycle[MAXA] = {4, 8, 1, 16, 2, 24, 8, 4};
    register_layout(&mix);
    register_layout(&eight);
    register_layout(&ptrs);
    for (uint32_t k = 0; k < NGEN; k++) {
        snprintf(gen[k].name, sizeof gen[k].name, "bb6_gen%u", k + 1);
        gen[k].n = k + 1;
        for (uint32_t i = 0; i < MAXA; i++)
            gen[k].sizes[i] = cycle[i];
        register_layout(&gen[k]);
    }
}

/* ---- values ---------------------------------------------------------------------------------- */

/* ---- owners: each side its own, counting release callbacks ---------------------------------- */

static cgn_owner *owners[2][NOWN];
static int owner_held[2][NOWN]; /* the test still holds its own reference */
static int released[2][NOWN];

static void count_release(void *resource) {
    (*(int *)resource)++;
}

static void make_owners(void) {
    for (int s = 0; s < 2; s++)
        for (int k = 0; k < NOWN; k++) {
            released[s][k] = 0;
            OK(cgn_owner_create(&released[s][k], count_release, &owners[s][k]));
            owner_held[s][k] = 1;
        }
}

/* Drops the test's own reference to owner k of both sides. */
static void drop_owner(int k) {
    for (int s = 0; s < 2; s++) {
        assert_true(owner_held[s][k]);
        OK(cgn_owner_release(owners[s][k]));
        owner_held[s][k] = 0;
    }
}

/* References held on owner k of side s; only while the test holds one (else it may be gone). */
static long refs_of(int s, int k) {
    assert_true(owner_held[s][k]);
    return atomic_load(&owners[s][k]->refs);
}

/* Both sides' owner k has been released `count` times. */
static void expect_released(int k, int count) {
    collect_all();
    assert_int_equal(released[0][k], count);
    assert_int_equal(released[1][k], count);
}

/* ---- one side of a twin, and the two forms of the call --------------------------------------- */

typedef struct side {
    cgn_graph *g; /* launched through a fresh executable to see the definition run; NULL: gone */
    cgn_exec *x;  /* NULL: the definition level */
    cgn_node *n;
} side;

/* Side 0 is driven through the one-call form, side 1 through the update struct. */
typedef struct twin {
    cgn_test_env *env;
    side s[2];
    const layout *l;
    vals model;
    int model_owner[MAXA]; /* owner index of each argument, -1 for none */
} twin;

static cgn_status call_form(int direct, int exec_level, cgn_exec *x, cgn_node *n, uint32_t index,
                            const void *value, size_t size, cgn_owner *owner) {
    if (direct)
        return exec_level ? cgn_kernel_exec_set_arg(x, n, index, value, size, owner)
                          : cgn_kernel_node_set_arg(n, index, value, size, owner);
    cgn_kernel_update u = CGN_KERNEL_UPDATE_INIT;
    cgn_kernel_update_set_arg(&u, index, value, size, owner);
    return exec_level ? cgn_kernel_exec_update(x, n, &u) : cgn_kernel_node_update(n, &u);
}

static const char *form_name(int direct, int exec_level) {
    if (direct)
        return exec_level ? "cgn_kernel_exec_set_arg" : "cgn_kernel_node_set_arg";
    return exec_level ? "cgn_kernel_exec_update" : "cgn_kernel_node_update";
}

/* What one call did: its status, the thread's last status and message, the driver calls. */
typedef struct outcome {
    cgn_status st, last;
    char msg[1024];
    long calls[CGN_FAULT_ENTRY_COUNT];
    int hit;
    cgn_fault_entry which;
} outcome;

/* One call, with the nth driver call from its start failing when nth > 0. Pending releases
 * are collected first, so that one side's leftovers never run inside the other's call. */
static void run_form(int direct, int exec_level, cgn_exec *x, cgn_node *n, uint32_t index,
                     const void *value, size_t size, cgn_owner *owner, long nth, outcome *out) {
    collect_all();
    if (nth > 0)
        bb_fault_arm(nth, CUDA_ERROR_INVALID_VALUE);
    else
        cgn_fault_reset_counts();
    out->st = call_form(direct, exec_level, x, n, index, value, size, owner);
    out->last = cgn_last_status();
    snprintf(out->msg, sizeof out->msg, "%s", cgn_last_error());
    for (int e = 0; e < CGN_FAULT_ENTRY_COUNT; e++)
        out->calls[e] = cgn_fault_calls((cgn_fault_entry)e);
    out->which = CGN_FAULT_ENTRY_COUNT;
    out->hit = nth > 0 ? bb_fault_done(&out->which) : 0;
}

/* The message with the function's name and every hexadecimal number (handle values differ
 * between the twins) taken out. */
static void normalise(const char *in, char *out, size_t cap) {
    static const char *const names[4] = {"cgn_kernel_node_set_arg", "cgn_kernel_exec_set_arg",
                                         "cgn_kernel_node_update", "cgn_kernel_exec_update"};
    size_t o = 0;
    while (*in && o + 2 < cap) {
        int skipped = 0;
        for (int k = 0; k < 4; k++) {
            size_t len = strlen(names[k]);
            if (strncmp(in, names[k], len) == 0) {
                out[o++] = 'F';
                in += len;
                skipped = 1;
                break;
            }
        }
        if (skipped)
            continue;
        if (in[0] == '0' && in[1] == 'x') {
            out[o++] = '#';
            in += 2;
            while ((*in >= '0' && *in <= '9') || (*in >= 'a' && *in <= 'f') ||
                   (*in >= 'A' && *in <= 'F'))
                in++;
            continue;
        }
        out[o++] = *in++;
    }
    out[o] = '\0';
}

/* The two forms did the same: status, last status, message (naming each its own function),
 * driver calls and injected failure. */
static void same_outcome(const outcome *a, const outcome *b, int exec_level) {
    if (a->st != b->st)
        fail_msg("one-call form: %s (%s); update form: %s (%s)", cgn_status_name(a->st), a->msg,
                 cgn_status_name(b->st), b->msg);
    assert_int_equal(a->hit, b->hit);
    if (a->hit)
        assert_int_equal(a->which, b->which);
    for (int e = 0; e < CGN_FAULT_ENTRY_COUNT; e++)
        if (a->calls[e] != b->calls[e])
            fail_msg("driver calls of %s: one-call form %ld, update form %ld",
                     cgn_fault_entry_name((cgn_fault_entry)e), a->calls[e], b->calls[e]);
    if (a->st == CGN_OK)
        return;
    assert_int_equal(a->last, a->st);
    assert_int_equal(b->last, b->st);
    /* errors.md: "Most messages start with the function that failed": where the update form's
     * names it, the one-call form's names itself (never the update function); where it does not
     * (an owner staged, a driver too old), both are the same text. */
    if (strstr(a->msg, form_name(0, exec_level)) != NULL)
        fail_msg("one-call form's message names the update function: %s", a->msg);
    if (strstr(b->msg, form_name(0, exec_level)) != NULL &&
        strstr(a->msg, form_name(1, exec_level)) == NULL)
        fail_msg("one-call form's message does not name %s: %s", form_name(1, exec_level), a->msg);
    if (strstr(a->msg, form_name(1, exec_level)) != NULL &&
        strstr(b->msg, form_name(0, exec_level)) == NULL)
        fail_msg("update form's message does not name %s: %s", form_name(0, exec_level), b->msg);
    char na[1024], nb[1024];
    normalise(a->msg, na, sizeof na);
    normalise(b->msg, nb, sizeof nb);
    if (strcmp(na, nb) != 0)
        fail_msg("messages differ beyond the function's name:\n  %s\n  %s", a->msg, b->msg);
}

/* ---- what a side reports -------------------------------------------------------------------- */

typedef struct snap {
    cgn_kernel kernel;
    int kernel_owner; /* owner index, -1 none, -2 unknown */
    cgn_dim3 grid, block;
    uint32_t shared, num;
    size_t sizes[MAXA];
    int owner[MAXA];
    vals v;
} snap;

static int owner_index(int s, const cgn_owner *o) {
    if (o == NULL)
        return -1;
    for (int k = 0; k < NOWN; k++)
        if (owners[s][k] == o)
            return k;
    return -2;
}

static void take(int s, const side *sd, snap *out) {
    cgn_kernel_desc d;
    OK(sd->x ? cgn_kernel_exec_get(sd->x, sd->n, &d) : cgn_kernel_node_get(sd->n, &d));
    memset(out, 0, sizeof *out);
    out->kernel = d.kernel;
    out->kernel_owner = owner_index(s, d.kernel_owner);
    out->grid = d.grid;
    out->block = d.block;
    out->shared = d.shared_mem_bytes;
    out->num = d.num_args;
    assert_true(d.num_args <= MAXA);
    for (uint32_t i = 0; i < d.num_args; i++) {
        out->sizes[i] = d.args[i].size;
        out->owner[i] = owner_index(s, d.args[i].owner);
        assert_true(d.args[i].size <= ASZ);
        memcpy(out->v.b[i], d.args[i].value, d.args[i].size);
    }
}

static void same_snap(const snap *a, const snap *b) {
    assert_ptr_equal(a->kernel.function, b->kernel.function);
    assert_ptr_equal(a->kernel.kernel, b->kernel.kernel);
    assert_int_equal(a->kernel_owner, b->kernel_owner);
    assert_memory_equal(&a->grid, &b->grid, sizeof a->grid);
    assert_memory_equal(&a->block, &b->block, sizeof a->block);
    assert_int_equal(a->shared, b->shared);
    assert_int_equal(a->num, b->num);
    for (uint32_t i = 0; i < a->num; i++) {
        assert_int_equal(a->sizes[i], b->sizes[i]);
        assert_int_equal(a->owner[i], b->owner[i]);
        if (memcmp(a->v.b[i], b->v.b[i], a->sizes[i]) != 0)
            fail_msg("the two forms left argument %u different", i);
    }
}

/* A side's get is the twin's model. */
static void snap_is_model(const twin *t, const snap *a) {
    assert_int_equal(a->num, t->l->n);
    assert_int_equal(a->grid.x, 1);
    for (uint32_t i = 0; i < t->l->n; i++) {
        assert_int_equal(a->sizes[i], t->l->sizes[i]);
        assert_int_equal(a->owner[i], t->model_owner[i]);
        if (memcmp(a->v.b[i], t->model.b[i], t->l->sizes[i]) != 0)
            fail_msg("argument %u (%zu bytes) is not the expected value", i, t->l->sizes[i]);
    }
}

/* Launches side sd (its executable, or a fresh one of its graph); the log gets one entry per
 * kernel node run. */
static void run_side(cgn_test_env *env, const side *sd) {
    launch_count = 0;
    if (sd->x) {
        OK(env->backend->launch(env, sd->x));
        return;
    }
    cgn_exec *e = bb_instantiate(sd->g);
    OK(env->backend->launch(env, e));
    OK(cgn_exec_destroy(e));
}

/* Both sides launch the model's values (their graphs hold that one kernel node). */
static void check_runs(const twin *t) {
    for (int s = 0; s < 2; s++) {
        if (t->s[s].x == NULL && t->s[s].g == NULL)
            continue;
        run_side(t->env, &t->s[s]);
        assert_int_equal(launch_count, 1);
        assert_ptr_equal(launch_log[0].who, t->l);
        for (uint32_t i = 0; i < t->l->n; i++)
            if (memcmp(launch_log[0].v.b[i], t->model.b[i], t->l->sizes[i]) != 0)
                fail_msg("side %d launched argument %u (%zu bytes) with another value", s, i,
                         t->l->sizes[i]);
    }
}

/* Both sides report the same, the model, and (every owner still held by the test) hold the same
 * references and have released nothing. */
static void check_gets(const twin *t) {
    snap a, b;
    take(0, &t->s[0], &a);
    take(1, &t->s[1], &b);
    same_snap(&a, &b);
    snap_is_model(t, &a);
    collect_all();
    for (int k = 0; k < NOWN; k++) {
        if (owner_held[0][k] && owner_held[1][k])
            assert_int_equal(refs_of(0, k), refs_of(1, k));
        assert_int_equal(released[0][k], released[1][k]);
    }
}

static void check_twin(const twin *t) {
    check_gets(t);
    check_runs(t);
}

/* ---- building twins -------------------------------------------------------------------------- */

static cgn_node *add_kernel(cgn_graph *g, const layout *l, const vals *v) {
    cgn_arg args[MAXA];
    for (uint32_t i = 0; i < l->n; i++)
        args[i] = (cgn_arg){v->b[i], l->sizes[i], NULL};
    cgn_kernel_desc d = bb_kernel_desc(l->k, args, l->n);
    cgn_node *n;
    OK(cgn_graph_add_kernel(g, NULL, 0, &d, &n));
    return n;
}

/* Two graphs of one kernel node of layout l with the values of seed, at the definition level or
 * (exec_level) in an executable of each. */
static twin make_twin(cgn_test_env *env, const layout *l, uint32_t seed, int exec_level) {
    twin t;
    memset(&t, 0, sizeof t);
    t.env = env;
    t.l = l;
    fill_vals(&t.model, l, seed);
    for (uint32_t i = 0; i < MAXA; i++)
        t.model_owner[i] = -1;
    for (int s = 0; s < 2; s++) {
        t.s[s].g = bb_graph_new();
        t.s[s].n = add_kernel(t.s[s].g, l, &t.model);
        t.s[s].x = exec_level ? bb_instantiate(t.s[s].g) : NULL;
    }
    return t;
}

static void destroy_twin(twin *t) {
    for (int s = 0; s < 2; s++) {
        if (t->s[s].x)
            OK(cgn_exec_destroy(t->s[s].x));
        if (t->s[s].g)
            OK(cgn_graph_destroy(t->s[s].g));
    }
}

/* ---- the differential step ------------------------------------------------------------------- */

/* Sets argument `index` on both sides (side s's value v[s], owner index owner_k or -1), failing
 * the nth driver call when nth > 0; both forms must agree on everything. A status of want_st
 * (CGN_OK: accepted) is expected unless want_st is -1 (any). Returns the status; on CGN_OK the
 * model follows, otherwise both sides must be as before. */
static cgn_status twin_set2(twin *t, uint32_t index, const void *const v[2], size_t size,
                            int owner_k, long nth, int want_st, outcome *out0) {
    snap before[2];
    long refs_before[2][NOWN];
    collect_all();
    for (int s = 0; s < 2; s++) {
        take(s, &t->s[s], &before[s]);
        for (int k = 0; k < NOWN; k++)
            refs_before[s][k] = owner_held[s][k] ? refs_of(s, k) : 0;
    }
    const int exec_level = t->s[0].x != NULL;
    outcome o[2];
    for (int s = 0; s < 2; s++)
        run_form(s == 0, exec_level, t->s[s].x, t->s[s].n, index, v[s], size,
                 owner_k >= 0 ? owners[s][owner_k] : NULL, nth, &o[s]);
    same_outcome(&o[0], &o[1], exec_level);
    if (want_st >= 0 && o[0].st != (cgn_status)want_st)
        fail_msg("set_arg(index %u, %zu bytes): got %s (%s), want %s", index, size,
                 cgn_status_name(o[0].st), o[0].msg, cgn_status_name((cgn_status)want_st));
    if (out0)
        *out0 = o[0];
    if (o[0].st == CGN_OK) {
        assert_true(index < t->l->n && size == t->l->sizes[index]);
        long set_calls = 0; /* an accepted update reached the driver (so the counts are live) */
        for (int e = 0; e < CGN_FAULT_ENTRY_COUNT; e++)
            if (cgn_fault_is_setter((cgn_fault_entry)e))
                set_calls += o[0].calls[e];
        assert_int_equal(set_calls, 1);
        memset(t->model.b[index], 0, ASZ);
        memcpy(t->model.b[index], v[0], size);
        t->model_owner[index] = owner_k;
    } else {
        collect_all();
        for (int s = 0; s < 2; s++) { /* nothing changed, owners' references included */
            snap now;
            take(s, &t->s[s], &now);
            same_snap(&before[s], &now);
            for (int k = 0; k < NOWN; k++)
                if (owner_held[s][k])
                    assert_int_equal(refs_of(s, k), refs_before[s][k]);
        }
    }
    check_gets(t);
    return o[0].st;
}

static cgn_status twin_set(twin *t, uint32_t index, const void *value, size_t size, int owner_k,
                           int want_st) {
    const void *v[2] = {value, value};
    return twin_set2(t, index, v, size, owner_k, 0, want_st, NULL);
}

/* Sets every argument of the twin once per round, with values of seed + round. */
static void loop_all(twin *t, uint32_t rounds, uint32_t seed, int launch_every) {
    for (uint32_t r = 0; r < rounds; r++) {
        vals v;
        fill_vals(&v, t->l, seed + r);
        for (uint32_t j = 0; j < t->l->n; j++) {
            uint32_t i = (j * 3 + r) % t->l->n; /* every index, in an order that changes */
            twin_set(t, i, v.b[i], t->l->sizes[i], -1, CGN_OK);
        }
        if (launch_every && r % (uint32_t)launch_every == 0)
            check_runs(t);
    }
    check_twin(t);
}

/* ---- loops at both levels -------------------------------------------------------------------- */

/* A definition-level loop (cgn_kernel_node_set_arg against cgn_kernel_node_update): alternating
 * values of every size, each argument in turn; an executable made at the start keeps its values
 * ("existing executables keep their parameters"). */
static void test_definition_loop_every_size(void **state) {
    cgn_test_env *env = *state;
    register_layouts();
    make_owners();
    const layout *ls[2] = {&mix, &eight};
    for (int li = 0; li < 2; li++) {
        twin t = make_twin(env, ls[li], 100u + (uint32_t)li, 0);
        twin kept = t; /* executables made now, at the values of seed 100 + li */
        for (int s = 0; s < 2; s++)
            kept.s[s].x = bb_instantiate(t.s[s].g);
        check_twin(&t);
        /* Two values alternating, then fresh ones. */
        vals a, b;
        fill_vals(&a, t.l, 7);
        fill_vals(&b, t.l, 8);
        for (uint32_t it = 0; it < 40; it++) {
            uint32_t i = it % t.l->n;
            twin_set(&t, i, (it / t.l->n) % 2 ? a.b[i] : b.b[i], t.l->sizes[i], -1, CGN_OK);
            if (it % 9 == 0)
                check_runs(&t);
        }
        loop_all(&t, 12, 300, 4);
        check_twin(&kept);
        for (int s = 0; s < 2; s++) {
            OK(cgn_exec_destroy(kept.s[s].x));
            kept.s[s].x = NULL;
        }
        destroy_twin(&t);
    }
    drop_owner(0), drop_owner(1), drop_owner(2);
    for (int k = 0; k < NOWN; k++)
        expect_released(k, 1);
}

/* The same at executable level (cgn_kernel_exec_set_arg against cgn_kernel_exec_update): the
 * definition is not touched ("The definition and other executables are not touched"). */
static void test_exec_loop_every_size(void **state) {
    cgn_test_env *env = *state;
    register_layouts();
    make_owners();
    const layout *ls[2] = {&mix, &eight};
    for (int li = 0; li < 2; li++) {
        twin t = make_twin(env, ls[li], 200u + (uint32_t)li, 1);
        twin def = t;
        def.s[0].x = def.s[1].x = NULL;
        vals a, b;
        fill_vals(&a, t.l, 17);
        fill_vals(&b, t.l, 18);
        for (uint32_t it = 0; it < 40; it++) {
            uint32_t i = (it * 5) % t.l->n;
            twin_set(&t, i, it % 2 ? a.b[i] : b.b[i], t.l->sizes[i], -1, CGN_OK);
            if (it % 7 == 0)
                check_runs(&t);
        }
        loop_all(&t, 12, 400, 3);
        check_twin(&def);
        destroy_twin(&t);
    }
    drop_owner(0), drop_owner(1), drop_owner(2);
    for (int k = 0; k < NOWN; k++)
        expect_released(k, 1);
}

/* Kernels of 1 to 8 arguments, every index set at both levels, then the other level checked. */
static void test_kernels_of_one_to_eight_args(void **state) {
    cgn_test_env *env = *state;
    register_layouts();
    make_owners();
    for (uint32_t k = 0; k < NGEN; k++) {
        for (int level = 0; level < 2; level++) {
            twin t = make_twin(env, &gen[k], 500u + k, level);
            twin other = t;
            for (int s = 0; s < 2; s++)
                other.s[s].x = level ? NULL : bb_instantiate(t.s[s].g);
            loop_all(&t, 3, 600u + k * 10, 1);
            /* One past the last argument is refused for each kernel. */
            uint64_t big[3] = {0};
            twin_set(&t, gen[k].n, big, gen[k].sizes[gen[k].n % MAXA], -1, CGN_ERROR_INVALID_VALUE);
            check_twin(&other);
            if (!level)
                for (int s = 0; s < 2; s++)
                    OK(cgn_exec_destroy(other.s[s].x));
            destroy_twin(&t);
        }
    }
    drop_owner(0), drop_owner(1), drop_owner(2);
}

/* ---- owned arguments ------------------------------------------------------------------------- */

/* Definition level (ownership.md: owners are retained "for as long as any graph, clone,
 * executable or in-flight launch may use that version"; "Update to no owners drops the graph's
 * reference"): a pointer argument set with owner 0, replaced with none, then owner 1, then owner
 * 2 on the other pointer, unowned scalar updates between (references unchanged); an executable
 * made while owner 0 was attached keeps it after the definition moved on. Released exactly once,
 * owner 0 when that executable goes, the others when the graph goes, equally on both sides. */
static void test_owned_definition_arguments(void **state) {
    cgn_test_env *env = *state;
    register_layouts();
    make_owners();
    twin t = make_twin(env, &ptrs, 900, 0);
    const long base[NOWN] = {refs_of(0, 0), refs_of(0, 1), refs_of(0, 2)};
    for (int k = 0; k < NOWN; k++)
        assert_int_equal(refs_of(1, k), base[k]);
    uint64_t p0 = 0x1000, p1 = 0x2000, p2 = 0x3000;
    uint32_t scalar = 1;
    twin_set(&t, 0, &p0, sizeof p0, 0, CGN_OK);
    assert_true(refs_of(0, 0) > base[0]);
    const long held0 = refs_of(0, 0);
    for (int r = 0; r < 5; r++) { /* unowned scalar edits keep the attachment as it is */
        scalar += 3;
        twin_set(&t, 2, &scalar, sizeof scalar, -1, CGN_OK);
        assert_int_equal(refs_of(0, 0), held0);
    }
    check_runs(&t);
    cgn_exec *kept[2];
    for (int s = 0; s < 2; s++)
        kept[s] = bb_instantiate(t.s[s].g);
    /* Replaced with no owner: the executables' copies still hold owner 0's version. */
    p0 = 0x1100;
    twin_set(&t, 0, &p0, sizeof p0, -1, CGN_OK);
    assert_int_equal(refs_of(0, 0), held0);
    twin_set(&t, 0, &p1, sizeof p1, 1, CGN_OK);
    assert_true(refs_of(0, 1) > base[1]);
    twin_set(&t, 1, &p2, sizeof p2, 2, CGN_OK);
    /* Replaced with another owner. */
    twin_set(&t, 0, &p2, sizeof p2, 2, CGN_OK);
    collect_all();
    assert_int_equal(refs_of(0, 1), base[1]);
    for (int r = 0; r < 5; r++) {
        scalar += 5;
        twin_set(&t, 2, &scalar, sizeof scalar, -1, CGN_OK);
    }
    check_twin(&t);
    drop_owner(0), drop_owner(1), drop_owner(2);
    expect_released(0, 0); /* the executables */
    expect_released(1, 1); /* nothing held it any more: the test's reference was the last */
    expect_released(2, 0); /* the definition, twice */
    for (int s = 0; s < 2; s++)
        OK(cgn_exec_destroy(kept[s]));
    expect_released(0, 1);
    expect_released(2, 0);
    for (int s = 0; s < 2; s++) {
        OK(cgn_graph_destroy(t.s[s].g));
        t.s[s].g = NULL;
    }
    for (int k = 0; k < NOWN; k++)
        expect_released(k, 1);
}

/* Executable level ("Retired versions are released once no launch can read them"): owner 0 set
 * in the executable, launched and held in flight, replaced with none and then with owner 1:
 * owner 0 is not released while the launch is in flight, even with the executable destroyed,
 * and is released exactly once after it completes; owner 1 with the executable. */
static void test_owned_exec_arguments(void **state) {
    cgn_test_env *env = *state;
    register_layouts();
    make_owners();
    twin t = make_twin(env, &ptrs, 950, 1);
    const long base0 = refs_of(0, 0);
    uint64_t p0 = 0x4000, p1 = 0x5000;
    uint32_t scalar = 9;
    twin_set(&t, 1, &p0, sizeof p0, 0, CGN_OK);
    assert_true(refs_of(0, 0) > base0);
    check_runs(&t);
    for (int r = 0; r < 4; r++) {
        scalar++;
        twin_set(&t, 2, &scalar, sizeof scalar, -1, CGN_OK);
        check_runs(&t);
    }
    assert_true(env->backend->hold(env));
    for (int s = 0; s < 2; s++)
        OK(env->backend->launch_async(env, t.s[s].x));
    p0 = 0x4100;
    twin_set(&t, 1, &p0, sizeof p0, -1, CGN_OK); /* owner 0's version retired, launch in flight */
    twin_set(&t, 1, &p1, sizeof p1, 1, CGN_OK);
    drop_owner(0);
    expect_released(0, 0);
    for (int s = 0; s < 2; s++) {
        OK(cgn_exec_destroy(t.s[s].x));
        t.s[s].x = NULL;
    }
    expect_released(0, 0); /* the launch may still read it */
    env->backend->release(env);
    env->backend->sync(env);
    expect_released(0, 1);
    drop_owner(1), drop_owner(2);
    expect_released(1, 1);
    expect_released(2, 1);
    destroy_twin(&t);
    expect_released(0, 1);
}

/* ---- driver failures ------------------------------------------------------------------------- */

/* Each driver call of the update failing in turn, on both forms with the same nth: same status,
 * same failing entry, and after each failure both sides as before ("all or nothing"; ownership:
 * "Failed update: ... refcounts are exactly as before"). Unowned and owned edits, a first edit
 * and one in a steady state, then the loop goes on. */
static void sweep(twin *t, uint32_t index, const void *value, int owner_k) {
    const void *v[2] = {value, value};
    int setter_failed = 0;
    for (long nth = 1; nth < 64; nth++) {
        outcome o;
        cgn_status st = twin_set2(t, index, v, t->l->sizes[index], owner_k, nth, -1, &o);
        if (!o.hit) { /* the call made fewer than nth driver calls: it went through */
            assert_int_equal(st, CGN_OK);
            assert_true(setter_failed); /* the sweep reached the call that sets the params */
            check_runs(t);
            return;
        }
        if (st == CGN_OK)
            continue; /* a failure the library documents as absorbed (a probe): both agree */
        setter_failed |= cgn_fault_is_setter(o.which);
        assert_int_equal(o.last, st);
        check_runs(t); /* twin_set2 checked gets and references */
    }
    fail_msg("%s", "the update made 64 driver calls and failed each time");
}

static void failures_at(cgn_test_env *env, int exec_level) {
    make_owners();
    const layout *ls[2] = {&ptrs, &mix};
    for (int li = 0; li < 2; li++) {
        twin t = make_twin(env, ls[li], 1000u + (uint32_t)li, exec_level);
        const layout *l = t.l;
        vals v;
        for (uint32_t r = 0; r < 3; r++) {
            fill_vals(&v, l, 1100u + r);
            uint32_t i = (r * 2 + 1) % l->n;
            sweep(&t, i, v.b[i], -1);
        }
        if (l == &ptrs) {
            uint64_t p = 0x7000;
            sweep(&t, 0, &p, 0); /* a new owner: a new attachment */
            p = 0x7100;
            sweep(&t, 0, &p, 1); /* another */
            uint32_t sc = 77;
            sweep(&t, 2, &sc, -1); /* unowned edit of an owned node */
            p = 0x7200;
            sweep(&t, 0, &p, -1); /* back to no owner */
        }
        loop_all(&t, 3, 1200, 1);
        destroy_twin(&t);
    }
    drop_owner(0), drop_owner(1), drop_owner(2);
    for (int k = 0; k < NOWN; k++)
        expect_released(k, 1);
}

static void test_driver_failures_definition(void **state) {
    register_layouts();
    failures_at(*state, 0);
}

static void test_driver_failures_exec(void **state) {
    register_layouts();
    failures_at(*state, 1);
}

/* ---- hostile inputs -------------------------------------------------------------------------- */

/* Both forms given side s's handles (exec x[s], node n[s]) at a level: status want on both, same
 * outcome, and the twin as before. */
static void hostile(twin *t, int exec_level, cgn_exec *const x[2], cgn_node *const n[2],
                    uint32_t index, const void *value, size_t size, cgn_status want) {
    outcome o[2];
    for (int s = 0; s < 2; s++)
        run_form(s == 0, exec_level, x[s], n[s], index, value, size, NULL, 0, &o[s]);
    same_outcome(&o[0], &o[1], exec_level);
    if (o[0].st != want)
        fail_msg("%s: got %s (%s), want %s", form_name(1, exec_level), cgn_status_name(o[0].st),
                 o[0].msg, cgn_status_name(want));
    assert_true(o[0].msg[0] != '\0');
    check_gets(t);
}

/* Handles (nodes.md errors: "a NULL graph, node, executable ...; a value that is not a cgn
 * handle, or a handle of another kind; ... a node that is not part of the executable" is
 * CGN_ERROR_INVALID_ARGUMENT; "the node, graph or executable was destroyed ...; at executable
 * level, a node destroyed in its graph" CGN_ERROR_DESTROYED; "the node is of another type"
 * CGN_ERROR_WRONG_NODE_TYPE; cgn.h: after cgn_graph_destroy node handles "stay valid for
 * executable-level calls on executables made from it"). */
static void test_hostile_handles(void **state) {
    cgn_test_env *env = *state;
    register_layouts();
    make_owners();
    twin t = make_twin(env, &mix, 1300, 1);
    uint32_t v4 = 0xabcdef01u;
    cgn_exec *nox[2] = {NULL, NULL};
    cgn_node *non[2] = {NULL, NULL};
    cgn_exec *xs[2] = {t.s[0].x, t.s[1].x};
    cgn_node *ns[2] = {t.s[0].n, t.s[1].n};
    for (int level = 0; level < 2; level++) {
        hostile(&t, level, xs, non, 2, &v4, 4, CGN_ERROR_INVALID_ARGUMENT);
        /* A graph handle as a node; a value that never was a handle. */
        cgn_node *graph_as_node[2] = {(cgn_node *)t.s[0].g, (cgn_node *)t.s[1].g};
        hostile(&t, level, xs, graph_as_node, 2, &v4, 4, CGN_ERROR_INVALID_ARGUMENT);
        cgn_node *garbage[2] = {(cgn_node *)(uintptr_t)0x1234, (cgn_node *)(uintptr_t)0x1234};
        hostile(&t, level, xs, garbage, 2, &v4, 4, CGN_ERROR_INVALID_ARGUMENT);
    }
    cgn_exec *garbage_x[2] = {(cgn_exec *)(uintptr_t)0x1234, (cgn_exec *)(uintptr_t)0x1234};
    hostile(&t, 1, garbage_x, ns, 2, &v4, 4, CGN_ERROR_INVALID_ARGUMENT);
    hostile(&t, 1, nox, ns, 2, &v4, 4, CGN_ERROR_INVALID_ARGUMENT);
    cgn_exec *node_as_exec[2] = {(cgn_exec *)t.s[0].n, (cgn_exec *)t.s[1].n};
    hostile(&t, 1, node_as_exec, ns, 2, &v4, 4, CGN_ERROR_INVALID_ARGUMENT);

    /* A memset node, at both levels. */
    cgn_memset_desc md = cgn_test_fill_desc(env, 0, 0x11, 0);
    cgn_graph *mg[2];
    cgn_node *mn[2];
    cgn_exec *mx[2];
    for (int s = 0; s < 2; s++) {
        mg[s] = bb_graph_new();
        OK(cgn_graph_add_memset(mg[s], NULL, 0, &md, &mn[s]));
        mx[s] = bb_instantiate(mg[s]);
    }
    hostile(&t, 0, nox, mn, 2, &v4, 4, CGN_ERROR_WRONG_NODE_TYPE);
    hostile(&t, 1, mx, mn, 2, &v4, 4, CGN_ERROR_WRONG_NODE_TYPE);
    /* A kernel node of another graph, and one added after the instantiation: not part of the
     * executable. */
    cgn_graph *og[2];
    cgn_node *on[2], *late[2];
    for (int s = 0; s < 2; s++) {
        og[s] = bb_graph_new();
        on[s] = add_kernel(og[s], &mix, &t.model);
        late[s] = add_kernel(t.s[s].g, &mix, &t.model);
    }
    hostile(&t, 1, xs, on, 2, &v4, 4, CGN_ERROR_INVALID_ARGUMENT);
    hostile(&t, 1, xs, late, 2, &v4, 4, CGN_ERROR_INVALID_ARGUMENT);
    hostile(&t, 1, mx, ns, 2, &v4, 4, CGN_ERROR_INVALID_ARGUMENT);

    /* A destroyed node: definition and executable level. */
    for (int s = 0; s < 2; s++)
        OK(cgn_node_destroy(late[s]));
    hostile(&t, 0, nox, late, 2, &v4, 4, CGN_ERROR_DESTROYED);
    cgn_exec *x2[2];
    for (int s = 0; s < 2; s++) {
        cgn_node *extra = add_kernel(og[s], &mix, &t.model);
        x2[s] = bb_instantiate(og[s]);
        OK(cgn_node_destroy(extra));
        late[s] = extra;
    }
    hostile(&t, 1, x2, late, 2, &v4, 4, CGN_ERROR_DESTROYED);
    /* x2 still addresses on[] (its other node). */
    for (int s = 0; s < 2; s++)
        OK(call_form(s == 0, 1, x2[s], on[s], 2, &v4, 4, NULL));

    /* A destroyed executable. */
    for (int s = 0; s < 2; s++)
        OK(cgn_exec_destroy(mx[s]));
    hostile(&t, 1, mx, mn, 2, &v4, 4, CGN_ERROR_DESTROYED);
    for (int s = 0; s < 2; s++)
        OK(cgn_exec_destroy(x2[s]));
    hostile(&t, 1, x2, on, 2, &v4, 4, CGN_ERROR_DESTROYED);

    /* A destroyed graph: its nodes are destroyed at the definition level, still addressable in
     * an executable made from it. */
    for (int s = 0; s < 2; s++) {
        OK(cgn_graph_destroy(mg[s]));
        OK(cgn_graph_destroy(og[s]));
    }
    hostile(&t, 0, nox, on, 2, &v4, 4, CGN_ERROR_DESTROYED);
    check_twin(&t);
    for (int s = 0; s < 2; s++) {
        OK(cgn_graph_destroy(t.s[s].g));
        t.s[s].g = NULL;
    }
    hostile(&t, 0, nox, ns, 2, &v4, 4, CGN_ERROR_DESTROYED);
    loop_all(&t, 3, 1400, 1); /* the executables go on */
    destroy_twin(&t);
    drop_owner(0), drop_owner(1), drop_owner(2);
}

/* Values (generated/docs/nodes.md: "an edited argument's index is past the kernel's arguments,
 * or its size is not the kernel's" CGN_ERROR_INVALID_VALUE; "an edit without a value"
 * CGN_ERROR_INVALID_ARGUMENT; cgn_arg_edit: "UINT32_MAX stands for a size that did not fit
 * (refused)"; adopt.md: before 12.4 "CGN_ERROR_DRIVER_TOO_OLD before anything else is checked"),
 * at both levels, after steady-state updates, nothing changed. */
static void test_hostile_values(void **state) {
    cgn_test_env *env = *state;
    register_layouts();
    make_owners();
    for (int level = 0; level < 2; level++) {
        twin t = make_twin(env, &mix, 1500u + (uint32_t)level, level);
        unsigned char big[64];
        memset(big, 0x5a, sizeof big);
        const size_t huge[4] = {(size_t)UINT32_MAX, (size_t)UINT32_MAX + 1,
                                ((size_t)1 << 32) + 8 /* 8 once truncated */, SIZE_MAX};
        for (int round = 0; round < 3; round++) {
            loop_all(&t, 1, 1600u + (uint32_t)round, 0);
            twin_set(&t, 6, big, 8, -1, CGN_ERROR_INVALID_VALUE);
            twin_set(&t, 100, big, 8, -1, CGN_ERROR_INVALID_VALUE);
            twin_set(&t, UINT32_MAX, big, 8, -1, CGN_ERROR_INVALID_VALUE);
            twin_set(&t, 3, big, 4, -1, CGN_ERROR_INVALID_VALUE);  /* 8 bytes wanted */
            twin_set(&t, 3, big, 16, -1, CGN_ERROR_INVALID_VALUE); /* 8 bytes wanted */
            twin_set(&t, 0, big, 0, -1, CGN_ERROR_INVALID_VALUE);  /* 1 byte wanted */
            for (int h = 0; h < 4; h++)
                twin_set(&t, 3, big, huge[h], -1, CGN_ERROR_INVALID_VALUE);
            twin_set(&t, 3, NULL, 8, -1, CGN_ERROR_INVALID_ARGUMENT);
            twin_set(&t, 3, NULL, 8, 0, CGN_ERROR_INVALID_ARGUMENT); /* owned, no value */
            twin_set(&t, 5, big, 24, 1, CGN_OK); /* the widest argument, owned */
            twin_set(&t, 5, big + 8, 24, -1, CGN_OK);
            int version;
            OK(cgn_driver_version(&version));
            cgn_fault_set_version(12030);
            outcome o;
            const void *v[2] = {big, big};
            twin_set2(&t, 3, v, 8, -1, 0, CGN_ERROR_DRIVER_TOO_OLD, &o);
            assert_int_equal(o.calls[CGN_FAULT_cuGraphNodeSetParams] +
                                 o.calls[CGN_FAULT_cuGraphExecNodeSetParams],
                             0);
            twin_set2(&t, 99, v, 8, -1, 0, CGN_ERROR_DRIVER_TOO_OLD, &o); /* before the index */
            cgn_fault_set_version(version);
            check_twin(&t);
        }
        destroy_twin(&t);
    }
    drop_owner(0), drop_owner(1), drop_owner(2);
    for (int k = 0; k < NOWN; k++)
        expect_released(k, 1);
}

/* ---- values pointing into what a get returned ------------------------------------------------ */

/* cgn_kernel_node_get's `args` "points into cgn's copies, valid until the node's next update"; an
 * edit's value is "borrowed until it returns": each side's own get pointers passed straight
 * back, to the same index and to another of the same size (eight's 0, 6 are 8 bytes, 1, 7 are
 * 4), in a loop at both levels, mixed with fresh values. */
static void test_get_pointers_as_values(void **state) {
    cgn_test_env *env = *state;
    register_layouts();
    make_owners();
    for (int level = 0; level < 2; level++) {
        twin t = make_twin(env, &eight, 1700u + (uint32_t)level, level);
        static const uint32_t pairs[4][2] = {{0, 6}, {6, 0}, {1, 7}, {7, 1}};
        for (uint32_t it = 0; it < 24; it++) {
            vals fresh;
            fill_vals(&fresh, t.l, 1800 + it);
            uint32_t from = pairs[it % 4][0], to = pairs[it % 4][1];
            if (it % 3 == 0)
                to = from; /* the argument's own bytes */
            /* A fresh value first, so that the block just changed. */
            twin_set(&t, (it + 2) % t.l->n, fresh.b[(it + 2) % t.l->n],
                     t.l->sizes[(it + 2) % t.l->n], -1, CGN_OK);
            cgn_kernel_desc got[2];
            for (int s = 0; s < 2; s++)
                OK(level ? cgn_kernel_exec_get(t.s[s].x, t.s[s].n, &got[s])
                         : cgn_kernel_node_get(t.s[s].n, &got[s]));
            const void *v[2] = {got[0].args[from].value, got[1].args[from].value};
            unsigned char expect[ASZ];
            memcpy(expect, v[0], t.l->sizes[from]);
            twin_set2(&t, to, v, t.l->sizes[to], -1, 0, CGN_OK, NULL);
            assert_memory_equal(t.model.b[to], expect, t.l->sizes[to]);
            if (it % 4 == 3)
                check_runs(&t);
        }
        check_twin(&t);
        destroy_twin(&t);
    }
    drop_owner(0), drop_owner(1), drop_owner(2);
}

/* ---- adopted graphs, embeddings, executables made mid-loop ---------------------------------- */

/* Raw graphs of one kernel node each, built through the driver table and adopted (adopt.md:
 * argument-level updates work "on nodes cgn built and on adopted ones"; kernel arguments "copied
 * into cgn storage"): loops at the definition level and in executables of them, with driver
 * failures; the raw graphs go with the cgn graphs (CGN_ADOPT_TAKE_OWNERSHIP). */
static void test_adopted_graphs(void **state) {
    cgn_test_env *env = *state;
    register_layouts();
    make_owners();
    const cgn_driver_table *drv = env->backend->driver(env);
    const layout *ls[2] = {&mix, &ptrs};
    for (int li = 0; li < 2; li++) {
        twin t;
        memset(&t, 0, sizeof t);
        t.env = env;
        t.l = ls[li];
        for (uint32_t i = 0; i < MAXA; i++)
            t.model_owner[i] = -1;
        fill_vals(&t.model, t.l, 1900u + (uint32_t)li);
        for (int s = 0; s < 2; s++) {
            CUgraph raw;
            CU_OK(drv->cuGraphCreate(&raw, 0));
            void *params[MAXA];
            for (uint32_t i = 0; i < t.l->n; i++)
                params[i] = t.model.b[i];
            CUDA_KERNEL_NODE_PARAMS_v2 p;
            memset(&p, 0, sizeof p);
            p.kern = t.l->k.kernel;
            p.gridDimX = p.gridDimY = p.gridDimZ = 1;
            p.blockDimX = p.blockDimY = p.blockDimZ = 1;
            p.kernelParams = params;
            CUgraphNode node;
            CU_OK(drv->cuGraphAddKernelNode(&node, raw, NULL, 0, &p));
            OK(cgn_graph_adopt(raw, CGN_ADOPT_TAKE_OWNERSHIP, &t.s[s].g));
            size_t count = 1;
            OK(cgn_graph_nodes(t.s[s].g, &t.s[s].n, &count));
            assert_int_equal(count, 1);
            OK(cgn_node_check_updatable(t.s[s].n));
        }
        check_twin(&t);
        loop_all(&t, 4, 2000, 2);
        vals v;
        fill_vals(&v, t.l, 2100);
        sweep(&t, 1, v.b[1], -1);
        twin e = t;
        for (int s = 0; s < 2; s++)
            e.s[s].x = bb_instantiate(t.s[s].g);
        loop_all(&e, 4, 2200, 2);
        fill_vals(&v, t.l, 2300);
        sweep(&e, 0, v.b[0], -1);
        if (t.l == &ptrs) {
            uint64_t p = 0x8000;
            sweep(&e, 0, &p, 2);
            sweep(&t, 1, &p, 2);
        }
        check_twin(&t);
        for (int s = 0; s < 2; s++)
            OK(cgn_exec_destroy(e.s[s].x));
        destroy_twin(&t);
    }
    drop_owner(0), drop_owner(1), drop_owner(2);
    for (int k = 0; k < NOWN; k++)
        expect_released(k, 1);
}

/* A node of a graph embedded by a child-graph node (cgn.h: embedded nodes "can be updated too
 * (updates there affect only this embedding)"), found with cgn_child_graph_node_find: loops at
 * the definition level and in an executable of the parent; the source node keeps its values. */
static void test_child_graph_embeddings(void **state) {
    cgn_test_env *env = *state;
    register_layouts();
    make_owners();
    twin src = make_twin(env, &mix, 2400, 0);
    twin t = src;
    cgn_graph *parent[2];
    for (int s = 0; s < 2; s++) {
        parent[s] = bb_graph_new();
        cgn_node *child = add_child(parent[s], src.s[s].g);
        t.s[s].g = parent[s];
        t.s[s].n = bb_find(child, src.s[s].n);
        assert_ptr_not_equal(t.s[s].n, src.s[s].n);
    }
    check_twin(&t);
    loop_all(&t, 6, 2500, 2);
    check_twin(&src);
    twin e = t;
    for (int s = 0; s < 2; s++)
        e.s[s].x = bb_instantiate(parent[s]);
    loop_all(&e, 6, 2600, 2);
    vals v;
    fill_vals(&v, t.l, 2700);
    sweep(&e, 5, v.b[5], -1);
    sweep(&t, 4, v.b[4], -1);
    uint64_t p = 0x9000;
    twin_set(&e, 3, &p, sizeof p, 0, CGN_OK);
    twin_set(&t, 3, &p, sizeof p, 1, CGN_OK);
    check_twin(&src);
    check_twin(&e);
    /* The source graph goes first: the embedding stays. */
    for (int s = 0; s < 2; s++) {
        OK(cgn_graph_destroy(src.s[s].g));
        src.s[s].g = NULL;
    }
    loop_all(&t, 2, 2800, 1);
    loop_all(&e, 2, 2900, 1);
    for (int s = 0; s < 2; s++)
        OK(cgn_exec_destroy(e.s[s].x));
    destroy_twin(&t);
    drop_owner(0), drop_owner(1), drop_owner(2);
    for (int k = 0; k < NOWN; k++)
        expect_released(k, 1);
}

/* Executables made at several points of a definition loop keep their values; refreshed with
 * cgn_exec_update_from_graph (cgn.h: "Makes the executable run the graph's current parameters
 * ... with the graph's current owners held by the executable") they take the definition's, and
 * the loops go on at both levels, each side on its own. */
static void test_execs_made_and_refreshed_mid_loop(void **state) {
    cgn_test_env *env = *state;
    register_layouts();
    make_owners();
    twin d = make_twin(env, &eight, 3000, 0);
    twin e[3];
    for (int k = 0; k < 3; k++) {
        loop_all(&d, 2, 3100u + (uint32_t)k * 10, 0);
        if (k == 1) {
            uint64_t p = 0xa000;
            twin_set(&d, 0, &p, sizeof p, 0, CGN_OK);
        }
        e[k] = d;
        for (int s = 0; s < 2; s++)
            e[k].s[s].x = bb_instantiate(d.s[s].g);
    }
    loop_all(&d, 2, 3200, 1);
    for (int k = 0; k < 3; k++) {
        check_twin(&e[k]);
        loop_all(&e[k], 2, 3300u + (uint32_t)k * 10, 1);
    }
    /* e[0] refreshed: the definition's values and owners. */
    for (int s = 0; s < 2; s++)
        OK(cgn_exec_update_from_graph(e[0].s[s].x, d.s[s].g));
    memcpy(e[0].model.b, d.model.b, sizeof d.model.b);
    memcpy(e[0].model_owner, d.model_owner, sizeof d.model_owner);
    check_twin(&e[0]);
    uint64_t p = 0xb000;
    twin_set(&e[0], 6, &p, sizeof p, 1, CGN_OK);
    loop_all(&d, 2, 3400, 1);
    loop_all(&e[0], 2, 3500, 1);
    check_twin(&e[1]);
    check_twin(&e[2]);
    for (int k = 0; k < 3; k++)
        for (int s = 0; s < 2; s++)
            OK(cgn_exec_destroy(e[k].s[s].x));
    destroy_twin(&d);
    drop_owner(0), drop_owner(1), drop_owner(2);
    for (int k = 0; k < NOWN; k++)
        expect_released(k, 1);
}

/* Every argument changed with a raw driver call behind cgn's back (adopt.md: "fields an update
 * does not set keep cgn's value" without a refresh; cgn_node_refresh re-reads the driver's), then
 * an executable instantiated with the raw driver and adopted (cgn_exec_adopt; "nothing cgn holds
 * for executable-level updates is released before cgn_exec_destroy"): both forms agree and
 * follow the model throughout; an owner given at executable level goes with the executable. */
static void raw_set_all(cgn_test_env *env, cgn_node *n, const layout *l, const vals *v) {
    CUgraphNode raw;
    OK(cgn_node_raw(n, &raw));
    void *params[MAXA];
    for (uint32_t i = 0; i < l->n; i++)
        params[i] = (void *)v->b[i];
    CUDA_KERNEL_NODE_PARAMS_v2 p;
    memset(&p, 0, sizeof p);
    p.kern = l->k.kernel;
    p.gridDimX = p.gridDimY = p.gridDimZ = 1;
    p.blockDimX = p.blockDimY = p.blockDimZ = 1;
    p.kernelParams = params;
    CU_OK(env->backend->driver(env)->cuGraphKernelNodeSetParams(raw, &p));
}

static void test_raw_change_refresh_and_exec_adopt(void **state) {
    cgn_test_env *env = *state;
    register_layouts();
    make_owners();
    twin t = make_twin(env, &mix, 3600, 0);
    loop_all(&t, 2, 3700, 1);
    vals raw, v;
    fill_vals(&raw, t.l, 3800);
    fill_vals(&v, t.l, 3900);
    for (int s = 0; s < 2; s++)
        raw_set_all(env, t.s[s].n, t.l, &raw);
    twin_set(&t, 2, v.b[2], t.l->sizes[2], -1, CGN_OK); /* cgn's values of the rest come back */
    check_runs(&t);
    for (int s = 0; s < 2; s++) {
        raw_set_all(env, t.s[s].n, t.l, &raw);
        OK(cgn_node_refresh(t.s[s].n));
    }
    t.model = raw;
    check_twin(&t);
    twin_set(&t, 4, v.b[4], t.l->sizes[4], -1, CGN_OK); /* the raw values of the rest stay */
    check_runs(&t);
    sweep(&t, 1, v.b[1], -1);

    twin e = t;
    for (int s = 0; s < 2; s++) {
        CUgraph rg;
        CUgraphExec rx;
        OK(cgn_graph_raw(t.s[s].g, &rg));
        CU_OK(env->backend->driver(env)->cuGraphInstantiateWithFlags(&rx, rg, 0));
        OK(cgn_exec_adopt(rx, t.s[s].g, CGN_ADOPT_TAKE_OWNERSHIP, &e.s[s].x));
    }
    check_twin(&e);
    loop_all(&e, 3, 4000, 1);
    uint64_t p = 0xc000;
    twin_set(&e, 3, &p, sizeof p, 0, CGN_OK);
    check_runs(&e);
    sweep(&e, 5, v.b[5], -1);
    p = 0xc100;
    twin_set(&e, 3, &p, sizeof p, -1, CGN_OK);
    check_twin(&t); /* the definition saw none of it */
    drop_owner(0);
    expect_released(0, 0); /* launches through an adopted executable are invisible to cgn */
    for (int s = 0; s < 2; s++)
        OK(cgn_exec_destroy(e.s[s].x));
    expect_released(0, 1);
    destroy_twin(&t);
    drop_owner(1), drop_owner(2);
}

/* ---- two threads ---------------------------------------------------------------------------- */

enum { THREAD_ITERS = 2000 };

/* One thread's pair: the one-call form on side 0, the update form on side 1, each result and
 * get compared; no cmocka calls on the thread, only counts. */
typedef struct thread_pair {
    twin *t;
    int mismatches;
    int failures;
} thread_pair;

static void *pair_loop(void *arg) {
    thread_pair *tp = arg;
    twin *t = tp->t;
    const layout *l = t->l;
    for (uint32_t it = 0; it < THREAD_ITERS; it++) {
        vals v;
        uint32_t i = it % l->n;
        fill_arg(&v, l, i, 5000u + it);
        cgn_status st[2];
        for (int s = 0; s < 2; s++)
            st[s] = call_form(s == 0, t->s[s].x != NULL, t->s[s].x, t->s[s].n, i, v.b[i],
                              l->sizes[i], NULL);
        if (st[0] != CGN_OK || st[1] != CGN_OK) {
            tp->failures++;
            continue;
        }
        memcpy(t->model.b[i], v.b[i], ASZ);
        /* A refused call every so often: both forms, same status. */
        if (it % 50 == 0) {
            for (int s = 0; s < 2; s++)
                st[s] = call_form(s == 0, t->s[s].x != NULL, t->s[s].x, t->s[s].n, i, v.b[i],
                                  l->sizes[i] + 1, NULL);
            if (st[0] != CGN_ERROR_INVALID_VALUE || st[1] != CGN_ERROR_INVALID_VALUE)
                tp->mismatches++;
        }
        for (int s = 0; s < 2; s++) {
            cgn_kernel_desc d;
            cgn_status gs = t->s[s].x ? cgn_kernel_exec_get(t->s[s].x, t->s[s].n, &d)
                                      : cgn_kernel_node_get(t->s[s].n, &d);
            if (gs != CGN_OK || d.num_args != l->n) {
                tp->mismatches++;
                continue;
            }
            for (uint32_t a = 0; a < l->n; a++)
                if (memcmp(d.args[a].value, t->model.b[a], l->sizes[a]) != 0)
                    tp->mismatches++;
        }
    }
    return NULL;
}

/* Two threads, each looping on its own pair of hierarchies (cgn.h: one thread at a time per
 * hierarchy and per executable; "Different hierarchies may be used from different threads"):
 * one at the definition level, one at the executable level; both forms agree throughout and
 * the launches afterwards pass the model. The plain fake is installed (the fault proxy counts
 * calls in plain globals). */
static void test_two_threads(void **state) {
    cgn_test_env *env = *state;
    register_layouts();
    make_owners();
    cgn_driver_install(cgn_fake_table());
    twin d = make_twin(env, &mix, 6000, 0);
    twin e = make_twin(env, &eight, 6100, 1);
    thread_pair pd = {&d, 0, 0}, pe = {&e, 0, 0};
    pthread_t th[2];
    assert_int_equal(pthread_create(&th[0], NULL, pair_loop, &pd), 0);
    assert_int_equal(pthread_create(&th[1], NULL, pair_loop, &pe), 0);
    assert_int_equal(pthread_join(th[0], NULL), 0);
    assert_int_equal(pthread_join(th[1], NULL), 0);
    assert_int_equal(pd.failures, 0);
    assert_int_equal(pe.failures, 0);
    assert_int_equal(pd.mismatches, 0);
    assert_int_equal(pe.mismatches, 0);
    check_twin(&d);
    check_twin(&e);
    destroy_twin(&d);
    destroy_twin(&e);
    drop_owner(0), drop_owner(1), drop_owner(2);
    for (int k = 0; k < NOWN; k++)
        expect_released(k, 1);
}

#define BB6_TEST(fn)                                                                               \
    cmocka_unit_test_setup_teardown(fn, cgn_test_fixture_setup, cgn_test_fixture_teardown)

int main(void) {
    const struct CMUnitTest tests[] = {
        BB6_TEST(test_definition_loop_every_size),
        BB6_TEST(test_exec_loop_every_size),
        BB6_TEST(test_kernels_of_one_to_eight_args),
        BB6_TEST(test_owned_definition_arguments),
        BB6_TEST(test_owned_exec_arguments),
        BB6_TEST(test_driver_failures_definition),
        BB6_TEST(test_driver_failures_exec),
        BB6_TEST(test_hostile_handles),
        BB6_TEST(test_hostile_values),
        BB6_TEST(test_get_pointers_as_values),
        BB6_TEST(test_adopted_graphs),
        BB6_TEST(test_child_graph_embeddings),
        BB6_TEST(test_execs_made_and_refreshed_mid_loop),
        BB6_TEST(test_raw_change_refresh_and_exec_adopt),
        BB6_TEST(test_two_threads),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
