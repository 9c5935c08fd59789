/* Generated from spec/batch_mem_op.yaml by codegen; do not edit. */
#include <string.h>

#include "cgn_test_env.h"
#include "cgn_test_cases.h"

extern const cgn_test_case cgn_test_cases_batch_mem_op[];
extern const size_t cgn_test_cases_batch_mem_op_count;
extern const cgn_test_type cgn_test_type_batch_mem_op;

/* ---- cases: each fill function writes a full desc or an update ---- */

static void case_batch_write32_original(cgn_test_env *env, void *out) {
    cgn_batch_mem_op_desc *d = out;
    *d = (cgn_batch_mem_op_desc)CGN_BATCH_MEM_OP_DESC_INIT;
    {
        CUstreamBatchMemOpParams *ops = cgn_test_mem_ops(env, 1);
        ops[0] = cgn_test_mem_op(env, CU_STREAM_MEM_OP_WRITE_VALUE_32, 0, 0, UINT64_C(287454020), 0u);
        d->ops = ops;
        d->num_ops = 1;
    }
    d->ops_owner = cgn_test_owner(env, 0);
}

static void case_batch_write32_update(cgn_test_env *env, void *out) {
    cgn_batch_mem_op_update *u = out;
    *u = (cgn_batch_mem_op_update)CGN_BATCH_MEM_OP_UPDATE_INIT;
    u->set = CGN_BATCH_MEM_OP_SET_OPS | CGN_BATCH_MEM_OP_SET_OPS_OWNER;
    {
        CUstreamBatchMemOpParams *ops = cgn_test_mem_ops(env, 1);
        ops[0] = cgn_test_mem_op(env, CU_STREAM_MEM_OP_WRITE_VALUE_32, 1, 4, UINT64_C(1432778632), 0u);
        u->ops = ops;
        u->num_ops = 1;
    }
    u->ops_owner = cgn_test_owner(env, 1);
}

static void case_batch_write32_replacement(cgn_test_env *env, void *out) {
    cgn_batch_mem_op_desc *d = out;
    *d = (cgn_batch_mem_op_desc)CGN_BATCH_MEM_OP_DESC_INIT;
    {
        CUstreamBatchMemOpParams *ops = cgn_test_mem_ops(env, 1);
        ops[0] = cgn_test_mem_op(env, CU_STREAM_MEM_OP_WRITE_VALUE_32, 1, 4, UINT64_C(1432778632), 0u);
        d->ops = ops;
        d->num_ops = 1;
    }
    d->ops_owner = cgn_test_owner(env, 1);
}

static void case_batch_write32_invalid_0(cgn_test_env *env, void *out) {
    (void)env;
    cgn_batch_mem_op_update *u = out;
    *u = (cgn_batch_mem_op_update)CGN_BATCH_MEM_OP_UPDATE_INIT;
    u->set = CGN_BATCH_MEM_OP_SET_OPS;
    u->ops = NULL;
    u->num_ops = 0;
}

static void case_batch_write32_invalid_1(cgn_test_env *env, void *out) {
    cgn_batch_mem_op_update *u = out;
    *u = (cgn_batch_mem_op_update)CGN_BATCH_MEM_OP_UPDATE_INIT;
    u->set = CGN_BATCH_MEM_OP_SET_OPS;
    {
        CUstreamBatchMemOpParams *ops = cgn_test_mem_ops(env, 0);
        u->ops = ops;
        u->num_ops = 0;
    }
}

static void case_batch_write32_invalid_2(cgn_test_env *env, void *out) {
    cgn_batch_mem_op_update *u = out;
    *u = (cgn_batch_mem_op_update)CGN_BATCH_MEM_OP_UPDATE_INIT;
    u->set = CGN_BATCH_MEM_OP_SET_OPS;
    u->ops = cgn_test_mem_ops(env, 256);
    u->num_ops = 256;
}

static void case_batch_write32_invalid_3(cgn_test_env *env, void *out) {
    cgn_batch_mem_op_update *u = out;
    *u = (cgn_batch_mem_op_update)CGN_BATCH_MEM_OP_UPDATE_INIT;
    u->set = CGN_BATCH_MEM_OP_SET_OPS;
    {
        CUstreamBatchMemOpParams *ops = cgn_test_mem_ops(env, 1);
        ops[0] = cgn_test_mem_op(env, CU_STREAM_MEM_OP_WRITE_VALUE_32, 0, 2, UINT64_C(1), 0u);
        u->ops = ops;
        u->num_ops = 1;
    }
}

