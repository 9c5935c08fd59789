/* Generated from spec/ext_sem_signal.yaml by codegen; do not edit. */
#include <string.h>

#include "cgn_test_env.h"
#include "cgn_test_cases.h"

extern const cgn_test_case cgn_test_cases_ext_sem_signal[];
extern const size_t cgn_test_cases_ext_sem_signal_count;
extern const cgn_test_type cgn_test_type_ext_sem_signal;

/* ---- cases: each fill function writes a full desc or an update ---- */

static void case_signal_one_original(cgn_test_env *env, void *out) {
    cgn_ext_sem_signal_desc *d = out;
    *d = (cgn_ext_sem_signal_desc)CGN_EXT_SEM_SIGNAL_DESC_INIT;
    {
        CUexternalSemaphore *part0 = cgn_test_zeroed(env, 1 * sizeof *part0);
        CUDA_EXTERNAL_SEMAPHORE_SIGNAL_PARAMS *part1 = cgn_test_zeroed(env, 1 * sizeof *part1);
        part0[0] = cgn_test_sem(env, 0);
        part1[0].params.fence.value = UINT64_C(1);
        d->sems = part0;
        d->sems_params = part1;
        d->num_sems = 1;
    }
    d->sems_owner = cgn_test_owner(env, 0);
}

static void case_signal_one_update(cgn_test_env *env, void *out) {
    cgn_ext_sem_signal_update *u = out;
    *u = (cgn_ext_sem_signal_update)CGN_EXT_SEM_SIGNAL_UPDATE_INIT;
    u->set = CGN_EXT_SEM_SIGNAL_SET_SEMS | CGN_EXT_SEM_SIGNAL_SET_SEMS_OWNER;
    {
        CUexternalSemaphore *part0 = cgn_test_zeroed(env, 1 * sizeof *part0);
        CUDA_EXTERNAL_SEMAPHORE_SIGNAL_PARAMS *part1 = cgn_test_zeroed(env, 1 * sizeof *part1);
        part0[0] = cgn_test_sem(env, 1);
        part1[0].params.fence.value = UINT64_C(7);
        u->sems = part0;
        u->sems_params = part1;
        u->num_sems = 1;
    }
    u->sems_owner = cgn_test_owner(env, 1);
}

static void case_signal_one_replacement(cgn_test_env *env, void *out) {
    cgn_ext_sem_signal_desc *d = out;
    *d = (cgn_ext_sem_signal_desc)CGN_EXT_SEM_SIGNAL_DESC_INIT;
    {
        CUexternalSemaphore *part0 = cgn_test_zeroed(env, 1 * sizeof *part0);
        CUDA_EXTERNAL_SEMAPHORE_SIGNAL_PARAMS *part1 = cgn_test_zeroed(env, 1 * sizeof *part1);
        part0[0] = cgn_test_sem(env, 1);
        part1[0].params.fence.value = UINT64_C(7);
        d->sems = part0;
        d->sems_params = part1;
        d->num_sems = 1;
    }
    d->sems_owner = cgn_test_owner(env, 1);
}

static void case_signal_one_invalid_0(cgn_test_env *env, void *out) {
    (void)env;
    cgn_ext_sem_signal_update *u = out;
    *u = (cgn_ext_sem_signal_update)CGN_EXT_SEM_SIGNAL_UPDATE_INIT;
    u->set = CGN_EXT_SEM_SIGNAL_SET_SEMS;
    u->sems = NULL;
    u->sems_params = NULL;
    u->num_sems = 0;
}

static void case_signal_one_invalid_1(cgn_test_env *env, void *out) {
    cgn_ext_sem_signal_update *u = out;
    *u = (cgn_ext_sem_signal_update)CGN_EXT_SEM_SIGNAL_UPDATE_INIT;
    u->set = CGN_EXT_SEM_SIGNAL_SET_SEMS;
    {
        CUexternalSemaphore *part0 = cgn_test_zeroed(env, 0 * sizeof *part0);
        CUDA_EXTERNAL_SEMAPHORE_SIGNAL_PARAMS *part1 = cgn_test_zeroed(env, 0 * sizeof *part1);
        u->sems = part0;
        u->sems_params = part1;
        u->num_sems = 0;
    }
}

