/* Generated from spec/ by codegen; do not edit. */
/* Every node type's test adapter, sorted by node name. */
#include "cgn_test_cases.h"

extern const cgn_test_type cgn_test_type_child_graph;
extern const cgn_test_type cgn_test_type_event_record;
extern const cgn_test_type cgn_test_type_event_wait;
extern const cgn_test_type cgn_test_type_host_callback;
extern const cgn_test_type cgn_test_type_kernel;
extern const cgn_test_type cgn_test_type_memcpy;
extern const cgn_test_type cgn_test_type_memset;
extern const cgn_test_type *const cgn_test_types[];
extern const size_t cgn_test_types_count;

const cgn_test_type *const cgn_test_types[] = {
    &cgn_test_type_child_graph,
    &cgn_test_type_event_record,
    &cgn_test_type_event_wait,
    &cgn_test_type_host_callback,
    &cgn_test_type_kernel,
    &cgn_test_type_memcpy,
    &cgn_test_type_memset,
};
const size_t cgn_test_types_count = 7;
