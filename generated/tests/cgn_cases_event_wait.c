/* Generated from spec/event_wait.yaml by codegen; do not edit. */
#include <string.h>

#include "cgn_test_env.h"
#include "cgn_test_cases.h"

extern const cgn_test_case cgn_test_cases_event_wait[];
extern const size_t cgn_test_cases_event_wait_count;
extern const cgn_test_type cgn_test_type_event_wait;

/* ---- cases: each fill function writes a full desc or an update ---- */

static void case_event_wait_original(cgn_test_env *env, void *out) {
    cgn_event_wait_desc *d = out;
    *d = (cgn_event_wait_desc)CGN_EVENT_WAIT_DESC_INIT;
    d->event = cgn_test_event(env, 0);
    d->event_owner = cgn_test_owner(env, 0);
}

static void case_event_wait_update(cgn_test_env *env, void *out) {
    cgn_event_wait_update *u = out;
    *u = (cgn_event_wait_update)CGN_EVENT_WAIT_UPDATE_INIT;
    u->set = CGN_EVENT_WAIT_SET_EVENT | CGN_EVENT_WAIT_SET_EVENT_OWNER;
    u->event = cgn_test_event(env, 1);
    u->event_owner = cgn_test_owner(env, 1);
}

static void case_event_wait_replacement(cgn_test_env *env, void *out) {
    cgn_event_wait_desc *d = out;
    *d = (cgn_event_wait_desc)CGN_EVENT_WAIT_DESC_INIT;
    d->event = cgn_test_event(env, 1);
    d->event_owner = cgn_test_owner(env, 1);
}

static void case_event_wait_invalid_0(cgn_test_env *env, void *out) {
    (void)env;
    cgn_event_wait_update *u = out;
    *u = (cgn_event_wait_update)CGN_EVENT_WAIT_UPDATE_INIT;
    u->set = CGN_EVENT_WAIT_SET_EVENT;
    u->event = NULL;
}

static void case_event_wait_invalid_1(cgn_test_env *env, void *out) {
    cgn_event_wait_update *u = out;
    *u = (cgn_event_wait_update)CGN_EVENT_WAIT_UPDATE_INIT;
    u->set = CGN_EVENT_WAIT_SET_EVENT_OWNER;
    u->event_owner = cgn_test_owner(env, 1);
}

static void case_event_wait_drop_owner_original(cgn_test_env *env, void *out) {
    cgn_event_wait_desc *d = out;
    *d = (cgn_event_wait_desc)CGN_EVENT_WAIT_DESC_INIT;
    d->event = cgn_test_event(env, 0);
    d->event_owner = cgn_test_owner(env, 0);
}

static void case_event_wait_drop_owner_update(cgn_test_env *env, void *out) {
    cgn_event_wait_update *u = out;
    *u = (cgn_event_wait_update)CGN_EVENT_WAIT_UPDATE_INIT;
    u->set = CGN_EVENT_WAIT_SET_EVENT;
    u->event = cgn_test_event(env, 1);
}

static void case_event_wait_drop_owner_replacement(cgn_test_env *env, void *out) {
    cgn_event_wait_desc *d = out;
    *d = (cgn_event_wait_desc)CGN_EVENT_WAIT_DESC_INIT;
    d->event = cgn_test_event(env, 1);
}

static void case_event_wait_drop_owner_invalid_0(cgn_test_env *env, void *out) {
    cgn_event_wait_update *u = out;
    *u = (cgn_event_wait_update)CGN_EVENT_WAIT_UPDATE_INIT;
    u->set = CGN_EVENT_WAIT_SET_EVENT | CGN_EVENT_WAIT_SET_EVENT_OWNER;
    u->event = NULL;
    u->event_owner = cgn_test_owner(env, 1);
}

static void case_event_wait_no_owners_original(cgn_test_env *env, void *out) {
    cgn_event_wait_desc *d = out;
    *d = (cgn_event_wait_desc)CGN_EVENT_WAIT_DESC_INIT;
    d->event = cgn_test_event(env, 0);
}

static void case_event_wait_no_owners_update(cgn_test_env *env, void *out) {
    cgn_event_wait_update *u = out;
    *u = (cgn_event_wait_update)CGN_EVENT_WAIT_UPDATE_INIT;
    u->set = CGN_EVENT_WAIT_SET_EVENT;
    u->event = cgn_test_event(env, 1);
}

static void case_event_wait_no_owners_replacement(cgn_test_env *env, void *out) {
    cgn_event_wait_desc *d = out;
    *d = (cgn_event_wait_desc)CGN_EVENT_WAIT_DESC_INIT;
    d->event = cgn_test_event(env, 1);
}

static void case_event_wait_no_owners_invalid_0(cgn_test_env *env, void *out) {
    (void)env;
    cgn_event_wait_update *u = out;
    *u = (cgn_event_wait_update)CGN_EVENT_WAIT_UPDATE_INIT;
    u->set = CGN_EVENT_WAIT_SET_EVENT;
    u->event = NULL;
}

static void case_event_wait_no_owners_invalid_1(cgn_test_env *env, void *out) {
    cgn_event_wait_update *u = out;
    *u = (cgn_event_wait_update)CGN_EVENT_WAIT_UPDATE_INIT;
    u->set = CGN_EVENT_WAIT_SET_EVENT_OWNER;
    u->event_owner = cgn_test_owner(env, 1);
}