static void case_signal_one_invalid_2(cgn_test_env *env, void *out) {
    cgn_ext_sem_signal_update *u = out;
    *u = (cgn_ext_sem_signal_update)CGN_EXT_SEM_SIGNAL_UPDATE_INIT;
    u->set = CGN_EXT_SEM_SIGNAL_SET_SEMS;
    {
        CUexternalSemaphore *part0 = cgn_test_zeroed(env, 65 * sizeof *part0);
        CUDA_EXTERNAL_SEMAPHORE_SIGNAL_PARAMS *part1 = cgn_test_zeroed(env, 65 * sizeof *part1);
        part0[0] = cgn_test_sem(env, 0);
        part0[1] = cgn_test_sem(env, 0);
        part0[2] = cgn_test_sem(env, 0);
        part0[3] = cgn_test_sem(env, 0);
        part0[4] = cgn_test_sem(env, 0);
        part0[5] = cgn_test_sem(env, 0);
        part0[6] = cgn_test_sem(env, 0);
        part0[7] = cgn_test_sem(env, 0);
        part0[8] = cgn_test_sem(env, 0);
        part0[9] = cgn_test_sem(env, 0);
        part0[10] = cgn_test_sem(env, 0);
        part0[11] = cgn_test_sem(env, 0);
        part0[12] = cgn_test_sem(env, 0);
        part0[13] = cgn_test_sem(env, 0);
        part0[14] = cgn_test_sem(env, 0);
        part0[15] = cgn_test_sem(env, 0);
        part0[16] = cgn_test_sem(env, 0);
        part0[17] = cgn_test_sem(env, 0);
        part0[18] = cgn_test_sem(env, 0);
        part0[19] = cgn_test_sem(env, 0);
        part0[20] = cgn_test_sem(env, 0);
        part0[21] = cgn_test_sem(env, 0);
        part0[22] = cgn_test_sem(env, 0);
        part0[23] = cgn_test_sem(env, 0);
        part0[24] = cgn_test_sem(env, 0);
        part0[25] = cgn_test_sem(env, 0);
        part0[26] = cgn_test_sem(env, 0);
        part0[27] = cgn_test_sem(env, 0);
        part0[28] = cgn_test_sem(env, 0);
        part0[29] = cgn_test_sem(env, 0);
        part0[30] = cgn_test_sem(env, 0);
        part0[31] = cgn_test_sem(env, 0);
        part0[32] = cgn_test_sem(env, 0);
        part0[33] = cgn_test_sem(env, 0);
        part0[34] = cgn_test_sem(env, 0);
        part0[35] = cgn_test_sem(env, 0);
        part0[36] = cgn_test_sem(env, 0);
        part0[37] = cgn_test_sem(env, 0);
        part0[38] = cgn_test_sem(env, 0);
        part0[39] = cgn_test_sem(env, 0);
        part0[40] = cgn_test_sem(env, 0);
        part0[41] = cgn_test_sem(env, 0);
        part0[42] = cgn_test_sem(env, 0);
        part0[43] = cgn_test_sem(env, 0);
        part0[44] = cgn_test_sem(env, 0);
        part0[45] = cgn_test_sem(env, 0);
        part0[46] = cgn_test_sem(env, 0);
        part0[47] = cgn_test_sem(env, 0);
        part0[48] = cgn_test_sem(env, 0);
        part0[49] = cgn_test_sem(env, 0);
        part0[50] = cgn_test_sem(env, 0);
        part0[51] = cgn_test_sem(env, 0);
        part0[52] = cgn_test_sem(env, 0);
        part0[53] = cgn_test_sem(env, 0);
        part0[54] = cgn_test_sem(env, 0);
        part0[55] = cgn_test_sem(env, 0);
        part0[56] = cgn_test_sem(env, 0);
        part0[57] = cgn_test_sem(env, 0);
        part0[58] = cgn_test_sem(env, 0);
        part0[59] = cgn_test_sem(env, 0);
        part0[60] = cgn_test_sem(env, 0);
        part0[61] = cgn_test_sem(env, 0);
        part0[62] = cgn_test_sem(env, 0);
        part0[63] = cgn_test_sem(env, 0);
        part0[64] = cgn_test_sem(env, 0);
        u->sems = part0;
        u->sems_params = part1;
        u->num_sems = 65;
    }
}

