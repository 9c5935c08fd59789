/* Generated from spec/ by codegen; do not edit. */
/* Every node type's test adapter, sorted by node name. */
#include "cgn_test_cases.h"

extern const cgn_test_type cgn_test_type_batch_mem_op;
extern const cgn_test_type cgn_test_type_child_graph;
extern const cgn_test_type cgn_test_type_conditional;
extern const cgn_test_type cgn_test_type_event_record;
extern const cgn_test_type cgn_test_type_event_wait;
extern const cgn_test_type cgn_test_type_ext_sem_signal;
extern const cgn_test_type cgn_test_type_ext_sem_wait;
extern const cgn_test_type cgn_test_type_host_callback;
extern const cgn_test_type cgn_test_type_kernel;
extern const cgn_test_type cgn_test_type_mem_alloc;
extern const cgn_test_type cgn_test_type_mem_free;
extern const cgn_test_type cgn_test_type_memcpy;
extern const cgn_test_type cgn_test_type_memcpy_3d;
extern const cgn_test_type cgn_test_type_memset;
extern const cgn_test_type *const cgn_test_types[];
extern const size_t cgn_test_types_count;

const cgn_test_type *const cgn_test_types[] = {
    &cgn_test_type_batch_mem_op,
    &cgn_test_type_child_graph,
    &cgn_test_type_conditional,
    &cgn_test_type_event_record,
    &cgn_test_type_event_wait,
    &cgn_test_type_ext_sem_signal,
    &cgn_test_type_ext_sem_wait,
    &cgn_test_type_host_callback,
    &cgn_test_type_kernel,
    &cgn_test_type_mem_alloc,
    &cgn_test_type_mem_free,
    &cgn_test_type_memcpy,
    &cgn_test_type_memcpy_3d,
    &cgn_test_type_memset,
};
const size_t cgn_test_types_count = 14;

/* Each node type's model (tests/support/cgn_test_env.c): a missing one does not link. Types
 * with `test_model: false` change nothing the tests observe: no model of their own. */
void cgn_test_model_batch_mem_op(cgn_test_env *env, const void *desc,
                                 cgn_test_observation *expected);
void cgn_test_model_child_graph(cgn_test_env *env, const void *desc,
                                cgn_test_observation *expected);
void cgn_test_model_event_record(cgn_test_env *env, const void *desc,
                                 cgn_test_observation *expected);
void cgn_test_model_event_wait(cgn_test_env *env, const void *desc,
                               cgn_test_observation *expected);
void cgn_test_model_ext_sem_signal(cgn_test_env *env, const void *desc,
                                   cgn_test_observation *expected);
void cgn_test_model_ext_sem_wait(cgn_test_env *env, const void *desc,
                                 cgn_test_observation *expected);
void cgn_test_model_host_callback(cgn_test_env *env, const void *desc,
                                  cgn_test_observation *expected);
void cgn_test_model_kernel(cgn_test_env *env, const void *desc,
                           cgn_test_observation *expected);
void cgn_test_model_memcpy(cgn_test_env *env, const void *desc,
                           cgn_test_observation *expected);
void cgn_test_model_memcpy_3d(cgn_test_env *env, const void *desc,
                              cgn_test_observation *expected);
void cgn_test_model_memset(cgn_test_env *env, const void *desc,
                           cgn_test_observation *expected);

static void cgn_test_model_none(cgn_test_env *env, const void *desc,
                                cgn_test_observation *expected) {
    (void)env, (void)desc, (void)expected;
}

const cgn_test_model_fn cgn_test_models[CGN_NODE_TYPE_COUNT_] = {
    [CGN_NODE_BATCH_MEM_OP] = cgn_test_model_batch_mem_op,
    [CGN_NODE_CHILD_GRAPH] = cgn_test_model_child_graph,
    [CGN_NODE_CONDITIONAL] = cgn_test_model_none,
    [CGN_NODE_EVENT_RECORD] = cgn_test_model_event_record,
    [CGN_NODE_EVENT_WAIT] = cgn_test_model_event_wait,
    [CGN_NODE_EXT_SEM_SIGNAL] = cgn_test_model_ext_sem_signal,
    [CGN_NODE_EXT_SEM_WAIT] = cgn_test_model_ext_sem_wait,
    [CGN_NODE_HOST] = cgn_test_model_host_callback,
    [CGN_NODE_KERNEL] = cgn_test_model_kernel,
    [CGN_NODE_MEM_ALLOC] = cgn_test_model_none,
    [CGN_NODE_MEM_FREE] = cgn_test_model_none,
    [CGN_NODE_MEMCPY] = cgn_test_model_memcpy,
    [CGN_NODE_MEMCPY_3D] = cgn_test_model_memcpy_3d,
    [CGN_NODE_MEMSET] = cgn_test_model_memset,
};
