/* Generated from spec/memset.yaml by codegen; do not edit. */
#include <string.h>

#include "cgn_test_env.h"
#include "cgn_test_cases.h"

extern const cgn_test_case cgn_test_cases_memset[];
extern const size_t cgn_test_cases_memset_count;
extern const cgn_test_type cgn_test_type_memset;

/* ---- cases: each fill function writes a full desc or an update ---- */

static void case_memset_value_original(cgn_test_env *env, void *out) {
    cgn_memset_desc *d = out;
    *d = (cgn_memset_desc)CGN_MEMSET_DESC_INIT;
    d->dst = cgn_test_buf(env, 0);
    d->dst_owner = cgn_test_owner(env, 0);
    d->value = 0x11;
    d->element_size = 1;
    d->width = 4;
}

static void case_memset_value_update(cgn_test_env *env, void *out) {
    (void)env;
    cgn_memset_update *u = out;
    *u = (cgn_memset_update)CGN_MEMSET_UPDATE_INIT;
    u->set = CGN_MEMSET_SET_VALUE | CGN_MEMSET_SET_ELEMENT_SIZE;
    u->value = 0x22;
    u->element_size = 1;
}

static void case_memset_value_replacement(cgn_test_env *env, void *out) {
    cgn_memset_desc *d = out;
    *d = (cgn_memset_desc)CGN_MEMSET_DESC_INIT;
    d->dst = cgn_test_buf(env, 0);
    d->dst_owner = cgn_test_owner(env, 0);
    d->value = 0x22;
    d->element_size = 1;
    d->width = 4;
}

static void case_memset_value_invalid_0(cgn_test_env *env, void *out) {
    (void)env;
    cgn_memset_update *u = out;
    *u = (cgn_memset_update)CGN_MEMSET_UPDATE_INIT;
    u->set = CGN_MEMSET_SET_VALUE | CGN_MEMSET_SET_ELEMENT_SIZE;
    u->value = 256;
    u->element_size = 1;
}

static void case_memset_value_invalid_1(cgn_test_env *env, void *out) {
    (void)env;
    cgn_memset_update *u = out;
    *u = (cgn_memset_update)CGN_MEMSET_UPDATE_INIT;
    u->set = CGN_MEMSET_SET_VALUE | CGN_MEMSET_SET_ELEMENT_SIZE;
    u->value = 1;
    u->element_size = 3;
}

static void case_memset_value_invalid_2(cgn_test_env *env, void *out) {
    (void)env;
    cgn_memset_update *u = out;
    *u = (cgn_memset_update)CGN_MEMSET_UPDATE_INIT;
    u->set = CGN_MEMSET_SET_VALUE;
    u->value = 1;
}

static void case_memset_value_invalid_3(cgn_test_env *env, void *out) {
    (void)env;
    cgn_memset_update *u = out;
    *u = (cgn_memset_update)CGN_MEMSET_UPDATE_INIT;
    u->set = CGN_MEMSET_SET_VALUE | CGN_MEMSET_SET_ELEMENT_SIZE | CGN_MEMSET_SET_WIDTH;
    u->value = 1;
    u->element_size = 4;
    u->width = UINT64_C(18446744073709551615);
}

static void case_memset_value_exec_invalid_0(cgn_test_env *env, void *out) {
    (void)env;
    cgn_memset_update *u = out;
    *u = (cgn_memset_update)CGN_MEMSET_UPDATE_INIT;
    u->set = CGN_MEMSET_SET_HEIGHT | CGN_MEMSET_SET_PITCH;
    u->height = 2;
    u->pitch = 8;
}

static void case_memset_destination_original(cgn_test_env *env, void *out) {
    cgn_memset_desc *d = out;
    *d = (cgn_memset_desc)CGN_MEMSET_DESC_INIT;
    d->dst = cgn_test_buf(env, 0);
    d->dst_owner = cgn_test_owner(env, 0);
    d->value = 0x11;
    d->element_size = 1;
    d->width = 4;
}

static void case_memset_destination_update(cgn_test_env *env, void *out) {
    cgn_memset_update *u = out;
    *u = (cgn_memset_update)CGN_MEMSET_UPDATE_INIT;
    u->set = CGN_MEMSET_SET_DST | CGN_MEMSET_SET_DST_OWNER | CGN_MEMSET_SET_VALUE |
             CGN_MEMSET_SET_ELEMENT_SIZE;
    u->dst = cgn_test_buf(env, 1);
    u->dst_owner = cgn_test_owner(env, 1);
    u->value = 0x22;
    u->element_size = 1;
}

