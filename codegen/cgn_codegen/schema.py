"""The spec schema, as data, and the checker that applies it to a loaded spec.

Kinds: Str, Int, List, Map (fixed keys), MapOf (free keys), Any. Str may name an enum set
("status", "failure_status", "node_type", "field_type", "cu_node_type", "cu_member",
"node_check") resolved from include/cgn/cgn.h and the field-type table. Unknown keys are "soft" errors (reported, the
key ignored); every other mismatch is "hard": the checker returns the paths that had one so
semantic checks skip what they cannot trust instead of piling up follow-on errors.
Each Key carries `doc`, its meaning in the spec language reference docs/spec.md, which
specdoc.py renders from these tables (a CTest test keeps the committed file fresh).
"""
from __future__ import annotations

import re
from dataclasses import dataclass, field
from typing import Optional

from .diag import Diagnostics
from .load import YMap, YNode, YScalar, YSeq

IDENT = r"[a-z][a-z0-9_]*"
C_IDENT = r"[A-Za-z_][A-Za-z0-9_]*"
C_MEMBER_PATH = r"[A-Za-z_][A-Za-z0-9_]*(\.[A-Za-z_][A-Za-z0-9_]*)*"
CASE_ID = r"[a-z][a-z0-9]*(-[a-z0-9]+)*"


@dataclass(frozen=True)
class Str:
    pattern: Optional[str] = None   # full match
    enum: Optional[str] = None      # name of an enum set
    what: str = ""                  # how to describe the pattern in messages
    forbid: tuple = ("*/", "/*")    # substrings that would break the C comments they land in
    nonempty: bool = True
    # C99 guarantees string literals of 4095 characters (-Wpedantic: overlength-strings);
    # spec strings become literals (messages, case ids) and need nothing near that.
    max_len: int = 1000


@dataclass(frozen=True)
class Int:
    min: Optional[int] = None
    max: Optional[int] = None


@dataclass(frozen=True)
class Bool:
    pass


@dataclass(frozen=True)
class List:
    item: object
    min_items: int = 0


@dataclass(frozen=True)
class Key:
    schema: object
    required: bool = True
    # What the key means, for the spec language reference (docs/spec.md, codegen/cgn_codegen/
    # specdoc.py): one or two sentences of Markdown. The checker ignores it.
    doc: str = ""


@dataclass(frozen=True)
class Map:
    keys: dict = field(default_factory=dict)


@dataclass(frozen=True)
class MapOf:
    """A mapping with free keys (e.g. a case's field values); keys checked semantically."""
    value: object = None


@dataclass(frozen=True)
class Any:
    pass


