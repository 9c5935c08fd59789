/* Field codecs: staging of field kinds that need cgn-owned copies or driver checks. They know
 * field kinds (kernel handles, argument lists, copy operands, byte payloads) and node forms
 * (a 1-D memcpy), never a node type's field names. */
#include <errno.h>
#include <stdalign.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <unistd.h>

#include "runtime.h"

/* Layout of a kernel-argument storage block:
 *   header | size_t param_size[num_params] | void *params[num_args] | cgn_arg copies[num_args]
 *   | argument bytes, each aligned to 16. */
typedef struct cgn__kargs_header {
    cgn_kernel kernel;   /* the kernel the cached parameter sizes belong to */
    int checked;         /* 1: param_size holds the kernel's sizes (driver 12.4+) */
    uint32_t num_params;
    uint32_t num_args;
} cgn__kargs_header;

#define CGN__ALIGN_UP(x, a) (((x) + (a) - 1) / (a) * (a))

/* Where the kernelParams array starts in a block caching `cached` parameter sizes: the one
 * place the writer and the reader of a block agree on. */
static size_t cgn__kargs_ptrs_offset(uint32_t cached) {
    return sizeof(cgn__kargs_header) + cached * sizeof(size_t);
}
#define CGN__MAX_KERNEL_PARAMS 4096u
/* CUDA limits a kernel's parameters to 32,764 bytes (12.1+); cgn refuses larger totals before
 * any arithmetic on them could wrap. */
#define CGN__MAX_ARG_BYTES (1u << 20)

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
                                size_t *size) {
    size_t offset;
    return k.function ? drv->cuFuncGetParamInfo(k.function, i, &offset, size)
                      : drv->cuKernelGetParamInfo(k.kernel, i, &offset, size);
}

/* Asks the driver for the kernel's parameter sizes, probing indices until INVALID_VALUE (the
 * count query arrives only in 13.2). *checked = 0 when the driver cannot tell (before 12.4). */
