/* Event record and event wait nodes: add one of each, update the definition to another event,
 * and update an executable made before. Owners destroy the events once no graph or executable
 * records or waits for them. What each launch records and waits for is observed on the GPU:
 * the wait_flag test kernel holds a stream, so a record made by a launch queued behind it is
 * still pending (cuEventQuery: CUDA_ERROR_NOT_READY), and a launch that waits for an event
 * recorded behind it cannot complete until the stream is let go. */
#include <stdatomic.h>
#include <stdint.h>

#include "example.h"

static CUstream stream, side; /* executables run on `stream`; `side` records awaited events */
static CUevent event[2];
static int released[2]; /* per event: its owner's release callback ran */
static CUfunction wait_flag;
static volatile int *flag; /* pinned: [0] let go, [1] running, [2] gave up after 10 s */
static CUdeviceptr flag_dev;

static void destroy_event(void *resource) {
    CGN_CUDA_CHECK(cu.cuEventDestroy((CUevent)resource));
    released[resource == (void *)event[1]]++;
}

static double now_s(void) {
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + (double)ts.tv_nsec * 1e-9;
}

static void pause_ms(long ms) {
    struct timespec t = {0, ms * 1000000};
    nanosleep(&t, NULL);
}

/* Starts wait_flag on `s` and waits until it runs: work queued on `s` from now on waits. */
static void hold(CUstream s) {
    flag[0] = flag[1] = flag[2] = 0;
    atomic_thread_fence(memory_order_seq_cst);
    void *args[] = {&flag_dev};
    CGN_CUDA_CHECK(cu.cuLaunchKernel(wait_flag, 1, 1, 1, 1, 1, 1, 0, s, args, NULL));
    double deadline = now_s() + 5.0;
    while (flag[1] == 0) {
        EXPECT(now_s() < deadline);
        pause_ms(1);
    }
}

static void let_go(CUstream s) {
    flag[0] = 1;
    atomic_thread_fence(memory_order_seq_cst);
    CGN_CUDA_CHECK(cu.cuStreamSynchronize(s));
    EXPECT(flag[2] == 0);
}

/* Which events one launch records (bit i: event[i]). */
static int recorded(cgn_exec *exec) {
    int bits = 0;
    hold(stream);
    CHECK(cgn_exec_launch(exec, stream));
    for (int i = 0; i < 2; i++)
        bits |= (cu.cuEventQuery(event[i]) == CUDA_ERROR_NOT_READY) << i;
    let_go(stream);
    return bits;
}

/* Which events a launch waits for (bit i: event[i]): one launch per event, each recorded on
 * `side` behind a hold; a launch that waits for it is still incomplete after 200 ms. */
static int waited(cgn_exec *exec) {
    int bits = 0;
    for (int i = 0; i < 2; i++) {
        hold(side);
        CGN_CUDA_CHECK(cu.cuEventRecord(event[i], side));
        CHECK(cgn_exec_launch(exec, stream));
        CUresult r;
        double deadline = now_s() + 0.2;
        while ((r = cu.cuStreamQuery(stream)) == CUDA_ERROR_NOT_READY && now_s() < deadline)
            pause_ms(1);
        let_go(side);
        CGN_CUDA_CHECK(cu.cuStreamSynchronize(stream));
        bits |= (r == CUDA_ERROR_NOT_READY) << i;
    }
    return bits;
}

