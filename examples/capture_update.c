/* cgn example: update a stream-captured graph safely, the pattern llama.cpp issue #12152 does by
 * writing into the driver's kernelParams block.
 *
 * A decode step is captured once from a stream: copy this step's token to the device, clear
 * the output, append the token to a KV cache at the step's position (kv_append, a pointer
 * argument), and sum the cache up to the step's length (kv_sum, a scalar argument). cgn adopts
 * the captured graph, finds the two kernel nodes by kernel, instantiates it, and then, for
 * each step, changes one argument of each kernel in the executable and launches it.
 *
 * Without a GPU it says that it built and what is missing, and exits 0 (77 with
 * --require-gpu, as the GPU suite runs it). */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cgn/cgn.h"
#include "cgn_cuda.h"

extern const unsigned char cgn_test_kernels_fatbin[];
extern const size_t cgn_test_kernels_fatbin_size;

#define DIM 4u   /* floats per token */
#define STEPS 8u /* decode steps: the cache holds one token per step */

static cgn_cuda cu;

/* The capture calls this example makes besides those in cgn_cuda.h. */
static struct {
    PFN_cuStreamBeginCapture_v10010 cuStreamBeginCapture;
    PFN_cuStreamEndCapture_v10000 cuStreamEndCapture;
    PFN_cuMemcpyHtoDAsync_v3020 cuMemcpyHtoDAsync;
    PFN_cuMemsetD32Async_v3020 cuMemsetD32Async;
} cap;