static void case_batch_write32_invalid_4(cgn_test_env *env, void *out) {
    cgn_batch_mem_op_update *u = out;
    *u = (cgn_batch_mem_op_update)CGN_BATCH_MEM_OP_UPDATE_INIT;
    u->set = CGN_BATCH_MEM_OP_SET_OPS;
    {
        CUstreamBatchMemOpParams *ops = cgn_test_mem_ops(env, 1);
        ops[0] = cgn_test_mem_op(env, CU_STREAM_MEM_OP_WRITE_VALUE_32, 0, 0, UINT64_C(1), 2u);
        u->ops = ops;
        u->num_ops = 1;
    }
}

static void case_batch_write32_invalid_5(cgn_test_env *env, void *out) {
    cgn_batch_mem_op_update *u = out;
    *u = (cgn_batch_mem_op_update)CGN_BATCH_MEM_OP_UPDATE_INIT;
    u->set = CGN_BATCH_MEM_OP_SET_OPS_OWNER;
    u->ops_owner = cgn_test_owner(env, 1);
}

static void case_batch_write32_exec_invalid_0(cgn_test_env *env, void *out) {
    cgn_batch_mem_op_update *u = out;
    *u = (cgn_batch_mem_op_update)CGN_BATCH_MEM_OP_UPDATE_INIT;
    u->set = CGN_BATCH_MEM_OP_SET_OPS;
    {
        CUstreamBatchMemOpParams *ops = cgn_test_mem_ops(env, 1);
        ops[0] = cgn_test_mem_op(env, CU_STREAM_MEM_OP_WRITE_VALUE_64, 0, 0, UINT64_C(1), 0u);
        u->ops = ops;
        u->num_ops = 1;
    }
}

static void case_batch_write32_exec_invalid_1(cgn_test_env *env, void *out) {
    cgn_batch_mem_op_update *u = out;
    *u = (cgn_batch_mem_op_update)CGN_BATCH_MEM_OP_UPDATE_INIT;
    u->set = CGN_BATCH_MEM_OP_SET_OPS;
    {
        CUstreamBatchMemOpParams *ops = cgn_test_mem_ops(env, 2);
        ops[0] = cgn_test_mem_op(env, CU_STREAM_MEM_OP_WRITE_VALUE_32, 0, 0, UINT64_C(1), 0u);
        ops[1] = cgn_test_mem_op(env, CU_STREAM_MEM_OP_WRITE_VALUE_32, 1, 0, UINT64_C(2), 0u);
        u->ops = ops;
        u->num_ops = 2;
    }
}

static void case_batch_write64_original(cgn_test_env *env, void *out) {
    cgn_batch_mem_op_desc *d = out;
    *d = (cgn_batch_mem_op_desc)CGN_BATCH_MEM_OP_DESC_INIT;
    {
        CUstreamBatchMemOpParams *ops = cgn_test_mem_ops(env, 1);
        ops[0] = cgn_test_mem_op(env, CU_STREAM_MEM_OP_WRITE_VALUE_64, 0, 8, UINT64_C(72623859790382856), 0u);
        d->ops = ops;
        d->num_ops = 1;
    }
}

static void case_batch_write64_update(cgn_test_env *env, void *out) {
    cgn_batch_mem_op_update *u = out;
    *u = (cgn_batch_mem_op_update)CGN_BATCH_MEM_OP_UPDATE_INIT;
    u->set = CGN_BATCH_MEM_OP_SET_OPS;
    {
        CUstreamBatchMemOpParams *ops = cgn_test_mem_ops(env, 1);
        ops[0] = cgn_test_mem_op(env, CU_STREAM_MEM_OP_WRITE_VALUE_64, 0, 8, UINT64_C(17434265340928784376), 0u);
        u->ops = ops;
        u->num_ops = 1;
    }
}

static void case_batch_write64_replacement(cgn_test_env *env, void *out) {
    cgn_batch_mem_op_desc *d = out;
    *d = (cgn_batch_mem_op_desc)CGN_BATCH_MEM_OP_DESC_INIT;
    {
        CUstreamBatchMemOpParams *ops = cgn_test_mem_ops(env, 1);
        ops[0] = cgn_test_mem_op(env, CU_STREAM_MEM_OP_WRITE_VALUE_64, 0, 8, UINT64_C(17434265340928784376), 0u);
        d->ops = ops;
        d->num_ops = 1;
    }
}

