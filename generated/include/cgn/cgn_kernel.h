/* Generated from spec/kernel.yaml by codegen; do not edit. */
#ifndef CGN_CGN_KERNEL_H
#define CGN_CGN_KERNEL_H

/* Included by cgn/cgn.h (through cgn/cgn_nodes.h); standalone it includes cgn/cgn.h first. */
#include "cgn/cgn.h"

#ifdef __cplusplus
extern "C" {
#endif

/* Kernel node: Launch a kernel (CUfunction or CUkernel) with arguments given by value.
 * Reference: cuda.core 1.2.0 KernelNode.update(config=, kernel=, args=) */
typedef struct cgn_kernel_desc {
    cgn_kernel kernel;         /* The kernel, CGN_FUNCTION(f) or CGN_KERNEL(k). */
    cgn_owner *kernel_owner;   /* Optional owner of the kernel's module or library, retained while the node may run it. */
    cgn_dim3 grid;             /* Grid dimensions in blocks, each at least 1. */
    cgn_dim3 block;            /* Block dimensions in threads, each at least 1. */
    uint32_t shared_mem_bytes; /* Dynamic shared memory per block in bytes. */
    const cgn_arg *args;       /* Arguments by value; their owners are retained. Checked against the kernel on 12.4+. */
    uint32_t num_args;         /* Number of entries in args. */
} cgn_kernel_desc;

#define CGN_KERNEL_DESC_INIT {.shared_mem_bytes = 0}

/* One bit per field of cgn_kernel_update; a field is applied only when its bit is set. */
#define CGN_KERNEL_SET_KERNEL UINT64_C(0x1)
#define CGN_KERNEL_SET_KERNEL_OWNER UINT64_C(0x2)
#define CGN_KERNEL_SET_GRID UINT64_C(0x4)
#define CGN_KERNEL_SET_BLOCK UINT64_C(0x8)
#define CGN_KERNEL_SET_SHARED_MEM_BYTES UINT64_C(0x10)
#define CGN_KERNEL_SET_ARGS UINT64_C(0x20)
#define CGN_KERNEL_SET_ARG UINT64_C(0x40)
#define CGN_KERNEL_SET_ALL UINT64_C(0x7f)

/* A partial update: fields whose bit is not in `set` keep their current value.
 * Coupled: kernel requires args; kernel_owner requires kernel (kernel without kernel_owner
 * resets kernel_owner to NULL).
 * arg: edits of args by index, applied after args (when set too); args not edited keep their
 * value. Not part of the desc. */
typedef struct cgn_kernel_update {
    uint64_t set;
    cgn_kernel kernel;
    cgn_owner *kernel_owner;
    cgn_dim3 grid;
    cgn_dim3 block;
    uint32_t shared_mem_bytes;
    const cgn_arg *args;
    uint32_t num_args;
    cgn_arg_edits arg_edits;
} cgn_kernel_update;

#define CGN_KERNEL_UPDATE_INIT {.set = 0}

/* Clears the update for reuse: no field set, no edits. In a loop this is cheaper than
 * CGN_KERNEL_UPDATE_INIT, which zeroes the whole struct; fields not set are never read. */
static inline void cgn_kernel_update_reset(cgn_kernel_update *update) {
    update->set = 0;
    update->arg_edits.count = 0;
}

/* Sets kernel, kernel_owner and args together. */
static inline void cgn_kernel_update_set_kernel(cgn_kernel_update *update, cgn_kernel kernel,
                                                cgn_owner *kernel_owner, const cgn_arg *args,
                                                uint32_t num_args) {
    update->kernel = kernel;
    update->kernel_owner = kernel_owner;
    update->args = args;
    update->num_args = num_args;
    update->set |= CGN_KERNEL_SET_KERNEL | CGN_KERNEL_SET_KERNEL_OWNER | CGN_KERNEL_SET_ARGS;
}

/* Sets grid. */
static inline void cgn_kernel_update_set_grid(cgn_kernel_update *update, cgn_dim3 grid) {
    update->grid = grid;
    update->set |= CGN_KERNEL_SET_GRID;
}

/* Sets block. */
static inline void cgn_kernel_update_set_block(cgn_kernel_update *update, cgn_dim3 block) {
    update->block = block;
    update->set |= CGN_KERNEL_SET_BLOCK;
}

/* Sets shared_mem_bytes. */
static inline void cgn_kernel_update_set_shared_mem_bytes(cgn_kernel_update *update,
                                                          uint32_t shared_mem_bytes) {
    update->shared_mem_bytes = shared_mem_bytes;
    update->set |= CGN_KERNEL_SET_SHARED_MEM_BYTES;
}

/* Sets args. */
static inline void cgn_kernel_update_set_args(cgn_kernel_update *update, const cgn_arg *args,
                                              uint32_t num_args) {
    update->args = args;
    update->num_args = num_args;
    update->set |= CGN_KERNEL_SET_ARGS;
}

/* Edits argument `index` of args (at most CGN_MAX_ARG_EDITS edits an update; a later edit of the
 * same index wins): its `size` bytes at `value`, copied when the update is applied, with `owner`
 * in place of the owner of its previous value. The other arguments keep what the node (or that
 * executable) has. */
static inline void cgn_kernel_update_set_arg(cgn_kernel_update *update, uint32_t index,
                                             const void *value, size_t size, cgn_owner *owner) {
    if (update->arg_edits.count < CGN_MAX_ARG_EDITS) {
        cgn_arg_edit *e = &update->arg_edits.edit[update->arg_edits.count];
        e->value = value;
        e->owner = owner;
        e->index = index;
        e->size = size > UINT32_MAX ? UINT32_MAX : (uint32_t)size;
    }
    update->arg_edits.count++;
    update->set |= CGN_KERNEL_SET_ARG;
}

/* Sets every field from a complete desc (a full replacement, e.g. at executable level). */
static inline void cgn_kernel_update_from_desc(cgn_kernel_update *update,
                                               const cgn_kernel_desc *desc) {
    update->kernel = desc->kernel;
    update->kernel_owner = desc->kernel_owner;
    update->grid = desc->grid;
    update->block = desc->block;
    update->shared_mem_bytes = desc->shared_mem_bytes;
    update->args = desc->args;
    update->num_args = desc->num_args;
    update->set = (CGN_KERNEL_SET_ALL & ~CGN_KERNEL_SET_ARG);
}

/* Adds a kernel node after `deps`. The current context becomes the node's context. */
CGN_API cgn_status cgn_graph_add_kernel(cgn_graph *graph, cgn_node *const *deps, size_t num_deps,
                                        const cgn_kernel_desc *desc, cgn_node **node_out);

/* Applies a partial update with one cuGraphNodeSetParams, all or nothing; future instantiations
 * see it, existing executables keep their parameters and owners. Needs driver 12.2.
 * An update with nothing set returns CGN_OK without touching the driver. */
CGN_API cgn_status cgn_kernel_node_update(cgn_node *node, const cgn_kernel_update *update);

/* The node's current parameters. `args` points into cgn's copies, valid until the node's next
 * update or its destroy: copy what you keep longer. */
CGN_API cgn_status cgn_kernel_node_get(const cgn_node *node, cgn_kernel_desc *desc_out);

/* Applies a partial update to the node in one executable, with one cuGraphExecNodeSetParams, all
 * or nothing: unset fields keep what *that executable* has (its own copy, taken at
 * instantiation; the definition is never read), with the same coupling rules as the definition.
 * The definition and other executables are not touched. Owners of the new version are held until
 * no launch of the executable can read that version any more (docs/ownership.md). Needs driver
 * 12.2.
 * Checked by the driver only (cgn cannot see what they depend on), CGN_ERROR_INVALID_VALUE
 * naming the rule when refused: kernel: an executable's kernel node cannot move to another
 * context (a CUfunction owned by another context, or a function that newly uses dynamic
 * parallelism or device-side graph launch).
 * Another change the driver refuses is CGN_ERROR_DRIVER naming the fields set; nothing changes. */
CGN_API cgn_status cgn_kernel_exec_update(cgn_exec *exec, cgn_node *node,
                                          const cgn_kernel_update *update);

/* Replaces argument `index` of args with the `size` bytes at `value` (copied now), with `owner`
 * in place of the owner of its previous value; every other field and argument keeps what the
 * node has.
 * The same as cgn_kernel_node_update with an update made by cgn_kernel_update_set_arg(&u, index,
 * value, size, owner) alone, without an update to build (one struct fewer to fill in a loop):
 * the same checks, errors and guarantees. */
CGN_API cgn_status cgn_kernel_node_set_arg(cgn_node *node, uint32_t index, const void *value,
                                           size_t size, cgn_owner *owner);

/* Replaces argument `index` of args with the `size` bytes at `value` (copied now), with `owner`
 * in place of the owner of its previous value; every other field and argument keeps what the
 * executable has.
 * The same as cgn_kernel_exec_update with an update made by cgn_kernel_update_set_arg(&u, index,
 * value, size, owner) alone, without an update to build (one struct fewer to fill in a loop):
 * the same checks, errors and guarantees. */
CGN_API cgn_status cgn_kernel_exec_set_arg(cgn_exec *exec, cgn_node *node, uint32_t index,
                                           const void *value, size_t size, cgn_owner *owner);

/* The node's parameters as that executable has them (its own copy). `args` points into cgn's
 * copies, valid until that executable's next update of the node or its destroy: copy what you
 * keep longer. */
CGN_API cgn_status cgn_kernel_exec_get(const cgn_exec *exec, const cgn_node *node,
                                       cgn_kernel_desc *desc_out);

#ifdef __cplusplus
}
#endif

#endif /* CGN_CGN_KERNEL_H */
