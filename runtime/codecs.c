/* Field codecs: staging of field kinds that need cgn-owned copies or driver checks. They know
 * field kinds (kernel handles, argument lists, copy operands, byte payloads) and node forms
 * (a 1-D memcpy), never a node type's field names. */
#define _DEFAULT_SOURCE 1 /* mincore, syscall */
#include <errno.h>
#include <stdalign.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <sys/mman.h>
#include <unistd.h>
#ifdef __linux__
#include <linux/futex.h>
#include <sys/syscall.h>
#endif

#include "runtime.h"

/* Layout of a kernel-argument storage block:
 *   header | size_t param_size[num_params] | void *params[num_args] | cgn_arg copies[num_args]
 *   | argument bytes, each aligned to 16.
 * Pointers inside a block point into that block, so a copy is one memcpy of `total` bytes
 * followed by rebasing them (argument-level updates). */
typedef struct cgn__kargs_header {
    cgn_kernel kernel;   /* the kernel the cached parameter sizes belong to */
    const char *opaque;  /* adopted node whose arguments cgn could not copy: why; else NULL */
    size_t total;        /* bytes of the block in use */
    int checked;         /* 1: param_size holds the kernel's sizes (driver 12.4+) */
    uint32_t num_params;
    uint32_t num_args;
    /* Argument-level updates: this block is `base` (as it was at base_stamp) with arguments
     * edited[0..num_edited) replaced, and the same layout; base NULL: no such relation. When
     * `base` is still the spare, unwritten since, the next argument-level update rewrites there
     * only those arguments and its own, not the whole block. */
    const void *base;
    cgn__block_stamp base_stamp;
    uint32_t num_edited;
    uint16_t edited[CGN_MAX_ARG_EDITS];
} cgn__kargs_header;

#define CGN__ALIGN_UP(x, a) (((x) + (a) - 1) / (a) * (a))

/* Where the kernelParams array starts in a block caching `cached` parameter sizes: the one
 * place the writer and the reader of a block agree on. */
static size_t cgn__kargs_ptrs_offset(uint32_t cached) {
    return sizeof(cgn__kargs_header) + cached * sizeof(size_t);
}
/* Where the cgn_arg copies and the argument bytes start, after the kernelParams array of
 * `num_args`: with cgn__kargs_ptrs_offset, the block's whole format. num_args and cached are at
 * most CGN__MAX_KERNEL_PARAMS, so these offsets cannot overflow. */
static size_t cgn__kargs_copies_offset(uint32_t cached, uint32_t num_args) {
    return CGN__ALIGN_UP(cgn__kargs_ptrs_offset(cached) + num_args * sizeof(void *),
                         alignof(cgn_arg));
}
static size_t cgn__kargs_bytes_offset(uint32_t cached, uint32_t num_args) {
    return CGN__ALIGN_UP(cgn__kargs_copies_offset(cached, num_args) + num_args * sizeof(cgn_arg),
                         16);
}
static void **cgn__kargs_ptrs(const cgn__kargs_header *h) {
    return (void **)((unsigned char *)(uintptr_t)h + cgn__kargs_ptrs_offset(h->num_params));
}
static cgn_arg *cgn__kargs_copies(const cgn__kargs_header *h) {
    return (cgn_arg *)((unsigned char *)(uintptr_t)h +
                       cgn__kargs_copies_offset(h->num_params, h->num_args));
}

/* One argument's bytes; the common pointer and scalar sizes as inline moves, not a call. */
static inline void cgn__copy_arg(void *to, const void *value, size_t size) {
    if (size == 8)
        memcpy(to, value, 8);
    else if (size == 4)
        memcpy(to, value, 4);
    else
        memcpy(to, value, size);
}

/* Copies one argument's bytes to `*at` in the block and points its kernelParams entry and its
 * cgn_arg copy there; *at moves past them. */
static void cgn__kargs_put(unsigned char *block, size_t *at, void **ptr, cgn_arg *copy,
                           const void *value, size_t size, cgn_owner *owner) {
    unsigned char *to = block + *at;
    cgn__copy_arg(to, value, size);
    *ptr = to;
    *copy = (cgn_arg){to, size, owner};
    *at += CGN__ALIGN_UP(size, 16);
}
static const size_t *cgn__kargs_sizes(const cgn__kargs_header *h) {
    return (const size_t *)(h + 1);
}
/* CUDA limits a kernel's parameters to 32,764 bytes (12.1+), so no kernel has more than 32,764
 * parameters; a driver that reports more is refused (cgn__query_params). */
#define CGN__MAX_KERNEL_PARAMS 32764u
_Static_assert(CGN__MAX_KERNEL_PARAMS <= UINT16_MAX, "an argument index fits kargs edited[]");
/* CUDA limits a kernel's parameters to 32,764 bytes (12.1+); cgn refuses larger totals before
 * any arithmetic on them could wrap. */
#define CGN__MAX_ARG_BYTES (1u << 20)
/* Parameter sizes asked of the driver on the stack; more go to the heap. */
#define CGN__STACK_PARAMS 64u

static int cgn__same_kernel(cgn_kernel a, cgn_kernel b) {
    return a.function == b.function && a.kernel == b.kernel;
}

static const char *cgn__kernel_name(const cgn_driver_table *drv, cgn_kernel k) {
    const char *name = NULL;
    CUresult r = CUDA_ERROR_NOT_SUPPORTED;
    if (k.function && drv->cuFuncGetName)
        r = drv->cuFuncGetName(&name, k.function);
    else if (k.kernel && drv->cuKernelGetName)
        r = drv->cuKernelGetName(&name, k.kernel);
    return r == CUDA_SUCCESS && name ? name : "(unnamed)";
}

static CUresult cgn__param_info(const cgn_driver_table *drv, cgn_kernel k, size_t i,
                                size_t *offset, size_t *size) {
    return k.function ? drv->cuFuncGetParamInfo(k.function, i, offset, size)
                      : drv->cuKernelGetParamInfo(k.kernel, i, offset, size);
}

/* A kernel's parameter layout as the driver reports it. */
typedef struct cgn__layout {
    cgn_kernel kernel;
    int checked;       /* 0: the driver cannot tell (before 12.4) */
    uint32_t count;
    size_t *sizes;     /* count entries each, one allocation (NULL for none) */
    size_t *offsets;
    size_t block_total; /* read path (cgn__layout_of): the argument block of these sizes;
                           0 when cgn__write_kernel_args has to check (and refuse) them */
} cgn__layout;

/* Asks the driver for the kernel's parameter sizes and offsets, probing indices until
 * INVALID_VALUE (the count query arrives only in 13.2). Up to `cap` entries go into sizes and
 * offsets (offsets may be NULL); *count is the number there are. *checked = 0 when the driver
 * cannot tell (before 12.4). */
static cgn_status cgn__query_params(cgn_kernel k, size_t *sizes, size_t *offsets, uint32_t cap,
                                    uint32_t *count, int *checked, const char *where) {
    const cgn_driver_table *drv = cgn__driver;
    *count = 0;
    *checked = 0;
    if (drv->version < 12040 ||
        (k.function ? !drv->cuFuncGetParamInfo : !drv->cuKernelGetParamInfo))
        return CGN_OK;
    for (uint32_t i = 0;; i++) {
        size_t size = 0, offset = 0;
        CUresult r = cgn__param_info(drv, k, i, &offset, &size);
        if (r == CUDA_ERROR_INVALID_VALUE)
            break;
        if (r == CUDA_SUCCESS && i == CGN__MAX_KERNEL_PARAMS)
            return cgn__fail(CGN_ERROR_NOT_SUPPORTED,
                             "%s: the driver reports more than %u parameters for kernel %s, more "
                             "than CUDA allows",
                             where, CGN__MAX_KERNEL_PARAMS, cgn__kernel_name(drv, k));
        if (r != CUDA_SUCCESS) {
            char what[96];
            snprintf(what, sizeof what, "%s: %s", where,
                     k.function ? "cuFuncGetParamInfo" : "cuKernelGetParamInfo");
            return cgn__fail_driver(r, what);
        }
        if (i < cap) {
            sizes[i] = size;
            if (offsets)
                offsets[i] = offset;
        }
        (*count)++;
    }
    *checked = 1;
    return CGN_OK;
}

/* The whole layout, on the heap when it does not fit the caller's arrays of `cap`. */
static cgn_status cgn__query_layout(cgn_kernel k, size_t *sizes, size_t *offsets, uint32_t cap,
                                    cgn__layout *out, const char *where) {
    memset(out, 0, sizeof *out);
    out->kernel = k;
    cgn_status st = cgn__query_params(k, sizes, offsets, cap, &out->count, &out->checked, where);
    if (st != CGN_OK)
        return st;
    if (out->count <= cap) {
        out->sizes = sizes;
        out->offsets = offsets;
        return CGN_OK;
    }
    /* More than the caller has room for: ask again into arrays of the right size. */
    size_t *heap = malloc(2 * (size_t)out->count * sizeof *heap);
    if (heap == NULL)
        return cgn__fail(CGN_ERROR_OUT_OF_MEMORY, "%s: out of host memory", where);
    uint32_t again = 0;
    st = cgn__query_params(k, heap, heap + out->count, out->count, &again, &out->checked, where);
    if (st == CGN_OK && again != out->count)
        st = cgn__fail(CGN_ERROR_DRIVER, "%s: the driver reported %u parameters, then %u", where,
                       out->count, again);
    if (st != CGN_OK) {
        free(heap);
        return st;
    }
    out->sizes = heap;
    out->offsets = heap + out->count;
    return CGN_OK;
}

static cgn_status cgn__check_args_against(const size_t *sizes, uint32_t num_params, cgn_kernel k,
                                          const cgn_arg *args, uint32_t num_args,
                                          const char *where) {
    if (num_params != num_args) {
        size_t total = 0;
        for (uint32_t i = 0; i < num_params; i++)
            total += sizes[i];
        return cgn__fail(CGN_ERROR_INVALID_VALUE,
                         "%s: kernel %s takes %u argument%s (%zu bytes); %u given", where,
                         cgn__kernel_name(cgn__driver, k), num_params, num_params == 1 ? "" : "s",
                         total, num_args);
    }
    for (uint32_t i = 0; i < num_args; i++)
        if (args[i].size != sizes[i])
            return cgn__fail(CGN_ERROR_INVALID_VALUE,
                             "%s: kernel %s argument %u is %zu bytes; %zu given", where,
                             cgn__kernel_name(cgn__driver, k), i, sizes[i], args[i].size);
    return CGN_OK;
}