static void case_signal_one_invalid_3(cgn_test_env *env, void *out) {
    cgn_ext_sem_signal_update *u = out;
    *u = (cgn_ext_sem_signal_update)CGN_EXT_SEM_SIGNAL_UPDATE_INIT;
    u->set = CGN_EXT_SEM_SIGNAL_SET_SEMS;
    {
        CUexternalSemaphore *part0 = cgn_test_zeroed(env, 1 * sizeof *part0);
        CUDA_EXTERNAL_SEMAPHORE_SIGNAL_PARAMS *part1 = cgn_test_zeroed(env, 1 * sizeof *part1);
        part1[0].params.fence.value = UINT64_C(3);
        u->sems = part0;
        u->sems_params = part1;
        u->num_sems = 1;
    }
}

static void case_signal_one_invalid_4(cgn_test_env *env, void *out) {
    cgn_ext_sem_signal_update *u = out;
    *u = (cgn_ext_sem_signal_update)CGN_EXT_SEM_SIGNAL_UPDATE_INIT;
    u->set = CGN_EXT_SEM_SIGNAL_SET_SEMS_OWNER;
    u->sems_owner = cgn_test_owner(env, 1);
}

static void case_signal_one_exec_invalid_0(cgn_test_env *env, void *out) {
    cgn_ext_sem_signal_update *u = out;
    *u = (cgn_ext_sem_signal_update)CGN_EXT_SEM_SIGNAL_UPDATE_INIT;
    u->set = CGN_EXT_SEM_SIGNAL_SET_SEMS;
    {
        CUexternalSemaphore *part0 = cgn_test_zeroed(env, 2 * sizeof *part0);
        CUDA_EXTERNAL_SEMAPHORE_SIGNAL_PARAMS *part1 = cgn_test_zeroed(env, 2 * sizeof *part1);
        part0[0] = cgn_test_sem(env, 0);
        part1[0].params.fence.value = UINT64_C(2);
        part0[1] = cgn_test_sem(env, 1);
        part1[1].params.fence.value = UINT64_C(2);
        u->sems = part0;
        u->sems_params = part1;
        u->num_sems = 2;
    }
}

static void case_signal_two_original(cgn_test_env *env, void *out) {
    cgn_ext_sem_signal_desc *d = out;
    *d = (cgn_ext_sem_signal_desc)CGN_EXT_SEM_SIGNAL_DESC_INIT;
    {
        CUexternalSemaphore *part0 = cgn_test_zeroed(env, 2 * sizeof *part0);
        CUDA_EXTERNAL_SEMAPHORE_SIGNAL_PARAMS *part1 = cgn_test_zeroed(env, 2 * sizeof *part1);
        part0[0] = cgn_test_sem(env, 0);
        part1[0].params.fence.value = UINT64_C(3);
        part0[1] = cgn_test_sem(env, 1);
        part1[1].params.fence.value = UINT64_C(4);
        d->sems = part0;
        d->sems_params = part1;
        d->num_sems = 2;
    }
}

