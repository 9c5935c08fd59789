/* Loads the CUDA driver at run time: dlopen("libcuda.so.1"), then cuGetProcAddress_v2 for every
 * entry point at the ABI version its typedef was written for (driver_entries.h). */
#include <dlfcn.h>
#include <limits.h>
#include <stdatomic.h>
#include <stdio.h>
#include <string.h>
#include <pthread.h>

#include "runtime.h"

/* The table in use. Written once by the loader (or a test) and read-only afterwards. */
_Atomic(const cgn_driver_table *) cgn__installed;

/* What the one-time load found: the table, or the status and message of its failure. */
static cgn_driver_table cgn__real;
static cgn_status cgn__real_status = CGN_ERROR_NO_DRIVER;
static char cgn__real_message[256];
static pthread_once_t cgn__real_once = PTHREAD_ONCE_INIT;

typedef CUresult (*cgn__get_proc_fn)(const char *, void **, int, cuuint64_t,
                                     CUdriverProcAddressQueryResult *);
static cgn__get_proc_fn cgn__get_proc;

static void cgn__load_failed(cgn_status status, const char *fmt, const char *detail) {
    cgn__real_status = status;
    snprintf(cgn__real_message, sizeof cgn__real_message, fmt, detail ? detail : "");
}

/* Resolves one symbol; NULL when the driver lacks it or is older than `abi`. */
static void *cgn__resolve(cgn__get_proc_fn get_proc, const char *name, int abi) {
    void *pfn = NULL;
    CUdriverProcAddressQueryResult found = CU_GET_PROC_ADDRESS_SYMBOL_NOT_FOUND;
    CUresult r = get_proc(name, &pfn, abi, CU_GET_PROC_ADDRESS_LEGACY_STREAM, &found);
    if (r != CUDA_SUCCESS || found != CU_GET_PROC_ADDRESS_SUCCESS)
        return NULL;
    return pfn;
}