/* Whether block h (a spare, or one just taken from the spare: every kargs block's pointers point
 * into itself) was written for exactly this layout: the same kernel, sizes, count and total.
 * Its header must be whole: callers make sure it was written before. */
static int cgn__kargs_same_layout(const cgn__kargs_header *h, cgn_kernel kernel, int checked,
                                  uint32_t cached, uint32_t num_args, size_t total,
                                  const cgn_arg *args) {
    if (h->total != total || h->num_args != num_args ||
        h->num_params != cached || h->checked != checked || h->opaque != NULL ||
        !cgn__same_kernel(h->kernel, kernel))
        return 0;
    if (checked)
        return 1; /* the sizes are the kernel's, checked against args already */
    const cgn_arg *copies = cgn__kargs_copies(h);
    for (uint32_t i = 0; i < num_args; i++)
        if (copies[i].size != args[i].size)
            return 0;
    return 1;
}

/* Writes the arguments into block h, which already has their layout (a reused spare): its
 * pointers point where the values go, so only values and owners move. */
CGN__ALWAYS_INLINE static inline void cgn__kargs_refill(cgn__kargs_header *h,
                                                       const cgn_arg *args, uint32_t num_args,
                                                       const cgn_arg **args_copy_out,
                                                       void ***params_out) {
    void **ptrs = cgn__kargs_ptrs(h);
    cgn_arg *copies = cgn__kargs_copies(h);
    for (uint32_t i = 0; i < num_args; i++) {
        cgn__copy_arg(ptrs[i], args[i].value, args[i].size);
        copies[i].owner = args[i].owner;
    }
    h->base = NULL;
    *args_copy_out = num_args ? copies : NULL;
    *params_out = num_args ? ptrs : NULL;
}

/* Checks the arguments (and, where the kernel's sizes are known, their count and sizes), then
 * writes the new argument block. Shared by the hot path (kernel unchanged: sizes from the
 * current block), the path that asks the driver about a new kernel, and adoption. */
static cgn_status cgn__write_kernel_args(cgn__txn *txn, cgn_kernel kernel, const size_t *sizes,
                                         uint32_t num_params, int checked, const cgn_arg *args,
                                         uint32_t num_args, const cgn_arg **args_copy_out,
                                         void ***params_out, const char *where) {
    if (num_args > 0 && args == NULL)
        return cgn__fail(CGN_ERROR_INVALID_ARGUMENT, "%s: args is NULL but num_args is %u", where,
                         num_args);
    if (num_args > CGN__MAX_KERNEL_PARAMS)
        return cgn__fail(CGN_ERROR_INVALID_VALUE, "%s: %u arguments is more than a kernel takes",
                         where, num_args);
    if (checked && num_params != num_args)
        return cgn__check_args_against(sizes, num_params, kernel, args, num_args, where);
    uint32_t cached = checked ? num_params : 0;
    size_t off_sizes = sizeof(cgn__kargs_header);
    size_t off_ptrs = cgn__kargs_ptrs_offset(cached);
    size_t off_args = cgn__kargs_copies_offset(cached, num_args);
    size_t off_bytes = cgn__kargs_bytes_offset(cached, num_args);
    size_t total = off_bytes, arg_bytes = 0;
    for (uint32_t i = 0; i < num_args; i++) { /* one pass: values, sizes, block size */
        if (args[i].value == NULL || args[i].size == 0)
            return cgn__fail(CGN_ERROR_INVALID_ARGUMENT,
                             "%s: argument %u has no value (value NULL or size 0)", where, i);
        if (checked && args[i].size != sizes[i])
            return cgn__check_args_against(sizes, num_params, kernel, args, num_args, where);
        /* Sizes are user input: a sum that wraps would make the block too small. A kernel's
         * parameters total at most 32 KiB, so anything near that bound is refused anyway. The
         * sum includes this argument, before anything is added to the block's size. */
        if (args[i].size > CGN__MAX_ARG_BYTES ||
            (arg_bytes += args[i].size) > CGN__MAX_ARG_BYTES)
            return cgn__fail(CGN_ERROR_OUT_OF_RANGE,
                             "%s: argument %u is %zu bytes; kernel arguments total at most %zu "
                             "bytes",
                             where, i, args[i].size, (size_t)CGN__MAX_ARG_BYTES);
        total += CGN__ALIGN_UP(args[i].size, 16);
    }
    /* The sizes may live in the current block, which this one may not overwrite: the current
     * block is never the spare, so the new block never aliases it. */
    unsigned char *block = cgn__txn_storage(txn, total);
    if (block == NULL)
        return CGN_ERROR_OUT_OF_MEMORY;
    cgn__kargs_header *h = (cgn__kargs_header *)block;
    /* A fresh block's header is uninitialised: the take count tells (1 for a fresh block, at
     * least 2 for one taken and written before), and nothing else is read otherwise. */
    if (cgn__block_stamp_of(h).takes >= 2 &&
        cgn__kargs_same_layout(h, kernel, checked, cached, num_args, total, args)) {
        cgn__kargs_refill(h, args, num_args, args_copy_out, params_out);
        return CGN_OK;
    }
    h->kernel = kernel;
    h->opaque = NULL;
    h->total = total;
    h->checked = checked;
    h->num_params = cached;
    h->num_args = num_args;
    h->base = NULL;
    size_t *block_sizes = (size_t *)(block + off_sizes);
    for (uint32_t i = 0; i < cached; i++)
        block_sizes[i] = sizes[i];
    void **ptrs = (void **)(block + off_ptrs);
    cgn_arg *copies = (cgn_arg *)(block + off_args);
    size_t at = off_bytes;
    for (uint32_t i = 0; i < num_args; i++)
        cgn__kargs_put(block, &at, &ptrs[i], &copies[i], args[i].value, args[i].size,
                       args[i].owner);
    *args_copy_out = num_args ? copies : NULL;
    *params_out = num_args ? ptrs : NULL;
    return CGN_OK;
}

/* A kernel new to this node: its parameter sizes come from the driver (12.4+). Out of line,
 * so the hot path carries no sizes buffer. */
#if defined(__GNUC__) || defined(__clang__)
__attribute__((noinline))
#endif
static cgn_status cgn__stage_args_for_new_kernel(cgn__txn *txn, cgn_kernel kernel,
                                                 const cgn_arg *args, uint32_t num_args,
                                                 const cgn_arg **args_copy_out,
                                                 void ***params_out, const char *where) {
    size_t sizes[CGN__STACK_PARAMS];
    cgn__layout l;
    cgn_status st = cgn__query_layout(kernel, sizes, NULL, CGN__STACK_PARAMS, &l, where);
    if (st != CGN_OK)
        return st;
    st = cgn__write_kernel_args(txn, kernel, l.sizes, l.count, l.checked, args, num_args,
                                args_copy_out, params_out, where);
    if (l.sizes != sizes)
        free(l.sizes);
    return st;
}

/* When every argument has the kernel's size (cached in `cur`, the current block of the
 * unchanged kernel) and a value, none has an owner unless `owners_allowed`, and the spare was
 * written for this same layout (the per-iteration whole-list update of a scalar): takes that
 * spare and writes only values and owners into it (1). Else 0, with nothing taken. A spare's
 * header is always whole: every block is written right after it is taken. */
CGN__ALWAYS_INLINE static inline int cgn__kargs_refill_spare(cgn__txn *txn,
                                                           const cgn__kargs_header *cur,
                                                           cgn_kernel kernel, const cgn_arg *args,
                                                           uint32_t num_args, int owners_allowed,
                                                           const cgn_arg **args_copy_out,
                                                           void ***params_out) {
    const void *spare = cgn__txn_spare(txn);
    if (spare == NULL || !cur->checked || num_args != cur->num_params || args == NULL)
        return 0;
    const size_t *sizes = cgn__kargs_sizes(cur);
    for (uint32_t i = 0; i < num_args; i++)
        if (args[i].value == NULL || args[i].size != sizes[i] ||
            (!owners_allowed && args[i].owner != NULL))
            return 0;
    if (!cgn__kargs_same_layout(spare, kernel, 1, num_args, num_args, cur->total, args))
        return 0;
    cgn__kargs_header *h = cgn__txn_storage(txn, cur->total); /* that spare: it fits */
    cgn__kargs_refill(h, args, num_args, args_copy_out, params_out);
    return 1;
}

cgn_status cgn__stage_kernel_args(cgn__txn *txn, cgn_kernel kernel, const cgn_arg *args,
                                  uint32_t num_args, const cgn_arg **args_copy_out,
                                  void ***params_out, const char *where) {
    if ((kernel.function == NULL) == (kernel.kernel == NULL))
        return cgn__fail(CGN_ERROR_INVALID_VALUE,
                         "%s: kernel must name exactly one of a CUfunction and a CUkernel", where);
    const cgn__kargs_header *cur = cgn__txn_current_storage(txn);
    /* A block without the kernel's sizes (written where the driver could not tell, 12.2/12.3)
     * is asked again once the installed driver can: only a process that swaps driver tables
     * (cgn's tests) gets there, and its nodes then take argument edits like any other. */
    if (cur == NULL || !cgn__same_kernel(cur->kernel, kernel) ||
        (!cur->checked && cgn__driver->version >= 12040)) {
        /* A new kernel: the driver's parameter query dereferences the handle. */
        cgn_status st = cgn__check_raw_handle(
            kernel.function ? (const void *)kernel.function : (const void *)kernel.kernel,
            kernel.function ? "kernel (CUfunction)" : "kernel (CUkernel)", where);
        if (st != CGN_OK)
            return st;
        return cgn__stage_args_for_new_kernel(txn, kernel, args, num_args, args_copy_out,
                                              params_out, where);
    }
    /* The kernel is unchanged: its sizes are cached in the current block. */
    if (cgn__kargs_refill_spare(txn, cur, kernel, args, num_args, 1, args_copy_out, params_out))
        return CGN_OK;
    return cgn__write_kernel_args(txn, kernel, cgn__kargs_sizes(cur), cur->num_params,
                                  cur->checked, args, num_args, args_copy_out, params_out, where);
}

void **cgn__stage_kernel_args_unowned(cgn__txn *txn, cgn_kernel kernel, const cgn_arg *args,
                                      uint32_t num_args, const cgn_arg **copies_out) {
    const cgn__kargs_header *cur = cgn__txn_current_storage(txn);
    void **params = NULL;
    if (cur == NULL || !cgn__same_kernel(cur->kernel, kernel) ||
        !cgn__kargs_refill_spare(txn, cur, kernel, args, num_args, 0, copies_out, &params))
        return NULL;
    return params;
}