static void case_memset_destination_replacement(cgn_test_env *env, void *out) {
    cgn_memset_desc *d = out;
    *d = (cgn_memset_desc)CGN_MEMSET_DESC_INIT;
    d->dst = cgn_test_buf(env, 1);
    d->dst_owner = cgn_test_owner(env, 1);
    d->value = 0x22;
    d->element_size = 1;
    d->width = 4;
}

static void case_memset_destination_invalid_0(cgn_test_env *env, void *out) {
    (void)env;
    cgn_memset_update *u = out;
    *u = (cgn_memset_update)CGN_MEMSET_UPDATE_INIT;
    u->set = CGN_MEMSET_SET_DST;
    u->dst = 0;
}

static void case_memset_destination_invalid_1(cgn_test_env *env, void *out) {
    cgn_memset_update *u = out;
    *u = (cgn_memset_update)CGN_MEMSET_UPDATE_INIT;
    u->set = CGN_MEMSET_SET_DST_OWNER;
    u->dst_owner = cgn_test_owner(env, 1);
}

static void case_memset_shape_original(cgn_test_env *env, void *out) {
    cgn_memset_desc *d = out;
    *d = (cgn_memset_desc)CGN_MEMSET_DESC_INIT;
    d->dst = cgn_test_buf(env, 0);
    d->value = 0x11;
    d->element_size = 1;
    d->width = 4;
}

static void case_memset_shape_update(cgn_test_env *env, void *out) {
    (void)env;
    cgn_memset_update *u = out;
    *u = (cgn_memset_update)CGN_MEMSET_UPDATE_INIT;
    u->set = CGN_MEMSET_SET_WIDTH | CGN_MEMSET_SET_HEIGHT | CGN_MEMSET_SET_PITCH;
    u->width = 8;
    u->height = 2;
    u->pitch = 16;
}

static void case_memset_shape_replacement(cgn_test_env *env, void *out) {
    cgn_memset_desc *d = out;
    *d = (cgn_memset_desc)CGN_MEMSET_DESC_INIT;
    d->dst = cgn_test_buf(env, 0);
    d->value = 0x11;
    d->element_size = 1;
    d->width = 8;
    d->height = 2;
    d->pitch = 16;
}

static void case_memset_shape_invalid_0(cgn_test_env *env, void *out) {
    (void)env;
    cgn_memset_update *u = out;
    *u = (cgn_memset_update)CGN_MEMSET_UPDATE_INIT;
    u->set = CGN_MEMSET_SET_WIDTH;
    u->width = 0;
}

static void case_memset_shape_invalid_1(cgn_test_env *env, void *out) {
    (void)env;
    cgn_memset_update *u = out;
    *u = (cgn_memset_update)CGN_MEMSET_UPDATE_INIT;
    u->set = CGN_MEMSET_SET_HEIGHT | CGN_MEMSET_SET_PITCH;
    u->height = 2;
    u->pitch = 2;
}

static void case_memset_shape_invalid_2(cgn_test_env *env, void *out) {
    (void)env;
    cgn_memset_update *u = out;
    *u = (cgn_memset_update)CGN_MEMSET_UPDATE_INIT;
    u->set = CGN_MEMSET_SET_HEIGHT | CGN_MEMSET_SET_PITCH;
    u->height = 4;
    u->pitch = UINT64_C(6148914691236517206);
}

static void case_memset_wide_value_original(cgn_test_env *env, void *out) {
    cgn_memset_desc *d = out;
    *d = (cgn_memset_desc)CGN_MEMSET_DESC_INIT;
    d->dst = cgn_test_buf(env, 0);
    d->value = 0x11;
    d->element_size = 1;
    d->width = 4;
}

static void case_memset_wide_value_update(cgn_test_env *env, void *out) {
    (void)env;
    cgn_memset_update *u = out;
    *u = (cgn_memset_update)CGN_MEMSET_UPDATE_INIT;
    u->set = CGN_MEMSET_SET_VALUE | CGN_MEMSET_SET_ELEMENT_SIZE;
    u->value = 0x01020304;
    u->element_size = 4;
}

static void case_memset_wide_value_replacement(cgn_test_env *env, void *out) {
    cgn_memset_desc *d = out;
    *d = (cgn_memset_desc)CGN_MEMSET_DESC_INIT;
    d->dst = cgn_test_buf(env, 0);
    d->value = 0x01020304;
    d->element_size = 4;
    d->width = 4;
}