static void case_batch_write64_invalid_0(cgn_test_env *env, void *out) {
    cgn_batch_mem_op_update *u = out;
    *u = (cgn_batch_mem_op_update)CGN_BATCH_MEM_OP_UPDATE_INIT;
    u->set = CGN_BATCH_MEM_OP_SET_OPS;
    {
        CUstreamBatchMemOpParams *ops = cgn_test_mem_ops(env, 1);
        ops[0] = cgn_test_mem_op(env, CU_STREAM_MEM_OP_WRITE_VALUE_64, 0, 4, UINT64_C(1), 0u);
        u->ops = ops;
        u->num_ops = 1;
    }
}

static void case_batch_write64_exec_invalid_0(cgn_test_env *env, void *out) {
    cgn_batch_mem_op_update *u = out;
    *u = (cgn_batch_mem_op_update)CGN_BATCH_MEM_OP_UPDATE_INIT;
    u->set = CGN_BATCH_MEM_OP_SET_OPS;
    {
        CUstreamBatchMemOpParams *ops = cgn_test_mem_ops(env, 1);
        ops[0] = cgn_test_mem_op(env, CU_STREAM_MEM_OP_WRITE_VALUE_32, 0, 0, UINT64_C(1), 0u);
        u->ops = ops;
        u->num_ops = 1;
    }
}

static void case_batch_several_original(cgn_test_env *env, void *out) {
    cgn_batch_mem_op_desc *d = out;
    *d = (cgn_batch_mem_op_desc)CGN_BATCH_MEM_OP_DESC_INIT;
    {
        CUstreamBatchMemOpParams *ops = cgn_test_mem_ops(env, 3);
        ops[0] = cgn_test_mem_op(env, CU_STREAM_MEM_OP_WRITE_VALUE_32, 0, 0, UINT64_C(2694881440), 0u);
        ops[1] = cgn_test_mem_op(env, CU_STREAM_MEM_OP_WRITE_VALUE_64, 0, 16, UINT64_C(12731870419501494448), 0u);
        ops[2] = cgn_test_mem_op(env, CU_STREAM_MEM_OP_WRITE_VALUE_32, 1, 60, UINT64_C(3233857728), 0u);
        d->ops = ops;
        d->num_ops = 3;
    }
    d->ops_owner = cgn_test_owner(env, 0);
}

static void case_batch_several_update(cgn_test_env *env, void *out) {
    cgn_batch_mem_op_update *u = out;
    *u = (cgn_batch_mem_op_update)CGN_BATCH_MEM_OP_UPDATE_INIT;
    u->set = CGN_BATCH_MEM_OP_SET_OPS;
    {
        CUstreamBatchMemOpParams *ops = cgn_test_mem_ops(env, 3);
        ops[0] = cgn_test_mem_op(env, CU_STREAM_MEM_OP_WRITE_VALUE_32, 1, 0, UINT64_C(2711724449), 0u);
        ops[1] = cgn_test_mem_op(env, CU_STREAM_MEM_OP_WRITE_VALUE_64, 0, 24, UINT64_C(12804210592339571121), 0u);
        ops[2] = cgn_test_mem_op(env, CU_STREAM_MEM_OP_WRITE_VALUE_32, 0, 4, UINT64_C(3250700737), 0u);
        u->ops = ops;
        u->num_ops = 3;
    }
}

static void case_batch_several_replacement(cgn_test_env *env, void *out) {
    cgn_batch_mem_op_desc *d = out;
    *d = (cgn_batch_mem_op_desc)CGN_BATCH_MEM_OP_DESC_INIT;
    {
        CUstreamBatchMemOpParams *ops = cgn_test_mem_ops(env, 3);
        ops[0] = cgn_test_mem_op(env, CU_STREAM_MEM_OP_WRITE_VALUE_32, 1, 0, UINT64_C(2711724449), 0u);
        ops[1] = cgn_test_mem_op(env, CU_STREAM_MEM_OP_WRITE_VALUE_64, 0, 24, UINT64_C(12804210592339571121), 0u);
        ops[2] = cgn_test_mem_op(env, CU_STREAM_MEM_OP_WRITE_VALUE_32, 0, 4, UINT64_C(3250700737), 0u);
        d->ops = ops;
        d->num_ops = 3;
    }
}