static void cgn__load_real(void) {
    /* libcuda.so.1, not libcuda.so: the unversioned name may be the toolkit's stub. */
    void *lib = dlopen("libcuda.so.1", RTLD_NOW | RTLD_LOCAL);
    if (lib == NULL) {
        cgn__load_failed(CGN_ERROR_NO_DRIVER,
                         "the CUDA driver library libcuda.so.1 could not be loaded (%s); install "
                         "the NVIDIA driver to run graphs",
                         dlerror());
        return;
    }
    /* POSIX guarantees data and function pointers convert; memcpy keeps ISO C quiet. */
    void *sym = dlsym(lib, "cuGetProcAddress_v2");
    cgn__get_proc_fn get_proc = NULL;
    memcpy(&get_proc, &sym, sizeof get_proc);
    if (get_proc == NULL) {
        cgn__load_failed(CGN_ERROR_DRIVER_TOO_OLD,
                         "cgn needs CUDA driver 12.0 or newer; this libcuda.so.1 has no "
                         "cuGetProcAddress_v2%s",
                         NULL);
        return;
    }
    cgn__get_proc = get_proc;
    cgn_driver_table *t = &cgn__real;
#define CGN__RESOLVE(name, abi, need, params, args)                                                \
    {                                                                                              \
        void *pfn = cgn__resolve(get_proc, #name, abi);                                            \
        memcpy(&t->name, &pfn, sizeof pfn);                                                        \
    }
    CGN_DRIVER_ENTRIES(CGN__RESOLVE)
#undef CGN__RESOLVE
    if (t->cuDriverGetVersion == NULL || t->cuDriverGetVersion(&t->version) != CUDA_SUCCESS) {
        cgn__load_failed(CGN_ERROR_DRIVER_TOO_OLD, "cuDriverGetVersion is unavailable%s", NULL);
        return;
    }
    char missing[64] = "";
#define CGN__CHECK_BASE(name, abi, need, params, args)                                             \
    if (need == CGN__NEED_BASE && t->name == NULL && missing[0] == '\0')                           \
        snprintf(missing, sizeof missing, "%s", #name);
    CGN_DRIVER_ENTRIES(CGN__CHECK_BASE)
#undef CGN__CHECK_BASE
    if (t->version < 12000 || missing[0] != '\0') {
        char detail[160];
        snprintf(detail, sizeof detail, "%d.%d%s%s", t->version / 1000, (t->version % 1000) / 10,
                 missing[0] ? ", which lacks " : "", missing);
        cgn__load_failed(CGN_ERROR_DRIVER_TOO_OLD,
                         "cgn needs CUDA driver 12.0 or newer; this driver is %s", detail);
        return;
    }
    CUresult r = t->cuInit(0);
    if (r == CUDA_ERROR_NO_DEVICE) {
        cgn__load_failed(CGN_ERROR_NO_DEVICE,
                         "the CUDA driver is installed but found no device (cuInit returned "
                         "CUDA_ERROR_NO_DEVICE)%s",
                         NULL);
        return;
    }
    if (r != CUDA_SUCCESS) {
        char detail[96];
        const char *name = NULL;
        if (t->cuGetErrorName(r, &name) != CUDA_SUCCESS || name == NULL)
            name = "an unknown error";
        snprintf(detail, sizeof detail, "%s (%d)", name, (int)r);
        cgn__load_failed(r == CUDA_ERROR_NO_DEVICE ? CGN_ERROR_NO_DEVICE : CGN_ERROR_DRIVER,
                         "cuInit(0) returned %s", detail);
        return;
    }
    cgn__real_status = CGN_OK;
}

const cgn_driver_table *cgn_driver_real(void) {
    pthread_once(&cgn__real_once, cgn__load_real);
    if (cgn__real_status != CGN_OK) {
        cgn__fail(cgn__real_status, "%s", cgn__real_message);
        return NULL;
    }
    return &cgn__real;
}

void cgn_driver_install(const cgn_driver_table *table) {
    atomic_store_explicit(&cgn__installed, table, memory_order_release);
}

cgn_status cgn__driver_ready(void) {
    if (cgn__driver != NULL)
        return CGN_OK;
    const cgn_driver_table *t = cgn_driver_real();
    if (t == NULL)
        return cgn_last_status();
    const cgn_driver_table *expected = NULL;
    atomic_compare_exchange_strong(&cgn__installed, &expected, t);
    return CGN_OK;
}

cgn_status cgn_init(void) { return cgn__driver_ready(); }

cgn_status cgn_driver_version(int *version_out) {
    if (version_out == NULL)
        return cgn__fail(CGN_ERROR_INVALID_ARGUMENT, "cgn_driver_version: version_out is NULL");
    cgn_status st = cgn__driver_ready();
    if (st != CGN_OK)
        return st;
    *version_out = cgn__driver->version;
    return CGN_OK;
}

cgn_status cgn_driver_proc(const char *symbol, int cuda_version, void **pfn_out) {
    if (symbol == NULL || pfn_out == NULL)
        return cgn__fail(CGN_ERROR_INVALID_ARGUMENT, "cgn_driver_proc: symbol and pfn_out must "
                                                     "not be NULL");
    *pfn_out = NULL;
    if (cgn_driver_real() == NULL)
        return cgn_last_status();
    void *pfn = cgn__resolve(cgn__get_proc, symbol, cuda_version);
    if (pfn == NULL)
        return cgn__fail(CGN_ERROR_DRIVER_TOO_OLD,
                         "cgn_driver_proc: the driver (%d.%d) has no %s at CUDA version %d",
                         cgn__real.version / 1000, (cgn__real.version % 1000) / 10, symbol,
                         cuda_version);
    *pfn_out = pfn;
    return CGN_OK;
}

cgn_status cgn__require_driver(int since, int has_entry, const char *feature) {
    int v = cgn__driver->version;
    if (v >= since && has_entry)
        return CGN_OK;
    return cgn__fail(CGN_ERROR_DRIVER_TOO_OLD,
                     "%s need CUDA driver %d.%d or newer; this driver is %d.%d", feature,
                     since / 1000, (since % 1000) / 10, v / 1000, (v % 1000) / 10);
}

int cgn__driver_version(void) {
    /* No driver yet: no graph either, so let the gate pass and the graph lookup report it. */
    const cgn_driver_table *t = cgn__driver;
    return t != NULL ? t->version : INT_MAX;
}

const char *cgn__cu_name(CUresult r) {
    const char *name = NULL;
    if (cgn__driver && cgn__driver->cuGetErrorName &&
        cgn__driver->cuGetErrorName(r, &name) == CUDA_SUCCESS && name)
        return name;
    return "an unknown CUresult";
}
