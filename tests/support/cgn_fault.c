/* The fault-injecting proxy: one wrapper per driver entry, built from driver_entries.h. */
#include <string.h>

#include "cgn_fault.h"
#include "../../generated/tests/cgn_fake_nodes.h" /* the typed setters, from spec/ */

/* Test-only state; tests are single-threaded. */
static struct {
    const cgn_driver_table *inner;
    cgn_driver_table proxy;
    long calls[CGN_FAULT_ENTRY_COUNT];
    long total;
    long fail_at; /* 0: disarmed */
    CUresult fail_with;
    int triggered;
    cgn_fault_entry triggered_entry;
} cgn_fault;

static int cgn_fault_should_fail(cgn_fault_entry e) {
    cgn_fault.calls[e]++;
    cgn_fault.total++;
    if (cgn_fault.fail_at != 0 && cgn_fault.total == cgn_fault.fail_at) {
        cgn_fault.fail_at = 0;
        cgn_fault.triggered = 1;
        cgn_fault.triggered_entry = e;
        return 1;
    }
    return 0;
}

#define CGN_FAULT_WRAP_(name, abi, need, params, args)                                             \
    static CUresult cgn_fault_##name params {                                                      \
        if (cgn_fault_should_fail(CGN_FAULT_##name))                                               \
            return cgn_fault.fail_with;                                                            \
        return cgn_fault.inner->name args;                                                         \
    }
CGN_DRIVER_ENTRIES(CGN_FAULT_WRAP_)
#undef CGN_FAULT_WRAP_

static void cgn_fault_build(int version) {
    cgn_fault.proxy.version = version;
#define CGN_FAULT_SET_(name, abi, need, params, args)                                              \
    cgn_fault.proxy.name =                                                                         \
        (cgn_fault.inner->name != NULL && abi <= version) ? cgn_fault_##name : NULL;
    CGN_DRIVER_ENTRIES(CGN_FAULT_SET_)
#undef CGN_FAULT_SET_
}

void cgn_fault_install(const cgn_driver_table *inner) {
    memset(&cgn_fault, 0, sizeof cgn_fault);
    cgn_fault.inner = inner;
    cgn_fault_build(inner->version);
    cgn_driver_install(&cgn_fault.proxy);
}

void cgn_fault_set_version(int version) { cgn_fault_build(version); }

void cgn_fault_arm(long nth, CUresult result) {
    cgn_fault.fail_at = cgn_fault.total + nth;
    cgn_fault.fail_with = result;
    cgn_fault.triggered = 0;
}

void cgn_fault_disarm(void) { cgn_fault.fail_at = 0; }

int cgn_fault_triggered(cgn_fault_entry *entry_out) {
    if (cgn_fault.triggered && entry_out)
        *entry_out = cgn_fault.triggered_entry;
    return cgn_fault.triggered;
}

void cgn_fault_reset_counts(void) {
    memset(cgn_fault.calls, 0, sizeof cgn_fault.calls);
    cgn_fault.total = 0;
}

long cgn_fault_calls(cgn_fault_entry entry) { return cgn_fault.calls[entry]; }

long cgn_fault_total_calls(void) { return cgn_fault.total; }

int cgn_fault_is_setter(cgn_fault_entry entry) {
    switch (entry) {
    case CGN_FAULT_cuGraphNodeSetParams:
    case CGN_FAULT_cuGraphExecNodeSetParams:
#define CGN_FAULT_SETTER_CASE_(name, ...) case CGN_FAULT_##name:
        CGN_FAKE_TYPED_SETTERS(CGN_FAULT_SETTER_CASE_) /* the specs' typed setters */
#undef CGN_FAULT_SETTER_CASE_
        return 1;
    default:
        return 0;
    }
}

long cgn_fault_setter_calls(void) {
    long n = 0;
    for (int e = 0; e < CGN_FAULT_ENTRY_COUNT; e++)
        if (cgn_fault_is_setter((cgn_fault_entry)e))
            n += cgn_fault.calls[e];
    return n;
}

const char *cgn_fault_entry_name(cgn_fault_entry entry) {
    static const char *const names[] = {
#define CGN_FAULT_NAME_(name, abi, need, params, args) #name,
        CGN_DRIVER_ENTRIES(CGN_FAULT_NAME_)
#undef CGN_FAULT_NAME_
    };
    return (unsigned)entry < CGN_FAULT_ENTRY_COUNT ? names[entry] : "?";
}
