/* Generated from spec/memcpy_3d.yaml by codegen; do not edit. */
#include <string.h>

#include "cgn_test_env.h"
#include "cgn_test_cases.h"

extern const cgn_test_case cgn_test_cases_memcpy_3d[];
extern const size_t cgn_test_cases_memcpy_3d_count;
extern const cgn_test_type cgn_test_type_memcpy_3d;

/* ---- cases: each fill function writes a full desc or an update ---- */

static void case_memcpy3d_2d_pitched_original(cgn_test_env *env, void *out) {
    cgn_memcpy_3d_desc *d = out;
    *d = (cgn_memcpy_3d_desc)CGN_MEMCPY_3D_DESC_INIT;
    d->dst = cgn_test_buf(env, 1);
    d->dst_pitch = 8;
    d->src = cgn_test_buf(env, 0);
    d->src_pitch = 16;
    d->width_in_bytes = 4;
    d->height = 3;
}

static void case_memcpy3d_2d_pitched_update(cgn_test_env *env, void *out) {
    (void)env;
    cgn_memcpy_3d_update *u = out;
    *u = (cgn_memcpy_3d_update)CGN_MEMCPY_3D_UPDATE_INIT;
    u->set = CGN_MEMCPY_3D_SET_SRC_X_IN_BYTES;
    u->src_x_in_bytes = 2;
}

static void case_memcpy3d_2d_pitched_replacement(cgn_test_env *env, void *out) {
    cgn_memcpy_3d_desc *d = out;
    *d = (cgn_memcpy_3d_desc)CGN_MEMCPY_3D_DESC_INIT;
    d->dst = cgn_test_buf(env, 1);
    d->dst_pitch = 8;
    d->src = cgn_test_buf(env, 0);
    d->src_x_in_bytes = 2;
    d->src_pitch = 16;
    d->width_in_bytes = 4;
    d->height = 3;
}

static void case_memcpy3d_2d_pitched_invalid_0(cgn_test_env *env, void *out) {
    (void)env;
    cgn_memcpy_3d_update *u = out;
    *u = (cgn_memcpy_3d_update)CGN_MEMCPY_3D_UPDATE_INIT;
    u->set = CGN_MEMCPY_3D_SET_DST_PITCH;
    u->dst_pitch = 3;
}

static void case_memcpy3d_2d_pitched_invalid_1(cgn_test_env *env, void *out) {
    (void)env;
    cgn_memcpy_3d_update *u = out;
    *u = (cgn_memcpy_3d_update)CGN_MEMCPY_3D_UPDATE_INIT;
    u->set = CGN_MEMCPY_3D_SET_SRC_X_IN_BYTES;
    u->src_x_in_bytes = UINT64_C(18446744073709551615);
}

static void case_memcpy3d_2d_pitched_invalid_2(cgn_test_env *env, void *out) {
    (void)env;
    cgn_memcpy_3d_update *u = out;
    *u = (cgn_memcpy_3d_update)CGN_MEMCPY_3D_UPDATE_INIT;
    u->set = CGN_MEMCPY_3D_SET_WIDTH_IN_BYTES;
    u->width_in_bytes = 0;
}

static void case_memcpy3d_2d_pitched_invalid_3(cgn_test_env *env, void *out) {
    (void)env;
    cgn_memcpy_3d_update *u = out;
    *u = (cgn_memcpy_3d_update)CGN_MEMCPY_3D_UPDATE_INIT;
    u->set = CGN_MEMCPY_3D_SET_HEIGHT;
    u->height = 0;
}

static void case_memcpy3d_2d_pitched_invalid_4(cgn_test_env *env, void *out) {
    (void)env;
    cgn_memcpy_3d_update *u = out;
    *u = (cgn_memcpy_3d_update)CGN_MEMCPY_3D_UPDATE_INIT;
    u->set = CGN_MEMCPY_3D_SET_SRC_PITCH | CGN_MEMCPY_3D_SET_HEIGHT;
    u->src_pitch = UINT64_C(9223372036854775808);
    u->height = 4;
}

