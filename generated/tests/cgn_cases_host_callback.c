/* Generated from spec/host_callback.yaml by codegen; do not edit. */
#include <string.h>

#include "cgn_test_env.h"
#include "cgn_test_cases.h"

extern const cgn_test_case cgn_test_cases_host_callback[];
extern const size_t cgn_test_cases_host_callback_count;
extern const cgn_test_type cgn_test_type_host_callback;

/* ---- cases: each fill function writes a full desc or an update ---- */

static void case_host_callback_original(cgn_test_env *env, void *out) {
    cgn_host_callback_desc *d = out;
    *d = (cgn_host_callback_desc)CGN_HOST_CALLBACK_DESC_INIT;
    d->fn = cgn_test_callback(env, "record_a");
    {
        static const unsigned char bytes[] = {0xa1};
        d->payload = cgn_test_bytes(env, bytes, sizeof bytes);
        d->payload_size = sizeof bytes;
    }
}

static void case_host_callback_update(cgn_test_env *env, void *out) {
    cgn_host_callback_update *u = out;
    *u = (cgn_host_callback_update)CGN_HOST_CALLBACK_UPDATE_INIT;
    u->set = CGN_HOST_CALLBACK_SET_FN | CGN_HOST_CALLBACK_SET_PAYLOAD;
    u->fn = cgn_test_callback(env, "record_b");
    {
        static const unsigned char bytes[] = {0xb2, 0x01};
        u->payload = cgn_test_bytes(env, bytes, sizeof bytes);
        u->payload_size = sizeof bytes;
    }
}

static void case_host_callback_replacement(cgn_test_env *env, void *out) {
    cgn_host_callback_desc *d = out;
    *d = (cgn_host_callback_desc)CGN_HOST_CALLBACK_DESC_INIT;
    d->fn = cgn_test_callback(env, "record_b");
    {
        static const unsigned char bytes[] = {0xb2, 0x01};
        d->payload = cgn_test_bytes(env, bytes, sizeof bytes);
        d->payload_size = sizeof bytes;
    }
}

static void case_host_callback_invalid_0(cgn_test_env *env, void *out) {
    (void)env;
    cgn_host_callback_update *u = out;
    *u = (cgn_host_callback_update)CGN_HOST_CALLBACK_UPDATE_INIT;
    u->set = CGN_HOST_CALLBACK_SET_FN;
    u->fn = NULL;
}

static void case_host_callback_invalid_1(cgn_test_env *env, void *out) {
    cgn_host_callback_update *u = out;
    *u = (cgn_host_callback_update)CGN_HOST_CALLBACK_UPDATE_INIT;
    u->set = CGN_HOST_CALLBACK_SET_PAYLOAD;
    {
        static const unsigned char bytes[] = {0xb2};
        u->payload = cgn_test_bytes(env, bytes, sizeof bytes);
        u->payload_size = sizeof bytes;
    }
}

static void case_host_callback_invalid_2(cgn_test_env *env, void *out) {
    cgn_host_callback_update *u = out;
    *u = (cgn_host_callback_update)CGN_HOST_CALLBACK_UPDATE_INIT;
    u->set = CGN_HOST_CALLBACK_SET_FN | CGN_HOST_CALLBACK_SET_USER_DATA |
             CGN_HOST_CALLBACK_SET_PAYLOAD;
    u->fn = cgn_test_callback(env, "record_b");
    u->user_data = cgn_test_host_ptr(env, 0);
    {
        static const unsigned char bytes[] = {0xb2};
        u->payload = cgn_test_bytes(env, bytes, sizeof bytes);
        u->payload_size = sizeof bytes;
    }
}

static void case_host_callback_user_data_original(cgn_test_env *env, void *out) {
    cgn_host_callback_desc *d = out;
    *d = (cgn_host_callback_desc)CGN_HOST_CALLBACK_DESC_INIT;
    d->fn = cgn_test_callback(env, "record_a");
    d->user_data = cgn_test_host_ptr(env, 0);
    d->user_data_owner = cgn_test_owner(env, 0);
}

static void case_host_callback_user_data_update(cgn_test_env *env, void *out) {
    cgn_host_callback_update *u = out;
    *u = (cgn_host_callback_update)CGN_HOST_CALLBACK_UPDATE_INIT;
    u->set = CGN_HOST_CALLBACK_SET_FN | CGN_HOST_CALLBACK_SET_USER_DATA |
             CGN_HOST_CALLBACK_SET_USER_DATA_OWNER;
    u->fn = cgn_test_callback(env, "record_a");
    u->user_data = cgn_test_host_ptr(env, 1);
    u->user_data_owner = cgn_test_owner(env, 1);
}