FIELD = Map({
    "name": Key(Str(pattern=IDENT, what="a lowercase C identifier"),
                doc="The field's name: the desc and update struct member, the bit "
                    "`CGN_<NODE>_SET_<NAME>` and the setter `cgn_<node>_update_set_<name>` "
                    "(fields that require or follow each other share the setter of the first "
                    "of them that follows none). Unique "
                    "in the spec; C keywords, `set`, `update` and the names rules may use "
                    "(see [Rule expressions](#rule-expressions)) are reserved."),
    "type": Key(Str(enum="field_type"),
                doc="The field kind (see [Field kinds](#field-kinds)): its C members, how it "
                    "reaches the CUDA params, its test-value syntax."),
    "cuda": Key(Str(pattern=C_MEMBER_PATH, what="a C member name"), required=False,
                doc="The member of the `cuda.member` params struct the field is written to "
                    "(`copyParams.srcDevice` for a nested one). Required for kinds that have a "
                    "CUDA member, refused for the others; kinds that write several members "
                    "append suffixes (an `address` named `src` writes `srcMemoryType`, "
                    "`srcHost` or `srcDevice`)."),
    "doc": Key(Str(), doc="One line of documentation, copied into the generated header and "
                          "generated/docs/nodes.md."),
    "default": Key(Any(), required=False,
                   doc="The value `CGN_<NODE>_DESC_INIT` gives the field, in the kind's default "
                       "syntax; only kinds that take a default (see [Field kinds](#field-kinds)). "
                       "Without it the field starts zeroed (0, NULL)."),
    "since": Key(Int(min=10000, max=99990), required=False,
                 doc="The driver version (`CUDA_VERSION` form: 12040 is 12.4) an update setting "
                     "this field needs, when that is newer than `gates.update`: node and "
                     "executable updates that set it on an older driver fail with "
                     "CGN_ERROR_DRIVER_TOO_OLD, naming both versions, before anything else is "
                     "checked. Only for update-only kinds (an add cannot set them)."),
    "requires": Key(List(Str(pattern=IDENT, what="a field name"), min_items=1), required=False,
                    doc="Fields an update must set together with this one: an update setting "
                        "this field without one of them fails with CGN_ERROR_MISSING_FIELD "
                        "before anything changes. Setters of fields that require each other "
                        "are merged into one setter."),
    "follows": Key(Str(pattern=IDENT, what="a field name"), required=False,
                   doc="The leader field (which must also be listed in `requires`): an update "
                       "setting the leader without this field resets this one to zero (an "
                       "owner follows the pointer it guards). A leader cannot itself follow."),
    "host_extent": Key(Map({
        "first": Key(Str(), doc="The offset from the address of the first byte the node's "
                                "copy touches: a C expression over the desc, as in "
                                "[Rule expressions](#rule-expressions)."),
        "last": Key(Str(), doc="The offset of the last byte it touches (at least `first`)."),
        "writes": Key(Bool(), required=False,
                      doc="true for a destination: the bytes must also be writable (a copy "
                          "into read-only memory would crash the process at launch). "
                          "Default false."),
    }), required=False,
        doc="Only on `address` fields: which bytes from the address the node reads or writes, "
            "for a host operand. Besides the address itself (checked when the field is set), "
            "cgn checks that these two bytes, and every page between them, are mapped host "
            "memory whenever the field or a field the expressions read changes and the operand "
            "is host memory: an operand that runs into unmapped memory would crash the process "
            "at launch. The rules must "
            "keep both offsets within size_t; that the address plus `last` fits the address "
            "space is checked by cgn (CGN_ERROR_OUT_OF_RANGE)."),
    "output": Key(Bool(), required=False,
                  doc="true: the driver chooses the value when the node is added (it writes it "
                      "into the adder's params struct, as cuGraphAddMemAllocNode does with "
                      "`dptr`): the desc's value is ignored on input, cgn keeps what the adder "
                      "wrote, and `cgn_<node>_node_get` and `cgn_<node>_exec_get` report it. "
                      "Only in node types with `updatable: false` whose `cuda.add` takes "
                      "`params`, on a kind with a CUDA member; no `default`, not named by rules "
                      "nor given in cases. Default false."),
})

RULE = Map({
    "when": Key(Str(), doc="A C condition over the merged desc (see "
                           "[Rule expressions](#rule-expressions)); when it is true the add or "
                           "update is refused."),
    "status": Key(Str(enum="failure_status"), doc="The status returned when `when` holds."),
    "message": Key(Str(), doc="A printf format for cgn_last_error(), after `<function>: `; it "
                              "takes exactly as many arguments as `args` lists."),
    "args": Key(List(Str()), required=False,
                doc="C expressions (same syntax as `when`) for the conversions of `message`."),
})

EXEC_RULE = Map({
    "when": Key(Str(), doc="A C condition where a bare field is the merged new value and "
                           "`old.<field>` the executable's current one; true refuses the "
                           "executable-level update before any driver call."),
    "field": Key(Str(pattern=IDENT, what="a field name"),
                 doc="The field the refusal names (`field <name>:` in the message)."),
    "rule": Key(Str(), doc="The rule in words, appended to the message as `rule: <text>`; "
                           "plain text, no printf conversions."),
    "status": Key(Str(enum="failure_status"), required=False,
                  doc="The status returned; CGN_ERROR_INVALID_VALUE when omitted."),
    "message": Key(Str(), doc="A printf format describing the refused values; as many "
                              "conversions as `args`."),
    "args": Key(List(Str()), required=False,
                doc="C expressions (bare fields and `old.<field>`) for `message`."),
})

