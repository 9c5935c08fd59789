/* Generated from spec/memcpy.yaml by codegen; do not edit. */
#include <string.h>

#include "cgn_test_env.h"
#include "cgn_test_cases.h"

extern const cgn_test_case cgn_test_cases_memcpy[];
extern const size_t cgn_test_cases_memcpy_count;
extern const cgn_test_type cgn_test_type_memcpy;

/* ---- cases: each fill function writes a full desc or an update ---- */

static void case_memcpy_size_original(cgn_test_env *env, void *out) {
    cgn_memcpy_desc *d = out;
    *d = (cgn_memcpy_desc)CGN_MEMCPY_DESC_INIT;
    d->dst = cgn_test_buf(env, 1);
    d->src = cgn_test_buf(env, 0);
    d->size = 2;
}

static void case_memcpy_size_update(cgn_test_env *env, void *out) {
    (void)env;
    cgn_memcpy_update *u = out;
    *u = (cgn_memcpy_update)CGN_MEMCPY_UPDATE_INIT;
    u->set = CGN_MEMCPY_SET_SIZE;
    u->size = 4;
}

static void case_memcpy_size_replacement(cgn_test_env *env, void *out) {
    cgn_memcpy_desc *d = out;
    *d = (cgn_memcpy_desc)CGN_MEMCPY_DESC_INIT;
    d->dst = cgn_test_buf(env, 1);
    d->src = cgn_test_buf(env, 0);
    d->size = 4;
}

static void case_memcpy_size_invalid_0(cgn_test_env *env, void *out) {
    (void)env;
    cgn_memcpy_update *u = out;
    *u = (cgn_memcpy_update)CGN_MEMCPY_UPDATE_INIT;
    u->set = CGN_MEMCPY_SET_SIZE;
    u->size = 0;
}

static void case_memcpy_size_exec_invalid_0(cgn_test_env *env, void *out) {
    cgn_memcpy_update *u = out;
    *u = (cgn_memcpy_update)CGN_MEMCPY_UPDATE_INIT;
    u->set = CGN_MEMCPY_SET_DST;
    u->dst = cgn_test_host(env, 0);
}

static void case_memcpy_size_exec_invalid_1(cgn_test_env *env, void *out) {
    cgn_memcpy_update *u = out;
    *u = (cgn_memcpy_update)CGN_MEMCPY_UPDATE_INIT;
    u->set = CGN_MEMCPY_SET_SRC;
    u->src = cgn_test_host(env, 1);
}

static void case_memcpy_source_original(cgn_test_env *env, void *out) {
    cgn_memcpy_desc *d = out;
    *d = (cgn_memcpy_desc)CGN_MEMCPY_DESC_INIT;
    d->dst = cgn_test_buf(env, 1);
    d->dst_owner = cgn_test_owner(env, 1);
    d->src = cgn_test_buf(env, 0);
    d->src_owner = cgn_test_owner(env, 0);
    d->size = 8;
}

static void case_memcpy_source_update(cgn_test_env *env, void *out) {
    cgn_memcpy_update *u = out;
    *u = (cgn_memcpy_update)CGN_MEMCPY_UPDATE_INIT;
    u->set = CGN_MEMCPY_SET_SRC | CGN_MEMCPY_SET_SRC_OWNER;
    u->src = cgn_test_buf(env, 2);
    u->src_owner = cgn_test_owner(env, 2);
}

static void case_memcpy_source_replacement(cgn_test_env *env, void *out) {
    cgn_memcpy_desc *d = out;
    *d = (cgn_memcpy_desc)CGN_MEMCPY_DESC_INIT;
    d->dst = cgn_test_buf(env, 1);
    d->dst_owner = cgn_test_owner(env, 1);
    d->src = cgn_test_buf(env, 2);
    d->src_owner = cgn_test_owner(env, 2);
    d->size = 8;
}

static void case_memcpy_source_invalid_0(cgn_test_env *env, void *out) {
    (void)env;
    cgn_memcpy_update *u = out;
    *u = (cgn_memcpy_update)CGN_MEMCPY_UPDATE_INIT;
    u->set = CGN_MEMCPY_SET_SRC;
    u->src = 0;
}

