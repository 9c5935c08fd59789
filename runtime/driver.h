/* The driver dispatch table. cgn never links libcuda: every call goes through this table,
 * resolved with cuGetProcAddress at the ABI versions in driver_entries.h. Tests install a fake
 * table, or wrap the real one to inject failures (tests/support). */
#ifndef CGN_RUNTIME_DRIVER_H
#define CGN_RUNTIME_DRIVER_H

#include <cuda.h>

#include "cgn/cgn.h"
#include "driver_entries.h"

/* A function only failures call: compilers move the paths to it out of line (runtime.h). */
#if defined(__GNUC__) || defined(__clang__)
#define CGN__COLD __attribute__((cold))
#else
#define CGN__COLD
#endif

typedef struct cgn_driver_table {
    int version; /* cuDriverGetVersion result, 1000*major + 10*minor */
#define CGN__DRIVER_FIELD(name, abi, need, params, args) CUresult (*name) params;
    CGN_DRIVER_ENTRIES(CGN__DRIVER_FIELD)
#undef CGN__DRIVER_FIELD
} cgn_driver_table;

/* The table in use. Set once by cgn_init() (or by a test through cgn_driver_install) and only
 * read afterwards: one of the runtime's two documented pieces of global mutable state (the other
 * is the release queue in owner.c). */
#include <stdatomic.h>
extern _Atomic(const cgn_driver_table *) cgn__installed;
static inline const cgn_driver_table *cgn__drv(void) {
    return atomic_load_explicit(&cgn__installed, memory_order_acquire);
}
#define cgn__driver (cgn__drv())

/* Makes sure a driver table is installed; cheap after the first call. */
cgn_status cgn__driver_ready(void);

/* Feature gate: CGN_ERROR_DRIVER_TOO_OLD with a message naming both versions when the driver is
 * older than `since` or lacks the feature's entry point (has_entry == 0). */
CGN__COLD cgn_status cgn__require_driver(int since, int has_entry, const char *feature);

/* "CUDA_ERROR_INVALID_VALUE" for a CUresult, through the driver when it can name it. */
const char *cgn__cu_name(CUresult r);

/* Test hook (not part of the public API): replaces the driver table; NULL returns to the real
 * driver on the next cgn_init(). The table must outlive its use. */
CGN_API void cgn_driver_install(const cgn_driver_table *table);
/* The real driver's table, loading it if needed; NULL (and last error set) when unavailable. */
CGN_API const cgn_driver_table *cgn_driver_real(void);

#endif /* CGN_RUNTIME_DRIVER_H */