static cgn_status cgn__query_params(cgn_kernel k, size_t *sizes, uint32_t max, uint32_t *count,
                                    int *checked, const char *where) {
    const cgn_driver_table *drv = cgn__driver;
    *count = 0;
    *checked = 0;
    if (drv->version < 12040 ||
        (k.function ? !drv->cuFuncGetParamInfo : !drv->cuKernelGetParamInfo))
        return CGN_OK;
    for (uint32_t i = 0; i < CGN__MAX_KERNEL_PARAMS; i++) {
        size_t size = 0;
        CUresult r = cgn__param_info(drv, k, i, &size);
        if (r == CUDA_ERROR_INVALID_VALUE)
            break;
        if (r != CUDA_SUCCESS) {
            char what[96];
            snprintf(what, sizeof what, "%s: %s", where,
                     k.function ? "cuFuncGetParamInfo" : "cuKernelGetParamInfo");
            return cgn__fail_driver(r, what);
        }
        if (i < max)
            sizes[i] = size;
        (*count)++;
    }
    *checked = 1;
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

/* Checks the arguments (and, where the kernel's sizes are known, their count and sizes), then
 * writes the new argument block. Shared by the hot path (kernel unchanged: sizes from the
 * current block) and the path that asks the driver about a new kernel. */
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
    /* num_args <= CGN__MAX_KERNEL_PARAMS and cached <= 64: these offsets cannot overflow. */
    size_t off_args = CGN__ALIGN_UP(off_ptrs + num_args * sizeof(void *), alignof(cgn_arg));
    size_t off_bytes = CGN__ALIGN_UP(off_args + num_args * sizeof(cgn_arg), 16);
    size_t total = off_bytes;
    for (uint32_t i = 0; i < num_args; i++) { /* one pass: values, sizes, block size */
        if (args[i].value == NULL || args[i].size == 0)
            return cgn__fail(CGN_ERROR_INVALID_ARGUMENT,
                             "%s: argument %u has no value (value NULL or size 0)", where, i);
        if (checked && args[i].size != sizes[i])
            return cgn__check_args_against(sizes, num_params, kernel, args, num_args, where);
        /* Sizes are user input: a sum that wraps would make the block too small. A kernel's
         * parameters total at most 32 KiB, so anything near that bound is refused anyway. */
        if (args[i].size > CGN__MAX_ARG_BYTES || total > CGN__MAX_ARG_BYTES)
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
    h->kernel = kernel;
    h->checked = checked;
    h->num_params = cached;
    h->num_args = num_args;
    size_t *block_sizes = (size_t *)(block + off_sizes);
    for (uint32_t i = 0; i < cached; i++)
        block_sizes[i] = sizes[i];
    void **ptrs = (void **)(block + off_ptrs);
    cgn_arg *copies = (cgn_arg *)(block + off_args);
    size_t at = off_bytes;
    for (uint32_t i = 0; i < num_args; i++) {
        /* Fixed sizes let the compiler inline the common pointer and scalar copies. */
        if (args[i].size == 8)
            memcpy(block + at, args[i].value, 8);
        else if (args[i].size == 4)
            memcpy(block + at, args[i].value, 4);
        else
            memcpy(block + at, args[i].value, args[i].size);
        ptrs[i] = block + at;
        copies[i] = (cgn_arg){block + at, args[i].size, args[i].owner};
        at += CGN__ALIGN_UP(args[i].size, 16);
    }
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
    size_t sizes[64];
    uint32_t num_params = 0;
    int checked = 0;
    cgn_status st = cgn__query_params(kernel, sizes, 64, &num_params, &checked, where);
    if (st != CGN_OK)
        return st;
    if (checked && num_params > 64) {
        /* More than cgn caches: check the count only; the driver still checks the launch. */
        if (num_params != num_args)
            return cgn__fail(CGN_ERROR_INVALID_VALUE, "%s: kernel %s takes %u arguments; %u given",
                             where, cgn__kernel_name(cgn__driver, kernel), num_params, num_args);
        checked = 0;
    }
    return cgn__write_kernel_args(txn, kernel, sizes, num_params, checked, args, num_args,
                                  args_copy_out, params_out, where);
}

cgn_status cgn__stage_kernel_args(cgn__txn *txn, cgn_kernel kernel, const cgn_arg *args,
                                  uint32_t num_args, const cgn_arg **args_copy_out,
                                  void ***params_out, const char *where) {
    if ((kernel.function == NULL) == (kernel.kernel == NULL))
        return cgn__fail(CGN_ERROR_INVALID_VALUE,
                         "%s: kernel must name exactly one of a CUfunction and a CUkernel", where);
    const cgn__kargs_header *cur = cgn__txn_current_storage(txn);
    if (cur == NULL || !cgn__same_kernel(cur->kernel, kernel))
        return cgn__stage_args_for_new_kernel(txn, kernel, args, num_args, args_copy_out,
                                              params_out, where);
    /* The kernel is unchanged: its sizes are cached in the current block. */
    return cgn__write_kernel_args(txn, kernel, (const size_t *)(cur + 1), cur->num_params,
                                  cur->checked, args, num_args, args_copy_out, params_out, where);
}

void **cgn__current_kernel_params(const cgn__txn *txn) {
    const cgn__kargs_header *h = cgn__txn_current_storage(txn);
    if (h == NULL || h->num_args == 0)
        return NULL;
    return (void **)((unsigned char *)(uintptr_t)h + cgn__kargs_ptrs_offset(h->num_params));
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
static once_flag cgn__probe_once = ONCE_FLAG_INIT;
static void cgn__probe_open(void) {
    if (pipe(cgn__probe_pipe) != 0)
        cgn__probe_pipe[0] = cgn__probe_pipe[1] = -1;
}

/* Whether this process can read the byte at `address`; 1 when it cannot tell. */
static int cgn__host_readable(CUdeviceptr address) {
    call_once(&cgn__probe_once, cgn__probe_open);
    if (cgn__probe_pipe[1] < 0)
        return 1;
    ssize_t n = write(cgn__probe_pipe[1], (const void *)(uintptr_t)address, 1);
    if (n == 1) {
        unsigned char byte;
        while (read(cgn__probe_pipe[0], &byte, 1) < 0 && errno == EINTR)
            ;
        return 1;
    }
    return !(n < 0 && errno == EFAULT);
}

cgn_status cgn__detect_memory_type(CUdeviceptr address, CUmemorytype *type_out, const char *field,
                                   const char *where) {
    unsigned int type = 0; /* the attribute is a CUmemorytype, 4 bytes */
    CUresult r =
        cgn__driver->cuPointerGetAttribute(&type, CU_POINTER_ATTRIBUTE_MEMORY_TYPE, address);
    if (r == CUDA_ERROR_INVALID_VALUE) {
        /* Not an address the driver knows: pageable host memory, copied through host fields,
         * or memory that was freed. A freed device address passed on as host memory would be
         * read or written by the driver's host path at launch (a crash), so it must be
         * readable host memory. */
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

cgn_status cgn__stage_bytes(const void *bytes, size_t size, const void **copy_out,
                            cgn_owner **owner_out, const char *field, const char *where) {
    *copy_out = NULL;
    *owner_out = NULL;
    if (size == 0)
        return CGN_OK; /* a zero-length payload is no payload: the driver gets NULL */
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

void cgn__release_staged_copy(cgn_owner *owner) {
    if (owner != NULL)
        cgn__owner_release(owner);
}

/* ---- memcpy nodes: the one form cgn updates ------------------------------------------------- */

static int cgn__host_or_device(CUmemorytype t) {
    return t == CU_MEMORYTYPE_HOST || t == CU_MEMORYTYPE_DEVICE;
}

/* Why the descriptor is not a plain 1-D host/device copy, or NULL when it is. */
static const char *cgn__memcpy_form_problem(const CUDA_MEMCPY3D *c) {
    if (c->srcMemoryType == CU_MEMORYTYPE_ARRAY || c->dstMemoryType == CU_MEMORYTYPE_ARRAY)
        return "array-backed";
    if (!cgn__host_or_device(c->srcMemoryType) || !cgn__host_or_device(c->dstMemoryType))
        return "of a memory type other than host or device";
    if (c->Height != 1 || c->Depth != 1)
        return "multidimensional";
    if (c->srcXInBytes || c->srcY || c->srcZ || c->srcLOD || c->dstXInBytes || c->dstY ||
        c->dstZ || c->dstLOD)
        return "offset";
    if (c->srcPitch || c->srcHeight || c->dstPitch || c->dstHeight)
        return "pitched";
    if (c->reserved0 != NULL || c->reserved1 != NULL)
        return "using reserved fields";
    return NULL;
}

cgn_status cgn__check_memcpy_1d(const cgn__txn *txn, const char *where) {
    CUDA_MEMCPY3D c;
    memset(&c, 0, sizeof c);
    CUresult r = cgn__driver->cuGraphMemcpyNodeGetParams(txn->node->raw, &c);
    if (r != CUDA_SUCCESS) {
        char what[128];
        snprintf(what, sizeof what, "%s: cuGraphMemcpyNodeGetParams", where);
        return cgn__fail_driver(r, what);
    }
    const char *problem = cgn__memcpy_form_problem(&c);
    if (problem != NULL)
        return cgn__fail(CGN_ERROR_NOT_SUPPORTED,
                         "%s: memcpy node %p is %s (changed outside cgn); cgn updates plain 1-D "
                         "copies between host and device memory only",
                         where, (void *)cgn__node_handle(txn->node), problem);
    return CGN_OK;
}