/* The node a transaction updates, for messages (the definition's record may be gone at
 * executable level). */
static const void *cgn__txn_node_handle(const cgn__txn *txn) {
    return cgn__handle_ptr(txn->exec ? txn->shadow->node : txn->node->handle);
}

#if defined(__GNUC__) || defined(__clang__)
__attribute__((noinline, cold))
#endif
static cgn_status cgn__opaque_refused(const cgn__txn *txn, const cgn__kargs_header *h,
                                      const char *where) {
    int v = cgn__driver->version;
    return cgn__fail(CGN_ERROR_NOT_SUPPORTED,
                     "%s: kernel node %p was adopted with arguments cgn could not copy: %s "
                     "(this driver is %d.%d); only an update setting every argument "
                     "(cgn_kernel_update_set_args or _set_kernel) is accepted",
                     where, cgn__txn_node_handle(txn), h->opaque, v / 1000, (v % 1000) / 10);
}

cgn_status cgn__keep_kernel_args(const cgn__txn *txn, void ***params_out, const char *where) {
    const cgn__kargs_header *h = cgn__txn_current_storage(txn);
    if (!cgn__keep_kernel_args_lean(h, params_out))
        return cgn__opaque_refused(txn, h, where);
    return CGN_OK;
}

int cgn__keep_kernel_args_lean(const void *storage, void ***params_out) {
    const cgn__kargs_header *h = storage;
    *params_out = NULL;
    if (h == NULL)
        return 1;
    if (h->opaque != NULL)
        return 0;
    if (h->num_args != 0)
        *params_out = cgn__kargs_ptrs(h);
    return 1;
}

/* ---- argument-level updates ------------------------------------------------------------------ */

/* Why the edits cannot apply to the block `src`; CGN_OK when they can. */
static cgn_status cgn__check_arg_edits(const cgn__txn *txn, const cgn__kargs_header *src,
                                       const cgn_arg_edits *edits, const char *where) {
    if (edits->count > CGN_MAX_ARG_EDITS)
        return cgn__fail(CGN_ERROR_INVALID_ARGUMENT,
                         "%s: %u argument edits; an update holds at most %u (set every argument "
                         "with cgn_kernel_update_set_args instead)",
                         where, edits->count, (unsigned)CGN_MAX_ARG_EDITS);
    if (src == NULL)
        return cgn__fail(CGN_ERROR_INVALID_VALUE, "%s: kernel node %p has no arguments", where,
                         cgn__txn_node_handle(txn));
    if (src->opaque != NULL)
        return cgn__opaque_refused(txn, src, where);
    if (!src->checked) {
        int v = cgn__driver->version;
        return cgn__fail(CGN_ERROR_DRIVER_TOO_OLD,
                         "%s: argument-level updates need the kernel's parameter sizes, which "
                         "CUDA driver 12.4 or newer reports (cuFuncGetParamInfo); this driver is "
                         "%d.%d: set every argument instead",
                         where, v / 1000, (v % 1000) / 10);
    }
    const size_t *sizes = cgn__kargs_sizes(src);
    for (uint32_t i = 0; i < edits->count; i++) {
        const cgn_arg_edit *e = &edits->edit[i];
        if (e->index >= src->num_args)
            return cgn__fail(CGN_ERROR_INVALID_VALUE,
                             "%s: argument %u: kernel %s takes %u argument%s", where, e->index,
                             cgn__kernel_name(cgn__driver, src->kernel), src->num_args,
                             src->num_args == 1 ? "" : "s");
        if (e->value == NULL)
            return cgn__fail(CGN_ERROR_INVALID_ARGUMENT, "%s: argument %u: value is NULL", where,
                             e->index);
        if (e->size != sizes[e->index]) {
            if (e->size == UINT32_MAX)
                return cgn__fail(CGN_ERROR_INVALID_VALUE,
                                 "%s: argument %u: kernel %s takes %zu bytes; the size given "
                                 "is 4294967295 or more",
                                 where, e->index, cgn__kernel_name(cgn__driver, src->kernel),
                                 sizes[e->index]);
            return cgn__fail(CGN_ERROR_INVALID_VALUE,
                             "%s: kernel %s argument %u is %zu bytes; %u given", where,
                             cgn__kernel_name(cgn__driver, src->kernel), e->index,
                             sizes[e->index], e->size);
        }
    }
    return CGN_OK;
}

/* Whether `spare` holds what `cur` holds except the arguments cur->edited: cur was derived
 * from it by an argument-level update and it has not been taken (written) since. */
static int cgn__spare_is_base_of(const cgn__kargs_header *cur, const void *spare) {
    return spare != NULL && cur->base == spare && cgn__block_stamped(spare, cur->base_stamp);
}

cgn_status cgn__stage_arg_edits(cgn__txn *txn, const cgn_arg_edits *edits,
                                const cgn_arg **args_inout, void ***params_out,
                                const char *where) {
    /* The block this update already built (kernel or args set too), else the current one. */
    const cgn__kargs_header *src = txn->storage_set ? (const cgn__kargs_header *)txn->storage
                                                    : cgn__txn_current_storage(txn);
    cgn_status st = cgn__check_arg_edits(txn, src, edits, where);
    if (st != CGN_OK)
        return st;
    cgn__kargs_header *h = (cgn__kargs_header *)txn->storage;
    uint32_t count = edits->count;
    if (!txn->storage_set) {
        /* Never written in place: the current block is shared with executables and embedded
         * copies, and a driver-owned block is never cgn's to write. */
        size_t total = src->total;
        /* src's base has src's layout, so the storage below is that very spare. */
        int from_base = cgn__spare_is_base_of(src, cgn__txn_spare(txn));
        h = cgn__txn_storage(txn, total);
        if (h == NULL)
            return CGN_ERROR_OUT_OF_MEMORY;
        if (from_base) {
            /* The spare is src's base, same layout: it lacks only src's own edits. */
            void **ptrs = cgn__kargs_ptrs(h);
            cgn_arg *copies = cgn__kargs_copies(h);
            void **src_ptrs = cgn__kargs_ptrs(src);
            const cgn_arg *src_copies = cgn__kargs_copies(src);
            for (uint32_t i = 0; i < src->num_edited; i++) {
                uint32_t a = src->edited[i];
                cgn__copy_arg(ptrs[a], src_ptrs[a], src_copies[a].size);
                copies[a].owner = src_copies[a].owner;
            }
        } else {
            /* One memcpy, then the block's own pointers move with it. */
            memcpy(h, src, total);
            uintptr_t from = (uintptr_t)src, to = (uintptr_t)h;
            void **ptrs = cgn__kargs_ptrs(h);
            cgn_arg *copies = cgn__kargs_copies(h);
            for (uint32_t i = 0; i < h->num_args; i++) {
                ptrs[i] = (void *)((uintptr_t)ptrs[i] - from + to);
                copies[i].value = (const void *)((uintptr_t)copies[i].value - from + to);
            }
        }
        h->base = src;
        h->base_stamp = cgn__block_stamp_of(src);
        h->num_edited = count;
        for (uint32_t i = 0; i < count; i++)
            h->edited[i] = (uint16_t)edits->edit[i].index;
    } else {
        h->base = NULL; /* written whole by this update */
    }
    void **ptrs = cgn__kargs_ptrs(h);
    cgn_arg *copies = cgn__kargs_copies(h);
    for (uint32_t i = 0; i < count; i++) {
        const cgn_arg_edit *e = &edits->edit[i];
        cgn__copy_arg(ptrs[e->index], e->value, e->size);
        copies[e->index].owner = e->owner;
    }
    *args_inout = h->num_args ? copies : NULL;
    *params_out = h->num_args ? ptrs : NULL;
    return CGN_OK;
}

/* ---- in-place argument writes (the update loop's steady state) ---------------------------- */

/* The current block when an in-place write may go there: cgn's alone (nothing retained it: no
 * executable or embedding reads it), with the kernel's sizes. (A block of adopted arguments cgn
 * could not copy holds none, so no argument ever qualifies there.) */
static cgn__kargs_header *cgn__in_place_block(const void *storage) {
    cgn__kargs_header *h = (cgn__kargs_header *)(uintptr_t)storage;
    if (h == NULL || !h->checked || !cgn__block_exclusive(h))
        return NULL;
    return h;
}

/* Whether one argument may be written in place: the kernel's size, small enough to save, no
 * owner, and a value that does not start in the block (a pointer _node_get handed out: a write
 * of the same update may have replaced it before it is read; one starting before the block
 * overlaps at most the header, which holds no argument). */
CGN__ALWAYS_INLINE static inline int cgn__in_place_arg_ok(const cgn__kargs_header *h, size_t want,
                                                          const void *value, size_t size,
                                                          const cgn_owner *owner) {
    return size == want && want <= CGN__IN_PLACE_MAX_SIZE && value != NULL && owner == NULL &&
           (uintptr_t)value - (uintptr_t)h >= h->total;
}

/* Writes argument `index` (of h, whose sizes and kernelParams array are given) in place when
 * cgn__in_place_arg_ok says it may be, its 16-byte slot saved in undo first (1); else puts back
 * everything undo holds and returns 0. */
CGN__ALWAYS_INLINE static inline int cgn__put_in_place(const cgn__kargs_header *h,
                                                       const size_t *sizes, void **ptrs,
                                                       cgn__args_undo *undo, uint32_t index,
                                                       const void *value, size_t size,
                                                       const cgn_owner *owner) {
    if (!cgn__in_place_arg_ok(h, sizes[index], value, size, owner)) {
        cgn__args_undo_apply(undo); /* one pass: what was written goes back */
        return 0;
    }
    uint32_t k = undo->count++;
    uint64_t *slot = ptrs[index];
    undo->slot[k] = slot;
    undo->bytes[k][0] = slot[0];
    undo->bytes[k][1] = slot[1];
    cgn__copy_arg(slot, value, size);
    return 1;
}

