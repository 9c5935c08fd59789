/* Tiny kernels for tools/probe/probe_driver.c. Built with nvcc -cubin; names are extern "C" so the
 * probe can look them up with cuModuleGetFunction / cuLibraryGetKernel. */

/* Every thread adds 1: the value read back counts the threads that ran (grid x block). */
extern "C" __global__ void add_one(int *p) { atomicAdd(p, 1); }

/* Same signature as add_one, different body: used to swap the function of a kernel node. */
extern "C" __global__ void add_two(int *p) { atomicAdd(p, 2); }

/* Writes v to p[0] (thread 0 of block 0 only). The scalar argument is what timing loops change. */
extern "C" __global__ void fill_u32(unsigned *p, unsigned v) {
    if (threadIdx.x == 0 && blockIdx.x == 0)
        p[0] = v;
}

extern "C" __global__ void empty(void) {}