static void case_signal_two_update(cgn_test_env *env, void *out) {
    cgn_ext_sem_signal_update *u = out;
    *u = (cgn_ext_sem_signal_update)CGN_EXT_SEM_SIGNAL_UPDATE_INIT;
    u->set = CGN_EXT_SEM_SIGNAL_SET_SEMS | CGN_EXT_SEM_SIGNAL_SET_SEMS_OWNER;
    {
        CUexternalSemaphore *part0 = cgn_test_zeroed(env, 2 * sizeof *part0);
        CUDA_EXTERNAL_SEMAPHORE_SIGNAL_PARAMS *part1 = cgn_test_zeroed(env, 2 * sizeof *part1);
        part0[0] = cgn_test_sem(env, 1);
        part1[0].params.fence.value = UINT64_C(5);
        part0[1] = cgn_test_sem(env, 0);
        part1[1].params.fence.value = UINT64_C(6);
        u->sems = part0;
        u->sems_params = part1;
        u->num_sems = 2;
    }
    u->sems_owner = cgn_test_owner(env, 2);
}

static void case_signal_two_replacement(cgn_test_env *env, void *out) {
    cgn_ext_sem_signal_desc *d = out;
    *d = (cgn_ext_sem_signal_desc)CGN_EXT_SEM_SIGNAL_DESC_INIT;
    {
        CUexternalSemaphore *part0 = cgn_test_zeroed(env, 2 * sizeof *part0);
        CUDA_EXTERNAL_SEMAPHORE_SIGNAL_PARAMS *part1 = cgn_test_zeroed(env, 2 * sizeof *part1);
        part0[0] = cgn_test_sem(env, 1);
        part1[0].params.fence.value = UINT64_C(5);
        part0[1] = cgn_test_sem(env, 0);
        part1[1].params.fence.value = UINT64_C(6);
        d->sems = part0;
        d->sems_params = part1;
        d->num_sems = 2;
    }
    d->sems_owner = cgn_test_owner(env, 2);
}

static void case_signal_two_invalid_0(cgn_test_env *env, void *out) {
    cgn_ext_sem_signal_update *u = out;
    *u = (cgn_ext_sem_signal_update)CGN_EXT_SEM_SIGNAL_UPDATE_INIT;
    u->set = CGN_EXT_SEM_SIGNAL_SET_SEMS;
    {
        CUexternalSemaphore *part0 = cgn_test_zeroed(env, 2 * sizeof *part0);
        CUDA_EXTERNAL_SEMAPHORE_SIGNAL_PARAMS *part1 = cgn_test_zeroed(env, 2 * sizeof *part1);
        part0[0] = cgn_test_sem(env, 0);
        part1[0].params.fence.value = UINT64_C(1);
        part1[1].params.fence.value = UINT64_C(1);
        u->sems = part0;
        u->sems_params = part1;
        u->num_sems = 2;
    }
}

static void case_signal_two_exec_invalid_0(cgn_test_env *env, void *out) {
    cgn_ext_sem_signal_update *u = out;
    *u = (cgn_ext_sem_signal_update)CGN_EXT_SEM_SIGNAL_UPDATE_INIT;
    u->set = CGN_EXT_SEM_SIGNAL_SET_SEMS;
    {
        CUexternalSemaphore *part0 = cgn_test_zeroed(env, 1 * sizeof *part0);
        CUDA_EXTERNAL_SEMAPHORE_SIGNAL_PARAMS *part1 = cgn_test_zeroed(env, 1 * sizeof *part1);
        part0[0] = cgn_test_sem(env, 0);
        part1[0].params.fence.value = UINT64_C(9);
        u->sems = part0;
        u->sems_params = part1;
        u->num_sems = 1;
    }
}

static const cgn_test_exec_invalid case_signal_one_exec_invalid[] = {
    {case_signal_one_exec_invalid_0, CGN_ERROR_INVALID_VALUE,
     "{sems: [{sem: sem:0, value: 2}, {sem: sem:1, value: 2}]}", "sems"},
};

static const cgn_test_exec_invalid case_signal_two_exec_invalid[] = {
    {case_signal_two_exec_invalid_0, CGN_ERROR_INVALID_VALUE, "{sems: [{sem: sem:0, value: 9}]}",
     "sems"},
};

