/* cgn demo: build a graph with a kernel node and a memset node, instantiate it, update both
 * nodes, instantiate again, and run both executables: the old one still does the old work.
 * Without a GPU it says that the build worked and what is missing. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "cgn/cgn.h"
#include "cgn_cuda.h"

extern const unsigned char cgn_test_kernels_fatbin[];
extern const size_t cgn_test_kernels_fatbin_size;

static cgn_cuda cu;

#define CHECK(call)                                                                                \
    do {                                                                                           \
        if ((call) != CGN_OK) {                                                                    \
            fprintf(stderr, "%s failed: %s\n", #call, cgn_last_error());                          \
            exit(1);                                                                               \
        }                                                                                          \
    } while (0)

/* Owner release callback: runs on this thread once no graph or executable needs the buffer. */
static void free_device_buffer(void *resource) {
    CUdeviceptr p = (CUdeviceptr)(uintptr_t)resource;
    cu.cuMemFree(p);
    printf("  owner released: device buffer 0x%llx freed after its last user\n",
           (unsigned long long)p);
}

static void run_and_print(const char *label, cgn_exec *exec, CUstream stream, CUdeviceptr out,
                          CUdeviceptr fill_a, CUdeviceptr fill_b, unsigned *value,
                          unsigned char *a, unsigned char *b) {
    CGN_CUDA_CHECK(cu.cuMemsetD8(out, 0, 4));
    CGN_CUDA_CHECK(cu.cuMemsetD8(fill_a, 0, 8));
    CGN_CUDA_CHECK(cu.cuMemsetD8(fill_b, 0, 8));
    CHECK(cgn_exec_launch(exec, stream));
    CGN_CUDA_CHECK(cu.cuStreamSynchronize(stream));
    CGN_CUDA_CHECK(cu.cuMemcpyDtoH(value, out, 4));
    CGN_CUDA_CHECK(cu.cuMemcpyDtoH(a, fill_a, 8));
    CGN_CUDA_CHECK(cu.cuMemcpyDtoH(b, fill_b, 8));
    printf("  %s: kernel wrote %u; memset wrote buffer A = %02x.., buffer B = %02x..\n", label,
           *value, a[0], b[0]);
}