#define CHECK(call)                                                                                \
    do {                                                                                           \
        if ((call) != CGN_OK) {                                                                    \
            fprintf(stderr, "%s failed: %s\n", #call, cgn_last_error());                           \
            exit(1);                                                                               \
        }                                                                                          \
    } while (0)

static cgn_status resolve(void *slot, const char *name, int version) {
    void *pfn = NULL;
    cgn_status st = cgn_driver_proc(name, version, &pfn);
    memcpy(slot, &pfn, sizeof pfn);
    return st;
}

/* The node launching `f` (the handle the capture launched), or failing that CUkernel k. */
static cgn_node *find_kernel(cgn_graph *g, CUfunction f, CUkernel k, const char *name) {
    cgn_node *node = NULL;
    size_t count = 1;
    CHECK(cgn_graph_find_kernel(g, CGN_FUNCTION(f), &node, &count));
    if (count == 0) {
        count = 1;
        CHECK(cgn_graph_find_kernel(g, CGN_KERNEL(k), &node, &count));
    }
    if (count != 1) {
        fprintf(stderr, "expected one node launching %s in the captured graph, found %zu\n", name,
                count);
        exit(1);
    }
    return node;
}

int main(int argc, char **argv) {
    int require_gpu = argc > 1 && strcmp(argv[1], "--require-gpu") == 0;
    printf("cgn capture_update: the example built successfully.\n");
    cgn_status st = cgn_cuda_open(&cu);
    if (st == CGN_OK)
        st = resolve(&cap.cuStreamBeginCapture, "cuStreamBeginCapture", 10010);
    if (st == CGN_OK)
        st = resolve(&cap.cuStreamEndCapture, "cuStreamEndCapture", 10000);
    if (st == CGN_OK)
        st = resolve(&cap.cuMemcpyHtoDAsync, "cuMemcpyHtoDAsync", 3020);
    if (st == CGN_OK)
        st = resolve(&cap.cuMemsetD32Async, "cuMemsetD32Async", 3020);
    if (st != CGN_OK) {
        printf("Cannot run it on this machine: %s (%s).\n"
               "It needs an NVIDIA GPU with its driver (libcuda.so.1, 12.4 or newer for "
               "argument-level updates).\n",
               cgn_last_error(), cgn_status_name(st));
        return require_gpu ? 77 : 0;
    }
    if (cgn_test_kernels_fatbin_size == 0) {
        printf("Cannot run it: it was built without nvcc, so its kernels are missing.\n");
        return require_gpu ? 77 : 0;
    }
    int version = 0;
    CHECK(cgn_driver_version(&version));
    if (version < 12040) {
        printf("Cannot run it: argument-level updates need driver 12.4 or newer; this one is "
               "%d.%d.\n",
               version / 1000, (version % 1000) / 10);
        return require_gpu ? 77 : 0;
    }

    CUlibrary lib;
    CUkernel append_k, sum_k;
    CUfunction append_f, sum_f;
    CGN_CUDA_CHECK(
        cu.cuLibraryLoadData(&lib, cgn_test_kernels_fatbin, NULL, NULL, 0, NULL, NULL, 0));
    CGN_CUDA_CHECK(cu.cuLibraryGetKernel(&append_k, lib, "kv_append"));
    CGN_CUDA_CHECK(cu.cuLibraryGetKernel(&sum_k, lib, "kv_sum"));
    CGN_CUDA_CHECK(cu.cuKernelGetFunction(&append_f, append_k));
    CGN_CUDA_CHECK(cu.cuKernelGetFunction(&sum_f, sum_k));
    CUstream stream;
    CUdeviceptr cache, token, out;
    float *host_token;
    CGN_CUDA_CHECK(cu.cuStreamCreate(&stream, CU_STREAM_NON_BLOCKING));
    CGN_CUDA_CHECK(cu.cuMemAlloc(&cache, STEPS * DIM * sizeof(float)));
    CGN_CUDA_CHECK(cu.cuMemAlloc(&token, DIM * sizeof(float)));
    CGN_CUDA_CHECK(cu.cuMemAlloc(&out, sizeof(float)));
    CGN_CUDA_CHECK(cu.cuMemAllocHost((void **)&host_token, DIM * sizeof(float)));

    /* [guide:capture] */
    /* Capture one decode step, as it would run for position 0. */
    CUgraph captured;
    CGN_CUDA_CHECK(cap.cuStreamBeginCapture(stream, CU_STREAM_CAPTURE_MODE_RELAXED));
    CGN_CUDA_CHECK(cap.cuMemcpyHtoDAsync(token, host_token, DIM * sizeof(float), stream));
    CGN_CUDA_CHECK(cap.cuMemsetD32Async(out, 0, 1, stream));
    CUdeviceptr slot = cache; /* position 0 */
    unsigned dim = DIM, len = 1;
    void *append_args[] = {&slot, &token, &dim};
    CGN_CUDA_CHECK(cu.cuLaunchKernel(append_f, 1, 1, 1, 1, 1, 1, 0, stream, append_args, NULL));
    void *sum_args[] = {&cache, &len, &dim, &out};
    CGN_CUDA_CHECK(cu.cuLaunchKernel(sum_f, 1, 1, 1, 1, 1, 1, 0, stream, sum_args, NULL));
    CGN_CUDA_CHECK(cap.cuStreamEndCapture(stream, &captured));
    /* [/guide:capture] */

    /* [guide:adopt] */
    /* Adopt it (cgn destroys the raw graph with its own) and find the two kernels. */
    cgn_graph *graph;
    CHECK(cgn_graph_adopt(captured, CGN_ADOPT_TAKE_OWNERSHIP, &graph));
    size_t num_nodes = 0;
    CHECK(cgn_graph_nodes(graph, NULL, &num_nodes));
    cgn_node *append = find_kernel(graph, append_f, append_k, "kv_append");
    cgn_node *sum = find_kernel(graph, sum_f, sum_k, "kv_sum");
    cgn_exec *exec;
    CHECK(cgn_graph_instantiate(graph, &exec));
    /* [/guide:adopt] */
    printf("Captured and adopted a decode step of %zu nodes; found kv_append and kv_sum.\n",
           num_nodes);

    int ok = 1;
    for (unsigned step = 0; step < STEPS; step++) {
        for (unsigned i = 0; i < DIM; i++)
            host_token[i] = (float)(step + 1); /* the graph copies it in (the memcpy node) */
        /* [guide:step] */
        /* Point kv_append at this step's slot and give kv_sum the new length: one argument
         * each, the others kept, one call each; cgn copies the argument bytes into its own
         * storage, never into the driver's. */
        CUdeviceptr step_slot = cache + (CUdeviceptr)step * DIM * sizeof(float);
        unsigned step_len = step + 1;
        CHECK(cgn_kernel_exec_set_arg(exec, append, 0, &step_slot, sizeof step_slot, NULL));
        CHECK(cgn_kernel_exec_set_arg(exec, sum, 1, &step_len, sizeof step_len, NULL));
        CHECK(cgn_exec_launch(exec, stream));
        /* [/guide:step] */
        CGN_CUDA_CHECK(cu.cuStreamSynchronize(stream));
        float got = 0.0f;
        CGN_CUDA_CHECK(cu.cuMemcpyDtoH(&got, out, sizeof got));
        float want = (float)(DIM * step_len * (step_len + 1) / 2);
        printf("  step %u: kv_append(cache + %u*%u floats), kv_sum(len = %u) -> %g (expected "
               "%g)\n",
               step, step, DIM, step_len, (double)got, (double)want);
        ok = ok && got == want;
    }
    printf("%s\n", ok ? "Every step ran with its own position and length."
                      : "MISMATCH: a step did not compute what it should have.");

    CHECK(cgn_exec_destroy(exec));
    CHECK(cgn_graph_destroy(graph));
    cgn_collect();
    CGN_CUDA_CHECK(cu.cuStreamDestroy(stream));
    CGN_CUDA_CHECK(cu.cuMemFreeHost(host_token));
    CGN_CUDA_CHECK(cu.cuMemFree(out));
    CGN_CUDA_CHECK(cu.cuMemFree(token));
    CGN_CUDA_CHECK(cu.cuMemFree(cache));
    CGN_CUDA_CHECK(cu.cuLibraryUnload(lib));
    cgn_cuda_close(&cu);
    return ok ? 0 : 1;
}