static void case_host_callback_user_data_replacement(cgn_test_env *env, void *out) {
    cgn_host_callback_desc *d = out;
    *d = (cgn_host_callback_desc)CGN_HOST_CALLBACK_DESC_INIT;
    d->fn = cgn_test_callback(env, "record_a");
    d->user_data = cgn_test_host_ptr(env, 1);
    d->user_data_owner = cgn_test_owner(env, 1);
}

static void case_host_callback_user_data_invalid_0(cgn_test_env *env, void *out) {
    cgn_host_callback_update *u = out;
    *u = (cgn_host_callback_update)CGN_HOST_CALLBACK_UPDATE_INIT;
    u->set = CGN_HOST_CALLBACK_SET_FN | CGN_HOST_CALLBACK_SET_USER_DATA_OWNER;
    u->fn = cgn_test_callback(env, "record_b");
    u->user_data_owner = cgn_test_owner(env, 1);
}

static void case_host_callback_user_data_invalid_1(cgn_test_env *env, void *out) {
    cgn_host_callback_update *u = out;
    *u = (cgn_host_callback_update)CGN_HOST_CALLBACK_UPDATE_INIT;
    u->set = CGN_HOST_CALLBACK_SET_USER_DATA;
    u->user_data = cgn_test_host_ptr(env, 1);
}

static void case_host_callback_clears_argument_original(cgn_test_env *env, void *out) {
    cgn_host_callback_desc *d = out;
    *d = (cgn_host_callback_desc)CGN_HOST_CALLBACK_DESC_INIT;
    d->fn = cgn_test_callback(env, "record_a");
    {
        static const unsigned char bytes[] = {0xa1};
        d->payload = cgn_test_bytes(env, bytes, sizeof bytes);
        d->payload_size = sizeof bytes;
    }
}

static void case_host_callback_clears_argument_update(cgn_test_env *env, void *out) {
    cgn_host_callback_update *u = out;
    *u = (cgn_host_callback_update)CGN_HOST_CALLBACK_UPDATE_INIT;
    u->set = CGN_HOST_CALLBACK_SET_FN;
    u->fn = cgn_test_callback(env, "record_b");
}

static void case_host_callback_clears_argument_replacement(cgn_test_env *env, void *out) {
    cgn_host_callback_desc *d = out;
    *d = (cgn_host_callback_desc)CGN_HOST_CALLBACK_DESC_INIT;
    d->fn = cgn_test_callback(env, "record_b");
}

static void case_host_callback_clears_argument_invalid_0(cgn_test_env *env, void *out) {
    cgn_host_callback_update *u = out;
    *u = (cgn_host_callback_update)CGN_HOST_CALLBACK_UPDATE_INIT;
    u->set = CGN_HOST_CALLBACK_SET_FN | CGN_HOST_CALLBACK_SET_PAYLOAD;
    u->fn = NULL;
    {
        static const unsigned char bytes[] = {0xb2};
        u->payload = cgn_test_bytes(env, bytes, sizeof bytes);
        u->payload_size = sizeof bytes;
    }
}

static void case_host_callback_payload_to_user_data_original(cgn_test_env *env, void *out) {
    cgn_host_callback_desc *d = out;
    *d = (cgn_host_callback_desc)CGN_HOST_CALLBACK_DESC_INIT;
    d->fn = cgn_test_callback(env, "record_a");
    {
        static const unsigned char bytes[] = {0xa1};
        d->payload = cgn_test_bytes(env, bytes, sizeof bytes);
        d->payload_size = sizeof bytes;
    }
}

static void case_host_callback_payload_to_user_data_update(cgn_test_env *env, void *out) {
    cgn_host_callback_update *u = out;
    *u = (cgn_host_callback_update)CGN_HOST_CALLBACK_UPDATE_INIT;
    u->set = CGN_HOST_CALLBACK_SET_FN | CGN_HOST_CALLBACK_SET_USER_DATA |
             CGN_HOST_CALLBACK_SET_USER_DATA_OWNER;
    u->fn = cgn_test_callback(env, "record_a");
    u->user_data = cgn_test_host_ptr(env, 1);
    u->user_data_owner = cgn_test_owner(env, 1);
}

