/* Memset node: add one, update the definition, update one executable, keep a buffer alive with
 * an owner, see a bad update refused, disable and enable the node in an executable, and refresh
 * an executable from its graph. Every step is checked by reading the buffers back.
 * docs/guide.md walks through this file; the regions between [guide:...] markers are its code. */
#include <stdint.h>

#include "example.h"

static CUstream stream;
static CUdeviceptr buf_a, buf_b; /* 16 bytes each */
static int b_released;

/* [guide:release-callback] */
/* Runs once no graph, executable or launch can use buffer B any more, on a user thread (inside
 * a cgn call or cgn_collect()), so it may call CUDA. */
static void free_buffer(void *resource) {
    CGN_CUDA_CHECK(cu.cuMemFree((CUdeviceptr)(uintptr_t)resource));
    b_released++;
}
/* [/guide:release-callback] */

/* Zeroes both buffers, launches `exec`, and checks what it wrote (0 = untouched). */
static void run(cgn_exec *exec, unsigned char want_a, unsigned char want_b) {
    unsigned char a[16], b[16];
    CGN_CUDA_CHECK(cu.cuMemsetD8(buf_a, 0, 16));
    CGN_CUDA_CHECK(cu.cuMemsetD8(buf_b, 0, 16));
    /* [guide:launch] */
    CHECK(cgn_exec_launch(exec, stream));
    CGN_CUDA_CHECK(cu.cuStreamSynchronize(stream));
    /* [/guide:launch] */
    CGN_CUDA_CHECK(cu.cuMemcpyDtoH(a, buf_a, 16));
    CGN_CUDA_CHECK(cu.cuMemcpyDtoH(b, buf_b, 16));
    for (int i = 0; i < 16; i++) {
        EXPECT(a[i] == want_a);
        EXPECT(b[i] == want_b);
    }
}

int main(void) {
    int rc = example_open("example_memset", 0);
    if (rc != 0)
        return rc;
    /* A blocking stream: it waits for the cuMemsetD8 calls that zero the buffers. */
    CGN_CUDA_CHECK(cu.cuStreamCreate(&stream, CU_STREAM_DEFAULT));
    CGN_CUDA_CHECK(cu.cuMemAlloc(&buf_a, 16));
    CGN_CUDA_CHECK(cu.cuMemAlloc(&buf_b, 16));

    /* [guide:build] */
    cgn_graph *graph;
    CHECK(cgn_graph_create(&graph));
    cgn_memset_desc d = CGN_MEMSET_DESC_INIT; /* element_size 1, height 1 */
    d.dst = buf_a;
    d.value = 0x11;
    d.width = 16;
    cgn_node *fill;
    CHECK(cgn_graph_add_memset(graph, NULL, 0, &d, &fill)); /* no dependencies */
    cgn_exec *first;
    CHECK(cgn_graph_instantiate(graph, &first));
    /* [/guide:build] */
    run(first, 0x11, 0);

    /* [guide:owner] */
    cgn_owner *b_owner; /* holds one reference: ours */
    CHECK(cgn_owner_create((void *)(uintptr_t)buf_b, free_buffer, &b_owner));
    /* [/guide:owner] */

    /* [guide:node-update] */
    cgn_memset_update u = CGN_MEMSET_UPDATE_INIT;  /* nothing set */
    cgn_memset_update_set_dst(&u, buf_b, b_owner); /* dst and its owner go together */
    cgn_memset_update_set_value(&u, 0x22, 1);      /* value and element_size go together */
    CHECK(cgn_memset_node_update(fill, &u));       /* width stays 16 */
    CHECK(cgn_owner_release(b_owner));             /* the graph holds B now */
    cgn_exec *second;
    CHECK(cgn_graph_instantiate(graph, &second));
    /* [/guide:node-update] */
    run(first, 0x11, 0); /* made before the update: still fills A with 0x11 */
    run(second, 0, 0x22);

    /* [guide:exec-update] */
    cgn_memset_update v = CGN_MEMSET_UPDATE_INIT;
    cgn_memset_update_set_value(&v, 0x33, 1);
    CHECK(cgn_memset_exec_update(first, fill, &v)); /* dst stays what `first` has: A */
    cgn_memset_desc in_first, in_graph;
    CHECK(cgn_memset_exec_get(first, fill, &in_first)); /* A, 0x33 */
    CHECK(cgn_memset_node_get(fill, &in_graph));        /* B, 0x22: the definition is as it was */
    /* [/guide:exec-update] */
    EXPECT(in_first.dst == buf_a && in_first.value == 0x33);
    EXPECT(in_graph.dst == buf_b && in_graph.value == 0x22);
    run(first, 0x33, 0);
    run(second, 0, 0x22);

    /* [guide:errors] */
    cgn_memset_update bad = CGN_MEMSET_UPDATE_INIT;
    cgn_memset_update_set_value(&bad, 0x1234, 1); /* does not fit one byte */
    cgn_status st = cgn_memset_node_update(fill, &bad);
    if (st != CGN_OK)
        printf("refused: %s: %s\n", cgn_status_name(st), cgn_last_error());
    /* [/guide:errors] */
    EXPECT(st == CGN_ERROR_OUT_OF_RANGE);
    CHECK(cgn_memset_node_get(fill, &in_graph));
    EXPECT(in_graph.value == 0x22); /* all or nothing: unchanged */

    /* [guide:exec-rule] */
    cgn_memset_update taller = CGN_MEMSET_UPDATE_INIT;
    cgn_memset_update_set_height(&taller, 2);
    cgn_memset_update_set_pitch(&taller, 16);
    st = cgn_memset_exec_update(first, fill, &taller); /* a 1-D memset stays 1-D in an exec */
    if (st != CGN_OK)
        printf("refused: %s: %s\n", cgn_status_name(st), cgn_last_error());
    /* [/guide:exec-rule] */
    EXPECT(st == CGN_ERROR_INVALID_VALUE);
    run(first, 0x33, 0);

    /* [guide:enable] */
    CHECK(cgn_exec_node_set_enabled(first, fill, 0)); /* does nothing when launched */
    int enabled = 1;
    CHECK(cgn_exec_node_get_enabled(first, fill, &enabled)); /* 0 */
    /* [/guide:enable] */
    EXPECT(enabled == 0);
    run(first, 0, 0);
    CHECK(cgn_exec_node_set_enabled(first, fill, 1));
    run(first, 0x33, 0);

    /* [guide:refresh] */
    CHECK(cgn_exec_update_from_graph(first, graph)); /* `first` now fills B with 0x22 */
    /* [/guide:refresh] */
    run(first, 0, 0x22);
    EXPECT(b_released == 0); /* the graph and both executables still hold B */

    /* [guide:teardown] */
    CHECK(cgn_exec_destroy(first));
    CHECK(cgn_exec_destroy(second));
    CHECK(cgn_graph_destroy(graph));
    example_collect_until(&b_released, 1); /* cgn_collect() until free_buffer has run */
    /* [/guide:teardown] */

    CGN_CUDA_CHECK(cu.cuMemFree(buf_a));
    CGN_CUDA_CHECK(cu.cuStreamDestroy(stream));
    cgn_cuda_close(&cu);
    printf("example_memset: every check passed\n");
    return 0;
}