static void case_memcpy3d_2d_pitched_invalid_5(cgn_test_env *env, void *out) {
    cgn_memcpy_3d_update *u = out;
    *u = (cgn_memcpy_3d_update)CGN_MEMCPY_3D_UPDATE_INIT;
    u->set = CGN_MEMCPY_3D_SET_SRC_OWNER;
    u->src_owner = cgn_test_owner(env, 2);
}

static void case_memcpy3d_3d_original(cgn_test_env *env, void *out) {
    cgn_memcpy_3d_desc *d = out;
    *d = (cgn_memcpy_3d_desc)CGN_MEMCPY_3D_DESC_INIT;
    d->dst = cgn_test_buf(env, 2);
    d->dst_owner = cgn_test_owner(env, 2);
    d->dst_pitch = 6;
    d->dst_height = 2;
    d->src = cgn_test_buf(env, 3);
    d->src_pitch = 8;
    d->src_height = 3;
    d->width_in_bytes = 3;
    d->height = 2;
    d->depth = 2;
}

static void case_memcpy3d_3d_update(cgn_test_env *env, void *out) {
    (void)env;
    cgn_memcpy_3d_update *u = out;
    *u = (cgn_memcpy_3d_update)CGN_MEMCPY_3D_UPDATE_INIT;
    u->set = CGN_MEMCPY_3D_SET_SRC_Y;
    u->src_y = 1;
}

static void case_memcpy3d_3d_replacement(cgn_test_env *env, void *out) {
    cgn_memcpy_3d_desc *d = out;
    *d = (cgn_memcpy_3d_desc)CGN_MEMCPY_3D_DESC_INIT;
    d->dst = cgn_test_buf(env, 2);
    d->dst_owner = cgn_test_owner(env, 2);
    d->dst_pitch = 6;
    d->dst_height = 2;
    d->src = cgn_test_buf(env, 3);
    d->src_y = 1;
    d->src_pitch = 8;
    d->src_height = 3;
    d->width_in_bytes = 3;
    d->height = 2;
    d->depth = 2;
}

static void case_memcpy3d_3d_invalid_0(cgn_test_env *env, void *out) {
    (void)env;
    cgn_memcpy_3d_update *u = out;
    *u = (cgn_memcpy_3d_update)CGN_MEMCPY_3D_UPDATE_INIT;
    u->set = CGN_MEMCPY_3D_SET_DST_HEIGHT;
    u->dst_height = 1;
}

static void case_memcpy3d_3d_invalid_1(cgn_test_env *env, void *out) {
    (void)env;
    cgn_memcpy_3d_update *u = out;
    *u = (cgn_memcpy_3d_update)CGN_MEMCPY_3D_UPDATE_INIT;
    u->set = CGN_MEMCPY_3D_SET_DEPTH;
    u->depth = 0;
}

static void case_memcpy3d_3d_invalid_2(cgn_test_env *env, void *out) {
    (void)env;
    cgn_memcpy_3d_update *u = out;
    *u = (cgn_memcpy_3d_update)CGN_MEMCPY_3D_UPDATE_INIT;
    u->set = CGN_MEMCPY_3D_SET_SRC_Z;
    u->src_z = UINT64_C(18446744073709551615);
}

static void case_memcpy3d_3d_invalid_3(cgn_test_env *env, void *out) {
    (void)env;
    cgn_memcpy_3d_update *u = out;
    *u = (cgn_memcpy_3d_update)CGN_MEMCPY_3D_UPDATE_INIT;
    u->set = CGN_MEMCPY_3D_SET_SRC_Z | CGN_MEMCPY_3D_SET_SRC_HEIGHT;
    u->src_z = 4;
    u->src_height = UINT64_C(4611686018427387904);
}

static void case_memcpy3d_device_to_array_original(cgn_test_env *env, void *out) {
    cgn_memcpy_3d_desc *d = out;
    *d = (cgn_memcpy_3d_desc)CGN_MEMCPY_3D_DESC_INIT;
    d->dst_array = cgn_test_array(env, 0);
    d->dst_array_owner = cgn_test_owner(env, 0);
    d->src = cgn_test_buf(env, 0);
    d->src_pitch = 8;
    d->src_height = 4;
    d->width_in_bytes = 8;
    d->height = 4;
    d->depth = 2;
}