void **cgn__args_in_place(const void *storage, cgn_kernel kernel, const cgn_arg *args,
                          uint32_t num_args, cgn__args_undo *undo) {
    cgn__kargs_header *h = cgn__in_place_block(storage);
    if (h == NULL || args == NULL || num_args == 0 || num_args > CGN_MAX_ARG_EDITS ||
        num_args != h->num_args || num_args != h->num_params ||
        !cgn__same_kernel(h->kernel, kernel))
        return NULL;
    const size_t *sizes = cgn__kargs_sizes(h);
    void **ptrs = cgn__kargs_ptrs(h);
    for (uint32_t i = 0; i < num_args; i++)
        if (!cgn__put_in_place(h, sizes, ptrs, undo, i, args[i].value, args[i].size, args[i].owner))
            return NULL;
    h->base = NULL; /* no longer its base plus its edits */
    return ptrs;
}

void **cgn__arg_edits_in_place(const void *storage, const cgn_arg_edits *edits,
                               cgn__args_undo *undo) {
    cgn__kargs_header *h = cgn__in_place_block(storage);
    uint32_t count = edits->count;
    if (h == NULL || count == 0 || count > CGN_MAX_ARG_EDITS)
        return NULL;
    const size_t *sizes = cgn__kargs_sizes(h);
    void **ptrs = cgn__kargs_ptrs(h);
    for (uint32_t i = 0; i < count; i++) {
        const cgn_arg_edit *e = &edits->edit[i];
        if (e->index >= h->num_args) {
            cgn__args_undo_apply(undo);
            return NULL;
        }
        if (!cgn__put_in_place(h, sizes, ptrs, undo, e->index, e->value, e->size, e->owner))
            return NULL;
    }
    h->base = NULL; /* no longer its base plus its edits */
    return ptrs;
}

void **cgn__arg_in_place(const void *storage, uint32_t index, const void *value, size_t size,
                         const cgn_owner *owner, cgn__args_undo *undo) {
    cgn__kargs_header *h = cgn__in_place_block(storage);
    if (h == NULL || index >= h->num_args ||
        !cgn__put_in_place(h, cgn__kargs_sizes(h), cgn__kargs_ptrs(h), undo, index, value, size,
                           owner))
        return NULL;
    h->base = NULL; /* no longer its base plus its edits */
    return cgn__kargs_ptrs(h);
}

void **cgn__args_in_place_owned(const cgn__lean *l, cgn_kernel kernel, const cgn_arg *args,
                                uint32_t num_args, cgn_owner *const *fixed, size_t num_fixed,
                                cgn__args_undo *undo, cgn__owner_swap *swap) {
    cgn__kargs_header *h = cgn__in_place_block(l->storage);
    cgn__attachment *a = l->rec->attachment;
    if (h == NULL || args == NULL || num_args == 0 || num_args > CGN_MAX_ARG_EDITS ||
        num_args != h->num_args || num_args != h->num_params ||
        !cgn__same_kernel(h->kernel, kernel))
        return NULL;
    size_t count = cgn__owner_list(NULL, fixed, num_fixed, args, num_args);
    /* No owners after: the transaction drops the attachment (a driver call). */
    if (count == 0 || !cgn__attachment_graphs_alone(l->rec, a, count))
        return NULL;
    const size_t *sizes = cgn__kargs_sizes(h);
    for (uint32_t i = 0; i < num_args; i++) /* every argument checked before any is written */
        if (!cgn__in_place_arg_ok(h, sizes[i], args[i].value, args[i].size, NULL))
            return NULL;
    void **ptrs = cgn__kargs_ptrs(h);
    cgn_arg *copies = cgn__kargs_copies(h);
    for (uint32_t i = 0; i < num_args; i++) {
        uint64_t *slot = ptrs[i];
        undo->slot[i] = slot;
        undo->bytes[i][0] = slot[0];
        undo->bytes[i][1] = slot[1];
        cgn__copy_arg(slot, args[i].value, args[i].size);
        swap->replaced[i] = copies[i].owner;
        copies[i].owner = args[i].owner;
    }
    undo->count = num_args;
    swap->copies = copies;
    swap->num_args = num_args;
    size_t k = cgn__owner_list(swap->owners, fixed, num_fixed, args, num_args);
    for (size_t i = 0; i < k; i++)
        cgn__owner_retain(swap->owners[i]);
    swap->attachment = a;
    swap->count = k;
    h->base = NULL; /* no longer its base plus its edits */
    return ptrs;
}

void cgn__lean_owners_commit(cgn__owner_swap *swap) {
    cgn_owner *released[CGN__REUSE_OWNERS] = {NULL}; /* initialised: gcc 13 -O3 cannot tell */
    size_t num_released =
        cgn__attachment_replace_owners(swap->attachment, swap->owners, swap->count, released);
    for (size_t i = 0; i < num_released; i++)
        cgn__owner_release(released[i]);
}

void cgn__lean_owners_undo(cgn__owner_swap *swap, const cgn__args_undo *undo) {
    cgn__args_undo_apply(undo);
    for (uint32_t i = 0; i < swap->num_args; i++)
        swap->copies[i].owner = swap->replaced[i];
    for (size_t i = 0; i < swap->count; i++)
        cgn__owner_release(swap->owners[i]);
}

void cgn__args_undo_apply(const cgn__args_undo *undo) {
    /* In reverse: an argument edited twice gets its first saved bytes back. */
    for (uint32_t k = undo->count; k-- > 0;) {
        undo->slot[k][0] = undo->bytes[k][0];
        undo->slot[k][1] = undo->bytes[k][1];
    }
}

/* ---- reading kernel nodes (adoption, refresh) ----------------------------------------------- */

struct cgn__layouts {
    cgn__layout *slots; /* open addressing by kernel handle; kernel all NULL: empty */
    size_t cap, count;
};

cgn__layouts *cgn__layouts_new(void) { return calloc(1, sizeof(cgn__layouts)); }

void cgn__layouts_free(cgn__layouts *l) {
    if (l == NULL)
        return;
    for (size_t i = 0; i < l->cap; i++)
        free(l->slots[i].sizes);
    free(l->slots);
    free(l);
}

static size_t cgn__layout_hash(cgn_kernel k) {
    uintptr_t h = (uintptr_t)k.function ^ (uintptr_t)k.kernel;
    return (size_t)(((uint64_t)h * 0x9E3779B97F4A7C15ull) >> 32);
}

static cgn__layout *cgn__layout_slot(cgn__layout *slots, size_t cap, cgn_kernel k) {
    for (size_t i = cgn__layout_hash(k) & (cap - 1);; i = (i + 1) & (cap - 1))
        if (cgn__same_kernel(slots[i].kernel, k) ||
            (slots[i].kernel.function == NULL && slots[i].kernel.kernel == NULL))
            return &slots[i];
}

/* The size of the argument block cgn__write_kernel_args would write for arguments of exactly
 * the layout's sizes, when it would accept them (every size non-zero, the totals within its
 * bounds, checked the way it checks them); else 0. Computed once per kernel, so reading a node
 * checks nothing per argument. */
static void cgn__layout_plan(cgn__layout *l) {
    l->block_total = 0;
    if (!l->checked) /* (the count is at most CGN__MAX_KERNEL_PARAMS: cgn__query_params) */
        return;
    size_t total = cgn__kargs_bytes_offset(l->count, l->count), arg_bytes = 0;
    for (uint32_t i = 0; i < l->count; i++) {
        if (l->sizes[i] == 0 || l->sizes[i] > CGN__MAX_ARG_BYTES ||
            (arg_bytes += l->sizes[i]) > CGN__MAX_ARG_BYTES)
            return;
        total += CGN__ALIGN_UP(l->sizes[i], 16);
    }
    l->block_total = total;
}

/* The kernel's layout: cached, or asked of the driver (and cached when there is a cache; else
 * into *scratch, whose arrays the caller frees). */
static cgn_status cgn__layout_of(cgn__layouts *cache, cgn_kernel k, cgn__layout *scratch,
                                 const cgn__layout **out, const char *where) {
    if (cache != NULL && cache->cap != 0) {
        cgn__layout *s = cgn__layout_slot(cache->slots, cache->cap, k);
        if (cgn__same_kernel(s->kernel, k)) {
            *out = s;
            return CGN_OK;
        }
    }
    size_t sizes[CGN__STACK_PARAMS], offsets[CGN__STACK_PARAMS];
    cgn_status st = cgn__query_layout(k, sizes, offsets, CGN__STACK_PARAMS, scratch, where);
    if (st != CGN_OK)
        return st;
    if (scratch->count == 0) {
        scratch->sizes = scratch->offsets = NULL;
    } else if (scratch->sizes == sizes) { /* kept beyond this call: one heap allocation */
        size_t *heap = malloc(2 * (size_t)scratch->count * sizeof *heap);
        if (heap == NULL) {
            scratch->sizes = scratch->offsets = NULL; /* this frame's arrays: not the caller's */
            return cgn__fail(CGN_ERROR_OUT_OF_MEMORY, "%s: out of host memory", where);
        }
        memcpy(heap, sizes, scratch->count * sizeof *heap);
        memcpy(heap + scratch->count, offsets, scratch->count * sizeof *heap);
        scratch->sizes = heap;
        scratch->offsets = heap + scratch->count;
    }
    cgn__layout_plan(scratch);
    *out = scratch;
    if (cache == NULL)
        return CGN_OK;
    if (2 * (cache->count + 1) > cache->cap) {
        size_t cap = cache->cap ? 2 * cache->cap : 16;
        cgn__layout *slots = calloc(cap, sizeof *slots);
        if (slots == NULL)
            return cgn__fail(CGN_ERROR_OUT_OF_MEMORY, "%s: out of host memory", where);
        for (size_t i = 0; i < cache->cap; i++)
            if (cache->slots[i].kernel.function || cache->slots[i].kernel.kernel)
                *cgn__layout_slot(slots, cap, cache->slots[i].kernel) = cache->slots[i];
        free(cache->slots);
        cache->slots = slots;
        cache->cap = cap;
    }
    cgn__layout *s = cgn__layout_slot(cache->slots, cache->cap, k);
    *s = *scratch;
    memset(scratch, 0, sizeof *scratch); /* the cache owns the arrays now */
    cache->count++;
    *out = s;
    return CGN_OK;
}

/* A block saying why an adopted node's arguments could not be copied (num_args 0), keeping
 * whatever layout the driver told. */
static cgn_status cgn__write_opaque_args(cgn__reader *rd, const cgn__layout *l, const char *why,
                                         const char *where) {
    uint32_t cached = l->checked ? l->count : 0;
    size_t total = cgn__kargs_ptrs_offset(cached);
    cgn__kargs_header *h = cgn__block_new(total);
    if (h == NULL)
        return cgn_last_status();
    (void)where;
    h->kernel = l->kernel;
    h->opaque = why;
    h->total = total;
    h->checked = l->checked;
    h->num_params = cached;
    h->num_args = 0;
    h->base = NULL;
    size_t *sizes = (size_t *)(h + 1);
    for (uint32_t i = 0; i < cached; i++)
        sizes[i] = l->sizes[i];
    rd->storage = h;
    return CGN_OK;
}

