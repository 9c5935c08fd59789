/* Generated from spec/ by codegen; do not edit. */
/* Every node type's descriptor, update struct and functions; included by cgn/cgn.h. */
#ifndef CGN_CGN_NODES_H
#define CGN_CGN_NODES_H

#include "cgn/cgn_batch_mem_op.h"
#include "cgn/cgn_child_graph.h"
#include "cgn/cgn_conditional.h"
#include "cgn/cgn_event_record.h"
#include "cgn/cgn_event_wait.h"
#include "cgn/cgn_ext_sem_signal.h"
#include "cgn/cgn_ext_sem_wait.h"
#include "cgn/cgn_host_callback.h"
#include "cgn/cgn_kernel.h"
#include "cgn/cgn_mem_alloc.h"
#include "cgn/cgn_mem_free.h"
#include "cgn/cgn_memcpy.h"
#include "cgn/cgn_memcpy_3d.h"
#include "cgn/cgn_memset.h"

#endif /* CGN_CGN_NODES_H */
