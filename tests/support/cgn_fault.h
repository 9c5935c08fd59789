/* A driver table that wraps another (the fake or the real driver) to count calls, inject one
 * failure, and pose as an older driver. Works the same on the fake and on a GPU. */
#ifndef CGN_TESTS_CGN_FAULT_H
#define CGN_TESTS_CGN_FAULT_H

#include "driver.h"

typedef enum cgn_fault_entry {
#define CGN_FAULT_ENUM_(name, abi, need, params, args) CGN_FAULT_##name,
    CGN_DRIVER_ENTRIES(CGN_FAULT_ENUM_)
#undef CGN_FAULT_ENUM_
        CGN_FAULT_ENTRY_COUNT
} cgn_fault_entry;

/* Installs the proxy over `inner` as cgn's driver; counts and injection start cleared. */
void cgn_fault_install(const cgn_driver_table *inner);
/* Poses as a driver of `version`: entries newer than it disappear, as on a real old driver. */
void cgn_fault_set_version(int version);
/* Makes the nth driver call from now (1-based, any entry) fail with `result`, once. */
void cgn_fault_arm(long nth, CUresult result);
void cgn_fault_disarm(void);
/* Whether the armed failure was injected, and into which entry. */
int cgn_fault_triggered(cgn_fault_entry *entry_out);
void cgn_fault_reset_counts(void);
long cgn_fault_calls(cgn_fault_entry entry);
/* Whether entry changes a node's parameters: the generic setters and the typed ones the specs
 * name (cuda.set, cuda.exec_set); and how many such calls were made. */
int cgn_fault_is_setter(cgn_fault_entry entry);
long cgn_fault_setter_calls(void);
long cgn_fault_total_calls(void);
const char *cgn_fault_entry_name(cgn_fault_entry entry);

#endif /* CGN_TESTS_CGN_FAULT_H */
