/* Generated from spec/kernel.yaml by codegen; do not edit. */
#include <string.h>

#include "cgn_test_env.h"
#include "cgn_test_cases.h"

extern const cgn_test_case cgn_test_cases_kernel[];
extern const size_t cgn_test_cases_kernel_count;
extern const cgn_test_type cgn_test_type_kernel;

/* ---- cases: each fill function writes a full desc or an update ---- */

static void case_kernel_config_original(cgn_test_env *env, void *out) {
    cgn_kernel_desc *d = out;
    *d = (cgn_kernel_desc)CGN_KERNEL_DESC_INIT;
    d->kernel = cgn_test_kernel(env, "write_config");
    d->grid = CGN_DIM3(1, 1, 1);
    d->block = CGN_DIM3(1, 1, 1);
    {
        cgn_arg *slots = cgn_test_args(env, 1);
        slots[0] = cgn_test_arg_buf(env, 0, 0);
        d->args = slots;
        d->num_args = 1;
    }
}

static void case_kernel_config_update(cgn_test_env *env, void *out) {
    (void)env;
    cgn_kernel_update *u = out;
    *u = (cgn_kernel_update)CGN_KERNEL_UPDATE_INIT;
    u->set = CGN_KERNEL_SET_GRID | CGN_KERNEL_SET_BLOCK | CGN_KERNEL_SET_SHARED_MEM_BYTES;
    u->grid = CGN_DIM3(2, 1, 1);
    u->block = CGN_DIM3(3, 2, 1);
    u->shared_mem_bytes = 64;
}

static void case_kernel_config_replacement(cgn_test_env *env, void *out) {
    cgn_kernel_desc *d = out;
    *d = (cgn_kernel_desc)CGN_KERNEL_DESC_INIT;
    d->kernel = cgn_test_kernel(env, "write_config");
    d->grid = CGN_DIM3(2, 1, 1);
    d->block = CGN_DIM3(3, 2, 1);
    d->shared_mem_bytes = 64;
    {
        cgn_arg *slots = cgn_test_args(env, 1);
        slots[0] = cgn_test_arg_buf(env, 0, 0);
        d->args = slots;
        d->num_args = 1;
    }
}

static void case_kernel_config_invalid_0(cgn_test_env *env, void *out) {
    (void)env;
    cgn_kernel_update *u = out;
    *u = (cgn_kernel_update)CGN_KERNEL_UPDATE_INIT;
    u->set = CGN_KERNEL_SET_GRID;
    u->grid = CGN_DIM3(0, 1, 1);
}

static void case_kernel_config_invalid_1(cgn_test_env *env, void *out) {
    (void)env;
    cgn_kernel_update *u = out;
    *u = (cgn_kernel_update)CGN_KERNEL_UPDATE_INIT;
    u->set = CGN_KERNEL_SET_BLOCK;
    u->block = CGN_DIM3(1, 0, 1);
}

static void case_kernel_args_original(cgn_test_env *env, void *out) {
    cgn_kernel_desc *d = out;
    *d = (cgn_kernel_desc)CGN_KERNEL_DESC_INIT;
    d->kernel = cgn_test_kernel(env, "add_one");
    d->kernel_owner = cgn_test_owner(env, 3);
    d->grid = CGN_DIM3(1, 1, 1);
    d->block = CGN_DIM3(1, 1, 1);
    {
        cgn_arg *slots = cgn_test_args(env, 1);
        slots[0] = cgn_test_arg_buf(env, 0, 1);
        d->args = slots;
        d->num_args = 1;
    }
}

static void case_kernel_args_update(cgn_test_env *env, void *out) {
    cgn_kernel_update *u = out;
    *u = (cgn_kernel_update)CGN_KERNEL_UPDATE_INIT;
    u->set = CGN_KERNEL_SET_ARGS;
    {
        cgn_arg *slots = cgn_test_args(env, 1);
        slots[0] = cgn_test_arg_buf(env, 1, 1);
        u->args = slots;
        u->num_args = 1;
    }
}

static void case_kernel_args_replacement(cgn_test_env *env, void *out) {
    cgn_kernel_desc *d = out;
    *d = (cgn_kernel_desc)CGN_KERNEL_DESC_INIT;
    d->kernel = cgn_test_kernel(env, "add_one");
    d->kernel_owner = cgn_test_owner(env, 3);
    d->grid = CGN_DIM3(1, 1, 1);
    d->block = CGN_DIM3(1, 1, 1);
    {
        cgn_arg *slots = cgn_test_args(env, 1);
        slots[0] = cgn_test_arg_buf(env, 1, 1);
        d->args = slots;
        d->num_args = 1;
    }
}