CASE = Map({
    "id": Key(Str(pattern=CASE_ID, what="lowercase words joined by '-'"),
              doc="The case's name in test output; unique in the spec."),
    "original": Key(MapOf(), doc="A full desc: field name to test value. Fields not given take "
                                 "their `default`, else zero."),
    "update": Key(MapOf(), required=False,
                  doc="A partial update of the original: only the fields given are set. It "
                      "must set something and honour `requires`. Required, except in node "
                      "types with `updatable: false`, which refuse it."),
    "replacement": Key(MapOf(), required=False,
                       doc="The full desc the update must produce, written out independently; "
                           "the generator checks it equals original plus update (followers "
                           "reset, argument edits applied). Required with `update`, refused "
                           "without it."),
    "invalid": Key(List(Map({
        "update": Key(MapOf(), doc="A partial update of the case's original that must fail."),
        "status": Key(Str(enum="failure_status"), doc="The status it must fail with."),
    })), required=False,
        doc="Updates that must fail with their status before any mutation, leaving the node, "
            "its owners and every executable unchanged."),
    # The field an executable-level `update` of this case is refused for, when it is.
    "exec_refuses": Key(Str(pattern=IDENT, what="a field name"), required=False,
                        doc="The field an executable-level update of the case's `update` is "
                            "refused for (an `exec.rules` rule), when it is; otherwise the "
                            "executable must accept it."),
    # Updates an executable must refuse before any mutation (executable-update rules).
    "exec_invalid": Key(List(Map({
        "update": Key(MapOf(), doc="A partial update the executable must refuse."),
        "status": Key(Str(enum="failure_status"), doc="The status it must fail with."),
        "field": Key(Str(pattern=IDENT, what="a field name"),
                     doc="The field the refusal's message must name."),
    })), required=False,
        doc="Executable-level updates (of an executable instantiated from the original) that "
            "`exec.rules` must refuse before any mutation."),
})

# A typed driver call (adder or getter) and how CUgraphNodeParams maps onto its arguments.
DRIVER_CALL = Map({
    "entry": Key(Str(enum="driver_entry"),
                 doc="The driver entry point, as named in runtime/driver_entries.h (a name "
                     "that is not there is an error here, not in the C compiler)."),
    "params": Key(Str(pattern=r"CUDA_[A-Z0-9_]+(_v[0-9]+)?|CUgraphNodeParams",
                      what="a CUDA_* struct type or CUgraphNodeParams"),
                  required=False,
                  doc="The call takes a pointer to this struct, whose layout is a prefix of the "
                      "params member (or of its `at` member): cgn copies that prefix in (add) or "
                      "out (get). `CUgraphNodeParams` (adders only, without `at`): the call "
                      "takes the whole tagged params, as the generic `cuGraphAddNode` (12.2) "
                      "does, for node types without a typed adder (conditional); a field kind "
                      "or a rule must then gate the add to a driver that has the entry. "
                      "Exactly one of `params` and `value`."),
    "at": Key(Str(pattern=C_MEMBER_PATH, what="a C member name"), required=False,
              doc="With `params`: the member of the params struct the prefix starts at "
                  "(memcpy: `copyParams`); default: the whole member."),
    "value": Key(Str(pattern=C_MEMBER_PATH, what="a C member name"), required=False,
                 doc="The call takes this member by value (add) or its address (get) instead of "
                     "a struct (event nodes: `event`). Exactly one of `params` and `value`."),
    "context": Key(Str(pattern=C_IDENT, what="a C member name"), required=False,
                   doc="Adders and setters: the call's last argument is this `CUcontext` "
                       "member (memset: `ctx`)."),
})