static void case_batch_several_invalid_0(cgn_test_env *env, void *out) {
    cgn_batch_mem_op_update *u = out;
    *u = (cgn_batch_mem_op_update)CGN_BATCH_MEM_OP_UPDATE_INIT;
    u->set = CGN_BATCH_MEM_OP_SET_OPS;
    {
        CUstreamBatchMemOpParams *ops = cgn_test_mem_ops(env, 2);
        ops[0] = cgn_test_mem_op(env, CU_STREAM_MEM_OP_WRITE_VALUE_32, 0, 0, UINT64_C(1), 0u);
        ops[1] = cgn_test_mem_op(env, CU_STREAM_MEM_OP_WAIT_VALUE_64, 0, 0, UINT64_C(1), 4u);
        u->ops = ops;
        u->num_ops = 2;
    }
}

static void case_batch_several_exec_invalid_0(cgn_test_env *env, void *out) {
    cgn_batch_mem_op_update *u = out;
    *u = (cgn_batch_mem_op_update)CGN_BATCH_MEM_OP_UPDATE_INIT;
    u->set = CGN_BATCH_MEM_OP_SET_OPS;
    {
        CUstreamBatchMemOpParams *ops = cgn_test_mem_ops(env, 3);
        ops[0] = cgn_test_mem_op(env, CU_STREAM_MEM_OP_WRITE_VALUE_32, 1, 0, UINT64_C(1), 0u);
        ops[1] = cgn_test_mem_op(env, CU_STREAM_MEM_OP_WRITE_VALUE_32, 0, 24, UINT64_C(2), 0u);
        ops[2] = cgn_test_mem_op(env, CU_STREAM_MEM_OP_WRITE_VALUE_32, 0, 4, UINT64_C(3), 0u);
        u->ops = ops;
        u->num_ops = 3;
    }
}

static void case_batch_wait_original(cgn_test_env *env, void *out) {
    cgn_batch_mem_op_desc *d = out;
    *d = (cgn_batch_mem_op_desc)CGN_BATCH_MEM_OP_DESC_INIT;
    {
        CUstreamBatchMemOpParams *ops = cgn_test_mem_ops(env, 3);
        ops[0] = cgn_test_mem_op(env, CU_STREAM_MEM_OP_WRITE_VALUE_32, 0, 0, UINT64_C(5), 0u);
        ops[1] = cgn_test_mem_op(env, CU_STREAM_MEM_OP_WAIT_VALUE_32, 0, 0, UINT64_C(5), 1u);
        ops[2] = cgn_test_mem_op(env, CU_STREAM_MEM_OP_WRITE_VALUE_32, 1, 0, UINT64_C(6), 0u);
        d->ops = ops;
        d->num_ops = 3;
    }
}

static void case_batch_wait_update(cgn_test_env *env, void *out) {
    cgn_batch_mem_op_update *u = out;
    *u = (cgn_batch_mem_op_update)CGN_BATCH_MEM_OP_UPDATE_INIT;
    u->set = CGN_BATCH_MEM_OP_SET_OPS;
    {
        CUstreamBatchMemOpParams *ops = cgn_test_mem_ops(env, 3);
        ops[0] = cgn_test_mem_op(env, CU_STREAM_MEM_OP_WRITE_VALUE_32, 1, 8, UINT64_C(9), 0u);
        ops[1] = cgn_test_mem_op(env, CU_STREAM_MEM_OP_WAIT_VALUE_32, 1, 8, UINT64_C(9), 0u);
        ops[2] = cgn_test_mem_op(env, CU_STREAM_MEM_OP_WRITE_VALUE_32, 0, 0, UINT64_C(10), 0u);
        u->ops = ops;
        u->num_ops = 3;
    }
}

static void case_batch_wait_replacement(cgn_test_env *env, void *out) {
    cgn_batch_mem_op_desc *d = out;
    *d = (cgn_batch_mem_op_desc)CGN_BATCH_MEM_OP_DESC_INIT;
    {
        CUstreamBatchMemOpParams *ops = cgn_test_mem_ops(env, 3);
        ops[0] = cgn_test_mem_op(env, CU_STREAM_MEM_OP_WRITE_VALUE_32, 1, 8, UINT64_C(9), 0u);
        ops[1] = cgn_test_mem_op(env, CU_STREAM_MEM_OP_WAIT_VALUE_32, 1, 8, UINT64_C(9), 0u);
        ops[2] = cgn_test_mem_op(env, CU_STREAM_MEM_OP_WRITE_VALUE_32, 0, 0, UINT64_C(10), 0u);
        d->ops = ops;
        d->num_ops = 3;
    }
}