static void case_kernel_args_invalid_0(cgn_test_env *env, void *out) {
    cgn_kernel_update *u = out;
    *u = (cgn_kernel_update)CGN_KERNEL_UPDATE_INIT;
    u->set = CGN_KERNEL_SET_ARGS;
    {
        cgn_arg *slots = cgn_test_args(env, 2);
        slots[0] = cgn_test_arg_buf(env, 0, 0);
        slots[1] = cgn_test_arg_buf(env, 1, 0);
        u->args = slots;
        u->num_args = 2;
    }
}

static void case_kernel_args_invalid_1(cgn_test_env *env, void *out) {
    cgn_kernel_update *u = out;
    *u = (cgn_kernel_update)CGN_KERNEL_UPDATE_INIT;
    u->set = CGN_KERNEL_SET_ARGS;
    {
        cgn_arg *slots = cgn_test_args(env, 1);
        slots[0] = cgn_test_arg_u32(env, 1);
        u->args = slots;
        u->num_args = 1;
    }
}

static void case_kernel_scalar_arg_original(cgn_test_env *env, void *out) {
    cgn_kernel_desc *d = out;
    *d = (cgn_kernel_desc)CGN_KERNEL_DESC_INIT;
    d->kernel = cgn_test_kernel(env, "fill_u32");
    d->grid = CGN_DIM3(1, 1, 1);
    d->block = CGN_DIM3(1, 1, 1);
    {
        cgn_arg *slots = cgn_test_args(env, 2);
        slots[0] = cgn_test_arg_buf(env, 0, 0);
        slots[1] = cgn_test_arg_u32(env, 7);
        d->args = slots;
        d->num_args = 2;
    }
}

static void case_kernel_scalar_arg_update(cgn_test_env *env, void *out) {
    cgn_kernel_update *u = out;
    *u = (cgn_kernel_update)CGN_KERNEL_UPDATE_INIT;
    u->set = CGN_KERNEL_SET_ARGS;
    {
        cgn_arg *slots = cgn_test_args(env, 2);
        slots[0] = cgn_test_arg_buf(env, 0, 0);
        slots[1] = cgn_test_arg_u32(env, 9);
        u->args = slots;
        u->num_args = 2;
    }
}

static void case_kernel_scalar_arg_replacement(cgn_test_env *env, void *out) {
    cgn_kernel_desc *d = out;
    *d = (cgn_kernel_desc)CGN_KERNEL_DESC_INIT;
    d->kernel = cgn_test_kernel(env, "fill_u32");
    d->grid = CGN_DIM3(1, 1, 1);
    d->block = CGN_DIM3(1, 1, 1);
    {
        cgn_arg *slots = cgn_test_args(env, 2);
        slots[0] = cgn_test_arg_buf(env, 0, 0);
        slots[1] = cgn_test_arg_u32(env, 9);
        d->args = slots;
        d->num_args = 2;
    }
}

static void case_kernel_scalar_arg_invalid_0(cgn_test_env *env, void *out) {
    cgn_kernel_update *u = out;
    *u = (cgn_kernel_update)CGN_KERNEL_UPDATE_INIT;
    u->set = CGN_KERNEL_SET_ARGS;
    {
        cgn_arg *slots = cgn_test_args(env, 1);
        slots[0] = cgn_test_arg_buf(env, 0, 0);
        u->args = slots;
        u->num_args = 1;
    }
}

static void case_kernel_arg_scalar_original(cgn_test_env *env, void *out) {
    cgn_kernel_desc *d = out;
    *d = (cgn_kernel_desc)CGN_KERNEL_DESC_INIT;
    d->kernel = cgn_test_kernel(env, "fill_u32");
    d->grid = CGN_DIM3(1, 1, 1);
    d->block = CGN_DIM3(1, 1, 1);
    {
        cgn_arg *slots = cgn_test_args(env, 2);
        slots[0] = cgn_test_arg_buf(env, 0, 1);
        slots[1] = cgn_test_arg_u32(env, 7);
        d->args = slots;
        d->num_args = 2;
    }
}