SPEC = Map({
    "node": Key(Str(pattern=IDENT, what="a lowercase C identifier"),
                doc="The node type's name: `cgn_<node>_desc`, `cgn_graph_add_<node>`, "
                    "`cgn_<node>_node_update` and the generated files `cgn_<node>.h` and "
                    "`cgn_<node>.c`. Unique across specs."),
    "type_enum": Key(Str(enum="node_type"),
                     doc="Its `cgn_node_type` enumerator in include/cgn/cgn.h (hand-written: see "
                         "[Adding a node type](#adding-a-node-type)). Unique across specs."),
    "summary": Key(Str(), doc="One line for the generated header and docs."),
    "cuda": Key(Map({
        "node_type": Key(Str(enum="cu_node_type"),
                         doc="The CUDA node type (`CUgraphNodeType`) the node records. Several "
                             "specs may record one (memcpy, memcpy_3d): adoption reads such a "
                             "node with the `cuda.get` of the first (in `cgn_node_type` order), "
                             "which all must share, and records it as the first whose "
                             "`cuda.update_check` accepts it, so all but the last need one."),
        "member": Key(Str(enum="cu_member"),
                      doc="The `CUgraphNodeParams` union member of that type; must match "
                          "`node_type` (see [CUDA node types](#cuda-node-types))."),
        "context_field": Key(Str(pattern=C_IDENT, what="a C member name"), required=False,
                             doc="The params member that names the node's context: cgn records "
                                 "the context current at add and writes it there on every "
                                 "update."),
        # The driver needs the node's context current while its params change (memset and
        # memcpy on 12.2-13.1): cgn pushes it around the update when another one is current.
        "context_current": Key(Bool(), required=False,
                               doc="true: cgn makes the node's recorded context current around "
                                   "each update (the driver needs it for memset and memcpy "
                                   "before 13.2). Default false."),
        # From this driver version on, the node type's setters neither need nor change the
        # calling thread's context (tools/probe/ctx_setters.c on the H200, driver 580/13.0).
        "context_free_from": Key(Int(min=12000, max=99999), required=False,
                                 doc="With `context_current: true`: from this driver version "
                                     "on (e.g. 13000) the update's setters neither need nor "
                                     "change the calling thread's context (measured with "
                                     "tools/probe/ctx_setters.c), so cgn does not ask for it; "
                                     "older drivers get the context handling."),
        # ...except for the updates this condition picks (kernel: a CUfunction, whose update
        # with no context current crashes inside libcuda).
        "context_when": Key(Str(), required=False,
                            doc="With `context_free_from`: a C condition over the merged new "
                                "fields and `old.<field>` (the version updated) under which an "
                                "update still runs in the node's context on those newer "
                                "drivers (kernel: a `CUfunction`, or a new kernel). A node "
                                "whose context cgn does not know always does."),
        "set": Key(DRIVER_CALL, required=False,
                   doc="The typed setter definition-level updates call instead of the generic "
                       "`cuGraphNodeSetParams` (faster on the H200: host and event setters "
                       "7 ns instead of 19 ns, the kernel setter ~6 ns less). Same shape as "
                       "`add` without the graph and dependencies; no `CUgraphNodeParams`. "
                       "Absent: the generic setter."),
        "exec_set": Key(DRIVER_CALL, required=False,
                        doc="The typed setter executable-level updates call instead of "
                            "`cuGraphExecNodeSetParams` (`cuGraphExecKernelNodeSetParams` is "
                            "~100 ns faster on the H200); its arguments after the executable "
                            "and node as in `set`. Absent: the generic setter."),
        "add": Key(DRIVER_CALL,
                   doc="How a node of this type is added on every driver cgn loads (12.0+): "
                       "the typed `cuGraphAdd*Node` entry point and its arguments after the "
                       "graph and dependencies (see [Driver calls](#driver-calls)). cgn "
                       "generates the call; the entry must be in runtime/driver_entries.h."),
        "get": Key(DRIVER_CALL, required=False,
                   doc="How adoption and `cgn_node_refresh` read a node of this type: the typed "
                       "getter (`cuGraph*NodeGetParams` or the like, 10.0+) and where its "
                       "result goes (see [Driver calls](#driver-calls)). Required, except with "
                       "`updatable: false` for a CUDA type no getter of cuda.h 13.0 reads "
                       "(conditional): adoption then records such a node as CGN_NODE_OTHER and "
                       "`cgn_node_refresh` leaves it as it is."),
        # CUDA members every build sets to a constant (memcpy: copyParams.Height: 1).
        "fixed": Key(MapOf(), required=False,
                     doc="Params members every build sets to a constant: member name to an "
                         "integer in [0, 4294967295] (memcpy: `copyParams.Height: 1`). A member "
                         "a field writes cannot be fixed."),
        # A check of the node's current driver-side form before each update (fieldtypes.py).
        "update_check": Key(Str(enum="node_check"), required=False,
                            doc="A check of the node's current driver-side form before each "
                                "update, and on adoption (see [Node checks](#node-checks))."),
    }), doc="How the node type maps onto the CUDA driver's params."),
    "updatable": Key(Bool(), required=False,
                     doc="false: CUDA cannot change a node of this type once added (memory "
                         "allocation and free nodes): the generator emits the desc, "
                         "`CGN_<NODE>_DESC_INIT`, the add, `cgn_<node>_node_get` and "
                         "`cgn_<node>_exec_get`, and no update struct, setters or update "
                         "functions; the registry marks the type not updatable, and "
                         "`cgn_node_check_updatable` reports CGN_ERROR_NOT_SUPPORTED naming it. "
                         "Such a spec takes no `gates`, no `exec.rules`, `exec.driver_rules` "
                         "or `exec.enable: true`, no field `since`, `requires` or `follows`, "
                         "and its cases give `original` only (no `update`, `replacement`, "
                         "`invalid`, `exec_refuses`, `exec_invalid`). Default true."),
    "test_model": Key(Bool(), required=False,
                      doc="false: a launch of the node changes nothing the test environment "
                          "observes (test buffers, events, host callbacks, semaphores), so the "
                          "type needs no `cgn_test_model_<node>` in "
                          "tests/support/cgn_test_env.c: the generated model table gives it one "
                          "that predicts no change, and the matrix checks that launches change "
                          "nothing. Default true."),
    "gates": Key(Map({
        "update": Key(Int(min=10000, max=99990),
                      doc="The driver version (`CUDA_VERSION` form: 12020 is 12.2) from which "
                          "node and executable updates are allowed; older drivers get "
                          "CGN_ERROR_DRIVER_TOO_OLD and nothing changes."),
    }), required=False,
        doc="Driver versions features need. Required, except with `updatable: false`, which "
            "refuses it."),
    "reference": Key(Str(), doc="The reference API this node type mirrors (cuda.core), for "
                                "the docs."),
    "fields": Key(List(FIELD, min_items=1),
                  doc="The node type's parameters, in struct order; at most 64 (one bit each "
                      "in `set`)."),
    "rules": Key(List(RULE), required=False,
                 doc="Checks of the merged desc, run in order on add and on every update "
                     "(node and executable level) that sets a field the rule reads, before any "
                     "driver call; the first whose `when` holds refuses the call."),
    # The executable level: which calls apply and the driver's executable-update rules, where
    # `old.<field>` is the executable's current value and a bare field the merged new one.
    "exec": Key(Map({
        "enable": Key(Bool(), required=False,
                      doc="true: `cgn_exec_node_set_enabled` supports the node type (CUDA: "
                          "kernel, memset and memcpy). Default false."),
        "rules": Key(List(EXEC_RULE), required=False,
                     doc="The driver's executable-update rules cgn checks itself, before any "
                         "mutation, on `cgn_<node>_exec_update`."),
        # Rules only the driver can check (cgn cannot see what they depend on): named in the
        # message when the driver refuses a change that set the field.
        "driver_rules": Key(List(Map({
            "field": Key(Str(pattern=IDENT, what="a field name"),
                         doc="The field the rule concerns; at most one rule a field."),
            "rule": Key(Str(), doc="The rule in words; plain text, no printf conversions."),
        })), required=False,
            doc="Rules only the driver can check: named in the message when the driver "
                "refuses an executable-level change that set the field."),
    }), required=False, doc="The executable level (`cgn_<node>_exec_update`)."),
    "owners": Key(List(Str(pattern=IDENT, what="a field name")), required=False,
                  doc="Every field that carries owners (kinds `owner`, `bytes`, `args`), each "
                      "once, the args field last: their owners are retained by each version "
                      "of the node while a graph, clone or executable may use it."),
    # How this node type differs from the reference implementation (for the generated docs).
    "differences": Key(List(Str()), required=False,
                       doc="How the node type differs from the reference implementation, one "
                           "item a difference (generated/docs/nodes.md)."),
    "cases": Key(List(CASE, min_items=1),
                 doc="The test matrix: each case runs through every scenario of "
                     "tests/matrix/test_matrix.c on the fake driver and on a GPU (see "
                     "[Cases](#cases))."),
})