/* The packed argument buffer of an `extra` array covering `need` bytes; NULL when there is
 * none cgn can read. */
static const unsigned char *cgn__extra_buffer(void *const *extra, size_t need) {
    const unsigned char *buf = NULL;
    const size_t *size = NULL;
    for (size_t i = 0; i < 64 && extra[i] != CU_LAUNCH_PARAM_END; i += 2) {
        if (extra[i] == CU_LAUNCH_PARAM_BUFFER_POINTER)
            buf = extra[i + 1];
        else if (extra[i] == CU_LAUNCH_PARAM_BUFFER_SIZE)
            size = extra[i + 1];
        else
            return NULL; /* a key cgn does not know */
    }
    if (buf == NULL || size == NULL || *size < need)
        return NULL;
    return buf;
}

/* The bytes of argument i as the driver holds them. */
static const void *cgn__read_source(const CUDA_KERNEL_NODE_PARAMS_v3 *params,
                                    const unsigned char *packed, const cgn__layout *l,
                                    uint32_t i) {
    return packed ? (const void *)(packed + l->offsets[i]) : params->kernelParams[i];
}

/* The argument block of a node read from the driver, for a layout whose sizes
 * cgn__write_kernel_args accepts (l->block_total): the block it would write for the same
 * arguments (the format of cgn__kargs_header), without the intermediate cgn_arg array or the
 * per-argument checks, which the layout passed once. Values come from the driver (non-NULL:
 * checked by the caller). A refresh (prev) keeps the owner of an argument whose bytes did not
 * change. */
static cgn_status cgn__read_args_block(cgn__reader *rd, const cgn__layout *l,
                                       const CUDA_KERNEL_NODE_PARAMS_v3 *params,
                                       const unsigned char *packed, const cgn_arg *prev,
                                       uint32_t num_prev, const cgn_arg **args_out) {
    uint32_t count = l->count;
    size_t at = cgn__kargs_bytes_offset(count, count);
    /* Adoption cuts it from the adoption's arena, with no allocation each. */
    unsigned char *block = rd->arena != NULL ? cgn__arena_block(rd->arena, l->block_total)
                                             : cgn__block_new(l->block_total);
    if (block == NULL)
        return CGN_ERROR_OUT_OF_MEMORY;
    cgn__kargs_header *h = (cgn__kargs_header *)(void *)block;
    h->kernel = l->kernel;
    h->opaque = NULL;
    h->total = l->block_total;
    h->checked = 1;
    h->num_params = count;
    h->num_args = count;
    h->base = NULL;
    size_t *block_sizes = (size_t *)(void *)(h + 1);
    void **ptrs = cgn__kargs_ptrs(h);
    cgn_arg *copies = cgn__kargs_copies(h);
    const size_t *sizes = l->sizes;
    int plain = prev == NULL && packed == NULL; /* adoption from kernelParams: no owners */
    for (uint32_t i = 0; i < count; i++) {
        const void *value =
            plain ? params->kernelParams[i] : cgn__read_source(params, packed, l, i);
        size_t size = sizes[i];
        cgn_owner *owner = NULL; /* a refresh keeps the owner of an unchanged argument */
        if (!plain && prev != NULL && i < num_prev && prev[i].size == size &&
            memcmp(prev[i].value, value, size) == 0)
            owner = prev[i].owner;
        block_sizes[i] = size;
        cgn__kargs_put(block, &at, &ptrs[i], &copies[i], value, size, owner);
    }
    rd->storage = block;
    *args_out = count ? copies : NULL;
    return CGN_OK;
}

cgn_status cgn__read_kernel_args(cgn__reader *rd, cgn_kernel kernel,
                                 const CUDA_KERNEL_NODE_PARAMS_v3 *params, const cgn_arg *prev,
                                 uint32_t num_prev, const cgn_arg **args_out, uint32_t *num_out,
                                 const char *where) {
    *args_out = NULL;
    *num_out = 0;
    if ((kernel.function == NULL) == (kernel.kernel == NULL)) {
        rd->unsupported = "a kernel node the driver reports without a CUfunction or CUkernel";
        return CGN_OK;
    }
    cgn__layout scratch;
    memset(&scratch, 0, sizeof scratch);
    const cgn__layout *l = NULL;
    cgn_status st = cgn__layout_of(rd->layouts, kernel, &scratch, &l, where);
    if (st != CGN_OK) {
        free(scratch.sizes); /* NULL, or what a cache that ran out of memory did not take */
        return st;
    }
    const char *opaque = NULL;
    const unsigned char *packed = NULL;
    if (!l->checked) {
        opaque = "the kernel's argument sizes are unknown (cuFuncGetParamInfo and "
                 "cuKernelGetParamInfo need CUDA driver 12.4)";
    } else if (l->count > 0 && params->kernelParams == NULL) {
        size_t need = l->offsets[l->count - 1] + l->sizes[l->count - 1];
        packed = params->extra ? cgn__extra_buffer(params->extra, need) : NULL;
        if (packed == NULL)
            opaque = params->extra ? "its arguments were packed through `extra` in a form cgn "
                                     "does not read (it reads one CU_LAUNCH_PARAM_BUFFER_POINTER "
                                     "buffer covering every argument)"
                                   : "the driver reported neither kernelParams nor extra";
    }
    for (uint32_t i = 0; opaque == NULL && packed == NULL && i < l->count; i++)
        if (params->kernelParams[i] == NULL)
            opaque = "the driver reported a NULL argument pointer";
    if (opaque != NULL) {
        st = cgn__write_opaque_args(rd, l, opaque, where);
        free(scratch.sizes);
        return st;
    }
    if (l->block_total != 0) { /* sizes the writer accepts: the block is written here */
        st = cgn__read_args_block(rd, l, params, packed, prev, num_prev, args_out);
        if (scratch.sizes != NULL) /* no cache (a refresh) */
            free(scratch.sizes);
        if (st == CGN_OK)
            *num_out = l->count;
        return st;
    }
    cgn_arg stack[CGN__STACK_PARAMS] = {{NULL, 0, NULL}}; /* filled below; gcc 13 -O3 cannot tell */
    cgn_arg *args = l->count <= CGN__STACK_PARAMS ? stack : malloc(l->count * sizeof *args);
    if (args == NULL) {
        free(scratch.sizes);
        return cgn__fail(CGN_ERROR_OUT_OF_MEMORY, "%s: out of host memory", where);
    }
    for (uint32_t i = 0; i < l->count; i++) {
        const void *value = cgn__read_source(params, packed, l, i);
        size_t size = l->sizes[i];
        /* A refresh keeps the owner of an argument whose bytes did not change. */
        int same = prev != NULL && i < num_prev && prev[i].size == size &&
                   memcmp(prev[i].value, value, size) == 0;
        args[i] = (cgn_arg){value, size, same ? prev[i].owner : NULL};
    }
    cgn__txn t;
    memset(&t, 0, sizeof t);
    t.adding = 1; /* a fresh block, not a spare */
    void **ptrs = NULL;
    st = cgn__write_kernel_args(&t, kernel, l->sizes, l->count, 1, args, l->count, args_out, &ptrs,
                                where);
    if (args != stack)
        free(args);
    free(scratch.sizes);
    if (st != CGN_OK)
        return st;
    rd->storage = t.storage;
    *num_out = l->count;
    return CGN_OK;
}

int cgn__storage_kernel(const void *storage, cgn_kernel *kernel_out) {
    if (storage == NULL)
        return 0;
    *kernel_out = ((const cgn__kargs_header *)storage)->kernel;
    return 1;
}

const char *cgn__storage_opaque(const void *storage) {
    return storage ? ((const cgn__kargs_header *)storage)->opaque : NULL;
}

cgn_kernel cgn__read_kernel_handle(const CUDA_KERNEL_NODE_PARAMS_v3 *params,
                                   const cgn_kernel *prev) {
    cgn_kernel read = params->func ? (cgn_kernel){params->func, NULL}
                                   : (cgn_kernel){NULL, params->kern};
    if (prev == NULL || prev->kernel == NULL || read.function == NULL)
        return read;
    /* The CUfunction of prev's CUkernel in the node's context (params->ctx, the context the
     * node was added in, current for the query). */
    const cgn_driver_table *drv = cgn__driver;
    CUfunction f = NULL;
    CUcontext current = NULL;
    if (drv->cuKernelGetFunction == NULL || drv->cuCtxGetCurrent(&current) != CUDA_SUCCESS)
        return read;
    int push = params->ctx != NULL && params->ctx != current &&
               drv->cuCtxPushCurrent(params->ctx) == CUDA_SUCCESS;
    CUresult r = drv->cuKernelGetFunction(&f, prev->kernel);
    if (push) {
        CUcontext popped;
        (void)drv->cuCtxPopCurrent(&popped);
    }
    return r == CUDA_SUCCESS && f == read.function ? *prev : read;
}

void cgn__set_kernel_handle(CUDA_KERNEL_NODE_PARAMS_v3 *params, cgn_kernel kernel) {
    params->func = kernel.function;
    params->kern = kernel.kernel;
    params->extra = NULL;
}

/* ---- copy operands: device or host memory ---------------------------------------------------- */

/* A pipe used only to ask the kernel whether a byte is readable: write(2) from an unreadable
 * address fails with EFAULT instead of faulting. (mincore is not enough: CUDA reserves its
 * unified address range with PROT_NONE mappings, so a freed device address is "mapped".) */
static int cgn__probe_pipe[2] = {-1, -1};
static pthread_once_t cgn__probe_once = PTHREAD_ONCE_INIT;
static void cgn__probe_open(void) {
    if (pipe(cgn__probe_pipe) != 0)
        cgn__probe_pipe[0] = cgn__probe_pipe[1] = -1;
}