static const cgn_test_invalid case_signal_one_invalid[] = {
    {case_signal_one_invalid_0, CGN_ERROR_INVALID_ARGUMENT, "{sems: null}"},
    {case_signal_one_invalid_1, CGN_ERROR_INVALID_VALUE, "{sems: []}"},
    {case_signal_one_invalid_2, CGN_ERROR_OUT_OF_RANGE, "{sems: {many: 65}}"},
    {case_signal_one_invalid_3, CGN_ERROR_INVALID_VALUE, "{sems: [{value: 3}]}"},
    {case_signal_one_invalid_4, CGN_ERROR_MISSING_FIELD, "{sems_owner: owner:1}"},
};

static const cgn_test_invalid case_signal_two_invalid[] = {
    {case_signal_two_invalid_0, CGN_ERROR_INVALID_VALUE,
     "{sems: [{sem: sem:0, value: 1}, {value: 1}]}"},
};

const cgn_test_case cgn_test_cases_ext_sem_signal[] = {
    {"signal-one", case_signal_one_original, case_signal_one_update, case_signal_one_replacement,
     case_signal_one_invalid, 5, case_signal_one_exec_invalid, 1, NULL},
    {"signal-two", case_signal_two_original, case_signal_two_update, case_signal_two_replacement,
     case_signal_two_invalid, 1, case_signal_two_exec_invalid, 1, NULL},
};
const size_t cgn_test_cases_ext_sem_signal_count = 2;

/* ---- type adapter: lets scenario runners treat every node type alike ---- */

static cgn_status type_ext_sem_signal_add(cgn_graph *g, const void *desc, cgn_node **out) {
    return cgn_graph_add_ext_sem_signal(g, NULL, 0, desc, out);
}

static cgn_status type_ext_sem_signal_update(cgn_node *n, const void *u) {
    return cgn_ext_sem_signal_node_update(n, u);
}

static cgn_status type_ext_sem_signal_get(const cgn_node *n, void *desc) {
    return cgn_ext_sem_signal_node_get(n, desc);
}

static cgn_status type_ext_sem_signal_exec_update(cgn_exec *e, cgn_node *n, const void *u) {
    return cgn_ext_sem_signal_exec_update(e, n, u);
}

static cgn_status type_ext_sem_signal_exec_get(const cgn_exec *e, const cgn_node *n, void *desc) {
    return cgn_ext_sem_signal_exec_get(e, n, desc);
}

static void type_ext_sem_signal_update_from_desc(void *u, const void *desc) {
    cgn_ext_sem_signal_update_from_desc(u, desc);
}

static int type_ext_sem_signal_desc_equal(const void *a_, const void *b_) {
    const cgn_ext_sem_signal_desc *a = a_;
    const cgn_ext_sem_signal_desc *b = b_;
    return a->num_sems == b->num_sems && (a->num_sems == 0 || (memcmp(a->sems, b->sems, a->num_sems * sizeof *a->sems) == 0 && memcmp(a->sems_params, b->sems_params, a->num_sems * sizeof *a->sems_params) == 0)) &&
           a->sems_owner == b->sems_owner;
}

/* desc_equal and the output fields (what the driver chose at add) too. */
static int type_ext_sem_signal_desc_same(const void *a_, const void *b_) {
    return type_ext_sem_signal_desc_equal(a_, b_);
}

const cgn_test_type cgn_test_type_ext_sem_signal = {
    "ext_sem_signal", CGN_NODE_EXT_SEM_SIGNAL, sizeof(cgn_ext_sem_signal_desc),
    sizeof(cgn_ext_sem_signal_update), type_ext_sem_signal_add, type_ext_sem_signal_update,
    type_ext_sem_signal_get, type_ext_sem_signal_exec_update, type_ext_sem_signal_exec_get,
    type_ext_sem_signal_update_from_desc, type_ext_sem_signal_desc_equal,
    type_ext_sem_signal_desc_same, cgn_test_cases_ext_sem_signal, 2
};
