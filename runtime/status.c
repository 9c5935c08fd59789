/* Status names and the thread-local last-error message. */
#include <stdio.h>
#include <string.h>

#include "runtime.h"

/* Thread-local by design: each thread reads the message of its own last failing call. */
static _Thread_local char cgn__message[512];
static _Thread_local cgn_status cgn__last_status = CGN_OK;

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
    return status;
}

cgn_status cgn__exec_refused(cgn_status st, uint64_t set, const char *const *field_names,
                             size_t num_fields) {
    if (st != CGN_ERROR_DRIVER)
        return st;
    size_t len = strlen(cgn__message);
    int n = snprintf(cgn__message + len, sizeof cgn__message - len,
                     "; the driver refused this change in the executable (fields set:");
    for (size_t i = 0; i < num_fields && n > 0; i++) {
        len = strlen(cgn__message);
        if (set & (UINT64_C(1) << i))
            n = snprintf(cgn__message + len, sizeof cgn__message - len, " %s", field_names[i]);
    }
    len = strlen(cgn__message);
    snprintf(cgn__message + len, sizeof cgn__message - len, "); nothing changed");
    return st;
}

cgn_status cgn__fail_driver(CUresult r, const char *what) {
    return cgn__fail(CGN_ERROR_DRIVER, "%s returned %s (%d)", what, cgn__cu_name(r), (int)r);
}