int main(void) {
    int rc = example_open("example_event", 1);
    if (rc != 0)
        return rc;
    CUlibrary lib;
    CUkernel k;
    CGN_CUDA_CHECK(
        cu.cuLibraryLoadData(&lib, cgn_test_kernels_fatbin, NULL, NULL, 0, NULL, NULL, 0));
    CGN_CUDA_CHECK(cu.cuLibraryGetKernel(&k, lib, "wait_flag"));
    CGN_CUDA_CHECK(cu.cuKernelGetFunction(&wait_flag, k));
    void *pinned;
    CGN_CUDA_CHECK(cu.cuMemAllocHost(&pinned, 4 * sizeof(int)));
    flag = pinned;
    CGN_CUDA_CHECK(cu.cuMemHostGetDevicePointer(&flag_dev, pinned, 0));
    CGN_CUDA_CHECK(cu.cuStreamCreate(&stream, CU_STREAM_NON_BLOCKING));
    CGN_CUDA_CHECK(cu.cuStreamCreate(&side, CU_STREAM_NON_BLOCKING));

    /* [guide:event-owners] */
    cgn_owner *owner[2];
    for (int i = 0; i < 2; i++) {
        CGN_CUDA_CHECK(cu.cuEventCreate(&event[i], CU_EVENT_DISABLE_TIMING));
        CHECK(cgn_owner_create(event[i], destroy_event, &owner[i])); /* destroys it at the end */
    }
    /* [/guide:event-owners] */

    /* Event record: add, definition update, executable-level update. */
    cgn_graph *rec_graph;
    CHECK(cgn_graph_create(&rec_graph));
    cgn_event_record_desc rd = CGN_EVENT_RECORD_DESC_INIT;
    rd.event = event[0];
    rd.event_owner = owner[0];
    cgn_node *rec;
    CHECK(cgn_graph_add_event_record(rec_graph, NULL, 0, &rd, &rec));
    cgn_exec *rec_first;
    CHECK(cgn_graph_instantiate(rec_graph, &rec_first));
    EXPECT(recorded(rec_first) == 1);

    /* [guide:event-update] */
    cgn_event_record_update ru = CGN_EVENT_RECORD_UPDATE_INIT;
    cgn_event_record_update_set_event(&ru, event[1], owner[1]); /* the event and its owner */
    CHECK(cgn_event_record_node_update(rec, &ru));
    cgn_exec *rec_second;
    CHECK(cgn_graph_instantiate(rec_graph, &rec_second));
    /* [/guide:event-update] */
    EXPECT(recorded(rec_second) == 2);
    EXPECT(recorded(rec_first) == 1); /* made before the update */
    CHECK(cgn_event_record_exec_update(rec_first, rec, &ru));
    EXPECT(recorded(rec_first) == 2);

    /* Event wait: the same three steps. */
    cgn_graph *wait_graph;
    CHECK(cgn_graph_create(&wait_graph));
    cgn_event_wait_desc wd = CGN_EVENT_WAIT_DESC_INIT;
    wd.event = event[0];
    wd.event_owner = owner[0];
    cgn_node *wait;
    CHECK(cgn_graph_add_event_wait(wait_graph, NULL, 0, &wd, &wait));
    cgn_exec *wait_first;
    CHECK(cgn_graph_instantiate(wait_graph, &wait_first));
    EXPECT(waited(wait_first) == 1);
    cgn_event_wait_update wu = CGN_EVENT_WAIT_UPDATE_INIT;
    cgn_event_wait_update_set_event(&wu, event[1], owner[1]);
    CHECK(cgn_event_wait_node_update(wait, &wu));
    cgn_exec *wait_second;
    CHECK(cgn_graph_instantiate(wait_graph, &wait_second));
    EXPECT(waited(wait_second) == 2);
    EXPECT(waited(wait_first) == 1);
    CHECK(cgn_event_wait_exec_update(wait_first, wait, &wu));
    EXPECT(waited(wait_first) == 2);

    /* The graphs and executables hold the events now; they are destroyed after the last. */
    for (int i = 0; i < 2; i++)
        CHECK(cgn_owner_release(owner[i]));
    CHECK(cgn_exec_destroy(rec_first));
    CHECK(cgn_exec_destroy(rec_second));
    CHECK(cgn_exec_destroy(wait_first));
    CHECK(cgn_exec_destroy(wait_second));
    CHECK(cgn_graph_destroy(rec_graph));
    cgn_collect();
    EXPECT(released[1] == 0); /* wait_graph still waits for event 1 */
    CHECK(cgn_graph_destroy(wait_graph));
    example_collect_until(&released[0], 1);
    example_collect_until(&released[1], 1);

    CGN_CUDA_CHECK(cu.cuStreamDestroy(side));
    CGN_CUDA_CHECK(cu.cuStreamDestroy(stream));
    CGN_CUDA_CHECK(cu.cuMemFreeHost(pinned));
    CGN_CUDA_CHECK(cu.cuLibraryUnload(lib));
    cgn_cuda_close(&cu);
    printf("example_event: every check passed\n");
    return 0;
}