static void case_memcpy3d_device_to_array_update(cgn_test_env *env, void *out) {
    cgn_memcpy_3d_update *u = out;
    *u = (cgn_memcpy_3d_update)CGN_MEMCPY_3D_UPDATE_INIT;
    u->set = CGN_MEMCPY_3D_SET_SRC | CGN_MEMCPY_3D_SET_SRC_OWNER;
    u->src = cgn_test_buf(env, 1);
    u->src_owner = cgn_test_owner(env, 1);
}

static void case_memcpy3d_device_to_array_replacement(cgn_test_env *env, void *out) {
    cgn_memcpy_3d_desc *d = out;
    *d = (cgn_memcpy_3d_desc)CGN_MEMCPY_3D_DESC_INIT;
    d->dst_array = cgn_test_array(env, 0);
    d->dst_array_owner = cgn_test_owner(env, 0);
    d->src = cgn_test_buf(env, 1);
    d->src_owner = cgn_test_owner(env, 1);
    d->src_pitch = 8;
    d->src_height = 4;
    d->width_in_bytes = 8;
    d->height = 4;
    d->depth = 2;
}

static void case_memcpy3d_device_to_array_invalid_0(cgn_test_env *env, void *out) {
    cgn_memcpy_3d_update *u = out;
    *u = (cgn_memcpy_3d_update)CGN_MEMCPY_3D_UPDATE_INIT;
    u->set = CGN_MEMCPY_3D_SET_DST;
    u->dst = cgn_test_buf(env, 2);
}

static void case_memcpy3d_device_to_array_invalid_1(cgn_test_env *env, void *out) {
    (void)env;
    cgn_memcpy_3d_update *u = out;
    *u = (cgn_memcpy_3d_update)CGN_MEMCPY_3D_UPDATE_INIT;
    u->set = CGN_MEMCPY_3D_SET_SRC;
    u->src = 0;
}

static void case_memcpy3d_device_to_array_invalid_2(cgn_test_env *env, void *out) {
    cgn_memcpy_3d_update *u = out;
    *u = (cgn_memcpy_3d_update)CGN_MEMCPY_3D_UPDATE_INIT;
    u->set = CGN_MEMCPY_3D_SET_DST_ARRAY_OWNER;
    u->dst_array_owner = cgn_test_owner(env, 3);
}

static void case_memcpy3d_array_to_device_original(cgn_test_env *env, void *out) {
    cgn_memcpy_3d_desc *d = out;
    *d = (cgn_memcpy_3d_desc)CGN_MEMCPY_3D_DESC_INIT;
    d->dst = cgn_test_buf(env, 1);
    d->dst_pitch = 16;
    d->src_array = cgn_test_array(env, 1);
    d->src_array_owner = cgn_test_owner(env, 3);
    d->src_x_in_bytes = 2;
    d->src_y = 1;
    d->width_in_bytes = 4;
    d->height = 2;
}

static void case_memcpy3d_array_to_device_update(cgn_test_env *env, void *out) {
    (void)env;
    cgn_memcpy_3d_update *u = out;
    *u = (cgn_memcpy_3d_update)CGN_MEMCPY_3D_UPDATE_INIT;
    u->set = CGN_MEMCPY_3D_SET_SRC_Z;
    u->src_z = 1;
}

static void case_memcpy3d_array_to_device_replacement(cgn_test_env *env, void *out) {
    cgn_memcpy_3d_desc *d = out;
    *d = (cgn_memcpy_3d_desc)CGN_MEMCPY_3D_DESC_INIT;
    d->dst = cgn_test_buf(env, 1);
    d->dst_pitch = 16;
    d->src_array = cgn_test_array(env, 1);
    d->src_array_owner = cgn_test_owner(env, 3);
    d->src_x_in_bytes = 2;
    d->src_y = 1;
    d->src_z = 1;
    d->width_in_bytes = 4;
    d->height = 2;
}

static void case_memcpy3d_array_to_device_invalid_0(cgn_test_env *env, void *out) {
    (void)env;
    cgn_memcpy_3d_update *u = out;
    *u = (cgn_memcpy_3d_update)CGN_MEMCPY_3D_UPDATE_INIT;
    u->set = CGN_MEMCPY_3D_SET_SRC_ARRAY;
    u->src_array = NULL;
}