int main(int argc, char **argv) {
    int require_gpu = argc > 1 && strcmp(argv[1], "--require-gpu") == 0;
    printf("cgn demo: the library and this demo built successfully.\n");
    cgn_status st = cgn_cuda_open(&cu);
    if (st != CGN_OK) {
        printf("Cannot run the demo on this machine: %s (%s).\n"
               "It needs an NVIDIA GPU with its driver (libcuda.so.1, 12.2 or newer for "
               "updates).\n",
               cgn_last_error(), cgn_status_name(st));
        return require_gpu ? 77 : 0;
    }
    if (cgn_test_kernels_fatbin_size == 0) {
        printf("Cannot run the demo: it was built without nvcc, so its kernels are missing.\n");
        return require_gpu ? 77 : 0;
    }
    char name[128] = "";
    cu.cuDeviceGetName(name, sizeof name, cu.device);
    int version = 0;
    CHECK(cgn_driver_version(&version));
    printf("Device: %s, driver %d.%d\n", name, version / 1000, (version % 1000) / 10);

    CUlibrary lib;
    CUkernel fill_u32;
    CUstream stream;
    CUdeviceptr out, buf_a, buf_b;
    CGN_CUDA_CHECK(cu.cuLibraryLoadData(&lib, cgn_test_kernels_fatbin, NULL, NULL, 0, NULL, NULL, 0));
    CGN_CUDA_CHECK(cu.cuLibraryGetKernel(&fill_u32, lib, "fill_u32"));
    CGN_CUDA_CHECK(cu.cuStreamCreate(&stream, CU_STREAM_NON_BLOCKING));
    CGN_CUDA_CHECK(cu.cuMemAlloc(&out, 4));
    CGN_CUDA_CHECK(cu.cuMemAlloc(&buf_a, 8));
    CGN_CUDA_CHECK(cu.cuMemAlloc(&buf_b, 8));
    cgn_owner *b_owner;
    CHECK(cgn_owner_create((void *)(uintptr_t)buf_b, free_device_buffer, &b_owner));

    /* kernel fill_u32(out, 7) -> memset(buf_a, 0x11, 8) */
    cgn_graph *graph;
    cgn_node *kernel, *fill;
    CHECK(cgn_graph_create(&graph));
    unsigned seven = 7;
    cgn_arg args[2] = {CGN_ARG(out), CGN_ARG(seven)};
    cgn_kernel_desc kd = CGN_KERNEL_DESC_INIT;
    kd.kernel = CGN_KERNEL(fill_u32);
    kd.grid = CGN_DIM3(1, 1, 1);
    kd.block = CGN_DIM3(32, 1, 1);
    kd.args = args;
    kd.num_args = 2;
    CHECK(cgn_graph_add_kernel(graph, NULL, 0, &kd, &kernel));
    cgn_memset_desc md = CGN_MEMSET_DESC_INIT;
    md.dst = buf_a;
    md.value = 0x11;
    md.element_size = 1;
    md.width = 8;
    CHECK(cgn_graph_add_memset(graph, &kernel, 1, &md, &fill));

    cgn_exec *old_exec, *new_exec;
    CHECK(cgn_graph_instantiate(graph, &old_exec));
    printf("Instantiated the original graph: fill_u32(out, 7) -> memset(A, 0x11).\n");

    /* Update the kernel's scalar argument, and point the memset at buffer B with a new value;
     * B's owner keeps B alive while any graph or executable may write it. */
    unsigned forty_two = 42;
    cgn_arg new_args[2] = {CGN_ARG(out), CGN_ARG(forty_two)};
    cgn_kernel_update ku = CGN_KERNEL_UPDATE_INIT;
    cgn_kernel_update_set_args(&ku, new_args, 2);
    CHECK(cgn_kernel_node_update(kernel, &ku));
    cgn_memset_update mu = CGN_MEMSET_UPDATE_INIT;
    cgn_memset_update_set_dst(&mu, buf_b, b_owner);
    cgn_memset_update_set_value(&mu, 0x22, 1);
    CHECK(cgn_memset_node_update(fill, &mu));
    CHECK(cgn_owner_release(b_owner)); /* the graph holds B now */
    CHECK(cgn_graph_instantiate(graph, &new_exec));
    printf("Updated both nodes: fill_u32(out, 42) -> memset(B, 0x22); instantiated again.\n");

    /* A bad update is refused with a reason and changes nothing. */
    cgn_memset_update bad = CGN_MEMSET_UPDATE_INIT;
    cgn_memset_update_set_value(&bad, 0x1234, 1);
    st = cgn_memset_node_update(fill, &bad);
    printf("A bad update is refused: %s: %s\n", cgn_status_name(st), cgn_last_error());

    unsigned old_value, new_value;
    unsigned char old_a[8], old_b[8], new_a[8], new_b[8];
    run_and_print("old executable", old_exec, stream, out, buf_a, buf_b, &old_value, old_a, old_b);
    run_and_print("new executable", new_exec, stream, out, buf_a, buf_b, &new_value, new_a, new_b);
    int ok = old_value == 7 && old_a[0] == 0x11 && old_a[7] == 0x11 && old_b[0] == 0 &&
             new_value == 42 && new_a[0] == 0 && new_b[0] == 0x22 && new_b[7] == 0x22;
    printf("%s\n", ok ? "The old executable kept the original parameters; the new one runs the "
                        "updated ones."
                      : "MISMATCH: the executables did not write what they should have.");

    CHECK(cgn_exec_destroy(old_exec));
    CHECK(cgn_graph_destroy(graph));
    printf("Destroyed the graph and the old executable; the new executable still holds B.\n");
    cgn_collect();
    CHECK(cgn_exec_destroy(new_exec));
    /* CUDA may run user-object destructors asynchronously: collect until B's owner ran. */
    CGN_CUDA_CHECK(cu.cuStreamSynchronize(stream));
    for (int i = 0; i < 5000 && cgn_collect() == 0; i++) {
        struct timespec ms = {0, 1000000};
        nanosleep(&ms, NULL);
    }
    CGN_CUDA_CHECK(cu.cuStreamDestroy(stream));
    CGN_CUDA_CHECK(cu.cuMemFree(out));
    CGN_CUDA_CHECK(cu.cuMemFree(buf_a));
    CGN_CUDA_CHECK(cu.cuLibraryUnload(lib));
    cgn_cuda_close(&cu);
    return ok ? 0 : 1;
}