static void case_memcpy_source_invalid_1(cgn_test_env *env, void *out) {
    cgn_memcpy_update *u = out;
    *u = (cgn_memcpy_update)CGN_MEMCPY_UPDATE_INIT;
    u->set = CGN_MEMCPY_SET_SRC_OWNER;
    u->src_owner = cgn_test_owner(env, 2);
}

static void case_memcpy_destination_original(cgn_test_env *env, void *out) {
    cgn_memcpy_desc *d = out;
    *d = (cgn_memcpy_desc)CGN_MEMCPY_DESC_INIT;
    d->dst = cgn_test_buf(env, 1);
    d->dst_owner = cgn_test_owner(env, 1);
    d->src = cgn_test_buf(env, 0);
    d->size = 8;
}

static void case_memcpy_destination_update(cgn_test_env *env, void *out) {
    cgn_memcpy_update *u = out;
    *u = (cgn_memcpy_update)CGN_MEMCPY_UPDATE_INIT;
    u->set = CGN_MEMCPY_SET_DST | CGN_MEMCPY_SET_DST_OWNER;
    u->dst = cgn_test_buf(env, 2);
    u->dst_owner = cgn_test_owner(env, 2);
}

static void case_memcpy_destination_replacement(cgn_test_env *env, void *out) {
    cgn_memcpy_desc *d = out;
    *d = (cgn_memcpy_desc)CGN_MEMCPY_DESC_INIT;
    d->dst = cgn_test_buf(env, 2);
    d->dst_owner = cgn_test_owner(env, 2);
    d->src = cgn_test_buf(env, 0);
    d->size = 8;
}

static void case_memcpy_destination_invalid_0(cgn_test_env *env, void *out) {
    cgn_memcpy_update *u = out;
    *u = (cgn_memcpy_update)CGN_MEMCPY_UPDATE_INIT;
    u->set = CGN_MEMCPY_SET_DST | CGN_MEMCPY_SET_DST_OWNER;
    u->dst = 0;
    u->dst_owner = cgn_test_owner(env, 2);
}

static void case_memcpy_destination_invalid_1(cgn_test_env *env, void *out) {
    cgn_memcpy_update *u = out;
    *u = (cgn_memcpy_update)CGN_MEMCPY_UPDATE_INIT;
    u->set = CGN_MEMCPY_SET_DST_OWNER;
    u->dst_owner = cgn_test_owner(env, 2);
}

static void case_memcpy_device_to_host_original(cgn_test_env *env, void *out) {
    cgn_memcpy_desc *d = out;
    *d = (cgn_memcpy_desc)CGN_MEMCPY_DESC_INIT;
    d->dst = cgn_test_buf(env, 1);
    d->src = cgn_test_buf(env, 0);
    d->size = 16;
}

static void case_memcpy_device_to_host_update(cgn_test_env *env, void *out) {
    cgn_memcpy_update *u = out;
    *u = (cgn_memcpy_update)CGN_MEMCPY_UPDATE_INIT;
    u->set = CGN_MEMCPY_SET_DST;
    u->dst = cgn_test_host(env, 0);
}

static void case_memcpy_device_to_host_replacement(cgn_test_env *env, void *out) {
    cgn_memcpy_desc *d = out;
    *d = (cgn_memcpy_desc)CGN_MEMCPY_DESC_INIT;
    d->dst = cgn_test_host(env, 0);
    d->src = cgn_test_buf(env, 0);
    d->size = 16;
}

static void case_memcpy_device_to_host_invalid_0(cgn_test_env *env, void *out) {
    cgn_memcpy_update *u = out;
    *u = (cgn_memcpy_update)CGN_MEMCPY_UPDATE_INIT;
    u->set = CGN_MEMCPY_SET_DST | CGN_MEMCPY_SET_SIZE;
    u->dst = cgn_test_host(env, 0);
    u->size = 0;
}

static void case_memcpy_host_to_device_original(cgn_test_env *env, void *out) {
    cgn_memcpy_desc *d = out;
    *d = (cgn_memcpy_desc)CGN_MEMCPY_DESC_INIT;
    d->dst = cgn_test_buf(env, 1);
    d->src = cgn_test_buf(env, 0);
    d->size = 16;
}

