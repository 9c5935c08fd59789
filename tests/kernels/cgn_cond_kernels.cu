// Kernels that call the device runtime, for tests/unit/test_conditional.c only: a fatbin of their
// own (cmake/kernels.cmake says why), loaded when a test first asks for one of them.
#include <cuda_runtime.h>

// Conditional nodes (tests/unit/test_conditional.c). set_condition sets a conditional handle's
// value; countdown is a WHILE body's step: counter[0] -= 1, and the condition is cleared once
// it reaches 0, so the body runs counter[0]'s initial value times (at least once).
// cudaGraphSetConditional is a device-runtime builtin (CUDA 12.3+); the handle must belong to
// the kernel's context.
extern "C" __global__ void set_condition(cudaGraphConditionalHandle handle, unsigned value) {
    if (blockIdx.x == 0 && threadIdx.x == 0)
        cudaGraphSetConditional(handle, value);
}

extern "C" __global__ void countdown(unsigned *counter, cudaGraphConditionalHandle handle) {
    if (blockIdx.x == 0 && threadIdx.x == 0) {
        unsigned left = counter[0] - 1;
        counter[0] = left;
        cudaGraphSetConditional(handle, left != 0 ? 1u : 0u);
    }
}