/* Whether this process can read the byte at `address`; 1 when it cannot tell. */
static int cgn__host_readable_probe(CUdeviceptr address) {
    pthread_once(&cgn__probe_once, cgn__probe_open);
    if (cgn__probe_pipe[1] < 0)
        return 1;
        /* The system call itself, not libc's write(): sanitizers intercept that and would report
         * the probe of a freed block (a destroyed CUDA handle) as a use after free. */
#ifdef SYS_write
    long n = syscall(SYS_write, cgn__probe_pipe[1], (const void *)(uintptr_t)address, (size_t)1);
#else
    ssize_t n = write(cgn__probe_pipe[1], (const void *)(uintptr_t)address, 1);
#endif
    if (n == 1) {
        unsigned char byte;
        while (read(cgn__probe_pipe[0], &byte, 1) < 0 && errno == EINTR)
            ;
        return 1;
    }
    return !(n < 0 && errno == EFAULT);
}

/* Whether this process can read the byte at `address`; 1 when it cannot tell. Like the other
 * probes below, it leaves errno as it found it: its system calls are not the caller's business. */
static int cgn__host_readable(CUdeviceptr address) {
    const int saved_errno = errno;
    const int readable = cgn__host_readable_probe(address);
    errno = saved_errno;
    return readable;
}

/* Whether this process can write the byte at `address`, found without changing it: the kernel
 * adds 0 to the aligned 32-bit word that holds the byte (futex FUTEX_WAKE_OP, waking nobody), an
 * atomic read-modify-write that fails with EFAULT where the page is not writable. Atomic, so a
 * copy writing the same memory meanwhile (an executable in flight) loses nothing; a private page
 * that was shared copy-on-write gets its own copy, as the copy's first write would. 1 when it
 * cannot tell. */
static int cgn__host_writable(CUdeviceptr address) {
#if defined(__linux__) && defined(SYS_futex) && defined(FUTEX_WAKE_OP)
    uint32_t *word = (uint32_t *)(uintptr_t)(address & ~(CUdeviceptr)3);
    uint32_t nobody = 0;
    const int saved_errno = errno;
    long r = syscall(SYS_futex, &nobody, FUTEX_WAKE_OP | FUTEX_PRIVATE_FLAG, 0, (void *)0, word,
                     FUTEX_OP(FUTEX_OP_ADD, 0, FUTEX_OP_CMP_EQ, 0));
    const int writable = !(r < 0 && errno == EFAULT);
    errno = saved_errno;
    return writable;
#else
    (void)address;
    return 1;
#endif
}

/* Whether every page from `from` to `to` (inclusive) is mapped: mincore fails with ENOMEM on a
 * range with unmapped pages, one call per CGN__MINCORE_PAGES pages. It does not see a PROT_NONE
 * reservation (CUDA's address range) as a hole; the probes of both ends do. 1 when it cannot
 * tell. */
#define CGN__MINCORE_PAGES 1024
static int cgn__host_range_mapped(uintptr_t from, uintptr_t to) {
    static _Thread_local long page;
    if (page == 0)
        page = sysconf(_SC_PAGESIZE);
    if (page <= 0 || (page & (page - 1)) != 0)
        return 1;
    unsigned char resident[CGN__MINCORE_PAGES];
    uintptr_t start = from & ~((uintptr_t)page - 1);
    uintptr_t pages = ((to - start) / (uintptr_t)page) + 1;
    if (pages <= 2)
        return 1; /* no page between the two ends, which are probed */
    const int saved_errno = errno;
    int mapped = 1;
    while (mapped && pages > 0) {
        uintptr_t n = pages < CGN__MINCORE_PAGES ? pages : CGN__MINCORE_PAGES;
        if (mincore((void *)start, n * (uintptr_t)page, resident) != 0 && errno == ENOMEM)
            mapped = 0;
        start += n * (uintptr_t)page;
        pages -= n;
    }
    errno = saved_errno;
    return mapped;
}

/* The extents this thread found mapped lately, so that an update loop that changes a host
 * copy's size within what was checked (8, 16, 8, 16 ... bytes) makes no system call: a probe
 * costs ~750 ns on the H200 (tools/probe/host_range.c). As with the address itself, memory the
 * caller unmaps or protects afterwards is not noticed. */
#define CGN__EXTENT_CACHE 4
typedef struct cgn__checked_extent {
    CUdeviceptr address;
    size_t first, last;
    int writable; /* checked for writing too */
} cgn__checked_extent;
static _Thread_local cgn__checked_extent cgn__checked[CGN__EXTENT_CACHE];
static _Thread_local unsigned cgn__checked_next;

cgn_status cgn__check_host_extent(CUdeviceptr address, size_t first, size_t last, int writes,
                                  const char *field, const char *where) {
    if (last > UINTPTR_MAX - address)
        return cgn__fail(CGN_ERROR_OUT_OF_RANGE,
                         "%s: %s 0x%llx: the copy reaches %zu bytes past it, beyond the end of "
                         "the address space",
                         where, field, (unsigned long long)address, last);
    for (unsigned i = 0; i < CGN__EXTENT_CACHE; i++) {
        const cgn__checked_extent *c = &cgn__checked[i];
        if (c->address == address && c->first <= first && last <= c->last &&
            (c->writable || !writes))
            return CGN_OK; /* both ends lie within ends found mapped (and writable) */
    }
    const size_t ends[2] = {first, last};
    for (int i = 0; i < 2; i++) {
        if (i == 1 && last == first)
            continue;
        /* A read of the address itself was checked when it was set. */
        const int unmapped = !(i == 0 && first == 0) && !cgn__host_readable(address + ends[i]);
        if (unmapped || (writes && !cgn__host_writable(address + ends[i])))
            return cgn__fail(CGN_ERROR_INVALID_VALUE,
                             "%s: %s 0x%llx is host memory%s, but byte %zu of the copy (0x%llx) "
                             "is %s",
                             where, field, (unsigned long long)address,
                             unmapped ? "" : " the copy writes", ends[i],
                             (unsigned long long)(address + ends[i]),
                             unmapped ? "not mapped" : "read-only");
    }
    if (last > first &&
        !cgn__host_range_mapped((uintptr_t)address + first, (uintptr_t)address + last))
        return cgn__fail(CGN_ERROR_INVALID_VALUE,
                         "%s: %s 0x%llx is host memory, but bytes %zu to %zu of the copy are not "
                         "all mapped",
                         where, field, (unsigned long long)address, first, last);
    cgn__checked_extent *c = &cgn__checked[cgn__checked_next++ % CGN__EXTENT_CACHE];
    c->address = address;
    c->first = first;
    c->last = last;
    c->writable = writes;
    return CGN_OK;
}

_Thread_local const void *cgn__mapped_handles[CGN__HANDLE_CACHE];

cgn_status cgn__probe_raw_handle(const void *handle, const char *field, const char *where) {
    if (!cgn__host_readable((CUdeviceptr)(uintptr_t)handle))
        return cgn__fail(CGN_ERROR_INVALID_VALUE,
                         "%s: %s %p is not a live handle: no memory is mapped at that address",
                         where, field, handle);
    cgn__mapped_handles[cgn__mapped_slot(handle)] = handle;
    return CGN_OK;
}

/* Whether `address` lies in an allocation of a memory allocation node of the graph the node is
 * in or being added to (such nodes live in root graphs only). Definition level only: an
 * executable-level update must not read the definition graph, which another thread may be
 * changing. A mem_alloc node's desc never changes after its add. */
static int cgn__in_graph_allocation(const cgn__txn *txn, CUdeviceptr address) {
    if (txn == NULL || txn->exec != NULL || txn->node == NULL || txn->node->graph == NULL)
        return 0;
    const cgn__graph_rec *g = txn->node->graph->root;
    for (size_t i = 0; i < g->num_nodes; i++) {
        const cgn__node_rec *n = g->nodes[i];
        if (n->type != CGN_NODE_MEM_ALLOC || n->state == NULL)
            continue;
        const cgn_mem_alloc_desc *a = n->state;
        if (address >= a->dptr && address - a->dptr < a->bytesize)
            return 1;
    }
    return 0;
}

cgn_status cgn__detect_memory_type(const cgn__txn *txn, CUdeviceptr address,
                                   CUmemorytype *type_out, const char *field, const char *where) {
    unsigned int type = 0; /* the attribute is a CUmemorytype, 4 bytes */
    CUresult r =
        cgn__driver->cuPointerGetAttribute(&type, CU_POINTER_ATTRIBUTE_MEMORY_TYPE, address);
    if (r == CUDA_ERROR_INVALID_VALUE) {
        /* Not an address the driver knows: pageable host memory, copied through host fields,
         * or memory that was freed. A freed device address passed on as host memory would be
         * read or written by the driver's host path at launch (a crash), so it must be
         * readable host memory. A graph allocation is device memory the driver has not
         * mapped yet. */
        if (cgn__in_graph_allocation(txn, address)) {
            *type_out = CU_MEMORYTYPE_DEVICE;
            return CGN_OK;
        }
        if (!cgn__host_readable(address))
            return cgn__fail(CGN_ERROR_INVALID_VALUE,
                             "%s: %s 0x%llx is neither memory the CUDA driver knows nor mapped "
                             "host memory (freed device memory?)",
                             where, field, (unsigned long long)address);
        *type_out = CU_MEMORYTYPE_HOST;
        return CGN_OK;
    }
    if (r != CUDA_SUCCESS) {
        char what[128];
        snprintf(what, sizeof what, "%s: cuPointerGetAttribute(MEMORY_TYPE) of %s", where, field);
        return cgn__fail_driver(r, what);
    }
    switch (type) {
    case CU_MEMORYTYPE_HOST:
        *type_out = CU_MEMORYTYPE_HOST;
        return CGN_OK;
    case CU_MEMORYTYPE_DEVICE:
    case CU_MEMORYTYPE_UNIFIED: /* managed memory is copied as device memory */
        *type_out = CU_MEMORYTYPE_DEVICE;
        return CGN_OK;
    default:
        return cgn__fail(CGN_ERROR_NOT_SUPPORTED,
                         "%s: %s 0x%llx is memory of type %u; cgn copies between device and host "
                         "memory only",
                         where, field, (unsigned long long)address, type);
    }
}

/* ---- cgn-owned byte copies ------------------------------------------------------------------- */

cgn_status cgn__stage_bytes_copy(const void *bytes, size_t size, const void **copy_out,
                                 cgn_owner **owner_out, const char *field, const char *where) {
    *copy_out = NULL;
    *owner_out = NULL;
    if (bytes == NULL)
        return cgn__fail(CGN_ERROR_INVALID_ARGUMENT, "%s: %s is NULL but its size is %zu", where,
                         field, size);
    void *copy = malloc(size);
    cgn_owner *owner = NULL;
    if (copy == NULL || cgn_owner_create(copy, free, &owner) != CGN_OK) {
        free(copy);
        return cgn__fail(CGN_ERROR_OUT_OF_MEMORY, "%s: no host memory for a copy of %s (%zu bytes)",
                         where, field, size);
    }
    memcpy(copy, bytes, size);
    *copy_out = copy;
    *owner_out = owner;
    return CGN_OK;
}

