"""The spec schema, as data, and the checker that applies it to a loaded spec.

Kinds: Str, Int, List, Map (fixed keys), MapOf (free keys), Any. Str may name an enum set
("status", "failure_status", "node_type", "field_type", "cu_node_type", "cu_member",
"node_check") resolved from include/cgn/cgn.h and the field-type table. Unknown keys are "soft" errors (reported, the
key ignored); every other mismatch is "hard": the checker returns the paths that had one so
semantic checks skip what they cannot trust instead of piling up follow-on errors.
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
    "name": Key(Str(pattern=IDENT, what="a lowercase C identifier")),
    "type": Key(Str(enum="field_type")),
    "cuda": Key(Str(pattern=C_MEMBER_PATH, what="a C member name"), required=False),
    "doc": Key(Str()),
    "default": Key(Any(), required=False),
    "requires": Key(List(Str(pattern=IDENT, what="a field name"), min_items=1), required=False),
    "follows": Key(Str(pattern=IDENT, what="a field name"), required=False),
})

RULE = Map({
    "when": Key(Str()),
    "status": Key(Str(enum="failure_status")),
    "message": Key(Str()),
    "args": Key(List(Str()), required=False),
})

EXEC_RULE = Map({
    "when": Key(Str()),
    "field": Key(Str(pattern=IDENT, what="a field name")),
    "rule": Key(Str()),
    "status": Key(Str(enum="failure_status"), required=False),
    "message": Key(Str()),
    "args": Key(List(Str()), required=False),
})

CASE = Map({
    "id": Key(Str(pattern=CASE_ID, what="lowercase words joined by '-'")),
    "original": Key(MapOf()),
    "update": Key(MapOf()),
    "replacement": Key(MapOf()),
    "invalid": Key(List(Map({
        "update": Key(MapOf()),
        "status": Key(Str(enum="failure_status")),
    })), required=False),
    # The field an executable-level `update` of this case is refused for, when it is.
    "exec_refuses": Key(Str(pattern=IDENT, what="a field name"), required=False),
    # Updates an executable must refuse before any mutation (executable-update rules).
    "exec_invalid": Key(List(Map({
        "update": Key(MapOf()),
        "status": Key(Str(enum="failure_status")),
        "field": Key(Str(pattern=IDENT, what="a field name")),
    })), required=False),
})

SPEC = Map({
    "node": Key(Str(pattern=IDENT, what="a lowercase C identifier")),
    "type_enum": Key(Str(enum="node_type")),
    "summary": Key(Str()),
    "cuda": Key(Map({
        "node_type": Key(Str(enum="cu_node_type")),
        "member": Key(Str(enum="cu_member")),
        "context_field": Key(Str(pattern=C_IDENT, what="a C member name"), required=False),
        # The driver needs the node's context current while its params change (memset and
        # memcpy on 12.2-13.1): cgn pushes it around the update when another one is current.
        "context_current": Key(Bool(), required=False),
        "add": Key(Str(pattern=IDENT, what="a lowercase C identifier")),
        # CUDA members every build sets to a constant (memcpy: copyParams.Height: 1).
        "fixed": Key(MapOf(), required=False),
        # A check of the node's current driver-side form before each update (fieldtypes.py).
        "update_check": Key(Str(enum="node_check"), required=False),
    })),
    "gates": Key(Map({
        "update": Key(Int(min=10000, max=99990)),
    })),
    "reference": Key(Str()),
    "fields": Key(List(FIELD, min_items=1)),
    "rules": Key(List(RULE), required=False),
    # The executable level: which calls apply and the driver's executable-update rules, where
    # `old.<field>` is the executable's current value and a bare field the merged new one.
    "exec": Key(Map({
        "enable": Key(Bool(), required=False),
        "rules": Key(List(EXEC_RULE), required=False),
        # Rules only the driver can check (cgn cannot see what they depend on): named in the
        # message when the driver refuses a change that set the field.
        "driver_rules": Key(List(Map({
            "field": Key(Str(pattern=IDENT, what="a field name")),
            "rule": Key(Str()),
        })), required=False),
    }), required=False),
    "owners": Key(List(Str(pattern=IDENT, what="a field name")), required=False),
    # How this node type differs from the reference implementation (for the generated docs).
    "differences": Key(List(Str()), required=False),
    "cases": Key(List(CASE, min_items=1)),
})

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
    "alloc": ("poolProps", "accessDescs", "accessDescCount", "bytesize", "dptr"),
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


def enum_sets(header_text: str, field_types, node_checks=()) -> dict:
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