# What each enum set of Str(enum=...) holds, for docs/spec.md.
ENUM_DOCS = {
    "status": "a `CGN_*` status of `CGN_STATUS_TABLE` in include/cgn/cgn.h",
    "failure_status": "a `CGN_*` status of `CGN_STATUS_TABLE` in include/cgn/cgn.h other "
                      "than CGN_OK",
    "node_type": "a `cgn_node_type` enumerator of include/cgn/cgn.h (not CGN_NODE_OTHER)",
    "field_type": "a field kind of codegen/cgn_codegen/fieldtypes.py",
    "cu_node_type": "a `CUgraphNodeType` with a `CUgraphNodeParams` member",
    "cu_member": "a `CUgraphNodeParams` union member",
    "node_check": "a node check of codegen/cgn_codegen/fieldtypes.py (NODE_CHECKS)",
    "driver_entry": "a `cuGraph*` entry point of `CGN_DRIVER_ENTRIES` in runtime/driver_entries.h "
                    "(add it there first)",
}

# CUgraphNodeParams (cuda.h 12.x): node types and the union member each uses.
CU_NODE_TYPES = {
    "CU_GRAPH_NODE_TYPE_KERNEL": "kernel",
    "CU_GRAPH_NODE_TYPE_MEMCPY": "memcpy",
    "CU_GRAPH_NODE_TYPE_MEMSET": "memset",
    "CU_GRAPH_NODE_TYPE_HOST": "host",
    "CU_GRAPH_NODE_TYPE_GRAPH": "graph",
    "CU_GRAPH_NODE_TYPE_WAIT_EVENT": "eventWait",
    "CU_GRAPH_NODE_TYPE_EVENT_RECORD": "eventRecord",
    "CU_GRAPH_NODE_TYPE_EXT_SEMAS_SIGNAL": "extSemSignal",
    "CU_GRAPH_NODE_TYPE_EXT_SEMAS_WAIT": "extSemWait",
    "CU_GRAPH_NODE_TYPE_MEM_ALLOC": "alloc",
    "CU_GRAPH_NODE_TYPE_MEM_FREE": "free",
    "CU_GRAPH_NODE_TYPE_BATCH_MEM_OP": "memOp",
    "CU_GRAPH_NODE_TYPE_CONDITIONAL": "conditional",
}


