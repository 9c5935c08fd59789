/* A CUDA context without linking libcuda: cgn loads the driver at run time, and
 * cgn_driver_proc resolves the few entry points an application calls itself (here: device 0's
 * primary context, made current). Then a graph with one empty node is built, instantiated and
 * launched. Exits 77 where there is no GPU. examples/cgn_cuda.h does the same for the other
 * examples, with more entry points. */
#include <stdio.h>
#include <string.h>

#include <cudaTypedefs.h> /* PFN_<entry point>_v<version>: the driver's function types */

#include "cgn/cgn.h"

/* [guide:resolve] */
/* Resolves `symbol` at the ABI version its PFN typedef names; 0 when the driver lacks it. */
static int resolve(const char *symbol, int version, void *fn_out, size_t fn_size) {
    void *pfn = NULL;
    if (cgn_driver_proc(symbol, version, &pfn) != CGN_OK) {
        printf("%s\n", cgn_last_error());
        return 0;
    }
    memcpy(fn_out, &pfn, fn_size); /* ISO C has no cast from void * to a function pointer */
    return 1;
}
/* [/guide:resolve] */

int main(void) {
    /* [guide:context] */
    cgn_status st = cgn_init(); /* dlopen("libcuda.so.1") and cuInit(0), once per process */
    if (st != CGN_OK) {
        printf("no CUDA here: %s: %s\n", cgn_status_name(st), cgn_last_error());
        return 77;
    }
    PFN_cuDeviceGet_v2000 device_get;
    PFN_cuDevicePrimaryCtxRetain_v7000 primary_retain;
    PFN_cuDevicePrimaryCtxRelease_v11000 primary_release;
    PFN_cuCtxSetCurrent_v4000 set_current;
    if (!resolve("cuDeviceGet", 2000, &device_get, sizeof device_get) ||
        !resolve("cuDevicePrimaryCtxRetain", 7000, &primary_retain, sizeof primary_retain) ||
        !resolve("cuDevicePrimaryCtxRelease", 11000, &primary_release, sizeof primary_release) ||
        !resolve("cuCtxSetCurrent", 4000, &set_current, sizeof set_current))
        return 1;
    CUdevice device;
    CUcontext context;
    if (device_get(&device, 0) != CUDA_SUCCESS ||
        primary_retain(&context, device) != CUDA_SUCCESS || set_current(context) != CUDA_SUCCESS) {
        printf("no usable device 0\n");
        return 77;
    }
    /* [/guide:context] */
    int version = 0;
    if (cgn_driver_version(&version) != CGN_OK)
        return 1;
    printf("driver %d.%d; device 0's primary context is current\n", version / 1000,
           (version % 1000) / 10);

    cgn_graph *graph;
    cgn_node *node;
    cgn_exec *exec;
    if (cgn_graph_create(&graph) != CGN_OK ||
        cgn_graph_add_empty(graph, NULL, 0, &node) != CGN_OK ||
        cgn_graph_instantiate(graph, &exec) != CGN_OK || cgn_exec_launch(exec, NULL) != CGN_OK ||
        cgn_exec_destroy(exec) != CGN_OK || cgn_graph_destroy(graph) != CGN_OK) {
        printf("%s: %s\n", cgn_status_name(cgn_last_status()), cgn_last_error());
        return 1;
    }
    PFN_cuCtxSynchronize_v2000 synchronize;
    if (!resolve("cuCtxSynchronize", 2000, &synchronize, sizeof synchronize) ||
        synchronize() != CUDA_SUCCESS)
        return 1;
    cgn_collect(); /* releases what the executable held, now that its launch has completed */
    set_current(NULL);
    primary_release(device);
    printf("example_context: built, instantiated and launched a graph\n");
    return 0;
}
