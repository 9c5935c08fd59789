/* Host time of cuGraphLaunch for an executable with and without a CUDA user object, and of
 * cgn_exec_launch: does holding a user object make every launch slower? */
#include <stdio.h>
#include <time.h>

#include "cgn/cgn.h"
#include "cgn_cuda.h"

typedef CUresult (*uo_create_fn)(CUuserObject *, void *, CUhostFn, unsigned, unsigned);
typedef CUresult (*retain_fn)(CUgraph, CUuserObject, unsigned, unsigned);
typedef CUresult (*inst_fn)(CUgraphExec *, CUgraph, unsigned long long);
typedef CUresult (*launch_fn)(CUgraphExec, CUstream);
typedef CUresult (*create_fn)(CUgraph *, unsigned);
typedef CUresult (*empty_fn)(CUgraphNode *, CUgraph, const CUgraphNode *, size_t);
typedef CUresult (*memset_fn)(CUgraphNode *, CUgraph, const CUgraphNode *, size_t,
                              const CUDA_MEMSET_NODE_PARAMS *, CUcontext);

static void nothing(void *p) { (void)p; }
static double now(void) {
    struct timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    return t.tv_sec * 1e9 + t.tv_nsec;
}
#define GET(T, name, v) T name; { void *p; if (cgn_driver_proc(#name, v, &p)) return 1; name = (T)p; }

int main(void) {
    cgn_cuda cu;
    if (cgn_cuda_open(&cu) != CGN_OK) { printf("no GPU\n"); return 0; }
    GET(uo_create_fn, cuUserObjectCreate, 11030) GET(retain_fn, cuGraphRetainUserObject, 11030)
    GET(inst_fn, cuGraphInstantiateWithFlags, 11040) GET(launch_fn, cuGraphLaunch, 10000)
    GET(create_fn, cuGraphCreate, 10000) GET(empty_fn, cuGraphAddEmptyNode, 10000)
    GET(memset_fn, cuGraphAddMemsetNode, 10000)
    CUdeviceptr buf;
    CGN_CUDA_CHECK(cu.cuMemAlloc(&buf, 256));
    CUDA_MEMSET_NODE_PARAMS mp = {buf, 0, 7, 1, 256, 1};
    CUstream s;
    CGN_CUDA_CHECK(cu.cuStreamCreate(&s, CU_STREAM_NON_BLOCKING));
    CUgraphExec ex[3];
    for (int k = 0; k < 2; k++) {
        CUgraph g; CUgraphNode n;
        CGN_CUDA_CHECK(cuGraphCreate(&g, 0));
        CGN_CUDA_CHECK(cuGraphAddMemsetNode(&n, g, NULL, 0, &mp, cu.context));
        if (k == 1) {
            CUuserObject o;
            CGN_CUDA_CHECK(cuUserObjectCreate(&o, NULL, nothing, 1, CU_USER_OBJECT_NO_DESTRUCTOR_SYNC));
            CGN_CUDA_CHECK(cuGraphRetainUserObject(g, o, 1, CU_GRAPH_USER_OBJECT_MOVE));
        }
        CGN_CUDA_CHECK(cuGraphInstantiateWithFlags(&ex[k], g, 0));
    }
    cgn_graph *cg; cgn_node *cn; cgn_exec *ce;
    cgn_graph_create(&cg);
    cgn_memset_desc md = CGN_MEMSET_DESC_INIT;
    md.dst = buf; md.value = 7; md.width = 256;
    if (cgn_graph_add_memset(cg, NULL, 0, &md, &cn) != CGN_OK || cgn_graph_instantiate(cg, &ce) != CGN_OK) {
        printf("cgn: %s\n", cgn_last_error()); return 1;
    }
    (void)cuGraphAddEmptyNode;
    const char *label[4] = {"raw, no user object", "raw, one user object", "cgn_exec_launch",
                            "cgn exec update+launch"};
    for (int rep = 0; rep < 3; rep++)
        for (int k = 0; k < 4; k++) {
            double t0 = now();
            for (int i = 0; i < 20000; i++) {
                if (k < 2) CGN_CUDA_CHECK(cuGraphLaunch(ex[k], s));
                else {
                    if (k == 3) {
                        cgn_memset_update u = CGN_MEMSET_UPDATE_INIT;
                        cgn_memset_update_set_value(&u, 7 + (i & 1), 1);
                        if (cgn_memset_exec_update(ce, cn, &u) != CGN_OK) return 1;
                    }
                    if (cgn_exec_launch(ce, s) != CGN_OK) return 1;
                }
                if ((i & 63) == 63) CGN_CUDA_CHECK(cu.cuStreamSynchronize(s));
            }
            CGN_CUDA_CHECK(cu.cuStreamSynchronize(s));
            printf("%-24s %8.0f ns per launch (incl. syncs)\n", label[k], (now() - t0) / 20000);
        }
    return 0;
}