static void case_memcpy3d_array_to_device_invalid_1(cgn_test_env *env, void *out) {
    cgn_memcpy_3d_update *u = out;
    *u = (cgn_memcpy_3d_update)CGN_MEMCPY_3D_UPDATE_INIT;
    u->set = CGN_MEMCPY_3D_SET_SRC;
    u->src = cgn_test_buf(env, 0);
}

static void case_memcpy3d_host_to_device_2d_original(cgn_test_env *env, void *out) {
    cgn_memcpy_3d_desc *d = out;
    *d = (cgn_memcpy_3d_desc)CGN_MEMCPY_3D_DESC_INIT;
    d->dst = cgn_test_buf(env, 2);
    d->dst_pitch = 8;
    d->src = cgn_test_host(env, 0);
    d->src_pitch = 16;
    d->width_in_bytes = 5;
    d->height = 3;
}

static void case_memcpy3d_host_to_device_2d_update(cgn_test_env *env, void *out) {
    cgn_memcpy_3d_update *u = out;
    *u = (cgn_memcpy_3d_update)CGN_MEMCPY_3D_UPDATE_INIT;
    u->set = CGN_MEMCPY_3D_SET_SRC;
    u->src = cgn_test_buf(env, 0);
}

static void case_memcpy3d_host_to_device_2d_replacement(cgn_test_env *env, void *out) {
    cgn_memcpy_3d_desc *d = out;
    *d = (cgn_memcpy_3d_desc)CGN_MEMCPY_3D_DESC_INIT;
    d->dst = cgn_test_buf(env, 2);
    d->dst_pitch = 8;
    d->src = cgn_test_buf(env, 0);
    d->src_pitch = 16;
    d->width_in_bytes = 5;
    d->height = 3;
}

static void case_memcpy3d_host_to_device_2d_invalid_0(cgn_test_env *env, void *out) {
    (void)env;
    cgn_memcpy_3d_update *u = out;
    *u = (cgn_memcpy_3d_update)CGN_MEMCPY_3D_UPDATE_INIT;
    u->set = CGN_MEMCPY_3D_SET_SRC_PITCH;
    u->src_pitch = 4;
}

static void case_memcpy3d_host_to_device_2d_invalid_1(cgn_test_env *env, void *out) {
    cgn_memcpy_3d_update *u = out;
    *u = (cgn_memcpy_3d_update)CGN_MEMCPY_3D_UPDATE_INIT;
    u->set = CGN_MEMCPY_3D_SET_SRC | CGN_MEMCPY_3D_SET_SRC_ARRAY;
    u->src = cgn_test_buf(env, 0);
    u->src_array = cgn_test_array(env, 1);
}

static void case_memcpy3d_device_to_host_2d_original(cgn_test_env *env, void *out) {
    cgn_memcpy_3d_desc *d = out;
    *d = (cgn_memcpy_3d_desc)CGN_MEMCPY_3D_DESC_INIT;
    d->dst = cgn_test_buf(env, 1);
    d->dst_pitch = 8;
    d->src = cgn_test_buf(env, 3);
    d->src_pitch = 8;
    d->width_in_bytes = 8;
    d->height = 2;
}

static void case_memcpy3d_device_to_host_2d_update(cgn_test_env *env, void *out) {
    cgn_memcpy_3d_update *u = out;
    *u = (cgn_memcpy_3d_update)CGN_MEMCPY_3D_UPDATE_INIT;
    u->set = CGN_MEMCPY_3D_SET_DST | CGN_MEMCPY_3D_SET_DST_PITCH;
    u->dst = cgn_test_host(env, 1);
    u->dst_pitch = 16;
}

static void case_memcpy3d_device_to_host_2d_replacement(cgn_test_env *env, void *out) {
    cgn_memcpy_3d_desc *d = out;
    *d = (cgn_memcpy_3d_desc)CGN_MEMCPY_3D_DESC_INIT;
    d->dst = cgn_test_host(env, 1);
    d->dst_pitch = 16;
    d->src = cgn_test_buf(env, 3);
    d->src_pitch = 8;
    d->width_in_bytes = 8;
    d->height = 2;
}