static void case_event_wait_gains_owner_original(cgn_test_env *env, void *out) {
    cgn_event_wait_desc *d = out;
    *d = (cgn_event_wait_desc)CGN_EVENT_WAIT_DESC_INIT;
    d->event = cgn_test_event(env, 0);
}

static void case_event_wait_gains_owner_update(cgn_test_env *env, void *out) {
    cgn_event_wait_update *u = out;
    *u = (cgn_event_wait_update)CGN_EVENT_WAIT_UPDATE_INIT;
    u->set = CGN_EVENT_WAIT_SET_EVENT | CGN_EVENT_WAIT_SET_EVENT_OWNER;
    u->event = cgn_test_event(env, 1);
    u->event_owner = cgn_test_owner(env, 1);
}

static void case_event_wait_gains_owner_replacement(cgn_test_env *env, void *out) {
    cgn_event_wait_desc *d = out;
    *d = (cgn_event_wait_desc)CGN_EVENT_WAIT_DESC_INIT;
    d->event = cgn_test_event(env, 1);
    d->event_owner = cgn_test_owner(env, 1);
}

static void case_event_wait_gains_owner_invalid_0(cgn_test_env *env, void *out) {
    cgn_event_wait_update *u = out;
    *u = (cgn_event_wait_update)CGN_EVENT_WAIT_UPDATE_INIT;
    u->set = CGN_EVENT_WAIT_SET_EVENT | CGN_EVENT_WAIT_SET_EVENT_OWNER;
    u->event = NULL;
    u->event_owner = cgn_test_owner(env, 1);
}

static const cgn_test_invalid case_event_wait_invalid[] = {
    {case_event_wait_invalid_0, CGN_ERROR_INVALID_VALUE, "{event: null}"},
    {case_event_wait_invalid_1, CGN_ERROR_MISSING_FIELD, "{event_owner: owner:1}"},
};

static const cgn_test_invalid case_event_wait_drop_owner_invalid[] = {
    {case_event_wait_drop_owner_invalid_0, CGN_ERROR_INVALID_VALUE,
     "{event: null, event_owner: owner:1}"},
};

static const cgn_test_invalid case_event_wait_no_owners_invalid[] = {
    {case_event_wait_no_owners_invalid_0, CGN_ERROR_INVALID_VALUE, "{event: null}"},
    {case_event_wait_no_owners_invalid_1, CGN_ERROR_MISSING_FIELD, "{event_owner: owner:1}"},
};

static const cgn_test_invalid case_event_wait_gains_owner_invalid[] = {
    {case_event_wait_gains_owner_invalid_0, CGN_ERROR_INVALID_VALUE,
     "{event: null, event_owner: owner:1}"},
};

const cgn_test_case cgn_test_cases_event_wait[] = {
    {"event-wait", case_event_wait_original, case_event_wait_update, case_event_wait_replacement,
     case_event_wait_invalid, 2, NULL, 0, NULL},
    {"event-wait-drop-owner", case_event_wait_drop_owner_original,
     case_event_wait_drop_owner_update, case_event_wait_drop_owner_replacement,
     case_event_wait_drop_owner_invalid, 1, NULL, 0, NULL},
    {"event-wait-no-owners", case_event_wait_no_owners_original, case_event_wait_no_owners_update,
     case_event_wait_no_owners_replacement, case_event_wait_no_owners_invalid, 2, NULL, 0, NULL},
    {"event-wait-gains-owner", case_event_wait_gains_owner_original,
     case_event_wait_gains_owner_update, case_event_wait_gains_owner_replacement,
     case_event_wait_gains_owner_invalid, 1, NULL, 0, NULL},
};
const size_t cgn_test_cases_event_wait_count = 4;

/* ---- type adapter: lets scenario runners treat every node type alike ---- */

static cgn_status type_event_wait_add(cgn_graph *g, const void *desc, cgn_node **out) {
    return cgn_graph_add_event_wait(g, NULL, 0, desc, out);
}

static cgn_status type_event_wait_update(cgn_node *n, const void *u) {
    return cgn_event_wait_node_update(n, u);
}

static cgn_status type_event_wait_get(const cgn_node *n, void *desc) {
    return cgn_event_wait_node_get(n, desc);
}

static cgn_status type_event_wait_exec_update(cgn_exec *e, cgn_node *n, const void *u) {
    return cgn_event_wait_exec_update(e, n, u);
}

static cgn_status type_event_wait_exec_get(const cgn_exec *e, const cgn_node *n, void *desc) {
    return cgn_event_wait_exec_get(e, n, desc);
}

static void type_event_wait_update_from_desc(void *u, const void *desc) {
    cgn_event_wait_update_from_desc(u, desc);
}

static int type_event_wait_desc_equal(const void *a_, const void *b_) {
    const cgn_event_wait_desc *a = a_;
    const cgn_event_wait_desc *b = b_;
    return a->event == b->event && a->event_owner == b->event_owner;
}

/* desc_equal and the output fields (what the driver chose at add) too. */
static int type_event_wait_desc_same(const void *a_, const void *b_) {
    return type_event_wait_desc_equal(a_, b_);
}

const cgn_test_type cgn_test_type_event_wait = {
    "event_wait", CGN_NODE_EVENT_WAIT, sizeof(cgn_event_wait_desc), sizeof(cgn_event_wait_update),
    type_event_wait_add, type_event_wait_update, type_event_wait_get, type_event_wait_exec_update,
    type_event_wait_exec_get, type_event_wait_update_from_desc, type_event_wait_desc_equal,
    type_event_wait_desc_same, cgn_test_cases_event_wait, 4
};