static void case_kernel_arg_scalar_update(cgn_test_env *env, void *out) {
    cgn_kernel_update *u = out;
    *u = (cgn_kernel_update)CGN_KERNEL_UPDATE_INIT;
    u->set = CGN_KERNEL_SET_ARG;
    {
        cgn_arg a0 = cgn_test_arg_u32(env, 9);
        u->arg_edits.edit[0] = (cgn_arg_edit){a0.value, a0.owner, 1, (uint32_t)a0.size};
        u->arg_edits.count = 1;
    }
}

static void case_kernel_arg_scalar_replacement(cgn_test_env *env, void *out) {
    cgn_kernel_desc *d = out;
    *d = (cgn_kernel_desc)CGN_KERNEL_DESC_INIT;
    d->kernel = cgn_test_kernel(env, "fill_u32");
    d->grid = CGN_DIM3(1, 1, 1);
    d->block = CGN_DIM3(1, 1, 1);
    {
        cgn_arg *slots = cgn_test_args(env, 2);
        slots[0] = cgn_test_arg_buf(env, 0, 1);
        slots[1] = cgn_test_arg_u32(env, 9);
        d->args = slots;
        d->num_args = 2;
    }
}

static void case_kernel_arg_scalar_invalid_0(cgn_test_env *env, void *out) {
    cgn_kernel_update *u = out;
    *u = (cgn_kernel_update)CGN_KERNEL_UPDATE_INIT;
    u->set = CGN_KERNEL_SET_ARG;
    {
        cgn_arg a0 = cgn_test_arg_u32(env, 9);
        u->arg_edits.edit[0] = (cgn_arg_edit){a0.value, a0.owner, 2, (uint32_t)a0.size};
        u->arg_edits.count = 1;
    }
}

static void case_kernel_arg_scalar_invalid_1(cgn_test_env *env, void *out) {
    cgn_kernel_update *u = out;
    *u = (cgn_kernel_update)CGN_KERNEL_UPDATE_INIT;
    u->set = CGN_KERNEL_SET_ARG;
    {
        cgn_arg a0 = cgn_test_arg_buf(env, 1, 0);
        u->arg_edits.edit[0] = (cgn_arg_edit){a0.value, a0.owner, 1, (uint32_t)a0.size};
        u->arg_edits.count = 1;
    }
}

static void case_kernel_arg_pointer_original(cgn_test_env *env, void *out) {
    cgn_kernel_desc *d = out;
    *d = (cgn_kernel_desc)CGN_KERNEL_DESC_INIT;
    d->kernel = cgn_test_kernel(env, "fill_u32");
    d->grid = CGN_DIM3(1, 1, 1);
    d->block = CGN_DIM3(1, 1, 1);
    {
        cgn_arg *slots = cgn_test_args(env, 2);
        slots[0] = cgn_test_arg_buf(env, 0, 1);
        slots[1] = cgn_test_arg_u32(env, 7);
        d->args = slots;
        d->num_args = 2;
    }
}

static void case_kernel_arg_pointer_update(cgn_test_env *env, void *out) {
    cgn_kernel_update *u = out;
    *u = (cgn_kernel_update)CGN_KERNEL_UPDATE_INIT;
    u->set = CGN_KERNEL_SET_GRID | CGN_KERNEL_SET_ARG;
    u->grid = CGN_DIM3(2, 1, 1);
    {
        cgn_arg a0 = cgn_test_arg_buf(env, 1, 1);
        u->arg_edits.edit[0] = (cgn_arg_edit){a0.value, a0.owner, 0, (uint32_t)a0.size};
        u->arg_edits.count = 1;
    }
}

static void case_kernel_arg_pointer_replacement(cgn_test_env *env, void *out) {
    cgn_kernel_desc *d = out;
    *d = (cgn_kernel_desc)CGN_KERNEL_DESC_INIT;
    d->kernel = cgn_test_kernel(env, "fill_u32");
    d->grid = CGN_DIM3(2, 1, 1);
    d->block = CGN_DIM3(1, 1, 1);
    {
        cgn_arg *slots = cgn_test_args(env, 2);
        slots[0] = cgn_test_arg_buf(env, 1, 1);
        slots[1] = cgn_test_arg_u32(env, 7);
        d->args = slots;
        d->num_args = 2;
    }
}

static void case_kernel_arg_pointer_invalid_0(cgn_test_env *env, void *out) {
    cgn_kernel_update *u = out;
    *u = (cgn_kernel_update)CGN_KERNEL_UPDATE_INIT;
    u->set = CGN_KERNEL_SET_ARG;
    {
        cgn_arg a0 = cgn_test_arg_u32(env, 1);
        u->arg_edits.edit[0] = (cgn_arg_edit){a0.value, a0.owner, 0, (uint32_t)a0.size};
        u->arg_edits.count = 1;
    }
}

