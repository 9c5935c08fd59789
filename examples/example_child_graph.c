/* Child graph node: embed a copy of a graph, update a node inside the embedded copy, replace
 * the embedded graph in the definition and in an executable made before, and see a source of
 * the node's own hierarchy refused. An owner keeps the second
 * source's buffer alive through the copies after the source graph itself is destroyed.
 * Checked by reading the buffers back. */
#include <stdint.h>

#include "example.h"

static CUstream stream;
static CUdeviceptr buf_a, buf_b; /* 8 bytes each */
static int b_released;

static void free_buffer(void *resource) {
    CGN_CUDA_CHECK(cu.cuMemFree((CUdeviceptr)(uintptr_t)resource));
    b_released++;
}

/* A graph with one memset of `value` into `dst` (with `owner`, may be NULL). */
static cgn_graph *fill_graph(CUdeviceptr dst, cgn_owner *owner, uint32_t value, cgn_node **fill) {
    cgn_graph *g;
    CHECK(cgn_graph_create(&g));
    cgn_memset_desc d = CGN_MEMSET_DESC_INIT;
    d.dst = dst;
    d.dst_owner = owner;
    d.value = value;
    d.width = 8;
    CHECK(cgn_graph_add_memset(g, NULL, 0, &d, fill));
    return g;
}

static void run(cgn_exec *exec, unsigned char want_a, unsigned char want_b) {
    unsigned char a[8], b[8];
    CGN_CUDA_CHECK(cu.cuMemsetD8(buf_a, 0, 8));
    CGN_CUDA_CHECK(cu.cuMemsetD8(buf_b, 0, 8));
    CHECK(cgn_exec_launch(exec, stream));
    CGN_CUDA_CHECK(cu.cuStreamSynchronize(stream));
    CGN_CUDA_CHECK(cu.cuMemcpyDtoH(a, buf_a, 8));
    CGN_CUDA_CHECK(cu.cuMemcpyDtoH(b, buf_b, 8));
    for (int i = 0; i < 8; i++) {
        EXPECT(a[i] == want_a);
        EXPECT(b[i] == want_b);
    }
}

int main(void) {
    int rc = example_open("example_child_graph", 0);
    if (rc != 0)
        return rc;
    CGN_CUDA_CHECK(cu.cuStreamCreate(&stream, CU_STREAM_DEFAULT));
    CGN_CUDA_CHECK(cu.cuMemAlloc(&buf_a, 8));
    CGN_CUDA_CHECK(cu.cuMemAlloc(&buf_b, 8));
    cgn_owner *b_owner;
    CHECK(cgn_owner_create((void *)(uintptr_t)buf_b, free_buffer, &b_owner));
    cgn_node *fill_a, *fill_b;
    cgn_graph *source_a = fill_graph(buf_a, NULL, 0x11, &fill_a);
    cgn_graph *source_b = fill_graph(buf_b, b_owner, 0x22, &fill_b);
    CHECK(cgn_owner_release(b_owner)); /* source_b holds it */

    /* [guide:child-add] */
    cgn_graph *parent;
    CHECK(cgn_graph_create(&parent));
    cgn_child_graph_desc d = CGN_CHILD_GRAPH_DESC_INIT;
    d.graph = source_a; /* CUDA embeds a copy; source_a stays as it is */
    cgn_node *child;
    CHECK(cgn_graph_add_child_graph(parent, NULL, 0, &d, &child));
    cgn_node *inner; /* the copy of fill_a inside the embedding */
    CHECK(cgn_child_graph_node_find(child, fill_a, &inner));
    cgn_memset_update u = CGN_MEMSET_UPDATE_INIT;
    cgn_memset_update_set_value(&u, 0x33, 1);
    CHECK(cgn_memset_node_update(inner, &u)); /* this embedding only, not source_a */
    cgn_exec *exec;
    CHECK(cgn_graph_instantiate(parent, &exec));
    /* [/guide:child-add] */
    run(exec, 0x33, 0);
    cgn_exec *plain;
    CHECK(cgn_graph_instantiate(source_a, &plain));
    run(plain, 0x11, 0); /* the source is unchanged */
    CHECK(cgn_exec_destroy(plain));

    /* [guide:child-replace] */
    cgn_child_graph_update r = CGN_CHILD_GRAPH_UPDATE_INIT;
    cgn_child_graph_update_set_graph(&r, source_b);
    CHECK(cgn_child_graph_node_update(child, &r)); /* the definition embeds a copy of source_b */
    EXPECT(!cgn_node_is_alive(inner));             /* handles into the old copy are stale */
    cgn_exec *replaced;
    CHECK(cgn_graph_instantiate(parent, &replaced));
    /* [/guide:child-replace] */
    run(replaced, 0, 0x22);
    run(exec, 0x33, 0); /* made before the replacement */

    /* An executable's child keeps its topology (here: one memset), so it may be replaced too. */
    CHECK(cgn_child_graph_exec_update(exec, child, &r));
    run(exec, 0, 0x22);

    /* The node's own hierarchy is refused before anything changes. */
    cgn_graph *embedded;
    CHECK(cgn_child_graph_node_embedded(child, &embedded));
    cgn_child_graph_update loop = CGN_CHILD_GRAPH_UPDATE_INIT;
    cgn_child_graph_update_set_graph(&loop, embedded);
    EXPECT(cgn_child_graph_node_update(child, &loop) == CGN_ERROR_SAME_HIERARCHY);
    printf("refused as expected: %s\n", cgn_last_error());

    /* The copies keep buffer B's owner: destroying source_b releases nothing yet. */
    CHECK(cgn_graph_destroy(source_b));
    CHECK(cgn_graph_destroy(source_a));
    cgn_collect();
    EXPECT(b_released == 0);
    run(replaced, 0, 0x22);
    CHECK(cgn_exec_destroy(exec));
    CHECK(cgn_exec_destroy(replaced));
    CHECK(cgn_graph_destroy(parent));
    example_collect_until(&b_released, 1);

    CGN_CUDA_CHECK(cu.cuMemFree(buf_a));
    CGN_CUDA_CHECK(cu.cuStreamDestroy(stream));
    cgn_cuda_close(&cu);
    printf("example_child_graph: every check passed\n");
    return 0;
}