_MEMCPY3D = ("srcXInBytes", "srcY", "srcZ", "srcLOD", "srcMemoryType", "srcHost", "srcDevice",
             "srcArray", "srcPitch", "srcHeight", "dstXInBytes", "dstY", "dstZ", "dstLOD",
             "dstMemoryType", "dstHost", "dstDevice", "dstArray", "dstPitch", "dstHeight",
             "WidthInBytes", "Height", "Depth")

# The members of each CUgraphNodeParams union member's struct (cuda.h 12.x), which `cuda:` of a
# field and cuda.context_field may name (memcpy's nested CUDA_MEMCPY3D as copyParams.<member>).
CU_PARAMS_MEMBERS = {
    "kernel": ("func", "gridDimX", "gridDimY", "gridDimZ", "blockDimX", "blockDimY", "blockDimZ",
               "sharedMemBytes", "kernelParams", "extra", "kern", "ctx"),
    "memset": ("dst", "pitch", "value", "elementSize", "width", "height", "ctx"),
    "memcpy": ("flags", "copyCtx") + tuple("copyParams." + m for m in _MEMCPY3D),
    "host": ("fn", "userData"),
    "graph": ("graph", "ownership"),
    "eventWait": ("event",),
    "eventRecord": ("event",),
    "extSemSignal": ("extSemArray", "paramsArray", "numExtSems"),
    "extSemWait": ("extSemArray", "paramsArray", "numExtSems"),
    "alloc": ("poolProps", "poolProps.allocType", "poolProps.handleTypes",
              "poolProps.location.type", "poolProps.location.id", "poolProps.maxSize",
              "poolProps.usage", "accessDescs", "accessDescCount", "bytesize", "dptr"),
    "free": ("dptr",),
    "memOp": ("ctx", "count", "paramArray", "flags"),
    "conditional": ("handle", "type", "size", "phGraph_out", "ctx"),
}


