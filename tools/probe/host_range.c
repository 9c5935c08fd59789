/* What the driver says about host memory it knows, and what asking costs: for the check that a
 * host copy operand is mapped from its first to its last byte (cgn__check_host_extent).
 *   cc -O2 -I/usr/local/cuda/include tools/probe/host_range.c -o /tmp/host_range -lcuda
 * Prints, for pinned (cuMemAllocHost), registered (cuMemHostRegister) and pageable memory, what
 * cuPointerGetAttribute (memory type, range start and size) and cuMemGetAddressRange return at
 * the start and in the middle of the allocation, then the cost per call of those queries and of
 * the pipe probe cgn uses for pageable memory; then what the write probe (futex FUTEX_WAKE_OP
 * adding 0) and mincore answer on writable, read-only and unmapped pages here, and their cost. */
#define _GNU_SOURCE
#include <cuda.h>
#include <errno.h>
#include <linux/futex.h>
#include <sys/mman.h>
#include <sys/syscall.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

static double now_ns(void) {
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec * 1e9 + (double)ts.tv_nsec;
}

static void show(const char *what, void *p) {
    CUdeviceptr a = (CUdeviceptr)(uintptr_t)p;
    unsigned type = 0;
    CUdeviceptr start = 0;
    size_t size = 0;
    CUdeviceptr base = 0;
    size_t bytes = 0;
    CUresult rt = cuPointerGetAttribute(&type, CU_POINTER_ATTRIBUTE_MEMORY_TYPE, a);
    CUresult rs = cuPointerGetAttribute(&start, CU_POINTER_ATTRIBUTE_RANGE_START_ADDR, a);
    CUresult rz = cuPointerGetAttribute(&size, CU_POINTER_ATTRIBUTE_RANGE_SIZE, a);
    CUresult rr = cuMemGetAddressRange(&base, &bytes, a);
    printf("%-28s type r=%d %u | range_start r=%d +%lld | range_size r=%d %zu | "
           "cuMemGetAddressRange r=%d +%lld %zu\n",
           what, rt, type, rs, (long long)(start - a), rz, size, rr, (long long)(base - a),
           bytes);
}

static int pipe_fd[2];
static int probe(const void *p) {
    unsigned char b;
    if (write(pipe_fd[1], p, 1) != 1)
        return errno == EFAULT ? 0 : 1;
    return read(pipe_fd[0], &b, 1) == 1;
}

/* As cgn__host_writable: 1 writable, 0 EFAULT, -errno for another answer. */
static int write_probe(void *p) {
    uint32_t *word = (uint32_t *)((uintptr_t)p & ~(uintptr_t)3);
    uint32_t nobody = 0;
    long r = syscall(SYS_futex, &nobody, FUTEX_WAKE_OP | FUTEX_PRIVATE_FLAG, 0, (void *)0, word,
                     FUTEX_OP(FUTEX_OP_ADD, 0, FUTEX_OP_CMP_EQ, 0));
    return r >= 0 ? 1 : errno == EFAULT ? 0 : -errno;
}