static void case_host_callback_payload_to_user_data_replacement(cgn_test_env *env, void *out) {
    cgn_host_callback_desc *d = out;
    *d = (cgn_host_callback_desc)CGN_HOST_CALLBACK_DESC_INIT;
    d->fn = cgn_test_callback(env, "record_a");
    d->user_data = cgn_test_host_ptr(env, 1);
    d->user_data_owner = cgn_test_owner(env, 1);
}

static void case_host_callback_payload_to_user_data_invalid_0(cgn_test_env *env, void *out) {
    cgn_host_callback_update *u = out;
    *u = (cgn_host_callback_update)CGN_HOST_CALLBACK_UPDATE_INIT;
    u->set = CGN_HOST_CALLBACK_SET_FN | CGN_HOST_CALLBACK_SET_USER_DATA |
             CGN_HOST_CALLBACK_SET_PAYLOAD;
    u->fn = cgn_test_callback(env, "record_a");
    u->user_data = cgn_test_host_ptr(env, 1);
    {
        static const unsigned char bytes[] = {0xb2};
        u->payload = cgn_test_bytes(env, bytes, sizeof bytes);
        u->payload_size = sizeof bytes;
    }
}

static void case_host_callback_empty_payload_original(cgn_test_env *env, void *out) {
    cgn_host_callback_desc *d = out;
    *d = (cgn_host_callback_desc)CGN_HOST_CALLBACK_DESC_INIT;
    d->fn = cgn_test_callback(env, "record_a");
    d->user_data = cgn_test_host_ptr(env, 0);
}

static void case_host_callback_empty_payload_update(cgn_test_env *env, void *out) {
    cgn_host_callback_update *u = out;
    *u = (cgn_host_callback_update)CGN_HOST_CALLBACK_UPDATE_INIT;
    u->set = CGN_HOST_CALLBACK_SET_FN | CGN_HOST_CALLBACK_SET_PAYLOAD;
    u->fn = cgn_test_callback(env, "record_b");
    u->payload = cgn_test_bytes(env, NULL, 0);
    u->payload_size = 0;
}

static void case_host_callback_empty_payload_replacement(cgn_test_env *env, void *out) {
    cgn_host_callback_desc *d = out;
    *d = (cgn_host_callback_desc)CGN_HOST_CALLBACK_DESC_INIT;
    d->fn = cgn_test_callback(env, "record_b");
}

static void case_host_callback_empty_payload_invalid_0(cgn_test_env *env, void *out) {
    cgn_host_callback_update *u = out;
    *u = (cgn_host_callback_update)CGN_HOST_CALLBACK_UPDATE_INIT;
    u->set = CGN_HOST_CALLBACK_SET_FN | CGN_HOST_CALLBACK_SET_USER_DATA |
             CGN_HOST_CALLBACK_SET_PAYLOAD;
    u->fn = cgn_test_callback(env, "record_b");
    u->user_data = cgn_test_host_ptr(env, 0);
    u->payload = cgn_test_bytes(env, NULL, 0);
    u->payload_size = 0;
}

static void case_host_callback_no_owners_original(cgn_test_env *env, void *out) {
    cgn_host_callback_desc *d = out;
    *d = (cgn_host_callback_desc)CGN_HOST_CALLBACK_DESC_INIT;
    d->fn = cgn_test_callback(env, "record_a");
    d->user_data = cgn_test_host_ptr(env, 0);
}

static void case_host_callback_no_owners_update(cgn_test_env *env, void *out) {
    cgn_host_callback_update *u = out;
    *u = (cgn_host_callback_update)CGN_HOST_CALLBACK_UPDATE_INIT;
    u->set = CGN_HOST_CALLBACK_SET_FN | CGN_HOST_CALLBACK_SET_USER_DATA;
    u->fn = cgn_test_callback(env, "record_b");
    u->user_data = cgn_test_host_ptr(env, 1);
}

static void case_host_callback_no_owners_replacement(cgn_test_env *env, void *out) {
    cgn_host_callback_desc *d = out;
    *d = (cgn_host_callback_desc)CGN_HOST_CALLBACK_DESC_INIT;
    d->fn = cgn_test_callback(env, "record_b");
    d->user_data = cgn_test_host_ptr(env, 1);
}

