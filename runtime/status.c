/* Status names and the thread-local last-error message. */
#include <stdio.h>
#include <string.h>

#include "runtime.h"

/* Thread-local by design: each thread reads the message of its own last failing call. */
static _Thread_local char cgn__message[512];
static _Thread_local cgn_status cgn__last_status = CGN_OK;
static _Thread_local CUresult cgn__last_result = CUDA_SUCCESS;

const char *cgn_status_name(cgn_status status) {
    switch (status) {
#define CGN_STATUS_NAME_(name, value, text)                                                        \
    case name:                                                                                     \
        return #name;
        CGN_STATUS_TABLE(CGN_STATUS_NAME_)
#undef CGN_STATUS_NAME_
    }
    return "CGN_UNKNOWN_STATUS";
}

const char *cgn_status_description(cgn_status status) {
    switch (status) {
#define CGN_STATUS_TEXT_(name, value, text)                                                        \
    case name:                                                                                     \
        return text;
        CGN_STATUS_TABLE(CGN_STATUS_TEXT_)
#undef CGN_STATUS_TEXT_
    }
    return "unknown status";
}

const char *cgn_last_error(void) { return cgn__message; }

cgn_status cgn_last_status(void) { return cgn__last_status; }

cgn_status cgn__fail(cgn_status status, const char *fmt, ...) {
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(cgn__message, sizeof cgn__message, fmt, ap);
    va_end(ap);
    cgn__last_status = status;
    cgn__last_result = CUDA_SUCCESS;
    return status;
}

cgn_status cgn__exec_refused(cgn_status st, uint64_t set, const char *const *field_names,
                             const char *const *driver_rules, size_t num_fields) {
    if (st != CGN_ERROR_DRIVER)
        return st;
    char *m = cgn__message;
    size_t cap = sizeof cgn__message, len = strlen(m);
    int ruled = 0;
    len += (size_t)snprintf(m + len, len < cap ? cap - len : 0,
                            "; the driver refused this change in the executable (fields set:");
    for (size_t i = 0; i < num_fields; i++)
        if ((set & (UINT64_C(1) << i)) && len < cap)
            len += (size_t)snprintf(m + len, cap - len, " %s", field_names[i]);
    for (size_t i = 0; i < num_fields; i++)
        if ((set & (UINT64_C(1) << i)) && driver_rules[i] != NULL && len < cap) {
            len += (size_t)snprintf(m + len, cap - len, "%s field %s: rule: %s",
                                    ruled ? ";" : "); rules only the driver checks:",
                                    field_names[i], driver_rules[i]);
            ruled = 1;
        }
    if (len < cap)
        snprintf(m + len, cap - len, "%s; nothing changed", ruled ? "" : ")");
    if (ruled && cgn__last_result == CUDA_ERROR_INVALID_VALUE)
        cgn__last_status = st = CGN_ERROR_INVALID_VALUE;
    return st;
}

CUresult cgn__last_cu_result(void) { return cgn__last_result; }

cgn_status cgn__fail_driver(CUresult r, const char *what) {
    cgn_status st =
        cgn__fail(CGN_ERROR_DRIVER, "%s returned %s (%d)", what, cgn__cu_name(r), (int)r);
    cgn__last_result = r;
    return st;
}