/* ---- memcpy nodes: the one form cgn updates ------------------------------------------------- */

static int cgn__host_or_device(CUmemorytype t) {
    return t == CU_MEMORYTYPE_HOST || t == CU_MEMORYTYPE_DEVICE;
}

/* The forms a copy descriptor can have, as the update check and adoption name them. */
enum {
    CGN__COPY_1D = 0,
    CGN__COPY_ARRAY,
    CGN__COPY_MEMORY_TYPE,
    CGN__COPY_MULTIDIMENSIONAL,
    CGN__COPY_OFFSET,
    CGN__COPY_PITCHED,
    CGN__COPY_RESERVED
};
static const char *const cgn__copy_form_words[] = {
    NULL, "array-backed", "of a memory type other than host or device", "multidimensional",
    "offset", "pitched", "using reserved fields"};
static const char *const cgn__copy_form_adopted[] = {
    NULL,
    "an array-backed memcpy node; cgn updates plain 1-D copies between host and device memory",
    "a memcpy node of a memory type other than host or device (CU_MEMORYTYPE_UNIFIED, as "
    "cudaMemcpyDefault captures); cgn updates plain 1-D copies between host and device memory",
    "a multidimensional memcpy node; cgn updates plain 1-D copies between host and device memory",
    "an offset memcpy node; cgn updates plain 1-D copies between host and device memory",
    "a pitched memcpy node; cgn updates plain 1-D copies between host and device memory",
    "a memcpy node using reserved fields; cgn updates plain 1-D copies between host and device "
    "memory"};

/* A 1-D copy may carry its natural pitch: the width, over one row (the CUDA runtime describes
 * its 1-D copies so); the copy is the same. */
static int cgn__natural_pitch(size_t pitch, size_t height, const CUDA_MEMCPY3D *c) {
    return (pitch == 0 || pitch == c->WidthInBytes) && height <= 1;
}

/* Which form the descriptor has (CGN__COPY_1D: a plain 1-D host/device copy). */
static int cgn__memcpy_form(const CUDA_MEMCPY3D *c) {
    if (c->srcMemoryType == CU_MEMORYTYPE_ARRAY || c->dstMemoryType == CU_MEMORYTYPE_ARRAY)
        return CGN__COPY_ARRAY;
    if (!cgn__host_or_device(c->srcMemoryType) || !cgn__host_or_device(c->dstMemoryType))
        return CGN__COPY_MEMORY_TYPE;
    if (c->Height != 1 || c->Depth != 1)
        return CGN__COPY_MULTIDIMENSIONAL;
    if (c->srcXInBytes || c->srcY || c->srcZ || c->srcLOD || c->dstXInBytes || c->dstY ||
        c->dstZ || c->dstLOD)
        return CGN__COPY_OFFSET;
    if (!cgn__natural_pitch(c->srcPitch, c->srcHeight, c) ||
        !cgn__natural_pitch(c->dstPitch, c->dstHeight, c))
        return CGN__COPY_PITCHED;
    if (c->reserved0 != NULL || c->reserved1 != NULL)
        return CGN__COPY_RESERVED;
    return CGN__COPY_1D;
}

/* Why the descriptor is not a plain 1-D host/device copy, or NULL when it is. */
static const char *cgn__memcpy_form_problem(const CUDA_MEMCPY3D *c) {
    return cgn__copy_form_words[cgn__memcpy_form(c)];
}

const char *cgn__memcpy_1d_form(const CUgraphNodeParams *params) {
    return cgn__copy_form_adopted[cgn__memcpy_form(&params->memcpy.copyParams)];
}

/* Reads the node's copy back from the driver and refuses a form `problem_of` names (changed
 * outside cgn); `updates` says what the node type does update. */
static cgn_status cgn__check_copy_form(const cgn__txn *txn,
                                       const char *(*problem_of)(const CUDA_MEMCPY3D *c),
                                       const char *updates, const char *where) {
    /* A node no raw handle reaches was changed by cgn alone, through the forms it builds. */
    if (!cgn__node_reachable_raw(txn->node))
        return CGN_OK;
    static const CUDA_MEMCPY3D zero; /* a copy, not a memset: see cgn__params_zeroed */
    CUDA_MEMCPY3D c = zero;
    CUresult r = cgn__driver->cuGraphMemcpyNodeGetParams(txn->node->raw, &c);
    if (r != CUDA_SUCCESS) {
        char what[128];
        snprintf(what, sizeof what, "%s: cuGraphMemcpyNodeGetParams", where);
        return cgn__fail_driver(r, what);
    }
    const char *problem = problem_of(&c);
    if (problem != NULL)
        return cgn__fail(CGN_ERROR_NOT_SUPPORTED,
                         "%s: memcpy node %p is %s (changed outside cgn); cgn updates %s only",
                         where, (void *)cgn__node_handle(txn->node), problem, updates);
    return CGN_OK;
}

cgn_status cgn__check_memcpy_1d(const cgn__txn *txn, const char *where) {
    return cgn__check_copy_form(txn, cgn__memcpy_form_problem,
                                "plain 1-D copies between host and device memory", where);
}

/* ---- memcpy_3d nodes: 2-D and 3-D copies, arrays included -------------------------------- */

static int cgn__copy3d_operand(CUmemorytype t) {
    return t == CU_MEMORYTYPE_HOST || t == CU_MEMORYTYPE_DEVICE || t == CU_MEMORYTYPE_ARRAY;
}

/* Why the descriptor is not a form memcpy_3d builds (as words after "is"), or NULL. */
static const char *cgn__memcpy_3d_problem(const CUDA_MEMCPY3D *c) {
    if (!cgn__copy3d_operand(c->srcMemoryType) || !cgn__copy3d_operand(c->dstMemoryType))
        return "of a memory type other than host, device or array";
    if (c->srcLOD || c->dstLOD)
        return "a copy of a mipmap level";
    if (c->reserved0 != NULL || c->reserved1 != NULL)
        return "using reserved fields";
    return NULL;
}

const char *cgn__memcpy_3d_form(const CUgraphNodeParams *params) {
    const char *problem = cgn__memcpy_3d_problem(&params->memcpy.copyParams);
    if (problem == NULL)
        return NULL;
    if (problem[0] == 'o') /* the memory type: say where it comes from */
        return "a memcpy node of a memory type other than host, device or array "
               "(CU_MEMORYTYPE_UNIFIED, as cudaMemcpyDefault captures); cgn updates copies "
               "between host, device and array memory";
    if (problem[0] == 'a')
        return "a memcpy node of a mipmap level; cgn updates copies between host, device and "
               "array memory without mipmap levels";
    return "a memcpy node using reserved fields; cgn updates copies between host, device and "
           "array memory";
}

cgn_status cgn__check_memcpy_3d(const cgn__txn *txn, const char *where) {
    return cgn__check_copy_form(txn, cgn__memcpy_3d_problem,
                                "copies between host, device and array memory", where);
}

/* ---- batch memory operations --------------------------------------------------------------- */

static int cgn__mem_op_bits(CUstreamBatchMemOpType t) {
    switch (t) {
    case CU_STREAM_MEM_OP_WRITE_VALUE_32:
    case CU_STREAM_MEM_OP_WAIT_VALUE_32:
        return 32;
    case CU_STREAM_MEM_OP_WRITE_VALUE_64:
    case CU_STREAM_MEM_OP_WAIT_VALUE_64:
        return 64;
    default:
        return 0; /* flush, barrier: no address or value */
    }
}

static int cgn__mem_op_known(CUstreamBatchMemOpType t) {
    return cgn__mem_op_bits(t) != 0 || t == CU_STREAM_MEM_OP_FLUSH_REMOTE_WRITES ||
           t == CU_STREAM_MEM_OP_BARRIER;
}

static int cgn__mem_op_is_wait(CUstreamBatchMemOpType t) {
    return t == CU_STREAM_MEM_OP_WAIT_VALUE_32 || t == CU_STREAM_MEM_OP_WAIT_VALUE_64;
}

const char *cgn__mem_op_name(CUstreamBatchMemOpType type) {
    switch (type) {
    case CU_STREAM_MEM_OP_WRITE_VALUE_32: return "write32";
    case CU_STREAM_MEM_OP_WRITE_VALUE_64: return "write64";
    case CU_STREAM_MEM_OP_WAIT_VALUE_32: return "wait32";
    case CU_STREAM_MEM_OP_WAIT_VALUE_64: return "wait64";
    case CU_STREAM_MEM_OP_FLUSH_REMOTE_WRITES: return "flush";
    case CU_STREAM_MEM_OP_BARRIER: return "barrier";
    default: return "unknown operation";
    }
}

/* One operation with every byte its type does not use zeroed (the driver's `alias`, the upper
 * half of a 32-bit value, the union's padding), so copies compare with memcmp. An unknown type
 * is copied as is. The writeValue and waitValue members have the same layout. */
static CUstreamBatchMemOpParams cgn__mem_op_normal(const CUstreamBatchMemOpParams *in) {
    CUstreamBatchMemOpParams out;
    memset(&out, 0, sizeof out);
    int bits = cgn__mem_op_bits(in->operation);
    if (bits != 0) {
        out.writeValue.operation = in->operation;
        out.writeValue.address = in->writeValue.address;
        if (bits == 32)
            out.writeValue.value = in->writeValue.value;
        else
            out.writeValue.value64 = in->writeValue.value64;
        out.writeValue.flags = in->writeValue.flags;
    } else if (in->operation == CU_STREAM_MEM_OP_FLUSH_REMOTE_WRITES) {
        out.flushRemoteWrites.operation = in->operation;
        out.flushRemoteWrites.flags = in->flushRemoteWrites.flags;
    } else if (in->operation == CU_STREAM_MEM_OP_BARRIER) {
        out.memoryBarrier.operation = in->operation;
        out.memoryBarrier.flags = in->memoryBarrier.flags;
    } else {
        out = *in;
    }
    return out;
}