static void case_kernel_arg_after_args_original(cgn_test_env *env, void *out) {
    cgn_kernel_desc *d = out;
    *d = (cgn_kernel_desc)CGN_KERNEL_DESC_INIT;
    d->kernel = cgn_test_kernel(env, "add_one");
    d->kernel_owner = cgn_test_owner(env, 3);
    d->grid = CGN_DIM3(1, 1, 1);
    d->block = CGN_DIM3(1, 1, 1);
    {
        cgn_arg *slots = cgn_test_args(env, 1);
        slots[0] = cgn_test_arg_buf(env, 0, 1);
        d->args = slots;
        d->num_args = 1;
    }
}

static void case_kernel_arg_after_args_update(cgn_test_env *env, void *out) {
    cgn_kernel_update *u = out;
    *u = (cgn_kernel_update)CGN_KERNEL_UPDATE_INIT;
    u->set = CGN_KERNEL_SET_KERNEL | CGN_KERNEL_SET_ARGS | CGN_KERNEL_SET_ARG;
    u->kernel = cgn_test_kernel(env, "fill_u32");
    {
        cgn_arg *slots = cgn_test_args(env, 2);
        slots[0] = cgn_test_arg_buf(env, 1, 1);
        slots[1] = cgn_test_arg_u32(env, 5);
        u->args = slots;
        u->num_args = 2;
    }
    {
        cgn_arg a0 = cgn_test_arg_u32(env, 6);
        u->arg_edits.edit[0] = (cgn_arg_edit){a0.value, a0.owner, 1, (uint32_t)a0.size};
        cgn_arg a1 = cgn_test_arg_buf(env, 2, 1);
        u->arg_edits.edit[1] = (cgn_arg_edit){a1.value, a1.owner, 0, (uint32_t)a1.size};
        u->arg_edits.count = 2;
    }
}

static void case_kernel_arg_after_args_replacement(cgn_test_env *env, void *out) {
    cgn_kernel_desc *d = out;
    *d = (cgn_kernel_desc)CGN_KERNEL_DESC_INIT;
    d->kernel = cgn_test_kernel(env, "fill_u32");
    d->grid = CGN_DIM3(1, 1, 1);
    d->block = CGN_DIM3(1, 1, 1);
    {
        cgn_arg *slots = cgn_test_args(env, 2);
        slots[0] = cgn_test_arg_buf(env, 2, 1);
        slots[1] = cgn_test_arg_u32(env, 6);
        d->args = slots;
        d->num_args = 2;
    }
}

static void case_kernel_arg_after_args_invalid_0(cgn_test_env *env, void *out) {
    cgn_kernel_update *u = out;
    *u = (cgn_kernel_update)CGN_KERNEL_UPDATE_INIT;
    u->set = CGN_KERNEL_SET_KERNEL | CGN_KERNEL_SET_ARGS | CGN_KERNEL_SET_ARG;
    u->kernel = cgn_test_kernel(env, "fill_u32");
    {
        cgn_arg *slots = cgn_test_args(env, 2);
        slots[0] = cgn_test_arg_buf(env, 1, 1);
        slots[1] = cgn_test_arg_u32(env, 5);
        u->args = slots;
        u->num_args = 2;
    }
    {
        cgn_arg a0 = cgn_test_arg_u32(env, 6);
        u->arg_edits.edit[0] = (cgn_arg_edit){a0.value, a0.owner, 2, (uint32_t)a0.size};
        u->arg_edits.count = 1;
    }
}

static void case_kernel_function_original(cgn_test_env *env, void *out) {
    cgn_kernel_desc *d = out;
    *d = (cgn_kernel_desc)CGN_KERNEL_DESC_INIT;
    d->kernel = cgn_test_kernel(env, "add_one");
    d->kernel_owner = cgn_test_owner(env, 3);
    d->grid = CGN_DIM3(1, 1, 1);
    d->block = CGN_DIM3(1, 1, 1);
    {
        cgn_arg *slots = cgn_test_args(env, 1);
        slots[0] = cgn_test_arg_buf(env, 0, 1);
        d->args = slots;
        d->num_args = 1;
    }
}