static void case_memset_wide_value_invalid_0(cgn_test_env *env, void *out) {
    (void)env;
    cgn_memset_update *u = out;
    *u = (cgn_memset_update)CGN_MEMSET_UPDATE_INIT;
    u->set = CGN_MEMSET_SET_VALUE | CGN_MEMSET_SET_ELEMENT_SIZE;
    u->value = 0x10000;
    u->element_size = 2;
}

static void case_memset_2d_value_original(cgn_test_env *env, void *out) {
    cgn_memset_desc *d = out;
    *d = (cgn_memset_desc)CGN_MEMSET_DESC_INIT;
    d->dst = cgn_test_buf(env, 0);
    d->value = 0x11;
    d->element_size = 1;
    d->width = 4;
    d->height = 2;
    d->pitch = 8;
}

static void case_memset_2d_value_update(cgn_test_env *env, void *out) {
    (void)env;
    cgn_memset_update *u = out;
    *u = (cgn_memset_update)CGN_MEMSET_UPDATE_INIT;
    u->set = CGN_MEMSET_SET_VALUE | CGN_MEMSET_SET_ELEMENT_SIZE;
    u->value = 0x33;
    u->element_size = 1;
}

static void case_memset_2d_value_replacement(cgn_test_env *env, void *out) {
    cgn_memset_desc *d = out;
    *d = (cgn_memset_desc)CGN_MEMSET_DESC_INIT;
    d->dst = cgn_test_buf(env, 0);
    d->value = 0x33;
    d->element_size = 1;
    d->width = 4;
    d->height = 2;
    d->pitch = 8;
}

static void case_memset_2d_value_invalid_0(cgn_test_env *env, void *out) {
    (void)env;
    cgn_memset_update *u = out;
    *u = (cgn_memset_update)CGN_MEMSET_UPDATE_INIT;
    u->set = CGN_MEMSET_SET_PITCH;
    u->pitch = 3;
}

static void case_memset_2d_value_exec_invalid_0(cgn_test_env *env, void *out) {
    (void)env;
    cgn_memset_update *u = out;
    *u = (cgn_memset_update)CGN_MEMSET_UPDATE_INIT;
    u->set = CGN_MEMSET_SET_WIDTH;
    u->width = 2;
}

static void case_memset_2d_value_exec_invalid_1(cgn_test_env *env, void *out) {
    (void)env;
    cgn_memset_update *u = out;
    *u = (cgn_memset_update)CGN_MEMSET_UPDATE_INIT;
    u->set = CGN_MEMSET_SET_PITCH;
    u->pitch = 16;
}

static void case_memset_2d_value_exec_invalid_2(cgn_test_env *env, void *out) {
    (void)env;
    cgn_memset_update *u = out;
    *u = (cgn_memset_update)CGN_MEMSET_UPDATE_INIT;
    u->set = CGN_MEMSET_SET_HEIGHT;
    u->height = 3;
}

static void case_memset_2d_value_exec_invalid_3(cgn_test_env *env, void *out) {
    (void)env;
    cgn_memset_update *u = out;
    *u = (cgn_memset_update)CGN_MEMSET_UPDATE_INIT;
    u->set = CGN_MEMSET_SET_VALUE | CGN_MEMSET_SET_ELEMENT_SIZE;
    u->value = 0x3333;
    u->element_size = 2;
}

static const cgn_test_exec_invalid case_memset_value_exec_invalid[] = {
    {case_memset_value_exec_invalid_0, CGN_ERROR_INVALID_VALUE, "{height: 2, pitch: 8}", "height"},
};

static const cgn_test_exec_invalid case_memset_2d_value_exec_invalid[] = {
    {case_memset_2d_value_exec_invalid_0, CGN_ERROR_INVALID_VALUE, "{width: 2}", "width"},
    {case_memset_2d_value_exec_invalid_1, CGN_ERROR_INVALID_VALUE, "{pitch: 16}", "pitch"},
    {case_memset_2d_value_exec_invalid_2, CGN_ERROR_INVALID_VALUE, "{height: 3}", "height"},
    {case_memset_2d_value_exec_invalid_3, CGN_ERROR_INVALID_VALUE,
     "{value: 0x3333, element_size: 2}", "element_size"},
};

static const cgn_test_invalid case_memset_value_invalid[] = {
    {case_memset_value_invalid_0, CGN_ERROR_OUT_OF_RANGE, "{value: 256, element_size: 1}"},
    {case_memset_value_invalid_1, CGN_ERROR_INVALID_VALUE, "{value: 1, element_size: 3}"},
    {case_memset_value_invalid_2, CGN_ERROR_MISSING_FIELD, "{value: 1}"},
    {case_memset_value_invalid_3, CGN_ERROR_OUT_OF_RANGE,
     "{width: 18446744073709551615, value: 1, element_size: 4}"},
};