static void case_host_callback_no_owners_invalid_0(cgn_test_env *env, void *out) {
    cgn_host_callback_update *u = out;
    *u = (cgn_host_callback_update)CGN_HOST_CALLBACK_UPDATE_INIT;
    u->set = CGN_HOST_CALLBACK_SET_FN | CGN_HOST_CALLBACK_SET_USER_DATA;
    u->fn = NULL;
    u->user_data = cgn_test_host_ptr(env, 1);
}

static void case_host_callback_no_owners_invalid_1(cgn_test_env *env, void *out) {
    cgn_host_callback_update *u = out;
    *u = (cgn_host_callback_update)CGN_HOST_CALLBACK_UPDATE_INIT;
    u->set = CGN_HOST_CALLBACK_SET_FN | CGN_HOST_CALLBACK_SET_USER_DATA |
             CGN_HOST_CALLBACK_SET_PAYLOAD;
    u->fn = cgn_test_callback(env, "record_b");
    u->user_data = cgn_test_host_ptr(env, 1);
    {
        static const unsigned char bytes[] = {0xb2};
        u->payload = cgn_test_bytes(env, bytes, sizeof bytes);
        u->payload_size = sizeof bytes;
    }
}

static void case_host_callback_no_owners_invalid_2(cgn_test_env *env, void *out) {
    cgn_host_callback_update *u = out;
    *u = (cgn_host_callback_update)CGN_HOST_CALLBACK_UPDATE_INIT;
    u->set = CGN_HOST_CALLBACK_SET_FN | CGN_HOST_CALLBACK_SET_USER_DATA_OWNER;
    u->fn = cgn_test_callback(env, "record_b");
    u->user_data_owner = cgn_test_owner(env, 1);
}

static void case_host_callback_gains_owner_original(cgn_test_env *env, void *out) {
    cgn_host_callback_desc *d = out;
    *d = (cgn_host_callback_desc)CGN_HOST_CALLBACK_DESC_INIT;
    d->fn = cgn_test_callback(env, "record_a");
    d->user_data = cgn_test_host_ptr(env, 0);
}

static void case_host_callback_gains_owner_update(cgn_test_env *env, void *out) {
    cgn_host_callback_update *u = out;
    *u = (cgn_host_callback_update)CGN_HOST_CALLBACK_UPDATE_INIT;
    u->set = CGN_HOST_CALLBACK_SET_FN | CGN_HOST_CALLBACK_SET_USER_DATA |
             CGN_HOST_CALLBACK_SET_USER_DATA_OWNER;
    u->fn = cgn_test_callback(env, "record_b");
    u->user_data = cgn_test_host_ptr(env, 1);
    u->user_data_owner = cgn_test_owner(env, 1);
}

static void case_host_callback_gains_owner_replacement(cgn_test_env *env, void *out) {
    cgn_host_callback_desc *d = out;
    *d = (cgn_host_callback_desc)CGN_HOST_CALLBACK_DESC_INIT;
    d->fn = cgn_test_callback(env, "record_b");
    d->user_data = cgn_test_host_ptr(env, 1);
    d->user_data_owner = cgn_test_owner(env, 1);
}

static void case_host_callback_gains_owner_invalid_0(cgn_test_env *env, void *out) {
    cgn_host_callback_update *u = out;
    *u = (cgn_host_callback_update)CGN_HOST_CALLBACK_UPDATE_INIT;
    u->set = CGN_HOST_CALLBACK_SET_FN | CGN_HOST_CALLBACK_SET_USER_DATA |
             CGN_HOST_CALLBACK_SET_USER_DATA_OWNER;
    u->fn = NULL;
    u->user_data = cgn_test_host_ptr(env, 1);
    u->user_data_owner = cgn_test_owner(env, 1);
}

static void case_host_callback_gains_payload_original(cgn_test_env *env, void *out) {
    cgn_host_callback_desc *d = out;
    *d = (cgn_host_callback_desc)CGN_HOST_CALLBACK_DESC_INIT;
    d->fn = cgn_test_callback(env, "record_a");
    d->user_data = cgn_test_host_ptr(env, 0);
}