static void case_kernel_function_update(cgn_test_env *env, void *out) {
    cgn_kernel_update *u = out;
    *u = (cgn_kernel_update)CGN_KERNEL_UPDATE_INIT;
    u->set = CGN_KERNEL_SET_KERNEL | CGN_KERNEL_SET_ARGS;
    u->kernel = cgn_test_kernel(env, "empty");
    u->args = NULL;
    u->num_args = 0;
}

static void case_kernel_function_replacement(cgn_test_env *env, void *out) {
    cgn_kernel_desc *d = out;
    *d = (cgn_kernel_desc)CGN_KERNEL_DESC_INIT;
    d->kernel = cgn_test_kernel(env, "empty");
    d->grid = CGN_DIM3(1, 1, 1);
    d->block = CGN_DIM3(1, 1, 1);
    d->args = NULL;
    d->num_args = 0;
}

static void case_kernel_function_invalid_0(cgn_test_env *env, void *out) {
    cgn_kernel_update *u = out;
    *u = (cgn_kernel_update)CGN_KERNEL_UPDATE_INIT;
    u->set = CGN_KERNEL_SET_KERNEL;
    u->kernel = cgn_test_kernel(env, "empty");
}

static void case_kernel_function_invalid_1(cgn_test_env *env, void *out) {
    cgn_kernel_update *u = out;
    *u = (cgn_kernel_update)CGN_KERNEL_UPDATE_INIT;
    u->set = CGN_KERNEL_SET_KERNEL | CGN_KERNEL_SET_ARGS;
    u->kernel = cgn_test_kernel(env, "empty");
    {
        cgn_arg *slots = cgn_test_args(env, 1);
        slots[0] = cgn_test_arg_buf(env, 0, 0);
        u->args = slots;
        u->num_args = 1;
    }
}

static void case_kernel_function_invalid_2(cgn_test_env *env, void *out) {
    cgn_kernel_update *u = out;
    *u = (cgn_kernel_update)CGN_KERNEL_UPDATE_INIT;
    u->set = CGN_KERNEL_SET_KERNEL_OWNER;
    u->kernel_owner = cgn_test_owner(env, 2);
}

static const cgn_test_invalid case_kernel_config_invalid[] = {
    {case_kernel_config_invalid_0, CGN_ERROR_INVALID_VALUE, "{grid: [0, 1, 1]}"},
    {case_kernel_config_invalid_1, CGN_ERROR_INVALID_VALUE, "{block: [1, 0, 1]}"},
};

static const cgn_test_invalid case_kernel_args_invalid[] = {
    {case_kernel_args_invalid_0, CGN_ERROR_INVALID_VALUE, "{args: [buf:0, buf:1]}"},
    {case_kernel_args_invalid_1, CGN_ERROR_INVALID_VALUE, "{args: [{u32: 1}]}"},
};

static const cgn_test_invalid case_kernel_scalar_arg_invalid[] = {
    {case_kernel_scalar_arg_invalid_0, CGN_ERROR_INVALID_VALUE, "{args: [buf:0]}"},
};

static const cgn_test_invalid case_kernel_arg_scalar_invalid[] = {
    {case_kernel_arg_scalar_invalid_0, CGN_ERROR_INVALID_VALUE, "{arg: [[2, {u32: 9}]]}"},
    {case_kernel_arg_scalar_invalid_1, CGN_ERROR_INVALID_VALUE, "{arg: [[1, buf:1]]}"},
};

static const cgn_test_invalid case_kernel_arg_pointer_invalid[] = {
    {case_kernel_arg_pointer_invalid_0, CGN_ERROR_INVALID_VALUE, "{arg: [[0, {u32: 1}]]}"},
};

static const cgn_test_invalid case_kernel_arg_after_args_invalid[] = {
    {case_kernel_arg_after_args_invalid_0, CGN_ERROR_INVALID_VALUE,
     "{kernel: kernel:fill_u32, args: [owned-buf:1, {u32: 5}], arg: [[2, {u32: 6}]]}"},
};

static const cgn_test_invalid case_kernel_function_invalid[] = {
    {case_kernel_function_invalid_0, CGN_ERROR_MISSING_FIELD, "{kernel: kernel:empty}"},
    {case_kernel_function_invalid_1, CGN_ERROR_INVALID_VALUE,
     "{kernel: kernel:empty, args: [buf:0]}"},
    {case_kernel_function_invalid_2, CGN_ERROR_MISSING_FIELD, "{kernel_owner: owner:2}"},
};

