/* A stand-in libcuda.so.1 for the loader cases of error_messages.c: built twice, as a driver
 * that is too old (STUB_VERSION 11080: every entry point newer than 11.8 is missing, as on a
 * real 11.8 driver) and as one that finds no device (cuInit returns CUDA_ERROR_NO_DEVICE). Its
 * soname is libcuda.so.1, so once the harness has loaded it by path, cgn's
 * dlopen("libcuda.so.1") returns it. Only cuDriverGetVersion, cuInit and cuGetErrorName do
 * anything; every other entry point returns CUDA_ERROR_NOT_SUPPORTED and is never called.
 * tests/CMakeLists.txt builds more variants for the loader cases of test_strength_messages (a
 * working driver, one reporting 11.0 with every entry point, one whose cuInit fails, one whose
 * cuGetProcAddress_v2 returns an error for the entry point STUB_PROC_ERROR_SYMBOL names). */
#include <string.h>

#include <cuda.h>

#if !defined(STUB_VERSION) || !defined(STUB_INIT_RESULT)
#error "define STUB_VERSION and STUB_INIT_RESULT"
#endif
/* The newest ABI version its cuGetProcAddress_v2 resolves: by default the version it reports
 * (as a real driver); the unit tests also build one that reports an old version yet resolves
 * every entry point, to check that the version alone is gated. */
#ifndef STUB_ABI_VERSION
#define STUB_ABI_VERSION STUB_VERSION
#endif

static CUresult stub_driver_get_version(int *version) {
    *version = STUB_VERSION;
    return CUDA_SUCCESS;
}

static CUresult stub_init(unsigned int flags) {
    if (flags != 0) /* as the real driver: the flags must be 0 */
        return CUDA_ERROR_INVALID_VALUE;
    return STUB_INIT_RESULT;
}

/* As the driver: a name for the codes it knows (these two here), CUDA_ERROR_INVALID_VALUE and
 * NULL for any other number. */
static CUresult stub_get_error_name(CUresult error, const char **name) {
    if (error == CUDA_ERROR_NO_DEVICE || error == CUDA_ERROR_UNKNOWN) {
        *name = error == CUDA_ERROR_NO_DEVICE ? "CUDA_ERROR_NO_DEVICE" : "CUDA_ERROR_UNKNOWN";
        return CUDA_SUCCESS;
    }
    *name = NULL;
    return CUDA_ERROR_INVALID_VALUE;
}

static CUresult stub_not_supported(void) {
    return CUDA_ERROR_NOT_SUPPORTED;
}

__attribute__((visibility("default"))) CUresult
cuGetProcAddress_v2(const char *symbol, void **pfn, int cudaVersion, cuuint64_t flags,
                    CUdriverProcAddressQueryResult *symbolStatus) {
    (void)flags;
    *pfn = NULL;
    if (cudaVersion > STUB_ABI_VERSION) {
        if (symbolStatus)
            *symbolStatus = CU_GET_PROC_ADDRESS_VERSION_NOT_SUFFICIENT;
        return CUDA_ERROR_NOT_FOUND;
    }
    /* ISO C has no conversion between function and object pointers: memcpy. */
    CUresult (*version_fn)(int *) = stub_driver_get_version;
    CUresult (*init_fn)(unsigned int) = stub_init;
    CUresult (*name_fn)(CUresult, const char **) = stub_get_error_name;
    CUresult (*other_fn)(void) = stub_not_supported;
    if (strcmp(symbol, "cuDriverGetVersion") == 0)
        memcpy(pfn, &version_fn, sizeof version_fn);
    else if (strcmp(symbol, "cuInit") == 0)
        memcpy(pfn, &init_fn, sizeof init_fn);
    else if (strcmp(symbol, "cuGetErrorName") == 0)
        memcpy(pfn, &name_fn, sizeof name_fn);
    else
        memcpy(pfn, &other_fn, sizeof other_fn);
    if (symbolStatus)
        *symbolStatus = CU_GET_PROC_ADDRESS_SUCCESS;
#ifdef STUB_PROC_ERROR_SYMBOL
    /* A driver contradicting itself: the symbol found and an address given, yet an error
     * returned. cgn trusts an entry point only when both say it was found. */
    if (strcmp(symbol, STUB_PROC_ERROR_SYMBOL) == 0)
        return CUDA_ERROR_NOT_FOUND;
#endif
    return CUDA_SUCCESS;
}
