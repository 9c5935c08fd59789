// Kernels used by the GPU tests, the demo and the benchmarks. Each writes only from the first
// thread of the first block, so results do not depend on the launch configuration unless they
// are meant to (write_config).
extern "C" __global__ void add_one(int *p) {
    if (blockIdx.x == 0 && blockIdx.y == 0 && blockIdx.z == 0 && threadIdx.x == 0 &&
        threadIdx.y == 0 && threadIdx.z == 0)
        p[0] += 1;
}

extern "C" __global__ void write_config(unsigned *out) {
    if (blockIdx.x == 0 && blockIdx.y == 0 && blockIdx.z == 0 && threadIdx.x == 0 &&
        threadIdx.y == 0 && threadIdx.z == 0) {
        unsigned smem;
        asm("mov.u32 %0, %%dynamic_smem_size;" : "=r"(smem));
        out[0] = gridDim.x;
        out[1] = gridDim.y;
        out[2] = gridDim.z;
        out[3] = blockDim.x;
        out[4] = blockDim.y;
        out[5] = blockDim.z;
        out[6] = smem;
    }
}

extern "C" __global__ void fill_u32(unsigned *out, unsigned value) {
    if (blockIdx.x == 0 && blockIdx.y == 0 && blockIdx.z == 0 && threadIdx.x == 0 &&
        threadIdx.y == 0 && threadIdx.z == 0)
        out[0] = value;
}

extern "C" __global__ void empty(void) {}

// Holds its stream until the host sets flag[0]: flag[1] = 1 says it is running; after about
// 10 s it gives up and sets flag[2] = 1, so a failing test cannot hang the device. flag is
// pinned host memory mapped into the device's address space.
extern "C" __global__ void wait_flag(volatile int *flag) {
    if (blockIdx.x == 0 && threadIdx.x == 0) {
        flag[1] = 1;
        __threadfence_system();
        unsigned long long start, now;
        asm volatile("mov.u64 %0, %%globaltimer;" : "=l"(start));
        while (flag[0] == 0) {
            asm volatile("mov.u64 %0, %%globaltimer;" : "=l"(now));
            if (now - start > 10000000000ull) {
                flag[2] = 1;
                break;
            }
        }
    }
}

// A KV-cache-like decode step (examples/capture_update.c): kv_append copies this step's token
// into its slot of the cache; kv_sum adds up the first len slots.
extern "C" __global__ void kv_append(float *slot, const float *token, unsigned dim) {
    if (blockIdx.x == 0 && threadIdx.x == 0)
        for (unsigned i = 0; i < dim; i++)
            slot[i] = token[i];
}

extern "C" __global__ void kv_sum(const float *cache, unsigned len, unsigned dim, float *out) {
    if (blockIdx.x == 0 && threadIdx.x == 0) {
        float sum = 0.0f;
        for (unsigned i = 0; i < len * dim; i++)
            sum += cache[i];
        out[0] = sum;
    }
}

// Six arguments, 40 bytes (three pointers, a float, an unsigned, a 64-bit tag): the kernel of
// the benchmarks' argument-level update and adoption (bench_updates --only arg,adopt).
extern "C" __global__ void axpy_tagged(float *out, const float *x, const float *y, float a,
                                       unsigned n, unsigned long long tag) {
    if (blockIdx.x == 0 && threadIdx.x == 0) {
        for (unsigned i = 0; i < n; i++)
            out[i] = a * x[i] + y[i];
        if (n == 0)
            out[0] = (float)tag;
    }
}