const cgn_test_case cgn_test_cases_kernel[] = {
    {"kernel-config", case_kernel_config_original, case_kernel_config_update,
     case_kernel_config_replacement, case_kernel_config_invalid, 2, NULL, 0, NULL},
    {"kernel-args", case_kernel_args_original, case_kernel_args_update,
     case_kernel_args_replacement, case_kernel_args_invalid, 2, NULL, 0, NULL},
    {"kernel-scalar-arg", case_kernel_scalar_arg_original, case_kernel_scalar_arg_update,
     case_kernel_scalar_arg_replacement, case_kernel_scalar_arg_invalid, 1, NULL, 0, NULL},
    {"kernel-arg-scalar", case_kernel_arg_scalar_original, case_kernel_arg_scalar_update,
     case_kernel_arg_scalar_replacement, case_kernel_arg_scalar_invalid, 2, NULL, 0, NULL},
    {"kernel-arg-pointer", case_kernel_arg_pointer_original, case_kernel_arg_pointer_update,
     case_kernel_arg_pointer_replacement, case_kernel_arg_pointer_invalid, 1, NULL, 0, NULL},
    {"kernel-arg-after-args", case_kernel_arg_after_args_original,
     case_kernel_arg_after_args_update, case_kernel_arg_after_args_replacement,
     case_kernel_arg_after_args_invalid, 1, NULL, 0, NULL},
    {"kernel-function", case_kernel_function_original, case_kernel_function_update,
     case_kernel_function_replacement, case_kernel_function_invalid, 3, NULL, 0, NULL},
};
const size_t cgn_test_cases_kernel_count = 7;

/* ---- type adapter: lets scenario runners treat every node type alike ---- */

/* Same count and, per argument, same size, same bytes and same owner. */
static int args_equal(const cgn_arg *a, uint32_t na, const cgn_arg *b, uint32_t nb) {
    if (na != nb)
        return 0;
    for (uint32_t i = 0; i < na; i++) {
        if (a[i].size != b[i].size || a[i].owner != b[i].owner)
            return 0;
        if (a[i].size != 0 && memcmp(a[i].value, b[i].value, a[i].size) != 0)
            return 0;
    }
    return 1;
}

static cgn_status type_kernel_add(cgn_graph *g, const void *desc, cgn_node **out) {
    return cgn_graph_add_kernel(g, NULL, 0, desc, out);
}

static cgn_status type_kernel_update(cgn_node *n, const void *u) {
    return cgn_kernel_node_update(n, u);
}

static cgn_status type_kernel_get(const cgn_node *n, void *desc) {
    return cgn_kernel_node_get(n, desc);
}

static cgn_status type_kernel_exec_update(cgn_exec *e, cgn_node *n, const void *u) {
    return cgn_kernel_exec_update(e, n, u);
}

static cgn_status type_kernel_exec_get(const cgn_exec *e, const cgn_node *n, void *desc) {
    return cgn_kernel_exec_get(e, n, desc);
}

static void type_kernel_update_from_desc(void *u, const void *desc) {
    cgn_kernel_update_from_desc(u, desc);
}

static int type_kernel_desc_equal(const void *a_, const void *b_) {
    const cgn_kernel_desc *a = a_;
    const cgn_kernel_desc *b = b_;
    return a->kernel.function == b->kernel.function && a->kernel.kernel == b->kernel.kernel &&
           a->kernel_owner == b->kernel_owner &&
           a->grid.x == b->grid.x && a->grid.y == b->grid.y && a->grid.z == b->grid.z &&
           a->block.x == b->block.x && a->block.y == b->block.y && a->block.z == b->block.z &&
           a->shared_mem_bytes == b->shared_mem_bytes &&
           args_equal(a->args, a->num_args, b->args, b->num_args);
}

/* desc_equal and the output fields (what the driver chose at add) too. */
static int type_kernel_desc_same(const void *a_, const void *b_) {
    return type_kernel_desc_equal(a_, b_);
}

const cgn_test_type cgn_test_type_kernel = {
    "kernel", CGN_NODE_KERNEL, sizeof(cgn_kernel_desc), sizeof(cgn_kernel_update), type_kernel_add,
    type_kernel_update, type_kernel_get, type_kernel_exec_update, type_kernel_exec_get,
    type_kernel_update_from_desc, type_kernel_desc_equal, type_kernel_desc_same,
    cgn_test_cases_kernel, 7
};