static void case_memcpy3d_device_to_host_2d_invalid_0(cgn_test_env *env, void *out) {
    cgn_memcpy_3d_update *u = out;
    *u = (cgn_memcpy_3d_update)CGN_MEMCPY_3D_UPDATE_INIT;
    u->set = CGN_MEMCPY_3D_SET_DST | CGN_MEMCPY_3D_SET_DST_PITCH;
    u->dst = cgn_test_host(env, 1);
    u->dst_pitch = 7;
}

static void case_memcpy3d_device_to_host_2d_invalid_1(cgn_test_env *env, void *out) {
    (void)env;
    cgn_memcpy_3d_update *u = out;
    *u = (cgn_memcpy_3d_update)CGN_MEMCPY_3D_UPDATE_INIT;
    u->set = CGN_MEMCPY_3D_SET_DST_X_IN_BYTES;
    u->dst_x_in_bytes = UINT64_C(18446744073709551610);
}

static void case_memcpy3d_offsets_original(cgn_test_env *env, void *out) {
    cgn_memcpy_3d_desc *d = out;
    *d = (cgn_memcpy_3d_desc)CGN_MEMCPY_3D_DESC_INIT;
    d->dst = cgn_test_buf(env, 1);
    d->dst_owner = cgn_test_owner(env, 1);
    d->dst_x_in_bytes = 2;
    d->src = cgn_test_buf(env, 0);
    d->src_x_in_bytes = 4;
    d->width_in_bytes = 8;
}

static void case_memcpy3d_offsets_update(cgn_test_env *env, void *out) {
    (void)env;
    cgn_memcpy_3d_update *u = out;
    *u = (cgn_memcpy_3d_update)CGN_MEMCPY_3D_UPDATE_INIT;
    u->set = CGN_MEMCPY_3D_SET_DST_X_IN_BYTES | CGN_MEMCPY_3D_SET_SRC_X_IN_BYTES;
    u->dst_x_in_bytes = 20;
    u->src_x_in_bytes = 12;
}

static void case_memcpy3d_offsets_replacement(cgn_test_env *env, void *out) {
    cgn_memcpy_3d_desc *d = out;
    *d = (cgn_memcpy_3d_desc)CGN_MEMCPY_3D_DESC_INIT;
    d->dst = cgn_test_buf(env, 1);
    d->dst_owner = cgn_test_owner(env, 1);
    d->dst_x_in_bytes = 20;
    d->src = cgn_test_buf(env, 0);
    d->src_x_in_bytes = 12;
    d->width_in_bytes = 8;
}

static void case_memcpy3d_offsets_invalid_0(cgn_test_env *env, void *out) {
    (void)env;
    cgn_memcpy_3d_update *u = out;
    *u = (cgn_memcpy_3d_update)CGN_MEMCPY_3D_UPDATE_INIT;
    u->set = CGN_MEMCPY_3D_SET_DST_Y;
    u->dst_y = 1;
}

static void case_memcpy3d_offsets_exec_invalid_0(cgn_test_env *env, void *out) {
    cgn_memcpy_3d_update *u = out;
    *u = (cgn_memcpy_3d_update)CGN_MEMCPY_3D_UPDATE_INIT;
    u->set = CGN_MEMCPY_3D_SET_DST;
    u->dst = cgn_test_host(env, 0);
}

static void case_memcpy3d_offsets_exec_invalid_1(cgn_test_env *env, void *out) {
    cgn_memcpy_3d_update *u = out;
    *u = (cgn_memcpy_3d_update)CGN_MEMCPY_3D_UPDATE_INIT;
    u->set = CGN_MEMCPY_3D_SET_SRC | CGN_MEMCPY_3D_SET_SRC_ARRAY | CGN_MEMCPY_3D_SET_SRC_X_IN_BYTES;
    u->src = 0;
    u->src_array = cgn_test_array(env, 0);
    u->src_x_in_bytes = 0;
}