static void case_memcpy_host_to_device_update(cgn_test_env *env, void *out) {
    cgn_memcpy_update *u = out;
    *u = (cgn_memcpy_update)CGN_MEMCPY_UPDATE_INIT;
    u->set = CGN_MEMCPY_SET_SRC | CGN_MEMCPY_SET_SRC_OWNER;
    u->src = cgn_test_host(env, 1);
    u->src_owner = cgn_test_owner(env, 3);
}

static void case_memcpy_host_to_device_replacement(cgn_test_env *env, void *out) {
    cgn_memcpy_desc *d = out;
    *d = (cgn_memcpy_desc)CGN_MEMCPY_DESC_INIT;
    d->dst = cgn_test_buf(env, 1);
    d->src = cgn_test_host(env, 1);
    d->src_owner = cgn_test_owner(env, 3);
    d->size = 16;
}

static void case_memcpy_host_to_device_invalid_0(cgn_test_env *env, void *out) {
    (void)env;
    cgn_memcpy_update *u = out;
    *u = (cgn_memcpy_update)CGN_MEMCPY_UPDATE_INIT;
    u->set = CGN_MEMCPY_SET_SRC;
    u->src = 0;
}

static void case_memcpy_host_back_to_device_original(cgn_test_env *env, void *out) {
    cgn_memcpy_desc *d = out;
    *d = (cgn_memcpy_desc)CGN_MEMCPY_DESC_INIT;
    d->dst = cgn_test_host(env, 0);
    d->src = cgn_test_host(env, 1);
    d->size = 16;
}

static void case_memcpy_host_back_to_device_update(cgn_test_env *env, void *out) {
    cgn_memcpy_update *u = out;
    *u = (cgn_memcpy_update)CGN_MEMCPY_UPDATE_INIT;
    u->set = CGN_MEMCPY_SET_DST | CGN_MEMCPY_SET_SRC | CGN_MEMCPY_SET_SIZE;
    u->dst = cgn_test_buf(env, 2);
    u->src = cgn_test_buf(env, 3);
    u->size = 12;
}

static void case_memcpy_host_back_to_device_replacement(cgn_test_env *env, void *out) {
    cgn_memcpy_desc *d = out;
    *d = (cgn_memcpy_desc)CGN_MEMCPY_DESC_INIT;
    d->dst = cgn_test_buf(env, 2);
    d->src = cgn_test_buf(env, 3);
    d->size = 12;
}

static void case_memcpy_host_back_to_device_invalid_0(cgn_test_env *env, void *out) {
    cgn_memcpy_update *u = out;
    *u = (cgn_memcpy_update)CGN_MEMCPY_UPDATE_INIT;
    u->set = CGN_MEMCPY_SET_DST | CGN_MEMCPY_SET_SRC;
    u->dst = cgn_test_buf(env, 2);
    u->src = 0;
}

static const cgn_test_exec_invalid case_memcpy_size_exec_invalid[] = {
    {case_memcpy_size_exec_invalid_0, CGN_ERROR_INVALID_VALUE, "{dst: host:0}", "dst"},
    {case_memcpy_size_exec_invalid_1, CGN_ERROR_INVALID_VALUE, "{src: host:1}", "src"},
};

static const cgn_test_invalid case_memcpy_size_invalid[] = {
    {case_memcpy_size_invalid_0, CGN_ERROR_INVALID_VALUE, "{size: 0}"},
};

static const cgn_test_invalid case_memcpy_source_invalid[] = {
    {case_memcpy_source_invalid_0, CGN_ERROR_INVALID_VALUE, "{src: 0}"},
    {case_memcpy_source_invalid_1, CGN_ERROR_MISSING_FIELD, "{src_owner: owner:2}"},
};

static const cgn_test_invalid case_memcpy_destination_invalid[] = {
    {case_memcpy_destination_invalid_0, CGN_ERROR_INVALID_VALUE, "{dst: 0, dst_owner: owner:2}"},
    {case_memcpy_destination_invalid_1, CGN_ERROR_MISSING_FIELD, "{dst_owner: owner:2}"},
};