static void case_host_callback_gains_payload_update(cgn_test_env *env, void *out) {
    cgn_host_callback_update *u = out;
    *u = (cgn_host_callback_update)CGN_HOST_CALLBACK_UPDATE_INIT;
    u->set = CGN_HOST_CALLBACK_SET_FN | CGN_HOST_CALLBACK_SET_PAYLOAD;
    u->fn = cgn_test_callback(env, "record_b");
    {
        static const unsigned char bytes[] = {0xb2, 0x01};
        u->payload = cgn_test_bytes(env, bytes, sizeof bytes);
        u->payload_size = sizeof bytes;
    }
}

static void case_host_callback_gains_payload_replacement(cgn_test_env *env, void *out) {
    cgn_host_callback_desc *d = out;
    *d = (cgn_host_callback_desc)CGN_HOST_CALLBACK_DESC_INIT;
    d->fn = cgn_test_callback(env, "record_b");
    {
        static const unsigned char bytes[] = {0xb2, 0x01};
        d->payload = cgn_test_bytes(env, bytes, sizeof bytes);
        d->payload_size = sizeof bytes;
    }
}

static void case_host_callback_gains_payload_invalid_0(cgn_test_env *env, void *out) {
    cgn_host_callback_update *u = out;
    *u = (cgn_host_callback_update)CGN_HOST_CALLBACK_UPDATE_INIT;
    u->set = CGN_HOST_CALLBACK_SET_FN | CGN_HOST_CALLBACK_SET_USER_DATA |
             CGN_HOST_CALLBACK_SET_PAYLOAD;
    u->fn = cgn_test_callback(env, "record_b");
    u->user_data = cgn_test_host_ptr(env, 1);
    {
        static const unsigned char bytes[] = {0xb2};
        u->payload = cgn_test_bytes(env, bytes, sizeof bytes);
        u->payload_size = sizeof bytes;
    }
}

static const cgn_test_invalid case_host_callback_invalid[] = {
    {case_host_callback_invalid_0, CGN_ERROR_INVALID_VALUE, "{fn: null}"},
    {case_host_callback_invalid_1, CGN_ERROR_MISSING_FIELD, "{payload: [0xB2]}"},
    {case_host_callback_invalid_2, CGN_ERROR_INVALID_VALUE,
     "{fn: callback:record_b, user_data: host:0, payload: [0xB2]}"},
};

static const cgn_test_invalid case_host_callback_user_data_invalid[] = {
    {case_host_callback_user_data_invalid_0, CGN_ERROR_MISSING_FIELD,
     "{fn: callback:record_b, user_data_owner: owner:1}"},
    {case_host_callback_user_data_invalid_1, CGN_ERROR_MISSING_FIELD, "{user_data: host:1}"},
};

static const cgn_test_invalid case_host_callback_clears_argument_invalid[] = {
    {case_host_callback_clears_argument_invalid_0, CGN_ERROR_INVALID_VALUE,
     "{fn: null, payload: [0xB2]}"},
};

static const cgn_test_invalid case_host_callback_payload_to_user_data_invalid[] = {
    {case_host_callback_payload_to_user_data_invalid_0, CGN_ERROR_INVALID_VALUE,
     "{fn: callback:record_a, user_data: host:1, payload: [0xB2]}"},
};

static const cgn_test_invalid case_host_callback_empty_payload_invalid[] = {
    {case_host_callback_empty_payload_invalid_0, CGN_ERROR_INVALID_VALUE,
     "{fn: callback:record_b, user_data: host:0, payload: []}"},
};

static const cgn_test_invalid case_host_callback_no_owners_invalid[] = {
    {case_host_callback_no_owners_invalid_0, CGN_ERROR_INVALID_VALUE,
     "{fn: null, user_data: host:1}"},
    {case_host_callback_no_owners_invalid_1, CGN_ERROR_INVALID_VALUE,
     "{fn: callback:record_b, user_data: host:1, payload: [0xB2]}"},
    {case_host_callback_no_owners_invalid_2, CGN_ERROR_MISSING_FIELD,
     "{fn: callback:record_b, user_data_owner: owner:1}"},
};

static const cgn_test_invalid case_host_callback_gains_owner_invalid[] = {
    {case_host_callback_gains_owner_invalid_0, CGN_ERROR_INVALID_VALUE,
     "{fn: null, user_data: host:1, user_data_owner: owner:1}"},
};

static const cgn_test_invalid case_host_callback_gains_payload_invalid[] = {
    {case_host_callback_gains_payload_invalid_0, CGN_ERROR_INVALID_VALUE,
     "{fn: callback:record_b, user_data: host:1, payload: [0xB2]}"},
};