/* Why operation `op` is refused, or NULL. */
static const char *cgn__mem_op_problem(const CUstreamBatchMemOpParams *op) {
    int bits = cgn__mem_op_bits(op->operation);
    if (!cgn__mem_op_known(op->operation))
        return "its type is none of CU_STREAM_MEM_OP_WRITE_VALUE_32/64, WAIT_VALUE_32/64, "
               "FLUSH_REMOTE_WRITES, BARRIER";
    if (bits != 0 && op->writeValue.address == 0)
        return "its address is 0";
    if (bits != 0 && op->writeValue.address % (CUdeviceptr)(bits / 8) != 0)
        return bits == 32 ? "its address is not 4-byte aligned"
                          : "its address is not 8-byte aligned";
    if (cgn__mem_op_is_wait(op->operation) &&
        (op->waitValue.flags & ~(unsigned)CU_STREAM_WAIT_VALUE_FLUSH) > CU_STREAM_WAIT_VALUE_NOR)
        return "its flags are not a CU_STREAM_WAIT_VALUE_* comparison (GEQ, EQ, AND, NOR), with "
               "or without CU_STREAM_WAIT_VALUE_FLUSH";
    if (bits != 0 && !cgn__mem_op_is_wait(op->operation) && op->writeValue.flags != 0)
        return "a write's flags must be 0 (CU_STREAM_WRITE_VALUE_NO_MEMORY_BARRIER is not "
               "supported by batch operations)";
    if (op->operation == CU_STREAM_MEM_OP_FLUSH_REMOTE_WRITES && op->flushRemoteWrites.flags != 0)
        return "a flush's flags must be 0";
    if (op->operation == CU_STREAM_MEM_OP_BARRIER &&
        op->memoryBarrier.flags != CU_STREAM_MEMORY_BARRIER_TYPE_SYS &&
        op->memoryBarrier.flags != CU_STREAM_MEMORY_BARRIER_TYPE_GPU)
        return "a barrier's flags must be CU_STREAM_MEMORY_BARRIER_TYPE_SYS or _GPU";
    return NULL;
}

cgn_status cgn__check_mem_ops(const CUstreamBatchMemOpParams *ops, uint32_t count,
                              const char *field, const char *where) {
    const void *const parts[] = {ops};
    cgn_status st = cgn__check_arrays(parts, 1, count, CGN_MAX_MEM_OPS, "CGN_MAX_MEM_OPS", field,
                                      "operation", where);
    if (st != CGN_OK)
        return st;
    for (uint32_t i = 0; i < count; i++) {
        const char *problem = cgn__mem_op_problem(&ops[i]);
        if (problem != NULL)
            return cgn__fail(CGN_ERROR_INVALID_VALUE, "%s: %s[%u] (type %d): %s", where, field, i,
                             (int)ops[i].operation, problem);
    }
    return CGN_OK;
}

/* A copied array of operations (cgn__stage_arrays, cgn__read_arrays), normalised in place. */
cgn_status cgn__stage_mem_ops(cgn__txn *txn, const CUstreamBatchMemOpParams *ops, uint32_t count,
                              const CUstreamBatchMemOpParams **copy_out, const char *field,
                              const char *where) {
    const void *const src[] = {ops};
    const size_t size[] = {sizeof *ops};
    void *out[1] = {NULL}; /* gcc 13 -O3 cannot see that a success sets it */
    cgn_status st = cgn__stage_arrays(txn, count, 1, src, size, out, field, where);
    if (st != CGN_OK)
        return st;
    CUstreamBatchMemOpParams *copy = out[0];
    for (uint32_t i = 0; i < count; i++)
        copy[i] = cgn__mem_op_normal(&copy[i]);
    *copy_out = copy;
    return CGN_OK;
}

cgn_status cgn__read_mem_ops(cgn__reader *rd, const CUstreamBatchMemOpParams *ops,
                             unsigned int count, const CUstreamBatchMemOpParams **ops_out,
                             uint32_t *count_out, const char *where) {
    (void)where;
    const void *const src[] = {ops};
    const size_t size[] = {sizeof *ops};
    void *out[1] = {NULL}; /* gcc 13 -O3 cannot see that a success sets it */
    cgn_status st = cgn__read_arrays(rd, count, 1, src, size, out);
    CUstreamBatchMemOpParams *copy = out[0];
    *ops_out = copy;
    *count_out = copy != NULL ? count : 0;
    for (unsigned int i = 0; copy != NULL && i < count; i++) {
        if (!cgn__mem_op_known(copy[i].operation))
            rd->unsupported = "a batch memory operation node with an operation type cgn does not "
                              "know";
        copy[i] = cgn__mem_op_normal(&copy[i]);
    }
    return st;
}

uint32_t cgn__mem_ops_type_change(const CUstreamBatchMemOpParams *a,
                                  const CUstreamBatchMemOpParams *b, uint32_t n) {
    for (uint32_t i = 0; i < n; i++)
        if (a[i].operation != b[i].operation)
            return i;
    return n;
}

uint32_t cgn__mem_ops_fixed_change(const CUstreamBatchMemOpParams *a,
                                   const CUstreamBatchMemOpParams *b, uint32_t n) {
    for (uint32_t i = 0; i < n; i++) {
        CUstreamBatchMemOpType t = a[i].operation;
        unsigned fa, fb;
        if (cgn__mem_op_bits(t) != 0) { /* writeValue and waitValue share the layout */
            fa = a[i].writeValue.flags;
            fb = b[i].writeValue.flags;
            if (cgn__mem_op_is_wait(t)) { /* the comparison may change, the flush bit not */
                fa &= (unsigned)CU_STREAM_WAIT_VALUE_FLUSH;
                fb &= (unsigned)CU_STREAM_WAIT_VALUE_FLUSH;
            }
        } else if (t == CU_STREAM_MEM_OP_BARRIER) {
            fa = a[i].memoryBarrier.flags;
            fb = b[i].memoryBarrier.flags;
        } else { /* a flush, or a type cgn does not know: compared whole */
            CUstreamBatchMemOpParams x = cgn__mem_op_normal(&a[i]), y = cgn__mem_op_normal(&b[i]);
            fa = memcmp(&x, &y, sizeof x) != 0;
            fb = 0;
        }
        if (fa != fb)
            return i;
    }
    return n;
}

/* ---- copied arrays ------------------------------------------------------------------------- */

/* Where part i starts in a block holding `nparts` parts of `count` elements: each part aligned
 * for any element type. Returns the block's size; count is at most a few thousand and sizes are
 * of CUDA structs, so nothing overflows. */
static size_t cgn__array_layout(size_t count, size_t nparts, const size_t *size, size_t *offset) {
    size_t total = 0;
    for (size_t i = 0; i < nparts; i++) {
        total = (total + alignof(max_align_t) - 1) / alignof(max_align_t) * alignof(max_align_t);
        offset[i] = total;
        total += count * size[i];
    }
    return total;
}

#define CGN__MAX_ARRAY_PARTS 4

cgn_status cgn__check_arrays(const void *const *parts, size_t nparts, uint32_t count, uint32_t max,
                             const char *max_name, const char *field, const char *noun,
                             const char *where) {
    for (size_t i = 0; i < nparts; i++)
        if (parts[i] == NULL)
            return cgn__fail(CGN_ERROR_INVALID_ARGUMENT, "%s: %s is NULL (%u %ss)", where, field,
                             count, noun);
    if (count == 0)
        return cgn__fail(CGN_ERROR_INVALID_VALUE, "%s: %s must hold at least one %s", where,
                         field, noun);
    if (count > max)
        return cgn__fail(CGN_ERROR_OUT_OF_RANGE, "%s: %u %ss in %s, at most %u (%s)", where, count,
                         noun, field, max, max_name);
    return CGN_OK;
}

cgn_status cgn__stage_arrays(cgn__txn *txn, uint32_t count, size_t nparts, const void *const *src,
                             const size_t *size, void **out, const char *field, const char *where) {
    size_t offset[CGN__MAX_ARRAY_PARTS];
    size_t total = cgn__array_layout(count, nparts, size, offset);
    /* The sources may lie in the spare block cgn__txn_storage hands out (a caller passing back
     * what a get returned): copy them aside first when they do. */
    unsigned char *block = cgn__txn_storage(txn, total);
    if (block == NULL)
        return cgn__fail(CGN_ERROR_OUT_OF_MEMORY,
                         "%s: no host memory for a copy of %s (%u "
                         "elements)",
                         where, field, count);
    int overlap = 0;
    for (size_t i = 0; i < nparts; i++) {
        const unsigned char *s = src[i];
        overlap |= s + count * size[i] > block && s < block + total;
    }
    unsigned char *aside = NULL;
    if (overlap) {
        aside = malloc(total);
        if (aside == NULL)
            return cgn__fail(CGN_ERROR_OUT_OF_MEMORY,
                             "%s: no host memory for a copy of %s (%u "
                             "elements)",
                             where, field, count);
        for (size_t i = 0; i < nparts; i++)
            memcpy(aside + offset[i], src[i], count * size[i]);
    }
    for (size_t i = 0; i < nparts; i++) {
        memcpy(block + offset[i], aside ? aside + offset[i] : (const unsigned char *)src[i],
               count * size[i]);
        out[i] = block + offset[i];
    }
    free(aside);
    return CGN_OK;
}

cgn_status cgn__read_arrays(cgn__reader *rd, size_t count, size_t nparts, const void *const *src,
                            const size_t *size, void **out) {
    int empty = count == 0;
    for (size_t i = 0; i < nparts; i++) {
        out[i] = NULL;
        empty |= src[i] == NULL;
    }
    if (empty)
        return CGN_OK;
    size_t offset[CGN__MAX_ARRAY_PARTS];
    size_t total = cgn__array_layout(count, nparts, size, offset);
    unsigned char *block =
        rd->arena != NULL ? cgn__arena_block(rd->arena, total) : cgn__block_new(total);
    if (block == NULL)
        return cgn_last_status();
    for (size_t i = 0; i < nparts; i++) {
        memcpy(block + offset[i], src[i], count * size[i]);
        out[i] = block + offset[i];
    }
    rd->storage = block;
    return CGN_OK;
}

cgn_status cgn__check_handles(const void *handles, size_t size, uint32_t count, const char *field,
                              const char *where) {
    const unsigned char *h = handles;
    for (uint32_t i = 0; i < count; i++) {
        size_t k = 0;
        while (k < size && h[i * size + k] == 0)
            k++;
        if (k == size)
            return cgn__fail(CGN_ERROR_INVALID_VALUE, "%s: %s[%u] is NULL", where, field, i);
    }
    return CGN_OK;
}