static void case_batch_wait_invalid_0(cgn_test_env *env, void *out) {
    cgn_batch_mem_op_update *u = out;
    *u = (cgn_batch_mem_op_update)CGN_BATCH_MEM_OP_UPDATE_INIT;
    u->set = CGN_BATCH_MEM_OP_SET_OPS;
    {
        CUstreamBatchMemOpParams *ops = cgn_test_mem_ops(env, 1);
        ops[0] = cgn_test_mem_op(env, CU_STREAM_MEM_OP_WAIT_VALUE_32, 0, 0, UINT64_C(5), 7u);
        u->ops = ops;
        u->num_ops = 1;
    }
}

static void case_batch_wait_exec_invalid_0(cgn_test_env *env, void *out) {
    cgn_batch_mem_op_update *u = out;
    *u = (cgn_batch_mem_op_update)CGN_BATCH_MEM_OP_UPDATE_INIT;
    u->set = CGN_BATCH_MEM_OP_SET_OPS;
    {
        CUstreamBatchMemOpParams *ops = cgn_test_mem_ops(env, 3);
        ops[0] = cgn_test_mem_op(env, CU_STREAM_MEM_OP_WRITE_VALUE_32, 0, 0, UINT64_C(5), 0u);
        ops[1] = cgn_test_mem_op(env, CU_STREAM_MEM_OP_WRITE_VALUE_32, 0, 0, UINT64_C(5), 0u);
        ops[2] = cgn_test_mem_op(env, CU_STREAM_MEM_OP_WRITE_VALUE_32, 1, 0, UINT64_C(6), 0u);
        u->ops = ops;
        u->num_ops = 3;
    }
}

static void case_batch_wait64_original(cgn_test_env *env, void *out) {
    cgn_batch_mem_op_desc *d = out;
    *d = (cgn_batch_mem_op_desc)CGN_BATCH_MEM_OP_DESC_INIT;
    {
        CUstreamBatchMemOpParams *ops = cgn_test_mem_ops(env, 2);
        ops[0] = cgn_test_mem_op(env, CU_STREAM_MEM_OP_WRITE_VALUE_64, 0, 8, UINT64_C(1234605616436508552), 0u);
        ops[1] = cgn_test_mem_op(env, CU_STREAM_MEM_OP_WAIT_VALUE_64, 0, 8, UINT64_C(1234605616436508552), 1u);
        d->ops = ops;
        d->num_ops = 2;
    }
}

static void case_batch_wait64_update(cgn_test_env *env, void *out) {
    cgn_batch_mem_op_update *u = out;
    *u = (cgn_batch_mem_op_update)CGN_BATCH_MEM_OP_UPDATE_INIT;
    u->set = CGN_BATCH_MEM_OP_SET_OPS;
    {
        CUstreamBatchMemOpParams *ops = cgn_test_mem_ops(env, 2);
        ops[0] = cgn_test_mem_op(env, CU_STREAM_MEM_OP_WRITE_VALUE_64, 1, 0, UINT64_C(4294967298), 0u);
        ops[1] = cgn_test_mem_op(env, CU_STREAM_MEM_OP_WAIT_VALUE_64, 1, 0, UINT64_C(4294967297), 0u);
        u->ops = ops;
        u->num_ops = 2;
    }
}

static void case_batch_wait64_replacement(cgn_test_env *env, void *out) {
    cgn_batch_mem_op_desc *d = out;
    *d = (cgn_batch_mem_op_desc)CGN_BATCH_MEM_OP_DESC_INIT;
    {
        CUstreamBatchMemOpParams *ops = cgn_test_mem_ops(env, 2);
        ops[0] = cgn_test_mem_op(env, CU_STREAM_MEM_OP_WRITE_VALUE_64, 1, 0, UINT64_C(4294967298), 0u);
        ops[1] = cgn_test_mem_op(env, CU_STREAM_MEM_OP_WAIT_VALUE_64, 1, 0, UINT64_C(4294967297), 0u);
        d->ops = ops;
        d->num_ops = 2;
    }
}