def _c_names(header_text: str) -> tuple:
    """(statuses, node types) declared by include/cgn/cgn.h."""
    table = re.search(r"#define CGN_STATUS_TABLE\(X\)(.*?)\n\s*\n", header_text, re.S)
    statuses = re.findall(r"X\((CGN_\w+),", table.group(1)) if table else []
    enum = re.search(r"typedef enum cgn_node_type \{(.*?)\}", header_text, re.S)
    types = re.findall(r"\b(CGN_NODE_\w+)", enum.group(1)) if enum else []
    # Not CGN_NODE_TYPE_COUNT_, nor CGN_NODE_OTHER (adopted nodes of CUDA types cgn does not
    # build: no spec can describe one).
    types = [t for t in types if not t.endswith("_") and t != "CGN_NODE_OTHER"]
    return statuses, types


def driver_entry_names(entries_text: str) -> list:
    """The entry points of runtime/driver_entries.h's CGN_DRIVER_ENTRIES X-macro list."""
    return sorted(set(re.findall(r"^\s*X\((cu[A-Za-z0-9_]+),", entries_text, re.M)))


def enum_sets(header_text: str, field_types, node_checks=(), driver_entries=()) -> dict:
    statuses, node_types = _c_names(header_text)
    if not statuses or not node_types:
        raise RuntimeError("cannot find CGN_STATUS_TABLE or cgn_node_type in include/cgn/cgn.h")
    return {
        "status": statuses,
        "failure_status": [s for s in statuses if s != "CGN_OK"],
        "node_type": node_types,
        "field_type": sorted(field_types),
        "cu_node_type": sorted(CU_NODE_TYPES),
        "cu_member": sorted(set(CU_NODE_TYPES.values())),
        "node_check": sorted(node_checks),
        "driver_entry": [e for e in driver_entries if e.startswith("cuGraph")],
    }


_CONTROL = re.compile(r"[\x00-\x08\x0b-\x1f\x7f]")  # tab and newline are whitespace