static void case_memcpy3d_switch_to_array_original(cgn_test_env *env, void *out) {
    cgn_memcpy_3d_desc *d = out;
    *d = (cgn_memcpy_3d_desc)CGN_MEMCPY_3D_DESC_INIT;
    d->dst = cgn_test_buf(env, 1);
    d->dst_owner = cgn_test_owner(env, 1);
    d->dst_pitch = 8;
    d->src = cgn_test_buf(env, 0);
    d->src_pitch = 8;
    d->width_in_bytes = 8;
    d->height = 2;
}

static void case_memcpy3d_switch_to_array_update(cgn_test_env *env, void *out) {
    cgn_memcpy_3d_update *u = out;
    *u = (cgn_memcpy_3d_update)CGN_MEMCPY_3D_UPDATE_INIT;
    u->set = CGN_MEMCPY_3D_SET_DST | CGN_MEMCPY_3D_SET_DST_ARRAY |
             CGN_MEMCPY_3D_SET_DST_ARRAY_OWNER;
    u->dst = 0;
    u->dst_array = cgn_test_array(env, 0);
    u->dst_array_owner = cgn_test_owner(env, 2);
}

static void case_memcpy3d_switch_to_array_replacement(cgn_test_env *env, void *out) {
    cgn_memcpy_3d_desc *d = out;
    *d = (cgn_memcpy_3d_desc)CGN_MEMCPY_3D_DESC_INIT;
    d->dst_array = cgn_test_array(env, 0);
    d->dst_array_owner = cgn_test_owner(env, 2);
    d->dst_pitch = 8;
    d->src = cgn_test_buf(env, 0);
    d->src_pitch = 8;
    d->width_in_bytes = 8;
    d->height = 2;
}

static void case_memcpy3d_switch_to_array_invalid_0(cgn_test_env *env, void *out) {
    cgn_memcpy_3d_update *u = out;
    *u = (cgn_memcpy_3d_update)CGN_MEMCPY_3D_UPDATE_INIT;
    u->set = CGN_MEMCPY_3D_SET_DST_ARRAY | CGN_MEMCPY_3D_SET_DST_ARRAY_OWNER;
    u->dst_array = cgn_test_array(env, 0);
    u->dst_array_owner = cgn_test_owner(env, 2);
}

static void case_memcpy3d_switch_to_array_invalid_1(cgn_test_env *env, void *out) {
    (void)env;
    cgn_memcpy_3d_update *u = out;
    *u = (cgn_memcpy_3d_update)CGN_MEMCPY_3D_UPDATE_INIT;
    u->set = CGN_MEMCPY_3D_SET_DST;
    u->dst = 0;
}

static const cgn_test_exec_invalid case_memcpy3d_offsets_exec_invalid[] = {
    {case_memcpy3d_offsets_exec_invalid_0, CGN_ERROR_INVALID_VALUE, "{dst: host:0}", "dst"},
    {case_memcpy3d_offsets_exec_invalid_1, CGN_ERROR_INVALID_VALUE,
     "{src: 0, src_array: array:0, src_x_in_bytes: 0}", "src"},
};

static const cgn_test_invalid case_memcpy3d_2d_pitched_invalid[] = {
    {case_memcpy3d_2d_pitched_invalid_0, CGN_ERROR_INVALID_VALUE, "{dst_pitch: 3}"},
    {case_memcpy3d_2d_pitched_invalid_1, CGN_ERROR_OUT_OF_RANGE,
     "{src_x_in_bytes: 18446744073709551615}"},
    {case_memcpy3d_2d_pitched_invalid_2, CGN_ERROR_INVALID_VALUE, "{width_in_bytes: 0}"},
    {case_memcpy3d_2d_pitched_invalid_3, CGN_ERROR_INVALID_VALUE, "{height: 0}"},
    {case_memcpy3d_2d_pitched_invalid_4, CGN_ERROR_OUT_OF_RANGE,
     "{src_pitch: 9223372036854775808, height: 4}"},
    {case_memcpy3d_2d_pitched_invalid_5, CGN_ERROR_MISSING_FIELD, "{src_owner: owner:2}"},
};