static const cgn_test_invalid case_memcpy_device_to_host_invalid[] = {
    {case_memcpy_device_to_host_invalid_0, CGN_ERROR_INVALID_VALUE, "{dst: host:0, size: 0}"},
};

static const cgn_test_invalid case_memcpy_host_to_device_invalid[] = {
    {case_memcpy_host_to_device_invalid_0, CGN_ERROR_INVALID_VALUE, "{src: 0}"},
};

static const cgn_test_invalid case_memcpy_host_back_to_device_invalid[] = {
    {case_memcpy_host_back_to_device_invalid_0, CGN_ERROR_INVALID_VALUE, "{dst: buf:2, src: 0}"},
};

const cgn_test_case cgn_test_cases_memcpy[] = {
    {"memcpy-size", case_memcpy_size_original, case_memcpy_size_update,
     case_memcpy_size_replacement, case_memcpy_size_invalid, 1, case_memcpy_size_exec_invalid, 2,
     NULL},
    {"memcpy-source", case_memcpy_source_original, case_memcpy_source_update,
     case_memcpy_source_replacement, case_memcpy_source_invalid, 2, NULL, 0, NULL},
    {"memcpy-destination", case_memcpy_destination_original, case_memcpy_destination_update,
     case_memcpy_destination_replacement, case_memcpy_destination_invalid, 2, NULL, 0, NULL},
    {"memcpy-device-to-host", case_memcpy_device_to_host_original,
     case_memcpy_device_to_host_update, case_memcpy_device_to_host_replacement,
     case_memcpy_device_to_host_invalid, 1, NULL, 0, "dst"},
    {"memcpy-host-to-device", case_memcpy_host_to_device_original,
     case_memcpy_host_to_device_update, case_memcpy_host_to_device_replacement,
     case_memcpy_host_to_device_invalid, 1, NULL, 0, "src"},
    {"memcpy-host-back-to-device", case_memcpy_host_back_to_device_original,
     case_memcpy_host_back_to_device_update, case_memcpy_host_back_to_device_replacement,
     case_memcpy_host_back_to_device_invalid, 1, NULL, 0, "dst"},
};
const size_t cgn_test_cases_memcpy_count = 6;

/* ---- type adapter: lets scenario runners treat every node type alike ---- */

static cgn_status type_memcpy_add(cgn_graph *g, const void *desc, cgn_node **out) {
    return cgn_graph_add_memcpy(g, NULL, 0, desc, out);
}

static cgn_status type_memcpy_update(cgn_node *n, const void *u) {
    return cgn_memcpy_node_update(n, u);
}

static cgn_status type_memcpy_get(const cgn_node *n, void *desc) {
    return cgn_memcpy_node_get(n, desc);
}

static cgn_status type_memcpy_exec_update(cgn_exec *e, cgn_node *n, const void *u) {
    return cgn_memcpy_exec_update(e, n, u);
}

static cgn_status type_memcpy_exec_get(const cgn_exec *e, const cgn_node *n, void *desc) {
    return cgn_memcpy_exec_get(e, n, desc);
}

static void type_memcpy_update_from_desc(void *u, const void *desc) {
    cgn_memcpy_update_from_desc(u, desc);
}

static int type_memcpy_desc_equal(const void *a_, const void *b_) {
    const cgn_memcpy_desc *a = a_;
    const cgn_memcpy_desc *b = b_;
    return a->dst == b->dst && a->dst_owner == b->dst_owner && a->src == b->src &&
           a->src_owner == b->src_owner && a->size == b->size;
}

/* desc_equal and the output fields (what the driver chose at add) too. */
static int type_memcpy_desc_same(const void *a_, const void *b_) {
    return type_memcpy_desc_equal(a_, b_);
}

const cgn_test_type cgn_test_type_memcpy = {
    "memcpy", CGN_NODE_MEMCPY, sizeof(cgn_memcpy_desc), sizeof(cgn_memcpy_update), type_memcpy_add,
    type_memcpy_update, type_memcpy_get, type_memcpy_exec_update, type_memcpy_exec_get,
    type_memcpy_update_from_desc, type_memcpy_desc_equal, type_memcpy_desc_same,
    cgn_test_cases_memcpy, 6
};
