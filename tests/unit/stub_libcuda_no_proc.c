/* A stand-in libcuda.so.1 without cuGetProcAddress_v2, as a driver before 12.0 is (11.3 to
 * 11.8 export only the first cuGetProcAddress; older ones neither): for a loader case of
 * test_strength_messages. Its soname is libcuda.so.1, so once the test has loaded it by path,
 * cgn's dlopen("libcuda.so.1") returns it. Nothing here is ever meant to be called: cgn must
 * refuse the driver on the missing symbol alone. cuda.h is not included (it maps
 * cuGetProcAddress to cuGetProcAddress_v2). */
#include <stddef.h>

__attribute__((visibility("default"))) int cuDriverGetVersion(int *version);
__attribute__((visibility("default"))) int
cuGetProcAddress(const char *symbol, void **pfn, int cuda_version, unsigned long long flags);

int cuDriverGetVersion(int *version) {
    *version = 11080;
    return 0;
}

int cuGetProcAddress(const char *symbol, void **pfn, int cuda_version, unsigned long long flags) {
    (void)symbol;
    (void)cuda_version;
    (void)flags;
    *pfn = NULL;
    return 500; /* CUDA_ERROR_NOT_FOUND */
}