static void case_batch_wait64_invalid_0(cgn_test_env *env, void *out) {
    cgn_batch_mem_op_update *u = out;
    *u = (cgn_batch_mem_op_update)CGN_BATCH_MEM_OP_UPDATE_INIT;
    u->set = CGN_BATCH_MEM_OP_SET_OPS;
    {
        CUstreamBatchMemOpParams *ops = cgn_test_mem_ops(env, 2);
        ops[0] = cgn_test_mem_op(env, CU_STREAM_MEM_OP_WRITE_VALUE_64, 1, 0, UINT64_C(1), 0u);
        ops[1] = cgn_test_mem_op(env, CU_STREAM_MEM_OP_WAIT_VALUE_64, 1, 4, UINT64_C(1), 0u);
        u->ops = ops;
        u->num_ops = 2;
    }
}

static void case_batch_barrier_original(cgn_test_env *env, void *out) {
    cgn_batch_mem_op_desc *d = out;
    *d = (cgn_batch_mem_op_desc)CGN_BATCH_MEM_OP_DESC_INIT;
    {
        CUstreamBatchMemOpParams *ops = cgn_test_mem_ops(env, 3);
        ops[0] = cgn_test_mem_op(env, CU_STREAM_MEM_OP_WRITE_VALUE_32, 0, 0, UINT64_C(16843009), 0u);
        ops[1] = cgn_test_mem_op(env, CU_STREAM_MEM_OP_BARRIER, -1, 0, UINT64_C(0), 1u);
        ops[2] = cgn_test_mem_op(env, CU_STREAM_MEM_OP_WRITE_VALUE_32, 1, 0, UINT64_C(33686018), 0u);
        d->ops = ops;
        d->num_ops = 3;
    }
}

static void case_batch_barrier_update(cgn_test_env *env, void *out) {
    cgn_batch_mem_op_update *u = out;
    *u = (cgn_batch_mem_op_update)CGN_BATCH_MEM_OP_UPDATE_INIT;
    u->set = CGN_BATCH_MEM_OP_SET_OPS;
    {
        CUstreamBatchMemOpParams *ops = cgn_test_mem_ops(env, 3);
        ops[0] = cgn_test_mem_op(env, CU_STREAM_MEM_OP_WRITE_VALUE_32, 0, 12, UINT64_C(50529027), 0u);
        ops[1] = cgn_test_mem_op(env, CU_STREAM_MEM_OP_BARRIER, -1, 0, UINT64_C(0), 1u);
        ops[2] = cgn_test_mem_op(env, CU_STREAM_MEM_OP_WRITE_VALUE_32, 1, 12, UINT64_C(67372036), 0u);
        u->ops = ops;
        u->num_ops = 3;
    }
}

static void case_batch_barrier_replacement(cgn_test_env *env, void *out) {
    cgn_batch_mem_op_desc *d = out;
    *d = (cgn_batch_mem_op_desc)CGN_BATCH_MEM_OP_DESC_INIT;
    {
        CUstreamBatchMemOpParams *ops = cgn_test_mem_ops(env, 3);
        ops[0] = cgn_test_mem_op(env, CU_STREAM_MEM_OP_WRITE_VALUE_32, 0, 12, UINT64_C(50529027), 0u);
        ops[1] = cgn_test_mem_op(env, CU_STREAM_MEM_OP_BARRIER, -1, 0, UINT64_C(0), 1u);
        ops[2] = cgn_test_mem_op(env, CU_STREAM_MEM_OP_WRITE_VALUE_32, 1, 12, UINT64_C(67372036), 0u);
        d->ops = ops;
        d->num_ops = 3;
    }
}

static void case_batch_barrier_invalid_0(cgn_test_env *env, void *out) {
    cgn_batch_mem_op_update *u = out;
    *u = (cgn_batch_mem_op_update)CGN_BATCH_MEM_OP_UPDATE_INIT;
    u->set = CGN_BATCH_MEM_OP_SET_OPS;
    {
        CUstreamBatchMemOpParams *ops = cgn_test_mem_ops(env, 1);
        ops[0] = cgn_test_mem_op(env, CU_STREAM_MEM_OP_BARRIER, -1, 0, UINT64_C(0), 2u);
        u->ops = ops;
        u->num_ops = 1;
    }
}

