/* Memcpy node: a device-to-device copy whose definition is updated into a device-to-host copy
 * from another source (cgn detects each operand's memory type), an executable-level update of
 * the size alone, an executable-level change the driver's rules forbid, and an owner that frees
 * the second source once no graph or executable copies from it. Checked by reading back. */
#include <stdint.h>
#include <string.h>

#include "example.h"

static CUstream stream;
static CUdeviceptr src1, src2, dst; /* device memory, 16 bytes each */
static unsigned char *host;         /* pinned host memory, 16 bytes */
static int src2_released;

static void free_buffer(void *resource) {
    CGN_CUDA_CHECK(cu.cuMemFree((CUdeviceptr)(uintptr_t)resource));
    src2_released++;
}

/* Zeroes dst and host, launches, and checks that dst holds `dst_bytes` bytes of `dst_value`
 * and host `host_bytes` bytes of `host_value`, zeros after them. */
static void run(cgn_exec *exec, int dst_bytes, unsigned char dst_value, int host_bytes,
                unsigned char host_value) {
    unsigned char got[16];
    CGN_CUDA_CHECK(cu.cuMemsetD8(dst, 0, 16));
    CGN_CUDA_CHECK(cu.cuStreamSynchronize(NULL));
    memset(host, 0, 16);
    CHECK(cgn_exec_launch(exec, stream));
    CGN_CUDA_CHECK(cu.cuStreamSynchronize(stream));
    CGN_CUDA_CHECK(cu.cuMemcpyDtoH(got, dst, 16));
    for (int i = 0; i < 16; i++) {
        EXPECT(got[i] == (i < dst_bytes ? dst_value : 0));
        EXPECT(host[i] == (i < host_bytes ? host_value : 0));
    }
}

int main(void) {
    int rc = example_open("example_memcpy", 0);
    if (rc != 0)
        return rc;
    CGN_CUDA_CHECK(cu.cuStreamCreate(&stream, CU_STREAM_DEFAULT));
    CGN_CUDA_CHECK(cu.cuMemAlloc(&src1, 16));
    CGN_CUDA_CHECK(cu.cuMemAlloc(&src2, 16));
    CGN_CUDA_CHECK(cu.cuMemAlloc(&dst, 16));
    void *pinned;
    CGN_CUDA_CHECK(cu.cuMemAllocHost(&pinned, 16));
    host = pinned;
    CGN_CUDA_CHECK(cu.cuMemsetD8(src1, 0x5a, 16));
    CGN_CUDA_CHECK(cu.cuMemsetD8(src2, 0xa5, 16));

    /* [guide:memcpy-add] */
    cgn_graph *graph;
    CHECK(cgn_graph_create(&graph));
    cgn_memcpy_desc d = CGN_MEMCPY_DESC_INIT;
    d.dst = dst;
    d.src = src1;
    d.size = 8;
    cgn_node *copy;
    CHECK(cgn_graph_add_memcpy(graph, NULL, 0, &d, &copy)); /* device to device */
    cgn_exec *exec;
    CHECK(cgn_graph_instantiate(graph, &exec));
    /* [/guide:memcpy-add] */
    run(exec, 8, 0x5a, 0, 0);

    /* [guide:memcpy-node-update] */
    cgn_owner *src2_owner;
    CHECK(cgn_owner_create((void *)(uintptr_t)src2, free_buffer, &src2_owner));
    cgn_memcpy_update u = CGN_MEMCPY_UPDATE_INIT;
    cgn_memcpy_update_set_src(&u, src2, src2_owner);
    cgn_memcpy_update_set_dst(&u, (CUdeviceptr)(uintptr_t)host, NULL); /* pinned host memory */
    cgn_memcpy_update_set_size(&u, 16);
    CHECK(cgn_memcpy_node_update(copy, &u)); /* now device to host */
    CHECK(cgn_owner_release(src2_owner));    /* the graph holds src2 now */
    cgn_memcpy_desc now;
    CHECK(cgn_memcpy_node_get(copy, &now)); /* dst_memory_type: CU_MEMORYTYPE_HOST */
    cgn_exec *to_host;
    CHECK(cgn_graph_instantiate(graph, &to_host));
    /* [/guide:memcpy-node-update] */
    EXPECT(now.dst_memory_type == CU_MEMORYTYPE_HOST &&
           now.src_memory_type == CU_MEMORYTYPE_DEVICE);
    run(to_host, 0, 0, 16, 0xa5);
    run(exec, 8, 0x5a, 0, 0); /* made before the update */

    /* [guide:memcpy-exec-update] */
    cgn_memcpy_update longer = CGN_MEMCPY_UPDATE_INIT;
    cgn_memcpy_update_set_size(&longer, 16);
    CHECK(cgn_memcpy_exec_update(exec, copy, &longer)); /* still src1 to dst, in `exec` */
    cgn_memcpy_update elsewhere = CGN_MEMCPY_UPDATE_INIT;
    cgn_memcpy_update_set_dst(&elsewhere, (CUdeviceptr)(uintptr_t)host, NULL);
    cgn_status st = cgn_memcpy_exec_update(exec, copy, &elsewhere); /* device -> host: refused */
    /* [/guide:memcpy-exec-update] */
    EXPECT(st == CGN_ERROR_INVALID_VALUE);
    printf("refused as expected: %s\n", cgn_last_error());
    run(exec, 16, 0x5a, 0, 0);
    run(to_host, 0, 0, 16, 0xa5);

    CHECK(cgn_exec_destroy(exec));
    CHECK(cgn_exec_destroy(to_host));
    EXPECT(src2_released == 0); /* the graph still copies from src2 */
    CHECK(cgn_graph_destroy(graph));
    example_collect_until(&src2_released, 1);

    CGN_CUDA_CHECK(cu.cuMemFree(src1));
    CGN_CUDA_CHECK(cu.cuMemFree(dst));
    CGN_CUDA_CHECK(cu.cuMemFreeHost(pinned));
    CGN_CUDA_CHECK(cu.cuStreamDestroy(stream));
    cgn_cuda_close(&cu);
    printf("example_memcpy: every check passed\n");
    return 0;
}