static const cgn_test_invalid case_memcpy3d_3d_invalid[] = {
    {case_memcpy3d_3d_invalid_0, CGN_ERROR_INVALID_VALUE, "{dst_height: 1}"},
    {case_memcpy3d_3d_invalid_1, CGN_ERROR_INVALID_VALUE, "{depth: 0}"},
    {case_memcpy3d_3d_invalid_2, CGN_ERROR_OUT_OF_RANGE, "{src_z: 18446744073709551615}"},
    {case_memcpy3d_3d_invalid_3, CGN_ERROR_OUT_OF_RANGE,
     "{src_height: 4611686018427387904, src_z: 4}"},
};

static const cgn_test_invalid case_memcpy3d_device_to_array_invalid[] = {
    {case_memcpy3d_device_to_array_invalid_0, CGN_ERROR_INVALID_VALUE, "{dst: buf:2}"},
    {case_memcpy3d_device_to_array_invalid_1, CGN_ERROR_INVALID_VALUE, "{src: 0}"},
    {case_memcpy3d_device_to_array_invalid_2, CGN_ERROR_MISSING_FIELD,
     "{dst_array_owner: owner:3}"},
};

static const cgn_test_invalid case_memcpy3d_array_to_device_invalid[] = {
    {case_memcpy3d_array_to_device_invalid_0, CGN_ERROR_INVALID_VALUE, "{src_array: null}"},
    {case_memcpy3d_array_to_device_invalid_1, CGN_ERROR_INVALID_VALUE, "{src: buf:0}"},
};

static const cgn_test_invalid case_memcpy3d_host_to_device_2d_invalid[] = {
    {case_memcpy3d_host_to_device_2d_invalid_0, CGN_ERROR_INVALID_VALUE, "{src_pitch: 4}"},
    {case_memcpy3d_host_to_device_2d_invalid_1, CGN_ERROR_INVALID_VALUE,
     "{src: buf:0, src_array: array:1}"},
};

static const cgn_test_invalid case_memcpy3d_device_to_host_2d_invalid[] = {
    {case_memcpy3d_device_to_host_2d_invalid_0, CGN_ERROR_INVALID_VALUE,
     "{dst: host:1, dst_pitch: 7}"},
    {case_memcpy3d_device_to_host_2d_invalid_1, CGN_ERROR_OUT_OF_RANGE,
     "{dst_x_in_bytes: 18446744073709551610}"},
};

static const cgn_test_invalid case_memcpy3d_offsets_invalid[] = {
    {case_memcpy3d_offsets_invalid_0, CGN_ERROR_INVALID_VALUE, "{dst_y: 1}"},
};

static const cgn_test_invalid case_memcpy3d_switch_to_array_invalid[] = {
    {case_memcpy3d_switch_to_array_invalid_0, CGN_ERROR_INVALID_VALUE,
     "{dst_array: array:0, dst_array_owner: owner:2}"},
    {case_memcpy3d_switch_to_array_invalid_1, CGN_ERROR_INVALID_VALUE, "{dst: 0}"},
};