static void case_batch_barrier_exec_invalid_0(cgn_test_env *env, void *out) {
    cgn_batch_mem_op_update *u = out;
    *u = (cgn_batch_mem_op_update)CGN_BATCH_MEM_OP_UPDATE_INIT;
    u->set = CGN_BATCH_MEM_OP_SET_OPS;
    {
        CUstreamBatchMemOpParams *ops = cgn_test_mem_ops(env, 3);
        ops[0] = cgn_test_mem_op(env, CU_STREAM_MEM_OP_WRITE_VALUE_32, 0, 0, UINT64_C(1), 0u);
        ops[1] = cgn_test_mem_op(env, CU_STREAM_MEM_OP_BARRIER, -1, 0, UINT64_C(0), 0u);
        ops[2] = cgn_test_mem_op(env, CU_STREAM_MEM_OP_WRITE_VALUE_32, 1, 0, UINT64_C(2), 0u);
        u->ops = ops;
        u->num_ops = 3;
    }
}

static const cgn_test_exec_invalid case_batch_write32_exec_invalid[] = {
    {case_batch_write32_exec_invalid_0, CGN_ERROR_INVALID_VALUE,
     "{ops: [{op: write64, at: buf:0, value: 1}]}", "ops"},
    {case_batch_write32_exec_invalid_1, CGN_ERROR_INVALID_VALUE,
     "{ops: [{op: write32, at: buf:0, value: 1}, {op: write32, at: buf:1, value: 2}]}", "ops"},
};

static const cgn_test_exec_invalid case_batch_write64_exec_invalid[] = {
    {case_batch_write64_exec_invalid_0, CGN_ERROR_INVALID_VALUE,
     "{ops: [{op: write32, at: buf:0, value: 1}]}", "ops"},
};

static const cgn_test_exec_invalid case_batch_several_exec_invalid[] = {
    {case_batch_several_exec_invalid_0, CGN_ERROR_INVALID_VALUE,
     "{ops: [{op: write32, at: buf:1, value: 1}, {op: write32, at: buf:0, offset: 24, value: 2}, {op: write32, at: buf:0, offset: 4, value: 3}]}",
     "ops"},
};

static const cgn_test_exec_invalid case_batch_wait_exec_invalid[] = {
    {case_batch_wait_exec_invalid_0, CGN_ERROR_INVALID_VALUE,
     "{ops: [{op: write32, at: buf:0, value: 5}, {op: write32, at: buf:0, value: 5}, {op: write32, at: buf:1, value: 6}]}",
     "ops"},
};

static const cgn_test_exec_invalid case_batch_barrier_exec_invalid[] = {
    {case_batch_barrier_exec_invalid_0, CGN_ERROR_INVALID_VALUE,
     "{ops: [{op: write32, at: buf:0, value: 1}, {op: barrier, flags: 0}, {op: write32, at: buf:1, value: 2}]}",
     "ops"},
};

static const cgn_test_invalid case_batch_write32_invalid[] = {
    {case_batch_write32_invalid_0, CGN_ERROR_INVALID_ARGUMENT, "{ops: null}"},
    {case_batch_write32_invalid_1, CGN_ERROR_INVALID_VALUE, "{ops: []}"},
    {case_batch_write32_invalid_2, CGN_ERROR_OUT_OF_RANGE, "{ops: {many: 256}}"},
    {case_batch_write32_invalid_3, CGN_ERROR_INVALID_VALUE,
     "{ops: [{op: write32, at: buf:0, offset: 2, value: 1}]}"},
    {case_batch_write32_invalid_4, CGN_ERROR_INVALID_VALUE,
     "{ops: [{op: write32, at: buf:0, value: 1, flags: 2}]}"},
    {case_batch_write32_invalid_5, CGN_ERROR_MISSING_FIELD, "{ops_owner: owner:1}"},
};

static const cgn_test_invalid case_batch_write64_invalid[] = {
    {case_batch_write64_invalid_0, CGN_ERROR_INVALID_VALUE,
     "{ops: [{op: write64, at: buf:0, offset: 4, value: 1}]}"},
};

static const cgn_test_invalid case_batch_several_invalid[] = {
    {case_batch_several_invalid_0, CGN_ERROR_INVALID_VALUE,
     "{ops: [{op: write32, at: buf:0, value: 1}, {op: wait64, at: buf:0, value: 1, flags: 4}]}"},
};