static void write_probes(void) {
    long page = sysconf(_SC_PAGESIZE);
    unsigned char *m = mmap(NULL, 4 * page, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS,
                            -1, 0);
    if (m == MAP_FAILED)
        return;
    memset(m, 0x5a, 4 * page);
    mprotect(m + page, page, PROT_READ);
    mprotect(m + 2 * page, page, PROT_NONE);
    munmap(m + 3 * page, page);
    unsigned char vec[4];
    printf("write probe: writable %d (byte after: 0x%02x), read-only %d, PROT_NONE %d, "
           "unmapped %d, string literal %d\n",
           write_probe(m + 5), m[5], write_probe(m + page + 5), write_probe(m + 2 * page + 5),
           write_probe(m + 3 * page + 5), write_probe((void *)"literal"));
    errno = 0;
    int r1 = mincore(m, 3 * page, vec);
    int e1 = errno;
    errno = 0;
    int r2 = mincore(m, 4 * page, vec);
    int e2 = errno;
    printf("mincore: 3 mapped pages (one read-only, one PROT_NONE) r=%d errno=%d; with the "
           "unmapped page r=%d errno=%d (ENOMEM=%d)\n",
           r1, e1, r2, e2, ENOMEM);
    enum { N = 200000 };
    double t0 = now_ns();
    for (int i = 0; i < N; i++)
        write_probe(m + 8);
    double t1 = now_ns();
    for (int i = 0; i < N; i++)
        mincore(m, 2 * page, vec);
    double t2 = now_ns();
    size_t big = 1024 * (size_t)page;
    unsigned char *b = mmap(NULL, big, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
    static unsigned char bigvec[1024];
    double t3 = now_ns();
    for (int i = 0; i < N / 100; i++)
        mincore(b, big, bigvec);
    double t4 = now_ns();
    printf("ns per call: write probe %.1f, mincore of 2 pages %.1f, of 1024 pages %.1f\n",
           (t1 - t0) / N, (t2 - t1) / N, (t4 - t3) / (N / 100));
    munmap(b, big);
    munmap(m, 3 * page);
}

int main(void) {
    write_probes();
    CUdevice dev;
    CUcontext ctx;
    if (cuInit(0) != CUDA_SUCCESS || cuDeviceGet(&dev, 0) != CUDA_SUCCESS ||
        cuDevicePrimaryCtxRetain(&ctx, dev) != CUDA_SUCCESS || cuCtxSetCurrent(ctx) != CUDA_SUCCESS) {
        printf("no CUDA device\n");
        return 0;
    }
    if (pipe(pipe_fd) != 0)
        return 1;
    void *pinned = NULL;
    if (cuMemAllocHost(&pinned, 1 << 20) != CUDA_SUCCESS)
        return 1;
    void *reg = aligned_alloc(4096, 1 << 20);
    CUresult rreg = cuMemHostRegister(reg, 1 << 20, 0);
    void *pageable = malloc(1 << 20);
    show("pinned", pinned);
    show("pinned + 4096", (char *)pinned + 4096);
    printf("cuMemHostRegister r=%d\n", rreg);
    show("registered", reg);
    show("registered + 4096", (char *)reg + 4096);
    show("pageable", pageable);

    enum { N = 200000 };
    CUdeviceptr a = (CUdeviceptr)(uintptr_t)pinned + 100;
    double t0 = now_ns();
    for (int i = 0; i < N; i++) {
        unsigned type;
        cuPointerGetAttribute(&type, CU_POINTER_ATTRIBUTE_MEMORY_TYPE, a);
    }
    double t1 = now_ns();
    for (int i = 0; i < N; i++) {
        CUdeviceptr s;
        cuPointerGetAttribute(&s, CU_POINTER_ATTRIBUTE_RANGE_START_ADDR, a);
    }
    double t2 = now_ns();
    for (int i = 0; i < N; i++) {
        CUdeviceptr b;
        size_t z;
        cuMemGetAddressRange(&b, &z, a);
    }
    double t3 = now_ns();
    int ok = 0;
    for (int i = 0; i < N; i++)
        ok += probe((char *)pinned + 100);
    double t4 = now_ns();
    for (int i = 0; i < N; i++) {
        unsigned type;
        cuPointerGetAttribute(&type, CU_POINTER_ATTRIBUTE_MEMORY_TYPE,
                              (CUdeviceptr)(uintptr_t)pageable);
    }
    double t5 = now_ns();
    printf("ns per call: memory type (pinned) %.1f, range start %.1f, cuMemGetAddressRange %.1f, "
           "pipe probe %.1f (%d readable), memory type (pageable, an error) %.1f\n",
           (t1 - t0) / N, (t2 - t1) / N, (t3 - t2) / N, (t4 - t3) / N, ok, (t5 - t4) / N);
    return 0;
}
