/* Host callback node: a callback with a payload cgn copies (so the caller's bytes may go right
 * after the call), a definition update to another payload, and an executable-level update to
 * another function with caller-owned user data kept alive by an owner. Each launch is checked
 * through what the callbacks wrote. Callbacks run on a CUDA thread: they make no CUDA calls. */
#include <stdatomic.h>
#include <stdint.h>

#include "example.h"

/* [guide:callback] */
typedef struct message {
    int from, value;
} message;

static atomic_int last_from, last_value;

/* Runs on a CUDA thread when the node runs: no CUDA calls here (cgn_owner_release is fine). */
static void CUDA_CB note(void *payload) {
    const message *m = payload; /* cgn's copy of the payload given at add or update */
    atomic_store(&last_from, m->from);
    atomic_store(&last_value, m->value);
}
/* [/guide:callback] */

typedef struct counter {
    atomic_int hits;
} counter;

static int counter_released;

static void CUDA_CB count(void *user_data) {
    atomic_fetch_add(&((counter *)user_data)->hits, 1);
}

static void free_counter(void *resource) {
    free(resource);
    counter_released++;
}

static void run(cgn_exec *exec, CUstream stream) {
    atomic_store(&last_from, 0);
    atomic_store(&last_value, 0);
    CHECK(cgn_exec_launch(exec, stream));
    CGN_CUDA_CHECK(cu.cuStreamSynchronize(stream)); /* the callback has run */
}

int main(void) {
    int rc = example_open("example_host_callback", 0);
    if (rc != 0)
        return rc;
    CUstream stream;
    CGN_CUDA_CHECK(cu.cuStreamCreate(&stream, CU_STREAM_DEFAULT));

    /* [guide:callback-add] */
    cgn_graph *graph;
    CHECK(cgn_graph_create(&graph));
    cgn_node *node;
    {
        message first = {1, 10}; /* a local: cgn keeps its own copy */
        cgn_host_callback_desc d = CGN_HOST_CALLBACK_DESC_INIT;
        d.fn = note;
        d.payload = &first;
        d.payload_size = sizeof first;
        CHECK(cgn_graph_add_host_callback(graph, NULL, 0, &d, &node));
    }
    cgn_exec *exec;
    CHECK(cgn_graph_instantiate(graph, &exec));
    /* [/guide:callback-add] */
    run(exec, stream);
    EXPECT(atomic_load(&last_from) == 1 && atomic_load(&last_value) == 10);

    /* [guide:callback-node-update] */
    message second = {2, 20};
    cgn_host_callback_update u = CGN_HOST_CALLBACK_UPDATE_INIT;
    cgn_host_callback_update_set_fn(&u, note, NULL, NULL, &second, sizeof second);
    CHECK(cgn_host_callback_node_update(node, &u)); /* fn and its argument go together */
    cgn_exec *later;
    CHECK(cgn_graph_instantiate(graph, &later));
    /* [/guide:callback-node-update] */
    second.value = -1; /* cgn copied the payload: this changes nothing */
    run(later, stream);
    EXPECT(atomic_load(&last_from) == 2 && atomic_load(&last_value) == 20);
    run(exec, stream); /* made before the update */
    EXPECT(atomic_load(&last_from) == 1 && atomic_load(&last_value) == 10);
    cgn_host_callback_desc now;
    CHECK(cgn_host_callback_node_get(node, &now)); /* payload: cgn's copy, with its owner */
    EXPECT(now.fn == note && now.payload_size == sizeof(message) && now.payload_owner != NULL);
    EXPECT(((const message *)now.payload)->value == 20);

    /* [guide:callback-exec-update] */
    counter *c = calloc(1, sizeof *c);
    EXPECT(c != NULL);
    cgn_owner *c_owner;
    CHECK(cgn_owner_create(c, free_counter, &c_owner));
    cgn_host_callback_update v = CGN_HOST_CALLBACK_UPDATE_INIT;
    cgn_host_callback_update_set_fn(&v, count, c, c_owner, NULL, 0); /* user data, no payload */
    CHECK(cgn_host_callback_exec_update(exec, node, &v));            /* this executable only */
    CHECK(cgn_owner_release(c_owner)); /* `exec` holds the counter now */
    /* [/guide:callback-exec-update] */
    run(exec, stream);
    run(exec, stream);
    EXPECT(atomic_load(&c->hits) == 2 && atomic_load(&last_from) == 0);
    run(later, stream); /* the definition and `later` still note the payload */
    EXPECT(atomic_load(&last_from) == 2 && atomic_load(&c->hits) == 2);

    CHECK(cgn_exec_destroy(later));
    CHECK(cgn_graph_destroy(graph));
    cgn_collect();
    EXPECT(counter_released == 0); /* `exec` still runs count(c) */
    CHECK(cgn_exec_destroy(exec));
    example_collect_until(&counter_released, 1);

    CGN_CUDA_CHECK(cu.cuStreamDestroy(stream));
    cgn_cuda_close(&cu);
    printf("example_host_callback: every check passed\n");
    return 0;
}
