"""The validated spec, as frozen dataclasses; emit.py renders only from these."""
from __future__ import annotations

from dataclasses import dataclass
from typing import Optional

from .fieldtypes import FieldType, NodeCheck


@dataclass(frozen=True)
class Field:
    name: str
    type: FieldType
    cuda: Optional[str]
    doc: str
    default: Optional[str]      # C initializer for CGN_<NODE>_DESC_INIT
    requires: tuple             # field names, as listed
    follows: Optional[str]
    followers: tuple            # names of the fields that follow this one
    index: int                  # bit number
    since: int = 0              # driver version an update setting it needs (0: gates.update)
    output: bool = False        # chosen by the driver at add (spec: output), ignored on input

    @property
    def bit_value(self) -> int:
        return 1 << self.index

    @property
    def leader(self) -> str:
        """The field whose bit says this one was replaced: itself, or the one it follows."""
        return self.follows or self.name


@dataclass(frozen=True)
class Rule:
    when: str                   # C, fields prefixed with d->
    status: str
    message: str                # printf format from the spec (not escaped)
    args: tuple                 # C, fields prefixed with d->
    fields: tuple = ()          # the fields `when` reads: the rule runs when one of them changes


@dataclass(frozen=True)
class HostExtent:
    """The bytes an address field's host operand must have mapped: offsets from the address."""
    field: str                  # the address field
    first: str                  # C, fields prefixed with d->
    last: str
    fields: tuple = ()          # the fields first and last read: a change to one rechecks
    writes: bool = False        # a destination: the bytes must be writable too


@dataclass(frozen=True)
class ExecRule:
    """An executable-update rule: `when` (C over d-> and cur->) refuses the change."""
    when: str
    field: str                  # the field the message names
    rule: str                   # the rule, in words
    status: str
    message: str
    args: tuple


@dataclass(frozen=True)
class Fill:
    """Statements filling a desc (over `$t`) or an update; `fields` set, in field order."""
    fields: tuple
    lines: tuple


@dataclass(frozen=True)
class Invalid:
    update: Fill
    status: str
    text: str                   # the update as written in the spec, for messages


@dataclass(frozen=True)
class ExecInvalid:
    """An update an executable must refuse before any mutation, naming `field`."""
    update: Fill
    status: str
    field: str
    text: str


@dataclass(frozen=True)
class Case:
    id: str
    original: Fill
    update: Optional[Fill]      # None in node types that are not updatable
    replacement: Optional[Fill]
    invalid: tuple
    exec_invalid: tuple = ()
    exec_refuses: str = ""      # field an executable refuses `update` for; "" when accepted


@dataclass(frozen=True)
class DriverCall:
    """A typed adder or getter: entry point, and either a struct prefix or one member."""
    entry: str
    params: Optional[str] = None    # CUDA_* struct, a layout prefix of the member (at `at`)
    at: Optional[str] = None        # member path the prefix starts at; None: the whole member
    value: Optional[str] = None     # member passed by value (add) or by address (get)
    context: Optional[str] = None   # add, set: trailing CUcontext argument, a member


@dataclass(frozen=True)
class Node:
    spec_file: str              # "memset.yaml"
    node: str
    type_enum: str
    summary: str
    cu_node_type: str
    member: str
    context_field: Optional[str]
    context_current: bool
    add: DriverCall
    get: Optional[DriverCall]  # None: no getter (adoption records CGN_NODE_OTHER)
    update_gate: int            # 0 when not updatable
    reference: str
    fields: tuple
    rules: tuple
    owners: tuple               # Field, in staging order
    cases: tuple
    fixed: tuple = ()           # (CUDA member, integer) set on every build
    update_check: Optional[NodeCheck] = None
    differences: tuple = ()     # how the node type differs from the reference, for the docs
    exec_enable: bool = False   # cuGraphNodeSetEnabled supports the node type
    exec_rules: tuple = ()      # ExecRule
    driver_rules: tuple = ()    # (field name, rule text): rules only the driver checks
    host_extents: tuple = ()    # HostExtent, one per address field that has `host_extent`
    updatable: bool = True      # spec: updatable (false: no update struct or functions)
    test_model: bool = True     # spec: test_model (false: launches change nothing observed)
    set: Optional[DriverCall] = None       # None: cuGraphNodeSetParams
    exec_set: Optional[DriverCall] = None  # None: cuGraphExecNodeSetParams
    context_free_from: int = 0  # driver version from which updates skip the context (0: never)
    context_when: Optional[str] = None  # C condition (d, cur) still needing it from then on

    @property
    def outputs(self) -> tuple:
        return tuple(f for f in self.fields if f.output)

    def field(self, name: str) -> Field:
        return next(f for f in self.fields if f.name == name)

    def role(self, role: str) -> Optional[Field]:
        return next((f for f in self.fields if f.type.role == role), None)