static const cgn_test_invalid case_batch_wait_invalid[] = {
    {case_batch_wait_invalid_0, CGN_ERROR_INVALID_VALUE,
     "{ops: [{op: wait32, at: buf:0, value: 5, flags: 7}]}"},
};

static const cgn_test_invalid case_batch_wait64_invalid[] = {
    {case_batch_wait64_invalid_0, CGN_ERROR_INVALID_VALUE,
     "{ops: [{op: write64, at: buf:1, value: 1}, {op: wait64, at: buf:1, offset: 4, value: 1}]}"},
};

static const cgn_test_invalid case_batch_barrier_invalid[] = {
    {case_batch_barrier_invalid_0, CGN_ERROR_INVALID_VALUE, "{ops: [{op: barrier, flags: 2}]}"},
};

const cgn_test_case cgn_test_cases_batch_mem_op[] = {
    {"batch-write32", case_batch_write32_original, case_batch_write32_update,
     case_batch_write32_replacement, case_batch_write32_invalid, 6, case_batch_write32_exec_invalid,
     2, NULL},
    {"batch-write64", case_batch_write64_original, case_batch_write64_update,
     case_batch_write64_replacement, case_batch_write64_invalid, 1, case_batch_write64_exec_invalid,
     1, NULL},
    {"batch-several", case_batch_several_original, case_batch_several_update,
     case_batch_several_replacement, case_batch_several_invalid, 1, case_batch_several_exec_invalid,
     1, NULL},
    {"batch-wait", case_batch_wait_original, case_batch_wait_update, case_batch_wait_replacement,
     case_batch_wait_invalid, 1, case_batch_wait_exec_invalid, 1, NULL},
    {"batch-wait64", case_batch_wait64_original, case_batch_wait64_update,
     case_batch_wait64_replacement, case_batch_wait64_invalid, 1, NULL, 0, NULL},
    {"batch-barrier", case_batch_barrier_original, case_batch_barrier_update,
     case_batch_barrier_replacement, case_batch_barrier_invalid, 1, case_batch_barrier_exec_invalid,
     1, NULL},
};
const size_t cgn_test_cases_batch_mem_op_count = 6;

/* ---- type adapter: lets scenario runners treat every node type alike ---- */

static cgn_status type_batch_mem_op_add(cgn_graph *g, const void *desc, cgn_node **out) {
    return cgn_graph_add_batch_mem_op(g, NULL, 0, desc, out);
}

static cgn_status type_batch_mem_op_update(cgn_node *n, const void *u) {
    return cgn_batch_mem_op_node_update(n, u);
}

static cgn_status type_batch_mem_op_get(const cgn_node *n, void *desc) {
    return cgn_batch_mem_op_node_get(n, desc);
}

static cgn_status type_batch_mem_op_exec_update(cgn_exec *e, cgn_node *n, const void *u) {
    return cgn_batch_mem_op_exec_update(e, n, u);
}

static cgn_status type_batch_mem_op_exec_get(const cgn_exec *e, const cgn_node *n, void *desc) {
    return cgn_batch_mem_op_exec_get(e, n, desc);
}

static void type_batch_mem_op_update_from_desc(void *u, const void *desc) {
    cgn_batch_mem_op_update_from_desc(u, desc);
}

static int type_batch_mem_op_desc_equal(const void *a_, const void *b_) {
    const cgn_batch_mem_op_desc *a = a_;
    const cgn_batch_mem_op_desc *b = b_;
    return a->num_ops == b->num_ops && (a->num_ops == 0 || memcmp(a->ops, b->ops, a->num_ops * sizeof *a->ops) == 0) &&
           a->ops_owner == b->ops_owner;
}

/* desc_equal and the output fields (what the driver chose at add) too. */
static int type_batch_mem_op_desc_same(const void *a_, const void *b_) {
    return type_batch_mem_op_desc_equal(a_, b_);
}

const cgn_test_type cgn_test_type_batch_mem_op = {
    "batch_mem_op", CGN_NODE_BATCH_MEM_OP, sizeof(cgn_batch_mem_op_desc),
    sizeof(cgn_batch_mem_op_update), type_batch_mem_op_add, type_batch_mem_op_update,
    type_batch_mem_op_get, type_batch_mem_op_exec_update, type_batch_mem_op_exec_get,
    type_batch_mem_op_update_from_desc, type_batch_mem_op_desc_equal, type_batch_mem_op_desc_same,
    cgn_test_cases_batch_mem_op, 6
};