static const cgn_test_invalid case_memset_destination_invalid[] = {
    {case_memset_destination_invalid_0, CGN_ERROR_INVALID_VALUE, "{dst: 0}"},
    {case_memset_destination_invalid_1, CGN_ERROR_MISSING_FIELD, "{dst_owner: owner:1}"},
};

static const cgn_test_invalid case_memset_shape_invalid[] = {
    {case_memset_shape_invalid_0, CGN_ERROR_INVALID_VALUE, "{width: 0}"},
    {case_memset_shape_invalid_1, CGN_ERROR_INVALID_VALUE, "{height: 2, pitch: 2}"},
    {case_memset_shape_invalid_2, CGN_ERROR_OUT_OF_RANGE,
     "{height: 4, pitch: 6148914691236517206}"},
};

static const cgn_test_invalid case_memset_wide_value_invalid[] = {
    {case_memset_wide_value_invalid_0, CGN_ERROR_OUT_OF_RANGE, "{value: 0x10000, element_size: 2}"},
};

static const cgn_test_invalid case_memset_2d_value_invalid[] = {
    {case_memset_2d_value_invalid_0, CGN_ERROR_INVALID_VALUE, "{pitch: 3}"},
};

const cgn_test_case cgn_test_cases_memset[] = {
    {"memset-value", case_memset_value_original, case_memset_value_update,
     case_memset_value_replacement, case_memset_value_invalid, 4, case_memset_value_exec_invalid, 1,
     NULL},
    {"memset-destination", case_memset_destination_original, case_memset_destination_update,
     case_memset_destination_replacement, case_memset_destination_invalid, 2, NULL, 0, NULL},
    {"memset-shape", case_memset_shape_original, case_memset_shape_update,
     case_memset_shape_replacement, case_memset_shape_invalid, 3, NULL, 0, "height"},
    {"memset-wide-value", case_memset_wide_value_original, case_memset_wide_value_update,
     case_memset_wide_value_replacement, case_memset_wide_value_invalid, 1, NULL, 0, NULL},
    {"memset-2d-value", case_memset_2d_value_original, case_memset_2d_value_update,
     case_memset_2d_value_replacement, case_memset_2d_value_invalid, 1,
     case_memset_2d_value_exec_invalid, 4, NULL},
};
const size_t cgn_test_cases_memset_count = 5;

/* ---- type adapter: lets scenario runners treat every node type alike ---- */

static cgn_status type_memset_add(cgn_graph *g, const void *desc, cgn_node **out) {
    return cgn_graph_add_memset(g, NULL, 0, desc, out);
}

static cgn_status type_memset_update(cgn_node *n, const void *u) {
    return cgn_memset_node_update(n, u);
}

static cgn_status type_memset_get(const cgn_node *n, void *desc) {
    return cgn_memset_node_get(n, desc);
}

static cgn_status type_memset_exec_update(cgn_exec *e, cgn_node *n, const void *u) {
    return cgn_memset_exec_update(e, n, u);
}

static cgn_status type_memset_exec_get(const cgn_exec *e, const cgn_node *n, void *desc) {
    return cgn_memset_exec_get(e, n, desc);
}

static void type_memset_update_from_desc(void *u, const void *desc) {
    cgn_memset_update_from_desc(u, desc);
}

static int type_memset_desc_equal(const void *a_, const void *b_) {
    const cgn_memset_desc *a = a_;
    const cgn_memset_desc *b = b_;
    return a->dst == b->dst && a->dst_owner == b->dst_owner && a->value == b->value &&
           a->element_size == b->element_size && a->width == b->width && a->height == b->height &&
           a->pitch == b->pitch;
}

/* desc_equal and the output fields (what the driver chose at add) too. */
static int type_memset_desc_same(const void *a_, const void *b_) {
    return type_memset_desc_equal(a_, b_);
}

const cgn_test_type cgn_test_type_memset = {
    "memset", CGN_NODE_MEMSET, sizeof(cgn_memset_desc), sizeof(cgn_memset_update), type_memset_add,
    type_memset_update, type_memset_get, type_memset_exec_update, type_memset_exec_get,
    type_memset_update_from_desc, type_memset_desc_equal, type_memset_desc_same,
    cgn_test_cases_memset, 5
};