const cgn_test_case cgn_test_cases_host_callback[] = {
    {"host-callback", case_host_callback_original, case_host_callback_update,
     case_host_callback_replacement, case_host_callback_invalid, 3, NULL, 0, NULL},
    {"host-callback-user-data", case_host_callback_user_data_original,
     case_host_callback_user_data_update, case_host_callback_user_data_replacement,
     case_host_callback_user_data_invalid, 2, NULL, 0, NULL},
    {"host-callback-clears-argument", case_host_callback_clears_argument_original,
     case_host_callback_clears_argument_update, case_host_callback_clears_argument_replacement,
     case_host_callback_clears_argument_invalid, 1, NULL, 0, NULL},
    {"host-callback-payload-to-user-data", case_host_callback_payload_to_user_data_original,
     case_host_callback_payload_to_user_data_update,
     case_host_callback_payload_to_user_data_replacement,
     case_host_callback_payload_to_user_data_invalid, 1, NULL, 0, NULL},
    {"host-callback-empty-payload", case_host_callback_empty_payload_original,
     case_host_callback_empty_payload_update, case_host_callback_empty_payload_replacement,
     case_host_callback_empty_payload_invalid, 1, NULL, 0, NULL},
    {"host-callback-no-owners", case_host_callback_no_owners_original,
     case_host_callback_no_owners_update, case_host_callback_no_owners_replacement,
     case_host_callback_no_owners_invalid, 3, NULL, 0, NULL},
    {"host-callback-gains-owner", case_host_callback_gains_owner_original,
     case_host_callback_gains_owner_update, case_host_callback_gains_owner_replacement,
     case_host_callback_gains_owner_invalid, 1, NULL, 0, NULL},
    {"host-callback-gains-payload", case_host_callback_gains_payload_original,
     case_host_callback_gains_payload_update, case_host_callback_gains_payload_replacement,
     case_host_callback_gains_payload_invalid, 1, NULL, 0, NULL},
};
const size_t cgn_test_cases_host_callback_count = 8;

/* ---- type adapter: lets scenario runners treat every node type alike ---- */

/* Same size and same bytes (a node's get returns cgn's copy, not the caller's pointer). */
static int bytes_equal(const void *a, size_t na, const void *b, size_t nb) {
    return na == nb && (na == 0 || memcmp(a, b, na) == 0);
}

static cgn_status type_host_callback_add(cgn_graph *g, const void *desc, cgn_node **out) {
    return cgn_graph_add_host_callback(g, NULL, 0, desc, out);
}

static cgn_status type_host_callback_update(cgn_node *n, const void *u) {
    return cgn_host_callback_node_update(n, u);
}

static cgn_status type_host_callback_get(const cgn_node *n, void *desc) {
    return cgn_host_callback_node_get(n, desc);
}

static cgn_status type_host_callback_exec_update(cgn_exec *e, cgn_node *n, const void *u) {
    return cgn_host_callback_exec_update(e, n, u);
}

static cgn_status type_host_callback_exec_get(const cgn_exec *e, const cgn_node *n, void *desc) {
    return cgn_host_callback_exec_get(e, n, desc);
}

static void type_host_callback_update_from_desc(void *u, const void *desc) {
    cgn_host_callback_update_from_desc(u, desc);
}

static int type_host_callback_desc_equal(const void *a_, const void *b_) {
    const cgn_host_callback_desc *a = a_;
    const cgn_host_callback_desc *b = b_;
    return a->fn == b->fn && a->user_data == b->user_data &&
           a->user_data_owner == b->user_data_owner &&
           bytes_equal(a->payload, a->payload_size, b->payload, b->payload_size);
}

/* desc_equal and the output fields (what the driver chose at add) too. */
static int type_host_callback_desc_same(const void *a_, const void *b_) {
    return type_host_callback_desc_equal(a_, b_);
}

const cgn_test_type cgn_test_type_host_callback = {
    "host_callback", CGN_NODE_HOST, sizeof(cgn_host_callback_desc),
    sizeof(cgn_host_callback_update), type_host_callback_add, type_host_callback_update,
    type_host_callback_get, type_host_callback_exec_update, type_host_callback_exec_get,
    type_host_callback_update_from_desc, type_host_callback_desc_equal,
    type_host_callback_desc_same, cgn_test_cases_host_callback, 8
};