class Checker:
    def __init__(self, enums: dict, diags: Diagnostics) -> None:
        self.enums = enums
        self.diags = diags
        self.bad: set = set()  # paths (tuples) that hold a hard error

    def _hard(self, path: tuple, node: YNode, message: str, mark=None) -> None:
        self.diags.error(mark or node.mark, message)
        self.bad.add(path)

    def check(self, schema, node: YNode, path: tuple = ()) -> None:
        if isinstance(schema, Any):
            return
        if isinstance(schema, Str):
            self._str(schema, node, path)
        elif isinstance(schema, Bool):
            if not (isinstance(node, YScalar) and isinstance(node.value, bool)):
                self._hard(path, node, "must be true or false")
        elif isinstance(schema, Int):
            if not (isinstance(node, YScalar) and isinstance(node.value, int)
                    and not isinstance(node.value, bool)):
                self._hard(path, node, f"{_name(path)}: expected an integer, got {node.kind()}")
            elif schema.min is not None and node.value < schema.min \
                    or schema.max is not None and node.value > schema.max:
                self._hard(path, node, f"{_name(path)}: {node.value} is outside "
                                       f"[{schema.min}, {schema.max}]")
        elif isinstance(schema, List):
            if not isinstance(node, YSeq):
                self._hard(path, node, f"{_name(path)}: expected a list, got {node.kind()}")
                return
            if len(node.items) < schema.min_items:
                self._hard(path, node, f"{_name(path)}: needs at least {schema.min_items} "
                                       f"item{'s' if schema.min_items > 1 else ''}")
            for i, item in enumerate(node.items):
                self.check(schema.item, item, path + (i,))
        elif isinstance(schema, MapOf):
            if not isinstance(node, YMap):
                self._hard(path, node, f"{_name(path)}: expected a mapping, got {node.kind()}")
        elif isinstance(schema, Map):
            self._map(schema, node, path)
        else:  # pragma: no cover - a bug in the schema table
            raise TypeError(schema)

    def _str(self, schema: Str, node: YNode, path: tuple) -> None:
        if not (isinstance(node, YScalar) and isinstance(node.value, str)):
            self._hard(path, node, f"{_name(path)}: expected a string, got {node.kind()}")
            return
        v = node.value
        ctrl = _CONTROL.search(v)
        if schema.nonempty and not v.strip():
            self._hard(path, node, f"{_name(path)}: must not be empty")
        elif len(v) > schema.max_len:
            self._hard(path, node, f"{_name(path)}: longer than {schema.max_len} characters")
        elif ctrl is not None:  # a NUL ends a printf format early; others garble output
            self._hard(path, node, f"{_name(path)}: must not contain control character "
                                   f"U+{ord(ctrl.group(0)):04X}", node.mark_at(ctrl.start()))
        elif schema.enum == "failure_status" and v == "CGN_OK":
            self._hard(path, node, f"{_name(path)}: CGN_OK is not a failure status")
        elif schema.enum is not None and v not in self.enums[schema.enum]:
            allowed = self.enums[schema.enum]
            self._hard(path, node, f"{_name(path)}: unknown {schema.enum.replace('_', ' ')} "
                                   f"'{v}' (expected one of: {', '.join(allowed)})")
        elif schema.pattern is not None and not re.fullmatch(schema.pattern, v):
            self._hard(path, node, f"{_name(path)}: '{v}' is not {schema.what}")
        else:
            for bad in schema.forbid:
                if bad in v:
                    self._hard(path, node, f"{_name(path)}: must not contain '{bad}'",
                               node.mark_at(v.index(bad)))

    def _map(self, schema: Map, node: YNode, path: tuple) -> None:
        if not isinstance(node, YMap):
            self._hard(path, node, f"{_name(path)}: expected a mapping, got {node.kind()}")
            return
        for key, value in node.items:
            if key.value not in schema.keys:
                self.diags.error(key.mark, f"{_name(path)}: unknown key "
                                           f"'{key.value}' (expected one of: "
                                           f"{', '.join(schema.keys)})")
                continue
            self.check(schema.keys[key.value].schema, value, path + (key.value,))
        present = set(node.keys())
        for name, key in schema.keys.items():
            if key.required and name not in present:
                self._hard(path + (name,), node,
                           f"{_name(path) if path else 'spec'}: missing required key '{name}'")

    def ok(self, *prefix) -> bool:
        """No hard error at or under `prefix`."""
        n = len(prefix)
        return not any(p[:n] == prefix for p in self.bad)


def _name(path: tuple) -> str:
    """fields[2].requires for ("fields", 2, "requires")."""
    out = ""
    for p in path:
        out += f"[{p}]" if isinstance(p, int) else (("." if out else "") + p)
    return out or "spec"
