/* Types of the generated test-case tables (generated/tests/cgn_cases_*.c). */
#ifndef CGN_TESTS_CGN_TEST_CASES_H
#define CGN_TESTS_CGN_TEST_CASES_H

#include <stddef.h>

#include "cgn/cgn.h"
#include "cgn_test_env.h"

typedef void (*cgn_test_fill_fn)(cgn_test_env *env, void *out);

/* An update the spec says must fail, with the status it must fail with. */
typedef struct cgn_test_invalid {
    cgn_test_fill_fn update;
    cgn_status status;
    const char *text; /* the update as written in the spec, for messages */
} cgn_test_invalid;

/* An update an executable must refuse before any mutation; the message names `field`. */
typedef struct cgn_test_exec_invalid {
    cgn_test_fill_fn update;
    cgn_status status;
    const char *text;
    const char *field;
} cgn_test_exec_invalid;

/* original: a full desc; update: a partial update; replacement: the full desc the update must
 * produce (written independently in the spec). */
typedef struct cgn_test_case {
    const char *id;
    cgn_test_fill_fn original, update, replacement;
    const cgn_test_invalid *invalid;
    size_t num_invalid;
    const cgn_test_exec_invalid *exec_invalid;
    size_t num_exec_invalid;
    const char *exec_refuses; /* field an executable refuses `update` for; NULL: accepted */
} cgn_test_case;

/* Lets scenario runners treat every node type alike. */
typedef struct cgn_test_type {
    const char *name;
    cgn_node_type type;
    size_t desc_size, update_size;
    cgn_status (*add)(cgn_graph *graph, const void *desc, cgn_node **node_out);
    cgn_status (*update)(cgn_node *node, const void *update);
    cgn_status (*get)(const cgn_node *node, void *desc_out);
    cgn_status (*exec_update)(cgn_exec *exec, cgn_node *node, const void *update);
    cgn_status (*exec_get)(const cgn_exec *exec, const cgn_node *node, void *desc_out);
    void (*update_from_desc)(void *update, const void *desc);
    int (*desc_equal)(const void *a, const void *b); /* output fields left out */
    int (*desc_same)(const void *a, const void *b);  /* desc_equal and the output fields */
    const cgn_test_case *cases;
    size_t num_cases;
} cgn_test_type;

extern const cgn_test_type *const cgn_test_types[];
extern const size_t cgn_test_types_count;

#endif /* CGN_TESTS_CGN_TEST_CASES_H */