const cgn_test_case cgn_test_cases_memcpy_3d[] = {
    {"memcpy3d-2d-pitched", case_memcpy3d_2d_pitched_original, case_memcpy3d_2d_pitched_update,
     case_memcpy3d_2d_pitched_replacement, case_memcpy3d_2d_pitched_invalid, 6, NULL, 0, "height"},
    {"memcpy3d-3d", case_memcpy3d_3d_original, case_memcpy3d_3d_update,
     case_memcpy3d_3d_replacement, case_memcpy3d_3d_invalid, 4, NULL, 0, "height"},
    {"memcpy3d-device-to-array", case_memcpy3d_device_to_array_original,
     case_memcpy3d_device_to_array_update, case_memcpy3d_device_to_array_replacement,
     case_memcpy3d_device_to_array_invalid, 3, NULL, 0, "height"},
    {"memcpy3d-array-to-device", case_memcpy3d_array_to_device_original,
     case_memcpy3d_array_to_device_update, case_memcpy3d_array_to_device_replacement,
     case_memcpy3d_array_to_device_invalid, 2, NULL, 0, "height"},
    {"memcpy3d-host-to-device-2d", case_memcpy3d_host_to_device_2d_original,
     case_memcpy3d_host_to_device_2d_update, case_memcpy3d_host_to_device_2d_replacement,
     case_memcpy3d_host_to_device_2d_invalid, 2, NULL, 0, "src"},
    {"memcpy3d-device-to-host-2d", case_memcpy3d_device_to_host_2d_original,
     case_memcpy3d_device_to_host_2d_update, case_memcpy3d_device_to_host_2d_replacement,
     case_memcpy3d_device_to_host_2d_invalid, 2, NULL, 0, "dst"},
    {"memcpy3d-offsets", case_memcpy3d_offsets_original, case_memcpy3d_offsets_update,
     case_memcpy3d_offsets_replacement, case_memcpy3d_offsets_invalid, 1,
     case_memcpy3d_offsets_exec_invalid, 2, NULL},
    {"memcpy3d-switch-to-array", case_memcpy3d_switch_to_array_original,
     case_memcpy3d_switch_to_array_update, case_memcpy3d_switch_to_array_replacement,
     case_memcpy3d_switch_to_array_invalid, 2, NULL, 0, "dst"},
};
const size_t cgn_test_cases_memcpy_3d_count = 8;

/* ---- type adapter: lets scenario runners treat every node type alike ---- */

static cgn_status type_memcpy_3d_add(cgn_graph *g, const void *desc, cgn_node **out) {
    return cgn_graph_add_memcpy_3d(g, NULL, 0, desc, out);
}

static cgn_status type_memcpy_3d_update(cgn_node *n, const void *u) {
    return cgn_memcpy_3d_node_update(n, u);
}

static cgn_status type_memcpy_3d_get(const cgn_node *n, void *desc) {
    return cgn_memcpy_3d_node_get(n, desc);
}

static cgn_status type_memcpy_3d_exec_update(cgn_exec *e, cgn_node *n, const void *u) {
    return cgn_memcpy_3d_exec_update(e, n, u);
}

static cgn_status type_memcpy_3d_exec_get(const cgn_exec *e, const cgn_node *n, void *desc) {
    return cgn_memcpy_3d_exec_get(e, n, desc);
}

static void type_memcpy_3d_update_from_desc(void *u, const void *desc) {
    cgn_memcpy_3d_update_from_desc(u, desc);
}

static int type_memcpy_3d_desc_equal(const void *a_, const void *b_) {
    const cgn_memcpy_3d_desc *a = a_;
    const cgn_memcpy_3d_desc *b = b_;
    return a->dst == b->dst && a->dst_owner == b->dst_owner && a->dst_array == b->dst_array &&
           a->dst_array_owner == b->dst_array_owner && a->dst_x_in_bytes == b->dst_x_in_bytes &&
           a->dst_y == b->dst_y && a->dst_z == b->dst_z && a->dst_pitch == b->dst_pitch &&
           a->dst_height == b->dst_height && a->src == b->src && a->src_owner == b->src_owner &&
           a->src_array == b->src_array && a->src_array_owner == b->src_array_owner &&
           a->src_x_in_bytes == b->src_x_in_bytes && a->src_y == b->src_y && a->src_z == b->src_z &&
           a->src_pitch == b->src_pitch && a->src_height == b->src_height &&
           a->width_in_bytes == b->width_in_bytes && a->height == b->height && a->depth == b->depth;
}

/* desc_equal and the output fields (what the driver chose at add) too. */
static int type_memcpy_3d_desc_same(const void *a_, const void *b_) {
    return type_memcpy_3d_desc_equal(a_, b_);
}

const cgn_test_type cgn_test_type_memcpy_3d = {
    "memcpy_3d", CGN_NODE_MEMCPY_3D, sizeof(cgn_memcpy_3d_desc), sizeof(cgn_memcpy_3d_update),
    type_memcpy_3d_add, type_memcpy_3d_update, type_memcpy_3d_get, type_memcpy_3d_exec_update,
    type_memcpy_3d_exec_get, type_memcpy_3d_update_from_desc, type_memcpy_3d_desc_equal,
    type_memcpy_3d_desc_same, cgn_test_cases_memcpy_3d, 8
};
