/* Kernel node: add one with its arguments given by value, an update loop that changes one
 * executable's arguments between launches, and a definition update that switches the kernel.
 * Owners keep the output buffer and the kernel's library alive; their release callbacks free
 * and unload them once nothing needs them. Every launch is checked by reading the buffer back.
 * docs/guide.md shows the regions between [guide:...] markers. */
#include <stdint.h>

#include "example.h"

static int out_released, lib_released;

static void free_buffer(void *resource) {
    CGN_CUDA_CHECK(cu.cuMemFree((CUdeviceptr)(uintptr_t)resource));
    out_released++;
}

static void unload_library(void *resource) {
    CGN_CUDA_CHECK(cu.cuLibraryUnload((CUlibrary)resource));
    lib_released++;
}

static unsigned launch_and_read(cgn_exec *exec, CUstream stream, CUdeviceptr out) {
    unsigned got = 0;
    CHECK(cgn_exec_launch(exec, stream));
    CGN_CUDA_CHECK(cu.cuStreamSynchronize(stream));
    CGN_CUDA_CHECK(cu.cuMemcpyDtoH(&got, out, sizeof got));
    return got;
}

int main(void) {
    int rc = example_open("example_kernel", 1);
    if (rc != 0)
        return rc;
    CUstream stream;
    CGN_CUDA_CHECK(cu.cuStreamCreate(&stream, CU_STREAM_DEFAULT));

    /* [guide:kernel-add] */
    CUlibrary lib; /* fill_u32(unsigned *out, unsigned value), add_one(int *p) */
    CUkernel fill_u32, add_one;
    CGN_CUDA_CHECK(
        cu.cuLibraryLoadData(&lib, cgn_test_kernels_fatbin, NULL, NULL, 0, NULL, NULL, 0));
    CGN_CUDA_CHECK(cu.cuLibraryGetKernel(&fill_u32, lib, "fill_u32"));
    CGN_CUDA_CHECK(cu.cuLibraryGetKernel(&add_one, lib, "add_one"));
    CUdeviceptr out;
    CGN_CUDA_CHECK(cu.cuMemAlloc(&out, sizeof(unsigned)));
    cgn_owner *lib_owner, *out_owner;
    CHECK(cgn_owner_create(lib, unload_library, &lib_owner));
    CHECK(cgn_owner_create((void *)(uintptr_t)out, free_buffer, &out_owner));

    cgn_graph *graph;
    CHECK(cgn_graph_create(&graph));
    unsigned seven = 7;
    cgn_arg args[2] = {CGN_ARG_OWNED(out, out_owner), CGN_ARG(seven)}; /* values are copied */
    cgn_kernel_desc d = CGN_KERNEL_DESC_INIT;
    d.kernel = CGN_KERNEL(fill_u32);
    d.kernel_owner = lib_owner; /* the library stays loaded while a version may run it */
    d.grid = CGN_DIM3(1, 1, 1);
    d.block = CGN_DIM3(32, 1, 1);
    d.args = args;
    d.num_args = 2;
    cgn_node *node;
    CHECK(cgn_graph_add_kernel(graph, NULL, 0, &d, &node)); /* in the current context */
    cgn_exec *exec;
    CHECK(cgn_graph_instantiate(graph, &exec));
    /* [/guide:kernel-add] */
    EXPECT(launch_and_read(exec, stream, out) == 7);

    /* [guide:update-loop] */
    for (unsigned step = 1; step <= 5; step++) {
        cgn_arg step_args[2] = {CGN_ARG_OWNED(out, out_owner), CGN_ARG(step)};
        cgn_kernel_update u = CGN_KERNEL_UPDATE_INIT;
        cgn_kernel_update_set_args(&u, step_args, 2);  /* kernel, grid, block: what exec has */
        CHECK(cgn_kernel_exec_update(exec, node, &u)); /* same owners: no new attachment */
        CHECK(cgn_exec_launch(exec, stream));
        CGN_CUDA_CHECK(cu.cuStreamSynchronize(stream)); /* only to read the result back */
        unsigned got = 0;
        CGN_CUDA_CHECK(cu.cuMemcpyDtoH(&got, out, sizeof got));
        EXPECT(got == step);
    }
    /* [/guide:update-loop] */

    /* [guide:kernel-switch] */
    cgn_arg one_arg[1] = {CGN_ARG_OWNED(out, out_owner)};
    cgn_kernel_update k = CGN_KERNEL_UPDATE_INIT;
    cgn_kernel_update_set_kernel(&k, CGN_KERNEL(add_one), lib_owner, one_arg, 1); /* + args */
    cgn_kernel_update_set_grid(&k, CGN_DIM3(2, 1, 1)); /* add_one writes from block 0 only */
    CHECK(cgn_kernel_node_update(node, &k));           /* the definition: later instantiations */
    cgn_exec *adder;
    CHECK(cgn_graph_instantiate(graph, &adder));
    /* [/guide:kernel-switch] */
    EXPECT(launch_and_read(adder, stream, out) == 6); /* the loop left 5 in out */
    EXPECT(launch_and_read(adder, stream, out) == 7);
    EXPECT(launch_and_read(exec, stream, out) == 5); /* exec kept its own copy: fill_u32(out, 5) */
    cgn_kernel_desc in_exec, in_graph;
    CHECK(cgn_kernel_exec_get(exec, node, &in_exec));
    CHECK(cgn_kernel_node_get(node, &in_graph));
    EXPECT(in_exec.kernel.kernel == fill_u32 && in_exec.grid.x == 1 && in_exec.num_args == 2);
    EXPECT(in_graph.kernel.kernel == add_one && in_graph.grid.x == 2 && in_graph.num_args == 1);

    /* Our references go; the graph and the executables keep both owners alive. */
    CHECK(cgn_owner_release(out_owner));
    CHECK(cgn_owner_release(lib_owner));
    EXPECT(launch_and_read(adder, stream, out) == 6);
    CHECK(cgn_exec_destroy(exec));
    CHECK(cgn_exec_destroy(adder));
    CHECK(cgn_graph_destroy(graph));
    example_collect_until(&out_released, 1);
    example_collect_until(&lib_released, 1);

    CGN_CUDA_CHECK(cu.cuStreamDestroy(stream));
    cgn_cuda_close(&cu);
    printf("example_kernel: every check passed\n");
    return 0;
}
